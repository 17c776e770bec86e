//! One kernel launch on the GPU, in steps: the heaps every launch of a client shares (the
//! instruction heap, the scratch space), then in a state buffer of the launch's own the
//! binding table and surface states (`surfaces`), the dynamic state with the CURBE and
//! interface descriptor of each walk (`dynamic`, `curbe`, `regions`), the batch
//! (`gencl_kmd::genx::launch`, the one launch builder the GPU model's tests use too), and
//! execbuffer2 with every object softpinned in the client's VM (`execute`). Every packet is
//! built by naming its fields (`gencl_kmd::genx::gen9`).
//!
//! A launch is asynchronous: `submit` builds it in a slot of its own (`slots`) and queues it
//! to the GPU; `Submitted::retire` waits for it, reads its timestamps and printf output and
//! gives the slot back. `launch` does both, for callers that want the result at once.

pub mod curbe;
pub mod dynamic;
pub mod images;
pub mod printf;
pub mod regions;
pub mod slots;
pub mod surfaces;

use std::collections::HashMap;

use gencl_jit::abi::KernelBinary;
use gencl_kmd::genx::gen9::{MediaVfeState, POST_SYNC_WRITE_TIMESTAMP};
use gencl_kmd::genx::launch::{Launch, PostSync, StateBases, ALL_PAGES};
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

/// A program-scope data buffer of a launch: GPU address, size, handle.
pub(crate) type DataRef = (u64, u64, u32);

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
        let submitted = self.submit(gpu, 0, kernel, args, nd, buffers, globals)?;
        let ctx = submitted.ctx;
        let mut stats = submitted.retire(gpu)?;
        stats.counters = gpu.dev.batch_counters(ctx).unwrap_or_default();
        Ok(stats)
    }

    /// Build state + batch for one launch in a slot of its own and queue it to the GPU
    /// (execbuffer2 returns once it is queued). `globals`: the GPU address of the program's
    /// global-variable buffer, for a kernel that reaches it (`KernelBinary::globals_offset`);
    /// the buffer is among `buffers`. The caller keeps `buffers` alive until it retires.
    ///
    /// The steps: the heaps every launch shares (instruction heap, scratch), then in the
    /// launch's own slot its surface state (`surfaces`), its dynamic state with the CURBEs
    /// (`dynamic`), its batch (`gencl_kmd::genx::launch`), and execbuffer2 (`execute`).
    /// The caller must `retire` it next: the batch is queued for that wait
    /// (`Device::exec_then_wait`), which runs it on the emulated device.
    #[allow(clippy::too_many_arguments)] // the launch's parts, each its own
    pub fn submit(
        &mut self,
        gpu: &ClientGpu,
        stream: u64,
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
        let printf_at = printf_buffer(&mut slot, gpu, kernel)?;
        let state_addr = slot.state.gpu_addr;
        let state_handle = slot.state.handle;
        let map = &mut slot.state.map;
        let binding_table_entries = surfaces::write(
            &mut map[SURFACE..SURFACE + SURFACE_SIZE],
            kernel,
            args,
            &data,
        )?;
        let data_addrs: Vec<u64> = data.iter().map(|d| d.0).collect();
        let patches: Vec<dynamic::Patch> = printf_at
            .as_ref()
            .map(|p| (p.curbe_at, p.gpu_addr))
            .into_iter()
            .chain(globals_at)
            .chain(scratch_at)
            .collect();
        let state = dynamic::write(
            map,
            DYNAMIC,
            &dynamic::Inputs {
                kernel,
                args,
                nd,
                ksp,
                binding_table_entries,
                data_addrs: &data_addrs,
                patches: &patches,
            },
        )?;
        let ts_at = state.timestamps;
        let batch = Launch {
            bases: StateBases {
                // Scratch pointers (r0.5) are 32-bit offsets from the general state base.
                general: scratch.map_or(0, |s| s.0),
                general_pages: ALL_PAGES,
                surface: state_addr + SURFACE as u64,
                dynamic: state_addr,
                dynamic_pages: (STATE_SIZE / 4096) as u32,
                instruction: self.ish.gpu_addr,
                instruction_pages: (ISH_SIZE / 4096) as u32,
            },
            slm: state.slm,
            vfe: MediaVfeState {
                maximum_number_of_threads: (self.max_threads - 1) as u16,
                number_of_urb_entries: 2,
                urb_entry_allocation_size: 2,
                curbe_allocation_size: state.curbe_grfs as u16,
                per_thread_scratch_space: scratch.map_or(0, |s| s.1),
                scratch_space_base_pointer: 0,
                ..Default::default()
            },
            start_timestamp: Some(state_addr + ts_at as u64),
            walks: state.walks,
            post_sync: Some(PostSync {
                address: state_addr + ts_at as u64 + 8,
                operation: POST_SYNC_WRITE_TIMESTAMP,
                immediate: 0,
            }),
        }
        .batch();
        if batch.len() * 4 > BATCH_SIZE {
            return Err(SubmitError::TooLarge("batch buffer"));
        }
        write_dwords(map, BATCH, &batch);

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
        if let (Some(s), Some(_)) = (&self.scratch, scratch) {
            objects.push((s.handle, s.gpu_addr, true));
        }
        if let Some(p) = printf_at {
            objects.push((p.handle, p.gpu_addr, true));
        }
        objects.push((state_handle, state_addr, true));
        let (ctx, before) = execute(
            gpu,
            stream,
            &objects,
            state_handle,
            (batch.len() * 4) as u32,
        )?;
        Ok(Submitted {
            slot,
            stream,
            ctx,
            before,
            ts_at,
            formats: kernel.printf.as_ref().map(|p| p.formats.clone()),
            timestamp_hz: self.timestamp_hz,
        })
    }
}

/// Where a printing kernel's printf buffer is and where its address goes.
struct PrintfBuffer {
    /// The address's offset in the cross-thread data.
    curbe_at: usize,
    handle: u32,
    gpu_addr: u64,
}

/// printf's buffer for a kernel that prints, made once per slot: its counter of bytes used
/// starts at zero for every launch.
fn printf_buffer(
    slot: &mut slots::Taken,
    gpu: &ClientGpu,
    kernel: &KernelBinary,
) -> Result<Option<PrintfBuffer>, SubmitError> {
    let Some(p) = &kernel.printf else {
        return Ok(None);
    };
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
    Ok(Some(PrintfBuffer {
        curbe_at: p.curbe_offset as usize,
        handle: bo.handle,
        gpu_addr: bo.gpu_addr,
    }))
}

/// execbuffer2 of the batch at the start of `state`, with the launch's objects, on the
/// client's context, queued for the caller's wait (`Submitted::retire`): the context used and its reset statistics (batches active, pending)
/// before. A context banned for an earlier launch's hang or fault, which the retiring side
/// has not replaced yet, is replaced here and the batch submitted once more (i915 answers
/// EIO).
fn execute(
    gpu: &ClientGpu,
    stream: u64,
    objects: &[(u32, u64, bool)],
    state: u32,
    batch_len: u32,
) -> Result<(u32, (u32, u32)), SubmitError> {
    let exec_err = |e: gencl_kmd::backend::KmdError| SubmitError::Exec(e.to_string());
    let ctx_err = |e: crate::service::ServiceError| SubmitError::Exec(e.to_string());
    let mut ctx = gpu.ctx(stream).map_err(ctx_err)?;
    let mut retried = false;
    loop {
        let before = gpu.dev.reset_stats(ctx).map_err(exec_err)?;
        let queued = gpu.dev.exec_then_wait(ctx, objects, state, batch_len);
        match queued {
            Ok(()) => return Ok((ctx, (before.batch_active, before.batch_pending))),
            Err(gencl_kmd::backend::KmdError::Errno {
                errno: nix::errno::Errno::EIO,
                ..
            }) if !retried => {
                retried = true;
                gpu.replace_context(stream, ctx).map_err(ctx_err)?;
                ctx = gpu.ctx(stream).map_err(ctx_err)?;
            }
            Err(e) => return Err(exec_err(e)),
        }
    }
}

/// A launch queued to the GPU; `retire` waits for it.
pub struct Submitted {
    slot: slots::Taken,
    /// Its stream (`Launch::context`) and the hardware context it runs on.
    stream: u64,
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
            if let Err(e) = gpu.replace_context(self.stream, self.ctx) {
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

pub(crate) fn write_dwords(map: &mut [u8], at: usize, dw: &[u32]) {
    for (i, d) in dw.iter().enumerate() {
        map[at + 4 * i..at + 4 * i + 4].copy_from_slice(&d.to_le_bytes());
    }
}
