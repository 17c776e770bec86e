//! Issue 11, "Validation": every entry point checks its arguments in the order the OpenCL 3.0
//! API specification lists its errors and returns the code it gives; NULL, wrong-type and
//! released handles are refused, never dereferenced.
//!
//! One table. A row is (entry point, what the row checks, the call, the code the spec gives);
//! the rows run in order, every failing one is printed (entry point, what, got, want) and the
//! test fails once at the end. The comments above each group of rows quote the OpenCL 3.0.19
//! API specification (KhronosGroup/OpenCL-Docs, api/opencl_platform_layer.asciidoc and
//! api/opencl_runtime_layer.asciidoc). Every name in the `pub use` lists of
//! driver/src/api/entry.rs has rows, or a reason in `NO_ROWS`: a new entry point without a
//! table fails this test.
//!
//! For each entry point: each handle argument NULL, a live handle of another type and a released
//! handle (an object created and released to zero, its stale pointer passed); the other errors
//! the spec lists that this device can reach; and, where two errors apply at once, the one the
//! spec lists first ("order:" rows). Where a failed call must leave things as they were (buffer
//! bytes, kernel arguments, map counts, reference counts, no event handed out, param_value
//! untouched), the row checks that as well: a call that returned the right code but left such a
//! trace fails with SIDE_EFFECT; a failed create that returned a handle fails with NOT_NULL.
//!
//! How "order" is read where a check needs an object (its context, its size): that check is
//! made at its place in the list over the arguments that are valid, and an invalid argument is
//! left to its own check further down. E.g. clEnqueueReadBuffer with an invalid buffer and an
//! event of another context in the wait list is CL_INVALID_CONTEXT (listed before
//! CL_INVALID_MEM_OBJECT); with a valid buffer of another context and a NULL wait list with one
//! event, CL_INVALID_CONTEXT (listed before CL_INVALID_EVENT_WAIT_LIST).

mod api_common;

use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_char, c_void, CString};
use std::ptr::{null, null_mut};

/// Not OpenCL codes: a call that returned the spec's code but did what it must not.
/// A failed call changed state it must leave alone (or a call did not write what it must).
const SIDE_EFFECT: cl_int = 1002;
/// A create call that failed returned a handle instead of NULL.
const NOT_NULL: cl_int = 1001;

type Call = Box<dyn Fn() -> cl_int>;

struct Row {
    entry: &'static str,
    what: String,
    want: cl_int,
    call: Call,
}

#[derive(Default)]
struct Table(Vec<Row>);

/// A bad value for a handle argument of type `*mut X`: a live object of another type and a
/// released object (which need not be of type X when X has no released objects: devices and
/// platforms are static, samplers cannot be created).
#[derive(Clone, Copy)]
struct Bad<X> {
    wrong: *mut X,
    wrong_is: &'static str,
    released: *mut X,
    released_is: &'static str,
}

impl Table {
    fn row(
        &mut self,
        entry: &'static str,
        what: impl Into<String>,
        want: cl_int,
        call: impl Fn() -> cl_int + 'static,
    ) {
        self.0.push(Row {
            entry,
            what: what.into(),
            want,
            call: Box::new(call),
        });
    }

    /// The three rows of a handle argument: NULL, a live object of another type, a released
    /// object.
    fn handle<X: 'static>(
        &mut self,
        entry: &'static str,
        arg: &str,
        want: cl_int,
        bad: Bad<X>,
        f: impl Fn(*mut X) -> cl_int + Clone + 'static,
    ) {
        let g = f.clone();
        self.row(entry, format!("{arg} NULL"), want, move || g(null_mut()));
        let g = f.clone();
        self.row(
            entry,
            format!("{arg} is a live {}", bad.wrong_is),
            want,
            move || g(bad.wrong),
        );
        self.row(
            entry,
            format!("{arg} is a released {}", bad.released_is),
            want,
            move || f(bad.released),
        );
    }

    /// The rows every clGet*Info shares: "CL_INVALID_VALUE if param_name is not one of the
    /// supported values, or if the size in bytes specified by param_value_size is less than
    /// size of the return type specified in the ... table and param_value is not NULL" (and
    /// param_value is left as it was), after a row that shows `param` is answered (its value is
    /// more than one byte).
    fn info(
        &mut self,
        entry: &'static str,
        param: cl_uint,
        f: impl Fn(cl_uint, usize, *mut c_void, *mut usize) -> cl_int + Clone + 'static,
    ) {
        let g = f.clone();
        self.row(
            entry,
            format!("param_name {param:#x}, its size asked"),
            CL_SUCCESS,
            move || {
                let mut size = 0usize;
                let r = g(param, 0, null_mut(), &mut size);
                expect(r, size > 1)
            },
        );
        let g = f.clone();
        self.row(
            entry,
            "an unknown param_name",
            CL_INVALID_VALUE,
            move || {
                let mut v = [0xAAu8; 64];
                let r = g(0x7fff_0000, v.len(), v.as_mut_ptr().cast(), null_mut());
                expect(r, untouched(&v))
            },
        );
        self.row(
            entry,
            format!("param_name {param:#x}, param_value_size 1: too small (param_value untouched)"),
            CL_INVALID_VALUE,
            move || {
                let mut v = [0xAAu8; 64];
                let r = f(param, 1, v.as_mut_ptr().cast(), null_mut());
                expect(r, untouched(&v))
            },
        );
    }

    /// The wait-list rows every command shares. `context_first`: whether the command lists
    /// CL_INVALID_CONTEXT (events of another context) before CL_INVALID_EVENT_WAIT_LIST (all
    /// but clEnqueueUnmapMemObject do).
    fn wait_list(
        &mut self,
        entry: &'static str,
        e: Env,
        context_first: bool,
        f: impl Fn(cl_uint, *const cl_event) -> cl_int + Clone + 'static,
    ) {
        // "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list >
        // 0, or event_wait_list is not NULL and num_events_in_wait_list is 0, or if event
        // objects in event_wait_list are not valid events."
        let g = f.clone();
        self.row(
            entry,
            "event_wait_list NULL, num_events_in_wait_list 1",
            CL_INVALID_EVENT_WAIT_LIST,
            move || g(1, null()),
        );
        let g = f.clone();
        self.row(
            entry,
            "event_wait_list given, num_events_in_wait_list 0",
            CL_INVALID_EVENT_WAIT_LIST,
            move || g(0, [e.done].as_ptr()),
        );
        for (what, ev) in [
            ("a NULL event", null_mut()),
            ("a live buffer", e.buf.cast()),
            ("a released event", e.stale.event),
        ] {
            let g = f.clone();
            self.row(
                entry,
                format!("{what} in event_wait_list"),
                CL_INVALID_EVENT_WAIT_LIST,
                move || g(2, [e.done, ev].as_ptr()),
            );
        }
        // "CL_INVALID_CONTEXT if ... the context associated with command_queue and events in
        // event_wait_list are not the same."
        let g = f.clone();
        self.row(
            entry,
            "an event of another context in event_wait_list",
            CL_INVALID_CONTEXT,
            move || g(1, [e.done2].as_ptr()),
        );
        let want = if context_first {
            CL_INVALID_CONTEXT
        } else {
            CL_INVALID_EVENT_WAIT_LIST
        };
        self.row(
            entry,
            "order: a released event, then one of another context, in event_wait_list",
            want,
            move || f(2, [e.stale.event, e.done2].as_ptr()),
        );
    }
}

/// `code`, or SIDE_EFFECT when `ok` (the row's check of what the call did) is false.
fn expect(code: cl_int, ok: bool) -> cl_int {
    if ok {
        code
    } else {
        SIDE_EFFECT
    }
}

fn untouched(v: &[u8]) -> bool {
    v.iter().all(|&b| b == 0xAA)
}

/// A create call's errcode_ret; on error its handle must be NULL; on success the object is
/// released again.
fn created<T>(h: *mut T, err: cl_int, release: unsafe extern "C" fn(*mut T) -> cl_int) -> cl_int {
    if err != CL_SUCCESS {
        return if h.is_null() { err } else { NOT_NULL };
    }
    if h.is_null() {
        return SIDE_EFFECT;
    }
    // SAFETY: a live handle the call just returned.
    unsafe { release(h) };
    err
}

/// An enqueue with an event out-pointer: a failed call must not hand out an event ("If event is
/// NULL or the enqueue is unsuccessful, no event will be created"); a successful one's event is
/// waited for and released.
///
/// Decision: a blocking command whose wait list failed was enqueued; its event is handed out,
/// with that error as its status (api_runtime's a_failed_user_event_fails_the_commands_that_
/// wait_on_it; rusticl does the same).
fn ev(f: impl FnOnce(*mut cl_event) -> cl_int) -> cl_int {
    let mut out: cl_event = null_mut();
    let r = f(&mut out);
    if r == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST && !out.is_null() {
        let failed = event_status(out) == r;
        // SAFETY: the event the call handed out.
        unsafe { clReleaseEvent(out) };
        return expect(r, failed);
    }
    if r != CL_SUCCESS {
        return expect(r, out.is_null());
    }
    if out.is_null() {
        return SIDE_EFFECT;
    }
    // SAFETY: the event the call just handed out.
    unsafe {
        clWaitForEvents(1, &out);
        clReleaseEvent(out);
    }
    r
}

/// `n` bytes of `m` from offset 0 (blocking, on `q`).
fn bytes(q: cl_command_queue, m: cl_mem, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    // SAFETY: `v` holds the n bytes read; the read is blocking.
    let r = unsafe {
        clEnqueueReadBuffer(
            q,
            m,
            CL_TRUE,
            0,
            n,
            v.as_mut_ptr().cast(),
            0,
            null(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    v
}

/// Sets the first `n` bytes of `m` to `byte` (blocking, on `q`).
fn set_bytes(q: cl_command_queue, m: cl_mem, n: usize, byte: u8) {
    let v = vec![byte; n];
    // SAFETY: `v` holds the n bytes written; the write is blocking.
    let r = unsafe {
        clEnqueueWriteBuffer(
            q,
            m,
            CL_TRUE,
            0,
            n,
            v.as_ptr().cast(),
            0,
            null(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
}

/// A failing call on buffer `m` (`BUF` bytes) must leave its bytes: they are zeroed first,
/// and read back after the call.
fn keeps_bytes(e: Env, m: cl_mem, f: impl FnOnce() -> cl_int) -> cl_int {
    set_bytes(e.q, m, BUF, 0);
    let r = f();
    if r == CL_SUCCESS {
        return r;
    }
    // The call may have queued nothing, but let whatever it queued run before reading.
    // SAFETY: a live queue.
    unsafe { clFinish(e.q) };
    expect(r, bytes(e.q, m, BUF).iter().all(|&b| b == 0))
}

fn ref_count(m: cl_mem) -> cl_uint {
    let mut n: cl_uint = 0;
    // SAFETY: an out-pointer of the size passed.
    let r = unsafe {
        clGetMemObjectInfo(
            m,
            CL_MEM_REFERENCE_COUNT,
            4,
            (&raw mut n).cast(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    n
}

fn map_count(m: cl_mem) -> cl_uint {
    let mut n: cl_uint = 0;
    // SAFETY: an out-pointer of the size passed.
    let r = unsafe { clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, 4, (&raw mut n).cast(), null_mut()) };
    assert_eq!(r, CL_SUCCESS);
    n
}

fn user_event(ctx: cl_context, status: Option<cl_int>) -> cl_event {
    let mut err = 0;
    // SAFETY: a live context; an out-pointer.
    unsafe {
        let u = clCreateUserEvent(ctx, &mut err);
        assert_eq!(err, CL_SUCCESS);
        if let Some(s) = status {
            assert_eq!(clSetUserEventStatus(u, s), CL_SUCCESS);
        }
        u
    }
}

fn event_status(e: cl_event) -> cl_int {
    let mut s: cl_int = 0;
    // SAFETY: an out-pointer of the size passed.
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

unsafe extern "C" fn ctx_notify(_: *const c_char, _: *const c_void, _: usize, _: *mut c_void) {}
unsafe extern "C" fn ctx_gone(_: cl_context, _: *mut c_void) {}
unsafe extern "C" fn mem_gone(_: cl_mem, _: *mut c_void) {}
unsafe extern "C" fn program_done(_: cl_program, _: *mut c_void) {}
unsafe extern "C" fn event_seen(_: cl_event, _: cl_int, _: *mut c_void) {}

/// Any non-NULL pointer, for user_data.
fn data() -> *mut c_void {
    std::ptr::NonNull::<u64>::dangling().as_ptr().cast()
}

/// Bytes in each buffer of the environment.
const BUF: usize = 1024;

const SOURCE: &str = r#"
kernel void fill(global int *out, int v) { out[get_global_id(0)] = v; }
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void fixed(global int *out) { out[get_global_id(0)] = 1; }
kernel void scratch(global int *out, local int *tmp) {
    tmp[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[0];
}
"#;

/// Objects released to zero: their stale handles.
#[derive(Clone, Copy)]
struct Stale {
    ctx: cl_context,
    q: cl_command_queue,
    mem: cl_mem,
    prog: cl_program,
    kernel: cl_kernel,
    event: cl_event,
}

/// Everything the rows use (handles are plain pointers: every closure takes a copy).
#[derive(Clone, Copy)]
struct Env {
    p: cl_platform_id,
    d: cl_device_id,
    ctx: cl_context,
    /// In order, on ctx.
    q: cl_command_queue,
    /// Profiling enabled, on ctx.
    qp: cl_command_queue,
    /// In order, on a second context (whose buffer is buf2, whose event is done2).
    q2: cl_command_queue,
    /// BUF bytes, read-write, in ctx.
    buf: cl_mem,
    /// BUF bytes in ctx2.
    buf2: cl_mem,
    /// Bytes 128..384 of buf.
    sub: cl_mem,
    /// CL_MEM_WRITE_ONLY (the kernel's access).
    wo: cl_mem,
    host_ro: cl_mem,
    host_wo: cl_mem,
    host_na: cl_mem,
    max_alloc: u64,
    /// A user event of ctx, CL_COMPLETE.
    done: cl_event,
    /// A user event of ctx2, CL_COMPLETE.
    done2: cl_event,
    /// A user event of ctx whose status is an error (-1).
    failed: cl_event,
    /// A completed marker on q: a command's event, not a user event.
    marker: cl_event,
    /// A completed marker on qp.
    profiled: cl_event,
    /// Built from SOURCE with -cl-kernel-arg-info; kernels attached.
    prog: cl_program,
    /// Created from SOURCE, never built.
    unbuilt: cl_program,
    /// Created from SPIR-V (tests/spirv/spec_constants.spvasm), built.
    il: cl_program,
    il_bytes: &'static [u8],
    /// Created with clCreateProgramWithBinary from the SPIR-V: a compiled object.
    object: cl_program,
    /// clLinkProgram -create-library of `object`.
    linked: cl_program,
    /// prog's executable binary (CL_PROGRAM_BINARIES).
    binary: &'static [u8],
    /// fill(out = buf, v = 7).
    k: cl_kernel,
    /// fill, no argument set.
    k_unset: cl_kernel,
    /// fixed (reqd_work_group_size(4, 1, 1)), out = buf.
    k_fixed: cl_kernel,
    /// scratch, out = buf, tmp 16 bytes.
    k_local: cl_kernel,
    /// scratch, tmp larger than the device's local memory.
    k_big: cl_kernel,
    /// The IL program's kernel: no argument information.
    k_il: cl_kernel,
    stale: Stale,
}

impl Env {
    fn bad_ctx(&self) -> Bad<_cl_context> {
        Bad {
            wrong: self.q.cast(),
            wrong_is: "command-queue",
            released: self.stale.ctx,
            released_is: "context",
        }
    }
    fn bad_queue(&self) -> Bad<_cl_command_queue> {
        Bad {
            wrong: self.buf.cast(),
            wrong_is: "buffer",
            released: self.stale.q,
            released_is: "command-queue",
        }
    }
    fn bad_mem(&self) -> Bad<_cl_mem> {
        Bad {
            wrong: self.ctx.cast(),
            wrong_is: "context",
            released: self.stale.mem,
            released_is: "buffer",
        }
    }
    fn bad_program(&self) -> Bad<_cl_program> {
        Bad {
            wrong: self.k.cast(),
            wrong_is: "kernel",
            released: self.stale.prog,
            released_is: "program",
        }
    }
    fn bad_kernel(&self) -> Bad<_cl_kernel> {
        Bad {
            wrong: self.prog.cast(),
            wrong_is: "program",
            released: self.stale.kernel,
            released_is: "kernel",
        }
    }
    fn bad_event(&self) -> Bad<_cl_event> {
        Bad {
            wrong: self.buf.cast(),
            wrong_is: "buffer",
            released: self.stale.event,
            released_is: "event",
        }
    }
    fn bad_device(&self) -> Bad<_cl_device_id> {
        Bad {
            wrong: self.ctx.cast(),
            wrong_is: "context",
            released: self.stale.ctx.cast(),
            released_is: "context",
        }
    }
    fn bad_platform(&self) -> Bad<_cl_platform_id> {
        Bad {
            wrong: self.d.cast(),
            wrong_is: "device",
            released: self.stale.ctx.cast(),
            released_is: "context",
        }
    }
    fn bad_sampler(&self) -> Bad<_cl_sampler> {
        Bad {
            wrong: self.buf.cast(),
            wrong_is: "buffer",
            released: self.stale.mem.cast(),
            released_is: "buffer",
        }
    }
}

fn spirv_module() -> Vec<u8> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/spirv/spec_constants.spvasm");
    let out = std::env::temp_dir().join(format!("gencl-validation-{}.spv", std::process::id()));
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

fn env() -> Env {
    let (d, ctx, q) = api_common::setup();
    let mut err = 0;
    // SAFETY: valid handles and out-pointers throughout; host pointers cover the sizes passed.
    unsafe {
        let mut p = null_mut();
        assert_eq!(clGetPlatformIDs(1, &mut p, null_mut()), CL_SUCCESS);
        let props = [CL_QUEUE_PROPERTIES as u64, CL_QUEUE_PROFILING_ENABLE, 0];
        let qp = clCreateCommandQueueWithProperties(ctx, d, props.as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let ctx2 = clCreateContext(null(), 1, &d, None, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let q2 = clCreateCommandQueueWithProperties(ctx2, d, null(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let buffer = |c, flags| {
            let mut err = 0;
            let m = clCreateBuffer(c, flags, BUF, null_mut(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            m
        };
        let buf = buffer(ctx, CL_MEM_READ_WRITE);
        let region = cl_buffer_region {
            origin: 128,
            size: 256,
        };
        let sub = clCreateSubBuffer(
            buf,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&raw const region).cast(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        let mut max_alloc = 0u64;
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                8,
                (&raw mut max_alloc).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );

        let mut marker = null_mut();
        assert_eq!(
            clEnqueueMarkerWithWaitList(q, 0, null(), &mut marker),
            CL_SUCCESS
        );
        let mut profiled = null_mut();
        assert_eq!(
            clEnqueueMarkerWithWaitList(qp, 0, null(), &mut profiled),
            CL_SUCCESS
        );
        assert_eq!(clWaitForEvents(1, &marker), CL_SUCCESS);
        assert_eq!(clWaitForEvents(1, &profiled), CL_SUCCESS);

        // Programs.
        let src = CString::new(SOURCE).unwrap();
        let source_program = || {
            let mut err = 0;
            let mut s = src.as_ptr();
            let p = clCreateProgramWithSource(ctx, 1, &mut s, null(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            p
        };
        let prog = source_program();
        let opts = CString::new("-cl-kernel-arg-info").unwrap();
        let r = clBuildProgram(prog, 1, &d, opts.as_ptr(), None, null_mut());
        assert_eq!(r, CL_SUCCESS, "{}", api_common::build_log(prog, d));
        let unbuilt = source_program();
        let il_bytes: &'static [u8] = Vec::leak(spirv_module());
        let il = clCreateProgramWithIL(ctx, il_bytes.as_ptr().cast(), il_bytes.len(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            clBuildProgram(il, 0, null(), null(), None, null_mut()),
            CL_SUCCESS
        );
        let binary: &'static [u8] = Vec::leak(api_common::binary_of(prog));
        let len = il_bytes.len();
        let mut bin = il_bytes.as_ptr();
        let object = clCreateProgramWithBinary(ctx, 1, &d, &len, &mut bin, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let lib = CString::new("-create-library").unwrap();
        let linked = clLinkProgram(
            ctx,
            0,
            null(),
            lib.as_ptr(),
            1,
            &object,
            None,
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);

        // Kernels.
        let kernel = |p, name: &str| {
            let mut err = 0;
            let n = CString::new(name).unwrap();
            let k = clCreateKernel(p, n.as_ptr(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            k
        };
        let seven = 7i32;
        let k = kernel(prog, "fill");
        assert_eq!(clSetKernelArg(k, 0, 8, (&raw const buf).cast()), CL_SUCCESS);
        assert_eq!(
            clSetKernelArg(k, 1, 4, (&raw const seven).cast()),
            CL_SUCCESS
        );
        let k_unset = kernel(prog, "fill");
        let k_fixed = kernel(prog, "fixed");
        assert_eq!(
            clSetKernelArg(k_fixed, 0, 8, (&raw const buf).cast()),
            CL_SUCCESS
        );
        let k_local = kernel(prog, "scratch");
        assert_eq!(
            clSetKernelArg(k_local, 0, 8, (&raw const buf).cast()),
            CL_SUCCESS
        );
        assert_eq!(clSetKernelArg(k_local, 1, 16, null()), CL_SUCCESS);
        let k_big = kernel(prog, "scratch");
        assert_eq!(
            clSetKernelArg(k_big, 0, 8, (&raw const buf).cast()),
            CL_SUCCESS
        );
        assert_eq!(clSetKernelArg(k_big, 1, 1 << 20, null()), CL_SUCCESS);
        let k_il = kernel(il, "spec");

        // Released objects.
        let stale_ctx = clCreateContext(null(), 1, &d, None, null_mut(), &mut err);
        assert_eq!(clReleaseContext(stale_ctx), CL_SUCCESS);
        let stale_q = clCreateCommandQueueWithProperties(ctx, d, null(), &mut err);
        assert_eq!(clReleaseCommandQueue(stale_q), CL_SUCCESS);
        let stale_mem = buffer(ctx, CL_MEM_READ_WRITE);
        assert_eq!(clReleaseMemObject(stale_mem), CL_SUCCESS);
        let stale_prog = source_program();
        assert_eq!(clReleaseProgram(stale_prog), CL_SUCCESS);
        let stale_kernel = kernel(prog, "fill");
        assert_eq!(clReleaseKernel(stale_kernel), CL_SUCCESS);
        let stale_event = user_event(ctx, None);
        assert_eq!(clReleaseEvent(stale_event), CL_SUCCESS);

        Env {
            p,
            d,
            ctx,
            q,
            qp,
            q2,
            buf,
            buf2: buffer(ctx2, CL_MEM_READ_WRITE),
            sub,
            wo: buffer(ctx, CL_MEM_WRITE_ONLY),
            host_ro: buffer(ctx, CL_MEM_HOST_READ_ONLY),
            host_wo: buffer(ctx, CL_MEM_HOST_WRITE_ONLY),
            host_na: buffer(ctx, CL_MEM_HOST_NO_ACCESS),
            max_alloc,
            done: user_event(ctx, Some(CL_COMPLETE)),
            done2: user_event(ctx2, Some(CL_COMPLETE)),
            failed: user_event(ctx, Some(-1)),
            marker,
            profiled,
            prog,
            unbuilt,
            il,
            il_bytes,
            object,
            linked,
            binary,
            k,
            k_unset,
            k_fixed,
            k_local,
            k_big,
            k_il,
            stale: Stale {
                ctx: stale_ctx,
                q: stale_q,
                mem: stale_mem,
                prog: stale_prog,
                kernel: stale_kernel,
                event: stale_event,
            },
        }
    }
}

/// Entry points without rows, and why.
const NO_ROWS: &[(&str, &str)] = &[
    (
        "clGetExtensionFunctionAddress",
        "returns a pointer and no error code (NULL for an unknown name)",
    ),
    (
        "clGetExtensionFunctionAddressForPlatform",
        "returns a pointer and no error code (NULL for an invalid platform or unknown name)",
    ),
];

/// The names of driver/src/api/entry.rs's `pub use` lists that start with `cl`.
fn entry_points() -> Vec<String> {
    let text = include_str!("../src/api/entry.rs");
    let mut names = Vec::new();
    for stmt in text.split(';') {
        let Some(at) = stmt.find("pub use") else {
            continue;
        };
        for word in stmt[at..].split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.starts_with("cl") && word[2..].starts_with(|c: char| c.is_ascii_uppercase()) {
                names.push(word.to_string());
            }
        }
    }
    names
}

fn code_name(c: cl_int) -> String {
    macro_rules! names {
        ($($n:ident),* $(,)?) => {
            match c {
                $($n => stringify!($n).to_string(),)*
                SIDE_EFFECT => "SIDE_EFFECT (the right code, but the call changed what it must not)".into(),
                NOT_NULL => "NOT_NULL (a failed create returned a handle)".into(),
                _ => format!("{c}"),
            }
        };
    }
    names!(
        CL_SUCCESS,
        CL_DEVICE_NOT_FOUND,
        CL_DEVICE_NOT_AVAILABLE,
        CL_COMPILER_NOT_AVAILABLE,
        CL_MEM_OBJECT_ALLOCATION_FAILURE,
        CL_OUT_OF_RESOURCES,
        CL_OUT_OF_HOST_MEMORY,
        CL_PROFILING_INFO_NOT_AVAILABLE,
        CL_MEM_COPY_OVERLAP,
        CL_BUILD_PROGRAM_FAILURE,
        CL_MAP_FAILURE,
        CL_MISALIGNED_SUB_BUFFER_OFFSET,
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        CL_COMPILE_PROGRAM_FAILURE,
        CL_LINK_PROGRAM_FAILURE,
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
        CL_INVALID_VALUE,
        CL_INVALID_DEVICE_TYPE,
        CL_INVALID_PLATFORM,
        CL_INVALID_DEVICE,
        CL_INVALID_CONTEXT,
        CL_INVALID_QUEUE_PROPERTIES,
        CL_INVALID_COMMAND_QUEUE,
        CL_INVALID_HOST_PTR,
        CL_INVALID_MEM_OBJECT,
        CL_INVALID_SAMPLER,
        CL_INVALID_BINARY,
        CL_INVALID_BUILD_OPTIONS,
        CL_INVALID_PROGRAM,
        CL_INVALID_PROGRAM_EXECUTABLE,
        CL_INVALID_KERNEL_NAME,
        CL_INVALID_KERNEL,
        CL_INVALID_ARG_INDEX,
        CL_INVALID_ARG_VALUE,
        CL_INVALID_ARG_SIZE,
        CL_INVALID_KERNEL_ARGS,
        CL_INVALID_WORK_DIMENSION,
        CL_INVALID_WORK_GROUP_SIZE,
        CL_INVALID_WORK_ITEM_SIZE,
        CL_INVALID_GLOBAL_OFFSET,
        CL_INVALID_EVENT_WAIT_LIST,
        CL_INVALID_EVENT,
        CL_INVALID_OPERATION,
        CL_INVALID_BUFFER_SIZE,
        CL_INVALID_GLOBAL_WORK_SIZE,
        CL_INVALID_PROPERTY,
        CL_INVALID_COMPILER_OPTIONS,
        CL_INVALID_LINKER_OPTIONS,
        CL_INVALID_SPEC_ID,
        CL_PLATFORM_NOT_FOUND_KHR,
    )
}

#[test]
fn every_entry_point_validates_in_the_spec_order() {
    let e = env();
    let mut t = Table::default();
    platform_rows(&mut t, e);
    device_rows(&mut t, e);
    context_rows(&mut t, e);
    queue_rows(&mut t, e);
    memory_rows(&mut t, e);
    image_rows(&mut t, e);
    image_api_rows(&mut t, e);
    transfer_rows(&mut t, e);
    map_rows(&mut t, e);
    program_rows(&mut t, e);
    kernel_rows(&mut t, e);
    launch_rows(&mut t, e);
    event_rows(&mut t, e);
    marker_rows(&mut t, e);

    // Every entry point has rows (or a reason not to), and every row names an entry point.
    let names = entry_points();
    assert!(names.len() > 80, "entry.rs parsed badly: {names:?}");
    let mut missing = Vec::new();
    for n in &names {
        let has_rows = t.0.iter().any(|r| r.entry == n.as_str());
        let excused = NO_ROWS.iter().any(|(x, _)| x == n);
        if !has_rows && !excused {
            missing.push(n.clone());
        }
    }
    let unknown: Vec<_> =
        t.0.iter()
            .map(|r| r.entry)
            .filter(|x| !names.iter().any(|n| n == x))
            .collect();
    // Every entry point whose rows expect two or more different errors has an "order:" row.
    let mut no_order = Vec::new();
    for n in &names {
        let rows: Vec<&Row> = t.0.iter().filter(|r| r.entry == n.as_str()).collect();
        let mut codes: Vec<cl_int> = rows
            .iter()
            .map(|r| r.want)
            .filter(|&w| w != CL_SUCCESS)
            .collect();
        codes.sort_unstable();
        codes.dedup();
        if codes.len() >= 2 && !rows.iter().any(|r| r.what.starts_with("order:")) {
            no_order.push(n.clone());
        }
    }

    let mut failed = Vec::new();
    for r in &t.0 {
        let got = (r.call)();
        if got != r.want {
            failed.push(format!(
                "{}: {}: got {}, want {}",
                r.entry,
                r.what,
                code_name(got),
                code_name(r.want)
            ));
        }
    }
    let with_rows = names
        .iter()
        .filter(|n| t.0.iter().any(|r| r.entry == n.as_str()))
        .count();
    println!(
        "{} rows over {} entry points ({} in entry.rs, {} without rows)",
        t.0.len(),
        with_rows,
        names.len(),
        NO_ROWS.len()
    );
    for f in &failed {
        println!("FAIL {f}");
    }
    assert!(
        missing.is_empty(),
        "entry points without a table: {missing:?}"
    );
    assert!(unknown.is_empty(), "rows of no entry point: {unknown:?}");
    assert!(
        no_order.is_empty(),
        "entry points with two or more errors and no order: row: {no_order:?}"
    );
    assert!(
        failed.is_empty(),
        "{} of {} rows failed:\n{}",
        failed.len(),
        t.0.len(),
        failed.join("\n")
    );
}

// SAFETY (every `unsafe` block below that builds rows): the calls pass pointers valid for the
// sizes and counts given, and handles that are NULL, live, or stale on purpose: gencl checks a
// handle against its registry of live objects before any use, so a stale one is never
// dereferenced (driver/src/api/object.rs).

fn platform_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        // clGetPlatformIDs and clIcdGetPlatformIDsKHR: "CL_INVALID_VALUE if num_entries is
        // equal to zero and platforms is not NULL or if both num_platforms and platforms are
        // NULL." (cl_khr_icd's CL_PLATFORM_NOT_FOUND_KHR cannot happen: there is a platform.)
        type GetIds = unsafe extern "C" fn(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int;
        let ids: [(&'static str, GetIds); 2] = [
            ("clGetPlatformIDs", clGetPlatformIDs),
            ("clIcdGetPlatformIDsKHR", clIcdGetPlatformIDsKHR),
        ];
        for (entry, f) in ids {
            t.row(
                entry,
                "num_entries 0 with platforms (platforms untouched)",
                CL_INVALID_VALUE,
                move || {
                    let mut p = [data().cast::<_cl_platform_id>()];
                    let mut n = 9;
                    let r = f(0, p.as_mut_ptr(), &mut n);
                    expect(r, p[0] == data().cast() && n == 9)
                },
            );
            t.row(
                entry,
                "platforms and num_platforms NULL",
                CL_INVALID_VALUE,
                move || f(1, null_mut(), null_mut()),
            );
            t.row(entry, "one platform asked for", CL_SUCCESS, move || {
                let mut p = null_mut();
                let mut n = 0;
                let r = f(1, &mut p, &mut n);
                expect(r, p == e.p && n == 1)
            });
        }

        // clGetPlatformInfo: "platform refers to the platform ID returned by clGetPlatformIDs
        // or can be NULL. If platform is NULL, the behavior is implementation-defined."
        // Decision: gencl's only platform.
        let f = move |p: cl_platform_id, n, s, v, r| clGetPlatformInfo(p, n, s, v, r);
        t.row(
            "clGetPlatformInfo",
            "platform NULL: implementation-defined, gencl's only platform",
            CL_SUCCESS,
            move || f(null_mut(), CL_PLATFORM_NAME, 0, null_mut(), &mut 0),
        );
        // "CL_INVALID_PLATFORM if platform is not a valid platform."
        let b = e.bad_platform();
        t.row(
            "clGetPlatformInfo",
            "platform is a live device",
            CL_INVALID_PLATFORM,
            move || f(b.wrong, CL_PLATFORM_NAME, 0, null_mut(), &mut 0),
        );
        t.row(
            "clGetPlatformInfo",
            "platform is a released context",
            CL_INVALID_PLATFORM,
            move || f(b.released, CL_PLATFORM_NAME, 0, null_mut(), &mut 0),
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Platform Queries table and param_value is not NULL."
        t.info("clGetPlatformInfo", CL_PLATFORM_NAME, move |n, s, v, r| {
            f(e.p, n, s, v, r)
        });
        t.row(
            "clGetPlatformInfo",
            "order: a device as platform and an unknown param_name",
            CL_INVALID_PLATFORM,
            move || f(e.d.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clUnloadPlatformCompiler: "CL_INVALID_PLATFORM if platform is not a valid platform."
        // (No NULL default here: the spec allows none.)
        t.handle(
            "clUnloadPlatformCompiler",
            "platform",
            CL_INVALID_PLATFORM,
            e.bad_platform(),
            |p| clUnloadPlatformCompiler(p),
        );
        t.row(
            "clUnloadPlatformCompiler",
            "the platform",
            CL_SUCCESS,
            move || clUnloadPlatformCompiler(e.p),
        );
        // "clUnloadCompiler will always return CL_SUCCESS."
        t.row("clUnloadCompiler", "always", CL_SUCCESS, || {
            clUnloadCompiler()
        });
    }
}

fn device_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let ids = move |p: cl_platform_id, ty: cl_device_type, n: cl_uint, with: bool| {
            let mut d = [data().cast::<_cl_device_id>()];
            let mut num = 9;
            let r = clGetDeviceIDs(
                p,
                ty,
                n,
                if with { d.as_mut_ptr() } else { null_mut() },
                &mut num,
            );
            // A failed call writes no device (and num_devices only when none was found).
            match r {
                CL_SUCCESS => expect(r, !with || d[0] == e.d),
                CL_DEVICE_NOT_FOUND => expect(r, d[0] == data().cast()),
                _ => expect(r, d[0] == data().cast() && num == 9),
            }
        };
        let gpu = CL_DEVICE_TYPE_GPU;
        // "platform refers to the platform ID returned by clGetPlatformIDs or can be NULL. If
        // platform is NULL, the behavior is implementation-defined." Decision: gencl's only
        // platform.
        t.row(
            "clGetDeviceIDs",
            "platform NULL: implementation-defined, gencl's only platform",
            CL_SUCCESS,
            move || ids(null_mut(), gpu, 1, true),
        );
        // "CL_INVALID_PLATFORM if platform is not a valid platform."
        let b = e.bad_platform();
        t.row(
            "clGetDeviceIDs",
            "platform is a live device",
            CL_INVALID_PLATFORM,
            move || ids(b.wrong, gpu, 1, true),
        );
        t.row(
            "clGetDeviceIDs",
            "platform is a released context",
            CL_INVALID_PLATFORM,
            move || ids(b.released, gpu, 1, true),
        );
        // "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
        t.row(
            "clGetDeviceIDs",
            "device_type 0",
            CL_INVALID_DEVICE_TYPE,
            move || ids(e.p, 0, 1, true),
        );
        t.row(
            "clGetDeviceIDs",
            "device_type with an unknown bit",
            CL_INVALID_DEVICE_TYPE,
            move || ids(e.p, 1 << 40, 1, true),
        );
        // "CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL or if both
        // num_devices and devices are NULL."
        t.row(
            "clGetDeviceIDs",
            "num_entries 0 with devices",
            CL_INVALID_VALUE,
            move || ids(e.p, gpu, 0, true),
        );
        t.row(
            "clGetDeviceIDs",
            "devices and num_devices NULL",
            CL_INVALID_VALUE,
            move || clGetDeviceIDs(e.p, gpu, 1, null_mut(), null_mut()),
        );
        // "CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found."
        t.row(
            "clGetDeviceIDs",
            "device_type CPU (num_devices 0)",
            CL_DEVICE_NOT_FOUND,
            move || ids(e.p, CL_DEVICE_TYPE_CPU, 1, true),
        );
        t.row(
            "clGetDeviceIDs",
            "order: a device as platform and device_type 0",
            CL_INVALID_PLATFORM,
            move || ids(e.d.cast(), 0, 1, true),
        );
        t.row(
            "clGetDeviceIDs",
            "order: device_type 0 and num_entries 0 with devices",
            CL_INVALID_DEVICE_TYPE,
            move || ids(e.p, 0, 0, true),
        );
        t.row(
            "clGetDeviceIDs",
            "order: num_entries 0 with devices, device_type CPU",
            CL_INVALID_VALUE,
            move || ids(e.p, CL_DEVICE_TYPE_CPU, 0, true),
        );

        // clGetDeviceInfo: "CL_INVALID_DEVICE if device is not a valid device."
        t.handle(
            "clGetDeviceInfo",
            "device",
            CL_INVALID_DEVICE,
            e.bad_device(),
            |d| clGetDeviceInfo(d, CL_DEVICE_NAME, 0, null_mut(), &mut 0),
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Device Queries table and param_value is not NULL."
        t.info(
            "clGetDeviceInfo",
            CL_DEVICE_MAX_COMPUTE_UNITS,
            move |n, s, v, r| clGetDeviceInfo(e.d, n, s, v, r),
        );
        t.row(
            "clGetDeviceInfo",
            "order: a context as device and an unknown param_name",
            CL_INVALID_DEVICE,
            move || clGetDeviceInfo(e.ctx.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clRetainDevice, clReleaseDevice: "CL_INVALID_DEVICE if device is not a valid device."
        // (The root device's count "remains unchanged".)
        type DevFn = unsafe extern "C" fn(cl_device_id) -> cl_int;
        let rr: [(&'static str, DevFn); 2] = [
            ("clRetainDevice", clRetainDevice),
            ("clReleaseDevice", clReleaseDevice),
        ];
        for (entry, f) in rr {
            t.handle(
                entry,
                "device",
                CL_INVALID_DEVICE,
                e.bad_device(),
                move |d| f(d),
            );
            t.row(entry, "the root device", CL_SUCCESS, move || f(e.d));
        }

        // clGetDeviceAndHostTimer: "CL_INVALID_DEVICE if device is not a valid device."
        // "CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL."
        // (CL_INVALID_OPERATION "if the platform associated with device does not support device
        // and host timer synchronization" cannot happen: it does.)
        let both = move |d: cl_device_id, dev: bool, host: bool| {
            let (mut a, mut b) = (0u64, 0u64);
            clGetDeviceAndHostTimer(
                d,
                if dev { &mut a } else { null_mut() },
                if host { &mut b } else { null_mut() },
            )
        };
        t.handle(
            "clGetDeviceAndHostTimer",
            "device",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |d| both(d, true, true),
        );
        t.row(
            "clGetDeviceAndHostTimer",
            "device_timestamp NULL",
            CL_INVALID_VALUE,
            move || both(e.d, false, true),
        );
        t.row(
            "clGetDeviceAndHostTimer",
            "host_timestamp NULL",
            CL_INVALID_VALUE,
            move || both(e.d, true, false),
        );
        t.row(
            "clGetDeviceAndHostTimer",
            "order: device NULL and both timestamps NULL",
            CL_INVALID_DEVICE,
            move || both(null_mut(), false, false),
        );
        t.row(
            "clGetDeviceAndHostTimer",
            "the device",
            CL_SUCCESS,
            move || both(e.d, true, true),
        );
        // clGetHostTimer: "CL_INVALID_DEVICE if device is not a valid device."
        // "CL_INVALID_VALUE if host_timestamp is NULL."
        t.handle(
            "clGetHostTimer",
            "device",
            CL_INVALID_DEVICE,
            e.bad_device(),
            |d| clGetHostTimer(d, &mut 0),
        );
        t.row(
            "clGetHostTimer",
            "host_timestamp NULL",
            CL_INVALID_VALUE,
            move || clGetHostTimer(e.d, null_mut()),
        );
        t.row(
            "clGetHostTimer",
            "order: device NULL and host_timestamp NULL",
            CL_INVALID_DEVICE,
            || clGetHostTimer(null_mut(), null_mut()),
        );
    }
}

fn context_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let create = move |props: &[cl_context_properties],
                           devices: &[cl_device_id],
                           n: cl_uint,
                           notify: ContextNotify,
                           user: *mut c_void| {
            let mut err = 0;
            let c = clCreateContext(
                if props.is_empty() {
                    null()
                } else {
                    props.as_ptr()
                },
                n,
                if devices.is_empty() {
                    null()
                } else {
                    devices.as_ptr()
                },
                notify,
                user,
                &mut err,
            );
            created(c, err, clReleaseContext)
        };
        let plat = CL_CONTEXT_PLATFORM;
        let sync = CL_CONTEXT_INTEROP_USER_SYNC;
        let p = e.p as isize;
        let d = e.d;
        // clCreateContext: "CL_INVALID_PLATFORM if no platform is specified in properties and
        // no platform could be selected, or if the platform specified in properties is not a
        // valid platform."
        for (what, v) in [
            ("NULL", 0),
            ("a live device", e.d as isize),
            ("a released context", e.stale.ctx as isize),
        ] {
            t.row(
                "clCreateContext",
                format!("CL_CONTEXT_PLATFORM {what}"),
                CL_INVALID_PLATFORM,
                move || create(&[plat, v, 0], &[d], 1, None, null_mut()),
            );
        }
        // "CL_INVALID_PROPERTY if a context property name in properties is not a supported
        // property name, if the value specified for a supported property name is not valid, or
        // if the same property name is specified more than once."
        t.row(
            "clCreateContext",
            "an unknown property name",
            CL_INVALID_PROPERTY,
            move || create(&[0x7777, 1, 0], &[d], 1, None, null_mut()),
        );
        t.row(
            "clCreateContext",
            "CL_CONTEXT_INTEROP_USER_SYNC 5",
            CL_INVALID_PROPERTY,
            move || create(&[sync, 5, 0], &[d], 1, None, null_mut()),
        );
        t.row(
            "clCreateContext",
            "CL_CONTEXT_PLATFORM twice",
            CL_INVALID_PROPERTY,
            move || create(&[plat, p, plat, p, 0], &[d], 1, None, null_mut()),
        );
        // "CL_INVALID_VALUE if devices is NULL." "CL_INVALID_VALUE if num_devices is equal to
        // zero." "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        t.row(
            "clCreateContext",
            "devices NULL",
            CL_INVALID_VALUE,
            move || create(&[], &[], 1, None, null_mut()),
        );
        t.row(
            "clCreateContext",
            "num_devices 0",
            CL_INVALID_VALUE,
            move || create(&[], &[d], 0, None, null_mut()),
        );
        t.row(
            "clCreateContext",
            "user_data without pfn_notify",
            CL_INVALID_VALUE,
            move || create(&[], &[d], 1, None, data()),
        );
        // "CL_INVALID_DEVICE if any device in devices is not a valid device."
        t.handle(
            "clCreateContext",
            "devices[0]",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |x| create(&[], &[x], 1, None, null_mut()),
        );
        t.row(
            "clCreateContext",
            "order: an unknown property, then CL_CONTEXT_PLATFORM a device",
            CL_INVALID_PLATFORM,
            move || create(&[0x7777, 1, plat, d as isize, 0], &[d], 1, None, null_mut()),
        );
        t.row(
            "clCreateContext",
            "order: an unknown property and devices NULL",
            CL_INVALID_PROPERTY,
            move || create(&[0x7777, 1, 0], &[], 1, None, null_mut()),
        );
        t.row(
            "clCreateContext",
            "order: user_data without pfn_notify and an invalid device",
            CL_INVALID_VALUE,
            move || create(&[], &[null_mut()], 1, None, data()),
        );
        t.row(
            "clCreateContext",
            "the platform, the device, a notification",
            CL_SUCCESS,
            move || create(&[plat, p, 0], &[d], 1, Some(ctx_notify), data()),
        );

        // clCreateContextFromType: the same property and pfn_notify rules, then
        // "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
        // "CL_DEVICE_NOT_FOUND if no devices that match device_type and property values
        // specified in properties were found."
        let from = move |props: &[cl_context_properties],
                         ty: cl_device_type,
                         notify: ContextNotify,
                         user: *mut c_void| {
            let mut err = 0;
            let c = clCreateContextFromType(
                if props.is_empty() {
                    null()
                } else {
                    props.as_ptr()
                },
                ty,
                notify,
                user,
                &mut err,
            );
            created(c, err, clReleaseContext)
        };
        let gpu = CL_DEVICE_TYPE_GPU;
        t.row(
            "clCreateContextFromType",
            "CL_CONTEXT_PLATFORM a live device",
            CL_INVALID_PLATFORM,
            move || from(&[plat, d as isize, 0], gpu, None, null_mut()),
        );
        t.row(
            "clCreateContextFromType",
            "an unknown property name",
            CL_INVALID_PROPERTY,
            move || from(&[0x7777, 1, 0], gpu, None, null_mut()),
        );
        t.row(
            "clCreateContextFromType",
            "user_data without pfn_notify",
            CL_INVALID_VALUE,
            move || from(&[], gpu, None, data()),
        );
        t.row(
            "clCreateContextFromType",
            "device_type 0",
            CL_INVALID_DEVICE_TYPE,
            move || from(&[], 0, None, null_mut()),
        );
        t.row(
            "clCreateContextFromType",
            "device_type CPU",
            CL_DEVICE_NOT_FOUND,
            move || from(&[], CL_DEVICE_TYPE_CPU, None, null_mut()),
        );
        t.row(
            "clCreateContextFromType",
            "order: an unknown property, then CL_CONTEXT_PLATFORM a device",
            CL_INVALID_PLATFORM,
            move || from(&[0x7777, 1, plat, d as isize, 0], gpu, None, null_mut()),
        );
        t.row(
            "clCreateContextFromType",
            "order: an unknown property and device_type 0",
            CL_INVALID_PROPERTY,
            move || from(&[0x7777, 1, 0], 0, None, null_mut()),
        );
        t.row(
            "clCreateContextFromType",
            "order: user_data without pfn_notify and device_type 0",
            CL_INVALID_VALUE,
            move || from(&[], 0, None, data()),
        );
        t.row(
            "clCreateContextFromType",
            "order: device_type 0 (not found either)",
            CL_INVALID_DEVICE_TYPE,
            move || from(&[], 0, None, null_mut()),
        );
        t.row("clCreateContextFromType", "a GPU", CL_SUCCESS, move || {
            from(&[plat, p, 0], gpu, None, null_mut())
        });

        // clRetainContext, clReleaseContext: "CL_INVALID_CONTEXT if context is not a valid
        // OpenCL context."
        t.handle(
            "clRetainContext",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            |c| clRetainContext(c),
        );
        t.row("clRetainContext", "the context", CL_SUCCESS, move || {
            let r = clRetainContext(e.ctx);
            clReleaseContext(e.ctx);
            r
        });
        t.handle(
            "clReleaseContext",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            |c| clReleaseContext(c),
        );
        t.row(
            "clReleaseContext",
            "a live buffer as context: the buffer's count unchanged",
            CL_INVALID_CONTEXT,
            move || {
                let before = ref_count(e.buf);
                let r = clReleaseContext(e.buf.cast());
                expect(r, ref_count(e.buf) == before)
            },
        );
        t.row("clReleaseContext", "the context", CL_SUCCESS, move || {
            clRetainContext(e.ctx);
            clReleaseContext(e.ctx)
        });

        // clGetContextInfo: "CL_INVALID_CONTEXT if context is not a valid context."
        t.handle(
            "clGetContextInfo",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            |c| clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, 0, null_mut(), &mut 0),
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Context Queries table and param_value is not NULL."
        t.info(
            "clGetContextInfo",
            CL_CONTEXT_NUM_DEVICES,
            move |n, s, v, r| clGetContextInfo(e.ctx, n, s, v, r),
        );
        t.row(
            "clGetContextInfo",
            "order: a queue as context and an unknown param_name",
            CL_INVALID_CONTEXT,
            move || clGetContextInfo(e.q.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clSetContextDestructorCallback: "CL_INVALID_CONTEXT if context is not a valid
        // context." "CL_INVALID_VALUE if pfn_notify is NULL."
        t.handle(
            "clSetContextDestructorCallback",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            |c| clSetContextDestructorCallback(c, Some(ctx_gone), null_mut()),
        );
        t.row(
            "clSetContextDestructorCallback",
            "pfn_notify NULL",
            CL_INVALID_VALUE,
            move || clSetContextDestructorCallback(e.ctx, None, null_mut()),
        );
        t.row(
            "clSetContextDestructorCallback",
            "order: context NULL and pfn_notify NULL",
            CL_INVALID_CONTEXT,
            || clSetContextDestructorCallback(null_mut(), None, null_mut()),
        );
    }
}

fn queue_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let old = move |c: cl_context, d: cl_device_id, props: cl_command_queue_properties| {
            let mut err = 0;
            let q = clCreateCommandQueue(c, d, props, &mut err);
            created(q, err, clReleaseCommandQueue)
        };
        let new = move |c: cl_context, d: cl_device_id, props: &[cl_queue_properties]| {
            let mut err = 0;
            let q = clCreateCommandQueueWithProperties(
                c,
                d,
                if props.is_empty() {
                    null()
                } else {
                    props.as_ptr()
                },
                &mut err,
            );
            created(q, err, clReleaseCommandQueue)
        };
        let qprops = CL_QUEUE_PROPERTIES as cl_queue_properties;
        let device_queue = CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
        // clCreateCommandQueue and clCreateCommandQueueWithProperties:
        // "CL_INVALID_CONTEXT if context is not a valid context."
        t.handle(
            "clCreateCommandQueue",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| old(c, e.d, 0),
        );
        t.handle(
            "clCreateCommandQueueWithProperties",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| new(c, e.d, &[]),
        );
        // "CL_INVALID_DEVICE if device is not a valid device or is not associated with
        // context."
        t.handle(
            "clCreateCommandQueue",
            "device",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |d| old(e.ctx, d, 0),
        );
        t.handle(
            "clCreateCommandQueueWithProperties",
            "device",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |d| new(e.ctx, d, &[]),
        );
        // "CL_INVALID_VALUE if values specified in properties are not valid."
        t.row(
            "clCreateCommandQueue",
            "properties with an unknown bit",
            CL_INVALID_VALUE,
            move || old(e.ctx, e.d, 1 << 20),
        );
        t.row(
            "clCreateCommandQueue",
            "properties all bits set",
            CL_INVALID_VALUE,
            move || old(e.ctx, e.d, u64::MAX),
        );
        t.row(
            "clCreateCommandQueueWithProperties",
            "CL_QUEUE_PROPERTIES with an unknown bit",
            CL_INVALID_VALUE,
            move || new(e.ctx, e.d, &[qprops, 1 << 20, 0]),
        );
        t.row(
            "clCreateCommandQueueWithProperties",
            "an unknown property name",
            CL_INVALID_VALUE,
            move || new(e.ctx, e.d, &[0x7777, 1, 0]),
        );
        // "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not
        // supported by the device."
        t.row(
            "clCreateCommandQueue",
            "an on-device queue",
            CL_INVALID_QUEUE_PROPERTIES,
            move || old(e.ctx, e.d, device_queue),
        );
        t.row(
            "clCreateCommandQueueWithProperties",
            "an on-device queue",
            CL_INVALID_QUEUE_PROPERTIES,
            move || new(e.ctx, e.d, &[qprops, device_queue, 0]),
        );
        // Decision: CL_QUEUE_SIZE is valid ("can only be specified if CL_QUEUE_ON_DEVICE is
        // set") but means nothing without device queues: CL_INVALID_QUEUE_PROPERTIES (the CTS
        // accepts it or CL_INVALID_VALUE).
        t.row(
            "clCreateCommandQueueWithProperties",
            "CL_QUEUE_SIZE",
            CL_INVALID_QUEUE_PROPERTIES,
            move || new(e.ctx, e.d, &[CL_QUEUE_SIZE as u64, 16, 0]),
        );
        t.row(
            "clCreateCommandQueue",
            "order: context NULL and device NULL",
            CL_INVALID_CONTEXT,
            move || old(null_mut(), null_mut(), 0),
        );
        t.row(
            "clCreateCommandQueue",
            "order: device NULL and an unknown bit",
            CL_INVALID_DEVICE,
            move || old(e.ctx, null_mut(), 1 << 20),
        );
        t.row(
            "clCreateCommandQueue",
            "order: an unknown bit and an on-device queue",
            CL_INVALID_VALUE,
            move || old(e.ctx, e.d, device_queue | 1 << 20),
        );
        t.row(
            "clCreateCommandQueueWithProperties",
            "order: context NULL and device NULL",
            CL_INVALID_CONTEXT,
            move || new(null_mut(), null_mut(), &[]),
        );
        t.row(
            "clCreateCommandQueueWithProperties",
            "order: device NULL and CL_QUEUE_SIZE",
            CL_INVALID_DEVICE,
            move || new(e.ctx, null_mut(), &[CL_QUEUE_SIZE as u64, 16, 0]),
        );
        t.row(
            "clCreateCommandQueueWithProperties",
            "order: CL_QUEUE_SIZE, then an unknown property name",
            CL_INVALID_VALUE,
            move || new(e.ctx, e.d, &[CL_QUEUE_SIZE as u64, 16, 0x7777, 1, 0]),
        );
        t.row("clCreateCommandQueue", "profiling", CL_SUCCESS, move || {
            old(e.ctx, e.d, CL_QUEUE_PROFILING_ENABLE)
        });
        t.row(
            "clCreateCommandQueueWithProperties",
            "out of order",
            CL_SUCCESS,
            move || {
                new(
                    e.ctx,
                    e.d,
                    &[qprops, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0],
                )
            },
        );

        // clRetainCommandQueue, clReleaseCommandQueue, clFlush, clFinish:
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." (clFlush,
        // clFinish: "... not a valid host command-queue.")
        type QFn = unsafe extern "C" fn(cl_command_queue) -> cl_int;
        let fns: [(&'static str, QFn); 4] = [
            ("clRetainCommandQueue", clRetainCommandQueue),
            ("clReleaseCommandQueue", clReleaseCommandQueue),
            ("clFlush", clFlush),
            ("clFinish", clFinish),
        ];
        for (entry, f) in fns {
            t.handle(
                entry,
                "command_queue",
                CL_INVALID_COMMAND_QUEUE,
                e.bad_queue(),
                move |q| f(q),
            );
        }
        t.row("clRetainCommandQueue", "the queue", CL_SUCCESS, move || {
            let r = clRetainCommandQueue(e.q);
            clReleaseCommandQueue(e.q);
            r
        });
        t.row(
            "clReleaseCommandQueue",
            "the queue",
            CL_SUCCESS,
            move || {
                clRetainCommandQueue(e.q);
                clReleaseCommandQueue(e.q)
            },
        );
        t.row("clFlush", "the queue", CL_SUCCESS, move || clFlush(e.q));
        t.row("clFinish", "the queue", CL_SUCCESS, move || clFinish(e.q));

        // clGetCommandQueueInfo: "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
        // command-queue, or if command_queue is not a valid command-queue for param_name."
        t.handle(
            "clGetCommandQueueInfo",
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            |q| clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 0, null_mut(), &mut 0),
        );
        t.row(
            "clGetCommandQueueInfo",
            "CL_QUEUE_SIZE of a host queue",
            CL_INVALID_COMMAND_QUEUE,
            move || clGetCommandQueueInfo(e.q, CL_QUEUE_SIZE, 0, null_mut(), &mut 0),
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Command-Queue Queries table and param_value is not NULL."
        t.info(
            "clGetCommandQueueInfo",
            CL_QUEUE_PROPERTIES,
            move |n, s, v, r| clGetCommandQueueInfo(e.q, n, s, v, r),
        );
        t.row(
            "clGetCommandQueueInfo",
            "order: a buffer as queue and an unknown param_name",
            CL_INVALID_COMMAND_QUEUE,
            move || clGetCommandQueueInfo(e.buf.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );
        t.row(
            "clGetCommandQueueInfo",
            "order: CL_QUEUE_SIZE of a host queue, param_value_size 1",
            CL_INVALID_COMMAND_QUEUE,
            move || {
                let mut v = [0u8; 8];
                clGetCommandQueueInfo(e.q, CL_QUEUE_SIZE, 1, v.as_mut_ptr().cast(), null_mut())
            },
        );
    }
}

fn memory_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let create = move |c: cl_context, flags: cl_mem_flags, size: usize, host: *mut c_void| {
            let mut err = 0;
            let m = clCreateBuffer(c, flags, size, host, &mut err);
            created(m, err, clReleaseMemObject)
        };
        let with =
            move |c: cl_context, props: &[cl_mem_properties], flags: cl_mem_flags, size: usize| {
                let mut err = 0;
                let m = clCreateBufferWithProperties(
                    c,
                    if props.is_empty() {
                        null()
                    } else {
                        props.as_ptr()
                    },
                    flags,
                    size,
                    null_mut(),
                    &mut err,
                );
                created(m, err, clReleaseMemObject)
            };
        let host = Box::leak(Box::new([0u8; 64])).as_mut_ptr().cast::<c_void>();
        // clCreateBuffer, clCreateBufferWithProperties: "CL_INVALID_CONTEXT if context is not a
        // valid context"
        t.handle(
            "clCreateBuffer",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| create(c, 0, 64, null_mut()),
        );
        t.handle(
            "clCreateBufferWithProperties",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| with(c, &[], 0, 64),
        );
        // "CL_INVALID_PROPERTY if a property name in properties is not a supported property
        // name, if the value specified for a supported property name is not valid, or if the
        // same property name is specified more than once" (OpenCL 3.0 defines none).
        t.row(
            "clCreateBufferWithProperties",
            "an unknown property name",
            CL_INVALID_PROPERTY,
            move || with(e.ctx, &[0x7777, 1, 0], 0, 64),
        );
        // "CL_INVALID_VALUE if values specified in flags are not valid as defined in the Memory
        // Flags table"
        for (what, flags) in [
            (
                "READ_WRITE | READ_ONLY",
                CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
            ),
            (
                "HOST_READ_ONLY | HOST_WRITE_ONLY",
                CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
            ),
            (
                "USE_HOST_PTR | ALLOC_HOST_PTR",
                CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
            ),
            (
                "KERNEL_READ_AND_WRITE (images only)",
                CL_MEM_KERNEL_READ_AND_WRITE,
            ),
            ("an unknown bit", 1 << 40),
        ] {
            t.row(
                "clCreateBuffer",
                format!("flags {what}"),
                CL_INVALID_VALUE,
                move || create(e.ctx, flags, 64, null_mut()),
            );
        }
        t.row(
            "clCreateBufferWithProperties",
            "flags READ_WRITE | WRITE_ONLY",
            CL_INVALID_VALUE,
            move || with(e.ctx, &[0], CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, 64),
        );
        // "CL_INVALID_BUFFER_SIZE if size is zero" "if size is greater than
        // CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context"
        t.row(
            "clCreateBuffer",
            "size 0",
            CL_INVALID_BUFFER_SIZE,
            move || create(e.ctx, 0, 0, null_mut()),
        );
        t.row(
            "clCreateBuffer",
            "size CL_DEVICE_MAX_MEM_ALLOC_SIZE + 1",
            CL_INVALID_BUFFER_SIZE,
            move || create(e.ctx, 0, e.max_alloc as usize + 1, null_mut()),
        );
        t.row(
            "clCreateBufferWithProperties",
            "size 0",
            CL_INVALID_BUFFER_SIZE,
            move || with(e.ctx, &[0], 0, 0),
        );
        // "CL_INVALID_HOST_PTR if host_ptr is NULL, and CL_MEM_USE_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR are set in flags" "if host_ptr is not NULL but
        // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags"
        t.row(
            "clCreateBuffer",
            "CL_MEM_USE_HOST_PTR without host_ptr",
            CL_INVALID_HOST_PTR,
            move || create(e.ctx, CL_MEM_USE_HOST_PTR, 64, null_mut()),
        );
        t.row(
            "clCreateBuffer",
            "CL_MEM_COPY_HOST_PTR without host_ptr",
            CL_INVALID_HOST_PTR,
            move || create(e.ctx, CL_MEM_COPY_HOST_PTR, 64, null_mut()),
        );
        t.row(
            "clCreateBuffer",
            "host_ptr without CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR",
            CL_INVALID_HOST_PTR,
            move || create(e.ctx, CL_MEM_ALLOC_HOST_PTR, 64, host),
        );
        t.row(
            "clCreateBuffer",
            "order: context NULL and size 0",
            CL_INVALID_CONTEXT,
            move || create(null_mut(), 0, 0, null_mut()),
        );
        t.row(
            "clCreateBuffer",
            "order: bad flags and size 0",
            CL_INVALID_VALUE,
            move || create(e.ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 0, null_mut()),
        );
        t.row(
            "clCreateBuffer",
            "order: size 0 and CL_MEM_USE_HOST_PTR without host_ptr",
            CL_INVALID_BUFFER_SIZE,
            move || create(e.ctx, CL_MEM_USE_HOST_PTR, 0, null_mut()),
        );
        t.row(
            "clCreateBufferWithProperties",
            "order: context NULL and an unknown property",
            CL_INVALID_CONTEXT,
            move || with(null_mut(), &[0x7777, 1, 0], 0, 64),
        );
        t.row(
            "clCreateBufferWithProperties",
            "order: an unknown property and bad flags",
            CL_INVALID_PROPERTY,
            move || {
                with(
                    e.ctx,
                    &[0x7777, 1, 0],
                    CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
                    64,
                )
            },
        );
        t.row("clCreateBuffer", "a host copy", CL_SUCCESS, move || {
            create(e.ctx, CL_MEM_COPY_HOST_PTR, 64, host)
        });
        t.row(
            "clCreateBufferWithProperties",
            "an empty property list",
            CL_SUCCESS,
            move || with(e.ctx, &[0], 0, 64),
        );

        // clCreateSubBuffer.
        let sub = move |m: cl_mem, flags: cl_mem_flags, origin: usize, size: usize| {
            let r = cl_buffer_region { origin, size };
            let mut err = 0;
            let s = clCreateSubBuffer(
                m,
                flags,
                CL_BUFFER_CREATE_TYPE_REGION,
                (&raw const r).cast(),
                &mut err,
            );
            created(s, err, clReleaseMemObject)
        };
        // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a sub-buffer
        // object."
        t.handle(
            "clCreateSubBuffer",
            "buffer",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| sub(m, 0, 0, 64),
        );
        t.row(
            "clCreateSubBuffer",
            "buffer is a sub-buffer",
            CL_INVALID_MEM_OBJECT,
            move || sub(e.sub, 0, 0, 64),
        );
        // "CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags specifies
        // CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was created with CL_MEM_READ_ONLY
        // and flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, or if flags specifies
        // CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR."
        t.row(
            "clCreateSubBuffer",
            "CL_MEM_READ_ONLY of a CL_MEM_WRITE_ONLY buffer",
            CL_INVALID_VALUE,
            move || sub(e.wo, CL_MEM_READ_ONLY, 0, 64),
        );
        t.row(
            "clCreateSubBuffer",
            "flags CL_MEM_ALLOC_HOST_PTR",
            CL_INVALID_VALUE,
            move || sub(e.buf, CL_MEM_ALLOC_HOST_PTR, 0, 64),
        );
        // "CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY and flags specify
        // CL_MEM_HOST_READ_ONLY, or if buffer was created with CL_MEM_HOST_READ_ONLY and flags
        // specify CL_MEM_HOST_WRITE_ONLY, or if buffer was created with CL_MEM_HOST_NO_ACCESS
        // and flags specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY."
        t.row(
            "clCreateSubBuffer",
            "CL_MEM_HOST_READ_ONLY of a CL_MEM_HOST_WRITE_ONLY buffer",
            CL_INVALID_VALUE,
            move || sub(e.host_wo, CL_MEM_HOST_READ_ONLY, 0, 64),
        );
        t.row(
            "clCreateSubBuffer",
            "CL_MEM_HOST_WRITE_ONLY of a CL_MEM_HOST_NO_ACCESS buffer",
            CL_INVALID_VALUE,
            move || sub(e.host_na, CL_MEM_HOST_WRITE_ONLY, 0, 64),
        );
        // "CL_INVALID_VALUE if the value specified in buffer_create_type is not valid."
        // "CL_INVALID_VALUE if value(s) specified in buffer_create_info (for a given
        // buffer_create_type) is not valid or if buffer_create_info is NULL."
        t.row(
            "clCreateSubBuffer",
            "an unknown buffer_create_type",
            CL_INVALID_VALUE,
            move || {
                let r = cl_buffer_region {
                    origin: 0,
                    size: 64,
                };
                let mut err = 0;
                let s = clCreateSubBuffer(e.buf, 0, 0x7777, (&raw const r).cast(), &mut err);
                created(s, err, clReleaseMemObject)
            },
        );
        let null_info = move |m: cl_mem, flags: cl_mem_flags| {
            let mut err = 0;
            let s = clCreateSubBuffer(m, flags, CL_BUFFER_CREATE_TYPE_REGION, null(), &mut err);
            created(s, err, clReleaseMemObject)
        };
        t.row(
            "clCreateSubBuffer",
            "buffer_create_info NULL",
            CL_INVALID_VALUE,
            move || null_info(e.buf, 0),
        );
        // "CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed
        // in buffer_create_info is out of bounds in buffer."
        t.row(
            "clCreateSubBuffer",
            "a region past the end",
            CL_INVALID_VALUE,
            move || sub(e.buf, 0, BUF - 64, 128),
        );
        t.row(
            "clCreateSubBuffer",
            "a region whose end overflows",
            CL_INVALID_VALUE,
            move || sub(e.buf, 0, 128, usize::MAX),
        );
        // "CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region structure passed
        // in buffer_create_info is 0."
        t.row(
            "clCreateSubBuffer",
            "size 0",
            CL_INVALID_BUFFER_SIZE,
            move || sub(e.buf, 0, 0, 0),
        );
        // "CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context associated with
        // buffer for which the origin field of the cl_buffer_region structure passed in
        // buffer_create_info is aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value."
        t.row(
            "clCreateSubBuffer",
            "origin 4",
            CL_MISALIGNED_SUB_BUFFER_OFFSET,
            move || sub(e.buf, 0, 4, 64),
        );
        t.row(
            "clCreateSubBuffer",
            "order: a sub-buffer as buffer and bad flags",
            CL_INVALID_MEM_OBJECT,
            move || sub(e.sub, CL_MEM_USE_HOST_PTR, 0, 64),
        );
        t.row(
            "clCreateSubBuffer",
            "order: bad flags and buffer_create_info NULL",
            CL_INVALID_VALUE,
            move || null_info(e.buf, CL_MEM_USE_HOST_PTR),
        );
        t.row(
            "clCreateSubBuffer",
            "order: origin past the end and size 0",
            CL_INVALID_VALUE,
            move || sub(e.buf, 0, 2 * BUF, 0),
        );
        t.row(
            "clCreateSubBuffer",
            "order: size 0 and origin 4",
            CL_INVALID_BUFFER_SIZE,
            move || sub(e.buf, 0, 4, 0),
        );
        t.row(
            "clCreateSubBuffer",
            "a failed sub-buffer leaves the buffer's reference count",
            CL_MISALIGNED_SUB_BUFFER_OFFSET,
            move || {
                let before = ref_count(e.buf);
                let r = sub(e.buf, 0, 4, 64);
                expect(r, ref_count(e.buf) == before)
            },
        );
        t.row(
            "clCreateSubBuffer",
            "bytes 128..256",
            CL_SUCCESS,
            move || sub(e.buf, 0, 128, 128),
        );

        // clRetainMemObject, clReleaseMemObject: "CL_INVALID_MEM_OBJECT if memobj is not a
        // valid memory object."
        t.handle(
            "clRetainMemObject",
            "memobj",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            |m| clRetainMemObject(m),
        );
        t.row("clRetainMemObject", "the buffer", CL_SUCCESS, move || {
            let r = clRetainMemObject(e.buf);
            clReleaseMemObject(e.buf);
            r
        });
        t.handle(
            "clReleaseMemObject",
            "memobj",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            |m| clReleaseMemObject(m),
        );
        t.row("clReleaseMemObject", "the buffer", CL_SUCCESS, move || {
            clRetainMemObject(e.buf);
            clReleaseMemObject(e.buf)
        });

        // clGetMemObjectInfo: "CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object."
        t.handle(
            "clGetMemObjectInfo",
            "memobj",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            |m| clGetMemObjectInfo(m, CL_MEM_SIZE, 0, null_mut(), &mut 0),
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Memory Object Queries table and param_value is not NULL."
        t.info("clGetMemObjectInfo", CL_MEM_SIZE, move |n, s, v, r| {
            clGetMemObjectInfo(e.buf, n, s, v, r)
        });
        t.row(
            "clGetMemObjectInfo",
            "order: a context as memobj and an unknown param_name",
            CL_INVALID_MEM_OBJECT,
            move || clGetMemObjectInfo(e.ctx.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clSetMemObjectDestructorCallback: "CL_INVALID_MEM_OBJECT if memobj is not a valid
        // memory object." "CL_INVALID_VALUE if pfn_notify is NULL."
        t.handle(
            "clSetMemObjectDestructorCallback",
            "memobj",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            |m| clSetMemObjectDestructorCallback(m, Some(mem_gone), null_mut()),
        );
        t.row(
            "clSetMemObjectDestructorCallback",
            "pfn_notify NULL",
            CL_INVALID_VALUE,
            move || clSetMemObjectDestructorCallback(e.buf, None, null_mut()),
        );
        t.row(
            "clSetMemObjectDestructorCallback",
            "order: memobj NULL and pfn_notify NULL",
            CL_INVALID_MEM_OBJECT,
            || clSetMemObjectDestructorCallback(null_mut(), None, null_mut()),
        );
    }
}

/// Image and sampler queries on handles that are no images or samplers, and pipes, which the
/// device has none of (CL_DEVICE_PIPE_SUPPORT is false). api_images.rs has the images'
/// own behaviour.
fn image_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let formats = move |c: cl_context,
                            flags: cl_mem_flags,
                            ty: cl_mem_object_type,
                            n: cl_uint,
                            with: bool| {
            let mut f = [cl_image_format {
                image_channel_order: 0,
                image_channel_data_type: 0,
            }];
            let mut num = 9;
            let r = clGetSupportedImageFormats(
                c,
                flags,
                ty,
                n,
                if with { f.as_mut_ptr() } else { null_mut() },
                &mut num,
            );
            // "num_image_formats is the actual number of supported image formats for a
            // specific context and values specified by flags": Intel's Gen9 list for
            // read-only images (51 formats and 2 depth formats).
            expect(r, r != CL_SUCCESS || num == 53)
        };
        let image2d = CL_MEM_OBJECT_IMAGE2D;
        // clGetSupportedImageFormats: "CL_INVALID_CONTEXT if context is not a valid context."
        t.handle(
            "clGetSupportedImageFormats",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| formats(c, CL_MEM_READ_ONLY, image2d, 1, true),
        );
        // "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
        // image_formats is not NULL."
        t.row(
            "clGetSupportedImageFormats",
            "flags READ_WRITE | READ_ONLY",
            CL_INVALID_VALUE,
            move || {
                formats(
                    e.ctx,
                    CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
                    image2d,
                    1,
                    true,
                )
            },
        );
        t.row(
            "clGetSupportedImageFormats",
            "image_type CL_MEM_OBJECT_BUFFER",
            CL_INVALID_VALUE,
            move || formats(e.ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 1, true),
        );
        t.row(
            "clGetSupportedImageFormats",
            "num_entries 0 with image_formats",
            CL_INVALID_VALUE,
            move || formats(e.ctx, CL_MEM_READ_ONLY, image2d, 0, true),
        );
        t.row(
            "clGetSupportedImageFormats",
            "order: context NULL and a bad image_type",
            CL_INVALID_CONTEXT,
            move || formats(null_mut(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 1, true),
        );
        t.row(
            "clGetSupportedImageFormats",
            "2D images: 53 read-only formats",
            CL_SUCCESS,
            move || formats(e.ctx, CL_MEM_READ_ONLY, image2d, 0, false),
        );

        // clGetImageInfo: "CL_INVALID_MEM_OBJECT if image is a not a valid image object."
        // clGetPipeInfo: "CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object."
        type MemInfo =
            unsafe extern "C" fn(cl_mem, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
        let fns: [(&'static str, &'static str, MemInfo, cl_uint); 2] = [
            ("clGetImageInfo", "image", clGetImageInfo, CL_IMAGE_FORMAT),
            ("clGetPipeInfo", "pipe", clGetPipeInfo, CL_PIPE_PACKET_SIZE),
        ];
        for (entry, arg, f, param) in fns {
            t.handle(entry, arg, CL_INVALID_MEM_OBJECT, e.bad_mem(), move |m| {
                f(m, param, 0, null_mut(), &mut 0)
            });
            t.row(
                entry,
                format!("{arg} is a buffer"),
                CL_INVALID_MEM_OBJECT,
                move || f(e.buf, param, 0, null_mut(), &mut 0),
            );
            t.row(
                entry,
                format!("order: {arg} is a buffer and an unknown param_name"),
                CL_INVALID_MEM_OBJECT,
                move || f(e.buf, 0x7fff_0000, 0, null_mut(), &mut 0),
            );
        }

        // clRetainSampler, clReleaseSampler, clGetSamplerInfo: "CL_INVALID_SAMPLER if sampler
        // is not a valid sampler object."
        t.handle(
            "clRetainSampler",
            "sampler",
            CL_INVALID_SAMPLER,
            e.bad_sampler(),
            |s| clRetainSampler(s),
        );
        t.handle(
            "clReleaseSampler",
            "sampler",
            CL_INVALID_SAMPLER,
            e.bad_sampler(),
            |s| clReleaseSampler(s),
        );
        t.handle(
            "clGetSamplerInfo",
            "sampler",
            CL_INVALID_SAMPLER,
            e.bad_sampler(),
            |s| clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, 0, null_mut(), &mut 0),
        );
        t.row(
            "clGetSamplerInfo",
            "order: a buffer as sampler and an unknown param_name",
            CL_INVALID_SAMPLER,
            move || clGetSamplerInfo(e.buf.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );
    }
}

/// Three `usize`s or NULL.
fn arr(a: &Option<[usize; 3]>) -> *const usize {
    a.as_ref().map_or(null(), |a| a.as_ptr())
}

fn transfer_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let (buf, buf2, q) = (e.buf, e.buf2, e.q);
        for write in [false, true] {
            let entry = if write {
                "clEnqueueWriteBuffer"
            } else {
                "clEnqueueReadBuffer"
            };
            // Blocking, with BUF host bytes of 0xAA: a failed read leaves them, a failed write
            // leaves the buffer's bytes.
            let call = move |q: cl_command_queue,
                             m: cl_mem,
                             off: usize,
                             size: usize,
                             ptr: bool,
                             n: cl_uint,
                             l: *const cl_event| {
                let mut h = vec![0xAAu8; BUF];
                let p = if ptr {
                    h.as_mut_ptr().cast::<c_void>()
                } else {
                    null_mut()
                };
                let f = || {
                    ev(|o| {
                        if write {
                            clEnqueueWriteBuffer(q, m, CL_TRUE, off, size, p, n, l, o)
                        } else {
                            clEnqueueReadBuffer(q, m, CL_TRUE, off, size, p, n, l, o)
                        }
                    })
                };
                if write && m == e.buf {
                    keeps_bytes(e, e.buf, f)
                } else {
                    let r = f();
                    expect(r, write || r == CL_SUCCESS || untouched(&h))
                }
            };
            // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
            t.handle(
                entry,
                "command_queue",
                CL_INVALID_COMMAND_QUEUE,
                e.bad_queue(),
                move |x| call(x, buf, 0, 64, true, 0, null()),
            );
            // "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are
            // not the same or if the context associated with command_queue and events in
            // event_wait_list are not the same."
            t.row(
                entry,
                "a buffer of another context",
                CL_INVALID_CONTEXT,
                move || call(q, buf2, 0, 64, true, 0, null()),
            );
            // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object."
            t.handle(
                entry,
                "buffer",
                CL_INVALID_MEM_OBJECT,
                e.bad_mem(),
                move |m| call(q, m, 0, 64, true, 0, null()),
            );
            // "CL_INVALID_VALUE if the region being read or written specified by (offset, size)
            // is out of bounds or if ptr is a NULL value."
            t.row(
                entry,
                "a region past the end",
                CL_INVALID_VALUE,
                move || call(q, buf, BUF - 32, 64, true, 0, null()),
            );
            t.row(
                entry,
                "offset + size overflows",
                CL_INVALID_VALUE,
                move || call(q, buf, usize::MAX, 2, true, 0, null()),
            );
            t.row(entry, "ptr NULL", CL_INVALID_VALUE, move || {
                call(q, buf, 0, 64, false, 0, null())
            });
            t.wait_list(entry, e, true, move |n, l| call(q, buf, 0, 64, true, n, l));
            // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the read and write operations
            // are blocking and the execution status of any of the events in event_wait_list
            // is a negative integer value."
            t.row(
                entry,
                "blocking, after an event that failed",
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                move || call(q, buf, 0, 64, true, 1, [e.failed].as_ptr()),
            );
            // "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been
            // created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS."
            // "CL_INVALID_OPERATION if clEnqueueWriteBuffer is called on buffer which has been
            // created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS."
            let (refused, refused_is) = if write {
                (e.host_ro, "CL_MEM_HOST_READ_ONLY")
            } else {
                (e.host_wo, "CL_MEM_HOST_WRITE_ONLY")
            };
            t.row(entry, refused_is, CL_INVALID_OPERATION, move || {
                call(q, refused, 0, 64, true, 0, null())
            });
            t.row(
                entry,
                "CL_MEM_HOST_NO_ACCESS",
                CL_INVALID_OPERATION,
                move || call(q, e.host_na, 0, 64, true, 0, null()),
            );
            t.row(
                entry,
                "order: command_queue NULL and buffer NULL",
                CL_INVALID_COMMAND_QUEUE,
                move || call(null_mut(), null_mut(), 0, 64, true, 0, null()),
            );
            t.row(
                entry,
                "order: a buffer of another context and a region past the end",
                CL_INVALID_CONTEXT,
                move || call(q, buf2, BUF - 32, 64, true, 0, null()),
            );
            t.row(
                entry,
                "order: buffer NULL and an event of another context",
                CL_INVALID_CONTEXT,
                move || call(q, null_mut(), 0, 64, true, 1, [e.done2].as_ptr()),
            );
            t.row(
                entry,
                "order: an event of another context and a region past the end",
                CL_INVALID_CONTEXT,
                move || call(q, buf, BUF - 32, 64, true, 1, [e.done2].as_ptr()),
            );
            t.row(
                entry,
                "order: a region past the end and event_wait_list NULL with 1",
                CL_INVALID_VALUE,
                move || call(q, buf, BUF - 32, 64, true, 1, null()),
            );
            t.row(
                entry,
                format!("order: event_wait_list NULL with 1 and {refused_is}"),
                CL_INVALID_EVENT_WAIT_LIST,
                move || call(q, refused, 0, 64, true, 1, null()),
            );
            t.row(entry, "64 bytes", CL_SUCCESS, move || {
                call(q, buf, 0, 64, true, 1, [e.done].as_ptr())
            });
        }

        // clEnqueueReadBufferRect, clEnqueueWriteBufferRect: a 16 × 4 rectangle, pitches 32
        // in the buffer and on the host.
        for write in [false, true] {
            let entry = if write {
                "clEnqueueWriteBufferRect"
            } else {
                "clEnqueueReadBufferRect"
            };
            #[derive(Clone, Copy)]
            struct R {
                bo: Option<[usize; 3]>,
                ho: Option<[usize; 3]>,
                region: Option<[usize; 3]>,
                /// buffer row, buffer slice, host row, host slice.
                pitch: [usize; 4],
                ptr: bool,
            }
            let ok = R {
                bo: Some([0; 3]),
                ho: Some([0; 3]),
                region: Some([16, 4, 1]),
                pitch: [32, 0, 32, 0],
                ptr: true,
            };
            let call =
                move |q: cl_command_queue, m: cl_mem, r: R, n: cl_uint, l: *const cl_event| {
                    let mut h = vec![0xAAu8; BUF];
                    let p = if r.ptr {
                        h.as_mut_ptr().cast::<c_void>()
                    } else {
                        null_mut()
                    };
                    let [a, b, c, d] = r.pitch;
                    let (bo, ho, region) = (arr(&r.bo), arr(&r.ho), arr(&r.region));
                    let f = || {
                        ev(|o| {
                            if write {
                                clEnqueueWriteBufferRect(
                                    q, m, CL_TRUE, bo, ho, region, a, b, c, d, p, n, l, o,
                                )
                            } else {
                                clEnqueueReadBufferRect(
                                    q, m, CL_TRUE, bo, ho, region, a, b, c, d, p, n, l, o,
                                )
                            }
                        })
                    };
                    if write && m == e.buf {
                        keeps_bytes(e, e.buf, f)
                    } else {
                        let r = f();
                        expect(r, write || r == CL_SUCCESS || untouched(&h))
                    }
                };
            // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
            t.handle(
                entry,
                "command_queue",
                CL_INVALID_COMMAND_QUEUE,
                e.bad_queue(),
                move |x| call(x, buf, ok, 0, null()),
            );
            // "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are
            // not the same or if the context associated with command_queue and events in
            // event_wait_list are not the same."
            t.row(
                entry,
                "a buffer of another context",
                CL_INVALID_CONTEXT,
                move || call(q, buf2, ok, 0, null()),
            );
            // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object."
            t.handle(
                entry,
                "buffer",
                CL_INVALID_MEM_OBJECT,
                e.bad_mem(),
                move |m| call(q, m, ok, 0, null()),
            );
            // "CL_INVALID_VALUE if buffer_origin, host_origin, or region is NULL."
            // "CL_INVALID_VALUE if the region being read or written specified by
            // (buffer_origin, region, buffer_row_pitch, buffer_slice_pitch) is out of bounds."
            // "CL_INVALID_VALUE if any region array element is 0."
            // "CL_INVALID_VALUE if buffer_row_pitch is not 0 and is less than region[0]."
            // "CL_INVALID_VALUE if host_row_pitch is not 0 and is less than region[0]."
            // "CL_INVALID_VALUE if buffer_slice_pitch is not 0 and is less than region[1] ×
            // buffer_row_pitch and not a multiple of buffer_row_pitch."
            // "CL_INVALID_VALUE if host_slice_pitch is not 0 and is less than region[1] ×
            // host_row_pitch and not a multiple of host_row_pitch."
            // "CL_INVALID_VALUE if ptr is NULL."
            let bad: [(&str, R); 10] = [
                ("buffer_origin NULL", R { bo: None, ..ok }),
                ("host_origin NULL", R { ho: None, ..ok }),
                ("region NULL", R { region: None, ..ok }),
                (
                    "a rectangle past the end of the buffer",
                    R {
                        bo: Some([0, 0, 8]),
                        ..ok
                    },
                ),
                (
                    "region[1] 0",
                    R {
                        region: Some([16, 0, 1]),
                        ..ok
                    },
                ),
                (
                    "buffer_row_pitch 8, less than region[0]",
                    R {
                        pitch: [8, 0, 32, 0],
                        ..ok
                    },
                ),
                (
                    "host_row_pitch 8, less than region[0]",
                    R {
                        pitch: [32, 0, 8, 0],
                        ..ok
                    },
                ),
                (
                    "buffer_slice_pitch 100",
                    R {
                        pitch: [32, 100, 32, 0],
                        ..ok
                    },
                ),
                (
                    "host_slice_pitch 100",
                    R {
                        pitch: [32, 0, 32, 100],
                        ..ok
                    },
                ),
                ("ptr NULL", R { ptr: false, ..ok }),
            ];
            for (what, r) in bad {
                t.row(entry, what, CL_INVALID_VALUE, move || {
                    call(q, buf, r, 0, null())
                });
            }
            t.wait_list(entry, e, true, move |n, l| call(q, buf, ok, n, l));
            // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the read and write operations
            // are blocking and the execution status of any of the events in event_wait_list
            // is a negative integer value."
            t.row(
                entry,
                "blocking, after an event that failed",
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                move || call(q, buf, ok, 1, [e.failed].as_ptr()),
            );
            // "CL_INVALID_OPERATION if clEnqueueReadBufferRect is called on buffer which has
            // been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS."
            // "CL_INVALID_OPERATION if clEnqueueWriteBufferRect is called on buffer which has
            // been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS."
            let refused = if write { e.host_ro } else { e.host_wo };
            t.row(
                entry,
                "a buffer whose host access refuses it",
                CL_INVALID_OPERATION,
                move || call(q, refused, ok, 0, null()),
            );
            t.row(
                entry,
                "CL_MEM_HOST_NO_ACCESS",
                CL_INVALID_OPERATION,
                move || call(q, e.host_na, ok, 0, null()),
            );
            t.row(
                entry,
                "order: command_queue NULL and buffer NULL",
                CL_INVALID_COMMAND_QUEUE,
                move || call(null_mut(), null_mut(), ok, 0, null()),
            );
            t.row(
                entry,
                "order: buffer NULL and an event of another context",
                CL_INVALID_CONTEXT,
                move || call(q, null_mut(), ok, 1, [e.done2].as_ptr()),
            );
            t.row(
                entry,
                "order: an event of another context and region NULL",
                CL_INVALID_CONTEXT,
                move || call(q, buf, R { region: None, ..ok }, 1, [e.done2].as_ptr()),
            );
            t.row(
                entry,
                "order: region NULL and event_wait_list NULL with 1",
                CL_INVALID_VALUE,
                move || call(q, buf, R { region: None, ..ok }, 1, null()),
            );
            t.row(
                entry,
                "order: event_wait_list NULL with 1 and a refused host access",
                CL_INVALID_EVENT_WAIT_LIST,
                move || call(q, refused, ok, 1, null()),
            );
            t.row(entry, "a 16 × 4 rectangle", CL_SUCCESS, move || {
                call(q, buf, ok, 0, null())
            });
        }

        // clEnqueueCopyBuffer: from `wo` (0x11 bytes) into `buf` by default; a failed copy
        // into buf leaves its bytes.
        let copy = move |q: cl_command_queue,
                         src: cl_mem,
                         dst: cl_mem,
                         so: usize,
                         d_o: usize,
                         size: usize,
                         n: cl_uint,
                         l: *const cl_event| {
            if src == e.wo {
                set_bytes(e.q, e.wo, BUF, 0x11);
            }
            let f = || ev(|o| clEnqueueCopyBuffer(q, src, dst, so, d_o, size, n, l, o));
            if dst == e.buf && src != e.buf {
                keeps_bytes(e, e.buf, f)
            } else {
                f()
            }
        };
        let entry = "clEnqueueCopyBuffer";
        let wo = e.wo;
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| copy(x, wo, buf, 0, 0, 64, 0, null()),
        );
        // "CL_INVALID_CONTEXT if the context associated with command_queue, src_buffer and
        // dst_buffer are not the same or if the context associated with command_queue and
        // events in event_wait_list are not the same."
        t.row(
            entry,
            "src_buffer of another context",
            CL_INVALID_CONTEXT,
            move || copy(q, buf2, buf, 0, 0, 64, 0, null()),
        );
        t.row(
            entry,
            "dst_buffer of another context",
            CL_INVALID_CONTEXT,
            move || copy(q, wo, buf2, 0, 0, 64, 0, null()),
        );
        // "CL_INVALID_MEM_OBJECT if src_buffer and dst_buffer are not valid buffer objects."
        t.handle(
            entry,
            "src_buffer",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| copy(q, m, buf, 0, 0, 64, 0, null()),
        );
        t.handle(
            entry,
            "dst_buffer",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| copy(q, wo, m, 0, 0, 64, 0, null()),
        );
        // "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset +
        // size require accessing elements outside the src_buffer and dst_buffer buffer objects
        // respectively."
        t.row(
            entry,
            "src_offset + size past the end",
            CL_INVALID_VALUE,
            move || copy(q, wo, buf, BUF - 32, 0, 64, 0, null()),
        );
        t.row(
            entry,
            "dst_offset + size past the end",
            CL_INVALID_VALUE,
            move || copy(q, wo, buf, 0, BUF - 32, 64, 0, null()),
        );
        // Decision: size 0 (a copy of no bytes, which no error of the list covers) is refused
        // with CL_INVALID_VALUE, as gencl always has.
        t.row(entry, "size 0", CL_INVALID_VALUE, move || {
            copy(q, wo, buf, 0, 0, 0, 0, null())
        });
        t.wait_list(entry, e, true, move |n, l| copy(q, wo, buf, 0, 0, 64, n, l));
        // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
        // object and the source and destination regions overlap or if src_buffer and
        // dst_buffer are different sub-buffers of the same associated buffer object and they
        // overlap."
        t.row(
            entry,
            "the same buffer, bytes 0..64 into 32..96",
            CL_MEM_COPY_OVERLAP,
            move || copy(q, buf, buf, 0, 32, 64, 0, null()),
        );
        t.row(
            entry,
            "the same sub-buffer, bytes 0..64 into 32..96",
            CL_MEM_COPY_OVERLAP,
            move || copy(q, e.sub, e.sub, 0, 32, 64, 0, null()),
        );
        t.row(
            entry,
            "order: command_queue NULL and src_buffer NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || copy(null_mut(), null_mut(), buf, 0, 0, 64, 0, null()),
        );
        t.row(
            entry,
            "order: src_buffer NULL and dst_buffer of another context",
            CL_INVALID_CONTEXT,
            move || copy(q, null_mut(), buf2, 0, 0, 64, 0, null()),
        );
        t.row(
            entry,
            "order: src_buffer of another context and dst_buffer NULL",
            CL_INVALID_CONTEXT,
            move || copy(q, buf2, null_mut(), 0, 0, 64, 0, null()),
        );
        t.row(
            entry,
            "order: dst_buffer NULL and an event of another context",
            CL_INVALID_CONTEXT,
            move || copy(q, wo, null_mut(), 0, 0, 64, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: an event of another context and src_offset past the end",
            CL_INVALID_CONTEXT,
            move || copy(q, wo, buf, BUF, 0, 64, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: src_offset past the end and event_wait_list NULL with 1",
            CL_INVALID_VALUE,
            move || copy(q, wo, buf, BUF, 0, 64, 1, null()),
        );
        t.row(
            entry,
            "order: event_wait_list NULL with 1 and overlapping regions",
            CL_INVALID_EVENT_WAIT_LIST,
            move || copy(q, buf, buf, 0, 32, 64, 1, null()),
        );
        t.row(entry, "64 bytes", CL_SUCCESS, move || {
            copy(q, wo, buf, 0, 0, 64, 0, null())
        });

        // clEnqueueCopyBufferRect: a 16 × 4 rectangle, pitches 32, from `wo` into `buf`.
        #[derive(Clone, Copy)]
        struct C {
            so: Option<[usize; 3]>,
            d_o: Option<[usize; 3]>,
            region: Option<[usize; 3]>,
            /// src row, src slice, dst row, dst slice.
            pitch: [usize; 4],
        }
        let ok = C {
            so: Some([0; 3]),
            d_o: Some([0; 3]),
            region: Some([16, 4, 1]),
            pitch: [32, 0, 32, 0],
        };
        let copy_rect = move |q: cl_command_queue,
                              src: cl_mem,
                              dst: cl_mem,
                              c: C,
                              n: cl_uint,
                              l: *const cl_event| {
            if src == e.wo {
                set_bytes(e.q, e.wo, BUF, 0x11);
            }
            let [a, b, x, y] = c.pitch;
            let (so, d_o, region) = (arr(&c.so), arr(&c.d_o), arr(&c.region));
            let f = || {
                ev(|o| clEnqueueCopyBufferRect(q, src, dst, so, d_o, region, a, b, x, y, n, l, o))
            };
            if dst == e.buf && src != e.buf {
                keeps_bytes(e, e.buf, f)
            } else {
                f()
            }
        };
        let entry = "clEnqueueCopyBufferRect";
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| copy_rect(x, wo, buf, ok, 0, null()),
        );
        // "CL_INVALID_CONTEXT if the context associated with command_queue, src_buffer and
        // dst_buffer are not the same or if the context associated with command_queue and
        // events in event_wait_list are not the same."
        t.row(
            entry,
            "src_buffer of another context",
            CL_INVALID_CONTEXT,
            move || copy_rect(q, buf2, buf, ok, 0, null()),
        );
        t.row(
            entry,
            "dst_buffer of another context",
            CL_INVALID_CONTEXT,
            move || copy_rect(q, wo, buf2, ok, 0, null()),
        );
        // "CL_INVALID_MEM_OBJECT if src_buffer and dst_buffer are not valid buffer objects."
        t.handle(
            entry,
            "src_buffer",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| copy_rect(q, m, buf, ok, 0, null()),
        );
        t.handle(
            entry,
            "dst_buffer",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| copy_rect(q, wo, m, ok, 0, null()),
        );
        // "CL_INVALID_VALUE if src_origin, dst_origin, or region is NULL."
        // "CL_INVALID_VALUE if (src_origin, region, src_row_pitch, src_slice_pitch) or
        // (dst_origin, region, dst_row_pitch, dst_slice_pitch) require accessing elements
        // outside the src_buffer and dst_buffer buffer objects respectively."
        // "CL_INVALID_VALUE if any region array element is 0."
        // "CL_INVALID_VALUE if src_row_pitch is not 0 and is less than region[0]."
        // "CL_INVALID_VALUE if dst_row_pitch is not 0 and is less than region[0]."
        // "CL_INVALID_VALUE if src_slice_pitch is not 0 and is less than region[1] ×
        // src_row_pitch or if src_slice_pitch is not 0 and is not a multiple of
        // src_row_pitch."
        // "CL_INVALID_VALUE if dst_slice_pitch ..." (the same)
        // "CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object and
        // src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not equal to
        // dst_row_pitch."
        let bad: [(&str, C); 10] = [
            ("src_origin NULL", C { so: None, ..ok }),
            ("dst_origin NULL", C { d_o: None, ..ok }),
            ("region NULL", C { region: None, ..ok }),
            (
                "a source rectangle past the end",
                C {
                    so: Some([0, 0, 8]),
                    ..ok
                },
            ),
            (
                "a destination rectangle past the end",
                C {
                    d_o: Some([0, 40, 0]),
                    ..ok
                },
            ),
            (
                "region[2] 0",
                C {
                    region: Some([16, 4, 0]),
                    ..ok
                },
            ),
            (
                "src_row_pitch 8",
                C {
                    pitch: [8, 0, 32, 0],
                    ..ok
                },
            ),
            (
                "dst_row_pitch 8",
                C {
                    pitch: [32, 0, 8, 0],
                    ..ok
                },
            ),
            (
                "src_slice_pitch 100",
                C {
                    pitch: [32, 100, 32, 0],
                    ..ok
                },
            ),
            (
                "dst_slice_pitch 160: not a multiple of dst_row_pitch 64",
                C {
                    pitch: [32, 0, 64, 160],
                    ..ok
                },
            ),
        ];
        for (what, c) in bad {
            t.row(entry, what, CL_INVALID_VALUE, move || {
                copy_rect(q, wo, buf, c, 0, null())
            });
        }
        t.row(
            entry,
            "the same buffer, both pitches different",
            CL_INVALID_VALUE,
            move || {
                let c = C {
                    d_o: Some([0, 0, 2]),
                    pitch: [32, 128, 64, 256],
                    ..ok
                };
                copy_rect(q, buf, buf, c, 0, null())
            },
        );
        t.wait_list(entry, e, true, move |n, l| copy_rect(q, wo, buf, ok, n, l));
        // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
        // object and the source and destination regions overlap ..."
        let overlap = C {
            d_o: Some([8, 1, 0]),
            ..ok
        };
        t.row(
            entry,
            "the same buffer, overlapping rectangles",
            CL_MEM_COPY_OVERLAP,
            move || copy_rect(q, buf, buf, overlap, 0, null()),
        );
        t.row(
            entry,
            "order: command_queue NULL and region NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || copy_rect(null_mut(), wo, buf, C { region: None, ..ok }, 0, null()),
        );
        t.row(
            entry,
            "order: src_buffer NULL and dst_buffer of another context",
            CL_INVALID_CONTEXT,
            move || copy_rect(q, null_mut(), buf2, ok, 0, null()),
        );
        t.row(
            entry,
            "order: src_buffer NULL and region NULL",
            CL_INVALID_MEM_OBJECT,
            move || copy_rect(q, null_mut(), buf, C { region: None, ..ok }, 0, null()),
        );
        t.row(
            entry,
            "order: region NULL and event_wait_list NULL with 1",
            CL_INVALID_VALUE,
            move || copy_rect(q, wo, buf, C { region: None, ..ok }, 1, null()),
        );
        t.row(
            entry,
            "order: event_wait_list NULL with 1 and overlapping rectangles",
            CL_INVALID_EVENT_WAIT_LIST,
            move || copy_rect(q, buf, buf, overlap, 1, null()),
        );
        t.row(entry, "a 16 × 4 rectangle", CL_SUCCESS, move || {
            copy_rect(q, wo, buf, ok, 0, null())
        });

        // clEnqueueFillBuffer: a failed fill of buf leaves its bytes.
        let fill = move |q: cl_command_queue,
                         m: cl_mem,
                         pattern: bool,
                         psize: usize,
                         off: usize,
                         size: usize,
                         n: cl_uint,
                         l: *const cl_event| {
            let pat = [0x5Au8; 256];
            let p = if pattern {
                pat.as_ptr().cast::<c_void>()
            } else {
                null()
            };
            let f = || ev(|o| clEnqueueFillBuffer(q, m, p, psize, off, size, n, l, o));
            if m == e.buf {
                keeps_bytes(e, e.buf, f)
            } else {
                f()
            }
        };
        let entry = "clEnqueueFillBuffer";
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| fill(x, buf, true, 4, 0, 64, 0, null()),
        );
        // "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not
        // the same or if the context associated with command_queue and events in
        // event_wait_list are not the same."
        t.row(
            entry,
            "a buffer of another context",
            CL_INVALID_CONTEXT,
            move || fill(q, buf2, true, 4, 0, 64, 0, null()),
        );
        // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object."
        t.handle(
            entry,
            "buffer",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| fill(q, m, true, 4, 0, 64, 0, null()),
        );
        // "CL_INVALID_VALUE if offset or offset + size require accessing elements outside the
        // buffer buffer object respectively."
        // "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not
        // one of { 1, 2, 4, 8, 16, 32, 64, 128 }."
        // "CL_INVALID_VALUE if offset and size are not a multiple of pattern_size."
        let bad: [(&str, bool, usize, usize, usize); 8] = [
            ("offset + size past the end", true, 4, BUF - 32, 64),
            ("offset past the end", true, 4, 2 * BUF, 4),
            ("pattern NULL", false, 4, 0, 64),
            ("pattern_size 0", true, 0, 0, 64),
            ("pattern_size 3", true, 3, 0, 63),
            ("pattern_size 256", true, 256, 0, 512),
            ("offset 2, not a multiple of pattern_size 4", true, 4, 2, 64),
            ("size 6, not a multiple of pattern_size 4", true, 4, 0, 6),
        ];
        for (what, p, psize, off, size) in bad {
            t.row(entry, what, CL_INVALID_VALUE, move || {
                fill(q, buf, p, psize, off, size, 0, null())
            });
        }
        t.wait_list(entry, e, true, move |n, l| {
            fill(q, buf, true, 4, 0, 64, n, l)
        });
        t.row(
            entry,
            "order: command_queue NULL and buffer NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || fill(null_mut(), null_mut(), true, 4, 0, 64, 0, null()),
        );
        t.row(
            entry,
            "order: buffer NULL and an event of another context",
            CL_INVALID_CONTEXT,
            move || fill(q, null_mut(), true, 4, 0, 64, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: an event of another context and pattern NULL",
            CL_INVALID_CONTEXT,
            move || fill(q, buf, false, 4, 0, 64, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: pattern NULL and event_wait_list NULL with 1",
            CL_INVALID_VALUE,
            move || fill(q, buf, false, 4, 0, 64, 1, null()),
        );
        t.row(
            entry,
            "64 bytes of a 4-byte pattern",
            CL_SUCCESS,
            move || fill(q, buf, true, 4, 0, 64, 0, null()),
        );

        // clEnqueueMigrateMemObjects.
        let migrate = move |q: cl_command_queue,
                            mems: &[cl_mem],
                            count: cl_uint,
                            flags: cl_mem_migration_flags,
                            n: cl_uint,
                            l: *const cl_event| {
            let list = if mems.is_empty() {
                null()
            } else {
                mems.as_ptr()
            };
            ev(|o| clEnqueueMigrateMemObjects(q, count, list, flags, n, l, o))
        };
        let entry = "clEnqueueMigrateMemObjects";
        let host = CL_MIGRATE_MEM_OBJECT_HOST;
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| migrate(x, &[buf], 1, host, 0, null()),
        );
        // "CL_INVALID_CONTEXT if the context associated with command_queue and memory objects
        // in mem_objects are not the same or if the context associated with command_queue and
        // events in event_wait_list are not the same."
        t.row(
            entry,
            "a buffer of another context",
            CL_INVALID_CONTEXT,
            move || migrate(q, &[buf, buf2], 2, host, 0, null()),
        );
        // "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid
        // memory object."
        t.handle(
            entry,
            "mem_objects[1]",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| migrate(q, &[buf, m], 2, host, 0, null()),
        );
        // "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL."
        // "CL_INVALID_VALUE if flags is not 0 or is not any of the values described in the
        // table above."
        t.row(entry, "num_mem_objects 0", CL_INVALID_VALUE, move || {
            migrate(q, &[buf], 0, host, 0, null())
        });
        t.row(entry, "mem_objects NULL", CL_INVALID_VALUE, move || {
            migrate(q, &[], 1, host, 0, null())
        });
        t.row(
            entry,
            "flags with an unknown bit",
            CL_INVALID_VALUE,
            move || migrate(q, &[buf], 1, 1 << 10, 0, null()),
        );
        t.wait_list(entry, e, true, move |n, l| {
            migrate(q, &[buf], 1, host, n, l)
        });
        t.row(
            entry,
            "order: command_queue NULL and mem_objects NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || migrate(null_mut(), &[], 1, host, 0, null()),
        );
        t.row(
            entry,
            "order: a NULL memory object, then one of another context",
            CL_INVALID_CONTEXT,
            move || migrate(q, &[null_mut(), buf2], 2, host, 0, null()),
        );
        t.row(
            entry,
            "order: num_mem_objects 0 and an event of another context",
            CL_INVALID_CONTEXT,
            move || migrate(q, &[buf], 0, host, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: a NULL memory object and an unknown flag",
            CL_INVALID_MEM_OBJECT,
            move || migrate(q, &[null_mut()], 1, 1 << 10, 0, null()),
        );
        t.row(
            entry,
            "order: an unknown flag and event_wait_list NULL with 1",
            CL_INVALID_VALUE,
            move || migrate(q, &[buf], 1, 1 << 10, 1, null()),
        );
        t.row(
            entry,
            "a buffer and a sub-buffer to the host",
            CL_SUCCESS,
            move || migrate(q, &[buf, e.sub], 2, host, 0, null()),
        );
    }
}

fn map_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let (buf, buf2, q) = (e.buf, e.buf2, e.q);
        // A failed map returns NULL, hands out no event (but see `ev`) and leaves buf's map
        // count; a successful one is unmapped again.
        let map = move |q: cl_command_queue,
                        m: cl_mem,
                        blocking: cl_bool,
                        flags: cl_map_flags,
                        off: usize,
                        size: usize,
                        n: cl_uint,
                        l: *const cl_event| {
            let before = map_count(e.buf);
            let mut err = 0;
            let mut out: cl_event = null_mut();
            let p = clEnqueueMapBuffer(q, m, blocking, flags, off, size, n, l, &mut out, &mut err);
            if err != CL_SUCCESS {
                if !p.is_null() {
                    return NOT_NULL;
                }
                let kept = map_count(e.buf) == before;
                return expect(
                    ev(|o| {
                        *o = out;
                        err
                    }),
                    kept,
                );
            }
            if p.is_null() || out.is_null() {
                return SIDE_EFFECT;
            }
            clWaitForEvents(1, &out);
            clReleaseEvent(out);
            clEnqueueUnmapMemObject(q, m, p, 0, null(), null_mut());
            clFinish(q);
            err
        };
        let entry = "clEnqueueMapBuffer";
        let (read, write) = (CL_MAP_READ, CL_MAP_WRITE);
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| map(x, buf, CL_TRUE, read, 0, 64, 0, null()),
        );
        // "CL_INVALID_CONTEXT if context associated with command_queue and buffer are not the
        // same or if the context associated with command_queue and events in event_wait_list
        // are not the same."
        t.row(
            entry,
            "a buffer of another context",
            CL_INVALID_CONTEXT,
            move || map(q, buf2, CL_TRUE, read, 0, 64, 0, null()),
        );
        // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object."
        t.handle(
            entry,
            "buffer",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| map(q, m, CL_TRUE, read, 0, 64, 0, null()),
        );
        // "CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or
        // if size is 0 or if values specified in map_flags are not valid."
        let bad: [(&str, cl_map_flags, usize, usize); 4] = [
            ("a region past the end", read, BUF - 32, 64),
            ("size 0", read, 0, 0),
            ("map_flags with an unknown bit", 1 << 10, 0, 64),
            (
                "CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION",
                read | CL_MAP_WRITE_INVALIDATE_REGION,
                0,
                64,
            ),
        ];
        for (what, flags, off, size) in bad {
            t.row(entry, what, CL_INVALID_VALUE, move || {
                map(q, buf, CL_TRUE, flags, off, size, 0, null())
            });
        }
        t.wait_list(entry, e, true, move |n, l| {
            map(q, buf, CL_FALSE, read, 0, 64, n, l)
        });
        // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the map operation is blocking and
        // the execution status of any of the events in event_wait_list is a negative integer
        // value." (No map is left behind: CL_MEM_MAP_COUNT is unchanged.)
        t.row(
            entry,
            "blocking, after an event that failed",
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            move || map(q, buf, CL_TRUE, read, 0, 64, 1, [e.failed].as_ptr()),
        );
        // "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_WRITE_ONLY or
        // CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags or if buffer has been
        // created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
        // CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags."
        let refused: [(&str, cl_mem, cl_map_flags); 4] = [
            (
                "CL_MAP_READ of a CL_MEM_HOST_WRITE_ONLY buffer",
                e.host_wo,
                read,
            ),
            (
                "CL_MAP_READ of a CL_MEM_HOST_NO_ACCESS buffer",
                e.host_na,
                read,
            ),
            (
                "CL_MAP_WRITE of a CL_MEM_HOST_READ_ONLY buffer",
                e.host_ro,
                write,
            ),
            (
                "CL_MAP_WRITE_INVALIDATE_REGION of a CL_MEM_HOST_READ_ONLY buffer",
                e.host_ro,
                CL_MAP_WRITE_INVALIDATE_REGION,
            ),
        ];
        for (what, m, flags) in refused {
            t.row(entry, what, CL_INVALID_OPERATION, move || {
                map(q, m, CL_TRUE, flags, 0, 64, 0, null())
            });
        }
        t.row(
            entry,
            "order: command_queue NULL and buffer NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || map(null_mut(), null_mut(), CL_TRUE, read, 0, 64, 0, null()),
        );
        t.row(
            entry,
            "order: buffer NULL and an event of another context",
            CL_INVALID_CONTEXT,
            move || map(q, null_mut(), CL_TRUE, read, 0, 64, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: an event of another context and size 0",
            CL_INVALID_CONTEXT,
            move || map(q, buf, CL_TRUE, read, 0, 0, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: size 0 and event_wait_list NULL with 1",
            CL_INVALID_VALUE,
            move || map(q, buf, CL_TRUE, read, 0, 0, 1, null()),
        );
        t.row(
            entry,
            "order: event_wait_list NULL with 1 and CL_MAP_READ of a CL_MEM_HOST_NO_ACCESS buffer",
            CL_INVALID_EVENT_WAIT_LIST,
            move || map(q, e.host_na, CL_TRUE, read, 0, 64, 1, null()),
        );
        t.row(entry, "64 bytes for reading", CL_SUCCESS, move || {
            map(q, buf, CL_TRUE, read, 0, 64, 0, null())
        });

        // clEnqueueUnmapMemObject. Each row maps 64 bytes of buf on q (or of buf2 on q2), makes
        // the call with that pointer (or `bogus`), then unmaps properly.
        #[derive(Clone, Copy, PartialEq)]
        enum Ptr {
            Mapped,
            Bogus,
            Null,
        }
        let unmap = move |q: cl_command_queue,
                          m: cl_mem,
                          of_buf2: bool,
                          which: Ptr,
                          n: cl_uint,
                          l: *const cl_event| {
            let (mq, mm) = if of_buf2 {
                (e.q2, e.buf2)
            } else {
                (e.q, e.buf)
            };
            let mut err = 0;
            let p = clEnqueueMapBuffer(
                mq,
                mm,
                CL_TRUE,
                CL_MAP_WRITE,
                0,
                64,
                0,
                null(),
                null_mut(),
                &mut err,
            );
            assert_eq!(err, CL_SUCCESS);
            let ptr = match which {
                Ptr::Mapped => p,
                Ptr::Bogus => p.cast::<u8>().wrapping_add(8).cast(),
                Ptr::Null => null_mut(),
            };
            let before = map_count(mm);
            let r = ev(|o| clEnqueueUnmapMemObject(q, m, ptr, n, l, o));
            let kept = r == CL_SUCCESS || map_count(mm) == before;
            if r != CL_SUCCESS {
                clEnqueueUnmapMemObject(mq, mm, p, 0, null(), null_mut());
            }
            clFinish(mq);
            expect(r, kept)
        };
        let entry = "clEnqueueUnmapMemObject";
        use Ptr::*;
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| unmap(x, buf, false, Mapped, 0, null()),
        );
        // "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object or is a pipe object."
        t.handle(
            entry,
            "memobj",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| unmap(q, m, false, Mapped, 0, null()),
        );
        // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
        // clEnqueueMapBuffer or clEnqueueMapImage for memobj."
        t.row(
            entry,
            "mapped_ptr 8 bytes into a map",
            CL_INVALID_VALUE,
            move || unmap(q, buf, false, Bogus, 0, null()),
        );
        t.row(entry, "mapped_ptr NULL", CL_INVALID_VALUE, move || {
            unmap(q, buf, false, Null, 0, null())
        });
        t.row(
            entry,
            "mapped_ptr of another buffer's map",
            CL_INVALID_VALUE,
            move || unmap(q, e.sub, false, Mapped, 0, null()),
        );
        // "CL_INVALID_EVENT_WAIT_LIST ..." and, listed last here, "CL_INVALID_CONTEXT if
        // context associated with command_queue and memobj are not the same or if the context
        // associated with command_queue and events in event_wait_list are not the same."
        t.wait_list(entry, e, false, move |n, l| {
            unmap(q, buf, false, Mapped, n, l)
        });
        t.row(
            entry,
            "memobj of another context, its own map",
            CL_INVALID_CONTEXT,
            move || unmap(q, buf2, true, Mapped, 0, null()),
        );
        t.row(
            entry,
            "order: command_queue NULL and memobj NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || unmap(null_mut(), null_mut(), false, Mapped, 0, null()),
        );
        t.row(
            entry,
            "order: memobj NULL and mapped_ptr NULL",
            CL_INVALID_MEM_OBJECT,
            move || unmap(q, null_mut(), false, Null, 0, null()),
        );
        t.row(
            entry,
            "order: memobj of another context and mapped_ptr not its map",
            CL_INVALID_VALUE,
            move || unmap(q, buf2, true, Bogus, 0, null()),
        );
        t.row(
            entry,
            "order: mapped_ptr not a map and event_wait_list NULL with 1",
            CL_INVALID_VALUE,
            move || unmap(q, buf, false, Bogus, 1, null()),
        );
        t.row(
            entry,
            "order: memobj of another context and event_wait_list NULL with 1",
            CL_INVALID_EVENT_WAIT_LIST,
            move || unmap(q, buf2, true, Mapped, 1, null()),
        );
        t.row(entry, "its map", CL_SUCCESS, move || {
            unmap(q, buf, false, Mapped, 0, null())
        });
    }
}

fn program_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let d = e.d;
        let source = CString::new(SOURCE).unwrap().into_raw().cast_const();
        let broken = CString::new("kernel void k( {")
            .unwrap()
            .into_raw()
            .cast_const();
        // A fresh program from `text`, for the rows whose call changes a program's build.
        let fresh = move |text: *const c_char| {
            let mut err = 0;
            let mut s = text;
            let p = clCreateProgramWithSource(e.ctx, 1, &mut s, null(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            p
        };

        // clCreateProgramWithSource: "CL_INVALID_CONTEXT if context is not a valid context."
        // "CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL."
        let with_source = move |c: cl_context, strings: &[*const c_char], count: cl_uint| {
            let mut err = 0;
            let mut s = strings.to_vec();
            let list = if s.is_empty() {
                null_mut()
            } else {
                s.as_mut_ptr()
            };
            let p = clCreateProgramWithSource(c, count, list, null(), &mut err);
            created(p, err, clReleaseProgram)
        };
        let entry = "clCreateProgramWithSource";
        t.handle(
            entry,
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| with_source(c, &[source], 1),
        );
        t.row(entry, "count 0", CL_INVALID_VALUE, move || {
            with_source(e.ctx, &[source], 0)
        });
        t.row(entry, "strings NULL", CL_INVALID_VALUE, move || {
            with_source(e.ctx, &[], 1)
        });
        t.row(entry, "strings[1] NULL", CL_INVALID_VALUE, move || {
            with_source(e.ctx, &[source, null()], 2)
        });
        t.row(
            entry,
            "order: context NULL and count 0",
            CL_INVALID_CONTEXT,
            move || with_source(null_mut(), &[source], 0),
        );
        t.row(entry, "the source", CL_SUCCESS, move || {
            with_source(e.ctx, &[source], 1)
        });

        // clCreateProgramWithIL: "CL_INVALID_CONTEXT if context is not a valid context."
        // "CL_INVALID_VALUE if il is NULL or if length is zero."
        // "CL_INVALID_VALUE if the length-byte block of memory pointed to by il does not
        // contain well-formed intermediate language input that can be consumed by the OpenCL
        // runtime."
        let with_il = move |c: cl_context, il: *const u8, len: usize| {
            let mut err = 0;
            let p = clCreateProgramWithIL(c, il.cast(), len, &mut err);
            created(p, err, clReleaseProgram)
        };
        let il = e.il_bytes;
        let entry = "clCreateProgramWithIL";
        t.handle(
            entry,
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| with_il(c, il.as_ptr(), il.len()),
        );
        t.row(entry, "il NULL", CL_INVALID_VALUE, move || {
            with_il(e.ctx, null(), il.len())
        });
        t.row(entry, "length 0", CL_INVALID_VALUE, move || {
            with_il(e.ctx, il.as_ptr(), 0)
        });
        t.row(entry, "no SPIR-V magic", CL_INVALID_VALUE, move || {
            with_il(e.ctx, [0u8; 64].as_ptr(), 64)
        });
        t.row(
            entry,
            "a length not a multiple of 4",
            CL_INVALID_VALUE,
            move || with_il(e.ctx, il.as_ptr(), il.len() - 1),
        );
        t.row(
            entry,
            "order: context NULL and il NULL",
            CL_INVALID_CONTEXT,
            move || with_il(null_mut(), null(), 0),
        );
        t.row(entry, "the module", CL_SUCCESS, move || {
            with_il(e.ctx, il.as_ptr(), il.len())
        });

        // clCreateProgramWithBinary.
        #[derive(Clone, Copy)]
        struct B {
            devices: Option<cl_device_id>,
            num: cl_uint,
            lengths: bool,
            binaries: bool,
            len: usize,
            bytes: *const u8,
            /// The binary_status the call must write (None: no check).
            status: Option<cl_int>,
        }
        let binary = e.binary;
        let ok = B {
            devices: Some(d),
            num: 1,
            lengths: true,
            binaries: true,
            len: binary.len(),
            bytes: binary.as_ptr(),
            status: Some(CL_SUCCESS),
        };
        let with_binary = move |c: cl_context, b: B| {
            let dev = b.devices.map(|x| [x]);
            let len = [b.len];
            let mut bytes = [b.bytes];
            let mut status = [12345];
            let mut err = 0;
            let p = clCreateProgramWithBinary(
                c,
                b.num,
                dev.as_ref().map_or(null(), |x| x.as_ptr()),
                if b.lengths { len.as_ptr() } else { null() },
                if b.binaries {
                    bytes.as_mut_ptr()
                } else {
                    null_mut()
                },
                status.as_mut_ptr(),
                &mut err,
            );
            let r = created(p, err, clReleaseProgram);
            expect(r, b.status.is_none_or(|s| s == status[0]))
        };
        let entry = "clCreateProgramWithBinary";
        // "CL_INVALID_CONTEXT if context is not a valid context."
        t.handle(
            entry,
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| with_binary(c, B { status: None, ..ok }),
        );
        // "CL_INVALID_VALUE if device_list is NULL or num_devices is zero."
        t.row(entry, "device_list NULL", CL_INVALID_VALUE, move || {
            with_binary(
                e.ctx,
                B {
                    devices: None,
                    status: None,
                    ..ok
                },
            )
        });
        t.row(entry, "num_devices 0", CL_INVALID_VALUE, move || {
            with_binary(
                e.ctx,
                B {
                    num: 0,
                    status: None,
                    ..ok
                },
            )
        });
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with context."
        t.handle(
            entry,
            "device_list[0]",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |x| {
                with_binary(
                    e.ctx,
                    B {
                        devices: Some(x),
                        status: None,
                        ..ok
                    },
                )
            },
        );
        // "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i] is zero
        // or binaries[i] is NULL." (binary_status[i] says CL_INVALID_VALUE for an entry.)
        t.row(entry, "lengths NULL", CL_INVALID_VALUE, move || {
            with_binary(
                e.ctx,
                B {
                    lengths: false,
                    status: None,
                    ..ok
                },
            )
        });
        t.row(entry, "binaries NULL", CL_INVALID_VALUE, move || {
            with_binary(
                e.ctx,
                B {
                    binaries: false,
                    status: None,
                    ..ok
                },
            )
        });
        t.row(
            entry,
            "lengths[0] 0 (binary_status CL_INVALID_VALUE)",
            CL_INVALID_VALUE,
            move || {
                with_binary(
                    e.ctx,
                    B {
                        len: 0,
                        status: Some(CL_INVALID_VALUE),
                        ..ok
                    },
                )
            },
        );
        t.row(
            entry,
            "binaries[0] NULL (binary_status CL_INVALID_VALUE)",
            CL_INVALID_VALUE,
            move || {
                with_binary(
                    e.ctx,
                    B {
                        bytes: null(),
                        status: Some(CL_INVALID_VALUE),
                        ..ok
                    },
                )
            },
        );
        // "CL_INVALID_BINARY if an invalid program binary was encountered for any device.
        // binary_status will return specific status for each device."
        let junk: &'static [u8] = &[0x5A; 64];
        t.row(
            entry,
            "64 bytes of junk (binary_status CL_INVALID_BINARY)",
            CL_INVALID_BINARY,
            move || {
                with_binary(
                    e.ctx,
                    B {
                        len: junk.len(),
                        bytes: junk.as_ptr(),
                        status: Some(CL_INVALID_BINARY),
                        ..ok
                    },
                )
            },
        );
        t.row(
            entry,
            "order: context NULL and device_list NULL",
            CL_INVALID_CONTEXT,
            move || {
                with_binary(
                    null_mut(),
                    B {
                        devices: None,
                        status: None,
                        ..ok
                    },
                )
            },
        );
        t.row(
            entry,
            "order: device_list NULL and lengths NULL",
            CL_INVALID_VALUE,
            move || {
                with_binary(
                    e.ctx,
                    B {
                        devices: None,
                        lengths: false,
                        status: None,
                        ..ok
                    },
                )
            },
        );
        t.row(
            entry,
            "order: an invalid device and binaries NULL",
            CL_INVALID_DEVICE,
            move || {
                with_binary(
                    e.ctx,
                    B {
                        devices: Some(null_mut()),
                        binaries: false,
                        status: None,
                        ..ok
                    },
                )
            },
        );
        t.row(
            entry,
            "order: lengths[0] 0 and junk",
            CL_INVALID_VALUE,
            move || {
                with_binary(
                    e.ctx,
                    B {
                        len: 0,
                        bytes: junk.as_ptr(),
                        status: None,
                        ..ok
                    },
                )
            },
        );
        t.row(
            entry,
            "the executable binary (binary_status CL_SUCCESS)",
            CL_SUCCESS,
            move || with_binary(e.ctx, ok),
        );

        // clRetainProgram, clReleaseProgram: "CL_INVALID_PROGRAM if program is not a valid
        // program object."
        t.handle(
            "clRetainProgram",
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            |p| clRetainProgram(p),
        );
        t.row("clRetainProgram", "the program", CL_SUCCESS, move || {
            let r = clRetainProgram(e.prog);
            clReleaseProgram(e.prog);
            r
        });
        t.handle(
            "clReleaseProgram",
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            |p| clReleaseProgram(p),
        );
        t.row("clReleaseProgram", "the program", CL_SUCCESS, move || {
            clRetainProgram(e.prog);
            clReleaseProgram(e.prog)
        });

        // clBuildProgram.
        let build = move |p: cl_program,
                          devices: &[cl_device_id],
                          num: cl_uint,
                          options: &str,
                          notify: ProgramNotify,
                          user: *mut c_void| {
            let o = CString::new(options).unwrap();
            let list = if devices.is_empty() {
                null()
            } else {
                devices.as_ptr()
            };
            clBuildProgram(p, num, list, o.as_ptr(), notify, user)
        };
        let entry = "clBuildProgram";
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        t.handle(
            entry,
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            move |p| build(p, &[], 0, "", None, null_mut()),
        );
        // "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
        // device_list is not NULL and num_devices is zero."
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        t.row(
            entry,
            "device_list NULL, num_devices 1",
            CL_INVALID_VALUE,
            move || build(e.unbuilt, &[], 1, "", None, null_mut()),
        );
        t.row(
            entry,
            "device_list given, num_devices 0",
            CL_INVALID_VALUE,
            move || build(e.unbuilt, &[d], 0, "", None, null_mut()),
        );
        t.row(
            entry,
            "user_data without pfn_notify",
            CL_INVALID_VALUE,
            move || build(e.unbuilt, &[], 0, "", None, data()),
        );
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with program."
        t.handle(
            entry,
            "device_list[0]",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |x| build(e.unbuilt, &[x], 1, "", None, null_mut()),
        );
        // "CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid."
        t.row(
            entry,
            "an unknown option",
            CL_INVALID_BUILD_OPTIONS,
            move || {
                let p = fresh(source);
                let r = build(p, &[], 0, "-cl-no-such-option", None, null_mut());
                clReleaseProgram(p);
                r
            },
        );
        // "CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program executable."
        t.row(
            entry,
            "broken source",
            CL_BUILD_PROGRAM_FAILURE,
            move || {
                let p = fresh(broken);
                let r = build(p, &[], 0, "", Some(program_done), data());
                clReleaseProgram(p);
                r
            },
        );
        // "CL_INVALID_OPERATION if there are kernel objects attached to program."
        // "CL_INVALID_OPERATION if program was not created with clCreateProgramWithSource,
        // clCreateProgramWithIL or clCreateProgramWithBinary."
        t.row(entry, "kernels attached", CL_INVALID_OPERATION, move || {
            build(e.prog, &[], 0, "", None, null_mut())
        });
        t.row(entry, "a linked program", CL_INVALID_OPERATION, move || {
            build(e.linked, &[], 0, "", None, null_mut())
        });
        t.row(
            entry,
            "order: program NULL and device_list NULL, num_devices 1",
            CL_INVALID_PROGRAM,
            move || build(null_mut(), &[], 1, "", None, null_mut()),
        );
        t.row(
            entry,
            "order: device_list NULL, num_devices 1 and an invalid device",
            CL_INVALID_VALUE,
            move || build(e.unbuilt, &[], 1, "", None, data()),
        );
        t.row(
            entry,
            "order: an invalid device and kernels attached",
            CL_INVALID_DEVICE,
            move || build(e.prog, &[null_mut()], 1, "", None, null_mut()),
        );
        t.row(
            entry,
            "order: an unknown option and kernels attached",
            CL_INVALID_BUILD_OPTIONS,
            move || build(e.prog, &[], 0, "-cl-no-such-option", None, null_mut()),
        );
        t.row(
            entry,
            "order: an unknown option and a linked program",
            CL_INVALID_BUILD_OPTIONS,
            move || build(e.linked, &[], 0, "-cl-no-such-option", None, null_mut()),
        );
        t.row(entry, "the source, for the device", CL_SUCCESS, move || {
            let p = fresh(source);
            let r = build(p, &[d], 1, "", Some(program_done), data());
            clReleaseProgram(p);
            r
        });

        // clCompileProgram.
        let compile = move |p: cl_program,
                            devices: &[cl_device_id],
                            num: cl_uint,
                            options: &str,
                            headers: (cl_uint, bool, bool),
                            notify: ProgramNotify,
                            user: *mut c_void| {
            let o = CString::new(options).unwrap();
            let list = if devices.is_empty() {
                null()
            } else {
                devices.as_ptr()
            };
            let (n, with_programs, with_names) = headers;
            let progs = [e.unbuilt];
            let mut names = [c"h.h".as_ptr()];
            clCompileProgram(
                p,
                num,
                list,
                o.as_ptr(),
                n,
                if with_programs {
                    progs.as_ptr()
                } else {
                    null()
                },
                if with_names {
                    names.as_mut_ptr()
                } else {
                    null_mut()
                },
                notify,
                user,
            )
        };
        let none = (0, false, false);
        let entry = "clCompileProgram";
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        t.handle(
            entry,
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            move |p| compile(p, &[], 0, "", none, None, null_mut()),
        );
        // "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
        // device_list is not NULL and num_devices is zero."
        t.row(
            entry,
            "device_list NULL, num_devices 1",
            CL_INVALID_VALUE,
            move || compile(e.unbuilt, &[], 1, "", none, None, null_mut()),
        );
        t.row(
            entry,
            "device_list given, num_devices 0",
            CL_INVALID_VALUE,
            move || compile(e.unbuilt, &[d], 0, "", none, None, null_mut()),
        );
        // "CL_INVALID_VALUE if num_input_headers is zero and header_include_names or
        // input_headers are not NULL or if num_input_headers is not zero and
        // header_include_names or input_headers are NULL."
        t.row(
            entry,
            "num_input_headers 0 with input_headers",
            CL_INVALID_VALUE,
            move || compile(e.unbuilt, &[], 0, "", (0, true, false), None, null_mut()),
        );
        t.row(
            entry,
            "num_input_headers 1, input_headers NULL",
            CL_INVALID_VALUE,
            move || compile(e.unbuilt, &[], 0, "", (1, false, true), None, null_mut()),
        );
        t.row(
            entry,
            "num_input_headers 1, header_include_names NULL",
            CL_INVALID_VALUE,
            move || compile(e.unbuilt, &[], 0, "", (1, true, false), None, null_mut()),
        );
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        t.row(
            entry,
            "user_data without pfn_notify",
            CL_INVALID_VALUE,
            move || compile(e.unbuilt, &[], 0, "", none, None, data()),
        );
        // "CL_INVALID_DEVICE if device in device_list is not in the list of devices associated
        // with program."
        t.handle(
            entry,
            "device_list[0]",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |x| compile(e.unbuilt, &[x], 1, "", none, None, null_mut()),
        );
        // "CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are
        // invalid."
        t.row(
            entry,
            "an unknown option",
            CL_INVALID_COMPILER_OPTIONS,
            move || {
                let p = fresh(source);
                let r = compile(p, &[], 0, "-cl-no-such-option", none, None, null_mut());
                clReleaseProgram(p);
                r
            },
        );
        // "CL_COMPILE_PROGRAM_FAILURE if there is a failure to compile the program source."
        t.row(
            entry,
            "broken source",
            CL_COMPILE_PROGRAM_FAILURE,
            move || {
                let p = fresh(broken);
                let r = compile(p, &[], 0, "", none, Some(program_done), data());
                clReleaseProgram(p);
                r
            },
        );
        // "CL_INVALID_OPERATION if there are kernel objects attached to program."
        // "CL_INVALID_OPERATION if program has no source or IL available, i.e. it has not been
        // created with one of clCreateProgramWithIL, clCreateProgramWithSource".
        t.row(entry, "kernels attached", CL_INVALID_OPERATION, move || {
            compile(e.prog, &[], 0, "", none, None, null_mut())
        });
        t.row(
            entry,
            "a program created from a binary",
            CL_INVALID_OPERATION,
            move || compile(e.object, &[], 0, "", none, None, null_mut()),
        );
        t.row(
            entry,
            "order: program NULL and num_input_headers 1 without headers",
            CL_INVALID_PROGRAM,
            move || compile(null_mut(), &[], 0, "", (1, false, false), None, null_mut()),
        );
        t.row(
            entry,
            "order: num_input_headers 0 with input_headers and an invalid device",
            CL_INVALID_VALUE,
            move || {
                compile(
                    e.unbuilt,
                    &[null_mut()],
                    1,
                    "",
                    (0, true, false),
                    None,
                    null_mut(),
                )
            },
        );
        t.row(
            entry,
            "order: an invalid device and a program from a binary",
            CL_INVALID_DEVICE,
            move || compile(e.object, &[null_mut()], 1, "", none, None, null_mut()),
        );
        t.row(
            entry,
            "order: an unknown option and a program from a binary",
            CL_INVALID_COMPILER_OPTIONS,
            move || {
                compile(
                    e.object,
                    &[],
                    0,
                    "-cl-no-such-option",
                    none,
                    None,
                    null_mut(),
                )
            },
        );
        t.row(
            entry,
            "order: an unknown option and kernels attached",
            CL_INVALID_COMPILER_OPTIONS,
            move || compile(e.prog, &[], 0, "-cl-no-such-option", none, None, null_mut()),
        );
        t.row(entry, "the source", CL_SUCCESS, move || {
            let p = fresh(source);
            let r = compile(p, &[d], 1, "", none, None, null_mut());
            clReleaseProgram(p);
            r
        });

        // clLinkProgram.
        let link = move |c: cl_context,
                         devices: &[cl_device_id],
                         num: cl_uint,
                         options: &str,
                         inputs: &[cl_program],
                         count: cl_uint,
                         notify: ProgramNotify,
                         user: *mut c_void| {
            let o = CString::new(options).unwrap();
            let list = if devices.is_empty() {
                null()
            } else {
                devices.as_ptr()
            };
            let ins = if inputs.is_empty() {
                null()
            } else {
                inputs.as_ptr()
            };
            let mut err = 0;
            let p = clLinkProgram(c, num, list, o.as_ptr(), count, ins, notify, user, &mut err);
            created(p, err, clReleaseProgram)
        };
        let obj = e.object;
        let lib = "-create-library";
        let entry = "clLinkProgram";
        // "CL_INVALID_CONTEXT if context is not a valid context."
        t.handle(
            entry,
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| link(c, &[], 0, lib, &[obj], 1, None, null_mut()),
        );
        // "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
        // device_list is not NULL and num_devices is zero."
        t.row(
            entry,
            "device_list NULL, num_devices 1",
            CL_INVALID_VALUE,
            move || link(e.ctx, &[], 1, lib, &[obj], 1, None, null_mut()),
        );
        t.row(
            entry,
            "device_list given, num_devices 0",
            CL_INVALID_VALUE,
            move || link(e.ctx, &[d], 0, lib, &[obj], 1, None, null_mut()),
        );
        // "CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL or if
        // num_input_programs is zero and input_programs is not NULL or if num_input_programs
        // is not zero and input_programs is NULL."
        t.row(
            entry,
            "num_input_programs 0, input_programs NULL",
            CL_INVALID_VALUE,
            move || link(e.ctx, &[], 0, lib, &[], 0, None, null_mut()),
        );
        t.row(
            entry,
            "num_input_programs 0 with input_programs",
            CL_INVALID_VALUE,
            move || link(e.ctx, &[], 0, lib, &[obj], 0, None, null_mut()),
        );
        t.row(
            entry,
            "num_input_programs 1, input_programs NULL",
            CL_INVALID_VALUE,
            move || link(e.ctx, &[], 0, lib, &[], 1, None, null_mut()),
        );
        // "CL_INVALID_PROGRAM if programs specified in input_programs are not valid program
        // objects."
        t.handle(
            entry,
            "input_programs[1]",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            move |p| link(e.ctx, &[], 0, lib, &[obj, p], 2, None, null_mut()),
        );
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        t.row(
            entry,
            "user_data without pfn_notify",
            CL_INVALID_VALUE,
            move || link(e.ctx, &[], 0, lib, &[obj], 1, None, data()),
        );
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with context."
        t.handle(
            entry,
            "device_list[0]",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |x| link(e.ctx, &[x], 1, lib, &[obj], 1, None, null_mut()),
        );
        // "CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid."
        t.row(
            entry,
            "an unknown option",
            CL_INVALID_LINKER_OPTIONS,
            move || {
                link(
                    e.ctx,
                    &[],
                    0,
                    "-no-such-option",
                    &[obj],
                    1,
                    None,
                    null_mut(),
                )
            },
        );
        // "CL_INVALID_OPERATION if the rules for devices containing compiled binaries or
        // libraries as described in input_programs argument above are not followed."
        t.row(
            entry,
            "an input neither compiled object nor library",
            CL_INVALID_OPERATION,
            move || link(e.ctx, &[], 0, lib, &[e.unbuilt], 1, None, null_mut()),
        );
        t.row(
            entry,
            "order: context NULL and num_input_programs 0",
            CL_INVALID_CONTEXT,
            move || link(null_mut(), &[], 0, lib, &[], 0, None, null_mut()),
        );
        t.row(
            entry,
            "order: device_list NULL, num_devices 1 and num_input_programs 0",
            CL_INVALID_VALUE,
            move || link(e.ctx, &[], 1, lib, &[], 0, None, null_mut()),
        );
        t.row(
            entry,
            "order: an invalid input and user_data without pfn_notify",
            CL_INVALID_PROGRAM,
            move || link(e.ctx, &[], 0, lib, &[null_mut()], 1, None, data()),
        );
        t.row(
            entry,
            "order: an invalid device and an unknown option",
            CL_INVALID_DEVICE,
            move || {
                link(
                    e.ctx,
                    &[null_mut()],
                    1,
                    "-no-such-option",
                    &[obj],
                    1,
                    None,
                    null_mut(),
                )
            },
        );
        t.row(
            entry,
            "order: an unknown option and an input not compiled",
            CL_INVALID_LINKER_OPTIONS,
            move || {
                link(
                    e.ctx,
                    &[],
                    0,
                    "-no-such-option",
                    &[e.unbuilt],
                    1,
                    None,
                    null_mut(),
                )
            },
        );
        t.row(
            entry,
            "a library of the compiled object",
            CL_SUCCESS,
            move || link(e.ctx, &[d], 1, lib, &[obj], 1, Some(program_done), data()),
        );

        // clGetProgramInfo: "CL_INVALID_PROGRAM if program is a not a valid program object."
        let entry = "clGetProgramInfo";
        t.handle(entry, "program", CL_INVALID_PROGRAM, e.bad_program(), |p| {
            clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, 0, null_mut(), &mut 0)
        });
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Program Object Queries table and param_value is not NULL."
        t.info(entry, CL_PROGRAM_NUM_KERNELS, move |n, s, v, r| {
            clGetProgramInfo(e.prog, n, s, v, r)
        });
        // "CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS,
        // CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
        // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program executable has not
        // been built for at least one device in the list of devices associated with program."
        for param in [
            CL_PROGRAM_NUM_KERNELS,
            CL_PROGRAM_KERNEL_NAMES,
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
            CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT,
        ] {
            t.row(
                entry,
                format!("param_name {param:#x} of a program not built"),
                CL_INVALID_PROGRAM_EXECUTABLE,
                move || {
                    let mut v = [0u8; 256];
                    clGetProgramInfo(e.unbuilt, param, v.len(), v.as_mut_ptr().cast(), null_mut())
                },
            );
        }
        t.row(
            entry,
            "order: a kernel as program and an unknown param_name",
            CL_INVALID_PROGRAM,
            move || clGetProgramInfo(e.k.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );
        t.row(
            entry,
            "order: CL_PROGRAM_NUM_KERNELS of a program not built, param_value_size 1",
            CL_INVALID_VALUE,
            move || {
                let mut v = [0u8; 8];
                clGetProgramInfo(
                    e.unbuilt,
                    CL_PROGRAM_NUM_KERNELS,
                    1,
                    v.as_mut_ptr().cast(),
                    null_mut(),
                )
            },
        );

        // clGetProgramBuildInfo: "CL_INVALID_PROGRAM if program is a not a valid program
        // object." "CL_INVALID_DEVICE if device is not in the list of devices associated with
        // program."
        let entry = "clGetProgramBuildInfo";
        t.handle(
            entry,
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            move |p| clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_STATUS, 0, null_mut(), &mut 0),
        );
        t.handle(
            entry,
            "device",
            CL_INVALID_DEVICE,
            e.bad_device(),
            move |x| {
                clGetProgramBuildInfo(e.prog, x, CL_PROGRAM_BUILD_STATUS, 0, null_mut(), &mut 0)
            },
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Program Build Queries table and param_value is not NULL."
        t.info(entry, CL_PROGRAM_BUILD_STATUS, move |n, s, v, r| {
            clGetProgramBuildInfo(e.prog, d, n, s, v, r)
        });
        t.row(
            entry,
            "order: program NULL and device NULL",
            CL_INVALID_PROGRAM,
            || clGetProgramBuildInfo(null_mut(), null_mut(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );
        t.row(
            entry,
            "order: device NULL and an unknown param_name",
            CL_INVALID_DEVICE,
            move || clGetProgramBuildInfo(e.prog, null_mut(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clSetProgramSpecializationConstant (the module declares SpecId 1: a 4-byte int).
        let spec = move |p: cl_program, id: cl_uint, size: usize, value: bool| {
            let v = 5u64;
            clSetProgramSpecializationConstant(
                p,
                id,
                size,
                if value { (&raw const v).cast() } else { null() },
            )
        };
        let entry = "clSetProgramSpecializationConstant";
        // "CL_INVALID_PROGRAM if program is not a valid program object created from an
        // intermediate language (e.g. SPIR-V), or if the intermediate language does not
        // support specialization constants."
        t.handle(
            entry,
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            move |p| spec(p, 1, 4, true),
        );
        t.row(
            entry,
            "a program from source",
            CL_INVALID_PROGRAM,
            move || spec(e.prog, 1, 4, true),
        );
        // "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier."
        t.row(entry, "spec_id 99", CL_INVALID_SPEC_ID, move || {
            spec(e.il, 99, 4, true)
        });
        // "CL_INVALID_VALUE if spec_size does not match the size of the specialization
        // constant in the module, or if spec_value is NULL."
        t.row(
            entry,
            "spec_size 8 for an int",
            CL_INVALID_VALUE,
            move || spec(e.il, 1, 8, true),
        );
        t.row(entry, "spec_value NULL", CL_INVALID_VALUE, move || {
            spec(e.il, 1, 4, false)
        });
        t.row(
            entry,
            "order: a program from source and spec_id 99",
            CL_INVALID_PROGRAM,
            move || spec(e.prog, 99, 4, true),
        );
        t.row(
            entry,
            "order: spec_id 99 and spec_value NULL",
            CL_INVALID_SPEC_ID,
            move || spec(e.il, 99, 4, false),
        );
        t.row(entry, "SpecId 1, 4 bytes", CL_SUCCESS, move || {
            spec(e.il, 1, 4, true)
        });
    }
}

fn kernel_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let d = e.d;
        // clCreateKernel.
        let create = move |p: cl_program, name: Option<&str>| {
            let n = name.map(|s| CString::new(s).unwrap());
            let mut err = 0;
            let k = clCreateKernel(p, n.as_ref().map_or(null(), |n| n.as_ptr()), &mut err);
            created(k, err, clReleaseKernel)
        };
        let entry = "clCreateKernel";
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        t.handle(
            entry,
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            move |p| create(p, Some("fill")),
        );
        // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for
        // program."
        t.row(
            entry,
            "a program not built",
            CL_INVALID_PROGRAM_EXECUTABLE,
            move || create(e.unbuilt, Some("fill")),
        );
        t.row(
            entry,
            "a library",
            CL_INVALID_PROGRAM_EXECUTABLE,
            move || create(e.linked, Some("spec")),
        );
        // "CL_INVALID_KERNEL_NAME if kernel_name is not found in program."
        t.row(
            entry,
            "an unknown name",
            CL_INVALID_KERNEL_NAME,
            move || create(e.prog, Some("nope")),
        );
        // "CL_INVALID_VALUE if kernel_name is NULL." Decision: NULL is this error, not
        // CL_INVALID_KERNEL_NAME (listed first), which needs a name to look for.
        t.row(entry, "kernel_name NULL", CL_INVALID_VALUE, move || {
            create(e.prog, None)
        });
        t.row(
            entry,
            "order: program NULL and kernel_name NULL",
            CL_INVALID_PROGRAM,
            move || create(null_mut(), None),
        );
        t.row(
            entry,
            "order: a program not built and an unknown name",
            CL_INVALID_PROGRAM_EXECUTABLE,
            move || create(e.unbuilt, Some("nope")),
        );
        t.row(
            entry,
            "order: a program not built and kernel_name NULL",
            CL_INVALID_PROGRAM_EXECUTABLE,
            move || create(e.unbuilt, None),
        );
        t.row(entry, "fill", CL_SUCCESS, move || {
            create(e.prog, Some("fill"))
        });

        // clCreateKernelsInProgram.
        let all = move |p: cl_program, room: cl_uint, with: bool| {
            let mut ks = [data().cast::<_cl_kernel>(); 4];
            let mut n = 9;
            let r = clCreateKernelsInProgram(
                p,
                room,
                if with { ks.as_mut_ptr() } else { null_mut() },
                &mut n,
            );
            if r != CL_SUCCESS {
                return expect(r, ks.iter().all(|&k| k == data().cast()) && n == 9);
            }
            for &k in ks.iter().take(n as usize) {
                if with {
                    clReleaseKernel(k);
                }
            }
            expect(r, n == 3)
        };
        let entry = "clCreateKernelsInProgram";
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        t.handle(
            entry,
            "program",
            CL_INVALID_PROGRAM,
            e.bad_program(),
            move |p| all(p, 4, true),
        );
        // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for any
        // device in program."
        t.row(
            entry,
            "a program not built",
            CL_INVALID_PROGRAM_EXECUTABLE,
            move || all(e.unbuilt, 4, true),
        );
        // "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of
        // kernels in program."
        t.row(
            entry,
            "room for 2 of 3 kernels",
            CL_INVALID_VALUE,
            move || all(e.prog, 2, true),
        );
        t.row(
            entry,
            "order: program NULL and no room",
            CL_INVALID_PROGRAM,
            move || all(null_mut(), 0, true),
        );
        t.row(
            entry,
            "order: a program not built and no room",
            CL_INVALID_PROGRAM_EXECUTABLE,
            move || all(e.unbuilt, 0, true),
        );
        t.row(entry, "the count only", CL_SUCCESS, move || {
            all(e.prog, 0, false)
        });
        t.row(entry, "all three", CL_SUCCESS, move || all(e.prog, 4, true));

        // clRetainKernel, clReleaseKernel: "CL_INVALID_KERNEL if kernel is not a valid kernel
        // object."
        t.handle(
            "clRetainKernel",
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            |k| clRetainKernel(k),
        );
        t.row("clRetainKernel", "the kernel", CL_SUCCESS, move || {
            let r = clRetainKernel(e.k);
            clReleaseKernel(e.k);
            r
        });
        t.handle(
            "clReleaseKernel",
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            |k| clReleaseKernel(k),
        );
        t.row("clReleaseKernel", "the kernel", CL_SUCCESS, move || {
            clRetainKernel(e.k);
            clReleaseKernel(e.k)
        });

        // clSetKernelArg, on a clone of `fill` whose output is a fresh buffer and whose v is
        // 7: a failed call must leave the previous value (the launch still writes 7s into that
        // buffer). "When clSetKernelArg returns an error code different from CL_SUCCESS, the
        // internal state of kernel may only be modified when that error code is
        // CL_OUT_OF_RESOURCES or CL_OUT_OF_HOST_MEMORY."
        let set = move |k: Option<cl_kernel>, index: cl_uint, size: usize, value: *const c_void| {
            let Some(k) = k else {
                return clSetKernelArg(null_mut(), index, size, value);
            };
            let mut err = 0;
            let c = clCloneKernel(k, &mut err);
            assert_eq!(err, CL_SUCCESS);
            let out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 16, null_mut(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            let seven = 7i32;
            let is_fill = k == e.k;
            if is_fill {
                assert_eq!(clSetKernelArg(c, 0, 8, (&raw const out).cast()), CL_SUCCESS);
                assert_eq!(
                    clSetKernelArg(c, 1, 4, (&raw const seven).cast()),
                    CL_SUCCESS
                );
            }
            let r = clSetKernelArg(c, index, size, value);
            let mut kept = true;
            if r != CL_SUCCESS && is_fill {
                let g = 4usize;
                let l =
                    clEnqueueNDRangeKernel(e.q, c, 1, null(), &g, null(), 0, null(), null_mut());
                kept = l == CL_SUCCESS && bytes(e.q, out, 16) == [7, 0, 0, 0].repeat(4);
            }
            clReleaseKernel(c);
            clReleaseMemObject(out);
            expect(r, kept)
        };
        let (k, k_local) = (Some(e.k), Some(e.k_local));
        let entry = "clSetKernelArg";
        let nine = Box::leak(Box::new(9i64)) as *const i64;
        let stale_mem = Box::leak(Box::new(e.stale.mem)) as *const cl_mem;
        let a_context = Box::leak(Box::new(e.ctx.cast::<_cl_mem>())) as *const cl_mem;
        let other_ctx = Box::leak(Box::new(e.buf2)) as *const cl_mem;
        // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |x| clSetKernelArg(x, 1, 4, nine.cast()),
        );
        // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
        t.row(
            entry,
            "arg_index 2 of 2 arguments",
            CL_INVALID_ARG_INDEX,
            move || set(k, 2, 4, nine.cast()),
        );
        // "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value." ("arg_value is a
        // pointer to data that should be used as the argument value"; "If the argument is
        // declared with the local qualifier, the arg_value entry must be NULL.")
        t.row(
            entry,
            "int argument, arg_value NULL",
            CL_INVALID_ARG_VALUE,
            move || set(k, 1, 4, null()),
        );
        t.row(
            entry,
            "__local argument, arg_value not NULL",
            CL_INVALID_ARG_VALUE,
            move || set(k_local, 1, 16, nine.cast()),
        );
        // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
        // specified arg_value is not a valid memory object."
        t.row(
            entry,
            "buffer argument, a released buffer",
            CL_INVALID_MEM_OBJECT,
            move || set(k, 0, 8, stale_mem.cast()),
        );
        t.row(
            entry,
            "buffer argument, a live context",
            CL_INVALID_MEM_OBJECT,
            move || set(k, 0, 8, a_context.cast()),
        );
        // "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for an
        // argument that is not a memory object, or if the argument is a memory object and
        // arg_size != sizeof(cl_mem), or if arg_size is zero and the argument is declared with
        // the local qualifier".
        t.row(
            entry,
            "int argument, arg_size 8",
            CL_INVALID_ARG_SIZE,
            move || set(k, 1, 8, nine.cast()),
        );
        t.row(
            entry,
            "buffer argument, arg_size 4",
            CL_INVALID_ARG_SIZE,
            move || set(k, 0, 4, nine.cast()),
        );
        t.row(
            entry,
            "__local argument, arg_size 0",
            CL_INVALID_ARG_SIZE,
            move || set(k_local, 1, 0, null()),
        );
        t.row(
            entry,
            "order: kernel NULL and arg_index 2",
            CL_INVALID_KERNEL,
            move || set(None, 2, 4, nine.cast()),
        );
        t.row(
            entry,
            "order: arg_index 2 and arg_value NULL",
            CL_INVALID_ARG_INDEX,
            move || set(k, 2, 4, null()),
        );
        t.row(
            entry,
            "order: int argument, arg_value NULL and arg_size 8",
            CL_INVALID_ARG_VALUE,
            move || set(k, 1, 8, null()),
        );
        t.row(
            entry,
            "order: __local argument, arg_value not NULL and arg_size 0",
            CL_INVALID_ARG_VALUE,
            move || set(k_local, 1, 0, nine.cast()),
        );
        // Decision: a buffer argument with arg_size 4 cannot be read as a cl_mem, so its value
        // is not looked at: CL_INVALID_ARG_SIZE whatever it points to.
        t.row(
            entry,
            "order: buffer argument, arg_size 4 and a released buffer",
            CL_INVALID_ARG_SIZE,
            move || set(k, 0, 4, stale_mem.cast()),
        );
        // "The memory object must be created with the context associated with the kernel
        // object." No error names it; decision: such a buffer "is not a valid memory object"
        // for this kernel, CL_INVALID_MEM_OBJECT (and the previous value stays).
        t.row(
            entry,
            "buffer argument, a buffer of another context",
            CL_INVALID_MEM_OBJECT,
            move || set(k, 0, 8, other_ctx.cast()),
        );
        t.row(entry, "v = 9", CL_SUCCESS, move || {
            set(k, 1, 4, nine.cast())
        });

        // clGetKernelInfo: "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
        let entry = "clGetKernelInfo";
        t.handle(entry, "kernel", CL_INVALID_KERNEL, e.bad_kernel(), |k| {
            clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 0, null_mut(), &mut 0)
        });
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Kernel Object Queries table and param_value is not NULL."
        t.info(entry, CL_KERNEL_NUM_ARGS, move |n, s, v, r| {
            clGetKernelInfo(e.k, n, s, v, r)
        });
        t.row(
            entry,
            "order: a program as kernel and an unknown param_name",
            CL_INVALID_KERNEL,
            move || clGetKernelInfo(e.prog.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clGetKernelArgInfo.
        let arg_info = move |k: cl_kernel, index: cl_uint, param: cl_uint, size: usize| {
            let mut v = [0xAAu8; 64];
            let r = clGetKernelArgInfo(k, index, param, size, v.as_mut_ptr().cast(), null_mut());
            expect(r, r == CL_SUCCESS || untouched(&v))
        };
        let entry = "clGetKernelArgInfo";
        let addr = CL_KERNEL_ARG_ADDRESS_QUALIFIER;
        // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |k| arg_info(k, 0, addr, 64),
        );
        // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
        t.row(entry, "arg_index 2 of 2", CL_INVALID_ARG_INDEX, move || {
            arg_info(e.k, 2, addr, 64)
        });
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Kernel Argument Queries table and param_value is not NULL."
        t.info(entry, CL_KERNEL_ARG_NAME, move |n, s, v, r| {
            clGetKernelArgInfo(e.k, 0, n, s, v, r)
        });
        t.row(
            entry,
            "CL_KERNEL_ARG_TYPE_QUALIFIER, param_value_size 4",
            CL_INVALID_VALUE,
            move || arg_info(e.k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, 4),
        );
        // "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available for
        // kernel." (a program from IL)
        t.row(
            entry,
            "a kernel of a program from IL",
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
            move || arg_info(e.k_il, 0, CL_KERNEL_ARG_NAME, 64),
        );
        t.row(
            entry,
            "order: kernel NULL and arg_index 2",
            CL_INVALID_KERNEL,
            move || arg_info(null_mut(), 2, addr, 64),
        );
        t.row(
            entry,
            "order: arg_index 2 and an unknown param_name",
            CL_INVALID_ARG_INDEX,
            move || arg_info(e.k, 2, 0x7fff_0000, 64),
        );
        t.row(
            entry,
            "order: an unknown param_name of a kernel without argument information",
            CL_INVALID_VALUE,
            move || arg_info(e.k_il, 0, 0x7fff_0000, 64),
        );
        t.row(
            entry,
            "order: CL_KERNEL_ARG_ADDRESS_QUALIFIER in 1 byte, without argument information",
            CL_INVALID_VALUE,
            move || arg_info(e.k_il, 0, addr, 1),
        );

        // clGetKernelWorkGroupInfo.
        let wg = move |k: cl_kernel, x: cl_device_id, param: cl_uint| {
            clGetKernelWorkGroupInfo(k, x, param, 0, null_mut(), &mut 0)
        };
        let size = CL_KERNEL_WORK_GROUP_SIZE;
        let entry = "clGetKernelWorkGroupInfo";
        // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |k| wg(k, d, size),
        );
        // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or
        // if device is NULL but there is more than one device associated with kernel."
        // (NULL is the kernel's only device.)
        let b = e.bad_device();
        t.row(
            entry,
            "device is a live context",
            CL_INVALID_DEVICE,
            move || wg(e.k, b.wrong, size),
        );
        t.row(
            entry,
            "device is a released context",
            CL_INVALID_DEVICE,
            move || wg(e.k, b.released, size),
        );
        t.row(
            entry,
            "device NULL: the only device",
            CL_SUCCESS,
            move || wg(e.k, null_mut(), size),
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type ..."
        // "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a
        // custom device and kernel is not a built-in kernel."
        t.info(entry, size, move |n, s, v, r| {
            clGetKernelWorkGroupInfo(e.k, d, n, s, v, r)
        });
        t.row(
            entry,
            "CL_KERNEL_GLOBAL_WORK_SIZE",
            CL_INVALID_VALUE,
            move || wg(e.k, d, CL_KERNEL_GLOBAL_WORK_SIZE),
        );
        t.row(
            entry,
            "order: kernel NULL and device a context",
            CL_INVALID_KERNEL,
            move || wg(null_mut(), e.ctx.cast(), size),
        );
        t.row(
            entry,
            "order: device a context and an unknown param_name",
            CL_INVALID_DEVICE,
            move || wg(e.k, e.ctx.cast(), 0x7fff_0000),
        );

        // clGetKernelSubGroupInfoKHR (cl_khr_subgroups): the core function's checks, in its
        // order, under the extension's name.
        let sg_khr = move |k: cl_kernel, x: cl_device_id, input: Option<usize>| {
            let local = [64usize, 1, 1];
            let (isize, ip) = match input {
                Some(n) => (n, local.as_ptr().cast::<c_void>()),
                None => (24, null()),
            };
            clGetKernelSubGroupInfoKHR(
                k,
                x,
                CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                isize,
                ip,
                0,
                null_mut(),
                &mut 0,
            )
        };
        let entry = "clGetKernelSubGroupInfoKHR";
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |k| sg_khr(k, d, Some(24)),
        );
        t.row(
            entry,
            "device is a live context",
            CL_INVALID_DEVICE,
            move || sg_khr(e.k, b.wrong, Some(24)),
        );
        t.row(entry, "input_value NULL", CL_INVALID_VALUE, move || {
            sg_khr(e.k, d, None)
        });
        t.row(
            entry,
            "order: kernel NULL and input_value NULL",
            CL_INVALID_KERNEL,
            move || sg_khr(null_mut(), d, None),
        );

        // clGetKernelSubGroupInfo.
        let sg = move |k: cl_kernel, x: cl_device_id, param: cl_uint, input: Option<usize>| {
            let local = [64usize, 1, 1];
            let (isize, ip) = match input {
                Some(n) => (n, local.as_ptr().cast::<c_void>()),
                None => (24, null()),
            };
            clGetKernelSubGroupInfo(k, x, param, isize, ip, 0, null_mut(), &mut 0)
        };
        let count = CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE;
        let entry = "clGetKernelSubGroupInfo";
        // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |k| sg(k, d, count, Some(24)),
        );
        // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or
        // if device is NULL but there is more than one device associated with kernel."
        t.row(
            entry,
            "device is a live context",
            CL_INVALID_DEVICE,
            move || sg(e.k, b.wrong, count, Some(24)),
        );
        t.row(
            entry,
            "device is a released context",
            CL_INVALID_DEVICE,
            move || sg(e.k, b.released, count, Some(24)),
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type ..."
        t.info(entry, CL_KERNEL_MAX_NUM_SUB_GROUPS, move |n, s, v, r| {
            clGetKernelSubGroupInfo(e.k, d, n, 0, null(), s, v, r)
        });
        // "CL_INVALID_VALUE if param_name is CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        // CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE or CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and
        // the size in bytes specified by input_value_size is not valid or if input_value is
        // NULL."
        t.row(entry, "input_value NULL", CL_INVALID_VALUE, move || {
            sg(e.k, d, count, None)
        });
        t.row(entry, "input_value_size 5", CL_INVALID_VALUE, move || {
            sg(e.k, d, count, Some(5))
        });
        t.row(
            entry,
            "order: kernel NULL and input_value NULL",
            CL_INVALID_KERNEL,
            move || sg(null_mut(), d, count, None),
        );
        t.row(
            entry,
            "order: device a context and input_value NULL",
            CL_INVALID_DEVICE,
            move || sg(e.k, e.ctx.cast(), count, None),
        );
        t.row(entry, "a 64-item work-group", CL_SUCCESS, move || {
            sg(e.k, d, count, Some(24))
        });

        // clCloneKernel: "CL_INVALID_KERNEL if kernel is not a valid kernel object."
        t.handle(
            "clCloneKernel",
            "source_kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            |k| {
                let mut err = 0;
                let c = clCloneKernel(k, &mut err);
                created(c, err, clReleaseKernel)
            },
        );
        t.row("clCloneKernel", "fill", CL_SUCCESS, move || {
            let mut err = 0;
            let c = clCloneKernel(e.k, &mut err);
            created(c, err, clReleaseKernel)
        });

        // clSetKernelExecInfo: "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
        // "CL_INVALID_OPERATION for CL_KERNEL_EXEC_INFO_SVM_PTRS and
        // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM if no devices in the context associated
        // with kernel support SVM." "CL_INVALID_VALUE if param_name is not valid, if
        // param_value is NULL or if the size specified by param_value_size is not valid."
        let exec = move |k: cl_kernel, param: cl_uint, value: bool| {
            let t = CL_TRUE;
            let v = if value {
                (&raw const t).cast::<c_void>()
            } else {
                null()
            };
            clSetKernelExecInfo(k, param, 4, v)
        };
        let entry = "clSetKernelExecInfo";
        let svm = CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM;
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |k| exec(k, svm, true),
        );
        t.row(
            entry,
            "CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM without SVM",
            CL_INVALID_OPERATION,
            move || exec(e.k, svm, true),
        );
        t.row(
            entry,
            "an unknown param_name",
            CL_INVALID_VALUE,
            move || exec(e.k, 0x7fff_0000, true),
        );
        t.row(
            entry,
            "order: kernel NULL and an unknown param_name",
            CL_INVALID_KERNEL,
            move || exec(null_mut(), 0x7fff_0000, true),
        );
        t.row(
            entry,
            "order: CL_KERNEL_EXEC_INFO_SVM_PTRS without SVM, param_value NULL",
            CL_INVALID_OPERATION,
            move || exec(e.k, CL_KERNEL_EXEC_INFO_SVM_PTRS, false),
        );
    }
}

fn launch_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        #[derive(Clone, Copy)]
        struct L {
            dim: cl_uint,
            offset: Option<[usize; 3]>,
            global: Option<[usize; 3]>,
            local: Option<[usize; 3]>,
        }
        let ok = L {
            dim: 1,
            offset: None,
            global: Some([64, 1, 1]),
            local: None,
        };
        let nd = move |q: cl_command_queue, k: cl_kernel, l: L, n: cl_uint, w: *const cl_event| {
            ev(|o| {
                clEnqueueNDRangeKernel(
                    q,
                    k,
                    l.dim,
                    arr(&l.offset),
                    arr(&l.global),
                    arr(&l.local),
                    n,
                    w,
                    o,
                )
            })
        };
        let q = e.q;
        let k = e.k;
        let entry = "clEnqueueNDRangeKernel";
        // ("CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built program executable
        // available for the device associated with command_queue" cannot happen: a kernel
        // exists only for an executable.)
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| nd(x, k, ok, 0, null()),
        );
        // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |x| nd(q, x, ok, 0, null()),
        );
        // "CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the
        // same or if the context associated with command_queue and events in event_wait_list
        // are not the same."
        t.row(
            entry,
            "a queue of another context",
            CL_INVALID_CONTEXT,
            move || nd(e.q2, k, ok, 0, null()),
        );
        // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified."
        t.row(
            entry,
            "no argument set",
            CL_INVALID_KERNEL_ARGS,
            move || nd(q, e.k_unset, ok, 0, null()),
        );
        // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1
        // and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
        t.row(entry, "work_dim 0", CL_INVALID_WORK_DIMENSION, move || {
            nd(q, k, L { dim: 0, ..ok }, 0, null())
        });
        t.row(entry, "work_dim 4", CL_INVALID_WORK_DIMENSION, move || {
            nd(q, k, L { dim: 4, ..ok }, 0, null())
        });
        // ("CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of the values
        // ... are zero. This error condition does not apply when the device associated with
        // command_queue supports OpenCL 2.1 or newer.": a launch with nothing to run.)
        t.row(
            entry,
            "global_work_size NULL: nothing to run",
            CL_SUCCESS,
            move || nd(q, k, L { global: None, ..ok }, 0, null()),
        );
        // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the
        // corresponding values in global_work_offset for any dimensions is greater than the
        // maximum value representable by size t on the device on which the kernel-instance
        // will be enqueued".
        let overflow = L {
            offset: Some([usize::MAX - 8, 0, 0]),
            ..ok
        };
        t.row(
            entry,
            "global_work_offset + global_work_size overflows",
            CL_INVALID_GLOBAL_OFFSET,
            move || nd(q, k, overflow, 0, null()),
        );
        // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the
        // required work-group size for kernel in the program source."
        // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the total number of
        // work-items in the work-group computed as local_work_size[0] × ...
        // local_work_size[work_dim - 1] is greater than the value specified by
        // CL_KERNEL_WORK_GROUP_SIZE in the Kernel Object Device Queries table."
        // "CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and the
        // local_work_size is not NULL, is not equal to the required work-group size specified in
        // the kernel source, or the global_work_size is not evenly divisible by the
        // local_work_size."
        let bad: [(&str, cl_kernel, L); 5] = [
            (
                "local 8 for reqd_work_group_size(4, 1, 1)",
                e.k_fixed,
                L {
                    local: Some([8, 1, 1]),
                    ..ok
                },
            ),
            (
                "16 × 32 work-items, more than 256",
                k,
                L {
                    dim: 2,
                    global: Some([64, 64, 1]),
                    local: Some([16, 32, 1]),
                    ..ok
                },
            ),
            (
                "global 10 not a multiple of local 4 (OpenCL C 1.2: uniform)",
                k,
                L {
                    global: Some([10, 1, 1]),
                    local: Some([4, 1, 1]),
                    ..ok
                },
            ),
            (
                "local 0",
                k,
                L {
                    local: Some([0, 1, 1]),
                    ..ok
                },
            ),
            // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
            // local_work_size[0], ... local_work_size[work_dim - 1] is greater than the
            // corresponding values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES" is listed after
            // these: a dimension above 256 makes a group above CL_KERNEL_WORK_GROUP_SIZE (256)
            // first, so CL_INVALID_WORK_ITEM_SIZE cannot be reached on this device.
            (
                "local 257 (more than CL_DEVICE_MAX_WORK_ITEM_SIZES[0] too)",
                k,
                L {
                    global: Some([257, 1, 1]),
                    local: Some([257, 1, 1]),
                    ..ok
                },
            ),
        ];
        for (what, kk, l) in bad {
            t.row(entry, what, CL_INVALID_WORK_GROUP_SIZE, move || {
                nd(q, kk, l, 0, null())
            });
        }
        // "CL_OUT_OF_RESOURCES if there is a failure to queue the execution instance of kernel
        // on the command-queue because of insufficient resources needed to execute the
        // kernel. For example, the explicitly specified local_work_size causes a failure to
        // execute the kernel because of insufficient resources such as registers or local
        // memory."
        t.row(
            entry,
            "a __local argument larger than the local memory",
            CL_OUT_OF_RESOURCES,
            move || nd(q, e.k_big, ok, 0, null()),
        );
        t.wait_list(entry, e, true, move |n, l| nd(q, k, ok, n, l));
        t.row(
            entry,
            "order: command_queue NULL and kernel NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || nd(null_mut(), null_mut(), ok, 0, null()),
        );
        t.row(
            entry,
            "order: kernel NULL and an event of another context",
            CL_INVALID_KERNEL,
            move || nd(q, null_mut(), ok, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: an event of another context and no argument set",
            CL_INVALID_CONTEXT,
            move || nd(q, e.k_unset, ok, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: no argument set and work_dim 0",
            CL_INVALID_KERNEL_ARGS,
            move || nd(q, e.k_unset, L { dim: 0, ..ok }, 0, null()),
        );
        t.row(
            entry,
            "order: work_dim 0 and event_wait_list NULL with 1",
            CL_INVALID_WORK_DIMENSION,
            move || nd(q, k, L { dim: 0, ..ok }, 1, null()),
        );
        t.row(
            entry,
            "order: an overflowing offset and local 0",
            CL_INVALID_GLOBAL_OFFSET,
            move || {
                let l = L {
                    local: Some([0, 1, 1]),
                    ..overflow
                };
                nd(q, k, l, 0, null())
            },
        );
        t.row(
            entry,
            "order: a __local argument too large and event_wait_list NULL with 1",
            CL_OUT_OF_RESOURCES,
            move || nd(q, e.k_big, ok, 1, null()),
        );
        t.row(
            entry,
            "order: local 0 and event_wait_list NULL with 1",
            CL_INVALID_WORK_GROUP_SIZE,
            move || {
                let l = L {
                    local: Some([0, 1, 1]),
                    ..ok
                };
                nd(q, k, l, 1, null())
            },
        );
        t.row(entry, "64 work-items", CL_SUCCESS, move || {
            nd(q, k, ok, 1, [e.done].as_ptr())
        });
        t.row(
            entry,
            "the required work-group size",
            CL_SUCCESS,
            move || nd(q, e.k_fixed, ok, 0, null()),
        );
        t.row(entry, "a 16-byte __local argument", CL_SUCCESS, move || {
            let l = L {
                local: Some([4, 1, 1]),
                ..ok
            };
            nd(q, e.k_local, l, 0, null())
        });

        // clEnqueueTask: "equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1,
        // global_work_offset set to NULL, global_work_size[0] set to 1, and local_work_size[0]
        // set to 1".
        let task = move |q: cl_command_queue, k: cl_kernel, n: cl_uint, w: *const cl_event| {
            ev(|o| clEnqueueTask(q, k, n, w, o))
        };
        let entry = "clEnqueueTask";
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| task(x, k, 0, null()),
        );
        // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
        t.handle(
            entry,
            "kernel",
            CL_INVALID_KERNEL,
            e.bad_kernel(),
            move |x| task(q, x, 0, null()),
        );
        // "CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the
        // same or if the context associated with command_queue and events in event_wait_list
        // are not the same."
        t.row(
            entry,
            "a queue of another context",
            CL_INVALID_CONTEXT,
            move || task(e.q2, k, 0, null()),
        );
        // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified."
        t.row(
            entry,
            "no argument set",
            CL_INVALID_KERNEL_ARGS,
            move || task(q, e.k_unset, 0, null()),
        );
        // "CL_INVALID_WORK_GROUP_SIZE if a work-group size is specified for kernel in the
        // program source and it is not (1, 1, 1)."
        t.row(
            entry,
            "reqd_work_group_size(4, 1, 1)",
            CL_INVALID_WORK_GROUP_SIZE,
            move || task(q, e.k_fixed, 0, null()),
        );
        t.wait_list(entry, e, true, move |n, l| task(q, k, n, l));
        t.row(
            entry,
            "order: command_queue NULL and kernel NULL",
            CL_INVALID_COMMAND_QUEUE,
            move || task(null_mut(), null_mut(), 0, null()),
        );
        t.row(
            entry,
            "order: an event of another context and no argument set",
            CL_INVALID_CONTEXT,
            move || task(q, e.k_unset, 1, [e.done2].as_ptr()),
        );
        t.row(
            entry,
            "order: reqd_work_group_size(4, 1, 1) and event_wait_list NULL with 1",
            CL_INVALID_WORK_GROUP_SIZE,
            move || task(q, e.k_fixed, 1, null()),
        );
        t.row(entry, "fill", CL_SUCCESS, move || task(q, k, 0, null()));
    }
}

fn event_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        // clWaitForEvents.
        let wait = |list: &[cl_event], n: cl_uint| {
            clWaitForEvents(
                n,
                if list.is_empty() {
                    null()
                } else {
                    list.as_ptr()
                },
            )
        };
        let entry = "clWaitForEvents";
        // "CL_INVALID_VALUE if num_events is zero or event_list is NULL."
        t.row(entry, "num_events 0", CL_INVALID_VALUE, move || {
            wait(&[e.done], 0)
        });
        t.row(entry, "event_list NULL", CL_INVALID_VALUE, move || {
            wait(&[], 1)
        });
        // "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same
        // context."
        t.row(
            entry,
            "events of two contexts",
            CL_INVALID_CONTEXT,
            move || wait(&[e.done, e.done2], 2),
        );
        // "CL_INVALID_EVENT if event objects specified in event_list are not valid event
        // objects."
        t.handle(
            entry,
            "event_list[1]",
            CL_INVALID_EVENT,
            e.bad_event(),
            move |x| wait(&[e.done, x], 2),
        );
        // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of the
        // events in event_list is a negative integer value."
        t.row(
            entry,
            "an event that failed",
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            move || wait(&[e.done, e.failed], 2),
        );
        t.row(
            entry,
            "order: num_events 0 with a released event",
            CL_INVALID_VALUE,
            move || wait(&[e.stale.event], 0),
        );
        t.row(
            entry,
            "order: a released event, then events of two contexts",
            CL_INVALID_CONTEXT,
            move || wait(&[e.done, e.stale.event, e.done2], 3),
        );
        t.row(
            entry,
            "order: a released event and an event that failed",
            CL_INVALID_EVENT,
            move || wait(&[e.failed, e.stale.event], 2),
        );
        t.row(entry, "two complete events", CL_SUCCESS, move || {
            wait(&[e.done, e.marker], 2)
        });

        // clCreateUserEvent: "CL_INVALID_CONTEXT if context is not a valid context."
        let user = |c: cl_context| {
            let mut err = 0;
            let u = clCreateUserEvent(c, &mut err);
            created(u, err, clReleaseEvent)
        };
        t.handle(
            "clCreateUserEvent",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            user,
        );
        t.row("clCreateUserEvent", "the context", CL_SUCCESS, move || {
            user(e.ctx)
        });

        // clSetUserEventStatus, on a fresh user event unless given one: a failed call leaves its
        // status CL_SUBMITTED.
        let status = move |ev: Option<cl_event>, s: cl_int, before: Option<cl_int>| {
            let Some(x) = ev else {
                let u = user_event(e.ctx, before);
                let r = clSetUserEventStatus(u, s);
                let kept = r == CL_SUCCESS || event_status(u) == before.unwrap_or(CL_SUBMITTED);
                clReleaseEvent(u);
                return expect(r, kept);
            };
            clSetUserEventStatus(x, s)
        };
        let entry = "clSetUserEventStatus";
        // "CL_INVALID_EVENT if event is not a valid user event object."
        t.handle(entry, "event", CL_INVALID_EVENT, e.bad_event(), move |x| {
            status(Some(x), CL_COMPLETE, None)
        });
        t.row(entry, "a marker's event", CL_INVALID_EVENT, move || {
            status(Some(e.marker), CL_COMPLETE, None)
        });
        // "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer
        // value."
        t.row(
            entry,
            "CL_RUNNING (status unchanged)",
            CL_INVALID_VALUE,
            move || status(None, CL_RUNNING, None),
        );
        // "CL_INVALID_OPERATION if the execution_status for event has already been changed by
        // a previous call to clSetUserEventStatus."
        t.row(entry, "set twice", CL_INVALID_OPERATION, move || {
            status(None, CL_COMPLETE, Some(CL_COMPLETE))
        });
        t.row(
            entry,
            "set again after an error",
            CL_INVALID_OPERATION,
            move || status(None, CL_COMPLETE, Some(-5)),
        );
        t.row(
            entry,
            "order: a marker's event and CL_RUNNING",
            CL_INVALID_EVENT,
            move || status(Some(e.marker), CL_RUNNING, None),
        );
        t.row(
            entry,
            "order: CL_RUNNING after CL_COMPLETE",
            CL_INVALID_VALUE,
            move || status(None, CL_RUNNING, Some(CL_COMPLETE)),
        );
        t.row(entry, "an error status", CL_SUCCESS, move || {
            status(None, -3, None)
        });

        // clSetEventCallback: "CL_INVALID_EVENT if event is not a valid event object."
        // "CL_INVALID_VALUE if pfn_event_notify is NULL or if command_exec_callback_type is not
        // CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE."
        let entry = "clSetEventCallback";
        t.handle(entry, "event", CL_INVALID_EVENT, e.bad_event(), |x| {
            clSetEventCallback(x, CL_COMPLETE, Some(event_seen), null_mut())
        });
        t.row(entry, "pfn_notify NULL", CL_INVALID_VALUE, move || {
            clSetEventCallback(e.done, CL_COMPLETE, None, null_mut())
        });
        t.row(
            entry,
            "callback type CL_QUEUED",
            CL_INVALID_VALUE,
            move || clSetEventCallback(e.done, CL_QUEUED, Some(event_seen), null_mut()),
        );
        t.row(
            entry,
            "order: event NULL and pfn_notify NULL",
            CL_INVALID_EVENT,
            || clSetEventCallback(null_mut(), 99, None, null_mut()),
        );
        t.row(
            entry,
            "CL_COMPLETE of a complete event",
            CL_SUCCESS,
            move || clSetEventCallback(e.done, CL_COMPLETE, Some(event_seen), null_mut()),
        );

        // clGetEventInfo: "CL_INVALID_EVENT if event is a not a valid event object."
        let entry = "clGetEventInfo";
        t.handle(entry, "event", CL_INVALID_EVENT, e.bad_event(), |x| {
            clGetEventInfo(x, CL_EVENT_COMMAND_TYPE, 0, null_mut(), &mut 0)
        });
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Event Object Queries table and param_value is not NULL."
        t.info(entry, CL_EVENT_COMMAND_TYPE, move |n, s, v, r| {
            clGetEventInfo(e.marker, n, s, v, r)
        });
        t.row(
            entry,
            "order: a buffer as event and an unknown param_name",
            CL_INVALID_EVENT,
            move || clGetEventInfo(e.buf.cast(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clGetEventProfilingInfo: "CL_INVALID_EVENT if event is a not a valid event object."
        let entry = "clGetEventProfilingInfo";
        let end = CL_PROFILING_COMMAND_END;
        t.handle(entry, "event", CL_INVALID_EVENT, e.bad_event(), move |x| {
            clGetEventProfilingInfo(x, end, 0, null_mut(), &mut 0)
        });
        // "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not set for
        // the command-queue, if the execution status of the command identified by event is not
        // CL_COMPLETE or if event is a user event object."
        t.row(
            entry,
            "an event of a queue without profiling",
            CL_PROFILING_INFO_NOT_AVAILABLE,
            move || clGetEventProfilingInfo(e.marker, end, 0, null_mut(), &mut 0),
        );
        t.row(
            entry,
            "a user event",
            CL_PROFILING_INFO_NOT_AVAILABLE,
            move || clGetEventProfilingInfo(e.done, end, 0, null_mut(), &mut 0),
        );
        t.row(
            entry,
            "a command not complete",
            CL_PROFILING_INFO_NOT_AVAILABLE,
            move || {
                let u = user_event(e.ctx, None);
                let mut m = null_mut();
                assert_eq!(clEnqueueMarkerWithWaitList(e.qp, 1, &u, &mut m), CL_SUCCESS);
                let r = clGetEventProfilingInfo(m, end, 0, null_mut(), &mut 0);
                clSetUserEventStatus(u, CL_COMPLETE);
                clWaitForEvents(1, &m);
                clReleaseEvent(m);
                clReleaseEvent(u);
                r
            },
        );
        // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
        // bytes specified by param_value_size is less than size of the return type specified
        // in the Event Profiling Queries table and param_value is not a NULL value."
        t.info(entry, end, move |n, s, v, r| {
            clGetEventProfilingInfo(e.profiled, n, s, v, r)
        });
        t.row(
            entry,
            "order: event NULL and an unknown param_name",
            CL_INVALID_EVENT,
            || clGetEventProfilingInfo(null_mut(), 0x7fff_0000, 0, null_mut(), &mut 0),
        );
        t.row(
            entry,
            "order: a user event and an unknown param_name",
            CL_PROFILING_INFO_NOT_AVAILABLE,
            move || clGetEventProfilingInfo(e.done, 0x7fff_0000, 0, null_mut(), &mut 0),
        );

        // clRetainEvent, clReleaseEvent: "CL_INVALID_EVENT if event is not a valid event
        // object."
        t.handle(
            "clRetainEvent",
            "event",
            CL_INVALID_EVENT,
            e.bad_event(),
            |x| clRetainEvent(x),
        );
        t.row("clRetainEvent", "an event", CL_SUCCESS, move || {
            let r = clRetainEvent(e.done);
            clReleaseEvent(e.done);
            r
        });
        t.handle(
            "clReleaseEvent",
            "event",
            CL_INVALID_EVENT,
            e.bad_event(),
            |x| clReleaseEvent(x),
        );
        t.row("clReleaseEvent", "an event", CL_SUCCESS, move || {
            clRetainEvent(e.done);
            clReleaseEvent(e.done)
        });
    }
}

fn marker_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let q = e.q;
        // clEnqueueMarkerWithWaitList, clEnqueueBarrierWithWaitList:
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        // "CL_INVALID_CONTEXT if context associated with command_queue and events in
        // event_wait_list are not the same."
        // "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list >
        // 0, or event_wait_list is not NULL and num_events_in_wait_list is 0, or if event
        // objects in event_wait_list are not valid events."
        type WithList = unsafe extern "C" fn(
            cl_command_queue,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int;
        let fns: [(&'static str, WithList); 2] = [
            ("clEnqueueMarkerWithWaitList", clEnqueueMarkerWithWaitList),
            ("clEnqueueBarrierWithWaitList", clEnqueueBarrierWithWaitList),
        ];
        for (entry, f) in fns {
            let call =
                move |x: cl_command_queue, n: cl_uint, l: *const cl_event| ev(|o| f(x, n, l, o));
            t.handle(
                entry,
                "command_queue",
                CL_INVALID_COMMAND_QUEUE,
                e.bad_queue(),
                move |x| call(x, 0, null()),
            );
            t.wait_list(entry, e, true, move |n, l| call(q, n, l));
            t.row(
                entry,
                "order: command_queue NULL and event_wait_list NULL with 1",
                CL_INVALID_COMMAND_QUEUE,
                move || call(null_mut(), 1, null()),
            );
            t.row(entry, "after a complete event", CL_SUCCESS, move || {
                call(q, 1, [e.done].as_ptr())
            });
            t.row(entry, "after all before", CL_SUCCESS, move || {
                call(q, 0, null())
            });
        }

        // clEnqueueMarker: "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
        // command-queue." "CL_INVALID_VALUE if event is NULL."
        let entry = "clEnqueueMarker";
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            |x| ev(|o| clEnqueueMarker(x, o)),
        );
        t.row(entry, "event NULL", CL_INVALID_VALUE, move || {
            clEnqueueMarker(q, null_mut())
        });
        t.row(
            entry,
            "order: command_queue NULL and event NULL",
            CL_INVALID_COMMAND_QUEUE,
            || clEnqueueMarker(null_mut(), null_mut()),
        );
        t.row(entry, "a marker", CL_SUCCESS, move || {
            ev(|o| clEnqueueMarker(q, o))
        });

        // clEnqueueBarrier: "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
        // command-queue."
        t.handle(
            "clEnqueueBarrier",
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            |x| clEnqueueBarrier(x),
        );
        t.row("clEnqueueBarrier", "a barrier", CL_SUCCESS, move || {
            clEnqueueBarrier(q)
        });

        // clEnqueueWaitForEvents: "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
        // host command-queue." "CL_INVALID_CONTEXT if context associated with command_queue and
        // events in event_list are not the same." "CL_INVALID_VALUE if num_events is 0 or
        // event_list is NULL."
        // OpenCL 3.0 lists no error for an invalid event in event_list. Decision: OpenCL 1.0's
        // "CL_INVALID_EVENT if event objects specified in event_list are not valid events",
        // listed last (clWaitForEvents' code for the same list).
        let wait = move |x: cl_command_queue, list: &[cl_event], n: cl_uint| {
            clEnqueueWaitForEvents(
                x,
                n,
                if list.is_empty() {
                    null()
                } else {
                    list.as_ptr()
                },
            )
        };
        let entry = "clEnqueueWaitForEvents";
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| wait(x, &[e.done], 1),
        );
        t.row(
            entry,
            "an event of another context",
            CL_INVALID_CONTEXT,
            move || wait(q, &[e.done, e.done2], 2),
        );
        t.row(entry, "num_events 0", CL_INVALID_VALUE, move || {
            wait(q, &[e.done], 0)
        });
        t.row(entry, "event_list NULL", CL_INVALID_VALUE, move || {
            wait(q, &[], 1)
        });
        t.handle(
            entry,
            "event_list[1]",
            CL_INVALID_EVENT,
            e.bad_event(),
            move |x| wait(q, &[e.done, x], 2),
        );
        t.row(
            entry,
            "order: command_queue NULL and num_events 0",
            CL_INVALID_COMMAND_QUEUE,
            move || wait(null_mut(), &[e.done], 0),
        );
        t.row(
            entry,
            "order: a released event, then one of another context",
            CL_INVALID_CONTEXT,
            move || wait(q, &[e.stale.event, e.done2], 2),
        );
        t.row(
            entry,
            "order: num_events 0 with a released event",
            CL_INVALID_VALUE,
            move || wait(q, &[e.stale.event], 0),
        );
        t.row(entry, "a complete event", CL_SUCCESS, move || {
            let r = wait(q, &[e.done], 1);
            clFinish(q);
            r
        });
    }
}

/// A 2D RGBA8 image description.
fn desc2d(w: usize, h: usize) -> cl_image_desc {
    cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width: w,
        image_height: h,
        image_depth: 0,
        image_array_size: 0,
        image_row_pitch: 0,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: null_mut(),
    }
}

const RGBA8: cl_image_format = cl_image_format {
    image_channel_order: CL_RGBA,
    image_channel_data_type: CL_UNORM_INT8,
};

/// clCreateImage's result code (the image, if made, released).
fn create_image(
    ctx: cl_context,
    flags: cl_mem_flags,
    fmt: Option<cl_image_format>,
    desc: Option<cl_image_desc>,
    host: *mut c_void,
) -> cl_int {
    let mut err = 0;
    // SAFETY: the pointers are to locals or NULL.
    let m = unsafe {
        clCreateImage(
            ctx,
            flags,
            fmt.as_ref().map_or(null(), |f| f),
            desc.as_ref().map_or(null(), |d| d),
            host,
            &mut err,
        )
    };
    if !m.is_null() {
        // SAFETY: the image just made.
        unsafe { clReleaseMemObject(m) };
    }
    expect(err, (err == CL_SUCCESS) != m.is_null())
}

/// Images and samplers: clCreateImage and its forms, samplers, and the image commands, each
/// error in the spec's order.
fn image_api_rows(t: &mut Table, e: Env) {
    // SAFETY: see above.
    unsafe {
        let ctx = e.ctx;
        let d = |w, h| Some(desc2d(w, h));
        // A 16 x 8 RGBA8 image of ctx, one host-write-only, a 3D one, an R8 one, a buffer
        // and its 1D image buffer.
        let mut err = 0;
        let img = clCreateImage(ctx, 0, &RGBA8, &desc2d(16, 8), null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let img_wo = clCreateImage(
            ctx,
            CL_MEM_HOST_WRITE_ONLY,
            &RGBA8,
            &desc2d(16, 8),
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        let img3d = clCreateImage3D(ctx, 0, &RGBA8, 4, 4, 4, 0, 0, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let r8 = cl_image_format {
            image_channel_order: CL_R,
            image_channel_data_type: CL_UNORM_INT8,
        };
        let img_r8 = clCreateImage(ctx, 0, &r8, &desc2d(16, 8), null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let backing = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let mut bd = desc2d(64, 0);
        bd.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
        bd.buffer = backing;
        let img_buf = clCreateImage(ctx, 0, &RGBA8, &bd, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);

        let entry = "clCreateImage";
        // "CL_INVALID_CONTEXT if context is not a valid context."
        t.handle(
            entry,
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| create_image(c, 0, Some(RGBA8), d(4, 4), null_mut()),
        );
        // "CL_INVALID_VALUE if values specified in flags are not valid."
        t.row(
            entry,
            "flags READ_WRITE | READ_ONLY",
            CL_INVALID_VALUE,
            move || {
                create_image(
                    ctx,
                    CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
                    Some(RGBA8),
                    d(4, 4),
                    null_mut(),
                )
            },
        );
        t.row(
            entry,
            "order: flags invalid and image_format NULL",
            CL_INVALID_VALUE,
            move || create_image(ctx, 1 << 40, None, d(4, 4), null_mut()),
        );
        // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not valid
        // or if image_format is NULL."
        t.row(
            entry,
            "image_format NULL",
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            move || create_image(ctx, 0, None, d(4, 4), null_mut()),
        );
        let rgb8 = cl_image_format {
            image_channel_order: CL_RGB,
            image_channel_data_type: CL_UNORM_INT8,
        };
        t.row(
            entry,
            "CL_RGB with CL_UNORM_INT8",
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            move || create_image(ctx, 0, Some(rgb8), d(4, 4), null_mut()),
        );
        t.row(
            entry,
            "order: image_format invalid and image_desc NULL",
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            move || create_image(ctx, 0, Some(rgb8), None, null_mut()),
        );
        // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if
        // image_desc is NULL."
        t.row(
            entry,
            "image_desc NULL",
            CL_INVALID_IMAGE_DESCRIPTOR,
            move || create_image(ctx, 0, Some(RGBA8), None, null_mut()),
        );
        t.row(
            entry,
            "image_width 0",
            CL_INVALID_IMAGE_DESCRIPTOR,
            move || create_image(ctx, 0, Some(RGBA8), d(0, 4), null_mut()),
        );
        t.row(
            entry,
            "image_type CL_MEM_OBJECT_BUFFER",
            CL_INVALID_IMAGE_DESCRIPTOR,
            move || {
                let mut x = desc2d(4, 4);
                x.image_type = CL_MEM_OBJECT_BUFFER;
                create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
            },
        );
        t.row(
            entry,
            "image_row_pitch without host_ptr",
            CL_INVALID_IMAGE_DESCRIPTOR,
            move || {
                let mut x = desc2d(4, 4);
                x.image_row_pitch = 64;
                create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
            },
        );
        t.row(
            entry,
            "num_mip_levels 1",
            CL_INVALID_IMAGE_DESCRIPTOR,
            move || {
                let mut x = desc2d(4, 4);
                x.num_mip_levels = 1;
                create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
            },
        );
        t.row(
            entry,
            "a 1D image buffer without a buffer",
            CL_INVALID_IMAGE_DESCRIPTOR,
            move || {
                let mut x = desc2d(4, 0);
                x.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
                create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
            },
        );
        t.row(
            entry,
            "a 3D image with a buffer",
            CL_INVALID_IMAGE_DESCRIPTOR,
            move || {
                let mut x = desc2d(4, 4);
                x.image_type = CL_MEM_OBJECT_IMAGE3D;
                x.image_depth = 2;
                x.buffer = backing;
                create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
            },
        );
        // "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the maximum
        // image dimensions described in the Device Queries table".
        t.row(
            entry,
            "image_width 16385",
            CL_INVALID_IMAGE_SIZE,
            move || create_image(ctx, 0, Some(RGBA8), d(16385, 1), null_mut()),
        );
        t.row(
            entry,
            "a 1D image buffer past its buffer",
            CL_INVALID_IMAGE_SIZE,
            move || {
                let mut x = desc2d(65, 0);
                x.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
                x.buffer = backing;
                create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
            },
        );
        // A 2D image from a buffer: "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is
        // created from a buffer and the row pitch and base address alignment does not follow
        // the rules described for creating a 2D image from a buffer."
        t.row(
            entry,
            "a 2D image from a buffer, row pitch of 3 pixels",
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            move || {
                let mut x = desc2d(2, 2);
                x.image_row_pitch = 12;
                x.buffer = backing;
                create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
            },
        );
        // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
        // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags."
        t.row(
            entry,
            "COPY_HOST_PTR, host_ptr NULL",
            CL_INVALID_HOST_PTR,
            move || create_image(ctx, CL_MEM_COPY_HOST_PTR, Some(RGBA8), d(4, 4), null_mut()),
        );
        t.row(
            entry,
            "host_ptr without a host flag",
            CL_INVALID_HOST_PTR,
            move || {
                let mut h = [0u8; 64];
                create_image(ctx, 0, Some(RGBA8), d(4, 4), h.as_mut_ptr().cast())
            },
        );
        // "CL_INVALID_VALUE if an image is being created from another memory object (buffer or
        // image) under one of the following circumstances: ... 3) flags specifies
        // CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR."
        t.row(
            entry,
            "from a buffer with ALLOC_HOST_PTR",
            CL_INVALID_VALUE,
            move || {
                let mut x = desc2d(4, 0);
                x.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
                x.buffer = backing;
                create_image(ctx, CL_MEM_ALLOC_HOST_PTR, Some(RGBA8), Some(x), null_mut())
            },
        );
        // "CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context that support
        // image_format": a valid format Gen9 does not have, and a read-only one for writing.
        let rgb565 = cl_image_format {
            image_channel_order: CL_RGB,
            image_channel_data_type: CL_UNORM_SHORT_565,
        };
        t.row(
            entry,
            "CL_RGB 565",
            CL_IMAGE_FORMAT_NOT_SUPPORTED,
            move || create_image(ctx, 0, Some(rgb565), d(4, 4), null_mut()),
        );
        let i8 = cl_image_format {
            image_channel_order: CL_INTENSITY,
            image_channel_data_type: CL_UNORM_INT8,
        };
        t.row(
            entry,
            "CL_INTENSITY read-write",
            CL_IMAGE_FORMAT_NOT_SUPPORTED,
            move || create_image(ctx, CL_MEM_READ_WRITE, Some(i8), d(4, 4), null_mut()),
        );
        t.row(entry, "CL_INTENSITY read-only", CL_SUCCESS, move || {
            create_image(ctx, CL_MEM_READ_ONLY, Some(i8), d(4, 4), null_mut())
        });
        t.row(entry, "a 2D image from a buffer", CL_SUCCESS, move || {
            let mut x = desc2d(4, 4);
            x.image_row_pitch = 64;
            x.buffer = backing;
            create_image(ctx, 0, Some(RGBA8), Some(x), null_mut())
        });

        // The 1.x forms: "CL_INVALID_IMAGE_SIZE if image_width or image_height are 0" (and
        // "if image_depth <= 1" for 3D).
        t.row(
            "clCreateImage2D",
            "image_width 0",
            CL_INVALID_IMAGE_SIZE,
            move || {
                let mut err = 0;
                let m = clCreateImage2D(ctx, 0, &RGBA8, 0, 4, 0, null_mut(), &mut err);
                expect(err, m.is_null())
            },
        );
        t.handle(
            "clCreateImage2D",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| {
                let mut err = 0;
                let m = clCreateImage2D(c, 0, &RGBA8, 4, 4, 0, null_mut(), &mut err);
                expect(err, m.is_null())
            },
        );
        t.row(
            "clCreateImage3D",
            "image_depth 1",
            CL_INVALID_IMAGE_SIZE,
            move || {
                let mut err = 0;
                let m = clCreateImage3D(ctx, 0, &RGBA8, 4, 4, 1, 0, 0, null_mut(), &mut err);
                expect(err, m.is_null())
            },
        );
        t.handle(
            "clCreateImage3D",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| {
                let mut err = 0;
                let m = clCreateImage3D(c, 0, &RGBA8, 4, 4, 4, 0, 0, null_mut(), &mut err);
                expect(err, m.is_null())
            },
        );
        t.row(
            "clCreateImage2D",
            "order: context NULL and image_width 0",
            CL_INVALID_CONTEXT,
            move || {
                let mut err = 0;
                let m = clCreateImage2D(null_mut(), 0, &RGBA8, 0, 4, 0, null_mut(), &mut err);
                expect(err, m.is_null())
            },
        );
        t.row(
            "clCreateImage3D",
            "order: context NULL and image_depth 1",
            CL_INVALID_CONTEXT,
            move || {
                let mut err = 0;
                let m = clCreateImage3D(null_mut(), 0, &RGBA8, 4, 4, 1, 0, 0, null_mut(), &mut err);
                expect(err, m.is_null())
            },
        );
        // "CL_INVALID_PROPERTY if a property name in properties is not a supported property
        // name": there is none for images.
        t.row(
            "clCreateImageWithProperties",
            "an unknown property",
            CL_INVALID_PROPERTY,
            move || {
                let mut err = 0;
                let props = [0x7777u64, 1, 0];
                let m = clCreateImageWithProperties(
                    ctx,
                    props.as_ptr(),
                    0,
                    &RGBA8,
                    &desc2d(4, 4),
                    null_mut(),
                    &mut err,
                );
                expect(err, m.is_null())
            },
        );
        t.row(
            "clCreateImageWithProperties",
            "an empty list",
            CL_SUCCESS,
            move || {
                let mut err = 0;
                let props = [0u64];
                let m = clCreateImageWithProperties(
                    ctx,
                    props.as_ptr(),
                    0,
                    &RGBA8,
                    &desc2d(4, 4),
                    null_mut(),
                    &mut err,
                );
                if !m.is_null() {
                    clReleaseMemObject(m);
                }
                expect(err, !m.is_null())
            },
        );

        // Samplers.
        let sampler = |c: cl_context, n: cl_bool, a: cl_uint, f: cl_uint| {
            let mut err = 0;
            let s = clCreateSampler(c, n, a, f, &mut err);
            if !s.is_null() {
                clReleaseSampler(s);
            }
            expect(err, (err == CL_SUCCESS) != s.is_null())
        };
        // "CL_INVALID_CONTEXT if context is not a valid context."
        t.handle(
            "clCreateSampler",
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| sampler(c, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST),
        );
        // "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a
        // combination of these arguments are not valid."
        t.row(
            "clCreateSampler",
            "addressing_mode 0",
            CL_INVALID_VALUE,
            move || sampler(ctx, CL_TRUE, 0, CL_FILTER_NEAREST),
        );
        t.row(
            "clCreateSampler",
            "filter_mode 0",
            CL_INVALID_VALUE,
            move || sampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0),
        );
        t.row(
            "clCreateSampler",
            "normalized_coords 2",
            CL_INVALID_VALUE,
            move || sampler(ctx, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST),
        );
        t.row(
            "clCreateSampler",
            "order: context NULL and addressing_mode 0",
            CL_INVALID_CONTEXT,
            move || sampler(null_mut(), CL_TRUE, 0, CL_FILTER_NEAREST),
        );
        t.row("clCreateSampler", "repeat, linear", CL_SUCCESS, move || {
            sampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR)
        });
        let with_props = |c: cl_context, props: &[u64]| {
            let mut err = 0;
            let s = clCreateSamplerWithProperties(c, props.as_ptr(), &mut err);
            if !s.is_null() {
                clReleaseSampler(s);
            }
            expect(err, (err == CL_SUCCESS) != s.is_null())
        };
        let entry = "clCreateSamplerWithProperties";
        t.handle(
            entry,
            "context",
            CL_INVALID_CONTEXT,
            e.bad_ctx(),
            move |c| with_props(c, &[0]),
        );
        // "CL_INVALID_VALUE if the property name in sampler_properties is not a supported
        // property name, if the value specified for a supported property name is not valid,
        // or if the same property name is specified more than once."
        t.row(entry, "an unknown property", CL_INVALID_VALUE, move || {
            with_props(ctx, &[0x7777, 1, 0])
        });
        t.row(entry, "a property twice", CL_INVALID_VALUE, move || {
            with_props(ctx, &[0x1152, 1, 0x1152, 0, 0])
        });
        t.row(entry, "filter mode 0", CL_INVALID_VALUE, move || {
            with_props(ctx, &[0x1154, 0, 0])
        });
        t.row(
            entry,
            "order: context NULL and an unknown property",
            CL_INVALID_CONTEXT,
            move || with_props(null_mut(), &[0x7777, 1, 0]),
        );
        t.row(entry, "every property", CL_SUCCESS, move || {
            with_props(ctx, &[0x1152, 0, 0x1153, 0x1131, 0x1154, 0x1141, 0])
        });

        // clEnqueueReadImage / clEnqueueWriteImage, blocking.
        for write in [false, true] {
            let entry = if write {
                "clEnqueueWriteImage"
            } else {
                "clEnqueueReadImage"
            };
            let call = move |q: cl_command_queue,
                             m: cl_mem,
                             o: Option<[usize; 3]>,
                             r: Option<[usize; 3]>,
                             slice: usize,
                             ptr: bool,
                             n: cl_uint,
                             l: *const cl_event| {
                let mut h = vec![0u8; 16 * 8 * 4 * 4];
                let p = if ptr {
                    h.as_mut_ptr().cast::<c_void>()
                } else {
                    null_mut()
                };
                ev(|out| {
                    if write {
                        clEnqueueWriteImage(q, m, CL_TRUE, arr(&o), arr(&r), 0, slice, p, n, l, out)
                    } else {
                        clEnqueueReadImage(q, m, CL_TRUE, arr(&o), arr(&r), 0, slice, p, n, l, out)
                    }
                })
            };
            let (o0, r1) = (Some([0; 3]), Some([16, 8, 1]));
            // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
            t.handle(
                entry,
                "command_queue",
                CL_INVALID_COMMAND_QUEUE,
                e.bad_queue(),
                move |x| call(x, img, o0, r1, 0, true, 0, null()),
            );
            // "CL_INVALID_CONTEXT if the context associated with command_queue and image are
            // not the same".
            t.row(
                entry,
                "a queue of another context",
                CL_INVALID_CONTEXT,
                move || call(e.q2, img, o0, r1, 0, true, 0, null()),
            );
            // "CL_INVALID_MEM_OBJECT if image is not a valid image object."
            t.handle(
                entry,
                "image",
                CL_INVALID_MEM_OBJECT,
                e.bad_mem(),
                move |m| call(e.q, m, o0, r1, 0, true, 0, null()),
            );
            t.row(
                entry,
                "a buffer as image",
                CL_INVALID_MEM_OBJECT,
                move || call(e.q, e.buf, o0, r1, 0, true, 0, null()),
            );
            // "CL_INVALID_VALUE if the region being read or written specified by origin and
            // region is out of bounds or if ptr is a NULL value."
            t.row(
                entry,
                "a region past the width",
                CL_INVALID_VALUE,
                move || call(e.q, img, Some([1, 0, 0]), r1, 0, true, 0, null()),
            );
            t.row(entry, "ptr NULL", CL_INVALID_VALUE, move || {
                call(e.q, img, o0, r1, 0, false, 0, null())
            });
            t.row(entry, "origin NULL", CL_INVALID_VALUE, move || {
                call(e.q, img, None, r1, 0, true, 0, null())
            });
            // "CL_INVALID_VALUE if values in origin and region do not follow rules described
            // in the argument description for origin and region."
            t.row(entry, "region[2] 0", CL_INVALID_VALUE, move || {
                call(e.q, img, o0, Some([16, 8, 0]), 0, true, 0, null())
            });
            t.row(
                entry,
                "a 2D image, origin[2] 1",
                CL_INVALID_VALUE,
                move || call(e.q, img, Some([0, 0, 1]), r1, 0, true, 0, null()),
            );
            // "CL_INVALID_VALUE if image is a 1D or 2D image and slice_pitch or
            // input_slice_pitch is not 0."
            t.row(
                entry,
                "a 2D image with a slice pitch",
                CL_INVALID_VALUE,
                move || call(e.q, img, o0, r1, 4096, true, 0, null()),
            );
            t.row(entry, "a 3D region", CL_SUCCESS, move || {
                call(
                    e.q,
                    img3d,
                    Some([1, 1, 1]),
                    Some([3, 3, 3]),
                    0,
                    true,
                    0,
                    null(),
                )
            });
            t.wait_list(entry, e, true, move |n, l| {
                call(e.q, img, o0, r1, 0, true, n, l)
            });
            // "CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has been
            // created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS."
            let want = if write {
                CL_SUCCESS
            } else {
                CL_INVALID_OPERATION
            };
            t.row(entry, "an image CL_MEM_HOST_WRITE_ONLY", want, move || {
                call(e.q, img_wo, o0, r1, 0, true, 0, null())
            });
        }

        // clEnqueueCopyImage.
        let entry = "clEnqueueCopyImage";
        let copy = move |q: cl_command_queue,
                         s: cl_mem,
                         dst: cl_mem,
                         so: [usize; 3],
                         d_o: [usize; 3],
                         r: [usize; 3],
                         n: cl_uint,
                         l: *const cl_event| {
            ev(|out| {
                clEnqueueCopyImage(q, s, dst, so.as_ptr(), d_o.as_ptr(), r.as_ptr(), n, l, out)
            })
        };
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| copy(x, img, img_wo, [0; 3], [0; 3], [4, 4, 1], 0, null()),
        );
        t.row(
            entry,
            "a queue of another context",
            CL_INVALID_CONTEXT,
            move || copy(e.q2, img, img_wo, [0; 3], [0; 3], [4, 4, 1], 0, null()),
        );
        // "CL_INVALID_MEM_OBJECT if src_image and dst_image are not valid image objects."
        t.handle(
            entry,
            "src_image",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| copy(e.q, m, img_wo, [0; 3], [0; 3], [4, 4, 1], 0, null()),
        );
        t.row(
            entry,
            "a buffer as dst_image",
            CL_INVALID_MEM_OBJECT,
            move || copy(e.q, img, e.buf, [0; 3], [0; 3], [4, 4, 1], 0, null()),
        );
        // "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image
        // format."
        t.row(entry, "RGBA8 to R8", CL_IMAGE_FORMAT_MISMATCH, move || {
            copy(e.q, img, img_r8, [0; 3], [0; 3], [4, 4, 1], 0, null())
        });
        // "CL_INVALID_VALUE if the 2D or 3D rectangular region specified by src_origin and
        // src_origin + region refers to a region outside src_image".
        t.row(
            entry,
            "a region past dst_image",
            CL_INVALID_VALUE,
            move || copy(e.q, img, img_wo, [0; 3], [13, 0, 0], [4, 4, 1], 0, null()),
        );
        t.row(entry, "2D to a slice of 3D", CL_SUCCESS, move || {
            copy(e.q, img, img3d, [0; 3], [0, 0, 3], [4, 4, 1], 0, null())
        });
        t.wait_list(entry, e, true, move |n, l| {
            copy(e.q, img, img_wo, [0; 3], [0; 3], [4, 4, 1], n, l)
        });
        // "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the
        // source and destination regions overlap."
        t.row(
            entry,
            "overlapping regions of one image",
            CL_MEM_COPY_OVERLAP,
            move || copy(e.q, img, img, [0; 3], [3, 3, 0], [4, 4, 1], 0, null()),
        );
        t.row(
            entry,
            "disjoint regions of one image",
            CL_SUCCESS,
            move || copy(e.q, img, img, [0; 3], [4, 4, 0], [4, 4, 1], 0, null()),
        );

        // clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage.
        for to_buffer in [true, false] {
            let entry = if to_buffer {
                "clEnqueueCopyImageToBuffer"
            } else {
                "clEnqueueCopyBufferToImage"
            };
            let call = move |q: cl_command_queue,
                             im: cl_mem,
                             b: cl_mem,
                             o: [usize; 3],
                             r: [usize; 3],
                             off: usize,
                             n: cl_uint,
                             l: *const cl_event| {
                ev(|out| {
                    if to_buffer {
                        clEnqueueCopyImageToBuffer(q, im, b, o.as_ptr(), r.as_ptr(), off, n, l, out)
                    } else {
                        clEnqueueCopyBufferToImage(q, b, im, off, o.as_ptr(), r.as_ptr(), n, l, out)
                    }
                })
            };
            t.handle(
                entry,
                "command_queue",
                CL_INVALID_COMMAND_QUEUE,
                e.bad_queue(),
                move |x| call(x, img, e.buf, [0; 3], [4, 4, 1], 0, 0, null()),
            );
            t.row(
                entry,
                "a queue of another context",
                CL_INVALID_CONTEXT,
                move || call(e.q2, img, e.buf, [0; 3], [4, 4, 1], 0, 0, null()),
            );
            t.handle(
                entry,
                "the image",
                CL_INVALID_MEM_OBJECT,
                e.bad_mem(),
                move |m| call(e.q, m, e.buf, [0; 3], [4, 4, 1], 0, 0, null()),
            );
            t.row(
                entry,
                "an image as the buffer",
                CL_INVALID_MEM_OBJECT,
                move || call(e.q, img, img_wo, [0; 3], [4, 4, 1], 0, 0, null()),
            );
            // "... or if src_image is a 1D image buffer object created from dst_buffer."
            t.row(
                entry,
                "a 1D image buffer and its own buffer",
                CL_INVALID_MEM_OBJECT,
                move || call(e.q, img_buf, backing, [0; 3], [4, 1, 1], 128, 0, null()),
            );
            // "CL_INVALID_VALUE if ... the region specified by dst_offset and dst_offset +
            // dst_cb to a region outside dst_buffer."
            t.row(
                entry,
                "a buffer region past the end",
                CL_INVALID_VALUE,
                move || call(e.q, img, e.buf, [0; 3], [4, 4, 1], BUF - 32, 0, null()),
            );
            t.row(
                entry,
                "an image region past the height",
                CL_INVALID_VALUE,
                move || call(e.q, img, e.buf, [0, 6, 0], [4, 4, 1], 0, 0, null()),
            );
            t.row(entry, "4 x 4 texels", CL_SUCCESS, move || {
                call(e.q, img, e.buf, [0; 3], [4, 4, 1], 0, 0, null())
            });
            t.wait_list(entry, e, true, move |n, l| {
                call(e.q, img, e.buf, [0; 3], [4, 4, 1], 0, n, l)
            });
        }

        // clEnqueueFillImage.
        let entry = "clEnqueueFillImage";
        let fill = move |q: cl_command_queue,
                         m: cl_mem,
                         color: bool,
                         o: [usize; 3],
                         r: [usize; 3],
                         n: cl_uint,
                         l: *const cl_event| {
            let c = [0.5f32; 4];
            let p = if color {
                c.as_ptr().cast::<c_void>()
            } else {
                null()
            };
            ev(|out| clEnqueueFillImage(q, m, p, o.as_ptr(), r.as_ptr(), n, l, out))
        };
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| fill(x, img, true, [0; 3], [4, 4, 1], 0, null()),
        );
        t.row(
            entry,
            "a queue of another context",
            CL_INVALID_CONTEXT,
            move || fill(e.q2, img, true, [0; 3], [4, 4, 1], 0, null()),
        );
        t.handle(
            entry,
            "image",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| fill(e.q, m, true, [0; 3], [4, 4, 1], 0, null()),
        );
        // "CL_INVALID_VALUE if fill_color is NULL."
        t.row(entry, "fill_color NULL", CL_INVALID_VALUE, move || {
            fill(e.q, img, false, [0; 3], [4, 4, 1], 0, null())
        });
        // "CL_INVALID_VALUE if the region being filled as specified by origin and region is
        // out of bounds."
        t.row(
            entry,
            "a region past the width",
            CL_INVALID_VALUE,
            move || fill(e.q, img, true, [14, 0, 0], [4, 4, 1], 0, null()),
        );
        t.row(entry, "the whole image", CL_SUCCESS, move || {
            fill(e.q, img, true, [0; 3], [16, 8, 1], 0, null())
        });
        t.wait_list(entry, e, true, move |n, l| {
            fill(e.q, img, true, [0; 3], [4, 4, 1], n, l)
        });

        // clEnqueueMapImage, blocking; a successful map is unmapped.
        let entry = "clEnqueueMapImage";
        let map = move |q: cl_command_queue,
                        m: cl_mem,
                        flags: cl_map_flags,
                        o: [usize; 3],
                        r: [usize; 3],
                        pitches: (bool, bool),
                        n: cl_uint,
                        l: *const cl_event| {
            let (mut row, mut slice) = (0usize, 0usize);
            let mut err = 0;
            let mut out: cl_event = null_mut();
            let p = clEnqueueMapImage(
                q,
                m,
                CL_TRUE,
                flags,
                o.as_ptr(),
                r.as_ptr(),
                if pitches.0 { &mut row } else { null_mut() },
                if pitches.1 { &mut slice } else { null_mut() },
                n,
                l,
                &mut out,
                &mut err,
            );
            if !out.is_null() {
                clReleaseEvent(out);
            }
            if !p.is_null() {
                assert_eq!(
                    clEnqueueUnmapMemObject(q, m, p, 0, null(), null_mut()),
                    CL_SUCCESS
                );
                assert_eq!(clFinish(q), CL_SUCCESS);
            }
            expect(err, (err == CL_SUCCESS) != p.is_null())
        };
        let both = (true, true);
        t.handle(
            entry,
            "command_queue",
            CL_INVALID_COMMAND_QUEUE,
            e.bad_queue(),
            move |x| map(x, img, CL_MAP_READ, [0; 3], [4, 4, 1], both, 0, null()),
        );
        t.row(
            entry,
            "a queue of another context",
            CL_INVALID_CONTEXT,
            move || map(e.q2, img, CL_MAP_READ, [0; 3], [4, 4, 1], both, 0, null()),
        );
        t.handle(
            entry,
            "image",
            CL_INVALID_MEM_OBJECT,
            e.bad_mem(),
            move |m| map(e.q, m, CL_MAP_READ, [0; 3], [4, 4, 1], both, 0, null()),
        );
        // "CL_INVALID_VALUE if region being mapped given by (origin, origin + region) is out of
        // bounds or if values specified in map_flags are not valid."
        t.row(
            entry,
            "a region past the height",
            CL_INVALID_VALUE,
            move || map(e.q, img, CL_MAP_READ, [0, 5, 0], [4, 4, 1], both, 0, null()),
        );
        t.row(
            entry,
            "map_flags WRITE_INVALIDATE_REGION | READ",
            CL_INVALID_VALUE,
            move || {
                map(
                    e.q,
                    img,
                    CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ,
                    [0; 3],
                    [4, 4, 1],
                    both,
                    0,
                    null(),
                )
            },
        );
        // "CL_INVALID_VALUE if image_row_pitch is NULL."
        t.row(entry, "image_row_pitch NULL", CL_INVALID_VALUE, move || {
            map(
                e.q,
                img,
                CL_MAP_READ,
                [0; 3],
                [4, 4, 1],
                (false, true),
                0,
                null(),
            )
        });
        // "CL_INVALID_VALUE if image is a 3D image, 1D or 2D image array object and
        // image_slice_pitch is NULL."
        t.row(
            entry,
            "a 3D image, image_slice_pitch NULL",
            CL_INVALID_VALUE,
            move || {
                map(
                    e.q,
                    img3d,
                    CL_MAP_READ,
                    [0; 3],
                    [4, 4, 4],
                    (true, false),
                    0,
                    null(),
                )
            },
        );
        t.row(
            entry,
            "a 2D image, image_slice_pitch NULL",
            CL_SUCCESS,
            move || {
                map(
                    e.q,
                    img,
                    CL_MAP_READ,
                    [0; 3],
                    [4, 4, 1],
                    (true, false),
                    0,
                    null(),
                )
            },
        );
        t.wait_list(entry, e, true, move |n, l| {
            map(e.q, img, CL_MAP_READ, [0; 3], [4, 4, 1], both, n, l)
        });
        // "CL_INVALID_OPERATION if image has been created with CL_MEM_HOST_WRITE_ONLY or
        // CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags".
        t.row(
            entry,
            "CL_MAP_READ of a host-write-only image",
            CL_INVALID_OPERATION,
            move || map(e.q, img_wo, CL_MAP_READ, [0; 3], [4, 4, 1], both, 0, null()),
        );
    }
}
