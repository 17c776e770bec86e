//! Common subexpressions: a pure instruction equal to one that dominates it (same operation,
//! operands and type) is replaced by it. Value numbering over the dominator tree, with a
//! scoped table: what a block computes is visible to the blocks it dominates. Loads, stores,
//! phis and barriers are never merged, nor compares: a compare read by one select or branch
//! is one `cmp` into the flag at its reader (`isel` `flag_compares`), where a compare that
//! two read is a boolean in a register that each reader tests again (two work-group
//! functions' `lane == 0` merged cost a compare more than they saved).

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::Cfg;
use crate::ir::{Function, Op, Ty, Value};

fn pure(op: &Op) -> bool {
    !matches!(
        op,
        Op::Load { .. }
            | Op::ImageRead { .. }
            | Op::ImageBlockRead { .. }
            | Op::Store { .. }
            | Op::Phi(_)
            | Op::Barrier
            | Op::Fence
            | Op::AtomicFence(_)
            | Op::FillInactive(..)
            | Op::LaneScan { .. }
            | Op::Shuffle(..)
            | Op::Alloca { .. }
            | Op::RegArray { .. }
            | Op::Cmp(..)
    ) && !op.has_side_effects()
}

pub fn run(f: &mut Function) {
    let cfg = Cfg::new(f);
    // Sized for the placed instructions (the arena holds dead ones too).
    let placed = f.blocks.iter().map(|b| b.insts.len()).sum();
    let mut table: HashMap<(Op, Ty), Value> =
        HashMap::with_capacity_and_hasher(placed, Default::default());
    let mut replace: HashMap<Value, Value> = HashMap::default();
    // Depth-first over the dominator tree; each block's additions are undone on leaving it
    // (`added` is the log of keys entered, `Leave` the length to cut it back to).
    enum Step {
        Enter(usize),
        Leave(usize),
    }
    let mut added: Vec<(Op, Ty)> = Vec::new();
    let mut stack = vec![Step::Enter(0)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Leave(mark) => {
                for k in added.drain(mark..) {
                    table.remove(&k);
                }
            }
            Step::Enter(b) => {
                stack.push(Step::Leave(added.len()));
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
                for &c in cfg.dom_children(b).iter().rev() {
                    stack.push(Step::Enter(c as usize));
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
