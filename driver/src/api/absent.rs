//! Queries about objects the device cannot have: pipes (it reports CL_DEVICE_PIPE_SUPPORT
//! false). Creating one is CL_INVALID_OPERATION (`dispatch::unsupported`); this answers what
//! OpenCL 3.0 says a device without them answers: no handle can name such an object.

use super::object::get;
use super::types::*;
use super::util::entry;
use crate::core::memory::Mem;
use std::ffi::c_void;

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
