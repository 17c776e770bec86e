//! Buffer objects (OpenCL 3.0 §5.2). A buffer is a GEM object in this client's GPU VM whose
//! pages are mapped into the application's process (`client::SharedBuffer`): reads, writes,
//! copies and maps are plain memory operations on that mapping.

use super::context::Context;
use super::info::{self, val, Info};
use super::object::{get, ClObject, Ref};
use super::runtime::{connection, device_desc};
use super::types::*;
use super::util::{entry, entry_ptr, ClResult};
use crate::client::SharedBuffer;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct Mem {
    pub context: Ref<Context>,
    pub flags: cl_mem_flags,
    pub size: usize,
    /// The application's pointer for CL_MEM_USE_HOST_PTR (kept in sync at map/unmap).
    pub host_ptr: usize,
    pub buf: SharedBuffer,
    pub map_count: AtomicU32,
    /// Live maps: (pointer handed out, offset, size).
    pub maps: parking_lot::Mutex<Vec<(usize, usize, usize)>>,
}

impl ClObject for Mem {
    type Raw = _cl_mem;
    const TAG: u32 = 0x676d_656d; // "gmem"
    const INVALID: cl_int = CL_INVALID_MEM_OBJECT;
}

impl Drop for Mem {
    fn drop(&mut self) {
        if let Ok(c) = connection() {
            if let Err(e) = c.free_buffer(self.buf.id) {
                tracing::warn!("freeing buffer {}: {e}", self.buf.id);
            }
        }
    }
}

impl Mem {
    /// Copy `out.len()` bytes at `offset` out of the buffer.
    pub fn read(&self, offset: usize, out: &mut [u8]) {
        out.copy_from_slice(&self.buf.map.lock()[offset..offset + out.len()]);
    }
    pub fn write(&self, offset: usize, data: &[u8]) {
        self.buf.map.lock()[offset..offset + data.len()].copy_from_slice(data);
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

const ACCESS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_ACCESS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
const HOST_PTR_FLAGS: cl_mem_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

/// The memory flags table's rules: one access mode, one host-access mode, USE_HOST_PTR not with
/// ALLOC_HOST_PTR or COPY_HOST_PTR, no unknown bits.
pub fn valid_flags(flags: cl_mem_flags) -> bool {
    let known = ACCESS | HOST_ACCESS | HOST_PTR_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE;
    if flags & !known != 0 {
        return false;
    }
    if (flags & ACCESS).count_ones() > 1 || (flags & HOST_ACCESS).count_ones() > 1 {
        return false;
    }
    if flags & CL_MEM_USE_HOST_PTR != 0
        && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0
    {
        return false;
    }
    // CL_MEM_KERNEL_READ_AND_WRITE is for images only.
    flags & CL_MEM_KERNEL_READ_AND_WRITE == 0
}

pub(crate) fn create_buffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let ctx = get::<Context>(context)?;
    // "CL_INVALID_VALUE if values specified in flags are not valid as defined in the Memory
    // Flags table."
    if !valid_flags(flags) {
        return Err(CL_INVALID_VALUE);
    }
    // "If value specified for flags is 0, the default is used which is CL_MEM_READ_WRITE."
    let flags = if flags & ACCESS == 0 {
        flags | CL_MEM_READ_WRITE
    } else {
        flags
    };
    // "CL_INVALID_BUFFER_SIZE if size is 0, or if size is greater than
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE value specified in the Device Queries table for all devices
    // in context."
    let max = device_desc()?.max_alloc_bytes;
    if size == 0 || size as u64 > max {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
    // are set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
    // CL_MEM_USE_HOST_PTR are not set in flags."
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    // "CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate memory for buffer
    // object."
    let buf = connection()?.create_buffer(size as u64).map_err(|e| {
        tracing::warn!("clCreateBuffer({size}): {e}");
        CL_MEM_OBJECT_ALLOCATION_FAILURE
    })?;
    if wants_ptr {
        // SAFETY: the application guarantees host_ptr points to at least `size` bytes.
        let src = unsafe { std::slice::from_raw_parts(host_ptr.cast::<u8>(), size) };
        buf.map.lock()[..size].copy_from_slice(src);
    }
    let host_ptr = if flags & CL_MEM_USE_HOST_PTR != 0 {
        host_ptr as usize
    } else {
        0
    };
    Ok(Ref::new_handle(Mem {
        context: ctx,
        flags,
        size,
        host_ptr,
        buf,
        map_count: AtomicU32::new(0),
        maps: Default::default(),
    }))
}

pub unsafe extern "C" fn clCreateBuffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    entry_ptr(errcode_ret, || {
        create_buffer(context, flags, size, host_ptr)
    })
}

pub unsafe extern "C" fn clRetainMemObject(m: cl_mem) -> cl_int {
    entry(|| Ref::<Mem>::retain(m))
}

pub unsafe extern "C" fn clReleaseMemObject(m: cl_mem) -> cl_int {
    entry(|| Ref::<Mem>::release(m))
}

fn mem_info(m: cl_mem, param: cl_mem_info) -> ClResult<Info> {
    let m = get::<Mem>(m)?;
    match param {
        CL_MEM_TYPE => val(&CL_MEM_OBJECT_BUFFER),
        CL_MEM_FLAGS => val(&m.flags),
        CL_MEM_SIZE => val(&m.size),
        CL_MEM_HOST_PTR => val(&m.host_ptr),
        CL_MEM_MAP_COUNT => val(&m.map_count.load(Ordering::Relaxed)),
        CL_MEM_REFERENCE_COUNT => val(&m.ref_count()),
        CL_MEM_CONTEXT => val(&m.context.handle()),
        CL_MEM_ASSOCIATED_MEMOBJECT => val(&std::ptr::null_mut::<_cl_mem>()),
        CL_MEM_OFFSET => val(&0usize),
        CL_MEM_USES_SVM_POINTER => val(&CL_FALSE),
        CL_MEM_PROPERTIES => val(&Vec::<u64>::new()),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetMemObjectInfo(
    m: cl_mem,
    param_name: cl_mem_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || mem_info(m, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}
