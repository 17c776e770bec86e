//! Promote private variables to SSA values (mem2reg, with the scalar replacement that
//! OpenCL C needs: a struct or vector variable becomes one value per field).
//!
//! Unoptimised SPIR-V (clang -O0, other producers, libclc) keeps every variable in
//! Function storage: an `Op::Alloca` with loads and stores. A variable is promoted when
//! every use of its address, through constant offsets, bit casts and casts to the generic
//! space, is a load or a store at a constant offset, and the accesses never partly overlap:
//! each distinct (offset, size) is then one slot, promoted with the classic construction
//! (phis at the iterated dominance frontier of the stores, then renaming over the dominator
//! tree). Variables
//! indexed at run time, or whose address escapes, stay in memory (private memory is the
//! memory-model issue's; instruction selection refuses them with a clear error).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::analysis::Cfg;
use crate::ir::{Block, ConvOp, Function, Inst, Op, Term, Ty, Value};

/// An access to a variable: the instruction, its constant offset and size.
struct Access {
    inst: Value,
    offset: u64,
    bytes: u32,
}

/// What `base_offset` has found per value (dense, by value number: a round asks about
/// most values, and a hash map here was the pass's largest cost).
struct Memo(Vec<Option<Option<(Value, u64)>>>);

impl Memo {
    fn new(f: &Function) -> Memo {
        Memo(vec![None; f.insts.len()])
    }
}

/// The variable and constant offset an address denotes.
fn base_offset(f: &Function, v: Value, memo: &mut Memo) -> Option<(Value, u64)> {
    if let Some(r) = memo.0.get(v.0 as usize).copied().flatten() {
        return r;
    }
    let r = match f.inst(v).op {
        Op::Alloca { .. } => Some((v, 0)),
        Op::PtrAdd(p, k) => match (base_offset(f, p, memo), &f.inst(k).op) {
            (Some((a, o)), Op::Const(c)) => Some((a, o.wrapping_add(*c))),
            _ => None,
        },
        Op::Conv(ConvOp::Bitcast, p) if matches!(f.ty(p), Ty::Ptr(_)) => base_offset(f, p, memo),
        // The same variable through a generic pointer (OpenCL 2.0 code takes a variable's
        // address as generic: `atomic_compare_exchange_*`'s `expected`, a helper's pointer
        // parameter): its loads and stores are the variable's.
        Op::Conv(ConvOp::ToGeneric, p) => base_offset(f, p, memo),
        _ => None,
    };
    if let Some(slot) = memo.0.get_mut(v.0 as usize) {
        *slot = Some(r);
    }
    r
}

/// Promote until nothing more can be: a variable that holds the address of another
/// (code compiled without optimisation stores a pointer parameter into a variable of its
/// own) frees that other variable once it is promoted itself.
pub fn run(f: &mut Function) {
    for _ in 0..16 {
        if !round(f) {
            return;
        }
    }
}

/// One round; whether another round may promote more.
fn round(f: &mut Function) -> bool {
    let mut memo = Memo::new(f);
    // Every use of every value derived from an alloca, classified.
    let mut accesses: HashMap<Value, Vec<Access>> = HashMap::default();
    let mut escaped: HashSet<Value> = HashSet::default();
    let placed: Vec<Value> = f
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().copied())
        .collect();
    for &v in &placed {
        match &f.inst(v).op {
            &Op::Load { addr, bytes, .. } => {
                if let Some((a, off)) = base_offset(f, addr, &mut memo) {
                    accesses.entry(a).or_default().push(Access {
                        inst: v,
                        offset: off,
                        bytes,
                    });
                }
            }
            &Op::Store {
                addr, value, bytes, ..
            } => {
                if let Some((a, _)) = base_offset(f, value, &mut memo) {
                    escaped.insert(a);
                }
                if let Some((a, off)) = base_offset(f, addr, &mut memo) {
                    accesses.entry(a).or_default().push(Access {
                        inst: v,
                        offset: off,
                        bytes,
                    });
                }
            }
            // Address arithmetic that stays a known offset is no use of its own.
            &Op::PtrAdd(_, k) if matches!(f.inst(k).op, Op::Const(_)) => {}
            &Op::Conv(ConvOp::Bitcast, p) if matches!(f.ty(p), Ty::Ptr(_)) => {}
            &Op::Conv(ConvOp::ToGeneric, _) => {}
            op => {
                for o in op.operands() {
                    if let Some((a, _)) = base_offset(f, o, &mut memo) {
                        escaped.insert(a);
                    }
                }
            }
        }
    }
    for b in &f.blocks {
        if let Term::CondBr(c, _, _) = b.term {
            if let Some((a, _)) = base_offset(f, c, &mut memo) {
                escaped.insert(a);
            }
        }
    }
    let allocas: Vec<Value> = placed
        .iter()
        .copied()
        .filter(|v| matches!(f.inst(*v).op, Op::Alloca { .. }))
        .collect();
    let mut slots: Vec<(Vec<Value>, Ty)> = Vec::new(); // accesses of one slot, its type
    let mut promoted: HashSet<Value> = HashSet::default();
    for a in allocas {
        if escaped.contains(&a) {
            continue;
        }
        let list = accesses.remove(&a).unwrap_or_default();
        // Distinct (offset, size) pairs must not overlap one another.
        let mut ranges: Vec<(u64, u32)> = list.iter().map(|x| (x.offset, x.bytes)).collect();
        ranges.sort();
        ranges.dedup();
        let overlap = ranges
            .windows(2)
            .any(|w| w[0].0 + u64::from(w[0].1) > w[1].0);
        if overlap {
            continue;
        }
        for (off, bytes) in ranges {
            let members: Vec<Value> = list
                .iter()
                .filter(|x| x.offset == off && x.bytes == bytes)
                .map(|x| x.inst)
                .collect();
            // The slot's type: the first load's, else the first store's value's.
            let ty = members
                .iter()
                .find_map(|m| match f.inst(*m).op {
                    Op::Load { .. } => Some(f.ty(*m)),
                    _ => None,
                })
                .or_else(|| {
                    members.iter().find_map(|m| match f.inst(*m).op {
                        Op::Store { value, .. } => Some(f.ty(value)),
                        _ => None,
                    })
                })
                .unwrap_or(Ty::I32);
            slots.push((members, ty));
        }
        promoted.insert(a);
    }
    if slots.is_empty() {
        return false;
    }
    // Another round can only find more if a promoted variable held the address of another
    // (that other variable escaped through the store and is free now).
    let held_addresses = slots
        .iter()
        .flat_map(|(m, _)| m)
        .any(|m| match f.inst(*m).op {
            Op::Store { value, .. } => base_offset(f, value, &mut memo).is_some(),
            _ => false,
        });
    promote(f, &slots);
    // The promoted allocas and their address arithmetic are dead now (DCE removes them);
    // stop them counting as uses of what they held in the next round.
    // Every remaining value that is a promoted variable's address (the alloca and its
    // offsets and casts) has no use left but other such addresses.
    let mut memo = Memo::new(f);
    let mut gone = rustc_hash::FxHashSet::default();
    for b in &f.blocks {
        for v in &b.insts {
            if let Some((a, _)) = base_offset(f, *v, &mut memo) {
                if promoted.contains(&a) {
                    gone.insert(*v);
                }
            }
        }
    }
    for b in &mut f.blocks {
        b.insts.retain(|v| !gone.contains(v));
    }
    held_addresses
}

/// SSA construction for each slot.
fn promote(f: &mut Function, slots: &[(Vec<Value>, Ty)]) {
    let cfg = Cfg::new(f);
    let n = f.blocks.len();
    let reachable = |b: usize| cfg.rpo[b] != u32::MAX;
    // Dominance frontiers (Cooper, Harvey, Kennedy).
    let mut df: Vec<Vec<usize>> = vec![Vec::new(); n];
    for b in 0..n {
        if !reachable(b) {
            continue;
        }
        let preds: Vec<usize> = cfg
            .preds(b)
            .iter()
            .map(|p| p.0 as usize)
            .filter(|p| reachable(*p))
            .collect();
        if preds.len() < 2 {
            continue;
        }
        for p in preds {
            let mut r = p;
            while r != cfg.idom[b] as usize {
                if !df[r].contains(&b) {
                    df[r].push(b);
                }
                if cfg.idom[r] as usize == r {
                    break;
                }
                r = cfg.idom[r] as usize;
            }
        }
    }
    // Dominator-tree children.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for b in 1..n {
        if reachable(b) && cfg.idom[b] as usize != b {
            children[cfg.idom[b] as usize].push(b);
        }
    }
    let mut block_of: Vec<usize> = vec![usize::MAX; f.insts.len()];
    for (b, bd) in f.blocks.iter().enumerate() {
        for v in &bd.insts {
            block_of[v.0 as usize] = b;
        }
    }
    let mut slot_of: HashMap<Value, usize> = HashMap::default();
    for (s, (members, _)) in slots.iter().enumerate() {
        for m in members {
            slot_of.insert(*m, s);
        }
    }
    // Phi placement: (block, slot) → phi value.
    // Phi placement: per block, (slot, phi value).
    let mut phis: Vec<Vec<(usize, Value)>> = vec![Vec::new(); n];
    for (s, (members, ty)) in slots.iter().enumerate() {
        let mut work: Vec<usize> = members
            .iter()
            .filter(|m| matches!(f.inst(**m).op, Op::Store { .. }))
            .map(|m| block_of[m.0 as usize])
            .filter(|&b| b != usize::MAX)
            .collect();
        let mut has = vec![false; n];
        while let Some(b) = work.pop() {
            for &d in &df[b] {
                if !has[d] {
                    has[d] = true;
                    f.insts.push(Inst {
                        op: Op::Phi(Vec::new()),
                        ty: *ty,
                    });
                    let phi = Value(f.insts.len() as u32 - 1);
                    phis[d].push((s, phi));
                    work.push(d);
                }
            }
        }
    }
    for (b, list) in phis.iter().enumerate() {
        if !list.is_empty() {
            f.blocks[b].insts.splice(0..0, list.iter().map(|(_, p)| *p));
        }
    }
    // Renaming over the dominator tree: each slot's current value on entry to a block.
    let mut replace: HashMap<Value, Value> = HashMap::default();
    let mut dead: rustc_hash::FxHashSet<Value> = Default::default();
    // A variable read before any store holds an undefined value: a zero, which phis may
    // also ignore (`remove_trivial_phis`).
    let undef: Vec<Value> = slots
        .iter()
        .map(|(_, ty)| {
            f.insts.push(Inst {
                op: Op::Const(0),
                ty: *ty,
            });
            Value(f.insts.len() as u32 - 1)
        })
        .collect();
    f.blocks[0].insts.splice(0..0, undef.iter().copied());
    let undef_values: rustc_hash::FxHashSet<Value> = undef.iter().copied().collect();
    let mut stack: Vec<(usize, Vec<Value>)> = vec![(0, undef)];
    while let Some((b, mut cur)) = stack.pop() {
        for &(s, p) in &phis[b] {
            cur[s] = p;
        }
        let insts = f.blocks[b].insts.clone();
        for v in insts {
            let Some(&s) = slot_of.get(&v) else { continue };
            let ty = slots[s].1;
            match f.inst(v).op.clone() {
                Op::Load { .. } => {
                    // Same size, maybe another type: a bit cast.
                    let val = if f.ty(v) == ty {
                        cur[s]
                    } else {
                        f.insts[v.0 as usize].op = Op::Conv(ConvOp::Bitcast, cur[s]);
                        v
                    };
                    if val != v {
                        replace.insert(v, val);
                        dead.insert(v);
                    }
                }
                Op::Store { value, .. } => {
                    let value = *replace.get(&value).unwrap_or(&value);
                    cur[s] = if f.ty(value) == ty {
                        value
                    } else {
                        // Keep the conversion where the store was.
                        f.insts[v.0 as usize] = Inst {
                            op: Op::Conv(ConvOp::Bitcast, value),
                            ty,
                        };
                        v
                    };
                    if cur[s] != v {
                        dead.insert(v);
                    }
                }
                _ => {}
            }
        }
        for succ in f.successors(Block(b as u32)) {
            for &(s, p) in &phis[succ.0 as usize] {
                if let Op::Phi(ins) = &mut f.insts[p.0 as usize].op {
                    ins.push((Block(b as u32), cur[s]));
                }
            }
        }
        for &c in &children[b] {
            stack.push((c, cur.clone()));
        }
    }
    // Uses of the removed loads read the values they stood for.
    for b in &mut f.blocks {
        b.insts.retain(|v| !dead.contains(v));
    }
    crate::passes::replace_uses(f, &replace);
    remove_trivial_phis(f, &undef_values);
}

/// Phis whose inputs are all one value (or the phi itself, or undefined) are that value.
/// SSA construction makes many (a variable stored once before a loop, a pointer held in a
/// variable and undefined on the paths before its store), and an address hidden behind
/// one would keep its variable from promotion.
fn remove_trivial_phis(f: &mut Function, undef: &rustc_hash::FxHashSet<Value>) {
    loop {
        let mut replace: HashMap<Value, Value> = HashMap::default();
        for b in &f.blocks {
            for v in &b.insts {
                if let Op::Phi(ins) = &f.inst(*v).op {
                    let mut only: Option<Value> = None;
                    let mut trivial = true;
                    for (_, x) in ins {
                        if *x == *v || Some(*x) == only || undef.contains(x) {
                            continue;
                        }
                        if only.is_some() {
                            trivial = false;
                            break;
                        }
                        only = Some(*x);
                    }
                    if let (true, Some(x)) = (trivial, only) {
                        replace.insert(*v, x);
                    }
                }
            }
        }
        if replace.is_empty() {
            return;
        }
        for b in &mut f.blocks {
            b.insts.retain(|v| !replace.contains_key(v));
        }
        crate::passes::replace_uses(f, &replace);
    }
}
