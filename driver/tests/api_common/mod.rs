//! What the API tests share: an embedded gencl platform on the emulated device, and the
//! two-step queries applications make of programs.
#![allow(dead_code)]

use gencl::api::entry::*;
use gencl::api::types::*;
use std::ptr::{null, null_mut};

/// The embedded gencl device on the emulated GPU.
pub fn device() -> cl_device_id {
    std::env::set_var("GENCL_MODE", "embedded");
    std::env::set_var("GENCL_DEVICE", "emulated");
    let mut p = null_mut();
    let mut d = null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(clGetPlatformIDs(1, &mut p, null_mut()), CL_SUCCESS);
        assert_eq!(
            clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &mut d, null_mut()),
            CL_SUCCESS
        );
    }
    d
}

/// The device, a context on it and an in-order queue.
pub fn setup() -> (cl_device_id, cl_context, cl_command_queue) {
    let d = device();
    let mut e = 0;
    // SAFETY: valid handles and out-pointers.
    unsafe {
        let ctx = clCreateContext(null(), 1, &d, None, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let q = clCreateCommandQueueWithProperties(ctx, d, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        (d, ctx, q)
    }
}

/// CL_PROGRAM_BINARY_SIZES then CL_PROGRAM_BINARIES, the two-step query applications make.
pub unsafe fn binary_of(p: cl_program) -> Vec<u8> {
    let mut size = 0usize;
    let mut ret = 0usize;
    // SAFETY: out-pointers of the sizes given.
    unsafe {
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_BINARY_SIZES,
                8,
                (&raw mut size).cast(),
                &mut ret
            ),
            CL_SUCCESS
        );
        assert_eq!(ret, 8);
        let mut bytes = vec![0u8; size];
        let mut ptr = bytes.as_mut_ptr();
        assert_eq!(
            clGetProgramInfo(p, CL_PROGRAM_BINARIES, 8, (&raw mut ptr).cast(), &mut ret),
            CL_SUCCESS
        );
        assert_eq!(ret, 8);
        // The array of pointers is the application's: it still points to its own buffer.
        assert_eq!(ptr, bytes.as_mut_ptr());
        bytes
    }
}

pub unsafe fn binary_type(p: cl_program, d: cl_device_id) -> cl_program_binary_type {
    let mut t: cl_program_binary_type = 0;
    // SAFETY: out-pointer of the size given.
    unsafe {
        assert_eq!(
            clGetProgramBuildInfo(
                p,
                d,
                CL_PROGRAM_BINARY_TYPE,
                std::mem::size_of_val(&t),
                (&raw mut t).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
    }
    t
}

pub unsafe fn build_log(p: cl_program, d: cl_device_id) -> String {
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0usize;
    // SAFETY: out-pointers of the sizes given.
    unsafe {
        assert_eq!(
            clGetProgramBuildInfo(
                p,
                d,
                CL_PROGRAM_BUILD_LOG,
                buf.len(),
                buf.as_mut_ptr().cast(),
                &mut n
            ),
            CL_SUCCESS
        );
    }
    String::from_utf8_lossy(&buf[..n.saturating_sub(1)]).into_owned()
}
