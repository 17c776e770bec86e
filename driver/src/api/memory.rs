//! Buffer objects (OpenCL 3.0 §5.2). A buffer is a GEM object in this client's GPU VM whose
//! pages are mapped into the application's process (`client::SharedBuffer`): reads, writes,
//! copies and maps are plain memory operations on that mapping. A sub-buffer is a window of
//! its parent's object (it holds a reference to the parent, so the object outlives it).

use super::info::{self, val, Info};
use super::object::{get, Ref};
use super::runtime::{connection, device_desc};
use super::types::*;
use super::util::{entry, entry_ptr, flatten, properties, ClResult};
use crate::core::context::Context;
use crate::core::memory::{Mem, Storage};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};

pub(crate) const ACCESS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
pub(crate) const HOST_ACCESS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
pub(crate) const HOST_PTR_FLAGS: cl_mem_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

/// The flags of an object made from another (a sub-buffer, an image from a buffer), checked
/// and completed: "CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags
/// specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was created with
/// CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, or if flags
/// specifies CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR"; "... if
/// buffer was created with CL_MEM_HOST_WRITE_ONLY and flags specify CL_MEM_HOST_READ_ONLY, or
/// if buffer was created with CL_MEM_HOST_READ_ONLY and flags specify
/// CL_MEM_HOST_WRITE_ONLY, or if buffer was created with CL_MEM_HOST_NO_ACCESS and flags
/// specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY" (clCreateSubBuffer; clCreateImage
/// says the same of mem_object). Access and host-access flags not given are the parent's
/// ("inherited"), and so are its host-pointer flags.
pub(crate) fn derived_flags(parent: cl_mem_flags, flags: cl_mem_flags) -> ClResult<cl_mem_flags> {
    let wants = flags & ACCESS;
    if (parent & CL_MEM_WRITE_ONLY != 0 && wants & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
        || (parent & CL_MEM_READ_ONLY != 0 && wants & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
        || flags & HOST_PTR_FLAGS != 0
    {
        return Err(CL_INVALID_VALUE);
    }
    let host = flags & HOST_ACCESS;
    if (parent & CL_MEM_HOST_WRITE_ONLY != 0 && host & CL_MEM_HOST_READ_ONLY != 0)
        || (parent & CL_MEM_HOST_READ_ONLY != 0 && host & CL_MEM_HOST_WRITE_ONLY != 0)
        || (parent & CL_MEM_HOST_NO_ACCESS != 0
            && host & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    let mut f = flags;
    if f & ACCESS == 0 {
        f |= parent & ACCESS;
    }
    if f & HOST_ACCESS == 0 {
        f |= parent & HOST_ACCESS;
    }
    Ok(f | (parent & HOST_PTR_FLAGS))
}

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
    properties: Option<Vec<(cl_mem_properties, cl_mem_properties)>>,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let ctx = get::<Context>(context)?;
    // "CL_INVALID_PROPERTY if a property name in properties is not a supported property name,
    // if the value specified for a supported property name is not valid, or if the same
    // property name is specified more than once": OpenCL 3.0 defines no buffer property.
    if properties.as_ref().is_some_and(|p| !p.is_empty()) {
        return Err(CL_INVALID_PROPERTY);
    }
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
        storage: Storage::Own(buf),
        properties,
        map_count: AtomicU32::new(0),
        maps: Default::default(),
        destructors: Default::default(),
        image: None,
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
        create_buffer(context, None, flags, size, host_ptr)
    })
}

pub unsafe extern "C" fn clCreateBufferWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    entry_ptr(errcode_ret, || {
        // SAFETY: a 0-terminated list or NULL, per the spec.
        let list = unsafe { self::properties(properties) };
        create_buffer(context, list, flags, size, host_ptr)
    })
}

/// "CL_DEVICE_MEM_BASE_ADDR_ALIGN: the minimum value is the size (in bits) of the largest
/// OpenCL built-in data type supported by the device" (long16: 1024 bits); a sub-buffer's
/// origin must be a multiple of it.
pub const BASE_ADDR_ALIGN_BYTES: usize = 128;

pub unsafe extern "C" fn clCreateSubBuffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    buffer_create_type: cl_buffer_create_type,
    buffer_create_info: *const c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    entry_ptr(errcode_ret, || {
        // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a sub-buffer
        // object."
        let parent = get::<Mem>(buffer)?;
        if parent.is_sub_buffer() || parent.image.is_some() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        if !valid_flags(flags) {
            return Err(CL_INVALID_VALUE);
        }
        // The derived object's flag rules, and the flags it inherits (`derived_flags`).
        let f = derived_flags(parent.flags, flags)?;
        // "CL_INVALID_VALUE if value specified in buffer_create_type is not valid."
        if buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if value(s) specified in buffer_create_info (for a given
        // buffer_create_type) is not valid or if buffer_create_info is NULL."
        if buffer_create_info.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: a cl_buffer_region for CL_BUFFER_CREATE_TYPE_REGION, per the spec.
        let region = unsafe { &*buffer_create_info.cast::<cl_buffer_region>() };
        // "CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed in
        // buffer_create_info is out of bounds in buffer."
        parent.check_range(region.origin, region.size)?;
        // "CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region structure passed in
        // buffer_create_info is 0."
        if region.size == 0 {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        // "CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context associated with
        // buffer for which the origin field of the cl_buffer_region structure passed in
        // buffer_create_info is aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value."
        if !region.origin.is_multiple_of(BASE_ADDR_ALIGN_BYTES) {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        let host_ptr = if parent.host_ptr != 0 {
            parent.host_ptr + region.origin
        } else {
            0
        };
        Ok(Ref::new_handle(Mem {
            context: parent.context.clone(),
            flags: f,
            size: region.size,
            host_ptr,
            storage: Storage::Sub {
                parent: parent.clone(),
                origin: region.origin,
            },
            properties: None,
            map_count: AtomicU32::new(0),
            maps: Default::default(),
            destructors: Default::default(),
            image: None,
        }))
    })
}

pub unsafe extern "C" fn clSetMemObjectDestructorCallback(
    memobj: cl_mem,
    pfn_notify: Option<unsafe extern "C" fn(cl_mem, *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object."
        let m = get::<Mem>(memobj)?;
        // "CL_INVALID_VALUE if pfn_notify is NULL."
        let f = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        m.destructors.push(memobj, f, user_data);
        Ok(())
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
        CL_MEM_TYPE => val(&m.image.as_ref().map_or(CL_MEM_OBJECT_BUFFER, |i| i.ty)),
        CL_MEM_FLAGS => val(&m.flags),
        CL_MEM_SIZE => val(&m.size),
        CL_MEM_HOST_PTR => val(&m.host_ptr),
        CL_MEM_MAP_COUNT => val(&m.map_count.load(Ordering::Relaxed)),
        CL_MEM_REFERENCE_COUNT => val(&m.ref_count()),
        CL_MEM_CONTEXT => val(&m.context.handle()),
        CL_MEM_ASSOCIATED_MEMOBJECT => val(&match &m.storage {
            Storage::Sub { parent, .. } => parent.handle(),
            Storage::Own(_) => std::ptr::null_mut(),
        }),
        CL_MEM_OFFSET => val(&match &m.storage {
            Storage::Sub { origin, .. } => *origin,
            Storage::Own(_) => 0,
        }),
        CL_MEM_USES_SVM_POINTER => val(&CL_FALSE),
        CL_MEM_PROPERTIES => match &m.properties {
            Some(p) => val(&flatten(p)),
            None => val(&Vec::<u64>::new()),
        },
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
