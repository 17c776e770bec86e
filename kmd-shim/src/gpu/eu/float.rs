//! IEEE helpers the EU needs and Rust lacks: half precision, denormal flushing,
//! the rounding instructions, and the arithmetic that follows cr0's rounding mode.

use super::softfloat;

/// Flush a single-precision denormal to zero of the same sign (cr0 FP32 denorm mode 0).
#[inline]
pub fn flush_f32(v: f32) -> f32 {
    if v.is_subnormal() {
        f32::from_bits(v.to_bits() & 0x8000_0000)
    } else {
        v
    }
}

/// Flush a half-precision denormal, held as its exact f32 value, to zero of
/// the same sign (cr0 FP16 denorm mode 0).
#[inline]
pub fn flush_f16(v: f32) -> f32 {
    if v != 0.0 && v.abs() < 1.0 / 16384.0 {
        0.0f32.copysign(v)
    } else {
        v
    }
}

#[inline]
pub fn flush_f64(v: f64) -> f64 {
    if v.is_subnormal() {
        f64::from_bits(v.to_bits() & 0x8000_0000_0000_0000)
    } else {
        v
    }
}

/// The NaN an arithmetic f32 result carries: the first NaN source (src0,
/// src1, src2 order, after source modifiers) made quiet, else 0x7FC0_0000.
/// A fixed rule so that results do not depend on which operand order the host
/// compiler picked; the hardware's own payload rules are not modelled.
#[inline]
pub fn nan_f32(srcs: &[f32]) -> f32 {
    for s in srcs {
        if s.is_nan() {
            return f32::from_bits(s.to_bits() | 0x0040_0000);
        }
    }
    f32::from_bits(0x7FC0_0000)
}

/// `nan_f32` for doubles: the first NaN source made quiet, else 0x7FF8_0000_0000_0000
/// (not the host's default NaN, whose sign x86 sets, nor whichever operand the host
/// compiler put first).
#[inline]
pub fn nan_f64(srcs: &[f64]) -> f64 {
    for s in srcs {
        if s.is_nan() {
            return f64::from_bits(s.to_bits() | 0x0008_0000_0000_0000);
        }
    }
    f64::from_bits(0x7FF8_0000_0000_0000)
}

pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1F) as u32;
    let man = (h & 0x3FF) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Denormal half: value m * 2^-24, exact in f32.
            let v = m as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        (0x1F, 0) => sign | 0x7F80_0000,
        (0x1F, m) => sign | 0x7FC0_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// f32 → f16, round to nearest even, overflow to infinity, NaN kept quiet.
pub fn f32_to_f16(v: f32) -> u16 {
    f32_to_f16_rm(v, Round::Rtne)
}

/// f32 → f16 in rounding mode `rm` (exact in f64, so one rounding).
pub fn f32_to_f16_rm(v: f32, rm: Round) -> u16 {
    f64_to_f16_rm(v as f64, rm)
}

/// f64 → f16 in rounding mode `rm` (IEEE 754: a directed mode overflows to
/// the largest finite half unless it rounds away from zero; NaN kept quiet,
/// with the top bits of its payload).
pub fn f64_to_f16_rm(v: f64, rm: Round) -> u16 {
    let b = v.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    if v.is_nan() {
        return sign | 0x7E00 | ((b >> 42) & 0x3FF) as u16;
    }
    if v.is_infinite() {
        return sign | 0x7C00;
    }
    softfloat::convert_bits(b, softfloat::F64, softfloat::F16, rm) as u16
}

/// `rnde`: round to nearest, ties to even.
pub fn round_even_f32(v: f32) -> f32 {
    let r = v.round();
    if (v - v.trunc()).abs() == 0.5 {
        2.0 * (v / 2.0).round()
    } else {
        r
    }
}

pub fn round_even_f64(v: f64) -> f64 {
    let r = v.round();
    if (v - v.trunc()).abs() == 0.5 {
        2.0 * (v / 2.0).round()
    } else {
        r
    }
}

/// cr0.0 bits 5:4, the rounding mode of float results (Mesa `brw_rnd_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// Round to nearest, ties to even (0).
    Rtne,
    /// Toward +infinity (1).
    Ru,
    /// Toward -infinity (2).
    Rd,
    /// Toward zero (3).
    Rtz,
}

/// cr0.0 bits holding the rounding mode.
pub const CR0_ROUND_MASK: u32 = 0x30;

impl Round {
    pub fn from_cr0(cr0: u32) -> Round {
        match (cr0 >> 4) & 3 {
            0 => Round::Rtne,
            1 => Round::Ru,
            2 => Round::Rd,
            _ => Round::Rtz,
        }
    }
}

// Arithmetic whose result depends on cr0's rounding mode. Round to nearest
// even, and any non-finite operand (the result is then exact), use the host;
// the directed modes go through `softfloat`, which rounds the exact result once.

fn f32_op(v: &[f32], rm: Round) -> bool {
    rm != Round::Rtne && v.iter().all(|x| x.is_finite())
}

fn f64_op(v: &[f64], rm: Round) -> bool {
    rm != Round::Rtne && v.iter().all(|x| x.is_finite())
}

fn to_f32(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

/// f32 `a + b` in rounding mode `rm`.
pub fn add_f32(a: f32, b: f32, rm: Round) -> f32 {
    if !f32_op(&[a, b], rm) {
        return a + b;
    }
    to_f32(softfloat::add_bits(
        a.to_bits().into(),
        b.to_bits().into(),
        softfloat::F32,
        rm,
    ))
}

/// f32 `a * b` in rounding mode `rm`.
pub fn mul_f32(a: f32, b: f32, rm: Round) -> f32 {
    if !f32_op(&[a, b], rm) {
        return a * b;
    }
    to_f32(softfloat::mul_bits(
        a.to_bits().into(),
        b.to_bits().into(),
        softfloat::F32,
        rm,
    ))
}

/// Gen `mad`: `a + b * c` with one rounding in mode `rm`.
pub fn mad_f32(a: f32, b: f32, c: f32, rm: Round) -> f32 {
    if !f32_op(&[a, b, c], rm) {
        return b.mul_add(c, a);
    }
    let [a, b, c] = [a, b, c].map(|x| u64::from(x.to_bits()));
    to_f32(softfloat::fma_bits(b, c, a, softfloat::F32, rm))
}

/// f64 `a + b` in rounding mode `rm`.
pub fn add_f64(a: f64, b: f64, rm: Round) -> f64 {
    if !f64_op(&[a, b], rm) {
        return a + b;
    }
    f64::from_bits(softfloat::add_bits(
        a.to_bits(),
        b.to_bits(),
        softfloat::F64,
        rm,
    ))
}

/// f64 `a * b` in rounding mode `rm`.
pub fn mul_f64(a: f64, b: f64, rm: Round) -> f64 {
    if !f64_op(&[a, b], rm) {
        return a * b;
    }
    f64::from_bits(softfloat::mul_bits(
        a.to_bits(),
        b.to_bits(),
        softfloat::F64,
        rm,
    ))
}

/// Gen `mad` on doubles: `a + b * c` with one rounding in mode `rm`.
pub fn mad_f64(a: f64, b: f64, c: f64, rm: Round) -> f64 {
    if !f64_op(&[a, b, c], rm) {
        return b.mul_add(c, a);
    }
    f64::from_bits(softfloat::fma_bits(
        b.to_bits(),
        c.to_bits(),
        a.to_bits(),
        softfloat::F64,
        rm,
    ))
}

/// Native half `mad` (all operands :hf, given as their exact f32 values):
/// `a + b * c` rounded once to half in mode `rm`. Going through f32 would
/// round twice, which can differ from one rounding even to nearest.
pub fn mad_f16(a: f32, b: f32, c: f32, rm: Round) -> u16 {
    if !a.is_finite() || !b.is_finite() || !c.is_finite() {
        return f32_to_f16_rm(b.mul_add(c, a), rm);
    }
    // Each operand is a half value, so the conversion back is exact.
    let [a, b, c] = [a, b, c].map(|x| u64::from(f32_to_f16(x)));
    softfloat::fma_bits(b, c, a, softfloat::F16, rm) as u16
}

/// An integer (i64, or its bits as u64 when `unsigned`) to f32 in mode `rm`.
pub fn int_to_f32(v: i64, unsigned: bool, rm: Round) -> f32 {
    // The host's conversion rounds to nearest even, and is exact in every mode for what
    // fits the significand (|v| <= 2^24); only the rest needs the directed rounding.
    if rm == Round::Rtne || (!unsigned || v >= 0) && v.unsigned_abs() <= 1 << 24 {
        return if unsigned { v as u64 as f32 } else { v as f32 };
    }
    to_f32(softfloat::from_int(
        exact_int(v, unsigned),
        softfloat::F32,
        rm,
    ))
}

/// An integer (i64, or its bits as u64 when `unsigned`) to f64 in mode `rm`.
pub fn int_to_f64(v: i64, unsigned: bool, rm: Round) -> f64 {
    // As `int_to_f32`: exact for |v| <= 2^53, the host's rounding to nearest otherwise.
    if rm == Round::Rtne || (!unsigned || v >= 0) && v.unsigned_abs() <= 1 << 53 {
        return if unsigned { v as u64 as f64 } else { v as f64 };
    }
    f64::from_bits(softfloat::from_int(
        exact_int(v, unsigned),
        softfloat::F64,
        rm,
    ))
}

fn exact_int(v: i64, unsigned: bool) -> i128 {
    if unsigned {
        v as u64 as i128
    } else {
        v as i128
    }
}

/// f64 to f32 in mode `rm`.
pub fn f64_to_f32(v: f64, rm: Round) -> f32 {
    if !f64_op(&[v], rm) {
        return v as f32;
    }
    to_f32(softfloat::convert_bits(
        v.to_bits(),
        softfloat::F64,
        softfloat::F32,
        rm,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_round_trip_matches_reference_values() {
        // Reference encodings from IEEE 754 binary16.
        assert_eq!(f32_to_f16(1.0), 0x3C00);
        assert_eq!(f32_to_f16(-2.0), 0xC000);
        assert_eq!(f32_to_f16(65504.0), 0x7BFF);
        assert_eq!(f32_to_f16(65520.0), 0x7C00); // rounds up to infinity
        assert_eq!(f32_to_f16(5.960_464_5e-8), 0x0001); // smallest denormal
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3C00); // tie to even
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0), 0x3C02);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
        for h in 0..=0xFFFFu16 {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#x}");
        }
    }

    /// IEEE 754 directed rounding at the edges: overflow, underflow to the
    /// smallest denormal, exact zeros (-0 only when rounding down), int → f32.
    #[test]
    fn directed_rounding_edges() {
        let max = f32::MAX;
        assert_eq!(add_f32(max, max, Round::Ru), f32::INFINITY);
        assert_eq!(add_f32(max, max, Round::Rd), max);
        assert_eq!(add_f32(max, max, Round::Rtz), max);
        assert_eq!(add_f32(-max, -max, Round::Ru), -max);
        assert_eq!(add_f32(-max, -max, Round::Rd), f32::NEG_INFINITY);
        let tiny = f32::from_bits(1); // 2^-149
        assert_eq!(mul_f32(tiny, 0.5, Round::Ru).to_bits(), 1);
        assert_eq!(mul_f32(tiny, 0.5, Round::Rd).to_bits(), 0);
        assert_eq!(mul_f32(-tiny, 0.5, Round::Rd).to_bits(), 0x8000_0001);
        assert_eq!(mul_f32(-tiny, 0.5, Round::Ru).to_bits(), 0x8000_0000);
        assert_eq!(add_f32(1.0, -1.0, Round::Rd).to_bits(), 0x8000_0000);
        assert_eq!(add_f32(1.0, -1.0, Round::Ru).to_bits(), 0);
        assert_eq!(add_f32(-0.0, -0.0, Round::Ru).to_bits(), 0x8000_0000);
        assert_eq!(mad_f32(-1.0, 1.0, 1.0, Round::Rd).to_bits(), 0x8000_0000);
        // 1 + 2^-30: between 1 and 1 + 2^-23.
        let eps = 1.0 / (1u64 << 30) as f32;
        assert_eq!(add_f32(1.0, eps, Round::Ru), 1.0 + f32::EPSILON);
        assert_eq!(add_f32(1.0, eps, Round::Rd), 1.0);
        assert_eq!(add_f32(-1.0, -eps, Round::Rtz), -1.0);
        assert_eq!(add_f32(-1.0, -eps, Round::Rd), -1.0 - f32::EPSILON);
        // 2^24 + 1 is not an f32: 16777216 or 16777218.
        assert_eq!(int_to_f32((1 << 24) + 1, false, Round::Ru), 16_777_218.0);
        assert_eq!(int_to_f32((1 << 24) + 1, false, Round::Rtz), 16_777_216.0);
        assert_eq!(int_to_f32(-(1 << 24) - 1, false, Round::Rd), -16_777_218.0);
        assert_eq!(
            int_to_f32(-1, true, Round::Rd),
            18_446_742_974_197_923_840.0
        );
        assert_eq!(
            int_to_f32(-1, true, Round::Ru),
            18_446_744_073_709_551_616.0
        );
        assert_eq!(f64_to_f32(0.1, Round::Rd), 0.099_999_994);
        assert_eq!(f64_to_f32(0.1, Round::Ru), 0.1);
    }

    /// Directed rounding to half against the f64 value of the neighbouring
    /// halves: RTZ keeps the half at or below |v|, RU/RD the one above/below.
    #[test]
    fn half_directed_rounding() {
        assert_eq!(f32_to_f16_rm(65519.0, Round::Rtz), 0x7BFF);
        assert_eq!(f32_to_f16_rm(1e9, Round::Rtz), 0x7BFF);
        assert_eq!(f32_to_f16_rm(-1e9, Round::Rtz), 0xFBFF);
        assert_eq!(f32_to_f16_rm(1e9, Round::Rd), 0x7BFF);
        assert_eq!(f32_to_f16_rm(-1e9, Round::Rd), 0xFC00);
        assert_eq!(f32_to_f16_rm(f32::INFINITY, Round::Rtz), 0x7C00);
        assert_eq!(f32_to_f16_rm(1e-10, Round::Ru), 0x0001);
        assert_eq!(f32_to_f16_rm(-1e-10, Round::Ru), 0x8000);
        assert_eq!(f32_to_f16_rm(f32::from_bits(1), Round::Rd), 0x0000);
        let mut x = 0x1234_5678u32;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // Magnitudes from 2^-30 to 2^17: denormal halves, normal ones, overflow.
            let v = f32::from_bits((x & 0x807F_FFFF) | ((97 + (x >> 23) % 48) << 23));
            let h = |rm| f16_to_f32(f32_to_f16_rm(v, rm)) as f64;
            let (z, u, d) = (h(Round::Rtz), h(Round::Ru), h(Round::Rd));
            let w = v as f64;
            assert!(d <= w && w <= u, "{v:e}");
            assert!(z.abs() <= w.abs(), "{v:e}");
            if u != d {
                // Adjacent halves around v (or the largest finite and infinity).
                let (hu, hd) = (f32_to_f16_rm(v, Round::Ru), f32_to_f16_rm(v, Round::Rd));
                let step = |a: u16, b: u16| (a as i32 - b as i32).abs();
                assert!(step(hu, hd) == 1 || (hu ^ hd) == 0x8000, "{v:e}");
            }
            assert_eq!(z, if w < 0.0 { u } else { d }, "{v:e}");
        }
    }

    #[test]
    fn round_even() {
        assert_eq!(round_even_f32(2.5), 2.0);
        assert_eq!(round_even_f32(3.5), 4.0);
        assert_eq!(round_even_f32(-2.5), -2.0);
        assert_eq!(round_even_f32(2.6), 3.0);
    }
}
