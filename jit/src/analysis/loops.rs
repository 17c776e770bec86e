//! Natural loops and their nesting. A loop is a header with the back edges that
//! reach it (edges from blocks it dominates) and every block that reaches one
//! of those without passing the header. A retreating edge whose target does not
//! dominate its source makes the graph irreducible: an error, as Gen's SIMD
//! control flow (and gencl) handle reducible flow only.

use super::cfg::Cfg;
use crate::ir::{Block, Function};

#[derive(Clone, Debug)]
pub struct Loop {
    pub header: Block,
    /// Membership of every block of the function.
    pub contains: Vec<bool>,
    /// The innermost loop that contains this one.
    pub parent: Option<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct LoopForest {
    pub loops: Vec<Loop>,
    /// The innermost loop of each block.
    pub innermost: Vec<Option<usize>>,
    /// The loop each block heads, if any.
    pub headed_by: Vec<Option<usize>>,
}

/// Reducibility: every retreating edge (to an earlier block in RPO) is a back edge. The
/// first edge that breaks the rule, as (from, to).
pub fn irreducible_edge(cfg: &Cfg) -> Option<(u32, u32)> {
    let reachable = |b: u32| cfg.rpo[b as usize] != u32::MAX;
    (0..cfg.succs.len() as u32)
        .filter(|u| reachable(*u))
        .find_map(|u| {
            cfg.succs[u as usize]
                .iter()
                .find(|v| cfg.rpo[v.0 as usize] <= cfg.rpo[u as usize] && !cfg.dominates(v.0, u))
                .map(|v| (u, v.0))
        })
}

impl LoopForest {
    pub fn new(f: &Function, cfg: &Cfg) -> Result<LoopForest, String> {
        let n = f.blocks.len();
        let reachable = |b: u32| cfg.rpo[b as usize] != u32::MAX;
        if let Some((u, v)) = irreducible_edge(cfg) {
            return Err(format!(
                "irreducible control flow (the edge bb{u} -> bb{v} enters a loop \
                 other than through its header)"
            ));
        }
        let mut order: Vec<u32> = (0..n as u32).filter(|b| reachable(*b)).collect();
        order.sort_by_key(|b| cfg.rpo[*b as usize]);
        let mut loops = Vec::new();
        let mut headed_by = vec![None; n];
        for &h in &order {
            let latches = cfg.back_edges(Block(h));
            if latches.is_empty() {
                continue;
            }
            let mut contains = vec![false; n];
            contains[h as usize] = true;
            let mut work: Vec<Block> = latches;
            while let Some(b) = work.pop() {
                if contains[b.0 as usize] || !reachable(b.0) {
                    continue;
                }
                contains[b.0 as usize] = true;
                work.extend(cfg.preds(b.0 as usize).iter().copied());
            }
            headed_by[h as usize] = Some(loops.len());
            loops.push(Loop {
                header: Block(h),
                contains,
                parent: None,
            });
        }
        // Nesting: the parent is the smallest other loop containing the header.
        let sizes: Vec<usize> = loops
            .iter()
            .map(|l| l.contains.iter().filter(|c| **c).count())
            .collect();
        for i in 0..loops.len() {
            let h = loops[i].header.0 as usize;
            loops[i].parent = (0..loops.len())
                .filter(|&j| j != i && loops[j].contains[h])
                .min_by_key(|&j| sizes[j]);
        }
        let innermost = (0..n)
            .map(|b| {
                (0..loops.len())
                    .filter(|&j| loops[j].contains[b])
                    .min_by_key(|&j| sizes[j])
            })
            .collect();
        Ok(LoopForest {
            loops,
            innermost,
            headed_by,
        })
    }

    /// Whether loop `l` contains block `b`.
    pub fn contains(&self, l: usize, b: Block) -> bool {
        self.loops[l].contains[b.0 as usize]
    }

    /// The child of `region` (a loop, or the function for `None`) on the path down to
    /// `b`'s innermost loop: `None` if `b` belongs to `region` itself.
    pub fn child_of(&self, region: Option<usize>, b: Block) -> Option<usize> {
        let mut l = self.innermost[b.0 as usize]?;
        loop {
            if Some(l) == region {
                return None;
            }
            match self.loops[l].parent {
                p if p == region => return Some(l),
                Some(p) => l = p,
                None => return None,
            }
        }
    }
}
