//! List scheduling of one region's dependence graph, top down: at each cycle, of the
//! instructions whose operands are ready, the one with the longest path to the region's
//! end goes next (so messages, whose replies are long paths, go as early as their
//! addresses allow and their users as late as work remains); paths within `BUCKET` cycles
//! of each other count as equal, and of those the instruction made ready last goes first,
//! so that a chain is finished before the next is started (a message right after its
//! address, not sixteen addresses and then sixteen messages: the addresses would hold
//! their registers while the replies need them); when none is ready, the cycle advances
//! to the earliest. Register pressure: while the registers the region has
//! defined and not yet freed exceed `budget` bytes, the instruction that frees the most
//! (and defines the least) goes first instead, a register read by n instructions counted
//! freed by an nth at each.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::Node;

/// Instructions weighed at a pick under pressure, of those ready and of those waiting.
const CANDIDATES: usize = 16;

/// Cycles of path length within which ready instructions count as equally urgent: more
/// than an address's few instructions before its message, less than a message's latency.
const BUCKET: u32 = 32;

/// A ready instruction's priority: its path length in buckets, then how late it became
/// ready, then its path, then the original order.
type Priority = (u32, u32, u32, Reverse<u32>);

/// The order of `nodes` to issue them in. `bytes[v]` is virtual register v's size;
/// `local[v]` whether the region holds every reference to it (only those are counted:
/// one live before or after the region is live throughout it whatever the order).
pub fn order(nodes: &[Node], bytes: &[u32], local: &[bool], budget: u32) -> Vec<u32> {
    let n = nodes.len();
    let mut preds: Vec<u32> = nodes.iter().map(|x| x.preds).collect();
    let mut earliest = vec![0u32; n];
    // Readers of each local register not yet scheduled.
    let mut readers_left: rustc_hash::FxHashMap<u32, u32> = Default::default();
    for x in nodes {
        for &v in &x.uses {
            if local[v as usize] {
                *readers_left.entry(v).or_default() += 1;
            }
        }
    }
    // Readers of each local register in all.
    let readers = readers_left.clone();
    let mut live: u32 = 0;
    let mut defined: rustc_hash::FxHashSet<u32> = Default::default();
    // Ready now: by height, then the original order. Waiting for their operands: by cycle.
    let mut avail: BinaryHeap<Priority> = BinaryHeap::new();
    let mut waiting: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
    // When each instruction's last operand was scheduled (its position in the order).
    let mut readied = vec![0u32; n];
    let priority = |k: u32, readied: &[u32]| -> Priority {
        let h = nodes[k as usize].height;
        (h / BUCKET, readied[k as usize], h, Reverse(k))
    };
    for (k, x) in nodes.iter().enumerate() {
        if x.preds == 0 {
            avail.push(priority(k as u32, &readied));
        }
    }
    let mut now = 0u32;
    let mut out = Vec::with_capacity(n);
    // The bytes a node would free, less those it would define.
    let gain = |k: usize, defined: &rustc_hash::FxHashSet<u32>| {
        let x = &nodes[k];
        // A register read by several instructions frees a share of its bytes at each
        // (a float4 reply read by eight adds), so that finishing what consumes a reply
        // outweighs starting another chain whose first step frees nothing.
        let freed: i64 = x
            .uses
            .iter()
            .filter(|&&v| local[v as usize])
            .map(|&v| i64::from(bytes[v as usize]) / i64::from(readers[&v]))
            .sum();
        let new: i64 = x
            .defs
            .iter()
            .filter(|&&v| local[v as usize] && !defined.contains(&v))
            .map(|&v| i64::from(bytes[v as usize]))
            .sum();
        freed - new
    };
    while out.len() < n {
        while let Some(&Reverse((t, k))) = waiting.peek() {
            if t > now && !avail.is_empty() {
                break;
            }
            waiting.pop();
            now = now.max(t);
            avail.push(priority(k, &readied));
        }
        let k = if live > budget && avail.len() + waiting.len() > 1 {
            // Under pressure: of every instruction whose operands are computed (ready now
            // or waiting for a reply), the one that frees the most, then the one ready
            // soonest, then the highest; waiting for it rather than defining more.
            // The few highest ready and the few soonest waiting are the candidates (a long
            // unrolled block would otherwise pay for every one of its instructions at
            // every pick).
            let mut all: Vec<u32> = Vec::with_capacity(2 * CANDIDATES);
            while all.len() < CANDIDATES {
                match avail.pop() {
                    Some((.., Reverse(k))) => all.push(k),
                    None => break,
                }
            }
            while all.len() < 2 * CANDIDATES {
                match waiting.pop() {
                    Some(Reverse((_, k))) => all.push(k),
                    None => break,
                }
            }
            let best = all
                .iter()
                .copied()
                .max_by_key(|&k| {
                    (
                        gain(k as usize, &defined),
                        Reverse(earliest[k as usize].saturating_sub(now)),
                        nodes[k as usize].height,
                        Reverse(k),
                    )
                })
                .unwrap_or(0);
            for k in all {
                if k == best {
                    continue;
                }
                if earliest[k as usize] <= now {
                    avail.push(priority(k, &readied));
                } else {
                    waiting.push(Reverse((earliest[k as usize], k)));
                }
            }
            now = now.max(earliest[best as usize]);
            best
        } else {
            match avail.pop() {
                Some((.., Reverse(k))) => k,
                None => break,
            }
        };
        let x = &nodes[k as usize];
        for &v in &x.defs {
            if local[v as usize] && defined.insert(v) {
                live += bytes[v as usize];
            }
        }
        for &v in &x.uses {
            if let Some(c) = readers_left.get_mut(&v) {
                *c -= 1;
                if *c == 0 && defined.contains(&v) {
                    live = live.saturating_sub(bytes[v as usize]);
                }
            }
        }
        out.push(k);
        let start = now;
        now += x.issue;
        for &(s, lat) in &x.succs {
            let s = s as usize;
            earliest[s] = earliest[s].max(start + lat);
            preds[s] -= 1;
            if preds[s] == 0 {
                readied[s] = out.len() as u32;
                if earliest[s] <= now {
                    avail.push(priority(s as u32, &readied));
                } else {
                    waiting.push(Reverse((earliest[s], s as u32)));
                }
            }
        }
    }
    debug_assert_eq!(out.len(), n, "the dependence graph has a cycle");
    out
}
