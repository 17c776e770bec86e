//! Cases of tests/jit/geometric.cl: dot, length, distance and normalize against
//! double-precision references (double cases against the same formulas in f64, within a few
//! ulps: the spec bounds these by sums of per-operation errors), and the common functions
//! (clamp, step and sign exact; mix, smoothstep and degrees within a few ulps).
use crate::igc::harness::*;

const F: &str = "geometric.cl";

/// |got - want| within `ulps` units of `eps` relative to max(|want|, `floor`).
fn close(got: &[f64], want: &[f64], eps: f64, ulps: f64) -> Result<(), String> {
    close_above(got, want, eps, ulps, f64::MIN_POSITIVE)
}

fn close_above(got: &[f64], want: &[f64], eps: f64, ulps: f64, floor: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} values, want {}", got.len(), want.len()));
    }
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| (*g - *w).abs() > ulps * eps * w.abs().max(floor))
        .take(6)
        .map(|(k, (g, w))| format!("[{k}] got {g:e} want {w:e}"))
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join(", "))
    }
}

fn geo_ref(x: &[f64], y: &[f64]) -> ([f64; 3], Vec<f64>) {
    let dot: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
    let len = x.iter().map(|a| a * a).sum::<f64>().sqrt();
    let dist = x
        .iter()
        .zip(y)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt();
    ([dot, len, dist], x.iter().map(|a| a / len).collect())
}

macro_rules! geo_case {
    ($out:ident, $t:ty, $name:literal, $n:expr, $eps:expr, $seed:expr) => {{
        let items = 64;
        let n: usize = $n;
        let mut r = Rng::new($seed);
        let mut rnd = || (0.5 + 1.5 * (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64) as $t;
        let a: Vec<$t> = (0..items * n).map(|_| rnd()).collect();
        let b: Vec<$t> = (0..items * n).map(|_| -rnd()).collect();
        $out.push(
            case(F, concat!("geo_", $name))
                .global(&[items])
                .buf(a)
                .buf(b)
                .out::<$t>(3 * items)
                .out::<$t>(n * items)
                .check(move |r| {
                    let (a, b) = (r.input::<$t>(0), r.input::<$t>(1));
                    let mut scalars = Vec::new();
                    let mut norms = Vec::new();
                    for i in 0..items {
                        let x: Vec<f64> = a[i * n..i * n + n].iter().map(|v| *v as f64).collect();
                        let y: Vec<f64> = b[i * n..i * n + n].iter().map(|v| *v as f64).collect();
                        let (s, v) = geo_ref(&x, &y);
                        scalars.extend(s);
                        norms.extend(v);
                    }
                    let got = |k| {
                        r.output::<$t>(k)
                            .iter()
                            .map(|v| *v as f64)
                            .collect::<Vec<_>>()
                    };
                    close(&got(2), &scalars, $eps, 4.0 * n as f64)?;
                    close(&got(3), &norms, $eps, 4.0 * n as f64)
                }),
        );
    }};
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let (fe, de) = (f32::EPSILON as f64, f64::EPSILON);
    geo_case!(v, f32, "float2", 2, fe, 3000);
    geo_case!(v, f32, "float3", 3, fe, 3001);
    geo_case!(v, f32, "float4", 4, fe, 3002);
    geo_case!(v, f64, "double2", 2, de, 3003);
    geo_case!(v, f64, "double3", 3, de, 3004);
    geo_case!(v, f64, "double4", 4, de, 3005);
    for (k, (n, suffix)) in [(1usize, ""), (2, "2"), (4, "4"), (8, "8"), (16, "16")]
        .into_iter()
        .enumerate()
    {
        let kernel: &'static str = Box::leak(format!("common_float{suffix}").into());
        let items = 32;
        let count = items * n;
        let mut a = rand_f32(count, 3100 + k as u64, -3.0, 3.0);
        a[0] = 0.5;
        a[1] = -0.0;
        a[2] = 0.0;
        a[3] = -1.0;
        v.push(
            case(F, kernel)
                .global(&[items])
                .buf(a)
                .buf(rand_f32(count, 3200 + k as u64, -3.0, 3.0))
                .out::<f32>(6 * count)
                .check(move |r| {
                    let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
                    let got = r.output::<f32>(2);
                    let mut exact = Vec::new();
                    let mut exact_want = Vec::new();
                    let mut approx = Vec::new();
                    let mut approx_want = Vec::new();
                    for i in 0..items {
                        for c in 0..n {
                            let (x, y) = (a[i * n + c] as f64, b[i * n + c] as f64);
                            let t = ((x + 1.0) / 2.0).clamp(0.0, 1.0);
                            let at = |op: usize| got[(6 * i + op) * n + c];
                            for (op, w) in [
                                (0, x.clamp(-1.0, 1.0)),
                                (2, if x < 0.5 { 0.0 } else { 1.0 }),
                                (
                                    5,
                                    if x > 0.0 {
                                        1.0
                                    } else if x < 0.0 {
                                        -1.0
                                    } else {
                                        x
                                    },
                                ),
                            ] {
                                exact.push(at(op).to_bits());
                                exact_want.push((w as f32).to_bits());
                            }
                            // mix's error is relative to its operands (x + (y - x) * a
                            // cancels near zero): compared as the difference scaled by them.
                            let scale = x.abs().max(y.abs()).max(1.0);
                            for (op, w, s) in [
                                (1, x + (y - x) * 0.25, scale),
                                (3, t * t * (3.0 - 2.0 * t), 1.0),
                                (4, x * (180.0 / std::f64::consts::PI), 1.0),
                            ] {
                                approx.push(at(op) as f64 / s);
                                approx_want.push(w / s);
                            }
                        }
                    }
                    expect_eq(&exact, &exact_want)?;
                    // Results of magnitude below one: an absolute bound of 4 eps.
                    close_above(&approx, &approx_want, f32::EPSILON as f64, 4.0, 1.0)
                }),
        );
    }
    v
}
