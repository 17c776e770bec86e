//! Memory objects (OpenCL 3.0 §5.2-5.5): a buffer's or image's storage in the service, its
//! mappings, sub-buffers and destructor callbacks. The entry points are in `api/memory.rs`
//! and `api/image.rs`.

use super::context::Context;
use super::image::Image;
use super::rect::{copy_host, Rect};
use crate::api::object::{ClObject, Destructors, Ref};
use crate::api::runtime::connection;
use crate::api::types::*;
use crate::api::util::ClResult;
use crate::client::SharedBuffer;
use std::sync::atomic::AtomicU32;

/// Where a buffer's bytes are.
pub enum Storage {
    Own(SharedBuffer),
    /// A sub-buffer: `origin` bytes into its parent.
    Sub {
        parent: Ref<Mem>,
        origin: usize,
    },
}

pub struct Mem {
    pub context: Ref<Context>,
    pub flags: cl_mem_flags,
    pub size: usize,
    /// The application's pointer for CL_MEM_USE_HOST_PTR (kept in sync at map/unmap); a
    /// sub-buffer's is its parent's plus its origin.
    pub host_ptr: usize,
    pub storage: Storage,
    /// The list given to clCreateBufferWithProperties (CL_MEM_PROPERTIES), if one was.
    pub properties: Option<Vec<(cl_mem_properties, cl_mem_properties)>>,
    pub map_count: AtomicU32,
    /// Live maps.
    pub maps: parking_lot::Mutex<Vec<Mapping>>,
    /// clSetMemObjectDestructorCallback's callbacks, run once the resources are freed.
    pub destructors: Destructors<_cl_mem>,
    /// For an image: its format and layout.
    pub image: Option<Image>,
}

/// A live map of a memory object: the pointer handed out, and the bytes it covers in the
/// object (`dev`) and in the application's host_ptr memory (`host`, for
/// CL_MEM_USE_HOST_PTR, whose maps are that memory), `region` bytes × rows × slices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mapping {
    pub ptr: usize,
    pub dev: Rect,
    pub host: Rect,
    pub region: [usize; 3],
}

impl Mapping {
    /// A buffer's map of `size` bytes at `offset`.
    pub fn linear(ptr: usize, offset: usize, size: usize) -> Mapping {
        let r = Rect {
            offset,
            row_pitch: size,
            slice_pitch: size,
        };
        Mapping {
            ptr,
            dev: r,
            host: r,
            region: [size, 1, 1],
        }
    }

    /// Copy the mapped bytes between the object and host_ptr's memory (`to_host`: object →
    /// host).
    pub fn sync(&self, m: &Mem, to_host: bool) {
        if m.host_ptr == 0 {
            return;
        }
        m.with_bytes(|bytes| {
            // SAFETY: host_ptr holds the object's bytes in the host layout (clCreateBuffer's
            // and clCreateImage's contract); the rows were checked against the object when
            // the map was made.
            unsafe {
                copy_host(
                    bytes,
                    self.dev,
                    m.host_ptr as *mut u8,
                    self.host,
                    self.region,
                    to_host,
                )
            }
        });
    }
}

impl ClObject for Mem {
    type Raw = _cl_mem;
    const TAG: u32 = 0x676d_656d; // "gmem"
    const INVALID: cl_int = CL_INVALID_MEM_OBJECT;
}

impl Drop for Mem {
    fn drop(&mut self) {
        if let Storage::Own(buf) = &self.storage {
            if let Ok(c) = connection() {
                if let Err(e) = c.free_buffer(buf.id) {
                    tracing::warn!("freeing buffer {}: {e}", buf.id);
                }
            }
        }
        self.destructors.run();
    }
}

impl Mem {
    /// The buffer object holding the bytes, and where this buffer starts in it.
    pub fn object(&self) -> (&SharedBuffer, usize) {
        match &self.storage {
            Storage::Own(b) => (b, 0),
            Storage::Sub { parent, origin } => {
                let (b, o) = parent.object();
                (b, o + origin)
            }
        }
    }
    /// Copy `out.len()` bytes at `offset` out of the buffer.
    pub fn read(&self, offset: usize, out: &mut [u8]) {
        let (b, base) = self.object();
        let at = base + offset;
        out.copy_from_slice(&b.map.lock()[at..at + out.len()]);
    }
    pub fn write(&self, offset: usize, data: &[u8]) {
        let (b, base) = self.object();
        let at = base + offset;
        b.map.lock()[at..at + data.len()].copy_from_slice(data);
    }
    /// Run `f` over the buffer's bytes (all `size` of them).
    pub fn with_bytes<R>(&self, f: impl FnOnce(&mut [u8]) -> R) -> R {
        let (b, base) = self.object();
        f(&mut b.map.lock()[base..base + self.size])
    }
    /// The address of byte `offset` in this process's mapping (valid while `self` lives).
    pub fn host_addr(&self, offset: usize) -> *mut u8 {
        let (b, base) = self.object();
        // SAFETY: base + offset is within the object (offsets are checked against `size`).
        unsafe { b.map.lock().as_mut_ptr().add(base + offset) }
    }
    pub fn is_sub_buffer(&self) -> bool {
        self.image.is_none() && matches!(self.storage, Storage::Sub { .. })
    }
    /// "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object": an image is not one.
    pub fn check_buffer(&self) -> ClResult<()> {
        match self.image {
            Some(_) => Err(CL_INVALID_MEM_OBJECT),
            None => Ok(()),
        }
    }
    /// "CL_INVALID_VALUE if the region being read or written specified by (offset, size) is out
    /// of bounds".
    pub fn check_range(&self, offset: usize, size: usize) -> ClResult<()> {
        match offset.checked_add(size) {
            Some(end) if end <= self.size => Ok(()),
            _ => Err(CL_INVALID_VALUE),
        }
    }
    pub fn host_ptr(&self) -> *mut u8 {
        self.host_ptr as *mut u8
    }
}
