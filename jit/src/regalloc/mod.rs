//! Register allocation: linear scan over the linearised machine code.
//!
//! The GRF file is managed in 8-byte slots: a scalar (uniform) virtual
//! register takes one slot, a per-lane register whole contiguous GRFs.
//! Live intervals come from the first and last reference in program order;
//! a register that is live into a loop, or read in a loop before it is
//! written there (carried around the back edge), is kept live to the loop's
//! end, and one written in a loop and read after it is kept for the whole loop
//! (channels leave a loop in different iterations). r0..payload stay reserved (thread payload), r127 holds the EOT
//! message (the PRM wants EOT payloads in r112-r127).

use thiserror::Error;

use crate::isel::mfunc::{Item, MFunction};

#[derive(Debug, Clone, Error)]
pub enum RegallocError {
    #[error("the kernel needs more than the 128 GRFs of a Gen9 thread (spilling is not implemented yet)")]
    OutOfRegisters,
}

/// Byte address in the GRF file of every virtual register.
pub struct Assignment {
    pub base: Vec<u32>,
    /// GRFs the kernel uses (r0 .. grf_count-1).
    pub grf_count: u32,
    /// GRFs holding payload or allocated values (r0 .. grfs_used-1), not counting r127's
    /// end-of-thread message: the register pressure the build log reports.
    pub grfs_used: u32,
}

const SLOTS_PER_GRF: usize = 4;
const LAST_GRF: usize = 126;

pub fn allocate(m: &MFunction) -> Result<Assignment, RegallocError> {
    let n = m.vregs.len();
    let mut start = vec![usize::MAX; n];
    let mut end = vec![0usize; n];
    // First reference of each register inside each loop, and whether it was a read.
    let mut loops: Vec<(usize, usize)> = Vec::new();
    let mut open: Vec<(crate::isel::mfunc::Label, usize)> = Vec::new();
    for (pos, item) in m.items.iter().enumerate() {
        match item {
            Item::Inst(mi) => {
                for r in mi.srcs.iter().flatten().chain(mi.dst.iter()) {
                    let v = r.v.0 as usize;
                    start[v] = start[v].min(pos);
                    end[v] = end[v].max(pos);
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
                let carried = start[v] < ls || first_ref_in_is_read(m, v as u32, ls, le);
                if carried {
                    end[v] = le;
                    changed = true;
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|v| start[*v] != usize::MAX).collect();
    order.sort_by_key(|v| start[*v]);
    let first_slot = m.first_free_grf as usize * SLOTS_PER_GRF;
    let last_slot = (LAST_GRF + 1) * SLOTS_PER_GRF;
    let mut busy_until: Vec<Option<usize>> = vec![None; last_slot];
    let mut base = vec![0u32; n];
    let mut high = m.first_free_grf as usize;
    for v in order {
        let info = m.vregs[v];
        let (count, align) = if info.is_scalar() {
            (1, 1)
        } else {
            (info.grfs() as usize * SLOTS_PER_GRF, SLOTS_PER_GRF)
        };
        let free = |s: usize, busy: &[Option<usize>]| busy[s].is_none_or(|e| e < start[v]);
        let mut found = None;
        let mut s = first_slot;
        while s + count <= last_slot {
            if (s..s + count).all(|x| free(x, &busy_until)) {
                found = Some(s);
                break;
            }
            s += align;
        }
        let s = found.ok_or(RegallocError::OutOfRegisters)?;
        busy_until[s..s + count].fill(Some(end[v]));
        base[v] = (s * 8) as u32;
        high = high.max((s + count).div_ceil(SLOTS_PER_GRF));
    }
    Ok(Assignment {
        base,
        // r127 carries the EOT message, so every kernel uses the whole file.
        grf_count: 128,
        grfs_used: high as u32,
    })
}

fn first_ref_in_is_read(m: &MFunction, v: u32, ls: usize, le: usize) -> bool {
    for item in &m.items[ls..=le] {
        if let Item::Inst(mi) = item {
            let read = mi.srcs.iter().flatten().any(|r| r.v.0 == v);
            let written = mi.dst.is_some_and(|r| r.v.0 == v);
            if read {
                return true;
            }
            if written {
                // A write under a channel mask leaves other lanes' old values: only an
                // unpredicated full write starts a fresh value.
                return mi.inst.predicate.is_some();
            }
        }
    }
    false
}
