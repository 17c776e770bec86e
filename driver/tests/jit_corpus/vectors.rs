//! Cases of tests/jit/vectors.cl.
use crate::igc::harness::*;

const F: &str = "vectors.cl";

fn rand_u8(n: usize, seed: u64) -> Vec<u8> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| (r.next_u64() >> 13) as u8).collect()
}

fn rand_i16(n: usize, seed: u64) -> Vec<i16> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| (r.next_u64() >> 7) as i16).collect()
}

/// Dividends and divisors across the whole 64-bit range: small, near 2^32, near 2^63 and
/// with the top bit set (unsigned divisors above 2^63), never zero or MIN / -1.
fn div_inputs(seed: u64) -> (Vec<i64>, Vec<i64>) {
    let mut r = Rng::new(seed);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for k in 0..256 {
        let pick = |r: &mut Rng, k: usize| -> i64 {
            let x = r.next_u64();
            match k % 4 {
                0 => (x % 1000) as i64 - 500,
                1 => (x >> 31) as i64 - (1 << 32),
                2 => x as i64,
                _ => (x | (1 << 63)) as i64,
            }
        };
        let x = pick(&mut r, k);
        let mut y = pick(&mut r, k / 4 + k);
        if y == 0 || (x == i64::MIN && y == -1) {
            y = 7;
        }
        a.push(x);
        b.push(y);
    }
    (a, b)
}

pub fn cases() -> Vec<Case> {
    let (da, db) = div_inputs(9);
    vec![
        case(F, "div64")
            .global(&[256])
            .buf(da)
            .buf(db)
            .out::<i64>(512)
            .out::<u64>(512)
            .expect(2, |r| {
                let (a, b) = (r.input::<i64>(0), r.input::<i64>(1));
                a.iter().zip(&b).flat_map(|(x, y)| [x / y, x % y]).collect()
            })
            .expect(3, |r| {
                let (a, b) = (r.input::<i64>(0), r.input::<i64>(1));
                a.iter()
                    .zip(&b)
                    .flat_map(|(&x, &y)| [x as u64 / y as u64, x as u64 % y as u64])
                    .collect()
            }),
        case(F, "vload3_sum")
            .global(&[64])
            .buf(rand_f32(192, 1, -100.0, 100.0))
            .out::<f32>(192)
            .expect(1, |r| {
                r.input::<f32>(0)
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| x * 2.0 + [1.0, 2.0, 3.0][k % 3])
                    .collect()
            }),
        case(F, "uchar_builtins")
            .global(&[64])
            .buf(rand_u8(256, 2))
            .buf(rand_u8(256, 3))
            .out::<u8>(768)
            .expect(2, |r| {
                let (a, b) = (r.input::<u8>(0), r.input::<u8>(1));
                let mut out = Vec::new();
                for i in 0..64 {
                    let (x, y) = (&a[4 * i..4 * i + 4], &b[4 * i..4 * i + 4]);
                    out.extend((0..4).map(|c| x[c].saturating_add(y[c])));
                    out.extend((0..4).map(|c| x[c].rotate_left([1, 3, 5, 7][c])));
                    out.extend(
                        (0..4)
                            .map(|c| x[c].abs_diff(y[c]).wrapping_add(y[c].leading_zeros() as u8)),
                    );
                }
                out
            }),
        case(F, "short_builtins")
            .global(&[128])
            .buf(rand_i16(128, 4))
            .buf(rand_i16(128, 5))
            .out::<i16>(512)
            .expect(2, |r| {
                let (a, b) = (r.input::<i16>(0), r.input::<i16>(1));
                (0..128)
                    .flat_map(|i| {
                        let (x, y) = (a[i], b[i]);
                        [
                            x.saturating_sub(y),
                            ((x as i32 * y as i32) >> 16) as i16,
                            ((x as i32 + y as i32) >> 1) as i16,
                            x.clamp(-128, 127),
                        ]
                    })
                    .collect()
            }),
    ]
}
