//! Dead-code elimination: drop instructions whose values nobody reads and
//! that have no side effects (one backward sweep over a use count).

use crate::ir::Function;

pub fn run(f: &mut Function) {
    loop {
        let mut uses = vec![0u32; f.insts.len()];
        for v in &f.live_out {
            uses[v.0 as usize] += 1;
        }
        for b in &f.blocks {
            for v in &b.insts {
                for o in f.insts[v.0 as usize].op.operands() {
                    uses[o.0 as usize] += 1;
                }
            }
            if let crate::ir::Term::CondBr(c, _, _) = b.term {
                uses[c.0 as usize] += 1;
            }
        }
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
