//! ALU and math instructions: gather sources into lane arrays of the
//! instruction's domain (i64 / f32 / f64), compute with one `match` on the
//! opcode outside each lane loop, convert to the destination type (saturate,
//! rounding), write enabled lanes, and set flags for a conditional modifier.

// Lane loops index several parallel lane arrays at once.
#![allow(clippy::needless_range_loop)]

use gencl_isa::{CondMod, MathFn, Opcode, Type};

use super::float::{
    add_f32, add_f64, f16_to_f32, f32_to_f16_rm, f64_to_f16_rm, f64_to_f32, flush_f16, flush_f32,
    flush_f64, int_to_f32, int_to_f64, mad_f16, mad_f32, mad_f64, mul_f32, mul_f64, nan_f32,
    nan_f64, round_even_f32, round_even_f64, Round,
};
use super::program::{Dom, ExecInst, Half};
use super::thread::{f32_bits, full, Lanes, Thread};
use crate::gpu::GpuError;

/// cr0.0 bits (Skylake PRM vol 7 "Control Register"; Mesa brw_eu_defines.h):
/// bit 6/7/10 keep FP64/FP32/FP16 denormals (IGC sets 0x4C0 = all three at
/// kernel start), bits 5:4 rounding mode (0 = round to nearest even).
pub const CR0_FP64_DENORM_KEEP: u32 = 1 << 6;
pub const CR0_FP32_DENORM_KEEP: u32 = 1 << 7;
pub const CR0_FP16_DENORM_KEEP: u32 = 1 << 10;

fn illegal(inst: &ExecInst, why: &str) -> GpuError {
    GpuError::IllegalInstruction {
        addr: inst.addr,
        why: format!("{:?}: {why}", inst.op),
    }
}

/// Result of the computation, in the domain it was computed in.
enum Res {
    Int(Lanes<i64>),
    F32(Lanes<f32>),
    F64(Lanes<f64>),
}

/// Execute one ALU/math instruction. Returns the lanes it executed on.
pub fn exec(t: &mut Thread, inst: &ExecInst) -> Result<u32, GpuError> {
    if super::mathmacro::is_macro(inst.op, inst.math) {
        return super::mathmacro::exec(t, inst);
    }
    let n = inst.n as usize;
    let enabled = t.enabled(inst);
    let pred = t.pred_mask(inst);
    // sel and csel use the predicate as the selector, not as a write mask.
    let selects = matches!(inst.op, Opcode::Sel | Opcode::Csel);
    let wmask = if selects { enabled } else { enabled & pred };
    // smov (scattered move): src1's immediate is a further channel enable, bit c for
    // channel c. IGC writes one lane of a private array per smov, each through its own
    // a0 subregister: `smov (16) r[a0.k]<1>:d r53.k<0;1,0>:d 1<<k`.
    let wmask = if inst.op == Opcode::Smov {
        match inst.srcs[1].as_ref() {
            Some(s) if s.loc == super::program::Loc::Imm => wmask & (s.imm as u32),
            _ => return Err(illegal(inst, "smov without an immediate channel mask")),
        }
    } else {
        wmask
    };
    let raw_move = matches!(
        inst.op,
        Opcode::Mov | Opcode::Smov | Opcode::Sel | Opcode::Csel
    );
    let cr0 = t.cr0();
    let ftz32 = cr0 & CR0_FP32_DENORM_KEEP == 0;
    let ftz64 = cr0 & CR0_FP64_DENORM_KEEP == 0;
    // Float arithmetic and conversions to float round per cr0.0[5:4].
    let rm = Round::from_cr0(cr0);
    let mixed = inst.half == Half::Mixed;
    let hf_native = inst.half == Half::Native;
    // IGC (PatternMatchPass, FlushesDenormsOnOutput): in flush-to-zero mode denormals
    // are flushed on input and output of float arithmetic, except that raw moves and
    // conversions (mixed-mode instructions included) keep them, and extended math
    // keeps half denormals.
    let ftz16 = cr0 & CR0_FP16_DENORM_KEEP == 0 && !raw_move && !mixed && inst.op != Opcode::Math;
    let a = inst.addr;
    let nsrc = inst.srcs.iter().filter(|s| s.is_some()).count();
    let need = |k: usize| -> Result<&super::program::SrcOp, GpuError> {
        inst.srcs[k]
            .as_ref()
            .ok_or_else(|| illegal(inst, "missing source"))
    };
    let mut flags_from_cmp: Option<u32> = None;

    let res = match inst.dom {
        Dom::Int => {
            let logic = matches!(
                inst.op,
                Opcode::Not | Opcode::And | Opcode::Or | Opcode::Xor
            );
            let mut x = [0i64; 32];
            let mut y = [0i64; 32];
            let mut z = [0i64; 32];
            t.gather_int(need(0)?, n, &mut x, logic, a)?;
            if nsrc > 1 {
                t.gather_int(need(1)?, n, &mut y, logic, a)?;
            }
            if nsrc > 2 {
                t.gather_int(need(2)?, n, &mut z, logic, a)?;
            }
            let ty0 = need(0)?.ty;
            let mut r = [0i64; 32];
            let u64cmp = inst.unsigned64;
            match inst.op {
                Opcode::Mov | Opcode::Movi | Opcode::Smov => r = x,
                Opcode::Not => {
                    for i in 0..n {
                        r[i] = !x[i];
                    }
                }
                Opcode::And => lanes2(&mut r, &x, &y, n, |a, b| a & b),
                Opcode::Or => lanes2(&mut r, &x, &y, n, |a, b| a | b),
                Opcode::Xor => lanes2(&mut r, &x, &y, n, |a, b| a ^ b),
                Opcode::Add => lanes2(&mut r, &x, &y, n, i64::wrapping_add),
                Opcode::Mul => {
                    lanes2(&mut r, &x, &y, n, i64::wrapping_mul);
                    if inst.acc_wr {
                        for i in 0..n {
                            t.acc[i] = r[i] as u64;
                        }
                    }
                }
                Opcode::Avg => lanes2(&mut r, &x, &y, n, |a, b| {
                    (a as i128 + b as i128 + 1).div_euclid(2) as i64
                }),
                Opcode::Shl | Opcode::Shr | Opcode::Asr => {
                    // The shift count is masked to the operation width: 5 bits, 6 when src0
                    // or dst is a qword (IGC widens with `shl (8) r:q r:d 32:w`).
                    let dst8 = inst.dst.is_some_and(|d| d.ty.size() == 8);
                    let wide = ty0.size() == 8 || dst8;
                    let cm = if wide { 63 } else { 31 };
                    let bits = ty0.size() * 8;
                    for i in 0..n {
                        let c = (y[i] & cm) as u32;
                        r[i] = match inst.op {
                            Opcode::Shl => x[i].wrapping_shl(c),
                            Opcode::Shr => {
                                let v = if bits == 64 {
                                    x[i] as u64
                                } else {
                                    (x[i] as u64) & ((1u64 << bits) - 1)
                                };
                                (v >> c) as i64
                            }
                            _ => {
                                let v = if bits == 64 { x[i] } else { sext(x[i], bits) };
                                v >> c
                            }
                        };
                    }
                }
                Opcode::Sel => {
                    let m = sel_mask_int(inst, t, &x, &y, n, pred, u64cmp);
                    for i in 0..n {
                        r[i] = if m & (1 << i) != 0 { x[i] } else { y[i] };
                    }
                }
                Opcode::Csel => {
                    let cm = inst
                        .cmod
                        .ok_or_else(|| illegal(inst, "csel without condition"))?;
                    for i in 0..n {
                        r[i] = if cond_int(cm, z[i], 0, false) {
                            x[i]
                        } else {
                            y[i]
                        };
                    }
                }
                Opcode::Cmp | Opcode::Cmpn => {
                    let cm = inst
                        .cmod
                        .ok_or_else(|| illegal(inst, "cmp without condition"))?;
                    let mut m = 0u32;
                    for i in 0..n {
                        if cond_int(cm, x[i], y[i], u64cmp) {
                            m |= 1 << i;
                        }
                    }
                    flags_from_cmp = Some(m);
                    for i in 0..n {
                        r[i] = if m & (1 << i) != 0 { -1 } else { 0 };
                    }
                }
                Opcode::Mach => {
                    // High 32 bits of the full 64-bit product; the product stays in acc.
                    for i in 0..n {
                        let p = if inst.all_unsigned {
                            ((x[i] as u32 as u64) * (y[i] as u32 as u64)) as i64
                        } else {
                            x[i].wrapping_mul(y[i])
                        };
                        t.acc[i] = p as u64;
                        r[i] = p >> 32;
                    }
                }
                Opcode::Mac => {
                    for i in 0..n {
                        r[i] = (t.acc[i] as i64).wrapping_add(x[i].wrapping_mul(y[i]));
                    }
                    if inst.acc_wr {
                        for i in 0..n {
                            t.acc[i] = r[i] as u64;
                        }
                    }
                }
                Opcode::Addc | Opcode::Subb => {
                    // 32-bit unsigned add/subtract; carry/borrow into acc (PRM: UD only).
                    for i in 0..n {
                        let (xa, yb) = (x[i] as u32, y[i] as u32);
                        let (v, c) = if inst.op == Opcode::Addc {
                            xa.overflowing_add(yb)
                        } else {
                            xa.overflowing_sub(yb)
                        };
                        r[i] = v as i64;
                        if wmask & (1 << i) != 0 {
                            t.acc[i] = c as u64;
                        }
                    }
                }
                Opcode::Mad => lanes3(&mut r, &x, &y, &z, n, |a, b, c| {
                    a.wrapping_add(b.wrapping_mul(c))
                }),
                Opcode::Bfrev => {
                    for i in 0..n {
                        r[i] = (x[i] as u32).reverse_bits() as i64;
                    }
                }
                Opcode::Cbit => {
                    let bits = ty0.size() * 8;
                    for i in 0..n {
                        let v = if bits >= 64 {
                            x[i] as u64
                        } else {
                            (x[i] as u64) & ((1u64 << bits) - 1)
                        };
                        r[i] = v.count_ones() as i64;
                    }
                }
                Opcode::Fbl => {
                    for i in 0..n {
                        let v = x[i] as u32;
                        r[i] = if v == 0 {
                            -1
                        } else {
                            v.trailing_zeros() as i64
                        };
                    }
                }
                Opcode::Fbh => {
                    // UD: first 1 from the MSB; D: first bit differing from the sign; none: -1.
                    for i in 0..n {
                        let v = x[i] as u32;
                        let v = if ty0 == Type::D && (v as i32) < 0 {
                            !v
                        } else {
                            v
                        };
                        r[i] = if v == 0 { -1 } else { v.leading_zeros() as i64 };
                    }
                }
                Opcode::Lzd => {
                    for i in 0..n {
                        r[i] = (x[i] as u32).leading_zeros() as i64;
                    }
                }
                Opcode::Bfe => {
                    // bfe width(src0), offset(src1), value(src2); signed for D.
                    let signed = need(2)?.ty == Type::D;
                    for i in 0..n {
                        let w = (x[i] & 31) as u32;
                        let o = (y[i] & 31) as u32;
                        let v = z[i] as u32;
                        r[i] = if w == 0 {
                            0
                        } else if w + o < 32 {
                            let up = v << (32 - w - o);
                            if signed {
                                ((up as i32) >> (32 - w)) as i64
                            } else {
                                (up >> (32 - w)) as i64
                            }
                        } else if signed {
                            ((v as i32) >> o) as i64
                        } else {
                            (v >> o) as i64
                        };
                    }
                }
                Opcode::Bfi1 => {
                    for i in 0..n {
                        let w = (x[i] & 31) as u32;
                        let o = (y[i] & 31) as u32;
                        r[i] = ((((1u64 << w) - 1) << o) as u32) as i64;
                    }
                }
                Opcode::Bfi2 => lanes3(&mut r, &x, &y, &z, n, |m, ins, base| {
                    (m & ins) | (!m & base)
                }),
                Opcode::Math => {
                    let f = inst
                        .math
                        .ok_or_else(|| illegal(inst, "math without function"))?;
                    let unsigned = inst.all_unsigned;
                    let mut rem = [0i64; 32];
                    for i in 0..n {
                        let (q, m) = int_div(x[i], y[i], unsigned);
                        r[i] = q;
                        rem[i] = m;
                    }
                    match f {
                        MathFn::IntDivQuotient => {}
                        MathFn::IntDivRemainder => r = rem,
                        MathFn::IntDivBoth => {
                            // The remainder goes to the register after the quotient's.
                            if let Some(d) = inst.dst {
                                let mut d2 = d;
                                d2.base += 32 * (n as u32 * d.ty.size()).div_ceil(32).max(1);
                                let bits = int_to_bits(&inst_for_dst(inst, d2), &rem, n);
                                t.scatter_bits(&d2, n, wmask, &bits, a)?;
                            }
                        }
                        _ => return Err(illegal(inst, "float math function on integers")),
                    }
                }
                Opcode::Frc | Opcode::Rndd | Opcode::Rndu | Opcode::Rnde | Opcode::Rndz => r = x,
                _ => return Err(illegal(inst, "not supported on integer types")),
            }
            Res::Int(r)
        }
        Dom::F32 => {
            let ftz = ftz32 && !raw_move && !mixed;
            let mut x = [0f32; 32];
            let mut y = [0f32; 32];
            let mut z = [0f32; 32];
            t.gather_f32(need(0)?, n, &mut x, ftz, a)?;
            if nsrc > 1 {
                t.gather_f32(need(1)?, n, &mut y, ftz, a)?;
            }
            if nsrc > 2 {
                t.gather_f32(need(2)?, n, &mut z, ftz, a)?;
            }
            if ftz16 {
                for (k, v) in [&mut x, &mut y, &mut z].into_iter().enumerate().take(nsrc) {
                    if need(k)?.ty == Type::HF {
                        v[..n].iter_mut().for_each(|h| *h = flush_f16(*h));
                    }
                }
            }
            let mut r = [0f32; 32];
            match inst.op {
                Opcode::Mov => r = x,
                Opcode::Add => lanes2(&mut r, &x, &y, n, |a, b| add_f32(a, b, rm)),
                Opcode::Mul => lanes2(&mut r, &x, &y, n, |a, b| mul_f32(a, b, rm)),
                // Gen mad: src0 + src1 * src2 with a single rounding.
                Opcode::Mad if hf_native => lanes3(&mut r, &x, &y, &z, n, |a, b, c| {
                    f16_to_f32(mad_f16(a, b, c, rm))
                }),
                Opcode::Mad => lanes3(&mut r, &x, &y, &z, n, |a, b, c| mad_f32(a, b, c, rm)),
                // lrp: src0 * src1 + (1 - src0) * src2.
                Opcode::Lrp => lanes3(&mut r, &x, &y, &z, n, |a, b, c| a * b + (1.0 - a) * c),
                Opcode::Mac => {
                    for i in 0..n {
                        r[i] = f32::from_bits(t.acc[i] as u32) + x[i] * y[i];
                    }
                }
                Opcode::Frc => lanes1(&mut r, &x, n, |v| v - v.floor()),
                Opcode::Rndd => lanes1(&mut r, &x, n, f32::floor),
                Opcode::Rndu => lanes1(&mut r, &x, n, f32::ceil),
                Opcode::Rnde => lanes1(&mut r, &x, n, round_even_f32),
                Opcode::Rndz => lanes1(&mut r, &x, n, f32::trunc),
                Opcode::Sel => {
                    let m = sel_mask_f(inst, &x, &y, n, pred);
                    for i in 0..n {
                        r[i] = if m & (1 << i) != 0 { x[i] } else { y[i] };
                    }
                }
                Opcode::Csel => {
                    let cm = inst
                        .cmod
                        .ok_or_else(|| illegal(inst, "csel without condition"))?;
                    for i in 0..n {
                        r[i] = if cond_f(cm, z[i] as f64, 0.0) {
                            x[i]
                        } else {
                            y[i]
                        };
                    }
                }
                Opcode::Cmp | Opcode::Cmpn => {
                    let m = cmp_f(inst, n, |i| (x[i] as f64, y[i] as f64))?;
                    flags_from_cmp = Some(m);
                }
                Opcode::Dp2 | Opcode::Dp3 | Opcode::Dp4 | Opcode::Dph => {
                    for g in (0..n).step_by(4) {
                        let e = |k: usize| if g + k < n { x[g + k] * y[g + k] } else { 0.0 };
                        let s = match inst.op {
                            Opcode::Dp2 => e(0) + e(1),
                            Opcode::Dp3 => e(0) + e(1) + e(2),
                            Opcode::Dp4 => e(0) + e(1) + e(2) + e(3),
                            _ => e(0) + e(1) + e(2) + if g + 3 < n { y[g + 3] } else { 0.0 },
                        };
                        for k in 0..4.min(n - g) {
                            r[g + k] = s;
                        }
                    }
                }
                Opcode::Math => {
                    let f = inst
                        .math
                        .ok_or_else(|| illegal(inst, "math without function"))?;
                    match f {
                        MathFn::Inv => lanes1(&mut r, &x, n, |v| 1.0 / v),
                        MathFn::Log => lanes1(&mut r, &x, n, libm::log2f),
                        MathFn::Exp => lanes1(&mut r, &x, n, libm::exp2f),
                        MathFn::Sqrt => lanes1(&mut r, &x, n, f32::sqrt),
                        MathFn::Rsq => lanes1(&mut r, &x, n, |v| 1.0 / v.sqrt()),
                        MathFn::Sin => lanes1(&mut r, &x, n, libm::sinf),
                        MathFn::Cos => lanes1(&mut r, &x, n, libm::cosf),
                        MathFn::Pow => lanes2(&mut r, &x, &y, n, libm::powf),
                        MathFn::Fdiv => lanes2(&mut r, &x, &y, n, |a, b| a / b),
                        _ => return Err(illegal(inst, "integer division on float types")),
                    }
                }
                _ => return Err(illegal(inst, "not supported on float types")),
            }
            if matches!(inst.op, Opcode::Add | Opcode::Mul | Opcode::Mad) {
                for i in 0..n {
                    if r[i].is_nan() {
                        r[i] = nan_f32(&[x[i], y[i], z[i]][..nsrc.min(3)]);
                    }
                }
            }
            if ftz && !matches!(inst.op, Opcode::Cmp | Opcode::Cmpn) {
                for v in r[..n].iter_mut() {
                    *v = flush_f32(*v);
                }
            }
            if inst.acc_wr && !matches!(inst.op, Opcode::Cmp | Opcode::Cmpn) {
                for i in 0..n {
                    t.acc[i] = r[i].to_bits() as u64;
                }
            }
            Res::F32(r)
        }
        Dom::F64 => {
            let ftz = ftz64 && !raw_move;
            let mut x = [0f64; 32];
            let mut y = [0f64; 32];
            let mut z = [0f64; 32];
            t.gather_f64(need(0)?, n, &mut x, ftz, a)?;
            if nsrc > 1 {
                t.gather_f64(need(1)?, n, &mut y, ftz, a)?;
            }
            if nsrc > 2 {
                t.gather_f64(need(2)?, n, &mut z, ftz, a)?;
            }
            let mut r = [0f64; 32];
            match inst.op {
                Opcode::Mov => r = x,
                Opcode::Add => lanes2(&mut r, &x, &y, n, |a, b| add_f64(a, b, rm)),
                Opcode::Mul => lanes2(&mut r, &x, &y, n, |a, b| mul_f64(a, b, rm)),
                Opcode::Mad => lanes3(&mut r, &x, &y, &z, n, |a, b, c| mad_f64(a, b, c, rm)),
                Opcode::Lrp => lanes3(&mut r, &x, &y, &z, n, |a, b, c| a * b + (1.0 - a) * c),
                Opcode::Frc => lanes1(&mut r, &x, n, |v| v - v.floor()),
                Opcode::Rndd => lanes1(&mut r, &x, n, f64::floor),
                Opcode::Rndu => lanes1(&mut r, &x, n, f64::ceil),
                Opcode::Rnde => lanes1(&mut r, &x, n, round_even_f64),
                Opcode::Rndz => lanes1(&mut r, &x, n, f64::trunc),
                Opcode::Sel => {
                    let m = sel_mask_f64(inst, &x, &y, n, pred);
                    for i in 0..n {
                        r[i] = if m & (1 << i) != 0 { x[i] } else { y[i] };
                    }
                }
                Opcode::Csel => {
                    let cm = inst
                        .cmod
                        .ok_or_else(|| illegal(inst, "csel without condition"))?;
                    for i in 0..n {
                        r[i] = if cond_f(cm, z[i], 0.0) { x[i] } else { y[i] };
                    }
                }
                Opcode::Cmp | Opcode::Cmpn => {
                    let m = cmp_f(inst, n, |i| (x[i], y[i]))?;
                    flags_from_cmp = Some(m);
                }
                Opcode::Math => {
                    let f = inst
                        .math
                        .ok_or_else(|| illegal(inst, "math without function"))?;
                    match f {
                        MathFn::Inv => lanes1(&mut r, &x, n, |v| 1.0 / v),
                        MathFn::Sqrt => lanes1(&mut r, &x, n, f64::sqrt),
                        MathFn::Rsq => lanes1(&mut r, &x, n, |v| 1.0 / v.sqrt()),
                        MathFn::Fdiv => lanes2(&mut r, &x, &y, n, |a, b| a / b),
                        MathFn::Log => lanes1(&mut r, &x, n, libm::log2),
                        MathFn::Exp => lanes1(&mut r, &x, n, libm::exp2),
                        MathFn::Sin => lanes1(&mut r, &x, n, libm::sin),
                        MathFn::Cos => lanes1(&mut r, &x, n, libm::cos),
                        MathFn::Pow => lanes2(&mut r, &x, &y, n, libm::pow),
                        _ => return Err(illegal(inst, "integer division on float types")),
                    }
                }
                _ => return Err(illegal(inst, "not supported on double types")),
            }
            if matches!(inst.op, Opcode::Add | Opcode::Mul | Opcode::Mad) {
                for i in 0..n {
                    if r[i].is_nan() {
                        r[i] = nan_f64(&[x[i], y[i], z[i]][..nsrc.min(3)]);
                    }
                }
            }
            if ftz && !matches!(inst.op, Opcode::Cmp | Opcode::Cmpn) {
                for v in r[..n].iter_mut() {
                    *v = flush_f64(*v);
                }
            }
            if inst.acc_wr {
                for i in 0..n {
                    t.acc[i] = r[i].to_bits();
                }
            }
            Res::F64(r)
        }
    };

    // cmp: the destination gets all ones / zero per channel, flags the comparison.
    if let Some(m) = flags_from_cmp {
        if let Some(d) = &inst.dst {
            let mut bits = [0u64; 32];
            for (i, b) in bits[..n].iter_mut().enumerate() {
                *b = if m & (1 << i) != 0 { u64::MAX } else { 0 };
            }
            t.scatter_bits(d, n, wmask, &bits, a)?;
        }
        write_flags(t, inst, wmask, m);
        return Ok(wmask);
    }

    let dst_ty = inst.dst.map(|d| d.ty).unwrap_or(Type::UD);
    let mut bits = [0u64; 32];
    let mut cond = 0u32;
    match res {
        Res::Int(mut r) => {
            if dst_ty.is_float() {
                let mut f = [0f64; 32];
                if dst_ty == Type::DF {
                    for i in 0..n {
                        f[i] = int_to_f64(r[i], inst.unsigned64, rm);
                        bits[i] = f[i].to_bits();
                    }
                } else {
                    // int → f32 must round once: convert from the integer directly.
                    for i in 0..n {
                        let v = int_to_f32(r[i], inst.unsigned64, rm);
                        let v = if inst.sat { sat_f32(v) } else { v };
                        f[i] = v as f64;
                        bits[i] = f32_bits(dst_ty, v);
                    }
                }
                cond = float_conds(inst, &f, n);
            } else {
                let ubits = dst_ty.size() * 8;
                let signed = dst_ty.is_signed_int();
                for i in 0..n {
                    let v = if inst.sat {
                        clamp_int(r[i], dst_ty)
                    } else {
                        r[i]
                    };
                    let v = if ubits == 64 {
                        v
                    } else if signed {
                        sext(v, ubits)
                    } else {
                        v & ((1i64 << ubits) - 1)
                    };
                    r[i] = v;
                    bits[i] = v as u64;
                }
                if let Some(cm) = inst.cmod.filter(|_| !selects) {
                    let u = dst_ty == Type::UQ;
                    for i in 0..n {
                        if cond_int(cm, r[i], 0, u) {
                            cond |= 1 << i;
                        }
                    }
                }
            }
        }
        Res::F32(mut r) => {
            // Float `.sat` clamps to [0, 1] only for a float destination; to an integer
            // type it saturates to that type's range (the conversion below).
            if inst.sat && dst_ty.is_float() {
                for v in r[..n].iter_mut() {
                    *v = sat_f32(*v);
                }
            }
            if dst_ty.is_float() {
                for i in 0..n {
                    bits[i] = match dst_ty {
                        // vstore_half_rt* set cr0's rounding mode around `mov :hf :f`.
                        Type::HF => half_result(f32_to_f16_rm(r[i], rm), ftz16),
                        _ => f32_bits(dst_ty, r[i]),
                    };
                }
                let f: Lanes<f64> = std::array::from_fn(|i| r[i] as f64);
                cond = float_conds(inst, &f, n);
            } else {
                let mut iv = [0i64; 32];
                for i in 0..n {
                    iv[i] = f32_to_int(r[i], dst_ty);
                    bits[i] = iv[i] as u64;
                }
                cond = int_conds(inst, &iv, n, dst_ty);
            }
        }
        Res::F64(mut r) => {
            if inst.sat && dst_ty.is_float() {
                for v in r[..n].iter_mut() {
                    *v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
                }
            }
            if dst_ty.is_float() {
                for i in 0..n {
                    bits[i] = match dst_ty {
                        Type::DF => r[i].to_bits(),
                        Type::HF => half_result(f64_to_f16_rm(r[i], rm), ftz16),
                        _ => f64_to_f32(r[i], rm).to_bits() as u64,
                    };
                }
                cond = float_conds(inst, &r, n);
            } else {
                let mut iv = [0i64; 32];
                for i in 0..n {
                    iv[i] = f64_to_int(r[i], dst_ty);
                    bits[i] = iv[i] as u64;
                }
                cond = int_conds(inst, &iv, n, dst_ty);
            }
        }
    }
    if let Some(d) = &inst.dst {
        t.scatter_bits(d, n, wmask, &bits, a)?;
    }
    if inst.cmod.is_some() && !selects {
        write_flags(t, inst, wmask, cond);
    }
    Ok(wmask)
}

/// A half result's bits, its denormals flushed (sign kept) in flush-to-zero mode.
fn half_result(h: u16, ftz: bool) -> u64 {
    if ftz && h & 0x7C00 == 0 {
        u64::from(h & 0x8000)
    } else {
        u64::from(h)
    }
}

fn inst_for_dst(inst: &ExecInst, d: super::program::DstOp) -> ExecInst {
    let mut i = inst.clone();
    i.dst = Some(d);
    i.fast = None;
    i
}

fn int_to_bits(inst: &ExecInst, r: &Lanes<i64>, n: usize) -> Lanes<u64> {
    let ty = inst.dst.map(|d| d.ty).unwrap_or(Type::UD);
    let mut b = [0u64; 32];
    let ubits = ty.size() * 8;
    for i in 0..n {
        b[i] = if ubits == 64 {
            r[i] as u64
        } else {
            (r[i] as u64) & ((1u64 << ubits) - 1)
        };
    }
    b
}

/// Integer division as the math box does it; division by zero gives all ones
/// (quotient) and the dividend (remainder) — documented as modelled, not measured.
pub(super) fn int_div(x: i64, y: i64, unsigned: bool) -> (i64, i64) {
    if unsigned {
        let (a, b) = (x as u32, y as u32);
        if b == 0 {
            return (u32::MAX as i64, a as i64);
        }
        ((a / b) as i64, (a % b) as i64)
    } else {
        let (a, b) = (x as i32, y as i32);
        if b == 0 {
            return (-1, a as i64);
        }
        (a.wrapping_div(b) as i64, a.wrapping_rem(b) as i64)
    }
}

pub(super) fn write_flags(t: &mut Thread, inst: &ExecInst, wmask: u32, cond: u32) {
    let shift = u32::from(inst.flag_shift) + u32::from(inst.chan_off);
    if shift >= 32 {
        return;
    }
    let m = ((wmask & full(inst.n)) as u64) << shift;
    let c = ((cond & wmask) as u64) << shift;
    let f = t.flag(inst.flag_reg) as u64;
    t.set_flag(inst.flag_reg, ((f & !m) | c) as u32);
}

fn float_conds(inst: &ExecInst, r: &Lanes<f64>, n: usize) -> u32 {
    let Some(cm) = inst.cmod else { return 0 };
    if matches!(inst.op, Opcode::Sel | Opcode::Csel) {
        return 0;
    }
    let mut m = 0;
    for (i, v) in r[..n].iter().enumerate() {
        let on = match cm {
            CondMod::U => v.is_nan(),
            CondMod::O => v.is_infinite(),
            _ => cond_f(cm, *v, 0.0),
        };
        if on {
            m |= 1 << i;
        }
    }
    m
}

fn int_conds(inst: &ExecInst, r: &Lanes<i64>, n: usize, ty: Type) -> u32 {
    let Some(cm) = inst.cmod else { return 0 };
    if matches!(inst.op, Opcode::Sel | Opcode::Csel) {
        return 0;
    }
    let mut m = 0;
    for (i, v) in r[..n].iter().enumerate() {
        if cond_int(cm, *v, 0, ty == Type::UQ) {
            m |= 1 << i;
        }
    }
    m
}

#[inline(always)]
pub(super) fn cond_int(cm: CondMod, a: i64, b: i64, unsigned64: bool) -> bool {
    let ord = if unsigned64 {
        (a as u64).cmp(&(b as u64))
    } else {
        a.cmp(&b)
    };
    use std::cmp::Ordering::*;
    match cm {
        CondMod::Z => ord == Equal,
        CondMod::Nz => ord != Equal,
        CondMod::G => ord == Greater,
        CondMod::Ge => ord != Less,
        CondMod::L => ord == Less,
        CondMod::Le => ord != Greater,
        CondMod::O | CondMod::U => false,
    }
}

/// Float comparison: ordered comparisons are false on NaN, `.nz` is true,
/// `.u` is "unordered", `.o` "ordered".
#[inline(always)]
pub(super) fn cond_f(cm: CondMod, a: f64, b: f64) -> bool {
    match cm {
        CondMod::Z => a == b,
        CondMod::Nz => a != b,
        CondMod::G => a > b,
        CondMod::Ge => a >= b,
        CondMod::L => a < b,
        CondMod::Le => a <= b,
        CondMod::U => a.is_nan() || b.is_nan(),
        CondMod::O => !(a.is_nan() || b.is_nan()),
    }
}

fn cmp_f(inst: &ExecInst, n: usize, v: impl Fn(usize) -> (f64, f64)) -> Result<u32, GpuError> {
    let cm = inst
        .cmod
        .ok_or_else(|| illegal(inst, "cmp without condition"))?;
    let mut m = 0;
    for i in 0..n {
        let (a, b) = v(i);
        let on = if inst.op == Opcode::Cmpn && (a.is_nan() || b.is_nan()) {
            // cmpn: a NaN in src1 makes the comparison true, a NaN only in src0 false,
            // so that `cmpn.l` + `sel` returns the non-NaN operand (IEEE minNum).
            b.is_nan() && !matches!(cm, CondMod::Z | CondMod::O)
        } else {
            cond_f(cm, a, b)
        };
        if on {
            m |= 1 << i;
        }
    }
    Ok(m)
}

/// The lanes where `sel` takes src0: the predicate, or the conditional modifier as min/max.
fn sel_mask_int(
    inst: &ExecInst,
    _t: &Thread,
    x: &Lanes<i64>,
    y: &Lanes<i64>,
    n: usize,
    pred: u32,
    u: bool,
) -> u32 {
    match inst.cmod {
        None => pred,
        Some(cm) => {
            let mut m = 0;
            for i in 0..n {
                if cond_int(cm, x[i], y[i], u) {
                    m |= 1 << i;
                }
            }
            m
        }
    }
}

/// Float sel with a conditional modifier: IEEE minNum/maxNum — a NaN operand loses.
fn sel_mask_f(inst: &ExecInst, x: &Lanes<f32>, y: &Lanes<f32>, n: usize, pred: u32) -> u32 {
    let a: Lanes<f64> = std::array::from_fn(|i| x[i] as f64);
    let b: Lanes<f64> = std::array::from_fn(|i| y[i] as f64);
    sel_mask_f64(inst, &a, &b, n, pred)
}

fn sel_mask_f64(inst: &ExecInst, x: &Lanes<f64>, y: &Lanes<f64>, n: usize, pred: u32) -> u32 {
    match inst.cmod {
        None => pred,
        Some(cm) => {
            let mut m = 0;
            for i in 0..n {
                let take_x = if y[i].is_nan() {
                    true
                } else if x[i].is_nan() {
                    false
                } else {
                    cond_f(cm, x[i], y[i])
                };
                if take_x {
                    m |= 1 << i;
                }
            }
            m
        }
    }
}

fn sat_f32(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

fn sext(v: i64, bits: u32) -> i64 {
    let s = 64 - bits;
    (v << s) >> s
}

fn clamp_int(v: i64, ty: Type) -> i64 {
    let (lo, hi): (i64, i64) = match ty {
        Type::UB => (0, u8::MAX as i64),
        Type::B => (i8::MIN as i64, i8::MAX as i64),
        Type::UW => (0, u16::MAX as i64),
        Type::W => (i16::MIN as i64, i16::MAX as i64),
        Type::UD => (0, u32::MAX as i64),
        Type::D => (i32::MIN as i64, i32::MAX as i64),
        Type::UQ => (0, i64::MAX),
        _ => (i64::MIN, i64::MAX),
    };
    v.clamp(lo, hi)
}

/// Float → integer: round toward zero, saturate to the type's range, NaN → 0 (PRM).
fn f32_to_int(v: f32, ty: Type) -> i64 {
    f64_to_int(v as f64, ty)
}

fn f64_to_int(v: f64, ty: Type) -> i64 {
    match ty {
        Type::UB => v as u8 as i64,
        Type::B => v as i8 as i64,
        Type::UW => v as u16 as i64,
        Type::W => v as i16 as i64,
        Type::UD => v as u32 as i64,
        Type::D => v as i32 as i64,
        Type::UQ => v as u64 as i64,
        _ => v as i64,
    }
}

#[inline]
fn lanes1<T: Copy>(r: &mut Lanes<T>, x: &Lanes<T>, n: usize, f: impl Fn(T) -> T) {
    for i in 0..n {
        r[i] = f(x[i]);
    }
}

#[inline]
fn lanes2<T: Copy>(r: &mut Lanes<T>, x: &Lanes<T>, y: &Lanes<T>, n: usize, f: impl Fn(T, T) -> T) {
    for i in 0..n {
        r[i] = f(x[i], y[i]);
    }
}

#[inline]
fn lanes3<T: Copy>(
    r: &mut Lanes<T>,
    x: &Lanes<T>,
    y: &Lanes<T>,
    z: &Lanes<T>,
    n: usize,
    f: impl Fn(T, T, T) -> T,
) {
    for i in 0..n {
        r[i] = f(x[i], y[i], z[i]);
    }
}
