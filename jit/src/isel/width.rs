//! SIMD16 and SIMD32 legalisation: an instruction that Gen9 cannot execute at its width
//! becomes two halves, `(16|M0)` and `(16|M16)` of a SIMD32 one, `(8|M0)` and `(8|M8)` of a
//! SIMD16 one (and of a SIMD32 one's halves in turn), the second with each per-lane operand
//! moved on by half the lanes of its region. The cases (Mesa's `brw_fs_lower_simd_width`
//! makes the same split):
//! - every SIMD32 instruction with per-lane operands: its dword operands cover four GRFs, and
//!   IGC splits the word ones as well (a SIMD32 kernel's ALU work is `(16|M0)`, `(16|M16)`
//!   pairs);
//! - a qword operand type at 16 lanes, whatever the regions (ExecSize × 8 bytes > 64);
//! - an operand that would cover more than two GRFs: "a source or destination operand can
//!   span at most two registers" (PRM Vol 7, register region restrictions), so every 64-bit
//!   per-lane operand (16 × 8 bytes = 4 GRFs), and strided dword views of qwords;
//! - integer division on the math unit, which "is limited to SIMD8" on every generation.
//!
//! The halves use the same flag register: an instruction with channel offset 8 reads and
//! writes flag bits 15:8 (offset 16, bits 31:16 of f0 taken as 32 bits), so a compare split
//! in two still sets one mask of the kernel's width.
//! Flow control and messages are never split here (`has_lane_operands`, from the ISA
//! table's forms): the flow instructions run at the kernel's width, and `memory.rs` picks
//! each message's SIMD mode itself.

use crate::isa::{Dst, Inst, MathFn, Opcode, RegFile, Src, Type};
use crate::mir::{Item, MFunction, MInst};

/// Bytes a GRF holds.
const GRF: u32 = 32;

/// Split every SIMD16 or SIMD32 instruction that Gen9 cannot run at its width.
pub fn split(m: &mut MFunction) {
    if !m
        .items
        .iter()
        .any(|it| matches!(it, Item::Inst(mi) if needs_split(mi)))
    {
        return;
    }
    let items = std::mem::take(&mut m.items);
    m.items.reserve(items.len() + items.len() / 4);
    for it in items {
        match it {
            Item::Inst(mi) if needs_split(&mi) => push_split(&mut m.items, mi),
            other => m.items.push(other),
        }
    }
}

/// `mi` in halves, each split again while it needs to be (a SIMD32 qword operation becomes
/// four SIMD8 quarters).
fn push_split(out: &mut Vec<Item>, mi: MInst) {
    if !needs_split(&mi) {
        out.push(Item::Inst(mi));
        return;
    }
    let (lo, hi) = halves(&mi);
    push_split(out, lo);
    push_split(out, hi);
}

/// Instructions with per-lane data operands, by the ISA table's forms: not flow control, not
/// messages (whose payload layout is the message's), not `wait` or `nop`.
fn has_lane_operands(op: Opcode) -> bool {
    use crate::isa::gen9::opcodes::{info, Form};
    matches!(
        info(op).form,
        Form::Unary | Form::Binary | Form::Ternary | Form::Math
    )
}

/// Whether `mi` is a SIMD16 or SIMD32 instruction Gen9 cannot execute as it is.
pub fn needs_split(mi: &MInst) -> bool {
    let i = &mi.inst;
    // A gather (`MInst::is_gather`) is made at a width a0 can address.
    if i.exec_size < 16 || !has_lane_operands(i.op) || mi.is_gather() {
        return false;
    }
    if i.exec_size == 32 {
        return true;
    }
    if i.op == Opcode::Math
        && matches!(
            i.math_fn,
            Some(MathFn::IntDivBoth | MathFn::IntDivQuotient | MathFn::IntDivRemainder)
        )
    {
        return true;
    }
    // "Where n is the largest element size in bytes for any source or destination operand
    // type, ExecSize * n must be <= 64" (PRM Vol 7, general restrictions based on operand
    // types): a qword type at 16 lanes, even of scalar sources into the null register.
    let qword = i.dst.as_ref().is_some_and(|d| d.ty.size() == 8)
        || i.srcs.iter().flatten().any(|s| s.ty().size() == 8);
    if qword {
        return true;
    }
    // "No SIMD16 in mixed mode when destination is packed f16" (SKL PRM Vol 7, "Special
    // Restrictions for Handling Mixed Mode Float Operations"): a float rounded into native
    // halves, eight lanes an oword.
    let packed_hf = i
        .dst
        .as_ref()
        .is_some_and(|d| d.ty == Type::HF && d.hstride == 1);
    if packed_hf && i.srcs.iter().flatten().any(|s| s.ty() == Type::F) {
        return true;
    }
    let dst_over = i.dst.as_ref().is_some_and(|d| {
        d.file == RegFile::Grf
            && start_in_grf(mi.dst.map(|r| r.off), d.subreg) + dst_extent(i, d) > 2 * GRF
    });
    dst_over
        || i.srcs.iter().zip(mi.srcs).any(|(s, vref)| match s {
            Some(Src::Reg(r)) if r.file == RegFile::Grf => {
                start_in_grf(vref.map(|v| v.off), r.subreg) + src_extent(i, s.as_ref()) > 2 * GRF
            }
            _ => false,
        })
}

/// Lanes 0-15's planes, then lanes 16-31's: the layout of a SIMD32 message's operand of
/// several dword planes (`memory.rs` `lane_message`), which selection wrote and read plane
/// after plane (all 32 lanes' plane 0, then plane 1, ...). Once every instruction is at most
/// 16 lanes wide, each reference to one of `regs` (register, planes) other than its
/// messages' is moved to where its half of its plane is: byte `x` of half `h` of plane `c`,
/// at `128 c + 64 h + x` plane after plane, is at `64 (planes × h + c) + x`. A reference that
/// would straddle two halves is refused (the kernel is then built at SIMD16).
pub fn to_half_major(
    m: &mut MFunction,
    regs: &[(crate::mir::VReg, u32)],
) -> Result<(), super::IselError> {
    if regs.is_empty() {
        return Ok(());
    }
    let planes: rustc_hash::FxHashMap<crate::mir::VReg, u32> = regs.iter().copied().collect();
    let moved = |off: u32, extent: u32, n: u32| -> Result<u32, super::IselError> {
        let (c, h, x) = (off / 128, off % 128 / 64, off % 64);
        if x + extent > 64 || c >= n {
            return Err(super::IselError::Unsupported(
                "a SIMD32 operand across the halves of a message's plane".into(),
            ));
        }
        Ok(64 * (n * h + c) + x)
    };
    for it in &mut m.items {
        let Item::Inst(mi) = it else { continue };
        if matches!(
            mi.inst.op,
            Opcode::Send | Opcode::Sends | Opcode::Sendc | Opcode::Sendsc
        ) {
            continue;
        }
        if let (Some(r), Some(d)) = (mi.dst.as_mut(), mi.inst.dst.as_ref()) {
            if let Some(&n) = planes.get(&r.v) {
                r.off = moved(r.off + u32::from(d.subreg), dst_extent(&mi.inst, d), n)?
                    - u32::from(d.subreg);
            }
        }
        for (k, vref) in mi.srcs.iter_mut().enumerate() {
            let Some(r) = vref else { continue };
            let Some(&n) = planes.get(&r.v) else { continue };
            let (subreg, extent) = match &mi.inst.srcs[k] {
                Some(s @ Src::Reg(reg)) => (u32::from(reg.subreg), src_extent(&mi.inst, Some(s))),
                _ => (0, 4),
            };
            r.off = moved(r.off + subreg, extent, n)? - subreg;
        }
    }
    Ok(())
}

/// Where in its first GRF an operand starts: its offset into a (GRF-aligned) virtual
/// register, or its physical sub-register.
fn start_in_grf(vref_off: Option<u32>, subreg: u8) -> u32 {
    match vref_off {
        Some(off) => (off + u32::from(subreg)) % GRF,
        None => u32::from(subreg),
    }
}

/// Bytes from a destination's first element to the end of its last.
fn dst_extent(i: &Inst, d: &Dst) -> u32 {
    let size = d.ty.size();
    let stride = u32::from(d.hstride.max(1));
    (u32::from(i.exec_size) - 1) * stride * size + size
}

/// Bytes from a source's first element to the end of its last, by its region.
fn src_extent(i: &Inst, s: Option<&Src>) -> u32 {
    let Some(Src::Reg(r)) = s else { return 0 };
    let size = r.ty.size();
    let width = u32::from(r.region.width.max(1));
    let rows = u32::from(i.exec_size).div_ceil(width);
    ((rows - 1) * u32::from(r.region.vstride) + (width - 1) * u32::from(r.region.hstride)) * size
        + size
}

/// Byte distance from a source's element 0 to its element `n`.
fn src_lane(s: &Src, n: u32) -> u32 {
    match s {
        Src::Reg(r) => {
            let width = u32::from(r.region.width.max(1));
            let (row, col) = (n / width, n % width);
            (row * u32::from(r.region.vstride) + col * u32::from(r.region.hstride)) * r.ty.size()
        }
        Src::Imm(_) => 0,
    }
}

/// The two halves of `mi` (SIMD8 ones of a SIMD16 instruction, SIMD16 ones of a SIMD32).
pub(super) fn halves(mi: &MInst) -> (MInst, MInst) {
    let n = mi.inst.exec_size / 2;
    let mut lo = mi.clone();
    lo.inst.exec_size = n;
    let mut hi = lo.clone();
    hi.inst.chan_offset = mi.inst.chan_offset + n;
    let n = u32::from(n);
    if let Some(d) = &mut hi.inst.dst {
        if d.file == RegFile::Grf {
            let delta = n * u32::from(d.hstride.max(1)) * d.ty.size();
            match &mut hi.dst {
                Some(r) => r.off += delta,
                None => (d.nr, d.subreg) = advance(d.nr, d.subreg, delta),
            }
        }
    }
    for (s, vref) in hi.inst.srcs.iter_mut().zip(hi.srcs.iter_mut()) {
        let Some(src) = s else { continue };
        let delta = src_lane(src, n);
        if let Src::Reg(r) = src {
            if r.file != RegFile::Grf || delta == 0 {
                continue;
            }
            match vref {
                Some(v) => v.off += delta,
                None => (r.nr, r.subreg) = advance(r.nr, r.subreg, delta),
            }
        }
    }
    (lo, hi)
}

/// A physical register and sub-register `delta` bytes further on.
fn advance(nr: u8, subreg: u8, delta: u32) -> (u8, u8) {
    let at = u32::from(nr) * GRF + u32::from(subreg) + delta;
    ((at / GRF) as u8, (at % GRF) as u8)
}

#[cfg(test)]
mod tests {
    use super::super::{grf_dst, reg_src};
    use super::*;
    use crate::isa::{Region, Type};
    use crate::mir::{VRef, VReg};

    fn minst(i: Inst, dst: u32, srcs: [Option<u32>; 3]) -> MInst {
        MInst {
            inst: i,
            dst: Some(VRef {
                v: VReg(dst),
                off: 0,
            }),
            srcs: srcs.map(|s| s.map(|v| VRef { v: VReg(v), off: 0 })),
            jip: None,
            uip: None,
        }
    }

    #[test]
    fn dwords_stay_simd16() {
        let mut i = Inst::new(Opcode::Add, 16);
        i.dst = Some(grf_dst(0, 0, Type::D));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::D));
        i.srcs[1] = Some(reg_src(0, 0, Region::SCALAR, Type::D));
        assert!(!needs_split(&minst(i, 0, [Some(1), Some(2), None])));
    }

    #[test]
    fn qwords_split_at_lane_eight() {
        // mov (16) q:uq <- d:ud (a zero-extension): the qword destination is 4 GRFs.
        let mut i = Inst::new(Opcode::Mov, 16);
        i.dst = Some(grf_dst(0, 0, Type::UQ));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        let mi = minst(i, 0, [Some(1), None, None]);
        assert!(needs_split(&mi));
        let (lo, hi) = halves(&mi);
        assert_eq!((lo.inst.exec_size, lo.inst.chan_offset), (8, 0));
        assert_eq!((hi.inst.exec_size, hi.inst.chan_offset), (8, 8));
        assert_eq!(hi.dst.unwrap().off, 64);
        assert_eq!(hi.srcs[0].unwrap().off, 32);
    }

    #[test]
    fn strided_dword_view_of_qwords_moves_two_grfs() {
        // The high dwords of 16 qwords: <8;4,2>:ud from byte 4, four rows of a GRF each.
        let mut i = Inst::new(Opcode::Mov, 16);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(
            0,
            0,
            Region {
                vstride: 8,
                width: 4,
                hstride: 2,
            },
            Type::UD,
        ));
        let mut mi = minst(i, 0, [Some(1), None, None]);
        mi.srcs[0].as_mut().unwrap().off = 4;
        assert!(needs_split(&mi));
        let (_, hi) = halves(&mi);
        assert_eq!(hi.srcs[0].unwrap().off, 4 + 64);
        assert_eq!(hi.dst.unwrap().off, 32);
    }

    #[test]
    fn simd32_splits_in_halves_and_qwords_in_quarters() {
        // add (32) d:d <- a:d, scalar: (16|M0) and (16|M16), the second 64 bytes on.
        let mut i = Inst::new(Opcode::Add, 32);
        i.dst = Some(grf_dst(0, 0, Type::D));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::D));
        i.srcs[1] = Some(reg_src(0, 0, Region::SCALAR, Type::D));
        let mut m = MFunction::default();
        m.items
            .push(Item::Inst(minst(i, 0, [Some(1), Some(2), None])));
        // mov (32) q:uq <- d:ud: four SIMD8 quarters.
        let mut i = Inst::new(Opcode::Mov, 32);
        i.dst = Some(grf_dst(0, 0, Type::UQ));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        m.items.push(Item::Inst(minst(i, 3, [Some(4), None, None])));
        split(&mut m);
        // (exec size, channel offset, dst offset, src0 offset, src1 offset) of each piece.
        type Piece = (u8, u8, u32, Option<u32>, Option<u32>);
        let got: Vec<Piece> = m
            .items
            .iter()
            .map(|it| match it {
                Item::Inst(mi) => (
                    mi.inst.exec_size,
                    mi.inst.chan_offset,
                    mi.dst.unwrap().off,
                    mi.srcs[0].map(|r| r.off),
                    mi.srcs[1].map(|r| r.off),
                ),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(
            got,
            [
                (16, 0, 0, Some(0), Some(0)),
                (16, 16, 64, Some(64), Some(0)),
                (8, 0, 0, Some(0), None),
                (8, 8, 64, Some(32), None),
                (8, 16, 128, Some(64), None),
                (8, 24, 192, Some(96), None),
            ]
        );
    }

    #[test]
    fn half_major_references_move_to_their_half_of_their_plane() {
        // A four-plane SIMD32 reply read plane after plane: plane 2's lanes 16-31 (byte
        // 2 × 128 + 64) are in the second message's reply, its third plane (64 × (4 + 2)).
        let mut i = Inst::new(Opcode::Mov, 16);
        i.chan_offset = 16;
        i.dst = Some(grf_dst(0, 0, Type::F));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::F));
        let mut mi = minst(i, 0, [Some(1), None, None]);
        mi.srcs[0].as_mut().unwrap().off = 2 * 128 + 64;
        let mut m = MFunction::default();
        m.items.push(Item::Inst(mi.clone()));
        to_half_major(&mut m, &[(VReg(1), 4)]).unwrap();
        let Item::Inst(got) = &m.items[0] else {
            unreachable!()
        };
        assert_eq!(got.srcs[0].unwrap().off, 64 * 6);
        assert_eq!(got.dst.unwrap().off, 0, "other registers stay");
        // A reference across the halves of a plane is refused.
        mi.inst.exec_size = 32;
        mi.srcs[0].as_mut().unwrap().off = 0;
        let mut m = MFunction::default();
        m.items.push(Item::Inst(mi));
        assert!(to_half_major(&mut m, &[(VReg(1), 4)]).is_err());
    }

    #[test]
    fn integer_division_splits_and_physical_operands_move() {
        let mut i = Inst::new(Opcode::Math, 16);
        i.math_fn = Some(MathFn::IntDivQuotient);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        // Local IDs as words in r1: lanes 8-15 are at r1.8:uw.
        i.srcs[0] = Some(reg_src(1, 0, Region::contiguous(8), Type::UW));
        i.srcs[1] = Some(reg_src(0, 0, Region::SCALAR, Type::UD));
        let mut mi = minst(i, 0, [None, Some(2), None]);
        mi.srcs[0] = None;
        assert!(needs_split(&mi));
        let (_, hi) = halves(&mi);
        match hi.inst.srcs[0] {
            Some(Src::Reg(r)) => assert_eq!((r.nr, r.subreg), (1, 16)),
            _ => unreachable!(),
        }
        // The scalar divisor is the same for both halves.
        assert_eq!(hi.srcs[1].unwrap().off, 0);
    }
}
