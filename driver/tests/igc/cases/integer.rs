//! Cases of tests/igc/integer.cl: integer builtins against Rust's wrapping,
//! saturating and widening arithmetic (the OpenCL C definitions).
use crate::igc::harness::*;

const F: &str = "integer.cl";
const N: usize = 256;

/// `v` with its first elements replaced by `e` (edge values every run sees).
pub fn edges<T: Copy>(mut v: Vec<T>, e: &[T]) -> Vec<T> {
    v[..e.len()].copy_from_slice(e);
    v
}

const I32_EDGES: [i32; 8] = [0, -1, 1, i32::MIN, i32::MAX, i32::MIN + 1, 0x7FFF, -0x8000];

fn ints(seed: u64) -> Vec<i32> {
    edges(rand_bits::<i32>(N, seed), &I32_EDGES)
}

/// Non-zero divisors, small and large, excluding -1 where `a` is INT_MIN.
fn divisors(seed: u64) -> Vec<i32> {
    let e = [1, -1, 2, -2, 7, i32::MAX, i32::MIN, 3];
    let v = rand_bits::<i32>(N, seed)
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            let x = if i % 3 == 0 { x >> 20 } else { x };
            if x == 0 {
                5
            } else {
                x
            }
        })
        .collect();
    edges(v, &e)
}

fn longs(seed: u64) -> Vec<i64> {
    edges(
        rand_bits::<i64>(N, seed),
        &[
            0,
            -1,
            1,
            i64::MIN,
            i64::MAX,
            1 << 32,
            -(1 << 32),
            0xFFFF_FFFF,
        ],
    )
}

/// Element `i` of each lane group of `v` (vectors laid out flat).
fn lanes<T: Copy>(v: &[T], n: usize, i: usize) -> &[T] {
    &v[n * i..n * i + n]
}

/// 39 input buffers and one output: binding-table indices up to 39, past the
/// 5-bit prefetch count of the interface descriptor.
fn many_buffers() -> Case {
    let mut c = case(F, "many_buffers").global(&[N]);
    for k in 0..39 {
        c = c.buf(ints(100 + k));
    }
    c.out::<i32>(N).expect(39, |r| {
        (0..N)
            .map(|i| {
                (0..39).fold(0i32, |s, k| {
                    s.wrapping_add((k as i32 + 1).wrapping_mul(r.input::<i32>(k)[i]))
                })
            })
            .collect()
    })
}

pub fn cases() -> Vec<Case> {
    vec![
        many_buffers(),
        case(F, "add_sub_mul_wrap")
            .global(&[N])
            .buf(ints(1))
            .buf(edges(ints(2), &[5, 1, -1, -1, 1, i32::MAX, i32::MIN, 2]))
            .out::<i32>(3 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| [x.wrapping_add(*y), x.wrapping_sub(*y), x.wrapping_mul(*y)])
                    .collect()
            }),
        case(F, "mul_hi_32")
            .global(&[N])
            .local(&[32])
            .buf(edges(
                rand_bits::<u32>(N, 3),
                &[0, u32::MAX, 0x8000_0000, u32::MAX, 1],
            ))
            .buf(edges(
                rand_bits::<u32>(N, 4),
                &[7, u32::MAX, 0x8000_0000, 1, 0x7FFF_FFFF],
            ))
            .out::<u32>(N)
            .out::<i32>(N)
            .expect(2, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&b)
                    .map(|(x, y)| ((*x as u64 * *y as u64) >> 32) as u32)
                    .collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&b)
                    .map(|(x, y)| ((*x as i64 * *y as i64) >> 32) as i32)
                    .collect()
            }),
        // mul24 is defined for 24-bit operands; products stay within 32 bits.
        case(F, "mad24_mul24")
            .global(&[N])
            .buf(edges(
                rand_i32(N, 5, -(1 << 23), 1 << 23),
                &[-(1 << 23), (1 << 23) - 1, 0, -1],
            ))
            .buf(edges(rand_i32(N, 6, -256, 256), &[255, 255, 7, -256]))
            .buf(ints(7))
            .out::<i32>(2 * N)
            .expect(3, |r| {
                let (a, b, c) = (r.input::<i32>(0), r.input::<i32>(1), r.input::<i32>(2));
                (0..N)
                    .flat_map(|i| {
                        let p = a[i].wrapping_mul(b[i]);
                        [p, p.wrapping_add(c[i])]
                    })
                    .collect()
            }),
        case(F, "i64_arith")
            .global(&[N])
            .local(&[16])
            .buf(longs(8))
            .buf(edges(
                rand_bits::<i64>(N, 9),
                &[0, 63, 64, 65, -1, 32, 31, 1],
            ))
            .out::<i64>(4 * N)
            .out::<u64>(3 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i64>(0), r.input::<i64>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        let n = (*y as u32) & 63;
                        [
                            x.wrapping_add(*y),
                            x.wrapping_sub(*y),
                            x.wrapping_mul(*y),
                            x >> n,
                        ]
                    })
                    .collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<u64>(0), r.input::<u64>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        let n = (*y as u32) & 63;
                        [x >> n, x << n, ((*x as u128 * *y as u128) >> 64) as u64]
                    })
                    .collect()
            }),
        case(F, "div_rem_i32")
            .global(&[N])
            .buf(edges(
                ints(10),
                &[7, -7, 7, -7, i32::MIN, i32::MAX, i32::MIN, 0],
            ))
            .buf(divisors(11))
            .out::<i32>(N)
            .out::<i32>(N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter().zip(&b).map(|(x, y)| x / y).collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter().zip(&b).map(|(x, y)| x % y).collect()
            }),
        case(F, "div_rem_u32")
            .global(&[N])
            .buf(edges(
                rand_bits::<u32>(N, 12),
                &[0, u32::MAX, 7, u32::MAX, 1],
            ))
            .buf(
                divisors(13)
                    .into_iter()
                    .map(|x| x as u32)
                    .collect::<Vec<u32>>(),
            )
            .out::<u32>(N)
            .out::<u32>(N)
            .expect(2, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter().zip(&b).map(|(x, y)| x / y).collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter().zip(&b).map(|(x, y)| x % y).collect()
            }),
        case(F, "div_rem_64")
            .global(&[N])
            .buf(edges(
                longs(14),
                &[7, -7, 1 << 40, -(1 << 40), i64::MIN, i64::MAX, 0, 3],
            ))
            .buf(edges(
                rand_bits::<i64>(N, 15)
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| match (i % 4, x) {
                        (_, 0) => 3,
                        (0, x) => x >> 40,
                        (1, x) => x >> 20,
                        (_, x) => x,
                    })
                    .map(|x| if x == 0 || x == -1 { 9 } else { x })
                    .collect(),
                &[2, 2, -3, 3, 1, -2, i64::MIN, i64::MAX],
            ))
            .out::<i64>(2 * N)
            .out::<u64>(2 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i64>(0), r.input::<i64>(1));
                a.iter().zip(&b).flat_map(|(x, y)| [x / y, x % y]).collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<u64>(0), r.input::<u64>(1));
                a.iter().zip(&b).flat_map(|(x, y)| [x / y, x % y]).collect()
            }),
        case(F, "shifts_masked")
            .global(&[N])
            .local(&[8])
            .buf(ints(16))
            .buf(edges(
                rand_bits::<i32>(N, 17),
                &[0, 31, 32, 33, -1, 1, 16, 63],
            ))
            .out::<i32>(3 * N)
            .expect(2, |r| {
                let (a, n) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&n)
                    .flat_map(|(x, c)| {
                        let c = (*c as u32) & 31;
                        [x << c, x >> c, ((*x as u32) >> c) as i32]
                    })
                    .collect()
            }),
        case(F, "rotate_bits")
            .global(&[N])
            .buf(edges(rand_bits::<u32>(N, 18), &[0x8000_0001, 1, u32::MAX]))
            .buf(edges(rand_bits::<u32>(N, 19), &[1, 32, 17]))
            .out::<u32>(N)
            .out::<u16>(N)
            .expect(2, |r| {
                let (a, n) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&n)
                    .map(|(x, c)| x.rotate_left(c & 31))
                    .collect()
            })
            .expect(3, |r| {
                let (a, n) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&n)
                    .map(|(x, c)| (*x as u16).rotate_left((*c as u16 & 15) as u32))
                    .collect()
            }),
        case(F, "bit_count")
            .global(&[N])
            .buf(edges(
                rand_bits::<u32>(N, 20),
                &[0, u32::MAX, 1, 0x8000_0000, 0x10],
            ))
            .buf(edges(
                rand_bits::<u64>(N, 21),
                &[0, u64::MAX, 1, 1 << 63, 1 << 32],
            ))
            .out::<u32>(3 * N)
            .out::<u64>(2 * N)
            .expect(2, |r| {
                r.input::<u32>(0)
                    .iter()
                    .flat_map(|x| [x.count_ones(), x.leading_zeros(), x.trailing_zeros()])
                    .collect()
            })
            .expect(3, |r| {
                r.input::<u64>(1)
                    .iter()
                    .flat_map(|x| [x.count_ones() as u64, x.leading_zeros() as u64])
                    .collect()
            }),
        case(F, "abs_family")
            .global(&[N])
            .buf(ints(22))
            .buf(edges(
                ints(23),
                &[0, i32::MAX, i32::MIN, i32::MAX, i32::MIN],
            ))
            .out::<u32>(2 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        [
                            x.unsigned_abs(),
                            (*x as i64 - *y as i64).unsigned_abs() as u32,
                        ]
                    })
                    .collect()
            }),
        case(F, "sat_arith")
            .global(&[N])
            .local(&[16])
            .buf(edges(
                ints(24),
                &[i32::MAX, i32::MIN, 200, 0x7F00, -0x7F00, 1],
            ))
            .buf(edges(ints(25), &[1, 1, 100, 0x100, 0x100, -1]))
            .out::<i32>(2 * N)
            .out::<u32>(2 * N)
            .out::<u8>(2 * N)
            .out::<i16>(2 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| [x.saturating_add(*y), x.saturating_sub(*y)])
                    .collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| [x.saturating_add(*y), x.saturating_sub(*y)])
                    .collect()
            })
            .expect(4, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        let (x, y) = (*x as u8, *y as u8);
                        [x.saturating_add(y), x.saturating_sub(y)]
                    })
                    .collect()
            })
            .expect(5, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        let (x, y) = (*x as i16, *y as i16);
                        [x.saturating_add(y), x.saturating_sub(y)]
                    })
                    .collect()
            }),
        case(F, "halving_add")
            .global(&[N])
            .buf(ints(26))
            .buf(edges(ints(27), &[0, -1, -1, i32::MIN, i32::MAX, i32::MAX]))
            .out::<i32>(2 * N)
            .out::<u32>(2 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        let s = *x as i64 + *y as i64;
                        [(s >> 1) as i32, ((s + 1) >> 1) as i32]
                    })
                    .collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| {
                        let s = *x as u64 + *y as u64;
                        [(s >> 1) as u32, ((s + 1) >> 1) as u32]
                    })
                    .collect()
            }),
        case(F, "min_max_clamp")
            .global(&[N])
            .buf(edges(
                rand_bits::<i32>(N, 28)
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| if i % 2 == 0 { x >> 20 } else { x })
                    .collect(),
                &I32_EDGES,
            ))
            .buf(ints(29))
            .out::<i32>(3 * N)
            .out::<u32>(3 * N)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| [*x.min(y), *x.max(y), (*x).clamp(-1000, 1000)])
                    .collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<u32>(0), r.input::<u32>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| [*x.min(y), *x.max(y), (*x).clamp(10, 0x8000_0000)])
                    .collect()
            }),
        case(F, "select_bits")
            .global(&[N])
            .buf(ints(30))
            .buf(ints(31))
            .buf(edges(ints(32), &[0, -1, 1, i32::MIN, 0]))
            .out::<i32>(3 * N)
            .expect(3, |r| {
                let (a, b, c) = (r.input::<i32>(0), r.input::<i32>(1), r.input::<i32>(2));
                (0..N)
                    .flat_map(|i| {
                        let (x, y, m) = (a[i], b[i], c[i]);
                        [
                            if m != 0 { y } else { x },
                            (x & !m) | (y & m),
                            if m < 0 { x } else { y },
                        ]
                    })
                    .collect()
            }),
        case(F, "small_types")
            .global(&[N])
            .buf(edges(rand_bits::<i8>(N, 33), &[-128, 127, -1, 0, 100]))
            .buf(edges(rand_bits::<i8>(N, 34), &[-128, 1, -1, 127, 100]))
            .buf(edges(
                rand_bits::<i16>(N, 35),
                &[i16::MIN, i16::MAX, -1, 0, 300],
            ))
            .out::<i8>(3 * N)
            .out::<i16>(2 * N)
            .out::<i32>(N)
            .expect(3, |r| {
                let (a, b) = (r.input::<i8>(0), r.input::<i8>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(x, y)| [x.wrapping_add(*y), x.wrapping_mul(*y), x >> 2])
                    .collect()
            })
            .expect(4, |r| {
                let (a, c) = (r.input::<i8>(0), r.input::<i16>(2));
                a.iter()
                    .zip(&c)
                    .flat_map(|(x, w)| [w.wrapping_mul(*x as i16), ((*w as u16) >> 3) as i16])
                    .collect()
            })
            .expect(5, |r| {
                let (a, b, c) = (r.input::<i8>(0), r.input::<i8>(1), r.input::<i16>(2));
                (0..N)
                    .map(|i| a[i] as i32 + b[i] as u8 as i32 + c[i] as i32)
                    .collect()
            }),
        case(F, "vectors")
            .global(&[N / 4])
            .buf(ints(36))
            .buf(ints(37))
            .buf(edges(
                rand_bits::<i16>(2 * N, 38),
                &[i16::MIN, i16::MAX, -1],
            ))
            .out::<i32>(2 * N)
            .out::<i16>(2 * N)
            .expect(3, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                (0..N / 4)
                    .flat_map(|i| {
                        let (x, y) = (lanes(&a, 4, i), lanes(&b, 4, i));
                        let p: Vec<i32> = (0..4)
                            .map(|k| x[k].wrapping_mul(y[k]).wrapping_add(x[k] ^ y[k]))
                            .collect();
                        let q: Vec<i32> =
                            (0..4).map(|k| (x[k] >> 3).wrapping_sub(y[3 - k])).collect();
                        [p, q].concat()
                    })
                    .collect()
            })
            .expect(4, |r| {
                let c = r.input::<i16>(2);
                (0..N / 4)
                    .flat_map(|i| {
                        let s = lanes(&c, 8, i);
                        (0..8)
                            .map(|k| s[k].wrapping_add(s[7 - k].wrapping_mul(3)))
                            .collect::<Vec<i16>>()
                    })
                    .collect()
            }),
        case(F, "mad_sat_hi")
            .global(&[N])
            .buf(ints(39))
            .buf(edges(ints(40), &[1, 1, -1, 2, 2]))
            .buf(edges(ints(41), &[1, -1, 0, 0, -5]))
            .out::<i32>(2 * N)
            .out::<u32>(2 * N)
            .expect(3, |r| {
                let (a, b, c) = (r.input::<i32>(0), r.input::<i32>(1), r.input::<i32>(2));
                (0..N)
                    .flat_map(|i| {
                        let p = a[i] as i64 * b[i] as i64;
                        let sat =
                            (p as i128 + c[i] as i128).clamp(i32::MIN as i128, i32::MAX as i128);
                        [sat as i32, ((p >> 32) as i32).wrapping_add(c[i])]
                    })
                    .collect()
            })
            .expect(4, |r| {
                let (a, b, c) = (r.input::<u32>(0), r.input::<u32>(1), r.input::<u32>(2));
                (0..N)
                    .flat_map(|i| {
                        let p = a[i] as u64 * b[i] as u64;
                        let sat = (p as u128 + c[i] as u128).min(u32::MAX as u128);
                        [sat as u32, ((p >> 32) as u32).wrapping_add(c[i])]
                    })
                    .collect()
            }),
        case(F, "ids_2d")
            .global(&[16, 8])
            .local(&[4, 2])
            .buf(ints(42)[..128].to_vec())
            .out::<i32>(2 * 128)
            .expect(1, |r| {
                let a = r.input::<i32>(0);
                let (g, l) = (r.global, r.local);
                (0..g[1])
                    .flat_map(|y| (0..g[0]).map(move |x| (x, y)))
                    .flat_map(|(x, y)| {
                        let i = y * g[0] + x;
                        [
                            a[i].wrapping_mul((x % l[0]) as i32)
                                .wrapping_add((y / l[1]) as i32),
                            ((g[0] / l[0]) * 1000 + l[1]) as i32,
                        ]
                    })
                    .collect()
            }),
        case(F, "ids_3d")
            .global(&[8, 4, 6])
            .local(&[8, 2, 3])
            .out::<u32>(2 * 8 * 4 * 6)
            .expect(0, |r| {
                let (g, l) = (r.global, r.local);
                let mut v = Vec::new();
                for z in 0..g[2] {
                    for y in 0..g[1] {
                        for x in 0..g[0] {
                            v.push((x | y << 8 | z << 16) as u32);
                            v.push(((z % l[2]) << 16 | (z / l[2]) << 8 | (x % l[0])) as u32);
                        }
                    }
                }
                v
            }),
        case(F, "upsample_pack")
            .global(&[N])
            .buf(edges(rand_bits::<i16>(N, 43), &[-1, i16::MIN, 0]))
            .buf(edges(rand_bits::<u16>(N, 44), &[u16::MAX, 0, 1]))
            .out::<i32>(N)
            .expect(2, |r| {
                let (h, l) = (r.input::<i16>(0), r.input::<u16>(1));
                h.iter()
                    .zip(&l)
                    .map(|(h, l)| ((*h as i32) << 16) | *l as i32)
                    .collect()
            }),
    ]
}
