//! Numeric semantics IGC's code relies on: mixed-size integer operations,
//! float → integer saturation, DF regions and the IEEE macro steps. Programs
//! are iga64-assembled (`iga64 -a -p=9`, the source is quoted above each one)
//! and decoded by the model from those bytes; expected values come from Rust's
//! own integer and f64 arithmetic.

use super::*;

/// Run iga64 output (hex) on one SIMD8 thread whose registers `init` fills.
fn asm_run(hex: &str, init: impl Fn(&mut Vec<[u8; 32]>)) -> Thread {
    asm_thread(hex, 0xFF, init)
}

fn grf_u64s(t: &Thread, reg: usize, n: usize) -> Vec<u64> {
    (0..n)
        .map(|k| {
            let (r, d) = (reg + k / 4, 2 * (k % 4));
            t.grf_u32(r, d) as u64 | (t.grf_u32(r, d + 1) as u64) << 32
        })
        .collect()
}

fn grf_bytes(t: &Thread, reg: usize, stride: usize, n: usize) -> Vec<u8> {
    (0..n)
        .map(|k| {
            let b = reg * 32 + k * stride;
            t.grf_u32(b / 32, (b % 32) / 4).to_le_bytes()[b % 4]
        })
        .collect()
}

/// shl (8|M0) r10.0<1>:q r1.0<8;8,1>:d 32:w       — count masked to 6 bits (qword dst)
/// mov (8|M0) (sat)r12.0<1>:ub r2.0<8;8,1>:f     — .sat to an integer type: its range
/// mov (8|M0) (sat)r13.0<1>:b  r2.0<8;8,1>:f
/// mov (8|M0) (sat)r14.0<1>:d  r2.0<8;8,1>:f
/// mov (8|M0) (sat)r15.0<1>:f  r2.0<8;8,1>:f     — to a float type: [0, 1]
/// (W) send (8|M0) null:ud r127 0x27 0x02000010 {EOT}
const SHL_Q_AND_SAT: &str = "09006000280b402120008d1e2000200001006080883a802140008d000000000001006080a83aa02140008d000000000001006080283ac02140008d000000000001006080e83ae02140008d00000000003100600704020020e00f000610000082";

#[test]
fn qword_shift_count_and_integer_saturation() {
    let d: [i32; 8] = [0, 1, -1, 0x7fff_ffff, i32::MIN, 12345, -77, 0x4000_0000];
    let f: [f32; 8] = [300.0, -300.0, 0.5, 127.7, f32::NAN, 1e10, -1e10, -0.9];
    let t = asm_run(SHL_Q_AND_SAT, |g| {
        put_u32s(g, 1, &d.map(|v| v as u32));
        put_u32s(g, 2, &f.map(f32::to_bits));
    });
    let want_q: Vec<u64> = d.iter().map(|&v| ((v as i64) << 32) as u64).collect();
    assert_eq!(grf_u64s(&t, 10, 8), want_q);
    // Rust's float → integer `as` saturates and maps NaN to 0, as OpenCL's _sat does.
    let want_ub: Vec<u8> = f.iter().map(|&v| v as u8).collect();
    assert_eq!(grf_bytes(&t, 12, 1, 8), want_ub);
    let want_b: Vec<u8> = f.iter().map(|&v| v as i8 as u8).collect();
    assert_eq!(grf_bytes(&t, 13, 1, 8), want_b);
    let want_d: Vec<u32> = f.iter().map(|&v| v as i32 as u32).collect();
    assert_eq!(grf_u32s(&t, 14, 8), want_d);
    let want_f: Vec<u32> = f
        .iter()
        .map(|&v| {
            if v.is_nan() {
                0.0f32
            } else {
                v.clamp(0.0, 1.0)
            }
            .to_bits()
        })
        .collect();
    assert_eq!(grf_u32s(&t, 15, 8), want_f);
}

pub(crate) fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Doubles of every magnitude: denormals, specials, the rest random bits.
pub(crate) fn any_f64(x: &mut u64) -> f64 {
    const SPECIAL: [f64; 8] = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MAX,
        f64::MIN_POSITIVE,
        1.0,
    ];
    match xorshift(x) % 8 {
        0 => f64::from_bits(xorshift(x) & 0x800F_FFFF_FFFF_FFFF),
        1 => SPECIAL[(xorshift(x) % 8) as usize],
        _ => f64::from_bits(xorshift(x)),
    }
}

fn same_f64(got: u64, want: f64) -> bool {
    got == want.to_bits() || (want.is_nan() && f64::from_bits(got).is_nan())
}

/// IGC's DF division (math.invm, the early-out `if`, ten madm; `ieee_div.asm`)
/// gives Rust's correctly rounded `a / b`: denormal quotients and operands,
/// overflow, underflow, ties in the denormal range, specials.
#[test]
fn igc_df_division_sequence_is_correctly_rounded() {
    let hex = include_str!("ieee_div.hex").trim();
    let tiny = |k: u64| f64::from_bits(k);
    let mut pairs: Vec<(f64, f64)> = vec![
        (1.0, 3.0),
        (tiny(3), 6.0), // 0.5 ulp of the smallest denormal: ties to 0
        (tiny(9), 6.0), // 1.5: ties to 2
        (tiny(15), 10.0),
        (tiny(1), 3.0),
        (f64::MAX, 0.5),
        (f64::MAX, tiny(1)),
        (tiny(1), f64::MAX),
        (1e-300, 1e10),
        (-1e308, 1e-10),
        (tiny(0xF_FFFF_FFFF_FFFF), tiny(3)),
        (0.0, 0.0),
        (-0.0, 5.0),
        (1.0, -0.0),
        (f64::INFINITY, f64::INFINITY),
        (f64::NAN, 1.0),
    ];
    let mut s = 0x2545_F491_4F6C_DD1D;
    for _ in 0..4000 {
        pairs.push((any_f64(&mut s), any_f64(&mut s)));
    }
    for k in 0..200u64 {
        // Quotients at and near the denormal ties: (2j+1)·b/2 · 2^-1074.
        let b = (2 * (k % 13) + 6) as f64;
        let j = xorshift(&mut s) % 1000;
        pairs.push((tiny((2 * j + 1) * (b as u64) / 2), b));
    }
    for chunk in pairs.chunks(8) {
        let a: Vec<u64> = (0..8).map(|i| chunk[i % chunk.len()].0.to_bits()).collect();
        let b: Vec<u64> = (0..8).map(|i| chunk[i % chunk.len()].1.to_bits()).collect();
        let t = asm_run(hex, |g| {
            put_u64s(g, 104, &a);
            put_u64s(g, 113, &b);
            put_u64s(g, 33, &[0f64.to_bits(); 4]);
            put_u64s(g, 38, &[1f64.to_bits(); 4]);
        });
        let got = grf_u64s(&t, 29, 8);
        for i in 0..8 {
            let (x, y) = (f64::from_bits(a[i]), f64::from_bits(b[i]));
            let want = x / y;
            assert!(
                same_f64(got[i], want),
                "{x:e} / {y:e}: got {:e} want {want:e}",
                f64::from_bits(got[i])
            );
        }
    }
}

/// IGC's DF square root (math.rsqtm, ten madm; `ieee_sqrt.asm`) gives Rust's
/// correctly rounded `sqrt`: denormals, the largest double, negatives, specials.
#[test]
fn igc_df_sqrt_sequence_is_correctly_rounded() {
    let hex = include_str!("ieee_sqrt.hex").trim();
    let mut xs: Vec<f64> = vec![
        2.0,
        f64::from_bits(1),
        f64::from_bits(0xF_FFFF_FFFF_FFFF),
        f64::MAX,
        -0.0,
        0.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0 + f64::EPSILON,
        1.0 - f64::EPSILON / 2.0,
    ];
    let mut s = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..4000 {
        xs.push(any_f64(&mut s));
    }
    for chunk in xs.chunks(8) {
        let a: Vec<u64> = (0..8).map(|i| chunk[i % chunk.len()].to_bits()).collect();
        let t = asm_run(hex, |g| {
            put_u64s(g, 107, &a);
            put_u64s(g, 3, &[0f64.to_bits(); 4]);
            put_u64s(g, 119, &[0.5f64.to_bits(); 4]);
            put_u64s(g, 121, &[1f64.to_bits(); 4]);
            put_u64s(g, 117, &[1.5f64.to_bits(); 4]);
        });
        let got = grf_u64s(&t, 14, 8);
        for i in 0..8 {
            let x = f64::from_bits(a[i]);
            assert!(
                same_f64(got[i], x.sqrt()),
                "sqrt {x:e}: got {:e}",
                f64::from_bits(got[i])
            );
        }
    }
}

/// (W) mov (1|M0) cr0.0<1>:ud r9.0<0;1,0>:ud {Switch}
/// add (4|M0) r10.0<1>:df r1.0<4;4,1>:df r2.0<4;4,1>:df
/// mul (4|M0) r11.0<1>:df r1.0<4;4,1>:df r2.0<4;4,1>:df
/// mad (4|M0) r12.0<1>:df r3.0<2;1>:df r1.0<2;1>:df r2.0<1>:df
/// mov (4|M0) r13.0<1>:df r4.0<4;4,1>:q
/// add (8|M0) r14.0<1>:hf r5.0<8;8,1>:hf r6.0<8;8,1>:hf
/// mul (8|M0) r15.0<1>:hf r5.0<8;8,1>:hf r6.0<8;8,1>:hf
/// mad (8|M0) r16.0<1>:hf r7.0<2;1>:hf r5.0<2;1>:hf r6.0<1>:hf
/// mov (8|M0) r17.0<1>:hf r8.0<8;8,1>:f
/// (W) send (8|M0) null:ud r127 0x27 0x02000010 {EOT}
const DF_HF_MODES: &str = "0180000004020030200100000000000040004000c8324021200069324000690041004000c832602120006932400069005b01400000d81e0cc83100390220870001004000c84aa0218000690000000000400060004853c021a0008d52c0008d00410060004853e021a0008d52c0008d005b01600018201f10c87100390a20870101006000483b202200018d00000000003100600704020020e00f000610000082";

/// cr0.0[5:4] rounds DF and native HF arithmetic and int64 → DF conversion;
/// cr0.0 bits 6 and 10 flush DF and HF denormals on input and output of
/// arithmetic, not of conversions (f → hf). DF against the host's own
/// arithmetic in the same rounding mode, HF against exact rationals over a
/// table of every half (`halfref`).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn cr0_rounding_and_denormal_modes_for_df_and_hf() {
    use super::super::float::Round;
    use super::halfref::{product, scaled, scaled_f32, HalfRef};
    use super::hostfp as host;
    let mut x = 0x5DEE_CE66_D1CE_F00Du64;
    let df = |x: &mut u64| {
        if xorshift(x) & 1 == 0 {
            any_f64(x)
        } else {
            // Magnitudes near 1: sums and products that are inexact but finite.
            f64::from_bits((xorshift(x) & 0x800F_FFFF_FFFF_FFFF) | (1013 + xorshift(x) % 20) << 52)
        }
    };
    let flush64 = |v: f64, on: bool| {
        if on && v.is_subnormal() {
            0.0f64.copysign(v)
        } else {
            v
        }
    };
    let flush16 = |h: u16, on: bool| if on && h & 0x7C00 == 0 { h & 0x8000 } else { h };
    let same = |got: u64, want: f64| {
        got == want.to_bits() || (want.is_nan() && f64::from_bits(got).is_nan())
    };
    let reference = HalfRef::new();
    let mut differs = 0;
    for trial in 0..48 {
        let a: [f64; 4] = std::array::from_fn(|_| df(&mut x));
        let b: [f64; 4] = std::array::from_fn(|_| df(&mut x));
        let c: [f64; 4] = std::array::from_fn(|_| df(&mut x));
        let q: [i64; 4] =
            std::array::from_fn(|_| (xorshift(&mut x) as i64) >> (xorshift(&mut x) % 12));
        // Finite halves, a quarter of them denormal.
        let half = |x: &mut u64| {
            let r = xorshift(x);
            let h = (r as u16) & 0xBFFF | if r >> 20 & 1 == 1 { 0x4000 } else { 0 };
            let h = if r >> 40 & 3 == 0 { h & 0x83FF } else { h };
            if h & 0x7C00 == 0x7C00 {
                h ^ 0x4000
            } else {
                h
            }
        };
        let h5: [u16; 8] = std::array::from_fn(|_| half(&mut x));
        let h6: [u16; 8] = std::array::from_fn(|_| half(&mut x));
        let h7: [u16; 8] = std::array::from_fn(|_| half(&mut x));
        // f32 values around the half denormal range.
        let f8: [f32; 8] = std::array::from_fn(|_| {
            let r = xorshift(&mut x) as u32;
            f32::from_bits(r & 0x807F_FFFF | (100 + (r >> 23) % 20) << 23)
        });
        for mode in 0..4u32 {
            let rm = Round::from_cr0(mode << 4);
            for keep in [true, false] {
                let cr0 = mode << 4 | if keep { 0x4C0 } else { 0 };
                let t = asm_run(DF_HF_MODES, |g| {
                    let d = |v: &[f64; 4]| {
                        v.iter()
                            .flat_map(|f| [f.to_bits() as u32, (f.to_bits() >> 32) as u32])
                            .collect::<Vec<_>>()
                    };
                    put_u32s(g, 1, &d(&a));
                    put_u32s(g, 2, &d(&b));
                    put_u32s(g, 3, &d(&c));
                    put_u32s(g, 4, &d(&q.map(|v| f64::from_bits(v as u64))));
                    let h = |v: &[u16; 8]| {
                        v.chunks(2)
                            .map(|p| p[0] as u32 | (p[1] as u32) << 16)
                            .collect::<Vec<_>>()
                    };
                    put_u32s(g, 5, &h(&h5));
                    put_u32s(g, 6, &h(&h6));
                    put_u32s(g, 7, &h(&h7));
                    put_u32s(g, 8, &f8.map(f32::to_bits));
                    put_u32s(g, 9, &[cr0]);
                });
                let ctx =
                    |what: &str, i: usize| format!("trial {trial} cr0 {cr0:#x} {what} lane {i}");
                let ftz = !keep;
                let (d_add, d_mul, d_mad, d_cvt) = (
                    grf_u64s(&t, 10, 4),
                    grf_u64s(&t, 11, 4),
                    grf_u64s(&t, 12, 4),
                    grf_u64s(&t, 13, 4),
                );
                for i in 0..4 {
                    let (x, y, z) = (flush64(a[i], ftz), flush64(b[i], ftz), flush64(c[i], ftz));
                    let want = flush64(host::add64(x, y, rm), ftz);
                    assert!(same(d_add[i], want), "{}: {x:e} + {y:e}", ctx("add:df", i));
                    let want = flush64(host::mul64(x, y, rm), ftz);
                    assert!(same(d_mul[i], want), "{}: {x:e} * {y:e}", ctx("mul:df", i));
                    let want = flush64(host::fma64(x, y, z, rm), ftz);
                    assert!(
                        same(d_mad[i], want),
                        "{}: {z:e} + {x:e} * {y:e}",
                        ctx("mad:df", i)
                    );
                    if rm != Round::Rtne && !same(d_mad[i], host::fma64(x, y, z, Round::Rtne)) {
                        differs += 1;
                    }
                    assert_eq!(
                        d_cvt[i],
                        host::from_i64(q[i], rm).to_bits(),
                        "{}",
                        ctx("mov:df<-q", i)
                    );
                }
                let halves = |reg: usize| -> Vec<u16> {
                    (0..8)
                        .map(|i| (t.grf_u32(reg, i / 2) >> (16 * (i % 2))) as u16)
                        .collect()
                };
                let (hadd, hmul, hmad, hcvt) = (halves(14), halves(15), halves(16), halves(17));
                for i in 0..8 {
                    let [u, v, w] = [h5[i], h6[i], h7[i]].map(|h| flush16(h, ftz));
                    let (su, sv, sw) = (scaled(u), scaled(v), scaled(w));
                    let neg = |h: u16| h >> 15 == 1;
                    let zero_sum = |x: bool, y: bool| (x && y) || (x != y && rm == Round::Rd);
                    let want = |exact: i128, zero_neg: bool| {
                        flush16(reference.round(exact, rm, zero_neg), ftz)
                    };
                    let pneg = neg(u) != neg(v);
                    let prod = product(su, sv);
                    let w_add = want(su + sv, zero_sum(neg(u), neg(v)));
                    assert_eq!(hadd[i], w_add, "{}", ctx("add:hf", i));
                    assert_eq!(hmul[i], want(prod, pneg), "{}", ctx("mul:hf", i));
                    let w_mad = want(sw + prod, zero_sum(pneg, neg(w)));
                    assert_eq!(hmad[i], w_mad, "{}", ctx("mad:hf", i));
                    let f = scaled_f32(f8[i]).expect("f32 inputs within the reference's scale");
                    let cvt = reference.round(f, rm, f8[i].is_sign_negative());
                    assert_eq!(
                        hcvt[i],
                        cvt,
                        "{}: conversions keep denormals",
                        ctx("mov:hf<-f", i)
                    );
                }
            }
        }
    }
    assert!(differs > 50, "{differs}");
}
