//! The command sequence of one GPGPU launch on Gen9, built from the genx packers. One
//! builder for everything that launches a kernel: the driver's submitter
//! (`driver/src/submit`) and the GPU model's own tests.
//!
//! The preamble is NEO's on Skylake (docs/hardware.md compares it with NEO's recordings):
//!
//!   PIPE_CONTROL (stall), PIPELINE_SELECT (GPGPU), MI_LOAD_REGISTER_IMM (DEBUG_CONTROL2:
//!   round-robin thread arbitration), MI_LOAD_REGISTER_IMM (L3CNTLREG), STATE_BASE_ADDRESS,
//!   PIPE_CONTROL (stall, optionally writing the start timestamp), MEDIA_VFE_STATE,
//!
//! then per walk (a launch whose global size is not a multiple of its work-group size is
//! several walks): MEDIA_CURBE_LOAD, MEDIA_INTERFACE_DESCRIPTOR_LOAD, GPGPU_WALKER,
//! MEDIA_STATE_FLUSH; then PIPE_CONTROL (stall, data-cache flush, post-sync write) and
//! MI_BATCH_BUFFER_END, padded to a whole qword.

use super::gen9::{
    GpgpuWalker, MediaCurbeLoad, MediaInterfaceDescriptorLoad, MediaStateFlush, MediaVfeState,
    MiBatchBufferEnd, MiLoadRegisterImm, MiNoop, PipeControl, PipelineSelect, StateBaseAddress,
    L3CNTLREG_GT2_NO_SLM, L3CNTLREG_GT2_SLM, MOCS_CACHED, PIPELINE_GPGPU,
    POST_SYNC_WRITE_TIMESTAMP, REG_DEBUG_CONTROL2, REG_L3CNTLREG, THREAD_ARBITRATION_ROUND_ROBIN,
};
use super::Packet;

/// A 4 KiB-page count for STATE_BASE_ADDRESS's buffer sizes: the whole range.
pub const ALL_PAGES: u32 = 0xf_ffff;

/// STATE_BASE_ADDRESS: where each kind of state lives, and the sizes of the heaps that have
/// one (4 KiB pages). Surface state has no size: binding-table pointers reach 64 KiB.
#[derive(Debug, Clone, Copy)]
pub struct StateBases {
    /// General state; scratch pointers (r0.5) are 32-bit offsets from it.
    pub general: u64,
    pub general_pages: u32,
    pub surface: u64,
    pub dynamic: u64,
    pub dynamic_pages: u32,
    pub instruction: u64,
    pub instruction_pages: u32,
}

impl Default for StateBases {
    fn default() -> Self {
        StateBases {
            general: 0,
            general_pages: ALL_PAGES,
            surface: 0,
            dynamic: 0,
            dynamic_pages: ALL_PAGES,
            instruction: 0,
            instruction_pages: ALL_PAGES,
        }
    }
}

/// One GPGPU_WALKER with the CURBE and interface descriptor it dispatches with (offsets from
/// the dynamic state base, lengths in bytes).
#[derive(Debug, Clone, Default)]
pub struct Walk {
    pub curbe_offset: u32,
    pub curbe_length: u32,
    pub idd_offset: u32,
    pub idd_length: u32,
    pub walker: GpgpuWalker,
}

/// The last PIPE_CONTROL's post-sync write: at `address`, `operation` (a POST_SYNC_* value)
/// with `immediate` for an immediate write.
#[derive(Debug, Clone, Copy)]
pub struct PostSync {
    pub address: u64,
    pub operation: u8,
    pub immediate: u64,
}

/// Everything the batch of one launch names.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    pub bases: StateBases,
    /// The kernel uses shared local memory: the L3 gets an SLM partition.
    pub slm: bool,
    pub vfe: MediaVfeState,
    /// Where the stalling PIPE_CONTROL before MEDIA_VFE_STATE writes the start timestamp.
    pub start_timestamp: Option<u64>,
    pub walks: Vec<Walk>,
    pub post_sync: Option<PostSync>,
}

impl Launch {
    /// The batch, ending with MI_BATCH_BUFFER_END (an even number of dwords).
    pub fn batch(&self) -> Vec<u32> {
        let mut b = Vec::with_capacity(96 + 32 * self.walks.len());
        push(&mut b, &stall());
        push(
            &mut b,
            &PipelineSelect {
                pipeline_selection: PIPELINE_GPGPU,
                // The media sampler's DOP clock gating on (mask bit 12), as NEO sets it for
                // kernels that do not use the media sampler.
                media_sampler_dop_clock_gate_enable: true,
                mask_bits: 0x13,
                ..Default::default()
            },
        );
        push(
            &mut b,
            &MiLoadRegisterImm {
                register_offset: REG_DEBUG_CONTROL2,
                data_dword: THREAD_ARBITRATION_ROUND_ROBIN,
                ..Default::default()
            },
        );
        push(
            &mut b,
            &MiLoadRegisterImm {
                register_offset: REG_L3CNTLREG,
                data_dword: if self.slm {
                    L3CNTLREG_GT2_SLM
                } else {
                    L3CNTLREG_GT2_NO_SLM
                },
                ..Default::default()
            },
        );
        push(&mut b, &self.state_base_address());
        // Its stall is the one MEDIA_VFE_STATE needs (SKL PRM Vol 2a: "A stalling
        // PIPE_CONTROL is required before MEDIA_VFE_STATE").
        push(
            &mut b,
            &match self.start_timestamp {
                Some(address) => PipeControl {
                    post_sync_operation: POST_SYNC_WRITE_TIMESTAMP,
                    address,
                    ..stall()
                },
                None => stall(),
            },
        );
        push(&mut b, &self.vfe);
        for w in &self.walks {
            push(
                &mut b,
                &MediaCurbeLoad {
                    curbe_total_data_length: w.curbe_length,
                    curbe_data_start_address: w.curbe_offset,
                    ..Default::default()
                },
            );
            push(
                &mut b,
                &MediaInterfaceDescriptorLoad {
                    interface_descriptor_total_length: w.idd_length,
                    interface_descriptor_data_start_address: w.idd_offset,
                    ..Default::default()
                },
            );
            push(&mut b, &w.walker);
            push(&mut b, &MediaStateFlush::default());
        }
        if let Some(p) = self.post_sync {
            push(
                &mut b,
                &PipeControl {
                    dc_flush_enable: true,
                    post_sync_operation: p.operation,
                    address: p.address,
                    immediate_data: p.immediate,
                    ..stall()
                },
            );
        }
        push(&mut b, &MiBatchBufferEnd::default());
        if b.len() % 2 == 1 {
            push(&mut b, &MiNoop::default());
        }
        b
    }

    fn state_base_address(&self) -> StateBaseAddress {
        let s = &self.bases;
        StateBaseAddress {
            general_state_base_address_modify_enable: true,
            general_state_mocs: MOCS_CACHED,
            stateless_data_port_access_mocs: MOCS_CACHED,
            surface_state_mocs: MOCS_CACHED,
            dynamic_state_mocs: MOCS_CACHED,
            indirect_object_mocs: MOCS_CACHED,
            instruction_mocs: MOCS_CACHED,
            general_state_base_address: s.general,
            surface_state_base_address_modify_enable: true,
            surface_state_base_address: s.surface,
            dynamic_state_base_address_modify_enable: true,
            dynamic_state_base_address: s.dynamic,
            indirect_object_base_address_modify_enable: true,
            instruction_base_address_modify_enable: true,
            instruction_base_address: s.instruction,
            general_state_buffer_size_modify_enable: true,
            general_state_buffer_size: s.general_pages,
            dynamic_state_buffer_size_modify_enable: true,
            dynamic_state_buffer_size: s.dynamic_pages,
            indirect_object_buffer_size_modify_enable: true,
            indirect_object_buffer_size: ALL_PAGES,
            instruction_buffer_size_modify_enable: true,
            instruction_buffer_size: s.instruction_pages,
            ..Default::default()
        }
    }
}

fn stall() -> PipeControl {
    PipeControl {
        command_streamer_stall_enable: true,
        ..Default::default()
    }
}

fn push<P: Packet>(b: &mut Vec<u32>, p: &P) {
    let at = b.len();
    b.resize(at + P::DWORDS, 0);
    p.pack_into(&mut b[at..]);
}
