//! Cases of tests/jit/intel_subgroups.cl: cl_intel_subgroups' shuffles and block reads and
//! writes at the chosen width, SIMD16 and SIMD32, the khr sub-group functions at SIMD16 and
//! SIMD32, and cl_khr_subgroup_shuffle(_relative) at every width, against references that
//! form the sub-groups from the launch shape.
use crate::igc::harness::*;

const F: &str = "intel_subgroups.cl";

/// The width of a kernel without intel_reqd_sub_group_size: 16 (none of these spills at
/// SIMD16, and sub-group functions keep a kernel out of SIMD32), or 8 under GENCL_SIMD=8.
fn default_width() -> usize {
    match std::env::var("GENCL_SIMD").as_deref() {
        Ok("8") => 8,
        _ => 16,
    }
}

fn inputs(n: usize, seed: u64) -> Vec<i32> {
    rand_i32(n, seed, -1000, 1000)
}

/// Item g's sub-group start and lane, for launches of whole sub-groups.
fn lane(g: usize, s: usize) -> (usize, usize) {
    (g - g % s, g % s)
}

fn shuffles(kernel: &'static str, width: fn() -> usize, n: usize, local: usize) -> Case {
    case(F, kernel)
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, 31))
        .out::<i32>(5 * n)
        .out::<i64>(n)
        .out::<f32>(4 * n)
        .out::<f64>(2 * n)
        .expect(1, move |r| {
            let a = r.input::<i32>(0);
            let s = width();
            let mut out = Vec::new();
            for g in 0..a.len() {
                let (b, l) = lane(g, s);
                out.push(a[b + (l * 3 + 1) % s]);
                out.push(a[b + (l ^ 5)]);
                let j = l + 3;
                out.push(if j < s { a[b + j] } else { 2 * a[b + j - s] });
                out.push(if l >= 2 {
                    a[b + l - 2]
                } else {
                    5 * a[b + l + s - 2]
                });
                out.push((s * 100 + (g % r.local[0]) / s) as i32);
            }
            out
        })
        .expect(2, move |r| {
            let a = r.input::<i32>(0);
            let s = width();
            (0..a.len())
                .map(|g| {
                    let (b, l) = lane(g, s);
                    i64::from(a[b + s - 1 - l]) * 1_000_000_007
                })
                .collect()
        })
        .expect_f32(3, 0, move |r| {
            let a = r.input::<i32>(0);
            let s = width();
            let f = |i: usize| {
                let x = a[i] as f32;
                [x, x + 0.5, -x, x * 0.25]
            };
            (0..a.len())
                .flat_map(|g| {
                    let (b, l) = lane(g, s);
                    if l + 1 < s {
                        f(b + l + 1)
                    } else {
                        f(b).map(|v| v * 2.0)
                    }
                })
                .collect()
        })
        .expect_f64(4, 0, move |r| {
            let a = r.input::<i32>(0);
            let s = width();
            let d = |i: usize| [f64::from(a[i]) * 0.125, f64::from(a[i])];
            (0..a.len())
                .flat_map(|g| {
                    let (b, l) = lane(g, s);
                    // shuffle_up(previous = d, current = 3d, 1).
                    if l >= 1 {
                        d(b + l - 1).map(|v| v * 3.0)
                    } else {
                        d(b + s - 1)
                    }
                })
                .collect()
        })
}

fn blocks(kernel: &'static str, width: fn() -> usize, n: usize, local: usize) -> Case {
    let data: Vec<u32> = rand_i32(4 * n + 1, 32, i32::MIN, i32::MAX)
        .into_iter()
        .map(|v| v as u32)
        .collect();
    case(F, kernel)
        .global(&[n])
        .local(&[local])
        .buf(data)
        .out::<u32>(4 * n)
        .out::<u32>(n)
        .expect(1, move |r| {
            let a = r.input::<u32>(0);
            let s = width();
            let n = r.global[0];
            let mut out = vec![0u32; 4 * n];
            for first in (0..n).step_by(s) {
                for l in 0..s {
                    for k in 0..4 {
                        let at = 4 * first + k * s + l;
                        out[at] = a[at].wrapping_mul(3).wrapping_add(l as u32);
                    }
                }
            }
            out
        })
        .expect(2, move |r| {
            let a = r.input::<u32>(0);
            let s = width();
            (0..r.global[0])
                .map(|g| {
                    let (first, l) = lane(g, s);
                    a[4 * first + 1 + l] ^ 0x5a5a_5a5a
                })
                .collect()
        })
}

fn collectives(kernel: &'static str, s: usize, n: usize, local: usize) -> Case {
    case(F, kernel)
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, 33))
        .out::<i64>(4 * n)
        .out::<f64>(n)
        .expect(1, move |r| {
            let a = r.input::<i32>(0);
            let local = r.local[0];
            let mut out = Vec::new();
            for g in 0..a.len() {
                let wg = g - g % local;
                let lid = g % local;
                let first = wg + lid / s * s;
                let end = (first + s).min(wg + local).min(a.len());
                let y = |i: usize| i64::from(a[i]) << 20;
                out.push((first..end).map(y).sum());
                out.push((first..=g).map(y).max().unwrap());
                out.push(y(first + 1));
                let num = local.div_ceil(s);
                out.push(((end - first) * 1000 + (g - first) * 10 + num) as i64);
            }
            out
        })
        .expect_f64(2, 0, move |r| {
            let a = r.input::<i32>(0);
            let local = r.local[0];
            (0..a.len())
                .map(|g| {
                    let wg = g - g % local;
                    let first = wg + (g - wg) / s * s;
                    (first..g).map(|i| f64::from(a[i]) * 0.5).sum()
                })
                .collect()
        })
}

fn khr_shuffles(kernel: &'static str, width: fn() -> usize, n: usize, local: usize) -> Case {
    case(F, kernel)
        .global(&[n])
        .local(&[local])
        .buf(inputs(n, 35))
        .out::<i32>(4 * n)
        .out::<i64>(n)
        .out::<f32>(n)
        .expect(1, move |r| {
            let a = r.input::<i32>(0);
            let s = width();
            let mut out = Vec::new();
            for g in 0..a.len() {
                let (b, l) = lane(g, s);
                out.push(a[b + (l * 5 + 2) % s]);
                out.push(a[b + (l ^ 6)]);
                out.push(if l + 3 < s { a[b + l + 3] } else { -1 });
                out.push(if l >= 1 { a[b + l - 1] } else { -2 });
            }
            out
        })
        .expect(2, move |r| {
            let a = r.input::<i32>(0);
            let s = width();
            (0..a.len())
                .map(|g| {
                    let (b, l) = lane(g, s);
                    i64::from(a[b + (l ^ 1)]) << 33
                })
                .collect()
        })
        .expect_f32(3, 0, move |r| {
            let a = r.input::<i32>(0);
            let s = width();
            (0..a.len())
                .map(|g| {
                    let (b, l) = lane(g, s);
                    a[b + s - 1 - l] as f32 * 0.5
                })
                .collect()
        })
}

pub fn cases() -> Vec<Case> {
    vec![
        shuffles("shuffles", default_width, 64, 32),
        shuffles("shuffles16", || 16, 64, 32),
        shuffles("shuffles16", || 16, 96, 48),
        shuffles("shuffles32", || 32, 128, 64),
        shuffles("shuffles32", || 32, 96, 96),
        blocks("blocks", default_width, 64, 32),
        blocks("blocks16", || 16, 96, 48),
        blocks("blocks32", || 32, 192, 96),
        // 40 work-items a group: two whole sub-groups and one of eight.
        collectives("collectives16", 16, 80, 40),
        collectives("collectives16", 16, 64, 64),
        // 80: two whole sub-groups of 32 and one of 16.
        collectives("collectives32", 32, 160, 80),
        collectives("collectives32", 32, 128, 128),
        khr_shuffles("khr_shuffles", default_width, 64, 32),
        khr_shuffles("khr_shuffles16", || 16, 96, 48),
        khr_shuffles("khr_shuffles32", || 32, 192, 96),
    ]
}
