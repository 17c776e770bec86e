//! Cases of tests/jit/constants.cl.
use crate::igc::harness::*;

const F: &str = "constants.cl";

const PRIMES: [i32; 16] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53];
const BYTES: [i32; 5] = [0, 255, 128, 7, 64];
const WEIGHTS: [[f32; 4]; 3] = [
    [0.5, 1.0, 2.0, 4.0],
    [-1.0, 0.25, 8.0, 0.0],
    [3.0, 3.0, -3.0, 1.5],
];
const ENTRIES: [(i64, i64, i64); 4] = [
    (1, b'a' as i64, 1_000_000_000_000),
    (-2, b'b' as i64, -5),
    (300, b'c' as i64, 7),
    (-32768, b'z' as i64, i64::MAX),
];

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "table_lookup")
            .global(&[128])
            .buf(rand_i32(128, 1, -1000, 1000))
            .out::<i32>(128)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .map(|&x| {
                        let k = (x & 15) as usize;
                        PRIMES[k] * PRIMES[15 - k] + BYTES[k % 5]
                    })
                    .collect()
            }),
        case(F, "vector_table")
            .global(&[96])
            .buf(rand_f32(96, 2, -4.0, 4.0))
            .out::<f32>(96)
            .check(|r| {
                // x * w.x + w.y * w.z - w.w, contracted or not: within 2 ulp of either.
                let got = r.output::<f32>(1);
                for (i, &x) in r.input::<f32>(0).iter().enumerate() {
                    let w = WEIGHTS[i % 3];
                    let plain = x * w[0] + w[1] * w[2] - w[3];
                    let fused = x.mul_add(w[0], w[1] * w[2]) - w[3];
                    let d = |a: f32| (got[i].to_bits() as i64 - a.to_bits() as i64).abs();
                    if d(plain) > 2 && d(fused) > 2 {
                        return Err(format!("[{i}] got {} want {plain}", got[i]));
                    }
                }
                Ok(())
            }),
        case(F, "struct_table")
            .global(&[16])
            .out::<i64>(16)
            .expect(0, |_| {
                (0..16)
                    .map(|i| {
                        let (id, tag, big) = ENTRIES[i & 3];
                        big.wrapping_add(id * 10 + tag)
                    })
                    .collect()
            }),
    ]
}
