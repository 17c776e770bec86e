//! Full unrolling of loops that run a number of times known at compile time, as IGC does
//! (through LLVM's full unroll, with the GPU's higher thresholds): the hash rounds, the bit
//! loops of a CRC and the fixed-step RNGs that users write as `for (i = 0; i < 64; i++)`.
//! Unrolled, the counter is a constant in each copy, so the branches on it, the shift
//! amounts and table offsets it picks and the loop's own compare-and-branch fold away
//! (`constfold` and `simplify_cfg`, run after each unroll here and again in `PASSES`).
//!
//! What is unrolled: an innermost loop with one preheader, one latch, and one exiting block
//! (the latch, as in rotated loops, or the header) whose branch is decided by constants in
//! every iteration, the header's phis starting from constants where the exit test needs them.
//! The iterations are followed one by one with the folding rules of `constfold`
//! (`fold_with`); in each, only blocks reached through branches that do not fold are live.
//! The cost of the unrolled loop is what does not fold in live blocks, summed over the
//! iterations, as LLVM's unroll cost analysis estimates it; a loop is unrolled when it runs
//! at most `MAX_TRIP` times and that cost stays within `MAX_COST`.
//!
//! The copies: iteration k's blocks are clones of the loop's, the header's phis replaced by
//! what they would hold (the preheader's values in copy 0, the latch's values of copy k-1
//! after), the exiting branch a jump to the next copy or, in the last, out of the loop. What
//! the code after the loop reads of the loop's values is the last copy's.

use rustc_hash::FxHashMap as HashMap;

use super::constfold::{fold_with, Fold};
use crate::analysis::{Cfg, LoopForest};
use crate::ir::{Block, Function, Op, Term, Value};

/// The most iterations a loop may run to be unrolled.
pub const MAX_TRIP: usize = 256;

/// The most instructions the unrolled loop may keep after folding, over all its iterations:
/// about IGC's unrolled kernels of this kind (MD5's 64 rounds, SHA-256's, a CRC's 128 bit
/// steps are each about a thousand Gen instructions in IGC's SIMD32 code).
pub const MAX_COST: usize = 3000;

/// The most instructions the copies may hold before folding (compile time and memory).
const MAX_CLONED: usize = 60_000;

/// A loop that can be unrolled, and how its iterations go.
struct Plan {
    header: Block,
    latch: Block,
    preheader: Block,
    /// The block whose branch leaves the loop, and the block outside it leads to.
    exiting: Block,
    exit: Block,
    /// The loop's blocks, header first, in an order where each comes after its
    /// predecessors in the loop (reverse post-order).
    blocks: Vec<Block>,
    /// Copies of the loop to make: the iterations in which the header runs.
    copies: usize,
}

pub fn run(f: &mut Function) {
    // One loop at a time, innermost first: unrolling an inner loop can make its parent
    // innermost and countable. Each unroll removes a loop, so this ends.
    loop {
        let cfg = Cfg::new(f);
        let Ok(forest) = LoopForest::new(f, &cfg) else {
            return;
        };
        let innermost =
            (0..forest.loops.len()).filter(|l| !forest.loops.iter().any(|o| o.parent == Some(*l)));
        let Some(plan) = innermost
            .into_iter()
            .find_map(|l| plan(f, &cfg, &forest, l))
        else {
            return;
        };
        unroll(f, &plan);
        fold(f);
    }
}

/// Constant folding and CFG simplification until neither finds more: each exposes work for
/// the other (a folded branch leaves phis of one value, which simplify_cfg replaces by that
/// value, a constant the next fold can use).
fn fold(f: &mut Function) {
    let placed = |f: &Function| -> (usize, usize) {
        let insts = f.blocks.iter().map(|b| b.insts.len()).sum();
        let consts = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter(|v| matches!(f.inst(**v).op, Op::Const(_)))
            .count();
        (insts, consts)
    };
    let mut before = placed(f);
    loop {
        super::constfold::run(f);
        super::simplify_cfg::run(f);
        super::dce::run(f);
        let after = placed(f);
        if after == before {
            return;
        }
        before = after;
    }
}

/// Whether loop `l` can be unrolled, and its plan.
fn plan(f: &Function, cfg: &Cfg, forest: &LoopForest, l: usize) -> Option<Plan> {
    let lp = &forest.loops[l];
    let header = lp.header;
    let inside = |b: Block| lp.contains[b.0 as usize];
    let latches = cfg.back_edges(header);
    let [latch] = latches[..] else {
        return None;
    };
    let outside_preds: Vec<Block> = cfg
        .preds(header.0 as usize)
        .iter()
        .copied()
        .filter(|p| !inside(*p))
        .collect();
    let [preheader] = outside_preds[..] else {
        return None;
    };
    let mut blocks: Vec<Block> = (0..f.blocks.len() as u32)
        .map(Block)
        .filter(|b| inside(*b) && cfg.rpo[b.0 as usize] != u32::MAX)
        .collect();
    blocks.sort_by_key(|b| cfg.rpo[b.0 as usize]);
    // One exiting edge, from a conditional branch whose other side stays in the loop.
    let mut exits = blocks
        .iter()
        .flat_map(|b| f.successors(*b).into_iter().map(move |s| (*b, s)))
        .filter(|(_, s)| !inside(*s));
    let (exiting, exit) = exits.next()?;
    if exits.next().is_some() || !matches!(f.block(exiting).term, Term::CondBr(..)) {
        return None;
    }
    if exiting != latch && exiting != header {
        return None;
    }
    let size: usize = blocks.iter().map(|b| f.block(*b).insts.len()).sum();
    let mut plan = Plan {
        header,
        latch,
        preheader,
        exiting,
        exit,
        blocks,
        copies: 0,
    };
    // Private variables that stay in memory are per work-item, not per iteration: a loop
    // that declares one is left alone, as is one whose header has phis from elsewhere.
    for b in &plan.blocks {
        for v in &f.block(*b).insts {
            match &f.inst(*v).op {
                Op::Alloca { .. } | Op::RegArray { .. } => return None,
                Op::Phi(ins) if *b == header => {
                    let from_outside = ins.iter().filter(|(p, _)| *p == preheader).count();
                    let from_latch = ins.iter().filter(|(p, _)| *p == latch).count();
                    if ins.len() != 2 || from_outside != 1 || from_latch != 1 {
                        return None;
                    }
                }
                _ => {}
            }
        }
    }
    plan.copies = iterations(f, &plan)?;
    if plan.copies * size > MAX_CLONED {
        return None;
    }
    Some(plan)
}

/// The incoming value of phi `v` from block `from`.
fn incoming(f: &Function, v: Value, from: Block) -> Option<Value> {
    match &f.inst(v).op {
        Op::Phi(ins) => ins.iter().find(|(p, _)| *p == from).map(|(_, x)| *x),
        _ => None,
    }
}

/// Follow the loop's iterations with constants: the number of times its header runs before
/// the exit is taken, or None when the exit does not fold, the loop runs more than
/// `MAX_TRIP` times or what does not fold costs more than `MAX_COST`.
fn iterations(f: &Function, plan: &Plan) -> Option<usize> {
    let konst_of = |v: Value| match f.inst(v).op {
        Op::Const(k) => Some(k),
        _ => None,
    };
    let header_phis: Vec<Value> = f
        .block(plan.header)
        .insts
        .iter()
        .copied()
        .filter(|v| matches!(f.inst(*v).op, Op::Phi(_)))
        .collect();
    // The header's phis in the first iteration: the preheader's values, where constant.
    let mut phis: Vec<Option<u64>> = header_phis
        .iter()
        .map(|p| incoming(f, *p, plan.preheader).and_then(konst_of))
        .collect();
    let pos: HashMap<Block, usize> = plan
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (*b, i))
        .collect();
    let mut cost = 0usize;
    for iter in 0..=MAX_TRIP {
        let mut env: HashMap<Value, u64> = HashMap::default();
        for (p, k) in header_phis.iter().zip(&phis) {
            if let Some(k) = k {
                env.insert(*p, *k);
            }
        }
        // Edges taken in this iteration, by (from, to).
        let mut live = vec![false; plan.blocks.len()];
        let mut taken: Vec<(Block, Block)> = Vec::new();
        live[0] = true;
        let mut leaves = None;
        for (i, b) in plan.blocks.iter().enumerate() {
            if !live[i] {
                continue;
            }
            for v in &f.block(*b).insts {
                let known = |x: Value| env.get(&x).copied().or_else(|| konst_of(x));
                let value = match &f.inst(*v).op {
                    Op::Const(_) => continue,
                    Op::Phi(_) if *b == plan.header => continue,
                    Op::Phi(ins) => {
                        // Only the incoming values of edges taken this iteration count.
                        let mut vals = ins
                            .iter()
                            .filter(|(p, _)| taken.contains(&(*p, *b)))
                            .map(|(_, x)| known(*x));
                        let first = vals.next().flatten();
                        if first.is_some() && vals.all(|x| x == first) {
                            first
                        } else {
                            None
                        }
                    }
                    _ => match fold_with(f, *v, known) {
                        Some(Fold::Const(k)) => Some(k),
                        Some(Fold::Same(x)) => known(x),
                        None => None,
                    },
                };
                match value {
                    Some(k) => {
                        env.insert(*v, k);
                    }
                    None => cost += 1,
                }
            }
            let succs: Vec<Block> = match f.block(*b).term {
                Term::Br(t) => vec![t],
                Term::CondBr(c, t, e) => match env.get(&c).copied().or_else(|| konst_of(c)) {
                    Some(k) => vec![if k != 0 { t } else { e }],
                    None if *b == plan.exiting => return None,
                    None => {
                        cost += 1;
                        vec![t, e]
                    }
                },
                _ => return None,
            };
            for s in succs {
                if s == plan.exit && *b == plan.exiting {
                    leaves = Some(iter + 1);
                } else if s != plan.header {
                    live[*pos.get(&s)?] = true;
                    taken.push((*b, s));
                }
            }
            if leaves.is_some() {
                break;
            }
        }
        if cost > MAX_COST {
            return None;
        }
        if let Some(copies) = leaves {
            tracing::debug!(
                "unroll: the loop at {} runs {copies} times, {cost} instructions unrolled",
                plan.header
            );
            return leaves;
        }
        if !live[pos[&plan.latch]] {
            return None;
        }
        phis = header_phis
            .iter()
            .map(|p| {
                let x = incoming(f, *p, plan.latch)?;
                env.get(&x).copied().or_else(|| konst_of(x))
            })
            .collect();
    }
    None
}

/// Replace the loop by `plan.copies` copies of its blocks, one after another.
fn unroll(f: &mut Function, plan: &Plan) {
    let header_phis: Vec<Value> = f
        .block(plan.header)
        .insts
        .iter()
        .copied()
        .filter(|v| matches!(f.inst(*v).op, Op::Phi(_)))
        .collect();
    let copy_blocks: Vec<HashMap<Block, Block>> = (0..plan.copies)
        .map(|_| plan.blocks.iter().map(|b| (*b, f.add_block())).collect())
        .collect();
    let mut prev: HashMap<Value, Value> = HashMap::default();
    for k in 0..plan.copies {
        let blocks = &copy_blocks[k];
        let mut map: HashMap<Value, Value> = HashMap::default();
        for p in &header_phis {
            let from = if k == 0 { plan.preheader } else { plan.latch };
            let x = incoming(f, *p, from).expect("checked by plan");
            let x = if k == 0 {
                x
            } else {
                *prev.get(&x).unwrap_or(&x)
            };
            map.insert(*p, x);
        }
        let last = k + 1 == plan.copies;
        // Where an edge of copy k leads: the back edge to the next copy's header.
        let next_header = copy_blocks.get(k + 1).map(|c| c[&plan.header]);
        for b in &plan.blocks {
            let nb = blocks[b];
            for v in f.block(*b).insts.clone() {
                if *b == plan.header && header_phis.contains(&v) {
                    continue;
                }
                let mut inst = f.inst(v).clone();
                inst.op.map_operands(&|x| *map.get(&x).unwrap_or(&x));
                if let Op::Phi(ins) = &mut inst.op {
                    for (p, _) in ins.iter_mut() {
                        *p = blocks[p];
                    }
                }
                let nv = f.push(nb, inst.op, inst.ty);
                map.insert(v, nv);
            }
            let to = |t: Block| {
                if t == plan.header {
                    next_header
                } else {
                    Some(blocks[&t])
                }
            };
            f.blocks[nb.0 as usize].term = match f.block(*b).term.clone() {
                Term::CondBr(_, t, e) if *b == plan.exiting => {
                    let stay = if t == plan.exit { e } else { t };
                    if last {
                        Term::Br(plan.exit)
                    } else {
                        to(stay).map_or(Term::None, Term::Br)
                    }
                }
                Term::CondBr(c, t, e) => match (to(t), to(e)) {
                    (Some(t), Some(e)) => Term::CondBr(*map.get(&c).unwrap_or(&c), t, e),
                    _ => Term::None,
                },
                Term::Br(t) => to(t).map_or(Term::None, Term::Br),
                other => other,
            };
        }
        prev = map;
    }
    // In: the preheader enters the first copy. Out: the exit's phis name the last copy's
    // exiting block, and every read of a loop value after the loop reads the last copy's.
    let first_header = copy_blocks[0][&plan.header];
    let last_exiting = copy_blocks[plan.copies - 1][&plan.exiting];
    let pre = plan.preheader.0 as usize;
    f.blocks[pre].term = match f.blocks[pre].term.clone() {
        Term::Br(_) => Term::Br(first_header),
        Term::CondBr(c, t, e) => {
            let r = |x: Block| if x == plan.header { first_header } else { x };
            Term::CondBr(c, r(t), r(e))
        }
        other => other,
    };
    for v in f.block(plan.exit).insts.clone() {
        if let Op::Phi(ins) = &mut f.insts[v.0 as usize].op {
            for (p, _) in ins.iter_mut() {
                if *p == plan.exiting {
                    *p = last_exiting;
                }
            }
        }
    }
    for b in &plan.blocks {
        f.blocks[b.0 as usize].insts.clear();
        f.blocks[b.0 as usize].term = Term::None;
    }
    super::replace_uses(f, &prev);
}
