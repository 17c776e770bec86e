//! A launch's dynamic state: its two timestamps, the kernel's sampler heap, and per walk
//! (`regions`) a CURBE and an interface descriptor. Offsets are from the dynamic state base,
//! which is the start of the launch's state buffer.

use gencl_jit::abi::{ArgKind, KernelBinary};
use gencl_kmd::genx::gen9::{
    slm_size_bytes, GpgpuWalker, InterfaceDescriptorData, SamplerBorderColorState, SamplerState,
    SIMD16, SIMD32, SIMD8,
};
use gencl_kmd::genx::launch::Walk;
use gencl_kmd::genx::Packet;

use super::{curbe, images, regions, write_dwords, ArgValue, NdRange, SubmitError};

/// What the dynamic state holds for the batch.
pub struct Dynamic {
    /// The start and end timestamps (8 bytes each).
    pub timestamps: usize,
    pub walks: Vec<Walk>,
    /// GRFs of the largest CURBE (MEDIA_VFE_STATE's CURBE allocation).
    pub curbe_grfs: u32,
    /// Shared local memory in use: the L3 needs an SLM partition.
    pub slm: bool,
}

/// Addresses patched into the cross-thread data: (offset in it, GPU address).
pub type Patch = (usize, u64);

/// Everything a walk's state is made from.
pub struct Inputs<'a> {
    pub kernel: &'a KernelBinary,
    pub args: &'a [ArgValue],
    pub nd: &'a NdRange,
    /// The kernel's offset in the instruction heap.
    pub ksp: usize,
    /// Entries of the launch's binding table.
    pub binding_table_entries: usize,
    /// GPU addresses of the kernel's data buffers, in order.
    pub data_addrs: &'a [u64],
    /// Buffer addresses the kernel reads from its cross-thread data (printf's buffer, the
    /// global variables, the scratch space's base).
    pub patches: &'a [Patch],
}

/// Write the dynamic state into `map` from offset `from`.
pub fn write(map: &mut [u8], from: usize, i: &Inputs) -> Result<Dynamic, SubmitError> {
    let kernel = i.kernel;
    let simd_size = match kernel.simd {
        8 => SIMD8,
        16 => SIMD16,
        32 => SIMD32,
        _ => return Err(SubmitError::Descriptor("SIMD width")),
    };
    let (slm_total, slm_offsets) = curbe::slm_layout(kernel, i.args)?;
    let slm_encoded = (0..=7u8)
        .find(|&e| slm_size_bytes(e).is_some_and(|b| b >= slm_total))
        .ok_or(SubmitError::TooLarge("shared local memory"))?;
    let timestamps = from;
    map[timestamps..timestamps + 16].fill(0);
    let mut used = from + 64;
    let samplers = samplers(map, &mut used, kernel, i.args)?;
    let regions = regions::split(i.nd.global_size, i.nd.local_size);
    let mut walks = Vec::with_capacity(regions.len());
    let mut curbe_grfs = 0;
    for r in &regions {
        let threads = curbe::threads_per_group(kernel, r.local);
        if threads > 64 {
            return Err(SubmitError::TooLarge(
                "work-group needs more than 64 hardware threads",
            ));
        }
        curbe_grfs =
            curbe_grfs.max(kernel.cross_thread_grfs() + kernel.per_thread_grfs() * threads);
        let per = curbe::per_thread(kernel, r.local);
        let mut cross =
            curbe::cross_thread(kernel, i.args, i.nd, r.local, &slm_offsets, i.data_addrs)?;
        for &(at, addr) in i.patches {
            cross
                .get_mut(at..at + 8)
                .ok_or(SubmitError::Descriptor(
                    "a buffer address outside the cross-thread data",
                ))?
                .copy_from_slice(&addr.to_le_bytes());
        }
        let curbe_at = used.next_multiple_of(64);
        let curbe_len = cross.len() + per.len();
        let idd_at = (curbe_at + curbe_len).next_multiple_of(64);
        used = idd_at + 64;
        if used > map.len() {
            return Err(SubmitError::TooLarge(
                "launch state exceeds the dynamic state heap",
            ));
        }
        map[curbe_at..curbe_at + cross.len()].copy_from_slice(&cross);
        map[curbe_at + cross.len()..curbe_at + curbe_len].copy_from_slice(&per);
        let idd = InterfaceDescriptorData {
            kernel_start_pointer: i.ksp as u64,
            // Only a prefetch hint (5 bits): messages reach every entry of the table.
            binding_table_entry_count: i.binding_table_entries.min(31) as u8,
            shared_local_memory_size: slm_encoded,
            binding_table_pointer: 0,
            constant_urb_entry_read_length: kernel.per_thread_grfs() as u16,
            number_of_threads_in_gpgpu_thread_group: threads as u16,
            barrier_enable: kernel.barriers,
            // Double and half denormals kept from the thread's start, as OpenCL wants them
            // and NEO sets it (the prologue sets cr0 for float, too).
            denorm_mode: 1,
            cross_thread_constant_data_read_length: kernel.cross_thread_grfs() as u8,
            sampler_state_pointer: samplers.map_or(0, |p| p.0),
            sampler_count: samplers.map_or(0, |p| p.1),
            ..Default::default()
        };
        write_dwords(map, idd_at, &idd.pack_vec());
        let lanes = r.local[0] * r.local[1] * r.local[2];
        let rem = lanes % kernel.simd;
        let right = if rem == 0 {
            u32::MAX >> (32 - kernel.simd)
        } else {
            (1u32 << rem) - 1
        };
        walks.push(Walk {
            curbe_offset: curbe_at as u32,
            curbe_length: curbe_len as u32,
            idd_offset: idd_at as u32,
            idd_length: 32,
            walker: GpgpuWalker {
                simd_size,
                thread_width_counter_maximum: (threads - 1) as u8,
                thread_group_id_starting_x: r.group_start[0],
                thread_group_id_x_dimension: r.group_end[0],
                thread_group_id_starting_y: r.group_start[1],
                thread_group_id_y_dimension: r.group_end[1],
                thread_group_id_starting_resume_z: r.group_start[2],
                thread_group_id_z_dimension: r.group_end[2],
                right_execution_mask: right,
                bottom_execution_mask: u32::MAX,
                ..Default::default()
            },
        });
    }
    Ok(Dynamic {
        timestamps,
        walks,
        curbe_grfs,
        slm: slm_total > 0,
    })
}

/// The kernel's sampler heap (its inline samplers' states in it), each sampler argument's
/// state at its offset, every state's border colour pointing at the heap's (transparent
/// black), as Intel's runtime patches them. Returns the interface descriptor's sampler
/// state pointer and count (in fours).
fn samplers(
    map: &mut [u8],
    used: &mut usize,
    kernel: &KernelBinary,
    args: &[ArgValue],
) -> Result<Option<(u32, u8)>, SubmitError> {
    let Some(h) = &kernel.samplers else {
        if args.iter().any(|a| matches!(a, ArgValue::Sampler(_))) {
            return Err(SubmitError::Descriptor(
                "a sampler argument without a sampler heap",
            ));
        }
        return Ok(None);
    };
    let at = used.next_multiple_of(64);
    let end = at + h.heap.len();
    if end > map.len() {
        return Err(SubmitError::TooLarge(
            "sampler state exceeds the dynamic state heap",
        ));
    }
    map[at..end].copy_from_slice(&h.heap);
    let border = at + h.border_offset as usize;
    write_dwords(map, border, &SamplerBorderColorState::default().pack_vec());
    for (a, desc) in args.iter().zip(&kernel.args) {
        match (a, &desc.kind) {
            (ArgValue::Sampler(s), ArgKind::Sampler { state_offset }) => {
                let st = images::sampler_state(s, border as u32)?;
                write_dwords(map, at + *state_offset as usize, &st.pack_vec());
            }
            (ArgValue::Sampler(_), _) | (_, ArgKind::Sampler { .. }) => {
                return Err(SubmitError::Descriptor(
                    "a sampler argument without a sampler",
                ));
            }
            _ => {}
        }
    }
    for s in &h.inline {
        let v = images::SamplerValue {
            normalized: s.normalized,
            addressing: s.addressing,
            filter: s.filter,
        };
        let st = images::sampler_state(&v, border as u32)?;
        write_dwords(
            map,
            at + (h.state_offset + 16 * s.index) as usize,
            &st.pack_vec(),
        );
    }
    for k in 0..h.count as usize {
        let st_at = at + h.state_offset as usize + 16 * k;
        let mut dw = [0u32; 4];
        for (i, d) in dw.iter_mut().enumerate() {
            let o = st_at + 4 * i;
            *d = u32::from_le_bytes(map[o..o + 4].try_into().unwrap_or_default());
        }
        let st = SamplerState {
            border_color_pointer: border as u32,
            ..SamplerState::unpack(&dw)
        };
        write_dwords(map, st_at, &st.pack_vec());
    }
    *used = end;
    Ok(Some((
        at as u32 + h.state_offset,
        h.count.div_ceil(4) as u8,
    )))
}
