//! clGetProgramInfo(CL_PROGRAM_BINARY_SIZES / CL_PROGRAM_BINARIES) and
//! clCreateProgramWithBinary, called as applications call them (pyopencl's cache does exactly
//! this): a built program's binary makes a program that builds without compiling and computes
//! the same results; bytes that are not a binary for this device get the spec's error codes.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

const SRC: &str = "kernel void axpy(global float *y, global const float *x, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}";

unsafe fn run_axpy(ctx: cl_context, q: cl_command_queue, p: cl_program) -> Vec<f32> {
    let n = 64usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let mut y: Vec<f32> = (0..n).map(|i| 100.0 - i as f32).collect();
    let mut e = 0;
    // SAFETY: valid handles; host pointers cover the sizes passed.
    unsafe {
        let name = CString::new("axpy").unwrap();
        let k = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
        let by = clCreateBuffer(ctx, flags, n * 4, y.as_mut_ptr().cast(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let bx = clCreateBuffer(ctx, flags, n * 4, x.as_ptr().cast_mut().cast(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let a = 3.0f32;
        assert_eq!(clSetKernelArg(k, 0, 8, (&raw const by).cast()), CL_SUCCESS);
        assert_eq!(clSetKernelArg(k, 1, 8, (&raw const bx).cast()), CL_SUCCESS);
        assert_eq!(clSetKernelArg(k, 2, 4, (&raw const a).cast()), CL_SUCCESS);
        let g = n;
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                by,
                CL_TRUE,
                0,
                n * 4,
                y.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        clReleaseMemObject(by);
        clReleaseMemObject(bx);
        clReleaseKernel(k);
    }
    let want: Vec<f32> = (0..n)
        .map(|i| 3.0f32.mul_add(i as f32 * 0.5, 100.0 - i as f32))
        .collect();
    for (i, (g, w)) in y.iter().zip(&want).enumerate() {
        // a*x+y is one rounding (fused) or two; both are within one ulp of the fused value.
        assert!(
            (g - w).abs() <= w.abs() * f32::EPSILON,
            "y[{i}] = {g}, want {w}"
        );
    }
    y
}

#[test]
fn a_built_programs_binary_builds_again_and_computes_the_same() {
    let (d, ctx, q) = setup();
    let mut e = 0;
    // SAFETY: valid handles and pointers throughout.
    unsafe {
        let src = CString::new(SRC).unwrap();
        let mut s = src.as_ptr();
        let p = clCreateProgramWithSource(ctx, 1, &mut s, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        // Before the build there is no binary: a size of zero.
        let mut size = 1usize;
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_BINARY_SIZES,
                8,
                (&raw mut size).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(size, 0);
        assert_eq!(binary_type(p, d), CL_PROGRAM_BINARY_TYPE_NONE);
        assert_eq!(
            clBuildProgram(p, 0, null(), null(), None, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(binary_type(p, d), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        let bin = binary_of(p);
        assert_eq!(&bin[..8], b"GENCLBIN");
        let from_source = run_axpy(ctx, q, p);

        let len = bin.len();
        let mut ptr = bin.as_ptr();
        let mut status = -1;
        let p2 = clCreateProgramWithBinary(ctx, 1, &d, &len, &mut ptr, &mut status, &mut e);
        assert_eq!((e, status), (CL_SUCCESS, CL_SUCCESS));
        // "CL_PROGRAM_BINARY_TYPE_EXECUTABLE" before the build too: the binary holds code.
        assert_eq!(binary_type(p2, d), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        // A program made from a binary has no source and no IL, and gives its binary back.
        let mut ret = 99usize;
        assert_eq!(
            clGetProgramInfo(p2, CL_PROGRAM_SOURCE, 0, null_mut(), &mut ret),
            CL_SUCCESS
        );
        assert_eq!(ret, 1);
        assert_eq!(binary_of(p2), bin);
        // An executable binary makes kernels before clBuildProgram (docs/api.md: as Mesa's
        // drivers and Intel's do), and clBuildProgram still builds it afterwards.
        assert_eq!(run_axpy(ctx, q, p2), from_source);
        assert_eq!(
            clBuildProgram(p2, 1, &d, null(), None, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(run_axpy(ctx, q, p2), from_source);
        // Options are still checked on a build from a binary.
        let bad = CString::new("--no-such-option").unwrap();
        assert_eq!(
            clBuildProgram(p2, 0, null(), bad.as_ptr(), None, null_mut()),
            CL_INVALID_BUILD_OPTIONS
        );
        clReleaseProgram(p2);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}

#[test]
fn binaries_that_are_not_ours_get_the_specs_errors() {
    let (d, ctx, q) = setup();
    let mut e = 0;
    // SAFETY: valid handles and pointers except where a test passes NULL on purpose.
    unsafe {
        let src = CString::new(SRC).unwrap();
        let mut s = src.as_ptr();
        let p = clCreateProgramWithSource(ctx, 1, &mut s, null(), &mut e);
        assert_eq!(
            clBuildProgram(p, 0, null(), null(), None, null_mut()),
            CL_SUCCESS
        );
        let good = binary_of(p);
        let len = good.len();
        let mut ptr = good.as_ptr();
        let mut status = 0;
        let mut create = |ctx, n, devs: *const cl_device_id, lens: *const usize, bins| {
            status = 12345;
            let prog = clCreateProgramWithBinary(ctx, n, devs, lens, bins, &mut status, &mut e);
            assert_eq!(prog.is_null(), e != CL_SUCCESS);
            if !prog.is_null() {
                clReleaseProgram(prog);
            }
            (e, status)
        };
        // In the spec's order: context, device list, devices, lengths and binaries, binary.
        assert_eq!(
            create(null_mut(), 1, &d, &len, &mut ptr).0,
            CL_INVALID_CONTEXT
        );
        assert_eq!(create(ctx, 0, &d, &len, &mut ptr).0, CL_INVALID_VALUE);
        assert_eq!(create(ctx, 1, null(), &len, &mut ptr).0, CL_INVALID_VALUE);
        let not_a_device: cl_device_id = ctx.cast();
        assert_eq!(
            create(ctx, 1, &not_a_device, &len, &mut ptr).0,
            CL_INVALID_DEVICE
        );
        assert_eq!(create(ctx, 1, &d, null(), &mut ptr).0, CL_INVALID_VALUE);
        assert_eq!(create(ctx, 1, &d, &len, null_mut()).0, CL_INVALID_VALUE);
        assert_eq!(
            create(ctx, 1, &d, &0, &mut ptr),
            (CL_INVALID_VALUE, CL_INVALID_VALUE)
        );
        let mut nul: *const u8 = null();
        assert_eq!(
            create(ctx, 1, &d, &len, &mut nul),
            (CL_INVALID_VALUE, CL_INVALID_VALUE)
        );
        // Another vendor's binary, ours truncated, ours for another generation, ours from another
        // build of the compiler, ours with a flipped payload byte.
        let elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
        let mut other_gen = good.clone();
        other_gen[12] = 12;
        let mut other_build = good.clone();
        other_build[20] ^= 0xff;
        let mut flipped = good.clone();
        flipped[len - 3] ^= 1;
        for bad in [
            elf,
            good[..len / 2].to_vec(),
            other_gen,
            other_build,
            flipped,
        ] {
            let l = bad.len();
            let mut b = bad.as_ptr();
            assert_eq!(
                create(ctx, 1, &d, &l, &mut b),
                (CL_INVALID_BINARY, CL_INVALID_BINARY)
            );
        }
        assert_eq!(create(ctx, 1, &d, &len, &mut ptr), (CL_SUCCESS, CL_SUCCESS));
        // binary_status may be NULL.
        let p3 = clCreateProgramWithBinary(ctx, 1, &d, &len, &mut ptr, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        clReleaseProgram(p3);
        // CL_PROGRAM_BINARIES with a NULL entry skips that device; too small an array is an
        // error.
        let mut skip: *mut u8 = null_mut();
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_BINARIES,
                8,
                (&raw mut skip).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_BINARIES,
                4,
                (&raw mut skip).cast(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        let _: *mut c_void = null_mut();
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}

/// LLVM 15 bitcode handed to clCreateProgramWithBinary (the way cl_khr_spir feeds LLVM IR) is
/// an intermediate binary until built, then compiles through the same JIT and runs; its
/// CL_PROGRAM_BINARIES afterwards is gencl's executable binary.
#[test]
fn llvm_bitcode_as_a_binary_builds_and_runs() {
    let (d, ctx, q) = setup();
    let ll = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/llvm/freeze.ll");
    let bc = std::env::temp_dir().join(format!("gencl-bin-{}.bc", std::process::id()));
    let asm = std::process::Command::new("llvm-as-15")
        .arg(&ll)
        .arg("-o")
        .arg(&bc)
        .output()
        .expect("llvm-as-15 (Debian package llvm-15)");
    assert!(asm.status.success());
    let bitcode = std::fs::read(&bc).unwrap();
    let mut e = 0;
    // SAFETY: valid handles; host pointers cover the sizes passed.
    unsafe {
        let len = bitcode.len();
        let mut ptr = bitcode.as_ptr();
        let mut status = -1;
        let p = clCreateProgramWithBinary(ctx, 1, &d, &len, &mut ptr, &mut status, &mut e);
        assert_eq!((e, status), (CL_SUCCESS, CL_SUCCESS));
        assert_eq!(binary_type(p, d), CL_PROGRAM_BINARY_TYPE_INTERMEDIATE);
        assert_eq!(
            clBuildProgram(p, 0, null(), null(), None, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(binary_type(p, d), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        assert_eq!(&binary_of(p)[..8], b"GENCLBIN");

        let name = CString::new("divrem").unwrap();
        let k = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let n = 256usize;
        let mut a: Vec<i32> = (0..n as i32).map(|i| i * 7919 - 1_000_000).collect();
        let want: Vec<i32> = a.iter().map(|&x| x / 13 + x % 13).collect();
        let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
        let buf = clCreateBuffer(ctx, flags, n * 4, a.as_mut_ptr().cast(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let dv = 13i32;
        assert_eq!(clSetKernelArg(k, 0, 8, (&raw const buf).cast()), CL_SUCCESS);
        assert_eq!(clSetKernelArg(k, 1, 4, (&raw const dv).cast()), CL_SUCCESS);
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &n, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                buf,
                CL_TRUE,
                0,
                n * 4,
                a.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(a, want);
        clReleaseMemObject(buf);
        clReleaseKernel(k);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
