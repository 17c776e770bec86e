//! An `or` with a constant whose bits lie in its other operand's known-zero low bits is an
//! add, and the sign or zero extension of such an `or` is the extension plus the constant.
//!
//! LLVM writes `2 * l + 1` as `(l << 1) | 1` (an `or disjoint`). The address arithmetic of
//! `t[2 * l]` and `t[2 * l + 1]` then differs by an `or`, which send coalescing
//! (`isel/coalesce.rs`: a base plus adds, shifts, multiplies and extensions of constants)
//! does not follow, and each access became a message of its own where IGC makes the pair
//! one two-channel message. As adds, with the extension moved inside for global addresses
//! (`sext(x | k)` = `sext(x) + k`: no carry leaves the low bits, so neither a signed nor an
//! unsigned overflow can happen), both are one base four bytes apart.
//!
//! The known-zero low bits: a constant's, a shift left by a constant's count more than its
//! operand's, a product's sum, an add's, or's or xor's least, an and's most, through
//! extensions and truncations.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{BinOp, ConvOp, Function, Inst, Op, Ty, Value};

fn width(ty: Ty) -> Option<u32> {
    ty.int_bits()
}

/// How many low bits of `v` are known to be zero (looking `depth` definitions deep).
fn low_zeros(f: &Function, v: Value, depth: u32) -> u32 {
    let Some(w) = width(f.ty(v)) else {
        return 0;
    };
    if depth == 0 {
        return 0;
    }
    let z = |x: Value| low_zeros(f, x, depth - 1);
    let konst = |x: Value| match f.inst(x).op {
        Op::Const(k) => Some(k),
        _ => None,
    };
    let n = match f.inst(v).op {
        Op::Const(k) => {
            let k = if w == 64 { k } else { k & ((1u64 << w) - 1) };
            k.trailing_zeros()
        }
        Op::Bin(BinOp::Shl, a, b) => match konst(b) {
            Some(k) if k < u64::from(w) => z(a) + k as u32,
            _ => 0,
        },
        Op::Bin(BinOp::Mul, a, b) => z(a) + z(b),
        Op::Bin(BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor, a, b) => z(a).min(z(b)),
        Op::Bin(BinOp::And, a, b) => z(a).max(z(b)),
        Op::Conv(ConvOp::ZExt | ConvOp::SExt | ConvOp::Trunc, a) => z(a),
        _ => 0,
    };
    n.min(w)
}

/// `x | k` with `k` a constant below `2^(known-zero low bits of x)` and of the value's
/// width without its sign bit: (x, the constant's value).
fn disjoint(f: &Function, v: Value) -> Option<(Value, Value)> {
    let Op::Bin(BinOp::Or, a, b) = f.inst(v).op else {
        return None;
    };
    let w = width(f.ty(v))?;
    for (x, c) in [(a, b), (b, a)] {
        if let Op::Const(k) = f.inst(c).op {
            let zeros = low_zeros(f, x, 8);
            if k != 0 && zeros < w && k < (1u64 << zeros) {
                return Some((x, c));
            }
        }
    }
    None
}

pub fn run(f: &mut Function) {
    // The `or`s that are adds, made adds; their constants, by add.
    let mut adds: HashMap<Value, (Value, u64)> = HashMap::default();
    for b in 0..f.blocks.len() {
        for i in 0..f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            if let Some((x, c)) = disjoint(f, v) {
                let Op::Const(k) = f.inst(c).op else {
                    continue;
                };
                f.insts[v.0 as usize].op = Op::Bin(BinOp::Add, x, c);
                adds.insert(v, (x, k));
            }
        }
    }
    if adds.is_empty() {
        return;
    }
    // Their extensions to 64 bits: the extension of `x`, plus the constant.
    let mut map: HashMap<Value, Value> = HashMap::default();
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            let Op::Conv(conv @ (ConvOp::SExt | ConvOp::ZExt), a) = f.inst(v).op else {
                i += 1;
                continue;
            };
            let (Some(&(x, k)), ty) = (adds.get(&a), f.ty(v)) else {
                i += 1;
                continue;
            };
            let mut push = |f: &mut Function, op: Op| {
                f.insts.push(Inst { op, ty });
                let n = Value(f.insts.len() as u32 - 1);
                f.blocks[b].insts.insert(i, n);
                i += 1;
                n
            };
            let ext = push(f, Op::Conv(conv, x));
            let kv = push(f, Op::Const(k));
            let sum = push(f, Op::Bin(BinOp::Add, ext, kv));
            map.insert(v, sum);
            i += 1;
        }
    }
    if !map.is_empty() {
        super::replace_uses(f, &map);
    }
}
