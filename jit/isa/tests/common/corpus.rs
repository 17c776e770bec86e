//! The generated single-instruction corpus (every opcode, type, region,
//! modifier and immediate form gencl encodes) and a flow-control batch,
//! shared by the iga64 round-trip and compaction tests.

use gencl_isa::*;

fn grf(nr: u8, subreg: u8, ty: Type, region: Region) -> Src {
    Src::Reg(SrcReg {
        file: RegFile::Grf,
        nr,
        subreg,
        region,
        ty,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    })
}
fn rgn(v: u8, w: u8, h: u8) -> Region {
    Region {
        vstride: v,
        width: w,
        hstride: h,
    }
}
fn dst(nr: u8, subreg: u8, ty: Type, hs: u8) -> Dst {
    Dst {
        file: RegFile::Grf,
        nr,
        subreg,
        hstride: hs,
        ty,
        indirect: None,
        writemask: 0xF,
    }
}
fn imm(ty: Type, bits: u64) -> Src {
    Src::Imm(Imm { ty, bits })
}
fn alu(op: Opcode, es: u8, d: Dst, s: &[Src]) -> Inst {
    let mut i = Inst::new(op, es);
    i.dst = Some(d);
    for (k, x) in s.iter().enumerate() {
        i.srcs[k] = Some(*x);
    }
    i
}
fn with_mod(s: Src, negate: bool, abs: bool) -> Src {
    match s {
        Src::Reg(mut r) => {
            r.modifier = SrcMod { negate, abs };
            Src::Reg(r)
        }
        x => x,
    }
}

/// Align16 DF operands: IGA's normal form selects 64-bit channels with the
/// swizzle .xyxy, and subregisters are whole DFs.
fn df_form(i: &mut Inst) {
    for s in i.srcs.iter_mut().flatten() {
        if let Src::Reg(r) = s {
            if r.ty == Type::DF {
                r.swizzle = [0, 1, 0, 1];
                r.subreg = 0;
            }
        }
    }
}

pub fn corpus() -> Vec<Inst> {
    use Opcode::*;
    use Type::*;
    let mut v = Vec::new();
    let vec8 = rgn(8, 8, 1);
    let sc = Region::SCALAR;
    // Unary ops over their types.
    for (op, tys) in [
        (Mov, &[UD, D, UW, W, F, HF, DF, Q, UQ, UB, B][..]),
        (Not, &[UD, D, UW, W][..]),
        (Frc, &[F][..]),
        (Rndd, &[F][..]),
        (Rndu, &[F][..]),
        (Rnde, &[F][..]),
        (Rndz, &[F][..]),
        (Lzd, &[UD, D][..]),
        (Fbh, &[UD, D][..]),
        (Fbl, &[UD][..]),
        (Cbit, &[UD][..]),
        (Bfrev, &[UD][..]),
    ] {
        for &t in tys {
            let es = if t.size() == 8 { 4 } else { 8 };
            v.push(alu(
                op,
                es,
                dst(10, 0, t, 1),
                &[grf(20, 0, t, rgn(8, 8, 1))],
            ));
            v.push(alu(op, 16, dst(12, 0, t, 1), &[grf(22, 0, t, sc)]));
        }
    }
    // Mov forms: strides, subregs, immediates of every immediate type, modifiers, ARFs.
    v.push(alu(Mov, 8, dst(5, 4, D, 2), &[grf(4, 8, D, rgn(16, 8, 2))]));
    v.push(alu(Mov, 16, dst(5, 0, W, 1), &[grf(4, 2, W, rgn(4, 4, 0))]));
    v.push(alu(
        Mov,
        8,
        dst(5, 0, UD, 1),
        &[grf(4, 0, UB, rgn(32, 8, 4))],
    ));
    v.push(alu(
        Mov,
        8,
        dst(5, 0, F, 4),
        &[with_mod(grf(4, 0, F, vec8), true, true)],
    ));
    for (t, b) in [
        (UD, 0x4C0u64),
        (D, (-5i32) as u32 as u64),
        (UW, 0x1234),
        (W, 0xFFFD),
        (F, 0x3F00_0000),
        (F, 0x4049_0FDB),
        (F, 0x7F80_0000),
        (F, 0x0000_0001),
        (F, 0x4B18_9680),
        (HF, 0x3E00),
        (DF, 0x3FF8_0000_0000_0000),
        (Q, (-3i64) as u64),
        (UQ, 0x1_0000_0000),
        (V, 0x7654_3210),
        (UV, 0x7654_3210),
        (VF, 0x3C2A_1A00),
    ] {
        let dt = match t {
            V | UV => W,
            VF => F,
            x => x,
        };
        let es = if t.size() == 8 { 4 } else { 8 };
        v.push(alu(Mov, es, dst(6, 0, dt, 1), &[imm(t, b)]));
    }
    let mut a = alu(Mov, 1, dst(5, 4, UD, 1), &[imm(UD, 0)]);
    a.dst = Some(Dst {
        file: RegFile::Arf,
        nr: 0x10,
        ..dst(0, 0, UW, 1)
    });
    a.srcs[0] = Some(imm(UW, 0x100));
    v.push(a);
    let mut a = alu(Mov, 8, dst(0, 0, D, 1), &[grf(2, 0, D, vec8)]);
    a.dst = Some(Dst {
        file: RegFile::Arf,
        nr: 0x20,
        ..dst(0, 0, D, 1)
    });
    v.push(a);
    // Indirect.
    let mut a = alu(Mov, 8, dst(0, 0, D, 1), &[grf(0, 0, D, vec8)]);
    a.dst = Some(Dst {
        indirect: Some(Indirect {
            addr_subreg: 2,
            offset: 16,
        }),
        ..dst(0, 0, D, 1)
    });
    if let Some(Src::Reg(ref mut r)) = a.srcs[0] {
        r.indirect = Some(Indirect {
            addr_subreg: 1,
            offset: -32,
        });
    }
    v.push(a);
    let mut a = alu(
        Mov,
        8,
        dst(4, 0, D, 1),
        &[grf(0, 0, D, rgn(Region::VXH, 1, 0))],
    );
    if let Some(Src::Reg(ref mut r)) = a.srcs[0] {
        r.indirect = Some(Indirect {
            addr_subreg: 1,
            offset: 32,
        });
    }
    v.push(a);
    // Binary ops.
    for (op, tys) in [
        (Add, &[D, UD, F, W, UW, DF, Q][..]),
        (Mul, &[D, F, DF][..]),
        (Sel, &[D, F][..]),
        (And, &[UD, D, UW][..]),
        (Or, &[UD, D][..]),
        (Xor, &[UD, D][..]),
        (Shl, &[UD, D, Q][..]),
        (Shr, &[UD, UW][..]),
        (Asr, &[D, W][..]),
        (Avg, &[D, W][..]),
        (Mach, &[D, UD][..]),
        (Mac, &[D][..]),
        (Addc, &[UD][..]),
        (Subb, &[UD][..]),
        (Cmp, &[D, F, UD][..]),
        (Cmpn, &[F][..]),
        (Bfi1, &[UD][..]),
    ] {
        for &t in tys {
            let es = if t.size() == 8 { 4 } else { 8 };
            v.push(alu(
                op,
                es,
                dst(30, 0, t, 1),
                &[grf(31, 0, t, vec8), grf(32, 0, t, sc)],
            ));
            let ib = if t.is_float() {
                if t == DF {
                    0x4000_0000_0000_0000
                } else {
                    0x4040_0000
                }
            } else {
                7
            };
            if t.size() < 8 {
                let it = if t == UW || t == W {
                    t
                } else if t.is_float() {
                    F
                } else {
                    t
                };
                let mut i = alu(
                    op,
                    16,
                    dst(30, 0, t, 1),
                    &[grf(31, 4 * t.size() as u8, t, sc), imm(it, ib)],
                );
                i.chan_offset = 16;
                v.push(i);
            }
        }
    }
    // Logic op negation, abs/neg on arith, saturate, cond mods, predicates, flags.
    v.push(alu(
        Not,
        8,
        dst(20, 0, D, 1),
        &[with_mod(grf(1, 0, D, vec8), true, false)],
    ));
    v.push(alu(
        And,
        8,
        dst(20, 0, UD, 1),
        &[
            with_mod(grf(1, 0, UD, vec8), true, false),
            grf(2, 0, UD, vec8),
        ],
    ));
    v.push(alu(
        Add,
        8,
        dst(20, 0, F, 1),
        &[
            with_mod(grf(1, 0, F, vec8), true, false),
            with_mod(grf(2, 0, F, vec8), false, true),
        ],
    ));
    for (k, c) in [
        CondMod::Z,
        CondMod::Nz,
        CondMod::G,
        CondMod::Ge,
        CondMod::L,
        CondMod::Le,
        CondMod::O,
        CondMod::U,
    ]
    .into_iter()
    .enumerate()
    {
        let mut i = alu(
            Cmp,
            16,
            dst(0, 0, F, 1),
            &[grf(2, 0, F, vec8), imm(F, 0x3F00_0000)],
        );
        i.dst = Some(Dst {
            file: RegFile::Arf,
            nr: 0,
            ..dst(0, 0, F, 1)
        });
        i.cond_mod = Some(c);
        i.flag = ((k & 1) as u8, ((k >> 1) & 1) as u8);
        v.push(i);
    }
    let mut i = alu(Sel, 8, dst(3, 0, D, 1), &[grf(2, 0, D, vec8), imm(D, 5)]);
    i.cond_mod = Some(CondMod::Ge);
    v.push(i);
    for (k, p) in [
        PredCtrl::Normal,
        PredCtrl::AnyV,
        PredCtrl::AllV,
        PredCtrl::Any2h,
        PredCtrl::All2h,
        PredCtrl::Any4h,
        PredCtrl::All4h,
        PredCtrl::Any8h,
        PredCtrl::All8h,
        PredCtrl::Any16h,
        PredCtrl::All16h,
        PredCtrl::Any32h,
        PredCtrl::All32h,
    ]
    .into_iter()
    .enumerate()
    {
        let mut i = alu(
            Add,
            8,
            dst(10, 0, F, 1),
            &[grf(12, 0, F, vec8), grf(14, 0, F, vec8)],
        );
        i.predicate = Some(Predicate {
            ctrl: p,
            inverse: k % 2 == 1,
        });
        i.flag = ((k / 2 % 2) as u8, (k % 2) as u8);
        i.no_mask = k % 3 == 0;
        i.saturate = k % 4 == 0;
        v.push(i);
    }
    // Exec sizes and channel offsets.
    for (es, co) in [
        (1u8, 0u8),
        (2, 0),
        (4, 0),
        (4, 4),
        (8, 8),
        (8, 24),
        (16, 16),
        (32, 0),
        (4, 12),
    ] {
        let mut i = alu(
            Add,
            es,
            dst(10, 0, W, 1),
            &[grf(12, 0, W, vec8), grf(14, 0, W, vec8)],
        );
        i.chan_offset = co;
        if es == 32 {
            i.dst = Some(dst(10, 0, W, 1));
        }
        v.push(i);
    }
    // Instruction options.
    let mut i = alu(
        Add,
        8,
        dst(10, 0, D, 1),
        &[grf(12, 0, D, vec8), grf(14, 0, D, vec8)],
    );
    i.acc_wr_en = true;
    i.no_dd_chk = true;
    i.no_dd_clr = true;
    i.debug = true;
    i.thread_ctrl = ThreadCtrl::Atomic;
    v.push(i);
    let mut i = alu(
        Or,
        1,
        dst(0, 0, UD, 1),
        &[grf(0, 0, UD, sc), imm(UW, 0x4C0)],
    );
    i.dst = Some(Dst {
        file: RegFile::Arf,
        nr: 0x80,
        ..dst(0, 0, UD, 1)
    });
    i.srcs[0] = Some(Src::Reg(SrcReg {
        file: RegFile::Arf,
        nr: 0x80,
        ..match grf(0, 0, UD, sc) {
            Src::Reg(r) => r,
            _ => unreachable!(),
        }
    }));
    i.no_mask = true;
    i.thread_ctrl = ThreadCtrl::Switch;
    v.push(i);
    // Math.
    for m in [
        MathFn::Inv,
        MathFn::Log,
        MathFn::Exp,
        MathFn::Sqrt,
        MathFn::Rsq,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Fdiv,
        MathFn::Pow,
        MathFn::IntDivBoth,
        MathFn::IntDivQuotient,
        MathFn::IntDivRemainder,
    ] {
        let int = matches!(
            m,
            MathFn::IntDivBoth | MathFn::IntDivQuotient | MathFn::IntDivRemainder
        );
        let t = if int { D } else { F };
        let mut i = alu(Math, 8, dst(20, 0, t, 1), &[grf(21, 0, t, vec8)]);
        if matches!(m, MathFn::Fdiv | MathFn::Pow | MathFn::Invm) || int {
            i.srcs[1] = Some(grf(22, 0, t, sc));
        }
        i.math_fn = Some(m);
        v.push(i);
    }
    // Three-source.
    for (op, t) in [
        (Mad, F),
        (Lrp, F),
        (Bfe, UD),
        (Bfe, D),
        (Bfi2, UD),
        (Csel, F),
        (Mad, HF),
    ] {
        // Mixed float mode: src1/src2 may be F while src0 is HF (and back).
        let t12 = if t == HF { F } else { t };
        let rep = Region::SCALAR;
        let full = rgn(4, 4, 1);
        let mut i = alu(
            op,
            8,
            dst(20, 0, t, 1),
            &[grf(1, 0, t, full), grf(2, 4, t12, rep), grf(3, 4, t, full)],
        );
        if op == Csel {
            i.cond_mod = Some(CondMod::L);
        }
        df_form(&mut i);
        v.push(i);
        let neg = matches!(op, Mad | Lrp | Csel);
        let mut i = alu(
            op,
            16,
            dst(40, 8, t, 1),
            &[
                grf(8, 4, t, rep),
                with_mod(grf(9, 0, t, full), neg, false),
                grf(10, 0, t, rep),
            ],
        );
        i.saturate = t.is_float() && op != Csel;
        df_form(&mut i);
        v.push(i);
    }
    // Sends.
    let send = |op: Opcode,
                es: u8,
                d: Dst,
                s0: u8,
                s1: Option<u8>,
                sfid: Sfid,
                desc: Option<u32>,
                ex: u32,
                eot: bool| {
        let mut i = Inst::new(op, es);
        i.dst = Some(d);
        i.srcs[0] = Some(grf(s0, 0, UD, Region::SCALAR));
        if let Some(r) = s1 {
            i.srcs[1] = Some(grf(r, 0, UD, Region::SCALAR));
        }
        let code = match sfid {
            Sfid::Dc1 => 0xC,
            Sfid::Dc0 => 0xA,
            Sfid::ThreadSpawner => 7,
            Sfid::Gateway => 3,
            Sfid::Sampler => 2,
            Sfid::RenderCache => 5,
            _ => 0,
        };
        i.send = Some(SendInfo {
            sfid,
            desc,
            ex_desc: ex | code | if eot { 0x20 } else { 0 },
            eot,
        });
        i
    };
    let null = |t: Type| Dst {
        file: RegFile::Arf,
        nr: 0,
        ..dst(0, 0, t, 1)
    };
    v.push(send(
        Send,
        16,
        dst(47, 0, W, 1),
        42,
        None,
        Sfid::Dc1,
        Some(0x0420_5E00),
        0,
        false,
    ));
    v.push(send(
        Send,
        8,
        dst(8, 0, UD, 1),
        4,
        None,
        Sfid::Dc1,
        Some(0x0414_01FF),
        0,
        false,
    ));
    v.push(send(
        Sendc,
        8,
        dst(8, 0, F, 1),
        4,
        None,
        Sfid::Dc0,
        Some(0x0211_0801),
        0,
        false,
    ));
    v.push(send(
        Send,
        8,
        null(UD),
        127,
        None,
        Sfid::ThreadSpawner,
        Some(0x0200_0010),
        0,
        true,
    ));
    v.push(send(
        Send,
        1,
        null(UD),
        84,
        None,
        Sfid::Gateway,
        Some(0x0200_0004),
        0,
        false,
    ));
    v.push(send(
        Send,
        8,
        dst(3, 0, UD, 1),
        127,
        None,
        Sfid::RenderCache,
        None,
        0,
        false,
    ));
    v.push(send(
        Sends,
        16,
        null(W),
        12,
        Some(16),
        Sfid::Dc1,
        Some(0x0402_5E02),
        0x80,
        false,
    ));
    v.push(send(
        Sends,
        1,
        null(UD),
        18,
        Some(20),
        Sfid::Dc1,
        Some(0x0404_87FF),
        0x40,
        false,
    ));
    v.push(send(
        Sendsc,
        8,
        dst(30, 0, UD, 1),
        18,
        Some(20),
        Sfid::Dc1,
        Some(0x0404_87FF),
        0x40,
        false,
    ));
    // The JIT's image messages, from its builders: sampler messages (SIMD8/16, with and
    // without a header) and typed writes (each slot group), as iga64 names them.
    use gencl_isa::gen9::send::{sampler_desc, typed_write_desc, SamplerOp};
    for (k, (op, simd, header, params)) in [
        (SamplerOp::SampleLz, 16u8, true, 2),
        (SamplerOp::LdLz, 16, true, 3),
        (SamplerOp::SampleL, 8, false, 3),
        (SamplerOp::Sample, 8, true, 1),
        (SamplerOp::Ld, 16, false, 4),
        (SamplerOp::Resinfo, 8, false, 1),
    ]
    .into_iter()
    .enumerate()
    {
        let (d, ex, _, _) = sampler_desc(op, u32::from(simd), k as u8, k as u8, header, params);
        v.push(send(
            Sends,
            simd,
            dst(40, 0, UD, 1),
            6,
            Some(41),
            Sfid::Sampler,
            Some(d),
            ex & !0xF,
            false,
        ));
    }
    for (high, coords, chans) in [(false, 2, 4), (true, 3, 1), (false, 1, 2)] {
        let (d, ex, _, _) = typed_write_desc(3, high, coords, chans);
        v.push(send(
            Sends,
            8,
            null(UD),
            13,
            Some(49),
            Sfid::Dc1,
            Some(d),
            ex & !0xF,
            false,
        ));
    }
    // wait, nop.
    let mut i = Inst::new(Wait, 1);
    i.srcs[0] = Some(Src::Reg(SrcReg {
        file: RegFile::Arf,
        nr: 0x90,
        ..match grf(0, 0, UD, sc) {
            Src::Reg(r) => r,
            _ => unreachable!(),
        }
    }));
    v.push(i);
    v.push(Inst::new(Nop, 1));
    v
}

/// Flow control, with targets inside the batch (labels need real blocks).
pub fn branches() -> Vec<Inst> {
    use Opcode::*;
    let br = |op: Opcode, es: u8, jip: i32, uip: i32| {
        let mut i = Inst::new(op, es);
        i.branch = Some(Branch { jip, uip });
        i
    };
    let mut v = Vec::new();
    let mut j = br(Jmpi, 1, -16, 0);
    j.no_mask = true;
    v.push(j); // pc 0
    let mut j = br(Jmpi, 1, 32, 0);
    j.no_mask = true;
    j.predicate = Some(Predicate {
        ctrl: PredCtrl::Normal,
        inverse: true,
    });
    j.flag = (1, 0);
    v.push(j); // 16
    v.push(br(If, 8, 32, 48)); // 32
    v.push(br(Else, 8, 16, 32)); // 48
    v.push(br(Endif, 8, 16, 0)); // 64
    v.push(br(While, 16, -80, 0)); // 80
    v.push(br(Break, 32, -96, -16)); // 96
    v.push(br(Cont, 8, -112, -32)); // 112
    v.push(br(Halt, 8, -128, -48)); // 128
    v.push(br(Goto, 8, -144, -64)); // 144
    v.push(br(Join, 8, -80, 0)); // 160
    let mut c = br(Call, 8, -176, 0);
    c.dst = Some(dst(10, 0, Type::D, 1));
    v.push(c); // 176
    let mut r = Inst::new(Ret, 8);
    r.srcs[0] = Some(grf(10, 0, Type::D, rgn(2, 2, 1)));
    v.push(r); // 192
    v.push(br(Brd, 8, -208, 0)); // 208
    v.push(br(Brc, 8, -224, -144)); // 224
    v
}
