//! SPIR-V (OpenCL kernel flavour) → scalar Gen IR.
//!
//! Each kernel entry point becomes one IR function. Calls are inlined (the
//! translator wraps every kernel body in a call, TOOLCHAIN.md); vectors are
//! split into one IR value per component; built-in variables become
//! `Op::Builtin`; constants are materialised once in the entry block.

use rustc_hash::FxHashMap as HashMap;

use rspirv::dr::{self, Operand};
use rspirv::spirv::{self, Op as SOp};

use super::builtins;
use super::convert;
use super::library;
use super::FrontendError;
use crate::abi::AddressQualifier;
use crate::ir::{
    self, AtomicOp, BinOp, Block, Builtin, CmpOp, ConvOp, Function, Op, Space, Term, Ty, UnOp,
    Value,
};

mod collectives;
mod template;
mod tgamma;
use collectives::SCOPE_SUBGROUP;
use template::Callee;

/// A SPIR-V type, as far as lowering cares.
#[derive(Clone, Debug, PartialEq)]
enum SType {
    Void,
    Bool,
    Int(u32),
    Float(u32),
    Vector(u32, u32),
    Pointer(Space, u32),
    Array(u32, u64),
    Struct(Vec<u32>),
    Function,
    /// An image type: its shape (`ImageShape`) and access qualifier.
    Image(ImageShape),
    Sampler,
    /// An image and a sampler together (OpSampledImage's result).
    SampledImage,
    Opaque(String),
}

/// The shape of an image type: how many coordinates address a texel (u, then v for 2D or a
/// 1D array's element, then r for 3D or a 2D array's element), and whether the last is an
/// array element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageShape {
    pub coords: u8,
    pub arrayed: bool,
    /// SPIR-V Dim: 0 1D, 1 2D, 2 3D, 5 Buffer.
    pub dim: u32,
    /// SPIR-V AccessQualifier: 0 read-only (also when absent), 1 write-only, 2 read-write.
    pub access: u32,
    /// A depth image (cl_khr_depth_images: image2d_depth_t, image2d_array_depth_t), whose
    /// texels are one float.
    pub depth: bool,
}

impl ImageShape {
    /// The OpenCL C type and access qualifier of an image argument of this shape.
    pub fn arg(&self) -> crate::abi::ImageArg {
        use crate::abi::{ImageAccess, ImageArgType as T};
        crate::abi::ImageArg {
            ty: match (self.dim, self.arrayed) {
                (1, false) if self.depth => T::Image2dDepth,
                (1, true) if self.depth => T::Image2dArrayDepth,
                (0, false) => T::Image1d,
                (0, true) => T::Image1dArray,
                (5, _) => T::Image1dBuffer,
                (2, _) => T::Image3d,
                (_, true) => T::Image2dArray,
                _ => T::Image2d,
            },
            access: match self.access {
                1 => ImageAccess::WriteOnly,
                2 => ImageAccess::ReadWrite,
                _ => ImageAccess::ReadOnly,
            },
        }
    }
}

/// A sampler a kernel uses: an argument, or one it declares (OpConstantSampler), in the
/// runtime's terms (CL_ADDRESS_*, CL_FILTER_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplerSlot {
    Arg(u32),
    Inline {
        normalized: bool,
        addressing: u32,
        filter: u32,
    },
}

/// What a SPIR-V id stands for during lowering.
#[derive(Clone, Debug)]
enum Sym {
    /// Scalar or vector: one IR value per component.
    Vals(Vec<Value>),
    /// An undefined value of a type (components made on demand as zero).
    Undef,
    /// Image argument n (images are arguments: OpenCL C has no other).
    Image(u32),
    /// Sampler `n` of the kernel (`LoweredKernel::samplers`).
    Sampler(u32),
    /// An image and a sampler (OpSampledImage).
    SampledImage(u32, u32),
}

/// A kernel's argument as the source declares it.
#[derive(Clone, Debug)]
pub struct ArgInfo {
    pub name: String,
    pub type_name: String,
    pub ty: Ty,
    pub address: AddressQualifier,
    pub size: u32,
    pub is_const: bool,
    /// CL_KERNEL_ARG_TYPE_* bits from the source's qualifiers (const 1, restrict 2,
    /// volatile 4, pipe 8), when the producer kept them (`kernel_arg_type_qual` strings).
    pub type_qualifier: Option<u64>,
    /// An image argument's shape.
    pub image: Option<ImageShape>,
    /// A sampler argument.
    pub sampler: bool,
}

/// One lowered kernel.
pub struct LoweredKernel {
    pub func: Function,
    pub args: Vec<ArgInfo>,
    pub required_wg_size: Option<[u32; 3]>,
    /// The SIMD width the kernel is compiled for, which is its sub-group size: 8, or what
    /// `intel_reqd_sub_group_size` (SPIR-V's SubgroupSize execution mode) asks for.
    pub simd: u8,
    /// Whether the lowered code is the same at every SIMD width: nothing read the width (the
    /// sub-group functions, the built-in variables that count sub-groups and the 64-bit
    /// `__local` atomics' lock do), so `compile.rs` may select it at another width.
    pub width_free: bool,
    /// The sub-group size the source required (`intel_reqd_sub_group_size(n)`), if any:
    /// CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL.
    pub required_sub_group_size: Option<u32>,
    /// CL_KERNEL_ATTRIBUTES: the source attributes SPIR-V keeps, as the source spells them.
    pub attributes: String,
    /// The program's `__constant` data, if the kernel reads it (`Op::ConstData(0)`).
    pub constant_data: Vec<u8>,
    /// The constant tables of each built-in cut out of the library (`library::Slice`) that
    /// inlined code reads (`Op::ConstData(1 + k)` for the k-th; empty when unread).
    pub library_data: Vec<Vec<u8>>,
    /// The kernel's printf calls, in the order of their format indices.
    pub printf: Vec<crate::abi::PrintfFormat>,
    /// The kernel's samplers by index (`Op::ImageRead::sampler`): its sampler arguments in
    /// argument order, then those it declares, as first used.
    pub samplers: Vec<SamplerSlot>,
}

/// Where a kernel's `__local` variables sit in shared local memory, assigned in the order
/// the kernel (and what it calls) first names them, each at its type's alignment. Keyed by
/// module and id: inlined library code is another module.
#[derive(Default)]
struct SlmLayout {
    offsets: HashMap<(usize, u32), u32>,
    end: u32,
}

impl SlmLayout {
    /// The offset of what `key` names, placed after everything before it on first use;
    /// whether it was placed just now; or None when it would pass the device's SLM.
    fn reserve(&mut self, key: (usize, u32), bytes: u64, align: u64) -> Option<(u32, bool)> {
        if let Some(&off) = self.offsets.get(&key) {
            return Some((off, false));
        }
        let off = u64::from(self.end).next_multiple_of(align.max(1));
        let end = off + bytes;
        if end > u64::from(crate::abi::SLM_BYTES) {
            return None;
        }
        self.offsets.insert(key, off as u32);
        self.end = end as u32;
        Some((off as u32, true))
    }
}

/// SLM the compiler itself uses, named apart from every module's variables (module 0).
const SLM_COLLECTIVES: (usize, u32) = (0, u32::MAX - 1);

fn unsupported<T>(what: impl Into<String>) -> Result<T, FrontendError> {
    Err(FrontendError::Unsupported(what.into()))
}

fn invalid<T>(what: impl Into<String>) -> Result<T, FrontendError> {
    Err(FrontendError::InvalidIl(what.into()))
}

/// Module-wide tables.
pub(super) struct ModuleInfo<'m> {
    /// The module declares the GenericPointer capability.
    generic_pointers: bool,
    /// Address constants (OpSpecConstantOp of an access chain or a cast), which program-scope
    /// initialisers hold; in the module they read as OpUndef (`spirv::load`).
    address_constants: std::collections::HashMap<u32, super::spirv::AddressConstant>,
    types: HashMap<u32, SType>,
    /// Result type of every id that has one.
    type_of: HashMap<u32, u32>,
    /// Global constants: (type id, raw words) or composite members.
    constants: HashMap<u32, &'m dr::Instruction>,
    builtins: HashMap<u32, Builtin>,
    functions: HashMap<u32, &'m dr::Function>,
    names: HashMap<u32, String>,
    /// Per kernel, its arguments' source type names and qualifiers, as llvm-spirv keeps
    /// them (`OpString "kernel_arg_type.<kernel>.<t0>,<t1>,..."` and `kernel_arg_type_qual`):
    /// SPIR-V's own types have no signedness and no typedef names.
    arg_types: HashMap<String, Vec<String>>,
    arg_quals: HashMap<String, Vec<String>>,
    /// Per kernel, its integer `vec_type_hint` as the source spelled it (`type_hints`).
    vec_type_hints: HashMap<String, String>,
    /// Every OpString, by id (OpLine's file names).
    strings: HashMap<u32, String>,
    opencl_std: Option<u32>,
    /// Program-scope variables by id, with their names.
    globals: HashMap<u32, String>,
    /// Decorations: FuncParamAttr NoWrite etc., keyed by id.
    no_write: rustc_hash::FxHashSet<u32>,
    /// Parameters decorated FuncParamAttr ByVal: a pointer to an aggregate the callee owns
    /// a copy of (C's pass by value).
    byval: rustc_hash::FxHashSet<u32>,
    /// Struct types decorated CPacked (`__attribute__((packed))`): members at byte
    /// granularity, no padding, alignment 1.
    packed: rustc_hash::FxHashSet<u32>,
    /// Program-scope `__constant` variables with their initialisers, in module order.
    constant_vars: Vec<(u32, u32)>,
    /// Program-scope `global` variables (OpenCL C 2.0; CrossWorkgroup storage): (variable,
    /// pointee type, initialiser), in module order.
    global_vars: Vec<(u32, u32, Option<u32>)>,
    /// Their layout in the program's global-variable buffer, computed on first use.
    global_layout: std::sync::OnceLock<(crate::abi::ProgramGlobals, HashMap<u32, u64>)>,
    /// Kernel-scope `__local` variables (Workgroup storage): id → pointee type. Each kernel
    /// lays out in shared local memory those it uses (`SlmLayout`).
    local_vars: HashMap<u32, u32>,
    /// Their layout, computed on first use.
    layout: std::sync::OnceLock<(Vec<u8>, HashMap<u32, u64>)>,
    /// Rounding modes and saturation of conversions (decorations).
    rounding: HashMap<u32, ir::Round>,
    saturated: rustc_hash::FxHashSet<u32>,
    /// Built-in variables that are WorkgroupSize (the actual, not the enqueued, size).
    actual_local_size: rustc_hash::FxHashSet<u32>,
    /// Built-in variables of the sub-group that are computed from others
    /// (`collectives.rs`): SubgroupSize, SubgroupMaxSize, NumSubgroups, ...
    subgroup_vars: HashMap<u32, spirv::BuiltIn>,
    /// Odd-width integer types (`spirv::Module::odd_int_widths`).
    odd_int_widths: HashMap<u32, u32>,
    /// OpConstantSampler: id → the sampler in the runtime's terms.
    const_samplers: HashMap<u32, SamplerSlot>,
}

fn missing_builtin(op: spirv::OpenclStd100Op, name: &str) -> FrontendError {
    FrontendError::Unsupported(format!(
        "the built-in '{op:?}' for these operand types ({name}) is in neither gencl nor libclc"
    ))
}

/// Whether a parameter is a half, or a pointer to halves.
fn has_half(p: &library::Param) -> bool {
    match p {
        library::Param::Pointer(_, inner) => has_half(inner),
        other => is_half_param(other),
    }
}

fn is_half_param(p: &library::Param) -> bool {
    matches!(
        p,
        library::Param::Scalar("Dh") | library::Param::Vector(_, "Dh")
    )
}

/// The parameter with half replaced by float.
fn half_to_float(p: &library::Param) -> library::Param {
    match p {
        library::Param::Scalar("Dh") => library::Param::Scalar("f"),
        library::Param::Vector(n, "Dh") => library::Param::Vector(*n, "f"),
        library::Param::Scalar(c) => library::Param::Scalar(c),
        library::Param::Vector(n, c) => library::Param::Vector(*n, c),
        library::Param::Pointer(s, inner) => {
            library::Param::Pointer(s, Box::new(half_to_float(inner)))
        }
    }
}

/// The integer type an atomic on values of `ty` works on: 32- and 64-bit integers as they
/// are, floats by their bits (atomic_xchg on float).
fn atomic_int(ty: Ty) -> Result<Ty, FrontendError> {
    match ty {
        Ty::I32 | Ty::I64 => Ok(ty),
        Ty::F32 => Ok(Ty::I32),
        Ty::F64 => Ok(Ty::I64),
        other => unsupported(format!("atomics on {other:?}")),
    }
}

fn id_op(i: &dr::Instruction, n: usize) -> Result<u32, FrontendError> {
    match i.operands.get(n) {
        Some(Operand::IdRef(id)) => Ok(*id),
        other => invalid(format!(
            "{:?}: operand {n} should be an id, is {other:?}",
            i.class.opcode
        )),
    }
}

fn lit_op(i: &dr::Instruction, n: usize) -> Result<u32, FrontendError> {
    match i.operands.get(n) {
        Some(Operand::LiteralBit32(v)) => Ok(*v),
        Some(Operand::LiteralExtInstInteger(v)) => Ok(*v),
        other => invalid(format!(
            "{:?}: operand {n} should be a literal, is {other:?}",
            i.class.opcode
        )),
    }
}

fn result_id(i: &dr::Instruction) -> Result<u32, FrontendError> {
    i.result_id.ok_or_else(|| {
        FrontendError::InvalidIl(format!("{:?} without a result id", i.class.opcode))
    })
}

fn space_of(sc: spirv::StorageClass) -> Space {
    use spirv::StorageClass as S;
    match sc {
        S::CrossWorkgroup => Space::Global,
        S::UniformConstant => Space::Constant,
        S::Workgroup => Space::Local,
        S::Function => Space::Private,
        S::Generic => Space::Generic,
        _ => Space::Private,
    }
}

impl<'m> ModuleInfo<'m> {
    /// `e` at an OpLine position (file name without its folder), unless it has one already
    /// from a deeper call.
    fn located(&self, (file, line, col): (u32, u32, u32), e: FrontendError) -> FrontendError {
        if matches!(e, FrontendError::Located { .. }) {
            return e;
        }
        let file = self
            .strings
            .get(&file)
            .map_or("<unknown>", |f| f.rsplit(['/', '\\']).next().unwrap_or(f));
        FrontendError::Located {
            at: format!("{file}:{line}:{col}"),
            error: Box::new(e),
        }
    }

    pub(super) fn new(m: &'m dr::Module) -> Result<Self, FrontendError> {
        let mut info = ModuleInfo {
            types: HashMap::default(),
            type_of: HashMap::default(),
            constants: HashMap::default(),
            builtins: HashMap::default(),
            functions: HashMap::default(),
            names: HashMap::default(),
            arg_types: HashMap::default(),
            arg_quals: HashMap::default(),
            vec_type_hints: HashMap::default(),
            strings: HashMap::default(),
            opencl_std: None,
            globals: HashMap::default(),
            no_write: Default::default(),
            byval: Default::default(),
            packed: Default::default(),
            odd_int_widths: HashMap::default(),
            const_samplers: HashMap::default(),
            actual_local_size: Default::default(),
            subgroup_vars: HashMap::default(),
            rounding: HashMap::default(),
            saturated: Default::default(),
            constant_vars: Vec::new(),
            address_constants: Default::default(),
            generic_pointers: m.capabilities.iter().any(|c| {
                matches!(
                    c.operands.first(),
                    Some(Operand::Capability(spirv::Capability::GenericPointer))
                )
            }),
            global_vars: Vec::new(),
            global_layout: std::sync::OnceLock::new(),
            local_vars: HashMap::default(),
            layout: std::sync::OnceLock::new(),
        };
        for i in &m.ext_inst_imports {
            if let Some(Operand::LiteralString(s)) = i.operands.first() {
                if s == "OpenCL.std" {
                    info.opencl_std = i.result_id;
                }
            }
        }
        for i in &m.debug_string_source {
            let (SOp::String, Some(Operand::LiteralString(text))) =
                (i.class.opcode, i.operands.first())
            else {
                continue;
            };
            if let Some(id) = i.result_id {
                info.strings.insert(id, text.clone());
            }
            if let Some((kernel, ty)) = text
                .strip_prefix(super::type_hints::PREFIX)
                .and_then(|r| r.rsplit_once('.'))
            {
                info.vec_type_hints
                    .insert(kernel.to_string(), ty.to_string());
                continue;
            }
            for (prefix, table) in [
                ("kernel_arg_type_qual.", &mut info.arg_quals),
                ("kernel_arg_type.", &mut info.arg_types),
            ] {
                if let Some((kernel, list)) =
                    text.strip_prefix(prefix).and_then(|r| r.split_once('.'))
                {
                    let mut items: Vec<String> = list.split(',').map(str::to_string).collect();
                    // The list ends with a comma.
                    items.pop();
                    table.insert(kernel.to_string(), items);
                    break;
                }
            }
        }
        for i in &m.debug_names {
            if i.class.opcode == SOp::Name {
                if let (Some(Operand::IdRef(id)), Some(Operand::LiteralString(s))) =
                    (i.operands.first(), i.operands.get(1))
                {
                    info.names.insert(*id, s.clone());
                }
            }
        }
        let mut builtin_of: HashMap<u32, spirv::BuiltIn> = HashMap::default();
        for i in &m.annotations {
            if i.class.opcode != SOp::Decorate {
                continue;
            }
            match (i.operands.first(), i.operands.get(1), i.operands.get(2)) {
                (
                    Some(Operand::IdRef(id)),
                    Some(Operand::Decoration(spirv::Decoration::BuiltIn)),
                    Some(Operand::BuiltIn(b)),
                ) => {
                    builtin_of.insert(*id, *b);
                }
                (
                    Some(Operand::IdRef(id)),
                    Some(Operand::Decoration(spirv::Decoration::FuncParamAttr)),
                    Some(Operand::FunctionParameterAttribute(
                        spirv::FunctionParameterAttribute::NoWrite,
                    )),
                ) => {
                    info.no_write.insert(*id);
                }
                (
                    Some(Operand::IdRef(id)),
                    Some(Operand::Decoration(spirv::Decoration::FuncParamAttr)),
                    Some(Operand::FunctionParameterAttribute(
                        spirv::FunctionParameterAttribute::ByVal,
                    )),
                ) => {
                    info.byval.insert(*id);
                }
                (
                    Some(Operand::IdRef(id)),
                    Some(Operand::Decoration(spirv::Decoration::FPRoundingMode)),
                    Some(Operand::FPRoundingMode(m)),
                ) => {
                    info.rounding.insert(*id, convert::round_of(*m));
                }
                (
                    Some(Operand::IdRef(id)),
                    Some(Operand::Decoration(spirv::Decoration::SaturatedConversion)),
                    _,
                ) => {
                    info.saturated.insert(*id);
                }
                (
                    Some(Operand::IdRef(id)),
                    Some(Operand::Decoration(spirv::Decoration::CPacked)),
                    _,
                ) => {
                    info.packed.insert(*id);
                }
                _ => {}
            }
        }
        // Pointer types named before their OpTypePointer (a struct that points to itself).
        let mut forward = std::collections::HashSet::new();
        let mut depth_of: HashMap<u32, u32> = HashMap::default();
        for i in &m.types_global_values {
            if i.class.opcode == SOp::TypeForwardPointer {
                if let Some(Operand::IdRef(p)) = i.operands.first() {
                    forward.insert(*p);
                }
            }
            let Some(id) = i.result_id else { continue };
            if let Some(t) = i.result_type {
                info.type_of.insert(id, t);
            }
            let t = match i.class.opcode {
                SOp::TypeVoid => SType::Void,
                SOp::TypeBool => SType::Bool,
                SOp::TypeInt => match lit_op(i, 0)? {
                    // 8 to 64 bits; odd widths (SPV_INTEL_arbitrary_precision_integers) too.
                    w @ 1..=64 => SType::Int(w),
                    w => return invalid(format!("OpTypeInt of {w} bits")),
                },
                SOp::TypeFloat => match lit_op(i, 0)? {
                    w @ (16 | 32 | 64) => SType::Float(w),
                    w => return invalid(format!("OpTypeFloat of {w} bits")),
                },
                SOp::TypeVector => {
                    // "Component Count must be at least 2" and, for Kernel modules, at most 16
                    // (Vector16), in 2, 3, 4, 8 or 16.
                    let n = lit_op(i, 1)?;
                    if ![2, 3, 4, 8, 16].contains(&n) {
                        return Err(FrontendError::InvalidIl(format!(
                            "OpTypeVector with {n} components"
                        )));
                    }
                    SType::Vector(id_op(i, 0)?, n)
                }
                SOp::TypePointer => match i.operands.first() {
                    Some(Operand::StorageClass(sc)) => SType::Pointer(space_of(*sc), id_op(i, 1)?),
                    _ => return invalid("OpTypePointer without a storage class"),
                },
                SOp::TypeArray => {
                    let len_id = id_op(i, 1)?;
                    let len = info
                        .constants
                        .get(&len_id)
                        .and_then(|c| match c.operands.first() {
                            Some(Operand::LiteralBit32(v)) => Some(*v as u64),
                            Some(Operand::LiteralBit64(v)) => Some(*v),
                            _ => None,
                        })
                        .ok_or_else(|| {
                            FrontendError::InvalidIl("array length is not a constant".into())
                        })?;
                    SType::Array(id_op(i, 0)?, len)
                }
                SOp::TypeStruct => SType::Struct(
                    i.operands
                        .iter()
                        .filter_map(|o| {
                            if let Operand::IdRef(x) = o {
                                Some(*x)
                            } else {
                                None
                            }
                        })
                        .collect(),
                ),
                SOp::TypeFunction => SType::Function,
                // event_t: async work-group copies are done when they return (see
                // collectives.rs), so an event is only a value to pass along.
                SOp::TypeEvent => SType::Int(64),
                SOp::TypeImage => {
                    // Sampled type, Dim, Depth, Arrayed, MS, Sampled, Format[, Access].
                    let lit = |n: usize| match i.operands.get(n) {
                        Some(Operand::Dim(d)) => Some(*d as u32),
                        Some(Operand::LiteralBit32(v)) => Some(*v),
                        _ => None,
                    };
                    let (dim, depth, arrayed, ms) = (lit(1), lit(2), lit(3), lit(4));
                    let access = match i.operands.get(7) {
                        Some(Operand::AccessQualifier(q)) => *q as u32,
                        _ => 0,
                    };
                    match (dim, arrayed, ms) {
                        (Some(dim @ (0 | 1 | 2 | 5)), Some(a), Some(0)) => {
                            let arrayed = a != 0;
                            let coords = match dim {
                                0 | 5 => 1,
                                1 => 2,
                                _ => 3,
                            } + u8::from(arrayed);
                            if coords > 3 {
                                SType::Opaque("a 3D image array".into())
                            } else {
                                SType::Image(ImageShape {
                                    coords,
                                    arrayed,
                                    dim,
                                    access,
                                    // Depth 1: a depth image (2: unknown, read as not).
                                    depth: depth == Some(1) && dim == 1,
                                })
                            }
                        }
                        _ => SType::Opaque(format!(
                            "image (dim {dim:?}, arrayed {arrayed:?}, multisampled {ms:?})"
                        )),
                    }
                }
                SOp::TypeSampler => SType::Sampler,
                SOp::TypeSampledImage => SType::SampledImage,
                SOp::TypeOpaque => SType::Opaque(format!("{:?}", i.class.opcode)),
                SOp::ConstantSampler => {
                    // Addressing mode, normalized (0/1), filter mode.
                    let addressing = match i.operands.first() {
                        Some(Operand::SamplerAddressingMode(m)) => *m as u32,
                        Some(Operand::LiteralBit32(v)) => *v,
                        _ => return invalid("OpConstantSampler without an addressing mode"),
                    };
                    let normalized = matches!(i.operands.get(1), Some(Operand::LiteralBit32(1)));
                    let filter = match i.operands.get(2) {
                        Some(Operand::SamplerFilterMode(m)) => *m as u32,
                        Some(Operand::LiteralBit32(v)) => *v,
                        _ => return invalid("OpConstantSampler without a filter mode"),
                    };
                    // SPIR-V's None, ClampToEdge, Clamp, Repeat, RepeatMirrored and Nearest,
                    // Linear, as CL_ADDRESS_* and CL_FILTER_* (0x1130.., 0x1140..).
                    if addressing > 4 || filter > 1 {
                        return invalid("OpConstantSampler with an unknown mode");
                    }
                    info.const_samplers.insert(
                        id,
                        SamplerSlot::Inline {
                            normalized,
                            addressing: 0x1130 + addressing,
                            filter: 0x1140 + filter,
                        },
                    );
                    continue;
                }
                SOp::Constant
                | SOp::ConstantTrue
                | SOp::ConstantFalse
                | SOp::ConstantNull
                | SOp::ConstantComposite
                | SOp::Undef => {
                    // A composite's constituents are constants declared before it (one that
                    // named itself or a later one would be flattened round a cycle).
                    if i.class.opcode == SOp::ConstantComposite {
                        for o in &i.operands {
                            if let Operand::IdRef(c) = o {
                                if !info.constants.contains_key(c) {
                                    return invalid(format!(
                                        "constant %{id} names %{c}, which is not a constant \
                                         declared before it"
                                    ));
                                }
                            }
                        }
                    }
                    if info.constants.insert(id, i).is_some() {
                        return invalid(format!("%{id} is defined twice"));
                    }
                    continue;
                }
                SOp::Variable => {
                    if let Some(b) = builtin_of.get(&id) {
                        let b = match b {
                            spirv::BuiltIn::GlobalInvocationId => Builtin::GlobalId,
                            spirv::BuiltIn::LocalInvocationId => Builtin::LocalId,
                            spirv::BuiltIn::WorkgroupId => Builtin::GroupId,
                            spirv::BuiltIn::GlobalSize => Builtin::GlobalSize,
                            // WorkgroupSize is computed from the enqueued size on load.
                            spirv::BuiltIn::WorkgroupSize => {
                                info.actual_local_size.insert(id);
                                Builtin::EnqueuedLocalSize
                            }
                            spirv::BuiltIn::EnqueuedWorkgroupSize => Builtin::EnqueuedLocalSize,
                            spirv::BuiltIn::NumWorkgroups => Builtin::NumGroups,
                            spirv::BuiltIn::GlobalOffset => Builtin::GlobalOffset,
                            spirv::BuiltIn::WorkDim => Builtin::WorkDim,
                            spirv::BuiltIn::SubgroupLocalInvocationId => Builtin::SubgroupLocalId,
                            spirv::BuiltIn::GlobalLinearId
                            | spirv::BuiltIn::LocalInvocationIndex
                            | spirv::BuiltIn::SubgroupSize
                            | spirv::BuiltIn::SubgroupMaxSize
                            | spirv::BuiltIn::NumSubgroups
                            | spirv::BuiltIn::NumEnqueuedSubgroups
                            | spirv::BuiltIn::SubgroupId => {
                                info.subgroup_vars.insert(id, *b);
                                continue;
                            }
                            other => return unsupported(format!("built-in variable {other:?}")),
                        };
                        info.builtins.insert(id, b);
                        continue;
                    }
                    // Program-scope variables are an error only where a kernel uses one
                    // (pyopencl, for one, declares an unused constant in every program).
                    let name = info
                        .names
                        .get(&id)
                        .cloned()
                        .unwrap_or_else(|| format!("%{id}"));
                    if let (
                        Some(Operand::StorageClass(spirv::StorageClass::UniformConstant)),
                        Some(Operand::IdRef(init)),
                    ) = (i.operands.first(), i.operands.get(1))
                    {
                        info.constant_vars.push((id, *init));
                    }
                    if let (
                        Some(Operand::StorageClass(spirv::StorageClass::CrossWorkgroup)),
                        Some(tid),
                    ) = (i.operands.first(), i.result_type)
                    {
                        if let Some(SType::Pointer(_, pointee)) = info.types.get(&tid) {
                            let init = match i.operands.get(1) {
                                Some(Operand::IdRef(x)) => Some(*x),
                                _ => None,
                            };
                            info.global_vars.push((id, *pointee, init));
                        }
                    }
                    if let (
                        Some(Operand::StorageClass(spirv::StorageClass::Workgroup)),
                        Some(tid),
                    ) = (i.operands.first(), i.result_type)
                    {
                        if let Some(SType::Pointer(_, pointee)) = info.types.get(&tid) {
                            info.local_vars.insert(id, *pointee);
                        }
                    }
                    info.globals.insert(id, name);
                    continue;
                }
                _ => continue,
            };
            // "Types ... must be declared before use" (only a pointer may name a type declared
            // later, through OpTypeForwardPointer): a composite naming itself or a later type
            // would send every walk over types (size, leaves, scalar) round a cycle.
            let parts: &[u32] = match &t {
                SType::Vector(e, _) | SType::Array(e, _) => std::slice::from_ref(e),
                SType::Struct(members) => members,
                _ => &[],
            };
            // Result ids are unique: a type defined again could close a cycle.
            if info.types.contains_key(&id) {
                return invalid(format!("%{id} is defined twice"));
            }
            // "Component Type must be a scalar type" (a vector of vectors is no type).
            if let SType::Vector(e, _) = &t {
                if !matches!(
                    info.types.get(e),
                    Some(SType::Int(_) | SType::Float(_) | SType::Bool)
                ) {
                    return invalid(format!("vector %{id} of %{e}, which is not a scalar type"));
                }
            }
            if let Some(p) = parts
                .iter()
                .find(|p| !info.types.contains_key(p) && !forward.contains(p))
            {
                return invalid(format!(
                    "type %{id} names %{p}, which is not a type declared before it"
                ));
            }
            // Walks over types recurse through their parts: a module nesting structs in structs
            // thousands deep would overflow the stack of whoever compiles it (a service
            // thread), which no error handling survives. OpenCL C types nest a few levels.
            const MAX_TYPE_DEPTH: u32 = 64;
            let depth = 1 + parts
                .iter()
                .map(|p| depth_of.get(p).copied().unwrap_or(0))
                .max()
                .unwrap_or(0);
            if depth > MAX_TYPE_DEPTH {
                return unsupported(format!("types nested more than {MAX_TYPE_DEPTH} deep"));
            }
            depth_of.insert(id, depth);
            info.types.insert(id, t);
        }
        for f in &m.functions {
            let Some(def) = &f.def else { continue };
            let id = result_id(def)?;
            info.functions.insert(id, f);
            for p in &f.parameters {
                if let (Some(r), Some(t)) = (p.result_id, p.result_type) {
                    info.type_of.insert(r, t);
                }
            }
            for b in &f.blocks {
                for i in &b.instructions {
                    if let (Some(r), Some(t)) = (i.result_id, i.result_type) {
                        info.type_of.insert(r, t);
                    }
                }
            }
        }
        Ok(info)
    }

    fn ty(&self, id: u32) -> Result<&SType, FrontendError> {
        self.types
            .get(&id)
            .ok_or_else(|| FrontendError::InvalidIl(format!("%{id} is not a type")))
    }

    /// IR scalar type of a SPIR-V scalar (or the element of a vector).
    fn scalar(&self, tid: u32) -> Result<Ty, FrontendError> {
        Ok(match self.ty(tid)? {
            SType::Bool => Ty::Bool,
            // 8- and 16-bit integers are carried zero-extended in a 32-bit register, like the
            // odd widths (`odd_width`): Gen's byte and word operands have region rules of their
            // own, and the data port moves bytes and words in dword slots anyway.
            SType::Int(8 | 16) => Ty::I32,
            SType::Int(32) => Ty::I32,
            SType::Int(64) => Ty::I64,
            // Odd widths live in the next container, zero-extended (`odd_width`).
            SType::Int(w) if *w < 32 => Ty::I32,
            SType::Int(w) if *w < 64 => Ty::I64,
            // Halves are carried as floats holding an exactly representable half, rounded
            // to half after each operation (`is_half`): f32 has 2p+2 bits of half's p, so
            // add, sub, mul, div and sqrt rounded twice are still correctly rounded.
            SType::Float(16) => Ty::F32,
            SType::Float(32) => Ty::F32,
            SType::Float(64) => Ty::F64,
            SType::Vector(e, _) => return self.scalar(*e),
            SType::Pointer(s, _) => Ty::Ptr(*s),
            SType::Void => Ty::Void,
            other => return unsupported(format!("type {other:?} as a value")),
        })
    }

    /// The scalar leaves of a type in the order its values are flattened (vector
    /// components, struct members, array elements), each with its byte offset.
    fn leaves(&self, tid: u32) -> Result<Vec<(u64, u32)>, FrontendError> {
        let mut out = Vec::new();
        self.leaves_at(tid, 0, &mut out)?;
        Ok(out)
    }

    fn leaves_at(&self, tid: u32, at: u64, out: &mut Vec<(u64, u32)>) -> Result<(), FrontendError> {
        // A value is flattened into registers: past this many scalars (nested arrays of
        // arrays multiply) it is refused rather than flattened for minutes.
        const MAX_LEAVES: usize = 16384;
        if out.len() >= MAX_LEAVES {
            return unsupported(format!("a value of more than {MAX_LEAVES} scalars"));
        }
        match self.ty(tid)?.clone() {
            SType::Vector(e, n) => {
                let es = self.size_of(e)?;
                for c in 0..n as u64 {
                    out.push((at + c * es, e));
                }
            }
            SType::Struct(members) => {
                let (offsets, _) = self.struct_layout(tid)?;
                for (m, off) in members.into_iter().zip(offsets) {
                    self.leaves_at(m, at + off, out)?;
                }
            }
            SType::Array(e, n) => {
                if n > 4096 {
                    return unsupported(format!("a value of {n} array elements"));
                }
                let es = self.size_of(e)?;
                for k in 0..n {
                    self.leaves_at(e, at + k * es, out)?;
                }
            }
            _ => out.push((at, tid)),
        }
        Ok(())
    }

    /// Whether `tid` is half or a vector of half.
    fn is_half(&self, tid: u32) -> bool {
        match self.types.get(&tid) {
            Some(SType::Float(16)) => true,
            Some(SType::Vector(e, _)) => self.is_half(*e),
            _ => false,
        }
    }

    /// The program's `__constant` data: every program-scope constant variable's
    /// initialiser at its alignment, in module order; and each variable's offset.
    fn constant_layout(&self) -> Result<&(Vec<u8>, HashMap<u32, u64>), FrontendError> {
        if let Some(l) = self.layout.get() {
            return Ok(l);
        }
        let l = self.compute_constant_layout()?;
        Ok(self.layout.get_or_init(|| l))
    }

    fn compute_constant_layout(&self) -> Result<(Vec<u8>, HashMap<u32, u64>), FrontendError> {
        let mut data = Vec::new();
        let mut offsets = HashMap::default();
        for &(var, init) in &self.constant_vars {
            let ty = *self.type_of.get(&init).ok_or_else(|| {
                FrontendError::InvalidIl(format!("initialiser %{init} has no type"))
            })?;
            let align = self.align_of(ty)?.max(1) as usize;
            let at = data.len().next_multiple_of(align);
            data.resize(at + self.size_of(ty)? as usize, 0);
            self.const_bytes(init, &mut data, at)?;
            offsets.insert(var, at as u64);
        }
        Ok((data, offsets))
    }

    fn constant_offset(&self, var: u32) -> Result<Option<u64>, FrontendError> {
        if !self.constant_vars.iter().any(|(v, _)| *v == var) {
            return Ok(None);
        }
        Ok(self.constant_layout()?.1.get(&var).copied())
    }

    /// The program's global variables (OpenCL C 2.0 program scope): each at its alignment
    /// in module order, with its initialiser or zeros; the address of another global
    /// variable in an initialiser is a relocation the runtime completes.
    pub(super) fn global_layout(
        &self,
    ) -> Result<&(crate::abi::ProgramGlobals, HashMap<u32, u64>), FrontendError> {
        if let Some(l) = self.global_layout.get() {
            return Ok(l);
        }
        let l = self.compute_global_layout()?;
        Ok(self.global_layout.get_or_init(|| l))
    }

    fn compute_global_layout(
        &self,
    ) -> Result<(crate::abi::ProgramGlobals, HashMap<u32, u64>), FrontendError> {
        let mut offsets = HashMap::default();
        let mut end = 0u64;
        for &(var, ty, _) in &self.global_vars {
            let size = self.size_of(ty)?;
            // CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE.
            if size > u64::from(crate::abi::MAX_GLOBAL_VARIABLE_BYTES) {
                let name = self.globals.get(&var).cloned().unwrap_or_default();
                return unsupported(format!(
                    "program-scope variable '{name}' of {size} bytes, more than the device's \
                     {} (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE)",
                    crate::abi::MAX_GLOBAL_VARIABLE_BYTES
                ));
            }
            let at = end.next_multiple_of(self.align_of(ty)?.max(1));
            offsets.insert(var, at);
            end = at + size;
        }
        let mut globals = crate::abi::ProgramGlobals {
            data: vec![0; end as usize],
            relocations: Vec::new(),
        };
        for &(var, _, init) in &self.global_vars {
            if let Some(init) = init {
                let at = offsets[&var] as usize;
                self.const_bytes_in(
                    init,
                    &mut globals.data,
                    at,
                    Some((&offsets, &mut globals.relocations)),
                )?;
            }
        }
        Ok((globals, offsets))
    }

    /// The variable and byte offset an address constant denotes: a variable itself, or an
    /// access chain with constant indices or a pointer cast of one (OpSpecConstantOp).
    fn const_address(&self, id: u32) -> Result<Option<(u32, u64)>, FrontendError> {
        if self.globals.contains_key(&id) {
            return Ok(Some((id, 0)));
        }
        let Some(c) = self.address_constants.get(&id) else {
            return Ok(None);
        };
        let Some(op) = SOp::from_u32(c.op) else {
            return invalid("OpSpecConstantOp of an unknown operation");
        };
        let ids = &c.operands;
        let Some(&base) = ids.first() else {
            return invalid("OpSpecConstantOp without operands");
        };
        let Some((var, mut off)) = self.const_address(base)? else {
            return unsupported("an address constant that is not of a program-scope variable");
        };
        if matches!(
            op,
            SOp::Bitcast | SOp::PtrCastToGeneric | SOp::GenericCastToPtr
        ) {
            return Ok(Some((var, off)));
        }
        let bt = *self
            .type_of
            .get(&base)
            .ok_or_else(|| FrontendError::InvalidIl("address constant without a type".into()))?;
        let SType::Pointer(_, mut cur) = self.ty(bt)?.clone() else {
            return invalid("an access chain on a non-pointer");
        };
        let index = |x: u32| -> Result<i64, FrontendError> {
            match self.constants.get(&x).and_then(|c| c.operands.first()) {
                Some(Operand::LiteralBit32(v)) => Ok(*v as i32 as i64),
                Some(Operand::LiteralBit64(v)) => Ok(*v as i64),
                _ => unsupported("an address constant with an index that is not a constant"),
            }
        };
        let mut first = matches!(op, SOp::PtrAccessChain | SOp::InBoundsPtrAccessChain);
        for &x in &ids[1..] {
            let k = index(x)?;
            if first {
                off = off.wrapping_add((k as u64).wrapping_mul(self.size_of(cur)?));
                first = false;
                continue;
            }
            match self.ty(cur)?.clone() {
                SType::Struct(members) => {
                    let (offsets, _) = self.struct_layout(cur)?;
                    let (Some(&mt), Some(&mo)) = (members.get(k as usize), offsets.get(k as usize))
                    else {
                        return invalid("struct member index out of range");
                    };
                    off = off.wrapping_add(mo);
                    cur = mt;
                }
                SType::Array(e, _) | SType::Vector(e, _) => {
                    off = off.wrapping_add((k as u64).wrapping_mul(self.size_of(e)?));
                    cur = e;
                }
                other => return invalid(format!("access chain into {other:?}")),
            }
        }
        Ok(Some((var, off)))
    }

    fn global_offset(&self, var: u32) -> Result<Option<u64>, FrontendError> {
        if !self.global_vars.iter().any(|(v, _, _)| *v == var) {
            return Ok(None);
        }
        Ok(self.global_layout()?.1.get(&var).copied())
    }

    /// Write constant `id` (OpenCL C layout) into `out` at `at`.
    fn const_bytes(&self, id: u32, out: &mut [u8], at: usize) -> Result<(), FrontendError> {
        self.const_bytes_in(id, out, at, None)
    }

    /// `const_bytes`, where the address of a global variable (`globals`: their offsets) is
    /// a relocation: (where the pointer is, the offset it points to).
    fn const_bytes_in(
        &self,
        id: u32,
        out: &mut [u8],
        at: usize,
        mut globals: Option<GlobalRelocs<'_>>,
    ) -> Result<(), FrontendError> {
        if let Some((offsets, relocs)) = globals.as_mut() {
            if let Some((var, off)) = self.const_address(id)? {
                let Some(&target) = offsets.get(&var) else {
                    return unsupported(
                        "an initialiser holding the address of a program-scope variable \
                         other than a global one",
                    );
                };
                if at + 8 > out.len() {
                    return invalid("a pointer runs past its variable");
                }
                let target = target.wrapping_add(off);
                relocs.push((at as u32, target as u32));
                return Ok(());
            }
        }
        // An address anywhere else (a `__constant` initialiser holding one; an address
        // constant reads as OpUndef in the module and must not become zeros).
        if self.globals.contains_key(&id) || self.address_constants.contains_key(&id) {
            return unsupported(
                "an initialiser holding the address of a program-scope variable other than a \
                 global one",
            );
        }
        let c = *self
            .constants
            .get(&id)
            .ok_or_else(|| FrontendError::InvalidIl(format!("%{id} is not a constant")))?;
        let ty = c.result_type.unwrap_or(0);
        let size = self.size_of(ty)? as usize;
        let dst = out
            .get_mut(at..at + size)
            .ok_or_else(|| FrontendError::InvalidIl("constant runs past its variable".into()))?;
        match c.class.opcode {
            SOp::Constant => {
                let bits = match c.operands.first() {
                    Some(Operand::LiteralBit32(v)) => *v as u64,
                    Some(Operand::LiteralBit64(v)) => *v,
                    _ => return invalid("OpConstant without a literal"),
                };
                dst.copy_from_slice(&bits.to_le_bytes()[..size]);
            }
            SOp::ConstantTrue => dst[0] = 1,
            SOp::ConstantFalse | SOp::ConstantNull | SOp::Undef => dst.fill(0),
            SOp::ConstantComposite => {
                let parts: Vec<u32> = c
                    .operands
                    .iter()
                    .filter_map(|o| match o {
                        Operand::IdRef(x) => Some(*x),
                        _ => None,
                    })
                    .collect();
                match self.ty(ty)?.clone() {
                    SType::Struct(_) => {
                        let (offsets, _) = self.struct_layout(ty)?;
                        for (off, part) in offsets.into_iter().zip(&parts) {
                            let g = globals.as_mut().map(|(o, r)| (*o, &mut **r));
                            self.const_bytes_in(*part, out, at + off as usize, g)?;
                        }
                    }
                    SType::Array(e, _) | SType::Vector(e, _) => {
                        let es = self.size_of(e)? as usize;
                        for (k, part) in parts.iter().enumerate() {
                            let g = globals.as_mut().map(|(o, r)| (*o, &mut **r));
                            self.const_bytes_in(*part, out, at + k * es, g)?;
                        }
                    }
                    other => return unsupported(format!("a constant composite of {other:?}")),
                }
            }
            other => return unsupported(format!("constant {other:?} in __constant data")),
        }
        Ok(())
    }

    pub(super) fn set_odd_int_widths(&mut self, w: HashMap<u32, u32>) {
        self.odd_int_widths = w;
    }

    /// A built-in's parameter type for mangling; a pointer's address space is `space`,
    /// the one the pointer value is known to have (a generic pointer resolved statically).
    fn mangle_param(
        &self,
        tid: u32,
        space: Option<Space>,
    ) -> Result<library::Param, FrontendError> {
        use library::Param;
        let scalar = |t: &SType| -> Option<&'static str> {
            Some(match t {
                SType::Float(16) => "Dh",
                SType::Float(32) => "f",
                SType::Float(64) => "d",
                SType::Int(8) => "c",
                SType::Int(16) => "s",
                SType::Int(32) => "i",
                SType::Int(64) => "l",
                _ => return None,
            })
        };
        let t = self.ty(tid)?;
        if let Some(c) = scalar(t) {
            return Ok(Param::Scalar(c));
        }
        Ok(match t {
            SType::Vector(e, n) => match scalar(self.ty(*e)?) {
                Some(c) => Param::Vector(*n, c),
                None => return unsupported(format!("a built-in taking a vector of {e}")),
            },
            SType::Pointer(declared, pointee) => {
                let prefix =
                    match space.unwrap_or(*declared) {
                        Space::Private => "P",
                        Space::Global => "PU3AS1",
                        Space::Constant => "PU3AS2",
                        Space::Local => "PU3AS3",
                        Space::Generic => return unsupported(
                            "a built-in taking a generic pointer whose address space is not known",
                        ),
                    };
                Param::Pointer(prefix, Box::new(self.mangle_param(*pointee, None)?))
            }
            other => return unsupported(format!("a built-in taking {other:?}")),
        })
    }

    /// The width of an integer type narrower than its register container (8, 16 or an
    /// odd width such as 33), or of the elements of a vector of them.
    fn odd_width(&self, tid: u32) -> Option<u32> {
        match self.types.get(&tid)? {
            SType::Int(w @ (8 | 16)) => Some(*w),
            SType::Int(_) => self.odd_int_widths.get(&tid).copied(),
            SType::Vector(e, _) => self.odd_width(*e),
            _ => None,
        }
    }

    fn components(&self, tid: u32) -> Result<u32, FrontendError> {
        Ok(match self.ty(tid)? {
            SType::Vector(_, n) => *n,
            SType::Void => 0,
            _ => 1,
        })
    }

    /// Size in bytes (OpenCL C layout: vec3 occupies 4 elements).
    fn size_of(&self, tid: u32) -> Result<u64, FrontendError> {
        Ok(match self.ty(tid)? {
            SType::Bool => 1,
            // Odd widths occupy whole bytes (an i1 one).
            SType::Int(w) | SType::Float(w) => u64::from(*w).div_ceil(8),
            SType::Vector(e, n) => self.size_of(*e)? * if *n == 3 { 4 } else { u64::from(*n) },
            SType::Pointer(..) => 8,
            // Lengths come from the module: a size past 2^48 bytes is no type a kernel has.
            SType::Array(e, n) => self
                .size_of(*e)?
                .checked_mul(*n)
                .filter(|b| *b < 1 << 48)
                .ok_or_else(|| FrontendError::InvalidIl(format!("array %{tid} too large")))?,
            SType::Struct(_) => self.struct_layout(tid)?.1,
            other => return unsupported(format!("size of {other:?}")),
        })
    }

    /// A struct's member offsets and its size: OpenCL C's (C99's) layout, each member at the
    /// next multiple of its alignment and the size rounded up to the largest; a CPacked struct
    /// places members back to back and is not rounded.
    fn struct_layout(&self, tid: u32) -> Result<(Vec<u64>, u64), FrontendError> {
        let SType::Struct(ms) = self.ty(tid)? else {
            return invalid(format!("%{tid} is not a struct"));
        };
        let packed = self.packed.contains(&tid);
        let mut offsets = Vec::with_capacity(ms.len());
        let mut off: u64 = 0;
        for &m in ms {
            if !packed {
                let a = self.align_of(m)?;
                off = off.div_ceil(a) * a;
            }
            offsets.push(off);
            off = off
                .checked_add(self.size_of(m)?)
                .filter(|b| *b < 1 << 48)
                .ok_or_else(|| FrontendError::InvalidIl(format!("struct %{tid} too large")))?;
        }
        let align = self.align_of(tid)?;
        Ok((offsets, off.div_ceil(align) * align))
    }

    fn align_of(&self, tid: u32) -> Result<u64, FrontendError> {
        Ok(match self.ty(tid)? {
            SType::Array(e, _) => self.align_of(*e)?,
            SType::Struct(_) if self.packed.contains(&tid) => 1,
            SType::Struct(ms) => {
                let mut a = 1;
                for m in ms {
                    a = a.max(self.align_of(*m)?);
                }
                a
            }
            _ => self.size_of(tid)?.max(1),
        })
    }

    fn type_name(&self, tid: u32) -> String {
        match self.types.get(&tid) {
            Some(SType::Bool) => "bool".into(),
            Some(SType::Int(8)) => "char".into(),
            Some(SType::Int(16)) => "short".into(),
            Some(SType::Int(32)) => "int".into(),
            Some(SType::Int(64)) => "long".into(),
            Some(SType::Float(16)) => "half".into(),
            Some(SType::Float(32)) => "float".into(),
            Some(SType::Float(64)) => "double".into(),
            Some(SType::Vector(e, n)) => format!("{}{n}", self.type_name(*e)),
            Some(SType::Pointer(_, p)) => format!("{}*", self.type_name(*p)),
            Some(SType::Struct(_)) => self
                .names
                .get(&tid)
                .cloned()
                .unwrap_or_else(|| "struct".into()),
            _ => "void".into(),
        }
    }
}

/// One kernel's lowering: the kernel, or why it could not be lowered.
pub type KernelLowering = Result<LoweredKernel, FrontendError>;

/// Lower every kernel entry point of a module; the first kernel that fails fails the module.
pub fn lower_module(m: &super::spirv::Module) -> Result<Vec<LoweredKernel>, FrontendError> {
    lower_module_each(m)?.into_iter().map(|(_, k)| k).collect()
}

/// Lower every kernel entry point of a module, each on its own: a kernel the JIT cannot
/// lower does not stop the others. Fails only for what is wrong with the module as a whole.
pub fn lower_module_each(
    loaded: &super::spirv::Module,
) -> Result<Vec<(String, KernelLowering)>, FrontendError> {
    Ok(lower_program(loaded, first_width())?.0)
}

/// `lower_module_each`, and the program's global variables, which every kernel of it shares;
/// a kernel that does not ask for a sub-group size is lowered at SIMD `width`.
pub fn lower_program(
    loaded: &super::spirv::Module,
    width: u8,
) -> Result<(Vec<(String, KernelLowering)>, crate::abi::ProgramGlobals), FrontendError> {
    let m = &loaded.module;
    match &m.memory_model {
        Some(mm) => match mm.operands.first() {
            Some(Operand::AddressingModel(spirv::AddressingModel::Physical64)) => {}
            other => {
                return unsupported(format!(
                    "addressing model {other:?} (gencl needs Physical64)"
                ))
            }
        },
        None => return invalid("module without OpMemoryModel"),
    }
    let mut info = ModuleInfo::new(m)?;
    info.odd_int_widths = loaded
        .odd_int_widths
        .iter()
        .map(|(k, v)| (*k, *v))
        .collect();
    info.address_constants = loaded.address_constants.clone();
    let mut req_wg: HashMap<u32, [u32; 3]> = HashMap::default();
    let mut sub_group_size: HashMap<u32, u32> = HashMap::default();
    let mut attributes: HashMap<u32, Vec<String>> = HashMap::default();
    let entry_names: HashMap<u32, &str> = m
        .entry_points
        .iter()
        .filter_map(|ep| match (ep.operands.get(1), ep.operands.get(2)) {
            (Some(Operand::IdRef(f)), Some(Operand::LiteralString(name))) => {
                Some((*f, name.as_str()))
            }
            _ => None,
        })
        .collect();
    for e in &m.execution_modes {
        let (Some(Operand::IdRef(f)), Some(Operand::ExecutionMode(mode))) =
            (e.operands.first(), e.operands.get(1))
        else {
            continue;
        };
        let attribute = match mode {
            spirv::ExecutionMode::LocalSize => {
                let xyz = [lit_op(e, 2)?, lit_op(e, 3)?, lit_op(e, 4)?];
                req_wg.insert(*f, xyz);
                Some(format!(
                    "reqd_work_group_size({},{},{})",
                    xyz[0], xyz[1], xyz[2]
                ))
            }
            // intel_reqd_sub_group_size(n) (cl_intel_required_subgroup_size).
            spirv::ExecutionMode::SubgroupSize => {
                let n = lit_op(e, 2)?;
                sub_group_size.insert(*f, n);
                Some(format!("intel_reqd_sub_group_size({n})"))
            }
            spirv::ExecutionMode::LocalSizeHint => Some(format!(
                "work_group_size_hint({},{},{})",
                lit_op(e, 2)?,
                lit_op(e, 3)?,
                lit_op(e, 4)?
            )),
            spirv::ExecutionMode::VecTypeHint => {
                let spelled = entry_names
                    .get(f)
                    .and_then(|name| info.vec_type_hints.get(*name));
                match spelled {
                    Some(ty) => Some(format!("vec_type_hint({ty})")),
                    None => vec_type_hint(lit_op(e, 2)?),
                }
            }
            _ => None,
        };
        attributes.entry(*f).or_default().extend(attribute);
    }
    let mut out = Vec::new();
    for ep in &m.entry_points {
        if !matches!(
            ep.operands.first(),
            Some(Operand::ExecutionModel(spirv::ExecutionModel::Kernel))
        ) {
            continue;
        }
        let fid = id_op(ep, 1)?;
        let name = match ep.operands.get(2) {
            Some(Operand::LiteralString(s)) => s.clone(),
            _ => return invalid("OpEntryPoint without a name"),
        };
        let simd = match sub_group_size.get(&fid) {
            None => width,
            Some(&n) if crate::isel::SUB_GROUP_SIZES.contains(&(n as u8)) => n as u8,
            Some(n) => {
                out.push((
                    name,
                    Err(FrontendError::Unsupported(format!(
                        "intel_reqd_sub_group_size({n}): the device's sub-group sizes are 8, 16 and 32"
                    ))),
                ));
                continue;
            }
        };
        let k = lower_kernel(&info, fid, &name, req_wg.get(&fid).copied(), simd).map(|mut k| {
            k.attributes = attributes
                .get(&fid)
                .map(|a| a.join(" "))
                .unwrap_or_default();
            k.required_sub_group_size = sub_group_size.get(&fid).copied();
            k
        });
        out.push((name, k));
    }
    // A module without kernels is a program without kernels (an empty source, helper
    // functions only): it builds, and clCreateKernelsInProgram finds nothing.
    let globals = info.global_layout()?.0.clone();
    Ok((out, globals))
}

/// `vec_type_hint(T)` from SPIR-V's VecTypeHint operand: the low 16 bits are the component
/// type (0 i8, 1 i16, 2 i32, 3 i64, 4 half, 5 float, 6 double), the high 16 the count. The
/// integer types have no signedness there (`uchar4` and `char4` are one value): an integer
/// hint is spelled from the producer's string (`type_hints`) where there is one, and left out
/// otherwise rather than reported with a sign the source may not have had.
fn vec_type_hint(operand: u32) -> Option<String> {
    let ty = match operand & 0xffff {
        4 => "half",
        5 => "float",
        6 => "double",
        _ => return None,
    };
    let n = operand >> 16;
    Some(if n <= 1 {
        format!("vec_type_hint({ty})")
    } else {
        format!("vec_type_hint({ty}{n})")
    })
}

/// How the SIMD width of a kernel that does not ask for one is chosen, as IGC chooses it:
/// SIMD32 where it is worth it and fits the registers (`analysis::simd32`), else SIMD16,
/// unless its code spills where SIMD8's would not (`compile.rs`); or the width `GENCL_SIMD`
/// fixes (8, 16, or 32 wherever SIMD32 selection has code for the kernel and SIMD16
/// elsewhere: a testing aid that runs whole corpora at one width).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WidthChoice {
    /// SIMD32 or SIMD16, SIMD8 for a kernel whose SIMD16 code spills or cannot be built.
    Chosen,
    Fixed(u8),
}

pub fn width_choice() -> WidthChoice {
    static W: std::sync::OnceLock<WidthChoice> = std::sync::OnceLock::new();
    *W.get_or_init(|| match std::env::var("GENCL_SIMD").as_deref() {
        Ok("8") => WidthChoice::Fixed(8),
        Ok("16") => WidthChoice::Fixed(16),
        Ok("32") => WidthChoice::Fixed(32),
        _ => WidthChoice::Chosen,
    })
}

/// The width kernels are lowered at first.
pub fn first_width() -> u8 {
    match width_choice() {
        // SIMD32 code is selected from code lowered at SIMD16 (`LoweredKernel::width_free`).
        WidthChoice::Fixed(32) | WidthChoice::Chosen => 16,
        WidthChoice::Fixed(w) => w,
    }
}

fn lower_kernel(
    info: &ModuleInfo<'_>,
    fid: u32,
    name: &str,
    required_wg_size: Option<[u32; 3]>,
    simd: u8,
) -> Result<LoweredKernel, FrontendError> {
    let f = *info
        .functions
        .get(&fid)
        .ok_or_else(|| FrontendError::InvalidIl(format!("entry point %{fid} has no function")))?;
    let mut args = Vec::new();
    // Parameters that are by-value aggregates (pointers to a private copy).
    let mut byval: Vec<usize> = Vec::new();
    for (n, p) in f.parameters.iter().enumerate() {
        let pid = result_id(p)?;
        let tid = p
            .result_type
            .ok_or_else(|| FrontendError::InvalidIl("parameter without a type".into()))?;
        let (ty, address, size) = match info.ty(tid)? {
            SType::Pointer(space, pointee) => {
                let aq = match space {
                    Space::Global => AddressQualifier::Global,
                    Space::Constant => AddressQualifier::Constant,
                    Space::Local => AddressQualifier::Local,
                    // A struct or union passed by value arrives as a pointer to a private
                    // copy (ByVal): the bytes are pushed like any by-value argument.
                    Space::Private => {
                        byval.push(n);
                        AddressQualifier::Private
                    }
                    _ => {
                        return unsupported(format!(
                            "kernel argument {n} in the {space:?} address space"
                        ))
                    }
                };
                if aq == AddressQualifier::Private {
                    (Ty::Ptr(Space::Private), aq, info.size_of(*pointee)? as u32)
                } else {
                    (Ty::Ptr(*space), aq, 8)
                }
            }
            SType::Vector(e, _) => {
                let ty = info.scalar(*e)?;
                (ty, AddressQualifier::Private, info.size_of(tid)? as u32)
            }
            // A memory object and a sampler: clSetKernelArg takes the cl_mem or cl_sampler
            // (pointer-sized); images are in the global address space.
            SType::Image(_) => (Ty::I64, AddressQualifier::Global, 8),
            SType::Sampler => (Ty::I64, AddressQualifier::Private, 8),
            SType::Opaque(what) => return unsupported(format!("kernel argument of type {what}")),
            _ => {
                let ty = info.scalar(tid)?;
                (ty, AddressQualifier::Private, info.size_of(tid)? as u32)
            }
        };
        let is_const = info.no_write.contains(&pid)
            || matches!(info.ty(tid)?, SType::Pointer(Space::Constant, _));
        let type_name = match info.arg_types.get(name).and_then(|t| t.get(n)) {
            Some(t) => t.clone(),
            None => info.type_name(tid),
        };
        let type_qualifier = info.arg_quals.get(name).and_then(|q| q.get(n)).map(|q| {
            q.split_whitespace()
                .map(|w| match w {
                    "const" => 1,
                    "restrict" => 2,
                    "volatile" => 4,
                    "pipe" => 8,
                    _ => 0,
                })
                .fold(0, |a, b| a | b)
        });
        let (image, sampler) = match info.ty(tid)? {
            SType::Image(s) => (Some(*s), false),
            SType::Sampler => (None, true),
            _ => (None, false),
        };
        args.push(ArgInfo {
            name: info.names.get(&pid).cloned().unwrap_or_default(),
            type_name,
            ty,
            address,
            size,
            is_const,
            type_qualifier,
            image,
            sampler,
        });
    }
    let mut func = Function::new(name, args.iter().map(|a| a.ty).collect());
    let entry = func.add_block();
    let param_types: Vec<u32> = f
        .parameters
        .iter()
        .map(|p| p.result_type.unwrap_or(0))
        .collect();
    let libs = std::cell::RefCell::new(Vec::new());
    // Local memory starts after a few reserved bytes in a program that has generic
    // pointers: a local pointer is its SLM offset and NULL is 0, so no object may sit at 0
    // where to_local's NULL must mean "not local" (passes/generic_pointers.rs).
    let reserved = if info.generic_pointers {
        crate::abi::SLM_NULL_GUARD
    } else {
        0
    };
    let slm = std::cell::RefCell::new(SlmLayout {
        end: reserved,
        ..SlmLayout::default()
    });
    let printf = std::cell::RefCell::new(Vec::new());
    // Sampler arguments are the first samplers, in argument order.
    let samplers = std::cell::RefCell::new(
        (0..args.len() as u32)
            .filter(|&n| args[n as usize].sampler)
            .map(SamplerSlot::Arg)
            .collect::<Vec<_>>(),
    );
    let width_read = std::cell::Cell::new(false);
    let mut lw = Lowerer::new(
        info,
        &mut func,
        0,
        0,
        (&libs, &slm, &printf),
        (simd, &width_read),
    );
    lw.samplers = Some(&samplers);
    lw.image_shapes = args
        .iter()
        .enumerate()
        .filter_map(|(n, a)| a.image.map(|s| (n as u32, s)))
        .collect();
    let params: Vec<Sym> = (0..args.len())
        .map(|i| {
            let n = i as u32;
            if args[i].image.is_some() {
                return Ok(Sym::Image(n));
            }
            if args[i].sampler {
                let k = samplers
                    .borrow()
                    .iter()
                    .position(|s| *s == SamplerSlot::Arg(n))
                    .unwrap_or(0);
                return Ok(Sym::Sampler(k as u32));
            }
            if byval.contains(&i) {
                return Ok(Sym::Vals(vec![lw.f.push(
                    entry,
                    Op::ArgAddr(n),
                    Ty::Ptr(Space::Private),
                )]));
            }
            let tid = param_types[i];
            Ok(match info.ty(tid)? {
                SType::Vector(e, count) => {
                    // One pushed value per component (a vec3 occupies four).
                    let esize = info.size_of(*e)? as u32;
                    let ty = info.scalar(*e)?;
                    let half = info.is_half(*e);
                    let comps = (0..*count)
                        .map(|c| {
                            if half {
                                return lw.pushed_half(entry, n, c * esize);
                            }
                            let op = Op::ArgAt {
                                arg: n,
                                offset: c * esize,
                                bytes: esize,
                            };
                            lw.f.push(entry, op, ty)
                        })
                        .collect();
                    Sym::Vals(comps)
                }
                _ => Sym::Vals(vec![lw.arg_sized(entry, n, args[i].size)]),
            })
        })
        .collect::<Result<_, FrontendError>>()?;
    let (exit, _) = lw.lower_call(fid, params, entry)?;
    let branch_lines = std::mem::take(&mut lw.branch_lines);
    func.blocks[exit.0 as usize].term = Term::Ret;
    // "Irreducible control flow is not supported" is found here, where the branch that
    // enters a loop sideways still has its source line; the loop analysis checks again.
    let cfg = crate::analysis::cfg::Cfg::new(&func);
    if let Some((from, _)) = crate::analysis::loops::irreducible_edge(&cfg) {
        let e = FrontendError::Unsupported(
            "irreducible control flow (a branch into a loop other than through its header)".into(),
        );
        return Err(match branch_lines.get(&Block(from)) {
            Some(at) => info.located(*at, e),
            None => e,
        });
    }
    let reads = |n| func.insts.iter().any(|i| i.op == Op::ConstData(n));
    let constant_data = if reads(0) {
        info.constant_layout()?.0.clone()
    } else {
        Vec::new()
    };
    let mut library_data = Vec::new();
    for (k, lib) in libs.borrow().iter().enumerate() {
        library_data.push(if reads(1 + k as u32) {
            lib.bytes()?
        } else {
            Vec::new()
        });
    }
    let local_args = args.iter().any(|a| a.address == AddressQualifier::Local);
    func.slm_bytes = match slm.borrow().end {
        end if end == reserved && !local_args => 0,
        end => end,
    };
    func.simd = simd;
    let printf = printf.into_inner();
    let samplers = samplers.into_inner();
    Ok(LoweredKernel {
        func,
        args,
        required_wg_size,
        simd,
        width_free: !width_read.get(),
        required_sub_group_size: None,
        attributes: String::new(),
        constant_data,
        library_data,
        printf,
        samplers,
    })
}

struct Lowerer<'a, 'm> {
    info: &'a ModuleInfo<'m>,
    f: &'a mut Function,
    /// Materialised global constants (in block 0).
    consts: HashMap<u32, Vec<Value>>,
    depth: u32,
    /// The functions being inlined, outermost first (recursion is a call of one of them).
    calls: Vec<u32>,
    /// The source position of the last OpLine: (file string id, line, column).
    line: Option<(u32, u32, u32)>,
    /// The source position of each IR block's branch, where OpLine gave one (irreducible
    /// flow is found on the whole kernel, after inlining, and named by its branch).
    branch_lines: HashMap<Block, (u32, u32, u32)>,
    /// Which constant data buffer this module's `__constant` variables live in (0: the
    /// program's, 1 + k: the k-th built-in cut out of the library).
    data: u32,
    /// The library's built-ins this kernel inlines, in the order of their data buffers.
    libs: &'a std::cell::RefCell<Vec<LibTables>>,
    /// The kernel's `__local` variables, laid out as they are first named.
    slm: &'a std::cell::RefCell<SlmLayout>,
    /// The kernel's printf calls so far.
    printf: &'a std::cell::RefCell<Vec<crate::abi::PrintfFormat>>,
    /// The kernel's SIMD width, which is its sub-group size (`isel::WIDTHS`); read through
    /// `width()`.
    simd: u8,
    /// Whether the lowered code depends on `simd` (`LoweredKernel::width_free`).
    width_read: &'a std::cell::Cell<bool>,
    /// The kernel's samplers (`LoweredKernel::samplers`); None in library code.
    samplers: Option<&'a std::cell::RefCell<Vec<SamplerSlot>>>,
    /// The shape of each image argument.
    image_shapes: HashMap<u32, ImageShape>,
}

impl Lowerer<'_, '_> {
    /// The kernel's SIMD width, noted as read: code that depends on it is not the same at
    /// another width (`LoweredKernel::width_free`).
    fn width(&self) -> u8 {
        self.width_read.set(true);
        self.simd
    }
}

/// The constant tables of a built-in a kernel inlines: its data buffer 1 + k, one per
/// library function cut out (sin's tables and exp's are separate buffers).
struct LibTables {
    /// The function's mangled name.
    name: String,
    data: LibData,
}

enum LibData {
    /// Laid out from the slice, once the kernel is known to read it.
    Slice(&'static library::Slice),
    /// Laid out already: a template carries its tables.
    Bytes(Vec<u8>),
}

impl LibTables {
    fn bytes(&self) -> Result<Vec<u8>, FrontendError> {
        Ok(match &self.data {
            LibData::Slice(s) => s.info.constant_layout()?.0.clone(),
            LibData::Bytes(b) => b.clone(),
        })
    }
}

/// The data-port atomic at `addr`: the read-modify-write `aop` with operand `x`, or (`aop`
/// None) the compare-exchange writing `x` where the old value equals `cmp`.
fn atomic_op(
    addr: Value,
    aop: Option<AtomicOp>,
    x: Value,
    cmp: Option<Value>,
) -> Result<Op, FrontendError> {
    match (aop, cmp) {
        (Some(a), _) => Ok(Op::Atomic(a, addr, x)),
        (None, Some(cmp)) => Ok(Op::CmpXchg {
            addr,
            cmp,
            value: x,
        }),
        (None, None) => invalid("compare-exchange without a comparator"),
    }
}

/// What a kernel's lowerers share: the library tables it inlines, its `__local` variables
/// and its printf calls.
type KernelTables<'a> = (
    &'a std::cell::RefCell<Vec<LibTables>>,
    &'a std::cell::RefCell<SlmLayout>,
    &'a std::cell::RefCell<Vec<crate::abi::PrintfFormat>>,
);

/// While laying out global variables: their offsets, and the relocations found so far.
type GlobalRelocs<'a> = (&'a HashMap<u32, u64>, &'a mut Vec<(u32, u32)>);

impl<'a, 'm> Lowerer<'a, 'm> {
    /// A lowerer of `info`'s code into `f` at call depth `depth`, its `__constant` tables
    /// being data buffer `data`, with the kernel's library tables, local memory and printf
    /// calls, for a kernel of SIMD width `simd` (and the flag set when the code reads it).
    fn new(
        info: &'a ModuleInfo<'m>,
        f: &'a mut Function,
        data: u32,
        depth: u32,
        (libs, slm, printf): KernelTables<'a>,
        (simd, width_read): (u8, &'a std::cell::Cell<bool>),
    ) -> Self {
        Lowerer {
            info,
            f,
            consts: HashMap::default(),
            depth,
            calls: Vec::new(),
            line: None,
            branch_lines: HashMap::default(),
            data,
            libs,
            slm,
            printf,
            simd,
            width_read,
            samplers: None,
            image_shapes: HashMap::default(),
        }
    }
}

/// A phi component waiting for its incoming values: (phi, [(value id, block label)], component).
type PendingPhi = (Value, Vec<(u32, u32)>, usize, Block);

/// Per inlined call: SPIR-V ids → symbols.
struct Frame {
    syms: HashMap<u32, Sym>,
    labels: HashMap<u32, Block>,
    /// The IR block where each SPIR-V block ends (phi predecessors).
    ends: HashMap<u32, Block>,
    /// The SPIR-V result type of each instruction lowered so far.
    types: HashMap<u32, u32>,
    /// (block ending in an OpSwitch, target) → the landing block its edge goes through.
    landing: HashMap<(Block, Block), Block>,
    /// Values loaded from a built-in vector variable (GlobalSize, ...), with what their
    /// function returns for a dimension out of range: "get_global_size returns 1 ... for
    /// other values of dimindx", get_global_id and get_global_offset 0.
    builtin_default: HashMap<u32, u64>,
    /// Pointer casts back to the pointer they started from (memcpy reaches OpCopyMemorySized
    /// through `i8*` casts; the original pointee type says how to copy).
    ptr_origin: HashMap<u32, u32>,
}

impl Lowerer<'_, '_> {
    fn arg(&mut self, b: Block, i: u32) -> Value {
        let ty = self.f.args[i as usize];
        self.f.push(b, Op::Arg(i), ty)
    }

    /// An OpenCL.std instruction implemented by the built-in library: the function with
    /// the mangled name of the instruction's C built-in and operand types, inlined (its
    /// `__constant` tables in the library's data buffer).
    fn library_call(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        which: u32,
        cur: Block,
    ) -> Result<(Block, Vec<Value>), FrontendError> {
        let op = spirv::OpenclStd100Op::from_u32(which).ok_or_else(|| {
            FrontendError::InvalidIl(format!("OpenCL.std has no instruction #{which}"))
        })?;
        let mut codes = Vec::new();
        let mut args = Vec::new();
        // Generic pointers whose space is decided at run time: the built-in (which libclc
        // has for named spaces only) writes a private temporary, copied out after the call
        // through the generic pointer. libclc's built-ins with pointers (fract, modf, sincos,
        // frexp, lgamma_r, remquo) only write through them. (pointer, temporary, pointee).
        let mut generic_out: Vec<(Value, Value, u32)> = Vec::new();
        for n in 2..i.operands.len() {
            let id = id_op(i, n)?;
            let t = fr
                .types
                .get(&id)
                .or_else(|| self.info.type_of.get(&id))
                .copied()
                .ok_or_else(|| FrontendError::InvalidIl(format!("operand %{id} has no type")))?;
            let mut vals = self.vals(fr, id)?;
            let space = match vals.first().map(|v| self.f.ty(*v)) {
                Some(Ty::Ptr(_)) => {
                    let (v, s) = self.named_pointer(cur, vals[0]);
                    vals[0] = v;
                    Some(s)
                }
                _ => None,
            };
            // A generic pointer whose space is known here goes to the built-in of that space.
            let mut space = space;
            if let (Some(Space::Generic), Some(Ty::Ptr(Space::Generic))) =
                (space, vals.first().map(|v| self.f.ty(*v)))
            {
                if let SType::Pointer(_, pointee) = self.info.ty(t)?.clone() {
                    let bytes = self.info.size_of(pointee)? as u32;
                    let align = self.info.align_of(pointee)?.max(1) as u32;
                    let temp =
                        self.f
                            .push(cur, Op::Alloca { bytes, align }, Ty::Ptr(Space::Private));
                    generic_out.push((vals[0], temp, pointee));
                    vals[0] = temp;
                    space = Some(Space::Private);
                }
            }
            codes.push(self.info.mangle_param(t, space)?);
            args.push(Sym::Vals(vals));
        }
        // ldexp's exponent clamped to ±2200, which changes no result (2^2200 takes the
        // smallest subnormal double past the largest, 2^-2200 the largest below half the
        // smallest): libclc-15's double ldexp adds it to the exponent in 32 bits, and
        // ldexp(-0x1p-1034, INT_MIN) wrapped to -inf (CTS bruteforce).
        if op == spirv::OpenclStd100Op::ldexp {
            if let Some(Sym::Vals(ns)) = args.get_mut(1) {
                let mut bld = builtins::B {
                    f: &mut *self.f,
                    b: cur,
                };
                for n in ns.iter_mut() {
                    *n = bld.clamp_exponent(*n);
                }
            }
        }
        let name = library::mangle(&format!("{op:?}"), &codes);
        if op == spirv::OpenclStd100Op::tgamma {
            if let Some(done) = self.tgamma(i, &codes, &args, cur)? {
                return Ok(done);
            }
        }
        // Half results written through pointers (modf, fract, sincos, remquo's quotient is
        // an int and stays): (half pointer, float temporary, components).
        let mut write_back: Vec<(Value, Value, u32)> = Vec::new();
        let (callee, to_half) = match self.callee(&name, &args)? {
            Some(c) if c.complete() || !codes.iter().any(has_half) => (c, false),
            // libclc-15 leaves out most half built-ins. Halves travel as the floats that
            // are them, so the float built-in computes the value and the result is rounded
            // to half: within the half ULP limits, since float is exact to far more bits.
            // A half written through a pointer goes to a private float temporary first,
            // then is rounded and stored where the caller asked. The same where libclc's
            // half built-in calls a helper libclc lacks (`ldexp`): the float one is exact,
            // and ldexp's float result rounds to half as the half result would.
            _ if codes.iter().any(has_half) => {
                let mut floats = Vec::new();
                for (k, c) in codes.iter().enumerate() {
                    match c {
                        library::Param::Pointer(_, inner) if is_half_param(inner) => {
                            let n = match **inner {
                                library::Param::Vector(n, _) => n,
                                _ => 1,
                            };
                            let slots = if n == 3 { 4 } else { n };
                            let temp = self.f.push(
                                cur,
                                Op::Alloca {
                                    bytes: 4 * slots,
                                    align: 4 * slots.min(4),
                                },
                                Ty::Ptr(Space::Private),
                            );
                            let Sym::Vals(v) = &args[k] else {
                                return invalid("a pointer argument without a value");
                            };
                            write_back.push((v[0], temp, n));
                            args[k] = Sym::Vals(vec![temp]);
                            floats
                                .push(library::Param::Pointer("P", Box::new(half_to_float(inner))));
                        }
                        other => floats.push(half_to_float(other)),
                    }
                }
                let fname = library::mangle(&format!("{op:?}"), &floats);
                match self.callee(&fname, &args)? {
                    Some(c) => (c, true),
                    None => return Err(missing_builtin(op, &name)),
                }
            }
            _ => return Err(missing_builtin(op, &name)),
        };
        // The first argument of the built-ins whose results are fixed up after the call.
        let xs = match args.first() {
            Some(Sym::Vals(v)) if builtins::fixes_library_result(op) => Some(v.clone()),
            _ => None,
        };
        let (b, vals) = match callee {
            Callee::Template(t) => self.splice(&t, args, cur)?,
            Callee::Slice(slice) => self.inline_slice(slice, args, cur)?,
        };
        // Results libclc-15 gets wrong, fixed from the first argument (`B::fix_library_result`).
        let vals = match xs {
            Some(xs) if xs.len() == vals.len() => {
                let mut bld = builtins::B { f: &mut *self.f, b };
                xs.iter()
                    .zip(vals)
                    .map(|(&x, r)| bld.fix_library_result(op, x, r))
                    .collect()
            }
            _ => vals,
        };
        for (dst, temp, n) in write_back {
            for c in 0..n {
                let at = self.offset(b, temp, 4 * u64::from(c));
                let load = Op::Load {
                    addr: at,
                    align: 4,
                    bytes: 4,
                };
                let f = self.f.push(b, load, Ty::F32);
                let h = self.half_out(b, f);
                let to = self.offset(b, dst, 2 * u64::from(c));
                let st = Op::Store {
                    addr: to,
                    value: h,
                    align: 2,
                    bytes: 2,
                };
                self.f.push(b, st, Ty::Void);
            }
        }
        // After the halves' write-back, which fills these temporaries (a half built-in's
        // pointer result through a generic pointer goes float temp → half temp → pointer).
        for (dst, temp, pointee) in generic_out {
            let align = self.info.align_of(pointee)?.max(1) as u32;
            let v = self.load(b, temp, pointee, align)?;
            self.store_vals(b, dst, pointee, &v, align)?;
        }
        let half_result = i.result_type.is_some_and(|t| self.info.is_half(t));
        if !to_half || !half_result {
            return Ok((b, vals));
        }
        let vals = vals.into_iter().map(|v| self.round_half(b, v)).collect();
        Ok((b, vals))
    }

    /// A built-in lowered in place from its library slice (one that has no template).
    fn inline_slice(
        &mut self,
        slice: &'static library::Slice,
        args: Vec<Sym>,
        cur: Block,
    ) -> Result<(Block, Vec<Value>), FrontendError> {
        let data = self.lib_index(&slice.name, || LibData::Slice(slice));
        let (libs, slm, printf) = (self.libs, self.slm, self.printf);
        let mut sub = Lowerer::new(
            &slice.info,
            self.f,
            data,
            self.depth,
            (libs, slm, printf),
            (self.simd, self.width_read),
        );
        sub.lower_call(slice.fid, args, cur)
    }

    /// The data buffer (1 + k) of the tables of library function `name`, added on first
    /// use.
    fn lib_index(&self, name: &str, data: impl FnOnce() -> LibData) -> u32 {
        let mut libs = self.libs.borrow_mut();
        let k = match libs.iter().position(|l| l.name == name) {
            Some(k) => k,
            None => {
                libs.push(LibTables {
                    name: name.to_string(),
                    data: data(),
                });
                libs.len() - 1
            }
        };
        1 + k as u32
    }

    /// vloadn/vstoren and the vload_half/vstore_half family: loads and stores of `n`
    /// consecutive elements at `p + offset * n` (`vloada_`/`vstorea_`: vec3 strides as 4).
    /// shuffle and shuffle2: whole-vector built-ins (OpenCL C 6.15.12). Component k of the
    /// result is component `mask[k]` of x (of x then y for shuffle2), where "only the
    /// ilogb(2m-1) least significant bits of each mask element are considered". A constant
    /// mask component picks its source directly; a run-time one walks a tree of selects on the
    /// index bits.
    fn shuffle(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        which: u32,
        b: Block,
    ) -> Result<Option<Vec<Value>>, FrontendError> {
        use spirv::OpenclStd100Op as C;
        let two = match C::from_u32(which) {
            Some(C::shuffle) => false,
            Some(C::shuffle2) => true,
            _ => return Ok(None),
        };
        let mut src = self.vals(fr, id_op(i, 2)?)?;
        if two {
            src.extend(self.vals(fr, id_op(i, 3)?)?);
        }
        let mask = self.vals(fr, id_op(i, if two { 4 } else { 3 })?)?;
        if !src.len().is_power_of_two() {
            return invalid(format!("shuffle of {} components", src.len()));
        }
        let bits = src.len().trailing_zeros();
        let mut out = Vec::with_capacity(mask.len());
        for &m in &mask {
            if let Op::Const(k) = self.f.inst(m).op {
                out.push(src[(k as usize) & (src.len() - 1)]);
                continue;
            }
            let mty = self.f.ty(m);
            let mut level = src.clone();
            for bit in 0..bits {
                let one = self.konst(mty, 1 << bit);
                let set = self.f.push(b, Op::Bin(BinOp::And, m, one), mty);
                let zero = self.konst(mty, 0);
                let hit = self.f.push(b, Op::Cmp(CmpOp::Ne, set, zero), Ty::Bool);
                level = level
                    .chunks(2)
                    .map(|p| {
                        let t = self.f.ty(p[0]);
                        self.f.push(b, Op::Select(hit, p[1], p[0]), t)
                    })
                    .collect();
            }
            out.push(level[0]);
        }
        Ok(Some(out))
    }

    fn vector_memory(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        which: u32,
        tid: u32,
        b: Block,
    ) -> Result<Option<Vec<Value>>, FrontendError> {
        use spirv::OpenclStd100Op as C;
        let Some(op) = C::from_u32(which) else {
            return Ok(None);
        };
        let id = |k: usize| id_op(i, 2 + k);
        // Literal operands of an extended instruction arrive as ids from rspirv.
        let lit_n = |k: usize| match i.operands.get(2 + k) {
            Some(Operand::IdRef(n)) | Some(Operand::LiteralBit32(n)) => Ok(*n),
            other => invalid(format!("{op:?}: operand {k} is not a count: {other:?}")),
        };
        // The rounding mode of vstore_half_r: an FPRoundingMode operand (0 RTE, 1 RTZ,
        // 2 RTP, 3 RTN), which rspirv reads as an id, as every operand of an extended
        // instruction.
        let store_round = |k: usize| -> Result<ir::Round, FrontendError> {
            let m = match i.operands.get(2 + k) {
                Some(Operand::FPRoundingMode(m)) => *m as u32,
                Some(Operand::LiteralBit32(m)) | Some(Operand::IdRef(m)) => *m,
                other => {
                    return invalid(format!("vstore_half_r without a rounding mode: {other:?}"))
                }
            };
            Ok(match m {
                0 => ir::Round::Rte,
                1 => ir::Round::Rtz,
                2 => ir::Round::Rtp,
                3 => ir::Round::Rtn,
                _ => return invalid(format!("rounding mode {m}")),
            })
        };
        match op {
            C::vloadn => {
                let n = lit_n(2)?;
                let esize = self.elem_size(tid)?;
                let base = self.val(fr, id(1)?)?;
                let addr = self.index(b, base, fr, id(0)?, esize * n as u64)?;
                Ok(Some(self.load(b, addr, tid, esize as u32)?))
            }
            C::vload_half | C::vload_halfn | C::vloada_halfn => {
                let n = if op == C::vload_half { 1 } else { lit_n(2)? };
                let stride = if op == C::vloada_halfn && n == 3 {
                    4
                } else {
                    n
                };
                let base = self.val(fr, id(1)?)?;
                let addr = self.index(b, base, fr, id(0)?, 2 * stride as u64)?;
                let mut out = Vec::new();
                for c in 0..n {
                    let a = self.offset(b, addr, 2 * c as u64);
                    let op = Op::Load {
                        addr: a,
                        align: 2,
                        bytes: 2,
                    };
                    let bits = self.f.push(b, op, Ty::I32);
                    out.push(self.half_in(b, bits));
                }
                Ok(Some(out))
            }
            C::vstoren => {
                let data_id = id(0)?;
                let data = self.vals(fr, data_id)?;
                let dt = fr
                    .types
                    .get(&data_id)
                    .or_else(|| self.info.type_of.get(&data_id))
                    .copied()
                    .ok_or_else(|| FrontendError::InvalidIl("vstoren data has no type".into()))?;
                let esize = self.elem_size(dt)?;
                let base = self.val(fr, id(2)?)?;
                let addr = self.index(b, base, fr, id(1)?, esize * data.len() as u64)?;
                let half = self.info.is_half(dt);
                for (c, v) in data.iter().enumerate() {
                    let a = self.offset(b, addr, esize * c as u64);
                    let v = if half { self.half_out(b, *v) } else { *v };
                    let op = Op::Store {
                        addr: a,
                        value: v,
                        align: esize as u32,
                        bytes: esize as u32,
                    };
                    self.f.push(b, op, Ty::Void);
                }
                Ok(Some(Vec::new()))
            }
            C::vstore_half
            | C::vstore_half_r
            | C::vstore_halfn
            | C::vstore_halfn_r
            | C::vstorea_halfn
            | C::vstorea_halfn_r => {
                let round = if matches!(
                    op,
                    C::vstore_half_r | C::vstore_halfn_r | C::vstorea_halfn_r
                ) {
                    store_round(3)?
                } else {
                    ir::Round::Rte
                };
                let data = self.vals(fr, id(0)?)?;
                let n = data.len() as u64;
                let aligned = matches!(op, C::vstorea_halfn | C::vstorea_halfn_r);
                let stride = if aligned && n == 3 { 4 } else { n };
                let base = self.val(fr, id(2)?)?;
                let addr = self.index(b, base, fr, id(1)?, 2 * stride)?;
                for (c, v) in data.iter().enumerate() {
                    let a = self.offset(b, addr, 2 * c as u64);
                    let h = if self.f.ty(*v) == Ty::F64 && round != ir::Round::Rte {
                        // Through float in the same mode (see `half_special`).
                        let f = self
                            .f
                            .push(b, Op::ConvRound(ConvOp::FConv, *v, round), Ty::F32);
                        self.f
                            .push(b, Op::ConvRound(ConvOp::ToHalf, f, round), Ty::I32)
                    } else if self.f.ty(*v) == Ty::F64 {
                        let r = self.double_to_half(b, *v);
                        self.f.push(b, Op::Un(UnOp::FloatToHalf, r), Ty::I32)
                    } else if round == ir::Round::Rte {
                        self.f.push(b, Op::Un(UnOp::FloatToHalf, *v), Ty::I32)
                    } else {
                        self.f
                            .push(b, Op::ConvRound(ConvOp::ToHalf, *v, round), Ty::I32)
                    };
                    let op = Op::Store {
                        addr: a,
                        value: h,
                        align: 2,
                        bytes: 2,
                    };
                    self.f.push(b, op, Ty::Void);
                }
                Ok(Some(Vec::new()))
            }
            _ => Ok(None),
        }
    }

    /// A half at `offset` in by-value argument `arg`.
    fn pushed_half(&mut self, b: Block, arg: u32, offset: u32) -> Value {
        let op = Op::ArgAt {
            arg,
            offset,
            bytes: 2,
        };
        let bits = self.f.push(b, op, Ty::I32);
        self.half_in(b, bits)
    }

    /// A half's 16 bits as the float that is that half, NaNs bit for bit (`B::half_in`).
    fn half_in(&mut self, b: Block, bits: Value) -> Value {
        builtins::B { f: &mut *self.f, b }.half_in(bits)
    }

    /// A half carried as a float as its 16 bits, NaNs kept (`B::half_out`).
    fn half_out(&mut self, b: Block, v: Value) -> Value {
        builtins::B { f: &mut *self.f, b }.half_out(v)
    }

    /// `v` rounded to half precision (to nearest even).
    fn round_half(&mut self, b: Block, v: Value) -> Value {
        let h = self.f.push(b, Op::Un(UnOp::FloatToHalf, v), Ty::I32);
        self.f.push(b, Op::Un(UnOp::HalfToFloat, h), Ty::F32)
    }

    /// A double rounded to half exactly once: to float toward zero, with the lowest bit
    /// set when that was inexact (round to odd), then to half to nearest even. Rounding to
    /// odd at 24 bits keeps the information the second rounding at 11 bits needs.
    fn double_to_half(&mut self, b: Block, x: Value) -> Value {
        let rz = self
            .f
            .push(b, Op::ConvRound(ConvOp::FConv, x, ir::Round::Rtz), Ty::F32);
        let back = self.f.push(b, Op::Conv(ConvOp::FConv, rz), Ty::F64);
        let exact = self.f.push(b, Op::Cmp(CmpOp::FUEq, back, x), Ty::Bool);
        let bits = self.f.push(b, Op::Conv(ConvOp::Bitcast, rz), Ty::I32);
        let one = self.konst(Ty::I32, 1);
        let odd = self.f.push(b, Op::Bin(BinOp::Or, bits, one), Ty::I32);
        let r = self.f.push(b, Op::Select(exact, bits, odd), Ty::I32);
        let f = self.f.push(b, Op::Conv(ConvOp::Bitcast, r), Ty::F32);
        self.round_half(b, f)
    }

    /// Kernel argument `i` of `bytes` bytes: a narrow integer read from its pushed dword
    /// keeps only its own bytes (the rest belong to the next argument).
    fn arg_sized(&mut self, b: Block, i: u32, bytes: u32) -> Value {
        let ty = self.f.args[i as usize];
        if ty == Ty::F32 && bytes == 2 {
            return self.pushed_half(b, i, 0);
        }
        if ty.is_int() && bytes < ty.bytes() {
            let op = Op::ArgAt {
                arg: i,
                offset: 0,
                bytes,
            };
            self.f.push(b, op, ty)
        } else {
            self.arg(b, i)
        }
    }

    /// The SLM offset of the `__local` variable `id` (of type `pointee`), placed after the
    /// others on first use. The pointer is the offset itself: SLM messages take 32-bit
    /// offsets, and the runtime's `__local` arguments are offsets too.
    fn slm_offset(&mut self, id: u32, pointee: u32) -> Result<u32, FrontendError> {
        let key = (self.info as *const ModuleInfo as usize, id);
        let bytes = self.info.size_of(pointee)?;
        let align = self.info.align_of(pointee)?;
        match self.slm.borrow_mut().reserve(key, bytes, align) {
            Some((off, _)) => Ok(off),
            None => {
                let name = self.info.names.get(&id).cloned().unwrap_or_default();
                Err(FrontendError::Unsupported(format!(
                    "the kernel's __local variables (with '{name}', {bytes} bytes) exceed \
                     the device's {} bytes of local memory",
                    crate::abi::SLM_BYTES
                )))
            }
        }
    }

    /// One atomic at `addr` on values of `ty` (integers, or floats by their bits): the
    /// read-modify-write `aop` with operand `x`, or (`aop` None) a compare-exchange writing
    /// `x` where the old value equals `cmp`. Returns the block after and the old value, as a `ty`.
    fn atomic(
        &mut self,
        cur: Block,
        addr: Value,
        aop: Option<AtomicOp>,
        x: Value,
        cmp: Option<Value>,
        ty: Ty,
    ) -> Result<(Block, Value), FrontendError> {
        let it = atomic_int(ty)?;
        let x = self.as_int(cur, x, it);
        let cmp = cmp.map(|c| self.as_int(cur, c, it));
        // A 64-bit atomic on local memory (or through a generic pointer that may point
        // there) becomes a locked loop over the lanes (`passes::local_atomics64`), code that
        // depends on the width.
        let (named, space) = self.named_pointer(cur, addr);
        let addr = if it == Ty::I64 && space == Space::Local {
            named
        } else {
            addr
        };
        if it == Ty::I64 && matches!(space, Space::Local | Space::Generic) {
            self.width();
        }
        let (b, old) = (cur, self.f.push(cur, atomic_op(addr, aop, x, cmp)?, it));
        let old = if it == ty {
            old
        } else {
            self.f.push(b, Op::Conv(ConvOp::Bitcast, old), ty)
        };
        Ok((b, old))
    }

    /// printf: an `Op::Printf` of the call's format and arguments (`passes::printf` writes
    /// the record). The format and `%s` arguments must be string literals (OpenCL C
    /// 6.15.14.2: "the format ... must be a literal string"; "%s ... only literal
    /// strings"), so they are kept with the kernel; the record holds the format's index
    /// and the other arguments, 8-, 16-bit and boolean ones widened to 32 bits and halves
    /// to float, as C's default argument promotions do. Returns the block after the call
    /// and printf's result.
    fn printf(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        pre: Block,
    ) -> Result<(Block, Value), FrontendError> {
        use crate::abi::{PrintfArg, PrintfFormat};
        let fmt = self.val(fr, id_op(i, 2)?)?;
        let format = self.const_string(fmt).ok_or_else(|| {
            FrontendError::Unsupported("printf whose format is not a literal".into())
        })?;
        let mut args = Vec::new();
        let mut comps: Vec<(Value, u32)> = Vec::new();
        for n in 3..i.operands.len() {
            let vals = self.vals(fr, id_op(i, n)?)?;
            if let [p] = vals.as_slice() {
                if matches!(self.f.ty(*p), Ty::Ptr(_)) {
                    if let Some(s) = self.const_string(*p) {
                        args.push(PrintfArg::Str(s));
                        continue;
                    }
                }
            }
            let mut float = None;
            let mut bytes = 4;
            for v in &vals {
                let (v, b, f) = match self.f.ty(*v) {
                    Ty::Bool | Ty::I8 | Ty::I16 => (
                        self.f.push(pre, Op::Conv(ConvOp::ZExt, *v), Ty::I32),
                        4,
                        false,
                    ),
                    Ty::I32 => (*v, 4, false),
                    Ty::I64 | Ty::Ptr(_) => (*v, 8, false),
                    Ty::F32 => (*v, 4, true),
                    Ty::F64 => (*v, 8, true),
                    Ty::F16 => (
                        self.f.push(pre, Op::Un(UnOp::HalfToFloat, *v), Ty::F32),
                        4,
                        true,
                    ),
                    Ty::Void => return invalid("printf of a void value"),
                };
                float = Some(f);
                bytes = b;
                comps.push((v, b));
            }
            let components = vals.len() as u32;
            args.push(if float == Some(true) {
                PrintfArg::Float { bytes, components }
            } else {
                PrintfArg::Int { bytes, components }
            });
        }
        let index = {
            let mut p = self.printf.borrow_mut();
            p.push(PrintfFormat { format, args });
            p.len() as u32 - 1
        };
        let args = comps.into_iter().map(|(v, _)| v).collect();
        let r = self.f.push(
            pre,
            Op::Printf {
                format: index,
                args,
            },
            Ty::I32,
        );
        Ok((pre, r))
    }

    /// The NUL-terminated bytes a pointer into this module's `__constant` data points at,
    /// when the pointer is a constant offset into it (a string literal).
    fn const_string(&self, p: Value) -> Option<String> {
        let mut v = p;
        let mut off = 0u64;
        loop {
            match &self.f.inst(v).op {
                Op::PtrAdd(b, k) => {
                    let Op::Const(c) = self.f.inst(*k).op else {
                        return None;
                    };
                    off = off.wrapping_add(c);
                    v = *b;
                }
                Op::Conv(ConvOp::Bitcast, b) => v = *b,
                Op::ConstData(n) if *n == self.data => break,
                _ => return None,
            }
        }
        let data = &self.info.constant_layout().ok()?.0;
        let tail = data.get(off as usize..)?;
        let end = tail.iter().position(|b| *b == 0)?;
        Some(String::from_utf8_lossy(&tail[..end]).into_owned())
    }

    /// `v` as the integer type `it` of its size (a float's bits).
    fn as_int(&mut self, cur: Block, v: Value, it: Ty) -> Value {
        if self.f.ty(v) == it {
            v
        } else {
            self.f.push(cur, Op::Conv(ConvOp::Bitcast, v), it)
        }
    }

    fn konst(&mut self, ty: Ty, bits: u64) -> Value {
        self.f.push(Block(0), Op::Const(bits), ty)
    }

    fn global_const(&mut self, id: u32) -> Result<Vec<Value>, FrontendError> {
        if let Some(v) = self.consts.get(&id) {
            return Ok(v.clone());
        }
        if let Some(off) = self.info.constant_offset(id)? {
            let base = self
                .f
                .push(Block(0), Op::ConstData(self.data), Ty::Ptr(Space::Constant));
            let v = self.offset(Block(0), base, off);
            self.consts.insert(id, vec![v]);
            return Ok(vec![v]);
        }
        if let Some(&pointee) = self.info.local_vars.get(&id) {
            let off = self.slm_offset(id, pointee)?;
            let v = self
                .f
                .push(Block(0), Op::Const(off.into()), Ty::Ptr(Space::Local));
            self.consts.insert(id, vec![v]);
            return Ok(vec![v]);
        }
        if let Some(off) = self.info.global_offset(id)? {
            if self.data != 0 {
                return unsupported("a global variable of the built-in library");
            }
            let base = self
                .f
                .push(Block(0), Op::GlobalVars, Ty::Ptr(Space::Global));
            let v = self.offset(Block(0), base, off);
            self.consts.insert(id, vec![v]);
            return Ok(vec![v]);
        }
        if let Some(name) = self.info.globals.get(&id) {
            return unsupported(format!(
                "program-scope variable '{name}' in an address space other than global, \
                 constant or local"
            ));
        }
        if self.info.address_constants.contains_key(&id) {
            return unsupported("an address constant (OpSpecConstantOp) used in code");
        }
        let i = *self
            .info
            .constants
            .get(&id)
            .ok_or_else(|| FrontendError::InvalidIl(format!("%{id} is not defined")))?;
        let tid = i
            .result_type
            .ok_or_else(|| FrontendError::InvalidIl("constant without a type".into()))?;
        let ty = self.info.scalar(tid)?;
        let n = self.info.components(tid)?;
        let vals = match i.class.opcode {
            SOp::Constant => {
                let bits = match i.operands.first() {
                    Some(Operand::LiteralBit32(v)) => *v as u64,
                    Some(Operand::LiteralBit64(v)) => *v,
                    _ => return invalid("OpConstant without a literal"),
                };
                let bits = match self.info.odd_width(tid) {
                    Some(w) => bits & ((1u64 << w) - 1),
                    None if self.info.is_half(tid) => half_to_f32(bits as u16).to_bits() as u64,
                    None => bits,
                };
                vec![self.konst(ty, bits)]
            }
            // Booleans are 0 or all ones, as cmp writes them (a constant true of 1 would
            // make `xor true` a wrong logical not).
            SOp::ConstantTrue => vec![self.konst(Ty::Bool, 0xffff_ffff)],
            SOp::ConstantFalse => vec![self.konst(Ty::Bool, 0)],
            SOp::ConstantNull | SOp::Undef => (0..n.max(1)).map(|_| self.konst(ty, 0)).collect(),
            SOp::ConstantComposite => {
                let mut v = Vec::new();
                for o in &i.operands {
                    if let Operand::IdRef(c) = o {
                        v.extend(self.global_const(*c)?);
                    }
                }
                v
            }
            other => return unsupported(format!("constant {other:?}")),
        };
        self.consts.insert(id, vals.clone());
        Ok(vals)
    }

    /// The image argument an id stands for.
    fn image_of(&self, fr: &Frame, id: u32) -> Result<u32, FrontendError> {
        match fr.syms.get(&id) {
            Some(Sym::Image(n)) => Ok(*n),
            _ => invalid(format!("%{id} is not an image argument")),
        }
    }

    fn image_shape(&self, image: u32) -> Result<ImageShape, FrontendError> {
        self.image_shapes
            .get(&image)
            .copied()
            .ok_or_else(|| FrontendError::InvalidIl(format!("argument {image} is not an image")))
    }

    /// The index of constant sampler `id` among the kernel's samplers (added at its first use).
    fn sampler_index(&mut self, id: u32) -> Result<u32, FrontendError> {
        let slot = self.info.const_samplers[&id];
        let Some(samplers) = self.samplers else {
            return unsupported("a sampler in library code");
        };
        let mut s = samplers.borrow_mut();
        let k = match s.iter().position(|x| *x == slot) {
            Some(k) => k,
            None => {
                s.push(slot);
                s.len() - 1
            }
        };
        if k >= 16 {
            return unsupported("more than 16 samplers in a kernel");
        }
        Ok(k as u32)
    }

    fn vals(&mut self, fr: &Frame, id: u32) -> Result<Vec<Value>, FrontendError> {
        match fr.syms.get(&id) {
            // An operand with no components (a void call's result, an empty struct) is no
            // value: every user indexes its first component.
            Some(Sym::Vals(v)) if v.is_empty() => invalid(format!("%{id} has no value")),
            Some(Sym::Vals(v)) => Ok(v.clone()),
            Some(Sym::Undef) => {
                let tid = *self
                    .info
                    .type_of
                    .get(&id)
                    .ok_or_else(|| FrontendError::InvalidIl(format!("%{id} has no type")))?;
                let ty = self.info.scalar(tid)?;
                let n = self.info.components(tid)?.max(1);
                Ok((0..n).map(|_| self.konst(ty, 0)).collect())
            }
            Some(Sym::Image(_) | Sym::Sampler(_) | Sym::SampledImage(..)) => {
                invalid(format!("%{id}, an image or sampler, used as a value"))
            }
            None => self.global_const(id),
        }
    }

    fn val(&mut self, fr: &Frame, id: u32) -> Result<Value, FrontendError> {
        let v = self.vals(fr, id)?;
        match v.as_slice() {
            [x] => Ok(*x),
            _ => invalid(format!(
                "%{id} used as a scalar but has {} components",
                v.len()
            )),
        }
    }

    /// Inline function `fid` starting in IR block `entry`; returns the block
    /// control reaches after it returns, and the returned value's components.
    fn lower_call(
        &mut self,
        fid: u32,
        args: Vec<Sym>,
        entry: Block,
    ) -> Result<(Block, Vec<Value>), FrontendError> {
        // "Recursion is not supported" (OpenCL C 3.0, 6.11 restrictions): named as the cycle
        // of calls, from the function called again.
        if let Some(at) = self.calls.iter().position(|f| *f == fid) {
            let chain: Vec<String> = self.calls[at..]
                .iter()
                .chain([&fid])
                .map(|f| self.function_name(*f))
                .collect();
            return unsupported(format!("recursion ({})", chain.join(" calls ")));
        }
        self.depth += 1;
        if self.depth > 64 {
            return unsupported("calls nested more than 64 deep");
        }
        self.calls.push(fid);
        let caller_line = self.line.take();
        let f =
            *self.info.functions.get(&fid).ok_or_else(|| {
                FrontendError::InvalidIl(format!("call of %{fid}, not a function"))
            })?;
        if f.blocks.is_empty() {
            let name = self
                .info
                .names
                .get(&fid)
                .cloned()
                .unwrap_or_else(|| format!("%{fid}"));
            return unsupported(format!(
                "call of the undefined function '{name}' (library functions are not linked yet)"
            ));
        }
        if f.parameters.len() != args.len() {
            return invalid("call with the wrong number of arguments");
        }
        let mut fr = Frame {
            syms: HashMap::default(),
            labels: HashMap::default(),
            ends: HashMap::default(),
            types: HashMap::default(),
            landing: HashMap::default(),
            builtin_default: HashMap::default(),
            ptr_origin: HashMap::default(),
        };
        for (p, a) in f.parameters.iter().zip(args) {
            let pid = result_id(p)?;
            let a = match (&a, p.result_type) {
                // Pass by value: the callee works on a copy of its own, so that its writes
                // never reach the caller's aggregate.
                (Sym::Vals(v), Some(tid)) if self.info.byval.contains(&pid) && v.len() == 1 => {
                    let SType::Pointer(_, pointee) = self.info.ty(tid)?.clone() else {
                        return invalid("a ByVal parameter that is not a pointer");
                    };
                    let bytes = self.info.size_of(pointee)? as u32;
                    let align = self.info.align_of(pointee)? as u32;
                    let copy =
                        self.f
                            .push(entry, Op::Alloca { bytes, align }, Ty::Ptr(Space::Private));
                    let vals = self.load(entry, v[0], pointee, align)?;
                    self.store_vals(entry, copy, pointee, &vals, align)?;
                    Sym::Vals(vec![copy])
                }
                _ => a,
            };
            fr.syms.insert(pid, a);
        }
        for (n, b) in f.blocks.iter().enumerate() {
            let label = b
                .label
                .as_ref()
                .and_then(|l| l.result_id)
                .ok_or_else(|| FrontendError::InvalidIl("block without a label".into()))?;
            let ir = if n == 0 { entry } else { self.f.add_block() };
            fr.labels.insert(label, ir);
        }
        let exit = self.f.add_block();
        let mut returns: Vec<(Block, Vec<Value>)> = Vec::new();
        let mut phis: Vec<PendingPhi> = Vec::new();
        for b in dominance_order(&f.blocks) {
            let label = b
                .label
                .as_ref()
                .and_then(|l| l.result_id)
                .unwrap_or_default();
            let mut cur = *fr
                .labels
                .get(&label)
                .ok_or_else(|| FrontendError::InvalidIl("block without a label".into()))?;
            for i in &b.instructions {
                // An atomic's memory order: a release orders the work-item's earlier
                // accesses before it (a fence first), an acquire its later ones after it (a
                // fence after); sequentially consistent is both. The fences are for the
                // memory the atomic's address points into (`Op::AtomicFence`).
                let (release, acquire) = self.atomic_order(i)?;
                let order = if release || acquire {
                    Some(self.val(&fr, id_op(i, 0)?)?)
                } else {
                    None
                };
                if let (true, Some(addr)) = (release, order) {
                    self.f.push(cur, Op::AtomicFence(addr), Ty::Void);
                }
                match i.class.opcode {
                    SOp::Line => {
                        if let (Ok(file), Ok(line), Ok(col)) =
                            (id_op(i, 0), lit_op(i, 1), lit_op(i, 2))
                        {
                            self.line = Some((file, line, col));
                        }
                    }
                    SOp::NoLine => self.line = None,
                    SOp::Branch | SOp::BranchConditional | SOp::Switch => {
                        if let Some(at) = self.line {
                            self.branch_lines.insert(cur, at);
                        }
                    }
                    _ => {}
                }
                cur = self
                    .lower_inst(&mut fr, i, cur, exit, &mut returns, &mut phis)
                    .map_err(|e| self.locate(e))?;
                if let (true, Some(addr)) = (acquire, order) {
                    self.f.push(cur, Op::AtomicFence(addr), Ty::Void);
                }
            }
            fr.ends.insert(label, cur);
        }
        // Phis: every incoming value is lowered by now.
        for (phi, incoming, comp, at) in phis {
            let mut ins = Vec::new();
            for (val, label) in incoming {
                let end = *fr.ends.get(&label).ok_or_else(|| {
                    FrontendError::InvalidIl(format!("phi names unknown block %{label}"))
                })?;
                // An edge out of a switch arrives through its landing block.
                let pred = fr.landing.get(&(end, at)).copied().unwrap_or(end);
                let v = self.vals(&fr, val)?;
                let c = *v.get(comp).ok_or_else(|| {
                    FrontendError::InvalidIl("phi operand of the wrong width".into())
                })?;
                ins.push((pred, c));
            }
            self.f.insts[phi.0 as usize].op = Op::Phi(ins);
        }
        // The returned value, one phi per scalar leaf (vectors, structs and arrays travel as
        // their leaves).
        let n = returns.first().map_or(0, |(_, v)| v.len());
        if returns.iter().any(|(_, v)| v.len() != n) {
            return invalid("returns of different widths in one function");
        }
        let mut result = Vec::new();
        for c in 0..n {
            let ins: Vec<(Block, Value)> = returns.iter().map(|(b, v)| (*b, v[c])).collect();
            if ins.len() == 1 {
                result.push(ins[0].1);
            } else {
                let ty = self.f.ty(ins[0].1);
                result.push(self.f.push(exit, Op::Phi(ins), ty));
            }
        }
        self.depth -= 1;
        self.calls.pop();
        self.line = caller_line;
        Ok((exit, result))
    }

    /// A function's name for messages: its OpName, or its id.
    fn function_name(&self, fid: u32) -> String {
        self.info
            .names
            .get(&fid)
            .map(|n| format!("'{n}'"))
            .unwrap_or_else(|| format!("%{fid}"))
    }

    /// `e` at the current OpLine's position (file name without its folder), unless it has
    /// one already from a deeper call.
    fn locate(&self, e: FrontendError) -> FrontendError {
        match self.line {
            Some(at) => self.info.located(at, e),
            None => e,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn lower_inst(
        &mut self,
        fr: &mut Frame,
        i: &dr::Instruction,
        cur: Block,
        exit: Block,
        returns: &mut Vec<(Block, Vec<Value>)>,
        phis: &mut Vec<PendingPhi>,
    ) -> Result<Block, FrontendError> {
        let op = i.class.opcode;
        let rty = i.result_type;
        if let (Some(id), Some(t)) = (i.result_id, rty) {
            fr.types.insert(id, t);
        }
        let casts_pointer = matches!(
            op,
            SOp::Bitcast
                | SOp::PtrCastToGeneric
                | SOp::GenericCastToPtr
                | SOp::GenericCastToPtrExplicit
        ) && rty
            .is_some_and(|t| matches!(self.info.ty(t), Ok(SType::Pointer(..))));
        if casts_pointer {
            if let (Some(r), Ok(src)) = (i.result_id, id_op(i, 0)) {
                let origin = fr.ptr_origin.get(&src).copied().unwrap_or(src);
                fr.ptr_origin.insert(r, origin);
            }
        }
        macro_rules! define {
            ($v:expr) => {{
                let id = result_id(i)?;
                fr.syms.insert(id, Sym::Vals($v));
            }};
        }
        match op {
            SOp::Nop
            | SOp::Line
            | SOp::NoLine
            | SOp::LifetimeStart
            | SOp::LifetimeStop
            | SOp::SelectionMerge
            | SOp::LoopMerge => {}
            SOp::Undef => {
                fr.syms.insert(result_id(i)?, Sym::Undef);
            }
            SOp::SampledImage => {
                let image = self.image_of(fr, id_op(i, 0)?)?;
                let s = id_op(i, 1)?;
                let sampler = match fr.syms.get(&s) {
                    Some(Sym::Sampler(k)) => *k,
                    _ if self.info.const_samplers.contains_key(&s) => self.sampler_index(s)?,
                    _ => return unsupported("a sampler not known when the kernel is compiled"),
                };
                fr.syms
                    .insert(result_id(i)?, Sym::SampledImage(image, sampler));
            }
            SOp::ImageSampleExplicitLod | SOp::ImageRead => {
                let tid = rty.ok_or_else(|| FrontendError::InvalidIl("image read without a type".into()))?;
                let (image, sampler) = match (op, fr.syms.get(&id_op(i, 0)?)) {
                    (SOp::ImageSampleExplicitLod, Some(Sym::SampledImage(img, s))) => (*img, Some(*s)),
                    (SOp::ImageRead, Some(Sym::Image(img))) => (*img, None),
                    _ => return invalid("an image read of something other than an image argument"),
                };
                // OpenCL's reads take LOD 0 (no cl_khr_mipmap_image): an explicit LOD must be
                // the constant 0.
                if op == SOp::ImageSampleExplicitLod {
                    let lod = id_op(i, 3)?;
                    let v = self.val(fr, lod)?;
                    if !matches!(self.f.inst(v).op, Op::Const(0)) {
                        return unsupported("an image read with a level of detail other than 0");
                    }
                }
                let shape = self.image_shape(image)?;
                let mut coords = self.vals(fr, id_op(i, 1)?)?;
                if coords.len() < usize::from(shape.coords) {
                    return invalid("image coordinates with too few components");
                }
                coords.truncate(usize::from(shape.coords));
                // A sampler takes float coordinates (integer ones converted, as IGC does);
                // a load integer ones.
                let want = if sampler.is_some() { Ty::F32 } else { Ty::I32 };
                for c in coords.iter_mut() {
                    match (self.f.ty(*c), want) {
                        (a, b) if a == b => {}
                        (Ty::I32, Ty::F32) => *c = self.f.push(cur, Op::Conv(ConvOp::SToF, *c), Ty::F32),
                        (t, _) => return unsupported(format!("image coordinates of type {t:?}")),
                    }
                }
                let ty = match self.info.scalar(tid)? {
                    t @ (Ty::F32 | Ty::I32) => t,
                    t => return unsupported(format!("image reads of {t:?} (read_imageh)")),
                };
                let n = self.info.components(tid)?.clamp(1, 4);
                let vals: Vec<Value> = (0..n)
                    .map(|k| {
                        self.f.push(
                            cur,
                            Op::ImageRead {
                                image,
                                sampler,
                                coords: coords.clone(),
                                channel: k as u8,
                            },
                            ty,
                        )
                    })
                    .collect();
                define!(vals);
            }
            SOp::ImageWrite => {
                let image = self.image_of(fr, id_op(i, 0)?)?;
                let shape = self.image_shape(image)?;
                let mut coords = self.vals(fr, id_op(i, 1)?)?;
                if coords.len() < usize::from(shape.coords)
                    || coords.iter().any(|c| self.f.ty(*c) != Ty::I32)
                {
                    return invalid("image write coordinates: too few, or not 32-bit integers");
                }
                coords.truncate(usize::from(shape.coords));
                let mut values = self.vals(fr, id_op(i, 2)?)?;
                // A depth image's texel is one float (write_imagef(image2d_depth_t, ..., float)):
                // the typed write's red channel; the others are not stored.
                if shape.depth && values.len() == 1 && self.f.ty(values[0]) == Ty::F32 {
                    let zero = self.konst(Ty::F32, 0);
                    values.extend([zero; 3]);
                }
                if values.len() != 4 || values.iter().any(|v| !matches!(self.f.ty(*v), Ty::F32 | Ty::I32)) {
                    return unsupported("image writes of other than four floats or integers (write_imageh)");
                }
                self.f.push(
                    cur,
                    Op::ImageWrite {
                        image,
                        coords,
                        values,
                    },
                    Ty::Void,
                );
            }
            SOp::ImageQuerySizeLod | SOp::ImageQuerySize => {
                use crate::abi::ObjectParam as P;
                let image = self.image_of(fr, id_op(i, 0)?)?;
                let shape = self.image_shape(image)?;
                let tid = rty.ok_or_else(|| FrontendError::InvalidIl("a size query without a type".into()))?;
                let ty = self.info.scalar(tid)?;
                let n = self.info.components(tid)?.max(1) as usize;
                let mut params = vec![P::ImageWidth];
                match (shape.dim, shape.arrayed) {
                    (1, _) => params.push(P::ImageHeight),
                    (2, _) => params.extend([P::ImageHeight, P::ImageDepth]),
                    _ => {}
                }
                if shape.arrayed {
                    params.push(P::ImageArraySize);
                }
                if n > params.len() {
                    return invalid("an image size query with more components than the image");
                }
                let vals: Vec<Value> = params[..n]
                    .iter()
                    .map(|&param| {
                        let v = self.f.push(cur, Op::ImageParam { arg: image, param }, Ty::I32);
                        if ty == Ty::I64 {
                            self.f.push(cur, Op::Conv(ConvOp::ZExt, v), Ty::I64)
                        } else {
                            v
                        }
                    })
                    .collect();
                define!(vals);
            }
            SOp::ImageQueryFormat | SOp::ImageQueryOrder => {
                use crate::abi::ObjectParam as P;
                let image = self.image_of(fr, id_op(i, 0)?)?;
                // SPIR-V's ImageChannelDataType and ImageChannelOrder count from 0 where
                // OpenCL's CL_* values start at 0x10D0 and 0x10B0 (llvm-spirv adds those back).
                let (param, base) = if op == SOp::ImageQueryFormat {
                    (P::ImageChannelDataType, 0x10D0)
                } else {
                    (P::ImageChannelOrder, 0x10B0)
                };
                let v = self.f.push(cur, Op::ImageParam { arg: image, param }, Ty::I32);
                let b = self.konst(Ty::I32, base);
                let r = self.f.push(cur, Op::Bin(BinOp::Sub, v, b), Ty::I32);
                define!(vec![r]);
            }
            SOp::Phi => {
                let tid =
                    rty.ok_or_else(|| FrontendError::InvalidIl("phi without a type".into()))?;
                let ty = self.info.scalar(tid)?;
                let n = self.info.components(tid)?;
                let mut incoming = Vec::new();
                for pair in i.operands.chunks(2) {
                    match pair {
                        [Operand::IdRef(v), Operand::IdRef(l)] => incoming.push((*v, *l)),
                        _ => return invalid("malformed OpPhi"),
                    }
                }
                let mut comps = Vec::new();
                for c in 0..n as usize {
                    // Phis stay at the head of their block: the block is new and has no instructions before them.
                    let v = self.f.push(cur, Op::Phi(Vec::new()), ty);
                    phis.push((v, incoming.clone(), c, cur));
                    comps.push(v);
                }
                define!(comps);
            }
            SOp::Branch => {
                let t = self.label(fr, id_op(i, 0)?)?;
                self.f.blocks[cur.0 as usize].term = Term::Br(t);
            }
            SOp::BranchConditional => {
                let c = self.val(fr, id_op(i, 0)?)?;
                let t = self.label(fr, id_op(i, 1)?)?;
                let e = self.label(fr, id_op(i, 2)?)?;
                self.f.blocks[cur.0 as usize].term = if t == e {
                    Term::Br(t)
                } else {
                    Term::CondBr(c, t, e)
                };
            }
            SOp::Switch => {
                // A chain of compares. Every distinct target is reached through a landing
                // block of its own, so that a phi in the target has one predecessor for the
                // switch however many cases lead there.
                let sel = self.val(fr, id_op(i, 0)?)?;
                let ty = self.f.ty(sel);
                let land = |me: &mut Self, fr: &mut Frame, target: u32| {
                    let t = me.label(fr, target)?;
                    Ok::<Block, FrontendError>(*fr.landing.entry((cur, t)).or_insert_with(|| {
                        let l = me.f.add_block();
                        me.f.blocks[l.0 as usize].term = Term::Br(t);
                        l
                    }))
                };
                let default = land(self, fr, id_op(i, 1)?)?;
                let mut b = cur;
                for case in i.operands[2..].chunks(2) {
                    let (lit, target) = match case {
                        [Operand::LiteralBit32(l), Operand::IdRef(t)] => (*l as u64, *t),
                        [Operand::LiteralBit64(l), Operand::IdRef(t)] => (*l, *t),
                        _ => return invalid("malformed OpSwitch"),
                    };
                    let target = land(self, fr, target)?;
                    let k = self.konst(ty, lit);
                    let c = self.f.push(b, Op::Cmp(CmpOp::Eq, sel, k), Ty::Bool);
                    let next = self.f.add_block();
                    self.f.blocks[b.0 as usize].term = Term::CondBr(c, target, next);
                    b = next;
                }
                self.f.blocks[b.0 as usize].term = Term::Br(default);
            }
            SOp::Return => {
                self.f.blocks[cur.0 as usize].term = Term::Br(exit);
                returns.push((cur, vec![]));
            }
            SOp::ReturnValue => {
                let v = self.vals(fr, id_op(i, 0)?)?;
                self.f.blocks[cur.0 as usize].term = Term::Br(exit);
                returns.push((cur, v));
            }
            SOp::Unreachable => {
                self.f.blocks[cur.0 as usize].term = Term::Br(exit);
            }
            SOp::FunctionCall => {
                let callee = id_op(i, 0)?;
                let mut args = Vec::new();
                for n in 1..i.operands.len() {
                    let a = id_op(i, n)?;
                    args.push(match fr.syms.get(&a) {
                        Some(s) => s.clone(),
                        None if self.info.const_samplers.contains_key(&a) => {
                            Sym::Sampler(self.sampler_index(a)?)
                        }
                        None => Sym::Vals(self.global_const(a)?),
                    });
                }
                let (next, ret) = self.lower_call(callee, args, cur)?;
                if let Some(id) = i.result_id {
                    fr.syms.insert(id, Sym::Vals(ret));
                }
                return Ok(next);
            }
            SOp::Load => {
                let ptr = id_op(i, 0)?;
                let tid =
                    rty.ok_or_else(|| FrontendError::InvalidIl("load without a type".into()))?;
                if let Some(b) = self.info.subgroup_vars.get(&ptr).copied() {
                    let v = self.subgroup_builtin(cur, b)?;
                    // size_t or uint, as the variable is declared.
                    let want = self.info.scalar(tid)?;
                    let v = match (self.f.ty(v), want) {
                        (a, b) if a == b => v,
                        (Ty::I32, Ty::I64) => self.f.push(cur, Op::Conv(ConvOp::ZExt, v), want),
                        _ => self.f.push(cur, Op::Conv(ConvOp::Trunc, v), want),
                    };
                    define!(vec![v]);
                } else if let Some(b) = self.info.builtins.get(&ptr).copied() {
                    let n = self.info.components(tid)?;
                    let ty = self.info.scalar(tid)?;
                    let mut comps = Vec::new();
                    for d in 0..n {
                        let v = if self.info.actual_local_size.contains(&ptr) {
                            self.actual_local_size(cur, d as u8)
                        } else {
                            self.f.push(cur, Op::Builtin(b, d as u8), Ty::I32)
                        };
                        comps.push(if ty == Ty::I32 {
                            v
                        } else {
                            self.f.push(cur, Op::Conv(ConvOp::ZExt, v), ty)
                        });
                    }
                    let one = matches!(
                        b,
                        Builtin::GlobalSize | Builtin::EnqueuedLocalSize | Builtin::NumGroups
                    );
                    if let Some(id) = i.result_id {
                        fr.builtin_default.insert(id, one as u64);
                    }
                    define!(comps);
                } else {
                    let addr = self.val(fr, ptr)?;
                    let align = mem_align(i, 1);
                    let comps = self.load(cur, addr, tid, align)?;
                    define!(comps);
                }
            }
            SOp::CopyMemory | SOp::CopyMemorySized => {
                let (dst_id, src_id) = (id_op(i, 0)?, id_op(i, 1)?);
                let sized = op == SOp::CopyMemorySized;
                let size = if sized {
                    Some(self.const_index(id_op(i, 2)?).map_err(|_| {
                        FrontendError::Unsupported("memcpy of a size known only at run time".into())
                    })?)
                } else {
                    None
                };
                let align = mem_align(i, if sized { 3 } else { 2 });
                self.copy_memory(fr, cur, dst_id, src_id, size, align)?;
            }
            SOp::Store => {
                let addr = self.val(fr, id_op(i, 0)?)?;
                let vid = id_op(i, 1)?;
                let vals = self.vals(fr, vid)?;
                let vt = fr
                    .types
                    .get(&vid)
                    .or_else(|| self.info.type_of.get(&vid))
                    .copied()
                    .ok_or_else(|| FrontendError::InvalidIl("stored value has no type".into()))?;
                let align = mem_align(i, 2);
                self.store_vals(cur, addr, vt, &vals, align)?;
            }
            SOp::InBoundsPtrAccessChain
            | SOp::PtrAccessChain
            | SOp::AccessChain
            | SOp::InBoundsAccessChain => {
                let base_id = id_op(i, 0)?;
                let base = self.val(fr, base_id)?;
                let bt = *self.info.type_of.get(&base_id).ok_or_else(|| {
                    FrontendError::InvalidIl("base pointer without a type".into())
                })?;
                let SType::Pointer(_, mut cur_ty) = self.info.ty(bt)?.clone() else {
                    return invalid("access chain base is not a pointer");
                };
                let mut addr = base;
                let mut first = matches!(op, SOp::InBoundsPtrAccessChain | SOp::PtrAccessChain);
                for n in 1..i.operands.len() {
                    let idx_id = id_op(i, n)?;
                    if first {
                        // Element index over the pointee type itself.
                        let size = self.info.size_of(cur_ty)?;
                        addr = self.index(cur, addr, fr, idx_id, size)?;
                        first = false;
                        continue;
                    }
                    match self.info.ty(cur_ty)?.clone() {
                        SType::Struct(members) => {
                            let k = self.const_index(idx_id)? as usize;
                            let (offsets, _) = self.info.struct_layout(cur_ty)?;
                            let (Some(&mt), Some(&off)) = (members.get(k), offsets.get(k)) else {
                                return invalid("struct member index out of range");
                            };
                            cur_ty = mt;
                            addr = self.offset(cur, addr, off);
                        }
                        SType::Array(e, _) | SType::Vector(e, _) => {
                            let size = self.info.size_of(e)?;
                            addr = self.index(cur, addr, fr, idx_id, size)?;
                            cur_ty = e;
                        }
                        other => return invalid(format!("access chain into {other:?}")),
                    }
                }
                let rt = rty.ok_or_else(|| {
                    FrontendError::InvalidIl("access chain without a type".into())
                })?;
                let want = self.info.scalar(rt)?;
                if self.f.ty(addr) != want {
                    addr = self.f.push(cur, Op::Conv(ConvOp::Bitcast, addr), want);
                }
                define!(vec![addr]);
            }
            SOp::CompositeExtract => {
                let vid = id_op(i, 0)?;
                let v = self.vals(fr, vid)?;
                let k = lit_op(i, 1)? as usize;
                if i.operands.len() > 2 {
                    return unsupported("nested composite extract");
                }
                let c = match (v.get(k), fr.builtin_default.get(&vid)) {
                    (Some(c), _) => *c,
                    // get_global_id(3) and the like, with the dimension a constant: what
                    // the function returns for a dimension out of range (0, or 1 for sizes).
                    (None, Some(&d)) => {
                        let ty = v.first().map_or(Ty::I64, |x| self.f.ty(*x));
                        self.konst(ty, d)
                    }
                    (None, None) => return invalid("composite index out of range"),
                };
                define!(vec![c]);
            }
            SOp::CompositeInsert => {
                let obj = self.val(fr, id_op(i, 0)?)?;
                let mut v = self.vals(fr, id_op(i, 1)?)?;
                let k = lit_op(i, 2)? as usize;
                *v.get_mut(k).ok_or_else(|| {
                    FrontendError::InvalidIl("composite index out of range".into())
                })? = obj;
                define!(v);
            }
            SOp::CompositeConstruct => {
                let mut v = Vec::new();
                for n in 0..i.operands.len() {
                    v.extend(self.vals(fr, id_op(i, n)?)?);
                }
                define!(v);
            }
            SOp::VectorShuffle => {
                let a = self.vals(fr, id_op(i, 0)?)?;
                let b = self.vals(fr, id_op(i, 1)?)?;
                let mut v = Vec::new();
                for n in 2..i.operands.len() {
                    let k = lit_op(i, n)? as usize;
                    let c = if k == 0xffff_ffff {
                        a[0]
                    } else if k < a.len() {
                        a[k]
                    } else {
                        *b.get(k - a.len()).ok_or_else(|| {
                            FrontendError::InvalidIl("shuffle index out of range".into())
                        })?
                    };
                    v.push(c);
                }
                define!(v);
            }
            // A component picked at run time: a select over every component (the vector lives
            // in registers, one value per component). An index out of range gives component 0
            // (extract) or changes nothing (insert); SPIR-V leaves both undefined.
            SOp::VectorExtractDynamic => {
                let vid = id_op(i, 0)?;
                let v = self.vals(fr, vid)?;
                let idx = self.val(fr, id_op(i, 1)?)?;
                let ity = self.f.ty(idx);
                let rt = self.f.ty(v[0]);
                // A built-in's vector answers its default out of range (get_global_offset(j)
                // with j from the kernel's arguments).
                let (mut r, first) = match fr.builtin_default.get(&vid) {
                    Some(&d) => (self.konst(rt, d), 0),
                    None => (v[0], 1),
                };
                for (k, &c) in v.iter().enumerate().skip(first) {
                    let kc = self.konst(ity, k as u64);
                    let hit = self.f.push(cur, Op::Cmp(CmpOp::Eq, idx, kc), Ty::Bool);
                    r = self.f.push(cur, Op::Select(hit, c, r), rt);
                }
                define!(vec![r]);
            }
            SOp::VectorInsertDynamic => {
                let mut v = self.vals(fr, id_op(i, 0)?)?;
                let obj = self.val(fr, id_op(i, 1)?)?;
                let idx = self.val(fr, id_op(i, 2)?)?;
                let ity = self.f.ty(idx);
                for (k, c) in v.iter_mut().enumerate() {
                    let kc = self.konst(ity, k as u64);
                    let hit = self.f.push(cur, Op::Cmp(CmpOp::Eq, idx, kc), Ty::Bool);
                    let rt = self.f.ty(*c);
                    *c = self.f.push(cur, Op::Select(hit, obj, *c), rt);
                }
                define!(v);
            }
            SOp::ExtInst => {
                let set = id_op(i, 0)?;
                if Some(set) != self.info.opencl_std {
                    return unsupported("extended instruction set other than OpenCL.std");
                }
                let which = lit_op(i, 1)?;
                // prefetch: a hint to the caches; Gen9's data port has nothing to ask.
                if which == spirv::OpenclStd100Op::prefetch as u32 {
                    return Ok(cur);
                }
                if which == spirv::OpenclStd100Op::printf as u32 {
                    let (b, r) = self.printf(fr, i, cur)?;
                    define!(vec![r]);
                    return Ok(b);
                }
                let tid =
                    rty.ok_or_else(|| FrontendError::InvalidIl("ext inst without a type".into()))?;
                let ty = self.info.scalar(tid)?;
                // Loads and stores first: their operands include literals.
                if let Some(v) = self.vector_memory(fr, i, which, tid, cur)? {
                    define!(v);
                    return Ok(cur);
                }
                if let Some(v) = self.shuffle(fr, i, which, cur)? {
                    define!(v);
                    return Ok(cur);
                }
                let mut ops = Vec::new();
                for n in 2..i.operands.len() {
                    ops.push(self.vals(fr, id_op(i, n)?)?);
                }
                let n = ops.first().map(|o| o.len()).unwrap_or(1);
                // select(a, b, c) on vectors tests the most significant bit of each element
                // of c, whose type may be narrower than its container (kept zero-extended)
                // and differ from a's (half a, short c): sign-extended, the test is c < 0.
                if which == spirv::OpenclStd100Op::select as u32 && n > 1 {
                    let cw = (i.operands.len() > 4)
                        .then(|| id_op(i, 4).ok())
                        .flatten()
                        .and_then(|id| fr.types.get(&id).or_else(|| self.info.type_of.get(&id)))
                        .and_then(|t| self.info.odd_width(*t));
                    if let (Some(w), Some(c)) = (cw, ops.get_mut(2)) {
                        let wide: Vec<Value> = c.iter().map(|&x| self.sext_from(cur, x, w)).collect();
                        *c = wide;
                    }
                }
                let arg_width = (i.operands.len() > 2)
                    .then(|| id_op(i, 2).ok())
                    .flatten()
                    .and_then(|id| fr.types.get(&id).or_else(|| self.info.type_of.get(&id)))
                    .and_then(|t| self.info.odd_width(*t));
                let res_width = self.info.odd_width(tid);
                let res_half = self.info.is_half(tid);
                let mut out = Vec::new();
                for c in 0..n {
                    // Scalar operands broadcast (the scalar forms of clamp, mix, step, ...).
                    let args: Vec<Value> = ops
                        .iter()
                        .map(|o| {
                            if o.len() == 1 {
                                o[0]
                            } else {
                                o[c.min(o.len() - 1)]
                            }
                        })
                        .collect();
                    let mut bld = builtins::B {
                        f: &mut *self.f,
                        b: cur,
                    };
                    let fused = [spirv::OpenclStd100Op::fma, spirv::OpenclStd100Op::mad]
                        .iter()
                        .any(|&o| which == o as u32);
                    if res_half && fused && args.len() == 3 {
                        // In half, rounded once: the float fma rounded to half again misses
                        // the nearest half where the float's rounding lands on a tie (3 *
                        // 683 + 2^-24). The operands are halves, exact in F16;
                        // `passes::native_half` gives them their F16 forms.
                        let h: Vec<Value> = args
                            .iter()
                            .map(|&a| bld.push_op(Op::Conv(ConvOp::FConv, a), Ty::F16))
                            .collect();
                        let m = bld.push_op(Op::Mad(h[0], h[1], h[2]), Ty::F16);
                        out.push(bld.push_op(Op::Conv(ConvOp::FConv, m), Ty::F32));
                        continue;
                    }
                    let native = match arg_width {
                        Some(w) if ty.is_int() => {
                            builtins::ext_inst_narrow(&mut bld, which, ty, n > 1, &args, w)?
                        }
                        _ => builtins::ext_inst(&mut bld, which, ty, n > 1, res_half, &args)?,
                    };
                    let Some(v) = native else {
                        // Not one of the exact sequences: the library's implementation.
                        let (next, vals) = self.library_call(fr, i, which, cur)?;
                        define!(vals);
                        return Ok(next);
                    };
                    // Narrow results stay zero-extended; half results are rounded to half,
                    // except those that are an operand's bits (select) or built from them
                    // (bitselect): they are halves already, and rounding would quiet a
                    // signalling NaN among them.
                    let v = match res_width {
                        Some(w) if ty.is_int() => {
                            let k = bld.k(ty, (1u64 << w) - 1);
                            bld.bin(BinOp::And, v, k)
                        }
                        _ => v,
                    };
                    let exact = [spirv::OpenclStd100Op::select, spirv::OpenclStd100Op::bitselect]
                        .iter()
                        .any(|&o| which == o as u32);
                    out.push(if res_half && !exact {
                        self.round_half(cur, v)
                    } else {
                        v
                    });
                }
                define!(out);
            }
            SOp::Any | SOp::All => {
                // any / all of a vector of booleans: or / and of its components.
                let x = self.vals(fr, id_op(i, 0)?)?;
                let bop = if op == SOp::Any {
                    BinOp::Or
                } else {
                    BinOp::And
                };
                let mut acc = x[0];
                for v in &x[1..] {
                    acc = self.f.push(cur, Op::Bin(bop, acc, *v), Ty::Bool);
                }
                define!(vec![acc]);
            }
            SOp::Dot => {
                let x = self.vals(fr, id_op(i, 0)?)?;
                let y = self.vals(fr, id_op(i, 1)?)?;
                let tid =
                    rty.ok_or_else(|| FrontendError::InvalidIl("OpDot without a type".into()))?;
                let ty = self.info.scalar(tid)?;
                let mut acc = self.f.push(cur, Op::Bin(BinOp::FMul, x[0], y[0]), ty);
                for (a, b) in x.iter().zip(&y).skip(1) {
                    acc = self.f.push(cur, Op::Mad(*a, *b, acc), ty);
                }
                define!(vec![acc]);
            }
            SOp::Variable => {
                // A private variable (Function storage): an alloca, its initialiser stored.
                let tid =
                    rty.ok_or_else(|| FrontendError::InvalidIl("variable without a type".into()))?;
                let SType::Pointer(_, pointee) = self.info.ty(tid)?.clone() else {
                    return invalid("OpVariable whose type is not a pointer");
                };
                let bytes = self.info.size_of(pointee)? as u32;
                let align = self.info.align_of(pointee)? as u32;
                let a = self
                    .f
                    .push(cur, Op::Alloca { bytes, align }, Ty::Ptr(Space::Private));
                if let Some(Operand::IdRef(init)) = i.operands.get(1) {
                    let vals = self.vals(fr, *init)?;
                    self.store_vals(cur, a, pointee, &vals, align)?;
                }
                define!(vec![a]);
            }
            // barrier()/work_group_barrier(): a fence first when the flags name global or
            // image memory (Gen9's fence orders all data-port accesses), then the gateway's
            // barrier, unless the scope is the sub-group: it is one thread, its lanes in
            // step, and needs only the fence.
            SOp::ControlBarrier => {
                if self.orders_memory_beyond_local(i, 2)? {
                    self.f.push(cur, Op::Fence, Ty::Void);
                }
                if self.scope(i, 0)? != SCOPE_SUBGROUP {
                    self.f.push(cur, Op::Barrier, Ty::Void);
                }
            }
            SOp::GroupAsyncCopy => {
                let (b, ev) = self.async_copy(fr, i, cur)?;
                define!(vec![ev]);
                return Ok(b);
            }
            // wait_group_events: the copies are complete; the work-group meets so that each
            // work-item sees what the others copied.
            SOp::GroupWaitEvents => {
                // A copy to global memory is seen by the others after the fence.
                self.f.push(cur, Op::Fence, Ty::Void);
                self.f.push(cur, Op::Barrier, Ty::Void);
            }
            SOp::GroupAll
            | SOp::GroupAny
            | SOp::GroupBroadcast
            | SOp::GroupIAdd
            | SOp::GroupFAdd
            | SOp::GroupFMin
            | SOp::GroupUMin
            | SOp::GroupSMin
            | SOp::GroupFMax
            | SOp::GroupUMax
            | SOp::GroupSMax
            // cl_khr_subgroup_non_uniform_arithmetic (SPIR-V 1.3).
            | SOp::GroupNonUniformIAdd
            | SOp::GroupNonUniformFAdd
            | SOp::GroupNonUniformIMul
            | SOp::GroupNonUniformFMul
            | SOp::GroupNonUniformSMin
            | SOp::GroupNonUniformUMin
            | SOp::GroupNonUniformFMin
            | SOp::GroupNonUniformSMax
            | SOp::GroupNonUniformUMax
            | SOp::GroupNonUniformFMax
            | SOp::GroupNonUniformBitwiseAnd
            | SOp::GroupNonUniformBitwiseOr
            | SOp::GroupNonUniformBitwiseXor
            | SOp::GroupNonUniformLogicalAnd
            | SOp::GroupNonUniformLogicalOr
            | SOp::GroupNonUniformLogicalXor => {
                let (b, vals) = self.group_function(fr, i, cur)?;
                define!(vals);
                return Ok(b);
            }
            SOp::SubgroupShuffleINTEL
            | SOp::SubgroupShuffleDownINTEL
            | SOp::SubgroupShuffleUpINTEL
            | SOp::SubgroupShuffleXorINTEL
            | SOp::SubgroupBlockReadINTEL
            | SOp::SubgroupBlockWriteINTEL
            | SOp::SubgroupImageBlockReadINTEL
            | SOp::SubgroupImageBlockWriteINTEL => {
                let vals = self.intel_subgroup(fr, i, cur)?;
                if i.result_id.is_some() {
                    define!(vals);
                }
            }
            // cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative (SPIR-V 1.3).
            SOp::GroupNonUniformShuffle
            | SOp::GroupNonUniformShuffleXor
            | SOp::GroupNonUniformShuffleUp
            | SOp::GroupNonUniformShuffleDown => {
                let vals = self.khr_subgroup_shuffle(fr, i, cur)?;
                define!(vals);
            }
            // cl_khr_subgroup_non_uniform_vote (SPIR-V 1.3).
            SOp::GroupNonUniformElect
            | SOp::GroupNonUniformAll
            | SOp::GroupNonUniformAny
            | SOp::GroupNonUniformAllEqual => {
                let (b, vals) = self.khr_vote(fr, i, cur)?;
                define!(vals);
                return Ok(b);
            }
            // mem_fence, read_mem_fence, write_mem_fence, atomic_work_item_fence: the
            // data port's fence for global and image memory; none for local memory alone.
            SOp::MemoryBarrier => {
                if self.orders_memory_beyond_local(i, 1)? {
                    self.f.push(cur, Op::Fence, Ty::Void);
                }
            }
            // atomic_* and atom_* (1.x) and atomic_*_explicit (2.0): one data-port atomic
            // each. Any scope up to the device is met by every Gen9 atomic, performed at the
            // L3 (global) or in SLM (local) where every work-item sees it; the memory order
            // by the fences around it (`atomic_order`).
            SOp::AtomicIAdd
            | SOp::AtomicISub
            | SOp::AtomicSMin
            | SOp::AtomicSMax
            | SOp::AtomicUMin
            | SOp::AtomicUMax
            | SOp::AtomicAnd
            | SOp::AtomicOr
            | SOp::AtomicXor
            | SOp::AtomicExchange
            | SOp::AtomicIIncrement
            | SOp::AtomicIDecrement
            | SOp::AtomicLoad => {
                let addr = self.val(fr, id_op(i, 0)?)?;
                let tid =
                    rty.ok_or_else(|| FrontendError::InvalidIl("atomic without a type".into()))?;
                let ty = self.info.scalar(tid)?;
                let it = atomic_int(ty)?;
                let (aop, x) = match op {
                    SOp::AtomicIIncrement => (AtomicOp::Add, self.konst(it, 1)),
                    SOp::AtomicIDecrement => (AtomicOp::Sub, self.konst(it, 1)),
                    // A load that is atomic with the read-modify-writes: or 0.
                    SOp::AtomicLoad => (AtomicOp::Or, self.konst(it, 0)),
                    _ => {
                        let x = self.val(fr, id_op(i, 3)?)?;
                        let aop = match op {
                            SOp::AtomicIAdd => AtomicOp::Add,
                            SOp::AtomicISub => AtomicOp::Sub,
                            SOp::AtomicSMin => AtomicOp::SMin,
                            SOp::AtomicSMax => AtomicOp::SMax,
                            SOp::AtomicUMin => AtomicOp::UMin,
                            SOp::AtomicUMax => AtomicOp::UMax,
                            SOp::AtomicAnd => AtomicOp::And,
                            SOp::AtomicOr => AtomicOp::Or,
                            SOp::AtomicXor => AtomicOp::Xor,
                            _ => AtomicOp::Xchg,
                        };
                        (aop, x)
                    }
                };
                let (b, old) = self.atomic(cur, addr, Some(aop), x, None, ty)?;
                define!(vec![old]);
                return Ok(b);
            }
            SOp::AtomicStore => {
                let addr = self.val(fr, id_op(i, 0)?)?;
                let x = self.val(fr, id_op(i, 3)?)?;
                let ty = self.f.ty(x);
                let (b, _) = self.atomic(cur, addr, Some(AtomicOp::Xchg), x, None, ty)?;
                return Ok(b);
            }
            SOp::AtomicCompareExchange | SOp::AtomicCompareExchangeWeak => {
                let addr = self.val(fr, id_op(i, 0)?)?;
                let value = self.val(fr, id_op(i, 4)?)?;
                let cmp = self.val(fr, id_op(i, 5)?)?;
                let ty = self.f.ty(value);
                let (b, old) = self.atomic(cur, addr, None, value, Some(cmp), ty)?;
                define!(vec![old]);
                return Ok(b);
            }
            // atomic_flag_test_and_set: exchange a 1, report whether it was set.
            SOp::AtomicFlagTestAndSet => {
                let addr = self.val(fr, id_op(i, 0)?)?;
                let one = self.konst(Ty::I32, 1);
                let zero = self.konst(Ty::I32, 0);
                let old = self
                    .f
                    .push(cur, Op::Atomic(AtomicOp::Xchg, addr, one), Ty::I32);
                let set = self.f.push(cur, Op::Cmp(CmpOp::Ne, old, zero), Ty::Bool);
                define!(vec![set]);
            }
            SOp::AtomicFlagClear => {
                let addr = self.val(fr, id_op(i, 0)?)?;
                let zero = self.konst(Ty::I32, 0);
                self.f
                    .push(cur, Op::Atomic(AtomicOp::Xchg, addr, zero), Ty::I32);
            }
            _ => {
                let tid = rty.unwrap_or(0);
                let comps = self.simple(fr, i, cur, tid)?;
                define!(comps);
            }
        }
        Ok(cur)
    }

    fn label(&self, fr: &Frame, l: u32) -> Result<Block, FrontendError> {
        fr.labels
            .get(&l)
            .copied()
            .ok_or_else(|| FrontendError::InvalidIl(format!("branch to unknown block %{l}")))
    }

    /// Whether an atomic instruction's memory semantics ask for release and for acquire
    /// ordering (SPIR-V's Acquire 0x2, Release 0x4, AcquireRelease 0x8,
    /// SequentiallyConsistent 0x10); (false, false) for anything else.
    fn atomic_order(&mut self, i: &dr::Instruction) -> Result<(bool, bool), FrontendError> {
        let at = match i.class.opcode {
            SOp::AtomicLoad
            | SOp::AtomicStore
            | SOp::AtomicExchange
            | SOp::AtomicCompareExchange
            | SOp::AtomicCompareExchangeWeak
            | SOp::AtomicIIncrement
            | SOp::AtomicIDecrement
            | SOp::AtomicIAdd
            | SOp::AtomicISub
            | SOp::AtomicSMin
            | SOp::AtomicUMin
            | SOp::AtomicSMax
            | SOp::AtomicUMax
            | SOp::AtomicAnd
            | SOp::AtomicOr
            | SOp::AtomicXor
            | SOp::AtomicFlagTestAndSet
            | SOp::AtomicFlagClear => 2,
            _ => return Ok((false, false)),
        };
        let id = semantics_id(i, at)?;
        let sem = self.const_index(id).map_err(|_| {
            FrontendError::Unsupported("an atomic whose memory order is not a constant".into())
        })?;
        // A compare-exchange's unequal semantics are never stronger than its equal ones.
        let (acq, rel, both) = (0x2, 0x4, 0x8 | 0x10);
        Ok((sem & (rel | both) != 0, sem & (acq | both) != 0))
    }

    /// Whether a barrier's or fence's memory semantics (operand `n`) name memory other than
    /// the work-group's local memory: uniform, cross-work-group (global), atomic-counter or
    /// image memory, or semantics that are not a constant.
    ///
    /// A Gen9 thread's shared local memory accesses need no fence: the data port performs
    /// one thread's SLM messages in order, and IGC leaves out local fences up to Gen9
    /// (`CPlatform::localMemFenceSupress`, true for `eRenderCoreFamily <= IGFX_GEN9_CORE`),
    /// so that `barrier(CLK_LOCAL_MEM_FENCE)` is the gateway's barrier alone.
    fn orders_memory_beyond_local(
        &mut self,
        i: &dr::Instruction,
        n: usize,
    ) -> Result<bool, FrontendError> {
        const UNIFORM: u64 = 0x40;
        const CROSS_WORKGROUP: u64 = 0x200;
        const ATOMIC_COUNTER: u64 = 0x400;
        const IMAGE: u64 = 0x800;
        let id = semantics_id(i, n)?;
        Ok(match self.const_index(id) {
            Ok(sem) => sem & (UNIFORM | CROSS_WORKGROUP | ATOMIC_COUNTER | IMAGE) != 0,
            Err(_) => true,
        })
    }

    fn const_index(&mut self, id: u32) -> Result<u64, FrontendError> {
        let i = self
            .info
            .constants
            .get(&id)
            .ok_or_else(|| FrontendError::InvalidIl("struct index is not a constant".into()))?;
        match i.operands.first() {
            Some(Operand::LiteralBit32(v)) => Ok(*v as u64),
            Some(Operand::LiteralBit64(v)) => Ok(*v),
            _ if i.class.opcode == SOp::ConstantNull => Ok(0),
            _ => invalid("struct index is not an integer constant"),
        }
    }

    /// addr + idx * size (idx sign-extended to 64 bits).
    fn index(
        &mut self,
        b: Block,
        addr: Value,
        fr: &Frame,
        idx_id: u32,
        size: u64,
    ) -> Result<Value, FrontendError> {
        if let Some(c) = self.info.constants.get(&idx_id) {
            let k = match c.operands.first() {
                Some(Operand::LiteralBit32(v)) => *v as i32 as i64,
                Some(Operand::LiteralBit64(v)) => *v as i64,
                _ => 0,
            };
            return Ok(self.offset(b, addr, (k as u64).wrapping_mul(size)));
        }
        let mut idx = self.val(fr, idx_id)?;
        if self.f.ty(idx) != Ty::I64 {
            idx = self.f.push(b, Op::Conv(ConvOp::SExt, idx), Ty::I64);
        }
        let scaled = if size == 1 {
            idx
        } else if size.is_power_of_two() {
            let k = self.konst(Ty::I64, size.trailing_zeros() as u64);
            self.f.push(b, Op::Bin(BinOp::Shl, idx, k), Ty::I64)
        } else {
            let k = self.konst(Ty::I64, size);
            self.f.push(b, Op::Bin(BinOp::Mul, idx, k), Ty::I64)
        };
        let ty = self.f.ty(addr);
        Ok(self.f.push(b, Op::PtrAdd(addr, scaled), ty))
    }

    fn offset(&mut self, b: Block, addr: Value, off: u64) -> Value {
        if off == 0 {
            return addr;
        }
        let k = self.konst(Ty::I64, off);
        let ty = self.f.ty(addr);
        self.f.push(b, Op::PtrAdd(addr, k), ty)
    }

    fn load(
        &mut self,
        b: Block,
        addr: Value,
        tid: u32,
        align: u32,
    ) -> Result<Vec<Value>, FrontendError> {
        let mut out = Vec::new();
        for (off, leaf) in self.info.leaves(tid)? {
            let half = self.info.is_half(leaf);
            let ty = if half {
                Ty::I32
            } else {
                self.info.scalar(leaf)?
            };
            let bytes = self.info.size_of(leaf)? as u32;
            let a = self.offset(b, addr, off);
            let v = self.f.push(
                b,
                Op::Load {
                    addr: a,
                    align: component_align(align, off, bytes),
                    bytes,
                },
                ty,
            );
            out.push(if half { self.half_in(b, v) } else { v });
        }
        Ok(out)
    }

    /// Store the flattened components `vals` of a value of type `tid` at `addr`.
    fn store_vals(
        &mut self,
        b: Block,
        addr: Value,
        tid: u32,
        vals: &[Value],
        align: u32,
    ) -> Result<(), FrontendError> {
        let leaves = self.info.leaves(tid)?;
        if leaves.len() != vals.len() {
            return invalid(format!(
                "stored value has {} components, its type {}",
                vals.len(),
                leaves.len()
            ));
        }
        for ((off, leaf), v) in leaves.into_iter().zip(vals) {
            let bytes = self.info.size_of(leaf)? as u32;
            let a = self.offset(b, addr, off);
            let v = if self.info.is_half(leaf) {
                self.half_out(b, *v)
            } else {
                *v
            };
            let op = Op::Store {
                addr: a,
                value: v,
                align: component_align(align, off, bytes),
                bytes,
            };
            self.f.push(b, op, Ty::Void);
        }
        Ok(())
    }

    /// OpCopyMemory(Sized): `size` bytes (the pointee's when None) from `src` to `dst`. When
    /// either pointer, followed back through its casts, points to a type of exactly that
    /// size, the copy goes leaf by leaf in that type (so that mem2reg sees the fields it
    /// promotes); otherwise in the widest pieces the alignment allows.
    fn copy_memory(
        &mut self,
        fr: &Frame,
        b: Block,
        dst_id: u32,
        src_id: u32,
        size: Option<u64>,
        align: u32,
    ) -> Result<(), FrontendError> {
        let (dst, src) = (self.val(fr, dst_id)?, self.val(fr, src_id)?);
        let pointee = |me: &Self, id: u32| -> Option<u32> {
            let t = fr.types.get(&id).or_else(|| me.info.type_of.get(&id))?;
            match me.info.ty(*t) {
                Ok(SType::Pointer(_, p)) => Some(*p),
                _ => None,
            }
        };
        let origin = |id: u32| fr.ptr_origin.get(&id).copied().unwrap_or(id);
        let size = match size {
            Some(n) => n,
            None => {
                let t = pointee(self, dst_id)
                    .ok_or_else(|| FrontendError::InvalidIl("OpCopyMemory without types".into()))?;
                self.info.size_of(t)?
            }
        };
        let typed = [dst_id, src_id, origin(dst_id), origin(src_id)]
            .into_iter()
            .filter_map(|id| pointee(self, id))
            .find(|t| {
                self.info.size_of(*t).ok() == Some(size)
                    && !matches!(self.info.ty(*t), Ok(SType::Int(8)))
            });
        if let Some(t) = typed {
            let vals = self.load(b, src, t, align)?;
            return self.store_vals(b, dst, t, &vals, align);
        }
        if size > 4096 {
            return unsupported(format!("memcpy of {size} bytes between untyped pointers"));
        }
        self.copy_bytes(b, dst, src, size, align);
        Ok(())
    }

    /// Copy `size` bytes from `src` to `dst`, unrolled, in the widest pieces (8, 4, 2 or 1
    /// bytes) the alignment and what is left allow.
    pub(super) fn copy_bytes(&mut self, b: Block, dst: Value, src: Value, size: u64, align: u32) {
        let mut off = 0u64;
        while off < size {
            let piece = [8u64, 4, 2, 1]
                .into_iter()
                .find(|p| {
                    *p <= size - off
                        && u64::from(align).is_multiple_of(*p)
                        && off.is_multiple_of(*p)
                })
                .unwrap_or(1);
            let ty = match piece {
                8 => Ty::I64,
                _ => Ty::I32,
            };
            let (sa, da) = (self.offset(b, src, off), self.offset(b, dst, off));
            let v = self.f.push(
                b,
                Op::Load {
                    addr: sa,
                    align: piece as u32,
                    bytes: piece as u32,
                },
                ty,
            );
            let st = Op::Store {
                addr: da,
                value: v,
                align: piece as u32,
                bytes: piece as u32,
            };
            self.f.push(b, st, Ty::Void);
            off += piece;
        }
    }

    /// Bytes in memory of a scalar type, or of a vector's element.
    fn elem_size(&self, tid: u32) -> Result<u64, FrontendError> {
        match self.info.ty(tid)? {
            SType::Vector(e, _) => self.info.size_of(*e),
            _ => self.info.size_of(tid),
        }
    }

    /// Component-wise arithmetic, logic, compare and conversion instructions.
    fn simple(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        b: Block,
        tid: u32,
    ) -> Result<Vec<Value>, FrontendError> {
        use SOp::*;
        let op = i.class.opcode;
        let ty = if tid == 0 {
            Ty::Void
        } else {
            self.info.scalar(tid)?
        };
        let mut srcs = Vec::new();
        for n in 0..i.operands.len() {
            if let Operand::IdRef(id) = i.operands[n] {
                srcs.push(self.vals(fr, id)?);
            }
        }
        // OpSelect with a scalar condition over vectors (SPIR-V 1.4's form, which llvm-spirv
        // writes for LLVM's `select i1, <N x T>`): the condition holds for every component.
        if op == Select && srcs.len() == 3 && srcs[0].len() == 1 && srcs[1].len() > 1 {
            srcs[0] = vec![srcs[0][0]; srcs[1].len()];
        }
        // Odd-width integers (see `odd_width`): values are kept zero-extended in their
        // container, so operations that read the sign see it sign-extended first, and
        // results that can carry into the upper bits are masked again.
        let src_width = i
            .operands
            .iter()
            .find_map(|o| match o {
                Operand::IdRef(id) => Some(*id),
                _ => None,
            })
            .and_then(|id| fr.types.get(&id).or_else(|| self.info.type_of.get(&id)))
            .and_then(|t| self.info.odd_width(*t));
        if let Some(w) = src_width {
            let signed_read = matches!(
                op,
                SDiv | SRem
                    | SMod
                    | ShiftRightArithmetic
                    | SLessThan
                    | SLessThanEqual
                    | SGreaterThan
                    | SGreaterThanEqual
                    | SConvert
                    | SatConvertSToU
                    | ConvertSToF
            );
            if signed_read {
                // The shift count of an arithmetic shift is not signed: only operand 0.
                let k = if op == ShiftRightArithmetic {
                    1
                } else {
                    srcs.len()
                };
                for v in srcs.iter_mut().take(k) {
                    for x in v.iter_mut() {
                        *x = self.sext_from(b, *x, w);
                    }
                }
            }
        }
        let result_width = if tid == 0 {
            None
        } else {
            self.info.odd_width(tid)
        };
        let first_id = i.operands.iter().find_map(|o| match o {
            Operand::IdRef(id) => Some(*id),
            _ => None,
        });
        let src_tid = first_id.and_then(|id| {
            fr.types
                .get(&id)
                .or_else(|| self.info.type_of.get(&id))
                .copied()
        });
        let src_half = src_tid.is_some_and(|t| self.info.is_half(t));
        let res_half = tid != 0 && self.info.is_half(tid);
        if op == Bitcast {
            if let (Some(st), Some(x)) = (src_tid, srcs.first()) {
                if self.info.components(st)? != self.info.components(tid)? {
                    return self.regroup_bits(b, x, st, tid);
                }
            }
        }
        if src_half || res_half {
            if let Some(out) = self.half_special(i, b, ty, &srcs, src_half, res_half)? {
                return Ok(out);
            }
        }
        let out = self.simple_ops(fr, i, b, ty, &srcs, (src_width, result_width))?;
        let directed = match self.info.rounding.get(&i.result_id.unwrap_or(0)) {
            Some(&r @ (ir::Round::Rtz | ir::Round::Rtp | ir::Round::Rtn)) => Some(r),
            _ => None,
        };
        let out = match directed {
            // convert_half_rtp(int) and the like: the integer went to float in that mode
            // (`convert::convert`), then to half in it too. The half grid is part of the
            // float grid, so two roundings up (down, toward zero) are the one rounding.
            Some(r) if res_half && matches!(op, ConvertSToF | ConvertUToF) => out
                .into_iter()
                .map(|v| {
                    let h = self.f.push(b, Op::ConvRound(ConvOp::ToHalf, v, r), Ty::I32);
                    self.f.push(b, Op::Un(UnOp::HalfToFloat, h), Ty::F32)
                })
                .collect(),
            _ if res_half
                && matches!(
                    op,
                    FAdd | FSub | FMul | FDiv | FRem | FMod | ConvertSToF | ConvertUToF
                ) =>
            {
                out.into_iter().map(|v| self.round_half(b, v)).collect()
            }
            _ => out,
        };
        Ok(match result_width {
            Some(w) if !matches!(op, ShiftRightLogical | UDiv | UMod | BitwiseAnd) => {
                out.into_iter().map(|v| self.zext_from(b, v, w)).collect()
            }
            _ => out,
        })
    }

    /// A bit cast between vectors of different component counts (as_uchar4 of an int,
    /// as_long of a float2): the source's bits, in order, regrouped into the result's
    /// components, through integers of each element's width.
    fn regroup_bits(
        &mut self,
        b: Block,
        x: &[Value],
        st: u32,
        tid: u32,
    ) -> Result<Vec<Value>, FrontendError> {
        let elem = |info: &ModuleInfo, t: u32| match info.ty(t) {
            Ok(SType::Vector(e, _)) => *e,
            _ => t,
        };
        let (se, de) = (elem(self.info, st), elem(self.info, tid));
        // Booleans count one bit each: LLVM's `bitcast <8 x i1> to i8` (the "all of eight
        // compares" idiom) packs component k into bit k, and llvm-spirv passes it through.
        let is_bool = |info: &ModuleInfo, t: u32| matches!(info.ty(t), Ok(SType::Bool));
        let bits_of = |info: &ModuleInfo, t: u32| -> Result<u32, FrontendError> {
            Ok(if is_bool(info, t) {
                1
            } else {
                (info.size_of(t)? * 8) as u32
            })
        };
        let ws = bits_of(self.info, se)?;
        let wd = bits_of(self.info, de)?;
        let to_bool = is_bool(self.info, de);
        if ws * x.len() as u32 != wd * self.info.components(tid)? {
            return invalid(format!(
                "bit cast between types of different sizes ({} x {ws} bits from %{st} to %{tid})",
                x.len()
            ));
        }
        // Source components as integers of their width (in an I64 staging register).
        let mut bits = Vec::new();
        for &v in x {
            let t = self.f.ty(v);
            let int = if self.info.is_half(se) {
                self.half_out(b, v)
            } else if t.is_float() {
                let it = if t == Ty::F64 { Ty::I64 } else { Ty::I32 };
                self.f.push(b, Op::Conv(ConvOp::Bitcast, v), it)
            } else {
                v
            };
            bits.push(if self.f.ty(int) == Ty::I64 {
                int
            } else {
                self.f.push(b, Op::Conv(ConvOp::ZExt, int), Ty::I64)
            });
        }
        let dty = self.info.scalar(de)?;
        let n = self.info.components(tid)?;
        let mut out = Vec::new();
        for c in 0..n {
            // Result bits [c*wd, (c+1)*wd) come from source components lo..=hi.
            let start = c * wd;
            let mut acc: Option<Value> = None;
            let mut k = start / ws;
            while k * ws < start + wd {
                let src = bits[k as usize];
                let v = if ws >= wd {
                    let sh = self.konst(Ty::I64, (start - k * ws) as u64);
                    self.f.push(b, Op::Bin(BinOp::LShr, src, sh), Ty::I64)
                } else {
                    let sh = self.konst(Ty::I64, (k * ws - start) as u64);
                    self.f.push(b, Op::Bin(BinOp::Shl, src, sh), Ty::I64)
                };
                acc = Some(match acc {
                    None => v,
                    Some(a) => self.f.push(b, Op::Bin(BinOp::Or, a, v), Ty::I64),
                });
                k += 1;
            }
            let mut v = acc.ok_or_else(|| FrontendError::InvalidIl("empty bit cast".into()))?;
            if wd < 64 {
                let m = self.konst(Ty::I64, (1u64 << wd) - 1);
                v = self.f.push(b, Op::Bin(BinOp::And, v, m), Ty::I64);
            }
            let r = if to_bool {
                let zero = self.konst(Ty::I64, 0);
                self.f.push(b, Op::Cmp(CmpOp::Ne, v, zero), Ty::Bool)
            } else if self.info.is_half(de) {
                let t = self.f.push(b, Op::Conv(ConvOp::Trunc, v), Ty::I32);
                self.half_in(b, t)
            } else {
                let it = if wd == 64 { Ty::I64 } else { Ty::I32 };
                let t = if it == Ty::I64 {
                    v
                } else {
                    self.f.push(b, Op::Conv(ConvOp::Trunc, v), Ty::I32)
                };
                if dty.is_float() {
                    self.f.push(b, Op::Conv(ConvOp::Bitcast, t), dty)
                } else {
                    t
                }
            };
            out.push(r);
        }
        Ok(out)
    }

    /// The half conversions that are not "compute in float, then round": float to half
    /// (rounded, or through round-to-odd from double), half to float or double (exact),
    /// and the bit casts between half and 16-bit integers.
    fn half_special(
        &mut self,
        i: &dr::Instruction,
        b: Block,
        ty: Ty,
        srcs: &[Vec<Value>],
        src_half: bool,
        res_half: bool,
    ) -> Result<Option<Vec<Value>>, FrontendError> {
        let op = i.class.opcode;
        let Some(x) = srcs.first() else {
            return Ok(None);
        };
        let id = i.result_id.unwrap_or(0);
        let round = self.info.rounding.get(&id).copied();
        let mut out = Vec::new();
        for &v in x {
            let r = match op {
                SOp::FConvert if res_half => {
                    if let Some(r @ (ir::Round::Rtz | ir::Round::Rtp | ir::Round::Rtn)) = round {
                        // A directed rounding to half: a double goes to float in the same
                        // mode first. The half grid is part of the float grid, so two
                        // roundings toward zero (or up, or down) are the one rounding.
                        let f = if self.f.ty(v) == Ty::F64 {
                            self.f.push(b, Op::ConvRound(ConvOp::FConv, v, r), Ty::F32)
                        } else {
                            v
                        };
                        let h = self.f.push(b, Op::ConvRound(ConvOp::ToHalf, f, r), Ty::I32);
                        out.push(self.f.push(b, Op::Un(UnOp::HalfToFloat, h), Ty::F32));
                        continue;
                    }
                    if self.f.ty(v) == Ty::F64 {
                        self.double_to_half(b, v)
                    } else {
                        self.round_half(b, v)
                    }
                }
                SOp::FConvert if src_half => {
                    if ty == Ty::F32 {
                        v
                    } else {
                        self.f.push(b, Op::Conv(ConvOp::FConv, v), ty)
                    }
                }
                SOp::Bitcast if src_half && !res_half => self.half_out(b, v),
                SOp::Bitcast if res_half && !src_half => self.half_in(b, v),
                _ => return Ok(None),
            };
            out.push(r);
        }
        Ok(Some(out))
    }

    /// Pointer `v` in the named address space it is known to have here, through the casts
    /// and address arithmetic a generic pointer was made by (what `passes::address_spaces`
    /// proves too): a cast back from generic where `v` is generic, else `v` itself, with its
    /// space (`Space::Generic` where only run time knows).
    fn named_pointer(&mut self, b: Block, v: Value) -> (Value, Space) {
        let mut p = v;
        let space = loop {
            match self.f.ty(p) {
                Ty::Ptr(Space::Generic) => {}
                Ty::Ptr(s) => break s,
                _ => break Space::Generic,
            }
            match self.f.inst(p).op {
                Op::Conv(ConvOp::ToGeneric | ConvOp::Bitcast, q) | Op::PtrAdd(q, _) => p = q,
                _ => break Space::Generic,
            }
        };
        if self.f.ty(v) == Ty::Ptr(Space::Generic) && space != Space::Generic {
            let named = self
                .f
                .push(b, Op::Conv(ConvOp::FromGeneric, v), Ty::Ptr(space));
            return (named, space);
        }
        (v, space)
    }

    /// `v` (an odd-width integer of `w` bits in its container) sign-extended to the container.
    fn sext_from(&mut self, b: Block, v: Value, w: u32) -> Value {
        let ty = self.f.ty(v);
        let k = self.konst(ty, (ty.bytes() * 8 - w) as u64);
        let up = self.f.push(b, Op::Bin(BinOp::Shl, v, k), ty);
        self.f.push(b, Op::Bin(BinOp::AShr, up, k), ty)
    }

    /// `v` with the container bits above `w` cleared.
    fn zext_from(&mut self, b: Block, v: Value, w: u32) -> Value {
        let ty = self.f.ty(v);
        if !ty.is_int() {
            return v;
        }
        let k = self.konst(ty, (1u64 << w) - 1);
        self.f.push(b, Op::Bin(BinOp::And, v, k), ty)
    }

    fn simple_ops(
        &mut self,
        _fr: &Frame,
        i: &dr::Instruction,
        b: Block,
        ty: Ty,
        srcs: &[Vec<Value>],
        (src_width, result_width): (Option<u32>, Option<u32>),
    ) -> Result<Vec<Value>, FrontendError> {
        use SOp::*;
        let op = i.class.opcode;
        let n = srcs.first().map(|s| s.len()).unwrap_or(1);
        let mut out = Vec::new();
        for c in 0..n {
            let s = |k: usize| -> Result<Value, FrontendError> {
                let v = srcs
                    .get(k)
                    .ok_or_else(|| FrontendError::InvalidIl(format!("{op:?}: missing operand")))?;
                // A scalar operand broadcasts (OpVectorTimesScalar).
                Ok(if v.len() == 1 {
                    v[0]
                } else {
                    *v.get(c).ok_or_else(|| {
                        FrontendError::InvalidIl(format!("{op:?}: operand widths differ"))
                    })?
                })
            };
            let bin = |o: BinOp| -> Result<Op, FrontendError> { Ok(Op::Bin(o, s(0)?, s(1)?)) };
            let cmp = |o: CmpOp| -> Result<Op, FrontendError> { Ok(Op::Cmp(o, s(0)?, s(1)?)) };
            let conv = |o: ConvOp| -> Result<Op, FrontendError> { Ok(Op::Conv(o, s(0)?)) };
            let irop = match op {
                IAdd => bin(BinOp::Add)?,
                ISub => bin(BinOp::Sub)?,
                IMul => bin(BinOp::Mul)?,
                UDiv => bin(BinOp::Div { signed: false })?,
                SDiv => bin(BinOp::Div { signed: true })?,
                UMod => bin(BinOp::Rem { signed: false })?,
                SRem => bin(BinOp::Rem { signed: true })?,
                FAdd => bin(BinOp::FAdd)?,
                FSub => bin(BinOp::FSub)?,
                FMul | VectorTimesScalar => bin(BinOp::FMul)?,
                FDiv => bin(BinOp::FDiv)?,
                BitwiseAnd | LogicalAnd => bin(BinOp::And)?,
                BitwiseOr | LogicalOr => bin(BinOp::Or)?,
                BitwiseXor | LogicalNotEqual => bin(BinOp::Xor)?,
                ShiftLeftLogical => bin(BinOp::Shl)?,
                ShiftRightLogical => bin(BinOp::LShr)?,
                ShiftRightArithmetic => bin(BinOp::AShr)?,
                SNegate => Op::Un(UnOp::Neg, s(0)?),
                FNegate => Op::Un(UnOp::FNeg, s(0)?),
                Not | LogicalNot => Op::Un(UnOp::Not, s(0)?),
                IEqual | LogicalEqual => cmp(CmpOp::Eq)?,
                INotEqual => cmp(CmpOp::Ne)?,
                ULessThan => cmp(CmpOp::Lt { signed: false })?,
                SLessThan => cmp(CmpOp::Lt { signed: true })?,
                ULessThanEqual => cmp(CmpOp::Le { signed: false })?,
                SLessThanEqual => cmp(CmpOp::Le { signed: true })?,
                UGreaterThan => cmp(CmpOp::Gt { signed: false })?,
                SGreaterThan => cmp(CmpOp::Gt { signed: true })?,
                UGreaterThanEqual => cmp(CmpOp::Ge { signed: false })?,
                SGreaterThanEqual => cmp(CmpOp::Ge { signed: true })?,
                FOrdEqual => cmp(CmpOp::FOEq)?,
                FOrdNotEqual => cmp(CmpOp::FOne)?,
                FOrdLessThan => cmp(CmpOp::FOLt)?,
                FOrdLessThanEqual => cmp(CmpOp::FOLe)?,
                FOrdGreaterThan => cmp(CmpOp::FOGt)?,
                FOrdGreaterThanEqual => cmp(CmpOp::FOGe)?,
                FUnordEqual => cmp(CmpOp::FUEq)?,
                FUnordNotEqual => cmp(CmpOp::FUNe)?,
                FUnordLessThan => cmp(CmpOp::FULt)?,
                FUnordLessThanEqual => cmp(CmpOp::FULe)?,
                FUnordGreaterThan => cmp(CmpOp::FUGt)?,
                FUnordGreaterThanEqual => cmp(CmpOp::FUGe)?,
                Ordered => cmp(CmpOp::FOrd)?,
                Unordered => cmp(CmpOp::FUnord)?,
                IsNan => Op::Cmp(CmpOp::FUnord, s(0)?, s(0)?),
                Select => Op::Select(s(0)?, s(1)?, s(2)?),
                UConvert | SConvert | FConvert | ConvertFToU | ConvertFToS | ConvertSToF
                | ConvertUToF | SatConvertSToU | SatConvertUToS => {
                    let x = s(0)?;
                    let from = self.f.ty(x);
                    let id = i.result_id.unwrap_or(0);
                    let round = self.info.rounding.get(&id).copied();
                    let sat = self.info.saturated.contains(&id);
                    // Real widths (a container may be wider, `odd_width`).
                    let src_bits = src_width.unwrap_or(from.bytes() * 8);
                    let dst_bits = result_width.unwrap_or(ty.bytes() * 8);
                    let mut bld = builtins::B { f: &mut *self.f, b };
                    let v = match op {
                        SatConvertSToU => {
                            convert::int_sat(&mut bld, x, (src_bits, ty), dst_bits, true, false)
                        }
                        SatConvertUToS => {
                            convert::int_sat(&mut bld, x, (src_bits, ty), dst_bits, false, true)
                        }
                        UConvert | SConvert if sat => {
                            let signed = op == SConvert;
                            convert::int_sat(&mut bld, x, (src_bits, ty), dst_bits, signed, signed)
                        }
                        // Between containers of one size the value is already right (the operand
                        // was sign-extended above for SConvert; the result is masked below).
                        UConvert | SConvert if from == ty => x,
                        UConvert | SConvert => {
                            let cop = if from.bytes() < ty.bytes() || from == Ty::Bool {
                                if op == SConvert && from != Ty::Bool {
                                    ConvOp::SExt
                                } else {
                                    ConvOp::ZExt
                                }
                            } else {
                                ConvOp::Trunc
                            };
                            convert::convert(&mut bld, cop, x, (ty, dst_bits), None, false)
                        }
                        _ => {
                            let cop = match op {
                                FConvert => ConvOp::FConv,
                                ConvertFToU => ConvOp::FToU,
                                ConvertFToS => ConvOp::FToS,
                                ConvertSToF => ConvOp::SToF,
                                _ => ConvOp::UToF,
                            };
                            convert::convert(&mut bld, cop, x, (ty, dst_bits), round, sat)
                        }
                    };
                    out.push(v);
                    continue;
                }
                // Casts to and from the generic address space (seed 002): resolved statically
                // where the named space is provable (`passes::address_spaces`), tags at run
                // time otherwise (`passes::generic_pointers`). An explicit cast (to_global,
                // to_local, to_private) and an implicit one are one operation: a pointer of
                // another space becomes NULL.
                PtrCastToGeneric => conv(ConvOp::ToGeneric)?,
                GenericCastToPtr | GenericCastToPtrExplicit => conv(ConvOp::FromGeneric)?,
                // get_fence: the memory semantics of the pointer's space (WorkgroupMemory
                // for local memory, CrossWorkgroupMemory otherwise), from its tag; the tag of
                // a pointer resolved statically is put back for this use by the pass.
                GenericPtrMemSemantics => {
                    let p = s(0)?;
                    let bits = self.f.push(b, Op::Conv(ConvOp::Bitcast, p), Ty::I64);
                    let k61 = self.konst(Ty::I64, 61);
                    let tag = self.f.push(b, Op::Bin(BinOp::LShr, bits, k61), Ty::I64);
                    let local = self.konst(Ty::I64, crate::abi::GENERIC_TAG_LOCAL);
                    let is_local = self.f.push(b, Op::Cmp(CmpOp::Eq, tag, local), Ty::Bool);
                    let wg = self.konst(ty, 0x100);
                    let cross = self.konst(ty, 0x200);
                    Op::Select(is_local, wg, cross)
                }
                // "If Result Type has a different width than Pointer, Pointer is truncated
                // or zero extended" (and the same for ConvertUToPtr's integer): a pointer is
                // 64 bits here in every address space, `(uint)(__local uchar *)p` is 32.
                ConvertPtrToU if ty.bytes() < 8 => {
                    let bits = self.f.push(b, Op::Conv(ConvOp::Bitcast, s(0)?), Ty::I64);
                    let dst_bits = result_width.unwrap_or(ty.bytes() * 8);
                    let mut bld = builtins::B { f: &mut *self.f, b };
                    let v = convert::convert(
                        &mut bld,
                        ConvOp::Trunc,
                        bits,
                        (ty, dst_bits),
                        None,
                        false,
                    );
                    out.push(v);
                    continue;
                }
                ConvertUToPtr if self.f.ty(s(0)?).bytes() < 8 => {
                    let wide = self.f.push(b, Op::Conv(ConvOp::ZExt, s(0)?), Ty::I64);
                    Op::Conv(ConvOp::Bitcast, wide)
                }
                Bitcast | ConvertPtrToU | ConvertUToPtr => conv(ConvOp::Bitcast)?,
                CopyObject => {
                    out.push(s(0)?);
                    continue;
                }
                other => {
                    let args: Vec<Value> = (0..srcs.len()).filter_map(|k| s(k).ok()).collect();
                    let mut bld = builtins::B { f: &mut *self.f, b };
                    match builtins::core_builtin(&mut bld, other, &args) {
                        Some(v) => {
                            out.push(v);
                            continue;
                        }
                        None => return unsupported(format!("SPIR-V instruction {other:?}")),
                    }
                }
            };
            out.push(self.f.push(b, irop, ty));
        }
        Ok(out)
    }
}

/// A function's blocks in reverse post-order of its CFG, unreachable ones last: every
/// definition is lowered before its uses outside phis. (SPIR-V asks producers to list
/// blocks so, but llvm-spirv-15 may list a loop's exit block before the loop's latch.)
fn dominance_order(blocks: &[dr::Block]) -> Vec<&dr::Block> {
    let id = |b: &dr::Block| {
        b.label
            .as_ref()
            .and_then(|l| l.result_id)
            .unwrap_or_default()
    };
    let index: HashMap<u32, usize> = blocks.iter().enumerate().map(|(i, b)| (id(b), i)).collect();
    let succs = |b: &dr::Block| -> Vec<usize> {
        let Some(t) = b.instructions.last() else {
            return Vec::new();
        };
        if !matches!(
            t.class.opcode,
            SOp::Branch | SOp::BranchConditional | SOp::Switch
        ) {
            return Vec::new();
        }
        t.operands
            .iter()
            .filter_map(|o| match o {
                Operand::IdRef(x) => index.get(x).copied(),
                _ => None,
            })
            .collect()
    };
    let mut seen = vec![false; blocks.len()];
    let mut post = Vec::with_capacity(blocks.len());
    if !blocks.is_empty() {
        let mut stack = vec![(0usize, succs(&blocks[0]), 0usize)];
        seen[0] = true;
        while let Some((b, ss, i)) = stack.last_mut() {
            if *i < ss.len() {
                let s = ss[*i];
                *i += 1;
                if !seen[s] {
                    seen[s] = true;
                    let next = succs(&blocks[s]);
                    stack.push((s, next, 0));
                }
            } else {
                post.push(*b);
                stack.pop();
            }
        }
    }
    post.reverse();
    post.extend((0..blocks.len()).filter(|&b| !seen[b]));
    post.into_iter().map(|b| &blocks[b]).collect()
}

/// The Aligned memory operand of OpLoad/OpStore, if any.
fn mem_align(i: &dr::Instruction, n: usize) -> u32 {
    match (i.operands.get(n), i.operands.get(n + 1)) {
        (Some(Operand::MemoryAccess(ma)), Some(Operand::LiteralBit32(a)))
            if ma.contains(spirv::MemoryAccess::ALIGNED) =>
        {
            *a
        }
        _ => 1,
    }
}

/// The value of IEEE half `h`, as a float (exact).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let man = (h & 0x3ff) as f32;
    match exp {
        0 => sign * man * 2f32.powi(-24),
        31 if man == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + man / 1024.0) * 2f32.powi(e as i32 - 15),
    }
}

/// The id of instruction `i`'s memory-semantics operand `n`.
fn semantics_id(i: &dr::Instruction, n: usize) -> Result<u32, FrontendError> {
    match i.operands.get(n) {
        Some(Operand::IdMemorySemantics(id) | Operand::IdRef(id)) => Ok(*id),
        other => invalid(format!("{:?}: semantics operand {other:?}", i.class.opcode)),
    }
}

/// The alignment of the component at byte `off` of a value aligned to `align`: what both
/// guarantee (the vector's alignment for its first component, which lets the coalescer read
/// a `half4` as two dwords), at least the component's own size's where the value's is less.
fn component_align(align: u32, off: u64, bytes: u32) -> u32 {
    let at = if off == 0 {
        align
    } else {
        align.min(1 << off.trailing_zeros().min(31))
    };
    at.max(align.min(bytes)).max(1)
}
