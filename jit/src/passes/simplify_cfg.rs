//! CFG simplification: a branch on a constant becomes a jump (the dead edge leaves the phis
//! of its target), blocks no path reaches are emptied, and a block that is the only
//! successor of its only predecessor joins that predecessor (phis of later blocks then name
//! the predecessor). Constant folding exposes the constant branches: inlined library code
//! tests its arguments, and `k == 0 ? … : …` chains test constants after unrolling.

use crate::analysis::Cfg;
use crate::ir::{Block, Function, Op, Term};

/// Drop the incoming values from `pred` in the phis at the start of `b`.
fn forget_edge(f: &mut Function, pred: Block, b: Block) {
    for i in 0..f.blocks[b.0 as usize].insts.len() {
        let v = f.blocks[b.0 as usize].insts[i];
        if let Op::Phi(ins) = &mut f.insts[v.0 as usize].op {
            ins.retain(|(p, _)| *p != pred);
        } else {
            break;
        }
    }
}

/// The phis of `b` name `new` where they named `old`.
fn rename_pred(f: &mut Function, b: Block, old: Block, new: Block) {
    for i in 0..f.blocks[b.0 as usize].insts.len() {
        let v = f.blocks[b.0 as usize].insts[i];
        if let Op::Phi(ins) = &mut f.insts[v.0 as usize].op {
            for (p, _) in ins.iter_mut() {
                if *p == old {
                    *p = new;
                }
            }
        } else {
            break;
        }
    }
}

pub fn run(f: &mut Function) {
    // Constant branches.
    for b in 0..f.blocks.len() {
        let Term::CondBr(c, t, e) = f.blocks[b].term else {
            continue;
        };
        let Op::Const(k) = f.inst(c).op else {
            continue;
        };
        let (taken, dead) = if k != 0 { (t, e) } else { (e, t) };
        if taken != dead {
            forget_edge(f, Block(b as u32), dead);
        }
        f.blocks[b].term = Term::Br(taken);
    }
    // Unreachable blocks: emptied, and forgotten by the phis of the blocks they jumped to.
    let mut cfg = Cfg::new(f);
    let mut emptied = false;
    for b in 0..f.blocks.len() {
        let bd = &f.blocks[b];
        if cfg.rpo[b] != u32::MAX || (bd.insts.is_empty() && bd.term == Term::None) {
            continue;
        }
        for s in f.successors(Block(b as u32)) {
            forget_edge(f, Block(b as u32), s);
        }
        f.blocks[b].insts.clear();
        f.blocks[b].term = Term::None;
        emptied = true;
    }
    if emptied {
        cfg = Cfg::new(f);
    }
    // Straight lines: A → B where B has A as its only predecessor and A has B as its only
    // successor. B's instructions join A (its phis have one value each), and A keeps going
    // while its new successor qualifies too. Predecessor lists are kept up to date as blocks
    // join (copied from the CFG at the first join), so the CFG is not analysed again.
    // The joined blocks' phis are replaced by their one value in a single walk at the end
    // (a walk of the function per join was most of this pass's time on unrolled code).
    let mut joined: Option<Vec<Vec<Block>>> = None;
    let mut replace = rustc_hash::FxHashMap::default();
    for a in 0..f.blocks.len() {
        if cfg.rpo[a] == u32::MAX {
            continue;
        }
        while let Term::Br(b) = f.blocks[a].term {
            let bi = b.0 as usize;
            let preds_b = joined.as_ref().map_or(cfg.preds(bi), |p| &p[bi]);
            let single = preds_b.len() == 1 && preds_b[0] == Block(a as u32);
            let resolve = |mut v| {
                while let Some(r) = replace.get(&v) {
                    v = *r;
                }
                v
            };
            let plain_phis = f.blocks[bi].insts.iter().all(|v| match &f.inst(*v).op {
                Op::Phi(ins) => {
                    !ins.is_empty() && ins.iter().all(|(_, x)| resolve(*x) == resolve(ins[0].1))
                }
                _ => true,
            });
            if bi == 0 || bi == a || !single || !plain_phis {
                break;
            }
            let preds = joined.get_or_insert_with(|| {
                (0..f.blocks.len()).map(|b| cfg.preds(b).to_vec()).collect()
            });
            let moved = std::mem::take(&mut f.blocks[bi].insts);
            for v in moved {
                match &f.inst(v).op {
                    Op::Phi(ins) => {
                        replace.insert(v, ins[0].1);
                    }
                    _ => f.blocks[a].insts.push(v),
                }
            }
            f.blocks[a].term = std::mem::replace(&mut f.blocks[bi].term, Term::None);
            preds[bi].clear();
            for s in f.successors(Block(a as u32)) {
                rename_pred(f, s, b, Block(a as u32));
                for p in preds[s.0 as usize].iter_mut() {
                    if *p == b {
                        *p = Block(a as u32);
                    }
                }
            }
        }
    }
    if !replace.is_empty() {
        super::replace_uses(f, &replace);
    }
}
