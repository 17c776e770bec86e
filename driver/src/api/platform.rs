//! clGetPlatformIDs, clGetPlatformInfo (OpenCL 3.0 §4.1).

use super::info::{self, name_version, val, Info};
use super::runtime::{check_platform, platform_id};
use super::types::*;
use super::util::{entry, write_opt, ClResult};
use std::ffi::c_void;

pub const PLATFORM_NAME: &str = "gencl";
pub const PLATFORM_VENDOR: &str = "gencl";
pub const ICD_SUFFIX: &str = "gencl";
pub const PLATFORM_EXTENSIONS: &str = "cl_khr_icd";
pub const PLATFORM_VERSION: &str = concat!("OpenCL 3.0 gencl ", env!("CARGO_PKG_VERSION"));

pub(crate) fn get_platform_ids(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> ClResult<()> {
    // "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or if both
    // num_platforms and platforms are NULL."
    if (num_entries == 0 && !platforms.is_null())
        || (num_platforms.is_null() && platforms.is_null())
    {
        return Err(CL_INVALID_VALUE);
    }
    if !platforms.is_null() {
        // SAFETY: platforms holds num_entries >= 1 entries per the check above and the spec.
        unsafe { *platforms = platform_id() };
    }
    write_opt(num_platforms, 1);
    Ok(())
}

pub unsafe extern "C" fn clGetPlatformIDs(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    entry(|| get_platform_ids(num_entries, platforms, num_platforms))
}

fn platform_info(platform: cl_platform_id, param: cl_platform_info) -> ClResult<Info> {
    // "CL_INVALID_PLATFORM if platform is not a valid platform." (NULL may select the default
    // platform: the behaviour is implementation-defined; gencl has one.)
    if !platform.is_null() {
        check_platform(platform)?;
    }
    match param {
        CL_PLATFORM_PROFILE => val("FULL_PROFILE"),
        CL_PLATFORM_VERSION => val(PLATFORM_VERSION),
        CL_PLATFORM_NUMERIC_VERSION => val(&info::make_version(3, 0, 0)),
        CL_PLATFORM_NAME => val(PLATFORM_NAME),
        CL_PLATFORM_VENDOR => val(PLATFORM_VENDOR),
        CL_PLATFORM_EXTENSIONS => val(PLATFORM_EXTENSIONS),
        CL_PLATFORM_EXTENSIONS_WITH_VERSION => val(&[name_version("cl_khr_icd", 1, 0, 0)]),
        // "If the platform does not support device and host timer synchronization, the value
        // returned will be 0."
        // clGetHostTimer reads CLOCK_MONOTONIC in nanoseconds.
        CL_PLATFORM_HOST_TIMER_RESOLUTION => val(&1u64),
        CL_PLATFORM_ICD_SUFFIX_KHR => val(ICD_SUFFIX),
        // "CL_INVALID_VALUE if param_name is not one of the supported values"
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetPlatformInfo(
    platform: cl_platform_id,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || platform_info(platform, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// Used by clCreateContext* to check a CL_CONTEXT_PLATFORM property.
pub fn is_platform(p: cl_platform_id) -> bool {
    p == platform_id()
}
