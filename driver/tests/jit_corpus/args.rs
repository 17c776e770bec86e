//! Cases of tests/jit/args.cl.
use crate::igc::harness::*;

const F: &str = "args.cl";

fn bytes(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

pub fn cases() -> Vec<Case> {
    // params_t { int a; float b; char c; long d; }: offsets 0, 4, 8, 16; 24 bytes.
    let mut p = Vec::new();
    p.extend_from_slice(&(-3i32).to_le_bytes());
    p.extend_from_slice(&2.75f32.to_le_bytes());
    p.push(0xF9); // c = -7
    p.extend_from_slice(&[0xAB; 7]); // padding the kernel must not read
    p.extend_from_slice(&0x1_0000_0005i64.to_le_bytes());
    vec![
        case(F, "vec_args")
            .global(&[64])
            .buf(rand_f32(64, 1, -10.0, 10.0))
            .out::<f32>(256)
            .val_bytes(bytes(&[
                &1.5f32.to_le_bytes(),
                &(-2.0f32).to_le_bytes(),
                &0.25f32.to_le_bytes(),
                &3.0f32.to_le_bytes(),
            ]))
            .val_bytes(bytes(&[
                &7i32.to_le_bytes(),
                &(-9i32).to_le_bytes(),
                &100i32.to_le_bytes(),
                &0x5555_5555i32.to_le_bytes(),
            ]))
            // x * s + t may be contracted to one fma (OpenCL's FP_CONTRACT is on): each
            // element must be the fused or the separately rounded result, within 1 ulp.
            .check(|r| {
                let scale = [1.5f32, -2.0, 0.25, 3.0];
                let shift = [7.0f32, -9.0, 100.0, 0.0];
                let got = r.output::<f32>(1);
                for (i, &x) in r.input::<f32>(0).iter().enumerate() {
                    for c in 0..4 {
                        let (fused, split) =
                            (x.mul_add(scale[c], shift[c]), x * scale[c] + shift[c]);
                        let g = got[4 * i + c];
                        let near = |w: f32| (g.to_bits() as i64 - w.to_bits() as i64).abs() <= 1;
                        if !near(fused) && !near(split) {
                            return Err(format!("[{}] got {g} want {fused} or {split}", 4 * i + c));
                        }
                    }
                }
                Ok(())
            }),
        case(F, "narrow_args")
            .global(&[32])
            .out::<i32>(160)
            .val(-5i8)
            .val(250u8)
            .val(-30000i16)
            .val(60000u16)
            .val(0x1234_5678i32)
            .expect(0, |_| {
                (0..32)
                    .flat_map(|i: i32| [-5 * i, 250 + i, -30000 - i, 120000 + i, 0x1234_5678])
                    .collect()
            }),
        case(F, "struct_arg")
            .global(&[64])
            .buf(rand_i32(64, 2, -1000, 1000))
            .out::<i64>(128)
            .val_bytes(p)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .flat_map(|&x| {
                        let v = x as i64;
                        [v * -3 + 5 - 7, 0x1_0000_0005 - v]
                    })
                    .collect()
            }),
        case(F, "long2_arg")
            .global(&[32])
            .out::<i64>(64)
            .val_bytes(bytes(&[
                &(-1_000_000_000_000i64).to_le_bytes(),
                &77i64.to_le_bytes(),
            ]))
            .val_bytes(bytes(&[
                &3u32.to_le_bytes(),
                &4_000_000_000u32.to_le_bytes(),
            ]))
            .expect(0, |_| {
                (0..32i64)
                    .flat_map(|i| [-1_000_000_000_000 + i * 3, 77 - i * 4_000_000_000])
                    .collect()
            }),
        case(F, "union_arg")
            .global(&[32])
            .out::<u32>(96)
            .val_bytes(1.75f32.to_le_bytes().to_vec())
            .expect(0, |_| {
                let f = 1.75f32;
                let bytes = f.to_le_bytes();
                (0..32u32)
                    .flat_map(|i| {
                        [
                            (f * i as f32).to_bits(),
                            f.to_bits() ^ i,
                            (0..4).map(|k| bytes[k] as u32 * (k as u32 + 1)).sum(),
                        ]
                    })
                    .collect()
            }),
        case(F, "array_struct_arg")
            .global(&[24])
            .out::<f64>(24)
            // OpenCL C layout: short id at 0, int table[6] at 4, the inner struct (aligned to
            // 8) at 32: double scale, char tag at 40; 48 bytes in all.
            .val_bytes({
                let mut b = vec![0u8; 48];
                b[0..2].copy_from_slice(&(-3i16).to_le_bytes());
                for (k, v) in [5i32, -7, 11, 13, -17, 19].iter().enumerate() {
                    b[4 + 4 * k..8 + 4 * k].copy_from_slice(&v.to_le_bytes());
                }
                b[32..40].copy_from_slice(&0.5f64.to_le_bytes());
                b[40] = 9;
                b
            })
            .expect(0, |_| {
                let table = [5.0f64, -7.0, 11.0, 13.0, -17.0, 19.0];
                (0..24).map(|i| table[i % 6] * 0.5 + -3.0 + 9.0).collect()
            }),
        // packed_t { char tag; int value; short weight; } packed: offsets 0, 1, 5; 7 bytes.
        // Each group of 64 reverses its elements through local memory.
        case(F, "packed_struct")
            .global(&[128])
            .local(&[64])
            .buf(rand_bits::<u8>(128 * 7, 3))
            .out::<u8>(128 * 7)
            .val_bytes(packed(-2, 3, 1000))
            .expect(1, |r| {
                let input = r.input::<u8>(0);
                (0..128)
                    .flat_map(|i| {
                        let src = &input[7 * ((i / 64) * 64 + 63 - i % 64)..][..7];
                        let value = i32::from_le_bytes(src[1..5].try_into().unwrap());
                        let weight = i16::from_le_bytes(src[5..7].try_into().unwrap());
                        packed(
                            src[0] as i8,
                            value.wrapping_mul(3).wrapping_add(-2),
                            weight.wrapping_add(1000),
                        )
                    })
                    .collect()
            }),
    ]
}

fn packed(tag: i8, value: i32, weight: i16) -> Vec<u8> {
    bytes(&[&[tag as u8], &value.to_le_bytes(), &weight.to_le_bytes()])
}
