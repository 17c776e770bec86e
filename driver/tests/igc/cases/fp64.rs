//! Cases of tests/igc/fp64.cl: double precision against Rust's f64 (IEEE,
//! correctly rounded for + - * / sqrt fma and conversions, as OpenCL requires
//! of doubles). Denormals are in the inputs: doubles must not flush them.
use super::integer::edges;
use crate::igc::harness::*;

const F: &str = "fp64.cl";
const N: usize = 256;

const F64_EDGES: [f64; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
    -2.5,
    2.225e-308,
];

/// `n` normal f64 of random sign with exponents in [emin, emax].
fn wide_f64(n: usize, seed: u64, emin: i32, emax: i32) -> Vec<f64> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| {
            let e = emin + (r.next_u64() % (emax - emin + 1) as u64) as i32;
            let x = r.next_u64();
            f64::from_bits(
                (x & 0x8000_0000_0000_0000) | (((e + 1023) as u64) << 52) | (x & ((1 << 52) - 1)),
            )
        })
        .collect()
}

fn pair_map(r: &Run, f: impl Fn(f64, f64) -> Vec<f64>) -> Vec<f64> {
    let (a, b) = (r.input::<f64>(0), r.input::<f64>(1));
    a.iter().zip(&b).flat_map(|(x, y)| f(*x, *y)).collect()
}

/// frexp for every finite double, denormals included.
fn frexp64(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (x, bias) = if x.is_subnormal() {
        (x * 2f64.powi(54), 54)
    } else {
        (x, 0)
    };
    let b = x.to_bits();
    let e = ((b >> 52) & 0x7FF) as i32 - 1022;
    (
        f64::from_bits((b & !(0x7FF << 52)) | (1022 << 52)),
        e - bias,
    )
}

/// x * 2^n with one rounding: growing scales are split so 2^n stays finite
/// (exact while no overflow); shrinking ones here never need a split.
fn ldexp64(x: f64, n: i32) -> f64 {
    if n > 1000 {
        x * 2f64.powi(1000) * 2f64.powi(n - 1000)
    } else {
        x * 2f64.powi(n)
    }
}

fn fract64(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.is_infinite() {
        0.0f64.copysign(x)
    } else if x == 0.0 {
        x
    } else {
        (x - x.floor()).min(f64::from_bits(0x3FEF_FFFF_FFFF_FFFF))
    }
}

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "d_add_sub_mul")
            .global(&[N])
            .buf(edges(wide_f64(N, 1, -600, 600), &F64_EDGES))
            .buf(edges(
                wide_f64(N, 2, -600, 600),
                &[
                    -0.0,
                    -0.0,
                    1.0,
                    f64::INFINITY,
                    f64::INFINITY,
                    3.0,
                    1.0,
                    f64::MAX,
                    0.5,
                    5e-324,
                    1e-300,
                    -2.225e-308,
                ],
            ))
            .out::<f64>(3 * N)
            .expect_f64(2, 0, |r| pair_map(r, |x, y| vec![x + y, x - y, x * y])),
        case(F, "d_fma")
            .global(&[N])
            .local(&[8])
            .buf(edges(
                wide_f64(N, 3, -20, 20),
                &[1.0 + 2f64.powi(-27), f64::INFINITY, 1e-160, f64::NAN],
            ))
            .buf(edges(
                wide_f64(N, 4, -20, 20),
                &[1.0 - 2f64.powi(-27), 0.0, 1e-160, 1.0],
            ))
            .buf(edges(wide_f64(N, 5, -20, 20), &[-1.0, 1.0, 0.0, 1.0]))
            .out::<f64>(N)
            .expect_f64(3, 0, |r| {
                let (a, b, c) = (r.input::<f64>(0), r.input::<f64>(1), r.input::<f64>(2));
                (0..N).map(|i| a[i].mul_add(b[i], c[i])).collect()
            }),
        case(F, "d_div")
            .global(&[N])
            .buf(edges(wide_f64(N, 6, -500, 500), &F64_EDGES))
            .buf(edges(
                wide_f64(N, 7, -500, 500),
                &[
                    0.0,
                    3.0,
                    -0.0,
                    7.0,
                    f64::INFINITY,
                    2.0,
                    4.0,
                    -3.0,
                    1e300,
                    3.0,
                    1e-10,
                    0.1,
                ],
            ))
            .out::<f64>(N)
            .expect_f64(2, 0, |r| pair_map(r, |x, y| vec![x / y])),
        case(F, "d_sqrt")
            .global(&[N])
            .local(&[16])
            .buf(edges(
                wide_f64(N, 8, -1000, 1000)
                    .into_iter()
                    .map(f64::abs)
                    .collect(),
                &F64_EDGES,
            ))
            .out::<f64>(N)
            .expect_f64(1, 0, |r| {
                r.input::<f64>(0).iter().map(|x| x.sqrt()).collect()
            }),
        case(F, "d_rounding")
            .global(&[N])
            .buf(edges(
                rand_f64(N, 9, -1000.0, 1000.0),
                &[
                    0.5,
                    -0.5,
                    1.5,
                    -2.5,
                    -0.0,
                    4_503_599_627_370_497.0,
                    1e300,
                    -1e-300,
                    f64::INFINITY,
                    f64::NAN,
                    0.499_999_999_999_999_94,
                    5e-324,
                ],
            ))
            .out::<f64>(5 * N)
            .expect_f64(1, 0, |r| {
                r.input::<f64>(0)
                    .iter()
                    .flat_map(|x| {
                        [
                            x.floor(),
                            x.ceil(),
                            x.round_ties_even(),
                            x.trunc(),
                            x.round(),
                        ]
                    })
                    .collect()
            }),
        // No ±0 pairs: fmin/fmax may order them either way.
        case(F, "d_min_max")
            .global(&[N])
            .buf(edges(
                wide_f64(N, 10, -1000, 1000),
                &[f64::NAN, 1.0, f64::NAN, 5e-324, -0.0],
            ))
            .buf(edges(
                wide_f64(N, 11, -1000, 1000),
                &[2.0, f64::NAN, f64::NAN, -5e-324, 1.0],
            ))
            .out::<f64>(4 * N)
            .expect_f64(2, 0, |r| {
                pair_map(r, |x, y| vec![x.min(y), x.max(y), x.abs(), x.copysign(y)])
            }),
        case(F, "d_compare_select")
            .global(&[N])
            .buf(edges(
                rand_f64(N, 12, -4.0, 4.0)
                    .into_iter()
                    .map(f64::round)
                    .collect(),
                &F64_EDGES,
            ))
            .buf(edges(
                rand_f64(N, 13, -4.0, 4.0)
                    .into_iter()
                    .map(f64::round)
                    .collect(),
                &[
                    -0.0,
                    0.0,
                    1.0,
                    2.0,
                    f64::INFINITY,
                    0.0,
                    1.0,
                    f64::MAX,
                    0.0,
                    5e-324,
                    -2.5,
                    f64::NAN,
                ],
            ))
            .out::<f64>(N)
            .out::<i32>(3 * N)
            .expect_f64(2, 0, |r| {
                pair_map(r, |x, y| vec![if x < y { x } else { y * 2.0 }])
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<f64>(0), r.input::<f64>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        [
                            (x <= y) as i32,
                            (x != y) as i32,
                            x.is_nan() as i32
                                + 2 * x.is_infinite() as i32
                                + 4 * x.is_sign_negative() as i32,
                        ]
                    })
                    .collect()
            }),
        // Narrowed results stay clear of the fp32 denormal range (the device
        // may flush fp32 denormals).
        case(F, "d_float_conv")
            .global(&[N])
            .local(&[8])
            .buf(edges(
                wide_f64(N, 14, -100, 100),
                &[
                    0.0,
                    -0.0,
                    f64::INFINITY,
                    f64::NAN,
                    1e300,
                    -1e300,
                    1.0 + 2f64.powi(-24),
                    1.0 + 3.0 * 2f64.powi(-24),
                    3.4028235677973366e38,
                ],
            ))
            .buf(edges(
                wide_f64(N, 15, -100, 100)
                    .into_iter()
                    .map(|x| x as f32)
                    .collect(),
                &[
                    0.0,
                    -0.0,
                    f32::INFINITY,
                    f32::NAN,
                    f32::MAX,
                    f32::MIN_POSITIVE,
                ],
            ))
            .out::<f32>(N)
            .out::<f64>(N)
            .expect_f32(2, 0, |r| {
                r.input::<f64>(0).iter().map(|x| *x as f32).collect()
            })
            .expect_f64(3, 0, |r| {
                r.input::<f32>(1).iter().map(|x| *x as f64).collect()
            }),
        case(F, "d_int_conv")
            .global(&[N])
            .buf(edges(
                rand_f64(N, 16, -2e9, 2e9),
                &[
                    0.0,
                    -0.0,
                    0.999,
                    -0.999,
                    2147483647.9,
                    -2147483648.9,
                    1.5,
                    -1.5,
                ],
            ))
            .buf(edges(rand_bits::<i32>(N, 17), &[i32::MIN, i32::MAX, -1, 0]))
            .out::<i32>(N)
            .out::<u32>(N)
            .out::<f64>(2 * N)
            .expect(2, |r| r.input::<f64>(0).iter().map(|x| *x as i32).collect())
            .expect(3, |r| {
                r.input::<f64>(0).iter().map(|x| x.abs() as u32).collect()
            })
            .expect_f64(4, 0, |r| {
                r.input::<i32>(1)
                    .iter()
                    .flat_map(|n| [*n as f64, *n as u32 as f64])
                    .collect()
            }),
        case(F, "d_long_conv")
            .global(&[N])
            .buf(edges(
                wide_f64(N, 18, -10, 62),
                &[
                    0.0,
                    -0.0,
                    0.999,
                    -0.999,
                    9.2e18,
                    -9.2e18,
                    4503599627370497.0,
                ],
            ))
            .buf(edges(
                rand_bits::<i64>(N, 19),
                &[
                    i64::MIN,
                    i64::MAX,
                    -1,
                    0,
                    (1 << 53) + 1,
                    (1 << 54) + 2,
                    -(1 << 60) - 1,
                ],
            ))
            .out::<i64>(N)
            .out::<f64>(2 * N)
            .expect(2, |r| r.input::<f64>(0).iter().map(|x| *x as i64).collect())
            .expect_f64(3, 0, |r| {
                r.input::<i64>(1)
                    .iter()
                    .flat_map(|n| [*n as f64, *n as u64 as f64])
                    .collect()
            }),
        case(F, "d_exp_log")
            .global(&[N])
            .buf(edges(
                rand_f64(N, 20, -700.0, 700.0),
                &[
                    0.0,
                    -0.0,
                    1.0,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NAN,
                    1e-300,
                    5e-324,
                ],
            ))
            .out::<f64>(2 * N)
            .check(slots(1, &[3, 3], |r| {
                r.input::<f64>(0)
                    .iter()
                    .flat_map(|x| [x.exp(), x.abs().ln()])
                    .collect()
            })),
        // x * y.yx + x may be contracted to one mad (FP_CONTRACT is on).
        case(F, "d_vec2")
            .global(&[N / 2])
            .local(&[16])
            .buf(wide_f64(N, 21, -100, 100))
            .buf(wide_f64(N, 22, -100, 100))
            .out::<f64>(2 * N)
            .check(|r| {
                let (a, b, got) = (r.input::<f64>(0), r.input::<f64>(1), r.output::<f64>(2));
                for i in 0..N / 2 {
                    for k in 0..2 {
                        let (x, y, ys) = (a[2 * i + k], b[2 * i + k], b[2 * i + 1 - k]);
                        let g = got[4 * i + k];
                        if g != x.mul_add(ys, x) && g != x * ys + x {
                            return Err(format!("[{i}].{k} mad: got {g:e}"));
                        }
                        let want = x.max(y) - x.min(y);
                        if got[4 * i + 2 + k] != want {
                            return Err(format!(
                                "[{i}].{k} max-min: got {:e} want {want:e}",
                                got[4 * i + 2 + k]
                            ));
                        }
                    }
                }
                Ok(())
            }),
        // rsqrt is 2 ulp in OpenCL; the reference (1/sqrt in f64) adds up to
        // one more ulp of its own rounding.
        case(F, "d_rsqrt_recip")
            .global(&[N])
            .buf(edges(
                wide_f64(N, 23, -1000, 1000)
                    .into_iter()
                    .map(f64::abs)
                    .collect(),
                &[
                    0.0,
                    -0.0,
                    1.0,
                    4.0,
                    f64::INFINITY,
                    f64::NAN,
                    5e-324,
                    f64::MAX,
                ],
            ))
            .out::<f64>(2 * N)
            .check(slots(1, &[3, 0], |r| {
                r.input::<f64>(0)
                    .iter()
                    .flat_map(|x| [1.0 / x.sqrt(), 1.0 / x])
                    .collect()
            })),
        case(F, "d_trig")
            .global(&[N])
            .buf(edges(
                rand_f64(N, 24, -10.0, 10.0),
                &[
                    0.0,
                    -0.0,
                    1e-300,
                    f64::INFINITY,
                    f64::NAN,
                    std::f64::consts::PI,
                ],
            ))
            .out::<f64>(2 * N)
            .check(slots(1, &[4, 4], |r| {
                r.input::<f64>(0)
                    .iter()
                    .flat_map(|x| [x.sin(), x.cos()])
                    .collect()
            })),
        case(F, "d_exponent")
            .global(&[N])
            .buf(edges(
                wide_f64(N, 25, -1000, 1000),
                &[0.0, -0.0, 5e-324, -2.5e-310, 1.5, -0.75, -1e-20, 1e300],
            ))
            .buf(edges(
                rand_i32(N, 26, -40, 41),
                &[3, 1, 10, 2000, -1, 2, 5, 100],
            ))
            .out::<f64>(3 * N)
            .out::<i32>(N)
            .expect_f64(2, 0, |r| {
                let (a, n) = (r.input::<f64>(0), r.input::<i32>(1));
                (0..N)
                    .flat_map(|i| {
                        let x = a[i];
                        [frexp64(x).0, ldexp64(x, n[i]), fract64(x) + x.floor() * 0.0]
                    })
                    .collect()
            })
            .expect(3, |r| {
                r.input::<f64>(0).iter().map(|x| frexp64(*x).1).collect()
            }),
        case(F, "d_row_dot")
            .global(&[8, 4])
            .local(&[4, 4])
            .buf(rand_f64(32 * 16, 27, -1.0, 1.0))
            .buf(rand_f64(32 * 16, 28, -1.0, 1.0))
            .val(16i32)
            .out::<f64>(32)
            .expect_f64(3, 0, |r| {
                let (a, b, n) = (
                    r.input::<f64>(0),
                    r.input::<f64>(1),
                    r.value::<i32>(2) as usize,
                );
                (0..32)
                    .map(|row| {
                        (0..n).fold(0.0f64, |s, k| a[row * n + k].mul_add(b[row * n + k], s))
                    })
                    .collect()
            }),
        case(F, "d_mixed")
            .global(&[N])
            .buf(rand_f32(N, 29, 0.01, 100.0))
            .buf(rand_f32(N, 30, -100.0, -0.01))
            .out::<f32>(2 * N)
            .expect_f32(2, 0, |r| {
                let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        let p = *x as f64 * *y as f64;
                        [p as f32, (p - (x * y) as f64) as f32]
                    })
                    .collect()
            }),
    ]
}
