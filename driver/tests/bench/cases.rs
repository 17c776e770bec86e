//! The benchmark corpus: one `Case` per kernel of `tests/bench/corpus/*.cl`, with its inputs,
//! ND-range and CPU reference. `scale` multiplies the problem sizes (1 in the short mode).
use super::harness::*;

/// Floats within `rel * scale[i]` of `want[i]` (a NaN anywhere differs): for sums whose
/// rounding depends on the order or on contraction, `scale` being the sum of the terms'
/// magnitudes.
fn close(got: &[f64], want: &[f64], scale: &[f64], rel: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} values, {} expected", got.len(), want.len()));
    }
    let off = |i: usize| {
        let (g, w) = (got[i], want[i]);
        g.is_nan() || w.is_nan() || (g - w).abs() > rel * scale[i].abs().max(1e-30)
    };
    let bad: Vec<String> = (0..got.len())
        .filter(|&i| off(i))
        .take(6)
        .map(|i| format!("[{i}] got {} want {}", got[i], want[i]))
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let n = (0..got.len()).filter(|&i| off(i)).count();
    Err(format!("{n} of {} differ: {}", got.len(), bad.join(", ")))
}

/// Buffer `arg` of f32 within `rel` of `reference(run)` = (value, scale) pairs.
fn expect_close_f32(
    c: Case,
    arg: usize,
    rel: f64,
    reference: impl Fn(&Run) -> Vec<(f64, f64)> + 'static,
) -> Case {
    c.check(move |r| {
        let got: Vec<f64> = r.output::<f32>(arg).into_iter().map(f64::from).collect();
        let (want, scale): (Vec<f64>, Vec<f64>) = reference(r).into_iter().unzip();
        close(&got, &want, &scale, rel).map_err(|e| format!("argument {arg}: {e}"))
    })
}

/// The same for f64 buffers.
fn expect_close_f64(
    c: Case,
    arg: usize,
    rel: f64,
    reference: impl Fn(&Run) -> Vec<(f64, f64)> + 'static,
) -> Case {
    c.check(move |r| {
        let got = r.output::<f64>(arg);
        let (want, scale): (Vec<f64>, Vec<f64>) = reference(r).into_iter().unzip();
        close(&got, &want, &scale, rel).map_err(|e| format!("argument {arg}: {e}"))
    })
}

/// f32 -> f16 bits, round to nearest even (normal and subnormal results; no NaN inputs).
pub fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let a = x.abs();
    if a.is_infinite() || a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f32.powi(-14) {
        // Subnormal half: a multiple of 2^-24, rounded to nearest even.
        let q = f64::from(a) * 2f64.powi(24);
        let r = q.round_ties_even() as u16;
        return sign | r;
    }
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let m = b & 0x7f_ffff;
    // 13 bits to drop, ties to even; a carry out of the mantissa bumps the exponent.
    let mut h = ((e as u32) << 10) | (m >> 13);
    let rest = m & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

/// f16 bits -> f32 (exact).
pub fn f16_value(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f32::from(h & 0x3ff);
    match e {
        0 => sign * m * 2f32.powi(-24),
        31 => {
            if m == 0.0 {
                sign * f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => sign * (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    }
}

/// Round an f32 to the nearest half and back.
fn h(x: f32) -> f32 {
    f16_value(f16_bits(x))
}

/// Halves in `[lo, hi)` as bits.
fn rand_half(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<u16> {
    rand_f32(n, seed, lo, hi)
        .into_iter()
        .map(f16_bits)
        .collect()
}

/// Buffer `arg` of halves (positive) within one half-ulp of `reference(run)`.
fn expect_half(c: Case, arg: usize, reference: impl Fn(&Run) -> Vec<u16> + 'static) -> Case {
    c.check(move |r| {
        let (got, want) = (r.output::<u16>(arg), reference(r));
        if got.len() != want.len() {
            return Err(format!(
                "argument {arg}: {} halves, {}",
                got.len(),
                want.len()
            ));
        }
        let bad: Vec<String> = got
            .iter()
            .zip(&want)
            .enumerate()
            .filter(|(_, (g, w))| (i32::from(**g) - i32::from(**w)).abs() > 1)
            .take(6)
            .map(|(i, (g, w))| format!("[{i}] got {g:#06x} want {w:#06x}"))
            .collect();
        if bad.is_empty() {
            Ok(())
        } else {
            Err(format!("argument {arg}: {}", bad.join(", ")))
        }
    })
}

fn per_group<T: Copy, U>(a: &[T], n: usize, f: impl Fn(&[T]) -> Vec<U>) -> Vec<U> {
    a.chunks(n).flat_map(f).collect()
}

/// A pairwise tree sum as the kernels' __local loops do it (s[l] += s[l + w], w halving).
fn tree_sum<T: Copy + std::ops::Add<Output = T>>(c: &[T]) -> T {
    let mut s = c.to_vec();
    let mut w = s.len() / 2;
    while w > 0 {
        for l in 0..w {
            s[l] = s[l] + s[l + w];
        }
        w /= 2;
    }
    s[0]
}

fn inclusive(c: &[i32]) -> Vec<i32> {
    c.iter()
        .scan(0i32, |s, &x| {
            *s = s.wrapping_add(x);
            Some(*s)
        })
        .collect()
}

fn md5_k() -> Vec<u32> {
    (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32)
        .collect()
}

fn sha256_k() -> Vec<u32> {
    let mut primes = Vec::new();
    let mut p = 2u32;
    while primes.len() < 64 {
        if (2..p).all(|d| !p.is_multiple_of(d)) {
            primes.push(p);
        }
        p += 1;
    }
    primes
        .iter()
        .map(|&p| (f64::from(p).cbrt().fract() * 4294967296.0) as u32)
        .collect()
}

fn md5(m: &[u32], k: &[u32]) -> [u32; 4] {
    let iv = [0x67452301u32, 0xefcdab89, 0x98badcfe, 0x10325476];
    let [mut a, mut b, mut c, mut d] = iv;
    const S: [[u32; 4]; 4] = [
        [7, 12, 17, 22],
        [5, 9, 14, 20],
        [4, 11, 16, 23],
        [6, 10, 15, 21],
    ];
    for i in 0..64usize {
        let (f, g) = match i >> 4 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) & 15),
            2 => (b ^ c ^ d, (3 * i + 5) & 15),
            _ => (c ^ (b | !d), (7 * i) & 15),
        };
        let f = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(m[g]);
        a = d;
        d = c;
        c = b;
        b = b.wrapping_add(f.rotate_left(S[i >> 4][i & 3]));
    }
    [
        a.wrapping_add(iv[0]),
        b.wrapping_add(iv[1]),
        c.wrapping_add(iv[2]),
        d.wrapping_add(iv[3]),
    ]
}

fn sha256(m: &[u32], k: &[u32]) -> [u32; 8] {
    let iv = [
        0x6a09e667u32,
        0xbb67ae85,
        0x3c6ef372,
        0xa54ff53a,
        0x510e527f,
        0x9b05688c,
        0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut w = [0u32; 64];
    w[..16].copy_from_slice(&m[..16]);
    for t in 16..64 {
        let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = s1
            .wrapping_add(w[t - 7])
            .wrapping_add(s0)
            .wrapping_add(w[t - 16]);
    }
    let mut s = iv;
    for t in 0..64 {
        let [a, b, c, d, e, f, g, h] = s;
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = h
            .wrapping_add(s1)
            .wrapping_add(ch)
            .wrapping_add(k[t])
            .wrapping_add(w[t]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let mj = (a & b) ^ (a & c) ^ (b & c);
        s = [
            t1.wrapping_add(s0.wrapping_add(mj)),
            a,
            b,
            c,
            d.wrapping_add(t1),
            e,
            f,
            g,
        ];
    }
    let mut out = [0; 8];
    for i in 0..8 {
        out[i] = s[i].wrapping_add(iv[i]);
    }
    out
}

fn xorshift32(x: &mut u32) -> u32 {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    *x
}

/// The acceleration of every body and the sum of its terms' magnitudes (the tolerance's scale).
fn nbody_ref(pos: &[f32], eps2: f32) -> Vec<(f64, f64)> {
    let n = pos.len() / 4;
    let p = |i: usize, k: usize| f64::from(pos[4 * i + k]);
    let mut out = Vec::with_capacity(4 * n);
    for i in 0..n {
        let mut a = [0f64; 3];
        let mut s = [0f64; 3];
        for j in 0..n {
            let d = [p(j, 0) - p(i, 0), p(j, 1) - p(i, 1), p(j, 2) - p(i, 2)];
            let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + f64::from(eps2);
            let f = p(j, 3) / (r2 * r2.sqrt());
            for k in 0..3 {
                a[k] += d[k] * f;
                s[k] += (d[k] * f).abs();
            }
        }
        out.extend([(a[0], s[0]), (a[1], s[1]), (a[2], s[2]), (0.0, 0.0)]);
    }
    out
}

/// Every case of the corpus at problem-size multiplier `scale`.
pub fn cases(scale: usize) -> Vec<Case> {
    let s = scale.max(1);
    let mut v = Vec::new();

    // blas.cl
    let n = 1024 * s;
    v.push(
        case("blas.cl", "saxpy")
            .global(&[n])
            .val(2.5f32)
            .buf(rand_f32(n, 1, 0.0, 1.0))
            .buf(rand_f32(n, 2, 0.0, 1.0))
            .expect_f32(2, 1, |r| {
                let (a, x, y) = (r.value::<f32>(0), r.input::<f32>(1), r.input::<f32>(2));
                x.iter().zip(&y).map(|(x, y)| a * x + y).collect()
            }),
    );
    v.push(
        case("blas.cl", "vadd_f4")
            .global(&[n / 4])
            .buf(rand_f32(n, 3, -1.0, 1.0))
            .buf(rand_f32(n, 4, -1.0, 1.0))
            .out::<f32>(n)
            .expect_f32(2, 0, |r| {
                let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
                a.iter().zip(&b).map(|(a, b)| a + b).collect()
            }),
    );
    v.push(
        case("blas.cl", "sdot_partial")
            .global(&[n])
            .local(&[128])
            .buf(rand_f32(n, 5, 0.0, 1.0))
            .buf(rand_f32(n, 6, 0.0, 1.0))
            .out::<f32>(n / 128)
            .expect_f32(2, 2, |r| {
                let p: Vec<f32> = r
                    .input::<f32>(0)
                    .iter()
                    .zip(&r.input::<f32>(1))
                    .map(|(x, y)| x * y)
                    .collect();
                per_group(&p, 128, |c| vec![tree_sum(c)])
            }),
    );
    let (rows, cols) = (256 * s, 64);
    v = push_gemv(v, "sgemv", rows, cols);
    v = push_gemv(v, "sgemv_t", rows, cols);

    // reduce.cl
    v.push(
        case("reduce.cl", "reduce_sum_i32")
            .global(&[n])
            .local(&[128])
            .buf(rand_i32(n, 10, -100_000, 100_000))
            .out::<i32>(n / 128)
            .local_arg(128 * 4)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), 128, |c| {
                    vec![c.iter().fold(0i32, |a, x| a.wrapping_add(*x))]
                })
            }),
    );
    v.push(
        case("reduce.cl", "reduce_max_f32")
            .global(&[256 * s])
            .local(&[64])
            .buf(rand_f32(1024 * s, 11, -1000.0, 1000.0))
            .out::<f32>(4 * s)
            .expect_f32(1, 0, |r| {
                let a = r.input::<f32>(0);
                let n = r.global[0];
                let m: Vec<f32> = (0..n)
                    .map(|g| a[g].max(a[g + n]).max(a[g + 2 * n].max(a[g + 3 * n])))
                    .collect();
                per_group(&m, 64, |c| {
                    vec![c.iter().copied().fold(f32::NEG_INFINITY, f32::max)]
                })
            }),
    );
    v.push(
        case("reduce.cl", "reduce_atomic_i32")
            .global(&[256])
            .buf(rand_i32(4 * n, 12, -1000, 1000))
            .val((4 * n) as i32)
            .buf(vec![0i32])
            .expect(2, |r| {
                vec![r
                    .input::<i32>(0)
                    .iter()
                    .fold(0i32, |a, x| a.wrapping_add(*x))]
            }),
    );
    v.push(
        case("reduce.cl", "scan_inclusive_hs")
            .global(&[512 * s])
            .local(&[128])
            .buf(rand_i32(512 * s, 13, -1000, 1000))
            .out::<i32>(512 * s)
            .expect(1, |r| per_group(&r.input::<i32>(0), 128, inclusive)),
    );
    v.push(
        case("reduce.cl", "scan_exclusive_blelloch")
            .global(&[256 * s])
            .local(&[128])
            .buf(rand_i32(512 * s, 14, -1000, 1000))
            .out::<i32>(512 * s)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), 256, |c| {
                    inclusive(c).iter().zip(c).map(|(s, x)| s - x).collect()
                })
            }),
    );

    // histogram.cl
    v.push(
        case("histogram.cl", "hist256_global")
            .global(&[2 * n])
            .buf(rand_bits::<u32>(2 * n, 20))
            .buf(vec![0u32; 256])
            .expect(1, |r| {
                let mut b = vec![0u32; 256];
                for x in r.input::<u32>(0) {
                    b[(x & 255) as usize] += 1;
                }
                b
            }),
    );
    v.push(
        case("histogram.cl", "hist256_local")
            .global(&[512 * s])
            .local(&[128])
            .buf(rand_bits::<u32>(2048 * s, 21))
            .buf(vec![0u32; 256])
            .expect(1, |r| {
                let mut b = vec![0u32; 256];
                for x in r.input::<u32>(0) {
                    b[((x >> 8) & 255) as usize] += 1;
                }
                b
            }),
    );
    v.push(
        case("histogram.cl", "hist16_uchar4")
            .global(&[n])
            .buf(rand_bits::<u8>(4 * n, 22))
            .buf(vec![0u32; 16])
            .expect(1, |r| {
                let mut b = vec![0u32; 16];
                for x in r.input::<u8>(0) {
                    b[(x >> 4) as usize] += 1;
                }
                b
            }),
    );

    // stencil.cl
    let clampi = |i: isize, n: usize| i.clamp(0, n as isize - 1) as usize;
    v.push(expect_close_f32(
        case("stencil.cl", "conv1d_r3")
            .global(&[2 * n])
            .buf(rand_f32(2 * n, 30, 0.0, 1.0))
            .buf(rand_f32(7, 31, 0.0, 1.0))
            .out::<f32>(2 * n),
        2,
        1e-6,
        move |r| {
            let (a, w) = (r.input::<f32>(0), r.input::<f32>(1));
            let n = a.len();
            (0..n)
                .map(|i| {
                    let t: f64 = (0..7)
                        .map(|k| {
                            f64::from(w[k]) * f64::from(a[clampi(i as isize + k as isize - 3, n)])
                        })
                        .sum();
                    (t, t)
                })
                .collect()
        },
    ));
    v.push(expect_close_f32(
        case("stencil.cl", "blur1d_local")
            .global(&[n])
            .local(&[64])
            .buf(rand_f32(n, 32, 0.0, 1.0))
            .out::<f32>(n),
        1,
        1e-6,
        move |r| {
            let a = r.input::<f32>(0);
            let n = a.len();
            (0..n)
                .map(|i| {
                    let t: f64 = (0..9)
                        .map(|k| f64::from(a[clampi(i as isize + k as isize - 4, n)]))
                        .sum::<f64>()
                        / 9.0;
                    (t, t)
                })
                .collect()
        },
    ));
    let (w2, h2) = (64 * s, 64);
    v.push(
        case("stencil.cl", "jacobi5")
            .global(&[w2, h2])
            .buf(rand_f32(w2 * h2, 33, 0.0, 1.0))
            .out::<f32>(w2 * h2)
            .expect_f32(1, 1, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let a = r.input::<f32>(0);
                let mut out = a.clone();
                for y in 1..h - 1 {
                    for x in 1..w - 1 {
                        let i = y * w + x;
                        out[i] = 0.25 * (a[i - 1] + a[i + 1] + a[i - w] + a[i + w]);
                    }
                }
                out
            }),
    );
    v.push(expect_close_f32(
        case("stencil.cl", "conv2d_3x3")
            .global(&[w2, h2])
            .buf(rand_f32(w2 * h2, 34, 0.0, 1.0))
            .buf(rand_f32(9, 35, 0.0, 1.0))
            .out::<f32>(w2 * h2),
        2,
        1e-6,
        move |r| {
            let (w, h) = (r.global[0], r.global[1]);
            let (a, k) = (r.input::<f32>(0), r.input::<f32>(1));
            let mut out = Vec::with_capacity(w * h);
            for y in 0..h {
                for x in 0..w {
                    let mut t = 0f64;
                    for dy in 0..3 {
                        for dx in 0..3 {
                            let sx = clampi(x as isize + dx as isize - 1, w);
                            let sy = clampi(y as isize + dy as isize - 1, h);
                            t += f64::from(k[dy * 3 + dx]) * f64::from(a[sy * w + sx]);
                        }
                    }
                    out.push((t, t));
                }
            }
            out
        },
    ));
    v.push(
        case("stencil.cl", "sobel_u8")
            .global(&[w2, h2])
            .buf(rand_bits::<u8>(w2 * h2, 36))
            .out::<i32>(w2 * h2)
            .expect(1, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let a = r.input::<u8>(0);
                let mut out = vec![0i32; w * h];
                for y in 1..h - 1 {
                    for x in 1..w - 1 {
                        let p = |dx: isize, dy: isize| {
                            i32::from(
                                a[(y as isize + dy) as usize * w + (x as isize + dx) as usize],
                            )
                        };
                        let gx =
                            -p(-1, -1) - 2 * p(-1, 0) - p(-1, 1) + p(1, -1) + 2 * p(1, 0) + p(1, 1);
                        let gy =
                            -p(-1, -1) - 2 * p(0, -1) - p(1, -1) + p(-1, 1) + 2 * p(0, 1) + p(1, 1);
                        out[y * w + x] = gx.abs() + gy.abs();
                    }
                }
                out
            }),
    );

    // matmul.cl
    let m = if s == 1 { 64 } else { 128 };
    let matmul_ref = |r: &Run| {
        let n = r.value::<i32>(3) as usize;
        let (a, b) = (r.input::<f32>(0), r.input::<f32>(1));
        let mut out = Vec::with_capacity(n * n);
        for row in 0..n {
            for col in 0..n {
                let t: f64 = (0..n)
                    .map(|k| f64::from(a[row * n + k]) * f64::from(b[k * n + col]))
                    .sum();
                out.push((t, t));
            }
        }
        out
    };
    for (name, local) in [("matmul_naive", [64, 1]), ("matmul_tiled16", [16, 16])] {
        v.push(expect_close_f32(
            case("matmul.cl", name)
                .global(&[m, m])
                .local(&local)
                .buf(rand_f32(m * m, 40, 0.0, 1.0))
                .buf(rand_f32(m * m, 41, 0.0, 1.0))
                .out::<f32>(m * m)
                .val(m as i32),
            2,
            1e-5,
            matmul_ref,
        ));
    }
    v.push(
        case("matmul.cl", "matmul_int4")
            .global(&[m / 4, m])
            .buf(rand_i32(m * m, 42, -100, 100))
            .buf(rand_i32(m * m, 43, -100, 100))
            .out::<i32>(m * m)
            .val(m as i32)
            .expect(2, |r| {
                let n = r.value::<i32>(3) as usize;
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                let mut out = vec![0i32; n * n];
                for row in 0..n {
                    for col in 0..n {
                        out[row * n + col] = (0..n)
                            .map(|k| a[row * n + k].wrapping_mul(b[k * n + col]))
                            .fold(0i32, i32::wrapping_add);
                    }
                }
                out
            }),
    );
    v.push(
        case("matmul.cl", "transpose_tiled")
            .global(&[w2, h2])
            .local(&[16, 16])
            .buf(rand_f32(w2 * h2, 44, -10.0, 10.0))
            .out::<f32>(w2 * h2)
            .expect(1, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let a = r.input::<f32>(0);
                let mut out = vec![0f32; w * h];
                for y in 0..h {
                    for x in 0..w {
                        out[x * h + y] = a[y * w + x];
                    }
                }
                out
            }),
    );

    // nbody.cl
    let bodies = 256 * s;
    let pos: Vec<f32> = {
        let p = rand_f32(4 * bodies, 50, -1.0, 1.0);
        let mass = rand_f32(bodies, 51, 0.5, 1.0);
        p.chunks(4)
            .zip(mass)
            .flat_map(|(c, m)| [c[0], c[1], c[2], m])
            .collect()
    };
    for (name, local) in [("nbody_accel", 64), ("nbody_accel_local", 64)] {
        v.push(expect_close_f32(
            case("nbody.cl", name)
                .global(&[bodies])
                .local(&[local])
                .buf(pos.clone())
                .out::<f32>(4 * bodies)
                .val(bodies as i32)
                .val(0.01f32),
            1,
            1e-4,
            |r| nbody_ref(&r.input::<f32>(0), r.value::<f32>(3)),
        ));
    }
    v.push(
        case("nbody.cl", "nbody_integrate")
            .global(&[bodies])
            .buf(pos.clone())
            .buf(rand_f32(4 * bodies, 52, -1.0, 1.0))
            .buf(rand_f32(4 * bodies, 53, -1.0, 1.0))
            .val(0.01f32)
            .expect_f32(1, 0, |r| {
                let (v, a, dt) = (r.input::<f32>(1), r.input::<f32>(2), r.value::<f32>(3));
                v.iter().zip(&a).map(|(v, a)| v + a * dt).collect()
            })
            .expect_f32(0, 0, |r| {
                let (p, v, a, dt) = (
                    r.input::<f32>(0),
                    r.input::<f32>(1),
                    r.input::<f32>(2),
                    r.value::<f32>(3),
                );
                (0..p.len())
                    .map(|i| {
                        if i % 4 == 3 {
                            p[i]
                        } else {
                            p[i] + (v[i] + a[i] * dt) * dt
                        }
                    })
                    .collect()
            }),
    );

    // mandelbrot.cl
    let (mw, mh) = (64 * s, 64);
    let iters = 64;
    v.push(
        case("mandelbrot.cl", "mandelbrot_f32")
            .global(&[mw, mh])
            .out::<i32>(mw * mh)
            .val(iters)
            .val(-2.0f32)
            .val(-1.5f32)
            .val(3.0 / mw as f32)
            .val(3.0 / mh as f32)
            .expect(0, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let (max, x0, y0, dx, dy) = (
                    r.value::<i32>(1),
                    r.value::<f32>(2),
                    r.value::<f32>(3),
                    r.value::<f32>(4),
                    r.value::<f32>(5),
                );
                let mut out = Vec::with_capacity(w * h);
                for y in 0..h {
                    for x in 0..w {
                        let cr = x0 + x as f32 * dx;
                        let ci = y0 + y as f32 * dy;
                        let (mut zr, mut zi, mut it) = (0f32, 0f32, 0);
                        while it < max && zr * zr + zi * zi <= 4.0 {
                            let t = zr * zr - zi * zi + cr;
                            zi = 2.0 * zr * zi + ci;
                            zr = t;
                            it += 1;
                        }
                        out.push(it);
                    }
                }
                out
            }),
    );
    v.push(
        case("mandelbrot.cl", "mandelbrot_fixed")
            .global(&[mw, mh])
            .out::<i32>(mw * mh)
            .val(iters)
            .expect(0, |r| {
                let (w, h) = (r.global[0] as i64, r.global[1] as i64);
                let max = r.value::<i32>(1);
                let one = 1i64 << 24;
                let mut out = Vec::new();
                for y in 0..h {
                    for x in 0..w {
                        let cr = -2 * one + (3 * one * x) / w;
                        let ci = -(3 * one) / 2 + (3 * one * y) / h;
                        let (mut zr, mut zi, mut it) = (0i64, 0i64, 0);
                        while it < max {
                            let (zr2, zi2) = ((zr * zr) >> 24, (zi * zi) >> 24);
                            if zr2 + zi2 > 4 * one {
                                break;
                            }
                            let t = zr2 - zi2 + cr;
                            zi = ((zr * zi) >> 23) + ci;
                            zr = t;
                            it += 1;
                        }
                        out.push(it);
                    }
                }
                out
            }),
    );

    // sort.cl
    let bitonic = |a: &mut [i32], l: usize, j: usize, k: usize| {
        let lo = ((l & !(j - 1)) << 1) | (l & (j - 1));
        let hi = lo + j;
        let up = lo & k == 0;
        if (a[lo] > a[hi]) == up {
            a.swap(lo, hi);
        }
    };
    v.push(
        case("sort.cl", "bitonic_step")
            .global(&[n / 2])
            .buf(rand_i32(n, 60, -1_000_000, 1_000_000))
            .val(16i32)
            .val(64i32)
            .expect(0, move |r| {
                let mut a = r.input::<i32>(0);
                let (j, k) = (r.value::<i32>(1) as usize, r.value::<i32>(2) as usize);
                for l in 0..a.len() / 2 {
                    bitonic(&mut a, l, j, k);
                }
                a
            }),
    );
    v.push(
        case("sort.cl", "bitonic_sort_local")
            .global(&[128 * 4 * s])
            .local(&[128])
            .buf(rand_i32(256 * 4 * s, 61, -1_000_000, 1_000_000))
            .expect(0, |r| {
                per_group(&r.input::<i32>(0), 256, |c| {
                    let mut c = c.to_vec();
                    c.sort();
                    c
                })
            }),
    );
    v.push(
        case("sort.cl", "odd_even_step")
            .global(&[n / 2])
            .buf(rand_f32(n, 62, -100.0, 100.0))
            .val(1i32)
            .val(n as i32)
            .expect_f32(0, 0, |r| {
                let mut a = r.input::<f32>(0);
                let phase = r.value::<i32>(1) as usize;
                let mut lo = phase;
                while lo + 1 < a.len() {
                    let (x, y) = (a[lo], a[lo + 1]);
                    a[lo] = x.min(y);
                    a[lo + 1] = x.max(y);
                    lo += 2;
                }
                a
            }),
    );

    // hash.cl
    let blocks = 256 * s;
    for name in ["md5_block", "md5_block_global"] {
        v.push(
            case("hash.cl", name)
                .global(&[blocks])
                .buf(rand_bits::<u32>(16 * blocks, 70))
                .buf(md5_k())
                .out::<u32>(4 * blocks)
                .expect(2, |r| {
                    let (m, k) = (r.input::<u32>(0), r.input::<u32>(1));
                    m.chunks(16).flat_map(|b| md5(b, &k)).collect()
                }),
        );
    }
    v.push(
        case("hash.cl", "sha256_block")
            .global(&[blocks])
            .buf(rand_bits::<u32>(16 * blocks, 71))
            .buf(sha256_k())
            .out::<u32>(8 * blocks)
            .expect(2, |r| {
                let (m, k) = (r.input::<u32>(0), r.input::<u32>(1));
                m.chunks(16).flat_map(|b| sha256(b, &k)).collect()
            }),
    );
    v.push(
        case("hash.cl", "fnv1a_32")
            .global(&[n])
            .buf(rand_bits::<u32>(8 * n, 72))
            .out::<u32>(n)
            .expect(1, |r| {
                r.input::<u32>(0)
                    .chunks(8)
                    .map(|c| {
                        let mut h = 2166136261u32;
                        for w in c {
                            for b in w.to_le_bytes() {
                                h ^= u32::from(b);
                                h = h.wrapping_mul(16777619);
                            }
                        }
                        h
                    })
                    .collect()
            }),
    );
    v.push(
        case("hash.cl", "murmur3_fmix")
            .global(&[n])
            .buf(rand_bits::<u32>(n, 73))
            .out::<u32>(n)
            .val(8i32)
            .expect(1, |r| {
                let rounds = r.value::<i32>(2);
                r.input::<u32>(0)
                    .into_iter()
                    .map(|mut h| {
                        for _ in 0..rounds {
                            h ^= h >> 16;
                            h = h.wrapping_mul(0x85ebca6b);
                            h ^= h >> 13;
                            h = h.wrapping_mul(0xc2b2ae35);
                            h ^= h >> 16;
                        }
                        h
                    })
                    .collect()
            }),
    );
    v.push(
        case("hash.cl", "crc32_bitwise")
            .global(&[n])
            .buf(rand_bits::<u32>(4 * n, 74))
            .out::<u32>(n)
            .expect(1, |r| {
                r.input::<u32>(0)
                    .chunks(4)
                    .map(|c| {
                        let mut crc = 0xffff_ffffu32;
                        for w in c {
                            crc ^= w;
                            for _ in 0..32 {
                                crc = (crc >> 1) ^ (0xEDB8_8320 & 0u32.wrapping_sub(crc & 1));
                            }
                        }
                        !crc
                    })
                    .collect()
            }),
    );

    // rng.cl
    v.push(
        case("rng.cl", "xorshift32")
            .global(&[n])
            .buf(rand_bits::<u32>(n, 80))
            .out::<u32>(n)
            .expect(1, |r| {
                r.input::<u32>(0)
                    .into_iter()
                    .map(|s| {
                        let mut x = s | 1;
                        (0..64).fold(0, |acc, _| acc ^ xorshift32(&mut x))
                    })
                    .collect()
            }),
    );
    v.push(
        case("rng.cl", "xorshift128plus")
            .global(&[n])
            .buf(rand_bits::<u64>(2 * n, 81))
            .out::<u64>(n)
            .expect(1, |r| {
                r.input::<u64>(0)
                    .chunks(2)
                    .map(|s| {
                        let (mut s0, mut s1) = (s[0] | 1, s[1]);
                        let mut sum = 0u64;
                        for _ in 0..32 {
                            let (mut x, y) = (s0, s1);
                            s0 = y;
                            x ^= x << 23;
                            s1 = x ^ y ^ (x >> 17) ^ (y >> 26);
                            sum = sum.wrapping_add(s1.wrapping_add(y));
                        }
                        sum
                    })
                    .collect()
            }),
    );
    v.push(
        case("rng.cl", "philox2x32_10")
            .global(&[n])
            .out::<u32>(2 * n)
            .val(7u32)
            .val(0x1234_5678u32)
            .expect(0, |r| {
                let (ctr, key) = (r.value::<u32>(1), r.value::<u32>(2));
                (0..r.global[0] as u32)
                    .flat_map(|i| {
                        let (mut x0, mut x1, mut k) = (i, ctr, key);
                        for _ in 0..10 {
                            let p = u64::from(0xD256_D193u32) * u64::from(x0);
                            let (lo, hi) = (p as u32, (p >> 32) as u32);
                            x0 = hi ^ k ^ x1;
                            x1 = lo;
                            k = k.wrapping_add(0x9E37_79B9);
                        }
                        [x0, x1]
                    })
                    .collect()
            }),
    );
    v.push(
        case("rng.cl", "pcg32")
            .global(&[n])
            .buf(rand_bits::<u64>(n, 82))
            .out::<u32>(n)
            .expect(1, |r| {
                r.input::<u64>(0)
                    .into_iter()
                    .map(|mut s| {
                        let mut acc = 0u32;
                        for _ in 0..16 {
                            let old = s;
                            s = old
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
                            let xs = (((old >> 18) ^ old) >> 27) as u32;
                            acc ^= xs.rotate_right((old >> 59) as u32);
                        }
                        acc
                    })
                    .collect()
            }),
    );
    v.push(
        case("rng.cl", "mc_pi")
            .global(&[n])
            .buf(rand_bits::<u32>(n, 83))
            .out::<u32>(n)
            .val(32i32)
            .expect(1, |r| {
                let samples = r.value::<i32>(2);
                r.input::<u32>(0)
                    .into_iter()
                    .map(|s| {
                        let mut x = s | 1;
                        let mut hits = 0;
                        for _ in 0..samples {
                            let u = (xorshift32(&mut x) >> 8) as f32 * (1.0 / 16777216.0);
                            let v = (xorshift32(&mut x) >> 8) as f32 * (1.0 / 16777216.0);
                            hits += u32::from(u * u + v * v <= 1.0);
                        }
                        hits
                    })
                    .collect()
            }),
    );

    // fp64.cl
    v.push(
        case("fp64.cl", "daxpy")
            .global(&[n])
            .val(2.5f64)
            .buf(rand_f64(n, 90, 0.0, 1.0))
            .buf(rand_f64(n, 91, 0.0, 1.0))
            .expect_f64(2, 1, |r| {
                let (a, x, y) = (r.value::<f64>(0), r.input::<f64>(1), r.input::<f64>(2));
                x.iter().zip(&y).map(|(x, y)| a * x + y).collect()
            }),
    );
    v.push(
        case("fp64.cl", "ddot_partial")
            .global(&[n])
            .local(&[64])
            .buf(rand_f64(n, 92, 0.0, 1.0))
            .buf(rand_f64(n, 93, 0.0, 1.0))
            .out::<f64>(n / 64)
            .expect_f64(2, 2, |r| {
                let p: Vec<f64> = r
                    .input::<f64>(0)
                    .iter()
                    .zip(&r.input::<f64>(1))
                    .map(|(x, y)| x * y)
                    .collect();
                per_group(&p, 64, |c| vec![tree_sum(c)])
            }),
    );
    v.push(expect_close_f64(
        case("fp64.cl", "dgemv")
            .global(&[rows])
            .buf(rand_f64(rows * cols, 94, 0.0, 1.0))
            .buf(rand_f64(cols, 95, 0.0, 1.0))
            .out::<f64>(rows)
            .val(cols as i32),
        2,
        1e-13,
        |r| {
            let n = r.value::<i32>(3) as usize;
            let (a, x) = (r.input::<f64>(0), r.input::<f64>(1));
            a.chunks(n)
                .map(|row| {
                    let t = row.iter().zip(&x).fold(0.0, |s, (a, x)| s + a * x);
                    (t, t)
                })
                .collect()
        },
    ));
    v.push(expect_close_f64(
        case("fp64.cl", "dhorner8")
            .global(&[n])
            .buf(rand_f64(n, 96, -1.0, 1.0))
            .buf(rand_f64(9, 97, -1.0, 1.0))
            .out::<f64>(n),
        2,
        1e-13,
        |r| {
            let (x, c) = (r.input::<f64>(0), r.input::<f64>(1));
            x.iter()
                .map(|&v| {
                    let t = (0..8).rev().fold(c[8], |acc, k| acc * v + c[k]);
                    let scale: f64 = (0..9).map(|k| (c[k] * v.powi(k as i32)).abs()).sum();
                    (t, scale)
                })
                .collect()
        },
    ));
    v.push(
        case("fp64.cl", "dnorm3")
            .global(&[n])
            .buf(rand_f64(3 * n, 98, -10.0, 10.0))
            .out::<f64>(n)
            .expect_f64(1, 0, |r| {
                r.input::<f64>(0)
                    .chunks(3)
                    .map(|c| (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt())
                    .collect()
            }),
    );

    // half.cl
    v.push(expect_half(
        case("half.cl", "half_axpy")
            .global(&[n])
            .val(f16_bits(1.375))
            .buf(rand_half(n, 100, 0.5, 2.0))
            .buf(rand_half(n, 101, 0.5, 2.0)),
        2,
        |r| {
            let a = f16_value(r.value::<u16>(0));
            let (x, y) = (r.input::<u16>(1), r.input::<u16>(2));
            x.iter()
                .zip(&y)
                .map(|(x, y)| f16_bits(h(a * f16_value(*x)) + f16_value(*y)))
                .collect()
        },
    ));
    v.push(expect_half(
        case("half.cl", "half_convert_scale")
            .global(&[n])
            .buf(rand_half(n, 102, -4.0, 4.0))
            .out::<u16>(n)
            .val(3.25f32),
        1,
        |r| {
            let s = r.value::<f32>(2);
            r.input::<u16>(0)
                .into_iter()
                .map(|x| f16_bits(f16_value(x) * s + 1.0))
                .collect()
        },
    ));
    v.push(expect_half(
        case("half.cl", "half4_lerp")
            .global(&[n / 4])
            .buf(rand_half(n, 103, 0.5, 2.0))
            .buf(rand_half(n, 104, 0.5, 2.0))
            .out::<u16>(n)
            .val(f16_bits(0.375)),
        2,
        |r| {
            let t = f16_value(r.value::<u16>(3));
            let (a, b) = (r.input::<u16>(0), r.input::<u16>(1));
            a.iter()
                .zip(&b)
                .map(|(a, b)| {
                    let (a, b) = (f16_value(*a), f16_value(*b));
                    f16_bits(a + h(h(b - a) * t))
                })
                .collect()
        },
    ));

    // atomics_c11.cl: every work-item of a group of 128 adds 1 to its group's counter 16
    // times, so each counter ends at 2,048.
    let groups = 4 * s;
    let per_group_count = 128 * 16;
    v.push(
        case("atomics_c11.cl", "c11_cas_local_u32")
            .global(&[128 * groups])
            .local(&[128])
            .out::<u32>(groups)
            .expect(0, move |_| vec![per_group_count as u32; groups]),
    );
    // IGC's 64-bit compare-exchange takes its lock once a lane, and a lane's retry after
    // another lane's success takes it again: 68 M instructions over 16 groups, past the
    // harness's hang budget (2^26), so that kernel runs 4 groups at every scale.
    for (name, groups) in [
        ("c11_cas_local_u64", 4),
        ("c11_fetch_add_local_u64", groups),
    ] {
        v.push(
            case("atomics_c11.cl", name)
                .global(&[128 * groups])
                .local(&[128])
                .out::<u64>(groups)
                .expect(0, move |_| vec![per_group_count as u64; groups]),
        );
    }
    v.push(
        case("atomics_c11.cl", "c11_cas_global_u64")
            .global(&[128 * groups])
            .local(&[128])
            .buf(vec![0u64; groups])
            .expect(0, move |_| vec![per_group_count as u64; groups]),
    );

    // collectives.cl
    let g = 256 * s;
    let wg = |name: &'static str, seed: u64| {
        case("collectives.cl", name)
            .global(&[g])
            .local(&[64])
            .buf(rand_i32(g, seed, -1000, 1000))
            .out::<i32>(g)
    };
    v.push(wg("wg_reduce_add", 110).expect(1, |r| {
        per_group(&r.input::<i32>(0), 64, |c| {
            vec![c.iter().sum::<i32>(); c.len()]
        })
    }));
    v.push(wg("wg_scan_exclusive_add", 111).expect(1, |r| {
        per_group(&r.input::<i32>(0), 64, |c| {
            inclusive(c).iter().zip(c).map(|(s, x)| s - x).collect()
        })
    }));
    v.push(
        case("collectives.cl", "wg_reduce_max_f32")
            .global(&[g])
            .local(&[64])
            .buf(rand_f32(g, 112, -100.0, 100.0))
            .out::<f32>(g)
            .expect_f32(1, 0, |r| {
                per_group(&r.input::<f32>(0), 64, |c| {
                    vec![c.iter().copied().fold(f32::NEG_INFINITY, f32::max); c.len()]
                })
            }),
    );
    v.push(wg("wg_broadcast", 113).expect(1, |r| {
        per_group(&r.input::<i32>(0), 64, |c| {
            c.iter().map(|x| x + c[5]).collect()
        })
    }));
    v.push(
        case("collectives.cl", "wg_any_all")
            .global(&[g])
            .local(&[64])
            .buf(rand_i32(g, 114, 0, 1000))
            .out::<i32>(g)
            .val(990i32)
            .val(5i32)
            .expect(1, |r| {
                let (t1, t2) = (r.value::<i32>(2), r.value::<i32>(3));
                per_group(&r.input::<i32>(0), 64, |c| {
                    let any = c.iter().any(|&x| x > t1) as i32;
                    let all = c.iter().all(|&x| x > t2) as i32;
                    vec![any | (all << 1); c.len()]
                })
            }),
    );
    v.push(wg("sg_reduce_add", 115).expect(1, |r| {
        per_group(&r.input::<i32>(0), 16, |c| {
            vec![c.iter().sum::<i32>(); c.len()]
        })
    }));
    v.push(
        wg("sg_scan_inclusive_add", 116)
            .expect(1, |r| per_group(&r.input::<i32>(0), 16, inclusive)),
    );
    v.push(
        case("collectives.cl", "sg_broadcast")
            .global(&[g])
            .local(&[64])
            .buf(rand_f32(g, 117, -10.0, 10.0))
            .out::<f32>(g)
            .expect_f32(1, 0, |r| {
                per_group(&r.input::<f32>(0), 16, |c| {
                    c.iter().map(|x| x * c[3]).collect()
                })
            }),
    );
    v.push(
        case("collectives.cl", "sg_reduce_max_any_width")
            .global(&[g])
            .local(&[64])
            .buf(rand_i32(g, 118, -100_000, 100_000))
            .out::<i32>(2 * g)
            .check(|r| {
                let out = r.output::<i32>(1);
                let size = out[1] as usize;
                if ![8, 16, 32].contains(&size) {
                    return Err(format!("sub-group size {size}"));
                }
                let want: Vec<i32> = per_group(&r.input::<i32>(0), size, |c| {
                    let m = *c.iter().max().unwrap();
                    c.iter().flat_map(|_| [m, size as i32]).collect()
                });
                expect_eq(&out, &want).map_err(|e| format!("argument 1 (SIMD{size}): {e}"))
            }),
    );
    v.push(wg("intel_shuffle_rotate", 119).expect(1, |r| {
        per_group(&r.input::<i32>(0), 16, |c| {
            (0..c.len()).map(|l| c[(l + 1) % 16]).collect()
        })
    }));
    v.push(
        case("collectives.cl", "intel_block_read_scale")
            .global(&[g])
            .local(&[64])
            .buf(rand_bits::<u32>(g, 120))
            .out::<u32>(g)
            .expect(1, |r| {
                r.input::<u32>(0)
                    .iter()
                    .map(|x| x.wrapping_mul(3).wrapping_add(1))
                    .collect()
            }),
    );

    // peak.cl: clpeak's kinds of kernel (docs/gpu-model.md holds the model against its
    // published Gen9 GT2 figures). Every chain value is exact (see the file).
    let p = 4096 * s;
    v.push(
        case("peak.cl", "peak_bandwidth_f4")
            .global(&[p])
            .local(&[256])
            .buf(rand_f32(p * 16 * 4, 130, -1.0, 1.0))
            .out::<f32>(p)
            .expect_f32(1, 0, |r| {
                let input = r.input::<f32>(0);
                let n = r.global[0];
                (0..n)
                    .map(|i| {
                        let mut s = [0f32; 4];
                        for k in 0..16 {
                            for (c, acc) in s.iter_mut().enumerate() {
                                *acc += input[(i + k * n) * 4 + c];
                            }
                        }
                        s[0] + s[1] + s[2] + s[3]
                    })
                    .collect()
            }),
    );
    // x0 = local id; after PEAK_N (64) steps of x*1 + b each chain is x0 + k + 64b.
    let chains = |l: f64, b: f64| 4.0 * l + 6.0 + 4.0 * 64.0 * b;
    v.push(
        case("peak.cl", "peak_sp")
            .global(&[p])
            .local(&[256])
            .out::<f32>(p)
            .val(1.0f32)
            .val(0.5f32)
            .expect_f32(0, 0, move |r| {
                (0..r.global[0])
                    .map(|i| chains((i % 256) as f64, 0.5) as f32)
                    .collect()
            }),
    );
    v.push(expect_half(
        case("peak.cl", "peak_hp")
            .global(&[p])
            .local(&[256])
            .out::<u16>(p)
            .val(f16_bits(1.0))
            .val(f16_bits(0.5)),
        0,
        move |r| {
            (0..r.global[0])
                .map(|i| f16_bits(chains((i % 16) as f64, 0.5) as f32))
                .collect()
        },
    ));
    v.push(
        case("peak.cl", "peak_dp")
            .global(&[p])
            .local(&[256])
            .out::<f64>(p)
            .val(1.0f64)
            .val(0.5f64)
            .expect_f64(0, 0, move |r| {
                (0..r.global[0])
                    .map(|i| chains((i % 256) as f64, 0.5))
                    .collect()
            }),
    );
    v.push(
        case("peak.cl", "peak_int")
            .global(&[p])
            .local(&[256])
            .out::<i32>(p)
            .val(1i32)
            .val(3i32)
            .expect(0, move |r| {
                (0..r.global[0])
                    .map(|i| chains((i % 256) as f64, 3.0) as i32)
                    .collect()
            }),
    );
    v
}

/// The two matrix-vector products: `sgemv` (a row per item) and `sgemv_t` (a column per item).
fn push_gemv(mut v: Vec<Case>, name: &'static str, rows: usize, cols: usize) -> Vec<Case> {
    let transposed = name == "sgemv_t";
    // sgemv: `rows` items over a rows x cols matrix; sgemv_t: `rows` items (columns) over a
    // cols x rows matrix.
    let c = case("blas.cl", name)
        .global(&[rows])
        .buf(rand_f32(rows * cols, 7, 0.0, 1.0))
        .buf(rand_f32(cols, 8, 0.0, 1.0))
        .out::<f32>(rows)
        .val(cols as i32);
    v.push(expect_close_f32(c, 2, 1e-5, move |r| {
        let (a, x) = (r.input::<f32>(0), r.input::<f32>(1));
        let n = r.value::<i32>(3) as usize;
        let items = r.global[0];
        (0..items)
            .map(|i| {
                let t: f64 = (0..n)
                    .map(|j| {
                        let e = if transposed {
                            a[j * items + i]
                        } else {
                            a[i * n + j]
                        };
                        f64::from(e) * f64::from(x[j])
                    })
                    .sum();
                (t, t)
            })
            .collect()
    }));
    v
}
