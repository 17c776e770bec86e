//! Kernel objects (OpenCL 3.0 §5.9): a program's kernel with the argument values set so far.
//! The entry points are in `api/kernel.rs`; a launch takes the values in `api/launch.rs`.

use super::program::Program;
use crate::api::object::{ClObject, Ref};
use crate::api::runtime::device_desc;
use crate::api::types::*;
use crate::api::util::ClResult;
use crate::protocol::KernelDesc;
use crate::submit::images::SamplerValue;
use parking_lot::Mutex;
use std::sync::atomic::Ordering;

pub enum ArgVal {
    /// A buffer's handle, not a reference: clSetKernelArg does not retain the buffer (an
    /// application may release it and expect its destructor callback), so the handle is
    /// checked again at each enqueue.
    Mem(Option<usize>),
    Local(u32),
    Bytes(Vec<u8>),
    /// An image's handle (checked again at each enqueue, as a buffer's is).
    Image(usize),
    /// A sampler's values (a sampler cannot change once made).
    Sampler(SamplerValue),
}

pub struct Kernel {
    pub program: Ref<Program>,
    pub index: u32,
    pub desc: KernelDesc,
    pub service_program: std::sync::Arc<super::program::Executable>,
    pub non_uniform: bool,
    pub args: Mutex<Vec<Option<ArgVal>>>,
}

impl ClObject for Kernel {
    type Raw = _cl_kernel;
    const TAG: u32 = 0x676b_726e; // "gkrn"
    const INVALID: cl_int = CL_INVALID_KERNEL;
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.kernels_attached.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Kernel {
    /// Largest work-group this kernel can run with.
    pub fn max_work_group_size(&self) -> ClResult<usize> {
        Ok(device_desc()?.max_work_group_size as usize)
    }
    /// SLM: the kernel's own plus every __local argument set so far.
    pub fn local_mem_size(&self) -> u64 {
        let args: u64 = self
            .args
            .lock()
            .iter()
            .map(|a| match a {
                Some(ArgVal::Local(n)) => *n as u64,
                _ => 0,
            })
            .sum();
        self.desc.slm_bytes as u64 + args
    }
}
