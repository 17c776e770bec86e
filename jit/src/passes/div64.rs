//! 64-bit division and remainder. Gen9 divides 32-bit integers only (the math unit's
//! INT DIV), so each `div`/`rem` of I64 that `strength` left becomes code:
//!
//! - **Both operands fit in 32 bits** (the common case: `size_t` indices divided by a
//!   width), one 32-bit hardware division, as LLVM's slow-division bypass does on CPUs
//!   whose 64-bit divide is slow. A zero divisor takes this path too, so that it cannot
//!   loop (the result is undefined in C; the hardware's is returned).
//! - **Otherwise**, quotient digits estimated in single precision: with `rcp` a little
//!   below `1/d`, `e = trunc(float(r) * rcp)` never exceeds `r / d`, so `q += e,
//!   r -= e * d` keeps `0 <= r` and each round takes about 17 bits off `r / d`. Rounds run
//!   while they make progress and `r >= d`, at most five for any operands; one final
//!   correction covers an estimate that came out 0 with `r` just at or above `d`. The
//!   `(1 - 2^-18)` factor covers the roundings of `float(r)`, `float(d)`, the product and
//!   the reciprocal (OpenCL allows 2.5 ulp for a single-precision divide; the margin is
//!   about 2^-18 against a total error near 2^-21).
//!
//! Signed forms divide the magnitudes and fix the signs (C: the quotient truncates, the
//! remainder takes the dividend's sign). Each `div` becomes: the test at the end of its
//! block, the 32-bit arm, the estimation loop and its correction, and a join holding the
//! rest of the block, where the division's own value number now names the result.

use crate::ir::{BinOp, Block, BlockData, CmpOp, ConvOp, Function, Inst, Op, Term, Ty, Value};

pub fn run(f: &mut Function) {
    let mut b = 0;
    while b < f.blocks.len() {
        let found = f.blocks[b].insts.iter().position(|&v| {
            f.ty(v) == Ty::I64
                && matches!(
                    f.inst(v).op,
                    Op::Bin(BinOp::Div { .. } | BinOp::Rem { .. }, _, _)
                )
        });
        match found {
            Some(pos) => expand(f, b, pos),
            None => b += 1,
        }
    }
}

/// Instructions appended to one block.
struct At<'f> {
    f: &'f mut Function,
    b: Block,
}

impl At<'_> {
    fn op(&mut self, op: Op, ty: Ty) -> Value {
        self.f.push(self.b, op, ty)
    }
    fn k(&mut self, bits: u64) -> Value {
        self.op(Op::Const(bits), Ty::I64)
    }
    fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        self.op(Op::Bin(op, a, b), Ty::I64)
    }
    fn cmp(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        self.op(Op::Cmp(op, a, b), Ty::Bool)
    }
    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.op(Op::Select(c, a, b), Ty::I64)
    }
    /// `|v|` (as unsigned) and whether `v` is negative.
    fn abs(&mut self, v: Value) -> (Value, Value) {
        let zero = self.k(0);
        let neg = self.cmp(CmpOp::Lt { signed: true }, v, zero);
        let m = self.op(Op::Un(crate::ir::UnOp::Neg, v), Ty::I64);
        (self.select(neg, m, v), neg)
    }
}

fn add_block(f: &mut Function) -> Block {
    f.blocks.push(BlockData {
        insts: Vec::new(),
        term: Term::None,
    });
    Block(f.blocks.len() as u32 - 1)
}

/// Expand the division at `pos` of block `b`.
fn expand(f: &mut Function, b: usize, pos: usize) {
    let v = f.blocks[b].insts[pos];
    let Op::Bin(op, n, d) = f.inst(v).op else {
        return;
    };
    let (signed, rem) = match op {
        BinOp::Div { signed } => (signed, false),
        BinOp::Rem { signed } => (signed, true),
        _ => return,
    };
    let join = super::split_around(f, b, pos);
    let (fast, slow, lp, fix) = (add_block(f), add_block(f), add_block(f), add_block(f));

    // The test: both magnitudes below 2^32, or a zero divisor.
    let mut at = At {
        f,
        b: Block(b as u32),
    };
    let (un, ud, sign) = if signed {
        let (un, n_neg) = at.abs(n);
        let (ud, d_neg) = at.abs(d);
        // The quotient is negative when the signs differ, the remainder with the dividend.
        let sign = if rem {
            n_neg
        } else {
            at.op(Op::Bin(BinOp::Xor, n_neg, d_neg), Ty::Bool)
        };
        (un, ud, Some(sign))
    } else {
        (n, d, None)
    };
    let both = at.bin(BinOp::Or, un, ud);
    let k32 = at.k(32);
    let high = at.bin(BinOp::LShr, both, k32);
    let zero = at.k(0);
    let small = at.cmp(CmpOp::Eq, high, zero);
    let d_zero = at.cmp(CmpOp::Eq, ud, zero);
    let easy = at.op(Op::Bin(BinOp::Or, small, d_zero), Ty::Bool);
    at.f.blocks[b].term = Term::CondBr(easy, fast, slow);

    // 32-bit hardware division.
    let mut at = At { f, b: fast };
    let n32 = at.op(Op::Conv(ConvOp::Trunc, un), Ty::I32);
    let d32 = at.op(Op::Conv(ConvOp::Trunc, ud), Ty::I32);
    let op32 = if rem {
        BinOp::Rem { signed: false }
    } else {
        BinOp::Div { signed: false }
    };
    let r32 = at.op(Op::Bin(op32, n32, d32), Ty::I32);
    let from_fast = at.op(Op::Conv(ConvOp::ZExt, r32), Ty::I64);
    at.f.blocks[fast.0 as usize].term = Term::Br(join);

    // The reciprocal, a little low.
    let mut at = At { f, b: slow };
    let df = at.op(Op::Conv(ConvOp::UToF, ud), Ty::F32);
    let one = at.op(Op::Const(u64::from(1.0f32.to_bits())), Ty::F32);
    let rcp = at.op(Op::Bin(BinOp::FDiv, one, df), Ty::F32);
    let low = 1.0f32 - 2f32.powi(-18);
    let low = at.op(Op::Const(u64::from(low.to_bits())), Ty::F32);
    let rcp = at.op(Op::Bin(BinOp::FMul, rcp, low), Ty::F32);
    let q0 = at.k(0);
    at.f.blocks[slow.0 as usize].term = Term::Br(lp);

    // Rounds of estimated digits.
    let mut at = At { f, b: lp };
    let q = at.op(Op::Phi(Vec::new()), Ty::I64);
    let r = at.op(Op::Phi(Vec::new()), Ty::I64);
    let rf = at.op(Op::Conv(ConvOp::UToF, r), Ty::F32);
    let ef = at.op(Op::Bin(BinOp::FMul, rf, rcp), Ty::F32);
    let e = at.op(Op::Conv(ConvOp::FToU, ef), Ty::I64);
    let q1 = at.bin(BinOp::Add, q, e);
    let ed = at.bin(BinOp::Mul, e, ud);
    let r1 = at.bin(BinOp::Sub, r, ed);
    let zero = at.k(0);
    let moved = at.cmp(CmpOp::Ne, e, zero);
    let ge = at.cmp(CmpOp::Ge { signed: false }, r1, ud);
    let more = at.op(Op::Bin(BinOp::And, moved, ge), Ty::Bool);
    at.f.insts[q.0 as usize].op = Op::Phi(vec![(slow, q0), (lp, q1)]);
    at.f.insts[r.0 as usize].op = Op::Phi(vec![(slow, un), (lp, r1)]);
    at.f.blocks[lp.0 as usize].term = Term::CondBr(more, lp, fix);

    // The last digit, when the estimate stopped at 0 with r >= d.
    let mut at = At { f, b: fix };
    let from_slow = if rem {
        let r2 = at.bin(BinOp::Sub, r1, ud);
        at.select(ge, r2, r1)
    } else {
        let one = at.k(1);
        let q2 = at.bin(BinOp::Add, q1, one);
        at.select(ge, q2, q1)
    };
    at.f.blocks[fix.0 as usize].term = Term::Br(join);

    // The result under the division's own number.
    let phi = vec![(fast, from_fast), (fix, from_slow)];
    let mut placed = Vec::new();
    match sign {
        None => {
            f.insts[v.0 as usize] = Inst {
                op: Op::Phi(phi),
                ty: Ty::I64,
            }
        }
        Some(s) => {
            f.insts.push(Inst {
                op: Op::Phi(phi),
                ty: Ty::I64,
            });
            let p = Value(f.insts.len() as u32 - 1);
            f.insts.push(Inst {
                op: Op::Un(crate::ir::UnOp::Neg, p),
                ty: Ty::I64,
            });
            let m = Value(f.insts.len() as u32 - 1);
            f.insts[v.0 as usize] = Inst {
                op: Op::Select(s, m, p),
                ty: Ty::I64,
            };
            placed.extend([p, m]);
        }
    }
    placed.push(v);
    let tail = &mut f.blocks[join.0 as usize].insts;
    tail.splice(0..0, placed);
}
