//! A GPU virtual address space (a ppGTT): 4 KiB page-table entries mapping
//! GPU pages to (object, page of the object), plus the bindings they came from.
//!
//! A running batch reads the page tables as they were when it started (a shared snapshot),
//! so that binding objects for the next batch of the same VM does not wait for it, as on
//! i915, where execbuffer2 binds new objects into a ppGTT while the GPU runs a batch of it.
//! The first binding made while a batch holds the snapshot copies the tables (copy on
//! write); the running batch keeps the objects of its snapshot alive.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use parking_lot::{Mutex, MutexGuard};

use super::object::GemObject;
use crate::gpu::{GpuMemory, MemFault};

pub const PAGE: u64 = 4096;
/// Gen9 full ppGTT: 48-bit addresses.
pub const VA_BITS: u32 = 48;
const VA_MASK: u64 = (1 << VA_BITS) - 1;

#[derive(Debug)]
pub struct Vm {
    inner: Mutex<Arc<VmInner>>,
}

/// Address-space ids, unique for the life of the process (never reused, so a kernel kept
/// for a destroyed VM is never taken for another's).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Default for Vm {
    fn default() -> Self {
        Vm {
            inner: Mutex::new(Arc::new(VmInner {
                id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                ..Default::default()
            })),
        }
    }
}

#[derive(Debug, Default, Clone)]
pub struct VmInner {
    /// This address space's id (`GpuMemory::address_space`).
    id: u64,
    /// Virtual page number → (object, object page). Looked up for every page of every
    /// access the GPU model makes: hashed with FxHash (SipHash's resistance to chosen keys
    /// buys nothing for page numbers, and cost 9% of a memory-bound CTS test).
    ptes: rustc_hash::FxHashMap<u64, (Arc<GemObject>, u64)>,
    /// Binding start → (handle, size).
    bindings: BTreeMap<u64, (u32, u64)>,
    /// Handle → binding start.
    by_handle: HashMap<u32, u64>,
}

impl VmInner {
    /// Where `handle` is bound, if it is.
    pub fn address_of(&self, handle: u32) -> Option<u64> {
        self.by_handle.get(&handle).copied()
    }

    pub fn unbind(&mut self, handle: u32) {
        if let Some(start) = self.by_handle.remove(&handle) {
            if let Some((_, size)) = self.bindings.remove(&start) {
                for vpn in (start / PAGE)..((start + size) / PAGE) {
                    self.ptes.remove(&vpn);
                }
            }
        }
    }

    /// Handles of bindings overlapping `[addr, addr + size)`.
    pub fn overlapping(&self, addr: u64, size: u64) -> Vec<u32> {
        // Bindings never overlap each other, so walking down from `end`
        // stops at the first one that ends at or before `addr`.
        self.bindings
            .range(..addr + size)
            .rev()
            .take_while(|(&s, &(_, sz))| s + sz > addr)
            .map(|(_, &(h, _))| h)
            .collect()
    }

    /// Binds the whole object at `addr` (page-aligned, free range).
    pub fn bind(&mut self, handle: u32, obj: &Arc<GemObject>, addr: u64) {
        for i in 0..obj.size / PAGE {
            self.ptes.insert(addr / PAGE + i, (Arc::clone(obj), i));
        }
        self.bindings.insert(addr, (handle, obj.size));
        self.by_handle.insert(handle, addr);
    }
}

impl Vm {
    /// The page tables, to change (one binder at a time).
    pub fn lock_mut(&self) -> VmMut<'_> {
        VmMut(self.inner.lock())
    }

    /// The address space as the GPU sees it while a batch runs: as it is now, whatever is
    /// bound later.
    pub fn view(&self) -> VmView {
        VmView(Arc::clone(&self.inner.lock()))
    }
}

/// The page tables, locked for a change: reads are free; the first change copies them if a
/// running batch holds them.
pub struct VmMut<'a>(MutexGuard<'a, Arc<VmInner>>);

impl std::ops::Deref for VmMut<'_> {
    type Target = VmInner;
    fn deref(&self) -> &VmInner {
        &self.0
    }
}

impl std::ops::DerefMut for VmMut<'_> {
    fn deref_mut(&mut self) -> &mut VmInner {
        Arc::make_mut(&mut self.0)
    }
}

pub struct VmView(Arc<VmInner>);

impl VmView {
    fn each_page(
        &self,
        addr: u64,
        len: usize,
        kind: &'static str,
        mut f: impl FnMut(&GemObject, u64, std::ops::Range<usize>),
    ) -> Result<(), MemFault> {
        let mut done = 0usize;
        while done < len {
            let a = (addr.wrapping_add(done as u64)) & VA_MASK;
            let (obj, opage) = self
                .0
                .ptes
                .get(&(a / PAGE))
                .ok_or(MemFault { addr: a, kind })?;
            let in_page = a % PAGE;
            let n = ((PAGE - in_page) as usize).min(len - done);
            f(obj, opage * PAGE + in_page, done..done + n);
            done += n;
        }
        Ok(())
    }
}

impl GpuMemory for VmView {
    fn address_space(&self) -> u64 {
        self.0.id
    }
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let len = out.len();
        self.each_page(addr, len, "read of an unmapped page", |o, off, r| {
            o.read_at(off, &mut out[r])
        })
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.each_page(
            addr,
            data.len(),
            "write to an unmapped page",
            |o, off, r| o.write_at(off, &data[r]),
        )
    }
}
