//! Program-scope global variables (OpenCL C 2.0 §6.5.1, "program scope variables"; the 3.0
//! feature `__opencl_c_program_scope_global_variables`) through the API, on the emulated GPU:
//! initialisers of every kind (scalars, structs, arrays, zeros, a pointer to another global
//! variable), values that persist between launches and are shared by the program's
//! kernels, function-scope `static` variables, a second program with storage of its own,
//! the build-info and device queries, and the device's size limit as a build error.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

const SOURCE: &str = r#"
typedef struct { int a; float b; short c[3]; } S;
global int counter = 5;
global S s = { 7, 2.5f, { 1, 2, 3 } };
global float table[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
global int zeroed[3];
global int *ptr = &counter;
global int *nul;
global long big[2] = { 0x123456789abL, -3 };

int next_id(void) {
    static global int n = 100;
    return n++;
}

kernel void read_all(global long *out) {
    out[0] = counter;
    out[1] = s.a;
    out[2] = (long)(s.b * 4.0f);
    out[3] = s.c[0] + 10 * s.c[1] + 100 * s.c[2];
    out[4] = (long)table[get_global_id(0) + 3];
    out[5] = zeroed[0] + zeroed[1] + zeroed[2];
    out[6] = *ptr;
    out[7] = nul == 0;
    out[8] = big[0];
    out[9] = big[1];
}

kernel void bump(int by) {
    counter += by;
    zeroed[1] = 9;
    s.c[2] = -1;
}

kernel void ids(global int *out) {
    out[0] = next_id();
}
"#;

/// Initialisers holding addresses inside other variables: llvm-spirv writes them as
/// OpSpecConstantOp access chains with several indices (which rspirv cannot parse, so the
/// front end takes them out first), and the CTS's progvar tests use them.
const CHAINS: &str = r#"
global short2 pair[2] = { (short2)(1, 2), (short2)(3, 4) };
global short2 *pp = &pair[1];
global int arr[3][2] = { { 1, 2 }, { 3, 4 }, { 5, 6 } };
global int *q = &arr[2][1];
global int *r = (global int *)&pair[1];

kernel void chain(global long *out) {
    out[0] = pp->y;
    out[1] = *q;
    out[2] = *r;
    *q = 60;
    out[3] = arr[2][1];
}
"#;

unsafe fn build(ctx: cl_context, src: &str) -> (cl_program, cl_int) {
    let src = CString::new(src).unwrap();
    let mut sp = src.as_ptr();
    let mut e = 0;
    let opts = CString::new("-cl-std=CL2.0").unwrap();
    // SAFETY: one NUL-terminated string; the options string outlives the call.
    unsafe {
        let p = clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let r = clBuildProgram(p, 0, null(), opts.as_ptr(), None, null_mut());
        (p, r)
    }
}

unsafe fn kernel(p: cl_program, name: &str) -> cl_kernel {
    let name = CString::new(name).unwrap();
    let mut e = 0;
    // SAFETY: a built program and a NUL-terminated name.
    let k = unsafe { clCreateKernel(p, name.as_ptr(), &mut e) };
    assert_eq!(e, CL_SUCCESS);
    k
}

/// Runs `k` on one work-item, its argument 0 a new buffer of `n` `T`s, and returns the
/// buffer.
unsafe fn run<T: Copy + Default>(
    ctx: cl_context,
    q: cl_command_queue,
    k: cl_kernel,
    n: usize,
) -> Vec<T> {
    let bytes = n * std::mem::size_of::<T>();
    let mut out = vec![T::default(); n];
    let mut e = 0;
    // SAFETY: valid handles; the host pointer covers the size passed.
    unsafe {
        let b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(clSetKernelArg(k, 0, 8, (&raw const b).cast()), CL_SUCCESS);
        let g = 1usize;
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
                bytes,
                out.as_mut_ptr().cast::<c_void>(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        clReleaseMemObject(b);
    }
    out
}

unsafe fn bump(q: cl_command_queue, k: cl_kernel, by: i32) {
    let g = 1usize;
    // SAFETY: valid handles; the argument is an int.
    unsafe {
        assert_eq!(clSetKernelArg(k, 0, 4, (&raw const by).cast()), CL_SUCCESS);
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(clFinish(q), CL_SUCCESS);
    }
}

unsafe fn total_size(p: cl_program, d: cl_device_id) -> usize {
    let mut v = 0usize;
    // SAFETY: a size_t answer into a size_t.
    unsafe {
        assert_eq!(
            clGetProgramBuildInfo(
                p,
                d,
                CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                8,
                (&raw mut v).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
    }
    v
}

#[test]
fn program_scope_globals_are_initialised_shared_and_kept() {
    let (d, ctx, q) = setup();
    // SAFETY: handles from setup; buffers of the sizes passed.
    unsafe {
        for (param, want) in [
            (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, 65536usize),
            (CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, 65536),
        ] {
            let mut v = 0usize;
            assert_eq!(
                clGetDeviceInfo(d, param, 8, (&raw mut v).cast(), null_mut()),
                CL_SUCCESS
            );
            assert_eq!(v, want);
        }
        let (p, r) = build(ctx, SOURCE);
        assert_eq!(r, CL_SUCCESS, "{}", build_log(p, d));
        // counter 4 at 0, s 16 at 4, table 16 at 20, zeroed 12 at 36, ptr and nul 8 each at
        // 48 and 56, big 16 at 64, next_id's n 4 at 80: 84 bytes, whatever order the
        // producer lists them in (only the two pointers and big need 8-byte alignment, and
        // they come in a run of 32 bytes).
        let total = total_size(p, d);
        assert!((84..=92).contains(&total), "{total} bytes");

        let read = kernel(p, "read_all");
        let first: Vec<i64> = run(ctx, q, read, 10);
        assert_eq!(
            first,
            [5, 7, 10, 321, 4, 0, 5, 1, 0x123456789ab, -3],
            "the initial values"
        );

        // Writes of one kernel are seen by the next launch and by the program's other kernels.
        let b = kernel(p, "bump");
        bump(q, b, 3);
        bump(q, b, 3);
        let after: Vec<i64> = run(ctx, q, read, 10);
        assert_eq!(
            after,
            [11, 7, 10, -100 + 21, 4, 9, 11, 1, 0x123456789ab, -3]
        );

        // A function-scope static keeps its value between launches.
        let ids = kernel(p, "ids");
        let got: Vec<i32> = (0..3).map(|_| run::<i32>(ctx, q, ids, 1)[0]).collect();
        assert_eq!(got, [100, 101, 102]);

        // Another program from the same source has storage of its own.
        let (p2, r) = build(ctx, SOURCE);
        assert_eq!(r, CL_SUCCESS);
        let read2 = kernel(p2, "read_all");
        assert_eq!(run::<i64>(ctx, q, read2, 10), first);
        assert_eq!(
            run::<i64>(ctx, q, read, 10),
            after,
            "the first is untouched"
        );

        clReleaseKernel(read2);
        clReleaseProgram(p2);
        clReleaseKernel(read);
        clReleaseKernel(b);
        clReleaseKernel(ids);
        clReleaseProgram(p);

        // Addresses inside other variables.
        let (pc, r) = build(ctx, CHAINS);
        assert_eq!(r, CL_SUCCESS, "{}", build_log(pc, d));
        let chain = kernel(pc, "chain");
        let got: Vec<i64> = run(ctx, q, chain, 4);
        // pair[1] is (3, 4): its first int is 3 | 4 << 16.
        assert_eq!(got, [4, 6, 3 | 4 << 16, 60]);
        clReleaseKernel(chain);
        clReleaseProgram(pc);

        // A program without global variables reports none.
        let (plain, r) = build(ctx, "kernel void k(global int *a) { a[0] = 1; }");
        assert_eq!(r, CL_SUCCESS);
        assert_eq!(total_size(plain, d), 0);
        clReleaseProgram(plain);

        // One variable larger than CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE is a build error.
        let (huge, r) = build(
            ctx,
            "global char big[65537];\nkernel void k(global char *a) { a[0] = big[get_global_id(0)]; }",
        );
        assert_eq!(r, CL_BUILD_PROGRAM_FAILURE);
        let log = build_log(huge, d);
        assert!(log.contains("CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE"), "{log}");
        clReleaseProgram(huge);

        // Addresses in a `__constant` initialiser are not laid out (they would need the
        // constant buffer's address): a build error, never zeros read as pointers.
        let (cp, r) = build(
            ctx,
            "constant int a[2] = { 1, 2 };\nconstant int *constant ps[2] = { &a[0], &a[1] };\n\
             kernel void k(global int *o) { o[0] = *ps[get_global_id(0) & 1]; }",
        );
        assert_eq!(r, CL_BUILD_PROGRAM_FAILURE);
        let log = build_log(cp, d);
        assert!(log.contains("holding the address"), "{log}");
        clReleaseProgram(cp);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
