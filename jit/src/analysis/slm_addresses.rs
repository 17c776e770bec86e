//! Local-memory addresses that only address memory: `ptradd`s of `__local` pointers whose
//! every use is the address of a load, store or atomic. Shared local memory takes 32-bit
//! offsets, so only the low 32 bits of such an address are ever read: `passes::narrow`
//! computes their offsets in 32 bits, and instruction selection keeps them as one dword a
//! lane instead of a qword whose low dwords each message then packs (IGC keeps SLM
//! pointers 32-bit throughout). A `ptradd` read any other way (compared, cast to an
//! integer or to generic, stored, a phi's or a select's operand, the base of another
//! `ptradd`) keeps its 64 bits: there the high half of a negative offset matters.

use rustc_hash::FxHashSet;

use crate::ir::{ConvOp, Function, Op, Space, Term, Ty, Value};

pub fn address_only(f: &Function) -> FxHashSet<Value> {
    let mut cand: FxHashSet<Value> = FxHashSet::default();
    for b in &f.blocks {
        for &v in &b.insts {
            if f.ty(v) == Ty::Ptr(Space::Local) && matches!(f.inst(v).op, Op::PtrAdd(..)) {
                cand.insert(v);
            }
        }
    }
    if cand.is_empty() {
        return cand;
    }
    for b in &f.blocks {
        for &v in &b.insts {
            let op = &f.inst(v).op;
            let addr = match op {
                Op::Load { addr, .. }
                | Op::Store { addr, .. }
                | Op::Atomic(_, addr, _)
                | Op::CmpXchg { addr, .. } => Some(*addr),
                _ => None,
            };
            // Every operand other than the address slot is a use of another kind (a
            // store's value may be the same pointer).
            let mut addr_seen = false;
            for o in op.operands() {
                if Some(o) == addr && !addr_seen {
                    addr_seen = true;
                    continue;
                }
                cand.remove(&o);
            }
        }
        if let Term::CondBr(c, _, _) = b.term {
            cand.remove(&c);
        }
    }
    for v in &f.live_out {
        cand.remove(v);
    }
    cand
}

/// The extensions of 32-bit offsets (`zext`/`sext` of an I32) read only as the offsets of
/// addresses in `only` (`uses`: every value's reads, `Function::use_counts`):
/// instruction selection adds the 32-bit value itself and never makes the 64-bit one.
pub fn extensions_read_in_32_bits(
    f: &Function,
    only: &FxHashSet<Value>,
    uses: &[u32],
) -> FxHashSet<Value> {
    let mut as_offset = vec![0u32; f.insts.len()];
    for b in &f.blocks {
        for &v in &b.insts {
            if let Op::PtrAdd(_, x) = f.inst(v).op {
                if only.contains(&v) {
                    as_offset[x.0 as usize] += 1;
                }
            }
        }
    }
    let mut out = FxHashSet::default();
    for b in &f.blocks {
        for &v in &b.insts {
            let i = v.0 as usize;
            if let Op::Conv(ConvOp::ZExt | ConvOp::SExt, a) = f.inst(v).op {
                if f.ty(a) == Ty::I32 && as_offset[i] > 0 && as_offset[i] == uses[i] {
                    out.insert(v);
                }
            }
        }
    }
    out
}
