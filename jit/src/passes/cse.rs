//! Common subexpressions: a pure instruction equal to one that dominates it (same operation,
//! operands and type) is replaced by it. Value numbering over the dominator tree, with a
//! scoped table: what a block computes is visible to the blocks it dominates. Loads, stores,
//! phis and barriers are never merged.

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::Cfg;
use crate::ir::{Function, Op, Ty, Value};

fn pure(op: &Op) -> bool {
    !matches!(
        op,
        Op::Load { .. }
            | Op::Store { .. }
            | Op::Phi(_)
            | Op::Barrier
            | Op::Fence
            | Op::FillInactive(..)
            | Op::Shuffle(..)
            | Op::Alloca { .. }
            | Op::RegArray { .. }
    ) && !op.has_side_effects()
}

pub fn run(f: &mut Function) {
    let cfg = Cfg::new(f);
    let n = f.blocks.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for b in 1..n {
        let d = cfg.idom[b] as usize;
        if cfg.rpo[b] != u32::MAX && d != b {
            children[d].push(b);
        }
    }
    let mut table: HashMap<(Op, Ty), Value> = HashMap::default();
    let mut replace: HashMap<Value, Value> = HashMap::default();
    // Depth-first over the dominator tree; each block's additions are undone on leaving it.
    enum Step {
        Enter(usize),
        Leave(Vec<(Op, Ty)>),
    }
    let mut stack = vec![Step::Enter(0)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Leave(keys) => {
                for k in keys {
                    table.remove(&k);
                }
            }
            Step::Enter(b) => {
                let mut added = Vec::new();
                for &v in &f.blocks[b].insts {
                    let inst = f.inst(v);
                    if !pure(&inst.op) {
                        continue;
                    }
                    // Operands already replaced read as their replacements.
                    let mut op = inst.op.clone();
                    op.map_operands(&|x| *replace.get(&x).unwrap_or(&x));
                    let key = (op, inst.ty);
                    match table.get(&key) {
                        Some(&first) => {
                            replace.insert(v, first);
                        }
                        None => {
                            table.insert(key.clone(), v);
                            added.push(key);
                        }
                    }
                }
                stack.push(Step::Leave(added));
                for &c in children[b].iter().rev() {
                    stack.push(Step::Enter(c));
                }
            }
        }
    }
    if replace.is_empty() {
        return;
    }
    super::replace_uses(f, &replace);
    for b in &mut f.blocks {
        b.insts.retain(|v| !replace.contains_key(v));
    }
}
