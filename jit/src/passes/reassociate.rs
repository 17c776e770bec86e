//! A sum's constant moved out through the shift, product or sum that reads it:
//!
//! - `(x + c) << k` → `(x << k) + (c << k)`,
//! - `(x + c) * k` → `x * k + c * k`,
//! - `(x + c) + k` → `x + (c + k)`,
//!
//! for 32- and 64-bit integers, where the inner sum has no other reader (so the count of
//! instructions does not grow). Each is an identity of wrapping arithmetic. What it is for:
//! unrolled code indexes `t[l - d]` for several constants `d`, each `((l + -d) << 2) +
//! base`; moved out, every index is the one `l << 2` (which `cse` then shares) plus a
//! constant, one add an access, as IGC's code has. Runs after `unroll` and `strength`
//! (whose shifts it sees), before `cse`.

use crate::ir::{BinOp, Function, Inst, Op, Ty, Value};

pub fn run(f: &mut Function) {
    let mut uses = f.use_counts();
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            i += 1;
            let ty = f.ty(v);
            let w = match ty {
                Ty::I32 => 32,
                Ty::I64 => 64,
                _ => continue,
            };
            let Op::Bin(op @ (BinOp::Add | BinOp::Mul | BinOp::Shl), p, q) = f.inst(v).op else {
                continue;
            };
            let konst = |v: Value| match f.inst(v).op {
                Op::Const(c) => Some(c),
                _ => None,
            };
            // The constant on the right (a sum's or product's may come first).
            let (sum, kv, k) = match (konst(p), konst(q)) {
                (None, Some(k)) => (p, q, k),
                (Some(k), None) if op != BinOp::Shl => (q, p, k),
                _ => continue,
            };
            let Op::Bin(BinOp::Add, x, y) = f.inst(sum).op else {
                continue;
            };
            let (x, c) = match (konst(x), konst(y)) {
                (None, Some(c)) => (x, c),
                (Some(c), None) => (y, c),
                _ => continue,
            };
            if uses[sum.0 as usize] != 1 || f.ty(sum) != ty {
                continue;
            }
            let mask = |bits: u64| if w == 64 { bits } else { bits & 0xffff_ffff };
            let (scaled, c) = match op {
                BinOp::Add => (x, mask(c.wrapping_add(k))),
                BinOp::Mul => {
                    let m = place(f, b, &mut i, Op::Bin(BinOp::Mul, x, kv), ty);
                    (m, mask(c.wrapping_mul(k)))
                }
                _ => {
                    let s = (k & (w - 1)) as u32;
                    let m = place(f, b, &mut i, Op::Bin(BinOp::Shl, x, kv), ty);
                    (m, mask(c << s))
                }
            };
            let c = place(f, b, &mut i, Op::Const(c), ty);
            f.insts[v.0 as usize].op = Op::Bin(BinOp::Add, scaled, c);
            uses.resize(f.insts.len(), 0);
            uses[sum.0 as usize] -= 1;
            uses[x.0 as usize] += 1;
            uses[scaled.0 as usize] += 1;
            uses[c.0 as usize] += 1;
        }
    }
}

/// A new instruction in front of the one just visited (position `*i - 1` of block `b`).
fn place(f: &mut Function, b: usize, i: &mut usize, op: Op, ty: Ty) -> Value {
    f.insts.push(Inst { op, ty });
    let v = Value(f.insts.len() as u32 - 1);
    f.blocks[b].insts.insert(*i - 1, v);
    *i += 1;
    v
}
