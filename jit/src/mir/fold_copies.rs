//! Copies folded into the instructions that compute their sources (machine IR, right after
//! selection): a value computed into a register of its own and then moved whole into a
//! message's payload (`add v = a + b; mov P.k = v`, the components of an `int16` store
//! gathered into the store's data registers) is computed into the payload directly, as
//! brw's `register_coalesce` and IGC's copy coalescing make of it. Without it, every
//! component of a vector stored from a computation costs a move.
//!
//! A register `v` is folded into register `P` at a displacement `d` when:
//! - every read of `v` is a plain copy (`mov`, no predicate, modifier, saturation or
//!   conditional modifier, contiguous regions of one type) of bytes `o..o+n` of `v` to
//!   `o+d..o+d+n` of `P`, and every write of `v` is one instruction that writes exactly
//!   the bytes one of those copies reads, with the same width, channel group and mask
//!   control, unpredicated (a `sel` excepted: it writes every lane), not a message;
//! - everything between the first write of `v` and the last copy is in one straight run
//!   (no label, loop mark or instruction nothing may pass: `schedule`'s boundaries), no
//!   instruction there reads `P`, and none but the copies writes the bytes of `P` they
//!   write; the writes of `v` read no byte of `P`.
//!
//! Then each write of `v` writes `P` at its displacement instead, and the copies go. On
//! every lane the copy would have run on (the same channels: one run of code, the same
//! width, group and mask control) `P` ends with the same bytes, only earlier, where
//! nothing reads it.

use crate::isa::{Opcode, Src};
use crate::mir::{Item, MFunction, MInst, VRef};

/// Fold what can be folded; the number of copies removed.
pub fn fold_copies(m: &mut MFunction) -> usize {
    let n = m.vregs.len();
    let mut writes: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut reads: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (pos, item) in m.items.iter().enumerate() {
        if let Item::Inst(mi) = item {
            if let Some(d) = mi.dst {
                writes[d.v.0 as usize].push(pos);
            }
            for s in mi.srcs.iter().flatten() {
                if reads[s.v.0 as usize].last() != Some(&pos) {
                    reads[s.v.0 as usize].push(pos);
                }
            }
        }
    }
    let mut gone = vec![false; m.items.len()];
    let mut folded = 0;
    for v in 0..n {
        let Some(pairs) = plan(m, v as u32, &writes[v], &reads[v], &gone) else {
            continue;
        };
        for (w, c) in pairs {
            let Item::Inst(copy) = &m.items[c] else {
                unreachable!("a copy is an instruction")
            };
            let to = copy.dst.expect("a copy writes a register");
            let Item::Inst(def) = &mut m.items[w] else {
                unreachable!("a write is an instruction")
            };
            def.dst = Some(to);
            gone[c] = true;
            folded += 1;
        }
    }
    if folded > 0 {
        let mut k = 0;
        m.items.retain(|_| {
            k += 1;
            !gone[k - 1]
        });
    }
    folded
}

fn inst(m: &MFunction, pos: usize) -> Option<&MInst> {
    match &m.items[pos] {
        Item::Inst(mi) => Some(mi),
        _ => None,
    }
}

/// A plain copy of `v`: its source's bytes in `v` and its destination.
fn copy_of(mi: &MInst, v: u32) -> Option<(u32, VRef)> {
    let i = &mi.inst;
    if i.op != Opcode::Mov
        || i.predicate.is_some()
        || i.cond_mod.is_some()
        || i.saturate
        || i.acc_wr_en
        || mi.srcs[1].is_some()
        || mi.srcs[2].is_some()
    {
        return None;
    }
    let (src, to) = (mi.srcs[0]?, mi.dst?);
    let (Some(Src::Reg(r)), Some(d)) = (i.srcs[0], i.dst) else {
        return None;
    };
    let contiguous = if i.exec_size == 1 {
        r.region.width == 1
    } else {
        r.region.hstride == 1 && r.region.vstride == r.region.width
    };
    (src.v.0 == v
        && to.v.0 != v
        && contiguous
        && r.indirect.is_none()
        && !r.modifier.negate
        && !r.modifier.abs
        && d.hstride == 1
        && d.indirect.is_none()
        && d.ty == r.ty)
        .then_some((src.off, to))
}

/// Bytes of its destination an instruction writes, from its offset: a message's reply
/// or anything irregular counts as the whole register.
fn written(mi: &MInst) -> u32 {
    match mi.inst.dst {
        Some(d) if mi.inst.send.is_none() && d.indirect.is_none() => {
            u32::from(mi.inst.exec_size) * d.ty.size() * u32::from(d.hstride.max(1))
        }
        _ => u32::MAX,
    }
}

/// The writes of `v` and the copies each one's bytes go to, when `v` folds.
fn plan(
    m: &MFunction,
    v: u32,
    writes: &[usize],
    reads: &[usize],
    gone: &[bool],
) -> Option<Vec<(usize, usize)>> {
    if writes.is_empty() || writes.len() != reads.len() {
        return None;
    }
    // Every read a plain copy to one register at one displacement.
    let mut copies = Vec::new();
    let mut target: Option<(u32, i64)> = None;
    for &c in reads {
        let mi = inst(m, c)?;
        let (off, to) = copy_of(mi, v)?;
        let d = i64::from(to.off) - i64::from(off);
        if *target.get_or_insert((to.v.0, d)) != (to.v.0, d) {
            return None;
        }
        copies.push((c, off));
    }
    let (p, _) = target?;
    // Each copy reads exactly what one earlier write wrote, channel for channel.
    let mut pairs = Vec::new();
    let mut used = vec![false; writes.len()];
    for &(c, off) in &copies {
        let copy = inst(m, c)?;
        let n = written(copy);
        let mut found = None;
        for (k, &w) in writes.iter().enumerate() {
            let def = inst(m, w)?;
            let dst = def.dst?;
            if dst.off == off && w < c {
                if found.is_some() {
                    return None;
                }
                found = Some((k, w, def));
            }
        }
        let (k, w, def) = found?;
        let (di, ci) = (&def.inst, &copy.inst);
        let src_ty = match ci.srcs[0] {
            Some(Src::Reg(r)) => r.ty,
            _ => return None,
        };
        let same_lanes = di.exec_size == ci.exec_size
            && di.chan_offset == ci.chan_offset
            && di.no_mask == ci.no_mask;
        let plain_def = di.send.is_none()
            && !def.is_gather()
            && (di.predicate.is_none() || di.op == Opcode::Sel)
            && di
                .dst
                .is_some_and(|d| d.hstride == 1 && d.indirect.is_none() && d.ty == src_ty)
            && written(def) == n
            && def.srcs.iter().flatten().all(|s| s.v.0 != p);
        if used[k] || !same_lanes || !plain_def {
            return None;
        }
        used[k] = true;
        pairs.push((w, c));
    }
    // One straight run from the first write to the last copy, with `P` neither read nor
    // written there but by these copies.
    let first = *writes.iter().min()?;
    let last = pairs.iter().map(|&(_, c)| c).max()?;
    let ours: Vec<usize> = pairs.iter().map(|&(_, c)| c).collect();
    for (pos, &was_folded) in gone.iter().enumerate().take(last + 1).skip(first) {
        if was_folded || ours.contains(&pos) {
            continue;
        }
        let mi = inst(m, pos)?;
        if crate::schedule::is_boundary(mi) || mi.srcs.iter().flatten().any(|s| s.v.0 == p) {
            return None;
        }
        if let Some(d) = mi.dst.filter(|d| d.v.0 == p) {
            let (a, b) = (u64::from(d.off), u64::from(d.off) + u64::from(written(mi)));
            let clash = pairs.iter().any(|&(_, c)| {
                let to = inst(m, c).and_then(|ci| ci.dst).expect("a copy writes");
                let n = inst(m, c).map_or(u32::MAX, written);
                let (x, y) = (u64::from(to.off), u64::from(to.off) + u64::from(n));
                a < y && x < b
            });
            if clash {
                return None;
            }
        }
    }
    Some(pairs)
}

#[cfg(test)]
mod tests {
    use super::fold_copies;
    use crate::isa::{Inst, Opcode, PredCtrl, Predicate, Region, Type};
    use crate::isel::{grf_dst, reg_src};
    use crate::mir::{Item, MFunction, MInst, VRef, VReg};

    fn at(v: VReg, off: u32) -> Option<VRef> {
        Some(VRef { v, off })
    }

    /// `op (16|M<group>) d = a, b` on dwords of `ty`.
    fn alu(
        op: Opcode,
        ty: Type,
        group: u8,
        d: Option<VRef>,
        a: Option<VRef>,
        b: Option<VRef>,
    ) -> Item {
        let mut i = Inst::new(op, 16);
        i.chan_offset = group;
        i.dst = Some(grf_dst(0, 0, ty));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), ty));
        if b.is_some() {
            i.srcs[1] = Some(reg_src(0, 0, Region::contiguous(8), ty));
        }
        Item::Inst(MInst {
            inst: i,
            dst: d,
            srcs: [a, b, None],
            jip: None,
            uip: None,
        })
    }

    fn add(group: u8, d: Option<VRef>, a: Option<VRef>, b: Option<VRef>) -> Item {
        alu(Opcode::Add, Type::UD, group, d, a, b)
    }

    fn mov(group: u8, d: Option<VRef>, s: Option<VRef>) -> Item {
        alu(Opcode::Mov, Type::UD, group, d, s, None)
    }

    /// (a, b, the payload P of four GRFs, the values v and w), in `m`.
    fn regs(m: &mut MFunction) -> [VReg; 5] {
        [
            m.new_vreg(64),
            m.new_vreg(64),
            m.new_vreg(128),
            m.new_vreg(64),
            m.new_vreg(64),
        ]
    }

    /// `mov (16) d = 1`: a value to read.
    fn set(d: VReg) -> Item {
        let mut i = Inst::new(Opcode::Mov, 16);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(crate::isa::Src::Imm(crate::isa::Imm {
            ty: Type::UD,
            bits: 1,
        }));
        Item::Inst(MInst {
            inst: i,
            dst: at(d, 0),
            srcs: [None, None, None],
            jip: None,
            uip: None,
        })
    }

    fn dst_of(item: &Item) -> Option<VRef> {
        match item {
            Item::Inst(mi) => mi.dst,
            _ => None,
        }
    }

    #[test]
    fn a_value_moved_whole_into_a_payload_is_computed_there() {
        // Before: v = a + b; w = a + a; P.64 = v; P.0 = w; t = P (the message).
        // After:  P.64 = a + b; P.0 = a + a; t = P.
        let mut m = MFunction::default();
        let [a, b, p, v, w] = regs(&mut m);
        let t = m.new_vreg(128);
        m.items = vec![
            set(a),
            set(b),
            add(0, at(v, 0), at(a, 0), at(b, 0)),
            add(0, at(w, 0), at(a, 0), at(a, 0)),
            mov(0, at(p, 64), at(v, 0)),
            mov(0, at(p, 0), at(w, 0)),
            mov(0, at(t, 0), at(p, 0)),
        ];
        assert_eq!(fold_copies(&mut m), 2);
        assert_eq!(m.items.len(), 5);
        assert_eq!(dst_of(&m.items[2]), at(p, 64));
        assert_eq!(dst_of(&m.items[3]), at(p, 0));
        crate::mir::verify::verify(&m).unwrap();
    }

    #[test]
    fn both_halves_of_a_simd32_value_fold_at_one_displacement() {
        let mut m = MFunction::default();
        let [a, b, _, _, _] = regs(&mut m);
        let v = m.new_vreg(128);
        let p = m.new_vreg(256);
        m.items = vec![
            add(0, at(v, 0), at(a, 0), at(b, 0)),
            add(16, at(v, 64), at(a, 0), at(b, 0)),
            mov(0, at(p, 128), at(v, 0)),
            mov(16, at(p, 192), at(v, 64)),
        ];
        assert_eq!(fold_copies(&mut m), 2);
        assert_eq!(dst_of(&m.items[0]), at(p, 128));
        assert_eq!(dst_of(&m.items[1]), at(p, 192));
        // Halves copied to places that are not one displacement apart stay copies.
        let mut m = MFunction::default();
        let [a, b, _, _, _] = regs(&mut m);
        let v = m.new_vreg(128);
        let p = m.new_vreg(256);
        m.items = vec![
            add(0, at(v, 0), at(a, 0), at(b, 0)),
            add(16, at(v, 64), at(a, 0), at(b, 0)),
            mov(0, at(p, 0), at(v, 0)),
            mov(16, at(p, 192), at(v, 64)),
        ];
        assert_eq!(fold_copies(&mut m), 0);
    }

    #[test]
    fn copies_that_folding_would_change_stay() {
        let case = |build: &dyn Fn(&mut MFunction, [VReg; 5]) -> Vec<Item>| {
            let mut m = MFunction::default();
            let r = regs(&mut m);
            m.items = build(&mut m, r);
            let before = m.items.len();
            (fold_copies(&mut m), m.items.len() == before)
        };
        // v is read by more than its copy.
        assert_eq!(
            case(&|_, [a, b, p, v, w]| vec![
                add(0, at(v, 0), at(a, 0), at(b, 0)),
                add(0, at(w, 0), at(v, 0), at(a, 0)),
                mov(0, at(p, 0), at(v, 0)),
            ]),
            (0, true)
        );
        // P is read between v's computation and the copy (it would see v early).
        assert_eq!(
            case(&|_, [a, b, p, v, w]| vec![
                add(0, at(v, 0), at(a, 0), at(b, 0)),
                mov(0, at(w, 0), at(p, 0)),
                mov(0, at(p, 0), at(v, 0)),
            ]),
            (0, true)
        );
        // The bytes the copy writes are written in between (the copy's value must win).
        assert_eq!(
            case(&|_, [a, b, p, v, _]| vec![
                add(0, at(v, 0), at(a, 0), at(b, 0)),
                add(0, at(p, 0), at(a, 0), at(a, 0)),
                mov(0, at(p, 0), at(v, 0)),
            ]),
            (0, true)
        );
        // ... but other bytes of P may be written there.
        assert_eq!(
            case(&|_, [a, b, p, v, _]| vec![
                add(0, at(v, 0), at(a, 0), at(b, 0)),
                add(0, at(p, 64), at(a, 0), at(a, 0)),
                mov(0, at(p, 0), at(v, 0)),
            ]),
            (1, false)
        );
        // A predicated computation leaves lanes the copy would fill.
        assert_eq!(
            case(&|_, [a, b, p, v, _]| {
                let mut d = add(0, at(v, 0), at(a, 0), at(b, 0));
                if let Item::Inst(mi) = &mut d {
                    mi.inst.predicate = Some(Predicate {
                        ctrl: PredCtrl::Normal,
                        inverse: false,
                    });
                }
                vec![d, mov(0, at(p, 0), at(v, 0))]
            }),
            (0, true)
        );
        // Another channel group: the copy's lanes are not the computation's.
        assert_eq!(
            case(&|_, [a, b, p, v, _]| vec![
                add(0, at(v, 0), at(a, 0), at(b, 0)),
                mov(16, at(p, 0), at(v, 0)),
            ]),
            (0, true)
        );
        // A label between them: another run of code, perhaps other channels.
        assert_eq!(
            case(&|m, [a, b, p, v, _]| {
                let l = m.new_label();
                vec![
                    add(0, at(v, 0), at(a, 0), at(b, 0)),
                    Item::Label(l),
                    mov(0, at(p, 0), at(v, 0)),
                ]
            }),
            (0, true)
        );
        // A copy that converts (float to dword) is an instruction of its own.
        assert_eq!(
            case(&|_, [a, b, p, v, _]| vec![
                alu(Opcode::Add, Type::F, 0, at(v, 0), at(a, 0), at(b, 0)),
                mov(0, at(p, 0), at(v, 0)),
            ]),
            (0, true)
        );
    }
}
