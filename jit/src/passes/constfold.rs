//! Constant folding and integer identities: what inlining leaves behind (a library function
//! called with a constant argument, a vector component picked by a constant index, a select
//! on a constant condition). Integer and boolean operations on constants become constants;
//! `x + 0`, `p + 0` (addresses), `x * 1`, `x & -1`, `x | 0`, `x ^ 0`, shifts by 0 and selects on a constant or with
//! equal arms become their operand; `x * 0` and `x & 0` become 0. A mask that keeps every bit
//! its operand may have set goes (`(x & 0xff) & 0xffff`, a byte load's `& 0xffff`), as does
//! one that keeps every byte a narrow store writes (`store(p, x & 0xffff, bytes 2)`). Float operations are left
//! alone: their results depend on cr0's rounding and denormal modes, set at run time.
//! Division and remainder are not folded (a zero divisor is the kernel's to meet).

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{BinOp, CmpOp, ConvOp, Function, Op, Ty, UnOp, Value};

/// A type's width in bits, for the integer and boolean types folded here.
fn width(ty: Ty) -> Option<u32> {
    Some(match ty {
        Ty::Bool | Ty::I32 => 32,
        Ty::I8 => 8,
        Ty::I16 => 16,
        Ty::I64 => 64,
        _ => return None,
    })
}

fn mask(bits: u64, w: u32) -> u64 {
    if w == 64 {
        bits
    } else {
        bits & ((1u64 << w) - 1)
    }
}

fn sext(bits: u64, w: u32) -> i64 {
    let s = 64 - w;
    ((bits << s) as i64) >> s
}

fn fold_bin(op: BinOp, a: u64, b: u64, w: u32) -> Option<u64> {
    let (sa, sb) = (sext(a, w), sext(b, w));
    let sh = (b & u64::from(w - 1)) as u32;
    Some(mask(
        match op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Shl => a << sh,
            BinOp::LShr => mask(a, w) >> sh,
            BinOp::AShr => (sa >> sh) as u64,
            BinOp::Min { signed: true } => sa.min(sb) as u64,
            BinOp::Max { signed: true } => sa.max(sb) as u64,
            BinOp::Min { signed: false } => mask(a, w).min(mask(b, w)),
            BinOp::Max { signed: false } => mask(a, w).max(mask(b, w)),
            _ => return None,
        },
        w,
    ))
}

fn fold_cmp(op: CmpOp, a: u64, b: u64, w: u32) -> Option<bool> {
    let (sa, sb) = (sext(a, w), sext(b, w));
    let (ua, ub) = (mask(a, w), mask(b, w));
    Some(match op {
        CmpOp::Eq => ua == ub,
        CmpOp::Ne => ua != ub,
        CmpOp::Lt { signed: true } => sa < sb,
        CmpOp::Le { signed: true } => sa <= sb,
        CmpOp::Gt { signed: true } => sa > sb,
        CmpOp::Ge { signed: true } => sa >= sb,
        CmpOp::Lt { signed: false } => ua < ub,
        CmpOp::Le { signed: false } => ua <= ub,
        CmpOp::Gt { signed: false } => ua > ub,
        CmpOp::Ge { signed: false } => ua >= ub,
        _ => return None,
    })
}

/// What `v` becomes: a constant, another value, or nothing new.
pub(crate) enum Fold {
    Const(u64),
    Same(Value),
}

fn fold(f: &Function, v: Value) -> Option<Fold> {
    fold_with(f, v, |x: Value| match f.inst(x).op {
        Op::Const(k) => Some(k),
        _ => None,
    })
}

/// What `v` becomes when `konst` gives the constants its operands are known to hold: the
/// folding rules of this pass, also what `unroll` uses to follow a loop's iterations
/// (the values of one iteration are constants there that are not `Op::Const` yet).
pub(crate) fn fold_with(
    f: &Function,
    v: Value,
    konst: impl Fn(Value) -> Option<u64>,
) -> Option<Fold> {
    let ty = f.ty(v);
    match f.inst(v).op {
        Op::Select(c, a, b) => {
            if a == b {
                return Some(Fold::Same(a));
            }
            let k = konst(c)?;
            Some(Fold::Same(if k != 0 { a } else { b }))
        }
        Op::Bin(op, a, b) => {
            let w = width(ty)?;
            if let (Some(x), Some(y)) = (konst(a), konst(b)) {
                return fold_bin(op, x, y, w).map(Fold::Const);
            }
            let ones = mask(u64::MAX, w);
            let (ka, kb) = (konst(a).map(|k| mask(k, w)), konst(b).map(|k| mask(k, w)));
            match (op, ka, kb) {
                (BinOp::Add | BinOp::Or | BinOp::Xor, _, Some(0))
                | (BinOp::Sub | BinOp::Shl | BinOp::LShr | BinOp::AShr, _, Some(0)) => {
                    Some(Fold::Same(a))
                }
                (BinOp::Add | BinOp::Or | BinOp::Xor, Some(0), _) => Some(Fold::Same(b)),
                (BinOp::Mul, _, Some(1)) => Some(Fold::Same(a)),
                (BinOp::Mul, Some(1), _) => Some(Fold::Same(b)),
                (BinOp::Mul | BinOp::And, _, Some(0)) | (BinOp::Mul | BinOp::And, Some(0), _) => {
                    Some(Fold::Const(0))
                }
                (BinOp::And, _, Some(k)) if k == ones => Some(Fold::Same(a)),
                (BinOp::And, Some(k), _) if k == ones => Some(Fold::Same(b)),
                // A mask that keeps every bit the other operand can have set.
                (BinOp::And, _, Some(k)) if may_be_set(f, a, w) & !k == 0 => Some(Fold::Same(a)),
                (BinOp::And, Some(k), _) if may_be_set(f, b, w) & !k == 0 => Some(Fold::Same(b)),
                _ => None,
            }
        }
        // An address plus nothing (a table read at index 0 once a loop is unrolled).
        Op::PtrAdd(a, b) if konst(b) == Some(0) => Some(Fold::Same(a)),
        Op::Un(UnOp::Not, a) => Some(Fold::Const(mask(!konst(a)?, width(ty)?))),
        Op::Un(UnOp::Neg, a) => Some(Fold::Const(mask(konst(a)?.wrapping_neg(), width(ty)?))),
        Op::Cmp(op, a, b) => {
            let w = width(f.ty(a))?;
            // A boolean made an integer and tested again (`work_group_any(x > t)`: clang's
            // int predicate, SPIR-V's bool): `select(c, k1, k2) != k2` with k1 != k2 is `c`,
            // as is `== k1`.
            if let (&Op::Select(c, t, e), Some(k)) = (&f.inst(a).op, konst(b)) {
                if let (Some(kt), Some(ke)) = (konst(t), konst(e)) {
                    let (kt, ke, k) = (mask(kt, w), mask(ke, w), mask(k, w));
                    let same = match op {
                        CmpOp::Ne => kt != k && ke == k,
                        CmpOp::Eq => kt == k && ke != k,
                        _ => false,
                    };
                    if same && f.ty(c) == Ty::Bool {
                        return Some(Fold::Same(c));
                    }
                }
            }
            let r = fold_cmp(op, konst(a)?, konst(b)?, w)?;
            // Booleans are all ones or zero.
            Some(Fold::Const(if r { 0xffff_ffff } else { 0 }))
        }
        Op::Conv(op, a) => {
            let (from, k) = (f.ty(a), konst(a)?);
            let (wf, wt) = (width(from)?, width(ty)?);
            if from == Ty::Bool {
                return None;
            }
            Some(Fold::Const(match op {
                ConvOp::ZExt => mask(k, wf),
                ConvOp::SExt => mask(sext(k, wf) as u64, wt),
                ConvOp::Trunc => mask(k, wt),
                _ => return None,
            }))
        }
        _ => None,
    }
}

/// The bits of `x` (of a `w`-bit type) that may be set, as far as its own operation tells: a
/// byte or word load carries its value zero-extended (`Op::Load`), a mask keeps only its
/// bits; anything else may set all.
fn may_be_set(f: &Function, x: Value, w: u32) -> u64 {
    let ones = mask(u64::MAX, w);
    match f.inst(x).op {
        Op::Load {
            bytes: b @ (1 | 2), ..
        } if w == 32 => (1u64 << (8 * b)) - 1,
        Op::Bin(BinOp::And, p, q) => match (&f.inst(p).op, &f.inst(q).op) {
            (_, Op::Const(k)) | (Op::Const(k), _) => mask(*k, w),
            _ => ones,
        },
        _ => ones,
    }
}

/// A byte or word store writes the value's low bytes only: a mask of it that keeps those
/// is not needed (`store(p, x & 0xffff, bytes 2)` stores `x`).
fn unmasked_stores(f: &mut Function) -> bool {
    let mut changed = false;
    for b in 0..f.blocks.len() {
        for i in 0..f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            let Op::Store { value, bytes, .. } = f.inst(v).op else {
                continue;
            };
            if bytes >= 4 || f.ty(value) != Ty::I32 {
                continue;
            }
            let Op::Bin(BinOp::And, x, m) = f.inst(value).op else {
                continue;
            };
            let Op::Const(k) = f.inst(m).op else {
                continue;
            };
            let low = (1u64 << (8 * bytes)) - 1;
            if low & !k == 0 {
                if let Op::Store { value, .. } = &mut f.insts[v.0 as usize].op {
                    *value = x;
                }
                changed = true;
            }
        }
    }
    changed
}

pub fn run(f: &mut Function) {
    unmasked_stores(f);
    loop {
        let mut replace: HashMap<Value, Value> = HashMap::default();
        let mut changed = false;
        for b in 0..f.blocks.len() {
            for i in 0..f.blocks[b].insts.len() {
                let v = f.blocks[b].insts[i];
                match fold(f, v) {
                    Some(Fold::Const(k)) => {
                        f.insts[v.0 as usize].op = Op::Const(k);
                        changed = true;
                    }
                    Some(Fold::Same(x)) if x != v => {
                        replace.insert(v, x);
                    }
                    _ => {}
                }
            }
        }
        if !replace.is_empty() {
            // Every use now reads the replacement: the replaced values go.
            super::replace_uses(f, &replace);
            for b in &mut f.blocks {
                b.insts.retain(|v| !replace.contains_key(v));
            }
            changed = true;
        }
        if !changed {
            return;
        }
    }
}
