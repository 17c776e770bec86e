//! What the ICD loader looks up by symbol: `clGetExtensionFunctionAddress` and
//! `clIcdGetPlatformIDsKHR` (cl_khr_icd). Everything else is reached through the dispatch table
//! at the start of each object, so no other cl* symbol is exported (exporting them would let
//! the loader's own clGet* interpose on ours).

use super::dispatch::entry_point;
use super::platform::get_platform_ids;
use super::runtime::check_platform;
use super::types::*;
use super::util::{c_str, entry};
use std::ffi::{c_char, c_void};

/// cl_khr_icd: "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or if
/// both num_platforms and platforms are NULL."
///
/// # Safety
/// Called by the loader with the pointers the spec describes.
#[no_mangle]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    entry(|| get_platform_ids(num_entries, platforms, num_platforms))
}

fn lookup(name: *const c_char) -> *mut c_void {
    // SAFETY: NULL or a NUL-terminated function name, per the spec.
    match unsafe { c_str(name) } {
        Some(n) if n == "clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
        // cl_khr_il_program's name for the 2.1 core function (no dispatch slot of its own).
        Some(n) if n == "clCreateProgramWithILKHR" => {
            super::entry::clCreateProgramWithIL as *mut c_void
        }
        Some(n) => entry_point(&n),
        None => std::ptr::null_mut(),
    }
}

/// Returns the address of `clIcdGetPlatformIDsKHR` or of any entry point gencl implements
/// (the loader finds clGetPlatformInfo this way); NULL for anything else.
///
/// # Safety
/// `func_name` must be NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
    std::panic::catch_unwind(|| lookup(func_name)).unwrap_or(std::ptr::null_mut())
}

/// # Safety
/// `func_name` must be NULL or NUL-terminated.
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    let mut ok = CL_SUCCESS;
    let _ = entry(|| check_platform(platform).inspect_err(|&e| ok = e));
    if ok != CL_SUCCESS {
        return std::ptr::null_mut();
    }
    std::panic::catch_unwind(|| lookup(func_name)).unwrap_or(std::ptr::null_mut())
}
