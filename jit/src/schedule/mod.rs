//! Instruction scheduling before register allocation (issue 25; docs/jit.md "Instruction
//! scheduling"): each region of the machine IR between boundaries (labels, loop marks,
//! flow control and the instructions `graph::is_boundary` names) is list-scheduled over
//! its dependence graph, so that a message issues as soon as its payload is ready and the
//! work that does not need its reply fills its latency (Gen scoreboards a send's reply
//! registers: a thread waits only where it reads them). Mesa's `brw_schedule_instructions`
//! and IGC's pre-RA scheduler do this job; like Mesa's, the scheduled code is kept only if
//! it allocates without spilling (`compile.rs` tries a loose and a tight mode, then keeps
//! the order as selected).
//!
//! - `graph`: what each instruction reads and writes, and the dependence graph;
//! - `list`: the list scheduler.

mod graph;
mod list;

pub use graph::is_boundary;

use crate::mir::{Item, MFunction};

/// `GENCL_SCHEDULE=0` keeps the instructions in the order selection made them (for
/// comparison; part of the program cache's key). Read once.
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("GENCL_SCHEDULE").map_or(true, |v| v != "0"))
}

/// How much of the registers a region leaves free its scheduled values may take before the
/// scheduler turns to freeing them (`list::order`'s budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pressure {
    /// Three quarters: latency first.
    Loose,
    /// A quarter: for code whose loose schedule spilled.
    Tight,
}

/// Schedule every region of `m`; true when some instruction moved.
pub fn schedule(m: &mut MFunction, pressure: Pressure) -> bool {
    // Where each virtual register is referenced: one region's only, or more.
    const NONE: u32 = u32::MAX;
    const MANY: u32 = u32::MAX - 1;
    let mut home = vec![NONE; m.vregs.len()];
    let mut region = 0u32;
    for item in &m.items {
        match item {
            Item::Inst(mi) if !graph::is_boundary(mi) => {
                for r in mi.srcs.iter().flatten().chain(mi.dst.iter()) {
                    let h = &mut home[r.v.0 as usize];
                    *h = match *h {
                        NONE => region,
                        x if x == region => region,
                        _ => MANY,
                    };
                }
            }
            _ => {
                if let Item::Inst(mi) = item {
                    for r in mi.srcs.iter().flatten().chain(mi.dst.iter()) {
                        home[r.v.0 as usize] = MANY;
                    }
                }
                region += 1;
            }
        }
    }
    let local: Vec<bool> = home.iter().map(|&h| h < MANY).collect();
    let bytes: Vec<u32> = m.vregs.iter().map(|v| v.bytes.max(4)).collect();
    // The bytes of registers live at each position that no one region holds alone (their
    // intervals; scheduling moves items only within a region, so positions of regions stay).
    let live = crate::analysis::liveness::intervals(m);
    let mut through = vec![0i64; m.items.len() + 1];
    let mut all = vec![0i64; m.items.len() + 1];
    for v in 0..m.vregs.len() {
        let (s, e) = (live.start[v], live.end[v]);
        if s != usize::MAX {
            all[s] += i64::from(bytes[v]);
            all[e + 1] -= i64::from(bytes[v]);
            if !local[v] {
                through[s] += i64::from(bytes[v]);
                through[e + 1] -= i64::from(bytes[v]);
            }
        }
    }
    let (mut sum, mut peak) = (0i64, 0i64);
    for t in all.iter() {
        sum += *t;
        peak = peak.max(sum);
    }
    let mut sum = 0i64;
    for t in through.iter_mut() {
        sum += *t;
        *t = sum;
    }
    // Registers allocation may use: from the first after the payload to r126.
    let room = (127u32.saturating_sub(u32::from(m.first_free_grf))) * 32;
    // Code that cannot fit the registers in the order selection made spills whatever the
    // order: its spills, not its latencies, decide, and allocation is not paid twice more.
    if peak > i64::from(room) {
        return false;
    }
    let share = match pressure {
        Pressure::Loose => 3,
        Pressure::Tight => 1,
    };
    let budget_at = |a: usize, b: usize| {
        let busy = through[a..b.max(a + 1)]
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .max(0) as u32;
        room.saturating_sub(busy) * share / 4
    };
    let mut pos = 0usize;
    let items = std::mem::take(&mut m.items);
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    let mut pending: Vec<Item> = Vec::new();
    let mut moved = false;
    let mut flush = |pending: &mut Vec<Item>, out: &mut Vec<Item>, end: usize| {
        if pending.len() > 2 {
            let budget = budget_at(end - pending.len(), end);
            let insts: Vec<&crate::mir::MInst> = pending
                .iter()
                .map(|i| match i {
                    Item::Inst(mi) => mi,
                    _ => unreachable!("a region holds instructions only"),
                })
                .collect();
            let nodes = graph::build(&insts);
            let order = list::order(&nodes, &bytes, &local, budget);
            if order.len() == pending.len() {
                moved |= order.iter().enumerate().any(|(k, &o)| k as u32 != o);
                let mut slots: Vec<Option<Item>> = pending.drain(..).map(Some).collect();
                out.extend(order.iter().map(|&k| {
                    slots[k as usize]
                        .take()
                        .expect("the order is a permutation")
                }));
                return;
            }
        }
        out.append(pending);
    };
    for item in items {
        match &item {
            Item::Inst(mi) if !graph::is_boundary(mi) => pending.push(item),
            _ => {
                flush(&mut pending, &mut out, pos);
                out.push(item);
            }
        }
        pos += 1;
    }
    flush(&mut pending, &mut out, pos);
    m.items = out;
    moved
}

#[cfg(test)]
mod tests;
