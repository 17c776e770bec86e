//! printf calls as the code that appends their records to the printf buffer
//! (`abi::Printf`): the record's bytes are taken with one atomic add on the buffer's first
//! dword, which counts the bytes used after it, and the record is written only where it
//! fits (`PRINTF_BYTES`). A record is the format's index and then the arguments as
//! `Op::Printf` holds them; printf's result is 0, or -1 where the record had no room
//! (OpenCL C 6.15.14.3: "printf returns 0 if it was executed successfully and -1
//! otherwise").
//!
//! The format strings stay with the kernel (the front end collected them: the format and
//! `%s` arguments must be literals); the host prints the records after the launch.

use crate::abi::PRINTF_BYTES;
use crate::ir::{AtomicOp, BinOp, Block, CmpOp, ConvOp, Function, Op, Space, Term, Ty, Value};

pub fn run(f: &mut Function) {
    let mut buf = None;
    let mut b = 0;
    while b < f.blocks.len() {
        let found = f.blocks[b]
            .insts
            .iter()
            .position(|&v| matches!(f.inst(v).op, Op::Printf { .. }));
        match (found, buf) {
            (Some(pos), Some(buf)) => expand(f, b, pos, buf),
            // The buffer's address goes to the top of the entry block: look again.
            (Some(_), None) => {
                buf = Some(f.insert(Block(0), 0, Op::PrintfBuffer, Ty::Ptr(Space::Global)));
            }
            (None, _) => b += 1,
        }
    }
}

/// Expand the printf at `pos` of block `b`, appending to the buffer at `buf`.
fn expand(f: &mut Function, b: usize, pos: usize, buf: Value) {
    let v = f.blocks[b].insts[pos];
    let Op::Printf { format, ref args } = f.inst(v).op else {
        return;
    };
    let args = args.clone();
    let join = super::split_around(f, b, pos);
    let pre = Block(b as u32);
    let write = f.add_block();

    // The record's room: taken whether or not it fits, so that later calls see it full.
    let size = 4 + args.iter().map(|a| f.ty(*a).bytes()).sum::<u32>();
    let k = f.push(pre, Op::Const(size.into()), Ty::I32);
    let off = f.push(pre, Op::Atomic(AtomicOp::Add, buf, k), Ty::I32);
    let end = f.push(pre, Op::Bin(BinOp::Add, off, k), Ty::I32);
    // It fits if it ends inside the buffer (after the counter); the counter itself may run
    // past, and a later call that wraps it is caught by `off <= end`.
    let cap = f.push(pre, Op::Const(u64::from(PRINTF_BYTES - 4)), Ty::I32);
    let le = CmpOp::Le { signed: false };
    let fits = f.push(pre, Op::Cmp(le, end, cap), Ty::Bool);
    let no_wrap = f.push(pre, Op::Cmp(le, off, end), Ty::Bool);
    let ok = f.push(pre, Op::Bin(BinOp::And, fits, no_wrap), Ty::Bool);
    f.blocks[b].term = Term::CondBr(ok, write, join);

    // The record, after the counter.
    let off64 = f.push(write, Op::Conv(ConvOp::ZExt, off), Ty::I64);
    let four = f.push(write, Op::Const(4), Ty::I64);
    let at = f.push(write, Op::Bin(BinOp::Add, off64, four), Ty::I64);
    let rec = f.push(write, Op::PtrAdd(buf, at), Ty::Ptr(Space::Global));
    let id = f.push(write, Op::Const(format.into()), Ty::I32);
    let mut o = 0u64;
    for value in std::iter::once(id).chain(args) {
        let bytes = f.ty(value).bytes();
        let addr = if o == 0 {
            rec
        } else {
            let k = f.push(write, Op::Const(o), Ty::I64);
            f.push(write, Op::PtrAdd(rec, k), Ty::Ptr(Space::Global))
        };
        let store = Op::Store {
            addr,
            value,
            align: 4,
            bytes,
        };
        f.push(write, store, Ty::Void);
        o += u64::from(bytes);
    }
    f.blocks[write.0 as usize].term = Term::Br(join);

    // The result under the call's own number.
    let zero = f.push(pre, Op::Const(0), Ty::I32);
    let minus1 = f.push(pre, Op::Const(u64::from(u32::MAX)), Ty::I32);
    f.insts[v.0 as usize].op = Op::Phi(vec![(pre, minus1), (write, zero)]);
    f.blocks[join.0 as usize].insts.insert(0, v);
}
