//! The Gen9 GPU model behind the emulated i915 device.
//!
//! Data flows: `cs` (command streamer: parses the batch, keeps the pipeline
//! state, turns GPGPU_WALKER into thread groups) → `eu` (thread groups of EU
//! threads executing decoded Gen ISA) → `dataport` (memory messages: A64,
//! binding-table surfaces, SLM, atomics) → `GpuMemory` (the context's VM).
//!
//! The interface between the command streamer and the EUs is
//! [`ThreadGroup`]: everything the hardware's thread dispatcher would hand
//! the EUs for one group.

pub mod cs;
pub mod dataport;
pub mod eu;

use thiserror::Error;

/// Access to the GPU virtual address space of one context (its page tables).
pub trait GpuMemory {
    /// Read `out.len()` bytes at `addr`; every page touched must be mapped.
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault>;
    /// Write `data` at `addr`; every page touched must be mapped and writable.
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault>;
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
    /// Binding table entries resolved to surfaces (index = binding-table index).
    pub surfaces: Vec<Option<BufferSurface>>,
    /// Shared local memory size of the group in bytes.
    pub slm_bytes: u32,
    /// Scratch space: base GPU address for this group's threads and bytes per thread (0: none).
    pub scratch_base: u64,
    pub scratch_per_thread: u32,
    /// Whether the interface descriptor enabled the barrier.
    pub barrier_enabled: bool,
}

#[derive(Debug, Clone)]
pub struct ThreadPayload {
    pub grfs: Vec<[u8; 32]>,
    /// Channel enable mask of the thread (from the walker's right/bottom execution masks).
    pub exec_mask: u32,
}

/// Per-launch counters (`gencl` prints them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    pub threads: u64,
    pub instructions: u64,
    pub lane_instructions: u64,
    pub sends: u64,
    pub modelled_cycles: u64,
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
}
