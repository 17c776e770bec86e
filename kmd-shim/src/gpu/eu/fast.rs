//! Fast paths for the instruction shapes that dominate compiled kernels:
//! - 32-bit float and integer ALU operations whose sources are contiguous
//!   dwords (`<8;8,1>`, `<16;16,1>`, Align16 `<4;4,1>`), dwords 8 bytes apart
//!   (`<8;4,2>`: the halves of qwords), contiguous words (integer sources,
//!   extended), scalar (`<0;1,0>`) or immediate, writing dwords contiguous or
//!   8 bytes apart (hstride 1 or 2), or null;
//! - 64-bit integer operations (SIMD1 and SIMD8: address arithmetic on
//!   size_t/long): mov, add, logic, shifts, sel, cmp, and the widening mul of
//!   two 32-bit sources, on qword sources (contiguous, scalar, immediate) and
//!   any of the 32-bit integer sources above, extended per type, writing
//!   contiguous qwords, dwords (the low halves) or null.
//!
//! A [`Plan`] is made once per instruction at decode time; executing it is a
//! few straight loops over fixed-size lane arrays, monomorphised per SIMD
//! width and per domain, which the compiler unrolls and vectorises (an
//! AVX2+FMA build of the same loops is picked at run time when the host has
//! it). Results are bit-identical to the general path in `alu` — the plan is
//! only made where the two agree by construction; everything else (other
//! types, regions, saturation of integers, conditional modifiers other than
//! on cmp/sel, the accumulator, indirect operands) stays on the general path.

// Lane loops index several parallel lane arrays at once.
#![allow(clippy::needless_range_loop)]

use gencl_isa::{CondMod, MathFn, Opcode, Type};

use super::alu::{cond_int, write_flags, CR0_FP32_DENORM_KEEP, CR0_FP64_DENORM_KEEP};
use super::float::{nan_f32, nan_f64, CR0_ROUND_MASK};
use super::program::{Dom, DstOp, ExecInst, Loc, SrcOp};
use super::thread::{full, Thread};

/// Where a source's lanes come from. (The forms of `Path::Plain` come
/// first: their `match` in the hot loops stays short.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Consecutive dwords from this GRF byte offset.
    Vec(u32),
    /// One dword at this GRF byte offset, for every lane.
    Scalar(u32),
    /// An immediate: the low 32 bits of its value extended per its type.
    Imm(u32),
    /// Dwords 8 bytes apart (`<8;4,2>`: the low or high halves of qwords).
    Vec2(u32),
    /// Consecutive words, extended to 32 bits per the source's type.
    Words(u32),
    /// One word, extended per the source's type, for every lane.
    WScalar(u32),
    /// Consecutive qwords (64-bit plans only).
    QVec(u32),
    /// One qword for every lane (64-bit plans only).
    QScalar(u32),
    /// An immediate extended to 64 bits per its type (64-bit plans only):
    /// the low half here, the high half in `FSrc::hi` (a u64 here would
    /// double the size of every plan).
    QImm(u32),
}

/// How a plan's result is laid out from `Plan::dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DForm {
    /// Consecutive dwords (and the null destination).
    Vec,
    /// Dwords 8 bytes apart (hstride 2).
    Vec2,
    /// Consecutive qwords (64-bit plans only).
    QVec,
    /// Consecutive words: the low 16 bits of each lane's result (`plan_words`).
    Words,
    /// Words 4 bytes apart (`<2>:uw`, one half of each dword: the JIT's packing of 16-bit
    /// vector elements), the low 16 bits of each lane's result.
    Words2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FSrc {
    pub at: At,
    pub neg: bool,
    pub abs: bool,
    /// Integer sources: sign- (B/W/D) or zero-extended.
    pub signed: bool,
    /// The high half of an `At::QImm`.
    pub hi: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    /// f32 sources, F destination.
    FMov,
    FAdd,
    FMul,
    FMad,
    /// `math` FDIV and INV: divided on the host as `alu`'s general path does (no NaN
    /// made canonical, no rounding mode: the extended math unit's own).
    FDiv,
    FInv,
    FSel(Option<CondMod>),
    FCmp(CondMod),
    /// f32 source, D/UD destination (round toward zero, saturating, NaN → 0).
    FToI {
        signed: bool,
    },
    /// 32-bit integer sources, D/UD destination.
    IMov,
    IAdd,
    IMul,
    IAnd,
    IOr,
    IXor,
    INot,
    IShl,
    IShr,
    IAsr,
    ISel(Option<CondMod>),
    ICmp(CondMod),
    /// Integer division (`math` IQOT, IREM: the quotient or the remainder) of the sources'
    /// 32 bits, signed unless every operand is unsigned (`ExecInst::all_unsigned`), as
    /// `alu::int_div`: by zero, the quotient is all ones and the remainder the dividend;
    /// `i32::MIN / -1` wraps.
    IDiv {
        rem: bool,
        signed: bool,
    },
    /// 32-bit integer source, F destination (round to nearest even).
    IToF,
    /// A flag register, a word or both, set to an immediate on no mask: `(W) mov (1)
    /// f0.0:uw 0x0:uw`, which the JIT's and IGC's unconditional `goto` reads (every
    /// channel jumps on an all-false predicate). `at` is the byte in the ARF, `bytes` 2
    /// or 4; `exec` writes it, so no GRF is written.
    FlagImm {
        at: u16,
        bytes: u8,
        value: u32,
    },
    /// cr0.0 or'ed (`or`) or and'ed with an immediate on no mask: `(W) or (1) cr0.0 cr0.0
    /// 0x4C0:uw {Switch}`, with which every kernel of the JIT's and IGC's starts (the float
    /// modes), and the JIT's rounding-mode brackets. `exec` writes it; never translated (a
    /// run is compiled for one float mode, `translate::translatable`).
    Cr0Imm {
        or: bool,
        value: u32,
    },
    /// A 64-bit integer plan: `Plan::q` says which (one variant here keeps
    /// the 32-bit `match` as small as it was, which the int16 kernel notices).
    Wide,
}

/// The 64-bit integer operations: sources extended to i64 (SIMD1/SIMD8 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QOp {
    Mov,
    Add,
    /// Two sources of at most 32 bits: the full product of the extended values.
    Mul,
    And,
    Or,
    Xor,
    Not,
    /// Shifts: `cm` masks the count (63 when src0 or the destination is a
    /// qword, else 31), `bits` is src0's width (what shr/asr shift in from).
    Shl {
        cm: u8,
    },
    Shr {
        cm: u8,
        bits: u8,
    },
    Asr {
        cm: u8,
        bits: u8,
    },
    /// `u`: some source is UQ, so comparisons are unsigned 64-bit.
    Sel {
        cm: Option<CondMod>,
        u: bool,
    },
    Cmp {
        cm: CondMod,
        u: bool,
    },
    /// A 64-bit (or narrower) integer source to F, rounding to nearest even; `u`: the
    /// source is unsigned 64-bit (`ExecInst::unsigned64`).
    ToF {
        u: bool,
    },
    /// An F source (its float modifiers applied) to Q (`u`: UQ), truncating, saturating,
    /// NaN to 0, as `alu::f32_to_int`.
    FromF {
        u: bool,
    },
    /// Doubles (`Path::Double`): DF sources and destination (cmp's may be null).
    DMov,
    DAdd,
    DMul,
    DMad,
    DSel {
        cm: Option<CondMod>,
    },
    DCmp {
        cm: CondMod,
    },
}

/// Which loops run a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// 32-bit, every source `Vec`, `Scalar` or `Imm`, the destination `Vec`
    /// or null: the loops that were here before the strided forms, kept as
    /// lean (their `match`es on forms they never see cost the ALU kernels).
    Plain,
    /// 32-bit with some strided or word form.
    Strided,
    /// 64-bit (`FOp::Wide`).
    Wide,
    /// Doubles (`FOp::Wide` with a `QOp::D*`).
    Double,
}

/// The pre-resolved fast form of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub op: FOp,
    /// The operation of an `FOp::Wide` plan (else `Mov`, unused).
    pub q: QOp,
    pub srcs: [FSrc; 3],
    /// GRF byte offset of the destination (`None`: the null register); an
    /// offset alone, as the plain loops read it, and its layout apart.
    pub dst: Option<u32>,
    pub dform: DForm,
    /// Float saturation to [0, 1] (integer saturation is never planned).
    pub sat: bool,
    pub path: Path,
    /// sel: the predicate selects, it does not mask the writes.
    pub selects: bool,
}

/// `rel[i] == step * i` for every lane.
fn strided(rel: &[u16], step: u32) -> bool {
    rel.iter()
        .enumerate()
        .all(|(i, &r)| u32::from(r) == step * i as u32)
}

/// What a plan computes in, for its sources.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    F32,
    I32,
    I64,
    F64,
}

fn plan_src(s: &SrcOp, n: usize, kind: Kind) -> Option<FSrc> {
    let signed = s.ty.is_signed_int();
    let mut imm64 = 0u64;
    let at = match s.loc {
        Loc::Imm => {
            // As `fill_imm_int` / `fill_imm_f32` extend them.
            let v: i64 = match s.ty {
                Type::F if kind == Kind::F32 => s.imm as u32 as i64,
                Type::UB => s.imm as u8 as i64,
                Type::B => s.imm as i8 as i64,
                Type::UW => s.imm as u16 as i64,
                Type::W => s.imm as i16 as i64,
                Type::UD => s.imm as u32 as i64,
                Type::D => s.imm as i32 as i64,
                Type::UQ | Type::Q if kind == Kind::I64 => s.imm as i64,
                Type::DF if kind == Kind::F64 => s.imm as i64,
                _ => return None,
            };
            if (kind == Kind::F32) != (s.ty == Type::F) || (kind == Kind::F64) != (s.ty == Type::DF)
            {
                return None;
            }
            if matches!(kind, Kind::I64 | Kind::F64) {
                imm64 = v as u64;
                At::QImm(v as u32)
            } else {
                At::Imm(v as u32)
            }
        }
        Loc::Grf if s.indirect.is_none() && s.vxh == 0 => {
            let ok_ty = match kind {
                Kind::F32 => s.ty == Type::F,
                Kind::I32 => matches!(s.ty, Type::D | Type::UD | Type::W | Type::UW),
                Kind::I64 => matches!(
                    s.ty,
                    Type::D | Type::UD | Type::W | Type::UW | Type::Q | Type::UQ
                ),
                Kind::F64 => s.ty == Type::DF,
            };
            if !ok_ty {
                return None;
            }
            let rel = &s.rel[..n];
            let scalar = rel.iter().all(|&r| r == 0);
            match s.ty.size() {
                8 if scalar => At::QScalar(s.base),
                8 if strided(rel, 8) => At::QVec(s.base),
                4 if scalar => At::Scalar(s.base),
                4 if strided(rel, 4) => At::Vec(s.base),
                4 if strided(rel, 8) => At::Vec2(s.base),
                2 if scalar => At::WScalar(s.base),
                2 if strided(rel, 2) => At::Words(s.base),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(FSrc {
        at,
        neg: s.neg,
        abs: s.abs,
        signed,
        hi: (imm64 >> 32) as u32,
    })
}

/// A destination of dwords: contiguous or 8 bytes apart.
fn dform32(d: &DstOp, n: usize) -> Option<DForm> {
    let rel = &d.rel[..n];
    if strided(rel, 4) {
        Some(DForm::Vec)
    } else if strided(rel, 8) {
        Some(DForm::Vec2)
    } else {
        None
    }
}

const NO_SRC: FSrc = FSrc {
    at: At::Imm(0),
    neg: false,
    abs: false,
    signed: false,
    hi: 0,
};

/// The fast form of `inst`, when it has one.
pub fn plan(inst: &ExecInst) -> Option<Plan> {
    let n = inst.n as usize;
    // SIMD2 and SIMD4: the steps of the JIT's reductions across lanes (`sel (4)`, `sel (2)`).
    if !matches!(n, 1 | 2 | 4 | 8 | 16 | 32) || inst.acc_wr {
        return None;
    }
    let float = match inst.dom {
        Dom::F32 => true,
        Dom::Int => false,
        Dom::F64 => return plan_d(inst),
    };
    let d = inst.dst?;
    if d.indirect.is_some() || d.wmask_off != 0 {
        return None;
    }
    if d.loc == Loc::Arf {
        return plan_flag_imm(inst, &d).or_else(|| plan_cr0(inst, &d));
    }
    if float && matches!(d.ty, Type::Q | Type::UQ) {
        return plan_from_f(inst, &d);
    }
    // (Half floats are words too, of the general path's domain: not these.)
    if !float && matches!(d.ty, Type::W | Type::UW) {
        return plan_words(inst, &d);
    }
    let qword = |ty: Type| ty.size() == 8;
    if !float && (qword(d.ty) || inst.srcs.iter().flatten().any(|s| qword(s.ty))) {
        return plan_q(inst, &d);
    }
    if d.ty.size() != 4 {
        return None;
    }
    let (dst, dform) = match d.loc {
        Loc::Null => (None, DForm::Vec),
        Loc::Grf => (Some(d.base), dform32(&d, n)?),
        _ => return None,
    };
    let dst_f = d.ty == Type::F;
    let dst_i = matches!(d.ty, Type::D | Type::UD);
    let cmod = inst.cmod;
    use FOp::*;
    use Opcode::{Add, And, Asr, Cmp, Mad, Mov, Mul, Not, Or, Sel, Shl, Shr, Xor};
    let (op, arity) = match (inst.op, float) {
        (Cmp, true) => (FCmp(cmod?), 2),
        (Cmp, false) => (ICmp(cmod?), 2),
        (Sel, true) if dst_f => (FSel(cmod), 2),
        (Sel, false) if dst_i && !inst.sat => (ISel(cmod), 2),
        _ if cmod.is_some() => return None,
        (Mov, true) if dst_f => (FMov, 1),
        // `.sat` to an integer saturates to its range (the conversion already does).
        (Mov, true) if dst_i => (
            FToI {
                signed: d.ty == Type::D,
            },
            1,
        ),
        (Add, true) if dst_f => (FAdd, 2),
        (Mul, true) if dst_f => (FMul, 2),
        (Mad, true) if dst_f => (FMad, 3),
        (Opcode::Math, true) if dst_f => match inst.math {
            Some(MathFn::Fdiv) => (FDiv, 2),
            Some(MathFn::Inv) => (FInv, 1),
            _ => return None,
        },
        (Mov, false) if dst_f => (IToF, 1),
        (_, false) if !dst_i || inst.sat => return None,
        (Mov, false) => (IMov, 1),
        (Add, false) => (IAdd, 2),
        (Mul, false) => (IMul, 2),
        (And, false) => (IAnd, 2),
        (Or, false) => (IOr, 2),
        (Xor, false) => (IXor, 2),
        (Not, false) => (INot, 1),
        (Shl, false) => (IShl, 2),
        (Shr, false) => (IShr, 2),
        (Asr, false) => (IAsr, 2),
        (Opcode::Math, false) => match inst.math {
            Some(f @ (MathFn::IntDivQuotient | MathFn::IntDivRemainder)) => (
                IDiv {
                    rem: f == MathFn::IntDivRemainder,
                    signed: !inst.all_unsigned,
                },
                2,
            ),
            _ => return None,
        },
        _ => return None,
    };
    // A null destination is planned too: without a conditional modifier
    // (only cmp's sets flags here) the general path writes nothing either.
    // The JIT's `(W) mov (8) null:ud rN:ud`, a wait for a send's reply, is
    // the commonest instruction left on the general path otherwise.
    if inst.srcs.iter().filter(|s| s.is_some()).count() != arity {
        return None;
    }
    let kind = if float { Kind::F32 } else { Kind::I32 };
    let mut srcs = [NO_SRC; 3];
    for k in 0..arity {
        srcs[k] = plan_src(inst.srcs[k].as_ref()?, n, kind)?;
    }
    // Shifts read the count width from src0's type, and shr/asr shift in from
    // its width: only 32-bit src0 here.
    if matches!(op, IShl | IShr | IAsr) && inst.srcs[0].as_ref()?.ty.size() != 4 {
        return None;
    }
    let plain = srcs[..arity]
        .iter()
        .all(|s| matches!(s.at, At::Vec(_) | At::Scalar(_) | At::Imm(_)))
        && dform == DForm::Vec;
    Some(Plan {
        op,
        q: QOp::Mov,
        srcs,
        dst,
        dform,
        sat: inst.sat,
        path: if plain { Path::Plain } else { Path::Strided },
        selects: matches!(op, FSel(_) | ISel(_)),
    })
}

/// `FOp::FlagImm`: an integer immediate moved to f0 or f1 (a word or the dword) on no mask
/// and no predicate; the value the general path writes, the immediate extended as its type
/// says and cut to the destination's size.
fn plan_flag_imm(inst: &ExecInst, d: &DstOp) -> Option<Plan> {
    use super::program::arf;
    let bytes = d.ty.size();
    if inst.op != Opcode::Mov
        || inst.dom != Dom::Int
        || inst.n != 1
        || !inst.no_mask
        || inst.pred.is_some()
        || inst.cmod.is_some()
        || inst.sat
        || !matches!(d.ty, Type::W | Type::UW | Type::D | Type::UD)
    {
        return None;
    }
    let at = d.base as usize + usize::from(d.rel[0]);
    if !matches!(at / 32, arf::F0 | arf::F1) || at % 32 + bytes as usize > 4 {
        return None;
    }
    let s = inst.srcs[0].as_ref()?;
    if s.loc != Loc::Imm || s.ty.size() > 4 || inst.srcs[1].is_some() {
        return None;
    }
    let At::Imm(v) = plan_src(s, 1, Kind::I32)?.at else {
        return None;
    };
    let value = if bytes == 2 { v & 0xFFFF } else { v };
    Some(Plan {
        op: FOp::FlagImm {
            at: at as u16,
            bytes: bytes as u8,
            value,
        },
        q: QOp::Mov,
        srcs: [NO_SRC; 3],
        dst: None,
        dform: DForm::Vec,
        sat: false,
        path: Path::Plain,
        selects: false,
    })
}

/// `FOp::Cr0Imm`: cr0.0 or'ed or and'ed with an integer immediate into itself, on no mask
/// and no predicate, as the general path computes it.
fn plan_cr0(inst: &ExecInst, d: &DstOp) -> Option<Plan> {
    use super::program::arf;
    if !matches!(inst.op, Opcode::Or | Opcode::And)
        || inst.dom != Dom::Int
        || inst.n != 1
        || !inst.no_mask
        || inst.pred.is_some()
        || inst.cmod.is_some()
        || inst.sat
        || !matches!(d.ty, Type::D | Type::UD)
    {
        return None;
    }
    let at = d.base + u32::from(d.rel[0]);
    if at != (arf::CR0 * 32) as u32 {
        return None;
    }
    let (s0, s1) = (inst.srcs[0].as_ref()?, inst.srcs[1].as_ref()?);
    // The register itself, unmodified (a modifier of a logic operation is a not).
    if s0.loc != Loc::Arf
        || s0.indirect.is_some()
        || s0.base + u32::from(s0.rel[0]) != at
        || s0.ty.size() != 4
        || s0.neg
        || s0.abs
        || s1.loc != Loc::Imm
        || s1.ty.size() > 4
    {
        return None;
    }
    let At::Imm(value) = plan_src(s1, 1, Kind::I32)?.at else {
        return None;
    };
    Some(Plan {
        op: FOp::Cr0Imm {
            or: inst.op == Opcode::Or,
            value,
        },
        q: QOp::Mov,
        srcs: [NO_SRC; 3],
        dst: None,
        dform: DForm::Vec,
        sat: false,
        path: Path::Plain,
        selects: false,
    })
}

/// Integer operations to a word destination: moves, adds, multiplies and logic, whose low
/// 16 bits depend on their sources' low 16 bits only. So a word source 4 bytes apart
/// (`<16;8,2>:uw`, the halves of dwords) reads as the dwords it starts, whatever its
/// extension; abs, which is not of that kind, stays general, as do saturation and
/// conditional modifiers.
fn plan_words(inst: &ExecInst, d: &DstOp) -> Option<Plan> {
    use FOp::*;
    use Opcode::{Add, And, Mov, Mul, Not, Or, Xor};
    let n = inst.n as usize;
    if inst.sat || inst.cmod.is_some() || d.loc != Loc::Grf {
        return None;
    }
    let dform = if strided(&d.rel[..n], 2) {
        DForm::Words
    } else if strided(&d.rel[..n], 4) {
        DForm::Words2
    } else {
        return None;
    };
    let (op, arity) = match inst.op {
        Mov => (IMov, 1),
        Not => (INot, 1),
        Add => (IAdd, 2),
        Mul => (IMul, 2),
        And => (IAnd, 2),
        Or => (IOr, 2),
        Xor => (IXor, 2),
        _ => return None,
    };
    if inst.srcs.iter().filter(|s| s.is_some()).count() != arity {
        return None;
    }
    let mut srcs = [NO_SRC; 3];
    for k in 0..arity {
        let s = inst.srcs[k].as_ref()?;
        if s.abs {
            return None;
        }
        let halves = matches!(s.ty, Type::W | Type::UW)
            && s.loc == Loc::Grf
            && s.indirect.is_none()
            && s.vxh == 0
            && s.base % 4 == 0
            && strided(&s.rel[..n], 4);
        srcs[k] = if halves {
            FSrc {
                at: At::Vec(s.base),
                neg: s.neg,
                abs: false,
                signed: s.ty.is_signed_int(),
                hi: 0,
            }
        } else {
            plan_src(s, n, Kind::I32)?
        };
    }
    Some(Plan {
        op,
        q: QOp::Mov,
        srcs,
        dst: Some(d.base),
        dform,
        sat: false,
        path: Path::Strided,
        selects: false,
    })
}

/// The 64-bit integer plans: some source or the destination is a qword.
fn plan_q(inst: &ExecInst, d: &DstOp) -> Option<Plan> {
    let n = inst.n as usize;
    // SIMD16 qword operations are split by the JIT; saturation stays general.
    if !matches!(n, 1 | 8) || inst.sat {
        return None;
    }
    let (dst, dform) = match (d.loc, d.ty) {
        (Loc::Null, _) => (None, DForm::Vec),
        (Loc::Grf, Type::Q | Type::UQ) if strided(&d.rel[..n], 8) => (Some(d.base), DForm::QVec),
        // The general path writes the low 32 bits of the 64-bit result.
        (Loc::Grf, Type::D | Type::UD) => (Some(d.base), dform32(d, n)?),
        // A conversion to float (the JIT's 64-bit division estimates its quotient digits
        // in single precision): the float's bits in the dword.
        (Loc::Grf, Type::F) if inst.op == Opcode::Mov && inst.cmod.is_none() => {
            (Some(d.base), dform32(d, n)?)
        }
        _ => return None,
    };
    let src = |k: usize| inst.srcs[k].as_ref();
    let u = inst.unsigned64;
    use Opcode::{Add, And, Asr, Cmp, Mov, Mul, Not, Or, Sel, Shl, Shr, Xor};
    let (op, arity) = match inst.op {
        Cmp => (QOp::Cmp { cm: inst.cmod?, u }, 2),
        Sel => (QOp::Sel { cm: inst.cmod, u }, 2),
        _ if inst.cmod.is_some() => return None,
        Mov if d.ty == Type::F => (QOp::ToF { u }, 1),
        Mov => (QOp::Mov, 1),
        Add => (QOp::Add, 2),
        // The JIT's widening multiply; qword factors stay general.
        Mul if src(0)?.ty.size() <= 4 && src(1)?.ty.size() <= 4 => (QOp::Mul, 2),
        And => (QOp::And, 2),
        Or => (QOp::Or, 2),
        Xor => (QOp::Xor, 2),
        Not => (QOp::Not, 1),
        Shl | Shr | Asr => {
            let size0 = src(0)?.ty.size();
            if !matches!(size0, 4 | 8) {
                return None;
            }
            // As `alu::exec`: the count is masked to 6 bits when src0 or the
            // destination is a qword.
            let cm = if size0 == 8 || d.ty.size() == 8 {
                63
            } else {
                31
            };
            let bits = (size0 * 8) as u8;
            match inst.op {
                Shl => (QOp::Shl { cm }, 2),
                Shr => (QOp::Shr { cm, bits }, 2),
                _ => (QOp::Asr { cm, bits }, 2),
            }
        }
        _ => return None,
    };
    if inst.srcs.iter().filter(|s| s.is_some()).count() != arity {
        return None;
    }
    let mut srcs = [NO_SRC; 3];
    for k in 0..arity {
        srcs[k] = plan_src(src(k)?, n, Kind::I64)?;
    }
    Some(Plan {
        op: FOp::Wide,
        q: op,
        srcs,
        dst,
        dform,
        sat: false,
        path: Path::Wide,
        selects: matches!(op, QOp::Sel { .. }),
    })
}

/// `mov` of an F source (contiguous, the halves of qwords, scalar, immediate) to Q or UQ,
/// contiguous qwords, SIMD1 and SIMD8 (the 64-bit division's quotient digit back to an
/// integer).
fn plan_from_f(inst: &ExecInst, d: &DstOp) -> Option<Plan> {
    let n = inst.n as usize;
    if !matches!(n, 1 | 8)
        || inst.op != Opcode::Mov
        || inst.sat
        || inst.cmod.is_some()
        || d.loc != Loc::Grf
        || !strided(&d.rel[..n], 8)
    {
        return None;
    }
    let s = inst.srcs[0].as_ref()?;
    if inst.srcs[1..].iter().any(|s| s.is_some()) {
        return None;
    }
    let mut srcs = [NO_SRC; 3];
    srcs[0] = plan_src(s, n, Kind::F32)?;
    Some(Plan {
        op: FOp::Wide,
        q: QOp::FromF {
            u: d.ty == Type::UQ,
        },
        srcs,
        dst: Some(d.base),
        dform: DForm::QVec,
        sat: false,
        path: Path::Wide,
        selects: false,
    })
}

/// The double plans: mov, add, mul, mad, sel and cmp with DF sources (contiguous,
/// scalar, immediate) and a DF destination of contiguous qwords (or null for cmp), SIMD1
/// and SIMD8 (the JIT splits SIMD16 doubles, as the PRM's 64-byte limit asks).
fn plan_d(inst: &ExecInst) -> Option<Plan> {
    let n = inst.n as usize;
    let d = inst.dst?;
    if !matches!(n, 1 | 8) || inst.sat || d.ty != Type::DF {
        return None;
    }
    use Opcode::{Add, Cmp, Mad, Mov, Mul, Sel};
    let (op, arity) = match inst.op {
        Cmp => (QOp::DCmp { cm: inst.cmod? }, 2),
        Sel => (QOp::DSel { cm: inst.cmod }, 2),
        _ if inst.cmod.is_some() => return None,
        Mov => (QOp::DMov, 1),
        Add => (QOp::DAdd, 2),
        Mul => (QOp::DMul, 2),
        Mad => (QOp::DMad, 3),
        _ => return None,
    };
    let (dst, dform) = match d.loc {
        Loc::Null if inst.op == Cmp => (None, DForm::QVec),
        Loc::Grf if strided(&d.rel[..n], 8) => (Some(d.base), DForm::QVec),
        _ => return None,
    };
    if inst.srcs.iter().filter(|s| s.is_some()).count() != arity {
        return None;
    }
    let mut srcs = [NO_SRC; 3];
    for k in 0..arity {
        srcs[k] = plan_src(inst.srcs[k].as_ref()?, n, Kind::F64)?;
        if !matches!(srcs[k].at, At::QVec(_) | At::QScalar(_) | At::QImm(_)) {
            return None;
        }
    }
    Some(Plan {
        op: FOp::Wide,
        q: op,
        srcs,
        dst,
        dform,
        sat: false,
        path: Path::Double,
        selects: matches!(op, QOp::DSel { .. }),
    })
}

impl Plan {
    /// A 64-bit plan (executed by `lanes_q`).
    #[inline(always)]
    pub fn wide(&self) -> bool {
        self.path == Path::Wide
    }

    /// Whether the plan computes what the general path does under `cr0`:
    /// float results that round need cr0's rounding mode to be RTNE.
    #[inline]
    pub fn applies(&self, cr0: u32) -> bool {
        if self.path == Path::Double {
            // Doubles: denormals kept (what OpenCL asks, and the JIT sets), and
            // arithmetic rounding to nearest even.
            return cr0 & CR0_FP64_DENORM_KEEP != 0
                && (cr0 & CR0_ROUND_MASK == 0
                    || !matches!(self.q, QOp::DAdd | QOp::DMul | QOp::DMad));
        }
        cr0 & CR0_ROUND_MASK == 0
            || !(matches!(self.op, FOp::FAdd | FOp::FMul | FOp::FMad | FOp::IToF)
                || self.path == Path::Wide && matches!(self.q, QOp::ToF { .. }))
    }
}

/// Execute a planned instruction; returns the lanes it wrote (as `alu::exec`).
pub fn exec(t: &mut Thread, inst: &ExecInst, p: &Plan) -> u32 {
    let enabled = t.enabled(inst);
    let pred = if inst.pred.is_some() {
        t.pred_mask(inst)
    } else {
        full(inst.n)
    };
    // sel uses the predicate as its selector, not as a write mask.
    let wmask = if p.selects { enabled } else { enabled & pred };
    match p.op {
        FOp::FlagImm { at, bytes, value } => {
            let (at, bytes) = (usize::from(at), usize::from(bytes));
            t.arf[at..at + bytes].copy_from_slice(&value.to_le_bytes()[..bytes]);
            return wmask;
        }
        FOp::Cr0Imm { or, value } => {
            let c = t.cr0();
            let c = if or { c | value } else { c & value };
            t.set_arf_u32(super::program::arf::CR0, 0, c);
            return wmask;
        }
        _ => {}
    }
    let ftz = t.cr0() & CR0_FP32_DENORM_KEEP == 0;
    let cond = run(&mut t.grf, p, inst.n, wmask, pred, ftz);
    if let Some(m) = cond {
        write_flags(t, inst, wmask, m);
    }
    wmask
}

pub(super) fn run(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32, ftz: bool) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the host supports the features the functions are compiled for.
        return unsafe {
            match p.path {
                Path::Plain => run_avx2::<false>(g, p, n, wmask, pred, ftz),
                Path::Strided => run_avx2::<true>(g, p, n, wmask, pred, ftz),
                Path::Wide => run_q_avx2(g, p, n, wmask, pred),
                Path::Double => run_d_avx2(g, p, n, wmask, pred),
            }
        };
    }
    run_portable(g, p, n, wmask, pred, ftz)
}

/// Without AVX2. Out of line, so that `run` stays a small dispatcher.
#[inline(never)]
fn run_portable(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32, ftz: bool) -> Option<u32> {
    match p.path {
        Path::Plain => run_any::<false>(g, p, n, wmask, pred, ftz),
        Path::Strided => run_any::<true>(g, p, n, wmask, pred, ftz),
        Path::Wide => run_q(g, p, n, wmask, pred),
        Path::Double => run_d(g, p, n, wmask, pred),
    }
}

/// The same loops compiled for AVX2 + FMA: identical results (no contraction
/// happens in Rust; `mul_add` is a fused multiply-add either way), wider vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2<const S: bool>(
    g: &mut [u8],
    p: &Plan,
    n: u8,
    wmask: u32,
    pred: u32,
    ftz: bool,
) -> Option<u32> {
    run_any::<S>(g, p, n, wmask, pred, ftz)
}

/// The 64-bit plans in functions of their own, as the strided ones: inlined
/// beside the plain 32-bit loops, they made those slower.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_q_avx2(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32) -> Option<u32> {
    run_q(g, p, n, wmask, pred)
}

/// The double plans, with FMA for `mad` (the same fused result without it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_d_avx2(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32) -> Option<u32> {
    run_d(g, p, n, wmask, pred)
}

#[inline(always)]
fn run_d(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32) -> Option<u32> {
    if n == 1 {
        lanes_d::<1>(g, p, wmask, pred)
    } else {
        lanes_d::<8>(g, p, wmask, pred)
    }
}

/// A DF source as `gather_f64` gives it with denormals kept: abs, then negate.
#[inline(always)]
fn load_d<const N: usize>(g: &[u8], s: &FSrc) -> [f64; N] {
    let mut r = [0f64; N];
    let and = if s.abs { !(1u64 << 63) } else { u64::MAX };
    let xor = if s.neg { 1u64 << 63 } else { 0 };
    let bits = |b: u64| f64::from_bits((b & and) ^ xor);
    match s.at {
        At::QVec(o) => {
            let o = o as usize;
            let b = &g[o..o + 8 * N];
            for i in 0..N {
                r[i] = bits(qword(b, 8 * i));
            }
        }
        At::QScalar(o) => r = [bits(qword(g, o as usize)); N],
        At::QImm(lo) => r = [bits(u64::from(s.hi) << 32 | u64::from(lo)); N],
        _ => unreachable!("`plan_d` plans qword sources only"),
    }
    r
}

/// `alu::exec`'s doubles (`Dom::F64`) on the planned forms: the same operations, the
/// same NaN rule (`nan_f64`), the same comparisons.
#[inline(always)]
fn lanes_d<const N: usize>(g: &mut [u8], p: &Plan, wmask: u32, pred: u32) -> Option<u32> {
    use QOp::*;
    let [s0, s1, s2] = &p.srcs;
    let x = load_d::<N>(g, s0);
    let mut out = [0f64; N];
    let mut cond = None;
    match p.q {
        DMov => out = x,
        _ => {
            let y = load_d::<N>(g, s1);
            match p.q {
                DAdd => {
                    for i in 0..N {
                        let r = x[i] + y[i];
                        out[i] = if r.is_nan() {
                            nan_f64(&[x[i], y[i]])
                        } else {
                            r
                        };
                    }
                }
                DMul => {
                    for i in 0..N {
                        let r = x[i] * y[i];
                        out[i] = if r.is_nan() {
                            nan_f64(&[x[i], y[i]])
                        } else {
                            r
                        };
                    }
                }
                DMad => {
                    let z = load_d::<N>(g, s2);
                    for i in 0..N {
                        let r = y[i].mul_add(z[i], x[i]);
                        out[i] = if r.is_nan() {
                            nan_f64(&[x[i], y[i], z[i]])
                        } else {
                            r
                        };
                    }
                }
                DSel { cm } => {
                    // With a condition: IEEE minNum/maxNum, a NaN operand loses.
                    let m = match cm {
                        None => pred,
                        Some(cm) => mask_of::<N>(|i| {
                            if y[i].is_nan() {
                                true
                            } else if x[i].is_nan() {
                                false
                            } else {
                                super::alu::cond_f(cm, x[i], y[i])
                            }
                        }),
                    };
                    for i in 0..N {
                        out[i] = if (m >> i) & 1 != 0 { x[i] } else { y[i] };
                    }
                }
                DCmp { cm } => {
                    let m = mask_of::<N>(|i| super::alu::cond_f(cm, x[i], y[i]));
                    for i in 0..N {
                        out[i] = f64::from_bits(if (m >> i) & 1 != 0 { u64::MAX } else { 0 });
                    }
                    cond = Some(m);
                }
                _ => unreachable!("a double plan"),
            }
        }
    }
    if let Some(o) = p.dst {
        let mut bits = [0i64; N];
        for i in 0..N {
            bits[i] = out[i].to_bits() as i64;
        }
        store_q::<N>(g, o, DForm::QVec, &bits, wmask);
    }
    cond
}

/// `S`: the plan is `Path::Strided` (else `Path::Plain`).
#[inline(always)]
fn run_any<const S: bool>(
    g: &mut [u8],
    p: &Plan,
    n: u8,
    wmask: u32,
    pred: u32,
    ftz: bool,
) -> Option<u32> {
    match n {
        1 => lanes::<1, S>(g, p, wmask, pred, ftz),
        2 => lanes::<2, S>(g, p, wmask, pred, ftz),
        4 => lanes::<4, S>(g, p, wmask, pred, ftz),
        8 => lanes::<8, S>(g, p, wmask, pred, ftz),
        16 => lanes::<16, S>(g, p, wmask, pred, ftz),
        _ => lanes::<32, S>(g, p, wmask, pred, ftz),
    }
}

/// `plan_q` makes 64-bit plans for SIMD1 and SIMD8 only.
#[inline(always)]
fn run_q(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32) -> Option<u32> {
    if n == 1 {
        lanes_q::<1>(g, p, wmask, pred)
    } else {
        lanes_q::<8>(g, p, wmask, pred)
    }
}

#[inline(always)]
fn dword(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

#[inline(always)]
fn qword(b: &[u8], o: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[o..o + 8]);
    u64::from_le_bytes(a)
}

/// A word extended to 32 bits per `signed`.
#[inline(always)]
fn word(b: &[u8], o: usize, signed: bool) -> u32 {
    let w = u16::from_le_bytes([b[o], b[o + 1]]);
    if signed {
        w as i16 as i32 as u32
    } else {
        u32::from(w)
    }
}

/// A source's lanes as 32-bit values (of a qword source: its low halves).
/// `S`: the strided and word forms may occur (`Path`).
#[inline(always)]
fn load<const N: usize, const S: bool>(g: &[u8], s: &FSrc) -> [u32; N] {
    match s.at {
        At::Vec(o) => {
            let o = o as usize;
            let b = &g[o..o + 4 * N];
            let mut r = [0u32; N];
            for i in 0..N {
                r[i] = dword(b, 4 * i);
            }
            r
        }
        At::Scalar(o) => [dword(g, o as usize); N],
        At::Imm(v) => [v; N],
        // `plan` makes a plain plan only of the three forms above.
        _ if !S => unreachable!("a strided form in a plain plan"),
        _ => load_all::<N>(g, s),
    }
}

/// `load` of every form (strided plans, and the dword sources of 64-bit ones).
/// Slices end at the last element read: a region may end at r127's last byte.
#[inline(always)]
fn load_all<const N: usize>(g: &[u8], s: &FSrc) -> [u32; N] {
    let mut r = [0u32; N];
    match s.at {
        At::Vec2(o) | At::QVec(o) => {
            let o = o as usize;
            let b = &g[o..o + 8 * (N - 1) + 4];
            for i in 0..N {
                r[i] = dword(b, 8 * i);
            }
        }
        At::Words(o) => {
            let o = o as usize;
            let b = &g[o..o + 2 * N];
            for i in 0..N {
                r[i] = word(b, 2 * i, s.signed);
            }
        }
        At::WScalar(o) => r = [word(g, o as usize, s.signed); N],
        At::Scalar(o) | At::QScalar(o) => r = [dword(g, o as usize); N],
        At::Imm(v) | At::QImm(v) => r = [v; N],
        At::Vec(o) => {
            let o = o as usize;
            let b = &g[o..o + 4 * N];
            for i in 0..N {
                r[i] = dword(b, 4 * i);
            }
        }
    }
    r
}

/// Write the lanes of `mask` as dwords `STEP` (4 or 8) bytes apart; other
/// lanes and the bytes between keep their contents.
#[inline(always)]
fn store_at<const N: usize, const STEP: usize>(g: &mut [u8], o: u32, v: &[u32; N], mask: u32) {
    let o = o as usize;
    let b = &mut g[o..o + STEP * (N - 1) + 4];
    if mask == full(N as u8) {
        for i in 0..N {
            b[STEP * i..STEP * i + 4].copy_from_slice(&v[i].to_le_bytes());
        }
        return;
    }
    // Branch-free blend, so that it vectorises too.
    for i in 0..N {
        let old = dword(b, STEP * i);
        let m = 0u32.wrapping_sub((mask >> i) & 1);
        b[STEP * i..STEP * i + 4].copy_from_slice(&((v[i] & m) | (old & !m)).to_le_bytes());
    }
}

/// Write the lanes of `mask` of a dword destination at `o`; other lanes keep
/// their contents. `S` as for `load` (a plain plan's `form` is `Vec`).
#[inline(always)]
fn store<const N: usize, const S: bool>(
    g: &mut [u8],
    o: u32,
    form: DForm,
    v: &[u32; N],
    mask: u32,
) {
    if !S || form == DForm::Vec {
        store_at::<N, 4>(g, o, v, mask)
    } else {
        match form {
            DForm::Words => store_words::<N, 2>(g, o, v, mask),
            DForm::Words2 => store_words::<N, 4>(g, o, v, mask),
            // (Of a qword destination, the low halves: only `store_q` has one.)
            _ => store_at::<N, 8>(g, o, v, mask),
        }
    }
}

/// Write the low 16 bits of the lanes of `mask` as words `STEP` (2 or 4) bytes apart;
/// other lanes and the bytes between keep their contents.
#[inline(always)]
fn store_words<const N: usize, const STEP: usize>(g: &mut [u8], o: u32, v: &[u32; N], mask: u32) {
    let o = o as usize;
    let b = &mut g[o..o + STEP * (N - 1) + 2];
    for i in 0..N {
        if (mask >> i) & 1 != 0 {
            b[STEP * i..STEP * i + 2].copy_from_slice(&(v[i] as u16).to_le_bytes());
        }
    }
}

/// Denormal → zero of the same sign, on f32 bits.
#[inline(always)]
fn flush(v: u32) -> u32 {
    if v & 0x7F80_0000 == 0 {
        v & 0x8000_0000
    } else {
        v
    }
}

/// A float source as `gather_f32` produces it: flush (when `ftz`), abs, negate.
/// (Plain loops rather than `array::map`, which is not reliably inlined.)
#[inline(always)]
fn load_f<const N: usize, const S: bool>(g: &[u8], s: &FSrc, ftz: bool) -> [f32; N] {
    let mut v = load::<N, S>(g, s);
    if ftz {
        for x in v.iter_mut() {
            *x = flush(*x);
        }
    }
    let and = if s.abs { 0x7FFF_FFFF } else { u32::MAX };
    let xor = if s.neg { 0x8000_0000 } else { 0 };
    let mut r = [0f32; N];
    for i in 0..N {
        r[i] = f32::from_bits((v[i] & and) ^ xor);
    }
    r
}

/// An integer source's low 32 bits after its modifiers (`logic`: negate is not).
#[inline(always)]
fn load_u<const N: usize, const S: bool>(g: &[u8], s: &FSrc, logic: bool) -> [u32; N] {
    let mut v = load::<N, S>(g, s);
    if logic {
        if s.neg {
            for x in v.iter_mut() {
                *x = !*x;
            }
        }
        return v;
    }
    // abs of a zero-extended value is the value itself.
    if s.abs && s.signed {
        for x in v.iter_mut() {
            *x = (*x as i32).wrapping_abs() as u32;
        }
    }
    if s.neg {
        for x in v.iter_mut() {
            *x = x.wrapping_neg();
        }
    }
    v
}

/// An integer source extended to i64 as `gather_int` does, modifiers in 64 bits.
#[inline(always)]
fn load_w<const N: usize, const S: bool>(g: &[u8], s: &FSrc) -> [i64; N] {
    let v = load::<N, S>(g, s);
    let mut r = [0i64; N];
    for i in 0..N {
        let mut x = if s.signed {
            v[i] as i32 as i64
        } else {
            v[i] as i64
        };
        if s.abs {
            x = x.wrapping_abs();
        }
        if s.neg {
            x = x.wrapping_neg();
        }
        r[i] = x;
    }
    r
}

#[inline(always)]
fn sat(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

/// The general path's comparisons: f32 widens to f64 exactly (NaN stays NaN).
#[inline(always)]
fn cond_f(cm: CondMod, a: f32, b: f32) -> bool {
    super::alu::cond_f(cm, f64::from(a), f64::from(b))
}

#[inline(always)]
fn cond_i(cm: CondMod, a: i64, b: i64) -> bool {
    cond_int(cm, a, b, false)
}

#[inline(always)]
fn mask_of<const N: usize>(f: impl Fn(usize) -> bool) -> u32 {
    let mut m = 0u32;
    for i in 0..N {
        m |= u32::from(f(i)) << i;
    }
    m
}

#[inline(always)]
fn zip<const N: usize>(x: &[u32; N], y: &[u32; N], f: impl Fn(u32, u32) -> u32) -> [u32; N] {
    let mut r = [0u32; N];
    for i in 0..N {
        r[i] = f(x[i], y[i]);
    }
    r
}

#[inline(always)]
fn lanes<const N: usize, const S: bool>(
    g: &mut [u8],
    p: &Plan,
    wmask: u32,
    pred: u32,
    ftz: bool,
) -> Option<u32> {
    use FOp::*;
    let [s0, s1, s2] = &p.srcs;
    let mut out = [0u32; N];
    let mut cond = None;
    // Float results: saturate, to bits.
    let fin = |mut r: [f32; N], out: &mut [u32; N]| {
        if p.sat {
            for v in r.iter_mut() {
                *v = sat(*v);
            }
        }
        for i in 0..N {
            out[i] = r[i].to_bits();
        }
    };
    match p.op {
        FMov => fin(load_f::<N, S>(g, s0, false), &mut out),
        FAdd | FMul | FMad => {
            let x = load_f::<N, S>(g, s0, ftz);
            let y = load_f::<N, S>(g, s1, ftz);
            let mut r = [0f32; N];
            match p.op {
                FAdd => {
                    for i in 0..N {
                        r[i] = x[i] + y[i];
                    }
                }
                FMul => {
                    for i in 0..N {
                        r[i] = x[i] * y[i];
                    }
                }
                _ => {
                    // Gen mad: src0 + src1 * src2, one rounding.
                    let z = load_f::<N, S>(g, s2, ftz);
                    for i in 0..N {
                        r[i] = y[i].mul_add(z[i], x[i]);
                    }
                }
            }
            if r.iter().any(|v| v.is_nan()) {
                let z = if p.op == FMad {
                    load_f::<N, S>(g, s2, ftz)
                } else {
                    [0.0; N]
                };
                let k = if p.op == FMad { 3 } else { 2 };
                for i in 0..N {
                    if r[i].is_nan() {
                        r[i] = nan_f32(&[x[i], y[i], z[i]][..k]);
                    }
                }
            }
            // Saturation comes after the flush in the general path; flushing
            // a value in [0, 1] again changes nothing, so the order is moot.
            let mut rf = r;
            if ftz {
                for v in rf.iter_mut() {
                    *v = f32::from_bits(flush(v.to_bits()));
                }
            }
            fin(rf, &mut out);
        }
        FDiv | FInv => {
            let x = load_f::<N, S>(g, s0, ftz);
            let mut r = [0f32; N];
            if p.op == FDiv {
                let y = load_f::<N, S>(g, s1, ftz);
                for i in 0..N {
                    r[i] = x[i] / y[i];
                }
            } else {
                for i in 0..N {
                    r[i] = 1.0 / x[i];
                }
            }
            if ftz {
                for v in r.iter_mut() {
                    *v = f32::from_bits(flush(v.to_bits()));
                }
            }
            fin(r, &mut out);
        }
        FSel(cm) => {
            let x = load_f::<N, S>(g, s0, false);
            let y = load_f::<N, S>(g, s1, false);
            let m = match cm {
                None => pred,
                // minNum/maxNum: a NaN operand loses.
                Some(cm) => mask_of::<N>(|i| {
                    if y[i].is_nan() {
                        true
                    } else if x[i].is_nan() {
                        false
                    } else {
                        cond_f(cm, x[i], y[i])
                    }
                }),
            };
            let mut r = [0f32; N];
            for i in 0..N {
                r[i] = if (m >> i) & 1 != 0 { x[i] } else { y[i] };
            }
            fin(r, &mut out);
        }
        FCmp(cm) => {
            let x = load_f::<N, S>(g, s0, ftz);
            let y = load_f::<N, S>(g, s1, ftz);
            let m = mask_of::<N>(|i| cond_f(cm, x[i], y[i]));
            for i in 0..N {
                out[i] = if (m >> i) & 1 != 0 { u32::MAX } else { 0 };
            }
            cond = Some(m);
        }
        FToI { signed } => {
            let x = load_f::<N, S>(g, s0, false);
            for i in 0..N {
                let v = x[i];
                out[i] = if signed { v as i32 as u32 } else { v as u32 };
            }
        }
        IToF => {
            let x = load_w::<N, S>(g, s0);
            let mut r = [0f32; N];
            for i in 0..N {
                r[i] = x[i] as f32;
            }
            fin(r, &mut out);
        }
        ISel(cm) => {
            let x = load_w::<N, S>(g, s0);
            let y = load_w::<N, S>(g, s1);
            let m = match cm {
                None => pred,
                Some(cm) => mask_of::<N>(|i| cond_i(cm, x[i], y[i])),
            };
            for i in 0..N {
                out[i] = if (m >> i) & 1 != 0 { x[i] } else { y[i] } as u32;
            }
        }
        ICmp(cm) => {
            let x = load_w::<N, S>(g, s0);
            let y = load_w::<N, S>(g, s1);
            let m = mask_of::<N>(|i| cond_i(cm, x[i], y[i]));
            for i in 0..N {
                out[i] = if (m >> i) & 1 != 0 { u32::MAX } else { 0 };
            }
            cond = Some(m);
        }
        IMov | INot => {
            let logic = p.op == INot;
            let x = load_u::<N, S>(g, s0, logic);
            for i in 0..N {
                out[i] = if logic { !x[i] } else { x[i] };
            }
        }
        IAdd | IMul | IAnd | IOr | IXor | IShl | IShr | IAsr => {
            let logic = matches!(p.op, IAnd | IOr | IXor);
            let x = load_u::<N, S>(g, s0, logic);
            let y = load_u::<N, S>(g, s1, logic);
            out = match p.op {
                IAdd => zip(&x, &y, u32::wrapping_add),
                IMul => zip(&x, &y, u32::wrapping_mul),
                IAnd => zip(&x, &y, |a, b| a & b),
                IOr => zip(&x, &y, |a, b| a | b),
                IXor => zip(&x, &y, |a, b| a ^ b),
                // Shift counts are masked to 5 bits for 32-bit src0.
                IShl => zip(&x, &y, |a, b| a << (b & 31)),
                IShr => zip(&x, &y, |a, b| a >> (b & 31)),
                _ => zip(&x, &y, |a, b| ((a as i32) >> (b & 31)) as u32),
            };
        }
        IDiv { rem, signed } => {
            let x = load_u::<N, S>(g, s0, false);
            let y = load_u::<N, S>(g, s1, false);
            out = zip(&x, &y, |a, b| div32(a, b, signed, rem));
        }
        Wide => unreachable!("64-bit plans run in lanes_q"),
        FlagImm { .. } | Cr0Imm { .. } => unreachable!("`exec` writes the ARF itself"),
    }
    if let Some(o) = p.dst {
        store::<N, S>(g, o, p.dform, &out, wmask);
    }
    cond
}

/// The quotient (or with `rem` the remainder) of `a / b` on the sources' 32 bits: the
/// general path's `alu::int_div` (by zero, all ones or `a`; `i32::MIN / -1` wraps).
#[inline(always)]
pub(super) fn div32(a: u32, b: u32, signed: bool, rem: bool) -> u32 {
    let (q, r) = super::alu::int_div(i64::from(a), i64::from(b), !signed);
    (if rem { r } else { q }) as u32
}

/// A source of a 64-bit plan as `gather_int` gives it: extended to i64 per its
/// type, then abs and negate in 64 bits (`logic`: negate is a 64-bit not).
#[inline(always)]
fn load_q<const N: usize>(g: &[u8], s: &FSrc, logic: bool) -> [i64; N] {
    let mut r = [0i64; N];
    match s.at {
        At::QVec(o) => {
            let o = o as usize;
            let b = &g[o..o + 8 * N];
            for i in 0..N {
                r[i] = qword(b, 8 * i) as i64;
            }
        }
        At::QScalar(o) => r = [qword(g, o as usize) as i64; N],
        At::QImm(lo) => r = [(u64::from(s.hi) << 32 | u64::from(lo)) as i64; N],
        _ => {
            let v = load_all::<N>(g, s);
            for i in 0..N {
                r[i] = if s.signed {
                    v[i] as i32 as i64
                } else {
                    i64::from(v[i])
                };
            }
        }
    }
    if logic {
        if s.neg {
            for x in r.iter_mut() {
                *x = !*x;
            }
        }
        return r;
    }
    if s.abs {
        for x in r.iter_mut() {
            *x = x.wrapping_abs();
        }
    }
    if s.neg {
        for x in r.iter_mut() {
            *x = x.wrapping_neg();
        }
    }
    r
}

/// Write the lanes of `mask` of a 64-bit result: whole qwords, or the low
/// halves to a dword destination (what the general path's conversion keeps).
#[inline(always)]
fn store_q<const N: usize>(g: &mut [u8], o: u32, form: DForm, v: &[i64; N], mask: u32) {
    if form != DForm::QVec {
        let mut lo = [0u32; N];
        for i in 0..N {
            lo[i] = v[i] as u32;
        }
        return store::<N, true>(g, o, form, &lo, mask);
    }
    let o = o as usize;
    let b = &mut g[o..o + 8 * N];
    for i in 0..N {
        let old = qword(b, 8 * i);
        let m = 0u64.wrapping_sub(u64::from((mask >> i) & 1));
        b[8 * i..8 * i + 8].copy_from_slice(&((v[i] as u64 & m) | (old & !m)).to_le_bytes());
    }
}

#[inline(always)]
fn zip64<const N: usize>(x: &[i64; N], y: &[i64; N], f: impl Fn(i64, i64) -> i64) -> [i64; N] {
    let mut r = [0i64; N];
    for i in 0..N {
        r[i] = f(x[i], y[i]);
    }
    r
}

#[inline(always)]
fn lanes_q<const N: usize>(g: &mut [u8], p: &Plan, wmask: u32, pred: u32) -> Option<u32> {
    use QOp::*;
    let [s0, s1, _] = &p.srcs;
    if let FromF { u } = p.q {
        // The float's bits, |x| then -x as the source modifiers say (the general path's
        // denormal flush changes no truncated value).
        let mut out = [0i64; N];
        for (o, b) in out.iter_mut().zip(load_all::<N>(g, s0)) {
            let b = if s0.abs { b & 0x7FFF_FFFF } else { b };
            let v = f32::from_bits(if s0.neg { b ^ 0x8000_0000 } else { b });
            *o = if u { v as u64 as i64 } else { v as i64 };
        }
        if let Some(o) = p.dst {
            store_q::<N>(g, o, p.dform, &out, wmask);
        }
        return None;
    }
    let logic = matches!(p.q, And | Or | Xor | Not);
    let x = load_q::<N>(g, s0, logic);
    let mut out = [0i64; N];
    let mut cond = None;
    match p.q {
        Mov => out = x,
        ToF { u } => {
            for i in 0..N {
                let f = if u { x[i] as u64 as f32 } else { x[i] as f32 };
                out[i] = i64::from(f.to_bits());
            }
        }
        Not => {
            for i in 0..N {
                out[i] = !x[i];
            }
        }
        _ => {
            let y = load_q::<N>(g, s1, logic);
            match p.q {
                Add => out = zip64(&x, &y, |a, b| a.wrapping_add(b)),
                Mul => out = zip64(&x, &y, |a, b| a.wrapping_mul(b)),
                And => out = zip64(&x, &y, |a, b| a & b),
                Or => out = zip64(&x, &y, |a, b| a | b),
                Xor => out = zip64(&x, &y, |a, b| a ^ b),
                Shl { cm } => {
                    let cm = i64::from(cm);
                    out = zip64(&x, &y, |a, b| a.wrapping_shl((b & cm) as u32))
                }
                // shr shifts in zeros above src0's width, asr its sign.
                Shr { cm, bits: 64 } => {
                    let cm = i64::from(cm);
                    out = zip64(&x, &y, |a, b| ((a as u64) >> (b & cm)) as i64)
                }
                Shr { cm, .. } => {
                    let cm = i64::from(cm);
                    out = zip64(&x, &y, |a, b| (u64::from(a as u32) >> (b & cm)) as i64)
                }
                Asr { cm, bits: 64 } => {
                    let cm = i64::from(cm);
                    out = zip64(&x, &y, |a, b| a >> (b & cm))
                }
                Asr { cm, .. } => {
                    let cm = i64::from(cm);
                    out = zip64(&x, &y, |a, b| i64::from(a as i32) >> (b & cm))
                }
                Sel { cm, u } => {
                    let m = match cm {
                        None => pred,
                        Some(cm) => mask_of::<N>(|i| cond_int(cm, x[i], y[i], u)),
                    };
                    for i in 0..N {
                        out[i] = if (m >> i) & 1 != 0 { x[i] } else { y[i] };
                    }
                }
                Cmp { cm, u } => {
                    let m = mask_of::<N>(|i| cond_int(cm, x[i], y[i], u));
                    for i in 0..N {
                        out[i] = if (m >> i) & 1 != 0 { -1 } else { 0 };
                    }
                    cond = Some(m);
                }
                Mov | Not | ToF { .. } | FromF { .. } => unreachable!("one source"),
                DMov | DAdd | DMul | DMad | DSel { .. } | DCmp { .. } => {
                    unreachable!("a double plan runs in `lanes_d`")
                }
            }
        }
    }
    if let Some(o) = p.dst {
        store_q::<N>(g, o, p.dform, &out, wmask);
    }
    cond
}
