//! Contexts (OpenCL 3.0 §4.4).

use super::info::{self, val, Info};
use super::object::{get, Ref};
use super::platform::is_platform;
use super::runtime::{check_device, connection, device_id};
use super::types::*;
use super::util::{entry, entry_ptr, flatten, properties, slice, ClResult};
use crate::core::context::Context;
use std::ffi::c_void;

fn check_properties(
    props: *const cl_context_properties,
) -> ClResult<(Vec<(cl_context_properties, cl_context_properties)>, bool)> {
    // SAFETY: the spec requires a 0-terminated list or NULL.
    let Some(list) = (unsafe { properties(props) }) else {
        return Ok((Vec::new(), false));
    };
    // "CL_INVALID_PLATFORM if ... the platform specified in properties is not a valid
    // platform." (listed before CL_INVALID_PROPERTY: wherever it is in the list)
    if list
        .iter()
        .any(|&(k, v)| k == CL_CONTEXT_PLATFORM && !is_platform(v as cl_platform_id))
    {
        return Err(CL_INVALID_PLATFORM);
    }
    let mut seen = Vec::new();
    for &(k, v) in &list {
        // "CL_INVALID_PROPERTY if ... the same property name is specified more than once."
        if seen.contains(&k) {
            return Err(CL_INVALID_PROPERTY);
        }
        seen.push(k);
        match k {
            CL_CONTEXT_PLATFORM => {}
            CL_CONTEXT_INTEROP_USER_SYNC if v == CL_TRUE as isize || v == CL_FALSE as isize => {}
            // "CL_INVALID_PROPERTY if context property name in properties is not a supported
            // property name, if the value specified for a supported property name is not valid"
            _ => return Err(CL_INVALID_PROPERTY),
        }
    }
    Ok((list, true))
}

fn new_context(
    props: Vec<(cl_context_properties, cl_context_properties)>,
    had: bool,
    pfn_notify: ContextNotify,
    user_data: *mut c_void,
) -> ClResult<cl_context> {
    // "CL_DEVICE_NOT_AVAILABLE if a device in devices is currently not available even though the
    // device was returned by clGetDeviceIDs."
    connection().map_err(|_| CL_DEVICE_NOT_AVAILABLE)?;
    Ok(Ref::new_handle(Context {
        notify: pfn_notify.map(|f| (f, user_data as usize)),
        destructors: Default::default(),
        properties: props,
        had_properties: had,
        wire_id: crate::core::next_wire_id(),
        launched: Default::default(),
    }))
}

pub unsafe extern "C" fn clCreateContext(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: ContextNotify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    entry_ptr(errcode_ret, || {
        let (props, had) = check_properties(properties)?;
        // "CL_INVALID_VALUE if devices is NULL."
        // "CL_INVALID_VALUE if num_devices is equal to zero."
        if devices.is_null() || num_devices == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if any device in devices is not a valid device."
        // SAFETY: devices points to num_devices handles per the spec.
        for &d in unsafe { slice(devices, num_devices as usize) } {
            check_device(d)?;
        }
        new_context(props, had, pfn_notify, user_data)
    })
}

pub unsafe extern "C" fn clCreateContextFromType(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: ContextNotify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    entry_ptr(errcode_ret, || {
        let (props, had) = check_properties(properties)?;
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
        // "CL_DEVICE_NOT_FOUND if no devices that match device_type and property values
        // specified in properties are currently available."
        let mut n = 0;
        match super::device::get_device_ids(
            std::ptr::null_mut(),
            device_type,
            0,
            std::ptr::null_mut(),
            &mut n,
        ) {
            Ok(()) => {}
            Err(e) => return Err(e),
        }
        new_context(props, had, pfn_notify, user_data)
    })
}

pub unsafe extern "C" fn clRetainContext(context: cl_context) -> cl_int {
    entry(|| Ref::<Context>::retain(context))
}

pub unsafe extern "C" fn clReleaseContext(context: cl_context) -> cl_int {
    entry(|| Ref::<Context>::release(context))
}

fn context_info(context: cl_context, param: cl_context_info) -> ClResult<Info> {
    let c = get::<Context>(context)?;
    match param {
        CL_CONTEXT_REFERENCE_COUNT => val(&c.ref_count()),
        CL_CONTEXT_NUM_DEVICES => val(&1u32),
        CL_CONTEXT_DEVICES => val(&[device_id()]),
        CL_CONTEXT_PROPERTIES if c.had_properties => val(&flatten(&c.properties)),
        CL_CONTEXT_PROPERTIES => val(&Vec::<isize>::new()),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetContextInfo(
    context: cl_context,
    param_name: cl_context_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || context_info(context, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

pub unsafe extern "C" fn clSetContextDestructorCallback(
    context: cl_context,
    pfn_notify: Option<unsafe extern "C" fn(cl_context, *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        let c = get::<Context>(context)?;
        // "CL_INVALID_VALUE if pfn_notify is NULL."
        let f = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        c.destructors.push(context, f, user_data);
        Ok(())
    })
}
