//! Whether a kernel is worth SIMD32 code: IGC's rule for OpenCL kernels on Gen9
//! (`Simd32ProfitabilityAnalysis`), restated. SIMD32 runs a work-group in half the hardware
//! threads of SIMD16, and a thread's uniform work (loop control, addresses, constants) once
//! for 32 work-items; it pays where every lane has work for the whole kernel. It does not:
//! - in a kernel whose work-group is at most 16 work-items (`reqd_work_group_size`): the
//!   second half of every thread would be empty;
//! - in a loop whose exit is divergent (a different trip count per work-item), which runs as
//!   long as its longest lane, with more lanes idle the wider the thread (mandelbrot's escape
//!   loop); a loop counting a per-lane start up or down to a uniform bound in uniform steps
//!   diverges only at its end and is allowed, as IGC allows it;
//! - in a very large kernel (over 8,000 IR instructions, IGC's limit: register pressure and
//!   compile time);
//! - with IEEE double division or square root (IGC's Gen9 rule);
//! - with sub-group functions (IGC's rule: their results change with the width).
//!
//! A kernel that passes is still built at SIMD16 when its SIMD32 code does not fit the
//! registers (`compile.rs`). `intel_reqd_sub_group_size(32)` builds SIMD32 code for any
//! kernel.

use crate::analysis::{Cfg, LoopForest};
use crate::ir::{BinOp, Builtin, Function, Op, Term, Ty, Value};

/// IGC's size limit for SIMD32 kernels, in IR instructions.
const MAX_INSTRUCTIONS: usize = 8000;

/// `Ok` when SIMD32 code is worth building for `f` (`uniform`: `passes::uniform::analyse`),
/// else why not.
pub fn profitable(
    f: &Function,
    uniform: &[bool],
    required_wg_size: Option<[u32; 3]>,
) -> Result<(), &'static str> {
    if required_wg_size.is_some_and(|s| s.iter().product::<u32>() <= 16) {
        return Err("a work-group of at most 16 work-items");
    }
    let placed: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
    if placed > MAX_INSTRUCTIONS {
        return Err("over 8,000 instructions");
    }
    lanes_independent(f)?;
    if ieee_macros(f) {
        return Err("IEEE double division or square root");
    }
    let cfg = Cfg::new(f);
    let loops = LoopForest::new(f, &cfg).map_err(|_| "irreducible control flow")?;
    for (l, lp) in loops.loops.iter().enumerate() {
        for (b, block) in f.blocks.iter().enumerate() {
            if !lp.contains[b] {
                continue;
            }
            let Term::CondBr(c, t, e) = block.term else {
                continue;
            };
            let exits = !loops.contains(l, t) || !loops.contains(l, e);
            if exits && !uniform[c.0 as usize] && !counted_exit(f, uniform, &cfg, lp.header, c) {
                return Err("a loop whose exit is divergent");
            }
        }
    }
    Ok(())
}

/// `Ok` when `f` reads no lane of another work-item: no sub-group function, which IGC
/// keeps out of SIMD32 (a kernel that asks for sub-groups of 32 is built at SIMD32 all the
/// same).
pub fn lanes_independent(f: &Function) -> Result<(), &'static str> {
    for b in &f.blocks {
        for v in &b.insts {
            if matches!(
                f.inst(*v).op,
                Op::FillInactive(..)
                    | Op::ReadLane(..)
                    | Op::LaneScan { .. }
                    | Op::Shuffle(..)
                    | Op::Builtin(Builtin::SubgroupLocalId, _)
                    | Op::ImageBlockRead { .. }
                    | Op::ImageBlockWrite { .. }
            ) {
                return Err("sub-group functions");
            }
        }
    }
    Ok(())
}

/// IGC's Gen9 rule: no SIMD32 for a kernel with IEEE double division or square root (their
/// macros' eight passes of four lanes a value; `isel/ieee.rs`).
fn ieee_macros(f: &Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|v| {
        let i = f.inst(*v);
        i.ty == Ty::F64
            && matches!(
                i.op,
                Op::Bin(BinOp::FDiv, ..) | Op::Un(crate::ir::UnOp::Sqrt, _)
            )
    })
}

/// Whether divergent exit condition `c` of the loop headed by `header` compares an
/// induction variable with a uniform bound: `c` is a compare of a uniform value with the
/// header's phi `i` or with its next value `i ± s` (`s` uniform) that the back edges carry.
fn counted_exit(
    f: &Function,
    uniform: &[bool],
    cfg: &Cfg,
    header: crate::ir::Block,
    c: Value,
) -> bool {
    let is_uniform = |v: Value| uniform[v.0 as usize];
    let Op::Cmp(_, a, b) = f.inst(c).op else {
        return false;
    };
    let x = match (is_uniform(a), is_uniform(b)) {
        (true, false) => b,
        (false, true) => a,
        _ => return false,
    };
    let latches = cfg.back_edges(header);
    // `phi` is an induction variable of the header: each back edge carries `phi ± s`.
    let induction = |phi: Value| -> bool {
        let Op::Phi(ref ins) = f.inst(phi).op else {
            return false;
        };
        if !f.block(header).insts.contains(&phi) {
            return false;
        }
        ins.iter()
            .filter(|(from, _)| latches.contains(from))
            .all(|&(_, next)| step_of(f, next, phi).is_some_and(is_uniform))
    };
    if induction(x) {
        return true;
    }
    // The compare reads the next value: `x = phi ± s`.
    match f.inst(x).op {
        Op::Bin(BinOp::Add | BinOp::Sub, p, s) if is_uniform(s) => induction(p),
        Op::Bin(BinOp::Add, s, p) if is_uniform(s) => induction(p),
        _ => false,
    }
}

/// `s` where `next` is `phi + s`, `s + phi` or `phi - s`.
fn step_of(f: &Function, next: Value, phi: Value) -> Option<Value> {
    match f.inst(next).op {
        Op::Bin(BinOp::Add | BinOp::Sub, p, s) if p == phi => Some(s),
        Op::Bin(BinOp::Add, s, p) if p == phi => Some(s),
        _ => None,
    }
}
