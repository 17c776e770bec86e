//! Queries about objects the device cannot have: images, samplers and pipes (it reports
//! CL_DEVICE_IMAGE_SUPPORT and CL_DEVICE_PIPE_SUPPORT false). Creating one is
//! CL_INVALID_OPERATION (`dispatch::unsupported`); these answer what OpenCL 3.0 says a device
//! without them answers: no image formats, and no handle that could name such an object.

use super::context::Context;
use super::memory::{valid_flags, Mem};
use super::object::get;
use super::types::*;
use super::util::{entry, write_opt};
use std::ffi::c_void;

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
        let image_flags_ok = valid_flags(flags & !CL_MEM_KERNEL_READ_AND_WRITE);
        let types = [
            CL_MEM_OBJECT_IMAGE1D,
            CL_MEM_OBJECT_IMAGE1D_BUFFER,
            CL_MEM_OBJECT_IMAGE2D,
            CL_MEM_OBJECT_IMAGE3D,
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
        ];
        if !image_flags_ok
            || !types.contains(&image_type)
            || (num_entries == 0 && !image_formats.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        // "num_image_formats is the actual number of supported image formats for a specific
        // context and values specified by flags": none, as no device supports images.
        write_opt(num_image_formats, 0);
        Ok(())
    })
}

/// No memory object is an image: a valid buffer or anything else is CL_INVALID_MEM_OBJECT
/// ("if image is not a valid image object").
pub unsafe extern "C" fn clGetImageInfo(
    image: cl_mem,
    _param_name: cl_image_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> cl_int {
    entry(|| {
        get::<Mem>(image)?;
        Err(CL_INVALID_MEM_OBJECT)
    })
}

/// "CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object": none can be.
pub unsafe extern "C" fn clGetPipeInfo(
    pipe: cl_mem,
    _param_name: cl_pipe_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> cl_int {
    entry(|| {
        get::<Mem>(pipe)?;
        Err(CL_INVALID_MEM_OBJECT)
    })
}

/// "CL_INVALID_SAMPLER if sampler is not a valid sampler object": none can be.
pub unsafe extern "C" fn clRetainSampler(_sampler: cl_sampler) -> cl_int {
    CL_INVALID_SAMPLER
}

pub unsafe extern "C" fn clReleaseSampler(_sampler: cl_sampler) -> cl_int {
    CL_INVALID_SAMPLER
}

pub unsafe extern "C" fn clGetSamplerInfo(
    _sampler: cl_sampler,
    _param_name: cl_sampler_info,
    _param_value_size: usize,
    _param_value: *mut c_void,
    _param_value_size_ret: *mut usize,
) -> cl_int {
    CL_INVALID_SAMPLER
}
