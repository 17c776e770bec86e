//! Cases of tests/igc/float.cl: single-precision builtins against references
//! computed in f64 (or exactly), within the OpenCL 2.0 ULP bounds of each
//! builtin. fp32 denormals are avoided except where a check accepts both the
//! IEEE and the flushed result (the device may flush fp32 denormals).
use super::integer::edges;
use crate::igc::harness::*;

const F: &str = "float.cl";
const N: usize = 256;

/// Edge values of every single-precision class but denormals.
pub const F32_EDGES: [f32; 10] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::MAX,
    f32::MIN_POSITIVE,
    -2.5,
];

/// `n` normal f32 of random sign with exponents in [emin, emax].
pub fn wide_f32(n: usize, seed: u64, emin: i32, emax: i32) -> Vec<f32> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| {
            let x = r.next_u64();
            let e = emin + (x % (emax - emin + 1) as u64) as i32;
            let bits = ((x >> 32) as u32 & 0x8000_0000)
                | (((e + 127) as u32) << 23)
                | ((x >> 8) as u32 & 0x7F_FFFF);
            f32::from_bits(bits)
        })
        .collect()
}

/// Half-precision bits to f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let e = (h >> 10) & 0x1F;
    let m = (h & 0x3FF) as f32;
    match e {
        0 => sign * m * 2f32.powi(-24),
        31 if m == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + m / 1024.0) * 2f32.powi(e as i32 - 15),
    }
}

/// f32 to half-precision bits, rounding to nearest even or toward zero.
pub fn f32_to_f16(x: f32, toward_zero: bool) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    if x.is_nan() {
        return 0x7E00;
    }
    let a = (x as f64).abs();
    if a.is_infinite() {
        return sign | 0x7C00;
    }
    let round = |q: f64| {
        if toward_zero {
            q.trunc()
        } else {
            q.round_ties_even()
        }
    };
    let bits = if a < 2f64.powi(-14) {
        // Denormal quantum 2^-24; 1024 quanta is exactly the smallest normal.
        round(a * 2f64.powi(24)) as u32
    } else {
        let e = ((a.to_bits() >> 52) as i32) - 1023;
        let m = round(a * 2f64.powi(10 - e)) as u32;
        (((e + 15) as u32) << 10) + (m - 1024)
    };
    let bits = if bits >= 0x7C00 {
        if toward_zero {
            0x7BFF
        } else {
            0x7C00
        }
    } else {
        bits
    };
    sign | bits as u16
}

/// A check that float buffer `arg` is within relative error `tol` of the reference.
fn relative_f32(arg: usize, tol: f64, reference: impl Fn(&Run) -> Vec<f64> + 'static) -> Check {
    Box::new(move |r: &Run| {
        let (got, want) = (r.output::<f32>(arg), reference(r));
        if got.len() != want.len() {
            return Err(format!(
                "argument {arg}: length {} != {}",
                got.len(),
                want.len()
            ));
        }
        let bad: Vec<String> = got
            .iter()
            .zip(&want)
            .enumerate()
            .filter(|(_, (g, w))| {
                // NaN differences count as failures.
                !matches!(
                    (**g as f64 - **w).abs().partial_cmp(&(tol * w.abs())),
                    Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
                )
            })
            .take(8)
            .map(|(i, (g, w))| format!("[{i}] got {g:e} want {w:e}"))
            .collect();
        if bad.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "argument {arg}: beyond relative {tol:e}: {}",
                bad.join(", ")
            ))
        }
    })
}

/// OpenCL fract(x) (without the integral part).
fn fract32(x: f32) -> f32 {
    if x.is_nan() {
        x
    } else if x.is_infinite() {
        0.0f32.copysign(x)
    } else if x == 0.0 {
        x
    } else {
        (x - x.floor()).min(f32::from_bits(0x3F7F_FFFF))
    }
}

/// frexp of a normal, zero, or non-finite float.
fn frexp32(x: f32) -> (f32, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let b = x.to_bits();
    let e = ((b >> 23) & 0xFF) as i32 - 126;
    (f32::from_bits((b & !(0xFF << 23)) | (126 << 23)), e)
}

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// Random halves of moderate magnitude (|x| in [0.01, 100]) as bits.
fn moderate_halves(n: usize, seed: u64) -> Vec<u16> {
    rand_f32(n, seed, 0.01, 100.0)
        .into_iter()
        .zip(rand_bits::<u8>(n, seed + 1000))
        .map(|(x, s)| f32_to_f16(if s & 1 != 0 { -x } else { x }, false))
        .collect()
}

fn pair_map(r: &Run, f: impl Fn(f32, f32) -> Vec<f32>) -> Vec<f32> {
    let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
    a.iter().zip(&b).flat_map(|(x, y)| f(*x, *y)).collect()
}

pub fn cases() -> Vec<Case> {
    let mut v = vec![
        case(F, "f_add_sub_mul")
            .global(&[N])
            .buf(edges(wide_f32(N, 1, -60, 60), &F32_EDGES))
            .buf(edges(
                wide_f32(N, 2, -60, 60),
                &[
                    -0.0,
                    -0.0,
                    1.0,
                    f32::INFINITY,
                    f32::INFINITY,
                    3.0,
                    1.0,
                    f32::MAX,
                    2.0,
                    2.5,
                ],
            ))
            .out::<f32>(3 * N)
            .expect_f32(2, 0, |r| pair_map(r, |x, y| vec![x + y, x - y, x * y])),
        case(F, "f_fma")
            .global(&[N])
            .local(&[32])
            .buf(edges(
                rand_f32(N, 3, -100.0, 100.0),
                &[1.0 + 1.0 / 4096.0, f32::INFINITY, 0.0, f32::NAN],
            ))
            .buf(edges(
                rand_f32(N, 4, -100.0, 100.0),
                &[1.0 - 1.0 / 4096.0, 0.0, 5.0, 1.0],
            ))
            .buf(edges(
                rand_f32(N, 5, -100.0, 100.0),
                &[-1.0, 1.0, -0.0, 1.0],
            ))
            .out::<f32>(N)
            .expect_f32(3, 0, |r| {
                let (a, b, c) = (r.input::<f32>(0), r.input::<f32>(1), r.input::<f32>(2));
                (0..N).map(|i| a[i].mul_add(b[i], c[i])).collect()
            }),
        case(F, "f_div_sqrt")
            .global(&[N])
            .buf(edges(wide_f32(N, 6, -30, 30), &F32_EDGES))
            .buf(edges(
                wide_f32(N, 7, -30, 30),
                &[
                    0.0,
                    3.0,
                    -0.0,
                    7.0,
                    f32::INFINITY,
                    2.0,
                    4.0,
                    -3.0,
                    f32::NAN,
                    0.1,
                ],
            ))
            .out::<f32>(3 * N)
            .check(slots(2, &[3, 3, 2], |r| {
                pair_map(r, |x, y| {
                    let (x, y) = (x as f64, y as f64);
                    vec![
                        (x / y) as f32,
                        x.abs().sqrt() as f32,
                        (1.0 / y.abs().sqrt()) as f32,
                    ]
                })
            })),
        // native_* accuracy is implementation-defined; half_* allows 8192 ulp
        // (2^-10 relative). Inputs keep every result well inside the range.
        case(F, "f_native_half")
            .global(&[N])
            .local(&[16])
            .buf(rand_f32(N, 8, 2.0, 1000.0))
            .out::<f32>(6 * N)
            .check(relative_f32(1, 1.0 / 1024.0, |r| {
                r.input::<f32>(0)
                    .iter()
                    .flat_map(|x| {
                        let x = *x as f64;
                        [
                            1.0 / x,
                            x.sqrt(),
                            1.0 / x.sqrt(),
                            (x * 0.01).exp2(),
                            x.log2(),
                            1.0 / x,
                        ]
                    })
                    .collect()
            })),
        case(F, "f_trig")
            .global(&[N])
            .buf(edges(
                rand_f32(N, 9, -10.0, 10.0),
                &[
                    0.0,
                    -0.0,
                    1e-6,
                    f32::INFINITY,
                    f32::NAN,
                    std::f32::consts::PI,
                ],
            ))
            .out::<f32>(3 * N)
            .check(slots(1, &[4, 4, 5], |r| {
                r.input::<f32>(0)
                    .iter()
                    .flat_map(|x| {
                        let x = *x as f64;
                        [x.sin() as f32, x.cos() as f32, x.tan() as f32]
                    })
                    .collect()
            })),
        case(F, "f_exp_log")
            .global(&[N])
            .buf(edges(
                rand_f32(N, 10, -20.0, 20.0),
                &[
                    0.0,
                    -0.0,
                    1.0,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    f32::NAN,
                    0.5,
                ],
            ))
            .buf(edges(
                rand_f32(N, 11, -5.0, 5.0),
                &[2.0, 0.5, 3.0, 1.0, 2.0, 1.0, -1.0],
            ))
            .out::<f32>(5 * N)
            .check(slots(2, &[3, 3, 3, 3, 16], |r| {
                pair_map(r, |x, y| {
                    let (x, y) = (x as f64, y as f64);
                    vec![
                        x.exp() as f32,
                        x.exp2() as f32,
                        x.abs().ln() as f32,
                        x.abs().log2() as f32,
                        x.abs().powf(y) as f32,
                    ]
                })
            })),
        case(F, "f_rounding")
            .global(&[N])
            .local(&[8])
            .buf(edges(
                rand_f32(N, 12, -1000.0, 1000.0),
                &[
                    0.5,
                    -0.5,
                    1.5,
                    -1.5,
                    2.5,
                    -2.5,
                    -0.0,
                    8_388_609.0,
                    1e10,
                    -1e-10,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    f32::NAN,
                    0.499_999_97,
                ],
            ))
            .out::<f32>(6 * N)
            .expect_f32(1, 0, |r| {
                r.input::<f32>(0)
                    .iter()
                    .flat_map(|x| {
                        [
                            x.floor(),
                            x.ceil(),
                            x.round_ties_even(),
                            x.trunc(),
                            x.round(),
                            fract32(*x) + 0.0 * x.floor(),
                        ]
                    })
                    .collect()
            }),
        // No ±0 pairs: fmin/fmax may order them either way.
        case(F, "f_sign_minmax")
            .global(&[N])
            .buf(edges(
                wide_f32(N, 13, -40, 40),
                &[f32::NAN, 1.0, f32::NAN, f32::INFINITY, -0.0, 5.5, -7.25],
            ))
            .buf(edges(
                wide_f32(N, 14, -40, 40),
                &[2.0, f32::NAN, f32::NAN, 3.0, 1.0, f32::INFINITY, 2.0],
            ))
            .out::<f32>(5 * N)
            .expect_f32(2, 0, |r| {
                pair_map(r, |x, y| {
                    vec![x.abs(), x.copysign(y), x.min(y), x.max(y), x % y]
                })
            }),
        case(F, "f_classify")
            .global(&[N])
            .buf(edges(
                wide_f32(N, 15, -126, 127),
                &[
                    0.0,
                    -0.0,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    f32::NAN,
                    -f32::NAN,
                    f32::from_bits(1),
                    f32::from_bits(0x8000_0001),
                    f32::MIN_POSITIVE,
                    f32::MAX,
                ],
            ))
            .out::<i32>(5 * N)
            .expect(1, |r| {
                r.input::<f32>(0)
                    .iter()
                    .flat_map(|x| {
                        [
                            x.is_nan() as i32,
                            x.is_infinite() as i32,
                            x.is_finite() as i32,
                            x.is_normal() as i32,
                            x.is_sign_negative() as i32,
                        ]
                    })
                    .collect()
            }),
        case(F, "f_compare")
            .global(&[N])
            .buf(edges(
                rand_f32(N, 16, -4.0, 4.0)
                    .into_iter()
                    .map(|x| x.round())
                    .collect(),
                &F32_EDGES,
            ))
            .buf(edges(
                rand_f32(N, 17, -4.0, 4.0)
                    .into_iter()
                    .map(|x| x.round())
                    .collect(),
                &[
                    -0.0,
                    0.0,
                    1.0,
                    2.0,
                    f32::INFINITY,
                    0.0,
                    f32::NAN,
                    f32::MAX,
                    1.0,
                    -2.5,
                ],
            ))
            .out::<i32>(4 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        [
                            (x < y) as i32,
                            (x >= y) as i32,
                            (x == y) as i32,
                            (x.is_nan() || y.is_nan()) as i32 | ((x != y) as i32) << 1,
                        ]
                    })
                    .collect()
            }),
        // Either IEEE results or results with denormal inputs and/or outputs
        // flushed to (signed) zero.
        case(F, "f_denormals")
            .global(&[N])
            .buf(
                rand_bits::<u32>(N, 18)
                    .into_iter()
                    .map(|b| f32::from_bits(b & 0x80FF_FFFF))
                    .collect::<Vec<f32>>(),
            )
            .buf(
                rand_bits::<u32>(N, 19)
                    .into_iter()
                    .enumerate()
                    .map(|(i, b)| {
                        if i % 2 == 0 {
                            f32::from_bits(b & 0x807F_FFFF)
                        } else {
                            f32::from_bits((b & 0x807F_FFFF) | (100 << 23))
                        }
                    })
                    .collect::<Vec<f32>>(),
            )
            .out::<f32>(2 * N)
            .check(|r| {
                let (a, b, got) = (r.input::<f32>(0), r.input::<f32>(1), r.output::<f32>(2));
                let ops: [fn(f32, f32) -> f32; 2] = [|x, y| x * y, |x, y| x + y];
                for i in 0..N {
                    for (k, op) in ops.iter().enumerate() {
                        let g = got[2 * i + k];
                        let ieee = op(a[i], b[i]);
                        let ok = g.to_bits() == ieee.to_bits()
                            || g == flush(ieee)
                            || g == flush(op(flush(a[i]), flush(b[i])))
                            || g == op(flush(a[i]), flush(b[i]));
                        if !ok {
                            return Err(format!(
                                "[{i}] op {k}: {:e} and {:e} gave {g:e}, IEEE {ieee:e}",
                                a[i], b[i]
                            ));
                        }
                    }
                }
                Ok(())
            }),
        case(F, "f_half_storage")
            .global(&[N])
            .local(&[16])
            .buf(edges(
                rand_bits::<u16>(N, 20)
                    .into_iter()
                    .map(|h| if h & 0x7C00 == 0x7C00 { h & 0xBFFF } else { h })
                    .collect(),
                &[
                    0x0000, 0x8000, 0x0001, 0x83FF, 0x7C00, 0xFC00, 0x7E00, 0x7BFF, 0x0400,
                ],
            ))
            .buf(edges(
                wide_f32(N, 21, -26, 17),
                &[
                    65504.0,
                    65519.0,
                    65520.0,
                    1e9,
                    -1e9,
                    f32::INFINITY,
                    1e-6,
                    -3e-8,
                    2.9802322e-8,
                    0.0,
                    -0.0,
                    f32::from_bits(5),
                    1.000_976_6,
                    1.000_488_3,
                ],
            ))
            .out::<f32>(N)
            .out::<u16>(2 * N)
            .expect_f32(2, 0, |r| {
                r.input::<u16>(0).iter().map(|h| f16_to_f32(*h)).collect()
            })
            .expect(3, |r| {
                r.input::<f32>(1)
                    .iter()
                    .flat_map(|x| [f32_to_f16(*x, false), f32_to_f16(*x, true)])
                    .collect()
            }),
        // Add and mul are correctly rounded in half; division within 1 ulp.
        // f32 evaluation then rounding to half is exact for these (24 >= 2*11+2).
        case(F, "f_half_arith")
            .global(&[N])
            .buf(edges(
                moderate_halves(N, 22),
                &[0x7C00, 0x0000, 0x7E00, 0x3C00],
            ))
            .buf(edges(
                moderate_halves(N, 23),
                &[0x3C00, 0x3C00, 0x3C00, 0x8000],
            ))
            .out::<u16>(3 * N)
            .check(|r| {
                let (a, b, got) = (r.input::<u16>(0), r.input::<u16>(1), r.output::<u16>(2));
                for i in 0..N {
                    let (x, y) = (f16_to_f32(a[i]), f16_to_f32(b[i]));
                    let want = [x + y, x * y, x / y].map(|v| f32_to_f16(v, false));
                    for k in 0..3 {
                        let g = got[3 * i + k];
                        let w = want[k];
                        let nan = |h: u16| h & 0x7C00 == 0x7C00 && h & 0x3FF != 0;
                        let same_sign = (g ^ w) & 0x8000 == 0;
                        let ok = g == w
                            || (nan(g) && nan(w))
                            || (k == 2 && same_sign && !nan(g) && (g as i32 - w as i32).abs() <= 1);
                        if !ok {
                            return Err(format!(
                                "[{i}] op {k}: {x} {y} gave {g:#06x} want {w:#06x}"
                            ));
                        }
                    }
                }
                Ok(())
            }),
        case(F, "f_ldexp_frexp")
            .global(&[N])
            .buf(edges(
                wide_f32(N, 24, -60, 60),
                &[0.0, -0.0, 1.0, 1.5, 0.75],
            ))
            .buf(edges(rand_i32(N, 25, -20, 21), &[3, 1, 0, 200, -1]))
            .out::<f32>(2 * N)
            .out::<i32>(N)
            .expect_f32(2, 0, |r| {
                let (a, n) = (r.input::<f32>(0), r.input::<i32>(1));
                (0..N)
                    .flat_map(|i| [frexp32(a[i]).0, a[i] * 2f32.powi(n[i])])
                    .collect()
            })
            .expect(3, |r| {
                r.input::<f32>(0).iter().map(|x| frexp32(*x).1).collect()
            }),
        // a * s + b may be contracted to one mad (FP_CONTRACT is on in OpenCL C).
        case(F, "f_vector_scale")
            .global(&[N / 8])
            .buf(rand_f32(N, 26, -100.0, 100.0))
            .val(1.7f32)
            .out::<f32>(N)
            .check(|r| {
                let (a, s, got) = (r.input::<f32>(0), r.value::<f32>(1), r.output::<f32>(2));
                for i in 0..N {
                    let (x, y) = (a[i], a[i - i % 8 + 7 - i % 8]);
                    let (fused, plain) = (x.mul_add(s, y), x * s + y);
                    if got[i] != fused && got[i] != plain {
                        return Err(format!(
                            "[{i}] got {:e} want {fused:e} or {plain:e}",
                            got[i]
                        ));
                    }
                }
                Ok(())
            }),
        case(F, "f_row_sum")
            .global(&[8, 4])
            .local(&[4, 2])
            .buf(rand_f32(32 * 16, 27, -1.0, 1.0))
            .val(16i32)
            .out::<f32>(32)
            .expect_f32(2, 0, |r| {
                let (a, n) = (r.input::<f32>(0), r.value::<i32>(1) as usize);
                (0..32)
                    .map(|row| a[row * n..row * n + n].iter().fold(0.0f32, |s, x| s + x))
                    .collect()
            }),
    ];
    // The dot/cross bounds of OpenCL's geometric functions scale with the
    // largest input squared; length and normalize are checked relatively.
    v.push(
        case(F, "f_geometric")
            .global(&[N / 4])
            .buf(rand_f32(N, 28, -10.0, 10.0))
            .buf(rand_f32(N, 29, -10.0, 10.0))
            .out::<f32>(2 * (N / 4))
            .out::<f32>(2 * N)
            .check(|r| {
                let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
                let (d, v) = (r.output::<f32>(2), r.output::<f32>(3));
                let eps = f32::EPSILON as f64;
                for i in 0..N / 4 {
                    let x: Vec<f64> = a[4 * i..4 * i + 4].iter().map(|t| *t as f64).collect();
                    let y: Vec<f64> = b[4 * i..4 * i + 4].iter().map(|t| *t as f64).collect();
                    let m = x.iter().chain(&y).fold(0.0f64, |m, t| m.max(t.abs()));
                    let dot: f64 = (0..4).map(|k| x[k] * y[k]).sum();
                    let len = x.iter().map(|t| t * t).sum::<f64>().sqrt();
                    let cross = [
                        x[1] * y[2] - x[2] * y[1],
                        x[2] * y[0] - x[0] * y[2],
                        x[0] * y[1] - x[1] * y[0],
                        0.0,
                    ];
                    let mut bad = Vec::new();
                    if (d[2 * i] as f64 - dot).abs() > m * m * 7.0 * eps {
                        bad.push(format!("dot {} want {dot}", d[2 * i]));
                    }
                    if (d[2 * i + 1] as f64 - len).abs() > len * 8.0 * eps {
                        bad.push(format!("length {} want {len}", d[2 * i + 1]));
                    }
                    for k in 0..4 {
                        if (v[8 * i + k] as f64 - cross[k]).abs() > m * m * 3.0 * eps {
                            bad.push(format!("cross[{k}] {} want {}", v[8 * i + k], cross[k]));
                        }
                        let n = x[k] / len;
                        if (v[8 * i + 4 + k] as f64 - n).abs() > 8.0 * eps {
                            bad.push(format!("normalize[{k}] {} want {n}", v[8 * i + 4 + k]));
                        }
                    }
                    if !bad.is_empty() {
                        return Err(format!("item {i}: {}", bad.join(", ")));
                    }
                }
                Ok(())
            }),
    );
    v
}
