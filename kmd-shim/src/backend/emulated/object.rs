//! A GEM object of the emulated device: pages in a memfd, so that the same
//! pages can be mapped by the driver, exported (the dma-buf stand-in) and
//! read and written by the GPU model.

use std::fs::File;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::MmapMut;
use nix::errno::Errno;
use nix::sys::memfd::{memfd_create, MFdFlags};
use parking_lot::Mutex;

#[derive(Debug)]
pub struct GemObject {
    pub size: u64,
    memfd: OwnedFd,
    /// The device's own view of the pages.
    pages: Mutex<MmapMut>,
    /// Sequence number of the last batch that used the object.
    pub last_use: AtomicU64,
    /// Sequence number of the last batch that wrote it (EXEC_OBJECT_WRITE).
    pub last_write: AtomicU64,
}

impl GemObject {
    /// `size` must already be page-rounded and non-zero.
    pub fn new(size: u64) -> Result<Self, Errno> {
        let fd = memfd_create(c"gencl-gem", MFdFlags::MFD_CLOEXEC)?;
        let file = File::from(fd);
        file.set_len(size).map_err(|_| Errno::ENOMEM)?;
        let len = usize::try_from(size).map_err(|_| Errno::E2BIG)?;
        // SAFETY: a fresh memfd of `size` bytes that this object owns. Other
        // mappings of it (the driver's, an importer's) alias these pages by
        // design, as CPU and GPU share a GEM object's pages.
        let pages = unsafe { memmap2::MmapOptions::new().len(len).map_mut(&file) }
            .map_err(|_| Errno::ENOMEM)?;
        Ok(Self {
            size,
            memfd: OwnedFd::from(file),
            pages: Mutex::new(pages),
            last_use: AtomicU64::new(0),
            last_write: AtomicU64::new(0),
        })
    }

    pub fn fd(&self) -> BorrowedFd<'_> {
        self.memfd.as_fd()
    }

    /// A new mapping of the first `len` bytes (what mmap of the DRM fd gives).
    pub fn map(&self, len: usize) -> Result<MmapMut, Errno> {
        if len == 0 || len as u64 > self.size {
            return Err(Errno::EINVAL);
        }
        // SAFETY: see `new`: a shared mapping of the object's own memfd,
        // within its size.
        unsafe { memmap2::MmapOptions::new().len(len).map_mut(&self.memfd) }
            .map_err(|_| Errno::ENOMEM)
    }

    /// Copies from the object at `offset` (the caller keeps within `size`).
    pub fn read_at(&self, offset: u64, out: &mut [u8]) {
        let p = self.pages.lock();
        let o = offset as usize;
        out.copy_from_slice(&p[o..o + out.len()]);
    }

    pub fn write_at(&self, offset: u64, data: &[u8]) {
        let mut p = self.pages.lock();
        let o = offset as usize;
        p[o..o + data.len()].copy_from_slice(data);
    }

    /// The device's view of the pages, held for a run of accesses (one lock for the lanes
    /// of a message that fall in this object).
    pub fn pages(&self) -> parking_lot::MutexGuard<'_, MmapMut> {
        self.pages.lock()
    }

    pub fn mark_used(&self, seqno: u64, write: bool) {
        if write {
            self.last_write.fetch_max(seqno, Ordering::Relaxed);
        }
        self.last_use.fetch_max(seqno, Ordering::Relaxed);
    }
}
