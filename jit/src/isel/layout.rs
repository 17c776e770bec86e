//! The order blocks are emitted in. Gen's SIMD branches (`goto`/`join`, `while`)
//! keep channels parked at a join point until the thread's instruction pointer
//! reaches it, which works only if every edge but a loop's back edge goes
//! forward and every loop is one contiguous range of code. So: a topological
//! order of the forward edges in which each loop, with its inner loops, is laid
//! out whole where its header comes; among blocks ready at once, the earliest in
//! reverse post-order goes first (the source's order), and the function's return
//! block last.

use crate::analysis::{Cfg, LoopForest};
use crate::ir::{Block, Function, Term};

/// A node of one level of the loop nest: a block of that level, or an inner loop as a whole.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Node {
    Block(Block),
    Loop(usize),
}

pub fn order(f: &Function, cfg: &Cfg, loops: &LoopForest) -> Vec<Block> {
    let mut out = Vec::with_capacity(f.blocks.len());
    region(f, cfg, loops, None, &mut out);
    out
}

fn region(f: &Function, cfg: &Cfg, loops: &LoopForest, r: Option<usize>, out: &mut Vec<Block>) {
    let n = f.blocks.len();
    let inside =
        |b: Block| cfg.rpo[b.0 as usize] != u32::MAX && r.is_none_or(|l| loops.contains(l, b));
    let node_of = |b: Block| match loops.child_of(r, b) {
        Some(l) => Node::Loop(l),
        None => Node::Block(b),
    };
    let header = r.map(|l| loops.loops[l].header);
    // Each node's index among this level's nodes (blocks first, then inner loops), by a
    // dense table rather than a search: a kernel with built-ins inlined has hundreds of
    // blocks.
    let slot = |x: Node| match x {
        Node::Block(b) => b.0 as usize,
        Node::Loop(l) => n + l,
    };
    let mut index_of = vec![usize::MAX; n + loops.loops.len()];
    let mut nodes: Vec<Node> = Vec::new();
    for b in (0..n as u32).map(Block) {
        if !inside(b) {
            continue;
        }
        let node = node_of(b);
        if index_of[slot(node)] == usize::MAX {
            index_of[slot(node)] = nodes.len();
            nodes.push(node);
        }
    }
    // Forward edges between the nodes of this level (back edges to this level's header and
    // edges leaving it are not ordering constraints here).
    let mut indeg = vec![0usize; nodes.len()];
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for b in (0..n as u32).map(Block) {
        if !inside(b) {
            continue;
        }
        let from = index_of[slot(node_of(b))];
        for s in &cfg.succs[b.0 as usize] {
            if !inside(*s) || Some(*s) == header {
                continue;
            }
            let to = index_of[slot(node_of(*s))];
            if to != from && !succs[from].contains(&to) {
                succs[from].push(to);
                indeg[to] += 1;
            }
        }
    }
    let key = |x: Node| {
        let b = match x {
            Node::Block(b) => b,
            Node::Loop(l) => loops.loops[l].header,
        };
        // The return block goes last.
        let last = matches!(f.block(b).term, Term::Ret);
        (last, cfg.rpo[b.0 as usize])
    };
    // The ready nodes, earliest key first.
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<((bool, u32), usize)>> = (0
        ..nodes.len())
        .filter(|&i| indeg[i] == 0)
        .map(|i| std::cmp::Reverse((key(nodes[i]), i)))
        .collect();
    while let Some(std::cmp::Reverse((_, i))) = ready.pop() {
        for &s in &succs[i] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                ready.push(std::cmp::Reverse((key(nodes[s]), s)));
            }
        }
        match nodes[i] {
            Node::Block(b) => out.push(b),
            Node::Loop(l) => region(f, cfg, loops, Some(l), out),
        }
    }
}
