//! Uniformity: which values are the same for every work-item of a hardware
//! thread, so they are computed once per thread in a scalar register
//! (a <0;1,0> region) instead of once per lane (ARCHITECTURE.md, seed 004).
//!
//! Kernel arguments, constants and the per-group built-ins are uniform;
//! pure operations on uniform values are uniform. Loads and phis are
//! treated as varying (a phi at the join of a divergent branch is varying
//! even when its inputs are not; the finer analysis is future work).

use crate::ir::{Builtin, Function, Op};

pub fn analyse(f: &Function) -> Vec<bool> {
    let mut uniform = vec![false; f.insts.len()];
    // Instructions are numbered in creation order and SPIR-V defines before
    // use except through phis, which are varying: one forward pass suffices.
    for (i, inst) in f.insts.iter().enumerate() {
        uniform[i] = match &inst.op {
            Op::Const(_)
            | Op::Arg(_)
            | Op::ArgAt { .. }
            | Op::ArgAddr(_)
            | Op::ConstData(_)
            | Op::PrintfBuffer
            | Op::GlobalVars
            | Op::ScratchBase
            | Op::ImageParam { .. } => true,
            Op::Builtin(b, _) => !matches!(
                b,
                Builtin::GlobalId | Builtin::LocalId | Builtin::SubgroupLocalId
            ),
            // One lane's value is every lane's.
            Op::ReadLane(..) => true,
            Op::Load { .. }
            | Op::Store { .. }
            | Op::Phi(_)
            | Op::Barrier
            | Op::Fence
            | Op::Yield
            | Op::PrivateBase
            | Op::FillInactive(..)
            | Op::Shuffle(..)
            | Op::Atomic(..)
            | Op::CmpXchg { .. }
            | Op::Alloca { .. }
            | Op::RegArray { .. }
            | Op::ImageRead { .. }
            | Op::ImageWrite { .. }
            | Op::ImageBlockRead { .. }
            | Op::ImageBlockWrite { .. } => false,
            op => op
                .operands()
                .iter()
                .all(|o| (o.0 as usize) < i && uniform[o.0 as usize]),
        };
    }
    uniform
}
