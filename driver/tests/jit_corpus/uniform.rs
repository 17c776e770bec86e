//! Cases of tests/jit/uniform.cl: uniform values, uniform loads and coalesced messages where a
//! wrong choice shows (lane 0 disabled, lanes leaving a loop apart). Integer results are
//! exact; the float4 case multiplies by a power of two or permutes, so it is exact too.
use crate::igc::harness::*;

const F: &str = "uniform.cl";

pub fn cases() -> Vec<Case> {
    let n = 64;
    let table = rand_i32(40, 71, -1000, 1000);
    vec![
        case(F, "uniform_load_in_divergent_branch")
            .global(&[n])
            .buf(table.clone())
            .out::<i32>(n)
            .val(5i32)
            .expect(1, |r| {
                let t = r.input::<i32>(0);
                (0..64)
                    .map(|g: i32| if g & 1 != 0 { t[5] + t[6] * 3 + g } else { -1 })
                    .collect()
            }),
        case(F, "uniform_loop_in_divergent_branch")
            .global(&[n])
            .buf(table.clone())
            .out::<i32>(n)
            .val(37i32)
            .expect(1, |r| {
                let t = r.input::<i32>(0);
                let acc: i32 = (0..37).map(|i| t[i] * (i as i32 + 1)).sum();
                (0..64)
                    .map(|g: i32| if g % 3 == 1 { acc + g } else { 0 })
                    .collect()
            }),
        case(F, "uniform_search_in_divergent_branch")
            .global(&[n])
            .buf(table.clone())
            .out::<i32>(n)
            .val(37i32)
            .val(table[13])
            .expect(1, |r| {
                let t = r.input::<i32>(0);
                let marker = r.value::<i32>(3);
                let i = (0..37).find(|&i| t[i] == marker).unwrap_or(37) as i32;
                (0..64)
                    .map(|g: i32| if g % 3 == 1 { i * 1000 + g } else { -5 })
                    .collect()
            }),
        case(F, "uniform_search_in_divergent_branch")
            .global(&[n])
            .buf(table.clone())
            .out::<i32>(n)
            .val(37i32)
            .val(5000i32)
            .expect(1, |_| {
                (0..64)
                    .map(|g: i32| if g % 3 == 1 { 37000 + g } else { -5 })
                    .collect()
            }),
        case(F, "uniform_phi_in_divergent_branch")
            .global(&[n])
            .out::<i32>(n)
            .val(9i32)
            .expect(0, |_| {
                (0..64)
                    .map(|g: i32| if g & 2 != 0 { 18 + g } else { 7 })
                    .collect()
            }),
        case(F, "uniform_phi_in_divergent_branch")
            .global(&[n])
            .out::<i32>(n)
            .val(3i32)
            .expect(0, |_| {
                (0..64)
                    .map(|g: i32| if g & 2 != 0 { 103 + g } else { 7 })
                    .collect()
            }),
        case(F, "divergent_exit_loop")
            .global(&[n])
            .buf(rand_i32(n, 72, 0, 40))
            .out::<i32>(2 * n)
            .expect(1, |r| {
                r.input::<i32>(0)
                    .iter()
                    .flat_map(|&stop| {
                        let (mut i, mut s) = (0i32, 0i32);
                        loop {
                            s += i * 7;
                            i += 1;
                            if i >= stop {
                                break;
                            }
                        }
                        [i, s * 3 + i]
                    })
                    .collect()
            }),
        case(F, "uniform_table_rounds")
            .global(&[n])
            .buf(rand_bits::<u32>(32, 73))
            .out::<u32>(n)
            .expect(1, |r| {
                let k = r.input::<u32>(0);
                (0..64u32)
                    .map(|g| {
                        k.iter().fold(g.wrapping_mul(2654435761), |h, &x| {
                            (h ^ x).wrapping_mul(16777619)
                        })
                    })
                    .collect()
            }),
        case(F, "uniform_qword_table")
            .global(&[n])
            .buf(rand_bits::<u64>(9, 75))
            .out::<u64>(n)
            .expect(1, |r| {
                let k = r.input::<u64>(0);
                (0..64u64)
                    .map(|g| {
                        k.iter()
                            .fold(g, |h, &x| h.wrapping_mul(31).wrapping_add(x) ^ (h >> 7))
                    })
                    .collect()
            }),
        case(F, "float4_messages")
            .global(&[n])
            .buf(rand_f32(4 * n, 74, -100.0, 100.0))
            .out::<f32>(4 * n)
            .val(0.25f32)
            .expect(1, |r| {
                r.input::<f32>(0)
                    .chunks(4)
                    .enumerate()
                    .flat_map(|(g, v)| {
                        if g & 1 != 0 {
                            v.iter().map(|x| x * 0.25).collect::<Vec<f32>>()
                        } else {
                            vec![v[3], v[2], v[1], v[0]]
                        }
                    })
                    .collect()
            }),
    ]
}
