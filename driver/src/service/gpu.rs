//! Per-client GPU state: the client's own VM and context on the service's device, buffer objects
//! placed in that VM, and the virtual-address allocator that places them.
//!
//! Every client gets its own VM, so a kernel of one client can only reach pages of that client's
//! buffers (ARCHITECTURE.md, "Global memory").

use memmap2::MmapMut;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::sync::Arc;

use super::device::{Device, DeviceError};
use super::ServiceError;
use gencl_kmd::backend::device::canonical;

pub const PAGE: u64 = 4096;
/// First address handed out: the low 4 GiB stay free (address 0 must never be a valid buffer,
/// and the submitter may want 32-bit-addressable heaps there).
pub const VA_START: u64 = 1 << 32;
/// One past the last address: the lower half of the 48-bit space, so every address is already
/// canonical (bit 47 clear, nothing to sign-extend).
pub const VA_END: u64 = 1 << 47;

/// A buffer object in a client's VM.
pub struct Bo {
    pub handle: u32,
    pub size: u64,
    /// 48-bit canonical, page aligned, in the client's VM.
    pub gpu_addr: u64,
    /// The service's own CPU view of the pages.
    pub map: MmapMut,
}

impl std::fmt::Debug for Bo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bo")
            .field("handle", &self.handle)
            .field("size", &self.size)
            .field("gpu_addr", &format_args!("{:#x}", self.gpu_addr))
            .finish()
    }
}

/// First-fit allocator of page-aligned ranges with a guard page after every object, so an
/// overrun of one buffer faults instead of landing in the next.
#[derive(Debug)]
pub struct VaAllocator {
    /// Free ranges (start, len), sorted by start, coalesced.
    free: Vec<(u64, u64)>,
}

impl Default for VaAllocator {
    fn default() -> Self {
        Self::new(VA_START, VA_END)
    }
}

impl VaAllocator {
    pub fn new(start: u64, end: u64) -> Self {
        VaAllocator {
            free: vec![(start, end - start)],
        }
    }

    /// Reserve `size` bytes (rounded up to pages) plus a guard page; returns the start.
    pub fn alloc(&mut self, size: u64) -> Option<u64> {
        let len = size
            .max(1)
            .checked_next_multiple_of(PAGE)?
            .checked_add(PAGE)?;
        let i = self.free.iter().position(|&(_, l)| l >= len)?;
        let (start, l) = self.free[i];
        if l == len {
            self.free.remove(i);
        } else {
            self.free[i] = (start + len, l - len);
        }
        Some(start)
    }

    /// Return a range `alloc(size)` gave out.
    pub fn free(&mut self, start: u64, size: u64) {
        let len = size.max(1).next_multiple_of(PAGE) + PAGE;
        let i = self.free.partition_point(|&(s, _)| s < start);
        self.free.insert(i, (start, len));
        // Coalesce with the neighbours.
        if i + 1 < self.free.len() && self.free[i].0 + self.free[i].1 == self.free[i + 1].0 {
            self.free[i].1 += self.free[i + 1].1;
            self.free.remove(i + 1);
        }
        if i > 0 && self.free[i - 1].0 + self.free[i - 1].1 == self.free[i].0 {
            self.free[i - 1].1 += self.free[i].1;
            self.free.remove(i);
        }
    }
}

/// Hardware contexts (streams) one client may hold at once.
pub const MAX_STREAMS: usize = 1024;

/// One client's slice of the GPU.
pub struct ClientGpu {
    pub dev: Arc<Device>,
    pub vm: u32,
    /// The hardware context each of the client's streams (`Launch::context`: an OpenCL
    /// context, 0 for launches that name none) runs on, made on its first launch and
    /// replaced after a hang or fault. One per stream, as NEO keeps one per command stream:
    /// i915 bans the context of a batch that hangs or faults and drops what it had queued,
    /// so a shared one made a fault of one OpenCL context fail another's launches.
    ctxs: Mutex<HashMap<u64, u32>>,
    pub va: Mutex<VaAllocator>,
}

impl ClientGpu {
    /// A fresh VM and a context bound to it.
    pub fn new(dev: Arc<Device>) -> Result<ClientGpu, ServiceError> {
        let vm = dev.create_vm().map_err(|e| ServiceError::Gpu {
            op: "create VM",
            source: e,
        })?;
        let ctx = match dev.create_context(vm) {
            Ok(c) => c,
            Err(e) => {
                let _ = dev.destroy_vm(vm);
                return Err(ServiceError::Gpu {
                    op: "create context",
                    source: e,
                });
            }
        };
        Ok(ClientGpu {
            dev,
            vm,
            ctxs: Mutex::new(HashMap::from([(0, ctx)])),
            va: Mutex::new(VaAllocator::default()),
        })
    }

    fn new_context(&self) -> Result<u32, ServiceError> {
        self.dev
            .create_context(self.vm)
            .map_err(|e| ServiceError::Gpu {
                op: "create context",
                source: e,
            })
    }

    /// The hardware context stream `stream`'s launches go to now (made on first use).
    pub fn ctx(&self, stream: u64) -> Result<u32, ServiceError> {
        let mut ctxs = self.ctxs.lock();
        if let Some(&c) = ctxs.get(&stream) {
            return Ok(c);
        }
        // Each costs the kernel driver a context: a client naming ever new streams (and
        // never releasing them) is refused rather than let exhaust it.
        if ctxs.len() >= MAX_STREAMS {
            return Err(ServiceError::TooManyStreams { live: ctxs.len() });
        }
        let c = self.new_context()?;
        ctxs.insert(stream, c);
        Ok(c)
    }

    /// A new hardware context on this client's VM in place of stream `stream`'s `banned`
    /// (after a hang or fault got it banned): buffers and addresses stay as they are.
    /// Whoever notices the ban first (the launch that retires with it, or the next
    /// submission refused with EIO) replaces it; a context already replaced is left alone.
    pub fn replace_context(&self, stream: u64, banned: u32) -> Result<(), ServiceError> {
        let mut ctxs = self.ctxs.lock();
        if ctxs.get(&stream) != Some(&banned) {
            return Ok(());
        }
        let ctx = self.new_context()?;
        ctxs.insert(stream, ctx);
        drop(ctxs);
        if let Err(e) = self.dev.destroy_context(banned) {
            tracing::warn!(ctx = banned, "destroying the banned context: {e}");
        }
        Ok(())
    }

    /// Stream `stream` is over (its OpenCL context released, with every launch of it):
    /// its hardware context goes. The client's default stream (0) stays.
    pub fn release_stream(&self, stream: u64) {
        if stream == 0 {
            return;
        }
        let Some(ctx) = self.ctxs.lock().remove(&stream) else {
            return;
        };
        if let Err(e) = self.dev.destroy_context(ctx) {
            tracing::warn!(ctx, "destroying a released stream's context: {e}");
        }
    }

    /// A buffer object of `size` bytes, mapped in the service and placed in this client's VM.
    pub fn create_bo(&self, size: u64) -> Result<Bo, ServiceError> {
        let gpu_addr = self
            .va
            .lock()
            .alloc(size)
            .ok_or(ServiceError::OutOfAddressSpace { size })?;
        let undo_va = |this: &Self| this.va.lock().free(gpu_addr, size);
        let handle = match self.dev.create_bo(size) {
            Ok(h) => h,
            Err(e) => {
                undo_va(self);
                return Err(ServiceError::Gpu {
                    op: "create buffer object",
                    source: e,
                });
            }
        };
        match self.dev.map_bo(handle, size as usize) {
            Ok(map) => Ok(Bo {
                handle,
                size,
                gpu_addr: canonical(gpu_addr),
                map,
            }),
            Err(e) => {
                let _ = self.dev.close_bo(handle);
                undo_va(self);
                Err(ServiceError::Gpu {
                    op: "map buffer object",
                    source: e,
                })
            }
        }
    }

    /// A program's global-variable buffer (whole pages), its initial values written with
    /// the relocations done for the buffer's address.
    pub fn create_globals(
        &self,
        globals: &gencl_jit::abi::ProgramGlobals,
    ) -> Result<Bo, ServiceError> {
        let size = (globals.data.len() as u64).max(1).next_multiple_of(4096);
        let mut bo = self.create_bo(size)?;
        let bytes = globals.bytes_at(bo.gpu_addr);
        bo.map[..bytes.len()].copy_from_slice(&bytes);
        Ok(bo)
    }

    /// The fd a client maps to share the object's pages (memfd when emulated, dma-buf on i915).
    pub fn export_bo(&self, bo: &Bo) -> Result<OwnedFd, ServiceError> {
        self.dev
            .export_bo(bo.handle)
            .map_err(|e: DeviceError| ServiceError::Gpu {
                op: "export buffer object",
                source: e,
            })
    }

    /// Close a buffer object and free its addresses, once no batch uses it: a launch still in
    /// flight may (a client may free a buffer its queued launch reads), and its range must not
    /// go to another object before that launch is done.
    pub fn free_bo(&self, bo: Bo) {
        let Bo {
            handle,
            size,
            gpu_addr,
            map,
        } = bo;
        drop(map);
        if let Err(e) = self.dev.wait(handle, -1) {
            tracing::warn!(handle, "waiting for a buffer object to be idle: {e}");
        }
        if let Err(e) = self.dev.close_bo(handle) {
            tracing::warn!(handle, "closing buffer object: {e}");
        }
        self.va.lock().free(gpu_addr, size);
    }
}

impl Drop for ClientGpu {
    fn drop(&mut self) {
        for (_, ctx) in self.ctxs.get_mut().drain() {
            if let Err(e) = self.dev.destroy_context(ctx) {
                tracing::warn!(ctx, "destroying context: {e}");
            }
        }
        if let Err(e) = self.dev.destroy_vm(self.vm) {
            tracing::warn!(vm = self.vm, "destroying VM: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn va_allocator_leaves_guard_pages_and_reuses_freed_ranges() {
        let mut va = VaAllocator::default();
        let a = va.alloc(1).unwrap();
        let b = va.alloc(PAGE + 1).unwrap();
        let c = va.alloc(10).unwrap();
        assert_eq!(a, VA_START);
        assert_eq!(b, a + 2 * PAGE, "one page for a, one guard page");
        assert_eq!(c, b + 3 * PAGE, "two pages for b, one guard page");
        va.free(b, PAGE + 1);
        assert_eq!(va.alloc(PAGE).unwrap(), b, "first fit reuses b's hole");
        va.free(a, 1);
        va.free(b, PAGE);
        va.free(c, 10);
        assert_eq!(
            va.free,
            vec![(VA_START, VA_END - VA_START)],
            "everything coalesces back"
        );
        for addr in [a, b, c] {
            assert_eq!(addr % PAGE, 0);
            assert!(addr < VA_END);
        }
    }

    #[test]
    fn va_allocator_refuses_what_does_not_fit() {
        let mut va = VaAllocator::new(VA_START, VA_START + 4 * PAGE);
        assert!(va.alloc(3 * PAGE + 1).is_none());
        assert!(va.alloc(3 * PAGE).is_some());
        assert!(va.alloc(1).is_none());
        assert!(va.alloc(u64::MAX).is_none());
    }
}
