//! Image commands (OpenCL 3.0 §5.3.3-5.3.6): read, write, copy and fill images, copies
//! between images and buffers, and maps of images. Each is checked when enqueued and runs on
//! the queue's worker as row copies between the image's linear layout (`image::Image`) and
//! the other side, as the buffer commands are; a fill stores the colour converted to the
//! image's format as the GPU's typed writes convert it (the model's surface format tables).

use super::enqueue::{queue_and_objects, Enqueue, HostPtr};
use super::object::Ref;
use super::transfer::{check_map_access, enqueue_map, valid_map_flags};
use super::types::*;
use super::util::{entry, entry_ptr, slice, write_opt, ClResult};
use crate::core::image::Image;
use crate::core::memory::{Mapping, Mem};
use crate::core::queue::Kind;
use crate::core::rect::{copy_host, Rect};
use std::ffi::c_void;

/// The image of a memory object already known to be one.
fn img(m: &Mem) -> &Image {
    m.image.as_ref().expect("checked to be an image")
}

/// "CL_INVALID_MEM_OBJECT if image is not a valid image object."
fn check_image(m: &Mem) -> ClResult<()> {
    match m.image {
        Some(_) => Ok(()),
        None => Err(CL_INVALID_MEM_OBJECT),
    }
}

/// The origin and region arrays: NULL is CL_INVALID_VALUE.
///
/// # Safety
/// Each pointer is NULL or points to three `usize`.
unsafe fn three(p: *const usize) -> ClResult<[usize; 3]> {
    if p.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: three elements, per this function's contract.
    let s = unsafe { slice(p, 3) };
    Ok([s[0], s[1], s[2]])
}

/// clEnqueueReadImage and clEnqueueWriteImage.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: HostPtr,
    read: bool,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [m]) = queue_and_objects(
            command_queue,
            [image],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        check_image(&m)?;
        let i = img(&m);
        // "CL_INVALID_VALUE if the region being read or written specified by origin and
        // region is out of bounds or if ptr is a NULL value."
        // "CL_INVALID_VALUE if values in origin and region do not follow rules described in
        // the argument description for origin and region."
        // SAFETY: three elements each when not NULL, per the spec.
        let (o, r) = unsafe { (three(origin)?, three(region)?) };
        i.check_region(o, r)?;
        if ptr.0 == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if image is a 1D or 2D image and slice_pitch or input_slice_pitch
        // is not 0."
        let flat = matches!(
            i.ty,
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D
        );
        if flat && slice_pitch != 0 {
            return Err(CL_INVALID_VALUE);
        }
        // A pitch shorter than what it spans is no layout (the rect commands' rule).
        let br = i.byte_region(r);
        if (row_pitch != 0 && row_pitch < br[0])
            || (slice_pitch != 0 && slice_pitch < row_pitch.max(br[0]) * layer_rows(i, r))
        {
            return Err(CL_INVALID_VALUE);
        }
        let ty = if read {
            CL_COMMAND_READ_IMAGE
        } else {
            CL_COMMAND_WRITE_IMAGE
        };
        let e = Enqueue::new(q, ty, num_events_in_wait_list, event_wait_list, event)?;
        // "CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has been
        // created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS." / "... if
        // clEnqueueWriteImage is called on image which has been created with
        // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS."
        let refused = if read {
            CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
        } else {
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS
        };
        if m.flags & refused != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        let dev = i.rect(o);
        let host = i.host_rect(r, row_pitch, slice_pitch);
        e.submit(
            Kind::Command,
            blocking != 0,
            Box::new(move || {
                m.with_bytes(|bytes| {
                    // SAFETY: the application's memory holds the region in the layout its
                    // pitches give until the command completes.
                    unsafe { copy_host(bytes, dev, ptr.get(), host, br, read) }
                });
                Ok(None)
            }),
        )
    })
}

/// Rows in one slice of the host layout for `region`: a 1D array's slices are rows.
fn layer_rows(i: &Image, region: [usize; 3]) -> usize {
    if i.ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        1
    } else {
        region[1]
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueReadImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_read: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // SAFETY: the caller's arrays and pointers, per the spec.
    unsafe {
        transfer(
            command_queue,
            image,
            blocking_read,
            origin,
            region,
            row_pitch,
            slice_pitch,
            HostPtr::new(ptr),
            true,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueWriteImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_write: cl_bool,
    origin: *const usize,
    region: *const usize,
    input_row_pitch: usize,
    input_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // SAFETY: the caller's arrays and pointers, per the spec.
    unsafe {
        transfer(
            command_queue,
            image,
            blocking_write,
            origin,
            region,
            input_row_pitch,
            input_slice_pitch,
            HostPtr::new(ptr),
            false,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

/// Copy `region` (bytes × rows × slices) from one rectangle to another, between two memory
/// objects or within one (through a row buffer: rows of one object may overlap only when
/// the spec has refused the copy already).
fn copy_rows(src: &Mem, s: Rect, dst: &Mem, d: Rect, region: [usize; 3]) {
    let mut row = vec![0u8; region[0]];
    for (a, b) in s.rows(region).zip(d.rows(region)) {
        src.read(a, &mut row);
        dst.write(b, &row);
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyImage(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [src, dst]) = queue_and_objects(
            command_queue,
            [src_image, dst_image],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // "CL_INVALID_MEM_OBJECT if src_image and dst_image are not valid image objects."
        check_image(&src)?;
        check_image(&dst)?;
        let (si, di) = (img(&src), img(&dst));
        // "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image
        // format."
        let same_format = si.format.image_channel_order == di.format.image_channel_order
            && si.format.image_channel_data_type == di.format.image_channel_data_type;
        if !same_format {
            return Err(CL_IMAGE_FORMAT_MISMATCH);
        }
        // "CL_INVALID_VALUE if the 2D or 3D rectangular region specified by src_origin and
        // src_origin + region refers to a region outside src_image, or if the 2D or 3D
        // rectangular region specified by dst_origin and dst_origin + region refers to a
        // region outside dst_image."
        // "CL_INVALID_VALUE if values in src_origin, dst_origin and region do not follow rules
        // described in the argument description for src_origin, dst_origin and region."
        // SAFETY: three elements each when not NULL, per the spec.
        let (so, d_o, r) = unsafe { (three(src_origin)?, three(dst_origin)?, three(region)?) };
        si.check_region(so, r)?;
        di.check_region(d_o, r)?;
        let e = Enqueue::new(
            q,
            CL_COMMAND_COPY_IMAGE,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        // "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the
        // source and destination regions overlap."
        let same = src.handle() == dst.handle();
        if same && (0..3).all(|k| so[k] < d_o[k] + r[k] && d_o[k] < so[k] + r[k]) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let (s, d, br) = (si.rect(so), di.rect(d_o), si.byte_region(r));
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                copy_rows(&src, s, &dst, d, br);
                Ok(None)
            }),
        )
    })
}

/// The bytes of a packed region of texels (the buffer side of an image-buffer copy):
/// "dst_cb ... is computed as width × height × depth × bytes/image element".
fn packed(i: &Image, region: [usize; 3], offset: usize) -> ClResult<(Rect, usize)> {
    let row = region[0] * i.fmt.bytes;
    let n = row
        .checked_mul(region[1])
        .and_then(|v| v.checked_mul(region[2]))
        .ok_or(CL_INVALID_VALUE)?;
    Ok((
        Rect {
            offset,
            row_pitch: row,
            slice_pitch: row * region[1],
        },
        n,
    ))
}

/// "CL_INVALID_MEM_OBJECT if ... src_image is a 1D image buffer object created from
/// dst_buffer" (and the same of dst_image and src_buffer).
fn check_not_own_buffer(image: &Mem, buffer: &Ref<Mem>) -> ClResult<()> {
    if img(image).buffer == Some(buffer.handle() as usize) {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    Ok(())
}

/// clEnqueueCopyImageToBuffer (`to_buffer`) and clEnqueueCopyBufferToImage: the same checks
/// with the roles swapped, in the spec's order.
#[allow(clippy::too_many_arguments)]
unsafe fn image_buffer_copy(
    command_queue: cl_command_queue,
    image: cl_mem,
    buffer: cl_mem,
    origin: *const usize,
    region: *const usize,
    offset: usize,
    to_buffer: bool,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [im, buf]) = queue_and_objects(
            command_queue,
            [image, buffer],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // "CL_INVALID_MEM_OBJECT if src_image is not a valid image object or dst_buffer is
        // not a valid buffer object or if src_image is a 1D image buffer object created from
        // dst_buffer." (and the same of src_buffer and dst_image)
        check_image(&im)?;
        buf.check_buffer()?;
        check_not_own_buffer(&im, &buf)?;
        let i = img(&im);
        // "CL_INVALID_VALUE if the 1D, 2D or 3D rectangular region specified by src_origin and
        // src_origin + region refers to a region outside src_image, or if the region specified
        // by dst_offset and dst_offset + dst_cb to a region outside dst_buffer." (and the
        // same of dst_origin, src_offset and src_cb)
        // SAFETY: three elements each when not NULL, per the spec.
        let (o, r) = unsafe { (three(origin)?, three(region)?) };
        i.check_region(o, r)?;
        let (packed_rect, n) = packed(i, r, offset)?;
        buf.check_range(offset, n)?;
        let ty = if to_buffer {
            CL_COMMAND_COPY_IMAGE_TO_BUFFER
        } else {
            CL_COMMAND_COPY_BUFFER_TO_IMAGE
        };
        let e = Enqueue::new(q, ty, num_events_in_wait_list, event_wait_list, event)?;
        let (image_rect, br) = (i.rect(o), i.byte_region(r));
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                if to_buffer {
                    copy_rows(&im, image_rect, &buf, packed_rect, br);
                } else {
                    copy_rows(&buf, packed_rect, &im, image_rect, br);
                }
                Ok(None)
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyImageToBuffer(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // SAFETY: the caller's arrays and pointers, per the spec.
    unsafe {
        image_buffer_copy(
            command_queue,
            src_image,
            dst_buffer,
            src_origin,
            region,
            dst_offset,
            true,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyBufferToImage(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // SAFETY: the caller's arrays and pointers, per the spec.
    unsafe {
        image_buffer_copy(
            command_queue,
            dst_image,
            src_buffer,
            dst_origin,
            region,
            src_offset,
            false,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

/// The texel bytes a fill colour stores in `i`: "The fill color is a single floating point
/// value if the channel order is CL_DEPTH. Otherwise, the fill color is a four component RGBA
/// floating-point color value if the image channel data type is not an unnormalized signed or
/// unsigned integer type, is a four component signed integer value if the image channel data
/// type is an unnormalized signed integer type and is a four component unsigned integer value
/// if the image channel data type is an unnormalized unsigned integer type. The fill color
/// will be converted to the appropriate image channel format and order associated with
/// image." The conversion is the one the GPU's typed writes make (round to nearest even,
/// clamp, saturate).
fn fill_texel(i: &Image, color: [u32; 4]) -> Vec<u8> {
    let f = gencl_kmd::gpu::image::format::format(i.fmt.surface)
        .expect("every listed format is one the model has");
    let mut out = vec![0u8; i.fmt.bytes];
    let old = out.clone();
    f.encode(color, 0xF, &old, &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueFillImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [m]) = queue_and_objects(
            command_queue,
            [image],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        check_image(&m)?;
        let i = img(&m);
        // "CL_INVALID_VALUE if fill_color is NULL."
        if fill_color.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if the region being filled as specified by origin and region is
        // out of bounds." "CL_INVALID_VALUE if values in origin and region do not follow rules
        // described in the argument description for origin and region."
        // SAFETY: three elements each when not NULL, per the spec.
        let (o, r) = unsafe { (three(origin)?, three(region)?) };
        i.check_region(o, r)?;
        // SAFETY: four 32-bit values (float4, int4 or uint4), per the spec.
        let color: [u32; 4] = unsafe { *fill_color.cast::<[u32; 4]>() };
        let texel = fill_texel(i, color);
        let e = Enqueue::new(
            q,
            CL_COMMAND_FILL_IMAGE,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        let (d, br) = (i.rect(o), i.byte_region(r));
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                let row: Vec<u8> = texel.iter().copied().cycle().take(br[0]).collect();
                for at in d.rows(br) {
                    m.write(at, &row);
                }
                Ok(None)
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueMapImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    image_row_pitch: *mut usize,
    image_slice_pitch: *mut usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    entry_ptr(errcode_ret, || {
        let (q, [m]) = queue_and_objects(
            command_queue,
            [image],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        check_image(&m)?;
        let i = img(&m);
        // "CL_INVALID_VALUE if region being mapped given by (origin, origin + region) is out
        // of bounds or if values specified in map_flags are not valid."
        // "CL_INVALID_VALUE if values in origin and region do not follow rules described in
        // the argument description for origin and region."
        // SAFETY: three elements each when not NULL, per the spec.
        let (o, r) = unsafe { (three(origin)?, three(region)?) };
        i.check_region(o, r)?;
        if !valid_map_flags(map_flags) {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if image_row_pitch is NULL."
        // "CL_INVALID_VALUE if image is a 3D image, 1D or 2D image array object and
        // image_slice_pitch is NULL."
        let layered = matches!(
            i.ty,
            CL_MEM_OBJECT_IMAGE3D | CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY
        );
        if image_row_pitch.is_null() || (layered && image_slice_pitch.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        let e = Enqueue::new(
            q,
            CL_COMMAND_MAP_IMAGE,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        check_map_access(&m, map_flags)?;
        // CL_MEM_USE_HOST_PTR: the map is the application's memory, in its layout, brought
        // up to date; otherwise the image's own pages, in the image's layout.
        let br = i.byte_region(r);
        let dev = i.rect(o);
        let whole = i.host_rect(i.dims(), i.host_row_pitch, i.host_slice_pitch);
        let host = Rect {
            offset: o[0] * i.fmt.bytes + o[1] * whole.row_pitch + o[2] * whole.slice_pitch,
            ..whole
        };
        let (p, row, slice) = if m.host_ptr != 0 {
            (m.host_ptr + host.offset, host.row_pitch, host.slice_pitch)
        } else {
            (
                m.host_addr(dev.offset) as usize,
                dev.row_pitch,
                dev.slice_pitch,
            )
        };
        // "image_slice_pitch ... 0 for a 1D or 2D image": a 1D array's is its elements'
        // pitch, which `rect` gives as its row pitch too.
        let slice = if layered { slice } else { 0 };
        let mapping = Mapping {
            ptr: p,
            dev,
            host,
            region: br,
        };
        let copy_in = map_flags & CL_MAP_WRITE_INVALIDATE_REGION == 0;
        enqueue_map(e, &m, mapping, copy_in, blocking_map != 0)?;
        write_opt(image_row_pitch, row);
        write_opt(image_slice_pitch, slice);
        Ok(p as *mut c_void)
    })
}
