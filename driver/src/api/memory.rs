//! Buffer objects (OpenCL 3.0 §5.2). A buffer is a GEM object in this client's GPU VM whose
//! pages are mapped into the application's process (`client::SharedBuffer`): reads, writes,
//! copies and maps are plain memory operations on that mapping. A sub-buffer is a window of
//! its parent's object (it holds a reference to the parent, so the object outlives it).

use super::context::Context;
use super::image::Image;
use super::info::{self, val, Info};
use super::object::{get, ClObject, Destructors, Ref};
use super::runtime::{connection, device_desc};
use super::transfer::{copy_host, Rect};
use super::types::*;
use super::util::{entry, entry_ptr, flatten, properties, ClResult};
use crate::client::SharedBuffer;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};

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
