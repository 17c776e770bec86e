//! Cases of tests/jit/generic.cl: helpers over generic pointers resolved statically and at
//! run time, the casts and get_fence, generic pointers in memory, atomics, a library
//! built-in writing through a generic pointer, every element width, vectors, structs,
//! comparisons, program-scope variables, and a local reduction through a helper. Each
//! reference computes the kernel's results on the CPU; every result is exact.
use crate::igc::harness::*;

const F: &str = "generic.cl";

/// The global ids of the item's aligned group of four.
fn quad(g: usize) -> std::ops::Range<usize> {
    (g & !3)..(g & !3) + 4
}

/// A 1-D launch of `kernel` over `n` items in groups of `local`: its input buffer, an
/// output buffer of `out` elements of `T`, and a `__local` argument of `local_bytes`.
fn with_local<T: Elem>(
    kernel: &'static str,
    (n, local): (usize, usize),
    input: Vec<impl Elem>,
    out: usize,
    local_bytes: usize,
) -> Case {
    case(F, kernel)
        .global(&[n])
        .local(&[local])
        .buf(input)
        .out::<T>(out)
        .local_arg(local_bytes)
}

fn ints(n: usize, seed: u64) -> Vec<i32> {
    rand_i32(n, seed, -1000, 1000)
}

fn gen_static(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>("gen_static", (n, local), ints(n, seed), 3 * n, 4 * local).expect(1, |r| {
        let a = r.input::<i32>(0);
        (0..a.len())
            .flat_map(|g| {
                let s: i32 = a[quad(g)].iter().sum();
                [s, s + 4, 10 * a[g]]
            })
            .collect()
    })
}

fn gen_dynamic(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>("gen_dynamic", (n, local), ints(n, seed), n, 4 * local).expect(1, |r| {
        let a = r.input::<i32>(0);
        let local = r.local[0];
        (0..a.len())
            .map(|g| {
                let s: i32 = a[quad(g)].iter().sum();
                match a[g] & 3 {
                    0 => s,
                    1 => s + 28,
                    _ => 6 + (g % local) as i32,
                }
            })
            .collect()
    })
}

fn gen_casts(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>("gen_casts", (n, local), ints(n, seed), n, 4 * local).expect(1, |r| {
        // CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2 (private pointers: global).
        r.input::<i32>(0)
            .iter()
            .map(|x| match x & 3 {
                0 => 1 + 8 * 2,
                1 => 2 + 8,
                _ => 4 + 8 * 2,
            })
            .collect()
    })
}

fn gen_write(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>("gen_write", (n, local), ints(n, seed), 4 * n, 4 * local).expect(1, |r| {
        let a = r.input::<i32>(0);
        (0..a.len())
            .flat_map(|g| {
                let k = (g % 5) as i32 + 2;
                let x = a[g];
                (0..4).map(move |i| match (x & 3, i) {
                    (0, _) => (x + i) * k,
                    (1, 0) => x * k,
                    (1, _) => x + i,
                    _ => (i + 1) * k,
                })
            })
            .collect()
    })
}

fn gen_table(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>(
        "gen_table",
        (n, local),
        rand_i32(n, seed, 0, 1000),
        n,
        4 * local,
    )
    .expect(1, |r| {
        let a = r.input::<i32>(0);
        let local = r.local[0];
        (0..a.len())
            .map(|g| {
                let t = [a[g], 200 + ((g % local) ^ 1) as i32, 100 + g as i32];
                (0..3).fold(0, |s, i| s * 1000 + t[((a[g] + i) % 3) as usize])
            })
            .collect()
    })
}

fn gen_atomics(n: usize, local: usize, seed: u64) -> Case {
    case(F, "gen_atomics")
        .global(&[n])
        .local(&[local])
        .buf(rand_i32(n, seed, 0, 1000))
        .out::<i32>(n / local)
        .buf(vec![0i32])
        .expect(1, |r| {
            r.input::<i32>(0)
                .chunks(r.local[0])
                .map(|c| c.iter().filter(|x| *x & 1 == 1).sum::<i32>())
                .collect()
        })
        .expect(2, |r| {
            vec![r
                .input::<i32>(0)
                .iter()
                .filter(|x| *x & 1 == 0)
                .sum::<i32>()]
        })
}

fn gen_atomics64(n: usize, local: usize, seed: u64) -> Case {
    // Values over 32 bits, odd ones to local memory, even ones to global.
    let input: Vec<i64> = rand_i32(n, seed, -1_000_000, 1_000_000)
        .into_iter()
        .map(|x| i64::from(x) << 24 | i64::from(x & 1))
        .collect();
    case(F, "gen_atomics64")
        .global(&[n])
        .local(&[local])
        .buf(input)
        .out::<i64>(2 * (n / local))
        .buf(vec![0i64, i64::MIN])
        .expect(1, |r| {
            r.input::<i64>(0)
                .chunks(r.local[0])
                .flat_map(|c| {
                    let odd = c.iter().filter(|x| *x & 1 == 1);
                    [
                        odd.clone().sum::<i64>(),
                        odd.copied().max().unwrap_or(i64::MIN),
                    ]
                })
                .collect()
        })
        .expect(2, |r| {
            let even = r.input::<i64>(0).into_iter().filter(|x| *x & 1 == 0);
            vec![even.clone().sum::<i64>(), even.max().unwrap_or(i64::MIN)]
        })
}

fn gen_modf(n: usize, local: usize, seed: u64) -> Case {
    with_local::<f32>(
        "gen_modf",
        (n, local),
        rand_f32(n, seed, -100.0, 100.0),
        2 * n,
        4 * local,
    )
    .expect(1, |r| {
        r.input::<f32>(0)
            .iter()
            .flat_map(|x| [x - x.trunc(), x.trunc()])
            .collect::<Vec<f32>>()
    })
}

fn gen_modf_half(n: usize, local: usize, seed: u64) -> Case {
    // Multiples of 0.25 in [-500, 500): exact in half, so the conversion does not round.
    let input: Vec<f32> = rand_i32(n, seed, -2000, 2000)
        .into_iter()
        .map(|k| k as f32 * 0.25)
        .collect();
    with_local::<f32>("gen_modf_half", (n, local), input, 2 * n, 2 * local).expect(1, |r| {
        r.input::<f32>(0)
            .iter()
            .flat_map(|x| [x - x.trunc(), x.trunc()])
            .collect::<Vec<f32>>()
    })
}

fn gen_widths(n: usize, local: usize, seed: u64) -> Case {
    let a: Vec<i64> = rand_i32(2 * n, seed, i32::MIN, i32::MAX)
        .chunks(2)
        .map(|c| (i64::from(c[0]) << 32) ^ i64::from(c[1] as u32))
        .collect();
    with_local::<i64>("gen_widths", (n, local), a, 4 * n, 8 * local).expect(1, |r| {
        r.input::<i64>(0)
            .iter()
            .flat_map(|&x| {
                let v = if x & 1 == 1 { x + 3 } else { x ^ 0x5555 };
                let w = (v & !0xff) | 0x11;
                let w = (w & !(0xffff << 32)) | (0x2222 << 32);
                [
                    v ^ w,
                    i64::from((v >> 8) as i8),
                    i64::from((v >> 48) as i16),
                    i64::from(f64::from_bits(v as u64).is_nan()),
                ]
            })
            .collect()
    })
}

fn gen_vectors(n: usize, local: usize, seed: u64) -> Case {
    let a: Vec<f32> = ints(4 * n, seed).into_iter().map(|x| x as f32).collect();
    with_local::<f32>("gen_vectors", (n, local), a, 4 * n, 16 * local).expect(1, |r| {
        r.input::<f32>(0)
            .iter()
            .map(|x| x * 2.0 + 1.0)
            .collect::<Vec<f32>>()
    })
}

fn gen_struct(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i64>("gen_struct", (n, local), ints(n, seed), n, 16 * local).expect(1, |r| {
        r.input::<i32>(0)
            .iter()
            .enumerate()
            .map(|(g, &x)| {
                let a = if x & 2 != 0 { x + 1 } else { x };
                let b = ((x * 3) as i16).wrapping_add(5);
                i64::from(a) + i64::from(b) + i64::from(g as i8) + (i64::from(x) << 20)
            })
            .collect()
    })
}

fn gen_loop(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>("gen_loop", (n, local), ints(n, seed), n, 4 * local).expect(1, |r| {
        let a = r.input::<i32>(0);
        let local = r.local[0];
        (0..a.len())
            .map(|g| {
                let lq = ((g % local) & !3) as i32;
                (0..6).fold(0i32, |s, i| {
                    let e = if i % 2 == 0 {
                        a[(g & !3) + (i & 3)]
                    } else {
                        (lq + (i & 3) as i32) * 10
                    };
                    s.wrapping_mul(3).wrapping_add(e)
                })
            })
            .collect()
    })
}

fn gen_compare(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>(
        "gen_compare",
        (n, local),
        rand_i32(n, seed, 0, 1000),
        n,
        4 * local,
    )
    .expect(1, |r| {
        r.input::<i32>(0)
            .iter()
            .map(|x| {
                i32::from(x & 3 == 3) + 4 * i32::from(x & 4 == 0) + 8 + 16 * i32::from(x & 3 == 0)
            })
            .collect()
    })
}

fn gen_globals(n: usize, seed: u64) -> Case {
    case(F, "gen_globals")
        .global(&[n])
        .buf(rand_i32(n, seed, 0, 1000))
        .out::<i32>(2 * n)
        .expect(1, |r| {
            let t = [3, 1, 4, 1, 5, 9, 2, 6];
            r.input::<i32>(0)
                .iter()
                .flat_map(|x| [t[(x & 7) as usize] + 9, t[((x >> 3) & 7) as usize]])
                .collect()
        })
}

fn gen_reduce(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>(
        "gen_reduce",
        (n, local),
        ints(n, seed),
        n / local,
        4 * local,
    )
    .expect(1, |r| {
        r.input::<i32>(0)
            .chunks(r.local[0])
            .map(|c| c.iter().sum::<i32>())
            .collect()
    })
}

fn gen_intptr(n: usize, local: usize, seed: u64) -> Case {
    with_local::<i32>("gen_intptr", (n, local), ints(n, seed), n, 4 * local).expect(1, |r| {
        r.input::<i32>(0)
            .iter()
            .map(|x| if x & 1 == 1 { 3 * x + 100000 } else { 2 * x })
            .collect()
    })
}

pub fn cases() -> Vec<Case> {
    vec![
        gen_static(64, 16, 1),
        gen_dynamic(64, 16, 2),
        gen_dynamic(40, 8, 3),
        gen_casts(64, 16, 4),
        gen_write(64, 16, 5),
        gen_table(64, 16, 6),
        gen_atomics(128, 32, 7),
        gen_atomics64(128, 32, 18),
        gen_modf(64, 16, 8),
        gen_modf_half(64, 16, 19),
        gen_widths(64, 16, 9),
        gen_vectors(32, 8, 10),
        gen_struct(64, 16, 11),
        gen_loop(64, 16, 12),
        gen_compare(64, 16, 13),
        gen_globals(64, 14),
        gen_reduce(128, 64, 15),
        gen_reduce(96, 32, 16),
        gen_intptr(64, 16, 17),
    ]
}
