//! Cases of tests/jit/atomics.cl: atomics under contention. Final values are exact (sums,
//! counts, minima and maxima, bit sets: every order of the atomics gives the same result);
//! returned old values race by design, so their checks accept every serial order of the
//! atomics and nothing else (a permutation, one chain, one winner per slot). Signed sums stay
//! in range; float sums are of integers, exact in any order, checked to 0 ulp.
use std::collections::{BTreeMap, HashMap};

use crate::igc::harness::*;

const F: &str = "atomics.cl";

/// The bytes `Case::out` fills a buffer with: what a slot no item writes keeps.
const FILL: u32 = 0xA5A5_A5A5;

/// The multiplier of the kernels' hashes.
const GOLDEN: u32 = 2_654_435_761;

/// `got`, sorted, equals `want`, sorted.
fn same_multiset<T: Elem + Ord>(got: &[T], want: &[T]) -> Result<(), String> {
    let mut g = got.to_vec();
    let mut w = want.to_vec();
    g.sort();
    w.sort();
    expect_eq(&g, &w).map_err(|e| format!("as multisets: {e}"))
}

/// Old values returned by atomics that each moved one counter monotonically (`step(old, val)`
/// the new value; increasing when `up`) from `init` to `fin`: in the counter's order they must
/// form one serial chain.
fn check_chain<T: Elem + Ord>(
    init: T,
    vals: &[T],
    olds: &[T],
    fin: T,
    up: bool,
    step: impl Fn(T, T) -> T,
) -> Result<(), String> {
    let mut order: Vec<usize> = (0..olds.len()).collect();
    order.sort_by_key(|&i| olds[i]);
    if !up {
        order.reverse();
    }
    let mut expect = init;
    for &i in &order {
        if olds[i] != expect {
            return Err(format!(
                "item {i} saw {:?}, which no serial order gives (next in the chain: {expect:?})",
                olds[i]
            ));
        }
        expect = step(expect, vals[i]);
    }
    if fin != expect {
        return Err(format!("final {fin:?}, the chain ends at {expect:?}"));
    }
    Ok(())
}

/// Old values returned by atomic max (`max`) or min of `vals` on one location that started at
/// `init` and ended at `fin`: the final value is the extreme of all; each old value is the
/// initial value or another item's value, between the initial and the final value; the first
/// atomic to land saw the initial value.
fn check_extreme_olds<T: Elem + Ord>(
    init: T,
    vals: &[T],
    olds: &[T],
    fin: T,
    max: bool,
) -> Result<(), String> {
    let best = |a: T, b: T| if max { a.max(b) } else { a.min(b) };
    let want = vals.iter().fold(init, |a, &b| best(a, b));
    if fin != want {
        return Err(format!("final {fin:?}, want {want:?}"));
    }
    let mut count = BTreeMap::new();
    for &v in vals {
        *count.entry(v).or_insert(0usize) += 1;
    }
    let (lo, hi) = if max { (init, fin) } else { (fin, init) };
    for (i, &o) in olds.iter().enumerate() {
        let others = count.get(&o).copied().unwrap_or(0) - usize::from(vals[i] == o);
        if o != init && others == 0 {
            return Err(format!(
                "item {i} saw {o:?}: neither the initial value nor another item's"
            ));
        }
        if o < lo || o > hi {
            return Err(format!("item {i} saw {o:?}, outside {lo:?}..={hi:?}"));
        }
    }
    if !olds.is_empty() && !olds.contains(&init) {
        return Err(format!("no item saw the initial value {init:?}"));
    }
    Ok(())
}

/// Each int as an i64 (the claim flags `check_claims` reads).
fn wide(v: &[i32]) -> Vec<i64> {
    v.iter().map(|&x| i64::from(x)).collect()
}

/// A compaction's output: the first `count` elements are, as a multiset, the selected inputs,
/// and the rest keep the fill.
fn check_compacted<T: Elem + Ord>(
    out: &[T],
    count: usize,
    selected: &[T],
    fill: T,
) -> Result<(), String> {
    if count != selected.len() {
        return Err(format!("count {count}, {} selected", selected.len()));
    }
    same_multiset(&out[..count], selected)?;
    match out[count..].iter().position(|&v| v != fill) {
        Some(p) => Err(format!(
            "[{}] = {:?} past the count",
            count + p,
            out[count + p]
        )),
        None => Ok(()),
    }
}

/// Floats compared by their bits, except that any NaN matches any NaN (an arithmetic result
/// need not keep a NaN's payload).
fn same_float(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Integer-valued floats as integers (an error names the first that is not).
fn float_ints(v: &[f32]) -> Result<Vec<i64>, String> {
    v.iter()
        .enumerate()
        .map(|(i, &x)| {
            if x.fract() == 0.0 && x.abs() < 1.0e9 {
                Ok(x as i64)
            } else {
                Err(format!("[{i}] = {x:e}, not an integer"))
            }
        })
        .collect()
}

/// `n` integer-valued floats in [lo, hi).
fn int_floats(n: usize, seed: u64, lo: i32, hi: i32) -> Vec<f32> {
    rand_i32(n, seed, lo, hi)
        .into_iter()
        .map(|x| x as f32)
        .collect()
}

fn hash(x: i32) -> u32 {
    (x as u32).wrapping_mul(GOLDEN)
}

fn add_sub_unused(n: usize, local: usize, seed: u64) -> Case {
    case(F, "add_sub_unused")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, -1_000_000, 1_000_000))
        .buf(rand_bits::<u32>(n, seed + 1))
        .buf(rand_i32(12, seed + 2, -1000, 1000))
        .buf(rand_bits::<u32>(12, seed + 3))
        .expect(2, |r| {
            let mut acc = r.input::<i32>(2);
            for (i, &x) in r.input::<i32>(0).iter().enumerate() {
                acc[0] += x;
                acc[1] -= x;
                acc[2] += 1;
                acc[3] -= 1;
                acc[4 + (i & 7)] += x;
            }
            acc
        })
        .expect(3, |r| {
            let mut acc = r.input::<u32>(3);
            for u in r.input::<u32>(1) {
                acc[0] = acc[0].wrapping_add(u);
                acc[1] = acc[1].wrapping_sub(u);
                acc[2] = acc[2].wrapping_add(1);
                acc[3] = acc[3].wrapping_sub(1);
                let b = &mut acc[4 + (u & 7) as usize];
                *b = b.wrapping_sub(u >> 3);
            }
            acc
        })
}

fn add_old_chain(n: usize, local: usize, seed: u64) -> Case {
    case(F, "add_old_chain")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, 1, 1000))
        .buf(vec![-200_000i32])
        .out::<i32>(n)
        .buf(vec![3_000_000_000u32])
        .out::<u32>(n)
        .check(|r| {
            check_chain(
                r.input::<i32>(1)[0],
                &r.input::<i32>(0),
                &r.output::<i32>(2),
                r.output::<i32>(1)[0],
                true,
                |a, b| a + b,
            )
            .map_err(|e| format!("atomic_add: {e}"))
        })
        .check(|r| {
            let vals: Vec<u32> = r.input::<i32>(0).iter().map(|&x| x as u32 * 3).collect();
            check_chain(
                r.input::<u32>(3)[0],
                &vals,
                &r.output::<u32>(4),
                r.output::<u32>(3)[0],
                false,
                |a, b| a - b,
            )
            .map_err(|e| format!("atomic_sub: {e}"))
        })
}

fn inc_dec_tickets(n: usize, local: usize) -> Case {
    case(F, "inc_dec_tickets")
        .global(&[n])
        .local(&[local])
        .buf(vec![0xFFFF_FF00u32])
        .out::<u32>(n)
        .buf(vec![100i32])
        .out::<i32>(n)
        .expect(0, |r| vec![0xFFFF_FF00u32.wrapping_add(r.global[0] as u32)])
        .expect(2, |r| vec![100 - r.global[0] as i32])
        .check(|r| {
            let want: Vec<u32> = (0..r.global[0] as u32)
                .map(|k| 0xFFFF_FF00u32.wrapping_add(k))
                .collect();
            same_multiset(&r.output::<u32>(1), &want).map_err(|e| format!("atomic_inc: {e}"))
        })
        .check(|r| {
            let want: Vec<i32> = (0..r.global[0] as i32).map(|k| 100 - k).collect();
            same_multiset(&r.output::<i32>(3), &want).map_err(|e| format!("atomic_dec: {e}"))
        })
}

fn xchg_chain(n: usize, local: usize, seed: u64) -> Case {
    case(F, "xchg_chain")
        .global(&[n])
        .local(&[local])
        .buf(rand_bits::<i32>(n, seed))
        .buf(vec![-5i32])
        .out::<i32>(n)
        .buf(rand_bits::<u32>(n / local, seed + 1))
        .out::<u32>(n)
        .buf(vec![-1i32; 4])
        .check(|r| {
            let mut got = r.output::<i32>(2);
            got.push(r.output::<i32>(1)[0]);
            let mut want = r.input::<i32>(0);
            want.push(r.input::<i32>(1)[0]);
            same_multiset(&got, &want).map_err(|e| format!("one int: {e}"))
        })
        .check(|r| {
            let n = r.local[0];
            let (init, fin, old) = (r.input::<u32>(3), r.output::<u32>(3), r.output::<u32>(4));
            for (g, o) in old.chunks(n).enumerate() {
                let mut got = o.to_vec();
                got.push(fin[g]);
                let mut want: Vec<u32> = (g * n..(g + 1) * n)
                    .map(|i| (i as u32).wrapping_mul(GOLDEN))
                    .collect();
                want.push(init[g]);
                same_multiset(&got, &want).map_err(|e| format!("group {g}'s uint: {e}"))?;
            }
            Ok(())
        })
        .check(|r| {
            for (k, &v) in r.output::<i32>(5).iter().enumerate() {
                if v < 0 || v as usize >= r.global[0] || v as usize & 3 != k {
                    return Err(format!("last[{k}] = {v}, not an item that wrote it"));
                }
            }
            Ok(())
        })
}

fn min_max(n: usize, local: usize, seed: u64) -> Case {
    case(F, "min_max")
        .global(&[n])
        .local(&[local])
        .buf(rand_bits::<i32>(n, seed))
        .buf(rand_bits::<u32>(n, seed + 1))
        // The range's pair, 4 min bins, 4 max bins (one of each beyond every input), the
        // locations whose old values are returned.
        .buf(vec![
            i32::MAX,
            i32::MIN,
            0,
            i32::MIN,
            i32::MAX,
            5,
            0,
            i32::MAX,
            i32::MIN,
            -5,
            0,
            0,
        ])
        .buf(vec![u32::MAX, 0, 0, u32::MAX, 5, 0x1000_0000, 0x8000_0000])
        .out::<i32>(2 * n)
        .out::<u32>(n)
        .expect(2, |r| {
            let mut m = r.input::<i32>(2);
            for (i, &x) in r.input::<i32>(0).iter().enumerate() {
                m[0] = m[0].min(x);
                m[1] = m[1].max(x);
                m[2 + (i & 3)] = m[2 + (i & 3)].min(x);
                m[6 + (i & 3)] = m[6 + (i & 3)].max(x);
                m[10] = m[10].max(x);
                m[11] = m[11].min(x);
            }
            m
        })
        .expect(3, |r| {
            let mut m = r.input::<u32>(3);
            for u in r.input::<u32>(1) {
                m[0] = m[0].min(u);
                m[1] = m[1].max(u);
                m[2 + (u & 3) as usize] = m[2 + (u & 3) as usize].max(u >> 2);
                m[6] = m[6].min(u);
            }
            m
        })
        .check(|r| {
            let (x, init, fin) = (r.input::<i32>(0), r.input::<i32>(2), r.output::<i32>(2));
            let old = r.output::<i32>(4);
            let maxes: Vec<i32> = old.iter().step_by(2).copied().collect();
            let mins: Vec<i32> = old.iter().skip(1).step_by(2).copied().collect();
            check_extreme_olds(init[10], &x, &maxes, fin[10], true)
                .map_err(|e| format!("int max: {e}"))?;
            check_extreme_olds(init[11], &x, &mins, fin[11], false)
                .map_err(|e| format!("int min: {e}"))
        })
        .check(|r| {
            check_extreme_olds(
                r.input::<u32>(3)[6],
                &r.input::<u32>(1),
                &r.output::<u32>(5),
                r.output::<u32>(3)[6],
                false,
            )
            .map_err(|e| format!("uint min: {e}"))
        })
}

/// Global size a multiple of 32: every bit of the owned words has its item.
fn bit_ops(n: usize, local: usize, seed: u64) -> Case {
    let nw = n / 32;
    case(F, "bit_ops")
        .global(&[n])
        .local(&[local])
        .buf(rand_bits::<u32>(n, seed))
        .buf(rand_bits::<u32>(12, seed + 1))
        .buf(rand_bits::<i32>(12, seed + 2))
        .buf(rand_bits::<u32>(3 * nw, seed + 3))
        .out::<u32>(3 * n)
        .expect(1, |r| {
            let mut w = r.input::<u32>(1);
            for (i, u) in r.input::<u32>(0).into_iter().enumerate() {
                w[i & 3] &= u | (u >> 2) | (u << 3) | (u >> 7) | (u << 9);
                w[4 + (i & 3)] |= u & (u >> 2) & (u << 3) & (u >> 7) & (u << 9);
                w[8 + (i & 3)] ^= u;
            }
            w
        })
        .expect(2, |r| {
            let mut w = r.input::<i32>(2);
            for u in r.input::<u32>(0) {
                let b = (u & 3) as usize;
                w[b] &= (u | (u >> 3) | (u << 5) | (u >> 11) | (u << 13)) as i32;
                w[4 + b] |= (u & (u >> 3) & (u << 5)) as i32;
                w[8 + b] ^= u as i32;
            }
            w
        })
        .expect(3, |r| {
            let nw = r.global[0] / 32;
            let mut w = r.input::<u32>(3);
            w[..nw].fill(u32::MAX);
            w[nw..2 * nw].fill(0);
            for x in &mut w[2 * nw..] {
                *x = !*x;
            }
            w
        })
        .check(|r| {
            let nw = r.global[0] / 32;
            let (own, old) = (r.input::<u32>(3), r.output::<u32>(4));
            for i in 0..r.global[0] {
                let (word, bit) = (i / 32, 1u32 << (i % 32));
                let (or_init, and_init, xor_init) = (own[word], own[nw + word], own[2 * nw + word]);
                let (o, a, x) = (old[3 * i], old[3 * i + 1], old[3 * i + 2]);
                if o & bit != or_init & bit || o & or_init != or_init {
                    return Err(format!(
                        "item {i}: atomic_or saw {o:#x}, started {or_init:#x}"
                    ));
                }
                if a & bit != and_init & bit || a & !and_init != 0 {
                    return Err(format!(
                        "item {i}: atomic_and saw {a:#x}, started {and_init:#x}"
                    ));
                }
                if x & bit != xor_init & bit {
                    return Err(format!(
                        "item {i}: atomic_xor saw {x:#x}, started {xor_init:#x}"
                    ));
                }
            }
            Ok(())
        })
}

/// Keys in [0, slots).
fn claim_slots(n: usize, local: usize, slots: usize, seed: u64) -> Case {
    case(F, "claim_slots")
        .global(&[n])
        .local(&[local])
        .buf(
            rand_i32(n, seed, 0, slots as i32)
                .into_iter()
                .map(|k| k as u32)
                .collect(),
        )
        .buf(vec![u32::MAX; slots])
        .out::<u32>(n)
        .out::<i32>(n)
        .check(|r| {
            let keys: Vec<usize> = r.input::<u32>(0).iter().map(|&k| k as usize).collect();
            let slots: Vec<i64> = r.output::<u32>(1).iter().map(|&s| s as i64).collect();
            check_claims(
                &keys,
                &slots,
                &wide(&r.output::<i32>(3)),
                u32::MAX as i64,
                |i| i as i64 * 3 + 1,
            )
        })
        .check(|r| {
            let (keys, slots) = (r.input::<u32>(0), r.output::<u32>(1));
            for (i, &w) in r.output::<u32>(2).iter().enumerate() {
                let s = slots[keys[i] as usize];
                if w != s {
                    return Err(format!(
                        "item {i} names winner {w:#x}, slot {} holds {s:#x}",
                        keys[i]
                    ));
                }
            }
            Ok(())
        })
}

/// `distinct` keys spread over the int range (never -1), in a table of `mask + 1` slots.
fn hash_insert(n: usize, local: usize, distinct: i32, mask: i32, seed: u64) -> Case {
    case(F, "hash_insert")
        .global(&[n])
        .local(&[local])
        .buf(
            rand_i32(n, seed, 0, distinct)
                .into_iter()
                .map(|k| k * 7919 - 1_000_000)
                .collect(),
        )
        .buf(vec![-1i32; mask as usize + 1])
        .out::<i32>(n)
        .val(mask)
        .check(|r| {
            let (keys, table, pos) = (r.input::<i32>(0), r.output::<i32>(1), r.output::<i32>(2));
            let mask = r.value::<i32>(3);
            let mut held: Vec<i32> = table.iter().copied().filter(|&k| k != -1).collect();
            let mut want = keys.clone();
            held.sort();
            want.sort();
            want.dedup();
            expect_eq(&held, &want).map_err(|e| format!("the table's keys: {e}"))?;
            for (i, (&k, &p)) in keys.iter().zip(&pos).enumerate() {
                if p < 0 || p > mask || table[p as usize] != k {
                    return Err(format!("item {i}: key {k} at {p}"));
                }
                let mut h = (hash(k) >> 16) as i32 & mask;
                while h != p {
                    if table[h as usize] == -1 || table[h as usize] == k {
                        return Err(format!(
                            "item {i}: key {k} at {p}, but slot {h} on its path holds {}",
                            table[h as usize]
                        ));
                    }
                    h = (h + 1) & mask;
                }
            }
            Ok(())
        })
}

fn compact_inc(n: usize, local: usize, seed: u64) -> Case {
    case(F, "compact_inc")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, -1_000_000, 1_000_000))
        .out::<i32>(n)
        .buf(vec![0u32])
        .check(|r| {
            let sel: Vec<i32> = r
                .input::<i32>(0)
                .into_iter()
                .filter(|&x| x & 3 == 1 || x < -900_000)
                .collect();
            check_compacted(
                &r.output::<i32>(1),
                r.output::<u32>(2)[0] as usize,
                &sel,
                FILL as i32,
            )
        })
}

/// Inputs distinct (their low 12 bits are the item's index), so where each landed is known.
fn compact_local(n: usize, local: usize, seed: u64) -> Case {
    case(F, "compact_local")
        .global(&[n])
        .local(&[local])
        .buf(
            rand_bits::<u32>(n, seed)
                .into_iter()
                .enumerate()
                .map(|(i, x)| (x & !0xFFF) | i as u32)
                .collect(),
        )
        .out::<u32>(n)
        .buf(vec![0u32])
        .out::<u32>(n)
        .check(|r| {
            let sel: Vec<u32> = r
                .input::<u32>(0)
                .into_iter()
                .filter(|&x| x % 5 < 2)
                .collect();
            check_compacted(
                &r.output::<u32>(1),
                r.output::<u32>(2)[0] as usize,
                &sel,
                FILL,
            )
        })
        .check(|r| {
            let n = r.local[0];
            let (x, out, ranks) = (r.input::<u32>(0), r.output::<u32>(1), r.output::<u32>(3));
            let at: HashMap<u32, usize> = out.iter().enumerate().map(|(p, &v)| (v, p)).collect();
            for (g, (xs, rs)) in x.chunks(n).zip(ranks.chunks(n)).enumerate() {
                let picked: Vec<u32> = xs
                    .iter()
                    .zip(rs)
                    .filter(|(&v, _)| v % 5 < 2)
                    .map(|(_, &k)| k)
                    .collect();
                let want: Vec<u32> = (0..picked.len() as u32).collect();
                same_multiset(&picked, &want).map_err(|e| format!("group {g}'s ranks: {e}"))?;
                let mut base = None;
                for (l, (&v, &k)) in xs.iter().zip(rs).enumerate() {
                    if v % 5 >= 2 {
                        if k != u32::MAX {
                            return Err(format!("group {g} item {l}: not selected, rank {k}"));
                        }
                        continue;
                    }
                    let p = *at
                        .get(&v)
                        .ok_or_else(|| format!("group {g} item {l}: {v:#x} not in out"))?;
                    let b = p as i64 - k as i64;
                    if *base.get_or_insert(b) != b {
                        return Err(format!(
                            "group {g} item {l}: rank {k} at {p}, off the group's run"
                        ));
                    }
                }
            }
            Ok(())
        })
}

/// Odd items' values hit 4 hot bins (and weight bin 0).
fn hist_global(n: usize, local: usize, seed: u64) -> Case {
    case(F, "hist_global")
        .global(&[n])
        .local(&[local])
        .buf(
            rand_bits::<u32>(n, seed)
                .into_iter()
                .enumerate()
                .map(|(i, x)| if i % 2 == 1 { x & 0xFF00_0003 } else { x })
                .collect(),
        )
        .buf(
            rand_i32(64, seed + 1, 0, 100)
                .into_iter()
                .map(|x| x as u32)
                .collect(),
        )
        .buf(vec![0u32; 64])
        .expect(1, |r| {
            let mut bins = r.input::<u32>(1);
            for x in r.input::<u32>(0) {
                bins[(x & 63) as usize] += 1;
            }
            bins
        })
        .expect(2, |r| {
            let mut bins = r.input::<u32>(2);
            for x in r.input::<u32>(0) {
                bins[((x >> 6) & 63) as usize] += x >> 24;
            }
            bins
        })
}

/// Half the bytes in [0, 4): hot bins.
fn hist_local(n: usize, local: usize, seed: u64) -> Case {
    case(F, "hist_local")
        .global(&[n])
        .local(&[local])
        .buf(
            rand_bits::<u8>(4 * n, seed)
                .into_iter()
                .enumerate()
                .map(|(i, b)| if i % 2 == 0 { b & 3 } else { b })
                .collect(),
        )
        .buf(
            rand_i32(256, seed + 1, 0, 1000)
                .into_iter()
                .map(|x| x as u32)
                .collect(),
        )
        .expect(1, |r| {
            let mut bins = r.input::<u32>(1);
            for b in r.input::<u8>(0) {
                bins[b as usize] += 1;
            }
            bins
        })
}

fn local_ops(n: usize, local: usize, seed: u64) -> Case {
    case(F, "local_ops")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, -1_000_000, 1_000_000))
        .out::<i32>(11 * (n / local))
        .out::<u32>(11 * (n / local))
        .check(|r| {
            let n = r.local[0];
            let (out, uout) = (r.output::<i32>(1), r.output::<u32>(2));
            for (g, c) in r.input::<i32>(0).chunks(n).enumerate() {
                let u: Vec<u32> = c.iter().map(|&x| hash(x)).collect();
                let sum: i32 = c.iter().sum();
                let usum = u.iter().fold(0u32, |s, &x| s.wrapping_add(x));
                let ci = [
                    7 + sum,
                    -7 - sum,
                    100 + n as i32,
                    100 - n as i32,
                    *c.iter().min().unwrap(),
                    *c.iter().max().unwrap(),
                    c.iter()
                        .enumerate()
                        .fold(-1, |a, (l, &x)| a & (!(1u32 << (l & 31)) as i32 | x)),
                    c.iter()
                        .fold(0x10000, |a, &x| a | (1u32 << (x & 31)) as i32),
                    c.iter().fold(0x5A5A_5A5A, |a, &x| a ^ x),
                ];
                let cu = [
                    0xFFFF_FF00u32.wrapping_add(usum),
                    5u32.wrapping_sub(usum),
                    0xFFFF_FFF0u32.wrapping_add(n as u32),
                    3u32.wrapping_sub(n as u32),
                    *u.iter().min().unwrap(),
                    *u.iter().max().unwrap(),
                    u.iter()
                        .fold(u32::MAX, |a, &x| a & (x | (x >> 3) | (x << 4))),
                    u.iter().fold(0, |a, &x| a | (x & (x >> 3) & (x << 4))),
                    u.iter().fold(0x1234_5678, |a, &x| a ^ x),
                ];
                let (go, gu) = (&out[11 * g..11 * g + 11], &uout[11 * g..11 * g + 11]);
                expect_eq(&go[..9], &ci).map_err(|e| format!("group {g}'s ints: {e}"))?;
                expect_eq(&gu[..9], &cu).map_err(|e| format!("group {g}'s uints: {e}"))?;
                for k in 9..11 {
                    if !c.contains(&go[k]) {
                        return Err(format!("group {g}: int slot {k} = {}, not a value", go[k]));
                    }
                    if !u.contains(&gu[k]) {
                        return Err(format!("group {g}: uint slot {k} = {:#x}", gu[k]));
                    }
                }
            }
            Ok(())
        })
}

fn local_returns(n: usize, local: usize, seed: u64) -> Case {
    case(F, "local_returns")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, 1, 1000))
        .out::<i32>(4 * n)
        .out::<i32>(4 * (n / local))
        .check(|r| {
            let n = r.local[0];
            let (out, fin) = (r.output::<i32>(1), r.output::<i32>(2));
            for (g, vals) in r.input::<i32>(0).chunks(n).enumerate() {
                let o = &out[4 * n * g..4 * n * (g + 1)];
                let f = &fin[4 * g..4 * g + 4];
                let col = |k: usize| o.iter().skip(k).step_by(4).copied().collect::<Vec<i32>>();
                let err = |what: &str, e: String| format!("group {g}'s {what}: {e}");
                if f[0] != n as i32 {
                    return Err(format!("group {g}: counter ends at {}", f[0]));
                }
                same_multiset(&col(0), &(0..n as i32).collect::<Vec<_>>())
                    .map_err(|e| err("atomic_inc", e))?;
                check_chain(100, vals, &col(1), f[1], true, |a, b| a + b)
                    .map_err(|e| err("atomic_add", e))?;
                let mut got = col(2);
                got.push(f[2]);
                let mut want = vals.to_vec();
                want.push(-1);
                same_multiset(&got, &want).map_err(|e| err("atomic_xchg", e))?;
                let won = col(3);
                let winners: Vec<usize> = (0..n).filter(|&l| won[l] != 0).collect();
                if winners.len() != 1 || won[winners[0]] != 1 || f[3] != winners[0] as i32 {
                    return Err(format!("group {g}: leader {}, winners {winners:?}", f[3]));
                }
            }
            Ok(())
        })
}

fn atom_int32(n: usize, local: usize, seed: u64) -> Case {
    case(F, "atom_int32")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, -1_000_000, 1_000_000))
        .buf(vec![0i32, 0, i32::MAX, i32::MIN, -1, 0, 0x1234])
        .buf(vec![5u32])
        .out::<u32>(n)
        .out::<i32>(2 * (n / local))
        .out::<i32>(n)
        .expect(1, |r| {
            let mut a = r.input::<i32>(1);
            for x in r.input::<i32>(0) {
                a[0] += x;
                a[1] -= x;
                a[2] = a[2].min(x);
                a[3] = a[3].max(x);
                a[4] &= x | 0x0F0F_0F0F;
                a[5] |= x & 0x3030_3030;
                a[6] ^= x;
            }
            a
        })
        .expect(2, |r| vec![5 + r.global[0] as u32])
        .check(|r| {
            let want: Vec<u32> = (5..5 + r.global[0] as u32).collect();
            same_multiset(&r.output::<u32>(3), &want).map_err(|e| format!("atom_inc: {e}"))
        })
        .check(|r| {
            let n = r.local[0];
            let (gsum, xold) = (r.output::<i32>(4), r.output::<i32>(5));
            for (g, vals) in r.input::<i32>(0).chunks(n).enumerate() {
                let sum: i32 = vals.iter().sum();
                if gsum[2 * g] != sum {
                    return Err(format!("group {g}: local sum {} want {sum}", gsum[2 * g]));
                }
                let mut got = xold[n * g..n * (g + 1)].to_vec();
                got.push(gsum[2 * g + 1]);
                let mut want = vals.to_vec();
                want.push(-5);
                same_multiset(&got, &want).map_err(|e| format!("group {g}'s atom_xchg: {e}"))?;
            }
            Ok(())
        })
}

fn atom_long_global(n: usize, local: usize, seed: u64) -> Case {
    case(F, "atom_long_global")
        .global(&[n])
        .local(&[local])
        .buf(rand_bits::<i64>(n, seed))
        .buf(vec![-(1i64 << 40), 7, 0xFFFF_FFF0, i64::MAX, i64::MIN])
        .buf({
            let mut u = vec![u64::MAX, 0, u64::MAX, u64::MAX, 0, 0];
            u.extend(rand_bits::<u64>(2, seed + 1));
            u
        })
        .out::<i64>(3 * n)
        .buf(vec![-1i64; 64])
        .out::<i32>(n)
        .check(|r| {
            let (x, init, fin) = (r.input::<i64>(0), r.input::<i64>(1), r.output::<i64>(1));
            let old = r.output::<i64>(3);
            let col = |k: usize| old.iter().skip(k).step_by(3).copied().collect::<Vec<i64>>();
            let vals: Vec<i64> = x.iter().map(|&v| (v & 0xF_FFFF_FFFF) + 1).collect();
            check_chain(init[0], &vals, &col(0), fin[0], true, |a, b| a + b)
                .map_err(|e| format!("atom_add: {e}"))?;
            let mut got = col(1);
            got.push(fin[1]);
            let mut want = x.clone();
            want.push(init[1]);
            same_multiset(&got, &want).map_err(|e| format!("atom_xchg: {e}"))?;
            let n = x.len() as i64;
            same_multiset(&col(2), &(init[2]..init[2] + n).collect::<Vec<_>>())
                .map_err(|e| format!("atom_inc: {e}"))?;
            let want = [
                init[2] + n,
                x.iter().copied().fold(init[3], i64::min),
                x.iter().copied().fold(init[4], i64::max),
            ];
            expect_eq(&fin[2..], &want).map_err(|e| format!("inc, min, max: {e}"))
        })
        .expect(2, |r| {
            let mut a = r.input::<u64>(2);
            for (i, x) in r.input::<i64>(0).into_iter().enumerate() {
                let u = x as u64;
                a[0] = a[0].min(u);
                a[1] = a[1].max(u);
                a[2 + (i & 1)] &= u | (u >> 2) | (u << 3) | (u >> 7) | (u << 9);
                a[4 + (i & 1)] |= u & (u >> 2) & (u << 3) & (u >> 7) & (u << 9);
                a[6 + (i & 1)] ^= u;
            }
            a
        })
        .check(|r| {
            let keys: Vec<usize> = r
                .input::<i64>(0)
                .iter()
                .map(|&x| (x as u64 >> 58) as usize)
                .collect();
            check_claims(
                &keys,
                &r.output::<i64>(4),
                &wide(&r.output::<i32>(5)),
                -1,
                |i| (i as i64) << 32 | 0xFFFF_FFFF,
            )
        })
}

fn atom_long_local(n: usize, local: usize, seed: u64) -> Case {
    case(F, "atom_long_local")
        .global(&[n])
        .local(&[local])
        .buf(rand_bits::<i64>(n, seed))
        .out::<i64>(10 * (n / local))
        .out::<i64>(2 * n)
        .out::<i32>(n)
        .check(|r| {
            let n = r.local[0];
            let (out, old, won) = (r.output::<i64>(1), r.output::<i64>(2), r.output::<i32>(3));
            for (g, x) in r.input::<i64>(0).chunks(n).enumerate() {
                let o = &out[10 * g..10 * g + 10];
                let ol = &old[2 * n * g..2 * n * (g + 1)];
                let w = &won[n * g..n * (g + 1)];
                let err = |what: &str, e: String| format!("group {g}'s {what}: {e}");
                let vals: Vec<i64> = x.iter().map(|&v| (v & 0xFF_FFFF) + 1).collect();
                let adds: Vec<i64> = ol.iter().step_by(2).copied().collect();
                check_chain(0xFFF0_0000, &vals, &adds, o[0], true, |a, b| a + b)
                    .map_err(|e| err("atom_add", e))?;
                let mut got: Vec<i64> = ol.iter().skip(1).step_by(2).copied().collect();
                got.push(o[3]);
                let mut want = x.to_vec();
                want.push(0);
                same_multiset(&got, &want).map_err(|e| err("atom_xchg", e))?;
                let winners: Vec<usize> = (0..n).filter(|&l| w[l] != 0).collect();
                if winners.len() != 1 || w[winners[0]] != 1 {
                    return Err(format!("group {g}: winners {winners:?}"));
                }
                let u: Vec<u64> = x.iter().map(|&v| v as u64).collect();
                let want = [
                    x.iter().copied().fold(i64::MAX, i64::min),
                    x.iter().copied().fold(i64::MIN, i64::max),
                    (winners[0] as i64) << 32 | 0xFFFF_FFFF,
                    u.iter().copied().fold(u64::MAX, u64::min) as i64,
                    u.iter().copied().fold(0, u64::max) as i64,
                    u.iter()
                        .fold(u64::MAX, |a, &v| a & (v | (v >> 2) | (v << 3) | (v >> 7)))
                        as i64,
                    u.iter().fold(0x8000_0000_0000_0001, |a, &v| {
                        a | (v & (v >> 2) & (v << 3) & (v >> 7))
                    }) as i64,
                    u.iter().fold(0x0123_4567_89AB_CDEF, |a, &v| a ^ v) as i64,
                ];
                let got = [o[1], o[2], o[4], o[5], o[6], o[7], o[8], o[9]];
                expect_eq(&got, &want).map_err(|e| err("min, max, cmpxchg and bits", e))?;
            }
            Ok(())
        })
}

/// A thread's lanes on several words (served lane by lane), on one word with every other lane
/// inactive (folded), and compare-exchanges of which only a serial order's prefix succeeds.
fn atom_long_local_mixed(n: usize, local: usize, seed: u64) -> Case {
    case(F, "atom_long_local_mixed")
        .global(&[n])
        .local(&[local])
        .buf(rand_bits::<i64>(n, seed))
        .out::<i64>(5 * (n / local))
        .out::<i64>(2 * n)
        .out::<i64>(n)
        .check(|r| {
            let n = r.local[0];
            let (out, old, tick) = (r.output::<i64>(1), r.output::<i64>(2), r.output::<i64>(3));
            for (g, x) in r.input::<i64>(0).chunks(n).enumerate() {
                let o = &out[5 * g..5 * g + 5];
                let ol = &old[2 * n * g..2 * n * (g + 1)];
                let err = |what: &str, e: String| format!("group {g}'s {what}: {e}");
                for (w, &fin) in o.iter().take(3).enumerate() {
                    let items: Vec<usize> = (0..n).filter(|l| l % 4 != 3 && l % 3 == w).collect();
                    let vals: Vec<i64> = items.iter().map(|&l| (x[l] & 0xFF_FFFF) + 1).collect();
                    let olds: Vec<i64> = items.iter().map(|&l| ol[2 * l]).collect();
                    check_chain((w as i64) << 40, &vals, &olds, fin, true, |a, b| a + b)
                        .map_err(|e| err(&format!("atom_add on s[{w}]"), e))?;
                }
                let odd: Vec<usize> = (1..n).step_by(2).collect();
                let mut got: Vec<i64> = odd.iter().map(|&l| ol[2 * l + 1]).collect();
                got.push(o[3]);
                let mut want: Vec<i64> = odd.iter().map(|&l| x[l]).collect();
                want.push(-7);
                same_multiset(&got, &want).map_err(|e| err("atom_xchg", e))?;
                // The items that made t theirs: 0 .. m - 1, t ending at m - 1; any other
                // saw a value t held before it ended.
                let tk = &tick[n * g..n * (g + 1)];
                let m = (0..n).take_while(|&l| tk[l] == l as i64 - 1).count();
                if o[4] != m as i64 - 1 {
                    return Err(err(
                        "compare-exchange",
                        format!("t {} after {m} items", o[4]),
                    ));
                }
                if let Some(l) =
                    (m..n).find(|&l| tk[l] == l as i64 - 1 || !(-1..m as i64).contains(&tk[l]))
                {
                    return Err(err(
                        "compare-exchange",
                        format!("item {l} saw {} (t went -1 .. {})", tk[l], m as i64 - 1),
                    ));
                }
            }
            Ok(())
        })
}

/// Values with -0, denormals, infinities and NaNs (quiet, signalling, with payloads) among
/// them.
fn xchg_float(n: usize, local: usize, seed: u64) -> Case {
    let mut v = rand_f32(n, seed, -1000.0, 1000.0);
    let special = [
        0x8000_0000u32,
        0x0000_0001,
        0x807F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_1234,
        0x7F80_0001,
    ];
    for (k, &b) in special.iter().enumerate() {
        v[k * 37 % n] = f32::from_bits(b);
    }
    case(F, "xchg_float")
        .global(&[n])
        .local(&[local])
        .buf(v)
        .buf(vec![0.25f32])
        .out::<f32>(n)
        .buf(vec![99.0f32; n / local])
        .out::<f32>(n / local)
        .check(|r| {
            let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<u32>>();
            let mut got = bits(r.output::<f32>(2));
            got.push(r.output::<f32>(1)[0].to_bits());
            let mut want = bits(r.input::<f32>(0));
            want.push(r.input::<f32>(1)[0].to_bits());
            same_multiset(&got, &want).map_err(|e| format!("one float, by bits: {e}"))
        })
        .check(|r| {
            let n = r.local[0];
            let (last, lout) = (r.output::<f32>(3), r.output::<f32>(4));
            for (g, c) in r.input::<f32>(0).chunks(n).enumerate() {
                if !c.iter().any(|&v| same_float(-v, last[g])) {
                    return Err(format!(
                        "group {g}: global float {:e}, not a value",
                        last[g]
                    ));
                }
                if !c.iter().any(|&v| v.to_bits() == lout[g].to_bits()) {
                    return Err(format!("group {g}: local float {:e}, not a value", lout[g]));
                }
            }
            Ok(())
        })
}

fn float_add_cas(n: usize, local: usize, seed: u64) -> Case {
    case(F, "float_add_cas")
        .global(&[n])
        .local(&[local])
        .buf(int_floats(n, seed, 1, 100))
        .buf({
            let mut s = vec![-3000.0f32];
            s.extend(int_floats(8, seed + 1, -100, 100));
            s
        })
        .out::<f32>(n)
        .expect_f32(1, 0, |r| {
            let mut s = r.input::<f32>(1);
            for (i, v) in r.input::<f32>(0).into_iter().enumerate() {
                s[0] += v;
                s[1 + (i & 7)] += 50.0 - v;
            }
            s
        })
        .check(|r| {
            let vals = float_ints(&r.input::<f32>(0))?;
            let olds = float_ints(&r.output::<f32>(2))?;
            let (init, fin) = (r.input::<f32>(1)[0], r.output::<f32>(1)[0]);
            check_chain(init as i64, &vals, &olds, fin as i64, true, |a, b| a + b)
        })
}

fn float_add_cas_local(n: usize, local: usize, seed: u64) -> Case {
    case(F, "float_add_cas_local")
        .global(&[n])
        .local(&[local])
        .buf(int_floats(n, seed, -100, 100))
        .out::<f32>(n / local)
        .buf(vec![0.0f32])
        .expect_f32(1, 0, |r| {
            r.input::<f32>(0)
                .chunks(r.local[0])
                .map(|c| c.iter().sum())
                .collect()
        })
        .expect_f32(2, 0, |r| vec![r.input::<f32>(0).iter().sum()])
}

pub fn cases() -> Vec<Case> {
    vec![
        add_sub_unused(1024, 64, 1),
        add_sub_unused(480, 32, 5),
        add_old_chain(1024, 64, 10),
        add_old_chain(512, 32, 11),
        inc_dec_tickets(1024, 64),
        inc_dec_tickets(640, 32),
        xchg_chain(768, 64, 12),
        xchg_chain(512, 32, 14),
        min_max(1024, 64, 16),
        min_max(576, 32, 18),
        bit_ops(1024, 64, 20),
        bit_ops(512, 32, 24),
        // 300 slots for 1024 items, then 8 for 512: every slot fought over.
        claim_slots(1024, 64, 300, 28),
        claim_slots(512, 32, 8, 29),
        hash_insert(1024, 64, 360, 511, 30),
        hash_insert(512, 32, 150, 255, 31),
        compact_inc(2048, 64, 32),
        compact_inc(960, 32, 33),
        compact_local(1024, 64, 34),
        compact_local(512, 32, 35),
        hist_global(2048, 64, 36),
        hist_global(960, 32, 38),
        hist_local(1024, 64, 40),
        hist_local(480, 32, 42),
        local_ops(1024, 64, 44),
        local_ops(512, 32, 45),
        local_returns(1024, 64, 46),
        local_returns(512, 32, 47),
        atom_int32(1024, 64, 48),
        atom_int32(512, 32, 49),
        atom_long_global(1024, 64, 50),
        atom_long_global(512, 32, 52),
        atom_long_local(1024, 64, 54),
        atom_long_local(512, 32, 55),
        atom_long_local_mixed(1024, 64, 64),
        atom_long_local_mixed(512, 128, 65),
        xchg_float(512, 64, 56),
        xchg_float(256, 32, 57),
        float_add_cas(512, 64, 58),
        float_add_cas(256, 32, 60),
        float_add_cas_local(1024, 64, 62),
        float_add_cas_local(512, 32, 63),
    ]
}
