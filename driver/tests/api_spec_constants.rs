//! SPIR-V specialization constants through the API: clSetProgramSpecializationConstant's
//! checks against the module's declarations, and builds that use the defaults and then the
//! values set, run on the emulated GPU. The module (tests/spirv/spec_constants.spvasm) is
//! assembled by spirv-as, as producers other than llvm-spirv write such constants.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::path::Path;
use std::ptr::{null, null_mut};

/// The module, assembled once for the process (the tests run in parallel threads and would
/// share one temporary file name).
fn module() -> Vec<u8> {
    static MODULE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    MODULE.get_or_init(assemble).clone()
}

fn assemble() -> Vec<u8> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spirv/spec_constants.spvasm");
    let out = std::env::temp_dir().join(format!("gencl-spec-{}.spv", std::process::id()));
    let status = std::process::Command::new("spirv-as")
        .args(["--target-env", "spv1.2"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("spirv-as (Debian spirv-tools)");
    assert!(status.success());
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    bytes
}

unsafe fn set(p: cl_program, id: u32, bytes: &[u8]) -> cl_int {
    // SAFETY: `bytes` has the size given.
    unsafe { clSetProgramSpecializationConstant(p, id, bytes.len(), bytes.as_ptr().cast()) }
}

/// Builds `p` and returns what `spec` writes for 0..32.
unsafe fn run(ctx: cl_context, q: cl_command_queue, p: cl_program) -> Vec<u32> {
    let n = 32usize;
    let mut out = vec![0u32; n];
    let mut e = 0;
    // SAFETY: valid handles; the host pointer covers the size passed.
    unsafe {
        assert_eq!(
            clBuildProgram(p, 0, null(), null(), None, null_mut()),
            CL_SUCCESS
        );
        let name = CString::new("spec").unwrap();
        let k = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let b = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * 4, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(clSetKernelArg(k, 0, 8, (&raw const b).cast()), CL_SUCCESS);
        let g = n;
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                b,
                CL_TRUE,
                0,
                n * 4,
                out.as_mut_ptr().cast::<c_void>(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        clReleaseMemObject(b);
        clReleaseKernel(k);
    }
    out
}

/// cl_khr_il_program: the device reports it, and its entry point, found by name, builds a
/// module that runs as the core one does.
#[test]
fn il_program_extension_entry_point() {
    let (d, ctx, q) = setup();
    let il = module();
    type CreateWithIl =
        unsafe extern "C" fn(cl_context, *const c_void, usize, *mut cl_int) -> cl_program;
    // SAFETY: handles from setup; the looked-up pointer has clCreateProgramWithILKHR's
    // signature (cl_ext.h); buffers of the sizes passed.
    unsafe {
        let mut ext = vec![0u8; 4096];
        let mut n = 0usize;
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_EXTENSIONS,
                ext.len(),
                ext.as_mut_ptr().cast(),
                &mut n
            ),
            CL_SUCCESS
        );
        let ext = String::from_utf8_lossy(&ext[..n - 1]).to_string();
        assert!(ext.split(' ').any(|e| e == "cl_khr_il_program"), "{ext}");
        let mut platform: cl_platform_id = null_mut();
        assert_eq!(clGetPlatformIDs(1, &mut platform, null_mut()), CL_SUCCESS);
        let name = CString::new("clCreateProgramWithILKHR").unwrap();
        let f = clGetExtensionFunctionAddressForPlatform(platform, name.as_ptr());
        assert!(!f.is_null());
        let create: CreateWithIl = std::mem::transmute(f);
        let mut e = 0;
        let p = create(ctx, il.as_ptr().cast(), il.len(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let want: Vec<u32> = (0..32).map(|i| 5 + 3 * i).collect();
        assert_eq!(run(ctx, q, p), want);
        clReleaseProgram(p);
    }
}

#[test]
fn specialization_constants_are_checked_and_applied() {
    let (_d, ctx, q) = setup();
    let il = module();
    let mut e = 0;
    // SAFETY: handles from setup; buffers of the sizes passed.
    unsafe {
        let p = clCreateProgramWithIL(ctx, il.as_ptr().cast(), il.len(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        // The defaults: 5 + 3i.
        let want: Vec<u32> = (0..32).map(|i| 5 + 3 * i).collect();
        assert_eq!(run(ctx, q, p), want);

        // "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier."
        assert_eq!(set(p, 4, &[0; 4]), CL_INVALID_SPEC_ID);
        // "CL_INVALID_VALUE if spec_size does not match the size of the specialization
        // constant in the module, or if spec_value is NULL."
        assert_eq!(set(p, 1, &[0; 8]), CL_INVALID_VALUE);
        assert_eq!(set(p, 2, &[0; 4]), CL_INVALID_VALUE);
        assert_eq!(
            set(p, 3, &[0; 4]),
            CL_INVALID_VALUE,
            "a bool is one cl_uchar"
        );
        assert_eq!(
            clSetProgramSpecializationConstant(p, 1, 4, null()),
            CL_INVALID_VALUE
        );
        // "CL_INVALID_PROGRAM if program is not a valid program object created from an
        // intermediate language".
        let src = CString::new("kernel void k(global int *a) { a[0] = 1; }").unwrap();
        let mut sp = src.as_ptr();
        let from_source = clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(set(from_source, 1, &[0; 4]), CL_INVALID_PROGRAM);

        // New values, applied by the next build: -(100 - 2i), the last value set winning.
        assert_eq!(set(p, 1, &7u32.to_le_bytes()), CL_SUCCESS);
        assert_eq!(set(p, 1, &100u32.to_le_bytes()), CL_SUCCESS);
        assert_eq!(set(p, 2, &(-2i64).to_le_bytes()), CL_SUCCESS);
        assert_eq!(set(p, 3, &[1]), CL_SUCCESS);
        let want: Vec<u32> = (0..32i64).map(|i| (-(100 - 2 * i)) as u32).collect();
        assert_eq!(run(ctx, q, p), want);

        clReleaseProgram(from_source);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
