//! Executable memory for translated runs: the one place where host code is made runnable.
//!
//! A run's machine code (position-independent, no relocations: its constants sit in the
//! code buffer after the code, addressed RIP-relative) is written to a memfd of its own,
//! which is then mapped read+execute: no mapping of it is ever writable, and none gains
//! execute permission after it is made. That is what a process under a W^X policy may
//! still do (systemd's `MemoryDenyWriteExecute=`, which gencld's unit sets, and the
//! kernel's `PR_SET_MDWE`): an anonymous mapping made executable by `mprotect` was refused
//! there, and the GPU model interpreted everything.

use std::io::Write;

use memmap2::{Mmap, MmapOptions};
use nix::sys::memfd::{memfd_create, MFdFlags};

use super::super::fast::Plan;
use super::super::program::GRF_BYTES;

/// The host signature of every translated run (see `emit::function`): the thread's GRF
/// bytes, its ARF bytes (the flag registers), the run's [`Ctx`] and the GRF bytes again.
pub type RunFn = unsafe extern "C" fn(*mut u8, *mut u8, *mut Ctx, *mut u8);

/// What a run is told and what it tells back, at the offsets of [`ctx`].
#[repr(C)]
#[derive(Debug, Default)]
pub struct Ctx {
    /// In: channels control flow enables, and those the dispatcher enabled.
    pub active: u32,
    pub dispatch: u32,
    /// In: the instruction to start at, and how many instructions it may run (at least 1).
    pub start: u32,
    pub budget: u32,
    /// Out: the lanes its instructions ran on, how many it ran, their issue cycles.
    pub lanes: u32,
    pub executed: u32,
    pub issue: u32,
    /// In: channels parked by control flow (`Thread::waiting`).
    pub waiting: u32,
    /// Out: where the thread goes on.
    pub next_ip: u64,
    /// The run's own scratch: the counter increments its instructions add, written at
    /// entry (`emit::function`), read by each instruction as one memory operand.
    pub incs: [u64; INCS],
    /// The run's own scratch: per instruction shape, whether `active` enables all its
    /// channels (1) or not (0), written at entry, tested by each of its stores.
    pub alls: [u8; INCS],
    /// Out: `slow_float` caught a panic (its text is `take_slow_panic`'s).
    pub slow_panicked: u8,
    /// In: the GRFs replies may still be on their way to (`Host::busy`; bit n: rn), which
    /// the run's instructions that touch its sends' replies test.
    pub busy: [u64; 2],
    /// Out: why the run left before instruction `stop_at` (`STOP_SEND`, `STOP_WAIT`,
    /// `STOP_FLOW`), or 0.
    pub stop: u32,
    pub stop_at: u32,
    /// In: `incs` and `alls` hold this `Run::exec`'s values (written at its first entry).
    pub ready: u8,
}

/// `Ctx::stop`: the run left before its send `stop_at`, for `Run::exec` to send it
/// (`Host::send`) and go on after it.
pub const STOP_SEND: u32 = 1;
/// `Ctx::stop`: the run left before instruction `stop_at`, which touches a register a reply
/// may still be on its way to, for `Run::exec` to wait (`Host::wait`) and go on there.
pub const STOP_WAIT: u32 = 2;

/// `Ctx::stop`: the run left before its SIMD flow instruction `stop_at`, which parks
/// channels (or finds none enabled), for `Run::exec` to have the EU take it (`Host::flow`)
/// and go on where the thread goes.
pub const STOP_FLOW: u32 = 3;

/// Distinct counter increments a run keeps in its `Ctx` (instruction shapes × issue cycles);
/// instructions past them compute theirs.
pub const INCS: usize = 16;

/// Byte offsets of [`Ctx`]'s fields, for the emitted loads and stores.
pub mod ctx {
    pub const ACTIVE: i32 = 0;
    pub const DISPATCH: i32 = 4;
    pub const START: i32 = 8;
    pub const BUDGET: i32 = 12;
    pub const LANES: i32 = 16;
    pub const EXECUTED: i32 = 20;
    pub const ISSUE: i32 = 24;
    pub const WAITING: i32 = 28;
    pub const NEXT_IP: i32 = 32;
    pub const INCS: i32 = 40;
    pub const ALLS: i32 = 40 + 8 * super::INCS as i32;
    pub const BUSY: i32 = 192;
    pub const STOP: i32 = 208;
    pub const STOP_AT: i32 = 212;
    pub const READY: i32 = 216;
}

const _: () = {
    assert!(std::mem::offset_of!(Ctx, budget) == ctx::BUDGET as usize);
    assert!(std::mem::offset_of!(Ctx, dispatch) == ctx::DISPATCH as usize);
    assert!(std::mem::offset_of!(Ctx, start) == ctx::START as usize);
    assert!(std::mem::offset_of!(Ctx, lanes) == ctx::LANES as usize);
    assert!(std::mem::offset_of!(Ctx, executed) == ctx::EXECUTED as usize);
    assert!(std::mem::offset_of!(Ctx, issue) == ctx::ISSUE as usize);
    assert!(std::mem::offset_of!(Ctx, waiting) == ctx::WAITING as usize);
    assert!(std::mem::offset_of!(Ctx, next_ip) == ctx::NEXT_IP as usize);
    assert!(std::mem::offset_of!(Ctx, incs) == ctx::INCS as usize);
    assert!(std::mem::offset_of!(Ctx, alls) == ctx::ALLS as usize);
    assert!(std::mem::offset_of!(Ctx, busy) == ctx::BUSY as usize);
    assert!(std::mem::offset_of!(Ctx, stop) == ctx::STOP as usize);
    assert!(std::mem::offset_of!(Ctx, stop_at) == ctx::STOP_AT as usize);
    assert!(std::mem::offset_of!(Ctx, ready) == ctx::READY as usize);
};

pub struct Code {
    /// Kept mapped while the function may be called.
    map: Mmap,
}

impl Code {
    /// Map `bytes` executable. Errors when the host refuses the memfd or the mapping.
    pub fn new(bytes: &[u8]) -> std::io::Result<Code> {
        let fd = memfd_create(c"gencl-run", MFdFlags::MFD_CLOEXEC)?;
        let mut file = std::fs::File::from(fd);
        file.write_all(bytes)?;
        let len = bytes.len().max(1);
        file.set_len(len as u64)?;
        // SAFETY: a fresh memfd that no one else has (it is closed when `file` drops, the
        // mapping keeping its pages), so its bytes cannot change under the mapping.
        let map = unsafe { MmapOptions::new().len(len).map_exec(&file)? };
        Ok(Code { map })
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

/// Whether the host has a denormals-are-zero mode `call` can turn on (x86's MXCSR.DAZ).
pub const HOST_DAZ: bool = cfg!(target_arch = "x86_64");

/// MXCSR's denormals-are-zero bit.
#[cfg(target_arch = "x86_64")]
const MXCSR_DAZ: u32 = 1 << 6;

/// Call a run, with the host's denormals-are-zero mode on when `daz` (and the thread's
/// previous mode restored after).
///
/// # Safety
/// `f` must be a live run's entry, `grf` the thread's GRF_BYTES bytes, `arf` its ARF bytes
/// and `cx` a valid context whose `start` is below the run's length (`Run::exec`).
#[inline]
pub unsafe fn call(f: RunFn, daz: bool, grf: *mut u8, arf: *mut u8, cx: &mut Ctx) {
    #[cfg(target_arch = "x86_64")]
    if daz {
        let mut old: u32 = 0;
        // SAFETY: stmxcsr stores the 32-bit MXCSR to `old`, a live local; ldmxcsr loads a
        // value that differs from the current one only in DAZ (no exception is unmasked,
        // the rounding mode is kept), and the old value is put back before returning. The
        // call itself is as the caller promises.
        unsafe {
            std::arch::asm!("stmxcsr [{}]", in(reg) &mut old, options(nostack, preserves_flags));
            let with = old | MXCSR_DAZ;
            std::arch::asm!("ldmxcsr [{}]", in(reg) &with, options(nostack, preserves_flags));
            f(grf, arf, cx, grf);
            std::arch::asm!("ldmxcsr [{}]", in(reg) &old, options(nostack, preserves_flags));
        }
        return;
    }
    let _ = daz;
    // SAFETY: as the caller promises.
    unsafe { f(grf, arf, cx, grf) }
}

std::thread_local! {
    /// The text of a panic `slow_float` caught (a bug of the model's), for `Run::exec` to
    /// raise again in Rust frames (it may not unwind through the run's host code); the
    /// run's `Ctx::slow_panicked` says there is one, so a run that went well pays nothing.
    static SLOW_PANIC: std::cell::Cell<Option<String>> = const { std::cell::Cell::new(None) };
}

#[cfg(test)]
std::thread_local! {
    static PANIC_NEXT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Tests: the next `slow_float` on this thread panics, as a bug of the model's would.
#[cfg(test)]
pub fn panic_on_next_slow_float() {
    PANIC_NEXT.with(|c| c.set(true));
}

/// The panic the last `slow_float` on this thread caught, if any (taken).
pub fn take_slow_panic() -> Option<String> {
    SLOW_PANIC.with(std::cell::Cell::take)
}

/// The signature of [`slow_float`], as a run calls it.
pub type SlowFn = unsafe extern "C" fn(*mut Ctx, *mut u8, *const Plan, u32, u32, u32);

/// A float add, mul or mad of a run whose result, in some lane, is a NaN or (when results
/// are flushed) below the smallest normal, zeros included: the whole instruction done by
/// the interpreter's fast path (`fast::run`: the NaN rules, the flush, saturation), before
/// the run has written anything of it. `shape` is the execution size in bits 0-7 and
/// whether float denormals are flushed in bit 8. Kept out of the run's code: inline, that
/// path was half of the run's Cranelift IR and half its compile time, for what is rare.
///
/// # Safety
/// `cx` must be the run's context, `grf` the thread's GRF_BYTES bytes and `plan` a plan the
/// run holds (`Run`), whose offsets `emit::translatable` checked; no other reference to any
/// of them may be live.
pub unsafe extern "C" fn slow_float(
    cx: *mut Ctx,
    grf: *mut u8,
    plan: *const Plan,
    wmask: u32,
    pred: u32,
    shape: u32,
) {
    // SAFETY: as the caller promises: the run passes its own context and GRF pointer,
    // which `Run::exec` made from its `Ctx` and the thread's GRF_BYTES bytes, and a plan of
    // its `Run`; the run's code touches none of them during the call.
    let (g, p, cx) = unsafe {
        (
            std::slice::from_raw_parts_mut(grf, GRF_BYTES),
            &*plan,
            &mut *cx,
        )
    };
    let (n, ftz) = ((shape & 0xFF) as u8, shape & 0x100 != 0);
    #[cfg(target_arch = "x86_64")]
    {
        // The interpreter reads denormal operands itself; the run may be under DAZ.
        let mut old: u32 = 0;
        // SAFETY: as in `call`: MXCSR stored to a live local, then DAZ cleared (nothing
        // else changed) and the old value put back before returning.
        unsafe {
            std::arch::asm!("stmxcsr [{}]", in(reg) &mut old, options(nostack, preserves_flags));
            let without = old & !MXCSR_DAZ;
            std::arch::asm!("ldmxcsr [{}]", in(reg) &without, options(nostack, preserves_flags));
        }
        interpret(cx, g, p, n, wmask, pred, ftz);
        // SAFETY: as above.
        unsafe {
            std::arch::asm!("ldmxcsr [{}]", in(reg) &old, options(nostack, preserves_flags));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    interpret(cx, g, p, n, wmask, pred, ftz);
}

/// `fast::run`, with a panic kept for `Run::exec` (an `extern "C"` function that unwinds
/// aborts the process: the service with every client in it).
fn interpret(cx: &mut Ctx, g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32, ftz: bool) {
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        #[cfg(test)]
        if PANIC_NEXT.with(|c| c.replace(false)) {
            panic!("a panic injected by a test");
        }
        super::super::fast::run(g, p, n, wmask, pred, ftz);
    }));
    if let Err(e) = ran {
        let why = e
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        SLOW_PANIC.with(|c| c.set(Some(why)));
        cx.slow_panicked = 1;
    }
}
