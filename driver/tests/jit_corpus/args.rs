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
    ]
}
