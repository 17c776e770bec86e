//! Kernel launches (OpenCL 3.0 §5.10): clEnqueueNDRangeKernel and clEnqueueTask, checked when
//! enqueued and run on the queue's worker as one request to the service, which answers when
//! the kernel has completed; and the local size chosen when the application gives none.

use super::enqueue::{nothing, Enqueue};
use super::event::wait_list_context;
use super::object::get;
use super::runtime::{connection, device_desc};
use super::types::*;
use super::util::{entry, slice, ClResult};
use crate::client::{ClientError, LaunchOutcome};
use crate::core::kernel::{ArgVal, Kernel};
use crate::core::memory::Mem;
use crate::core::queue::Queue;
use crate::core::queue::{Completion, Kind};
use crate::protocol::{ErrorCode, Launch, WireArg};
use std::sync::Arc;

/// The largest divisor of `n` not above `limit` (≥ 1), preferring one that is a multiple
/// of `multiple` when there is such a divisor.
fn largest_divisor(n: u64, limit: u64, multiple: u64) -> u64 {
    let mut fallback = 1;
    for d in (1..=limit.min(n).max(1)).rev() {
        if n.is_multiple_of(d) {
            if d.is_multiple_of(multiple) {
                return d;
            }
            fallback = fallback.max(d);
        }
    }
    fallback
}

/// A local size when the application gave none: per dimension a divisor of the global size
/// that keeps the group within the device limit (uniform groups, so the choice is valid
/// whatever the program's language version). The first dimension, which the hardware threads
/// split into SIMD-wide slices, takes the largest divisor that is a multiple of the kernel's
/// SIMD width, so that no thread of the group runs with idle lanes (global 1000 at SIMD8:
/// 200, 25 full threads, rather than 250 with a thread of 2 lanes); the other dimensions take
/// the largest divisor left in the budget.
pub fn choose_local_size(
    global: &[u64; 3],
    dims: usize,
    max_wg: u64,
    max_item: u64,
    simd: u64,
) -> [u32; 3] {
    let mut local = [1u32; 3];
    let mut budget = max_wg;
    for d in 0..dims {
        let multiple = if d == 0 { simd.max(1) } else { 1 };
        let l = largest_divisor(global[d], budget.min(max_item), multiple);
        local[d] = l as u32;
        budget /= l;
    }
    local
}

#[allow(clippy::too_many_arguments)]
fn nd_range(
    command: cl_command_type,
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
    let q = get::<Queue>(command_queue)?;
    // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
    let k = get::<Kernel>(kernel)?;
    // "CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the same
    // or if the context associated with command_queue and events in event_wait_list are not the
    // same."
    if q.context.handle() != k.program.context.handle() {
        return Err(CL_INVALID_CONTEXT);
    }
    wait_list_context(&q, num_events_in_wait_list, event_wait_list)?;
    // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified."
    // The values are taken now ("the argument value ... can be changed after the enqueue");
    // the buffers they name are held until the launch has run.
    let mut held = Vec::new();
    let args: Vec<WireArg> = {
        let set = k.args.lock();
        let mut out = Vec::with_capacity(set.len());
        for a in set.iter() {
            out.push(match a.as_ref().ok_or(CL_INVALID_KERNEL_ARGS)? {
                ArgVal::Mem(Some(h)) => {
                    // A buffer released since clSetKernelArg is no argument value any more.
                    let m = get::<Mem>(*h as cl_mem).map_err(|_| CL_INVALID_KERNEL_ARGS)?;
                    let (object, base) = m.object();
                    held.push(m.clone());
                    WireArg::Buffer {
                        id: object.id,
                        offset: base as u64,
                    }
                }
                ArgVal::Mem(None) => WireArg::NullBuffer,
                ArgVal::Local(n) => WireArg::Local { size: *n },
                ArgVal::Bytes(b) => WireArg::Bytes(b.clone()),
                ArgVal::Image(h) => {
                    // An image released since clSetKernelArg is no argument value any more.
                    let m = get::<Mem>(*h as cl_mem).map_err(|_| CL_INVALID_KERNEL_ARGS)?;
                    let (object, base) = m.object();
                    let surface = m.image.as_ref().ok_or(CL_INVALID_KERNEL_ARGS)?.surface();
                    let id = object.id;
                    held.push(m.clone());
                    WireArg::Image {
                        id,
                        offset: base as u64,
                        surface,
                    }
                }
                ArgVal::Sampler(v) => WireArg::Sampler(*v),
            });
        }
        out
    };
    // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1 and
    // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
    if !(1..=3).contains(&work_dim) {
        return Err(CL_INVALID_WORK_DIMENSION);
    }
    let dims = work_dim as usize;
    // "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of the values
    // specified in global_work_size[0], ... are 0. Returning this error code under these
    // circumstances is deprecated by version 2.1": a 3.0 device runs such a launch as a
    // command that "will trivially succeed after its event dependencies are satisfied"
    // (global sizes of 0, below).
    // SAFETY: the three arrays have work_dim entries when not NULL, per the spec.
    let (gs, go, ls) = unsafe {
        (
            slice(global_work_size, dims),
            slice(global_work_offset, dims),
            slice(local_work_size, dims),
        )
    };
    let mut global = [1u64; 3];
    let mut offset = [0u64; 3];
    for d in 0..dims {
        global[d] = gs.get(d).map_or(0, |&g| g as u64);
        offset[d] = go.get(d).copied().unwrap_or(0) as u64;
        // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the
        // corresponding values in global_work_offset for any dimensions is greater than the
        // maximum value representable by size t on the device."
        if offset[d].checked_add(global[d]).is_none() {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
    }
    let dev = device_desc()?;
    let max_wg = k.max_work_group_size()? as u64;
    let local: [u32; 3] = if ls.is_empty() {
        match k.desc.required_wg_size {
            Some(r) => r,
            None => choose_local_size(
                &global,
                dims,
                max_wg,
                super::device::MAX_WORK_ITEM_SIZE as u64,
                k.desc.simd as u64,
            ),
        }
    } else {
        let mut want = [1usize; 3];
        want[..dims].copy_from_slice(ls);
        // A zero local size can form no work-group.
        if want.contains(&0) {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the
        // required work-group size for kernel in the program source."
        if k.desc
            .required_wg_size
            .is_some_and(|r| r.map(|x| x as usize) != want)
        {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        // "... the total number of work-items in the work-group ... is greater than the value
        // specified by CL_KERNEL_WORK_GROUP_SIZE"
        let total = want.iter().try_fold(1u64, |t, &x| t.checked_mul(x as u64));
        if total.is_none_or(|t| t > max_wg) {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        // "CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and ... the
        // global_work_size is not evenly divisible by the local_work_size."
        if !k.non_uniform && (0..dims).any(|d| !global[d].is_multiple_of(want[d] as u64)) {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
        // local_work_size[0], … local_work_size[work_dim - 1] is greater than the
        // corresponding values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES", listed after the
        // work-group size (on this device a group within CL_KERNEL_WORK_GROUP_SIZE has no
        // dimension above them).
        if want.iter().any(|&x| x > super::device::MAX_WORK_ITEM_SIZE) {
            return Err(CL_INVALID_WORK_ITEM_SIZE);
        }
        want.map(|x| x as u32)
    };
    // "CL_OUT_OF_RESOURCES if there is a failure to queue the execution instance of kernel on
    // the command-queue because of insufficient resources needed to execute the kernel"
    // (listed before CL_INVALID_EVENT_WAIT_LIST): the work-group's shared local memory must
    // fit.
    if k.local_mem_size() > dev.local_mem_bytes {
        return Err(CL_OUT_OF_RESOURCES);
    }
    let e = Enqueue::new(q, command, num_events_in_wait_list, event_wait_list, event)?;
    // A zero global size in any dimension: "the kernel command will trivially succeed after its
    // event dependencies are satisfied".
    if global[..dims].contains(&0) {
        return e.submit(Kind::Command, false, nothing());
    }
    // The launch holds the executable, not the kernel: "kernel objects attached to program"
    // are the application's, which it may release while the launch waits.
    let exe = k.service_program.clone();
    let launch = Launch {
        tag: 0,
        queue: e.queue.wire_id,
        context: e.queue.context.wire_id,
        program: exe.0,
        kernel: k.index,
        args,
        work_dim,
        global_offset: offset,
        global_size: global,
        local_size: local,
    };
    drop(k);
    let context = e.queue.context.clone();
    context
        .launched
        .store(true, std::sync::atomic::Ordering::Relaxed);
    // The launch holds what it uses (buffers, the executable) until it has finished on the
    // device, whichever way it ends.
    e.submit_launch(Box::new(move |waited| {
        let completion = Arc::new(Completion::default());
        let filled = completion.clone();
        let kernel = launch.kernel;
        let refused = context.clone();
        queue(launch, waited, move |outcome| {
            filled.fill(Box::new(move || {
                let result = finished(kernel, outcome);
                drop((held, exe));
                result.map_err(|(status, text)| {
                    context.report(&text);
                    status
                })
            }))
        })
        .map_err(|(status, text)| {
            refused.report(&text);
            status
        })?;
        Ok(completion)
    }))
}

/// A launch's failure: the event's error status and the text for the context's notification
/// callback.
type Failure = (cl_int, String);

fn failure(kernel: u32, status: cl_int, what: String) -> Failure {
    tracing::warn!("{what}");
    (status, format!("gencl: kernel #{kernel} {what}"))
}

/// Queue one launch through the service; `done` hears how it ended. A launch the service
/// refuses is the event's error at once (and `done` is dropped unheard). `waited`: this
/// thread waits for the launch next, and may hear its end before this returns.
fn queue(
    launch: Launch,
    waited: bool,
    done: impl FnOnce(LaunchOutcome) + Send + 'static,
) -> Result<(), Failure> {
    let kernel = launch.kernel;
    let conn = connection().map_err(|s| (s, "gencl: no device".to_string()))?;
    let queued = if waited {
        conn.launch_waited(launch, done)
    } else {
        conn.launch(launch, done)
    };
    queued.map_err(|e| refused_or_failed(kernel, e))
}

/// A finished launch: its printf output written, and the GPU's time, or its failure.
fn finished(kernel: u32, outcome: LaunchOutcome) -> Result<Option<u64>, Failure> {
    match outcome {
        Ok(done) => {
            write_stdout(&done.printf);
            Ok(Some(done.end_ns.saturating_sub(done.start_ns)))
        }
        // A launch posted through gencld that the service refused comes back here too.
        Err(e) => Err(refused_or_failed(kernel, e)),
    }
}

/// The event's status and text for a launch the service refused (arguments it checks again:
/// CL_INVALID_KERNEL_ARGS) or that could not run (CL_OUT_OF_RESOURCES).
fn refused_or_failed(kernel: u32, e: ClientError) -> Failure {
    match e {
        ClientError::Service {
            code: ErrorCode::InvalidArgs,
            message,
        } => failure(
            kernel,
            CL_INVALID_KERNEL_ARGS,
            format!("launch refused: {message}"),
        ),
        e => failure(kernel, CL_OUT_OF_RESOURCES, format!("launch failed: {e}")),
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueNDRangeKernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        nd_range(
            CL_COMMAND_NDRANGE_KERNEL,
            command_queue,
            kernel,
            work_dim,
            global_work_offset,
            global_work_size,
            local_work_size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

/// "clEnqueueTask is equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1,
/// global_work_offset set to NULL, global_work_size[0] set to 1, and local_work_size[0] set
/// to 1" (OpenCL 3.0, deprecated since 2.0 but in the core), its event a CL_COMMAND_TASK.
///
/// # Safety
/// The pointers follow the OpenCL API contract.
pub unsafe extern "C" fn clEnqueueTask(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let one = [1usize];
    entry(|| {
        nd_range(
            CL_COMMAND_TASK,
            command_queue,
            kernel,
            1,
            std::ptr::null(),
            one.as_ptr(),
            one.as_ptr(),
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

/// printf's output, through the C library's stdout, so that it lands in order with what the
/// application prints itself (its own stdio buffer, flushed first).
fn write_stdout(text: &str) {
    if text.is_empty() {
        return;
    }
    extern "C" {
        static mut stdout: *mut libc::FILE;
    }
    // SAFETY: `stdout` is the C library's own stream, valid for the life of the process;
    // fwrite reads `text.len()` bytes from a live slice, and fflush takes the same stream.
    unsafe {
        let out = stdout;
        libc::fwrite(text.as_ptr().cast(), 1, text.len(), out);
        libc::fflush(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_size_is_the_largest_divisor_within_limits() {
        assert_eq!(
            choose_local_size(&[1024, 1, 1], 1, 256, 256, 8),
            [256, 1, 1]
        );
        // 250 would leave a SIMD8 thread with 2 lanes; 200 is 25 full threads.
        assert_eq!(
            choose_local_size(&[1000, 1, 1], 1, 256, 256, 8),
            [200, 1, 1]
        );
        assert_eq!(
            choose_local_size(&[1000, 1, 1], 1, 256, 256, 16),
            [250, 1, 1]
        );
        // No divisor is a multiple of the SIMD width: the largest one.
        assert_eq!(choose_local_size(&[7919, 1, 1], 1, 256, 256, 8), [1, 1, 1]); // prime
        assert_eq!(
            choose_local_size(&[1001, 1, 1], 1, 256, 256, 8),
            [143, 1, 1]
        );
        assert_eq!(choose_local_size(&[64, 64, 1], 2, 256, 256, 16), [64, 4, 1]);
        assert_eq!(choose_local_size(&[3, 5, 7], 3, 256, 256, 8), [3, 5, 7]);
        assert_eq!(
            choose_local_size(&[512, 512, 512], 3, 256, 256, 8),
            [256, 1, 1]
        );
    }
}
