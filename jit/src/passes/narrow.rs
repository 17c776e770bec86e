//! 64-bit arithmetic whose result is only read in 32 bits, done in 32 bits. LLVM leaves
//! `(ulong)a * b` with both halves used (`mul_hi` written in C, Random123's Philox, hashes):
//! `trunc(mul(zext a, zext b))` and `trunc(lshr(mul(zext a, zext b), 32))`. Gen9 has no
//! qword multiply, so the 64-bit forms cost a widening multiply, cross products, a 64-bit
//! shift and moves between strided halves; the 32-bit forms are one `mul`, and a `mul` into a
//! qword plus a `mov` of its high dwords (`BinOp::MulHi`).
//!
//! - `trunc.i32(op.i64(x, y))` → `op.i32(x', y')` for add, sub, mul, and, or, xor (the low 32
//!   bits of the result depend on the low 32 bits of the operands only), and for shl by a
//!   constant below 32, where each operand is a 32-bit value extended or a constant, and
//!   for lshr of a zero-extended value (ashr of a sign-extended one) by a constant below 32;
//! - `trunc.i32(lshr|ashr.i64(mul.i64(ext a, ext b), 32))` → `mulhi.i32(a, b)`, unsigned when
//!   both operands are zero-extended (or constants below 2^32), signed when both are
//!   sign-extended (or constants in i32's range).
//!
//! - the offset of a `__local` address read only as an address
//!   (`analysis::addresses`): `ptradd(p, x)` → `ptradd(p, zext(x'))`, with `x'` the low
//!   32 bits of `x` computed in 32 bits, through any depth of add, sub, mul, and, or, xor,
//!   shl by a constant and sign-extension written as shifts, down to 32-bit values extended
//!   and constants (shared local memory takes 32-bit offsets: OpenCL C's `size_t` indexing
//!   of `__local` arrays otherwise costs a sign extension, a shift and an add in qwords,
//!   each two instructions at SIMD16, and a pack of the low dwords at every access).
//!
//! - likewise the offset of a buffer address that goes through its argument's binding-table
//!   surface (`analysis::addresses::buffer_addresses`: surfaces take 32-bit offsets);
//!
//! - an extension in place, `ashr|lshr(shl(x, 32), 32)`, of an `x` whose low 32 bits can be
//!   computed in 32 bits (as for `__local` offsets) → the extension of those;
//! - `trunc(zext(a))` and `trunc(sext(a))` → `a`.
//!
//! The 64-bit values become dead where nothing else reads them; `dce` removes them.

use crate::ir::{BinOp, ConvOp, Function, Op, Ty, Value};

/// How a 64-bit operand holds a 32-bit value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Narrow {
    /// Zero-extended from this i32 value.
    Zext(Value),
    /// Sign-extended from this i32 value.
    Sext(Value),
    /// A constant.
    Const(u64),
}

fn narrow_of(f: &Function, x: Value) -> Option<Narrow> {
    match f.inst(x).op {
        Op::Conv(ConvOp::ZExt, a) if f.ty(a) == Ty::I32 => Some(Narrow::Zext(a)),
        Op::Conv(ConvOp::SExt, a) if f.ty(a) == Ty::I32 => Some(Narrow::Sext(a)),
        Op::Const(k) => Some(Narrow::Const(k)),
        _ => None,
    }
}

/// The rewrite of one `trunc`, before it is applied: the new operation and the constants
/// it needs (created in front of it).
enum Rewrite {
    Bin(BinOp, Narrow, Narrow),
}

fn rewrite_of(f: &Function, v: Value) -> Option<Rewrite> {
    let Op::Conv(ConvOp::Trunc, p) = f.inst(v).op else {
        return None;
    };
    if f.ty(v) != Ty::I32 || f.ty(p) != Ty::I64 {
        return None;
    }
    let Op::Bin(op, x, y) = f.inst(p).op else {
        return None;
    };
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor => {
            Some(Rewrite::Bin(op, narrow_of(f, x)?, narrow_of(f, y)?))
        }
        BinOp::Shl => match narrow_of(f, y)? {
            Narrow::Const(k) if k < 32 => {
                Some(Rewrite::Bin(op, narrow_of(f, x)?, Narrow::Const(k)))
            }
            _ => None,
        },
        BinOp::LShr | BinOp::AShr => {
            // A shift below 32 of a value extended the way the shift fills: its low 32 bits
            // are the 32-bit shift's (`(size_t)n / 2` read as an int).
            if let Op::Const(k) = f.inst(y).op {
                match (op, narrow_of(f, x)) {
                    (BinOp::LShr, Some(n @ Narrow::Zext(_)))
                    | (BinOp::AShr, Some(n @ Narrow::Sext(_)))
                        if k < 32 =>
                    {
                        return Some(Rewrite::Bin(op, n, Narrow::Const(k)));
                    }
                    _ => {}
                }
            }
            if f.inst(y).op != Op::Const(32) {
                return None;
            }
            let Op::Bin(BinOp::Mul, a, b) = f.inst(x).op else {
                return None;
            };
            let (a, b) = (narrow_of(f, a)?, narrow_of(f, b)?);
            let fits_unsigned = |n: Narrow| match n {
                Narrow::Zext(_) => true,
                Narrow::Const(k) => k <= u64::from(u32::MAX),
                Narrow::Sext(_) => false,
            };
            let fits_signed = |n: Narrow| match n {
                Narrow::Sext(_) => true,
                Narrow::Const(k) => {
                    (k as i64) >= i64::from(i32::MIN) && (k as i64) <= i64::from(i32::MAX)
                }
                Narrow::Zext(_) => false,
            };
            // Two constants are constfold's; one extended operand decides the signedness.
            let extended = |n: Narrow| !matches!(n, Narrow::Const(_));
            if !extended(a) && !extended(b) {
                return None;
            }
            if fits_unsigned(a) && fits_unsigned(b) {
                Some(Rewrite::Bin(BinOp::MulHi { signed: false }, a, b))
            } else if fits_signed(a) && fits_signed(b) {
                Some(Rewrite::Bin(BinOp::MulHi { signed: true }, a, b))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// How deep `low32` follows an offset's operations.
const LOW32_DEPTH: u32 = 8;

/// Whether the low 32 bits of 64-bit `x` can be computed in 32 bits from 32-bit values and
/// constants (see `low32`).
fn has_low32(f: &Function, x: Value, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    match f.inst(x).op {
        Op::Conv(ConvOp::ZExt | ConvOp::SExt, a) => f.ty(a) == Ty::I32,
        Op::Const(_) => true,
        Op::Bin(
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor,
            a,
            b,
        ) => has_low32(f, a, depth - 1) && has_low32(f, b, depth - 1),
        Op::Bin(BinOp::Shl, a, k) => {
            matches!(f.inst(k).op, Op::Const(c) if c < 32) && has_low32(f, a, depth - 1)
        }
        Op::Bin(BinOp::AShr | BinOp::LShr, s, k) => {
            sign_extension_of(f, s, k).is_some_and(|(a, _)| has_low32(f, a, depth - 1))
        }
        _ => false,
    }
}

/// `(a, c)` when `s >> k` is `((a << 32) + (c << 32)) >> 32` (LLVM's sign- or
/// zero-extension in place, of `a + c` when a constant was folded into it: `s[l + 64]`
/// unrolled), whose low 32 bits are `a + c`'s.
fn sign_extension_of(f: &Function, s: Value, k: Value) -> Option<(Value, u64)> {
    if f.inst(k).op != Op::Const(32) {
        return None;
    }
    let shifted = |x: Value| match f.inst(x).op {
        Op::Bin(BinOp::Shl, a, k2) if f.inst(k2).op == Op::Const(32) => Some(a),
        _ => None,
    };
    if let Some(a) = shifted(s) {
        return Some((a, 0));
    }
    let Op::Bin(BinOp::Add, x, y) = f.inst(s).op else {
        return None;
    };
    let (a, c) = match (shifted(x), &f.inst(y).op, shifted(y), &f.inst(x).op) {
        (Some(a), Op::Const(c), _, _) | (_, _, Some(a), Op::Const(c)) => (a, *c),
        _ => return None,
    };
    (c & 0xffff_ffff == 0).then_some((a, c >> 32))
}

/// The low 32 bits of `x` (for which `has_low32` holds) as new 32-bit instructions placed at
/// `*at` in block `b`.
fn low32(f: &mut Function, x: Value, b: usize, at: &mut usize) -> Value {
    let place = |f: &mut Function, op: Op, at: &mut usize| {
        f.insts.push(crate::ir::Inst { op, ty: Ty::I32 });
        let v = Value(f.insts.len() as u32 - 1);
        f.blocks[b].insts.insert(*at, v);
        *at += 1;
        v
    };
    match f.inst(x).op.clone() {
        Op::Conv(_, a) => a,
        Op::Const(k) => place(f, Op::Const(k & 0xffff_ffff), at),
        Op::Bin(BinOp::AShr | BinOp::LShr, s, k) => {
            let (a, c) = sign_extension_of(f, s, k).unwrap_or((s, 0));
            let a = low32(f, a, b, at);
            if c == 0 {
                a
            } else {
                let c = place(f, Op::Const(c & 0xffff_ffff), at);
                place(f, Op::Bin(BinOp::Add, a, c), at)
            }
        }
        Op::Bin(op, a, c) => {
            let a = low32(f, a, b, at);
            let c = low32(f, c, b, at);
            place(f, Op::Bin(op, a, c), at)
        }
        _ => x,
    }
}

/// `trunc.i32(zext|sext.i64(a))` is `a` (a `size_t` built-in read as an `int`:
/// `int l = get_local_id(0)`).
fn round_trips(f: &mut Function) {
    let mut map = rustc_hash::FxHashMap::default();
    for b in &f.blocks {
        for &v in &b.insts {
            if let Op::Conv(ConvOp::Trunc, p) = f.inst(v).op {
                if let Op::Conv(ConvOp::ZExt | ConvOp::SExt, a) = f.inst(p).op {
                    if f.ty(a) == f.ty(v) {
                        map.insert(v, a);
                    }
                }
            }
        }
    }
    if !map.is_empty() {
        super::replace_uses(f, &map);
    }
}

/// The offsets of `__local` addresses read only as addresses, and of buffer addresses that
/// go through their argument's surface (`analysis::addresses::buffer_addresses`), in
/// 32 bits.
fn slm_offsets(f: &mut Function) {
    let mut only = crate::analysis::addresses::address_only(f);
    only.extend(crate::analysis::addresses::buffer_addresses(f).into_keys());
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            let Op::PtrAdd(p, x) = f.inst(v).op else {
                i += 1;
                continue;
            };
            let extended = matches!(f.inst(x).op, Op::Conv(ConvOp::ZExt | ConvOp::SExt, a) if f.ty(a) == Ty::I32);
            if !only.contains(&v) || extended || !has_low32(f, x, LOW32_DEPTH) {
                i += 1;
                continue;
            }
            let mut at = i;
            let lo = low32(f, x, b, &mut at);
            f.insts.push(crate::ir::Inst {
                op: Op::Conv(ConvOp::ZExt, lo),
                ty: Ty::I64,
            });
            let wide = Value(f.insts.len() as u32 - 1);
            f.blocks[b].insts.insert(at, wide);
            f.insts[v.0 as usize].op = Op::PtrAdd(p, wide);
            i = at + 2;
        }
    }
}

/// LLVM's extensions in place, `ashr|lshr(shl(x, 32), 32)`, of an `x` whose low 32 bits
/// `low32` computes in 32 bits: the extension of those (`out[y * w + x]` indexed with
/// `nsw` arithmetic widened to 64 bits, whose 64-bit product alone is six instructions).
fn extensions_in_place(f: &mut Function) {
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            let kind = match f.inst(v).op {
                Op::Bin(BinOp::AShr, s, k) if sign_extension_of(f, s, k).is_some() => ConvOp::SExt,
                Op::Bin(BinOp::LShr, s, k) if sign_extension_of(f, s, k).is_some() => ConvOp::ZExt,
                _ => {
                    i += 1;
                    continue;
                }
            };
            if f.ty(v) != Ty::I64 || !has_low32(f, v, LOW32_DEPTH) {
                i += 1;
                continue;
            }
            let mut at = i;
            let lo = low32(f, v, b, &mut at);
            f.insts[v.0 as usize].op = Op::Conv(kind, lo);
            i = at + 1;
        }
    }
}

pub fn run(f: &mut Function) {
    slm_offsets(f);
    extensions_in_place(f);
    round_trips(f);
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            let Some(Rewrite::Bin(op, x, y)) = rewrite_of(f, v) else {
                i += 1;
                continue;
            };
            // Constants go in front of the rewritten instruction, in its block.
            let mut operand = |n: Narrow, f: &mut Function| match n {
                Narrow::Zext(a) | Narrow::Sext(a) => a,
                Narrow::Const(k) => {
                    f.insts.push(crate::ir::Inst {
                        op: Op::Const(k & 0xffff_ffff),
                        ty: Ty::I32,
                    });
                    let c = Value(f.insts.len() as u32 - 1);
                    f.blocks[b].insts.insert(i, c);
                    i += 1;
                    c
                }
            };
            let (x, y) = (operand(x, f), operand(y, f));
            f.insts[v.0 as usize].op = Op::Bin(op, x, y);
            i += 1;
        }
    }
}
