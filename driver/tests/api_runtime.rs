//! The runtime core through the entry points (embedded device): commands that run after
//! clEnqueue* returns, user events that gate them, callbacks, failure through wait lists,
//! out-of-order queues, sub-buffers, rectangular copies and a failed launch's status.

mod api_common;

use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};
use std::sync::Mutex;

struct Env {
    ctx: cl_context,
    dev: cl_device_id,
}

/// Text the context's notification callback received.
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "C" fn note(text: *const c_char, _: *const c_void, _: usize, _: *mut c_void) {
    // SAFETY: the runtime passes a NUL-terminated string.
    let t = unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned();
    NOTES.lock().unwrap().push(t);
}

/// A context of its own. A GPU fault bans only the GPU context of the OpenCL context it
/// came from (`a_fault_fails_only_the_launches_of_its_own_context`), so the tests run
/// together, the faulting one among them.
fn env() -> Env {
    let d = api_common::device();
    let mut e = 0;
    // SAFETY: a valid device and out-pointer; the callback has the C signature.
    let ctx = unsafe { clCreateContext(null(), 1, &d, Some(note), null_mut(), &mut e) };
    assert_eq!(e, CL_SUCCESS);
    Env { ctx, dev: d }
}

impl Env {
    fn queue(&self, props: cl_command_queue_properties) -> cl_command_queue {
        let mut e = 0;
        // SAFETY: valid handles and out-pointer.
        let q = unsafe { clCreateCommandQueue(self.ctx, self.dev, props, &mut e) };
        assert_eq!(e, CL_SUCCESS);
        q
    }
    fn buffer(&self, size: usize) -> cl_mem {
        let mut e = 0;
        // SAFETY: valid context and out-pointer.
        let m = unsafe { clCreateBuffer(self.ctx, CL_MEM_READ_WRITE, size, null_mut(), &mut e) };
        assert_eq!(e, CL_SUCCESS);
        m
    }
    fn user_event(&self) -> cl_event {
        let mut e = 0;
        // SAFETY: valid context and out-pointer.
        let u = unsafe { clCreateUserEvent(self.ctx, &mut e) };
        assert_eq!(e, CL_SUCCESS);
        u
    }
    fn kernel(&self, src: &str, name: &str) -> cl_kernel {
        let mut e = 0;
        let text = std::ffi::CString::new(src).unwrap();
        let name = std::ffi::CString::new(name).unwrap();
        let mut p = text.as_ptr();
        // SAFETY: valid handles, strings and out-pointers.
        unsafe {
            let prog = clCreateProgramWithSource(self.ctx, 1, &mut p, null(), &mut e);
            assert_eq!(e, CL_SUCCESS);
            assert_eq!(
                clBuildProgram(prog, 1, &self.dev, null(), None, null_mut()),
                CL_SUCCESS
            );
            let k = clCreateKernel(prog, name.as_ptr(), &mut e);
            assert_eq!(e, CL_SUCCESS);
            clReleaseProgram(prog);
            k
        }
    }
}

fn status(e: cl_event) -> cl_int {
    let mut s: cl_int = 99;
    // SAFETY: valid event and out-pointer of the queried size.
    let r = unsafe {
        clGetEventInfo(
            e,
            CL_EVENT_COMMAND_EXECUTION_STATUS,
            4,
            (&raw mut s).cast(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    s
}

/// `n` ints of buffer `m`, read through `q` (blocking).
fn read_i32s(q: cl_command_queue, m: cl_mem, n: usize) -> Vec<i32> {
    let mut got = vec![0i32; n];
    // SAFETY: valid handles; `got` holds the n * 4 bytes the blocking read writes.
    let r = unsafe {
        clEnqueueReadBuffer(
            q,
            m,
            CL_TRUE,
            0,
            n * 4,
            got.as_mut_ptr().cast(),
            0,
            null(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    got
}

/// Wait (at most 20 s) until the launch of `e` is on the device: CL_RUNNING, or past it.
fn on_device(e: cl_event, what: &str) {
    let t0 = std::time::Instant::now();
    while status(e) > CL_RUNNING {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(20),
            "{what} never reached the device (status {})",
            status(e)
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Statuses the event callbacks saw, in order.
static SEEN: Mutex<Vec<(cl_int, cl_int)>> = Mutex::new(Vec::new());

unsafe extern "C" fn seen(_: cl_event, status: cl_int, data: *mut c_void) {
    SEEN.lock().unwrap().push((data as usize as cl_int, status));
}

#[test]
fn a_user_event_gates_an_in_order_queue_and_callbacks_follow_the_states() {
    let env = env();
    let q = env.queue(0);
    let m = env.buffer(64);
    let gate = env.user_event();
    let data: Vec<u8> = (0..64).collect();
    let mut back = vec![0u8; 64];
    let (mut w, mut r) = (null_mut(), null_mut());
    // SAFETY: valid handles; data and back outlive the commands (clFinish below).
    unsafe {
        assert_eq!(
            clEnqueueWriteBuffer(
                q,
                m,
                CL_FALSE,
                0,
                64,
                data.as_ptr().cast(),
                1,
                &gate,
                &mut w
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                m,
                CL_FALSE,
                0,
                64,
                back.as_mut_ptr().cast(),
                0,
                null(),
                &mut r
            ),
            CL_SUCCESS
        );
        for (tag, state) in [(1, CL_SUBMITTED), (2, CL_RUNNING), (3, CL_COMPLETE)] {
            assert_eq!(
                clSetEventCallback(r, state, Some(seen), tag as usize as *mut c_void),
                CL_SUCCESS
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(30));
        // Nothing ran: the write waits for the gate, the read for the write.
        assert_eq!(status(w), CL_QUEUED);
        assert_eq!(status(r), CL_QUEUED);
        assert_eq!(back, vec![0u8; 64]);
        assert!(SEEN.lock().unwrap().is_empty());
        assert_eq!(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
        assert_eq!(
            clSetUserEventStatus(gate, CL_COMPLETE),
            CL_INVALID_OPERATION
        );
        assert_eq!(clWaitForEvents(1, &r), CL_SUCCESS);
        assert_eq!(back, data);
        assert_eq!(status(w), CL_COMPLETE);
        // Each callback ran once, with the state it asked for, in the order the states came.
        // (The spec does not order a CL_COMPLETE callback before the waits that return on
        // completion: it runs on the worker, so give it a moment.)
        let t = std::time::Instant::now();
        while SEEN.lock().unwrap().len() < 3 && t.elapsed().as_secs() < 5 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(
            *SEEN.lock().unwrap(),
            [(1, CL_SUBMITTED), (2, CL_RUNNING), (3, CL_COMPLETE)]
        );
        for e in [gate, w, r] {
            clReleaseEvent(e);
        }
        clReleaseMemObject(m);
        clReleaseCommandQueue(q);
    }
}

#[test]
fn a_failed_user_event_fails_the_commands_that_wait_on_it() {
    let env = env();
    let q = env.queue(0);
    let m = env.buffer(16);
    let gate = env.user_event();
    let mut back = [7u8; 16];
    let (mut w, mut r) = (null_mut(), null_mut());
    let data = [1u8; 16];
    // SAFETY: valid handles; the buffers outlive the commands.
    unsafe {
        assert_eq!(
            clEnqueueWriteBuffer(
                q,
                m,
                CL_FALSE,
                0,
                16,
                data.as_ptr().cast(),
                1,
                &gate,
                &mut w
            ),
            CL_SUCCESS
        );
        assert_eq!(clSetUserEventStatus(gate, -1234), CL_SUCCESS);
        // The blocking read waits on the failed write explicitly.
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                m,
                CL_TRUE,
                0,
                16,
                back.as_mut_ptr().cast(),
                1,
                &w,
                &mut r
            ),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        );
        assert_eq!(status(w), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        assert_eq!(status(r), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        assert_eq!(back, [7u8; 16], "neither command ran");
        assert_eq!(
            clWaitForEvents(1, &w),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        );
        // The queue goes on: a command that does not wait on them runs.
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                m,
                CL_TRUE,
                0,
                16,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(back, [0u8; 16]);
        for e in [gate, w, r] {
            clReleaseEvent(e);
        }
        clReleaseMemObject(m);
        clReleaseCommandQueue(q);
    }
}

#[test]
fn an_out_of_order_queue_runs_past_a_gated_command_but_not_past_a_barrier() {
    let env = env();
    let q = env.queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let (a, b) = (env.buffer(4), env.buffer(4));
    let gate = env.user_event();
    let one = 1u32.to_le_bytes();
    let two = 2u32.to_le_bytes();
    let mut got = [0u8; 4];
    let (mut ea, mut bar, mut eb) = (null_mut(), null_mut(), null_mut());
    // SAFETY: valid handles; the host memory outlives the commands.
    unsafe {
        assert_eq!(
            clEnqueueWriteBuffer(q, a, CL_FALSE, 0, 4, one.as_ptr().cast(), 1, &gate, &mut ea),
            CL_SUCCESS
        );
        // Independent of the gate: it completes while the first waits.
        assert_eq!(
            clEnqueueWriteBuffer(
                q,
                b,
                CL_TRUE,
                0,
                4,
                two.as_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(status(ea), CL_QUEUED);
        assert_eq!(
            clEnqueueBarrierWithWaitList(q, 0, null(), &mut bar),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                b,
                CL_FALSE,
                0,
                4,
                got.as_mut_ptr().cast(),
                0,
                null(),
                &mut eb
            ),
            CL_SUCCESS
        );
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert_eq!(status(eb), CL_QUEUED, "behind the barrier, behind the gate");
        assert_eq!(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
        assert_eq!(clFinish(q), CL_SUCCESS);
        assert_eq!(status(bar), CL_COMPLETE);
        assert_eq!(got, two);
        for e in [gate, ea, bar, eb] {
            clReleaseEvent(e);
        }
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        clReleaseCommandQueue(q);
    }
}

#[test]
fn a_kernel_on_a_sub_buffer_sees_only_its_window() {
    let env = env();
    let q = env.queue(0);
    let parent = env.buffer(1024);
    let mut e = 0;
    // SAFETY: valid handles and pointers throughout.
    unsafe {
        let bad = cl_buffer_region {
            origin: 4,
            size: 64,
        };
        clCreateSubBuffer(
            parent,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&raw const bad).cast(),
            &mut e,
        );
        assert_eq!(e, CL_MISALIGNED_SUB_BUFFER_OFFSET);
        let region = cl_buffer_region {
            origin: 256,
            size: 512,
        };
        let sub = clCreateSubBuffer(
            parent,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&raw const region).cast(),
            &mut e,
        );
        assert_eq!(e, CL_SUCCESS);
        let mut off = 0usize;
        assert_eq!(
            clGetMemObjectInfo(sub, CL_MEM_OFFSET, 8, (&raw mut off).cast(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(off, 256);
        let init: Vec<u32> = (0..256).collect();
        assert_eq!(
            clEnqueueWriteBuffer(
                q,
                parent,
                CL_TRUE,
                0,
                1024,
                init.as_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let k = env.kernel(
            "kernel void twice(global uint *a) { a[get_global_id(0)] *= 2; }",
            "twice",
        );
        assert_eq!(clSetKernelArg(k, 0, 8, (&raw const sub).cast()), CL_SUCCESS);
        let g = 128usize;
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        let mut back = vec![0u32; 256];
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                parent,
                CL_TRUE,
                0,
                1024,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let want: Vec<u32> = (0..256)
            .map(|i| if (64..192).contains(&i) { i * 2 } else { i })
            .collect();
        assert_eq!(back, want);
        clReleaseKernel(k);
        clReleaseMemObject(sub);
        clReleaseMemObject(parent);
        clReleaseCommandQueue(q);
    }
}

#[test]
fn rect_writes_reads_and_copies_match_a_cpu_reference() {
    let env = env();
    let q = env.queue(0);
    let (w, h) = (16usize, 8usize); // a 16 x 8 byte image in each buffer
    let (a, b) = (env.buffer(w * h), env.buffer(w * h));
    let zeros = vec![0u8; w * h];
    let host: Vec<u8> = (0..=255).collect(); // a 32-byte-pitch host image
                                             // SAFETY: valid handles; host memory outlives the blocking commands.
    unsafe {
        for m in [a, b] {
            assert_eq!(
                clEnqueueWriteBuffer(
                    q,
                    m,
                    CL_TRUE,
                    0,
                    w * h,
                    zeros.as_ptr().cast(),
                    0,
                    null(),
                    null_mut()
                ),
                CL_SUCCESS
            );
        }
        // Host (2, 1) of pitch 32 → buffer (3, 2) of pitch 16, a 5 x 4 region.
        let (bo, ho, region) = ([3usize, 2, 0], [2usize, 1, 0], [5usize, 4, 1]);
        assert_eq!(
            clEnqueueWriteBufferRect(
                q,
                a,
                CL_TRUE,
                bo.as_ptr(),
                ho.as_ptr(),
                region.as_ptr(),
                w,
                0,
                32,
                0,
                host.as_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        // Buffer a (3, 2) → buffer b (10, 3), same region.
        let dst = [10usize, 3, 0];
        assert_eq!(
            clEnqueueCopyBufferRect(
                q,
                a,
                b,
                bo.as_ptr(),
                dst.as_ptr(),
                region.as_ptr(),
                w,
                0,
                w,
                0,
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        // Overlapping regions of one buffer.
        let near = [4usize, 3, 0];
        assert_eq!(
            clEnqueueCopyBufferRect(
                q,
                a,
                a,
                bo.as_ptr(),
                near.as_ptr(),
                region.as_ptr(),
                w,
                0,
                w,
                0,
                0,
                null(),
                null_mut()
            ),
            CL_MEM_COPY_OVERLAP
        );
        let mut got = vec![0u8; w * h];
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                b,
                CL_TRUE,
                0,
                w * h,
                got.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let mut want = vec![0u8; w * h];
        for y in 0..4 {
            for x in 0..5 {
                want[(3 + y) * w + 10 + x] = host[(1 + y) * 32 + 2 + x];
            }
        }
        assert_eq!(got, want);
        // Read b's region back into a host image of pitch 8 at (1, 1).
        let mut out = vec![0u8; 8 * 6];
        let (ro, rh) = ([10usize, 3, 0], [1usize, 1, 0]);
        assert_eq!(
            clEnqueueReadBufferRect(
                q,
                b,
                CL_TRUE,
                ro.as_ptr(),
                rh.as_ptr(),
                region.as_ptr(),
                w,
                0,
                8,
                0,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        for y in 0..4 {
            for x in 0..5 {
                assert_eq!(out[(1 + y) * 8 + 1 + x], host[(1 + y) * 32 + 2 + x]);
            }
        }
        // Out of bounds: a region that ends past the buffer.
        let far = [12usize, 5, 0];
        assert_eq!(
            clEnqueueReadBufferRect(
                q,
                b,
                CL_TRUE,
                far.as_ptr(),
                rh.as_ptr(),
                region.as_ptr(),
                w,
                0,
                8,
                0,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        clReleaseCommandQueue(q);
    }
}

#[test]
fn a_faulting_launch_fails_its_event_and_tells_the_context() {
    let env = env();
    let q = env.queue(0);
    // A store through a NULL pointer: a GPU page fault. (Not a NULL buffer argument: its
    // accesses go through the argument's binding-table surface, the null surface for NULL,
    // which drops a write as the hardware does; a pointer made from an integer is stateless.)
    let k = env.kernel(
        "kernel void bad(ulong p) { ((global int *)p)[get_global_id(0) * 4096] = 1; }",
        "bad",
    );
    let none = 0u64;
    let mut ev = null_mut();
    // SAFETY: valid handles and pointers.
    unsafe {
        assert_eq!(
            clSetKernelArg(k, 0, 8, (&raw const none).cast()),
            CL_SUCCESS
        );
        let g = 64usize;
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), &mut ev),
            CL_SUCCESS
        );
        assert_eq!(
            clWaitForEvents(1, &ev),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        );
        assert!(status(ev) < 0, "status {}", status(ev));
        let notes = NOTES.lock().unwrap().clone();
        assert!(
            notes.iter().any(|n| n.contains("launch failed")),
            "context notes: {notes:?}"
        );
        clReleaseEvent(ev);
        clReleaseKernel(k);
        clReleaseCommandQueue(q);
    }
}

/// A NULL buffer argument whose accesses take its binding-table surface gets the null
/// surface at that index (reads 0, writes dropped, no fault), as NEO programs one: the
/// launch completes and the kernel reads zeros, however the surface-state heap's pages
/// were left (the table once ended before such an index, leaving it to whatever the heap
/// held there).
#[test]
fn a_null_buffer_argument_reads_zeros_through_the_null_surface() {
    let env = env();
    let q = env.queue(0);
    let k = env.kernel(
        "kernel void k(global const int *maybe, global int *out) {
             out[get_global_id(0)] = maybe[get_global_id(0)] + 7;
             ((global int *)maybe)[get_global_id(0)] = 5;
         }",
        "k",
    );
    const N: usize = 64;
    let out = env.buffer(N * 4);
    let none: cl_mem = null_mut();
    let mut ev = null_mut();
    // SAFETY: valid handles and pointers.
    unsafe {
        assert_eq!(
            clSetKernelArg(k, 0, 8, (&raw const none).cast()),
            CL_SUCCESS
        );
        assert_eq!(clSetKernelArg(k, 1, 8, (&raw const out).cast()), CL_SUCCESS);
        let g = N;
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), &mut ev),
            CL_SUCCESS
        );
        assert_eq!(clWaitForEvents(1, &ev), CL_SUCCESS);
        assert_eq!(status(ev), CL_COMPLETE);
        assert_eq!(read_i32s(q, out, N), vec![7; N]);
        clReleaseEvent(ev);
        clReleaseKernel(k);
        clReleaseCommandQueue(q);
    }
}

/// A fault bans the GPU context it ran on and drops what that context had queued: only the
/// launches of the faulting kernel's own OpenCL context may fail with it (each OpenCL
/// context's launches run on a GPU context of their own). Here a launch of context B is
/// queued on the device behind a kernel of context A that spins, then faults; B's launch
/// runs and gives its result. (With one GPU context per client, B's was dropped:
/// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.)
#[test]
fn a_fault_fails_only_the_launches_of_its_own_context() {
    const SRC: &str = r#"
        kernel void wait_then_fault(global volatile int *flag, ulong p) {
            while (flag[0] == 0) { }
            ((global int *)p)[get_global_id(0) * 4096] = 1;
        }
        kernel void fill(global int *out) {
            out[get_global_id(0)] = (int)get_global_id(0) * 3 + 1;
        }
    "#;
    const N: usize = 64;
    let (a, b) = (env(), env());
    let (qa, qa_other, qb) = (a.queue(0), a.queue(0), b.queue(0));
    let flag = a.buffer(4);
    let out = b.buffer(N * 4);
    let bad = a.kernel(SRC, "wait_then_fault");
    let fill = b.kernel(SRC, "fill");
    let none = 0u64; // a NULL pointer, stateless (above)
    let (zero, one) = (0i32, 1i32);
    let global = N;
    let (mut ea, mut eb) = (null_mut(), null_mut());
    // SAFETY: valid handles; the host values outlive the blocking commands that read them.
    unsafe {
        let write_flag = |q: cl_command_queue, v: &i32| {
            clEnqueueWriteBuffer(
                q,
                flag,
                CL_TRUE,
                0,
                4,
                (v as *const i32).cast(),
                0,
                null(),
                null_mut(),
            )
        };
        assert_eq!(write_flag(qa, &zero), CL_SUCCESS);
        assert_eq!(
            clSetKernelArg(bad, 0, 8, (&raw const flag).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(bad, 1, 8, (&raw const none).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(fill, 0, 8, (&raw const out).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueNDRangeKernel(qa, bad, 1, null(), &global, null(), 0, null(), &mut ea),
            CL_SUCCESS
        );
        on_device(ea, "context A's kernel");
        assert_eq!(
            clEnqueueNDRangeKernel(qb, fill, 1, null(), &global, null(), 0, null(), &mut eb),
            CL_SUCCESS
        );
        on_device(eb, "context B's kernel");
        assert_eq!(status(ea), CL_RUNNING, "A's kernel still spins");
        // Let A's kernel go on to its fault.
        assert_eq!(write_flag(qa_other, &one), CL_SUCCESS);
        assert_eq!(
            clWaitForEvents(1, &ea),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        );
        assert!(status(ea) < 0, "A's status {}", status(ea));
        assert_eq!(
            clWaitForEvents(1, &eb),
            CL_SUCCESS,
            "B's launch failed with A's"
        );
        assert_eq!(status(eb), CL_COMPLETE);
        let got = read_i32s(qb, out, N);
        let want: Vec<i32> = (0..N as i32).map(|i| i * 3 + 1).collect();
        assert_eq!(got, want);
        // Context A goes on: its next launch runs on a fresh GPU context.
        let fill_a = a.kernel(SRC, "fill");
        assert_eq!(
            clSetKernelArg(fill_a, 0, 8, (&raw const flag).cast()),
            CL_SUCCESS
        );
        let mut again = null_mut();
        let one_item = 1usize;
        assert_eq!(
            clEnqueueNDRangeKernel(
                qa,
                fill_a,
                1,
                null(),
                &one_item,
                null(),
                0,
                null(),
                &mut again
            ),
            CL_SUCCESS
        );
        assert_eq!(clWaitForEvents(1, &again), CL_SUCCESS);
        assert_eq!(read_i32s(qa, flag, 1), [1]);
        clReleaseKernel(fill_a);
        for e in [ea, eb, again] {
            clReleaseEvent(e);
        }
        clReleaseKernel(bad);
        clReleaseKernel(fill);
        clReleaseMemObject(flag);
        clReleaseMemObject(out);
        for q in [qa, qa_other, qb] {
            clReleaseCommandQueue(q);
        }
    }
}

/// Destructor callbacks, in the order they ran: (object kind, user_data).
static DESTROYED: Mutex<Vec<(char, usize)>> = Mutex::new(Vec::new());

unsafe extern "C" fn mem_gone(_: cl_mem, data: *mut c_void) {
    DESTROYED.lock().unwrap().push(('m', data as usize));
}

unsafe extern "C" fn ctx_gone(_: cl_context, data: *mut c_void) {
    DESTROYED.lock().unwrap().push(('c', data as usize));
}

#[test]
fn destructor_callbacks_run_last_first_when_the_object_goes() {
    let env = env();
    let m = env.buffer(64);
    // SAFETY: valid handles; the callbacks have the C signatures.
    unsafe {
        for tag in [1usize, 2] {
            assert_eq!(
                clSetMemObjectDestructorCallback(m, Some(mem_gone), tag as *mut c_void),
                CL_SUCCESS
            );
            assert_eq!(
                clSetContextDestructorCallback(env.ctx, Some(ctx_gone), tag as *mut c_void),
                CL_SUCCESS
            );
        }
        assert_eq!(
            clSetMemObjectDestructorCallback(m, None, null_mut()),
            CL_INVALID_VALUE
        );
        // The buffer holds its context: the context goes with the buffer, after it.
        assert_eq!(clReleaseContext(env.ctx), CL_SUCCESS);
        assert!(DESTROYED.lock().unwrap().is_empty());
        assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
    }
    assert_eq!(
        *DESTROYED.lock().unwrap(),
        [('m', 2), ('m', 1), ('c', 2), ('c', 1)]
    );
}

/// Launches are asynchronous: the second kernel of an in-order queue goes to the device
/// (CL_RUNNING) while the first still runs, and the device runs them in order. The first
/// spins until another queue's write sets a flag in the pages the kernel reads; the second
/// reads what the first wrote.
#[test]
fn the_next_launch_goes_to_the_device_while_the_one_before_runs() {
    const SRC: &str = r#"
        kernel void wait_then_write(global volatile int *flag, global int *out) {
            while (flag[0] == 0) { }
            out[get_global_id(0)] = 7;
        }
        kernel void follow(global volatile int *flag, global int *out) {
            out[get_global_id(0)] = out[get_global_id(0)] * 3 + (int)get_global_id(0);
        }
    "#;
    const N: usize = 64;
    let env = env();
    let q = env.queue(0);
    let other = env.queue(0);
    let flag = env.buffer(4);
    let out = env.buffer(N * 4);
    let first = env.kernel(SRC, "wait_then_write");
    let second = env.kernel(SRC, "follow");
    let zero = 0i32;
    let one = 1i32;
    let (global, local) = (N, 16usize);
    let (mut a, mut b) = (null_mut(), null_mut());
    // SAFETY: valid handles; the host values outlive the blocking writes that read them.
    unsafe {
        assert_eq!(
            clEnqueueWriteBuffer(
                q,
                flag,
                CL_TRUE,
                0,
                4,
                (&raw const zero).cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        for k in [first, second] {
            for (i, m) in [flag, out].iter().enumerate() {
                let arg = (m as *const cl_mem).cast();
                assert_eq!(clSetKernelArg(k, i as cl_uint, 8, arg), CL_SUCCESS);
            }
        }
        assert_eq!(
            clEnqueueNDRangeKernel(q, first, 1, null(), &global, &local, 0, null(), &mut a),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueNDRangeKernel(q, second, 1, null(), &global, &local, 0, null(), &mut b),
            CL_SUCCESS
        );
        // The second launch reaches the device while the first cannot finish.
        on_device(b, "the second launch");
        assert_eq!(status(a), CL_RUNNING, "the first one still runs");
        // Another queue's write releases the first kernel.
        assert_eq!(
            clEnqueueWriteBuffer(
                other,
                flag,
                CL_TRUE,
                0,
                4,
                (&raw const one).cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(clWaitForEvents(1, &b), CL_SUCCESS);
        assert_eq!(status(a), CL_COMPLETE);
        let got = read_i32s(q, out, N);
        let want: Vec<i32> = (0..N as i32).map(|i| 7 * 3 + i).collect();
        assert_eq!(got, want, "the second kernel ran after the first");
        for e in [a, b] {
            clReleaseEvent(e);
        }
        for k in [first, second] {
            clReleaseKernel(k);
        }
        for m in [flag, out] {
            clReleaseMemObject(m);
        }
        clReleaseCommandQueue(q);
        clReleaseCommandQueue(other);
    }
}

/// The tags `called_back` was called with (apart from `SEEN`, which another test empties).
static CALLED_BACK: Mutex<Vec<usize>> = Mutex::new(Vec::new());

unsafe extern "C" fn called_back(_: cl_event, _: cl_int, data: *mut c_void) {
    CALLED_BACK.lock().unwrap().push(data as usize);
}

/// A launch queued alone is deferred until something needs it (docs/runtime.md, "Deferred
/// launches"); an application that never calls clFlush still sees it run when it polls the
/// event's status, when another queue's blocking call waits for it, or when it waits for a
/// callback.
#[test]
fn a_launch_runs_without_a_flush_when_polled_waited_for_elsewhere_or_called_back() {
    const SRC: &str = "kernel void put(global int *out, int v) { out[get_global_id(0)] = v; }";
    const N: usize = 16;
    let env = env();
    let (q, other) = (env.queue(0), env.queue(0));
    let out = env.buffer(N * 4);
    let k = env.kernel(SRC, "put");
    let launch = |v: i32| {
        let mut e = null_mut();
        // SAFETY: valid handles; the argument values are copied by clSetKernelArg.
        unsafe {
            assert_eq!(clSetKernelArg(k, 0, 8, (&raw const out).cast()), CL_SUCCESS);
            assert_eq!(clSetKernelArg(k, 1, 4, (&raw const v).cast()), CL_SUCCESS);
            assert_eq!(
                clEnqueueNDRangeKernel(q, k, 1, null(), &N, null(), 0, null(), &mut e),
                CL_SUCCESS
            );
        }
        e
    };
    // Polled.
    let e = launch(1);
    let t0 = std::time::Instant::now();
    while status(e) != CL_COMPLETE {
        assert!(t0.elapsed().as_secs() < 20, "a polled launch never ran");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(read_i32s(other, out, N), vec![1; N]);
    // Waited for by another queue's blocking read.
    let e2 = launch(2);
    let mut got = vec![0i32; N];
    // SAFETY: valid handles; `got` holds the N * 4 bytes the blocking read writes.
    let r = unsafe {
        clEnqueueReadBuffer(
            other,
            out,
            CL_TRUE,
            0,
            N * 4,
            got.as_mut_ptr().cast(),
            1,
            &e2,
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    assert_eq!(got, vec![2; N]);
    // Called back, the application sleeping meanwhile.
    let e3 = launch(3);
    let tag = 77usize;
    // SAFETY: valid event; `called_back` has the callback signature and takes `tag` as data.
    let r = unsafe { clSetEventCallback(e3, CL_COMPLETE, Some(called_back), tag as *mut c_void) };
    assert_eq!(r, CL_SUCCESS);
    let t0 = std::time::Instant::now();
    while !CALLED_BACK.lock().unwrap().contains(&tag) {
        assert!(
            t0.elapsed().as_secs() < 20,
            "a called-back launch never ran"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(read_i32s(q, out, N), vec![3; N]);
    // SAFETY: handles this test made.
    unsafe {
        for ev in [e, e2, e3] {
            clReleaseEvent(ev);
        }
        clReleaseKernel(k);
        clReleaseMemObject(out);
        clReleaseCommandQueue(q);
        clReleaseCommandQueue(other);
    }
}

/// What the callback of the last launch released (a buffer handle).
static RELEASE_IN_CALLBACK: Mutex<usize> = Mutex::new(0);

unsafe extern "C" fn release_buffer(_: cl_event, _: cl_int, data: *mut c_void) {
    // SAFETY: `data` is a buffer the test handed over with one reference of its own.
    assert_eq!(unsafe { clReleaseMemObject(data as cl_mem) }, CL_SUCCESS);
    *RELEASE_IN_CALLBACK.lock().unwrap() += 1;
}

/// A launch that holds the last reference to its buffers, and a completion callback that
/// releases one: freeing them calls into the connection (FreeBuffer), which must not happen on
/// the thread that frees launch slots or delivers answers (it once did, and a queue of more
/// launches than the device has slots hung there).
#[test]
fn launches_that_hold_the_last_reference_to_their_buffers_finish() {
    const SRC: &str = "kernel void inc(global int *a) { a[get_global_id(0)] += 1; }";
    // A deadlock would hang the test binary: end it with a message instead.
    let (done, watch) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if watch
            .recv_timeout(std::time::Duration::from_secs(120))
            .is_err()
        {
            eprintln!("launches_that_hold_the_last_reference_to_their_buffers_finish: deadlocked");
            std::process::exit(101);
        }
    });
    let env = env();
    let q = env.queue(0);
    let k = env.kernel(SRC, "inc");
    let (global, local) = (64usize, 16usize);
    let keep = env.buffer(256);
    let mut last = null_mut();
    // SAFETY: valid handles; each buffer is released by the test after its launch is queued
    // (the launch keeps it), or by the callback.
    unsafe {
        assert_eq!(
            clSetKernelArg(k, 0, 8, (&raw const keep).cast()),
            CL_SUCCESS
        );
        for i in 0..40 {
            let m = env.buffer(256);
            assert_eq!(clSetKernelArg(k, 0, 8, (&raw const m).cast()), CL_SUCCESS);
            let ev = if i == 39 { &mut last } else { null_mut() };
            assert_eq!(
                clEnqueueNDRangeKernel(q, k, 1, null(), &global, &local, 0, null(), ev),
                CL_SUCCESS
            );
            assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        }
        let extra = env.buffer(64);
        assert_eq!(
            clSetEventCallback(last, CL_COMPLETE, Some(release_buffer), extra.cast()),
            CL_SUCCESS
        );
        assert_eq!(clFinish(q), CL_SUCCESS);
        assert_eq!(status(last), CL_COMPLETE);
        // The callback has run by the time clFinish returns or soon after (it runs where the
        // event completes).
        let t0 = std::time::Instant::now();
        while *RELEASE_IN_CALLBACK.lock().unwrap() == 0 {
            assert!(t0.elapsed() < std::time::Duration::from_secs(20));
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // The connection still answers.
        let after = env.buffer(64);
        assert_eq!(clReleaseMemObject(after), CL_SUCCESS);
        clReleaseEvent(last);
        clReleaseMemObject(keep);
        clReleaseKernel(k);
        clReleaseCommandQueue(q);
        clReleaseContext(env.ctx);
    }
    let _ = done.send(());
}
