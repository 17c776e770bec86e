//! Dead-code elimination: drop instructions whose values nobody reads and that have no
//! side effects. One count of uses, then a worklist: an instruction dropped takes a use off
//! each of its operands, and those left unread follow it (one pass over the function
//! rather than a recount per layer of dead code, which unrolled code has many of).

use crate::ir::Function;

pub fn run(f: &mut Function) {
    let mut uses = f.use_counts();
    let mut placed = vec![false; f.insts.len()];
    for v in f.blocks.iter().flat_map(|b| &b.insts) {
        placed[v.0 as usize] = true;
    }
    let removable = |f: &Function, v: usize| !f.insts[v].op.has_side_effects();
    let mut work: Vec<usize> = (0..f.insts.len())
        .filter(|&v| placed[v] && uses[v] == 0 && removable(f, v))
        .collect();
    let mut dead = vec![false; f.insts.len()];
    while let Some(v) = work.pop() {
        if dead[v] {
            continue;
        }
        dead[v] = true;
        for o in f.insts[v].op.operands().iter() {
            let o = o.0 as usize;
            uses[o] -= 1;
            if uses[o] == 0 && placed[o] && removable(f, o) {
                work.push(o);
            }
        }
    }
    if dead.iter().any(|d| *d) {
        for b in &mut f.blocks {
            b.insts.retain(|v| !dead[v.0 as usize]);
        }
    }
}
