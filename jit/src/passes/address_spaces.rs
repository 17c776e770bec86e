//! Static resolution of the generic address space (seed 002): a pointer the program holds
//! as generic, but whose named address space can be proven, takes that space, so that its
//! accesses use the space's own messages and need no run-time switch.
//!
//! An optimistic data-flow over the pointer values: every generic value starts unknown;
//! a cast to generic (`ConvOp::ToGeneric`) has the space of the pointer cast, a phi or
//! select is the one space all its known inputs agree on, and address arithmetic and bit
//! casts take the space of the pointer they start from. Anything else that makes a generic
//! pointer (loaded from memory, an integer turned into a pointer, a kernel argument) is
//! unresolvable, as is a phi whose inputs disagree.
//!
//! Values resolved take their space as their type (a cast to generic becomes a plain bit
//! cast), and a cast back (`ConvOp::FromGeneric`) of one is the pointer itself, or NULL when
//! it asks for another space (to_local of a global pointer). The rest stay generic and
//! `passes::generic_pointers` tags them at run time. Where a resolved value is used as a
//! generic pointer's bits (stored to memory, merged with an unresolved pointer, compared
//! with one, turned into an integer), a cast to generic is put back for that use alone.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{Block, ConvOp, Function, Inst, Op, Space, Ty, Value};

/// What the analysis knows of a generic value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    /// Nothing yet (optimistic start).
    Unknown,
    Space(Space),
    /// More than one space reaches it, or its space is decided at run time.
    Mixed,
}

fn meet(a: Known, b: Known) -> Known {
    match (a, b) {
        (Known::Unknown, x) | (x, Known::Unknown) => x,
        (Known::Space(s), Known::Space(t)) if s == t => a,
        _ => Known::Mixed,
    }
}

pub fn run(f: &mut Function) {
    let generic = |f: &Function, v: Value| f.ty(v) == Ty::Ptr(Space::Generic);
    let placed: Vec<Value> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .copied()
        .filter(|v| generic(f, *v))
        .collect();
    let casts_back = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|v| matches!(f.inst(*v).op, Op::Conv(ConvOp::FromGeneric, _)));
    if placed.is_empty() && !casts_back {
        return;
    }
    let mut known = vec![Known::Unknown; f.insts.len()];
    let of = |known: &[Known], f: &Function, v: Value| -> Known {
        match f.ty(v) {
            Ty::Ptr(Space::Generic) => known[v.0 as usize],
            _ if f.inst(v).op == Op::Const(0) => Known::Unknown,
            Ty::Ptr(s) => Known::Space(s),
            _ => Known::Mixed,
        }
    };
    loop {
        let mut changed = false;
        for &v in &placed {
            let k = match &f.inst(v).op {
                Op::Phi(ins) => ins
                    .iter()
                    .map(|(_, x)| of(&known, f, *x))
                    .fold(Known::Unknown, meet),
                Op::Select(_, a, b) => meet(of(&known, f, *a), of(&known, f, *b)),
                // NULL is NULL in every space.
                Op::Const(0) => Known::Unknown,
                Op::PtrAdd(p, _)
                | Op::Conv(ConvOp::Bitcast, p)
                | Op::Conv(ConvOp::ToGeneric, p) => of(&known, f, *p),
                _ => Known::Mixed,
            };
            if k != known[v.0 as usize] {
                known[v.0 as usize] = k;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Per value: the space it was resolved to.
    let space: Vec<Option<Space>> = (0..f.insts.len())
        .map(|v| match known[v] {
            Known::Space(s) if generic(f, Value(v as u32)) => Some(s),
            _ => None,
        })
        .collect();
    let is_generic: Vec<bool> = (0..f.insts.len())
        .map(|v| generic(f, Value(v as u32)))
        .collect();
    let resolved = |v: Value| space[v.0 as usize];
    let unresolved = |v: Value| is_generic[v.0 as usize] && space[v.0 as usize].is_none();
    // A pointer of a named space where a generic one is merged: resolved, or never generic.
    let named = |f: &Function, v: Value| {
        resolved(v).is_some() || matches!(f.ty(v), Ty::Ptr(s) if s != Space::Generic)
    };

    // The uses that need a resolved value's generic bits: (before this instruction, or at
    // the end of this block) → the values to cast back to generic there.
    let mut before: HashMap<Value, Vec<Value>> = HashMap::default();
    let mut at_end: HashMap<Block, Vec<Value>> = HashMap::default();
    for b in &f.blocks {
        for &u in &b.insts {
            let mut here = |x: Value, merged: bool| {
                if resolved(x).is_some() || (merged && named(f, x)) {
                    before.entry(u).or_default().push(x);
                }
            };
            match &f.inst(u).op {
                Op::Store { value, .. } => here(*value, false),
                Op::Atomic(_, _, x) => here(*x, false),
                Op::CmpXchg { cmp, value, .. } => {
                    here(*cmp, false);
                    here(*value, false);
                }
                Op::Conv(ConvOp::Bitcast, x) if !matches!(f.ty(u), Ty::Ptr(_)) => here(*x, false),
                Op::Select(_, a, c) if unresolved(u) => {
                    here(*a, true);
                    here(*c, true);
                }
                Op::Cmp(_, a, c) if unresolved(*a) || unresolved(*c) => {
                    here(*a, true);
                    here(*c, true);
                }
                Op::Phi(ins) if unresolved(u) => {
                    for (p, x) in ins {
                        if named(f, *x) {
                            at_end.entry(*p).or_default().push(*x);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    // A value no space reached is made of NULLs alone: where a resolved phi or select reads
    // one, it reads a NULL of the phi's space (a constant in the entry block).
    let mut nulls: HashMap<Space, Value> = HashMap::default();
    for &v in &placed {
        let Some(s) = space[v.0 as usize] else {
            continue;
        };
        let null_input =
            |x: Value| is_generic[x.0 as usize] && known[x.0 as usize] == Known::Unknown;
        let inputs: Vec<Value> = match &f.inst(v).op {
            Op::Phi(ins) => ins
                .iter()
                .map(|(_, x)| *x)
                .filter(|x| null_input(*x))
                .collect(),
            Op::Select(_, a, c) => [*a, *c].into_iter().filter(|x| null_input(*x)).collect(),
            _ => continue,
        };
        if inputs.is_empty() {
            continue;
        }
        let null = *nulls.entry(s).or_insert_with(|| {
            f.insts.push(Inst {
                op: Op::Const(0),
                ty: Ty::Ptr(s),
            });
            let n = Value(f.insts.len() as u32 - 1);
            f.blocks[0].insts.insert(0, n);
            n
        });
        match &mut f.insts[v.0 as usize].op {
            Op::Phi(ins) => {
                for (_, x) in ins.iter_mut() {
                    if inputs.contains(x) {
                        *x = null;
                    }
                }
            }
            Op::Select(_, a, c) => {
                for x in [a, c] {
                    if inputs.contains(x) {
                        *x = null;
                    }
                }
            }
            _ => {}
        }
    }
    // Resolved values take their space.
    for &v in &placed {
        if let Some(s) = resolved(v) {
            let inst = &mut f.insts[v.0 as usize];
            inst.ty = Ty::Ptr(s);
            if let Op::Conv(c @ ConvOp::ToGeneric, _) = &mut inst.op {
                *c = ConvOp::Bitcast;
            }
        }
    }
    // Casts back of a pointer whose space is known now.
    for b in 0..f.blocks.len() {
        for k in 0..f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[k];
            let Op::Conv(ConvOp::FromGeneric, g) = f.inst(v).op else {
                continue;
            };
            match (f.ty(g), f.ty(v)) {
                (Ty::Ptr(Space::Generic), _) => {}
                (from, to) if from == to => f.insts[v.0 as usize].op = Op::Conv(ConvOp::Bitcast, g),
                // A pointer of another space: NULL.
                _ => f.insts[v.0 as usize].op = Op::Const(0),
            }
        }
    }

    // The generic bits put back where they are read as such.
    if before.is_empty() && at_end.is_empty() {
        return;
    }
    let tagged = |f: &mut Function, x: Value| -> Value {
        f.insts.push(Inst {
            op: Op::Conv(ConvOp::ToGeneric, x),
            ty: Ty::Ptr(Space::Generic),
        });
        Value(f.insts.len() as u32 - 1)
    };
    // (block, value, its tagged copy made at the block's end) for the phis of its successors.
    let mut edges: Vec<(usize, Value, Value)> = Vec::new();
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut insts = Vec::with_capacity(old.len());
        for u in old {
            if let Some(xs) = before.get(&u) {
                let mut map: Vec<(Value, Value)> = Vec::new();
                for &x in xs {
                    if map.iter().any(|(a, _)| *a == x) {
                        continue;
                    }
                    let t = tagged(f, x);
                    insts.push(t);
                    map.push((x, t));
                }
                let pick = |v: Value| map.iter().find(|(a, _)| *a == v).map_or(v, |(_, t)| *t);
                let op = &mut f.insts[u.0 as usize].op;
                match op {
                    Op::Store { value, .. } => *value = pick(*value),
                    Op::Atomic(_, _, x) => *x = pick(*x),
                    Op::CmpXchg { cmp, value, .. } => {
                        *cmp = pick(*cmp);
                        *value = pick(*value);
                    }
                    Op::Conv(_, x) => *x = pick(*x),
                    Op::Select(_, a, c) | Op::Cmp(_, a, c) => {
                        *a = pick(*a);
                        *c = pick(*c);
                    }
                    _ => {}
                }
            }
            insts.push(u);
        }
        if let Some(xs) = at_end.get(&Block(b as u32)) {
            for &x in xs {
                if !edges.iter().any(|(e, a, _)| *e == b && *a == x) {
                    let t = tagged(f, x);
                    insts.push(t);
                    edges.push((b, x, t));
                }
            }
        }
        f.blocks[b].insts = insts;
    }
    // The phis that stayed generic read the tagged copies on those edges.
    if edges.is_empty() {
        return;
    }
    for b in 0..f.blocks.len() {
        for k in 0..f.blocks[b].insts.len() {
            let p = f.blocks[b].insts[k];
            if !unresolved_phi(f, p) {
                continue;
            }
            if let Op::Phi(ins) = &mut f.insts[p.0 as usize].op {
                for (from, x) in ins.iter_mut() {
                    if let Some((_, _, t)) = edges
                        .iter()
                        .find(|(e, a, _)| *e == from.0 as usize && *a == *x)
                    {
                        *x = *t;
                    }
                }
            }
        }
    }
}

/// A phi that stayed generic (its inputs' tags are read at run time).
fn unresolved_phi(f: &Function, p: Value) -> bool {
    matches!(f.inst(p).op, Op::Phi(_)) && f.ty(p) == Ty::Ptr(Space::Generic)
}
