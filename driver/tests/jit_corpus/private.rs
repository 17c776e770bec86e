//! Cases of tests/jit/private.cl: private arrays and structs in memory. Each reference runs
//! the item's kernel body on the CPU, in the kernel's order: integer results are bit-exact
//! (the inputs keep every signed result in range), and float results are exact (copies,
//! scalings by powers of two, sign flips, sums of integers, or one correctly rounded
//! operation), checked to 0 ulp.
use crate::igc::harness::*;

const F: &str = "private.cl";

/// Apply `f` to each item's `n` consecutive inputs (and its selector), concatenating its
/// outputs.
fn per_item<T: Copy, U>(a: &[T], n: usize, sel: &[u32], f: impl Fn(&[T], u32) -> Vec<U>) -> Vec<U> {
    a.chunks(n).zip(sel).flat_map(|(c, &s)| f(c, s)).collect()
}

fn dyn_int(a: &[i32], s: u32) -> Vec<i32> {
    let mut a = a.to_vec();
    let at = |sh: u32| ((s >> sh) & 15) as usize;
    a[at(0)] += 1000;
    a[at(4)] *= 3;
    a[at(8)] = a[at(12)] - a[at(16)];
    for k in 0..4 {
        a[at(4 * k + 2)] ^= k as i32 + 1;
    }
    let last = a[at(20)];
    a.push(last);
    a
}

fn dyn_narrow(bytes: &[u8], s: u32) -> Vec<i32> {
    let mut c: Vec<i8> = bytes.iter().map(|&b| b as i8).collect();
    let mut h: Vec<i16> = (0..16)
        .map(|k| (c[2 * k] as i32 * 256 + bytes[2 * k + 1] as i32) as i16)
        .collect();
    for k in 0..6 {
        let j = ((s >> (5 * k)) & 31) as usize;
        c[j] = c[j].wrapping_add(100);
        h[j & 15] = h[j & 15].wrapping_sub(3000);
    }
    let mut out: Vec<i32> = c.iter().map(|&x| x as i32).collect();
    out.extend(h.iter().map(|&x| x as i32));
    out.push(
        (0..32u32)
            .map(|k| c[(k.wrapping_add(s) & 31) as usize] as i32)
            .sum(),
    );
    out.push(
        (0..16u32)
            .map(|k| h[((k * 3).wrapping_add(s) & 15) as usize] as i32)
            .sum(),
    );
    out
}

fn dyn_long(x: &[i64], s: u32) -> Vec<i64> {
    let mut q = x.to_vec();
    let mut u: Vec<u64> = x
        .iter()
        .map(|&v| v as u64 ^ 0xF0F0_F0F0_F0F0_F0F0)
        .collect();
    for k in 0..5 {
        let a = ((s >> (3 * k)) & 7) as usize;
        let b = ((s >> (3 * k + 15)) & 7) as usize;
        q[a] = (q[a] >> 3) + (q[b] >> 5);
        u[b] = (u[b] << 7) | (u[a] >> 57);
        u[a] = u[a].wrapping_add(u[b]);
    }
    q.extend(u.iter().map(|&v| v as i64));
    q
}

/// The floats (12, then one read) and the doubles (6) of one item of `dyn_fp`.
fn dyn_fp(f: &[f32], d: &[f64], s: u32) -> (Vec<f32>, Vec<f64>) {
    let (mut f, mut d) = (f.to_vec(), d.to_vec());
    for k in 0..4 {
        let a = ((s >> (8 * k)) % 12) as usize;
        let b = ((s >> (8 * k + 4)) % 12) as usize;
        let t = f[a];
        f[a] = f[b] * 0.5;
        f[b] = -t;
        let (c, e) = (a % 6, b % 6);
        let u = d[c];
        d[c] = d[e] * 4.0;
        d[e] = u - d[e];
    }
    let r = f[((s >> 3) % 12) as usize];
    f.push(r);
    (f, d)
}

fn dyn_float4(x: &[f32], s: u32) -> Vec<f32> {
    let mut v = x.to_vec();
    let at = |sh: u32| 4 * ((s >> sh) & 7) as usize;
    v[at(0) + 1] = (s & 0xFFFF) as f32;
    let (d, w) = (at(3), at(6));
    let src = [v[w + 3], v[w + 2], v[w + 1], v[w]];
    for c in 0..4 {
        v[d + c] = src[c] * 2.0;
    }
    let (d, w) = (at(9), at(12));
    let (z, y) = (v[w + 2], v[w + 1]);
    v[d] += z;
    v[d + 3] += y;
    let r0 = v[((s >> 15) & 31) as usize];
    v[((s >> 20) & 31) as usize] = -1.0;
    let r1 = v[((s >> 25) & 31) as usize];
    let z = v[at(27) + 2];
    v.extend([r0, r1, z, 0.0]);
    v
}

/// The reflected CRC-32 with polynomial `poly`, bit by bit.
fn crc32(bytes: &[u8], poly: u32) -> u32 {
    let mut crc = u32::MAX;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ poly
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn insertion_sort(a: &[i32]) -> Vec<i32> {
    let inversions = (0..a.len())
        .flat_map(|i| (i + 1..a.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| a[i] > a[j])
        .count();
    let mut v = a.to_vec();
    v.sort();
    v.push(inversions as i32);
    v
}

fn sieve(n: i32) -> Vec<i32> {
    let primes: Vec<i32> = (2..=n)
        .filter(|&k| (2..k).take_while(|d| d * d <= k).all(|d| k % d != 0))
        .collect();
    vec![
        primes.len() as i32,
        *primes.last().unwrap(),
        primes.iter().sum(),
    ]
}

/// The RPN machine of `rpn` on one program: depth, top, hash.
fn rpn(prog: &[i32]) -> Vec<u32> {
    let mut st: Vec<u32> = Vec::new();
    for &t in prog {
        let n = st.len();
        if t >= 0 {
            if n < 16 {
                st.push(t as u32);
            }
        } else if t == -4 {
            if (1..16).contains(&n) {
                st.push(st[n - 1]);
            }
        } else if n >= 2 {
            let (a, b) = (st[n - 2], st[n - 1]);
            let r = match t {
                -1 => a.wrapping_add(b),
                -2 => a.wrapping_sub(b),
                -3 => a.wrapping_mul(b),
                -5 => {
                    st.swap(n - 2, n - 1);
                    continue;
                }
                _ => a.max(b),
            };
            st.pop();
            st[n - 2] = r;
        }
    }
    let h = st
        .iter()
        .fold(0u32, |h, &x| h.wrapping_mul(31).wrapping_add(x));
    vec![st.len() as u32, st.last().copied().unwrap_or(0), h]
}

/// `quicksort_stack` on one item: the sorted values, then the peak stack depth.
fn quicksort_stack(x: &[i32]) -> Vec<i32> {
    let mut a = x.to_vec();
    let mut stk: Vec<usize> = vec![0, 31];
    let mut peak = 2;
    while let (Some(hi), Some(lo)) = (stk.pop(), stk.pop()) {
        let pivot = a[hi];
        let mut m = lo;
        for k in lo..hi {
            if a[k] < pivot {
                a.swap(k, m);
                m += 1;
            }
        }
        a[hi] = a[m];
        a[m] = pivot;
        if lo + 1 < m {
            stk.extend([lo, m - 1]);
        }
        if m + 1 < hi {
            stk.extend([m + 1, hi]);
        }
        peak = peak.max(stk.len());
    }
    a.push(peak as i32);
    a
}

fn array_2d(x: &[i32], s: u32) -> Vec<i32> {
    let mut m: Vec<Vec<i32>> = x.chunks(8).map(|r| r.to_vec()).collect();
    let at = |sh: u32| ((s >> sh) & 7) as usize;
    let (dr, dc) = (at(0), at(3));
    m[at(6)][at(9)] = -12345;
    m[dr][dc] += m[at(12)][at(15)];
    let mut out = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            out.push(m[(r + dr) & 7][(c * 3 + dc) & 7]);
        }
    }
    out.extend((0..8).map(|r| m[r].iter().sum::<i32>()));
    out.extend((0..8).map(|c| m.iter().map(|row| row[c]).sum::<i32>()));
    out
}

/// `struct_member` on one item: (ints, floats, longs).
fn struct_member(n: i32, s: u32) -> (Vec<i32>, Vec<f32>, Vec<i64>) {
    let mut tag: Vec<i16> = (0..6).map(|k| (n * (k + 1)) as i16).collect();
    let mut w: Vec<f32> = (0..8).map(|k| (n - k) as f32).collect();
    let mut big: Vec<i64> = (0..3).map(|k| n as i64 * (1i64 << (20 * k))).collect();
    tag[(s % 6) as usize] = -1;
    w[((s >> 4) & 7) as usize] *= -2.0;
    big[((s >> 8) % 3) as usize] += tag[((s >> 12) % 6) as usize] as i64;
    let n = n + tag[((s >> 16) % 6) as usize] as i32;
    w[((s >> 18) & 7) as usize] = n as f32;
    let mut ints = vec![n];
    ints.extend(tag.iter().map(|&t| t as i32));
    ints.push(tag[((s >> 20) % 6) as usize] as i32);
    let r = w[((s >> 24) & 7) as usize];
    w.push(r);
    (ints, w, big)
}

fn ptr_walk(x: &[i32], s: u32) -> Vec<i32> {
    let mut a = x.to_vec();
    let step = 1 + ((s >> 3) & 3) as usize;
    let mut p = (s % 8) as usize;
    loop {
        a[p] = a[p] * 2 + 1;
        if 24 - p <= step {
            break;
        }
        p += step;
    }
    let mut q = 23 - ((s >> 5) & 7) as usize;
    let mut sum = a[q];
    while q >= 3 {
        q -= 3;
        sum += a[q];
    }
    let mut bytes: Vec<u8> = a.iter().flat_map(|v| v.to_le_bytes()).collect();
    let byte = bytes[((s >> 8) % 96) as usize] as i32;
    bytes[((s >> 16) % 96) as usize] = 0x80;
    let mut out: Vec<i32> = bytes
        .chunks(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    out.extend([p as i32, sum, byte]);
    out
}

fn noinline_helper(x: i32) -> Vec<i32> {
    let mut a: Vec<i32> = (0..20).map(|k| -k).collect();
    let fill = |a: &mut [i32], seed: i32| {
        for (k, v) in a.iter_mut().enumerate() {
            let k = k as i32;
            *v = seed * (k + 1) - k * k;
        }
    };
    let n = 1 + (x & 7) as usize;
    fill(&mut a[..n], x >> 4);
    let off = 8 + ((x >> 3) & 7) as usize;
    fill(&mut a[off..], x >> 8);
    let s1: i32 = a.iter().step_by(1 + ((x >> 6) & 3) as usize).sum();
    let s2: i32 = a[n..].iter().step_by(2).sum();
    a.extend([s1, s2]);
    a
}

fn large_array(x: i32) -> Vec<i32> {
    let mut big: Vec<i32> = (0..256).map(|k| (k * 37) ^ x).collect();
    let (mut j, mut acc) = ((x & 255) as usize, 0i32);
    for _ in 0..256 {
        acc += big[j];
        big[j] = acc & 0xFFFF;
        j = (j * 5 + 1 + (big[(j + 17) & 255] & 7) as usize) & 255;
    }
    for k in 1..256 {
        big[k] += big[k - 1];
    }
    let mut out: Vec<i32> = (0..8).map(|m| big[32 * m + (x & 31) as usize]).collect();
    out.push(acc);
    out
}

/// `struct_by_value` on one item: (ints, longs).
fn struct_by_value(x: i32) -> (Vec<i32>, Vec<i64>) {
    let v: [i32; 4] = std::array::from_fn(|k| x + k as i32 * 1000);
    let (f, id) = ((x & 1023) as f32, x as i64 * 100_000);
    let consume = |k: i32| {
        let mut v = v;
        v[(k & 3) as usize] += 100;
        let (f, id) = (f * 2.0, -id);
        v[0] - v[1] + v[2] - v[3] + f as i32 + (id >> 8) as i32
    };
    let k = x >> 5;
    let mut c = v;
    c[((k + 1) & 3) as usize] = v[(k & 3) as usize] * 2;
    let mut ints = vec![consume(x >> 3), consume(x >> 7)];
    ints.extend(v);
    ints.push(f as i32);
    ints.extend(c);
    ints.push(f as i32);
    (ints, vec![id, id + k as i64])
}

fn divergent_writes(i: usize, x: i32) -> Vec<i32> {
    let mut a: Vec<i32> = (0..16).map(|k| k - i as i32).collect();
    let mut b: Vec<i16> = (0..8).collect();
    if x & 1 != 0 {
        for k in 0..(x >> 1) & 7 {
            a[((x + 3 * k) & 15) as usize] = k * x;
        }
    } else if x % 3 == 0 {
        a[(x & 15) as usize] = -x;
        b[((x >> 4) & 7) as usize] = (x & 0x7FFF) as i16;
    } else {
        let mut j = ((x >> 2) & 15) as usize;
        while j < 16 {
            a[j] += x;
            if a[j] & 4 != 0 {
                break;
            }
            j += 1 + ((x >> 6) & 3) as usize;
        }
    }
    match (x >> 8) & 3 {
        0 => a[(15 - (x & 15)) as usize] ^= 0x5555,
        1 | 2 => {
            if (x >> 8) & 3 == 1 {
                b[(x & 7) as usize] = -7;
            }
            a[((x >> 10) & 15) as usize] = b[((x >> 12) & 7) as usize] as i32;
        }
        _ => {}
    }
    a.extend(b.iter().map(|&v| v as i32));
    a
}

/// `n` RPN programs of `len` tokens: about half pushes in [0, 1000), half operators.
fn rpn_programs(n: usize, len: usize, seed: u64) -> Vec<i32> {
    rand_i32(n * len, seed, -6, 6)
        .into_iter()
        .enumerate()
        .map(|(k, t)| {
            if t >= 0 {
                t * 997 % 1000 + k as i32 % 7
            } else {
                t
            }
        })
        .collect()
}

/// `dyn_int`'s int[16] read and written at data indices.
fn dyn_int_case(kernel: &'static str) -> Case {
    case(F, kernel)
        .global(&[128])
        .buf(rand_i32(128 * 16, 1, -100_000, 100_000))
        .buf(rand_bits::<u32>(128, 2))
        .out::<i32>(128 * 17)
        .expect(2, |r| {
            per_item(&r.input::<i32>(0), 16, &r.input::<u32>(1), dyn_int)
        })
}

pub fn cases() -> Vec<Case> {
    vec![
        dyn_int_case("dyn_int"),
        // The same at SIMD32 (intel_reqd_sub_group_size(32)).
        dyn_int_case("dyn_int32"),
        case(F, "dyn_narrow")
            .global(&[128])
            .local(&[32])
            .buf(rand_bits::<u8>(128 * 32, 3))
            .buf(rand_bits::<u32>(128, 4))
            .out::<i32>(128 * 50)
            .expect(2, |r| {
                per_item(&r.input::<u8>(0), 32, &r.input::<u32>(1), dyn_narrow)
            }),
        case(F, "dyn_long")
            .global(&[128])
            .buf(rand_bits::<i64>(128 * 8, 5))
            .buf(rand_bits::<u32>(128, 6))
            .out::<i64>(128 * 16)
            .expect(2, |r| {
                per_item(&r.input::<i64>(0), 8, &r.input::<u32>(1), dyn_long)
            }),
        case(F, "dyn_fp")
            .global(&[128])
            .local(&[32])
            .buf(rand_f32(128 * 12, 7, -1000.0, 1000.0))
            .buf(rand_f64(128 * 6, 8, -1.0e6, 1.0e6))
            .buf(rand_bits::<u32>(128, 9))
            .out::<f32>(128 * 13)
            .out::<f64>(128 * 6)
            .expect_f32(3, 0, |r| {
                let (f, d, s) = (r.input::<f32>(0), r.input::<f64>(1), r.input::<u32>(2));
                (0..s.len())
                    .flat_map(|i| dyn_fp(&f[12 * i..12 * i + 12], &d[6 * i..6 * i + 6], s[i]).0)
                    .collect()
            })
            .expect_f64(4, 0, |r| {
                let (f, d, s) = (r.input::<f32>(0), r.input::<f64>(1), r.input::<u32>(2));
                (0..s.len())
                    .flat_map(|i| dyn_fp(&f[12 * i..12 * i + 12], &d[6 * i..6 * i + 6], s[i]).1)
                    .collect()
            }),
        // Integer-valued components: every sum is exact.
        case(F, "dyn_float4")
            .global(&[128])
            .buf(
                rand_i32(128 * 32, 10, -1000, 1000)
                    .into_iter()
                    .map(|x| x as f32)
                    .collect(),
            )
            .buf(rand_bits::<u32>(128, 11))
            .out::<f32>(128 * 36)
            .expect_f32(2, 0, |r| {
                per_item(&r.input::<f32>(0), 32, &r.input::<u32>(1), dyn_float4)
            }),
        // CRC-32 (IEEE) and CRC-32C.
        case(F, "lut_crc")
            .global(&[128])
            .buf(rand_bits::<u8>(128 * 32, 12))
            .out::<u32>(128 * 2)
            .val(0xEDB8_8320u32)
            .expect(1, |r| {
                let poly = r.value::<u32>(2);
                r.input::<u8>(0)
                    .chunks(32)
                    .flat_map(|c| [crc32(c, poly), c.iter().map(|b| b.count_ones()).sum()])
                    .collect()
            }),
        case(F, "lut_crc")
            .global(&[64])
            .local(&[32])
            .buf(rand_bits::<u8>(64 * 32, 13))
            .out::<u32>(64 * 2)
            .val(0x82F6_3B78u32)
            .expect(1, |r| {
                let poly = r.value::<u32>(2);
                r.input::<u8>(0)
                    .chunks(32)
                    .flat_map(|c| [crc32(c, poly), c.iter().map(|b| b.count_ones()).sum()])
                    .collect()
            }),
        // Full-range values, then small ones with many equal.
        case(F, "insertion_sort")
            .global(&[128])
            .buf({
                let mut v = rand_bits::<i32>(64 * 16, 14);
                v.extend(rand_i32(64 * 16, 15, -4, 4));
                v
            })
            .out::<i32>(128 * 17)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(16)
                    .flat_map(insertion_sort)
                    .collect()
            }),
        case(F, "sieve")
            .global(&[128])
            .local(&[32])
            .buf({
                let mut v = rand_i32(128, 16, 2, 256);
                v[0] = 2;
                v[1] = 255;
                v[2] = 3;
                v
            })
            .out::<i32>(128 * 3)
            .expect(1, |r| {
                r.input::<i32>(0).into_iter().flat_map(sieve).collect()
            }),
        case(F, "rpn")
            .global(&[128])
            .buf(rpn_programs(128, 40, 17))
            .out::<u32>(128 * 3)
            .val(40i32)
            .expect(1, |r| {
                let len = r.value::<i32>(2) as usize;
                r.input::<i32>(0).chunks(len).flat_map(rpn).collect()
            }),
        // Full-range values, small ones with many equal, and sorted and reversed runs.
        case(F, "quicksort_stack")
            .global(&[128])
            .local(&[32])
            .buf({
                let mut v = rand_bits::<i32>(64 * 32, 18);
                v.extend(rand_i32(60 * 32, 19, -3, 3));
                v.extend(0..64);
                v.extend((0..64).rev());
                v
            })
            .out::<i32>(128 * 33)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .chunks(32)
                    .flat_map(quicksort_stack)
                    .collect()
            }),
        case(F, "array_2d")
            .global(&[128])
            .buf(rand_i32(128 * 64, 20, -100_000, 100_000))
            .buf(rand_bits::<u32>(128, 21))
            .out::<i32>(128 * 80)
            .expect(2, |r| {
                per_item(&r.input::<i32>(0), 64, &r.input::<u32>(1), array_2d)
            }),
        case(F, "struct_member")
            .global(&[128])
            .buf(rand_i32(128, 22, -5000, 5000))
            .buf(rand_bits::<u32>(128, 23))
            .out::<i32>(128 * 8)
            .out::<f32>(128 * 9)
            .out::<i64>(128 * 3)
            .expect(2, |r| {
                let s = r.input::<u32>(1);
                let n = r.input::<i32>(0);
                (0..n.len())
                    .flat_map(|i| struct_member(n[i], s[i]).0)
                    .collect()
            })
            .expect_f32(3, 0, |r| {
                let s = r.input::<u32>(1);
                let n = r.input::<i32>(0);
                (0..n.len())
                    .flat_map(|i| struct_member(n[i], s[i]).1)
                    .collect()
            })
            .expect(4, |r| {
                let s = r.input::<u32>(1);
                let n = r.input::<i32>(0);
                (0..n.len())
                    .flat_map(|i| struct_member(n[i], s[i]).2)
                    .collect()
            }),
        case(F, "ptr_walk")
            .global(&[128])
            .local(&[32])
            .buf(rand_i32(128 * 24, 24, -100_000_000, 100_000_000))
            .buf(rand_bits::<u32>(128, 25))
            .out::<i32>(128 * 27)
            .expect(2, |r| {
                per_item(&r.input::<i32>(0), 24, &r.input::<u32>(1), ptr_walk)
            }),
        case(F, "noinline_helper")
            .global(&[128])
            .buf(rand_i32(128, 26, -1_000_000, 1_000_000))
            .out::<i32>(128 * 22)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .into_iter()
                    .flat_map(noinline_helper)
                    .collect()
            }),
        case(F, "large_array")
            .global(&[64])
            .buf(rand_i32(64, 27, 0, 1_000_000))
            .out::<i32>(64 * 9)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .into_iter()
                    .flat_map(large_array)
                    .collect()
            }),
        case(F, "large_array")
            .global(&[128])
            .local(&[32])
            .buf(rand_i32(128, 28, 0, 1_000_000))
            .out::<i32>(128 * 9)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .into_iter()
                    .flat_map(large_array)
                    .collect()
            }),
        case(F, "struct_by_value")
            .global(&[128])
            .buf(rand_i32(128, 29, -1_000_000, 1_000_000))
            .out::<i32>(128 * 12)
            .out::<i64>(128 * 2)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .into_iter()
                    .flat_map(|x| struct_by_value(x).0)
                    .collect()
            })
            .expect(2, |r| {
                r.input::<i32>(0)
                    .into_iter()
                    .flat_map(|x| struct_by_value(x).1)
                    .collect()
            }),
        case(F, "divergent_writes")
            .global(&[128])
            .local(&[32])
            .buf(rand_i32(128, 30, -1_000_000, 1_000_000))
            .out::<i32>(128 * 24)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .into_iter()
                    .enumerate()
                    .flat_map(|(i, x)| divergent_writes(i, x))
                    .collect()
            }),
    ]
}
