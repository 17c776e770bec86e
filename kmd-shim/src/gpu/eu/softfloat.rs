//! Exact binary floating-point arithmetic, rounded once to f16, f32 or f64 in
//! any of cr0's rounding modes.
//!
//! The host computes IEEE results in round-to-nearest-even only (Rust has no
//! access to the floating-point environment), so every result that depends on
//! cr0.0[5:4] is computed here: the exact value of `a + b`, `a * b` or
//! `a * b + c` is formed in integer arithmetic and rounded once. Inputs are
//! finite; callers keep the host path for infinities and NaNs, whose results
//! are exact and mode-independent.

use super::float::Round;

/// An IEEE binary interchange format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// Stored fraction bits (precision minus one).
    pub frac: u32,
    /// Exponent field bits.
    pub exp: u32,
}

pub const F16: Format = Format { frac: 10, exp: 5 };
pub const F32: Format = Format { frac: 23, exp: 8 };
pub const F64: Format = Format { frac: 52, exp: 11 };

impl Format {
    fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    /// Exponent of the least significant bit of the smallest subnormal.
    fn min_lsb(self) -> i32 {
        1 - self.bias() - self.frac as i32
    }
    fn sign_bit(self) -> u64 {
        1 << (self.frac + self.exp)
    }
    fn max_finite(self, neg: bool) -> u64 {
        let max = ((1u64 << self.exp) - 2) << self.frac | ((1 << self.frac) - 1);
        if neg {
            max | self.sign_bit()
        } else {
            max
        }
    }
    fn infinity(self, neg: bool) -> u64 {
        let inf = ((1u64 << self.exp) - 1) << self.frac;
        if neg {
            inf | self.sign_bit()
        } else {
            inf
        }
    }
}

/// `(-1)^neg × (mant + δ) × 2^exp` with `δ` in (0, 1) when `sticky`, else 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Exact {
    neg: bool,
    mant: u128,
    exp: i32,
    sticky: bool,
}

impl Exact {
    /// A finite value's bits in `f` (the caller has excluded infinity and NaN).
    fn unpack(bits: u64, f: Format) -> Exact {
        let neg = bits & f.sign_bit() != 0;
        let e = ((bits >> f.frac) & ((1 << f.exp) - 1)) as i32;
        let m = bits & ((1 << f.frac) - 1);
        let (mant, exp) = if e == 0 {
            (m, f.min_lsb())
        } else {
            (m | 1 << f.frac, e - f.bias() - f.frac as i32)
        };
        Exact {
            neg,
            mant: mant as u128,
            exp,
            sticky: false,
        }
    }

    fn is_zero(&self) -> bool {
        self.mant == 0 && !self.sticky
    }

    /// The mantissa shifted up so that its top bit is bit 125: two bits of
    /// headroom for a carry, and at least 19 zero bits below any 106-bit product.
    fn normalized(self) -> Exact {
        let shift = self.mant.leading_zeros() as i32 - 2;
        debug_assert!(shift >= 0 && !self.sticky);
        Exact {
            mant: self.mant << shift,
            exp: self.exp - shift,
            ..self
        }
    }
}

fn mul(a: Exact, b: Exact) -> Exact {
    Exact {
        neg: a.neg != b.neg,
        mant: a.mant * b.mant,
        exp: a.exp + b.exp,
        sticky: false,
    }
}

/// The exact sum of two non-zero values, up to a sticky residue far below
/// any rounding position (the larger operand keeps 126 significant bits).
fn add(a: Exact, b: Exact) -> Exact {
    let (mut x, mut y) = (a.normalized(), b.normalized());
    if (y.exp, y.mant) > (x.exp, x.mant) {
        std::mem::swap(&mut x, &mut y);
    }
    let d = (x.exp - y.exp) as u32;
    let (shifted, lost) = if d >= 128 {
        (0, y.mant != 0)
    } else {
        (y.mant >> d, y.mant & ((1u128 << d) - 1) != 0)
    };
    if x.neg == y.neg {
        Exact {
            mant: x.mant + shifted,
            sticky: lost,
            ..x
        }
    } else {
        // x - (shifted + δ) = (x - shifted - 1) + (1 - δ).
        Exact {
            mant: x.mant - shifted - u128::from(lost),
            sticky: lost,
            ..x
        }
    }
}

/// Round a non-zero exact value to `f` in mode `rm`: IEEE 754 §4.3 and §7.4
/// (a directed mode overflows to the largest finite value unless it rounds
/// away from zero).
fn round(v: Exact, f: Format, rm: Round) -> u64 {
    let p = f.frac as i32 + 1;
    let top = v.exp + 127 - v.mant.leading_zeros() as i32;
    // Exponent of the result's least significant bit, subnormals included.
    let lsb = (top - (p - 1)).max(f.min_lsb());
    let (mut q, above, half, below) = if lsb <= v.exp {
        debug_assert!(!v.sticky, "sticky values carry 126 significant bits");
        (v.mant << (v.exp - lsb), false, false, false)
    } else {
        let s = (lsb - v.exp) as u32;
        if s > 128 {
            (0, false, false, true)
        } else {
            let q = if s == 128 { 0 } else { v.mant >> s };
            let rem = if s == 128 {
                v.mant
            } else {
                v.mant & ((1u128 << s) - 1)
            };
            let h = 1u128 << (s - 1);
            let exact_half = rem == h && !v.sticky;
            let above = rem > h || (rem == h && v.sticky);
            let below = !above && !exact_half && (rem != 0 || v.sticky);
            (q, above, exact_half, below)
        }
    };
    let inexact = above || half || below;
    let up = match rm {
        Round::Rtne => above || (half && q & 1 == 1),
        Round::Ru => inexact && !v.neg,
        Round::Rd => inexact && v.neg,
        Round::Rtz => false,
    };
    q += u128::from(up);
    let mut lsb = lsb;
    if q >> p != 0 {
        q >>= 1;
        lsb += 1;
    }
    let sign = if v.neg { f.sign_bit() } else { 0 };
    if q == 0 {
        return sign;
    }
    if q >> (p - 1) == 0 {
        // Subnormal (lsb is the minimum): biased exponent 0.
        return sign | q as u64;
    }
    let biased = lsb + (p - 1) + f.bias();
    if biased >= (1 << f.exp) - 1 {
        let to_inf = match rm {
            Round::Rtne => true,
            Round::Ru => !v.neg,
            Round::Rd => v.neg,
            Round::Rtz => false,
        };
        return if to_inf {
            f.infinity(v.neg)
        } else {
            f.max_finite(v.neg)
        };
    }
    sign | (biased as u64) << f.frac | (q as u64 & ((1 << f.frac) - 1))
}

/// IEEE 754 §6.3: an exact zero sum is -0 only when both addends are -0, or
/// in round-down when the addends' signs differ (or both are -0).
fn zero_sum(a_neg: bool, b_neg: bool, f: Format, rm: Round) -> u64 {
    if (a_neg && b_neg) || (a_neg != b_neg && rm == Round::Rd) {
        f.sign_bit()
    } else {
        0
    }
}

fn sum(a: Exact, b: Exact, f: Format, rm: Round) -> u64 {
    match (a.is_zero(), b.is_zero()) {
        (true, true) => zero_sum(a.neg, b.neg, f, rm),
        (true, false) => round(b, f, rm),
        (false, true) => round(a, f, rm),
        (false, false) => {
            let s = add(a, b);
            if s.is_zero() {
                zero_sum(a.neg, b.neg, f, rm)
            } else {
                round(s, f, rm)
            }
        }
    }
}

/// `a + b` of two finite values in format `f`, rounded in `rm`.
pub fn add_bits(a: u64, b: u64, f: Format, rm: Round) -> u64 {
    sum(Exact::unpack(a, f), Exact::unpack(b, f), f, rm)
}

/// `a * b` of two finite values in format `f`, rounded in `rm`.
pub fn mul_bits(a: u64, b: u64, f: Format, rm: Round) -> u64 {
    let p = mul(Exact::unpack(a, f), Exact::unpack(b, f));
    if p.is_zero() {
        return if p.neg { f.sign_bit() } else { 0 };
    }
    round(p, f, rm)
}

/// `a * b + c` of three finite values in format `f`, rounded once in `rm`.
pub fn fma_bits(a: u64, b: u64, c: u64, f: Format, rm: Round) -> u64 {
    let p = mul(Exact::unpack(a, f), Exact::unpack(b, f));
    sum(p, Exact::unpack(c, f), f, rm)
}

/// A finite value of format `from` converted to format `to` in `rm`.
pub fn convert_bits(v: u64, from: Format, to: Format, rm: Round) -> u64 {
    let e = Exact::unpack(v, from);
    if e.is_zero() {
        return if e.neg { to.sign_bit() } else { 0 };
    }
    round(e, to, rm)
}

/// An integer converted to format `to` in `rm`.
pub fn from_int(v: i128, to: Format, rm: Round) -> u64 {
    if v == 0 {
        return 0;
    }
    round(
        Exact {
            neg: v < 0,
            mant: v.unsigned_abs(),
            exp: 0,
            sticky: false,
        },
        to,
        rm,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODES: [Round; 4] = [Round::Rtne, Round::Ru, Round::Rd, Round::Rtz];

    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    use super::super::tests::hostfp as host;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        /// Finite f64 bits, biased towards the edges: subnormals, values near
        /// overflow, near-equal magnitudes that cancel, small integers.
        fn f64(&mut self, like: f64) -> u64 {
            let r = self.next();
            let sign = r & (1 << 63);
            match r % 8 {
                0 => sign | (r >> 12) & ((1 << 52) - 1), // subnormal or zero
                1 => sign | (0x7FEu64 - (r >> 20) % 4) << 52 | (r >> 11) & ((1 << 52) - 1),
                2 => (like.to_bits() ^ (r >> 40)) ^ sign, // close to `like`
                3 => ((r >> 40) as i64 as f64).to_bits(),
                _ => {
                    let e = 1023 - 80 + (r >> 50) % 160;
                    sign | e << 52 | (r >> 5) & ((1 << 52) - 1)
                }
            }
        }
    }

    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn f64_add_mul_fma_match_the_host_in_every_mode() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut directed_differs = 0;
        for _ in 0..40_000 {
            let a = rng.f64(1.0);
            let b = rng.f64(f64::from_bits(a));
            let c = rng.f64(-f64::from_bits(a));
            let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
            for rm in MODES {
                let want = host::add64(x, y, rm);
                assert_eq!(
                    add_bits(a, b, F64, rm),
                    want.to_bits(),
                    "{x:e} + {y:e} {rm:?}"
                );
                let want = host::mul64(x, y, rm);
                assert_eq!(
                    mul_bits(a, b, F64, rm),
                    want.to_bits(),
                    "{x:e} * {y:e} {rm:?}"
                );
                let want = host::fma64(x, y, z, rm);
                assert_eq!(
                    fma_bits(a, b, c, F64, rm),
                    want.to_bits(),
                    "{x:e} * {y:e} + {z:e} {rm:?}"
                );
                if rm != Round::Rtne && want != host::fma64(x, y, z, Round::Rtne) {
                    directed_differs += 1;
                }
            }
        }
        assert!(directed_differs > 10_000, "{directed_differs}");
    }

    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn f32_ops_and_conversions_match_the_host_in_every_mode() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        for _ in 0..40_000 {
            let a = rng.next() as u32;
            let b = (a ^ (rng.next() as u32 & 0x80FF_FFFF)) as u64;
            let a = a as u64;
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            if !x.is_finite() || !y.is_finite() {
                continue;
            }
            let d = f64::from_bits(rng.f64(1.0));
            let i = rng.next() as i64 >> (rng.next() % 64);
            for rm in MODES {
                assert_eq!(
                    add_bits(a, b, F32, rm),
                    host::add32(x, y, rm).to_bits() as u64
                );
                assert_eq!(
                    mul_bits(a, b, F32, rm),
                    host::mul32(x, y, rm).to_bits() as u64
                );
                assert_eq!(
                    convert_bits(d.to_bits(), F64, F32, rm),
                    host::narrow(d, rm).to_bits() as u64,
                    "{d:e} {rm:?}"
                );
                assert_eq!(
                    from_int(i as i128, F64, rm),
                    host::from_i64(i, rm).to_bits(),
                    "{i} {rm:?}"
                );
            }
        }
    }

    /// Half precision against exact rationals over an exhaustive table of
    /// halves (`tests/halfref.rs`).
    #[test]
    fn f16_add_mul_fma_match_exact_rationals() {
        use super::super::tests::halfref::{product, scaled, HalfRef};
        let reference = HalfRef::new();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let finite = |h: u16| h & 0x7C00 != 0x7C00;
        for _ in 0..60_000 {
            let r = rng.next();
            let (a, b, c) = (r as u16, (r >> 16) as u16, (r >> 32) as u16);
            if !finite(a) || !finite(b) || !finite(c) {
                continue;
            }
            let (sa, sb, sc) = (scaled(a), scaled(b), scaled(c));
            let (na, nb, nc) = (a >> 15 == 1, b >> 15 == 1, c >> 15 == 1);
            for rm in MODES {
                let z = |x: bool, y: bool| (x && y) || (x != y && rm == Round::Rd);
                let got = add_bits(a as u64, b as u64, F16, rm) as u16;
                assert_eq!(
                    got,
                    reference.round(sa + sb, rm, z(na, nb)),
                    "{a:#x}+{b:#x} {rm:?}"
                );
                let prod = product(sa, sb);
                let pneg = na != nb;
                let got = mul_bits(a as u64, b as u64, F16, rm) as u16;
                assert_eq!(got, reference.round(prod, rm, pneg), "{a:#x}*{b:#x} {rm:?}");
                let got = fma_bits(a as u64, b as u64, c as u64, F16, rm) as u16;
                assert_eq!(
                    got,
                    reference.round(prod + sc, rm, z(pneg, nc)),
                    "{a:#x}*{b:#x}+{c:#x} {rm:?}"
                );
            }
        }
    }
}
