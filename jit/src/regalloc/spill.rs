//! Spilling: a virtual register that does not fit the GRF file lives in the thread's scratch
//! space, and every instruction that names it works on a short-lived copy instead: filled
//! from scratch before the instruction, written back after it when the instruction writes it.
//!
//! The fill comes before writes too: an instruction may write part of the register (one half
//! of a 64-bit value, a predicated or divergent write), and the write-back stores the whole
//! register, so the parts it did not write must be there. Fills and spills are scratch block
//! messages (DC0, header r0) with NoMask, so that lanes disabled by divergent control flow keep
//! their values, as IGC's spill code does.

use crate::isa::gen9::send;
use crate::isa::{Inst, Opcode, Type};
use crate::isel::grf_dst;
use crate::mir::{Item, MFunction, MInst, VRef, VReg};

/// Spill `v` to scratch at `offset` bytes (a multiple of 32). Returns the temporaries made
/// for its references, which must never be spilled themselves.
pub fn spill(m: &mut MFunction, v: VReg, offset: u32) -> Vec<VReg> {
    let grfs = m.vregs[v.0 as usize].grfs().max(1);
    let items = std::mem::take(&mut m.items);
    let mut out = Vec::with_capacity(items.len() + 16);
    let mut temps = Vec::new();
    for item in items {
        let Item::Inst(mut mi) = item else {
            out.push(item);
            continue;
        };
        let reads = mi.srcs.iter().flatten().any(|r| r.v == v);
        let writes = mi.dst.is_some_and(|r| r.v == v);
        if !reads && !writes {
            out.push(Item::Inst(mi));
            continue;
        }
        // A whole-GRF copy even for a scalar slot: the block messages move whole registers.
        let t = m.new_vreg(grfs * 32);
        temps.push(t);
        for r in mi.srcs.iter_mut().flatten().chain(mi.dst.iter_mut()) {
            if r.v == v {
                r.v = t;
            }
        }
        for (k, n) in pieces(grfs) {
            out.push(Item::Inst(fill(t, k, n, offset)));
        }
        out.push(Item::Inst(mi));
        if writes {
            for (k, n) in pieces(grfs) {
                out.push(Item::Inst(store(t, k, n, offset)));
            }
        }
    }
    m.items = out;
    temps
}

/// (first GRF, count) blocks of 8, 4, 2 and 1 registers covering `grfs` registers.
fn pieces(grfs: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < grfs {
        let n = [8, 4, 2, 1]
            .into_iter()
            .find(|n| k + n <= grfs)
            .unwrap_or(1);
        out.push((k, n));
        k += n;
    }
    out
}

/// `(W) op (8)` of a scratch block message (DC0) with r0 as its header: r0's dword 5 is the
/// thread's scratch pointer.
fn scratch_send(op: Opcode, parts: send::DescParts) -> Inst {
    let mut i = send::message(op, 8, parts);
    i.no_mask = true;
    i
}

/// `(W) send (8) t.k r0 scratch-read(n regs at offset + k)`.
fn fill(t: VReg, k: u32, n: u32, offset: u32) -> MInst {
    let mut i = scratch_send(
        Opcode::Send,
        send::scratch_block_read_desc(n, offset / 32 + k),
    );
    i.dst = Some(grf_dst(0, 0, Type::UD));
    MInst {
        inst: i,
        dst: Some(VRef { v: t, off: k * 32 }),
        srcs: [None; 3],
        jip: None,
        uip: None,
    }
}

/// `(W) sends (8) null r0 t.k scratch-write(n regs at offset + k)`.
fn store(t: VReg, k: u32, n: u32, offset: u32) -> MInst {
    let i = scratch_send(
        Opcode::Sends,
        send::scratch_block_write_desc(n, offset / 32 + k),
    );
    MInst {
        inst: i,
        dst: None,
        srcs: [None, Some(VRef { v: t, off: k * 32 }), None],
        jip: None,
        uip: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_cover_the_register() {
        assert_eq!(pieces(1), [(0, 1)]);
        assert_eq!(pieces(2), [(0, 2)]);
        assert_eq!(pieces(3), [(0, 2), (2, 1)]);
        assert_eq!(pieces(11), [(0, 8), (8, 2), (10, 1)]);
    }
}
