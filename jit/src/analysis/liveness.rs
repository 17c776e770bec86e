//! Live intervals of the machine IR's virtual registers, over its linearised items: from a
//! register's first reference to its last, widened around loops (Gen's SIMD loops keep
//! channels that left in an earlier iteration parked while the others go round):
//! - a register live into a loop, or read in a loop before it is written there (carried
//!   round the back edge), lives to the loop's end;
//! - one written in a loop and read after it lives from the loop's start (the lanes that
//!   left early keep their value in it while the others go round).
//!
//! Register allocation assigns by these intervals; the machine IR's verifier checks an
//! assignment against them (no two registers live at once share a byte).

use crate::mir::{Item, Label, MFunction};

/// Each register's interval of item positions, `start[v]..=end[v]`; `start[v]` is
/// `usize::MAX` for a register no item references.
pub struct Intervals {
    pub start: Vec<usize>,
    pub end: Vec<usize>,
}

pub fn intervals(m: &MFunction) -> Intervals {
    let n = m.vregs.len();
    let mut start = vec![usize::MAX; n];
    let mut end = vec![0usize; n];
    // First reference of each register inside each loop, and whether it was a read.
    let mut loops: Vec<(usize, usize)> = Vec::new();
    let mut open: Vec<(Label, usize)> = Vec::new();
    // Each register's references in order: (position, read there, written there under a
    // predicate), so that a loop's first reference is a binary search, not a walk of the
    // loop (an unrolled loop body has thousands of instructions and registers).
    let mut refs: Vec<Vec<(usize, bool, bool)>> = vec![Vec::new(); n];
    for (pos, item) in m.items.iter().enumerate() {
        match item {
            Item::Inst(mi) => {
                for r in mi.srcs.iter().flatten().chain(mi.dst.iter()) {
                    let v = r.v.0 as usize;
                    start[v] = start[v].min(pos);
                    end[v] = end[v].max(pos);
                    if refs[v].last().is_none_or(|(p, ..)| *p != pos) {
                        let read = mi.srcs.iter().flatten().any(|x| x.v.0 as usize == v);
                        refs[v].push((pos, read, mi.inst.predicate.is_some()));
                    }
                }
            }
            Item::LoopStart(l) => open.push((*l, pos)),
            Item::LoopEnd(l) => {
                if let Some(i) = open.iter().rposition(|(x, _)| x == l) {
                    let (_, s) = open.remove(i);
                    loops.push((s, pos));
                }
            }
            Item::Label(_) => {}
        }
    }
    // Loop extension, innermost loops first (they come first in `loops`); repeat
    // until stable so nested loops propagate.
    let mut changed = true;
    while changed {
        changed = false;
        for &(ls, le) in &loops {
            for v in 0..n {
                if start[v] == usize::MAX || end[v] < ls || start[v] > le {
                    continue;
                }
                if end[v] >= le {
                    // Defined in the loop and read after it: the lanes that left in an
                    // earlier iteration keep their value in this register while the
                    // others go round, so nothing else may use it anywhere in the loop.
                    if start[v] > ls {
                        start[v] = ls;
                        changed = true;
                    }
                    continue;
                }
                let carried = start[v] < ls || first_ref_in_is_read(&refs[v], ls, le);
                if carried {
                    end[v] = le;
                    changed = true;
                }
            }
        }
    }
    Intervals { start, end }
}

/// Whether a register's first reference in `ls..=le` reads it (its value comes from before),
/// given its references in order.
fn first_ref_in_is_read(refs: &[(usize, bool, bool)], ls: usize, le: usize) -> bool {
    let i = refs.partition_point(|(p, ..)| *p < ls);
    match refs.get(i) {
        Some(&(p, read, predicated)) if p <= le => {
            // A write under a channel mask leaves other lanes' old values: only an
            // unpredicated full write starts a fresh value.
            read || predicated
        }
        _ => false,
    }
}
