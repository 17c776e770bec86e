//! The IEEE math macros: `math.invm`, `math.rsqtm` and `madm`, the steps IGC
//! builds correctly rounded DF (and IEEE F) division and square root from.
//!
//! Model (the PRM describes the behaviour, not the bit widths):
//! - A macro operand names a GRF and an extended accumulator: `rN.mmeK`
//!   (K = 0..7, encoded in the Align16 swizzle / write-mask field) or
//!   `rN.nomme` (a plain value). An mme value here has `P` = 113 significand
//!   bits and an unbounded exponent, so the sequences' intermediate values
//!   (1/b of a denormal b, a·(1/b) past DBL_MAX) neither overflow nor underflow.
//! - `madm` computes `src0 + src1 × src2` exactly and rounds once: to an mme
//!   value (round to nearest even, `P` bits) when the destination is `.mmeK`,
//!   to the destination's IEEE format in cr0's rounding mode (overflow,
//!   denormals) when it is `.nomme`.
//! - `math.invm a b` / `math.rsqtm a` set the early-out flag bit of a lane
//!   whose result is special (a NaN, infinity or zero operand; for rsqtm also
//!   a < 0) and write the IEEE result a/b or √a there; other lanes get the
//!   flag cleared and an approximation of 1/b or 1/√a accurate to about 2^-53
//!   (the hardware's is coarser; IGC's sequences converge from either).
//! - The GRF part of an mme destination gets the value rounded to the
//!   register's format; the extended value is kept per (K, channel) with the
//!   GRF bits it was written with, and an `.mmeK` source whose GRF no longer
//!   holds those bits reads the GRF value.

// Lane loops index several parallel lane arrays at once.
#![allow(clippy::needless_range_loop)]

use std::cmp::Ordering;

use gencl_isa::{MathFn, Opcode, Type};

use super::alu::{write_flags, CR0_FP32_DENORM_KEEP, CR0_FP64_DENORM_KEEP};
use super::float::Round;
use super::program::{ExecInst, SrcOp};
use super::thread::Thread;
use crate::gpu::GpuError;

/// Significand bits of an extended (mme) value.
const P: u32 = 113;

/// 256-bit unsigned magnitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct U256 {
    hi: u128,
    lo: u128,
}

impl U256 {
    const ZERO: U256 = U256 { hi: 0, lo: 0 };

    fn from(v: u128) -> U256 {
        U256 { hi: 0, lo: v }
    }

    fn mul(a: u128, b: u128) -> U256 {
        let (a1, a0) = (a >> 64, a & u64::MAX as u128);
        let (b1, b0) = (b >> 64, b & u64::MAX as u128);
        let p00 = a0 * b0;
        let p01 = a0 * b1;
        let p10 = a1 * b0;
        let p11 = a1 * b1;
        let (mid, c1) = p01.overflowing_add(p10);
        let (lo, c2) = p00.overflowing_add(mid << 64);
        let hi = p11 + (mid >> 64) + ((c1 as u128) << 64) + c2 as u128;
        U256 { hi, lo }
    }

    fn is_zero(self) -> bool {
        self.hi == 0 && self.lo == 0
    }

    /// Number of significant bits.
    fn bits(self) -> u32 {
        if self.hi != 0 {
            256 - self.hi.leading_zeros()
        } else {
            128 - self.lo.leading_zeros()
        }
    }

    fn shl(self, s: u32) -> U256 {
        match s {
            0 => self,
            1..=127 => U256 {
                hi: (self.hi << s) | (self.lo >> (128 - s)),
                lo: self.lo << s,
            },
            128..=255 => U256 {
                hi: self.lo << (s - 128),
                lo: 0,
            },
            _ => U256::ZERO,
        }
    }

    fn shr(self, s: u32) -> U256 {
        match s {
            0 => self,
            1..=127 => U256 {
                hi: self.hi >> s,
                lo: (self.lo >> s) | (self.hi << (128 - s)),
            },
            128..=255 => U256 {
                hi: 0,
                lo: self.hi >> (s - 128),
            },
            _ => U256::ZERO,
        }
    }

    /// Whether any of the low `s` bits is set.
    fn low_nonzero(self, s: u32) -> bool {
        s > 0 && !self.shl(256 - s.min(256)).is_zero()
    }

    /// Shift right, OR-ing the bits shifted out into bit 0 ("jamming").
    fn shr_jam(self, s: u32) -> U256 {
        let mut r = self.shr(s);
        if self.low_nonzero(s) {
            r.lo |= 1;
        }
        r
    }

    fn bit(self, k: u32) -> bool {
        if k >= 128 {
            (self.hi >> (k - 128)) & 1 != 0
        } else {
            (self.lo >> k) & 1 != 0
        }
    }

    fn add(self, o: U256) -> U256 {
        let (lo, c) = self.lo.overflowing_add(o.lo);
        U256 {
            hi: self.hi + o.hi + c as u128,
            lo,
        }
    }

    /// `self - o`, `self >= o`.
    fn sub(self, o: U256) -> U256 {
        let (lo, b) = self.lo.overflowing_sub(o.lo);
        U256 {
            hi: self.hi - o.hi - b as u128,
            lo,
        }
    }

    fn cmp(self, o: U256) -> Ordering {
        (self.hi, self.lo).cmp(&(o.hi, o.lo))
    }
}

/// An extended value: NaN, ±∞, ±0, or ±man·2^exp with man in [2^(P-1), 2^P).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ext {
    Nan,
    Inf(bool),
    Zero(bool),
    Fin { neg: bool, exp: i32, man: u128 },
}

/// An exact result before rounding: ±mag·2^exp (bit 0 of `mag` may be a jammed sticky bit).
struct Exact {
    neg: bool,
    exp: i32,
    mag: U256,
}

/// An IEEE binary format: significand bits (with the hidden one), exponent range.
#[derive(Clone, Copy)]
pub struct Format {
    p: u32,
    emin: i32,
    emax: i32,
}

pub const BINARY64: Format = Format {
    p: 53,
    emin: -1022,
    emax: 1023,
};
pub const BINARY32: Format = Format {
    p: 24,
    emin: -126,
    emax: 127,
};

impl Ext {
    pub fn from_f64(v: f64) -> Ext {
        let neg = v.is_sign_negative();
        if v.is_nan() {
            return Ext::Nan;
        }
        if v.is_infinite() {
            return Ext::Inf(neg);
        }
        if v == 0.0 {
            return Ext::Zero(neg);
        }
        let b = v.to_bits();
        let be = ((b >> 52) & 0x7FF) as i32;
        let frac = b & ((1 << 52) - 1);
        let (m, e) = if be == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, be - 1075)
        };
        Ext::finite(neg, e, m as u128)
    }

    /// ±m·2^e normalised to P bits (m < 2^P, exact).
    fn finite(neg: bool, e: i32, m: u128) -> Ext {
        if m == 0 {
            return Ext::Zero(neg);
        }
        let s = P - (128 - m.leading_zeros());
        Ext::Fin {
            neg,
            exp: e - s as i32,
            man: m << s,
        }
    }

    fn neg(self) -> Ext {
        match self {
            Ext::Nan => Ext::Nan,
            Ext::Inf(n) => Ext::Inf(!n),
            Ext::Zero(n) => Ext::Zero(!n),
            Ext::Fin { neg, exp, man } => Ext::Fin {
                neg: !neg,
                exp,
                man,
            },
        }
    }

    fn abs(self) -> Ext {
        match self {
            Ext::Nan => Ext::Nan,
            Ext::Inf(_) => Ext::Inf(false),
            Ext::Zero(_) => Ext::Zero(false),
            Ext::Fin { exp, man, .. } => Ext::Fin {
                neg: false,
                exp,
                man,
            },
        }
    }

    /// Round to `fmt` in mode `rm` as IEEE bits (binary64 or binary32).
    pub fn to_bits(self, fmt: Format, rm: Round) -> u64 {
        let sign_bit = |neg: bool| (neg as u64) << (fmt.p + width(fmt) - 1);
        match self {
            Ext::Nan => quiet_nan(fmt),
            Ext::Inf(n) => sign_bit(n) | inf_bits(fmt),
            Ext::Zero(n) => sign_bit(n),
            Ext::Fin { neg, exp, man } => round_ieee(
                Exact {
                    neg,
                    exp,
                    mag: U256::from(man),
                },
                fmt,
                rm,
            ),
        }
    }

    pub fn to_f64(self, rm: Round) -> f64 {
        f64::from_bits(self.to_bits(BINARY64, rm))
    }
}

/// Exponent field width of `fmt`.
fn width(fmt: Format) -> u32 {
    if fmt.p == 53 {
        11
    } else {
        8
    }
}

fn inf_bits(fmt: Format) -> u64 {
    ((1u64 << width(fmt)) - 1) << (fmt.p - 1)
}

fn quiet_nan(fmt: Format) -> u64 {
    inf_bits(fmt) | 1 << (fmt.p - 2)
}

/// Round an exact value to `fmt` in mode `rm`, denormals and overflow included.
fn round_ieee(x: Exact, fmt: Format, rm: Round) -> u64 {
    let sign = (x.neg as u64) << (fmt.p + width(fmt) - 1);
    if x.mag.is_zero() {
        return sign;
    }
    let l = x.mag.bits() as i32;
    // Keep p bits, but no bit below the smallest denormal's 2^(emin - p + 1).
    let lsb_min = fmt.emin - fmt.p as i32 + 1;
    let shift = (l - fmt.p as i32).max(lsb_min - x.exp);
    let away = matches!((rm, x.neg), (Round::Ru, false) | (Round::Rd, true));
    let (mut q, mut e) = if shift <= 0 {
        (x.mag.shl((-shift) as u32).lo as u64, x.exp + shift)
    } else {
        let s = shift as u32;
        let q = x.mag.shr(s).lo as u64;
        let guard = s <= 256 && x.mag.bit(s - 1);
        let sticky = x.mag.low_nonzero(s - 1);
        let up = match rm {
            Round::Rtne => guard && (sticky || q & 1 == 1),
            Round::Rtz => false,
            _ => away && (guard || sticky),
        };
        (q + up as u64, x.exp + shift)
    };
    if q >> fmt.p != 0 {
        q >>= 1;
        e += 1;
    }
    if q == 0 {
        return sign;
    }
    // q·2^e with q < 2^p: the msb's exponent.
    let top = e + (64 - q.leading_zeros() as i32) - 1;
    if top > fmt.emax {
        return sign
            | if rm == Round::Rtne || away {
                inf_bits(fmt)
            } else {
                inf_bits(fmt) - 1
            };
    }
    if e == lsb_min && q >> (fmt.p - 1) == 0 {
        // A denormal: the biased exponent field is 0.
        return sign | q;
    }
    let biased = (top - fmt.emin + 1) as u64;
    sign | biased << (fmt.p - 1) | (q & ((1 << (fmt.p - 1)) - 1))
}

/// `a + b × c` exactly (a sticky bit jammed far below the result's precision),
/// or the special result.
fn fma_exact(a: Ext, b: Ext, c: Ext) -> Result<Exact, Ext> {
    use Ext::*;
    let is_neg = |x: Ext| matches!(x, Inf(true) | Zero(true) | Fin { neg: true, .. });
    match (a, b, c) {
        (Nan, _, _) | (_, Nan, _) | (_, _, Nan) => return Err(Nan),
        (_, Inf(_), Zero(_)) | (_, Zero(_), Inf(_)) => return Err(Nan),
        _ => {}
    }
    let prod_neg = is_neg(b) != is_neg(c);
    if matches!(b, Inf(_)) || matches!(c, Inf(_)) {
        return match a {
            Inf(n) if n != prod_neg => Err(Nan),
            _ => Err(Inf(prod_neg)),
        };
    }
    if let Inf(n) = a {
        return Err(Inf(n));
    }
    let (pe, pm) = match (b, c) {
        (
            Fin {
                exp: e1, man: m1, ..
            },
            Fin {
                exp: e2, man: m2, ..
            },
        ) => (e1 + e2, U256::mul(m1, m2)),
        _ => {
            // A zero product: the sum is `a`, or a signed zero (IEEE 754 §6.3).
            return match a {
                Zero(n) => Err(Zero(n && prod_neg)),
                _ => Err(a),
            };
        }
    };
    let (an, ae, am) = match a {
        Fin { neg, exp, man } => (neg, exp, U256::from(man)),
        _ => {
            return Ok(Exact {
                neg: prod_neg,
                exp: pe,
                mag: pm,
            })
        }
    };
    // A common exponent that leaves both magnitudes within 250 bits.
    let top = (pe + pm.bits() as i32).max(ae + am.bits() as i32);
    let e = top - 250;
    let align = |exp: i32, m: U256| {
        if exp >= e {
            m.shl((exp - e) as u32)
        } else {
            m.shr_jam((e - exp).min(300) as u32)
        }
    };
    let (x, y) = (align(pe, pm), align(ae, am));
    let (neg, mag) = if prod_neg == an {
        (an, x.add(y))
    } else {
        match x.cmp(y) {
            Ordering::Greater => (prod_neg, x.sub(y)),
            Ordering::Less => (an, y.sub(x)),
            Ordering::Equal => (false, U256::ZERO),
        }
    };
    Ok(Exact { neg, exp: e, mag })
}

/// Round an exact value to an extended (mme) value: P bits, to nearest even.
fn round_ext(x: Exact, zero_neg: bool) -> Ext {
    if x.mag.is_zero() {
        return Ext::Zero(zero_neg);
    }
    let l = x.mag.bits();
    if l <= P {
        return Ext::finite(x.neg, x.exp, x.mag.lo);
    }
    let s = l - P;
    let q = x.mag.shr(s).lo;
    let guard = x.mag.bit(s - 1);
    let sticky = x.mag.low_nonzero(s - 1);
    let q = q + (guard && (sticky || q & 1 == 1)) as u128;
    // A carry out of the top bit leaves a power of two: drop its zero low bit.
    let (q, s) = if q >> P != 0 { (q >> 1, s + 1) } else { (q, s) };
    Ext::finite(x.neg, x.exp + s as i32, q)
}

/// `madm` to an extended destination.
pub fn madm_ext(a: Ext, b: Ext, c: Ext, rm: Round) -> Ext {
    match fma_exact(a, b, c) {
        Ok(x) => round_ext(x, rm == Round::Rd),
        Err(special) => special,
    }
}

/// `madm` to an IEEE destination: one rounding of the exact value.
pub fn madm_ieee(a: Ext, b: Ext, c: Ext, fmt: Format, rm: Round) -> u64 {
    match fma_exact(a, b, c) {
        Ok(x) if x.mag.is_zero() => Ext::Zero(rm == Round::Rd).to_bits(fmt, rm),
        Ok(x) => round_ieee(x, fmt, rm),
        Err(special) => special.to_bits(fmt, rm),
    }
}

/// `math.invm`: `Err(a/b)` for the early-out cases, else an approximation of 1/b.
pub fn invm(a: f64, b: f64) -> Result<Ext, f64> {
    let special = |v: f64| v.is_nan() || v.is_infinite() || v == 0.0;
    if special(a) || special(b) {
        return Err(a / b);
    }
    let Ext::Fin { neg, exp, man } = Ext::from_f64(b) else {
        unreachable!("finite nonzero")
    };
    // b = m·2^s, m in [1, 2): 1/b ≈ (1/m)·2^-s.
    let m = (man >> (P - 53)) as f64 / (1u64 << 52) as f64;
    let s = exp + P as i32 - 1;
    Ok(scale(Ext::from_f64(1.0 / m), -s, neg))
}

/// `math.rsqtm`: `Err(√a)` for the early-out cases, else an approximation of 1/√a.
pub fn rsqtm(a: f64) -> Result<Ext, f64> {
    if a.is_nan() || a.is_infinite() || a <= 0.0 {
        return Err(a.sqrt());
    }
    let Ext::Fin { exp, man, .. } = Ext::from_f64(a) else {
        unreachable!("finite positive")
    };
    let mut m = (man >> (P - 53)) as f64 / (1u64 << 52) as f64;
    let mut s = exp + P as i32 - 1;
    if s & 1 != 0 {
        m *= 2.0;
        s -= 1;
    }
    Ok(scale(Ext::from_f64(1.0 / m.sqrt()), -s / 2, false))
}

fn scale(v: Ext, k: i32, neg: bool) -> Ext {
    match v {
        Ext::Fin { exp, man, .. } => Ext::Fin {
            neg,
            exp: exp + k,
            man,
        },
        other => other,
    }
}

/// The mme accumulators of a thread: per (K, channel) the extended value and
/// the GRF bits it was written with.
#[derive(Clone, Debug, Default)]
pub struct MmeFile {
    slots: Vec<Option<(u64, Ext)>>,
}

impl MmeFile {
    fn get(&self, k: u8, ch: usize) -> Option<(u64, Ext)> {
        self.slots.get(k as usize * 32 + ch).copied().flatten()
    }
    fn set(&mut self, k: u8, ch: usize, v: (u64, Ext)) {
        if self.slots.is_empty() {
            self.slots = vec![None; 8 * 32];
        }
        self.slots[k as usize * 32 + ch] = Some(v);
    }
}

/// Whether an instruction is one of the IEEE macros (its operands name mme registers).
pub fn is_macro(op: Opcode, math: Option<MathFn>) -> bool {
    op == Opcode::Madm
        || (op == Opcode::Math && matches!(math, Some(MathFn::Invm | MathFn::Rsqrtm)))
}

/// Execute madm, math.invm or math.rsqtm. Returns the lanes it executed on.
pub fn exec(t: &mut Thread, inst: &ExecInst) -> Result<u32, GpuError> {
    // Lane arrays as wide as the instruction (IGC's and gencl's DF sequences are SIMD4 and
    // SIMD8): an extended value is 32 bytes, and filling 32 lanes of three sources cost
    // more than the arithmetic of four.
    match inst.n {
        0..=4 => exec_n::<4>(t, inst),
        5..=8 => exec_n::<8>(t, inst),
        _ => exec_n::<32>(t, inst),
    }
}

fn exec_n<const N: usize>(t: &mut Thread, inst: &ExecInst) -> Result<u32, GpuError> {
    let n = inst.n as usize;
    let wmask = t.enabled(inst) & t.pred_mask(inst);
    let a = inst.addr;
    let illegal = |why: &str| GpuError::IllegalInstruction {
        addr: a,
        why: format!("{:?}: {why}", inst.op),
    };
    let d = inst
        .dst
        .ok_or_else(|| illegal("macro without destination"))?;
    let (fmt, keep) = match d.ty {
        Type::DF => (BINARY64, CR0_FP64_DENORM_KEEP),
        Type::F => (BINARY32, CR0_FP32_DENORM_KEEP),
        _ => return Err(illegal("macro destination is not F or DF")),
    };
    let cr0 = t.cr0();
    let ftz = cr0 & keep == 0;
    let rm = Round::from_cr0(cr0);
    let ch0 = inst.chan_off as usize;
    // Sources: the kept extended values (mme) or the registers' IEEE values.
    let mut src = [[Ext::Zero(false); N]; 3];
    let nsrc = inst.srcs.iter().filter(|s| s.is_some()).count();
    let mut v = [0f64; 32];
    let mut b = [0u64; 32];
    for k in 0..nsrc {
        let s = inst.srcs[k]
            .as_ref()
            .ok_or_else(|| illegal("missing source"))?;
        let raw = SrcOp {
            neg: false,
            abs: false,
            ..*s
        };
        if s.ty == Type::DF {
            t.gather_f64(&raw, n, &mut v, false, a)?;
            for i in 0..n {
                b[i] = v[i].to_bits();
            }
        } else {
            let mut f = [0f32; 32];
            t.gather_f32(&raw, n, &mut f, false, a)?;
            for i in 0..n {
                v[i] = f[i] as f64;
                b[i] = f[i].to_bits() as u64;
            }
        }
        let mme = inst.mme[k + 1];
        for i in 0..n {
            if wmask & (1 << i) == 0 {
                continue;
            }
            let kept = if mme < 8 {
                t.mme.get(mme, ch0 + i).filter(|(bits, _)| *bits == b[i])
            } else {
                None
            };
            let mut x = match kept {
                Some((_, e)) => e,
                None if ftz => Ext::from_f64(flush(v[i], s.ty)),
                None => Ext::from_f64(v[i]),
            };
            if s.abs {
                x = x.abs();
            }
            if s.neg {
                x = x.neg();
            }
            src[k][i] = x;
        }
    }
    let mut bits = [0u64; 32];
    let mut ext: [Option<Ext>; N] = [None; N];
    let mut early = 0u32;
    for i in 0..n {
        if wmask & (1 << i) == 0 {
            continue;
        }
        let ieee = |e: Ext| e.to_f64(Round::Rtne);
        let r = match (inst.op, inst.math) {
            (Opcode::Madm, _) if inst.mme[0] < 8 => {
                Ok(madm_ext(src[0][i], src[1][i], src[2][i], rm))
            }
            (Opcode::Madm, _) => {
                bits[i] = madm_ieee(src[0][i], src[1][i], src[2][i], fmt, rm);
                continue;
            }
            (_, Some(MathFn::Invm)) => invm(ieee(src[0][i]), ieee(src[1][i])),
            _ => rsqtm(ieee(src[0][i])),
        };
        match r {
            Ok(e) => {
                bits[i] = e.to_bits(fmt, Round::Rtne);
                ext[i] = Some(e);
            }
            Err(v) => {
                early |= 1 << i;
                bits[i] = Ext::from_f64(v).to_bits(fmt, Round::Rtne);
            }
        }
    }
    if ftz {
        for v in bits[..n].iter_mut() {
            *v = flush_bits(*v, fmt);
        }
    }
    t.scatter_bits(&d, n, wmask, &bits, a)?;
    if inst.mme[0] < 8 {
        for i in 0..n {
            if let Some(e) = ext[i] {
                t.mme.set(inst.mme[0], ch0 + i, (bits[i], e));
            }
        }
    }
    if inst.op == Opcode::Math {
        write_flags(t, inst, wmask, early);
    }
    Ok(wmask)
}

fn flush(v: f64, ty: Type) -> f64 {
    let sub = if ty == Type::DF {
        v.is_subnormal()
    } else {
        (v as f32).is_subnormal()
    };
    if sub {
        0.0f64.copysign(v)
    } else {
        v
    }
}

/// A denormal result flushed to a zero of its sign.
fn flush_bits(b: u64, fmt: Format) -> u64 {
    if b & inf_bits(fmt) == 0 {
        b & !((1u64 << (fmt.p - 1)) - 1)
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::gpu::eu::tests::numeric::{any_f64, xorshift as rng};

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    fn e(v: f64) -> Ext {
        Ext::from_f64(v)
    }

    /// madm to a DF destination is an IEEE fma: Rust's `f64::mul_add` is the reference.
    #[test]
    fn madm_to_df_is_the_ieee_fma() {
        let mut s = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            let (a, b, c) = (any_f64(&mut s), any_f64(&mut s), any_f64(&mut s));
            // Some addends cancel the product, some sit just below it.
            let a = match rng(&mut s) % 4 {
                0 => -(b * c),
                1 => (b * c) * 1e-17,
                _ => a,
            };
            let got = f64::from_bits(madm_ieee(e(a), e(b), e(c), BINARY64, Round::Rtne));
            let want = b.mul_add(c, a);
            assert!(
                same(got, want),
                "{a:e} + {b:e} * {c:e}: {got:e} want {want:e}"
            );
        }
    }

    /// A product of two doubles is exact in an mme value, past the double range too.
    #[test]
    fn extended_values_hold_products_exactly() {
        let mut s = 12345;
        for _ in 0..50_000 {
            let (b, c) = (any_f64(&mut s), any_f64(&mut s));
            assert!(same(e(b).to_f64(Round::Rtne), b));
            let hi = b * c;
            if !hi.is_finite() || hi == 0.0 {
                continue;
            }
            let p = madm_ext(Ext::Zero(false), e(b), e(c), Round::Rtne);
            assert!(same(p.to_f64(Round::Rtne), hi));
            // p - hi is the product's rounding error: fma(b, c, -hi) in f64.
            let lo = f64::from_bits(madm_ieee(e(-hi), p, e(1.0), BINARY64, Round::Rtne));
            assert!(same(lo, b.mul_add(c, -hi)), "{b:e} * {c:e}");
        }
        let tiny = e(f64::from_bits(1));
        let big = e(2f64.powi(1000));
        let x = madm_ext(Ext::Zero(false), big, big, Round::Rtne);
        assert_eq!(x.to_f64(Round::Rtne), f64::INFINITY);
        let y = madm_ieee(Ext::Zero(false), x, tiny, BINARY64, Round::Rtne);
        assert_eq!(f64::from_bits(y), 2f64.powi(926));
    }

    /// Rounding to binary32 against Rust's f64 → f32 conversion (one rounding);
    /// directed modes at an inexact value and at overflow.
    #[test]
    fn rounding_to_binary32() {
        let mut s = 777;
        for _ in 0..50_000 {
            let v = any_f64(&mut s);
            let got = f32::from_bits(e(v).to_bits(BINARY32, Round::Rtne) as u32);
            assert!(same(got as f64, (v as f32) as f64), "{v:e}");
        }
        let v = e(1.0 + 2f64.powi(-30));
        let up = (1.0f32 + f32::EPSILON).to_bits() as u64;
        assert_eq!(v.to_bits(BINARY32, Round::Ru), up);
        assert_eq!(v.to_bits(BINARY32, Round::Rd), 1.0f32.to_bits() as u64);
        let big = e(-1e300).to_bits(BINARY32, Round::Rtz);
        assert_eq!(big, (-f32::MAX).to_bits() as u64);
    }
}
