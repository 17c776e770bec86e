//! Offsets from a buffer argument or a `__local` pointer summed into one:
//! `ptradd(ptradd(a, x), y)` → `ptradd(a, add(x, y))` where `a` is a `__global` or
//! `__constant` pointer argument, or any `__local` pointer. The front end splits a vector
//! access into its components at `p + 4k` from the element's address `p = a + i × size`,
//! and LLVM leaves a struct's fields, a 2D array's rows (`tile[y][x]`: `(tile + 68 y) + 4 x`)
//! and a loop's base so too; an address whose base is another address keeps its 64 bits
//! (`analysis::addresses`: "the base of another `ptradd`"), so every such buffer access went
//! stateless (A64) and every such `__local` one computed its offset in qwords. Summed, each
//! address is the root plus one offset: a buffer's takes the argument's binding-table surface
//! and a `__local` one its 32-bit SLM offset, both computed in 32 bits (`narrow`), and send
//! coalescing still sees `x + 4k` as the element's components (`isel/coalesce.rs` follows
//! additions of constants). Address arithmetic wraps, so the sum is the same address.
//!
//! Runs before `narrow`. The inner `ptradd` stays where something else reads it (the
//! component at offset 0 does); `dce` removes it where nothing does.

use crate::ir::{BinOp, Function, Inst, Op, Ty};

pub fn run(f: &mut Function) {
    // Until nothing changes: a chain's inner link may sit in a later block than its outer one.
    while fold(f) {}
}

/// One sweep over the blocks; whether it folded anything.
fn fold(f: &mut Function) -> bool {
    let mut changed = false;
    for b in 0..f.blocks.len() {
        let mut i = 0;
        while i < f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            let Op::PtrAdd(p, y) = f.inst(v).op else {
                i += 1;
                continue;
            };
            let Op::PtrAdd(a, x) = f.inst(p).op else {
                i += 1;
                continue;
            };
            let root = crate::analysis::addresses::buffer_arg(f, a).is_some()
                || f.ty(a) == Ty::Ptr(crate::ir::Space::Local);
            if !root || f.ty(x) != Ty::I64 || f.ty(y) != Ty::I64 {
                i += 1;
                continue;
            }
            // The sum in front of `v`: the inner `ptradd` (and so `x`) dominates `v`.
            f.insts.push(Inst {
                op: Op::Bin(BinOp::Add, x, y),
                ty: Ty::I64,
            });
            let sum = crate::ir::Value(f.insts.len() as u32 - 1);
            f.blocks[b].insts.insert(i, sum);
            f.insts[v.0 as usize].op = Op::PtrAdd(a, sum);
            changed = true;
            i += 2;
        }
    }
    changed
}
