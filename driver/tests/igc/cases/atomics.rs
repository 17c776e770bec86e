//! Cases of tests/igc/atomics.cl. Atomics that return old values race by
//! design, so their checks accept every serial order and nothing else.
use crate::igc::harness::*;

const F: &str = "atomics.cl";

/// Old values returned by atomic additions of positive `vals` to one counter
/// that started at `init` and ended at `fin`: sorted by old value they must
/// form one serial chain init -> ... -> fin.
fn check_add_chain<T>(init: T, vals: &[T], olds: &[T], fin: T) -> Result<(), String>
where
    T: Elem + Ord + std::ops::Add<Output = T>,
{
    let mut order: Vec<usize> = (0..olds.len()).collect();
    order.sort_by_key(|&i| olds[i]);
    let mut expect = init;
    for &i in &order {
        if olds[i] != expect {
            return Err(format!(
                "item {i} saw {:?}, no serial order of the additions gives it (next in chain {:?})",
                olds[i], expect
            ));
        }
        expect = expect + vals[i];
    }
    if fin != expect {
        return Err(format!("final {fin:?} != {expect:?}"));
    }
    Ok(())
}

/// `got`, sorted, equals `want`, sorted.
fn same_multiset<T: Elem + Ord>(got: &[T], want: &[T]) -> Result<(), String> {
    let mut g = got.to_vec();
    let mut w = want.to_vec();
    g.sort();
    w.sort();
    expect_eq(&g, &w).map_err(|e| format!("as multisets: {e}"))
}

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "atomic_add_old")
            .global(&[512])
            .local(&[128])
            .buf(rand_i32(512, 201, 1, 100))
            .buf(vec![5i32])
            .out::<i32>(512)
            .check(|r| {
                check_add_chain(
                    r.input::<i32>(1)[0],
                    &r.input::<i32>(0),
                    &r.output::<i32>(2),
                    r.output::<i32>(1)[0],
                )
            }),
        case(F, "atomic_inc_perm")
            .global(&[256])
            .local(&[64])
            .buf(vec![0u32])
            .out::<u32>(256)
            .expect(0, |r| vec![r.global[0] as u32])
            .check(|r| {
                same_multiset(
                    &r.output::<u32>(1),
                    &(0..r.global[0] as u32).collect::<Vec<_>>(),
                )
            }),
        case(F, "atomic_dec_perm")
            .global(&[256])
            .local(&[32])
            .buf(vec![1000i32])
            .out::<i32>(256)
            .expect(0, |r| vec![1000 - r.global[0] as i32])
            .check(|r| {
                let n = r.global[0] as i32;
                same_multiset(
                    &r.output::<i32>(1),
                    &(1000 - n + 1..=1000).collect::<Vec<_>>(),
                )
            }),
        case(F, "atomic_sub_bins")
            .global(&[512])
            .local(&[256])
            .buf(rand_bits::<u32>(512, 202))
            .buf(rand_bits::<u32>(16, 203))
            .expect(1, |r| {
                let mut bins = r.input::<u32>(1);
                for x in r.input::<u32>(0) {
                    let b = &mut bins[(x & 15) as usize];
                    *b = b.wrapping_sub(x >> 4);
                }
                bins
            }),
        case(F, "atomic_min_max_int")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 204, -1_000_000, 500_000))
            .buf(vec![i32::MAX, i32::MIN])
            .buf({
                // Some bins start beyond every input, so they must stay as they are.
                let mut b = vec![0i32; 16];
                b[4] = -2_000_000;
                b[7] = 2_000_000;
                b
            })
            .expect(1, |r| {
                let a = r.input::<i32>(0);
                let init = r.input::<i32>(1);
                vec![
                    a.iter().copied().fold(init[0], i32::min),
                    a.iter().copied().fold(init[1], i32::max),
                ]
            })
            .expect(2, |r| {
                let mut b = r.input::<i32>(2);
                for (i, &x) in r.input::<i32>(0).iter().enumerate() {
                    b[2 * (i % 8)] = b[2 * (i % 8)].min(x);
                    b[2 * (i % 8) + 1] = b[2 * (i % 8) + 1].max(x);
                }
                b
            }),
        case(F, "atomic_min_max_uint")
            .global(&[128])
            .local(&[64])
            .buf(rand_bits::<u32>(128, 205))
            .buf(vec![u32::MAX, 0x7fff_ffff])
            .out::<u32>(128)
            .expect(1, |r| {
                let a = r.input::<u32>(0);
                let init = r.input::<u32>(1);
                vec![
                    a.iter().copied().fold(init[0], u32::min),
                    a.iter().copied().fold(init[1], u32::max),
                ]
            })
            .check(|r| {
                // Each returned old value is the initial value or an input that
                // was the running maximum, so not above the final maximum.
                let a = r.input::<u32>(0);
                let init = r.input::<u32>(1)[1];
                let fin = r.output::<u32>(1)[1];
                for (i, &o) in r.output::<u32>(2).iter().enumerate() {
                    if (o != init && !a.contains(&o)) || o > fin {
                        return Err(format!("old[{i}] = {o:#x} (final max {fin:#x})"));
                    }
                }
                Ok(())
            }),
        case(F, "atomic_bits")
            .global(&[200])
            .local(&[40])
            .buf(rand_bits::<u32>(200, 206))
            .buf(vec![0u32, 0x100, 0, 0x8000_0000])
            .buf(rand_bits::<u32>(4, 207))
            .buf(rand_bits::<u32>(4, 208))
            .expect(1, |r| {
                let mut w = r.input::<u32>(1);
                for i in 0..r.global[0] {
                    w[(i / 32) % 4] |= 1 << (i % 32);
                }
                w
            })
            .expect(2, |r| {
                let mut w = r.input::<u32>(2);
                for i in 0..r.global[0] {
                    w[(i / 32) % 4] &= !(1 << (i % 32));
                }
                w
            })
            .expect(3, |r| {
                let mut w = r.input::<u32>(3);
                for (i, x) in r.input::<u32>(0).iter().enumerate() {
                    w[i % 4] ^= x;
                }
                w
            }),
        case(F, "atomic_xchg_chain")
            .global(&[256])
            .local(&[128])
            .buf((0..256).map(|i| i * 7 + 3).collect::<Vec<i32>>())
            .buf(vec![-5i32])
            .out::<i32>(256)
            .check(|r| {
                let mut got = r.output::<i32>(2);
                got.push(r.output::<i32>(1)[0]);
                let mut want = r.input::<i32>(0);
                want.push(r.input::<i32>(1)[0]);
                same_multiset(&got, &want)
            }),
        case(F, "atomic_cmpxchg_claim")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 209, 0, 300))
            .buf(vec![-1i32; 320])
            .out::<i32>(256)
            .check(|r| {
                let keys: Vec<usize> = r.input::<i32>(0).iter().map(|&k| k as usize).collect();
                let wide = |v: Vec<i32>| v.into_iter().map(i64::from).collect::<Vec<_>>();
                check_claims(
                    &keys,
                    &wide(r.output::<i32>(1)),
                    &wide(r.output::<i32>(2)),
                    -1,
                    |i| i as i64,
                )
            }),
        case(F, "atom_add_long")
            .global(&[256])
            .local(&[64])
            .buf({
                let mut r = Rng::new(210);
                (0..256)
                    .map(|_| 1 + (r.next_u64() >> 28) as i64)
                    .collect::<Vec<i64>>()
            })
            .buf(vec![(1i64 << 32) - 10, 0, -5, 7])
            .out::<i64>(256)
            .check(|r| {
                check_add_chain(
                    r.input::<i64>(1)[0],
                    &r.input::<i64>(0),
                    &r.output::<i64>(2),
                    r.output::<i64>(1)[0],
                )
            })
            .check(|r| {
                let mut acc = r.input::<i64>(1);
                for (i, &x) in r.input::<i64>(0).iter().enumerate() {
                    acc[1 + i % 3] += x * 3;
                }
                expect_eq(&r.output::<i64>(1)[1..], &acc[1..])
            }),
        case(F, "atom_cmpxchg_long")
            .global(&[128])
            .local(&[32])
            .buf(
                rand_i32(128, 211, 0, 100)
                    .into_iter()
                    .map(i64::from)
                    .collect::<Vec<_>>(),
            )
            .buf(vec![-1i64; 100])
            .out::<i64>(128)
            .buf(vec![0i64])
            .check(|r| {
                let keys: Vec<usize> = r.input::<i64>(0).iter().map(|&k| k as usize).collect();
                check_claims(&keys, &r.output::<i64>(1), &r.output::<i64>(2), -1, |i| {
                    (i as i64) << 40 | 0x123
                })
            })
            .check(|r| {
                let last = r.output::<i64>(3)[0];
                let n = r.global[0] as i64;
                if (0x77_0000_0000..0x77_0000_0000 + n).contains(&last) {
                    Ok(())
                } else {
                    Err(format!("last = {last:#x}, not one item's value"))
                }
            }),
        case(F, "local_atomic_count")
            .global(&[256])
            .local(&[64])
            .buf(rand_i32(256, 212, -100, 100))
            .buf(vec![0i32; 5])
            .out::<i32>(256)
            .expect(1, |r| {
                let mut t = vec![r.global[0] as i32];
                t.extend(
                    r.input::<i32>(0)
                        .chunks(r.local[0])
                        .map(|c| c.iter().sum::<i32>()),
                );
                t
            })
            .check(|r| {
                let l = r.local[0] as i32;
                for (g, c) in r.output::<i32>(2).chunks(r.local[0]).enumerate() {
                    same_multiset(c, &(0..l).collect::<Vec<_>>())
                        .map_err(|e| format!("group {g}: {e}"))?;
                }
                Ok(())
            }),
        case(F, "atomic_fetch_add_relaxed")
            .global(&[256])
            .local(&[256])
            .buf(rand_i32(256, 213, 1, 1000))
            .buf(vec![-100_000i32])
            .out::<i32>(256)
            .check(|r| {
                check_add_chain(
                    r.input::<i32>(1)[0],
                    &r.input::<i32>(0),
                    &r.output::<i32>(2),
                    r.output::<i32>(1)[0],
                )
            }),
        case(F, "atomic_c11_misc")
            .global(&[128])
            .local(&[64])
            .buf(rand_i32(128, 214, -1_000_000, 1_000_000))
            .buf(vec![0i32, i32::MAX, i32::MIN])
            .buf(vec![0u32, 9])
            .out::<i32>(128)
            .check(|r| {
                let won = r.output::<i32>(3);
                let winners: Vec<usize> = (0..won.len()).filter(|&i| won[i] != 0).collect();
                let v0 = r.output::<i32>(1)[0];
                if winners.len() != 1 || won[winners[0]] != 1 || v0 != winners[0] as i32 + 1 {
                    return Err(format!("winners {winners:?}, v[0] = {v0}"));
                }
                Ok(())
            })
            .check(|r| {
                let a = r.input::<i32>(0);
                let v = r.output::<i32>(1);
                expect_eq(
                    &v[1..],
                    &[*a.iter().min().unwrap(), *a.iter().max().unwrap()],
                )
            })
            .expect(2, |r| {
                let bits = (0..r.global[0]).fold(0u32, |b, i| b | 1 << (i % 32));
                vec![bits, 5]
            }),
        case(F, "atomic_float_cas")
            .global(&[256])
            .local(&[64])
            .buf(
                rand_i32(256, 215, -100, 100)
                    .into_iter()
                    .map(|x| x as f32)
                    .collect(),
            )
            .buf(vec![0.0f32, 0.5])
            .expect_f32(1, 0, |r| {
                let mut s = r.input::<f32>(1);
                for (i, x) in r.input::<f32>(0).iter().enumerate() {
                    s[i % 2] += x;
                }
                s
            }),
        case(F, "atomic_histogram")
            .global(&[512])
            .local(&[128])
            .buf(rand_bits::<u32>(512, 216))
            .buf(vec![0u32; 32])
            .expect(1, |r| {
                let mut bins = vec![0u32; 32];
                for x in r.input::<u32>(0) {
                    bins[(x.wrapping_mul(2_654_435_761) >> 27) as usize] += 1;
                }
                bins
            }),
        case(F, "atomic_add_private_slots")
            .global(&[64])
            .local(&[16])
            .buf(rand_i32(64, 217, -1000, 1000))
            .buf(rand_i32(64, 218, -1000, 1000))
            .out::<i32>(64)
            .expect(1, |r| {
                let a = r.input::<i32>(0);
                r.input::<i32>(1)
                    .iter()
                    .zip(&a)
                    .map(|(s, x)| s + x - 1)
                    .collect()
            })
            .check(|r| {
                // Item i-1's decrement of slot i may land before or after item i's add.
                let init = r.input::<i32>(1);
                for (i, &o) in r.output::<i32>(2).iter().enumerate() {
                    if o != init[i] && o != init[i] - 1 {
                        return Err(format!("old[{i}] = {o}, slot started at {}", init[i]));
                    }
                }
                Ok(())
            }),
    ]
}
