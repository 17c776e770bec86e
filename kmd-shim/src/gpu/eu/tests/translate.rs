//! Translated runs against the interpreter: random programs of the shapes the translator
//! takes (and some it does not, which split the runs), run by threads that share the
//! round-robin quantum, so that runs are entered in the middle and cut short. Every GRF,
//! both flags and the counters must agree bit for bit with the general path.

use super::super::translate::{Policy, HOT};
use super::*;

/// One random instruction of a planned shape (or, now and then, one that is not).
fn random_inst(r: &mut Rng) -> Inst {
    use Opcode::*;
    if r.below(3) == 0 {
        return random_wide_inst(r);
    }
    let float = r.coin();
    let n = r.pick(&[1u8, 2, 4, 8, 8, 16, 16, 32]);
    let off = if n <= 16 {
        r.pick(&[0u8, 8, 16]).min(32 - n)
    } else {
        0
    };
    // Registers from a small pool, so that instructions feed each other.
    let pool = |r: &mut Rng| 10 + 4 * r.below(8) as u8;
    if r.below(8) == 0 {
        // Word destinations (16-bit vector elements packed into dwords).
        let inst = word_dst_inst(r, &pool);
        let op = inst.op;
        return flags(r, inst, op);
    }
    if r.below(16) == 0 {
        // A flag's word set on no mask (the JIT's unconditional goto sets f0.0 so), which
        // the instructions after it read as their predicate or condition.
        let mut d = arf_dst(r.pick(&[0x30u8, 0x31]));
        d.ty = Type::UW;
        d.subreg = 2 * r.below(2) as u8;
        let mut m = alu(Mov, 1, d, &[imm(Type::UW, r.next() & 0xFFFF)]);
        m.no_mask = true;
        return m;
    }
    if r.below(12) == 0 {
        // Shapes that stay in the interpreter: a byte region, a math instruction (SQRT).
        return match r.below(2) {
            0 => alu(
                Mov,
                8,
                dst(pool(r), Type::D),
                &[reg(pool(r), 0, Type::B, rg(8, 8, 1))],
            ),
            _ => math(MathFn::Sqrt, dst(pool(r), Type::F), &[r8(pool(r), Type::F)]),
        };
    }
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
        let mut s = match r.below(5) {
            0 => scalar(pool(r), 4 * r.below(8) as u8, ty),
            1 if k > 0 || op != Mad => {
                let ity = if float {
                    Type::F
                } else {
                    r.pick(&[Type::D, Type::UD, Type::W, Type::UW])
                };
                imm(ity, corner_u32(r) as u64)
            }
            // SIMD2 and SIMD4 read a row of their width, anywhere in the register.
            _ if n < 8 => reg(
                pool(r),
                4 * n * r.below(u64::from(8 / n)) as u8,
                ty,
                rg(n, n, 1),
            ),
            _ => r8(pool(r), ty),
        };
        if let Src::Reg(reg) = &mut s {
            reg.modifier.negate = r.below(5) == 0;
            reg.modifier.abs = r.below(6) == 0;
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
        dst(pool(r), dty)
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
    inst.saturate = r.below(5) == 0;
    inst.no_mask = r.below(4) == 0;
    flags(r, inst, op)
}

/// An instruction of the strided and 64-bit shapes (`fast::Path::Strided`, `Path::Wide`):
/// qword, half-qword and word regions, hstride-2 destinations, SIMD1 and SIMD8 qwords.
fn random_wide_inst(r: &mut Rng) -> Inst {
    use Opcode::*;
    let float = r.below(4) == 0;
    let n = if float {
        r.pick(&[8u8, 16])
    } else {
        r.pick(&[1u8, 8, 8])
    };
    let pool = |r: &mut Rng| 10 + 4 * r.below(8) as u8;
    if r.below(5) == 0 {
        // The conversions between qwords and floats (the JIT's 64-bit division's quotient
        // digits): an integer of up to 64 bits to F, and F to Q or UQ.
        let n = r.pick(&[1u8, 8, 8]);
        let to_float = r.coin();
        let nr = pool(r);
        let mut s = wide_src(r, n, nr, true, !to_float);
        if let (Src::Reg(reg), false) = (&mut s, to_float) {
            reg.modifier.negate = r.below(4) == 0;
            reg.modifier.abs = r.below(4) == 0;
        }
        let d = if to_float {
            Type::F
        } else {
            r.pick(&[Type::Q, Type::UQ])
        };
        let mut inst = alu(Mov, n, dst(pool(r), d), &[s]);
        inst.no_mask = r.below(4) == 0;
        return flags(r, inst, Mov);
    }
    let (op, arity) = if float {
        r.pick(&FLOAT_OPS)
    } else {
        r.pick(&INT_OPS)
    };
    let srcs: Vec<Src> = (0..arity)
        .map(|_| {
            let nr = pool(r);
            wide_src(r, n, nr, !float, float)
        })
        .collect();
    let mut d = if float {
        dst(pool(r), Type::F)
    } else {
        dst(pool(r), r.pick(&[Type::Q, Type::UQ, Type::D, Type::UD]))
    };
    if d.ty.size() == 4 && r.coin() {
        d.hstride = 2;
        d.subreg = 4 * r.below(2) as u8;
    }
    if op == Cmp && r.coin() {
        d = null_dst(d.ty);
    }
    let mut inst = alu(op, n, d, &srcs);
    inst.saturate = float && r.below(5) == 0;
    inst.no_mask = r.below(4) == 0;
    flags(r, inst, op)
}

/// A random flag for `inst` (of `op`): a condition on cmp (and now and then on sel), a
/// predicate a third of the time.
fn flags(r: &mut Rng, mut inst: Inst, op: Opcode) -> Inst {
    let flag = (r.below(2) as u8, r.below(2) as u8);
    if op == Opcode::Cmp || (op == Opcode::Sel && r.coin()) {
        inst = with_cmod(inst, r.pick(&CMODS), flag);
    }
    if r.below(3) == 0 {
        inst = with_pred(inst, flag, r.coin());
    }
    inst
}

/// Flags and cr0 set by the program itself (random, per program), then `body`, then EOT.
fn random_program(r: &mut Rng, body: Vec<Inst>) -> Vec<Inst> {
    let mut prog = random_flag_registers(r);
    // Denormals flushed or kept, and (an eighth of the time) a directed rounding mode.
    let cr0 = if r.coin() { 0x4C0 } else { 0 } | if r.below(8) == 0 { r.below(4) << 4 } else { 0 };
    if cr0 != 0 {
        prog.push(or_cr0(cr0));
    }
    prog.extend(body);
    prog.push(eot());
    prog
}

fn random_group(r: &mut Rng, threads: usize) -> ThreadGroup {
    let mut tg = group(threads, u32::MAX, |_, _| {});
    tg.simd = 32;
    for t in tg.threads.iter_mut() {
        t.exec_mask = match r.below(3) {
            0 => u32::MAX,
            _ => r.next() as u32,
        };
        for g in t.grfs.iter_mut().take(60).skip(1) {
            for w in 0..8 {
                g[w * 4..w * 4 + 4].copy_from_slice(&corner_u32(r).to_le_bytes());
            }
        }
    }
    tg
}

/// Run `prog` with every run translated at its first reach, and on the general path: the
/// outcome, every thread's GRF and flags, and the counters must agree. Returns the runs
/// translated.
fn translated_matches_general(prog: &[Inst], tg: &ThreadGroup, what: &str) -> usize {
    translated_matches_general_in(&FlatMem::new(), prog, tg, what)
}

/// `translated_matches_general` on memory `mem` (which the program only reads).
fn translated_matches_general_in(
    mem: &FlatMem,
    prog: &[Inst],
    tg: &ThreadGroup,
    what: &str,
) -> usize {
    translated_matches_general_on((mem, mem), prog, tg, what)
}

/// `translated_matches_general` with the translated program on the first memory and the
/// general path on the second.
fn translated_matches_general_on(
    (mem_t, mem_g): (&FlatMem, &FlatMem),
    prog: &[Inst],
    tg: &ThreadGroup,
    what: &str,
) -> usize {
    let env = LaunchEnv::default();
    let mut translated = program(prog.to_vec()).with_translation(Policy { on: true, hot: 1 });
    let mut ct = Counters::default();
    let tt = run_threads(&mut translated, mem_t, tg, &env, &mut ct);
    let mut general = program(prog.to_vec())
        .without_fast_paths()
        .with_translation(Policy { on: false, hot: 1 });
    let mut cg = Counters::default();
    let tgen = run_threads(&mut general, mem_g, tg, &env, &mut cg);
    let (tt, tgen) = match (tt, tgen) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{what}");
            return translated.translated_runs();
        }
        (a, b) => panic!("{what}: translated {:?} general {:?}", a.err(), b.err()),
    };
    assert_eq!(ct, cg, "{what}: counters");
    for (k, (a, b)) in tt.iter().zip(&tgen).enumerate() {
        for reg in 0..128 {
            if grf_u32s(a, reg, 8) != grf_u32s(b, reg, 8) {
                panic!(
                    "{what}: thread {k} r{reg}: translated {:08x?} general {:08x?}",
                    grf_u32s(a, reg, 8),
                    grf_u32s(b, reg, 8)
                );
            }
        }
        assert_eq!(a.flag(0), b.flag(0), "{what}: thread {k} f0");
        assert_eq!(a.flag(1), b.flag(1), "{what}: thread {k} f1");
    }
    translated.translated_runs()
}

#[test]
fn translated_runs_match_the_general_path() {
    if !super::super::translate::enabled() {
        eprintln!("translation is off (GENCL_TRANSLATE=0 or no Cranelift back end): skipped");
        return;
    }
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    let (mut runs, mut insts) = (0, 0);
    let cases = if cfg!(debug_assertions) { 300 } else { 1500 };
    for case in 0..cases {
        let r = &mut rng;
        let len = 2 + r.below(90) as usize;
        let body: Vec<Inst> = (0..len).map(|_| random_inst(r)).collect();
        insts += len;
        let prog = random_program(r, body);
        let threads = 1 + r.below(3) as usize;
        let tg = random_group(r, threads);
        runs += translated_matches_general(&prog, &tg, &format!("case {case}"));
    }
    // Most programs must have been translated, or this compares nothing.
    assert!(
        runs > cases / 2 && runs * 10 > insts / 20,
        "only {runs} runs over {insts} instructions"
    );
}

/// Memory the tests' reads take: 64 dwords at MEM_BASE, each its index in every byte.
fn read_memory() -> FlatMem {
    let mem = FlatMem::new();
    mem.put_u32s(
        MEM_BASE,
        &(0..64).map(|i| 0x0101_0101 * i).collect::<Vec<u32>>(),
    );
    mem
}

/// A NoMask A64 read into a pool register (10, 14, .., 38) from the addresses in r50
/// (`read_addresses`): its reply is on its way while the instructions after it run.
fn pool_read(r: &mut Rng) -> Inst {
    let mut read = a64_read(10 + 4 * r.below(8) as u8, 50);
    read.no_mask = true;
    read
}

/// Each thread's r50: eight lanes' addresses within `read_memory`.
fn read_addresses(r: &mut Rng, tg: &mut ThreadGroup) {
    for t in tg.threads.iter_mut() {
        let lanes: Vec<u64> = (0..8)
            .map(|l| MEM_BASE + 4 * (l + 8 * r.below(7)))
            .collect();
        put_u64s(&mut t.grfs, 50, &lanes);
    }
}

/// Runs entered while a memory read's reply is on its way to a register some instruction
/// of theirs uses: each runs up to that instruction, where the interpreter waits, as the
/// general path does (the GRFs, flags and counters, modelled cycles among them, agree).
/// Fails when a run is taken whole before the reply lands (the latency is not waited for:
/// the counters differ).
#[test]
fn runs_entered_before_a_reply_stop_at_its_register() {
    if !super::super::translate::enabled() {
        return;
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mem = read_memory();
    for case in 0..300 {
        let r = &mut rng;
        let len = 8 + r.below(40) as usize;
        let mut body: Vec<Inst> = (0..len).map(|_| random_inst(r)).collect();
        // Reads into pool registers (10, 14, .., 38) near the start: the instructions after
        // them are one run that uses the reply somewhere, or not at all.
        for _ in 0..1 + r.below(2) {
            let read = pool_read(r);
            body.insert(r.below(3) as usize, read);
        }
        let prog = random_program(r, body);
        let threads = 1 + r.below(3) as usize;
        let mut tg = random_group(r, threads);
        read_addresses(r, &mut tg);
        translated_matches_general_in(&mem, &prog, &tg, &format!("case {case}"));
    }
}

/// `body` made a uniform loop: r60.0 counts its rounds (NoMask), and a `jmpi` on f1.1
/// goes back to its start while the count is below `trip`.
fn close_loop(body: &mut Vec<Inst>, trip: Src) {
    use Opcode::*;
    let mut inc = alu(
        Add,
        1,
        dst(60, Type::D),
        &[scalar(60, 0, Type::D), imm(Type::W, 1)],
    );
    inc.no_mask = true;
    body.push(inc);
    let mut cmp = with_cmod(
        alu(Cmp, 8, null_dst(Type::D), &[scalar(60, 0, Type::D), trip]),
        CondMod::L,
        (1, 1),
    );
    cmp.no_mask = true;
    body.push(cmp);
    let back = -(16 * (body.len() as i32 + 1));
    let mut jmp = with_pred(flow(Jmpi, 1, back, 0), (1, 1), false);
    jmp.no_mask = true;
    body.push(jmp);
}

/// A DC0 memory fence whose reply (a register the thread then reads, as the JIT's fences
/// are waited for) lands in `d`.
fn fence(d: u8) -> Inst {
    let mut f = send(8, Sfid::Dc0, Some(d), 0, 0x0219_E000, false);
    f.no_mask = true;
    f
}

/// Data-port sends inside runs (`code::STOP_SEND`, `Host::send`): a loop whose body mixes
/// random ALU instructions with an A64 atomic add on a counter every thread shares
/// (returning the old values into a pool register), fences, A64 reads whose replies later
/// instructions use, and A64 writes of pool registers to each thread's own addresses; a few
/// threads taking turns by the quantum. Every GRF, both flags, the counters (the sends by
/// kind, issue and latency cycles among them) and every byte of memory must agree with the
/// general path. Fails when a run's send is counted twice or not at all, when the issue
/// cycles before a send are not the thread's when it issues (the replies land at other
/// cycles), when an instruction touching a reply does not wait, or when a run goes on at
/// the wrong instruction after a send.
#[test]
fn sends_in_runs_match_the_general_path() {
    use Opcode::*;
    if !super::super::translate::enabled() {
        return;
    }
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    let mut runs = 0;
    for case in 0..120 {
        let r = &mut rng;
        let pool = |r: &mut Rng| 10 + 4 * r.below(8) as u8;
        let mut body: Vec<Inst> = Vec::new();
        for _ in 0..2 + r.below(6) {
            body.extend((0..r.below(5)).map(|_| random_inst(r)));
            match r.below(4) {
                0 => {
                    // Atomic add of r44 to the counter whose address r42-43 hold.
                    let d = pool(r);
                    let mut add = send(
                        8,
                        Sfid::Dc1,
                        Some(d),
                        42,
                        desc(3, 1, 0x12, 0x27, 253),
                        false,
                    );
                    add.no_mask = r.coin();
                    body.push(add);
                }
                1 => body.push(fence(pool(r))),
                2 => body.push(pool_read(r)),
                _ => {
                    // A pool register's first dwords to the thread's own eight words.
                    body.push(alu(Mov, 8, dst(54, Type::UD), &[r8(pool(r), Type::UD)]));
                    body.push(a64_write(52));
                }
            }
        }
        close_loop(&mut body, scalar(61, 0, Type::D));
        let prog = random_program(r, body);
        let threads = 1 + r.below(3) as usize;
        let mut tg = random_group(r, threads);
        read_addresses(r, &mut tg);
        for (k, t) in tg.threads.iter_mut().enumerate() {
            t.grfs[60] = [0; 32];
            t.grfs[61] = [0; 32];
            t.grfs[61][0] = 2 + r.below(12) as u8;
            put_u64s(&mut t.grfs, 42, &[MEM_BASE + 0x400; 8]);
            put_u32s(&mut t.grfs, 44, &[1 + r.below(3) as u32; 8]);
            let own: Vec<u64> = (0..8)
                .map(|l| MEM_BASE + 0x800 + 64 * k as u64 + 4 * l)
                .collect();
            put_u64s(&mut t.grfs, 52, &own);
        }
        let (mem_t, mem_g) = (read_memory(), read_memory());
        let what = format!("sends case {case}");
        runs += translated_matches_general_on((&mem_t, &mem_g), &prog, &tg, &what);
        assert_eq!(
            mem_t.get_u32s(MEM_BASE, 1024),
            mem_g.get_u32s(MEM_BASE, 1024),
            "{what}: memory"
        );
    }
    assert!(runs > 60, "only {runs} runs translated");
}

/// A loop whose body is one run, entered at its start and, when the quantum ends inside
/// it, in its middle; threads of different masks, the default heat threshold.
#[test]
fn translated_loop_matches_the_general_path() {
    if !super::super::translate::enabled() {
        return;
    }
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for case in 0..40 {
        let r = &mut rng;
        let mut body: Vec<Inst> = (0..3 + r.below(20)).map(|_| random_inst(r)).collect();
        // The counter in r60.0, the trip count in r61.0; the body must not clobber the
        // counter: it uses r10..r41 only.
        close_loop(&mut body, scalar(61, 0, Type::D));
        let prog = random_program(r, body);
        let threads = 1 + r.below(3) as usize;
        let mut tg = random_group(r, threads);
        for t in tg.threads.iter_mut() {
            t.grfs[60] = [0; 32];
            t.grfs[61] = [0; 32];
            t.grfs[61][0] = 50;
        }
        translated_matches_general(&prog, &tg, &format!("loop case {case}"));
    }
}

/// SIMD control flow inside runs (`emit::simd_flow`): a loop whose `while` some channels
/// leave before others (per-channel trip counts in r62), around nested `if` regions of
/// forward `goto`s and `join`s whose conditions are per channel (thresholds in r64, r66)
/// and so at times uniform (the run goes on, over the joins on the way) and at times not
/// (the run leaves for the interpreter to park channels), half the time after a memory read
/// whose reply is still on its way. Every GRF, both flags and the counters must agree with
/// the general path. Fails when a run takes a divergent branch
/// whole, or counts the joins it jumps over differently.
#[test]
fn translated_simd_flow_matches_the_general_path() {
    use Opcode::*;
    if !super::super::translate::enabled() {
        return;
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mem = read_memory();
    let mut runs = 0;
    for case in 0..200 {
        let r = &mut rng;
        let n = r.pick(&[8u8, 16]);
        let rows = |reg: u8| row(reg, Type::D);
        let randoms = |r: &mut Rng, k: u64| -> Vec<Inst> {
            (0..r.below(k)).map(|_| random_inst(r)).collect()
        };
        let cmp = |a: u8, b: u8, cm: CondMod, f: (u8, u8)| {
            with_cmod(alu(Cmp, n, null_dst(Type::D), &[rows(a), rows(b)]), cm, f)
        };
        // if (r60 < r64) { A; if (r60 < r66) { B } C }: the goto sends the channels whose
        // predicate is false to UIP; JIP is the next join.
        let mut body: Vec<Inst> = Vec::new();
        let head = body.len();
        // Half the time a memory read first, whose reply is on its way while the loop's
        // runs are entered (`Run::clear_prefix` takes their in-order part before its use).
        if r.coin() {
            body.push(pool_read(r));
        }
        body.extend(randoms(r, 5));
        let nested = r.coin();
        let outer_at = body.len() + 1;
        body.push(cmp(60, 64, CondMod::L, (0, 0)));
        body.push(with_pred(flow(Goto, n, 0, 0), (0, 0), false));
        body.extend(randoms(r, 4));
        let inner = if nested {
            body.push(cmp(60, 66, CondMod::L, (0, 1)));
            let at = body.len();
            body.push(with_pred(flow(Goto, n, 0, 0), (0, 1), false));
            body.extend(randoms(r, 3));
            let join = body.len();
            body.push(flow(Join, n, 0, 0));
            body.extend(randoms(r, 3));
            Some((at, join))
        } else {
            None
        };
        let outer_join = body.len();
        body.push(flow(Join, n, 0, 0));
        let mut inc = alu(Add, n, dst(60, Type::D), &[rows(60), imm(Type::W, 1)]);
        inc.no_mask = r.coin();
        body.push(inc);
        body.push(cmp(60, 62, CondMod::L, (1, 1)));
        let w = body.len();
        body.push(with_pred(
            flow(While, n, 16 * (head as i32 - w as i32), 0),
            (1, 1),
            false,
        ));
        body.extend(randoms(r, 3));
        // Offsets in bytes (16 an instruction), from the instruction itself.
        let off = |from: usize, to: usize| 16 * (to as i32 - from as i32);
        let first_join = inner.map_or(outer_join, |(_, j)| j);
        body[outer_at].branch = Some(Branch {
            jip: off(outer_at, first_join),
            uip: off(outer_at, outer_join),
        });
        if let Some((at, join)) = inner {
            body[at].branch = Some(Branch {
                jip: off(at, join),
                uip: off(at, join),
            });
            body[join].branch = Some(Branch {
                jip: off(join, outer_join),
                uip: 0,
            });
        }
        body[outer_join].branch = Some(Branch {
            jip: off(outer_join, w),
            uip: 0,
        });
        let prog = random_program(r, body);
        let threads = 1 + r.below(3) as usize;
        let mut tg = random_group(r, threads);
        let uniform = r.below(3) == 0;
        for t in tg.threads.iter_mut() {
            let per = |r: &mut Rng, most: u64| -> [u8; 32] {
                let mut g = [0u8; 32];
                let v = r.below(most) as u32;
                for l in 0..8 {
                    let x = if uniform { v } else { r.below(most) as u32 };
                    g[4 * l..4 * l + 4].copy_from_slice(&x.to_le_bytes());
                }
                g
            };
            // Each value two registers (SIMD16 reads both).
            t.grfs[60] = [0; 32];
            t.grfs[61] = [0; 32];
            for reg in [62usize, 63, 64, 65, 66, 67] {
                t.grfs[reg] = per(r, 5);
            }
        }
        read_addresses(r, &mut tg);
        runs += translated_matches_general_in(&mem, &prog, &tg, &format!("flow case {case}"));
    }
    assert!(runs > 100, "only {runs} runs translated");
}

/// Programs with the same instructions at other addresses (the CTS's variants, each a
/// program of its own) share one compiled run, which leaves for addresses of the program
/// that runs it: a loop with SIMD flow and a jmpi out of it, placed at two kernel
/// addresses, each translated at the first reach and held to the general path at its own
/// address; a third placement, translating at the default heat (`HOT` reaches, more than
/// its loop makes), takes the shared run at the `PROBE`th reach. Fails when the code's
/// exits are absolute (the second program's thread goes on at the first one's addresses),
/// or nothing is shared, or the third waits for `HOT`.
#[test]
fn programs_with_the_same_code_share_its_runs() {
    use Opcode::*;
    if !super::super::translate::enabled() {
        return;
    }
    let mut rng = Rng(0x5151_2727_C3C3_9D9D);
    let mut refused = 0;
    'case: for case in 0..20 {
        let r = &mut rng;
        // A body of its own (a constant no other test uses), a counted loop, EOT; of
        // instructions the native encoder takes (a run is shared by its encoding, which a
        // program decoded from memory always has; `random_inst` makes some it refuses)
        // and that translate (a body split by the interpreter's shapes has no run).
        let translates = |i: &Inst| {
            Program::from_insts(vec![(KBASE, i.clone())])
                .ok()
                .and_then(|p| p.decoded(KBASE).map(super::super::translate::translatable))
                == Some(true)
        };
        let mut body: Vec<Inst> = (0..2 + r.below(6))
            .map(|_| loop {
                let i = random_inst(r);
                if gencl_isa::gen9::encode(&i).is_ok() && translates(&i) {
                    break i;
                }
            })
            .collect();
        body.push(alu(
            Add,
            8,
            dst(62, Type::D),
            &[row(62, Type::D), imm(Type::D, 0x5A5A_0000 | case)],
        ));
        // The loop opens with an instruction the interpreter keeps (cr0 or'ed with 0), so
        // that the lead-in's run (its flag moves translate) ends before the loop, and the
        // loop's run starts at the same place in every program, where the third, never hot
        // by itself, finds it.
        body.insert(0, or_cr0(0));
        close_loop(&mut body, imm(Type::D, 40));
        let prog = random_program(r, body);
        let env = LaunchEnv::default();
        let mem = FlatMem::new();
        let mut translated = Vec::new();
        let group = random_group(r, 1);
        for (base, hot) in [(KBASE, 1), (KBASE + 0x4_0000, 1), (KBASE + 0x8_0000, HOT)] {
            let at = |insts: &[Inst]| {
                Program::from_insts(
                    insts
                        .iter()
                        .enumerate()
                        .map(|(k, i)| (base + 16 * k as u64, i.clone()))
                        .collect(),
                )
                .unwrap()
            };
            let mut tg = group.clone();
            tg.kernel_addr = base;
            tg.threads[0].grfs[60] = [0; 32];
            let mut t = at(&prog).with_translation(Policy { on: true, hot });
            let mut g = at(&prog)
                .without_fast_paths()
                .with_translation(Policy { on: false, hot: 1 });
            let (mut ct, mut cg) = (Counters::default(), Counters::default());
            // A program the general path refuses (`random_inst` draws some shapes the
            // encoder takes and the model does not, a logic operation on a half float)
            // has nothing to share: the translated one must refuse it the same way.
            let b = match run_threads(&mut g, &mem, &tg, &env, &mut cg) {
                Ok(b) => b,
                Err(e) => {
                    let a = run_threads(&mut t, &mem, &tg, &env, &mut ct);
                    assert_eq!(a.err(), Some(e), "case {case}: the refusals differ");
                    refused += 1;
                    continue 'case;
                }
            };
            let a = run_threads(&mut t, &mem, &tg, &env, &mut ct).unwrap();
            assert_eq!(ct, cg, "case {case} at {base:#x}: counters");
            for reg in 0..128 {
                assert_eq!(
                    grf_u32s(&a[0], reg, 8),
                    grf_u32s(&b[0], reg, 8),
                    "case {case} at {base:#x}: r{reg}"
                );
            }
            assert!(t.translated_runs() > 0, "case {case}: nothing translated");
            translated.push(t);
        }
        let p = &translated[0];
        for (n, q) in translated.iter().enumerate().skip(1) {
            let shared = (0..p.translated_runs())
                .any(|i| (0..q.translated_runs()).any(|j| p.shares_run(i, q, j)));
            assert!(
                shared,
                "case {case}: program {n} did not take the compiled runs"
            );
        }
    }
    assert!(refused <= 3, "{refused} of 20 programs refused");
}

/// A panic on a run's slow path (`code::slow_float`, called from host code, where unwinding
/// would abort the process and the service with it) comes back as a panic of `Run::exec`,
/// in Rust frames, which the engine turns into the batch's error as for any instruction.
#[test]
fn a_panic_on_a_runs_slow_path_comes_back_as_a_rust_panic() {
    use Opcode::*;
    if !super::super::translate::enabled() {
        return;
    }
    // A NaN operand: the add's result takes the slow path.
    let prog = vec![
        alu(
            Add,
            8,
            dst(10, Type::F),
            &[r8(11, Type::F), r8(12, Type::F)],
        ),
        alu(
            Add,
            8,
            dst(13, Type::F),
            &[r8(10, Type::F), r8(12, Type::F)],
        ),
        eot(),
    ];
    let mut tg = group(1, u32::MAX, |_, _| {});
    for w in 0..8 {
        tg.threads[0].grfs[11][w * 4..w * 4 + 4].copy_from_slice(&0x7FC0_0001u32.to_le_bytes());
    }
    let mem = FlatMem::new();
    let env = LaunchEnv::default();
    let mut translated = program(prog.clone()).with_translation(Policy { on: true, hot: 1 });
    let mut ct = Counters::default();
    super::super::translate::code::panic_on_next_slow_float();
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_threads(&mut translated, &mem, &tg, &env, &mut ct).is_ok()
    }));
    let why = ran.expect_err("the injected panic");
    let text = why.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        text.contains("slow path") && text.contains("injected"),
        "{text}"
    );
    // Without the injection the same program runs, NaNs and all.
    let mut again = program(prog).with_translation(Policy { on: true, hot: 1 });
    let mut ct = Counters::default();
    assert!(run_threads(&mut again, &mem, &tg, &env, &mut ct).is_ok());
    assert!(again.translated_runs() > 0, "the run was translated");
}
