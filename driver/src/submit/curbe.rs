//! The CURBE of one walker region: cross-thread data (implicit values and
//! pushed arguments, at the offsets the kernel descriptor gives), then one
//! per-thread block per hardware thread (local IDs x, y, z as u16 lanes,
//! each padded to whole GRFs) — the layout `gencl_jit::abi` documents.

use gencl_jit::abi::{ImplicitKind, KernelBinary};

use super::{ArgValue, NdRange, SubmitError};

/// Shared local memory of a launch: the kernel's own `__local` variables first,
/// then each `__local` pointer argument in argument order, each aligned to 128
/// bytes (the largest OpenCL type, long16/double16, needs 128). Returns the
/// total and the SLM offset of each argument (0 for non-local ones).
pub fn slm_layout(
    kernel: &KernelBinary,
    args: &[ArgValue],
) -> Result<(u32, Vec<u32>), SubmitError> {
    let mut at = u64::from(kernel.slm_bytes);
    let mut offsets = Vec::with_capacity(args.len());
    for a in args {
        if let ArgValue::Local { size } = a {
            at = at.next_multiple_of(128);
            offsets.push(at as u32);
            at += u64::from(*size);
        } else {
            offsets.push(0);
        }
    }
    if at > u64::from(SLM_MAX) {
        return Err(SubmitError::TooLarge(
            "shared local memory of the kernel and its __local arguments exceeds 64 KiB",
        ));
    }
    Ok((at as u32, offsets))
}

/// Gen9 shared local memory per work-group.
pub const SLM_MAX: u32 = gencl_jit::abi::SLM_BYTES;

/// Cross-thread data for the groups of one walker region, whose work-groups have shape `local`.
/// `slm_offsets` from [`slm_layout`]; `data_addrs` the GPU addresses of the kernel's
/// `data_buffers`, in order.
pub fn cross_thread(
    kernel: &KernelBinary,
    args: &[ArgValue],
    nd: &NdRange,
    local: [u32; 3],
    slm_offsets: &[u32],
    data_addrs: &[u64],
) -> Result<Vec<u8>, SubmitError> {
    let mut data = vec![0u8; kernel.cross_thread_bytes as usize];
    let mut put = |off: u32, bytes: &[u8]| -> Result<(), SubmitError> {
        let off = off as usize;
        let slot = data
            .get_mut(off..off + bytes.len())
            .ok_or(SubmitError::Descriptor(
                "argument outside the cross-thread data",
            ))?;
        slot.copy_from_slice(bytes);
        Ok(())
    };
    for imp in &kernel.implicit {
        let d = imp.dim as usize;
        let groups = |d: usize| nd.global_size[d].div_ceil(nd.local_size[d].max(1) as u64);
        let v: u64 = match imp.kind {
            ImplicitKind::GlobalOffset => nd.global_offset[d],
            ImplicitKind::LocalSize => local[d] as u64,
            ImplicitKind::EnqueuedLocalSize => nd.local_size[d] as u64,
            ImplicitKind::GlobalSize => nd.global_size[d],
            ImplicitKind::NumGroups => groups(d),
            ImplicitKind::WorkDim => nd.work_dim as u64,
        };
        let v = u32::try_from(v)
            .map_err(|_| SubmitError::TooLarge("an ND-range value over 32 bits"))?;
        put(imp.offset, &v.to_le_bytes())?;
    }
    if args.len() != kernel.args.len() {
        return Err(SubmitError::Descriptor(
            "argument count differs from the kernel's",
        ));
    }
    for ((a, desc), slm) in args.iter().zip(&kernel.args).zip(slm_offsets) {
        match a {
            ArgValue::Buffer { gpu_addr, .. } => put(desc.curbe_offset, &gpu_addr.to_le_bytes())?,
            ArgValue::NullBuffer => put(desc.curbe_offset, &0u64.to_le_bytes())?,
            ArgValue::Bytes(b) => {
                if b.len() != desc.size as usize {
                    return Err(SubmitError::Descriptor(
                        "argument size differs from the kernel's",
                    ));
                }
                if desc.pieces.is_empty() {
                    put(desc.curbe_offset, b)?
                }
                for p in &desc.pieces {
                    let src = b.get(p.src as usize..(p.src + p.size) as usize).ok_or(
                        SubmitError::Descriptor("argument piece outside the argument"),
                    )?;
                    put(p.dst, src)?
                }
            }
            ArgValue::Local { .. } => put(desc.curbe_offset, &slm.to_le_bytes())?,
            ArgValue::Image { surface, .. } => {
                for &(p, off) in &desc.object_params {
                    let v = super::images::image_param(surface, p)
                        .ok_or(SubmitError::Descriptor("a sampler value asked of an image"))?;
                    put(off, &v.to_le_bytes())?;
                }
            }
            ArgValue::Sampler(s) => {
                for &(p, off) in &desc.object_params {
                    let v = super::images::sampler_param(s, p)
                        .ok_or(SubmitError::Descriptor("an image value asked of a sampler"))?;
                    put(off, &v.to_le_bytes())?;
                }
            }
        }
    }
    for (d, addr) in kernel.data_buffers.iter().zip(data_addrs) {
        put(d.curbe_offset, &addr.to_le_bytes())?;
    }
    Ok(data)
}

/// Threads per work-group of shape `local`.
pub fn threads_per_group(kernel: &KernelBinary, local: [u32; 3]) -> u32 {
    (local[0] * local[1] * local[2]).div_ceil(kernel.simd)
}

/// Per-thread blocks for a group of shape `local`, in dispatch order.
pub fn per_thread(kernel: &KernelBinary, local: [u32; 3]) -> Vec<u8> {
    let simd = kernel.simd as usize;
    let dim_bytes = (simd * 2).div_ceil(32) * 32;
    let threads = threads_per_group(kernel, local) as usize;
    let block = 3 * dim_bytes;
    let mut out = vec![0u8; threads * block];
    let total = (local[0] * local[1] * local[2]) as usize;
    // Work-item n of the group is (n % lx, n / lx % ly, n / (lx * ly)): counted up in
    // dispatch order rather than divided out per lane.
    let mut id = [0u32; 3];
    for n in 0..total {
        let (t, lane) = (n / simd, n % simd);
        for (d, v) in id.iter().enumerate() {
            let at = t * block + d * dim_bytes + lane * 2;
            out[at..at + 2].copy_from_slice(&(*v as u16).to_le_bytes());
        }
        id[0] += 1;
        if id[0] == local[0] {
            id[0] = 0;
            id[1] += 1;
            if id[1] == local[1] {
                id[1] = 0;
                id[2] += 1;
            }
        }
    }
    out
}
