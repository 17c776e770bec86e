//! Event objects (OpenCL 3.0 §5.11, §5.14). Every command completes before its enqueue call
//! returns, so events are born complete (or with a negative error status).

use super::context::Context;
use super::info::{self, val, Info};
use super::object::{get, ClObject, Ref};
use super::queue::Queue;
use super::types::*;
use super::util::{entry, slice, ClResult};
use std::ffi::c_void;

pub struct Event {
    pub context: Ref<Context>,
    pub queue: Ref<Queue>,
    pub command_type: cl_command_type,
    /// CL_COMPLETE or a negative error code.
    pub status: cl_int,
    /// Host monotonic nanoseconds: queued, submitted, started, ended.
    pub times: [u64; 4],
}

impl ClObject for Event {
    type Raw = _cl_event;
    const TAG: u32 = 0x6765_766e; // "gevn"
    const INVALID: cl_int = CL_INVALID_EVENT;
}

/// CLOCK_MONOTONIC in nanoseconds (the profiling time base).
pub fn now_ns() -> u64 {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC)
        .map(|t| t.tv_sec() as u64 * 1_000_000_000 + t.tv_nsec() as u64)
        .unwrap_or(0)
}

/// Hand the application an event for a finished command, if it asked for one.
pub(crate) fn complete(
    queue: &Ref<Queue>,
    command_type: cl_command_type,
    status: cl_int,
    times: [u64; 4],
    event: *mut cl_event,
) {
    if event.is_null() {
        return;
    }
    let h = Ref::new_handle(Event {
        context: queue.context.clone(),
        queue: queue.clone(),
        command_type,
        status,
        times,
    });
    // SAFETY: event is a valid out-pointer (checked non-NULL).
    unsafe { *event = h };
}

/// The wait-list rules every clEnqueue* shares:
/// "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0, or
/// event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
/// event_wait_list are not valid events."
/// "CL_INVALID_CONTEXT if the context associated with command_queue and events in
/// event_wait_list are not the same."
/// Returns whether some event in the list failed (commands then must not run:
/// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST for blocking calls).
pub(crate) fn check_wait_list(queue: &Queue, n: cl_uint, list: *const cl_event) -> ClResult<bool> {
    if list.is_null() != (n == 0) {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    let mut failed = false;
    // SAFETY: list has n entries per the spec.
    for &e in unsafe { slice(list, n as usize) } {
        let ev = get::<Event>(e).map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
        if ev.context.handle() != queue.context.handle() {
            return Err(CL_INVALID_CONTEXT);
        }
        failed |= ev.status < 0;
    }
    Ok(failed)
}

pub unsafe extern "C" fn clWaitForEvents(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_VALUE if num_events is zero or event_list is NULL."
        if num_events == 0 || event_list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: event_list has num_events entries per the spec.
        let list = unsafe { slice(event_list, num_events as usize) };
        let mut ctx = None;
        let mut failed = false;
        for &e in list {
            // "CL_INVALID_EVENT if event objects specified in event_list are not valid event
            // objects."
            let ev = get::<Event>(e)?;
            // "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same
            // context."
            let c = ev.context.handle();
            if *ctx.get_or_insert(c) != c {
                return Err(CL_INVALID_CONTEXT);
            }
            failed |= ev.status < 0;
        }
        // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of the
        // events in event_list is a negative integer value."
        if failed {
            return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        Ok(())
    })
}

fn event_info(event: cl_event, param: cl_event_info) -> ClResult<Info> {
    let e = get::<Event>(event)?;
    match param {
        CL_EVENT_COMMAND_QUEUE => val(&e.queue.handle()),
        CL_EVENT_CONTEXT => val(&e.context.handle()),
        CL_EVENT_COMMAND_TYPE => val(&e.command_type),
        CL_EVENT_COMMAND_EXECUTION_STATUS => val(&e.status),
        CL_EVENT_REFERENCE_COUNT => val(&e.ref_count()),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetEventInfo(
    event: cl_event,
    param_name: cl_event_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || event_info(event, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

fn profiling_info(event: cl_event, param: cl_profiling_info) -> ClResult<Info> {
    let e = get::<Event>(event)?;
    // "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not set for the
    // command-queue, if the execution status of the command identified by event is not
    // CL_COMPLETE"
    if !e.queue.profiling() || e.status != CL_COMPLETE {
        return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    match param {
        CL_PROFILING_COMMAND_QUEUED => val(&e.times[0]),
        CL_PROFILING_COMMAND_SUBMIT => val(&e.times[1]),
        CL_PROFILING_COMMAND_START => val(&e.times[2]),
        CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => val(&e.times[3]),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetEventProfilingInfo(
    event: cl_event,
    param_name: cl_profiling_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || profiling_info(event, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

pub unsafe extern "C" fn clRetainEvent(e: cl_event) -> cl_int {
    entry(|| Ref::<Event>::retain(e))
}

pub unsafe extern "C" fn clReleaseEvent(e: cl_event) -> cl_int {
    entry(|| Ref::<Event>::release(e))
}
