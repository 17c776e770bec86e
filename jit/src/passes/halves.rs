//! Half-precision values carried as floats (docs/jit.md, "Half"): the front end converts a
//! half read from memory or an argument bit for bit (`builtins::B::half_in`: the hardware's
//! conversion quiets a signalling NaN, so a NaN's bits are rebuilt by hand and selected), and
//! a half written back the same way (`half_out`), so that a half moved through a kernel keeps
//! its 16 bits. Where nothing can observe those bits the exact forms are dropped:
//!
//! - `half_in(bits)` read only by arithmetic (add, subtract, multiply, divide, mad, compares,
//!   the rounding back to half): arithmetic quiets a NaN whichever NaN it was given, so the
//!   hardware's conversion is enough (`select(nan, rebuilt, halftofloat bits)` →
//!   `halftofloat bits`);
//! - `half_out(v)` of a value that arithmetic just rounded to half (`v =
//!   halftofloat(floattohalf y)`): its half is `floattohalf y` itself, a quiet NaN if any
//!   (`select(nan, rebuilt, floattohalf v)` → `floattohalf y`); likewise of an F16 that
//!   arithmetic computed, widened (`v = fconv x16`, the front end's native `mad` and `fma`
//!   of halves): its half is `halftobits x16`.
//!
//! A half loaded and stored unchanged, or passed to `as_short`, keeps the exact forms.

use crate::ir::{BinOp, CmpOp, ConvOp, Function, Op, Ty, UnOp, Value};

pub fn run(f: &mut Function) {
    // Most kernels have no halves: nothing to look at.
    let halves = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|v| match f.inst(*v).op {
            Op::Un(UnOp::HalfToFloat, _) => true,
            Op::Conv(ConvOp::FConv, x) => f.ty(x) == Ty::F16,
            _ => false,
        });
    if !halves {
        return;
    }
    // Who reads each value (branch conditions are Bools, never the floats below); a
    // template's results are read after it, by anything.
    let mut readers: Vec<Vec<Value>> = vec![Vec::new(); f.insts.len()];
    for b in &f.blocks {
        for &v in &b.insts {
            for o in f.inst(v).op.operands() {
                readers[o.0 as usize].push(v);
            }
        }
    }
    let mut map = rustc_hash::FxHashMap::default();
    let selects: Vec<Value> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .copied()
        .filter(|&v| matches!(f.inst(v).op, Op::Select(..)))
        .collect();
    for v in selects {
        let Op::Select(c, _, plain) = f.inst(v).op else {
            continue;
        };
        if is_half_in(f, c, plain) {
            let read = &readers[v.0 as usize];
            let arithmetic = !read.is_empty()
                && !f.live_out.contains(&v)
                && read.iter().all(|r| arithmetic_reader(f, *r));
            if arithmetic {
                map.insert(v, plain);
            }
        } else if let Some(rounded) = half_out_of(f, c, plain) {
            map.insert(v, rounded);
        }
    }
    if !map.is_empty() {
        super::replace_uses(f, &map);
    }
}

fn konst(f: &Function, v: Value) -> Option<u64> {
    match f.inst(v).op {
        Op::Const(k) => Some(k),
        _ => None,
    }
}

/// `x` when `c` is the NaN test `(x & mask) >u inf` (of a half's bits or a float's).
fn nan_test(f: &Function, c: Value, mask: u64, inf: u64) -> Option<Value> {
    let Op::Cmp(CmpOp::Gt { signed: false }, mag, k) = f.inst(c).op else {
        return None;
    };
    let Op::Bin(BinOp::And, x, m) = f.inst(mag).op else {
        return None;
    };
    (konst(f, m) == Some(mask) && konst(f, k) == Some(inf)).then_some(x)
}

/// Whether `select(c, _, plain)` is `half_in(bits)`: `plain = halftofloat bits`, `c =
/// (bits & 0x7fff) >u 0x7c00`.
pub(crate) fn is_half_in(f: &Function, c: Value, plain: Value) -> bool {
    let Op::Un(UnOp::HalfToFloat, bits) = f.inst(plain).op else {
        return false;
    };
    nan_test(f, c, 0x7fff, 0x7c00) == Some(bits)
}

/// The half's bits when `select(c, _, h)` is `half_out(v)` (`h = floattohalf v`, `c =
/// (bits(v) & 0x7fffffff) >u 0x7f800000`) of a value that arithmetic just rounded to half:
/// - `v = halftofloat(floattohalf y)`: `floattohalf y`;
/// - `v = fconv x16`, `x16` an F16 add, subtract, multiply, divide or mad (the front end's
///   native `mad` and `fma` of halves): `halftobits x16`, made before the select (a quiet
///   NaN's payload survives the widening, so the exact form would give these same bits).
fn half_out_of(f: &mut Function, c: Value, h: Value) -> Option<Value> {
    let Op::Un(UnOp::FloatToHalf, v) = f.inst(h).op else {
        return None;
    };
    let x = nan_test(f, c, 0x7fff_ffff, 0x7f80_0000)?;
    if f.inst(x).op != Op::Conv(ConvOp::Bitcast, v) {
        return None;
    }
    match f.inst(v).op {
        Op::Un(UnOp::HalfToFloat, rounded) => {
            matches!(f.inst(rounded).op, Op::Un(UnOp::FloatToHalf, _)).then_some(rounded)
        }
        Op::Conv(ConvOp::FConv, x16) if f.ty(x16) == Ty::F16 => {
            let arithmetic = match f.inst(x16).op {
                Op::Bin(op, ..) => {
                    matches!(op, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv)
                }
                Op::Mad(..) => true,
                _ => false,
            };
            // `h` is computed where the select reads it: its bits can be made there.
            arithmetic.then(|| {
                f.insts[h.0 as usize].op = Op::Un(UnOp::HalfToBits, x16);
                h
            })
        }
        _ => None,
    }
}

/// A reader that cannot tell one NaN from another: float arithmetic, a compare, the
/// rounding to half.
fn arithmetic_reader(f: &Function, r: Value) -> bool {
    match f.inst(r).op {
        Op::Bin(op, _, _) => matches!(op, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv),
        Op::Mad(..) => f.ty(r).is_float(),
        Op::Cmp(..) => true,
        Op::Un(UnOp::FloatToHalf, _) => true,
        _ => false,
    }
}
