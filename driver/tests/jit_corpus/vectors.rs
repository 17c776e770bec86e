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
        let x = pick(&mut r, k);
        let mut y = pick(&mut r, k / 4 + k);
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

pub fn cases() -> Vec<Case> {
    let (da, db) = div_inputs(9);
    let (ma, mb) = div_inputs(21);
    let (mc, _) = div_inputs(33);
    let (fa, fb) = float_pairs(5);
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
