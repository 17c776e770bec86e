//! EU tests: hand-built programs, results held against CPU references
//! computed here by independent Rust code.

use gencl_isa::{
    AccessMode, Branch, CondMod, Dst, Imm, Inst, MathFn, Opcode, PredCtrl, Predicate, RegFile,
    Region, SendInfo, Sfid, Src, SrcMod, SrcReg, Type,
};

use super::program::Program;
use super::thread::Thread;
use super::{run_program, run_threads, LaunchEnv};
use crate::gpu::binding::Bindings;
use crate::gpu::{
    BufferSurface, Counters, GpuError, GpuMemory, MemFault, ThreadGroup, ThreadPayload,
};

const KBASE: u64 = 0x1_0000;
const MEM_BASE: u64 = 0x10_0000;
const MEM_SIZE: usize = 0x1_0000;

/// One mapped window of memory; everything else faults.
struct FlatMem {
    base: u64,
    data: parking_lot::Mutex<Vec<u8>>,
}

impl FlatMem {
    fn new() -> FlatMem {
        FlatMem {
            base: MEM_BASE,
            data: parking_lot::Mutex::new(vec![0; MEM_SIZE]),
        }
    }
    fn range(&self, addr: u64, len: usize) -> Result<usize, MemFault> {
        let off = addr.checked_sub(self.base).ok_or(MemFault {
            addr,
            kind: "unmapped",
        })? as usize;
        if off + len > MEM_SIZE {
            return Err(MemFault {
                addr,
                kind: "unmapped",
            });
        }
        Ok(off)
    }
    fn put_u32s(&self, addr: u64, v: &[u32]) {
        for (k, x) in v.iter().enumerate() {
            self.write(addr + 4 * k as u64, &x.to_le_bytes()).unwrap();
        }
    }
    fn get_u32s(&self, addr: u64, n: usize) -> Vec<u32> {
        (0..n)
            .map(|k| {
                let mut b = [0u8; 4];
                self.read(addr + 4 * k as u64, &mut b).unwrap();
                u32::from_le_bytes(b)
            })
            .collect()
    }
}

impl GpuMemory for FlatMem {
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let o = self.range(addr, out.len())?;
        out.copy_from_slice(&self.data.lock()[o..o + out.len()]);
        Ok(())
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let o = self.range(addr, data.len())?;
        self.data.lock()[o..o + data.len()].copy_from_slice(data);
        Ok(())
    }
}

// ---- instruction builders -------------------------------------------------

fn reg(nr: u8, sub: u8, ty: Type, region: Region) -> Src {
    Src::Reg(SrcReg {
        file: RegFile::Grf,
        nr,
        subreg: sub,
        region,
        ty,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    })
}

/// A whole register of `ty`, read <8;8,1> (two registers at SIMD16 for 32-bit types).
fn row(nr: u8, ty: Type) -> Src {
    reg(
        nr,
        0,
        ty,
        Region {
            vstride: 8,
            width: 8,
            hstride: 1,
        },
    )
}
fn r8(nr: u8, ty: Type) -> Src {
    reg(
        nr,
        0,
        ty,
        Region {
            vstride: 8,
            width: 8,
            hstride: 1,
        },
    )
}
fn rg(v: u8, w: u8, h: u8) -> Region {
    Region {
        vstride: v,
        width: w,
        hstride: h,
    }
}
fn scalar(nr: u8, sub: u8, ty: Type) -> Src {
    reg(nr, sub, ty, Region::SCALAR)
}
fn imm(ty: Type, bits: u64) -> Src {
    Src::Imm(Imm { ty, bits })
}
fn neg(s: Src) -> Src {
    match s {
        Src::Reg(mut r) => {
            r.modifier.negate = true;
            Src::Reg(r)
        }
        s => s,
    }
}
fn dst(nr: u8, ty: Type) -> Dst {
    Dst {
        file: RegFile::Grf,
        nr,
        subreg: 0,
        hstride: 1,
        ty,
        indirect: None,
        writemask: 0xF,
    }
}
fn null_dst(ty: Type) -> Dst {
    Dst {
        file: RegFile::Arf,
        nr: 0,
        subreg: 0,
        hstride: 1,
        ty,
        indirect: None,
        writemask: 0xF,
    }
}
fn alu(op: Opcode, n: u8, d: Dst, srcs: &[Src]) -> Inst {
    let mut i = Inst::new(op, n);
    i.dst = Some(d);
    for (k, s) in srcs.iter().enumerate() {
        i.srcs[k] = Some(*s);
    }
    i
}
fn with_cmod(mut i: Inst, c: CondMod, flag: (u8, u8)) -> Inst {
    i.cond_mod = Some(c);
    i.flag = flag;
    i
}
fn with_pred(mut i: Inst, flag: (u8, u8), inverse: bool) -> Inst {
    i.predicate = Some(Predicate {
        ctrl: PredCtrl::Normal,
        inverse,
    });
    i.flag = flag;
    i
}
fn send(n: u8, sfid: Sfid, dst_nr: Option<u8>, src: u8, desc: u32, eot: bool) -> Inst {
    let mut i = Inst::new(Opcode::Send, n);
    i.dst = Some(match dst_nr {
        Some(r) => dst(r, Type::UD),
        None => null_dst(Type::UD),
    });
    i.srcs[0] = Some(r8(src, Type::UD));
    i.send = Some(SendInfo {
        sfid,
        desc: Some(desc),
        ex_desc: 0,
        eot,
    });
    i
}
fn desc(mlen: u32, rlen: u32, msg_type: u32, ctrl: u32, bti: u32) -> u32 {
    (mlen << 25) | (rlen << 20) | (msg_type << 14) | (ctrl << 8) | bti
}
/// SIMD8 A64 untyped read/write of one channel (cmask 0xE, SIMD mode 2 = SIMD8).
fn a64_read(d: u8, addr: u8) -> Inst {
    send(
        8,
        Sfid::Dc1,
        Some(d),
        addr,
        desc(2, 1, 0x11, 0x2E, 253),
        false,
    )
}
fn a64_write(payload: u8) -> Inst {
    send(
        8,
        Sfid::Dc1,
        None,
        payload,
        desc(3, 0, 0x19, 0x2E, 253),
        false,
    )
}
fn eot() -> Inst {
    let mut i = send(8, Sfid::ThreadSpawner, None, 127, (1 << 25) | 0x10, true);
    i.no_mask = true;
    i
}
fn flow(op: Opcode, n: u8, jip: i32, uip: i32) -> Inst {
    let mut i = Inst::new(op, n);
    i.branch = Some(Branch { jip, uip });
    i
}

/// Decode iga64 output (hex) into a program at KBASE, followed by an EOT, and run
/// it on one thread with channel-enable `mask` whose registers `init` fills.
fn asm_thread(hex: &str, mask: u32, init: impl Fn(&mut Vec<[u8; 32]>)) -> Thread {
    asm_thread_in(hex, mask, &FlatMem::new(), |_| {}, init).unwrap()
}

/// `asm_thread` on memory `mem`, with `setup` changing the group (its bindings, its
/// sampler state) before the run.
fn asm_thread_in(
    hex: &str,
    mask: u32,
    mem: &FlatMem,
    setup: impl FnOnce(&mut ThreadGroup),
    init: impl Fn(&mut Vec<[u8; 32]>),
) -> Result<Thread, GpuError> {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    let mut insts = Vec::new();
    let mut off = 0;
    while off < bytes.len() {
        let (inst, len) = gencl_isa::gen9::decode(&bytes[off..]).unwrap();
        insts.push((KBASE + off as u64, inst));
        off += len;
    }
    insts.push((KBASE + off as u64, eot()));
    let mut p = Program::from_insts(insts).unwrap();
    let mut tg = ThreadGroup {
        simd: if mask > 0xFFFF {
            32
        } else if mask > 0xFF {
            16
        } else {
            8
        },
        ..group(1, mask, |_, g| init(g))
    };
    setup(&mut tg);
    let mut c = Counters::default();
    let env = LaunchEnv {
        general_state_base: MEM_BASE,
        max_instructions: 100_000,
        watchdog: crate::gpu::watchdog::Watchdog::none(),
    };
    Ok(run_threads(&mut p, mem, &tg, &env, &mut c)?.remove(0))
}

fn program(insts: Vec<Inst>) -> Program {
    Program::from_insts(
        insts
            .into_iter()
            .enumerate()
            .map(|(k, i)| (KBASE + 16 * k as u64, i))
            .collect(),
    )
    .unwrap()
}

/// r120 holds the lane numbers 0..7 in every thread `group` makes (a packed :uv
/// immediate cannot give a dword destination 0..7: channel i reads element 2i).
const LANE_REG: u8 = 120;
fn lane_ids() -> Src {
    r8(LANE_REG, Type::UD)
}

fn group(nthreads: usize, mask: u32, init: impl Fn(usize, &mut Vec<[u8; 32]>)) -> ThreadGroup {
    ThreadGroup {
        kernel_addr: KBASE,
        simd: 8,
        threads: (0..nthreads)
            .map(|t| {
                let mut g = vec![[0u8; 32]; 128];
                put_u32s(&mut g, LANE_REG as usize, &[0, 1, 2, 3, 4, 5, 6, 7]);
                init(t, &mut g);
                ThreadPayload {
                    grfs: g,
                    exec_mask: mask,
                }
            })
            .collect(),
        bindings: Bindings::Fixed(vec![Some(
            BufferSurface {
                base: MEM_BASE + 0x8000,
                size: 64,
            }
            .into(),
        )]),
        slm_bytes: 1024,
        scratch_base: MEM_BASE + 0xC000,
        scratch_per_thread: 1024,
        barrier_enabled: true,
        dynamic_state_base: MEM_BASE,
        sampler_state_pointer: 0,
    }
}

fn put_u64s(g: &mut [[u8; 32]], first_reg: usize, vals: &[u64]) {
    for (k, v) in vals.iter().enumerate() {
        let b = k * 8;
        g[first_reg + b / 32][b % 32..b % 32 + 8].copy_from_slice(&v.to_le_bytes());
    }
}
fn put_u32s(g: &mut [[u8; 32]], first_reg: usize, vals: &[u32]) {
    for (k, v) in vals.iter().enumerate() {
        let b = k * 4;
        g[first_reg + b / 32][b % 32..b % 32 + 4].copy_from_slice(&v.to_le_bytes());
    }
}
fn grf_u32s(t: &Thread, reg: usize, n: usize) -> Vec<u32> {
    (0..n).map(|k| t.grf_u32(reg + k / 8, k % 8)).collect()
}

fn run(
    insts: Vec<Inst>,
    tg: &ThreadGroup,
    mem: &FlatMem,
) -> Result<(Vec<Thread>, Counters), GpuError> {
    let mut p = program(insts);
    let mut c = Counters::default();
    let t = run_threads(
        &mut p,
        mem,
        tg,
        &LaunchEnv {
            general_state_base: MEM_BASE,
            max_instructions: 100_000,
            watchdog: crate::gpu::watchdog::Watchdog::none(),
        },
        &mut c,
    )?;
    Ok((t, c))
}

/// Run a SIMD8 ALU sequence on one thread whose r1..r3 hold `a`, `b`, `c`; returns the thread.
fn alu_run(insts: Vec<Inst>, a: &[u32], b: &[u32], c: &[u32]) -> Thread {
    let mut all = insts;
    all.push(eot());
    let tg = group(1, 0xFF, |_, g| {
        put_u32s(g, 1, a);
        put_u32s(g, 2, b);
        put_u32s(g, 3, c);
    });
    let mem = FlatMem::new();
    run(all, &tg, &mem).unwrap().0.remove(0)
}

// ---- tests -----------------------------------------------------------------

/// c[i] = a[i] + b[i] over f32 with A64 untyped reads and writes; lane addresses
/// computed on the EU from a base in r0 and a :v immediate; 6 of 8 lanes enabled.
fn vector_add_program() -> Vec<Inst> {
    vec![
        // r20 = lane * 4
        alu(Opcode::Mov, 8, dst(20, Type::UD), &[lane_ids()]),
        alu(
            Opcode::Shl,
            8,
            dst(20, Type::UD),
            &[r8(20, Type::UD), imm(Type::UD, 2)],
        ),
        // r1-2 = &a[i], r3-4 = &b[i], r5-6 = &c[i] (bases in r0.0/r0.1/r0.2 as UQ... r0.0, r0.8, r0.16 bytes)
        alu(
            Opcode::Add,
            8,
            dst(1, Type::UQ),
            &[r8(20, Type::UD), scalar(0, 0, Type::UQ)],
        ),
        alu(
            Opcode::Add,
            8,
            dst(3, Type::UQ),
            &[r8(20, Type::UD), scalar(0, 8, Type::UQ)],
        ),
        alu(
            Opcode::Add,
            8,
            dst(5, Type::UQ),
            &[r8(20, Type::UD), scalar(0, 16, Type::UQ)],
        ),
        a64_read(10, 1),
        a64_read(11, 3),
        alu(
            Opcode::Add,
            8,
            dst(7, Type::F),
            &[r8(10, Type::F), r8(11, Type::F)],
        ),
        a64_write(5),
        eot(),
    ]
}

fn vector_add_setup(mem: &FlatMem) -> (Vec<f32>, Vec<f32>, ThreadGroup) {
    let a: Vec<f32> = (0..8).map(|i| 1.5 * i as f32 + 0.1).collect();
    let b: Vec<f32> = (0..8).map(|i| 1.0e7 / (i as f32 + 3.0)).collect();
    mem.put_u32s(MEM_BASE, &a.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    mem.put_u32s(
        MEM_BASE + 0x100,
        &b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
    );
    mem.put_u32s(MEM_BASE + 0x200, &[0xDEAD_BEEF; 8]);
    let tg = group(1, 0x3F, |_, g| {
        put_u64s(g, 0, &[MEM_BASE, MEM_BASE + 0x100, MEM_BASE + 0x200])
    });
    (a, b, tg)
}

fn check_vector_add(mem: &FlatMem, a: &[f32], b: &[f32]) {
    let out = mem.get_u32s(MEM_BASE + 0x200, 8);
    for i in 0..6 {
        assert_eq!(out[i], (a[i] + b[i]).to_bits(), "lane {i}");
    }
    assert_eq!(
        &out[6..],
        &[0xDEAD_BEEF; 2],
        "disabled lanes must not be written"
    );
}

#[test]
fn simd8_vector_add_via_a64_untyped() {
    let mem = FlatMem::new();
    let (a, b, tg) = vector_add_setup(&mem);
    let (_, c) = run(vector_add_program(), &tg, &mem).unwrap();
    check_vector_add(&mem, &a, &b);
    assert_eq!(c.threads, 1);
    assert_eq!(c.instructions, 10);
    assert_eq!(c.sends, 4);
    // 9 instructions on 6 lanes, the EOT is NoMask on 8.
    assert_eq!(c.lane_instructions, 9 * 6 + 8);
    // Sends by kind: two A64 reads and one A64 write, and the EOT.
    assert_eq!((c.sends_a64, c.sends_eot), (3, 1));
    assert_eq!(
        c.sends_surface + c.sends_slm + c.sends_scratch + c.sends_atomic + c.sends_barrier,
        0
    );
    // Timing (docs/gpu-model.md): issue = SIMD8 32-bit mov 2 + shl 2 + three
    // adds to UQ at 4 (two lanes a cycle) + two reads 1 + add 2 + write 1 +
    // EOT 1 = 22. The reads issue at cycles 17 and 18, their replies land at
    // 217 and 218, and the add that reads both waits from 18 to 218: 200 cycles
    // of latency (the second read's hidden behind the first's); the write has
    // no reply, so nothing waits for it. One thread: 222.
    assert_eq!(c.issue_cycles, 22);
    assert_eq!(c.latency_cycles, 200);
    assert_eq!(c.modelled_cycles, 222);
}

/// The scoreboard: a thread waits for a reply only where an instruction touches one of its
/// registers, so a read issued before the first's reply is used overlaps it; used in turn,
/// the same two reads wait twice. Nobody waits for a store.
#[test]
fn replies_wait_at_their_first_use() {
    let mem = FlatMem::new();
    let (a, b, tg) = vector_add_setup(&mem);
    let mut prog = vector_add_program();
    // mov, shl, three adds, read a, read b, add, write, eot: move the read of b after a
    // use of a (a move of r10 to r12), so that each reply is waited for in turn.
    let use_a = alu(Opcode::Mov, 8, dst(12, Type::F), &[r8(10, Type::F)]);
    let read_b = prog.remove(6);
    prog.insert(6, use_a.clone());
    prog.insert(7, read_b);
    let (_, c) = run(prog, &tg, &mem).unwrap();
    check_vector_add(&mem, &a, &b);
    // Issue 22 + the mov's 2; read a at 17 lands at 217, the mov waits 200 and issues
    // (219), read b at 220 lands at 420, the add waits 200 more.
    assert_eq!((c.issue_cycles, c.latency_cycles), (24, 400));
    assert_eq!(c.modelled_cycles, 424);
    // The same use, after both reads: one wait.
    let mut prog = vector_add_program();
    prog.insert(7, use_a);
    let (_, c) = run(prog, &tg, &mem).unwrap();
    assert_eq!((c.issue_cycles, c.latency_cycles), (24, 199));
    // A write's latency is not waited for: a second write adds its issue cycle only.
    let mut prog = vector_add_program();
    prog.insert(8, a64_write(5));
    let (_, c) = run(prog, &tg, &mem).unwrap();
    assert_eq!((c.issue_cycles, c.latency_cycles), (23, 200));
}

#[test]
fn vector_add_from_encoded_bytes() {
    let mem = FlatMem::new();
    let (a, b, mut tg) = vector_add_setup(&mem);
    // Kernel bytes in GPU memory: encoded, then decoded by the model.
    let code: Vec<u8> = vector_add_program()
        .iter()
        .flat_map(|i| gencl_isa::gen9::encode(i).unwrap_or_else(|e| panic!("encode {i:?}: {e}")))
        .collect();
    mem.write(MEM_BASE + 0x4000, &code).unwrap();
    tg.kernel_addr = MEM_BASE + 0x4000;
    let mut c = Counters::default();
    super::run_thread_group_with(
        &mem,
        &tg,
        &LaunchEnv {
            general_state_base: 0,
            max_instructions: 1000,
            watchdog: crate::gpu::watchdog::Watchdog::none(),
        },
        &mut c,
    )
    .unwrap();
    check_vector_add(&mem, &a, &b);
    assert_eq!(c.instructions, 10);
}

#[test]
fn integer_alu_matches_cpu_reference() {
    let a: Vec<u32> = vec![
        0,
        1,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
        12345,
        0xDEAD_BEEF,
        77,
    ];
    let b: Vec<u32> = vec![3, 33, 2, 0xFFFF_FFFF, 31, 0x1234_5678, 65, 0xFFFF_FFF0];
    let t = alu_run(
        vec![
            alu(
                Opcode::Mul,
                8,
                dst(10, Type::D),
                &[r8(1, Type::D), r8(2, Type::D)],
            ),
            alu(
                Opcode::Shr,
                8,
                dst(11, Type::UD),
                &[r8(1, Type::UD), r8(2, Type::UD)],
            ),
            alu(
                Opcode::Asr,
                8,
                dst(12, Type::D),
                &[r8(1, Type::D), r8(2, Type::UD)],
            ),
            alu(
                Opcode::Shl,
                8,
                dst(13, Type::UD),
                &[r8(1, Type::UD), r8(2, Type::UD)],
            ),
            alu(
                Opcode::Add,
                8,
                dst(14, Type::D),
                &[r8(1, Type::D), neg(r8(2, Type::D))],
            ),
            alu(Opcode::Not, 8, dst(15, Type::UD), &[r8(1, Type::UD)]),
            alu(
                Opcode::And,
                8,
                dst(16, Type::UD),
                &[r8(1, Type::UD), neg(r8(2, Type::UD))],
            ),
            alu(
                Opcode::Mach,
                8,
                dst(17, Type::UD),
                &[r8(1, Type::UD), r8(2, Type::UD)],
            ),
            alu(
                Opcode::Mach,
                8,
                dst(18, Type::D),
                &[r8(1, Type::D), r8(2, Type::D)],
            ),
            alu(
                Opcode::Addc,
                8,
                dst(19, Type::UD),
                &[r8(1, Type::UD), r8(2, Type::UD)],
            ),
            alu(
                Opcode::Mov,
                8,
                dst(20, Type::UD),
                &[Src::Reg(acc0(Type::UD))],
            ),
            alu(
                Opcode::Avg,
                8,
                dst(21, Type::D),
                &[r8(1, Type::D), r8(2, Type::D)],
            ),
            alu(Opcode::Cbit, 8, dst(22, Type::UD), &[r8(1, Type::UD)]),
            alu(Opcode::Fbh, 8, dst(23, Type::UD), &[r8(1, Type::D)]),
            alu(Opcode::Fbl, 8, dst(24, Type::UD), &[r8(1, Type::UD)]),
            alu(Opcode::Lzd, 8, dst(25, Type::UD), &[r8(1, Type::UD)]),
            alu(Opcode::Bfrev, 8, dst(26, Type::UD), &[r8(1, Type::UD)]),
            sat(alu(
                Opcode::Add,
                8,
                dst(27, Type::D),
                &[r8(1, Type::D), r8(1, Type::D)],
            )),
            alu(Opcode::Mov, 8, dst(28, Type::UW), &[r8(1, Type::UD)]),
            sat(alu(Opcode::Mov, 8, dst(29, Type::UW), &[r8(1, Type::D)])),
        ],
        &a,
        &b,
        &[0; 8],
    );
    let col = |r| grf_u32s(&t, r, 8);
    let ai = |i: usize| a[i] as i32;
    let bi = |i: usize| b[i] as i32;
    let reference: Vec<(usize, LaneRef)> = vec![
        (10, Box::new(|i| ai(i).wrapping_mul(bi(i)) as u32)),
        (11, Box::new(|i| a[i] >> (b[i] & 31))),
        (12, Box::new(|i| (ai(i) >> (b[i] & 31)) as u32)),
        (13, Box::new(|i| a[i] << (b[i] & 31))),
        (14, Box::new(|i| ai(i).wrapping_sub(bi(i)) as u32)),
        (15, Box::new(|i| !a[i])),
        (16, Box::new(|i| a[i] & !b[i])),
        (17, Box::new(|i| ((a[i] as u64 * b[i] as u64) >> 32) as u32)),
        (
            18,
            Box::new(|i| ((ai(i) as i64 * bi(i) as i64) >> 32) as u32),
        ),
        (19, Box::new(|i| a[i].wrapping_add(b[i]))),
        (20, Box::new(|i| a[i].overflowing_add(b[i]).1 as u32)),
        (
            21,
            Box::new(|i| ((ai(i) as i64 + bi(i) as i64 + 1) >> 1) as u32),
        ),
        (22, Box::new(|i| a[i].count_ones())),
        (
            23,
            Box::new(|i| {
                let v = if ai(i) < 0 { !a[i] } else { a[i] };
                if v == 0 {
                    u32::MAX
                } else {
                    v.leading_zeros()
                }
            }),
        ),
        (
            24,
            Box::new(|i| {
                if a[i] == 0 {
                    u32::MAX
                } else {
                    a[i].trailing_zeros()
                }
            }),
        ),
        (25, Box::new(|i| a[i].leading_zeros())),
        (26, Box::new(|i| a[i].reverse_bits())),
        (27, Box::new(|i| ai(i).saturating_add(ai(i)) as u32)),
        (28, Box::new(|i| a[i] & 0xFFFF)),
        (29, Box::new(|i| ai(i).clamp(0, 0xFFFF) as u32)),
    ];
    for (r, f) in reference {
        let got = col(r);
        // 16-bit destinations pack two lanes per dword.
        let got: Vec<u32> = if r >= 28 {
            (0..8)
                .map(|i| (got[i / 2] >> (16 * (i % 2))) & 0xFFFF)
                .collect()
        } else {
            got
        };
        for i in 0..8 {
            assert_eq!(got[i], f(i), "r{r} lane {i} (a={:#x} b={:#x})", a[i], b[i]);
        }
    }
}

/// A CPU reference for one lane.
type LaneRef<'a> = Box<dyn Fn(usize) -> u32 + 'a>;

fn sat(mut i: Inst) -> Inst {
    i.saturate = true;
    i
}

fn acc0(ty: Type) -> SrcReg {
    SrcReg {
        file: RegFile::Arf,
        nr: 0x20,
        subreg: 0,
        region: Region {
            vstride: 8,
            width: 8,
            hstride: 1,
        },
        ty,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    }
}

#[test]
fn float_alu_and_conversions_match_cpu_reference() {
    let a: Vec<f32> = vec![1.5, -2.5, 3.0e9, f32::NAN, -0.0, 2.5, 1.0e-40, -7.75];
    let b: Vec<f32> = vec![0.25, 4.0, -1.0, 2.0, f32::NAN, 1.0e30, 0.5, 3.0];
    let c: Vec<f32> = vec![1.0, 1.0, 0.5, 0.0, 2.0, -1.0, 1.0, 1.0e-8];
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let denorm_keep = or_cr0(0x4C0);
    let insts = vec![
        alu(
            Opcode::Mul,
            8,
            dst(40, Type::F),
            &[r8(1, Type::F), r8(2, Type::F)],
        ), // flushed (cr0 = 0)
        denorm_keep,
        alu(
            Opcode::Add,
            8,
            dst(10, Type::F),
            &[r8(1, Type::F), r8(2, Type::F)],
        ),
        alu(
            Opcode::Mad,
            8,
            dst(11, Type::F),
            &[r8(3, Type::F), r8(1, Type::F), r8(2, Type::F)],
        ),
        alu(Opcode::Mov, 8, dst(12, Type::D), &[r8(1, Type::F)]),
        alu(Opcode::Mov, 8, dst(13, Type::UD), &[r8(1, Type::F)]),
        with_cmod(
            alu(
                Opcode::Sel,
                8,
                dst(14, Type::F),
                &[r8(1, Type::F), r8(2, Type::F)],
            ),
            CondMod::L,
            (0, 0),
        ),
        with_cmod(
            alu(
                Opcode::Sel,
                8,
                dst(15, Type::F),
                &[r8(1, Type::F), r8(2, Type::F)],
            ),
            CondMod::Ge,
            (0, 0),
        ),
        sat(alu(Opcode::Mov, 8, dst(16, Type::F), &[r8(1, Type::F)])),
        alu(Opcode::Rnde, 8, dst(17, Type::F), &[r8(1, Type::F)]),
        alu(Opcode::Rndd, 8, dst(18, Type::F), &[r8(1, Type::F)]),
        alu(Opcode::Frc, 8, dst(19, Type::F), &[r8(1, Type::F)]),
        alu(Opcode::Mov, 8, dst(20, Type::F), &[r8(4, Type::D)]),
        alu(
            Opcode::Mul,
            8,
            dst(21, Type::F),
            &[r8(1, Type::F), r8(2, Type::F)],
        ), // denormals kept
        math(MathFn::Sqrt, dst(22, Type::F), &[r8(2, Type::F)]),
        math(
            MathFn::Fdiv,
            dst(23, Type::F),
            &[r8(1, Type::F), r8(2, Type::F)],
        ),
        alu(Opcode::Mov, 8, dst(24, Type::HF), &[r8(1, Type::F)]),
        alu(Opcode::Mov, 8, dst(25, Type::DF), &[r8(1, Type::F)]),
    ];
    let ints: Vec<u32> = vec![
        16_777_217,
        -16_777_219i32 as u32,
        0x7FFF_FFFF,
        3,
        0,
        1,
        2,
        0x8000_0000,
    ];
    let mut all = insts;
    all.push(eot());
    let tg = group(1, 0xFF, |_, g| {
        put_u32s(g, 1, &bits(&a));
        put_u32s(g, 2, &bits(&b));
        put_u32s(g, 3, &bits(&c));
        put_u32s(g, 4, &ints);
    });
    let mem = FlatMem::new();
    let t = run(all, &tg, &mem).unwrap().0.remove(0);
    let f = |r: usize| -> Vec<u32> { grf_u32s(&t, r, 8) };
    let ftz = |v: f32| {
        if v.is_subnormal() {
            0.0f32.copysign(v)
        } else {
            v
        }
    };
    for i in 0..8 {
        let (x, y, z) = (a[i], b[i], c[i]);
        let same = |got: u32, want: f32, what: &str| {
            assert!(
                got == want.to_bits() || (want.is_nan() && f32::from_bits(got).is_nan()),
                "{what} lane {i}: got {:?} want {want:?}",
                f32::from_bits(got)
            );
        };
        same(f(40)[i], ftz(ftz(x) * ftz(y)), "mul (flush)");
        same(f(10)[i], x + y, "add");
        same(f(11)[i], x.mul_add(y, z), "mad");
        assert_eq!(f(12)[i] as i32, x as i32, "f->d lane {i}");
        assert_eq!(f(13)[i], x as u32, "f->ud lane {i}");
        same(f(14)[i], x.min(y), "sel.l (minNum)");
        same(f(15)[i], x.max(y), "sel.ge (maxNum)");
        same(
            f(16)[i],
            if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) },
            "sat",
        );
        same(f(17)[i], x.round_ties_even(), "rnde");
        same(f(18)[i], x.floor(), "rndd");
        same(f(19)[i], x - x.floor(), "frc");
        same(f(20)[i], ints[i] as i32 as f32, "d->f");
        same(f(21)[i], x * y, "mul (denormals kept)");
        same(f(22)[i], y.sqrt(), "sqrt");
        same(f(23)[i], x / y, "fdiv");
    }
    // f32 → f64 and → f16 conversions of lane 0 and 1 (1.5, -2.5).
    assert_eq!(t.grf_u32(24, 0), 0xC100_3E00, "hf lanes 0-1");
    let lo = t.grf_u32(25, 0) as u64 | (t.grf_u32(25, 1) as u64) << 32;
    assert_eq!(f64::from_bits(lo), 1.5);
}

fn math(f: MathFn, d: Dst, srcs: &[Src]) -> Inst {
    let mut i = alu(Opcode::Math, 8, d, srcs);
    i.math_fn = Some(f);
    i
}
fn arf_dst(nr: u8) -> Dst {
    Dst {
        file: RegFile::Arf,
        nr,
        subreg: 0,
        hstride: 1,
        ty: Type::UD,
        indirect: None,
        writemask: 0xF,
    }
}
/// `(W) or (1) cr0 cr0 bits`: set cr0 mode bits (0x4C0 keeps denormals; bits 5:4 round).
pub(super) fn or_cr0(bits: u64) -> Inst {
    let mut k = alu(
        Opcode::Or,
        1,
        arf_dst(0x80),
        &[arf_scalar(0x80), imm(Type::UW, bits)],
    );
    k.no_mask = true;
    k
}

/// `(W) and (1) cr0 cr0 bits`: clear cr0 mode bits.
pub(super) fn and_cr0(bits: u64) -> Inst {
    let mut k = or_cr0(bits);
    k.op = Opcode::And;
    k.srcs[1] = Some(imm(Type::UD, bits));
    k
}

fn arf_scalar(nr: u8) -> Src {
    Src::Reg(SrcReg {
        file: RegFile::Arf,
        nr,
        subreg: 0,
        region: Region::SCALAR,
        ty: Type::UD,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    })
}

#[test]
fn cmp_predication_and_flags() {
    let a: Vec<u32> = vec![5, 1, 9, 3, 7, 7, 0, 2];
    let b: Vec<u32> = vec![4; 8];
    let t = alu_run(
        vec![
            alu(Opcode::Mov, 8, dst(10, Type::UD), &[imm(Type::UD, 100)]),
            with_cmod(
                alu(
                    Opcode::Cmp,
                    8,
                    dst(11, Type::D),
                    &[r8(1, Type::D), r8(2, Type::D)],
                ),
                CondMod::G,
                (0, 1),
            ),
            with_pred(
                alu(Opcode::Mov, 8, dst(10, Type::UD), &[r8(1, Type::UD)]),
                (0, 1),
                false,
            ),
            // inverse predicate on f0.1, chan offset: only lanes 4-7 of the (4|M4) group.
            {
                let mut i = with_pred(
                    alu(
                        Opcode::Add,
                        4,
                        dst(12, Type::UD),
                        &[r8(1, Type::UD), imm(Type::UD, 1)],
                    ),
                    (0, 1),
                    true,
                );
                i.chan_offset = 4;
                i
            },
        ],
        &a,
        &b,
        &[0; 8],
    );
    let gt: Vec<bool> = a.iter().map(|&x| x > 4).collect();
    let flags = gt
        .iter()
        .enumerate()
        .fold(0u32, |m, (i, &g)| m | (g as u32) << i);
    assert_eq!(t.flag(0) >> 16, flags, "f0.1 holds the comparison");
    assert_eq!(t.flag(0) & 0xFFFF, 0, "f0.0 untouched");
    for i in 0..8 {
        assert_eq!(t.grf_u32(11, i), if gt[i] { u32::MAX } else { 0 });
        assert_eq!(t.grf_u32(10, i), if gt[i] { a[i] } else { 100 });
    }
    // (4|M4) add writes r12 lanes 0..3 (dst is relative) for channels 4..7 where !gt.
    // The destination region is relative to the instruction: lane k = channel 4+k reads r1 lane k.
    for k in 0..4 {
        let want = if !gt[4 + k] { a[k] + 1 } else { 0 };
        assert_eq!(t.grf_u32(12, k), want, "M4 lane {k}");
    }
}

/// Divergent if/else/endif and a while loop with break, against a CPU model of the same program.
#[test]
fn divergent_control_flow() {
    use Opcode::*;
    // r1 = x (lane id), r2 = y, r3 = count, r4 = i
    let insts = vec![
        /* 0 */ alu(Mov, 8, dst(1, Type::UD), &[lane_ids()]),
        /* 1 */
        with_cmod(
            alu(
                Cmp,
                8,
                null_dst(Type::UD),
                &[r8(1, Type::UD), imm(Type::UD, 3)],
            ),
            CondMod::L,
            (0, 0),
        ),
        /* 2 */
        with_pred(flow(If, 8, 16 * 3, 16 * 5), (0, 0), false), // jip → 5 (after else), uip → 7 (endif)
        /* 3 */
        alu(
            Mul,
            8,
            dst(2, Type::UD),
            &[r8(1, Type::UD), imm(Type::UD, 10)],
        ),
        /* 4 */ flow(Else, 8, 16 * 3, 16 * 3), // → endif at 7
        /* 5 */
        alu(
            Add,
            8,
            dst(2, Type::UD),
            &[r8(1, Type::UD), imm(Type::UD, 100)],
        ),
        /* 6 */
        alu(
            Add,
            8,
            dst(2, Type::UD),
            &[r8(2, Type::UD), imm(Type::UD, 1)],
        ),
        /* 7 */ flow(Endif, 8, 16, 0),
        /* 8 */ alu(Mov, 8, dst(3, Type::UD), &[imm(Type::UD, 0)]),
        /* 9 */ alu(Mov, 8, dst(4, Type::UD), &[r8(1, Type::UD)]),
        // loop: do { count++; if (count >= 4) break; i--; } while (i > 0)
        /* 10 */
        alu(
            Add,
            8,
            dst(3, Type::UD),
            &[r8(3, Type::UD), imm(Type::UD, 1)],
        ),
        /* 11 */
        with_cmod(
            alu(
                Cmp,
                8,
                null_dst(Type::UD),
                &[r8(3, Type::UD), imm(Type::UD, 4)],
            ),
            CondMod::Ge,
            (0, 1),
        ),
        /* 12 */
        // jip and uip → while (15): Gen7+ encode break's UIP as the loop's while.
        with_pred(flow(Break, 8, 16 * 3, 16 * 3), (0, 1), false),
        /* 13 */
        alu(
            Add,
            8,
            dst(4, Type::D),
            &[r8(4, Type::D), imm(Type::D, (-1i32) as u32 as u64)],
        ),
        /* 14 */
        with_cmod(
            alu(
                Cmp,
                8,
                null_dst(Type::D),
                &[r8(4, Type::D), imm(Type::D, 0)],
            ),
            CondMod::G,
            (0, 0),
        ),
        /* 15 */ with_pred(flow(While, 8, -16 * 5, 0), (0, 0), false),
        /* 16 */
        alu(
            Add,
            8,
            dst(5, Type::UD),
            &[r8(3, Type::UD), r8(2, Type::UD)],
        ),
        /* 17 */ eot(),
    ];
    let mem = FlatMem::new();
    let tg = group(1, 0x7F, |_, _| {});
    let (t, c) = run(insts, &tg, &mem).unwrap();
    let t = &t[0];
    for x in 0..7u32 {
        // CPU reference of the same program.
        let y = if x < 3 { x * 10 } else { x + 101 };
        let mut count = 0u32;
        let mut i = x as i32;
        loop {
            count += 1;
            if count >= 4 {
                break;
            }
            i -= 1;
            if i <= 0 {
                break;
            }
        }
        assert_eq!(t.grf_u32(2, x as usize), y, "y lane {x}");
        assert_eq!(t.grf_u32(3, x as usize), count, "count lane {x}");
        assert_eq!(
            t.grf_u32(5, x as usize),
            count + y,
            "after the loop, lane {x}"
        );
    }
    // Lane 7 was never dispatched: untouched.
    assert_eq!(t.grf_u32(5, 7), 0);
    assert!(
        t.active == 0x7F && t.waiting == 0,
        "all channels rejoined: {:#x}",
        t.active
    );
    assert!(c.lane_instructions < c.instructions * 8);
}

/// Uniform branches: when no channel takes a path, the thread jumps over it (JIP).
#[test]
fn if_with_no_active_channel_jumps_to_jip() {
    use Opcode::*;
    let insts = vec![
        with_cmod(
            alu(
                Cmp,
                8,
                null_dst(Type::UD),
                &[r8(1, Type::UD), imm(Type::UD, 0)],
            ),
            CondMod::Nz,
            (0, 0),
        ),
        with_pred(flow(If, 8, 16 * 3, 16 * 3), (0, 0), false),
        alu(Mov, 8, dst(2, Type::UD), &[imm(Type::UD, 1)]),
        // a NoMask write inside the skipped block must not happen when the block is jumped over
        {
            let mut i = alu(Mov, 8, dst(3, Type::UD), &[imm(Type::UD, 1)]);
            i.no_mask = true;
            i
        },
        flow(Endif, 8, 16, 0),
        eot(),
    ];
    let mem = FlatMem::new();
    let tg = group(1, 0xFF, |_, _| {});
    let (t, c) = run(insts, &tg, &mem).unwrap();
    assert_eq!(grf_u32s(&t[0], 2, 8), vec![0; 8]);
    assert_eq!(grf_u32s(&t[0], 3, 8), vec![0; 8]);
    assert_eq!(c.instructions, 4);
}

/// r2 = gid = thread*8 + lane (the thread's first in r1.0, its payload; lanes from r120),
/// r10 = 4 gid.
fn gid_in_r2_and_4gid_in_r10() -> [Inst; 3] {
    use Opcode::*;
    [
        alu(Mov, 8, dst(2, Type::UD), &[lane_ids()]),
        alu(
            Add,
            8,
            dst(2, Type::UD),
            &[r8(2, Type::UD), scalar(1, 0, Type::UD)],
        ),
        alu(
            Shl,
            8,
            dst(10, Type::UD),
            &[r8(2, Type::UD), imm(Type::UD, 2)],
        ),
    ]
}

fn slm_barrier_program(barrier: bool) -> Vec<Inst> {
    use Opcode::*;
    // r10 = gid*4 (SLM address), r11 = gid*3 (data)
    let mut v = gid_in_r2_and_4gid_in_r10().to_vec();
    v.extend([
        alu(
            Mul,
            8,
            dst(11, Type::UD),
            &[r8(2, Type::UD), imm(Type::UD, 3)],
        ),
        send(8, Sfid::Dc1, None, 10, desc(2, 0, 9, 0x2E, 254), false),
    ]);
    if barrier {
        v.extend(barrier_wait());
    }
    v.extend([
        // read SLM[(31 - gid)]
        alu(
            Add,
            8,
            dst(12, Type::D),
            &[neg(r8(2, Type::D)), imm(Type::D, 31)],
        ),
        alu(
            Shl,
            8,
            dst(12, Type::UD),
            &[r8(12, Type::UD), imm(Type::UD, 2)],
        ),
        send(8, Sfid::Dc1, Some(13), 12, desc(1, 1, 1, 0x2E, 254), false),
    ]);
    v.extend(store_r13_at_gid());
    v
}

/// A barrier message and the wait for its notification (NoMask, as IGC's and gencl's).
fn barrier_wait() -> [Inst; 2] {
    let mut b = send(8, Sfid::Gateway, None, 0, (1 << 25) | 4, false);
    b.no_mask = true;
    let mut w = Inst::new(Opcode::Wait, 1);
    w.no_mask = true;
    w.srcs[0] = Some(arf_scalar(0x90));
    w.dst = Some(arf_dst(0x90));
    [b, w]
}

/// out[gid] = r13, stateless at 0x400 + 4 gid (r10 holding 4 gid), and end of thread.
fn store_r13_at_gid() -> [Inst; 4] {
    use Opcode::*;
    [
        alu(
            Add,
            8,
            dst(14, Type::UD),
            &[r8(10, Type::UD), imm(Type::UD, 0x400)],
        ),
        alu(Mov, 8, dst(15, Type::UD), &[r8(13, Type::UD)]),
        send(8, Sfid::Dc1, None, 14, desc(2, 0, 9, 0x2E, 255), false),
        eot(),
    ]
}

/// SLM atomic messages whose lanes share words (a lock's release by every lane, a contended
/// counter), fail a compare-exchange, or fall outside the group's SLM: the old values
/// returned and the SLM after three messages equal one lane at a time in lane order on a
/// CPU model of the SLM (a read outside it is zero, a write there dropped); inactive lanes
/// do nothing. Fails when a lane on the word of the lane before reads memory the message
/// has not written yet, or an out-of-range lane passes its value on.
#[test]
fn slm_atomic_lanes_match_one_lane_at_a_time() {
    use Opcode::*;
    const SLM: usize = 64;
    let mut rng = Rng(0xC0FF_EE00_1234_5678);
    for case in 0..300 {
        let r = &mut rng;
        let mask = r.lanes8();
        let addrs: Vec<u32> = (0..8)
            .map(|_| r.pick(&[0, 0, 0, 4, 8, 60, 64, 0x1000]))
            .collect();
        let xs: Vec<u32> = (0..8).map(|_| r.below(3) as u32).collect();
        let ys: Vec<u32> = (0..8).map(|_| r.below(100) as u32).collect();
        // OR, MOV, ADD, CMPWR (PRM's AOP numbers), each with its old values returned.
        let ops: Vec<u32> = (0..3).map(|_| r.pick(&[2u32, 4, 7, 14])).collect();
        let mut insts = Vec::new();
        for (k, &op) in ops.iter().enumerate() {
            let mlen = if op == 14 { 3 } else { 2 };
            let ctrl = 0x30 | op;
            insts.push(send(
                8,
                Sfid::Dc1,
                Some(20 + k as u8),
                10,
                desc(mlen, 1, 2, ctrl, 254),
                false,
            ));
        }
        // The SLM read back: dwords 0-7 into r30, 8-15 into r31.
        let mut at = alu(Shl, 8, dst(40, Type::UD), &[lane_ids(), imm(Type::UD, 2)]);
        at.no_mask = true;
        insts.push(at);
        let mut at = alu(
            Add,
            8,
            dst(41, Type::UD),
            &[r8(40, Type::UD), imm(Type::UD, 32)],
        );
        at.no_mask = true;
        insts.push(at);
        for (a, d) in [(40u8, 30u8), (41, 31)] {
            let mut rd = send(8, Sfid::Dc1, Some(d), a, desc(1, 1, 1, 0x2E, 254), false);
            rd.no_mask = true;
            insts.push(rd);
        }
        insts.push(eot());
        let mut tg = group(1, mask, |_, g| {
            put_u32s(g, 10, &addrs);
            put_u32s(g, 11, &xs);
            put_u32s(g, 12, &ys);
        });
        tg.slm_bytes = SLM as u32;
        let (threads, _) = run(insts, &tg, &FlatMem::new()).unwrap();
        // The CPU's SLM, one lane at a time.
        let mut slm = [0u32; SLM / 4];
        for (k, &op) in ops.iter().enumerate() {
            for lane in (0..8).filter(|l| mask & (1 << l) != 0) {
                let at = addrs[lane] as usize;
                let old = if at + 4 <= SLM { slm[at / 4] } else { 0 };
                let new = match op {
                    2 => Some(old | xs[lane]),
                    4 => Some(xs[lane]),
                    7 => Some(old.wrapping_add(xs[lane])),
                    _ => (old == xs[lane]).then_some(ys[lane]),
                };
                if let (Some(v), true) = (new, at + 4 <= SLM) {
                    slm[at / 4] = v;
                }
                assert_eq!(
                    threads[0].grf_u32(20 + k, lane),
                    old,
                    "case {case}: message {k} (op {op}) lane {lane}, addresses {addrs:?}, mask {mask:#x}"
                );
            }
        }
        assert_eq!(
            grf_u32s(&threads[0], 30, 16),
            slm.to_vec(),
            "case {case}: SLM after, addresses {addrs:?}"
        );
    }
}

/// Untyped atomic messages on a surface (BTI 0, 64 bytes) of every integer operation, their
/// lanes on shared words, past the surface's bound (read zero, write dropped: such a message
/// goes lane by lane) or inactive: the old values returned (PREDEC: the new one) and the
/// surface after three messages equal one lane at a time in lane order on a CPU model.
/// Fails when the lanes taken together (`Dataport::atomic_lanes`, an operation chosen once a
/// message) compute an operation, a width or a returned value otherwise.
#[test]
fn memory_atomic_lanes_match_one_lane_at_a_time() {
    const SURFACE: usize = 64;
    let mut rng = Rng(0x5EED_0A70_11C5_0042);
    for case in 0..300 {
        let r = &mut rng;
        let mask = r.lanes8();
        let far = if r.below(4) == 0 { 64 } else { 0 };
        let addrs: Vec<u32> = (0..8).map(|_| r.pick(&[0, 0, 0, 4, 8, 60, far])).collect();
        let xs: Vec<u32> = (0..8)
            .map(|_| r.pick(&[0, 1, 2, 0x8000_0000, 0xFFFF_FFFF]))
            .collect();
        let ys: Vec<u32> = (0..8).map(|_| r.below(100) as u32).collect();
        // The PRM's AOP numbers: AND 1 ... PREDEC 15 (CMPWR8B and the float ones aside).
        let ops: Vec<u32> = (0..3)
            .map(|_| r.pick(&[1u32, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]))
            .collect();
        let mut insts = Vec::new();
        for (k, &op) in ops.iter().enumerate() {
            let mlen = match op {
                14 => 3,
                5 | 6 | 15 => 1,
                _ => 2,
            };
            insts.push(send(
                8,
                Sfid::Dc1,
                Some(20 + k as u8),
                10,
                desc(mlen, 1, 2, 0x30 | op, 0),
                false,
            ));
        }
        insts.push(eot());
        let tg = group(1, mask, |_, g| {
            put_u32s(g, 10, &addrs);
            put_u32s(g, 11, &xs);
            put_u32s(g, 12, &ys);
        });
        let mem = FlatMem::new();
        let (threads, _) = run(insts, &tg, &mem).unwrap();
        let mut surface = [0u32; SURFACE / 4];
        for (k, &op) in ops.iter().enumerate() {
            for lane in (0..8).filter(|l| mask & (1 << l) != 0) {
                let at = addrs[lane] as usize;
                let inside = at + 4 <= SURFACE;
                let old = if inside { surface[at / 4] } else { 0 };
                let (x, y) = (xs[lane], ys[lane]);
                let new = match op {
                    1 => Some(old & x),
                    2 => Some(old | x),
                    3 => Some(old ^ x),
                    4 => Some(x),
                    5 => Some(old.wrapping_add(1)),
                    6 | 15 => Some(old.wrapping_sub(1)),
                    7 => Some(old.wrapping_add(x)),
                    8 => Some(old.wrapping_sub(x)),
                    9 => Some(x.wrapping_sub(old)),
                    10 => Some((old as i32).max(x as i32) as u32),
                    11 => Some((old as i32).min(x as i32) as u32),
                    12 => Some(old.max(x)),
                    13 => Some(old.min(x)),
                    _ => (old == x).then_some(y),
                };
                if let (Some(v), true) = (new, inside) {
                    surface[at / 4] = v;
                }
                let returned = if op == 15 { new.unwrap_or(old) } else { old };
                assert_eq!(
                    threads[0].grf_u32(20 + k, lane),
                    returned,
                    "case {case}: message {k} (op {op}) lane {lane}, addresses {addrs:?}, mask {mask:#x}"
                );
            }
        }
        assert_eq!(
            mem.get_u32s(MEM_BASE + 0x8000, SURFACE / 4),
            surface.to_vec(),
            "case {case}: surface after, ops {ops:?}, addresses {addrs:?}"
        );
    }
}

#[test]
fn barrier_orders_slm_writes_before_reads() {
    for barrier in [true, false] {
        let mem = FlatMem::new();
        let tg = group(4, 0xFF, |t, g| put_u32s(g, 1, &[8 * t as u32]));
        let res = run(slm_barrier_program(barrier), &tg, &mem);
        let out = mem.get_u32s(MEM_BASE + 0x400, 32);
        let want: Vec<u32> = (0..32).map(|g| (31 - g) * 3).collect();
        if barrier {
            let (_, c) = res.unwrap();
            assert_eq!(out, want);
            // Per thread: SLM write, barrier, SLM read, stateless write, EOT.
            assert_eq!(c.sends, 20);
            assert_eq!(
                (c.sends_slm, c.sends_barrier, c.sends_a64, c.sends_eot),
                (8, 4, 4, 4)
            );
        } else {
            // Without the barrier, early threads read slots nobody has written yet.
            res.unwrap();
            assert_ne!(out, want, "the test must be able to see a missing barrier");
        }
    }
}

/// A barrier that the thread whose r1.0 is 24 jumps over (`jmpi`), then end of thread.
fn barrier_skipped_by_24() -> Vec<Inst> {
    use Opcode::*;
    let [b, w] = barrier_wait();
    let mut cmp = with_cmod(
        alu(
            Cmp,
            1,
            null_dst(Type::UD),
            &[scalar(1, 0, Type::UD), imm(Type::UD, 24)],
        ),
        CondMod::Z,
        (0, 0),
    );
    cmp.no_mask = true;
    let mut j = with_pred(flow(Jmpi, 1, 16, 0), (0, 0), false); // skip 1 instruction past the next
    j.no_mask = true;
    vec![cmp, j, b, w, eot()]
}

#[test]
fn barrier_not_reached_by_all_threads_is_a_hang() {
    // Thread 3 skips the barrier (jmpi over it, predicated on thread id == 24).
    let insts = barrier_skipped_by_24();
    let mem = FlatMem::new();
    let tg = group(4, 0xFF, |t, g| put_u32s(g, 1, &[8 * t as u32]));
    let r = run(insts.clone(), &tg, &mem);
    assert_eq!(r.err(), Some(GpuError::Hang));
    // And with every thread taking the barrier path, it completes.
    let tg = group(4, 0xFF, |t, g| put_u32s(g, 1, &[8 * t as u32 + 1]));
    run(insts, &tg, &mem).unwrap();
}

#[test]
fn atomics_are_atomic_across_threads() {
    use Opcode::*;
    let insts = vec![
        // A64 atomic add of 1 to a counter at r0.0 (uq), returning the old values into r20.
        alu(Mov, 8, dst(2, Type::UQ), &[scalar(0, 0, Type::UQ)]),
        alu(Mov, 8, dst(4, Type::UD), &[imm(Type::UD, 1)]),
        send(
            8,
            Sfid::Dc1,
            Some(20),
            2,
            desc(3, 1, 0x12, 0x27, 253),
            false,
        ),
        // BTI 0 untyped atomic (SIMD8): umax of lane value into surface dword 1; cmpxchg into dword 2.
        alu(Mov, 8, dst(6, Type::UD), &[imm(Type::UD, 4)]),
        alu(
            Add,
            8,
            dst(7, Type::UD),
            &[r8(20, Type::UD), imm(Type::UD, 1000)],
        ),
        send(8, Sfid::Dc1, None, 6, desc(2, 0, 2, 0x1C, 0), false),
        // store the returned values to out[old] so a permutation check is possible
        alu(
            Shl,
            8,
            dst(9, Type::UD),
            &[r8(20, Type::UD), imm(Type::UD, 2)],
        ),
        alu(
            Add,
            8,
            dst(9, Type::UD),
            &[r8(9, Type::UD), imm(Type::UD, 0x800)],
        ),
        alu(Mov, 8, dst(10, Type::UD), &[r8(20, Type::UD)]),
        send(8, Sfid::Dc1, None, 9, desc(2, 0, 9, 0x2E, 255), false),
        eot(),
    ];
    let mem = FlatMem::new();
    let tg = group(4, 0xFF, |_, g| put_u64s(g, 0, &[MEM_BASE + 0x10]));
    let (_, c) = run(insts, &tg, &mem).unwrap();
    assert_eq!(mem.get_u32s(MEM_BASE + 0x10, 1)[0], 32, "32 increments");
    assert_eq!(
        mem.get_u32s(MEM_BASE + 0x8004, 1)[0],
        1031,
        "umax over old values + 1000"
    );
    let out = mem.get_u32s(MEM_BASE + 0x800, 32);
    assert_eq!(
        out,
        (0..32).collect::<Vec<u32>>(),
        "every old value returned exactly once"
    );
    assert_eq!(c.threads, 4);
    // Per thread: an A64 atomic, a BTI atomic, a stateless write, EOT.
    assert_eq!(
        (c.sends_atomic, c.sends_a64, c.sends_eot, c.sends),
        (8, 4, 4, 16)
    );
}

#[test]
fn surface_bounds_and_faults() {
    use Opcode::*;
    // BTI 0 is 64 bytes: lanes 0-7 read offsets 0,16,..112: lanes 4-7 are out of bounds → 0.
    let mem = FlatMem::new();
    mem.put_u32s(MEM_BASE + 0x8000, &(100..116).collect::<Vec<u32>>());
    let insts = vec![
        alu(Mov, 8, dst(2, Type::UD), &[lane_ids()]),
        alu(
            Shl,
            8,
            dst(2, Type::UD),
            &[r8(2, Type::UD), imm(Type::UD, 4)],
        ),
        alu(Mov, 8, dst(3, Type::UD), &[imm(Type::UD, 7)]),
        send(8, Sfid::Dc1, None, 2, desc(2, 0, 9, 0x2E, 0), false), // writes: OOB dropped
        send(8, Sfid::Dc1, Some(5), 2, desc(1, 1, 1, 0x2E, 0), false),
        eot(),
    ];
    let tg = group(1, 0xFF, |_, _| {});
    let (t, _) = run(insts, &tg, &mem).unwrap();
    assert_eq!(grf_u32s(&t[0], 5, 8), vec![7, 7, 7, 7, 0, 0, 0, 0]);
    // Out-of-bounds writes were dropped: the words past the surface are untouched.
    assert_eq!(mem.get_u32s(MEM_BASE + 0x8040, 4), vec![0; 4]);
    assert_eq!(mem.get_u32s(MEM_BASE + 0x8004, 3), vec![101, 102, 103]);

    // An A64 read of an unmapped page faults.
    let insts = vec![
        alu(Mov, 8, dst(2, Type::UQ), &[imm(Type::UQ, 0x4000_0000)]),
        a64_read(10, 2),
        eot(),
    ];
    let r = run(insts, &tg, &FlatMem::new());
    assert!(
        matches!(
            r,
            Err(GpuError::Fault(MemFault {
                addr: 0x4000_0000,
                ..
            }))
        ),
        "{:?}",
        r.err()
    );

    // An operand past r127 is an illegal instruction, not a panic.
    let insts = vec![alu(Mov, 16, dst(127, Type::UD), &[r8(1, Type::UD)]), eot()];
    let r = run(insts, &tg, &FlatMem::new());
    assert!(
        matches!(r, Err(GpuError::IllegalInstruction { .. })),
        "{:?}",
        r.err()
    );
}

/// A memory fence's reply is its destination's own contents (it moves no register:
/// `Dataport::moves_registers`), and its registers are checked as every message's are: a
/// payload or a reply reaching past r127 is an illegal instruction. Fails when a fence
/// writes stale reply buffers over its destination, or skips the checks.
#[test]
fn a_fence_keeps_its_destination_and_its_registers_are_checked() {
    // DC0 memory fence, SIMD8, mlen 1, rlen 1 (as the JIT sends it), from `src` to `d`.
    let fence = |d: u8, src: u8, mlen: u32, rlen: u32| {
        let mut f = send(
            8,
            Sfid::Dc0,
            Some(d),
            src,
            desc(mlen, rlen, 7, 0x20, 0),
            false,
        );
        f.no_mask = true;
        f
    };
    let tg = group(1, 0xFF, |_, g| {
        put_u32s(g, 5, &[0xAAAA_0000, 1, 2, 3, 4, 5, 6, 7]);
        put_u32s(g, 9, &[0x5555; 8]);
    });
    // An untyped read into r9 first leaves other contents in the port's reply buffer.
    let mem = FlatMem::new();
    mem.put_u32s(MEM_BASE + 0x8000, &[0x1234; 16]);
    let read = send(8, Sfid::Dc1, Some(9), 9, desc(1, 1, 1, 0x2E, 0), false);
    let (t, c) = run(vec![read, fence(5, 0, 1, 1), eot()], &tg, &mem).unwrap();
    assert_eq!(
        grf_u32s(&t[0], 5, 8),
        vec![0xAAAA_0000, 1, 2, 3, 4, 5, 6, 7]
    );
    assert_eq!(
        grf_u32s(&t[0], 9, 8),
        vec![0; 8],
        "reads past the 64-byte surface"
    );
    assert_eq!(c.sends, 3);
    for (f, what) in [
        (fence(5, 127, 2, 1), "payload r127-r128"),
        (fence(127, 0, 1, 2), "reply r127-r128"),
    ] {
        let r = run(vec![f, eot()], &tg, &FlatMem::new());
        assert!(
            matches!(r, Err(GpuError::IllegalInstruction { .. })),
            "{what}: {:?}",
            r.err()
        );
    }
}

/// An untyped message's lanes go to memory together (`Dataport::read_each`, `write_each`)
/// with the results of one lane at a time: a disabled lane keeps its register, and of lanes
/// that a surface's bound cuts only those past it read zero and drop their writes.
#[test]
fn untyped_lanes_keep_lane_by_lane_results() {
    use Opcode::*;
    let offsets = |base: u32| {
        vec![
            alu(Mov, 8, dst(2, Type::UD), &[lane_ids()]),
            alu(
                Shl,
                8,
                dst(2, Type::UD),
                &[r8(2, Type::UD), imm(Type::UD, 2)],
            ),
            alu(
                Add,
                8,
                dst(2, Type::UD),
                &[r8(2, Type::UD), imm(Type::UD, base as u64)],
            ),
        ]
    };
    let old = |_: usize, g: &mut Vec<[u8; 32]>| put_u32s(g, 5, &[0xAAAA; 8]);
    // In bounds, lanes 3 and 6 disabled: three runs.
    let mem = FlatMem::new();
    mem.put_u32s(MEM_BASE + 0x8000, &(100..116).collect::<Vec<u32>>());
    let mut insts = offsets(0);
    insts.push(send(
        8,
        Sfid::Dc1,
        Some(5),
        2,
        desc(1, 1, 1, 0x2E, 0),
        false,
    ));
    insts.push(eot());
    let (t, _) = run(insts, &group(1, 0xB7, old), &mem).unwrap();
    assert_eq!(
        grf_u32s(&t[0], 5, 8),
        vec![100, 101, 102, 0xAAAA, 104, 105, 0xAAAA, 107]
    );
    // From byte 40 of the 64-byte surface: lanes 6 and 7 are past its end.
    let mut insts = offsets(40);
    insts.push(send(
        8,
        Sfid::Dc1,
        Some(5),
        2,
        desc(1, 1, 1, 0x2E, 0),
        false,
    ));
    insts.push(alu(Mov, 8, dst(3, Type::UD), &[imm(Type::UD, 7)]));
    insts.push(send(8, Sfid::Dc1, None, 2, desc(2, 0, 9, 0x2E, 0), false));
    insts.push(eot());
    let (t, _) = run(insts, &group(1, 0xFF, old), &mem).unwrap();
    assert_eq!(
        grf_u32s(&t[0], 5, 8),
        vec![110, 111, 112, 113, 114, 115, 0, 0]
    );
    assert_eq!(mem.get_u32s(MEM_BASE + 0x8028, 6), vec![7; 6]);
    assert_eq!(mem.get_u32s(MEM_BASE + 0x8020, 2), vec![108, 109]);
    assert_eq!(mem.get_u32s(MEM_BASE + 0x8040, 2), vec![0, 0]);
    // Two components (xy) from byte 40: lane 5's x is the surface's last dword, its y is
    // past the end; the dwords before the bound are read, those past it are zero.
    let mem = FlatMem::new();
    mem.put_u32s(MEM_BASE + 0x8000, &(100..116).collect::<Vec<u32>>());
    let mut insts = offsets(40);
    insts.push(send(
        8,
        Sfid::Dc1,
        Some(5),
        2,
        desc(1, 2, 1, 0x2C, 0),
        false,
    ));
    insts.push(eot());
    let old2 = |_: usize, g: &mut Vec<[u8; 32]>| {
        put_u32s(g, 5, &[0xAAAA; 8]);
        put_u32s(g, 6, &[0xBBBB; 8]);
    };
    let (t, _) = run(insts, &group(1, 0xFF, old2), &mem).unwrap();
    assert_eq!(
        grf_u32s(&t[0], 5, 8),
        vec![110, 111, 112, 113, 114, 115, 0, 0]
    );
    assert_eq!(
        grf_u32s(&t[0], 6, 8),
        vec![111, 112, 113, 114, 115, 0, 0, 0]
    );
}

/// An untyped message for every lane whose lanes' addresses step by a constant stride (a
/// work-item's element of an array) goes to memory as one strided access
/// (`Dataport::untyped_strided`); its results are still those of one lane after another:
/// each channel plane from its lanes' dwords, overlapping writes won by the later lane. The
/// same message with lane 0 disabled takes the lane-by-lane path and must agree on the
/// other lanes. Expectations come from the memory image, lane by lane, not from the model.
#[test]
fn strided_untyped_lanes_are_lane_by_lane_results() {
    use Opcode::*;
    const STATELESS: u32 = crate::gpu::dataport::BTI_STATELESS;
    let dword = |k: u64| (k as u32).wrapping_mul(2_654_435_761) ^ 0x5A5A_0000;
    // (stride in bytes, channels): one run (stride = 4 x channels), gaps, one address for
    // every lane, and xyzw lanes 4 bytes apart (each lane's dwords overlap the next's).
    let cases = [
        (4u32, 1usize),
        (8, 2),
        (12, 3),
        (16, 4),
        (64, 4),
        (64, 2),
        (20, 1),
        (0, 1),
        (0, 4),
        (4, 4),
    ];
    for simd in [8u8, 16] {
        let per = usize::from(simd / 8);
        let n = u32::from(simd);
        let all = (1u32 << simd) - 1;
        for (stride, chans) in cases {
            let cmask = (0xFu32 << chans) & 0xF;
            // SIMD mode: 2 is SIMD8, 1 SIMD16.
            let ctrl = (if simd == 8 { 2 } else { 1 } << 4) | cmask;
            // Lane ids 0..simd in r118.., each lane's offset `at + stride * lane` in r2...
            let offsets = |at: u32| {
                vec![
                    alu(
                        Mul,
                        simd,
                        dst(2, Type::UD),
                        &[row(118, Type::UD), imm(Type::UD, stride.into())],
                    ),
                    alu(
                        Add,
                        simd,
                        dst(2, Type::UD),
                        &[row(2, Type::UD), imm(Type::UD, at.into())],
                    ),
                ]
            };
            let (mlen, rlen) = (per as u32, (chans * per) as u32);
            for emask in [all, all & !1] {
                let mem = FlatMem::new();
                let words: Vec<u32> = (0..0x800).map(dword).collect();
                mem.put_u32s(MEM_BASE, &words);
                // Read at 0x100 into r10.., then write the planes after the offsets in
                // r22.. (lane l, channel c: 1000 l + c) at 0x1000.
                let mut insts = offsets(0x100);
                insts.push(send(
                    simd,
                    Sfid::Dc1,
                    Some(10),
                    2,
                    desc(mlen, rlen, 1, ctrl, STATELESS),
                    false,
                ));
                insts.extend(offsets(0x1000));
                insts.push(alu(Mov, simd, dst(22, Type::UD), &[row(2, Type::UD)]));
                insts.push(send(
                    simd,
                    Sfid::Dc1,
                    None,
                    22,
                    desc(mlen + rlen, 0, 9, ctrl, STATELESS),
                    false,
                ));
                insts.push(eot());
                let init = |_: usize, g: &mut Vec<[u8; 32]>| {
                    put_u32s(g, 118, &(0..16).collect::<Vec<u32>>());
                    put_u32s(g, 10, &[0xAAAA; 64]);
                    for c in 0..4 {
                        let data: Vec<u32> = (0..n).map(|l| 1000 * l + c as u32).collect();
                        put_u32s(g, 22 + per + c * per, &data);
                    }
                };
                let tg = ThreadGroup {
                    simd: n,
                    ..group(1, emask, init)
                };
                let (t, _) = run(insts, &tg, &mem).unwrap();
                let what =
                    format!("SIMD{simd}, stride {stride}, {chans} channels, emask {emask:#x}");
                let mut image = words.clone();
                for c in 0..chans {
                    let want: Vec<u32> = (0..n)
                        .map(|l| {
                            if emask & (1 << l) == 0 {
                                0xAAAA
                            } else {
                                words[((0x100 + l * stride) / 4) as usize + c]
                            }
                        })
                        .collect();
                    assert_eq!(
                        grf_u32s(&t[0], 10 + c * per, n as usize),
                        want,
                        "{what}: plane {c}"
                    );
                }
                for l in (0..n).filter(|l| emask & (1 << l) != 0) {
                    for c in 0..chans {
                        image[((0x1000 + l * stride) / 4) as usize + c] = 1000 * l + c as u32;
                    }
                }
                let got = mem.get_u32s(MEM_BASE, 0x800);
                let first = (0..got.len()).find(|&k| got[k] != image[k]);
                assert_eq!(first, None, "{what}: memory (first wrong dword)");
            }
        }
    }
}

/// An untyped message with all four channels masked off moves nothing and is refused
/// as the kernel's error (it reached a zero-sized lane copy before), in graphics memory
/// and in SLM alike.
#[test]
fn an_untyped_message_with_no_channel_is_an_error() {
    const STATELESS: u32 = crate::gpu::dataport::BTI_STATELESS;
    for bti in [STATELESS, 254] {
        for (ty, rlen, mlen) in [(1, 1, 1), (9, 0, 2)] {
            let insts = vec![
                send(
                    8,
                    Sfid::Dc1,
                    (rlen > 0).then_some(10),
                    2,
                    desc(mlen, rlen, ty, 0x2F, bti),
                    false,
                ),
                eot(),
            ];
            let r = run(insts, &group(1, 0xFF, |_, _| {}), &FlatMem::new());
            assert!(
                matches!(r, Err(GpuError::IllegalInstruction { .. })),
                "bti {bti}, message type {ty}: {:?}",
                r.err()
            );
        }
    }
}

/// Groups run one after another on a host thread reuse its register files
/// (`eu::run_program`): a thread starts with its payload and zeros after it, never with
/// what a thread of an earlier group left there.
#[test]
fn a_reused_register_file_starts_as_payload_and_zeros() {
    use Opcode::*;
    const STATELESS: u32 = crate::gpu::dataport::BTI_STATELESS;
    // Write r125 (past the payload) to 0x200 + 4 lane, then leave a mark in r125.
    let insts = vec![
        alu(Shl, 8, dst(2, Type::UD), &[lane_ids(), imm(Type::UD, 2)]),
        alu(
            Add,
            8,
            dst(2, Type::UD),
            &[r8(2, Type::UD), imm(Type::UD, 0x200)],
        ),
        alu(Mov, 8, dst(3, Type::UD), &[r8(125, Type::UD)]),
        send(8, Sfid::Dc1, None, 2, desc(2, 0, 9, 0x2E, STATELESS), false),
        alu(Mov, 8, dst(125, Type::UD), &[imm(Type::UD, 0xDEAD_BEEF)]),
        eot(),
    ];
    let mut tg = group(2, 0xFF, |_, _| {});
    for t in &mut tg.threads {
        t.grfs.truncate(usize::from(LANE_REG) + 1);
    }
    let env = LaunchEnv {
        general_state_base: MEM_BASE,
        max_instructions: 100_000,
        watchdog: crate::gpu::watchdog::Watchdog::none(),
    };
    let mut p = program(insts);
    for round in 0..3 {
        let mem = FlatMem::new();
        mem.put_u32s(MEM_BASE + 0x200, &[7; 8]);
        let mut c = Counters::default();
        super::run_program(&mut p, &mem, &tg, &env, &mut c).unwrap();
        assert_eq!(
            mem.get_u32s(MEM_BASE + 0x200, 8),
            vec![0; 8],
            "group {round}"
        );
    }
}

#[test]
fn infinite_loop_is_a_hang() {
    let insts = vec![
        alu(
            Opcode::Add,
            8,
            dst(2, Type::UD),
            &[r8(2, Type::UD), imm(Type::UD, 1)],
        ),
        flow(Opcode::While, 8, -16, 0),
    ];
    let r = run(insts, &group(1, 0xFF, |_, _| {}), &FlatMem::new());
    assert_eq!(r.err(), Some(GpuError::Hang));
}

#[test]
fn scratch_and_oword_block() {
    use Opcode::*;
    // Each thread writes 2 registers of scratch at offset 64 and reads them back;
    // then an aligned OWord block read of 2 OWords from BTI 0 at OWord offset 1.
    let mem = FlatMem::new();
    mem.put_u32s(
        MEM_BASE + 0x8000,
        &(0..16).map(|k| k * 11).collect::<Vec<u32>>(),
    );
    let mut hdr = alu(Mov, 8, dst(30, Type::UD), &[r8(0, Type::UD)]);
    hdr.no_mask = true;
    let scratch_w = (3 << 25) | (1 << 19) | (1 << 18) | (1 << 17) | (1 << 12) | 2;
    let scratch_r = (1 << 25) | (2 << 20) | (1 << 19) | (1 << 18) | (1 << 12) | 2;
    let insts = vec![
        hdr,
        alu(
            Add,
            8,
            dst(31, Type::UD),
            &[lane_ids(), scalar(1, 0, Type::UD)],
        ),
        alu(
            Add,
            8,
            dst(32, Type::UD),
            &[r8(31, Type::UD), imm(Type::UD, 50)],
        ),
        send(8, Sfid::Dc0, None, 30, scratch_w, false),
        send(8, Sfid::Dc0, Some(40), 30, scratch_r, false),
        // OWord block read header: r50.2 = 1 (OWords)
        {
            let mut i = alu(Mov, 8, dst(50, Type::UD), &[imm(Type::UD, 0)]);
            i.no_mask = true;
            i
        },
        {
            let mut i = alu(
                Mov,
                1,
                Dst {
                    subreg: 8,
                    ..dst(50, Type::UD)
                },
                &[imm(Type::UD, 1)],
            );
            i.no_mask = true;
            i
        },
        send(
            8,
            Sfid::Dc0,
            Some(51),
            50,
            desc(1, 1, 0, 2, 0) | (1 << 19),
            false,
        ),
        eot(),
    ];
    let tg = group(2, 0xFF, |t, g| put_u32s(g, 1, &[100 * t as u32]));
    let (t, c) = run(insts, &tg, &mem).unwrap();
    // Per thread: scratch write and read, a BTI 0 OWord block read, EOT.
    assert_eq!(
        (c.sends_scratch, c.sends_surface, c.sends_eot, c.sends),
        (4, 2, 2, 8)
    );
    for (k, th) in t.iter().enumerate() {
        let want: Vec<u32> = (0..8).map(|i| 100 * k as u32 + i).collect();
        assert_eq!(grf_u32s(th, 40, 8), want);
        assert_eq!(
            grf_u32s(th, 41, 8),
            want.iter().map(|v| v + 50).collect::<Vec<_>>()
        );
        assert_eq!(
            grf_u32s(th, 51, 8),
            (4..12).map(|k| k * 11).collect::<Vec<u32>>()
        );
    }
    // The scratch really lives at scratch_base + thread * per_thread + 64.
    assert_eq!(mem.get_u32s(MEM_BASE + 0xC000 + 1024 + 64, 1)[0], 100);
}

#[test]
fn align16_mad_with_swizzle_and_writemask() {
    // mad (8) r10.xyz:f r1.wzyx:f r2.xxxx:f r3:f  (Align16, vstride 4)
    let s16 = |nr: u8, swz: [u8; 4]| {
        Src::Reg(SrcReg {
            file: RegFile::Grf,
            nr,
            subreg: 0,
            region: Region {
                vstride: 4,
                width: 4,
                hstride: 1,
            },
            ty: Type::F,
            modifier: SrcMod::default(),
            indirect: None,
            swizzle: swz,
        })
    };
    let mut i = alu(
        Opcode::Mad,
        8,
        Dst {
            writemask: 0x7,
            ..dst(10, Type::F)
        },
        &[
            s16(1, [3, 2, 1, 0]),
            s16(2, [0, 0, 0, 0]),
            s16(3, [0, 1, 2, 3]),
        ],
    );
    i.access_mode = AccessMode::Align16;
    let a: Vec<f32> = (0..8).map(|k| k as f32 + 0.5).collect();
    let b: Vec<f32> = (0..8).map(|k| 2.0 + k as f32).collect();
    let c: Vec<f32> = (0..8).map(|k| -(k as f32)).collect();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let t = alu_run(vec![i], &bits(&a), &bits(&b), &bits(&c));
    for ch in 0..8 {
        let g = ch / 4 * 4;
        let want = if ch % 4 == 3 {
            0.0
        } else {
            b[g].mul_add(c[g + ch % 4], a[g + 3 - ch % 4])
        };
        assert_eq!(f32::from_bits(t.grf_u32(10, ch)), want, "channel {ch}");
    }
}

#[test]
fn decoded_program_is_cached_and_rechecked() {
    let mem = FlatMem::new();
    let (a, b, mut tg) = vector_add_setup(&mem);
    let code: Vec<u8> = vector_add_program()
        .iter()
        .flat_map(|i| gencl_isa::gen9::encode(i).unwrap())
        .collect();
    mem.write(MEM_BASE + 0x4000, &code).unwrap();
    tg.kernel_addr = MEM_BASE + 0x4000;
    let mut p = Program::new(tg.kernel_addr);
    let env = LaunchEnv::default();
    p.new_generation();
    run_program(&mut p, &mem, &tg, &env, &mut Counters::default()).unwrap();
    check_vector_add(&mem, &a, &b);
    // Rewrite the add into a mul: the next launch must notice.
    let mul = alu(
        Opcode::Mul,
        8,
        dst(7, Type::F),
        &[r8(10, Type::F), r8(11, Type::F)],
    );
    mem.write(
        MEM_BASE + 0x4000 + 7 * 16,
        &gencl_isa::gen9::encode(&mul).unwrap(),
    )
    .unwrap();
    p.new_generation();
    run_program(&mut p, &mem, &tg, &env, &mut Counters::default()).unwrap();
    let out = mem.get_u32s(MEM_BASE + 0x200, 6);
    for i in 0..6 {
        assert_eq!(out[i], (a[i] * b[i]).to_bits());
    }
}

/// Throughput of an ALU-bound SIMD16 loop (run with `--ignored --nocapture`;
/// the number is only meaningful in an optimised build).
#[test]
#[ignore]
fn alu_throughput() {
    use Opcode::*;
    let r16 = row;
    let body = vec![
        alu(
            Add,
            16,
            dst(10, Type::F),
            &[r16(10, Type::F), r16(12, Type::F)],
        ),
        alu(
            Mul,
            16,
            dst(14, Type::F),
            &[r16(10, Type::F), r16(12, Type::F)],
        ),
        alu(
            Add,
            16,
            dst(16, Type::D),
            &[r16(16, Type::D), r16(18, Type::D)],
        ),
        alu(
            Xor,
            16,
            dst(18, Type::D),
            &[r16(16, Type::D), r16(18, Type::D)],
        ),
        alu(
            Add,
            16,
            dst(20, Type::D),
            &[r16(20, Type::D), imm(Type::D, 1)],
        ),
        with_cmod(
            alu(
                Cmp,
                16,
                null_dst(Type::D),
                &[r16(20, Type::D), imm(Type::D, 100_000)],
            ),
            CondMod::L,
            (0, 0),
        ),
        with_pred(flow(While, 16, -16 * 6, 0), (0, 0), false),
        eot(),
    ];
    let tg = group(4, 0xFFFF, |_, _| {});
    let start = std::time::Instant::now();
    let (_, c) = run_big(body, &tg);
    let s = start.elapsed().as_secs_f64();
    println!(
        "{} instructions, {} lane-instructions in {s:.3}s: {:.1} M lane-instructions/s",
        c.instructions,
        c.lane_instructions,
        c.lane_instructions as f64 / s / 1e6
    );
}

fn run_big(insts: Vec<Inst>, tg: &ThreadGroup) -> (Vec<Thread>, Counters) {
    let mut p = program(insts);
    let mut c = Counters::default();
    let mem = FlatMem::new();
    let t = run_threads(&mut p, &mem, tg, &LaunchEnv::default(), &mut c).unwrap();
    (t, c)
}

// ---- fast path == general path ----------------------------------------------

/// xorshift64*: deterministic test inputs.
/// The ALU operations the fast paths plan (with their source counts), and every
/// conditional modifier: what the random-program tests draw from.
const FLOAT_OPS: [(Opcode, usize); 6] = [
    (Opcode::Mov, 1),
    (Opcode::Add, 2),
    (Opcode::Mul, 2),
    (Opcode::Mad, 3),
    (Opcode::Sel, 2),
    (Opcode::Cmp, 2),
];
const INT_OPS: [(Opcode, usize); 12] = [
    (Opcode::Mov, 1),
    (Opcode::Add, 2),
    (Opcode::Mul, 2),
    (Opcode::And, 2),
    (Opcode::Or, 2),
    (Opcode::Xor, 2),
    (Opcode::Not, 1),
    (Opcode::Shl, 2),
    (Opcode::Shr, 2),
    (Opcode::Asr, 2),
    (Opcode::Sel, 2),
    (Opcode::Cmp, 2),
];
const CMODS: [CondMod; 8] = [
    CondMod::Z,
    CondMod::Nz,
    CondMod::G,
    CondMod::Ge,
    CondMod::L,
    CondMod::Le,
    CondMod::O,
    CondMod::U,
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 != 0
    }
    /// A SIMD8 execution mask: every lane half the time, else any.
    fn lanes8(&mut self) -> u32 {
        if self.coin() {
            0xFF
        } else {
            self.next() as u32 & 0xFF
        }
    }
}

/// Register contents that exercise the corners: denormals, NaNs (quiet and
/// signalling), infinities, signed zeros, integer extremes.
fn corner_u32(r: &mut Rng) -> u32 {
    let (a, b, c) = (r.next() as u32, r.next() as u32, r.next() as u32);
    r.pick(&[
        0,
        0x8000_0000,
        0x3F80_0000,
        0xBFC0_0000,
        0x0000_0001,
        0x807F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x7F80_0001,
        0x7F7F_FFFF,
        0x3F00_0000,
        0xFFFF_FFFF,
        0x7FFF_FFFF,
        0x0000_001F,
        0x0000_0021,
        a,
        b,
        c & 0x3FFF_FFFF,
    ])
}

/// Random instructions of the shapes `fast::plan` accepts (and some it does
/// not), each run through the fast path and through the general path on the
/// same random registers, flags, masks and denormal mode: every GRF, flag and
/// the lane count must agree bit for bit.
#[test]
fn fast_path_matches_general_path() {
    use Opcode::*;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut planned = 0;
    let cases = 20_000;
    for case in 0..cases {
        let r = &mut rng;
        let float = r.coin();
        let n = r.pick(&[1u8, 2, 4, 8, 16, 32]);
        let off = if n <= 16 {
            r.pick(&[0u8, 8, 16]).min(32 - n)
        } else {
            0
        };
        // A narrower row for SIMD2 and SIMD4 (a region's width is at most its ExecSize),
        // starting anywhere in the register, as the JIT's reduction steps do.
        let narrow = |s: Src, r: &mut Rng| match s {
            Src::Reg(mut reg) if n < 8 && reg.region.width == 8 => {
                let w = n;
                reg.region = Region {
                    vstride: w,
                    width: w,
                    hstride: 1,
                };
                reg.subreg = 4 * r.below(u64::from(8 / w)) as u8 * w;
                Src::Reg(reg)
            }
            s => s,
        };
        let (op, arity) = if float {
            r.pick(&FLOAT_OPS)
        } else {
            r.pick(&INT_OPS)
        };
        let mut srcs = Vec::new();
        for k in 0..arity {
            let ty = if float {
                Type::F
            } else {
                r.pick(&[Type::D, Type::UD])
            };
            let mut s = match r.below(4) {
                0 => scalar(50, 4 * r.below(8) as u8, ty),
                1 if k > 0 || !matches!(op, Mad) => {
                    let ity = if float {
                        Type::F
                    } else {
                        r.pick(&[Type::D, Type::UD, Type::W, Type::UW, Type::B, Type::UB])
                    };
                    imm(ity, corner_u32(r) as u64)
                }
                _ => r8(10 + 8 * k as u8, ty),
            };
            s = narrow(s, r);
            if let Src::Reg(reg) = &mut s {
                reg.modifier.negate = r.below(4) == 0;
                reg.modifier.abs = r.below(4) == 0;
            }
            srcs.push(s);
        }
        let dty = match op {
            Mov => r.pick(&[Type::F, Type::D, Type::UD]),
            Cmp => r.pick(&[Type::F, Type::D]),
            _ if float => Type::F,
            _ => r.pick(&[Type::D, Type::UD]),
        };
        let d = if op == Cmp && r.coin() {
            null_dst(dty)
        } else {
            dst(40, dty)
        };
        let mut inst = alu(op, n, d, &srcs);
        if !float && arity == 2 && !matches!(op, Cmp | Sel) && r.below(4) == 0 {
            // Integer division (`math` IQOT, IREM) on the same operands.
            inst.op = Math;
            inst.math_fn = Some(r.pick(&[MathFn::IntDivQuotient, MathFn::IntDivRemainder]));
        }
        if float && dty == Type::F && matches!(op, Mov | Add | Mul) && r.below(4) == 0 {
            // Float division (`math` FDIV) and reciprocal (INV) of the same operands.
            inst.op = Math;
            inst.math_fn = Some(if arity == 2 {
                MathFn::Fdiv
            } else {
                MathFn::Inv
            });
        }
        inst.chan_offset = off;
        inst.saturate = r.below(4) == 0;
        inst.no_mask = r.below(4) == 0;
        let flag = (r.below(2) as u8, r.below(2) as u8);
        if op == Cmp || (op == Sel && r.coin()) {
            let cm = r.pick(&CMODS);
            inst = with_cmod(inst, cm, flag);
        }
        if r.coin() {
            inst = with_pred(inst, flag, r.coin());
        }
        let mut prog = Vec::new();
        // Random flags.
        for (f, nr) in [(0, 0x30u8), (1, 0x31)] {
            let mut m = alu(
                Mov,
                1,
                arf_dst(nr),
                &[imm(Type::UD, r.next() & 0xFFFF_FFFF)],
            );
            m.no_mask = true;
            let _ = f;
            prog.push(m);
        }
        // Denormals flushed or kept, and (a quarter of the time) a directed rounding mode.
        let cr0 =
            if r.coin() { 0x4C0 } else { 0 } | if r.below(4) == 0 { r.below(4) << 4 } else { 0 };
        if cr0 != 0 {
            prog.push(or_cr0(cr0));
        }
        if r.below(8) == 0 {
            // A mode taken back (the JIT's rounding-mode brackets end with an `and`).
            prog.push(and_cr0(r.pick(&[!0x30u32, !0xC0, !0x4F0]).into()));
        }
        prog.push(inst.clone());
        prog.push(eot());
        let mask = match r.below(3) {
            0 => u32::MAX,
            _ => r.next() as u32,
        };
        let mut regs = vec![[0u8; 32]; 128];
        for (reg, g) in regs.iter_mut().enumerate().take(60).skip(1) {
            for w in 0..8 {
                g[w * 4..w * 4 + 4].copy_from_slice(&corner_u32(r).to_le_bytes());
            }
            let _ = reg;
        }
        let mut tg = group(1, mask, |_, _| {});
        tg.simd = 32;
        tg.threads[0].grfs = regs;
        let mem = FlatMem::new();
        let env = LaunchEnv::default();
        let fast = program(prog.clone());
        planned += fast.planned();
        let mut cf = Counters::default();
        let tf = run_threads(&mut { fast }, &mem, &tg, &env, &mut cf);
        let mut cg = Counters::default();
        let tgen = run_threads(
            &mut program(prog).without_fast_paths(),
            &mem,
            &tg,
            &env,
            &mut cg,
        );
        let (tf, tgen) = match (tf, tgen) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "case {case}: {inst:?}");
                continue;
            }
            (a, b) => panic!(
                "case {case}: {inst:?}: fast {:?} general {:?}",
                a.err(),
                b.err()
            ),
        };
        assert_eq!(cf, cg, "case {case}: counters of {inst:?}");
        let (a, b) = (&tf[0], &tgen[0]);
        for reg in 0..128 {
            assert_eq!(
                grf_u32s(a, reg, 8),
                grf_u32s(b, reg, 8),
                "case {case}: r{reg} after {inst:?}"
            );
        }
        assert_eq!(a.flag(0), b.flag(0), "case {case}: f0 after {inst:?}");
        assert_eq!(a.flag(1), b.flag(1), "case {case}: f1 after {inst:?}");
    }
    // Most cases must have taken the fast path, or this compares nothing.
    assert!(planned > cases * 3 / 4, "only {planned} of {cases} planned");
}

/// An integer instruction to a word destination, as the JIT packs 16-bit vector elements
/// (`mov (16) r43.1<2>:uw r39.0<16;8,2>:uw`): contiguous or hstride-2 words at either half
/// of a dword, from word halves of dwords (at either half: the odd half is not planned),
/// half floats among them,
/// contiguous words, dwords, scalars and immediates, with modifiers, saturation and
/// conditions now and then (which stay general), among the operations `plan_words` takes
/// and some it does not. `pool` gives the registers.
fn word_dst_inst(r: &mut Rng, pool: &dyn Fn(&mut Rng) -> u8) -> Inst {
    let n = r.pick(&[1u8, 8, 8, 16, 16]);
    let (op, arity) = r.pick(&INT_OPS);
    // Now and then a half float: a word too, which is not an integer's (IGC's half code).
    let words = |r: &mut Rng| r.pick(&[Type::W, Type::UW, Type::W, Type::UW, Type::HF]);
    let srcs: Vec<Src> = (0..arity)
        .map(|_| {
            let mut s = match r.below(6) {
                0 | 1 => reg(pool(r), 2 * r.below(2) as u8, words(r), rg(16, 8, 2)),
                2 => reg(pool(r), 0, words(r), rg(16, 16, 1)),
                3 => r8(pool(r), r.pick(&[Type::D, Type::UD])),
                4 => scalar(pool(r), 2 * r.below(16) as u8, words(r)),
                _ => imm(
                    r.pick(&[Type::W, Type::UW, Type::D, Type::UD]),
                    corner_u32(r) as u64,
                ),
            };
            if let Src::Reg(reg) = &mut s {
                reg.modifier.negate = r.below(4) == 0;
                reg.modifier.abs = r.below(8) == 0;
            }
            s
        })
        .collect();
    let mut d = dst(pool(r), words(r));
    if r.below(3) > 0 {
        d.hstride = 2;
        d.subreg = 2 * r.below(2) as u8;
    }
    let mut inst = alu(op, n, d, &srcs);
    inst.chan_offset = r.pick(&[0u8, 16]).min(32 - n);
    inst.saturate = r.below(8) == 0;
    inst.no_mask = r.below(4) == 0;
    inst
}

/// `word_dst_inst`s through the fast path and the general path (`fast_matches_general`).
#[test]
fn word_destinations_match_the_general_path() {
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    let (mut planned, cases) = (0, 6_000);
    for case in 0..cases {
        let r = &mut rng;
        let inst = word_dst_inst(r, &|r| 10 + 4 * r.below(8) as u8);
        let op = inst.op;
        let inst = with_random_flags(r, inst, op);
        let mut prog = random_flag_registers(r);
        let at = KBASE + 16 * prog.len() as u64;
        prog.push(inst.clone());
        prog.push(eot());
        let tg = random_simd32_thread(r, |r, g| {
            for w in 0..8 {
                g[w * 4..w * 4 + 4].copy_from_slice(&corner_u32(r).to_le_bytes());
            }
        });
        let what = format!("case {case}: {inst:?}");
        planned += usize::from(fast_matches_general(prog, at, &tg, &what).is_some());
    }
    // Not vacuous: the operations plan_words takes, of integer words, without abs,
    // saturation, a condition or an odd half, are a good share.
    println!("{planned} of {cases} planned");
    assert!(planned > cases / 5, "only {planned} of {cases} planned");
}

/// 64-bit register contents: integer extremes, values whose halves differ in
/// sign, shift counts around 32 and 64, and random bits.
fn corner_u64(r: &mut Rng) -> u64 {
    let a = r.next();
    r.pick(&[
        0,
        1,
        u64::MAX,
        1 << 63,
        i64::MAX as u64,
        0xFFFF_FFFF,
        0x7FFF_FFFF,
        0x8000_0000,
        0x1_0000_0000,
        0xFFFF_FFFF_8000_0000,
        0x8000_0000_7FFF_FFFF,
        31,
        32,
        33,
        63,
        64,
        65,
        a,
        a & 0xFFFF_FFFF,
        a >> 32,
        a as i32 as i64 as u64,
        a & 0x7F,
    ])
}

/// A region operand the 64-bit and strided fast paths read, or (now and then)
/// one they do not; `n` is the execution size, `qword_ok` allows qword types.
fn wide_src(r: &mut Rng, n: u8, nr: u8, qword_ok: bool, float: bool) -> Src {
    let rg = |v, w, h| Region {
        vstride: v,
        width: w,
        hstride: h,
    };
    if float {
        let f = Type::F;
        return match r.below(8) {
            0 | 1 => reg(nr, 0, f, rg(8, 8, 1)),
            2 | 3 => reg(nr, 4 * r.below(2) as u8, f, rg(8, 4, 2)),
            4 => scalar(nr, 4 * r.below(8) as u8, f),
            5 => reg(nr, 0, f, rg(2, 2, 1)),
            _ => imm(f, corner_u32(r) as u64),
        };
    }
    let q = if r.coin() { Type::Q } else { Type::UQ };
    let d = if r.coin() { Type::D } else { Type::UD };
    let w = if r.coin() { Type::W } else { Type::UW };
    let pick = r.below(if qword_ok { 16 } else { 10 });
    let mut s = match pick {
        // Dword forms: contiguous, the halves of qwords, scalar.
        0 => reg(nr, 0, d, rg(8, 8, 1)),
        1 => reg(nr, 0, d, rg(4, 4, 1)),
        2 | 3 => reg(nr, 4 * r.below(2) as u8, d, rg(8, 4, 2)),
        4 => scalar(nr, 4 * r.below(8) as u8, d),
        // Words: contiguous, scalar.
        5 => reg(nr, 0, w, rg(8, 8, 1)),
        6 => scalar(nr, 2 * r.below(16) as u8, w),
        // Immediates of 32 bits or less.
        7 => imm(
            r.pick(&[Type::D, Type::UD, Type::W, Type::UW, Type::B, Type::UB]),
            corner_u64(r),
        ),
        // Regions the fast path leaves alone: `<2;2,1>`, bytes, `<16;8,2>` words.
        8 => reg(nr, 0, d, rg(2, 2, 1)),
        9 => match r.below(2) {
            0 => reg(nr, 0, Type::B, rg(8, 8, 1)),
            _ => reg(nr, 0, w, rg(16, 8, 2)),
        },
        // Qwords: contiguous (`<4;4,1>`, `<8;8,1>`), scalar, immediate.
        10 | 11 => reg(nr, 8 * (n == 1) as u8 * r.below(4) as u8, q, rg(4, 4, 1)),
        12 => reg(nr, 0, q, rg(8, 8, 1)),
        13 => scalar(nr, 8 * r.below(4) as u8, q),
        14 => imm(q, corner_u64(r)),
        // Not contiguous: `<2;2,1>` qwords.
        _ => reg(nr, 0, q, rg(2, 2, 1)),
    };
    if let Src::Reg(reg) = &mut s {
        reg.modifier.negate = r.below(4) == 0;
        reg.modifier.abs = r.below(4) == 0;
    }
    s
}

/// A conditional modifier (always on cmp, often on sel, now and then elsewhere) and a
/// predicate, on one random flag register of `inst`.
fn with_random_flags(r: &mut Rng, mut inst: Inst, op: Opcode) -> Inst {
    let flag = (r.below(2) as u8, r.below(2) as u8);
    if op == Opcode::Cmp || (op == Opcode::Sel && r.coin()) || r.below(20) == 0 {
        let cm = r.pick(&CMODS);
        inst = with_cmod(inst, cm, flag);
    }
    if r.coin() {
        inst = with_pred(inst, flag, r.coin());
    }
    inst
}

/// One SIMD32 thread with a random lane mask (all lanes a third of the time) and r1-r59
/// filled by `fill` (r0 and r60 up zero).
fn random_simd32_thread(r: &mut Rng, fill: impl Fn(&mut Rng, &mut [u8; 32])) -> ThreadGroup {
    let mask = match r.below(3) {
        0 => u32::MAX,
        _ => r.next() as u32,
    };
    let mut regs = vec![[0u8; 32]; 128];
    for g in regs.iter_mut().take(60).skip(1) {
        fill(r, g);
    }
    let mut tg = group(1, mask, |_, _| {});
    tg.simd = 32;
    tg.threads[0].grfs = regs;
    tg
}

/// Moves that give both flag registers random bits.
fn random_flag_registers(r: &mut Rng) -> Vec<Inst> {
    let mut prog = Vec::new();
    for nr in [0x30u8, 0x31] {
        let mut m = alu(
            Opcode::Mov,
            1,
            arf_dst(nr),
            &[imm(Type::UD, r.next() & 0xFFFF_FFFF)],
        );
        m.no_mask = true;
        prog.push(m);
    }
    if r.coin() {
        // A word of one (`(W) mov (1) f0.1:uw`, as the JIT's unconditional goto sets f0.0).
        let mut d = arf_dst(r.pick(&[0x30u8, 0x31]));
        d.ty = Type::UW;
        d.subreg = 2 * r.below(2) as u8;
        let mut m = alu(Opcode::Mov, 1, d, &[imm(Type::UW, r.next() & 0xFFFF)]);
        m.no_mask = true;
        prog.push(m);
    }
    prog
}

/// Run `prog` on `tg` through the fast and the general path: the outcome,
/// every GRF, both flags and the counters must agree. Returns the plan of the
/// instruction at `at`.
fn fast_matches_general(
    prog: Vec<Inst>,
    at: u64,
    tg: &ThreadGroup,
    what: &str,
) -> Option<super::fast::Plan> {
    let mem = FlatMem::new();
    let env = LaunchEnv::default();
    let mut fast = program(prog.clone());
    let plan = fast.fetch(&mem, at).unwrap().fast;
    let mut cf = Counters::default();
    let tf = run_threads(&mut fast, &mem, tg, &env, &mut cf);
    let mut cg = Counters::default();
    let tgen = run_threads(
        &mut program(prog).without_fast_paths(),
        &mem,
        tg,
        &env,
        &mut cg,
    );
    let (tf, tgen) = match (tf, tgen) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{what}");
            return plan;
        }
        (a, b) => panic!("{what}: fast {:?} general {:?}", a.err(), b.err()),
    };
    assert_eq!(cf, cg, "{what}: counters");
    let (a, b) = (&tf[0], &tgen[0]);
    for reg in 0..128 {
        assert_eq!(grf_u32s(a, reg, 8), grf_u32s(b, reg, 8), "{what}: r{reg}");
    }
    assert_eq!(a.flag(0), b.flag(0), "{what}: f0");
    assert_eq!(a.flag(1), b.flag(1), "{what}: f1");
    plan
}

/// The 64-bit and strided forms on regions that end at r127's last byte
/// (a stride-8 region's last element ends 4 bytes before its span of 8 × 8).
#[test]
fn fast_path_regions_at_the_end_of_the_grf() {
    let rg = |v, w, h| Region {
        vstride: v,
        width: w,
        hstride: h,
    };
    let mut half_dst = dst(126, Type::UD);
    half_dst.subreg = 4;
    half_dst.hstride = 2;
    let insts = [
        // r126.1<8;4,2>: the high halves of r126..r127's qwords, the last at byte 4092.
        alu(
            Opcode::Mov,
            8,
            dst(10, Type::UD),
            &[reg(126, 4, Type::UD, rg(8, 4, 2))],
        ),
        alu(
            Opcode::Mul,
            8,
            dst(10, Type::UQ),
            &[reg(126, 4, Type::UD, rg(8, 4, 2)), imm(Type::UD, 0x404)],
        ),
        alu(
            Opcode::Add,
            8,
            half_dst,
            &[reg(126, 4, Type::UD, rg(8, 4, 2)), r8(20, Type::UD)],
        ),
        alu(
            Opcode::Add,
            8,
            dst(126, Type::UQ),
            &[reg(126, 0, Type::UQ, rg(4, 4, 1)), scalar(127, 24, Type::Q)],
        ),
        alu(
            Opcode::Mov,
            8,
            dst(10, Type::D),
            &[reg(127, 16, Type::W, rg(8, 8, 1))],
        ),
    ];
    for inst in insts {
        let mut tg = group(1, 0xFF, |_, g| {
            for (k, r) in g.iter_mut().enumerate() {
                for (b, v) in r.iter_mut().enumerate() {
                    *v = (k * 32 + b).wrapping_mul(0x9D) as u8;
                }
            }
        });
        tg.simd = 8;
        let what = format!("{inst:?}");
        let plan = fast_matches_general(vec![inst, eot()], KBASE, &tg, &what);
        assert!(plan.is_some(), "not planned: {what}");
    }
}

/// The shapes gencl's JIT emits for size_t/long arithmetic — qword sources
/// and destinations, 32-bit operations on the halves of qwords (`<8;4,2>`
/// sources, hstride-2 destinations), word sources, dword → qword moves, the
/// widening mul, 64-bit immediates — with random predication, conditional
/// modifiers, neg/abs, masks, flags and channel offsets, run through the fast
/// and the general path on the same registers: every GRF, flag and the
/// counters must agree bit for bit, and most cases (every new form many
/// times) must have been planned.
#[test]
fn fast_path_matches_general_path_wide() {
    use super::fast::DForm;
    use std::collections::BTreeMap;
    use Opcode::*;
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let (mut planned, mut wide) = (0, 0);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let cases = 20_000;
    for case in 0..cases {
        let r = &mut rng;
        let float = r.below(8) == 0;
        let n = r.pick(&[1u8, 8, 8, 8, 8, 16]);
        let off = match n {
            1 => 4 * r.below(8) as u8,
            8 => 8 * r.below(4) as u8,
            _ => 16 * r.below(2) as u8,
        };
        let (op, arity) = if float {
            r.pick(&FLOAT_OPS)
        } else {
            r.pick(&[
                (Mov, 1),
                (Mov, 1),
                (Add, 2),
                (Add, 2),
                (Mul, 2),
                (Mul, 2),
                (And, 2),
                (Or, 2),
                (Xor, 2),
                (Not, 1),
                (Shl, 2),
                (Shr, 2),
                (Asr, 2),
                (Sel, 2),
                (Cmp, 2),
            ])
        };
        // Sources from r10.., the destination sometimes on top of them (the JIT
        // updates qword halves in place: `add r41.1<2>:ud r41.1<8;4,2>:ud ..`).
        let mut srcs = Vec::new();
        for _ in 0..arity {
            let nr = r.pick(&[10u8, 14, 18, 22]);
            // The widening mul mostly gets 32-bit factors.
            let qword_ok = op != Mul || r.below(5) == 0;
            srcs.push(wide_src(r, n, nr, qword_ok, float));
        }
        let dnr = r.pick(&[30u8, 34, 10, 14]);
        let dsub = |r: &mut Rng, unit: u8| if n == 1 { unit * r.below(4) as u8 } else { 0 };
        let q = if r.coin() { Type::Q } else { Type::UQ };
        let dd = if r.coin() { Type::D } else { Type::UD };
        let mut d = dst(dnr, Type::UQ);
        match r.below(if float { 2 } else { 9 }) {
            // A float to a qword (truncated: `QFromF`).
            _ if float && op == Mov && r.coin() => {
                d.ty = q;
                d.subreg = dsub(r, 8);
            }
            _ if float => {
                d.ty = Type::F;
                d.hstride = r.pick(&[1, 2]);
                d.subreg = 4 * (d.hstride - 1) * r.below(2) as u8;
            }
            // An integer to a float (`QToF` where a source is a qword).
            8 => {
                d.ty = Type::F;
                d.hstride = r.pick(&[1, 2]);
                d.subreg = 4 * (d.hstride - 1) * r.below(2) as u8;
            }
            0..=3 => {
                d.ty = q;
                d.subreg = dsub(r, 8);
            }
            4 => d.ty = dd,
            5 => {
                // hstride 2: the high or low halves of qwords.
                d.ty = dd;
                d.hstride = 2;
                d.subreg = 4 * r.below(2) as u8;
            }
            6 => {
                // Not planned: a qword destination 16 bytes apart, a word one.
                d.ty = r.pick(&[q, Type::W]);
                d.hstride = 2;
            }
            _ => d.ty = q,
        }
        // Null: cmp's flags, or (the JIT's wait for a send) nothing at all.
        if (op == Cmp && r.coin()) || r.below(10) == 0 {
            d = null_dst(if float { Type::F } else { r.pick(&[q, dd]) });
        }
        let mut inst = alu(op, n, d, &srcs);
        inst.chan_offset = off;
        inst.saturate = r.below(10) == 0;
        inst.no_mask = r.below(4) == 0;
        inst = with_random_flags(r, inst, op);
        let mut prog = random_flag_registers(r);
        if r.coin() {
            // Denormals kept (the float cases see both modes).
            prog.push(or_cr0(0x4C0));
        }
        if r.below(8) == 0 {
            // A directed rounding mode: the conversions to float stand aside.
            prog.push(or_cr0(0x10 * (1 + r.below(3))));
        }
        let at = KBASE + 16 * prog.len() as u64;
        prog.push(inst.clone());
        prog.push(eot());
        let mask = match r.below(3) {
            0 => u32::MAX,
            _ => r.next() as u32,
        };
        let mut regs = vec![[0u8; 32]; 128];
        for g in regs.iter_mut().take(60).skip(1) {
            for k in 0..4 {
                let v = if r.coin() {
                    corner_u64(r)
                } else if float && r.coin() {
                    // Floats around the 64-bit integers' range and its edges.
                    let f = |r: &mut Rng| {
                        let e = 100 + r.below(100) as u32;
                        u64::from((r.next() as u32 & 0x807F_FFFF) | e << 23)
                    };
                    f(r) | f(r) << 32
                } else {
                    u64::from(corner_u32(r)) | u64::from(corner_u32(r)) << 32
                };
                g[k * 8..k * 8 + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        let mut tg = group(1, mask, |_, _| {});
        tg.simd = 32;
        tg.threads[0].grfs = regs;
        let what = format!("case {case}: {inst:?}");
        if let Some(p) = fast_matches_general(prog, at, &tg, &what) {
            planned += 1;
            wide += usize::from(p.wide());
            // Variant names: `QShr { cm: 63, bits: 32 }` → `QShr`.
            let name = |s: String| s.split([' ', '(', '{']).next().unwrap_or("").to_string();
            let mut names = vec![if p.wide() {
                format!("Q{}", name(format!("{:?}", p.q)))
            } else {
                name(format!("{:?}", p.op))
            }];
            for s in &p.srcs[..arity] {
                names.push(format!("src:{}", name(format!("{:?}", s.at))));
            }
            names.push(format!("path:{:?}", p.path));
            names.push(match (p.dst, p.dform) {
                (None, _) => "dst:null".into(),
                (Some(_), DForm::Vec) => "dst:Vec".into(),
                (Some(_), DForm::Vec2) => "dst:Vec2".into(),
                (Some(_), DForm::QVec) => "dst:QVec".into(),
                (Some(_), DForm::Words | DForm::Words2) => "dst:Words".into(),
            });
            for k in names {
                *seen.entry(k).or_default() += 1;
            }
        }
    }
    println!("planned {planned} of {cases}, {wide} of them 64-bit: {seen:?}");
    // Not vacuous: most cases planned, and every new form many times.
    assert!(planned > cases / 2, "only {planned} of {cases} planned");
    assert!(
        wide > cases * 3 / 10,
        "only {wide} of {cases} planned as 64-bit"
    );
    for k in [
        "QMov",
        "QAdd",
        "QMul",
        "QAnd",
        "QOr",
        "QXor",
        "QNot",
        "QShl",
        "QShr",
        "QAsr",
        "QSel",
        "QCmp",
        "QToF",
        "QFromF",
        "src:Vec2",
        "src:Words",
        "src:WScalar",
        "src:QVec",
        "src:QScalar",
        "src:QImm",
        "dst:Vec2",
        "dst:QVec",
        "dst:null",
        "path:Plain",
        "path:Strided",
    ] {
        let c = seen.get(k).copied().unwrap_or(0);
        assert!(c >= 50, "{k} planned only {c} times");
    }
}

/// Doubles (`fast::lanes_d`) against the general path: mov, add, mul, mad, sel and cmp on
/// DF operands of the planned forms (contiguous, scalar, immediate, with modifiers) and
/// some not planned (`<2;2,1>`, an F destination), over NaNs (signalling ones too),
/// infinities, zeros and denormals, with cr0's double denormal mode and rounding mode set
/// or not (the plans stand aside where they would differ).
#[test]
fn fast_path_matches_general_path_double() {
    use std::collections::BTreeMap;
    use Opcode::*;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut planned = 0;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let cases = 6_000;
    let corner = |r: &mut Rng| -> u64 {
        let a = r.next();
        r.pick(&[
            0,
            1 << 63,
            0x7FF0_0000_0000_0000,
            0xFFF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
            0x7FF0_0000_0000_0001,
            0xFFF4_0000_0000_0123,
            0x0000_0000_0000_0001,
            0x800F_FFFF_FFFF_FFFF,
            0x3FF0_0000_0000_0000,
            0x7FEF_FFFF_FFFF_FFFF,
            a,
            a & 0x800F_FFFF_FFFF_FFFF,
            (a & 0x0FFF_FFFF_FFFF_FFFF) | 0x3000_0000_0000_0000,
        ])
    };
    for case in 0..cases {
        let r = &mut rng;
        let n = r.pick(&[1u8, 8, 8, 8]);
        let off = if n == 1 { 0 } else { 8 * r.below(4) as u8 };
        let (op, arity) = r.pick(&FLOAT_OPS);
        let df = Type::DF;
        let rg = |v, w, h| Region {
            vstride: v,
            width: w,
            hstride: h,
        };
        let mut srcs = Vec::new();
        for _ in 0..arity {
            let nr = r.pick(&[10u8, 14, 18, 22]);
            let mut s = match r.below(10) {
                0..=4 => reg(nr, 0, df, rg(4, 4, 1)),
                5 | 6 => scalar(nr, 8 * r.below(4) as u8, df),
                7 | 8 => imm(df, corner(r)),
                _ => reg(nr, 0, df, rg(2, 2, 1)),
            };
            if let Src::Reg(reg) = &mut s {
                reg.modifier.negate = r.below(4) == 0;
                reg.modifier.abs = r.below(4) == 0;
            }
            srcs.push(s);
        }
        let dnr = r.pick(&[30u8, 34, 10, 14]);
        let mut d = dst(dnr, df);
        if n == 1 {
            d.subreg = 8 * r.below(4) as u8;
        }
        if r.below(12) == 0 {
            d.ty = Type::F;
        }
        if op == Cmp && r.coin() {
            d = null_dst(df);
        }
        let mut inst = alu(op, n, d, &srcs);
        inst.chan_offset = off;
        inst.saturate = r.below(12) == 0;
        inst.no_mask = r.below(4) == 0;
        inst = with_random_flags(r, inst, op);
        let mut prog = random_flag_registers(r);
        // Denormals of doubles kept (the JIT's 0x4C0) mostly; now and then flushed,
        // or a directed rounding mode (cr0 bits 5:4).
        let cr0 = r.pick(&[0x4C0u64, 0x4C0, 0x4C0, 0x40, 0, 0x4D0, 0x4E0, 0x4F0]);
        if cr0 != 0 {
            prog.push(or_cr0(cr0));
        }
        let at = KBASE + 16 * prog.len() as u64;
        prog.push(inst.clone());
        prog.push(eot());
        let tg = random_simd32_thread(r, |r, g| {
            for k in 0..4 {
                g[k * 8..k * 8 + 8].copy_from_slice(&corner(r).to_le_bytes());
            }
        });
        let what = format!("case {case} (cr0 {cr0:#x}): {inst:?}");
        if let Some(p) = fast_matches_general(prog, at, &tg, &what) {
            if p.path == super::fast::Path::Double {
                planned += 1;
                let name = |s: String| s.split([' ', '(', '{']).next().unwrap_or("").to_string();
                let mut names = vec![name(format!("{:?}", p.q))];
                for s in &p.srcs[..arity] {
                    names.push(format!("src:{}", name(format!("{:?}", s.at))));
                }
                names.push(
                    if p.dst.is_some() {
                        "dst:QVec"
                    } else {
                        "dst:null"
                    }
                    .to_string(),
                );
                for k in names {
                    *seen.entry(k).or_default() += 1;
                }
            }
        }
    }
    println!("planned {planned} of {cases} as doubles: {seen:?}");
    assert!(planned > cases / 3, "only {planned} of {cases} planned");
    for k in [
        "DMov",
        "DAdd",
        "DMul",
        "DMad",
        "DSel",
        "DCmp",
        "src:QVec",
        "src:QScalar",
        "src:QImm",
        "dst:QVec",
        "dst:null",
    ] {
        let c = seen.get(k).copied().unwrap_or(0);
        assert!(c >= 50, "{k} planned only {c} times");
    }
}

/// Kernels fetched from GPU memory are decoded once and kept by the device's cache across
/// dispatches; an instruction rewritten in memory between dispatches is noticed (the bulk
/// re-check at a dispatch's first group, then the per-instruction one); another address
/// space's kernel at the same address is kept apart.
#[test]
fn program_cache_notices_a_rewritten_kernel() {
    use super::cache::ProgramCache;
    let mem = FlatMem::new();
    let (a, b, mut tg) = vector_add_setup(&mem);
    let kaddr = MEM_BASE + 0x4000;
    tg.kernel_addr = kaddr;
    let load = |insts: &[Inst]| {
        for (k, i) in insts.iter().enumerate() {
            let bytes = gencl_isa::gen9::encode::encode(i).unwrap();
            mem.write(kaddr + 16 * k as u64, &bytes).unwrap();
        }
    };
    let env = LaunchEnv {
        general_state_base: MEM_BASE,
        max_instructions: 100_000,
        watchdog: crate::gpu::watchdog::Watchdog::none(),
    };
    let cache = ProgramCache::default();
    let mut c = Counters::default();
    // One dispatch of one group on host thread `worker` in address space `space`.
    let dispatch = |space: u64, worker: usize, c: &mut Counters| {
        let d = cache.checkout(space, kaddr, 2);
        d.with(worker, &mem, |p| super::run_program(p, &mem, &tg, &env, c))
            .unwrap();
    };
    let mut prog = vector_add_program();
    load(&prog);
    dispatch(1, 0, &mut c);
    check_vector_add(&mem, &a, &b);
    // Same bytes: served from the cache (twice, so the bulk check has a span).
    for _ in 0..2 {
        mem.put_u32s(MEM_BASE + 0x200, &[0xDEAD_BEEF; 8]);
        dispatch(1, 0, &mut c);
        check_vector_add(&mem, &a, &b);
    }
    assert_eq!(cache.len(), 1);
    // The add becomes a mul in memory.
    let k = prog
        .iter()
        .position(|i| i.op == Opcode::Add && i.dst.unwrap().ty == Type::F)
        .unwrap();
    prog[k].op = Opcode::Mul;
    load(&prog);
    for (space, worker) in [(1, 0), (1, 1), (1, 0), (2, 0)] {
        dispatch(space, worker, &mut c);
        let out = mem.get_u32s(MEM_BASE + 0x200, 8);
        for i in 0..6 {
            assert_eq!(out[i], (a[i] * b[i]).to_bits(), "lane {i}");
        }
    }
    assert_eq!(cache.len(), 2, "one kernel per address space");
    assert_eq!(c.threads, 7);
}

/// The timing model as docs/gpu-model.md states it, on an issue-bound and a
/// latency-bound group.
#[test]
fn timing_model_issue_and_latency_bounds() {
    use Opcode::*;
    let r16 = |nr: u8| row(nr, Type::F);
    let add16 = || alu(Add, 16, dst(10, Type::F), &[r16(10), r16(12)]);
    // 4 threads × (3 SIMD16 float adds at 4 cycles, 4 lanes a cycle on a 128-bit FPU, +
    // EOT) = 52 issue cycles over two pipes: 26, above the longest thread (13).
    let mem = FlatMem::new();
    let mut tg = group(4, 0xFFFF, |_, _| {});
    tg.simd = 16;
    let (_, c) = run(vec![add16(), add16(), add16(), eot()], &tg, &mem).unwrap();
    assert_eq!((c.issue_cycles, c.latency_cycles), (52, 0));
    assert_eq!(c.modelled_cycles, 26);
    // The rates by type: a SIMD16 DF add costs four times a float one, a half add half of
    // it, a 32×32-bit integer multiply twice, a 64-bit integer add twice.
    let r = row;
    for (inst, cycles) in [
        (
            alu(Add, 16, dst(10, Type::F), &[r(10, Type::F), r(12, Type::F)]),
            4,
        ),
        (
            alu(
                Add,
                8,
                dst(10, Type::DF),
                &[r(10, Type::DF), r(12, Type::DF)],
            ),
            8,
        ),
        (
            alu(
                Add,
                16,
                dst(10, Type::HF),
                &[r(10, Type::HF), r(12, Type::HF)],
            ),
            2,
        ),
        (
            alu(Mul, 16, dst(10, Type::D), &[r(10, Type::D), r(12, Type::D)]),
            8,
        ),
        (
            alu(Add, 8, dst(10, Type::Q), &[r(10, Type::Q), r(12, Type::Q)]),
            4,
        ),
    ] {
        let tg = group(1, 0xFF, |_, _| {});
        let (_, c) = run(vec![inst.clone(), eot()], &tg, &mem).unwrap();
        assert_eq!(c.issue_cycles, cycles + 1, "{inst:?}");
    }
    // 8 threads × (an SLM read: 1 issue, 30 latency; EOT): a thread ends when its reply
    // has landed, at 31 (the EOT issued at 2 waits 29), and 8 threads need two waves of
    // 7: 62.
    let slm_read = send(8, Sfid::Dc1, Some(20), 10, desc(1, 1, 1, 0x2E, 254), false);
    let tg = group(8, 0xFF, |_, _| {});
    let (_, c) = run(vec![slm_read, eot()], &tg, &mem).unwrap();
    assert_eq!((c.issue_cycles, c.latency_cycles), (16, 8 * 29));
    assert_eq!(c.sends_slm, 8);
    assert_eq!(c.modelled_cycles, 62);
}

/// Independent reference for directed rounding: a finite f64 in the f32
/// normal range rounded to f32 bits by integer arithmetic on its mantissa, in
/// cr0 rounding mode `mode` (0 RTNE, 1 toward +inf, 2 toward -inf, 3 toward 0).
fn ref_round_f32(x: f64, mode: u32, zero_rd_negative: bool) -> u32 {
    if x == 0.0 {
        return if mode == 2 && zero_rd_negative {
            0x8000_0000
        } else {
            0
        };
    }
    let b = x.to_bits();
    let neg = b >> 63 == 1;
    let mut e = ((b >> 52) & 0x7FF) as i64 - 1023;
    let m = (b & ((1 << 52) - 1)) | (1 << 52);
    let (mut q, rem, half) = (m >> 29, m & ((1 << 29) - 1), 1u64 << 28);
    let up = match mode {
        0 => rem > half || (rem == half && q & 1 == 1),
        1 => !neg && rem != 0,
        2 => neg && rem != 0,
        _ => false,
    };
    q += u64::from(up);
    if q == 1 << 24 {
        q >>= 1;
        e += 1;
    }
    assert!(
        (-126..128).contains(&e),
        "reference only for normal results"
    );
    (u32::from(neg) << 31) | (((e + 127) as u32) << 23) | (q as u32 & 0x7F_FFFF)
}

/// The same for an integer magnitude (conversions), by shifting off low bits.
fn ref_int_to_f32(v: i64, mode: u32) -> u32 {
    let neg = v < 0;
    let mag = v.unsigned_abs();
    let bits = 64 - mag.leading_zeros();
    if bits <= 24 {
        return (v as f32).to_bits();
    }
    let sh = bits - 24;
    let (mut q, rem, half) = (mag >> sh, mag & ((1 << sh) - 1), 1u64 << (sh - 1));
    let up = match mode {
        0 => rem > half || (rem == half && q & 1 == 1),
        1 => !neg && rem != 0,
        2 => neg && rem != 0,
        _ => false,
    };
    q += u64::from(up);
    // q << sh has at most 25 significant bits ending in zeros: exact as f32.
    let m = (q << sh) as f32;
    (if neg { -m } else { m }).to_bits()
}

/// cr0.0 [5:4] selects the rounding of f32 add, mul, mad and of integer → f32
/// conversions; every mode against the integer-arithmetic reference above.
#[test]
fn cr0_rounding_modes_for_f32_arithmetic_and_conversions() {
    use Opcode::*;
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut differs = 0;
    for trial in 0..32 {
        // f32 operands in ±[1, 2): sums and mad results are exact in f64.
        let mut f = || {
            let m = (rng.next() as u32) & 0x7F_FFFF;
            let s = if rng.coin() { 0x8000_0000 } else { 0 };
            f32::from_bits(s | 0x3F80_0000 | m)
        };
        let a: Vec<f32> = (0..8).map(|_| f()).collect();
        let b: Vec<f32> = (0..8).map(|_| f()).collect();
        let c: Vec<f32> = (0..8).map(|_| f()).collect();
        let ints: Vec<u32> = (0..8).map(|_| rng.next() as u32 | 0x0100_0001).collect();
        for mode in 0..4u32 {
            let mut set_cr0 = alu(
                Mov,
                1,
                arf_dst(0x80),
                &[imm(Type::UD, 0x4C0 | u64::from(mode) << 4)],
            );
            set_cr0.no_mask = true;
            let insts = vec![
                set_cr0,
                alu(Add, 8, dst(10, Type::F), &[r8(1, Type::F), r8(2, Type::F)]),
                alu(Mul, 8, dst(11, Type::F), &[r8(1, Type::F), r8(2, Type::F)]),
                alu(
                    Mad,
                    8,
                    dst(12, Type::F),
                    &[r8(3, Type::F), r8(1, Type::F), r8(2, Type::F)],
                ),
                alu(Mov, 8, dst(13, Type::F), &[r8(4, Type::UD)]),
                alu(Mov, 8, dst(14, Type::F), &[r8(4, Type::D)]),
            ];
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let mut all = insts;
            all.push(eot());
            let tg = group(1, 0xFF, |_, g| {
                put_u32s(g, 1, &bits(&a));
                put_u32s(g, 2, &bits(&b));
                put_u32s(g, 3, &bits(&c));
                put_u32s(g, 4, &ints);
            });
            let t = run(all, &tg, &FlatMem::new()).unwrap().0.remove(0);
            for i in 0..8 {
                let (x, y, z) = (a[i] as f64, b[i] as f64, c[i] as f64);
                let opposite = (x < 0.0) != (y < 0.0);
                let want = [
                    ref_round_f32(x + y, mode, opposite),
                    ref_round_f32(x * y, mode, false),
                    ref_round_f32(z + x * y, mode, (z < 0.0) != (x * y < 0.0)),
                    ref_int_to_f32(i64::from(ints[i]), mode),
                    ref_int_to_f32(i64::from(ints[i] as i32), mode),
                ];
                for (k, w) in want.iter().enumerate() {
                    let got = t.grf_u32(10 + k, i);
                    assert_eq!(
                        got, *w,
                        "trial {trial} mode {mode} op {k} lane {i}: {a:?} {b:?} {c:?}"
                    );
                }
                if mode != 0 && want[1] != ref_round_f32(x * y, 0, false) {
                    differs += 1;
                }
            }
        }
    }
    // The modes must actually change results, or this test compares nothing.
    assert!(differs > 100, "{differs}");
}

pub(crate) mod halfref;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub(crate) mod hostfp;
pub(crate) mod images;
pub(crate) mod in_place;
pub(crate) mod lanes;
pub(crate) mod numeric;
pub(crate) mod translate;

/// IGC's SIMD32 inclusive scan of ones (its atomic aggregation): NoMask
/// strided regions with a channel offset of 16, bytes assembled by iga64 from
/// (W) mov (16|M0) r16.0<1>:d 1:w ... (W) add (16|M16) r18.0<1>:d r17.7<0;1,0>:d r18.0<8;8,1>:d
/// (the steps: pairs <2;1,0>, quads <4;1,0>, broadcast <0;1,0> + <4;4,1>, then rows).
#[test]
fn igc_simd32_scan_regions() {
    let hex = "010080002c1e00220000000001000100012080002c1e40220000000001000100402060002c0a04420002400a04024000402060002c0a44424002400a44024000402040002c0a08620802600a04026000402040002c0a48624802600a44026000402040002c0a0c620c02600a04026000402040002c0a4c624c02600a44026000402040002c0a10220c02000a10026900402040002c0a30222c02000a30026900402040002c0a50224c02000a50026900402040002c0a70226c02000a70026900402060002c0a20221c02000a20028d00402060002c0a60225c02000a60028d00402080002c0a40223c02000a40028d00";
    let t = asm_thread(hex, 0xFF, |_| {});
    let want: Vec<u32> = (1..=32).collect();
    assert_eq!(grf_u32s(&t, 16, 32), want);
}

/// IGC's SIMD32 64-bit add of values read as x/y dword blocks: strided :d moves
/// with channel offsets M8/M16/M24 build :q lanes, a native :q add, and moves
/// back into blocks (iga64-assembled from IGC's wg_sum_long_float).
#[test]
fn igc_simd32_qword_blocks() {
    let hex = "40008000280a402a20068d0a8c00000040208000280a802a60068d0a8c00000001006000280a804d40088d000000000001106000280ac04d60088d000000000001006000280a844d80088d000000000001106000280ac44da0088d000000000001206000280a004ec0088d000000000001306000280a404ee0088d000000000001206000280a044e00098d000000000001306000280a444e20098d000000000001006000280a804c40078d000000000001106000280ac04c60078d000000000001006000280a844c80078d000000000001106000280ac44ca0078d000000000001206000280a004dc0078d000000000001306000280a404de0078d000000000001206000280a044d00088d000000000001306000280a444d20088d000000000040006000284b802e800d694a800c690040106000284bc02ec00d694ac00c690040206000284b002f000e694a000d690040306000284b402f400e694a400d690001006000280a4029800e40000000000001006000280a8029840e40000000000001106000280a6029c00e40000000000001106000280aa029c40e40000000000001206000280ac029000f40000000000001206000280a002a040f40000000000001306000280ae029400f40000000000001306000280a202a440f400000000000";
    // a = lane + 2^33 as IGC reads it (x block = low dwords, y block = high): lanes
    // 0-15 in r66-r67 / r68-r69, lanes 16-31 in r70-r71 / r72-r73; b = 1000 * lane +
    // 2^32 likewise in r58-r65. The sums come back the same way in r74-r81.
    let a: Vec<i64> = (0..32).map(|l| l + (1 << 33)).collect();
    let b: Vec<i64> = (0..32).map(|l| 1000 * l + (1 << 32)).collect();
    let t = asm_thread(hex, u32::MAX, |g| {
        for (base, v) in [(66, &a), (58, &b)] {
            for half in 0..2 {
                let lo: Vec<u32> = (0..16).map(|l| v[half * 16 + l] as u32).collect();
                let hi: Vec<u32> = (0..16).map(|l| (v[half * 16 + l] >> 32) as u32).collect();
                put_u32s(g, base + 4 * half, &lo);
                put_u32s(g, base + 4 * half + 2, &hi);
            }
        }
    });
    let got: Vec<i64> = (0..32)
        .map(|l| {
            let (half, k) = (l / 16, l % 16);
            let lo = grf_u32s(&t, 74 + 4 * half, 16)[k];
            let hi = grf_u32s(&t, 76 + 4 * half, 16)[k];
            (u64::from(hi) << 32 | u64::from(lo)) as i64
        })
        .collect();
    let want: Vec<i64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(got, want);
}

/// A thread object dispatched again clears only where its last program could write
/// (`Thread::ran`, `Program::grf_writes`): what a first program wrote (a move to r100, an
/// integer division's remainder in the register after its quotient's) reads zero in the
/// next one's thread, and after a run that failed, every register does.
#[test]
fn a_thread_dispatched_again_reads_zero_where_the_last_program_wrote() {
    // A payload of r0-r2, as a dispatch's is (`group`'s is the whole file).
    let tg = group(1, 0xFF, |_, g| {
        put_u32s(g, 1, &[7; 8]);
        put_u32s(g, 2, &[2; 8]);
        g.truncate(3);
    });
    let mem = FlatMem::new();
    let env = LaunchEnv {
        general_state_base: MEM_BASE,
        max_instructions: 100_000,
        watchdog: crate::gpu::watchdog::Watchdog::none(),
    };
    let mut c = Counters::default();
    let mut spare = super::Spare::default();
    let mut go = |prog: &mut Program, spare: &mut super::Spare| {
        let n = super::dispatch(&tg, &mut spare.threads, 0, 1);
        let r = super::run_group(prog, &mem, &tg, &env, &mut c, spare, None);
        if r.is_ok() {
            super::ran(&mut spare.threads, n, prog);
        }
        r
    };
    let mut first = program(vec![
        alu(Opcode::Mov, 8, dst(100, Type::UD), &[imm(Type::UD, 0x1234)]),
        math(
            MathFn::IntDivBoth,
            dst(110, Type::UD),
            &[r8(1, Type::UD), r8(2, Type::UD)],
        ),
        eot(),
    ]);
    go(&mut first, &mut spare).unwrap();
    let t = &spare.threads[0];
    assert_eq!(
        (t.grf_u32(100, 3), t.grf_u32(110, 0), t.grf_u32(111, 0)),
        (0x1234, 3, 1)
    );
    let mut second = program(vec![eot()]);
    go(&mut second, &mut spare).unwrap();
    let t = &spare.threads[0];
    assert!(
        t.grf[3 * 32..].iter().all(|&b| b == 0),
        "registers left set"
    );
    // A run that fails (an illegal instruction after the move) leaves its thread's
    // registers unknown: all are cleared at the next dispatch.
    let mut bad = program(vec![
        alu(Opcode::Mov, 8, dst(120, Type::UD), &[imm(Type::UD, 5)]),
        alu(Opcode::Illegal, 8, dst(1, Type::UD), &[r8(1, Type::UD)]),
        eot(),
    ]);
    assert!(go(&mut bad, &mut spare).is_err());
    assert_eq!(spare.threads[0].grf_u32(120, 0), 5);
    go(&mut second, &mut spare).unwrap();
    assert!(
        spare.threads[0].grf[3 * 32..].iter().all(|&b| b == 0),
        "after a failed run"
    );
}
