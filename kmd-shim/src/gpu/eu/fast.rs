//! Fast paths for the instruction shapes that dominate compiled kernels:
//! 32-bit float and integer ALU operations whose sources are contiguous
//! (`<8;8,1>`, `<16;16,1>`, Align16 `<4;4,1>`), scalar (`<0;1,0>`) or
//! immediate, writing a contiguous destination (hstride 1).
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

use gencl_isa::{CondMod, Opcode, Type};

use super::alu::{write_flags, CR0_FP32_DENORM_KEEP};
use super::float::{nan_f32, CR0_ROUND_MASK};
use super::program::{Dom, ExecInst, Loc, SrcOp};
use super::thread::{full, Thread};

/// Where a source's lanes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Consecutive dwords from this GRF byte offset.
    Vec(u32),
    /// One dword at this GRF byte offset, for every lane.
    Scalar(u32),
    /// An immediate: the low 32 bits of its value extended per its type.
    Imm(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FSrc {
    pub at: At,
    pub neg: bool,
    pub abs: bool,
    /// Integer sources: sign- (B/W/D) or zero-extended.
    pub signed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    /// f32 sources, F destination.
    FMov,
    FAdd,
    FMul,
    FMad,
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
    /// 32-bit integer source, F destination (round to nearest even).
    IToF,
}

/// The pre-resolved fast form of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub op: FOp,
    pub srcs: [FSrc; 3],
    /// GRF byte offset of the destination (`None`: the null register).
    pub dst: Option<u32>,
    /// Float saturation to [0, 1] (integer saturation is never planned).
    pub sat: bool,
}

fn contiguous(rel: &[u16]) -> bool {
    rel.iter()
        .enumerate()
        .all(|(i, &r)| u32::from(r) == 4 * i as u32)
}

fn plan_src(s: &SrcOp, n: usize, float: bool) -> Option<FSrc> {
    let signed = s.ty.is_signed_int();
    let at = match s.loc {
        Loc::Imm => {
            let v = match s.ty {
                Type::F if float => s.imm as u32,
                Type::UB => s.imm as u8 as u32,
                Type::B => s.imm as i8 as i32 as u32,
                Type::UW => s.imm as u16 as u32,
                Type::W => s.imm as i16 as i32 as u32,
                Type::UD | Type::D => s.imm as u32,
                _ => return None,
            };
            if float != (s.ty == Type::F) {
                return None;
            }
            At::Imm(v)
        }
        Loc::Grf if s.indirect.is_none() && s.vxh == 0 => {
            let ok_ty = if float {
                s.ty == Type::F
            } else {
                matches!(s.ty, Type::D | Type::UD)
            };
            if !ok_ty {
                return None;
            }
            let rel = &s.rel[..n];
            if rel.iter().all(|&r| r == 0) {
                At::Scalar(s.base)
            } else if contiguous(rel) {
                At::Vec(s.base)
            } else {
                return None;
            }
        }
        _ => return None,
    };
    Some(FSrc {
        at,
        neg: s.neg,
        abs: s.abs,
        signed,
    })
}

/// The fast form of `inst`, when it has one.
pub fn plan(inst: &ExecInst) -> Option<Plan> {
    let n = inst.n as usize;
    if !matches!(n, 1 | 8 | 16 | 32) || inst.acc_wr {
        return None;
    }
    let float = match inst.dom {
        Dom::F32 => true,
        Dom::Int => false,
        Dom::F64 => return None,
    };
    let d = inst.dst?;
    if d.indirect.is_some() || d.wmask_off != 0 || d.ty.size() != 4 {
        return None;
    }
    let dst = match d.loc {
        Loc::Null => None,
        Loc::Grf if contiguous(&d.rel[..n]) => Some(d.base),
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
        _ => return None,
    };
    // A null destination only makes sense where the flags are the result.
    if dst.is_none() && !matches!(op, FCmp(_) | ICmp(_)) {
        return None;
    }
    if inst.srcs.iter().filter(|s| s.is_some()).count() != arity {
        return None;
    }
    let mut srcs = [FSrc {
        at: At::Imm(0),
        neg: false,
        abs: false,
        signed: false,
    }; 3];
    for k in 0..arity {
        srcs[k] = plan_src(inst.srcs[k].as_ref()?, n, float)?;
    }
    // Shifts read the count width from src0's type: only 32-bit src0 here.
    if matches!(op, IShl | IShr | IAsr) && inst.srcs[0].as_ref()?.ty.size() != 4 {
        return None;
    }
    Some(Plan {
        op,
        srcs,
        dst,
        sat: inst.sat,
    })
}

impl Plan {
    /// Whether the plan computes what the general path does under `cr0`:
    /// float results that round need cr0's rounding mode to be RTNE.
    #[inline]
    pub fn applies(&self, cr0: u32) -> bool {
        cr0 & CR0_ROUND_MASK == 0
            || !matches!(self.op, FOp::FAdd | FOp::FMul | FOp::FMad | FOp::IToF)
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
    let wmask = if matches!(p.op, FOp::FSel(_) | FOp::ISel(_)) {
        enabled
    } else {
        enabled & pred
    };
    let ftz = t.cr0() & CR0_FP32_DENORM_KEEP == 0;
    let cond = run(&mut t.grf, p, inst.n, wmask, pred, ftz);
    if let Some(m) = cond {
        write_flags(t, inst, wmask, m);
    }
    wmask
}

fn run(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32, ftz: bool) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the host supports the features the function is compiled for.
        return unsafe { run_avx2(g, p, n, wmask, pred, ftz) };
    }
    run_any(g, p, n, wmask, pred, ftz)
}

/// The same loops compiled for AVX2 + FMA: identical results (no contraction
/// happens in Rust; `mul_add` is a fused multiply-add either way), wider vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32, ftz: bool) -> Option<u32> {
    run_any(g, p, n, wmask, pred, ftz)
}

#[inline(always)]
fn run_any(g: &mut [u8], p: &Plan, n: u8, wmask: u32, pred: u32, ftz: bool) -> Option<u32> {
    match n {
        1 => lanes::<1>(g, p, wmask, pred, ftz),
        8 => lanes::<8>(g, p, wmask, pred, ftz),
        16 => lanes::<16>(g, p, wmask, pred, ftz),
        _ => lanes::<32>(g, p, wmask, pred, ftz),
    }
}

#[inline(always)]
fn load<const N: usize>(g: &[u8], at: At) -> [u32; N] {
    match at {
        At::Vec(o) => {
            let o = o as usize;
            let b = &g[o..o + 4 * N];
            let mut r = [0u32; N];
            for i in 0..N {
                r[i] = u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
            }
            r
        }
        At::Scalar(o) => {
            let o = o as usize;
            [u32::from_le_bytes([g[o], g[o + 1], g[o + 2], g[o + 3]]); N]
        }
        At::Imm(v) => [v; N],
    }
}

/// Write the lanes of `mask`; other lanes keep their contents.
#[inline(always)]
fn store<const N: usize>(g: &mut [u8], o: u32, v: &[u32; N], mask: u32) {
    let o = o as usize;
    let b = &mut g[o..o + 4 * N];
    if mask == full(N as u8) {
        for i in 0..N {
            b[4 * i..4 * i + 4].copy_from_slice(&v[i].to_le_bytes());
        }
        return;
    }
    // Branch-free blend, so that it vectorises too.
    for i in 0..N {
        let old = u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        let m = 0u32.wrapping_sub((mask >> i) & 1);
        b[4 * i..4 * i + 4].copy_from_slice(&((v[i] & m) | (old & !m)).to_le_bytes());
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
fn load_f<const N: usize>(g: &[u8], s: &FSrc, ftz: bool) -> [f32; N] {
    let mut v = load::<N>(g, s.at);
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
fn load_u<const N: usize>(g: &[u8], s: &FSrc, logic: bool) -> [u32; N] {
    let mut v = load::<N>(g, s.at);
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
fn load_w<const N: usize>(g: &[u8], s: &FSrc) -> [i64; N] {
    let v = load::<N>(g, s.at);
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
    super::alu::cond_int(cm, a, b, false)
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
fn lanes<const N: usize>(g: &mut [u8], p: &Plan, wmask: u32, pred: u32, ftz: bool) -> Option<u32> {
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
        FMov => fin(load_f::<N>(g, s0, false), &mut out),
        FAdd | FMul | FMad => {
            let x = load_f::<N>(g, s0, ftz);
            let y = load_f::<N>(g, s1, ftz);
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
                    let z = load_f::<N>(g, s2, ftz);
                    for i in 0..N {
                        r[i] = y[i].mul_add(z[i], x[i]);
                    }
                }
            }
            if r.iter().any(|v| v.is_nan()) {
                let z = if p.op == FMad {
                    load_f::<N>(g, s2, ftz)
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
        FSel(cm) => {
            let x = load_f::<N>(g, s0, false);
            let y = load_f::<N>(g, s1, false);
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
            let x = load_f::<N>(g, s0, ftz);
            let y = load_f::<N>(g, s1, ftz);
            let m = mask_of::<N>(|i| cond_f(cm, x[i], y[i]));
            for i in 0..N {
                out[i] = if (m >> i) & 1 != 0 { u32::MAX } else { 0 };
            }
            cond = Some(m);
        }
        FToI { signed } => {
            let x = load_f::<N>(g, s0, false);
            for i in 0..N {
                let v = x[i];
                out[i] = if signed { v as i32 as u32 } else { v as u32 };
            }
        }
        IToF => {
            let x = load_w::<N>(g, s0);
            let mut r = [0f32; N];
            for i in 0..N {
                r[i] = x[i] as f32;
            }
            fin(r, &mut out);
        }
        ISel(cm) => {
            let x = load_w::<N>(g, s0);
            let y = load_w::<N>(g, s1);
            let m = match cm {
                None => pred,
                Some(cm) => mask_of::<N>(|i| cond_i(cm, x[i], y[i])),
            };
            for i in 0..N {
                out[i] = if (m >> i) & 1 != 0 { x[i] } else { y[i] } as u32;
            }
        }
        ICmp(cm) => {
            let x = load_w::<N>(g, s0);
            let y = load_w::<N>(g, s1);
            let m = mask_of::<N>(|i| cond_i(cm, x[i], y[i]));
            for i in 0..N {
                out[i] = if (m >> i) & 1 != 0 { u32::MAX } else { 0 };
            }
            cond = Some(m);
        }
        IMov | INot => {
            let logic = p.op == INot;
            let x = load_u::<N>(g, s0, logic);
            for i in 0..N {
                out[i] = if logic { !x[i] } else { x[i] };
            }
        }
        IAdd | IMul | IAnd | IOr | IXor | IShl | IShr | IAsr => {
            let logic = matches!(p.op, IAnd | IOr | IXor);
            let x = load_u::<N>(g, s0, logic);
            let y = load_u::<N>(g, s1, logic);
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
    }
    if let Some(o) = p.dst {
        store::<N>(g, o, &out, wmask);
    }
    cond
}
