//! A GEM object of the emulated device: pages in a memfd, so that the same
//! pages can be mapped by the driver, exported (the dma-buf stand-in) and
//! read and written by the GPU model.

use std::fs::File;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::MmapMut;
use nix::errno::Errno;
use nix::sys::memfd::{memfd_create, MFdFlags};

/// `$f::<S>(args)` for an element of S = 1, 2, 4, 8 or 16 bytes (one move of its size),
/// else `$other`.
macro_rules! by_size {
    ($size:expr, $f:ident($($arg:expr),*), $other:expr) => {
        match $size {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            4 => $f::<4>($($arg),*),
            8 => $f::<8>($($arg),*),
            16 => $f::<16>($($arg),*),
            _ => $other,
        }
    };
}

/// The pages are memory the GPU shares with every mapping of the object: the driver's in
/// the client process, an importer's, and the GPU model's host threads, all at once, as on
/// the hardware, where CPU and EUs reach the same pages with no lock between them. So the
/// device reaches them as the hardware does, by copies to and from its own mapping with no
/// lock (a lock here would order nothing the client's mapping does; atomics take the data
/// port's own locks, `gpu::dataport::atomic_lock`). Concurrent conflicting accesses are the
/// program's races, with the hardware's outcome: some interleaving of the bytes.
#[derive(Debug)]
pub struct GemObject {
    pub size: u64,
    memfd: OwnedFd,
    /// The device's own mapping, kept for the object's life and never moved or remapped;
    /// reached only through `base` by `read_at` and `write_at`.
    _map: MmapMut,
    base: NonNull<u8>,
    len: usize,
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
        let mut map = unsafe { memmap2::MmapOptions::new().len(len).map_mut(&file) }
            .map_err(|_| Errno::ENOMEM)?;
        let base = NonNull::new(map.as_mut_ptr()).ok_or(Errno::ENOMEM)?;
        Ok(Self {
            size,
            memfd: OwnedFd::from(file),
            _map: map,
            base,
            len,
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

    /// Where `n` bytes at `offset` start in the mapping; panics past the object's end (the
    /// page tables only map pages of the object, so no GPU address reaches there).
    #[inline(always)]
    fn at(&self, offset: u64, n: usize) -> *mut u8 {
        let o = usize::try_from(offset).unwrap_or(usize::MAX);
        assert!(
            o <= self.len && n <= self.len - o,
            "access of {n} bytes at {offset:#x} past a {}-byte object",
            self.len
        );
        // SAFETY: `o + n <= len` (checked above), so the pointer stays within the mapping.
        unsafe { self.base.as_ptr().add(o) }
    }

    /// Copies `out.len()` bytes of the object at `offset`: an element of 1, 2, 4, 8 or 16
    /// bytes (a lane's) as one move of its size, longer runs as memcpy.
    #[inline(always)]
    pub fn read_at(&self, offset: u64, out: &mut [u8]) {
        let p = self.at(offset, out.len());
        // SAFETY: `p` is valid for `out.len()` bytes of the mapping (`at`), which lives as
        // long as `self`; `out` is a distinct Rust buffer. No reference into the mapping is
        // made: the bytes are copied, so another agent's concurrent store (the client's
        // mapping, another host thread of the model) only decides which bytes are read.
        unsafe {
            match out.len() {
                1 => out[0] = p.read(),
                2 => out[..2].copy_from_slice(&p.cast::<[u8; 2]>().read_unaligned()),
                4 => out[..4].copy_from_slice(&p.cast::<[u8; 4]>().read_unaligned()),
                8 => out[..8].copy_from_slice(&p.cast::<[u8; 8]>().read_unaligned()),
                16 => out[..16].copy_from_slice(&p.cast::<[u8; 16]>().read_unaligned()),
                n => std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), n),
            }
        }
    }

    /// Copies `data` into the object at `offset`, as `read_at` reads.
    #[inline(always)]
    pub fn write_at(&self, offset: u64, data: &[u8]) {
        let p = self.at(offset, data.len());
        // SAFETY: as in `read_at`: `p` is valid for `data.len()` bytes of the live mapping,
        // `data` is a distinct buffer, and the bytes are stored by copies only.
        unsafe {
            match data.len() {
                1 => p.write(data[0]),
                2 => p
                    .cast::<[u8; 2]>()
                    .write_unaligned(data[..2].try_into().expect("2")),
                4 => p
                    .cast::<[u8; 4]>()
                    .write_unaligned(data[..4].try_into().expect("4")),
                8 => p
                    .cast::<[u8; 8]>()
                    .write_unaligned(data[..8].try_into().expect("8")),
                16 => p
                    .cast::<[u8; 16]>()
                    .write_unaligned(data[..16].try_into().expect("16")),
                n => std::ptr::copy_nonoverlapping(data.as_ptr(), p, n),
            }
        }
    }

    /// Where the `len / size` elements of `size` bytes `stride` apart from `offset` start
    /// (`None`: no elements), their whole span checked once: per element, the check and a
    /// size match cost more than the copy.
    fn strided(&self, offset: u64, stride: u64, size: usize, len: usize) -> Option<*mut u8> {
        Some(self.at(offset, span(len / size, stride, size)?))
    }

    /// `out.len() / size` elements of `size` bytes, `stride` bytes apart from `offset`
    /// (a lane's element each), each a move of its size.
    pub fn read_strided_at(&self, offset: u64, stride: u64, size: usize, out: &mut [u8]) {
        let Some(p) = self.strided(offset, stride, size, out.len()) else {
            return;
        };
        let stride = stride as usize;
        // SAFETY: as in `read_at`: element i's bytes, at `p + i * stride`, lie within the
        // span of the live mapping that `strided` checked; `out` is a distinct buffer.
        unsafe {
            by_size!(size, gather(p, stride, out), {
                for (i, o) in out.chunks_exact_mut(size).enumerate() {
                    std::ptr::copy_nonoverlapping(p.add(i * stride), o.as_mut_ptr(), size);
                }
            })
        }
    }

    /// `data`'s elements of `size` bytes into the object `stride` bytes apart from
    /// `offset`, as `read_strided_at` reads.
    pub fn write_strided_at(&self, offset: u64, stride: u64, size: usize, data: &[u8]) {
        let Some(p) = self.strided(offset, stride, size, data.len()) else {
            return;
        };
        let stride = stride as usize;
        // SAFETY: as in `read_strided_at`, the elements' bytes lie within the checked span
        // of the live mapping; they are stored by copies only.
        unsafe {
            by_size!(size, scatter(p, stride, data), {
                for (i, d) in data.chunks_exact(size).enumerate() {
                    std::ptr::copy_nonoverlapping(d.as_ptr(), p.add(i * stride), size);
                }
            })
        }
    }

    pub fn mark_used(&self, seqno: u64, write: bool) {
        if write {
            self.last_write.fetch_max(seqno, Ordering::Relaxed);
        }
        self.last_use.fetch_max(seqno, Ordering::Relaxed);
    }
}

// SAFETY: `base` points into `_map`, owned by the object and alive as long as it is; the
// mapping is shared memory that the object only ever copies to and from (`read_at`,
// `write_at`), never lends as a reference, so handing the object to other threads adds no
// access the hardware it models does not make (see the type's comment).
unsafe impl Send for GemObject {}
// SAFETY: as for `Send`: every access through `&GemObject` is a bounds-checked copy.
unsafe impl Sync for GemObject {}

/// Bytes from the first of `n` elements of `size` bytes `stride` apart to the end of the
/// last (`None`: no elements, or past the address space).
fn span(n: usize, stride: u64, size: usize) -> Option<usize> {
    let last = u64::try_from(n.checked_sub(1)?).ok()?.checked_mul(stride)?;
    usize::try_from(last.checked_add(size as u64)?).ok()
}

/// `out`'s elements of `S` bytes from `p`, `stride` bytes apart.
///
/// # Safety
/// `p + i * stride .. + S` must be readable for each element i of `out`.
#[inline(always)]
unsafe fn gather<const S: usize>(p: *const u8, stride: usize, out: &mut [u8]) {
    for (i, o) in out.chunks_exact_mut(S).enumerate() {
        // SAFETY: the caller's span covers element i.
        let v = unsafe { p.add(i * stride).cast::<[u8; S]>().read_unaligned() };
        o.copy_from_slice(&v);
    }
}

/// `data`'s elements of `S` bytes to `p`, `stride` bytes apart.
///
/// # Safety
/// `p + i * stride .. + S` must be writable for each element i of `data`.
#[inline(always)]
unsafe fn scatter<const S: usize>(p: *mut u8, stride: usize, data: &[u8]) {
    for (i, d) in data.chunks_exact(S).enumerate() {
        let v: [u8; S] = d.try_into().expect("an element");
        // SAFETY: the caller's span covers element i.
        unsafe { p.add(i * stride).cast::<[u8; S]>().write_unaligned(v) };
    }
}
