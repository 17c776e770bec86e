//! The IR verifier: what every pass may assume and must leave behind. Run after each
//! pass in debug builds, in tests and with `GENCL_VERIFY_IR=1` (`passes::run`).
//!
//! - every reachable block ends in a terminator whose targets exist;
//! - every operand names an instruction that is placed in a block, and (phis aside)
//!   is defined before its use: earlier in the same block or in a dominating block;
//! - phis stand at the head of their block, with exactly one incoming value per
//!   predecessor, each available at the end of that predecessor;
//! - operand types agree with the operation (integer, float, bool, pointer);
//! - the live-out values are available at every return.

use super::*;
use crate::analysis::Cfg;

pub fn verify(f: &Function) -> Result<(), String> {
    let n = f.blocks.len();
    if n == 0 {
        return Err("no blocks".into());
    }
    for (b, bd) in f.blocks.iter().enumerate() {
        for t in f.successors(Block(b as u32)) {
            if t.0 as usize >= n {
                return Err(format!("bb{b} branches to {t}, which does not exist"));
            }
        }
        if let Term::CondBr(c, _, _) = bd.term {
            if c.0 as usize >= f.insts.len() || f.ty(c) != Ty::Bool {
                return Err(format!("bb{b}: branch condition {c} is not a bool"));
            }
        }
    }
    let cfg = Cfg::new(f);
    let reachable = |b: usize| cfg.rpo[b] != u32::MAX;
    // Where each value is placed: (block, position).
    let mut at = vec![None; f.insts.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        for (i, v) in bd.insts.iter().enumerate() {
            let slot = at
                .get_mut(v.0 as usize)
                .ok_or_else(|| format!("bb{b} lists {v}, which does not exist"))?;
            if slot.is_some() {
                return Err(format!("{v} is placed twice"));
            }
            *slot = Some((b, i));
        }
    }
    let available = |v: Value, b: usize, pos: usize| -> Result<(), String> {
        match at.get(v.0 as usize).copied().flatten() {
            None => Err(format!("{v} is used but not placed in any block")),
            Some((db, dp)) => {
                if (db == b && dp < pos) || (db != b && cfg.dominates(db as u32, b as u32)) {
                    Ok(())
                } else {
                    Err(format!("{v} (bb{db}) does not dominate its use in bb{b}"))
                }
            }
        }
    };
    for (b, bd) in f.blocks.iter().enumerate() {
        if !reachable(b) {
            continue;
        }
        if bd.term == Term::None {
            return Err(format!("bb{b} has no terminator"));
        }
        let mut phis_done = false;
        for (pos, v) in bd.insts.iter().enumerate() {
            let inst = f.inst(*v);
            let here = |e: String| format!("bb{b}: {v}: {e}");
            if let Op::Phi(ins) = &inst.op {
                if phis_done {
                    return Err(here("a phi after other instructions".into()));
                }
                let mut preds: Vec<u32> = cfg
                    .preds(b)
                    .iter()
                    .filter(|p| reachable(p.0 as usize))
                    .map(|p| p.0)
                    .collect();
                preds.sort();
                preds.dedup();
                let mut from: Vec<u32> = ins
                    .iter()
                    .filter(|(p, _)| (p.0 as usize) < n && reachable(p.0 as usize))
                    .map(|(p, _)| p.0)
                    .collect();
                from.sort();
                if from != preds {
                    return Err(here(format!(
                        "phi names blocks {from:?}, the predecessors are {preds:?}"
                    )));
                }
                for (p, x) in ins {
                    if !reachable(p.0 as usize) {
                        continue;
                    }
                    if !fits(f.ty(*x), inst.ty) {
                        return Err(here(format!("phi input {x} is not {:?}", inst.ty)));
                    }
                    let len = f.blocks[p.0 as usize].insts.len();
                    available(*x, p.0 as usize, len).map_err(&here)?;
                }
                continue;
            }
            phis_done = true;
            for o in inst.op.operands() {
                if o.0 as usize >= f.insts.len() {
                    return Err(here(format!("operand {o} does not exist")));
                }
                available(o, b, pos).map_err(&here)?;
            }
            check_types(f, inst).map_err(&here)?;
        }
        if let Term::CondBr(c, _, _) = bd.term {
            available(c, b, bd.insts.len()).map_err(|e| format!("bb{b}: branch: {e}"))?;
        }
    }
    // Values read after the return are available where the function returns.
    if !f.live_out.is_empty() {
        for (b, bd) in f.blocks.iter().enumerate() {
            if bd.term == Term::Ret && reachable(b) {
                for v in &f.live_out {
                    available(*v, b, bd.insts.len())
                        .map_err(|e| format!("bb{b}: live-out value: {e}"))?;
                }
            }
        }
    }
    Ok(())
}

fn check_types(f: &Function, inst: &Inst) -> Result<(), String> {
    let t = |v: Value| f.ty(v);
    let want = |ok: bool, what: &str| if ok { Ok(()) } else { Err(what.to_string()) };
    match &inst.op {
        Op::Bin(op, a, b) => {
            let float = matches!(
                op,
                BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FMin | BinOp::FMax
            );
            let shift = matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr);
            want(
                t(*a) == inst.ty && (shift || t(*b) == inst.ty),
                "binary operands differ from the result type",
            )?;
            want(
                !float || inst.ty.is_float(),
                "float operation on a non-float type",
            )?;
            // Integer and bitwise operations on float values would be selected with float
            // register types, which Gen's logic instructions reject (PRM: "and" takes
            // integer types only).
            want(
                float || !inst.ty.is_float(),
                "integer operation on a float type",
            )
        }
        Op::Un(op, a) => match op {
            UnOp::HalfToFloat => want(
                t(*a) == Ty::I32 && inst.ty == Ty::F32,
                "half_to_float wants an i32 and gives an f32",
            ),
            UnOp::FloatToHalf => want(
                t(*a) == Ty::F32 && inst.ty == Ty::I32,
                "float_to_half wants an f32 and gives an i32",
            ),
            UnOp::HalfFromBits => want(
                t(*a) == Ty::I32 && inst.ty == Ty::F16,
                "half_from_bits wants an i32 and gives an f16",
            ),
            UnOp::HalfToBits => want(
                t(*a) == Ty::F16 && inst.ty == Ty::I32,
                "half_to_bits wants an f16 and gives an i32",
            ),
            UnOp::Neg | UnOp::Not | UnOp::Clz | UnOp::Popcount => want(
                t(*a) == inst.ty && !inst.ty.is_float(),
                "integer unary operation on a float type",
            ),
            _ => want(
                t(*a) == inst.ty && inst.ty.is_float(),
                "float unary operation on a non-float type",
            ),
        },
        Op::Mad(a, b, c) => want(
            t(*a) == inst.ty && t(*b) == inst.ty && t(*c) == inst.ty,
            "mad operands differ from the result type",
        ),
        Op::Cmp(_, a, b) => {
            want(inst.ty == Ty::Bool, "a compare's result is not a bool")?;
            want(t(*a) == t(*b), "compared values differ in type")
        }
        Op::Select(c, a, b) => {
            want(t(*c) == Ty::Bool, "select condition is not a bool")?;
            want(
                fits(t(*a), inst.ty) && fits(t(*b), inst.ty),
                "select operands differ from the result type",
            )
        }
        Op::PtrAdd(p, o) => want(
            matches!(t(*p), Ty::Ptr(_)) && matches!(inst.ty, Ty::Ptr(_)) && t(*o).is_int(),
            "ptradd wants a pointer and an integer",
        ),
        Op::Load { addr, bytes, .. } => {
            want(matches!(t(*addr), Ty::Ptr(_)), "load from a non-pointer")?;
            want(
                *bytes >= 1 && *bytes <= inst.ty.bytes().max(1),
                "load wider than its type",
            )
        }
        Op::Store {
            addr, value, bytes, ..
        } => {
            want(matches!(t(*addr), Ty::Ptr(_)), "store to a non-pointer")?;
            want(
                *bytes >= 1 && *bytes <= t(*value).bytes().max(1),
                "store wider than its value",
            )
        }
        Op::ImageRead {
            sampler,
            coords,
            channel,
            ..
        } => {
            let want_ty = if sampler.is_some() { Ty::F32 } else { Ty::I32 };
            want(
                !coords.is_empty() && coords.len() <= 3 && coords.iter().all(|c| t(*c) == want_ty),
                "image read coordinates: 1 to 3, F32 with a sampler, I32 without",
            )?;
            want(*channel < 4, "image read channel past alpha")?;
            want(
                matches!(inst.ty, Ty::F32 | Ty::I32),
                "image read of a type other than F32 or I32",
            )
        }
        Op::ImageWrite { coords, values, .. } => {
            want(
                !coords.is_empty() && coords.len() <= 3 && coords.iter().all(|c| t(*c) == Ty::I32),
                "image write coordinates: 1 to 3 I32",
            )?;
            want(
                values.len() == 4
                    && values.iter().all(|v| t(*v) == t(values[0]))
                    && matches!(t(values[0]), Ty::F32 | Ty::I32),
                "image write of other than four F32 or I32 values",
            )
        }
        Op::ImageBlockRead { x, y, .. } => want(
            t(*x) == Ty::I32 && t(*y) == Ty::I32 && inst.ty == Ty::I32,
            "image block read: I32 coordinates and result",
        ),
        Op::ImageBlockWrite { x, y, value, .. } => want(
            t(*x) == Ty::I32 && t(*y) == Ty::I32 && t(*value) == Ty::I32,
            "image block write: I32 coordinates and value",
        ),
        Op::ImageParam { .. } => want(inst.ty == Ty::I32, "an image value is an I32"),
        Op::Printf { args, .. } => {
            want(inst.ty == Ty::I32, "printf's result is an I32")?;
            want(
                args.iter()
                    .all(|a| matches!(t(*a), Ty::I32 | Ty::I64 | Ty::F32 | Ty::F64 | Ty::Ptr(_))),
                "a printf argument other than I32, I64, F32, F64 or a pointer",
            )
        }
        _ => Ok(()),
    }
}

/// Whether a value of type `have` may stand where `want` is expected: the same type, or any
/// pointer where a generic one is (a cast to the generic address space is the pointer
/// itself until `passes::address_spaces` resolves it).
fn fits(have: Ty, want: Ty) -> bool {
    have == want
        || matches!(
            (have, want),
            (Ty::Ptr(_), Ty::Ptr(crate::ir::Space::Generic))
        )
}
