//! By-value aggregate arguments (seed 001, case 1): a struct passed by value arrives as
//! the address of a private copy (`Op::ArgAddr`), but its bytes are pushed constants
//! already. Every load whose address is that argument plus a constant offset becomes a
//! read of the pushed bytes (`Op::ArgAt`); a load from one of several such addresses chosen by a
//! select or a phi becomes the choice among the reads. Addresses that remain in use afterwards
//! (stores into the copy, indexing at run time, pointers handed on) are left for instruction
//! selection to refuse: they need the argument in memory (the memory-model issue's private
//! memory).

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{ConvOp, Function, Op, Value};

/// The argument and constant byte offset an address denotes, if it is one.
fn arg_offset(
    f: &Function,
    v: Value,
    memo: &mut HashMap<Value, Option<(u32, u64)>>,
) -> Option<(u32, u64)> {
    if let Some(r) = memo.get(&v) {
        return *r;
    }
    let r = match f.inst(v).op {
        Op::ArgAddr(a) => Some((a, 0)),
        Op::PtrAdd(p, k) => match (arg_offset(f, p, memo), &f.inst(k).op) {
            (Some((a, o)), Op::Const(c)) => Some((a, o.wrapping_add(*c))),
            _ => None,
        },
        Op::Conv(ConvOp::Bitcast, p) => arg_offset(f, p, memo),
        _ => None,
    };
    memo.insert(v, r);
    r
}

/// A new instruction, not yet placed in a block.
fn make(f: &mut Function, op: Op, ty: crate::ir::Ty) -> Value {
    f.insts.push(crate::ir::Inst { op, ty });
    Value(f.insts.len() as u32 - 1)
}

pub fn run(f: &mut Function) {
    let mut memo = HashMap::default();
    // Reads of pushed bytes that phis in other blocks take: placed in the entry block, which
    // dominates every block (they read constants, so any place is as good).
    let mut entry_reads = Vec::new();
    for b in 0..f.blocks.len() {
        let mut out = Vec::with_capacity(f.blocks[b].insts.len());
        let mut phis_moved = Vec::new();
        for v in std::mem::take(&mut f.blocks[b].insts) {
            let Op::Load { addr, bytes, .. } = f.inst(v).op else {
                out.push(v);
                continue;
            };
            let ty = f.ty(v);
            let read = |f: &Function, memo: &mut HashMap<_, _>, a: Value| {
                let (arg, off) = arg_offset(f, a, memo)?;
                let offset = u32::try_from(off).ok()?;
                Some(Op::ArgAt { arg, offset, bytes })
            };
            if let Some(op) = read(f, &mut memo, addr) {
                f.insts[v.0 as usize].op = op;
                out.push(v);
                continue;
            }
            // A load from one of several constant offsets chosen by a select or a phi (what
            // LLVM makes of `k == 0 ? t.a[0] : k == 1 ? t.a[1] : ...`): the choice moves to the
            // values read.
            match f.inst(addr).op.clone() {
                Op::Select(c, x, y) => {
                    if let (Some(rx), Some(ry)) = (read(f, &mut memo, x), read(f, &mut memo, y)) {
                        let (lx, ly) = (make(f, rx, ty), make(f, ry, ty));
                        out.extend([lx, ly]);
                        f.insts[v.0 as usize].op = Op::Select(c, lx, ly);
                    }
                    out.push(v);
                }
                Op::Phi(ins) => {
                    let reads: Option<Vec<Op>> =
                        ins.iter().map(|(_, a)| read(f, &mut memo, *a)).collect();
                    match reads {
                        Some(reads) => {
                            let mut incoming = Vec::new();
                            for ((pred, _), r) in ins.iter().zip(reads) {
                                let l = make(f, r, ty);
                                entry_reads.push(l);
                                incoming.push((*pred, l));
                            }
                            f.insts[v.0 as usize].op = Op::Phi(incoming);
                            // Phis come first in a block.
                            phis_moved.push(v);
                        }
                        None => out.push(v),
                    }
                }
                _ => out.push(v),
            }
        }
        if !phis_moved.is_empty() {
            let first_non_phi = out
                .iter()
                .position(|v| !matches!(f.inst(*v).op, Op::Phi(_)))
                .unwrap_or(out.len());
            out.splice(first_non_phi..first_non_phi, phis_moved);
        }
        f.blocks[b].insts = out;
    }
    if let Some(entry) = f.blocks.first_mut() {
        entry.insts.extend(entry_reads);
    }
}
