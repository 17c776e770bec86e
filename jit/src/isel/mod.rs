//! Instruction selection: scalar SSA Gen IR → Gen instructions over virtual
//! registers, in SIMD8, with structured SIMD control flow.
//!
//! Each IR value gets a location: a payload register (arguments, r0
//! fields, local IDs), an immediate, or a virtual register, scalar (one
//! element, read with <0;1,0>) when the value is uniform, else one element
//! per lane. Memory accesses become data-port messages: A64 untyped surface
//! reads and writes for global and constant pointers.

mod coalesce;
mod flow;
mod ieee;
mod image;
pub mod layout;
mod memory;

mod reg_array;
mod ssa_copies;
mod subgroup;
mod wide;
pub mod width;

use rustc_hash::FxHashMap as HashMap;

use thiserror::Error;

use crate::analysis::Cfg;
use crate::ir::{
    BinOp, Block, Builtin, CmpOp, ConvOp, Function, Op, Round, Space, Term, Ty, UnOp, Value,
};
use crate::isa::gen9::send;
use crate::isa::{
    AccessMode, CondMod, Dst, Imm, Inst, MathFn, Opcode, PredCtrl, Predicate, RegFile, Region, Src,
    SrcMod, SrcReg, Type,
};
use crate::mir::{Item, Label, MFunction, MInst, VRef, VReg};

/// The SIMD widths the selector compiles for. In SIMD16 an instruction that Gen9 cannot run
/// at 16 lanes (an operand over two GRFs, integer division) is split into two SIMD8 halves
/// by `width::split`, in SIMD32 every one with per-lane operands into SIMD16 halves (and
/// those again where they need it); messages pick their SIMD mode in `memory.rs`, a SIMD32
/// access being two SIMD16 messages (`lane_message`).
pub const WIDTHS: [u8; 3] = [8, 16, 32];

/// The sub-group sizes a kernel may ask for (`intel_reqd_sub_group_size`), which the device
/// reports (CL_DEVICE_SUB_GROUP_SIZES_INTEL): every width, each with every sub-group
/// function. A kernel that asks for none is built at SIMD32 only without them
/// (`analysis::simd32`), as IGC builds it.
pub const SUB_GROUP_SIZES: [u8; 3] = [8, 16, 32];

#[derive(Debug, Clone, Error)]
pub enum IselError {
    #[error("unsupported: {0}")]
    Unsupported(String),
}

fn unsupported<T>(what: impl Into<String>) -> Result<T, IselError> {
    Err(IselError::Unsupported(what.into()))
}

/// Where the thread payload puts things (kernel::KernelBinary documents the layout).
#[derive(Debug, Clone)]
pub struct Layout {
    /// SIMD width: work-items a hardware thread runs (the sub-group size), 8, 16 or 32.
    pub simd: u8,
    /// First GRF of cross-thread data.
    pub cross_thread_grf: u8,
    /// Cross-thread byte offset of each kernel argument.
    pub arg_offsets: Vec<u32>,
    /// Cross-thread byte offsets of the implicit values.
    pub global_offset: u32,
    pub local_size: u32,
    pub global_size: u32,
    pub num_groups: u32,
    pub work_dim: u32,
    /// GRFs of thread payload in all (r0 + per-thread + cross-thread).
    pub payload_grfs: u8,
    /// Cross-thread byte offset of each constant data buffer's address (`Op::ConstData`):
    /// the program's `__constant` data, then the library's, when the kernel reads them.
    pub const_data: Vec<Option<u32>>,
    /// Cross-thread byte offset of the printf buffer's address, if the kernel prints.
    pub printf_buffer: Option<u32>,
    /// Cross-thread byte offset of the program's global-variable buffer's address
    /// (`Op::GlobalVars`).
    pub global_vars: Option<u32>,
    /// Cross-thread byte offset of the scratch space's address (`Op::ScratchBase`).
    pub scratch_base: Option<u32>,
    /// The binding-table index of each image argument, by argument index.
    pub image_btis: Vec<Option<u8>>,
    /// The binding-table index of each buffer argument reached through its surface
    /// (`analysis::addresses::surface_args`), by argument index.
    pub buffer_btis: Vec<Option<u8>>,
    /// Cross-thread byte offsets of the image values the kernel reads (`Op::ImageParam`).
    pub image_params: Vec<((u32, crate::abi::ObjectParam), u32)>,
    /// -cl-denorms-are-zero: float denormals flushed (cr0's FP32 denorm mode left at 0).
    pub flush_f32_denorms: bool,
}

#[derive(Clone, Copy, Debug)]
enum Loc {
    /// A virtual register; `scalar` when it holds one element.
    V(VReg, bool),
    /// At a byte offset in a larger register, one element per lane or (`scalar`) one: a
    /// channel of a multi-channel message's response (`coalesce.rs`), a uniform load's
    /// dword (`memory.rs`).
    Part(VReg, u32, bool),
    /// A payload register location (always scalar), byte address in the GRF file.
    Payload(u32),
    /// A byte of each lane's dword in a register, at this byte offset: read as a `:ub`
    /// region striding the dwords, zero-extended by the reader (`byte_fields`).
    Byte(VReg, u32),
    Imm(u64),
}

pub fn isa_type(ty: Ty, signed: bool) -> Result<Type, IselError> {
    Ok(match ty {
        Ty::I32 | Ty::Bool => {
            if signed {
                Type::D
            } else {
                Type::UD
            }
        }
        Ty::I64 => {
            if signed {
                Type::Q
            } else {
                Type::UQ
            }
        }
        Ty::Ptr(_) => Type::UQ,
        Ty::F16 => Type::HF,
        Ty::F32 => Type::F,
        Ty::F64 => Type::DF,
        other => return unsupported(format!("values of type {other:?}")),
    })
}

/// Bytes a lane of a value of type `ty` takes in a register: native halves packed (16 in a
/// GRF, as Gen9 computes `:hf` at twice float's rate), the other narrow types widened to
/// dwords.
fn lane_bytes(ty: Ty) -> u32 {
    if ty == Ty::F16 {
        2
    } else {
        ty.bytes().max(4)
    }
}

fn region_for(scalar: bool, ty: Type) -> Region {
    if scalar {
        Region::SCALAR
    } else if ty.size() == 8 {
        Region {
            vstride: 4,
            width: 4,
            hstride: 1,
        }
    } else {
        Region {
            vstride: 8,
            width: 8,
            hstride: 1,
        }
    }
}

pub(crate) fn reg_src(nr: u8, subreg: u8, region: Region, ty: Type) -> Src {
    Src::Reg(SrcReg {
        file: RegFile::Grf,
        nr,
        subreg,
        region,
        ty,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    })
}

pub(crate) fn grf_dst(nr: u8, subreg: u8, ty: Type) -> Dst {
    Dst {
        file: RegFile::Grf,
        nr,
        subreg,
        hstride: 1,
        ty,
        indirect: None,
        writemask: 0xF,
    }
}

/// Architecture register `nr` (null 0x00, f0 0x30, cr0 0x80, n0 0x90; PRM Vol 7,
/// "ARF Registers") as a destination.
pub(crate) fn arf_dst(nr: u8, ty: Type) -> Dst {
    Dst {
        file: RegFile::Arf,
        nr,
        subreg: 0,
        hstride: 1,
        ty,
        indirect: None,
        writemask: 0xF,
    }
}

/// Architecture register `nr` as a source with `region`.
pub(crate) fn arf_src(nr: u8, region: Region, ty: Type) -> Src {
    Src::Reg(SrcReg {
        file: RegFile::Arf,
        nr,
        subreg: 0,
        region,
        ty,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    })
}

pub(crate) fn null_dst(ty: Type) -> Dst {
    arf_dst(0, ty)
}

fn imm(ty: Type, bits: u64) -> Src {
    Src::Imm(Imm { ty, bits })
}

/// An operand ready for an instruction: the source and its virtual register, if any.
#[derive(Clone, Copy)]
struct Opnd {
    src: Src,
    vref: Option<VRef>,
    scalar: bool,
}

impl Opnd {
    fn with_mod(mut self, negate: bool, abs: bool) -> Opnd {
        if let Src::Reg(r) = &mut self.src {
            r.modifier = SrcMod { negate, abs };
        }
        self
    }
}

struct Sel<'a> {
    f: &'a Function,
    uni: Vec<bool>,
    layout: &'a Layout,
    cfg: Cfg,
    m: MFunction,
    locs: HashMap<Value, Loc>,
    /// Virtual register of each phi (written on every incoming edge).
    phis: HashMap<Value, VReg>,
    /// Values computed straight into the register of the phi that is their one reader
    /// (`into_phis`): no copy on their edge.
    into_phi: HashMap<Value, VReg>,
    uses_local_ids: bool,
    /// The kernel's SIMD width (`Layout::simd`).
    simd: u8,
    /// Private arrays in registers (`Op::RegArray`): their registers, sizes, element size and
    /// each lane's element offset within a row (lane × element size, dwords).
    reg_arrays: HashMap<Value, (VReg, u32, u32, VReg)>,
    /// Addresses into them: the array and the byte offsets added to it.
    array_ptrs: HashMap<Value, (Value, Vec<Value>)>,
    /// The response of each texel read in the current block so far (`image::image_read`),
    /// by (image, sampler, coordinates): its other channels read it too.
    texels: HashMap<(u32, Option<u32>, Vec<Value>), VReg>,
    /// The current block's coalesced loads and stores (`coalesce.rs`).
    coalesced: coalesce::Coalesced,
    /// Reads of each value in the function (`Function::use_counts`).
    uses: Vec<u32>,
    /// `__local` addresses read only as addresses (`analysis::addresses`): one dword a
    /// lane, the 32-bit offset the SLM messages take.
    slm32: rustc_hash::FxHashSet<Value>,
    /// Buffer addresses read only as addresses (`analysis::addresses::buffer_addresses`)
    /// whose argument has a binding-table index (`Layout::buffer_btis`): one dword a lane,
    /// the 32-bit offset into the argument's surface; the index.
    surf: HashMap<Value, u8>,
    /// Extensions of 32-bit offsets that only those (or `surf`'s) read (never selected:
    /// `slm_offset` adds the 32-bit value).
    slm_ext: rustc_hash::FxHashSet<Value>,
    /// The current block's compares that only its conditional branch or one select reads:
    /// each selected at its reader as one `cmp` into the flag (`flag_compares`), not as
    /// booleans in a register tested again (Mesa's cmod propagation into the `cmp.nz`).
    flag_cmps: rustc_hash::FxHashSet<Value>,
    /// The current block's 64-bit scalars widened to a register a lane for three-source
    /// instructions (`mad_opnd`), each once: a loop of `mad(x, a, b)` on doubles read its
    /// two uniform operands through four moves a mad before.
    wide64: HashMap<(Value, Type), VReg>,
    /// Half conversions whose every reader converts back to float (`halves_only`): their
    /// containers need no clearing of the upper word.
    halves_only: rustc_hash::FxHashSet<Value>,
    /// Values every reader of which reads only the low word (`HalfFromBits`, `HalfToFloat`):
    /// a coalesced 16-bit load leaves such a member in its reply's dword, not zero-extended
    /// into a register of its own (`memory.rs` `load_group`).
    low_words: rustc_hash::FxHashSet<Value>,
    /// Values only whose last lane is read (`last_lane_only`): lane scans selected as trees.
    last_lane_only: rustc_hash::FxHashSet<Value>,
    /// Narrow loads that only left shifts past their bits read (`shifted_loads`): the data
    /// port's reply dword taken as it is, unmasked.
    shifted_loads: rustc_hash::FxHashSet<Value>,
    /// Bytes of a dword that only logic operations read (`byte_fields`): not selected, read
    /// where the dword is, by the dword and the byte.
    byte_fields: HashMap<Value, (Value, u32)>,
    /// The shifts that only those bytes' masks read: selected only where a byte cannot be
    /// read in place after all.
    byte_shifts: rustc_hash::FxHashSet<Value>,
    /// Nots that only logic operations read (`logic_nots`): not selected, read as their
    /// operand with the `~` modifier.
    logic_nots: HashMap<Value, Value>,
    /// The current block's `HalfToBits` values that only coalesced 16-bit stores read, by
    /// their half: not selected, the store's data written from the half's own word
    /// (`memory.rs` `store_group`).
    store_bits: HashMap<Value, Value>,
    /// SIMD32 message operands of several planes, laid out as their messages want them
    /// (`memory.rs` `in_halves`, `width::to_half_major`): the register and its planes.
    half_major: Vec<(VReg, u32)>,
    /// The immediates of this block put in registers (`reg_opnd`), by value and type: one
    /// `mov` each, however many instructions read it (a block is straight-line code, and
    /// the `mov` ignores the execution mask).
    consts: HashMap<(Src, Type), VReg>,
}

/// The values that some instruction reads and that only `read` reads: `read(op)` is the
/// operand an instruction of `op` reads in the way asked about, if it does.
fn read_only_by(
    f: &Function,
    uses: &[u32],
    read: impl Fn(&Op) -> Option<Value>,
) -> rustc_hash::FxHashSet<Value> {
    let mut n = vec![0u32; f.insts.len()];
    for v in f.blocks.iter().flat_map(|bd| &bd.insts) {
        if let Some(a) = read(&f.inst(*v).op) {
            n[a.0 as usize] += 1;
        }
    }
    (0..f.insts.len())
        .filter(|&v| uses[v] > 0 && n[v] == uses[v] && !f.live_out.contains(&Value(v as u32)))
        .map(|v| Value(v as u32))
        .collect()
}

/// The `FloatToHalf` results that only `HalfToFloat`s read: the emulation of a half
/// operation (the float operation rounded to half and widened again for the next one).
/// `HalfToFloat` reads a container's low word alone, so such a result's upper word may hold
/// anything.
fn halves_only(f: &Function, uses: &[u32]) -> rustc_hash::FxHashSet<Value> {
    let mut out = read_only_by(f, uses, |op| match op {
        Op::Un(UnOp::HalfToFloat, a) => Some(*a),
        _ => None,
    });
    out.retain(|v| matches!(f.inst(*v).op, Op::Un(UnOp::FloatToHalf, _)));
    out
}

/// The values every reader of which reads only the low 16 bits: the half conversions of a
/// container (`HalfFromBits`, `HalfToFloat`).
fn low_words(f: &Function, uses: &[u32]) -> rustc_hash::FxHashSet<Value> {
    read_only_by(f, uses, |op| match op {
        Op::Un(UnOp::HalfFromBits | UnOp::HalfToFloat, a) => Some(*a),
        _ => None,
    })
}

/// The values only their last lane of is read (`ReadLane` of lane `simd - 1`): a lane scan
/// that is a reduction, selected as a tree (`subgroup.rs` `lane_tree`).
fn last_lane_only(f: &Function, uses: &[u32], simd: u8) -> rustc_hash::FxHashSet<Value> {
    read_only_by(f, uses, |op| match op {
        Op::ReadLane(a, l) if *l == simd - 1 => Some(*a),
        _ => None,
    })
}

/// Narrow loads (a byte or a word a lane) that only left shifts by at least the bits above
/// them read (`shl x, 24` of a byte: the first half of a sign extension, as OpenCL C's
/// `char` arithmetic has everywhere): every reader shifts the high bytes of the data port's
/// reply dword out, so `load_narrow` takes that dword as the value without its mask.
fn shifted_loads(f: &Function, uses: &[u32]) -> rustc_hash::FxHashSet<Value> {
    let narrow = |v: Value| match f.inst(v).op {
        Op::Load { bytes, .. } if bytes < 4 && f.ty(v) == Ty::I32 => Some(bytes),
        _ => None,
    };
    let mut out = read_only_by(f, uses, |op| match op {
        Op::Bin(BinOp::Shl, a, c) if a != c => {
            let bytes = narrow(*a)?;
            let Op::Const(k) = f.inst(*c).op else {
                return None;
            };
            let k = k & 0xffff_ffff;
            (k < 32 && k >= u64::from(32 - 8 * bytes)).then_some(*a)
        }
        _ => None,
    });
    out.retain(|v| narrow(*v).is_some());
    out
}

/// Bytes of a per-lane dword, `(w >> 8k) & 0xff` (`w & 0xff`, `w >> 24`), that only
/// per-lane 32-bit `and`, `or` and `xor` read: each reader takes the byte where it is, as a
/// `:ub` source striding the dwords (zero-extended, as the mask and shift would leave it),
/// as IGC reads a hash's bytes. By the value: the dword and the byte.
fn byte_fields(f: &Function, uses: &[u32], uni: &[bool]) -> HashMap<Value, (Value, u32)> {
    let konst = |v: Value| match f.inst(v).op {
        Op::Const(c) => Some(c & 0xffff_ffff),
        _ => None,
    };
    let lane32 = |v: Value| !uni[v.0 as usize] && f.ty(v) == Ty::I32;
    let mut fields = HashMap::default();
    for &v in f.blocks.iter().flat_map(|b| &b.insts) {
        if !lane32(v) {
            continue;
        }
        let field = match f.inst(v).op {
            Op::Bin(BinOp::And, a, m) if konst(m) == Some(0xff) => match f.inst(a).op {
                Op::Bin(BinOp::LShr, w, s) if matches!(konst(s), Some(8 | 16)) => {
                    Some((w, konst(s).unwrap_or(0) as u32 / 8))
                }
                _ => Some((a, 0)),
            },
            Op::Bin(BinOp::LShr, w, s) if konst(s) == Some(24) => Some((w, 3)),
            _ => None,
        };
        if let Some((w, k)) = field.filter(|(w, _)| lane32(*w)) {
            fields.insert(v, (w, k));
        }
    }
    let reads = logic_reads(f, lane32);
    fields.retain(|v, _| {
        let n = v.0 as usize;
        uses[n] > 0 && reads[n] == uses[n] && !f.live_out.contains(v)
    });
    fields
}

/// Bitwise nots of 32-bit values, `x ^ 0xffffffff`, that only 32-bit `and`, `or` and `xor`
/// read: each reader takes `x` with the `~` source modifier ("for logic instructions, the
/// negate source modifier is a bitwise NOT", as IGC writes `~e & g`), and the not is not
/// selected. By the value: `x`.
fn logic_nots(f: &Function, uses: &[u32]) -> HashMap<Value, Value> {
    let ones = |v: Value| matches!(f.inst(v).op, Op::Const(c) if c & 0xffff_ffff == 0xffff_ffff);
    let i32 = |v: Value| f.ty(v) == Ty::I32;
    let mut nots = HashMap::default();
    for &v in f.blocks.iter().flat_map(|b| &b.insts) {
        if let Op::Bin(BinOp::Xor, x, c) = f.inst(v).op {
            if i32(v) && ones(c) && !matches!(f.inst(x).op, Op::Const(_)) {
                nots.insert(v, x);
            }
        }
    }
    let reads = logic_reads(f, i32);
    nots.retain(|v, x| {
        let n = v.0 as usize;
        uses[n] > 0 && reads[n] == uses[n] && !f.live_out.contains(v) && !f.live_out.contains(x)
    });
    // A not of a not: the outer one reads the inner one's operand, so the inner one is
    // selected as a value of its own.
    let inner: Vec<Value> = nots.values().copied().collect();
    for x in inner {
        nots.remove(&x);
    }
    nots
}

/// How many times each value is an operand of an `and`, `or` or `xor` that `reader` accepts
/// (an operation of a value with itself not counted: it reads the value as a whole).
fn logic_reads(f: &Function, reader: impl Fn(Value) -> bool) -> Vec<u32> {
    let mut reads = vec![0u32; f.insts.len()];
    for &v in f.blocks.iter().flat_map(|b| &b.insts) {
        if let Op::Bin(BinOp::And | BinOp::Or | BinOp::Xor, a, b) = f.inst(v).op {
            if a != b && reader(v) {
                reads[a.0 as usize] += 1;
                reads[b.0 as usize] += 1;
            }
        }
    }
    reads
}

/// Select a whole kernel.
pub fn select(
    f: &Function,
    uniform: Vec<bool>,
    layout: &Layout,
) -> Result<(MFunction, bool), IselError> {
    let mut s = Sel {
        f,
        uni: uniform,
        layout,
        cfg: Cfg::new(f),
        m: MFunction {
            first_free_grf: layout.payload_grfs,
            scratch_base: crate::abi::private_area(f.private_bytes, u32::from(layout.simd)),
            ..Default::default()
        },
        locs: HashMap::default(),
        phis: HashMap::default(),
        into_phi: HashMap::default(),
        uses_local_ids: false,
        simd: layout.simd,
        reg_arrays: HashMap::default(),
        array_ptrs: HashMap::default(),
        texels: HashMap::default(),
        coalesced: coalesce::Coalesced::default(),
        uses: f.use_counts(),
        slm32: Default::default(),
        surf: HashMap::default(),
        slm_ext: Default::default(),
        flag_cmps: Default::default(),
        wide64: HashMap::default(),
        halves_only: Default::default(),
        low_words: Default::default(),
        last_lane_only: Default::default(),
        shifted_loads: Default::default(),
        byte_fields: HashMap::default(),
        byte_shifts: Default::default(),
        logic_nots: HashMap::default(),
        store_bits: HashMap::default(),
        half_major: Vec::new(),
        consts: HashMap::default(),
    };
    s.halves_only = halves_only(f, &s.uses);
    s.low_words = low_words(f, &s.uses);
    s.last_lane_only = last_lane_only(f, &s.uses, layout.simd);
    s.shifted_loads = shifted_loads(f, &s.uses);
    s.byte_fields = byte_fields(f, &s.uses, &s.uni);
    s.logic_nots = logic_nots(f, &s.uses);
    // The shifts every reader of which is a byte's mask (one count over the bytes).
    let mut by_masks = HashMap::<Value, u32>::default();
    for v in s.byte_fields.keys() {
        if let Op::Bin(BinOp::And, a, _) = f.inst(*v).op {
            *by_masks.entry(a).or_default() += 1;
        }
    }
    s.byte_shifts = by_masks
        .into_iter()
        .filter(|(a, n)| {
            matches!(f.inst(*a).op, Op::Bin(BinOp::LShr, ..)) && s.uses[a.0 as usize] == *n
        })
        .map(|(a, _)| a)
        .collect();
    s.slm32 = crate::analysis::addresses::address_only(f);
    s.surf = crate::analysis::addresses::buffer_addresses(f)
        .into_iter()
        .filter_map(|(v, k)| Some((v, layout.buffer_btis.get(k as usize).copied().flatten()?)))
        .collect();
    let offsets32: rustc_hash::FxHashSet<Value> =
        s.slm32.iter().chain(s.surf.keys()).copied().collect();
    s.slm_ext = crate::analysis::addresses::extensions_read_in_32_bits(f, &offsets32, &s.uses);
    if !WIDTHS.contains(&layout.simd) {
        return unsupported(format!("SIMD{}", layout.simd));
    }
    // Room for the whole selection at once: a kernel selects to about 1.4 items per placed
    // instruction or block (3 at most over tests/kernels), and growing by doubling copied
    // the list at every step (its items are 200 bytes each).
    let placed: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
    s.m.items.reserve(2 * (placed + f.blocks.len()));
    // Every phi gets its register up front: edges write it before its block runs. Per-lane
    // phis of different blocks that take the same value on every edge from the same blocks
    // share one (a loop's header phi and its exit's, `h = phi(h0, h')` twice): on each lane
    // the register is written only on an edge into one of them, with the value both take
    // there, so neither can see a value the other was not to have; the copies of a branch
    // into both then merge (`ssa_copies.rs` `merge_copies`).
    let mut by_inputs: HashMap<Vec<(Block, Value)>, VReg> = HashMap::default();
    for b in &f.blocks {
        for v in &b.insts {
            if let Op::Phi(ins) = &f.inst(*v).op {
                // A uniform phi is one element: its copies run on one channel (ssa_copies.rs).
                let scalar = s.uni[v.0 as usize];
                let key = {
                    let mut k = ins.clone();
                    k.sort_unstable_by_key(|(p, x)| (p.0, x.0));
                    k.push((Block(u32::MAX), Value(lane_bytes(f.ty(*v)))));
                    k
                };
                let shared = (!scalar).then(|| by_inputs.get(&key).copied()).flatten();
                let r = shared.unwrap_or_else(|| {
                    let lanes = if scalar { 1 } else { u32::from(layout.simd) };
                    s.m.new_vreg(lane_bytes(f.ty(*v)) * lanes)
                });
                if !scalar {
                    by_inputs.entry(key).or_insert(r);
                }
                s.phis.insert(*v, r);
                s.locs.insert(*v, Loc::V(r, scalar));
            }
        }
    }
    s.into_phi = into_phis(f, &s.cfg, &s.uni, &s.uses, &s.phis);
    s.float_modes();
    s.emit_cfg()?;
    s.eot();
    width::split(&mut s.m);
    width::to_half_major(&mut s.m, &s.half_major)?;
    Ok((s.m, s.uses_local_ids))
}

/// Values to compute straight into the register of the phis they feed, Mesa's and IGC's
/// coalescing of a phi with its input: `x = c ? a + b : a` writes `a + b` into `x`'s
/// register in the arm, and a loop's last step of `h` writes the register its header's and
/// exit's phis share, instead of registers of their own and copies. Taken where nothing can
/// tell:
/// - the value is one of the per-lane 32-bit operations that selection writes under the
///   execution mask (so lanes that reach a phi by another edge keep what their copy put
///   there);
/// - its only readers are phis of its block's successors, on the edges from its block, one
///   register for all of them (and instructions of its own block after it), and every successor has one (so every lane that leaves the
///   block was to get the value in that register anyway), or is outside the loop whose
///   header holds those phis, which are read only inside it (a loop's exit: the register
///   is dead there);
/// - after it, nothing in its block and no copy on its block's edges reads a phi held in
///   that register (a loop header's phi read after the step computed its next value).
fn into_phis(
    f: &Function,
    cfg: &Cfg,
    uni: &[bool],
    uses: &[u32],
    phis: &HashMap<Value, VReg>,
) -> HashMap<Value, VReg> {
    let mut out = HashMap::default();
    let forest = crate::analysis::LoopForest::new(f, cfg).unwrap_or_default();
    // The blocks that read each phi.
    let mut readers: HashMap<Value, Vec<usize>> = HashMap::default();
    let mut held_in: HashMap<VReg, Vec<(Value, Block)>> = HashMap::default();
    for (b, bd) in f.blocks.iter().enumerate() {
        for v in &bd.insts {
            if let Some(r) = phis.get(v) {
                held_in.entry(*r).or_default().push((*v, Block(b as u32)));
            }
        }
        let term = match bd.term {
            Term::CondBr(c, ..) => Some(c),
            _ => None,
        };
        let ops = bd.insts.iter().flat_map(|v| f.inst(*v).op.operands());
        for x in ops.chain(term) {
            if phis.contains_key(&x) {
                readers.entry(x).or_default().push(b);
            }
        }
    }
    // Whether the register `r` is dead on entry to `t`: its phis are all of one loop header
    // and read only inside that loop, and `t` is outside it.
    let dead_at = |r: VReg, t: Block| {
        let Some(held) = held_in.get(&r) else {
            return false;
        };
        let Some(&(_, h)) = held.first() else {
            return false;
        };
        let Some(l) = forest.headed_by.get(h.0 as usize).copied().flatten() else {
            return false;
        };
        let inside = &forest.loops[l].contains;
        held.iter().all(|(p, b)| {
            *b == h
                && readers
                    .get(p)
                    .is_none_or(|bs| bs.iter().all(|x| inside[*x]))
        }) && !inside[t.0 as usize]
    };
    for (b, bd) in f.blocks.iter().enumerate() {
        let from = Block(b as u32);
        let succs = f.successors(from);
        if succs.is_empty() {
            continue;
        }
        // Each value the edges out of this block copy into phis: the phis' registers, and
        // how many copies read it.
        let mut fed: HashMap<Value, (Vec<VReg>, u32)> = HashMap::default();
        let mut copied_phis: Vec<Value> = Vec::new();
        let mut covered: HashMap<Value, Vec<Block>> = HashMap::default();
        for s in succs.iter() {
            let mut seen_here: Vec<Value> = Vec::new();
            for &p in &f.block(*s).insts {
                let Op::Phi(ins) = &f.inst(p).op else {
                    break;
                };
                for &(pred, x) in ins {
                    if pred != from {
                        continue;
                    }
                    if let Some(r) = phis.get(&p) {
                        let e = fed.entry(x).or_default();
                        e.0.push(*r);
                        e.1 += 1;
                    }
                    if matches!(f.inst(x).op, Op::Phi(_)) {
                        copied_phis.push(x);
                    }
                    if !seen_here.contains(&x) {
                        seen_here.push(x);
                        covered.entry(x).or_default().push(*s);
                    }
                }
            }
        }
        // Reads of `v` in this block after it (the register holds it to the block's end).
        let local_reads = |pos: usize, v: Value| {
            let ops = bd.insts[pos + 1..]
                .iter()
                .flat_map(|w| f.inst(*w).op.operands());
            let term = match bd.term {
                Term::CondBr(c, ..) => Some(c),
                _ => None,
            };
            ops.chain(term).filter(|x| *x == v).count() as u32
        };
        for (pos, &v) in bd.insts.iter().enumerate() {
            let Some((regs, copies)) = fed.get(&v) else {
                continue;
            };
            let r = regs[0];
            let simple = matches!(
                f.inst(v).op,
                Op::Bin(
                    BinOp::Add
                        | BinOp::Sub
                        | BinOp::And
                        | BinOp::Or
                        | BinOp::Xor
                        | BinOp::Shl
                        | BinOp::LShr
                        | BinOp::AShr
                        | BinOp::Min { .. }
                        | BinOp::Max { .. }
                        | BinOp::FAdd
                        | BinOp::FSub
                        | BinOp::FMul
                        | BinOp::FMin
                        | BinOp::FMax,
                    ..
                ) | Op::Mad(..)
                    | Op::Select(..)
            );
            let in_r = |x: Value| phis.get(&x) == Some(&r);
            if !simple
                || uni[v.0 as usize]
                || !matches!(f.ty(v), Ty::I32 | Ty::F32)
                || regs.iter().any(|x| *x != r)
                || uses[v.0 as usize] != *copies + local_reads(pos, v)
                || !succs
                    .iter()
                    .all(|s| covered.get(&v).is_some_and(|c| c.contains(s)) || dead_at(r, *s))
                || copied_phis.iter().any(|x| in_r(*x))
                || bd.insts[pos + 1..]
                    .iter()
                    .any(|w| f.inst(*w).op.operands().iter().any(|x| in_r(*x)))
                || matches!(bd.term, Term::CondBr(c, ..) if in_r(c))
            {
                continue;
            }
            out.insert(v, r);
        }
    }
    out
}

impl Sel<'_> {
    fn push(&mut self, inst: Inst, dst: Option<VRef>, srcs: [Option<VRef>; 3]) {
        self.m.items.push(Item::Inst(MInst {
            inst,
            dst,
            srcs,
            jip: None,
            uip: None,
        }));
    }

    fn label(&mut self, l: Label) {
        self.m.items.push(Item::Label(l));
    }

    /// f0.0 from boolean `c`: its channels' flags are `c`, or `!c` where this answers
    /// true (a branch's own compare whose Gen condition is the negation: `fcmp ugt` as
    /// `cmp.le`), for the reader to invert its predicate.
    fn flag_from_bool(&mut self, c: Value) -> Result<bool, IselError> {
        let uniform = self.is_uniform(c);
        if let Some(negated) = self.flag_from_compare(c, self.simd, uniform)? {
            return Ok(negated);
        }
        // A constant condition (left by inlining) goes through a register: only the last
        // source of cmp may be an immediate.
        let o = self.reg_opnd(c, Type::D)?;
        let mut i = Inst::new(Opcode::Cmp, self.simd);
        // A uniform condition sets every channel's flag, enabled or not: a uniform phi's
        // copy on one side of the branch reads channel 0's (ssa_copies.rs).
        i.no_mask = self.is_uniform(c);
        i.cond_mod = Some(CondMod::Nz);
        i.dst = Some(null_dst(Type::D));
        i.srcs = [Some(o.src), Some(imm(Type::D, 0)), None];
        self.push(i, None, [o.vref, None, None]);
        Ok(false)
    }

    /// f0.0 set by `c`'s own compare, where `c` is one of the block's `flag_cmps`:
    /// `Some(negated)` as `flag_from_bool` answers, `None` (nothing emitted) otherwise.
    fn flag_from_compare(
        &mut self,
        c: Value,
        exec: u8,
        no_mask: bool,
    ) -> Result<Option<bool>, IselError> {
        if !self.flag_cmps.remove(&c) {
            return Ok(None);
        }
        let Op::Cmp(op, a, b) = self.f.inst(c).op else {
            return unsupported("a flag compare that is not a compare");
        };
        let Some((t, cond, negated)) = self.one_compare(op, a)? else {
            return unsupported("a flag compare of two Gen compares");
        };
        self.cmp_into_flag(t, cond, a, b, exec, no_mask)?;
        Ok(Some(negated))
    }

    /// `cmp.cond (exec) null a b` as `t`: f0.0 alone holds the result.
    fn cmp_into_flag(
        &mut self,
        t: Type,
        cond: CondMod,
        a: Value,
        b: Value,
        exec: u8,
        no_mask: bool,
    ) -> Result<(), IselError> {
        let oa = self.reg_opnd(a, t)?;
        let ob = self.opnd(b, t)?;
        let mut i = Inst::new(Opcode::Cmp, exec);
        i.no_mask = no_mask;
        i.cond_mod = Some(cond);
        i.dst = Some(null_dst(t));
        i.srcs = [Some(oa.src), Some(ob.src), None];
        self.push(i, None, [oa.vref, ob.vref, None]);
        Ok(())
    }

    /// IEEE denormals for double, float and half (cr0 bits 6, 7 and 10; at thread start
    /// all three flush), as OpenCL wants them and IGC sets them: `or cr0.0 cr0.0 0x4C0`.
    /// Under -cl-denorms-are-zero float denormals flush (bit 7 stays clear), as IGC does for
    /// that option; double keeps them (cl_khr_fp64 requires CL_FP_DENORM).
    /// Writes to cr0 take a thread switch (`{Switch}`) to take effect.
    fn float_modes(&mut self) {
        let bits = if self.layout.flush_f32_denorms {
            0x440
        } else {
            0x4C0
        };
        self.cr0(Opcode::Or, bits);
    }

    /// `(W) op (1) cr0.0 cr0.0 imm {Switch}`.
    fn cr0(&mut self, op: Opcode, bits: u64) {
        let mut i = Inst::new(op, 1);
        i.no_mask = true;
        i.thread_ctrl = crate::isa::ThreadCtrl::Switch;
        i.dst = Some(arf_dst(0x80, Type::UD));
        let k = if bits <= 0xffff {
            imm(Type::UW, bits)
        } else {
            imm(Type::UD, bits)
        };
        i.srcs = [Some(arf_src(0x80, Region::SCALAR, Type::UD)), Some(k), None];
        self.push(i, None, [None; 3]);
    }

    fn eot(&mut self) {
        // The thread ends with a message to the thread spawner carrying r0;
        // the payload must sit in r112-r127 (PRM, EOT restriction): r127.
        let mut i = Inst::new(Opcode::Mov, 8);
        i.no_mask = true;
        i.dst = Some(grf_dst(127, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        self.push(i, None, [None; 3]);
        let mut i = send::message(Opcode::Send, 8, send::eot_desc());
        i.no_mask = true;
        i.srcs[0] = Some(reg_src(127, 0, Region::contiguous(8), Type::UD));
        if let Some(s) = &mut i.send {
            s.eot = true;
        }
        self.push(i, None, [None; 3]);
    }

    fn block_body(&mut self, b: Block) -> Result<(), IselError> {
        self.texels.clear();
        self.wide64.clear();
        self.consts.clear();
        self.coalesced = coalesce::plan(self.f, b, &self.uni, &self.uses, &self.surf);
        self.store_bits = self.store_bits();
        self.flag_cmps = self.flag_compares(b)?;
        for v in self.f.block(b).insts.clone() {
            if !self.flag_cmps.contains(&v) {
                self.inst(v)?;
            }
        }
        Ok(())
    }

    /// The `HalfToBits` values that only the current block's coalesced 16-bit stores read,
    /// by their half.
    fn store_bits(&self) -> HashMap<Value, Value> {
        let mut reads: HashMap<Value, u32> = HashMap::default();
        for g in self.coalesced.stores.values() {
            if g.unit == coalesce::Unit::Word {
                for &x in &g.values {
                    *reads.entry(x).or_default() += 1;
                }
            }
        }
        reads
            .into_iter()
            .filter_map(|(x, n)| match self.f.inst(x).op {
                Op::Un(UnOp::HalfToBits, h)
                    if self.uses[x.0 as usize] == n && !self.f.live_out.contains(&x) =>
                {
                    Some((x, h))
                }
                _ => None,
            })
            .collect()
    }

    /// The compares of block `b` that one conditional branch or select of the block alone
    /// reads, each one Gen `cmp` (`one_compare`): their reader sets its flag with them.
    fn flag_compares(&self, b: Block) -> Result<rustc_hash::FxHashSet<Value>, IselError> {
        let bd = self.f.block(b);
        let mut readers: Vec<Value> = bd
            .insts
            .iter()
            .filter_map(|&v| match self.f.inst(v).op {
                Op::Select(c, ..) => Some(c),
                _ => None,
            })
            .collect();
        if let Term::CondBr(c, ..) = bd.term {
            readers.push(c);
        }
        let mut out = rustc_hash::FxHashSet::default();
        for c in readers {
            let Op::Cmp(op, a, _) = self.f.inst(c).op else {
                continue;
            };
            if self.uses[c.0 as usize] == 1
                && bd.insts.contains(&c)
                && self.one_compare(op, a)?.is_some()
            {
                out.insert(c);
            }
        }
        Ok(out)
    }

    /// The type and condition of a compare that is one Gen `cmp` whose flag is the result
    /// (`false`) or its negation (`true`: the unordered forms, tested as the opposite ordered
    /// one), or `None` for those that take two compares.
    fn one_compare(&self, op: CmpOp, a: Value) -> Result<Option<(Type, CondMod, bool)>, IselError> {
        let t = self.compare_type(op, a)?;
        Ok(match op {
            CmpOp::FOne | CmpOp::FUEq => None,
            _ => {
                let (cond, negated) = compare_condition(op);
                Some((t, cond, negated))
            }
        })
    }

    fn is_uniform(&self, v: Value) -> bool {
        self.uni[v.0 as usize]
    }

    /// A fresh register for IR value `v` (scalar if uniform), or the register of the phi
    /// it is computed into (`into_phis`).
    fn def(&mut self, v: Value) -> (VReg, bool) {
        if let Some(&r) = self.into_phi.get(&v) {
            self.locs.insert(v, Loc::V(r, false));
            return (r, false);
        }
        let scalar = self.is_uniform(v);
        let size = lane_bytes(self.f.ty(v));
        let r = self.m.new_vreg(if scalar {
            size
        } else {
            size * self.simd as u32
        });
        self.locs.insert(v, Loc::V(r, scalar));
        (r, scalar)
    }

    /// Read IR value `v` as an operand of type `t`.
    fn opnd(&mut self, v: Value, t: Type) -> Result<Opnd, IselError> {
        if let Some(&x) = self.logic_nots.get(&v) {
            if !self.locs.contains_key(&v) {
                let mut o = self.opnd(x, t)?;
                if let Src::Reg(r) = &mut o.src {
                    r.modifier.negate = !r.modifier.negate;
                    return Ok(o);
                }
                return unsupported(format!("{v}: a not of a register-less {x}"));
            }
        }
        let loc = match self.locs.get(&v) {
            Some(l) => *l,
            None => match self.f.inst(v).op {
                Op::Const(bits) => Loc::Imm(bits),
                _ => return unsupported(format!("use of {v} before its definition")),
            },
        };
        Ok(match loc {
            Loc::V(r, scalar) => Opnd {
                src: reg_src(0, 0, region_for(scalar, t), t),
                vref: Some(VRef { v: r, off: 0 }),
                scalar,
            },
            Loc::Part(r, off, scalar) => Opnd {
                src: reg_src(0, 0, region_for(scalar, t), t),
                vref: Some(VRef { v: r, off }),
                scalar,
            },
            Loc::Byte(r, off) => Opnd {
                src: reg_src(
                    0,
                    0,
                    Region {
                        vstride: 32,
                        width: 8,
                        hstride: 4,
                    },
                    Type::UB,
                ),
                vref: Some(VRef { v: r, off }),
                scalar: false,
            },
            Loc::Payload(byte) => Opnd {
                src: reg_src((byte / 32) as u8, (byte % 32) as u8, Region::SCALAR, t),
                vref: None,
                scalar: true,
            },
            Loc::Imm(bits) => {
                if t.size() == 8 {
                    let r = self.wide_const(bits, t);
                    Opnd {
                        src: reg_src(0, 0, Region::SCALAR, t),
                        vref: Some(VRef { v: r, off: 0 }),
                        scalar: true,
                    }
                } else {
                    let bits = match t {
                        Type::F => {
                            // A double constant read as float (the IR keeps the source type's bits).
                            if self.f.ty(v) == Ty::F64 {
                                (f64::from_bits(bits) as f32).to_bits() as u64
                            } else {
                                bits & 0xffff_ffff
                            }
                        }
                        _ => bits & 0xffff_ffff,
                    };
                    Opnd {
                        src: imm(t, bits),
                        vref: None,
                        scalar: true,
                    }
                }
            }
        })
    }

    fn wide_const(&mut self, bits: u64, t: Type) -> VReg {
        let r = self.m.new_vreg(8);
        // Materialised where first used; kept in a scalar register live from there on.
        let mut i = Inst::new(Opcode::Mov, 1);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, t));
        i.srcs[0] = Some(imm(t, bits));
        self.push(i, Some(VRef { v: r, off: 0 }), [None; 3]);
        // Not shared between uses: a later use in another arm of an if
        // would not be dominated by this definition.
        r
    }

    /// Emit `op dst, a, b` for value `v` with exec size by uniformity.
    fn alu(
        &mut self,
        v: Value,
        op: Opcode,
        t: Type,
        srcs: &[Opnd],
        cond: Option<CondMod>,
    ) -> (VReg, bool) {
        let (r, scalar) = self.def(v);
        let exec = if scalar { 1 } else { self.simd };
        let mut i = Inst::new(op, exec);
        i.no_mask = scalar;
        i.cond_mod = cond;
        i.dst = Some(grf_dst(0, 0, t));
        let mut vrefs = [None; 3];
        for (n, s) in srcs.iter().enumerate() {
            i.srcs[n] = Some(s.src);
            vrefs[n] = s.vref;
        }
        self.push(i, Some(VRef { v: r, off: 0 }), vrefs);
        (r, scalar)
    }

    /// `bytes` pushed bytes at payload byte `at`, not aligned to their size: moved byte by
    /// byte into a scalar, then zero-extended or broadcast as `v` needs.
    fn arg_unaligned(&mut self, v: Value, at: u32, bytes: u32) {
        let tmp = self.m.new_vreg(8);
        for k in 0..bytes {
            let mut i = Inst::new(Opcode::Mov, 1);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::UB));
            let b = at + k;
            i.srcs[0] = Some(reg_src(
                (b / 32) as u8,
                (b % 32) as u8,
                Region::SCALAR,
                Type::UB,
            ));
            self.push(i, Some(VRef { v: tmp, off: k }), [None; 3]);
        }
        let ty = self.f.ty(v);
        if bytes == ty.bytes() && self.is_uniform(v) {
            self.locs.insert(v, Loc::V(tmp, true));
            return;
        }
        let st = match bytes {
            2 => Type::UW,
            4 => Type::UD,
            _ => Type::UQ,
        };
        let (r, scalar) = self.def(v);
        let exec = if scalar { 1 } else { self.simd };
        let dt = if ty.bytes() == 8 { Type::UQ } else { Type::UD };
        let mut i = Inst::new(Opcode::Mov, exec);
        i.no_mask = scalar;
        i.dst = Some(grf_dst(0, 0, dt));
        i.srcs[0] = Some(reg_src(0, 0, Region::SCALAR, st));
        self.push(
            i,
            Some(VRef { v: r, off: 0 }),
            [Some(VRef { v: tmp, off: 0 }), None, None],
        );
    }

    fn inst(&mut self, v: Value) -> Result<(), IselError> {
        // A byte that only logic operations read: read where its dword is.
        if self.byte_shifts.contains(&v) {
            return Ok(());
        }
        // A not that only logic operations read: they read its operand with `~`, if that
        // operand is in a register; else it is selected.
        if let Some(&x) = self.logic_nots.get(&v) {
            if matches!(
                self.locs.get(&x),
                Some(Loc::V(..) | Loc::Part(..) | Loc::Payload(_))
            ) {
                return Ok(());
            }
            self.logic_nots.remove(&v);
        }
        if let Some(&(w, k)) = self.byte_fields.get(&v) {
            match self.locs.get(&w).copied() {
                Some(Loc::V(r, false)) => {
                    self.locs.insert(v, Loc::Byte(r, k));
                    return Ok(());
                }
                Some(Loc::Part(r, off, false)) => {
                    self.locs.insert(v, Loc::Byte(r, off + k));
                    return Ok(());
                }
                // Selected after all: its shift too, here.
                _ => {
                    if let Op::Bin(BinOp::And, a, _) = self.f.inst(v).op {
                        if self.byte_shifts.remove(&a) {
                            self.inst(a)?;
                        }
                    }
                }
            }
        }
        // Done by another access's message (coalesce.rs), or the address only it read.
        if self.coalesced.covered.contains(&v)
            || self.coalesced.dead.contains(&v)
            || self.slm_ext.contains(&v)
            || self.store_bits.contains_key(&v)
        {
            return Ok(());
        }
        let inst = self.f.inst(v).clone();
        let ty = inst.ty;
        match inst.op {
            Op::Const(bits) => {
                self.locs.insert(v, Loc::Imm(bits));
            }
            Op::Arg(n) => {
                let off = self.layout.arg_offsets[n as usize];
                self.locs.insert(
                    v,
                    Loc::Payload(self.layout.cross_thread_grf as u32 * 32 + off),
                );
            }
            Op::ArgAt { arg, offset, bytes } => {
                let at = self.layout.cross_thread_grf as u32 * 32
                    + self.layout.arg_offsets[arg as usize]
                    + offset;
                if bytes > 1 && !at.is_multiple_of(bytes) {
                    // A member of a packed struct at an address its type does not align:
                    // "the subregister offset must be aligned to the operand's data type size"
                    // (PRM Vol 7, register region restrictions), so gather its bytes first.
                    self.arg_unaligned(v, at, bytes);
                } else if bytes < ty.bytes() {
                    // A byte or word: one zero-extending move from :ub / :uw.
                    let st = if bytes == 1 { Type::UB } else { Type::UW };
                    let (r, _) = self.def(v);
                    let exec = if self.is_uniform(v) { 1 } else { self.simd };
                    let mut i = Inst::new(Opcode::Mov, exec);
                    i.no_mask = exec == 1;
                    i.dst = Some(grf_dst(0, 0, Type::UD));
                    i.srcs[0] = Some(reg_src(
                        (at / 32) as u8,
                        (at % 32) as u8,
                        Region::SCALAR,
                        st,
                    ));
                    self.push(i, Some(VRef { v: r, off: 0 }), [None; 3]);
                } else {
                    self.locs.insert(v, Loc::Payload(at));
                }
            }
            Op::Alloca { bytes, .. } => {
                return unsupported(format!(
                    "internal: a private variable of {bytes} bytes left without a place in \
                     private memory"
                ))
            }
            Op::PrivateBase => self.private_base(v),
            Op::ConstData(n) => match self.layout.const_data.get(n as usize).copied().flatten() {
                Some(off) => {
                    let at = self.layout.cross_thread_grf as u32 * 32 + off;
                    self.locs.insert(v, Loc::Payload(at));
                }
                None => return unsupported("internal: __constant data without its address"),
            },
            Op::PrintfBuffer => match self.layout.printf_buffer {
                Some(off) => {
                    let at = self.layout.cross_thread_grf as u32 * 32 + off;
                    self.locs.insert(v, Loc::Payload(at));
                }
                None => return unsupported("internal: printf without its buffer's address"),
            },
            Op::Printf { .. } => return unsupported("internal: printf not expanded"),
            Op::GlobalVars => match self.layout.global_vars {
                Some(off) => {
                    let at = self.layout.cross_thread_grf as u32 * 32 + off;
                    self.locs.insert(v, Loc::Payload(at));
                }
                None => {
                    return unsupported("internal: global variables without their buffer's address")
                }
            },
            Op::ScratchBase => match self.layout.scratch_base {
                Some(off) => {
                    let at = self.layout.cross_thread_grf as u32 * 32 + off;
                    self.locs.insert(v, Loc::Payload(at));
                }
                None => return unsupported("internal: the scratch space without its address"),
            },
            Op::ArgAddr(_) => {
                return unsupported(
                    "a by-value struct argument whose address is used other than to read \
                     fields at constant offsets (it would need private memory)",
                )
            }
            Op::Builtin(b, d) => self.builtin(v, b, d)?,
            Op::Phi(_) => {}
            Op::Bin(op, a, b) => self.bin(v, op, a, b, ty)?,
            Op::Un(op, a) => self.un(v, op, a, ty)?,
            Op::Mad(a, b, c) => {
                if ty.is_float() {
                    let t = isa_type(ty, true)?;
                    let (oa, ob, oc) = (
                        self.mad_opnd(a, t)?,
                        self.mad_opnd(b, t)?,
                        self.mad_opnd(c, t)?,
                    );
                    // Gen9's three-source instructions are Align16; mad's src0 is the addend.
                    let (r, scalar) = self.def(v);
                    let exec = if scalar { 1 } else { self.simd };
                    let mut i = Inst::new(Opcode::Mad, exec);
                    i.no_mask = scalar;
                    i.access_mode = AccessMode::Align16;
                    i.dst = Some(grf_dst(0, 0, t));
                    let a16 = |o: Opnd| -> Src {
                        let mut s = o.src;
                        if let Src::Reg(r) = &mut s {
                            r.region = if o.scalar {
                                Region::SCALAR
                            } else {
                                Region {
                                    vstride: 4,
                                    width: 4,
                                    hstride: 1,
                                }
                            };
                        }
                        s
                    };
                    i.srcs = [Some(a16(oc)), Some(a16(oa)), Some(a16(ob))];
                    self.push(i, Some(VRef { v: r, off: 0 }), [oc.vref, oa.vref, ob.vref]);
                } else {
                    let t = isa_type(ty, true)?;
                    // Only the last source of mul may be an immediate. A uniform mad is
                    // computed once (SIMD1), as its readers expect.
                    let scalar = self.is_uniform(v);
                    let (oa, ob) = (self.reg_opnd(a, t)?, self.opnd(b, t)?);
                    let lanes = if scalar { 1 } else { self.simd };
                    let tmp = self.m.new_vreg(ty.bytes() * lanes as u32);
                    let mut i = Inst::new(Opcode::Mul, lanes);
                    i.no_mask = scalar;
                    i.dst = Some(grf_dst(0, 0, t));
                    i.srcs = [Some(oa.src), Some(ob.src), None];
                    self.push(i, Some(VRef { v: tmp, off: 0 }), [oa.vref, ob.vref, None]);
                    let oc = self.opnd(c, t)?;
                    let ot = Opnd {
                        src: reg_src(0, 0, region_for(scalar, t), t),
                        vref: Some(VRef { v: tmp, off: 0 }),
                        scalar,
                    };
                    self.locs.remove(&v);
                    self.alu(v, Opcode::Add, t, &[ot, oc], None);
                }
            }
            Op::Cmp(op, a, b) => self.cmp(v, op, a, b)?,
            Op::Select(c, a, b) => {
                let t = isa_type(ty, false)?;
                // A uniform select is one scalar sel, as the uniform analysis promises its
                // readers; a varying one picks per lane.
                let scalar = self.is_uniform(v);
                let negated = if scalar {
                    match self.flag_from_compare(c, 1, true)? {
                        Some(n) => n,
                        None => {
                            let o = self.reg_opnd(c, Type::D)?;
                            let mut i = Inst::new(Opcode::Cmp, 1);
                            i.no_mask = true;
                            i.cond_mod = Some(CondMod::Nz);
                            i.dst = Some(null_dst(Type::D));
                            i.srcs = [Some(o.src), Some(imm(Type::D, 0)), None];
                            self.push(i, None, [o.vref, None, None]);
                            false
                        }
                    }
                } else {
                    self.flag_from_bool(c)?
                };
                let oa = self.reg_opnd(a, t)?;
                let ob = self.opnd(b, t)?;
                let (r, _) = if scalar {
                    self.def(v)
                } else {
                    self.def_varying(v)
                };
                let mut i = Inst::new(Opcode::Sel, if scalar { 1 } else { self.simd });
                i.no_mask = scalar;
                i.predicate = Some(Predicate {
                    ctrl: PredCtrl::Normal,
                    inverse: negated,
                });
                i.dst = Some(grf_dst(0, 0, t));
                i.srcs = [Some(oa.src), Some(ob.src), None];
                self.push(i, Some(VRef { v: r, off: 0 }), [oa.vref, ob.vref, None]);
            }
            Op::Conv(ConvOp::Bitcast, p) if self.array_ptrs.contains_key(&p) => {
                let at = self.array_ptrs[&p].clone();
                self.array_ptrs.insert(v, at);
            }
            Op::Conv(op, a) => self.conv(v, op, a, ty)?,
            Op::ConvRound(op, a, round) => {
                // cr0 bits 5:4 (00 RNE, 01 toward +inf, 10 toward -inf, 11 toward zero)
                // for this one conversion; writes to cr0 take a thread switch.
                let bits = match round {
                    Round::Rte => 0,
                    Round::Rtp => 0x10,
                    Round::Rtn => 0x20,
                    Round::Rtz => 0x30,
                };
                self.cr0(Opcode::Or, bits);
                self.conv(v, op, a, ty)?;
                self.cr0(Opcode::And, !0x30u32 as u64 & 0xffff_ffff);
            }
            Op::RegArray { bytes, elem } => self.reg_array(v, bytes, elem),
            // An address in a register array: used only by its loads and stores, and by more
            // offsets and pointer casts.
            Op::PtrAdd(p, off) if self.array_ptrs.contains_key(&p) => {
                let (a, mut offs) = self.array_ptrs[&p].clone();
                offs.push(off);
                self.array_ptrs.insert(v, (a, offs));
            }
            Op::PtrAdd(p, off) if self.slm32.contains(&v) => self.slm_offset(v, p, off)?,
            Op::PtrAdd(_, off) if self.surf.contains_key(&v) => self.surface_offset(v, off)?,
            Op::PtrAdd(p, off) => {
                let op_ = self.opnd(p, Type::UQ)?;
                let oo = self.opnd(off, Type::Q)?;
                let (op_, oo) = if op_.vref.is_none() && matches!(op_.src, Src::Imm(_)) {
                    (oo, op_)
                } else {
                    (op_, oo)
                };
                self.alu(v, Opcode::Add, Type::UQ, &[op_, oo], None);
            }
            Op::Load { .. } if self.coalesced.loads.contains_key(&v) => {
                let g = self.coalesced.loads[&v].clone();
                self.load_group(&g)?;
            }
            Op::Store { .. } if self.coalesced.stores.contains_key(&v) => {
                let g = self.coalesced.stores[&v].clone();
                self.store_group(&g)?;
            }
            Op::Load { addr, .. } if self.array_ptrs.contains_key(&addr) => {
                self.array_load(v, addr)?
            }
            Op::Store { addr, value, .. } if self.array_ptrs.contains_key(&addr) => {
                self.array_store(addr, value)?
            }
            Op::Load { addr, bytes, .. } if bytes < 4 => self.load_narrow(v, addr, bytes)?,
            Op::Store {
                addr, value, bytes, ..
            } if bytes < 4 => self.store_narrow(addr, value, bytes)?,
            Op::Load { addr, .. } => self.load(v, addr, ty)?,
            Op::Store { addr, value, .. } => self.store(addr, value)?,
            Op::Atomic(op, addr, x) => {
                use crate::ir::AtomicOp as A;
                use send::AtomicOp as G;
                let g = match op {
                    A::Add => G::Add,
                    A::Sub => G::Sub,
                    A::And => G::And,
                    A::Or => G::Or,
                    A::Xor => G::Xor,
                    A::Xchg => G::Mov,
                    A::SMin => G::Imin,
                    A::SMax => G::Imax,
                    A::UMin => G::Umin,
                    A::UMax => G::Umax,
                };
                self.atomic(v, g, addr, &[x])?
            }
            Op::CmpXchg { addr, cmp, value } => {
                self.atomic(v, send::AtomicOp::Cmpwr, addr, &[cmp, value])?
            }
            Op::FillInactive(x, fill) => self.fill_inactive(v, x, fill)?,
            Op::ReadLane(x, k) => self.read_lane(v, x, k)?,
            Op::LaneScan {
                op,
                x,
                identity,
                exclusive,
            } => self.lane_scan(v, op, x, identity, exclusive)?,
            Op::Shuffle(x, idx) => self.shuffle(v, x, idx)?,
            Op::Barrier => {
                self.texels.clear();
                self.barrier()
            }
            Op::Fence => {
                self.texels.clear();
                self.fence()
            }
            // Local memory takes no fence message: one Gen9 thread's SLM messages are
            // performed in order, and the scheduler keeps its SLM accesses in their order
            // (IGC's atomics on `__local` pointers fence local memory alone, which it leaves
            // out up to Gen9: `CPlatform::localMemFenceSupress`).
            Op::AtomicFence(addr) => {
                if self.f.ty(addr) != Ty::Ptr(Space::Local) {
                    self.texels.clear();
                    self.fence()
                }
            }
            Op::Yield => self.yield_thread(),
            Op::ImageRead {
                image,
                sampler,
                ref coords,
                channel,
            } => self.image_read(v, image, sampler, coords, channel)?,
            Op::ImageWrite {
                image,
                ref coords,
                ref values,
            } => self.image_write(image, coords, values)?,
            Op::ImageBlockRead { image, x, y } => self.image_block_read(v, image, x, y)?,
            Op::ImageBlockWrite { image, x, y, value } => {
                self.image_block_write(image, x, y, value)?
            }
            Op::ImageParam { arg, param } => self.image_param(v, arg, param)?,
        }
        Ok(())
    }

    /// An operand of a three-source instruction: a register, and for 64-bit types a whole
    /// per-lane one ("64b datatypes cannot use the replicate control", BDW+ PRM, 3-src).
    fn mad_opnd(&mut self, v: Value, t: Type) -> Result<Opnd, IselError> {
        let o = self.reg_opnd(v, t)?;
        if t.size() != 8 || !o.scalar {
            return Ok(o);
        }
        // Widened once a block: the block's instructions run under one execution mask, so
        // the lanes the first widening wrote are those every later reader reads.
        let r = match self.wide64.get(&(v, t)) {
            Some(&r) => r,
            None => {
                let r = self.m.new_vreg(8 * self.simd as u32);
                let mut i = Inst::new(Opcode::Mov, self.simd);
                i.dst = Some(grf_dst(0, 0, t));
                i.srcs[0] = Some(o.src);
                self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
                self.wide64.insert((v, t), r);
                r
            }
        };
        Ok(Opnd {
            src: reg_src(0, 0, region_for(false, t), t),
            vref: Some(VRef { v: r, off: 0 }),
            scalar: false,
        })
    }

    /// A register-only operand (constants moved to a register first).
    fn reg_opnd(&mut self, v: Value, t: Type) -> Result<Opnd, IselError> {
        let o = self.opnd(v, t)?;
        if let Src::Imm(_) = o.src {
            let r = match self.consts.get(&(o.src, t)) {
                Some(&r) => r,
                None => {
                    let r = self.m.new_vreg(t.size().max(4));
                    let mut i = Inst::new(Opcode::Mov, 1);
                    i.no_mask = true;
                    i.dst = Some(grf_dst(0, 0, t));
                    i.srcs[0] = Some(o.src);
                    self.push(i, Some(VRef { v: r, off: 0 }), [None; 3]);
                    self.consts.insert((o.src, t), r);
                    r
                }
            };
            return Ok(Opnd {
                src: reg_src(0, 0, Region::SCALAR, t),
                vref: Some(VRef { v: r, off: 0 }),
                scalar: true,
            });
        }
        Ok(o)
    }

    fn def_varying(&mut self, v: Value) -> (VReg, bool) {
        let size = lane_bytes(self.f.ty(v));
        let r = self.m.new_vreg(size * self.simd as u32);
        self.locs.insert(v, Loc::V(r, false));
        (r, false)
    }

    /// The first GRF of dimension `d`'s local IDs in the payload (`abi::per_thread_grfs`):
    /// r1, r2, r3, or at SIMD32 (two GRFs of words each) r1, r3, r5.
    fn local_id_grf(&self, d: u8) -> u8 {
        let per = (u32::from(self.simd) * 2).div_ceil(32) as u8;
        1 + d * per
    }

    fn builtin(&mut self, v: Value, b: Builtin, d: u8) -> Result<(), IselError> {
        if d > 2 {
            self.locs.insert(
                v,
                Loc::Imm(
                    if matches!(
                        b,
                        Builtin::GlobalSize | Builtin::EnqueuedLocalSize | Builtin::NumGroups
                    ) {
                        1
                    } else {
                        0
                    },
                ),
            );
            return Ok(());
        }
        let ct = self.layout.cross_thread_grf as u32 * 32;
        let l = self.layout;
        let payload = |base: u32| Loc::Payload(ct + base + 4 * d as u32);
        let loc = match b {
            // r0.1, r0.6, r0.7: thread group id X, Y, Z.
            Builtin::GroupId => Loc::Payload([4, 24, 28][d as usize]),
            Builtin::EnqueuedLocalSize => payload(l.local_size),
            Builtin::GlobalSize => payload(l.global_size),
            Builtin::NumGroups => payload(l.num_groups),
            Builtin::GlobalOffset => payload(l.global_offset),
            Builtin::WorkDim => Loc::Payload(ct + l.work_dim),
            Builtin::SubgroupLocalId => {
                self.subgroup_local_id(v);
                return Ok(());
            }
            Builtin::LocalId => {
                // Widen the u16 lanes of r1+d to 32 bits once; every use then reads a dword register.
                self.uses_local_ids = true;
                let (r, _) = self.def_varying(v);
                let mut i = Inst::new(Opcode::Mov, self.simd);
                i.dst = Some(grf_dst(0, 0, Type::UD));
                i.srcs[0] = Some(reg_src(
                    self.local_id_grf(d),
                    0,
                    Region::contiguous(8),
                    Type::UW,
                ));
                self.push(i, Some(VRef { v: r, off: 0 }), [None; 3]);
                return Ok(());
            }
            Builtin::GlobalId => {
                self.uses_local_ids = true;
                // group * enqueued local size + local id + global offset
                let grp = Opnd {
                    src: reg_src(0, [4, 24, 28][d as usize], Region::SCALAR, Type::UD),
                    vref: None,
                    scalar: true,
                };
                let ls = Opnd {
                    src: reg_src(
                        ((ct + l.local_size) / 32) as u8,
                        ((ct + l.local_size) % 32 + 4 * d as u32) as u8,
                        Region::SCALAR,
                        Type::UD,
                    ),
                    vref: None,
                    scalar: true,
                };
                let base = self.m.new_vreg(4);
                let mut i = Inst::new(Opcode::Mul, 1);
                i.no_mask = true;
                i.dst = Some(grf_dst(0, 0, Type::UD));
                i.srcs = [Some(grp.src), Some(ls.src), None];
                self.push(i, Some(VRef { v: base, off: 0 }), [None; 3]);
                let go = ct + l.global_offset + 4 * d as u32;
                let mut i = Inst::new(Opcode::Add, 1);
                i.no_mask = true;
                i.dst = Some(grf_dst(0, 0, Type::UD));
                i.srcs = [
                    Some(reg_src(0, 0, Region::SCALAR, Type::UD)),
                    Some(reg_src(
                        (go / 32) as u8,
                        (go % 32) as u8,
                        Region::SCALAR,
                        Type::UD,
                    )),
                    None,
                ];
                self.push(
                    i,
                    Some(VRef { v: base, off: 0 }),
                    [Some(VRef { v: base, off: 0 }), None, None],
                );
                let (r, _) = self.def_varying(v);
                let mut i = Inst::new(Opcode::Add, self.simd);
                i.dst = Some(grf_dst(0, 0, Type::UD));
                i.srcs = [
                    Some(reg_src(0, 0, Region::SCALAR, Type::UD)),
                    Some(reg_src(
                        self.local_id_grf(d),
                        0,
                        Region::contiguous(8),
                        Type::UW,
                    )),
                    None,
                ];
                self.push(
                    i,
                    Some(VRef { v: r, off: 0 }),
                    [Some(VRef { v: base, off: 0 }), None, None],
                );
                return Ok(());
            }
        };
        self.locs.insert(v, loc);
        Ok(())
    }

    fn bin(&mut self, v: Value, op: BinOp, a: Value, b: Value, ty: Ty) -> Result<(), IselError> {
        // Only the last source may be an immediate: a commutative operation's constant goes
        // there rather than into a register of its own (`2 * x` after unrolling).
        let konst = |x: Value| matches!(self.f.inst(x).op, Op::Const(_));
        let (a, b) = if op.commutes() && konst(a) && !konst(b) {
            (b, a)
        } else {
            (a, b)
        };
        let signed = matches!(
            op,
            BinOp::AShr
                | BinOp::Div { signed: true }
                | BinOp::Rem { signed: true }
                | BinOp::Min { signed: true }
                | BinOp::Max { signed: true }
                | BinOp::MulHi { signed: true }
        );
        let t = isa_type(ty, signed)?;
        let wide = t.size() == 8;
        let (code, cond, neg_b) = match op {
            BinOp::Add | BinOp::FAdd => (Opcode::Add, None, false),
            BinOp::Sub | BinOp::FSub => (Opcode::Add, None, true),
            BinOp::Mul if !wide => (Opcode::Mul, None, false),
            BinOp::FMul => (Opcode::Mul, None, false),
            BinOp::And => (Opcode::And, None, false),
            BinOp::Or => (Opcode::Or, None, false),
            BinOp::Xor => (Opcode::Xor, None, false),
            BinOp::Shl => (Opcode::Shl, None, false),
            BinOp::LShr => (Opcode::Shr, None, false),
            BinOp::AShr => (Opcode::Asr, None, false),
            BinOp::Min { .. } | BinOp::FMin => (Opcode::Sel, Some(CondMod::L), false),
            BinOp::Max { .. } | BinOp::FMax => (Opcode::Sel, Some(CondMod::Ge), false),
            BinOp::FDiv if ty == Ty::F32 => {
                return self.math(v, MathFn::Fdiv, &[a, b], t);
            }
            BinOp::FDiv if ty == Ty::F64 => return self.div_f64(v, a, b),
            BinOp::Div { .. } if ty == Ty::I32 => {
                return self.math(v, MathFn::IntDivQuotient, &[a, b], t)
            }
            BinOp::Rem { .. } if ty == Ty::I32 => {
                return self.math(v, MathFn::IntDivRemainder, &[a, b], t)
            }
            BinOp::Mul => return self.mul64(v, a, b),
            BinOp::MulHi { signed } if ty == Ty::I32 => return self.mul_hi32(v, a, b, signed),
            other => return unsupported(format!("{other:?} on {ty:?}")),
        };
        let oa = self.reg_opnd(a, t)?;
        let mut ob = if matches!(code, Opcode::Shl | Opcode::Shr | Opcode::Asr) {
            // The shift count: a 32-bit operand is enough (the hardware masks it).
            match self.locs.get(&b).copied() {
                None | Some(Loc::Imm(_)) => {
                    let bits = match self.f.inst(b).op {
                        Op::Const(k) => k,
                        _ => 0,
                    };
                    Opnd {
                        src: imm(Type::UD, bits & 63),
                        vref: None,
                        scalar: true,
                    }
                }
                _ => self.opnd(b, t)?,
            }
        } else {
            self.opnd(b, t)?
        };
        // A 32-bit multiply by a constant that fits in 16 bits takes it as a word: Gen9
        // multiplies a dword by a word at full rate and two dwords at half (IGC's form, `x *
        // 3` as `mul ... 3:w`). The low 32 bits of a product do not depend on the sign.
        if code == Opcode::Mul && matches!(t, Type::D | Type::UD) {
            if let Src::Imm(i) = ob.src {
                let k = i.bits as u32;
                if i16::try_from(k as i32).is_ok() {
                    ob.src = imm(Type::W, u64::from(k as u16));
                } else if k <= 0xFFFF {
                    ob.src = imm(Type::UW, u64::from(k));
                }
            }
        }
        if neg_b {
            match &mut ob.src {
                Src::Reg(r) => r.modifier.negate = true,
                Src::Imm(i) => {
                    i.bits = match t {
                        Type::F => (-f32::from_bits(i.bits as u32)).to_bits() as u64,
                        Type::HF => (i.bits ^ 0x8000) & 0xffff,
                        _ => (i.bits as u32).wrapping_neg() as u64,
                    }
                }
            }
        }
        self.alu(v, code, t, &[oa, ob], cond);
        Ok(())
    }

    fn math(&mut self, v: Value, f: MathFn, args: &[Value], t: Type) -> Result<(), IselError> {
        let mut ops = Vec::new();
        for a in args {
            ops.push(self.reg_opnd(*a, t)?);
        }
        let (r, scalar) = self.def(v);
        let exec = if scalar { 1 } else { self.simd };
        let mut i = Inst::new(Opcode::Math, exec);
        i.no_mask = scalar;
        i.math_fn = Some(f);
        i.dst = Some(grf_dst(0, 0, t));
        let mut vrefs = [None; 3];
        for (n, o) in ops.iter().enumerate() {
            i.srcs[n] = Some(o.src);
            vrefs[n] = o.vref;
        }
        self.push(i, Some(VRef { v: r, off: 0 }), vrefs);
        Ok(())
    }

    fn un(&mut self, v: Value, op: UnOp, a: Value, ty: Ty) -> Result<(), IselError> {
        if matches!(op, UnOp::HalfToFloat | UnOp::FloatToHalf) {
            return self.half_conv(v, op, a);
        }
        if matches!(op, UnOp::HalfFromBits | UnOp::HalfToBits) {
            return self.half_bits(v, op, a);
        }
        let t = isa_type(ty, true)?;
        let oa = self.reg_opnd(a, t)?;
        match op {
            UnOp::Neg | UnOp::FNeg => {
                self.alu(v, Opcode::Mov, t, &[oa.with_mod(true, false)], None);
            }
            UnOp::FAbs => {
                self.alu(v, Opcode::Mov, t, &[oa.with_mod(false, true)], None);
            }
            UnOp::Not => {
                self.alu(v, Opcode::Not, t, &[oa], None);
            }
            UnOp::Floor => {
                self.alu(v, Opcode::Rndd, t, &[oa], None);
            }
            UnOp::Ceil => {
                self.alu(v, Opcode::Rndu, t, &[oa], None);
            }
            UnOp::Trunc => {
                self.alu(v, Opcode::Rndz, t, &[oa], None);
            }
            UnOp::Rint => {
                self.alu(v, Opcode::Rnde, t, &[oa], None);
            }
            UnOp::Clz | UnOp::Popcount if ty == Ty::I32 => {
                let op = if op == UnOp::Clz {
                    Opcode::Lzd
                } else {
                    Opcode::Cbit
                };
                let oa = self.reg_opnd(a, Type::UD)?;
                self.alu(v, op, Type::UD, &[oa], None);
            }
            UnOp::Sqrt if ty == Ty::F64 => return self.sqrt_f64(v, a),
            UnOp::Sqrt | UnOp::Rsqrt | UnOp::Exp2 | UnOp::Log2 | UnOp::Sin | UnOp::Cos
                if ty == Ty::F32 =>
            {
                let f = match op {
                    UnOp::Sqrt => MathFn::Sqrt,
                    UnOp::Rsqrt => MathFn::Rsq,
                    UnOp::Exp2 => MathFn::Exp,
                    UnOp::Log2 => MathFn::Log,
                    UnOp::Sin => MathFn::Sin,
                    _ => MathFn::Cos,
                };
                return self.math(v, f, &[a], t);
            }
            other => return unsupported(format!("{other:?} on {ty:?}")),
        }
        Ok(())
    }

    /// `mov (exec) r<2>:hf o`: a float rounded to half into the low word of each dword of
    /// `r` (cr0's rounding mode). A stride of 2 for a scalar too: a packed :hf destination of
    /// a mixed-mode move must be oword aligned (SKL PRM Vol 7, "Special Restrictions for
    /// Handling Mixed Mode Float Operations"), and a scalar's slot may sit at byte 8 of its
    /// register.
    fn round_to_hf_words(&mut self, r: VReg, o: &Opnd, exec: u8) {
        let mut i = Inst::new(Opcode::Mov, exec);
        // A scalar's move runs on one channel whatever the execution mask.
        i.no_mask = exec == 1;
        let mut d = grf_dst(0, 0, Type::HF);
        d.hstride = 2;
        i.dst = Some(d);
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
    }

    /// A native half from its container's low word, or into a container zero-extended:
    /// word moves, the bits as they are (a signalling NaN too).
    fn half_bits(&mut self, v: Value, op: UnOp, a: Value) -> Result<(), IselError> {
        if op == UnOp::HalfToBits {
            let oa = self.reg_opnd(a, Type::UW)?;
            self.alu(v, Opcode::Mov, Type::UD, &[oa], None);
            return Ok(());
        }
        let mut oa = self.reg_opnd(a, Type::UW)?;
        if let Src::Reg(r) = &mut oa.src {
            if !oa.scalar {
                // The low words of dwords: eight a GRF, rows of eight.
                r.region = Region {
                    vstride: 16,
                    width: 8,
                    hstride: 2,
                };
            }
        }
        self.alu(v, Opcode::Mov, Type::UW, &[oa], None);
        Ok(())
    }

    /// Halves live as the low word of a dword lane. To float: read the words at a stride
    /// of 2 as :hf. To half: write :hf at a stride of 2 (cr0's rounding mode, nearest
    /// even), then clear the upper words so the bits stay zero-extended.
    fn half_conv(&mut self, v: Value, op: UnOp, a: Value) -> Result<(), IselError> {
        let scalar = self.is_uniform(v);
        let exec = if scalar { 1 } else { self.simd };
        let word_region = if scalar {
            Region::SCALAR
        } else {
            Region {
                vstride: 16,
                width: 8,
                hstride: 2,
            }
        };
        if op == UnOp::HalfToFloat {
            let oa = self.reg_opnd(a, Type::UD)?;
            let mut src = oa.src;
            if let Src::Reg(r) = &mut src {
                r.ty = Type::HF;
                if !oa.scalar {
                    r.region = word_region;
                }
            }
            let (r, _) = self.def(v);
            let mut i = Inst::new(Opcode::Mov, exec);
            i.no_mask = scalar;
            i.dst = Some(grf_dst(0, 0, Type::F));
            i.srcs[0] = Some(src);
            self.push(i, Some(VRef { v: r, off: 0 }), [oa.vref, None, None]);
            return Ok(());
        }
        let oa = self.reg_opnd(a, Type::F)?;
        let tmp = self
            .m
            .new_vreg(if scalar { 4 } else { 4 * self.simd as u32 });
        self.round_to_hf_words(tmp, &oa, exec);
        if self.halves_only.contains(&v) {
            self.locs.insert(v, Loc::V(tmp, scalar));
            return Ok(());
        }
        let t = Opnd {
            src: reg_src(0, 0, region_for(scalar, Type::UD), Type::UD),
            vref: Some(VRef { v: tmp, off: 0 }),
            scalar,
        };
        let mask = Opnd {
            src: imm(Type::UD, 0xffff),
            vref: None,
            scalar: true,
        };
        self.alu(v, Opcode::And, Type::UD, &[t, mask], None);
        Ok(())
    }

    /// The type a compare of `a` reads its operands as (signed for the signed orders).
    fn compare_type(&self, op: CmpOp, a: Value) -> Result<Type, IselError> {
        let signed = matches!(
            op,
            CmpOp::Lt { signed: true }
                | CmpOp::Le { signed: true }
                | CmpOp::Gt { signed: true }
                | CmpOp::Ge { signed: true }
        );
        isa_type(self.f.ty(a), signed)
    }

    fn cmp(&mut self, v: Value, op: CmpOp, a: Value, b: Value) -> Result<(), IselError> {
        let t = self.compare_type(op, a)?;
        let (cond, invert) = compare_condition(op);
        let scalar = self.is_uniform(v);
        let (r, _) = self.def(v);
        self.cmp_to(r, t, cond, invert, a, b, scalar)?;
        let second = match op {
            CmpOp::FOne => Some((CondMod::G, false)),
            CmpOp::FUEq => Some((CondMod::G, true)),
            _ => None,
        };
        if let Some((cond, invert)) = second {
            let exec = if scalar { 1 } else { self.simd };
            let tmp = self
                .m
                .new_vreg(if scalar { 4 } else { 4 * self.simd as u32 });
            self.cmp_to(tmp, t, cond, invert, a, b, scalar)?;
            // FOne: (a < b) | (a > b). FUEq: !(a < b) & !(a > b).
            let op = if matches!(op, CmpOp::FOne) {
                Opcode::Or
            } else {
                Opcode::And
            };
            let mut i = Inst::new(op, exec);
            i.no_mask = scalar;
            i.dst = Some(grf_dst(0, 0, Type::D));
            let region = region_for(scalar, Type::D);
            i.srcs[0] = Some(reg_src(0, 0, region, Type::D));
            i.srcs[1] = Some(reg_src(0, 0, region, Type::D));
            self.push(
                i,
                Some(VRef { v: r, off: 0 }),
                [
                    Some(VRef { v: r, off: 0 }),
                    Some(VRef { v: tmp, off: 0 }),
                    None,
                ],
            );
        }
        Ok(())
    }

    /// One compare of `a` and `b` as `t` into the dword booleans (0 / all ones) of `r`.
    #[allow(clippy::too_many_arguments)]
    fn cmp_to(
        &mut self,
        r: VReg,
        t: Type,
        cond: CondMod,
        invert: bool,
        a: Value,
        b: Value,
        scalar: bool,
    ) -> Result<(), IselError> {
        let exec = if scalar { 1 } else { self.simd };
        // cmp writes all ones or zero per channel in a dword destination; for
        // 64-bit sources the flag is set and then turned into a dword.
        if t.size() == 8 {
            self.cmp_into_flag(t, cond, a, b, exec, scalar)?;
            let mut i = Inst::new(Opcode::Mov, exec);
            i.no_mask = scalar;
            i.dst = Some(grf_dst(0, 0, Type::D));
            i.srcs[0] = Some(imm(Type::D, 0));
            self.push(i, Some(VRef { v: r, off: 0 }), [None; 3]);
            let mut i = Inst::new(Opcode::Mov, exec);
            i.no_mask = scalar;
            i.predicate = Some(Predicate {
                ctrl: PredCtrl::Normal,
                inverse: invert,
            });
            i.dst = Some(grf_dst(0, 0, Type::D));
            i.srcs[0] = Some(imm(Type::D, 0xffff_ffff));
            self.push(i, Some(VRef { v: r, off: 0 }), [None; 3]);
        } else {
            let oa = self.reg_opnd(a, t)?;
            let ob = self.opnd(b, t)?;
            let mut i = Inst::new(Opcode::Cmp, exec);
            i.no_mask = scalar;
            i.cond_mod = Some(cond);
            i.dst = Some(grf_dst(0, 0, if t == Type::F { Type::F } else { Type::D }));
            i.srcs = [Some(oa.src), Some(ob.src), None];
            self.push(i, Some(VRef { v: r, off: 0 }), [oa.vref, ob.vref, None]);
            if invert {
                let mut i = Inst::new(Opcode::Not, exec);
                i.no_mask = scalar;
                i.dst = Some(grf_dst(0, 0, Type::D));
                i.srcs[0] = Some(reg_src(0, 0, region_for(scalar, Type::D), Type::D));
                self.push(
                    i,
                    Some(VRef { v: r, off: 0 }),
                    [Some(VRef { v: r, off: 0 }), None, None],
                );
            }
        }
        Ok(())
    }

    fn conv(&mut self, v: Value, op: ConvOp, a: Value, ty: Ty) -> Result<(), IselError> {
        if op == ConvOp::ToHalf {
            return self.half_conv(v, UnOp::FloatToHalf, a);
        }
        let from = self.f.ty(a);
        if op == ConvOp::Bitcast && from.bytes() == ty.bytes() {
            // Same bits, another type: share the location.
            let loc = match self.locs.get(&a) {
                Some(l) => *l,
                None => Loc::Imm(match self.f.inst(a).op {
                    Op::Const(k) => k,
                    _ => return unsupported("bitcast of an undefined value"),
                }),
            };
            self.locs.insert(v, loc);
            return Ok(());
        }
        let (st, dt) = match op {
            ConvOp::SExt => (isa_type(from, true)?, isa_type(ty, true)?),
            ConvOp::ZExt => {
                if from == Ty::Bool {
                    // Booleans are 0 / all ones: true becomes 1.
                    let t = isa_type(ty, false)?;
                    let oa = self.opnd(a, Type::UD)?;
                    if t.size() == 8 {
                        let tmp = self.m.new_vreg(4 * self.simd as u32);
                        let mut i = Inst::new(Opcode::And, if oa.scalar { 1 } else { self.simd });
                        i.no_mask = oa.scalar;
                        i.dst = Some(grf_dst(0, 0, Type::UD));
                        i.srcs = [Some(oa.src), Some(imm(Type::UD, 1)), None];
                        self.push(i, Some(VRef { v: tmp, off: 0 }), [oa.vref, None, None]);
                        let o = Opnd {
                            src: reg_src(0, 0, region_for(oa.scalar, Type::UD), Type::UD),
                            vref: Some(VRef { v: tmp, off: 0 }),
                            scalar: oa.scalar,
                        };
                        self.alu(v, Opcode::Mov, t, &[o], None);
                    } else {
                        self.alu(
                            v,
                            Opcode::And,
                            t,
                            &[
                                oa,
                                Opnd {
                                    src: imm(Type::UD, 1),
                                    vref: None,
                                    scalar: true,
                                },
                            ],
                            None,
                        );
                    }
                    return Ok(());
                }
                (isa_type(from, false)?, isa_type(ty, false)?)
            }
            ConvOp::Trunc => {
                if ty == Ty::Bool {
                    return unsupported("truncation to bool");
                }
                // The low dword of each qword.
                if from.bytes() == 8 && ty.bytes() == 4 {
                    let lo = self.half(a, 0)?;
                    self.alu(v, Opcode::Mov, Type::UD, &[lo], None);
                    return Ok(());
                }
                return unsupported(format!("truncation from {from:?} to {ty:?}"));
            }
            ConvOp::FToS => (isa_type(from, true)?, isa_type(ty, true)?),
            ConvOp::FToU => (isa_type(from, true)?, isa_type(ty, false)?),
            ConvOp::SToF => (isa_type(from, true)?, isa_type(ty, true)?),
            ConvOp::UToF => (isa_type(from, false)?, isa_type(ty, true)?),
            ConvOp::FConv => (isa_type(from, true)?, isa_type(ty, true)?),
            ConvOp::Bitcast => return unsupported(format!("bitcast from {from:?} to {ty:?}")),
            ConvOp::ToHalf => {
                return unsupported("internal: ToHalf reached the general conversion")
            }
            ConvOp::ToGeneric | ConvOp::FromGeneric => {
                return unsupported("internal: a generic cast left by passes::generic_pointers")
            }
        };
        let oa = self.reg_opnd(a, st)?;
        if st.size() == 8 && dt.size() == 4 && !oa.scalar {
            // "The destination stride must equal the ratio of the execution type's size to
            // the destination type's" (PRM, operand-type restrictions): a DF or Q source
            // converts into every other dword, then the dwords are packed.
            let tmp = self.m.new_vreg(8 * self.simd as u32);
            let mut i = Inst::new(Opcode::Mov, self.simd);
            let mut d = grf_dst(0, 0, dt);
            d.hstride = 2;
            i.dst = Some(d);
            i.srcs[0] = Some(oa.src);
            self.push(i, Some(VRef { v: tmp, off: 0 }), [oa.vref, None, None]);
            let packed = Opnd {
                src: reg_src(
                    0,
                    0,
                    // Four dwords a row, one row a GRF (rows may not cross GRFs).
                    Region {
                        vstride: 8,
                        width: 4,
                        hstride: 2,
                    },
                    dt,
                ),
                vref: Some(VRef { v: tmp, off: 0 }),
                scalar: false,
            };
            self.alu(v, Opcode::Mov, dt, &[packed], None);
            return Ok(());
        }
        if dt == Type::HF && oa.scalar {
            // A native half's scalar: the word a stride of 2 writes is the same. (Packed
            // SIMD16 ones are split in two by `width`.)
            let (r, _) = self.def(v);
            self.round_to_hf_words(r, &oa, 1);
            return Ok(());
        }
        self.alu(v, Opcode::Mov, dt, &[oa], None);
        Ok(())
    }
}

/// A compare's Gen condition and whether the result is its negation: the unordered forms
/// are the negation of the opposite ordered test. Gen has no condition for `FOne` and
/// `FUEq`: ordered-not-equal is less or greater, and unordered-or-equal its negation, so
/// their first compare here (`L`) is joined by a second (`G`) in `cmp`.
fn compare_condition(op: CmpOp) -> (CondMod, bool) {
    match op {
        CmpOp::Eq | CmpOp::FOEq => (CondMod::Z, false),
        CmpOp::Ne | CmpOp::FUNe => (CondMod::Nz, false),
        CmpOp::Lt { .. } | CmpOp::FOLt => (CondMod::L, false),
        CmpOp::Le { .. } | CmpOp::FOLe => (CondMod::Le, false),
        CmpOp::Gt { .. } | CmpOp::FOGt => (CondMod::G, false),
        CmpOp::Ge { .. } | CmpOp::FOGe => (CondMod::Ge, false),
        CmpOp::FOne => (CondMod::L, false),
        CmpOp::FUEq => (CondMod::L, true),
        CmpOp::FULt => (CondMod::Ge, true),
        CmpOp::FULe => (CondMod::G, true),
        CmpOp::FUGt => (CondMod::Le, true),
        CmpOp::FUGe => (CondMod::L, true),
        CmpOp::FOrd => (CondMod::U, true),
        CmpOp::FUnord => (CondMod::U, false),
    }
}
