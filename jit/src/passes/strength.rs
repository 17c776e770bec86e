//! Division, remainder and 64-bit multiplication by a constant power of two become shifts
//! and masks. LLVM does this for scalars, but leaves a vector `sdiv <4 x i64> %x, <2^32, ...>`
//! for the target (pyopencl's random-number kernels divide so), and the JIT splits vectors
//! into components: each one would otherwise be `div64`'s expansion (Gen9 has no integer
//! divide for qwords), or for a multiply three 32-bit products.
//!
//! For `w`-bit `x` and `d = 2^k`:
//! - `udiv x, d` → `lshr x, k`; `urem x, d` → `and x, d - 1`;
//! - `sdiv x, d` → `ashr (x + bias), k`, with `bias = lshr(ashr(x, w - 1), w - k)` (d - 1 for
//!   a negative `x`, so that the quotient rounds toward zero, as C's does);
//! - `srem x, d` → `x - ((x + bias) & -d)`;
//! - `mul x, d` → `shl x, k` (32 and 64 bits).
//!
//! `d = 1` is constfold's; a signed divisor of `2^(w-1)` (negative) is left alone.

use crate::ir::{BinOp, Function, Inst, Op, Ty, Value};

fn width(ty: Ty) -> Option<u32> {
    ty.int_bits()
}

/// `k` when `d`, masked to `w` bits, is `2^k` with `0 < k < w`.
fn log2_of(d: u64, w: u32) -> Option<u32> {
    let d = if w == 64 { d } else { d & ((1u64 << w) - 1) };
    let k = d.trailing_zeros();
    (d.is_power_of_two() && k > 0 && k < w).then_some(k)
}

/// Instructions placed in front of position `at` of block `b`.
struct Builder<'f> {
    f: &'f mut Function,
    b: usize,
    at: usize,
    ty: Ty,
}

impl Builder<'_> {
    fn push(&mut self, op: Op) -> Value {
        self.f.insts.push(Inst { op, ty: self.ty });
        let v = Value(self.f.insts.len() as u32 - 1);
        self.f.blocks[self.b].insts.insert(self.at, v);
        self.at += 1;
        v
    }
    fn k(&mut self, k: u64) -> Value {
        self.push(Op::Const(k))
    }
    fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        self.push(Op::Bin(op, a, b))
    }
}

pub fn run(f: &mut Function) {
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            let ty = f.ty(v);
            let Op::Bin(op, mut x, mut d) = f.inst(v).op else {
                i += 1;
                continue;
            };
            // A product's constant may come first.
            if op == BinOp::Mul && matches!(f.inst(x).op, Op::Const(_)) {
                std::mem::swap(&mut x, &mut d);
            }
            let (Some(w), Op::Const(dk)) = (width(ty), &f.inst(d).op) else {
                i += 1;
                continue;
            };
            let Some(k) = log2_of(*dk, w) else {
                i += 1;
                continue;
            };
            let mut at = Builder {
                f: &mut *f,
                b,
                at: i,
                ty,
            };
            let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let new = match op {
                BinOp::Div { signed: false } => {
                    let kk = at.k(u64::from(k));
                    Some(Op::Bin(BinOp::LShr, x, kk))
                }
                BinOp::Rem { signed: false } => {
                    let m = at.k((1u64 << k) - 1);
                    Some(Op::Bin(BinOp::And, x, m))
                }
                // 32- and 64-bit products (a counter unrolled into a constant leaves
                // `mul x, 4` for the code after `unroll`, which runs this pass again).
                BinOp::Mul if w >= 32 => {
                    let kk = at.k(u64::from(k));
                    Some(Op::Bin(BinOp::Shl, x, kk))
                }
                BinOp::Div { signed: true } | BinOp::Rem { signed: true } if k < w - 1 => {
                    let top = at.k(u64::from(w - 1));
                    let sign = at.bin(BinOp::AShr, x, top);
                    let rest = at.k(u64::from(w - k));
                    let bias = at.bin(BinOp::LShr, sign, rest);
                    let biased = at.bin(BinOp::Add, x, bias);
                    if op == (BinOp::Div { signed: true }) {
                        let kk = at.k(u64::from(k));
                        Some(Op::Bin(BinOp::AShr, biased, kk))
                    } else {
                        let low = at.k(!((1u64 << k) - 1) & mask);
                        let rounded = at.bin(BinOp::And, biased, low);
                        Some(Op::Bin(BinOp::Sub, x, rounded))
                    }
                }
                _ => None,
            };
            let placed = at.at;
            if let Some(new) = new {
                f.insts[v.0 as usize].op = new;
            }
            i = placed + 1;
        }
    }
}
