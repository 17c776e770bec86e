//! Cases of tests/jit/relational.cl: relationals, select, fmax, copysign and fabs over float
//! and double at every width, bit-exact (NaNs included) against Rust's float semantics.
use crate::igc::harness::*;

const F: &str = "relational.cl";

macro_rules! frel_cases {
    ($out:ident, $t:ty, $bits:ty, $vc:ty, $name:literal, $seed:expr) => {
        for (k, (n, suffix)) in [(1usize, ""), (2, "2"), (4, "4"), (8, "8"), (16, "16")]
            .into_iter()
            .enumerate()
        {
            let kernel: &'static str = Box::leak(format!("frel_{}{}", $name, suffix).into());
            let items = 32;
            let count = items * n;
            let mut r = Rng::new($seed + k as u64);
            let mut rnd =
                || ((r.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0) as $t;
            let mut a: Vec<$t> = (0..count).map(|_| rnd()).collect();
            let mut b: Vec<$t> = (0..count).map(|_| rnd()).collect();
            // NaN against a number, infinities, a signed zero against a number, equal pairs.
            let special: [($t, $t); 7] = [
                (<$t>::NAN, 1.0),
                (2.0, <$t>::NAN),
                (<$t>::INFINITY, <$t>::NEG_INFINITY),
                (-0.0, 3.0),
                (-4.0, 0.0),
                (5.5, 5.5),
                (-7.25, -7.25),
            ];
            for (j, (x, y)) in special.into_iter().enumerate() {
                a[j] = x;
                b[j] = y;
            }
            for j in (special.len()..count).step_by(5) {
                b[j] = a[j];
            }
            $out.push(
                case(F, kernel)
                    .global(&[items])
                    .buf(a)
                    .buf(b)
                    .out::<$vc>(5 * count)
                    .out::<$bits>(4 * count)
                    .expect(2, move |r| {
                        let (a, b) = (r.input::<$t>(0), r.input::<$t>(1));
                        let truth = |t: bool| -> $vc {
                            match (t, n) {
                                (false, _) => 0,
                                (true, 1) => 1,
                                (true, _) => -1,
                            }
                        };
                        let mut out = vec![0 as $vc; 5 * count];
                        for i in 0..items {
                            for c in 0..n {
                                let e = i * n + c;
                                let (x, y) = (a[e], b[e]);
                                let v = [x == y, x < y, x >= y, x.is_nan(), x.is_sign_negative()];
                                for (op, t) in v.into_iter().enumerate() {
                                    out[(5 * i + op) * n + c] = truth(t);
                                }
                            }
                        }
                        out
                    })
                    .expect(3, move |r| {
                        let (a, b) = (r.input::<$t>(0), r.input::<$t>(1));
                        let mut out = vec![0 as $bits; 4 * count];
                        for i in 0..items {
                            for c in 0..n {
                                let e = i * n + c;
                                let (x, y) = (a[e], b[e]);
                                let v =
                                    [if x < y { y } else { x }, x.max(y), x.copysign(y), x.abs()];
                                for (op, f) in v.into_iter().enumerate() {
                                    out[(4 * i + op) * n + c] = f.to_bits();
                                }
                            }
                        }
                        out
                    }),
            );
        }
    };
}

/// isel_T_C{N}: select(a, b, c) and bitselect(a, b, c's bits) on char and short
/// elements, over random bits (every sign pattern of c).
macro_rules! isel_cases {
    ($out:ident, $t:ty, $c:ty, $name:literal, $seed:expr) => {
        for (k, (n, suffix)) in [(1usize, ""), (2, "2"), (4, "4"), (8, "8"), (16, "16")]
            .into_iter()
            .enumerate()
        {
            let kernel: &'static str = Box::leak(format!("isel_{}{}", $name, suffix).into());
            let items = 32;
            let count = items * n;
            let mut r = Rng::new($seed + k as u64);
            let mut rnd = || r.next_u64();
            let a: Vec<$t> = (0..count).map(|_| rnd() as $t).collect();
            let b: Vec<$t> = (0..count).map(|_| rnd() as $t).collect();
            let mut c: Vec<$c> = (0..count).map(|_| rnd() as $c).collect();
            // Zero and the sign bit alone, for the scalar test c != 0.
            c[0] = 0;
            c[1] = 1 << (<$c>::BITS - 1);
            $out.push(
                case(F, kernel)
                    .global(&[items])
                    .buf(a)
                    .buf(b)
                    .buf(c)
                    .out::<$t>(2 * count)
                    .expect(3, move |r| {
                        let (a, b, c) = (r.input::<$t>(0), r.input::<$t>(1), r.input::<$c>(2));
                        let mut out = vec![0 as $t; 2 * count];
                        for i in 0..items {
                            for e in 0..n {
                                let j = i * n + e;
                                let msb = c[j] >> (<$c>::BITS - 1) & 1 == 1;
                                let pick_b = if n == 1 { c[j] != 0 } else { msb };
                                out[2 * i * n + e] = if pick_b { b[j] } else { a[j] };
                                let m = c[j] as $t;
                                out[(2 * i + 1) * n + e] = (a[j] & !m) | (b[j] & m);
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
    isel_cases!(v, i8, i8, "char_char", 2200);
    isel_cases!(v, u8, i8, "uchar_char", 2210);
    isel_cases!(v, i16, u16, "short_ushort", 2220);
    isel_cases!(v, u16, i16, "ushort_short", 2230);
    frel_cases!(v, f32, u32, i32, "float", 2000);
    // Double's scalar relationals are int, its vector ones long: the scalar case's int
    // results are read as the low halves of longs below, so it gets a case of its own.
    let mut d = Vec::new();
    frel_cases!(d, f64, u64, i64, "double", 2100);
    let scalar = d.remove(0);
    v.extend(d);
    v.push(double_scalar(scalar.kernel));
    v
}

/// frel_double: as the vector cases, with int results.
fn double_scalar(kernel: &'static str) -> Case {
    let mut v = Vec::new();
    frel_cases!(v, f64, u64, i32, "double", 2100);
    let mut c = v.remove(0);
    c.kernel = kernel;
    c
}
