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
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
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
    let e = exp - 127 + 15;
    if e >= 0x1F {
        return sign | 0x7C00;
    }
    if e <= 0 {
        // Result is a half denormal (or zero): value = full_man * 2^(exp-150); unit 2^-24.
        if e < -10 {
            return sign;
        }
        let full = man | 0x80_0000;
        let shift = (14 - e) as u32; // 2^(exp-150) / 2^-24 = 2^(exp-126) → shift = 126+... see below
        let q = full >> shift;
        let rem = full & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        let q = if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        };
        return sign | q as u16;
    }
    let q = man >> 13;
    let rem = man & 0x1FFF;
    let mut r = ((e as u32) << 10) | q;
    if rem > 0x1000 || (rem == 0x1000 && q & 1 == 1) {
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

    #[test]
    fn round_even() {
        assert_eq!(round_even_f32(2.5), 2.0);
        assert_eq!(round_even_f32(3.5), 4.0);
        assert_eq!(round_even_f32(-2.5), -2.0);
        assert_eq!(round_even_f32(2.6), 3.0);
    }
}
