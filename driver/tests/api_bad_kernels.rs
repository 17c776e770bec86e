//! Kernels that go wrong on the device, through the API: a barrier that only some of a
//! work-group's threads reach (divergent control flow) is a launch error the application
//! sees on the event and in clWaitForEvents, never a hang of the service; and the same context and
//! queue run the next kernel as if nothing had happened.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

const SOURCE: &str = r#"
kernel void divergent_barrier(global int *out) {
    // Work-items 0-15 are the first SIMD16 thread (the first two SIMD8 ones) of a group of
    // 32: only they reach the barrier, the group's other threads do not.
    if (get_local_id(0) < 16)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = 1;
}

kernel void fine(global int *out) {
    out[get_global_id(0)] = (int)get_global_id(0) * 2;
}
"#;

#[test]
fn a_barrier_in_divergent_flow_is_a_launch_error() {
    let (d, ctx, q) = setup();
    // SAFETY: handles from setup; the buffer covers every work-item's element.
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
        const N: usize = 32;
        let b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let mut kernel = |name: &str| {
            let n = CString::new(name).unwrap();
            let k = clCreateKernel(p, n.as_ptr(), &mut e);
            assert_eq!(e, CL_SUCCESS);
            assert_eq!(
                clSetKernelArg(k, 0, 8, &b as *const cl_mem as *const c_void),
                CL_SUCCESS
            );
            k
        };
        let bad = kernel("divergent_barrier");
        let (global, local) = (N, 32usize);
        let mut ev: cl_event = null_mut();
        assert_eq!(
            clEnqueueNDRangeKernel(q, bad, 1, null(), &global, &local, 0, null(), &mut ev),
            CL_SUCCESS
        );
        // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of the
        // events in event_list is a negative integer value" (clWaitForEvents); the abnormally
        // terminated command's status is a negative error code.
        assert_eq!(
            clWaitForEvents(1, &ev),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
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
        assert!(status < 0, "the hung launch ended with status {status}");
        clReleaseEvent(ev);

        let good = kernel("fine");
        assert_eq!(
            clEnqueueNDRangeKernel(q, good, 1, null(), &global, &local, 0, null(), null_mut()),
            CL_SUCCESS
        );
        let mut out = vec![0i32; N];
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                b,
                CL_TRUE,
                0,
                N * 4,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(out, (0..N as i32).map(|i| i * 2).collect::<Vec<_>>());
        clReleaseKernel(bad);
        clReleaseKernel(good);
        clReleaseMemObject(b);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
