//! Cases of tests/jit/integers.cl: eight integer built-ins for each integer type and vector
//! width, against Rust's integer arithmetic in a wider type; division, remainder and
//! multiplication by powers of two against Rust's (which truncate toward zero, as C's).
use crate::igc::harness::*;

const F: &str = "integers.cl";
const WIDTHS: [(usize, &str); 5] = [(1, ""), (2, "2"), (4, "4"), (8, "8"), (16, "16")];

/// The eight results for one element pair, computed in `$w` (i128 for signed types, u128 for
/// unsigned ones) and wrapped back to `$t`.
macro_rules! reference {
    ($t:ty, $u:ty, $w:ty) => {
        |x: $t, y: $t| -> [$t; 8] {
            let bits = <$t>::BITS as $w;
            let (wx, wy) = (x as $w, y as $w);
            [
                x.saturating_add(y),
                x.saturating_sub(y),
                ((wx + wy) >> 1) as $t,
                ((wx + wy + 1) >> 1) as $t,
                (if wx > wy { wx - wy } else { wy - wx }) as $t,
                x.leading_zeros() as $t,
                x.rotate_left(((y as $u) % (bits as $u)) as u32),
                ((wx * wy) >> bits) as $t,
            ]
        }
    };
}

macro_rules! cases_for {
    ($out:ident, $t:ty, $u:ty, $w:ty, $name:literal, $seed:expr) => {
        for (k, (n, suffix)) in WIDTHS.iter().enumerate() {
            let kernel: &'static str = Box::leak(format!("int_ops_{}{}", $name, suffix).into());
            let items = 32;
            let count = items * n;
            let mut a = rand_bits::<$t>(count, $seed + 2 * k as u64);
            let mut b = rand_bits::<$t>(count, $seed + 2 * k as u64 + 1);
            // The edges: zero, one, the extremes, equal operands.
            for (j, (x, y)) in [
                (0 as $t, 0 as $t),
                (<$t>::MAX, <$t>::MAX),
                (<$t>::MIN, <$t>::MAX),
                (<$t>::MAX, 1 as $t),
                (<$t>::MIN, <$t>::MIN),
                (1 as $t, <$t>::MIN),
            ]
            .into_iter()
            .enumerate()
            {
                a[j] = x;
                b[j] = y;
            }
            let n = *n;
            $out.push(
                case(F, kernel)
                    .global(&[items])
                    .buf(a)
                    .buf(b)
                    .out::<$t>(8 * count)
                    .expect(2, move |r| {
                        let (a, b) = (r.input::<$t>(0), r.input::<$t>(1));
                        let f = reference!($t, $u, $w);
                        let mut out = vec![0 as $t; 8 * items * n];
                        for i in 0..items {
                            for c in 0..n {
                                let e = i * n + c;
                                for (op, v) in f(a[e], b[e]).into_iter().enumerate() {
                                    out[(8 * i + op) * n + c] = v;
                                }
                            }
                        }
                        out
                    }),
            );
        }
    };
}

macro_rules! pow2_cases_for {
    ($out:ident, $t:ty, $name:literal, $seed:expr) => {
        for (k, (n, suffix)) in [(1usize, ""), (4, "4")].into_iter().enumerate() {
            let kernel: &'static str = Box::leak(format!("pow2_ops_{}{}", $name, suffix).into());
            let items = 32;
            let count = items * n;
            let mut a = rand_bits::<$t>(count, $seed + k as u64);
            // The edges: zero, ±1, the extremes, and values just off the divisors.
            let bits = <$t>::BITS;
            for (j, x) in [
                0 as $t,
                1 as $t,
                (0 as $t).wrapping_sub(1),
                <$t>::MIN,
                <$t>::MAX,
                (7 as $t).wrapping_neg(),
                (1 as $t).wrapping_shl(bits / 2).wrapping_neg(),
                (1 as $t)
                    .wrapping_shl(bits / 2)
                    .wrapping_add(1)
                    .wrapping_neg(),
            ]
            .into_iter()
            .enumerate()
            {
                a[j] = x;
            }
            $out.push(
                case(F, kernel)
                    .global(&[items])
                    .buf(a)
                    .out::<$t>(6 * count)
                    .expect(1, move |r| {
                        let a = r.input::<$t>(0);
                        let mut out = vec![0 as $t; 6 * items * n];
                        for i in 0..items {
                            for c in 0..n {
                                let x = a[i * n + c];
                                let p = |s: u32| (1 as $t).wrapping_shl(s);
                                let r = [
                                    x / 2,
                                    x / p(bits - 2),
                                    x % 8,
                                    x % p(bits / 2),
                                    x.wrapping_mul(p(bits / 2 - 1)),
                                    x / p(bits / 2),
                                ];
                                for (op, v) in r.into_iter().enumerate() {
                                    out[(6 * i + op) * n + c] = v;
                                }
                            }
                        }
                        out
                    }),
            );
        }
    };
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    v.push(
        case(F, "mul_by_word_constants")
            .global(&[64])
            .buf({
                let mut v = rand_i32(64, 311, i32::MIN, i32::MAX);
                v[..6].copy_from_slice(&[0, 1, -1, i32::MIN, i32::MAX, 65536]);
                v
            })
            .out::<i32>(8 * 64)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .flat_map(|&x| {
                        let u = x as u32;
                        [
                            x.wrapping_mul(3),
                            x.wrapping_mul(-5),
                            x.wrapping_mul(-32768),
                            x.wrapping_mul(32767),
                            u.wrapping_mul(40000) as i32,
                            u.wrapping_mul(65535) as i32,
                            x.wrapping_mul(65537),
                            u.wrapping_mul(0xFFFF_8000) as i32,
                        ]
                    })
                    .collect()
            }),
    );
    pow2_cases_for!(v, i8, "char", 900);
    pow2_cases_for!(v, u8, "uchar", 910);
    pow2_cases_for!(v, i16, "short", 920);
    pow2_cases_for!(v, u16, "ushort", 930);
    pow2_cases_for!(v, i32, "int", 940);
    pow2_cases_for!(v, u32, "uint", 950);
    pow2_cases_for!(v, i64, "long", 960);
    pow2_cases_for!(v, u64, "ulong", 970);
    cases_for!(v, i8, u8, i128, "char", 100);
    cases_for!(v, u8, u8, u128, "uchar", 200);
    cases_for!(v, i16, u16, i128, "short", 300);
    cases_for!(v, u16, u16, u128, "ushort", 400);
    cases_for!(v, i32, u32, i128, "int", 500);
    cases_for!(v, u32, u32, u128, "uint", 600);
    cases_for!(v, i64, u64, i128, "long", 700);
    cases_for!(v, u64, u64, u128, "ulong", 800);
    v
}
