//! Dead-code elimination: drop instructions whose values nobody reads and
//! that have no side effects (one backward sweep over a use count).

use crate::ir::Function;

pub fn run(f: &mut Function) {
    loop {
        let uses = f.use_counts();
        let mut changed = false;
        for b in 0..f.blocks.len() {
            let before = f.blocks[b].insts.len();
            let insts = std::mem::take(&mut f.blocks[b].insts);
            f.blocks[b].insts = insts
                .into_iter()
                .filter(|v| uses[v.0 as usize] > 0 || f.insts[v.0 as usize].op.has_side_effects())
                .collect();
            changed |= f.blocks[b].insts.len() != before;
        }
        if !changed {
            return;
        }
    }
}
