//! Executable memory for translated runs: the one place where host code is made runnable.
//!
//! A run's machine code (position-independent, no relocations: its constants sit in the
//! code buffer after the code, addressed RIP-relative) is copied into an anonymous mapping,
//! which is then made read+execute (never writable and executable at once).

use memmap2::{Mmap, MmapMut};

/// The host signature of every translated run (see `emit`): the thread's GRF bytes, its
/// ARF bytes (the flag registers), the channels control flow enables, the first
/// instruction to run and one past the last. Returns the lanes the instructions wrote.
pub type RunFn = unsafe extern "C" fn(*mut u8, *mut u8, u32, u32, u32) -> u32;

pub struct Code {
    /// Kept mapped while the function may be called.
    map: Mmap,
}

impl Code {
    /// Map `bytes` executable. Errors when the host refuses the mapping.
    pub fn new(bytes: &[u8]) -> std::io::Result<Code> {
        let mut m = MmapMut::map_anon(bytes.len().max(1))?;
        m[..bytes.len()].copy_from_slice(bytes);
        Ok(Code {
            map: m.make_exec()?,
        })
    }

    /// The run's entry point.
    pub fn entry(&self) -> RunFn {
        // SAFETY: the mapping holds a complete function compiled by Cranelift for the host
        // ISA with the `RunFn` signature (system-V / the host's C calling convention, which
        // `emit` declares), starting at its first byte and without relocations; it lives as
        // long as `self`, and callers hold `self` while they call.
        unsafe { std::mem::transmute::<*const u8, RunFn>(self.map.as_ptr()) }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
