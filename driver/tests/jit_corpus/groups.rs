//! Cases of tests/jit/groups.cl: sub-group and work-group functions, against references that
//! form the groups from the launch shape. A sub-group is `sub_group_size()` consecutive work-items of a
//! work-group in local linear order (the last one smaller when the work-group is not a
//! multiple), which is what get_max_sub_group_size() reports and each kernel writes out.
use crate::igc::harness::*;

const F: &str = "groups.cl";
/// gencl's sub-group size: its SIMD width, 16 for these kernels (none spills at SIMD16)
/// unless GENCL_SIMD=8 builds every kernel at SIMD8; sg_int writes get_max_sub_group_size()
/// for the check.
fn sub_group_size() -> usize {
    match std::env::var("GENCL_SIMD").as_deref() {
        Ok("8") => 8,
        _ => 16,
    }
}

/// The members of every group of `n` consecutive items (work-groups, or sub-groups within
/// them): for each item, the slice of its group and its index in it.
fn groups_of(len: usize, n: usize) -> Vec<(std::ops::Range<usize>, usize)> {
    (0..len)
        .map(|i| {
            let start = i / n * n;
            (start..(start + n).min(len), i - start)
        })
        .collect()
}

/// For 1-D launches: each item's sub-group (as a range of global ids) and lane.
fn subgroups(len: usize, local: usize) -> Vec<(std::ops::Range<usize>, usize)> {
    groups_of(len, local)
        .into_iter()
        .enumerate()
        .map(|(i, (wg, lid))| {
            let first = wg.start + lid / sub_group_size() * sub_group_size();
            (first..(first + sub_group_size()).min(wg.end), i - first)
        })
        .collect()
}

fn inputs(n: usize, seed: u64) -> Vec<i32> {
    rand_i32(n, seed, -1000, 1000)
}

fn sg_int(n: usize, local: usize, seed: u64) -> Case {
    case(F, "sg_int")
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, seed))
        .out::<i32>(8 * n)
        .expect(1, |r| {
            let a = r.input::<i32>(0);
            let local = r.local[0];
            let mut out = Vec::new();
            for (i, (sg, lane)) in subgroups(a.len(), local).into_iter().enumerate() {
                let x = &a[sg.clone()];
                let lid = i % local;
                let num = local.div_ceil(sub_group_size());
                out.push((x.len() * 10000 + sub_group_size() * 100 + num) as i32);
                out.push(((lid / sub_group_size()) * 100 + lane) as i32);
                out.push(x.iter().sum());
                out.push(x.iter().min().unwrap() ^ x.iter().max().unwrap());
                out.push(x[..=lane].iter().sum());
                out.push(x[..lane].iter().copied().max().unwrap_or(i32::MIN));
                out.push(x[1] + x[(a[0] & 1) as usize]);
                out.push(
                    i32::from(x.iter().any(|v| *v > 900)) * 10
                        + i32::from(x.iter().all(|v| *v >= -900)),
                );
            }
            out
        })
}

fn sg_narrow(n: usize, local: usize, seed: u64) -> Case {
    case(F, "sg_narrow")
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, seed))
        .out::<i16>(9 * n)
        .expect(1, |r| {
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for (sg, lane) in subgroups(a.len(), r.local[0]) {
                let c: Vec<i8> = a[sg.clone()].iter().map(|v| (v >> 3) as i8).collect();
                let s: Vec<i16> = a[sg].iter().map(|v| (v * 30) as i16).collect();
                out.push(i16::from(*c.iter().max().unwrap()));
                out.push(i16::from(*c.iter().min().unwrap()));
                out.push(i16::from(
                    c[..lane].iter().copied().max().unwrap_or(i8::MIN),
                ));
                out.push(i16::from(
                    c[..lane].iter().map(|v| *v as u8).min().unwrap_or(u8::MAX),
                ));
                out.push(*s[..=lane].iter().min().unwrap());
                out.push(s.iter().map(|v| *v as u16).max().unwrap() as i16);
                out.push(i16::from(c.iter().fold(0i8, |t, v| t.wrapping_add(*v))));
                out.push(s[0]);
                out.push(i16::from(
                    c.iter().fold(0u8, |t, v| t.wrapping_add(*v as u8)) / 3,
                ));
            }
            out
        })
}

fn sg_vote(n: usize, local: usize, seed: u64) -> Case {
    case(F, "sg_vote")
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, seed))
        .out::<i32>(4 * n)
        .expect(1, |r| {
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for (sg, lane) in subgroups(a.len(), r.local[0]) {
                if lane % 2 == 0 {
                    out.extend([-1; 4]);
                    continue;
                }
                let odd: Vec<i32> = a[sg].iter().skip(1).step_by(2).copied().collect();
                out.push(i32::from(lane == 1));
                out.push(i32::from(odd.iter().all(|v| *v > -900)));
                out.push(i32::from(odd.iter().any(|v| *v > 900)));
                out.push(i32::from(odd.iter().all(|v| v >> 10 == odd[0] >> 10)));
            }
            out
        })
}

fn sg_nonuniform(n: usize, local: usize, seed: u64) -> Case {
    case(F, "sg_nonuniform")
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, seed))
        .out::<i64>(5 * n)
        .expect(1, |r| {
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for (sg, lane) in subgroups(a.len(), r.local[0]) {
                let x = &a[sg];
                if x[lane] < 0 {
                    out.extend([-7; 5]);
                    continue;
                }
                let active: Vec<i32> = x.iter().copied().filter(|v| *v >= 0).collect();
                let before: Vec<i32> = x[..lane].iter().copied().filter(|v| *v >= 0).collect();
                out.push(i64::from(active.iter().sum::<i32>()));
                out.push(
                    before
                        .iter()
                        .chain([&x[lane]])
                        .map(|v| i64::from(v % 5 + 1))
                        .product(),
                );
                out.push(i64::from(active.iter().fold(0u32, |t, v| t ^ *v as u32)));
                out.push(i64::from(before.iter().copied().min().unwrap_or(i32::MAX)));
                out.push(i64::from(active.iter().any(|v| *v > 800)));
            }
            out
        })
}

fn sg_clustered(n: usize, local: usize, cs: u32, seed: u64) -> Case {
    case(F, "sg_clustered")
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, seed))
        .out::<i32>(3 * n)
        .val(cs)
        .expect(1, move |r| {
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for (sg, lane) in subgroups(a.len(), r.local[0]) {
                let x = &a[sg];
                // The lanes of the cluster of size c that `lane` is in (those that exist).
                let cl = |c: usize| &x[lane - lane % c..(lane - lane % c + c).min(x.len())];
                out.push(cl(2).iter().sum());
                out.push(*cl(4).iter().max().unwrap());
                out.push(*cl(cs as usize).iter().min().unwrap());
            }
            out
        })
}

fn sg_types(n: usize, local: usize, seed: u64) -> Case {
    case(F, "sg_types")
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, seed))
        .out::<u64>(4 * n)
        .out::<f64>(3 * n)
        .expect(1, |r| {
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for (sg, lane) in subgroups(a.len(), r.local[0]) {
                let x = &a[sg];
                out.push(u64::from(x.iter().map(|v| *v as u32).max().unwrap()));
                out.push(
                    x[..=lane]
                        .iter()
                        .map(|v| i64::from(*v) * 1_000_000_007)
                        .sum::<i64>() as u64,
                );
                out.push(
                    x[..lane]
                        .iter()
                        .map(|v| (v + 2000) as u64)
                        .min()
                        .unwrap_or(u64::MAX),
                );
                out.push(x.iter().fold(0u64, |s, v| {
                    s.wrapping_add((i64::from(*v) as u64).wrapping_shl(33))
                }));
            }
            out
        })
        .expect_f64(2, 0, |r| {
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for (sg, lane) in subgroups(a.len(), r.local[0]) {
                let x = &a[sg];
                // Integer-valued: exact in any order.
                out.push(f64::from(x.iter().map(|v| *v as f32).sum::<f32>()));
                out.push(f64::from(
                    x[..=lane]
                        .iter()
                        .map(|v| *v as f32 * 0.5)
                        .fold(f32::NEG_INFINITY, f32::max),
                ));
                out.push(x[..lane].iter().map(|v| f64::from(*v) * 0.25).sum::<f64>() - 0.0);
            }
            out
        })
}

fn wg_int(n: usize, local: usize, seed: u64) -> Case {
    case(F, "wg_int")
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, seed))
        .out::<i32>(6 * n)
        .expect(1, |r| {
            let a = r.input::<i32>(0);
            let mut out = Vec::new();
            for (wg, lid) in groups_of(a.len(), r.local[0]) {
                let x = &a[wg];
                out.push(x.iter().sum());
                out.push(*x.iter().min().unwrap());
                out.push(*x.iter().max().unwrap());
                out.push(x[..=lid].iter().sum());
                out.push(x[..lid].iter().sum());
                out.push(
                    i32::from(x.iter().any(|v| *v > 990)) * 10
                        + i32::from(x.iter().all(|v| *v > -990)),
                );
            }
            out
        })
}

/// A 2-D launch of `gx` × `gy` items in `lx` × `ly` groups.
fn wg_more(gx: usize, gy: usize, lx: usize, ly: usize, seed: u64) -> Case {
    case(F, "wg_more")
        .global(&[gx, gy])
        .local(&[lx, ly])
        .buf(inputs(gx * gy, seed))
        .out::<i64>(3 * gx * gy)
        .out::<f32>(2 * gx * gy)
        .expect(1, |r| {
            let a = r.input::<i32>(0);
            wg2d(r, |members, lin| {
                let x: Vec<i32> = members.iter().map(|&g| a[g]).collect();
                let last_x = members[r.local[0] - 1];
                vec![
                    x[..=lin].iter().map(|v| i64::from(*v) << 20).max().unwrap(),
                    x[..lin]
                        .iter()
                        .map(|v| i64::from(*v))
                        .min()
                        .unwrap_or(i64::MAX),
                    i64::from(a[last_x]),
                ]
            })
        })
        .expect_f32(2, 0, |r| {
            let a = r.input::<i32>(0);
            wg2d(r, |members, _| {
                let x: Vec<f32> = members.iter().map(|&g| a[g] as f32).collect();
                // Item (1, ly - 1) of the group, in local linear order.
                let pick = members[(r.local[1] - 1) * r.local[0] + 1];
                vec![x.iter().sum(), a[pick] as f32 * 2.0]
            })
        })
}

/// For each item of a 2-D launch in global linear order: `f` of its work-group's members
/// (global linear indices, in local linear order) and its local linear id.
fn wg2d<T>(r: &Run, f: impl Fn(&[usize], usize) -> Vec<T>) -> Vec<T> {
    let (gx, gy) = (r.global[0], r.global[1]);
    let (lx, ly) = (r.local[0], r.local[1]);
    let mut out = Vec::new();
    for y in 0..gy {
        for x in 0..gx {
            let (x0, y0) = (x / lx * lx, y / ly * ly);
            let members: Vec<usize> = (0..ly)
                .flat_map(|j| (0..lx).map(move |i| (y0 + j) * gx + x0 + i))
                .collect();
            let lin = (y - y0) * lx + (x - x0);
            out.extend(f(&members, lin));
        }
    }
    out
}

pub fn cases() -> Vec<Case> {
    vec![
        sg_int(256, 64, 1),
        sg_int(120, 20, 2),
        sg_int(78, 13, 3),
        sg_types(128, 32, 4),
        sg_narrow(120, 20, 12),
        sg_narrow(64, 64, 13),
        sg_vote(120, 20, 14),
        sg_vote(64, 64, 15),
        sg_nonuniform(120, 20, 16),
        sg_nonuniform(64, 64, 17),
        sg_clustered(120, 20, 4, 18),
        sg_clustered(64, 64, 1, 19),
        sg_clustered(64, 32, 8, 20),
        sg_types(60, 12, 5),
        wg_int(256, 64, 6),
        wg_int(120, 40, 7),
        wg_int(78, 13, 8),
        wg_int(256, 256, 9),
        wg_more(16, 8, 8, 4, 10),
        wg_more(12, 6, 6, 3, 11),
    ]
}
