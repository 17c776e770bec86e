//! Image objects (OpenCL 3.0 §5.3): clCreateImage and its 1.x forms, images from buffers,
//! clGetSupportedImageFormats and clGetImageInfo.
//!
//! An image is a memory object (`Mem`) whose `image` says how its texels are laid out. gencl
//! keeps images linear (docs/images.md): rows `width × element size` bytes long, 2D array
//! elements and 3D slices a multiple of 4 rows apart (RENDER_SURFACE_STATE's QPitch is in
//! units of 4 rows), 1D array elements a multiple of 4 texels apart in one row (how Gen9
//! places them). Images from buffers keep the buffer's bytes and the application's pitch.
//!
//! The formats are those Intel's runtime reports for Gen9 (compute-runtime's
//! `surface_formats.cpp`, its depth formats included), on the surface formats the GPU model
//! implements; luminance is
//! kept in R formats, as Intel's runtime keeps it, and read back as (L, L, L, 1) through the
//! surface's channel selects.

use super::info::{self, val, Info, ToInfo};
use super::memory::{derived_flags, valid_flags, ACCESS};
use super::object::{get, Ref};
use super::runtime::{connection, device_desc};
use super::types::*;
use super::util::{entry, entry_ptr, properties, write_opt, ClResult};
use crate::core::context::Context;
use crate::core::image::{ClFormat, Image, FORMATS};
use crate::core::memory::{Mem, Storage};
use crate::core::rect::copy_host;
use std::ffi::c_void;
use std::sync::atomic::AtomicU32;

/// The device's image limits: what Intel's runtime reports for Gen9 (and what
/// RENDER_SURFACE_STATE holds: 14-bit widths and heights, 11-bit depths, 27-bit buffers).
pub const IMAGE2D_MAX: usize = 16384;
pub const IMAGE3D_MAX: usize = 2048;
pub const IMAGE_MAX_ARRAY_SIZE: usize = 2048;
pub const IMAGE_MAX_BUFFER_SIZE: usize = 1 << 27;
/// CL_DEVICE_IMAGE_PITCH_ALIGNMENT (pixels) and CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT
/// (bytes) for images made from buffers.
pub const IMAGE_PITCH_ALIGNMENT: u32 = 4;
pub const IMAGE_BASE_ADDRESS_ALIGNMENT: u32 = 4;

/// "CL_DEPTH ... can only be used" for 2D images and 2D image arrays (cl_khr_depth_images).
fn depth_allowed(f: &ClFormat, ty: cl_mem_object_type) -> bool {
    f.order != CL_DEPTH || matches!(ty, CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY)
}

/// The format `f` is kept in, if supported.
pub fn find_format(f: &cl_image_format) -> Option<&'static ClFormat> {
    FORMATS
        .iter()
        .find(|c| c.order == f.image_channel_order && c.ty == f.image_channel_data_type)
}

/// Whether `f` is a format OpenCL defines at all (the channel order and data type are both
/// known and go together): otherwise CL_INVALID_IMAGE_FORMAT_DESCRIPTOR.
#[allow(non_upper_case_globals)]
fn valid_format(f: &cl_image_format) -> bool {
    let order = f.image_channel_order;
    let ty = f.image_channel_data_type;
    if !(CL_R..=CL_ABGR).contains(&order) || !(CL_SNORM_INT8..=CL_UNORM_INT_101010_2).contains(&ty)
    {
        return false;
    }
    let packed = matches!(
        ty,
        CL_UNORM_SHORT_565 | CL_UNORM_SHORT_555 | CL_UNORM_INT_101010 | CL_UNORM_INT_101010_2
    );
    let unorm8 = ty == CL_UNORM_INT8;
    // OpenCL 3.0 §5.3.1.1: which orders take which types.
    match order {
        CL_RGB | CL_RGBx => packed && ty != CL_UNORM_INT_101010_2,
        CL_ARGB | CL_BGRA | CL_ABGR => {
            matches!(
                ty,
                CL_UNORM_INT8 | CL_SNORM_INT8 | CL_SIGNED_INT8 | CL_UNSIGNED_INT8
            )
        }
        CL_RGBA => !packed || ty == CL_UNORM_INT_101010_2,
        CL_INTENSITY | CL_LUMINANCE => matches!(
            ty,
            CL_UNORM_INT8
                | CL_UNORM_INT16
                | CL_SNORM_INT8
                | CL_SNORM_INT16
                | CL_HALF_FLOAT
                | CL_FLOAT
        ),
        CL_DEPTH => matches!(ty, CL_UNORM_INT16 | CL_FLOAT),
        CL_DEPTH_STENCIL => matches!(ty, CL_UNORM_INT24 | CL_FLOAT),
        CL_sRGB | CL_sRGBx | CL_sRGBA | CL_sBGRA => unorm8,
        // CL_R, CL_A, CL_RG, CL_RA, CL_Rx, CL_RGx: every non-packed type.
        0x10BB /* CL_RGx */ | CL_R | CL_A | CL_RG | CL_RA | CL_Rx => !packed && ty != CL_UNORM_INT24,
        _ => false,
    }
}

const IMAGE_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE3D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
];

fn align(v: usize, to: usize) -> usize {
    v.div_ceil(to) * to
}

/// "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if
/// image_desc is NULL", "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc
/// exceed the maximum image dimensions described in the Device Queries table": the extent
/// of each image type (§5.3.1.2's image descriptor), as (width, height, depth, array size).
fn check_extent(d: &cl_image_desc) -> ClResult<(usize, usize, usize, usize)> {
    let size = |v: usize, max: usize| -> ClResult<usize> {
        if v == 0 {
            Err(CL_INVALID_IMAGE_DESCRIPTOR)
        } else if v > max {
            Err(CL_INVALID_IMAGE_SIZE)
        } else {
            Ok(v)
        }
    };
    Ok(match d.image_type {
        CL_MEM_OBJECT_IMAGE1D => (size(d.image_width, IMAGE2D_MAX)?, 1, 1, 1),
        CL_MEM_OBJECT_IMAGE1D_BUFFER => (size(d.image_width, IMAGE_MAX_BUFFER_SIZE)?, 1, 1, 1),
        CL_MEM_OBJECT_IMAGE1D_ARRAY => (
            size(d.image_width, IMAGE2D_MAX)?,
            1,
            1,
            size(d.image_array_size, IMAGE_MAX_ARRAY_SIZE)?,
        ),
        CL_MEM_OBJECT_IMAGE2D => (
            size(d.image_width, IMAGE2D_MAX)?,
            size(d.image_height, IMAGE2D_MAX)?,
            1,
            1,
        ),
        CL_MEM_OBJECT_IMAGE2D_ARRAY => (
            size(d.image_width, IMAGE2D_MAX)?,
            size(d.image_height, IMAGE2D_MAX)?,
            1,
            size(d.image_array_size, IMAGE_MAX_ARRAY_SIZE)?,
        ),
        CL_MEM_OBJECT_IMAGE3D => (
            size(d.image_width, IMAGE3D_MAX)?,
            size(d.image_height, IMAGE3D_MAX)?,
            size(d.image_depth, IMAGE3D_MAX)?,
            1,
        ),
        _ => return Err(CL_INVALID_IMAGE_DESCRIPTOR),
    })
}

/// clCreateImageWithProperties, which every image-creating entry point comes to.
pub(crate) fn create_image(
    context: cl_context,
    props: Option<Vec<(cl_mem_properties, cl_mem_properties)>>,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let ctx = get::<Context>(context)?;
    // "CL_INVALID_PROPERTY if a property name in properties is not a supported property name,
    // if the value specified for a supported property name is not valid, or if the same
    // property name is specified more than once": OpenCL 3.0 defines no image property.
    if props.as_ref().is_some_and(|p| !p.is_empty()) {
        return Err(CL_INVALID_PROPERTY);
    }
    // "CL_INVALID_VALUE if values specified in flags are not valid."
    if !valid_flags(flags & !CL_MEM_KERNEL_READ_AND_WRITE) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not valid
    // or if image_format is NULL."
    // SAFETY: NULL or a cl_image_format, per the spec.
    let format = *unsafe { image_format.as_ref() }.ok_or(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)?;
    if !valid_format(&format) {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if
    // image_desc is NULL."
    // SAFETY: NULL or a cl_image_desc, per the spec.
    let desc = *unsafe { image_desc.as_ref() }.ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    if !IMAGE_TYPES.contains(&desc.image_type) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // "num_mip_levels and num_samples must be 0" (no cl_khr_mipmap_image, no MSAA).
    if desc.num_mip_levels != 0 || desc.num_samples != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // "mem_object ... must be NULL if image_type is not CL_MEM_OBJECT_IMAGE1D_BUFFER or
    // CL_MEM_OBJECT_IMAGE2D"; a 1D image buffer needs one.
    let from = if desc.buffer.is_null() {
        if desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        None
    } else {
        if !matches!(
            desc.image_type,
            CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D
        ) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        let m = get::<Mem>(desc.buffer).map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?;
        // A 2D image from another image (a new view of its bytes, OpenCL 2.0) is not
        // supported: gencl's images are made from buffers only.
        if m.image.is_some() || m.context.handle() != ctx.handle() {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        Some(m)
    };
    let (width, height, depth, array_size) = check_extent(&desc)?;
    let bytes = find_format(&format).map_or(1, |f| f.bytes);
    // "image_row_pitch ... must be 0 if host_ptr is NULL and can be either 0 or ≥
    // image_width × size of element in bytes if host_ptr is not NULL. If host_ptr is not
    // NULL and image_row_pitch is not 0, image_row_pitch must be a multiple of the image
    // element size in bytes." (For a 2D image from a buffer it is the buffer's pitch.)
    let has_ptr = !host_ptr.is_null();
    let row_given = desc.image_row_pitch;
    let packed_row = width * bytes;
    if row_given != 0 {
        if !has_ptr && from.is_none() {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if row_given < packed_row || !row_given.is_multiple_of(bytes) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
    }
    let host_row = if row_given == 0 {
        packed_row
    } else {
        row_given
    };
    // "image_slice_pitch ... must be 0 if host_ptr is NULL. If host_ptr is not NULL,
    // image_slice_pitch can be either 0 or ≥ image_row_pitch × image_height for a 2D image
    // array or 3D image and can be either 0 or ≥ image_row_pitch for a 1D image array. ...
    // must be a multiple of the image_row_pitch."
    let slice_given = desc.image_slice_pitch;
    let rows = match desc.image_type {
        CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => height,
        _ => 1,
    };
    let layered = matches!(
        desc.image_type,
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    );
    if slice_given != 0 && layered {
        if !has_ptr {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if slice_given < host_row * rows || !slice_given.is_multiple_of(host_row) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
    }
    let host_slice = match (layered, slice_given) {
        (false, _) => 0,
        (true, 0) => host_row * rows,
        (true, s) => s,
    };
    if let Some(buf) = &from {
        // A 2D image from a buffer: "image_row_pitch ... must be a multiple of the maximum of
        // the CL_DEVICE_IMAGE_PITCH_ALIGNMENT value for all devices in the context ... and
        // the size of an element in bytes"; the buffer's start (a sub-buffer's origin, a
        // CL_MEM_USE_HOST_PTR pointer) "must be aligned to the maximum of the
        // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT value": else
        // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR.
        if desc.image_type == CL_MEM_OBJECT_IMAGE2D {
            let pitch_align = IMAGE_PITCH_ALIGNMENT as usize * bytes;
            let (_, base) = buf.object();
            let base_align = IMAGE_BASE_ADDRESS_ALIGNMENT as usize;
            if !host_row.is_multiple_of(pitch_align)
                || !base.is_multiple_of(base_align)
                || (buf.host_ptr != 0 && !buf.host_ptr.is_multiple_of(base_align))
            {
                return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
            }
        }
        // The image's bytes must be in the buffer: "the size of buffer ... must be ≥
        // image_row_pitch × image_height" (image_width × element size for a 1D buffer).
        if host_row * height > buf.size {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
    }
    // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
    // are set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
    // CL_MEM_USE_HOST_PTR are not set in flags."
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr != has_ptr {
        return Err(CL_INVALID_HOST_PTR);
    }
    // "CL_INVALID_VALUE if an image is being created from another memory object (buffer or
    // image)" with flags its own do not allow (`derived_flags`, clCreateSubBuffer's rules).
    let mut flags = match &from {
        Some(buf) => derived_flags(buf.flags, flags)?,
        None => flags,
    };
    // "If value specified for flags is 0, the default is used which is CL_MEM_READ_WRITE."
    if flags & ACCESS == 0 {
        flags |= CL_MEM_READ_WRITE;
    }
    // "CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context that support
    // image_format": for the access the flags ask for.
    let fmt = find_format(&format)
        .filter(|f| depth_allowed(f, desc.image_type))
        .ok_or(CL_IMAGE_FORMAT_NOT_SUPPORTED)?;
    let kernel_writes =
        flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE) != 0;
    if kernel_writes && !fmt.writable {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }
    // The layout: packed rows; 2D array elements and 3D slices a multiple of 4 rows apart;
    // 1D array elements a multiple of 4 texels apart (QPitch's units).
    let (row_pitch, slice_pitch) = match desc.image_type {
        _ if from.is_some() => (host_row, 0),
        CL_MEM_OBJECT_IMAGE1D_ARRAY => {
            let p = align(width, 4) * bytes;
            (p, p)
        }
        CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => {
            (packed_row, packed_row * align(height, 4))
        }
        _ => (packed_row, 0),
    };
    let size = match desc.image_type {
        CL_MEM_OBJECT_IMAGE1D_ARRAY => slice_pitch * array_size,
        CL_MEM_OBJECT_IMAGE2D_ARRAY => slice_pitch * array_size,
        CL_MEM_OBJECT_IMAGE3D => slice_pitch * depth,
        _ => row_pitch * height,
    };
    let max = device_desc()?.max_alloc_bytes;
    if size as u64 > max {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    let image = Image {
        format,
        fmt,
        ty: desc.image_type,
        width,
        height,
        depth,
        array_size,
        row_pitch,
        slice_pitch,
        host_row_pitch: host_row,
        host_slice_pitch: host_slice,
        buffer: from.as_ref().map(|b| b.handle() as usize),
    };
    let (storage, kept_ptr) = match from {
        Some(buf) => {
            let hp = buf.host_ptr;
            (
                Storage::Sub {
                    parent: buf,
                    origin: 0,
                },
                hp,
            )
        }
        None => {
            // "CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate memory for
            // image object."
            let buf = connection()?.create_buffer(size as u64).map_err(|e| {
                tracing::warn!("clCreateImage({size} bytes): {e}");
                CL_MEM_OBJECT_ALLOCATION_FAILURE
            })?;
            let hp = if flags & CL_MEM_USE_HOST_PTR != 0 {
                host_ptr as usize
            } else {
                0
            };
            (Storage::Own(buf), hp)
        }
    };
    let mem = Mem {
        context: ctx,
        flags,
        size,
        host_ptr: kept_ptr,
        storage,
        properties: props,
        map_count: AtomicU32::new(0),
        maps: Default::default(),
        destructors: Default::default(),
        image: Some(image),
    };
    if wants_ptr {
        // The application's texels, in its layout, into the image's.
        let img = mem.image.as_ref().expect("an image");
        let region = img.dims();
        let host = img.host_rect(region, img.host_row_pitch, img.host_slice_pitch);
        let dev = img.rect([0; 3]);
        let bregion = img.byte_region(region);
        mem.with_bytes(|bytes| {
            // SAFETY: the application's host_ptr holds the image in the layout its pitches
            // describe (clCreateImage's contract).
            unsafe { copy_host(bytes, dev, host_ptr.cast(), host, bregion, false) }
        });
    }
    Ok(Ref::new_handle(mem))
}

pub unsafe extern "C" fn clCreateImage(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    entry_ptr(errcode_ret, || {
        create_image(context, None, flags, image_format, image_desc, host_ptr)
    })
}

pub unsafe extern "C" fn clCreateImageWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    entry_ptr(errcode_ret, || {
        // SAFETY: a 0-terminated list or NULL, per the spec.
        let list = unsafe { self::properties(properties) };
        create_image(context, list, flags, image_format, image_desc, host_ptr)
    })
}

fn desc_of(
    ty: cl_mem_object_type,
    extent: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
) -> cl_image_desc {
    cl_image_desc {
        image_type: ty,
        image_width: extent[0],
        image_height: extent[1],
        image_depth: extent[2],
        image_array_size: 0,
        image_row_pitch: row_pitch,
        image_slice_pitch: slice_pitch,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: std::ptr::null_mut(),
    }
}

/// The OpenCL 1.1 forms: "CL_INVALID_IMAGE_SIZE if image_width or image_height are 0" (and,
/// for clCreateImage3D, "if image_depth <= 1"), where clCreateImage says
/// CL_INVALID_IMAGE_DESCRIPTOR.
fn create_image_1x(
    context: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: cl_image_desc,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    let r = create_image(context, None, flags, format, &desc, host_ptr);
    let zero = desc.image_width == 0
        || desc.image_height == 0
        || (desc.image_type == CL_MEM_OBJECT_IMAGE3D && desc.image_depth <= 1);
    match r {
        Err(CL_INVALID_IMAGE_DESCRIPTOR) if zero => Err(CL_INVALID_IMAGE_SIZE),
        Ok(_) if zero => unreachable!("a zero-sized image was made"),
        r => r,
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clCreateImage2D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_row_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    entry_ptr(errcode_ret, || {
        let d = desc_of(
            CL_MEM_OBJECT_IMAGE2D,
            [image_width, image_height, 1],
            image_row_pitch,
            0,
        );
        create_image_1x(context, flags, image_format, d, host_ptr)
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clCreateImage3D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_depth: usize,
    image_row_pitch: usize,
    image_slice_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    entry_ptr(errcode_ret, || {
        let d = desc_of(
            CL_MEM_OBJECT_IMAGE3D,
            [image_width, image_height, image_depth],
            image_row_pitch,
            image_slice_pitch,
        );
        if image_depth == 1 {
            // "CL_INVALID_IMAGE_SIZE if ... image_depth <= 1" (a 2D image is not a 3D one).
            get::<Context>(context)?;
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        create_image_1x(context, flags, image_format, d, host_ptr)
    })
}

pub unsafe extern "C" fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        get::<Context>(context)?;
        // "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
        // image_formats is not NULL."
        if !valid_flags(flags & !CL_MEM_KERNEL_READ_AND_WRITE)
            || !IMAGE_TYPES.contains(&image_type)
            || (num_entries == 0 && !image_formats.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        // "If value specified for flags is 0, the default is used which is
        // CL_MEM_READ_WRITE": formats kernels may write, unless the images are read-only.
        let read_only = flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE) == 0
            && flags & CL_MEM_READ_ONLY != 0
            && flags & CL_MEM_KERNEL_READ_AND_WRITE == 0;
        let list: Vec<cl_image_format> = FORMATS
            .iter()
            .filter(|f| (read_only || f.writable) && depth_allowed(f, image_type))
            .map(|f| cl_image_format {
                image_channel_order: f.order,
                image_channel_data_type: f.ty,
            })
            .collect();
        if !image_formats.is_null() {
            for (i, f) in list.iter().take(num_entries as usize).enumerate() {
                // SAFETY: image_formats holds num_entries entries, per the spec.
                unsafe { *image_formats.add(i) = *f };
            }
        }
        write_opt(num_image_formats, list.len() as cl_uint);
        Ok(())
    })
}

impl ToInfo for cl_image_format {
    fn to_info(&self) -> Vec<u8> {
        [self.image_channel_order, self.image_channel_data_type].to_info()
    }
}

/// The memory object `m` as an image: "CL_INVALID_MEM_OBJECT if image is not a valid image
/// object".
pub fn get_image(m: cl_mem) -> ClResult<Ref<Mem>> {
    let m = get::<Mem>(m)?;
    if m.image.is_none() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    Ok(m)
}

fn image_info(image: cl_mem, param: cl_image_info) -> ClResult<Info> {
    let m = get_image(image)?;
    let i = m.image.as_ref().expect("an image");
    let arrays = matches!(
        i.ty,
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY
    );
    match param {
        CL_IMAGE_FORMAT => val(&i.format),
        CL_IMAGE_ELEMENT_SIZE => val(&i.fmt.bytes),
        CL_IMAGE_ROW_PITCH => val(&i.host_row_pitch),
        CL_IMAGE_SLICE_PITCH => val(&i.host_slice_pitch),
        CL_IMAGE_WIDTH => val(&i.width),
        // "... 0 if image is a 1D image", and depth "0 if image is not a 3D image".
        CL_IMAGE_HEIGHT => val(&match i.ty {
            CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => i.height,
            _ => 0,
        }),
        CL_IMAGE_DEPTH => val(&if i.ty == CL_MEM_OBJECT_IMAGE3D {
            i.depth
        } else {
            0
        }),
        CL_IMAGE_ARRAY_SIZE => val(&if arrays { i.array_size } else { 0 }),
        CL_IMAGE_BUFFER => val(&i.buffer.unwrap_or(0)),
        CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => val(&(0 as cl_uint)),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetImageInfo(
    image: cl_mem,
    param_name: cl_image_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || image_info(image, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_one_the_gpu_model_has_with_its_size() {
        for f in FORMATS {
            let g = gencl_kmd::gpu::image::format::format(f.surface)
                .unwrap_or_else(|| panic!("{f:x?}: surface format unknown to the model"));
            assert_eq!(g.bytes as usize, f.bytes, "{f:x?} ({})", g.name);
            let fmt = cl_image_format {
                image_channel_order: f.order,
                image_channel_data_type: f.ty,
            };
            assert!(valid_format(&fmt), "{f:x?}");
            assert_eq!(find_format(&fmt), Some(f), "listed once");
        }
    }

    #[test]
    fn format_descriptors_follow_the_spec_table() {
        let f = |o, t| {
            valid_format(&cl_image_format {
                image_channel_order: o,
                image_channel_data_type: t,
            })
        };
        assert!(f(CL_RGB, CL_UNORM_SHORT_565));
        assert!(!f(CL_RGB, CL_UNORM_INT8));
        assert!(!f(CL_BGRA, CL_FLOAT));
        assert!(!f(CL_R, CL_UNORM_SHORT_565));
        assert!(!f(CL_LUMINANCE, CL_UNSIGNED_INT8));
        assert!(!f(0, CL_FLOAT));
        assert!(!f(CL_RGBA, 0));
    }
}
