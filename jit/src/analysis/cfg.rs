//! The control-flow graph of a function: predecessors, successors, reverse
//! post-order and dominators (Cooper, Harvey and Kennedy's iterative algorithm). Loops (`loops.rs`) and the block layout of
//! instruction selection read it.

use crate::ir::{Block, Function, Operands};

pub struct Cfg {
    /// Predecessors, flattened: block `b`'s are `pred_list[pred_start[b]..pred_start[b + 1]]`
    /// (`preds(b)`); one allocation where a list per block was one each.
    pred_list: Vec<Block>,
    pred_start: Vec<u32>,
    /// Successors, inline (a block has at most two).
    pub succs: Vec<Operands<Block>>,
    /// Immediate dominator (entry: itself).
    pub idom: Vec<u32>,
    /// Reverse post-order index (unreachable blocks: u32::MAX).
    pub rpo: Vec<u32>,
    /// Each block's interval in a depth-first walk of the dominator tree (entry and exit
    /// numbers; unreachable blocks: u32::MAX): `a` dominates `b` exactly when `a`'s interval
    /// holds `b`'s, a test in constant time that the verifier makes for every operand.
    dom_in: Vec<u32>,
    dom_out: Vec<u32>,
    /// The dominator tree's children, flattened: block `b`'s are
    /// `dom_kids[dom_first[b]..dom_first[b + 1]]`, in reverse post-order.
    dom_first: Vec<u32>,
    dom_kids: Vec<u32>,
}

impl Cfg {
    pub fn new(f: &Function) -> Cfg {
        let n = f.blocks.len();
        let succs: Vec<Operands<Block>> = (0..n).map(|b| f.successors(Block(b as u32))).collect();
        // Counted, then placed: each block's predecessors in the order of their numbers.
        let mut pred_start = vec![0u32; n + 1];
        for ss in &succs {
            for s in ss {
                pred_start[s.0 as usize + 1] += 1;
            }
        }
        for i in 0..n {
            pred_start[i + 1] += pred_start[i];
        }
        let mut fill = pred_start.clone();
        let mut pred_list = vec![Block(0); pred_start[n] as usize];
        for (b, ss) in succs.iter().enumerate() {
            for s in ss {
                let at = &mut fill[s.0 as usize];
                pred_list[*at as usize] = Block(b as u32);
                *at += 1;
            }
        }
        // Reverse post-order from the entry.
        let mut order = Vec::new();
        let mut seen = vec![false; n];
        let mut stack = vec![(0u32, 0usize)];
        seen[0] = true;
        while let Some((b, i)) = stack.pop() {
            if i < succs[b as usize].len() {
                stack.push((b, i + 1));
                let s = succs[b as usize][i].0;
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(b);
            }
        }
        order.reverse();
        let mut rpo = vec![u32::MAX; n];
        for (i, b) in order.iter().enumerate() {
            rpo[*b as usize] = i as u32;
        }
        let preds = |b: u32| {
            &pred_list[pred_start[b as usize] as usize..pred_start[b as usize + 1] as usize]
        };
        let idom = dominators(&order, &rpo, preds, 0);
        let (dom_first, dom_kids) = dominator_children(&idom, &order);
        let (dom_in, dom_out) = dominator_intervals(&dom_first, &dom_kids, &order);
        Cfg {
            pred_list,
            pred_start,
            succs,
            idom,
            rpo,
            dom_in,
            dom_out,
            dom_first,
            dom_kids,
        }
    }

    /// The blocks block `b` immediately dominates (its children in the dominator tree).
    pub fn dom_children(&self, b: usize) -> &[u32] {
        &self.dom_kids[self.dom_first[b] as usize..self.dom_first[b + 1] as usize]
    }

    /// The predecessors of block `b` (a block that branches to `b` twice is listed twice).
    pub fn preds(&self, b: usize) -> &[Block] {
        &self.pred_list[self.pred_start[b] as usize..self.pred_start[b + 1] as usize]
    }

    pub fn dominates(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        if a == b {
            return true;
        }
        self.dom_in[a] != u32::MAX
            && self.dom_in[b] != u32::MAX
            && self.dom_in[a] <= self.dom_in[b]
            && self.dom_out[b] <= self.dom_out[a]
    }

    /// Predecessors of `h` that it dominates: the sources of back edges.
    pub fn back_edges(&self, h: Block) -> Vec<Block> {
        self.preds(h.0 as usize)
            .iter()
            .copied()
            .filter(|p| self.rpo[p.0 as usize] != u32::MAX && self.dominates(h.0, p.0))
            .collect()
    }
}

/// The children of each block in the dominator tree given by `idom`, flattened (`first[p]..
/// first[p + 1]` in `kids`), each list in `order`, the reverse post-order.
fn dominator_children(idom: &[u32], order: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = idom.len();
    let mut first = vec![0u32; n + 1];
    for &b in order {
        let p = idom[b as usize];
        if p != b && p != u32::MAX {
            first[p as usize + 1] += 1;
        }
    }
    for i in 0..n {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut kids = vec![0u32; first[n] as usize];
    for &b in order {
        let p = idom[b as usize];
        if p != b && p != u32::MAX {
            kids[fill[p as usize] as usize] = b;
            fill[p as usize] += 1;
        }
    }
    (first, kids)
}

/// Entry and exit numbers of a depth-first walk of the dominator tree (children lists
/// `first`/`kids` from `dominator_children`), from the first block of `order`.
fn dominator_intervals(first: &[u32], kids: &[u32], order: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = first.len() - 1;
    let (mut din, mut dout) = (vec![u32::MAX; n], vec![u32::MAX; n]);
    let Some(&root) = order.first() else {
        return (din, dout);
    };
    let mut clock = 0u32;
    let mut stack = vec![(root, first[root as usize])];
    din[root as usize] = clock;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if *next < first[b as usize + 1] {
            let c = kids[*next as usize];
            *next += 1;
            clock += 1;
            din[c as usize] = clock;
            stack.push((c, first[c as usize]));
        } else {
            clock += 1;
            dout[b as usize] = clock;
            stack.pop();
        }
    }
    (din, dout)
}

/// Cooper, Harvey and Kennedy's iterative dominator algorithm over a
/// reverse post-order.
fn dominators<'a>(
    order: &[u32],
    rpo: &[u32],
    preds: impl Fn(u32) -> &'a [Block],
    root: u32,
) -> Vec<u32> {
    let mut idom = vec![u32::MAX; rpo.len()];
    idom[root as usize] = root;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter() {
            if b == root {
                continue;
            }
            let mut new = u32::MAX;
            for p in preds(b) {
                let p = p.0;
                if idom[p as usize] == u32::MAX {
                    continue;
                }
                new = if new == u32::MAX {
                    p
                } else {
                    intersect(&idom, rpo, p, new)
                };
            }
            if new != u32::MAX && idom[b as usize] != new {
                idom[b as usize] = new;
                changed = true;
            }
        }
    }
    idom
}

fn intersect(idom: &[u32], rpo: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rpo[a as usize] > rpo[b as usize] {
            a = idom[a as usize];
        }
        while rpo[b as usize] > rpo[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}
