//! The kernel ABI: what a compiled kernel and the runtime that launches it agree on. For each
//! kernel, the JIT hands the runtime machine code plus the
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

/// GRFs of per-thread data at `simd` lanes: local IDs x, y and z, each `simd` u16 padded to
/// whole GRFs (r1.. after the r0 header).
pub fn per_thread_grfs(simd: u32) -> u32 {
    3 * (simd * 2).div_ceil(32)
}

/// The first GRF of the cross-thread data: after r0 and the per-thread data.
pub fn cross_thread_grf(simd: u32) -> u32 {
    1 + per_thread_grfs(simd)
}

/// Byte offsets of the implicit values in the cross-thread data (each a u32 per dimension
/// where there are three); the arguments follow from [`FIRST_ARG`].
pub const GLOBAL_OFFSET: u32 = 0;
pub const WORK_DIM: u32 = 12;
pub const ENQUEUED_LOCAL_SIZE: u32 = 16;
pub const GLOBAL_SIZE: u32 = 32;
pub const NUM_GROUPS: u32 = 48;
pub const FIRST_ARG: u32 = 64;

/// The implicit values every kernel of gencl's own is given, at the offsets above.
pub fn implicit_args() -> Vec<ImplicitArg> {
    let mut v = Vec::new();
    for dim in 0..3u8 {
        for (kind, base) in [
            (ImplicitKind::GlobalOffset, GLOBAL_OFFSET),
            (ImplicitKind::EnqueuedLocalSize, ENQUEUED_LOCAL_SIZE),
            (ImplicitKind::GlobalSize, GLOBAL_SIZE),
            (ImplicitKind::NumGroups, NUM_GROUPS),
        ] {
            v.push(ImplicitArg {
                kind,
                dim,
                offset: base + 4 * dim as u32,
            });
        }
    }
    v.push(ImplicitArg {
        kind: ImplicitKind::WorkDim,
        dim: 0,
        offset: WORK_DIM,
    });
    v
}

/// Where an argument of `size` bytes goes after `end`, the end of the previous one: aligned
/// to its size rounded up to a power of two, at most 8 (OpenCL C's alignment of scalars and
/// pointers; vectors and structs are placed by the caller with their own alignment).
pub fn place_arg(end: u32, size: u32) -> u32 {
    let align = size.max(1).next_power_of_two().min(8);
    end.div_ceil(align) * align
}

/// Shared local memory a work-group may use on Gen9: 64 KiB (MEDIA_INTERFACE_DESCRIPTOR's
/// Shared Local Memory Size tops out at 64 KiB; CL_DEVICE_LOCAL_MEM_SIZE).
pub const SLM_BYTES: u32 = 64 * 1024;

/// The most bytes of sampler state a kernel may bring (16 SAMPLER_STATEs and their border
/// colours with room to spare).
pub const MAX_SAMPLER_HEAP: u64 = 4096;

/// Binding-table entries a kernel's surfaces may use: 0..=239 (the rest have fixed meanings,
/// `gencl_isa::gen9::send`).
pub const SURFACE_BTIS: usize = gencl_isa::gen9::send::MAX_SURFACE_BTI as usize + 1;

/// One compiled program (all kernels of one build).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramBinary {
    pub kernels: Vec<KernelBinary>,
    pub build_log: String,
    /// The program's global variables (OpenCL C 2.0 program scope): the buffer every kernel
    /// of the program shares, made by the runtime before the program's first launch.
    pub globals: ProgramGlobals,
}

/// Generic pointers' tags, bits 63:61 (seed 002, as IGC): global and constant pointers are
/// canonical addresses (000, or 111 above the 47-bit half), private ones 001, local ones 010.
pub const GENERIC_TAG_PRIVATE: u64 = 1;
pub const GENERIC_TAG_LOCAL: u64 = 2;

/// Bytes at the start of shared local memory that a program with generic pointers leaves
/// unused, so that no local object is at offset 0, local NULL.
pub const SLM_NULL_GUARD: u32 = 16;

/// Bytes at the start of each thread's scratch space that private memory leaves unused,
/// so that no private object is at offset 0, private NULL (to_private's answer for a
/// pointer elsewhere). 128, the largest alignment of an OpenCL C type (long16), so that
/// the lanes' areas keep their alignment (piglit's realign-stack).
pub const PRIVATE_NULL_GUARD: u32 = 128;

/// Bytes of a thread's scratch space before its spills: the guard and every lane's private
/// memory (none without private memory).
pub fn private_area(private_bytes: u32, simd: u32) -> u32 {
    if private_bytes == 0 {
        0
    } else {
        PRIVATE_NULL_GUARD + (private_bytes * simd).next_multiple_of(32)
    }
}

/// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (the spec's minimum for a device that has program-scope
/// global variables), also reported as CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE.
pub const MAX_GLOBAL_VARIABLE_BYTES: u32 = 64 * 1024;

/// The initial contents of a program's global variables.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramGlobals {
    /// Every variable at its offset, its initialiser or zeros
    /// (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE is its length).
    pub data: Vec<u8>,
    /// Pointers in `data` initialised with the address of a global variable: (offset of the
    /// 64-bit pointer, offset it points to); the runtime adds the buffer's address.
    pub relocations: Vec<(u32, u32)>,
}

impl ProgramGlobals {
    /// `data` with the relocations done for a buffer at GPU address `base`.
    pub fn bytes_at(&self, base: u64) -> Vec<u8> {
        let mut out = self.data.clone();
        for &(at, target) in &self.relocations {
            let at = at as usize;
            if let Some(slot) = out.get_mut(at..at + 8) {
                slot.copy_from_slice(&(base + u64::from(target)).to_le_bytes());
            }
        }
        out
    }

    /// Every relocation inside `data` (a program binary's are untrusted).
    pub fn check(&self) -> Result<(), String> {
        let len = self.data.len() as u64;
        for &(at, target) in &self.relocations {
            if u64::from(at) + 8 > len || u64::from(target) > len {
                return Err(format!(
                    "a global-variable relocation ({at} -> {target}) outside the {len} bytes"
                ));
            }
        }
        Ok(())
    }
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
    /// GRFs holding payload or values (the build log's register figure; IGC binaries: 0,
    /// unknown).
    #[serde(default)]
    pub grfs_used: u32,
    pub args: Vec<KernelArg>,
    /// Size of the cross-thread data in bytes (multiple of 32).
    pub cross_thread_bytes: u32,
    /// Implicit cross-thread values and where they go.
    pub implicit: Vec<ImplicitArg>,
    /// Whether the per-thread local IDs are read (they are always laid out).
    pub uses_local_ids: bool,
    /// Shared local memory bytes the kernel declares itself (not counting __local pointer args).
    pub slm_bytes: u32,
    /// Scratch bytes per hardware thread in use: its lanes' private memory, then spilled
    /// registers (CL_KERNEL_PRIVATE_MEM_SIZE is this over the SIMD width).
    pub scratch_bytes: u32,
    /// Private memory per work-item for the variables that live in memory (at the start of
    /// the thread's scratch, one area per lane).
    #[serde(default)]
    pub private_bytes: u32,
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
    /// printf's formats and where its buffer's address goes, if the kernel calls printf.
    #[serde(default)]
    pub printf: Option<Printf>,
    /// Where the address of the program's global-variable buffer goes in the cross-thread
    /// data, if the kernel reads or writes a global variable.
    #[serde(default)]
    pub globals_offset: Option<u32>,
    /// Where the GPU address of the launch's scratch space goes in the cross-thread data, if
    /// the kernel turns private pointers into generic ones.
    #[serde(default)]
    pub scratch_base_offset: Option<u32>,
    /// `reqd_work_group_size`, if given.
    pub required_wg_size: Option<[u32; 3]>,
    /// The sub-group size the source required (`intel_reqd_sub_group_size(n)`), if any:
    /// CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL (`simd` is then the same number).
    #[serde(default)]
    pub required_sub_group_size: Option<u32>,
    /// Attributes string as clGetKernelInfo(CL_KERNEL_ATTRIBUTES) reports.
    pub attributes: String,
    /// The kernel's sampler states, if it has samplers.
    #[serde(default)]
    pub samplers: Option<SamplerHeap>,
}

impl KernelBinary {
    /// Bytes of each hardware thread's scratch space that hold spilled registers (after
    /// its lanes' private memory).
    pub fn spill_bytes(&self) -> u32 {
        self.scratch_bytes
            .saturating_sub(private_area(self.private_bytes, self.simd))
    }

    /// GRFs of per-thread data: local ID x, y, z, each `simd` u16 rounded up to whole GRFs.
    pub fn per_thread_grfs(&self) -> u32 {
        per_thread_grfs(self.simd)
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
    Buffer { bti: Option<u8> },
    /// A `__local` pointer: the runtime allocates `size` bytes of SLM from clSetKernelArg and
    /// pushes the 32-bit SLM offset at `curbe_offset`.
    Local,
    /// Plain bytes copied to `curbe_offset`.
    Value,
    /// A `sampler_t`: the runtime writes its SAMPLER_STATE `state_offset` bytes into the
    /// kernel's sampler heap (`KernelBinary::samplers`).
    Sampler { state_offset: u32 },
    /// An image: its surface state goes at binding-table index `bti`; `image` is the
    /// argument's declared image type and access qualifier (what clSetKernelArg checks and
    /// clGetKernelArgInfo reports).
    Image {
        bti: u8,
        #[serde(default)]
        image: ImageArg,
    },
}

/// An image argument's declared type (`image2d_t`, ...) and access qualifier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageArg {
    pub ty: ImageArgType,
    pub access: ImageAccess,
}

/// The OpenCL C image types.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImageArgType {
    Image1d,
    Image1dBuffer,
    Image1dArray,
    #[default]
    Image2d,
    Image2dArray,
    Image3d,
    /// cl_khr_depth_images.
    Image2dDepth,
    Image2dArrayDepth,
}

/// An image argument's access qualifier (`read_only` when none is written).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImageAccess {
    #[default]
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// A value of an image or sampler argument the runtime pushes into the cross-thread data
/// (a u32 each, as Intel's compiler asks for them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObjectParam {
    ImageWidth,
    ImageHeight,
    ImageDepth,
    ImageArraySize,
    /// The CL_* channel data type and order (CLK_* in OpenCL C have the same values).
    ImageChannelDataType,
    ImageChannelOrder,
    ImageNumMipLevels,
    ImageNumSamples,
    /// Nonzero for a CL_ADDRESS_CLAMP + CL_FILTER_NEAREST sampler: IGC then moves negative
    /// coordinates to -1 so that they read the border.
    SamplerSnapWa,
}

impl ObjectParam {
    /// Every value, in declaration order (the IR's parser names them by `Debug`).
    pub const ALL: [ObjectParam; 9] = [
        ObjectParam::ImageWidth,
        ObjectParam::ImageHeight,
        ObjectParam::ImageDepth,
        ObjectParam::ImageArraySize,
        ObjectParam::ImageChannelDataType,
        ObjectParam::ImageChannelOrder,
        ObjectParam::ImageNumMipLevels,
        ObjectParam::ImageNumSamples,
        ObjectParam::SamplerSnapWa,
    ];
}

/// The sampler states of a kernel, as the runtime places them in the dynamic state heap:
/// `heap` is copied whole (inline samplers' states are in it already), each sampler
/// argument's state written at its offset; the SAMPLER_STATE array (16 bytes per sampler)
/// starts at `state_offset`, its border colours at `border_offset`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SamplerHeap {
    pub heap: Vec<u8>,
    pub state_offset: u32,
    pub count: u32,
    pub border_offset: u32,
    /// Samplers the kernel declares itself (`__constant sampler_t`, SPIR-V's
    /// OpConstantSampler) whose states the runtime writes, as it does an argument's: the
    /// state at `state_offset + 16 * index`. (IGC's binaries bring theirs in `heap`.)
    #[serde(default)]
    pub inline: Vec<InlineSampler>,
}

/// A sampler known when the kernel is compiled, in the runtime's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineSampler {
    pub index: u32,
    pub normalized: bool,
    /// CL_ADDRESS_* and CL_FILTER_*.
    pub addressing: u32,
    pub filter: u32,
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
    /// For image and sampler arguments: values of the object pushed at offsets of the
    /// cross-thread data.
    #[serde(default)]
    pub object_params: Vec<(ObjectParam, u32)>,
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

/// Bytes of the printf buffer a launch gets (CL_DEVICE_PRINTF_BUFFER_SIZE).
pub const PRINTF_BYTES: u32 = 1 << 20;

/// A kernel's printf calls. The kernel appends one record per call and work-item to the
/// printf buffer, whose first dword counts the bytes used after it (taken with an atomic
/// add): the call's format index (a dword), then each argument's components, 4 or 8 bytes
/// each, in order. A call that finds no room writes nothing and returns -1. The runtime
/// formats the records, in buffer order, when the launch completes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Printf {
    /// Where the buffer's 64-bit GPU address goes in the cross-thread data.
    pub curbe_offset: u32,
    /// One per printf call site.
    pub formats: Vec<PrintfFormat>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrintfFormat {
    /// The format string, as written (without its terminating NUL).
    pub format: String,
    pub args: Vec<PrintfArg>,
}

/// One argument of a printf call, as its record holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PrintfArg {
    /// `components` integers of `bytes` (4 or 8) each (narrower ones widened to 4).
    Int { bytes: u32, components: u32 },
    /// `components` floating-point values of `bytes` (4 or 8) each.
    Float { bytes: u32, components: u32 },
    /// A string literal, known when the kernel was compiled (nothing in the record).
    Str(String),
}

impl PrintfArg {
    /// Bytes the argument takes in a record.
    pub fn record_bytes(&self) -> u32 {
        match self {
            PrintfArg::Int { bytes, components } | PrintfArg::Float { bytes, components } => {
                bytes * components
            }
            PrintfArg::Str(_) => 0,
        }
    }
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

impl ProgramBinary {
    /// Checks every descriptor field a launch or a query reads, for binaries that come from
    /// outside (clCreateProgramWithBinary): a bad one is named, never trusted.
    pub fn check(&self) -> Result<(), String> {
        self.globals.check()?;
        let mut names = std::collections::HashSet::new();
        for k in &self.kernels {
            k.check().map_err(|e| format!("kernel '{}': {e}", k.name))?;
            if !names.insert(k.name.as_str()) {
                return Err(format!("kernel '{}' appears twice", k.name));
            }
        }
        Ok(())
    }
}

impl KernelBinary {
    fn check(&self) -> Result<(), String> {
        let ident = |s: &str| {
            !s.is_empty()
                && !s.starts_with(|c: char| c.is_ascii_digit())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if !ident(&self.name) {
            return Err("name is not an identifier".into());
        }
        if !matches!(self.simd, 8 | 16 | 32) {
            return Err(format!("SIMD width {}", self.simd));
        }
        if !(1..=128).contains(&self.grf_count) {
            return Err(format!("{} GRFs (Gen9 has 128)", self.grf_count));
        }
        // Native instructions are 16 bytes, compacted ones 8.
        if self.isa.is_empty() || !self.isa.len().is_multiple_of(8) || self.isa.len() > 4 << 20 {
            return Err(format!("{} bytes of code", self.isa.len()));
        }
        if !self.cross_thread_bytes.is_multiple_of(32) {
            return Err("cross-thread data is not whole GRFs".into());
        }
        let payload = 1 + self.per_thread_grfs() as u64 + self.cross_thread_grfs() as u64;
        if payload > 128 {
            return Err(format!("a payload of {payload} GRFs"));
        }
        let fits = |off: u32, size: u32| off as u64 + size as u64 <= self.cross_thread_bytes as u64;
        for (i, a) in self.args.iter().enumerate() {
            let pushed = match a.kind {
                ArgKind::Buffer { .. } => 8,
                ArgKind::Local => 4,
                ArgKind::Value if a.pieces.is_empty() => a.size,
                ArgKind::Value => 0,
                ArgKind::Sampler { .. } | ArgKind::Image { .. } => 0,
            };
            if a.size == 0 || !fits(a.curbe_offset, pushed) {
                return Err(format!("argument {i} outside the cross-thread data"));
            }
            if a.object_params.iter().any(|&(_, off)| !fits(off, 4)) {
                return Err(format!(
                    "argument {i}: an image or sampler value outside the cross-thread data"
                ));
            }
            match a.kind {
                ArgKind::Image { bti, .. } if usize::from(bti) >= SURFACE_BTIS => {
                    return Err(format!("argument {i}: binding-table index {bti}"));
                }
                ArgKind::Sampler { state_offset } => {
                    let heap = self.samplers.as_ref().map_or(0, |s| s.heap.len() as u64);
                    if u64::from(state_offset) + 16 > heap {
                        return Err(format!(
                            "argument {i}: a sampler state outside the sampler heap"
                        ));
                    }
                }
                _ => {}
            }
            for p in &a.pieces {
                if p.src as u64 + p.size as u64 > a.size as u64 || !fits(p.dst, p.size) {
                    return Err(format!("argument {i}: a piece outside its bounds"));
                }
            }
        }
        if let Some(s) = &self.samplers {
            let len = s.heap.len() as u64;
            if len > MAX_SAMPLER_HEAP
                || s.count > 16
                || u64::from(s.state_offset) + 16 * u64::from(s.count) > len
                || u64::from(s.border_offset) + 16 > len
                || !s.state_offset.is_multiple_of(32)
                || !s.border_offset.is_multiple_of(64)
                || s.inline.iter().any(|i| i.index >= s.count)
            {
                return Err("a sampler heap whose states lie outside it or misaligned".into());
            }
        }
        if self
            .implicit
            .iter()
            .any(|i| !fits(i.offset, 4) || i.dim > 2)
        {
            return Err("an implicit value outside the cross-thread data".into());
        }
        if self.data_buffers.iter().any(|d| !fits(d.curbe_offset, 8)) {
            return Err("a data buffer address outside the cross-thread data".into());
        }
        if self.scratch_base_offset.is_some_and(|o| !fits(o, 8)) {
            return Err("the scratch space's address outside the cross-thread data".into());
        }
        if self.scratch_base_offset.is_some() && self.scratch_per_thread == 0 {
            return Err("the scratch space's address without scratch space".into());
        }
        if self.globals_offset.is_some_and(|o| !fits(o, 8)) {
            return Err("the global variables' address outside the cross-thread data".into());
        }
        if self.scratch_per_thread != 0
            && (!self.scratch_per_thread.is_power_of_two()
                || !(1024..=2 << 20).contains(&self.scratch_per_thread))
        {
            return Err(format!(
                "scratch of {} bytes per thread",
                self.scratch_per_thread
            ));
        }
        if let Some(wg) = self.required_wg_size {
            if wg.contains(&0) {
                return Err("a required work-group size of 0".into());
            }
        }
        Ok(())
    }
}
