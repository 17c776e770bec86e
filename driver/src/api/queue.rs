//! Command queues (OpenCL 3.0 §5.1): the handle over a core queue (`core::queue`), whose
//! worker runs the commands after clEnqueue* has returned.

use super::info::{self, val, Info};
use super::object::{get, Ref};
use super::runtime::{check_device, device_id};
use super::types::*;
use super::util::{entry, entry_ptr, flatten, has_other_bits, properties, ClResult};
use crate::core::context::Context;
use crate::core::queue::Queue;
use crate::core::queue::QueueCore;
use std::ffi::c_void;

fn create(
    context: cl_context,
    device: cl_device_id,
    props: cl_command_queue_properties,
    props_array: Option<Vec<(cl_queue_properties, cl_queue_properties)>>,
) -> ClResult<cl_command_queue> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let ctx = get::<Context>(context)?;
    // "CL_INVALID_DEVICE if device is not a valid device or is not associated with context."
    check_device(device)?;
    // "CL_INVALID_VALUE if values specified in properties are not valid."
    let all = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
        | CL_QUEUE_PROFILING_ENABLE
        | CL_QUEUE_ON_DEVICE
        | CL_QUEUE_ON_DEVICE_DEFAULT;
    let names = props_array.as_deref().unwrap_or_default();
    let known = |k: cl_queue_properties| {
        k == CL_QUEUE_PROPERTIES as cl_queue_properties || k == CL_QUEUE_SIZE as cl_queue_properties
    };
    if has_other_bits(props, all) || names.iter().any(|&(k, _)| !known(k)) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not
    // supported by the device": on-device queues, and CL_QUEUE_SIZE, which only means
    // something on one.
    if has_other_bits(
        props,
        CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
    ) || names
        .iter()
        .any(|&(k, _)| k == CL_QUEUE_SIZE as cl_queue_properties)
    {
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    Ok(Ref::new_handle(Queue {
        context: ctx,
        properties: props,
        props_array,
        core: QueueCore::new(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0),
        wire_id: crate::core::next_wire_id(),
    }))
}

pub unsafe extern "C" fn clCreateCommandQueue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    entry_ptr(errcode_ret, || create(context, device, properties, None))
}

pub unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    entry_ptr(errcode_ret, || {
        // SAFETY: a 0-terminated list or NULL, per the spec.
        let list = unsafe { self::properties(properties) };
        // The property names are checked by `create`, in the spec's order.
        let bits = list
            .iter()
            .flatten()
            .rfind(|&&(k, _)| k == CL_QUEUE_PROPERTIES as cl_queue_properties)
            .map_or(0, |&(_, v)| v);
        create(context, device, bits, list)
    })
}

pub unsafe extern "C" fn clRetainCommandQueue(q: cl_command_queue) -> cl_int {
    entry(|| Ref::<Queue>::retain(q))
}

pub unsafe extern "C" fn clReleaseCommandQueue(q: cl_command_queue) -> cl_int {
    entry(|| Ref::<Queue>::release(q))
}

fn queue_info(q: cl_command_queue, param: cl_command_queue_info) -> ClResult<Info> {
    let q = get::<Queue>(q)?;
    match param {
        CL_QUEUE_CONTEXT => val(&q.context.handle()),
        CL_QUEUE_DEVICE => val(&device_id()),
        CL_QUEUE_REFERENCE_COUNT => val(&q.ref_count()),
        CL_QUEUE_PROPERTIES => val(&q.properties),
        CL_QUEUE_PROPERTIES_ARRAY => match &q.props_array {
            Some(p) => val(&flatten(p)),
            None => val(&Vec::<u64>::new()),
        },
        CL_QUEUE_SIZE => Err(CL_INVALID_COMMAND_QUEUE),
        CL_QUEUE_DEVICE_DEFAULT => val(&std::ptr::null_mut::<_cl_command_queue>()),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetCommandQueueInfo(
    q: cl_command_queue,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || queue_info(q, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// "clFlush issues all previously queued OpenCL commands in command_queue to the device": a
/// launch deferred at its enqueue (`QueueCore::push`) goes to the queue's worker.
pub unsafe extern "C" fn clFlush(q: cl_command_queue) -> cl_int {
    entry(|| {
        get::<Queue>(q)?.core.flush();
        Ok(())
    })
}

/// "clFinish ... does not return until all previously queued OpenCL commands in command_queue
/// are issued to the associated device and have completed."
pub unsafe extern "C" fn clFinish(q: cl_command_queue) -> cl_int {
    entry(|| {
        // NEO answers a GPU hang during the wait with CL_OUT_OF_RESOURCES.
        get::<Queue>(q)?.core.finish()
    })
}
