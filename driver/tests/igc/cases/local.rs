//! Cases of tests/igc/local.cl.
use crate::igc::harness::*;

const F: &str = "local.cl";

/// Apply `f` to each group of `n` consecutive items, concatenating its outputs.
fn per_group<T: Copy, U>(a: &[T], n: usize, f: impl Fn(&[T]) -> Vec<U>) -> Vec<U> {
    a.chunks(n).flat_map(f).collect()
}

fn inclusive_sums(c: &[i32]) -> Vec<i32> {
    c.iter()
        .scan(0i32, |s, &x| {
            *s = s.wrapping_add(x);
            Some(*s)
        })
        .collect()
}

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "wg_sum")
            .global(&[1024])
            .local(&[256])
            .buf(rand_i32(1024, 101, -1000, 1000))
            .out::<i32>(4)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    vec![c.iter().sum::<i32>()]
                })
            }),
        case(F, "scan_hs")
            .global(&[512])
            .local(&[128])
            .buf(rand_i32(512, 102, -100, 100))
            .out::<i32>(512)
            .local_arg(128 * 4)
            .local_arg(128 * 4)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], inclusive_sums)
            }),
        case(F, "transpose16")
            .global(&[64, 32])
            .local(&[16, 16])
            .buf(rand_f32(64 * 32, 103, -10.0, 10.0))
            .out::<f32>(64 * 32)
            .expect(1, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let a = r.input::<f32>(0);
                let mut out = vec![0.0; w * h];
                for y in 0..h {
                    for x in 0..w {
                        out[x * h + y] = a[y * w + x];
                    }
                }
                out
            }),
        case(F, "reverse_group")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 104, -1000, 1000))
            .out::<i32>(256)
            .local_arg(64 * 4)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    c.iter().rev().copied().collect()
                })
            }),
        case(F, "local_histogram")
            .global(&[256])
            .local(&[64])
            .buf(rand_bits::<u32>(1024, 105))
            .out::<u32>(4 * 64)
            .expect(1, |r| {
                // Each item bins 4 inputs, so a group covers 4 * local inputs.
                per_group(&r.input::<u32>(0), 4 * r.local[0], |c| {
                    let mut bins = vec![0u32; 64];
                    for &x in c {
                        bins[((x >> 3) & 63) as usize] += 1;
                    }
                    bins
                })
            }),
        local_types(),
        case(F, "wg_reduce_builtin")
            .global(&[256])
            .local(&[128])
            .buf(rand_i32(256, 107, -100_000, 100_000))
            .out::<i32>(3 * 256)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    let v = [
                        c.iter().sum::<i32>(),
                        *c.iter().min().unwrap(),
                        *c.iter().max().unwrap(),
                    ];
                    c.iter().flat_map(|_| v).collect()
                })
            }),
        case(F, "wg_broadcast_1d")
            .global(&[192])
            .local(&[64])
            .buf(rand_i32(192, 108, -1000, 1000))
            .out::<i32>(192)
            .val(37u32)
            .expect(1, |r| {
                let src = r.value::<u32>(2) as usize;
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    c.iter().map(|&x| c[src] + x).collect()
                })
            }),
        case(F, "wg_broadcast_2d")
            .global(&[32, 8])
            .local(&[8, 4])
            .buf(rand_i32(32 * 8, 109, -1000, 1000))
            .out::<i32>(32 * 8)
            .expect(1, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let (lw, lh) = (r.local[0], r.local[1]);
                let a = r.input::<i32>(0);
                let mut out = vec![0; w * h];
                for y in 0..h {
                    for x in 0..w {
                        let (sx, sy) = (x / lw * lw + 3, y / lh * lh + 1);
                        out[y * w + x] = a[sy * w + sx];
                    }
                }
                out
            }),
        case(F, "wg_scan_builtin")
            .global(&[256])
            .local(&[128])
            .buf(rand_i32(256, 110, -1000, 1000))
            .out::<i32>(3 * 256)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    let inc = inclusive_sums(c);
                    let mut out = Vec::new();
                    let mut m = i32::MIN;
                    for (k, &x) in c.iter().enumerate() {
                        m = m.max(x);
                        out.extend([inc[k], inc[k] - x, m]);
                    }
                    out
                })
            }),
        case(F, "barrier_loop")
            .global(&[256])
            .local(&[128])
            .buf(rand_i32(256, 111, -1000, 1000))
            .out::<i32>(256)
            .val(5i32)
            .expect(1, |r| {
                let iters = r.value::<i32>(2);
                per_group(&r.input::<i32>(0), r.local[0], |c| {
                    let n = c.len();
                    let mut a = c.to_vec();
                    for it in 0..iters {
                        a = (0..n)
                            .map(|l| (a[(l + n - 1) % n] + 2 * a[l] + a[(l + 1) % n]) / 4 + it)
                            .collect();
                    }
                    a
                })
            }),
        case(F, "local_ids_2d")
            .global(&[32, 32])
            .local(&[16, 16])
            .out::<i32>(32 * 32)
            .expect(0, |r| {
                let (w, h) = (r.global[0], r.global[1]);
                let mut out = vec![0; w * h];
                for y in 0..h {
                    for x in 0..w {
                        out[y * w + x] =
                            ((y / 16) * 4096 + (x / 16) * 256 + (x % 16) * 16 + y % 16) as i32;
                    }
                }
                out
            }),
        case(F, "local_ids_3d")
            .global(&[8, 8, 8])
            .local(&[4, 4, 4])
            .out::<i32>(8 * 8 * 8)
            .expect(0, |r| {
                let (g, l) = (r.global, r.local);
                let n = l[0] * l[1] * l[2];
                // What the item with flat local id f stored.
                let stored = |f: usize| {
                    let (lx, ly, lz) = (f % l[0], f / l[0] % l[1], f / (l[0] * l[1]));
                    lz * 100 + ly * 10 + lx
                };
                let mut out = vec![0; g[0] * g[1] * g[2]];
                for z in 0..g[2] {
                    for y in 0..g[1] {
                        for x in 0..g[0] {
                            let flat = ((z % l[2]) * l[1] + y % l[1]) * l[0] + x % l[0];
                            out[(z * g[1] + y) * g[0] + x] =
                                (stored((flat + 1) % n) + flat * 1000) as i32;
                        }
                    }
                }
                out
            }),
        case(F, "sg_reduce")
            .global(&[128])
            .local(&[64])
            .buf(rand_i32(128, 112, -10_000, 10_000))
            .out::<i32>(4 * 128)
            .expect(1, |r| {
                let (s, lsz) = (16, r.local[0]);
                let a = r.input::<i32>(0);
                (0..a.len())
                    .flat_map(|g| {
                        let l = g % lsz;
                        let first = g - l % s;
                        let sum: i32 = a[first..first + s].iter().sum();
                        [
                            sum,
                            (l / s) as i32,
                            (l % s) as i32,
                            (s * 100 + lsz / s) as i32,
                        ]
                    })
                    .collect()
            }),
        case(F, "sg_broadcast")
            .global(&[128])
            .local(&[32])
            .buf(rand_i32(128, 113, -10_000, 10_000))
            .out::<i32>(3 * 128)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), 8, |c| {
                    let v = [c[3], *c.iter().min().unwrap(), *c.iter().max().unwrap()];
                    c.iter().flat_map(|_| v).collect()
                })
            }),
        case(F, "sg_scan")
            .global(&[128])
            .local(&[64])
            .buf(rand_i32(128, 114, -1000, 1000))
            .out::<i32>(2 * 128)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), 16, |c| {
                    let inc = inclusive_sums(c);
                    let mut m = i32::MIN; // the identity of max: exclusive max of lane 0
                    let mut out = Vec::new();
                    for (k, &x) in c.iter().enumerate() {
                        out.extend([inc[k], m]);
                        m = m.max(x);
                    }
                    out
                })
            }),
        case(F, "sg_shuffle")
            .global(&[64])
            .local(&[32])
            .buf(rand_i32(64, 115, -1000, 1000))
            .out::<i32>(2 * 64)
            .expect(1, |r| {
                per_group(&r.input::<i32>(0), 8, |c| {
                    (0..8).flat_map(|l| [c[(l + 3) & 7], c[l ^ 5]]).collect()
                })
            }),
        case(F, "wg_sum_long_float")
            .global(&[256])
            .local(&[64])
            .buf(rand_bits::<i64>(256, 116))
            // Integer-valued floats: every partial sum is exact in any order.
            .buf(
                rand_i32(256, 117, -1000, 1000)
                    .into_iter()
                    .map(|x| x as f32)
                    .collect(),
            )
            .out::<i64>(4)
            .out::<f32>(4)
            .local_arg(64 * 8)
            .local_arg(64 * 4)
            .expect(2, |r| {
                per_group(&r.input::<i64>(0), r.local[0], |c| {
                    vec![c.iter().fold(0i64, |s, &x| s.wrapping_add(x))]
                })
            })
            .expect_f32(3, 0, |r| {
                per_group(&r.input::<f32>(1), r.local[0], |c| vec![c.iter().sum()])
            }),
    ]
}

fn local_types() -> Case {
    case(F, "local_types")
        .global(&[128])
        .local(&[64])
        .buf(rand_i32(128, 106, -1000, 1000))
        .out::<i8>(128)
        .out::<i16>(128)
        .out::<i64>(128)
        .out::<f32>(128)
        .expect(1, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                let n = c.len();
                (0..n)
                    .map(|l| (c[(l + 1) % n] as i8).wrapping_add(c[l] as i8))
                    .collect()
            })
        })
        .expect(2, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                let n = c.len();
                let s = |x: i32| (x * 3) as i16;
                (0..n)
                    .map(|l| s(c[(l + 1) % n]).wrapping_sub(s(c[l])))
                    .collect()
            })
        })
        .expect(3, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                let n = c.len();
                let q = |x: i32| x as i64 * 0x10001 * 0x10001;
                (0..n).map(|l| q(c[(l + 1) % n]) ^ q(c[l])).collect()
            })
        })
        .expect_f32(4, 0, |r| {
            per_group(&r.input::<i32>(0), r.local[0], |c| {
                let n = c.len();
                let f = |x: i32| x as f32 * 0.5;
                (0..n).map(|l| f(c[(l + 1) % n]) + f(c[l])).collect()
            })
        })
}
