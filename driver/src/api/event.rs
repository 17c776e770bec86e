//! Event objects (OpenCL 3.0 §5.11, §5.14): a handle over the core's event state
//! (`core::event`), for a command or a user event.

use super::info::{self, val, Info};
use super::object::{get, Ref};
use super::types::*;
use super::util::{entry, entry_ptr, slice, ClResult};
use crate::core::context::Context;
use crate::core::event::Event;
use crate::core::event::EventCore;
use crate::core::queue::Queue;
use std::ffi::c_void;
use std::sync::Arc;

/// Hand the application an event for a queued command, if it asked for one.
pub(crate) fn hand_out(
    queue: &Ref<Queue>,
    command_type: cl_command_type,
    core: &Arc<EventCore>,
    event: *mut cl_event,
) {
    if event.is_null() {
        return;
    }
    let h = Ref::new_handle(Event {
        context: queue.context.clone(),
        queue: Some(queue.clone()),
        command_type,
        core: core.clone(),
    });
    // SAFETY: event is a valid out-pointer (checked non-NULL).
    unsafe { *event = h };
}

/// The wait-list rules every clEnqueue* shares, and the events it names:
/// "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0, or
/// event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
/// event_wait_list are not valid events."
/// then "CL_INVALID_CONTEXT if the context associated with command_queue and events in
/// event_wait_list are not the same" (`wait_list_context`: the commands that list it earlier
/// have checked it already; clEnqueueUnmapMemObject lists it after).
pub(crate) fn wait_list(
    queue: &Queue,
    n: cl_uint,
    list: *const cl_event,
) -> ClResult<Vec<Arc<EventCore>>> {
    if list.is_null() != (n == 0) {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    // SAFETY: list has n entries per the spec.
    let handles = unsafe { slice(list, n as usize) };
    let mut out = Vec::with_capacity(handles.len());
    for &e in handles {
        let ev = get::<Event>(e).map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
        out.push(ev.core.clone());
    }
    wait_list_context(queue, n, list)?;
    Ok(out)
}

/// "CL_INVALID_CONTEXT if the context associated with command_queue and events in
/// event_wait_list are not the same", checked where each command lists it (most before their
/// argument and wait-list checks) over the events of the list that are valid: an invalid one,
/// or a list of the wrong shape, is the later CL_INVALID_EVENT_WAIT_LIST.
pub(crate) fn wait_list_context(queue: &Queue, n: cl_uint, list: *const cl_event) -> ClResult<()> {
    if list.is_null() || n == 0 {
        return Ok(());
    }
    // SAFETY: list has n entries per the spec.
    for &e in unsafe { slice(list, n as usize) } {
        if get::<Event>(e).is_ok_and(|ev| ev.context.handle() != queue.context.handle()) {
            return Err(CL_INVALID_CONTEXT);
        }
    }
    Ok(())
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
        let found: Vec<ClResult<Ref<Event>>> = list.iter().map(|&e| get::<Event>(e)).collect();
        // "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same
        // context." (over the events that are valid)
        let mut ctx = None;
        for ev in found.iter().flatten() {
            let c = ev.context.handle();
            if *ctx.get_or_insert(c) != c {
                return Err(CL_INVALID_CONTEXT);
            }
        }
        // "CL_INVALID_EVENT if event objects specified in event_list are not valid event
        // objects."
        let events = found
            .into_iter()
            .map(|e| e.map(|ev| ev.core.clone()))
            .collect::<ClResult<Vec<_>>>()?;
        // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of the
        // events in event_list is a negative integer value."
        let mut failed = false;
        for e in events {
            failed |= e.wait() < 0;
        }
        if failed {
            return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        Ok(())
    })
}

pub unsafe extern "C" fn clCreateUserEvent(
    context: cl_context,
    errcode_ret: *mut cl_int,
) -> cl_event {
    entry_ptr(errcode_ret, || {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        let ctx = get::<Context>(context)?;
        Ok(Ref::new_handle(Event {
            context: ctx,
            queue: None,
            command_type: CL_COMMAND_USER,
            core: Arc::new(EventCore::user()),
        }))
    })
}

pub unsafe extern "C" fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) -> cl_int {
    entry(|| {
        // "CL_INVALID_EVENT if event is not a valid user event object."
        let e = get::<Event>(event)?;
        if e.command_type != CL_COMMAND_USER {
            return Err(CL_INVALID_EVENT);
        }
        // "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer
        // value."
        if execution_status > CL_COMPLETE {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_OPERATION if the execution_status for event has already been changed by
        // a previous call to clSetUserEventStatus."
        if e.core.is_done() {
            return Err(CL_INVALID_OPERATION);
        }
        e.core.set_status(execution_status);
        Ok(())
    })
}

pub unsafe extern "C" fn clSetEventCallback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: Option<unsafe extern "C" fn(cl_event, cl_int, *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_EVENT if event is not a valid event object."
        let e = get::<Event>(event)?;
        // "CL_INVALID_VALUE if pfn_event_notify is NULL or if command_exec_callback_type is
        // not CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE."
        let Some(f) = pfn_notify else {
            return Err(CL_INVALID_VALUE);
        };
        if ![CL_SUBMITTED, CL_RUNNING, CL_COMPLETE].contains(&command_exec_callback_type) {
            return Err(CL_INVALID_VALUE);
        }
        // An application that waits for the callback needs the command issued (a launch is
        // deferred at its enqueue until something needs it: `QueueCore::push`).
        e.core.issue();
        // The callback holds a reference, so that the handle it is given is live when it runs.
        let held = e.clone();
        let data = user_data as usize;
        e.core.on_status(
            command_exec_callback_type,
            Box::new(move |status| {
                // SAFETY: the application's callback, called as the spec says, with a live
                // event handle (`held`) and its own user_data.
                unsafe { f(held.handle(), status, data as *mut c_void) };
            }),
        );
        Ok(())
    })
}

fn event_info(event: cl_event, param: cl_event_info) -> ClResult<Info> {
    let e = get::<Event>(event)?;
    match param {
        CL_EVENT_COMMAND_QUEUE => val(&e
            .queue
            .as_ref()
            .map_or(std::ptr::null_mut(), |q| q.handle())),
        CL_EVENT_CONTEXT => val(&e.context.handle()),
        CL_EVENT_COMMAND_TYPE => val(&e.command_type),
        CL_EVENT_COMMAND_EXECUTION_STATUS => {
            // An application polling the status without clFlush still sees the command run,
            // as on NEO and PoCL: the query issues a deferred launch.
            e.core.issue();
            val(&e.core.status())
        }
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
    // CL_COMPLETE or if event is a user event object."
    let profiled = e.queue.as_ref().is_some_and(|q| q.profiling());
    e.core.issue();
    if !profiled || e.core.status() != CL_COMPLETE {
        return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    let t = e.core.times();
    match param {
        CL_PROFILING_COMMAND_QUEUED => val(&t[0]),
        CL_PROFILING_COMMAND_SUBMIT => val(&t[1]),
        CL_PROFILING_COMMAND_START => val(&t[2]),
        CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => val(&t[3]),
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
