//! 64-bit atomics on local memory, which Gen9's shared local memory cannot do in one
//! message (its atomics are 32-bit; the data port's 64-bit atomics are for global memory
//! only): each becomes a read-modify-write under a lock word of the work-group's own in
//! SLM, as IGC does (its LOCAL_SPINLOCK). Runs after `generic_pointers`, whose switch gives
//! a 64-bit atomic through a generic pointer a local arm of this kind.
//!
//! The lock is the hardware thread's, not the lane's: the sub-group's lowest active lane
//! takes it with a 32-bit compare-exchange (all lanes retry together until it has), then
//! the active lanes do their read-modify-write one after the other in lane order, and the
//! lock is released. When every active lane names one word (a contended counter: the
//! CTS's test_c11_atomics, whose 256 work-items share one), the word is read once, the
//! lanes' operations are applied to its value in registers in lane order, and it is written
//! once: two messages a thread instead of three a lane (`one_word`). Lanes of one thread never wait on each other, and a work-group
//! contends with one attempt per thread rather than per work-item (on the GPU model a
//! spinning thread runs its whole quantum: per lane, 256 work-items exchanging on one
//! word cost 450 instructions an operation).
//!
//! The lock word is placed after everything else the kernel keeps in SLM
//! (`Function::slm_bytes` grows by it). SLM holds garbage when a work-group starts, so
//! every work-item clears it at the top of the entry block, and the work-group meets at a
//! barrier before any can take it (the entry block runs in every work-item). The code reads
//! the SIMD width (`Function::simd`): its rounds are the sub-group's lanes.

use crate::ir::{AtomicOp, BinOp, Block, CmpOp, ConvOp, Function, Op, Space, Term, Ty, Value};

pub fn run(f: &mut Function) {
    let mut lock = None;
    let mut b = 0;
    while b < f.blocks.len() {
        let found = f.blocks[b].insts.iter().position(|&v| is_local64(f, v));
        match (found, lock) {
            (Some(pos), Some(word)) => expand(f, b, pos, word),
            // The lock's clearing goes to the top of the entry block: look again.
            (Some(_), None) => lock = Some(lock_word(f)),
            (None, _) => b += 1,
        }
    }
}

/// A 64-bit atomic (or compare-exchange) on a local pointer.
fn is_local64(f: &Function, v: Value) -> bool {
    let addr = match f.inst(v).op {
        Op::Atomic(_, addr, _) | Op::CmpXchg { addr, .. } => addr,
        _ => return false,
    };
    f.ty(v).bytes() == 8 && f.ty(addr) == Ty::Ptr(Space::Local)
}

/// The lock word's address: a new word of SLM, cleared by every work-item at the top of
/// the entry block and then a barrier.
fn lock_word(f: &mut Function) -> Value {
    let off = f.slm_bytes.next_multiple_of(4);
    f.slm_bytes = off + 4;
    let lock = f.insert(Block(0), 0, Op::Const(off.into()), Ty::Ptr(Space::Local));
    let zero = f.insert(Block(0), 1, Op::Const(0), Ty::I32);
    let clear = Op::Store {
        addr: lock,
        value: zero,
        align: 4,
        bytes: 4,
    };
    f.insert(Block(0), 2, clear, Ty::Void);
    f.insert(Block(0), 3, Op::Barrier, Ty::Void);
    lock
}

/// Expand the atomic at `pos` of block `b` under the lock at `lock`.
fn expand(f: &mut Function, b: usize, pos: usize, lock: Value) {
    let v = f.blocks[b].insts[pos];
    let (aop, addr, x, cmp) = match f.inst(v).op {
        Op::Atomic(aop, addr, x) => (Some(aop), addr, x, None),
        Op::CmpXchg { addr, cmp, value } => (None, addr, value, Some(cmp)),
        _ => return,
    };
    let t = f.ty(v);
    let simd = f.simd;
    let join = super::split_around(f, b, pos);
    let pre = Block(b as u32);
    let mut add = || f.add_block();
    let [head, try_, tried, back_off, serve_pre, serve, crit, next] = [(); 8].map(|_| add());

    // The leader: the lowest active lane (a minimum over the lanes, inactive ones at !0).
    let k = |f: &mut Function, ty: Ty, bits: u64| f.push(pre, Op::Const(bits), ty);
    let (z32, o32) = (k(f, Ty::I32, 0), k(f, Ty::I32, 1));
    let (z64, width, none) = (
        k(f, t, 0),
        k(f, Ty::I32, u64::from(simd)),
        k(f, Ty::I32, u64::from(u32::MAX)),
    );
    let lane = f.push(
        pre,
        Op::Builtin(crate::ir::Builtin::SubgroupLocalId, 0),
        Ty::I32,
    );
    let first = f.reduce_active_lanes(pre, BinOp::Min { signed: false }, lane, none, simd);
    let leader = f.push(pre, Op::Cmp(CmpOp::Eq, lane, first), Ty::Bool);
    f.blocks[b].term = Term::Br(head);

    // Take the lock: the leader tries, every lane sees how it went.
    f.blocks[head.0 as usize].term = Term::CondBr(leader, try_, tried);
    let held = Op::CmpXchg {
        addr: lock,
        cmp: z32,
        value: o32,
    };
    let held = f.push(try_, held, Ty::I32);
    f.blocks[try_.0 as usize].term = Term::Br(tried);
    // The leader's answer is the least over the lanes (the others hold 1): a reduction
    // rather than a shuffle from its lane, so the answer is uniform (and the loop's branch).
    let seen = f.push(tried, Op::Phi(vec![(head, o32), (try_, held)]), Ty::I32);
    let theirs = f.reduce_active_lanes(tried, BinOp::Min { signed: false }, seen, o32, simd);
    let got = f.push(tried, Op::Cmp(CmpOp::Eq, theirs, z32), Ty::Bool);
    f.blocks[tried.0 as usize].term = Term::CondBr(got, serve_pre, back_off);
    // Another thread holds it: let the EU run the others (the holder among them) before
    // trying again.
    f.push(back_off, Op::Yield, Ty::Void);
    f.blocks[back_off.0 as usize].term = Term::Br(head);

    // Held. When every active lane names one word (a contended counter, the usual case),
    // the thread's operations are folded in registers (`one_word`); otherwise lane k of the
    // thread does its read-modify-write in round k.
    let one = (simd <= MAX_FOLDED_LANES).then(|| f.add_block());
    let mut one_at = None;
    match one {
        Some(one) => {
            let (same, word) = one_word_everywhere(f, serve_pre, addr, simd);
            f.blocks[serve_pre.0 as usize].term = Term::CondBr(same, one, serve);
            one_at = Some(word);
        }
        None => f.blocks[serve_pre.0 as usize].term = Term::Br(serve),
    }
    let round = f.push(serve, Op::Phi(Vec::new()), Ty::I32);
    let res = f.push(serve, Op::Phi(Vec::new()), t);
    let mine = f.push(serve, Op::Cmp(CmpOp::Eq, lane, round), Ty::Bool);
    f.blocks[serve.0 as usize].term = Term::CondBr(mine, crit, next);
    let load = Op::Load {
        addr,
        align: 8,
        bytes: 8,
    };
    let old = f.push(crit, load, t);
    let new = match (aop, cmp) {
        (Some(AtomicOp::Xchg), _) => x,
        (Some(a), _) => f.push(crit, Op::Bin(bin_op(a), old, x), t),
        (None, c) => {
            let c = c.expect("a compare-exchange has its comparator");
            let eq = f.push(crit, Op::Cmp(CmpOp::Eq, old, c), Ty::Bool);
            f.push(crit, Op::Select(eq, x, old), t)
        }
    };
    let store = Op::Store {
        addr,
        value: new,
        align: 8,
        bytes: 8,
    };
    // No fence before the next lane's load or the release: one Gen9 thread's SLM messages
    // are performed in order (IGC's LOCAL_SPINLOCK fences local memory alone, which it
    // leaves out up to Gen9), and the scheduler keeps SLM accesses in program order.
    f.push(crit, store, Ty::Void);
    f.blocks[crit.0 as usize].term = Term::Br(next);
    let res2 = f.push(next, Op::Phi(vec![(serve, res), (crit, old)]), t);
    let round2 = f.push(next, Op::Bin(BinOp::Add, round, o32), Ty::I32);
    let more = Op::Cmp(CmpOp::Lt { signed: false }, round2, width);
    let more = f.push(next, more, Ty::Bool);
    f.blocks[next.0 as usize].term = Term::CondBr(more, serve, join);
    f.insts[round.0 as usize].op = Op::Phi(vec![(serve_pre, z32), (next, round2)]);
    f.insts[res.0 as usize].op = Op::Phi(vec![(serve_pre, z64), (next, res2)]);

    // Released at the join, where the atomic's own number now names the old value.
    let release = Op::Atomic(AtomicOp::Xchg, lock, z32);
    f.insert(join, 0, release, Ty::I32);
    let mut incoming = vec![(next, res2)];
    if let (Some(one), Some(word)) = (one, one_at) {
        let rmw = Rmw {
            aop,
            addr: word,
            x,
            cmp,
        };
        let folded = one_word(f, one, rmw, lane, simd);
        f.blocks[one.0 as usize].term = Term::Br(join);
        incoming.push((one, folded));
    }
    f.insts[v.0 as usize].op = Op::Phi(incoming);
    f.blocks[join.0 as usize].insts.insert(0, v);
}

/// Widths whose lanes `one_word` folds one by one (unrolled: a SIMD32 thread keeps its rounds).
const MAX_FOLDED_LANES: u8 = 16;

/// A read-modify-write as the atomic names it: `aop` (none for a compare-exchange, whose
/// comparator is `cmp`) with operand `x` at `addr`.
#[derive(Clone, Copy)]
struct Rmw {
    aop: Option<AtomicOp>,
    addr: Value,
    x: Value,
    cmp: Option<Value>,
}

/// In block `b`: whether every active lane's `addr` is one word (the lowest and highest
/// over the active lanes agree), and that word's address, the same for every lane (so the
/// fold in `one_word` is the thread's, on scalar registers). SLM offsets are 32 bits.
fn one_word_everywhere(f: &mut Function, b: Block, addr: Value, simd: u8) -> (Value, Value) {
    let at = f.push(b, Op::Conv(ConvOp::Bitcast, addr), Ty::I64);
    let at = f.push(b, Op::Conv(ConvOp::Trunc, at), Ty::I32);
    let mut bound = |op: BinOp, identity: u64| {
        let identity = f.push(b, Op::Const(identity), Ty::I32);
        f.reduce_active_lanes(b, op, at, identity, simd)
    };
    let lo = bound(BinOp::Min { signed: false }, u64::from(u32::MAX));
    let hi = bound(BinOp::Max { signed: false }, 0);
    let same = f.push(b, Op::Cmp(CmpOp::Eq, lo, hi), Ty::Bool);
    let word = f.push(b, Op::Conv(ConvOp::ZExt, lo), Ty::I64);
    let word = f.push(b, Op::Conv(ConvOp::Bitcast, word), f.ty(addr));
    (same, word)
}

/// Block `b`, entered with the lock held and every active lane on the word at `rmw.addr`:
/// one load, the lanes' operations applied to the word's value in lane order in registers
/// (lane k's operand read from its lane, an inactive lane's step leaving the value as it
/// is), one store before the release. Each lane's result, the value before its
/// own step, is what the rounds would give it: the same order, without three messages and
/// a branch a lane (CTS test_c11_atomics: 256 work-items on one `__local` atomic_long).
fn one_word(f: &mut Function, b: Block, rmw: Rmw, lane: Value, simd: u8) -> Value {
    let t = f.ty(rmw.x);
    let (z32, o32) = (
        f.push(b, Op::Const(0), Ty::I32),
        f.push(b, Op::Const(1), Ty::I32),
    );
    let word = rmw.addr;
    let load = Op::Load {
        addr: word,
        align: 8,
        bytes: 8,
    };
    let mut cur = f.push(b, load, t);
    let mut res = cur;
    let active = f.push(b, Op::FillInactive(o32, z32), Ty::I32);
    for k in 0..simd {
        let on = f.push(b, Op::ReadLane(active, k), Ty::I32);
        let on = f.push(b, Op::Cmp(CmpOp::Ne, on, z32), Ty::Bool);
        let kk = f.push(b, Op::Const(u64::from(k)), Ty::I32);
        let is_k = f.push(b, Op::Cmp(CmpOp::Eq, lane, kk), Ty::Bool);
        res = f.push(b, Op::Select(is_k, cur, res), t);
        let xk = f.push(b, Op::ReadLane(rmw.x, k), t);
        let next = match (rmw.aop, rmw.cmp) {
            (Some(AtomicOp::Xchg), _) => xk,
            (Some(a), _) => f.push(b, Op::Bin(bin_op(a), cur, xk), t),
            (None, c) => {
                let c = c.expect("a compare-exchange has its comparator");
                let ck = f.push(b, Op::ReadLane(c, k), t);
                let eq = f.push(b, Op::Cmp(CmpOp::Eq, cur, ck), Ty::Bool);
                f.push(b, Op::Select(eq, xk, cur), t)
            }
        };
        cur = f.push(b, Op::Select(on, next, cur), t);
    }
    let store = Op::Store {
        addr: word,
        value: cur,
        align: 8,
        bytes: 8,
    };
    // Seen before the lock's release without a fence, as in the rounds.
    f.push(b, store, Ty::Void);
    res
}

/// The operation an atomic applies (exchange has none: its operand is the new value).
fn bin_op(a: AtomicOp) -> BinOp {
    match a {
        AtomicOp::Add => BinOp::Add,
        AtomicOp::Sub => BinOp::Sub,
        AtomicOp::And => BinOp::And,
        AtomicOp::Or => BinOp::Or,
        AtomicOp::Xor => BinOp::Xor,
        AtomicOp::SMin => BinOp::Min { signed: true },
        AtomicOp::SMax => BinOp::Max { signed: true },
        AtomicOp::UMin => BinOp::Min { signed: false },
        AtomicOp::UMax | AtomicOp::Xchg => BinOp::Max { signed: false },
    }
}
