//! Uniformity: which values are the same for every work-item of a hardware thread, so they
//! are computed once per thread in a scalar register (a <0;1,0> region) instead of once per
//! lane (ARCHITECTURE.md, seed 004), and loaded once (a load from a uniform address).
//!
//! A divergence analysis in the manner of LLVM's (Karrenberg and Hack's "sync
//! dependence"): values start uniform and become varying until nothing changes.
//! - Sources: the work-item ids, private memory, atomics, lane operations, image reads.
//! - A pure operation or a load with a varying operand is varying; a load from a uniform
//!   address (global, constant or local, whole dwords or qwords) is uniform: every lane
//!   reads the same memory at the same time.
//! - A phi is varying when an incoming value is, or when its block is where the two sides
//!   of a divergent branch (one on a varying condition) meet again: a block reached from
//!   both sides before the branch's immediate post-dominator, or that post-dominator.
//!   Back edges of the loops around the branch are not followed: the lanes that stay in
//!   a loop agree on its header's phis however many left it.
//! - Temporal divergence: a loop that a divergent branch can leave has lanes leave it at
//!   different iterations, so a value defined in it and read after it (directly or by a
//!   phi of an exit block) is varying.
//!
//! Selection relies on it: a uniform phi is a scalar register whose copies run on one
//! channel without the execution mask (`ssa_copies.rs`), a uniform load a message of its
//! own issued without it (`memory.rs`).

use crate::analysis::{Cfg, LoopForest};
use crate::ir::{BinOp, Block, Builtin, Function, Op, Space, Term, Ty, UnOp, Value};

/// Whether `op` (of type `ty`) is varying whatever its operands are.
fn source(f: &Function, op: &Op, ty: Ty) -> bool {
    match op {
        // Selected as ieee.rs's macro sequences, which work on lanes four at a time and leave
        // a per-lane result: a scalar read of it would be an illegal region (ExecSize 1 <
        // Width 4) reading a lane that may not be enabled.
        Op::Bin(BinOp::FDiv, ..) | Op::Un(UnOp::Sqrt, _) if ty == Ty::F64 => true,
        Op::Builtin(b, _) => matches!(
            b,
            Builtin::GlobalId | Builtin::LocalId | Builtin::SubgroupLocalId
        ),
        Op::Load { addr, bytes, .. } => {
            !matches!(
                f.ty(*addr),
                Ty::Ptr(Space::Global | Space::Constant | Space::Local)
            ) || !(*bytes == 4 || *bytes == 8)
        }
        Op::Store { .. }
        | Op::Barrier
        | Op::Fence
        | Op::AtomicFence(_)
        | Op::Yield
        | Op::PrivateBase
        | Op::FillInactive(..)
        | Op::LaneScan { .. }
        | Op::Shuffle(..)
        | Op::Atomic(..)
        | Op::CmpXchg { .. }
        | Op::Alloca { .. }
        | Op::RegArray { .. }
        | Op::ImageRead { .. }
        | Op::ImageWrite { .. }
        | Op::ImageBlockRead { .. }
        | Op::ImageBlockWrite { .. }
        | Op::Printf { .. } => true,
        _ => false,
    }
}

/// The immediate post-dominator of each block (None: the block does not reach the
/// function's one return block, or there is not exactly one).
fn post_dominators(f: &Function, cfg: &Cfg) -> Vec<Option<u32>> {
    let n = f.blocks.len();
    let reachable = |b: usize| cfg.rpo[b] != u32::MAX;
    let rets: Vec<usize> = (0..n)
        .filter(|&b| reachable(b) && f.blocks[b].term == Term::Ret)
        .collect();
    let [exit] = rets[..] else {
        return vec![None; n];
    };
    // Reverse post-order of the reversed graph, from the exit.
    let mut order = Vec::new();
    let mut seen = vec![false; n];
    let mut stack = vec![(exit, 0usize)];
    seen[exit] = true;
    while let Some((b, i)) = stack.pop() {
        let preds = cfg.preds(b);
        if i < preds.len() {
            stack.push((b, i + 1));
            let p = preds[i].0 as usize;
            if !seen[p] && reachable(p) {
                seen[p] = true;
                stack.push((p, 0));
            }
        } else {
            order.push(b);
        }
    }
    order.reverse();
    let mut num = vec![u32::MAX; n];
    for (i, b) in order.iter().enumerate() {
        num[*b] = i as u32;
    }
    let mut ipdom = vec![u32::MAX; n];
    ipdom[exit] = exit as u32;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new = u32::MAX;
            for s in &cfg.succs[b] {
                let s = s.0 as usize;
                if ipdom[s] == u32::MAX {
                    continue;
                }
                new = if new == u32::MAX {
                    s as u32
                } else {
                    let (mut x, mut y) = (new as usize, s);
                    while x != y {
                        while num[x] > num[y] {
                            x = ipdom[x] as usize;
                        }
                        while num[y] > num[x] {
                            y = ipdom[y] as usize;
                        }
                    }
                    x as u32
                };
            }
            if new != ipdom[b] {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|b| (b != exit && ipdom[b] != u32::MAX).then_some(ipdom[b]))
        .collect()
}

/// Blocks reached from `from` without entering `stop` and without following an edge into
/// `headers` (the headers of the loops around the branch).
fn reach(cfg: &Cfg, from: Block, stop: u32, headers: &[u32]) -> Vec<bool> {
    let mut seen = vec![false; cfg.succs.len()];
    let mut stack = vec![from.0];
    while let Some(b) = stack.pop() {
        if b == stop || headers.contains(&b) || seen[b as usize] {
            continue;
        }
        seen[b as usize] = true;
        stack.extend(cfg.succs[b as usize].iter().map(|s| s.0));
    }
    seen
}

pub fn analyse(f: &Function) -> Vec<bool> {
    let n = f.insts.len();
    let nb = f.blocks.len();
    let cfg = Cfg::new(f);
    let mut varying = vec![false; n];
    let Ok(loops) = LoopForest::new(f, &cfg) else {
        // Irreducible flow (selection refuses it anyway): every phi varying.
        return conservative(f);
    };
    let ipdom = post_dominators(f, &cfg);
    let mut block_of = vec![u32::MAX; n];
    for (b, bd) in f.blocks.iter().enumerate() {
        for v in &bd.insts {
            block_of[v.0 as usize] = b as u32;
        }
    }
    let mut join = vec![false; nb];
    let mut diverges = vec![false; loops.loops.len()];
    let mut branch_done = vec![false; nb];
    loop {
        let mut changed = false;
        for (b, bd) in f.blocks.iter().enumerate() {
            for v in &bd.insts {
                let i = v.0 as usize;
                if varying[i] {
                    continue;
                }
                let op = &f.inst(*v).op;
                let vary = source(f, op, f.ty(*v))
                    || match op {
                        // One lane's value is every lane's.
                        Op::ReadLane(..) => false,
                        Op::Phi(ins) => join[b] || ins.iter().any(|(_, x)| varying[x.0 as usize]),
                        _ => op.operands().iter().any(|o| varying[o.0 as usize]),
                    };
                if vary {
                    varying[i] = true;
                    changed = true;
                }
            }
        }
        // Divergent branches: their joins, and the loops they leave.
        for b in 0..nb {
            let Term::CondBr(c, t, e) = f.blocks[b].term else {
                continue;
            };
            if branch_done[b] || !varying[c.0 as usize] || cfg.rpo[b] == u32::MAX {
                continue;
            }
            branch_done[b] = true;
            changed = true;
            let Some(p) = ipdom[b] else {
                // No reconvergence point known: every phi is varying.
                return conservative(f);
            };
            let around: Vec<usize> = (0..loops.loops.len())
                .filter(|l| loops.loops[*l].contains[b])
                .collect();
            let headers: Vec<u32> = around.iter().map(|l| loops.loops[*l].header.0).collect();
            let (rt, re) = (reach(&cfg, t, p, &headers), reach(&cfg, e, p, &headers));
            join[p as usize] = true;
            for x in 0..nb {
                if rt[x] && re[x] {
                    join[x] = true;
                }
            }
            // Two sides that go back to a loop's header by different latches meet there.
            for l in &around {
                let h = loops.loops[*l].header;
                let latches = |r: &[bool], side: Block| -> Vec<Block> {
                    cfg.preds(h.0 as usize)
                        .iter()
                        .copied()
                        .filter(|x| loops.loops[*l].contains[x.0 as usize])
                        .filter(|x| r[x.0 as usize] || (side == h && x.0 as usize == b))
                        .collect()
                };
                let (lt, le) = (latches(&rt, t), latches(&re, e));
                if !lt.is_empty() && !le.is_empty() && lt != le {
                    join[h.0 as usize] = true;
                }
            }
            for l in around {
                let lp = &loops.loops[l];
                if (0..nb).any(|x| (rt[x] || re[x]) && !lp.contains[x]) || !lp.contains[p as usize]
                {
                    diverges[l] = true;
                }
            }
        }
        // Temporal divergence: loop values read outside a loop that lanes leave apart.
        for (l, lp) in loops.loops.iter().enumerate() {
            if !diverges[l] {
                continue;
            }
            let in_loop = |x: Value| {
                let d = block_of[x.0 as usize];
                d != u32::MAX && lp.contains[d as usize]
            };
            let mut mark = |x: Value, varying: &mut Vec<bool>| {
                if !varying[x.0 as usize] {
                    varying[x.0 as usize] = true;
                    changed = true;
                }
            };
            for (b, bd) in f.blocks.iter().enumerate() {
                if lp.contains[b] {
                    continue;
                }
                for v in &bd.insts {
                    match &f.inst(*v).op {
                        // On an exit edge each lane's copy is right: only the phi varies.
                        // From a block after the loop the copy is a read after it.
                        Op::Phi(ins) => {
                            for (p, x) in ins.iter() {
                                if !in_loop(*x) {
                                    continue;
                                }
                                if lp.contains[p.0 as usize] {
                                    mark(*v, &mut varying);
                                } else {
                                    mark(*x, &mut varying);
                                }
                            }
                        }
                        op => {
                            for x in op.operands().iter() {
                                if in_loop(*x) {
                                    mark(*x, &mut varying);
                                }
                            }
                        }
                    }
                }
                if let Term::CondBr(c, ..) = bd.term {
                    if in_loop(c) {
                        mark(c, &mut varying);
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    varying.iter().map(|v| !v).collect()
}

/// Without the analysis of control flow: phis and loads varying, the rest by operands.
fn conservative(f: &Function) -> Vec<bool> {
    let mut uniform = vec![false; f.insts.len()];
    // Operands come before their users except through phis, which are varying here.
    for (i, inst) in f.insts.iter().enumerate() {
        uniform[i] = match &inst.op {
            Op::Phi(_) | Op::Load { .. } => false,
            Op::ReadLane(..) => true,
            op if source(f, op, inst.ty) => false,
            op => op
                .operands()
                .iter()
                .all(|o| (o.0 as usize) < i && uniform[o.0 as usize]),
        };
    }
    uniform
}
