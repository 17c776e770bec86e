//! Private memory: the variables mem2reg could not promote (arrays indexed at run time,
//! variables whose address is passed around or stored) get a place in the work-item's
//! private area. Each `Op::Alloca` left becomes that area's base plus the variable's
//! offset, laid out at the variables' alignments; `Function::private_bytes` says how much
//! a work-item needs. Instruction selection puts the area in the thread's scratch space
//! (one area per lane) and reaches it with stateless messages.
//!
//! Every variable gets its own bytes for the whole kernel: inlining gave each call its
//! own variables, and no recursion exists to need a stack.

use crate::ir::{Block, Function, Inst, Op, Space, Ty, Value};

pub fn run(f: &mut Function) {
    let allocas: Vec<Value> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .copied()
        .filter(|v| matches!(f.inst(*v).op, Op::Alloca { .. }))
        .collect();
    if allocas.is_empty() {
        return;
    }
    let base = push(f, Op::PrivateBase, Ty::Ptr(Space::Private));
    let mut front = vec![base];
    let mut end = 0u64;
    for a in allocas {
        let Op::Alloca { bytes, align } = f.inst(a).op else {
            continue;
        };
        let off = end.next_multiple_of(u64::from(align.max(1)));
        end = off + u64::from(bytes);
        let k = push(f, Op::Const(off), Ty::I64);
        front.push(k);
        // The alloca's value is now the address: it may sit in any block (inlined
        // functions' variables), so its operands are placed at the top of the entry.
        f.insts[a.0 as usize].op = Op::PtrAdd(base, k);
    }
    // Whole dwords per work-item, so that every lane's area starts aligned for any type.
    f.private_bytes = end.next_multiple_of(16).min(u64::from(u32::MAX)) as u32;
    f.blocks[Block(0).0 as usize].insts.splice(0..0, front);
}

fn push(f: &mut Function, op: Op, ty: Ty) -> Value {
    f.insts.push(Inst { op, ty });
    Value(f.insts.len() as u32 - 1)
}
