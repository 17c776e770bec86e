//! A GPU virtual address space (a ppGTT): 4 KiB GPU pages mapped to (object, page of the
//! object), held as the runs of pages each binding maps, plus the bindings they came from.
//!
//! A running batch reads the page tables as they were when it started (a shared snapshot),
//! so that binding objects for the next batch of the same VM does not wait for it, as on
//! i915, where execbuffer2 binds new objects into a ppGTT while the GPU runs a batch of it.
//! The first binding made while a batch holds the snapshot copies the tables (copy on
//! write); the running batch keeps the objects of its snapshot alive.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
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
    /// The bound objects' pages, by first virtual page (sorted, disjoint): looked up for
    /// every page of every access the GPU model makes. A run a binding rather than an
    /// entry a page: a few hundred runs stay in the host's caches where a hashed entry per
    /// page (65,536 for one 256 MiB buffer of the CTS) missed them on each lookup (a fifth
    /// of a strided read's time), and binding an object is one insertion.
    maps: Vec<Mapping>,
    /// Where in `maps` recent lookups found their run (`Hints`).
    hints: Hints,
    /// Binding start → (handle, size).
    bindings: BTreeMap<u64, (u32, u64)>,
    /// Handle → binding start.
    by_handle: HashMap<u32, u64>,
}

/// How many 64 KiB stretches of the address space `Hints` remembers a run for.
const HINTS: usize = 64;

/// Where in `maps` the last lookup in each 64 KiB stretch of the address space found its
/// run, by a hash of `vpn / 16` (buffers of a power-of-two size lie a power of two apart,
/// which a plain modulo would put in one slot): a kernel's accesses stay in the few buffers it reads and
/// writes, and the binary search over every binding of the process (hundreds in the CTS)
/// was most of a strided message's page lookup (8 % of a long16 kernel's time). Only where
/// to look first: a stale hint (the maps changed, another thread's store) fails the range
/// check and the search runs; hits only load, so host threads do not share a line they
/// write.
struct Hints([AtomicU32; HINTS]);

impl Default for Hints {
    fn default() -> Self {
        Hints(std::array::from_fn(|_| AtomicU32::new(0)))
    }
}

impl Hints {
    fn slot(vpn: u64) -> usize {
        ((vpn / 16).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - HINTS.trailing_zeros())) as usize
    }
}

impl Clone for Hints {
    /// A copy of the maps starts with no hints (their runs may move).
    fn clone(&self) -> Self {
        Hints::default()
    }
}

impl std::fmt::Debug for Hints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hints")
    }
}

/// `pages` virtual pages from `vpn` on, mapped to the first pages of `obj`.
#[derive(Debug, Clone)]
struct Mapping {
    vpn: u64,
    pages: u64,
    obj: Arc<GemObject>,
}

impl VmInner {
    /// The object and object page that virtual page `vpn` maps to.
    #[inline]
    fn pte(&self, vpn: u64) -> Option<(&GemObject, u64)> {
        let hint = &self.hints.0[Hints::slot(vpn)];
        if let Some(m) = self.maps.get(hint.load(Ordering::Relaxed) as usize) {
            // Below the run's first page, the difference wraps past any run's length.
            let page = vpn.wrapping_sub(m.vpn);
            if page < m.pages {
                return Some((&*m.obj, page));
            }
        }
        let i = self.maps.partition_point(|m| m.vpn <= vpn).checked_sub(1)?;
        let m = &self.maps[i];
        let page = vpn - m.vpn;
        if page >= m.pages {
            return None;
        }
        hint.store(i as u32, Ordering::Relaxed);
        Some((&*m.obj, page))
    }

    /// Where `handle` is bound, if it is.
    pub fn address_of(&self, handle: u32) -> Option<u64> {
        self.by_handle.get(&handle).copied()
    }

    pub fn unbind(&mut self, handle: u32) {
        if let Some(start) = self.by_handle.remove(&handle) {
            // A binding of no whole page mapped none (`bind`).
            if self
                .bindings
                .remove(&start)
                .is_some_and(|(_, size)| size >= PAGE)
            {
                let vpn = start / PAGE;
                if let Ok(i) = self.maps.binary_search_by_key(&vpn, |m| m.vpn) {
                    self.maps.remove(i);
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
        let vpn = addr / PAGE;
        let at = self.maps.partition_point(|m| m.vpn < vpn);
        if obj.size >= PAGE {
            let mapping = Mapping {
                vpn,
                pages: obj.size / PAGE,
                obj: Arc::clone(obj),
            };
            self.maps.insert(at, mapping);
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
            let (obj, opage) = self.0.pte(a / PAGE).ok_or(MemFault { addr: a, kind })?;
            let in_page = a % PAGE;
            let n = ((PAGE - in_page) as usize).min(len - done);
            f(obj, opage * PAGE + in_page, done..done + n);
            done += n;
        }
        Ok(())
    }
}

/// The page the last lane of a message fell in: the next lane on the same page costs a
/// compare, one on another page a lookup.
struct Held<'a> {
    vpn: u64,
    obj: &'a GemObject,
    opage: u64,
}

/// A run of lanes of `VmView::each_run`: where their bytes lie (an object and an offset in
/// it), or the address of a lone access that crosses a page (a plain read or write takes it
/// page by page).
enum Run<'a> {
    At(&'a GemObject, u64),
    Cross(u64),
}

impl VmView {
    /// Runs `f` on the `size`-byte accesses at `addrs`, in order, a run at a time: lanes
    /// whose accesses follow each other within one page (consecutive work-items' elements)
    /// are one run, one copy.
    fn each_run(
        &self,
        addrs: &[u64],
        size: usize,
        kind: &'static str,
        mut f: impl FnMut(std::ops::Range<usize>, Run) -> Result<(), MemFault>,
    ) -> Result<(), MemFault> {
        let mut held: Option<Held> = None;
        let page = PAGE as usize;
        let mut i = 0;
        while i < addrs.len() {
            let a = addrs[i] & VA_MASK;
            let in_page = (a % PAGE) as usize;
            if in_page + size > page {
                f(i..i + 1, Run::Cross(addrs[i]))?;
                i += 1;
                continue;
            }
            let mut j = i + 1;
            let mut end = in_page + size;
            while j < addrs.len()
                && addrs[j] == addrs[j - 1].wrapping_add(size as u64)
                && end + size <= page
            {
                end += size;
                j += 1;
            }
            let vpn = a / PAGE;
            if held.as_ref().is_none_or(|h| h.vpn != vpn) {
                let (obj, opage) = self.0.pte(vpn).ok_or(MemFault { addr: a, kind })?;
                held = Some(Held { vpn, obj, opage });
            }
            let h = held.as_ref().expect("held above");
            f(i..j, Run::At(h.obj, h.opage * PAGE + in_page as u64))?;
            i = j;
        }
        Ok(())
    }
}

impl VmView {
    /// The object and offset of `count` accesses of `size` bytes `stride` apart from `addr`
    /// when they all fall in one page (one lookup serves them); None when they do not.
    fn one_page(
        &self,
        addr: u64,
        stride: u64,
        size: usize,
        count: usize,
        kind: &'static str,
    ) -> Result<Option<(&GemObject, u64)>, MemFault> {
        let a = addr & VA_MASK;
        let span = (count as u64 - 1)
            .checked_mul(stride)
            .and_then(|s| s.checked_add(size as u64));
        match span {
            Some(span) if count > 0 && a % PAGE + span <= PAGE => {
                let (obj, opage) = self.0.pte(a / PAGE).ok_or(MemFault { addr: a, kind })?;
                Ok(Some((obj, opage * PAGE + a % PAGE)))
            }
            _ => Ok(None),
        }
    }
}

impl GpuMemory for VmView {
    fn read_strided(
        &self,
        addr: u64,
        stride: u64,
        size: usize,
        out: &mut [u8],
    ) -> Result<(), MemFault> {
        const KIND: &str = "read of an unmapped page";
        match self.one_page(addr, stride, size, out.len() / size, KIND)? {
            Some((obj, off)) if stride == size as u64 => obj.read_at(off, out),
            Some((obj, off)) => obj.read_strided_at(off, stride, size, out),
            None => crate::gpu::strided_reads(self, addr, stride, size, out)?,
        }
        Ok(())
    }
    fn write_strided(
        &self,
        addr: u64,
        stride: u64,
        size: usize,
        data: &[u8],
    ) -> Result<(), MemFault> {
        const KIND: &str = "write to an unmapped page";
        match self.one_page(addr, stride, size, data.len() / size, KIND)? {
            Some((obj, off)) if stride == size as u64 => obj.write_at(off, data),
            Some((obj, off)) => obj.write_strided_at(off, stride, size, data),
            None => crate::gpu::strided_writes(self, addr, stride, size, data)?,
        }
        Ok(())
    }
    fn read_each(&self, addrs: &[u64], size: usize, out: &mut [u8]) -> Result<(), MemFault> {
        self.each_run(addrs, size, "read of an unmapped page", |r, run| {
            let o = &mut out[r.start * size..r.end * size];
            match run {
                Run::At(obj, off) => obj.read_at(off, o),
                Run::Cross(a) => self.read(a, o)?,
            }
            Ok(())
        })
    }
    fn write_each(&self, addrs: &[u64], size: usize, data: &[u8]) -> Result<(), MemFault> {
        self.each_run(addrs, size, "write to an unmapped page", |r, run| {
            let d = &data[r.start * size..r.end * size];
            match run {
                Run::At(obj, off) => obj.write_at(off, d),
                Run::Cross(a) => self.write(a, d)?,
            }
            Ok(())
        })
    }
    fn update_each(
        &self,
        addrs: &[u64],
        size: usize,
        f: &mut dyn FnMut(usize, u64) -> Option<u64>,
    ) -> Result<(), MemFault> {
        const KIND: &str = "atomic access to an unmapped page";
        // The lanes of a contended atomic share one word: the page looked up once, and
        // lanes after the first on the same word take its value from the one before,
        // written back once when the lanes move on (the caller holds the line's lock for
        // the whole message, so no other agent's access falls between them).
        let mut held: Option<Held> = None;
        // The word of the last lane: its address, offset in `held`'s object, value, and
        // whether that value is still to be written.
        let mut carried: Option<(u64, u64, u64, bool)> = None;
        let put = |held: &Option<Held>, off: u64, v: u64| {
            let h = held.as_ref().expect("a carried word's page is held");
            h.obj.write_at(off, &v.to_le_bytes()[..size]);
        };
        for (i, &addr) in addrs.iter().enumerate() {
            if let Some((at, off, v, dirty)) = carried {
                if at == addr {
                    if let Some(new) = f(i, v) {
                        carried = Some((at, off, new, true));
                    }
                    continue;
                }
                if dirty {
                    put(&held, off, v);
                }
                carried = None;
            }
            let a = addr & VA_MASK;
            let in_page = a % PAGE;
            if in_page + size as u64 > PAGE {
                crate::gpu::update_one(self, addr, size, |old| f(i, old))?;
                continue;
            }
            let vpn = a / PAGE;
            if held.as_ref().is_none_or(|h| h.vpn != vpn) {
                let (obj, opage) = self.0.pte(vpn).ok_or(MemFault {
                    addr: a,
                    kind: KIND,
                })?;
                held = Some(Held { vpn, obj, opage });
            }
            let h = held.as_ref().expect("held above");
            let off = h.opage * PAGE + in_page;
            // Read at its own size: 4 bytes read back as 8 stall the host's store forwarding.
            let old = if size == 4 {
                let mut w = [0u8; 4];
                h.obj.read_at(off, &mut w);
                u64::from(u32::from_le_bytes(w))
            } else {
                let mut b = [0u8; 8];
                h.obj.read_at(off, &mut b[..size]);
                u64::from_le_bytes(b)
            };
            carried = Some(match f(i, old) {
                Some(new) => (addr, off, new, true),
                None => (addr, off, old, false),
            });
        }
        if let Some((_, off, v, true)) = carried {
            put(&held, off, v);
        }
        Ok(())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each page of a bound object reads and writes that object's page; a page between
    /// bindings, past the last or before the first, and an unbound object's pages fault;
    /// binding out of address order and unbinding keep the lookups right.
    #[test]
    fn pages_map_to_their_objects_page_until_unbound() {
        let vm = Vm::default();
        let objs: Vec<Arc<GemObject>> = [3u64, 1, 2]
            .iter()
            .map(|&pages| Arc::new(GemObject::new(pages * PAGE).unwrap()))
            .collect();
        // Out of address order, with gaps of unmapped pages between them.
        let at = [0x40_0000u64, 0x10_0000, 0x20_0000];
        {
            let mut m = vm.lock_mut();
            for (k, (o, &a)) in objs.iter().zip(&at).enumerate() {
                m.bind(k as u32 + 1, o, a);
            }
        }
        let view = vm.view();
        // Each page of each object, stamped through the GPU and read back from the object.
        for (k, (o, &a)) in objs.iter().zip(&at).enumerate() {
            for p in 0..o.size / PAGE {
                let stamp = (k as u32 + 1) << 16 | p as u32;
                view.write(a + p * PAGE + 8, &stamp.to_le_bytes()).unwrap();
                let mut b = [0u8; 4];
                o.read_at(p * PAGE + 8, &mut b);
                assert_eq!(u32::from_le_bytes(b), stamp, "object {k} page {p}");
            }
        }
        let faults = |v: &VmView, a: u64| v.read(a, &mut [0u8; 4]).is_err();
        for a in [
            0,
            0x10_0000 - 4,
            0x10_1000,
            0x20_2000,
            0x3F_F000,
            0x40_3000,
            1 << 40,
        ] {
            assert!(faults(&view, a), "{a:#x} is not mapped");
        }
        // An access across two pages of one object, and from one object into a gap.
        view.write(0x40_0FFE, &[1, 2, 3, 4]).unwrap();
        assert!(view.write(0x10_0FFE, &[1, 2, 3, 4]).is_err());
        vm.lock_mut().unbind(3);
        let after = vm.view();
        assert!(faults(&after, 0x20_0000) && faults(&after, 0x20_1FFC));
        assert!(!faults(&after, 0x10_0000) && !faults(&after, 0x40_2FFC));
        // The view taken before keeps the mapping it started with.
        assert!(!faults(&view, 0x20_1FFC));
        // Unbound while no view holds the tables, so changed in place with their lookup
        // hints: a hint left pointing at another run, or past the last, is not taken.
        drop((view, after));
        let v = vm.view();
        assert!(!faults(&v, 0x10_0000) && !faults(&v, 0x40_2FFC));
        drop(v);
        vm.lock_mut().unbind(2);
        let v = vm.view();
        assert!(faults(&v, 0x10_0000) && faults(&v, 0x10_0FFC));
        assert!(!faults(&v, 0x40_2FFC) && !faults(&v, 0x40_0000));
    }
}
