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
//!
//! A counted loop too long or too costly for that (SHA-256's 64 rounds of 90 instructions) is
//! unrolled partially when it is rotated (the latch tests the exit): 8, 4 or 2 copies a turn,
//! a factor that divides the trip count, within `PARTIAL_BODY` instructions. Only the turn's
//! last copy tests the exit, which the count shows is taken at the last iteration only. A
//! window of values that shifts each round (SHA-256's a..h, w0..w15) then costs its copies
//! once a turn instead of once a round.

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

/// Partial unrolling, of a counted loop too long or too costly to unroll whole: the most
/// iterations followed to count it, and the most instructions its unrolled body may have.
pub const PARTIAL_MAX_TRIP: usize = 1024;
pub const PARTIAL_BODY: usize = 1000;

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
    /// Copies of the loop to make: the iterations in which the header runs, or (`partial`)
    /// the iterations one turn of the unrolled loop does.
    copies: usize,
    /// The loop stays, each turn doing `copies` iterations (the trip count is a multiple
    /// of it, and only the last copy tests the exit).
    partial: bool,
    /// Headers of the loops nested in this one (a whole unroll of an outer loop copies
    /// them as loops; their phis are unknown while the iterations are followed).
    inner_headers: Vec<Block>,
}

pub fn run(f: &mut Function) {
    // Whole loops first, one at a time, innermost first: unrolling an inner loop can make its
    // parent innermost and countable. Each unroll removes a loop, so this ends.
    while let Some(plan) = next(f, false, &[]) {
        unroll(f, &plan);
        fold(f);
    }
    // Then part of each loop that is left and counted, once (a loop unrolled in part is not
    // unrolled whole afterwards: its trip count no longer says what MAX_TRIP means).
    let mut done = Vec::new();
    while let Some(plan) = next(f, true, &done) {
        let first = unroll(f, &plan);
        done.push(first);
        fold(f);
    }
}

/// The first innermost loop that can be unrolled whole (or, `partial`, in part), its header
/// not in `done`.
fn next(f: &Function, partial: bool, done: &[Block]) -> Option<Plan> {
    let cfg = Cfg::new(f);
    let forest = LoopForest::new(f, &cfg).ok()?;
    let innermost = |l: &usize| !forest.loops.iter().any(|o| o.parent == Some(*l));
    let found = (0..forest.loops.len())
        .filter(innermost)
        .filter(|l| !done.contains(&forest.loops[*l].header))
        .find_map(|l| plan(f, &cfg, &forest, l, partial));
    if found.is_some() || partial {
        return found;
    }
    // An outer loop whose inner loops stay (their counts depend on its counter, as in a
    // bitonic sort's `for (k ...) for (j = k / 2; ...)`): unrolled whole, its copies give
    // each inner loop constant bounds, and the inner copies unroll next. Deepest first.
    let depth = |mut l: usize| {
        let mut d = 0;
        while let Some(p) = forest.loops[l].parent {
            d += 1;
            l = p;
        }
        d
    };
    let mut outer: Vec<usize> = (0..forest.loops.len()).filter(|l| !innermost(l)).collect();
    outer.sort_by_key(|l| std::cmp::Reverse(depth(*l)));
    outer
        .into_iter()
        .find_map(|l| plan(f, &cfg, &forest, l, false))
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

/// Whether loop `l` can be unrolled whole (or, `partial`, in part), and the plan.
fn plan(f: &Function, cfg: &Cfg, forest: &LoopForest, l: usize, partial: bool) -> Option<Plan> {
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
    let inner_headers: Vec<Block> = (0..forest.loops.len())
        .filter(|o| *o != l && inside(forest.loops[*o].header))
        .map(|o| forest.loops[o].header)
        .collect();
    if partial && !inner_headers.is_empty() {
        return None;
    }
    let mut plan = Plan {
        header,
        latch,
        preheader,
        exiting,
        exit,
        blocks,
        copies: 0,
        partial: false,
        inner_headers,
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
    if !partial {
        let trip = iterations(f, &plan, MAX_TRIP, MAX_COST)?;
        plan.copies = trip;
        return (trip * size <= MAX_CLONED).then_some(plan);
    }
    // Partially: a rotated loop whose trip count a factor of 8, 4 or 2 divides, the copies
    // of one turn within PARTIAL_BODY. Only the last copy of a turn tests the exit: the
    // exit is taken at the last iteration and no other, so at the end of a turn.
    if exiting != latch {
        return None;
    }
    let trip = iterations(f, &plan, PARTIAL_MAX_TRIP, usize::MAX)?;
    let factor = [8, 4, 2]
        .into_iter()
        .find(|u| trip % u == 0 && trip > *u && u * size <= PARTIAL_BODY)?;
    tracing::debug!("unroll: the loop at {header} runs {trip} times, unrolled {factor} times");
    plan.copies = factor;
    plan.partial = true;
    Some(plan)
}

/// The phis at the start of block `b`.
fn phis_of(f: &Function, b: Block) -> Vec<Value> {
    f.block(b)
        .insts
        .iter()
        .copied()
        .take_while(|v| matches!(f.inst(*v).op, Op::Phi(_)))
        .collect()
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
/// `max_trip` times or what does not fold costs more than `max_cost`.
fn iterations(f: &Function, plan: &Plan, max_trip: usize, max_cost: usize) -> Option<usize> {
    let konst_of = |v: Value| match f.inst(v).op {
        Op::Const(k) => Some(k),
        _ => None,
    };
    let header_phis = phis_of(f, plan.header);
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
    for iter in 0..=max_trip {
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
                    // An inner loop's values change from one of its iterations to the next.
                    Op::Phi(_) if plan.inner_headers.contains(b) => None,
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
        if cost > max_cost {
            return None;
        }
        if let Some(copies) = leaves {
            if max_cost != usize::MAX {
                tracing::debug!(
                    "unroll: the loop at {} runs {copies} times, {cost} instructions unrolled",
                    plan.header
                );
            }
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

/// Replace the loop by `plan.copies` copies of its blocks, one after another (partially
/// unrolled: a loop of them); the first copy's header.
fn unroll(f: &mut Function, plan: &Plan) -> Block {
    let header_phis = phis_of(f, plan.header);
    let copy_blocks: Vec<HashMap<Block, Block>> = (0..plan.copies)
        .map(|_| plan.blocks.iter().map(|b| (*b, f.add_block())).collect())
        .collect();
    let mut prev: HashMap<Value, Value> = HashMap::default();
    // Partially unrolled, the first copy's header keeps phis: the preheader's values, and
    // (filled in below) the last copy's from the new back edge.
    let mut kept_phis: Vec<(Value, Value)> = Vec::new();
    for k in 0..plan.copies {
        let blocks = &copy_blocks[k];
        let mut map: HashMap<Value, Value> = HashMap::default();
        for p in &header_phis {
            let x = if k == 0 {
                let init = incoming(f, *p, plan.preheader).expect("checked by plan");
                if plan.partial {
                    let phi = f.push(
                        blocks[&plan.header],
                        Op::Phi(vec![(plan.preheader, init)]),
                        f.ty(*p),
                    );
                    kept_phis.push((*p, phi));
                    phi
                } else {
                    init
                }
            } else {
                let x = incoming(f, *p, plan.latch).expect("checked by plan");
                *prev.get(&x).unwrap_or(&x)
            };
            map.insert(*p, x);
        }
        let last = k + 1 == plan.copies;
        // Where an edge of copy k leads: the back edge to the next copy's header (partially
        // unrolled, the last copy's to the first's).
        let next_header = match copy_blocks.get(k + 1) {
            Some(c) => Some(c[&plan.header]),
            None if plan.partial => Some(copy_blocks[0][&plan.header]),
            None => None,
        };
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
                Term::CondBr(c, t, e) if *b == plan.exiting => {
                    let stay = if t == plan.exit { e } else { t };
                    match (last, plan.partial) {
                        (true, false) => Term::Br(plan.exit),
                        // The turn's exit test: the exit stays, the rest of the loop is the
                        // first copy.
                        (true, true) => {
                            let r = |x: Block| if x == plan.exit { Some(x) } else { to(x) };
                            match (r(t), r(e)) {
                                (Some(t), Some(e)) => {
                                    Term::CondBr(*map.get(&c).unwrap_or(&c), t, e)
                                }
                                _ => Term::None,
                            }
                        }
                        _ => to(stay).map_or(Term::None, Term::Br),
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
        // An inner loop's header phis read values of its latch, copied after them.
        for h in &plan.inner_headers {
            let nh = blocks[h];
            for v in phis_of(f, nh) {
                f.insts[v.0 as usize]
                    .op
                    .map_operands(&|x| *map.get(&x).unwrap_or(&x));
            }
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
    // The kept phis' back-edge values: the latch's values of the last copy.
    let last_latch = copy_blocks[plan.copies - 1][&plan.latch];
    for (p, phi) in kept_phis {
        let x = incoming(f, p, plan.latch).expect("checked by plan");
        let x = *prev.get(&x).unwrap_or(&x);
        if let Op::Phi(ins) = &mut f.insts[phi.0 as usize].op {
            ins.push((last_latch, x));
        }
    }
    for b in &plan.blocks {
        f.blocks[b.0 as usize].insts.clear();
        f.blocks[b.0 as usize].term = Term::None;
    }
    super::replace_uses(f, &prev);
    first_header
}
