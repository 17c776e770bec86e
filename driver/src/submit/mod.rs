//! One kernel launch on the GPU: the instruction heap, surface states and
//! binding table, interface descriptors and CURBE, and the batch
//!
//!   PIPELINE_SELECT(GPGPU), STATE_BASE_ADDRESS, MEDIA_VFE_STATE,
//!   PIPE_CONTROL(timestamp), then per walker region: MEDIA_CURBE_LOAD,
//!   MEDIA_INTERFACE_DESCRIPTOR_LOAD, GPGPU_WALKER, MEDIA_STATE_FLUSH;
//!   PIPE_CONTROL(stall, flush, timestamp), MI_BATCH_BUFFER_END
//!
//! submitted with execbuffer2, every object softpinned in the client's VM.
//! Every packet is built by naming its fields (`gencl_kmd::genx::gen9`).
//!
//! A launch is asynchronous: `submit` builds it in a slot of its own (`slots`) and queues it
//! to the GPU; `Submitted::retire` waits for it, reads its timestamps and printf output and
//! gives the slot back. `launch` does both, for callers that want the result at once.

pub mod curbe;
pub mod images;
pub mod printf;
pub mod regions;
pub mod slots;

use std::collections::HashMap;

use gencl_jit::abi::{ArgKind, KernelBinary};
use gencl_kmd::genx::gen9::{
    slm_size_bytes, BindingTableState, GpgpuWalker, InterfaceDescriptorData, MediaCurbeLoad,
    MediaInterfaceDescriptorLoad, MediaStateFlush, MediaVfeState, MiBatchBufferEnd,
    MiLoadRegisterImm, PipeControl, PipelineSelect, RenderSurfaceState, SamplerBorderColorState,
    SamplerState, StateBaseAddress, L3CNTLREG_GT2_NO_SLM, L3CNTLREG_GT2_SLM, MOCS_CACHED,
    POST_SYNC_WRITE_TIMESTAMP, REG_DEBUG_CONTROL2, REG_L3CNTLREG, SIMD16, SIMD32, SIMD8,
    SURFACE_FORMAT_RAW, THREAD_ARBITRATION_ROUND_ROBIN,
};
use gencl_kmd::genx::Packet;
use thiserror::Error;

use crate::service::gpu::{Bo, ClientGpu};
use slots::Slots;
use std::sync::Arc;

pub struct NdRange {
    pub work_dim: u32,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    pub local_size: [u32; 3],
}

pub enum ArgValue {
    Buffer {
        gpu_addr: u64,
        handle: u32,
        size: u64,
    },
    NullBuffer,
    Local {
        size: u32,
    },
    Bytes(Vec<u8>),
    /// An image: its memory (kept alive by the caller, as buffers are) and its layout.
    Image {
        gpu_addr: u64,
        handle: u32,
        surface: images::ImageSurface,
    },
    Sampler(images::SamplerValue),
}

#[derive(Debug, Error)]
pub enum SubmitError {
    #[error("GPU memory for the launch: {0}")]
    Memory(String),
    #[error("kernel descriptor: {0}")]
    Descriptor(&'static str),
    #[error("not supported yet: {0}")]
    Unsupported(&'static str),
    #[error("too large: {0}")]
    TooLarge(&'static str),
    #[error("execbuffer2: {0}")]
    Exec(String),
    #[error("the GPU faulted or hung running the kernel; the context was reset")]
    GpuReset,
}

#[derive(Debug, Clone, Default)]
pub struct LaunchStats {
    pub counters: gencl_kmd::gpu::Counters,
    pub start_ns: u64,
    pub end_ns: u64,
    /// What the kernel's printf calls wrote, formatted (empty without printf).
    pub printf: String,
}

/// State buffer layout: the batch, then surface state (binding table and
/// surface states must sit within the 64 KiB the binding-table pointer
/// reaches), then dynamic state (interface descriptors, CURBEs, timestamps).
const BATCH: usize = 0;
const BATCH_SIZE: usize = 4096;
const SURFACE: usize = 4096;
const SURFACE_SIZE: usize = 16 * 1024;
const DYNAMIC: usize = SURFACE + SURFACE_SIZE;
pub(crate) const STATE_SIZE: u64 = 256 * 1024;
const ISH_SIZE: u64 = 4 << 20;
/// Bytes after each kernel the instruction fetcher may read ahead.
const ISH_PAD: usize = 128;
/// GEM_WAIT without a timeout: whether a batch hung is the kernel driver's decision (its
/// hang detection resets the engine and the wait returns), as NEO leaves it to i915.
const WAIT_FOREVER: i64 = -1;
/// Binding-table entries a kernel may use (indices 240-255 are special: SLM, stateless).
const MAX_BTI: usize = gencl_jit::abi::SURFACE_BTIS;

/// A program-scope data buffer of a launch: GPU address, size, handle.
type DataRef = (u64, u64, u32);

/// One kernel in the instruction heap, with its program-scope data buffers.
struct Uploaded {
    ksp: usize,
    data: Vec<Bo>,
}

pub struct Submitter {
    /// Each launch's batch, state and printf buffer, one slot per launch in flight.
    slots: Arc<Slots>,
    ish: Bo,
    ish_used: usize,
    /// Scratch space for every hardware thread of the device, grown on demand. Launches in
    /// flight share it: the GPU runs one client's batches one after another.
    scratch: Option<Bo>,
    /// Kernel (name, code hash) → where it was uploaded.
    kernels: HashMap<(String, u64), Uploaded>,
    /// Hardware threads of the device (EUs × threads per EU): MEDIA_VFE_STATE's maximum
    /// and the scratch space's size.
    max_threads: u32,
    /// The TIMESTAMP register's frequency (12 MHz on Gen9, 19.2 MHz on Gen9LP).
    timestamp_hz: u64,
}

pub(crate) fn mem_err(e: impl std::fmt::Display) -> SubmitError {
    SubmitError::Memory(e.to_string())
}

fn hash(bytes: &[u8]) -> u64 {
    // FNV-1a: a cache key, not a security boundary.
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Appends packets to a dword stream.
struct Batch(Vec<u32>);

impl Batch {
    fn emit<P: Packet>(&mut self, p: &P) {
        self.0.extend(p.pack_vec());
    }
}

impl Submitter {
    pub fn new(gpu: &ClientGpu) -> Result<Submitter, SubmitError> {
        let param = |p| {
            gpu.dev
                .getparam(p)
                .map_err(|e| SubmitError::Exec(e.to_string()))
        };
        let chipset = param(gencl_kmd::uapi::I915_PARAM_CHIPSET_ID)? as u32;
        let part = gencl_kmd::devices::part(chipset)
            .ok_or_else(|| SubmitError::Exec(gencl_kmd::devices::refusal(chipset)))?;
        let eus = param(gencl_kmd::uapi::I915_PARAM_EU_TOTAL)?.max(1) as u32;
        let max_threads = eus * part.platform.threads_per_eu();
        let timestamp_hz = match param(gencl_kmd::uapi::I915_PARAM_CS_TIMESTAMP_FREQUENCY) {
            Ok(hz) if hz > 0 => hz as u64,
            _ => part.platform.cs_timestamp_hz(),
        };
        let ish = gpu.create_bo(ISH_SIZE).map_err(mem_err)?;
        Ok(Submitter {
            slots: Arc::default(),
            ish,
            ish_used: 0,
            scratch: None,
            kernels: HashMap::new(),
            max_threads,
            timestamp_hz,
        })
    }

    /// Free the heaps once no launch is in flight (the service calls this when the client
    /// goes away).
    pub fn destroy(self, gpu: &ClientGpu) {
        self.slots.destroy(gpu);
        gpu.free_bo(self.ish);
        if let Some(s) = self.scratch {
            gpu.free_bo(s);
        }
        for bo in self.kernels.into_values().flat_map(|u| u.data) {
            gpu.free_bo(bo);
        }
    }

    /// The kernel's offset in the instruction heap and its program-scope data buffers
    /// (GPU address, size, handle), uploaded and made once per kernel.
    fn upload(
        &mut self,
        gpu: &ClientGpu,
        kernel: &KernelBinary,
    ) -> Result<(usize, Vec<DataRef>), SubmitError> {
        let key = (kernel.name.clone(), hash(&kernel.isa));
        if !self.kernels.contains_key(&key) {
            let mut off = self.ish_used.next_multiple_of(64);
            if off + kernel.isa.len() + ISH_PAD > self.ish.map.len() {
                // The heap is full of kernels uploaded before: once no launch in flight
                // runs them, start the heap over (they are uploaded again when launched
                // again).
                self.slots.wait_idle();
                for bo in std::mem::take(&mut self.kernels)
                    .into_values()
                    .flat_map(|u| u.data)
                {
                    gpu.free_bo(bo);
                }
                self.ish_used = 0;
                off = 0;
            }
            let end = off + kernel.isa.len() + ISH_PAD;
            if end > self.ish.map.len() {
                return Err(SubmitError::TooLarge(
                    "a kernel larger than the 4 MiB instruction heap",
                ));
            }
            let mut data = Vec::new();
            for d in &kernel.data_buffers {
                match gpu.create_bo((d.data.len() as u64).max(1).next_multiple_of(4096)) {
                    Ok(mut bo) => {
                        bo.map[..d.data.len()].copy_from_slice(&d.data);
                        data.push(bo);
                    }
                    Err(e) => {
                        for bo in data {
                            gpu.free_bo(bo);
                        }
                        return Err(mem_err(e));
                    }
                }
            }
            self.ish.map[off..off + kernel.isa.len()].copy_from_slice(&kernel.isa);
            self.ish.map[off + kernel.isa.len()..end].fill(0);
            self.ish_used = end;
            self.kernels
                .insert(key.clone(), Uploaded { ksp: off, data });
        }
        let u = &self.kernels[&key];
        let data = u
            .data
            .iter()
            .zip(&kernel.data_buffers)
            .map(|(bo, d)| (bo.gpu_addr, d.data.len() as u64, bo.handle))
            .collect();
        Ok((u.ksp, data))
    }

    /// The scratch buffer for `kernel` (its GPU address, and MEDIA_VFE_STATE's Per Thread
    /// Scratch Space encoding), if the kernel uses scratch. Sized for every hardware thread
    /// of the device, as the hardware hands out slices by thread slot.
    fn scratch_for(
        &mut self,
        gpu: &ClientGpu,
        kernel: &KernelBinary,
    ) -> Result<Option<(u64, u8)>, SubmitError> {
        let per = kernel.scratch_per_thread;
        if per == 0 {
            return Ok(None);
        }
        // "Per Thread Scratch Space": 1 KiB << n, n in 0..=11 (2 MiB).
        let per = per.max(1024).next_power_of_two();
        let encoded = per.trailing_zeros() - 10;
        if encoded > 11 {
            return Err(SubmitError::TooLarge("scratch space per thread over 2 MiB"));
        }
        let need = u64::from(per) * u64::from(self.max_threads);
        if self.scratch.as_ref().is_none_or(|s| s.size < need) {
            // Launches in flight may be using the smaller one.
            self.slots.wait_idle();
            if let Some(old) = self.scratch.take() {
                gpu.free_bo(old);
            }
            self.scratch = Some(gpu.create_bo(need).map_err(mem_err)?);
        }
        let addr = self.scratch.as_ref().map_or(0, |s| s.gpu_addr);
        Ok(Some((addr, encoded as u8)))
    }

    /// One launch, waited for: `submit` then `retire`, with the model's counters of its
    /// batch (tools and tests; nothing else may run on the client's context meanwhile).
    pub fn launch(
        &mut self,
        gpu: &ClientGpu,
        kernel: &KernelBinary,
        args: &[ArgValue],
        nd: &NdRange,
        buffers: &[(u32, u64, bool)],
        globals: Option<u64>,
    ) -> Result<LaunchStats, SubmitError> {
        let submitted = self.submit(gpu, kernel, args, nd, buffers, globals)?;
        let ctx = submitted.ctx;
        let mut stats = submitted.retire(gpu)?;
        stats.counters = gpu.dev.batch_counters(ctx).unwrap_or_default();
        Ok(stats)
    }

    /// Build state + batch for one launch in a slot of its own and queue it to the GPU
    /// (execbuffer2 returns once it is queued). `globals`: the GPU address of the program's
    /// global-variable buffer, for a kernel that reaches it (`KernelBinary::globals_offset`);
    /// the buffer is among `buffers`. The caller keeps `buffers` alive until it retires.
    pub fn submit(
        &mut self,
        gpu: &ClientGpu,
        kernel: &KernelBinary,
        args: &[ArgValue],
        nd: &NdRange,
        buffers: &[(u32, u64, bool)],
        globals: Option<u64>,
    ) -> Result<Submitted, SubmitError> {
        let globals_at = match (kernel.globals_offset, globals) {
            (None, _) => None,
            (Some(at), Some(addr)) => Some((at as usize, addr)),
            (Some(_), None) => {
                return Err(SubmitError::Descriptor(
                    "global variables without their buffer",
                ))
            }
        };
        let (ksp, data) = self.upload(gpu, kernel)?;
        let scratch = self.scratch_for(gpu, kernel)?;
        // Private pointers made generic are addresses in the scratch space.
        let scratch_at = match (kernel.scratch_base_offset, scratch) {
            (None, _) => None,
            (Some(at), Some((addr, _))) => Some((at as usize, addr)),
            (Some(_), None) => {
                return Err(SubmitError::Descriptor(
                    "the scratch space's address without scratch space",
                ))
            }
        };
        // Everything below is this launch's own (given back if it fails before it is queued).
        let mut slot = slots::Taken::new(self.slots.clone(), gpu)?;
        // printf's buffer: its counter of bytes used starts at zero for every launch.
        let printf_at = match &kernel.printf {
            None => None,
            Some(p) => {
                if slot.printf.is_none() {
                    slot.printf = Some(
                        gpu.create_bo(u64::from(gencl_jit::abi::PRINTF_BYTES))
                            .map_err(mem_err)?,
                    );
                }
                let bo = slot
                    .printf
                    .as_mut()
                    .ok_or(SubmitError::Descriptor("printf"))?;
                bo.map[..4].fill(0);
                Some((p.curbe_offset as usize, bo.gpu_addr))
            }
        };
        let simd_size = match kernel.simd {
            8 => SIMD8,
            16 => SIMD16,
            32 => SIMD32,
            _ => return Err(SubmitError::Descriptor("SIMD width")),
        };
        let state_addr = slot.state.gpu_addr;
        let state_handle = slot.state.handle;
        let printf_bo = slot.printf.as_ref().map(|p| (p.handle, p.gpu_addr));
        let map = &mut slot.state.map;

        // Surface state: one raw buffer surface per buffer argument, at the binding-table index
        // the kernel gave it, or else at the next free index in argument order.
        let mut slots: Vec<(usize, u64, u64)> = Vec::new(); // (bti, address, size)
        let mut next = kernel
            .args
            .iter()
            .filter_map(|a| match a.kind {
                ArgKind::Buffer { bti: Some(b) } => Some(usize::from(b) + 1),
                _ => None,
            })
            .chain(
                kernel
                    .data_buffers
                    .iter()
                    .filter_map(|d| d.bti.map(|b| usize::from(b) + 1)),
            )
            .max()
            .unwrap_or(0);
        for (a, desc) in args.iter().zip(&kernel.args) {
            if let ArgValue::Buffer { gpu_addr, size, .. } = a {
                let bti = match desc.kind {
                    ArgKind::Buffer { bti: Some(b) } => usize::from(b),
                    _ => {
                        next += 1;
                        next - 1
                    }
                };
                slots.push((bti, *gpu_addr, *size));
            }
        }
        for ((addr, size, _), d) in data.iter().zip(&kernel.data_buffers) {
            let bti = d.bti.map_or_else(
                || {
                    next += 1;
                    next - 1
                },
                usize::from,
            );
            slots.push((bti, *addr, *size));
        }
        // Images: their surface states at the binding-table index the kernel gave each.
        let mut image_states = Vec::new();
        for (a, desc) in args.iter().zip(&kernel.args) {
            match (a, &desc.kind) {
                (
                    ArgValue::Image {
                        gpu_addr, surface, ..
                    },
                    ArgKind::Image { bti, .. },
                ) => {
                    image_states.push((
                        usize::from(*bti),
                        images::surface_state(surface, *gpu_addr)?,
                    ));
                }
                (ArgValue::Image { .. }, _) | (_, ArgKind::Image { .. }) => {
                    return Err(SubmitError::Descriptor(
                        "an image argument without an image",
                    ));
                }
                _ => {}
            }
        }
        let entries = slots
            .iter()
            .map(|s| s.0 + 1)
            .chain(image_states.iter().map(|s| s.0 + 1))
            .max()
            .unwrap_or(0);
        let surfaces_at = SURFACE + 1024;
        if entries > MAX_BTI || surfaces_at + 64 * (entries + 1) > SURFACE + SURFACE_SIZE {
            return Err(SubmitError::TooLarge(
                "more buffer arguments than the binding table holds",
            ));
        }
        // Entries no argument fills point at a null surface (reads 0, writes dropped).
        let null_at = surfaces_at + 64 * entries;
        write_dwords(map, null_at, &RenderSurfaceState::null().pack_vec());
        let mut bt = vec![
            BindingTableState {
                surface_state_pointer: (null_at - SURFACE) as u32,
                ..Default::default()
            }
            .pack_vec()[0];
            entries
        ];
        for (bti, gpu_addr, size) in &slots {
            let at = surfaces_at + bti * 64;
            let ss = RenderSurfaceState::buffer(
                *gpu_addr,
                (*size).max(1),
                1,
                SURFACE_FORMAT_RAW,
                MOCS_CACHED,
            )
            .ok_or(SubmitError::TooLarge("a buffer over 4 GiB for a surface"))?;
            // IA-coherent: the client's CPU maps the same pages (zero-copy buffers), as
            // NEO marks its buffer surfaces on Gen9.
            let ss = RenderSurfaceState {
                coherency_type: 1,
                ..ss
            };
            write_dwords(map, at, &ss.pack_vec());
            bt[*bti] = BindingTableState {
                surface_state_pointer: (at - SURFACE) as u32,
                ..Default::default()
            }
            .pack_vec()[0];
        }
        for (bti, ss) in &image_states {
            let at = surfaces_at + bti * 64;
            write_dwords(map, at, &ss.pack_vec());
            bt[*bti] = BindingTableState {
                surface_state_pointer: (at - SURFACE) as u32,
                ..Default::default()
            }
            .pack_vec()[0];
        }
        write_dwords(map, SURFACE, &bt);

        // Dynamic state: per region an interface descriptor and a CURBE.
        let (slm_total, slm_offsets) = curbe::slm_layout(kernel, args)?;
        let slm_encoded = (0..=7u8)
            .find(|&e| slm_size_bytes(e).is_some_and(|b| b >= slm_total))
            .ok_or(SubmitError::TooLarge("shared local memory"))?;
        let regions = regions::split(nd.global_size, nd.local_size);
        let data_addrs: Vec<u64> = data.iter().map(|d| d.0).collect();
        let ts_at = DYNAMIC;
        map[ts_at..ts_at + 16].fill(0);
        let mut dyn_used = DYNAMIC + 64;
        // Samplers: the kernel's sampler heap (its inline samplers' states in it), each
        // sampler argument's state at its offset, every state's border colour pointing at
        // the heap's (transparent black), as Intel's runtime patches them.
        let mut sampler_pointer = None;
        if let Some(h) = &kernel.samplers {
            let at = dyn_used.next_multiple_of(64);
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
            sampler_pointer = Some((at as u32 + h.state_offset, h.count.div_ceil(4) as u8));
            dyn_used = end;
        } else if args.iter().any(|a| matches!(a, ArgValue::Sampler(_))) {
            return Err(SubmitError::Descriptor(
                "a sampler argument without a sampler heap",
            ));
        }
        let mut b = Batch(Vec::with_capacity(256));
        // The preamble as NEO sends it on Skylake (docs/hardware.md): a stall, the GPGPU
        // pipeline, the L3 partition (with an SLM share only for kernels that use SLM),
        // then the bases.
        b.emit(&PipeControl {
            command_streamer_stall_enable: true,
            ..Default::default()
        });
        b.emit(&PipelineSelect {
            pipeline_selection: 2,
            // The media sampler's DOP clock gating on (mask bit 12), as NEO sets it for
            // kernels that do not use the media sampler.
            media_sampler_dop_clock_gate_enable: true,
            mask_bits: 0x13,
            ..Default::default()
        });
        b.emit(&MiLoadRegisterImm {
            register_offset: REG_DEBUG_CONTROL2,
            data_dword: THREAD_ARBITRATION_ROUND_ROBIN,
            ..Default::default()
        });
        b.emit(&MiLoadRegisterImm {
            register_offset: REG_L3CNTLREG,
            data_dword: if slm_total > 0 {
                L3CNTLREG_GT2_SLM
            } else {
                L3CNTLREG_GT2_NO_SLM
            },
            ..Default::default()
        });
        b.emit(&StateBaseAddress {
            general_state_base_address_modify_enable: true,
            general_state_mocs: MOCS_CACHED,
            stateless_data_port_access_mocs: MOCS_CACHED,
            surface_state_mocs: MOCS_CACHED,
            dynamic_state_mocs: MOCS_CACHED,
            indirect_object_mocs: MOCS_CACHED,
            instruction_mocs: MOCS_CACHED,
            // Scratch pointers (r0.5) are 32-bit offsets from here.
            general_state_base_address: scratch.map_or(0, |s| s.0),
            surface_state_base_address_modify_enable: true,
            surface_state_base_address: state_addr + SURFACE as u64,
            dynamic_state_base_address_modify_enable: true,
            dynamic_state_base_address: state_addr,
            indirect_object_base_address_modify_enable: true,
            instruction_base_address_modify_enable: true,
            instruction_base_address: self.ish.gpu_addr,
            general_state_buffer_size_modify_enable: true,
            general_state_buffer_size: 0xfffff,
            dynamic_state_buffer_size_modify_enable: true,
            dynamic_state_buffer_size: (STATE_SIZE / 4096) as u32,
            indirect_object_buffer_size_modify_enable: true,
            indirect_object_buffer_size: 0xfffff,
            instruction_buffer_size_modify_enable: true,
            instruction_buffer_size: (ISH_SIZE / 4096) as u32,
            ..Default::default()
        });
        let max_curbe_grfs = regions
            .iter()
            .map(|r| {
                kernel.cross_thread_grfs()
                    + kernel.per_thread_grfs() * curbe::threads_per_group(kernel, r.local)
            })
            .max()
            .unwrap_or(0);
        // The start timestamp; its stall is also the one MEDIA_VFE_STATE needs (SKL PRM
        // Vol 2a: "A stalling PIPE_CONTROL is required before MEDIA_VFE_STATE").
        b.emit(&PipeControl {
            command_streamer_stall_enable: true,
            post_sync_operation: POST_SYNC_WRITE_TIMESTAMP,
            address: state_addr + ts_at as u64,
            ..Default::default()
        });
        b.emit(&MediaVfeState {
            maximum_number_of_threads: (self.max_threads - 1) as u16,
            number_of_urb_entries: 2,
            urb_entry_allocation_size: 2,
            curbe_allocation_size: max_curbe_grfs as u16,
            per_thread_scratch_space: scratch.map_or(0, |s| s.1),
            scratch_space_base_pointer: 0,
            ..Default::default()
        });
        for r in &regions {
            let threads = curbe::threads_per_group(kernel, r.local);
            if threads > 64 {
                return Err(SubmitError::TooLarge(
                    "work-group needs more than 64 hardware threads",
                ));
            }
            let per = curbe::per_thread(kernel, r.local);
            let mut cross =
                curbe::cross_thread(kernel, args, nd, r.local, &slm_offsets, &data_addrs)?;
            for (at, addr) in printf_at.into_iter().chain(globals_at).chain(scratch_at) {
                cross
                    .get_mut(at..at + 8)
                    .ok_or(SubmitError::Descriptor(
                        "a buffer address outside the cross-thread data",
                    ))?
                    .copy_from_slice(&addr.to_le_bytes());
            }
            let curbe_at = dyn_used.next_multiple_of(64);
            let curbe_len = cross.len() + per.len();
            let idd_at = (curbe_at + curbe_len).next_multiple_of(64);
            dyn_used = idd_at + 64;
            if dyn_used > map.len() {
                return Err(SubmitError::TooLarge(
                    "launch state exceeds the dynamic state heap",
                ));
            }
            map[curbe_at..curbe_at + cross.len()].copy_from_slice(&cross);
            map[curbe_at + cross.len()..curbe_at + curbe_len].copy_from_slice(&per);
            let idd = InterfaceDescriptorData {
                kernel_start_pointer: ksp as u64,
                // Only a prefetch hint (5 bits): messages reach every entry of the table.
                binding_table_entry_count: bt.len().min(31) as u8,
                shared_local_memory_size: slm_encoded,
                binding_table_pointer: 0,
                constant_urb_entry_read_length: kernel.per_thread_grfs() as u16,
                number_of_threads_in_gpgpu_thread_group: threads as u16,
                barrier_enable: kernel.barriers,
                // Double and half denormals kept from the thread's start, as OpenCL wants
                // them and NEO sets it (the prologue sets cr0 for float, too).
                denorm_mode: 1,
                cross_thread_constant_data_read_length: kernel.cross_thread_grfs() as u8,
                sampler_state_pointer: sampler_pointer.map_or(0, |p| p.0),
                sampler_count: sampler_pointer.map_or(0, |p| p.1),
                ..Default::default()
            };
            write_dwords(map, idd_at, &idd.pack_vec());
            b.emit(&MediaCurbeLoad {
                curbe_total_data_length: curbe_len as u32,
                curbe_data_start_address: curbe_at as u32,
                ..Default::default()
            });
            b.emit(&MediaInterfaceDescriptorLoad {
                interface_descriptor_total_length: 32,
                interface_descriptor_data_start_address: idd_at as u32,
                ..Default::default()
            });
            let lanes = r.local[0] * r.local[1] * r.local[2];
            let rem = lanes % kernel.simd;
            let right = if rem == 0 {
                u32::MAX >> (32 - kernel.simd)
            } else {
                (1u32 << rem) - 1
            };
            b.emit(&GpgpuWalker {
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
            });
            b.emit(&MediaStateFlush::default());
        }
        b.emit(&PipeControl {
            command_streamer_stall_enable: true,
            dc_flush_enable: true,
            post_sync_operation: POST_SYNC_WRITE_TIMESTAMP,
            address: state_addr + ts_at as u64 + 8,
            ..Default::default()
        });
        b.emit(&MiBatchBufferEnd::default());
        if b.0.len() % 2 == 1 {
            b.0.push(0); // MI_NOOP: the batch length is a multiple of 8 bytes
        }
        if b.0.len() * 4 > BATCH_SIZE {
            return Err(SubmitError::TooLarge("batch buffer"));
        }
        write_dwords(map, BATCH, &b.0);

        // i915 refuses an execbuffer2 that lists a GEM object twice (EINVAL, "appears more
        // than once in object list"; the emulated device too): one entry per object, written
        // if any use writes it (a buffer passed as two arguments, or sub-buffers of one
        // parent).
        let mut objects: Vec<(u32, u64, bool)> = Vec::with_capacity(buffers.len() + 5);
        for &(handle, addr, written) in buffers {
            match objects.iter_mut().find(|o| o.0 == handle) {
                Some(o) => o.2 |= written,
                None => objects.push((handle, addr, written)),
            }
        }
        objects.push((self.ish.handle, self.ish.gpu_addr, false));
        for (addr, _, handle) in &data {
            objects.push((*handle, *addr, false));
        }
        if let Some(s) = &self.scratch {
            if scratch.is_some() {
                objects.push((s.handle, s.gpu_addr, true));
            }
        }
        if let (Some((handle, addr)), Some(_)) = (printf_bo, printf_at) {
            objects.push((handle, addr, true));
        }
        objects.push((state_handle, state_addr, true));
        let batch_len = (b.0.len() * 4) as u32;
        let exec_err = |e: gencl_kmd::backend::KmdError| SubmitError::Exec(e.to_string());
        // A context banned for an earlier launch's hang or fault, which the retiring side
        // has not replaced yet: replace it here and submit once more (i915 answers EIO).
        let mut ctx = gpu.ctx();
        let mut retried = false;
        let before = loop {
            let before = gpu.dev.reset_stats(ctx).map_err(exec_err)?;
            match gpu.dev.exec(ctx, &objects, state_handle, batch_len) {
                Ok(()) => break before,
                Err(gencl_kmd::backend::KmdError::Errno {
                    errno: nix::errno::Errno::EIO,
                    ..
                }) if !retried => {
                    retried = true;
                    gpu.replace_context(ctx)
                        .map_err(|e| SubmitError::Exec(e.to_string()))?;
                    ctx = gpu.ctx();
                }
                Err(e) => return Err(exec_err(e)),
            }
        };
        Ok(Submitted {
            slot,
            ctx,
            before: (before.batch_active, before.batch_pending),
            ts_at,
            formats: kernel.printf.as_ref().map(|p| p.formats.clone()),
            timestamp_hz: self.timestamp_hz,
        })
    }
}

/// A launch queued to the GPU; `retire` waits for it.
pub struct Submitted {
    slot: slots::Taken,
    /// The hardware context it runs on.
    pub ctx: u32,
    /// The context's reset statistics (batches active, pending) before it was queued.
    before: (u32, u32),
    /// Where its two timestamps are in its state.
    ts_at: usize,
    /// printf's formats, for a kernel that prints.
    formats: Option<Vec<gencl_jit::abi::PrintfFormat>>,
    timestamp_hz: u64,
}

impl Submitted {
    /// Wait for the launch to finish on the GPU (for as long as the kernel driver lets it
    /// run), then its times and printf output; its slot goes back for the next launch. A
    /// hang or fault, of this launch or of one before it on the same context (i915 drops
    /// what a banned context had queued), is `GpuReset`, and the context is replaced.
    pub fn retire(self, gpu: &ClientGpu) -> Result<LaunchStats, SubmitError> {
        let exec_err = |e: gencl_kmd::backend::KmdError| SubmitError::Exec(e.to_string());
        let idle = gpu
            .dev
            .wait(self.slot.state.handle, WAIT_FOREVER)
            .map_err(exec_err)?;
        let after = gpu.dev.reset_stats(self.ctx).map_err(exec_err)?;
        if !idle || (after.batch_active, after.batch_pending) != self.before {
            if let Err(e) = gpu.replace_context(self.ctx) {
                tracing::warn!("replacing the context after a reset: {e}");
            }
            return Err(SubmitError::GpuReset);
        }
        let map = &self.slot.state.map;
        let ts = |at: usize| u64::from_le_bytes(map[at..at + 8].try_into().unwrap_or_default());
        let hz = self.timestamp_hz;
        let to_ns = |t: u64| (u128::from(t) * 1_000_000_000 / u128::from(hz)) as u64;
        // The records that fit, in the order the work-items reserved them.
        let printf = match (&self.formats, &self.slot.printf) {
            (Some(formats), Some(bo)) => {
                let used = u32::from_le_bytes(bo.map[..4].try_into().unwrap_or_default());
                let end = (4 + used as usize).min(bo.map.len());
                printf::format_records(formats, &bo.map[4..end])
            }
            _ => String::new(),
        };
        Ok(LaunchStats {
            counters: gencl_kmd::gpu::Counters::default(),
            start_ns: to_ns(ts(self.ts_at)),
            end_ns: to_ns(ts(self.ts_at + 8)),
            printf,
        })
    }
}

fn write_dwords(map: &mut [u8], at: usize, dw: &[u32]) {
    for (i, d) in dw.iter().enumerate() {
        map[at + 4 * i..at + 4 * i + 4].copy_from_slice(&d.to_le_bytes());
    }
}
