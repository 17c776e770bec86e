//! An endless kernel, as a Gen9 with i915 would treat it: the batch runs past its time budget
//! (GENCL_HANG_TIMEOUT_MS, 1.5 s here), the engine is reset and the context banned, and the
//! application hears of it within 2 s of the budget: the event's status is
//! CL_OUT_OF_RESOURCES, clWaitForEvents answers CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
//! and clFinish CL_OUT_OF_RESOURCES (as NEO answers a GPU hang). A kernel queued to the device
//! behind it is lost with the banned context (i915 drops what a banned context had queued):
//! its event fails too. The next kernel on the same queue then runs exactly. Its own test
//! binary: the budget is read when the device opens.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};
use std::time::{Duration, Instant};

const SOURCE: &str = r#"
kernel void spin(global volatile int *flag, global int *out) {
    while (flag[0] == 0) { }
    out[get_global_id(0)] = 7;
}

kernel void fine(global volatile int *flag, global int *out) {
    out[get_global_id(0)] = (int)get_global_id(0) * 3 + flag[0];
}
"#;

const BUDGET: Duration = Duration::from_millis(1500);

#[test]
fn an_endless_kernel_is_reported_within_two_seconds_of_the_budget() {
    // SAFETY: set before any thread of this process reads the environment (the device is
    // opened by setup below).
    unsafe { std::env::set_var("GENCL_HANG_TIMEOUT_MS", BUDGET.as_millis().to_string()) };
    let (d, ctx, q) = setup();
    // SAFETY: handles from setup; the buffers cover every work-item.
    unsafe {
        let c = CString::new(SOURCE).unwrap();
        let mut sp = c.as_ptr();
        let mut e = 0;
        let p = clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(
            clBuildProgram(p, 1, &d, null(), None, null_mut()),
            CL_SUCCESS,
            "{}",
            build_log(p, d)
        );
        const N: usize = 64;
        let mut zero = [0i32; N];
        let flag = clCreateBuffer(
            ctx,
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            N * 4,
            zero.as_mut_ptr().cast(),
            &mut e,
        );
        assert_eq!(e, CL_SUCCESS);
        let out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let kernel = |name: &str| {
            let n = CString::new(name).unwrap();
            let mut e = 0;
            let k = clCreateKernel(p, n.as_ptr(), &mut e);
            assert_eq!(e, CL_SUCCESS);
            for (i, b) in [flag, out].iter().enumerate() {
                let arg = b as *const cl_mem as *const c_void;
                assert_eq!(clSetKernelArg(k, i as cl_uint, 8, arg), CL_SUCCESS);
            }
            k
        };
        let spin = kernel("spin");
        let (global, local) = (N, 16usize);
        let mut ev: cl_event = null_mut();
        let mut behind: cl_event = null_mut();
        let t0 = Instant::now();
        assert_eq!(
            clEnqueueNDRangeKernel(q, spin, 1, null(), &global, &local, 0, null(), &mut ev),
            CL_SUCCESS
        );
        let fine = kernel("fine");
        assert_eq!(
            clEnqueueNDRangeKernel(q, fine, 1, null(), &global, &local, 0, null(), &mut behind),
            CL_SUCCESS
        );
        assert_eq!(
            clWaitForEvents(1, &ev),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        );
        let reported = t0.elapsed();
        assert!(reported >= BUDGET, "reported after {reported:?}");
        assert!(
            reported < BUDGET + Duration::from_secs(2),
            "reported after {reported:?}"
        );
        let mut status: cl_int = 0;
        assert_eq!(
            clGetEventInfo(
                ev,
                CL_EVENT_COMMAND_EXECUTION_STATUS,
                4,
                &mut status as *mut cl_int as *mut c_void,
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(status, CL_OUT_OF_RESOURCES);
        assert_eq!(clFinish(q), CL_OUT_OF_RESOURCES, "the hang, once");
        assert_eq!(clFinish(q), CL_SUCCESS, "and not again");
        assert_eq!(
            clGetEventInfo(
                behind,
                CL_EVENT_COMMAND_EXECUTION_STATUS,
                4,
                &mut status as *mut cl_int as *mut c_void,
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(status, CL_OUT_OF_RESOURCES, "lost with the banned context");
        clReleaseEvent(ev);
        clReleaseEvent(behind);

        // The queue goes on: the next kernel runs, exactly.
        assert_eq!(
            clEnqueueNDRangeKernel(q, fine, 1, null(), &global, &local, 0, null(), null_mut()),
            CL_SUCCESS
        );
        let mut got = vec![0i32; N];
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                out,
                CL_TRUE,
                0,
                N * 4,
                got.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(got, (0..N as i32).map(|i| i * 3).collect::<Vec<_>>());
        assert_eq!(clFinish(q), CL_SUCCESS);
        for k in [spin, fine] {
            clReleaseKernel(k);
        }
        clReleaseMemObject(flag);
        clReleaseMemObject(out);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
