//! Cases of tests/igc/control.cl.
use crate::igc::harness::*;

const F: &str = "control.cl";

/// The fill pattern `out` leaves in an i32 the kernel never writes.
const UNWRITTEN: i32 = 0xA5A5_A5A5u32 as i32;

/// `n` values drawn mostly from `special`, otherwise uniform in [lo, hi).
fn mixed_i32(n: usize, seed: u64, special: &[i32], lo: i32, hi: i32) -> Vec<i32> {
    let mut r = Rng::new(seed);
    let other = rand_i32(n, seed + 1, lo, hi);
    (0..n)
        .map(|i| {
            let x = r.next_u64();
            if x.is_multiple_of(3) {
                other[i]
            } else {
                special[(x >> 8) as usize % special.len()]
            }
        })
        .collect()
}

fn gcd(mut a: i32, mut b: i32) -> i32 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn mix(a: i32, b: i32) -> i32 {
    if a > b {
        a * 2 - b
    } else {
        b * 3 + a
    }
}

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "divergent_if")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 1, -100_000, 100_000))
            .out::<i32>(256)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .map(|&x| if x & 1 != 0 { x * 3 + 1 } else { x / 2 - 7 })
                    .collect()
            }),
        case(F, "nested_if")
            .global(&[256])
            .local(&[128])
            .buf(mixed_i32(
                256,
                2,
                &[0, 501, 500, -500, -501, 999],
                -1000,
                1000,
            ))
            .out::<i32>(256)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .map(|&x| {
                        if x > 0 {
                            if x > 500 {
                                1 + if x % 3 == 0 { 10 } else { 0 }
                            } else {
                                2
                            }
                        } else {
                            let r = if x < -500 {
                                3
                            } else if x == 0 {
                                4
                            } else {
                                0
                            };
                            r + 100
                        }
                    })
                    .collect()
            }),
        case(F, "for_data_trip")
            .global(&[128])
            .local(&[32])
            .buf(rand_i32(128, 3, 0, 40))
            .out::<i32>(128)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| (0..n).map(|k| k * k + i as i32).sum::<i32>())
                    .collect()
            }),
        case(F, "while_break_continue")
            .global(&[64])
            .local(&[16])
            .buf(rand_i32(64 * 16, 4, -5, 20))
            .out::<i32>(128)
            .val(16i32)
            .expect(1, |r| {
                let row = r.value::<i32>(2) as usize;
                let a = r.input::<i32>(0);
                a.chunks(row)
                    .flat_map(|p| {
                        let (mut s, mut c) = (0, 0);
                        for &v in p {
                            if v < 0 {
                                continue;
                            }
                            if v == 0 {
                                break;
                            }
                            s += v;
                            c += 1;
                        }
                        [s, c]
                    })
                    .collect()
            }),
        case(F, "early_return")
            .global(&[128])
            .local(&[64])
            .buf(rand_i32(128, 5, -1000, 1000))
            .out::<i32>(128)
            .val(100i32)
            .expect(1, |r| {
                let n = r.value::<i32>(2) as usize;
                r.input::<i32>(0)
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| match () {
                        _ if i >= n => UNWRITTEN,
                        _ if x < 0 => -1,
                        _ => x * x,
                    })
                    .collect()
            }),
        case(F, "switch_dense")
            .global(&[256])
            .local(&[32])
            .buf(rand_i32(256, 6, -1000, 100_000))
            .out::<i32>(256)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .map(|&x| match x & 7 {
                        0 => x + 11,
                        1 => x * 5,
                        2 => x - 300,
                        3 => x ^ 0x5555,
                        4 => x << 3,
                        5 => -x,
                        6 => x / 3,
                        _ => 77,
                    })
                    .collect()
            }),
        case(F, "switch_sparse")
            .global(&[128])
            .local(&[16])
            .buf(mixed_i32(
                128,
                7,
                &[-100, 7, 1000, 65536, 12345, 8],
                -1000,
                70_000,
            ))
            .out::<i32>(128)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .map(|&x| match x {
                        -100 => 1,
                        7 => 2 + 3,
                        1000 => 3,
                        65536 => 4,
                        12345 => 5,
                        _ => x & 0xff,
                    })
                    .collect()
            }),
        {
            let (nrows, ncols) = (4usize, 16usize);
            // Mostly 0..200, with a sentinel -1 about once in 80 entries.
            let rows: Vec<i32> = rand_i32(8 * nrows * ncols, 8, 0, 200)
                .into_iter()
                .enumerate()
                .map(|(k, v)| if (k * 37) % 79 == 5 { -1 } else { v })
                .collect();
            case(F, "multi_exit")
                .global(&[128])
                .local(&[64])
                .buf(rows)
                .buf(rand_i32(128, 9, 0, 260))
                .out::<i32>(128)
                .val(nrows as i32)
                .val(ncols as i32)
                .expect(2, |r| {
                    let rows = r.input::<i32>(0);
                    let (nr, nc) = (r.value::<i32>(3) as usize, r.value::<i32>(4) as usize);
                    r.input::<i32>(1)
                        .iter()
                        .enumerate()
                        .map(|(i, &key)| {
                            let base = &rows[(i % 8) * nr * nc..][..nr * nc];
                            for (k, &v) in base.iter().enumerate() {
                                if v == key {
                                    return k as i32;
                                }
                                if v == -1 {
                                    return -2 - (k / nc) as i32 * 100;
                                }
                            }
                            -3
                        })
                        .collect()
                })
        },
        case(F, "do_while_digits")
            .global(&[128])
            .local(&[32])
            .buf({
                let mut v = rand_bits::<u32>(128, 10);
                v[0] = 0;
                v[1] = 7;
                v[2] = u32::MAX;
                v[3] = 1_000_000_000;
                for x in v.iter_mut().skip(64) {
                    *x %= 100_000;
                }
                v
            })
            .out::<u32>(256)
            .expect(1, |r| {
                r.input::<u32>(0)
                    .iter()
                    .flat_map(|&x0| {
                        let (mut x, mut rev, mut n) = (x0, 0u32, 0u32);
                        loop {
                            rev = rev.wrapping_mul(10).wrapping_add(x % 10);
                            x /= 10;
                            n += 1;
                            if x == 0 {
                                break;
                            }
                        }
                        [rev, n]
                    })
                    .collect()
            }),
        case(F, "noinline_calls")
            .global(&[64])
            .local(&[32])
            .buf(rand_i32(64, 11, 1, 10_000))
            .buf(rand_i32(64, 12, 1, 10_000))
            .out::<i32>(64)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                (0..a.len())
                    .map(|i| {
                        let g = gcd(a[i], b[i]);
                        let m = if i & 1 == 1 {
                            mix(a[i], b[i])
                        } else {
                            mix(b[i], g)
                        };
                        g * 1000 + m
                    })
                    .collect()
            }),
        case(F, "box_2d")
            .global(&[32, 16])
            .local(&[16, 4])
            .buf(rand_i32(32 * 16, 13, -500, 500))
            .out::<i32>(32 * 16)
            .expect(1, |r| {
                let (w, h) = (r.global[0] as i32, r.global[1] as i32);
                let a = r.input::<i32>(0);
                let mut out = vec![0; (w * h) as usize];
                for y in 0..h {
                    for x in 0..w {
                        let mut s = 0;
                        for dy in -1..=1 {
                            for dx in -1..=1 {
                                let xx = (x + dx).clamp(0, w - 1);
                                let yy = (y + dy).clamp(0, h - 1);
                                s += a[(yy * w + xx) as usize];
                            }
                        }
                        out[(y * w + x) as usize] = s;
                    }
                }
                out
            }),
        {
            let a = rand_i32(256, 14, -1000, 1000);
            let b: Vec<i32> = rand_i32(256, 15, -1000, 1000)
                .into_iter()
                .enumerate()
                .map(|(i, v)| if i % 5 == 0 { a[i] } else { v })
                .collect();
            case(F, "predicated_select")
                .global(&[256])
                .local(&[256])
                .buf(a)
                .buf(b)
                .out::<i32>(256)
                .expect(2, |r| {
                    let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                    a.iter()
                        .zip(&b)
                        .map(|(&x, &y)| {
                            let mut r = (x - y).abs();
                            r += if x < 0 { y } else { x };
                            r += if x == y { 1000 } else { 0 };
                            r ^ (x.max(y) & x.min(y))
                        })
                        .collect()
                })
        },
        uniform_case(1),
        uniform_case(2),
        uniform_case(3),
        case(F, "loop_u64")
            .global(&[64])
            .local(&[16])
            .buf({
                let mut v: Vec<u64> = (0..64u64).map(|i| (1u64 << 32) - 20 + i).collect();
                v[5] = 0;
                v[6] = 1 << 40;
                v[7] = (1u64 << 62) - 7;
                v
            })
            .out::<u64>(64)
            .expect(1, |r| {
                r.input::<u64>(0)
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| {
                        let end = b + (i as u64 % 13) * 3;
                        let mut s = 0u64;
                        let mut k = b;
                        while k < end {
                            s = s.wrapping_add(k ^ (k >> 7));
                            k += 3;
                        }
                        s
                    })
                    .collect()
            }),
        case(F, "bubble8")
            .global(&[64])
            .local(&[64])
            .buf(rand_i32(64 * 8, 16, -50, 50))
            .out::<i32>(64 * 8)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(8)
                    .flat_map(|c| {
                        let mut c = c.to_vec();
                        c.sort();
                        c
                    })
                    .collect()
            }),
        case(F, "collatz")
            .global(&[64])
            .local(&[32])
            .buf({
                let mut v: Vec<u32> = rand_i32(64, 17, 1, 3000)
                    .into_iter()
                    .map(|x| x as u32)
                    .collect();
                v[0] = 1;
                v[1] = 27;
                v[2] = 2;
                v[3] = 2919;
                v
            })
            .out::<u32>(64)
            .expect(1, |r| {
                r.input::<u32>(0)
                    .iter()
                    .map(|&x0| {
                        let (mut x, mut n) = (x0, 0);
                        while x != 1 {
                            x = if x & 1 == 1 { 3 * x + 1 } else { x / 2 };
                            n += 1;
                        }
                        n
                    })
                    .collect()
            }),
        case(F, "remainder_group")
            .global(&[100])
            .local(&[32])
            .out::<i32>(100)
            .out::<i32>(100)
            .expect(0, |r| {
                let (g, l) = (r.global[0], r.local[0]);
                (0..g)
                    .map(|i| {
                        let grp = i / l;
                        let size = l.min(g - grp * l);
                        (grp * 1_000_000 + size * 1000 + i % l) as i32
                    })
                    .collect()
            })
            .expect(1, |r| {
                let (g, l) = (r.global[0], r.local[0]);
                vec![(l * 1000 + g.div_ceil(l)) as i32; g]
            }),
        case(F, "ids_3d")
            .global(&[8, 8, 4])
            .local(&[4, 4, 2])
            .out::<i32>(8 * 8 * 4)
            .expect(0, |r| {
                let (g, l) = (r.global, r.local);
                let mut out = vec![0; g[0] * g[1] * g[2]];
                for z in 0..g[2] {
                    for y in 0..g[1] {
                        for x in 0..g[0] {
                            let lid = (z % l[2]) * 16 + (y % l[1]) * 4 + x % l[0];
                            let v = (z / l[2]) << 24 | (y / l[1]) << 16 | (x / l[0]) << 8 | lid;
                            out[(z * g[1] + y) * g[0] + x] = v as i32;
                        }
                    }
                }
                out
            }),
    ]
}

/// `uniform_vs_divergent` with by-value `mode` taking each of its three paths.
fn uniform_case(mode: i32) -> Case {
    case(F, "uniform_vs_divergent")
        .global(&[128])
        .local(&[64])
        .buf(rand_i32(128, 18, -1000, 1000))
        .out::<i32>(128)
        .val(mode)
        .expect(1, |r| {
            let mode = r.value::<i32>(2);
            r.input::<i32>(0)
                .iter()
                .map(|&x| match mode {
                    1 if x > 0 => x * 2,
                    1 => -x,
                    2 => (0..mode).fold(x, |x, k| x * 3 + k),
                    _ => 5,
                })
                .collect()
        })
}
