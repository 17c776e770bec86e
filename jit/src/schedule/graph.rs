//! The dependence graph of one region of machine instructions: what each instruction reads
//! and writes (virtual registers, the flags, the other architecture registers, the fixed
//! GRFs, shared local and global memory), and the edges that keep every reader after its
//! writer, every writer after the readers and writer before it, and memory's order where a
//! message writes it. Each edge carries the cycles from its first instruction's issue to
//! the earliest the second may issue: a message's latency when the second reads its reply.

use crate::isa::gen9::send::{decode_message, MsgKind};
use crate::isa::{MathFn, Opcode, RegFile, Sfid, Src, ThreadCtrl};
use crate::mir::MInst;

/// Cycles from a global-memory or sampler message to its reply (docs/gpu-model.md's
/// memory latency; Mesa's scheduler estimates 300-600 for untyped surface reads).
pub const MEMORY_LATENCY: u32 = 200;
/// Cycles from a shared-local-memory message to its reply (the model's figure).
pub const SLM_LATENCY: u32 = 30;

/// Something an instruction reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Res {
    /// A virtual register (each is its own storage before allocation).
    V(u32),
    /// The fixed GRFs an instruction names directly (thread payload, pushed constants).
    Grf,
    /// f0 and f1.
    Flag,
    /// Every other architecture register: a0, the accumulators, sr0, cr0, n0, ...
    Arf,
    /// Shared local memory.
    Slm,
    /// Global memory, images and private memory (any of them may alias another).
    Mem,
}

/// An instruction nothing may pass: flow control, the gateway, fences, the end of thread,
/// `wait`, thread switches, writes to fixed GRFs, indirect operands the machine IR cannot
/// name, messages whose descriptor comes from a0.
pub fn is_boundary(mi: &MInst) -> bool {
    use Opcode::*;
    let i = &mi.inst;
    if i.thread_ctrl != ThreadCtrl::Normal {
        return true;
    }
    if matches!(
        i.op,
        If | Else
            | Endif
            | While
            | Break
            | Cont
            | Halt
            | Goto
            | Join
            | Jmpi
            | Call
            | Ret
            | Calla
            | Brd
            | Brc
            | Wait
            | Nop
            | Illegal
    ) {
        return true;
    }
    if mi.dst.is_none() && i.dst.is_some_and(|d| d.file == RegFile::Grf) {
        return true;
    }
    if i.dst.is_some_and(|d| d.indirect.is_some()) {
        return true;
    }
    let indirect_src = |k: usize| matches!(i.srcs[k], Some(Src::Reg(r)) if r.indirect.is_some());
    if (0..3).any(indirect_src) && !mi.is_gather() {
        return true;
    }
    if let Some(info) = i.send {
        return info.eot || memory(mi).is_none();
    }
    false
}

/// A message's memory, whether it writes it, and its reply's latency; `None` for a message
/// that is not a plain memory access (gateway, fence, end of thread, a0's descriptor).
fn memory(mi: &MInst) -> Option<(Res, bool, u32)> {
    use MsgKind::*;
    let info = mi.inst.send?;
    let desc = info.desc?;
    if matches!(info.sfid, Sfid::Gateway | Sfid::ThreadSpawner | Sfid::Null) {
        return None;
    }
    let m = decode_message(mi.inst.op, mi.inst.exec_size, info.sfid, desc, info.ex_desc);
    let write = match m.kind {
        UntypedRead
        | A64UntypedRead
        | A64ScatteredRead
        | A64BlockRead
        | TypedRead
        | MediaBlockRead
        | OwordBlockRead
        | UnalignedOwordBlockRead
        | DwordScatteredRead
        | ByteScatteredRead
        | ScratchBlockRead
        | Sampler => false,
        UntypedWrite
        | A64UntypedWrite
        | A64ScatteredWrite
        | A64BlockWrite
        | UntypedAtomic
        | UntypedAtomicFloat
        | A64UntypedAtomic
        | A64UntypedAtomicFloat
        | TypedWrite
        | TypedAtomic
        | MediaBlockWrite
        | OwordBlockWrite
        | DwordScatteredWrite
        | ByteScatteredWrite
        | ScratchBlockWrite
        | RenderTargetWrite => true,
        MemoryFence | Barrier | EndOfThread | Other => return None,
    };
    Some(if m.bti == Some(254) {
        (Res::Slm, write, SLM_LATENCY)
    } else {
        (Res::Mem, write, MEMORY_LATENCY)
    })
}

/// Issue cycles of an instruction, as the model charges them (a cycle per 4 lanes of 32
/// bits, per 2 of 64; four times that for extended math).
fn issue(mi: &MInst) -> u32 {
    let i = &mi.inst;
    if i.send.is_some() {
        return 1;
    }
    let lanes = u32::from(i.exec_size).max(1);
    let wide = i.dst.is_some_and(|d| d.ty.size() == 8);
    let base = if wide {
        lanes.div_ceil(2)
    } else {
        lanes.div_ceil(4)
    };
    if i.op == Opcode::Math {
        4 * base
    } else {
        base
    }
}

/// Whether an ALU opcode reads or writes the accumulator (or other ARFs) implicitly.
fn implicit_arf(op: Opcode) -> bool {
    use Opcode::*;
    !matches!(
        op,
        Mov | Sel
            | Not
            | And
            | Or
            | Xor
            | Shr
            | Shl
            | Asr
            | Cmp
            | Cmpn
            | Csel
            | Bfrev
            | Bfe
            | Bfi1
            | Bfi2
            | Math
            | Add
            | Mul
            | Avg
            | Frc
            | Rndu
            | Rndd
            | Rnde
            | Rndz
            | Lzd
            | Fbh
            | Fbl
            | Cbit
            | Mad
            | Lrp
            | Send
            | Sendc
            | Sends
            | Sendsc
    )
}

/// Everything `mi` reads and writes, into `out` as (resource, written).
fn accesses(mi: &MInst, out: &mut Vec<(Res, bool)>) {
    out.clear();
    let i = &mi.inst;
    let arf = |nr: u8| match nr {
        0x00..=0x0F => None,
        0x30 | 0x31 => Some(Res::Flag),
        _ => Some(Res::Arf),
    };
    if let Some(v) = mi.dst {
        out.push((Res::V(v.v.0), true));
    } else if let Some(d) = i.dst {
        match d.file {
            RegFile::Grf => out.push((Res::Grf, true)),
            RegFile::Arf => out.extend(arf(d.nr).map(|r| (r, true))),
        }
    }
    for k in 0..3 {
        if let Some(v) = mi.srcs[k] {
            out.push((Res::V(v.v.0), false));
        } else if let Some(Src::Reg(r)) = i.srcs[k] {
            match r.file {
                RegFile::Grf => out.push((Res::Grf, false)),
                RegFile::Arf => out.extend(arf(r.nr).map(|r| (r, false))),
            }
        }
    }
    if i.predicate.is_some() {
        out.push((Res::Flag, false));
    }
    if i.cond_mod.is_some() {
        out.push((Res::Flag, true));
    }
    // The IEEE macros' first step (`math.invm`, `math.rsqtm`) writes its early-out bits to
    // its flag without a condition modifier, and its result's extra bits to an mme
    // accumulator, which the `madm` steps after it read: two divisions' macros interleaved
    // had the second's invm overwrite the first's flag and mme0 (CTS bruteforce: double8
    // inf / x gave NaN, other quotients garbage, in all but the last of four).
    if i.op == Opcode::Math && matches!(i.math_fn, Some(MathFn::Invm | MathFn::Rsqrtm)) {
        out.push((Res::Flag, true));
        out.push((Res::Arf, true));
    }
    if mi.is_gather() {
        // The `add` to a0 that emission puts before the move.
        out.push((Res::Arf, true));
    }
    if i.acc_wr_en || (i.send.is_none() && implicit_arf(i.op)) {
        out.push((Res::Arf, false));
        out.push((Res::Arf, true));
    }
    if let Some((mem, write, _)) = memory(mi) {
        out.push((mem, write));
    }
}

/// One instruction of the region.
pub struct Node {
    pub issue: u32,
    /// Successors and the cycles from this node's issue to theirs.
    pub succs: Vec<(u32, u32)>,
    pub preds: u32,
    /// Longest path in cycles from this node's issue to the region's end.
    pub height: u32,
    /// Virtual registers written (first) and read.
    pub defs: Vec<u32>,
    pub uses: Vec<u32>,
}

/// The graph of `insts` (in their order, none a boundary).
pub fn build(insts: &[&MInst]) -> Vec<Node> {
    use rustc_hash::FxHashMap as HashMap;
    let mut nodes: Vec<Node> = insts
        .iter()
        .map(|mi| Node {
            issue: issue(mi),
            succs: Vec::new(),
            preds: 0,
            height: 0,
            defs: Vec::new(),
            uses: Vec::new(),
        })
        .collect();
    // The cycles a node's result takes to be readable: its reply's latency for a message.
    let ready: Vec<u32> = insts
        .iter()
        .enumerate()
        .map(|(k, mi)| match memory(mi) {
            Some((_, _, lat)) if mi.dst.is_some() => 1 + lat,
            _ => nodes[k].issue,
        })
        .collect();
    let mut last_write: HashMap<Res, u32> = HashMap::default();
    let mut reads: HashMap<Res, Vec<u32>> = HashMap::default();
    let mut acc = Vec::new();
    let mut edges: Vec<(u32, u32, u32)> = Vec::new();
    for (k, mi) in insts.iter().enumerate() {
        let k = k as u32;
        accesses(mi, &mut acc);
        for &(r, write) in &acc {
            if let Res::V(v) = r {
                let list = if write {
                    &mut nodes[k as usize].defs
                } else {
                    &mut nodes[k as usize].uses
                };
                if !list.contains(&v) {
                    list.push(v);
                }
            }
            // Read after write, and write after write: the result first.
            if let Some(&w) = last_write.get(&r) {
                if w != k {
                    edges.push((w, k, ready[w as usize]));
                }
            }
            if write {
                // Write after read: not before the readers issue.
                for &p in reads.get(&r).map_or(&[][..], |v| &v[..]) {
                    if p != k {
                        edges.push((p, k, 0));
                    }
                }
            }
        }
        for &(r, write) in &acc {
            if write {
                last_write.insert(r, k);
                reads.remove(&r);
            }
        }
        for &(r, write) in &acc {
            if !write {
                reads.entry(r).or_default().push(k);
            }
        }
    }
    edges.sort_unstable();
    edges.dedup_by(|a, b| {
        a.0 == b.0 && a.1 == b.1 && {
            b.2 = b.2.max(a.2);
            true
        }
    });
    for (a, b, lat) in edges {
        nodes[a as usize].succs.push((b, lat));
        nodes[b as usize].preds += 1;
    }
    // Heights, from the end (every edge goes forward in the original order).
    for k in (0..nodes.len()).rev() {
        let h = nodes[k]
            .succs
            .iter()
            .map(|&(s, lat)| lat + nodes[s as usize].height)
            .max()
            .unwrap_or(0);
        nodes[k].height = h.max(nodes[k].issue);
    }
    nodes
}
