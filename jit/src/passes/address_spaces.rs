//! Static resolution of the generic address space (seed 002): a pointer the program holds
//! as generic, but whose named address space can be proven, takes that space, so that its
//! accesses use the space's own messages and need no run-time switch.
//!
//! An optimistic data-flow over the pointer values: every generic value starts unknown;
//! a phi or select is the one space all its known inputs agree on, and address arithmetic
//! and bit casts take the space of the pointer they start from. Anything else that makes a
//! generic pointer (loaded from memory, an integer turned into a pointer, a kernel argument)
//! is unresolvable, as is a phi whose inputs disagree. Values resolved take their space as
//! their type; the rest stay generic, and instruction selection refuses their accesses with
//! a build error that names the generic address space.

use crate::ir::{ConvOp, Function, Op, Space, Ty, Value};

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
    if placed.is_empty() {
        return;
    }
    let mut known = vec![Known::Unknown; f.insts.len()];
    let of = |known: &[Known], f: &Function, v: Value| -> Known {
        match f.ty(v) {
            Ty::Ptr(Space::Generic) => known[v.0 as usize],
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
                Op::PtrAdd(p, _) | Op::Conv(ConvOp::Bitcast, p) => of(&known, f, *p),
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
    for v in placed {
        if let Known::Space(s) = known[v.0 as usize] {
            f.insts[v.0 as usize].ty = Ty::Ptr(s);
        }
    }
}
