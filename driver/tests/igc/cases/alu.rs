//! Cases of tests/igc/alu.cl: long ALU loops, references computed step by step.
use crate::igc::harness::*;

const F: &str = "alu.cl";
const N: usize = 4096;
const ITERS: i32 = 256;

pub fn cases() -> Vec<Case> {
    vec![
        case(F, "alu_int_hash")
            .global(&[N])
            .local(&[128])
            .out::<u32>(N)
            .val(ITERS)
            .expect(0, |r| {
                let iters = r.value::<i32>(1);
                (0..N as u32)
                    .map(|mut h| {
                        for i in 0..iters {
                            h ^= h >> 13;
                            h = h.wrapping_mul(0x5bd1_e995).wrapping_add(i as u32);
                            h ^= h << 7;
                        }
                        h
                    })
                    .collect()
            }),
        case(F, "alu_float_affine")
            .global(&[N])
            .local(&[256])
            .out::<f32>(N)
            .val(ITERS)
            .expect_f32(0, 0, |r| {
                let iters = r.value::<i32>(1);
                (0..N)
                    .map(|g| {
                        let (mut x, mut y) = ((g & 1023) as f32, 3.0f32);
                        for _ in 0..iters {
                            x = x * 0.5 + 1.25;
                            y = y * 0.5 + x;
                        }
                        x + y
                    })
                    .collect()
            }),
        case(F, "alu_mix16")
            .global(&[N])
            .local(&[64])
            .out::<u32>(N)
            .val(ITERS)
            .expect(0, |r| {
                let iters = r.value::<i32>(1);
                (0..N as u32)
                    .map(|g| {
                        let mut a = g.wrapping_mul(2_654_435_761);
                        let mut f = 0.0f32;
                        for i in 0..iters {
                            a = (a << 5).wrapping_sub(a).wrapping_add(i as u32);
                            f = f * 0.25 + (a & 255) as f32;
                        }
                        a ^ f.to_bits()
                    })
                    .collect()
            }),
    ]
}
