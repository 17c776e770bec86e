//! Cases of tests/jit/local.cl: __local memory and barriers. Integer results are exact: the
//! inputs keep every signed sum in range (signed overflow is undefined in OpenCL C), so the
//! order of a tree's additions cannot matter. Float inputs are integer-valued or the
//! arithmetic is exact, so every float result is checked to 0 ulp.
use crate::igc::harness::*;

const F: &str = "local.cl";

/// The bytes `Case::out` fills a buffer with, as an i32: what a slot no item writes keeps.
const FILL: i32 = 0xA5A5_A5A5u32 as i32;

/// Apply `f` to each group of `n` consecutive items, concatenating its outputs.
fn per_group<T: Copy, U>(a: &[T], n: usize, f: impl Fn(&[T]) -> Vec<U>) -> Vec<U> {
    a.chunks(n).flat_map(f).collect()
}

/// The wrapping sum of `c`.
fn wsum(c: &[i32]) -> i32 {
    c.iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

fn inclusive_sums(c: &[i32]) -> Vec<i32> {
    c.iter()
        .scan(0i32, |s, &x| {
            *s = s.wrapping_add(x);
            Some(*s)
        })
        .collect()
}

fn exclusive_sums(c: &[i32]) -> Vec<i32> {
    c.iter()
        .scan(0i32, |s, &x| {
            let before = *s;
            *s = s.wrapping_add(x);
            Some(before)
        })
        .collect()
}

/// `n` ints whose sums of up to 128 stay in range.
fn ints(n: usize, seed: u64) -> Vec<i32> {
    rand_i32(n, seed, -10_000_000, 10_000_000)
}

/// `n` integer-valued floats in [-1000, 1000): sums of up to 2^14 of them are exact.
fn int_floats(n: usize, seed: u64) -> Vec<f32> {
    rand_i32(n, seed, -1000, 1000)
        .into_iter()
        .map(|x| x as f32)
        .collect()
}

/// The IEEE half of `x`, which must be zero or a normal half exactly.
fn half_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if x == 0.0 {
        return sign;
    }
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&e) && b & 0x1fff == 0,
        "{x} is not a normal half"
    );
    sign | ((e as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

/// `local` items a group, `groups` groups: one sum each.
fn reduce_sum_arg(local: usize, groups: usize, seed: u64) -> Case {
    case(F, "reduce_sum_arg")
        .global(&[local * groups])
        .local(&[local])
        .buf(ints(local * groups, seed))
        .out::<i32>(groups)
        .local_arg(local * 4)
        .expect(1, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| vec![wsum(c)])
        })
}

fn scan_hs(local: usize, groups: usize, seed: u64) -> Case {
    case(F, "scan_hs")
        .global(&[local * groups])
        .local(&[local])
        .buf(ints(local * groups, seed))
        .out::<i32>(local * groups)
        .local_arg(local * 4)
        .expect(1, |r| {
            per_group(&r.input::<i32>(0), r.local[0], inclusive_sums)
        })
}

/// Two elements an item: a group scans 2 * local ints.
fn scan_blelloch(local: usize, groups: usize, seed: u64) -> Case {
    let n = 2 * local * groups;
    case(F, "scan_blelloch")
        .global(&[local * groups])
        .local(&[local])
        .buf(ints(n, seed))
        .out::<i32>(n)
        .local_arg(2 * local * 4)
        .expect(1, |r| {
            per_group(&r.input::<i32>(0), 2 * r.local[0], exclusive_sums)
        })
}

fn reverse_256(local: usize, groups: usize, seed: u64) -> Case {
    case(F, "reverse_256")
        .global(&[local * groups])
        .local(&[local])
        .buf(rand_bits::<i32>(local * groups, seed))
        .out::<i32>(local * groups)
        .expect(1, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                c.iter().rev().copied().collect()
            })
        })
}

/// Groups of any size; `each` has 8 elements past the range that must keep the fill.
fn reduce_any_size(local: usize, groups: usize, seed: u64) -> Case {
    let n = local * groups;
    case(F, "reduce_any_size")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, -100_000, 100_000))
        .out::<i32>(groups)
        .out::<i32>(n + 8)
        .local_arg(local * 4)
        .expect(1, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| vec![wsum(c)])
        })
        .expect(2, |r| {
            let mut v = per_group(&r.input::<i32>(0), r.local[0], |c| {
                let s = wsum(c);
                c.iter().map(|&x| s.wrapping_sub(x)).collect()
            });
            v.extend([FILL; 8]);
            v
        })
}

fn reduce_2d(global: [usize; 2], local: [usize; 2], seed: u64) -> Case {
    case(F, "reduce_2d")
        .global(&global)
        .local(&local)
        .buf(ints(global[0] * global[1], seed))
        .out::<i32>((global[0] / local[0]) * (global[1] / local[1]))
        .local_arg(local[0] * local[1] * 4)
        .expect(1, |r| {
            let (w, h) = (r.global[0], r.global[1]);
            let (lw, lh) = (r.local[0], r.local[1]);
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for gy in 0..h / lh {
                for gx in 0..w / lw {
                    let mut s = 0i32;
                    for y in gy * lh..(gy + 1) * lh {
                        for x in gx * lw..(gx + 1) * lw {
                            s = s.wrapping_add(a[y * w + x]);
                        }
                    }
                    out.push(s);
                }
            }
            out
        })
}

fn barrier_trips(local: usize, groups: usize, seed: u64) -> Case {
    case(F, "barrier_trips")
        .global(&[local * groups])
        .local(&[local])
        .buf(rand_i32(
            local * groups,
            seed,
            -1_000_000_000,
            1_000_000_000,
        ))
        .out::<i32>(local * groups)
        .local_arg(local * 4)
        .expect(1, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                let n = c.len();
                let mut s = c.to_vec();
                for k in 0..n / 8 {
                    s = (0..n)
                        .map(|l| (s[(l + k + 1) % n] ^ k as i32).wrapping_add(l as i32))
                        .collect();
                }
                s
            })
        })
}

/// A group's values after `iters` ping-pong steps.
fn ping_pong_steps(c: &[i32], iters: i32) -> Vec<i32> {
    let n = c.len();
    let mut a = c.to_vec();
    for it in 0..iters {
        a = (0..n)
            .map(|l| {
                a[(l + 1) % n]
                    .wrapping_mul(3)
                    .wrapping_sub(a[l])
                    .wrapping_add(it)
            })
            .collect();
    }
    a
}

fn ping_pong(iters: i32, seed: u64) -> Case {
    case(F, "ping_pong")
        .global(&[256])
        .local(&[64])
        // |x| < 2^15: after 5 steps |x| < 2^25, and a group's sum < 2^31.
        .buf(rand_i32(256, seed, -30_000, 30_000))
        .out::<i32>(256)
        .out::<i32>(4)
        .val(iters)
        .expect(1, |r| {
            let iters = r.value::<i32>(3);
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                ping_pong_steps(c, iters)
            })
        })
        .expect(2, |r| {
            let iters = r.value::<i32>(3);
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                vec![wsum(&ping_pong_steps(c, iters))]
            })
        })
}

pub fn cases() -> Vec<Case> {
    vec![
        reduce_sum_arg(64, 16, 1),
        reduce_sum_arg(32, 16, 2),
        case(F, "reduce_sum_array")
            .global(&[512])
            .local(&[64])
            .buf(ints(512, 3))
            .out::<i32>(8)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], |c| vec![wsum(c)])
            }),
        case(F, "reduce_float")
            .global(&[512])
            .local(&[64])
            .buf(int_floats(512, 4))
            .out::<f32>(8)
            .local_arg(64 * 4)
            .expect_f32(1, 0, |r| {
                per_group(&r.input::<f32>(0), r.local[0], |c| vec![c.iter().sum()])
            }),
        case(F, "reduce_long")
            .global(&[512])
            .local(&[64])
            .buf(
                rand_bits::<i64>(512, 5)
                    .into_iter()
                    .map(|x| x >> 8)
                    .collect(),
            )
            .out::<i64>(8)
            .expect(1, |r| {
                per_group(&r.input::<i64>(0), r.local[0], |c| {
                    vec![c.iter().fold(0i64, |s, &x| s.wrapping_add(x))]
                })
            }),
        case(F, "reduce_narrow")
            .global(&[512])
            .local(&[64])
            .buf(rand_bits::<u8>(512, 6))
            .buf(rand_bits::<i16>(512, 7))
            .out::<i32>(3 * 8)
            .expect(2, |r| {
                let (a, b) = (r.input::<u8>(0), r.input::<i16>(1));
                let n = r.local[0];
                (0..a.len() / n)
                    .flat_map(|grp| {
                        let (ca, cb) = (&a[grp * n..(grp + 1) * n], &b[grp * n..(grp + 1) * n]);
                        [
                            ca.iter().fold(0u8, |s, &x| s.wrapping_add(x)) as i32,
                            ca.iter().map(|&x| x.wrapping_mul(7) as i8).max().unwrap() as i32,
                            cb.iter().fold(0i16, |s, &x| s.wrapping_add(x)) as i32,
                        ]
                    })
                    .collect()
            }),
        scan_hs(64, 8, 8),
        scan_hs(32, 8, 9),
        scan_blelloch(64, 8, 10),
        scan_blelloch(32, 8, 11),
        // a: 32 x 32, b: 32 x 48, c: 32 x 48; 3 x 2 groups of 16 x 16.
        case(F, "matmul_tiled")
            .global(&[48, 32])
            .local(&[16, 16])
            .buf(rand_i32(32 * 32, 12, -1000, 1000))
            .buf(rand_i32(32 * 48, 13, -1000, 1000))
            .out::<i32>(32 * 48)
            .val(32i32)
            .val(48i32)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                let (k, n) = (r.value::<i32>(3) as usize, r.value::<i32>(4) as usize);
                let mut c = Vec::new();
                for i in 0..r.global[1] {
                    for j in 0..n {
                        c.push((0..k).fold(0i32, |s, t| {
                            s.wrapping_add(a[i * k + t].wrapping_mul(b[t * n + j]))
                        }));
                    }
                }
                c
            }),
        case(F, "stencil3")
            .global(&[960])
            .local(&[48])
            .buf(rand_i32(960, 14, -1000, 1000))
            .out::<i32>(960)
            .local_arg((48 + 2) * 4)
            .expect(1, |r| {
                let x = r.input::<i32>(0);
                let at = |i: isize| {
                    if i < 0 || i as usize >= x.len() {
                        0
                    } else {
                        x[i as usize]
                    }
                };
                (0..x.len() as isize)
                    .map(|i| 3 * at(i - 1) + 5 * at(i) - 7 * at(i + 1))
                    .collect()
            }),
        case(F, "transpose_tile")
            .global(&[64, 24])
            .local(&[8, 8])
            .buf(rand_bits::<i32>(64 * 24, 15))
            .out::<i32>(64 * 24)
            .expect(1, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let a = r.input::<i32>(0);
                let mut out = vec![0; w * h];
                for y in 0..h {
                    for x in 0..w {
                        out[x * h + y] = a[y * w + x];
                    }
                }
                out
            }),
        // Full-range values, then small ones with many equal.
        case(F, "bitonic_sort64")
            .global(&[512])
            .local(&[64])
            .buf({
                let mut v = rand_bits::<i32>(256, 16);
                v.extend(rand_i32(256, 17, -8, 8));
                v
            })
            .out::<i32>(512)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    let mut v = c.to_vec();
                    v.sort();
                    v
                })
            }),
        reverse_256(256, 3, 18),
        reverse_256(100, 5, 19),
        case(F, "local_float4")
            .global(&[256])
            .local(&[64])
            .buf(rand_f32(4 * 256, 20, -100.0, 100.0))
            .out::<f32>(2 * 4 * 256)
            .expect_f32(1, 0, |r| {
                let n = r.local[0];
                per_group(&r.input::<f32>(0), 4 * n, |c| {
                    let v = |i: usize| &c[4 * i..4 * i + 4];
                    (0..n)
                        .flat_map(|l| {
                            let (a, b) = (v((l + 1) % n), v(n - 1 - l));
                            let m = (l + 3) % n;
                            let t = v(m);
                            [
                                a[3] - b[0],
                                a[2] - b[1],
                                a[1] - b[2],
                                a[0] - b[3],
                                t[0],
                                m as f32,
                                t[2],
                                t[3],
                            ]
                        })
                        .collect()
                })
            }),
        case(F, "local_int2_ulong")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(2 * 256, 21, -1_000_000_000, 1_000_000_000))
            .buf(rand_bits::<u64>(256, 22))
            .out::<i32>(2 * 256)
            .out::<u64>(256)
            .expect(2, |r| {
                let n = r.local[0];
                per_group(&r.input::<i32>(0), 2 * n, |c| {
                    (0..n)
                        .flat_map(|l| {
                            let a = (l + 5) % n;
                            [
                                c[2 * a + 1].wrapping_add(c[2 * l]),
                                c[2 * a].wrapping_add(c[2 * l + 1]),
                            ]
                        })
                        .collect()
                })
            })
            .expect(3, |r| {
                let n = r.local[0];
                per_group(&r.input::<u64>(1), n, |u| {
                    (0..n)
                        .map(|l| (u[(l + 7) % n] ^ (u[l] >> 13)).wrapping_add(u[n - 1 - l]))
                        .collect()
                })
            }),
        case(F, "local_double")
            .global(&[256])
            .local(&[64])
            .buf(rand_f64(256, 23, -1.0e6, 1.0e6))
            .out::<f64>(256)
            .expect_f64(1, 0, |r| {
                let n = r.local[0];
                per_group(&r.input::<f64>(0), n, |c| {
                    (0..n).map(|l| c[(l + 3) % n] - c[l] * 0.5).collect()
                })
            }),
        // Multiples of 0.25 in [-500, 500): exact in half, and so are sums of two in float.
        case(F, "local_half")
            .global(&[256])
            .local(&[64])
            .buf(
                rand_i32(256, 24, -2000, 2000)
                    .into_iter()
                    .map(|x| x as f32 * 0.25)
                    .collect(),
            )
            .out::<f32>(256)
            .out::<u16>(256)
            .local_arg(64 * 2)
            .expect_f32(1, 0, |r| {
                let n = r.local[0];
                per_group(&r.input::<f32>(0), n, |c| {
                    (0..n).map(|l| c[(l + 1) % n] + c[l]).collect()
                })
            })
            .expect(2, |r| {
                let n = r.local[0];
                per_group(&r.input::<f32>(0), n, |c| {
                    (0..n).map(|l| half_bits(c[n - 1 - l])).collect()
                })
            }),
        // __local short b[65] (130 bytes) before __local int a[64]: a must still be aligned.
        case(F, "slm_layout")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 25, -1_000_000, 1_000_000))
            .out::<i32>(5 * 256)
            .local_arg(65 * 2)
            .local_arg(64 * 4)
            .expect(1, |r| {
                let n = r.local[0];
                per_group(&r.input::<i32>(0), n, |c| {
                    (0..n)
                        .flat_map(|l| {
                            let x = c[n - 1 - l];
                            [x, x * 3, (x + 1) as i16 as i32, -7, (l % 5 * 40 + 1) as i32]
                        })
                        .collect()
                })
            }),
        case(F, "helper_local")
            .global(&[512])
            .local(&[64])
            .buf(ints(512, 26))
            .out::<i32>(2 * 512)
            .local_arg(64 * 4)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    let sum = wsum(c);
                    let mx = c.iter().map(|&x| x ^ 0x55).max().unwrap();
                    c.iter().flat_map(|&x| [sum.wrapping_sub(x), mx]).collect()
                })
            }),
        case(F, "fences")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 27, -1000, 1000))
            .out::<i32>(2 * 256)
            .local_arg(64 * 4)
            .expect(1, |r| {
                let n = r.local[0];
                per_group(&r.input::<i32>(0), n, |c| {
                    (0..n)
                        .flat_map(|l| [4 * c[l] + 3, 2 * c[(l + 1) % n] + 1])
                        .collect()
                })
            }),
        case(F, "global_barrier")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 28, -100_000, 100_000))
            .out::<i32>(256)
            .out::<i32>(256)
            .expect(1, |r| {
                let n = r.local[0];
                per_group(&r.input::<i32>(0), n, |c| {
                    (0..n).map(|l| 3 * c[l] + l as i32).collect()
                })
            })
            .expect(2, |r| {
                let n = r.local[0];
                per_group(&r.input::<i32>(0), n, |c| {
                    let t = |l: usize| 3 * c[l] + l as i32;
                    let s = |l: usize| t((l + 1) % n) - t(l);
                    (0..n).map(|l| s(n - 1 - l) + t((l + 3) % n)).collect()
                })
            }),
        // 24 and 40: whole SIMD8 threads, a partial SIMD16 one; 20 and 13: a partial SIMD8
        // thread too.
        reduce_any_size(24, 20, 29),
        reduce_any_size(40, 15, 30),
        reduce_any_size(20, 20, 31),
        reduce_any_size(13, 20, 32),
        reduce_2d([32, 24], [8, 8], 33),
        reduce_2d([32, 16], [16, 4], 34),
        barrier_trips(64, 4, 35),
        barrier_trips(40, 5, 36),
        barrier_trips(16, 8, 37),
        ping_pong(5, 38),
        ping_pong(4, 39),
        case(F, "ptr_as_uint")
            .global(&[128])
            .local(&[64])
            .buf(rand_i32(128, 40, -100_000, 100_000))
            .out::<u32>(3 * 128)
            .out::<i32>(2 * 128)
            .expect(1, |_| {
                (0..128usize)
                    .flat_map(|g| {
                        let l = g % 64;
                        [4 * ((l + 1) % 64) as u32, 4 * g as u32, 4 * (l & 3) as u32]
                    })
                    .collect()
            })
            .expect(2, |r| {
                let a = r.input::<i32>(0);
                (0..128usize)
                    .flat_map(|g| {
                        let (l, base) = (g % 64, g - g % 64);
                        [a[base + 63 - l] + a[g] + (l & 3) as i32, a[g ^ 1]]
                    })
                    .collect()
            }),
    ]
}
