//! Cases of tests/igc/conversions.cl: OpenCL's convert_* (rounding modes,
//! saturation), casts and as_type against Rust. Rust's `as` from float to
//! integer truncates and saturates with NaN -> 0, which is exactly OpenCL's
//! `_sat` (rtz) behaviour; non-saturating cases keep their inputs in range.
use super::float::{f16_to_f32, f32_to_f16, wide_f32};
use super::integer::edges;
use crate::igc::harness::*;

const F: &str = "conversions.cl";
const N: usize = 256;

#[derive(Clone, Copy)]
enum Round {
    Zero,
    Up,
    Down,
}

/// One f32 step up or down (x finite and non-zero).
fn step(x: f32, up: bool) -> f32 {
    let b = x.to_bits();
    f32::from_bits(if (x > 0.0) == up { b + 1 } else { b - 1 })
}

/// An integer to f32 with a directed rounding: nearest, then one step back
/// where nearest went the wrong way.
fn int_to_f32(x: i128, mode: Round) -> f32 {
    let f = x as f32;
    let fv = f as f64 as i128;
    match mode {
        Round::Zero if fv.abs() > x.abs() => step(f, f < 0.0),
        Round::Up if fv < x => step(f, true),
        Round::Down if fv > x => step(f, false),
        _ => f,
    }
}

/// Floats in (-2^31, 2^31) with halves and the int range edges mixed in.
fn int_range_floats(seed: u64) -> Vec<f32> {
    let v = wide_f32(N, seed, -4, 30)
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            if i % 4 == 0 {
                (x * 2.0).round() / 2.0
            } else {
                x
            }
        })
        .collect();
    edges(
        v,
        &[
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            2147483520.0,
            -2147483648.0,
            0.999_999_94,
            -1e-30,
        ],
    )
}

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "f2i_modes")
            .global(&[N])
            .buf(int_range_floats(1))
            .out::<i32>(4 * N)
            .expect(1, |r| {
                r.input::<f32>(0)
                    .iter()
                    .flat_map(|x| {
                        [
                            x.round_ties_even() as i32,
                            x.trunc() as i32,
                            x.ceil() as i32,
                            x.floor() as i32,
                        ]
                    })
                    .collect()
            }),
        case(F, "f2i_sat")
            .global(&[N])
            .local(&[8])
            .buf(edges(
                wide_f32(N, 2, -4, 40),
                &[
                    f32::NAN,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    2147483648.0,
                    -2147483904.0,
                    4294967296.0,
                    4294967040.0,
                    -0.9,
                    -1.0,
                    -0.0,
                ],
            ))
            .out::<i32>(N)
            .out::<u32>(N)
            .expect(1, |r| r.input::<f32>(0).iter().map(|x| *x as i32).collect())
            .expect(2, |r| r.input::<f32>(0).iter().map(|x| *x as u32).collect()),
        case(F, "f2small_sat")
            .global(&[N])
            .buf(edges(
                wide_f32(N, 3, -3, 17),
                &[
                    f32::NAN,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    32767.5,
                    32766.5,
                    -32768.5,
                    127.9,
                    -128.9,
                    254.1,
                    255.0,
                    -0.5,
                    0.5,
                ],
            ))
            .out::<i16>(N)
            .out::<i8>(N)
            .out::<u8>(N)
            .expect(1, |r| {
                r.input::<f32>(0)
                    .iter()
                    .map(|x| x.round_ties_even() as i16)
                    .collect()
            })
            .expect(2, |r| r.input::<f32>(0).iter().map(|x| *x as i8).collect())
            .expect(3, |r| {
                r.input::<f32>(0).iter().map(|x| x.ceil() as u8).collect()
            }),
        case(F, "i2f_modes")
            .global(&[N])
            .buf(edges(
                rand_bits::<i32>(N, 4),
                &[
                    0,
                    -1,
                    i32::MIN,
                    i32::MAX,
                    16_777_217,
                    -16_777_217,
                    16_777_219,
                    (1 << 24) + 2,
                    0x7FFF_FFC0,
                ],
            ))
            .out::<f32>(4 * N)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .flat_map(|x| {
                        let x = *x as i128;
                        [
                            x as f32,
                            int_to_f32(x, Round::Zero),
                            int_to_f32(x, Round::Up),
                            int_to_f32(x, Round::Down),
                        ]
                    })
                    .collect()
            }),
        case(F, "u2f")
            .global(&[N])
            .local(&[16])
            .buf(edges(
                rand_bits::<u32>(N, 5),
                &[
                    0,
                    u32::MAX,
                    0x8000_0000,
                    0x8000_0080,
                    0x8000_0180,
                    16_777_217,
                ],
            ))
            .out::<f32>(2 * N)
            .expect(1, |r| {
                r.input::<u32>(0)
                    .iter()
                    .flat_map(|x| [*x as f32, int_to_f32(*x as i128, Round::Zero)])
                    .collect()
            }),
        case(F, "l2f")
            .global(&[N])
            .buf(edges(
                rand_bits::<i64>(N, 6)
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| x >> (i % 50))
                    .collect(),
                &[
                    0,
                    -1,
                    i64::MIN,
                    i64::MAX,
                    (1 << 24) + 1,
                    (1 << 40) + (1 << 16),
                    (1 << 40) + (1 << 16) + 1,
                    (1 << 40) + 3 * (1 << 16),
                    -(1 << 62) - 1,
                ],
            ))
            .out::<f32>(2 * N)
            .expect(1, |r| {
                r.input::<i64>(0)
                    .iter()
                    .flat_map(|x| [*x as f32, *x as u64 as f32])
                    .collect()
            }),
        case(F, "f2l_sat")
            .global(&[N])
            .buf(edges(
                wide_f32(N, 7, -4, 70),
                &[
                    f32::NAN,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    9.223372e18,
                    -9.223372e18,
                    1.8446743e19,
                    1.8446742e19,
                    -0.9,
                    4503599627370497.0,
                ],
            ))
            .out::<i64>(N)
            .out::<u64>(N)
            .expect(1, |r| r.input::<f32>(0).iter().map(|x| *x as i64).collect())
            .expect(2, |r| r.input::<f32>(0).iter().map(|x| *x as u64).collect()),
        case(F, "f2h2f")
            .global(&[N])
            .buf(edges(
                wide_f32(N, 8, -20, 16),
                &[
                    65504.0,
                    65520.0,
                    65519.99,
                    f32::INFINITY,
                    -1e-7,
                    2.9802322e-8,
                    0.0,
                    -0.0,
                    1.000_488_3,
                ],
            ))
            .out::<f32>(N)
            .out::<u16>(N)
            .expect(1, |r| {
                r.input::<f32>(0)
                    .iter()
                    .map(|x| f16_to_f32(f32_to_f16(*x, false)))
                    .collect()
            })
            .expect(2, |r| {
                r.input::<f32>(0)
                    .iter()
                    .map(|x| f32_to_f16(*x, false))
                    .collect()
            }),
        case(F, "extend_small")
            .global(&[N])
            .local(&[8])
            .buf(edges(rand_bits::<i8>(N, 9), &[-128, 127, -1, 0]))
            .buf(edges(rand_bits::<i16>(N, 10), &[i16::MIN, i16::MAX, -1, 0]))
            .out::<i32>(4 * N)
            .out::<i64>(N)
            .expect(2, |r| {
                let (c, s) = (r.input::<i8>(0), r.input::<i16>(1));
                (0..N)
                    .flat_map(|i| {
                        [
                            c[i] as i32,
                            c[i] as u8 as i32,
                            s[i] as i32,
                            s[i] as u16 as i32,
                        ]
                    })
                    .collect()
            })
            .expect(3, |r| {
                let (c, s) = (r.input::<i8>(0), r.input::<i16>(1));
                (0..N)
                    .map(|i| {
                        ((c[i] as i64).wrapping_mul(1 << 32) as u64)
                            .wrapping_add(s[i] as i32 as u32 as u64) as i64
                    })
                    .collect()
            }),
        case(F, "bool_to_int")
            .global(&[N])
            .buf(edges(rand_i32(N, 11, -4, 4), &[i32::MIN, 0, 5, i32::MAX]))
            .buf(edges(rand_i32(N, 12, -4, 4), &[i32::MIN, 0, -5, 1]))
            .out::<i32>(N)
            .out::<i32>(4 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                (0..N)
                    .map(|i| (a[i] < b[i]) as i32 + 2 * (a[i] == b[i]) as i32)
                    .collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                (0..N)
                    .flat_map(|i| {
                        // The kernel's negation wraps: INT_MIN stays INT_MIN.
                        [a[i], b[i], a[i] ^ b[i], a[i].wrapping_neg()].map(|x| -((x > 0) as i32))
                    })
                    .collect()
            }),
        // Bits pass through unchanged, so outputs are compared as integers.
        case(F, "reinterpret")
            .global(&[N])
            .buf(edges(
                rand_bits::<i32>(N, 13),
                &[-1, 0x7F80_0000, 1, i32::MIN],
            ))
            .buf(rand_bits::<u32>(4 * N, 14))
            .out::<u32>(N)
            .out::<u32>(4 * N)
            .out::<i8>(4 * N)
            .expect(2, |r| {
                r.input::<u32>(0).iter().map(|x| x & 0x7F7F_FFFF).collect()
            })
            .expect(3, |r| r.input::<u32>(1))
            .expect(4, |r| r.input::<i8>(0)),
        case(F, "vector_convert")
            .global(&[N / 4])
            .local(&[16])
            .buf(int_range_floats(15))
            .buf(edges(
                rand_i32(N, 16, -300, 600),
                &[i32::MIN, i32::MAX, 255, 256, -1, 0, 128, 1000],
            ))
            .out::<i32>(N)
            .out::<u8>(N)
            .expect(2, |r| r.input::<f32>(0).iter().map(|x| *x as i32).collect())
            .expect(3, |r| {
                r.input::<i32>(1)
                    .iter()
                    .map(|x| (*x).clamp(0, 255) as u8)
                    .collect()
            }),
        case(F, "narrow_sat")
            .global(&[N])
            .buf(edges(
                rand_bits::<i32>(N, 17)
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| x >> (i % 24))
                    .collect(),
                &[i32::MIN, i32::MAX, 32768, -32769, 255, 256, 0x1_00FF, -1],
            ))
            .buf(edges(
                rand_bits::<i64>(N, 18)
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| x >> (i % 64))
                    .collect(),
                &[
                    i64::MIN,
                    i64::MAX,
                    127,
                    128,
                    -129,
                    0xFFFF_FFFF,
                    0x1_0000_0000,
                    -1,
                ],
            ))
            .out::<i16>(N)
            .out::<u8>(N)
            .out::<i8>(N)
            .out::<u32>(N)
            .expect(2, |r| {
                r.input::<i32>(0)
                    .iter()
                    .map(|x| (*x).clamp(i16::MIN as i32, i16::MAX as i32) as i16)
                    .collect()
            })
            .expect(3, |r| {
                r.input::<i32>(0)
                    .iter()
                    .map(|x| (*x as i16).clamp(0, 255) as u8)
                    .collect()
            })
            .expect(4, |r| {
                r.input::<i64>(1)
                    .iter()
                    .map(|x| (*x).clamp(-128, 127) as i8)
                    .collect()
            })
            .expect(5, |r| {
                r.input::<i64>(1)
                    .iter()
                    .map(|x| (*x).clamp(0, u32::MAX as i64) as u32)
                    .collect()
            }),
        case(F, "widen_truncate")
            .global(&[N])
            .buf(edges(rand_bits::<i32>(N, 19), &[i32::MIN, -1, i32::MAX]))
            .buf(edges(
                rand_bits::<i64>(N, 20),
                &[i64::MIN, -1, 0x1_8000_0000],
            ))
            .out::<i64>(2 * N)
            .out::<i32>(2 * N)
            .expect(2, |r| {
                r.input::<i32>(0)
                    .iter()
                    .flat_map(|x| [*x as i64, *x as u32 as i64])
                    .collect()
            })
            .expect(3, |r| {
                r.input::<i64>(1)
                    .iter()
                    .flat_map(|x| [*x as i32, (*x >> 32) as i32])
                    .collect()
            }),
        case(F, "wrap_narrow")
            .global(&[N])
            .buf(edges(
                rand_bits::<i32>(N, 21),
                &[i32::MIN, -1, 0x1_7F80, 0xFF],
            ))
            .out::<i8>(N)
            .out::<i16>(N)
            .expect(1, |r| r.input::<i32>(0).iter().map(|x| *x as i8).collect())
            .expect(2, |r| r.input::<i32>(0).iter().map(|x| *x as i16).collect()),
        case(F, "half_int")
            .global(&[N])
            .buf(edges(
                rand_bits::<u16>(N, 22)
                    .into_iter()
                    .map(|h| if h & 0x7C00 == 0x7C00 { h & 0xBFFF } else { h })
                    .collect(),
                &[0x7BFF, 0xFBFF, 0x3BFF, 0xBC00, 0x0001, 0x8000],
            ))
            .buf(edges(
                rand_bits::<i16>(N, 23),
                &[i16::MIN, i16::MAX, 2049, 2051, -4097],
            ))
            .out::<i32>(N)
            .out::<u16>(N)
            .expect(2, |r| {
                r.input::<u16>(0)
                    .iter()
                    .map(|h| f16_to_f32(*h).trunc() as i32)
                    .collect()
            })
            .expect(3, |r| {
                r.input::<i16>(1)
                    .iter()
                    .map(|n| f32_to_f16(*n as f32, false))
                    .collect()
            }),
    ]
}
