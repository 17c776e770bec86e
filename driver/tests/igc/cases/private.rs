//! Cases of tests/igc/private.cl.
use crate::igc::harness::*;

const F: &str = "private.cl";

/// The RPN machine of `priv_rpn`, run on the CPU: (stack hash, depth).
fn rpn(prog: &[i32]) -> [i32; 2] {
    let mut st: Vec<i32> = Vec::new();
    for &op in prog {
        if op < 100 {
            if st.len() < 16 {
                st.push(op);
            }
        } else if st.len() >= 2 {
            let n = st.len();
            let (a, b) = (st[n - 2], st[n - 1]);
            match op {
                100 => {
                    st.pop();
                    st[n - 2] = a.wrapping_add(b);
                }
                101 => {
                    st.pop();
                    st[n - 2] = a.wrapping_sub(b);
                }
                102 => {
                    st.pop();
                    st[n - 2] = a.wrapping_mul(b);
                }
                103 => {
                    if n < 16 {
                        st.push(b);
                    }
                }
                _ => st.swap(n - 2, n - 1),
            }
        }
    }
    let hash = st
        .iter()
        .fold(0i32, |s, &x| s.wrapping_mul(31).wrapping_add(x));
    [hash, st.len() as i32]
}

fn primes_below(n: i32) -> i32 {
    (2..n).filter(|&k| (2..k).all(|d| k % d != 0)).count() as i32
}

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "priv_small_dyn")
            .global(&[128])
            .local(&[32])
            .buf(rand_i32(128 * 8, 301, -1000, 1000))
            .buf(rand_i32(128, 302, 0, 512))
            .out::<i32>(128 * 9)
            .expect(2, |r| {
                let (a, idx) = (r.input::<i32>(0), r.input::<i32>(1));
                idx.iter()
                    .enumerate()
                    .flat_map(|(i, &j)| {
                        let mut a = a[i * 8..i * 8 + 8].to_vec();
                        a[(j & 7) as usize] += 100;
                        a[((j >> 3) & 7) as usize] *= 3;
                        let s = a[((j >> 6) & 7) as usize];
                        a.push(s);
                        a
                    })
                    .collect()
            }),
        case(F, "priv_large_int")
            .global(&[64])
            .local(&[16])
            .buf(rand_i32(64, 303, -100_000, 100_000))
            .out::<i32>(128)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .flat_map(|&x| {
                        let mut a: Vec<i32> = (0..256).map(|k| k * 37 + x).collect();
                        let mut p = (x & 255) as usize;
                        let mut s = 0i32;
                        for step in 0..64 {
                            let v = a[p];
                            s = s.wrapping_add(v);
                            let w = (v.wrapping_mul(7) & 255) as usize;
                            a[w] = a[w].wrapping_add(step);
                            p = ((v ^ step) & 255) as usize;
                        }
                        let m = (x & 255) as usize;
                        [s, a[m].wrapping_add(a[255 - m])]
                    })
                    .collect()
            }),
        case(F, "priv_large_float")
            .global(&[64])
            .local(&[32])
            .buf(
                rand_i32(64, 304, -8, 8)
                    .into_iter()
                    .map(|x| x as f32)
                    .collect(),
            )
            .buf(rand_bits::<u8>(1024, 305))
            .out::<f32>(64)
            .expect_f32(2, 0, |r| {
                let picks = r.input::<u8>(1);
                r.input::<f32>(0)
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| {
                        let mut a: Vec<f32> = (0..128).map(|k| k as f32 * x).collect();
                        let mut s = 0.0f32;
                        for j in 0..32 {
                            let k = (picks[(i * 32 + j) % 1024] & 127) as usize;
                            s += a[k];
                            a[(k + 1) & 127] = s;
                        }
                        s
                    })
                    .collect()
            }),
        priv_struct(),
        case(F, "priv_long_array")
            .global(&[64])
            .local(&[64])
            .buf(rand_bits::<u64>(64, 307))
            .out::<u64>(64)
            .expect(1, |r| {
                r.input::<u64>(0)
                    .iter()
                    .map(|&x| {
                        let mut a = vec![x];
                        for k in 1..16u64 {
                            let prev = a[k as usize - 1];
                            a.push(prev.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(k));
                        }
                        (0..16).fold(0u64, |s, k| s ^ (a[((x >> (4 * k)) & 15) as usize] >> k))
                    })
                    .collect()
            }),
        case(F, "priv_char_array")
            .global(&[64])
            .local(&[16])
            .buf(rand_bits::<u8>(64 * 32, 308))
            .out::<u8>(64 * 32)
            .out::<i32>(64)
            .expect(1, |r| {
                r.input::<u8>(0)
                    .chunks(32)
                    .flat_map(|c| c.iter().rev().copied().collect::<Vec<_>>())
                    .collect()
            })
            .expect(2, |r| {
                r.input::<u8>(0)
                    .chunks(32)
                    .map(|c| {
                        let a: Vec<u8> = c.iter().rev().copied().collect();
                        let th = a[(a[0] & 31) as usize];
                        a.iter().filter(|&&x| x > th).count() as i32
                    })
                    .collect()
            }),
        case(F, "priv_lut_loop")
            .global(&[128])
            .local(&[128])
            .buf(rand_bits::<u32>(128, 309))
            .out::<u32>(128)
            .val(0xDEAD_BEEFu32)
            .expect(1, |r| {
                let seed = r.value::<u32>(2);
                r.input::<u32>(0)
                    .iter()
                    .map(|&x0| {
                        let mut x = x0;
                        let mut s = 0u32;
                        for _ in 0..5 {
                            let k = x & 63;
                            s = s.wrapping_add((k * k) ^ seed);
                            x >>= 6;
                        }
                        s
                    })
                    .collect()
            }),
        case(F, "priv_sort")
            .global(&[64])
            .local(&[32])
            .buf(rand_i32(64 * 16, 310, -30, 30))
            .out::<i32>(64 * 16)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(16)
                    .flat_map(|c| {
                        let mut c = c.to_vec();
                        c.sort();
                        c
                    })
                    .collect()
            }),
        case(F, "priv_2d")
            .global(&[64])
            .local(&[16])
            .buf(rand_i32(64 * 16, 311, -100, 100))
            .out::<i32>(128)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(16)
                    .flat_map(|m| {
                        let p = |r: usize, c: usize| {
                            (0..4).map(|k| m[r * 4 + k] * m[c * 4 + k]).sum::<i32>()
                        };
                        let sel = (m[0] & 15) as usize;
                        [p(sel >> 2, sel & 3), (0..4).map(|d| p(d, d)).sum()]
                    })
                    .collect()
            }),
        case(F, "priv_ptr_arith")
            .global(&[64])
            .local(&[64])
            .buf(rand_i32(64 * 16, 312, -1000, 1000))
            .out::<i32>(128)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(16)
                    .flat_map(|a| {
                        let off = (a[0] & 7) as usize;
                        let s: i32 = a[off..].iter().sum();
                        [a[off + 1] * 2 + a[off + 3], s + (16 - off) as i32]
                    })
                    .collect()
            }),
        case(F, "priv_ptr_noinline")
            .global(&[64])
            .local(&[32])
            .buf(rand_i32(64 * 12, 313, -1000, 1000))
            .out::<i32>(64)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(12)
                    .enumerate()
                    .map(|(i, c)| {
                        let mut a = c.to_vec();
                        let n = 4 + i % 8;
                        let f = (i & 3) as i32 - 1;
                        for x in &mut a[1..1 + n] {
                            *x *= f;
                        }
                        a.iter()
                            .enumerate()
                            .map(|(k, &x)| x * (k as i32 + 1))
                            .sum::<i32>()
                    })
                    .collect()
            }),
        case(F, "priv_short_hist")
            .global(&[64])
            .local(&[16])
            .buf(rand_bits::<u8>(64 * 48, 314))
            .out::<i16>(64 * 24)
            .expect(1, |r| {
                r.input::<u8>(0)
                    .chunks(48)
                    .flat_map(|c| {
                        let mut h = vec![0i16; 24];
                        for (k, &b) in c.iter().enumerate() {
                            h[b as usize % 24] += k as i16 - 20;
                        }
                        h
                    })
                    .collect()
            }),
        case(F, "priv_vec_array")
            .global(&[64])
            .local(&[16])
            .buf(rand_i32(64 * 32, 315, -1000, 1000))
            .out::<i32>(64)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(32)
                    .map(|v| {
                        // v[4k..4k+4] is int4 number k.
                        (0..8)
                            .map(|k| {
                                let w = (v[4 * k] & 7) as usize;
                                let c = (v[4 * k + 1] & 3) as usize;
                                v[4 * w + c]
                            })
                            .sum::<i32>()
                    })
                    .collect()
            }),
        {
            let len = 24usize;
            let mut g = Rng::new(316);
            let prog: Vec<i32> = (0..64 * len)
                .map(|_| {
                    let x = g.next_u64();
                    if x & 1 == 0 {
                        ((x >> 8) % 100) as i32
                    } else {
                        100 + ((x >> 8) % 5) as i32
                    }
                })
                .collect();
            case(F, "priv_rpn")
                .global(&[64])
                .local(&[16])
                .buf(prog)
                .out::<i32>(128)
                .val(len as i32)
                .expect(1, |r| {
                    let len = r.value::<i32>(2) as usize;
                    r.input::<i32>(0).chunks(len).flat_map(rpn).collect()
                })
        },
        case(F, "priv_sieve")
            .global(&[64])
            .local(&[32])
            .buf(rand_i32(64, 317, 2, 129))
            .out::<i32>(64)
            .expect(1, |r| {
                r.input::<i32>(0).iter().map(|&n| primes_below(n)).collect()
            }),
    ]
}

fn priv_struct() -> Case {
    /// The kernel's array of structs, as (id, w, s, c, l), after its swap; and j.
    #[allow(clippy::type_complexity)]
    fn items(c: &[i32]) -> (Vec<(i32, f32, i16, i8, i64)>, usize) {
        let mut t: Vec<_> = c
            .iter()
            .map(|&x| {
                (
                    x,
                    x as f32 * 0.25,
                    (x * 100) as i16,
                    x as i8,
                    (x as i64) << 33,
                )
            })
            .collect();
        let j = (c[0] & 7) as usize;
        t.swap(j, 7 - j);
        (t, j)
    }
    case(F, "priv_struct")
        .global(&[64])
        .local(&[16])
        .buf(rand_i32(64 * 8, 306, -1000, 1000))
        .out::<i32>(128)
        .out::<f32>(64)
        .out::<i64>(64)
        .expect(1, |r| {
            r.input::<i32>(0)
                .chunks(8)
                .flat_map(|c| {
                    let (t, j) = items(c);
                    [
                        t[(j + 3) & 7].0 + t[j].2 as i32,
                        t[j].3 as i32 * 1000 + t[7 - j].3 as i32,
                    ]
                })
                .collect()
        })
        .expect_f32(2, 0, |r| {
            r.input::<i32>(0)
                .chunks(8)
                .map(|c| {
                    let (t, j) = items(c);
                    t[j].1 + t[(j + 1) & 7].1
                })
                .collect()
        })
        .expect(3, |r| {
            r.input::<i32>(0)
                .chunks(8)
                .map(|c| {
                    let (t, j) = items(c);
                    t[j].4 + t[7 - j].4 + t[(j + 5) & 7].4
                })
                .collect()
        })
}
