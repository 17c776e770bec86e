//! cl_intel_subgroups and cl_intel_required_subgroup_size through the API on the emulated
//! GPU: the device reports both extensions and its sub-group sizes; a kernel's required size
//! is its SIMD width and every sub-group query answers from it; a size the device does not
//! have (64) is a build error that names it; a SIMD16 shuffle runs and matches a reference
//! computed here.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

const SOURCE: &str = r#"
__attribute__((intel_reqd_sub_group_size(16)))
kernel void rotate16(global const int *in, global int *out) {
    uint l = get_sub_group_local_id();
    out[get_global_id(0)] = intel_sub_group_shuffle(in[get_global_id(0)], (l + 1) % 16)
        + (int)get_sub_group_size() * 1000;
}

kernel void plain(global int *out) {
    out[get_global_id(0)] = get_max_sub_group_size();
}

__attribute__((intel_reqd_sub_group_size(8)))
kernel void plain8(global int *out) {
    out[get_global_id(0)] = get_max_sub_group_size();
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void plain32(global int *out) {
    out[get_global_id(0)] = get_max_sub_group_size();
}
"#;

unsafe fn build(ctx: cl_context, d: cl_device_id, src: &str) -> (cl_program, cl_int) {
    let c = CString::new(src).unwrap();
    let mut sp = c.as_ptr();
    let mut e = 0;
    // SAFETY: one NUL-terminated source string; the options string is NUL-terminated.
    unsafe {
        let p = clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let opts = CString::new("-cl-std=CL3.0").unwrap();
        let r = clBuildProgram(p, 1, &d, opts.as_ptr(), None, null_mut());
        (p, r)
    }
}

unsafe fn sub_group_info(k: cl_kernel, d: cl_device_id, param: u32, input: &[usize]) -> usize {
    let mut v = 0usize;
    // SAFETY: `input` is readable for its length; one size_t out.
    let r = unsafe {
        clGetKernelSubGroupInfo(
            k,
            d,
            param,
            std::mem::size_of_val(input),
            if input.is_empty() {
                null()
            } else {
                input.as_ptr() as *const c_void
            },
            8,
            &mut v as *mut usize as *mut c_void,
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS, "query {param:#x}");
    v
}

#[test]
fn required_sub_group_sizes() {
    let (d, ctx, q) = setup();
    // SAFETY: handles from setup; buffers cover what the kernels touch; every query's output
    // buffer is as large as the size passed.
    unsafe {
        let mut ext = vec![0u8; 4096];
        let mut n = 0usize;
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_EXTENSIONS,
                ext.len(),
                ext.as_mut_ptr() as *mut c_void,
                &mut n
            ),
            CL_SUCCESS
        );
        let ext = String::from_utf8_lossy(&ext[..n - 1]).to_string();
        for name in [
            "cl_intel_subgroups",
            "cl_intel_required_subgroup_size",
            "cl_khr_subgroups",
        ] {
            assert!(ext.split(' ').any(|e| e == name), "{name} in {ext}");
        }
        let mut sizes = [0usize; 4];
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_SUB_GROUP_SIZES_INTEL,
                32,
                sizes.as_mut_ptr() as *mut c_void,
                &mut n
            ),
            CL_SUCCESS
        );
        assert_eq!(&sizes[..n / 8], &[8, 16, 32]);

        let (p, r) = build(ctx, d, SOURCE);
        assert_eq!(r, CL_SUCCESS, "{}", build_log(p, d));
        let mut e = 0;
        let name = CString::new("rotate16").unwrap();
        let k16 = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        // No required size: the width chosen for it, SIMD16 (it does not spill, and it asks
        // for the sub-group size, which keeps it out of SIMD32).
        let name = CString::new("plain").unwrap();
        let kplain = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let name = CString::new("plain8").unwrap();
        let k8 = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let name = CString::new("plain32").unwrap();
        let k32 = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(
            sub_group_info(k32, d, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, &[]),
            32
        );
        assert_eq!(
            sub_group_info(k32, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, &[64]),
            32
        );
        assert_eq!(
            sub_group_info(k32, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[40]),
            2
        );
        clReleaseKernel(k32);
        assert_eq!(
            sub_group_info(k16, d, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, &[]),
            16
        );
        assert_eq!(
            sub_group_info(kplain, d, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, &[]),
            0
        );
        assert_eq!(
            sub_group_info(k8, d, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, &[]),
            8
        );
        assert_eq!(
            sub_group_info(kplain, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[40]),
            3
        );
        assert_eq!(
            sub_group_info(k16, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, &[64]),
            16
        );
        assert_eq!(
            sub_group_info(k16, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[40]),
            3
        );
        assert_eq!(
            sub_group_info(k8, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[40]),
            5
        );
        let mut multiple = 0usize;
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k16,
                d,
                CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                8,
                &mut multiple as *mut usize as *mut c_void,
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(multiple, 16);
        let mut spill = u64::MAX;
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k16,
                d,
                CL_KERNEL_SPILL_MEM_SIZE_INTEL,
                8,
                &mut spill as *mut u64 as *mut c_void,
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(spill, 0);
        let mut attrs = vec![0u8; 256];
        assert_eq!(
            clGetKernelInfo(
                k16,
                CL_KERNEL_ATTRIBUTES,
                256,
                attrs.as_mut_ptr() as *mut c_void,
                &mut n
            ),
            CL_SUCCESS
        );
        assert_eq!(&attrs[..n - 1], b"intel_reqd_sub_group_size(16)");

        // The SIMD16 kernel runs: lane l reads lane (l + 1) % 16 of its sub-group.
        const N: usize = 64;
        let input: Vec<i32> = (0..N as i32).map(|i| i * 7 - 100).collect();
        let bin = clCreateBuffer(
            ctx,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            N * 4,
            input.as_ptr() as *mut c_void,
            &mut e,
        );
        assert_eq!(e, CL_SUCCESS);
        let bout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * 4, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        for (i, b) in [bin, bout].iter().enumerate() {
            assert_eq!(
                clSetKernelArg(k16, i as u32, 8, b as *const cl_mem as *const c_void),
                CL_SUCCESS
            );
        }
        let (global, local) = (N, 32usize);
        assert_eq!(
            clEnqueueNDRangeKernel(q, k16, 1, null(), &global, &local, 0, null(), null_mut()),
            CL_SUCCESS
        );
        let mut out = vec![0i32; N];
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                bout,
                CL_TRUE,
                0,
                N * 4,
                out.as_mut_ptr() as *mut c_void,
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let want: Vec<i32> = (0..N)
            .map(|g| input[g - g % 16 + (g % 16 + 1) % 16] + 16_000)
            .collect();
        assert_eq!(out, want);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
        clReleaseKernel(k16);
        clReleaseKernel(k8);
        clReleaseProgram(p);

        // A size the device does not have: a build error naming it.
        let (p, r) = build(
            ctx,
            d,
            "__attribute__((intel_reqd_sub_group_size(64))) kernel void k(global int *o) { o[0] = 1; }",
        );
        assert_eq!(r, CL_BUILD_PROGRAM_FAILURE);
        let log = build_log(p, d);
        assert!(log.contains("intel_reqd_sub_group_size(64)"), "{log}");
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
