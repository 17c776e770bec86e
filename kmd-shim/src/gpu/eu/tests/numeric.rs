//! Numeric semantics IGC's code relies on: mixed-size integer operations,
//! float → integer saturation, DF regions and the IEEE macro steps. Programs
//! are iga64-assembled (`iga64 -a -p=9`, the source is quoted above each one)
//! and decoded by the model from those bytes; expected values come from Rust's
//! own integer and f64 arithmetic.

use super::*;

/// Decode iga64 output (hex) into a program at KBASE, run it on one SIMD8
/// thread whose registers `init` fills, return the thread.
fn asm_run(hex: &str, init: impl Fn(&mut Vec<[u8; 32]>)) -> Thread {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    let mut insts = Vec::new();
    let mut off = 0;
    while off < bytes.len() {
        let (inst, len) = gencl_jit::isa::gen9::decode(&bytes[off..]).unwrap();
        insts.push((KBASE + off as u64, inst));
        off += len;
    }
    let mut p = Program::from_insts(insts).unwrap();
    let tg = group(1, 0xFF, |_, g| init(g));
    let mem = FlatMem::new();
    let mut c = Counters::default();
    let env = LaunchEnv {
        general_state_base: MEM_BASE,
        max_instructions: 100_000,
    };
    run_threads(&mut p, &mem, &tg, &env, &mut c)
        .unwrap()
        .remove(0)
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
