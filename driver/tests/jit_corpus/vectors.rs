//! Cases of tests/jit/vectors.cl.
use crate::igc::harness::*;

const F: &str = "vectors.cl";

fn rand_u8(n: usize, seed: u64) -> Vec<u8> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| (r.next_u64() >> 13) as u8).collect()
}

fn rand_i16(n: usize, seed: u64) -> Vec<i16> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| (r.next_u64() >> 7) as i16).collect()
}

/// Dividends and divisors across the whole 64-bit range: small, near 2^32, near 2^63 and
/// with the top bit set (unsigned divisors above 2^63), never zero or MIN / -1.
fn div_inputs(seed: u64) -> (Vec<i64>, Vec<i64>) {
    let mut r = Rng::new(seed);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for k in 0..256 {
        let pick = |r: &mut Rng, k: usize| -> i64 {
            let x = r.next_u64();
            match k % 4 {
                0 => (x % 1000) as i64 - 500,
                1 => (x >> 31) as i64 - (1 << 32),
                2 => x as i64,
                _ => (x | (1 << 63)) as i64,
            }
        };
        let (x, mut y) = if k < 128 {
            (pick(&mut r, k), pick(&mut r, k / 4 + k))
        } else {
            // Where an estimated quotient digit is off by one: exact multiples and one
            // short of the next, divisors next to powers of two, quotients of every size
            // up to 2^64, dividends at the extremes.
            let d = match k % 4 {
                0 => (1u64 << (r.next_u64() % 64)).wrapping_add(r.next_u64() % 3) - 1,
                1 => r.next_u64() >> (r.next_u64() % 64),
                2 => [1, 2, 3, u64::MAX, u64::MAX - 1, 1 << 63, (1 << 32) + 1][k / 4 % 7],
                _ => (r.next_u64() % 0xFFFF) + 1,
            }
            .max(1);
            let q = r.next_u64() >> (r.next_u64() % 64);
            let n = match k / 4 % 4 {
                0 => q.wrapping_mul(d),
                1 => q.wrapping_mul(d).wrapping_add(d - 1),
                2 => u64::MAX - (r.next_u64() % 4),
                _ => q,
            };
            (n as i64, d as i64)
        };
        if y == 0 || (x == i64::MIN && y == -1) {
            y = 7;
        }
        a.push(x);
        b.push(y);
    }
    (a, b)
}

/// Floats where nextafter and the compares have their special cases: NaN, both zeros,
/// denormals, infinities, the largest values, equal pairs; then random ones.
fn float_pairs(seed: u64) -> (Vec<f32>, Vec<f32>) {
    let special = [
        0.0f32,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        1.0e-40,
        -1.0e-45,
        1.0,
        -1.0,
    ];
    let mut r = Rng::new(seed);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in special {
        for y in special {
            a.push(x);
            b.push(y);
        }
    }
    while a.len() < 256 {
        let x = f32::from_bits(r.next_u64() as u32);
        a.push(x);
        b.push(if r.next_u64().is_multiple_of(4) {
            x
        } else {
            f32::from_bits(r.next_u64() as u32)
        });
    }
    (a, b)
}

/// C's nextafterf.
fn nextafter(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return f32::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f32::from_bits(1 | (y.to_bits() & 0x8000_0000));
    }
    let up = (x < y) == (x > 0.0);
    f32::from_bits(if up { x.to_bits() + 1 } else { x.to_bits() - 1 })
}

/// An IEEE half's value.
fn from_half(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// `x` rounded to the nearest half, ties to even (overflow to infinity, subnormals kept).
#[derive(Clone, Copy)]
enum Dir {
    Zero,
    Up,
    Down,
}

/// The half next to `h` toward +infinity (`up`) or -infinity, on half bits.
fn half_step(h: u16, up: bool) -> u16 {
    let negative = h & 0x8000 != 0;
    match (negative, up) {
        (false, true) => h + 1,
        (false, false) if h == 0 => 0x8001,
        (false, false) => h - 1,
        (true, true) if h == 0x8000 => 0x0001,
        (true, true) => h - 1,
        (true, false) => h + 1,
    }
}

/// `x` rounded to half toward zero, up or down: the two halves around `x` from the
/// round-to-nearest one, and the side the mode picks.
fn half_directed(x: f64, dir: Dir) -> u16 {
    let h = to_half(x);
    let hv = from_half(h);
    if x.is_nan() || hv == x {
        return h;
    }
    let (lo, hi) = if hv < x {
        (h, half_step(h, true))
    } else {
        (half_step(h, false), h)
    };
    match dir {
        Dir::Zero if x > 0.0 => lo,
        Dir::Zero | Dir::Up => hi,
        Dir::Down => lo,
    }
}

/// Floats and doubles around the half range: normal and subnormal halves, beyond the largest
/// half, exact halves, ties, and signs; no float denormals (the device flushes them).
fn round_mode_inputs(n: usize, seed: u64) -> (Vec<f32>, Vec<f64>) {
    let mut s = seed;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut f = Vec::new();
    let mut d = Vec::new();
    let fixed = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        65504.0,
        65519.0,
        65520.0,
        -70000.0,
        1e-9,
        -1e-9,
        6.0e-8,
        3.0e-8,
        1.0009765625,
        1.00048828125,
        -2.00146484375,
        1e30,
    ];
    for k in 0..n {
        let r = next();
        let v = if k < fixed.len() {
            fixed[k]
        } else {
            let m = 1.0 + (r % (1 << 40)) as f64 / (1u64 << 40) as f64;
            let e = (r >> 40) % 50;
            let sign = if (r >> 50) & 1 == 1 { -1.0 } else { 1.0 };
            sign * m * 2f64.powi(e as i32 - 30)
        };
        f.push(v as f32);
        d.push(v);
    }
    (f, d)
}

fn to_half(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // Scale so that one unit in the last place of a half of a's binade is 1.
    let e = if a == 0.0 {
        -14
    } else {
        (a.log2().floor() as i32).max(-14)
    };
    let ulp = 2f64.powi(e - 10);
    let q = (a / ulp).round_ties_even() * ulp;
    if q >= 65520.0 || q.is_infinite() {
        return sign | 0x7c00;
    }
    // Find the half whose value is q (exact by construction).
    let qe = if q == 0.0 {
        -15
    } else {
        (q.log2().floor() as i32).max(-14)
    };
    let bits = if q < 2f64.powi(-14) {
        (q / 2f64.powi(-24)) as u16
    } else {
        (((qe + 15) as u16) << 10) | ((q / 2f64.powi(qe) - 1.0) * 1024.0).round() as u16
    };
    sign | bits
}

/// Random finite halves, none zero (divisors), with both signs.
/// Whether half `got` is within one ulp of `want` rounded to half (sign and magnitude laid
/// on one ordered line, so that -0 and +0 meet). Half functions may be 2 ulp off; float
/// then one rounding to half stays within 1 of the correctly rounded half.
fn within_1ulp_half(got: u16, want: f64) -> bool {
    let line = |h: u16| {
        let m = i32::from(h & 0x7fff);
        if h & 0x8000 != 0 {
            -m
        } else {
            m
        }
    };
    (line(got) - line(to_half(want))).abs() <= 1
}

/// A check's verdict from its list of differences (the first few shown).
fn verdict(bad: Vec<String>) -> Result<(), String> {
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} differ: {}",
            bad.len(),
            bad[..bad.len().min(6)].join("; ")
        ))
    }
}

/// Signalling and quiet NaNs of both signs with payloads, infinities, zeros, subnormals
/// and normals, repeated to `n`.
fn half_bit_patterns(n: usize) -> Vec<u16> {
    let p = [
        0x7d8e, 0xfd68, 0x7c01, 0xfc01, 0x7dff, 0x7e00, 0xfe01, 0x7fff, 0x7c00, 0xfc00, 0x0000,
        0x8000, 0x0001, 0x83ff, 0x3c00, 0x6e6f,
    ];
    (0..n).map(|i| p[i % p.len()]).collect()
}

/// Any 16 bits, as the CTS's select and bitselect tests feed their half variants: a quarter
/// of them NaNs (signalling ones among them: exponent all set, bit 9 clear, payload nonzero).
fn half_bit_soup(n: usize, seed: u64) -> Vec<u16> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|k| {
            let h = r.next_u64() as u16;
            match k % 4 {
                0 => (h & 0x81ff) | 0x7c00 | 1,
                1 => h | 0x7c00,
                _ => h,
            }
        })
        .collect()
}

/// Integers for conversions to half: around the spacings of the half grid (2048 and up,
/// where not every integer is a half), around its largest value (65504, 65520), any 32
/// bits, and small ones.
fn int_to_half_inputs(n: usize, seed: u64) -> Vec<u32> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|k| {
            let x = r.next_u64() as u32;
            match k % 4 {
                0 => 2040 + x % 64,
                1 => 65490 + x % 40,
                2 => x,
                _ => (x % 8192).wrapping_neg(),
            }
        })
        .collect()
}

/// Operands of nextafter on halves: any 16 bits (a quarter NaNs), with both zeros, equal
/// pairs and infinities among them (`which` 0 is x, 1 is y: the pairs follow from both).
fn nextafter_halves(which: usize, seed: u64) -> Vec<u16> {
    let soup = half_bit_soup(256, seed);
    let other = half_bit_soup(256, seed + 100);
    (0..256)
        .map(|k| match (k % 8, which) {
            (2, 0) => [0x0000, 0x8000][k / 8 % 2],
            (3, _) => 0x3c00 + k as u16,
            (4, 0) => [0x7c00, 0xfc00, 0x7bff, 0x0001][k / 8 % 4],
            (4, 1) => [0x0000, 0x3c00, 0x7c00, 0x8000][k / 8 % 4],
            _ if which == 0 => soup[k],
            _ => other[k],
        })
        .collect()
}

/// C's nextafter on halves, on their bits; None where the result is a NaN (any).
fn half_nextafter(x: u16, y: u16) -> Option<u16> {
    let (fx, fy) = (from_half(x), from_half(y));
    if fx.is_nan() || fy.is_nan() {
        return None;
    }
    if fx == fy {
        return Some(y);
    }
    if x & 0x7fff == 0 {
        return Some((y & 0x8000) | 1);
    }
    let up = (fx < fy) == (fx > 0.0);
    Some(if up { x + 1 } else { x - 1 })
}

/// The half nearest `x * y + z` computed exactly (ties to even): the product is exact in a
/// double, and the sum, with its rounding error (Knuth's two-sum), is rounded to odd (53 bits
/// are more than twice half's 11 plus 2, so the rounding to half after it is exact).
fn half_fma(x: u16, y: u16, z: u16) -> u16 {
    half_fma_f(from_half(x), from_half(y), from_half(z))
}

fn half_fma_f(x: f64, y: f64, z: f64) -> u16 {
    let p = x * y;
    let s = p + z;
    let bb = s - p;
    let err = (p - (s - bb)) + (z - bb);
    // Round to odd: an inexact sum with an even last bit moves one step toward the error.
    let s = if err == 0.0 || !s.is_finite() || s.to_bits() & 1 == 1 {
        s
    } else if s == 0.0 {
        f64::from_bits(1).copysign(err)
    } else if (err > 0.0) == (s > 0.0) {
        f64::from_bits(s.to_bits() + 1)
    } else {
        f64::from_bits(s.to_bits() - 1)
    };
    to_half(s)
}

/// Random halves for `fma`, the first three triples ties that a float `fma` rounded to half
/// again gets wrong: 3 * 683 = 2049, halfway between the halves 2048 and 2050, and the
/// smallest subnormal decides (2049 + 2^-24 is 2049 in a float, which rounds to even 2048;
/// the half nearest is 2050).
fn fma_halves() -> (Vec<u16>, Vec<u16>, Vec<u16>) {
    let (mut a, mut b, mut c) = (
        rand_halves(1024, 71),
        rand_halves(1024, 72),
        rand_halves(1024, 73),
    );
    a[..3].copy_from_slice(&[0x4200, 0xc200, 0x4200]);
    b[..3].copy_from_slice(&[0x6156, 0x6156, 0x6156]);
    c[..3].copy_from_slice(&[0x0001, 0x8001, 0x8001]);
    (a, b, c)
}

fn rand_halves(n: usize, seed: u64) -> Vec<u16> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| loop {
            let h = r.next_u64() as u16;
            if h & 0x7c00 != 0x7c00 && h & 0x7fff != 0 {
                break h;
            }
        })
        .collect()
}

pub fn cases() -> Vec<Case> {
    let (da, db) = div_inputs(9);
    let (ma, mb) = div_inputs(21);
    let (mc, _) = div_inputs(33);
    let (fa, fb) = float_pairs(5);
    let (ha, hb, hc) = fma_halves();
    vec![
        case(F, "shuffles")
            .global(&[64])
            .buf(rand_bits::<i32>(512, 11))
            .buf(rand_bits::<u32>(512, 12))
            .buf(rand_bits::<i32>(64, 13))
            .out::<i32>(3 * 512)
            .out::<i32>(64)
            .expect(3, |r| {
                let (x, m, j) = (r.input::<i32>(0), r.input::<u32>(1), r.input::<i32>(2));
                let mut out = Vec::new();
                for i in 0..64 {
                    let v = &x[8 * i..8 * i + 8];
                    out.extend((0..8).map(|c| v[(m[8 * i + c] & 7) as usize]));
                    let both = |k: usize| {
                        if k < 8 {
                            v[k]
                        } else {
                            v[k - 8].wrapping_add(100)
                        }
                    };
                    out.extend([15, 0, 9, 2, 11, 4, 13, 6].map(both));
                    let mut w = v.to_vec();
                    w[(j[i] & 7) as usize] = -1;
                    out.extend(w);
                }
                out
            })
            .expect(4, |r| {
                let (x, j) = (r.input::<i32>(0), r.input::<i32>(2));
                (0..64).map(|i| x[8 * i + (j[i] & 7) as usize]).collect()
            }),
        case(F, "mad_sat_wide")
            .global(&[256])
            .buf(ma)
            .buf(mb)
            .buf(mc)
            .out::<i64>(256)
            .out::<u64>(256)
            .out::<u16>(256)
            .expect(3, |r| {
                let (a, b, c) = (r.input::<i64>(0), r.input::<i64>(1), r.input::<i64>(2));
                (0..256)
                    .map(|i| {
                        let s = a[i] as i128 * b[i] as i128 + c[i] as i128;
                        s.clamp(i64::MIN as i128, i64::MAX as i128) as i64
                    })
                    .collect()
            })
            .expect(4, |r| {
                let (a, b, c) = (r.input::<i64>(0), r.input::<i64>(1), r.input::<i64>(2));
                (0..256)
                    .map(|i| {
                        let s = a[i] as u64 as u128 * b[i] as u64 as u128 + c[i] as u64 as u128;
                        s.min(u64::MAX as u128) as u64
                    })
                    .collect()
            })
            .expect(5, |r| {
                let (a, b, c) = (r.input::<i64>(0), r.input::<i64>(1), r.input::<i64>(2));
                (0..256)
                    .map(|i| {
                        let s = a[i] as u16 as u32 * b[i] as u16 as u32 + c[i] as u16 as u32;
                        s.min(u16::MAX as u32) as u16
                    })
                    .collect()
            }),
        case(F, "pressure")
            .global(&[32])
            .buf(rand_bits::<i64>(32 * 64, 17))
            .out::<i64>(64)
            .expect(1, |r| {
                let a = r.input::<i64>(0);
                let mut out = Vec::new();
                for i in 0..32 {
                    let v = |k: usize| &a[(4 * i + k) * 16..(4 * i + k + 1) * 16];
                    let (p, q, rr, s) = (v(0), v(1), v(2), v(3));
                    let t: Vec<i64> = (0..16)
                        .map(|c| p[c].wrapping_mul(q[c]).wrapping_add(rr[c]))
                        .collect();
                    let u: Vec<i64> = (0..16).map(|c| (s[c] ^ p[c]).wrapping_sub(q[c])).collect();
                    let w: Vec<i64> = (0..16)
                        .map(|c| {
                            t[c].wrapping_mul(u[c])
                                .wrapping_add(p[c] >> 3)
                                .wrapping_add(s[c] << 1)
                                .wrapping_add(rr[c].wrapping_mul(q[c]))
                        })
                        .collect();
                    let primes = [
                        1i64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53,
                    ];
                    out.push((0..16).fold(0i64, |acc, c| {
                        acc.wrapping_add(w[c].wrapping_mul(primes[c]))
                    }));
                    out.push(
                        (p[15] ^ q[14])
                            .wrapping_add(rr[13] ^ s[12])
                            .wrapping_add(t[0] ^ u[1]),
                    );
                }
                out
            }),
        case(F, "byte_qword_groups")
            .global(&[48])
            .buf(rand_bits::<i8>(48 * 16, 61))
            .buf(rand_bits::<u8>(48 * 4, 62))
            .buf(rand_bits::<i64>(48 * 16, 63))
            .buf(rand_bits::<u64>(48 * 2, 64))
            .buf(rand_bits::<i8>(48 * 3, 65))
            .out::<i8>(48 * 16)
            .out::<u8>(48 * 4)
            .out::<i64>(48 * 16)
            .out::<u64>(48 * 2)
            .out::<i8>(48 * 3)
            .expect(5, |r| {
                let a = r.input::<i8>(0);
                (0..a.len())
                    .map(|k| ((a[k] >> 1).wrapping_mul(3)).wrapping_add((k / 16) as i8))
                    .collect()
            })
            .expect(6, |r| {
                let b = r.input::<u8>(1);
                b.chunks(4)
                    .enumerate()
                    .flat_map(|(i, x)| [x[0] ^ x[3], x[1] ^ x[2], x[2] ^ x[1], x[3] ^ i as u8])
                    .collect()
            })
            .expect(7, |r| {
                let c = r.input::<i64>(2);
                c.chunks(16)
                    .enumerate()
                    .flat_map(|(i, v)| {
                        v.iter()
                            .map(|x| x.wrapping_mul(i as i64 + 1).wrapping_add(v[0]))
                            .collect::<Vec<_>>()
                    })
                    .collect()
            })
            .expect(8, |r| {
                let d = r.input::<u64>(3);
                d.chunks(2)
                    .enumerate()
                    .flat_map(|(i, y)| {
                        [y[0].wrapping_add(y[1]), y[1].wrapping_add((i as u64) << 40)]
                    })
                    .collect()
            })
            .expect(9, |r| {
                let e = r.input::<i8>(4);
                (0..e.len())
                    .map(|k| e[k].wrapping_sub(1 + (k % 3) as i8))
                    .collect()
            }),
        case(F, "as_types")
            .global(&[32])
            .buf(rand_bits::<u32>(128, 31))
            .out::<u8>(32 * 16)
            .out::<u8>(32 * 16)
            .out::<u8>(32 * 16)
            .out::<u8>(32 * 8)
            .out::<u8>(32 * 4)
            .check(|r| {
                let a = r.input::<u8>(0);
                for arg in 1..=3 {
                    expect_eq(&r.output::<u8>(arg), &a)?;
                }
                let firsts: Vec<u8> = a.chunks(16).flat_map(|c| c[..8].to_vec()).collect();
                expect_eq(&r.output::<u8>(4), &firsts)?;
                let z: Vec<u8> = a.chunks(16).flat_map(|c| c[8..12].to_vec()).collect();
                expect_eq(&r.output::<u8>(5), &z)
            }),
        case("half.cl", "half_ops")
            .global(&[256])
            .buf(rand_halves(256, 41))
            .buf(rand_halves(256, 42))
            .out::<u16>(5 * 256)
            .expect(2, |r| {
                let (a, b) = (r.input::<u16>(0), r.input::<u16>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(&x, &y)| {
                        let (x, y) = (from_half(x), from_half(y));
                        [x + y, x - y, x * y, x / y, x.abs().sqrt()].map(to_half)
                    })
                    .collect()
            }),
        case("half.cl", "half_bits")
            .global(&[32])
            .buf(half_bit_patterns(64))
            .out::<u16>(64)
            .buf(
                half_bit_patterns(32)
                    .into_iter()
                    .map(|h| h as i16)
                    .collect::<Vec<i16>>(),
            )
            .out::<u16>(32)
            .expect(1, |r| r.input::<u16>(0))
            .expect(3, |r| {
                r.input::<i16>(2)
                    .into_iter()
                    .map(|h| h as u16)
                    .collect::<Vec<u16>>()
            }),
        case("half.cl", "half4_copy")
            .global(&[32])
            .buf(half_bit_patterns(128))
            .out::<u16>(128)
            .buf(rand_bits::<i16>(128, 61))
            .out::<i16>(128)
            .expect(1, |r| r.input::<u16>(0))
            .expect(3, |r| {
                let (m, k) = ([3i16, -1, 7, 2], [1i16, 0, -5, 9]);
                r.input::<i16>(2)
                    .iter()
                    .enumerate()
                    .map(|(j, x)| x.wrapping_mul(m[j % 4]).wrapping_add(k[j % 4]))
                    .collect::<Vec<i16>>()
            }),
        case("half.cl", "half_select")
            .global(&[64])
            .buf(half_bit_soup(256, 47))
            .buf(half_bit_soup(256, 48))
            .buf(
                half_bit_soup(256, 49)
                    .into_iter()
                    .map(|h| h as i16)
                    .collect::<Vec<i16>>(),
            )
            .out::<u16>(512)
            .expect(3, |r| {
                let (a, b, c) = (r.input::<u16>(0), r.input::<u16>(1), r.input::<i16>(2));
                let mut out = vec![0u16; 512];
                for i in 0..64 {
                    for e in 0..4 {
                        let j = 4 * i + e;
                        out[8 * i + e] = if c[j] < 0 { b[j] } else { a[j] };
                        let m = c[j] as u16;
                        out[8 * i + 4 + e] = (a[j] & !m) | (b[j] & m);
                    }
                }
                out
            }),
        case("half.cl", "half_fma")
            .global(&[1024])
            .buf(ha)
            .buf(hb)
            .buf(hc)
            .out::<u16>(2 * 1024)
            .expect(3, |r| {
                let (a, b, c) = (r.input::<u16>(0), r.input::<u16>(1), r.input::<u16>(2));
                (0..a.len())
                    .flat_map(|i| {
                        let mut s = a[i];
                        for _ in 0..4 {
                            let f = half_fma(s, b[i], c[i]);
                            s = to_half(from_half(f) - from_half(a[i]));
                        }
                        [half_fma(a[i], b[i], c[i]), s]
                    })
                    .collect()
            }),
        case("half.cl", "half_minmax")
            .global(&[256])
            .buf(half_bit_soup(256, 81))
            .buf(half_bit_soup(256, 82))
            .out::<u16>(2 * 256)
            .out::<i32>(256)
            .check(|r| {
                let (a, b) = (r.input::<u16>(0), r.input::<u16>(1));
                let (got, lt) = (r.output::<u16>(2), r.output::<i32>(3));
                // C99's fmax/fmin: a NaN operand is missing data; both NaN, a NaN. -0 and
                // +0 may come either way (compared as numbers).
                let pick = |x: f64, y: f64, max: bool| match (x.is_nan(), y.is_nan()) {
                    (true, true) => f64::NAN,
                    (true, false) => y,
                    (false, true) => x,
                    _ if max => x.max(y),
                    _ => x.min(y),
                };
                let same = |g: u16, w: f64| {
                    let g = from_half(g);
                    (g.is_nan() && w.is_nan()) || g == w
                };
                let bad: Vec<String> = (0..256)
                    .filter_map(|i| {
                        let (x, y) = (from_half(a[i]), from_half(b[i]));
                        let (hi, lo) = (pick(x, y, true), pick(x, y, false));
                        let want_lt = i32::from(hi < lo);
                        (!same(got[2 * i], hi) || !same(got[2 * i + 1], lo) || lt[i] != want_lt)
                            .then(|| {
                                format!(
                                    "[{i}] {:#06x} {:#06x}: max {:#06x} min {:#06x} lt {}",
                                    a[i],
                                    b[i],
                                    got[2 * i],
                                    got[2 * i + 1],
                                    lt[i]
                                )
                            })
                    })
                    .collect();
                if bad.is_empty() {
                    Ok(())
                } else {
                    Err(format!(
                        "{} of 256 wrong: {}",
                        bad.len(),
                        bad[..bad.len().min(4)].join("; ")
                    ))
                }
            }),
        case("half.cl", "half_nextafter")
            .global(&[256])
            .buf(nextafter_halves(0, 50))
            .buf(nextafter_halves(1, 51))
            .out::<u16>(256)
            .check(|r| {
                let (a, b, got) = (r.input::<u16>(0), r.input::<u16>(1), r.output::<u16>(2));
                let bad: Vec<String> = (0..256)
                    .filter(|&i| match half_nextafter(a[i], b[i]) {
                        None => !from_half(got[i]).is_nan(),
                        Some(w) => got[i] != w,
                    })
                    .take(8)
                    .map(|i| format!("nextafter({:#06x}, {:#06x}) = {:#06x}", a[i], b[i], got[i]))
                    .collect();
                if bad.is_empty() {
                    Ok(())
                } else {
                    Err(bad.join("; "))
                }
            }),
        case("half.cl", "half_ptr")
            .global(&[256])
            .buf(rand_halves(256, 46))
            .out::<u16>(5 * 256)
            .out::<i32>(256)
            .check(|r| {
                let a = r.input::<u16>(0);
                let got = r.output::<u16>(1);
                let exps = r.output::<i32>(2);
                let mut bad = Vec::new();
                for (i, &h) in a.iter().enumerate() {
                    let x = from_half(h);
                    let (fr, ip) = (x.fract(), x.trunc());
                    let (s, c) = (from_half(to_half(x.sin())), from_half(to_half(x.cos())));
                    // frexp: x = m * 2^e with 0.5 <= |m| < 1 (m = x, e = 0 for zero).
                    let e = if x == 0.0 {
                        0
                    } else {
                        x.abs().log2().floor() as i32 + 1
                    };
                    let m = x / 2f64.powi(e);
                    let fl = x.floor();
                    let fr2 = from_half(to_half((x - fl).min(0.999_511_718_75)));
                    let want = [fr, ip, s + c, m, fr2 + fl];
                    for (k, w) in want.iter().enumerate() {
                        let g = got[5 * i + k];
                        if !within_1ulp_half(g, *w) {
                            bad.push(format!("[{i}.{k}] x={x} got {g:#06x} want {w}"));
                        }
                    }
                    if exps[i] != e {
                        bad.push(format!("[{i}] x={x} exponent {} want {e}", exps[i]));
                    }
                }
                verdict(bad)
            }),
        case("half.cl", "half_ldexp")
            .global(&[256])
            .buf(rand_halves(256, 47))
            .buf(
                (0..256)
                    .map(|i: i32| (i * 7919) % 61 - 30)
                    .collect::<Vec<i32>>(),
            )
            .out::<u16>(256)
            .expect(2, |r| {
                // x·2^e is exact in f64; to_half rounds it once to nearest even.
                let (a, e) = (r.input::<u16>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&e)
                    .map(|(&h, &k)| to_half(from_half(h) * 2f64.powi(k)))
                    .collect()
            }),
        case("half.cl", "half_round_modes")
            .global(&[256])
            .buf(round_mode_inputs(256, 48).0)
            .buf(round_mode_inputs(256, 48).1)
            .out::<u16>(10 * 256)
            .expect(2, |r| {
                let (f, d) = (r.input::<f32>(0), r.input::<f64>(1));
                let mut out = Vec::new();
                for (x, y) in f.iter().zip(&d) {
                    let x = f64::from(*x);
                    for v in [x, *y] {
                        out.extend([
                            to_half(v),
                            half_directed(v, Dir::Zero),
                            half_directed(v, Dir::Up),
                            half_directed(v, Dir::Down),
                        ]);
                    }
                    out.extend([half_directed(*y, Dir::Zero), half_directed(*y, Dir::Up)]);
                }
                out
            }),
        case("half.cl", "half_from_int_round_modes")
            .global(&[256])
            .buf(int_to_half_inputs(256, 50))
            .buf(
                int_to_half_inputs(256, 51)
                    .into_iter()
                    .map(|v| v as i32)
                    .collect::<Vec<i32>>(),
            )
            .out::<u16>(8 * 256)
            .expect(2, |r| {
                let (u, s) = (r.input::<u32>(0), r.input::<i32>(1));
                let mut out = Vec::new();
                for (&a, &b) in u.iter().zip(&s) {
                    for v in [f64::from(a), f64::from(b)] {
                        out.extend([
                            to_half(v),
                            half_directed(v, Dir::Zero),
                            half_directed(v, Dir::Up),
                            half_directed(v, Dir::Down),
                        ]);
                    }
                }
                out
            }),
        case("half.cl", "half_math")
            .global(&[256])
            .buf(rand_halves(256, 45))
            .out::<u16>(5 * 256)
            .check(|r| {
                let a = r.input::<u16>(0);
                let got = r.output::<u16>(1);
                let mut bad = Vec::new();
                for (i, &h) in a.iter().enumerate() {
                    let x = from_half(h);
                    let want = [
                        x.sin(),
                        x.clamp(-8.0, 8.0).exp(),
                        // The sum is a half operation: rounded before the log.
                        from_half(to_half(x.abs() + 1.0)).ln(),
                        x.clamp(-1.0, 1.0).acos() / std::f64::consts::PI,
                    ];
                    for (k, w) in want.iter().enumerate() {
                        let g = got[5 * i + k];
                        if !within_1ulp_half(g, *w) {
                            bad.push(format!("[{i}.{k}] x={x} got {g:#06x} want {w}"));
                        }
                    }
                    // nan(code) is a NaN: never equal to itself.
                    if got[5 * i + 4] != to_half(1.0) {
                        bad.push(format!("[{i}.4] nan == nan"));
                    }
                }
                verdict(bad)
            }),
        case("half.cl", "half4_ops")
            .global(&[64])
            .buf(rand_halves(256, 43))
            .buf(rand_halves(256, 44))
            .out::<u16>(3 * 256)
            .check(|r| {
                let (a, b) = (r.input::<u16>(0), r.input::<u16>(1));
                let got = r.output::<u16>(2);
                let mut bad = Vec::new();
                for i in 0..64 {
                    for c in 0..4 {
                        let (x, y) = (from_half(a[4 * i + c]), from_half(b[4 * i + c]));
                        // x + y * y may be contracted (FP_CONTRACT): rounded once or twice.
                        let twice = to_half(x + from_half(to_half(y * y)));
                        let once = to_half(x + y * y);
                        let want = [
                            vec![twice, once],
                            vec![to_half(x / y)],
                            vec![to_half(x.max(y) - x.min(y))],
                        ];
                        for (op, w) in want.iter().enumerate() {
                            let k = (3 * i + op) * 4 + c;
                            if !w.contains(&got[k]) {
                                bad.push(format!("[{k}] got {:#06x} want {w:x?}", got[k]));
                            }
                        }
                    }
                }
                verdict(bad)
            }),
        case(F, "shuffle_widths")
            .global(&[32])
            .buf(rand_bits::<i8>(512, 51))
            .buf(rand_bits::<i8>(512, 52))
            .buf(rand_bits::<u8>(512, 53))
            .out::<i8>(512)
            .buf(rand_bits::<u32>(256, 54))
            .buf(rand_bits::<u32>(128, 55))
            .out::<u32>(128)
            .expect(3, |r| {
                let (a, b, m) = (r.input::<i8>(0), r.input::<i8>(1), r.input::<u8>(2));
                (0..512)
                    .map(|e| {
                        let (i, k) = (e / 16, (m[e] & 31) as usize);
                        if k < 16 {
                            a[16 * i + k]
                        } else {
                            b[16 * i + k - 16]
                        }
                    })
                    .collect()
            })
            .expect(6, |r| {
                let (f, m) = (r.input::<u32>(4), r.input::<u32>(5));
                (0..128)
                    .map(|e| f[8 * (e / 4) + (m[e] & 7) as usize])
                    .collect()
            }),
        case(F, "float_steps")
            .global(&[256])
            .buf(fa)
            .buf(fb)
            .out::<u32>(256)
            .out::<i32>(512)
            .check(|r| {
                let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
                let want: Vec<u32> = (0..256).map(|i| nextafter(a[i], b[i]).to_bits()).collect();
                let got = r.output::<u32>(2);
                // Any NaN is a NaN.
                let norm = |v: u32| {
                    if f32::from_bits(v).is_nan() {
                        0x7fc0_0000
                    } else {
                        v
                    }
                };
                let got: Vec<u32> = got.into_iter().map(norm).collect();
                let want: Vec<u32> = want.into_iter().map(norm).collect();
                expect_eq(&got, &want)?;
                let cmp: Vec<i32> = (0..256)
                    .flat_map(|i| {
                        // Ordered and not equal: false for NaN, unlike `!=`.
                        let lg = matches!(
                            a[i].partial_cmp(&b[i]),
                            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Greater)
                        ) as i32;
                        [lg, 1 - lg]
                    })
                    .collect();
                expect_eq(&r.output::<i32>(3), &cmp)
            }),
        case(F, "div64")
            .global(&[256])
            .buf(da)
            .buf(db)
            .out::<i64>(512)
            .out::<u64>(512)
            .expect(2, |r| {
                let (a, b) = (r.input::<i64>(0), r.input::<i64>(1));
                a.iter().zip(&b).flat_map(|(x, y)| [x / y, x % y]).collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<i64>(0), r.input::<i64>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(&x, &y)| [x as u64 / y as u64, x as u64 % y as u64])
                    .collect()
            }),
        case(F, "vload3_sum")
            .global(&[64])
            .buf(rand_f32(192, 1, -100.0, 100.0))
            .out::<f32>(192)
            .expect(1, |r| {
                r.input::<f32>(0)
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| x * 2.0 + [1.0, 2.0, 3.0][k % 3])
                    .collect()
            }),
        case(F, "uchar_builtins")
            .global(&[64])
            .buf(rand_u8(256, 2))
            .buf(rand_u8(256, 3))
            .out::<u8>(768)
            .expect(2, |r| {
                let (a, b) = (r.input::<u8>(0), r.input::<u8>(1));
                let mut out = Vec::new();
                for i in 0..64 {
                    let (x, y) = (&a[4 * i..4 * i + 4], &b[4 * i..4 * i + 4]);
                    out.extend((0..4).map(|c| x[c].saturating_add(y[c])));
                    out.extend((0..4).map(|c| x[c].rotate_left([1, 3, 5, 7][c])));
                    out.extend(
                        (0..4)
                            .map(|c| x[c].abs_diff(y[c]).wrapping_add(y[c].leading_zeros() as u8)),
                    );
                }
                out
            }),
        case(F, "short_builtins")
            .global(&[128])
            .buf(rand_i16(128, 4))
            .buf(rand_i16(128, 5))
            .out::<i16>(512)
            .expect(2, |r| {
                let (a, b) = (r.input::<i16>(0), r.input::<i16>(1));
                (0..128)
                    .flat_map(|i| {
                        let (x, y) = (a[i], b[i]);
                        [
                            x.saturating_sub(y),
                            ((x as i32 * y as i32) >> 16) as i16,
                            ((x as i32 + y as i32) >> 1) as i16,
                            x.clamp(-128, 127),
                        ]
                    })
                    .collect()
            }),
    ]
}
