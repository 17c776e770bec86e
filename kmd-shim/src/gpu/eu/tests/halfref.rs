//! An independent reference for rounding to half precision: every finite
//! half, sorted by value, and exact values as integers scaled by 2^72. Half
//! values are multiples of 2^-24, so they, their sums, products and fused
//! results (and f32 values down to 2^-49) are integers at that scale; the
//! correctly rounded half is found among the exact value's neighbours.

use super::super::float::Round;
use std::cmp::Ordering;

/// log2 of the scale of exact values.
pub const SCALE: u32 = 72;

pub struct HalfRef {
    /// Every finite half but -0, as (value × 2^72, bits), ascending.
    halves: Vec<(i128, u16)>,
}

/// A finite half's value × 2^72, from the binary16 definition.
pub fn scaled(h: u16) -> i128 {
    let (e, m) = (i32::from((h >> 10) & 0x1F), i128::from(h & 0x3FF));
    assert!(e != 0x1F, "finite halves only");
    // Subnormal: m × 2^-24; normal: (1024 + m) × 2^(e - 25).
    let v = if e == 0 {
        m << (SCALE - 24)
    } else {
        (1024 + m) << (SCALE as i32 + e - 25)
    };
    if h >> 15 == 1 {
        -v
    } else {
        v
    }
}

/// A finite f32's value × 2^72, when that is an integer (|v| ≥ 2^-49 granularity).
pub fn scaled_f32(v: f32) -> Option<i128> {
    let b = v.to_bits();
    let (e, m) = (((b >> 23) & 0xFF) as i32, i128::from(b & 0x7F_FFFF));
    let (mant, exp) = if e == 0 {
        (m, -149)
    } else {
        (m | 1 << 23, e - 150)
    };
    let shift = exp + SCALE as i32;
    if e == 0xFF || !(0..=100).contains(&shift) {
        return None;
    }
    let x = mant << shift;
    Some(if b >> 31 == 1 { -x } else { x })
}

/// The product of two scaled halves, at the same scale.
pub fn product(sa: i128, sb: i128) -> i128 {
    // Each is a multiple of 2^48: (sa / 2^36)(sb / 2^36) = a·b·2^72 exactly.
    (sa >> 36) * (sb >> 36)
}

impl HalfRef {
    pub fn new() -> HalfRef {
        let mut halves: Vec<(i128, u16)> = (0..=0xFFFFu16)
            .filter(|h| h & 0x7C00 != 0x7C00 && *h != 0x8000)
            .map(|h| (scaled(h), h))
            .collect();
        halves.sort();
        HalfRef { halves }
    }

    /// The exact value `v` (× 2^72) rounded to half in `rm`; an exact zero is
    /// -0 when `zero_neg`.
    pub fn round(&self, v: i128, rm: Round, zero_neg: bool) -> u16 {
        let h = &self.halves;
        if v == 0 {
            return if zero_neg { 0x8000 } else { 0 };
        }
        let i = h.partition_point(|&(s, _)| s < v);
        if i < h.len() && h[i].0 == v {
            return h[i].1;
        }
        let max = h[h.len() - 1].0;
        // Overflow bound for round-to-nearest: the midpoint between max and 2^16.
        let inf_edge = max + (max - h[h.len() - 2].0) / 2;
        let lo = (i > 0).then(|| h[i - 1]);
        let hi = (i < h.len()).then(|| h[i]);
        let neg = v < 0;
        // Below -max lies -inf, above +max +inf.
        let (lo_b, hi_b) = (lo.map_or(0xFC00, |l| l.1), hi.map_or(0x7C00, |h| h.1));
        let pick = |b: u16| if b == 0 && neg { 0x8000 } else { b };
        match rm {
            Round::Ru => pick(hi_b),
            Round::Rd => pick(lo_b),
            Round::Rtz => pick(if neg { hi_b } else { lo_b }),
            Round::Rtne => {
                if v.abs() >= inf_edge {
                    return if neg { 0xFC00 } else { 0x7C00 };
                }
                let (Some(l), Some(h)) = (lo, hi) else {
                    // Beyond ±max but below the overflow midpoint.
                    return if neg { hi_b } else { lo_b };
                };
                pick(match (v - l.0).cmp(&(h.0 - v)) {
                    Ordering::Less => l.1,
                    Ordering::Greater => h.1,
                    Ordering::Equal if l.1 & 1 == 0 => l.1,
                    Ordering::Equal => h.1,
                })
            }
        }
    }
}
