//! The command sequence of one GPGPU launch on Gen9, built from the genx
//! packers: what the driver emits and what the command streamer's tests run.
//! The sequence follows the documented Gen9 compute submission:
//! PIPE_CONTROL (stall), PIPELINE_SELECT(GPGPU), MI_LOAD_REGISTER_IMM (L3CNTLREG),
//! STATE_BASE_ADDRESS, PIPE_CONTROL (stall), MEDIA_VFE_STATE,
//! MEDIA_CURBE_LOAD, MEDIA_INTERFACE_DESCRIPTOR_LOAD, GPGPU_WALKER,
//! MEDIA_STATE_FLUSH, PIPE_CONTROL (post-sync), MI_BATCH_BUFFER_END.

use crate::genx::gen9::*;

/// Where the launch's state lives and what it dispatches.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    pub general_state_base: u64,
    pub surface_state_base: u64,
    pub dynamic_state_base: u64,
    pub instruction_base: u64,
    pub vfe: MediaVfeState,
    /// CURBE: offset from the dynamic state base and length in bytes.
    pub curbe_offset: u32,
    pub curbe_length: u32,
    /// Interface descriptors: offset from the dynamic state base and length in bytes.
    pub idd_offset: u32,
    pub idd_length: u32,
    pub walker: GpgpuWalker,
    /// PIPE_CONTROL post-sync write after the walker: (address, operation, immediate).
    pub post_sync: Option<(u64, u8, u64)>,
    /// Whether the kernel uses shared local memory (the L3 gets an SLM partition).
    pub slm: bool,
}

/// A 4 KiB-page count for STATE_BASE_ADDRESS's buffer sizes: the whole range.
const MAX_STATE_PAGES: u32 = 0xf_ffff;

impl Launch {
    /// The batch, ending with MI_BATCH_BUFFER_END (padded to an even dword count).
    pub fn batch(&self) -> Vec<u32> {
        let mut b = Vec::new();
        b.extend(
            PipeControl {
                command_streamer_stall_enable: true,
                ..Default::default()
            }
            .pack(),
        );
        b.extend(
            PipelineSelect {
                pipeline_selection: PIPELINE_GPGPU,
                mask_bits: 0x3,
                ..Default::default()
            }
            .pack(),
        );
        b.extend(
            MiLoadRegisterImm {
                register_offset: REG_L3CNTLREG,
                data_dword: if self.slm {
                    L3CNTLREG_GT2_SLM
                } else {
                    L3CNTLREG_GT2_NO_SLM
                },
                ..Default::default()
            }
            .pack(),
        );
        b.extend(
            StateBaseAddress {
                general_state_base_address_modify_enable: true,
                general_state_base_address: self.general_state_base,
                surface_state_base_address_modify_enable: true,
                surface_state_base_address: self.surface_state_base,
                dynamic_state_base_address_modify_enable: true,
                dynamic_state_base_address: self.dynamic_state_base,
                indirect_object_base_address_modify_enable: true,
                instruction_base_address_modify_enable: true,
                instruction_base_address: self.instruction_base,
                general_state_buffer_size_modify_enable: true,
                general_state_buffer_size: MAX_STATE_PAGES,
                dynamic_state_buffer_size_modify_enable: true,
                dynamic_state_buffer_size: MAX_STATE_PAGES,
                indirect_object_buffer_size_modify_enable: true,
                indirect_object_buffer_size: MAX_STATE_PAGES,
                instruction_buffer_size_modify_enable: true,
                instruction_buffer_size: MAX_STATE_PAGES,
                ..Default::default()
            }
            .pack(),
        );
        b.extend(
            PipeControl {
                command_streamer_stall_enable: true,
                ..Default::default()
            }
            .pack(),
        );
        b.extend(self.vfe.pack());
        b.extend(
            MediaCurbeLoad {
                curbe_total_data_length: self.curbe_length,
                curbe_data_start_address: self.curbe_offset,
                ..Default::default()
            }
            .pack(),
        );
        b.extend(
            MediaInterfaceDescriptorLoad {
                interface_descriptor_total_length: self.idd_length,
                interface_descriptor_data_start_address: self.idd_offset,
                ..Default::default()
            }
            .pack(),
        );
        b.extend(self.walker.pack());
        b.extend(MediaStateFlush::default().pack());
        if let Some((addr, op, imm)) = self.post_sync {
            b.extend(
                PipeControl {
                    command_streamer_stall_enable: true,
                    dc_flush_enable: true,
                    post_sync_operation: op,
                    address: addr,
                    immediate_data: imm,
                    ..Default::default()
                }
                .pack(),
            );
        }
        b.extend(MiBatchBufferEnd::default().pack());
        if b.len() % 2 == 1 {
            b.extend(MiNoop::default().pack());
        }
        b
    }
}
