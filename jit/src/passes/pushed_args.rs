//! By-value aggregate arguments (seed 001, case 1): a struct passed by value arrives as
//! the address of a private copy (`Op::ArgAddr`), but its bytes are pushed constants
//! already. Every load whose address is that argument plus a constant offset becomes a
//! read of the pushed bytes (`Op::ArgAt`). Addresses that remain in use afterwards (stores into the copy, indexing at
//! run time, pointers handed on) are left for instruction selection to refuse: they need
//! the argument in memory (the memory-model issue's private memory).

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

pub fn run(f: &mut Function) {
    let mut memo = HashMap::default();
    for b in 0..f.blocks.len() {
        let mut out = Vec::with_capacity(f.blocks[b].insts.len());
        for v in std::mem::take(&mut f.blocks[b].insts) {
            let Op::Load { addr, bytes, .. } = f.inst(v).op else {
                out.push(v);
                continue;
            };
            let Some((arg, off)) = arg_offset(f, addr, &mut memo) else {
                out.push(v);
                continue;
            };
            let Ok(offset) = u32::try_from(off) else {
                out.push(v);
                continue;
            };
            f.insts[v.0 as usize].op = Op::ArgAt { arg, offset, bytes };
            out.push(v);
        }
        f.blocks[b].insts = out;
    }
}
