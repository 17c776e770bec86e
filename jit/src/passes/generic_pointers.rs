//! The generic address space at run time (seed 002): what `address_spaces` could not
//! resolve becomes tagged pointers and a switch at each access.
//!
//! - A cast to generic tags the pointer in bits 63:61 (`abi::GENERIC_TAG_*`): a global or
//!   constant pointer is its canonical address (tag 000, or 111 above the 47-bit half); a
//!   local one is its SLM offset with tag 010; a private one becomes the address of the
//!   variable in the scratch space (`Op::ScratchBase` plus its offset) with tag 001. So
//!   private memory is reached as global memory, and an access needs only the local/global
//!   switch. A constant NULL stays NULL.
//! - A load, store or atomic through a generic pointer tests the tag: local memory through
//!   the SLM with the low 32 bits, anything else through A64 messages with the address made
//!   canonical again (bits 59:56, which a canonical address has equal to bit 47, copied into
//!   63:60). The block is split there: a branch, the two accesses, and a phi of their
//!   results.
//! - A cast back (to_global, to_local, to_private, or an implicit cast) checks the tag and
//!   gives NULL for a pointer of another space.
//!
//! Known limit: a local pointer is an SLM offset, so local NULL and the first byte of local
//! memory are one value; cast to generic, both are that offset tagged, never generic NULL.

use crate::abi::{GENERIC_TAG_LOCAL, GENERIC_TAG_PRIVATE};
use crate::ir::{
    BinOp, Block, BlockData, CmpOp, ConvOp, Function, Inst, Op, Space, Term, Ty, Value,
};

pub fn run(f: &mut Function) {
    let generic = |f: &Function, v: Value| f.ty(v) == Ty::Ptr(Space::Generic);
    let any = f.blocks.iter().flat_map(|b| &b.insts).any(|v| {
        let inst = f.inst(*v);
        match &inst.op {
            Op::Conv(ConvOp::ToGeneric | ConvOp::FromGeneric, _) => true,
            Op::Load { addr, .. }
            | Op::Store { addr, .. }
            | Op::Atomic(_, addr, _)
            | Op::CmpXchg { addr, .. } => generic(f, *addr),
            _ => false,
        }
    });
    if !any {
        return;
    }
    casts(f);
    accesses(f);
}

/// A new instruction (not placed yet).
fn new(f: &mut Function, op: Op, ty: Ty) -> Value {
    f.insts.push(Inst { op, ty });
    Value(f.insts.len() as u32 - 1)
}

/// Builds instructions into a list that is placed afterwards.
struct At<'a> {
    f: &'a mut Function,
    out: Vec<Value>,
}

impl At<'_> {
    fn op(&mut self, op: Op, ty: Ty) -> Value {
        let v = new(self.f, op, ty);
        self.out.push(v);
        v
    }
    fn k(&mut self, bits: u64) -> Value {
        self.op(Op::Const(bits), Ty::I64)
    }
    fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        self.op(Op::Bin(op, a, b), Ty::I64)
    }
    fn bits(&mut self, p: Value) -> Value {
        self.op(Op::Conv(ConvOp::Bitcast, p), Ty::I64)
    }
    /// The tag of generic pointer bits `g`.
    fn tag(&mut self, g: Value) -> Value {
        let k = self.k(61);
        self.bin(BinOp::LShr, g, k)
    }
    fn tag_is(&mut self, g: Value, tag: u64) -> Value {
        let t = self.tag(g);
        let k = self.k(tag);
        self.op(Op::Cmp(CmpOp::Eq, t, k), Ty::Bool)
    }
    /// Generic pointer bits `g` as a canonical address: bits 59:56 copied into 63:60.
    fn canonical(&mut self, g: Value) -> Value {
        let low = self.k(0x0FFF_FFFF_FFFF_FFFF);
        let kept = self.bin(BinOp::And, g, low);
        let four = self.k(4);
        let up = self.bin(BinOp::Shl, g, four);
        let high = self.k(0xF000_0000_0000_0000);
        let top = self.bin(BinOp::And, up, high);
        self.bin(BinOp::Or, kept, top)
    }
    fn scratch(&mut self) -> Value {
        let base = self.op(Op::ScratchBase, Ty::Ptr(Space::Global));
        self.bits(base)
    }
}

/// Casts to and from generic, in place (the value keeps its number).
fn casts(f: &mut Function) {
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut insts = Vec::with_capacity(old.len());
        for v in old {
            let Op::Conv(c @ (ConvOp::ToGeneric | ConvOp::FromGeneric), p) = f.inst(v).op else {
                insts.push(v);
                continue;
            };
            let mut at = At { f, out: Vec::new() };
            let op = match (c, at.f.ty(p), at.f.ty(v)) {
                (_, from, to) if from == to => Op::Conv(ConvOp::Bitcast, p),
                (ConvOp::ToGeneric, _, _) if is_null(at.f, p) => Op::Const(0),
                (ConvOp::ToGeneric, Ty::Ptr(Space::Local), _) => {
                    let bits = at.bits(p);
                    let tag = at.k(GENERIC_TAG_LOCAL << 61);
                    let g = at.bin(BinOp::Or, bits, tag);
                    Op::Conv(ConvOp::Bitcast, g)
                }
                (ConvOp::ToGeneric, Ty::Ptr(Space::Private), _) => {
                    let bits = at.bits(p);
                    let base = at.scratch();
                    let addr = at.bin(BinOp::Add, bits, base);
                    let tag = at.k(GENERIC_TAG_PRIVATE << 61);
                    let g = at.bin(BinOp::Or, addr, tag);
                    Op::Conv(ConvOp::Bitcast, g)
                }
                // Global and constant pointers are their addresses.
                (ConvOp::ToGeneric, _, _) => Op::Conv(ConvOp::Bitcast, p),
                (ConvOp::FromGeneric, _, to) => {
                    let g = at.bits(p);
                    let (ok, val) = match to {
                        Ty::Ptr(Space::Local) => {
                            let ok = at.tag_is(g, GENERIC_TAG_LOCAL);
                            let mask = at.k(0xFFFF_FFFF);
                            (ok, at.bin(BinOp::And, g, mask))
                        }
                        Ty::Ptr(Space::Private) => {
                            let ok = at.tag_is(g, GENERIC_TAG_PRIVATE);
                            let addr = at.canonical(g);
                            let base = at.scratch();
                            (ok, at.bin(BinOp::Sub, addr, base))
                        }
                        _ => {
                            let low = at.tag_is(g, 0);
                            let high = at.tag_is(g, 7);
                            let ok = at.op(Op::Bin(BinOp::Or, low, high), Ty::Bool);
                            (ok, g)
                        }
                    };
                    let null = at.k(0);
                    let picked = at.op(Op::Select(ok, val, null), Ty::I64);
                    Op::Conv(ConvOp::Bitcast, picked)
                }
                _ => Op::Conv(ConvOp::Bitcast, p),
            };
            let At { f: _, out } = at;
            insts.extend(out);
            f.insts[v.0 as usize].op = op;
            insts.push(v);
        }
        f.blocks[b].insts = insts;
    }
}

/// A constant NULL, through bit casts.
fn is_null(f: &Function, mut v: Value) -> bool {
    loop {
        match f.inst(v).op {
            Op::Const(0) => return true,
            Op::Conv(ConvOp::Bitcast, p) => v = p,
            _ => return false,
        }
    }
}

/// Every access through a generic pointer, split into its local and global forms.
fn accesses(f: &mut Function) {
    let mut b = 0;
    while b < f.blocks.len() {
        let found = f.blocks[b].insts.iter().position(|v| match &f.inst(*v).op {
            Op::Load { addr, .. }
            | Op::Store { addr, .. }
            | Op::Atomic(_, addr, _)
            | Op::CmpXchg { addr, .. } => f.ty(*addr) == Ty::Ptr(Space::Generic),
            _ => false,
        });
        match found {
            Some(pos) => split(f, b, pos),
            None => b += 1,
        }
    }
}

/// Split block `b` at its access `pos`: `b` tests the tag and branches to a local and a
/// global copy of the access, which join in a new block holding the rest of `b` (and a phi
/// of the two results, under the access's own value number).
fn split(f: &mut Function, b: usize, pos: usize) {
    let v = f.blocks[b].insts[pos];
    let join = super::split_around(f, b, pos);
    let local = Block(join.0 + 1);
    let global = Block(join.0 + 2);
    let inst = f.inst(v).clone();
    let addr = match inst.op {
        Op::Load { addr, .. }
        | Op::Store { addr, .. }
        | Op::Atomic(_, addr, _)
        | Op::CmpXchg { addr, .. } => addr,
        _ => return,
    };
    // The test, at the end of `b`.
    let mut at = At { f, out: Vec::new() };
    let g = at.bits(addr);
    let is_local = at.tag_is(g, GENERIC_TAG_LOCAL);
    let mask = at.k(0xFFFF_FFFF);
    let off = at.bin(BinOp::And, g, mask);
    let canonical = at.canonical(g);
    let head = at.out;
    f.blocks[b].insts.extend(head);
    f.blocks[b].term = Term::CondBr(is_local, local, global);
    // Each form of the access in its own block.
    let arm = |f: &mut Function, bits: Value, space: Space| -> (Vec<Value>, Value) {
        let ptr = new(f, Op::Conv(ConvOp::Bitcast, bits), Ty::Ptr(space));
        let mut op = inst.op.clone();
        match &mut op {
            Op::Load { addr, .. }
            | Op::Store { addr, .. }
            | Op::Atomic(_, addr, _)
            | Op::CmpXchg { addr, .. } => *addr = ptr,
            _ => {}
        }
        let r = new(f, op, inst.ty);
        (vec![ptr, r], r)
    };
    let (local_insts, from_local) = arm(f, off, Space::Local);
    let (global_insts, from_global) = arm(f, canonical, Space::Global);
    if inst.ty != Ty::Void {
        f.insts[v.0 as usize].op = Op::Phi(vec![(local, from_local), (global, from_global)]);
        f.blocks[join.0 as usize].insts.insert(0, v);
    }
    f.blocks.push(BlockData {
        insts: local_insts,
        term: Term::Br(join),
    });
    f.blocks.push(BlockData {
        insts: global_insts,
        term: Term::Br(join),
    });
}
