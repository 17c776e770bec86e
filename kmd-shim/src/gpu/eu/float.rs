//! IEEE helpers the EU needs and Rust lacks: half precision, denormal flushing,
//! the rounding instructions.

/// Flush a single-precision denormal to zero of the same sign (cr0 FP32 denorm mode 0).
#[inline]
pub fn flush_f32(v: f32) -> f32 {
    if v.is_subnormal() {
        f32::from_bits(v.to_bits() & 0x8000_0000)
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

/// f32 → f16 in rounding mode `rm` (IEEE 754: a directed mode overflows to
/// the largest finite half unless it rounds away from zero; NaN kept quiet).
pub fn f32_to_f16_rm(v: f32, rm: Round) -> u16 {
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let neg = sign != 0;
    let exp = ((b >> 23) & 0xFF) as i32;
    let man = b & 0x7F_FFFF;
    if exp == 0xFF {
        return sign
            | 0x7C00
            | if man != 0 {
                0x200 | (man >> 13) as u16
            } else {
                0
            };
    }
    // Whether the magnitude truncated to `q` (remainder `rem` of a unit whose
    // half is `half`) rounds up to `q + 1`.
    let away = matches!((rm, neg), (Round::Ru, false) | (Round::Rd, true));
    let up = |q: u32, rem: u32, half: u32| match rm {
        Round::Rtne => rem > half || (rem == half && q & 1 == 1),
        _ => away && rem != 0,
    };
    let e = exp - 127 + 15;
    if e >= 0x1F {
        return sign
            | if rm == Round::Rtne || away {
                0x7C00
            } else {
                0x7BFF
            };
    }
    if e <= 0 {
        // A half denormal (or zero): units of 2^-24.
        if e < -10 {
            // Below 2^-25: only a directed mode away from zero gives the smallest denormal.
            let nonzero = exp != 0 || man != 0;
            return sign | u16::from(nonzero && away);
        }
        let full = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let q = full >> shift;
        let rem = full & ((1 << shift) - 1);
        let q = if up(q, rem, 1 << (shift - 1)) {
            q + 1
        } else {
            q
        };
        return sign | q as u16;
    }
    let q = man >> 13;
    let mut r = ((e as u32) << 10) | q;
    if up(q, man & 0x1FFF, 0x1000) {
        r += 1; // may carry into the exponent, up to infinity: correct.
    }
    sign | r as u16
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

/// The next f32 above `v` (NaN and +inf stay).
fn next_up(v: f32) -> f32 {
    let b = v.to_bits();
    if v.is_nan() || b == 0x7F80_0000 {
        return v;
    }
    if v == 0.0 {
        return f32::from_bits(1);
    }
    f32::from_bits(if b >> 31 == 0 { b + 1 } else { b - 1 })
}

fn next_down(v: f32) -> f32 {
    -next_up(-v)
}

/// Round the exact value `s + err` to f32 in mode `rm`, where `s` is a
/// finite f64 and `err` is either 0 or much smaller than an f64 ulp of `s`
/// (only its sign matters: an f32 boundary is an f64, so `s` and the exact
/// value lie between the same two f32 neighbours unless `s` is one of them).
pub fn round_to_f32(s: f64, err: f64, rm: Round) -> f32 {
    let r = s as f32;
    if rm == Round::Rtne {
        return r;
    }
    let rd = r as f64;
    // Sign of (exact - r).
    let above = if rd != s { s > rd } else { err > 0.0 };
    let below = if rd != s { s < rd } else { err < 0.0 };
    let negative = s < 0.0 || (s == 0.0 && err < 0.0);
    match rm {
        Round::Ru if above => next_up(r),
        Round::Rd if below => next_down(r),
        Round::Rtz if !negative && below => next_down(r),
        Round::Rtz if negative && above => next_up(r),
        _ => r,
    }
}

/// Exact sum of two f64 as `(s, err)` (Knuth's TwoSum; no overflow here).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The sum `a + b` of two f64 holding exact f32 values or products, rounded once to f32.
fn sum_to_f32(a: f64, b: f64, rm: Round) -> f32 {
    let (s, err) = two_sum(a, b);
    if s == 0.0 && err == 0.0 {
        // An exact zero: -0 when rounding down unless both addends are +0 (IEEE 754 §6.3).
        let both_neg = a.is_sign_negative() && b.is_sign_negative();
        let both_pos = a.is_sign_positive() && b.is_sign_positive();
        return if both_neg || (rm == Round::Rd && !both_pos) {
            -0.0
        } else {
            0.0
        };
    }
    round_to_f32(s, err, rm)
}

/// f32 `a + b` in rounding mode `rm`.
pub fn add_f32(a: f32, b: f32, rm: Round) -> f32 {
    if rm == Round::Rtne || !a.is_finite() || !b.is_finite() {
        return a + b;
    }
    sum_to_f32(a as f64, b as f64, rm)
}

/// f32 `a * b` in rounding mode `rm` (the product is exact in f64).
pub fn mul_f32(a: f32, b: f32, rm: Round) -> f32 {
    if rm == Round::Rtne || !a.is_finite() || !b.is_finite() {
        return a * b;
    }
    round_to_f32(a as f64 * b as f64, 0.0, rm)
}

/// Gen `mad`: `a + b * c` with one rounding in mode `rm`.
pub fn mad_f32(a: f32, b: f32, c: f32, rm: Round) -> f32 {
    if rm == Round::Rtne || !a.is_finite() || !b.is_finite() || !c.is_finite() {
        return b.mul_add(c, a);
    }
    sum_to_f32(b as f64 * c as f64, a as f64, rm)
}

/// An integer (i64, or its bits as u64 when `unsigned`) to f32 in mode `rm`.
pub fn int_to_f32(v: i64, unsigned: bool, rm: Round) -> f32 {
    let exact: i128 = if unsigned {
        v as u64 as i128
    } else {
        v as i128
    };
    let s = exact as f64;
    let err = (exact - s as i128).signum() as f64;
    round_to_f32(s, err, rm)
}

/// f64 to f32 in mode `rm`.
pub fn f64_to_f32(v: f64, rm: Round) -> f32 {
    if !v.is_finite() {
        return v as f32;
    }
    round_to_f32(v, 0.0, rm)
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
