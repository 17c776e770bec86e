//! Sampler objects (OpenCL 3.0 §5.7). The entry points are in `api/sampler.rs`.

use super::context::Context;
use crate::api::object::{ClObject, Ref};
use crate::api::types::*;
use crate::submit::images::SamplerValue;

pub struct Sampler {
    pub context: Ref<Context>,
    pub normalized: bool,
    pub addressing: cl_addressing_mode,
    pub filter: cl_filter_mode,
    /// The list given to clCreateSamplerWithProperties (CL_SAMPLER_PROPERTIES), if one was.
    pub properties: Option<Vec<(cl_sampler_properties, cl_sampler_properties)>>,
}

impl ClObject for Sampler {
    type Raw = _cl_sampler;
    const TAG: u32 = 0x6773_6d70; // "gsmp"
    const INVALID: cl_int = CL_INVALID_SAMPLER;
}

impl Sampler {
    /// What a launch sends for a sampler argument.
    pub fn value(&self) -> SamplerValue {
        SamplerValue {
            normalized: self.normalized,
            addressing: self.addressing,
            filter: self.filter,
        }
    }
}
