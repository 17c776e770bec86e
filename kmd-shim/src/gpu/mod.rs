//! The Gen9 GPU model behind the emulated i915 device.
//!
//! Data flows: `cs` (command streamer: parses the batch, keeps the pipeline
//! state, walks GPGPU_WALKER's thread groups) → `dispatcher` (each group's
//! threads and their payloads) → `eu` (thread groups of EU
//! threads executing decoded Gen ISA) → the shared functions their sends reach:
//! `dataport` (memory messages: A64, binding-table surfaces, SLM, atomics; `typed`, its
//! typed surface messages) → `GpuMemory` (the context's VM), `sampler` (sampling and
//! loads of images, `image` their formats and layouts), and `gateway` (the group's
//! barrier).
//!
//! The interface between the command streamer and the EUs is
//! [`ThreadGroup`]: everything the hardware's thread dispatcher would hand
//! the EUs for one group.

pub mod binding;
pub mod cs;
pub mod dataport;
pub mod dispatcher;
pub mod eu;
pub mod gateway;
pub mod image;
mod media;
pub mod pool;
pub mod sampler;
mod typed;
pub mod watchdog;

use thiserror::Error;

/// Access to the GPU virtual address space of one context (its page tables). Shared by
/// the host threads that run a dispatch's thread groups, as the EUs share memory.
pub trait GpuMemory: Sync {
    /// Read `out.len()` bytes at `addr`; every page touched must be mapped.
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault>;
    /// Write `data` at `addr`; every page touched must be mapped and writable.
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault>;
    /// `size` bytes at each of `addrs`, in order, into consecutive `size`-byte slots of
    /// `out`: the lanes of one message, which a memory may serve with one page lookup and one
    /// lock per page they share. The first unmapped address faults, as one access at a time.
    fn read_each(&self, addrs: &[u64], size: usize, out: &mut [u8]) -> Result<(), MemFault> {
        for (&a, o) in addrs.iter().zip(out.chunks_exact_mut(size)) {
            self.read(a, o)?;
        }
        Ok(())
    }
    /// `size` bytes from consecutive slots of `data` to each of `addrs`, in order (a later
    /// lane's write to the same bytes wins, as one lane after another).
    fn write_each(&self, addrs: &[u64], size: usize, data: &[u8]) -> Result<(), MemFault> {
        for (&a, d) in addrs.iter().zip(data.chunks_exact(size)) {
            self.write(a, d)?;
        }
        Ok(())
    }
    /// `size` bytes at `addr + i * stride` for each of the `out.len() / size` slots of `out`,
    /// in order: the lanes of a message whose addresses step by `stride` (a work-item's
    /// element of an array), which a memory may serve with one page lookup.
    fn read_strided(
        &self,
        addr: u64,
        stride: u64,
        size: usize,
        out: &mut [u8],
    ) -> Result<(), MemFault> {
        strided_reads(self, addr, stride, size, out)
    }
    /// `size` bytes from each slot of `data` to `addr + i * stride`, in order (a later slot's
    /// write to the same bytes wins).
    fn write_strided(
        &self,
        addr: u64,
        stride: u64,
        size: usize,
        data: &[u8],
    ) -> Result<(), MemFault> {
        strided_writes(self, addr, stride, size, data)
    }
    /// Read-modify-write of the `size`-byte (4 or 8) little-endian value at each of `addrs`,
    /// in order: `f(i, old)` is the i-th access's new value (`None`: nothing written). The
    /// lanes of one atomic message, which a memory may serve with one page lookup per page
    /// they share. Indivisible only under the caller's locks. The first unmapped address
    /// faults, as one access at a time.
    fn update_each(
        &self,
        addrs: &[u64],
        size: usize,
        f: &mut dyn FnMut(usize, u64) -> Option<u64>,
    ) -> Result<(), MemFault> {
        for (i, &a) in addrs.iter().enumerate() {
            update_one(self, a, size, |old| f(i, old))?;
        }
        Ok(())
    }
    /// Which address space this is: the device's decoded kernels are kept by (space,
    /// address). 0 for a memory that is the only one of its device.
    fn address_space(&self) -> u64 {
        0
    }
}

/// `GpuMemory::read_strided` through `mem`'s plain reads, one access a slot.
pub fn strided_reads<M: GpuMemory + ?Sized>(
    mem: &M,
    addr: u64,
    stride: u64,
    size: usize,
    out: &mut [u8],
) -> Result<(), MemFault> {
    for (i, o) in out.chunks_exact_mut(size).enumerate() {
        mem.read(addr.wrapping_add(i as u64 * stride), o)?;
    }
    Ok(())
}

/// `GpuMemory::write_strided` through `mem`'s plain writes, one access a slot.
pub fn strided_writes<M: GpuMemory + ?Sized>(
    mem: &M,
    addr: u64,
    stride: u64,
    size: usize,
    data: &[u8],
) -> Result<(), MemFault> {
    for (i, d) in data.chunks_exact(size).enumerate() {
        mem.write(addr.wrapping_add(i as u64 * stride), d)?;
    }
    Ok(())
}

/// One read-modify-write of the `size`-byte value at `addr` through `mem`'s plain accesses
/// (`GpuMemory::update_each`, one lane).
pub fn update_one<M: GpuMemory + ?Sized>(
    mem: &M,
    addr: u64,
    size: usize,
    f: impl FnOnce(u64) -> Option<u64>,
) -> Result<(), MemFault> {
    let mut b = [0u8; 8];
    mem.read(addr, &mut b[..size])?;
    if let Some(new) = f(u64::from_le_bytes(b)) {
        mem.write(addr, &new.to_le_bytes()[..size])?;
    }
    Ok(())
}

/// A lane's element of 1, 2 or 4 little-endian bytes, zero-extended: a load of its size.
/// (Copied into a dword first, a variable-length copy was a call to memcpy and the dword
/// read back at once a store-forwarding stall: a third of a byte-scattered kernel's time.)
#[inline(always)]
pub fn lane_zext(b: &[u8]) -> u32 {
    match *b {
        [x] => u32::from(x),
        [x, y] => u32::from(u16::from_le_bytes([x, y])),
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// Copies a lane's bytes: an element of 1, 2, 4, 8 or 16 bytes as a move of its size, not a
/// call to memmove (a run of lanes, longer, as memmove).
#[inline(always)]
pub fn copy_lane(dst: &mut [u8], src: &[u8]) {
    match dst.len() {
        4 => dst[..4].copy_from_slice(&src[..4]),
        8 => dst[..8].copy_from_slice(&src[..8]),
        16 => dst[..16].copy_from_slice(&src[..16]),
        1 => dst[0] = src[0],
        2 => dst[..2].copy_from_slice(&src[..2]),
        _ => dst.copy_from_slice(src),
    }
}

/// `n` little-endian dwords of graphics memory at `addr`.
pub fn read_dwords(mem: &dyn GpuMemory, addr: u64, n: usize) -> Result<Vec<u32>, MemFault> {
    // A command's dwords (most of what reads here: every command of every batch) fit on the
    // stack: one allocation, the result's.
    let mut small = [0u8; 256];
    let mut big = Vec::new();
    let bytes = if n * 4 <= small.len() {
        &mut small[..n * 4]
    } else {
        big.resize(n * 4, 0);
        &mut big[..]
    };
    mem.read(addr, bytes)?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The dword at `addr` (a command's header), without allocating.
pub fn read_dword(mem: &dyn GpuMemory, addr: u64) -> Result<u32, MemFault> {
    let mut b = [0u8; 4];
    mem.read(addr, &mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// A page fault: an access to an address the context's VM does not map.
#[derive(Debug, Clone, Copy, Error, PartialEq, Eq)]
#[error("GPU page fault at {addr:#x} ({kind})")]
pub struct MemFault {
    pub addr: u64,
    pub kind: &'static str,
}

/// A buffer surface as RENDER_SURFACE_STATE describes it, resolved by the
/// command streamer from the binding table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferSurface {
    pub base: u64,
    /// Size in bytes: accesses at or past it are dropped (writes) or read as zero.
    pub size: u64,
}

/// One thread group as the thread dispatcher hands it to the EUs.
#[derive(Debug, Clone)]
pub struct ThreadGroup {
    /// GPU address of the kernel's first instruction (instruction base + kernel start pointer).
    pub kernel_addr: u64,
    /// SIMD width of dispatch: 8, 16 or 32.
    pub simd: u32,
    /// Initial GRF contents of each hardware thread of the group, from r0 upward
    /// (r0 header, per-thread data, cross-thread data), 32 bytes per GRF.
    pub threads: Vec<ThreadPayload>,
    /// The surfaces messages reach by binding-table index.
    pub bindings: binding::Bindings,
    /// Shared local memory size of the group in bytes.
    pub slm_bytes: u32,
    /// Scratch space: base GPU address for this group's threads and bytes per thread (0: none).
    pub scratch_base: u64,
    pub scratch_per_thread: u32,
    /// Whether the interface descriptor enabled the barrier.
    pub barrier_enabled: bool,
    /// Dynamic State Base Address, and the interface descriptor's Sampler State Pointer
    /// relative to it: where the sampler finds SAMPLER_STATE for messages without a
    /// header (a header's M0.3 names its own).
    pub dynamic_state_base: u64,
    pub sampler_state_pointer: u32,
}

#[derive(Debug, Clone, Default)]
pub struct ThreadPayload {
    pub grfs: Vec<[u8; 32]>,
    /// Channel enable mask of the thread (from the walker's right/bottom execution masks).
    pub exec_mask: u32,
}

/// Per-launch counters (`gencl` prints them). docs/gpu-model.md defines them
/// and the timing model behind `modelled_cycles`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    pub threads: u64,
    pub instructions: u64,
    pub lane_instructions: u64,
    /// All sends, including EOT; the `sends_*` fields split them by kind.
    pub sends: u64,
    pub modelled_cycles: u64,
    /// A64 messages and stateless ones (BTI 255/253): global memory by address.
    pub sends_a64: u64,
    /// Binding-table surfaces (other BTIs).
    pub sends_surface: u64,
    /// Shared local memory (BTI 254).
    pub sends_slm: u64,
    /// Scratch block messages.
    pub sends_scratch: u64,
    /// Atomics (BTI, SLM or A64; integer and float).
    pub sends_atomic: u64,
    /// Gateway messages (barrier).
    pub sends_barrier: u64,
    /// End of thread.
    pub sends_eot: u64,
    /// Sampler messages (sample, ld, resinfo).
    pub sends_sampler: u64,
    /// Fences and anything else.
    pub sends_other: u64,
    /// Issue cycles summed over all threads (the timing model's input).
    pub issue_cycles: u64,
    /// Message latency summed over all threads.
    pub latency_cycles: u64,
}

impl Counters {
    /// Add `o` field by field (aggregating launches or groups).
    pub fn add(&mut self, o: &Counters) {
        let Counters {
            threads,
            instructions,
            lane_instructions,
            sends,
            modelled_cycles,
            sends_a64,
            sends_surface,
            sends_slm,
            sends_scratch,
            sends_atomic,
            sends_barrier,
            sends_eot,
            sends_sampler,
            sends_other,
            issue_cycles,
            latency_cycles,
        } = o;
        self.threads += threads;
        self.instructions += instructions;
        self.lane_instructions += lane_instructions;
        self.sends += sends;
        self.modelled_cycles += modelled_cycles;
        self.sends_a64 += sends_a64;
        self.sends_surface += sends_surface;
        self.sends_slm += sends_slm;
        self.sends_scratch += sends_scratch;
        self.sends_atomic += sends_atomic;
        self.sends_barrier += sends_barrier;
        self.sends_eot += sends_eot;
        self.sends_sampler += sends_sampler;
        self.sends_other += sends_other;
        self.issue_cycles += issue_cycles;
        self.latency_cycles += latency_cycles;
    }
}

/// How an execution ended badly (the context is then banned, as i915 does on a hang or fault).
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum GpuError {
    #[error(transparent)]
    Fault(#[from] MemFault),
    #[error("illegal instruction at {addr:#x}: {why}")]
    IllegalInstruction { addr: u64, why: String },
    #[error("batch ran past its time budget (hang)")]
    Hang,
    #[error("bad command at {addr:#x}: {why}")]
    BadCommand { addr: u64, why: String },
    /// A programming rule of the PRM broken (the model's strict mode, docs/hardware.md).
    #[error("command at {addr:#x} breaks a programming rule: {rule}")]
    Rule { addr: u64, rule: &'static str },
    /// The model itself failed (a panic: a bug of the model, not of the batch). The batch
    /// ends as a hang would, so that its waiters wake and the engine runs on.
    #[error("the GPU model failed on this batch: {0}")]
    Model(String),
}
