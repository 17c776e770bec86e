//! SIMD16 legalisation: an instruction that Gen9 cannot execute at 16 lanes becomes two
//! SIMD8 halves, `(8|M0)` and `(8|M8)`, the second with each per-lane operand moved on by
//! eight elements of its region. Two cases (Mesa's `brw_fs_lower_simd_width` makes the same
//! split):
//! - a qword operand type at 16 lanes, whatever the regions (ExecSize × 8 bytes > 64);
//! - an operand that would cover more than two GRFs: "a source or destination operand can
//!   span at most two registers" (PRM Vol 7, register region restrictions), so every 64-bit
//!   per-lane operand (16 × 8 bytes = 4 GRFs), and strided dword views of qwords;
//! - integer division on the math unit, which "is limited to SIMD8" on every generation.
//!
//! The halves use the same flag register: an instruction with channel offset 8 reads and
//! writes flag bits 15:8, so a SIMD16 compare split in two still sets one 16-bit mask.
//! Flow control and messages are never split here (`has_lane_operands`, from the ISA
//! table's forms): the flow instructions run at the kernel's width, and `memory.rs` picks
//! each message's SIMD mode itself.

use crate::isa::{Dst, Inst, MathFn, Opcode, RegFile, Src, Type};
use crate::mir::{Item, MFunction, MInst};

/// Bytes a GRF holds.
const GRF: u32 = 32;

/// Split every SIMD16 instruction that Gen9 cannot run at 16 lanes.
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
            Item::Inst(mi) if needs_split(&mi) => {
                let (lo, hi) = halves(&mi);
                m.items.push(Item::Inst(lo));
                m.items.push(Item::Inst(hi));
            }
            other => m.items.push(other),
        }
    }
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

/// Whether `mi` is a SIMD16 instruction Gen9 cannot execute as it is.
pub fn needs_split(mi: &MInst) -> bool {
    let i = &mi.inst;
    // A gather (`MInst::is_gather`) is made at a width a0 can address.
    if i.exec_size != 16 || !has_lane_operands(i.op) || mi.is_gather() {
        return false;
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

/// Byte distance from a source's element 0 to its element 8.
fn src_lane8(s: &Src) -> u32 {
    match s {
        Src::Reg(r) => {
            let width = u32::from(r.region.width.max(1));
            let (row, col) = (8 / width, 8 % width);
            (row * u32::from(r.region.vstride) + col * u32::from(r.region.hstride)) * r.ty.size()
        }
        Src::Imm(_) => 0,
    }
}

/// The two SIMD8 halves of `mi`.
pub(super) fn halves(mi: &MInst) -> (MInst, MInst) {
    let mut lo = mi.clone();
    lo.inst.exec_size = 8;
    let mut hi = lo.clone();
    hi.inst.chan_offset = mi.inst.chan_offset + 8;
    if let Some(d) = &mut hi.inst.dst {
        if d.file == RegFile::Grf {
            let delta = 8 * u32::from(d.hstride.max(1)) * d.ty.size();
            match &mut hi.dst {
                Some(r) => r.off += delta,
                None => (d.nr, d.subreg) = advance(d.nr, d.subreg, delta),
            }
        }
    }
    for (s, vref) in hi.inst.srcs.iter_mut().zip(hi.srcs.iter_mut()) {
        let Some(src) = s else { continue };
        let delta = src_lane8(src);
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
