//! IEEE-exact double division and square root with Gen's math macros, the sequences IGC
//! emits for Gen9 (its vISA expansion of fdiv/sqrt for DF): `math.invm` or `math.rsqtm`
//! gives a first approximation (or, for the early-out cases, the result itself, with the
//! lane's flag bit set), then Newton-Raphson steps in `madm`, whose `.mmeN` operands keep
//! the extra mantissa bits of intermediate values in accumulators so that the last step
//! rounds once. `madm d, a, b, c` is d = a + b * c. Each step runs on four lanes
//! (Align16), so a SIMD8 value takes two passes (`(4|M0)`, `(4|M4)`), one per GRF.

use super::*;
use crate::mir::{MInst, VRef, VReg};

/// An operand of a macro step: local register `reg`, in accumulator `mme` (None: the
/// plain value, `.nomme`), negated or not.
#[derive(Clone, Copy)]
struct Op3 {
    reg: usize,
    mme: Option<u8>,
    neg: bool,
}

const fn r(reg: usize, mme: u8) -> Op3 {
    Op3 {
        reg,
        mme: Some(mme),
        neg: false,
    }
}
const fn n(reg: usize) -> Op3 {
    Op3 {
        reg,
        mme: None,
        neg: false,
    }
}
const fn neg(o: Op3) -> Op3 {
    Op3 {
        reg: o.reg,
        mme: o.mme,
        neg: true,
    }
}

// Local registers of the division: the operands, constants, result and temporaries.
const A: usize = 0;
const B: usize = 1;
const ZERO: usize = 2;
const ONE: usize = 3;
const Q: usize = 4;
const T1: usize = 5;
const T2: usize = 6;
const T3: usize = 7;
const T4: usize = 8;
const T5: usize = 9;

/// q = a / b after `Q.mme0 = invm(a, b)`.
const DIV: [(Op3, Op3, Op3, Op3); 10] = [
    (r(T1, 1), n(ZERO), n(A), r(Q, 0)),
    (r(T2, 2), n(ONE), neg(n(B)), r(Q, 0)),
    (r(T3, 3), n(A), neg(n(B)), r(T1, 1)),
    (r(T4, 4), r(Q, 0), r(T2, 2), r(Q, 0)),
    (r(T5, 5), n(ONE), neg(n(B)), r(T4, 4)),
    (r(Q, 6), r(Q, 0), r(T2, 2), r(T4, 4)),
    (r(T1, 7), r(T1, 1), r(T3, 3), r(T4, 4)),
    (r(T4, 0), r(T4, 4), r(Q, 6), r(T5, 5)),
    (r(T3, 1), n(A), neg(n(B)), r(T1, 7)),
    (n(Q), r(T1, 7), r(T3, 1), r(T4, 0)),
];

// Local registers of the square root.
const HALF: usize = 1;
const THREE_HALVES: usize = 10;
const S: usize = 4;
const H: usize = 5;
const G: usize = 6;
const E: usize = 7;
const X: usize = 8;

/// s = √a after `S.mme0 = rsqtm(a)`.
const SQRT: [(Op3, Op3, Op3, Op3); 10] = [
    (r(H, 1), n(ZERO), n(HALF), r(S, 0)),
    (r(G, 2), n(ZERO), n(A), r(S, 0)),
    (r(E, 3), n(HALF), neg(r(G, 2)), r(H, 1)),
    (r(X, 5), n(ONE), n(THREE_HALVES), r(E, 3)),
    (r(S, 6), n(ZERO), r(E, 3), r(G, 2)),
    (r(E, 7), n(ZERO), r(E, 3), r(H, 1)),
    (r(S, 6), r(G, 2), r(X, 5), r(S, 6)),
    (r(X, 5), r(H, 1), r(X, 5), r(E, 7)),
    (r(H, 1), n(A), neg(r(S, 6)), r(S, 6)),
    (n(S), r(S, 6), r(H, 1), r(X, 5)),
];

/// The flag the macros' early-out bits go to (f1.0: branches use f0.0).
const FLAG: (u8, u8) = (1, 0);

impl Sel<'_> {
    /// `v = a / b` in double, correctly rounded.
    pub(super) fn div_f64(&mut self, v: Value, a: Value, b: Value) -> Result<(), IselError> {
        let regs = self.macro_regs(&[(a, None), (b, None)], &[0.0, 1.0], 6)?;
        self.run_macro(MathFn::Invm, &regs, &[A, B], Q, &DIV);
        self.locs.insert(v, Loc::V(regs[Q], false));
        Ok(())
    }

    /// `v = √a` in double, correctly rounded.
    pub(super) fn sqrt_f64(&mut self, v: Value, a: Value) -> Result<(), IselError> {
        // Registers: A, HALF, ZERO, ONE, S, H, G, E, X, (unused), THREE_HALVES.
        let mut regs = self.macro_regs(&[(a, None)], &[0.5, 0.0, 1.0], 6)?;
        let k = self.df_splat(1.5);
        regs.push(k);
        // macro_regs laid out A, HALF, ZERO, ONE, then 6 temporaries: S..X and one spare.
        self.run_macro(MathFn::Rsqrtm, &regs, &[A], S, &SQRT);
        self.locs.insert(v, Loc::V(regs[S], false));
        Ok(())
    }

    /// The macro's registers: the operands as full per-lane doubles, the constants
    /// splatted to every lane, then `temps` temporaries.
    fn macro_regs(
        &mut self,
        operands: &[(Value, Option<()>)],
        constants: &[f64],
        temps: usize,
    ) -> Result<Vec<VReg>, IselError> {
        let mut regs = Vec::new();
        for (x, _) in operands {
            regs.push(self.df_lanes(*x)?);
        }
        for k in constants {
            regs.push(self.df_splat(*k));
        }
        for _ in 0..temps {
            regs.push(self.m.new_vreg(8 * self.simd as u32));
        }
        Ok(regs)
    }

    /// A double as eight lanes in two GRFs (operands of Align16 macros are whole registers).
    fn df_lanes(&mut self, x: Value) -> Result<VReg, IselError> {
        let o = self.opnd(x, Type::DF)?;
        if !o.scalar {
            if let (Some(r), Src::Reg(sr)) = (o.vref, o.src) {
                if r.off == 0 && sr.modifier == SrcMod::default() {
                    return Ok(r.v);
                }
            }
        }
        let d = self.m.new_vreg(8 * self.simd as u32);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::DF));
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: d, off: 0 }), [o.vref, None, None]);
        Ok(d)
    }

    fn df_splat(&mut self, k: f64) -> VReg {
        let d = self.m.new_vreg(8 * self.simd as u32);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::DF));
        i.srcs[0] = Some(imm(Type::DF, k.to_bits()));
        self.push(i, Some(VRef { v: d, off: 0 }), [None; 3]);
        d
    }

    /// The approximation into `out.mme0`, then the steps for the lanes that did not
    /// finish early, four lanes (one GRF) at a time.
    fn run_macro(
        &mut self,
        f: MathFn,
        regs: &[VReg],
        inputs: &[usize],
        out: usize,
        steps: &[(Op3, Op3, Op3, Op3)],
    ) {
        for half in 0..(self.simd as u32 / 4) {
            let at = |reg: usize| VRef {
                v: regs[reg],
                off: 32 * half,
            };
            let mut i = Inst::new(Opcode::Math, 4);
            i.chan_offset = (4 * half) as u8;
            i.access_mode = AccessMode::Align16;
            i.math_fn = Some(f);
            i.flag = FLAG;
            let mut d = mme_dst(Some(0));
            // Align16 has no destination stride; IGA leaves the field 0.
            d.hstride = 0;
            i.dst = Some(d);
            let mut vrefs = [None; 3];
            for (k, reg) in inputs.iter().enumerate() {
                i.srcs[k] = Some(mme_src(n(*reg), 2));
                vrefs[k] = Some(at(*reg));
            }
            self.push(i, Some(at(out)), vrefs);
            for (d, s0, s1, s2) in steps {
                // Three-source instructions are Align16 by their form.
                let mut i = Inst::new(Opcode::Madm, 4);
                i.chan_offset = (4 * half) as u8;
                i.flag = FLAG;
                // Only the lanes without an early result.
                i.predicate = Some(Predicate {
                    ctrl: PredCtrl::Normal,
                    inverse: true,
                });
                i.dst = Some(mme_dst(d.mme));
                i.srcs = [
                    Some(mme_src(*s0, 4)),
                    Some(mme_src(*s1, 4)),
                    Some(mme_src(*s2, 4)),
                ];
                self.m.items.push(crate::mir::Item::Inst(MInst {
                    inst: i,
                    dst: Some(at(d.reg)),
                    srcs: [Some(at(s0.reg)), Some(at(s1.reg)), Some(at(s2.reg))],
                    jip: None,
                    uip: None,
                }));
            }
        }
    }
}

/// The accumulator field value that names no accumulator (`.nomme`), as IGA encodes it.
const NOMME: u8 = 8;

/// A macro destination: the accumulator index in the write-mask field (`.mmeN`), or
/// `.nomme` (8) for the plain value.
fn mme_dst(mme: Option<u8>) -> Dst {
    let mut d = grf_dst(0, 0, Type::DF);
    d.writemask = mme.unwrap_or(NOMME);
    d
}

/// A macro source: the accumulator index (or `.nomme`) in the swizzle field; math's
/// two-source Align16 form takes vertical stride 2 for DF, madm's three-source form 4.
fn mme_src(o: Op3, vstride: u8) -> Src {
    let k = o.mme.unwrap_or(NOMME);
    let swizzle = [k & 3, (k >> 2) & 3, 0, 0];
    Src::Reg(SrcReg {
        file: RegFile::Grf,
        nr: 0,
        subreg: 0,
        region: Region {
            vstride,
            width: 4,
            hstride: 1,
        },
        ty: Type::DF,
        modifier: SrcMod {
            negate: o.neg,
            abs: false,
        },
        indirect: None,
        swizzle,
    })
}
