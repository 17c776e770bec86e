//! Sampler objects (OpenCL 3.0 §5.4): clCreateSampler(WithProperties), clRetainSampler,
//! clReleaseSampler, clGetSamplerInfo. A sampler is the three values a kernel's
//! SAMPLER_STATE is made from when it is passed as an argument (`submit::images`).

use super::info::{self, val, Info};
use super::object::{get, Ref};
use super::types::*;
use super::util::{entry, entry_ptr, flatten, properties, ClResult};
use crate::core::context::Context;
use crate::core::sampler::Sampler;
use std::ffi::c_void;

fn create(
    context: cl_context,
    normalized: cl_bool,
    addressing: cl_addressing_mode,
    filter: cl_filter_mode,
    props: Option<Vec<(cl_sampler_properties, cl_sampler_properties)>>,
) -> ClResult<cl_sampler> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let ctx = get::<Context>(context)?;
    // "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a combination of
    // these argument values are not valid."
    if !(CL_ADDRESS_NONE..=CL_ADDRESS_MIRRORED_REPEAT).contains(&addressing)
        || !matches!(filter, CL_FILTER_NEAREST | CL_FILTER_LINEAR)
        || normalized > CL_TRUE
    {
        return Err(CL_INVALID_VALUE);
    }
    // Repeat and mirrored repeat with unnormalized coordinates are undefined in OpenCL C
    // (§6.15.14.1) but not an invalid combination for the API: accepted, as Intel's runtime
    // accepts them (the hardware's wrap of unnormalized coordinates is what a kernel gets).
    Ok(Ref::new_handle(Sampler {
        context: ctx,
        normalized: normalized == CL_TRUE,
        addressing,
        filter,
        properties: props,
    }))
}

pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    entry_ptr(errcode_ret, || {
        create(
            context,
            normalized_coords,
            addressing_mode,
            filter_mode,
            None,
        )
    })
}

pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    sampler_properties: *const cl_sampler_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    entry_ptr(errcode_ret, || {
        // SAFETY: a 0-terminated list or NULL, per the spec.
        let list = unsafe { properties(sampler_properties) };
        // "CL_INVALID_CONTEXT if context is not a valid context."
        get::<Context>(context)?;
        // "CL_INVALID_VALUE if the property name in sampler_properties is not a supported
        // property name, if the value specified for a supported property name is not valid,
        // or if the same property name is specified more than once." The defaults:
        // normalized coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
        let (mut normalized, mut addressing, mut filter) =
            (CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
        let mut seen = Vec::new();
        for &(k, v) in list.iter().flatten() {
            if seen.contains(&k) {
                return Err(CL_INVALID_VALUE);
            }
            seen.push(k);
            let v32 = u32::try_from(v).map_err(|_| CL_INVALID_VALUE)?;
            match k as u32 {
                CL_SAMPLER_NORMALIZED_COORDS => normalized = v32,
                CL_SAMPLER_ADDRESSING_MODE => addressing = v32,
                CL_SAMPLER_FILTER_MODE => filter = v32,
                _ => return Err(CL_INVALID_VALUE),
            }
        }
        create(context, normalized, addressing, filter, list)
    })
}

pub unsafe extern "C" fn clRetainSampler(sampler: cl_sampler) -> cl_int {
    entry(|| Ref::<Sampler>::retain(sampler))
}

pub unsafe extern "C" fn clReleaseSampler(sampler: cl_sampler) -> cl_int {
    entry(|| Ref::<Sampler>::release(sampler))
}

fn sampler_info(sampler: cl_sampler, param: cl_sampler_info) -> ClResult<Info> {
    // "CL_INVALID_SAMPLER if sampler is a not a valid sampler object."
    let s = get::<Sampler>(sampler)?;
    match param {
        CL_SAMPLER_REFERENCE_COUNT => val(&s.ref_count()),
        CL_SAMPLER_CONTEXT => val(&s.context.handle()),
        CL_SAMPLER_NORMALIZED_COORDS => val(&(s.normalized as cl_bool)),
        CL_SAMPLER_ADDRESSING_MODE => val(&s.addressing),
        CL_SAMPLER_FILTER_MODE => val(&s.filter),
        CL_SAMPLER_PROPERTIES => match &s.properties {
            Some(p) => val(&flatten(p)),
            None => val(&Vec::<u64>::new()),
        },
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetSamplerInfo(
    sampler: cl_sampler,
    param_name: cl_sampler_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || sampler_info(sampler, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}
