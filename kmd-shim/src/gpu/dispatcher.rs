//! The thread dispatcher (PRM vol 7, "GPGPU thread dispatch"): what each hardware thread
//! of a thread group starts with. The command streamer walks the groups of a
//! GPGPU_WALKER; for each one the dispatcher builds every thread's payload: the r0 header
//! (group id, barrier id, binding table, the thread's scratch slot, its fixed-function
//! thread id), its per-thread CURBE block (local ids), the cross-thread block, and its
//! channel enables (the walker's right and bottom execution masks on the last row and
//! column). The EUs (`gpu::eu`) run the group from there.

use super::ThreadPayload;

/// What the interface descriptor, MEDIA_VFE_STATE and the walker fix for every group of one
/// dispatch.
#[derive(Debug, Clone, Copy)]
pub struct GroupDispatch {
    /// Hardware threads per group.
    pub threads: u32,
    /// The walker's thread width and height (threads per row, rows).
    pub width: u32,
    pub height: u32,
    /// Every channel of the SIMD width.
    pub simd_mask: u32,
    /// Channel enables of the last column and of the last row.
    pub right_mask: u32,
    pub bottom_mask: u32,
    pub barrier_enable: bool,
    pub sampler_state_pointer: u32,
    pub binding_table_pointer: u32,
    /// MEDIA_VFE_STATE's Per Thread Scratch Space encoding, its Scratch Space Base Pointer
    /// (from the General State Base Address), and the bytes each thread's slot has.
    pub per_thread_scratch_space: u8,
    pub scratch_space_base_pointer: u64,
    pub scratch_per_thread: u32,
    /// Bytes of the CURBE's cross-thread block and of each thread's block.
    pub cross: usize,
    pub per_thread: usize,
}

impl GroupDispatch {
    /// The payloads of the threads of group `group`, the `seq`-th of the dispatch, from the
    /// CURBE (the cross-thread block, then one block per thread). The group's threads take
    /// the hardware thread slots from `first_slot` on: their fixed-function thread ids and
    /// scratch slots, distinct from those of every group running at the same time. Written
    /// into `out`, whose buffers are reused (a host thread's groups one after another).
    pub fn payloads_into(
        &self,
        group: [u32; 3],
        seq: u32,
        first_slot: u32,
        curbe: &[u8],
        out: &mut Vec<ThreadPayload>,
    ) {
        out.truncate(self.threads as usize);
        out.resize_with(self.threads as usize, Default::default);
        for (t, payload) in (0..self.threads).zip(out.iter_mut()) {
            let slot = first_slot + t;
            let r0 = R0 {
                group,
                barrier_id: if self.barrier_enable { seq % 16 } else { 0 },
                sampler_state_pointer: self.sampler_state_pointer,
                binding_table_pointer: self.binding_table_pointer,
                per_thread_scratch_space: self.per_thread_scratch_space,
                scratch_space_pointer: self.scratch_space_base_pointer
                    + u64::from(slot) * u64::from(self.scratch_per_thread),
                fftid: slot,
            };
            let tx = t % self.width;
            let ty = (t / self.width) % self.height;
            let mut mask = self.simd_mask;
            if tx == self.width - 1 {
                mask &= self.right_mask;
            }
            if ty == self.height - 1 {
                mask &= self.bottom_mask;
            }
            let own = &curbe[self.cross + self.per_thread * t as usize..][..self.per_thread];
            build_payload(&r0, own, &curbe[..self.cross], mask, payload);
        }
    }
}

/// The fields of a GPGPU thread's r0 header (Gen9).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct R0 {
    /// Thread group id X, Y, Z: r0.1, r0.6, r0.7.
    pub group: [u32; 3],
    /// r0.2 [27:24] (the barrier message copies r0.2 & 0x8f000000 on Gen9).
    pub barrier_id: u32,
    /// r0.3 [31:5], relative to the dynamic state base.
    pub sampler_state_pointer: u32,
    /// r0.3 [3:0]: the per-thread scratch size encoding of MEDIA_VFE_STATE.
    pub per_thread_scratch_space: u8,
    /// r0.4 [31:5], relative to the surface state base.
    pub binding_table_pointer: u32,
    /// r0.5 [31:10]: this thread's scratch, relative to the general state base.
    pub scratch_space_pointer: u64,
    /// r0.5 [9:0]: the fixed-function thread id.
    pub fftid: u32,
}

impl R0 {
    pub fn to_grf(&self) -> [u8; 32] {
        let d: [u32; 8] = [
            0,
            self.group[0],
            (self.barrier_id & 0xf) << 24,
            (self.sampler_state_pointer & !0x1f) | u32::from(self.per_thread_scratch_space & 0xf),
            self.binding_table_pointer & !0x1f,
            (self.scratch_space_pointer as u32 & !0x3ff) | (self.fftid & 0x3ff),
            self.group[1],
            self.group[2],
        ];
        let mut g = [0u8; 32];
        for (i, v) in d.iter().enumerate() {
            g[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
        }
        g
    }

    pub fn from_grf(g: &[u8; 32]) -> Self {
        let d = |i: usize| u32::from_le_bytes([g[4 * i], g[4 * i + 1], g[4 * i + 2], g[4 * i + 3]]);
        Self {
            group: [d(1), d(6), d(7)],
            barrier_id: (d(2) >> 24) & 0xf,
            sampler_state_pointer: d(3) & !0x1f,
            per_thread_scratch_space: (d(3) & 0xf) as u8,
            binding_table_pointer: d(4) & !0x1f,
            scratch_space_pointer: u64::from(d(5) & !0x3ff),
            fftid: d(5) & 0x3ff,
        }
    }
}

/// GRFs of one thread: r0, its per-thread block, then the cross-thread block.
fn build_payload(
    r0: &R0,
    per_thread: &[u8],
    cross: &[u8],
    exec_mask: u32,
    out: &mut ThreadPayload,
) {
    out.grfs.clear();
    out.grfs.push(r0.to_grf());
    out.grfs.extend_from_slice(per_thread.as_chunks::<32>().0);
    out.grfs.extend_from_slice(cross.as_chunks::<32>().0);
    out.exec_mask = exec_mask;
}
