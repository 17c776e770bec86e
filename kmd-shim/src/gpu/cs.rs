//! The render command streamer: parses a batch buffer from GPU memory,
//! keeps the pipeline state the packets program, and turns GPGPU_WALKER
//! into thread groups for the EUs, with the thread payload the hardware's
//! thread dispatcher would load (see docs/kmd-shim.md, "Thread payload").

pub mod launch;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use tracing::{debug, trace};

use super::binding::Bindings;
use super::dispatcher::GroupDispatch;
pub use super::dispatcher::R0;
use super::{Counters, GpuError, GpuMemory, ThreadGroup};
use crate::genx::gen9::*;
use crate::genx::Packet;

/// Frequency of the command streamer's TIMESTAMP register on Gen9 (12 MHz),
/// also what I915_PARAM_CS_TIMESTAMP_FREQUENCY reports.
pub const CS_TIMESTAMP_HZ: u64 = 12_000_000;
/// The modelled GT clock: one modelled cycle is 1 ns.
pub const GT_CLOCK_HZ: u64 = 1_000_000_000;
/// Modelled cycles a command costs the command streamer.
const CYCLES_PER_COMMAND: u64 = 8;

/// A GPU's free-running clock in modelled cycles. Each device has its own, so that two
/// devices (or the clients of one service on different devices) never share a counter;
/// the TIMESTAMP register reads it.
#[derive(Debug, Default)]
pub struct GpuClock(AtomicU64);

impl GpuClock {
    /// The TIMESTAMP register now, in CS_TIMESTAMP_HZ ticks.
    pub fn timestamp(&self) -> u64 {
        cycles_to_ticks(self.0.load(Ordering::Relaxed))
    }
}

fn cycles_to_ticks(cycles: u64) -> u64 {
    ((u128::from(cycles) * u128::from(CS_TIMESTAMP_HZ)) / u128::from(GT_CLOCK_HZ)) as u64
}

/// How much work one batch may do before it counts as a hang.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// EU instructions plus dispatched threads.
    pub max_work: u64,
    /// Commands parsed.
    pub max_commands: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Self {
            max_work: 1 << 32,
            max_commands: 1 << 20,
        }
    }
}

/// Launch-wide facts a thread group needs besides its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupEnv {
    /// General State Base Address (the base of stateless 32-bit offsets).
    pub general_state_base: u64,
    /// EU instructions the group may still issue before the batch hangs.
    pub max_instructions: u64,
}

/// The function that runs a thread group on the EUs.
pub type Dispatch<'a> =
    dyn FnMut(&dyn GpuMemory, &ThreadGroup, &GroupEnv, &mut Counters) -> Result<(), GpuError> + 'a;

/// Runs a thread group on the EU model.
pub fn run_on_eus(
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &GroupEnv,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    let env = crate::gpu::eu::LaunchEnv {
        general_state_base: env.general_state_base,
        max_instructions: env.max_instructions,
    };
    crate::gpu::eu::run_thread_group_with(mem, tg, &env, counters)
}

/// Executes the batch at `batch_addr` to MI_BATCH_BUFFER_END.
pub fn execute_batch(
    mem: &dyn GpuMemory,
    batch_addr: u64,
    budget: &Budget,
    clock: &GpuClock,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    execute_batch_with(mem, batch_addr, budget, clock, counters, &mut run_on_eus)
}

/// [`execute_batch`] with the thread-group consumer given (tests capture the groups).
pub fn execute_batch_with(
    mem: &dyn GpuMemory,
    batch_addr: u64,
    budget: &Budget,
    clock: &GpuClock,
    counters: &mut Counters,
    dispatch: &mut Dispatch<'_>,
) -> Result<(), GpuError> {
    let start_cycles = clock.0.load(Ordering::Relaxed);
    let mut cs = CommandStreamer {
        mem,
        budget: *budget,
        state: State::default(),
        commands: 0,
        work: 0,
        start_cycles,
        eu_cycles0: counters.modelled_cycles,
    };
    let r = cs.run(batch_addr, counters, dispatch);
    let spent =
        cs.commands * CYCLES_PER_COMMAND + counters.modelled_cycles.saturating_sub(cs.eu_cycles0);
    clock.0.fetch_add(spent, Ordering::Relaxed);
    r
}

#[derive(Debug, Default)]
struct State {
    pipeline: Option<u8>,
    general_base: u64,
    surface_base: u64,
    dynamic_base: u64,
    indirect_base: u64,
    instruction_base: u64,
    vfe: Option<MediaVfeState>,
    curbe: Vec<u8>,
    idds: Vec<InterfaceDescriptorData>,
    /// MMIO registers written by MI_LOAD_REGISTER_IMM (kept, not interpreted).
    registers: HashMap<u32, u32>,
}

struct CommandStreamer<'m> {
    mem: &'m dyn GpuMemory,
    budget: Budget,
    state: State,
    commands: u64,
    work: u64,
    start_cycles: u64,
    eu_cycles0: u64,
}

fn bad(addr: u64, why: impl Into<String>) -> GpuError {
    GpuError::BadCommand {
        addr,
        why: why.into(),
    }
}

/// Dword count of every fixed-length command (its announced length must match).
fn expect_len<P: Packet>(addr: u64, len: usize) -> Result<(), GpuError> {
    if len == P::DWORDS {
        Ok(())
    } else {
        Err(bad(addr, format!("{} with {len} dwords", P::NAME)))
    }
}

impl CommandStreamer<'_> {
    fn read_dwords(&self, addr: u64, n: usize) -> Result<Vec<u32>, GpuError> {
        Ok(super::read_dwords(self.mem, addr, n)?)
    }

    fn clock_ticks(&self, counters: &Counters) -> u64 {
        let cycles = self.start_cycles
            + self.commands * CYCLES_PER_COMMAND
            + counters.modelled_cycles.saturating_sub(self.eu_cycles0);
        cycles_to_ticks(cycles)
    }

    fn charge(&mut self, work: u64) -> Result<(), GpuError> {
        self.work = self.work.saturating_add(work);
        if self.work > self.budget.max_work {
            return Err(GpuError::Hang);
        }
        Ok(())
    }

    fn run(
        &mut self,
        batch_addr: u64,
        counters: &mut Counters,
        dispatch: &mut Dispatch<'_>,
    ) -> Result<(), GpuError> {
        let mut addr = batch_addr;
        loop {
            self.commands += 1;
            if self.commands > self.budget.max_commands {
                return Err(GpuError::Hang);
            }
            let dw0 = self.read_dwords(addr, 1)?[0];
            let len = self.command_length(addr, dw0)?;
            let dw = self.read_dwords(addr, len)?;
            trace!(
                addr = format_args!("{addr:#x}"),
                dw0 = format_args!("{dw0:#010x}"),
                len
            );
            if MiBatchBufferEnd::matches(dw0) {
                return Ok(());
            }
            self.execute(addr, &dw, counters, dispatch)?;
            addr = addr
                .checked_add(4 * len as u64)
                .ok_or_else(|| bad(addr, "batch runs off the address space"))?;
        }
    }

    /// The command's length in dwords from its header.
    fn command_length(&self, addr: u64, dw0: u32) -> Result<usize, GpuError> {
        macro_rules! len_of {
            ($($p:ty),*) => {
                $( if <$p>::matches(dw0) { return Ok(<$p>::length_from_header(dw0)); } )*
            };
        }
        len_of!(
            MiBatchBufferEnd,
            MiNoop,
            MiStoreDataImm,
            MiLoadRegisterImm,
            PipelineSelect,
            StateBaseAddress,
            MediaVfeState,
            MediaCurbeLoad,
            MediaInterfaceDescriptorLoad,
            GpgpuWalker,
            MediaStateFlush,
            PipeControl
        );
        Err(bad(addr, format!("unknown command header {dw0:#010x}")))
    }

    fn execute(
        &mut self,
        addr: u64,
        dw: &[u32],
        counters: &mut Counters,
        dispatch: &mut Dispatch<'_>,
    ) -> Result<(), GpuError> {
        let dw0 = dw[0];
        let len = dw.len();
        if MiNoop::matches(dw0) {
            // MI_NOOP's register write is not modelled; the NOOP is.
        } else if MiStoreDataImm::matches(dw0) {
            let p = MiStoreDataImm::unpack(dw);
            if p.use_global_gtt {
                return Err(bad(addr, "MI_STORE_DATA_IMM to the GGTT (not modelled)"));
            }
            match (len, p.store_qword) {
                (4, false) => self
                    .mem
                    .write(p.address, &(p.immediate_data as u32).to_le_bytes())?,
                (5, _) => self.mem.write(p.address, &p.immediate_data.to_le_bytes())?,
                _ => return Err(bad(addr, format!("MI_STORE_DATA_IMM with {len} dwords"))),
            }
        } else if MiLoadRegisterImm::matches(dw0) {
            if len < 3 || len.is_multiple_of(2) {
                return Err(bad(addr, format!("MI_LOAD_REGISTER_IMM with {len} dwords")));
            }
            for pair in dw[1..].chunks_exact(2) {
                self.state.registers.insert(pair[0] & 0x007f_fffc, pair[1]);
            }
        } else if PipelineSelect::matches(dw0) {
            let p = PipelineSelect::unpack(dw);
            // Gen9: Mask Bits [9:8] enable writing Pipeline Selection [1:0].
            if p.mask_bits & 0x3 == 0x3 {
                self.state.pipeline = Some(p.pipeline_selection);
            }
        } else if StateBaseAddress::matches(dw0) {
            expect_len::<StateBaseAddress>(addr, len)?;
            let p = StateBaseAddress::unpack(dw);
            let s = &mut self.state;
            if p.general_state_base_address_modify_enable {
                s.general_base = p.general_state_base_address;
            }
            if p.surface_state_base_address_modify_enable {
                s.surface_base = p.surface_state_base_address;
            }
            if p.dynamic_state_base_address_modify_enable {
                s.dynamic_base = p.dynamic_state_base_address;
            }
            if p.indirect_object_base_address_modify_enable {
                s.indirect_base = p.indirect_object_base_address;
            }
            if p.instruction_base_address_modify_enable {
                s.instruction_base = p.instruction_base_address;
            }
        } else if MediaVfeState::matches(dw0) {
            expect_len::<MediaVfeState>(addr, len)?;
            self.require_gpgpu(addr, "MEDIA_VFE_STATE")?;
            self.state.vfe = Some(MediaVfeState::unpack(dw));
        } else if MediaCurbeLoad::matches(dw0) {
            expect_len::<MediaCurbeLoad>(addr, len)?;
            self.require_gpgpu(addr, "MEDIA_CURBE_LOAD")?;
            let p = MediaCurbeLoad::unpack(dw);
            let mut curbe = vec![0u8; p.curbe_total_data_length as usize];
            let at = self.state.dynamic_base + u64::from(p.curbe_data_start_address);
            self.mem.read(at, &mut curbe)?;
            self.state.curbe = curbe;
        } else if MediaInterfaceDescriptorLoad::matches(dw0) {
            expect_len::<MediaInterfaceDescriptorLoad>(addr, len)?;
            self.require_gpgpu(addr, "MEDIA_INTERFACE_DESCRIPTOR_LOAD")?;
            let p = MediaInterfaceDescriptorLoad::unpack(dw);
            let total = p.interface_descriptor_total_length as usize;
            // 32-byte descriptors; the walker's offset field (6 bits) reaches 64 of them.
            if !total.is_multiple_of(32) || total > 64 * 32 {
                return Err(bad(addr, format!("interface descriptor length {total}")));
            }
            let at = self.state.dynamic_base + u64::from(p.interface_descriptor_data_start_address);
            let words = self.read_dwords(at, total / 4)?;
            self.state.idds = words
                .chunks_exact(8)
                .map(InterfaceDescriptorData::unpack)
                .collect();
        } else if GpgpuWalker::matches(dw0) {
            expect_len::<GpgpuWalker>(addr, len)?;
            self.require_gpgpu(addr, "GPGPU_WALKER")?;
            self.walk(addr, &GpgpuWalker::unpack(dw), counters, dispatch)?;
        } else if MediaStateFlush::matches(dw0) {
            // Thread groups run to completion inside the walker: nothing is in flight.
            expect_len::<MediaStateFlush>(addr, len)?;
        } else if PipeControl::matches(dw0) {
            expect_len::<PipeControl>(addr, len)?;
            self.pipe_control(addr, &PipeControl::unpack(dw), counters)?;
        } else {
            return Err(bad(addr, format!("unhandled command {dw0:#010x}")));
        }
        Ok(())
    }

    fn require_gpgpu(&self, addr: u64, what: &str) -> Result<(), GpuError> {
        if self.state.pipeline == Some(PIPELINE_GPGPU) {
            Ok(())
        } else {
            Err(bad(addr, format!("{what} without PIPELINE_SELECT(GPGPU)")))
        }
    }

    fn pipe_control(
        &mut self,
        addr: u64,
        p: &PipeControl,
        counters: &Counters,
    ) -> Result<(), GpuError> {
        if p.post_sync_operation == POST_SYNC_NONE {
            return Ok(());
        }
        if p.destination_address_type || p.store_data_index {
            return Err(bad(
                addr,
                "PIPE_CONTROL post-sync to the GGTT (not modelled)",
            ));
        }
        let value = match p.post_sync_operation {
            POST_SYNC_WRITE_IMMEDIATE => p.immediate_data,
            POST_SYNC_WRITE_TIMESTAMP => self.clock_ticks(counters),
            _ => return Err(bad(addr, "PIPE_CONTROL PS_DEPTH_COUNT write (no 3D pipe)")),
        };
        self.mem.write(p.address, &value.to_le_bytes())?;
        Ok(())
    }

    fn walk(
        &mut self,
        addr: u64,
        w: &GpgpuWalker,
        counters: &mut Counters,
        dispatch: &mut Dispatch<'_>,
    ) -> Result<(), GpuError> {
        if w.predicate_enable || w.indirect_parameter_enable {
            return Err(bad(addr, "predicated/indirect GPGPU_WALKER (not modelled)"));
        }
        let vfe = self
            .state
            .vfe
            .ok_or_else(|| bad(addr, "GPGPU_WALKER before MEDIA_VFE_STATE"))?;
        let idd = *self
            .state
            .idds
            .get(usize::from(w.interface_descriptor_offset))
            .ok_or_else(|| bad(addr, "interface descriptor offset past the loaded ones"))?;
        let (simd, simd_mask) = match w.simd_size {
            SIMD8 => (8, 0xff),
            SIMD16 => (16, 0xffff),
            SIMD32 => (32, 0xffff_ffff),
            _ => return Err(bad(addr, "reserved SIMD Size")),
        };
        let threads = u32::from(idd.number_of_threads_in_gpgpu_thread_group);
        if threads == 0 || threads > 64 {
            return Err(bad(addr, format!("{threads} threads in a thread group")));
        }
        let slm_bytes = slm_size_bytes(idd.shared_local_memory_size)
            .ok_or_else(|| bad(addr, "reserved Shared Local Memory Size"))?;

        // CURBE: cross-thread block first, then one per-thread block per thread.
        let cross = usize::from(idd.cross_thread_constant_data_read_length) * 32;
        let per_thread = usize::from(idd.constant_urb_entry_read_length) * 32;
        let curbe_start = usize::from(idd.constant_urb_entry_read_offset) * 32;
        let need = curbe_start + cross + per_thread * threads as usize;
        if self.state.curbe.len() < need {
            return Err(bad(
                addr,
                format!(
                    "CURBE has {} bytes, the dispatch reads {need}",
                    self.state.curbe.len()
                ),
            ));
        }
        let curbe = self.state.curbe[curbe_start..need].to_vec();

        let bindings = Bindings::table(self.state.surface_base, idd.binding_table_pointer);
        // The hardware hands every thread its scratch slice whether or not the kernel uses
        // it: Scratch Space Base Pointer (an offset from the General State Base Address,
        // possibly 0) plus the thread's slot times the per-thread size.
        if vfe.per_thread_scratch_space > 11 {
            return Err(bad(addr, "reserved Per Thread Scratch Space"));
        }
        let scratch_per_thread = 1024u32 << vfe.per_thread_scratch_space;
        let scratch_base = self.state.general_base + vfe.scratch_space_base_pointer;
        let width = u32::from(w.thread_width_counter_maximum) + 1;
        let height = u32::from(w.thread_height_counter_maximum) + 1;

        let kernel_addr = self.state.instruction_base + idd.kernel_start_pointer;
        debug!(
            kernel = format_args!("{kernel_addr:#x}"),
            simd,
            threads,
            groups = ?(w.thread_group_id_x_dimension, w.thread_group_id_y_dimension,
                       w.thread_group_id_z_dimension),
            "GPGPU_WALKER"
        );
        let shape = GroupDispatch {
            threads,
            width,
            height,
            simd_mask,
            right_mask: w.right_execution_mask,
            bottom_mask: w.bottom_execution_mask,
            barrier_enable: idd.barrier_enable,
            sampler_state_pointer: idd.sampler_state_pointer,
            binding_table_pointer: idd.binding_table_pointer,
            per_thread_scratch_space: vfe.per_thread_scratch_space,
            scratch_space_base_pointer: vfe.scratch_space_base_pointer,
            scratch_per_thread,
            cross,
            per_thread,
        };
        let mut seq: u32 = 0;
        for z in w.thread_group_id_starting_resume_z..w.thread_group_id_z_dimension {
            for y in w.thread_group_id_starting_y..w.thread_group_id_y_dimension {
                for x in w.thread_group_id_starting_x..w.thread_group_id_x_dimension {
                    self.charge(u64::from(threads))?;
                    let payloads = shape.payloads([x, y, z], seq, &curbe);
                    let tg = ThreadGroup {
                        kernel_addr,
                        simd,
                        threads: payloads,
                        bindings: bindings.clone(),
                        slm_bytes,
                        scratch_base,
                        scratch_per_thread,
                        barrier_enabled: idd.barrier_enable,
                    };
                    let before = counters.instructions;
                    let env = GroupEnv {
                        general_state_base: self.state.general_base,
                        max_instructions: self.budget.max_work.saturating_sub(self.work),
                    };
                    dispatch(self.mem, &tg, &env, counters)?;
                    self.charge(counters.instructions.saturating_sub(before))?;
                    seq = seq.wrapping_add(1);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
