//! Cases of tests/jit/math.cl: each function against its CPU reference, computed in
//! double from the float inputs and rounded, within the OpenCL C spec's ULP limit
//! for single precision (OpenCL C 3.0, "Relative Error as ULPs").
use crate::igc::harness::*;

const F: &str = "math.cl";

fn unary(name: &'static str, lo: f32, hi: f32, ulps: u32, f: fn(f64) -> f64, seed: u64) -> Case {
    case(F, name)
        .global(&[256])
        .buf(rand_f32(256, seed, lo, hi))
        .out::<f32>(256)
        .expect_f32(1, ulps, move |r| {
            r.input::<f32>(0)
                .iter()
                .map(|&x| f(x as f64) as f32)
                .collect()
        })
}

#[allow(clippy::too_many_arguments)]
fn binary(
    name: &'static str,
    a: (f32, f32),
    b: (f32, f32),
    ulps: u32,
    f: fn(f64, f64) -> f64,
    seed: u64,
) -> Case {
    case(F, name)
        .global(&[256])
        .buf(rand_f32(256, seed, a.0, a.1))
        .buf(rand_f32(256, seed + 1000, b.0, b.1))
        .out::<f32>(256)
        .expect_f32(2, ulps, move |r| {
            let (x, y) = (r.input::<f32>(0), r.input::<f32>(1));
            x.iter()
                .zip(&y)
                .map(|(&x, &y)| f(x as f64, y as f64) as f32)
                .collect()
        })
}

/// A double function within `ulps` (the spec's limit for double, plus one for the Rust
/// reference's own error: libm is within an ulp, not correctly rounded).
fn d_unary(name: &'static str, lo: f64, hi: f64, ulps: u64, f: fn(f64) -> f64, seed: u64) -> Case {
    case(F, name)
        .global(&[256])
        .buf(rand_f64(256, seed, lo, hi))
        .out::<f64>(256)
        .expect_f64(1, ulps + 1, move |r| {
            r.input::<f64>(0).iter().map(|&x| f(x)).collect()
        })
}

#[allow(clippy::too_many_arguments)]
fn d_binary(
    name: &'static str,
    a: (f64, f64),
    b: (f64, f64),
    ulps: u64,
    f: fn(f64, f64) -> f64,
    seed: u64,
) -> Case {
    case(F, name)
        .global(&[256])
        .buf(rand_f64(256, seed, a.0, a.1))
        .buf(rand_f64(256, seed + 1000, b.0, b.1))
        .out::<f64>(256)
        .expect_f64(2, ulps + 1, move |r| {
            let (x, y) = (r.input::<f64>(0), r.input::<f64>(1));
            x.iter().zip(&y).map(|(&x, &y)| f(x, y)).collect()
        })
}

/// Double division, correctly rounded (0 ulp).
fn d_div(kernel: &'static str) -> Case {
    case(F, kernel)
        .global(&[256])
        .buf(rand_f64(256, 50, -1e10, 1e10))
        .buf(rand_f64(256, 51, -1e-5, 1e5))
        .out::<f64>(256)
        .expect_f64(2, 0, |r| {
            let (a, b) = (r.input::<f64>(0), r.input::<f64>(1));
            a.iter().zip(&b).map(|(x, y)| x / y).collect()
        })
}

/// Double square root, correctly rounded (0 ulp).
fn d_sqrt(kernel: &'static str) -> Case {
    case(F, kernel)
        .global(&[256])
        .buf(rand_f64(256, 52, 0.0, 1e300))
        .out::<f64>(256)
        .expect_f64(1, 0, |r| {
            r.input::<f64>(0).iter().map(|x| x.sqrt()).collect()
        })
}

pub fn cases() -> Vec<Case> {
    let mut v = double_cases();
    v.extend(float_cases());
    v.push(pi_exact::<f32>("m_pi_exact", 1e-6));
    v.push(pi_exact::<f64>("d_pi_exact", 1e-14));
    v.push(d_ldexp());
    v.push(m_tgamma());
    v.push(d_tgamma());
    v.push(d_div8());
    v
}

/// Double8 division, correctly rounded, bit for bit: random quotients in every component,
/// and in some elements an infinity, a zero or a huge or tiny operand (inf / x was a NaN
/// in the first three of four interleaved divisions).
fn d_div8() -> Case {
    let mut a = rand_f64(512, 60, -1e10, 1e10);
    let mut b = rand_f64(512, 61, -1e-5, 1e5);
    let special = [
        (f64::INFINITY, -f64::MAX),
        (f64::NEG_INFINITY, 3.0),
        (1.0, 0.0),
        (0.0, -2.5),
        (1e300, 1e-300),
        (1e-300, 1e300),
        (f64::from_bits(0x1ead_beef_0000_0001), -f64::MAX),
    ];
    for (k, &(x, y)) in special.iter().enumerate() {
        for e in (0..512).filter(|e| e % 13 == k) {
            a[e] = x;
            b[e] = y;
        }
    }
    case(F, "d_div8")
        .global(&[64])
        .buf(a)
        .buf(b)
        .out::<f64>(512)
        .expect_f64(2, 0, |r| {
            let (a, b) = (r.input::<f64>(0), r.input::<f64>(1));
            a.iter().zip(&b).map(|(x, y)| x / y).collect()
        })
}

/// tgamma(double) within OpenCL's 16 ulps of mpmath's gamma correctly rounded
/// (`tgamma_ref.rs`, made by scripts/tgamma_lanczos.py), and bit for bit at the special
/// values and the factorials below 2^52.
fn d_tgamma() -> Case {
    let special: [(f64, f64); 12] = [
        (0.0, f64::INFINITY),
        (-0.0, f64::NEG_INFINITY),
        (f64::INFINITY, f64::INFINITY),
        (f64::NEG_INFINITY, f64::NAN),
        (f64::NAN, f64::NAN),
        (-1.0, f64::NAN),
        (-171.0, f64::NAN),
        (-1e300, f64::NAN),
        (3.0, 2.0),
        (5.0, 24.0),
        (10.0, 362_880.0),
        (18.0, 355_687_428_096_000.0),
    ];
    let table = super::tgamma_ref::TGAMMA_F64.map(|(x, g)| (f64::from_bits(x), f64::from_bits(g)));
    let all: Vec<(f64, f64)> = table.iter().chain(&special).copied().collect();
    let xs: Vec<f64> = all.iter().map(|p| p.0).collect();
    let want: Vec<f64> = all.iter().map(|p| p.1).collect();
    let exact = want.clone();
    case(F, "d_tgamma")
        .global(&[all.len()])
        .buf(xs)
        .out::<f64>(all.len())
        .expect_f64(1, 16, move |_| want.clone())
        .check(move |r| {
            let got = r.output::<f64>(1);
            let n = exact.len() - special.len();
            for (k, (&g, &w)) in got.iter().zip(&exact).enumerate().skip(n) {
                let same = (g.is_nan() && w.is_nan()) || g.to_bits() == w.to_bits();
                if !same {
                    return Err(format!("tgamma({:e}) = {g:e}, not {w:e}", special[k - n].0));
                }
            }
            Ok(())
        })
}

/// tgamma(float) within OpenCL's 16 ulps of libm's double tgamma, rounded.
fn m_tgamma() -> Case {
    let mut r = Rng::new(91);
    let xs: Vec<f32> = (0..256usize)
        .map(|k| {
            let u = (r.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            match k % 4 {
                0 => f32::from_bits(0x0080_0000 + (r.next_u64() >> 40) as u32 % 0x0c00_0000),
                1 => 1.0 + 34.0 * u,
                // Negative, away from the poles.
                // Past -43 every gamma underflows a float: a zero of gamma's sign.
                2 if k % 8 == 6 => -43.05 - 130.0 * u,
                2 => -((k / 4 % 20) as f32) - 0.05 - 0.9 * u,
                _ => [0.0, -0.0, 0.5, 1.0, 2.0, 3.0, 34.5, 1e-20][k / 4 % 8],
            }
        })
        .collect();
    case(F, "m_tgamma")
        .global(&[256])
        .buf(xs)
        .out::<f32>(256)
        .expect_f32(1, 16, |r| {
            r.input::<f32>(0)
                .iter()
                .map(|&x| {
                    let x = f64::from(x);
                    if x < -43.0 {
                        // Below the float range: the sign is gamma's, (-1)^n on (-n-1, -n).
                        let even = x.floor().rem_euclid(2.0) == 0.0;
                        if even {
                            0.0
                        } else {
                            -0.0
                        }
                    } else {
                        libm::tgamma(x) as f32
                    }
                })
                .collect()
        })
}

/// ldexp(double, int) against x·2^n rounded once (one multiplication, exact for n in
/// [-1022, 1023]), and the limits: a NaN stays a NaN, ±2^30 overflow or underflow.
fn d_ldexp() -> Case {
    let mut r = Rng::new(90);
    let special = [
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.0,
        -0.0,
        f64::from_bits(1),
        -f64::from_bits(0x000F_FFFF_FFFF_FFFF),
        f64::MAX,
        1.0,
    ];
    let steps = [
        0,
        1,
        -1,
        5,
        -5,
        1023,
        -1022,
        1 << 30,
        -(1 << 30),
        60,
        -60,
        i32::MIN,
        i32::MAX,
    ];
    let mut xs = Vec::new();
    let mut ns = Vec::new();
    for k in 0..256usize {
        let x = if k % 2 == 0 {
            special[k / 2 % special.len()]
        } else {
            f64::from_bits(r.next_u64() >> 2)
        };
        xs.push(if k % 4 == 3 { -x } else { x });
        ns.push(steps[k / 3 % steps.len()]);
    }
    case(F, "d_ldexp")
        .global(&[256])
        .buf(xs)
        .buf(ns)
        .out::<f64>(256)
        .check(|r| {
            let (xs, ns, got) = (r.input::<f64>(0), r.input::<i32>(1), r.output::<f64>(2));
            let mut bad = Vec::new();
            for i in 0..256 {
                let (x, n) = (xs[i], ns[i]);
                let want = if x.is_nan() || x == 0.0 || x.is_infinite() {
                    x
                } else if n > 2100 {
                    f64::INFINITY.copysign(x)
                } else if n < -2100 {
                    0f64.copysign(x)
                } else {
                    x * 2f64.powi(n)
                };
                let ok = if want.is_nan() {
                    got[i].is_nan()
                } else {
                    got[i].to_bits() == want.to_bits()
                };
                if !ok {
                    bad.push(format!("ldexp({x:e}, {n}) = {:e}, want {want:e}", got[i]));
                }
            }
            wrong(&bad, 6)
        })
}

/// A check's verdict from its list of wrong elements (the first `show` of them shown).
fn wrong(bad: &[String], show: usize) -> Result<(), String> {
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} wrong: {}",
            bad.len(),
            bad[..bad.len().min(show)].join("; ")
        ))
    }
}

/// Arguments where sinpi, cospi and tanpi are exact: the integers and halves from -16 to
/// 16, both zeros, odd integers past 2^23 and 2^52, even ones past 2^24.
fn pi_points() -> Vec<f64> {
    let mut v: Vec<f64> = (-32..=32).map(|k| f64::from(k) / 2.0).collect();
    v.push(-0.0);
    v.extend([8388609.0, -8388609.0, 16777218.0, -16777218.0, 1e30, -1e30]);
    v.extend([9007199254740991.0, -9007199254740991.0]);
    v
}

/// sinpi, cospi, tanpi and atanpi of `x` (exact but atanpi away from zero), from OpenCL
/// C's special values: sinpi(n) = copysign(0, n), cospi(n + 0.5) = +0, tanpi(n) =
/// copysign(0, n) for even n and copysign(0, -n) for odd n, tanpi(n + 0.5) = +inf for even
/// n and -inf for odd n, atanpi(±0) = ±0.
fn pi_reference(x: f64) -> [f64; 4] {
    let at = (x.atan() / std::f64::consts::PI).copysign(x);
    if x.fract() == 0.0 {
        let odd = x.abs() % 2.0 == 1.0;
        let sign = if odd { -1.0 } else { 1.0 };
        return [0f64.copysign(x), sign, 0f64.copysign(sign * x), at];
    }
    let m = x - 0.5;
    assert_eq!(m.fract(), 0.0, "{x} is no half");
    let odd = m.rem_euclid(2.0) == 1.0;
    let sign = if odd { -1.0 } else { 1.0 };
    [sign, 0.0, sign * f64::INFINITY, at]
}

trait PiFloat: Elem + Copy {
    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
    fn bits(self) -> u64;
}
impl PiFloat for f32 {
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}
impl PiFloat for f64 {
    fn from_f64(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// The four built-ins at `pi_points`, bit for bit (atanpi away from zero within `rel`).
fn pi_exact<T: PiFloat + 'static>(name: &'static str, rel: f64) -> Case {
    let xs: Vec<T> = pi_points().into_iter().map(T::from_f64).collect();
    let n = xs.len();
    case(F, name)
        .global(&[n])
        .buf(xs)
        .out::<T>(4 * n)
        .check(move |r| {
            let (xs, got) = (r.input::<T>(0), r.output::<T>(1));
            let mut bad = Vec::new();
            for (i, x) in xs.iter().enumerate() {
                let want = pi_reference(x.to_f64());
                for (k, (&g, &w)) in got[4 * i..4 * i + 4].iter().zip(&want).enumerate() {
                    let w = T::from_f64(w);
                    let ok = if k == 3 && w.to_f64() != 0.0 {
                        (g.to_f64() - w.to_f64()).abs() <= rel * w.to_f64().abs()
                    } else {
                        g.bits() == w.bits()
                    };
                    if !ok {
                        let f = ["sinpi", "cospi", "tanpi", "atanpi"][k];
                        bad.push(format!(
                            "{f}({}) = {:?}, want {:?}",
                            x.to_f64(),
                            g.to_f64(),
                            w.to_f64()
                        ));
                    }
                }
            }
            wrong(&bad, 8)
        })
}

fn double_cases() -> Vec<Case> {
    vec![
        d_unary("d_exp2", -1000.0, 1000.0, 3, |x| x.exp2(), 60),
        d_unary("d_expm1", -30.0, 30.0, 3, |x| x.exp_m1(), 61),
        d_unary("d_log", 1e-300, 1e300, 3, |x| x.ln(), 62),
        d_unary("d_log2", 1e-300, 1e300, 3, |x| x.log2(), 63),
        d_unary("d_log10", 1e-300, 1e300, 3, |x| x.log10(), 64),
        d_unary("d_log1p", -0.9, 1e10, 2, |x| x.ln_1p(), 65),
        d_unary("d_cos", -100.0, 100.0, 4, |x| x.cos(), 66),
        d_unary("d_tan", -1.5, 1.5, 5, |x| x.tan(), 67),
        d_unary("d_asin", -1.0, 1.0, 4, |x| x.asin(), 68),
        d_unary("d_atan", -1e5, 1e5, 5, |x| x.atan(), 69),
        d_unary("d_sinh", -300.0, 300.0, 4, |x| x.sinh(), 70),
        d_unary("d_tanh", -20.0, 20.0, 5, |x| x.tanh(), 71),
        d_unary("d_cbrt", -1e300, 1e300, 2, |x| x.cbrt(), 72),
        d_binary(
            "d_pow",
            (1e-3, 1e3),
            (-50.0, 50.0),
            16,
            |x, y| x.powf(y),
            73,
        ),
        d_binary(
            "d_atan2",
            (-1e3, 1e3),
            (-1e3, 1e3),
            6,
            |x, y| x.atan2(y),
            74,
        ),
        d_binary(
            "d_hypot",
            (-1e150, 1e150),
            (-1e150, 1e150),
            4,
            |x, y| x.hypot(y),
            75,
        ),
        d_binary("d_fmod", (-1e10, 1e10), (0.5, 1e5), 0, |x, y| x % y, 76),
    ]
}

fn float_cases() -> Vec<Case> {
    vec![
        unary("m_exp", -80.0, 80.0, 3, |x| x.exp(), 1),
        unary("m_exp2", -120.0, 120.0, 3, |x| x.exp2(), 2),
        unary("m_exp10", -30.0, 30.0, 3, |x| 10f64.powf(x), 3),
        unary("m_expm1", -10.0, 10.0, 3, |x| x.exp_m1(), 4),
        unary("m_log", 0.001, 1e6, 3, |x| x.ln(), 5),
        unary("m_log2", 0.001, 1e6, 3, |x| x.log2(), 6),
        unary("m_log10", 0.001, 1e6, 3, |x| x.log10(), 7),
        unary("m_log1p", -0.9, 1e4, 2, |x| x.ln_1p(), 8),
        unary("m_asin", -1.0, 1.0, 4, |x| x.asin(), 9),
        unary("m_acos", -1.0, 1.0, 4, |x| x.acos(), 10),
        unary("m_atan", -100.0, 100.0, 5, |x| x.atan(), 11),
        unary("m_sinh", -20.0, 20.0, 4, |x| x.sinh(), 12),
        unary("m_cosh", -20.0, 20.0, 4, |x| x.cosh(), 13),
        unary("m_tanh", -10.0, 10.0, 5, |x| x.tanh(), 14),
        unary("m_asinh", -1e4, 1e4, 4, |x| x.asinh(), 15),
        unary("m_acosh", 1.0, 1e4, 4, |x| x.acosh(), 16),
        unary("m_atanh", -0.999, 0.999, 5, |x| x.atanh(), 17),
        unary("m_cbrt", -1e6, 1e6, 2, |x| x.cbrt(), 18),
        unary("m_sqrt", 0.0, 1e6, 3, |x| x.sqrt(), 19),
        unary("m_logb", 0.001, 1e6, 0, |x| x.abs().log2().floor(), 20),
        binary("m_pow", (0.01, 10.0), (-8.0, 8.0), 16, |x, y| x.powf(y), 21),
        binary(
            "m_atan2",
            (-100.0, 100.0),
            (-100.0, 100.0),
            6,
            |x, y| x.atan2(y),
            22,
        ),
        binary(
            "m_hypot",
            (-1000.0, 1000.0),
            (-1000.0, 1000.0),
            4,
            |x, y| x.hypot(y),
            23,
        ),
        binary(
            "m_fmod",
            (-1000.0, 1000.0),
            (0.5, 50.0),
            0,
            |x, y| x % y,
            24,
        ),
        binary(
            "m_powr",
            (0.01, 10.0),
            (-8.0, 8.0),
            16,
            |x, y| x.powf(y),
            25,
        ),
        // sin, cos, tan: 4 ulp; the large arguments take libclc's Payne-Hanek reduction.
        unary("m_sin", -10.0, 10.0, 4, |x| x.sin(), 40),
        unary("m_cos", -10.0, 10.0, 4, |x| x.cos(), 41),
        unary("m_tan", -1.5, 1.5, 5, |x| x.tan(), 42),
        unary("m_sin_large", -1e6, 1e6, 4, |x| x.sin(), 43),
        // Double: division and square root correctly rounded (0 ulp), exp 3 ulp, sin 4.
        d_div("d_div"),
        d_sqrt("d_sqrt"),
        // The same at SIMD32 (intel_reqd_sub_group_size(32)).
        d_div("d_div32"),
        d_sqrt("d_sqrt32"),
        case(F, "d_exp")
            .global(&[256])
            .buf(rand_f64(256, 53, -700.0, 700.0))
            .out::<f64>(256)
            .expect_f64(1, 3, |r| {
                r.input::<f64>(0).iter().map(|x| x.exp()).collect()
            }),
        case(F, "d_sin")
            .global(&[256])
            .buf(rand_f64(256, 54, -100.0, 100.0))
            .out::<f64>(256)
            .expect_f64(1, 4, |r| {
                r.input::<f64>(0).iter().map(|x| x.sin()).collect()
            }),
    ]
}
