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

pub fn cases() -> Vec<Case> {
    vec![
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
