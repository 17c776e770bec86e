//! The CURBE of one walker region: cross-thread data (implicit values and
//! pushed arguments, at the offsets the kernel descriptor gives), then one
//! per-thread block per hardware thread (local IDs x, y, z as u16 lanes,
//! each padded to whole GRFs) — the layout `gencl_jit::kernel` documents.

use gencl_jit::kernel::{ImplicitKind, KernelBinary};

use super::{ArgValue, NdRange, SubmitError};

/// Cross-thread data for a launch (the same for every region).
pub fn cross_thread(
    kernel: &KernelBinary,
    args: &[ArgValue],
    nd: &NdRange,
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
            ImplicitKind::LocalSize => nd.local_size[d] as u64,
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
    for (a, desc) in args.iter().zip(&kernel.args) {
        match a {
            ArgValue::Buffer { gpu_addr, .. } => put(desc.curbe_offset, &gpu_addr.to_le_bytes())?,
            ArgValue::NullBuffer => put(desc.curbe_offset, &0u64.to_le_bytes())?,
            ArgValue::Bytes(b) => {
                if b.len() != desc.size as usize {
                    return Err(SubmitError::Descriptor(
                        "argument size differs from the kernel's",
                    ));
                }
                put(desc.curbe_offset, b)?
            }
            ArgValue::Local { .. } => {
                return Err(SubmitError::Unsupported("__local pointer arguments"))
            }
        }
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
    for t in 0..threads {
        for lane in 0..simd {
            let n = t * simd + lane;
            if n >= total {
                break;
            }
            let n = n as u32;
            let ids = [
                n % local[0],
                (n / local[0]) % local[1],
                n / (local[0] * local[1]),
            ];
            for (d, id) in ids.iter().enumerate() {
                let at = t * block + d * dim_bytes + lane * 2;
                out[at..at + 2].copy_from_slice(&(*id as u16).to_le_bytes());
            }
        }
    }
    out
}
