//! What the JIT hands the runtime for each kernel: machine code plus the
//! descriptor the runtime needs to launch it (argument layout in the CURBE,
//! binding-table use, SIMD width, payload layout, memory needs).
//!
//! Thread payload layout (Gen9, as the hardware loads it and as IGC's code
//! expects it): R0 header; then `per_thread_grfs` of per-thread data (local
//! IDs x, y, z, each `simd` x u16 padded to whole GRFs); then the
//! `cross_thread_bytes` of cross-thread data (pushed arguments and implicit
//! values at the offsets given here). In memory (the CURBE that
//! MEDIA_CURBE_LOAD names) the cross-thread block comes first, followed by
//! one per-thread block per hardware thread of the group.

use serde::{Deserialize, Serialize};

/// One compiled program (all kernels of one build).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramBinary {
    pub kernels: Vec<KernelBinary>,
    pub build_log: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KernelBinary {
    pub name: String,
    /// Gen machine code, starting at the kernel entry (the runtime places it in the
    /// instruction heap with the read-ahead padding the fetcher needs).
    pub isa: Vec<u8>,
    /// SIMD width the kernel was compiled for: 8, 16 or 32.
    pub simd: u32,
    /// GRFs the kernel uses (r0 .. grf_count-1).
    pub grf_count: u32,
    pub args: Vec<KernelArg>,
    /// Size of the cross-thread data in bytes (multiple of 32).
    pub cross_thread_bytes: u32,
    /// Implicit cross-thread values and where they go.
    pub implicit: Vec<ImplicitArg>,
    /// Whether the per-thread local IDs are read (they are always laid out).
    pub uses_local_ids: bool,
    /// Shared local memory bytes the kernel declares itself (not counting __local pointer args).
    pub slm_bytes: u32,
    /// Private memory bytes per work-item (CL_KERNEL_PRIVATE_MEM_SIZE).
    pub scratch_bytes: u32,
    /// Scratch space per hardware thread in bytes (MEDIA_VFE_STATE's Per Thread Scratch
    /// Space: a power of two from 1 KiB to 2 MiB), 0 if the kernel uses none. The thread finds
    /// its slice at r0.5 [31:10], relative to the General State Base Address.
    #[serde(default)]
    pub scratch_per_thread: u32,
    pub barriers: bool,
    /// Program-scope data the kernel reads (constant tables of the math library, say): the
    /// runtime places each in its own buffer and pushes its address.
    #[serde(default)]
    pub data_buffers: Vec<DataBuffer>,
    /// `reqd_work_group_size`, if given.
    pub required_wg_size: Option<[u32; 3]>,
    /// Attributes string as clGetKernelInfo(CL_KERNEL_ATTRIBUTES) reports.
    pub attributes: String,
}

impl KernelBinary {
    /// GRFs of per-thread data: local ID x, y, z, each `simd` u16 rounded up to whole GRFs.
    pub fn per_thread_grfs(&self) -> u32 {
        3 * (self.simd * 2).div_ceil(32)
    }
    /// GRFs of cross-thread data.
    pub fn cross_thread_grfs(&self) -> u32 {
        self.cross_thread_bytes.div_ceil(32)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AddressQualifier {
    Global,
    Constant,
    Local,
    Private,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArgKind {
    /// A pointer to global or constant memory: the 64-bit GPU address is pushed at `curbe_offset`.
    /// `bti`: the binding-table index the kernel also uses for it, if promoted to a surface.
    Buffer {
        bti: Option<u8>,
    },
    /// A `__local` pointer: the runtime allocates `size` bytes of SLM from clSetKernelArg and
    /// pushes the 32-bit SLM offset at `curbe_offset`.
    Local,
    /// Plain bytes copied to `curbe_offset`.
    Value,
    Sampler,
    Image,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KernelArg {
    pub name: String,
    pub type_name: String,
    pub kind: ArgKind,
    pub address: AddressQualifier,
    /// Size the application must pass to clSetKernelArg (pointer: 8).
    pub size: u32,
    pub curbe_offset: u32,
    /// For `Value` arguments pushed in pieces (vectors and structs as Intel's compiler lays
    /// them out): each piece copies `size` bytes from `src` in the argument to `dst` in the
    /// cross-thread data. Empty: the whole argument goes to `curbe_offset`.
    #[serde(default)]
    pub pieces: Vec<ArgPiece>,
    /// CL_KERNEL_ARG_TYPE_QUALIFIER bits (const, restrict, volatile, pipe).
    pub type_qualifier: u64,
}

/// A buffer of initialised program-scope data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataBuffer {
    pub data: Vec<u8>,
    /// Where its 64-bit GPU address goes in the cross-thread data.
    pub curbe_offset: u32,
    /// The binding-table index the kernel also reaches it by, if any.
    pub bti: Option<u8>,
}

/// One piece of a by-value argument in the cross-thread data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgPiece {
    pub src: u32,
    pub dst: u32,
    pub size: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImplicitKind {
    GlobalOffset,
    /// The work-group size of the group the thread belongs to (smaller in remainder groups).
    LocalSize,
    /// The local size given to clEnqueueNDRangeKernel (global ID = group × this + local ID).
    EnqueuedLocalSize,
    GlobalSize,
    NumGroups,
    WorkDim,
}

/// An implicit 32-bit cross-thread value: `kind` for dimension `dim` at `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplicitArg {
    pub kind: ImplicitKind,
    pub dim: u8,
    pub offset: u32,
}
