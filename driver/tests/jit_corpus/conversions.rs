//! Cases of tests/jit/conversions.cl: float and double to every integer type with
//! saturation in each rounding mode, and every integer type to float rounded to nearest,
//! toward zero and toward negative infinity; exact references from Rust's saturating casts
//! (NaN to 0, as OpenCL's _sat conversions) and integer arithmetic.
use crate::igc::harness::*;

const F: &str = "conversions.cl";

/// The float one step toward zero (the magnitude below).
fn toward_zero(f: f32) -> f32 {
    if f == 0.0 {
        f
    } else {
        f32::from_bits(f.to_bits() - 1)
    }
}

/// `v` rounded to float toward zero and toward negative infinity: from the nearest-even
/// float, stepped once when it went past `v`.
fn directed(v: i128) -> (f32, f32) {
    let near = v as f32;
    let back = near as f64 as i128;
    let rtz = if back.abs() > v.abs() {
        toward_zero(near)
    } else {
        near
    };
    let rtn = if back > v {
        if near > 0.0 {
            toward_zero(near)
        } else {
            f32::from_bits(near.to_bits() + 1)
        }
    } else {
        near
    };
    (rtz, rtn)
}

/// Floats around and beyond the integer type's range, halves, NaN and infinities.
fn floats(n: usize, scale: f64, seed: u64) -> Vec<f32> {
    let mut r = Rng::new(seed);
    let special = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.5,
        -0.5,
        1.5,
        -2.5,
        0.0,
        -0.0,
    ];
    (0..n)
        .map(|i| {
            if i < special.len() {
                return special[i];
            }
            let u = (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let x = (u * 2.5 - 1.25) * scale;
            // A quarter land exactly on a half.
            if i % 4 == 0 {
                ((x * 2.0).round() / 2.0) as f32
            } else {
                x as f32
            }
        })
        .collect()
}

macro_rules! conv_case {
    ($out:ident, $t:ty, $name:literal, $seed:expr) => {{
        let items = 128;
        let scale = (<$t>::MAX as f64).max(1.0);
        let f = floats(items, scale, $seed);
        let d: Vec<f64> = floats(items, scale, $seed + 1)
            .into_iter()
            .map(|x| x as f64 + 0.25)
            .collect();
        let mut n = rand_bits::<$t>(items, $seed + 2);
        n[0] = <$t>::MAX;
        n[1] = <$t>::MIN;
        $out.push(
            case(F, concat!("conv_", $name))
                .global(&[items])
                .buf(f)
                .buf(d)
                .buf(n)
                .out::<$t>(6 * items)
                .out::<u32>(3 * items)
                .expect(3, move |r| {
                    let (f, d) = (r.input::<f32>(0), r.input::<f64>(1));
                    (0..items)
                        .flat_map(|i| {
                            let x = f[i] as f64;
                            [
                                x.round_ties_even() as $t,
                                x.trunc() as $t,
                                x.ceil() as $t,
                                x.floor() as $t,
                                d[i].trunc() as $t,
                                d[i].round_ties_even() as $t,
                            ]
                        })
                        .collect()
                })
                .expect(4, move |r| {
                    let n = r.input::<$t>(2);
                    (0..items)
                        .flat_map(|i| {
                            let v = n[i] as i128;
                            let (rtz, rtn) = directed(v);
                            [(v as f32).to_bits(), rtz.to_bits(), rtn.to_bits()]
                        })
                        .collect()
                }),
        );
    }};
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    conv_case!(v, i8, "char", 1000);
    conv_case!(v, u8, "uchar", 1010);
    conv_case!(v, i16, "short", 1020);
    conv_case!(v, u16, "ushort", 1030);
    conv_case!(v, i32, "int", 1040);
    conv_case!(v, u32, "uint", 1050);
    conv_case!(v, i64, "long", 1060);
    conv_case!(v, u64, "ulong", 1070);
    v
}
