//! Register allocation: linear scan over the linearised machine code, spilling to scratch
//! what does not fit.
//!
//! The GRF file is managed in 8-byte slots: a scalar (uniform) virtual
//! register takes one slot, a per-lane register whole contiguous GRFs. Each register goes
//! to the lowest free position; where that leaves no room for a large one (first fit
//! scatters small values through the holes that messages' replies leave), the scan is made
//! again with large registers placed from the top of the file down (`Placement`).
//! Live intervals (`analysis::liveness`) come from the first and last reference in program
//! order; a register that is live into a loop, or read in a loop before it is
//! written there (carried around the back edge), is kept live to the loop's
//! end, and one written in a loop and read after it is kept for the whole loop
//! (channels leave a loop in different iterations). r0..payload stay reserved (thread payload), r127 holds the EOT
//! message (the PRM wants EOT payloads in r112-r127).
//!
//! When a register finds no room, one of the registers live at that point is spilled
//! (`spill.rs`): the cheapest by references (weighted by loop depth) per instruction of its
//! interval, never a spill temporary, and the scan starts again on the rewritten code.

mod spill;

use rustc_hash::FxHashSet as HashSet;

use thiserror::Error;

use crate::mir::{Item, MFunction, VReg};

#[derive(Debug, Clone, Error)]
pub enum RegallocError {
    #[error("the kernel needs more than the 128 GRFs of a Gen9 thread even with {spilled} bytes spilled to scratch (no register left to spill)")]
    OutOfRegisters { spilled: u32 },
    #[error("the kernel spills more than the {max} bytes of scratch an offset can address")]
    ScratchTooLarge { max: u32 },
}

/// Byte address in the GRF file of every virtual register.
pub struct Assignment {
    pub base: Vec<u32>,
    /// GRFs the kernel uses (r0 .. grf_count-1).
    pub grf_count: u32,
    /// GRFs holding payload or allocated values (r0 .. grfs_used-1), not counting r127's
    /// end-of-thread message: the register pressure the build log reports.
    pub grfs_used: u32,
    /// Bytes of scratch per thread that spilled registers occupy.
    pub spill_bytes: u32,
    /// Bytes of scratch per thread in use: the lanes' private memory, then the spills.
    pub scratch_bytes: u32,
}

const SLOTS_PER_GRF: usize = 4;
const LAST_GRF: usize = 126;
/// Scratch block offsets are 12 bits of HWords.
const MAX_SCRATCH: u32 = 4096 * 32;

/// Allocate, spilling until everything fits.
pub fn allocate(m: &mut MFunction) -> Result<Assignment, RegallocError> {
    let mut temps: HashSet<u32> = HashSet::default();
    let mut spill_bytes = m.scratch_base;
    loop {
        let failure = match scan(m) {
            Ok(mut a) => {
                a.spill_bytes = spill_bytes - m.scratch_base;
                a.scratch_bytes = spill_bytes;
                return Ok(a);
            }
            Err(f) => f,
        };
        let victim = choose(m, &failure, &temps).ok_or(RegallocError::OutOfRegisters {
            spilled: spill_bytes,
        })?;
        let bytes = m.vregs[victim.0 as usize].grfs().max(1) * 32;
        if spill_bytes + bytes > MAX_SCRATCH {
            return Err(RegallocError::ScratchTooLarge { max: MAX_SCRATCH });
        }
        tracing::debug!(vreg = victim.0, bytes, "spilling");
        temps.extend(
            spill::spill(m, victim, spill_bytes)
                .into_iter()
                .map(|t| t.0),
        );
        spill_bytes += bytes;
    }
}

/// An assignment of `m`'s registers without spilling any, if they fit (one scan: what the
/// scheduler's modes are tried with before a build pays for spilling).
pub fn allocate_without_spilling(m: &MFunction) -> Option<Assignment> {
    let mut a = scan(m).ok()?;
    a.spill_bytes = 0;
    a.scratch_bytes = m.scratch_base;
    Some(a)
}

/// Where the scan ran out of room: the position it was at, and every register's interval.
struct Failure {
    at: usize,
    start: Vec<usize>,
    end: Vec<usize>,
}

/// The register to spill at a failure: live at that point, not a spill temporary, and with a
/// gap in its interval to win (a register read only by the instruction after its definition
/// gains nothing from living in scratch); the lowest weighted reference count per
/// instruction of interval.
fn choose(m: &MFunction, f: &Failure, temps: &HashSet<u32>) -> Option<VReg> {
    // Loop depth at each position, and each register's weighted references.
    let mut depth = 0u32;
    let mut weight = vec![0f64; m.vregs.len()];
    for item in &m.items {
        match item {
            Item::LoopStart(_) => depth += 1,
            Item::LoopEnd(_) => depth = depth.saturating_sub(1),
            Item::Inst(mi) => {
                let w = 10f64.powi(depth.min(4) as i32);
                for r in mi.srcs.iter().flatten().chain(mi.dst.iter()) {
                    weight[r.v.0 as usize] += w;
                }
            }
            Item::Label(_) => {}
        }
    }
    (0..m.vregs.len())
        .filter(|&v| {
            f.start[v] != usize::MAX
                && f.start[v] <= f.at
                && f.end[v] >= f.at
                && !temps.contains(&(v as u32))
                && f.end[v] - f.start[v] > 2
        })
        .min_by(|&a, &b| {
            let cost = |v: usize| weight[v] / (f.end[v] - f.start[v]) as f64;
            cost(a).total_cmp(&cost(b))
        })
        .map(|v| VReg(v as u32))
}

/// Where a scan places each register among the free positions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Placement {
    /// The lowest position that is free.
    FirstFit,
    /// Registers of `LARGE_GRFS` or more (a message's reply or payload) from the top of the
    /// file down, the rest from the bottom up: a reply's sixteen GRFs then find room
    /// between other replies instead of between the scattered one- and two-GRF values
    /// that first fit leaves in every gap.
    Split,
}

/// A register of this many GRFs or more is large for `Placement::Split`.
const LARGE_GRFS: u32 = 4;

/// One scan in each placement until one fits; the first placement's failure otherwise
/// (the position spilling starts from).
fn scan(m: &MFunction) -> Result<Assignment, Failure> {
    let first = scan_with(m, Placement::FirstFit);
    if first.is_ok() {
        return first;
    }
    scan_with(m, Placement::Split).or(first)
}

fn scan_with(m: &MFunction, placement: Placement) -> Result<Assignment, Failure> {
    let n = m.vregs.len();
    let crate::analysis::liveness::Intervals { start, end } =
        crate::analysis::liveness::intervals(m);
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
        let fits = |s: &usize| (*s..*s + count).all(|x| free(x, &busy_until));
        let npos = (last_slot.saturating_sub(count + first_slot) / align + 1)
            * usize::from(first_slot + count <= last_slot);
        let positions = (0..npos).map(|i| first_slot + i * align);
        let found =
            if placement == Placement::Split && !info.is_scalar() && info.grfs() >= LARGE_GRFS {
                positions.rev().find(fits)
            } else {
                positions.clone().find(fits)
            };
        let Some(s) = found else {
            return Err(Failure {
                at: start[v],
                start,
                end,
            });
        };
        busy_until[s..s + count].fill(Some(end[v]));
        base[v] = (s * 8) as u32;
        high = high.max((s + count).div_ceil(SLOTS_PER_GRF));
    }
    Ok(Assignment {
        base,
        // r127 carries the EOT message, so every kernel uses the whole file.
        grf_count: 128,
        grfs_used: high as u32,
        spill_bytes: 0,
        scratch_bytes: 0,
    })
}

#[cfg(test)]
mod tests;
