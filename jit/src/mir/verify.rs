//! The machine IR's verifier, run after instruction selection and after register
//! allocation (with its spilling) whenever the IR verifier runs (debug builds, tests,
//! `GENCL_VERIFY_IR=1`), as Mesa's brw checks its IR between passes and NAK after each
//! one. The ISA validator (`gencl_isa::gen9::validate`) then checks the encoded
//! instructions; this checks what only the machine IR knows:
//!
//! - every virtual-register operand names a register of the function, and the bytes the
//!   instruction reads or writes there (its region over its execution size, a message's
//!   payload and response lengths: `validate::operand_extents`) lie inside that register:
//!   past its end they are another value's bytes once registers are assigned;
//! - every register read is written somewhere in the function;
//! - every label a branch names is placed exactly once, and loop markers pair up, nested;
//! - after allocation, every register lies in the GRF file, past the thread payload, and no
//!   two registers live at once (`analysis::liveness`) share a byte.

use std::fmt::Write;

use crate::mir::{Item, MFunction, VRef};

/// Check `m`; the error lists what is wrong (the first few findings) with the instruction.
pub fn verify(m: &MFunction) -> Result<(), String> {
    let mut errs = Vec::new();
    let mut written = vec![false; m.vregs.len()];
    let mut read = vec![None; m.vregs.len()];
    let mut placed = vec![0u32; m.labels as usize];
    let mut loops = Vec::new();
    for (pos, item) in m.items.iter().enumerate() {
        match item {
            Item::Label(l) => match placed.get_mut(l.0 as usize) {
                Some(n) => *n += 1,
                None => errs.push(format!(
                    "item {pos}: label L{} past the function's {}",
                    l.0, m.labels
                )),
            },
            Item::LoopStart(l) => loops.push(*l),
            Item::LoopEnd(l) => {
                if loops.pop() != Some(*l) {
                    errs.push(format!(
                        "item {pos}: loop end L{} closes no open loop of that label",
                        l.0
                    ));
                }
            }
            Item::Inst(mi) => {
                let extents = gencl_isa::gen9::validate::operand_extents(&mi.inst);
                let operands = std::iter::once(("dst", mi.dst, extents[0])).chain(
                    (0..3).map(|k| (["src0", "src1", "src2"][k], mi.srcs[k], extents[k + 1])),
                );
                for (what, r, extent) in operands {
                    let Some(VRef { v, off }) = r else { continue };
                    let Some(info) = m.vregs.get(v.0 as usize) else {
                        errs.push(format!(
                            "item {pos}: {what} names v{} of {}",
                            v.0,
                            m.vregs.len()
                        ));
                        continue;
                    };
                    if what == "dst" {
                        written[v.0 as usize] = true;
                    } else {
                        read[v.0 as usize].get_or_insert(pos);
                    }
                    // An indirect operand (a gather's source) reaches its register through
                    // a0: the register as a whole is what it names.
                    if let Some(n) = extent {
                        if off + n > info.bytes {
                            errs.push(format!(
                                "item {pos}: {what} covers bytes {off}..{} of v{}, which has {}",
                                off + n,
                                v.0,
                                info.bytes
                            ));
                        }
                    }
                }
                for l in [mi.jip, mi.uip].into_iter().flatten() {
                    if l.0 >= m.labels {
                        errs.push(format!(
                            "item {pos}: branch to L{} past the function's {}",
                            l.0, m.labels
                        ));
                    }
                }
            }
        }
    }
    if let Some(l) = loops.last() {
        errs.push(format!("loop L{} is never closed", l.0));
    }
    for item in &m.items {
        if let Item::Inst(mi) = item {
            for l in [mi.jip, mi.uip].into_iter().flatten() {
                if placed.get(l.0 as usize).is_some_and(|n| *n != 1) {
                    errs.push(format!(
                        "L{} is a branch target placed {} times",
                        l.0, placed[l.0 as usize]
                    ));
                }
            }
        }
    }
    for (v, at) in read.iter().enumerate() {
        if let (Some(pos), false) = (at, written[v]) {
            errs.push(format!("item {pos}: v{v} is read and never written"));
        }
    }
    report(m, errs)
}

/// Check an allocation of `m`: every register's bytes (by `base`, byte addresses in the
/// GRF file) lie past the thread payload and inside the 128 GRFs, apart from those of every
/// register live at the same time.
pub fn verify_assigned(m: &MFunction, base: &[u32]) -> Result<(), String> {
    let mut used = vec![false; m.vregs.len()];
    for item in &m.items {
        if let Item::Inst(mi) = item {
            for r in std::iter::once(mi.dst).chain(mi.srcs).flatten() {
                if let Some(u) = used.get_mut(r.v.0 as usize) {
                    *u = true;
                }
            }
        }
    }
    let payload = u32::from(m.first_free_grf) * 32;
    let mut errs = Vec::new();
    for (v, info) in m.vregs.iter().enumerate() {
        if !used[v] {
            continue;
        }
        let Some(&b) = base.get(v) else {
            errs.push(format!("v{v} has no register"));
            continue;
        };
        if b < payload || b + info.bytes > 128 * 32 {
            errs.push(format!(
                "v{v} ({} bytes) at byte {b}: outside r{}..r127",
                info.bytes, m.first_free_grf
            ));
        }
    }
    // No two registers live at once share a byte (the allocator's slots: 8 bytes for a
    // scalar, whole GRFs for a per-lane register).
    let live = crate::analysis::liveness::intervals(m);
    let mut order: Vec<usize> = (0..m.vregs.len())
        .filter(|&v| used[v] && live.start[v] != usize::MAX && v < base.len())
        .collect();
    order.sort_by_key(|&v| live.start[v]);
    let mut owner: Vec<Option<(usize, usize)>> = vec![None; 128 * 4];
    for v in order {
        let info = m.vregs[v];
        let first = (base[v] / 8) as usize;
        let count = if info.is_scalar() {
            1
        } else {
            info.grfs() as usize * 4
        };
        for slot in first..(first + count).min(owner.len()) {
            if let Some((end, w)) = owner[slot] {
                if end >= live.start[v] {
                    errs.push(format!(
                        "v{v} (live from item {}) shares byte {} with v{w} (live to item {end})",
                        live.start[v],
                        slot * 8
                    ));
                    break;
                }
            }
            owner[slot] = Some((live.end[v], v));
        }
    }
    report(m, errs)
}

fn report(m: &MFunction, errs: Vec<String>) -> Result<(), String> {
    if errs.is_empty() {
        return Ok(());
    }
    let mut s = format!("{} findings", errs.len());
    for e in errs.iter().take(8) {
        let _ = write!(s, "; {e}");
    }
    if let Some(pos) = errs
        .first()
        .and_then(|e| e.strip_prefix("item "))
        .and_then(|e| e.split(':').next())
        .and_then(|p| p.parse::<usize>().ok())
    {
        if let Some(Item::Inst(mi)) = m.items.get(pos) {
            let text = gencl_isa::gen9::disasm::disasm(&mi.inst);
            let _ = write!(s, " (item {pos}: {text})");
        }
    }
    Err(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Inst, Opcode, Region, Type};
    use crate::isel::{grf_dst, reg_src};
    use crate::mir::{Label, MInst};

    fn mov(exec: u8, dst: VRef, src: Option<VRef>) -> Item {
        let mut i = Inst::new(Opcode::Mov, exec);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        Item::Inst(MInst {
            inst: i,
            dst: Some(dst),
            srcs: [src, None, None],
            jip: None,
            uip: None,
        })
    }

    fn at(v: u32, off: u32) -> VRef {
        VRef {
            v: crate::mir::VReg(v),
            off,
        }
    }

    /// A SIMD16 dword move between two 64-byte registers verifies; past a register's end
    /// (a SIMD16 move into 32 bytes, or at an offset), a read of a register nothing
    /// writes, a branch to a label never placed and an unclosed loop each do not.
    #[test]
    fn operands_stay_inside_their_registers() {
        let mut m = MFunction::default();
        let a = m.new_vreg(64);
        let b = m.new_vreg(64);
        let small = m.new_vreg(32);
        m.items = vec![
            mov(16, at(a.0, 0), None),
            mov(16, at(b.0, 0), Some(at(a.0, 0))),
        ];
        // src0 of the first is an unnamed register (payload): only `a` is read.
        if let Item::Inst(mi) = &mut m.items[0] {
            mi.srcs[0] = None;
        }
        verify(&m).unwrap();
        let mut past = m.clone();
        past.items.push(mov(16, at(small.0, 0), Some(at(a.0, 0))));
        assert!(verify(&past)
            .unwrap_err()
            .contains("covers bytes 0..64 of v2, which has 32"));
        let mut offset = m.clone();
        offset.items.push(mov(16, at(b.0, 32), Some(at(a.0, 0))));
        assert!(verify(&offset).unwrap_err().contains("covers bytes 32..96"));
        let mut unwritten = m.clone();
        unwritten
            .items
            .push(mov(8, at(b.0, 0), Some(at(small.0, 0))));
        assert!(verify(&unwritten)
            .unwrap_err()
            .contains("v2 is read and never written"));
        let mut branch = m.clone();
        let l = branch.new_label();
        let mut j = Inst::new(Opcode::Jmpi, 1);
        j.no_mask = true;
        branch.items.push(Item::Inst(MInst {
            inst: j,
            dst: None,
            srcs: [None; 3],
            jip: Some(l),
            uip: None,
        }));
        assert!(verify(&branch).unwrap_err().contains("placed 0 times"));
        branch.items.push(Item::Label(l));
        verify(&branch).unwrap();
        let mut open = m.clone();
        open.items.push(Item::LoopStart(Label(0)));
        open.labels = 1;
        assert!(verify(&open).unwrap_err().contains("never closed"));
    }

    /// An allocation inside the file and past the payload verifies; one over r127 or into
    /// the payload, or two registers live at once on one GRF, do not.
    #[test]
    fn assigned_registers_stay_in_the_file() {
        let mut m = MFunction {
            first_free_grf: 4,
            ..Default::default()
        };
        let a = m.new_vreg(64);
        m.items = vec![mov(16, at(a.0, 0), None)];
        if let Item::Inst(mi) = &mut m.items[0] {
            mi.srcs[0] = None;
        }
        verify_assigned(&m, &[4 * 32]).unwrap();
        assert!(verify_assigned(&m, &[127 * 32]).is_err());
        assert!(verify_assigned(&m, &[3 * 32]).is_err());
        // b = a while a is still read after: the two live at once.
        let b = m.new_vreg(64);
        m.items.push(mov(16, at(b.0, 0), Some(at(a.0, 0))));
        m.items.push(mov(16, at(b.0, 0), Some(at(a.0, 0))));
        verify_assigned(&m, &[4 * 32, 6 * 32]).unwrap();
        let e = verify_assigned(&m, &[4 * 32, 5 * 32]).unwrap_err();
        assert!(e.contains("shares byte 160 with v0"), "{e}");
    }
}
