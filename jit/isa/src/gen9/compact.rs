//! Gen9 compacted (64-bit) instructions: the compaction tables (facts from
//! the PRM's "EU Compact Instruction" tables, as Mesa's brw_eu_compact.c
//! lists them for Gen8/Gen9), the expansion of a compacted instruction to
//! its native 128-bit word, and the inverse, `compact`.
//!
//! Each table maps a 5-bit (2-bit for three-source) index to a value that is
//! the concatenation of several native bit ranges; `Piece` lists say which
//! ranges go where, and both directions read the same lists.

use super::encoding::FILE_IMM;
use super::fields::{self as fl, compact as c, Field};
use super::opcodes::{self, Form};
use super::DecodeError;

/// Control index → native bits {33:31 (flag/sat... high), 23:12, 10:9, 34, 8}.
pub const CONTROL_INDEX: [u32; 32] = [
    0x2, 0x4000, 0x4001, 0x4002, 0x4003, 0x4004, 0x4005, 0x4007, 0x4008, 0x4009, 0x400d, 0x6000,
    0x6001, 0x6002, 0x6003, 0x6004, 0x6005, 0x6007, 0x6009, 0x600d, 0x6010, 0x6100, 0x8000, 0x8002,
    0x8004, 0x8100, 0x16000, 0x16010, 0x18000, 0x18100, 0x28000, 0x28100,
];
pub const DATATYPE: [u32; 32] = [
    0x40001, 0x40040, 0x40041, 0x400c1, 0x4015d, 0x405dd, 0x40741, 0x40745, 0x4075d, 0x41041,
    0x43040, 0x43041, 0x45145, 0x47144, 0x47145, 0x5c75d, 0x5d71d, 0x5d75c, 0x5d75d, 0x5f75c,
    0x40c, 0x4005d, 0x40145, 0x41040, 0x45144, 0x47104, 0x49209, 0x5775d, 0x5f75d, 0x4f34c,
    0x49248, 0x4b248,
];
pub const SUBREG: [u16; 32] = [
    0x0, 0x1, 0x8, 0xf, 0x10, 0x80, 0x100, 0x180, 0x200, 0x210, 0x280, 0x1000, 0x1001, 0x1081,
    0x1082, 0x1083, 0x1084, 0x1087, 0x1088, 0x108e, 0x108f, 0x1180, 0x11e8, 0x2000, 0x2180, 0x3000,
    0x3c87, 0x4000, 0x5000, 0x6000, 0x7000, 0x701c,
];
pub const SRC_INDEX: [u16; 32] = [
    0x0, 0x2, 0x10, 0x12, 0x18, 0x20, 0x28, 0x48, 0x50, 0x70, 0x78, 0x300, 0x302, 0x308, 0x310,
    0x312, 0x320, 0x328, 0x338, 0x340, 0x342, 0x348, 0x350, 0x360, 0x368, 0x370, 0x371, 0x378,
    0x468, 0x469, 0x46a, 0x588,
];
pub const T_CONTROL_INDEX: [u32; 4] = [0x806001, 0x6001, 0x8001, 0x8021];
pub const T_SOURCE_INDEX: [u64; 4] = [0x7272720f000, 0x7272720f002, 0x7272720f008, 0x7272720f020];

/// One native bit range and where it sits in a table value.
#[derive(Clone, Copy)]
struct Piece {
    native: Field,
    shift: u32,
}

const fn p(native: Field, shift: u32) -> Piece {
    Piece { native, shift }
}

// Native ranges that span several named fields, named for what they hold.
/// Saturate, flag subregister, flag register.
const SAT_FLAG: Field = Field::new(fl::SATURATE.lo, fl::FLAG_REG.hi);
/// QtrCtrl through ExecSize (12..23).
const QTR_TO_EXEC: Field = Field::new(fl::QTR_CTRL.lo, fl::EXEC_SIZE.hi);
/// NoDDClr, NoDDChk.
const NO_DD: Field = Field::new(fl::NO_DD_CLR.lo, fl::NO_DD_CHK.hi);
/// Dst register file, dst type, src0 file, src0 type (35..46).
const DST_SRC0_FILE_TYPE: Field = Field::new(fl::DST_REG_FILE.lo, fl::SRC0_TYPE.hi);
/// Dst horizontal stride and address mode (61..63).
const DST_HS_MODE: Field = Field::new(fl::DST_HSTRIDE.lo, fl::DST_ADDR_MODE.hi);
/// Src1 register file and type (89..94).
const SRC1_FILE_TYPE: Field = Field::new(fl::SRC1_REG_FILE.lo, fl::SRC1_TYPE.hi);
/// Src0 abs, negate, address mode and region (77..88).
const SRC0_MOD_REGION: Field = Field::new(fl::SRC0_ABS.lo, fl::SRC0_VSTRIDE.hi);
const SRC1_MOD_REGION: Field = Field::new(fl::SRC1_ABS.lo, fl::SRC1_VSTRIDE.hi);

const CONTROL_PIECES: &[Piece] = &[
    p(SAT_FLAG, 16),
    p(QTR_TO_EXEC, 4),
    p(NO_DD, 2),
    p(fl::MASK_CTRL, 1),
    p(fl::ACCESS_MODE, 0),
];
const DATATYPE_PIECES: &[Piece] = &[
    p(DST_HS_MODE, 18),
    p(SRC1_FILE_TYPE, 12),
    p(DST_SRC0_FILE_TYPE, 0),
];
/// The src1 piece comes first so that an immediate, written after it, wins.
const SUBREG_PIECES: &[Piece] = &[
    p(fl::SRC1_DA1_SUBREG, 10),
    p(fl::SRC0_DA1_SUBREG, 5),
    p(fl::DST_DA1_SUBREG, 0),
];
/// With an immediate source only the dst and src0 pieces are looked up.
const SUBREG_IMM_MASK: u64 = 0x3FF;
const SRC0_PIECES: &[Piece] = &[p(SRC0_MOD_REGION, 0)];
const SRC1_PIECES: &[Piece] = &[p(SRC1_MOD_REGION, 0)];

/// Three-source control: {34:32 flag, mask ctrl; 28:8}. (Bits 36:35, CHV's
/// extra source types, are not in Gen9's table: those stay native.)
const T_CONTROL_PIECES: &[Piece] = &[
    p(Field::new(fl::FLAG_SUBREG.lo, fl::MASK_CTRL.hi), 21),
    p(Field::new(fl::ACCESS_MODE.lo, fl::ACC_WR_EN.hi), 0),
];
/// Three-source sources: the top bit of each register number (Gen9 compacted
/// registers are 7 bits), swizzles, and dst/source modifiers and types.
const T_SOURCE_PIECES: &[Piece] = &[
    p(
        Field::new(fl::T_SRC[0].reg_nr.hi, fl::T_SRC[0].reg_nr.hi),
        43,
    ),
    p(fl::T_SRC[2].swizzle, 35),
    p(fl::T_SRC[1].swizzle, 27),
    p(fl::T_SRC[0].swizzle, 19),
    p(Field::new(fl::T_SRC_MODS[0].0.lo, fl::T_DST_SUBREG.hi), 0),
    p(
        Field::new(fl::T_SRC[2].reg_nr.hi, fl::T_SRC[2].reg_nr.hi),
        45,
    ),
    p(
        Field::new(fl::T_SRC[1].reg_nr.hi, fl::T_SRC[1].reg_nr.hi),
        44,
    ),
];

/// Native fields copied as they are: (native, compacted).
const DIRECT: &[(Field, Field)] = &[
    (fl::DEBUG_CTRL, c::DEBUG_CTRL),
    (fl::ACC_WR_EN, c::ACC_WR_EN),
    (fl::COND_MOD, c::COND_MOD),
    (fl::DST_REG_NR, c::DST_REG_NR),
    (fl::SRC0_REG_NR, c::SRC0_REG_NR),
];
const T_DIRECT: &[(Field, Field)] = &[
    (fl::T_DST_REG_NR, c::T_DST_REG_NR),
    (fl::T_SRC[0].rep_ctrl, c::T_SRC0_REP_CTRL),
    (fl::T_SRC[1].rep_ctrl, c::T_SRC1_REP_CTRL),
    (fl::T_SRC[2].rep_ctrl, c::T_SRC2_REP_CTRL),
    (fl::DEBUG_CTRL, c::T_DEBUG_CTRL),
    (fl::SATURATE, c::T_SATURATE),
    (fl::T_SRC[0].reg_nr, c::T_SRC0_REG_NR),
    (fl::T_SRC[1].reg_nr, c::T_SRC1_REG_NR),
    (fl::T_SRC[2].reg_nr, c::T_SRC2_REG_NR),
    (fl::T_SRC[0].subreg, c::T_SRC0_SUBREG),
    (fl::T_SRC[1].subreg, c::T_SRC1_SUBREG),
    (fl::T_SRC[2].subreg, c::T_SRC2_SUBREG),
];

/// Immediates of compacted instructions are 13 bits, sign-extended to 32.
const IMM_BITS: u32 = 13;

fn unpack(pieces: &[Piece], value: u64, w: &mut u128) {
    for pc in pieces {
        pc.native.set(w, value >> pc.shift);
    }
}

fn pack(pieces: &[Piece], w: u128) -> u64 {
    pieces
        .iter()
        .fold(0, |v, pc| v | (pc.native.get(w) << pc.shift))
}

/// Index of the first table entry equal to `value` under `mask`.
fn lookup<T: Copy + Into<u64>>(table: &[T], value: u64, mask: u64) -> Option<u64> {
    table
        .iter()
        .position(|&e| e.into() & mask == value & mask)
        .map(|i| i as u64)
}

/// Expand a compacted instruction (its 8 bytes as a little-endian u64) into
/// the native 128-bit word it stands for.
pub fn expand(ci: u64) -> Result<u128, DecodeError> {
    let cw = ci as u128;
    let num = c::OPCODE.get(cw) as u8;
    let info = opcodes::by_num(num)
        .ok_or_else(|| DecodeError::Invalid(format!("compacted opcode {num:#x}")))?;
    let mut w: u128 = 0;
    fl::OPCODE.set(&mut w, num as u64);
    if info.form == Form::Ternary {
        let ctl = T_CONTROL_INDEX[c::T_CONTROL_INDEX.get(cw) as usize];
        unpack(T_CONTROL_PIECES, ctl as u64, &mut w);
        let src = T_SOURCE_INDEX[c::T_SOURCE_INDEX.get(cw) as usize];
        unpack(T_SOURCE_PIECES, src, &mut w);
        for (n, k) in T_DIRECT {
            n.set(&mut w, k.get(cw));
        }
        return Ok(w);
    }
    let ctl = CONTROL_INDEX[c::CONTROL_INDEX.get(cw) as usize];
    unpack(CONTROL_PIECES, ctl as u64, &mut w);
    let dt = DATATYPE[c::DATATYPE_INDEX.get(cw) as usize];
    unpack(DATATYPE_PIECES, dt as u64, &mut w);
    let sr = SUBREG[c::SUBREG_INDEX.get(cw) as usize];
    unpack(SUBREG_PIECES, sr as u64, &mut w);
    let s0 = SRC_INDEX[c::SRC0_INDEX.get(cw) as usize];
    unpack(SRC0_PIECES, s0 as u64, &mut w);
    for (n, k) in DIRECT {
        n.set(&mut w, k.get(cw));
    }
    if has_imm(w) {
        let raw = (c::IMM_HI.get(cw) << c::IMM_LO.width()) | c::IMM_LO.get(cw);
        let shift = 32 - IMM_BITS;
        let v = (((raw as u32) << shift) as i32 >> shift) as u32;
        fl::IMM32.set(&mut w, v as u64);
    } else {
        let s1 = SRC_INDEX[c::SRC1_INDEX.get(cw) as usize];
        unpack(SRC1_PIECES, s1 as u64, &mut w);
        fl::SRC1_REG_NR.set(&mut w, c::SRC1_REG_NR.get(cw));
    }
    Ok(w)
}

fn has_imm(w: u128) -> bool {
    fl::SRC0_REG_FILE.get(w) == FILE_IMM || fl::SRC1_REG_FILE.get(w) == FILE_IMM
}

/// May an instruction of this form be compacted at all? Flow control never
/// is: IGA (our reference, and IGC through it) refuses to compact any
/// instruction with a jump target, and GED reports "no compact form" even
/// when asked explicitly. (Mesa does compact if/else/endif/while on Gen8+.)
fn form_compactable(form: Form) -> bool {
    !matches!(
        form,
        Form::Jmpi | Form::BranchJipUip | Form::BranchJip | Form::Call
    )
}

/// Native bits the instruction does not read: the src1 operand of a
/// one-source instruction with a register source. GED (iga64) treats them as
/// free when it picks table entries (a `mov` with dst subregister 28 takes
/// SUBREG entry 0x701c, src1 subregister 28 included), and so does `compact`.
/// With an immediate source those bits hold the immediate and all count.
pub fn unused_bits(w: u128) -> u128 {
    let unary = opcodes::by_num(fl::OPCODE.get(w) as u8).is_some_and(|i| i.form == Form::Unary);
    if !unary || has_imm(w) {
        return 0;
    }
    let mut m = 0;
    for f in [
        SRC1_FILE_TYPE,
        Field::new(fl::SRC1_DA1_SUBREG.lo, fl::SRC1_IA_IMM9.hi),
    ] {
        f.set(&mut m, u64::MAX);
    }
    m
}

/// Do two native words encode the same instruction (bits it reads equal)?
pub fn same_instruction(a: u128, b: u128) -> bool {
    let free = unused_bits(a);
    free == unused_bits(b) && (a ^ b) & !free == 0
}

/// The mask, in table-value space, of the pieces that are not free in `w`.
fn table_mask(pieces: &[Piece], w: u128) -> u64 {
    let free = unused_bits(w);
    pieces.iter().fold(0, |m, pc| {
        if pc.native.get(free) == 0 {
            m | (pc.native.mask() as u64) << pc.shift
        } else {
            m
        }
    })
}

/// The compacted form of a native instruction, if every bit of it can be
/// represented: the table lookups hit, registers and immediates fit, and the
/// instruction kind is compactable. `expand(compact(w)?)` is `w` on every
/// bit the instruction reads (`same_instruction`); bits it does not read
/// (`unused_bits`) take what the first matching table entry holds.
pub fn compact(w: u128) -> Option<u64> {
    if fl::CMPT_CTRL.get(w) != 0 {
        return None;
    }
    let num = fl::OPCODE.get(w) as u8;
    let info = opcodes::by_num(num)?;
    if !form_compactable(info.form) {
        return None;
    }
    // Mesa: "EOT can only be mapped on a send if the src1 is an immediate";
    // it never compacts an EOT send, nor do we.
    if info.form == Form::Send && fl::EOT.get(w) != 0 {
        return None;
    }
    // A send whose descriptor is a register (a0.0) fits the tables, but GED
    // (iga64) reports no compact form for it; gencl agrees with iga64.
    if info.form == Form::Send && fl::SRC1_REG_FILE.get(w) != FILE_IMM {
        return None;
    }
    let mut cw: u128 = 0;
    c::OPCODE.set(&mut cw, num as u64);
    c::CMPT_CTRL.set(&mut cw, 1);
    if info.form == Form::Ternary {
        let ctl = lookup(&T_CONTROL_INDEX, pack(T_CONTROL_PIECES, w), u64::MAX)?;
        c::T_CONTROL_INDEX.set(&mut cw, ctl);
        let src = lookup(&T_SOURCE_INDEX, pack(T_SOURCE_PIECES, w), u64::MAX)?;
        c::T_SOURCE_INDEX.set(&mut cw, src);
        for (n, k) in T_DIRECT {
            k.set(&mut cw, n.get(w));
        }
    } else {
        let imm = has_imm(w);
        let ctl = lookup(&CONTROL_INDEX, pack(CONTROL_PIECES, w), u64::MAX)?;
        c::CONTROL_INDEX.set(&mut cw, ctl);
        // GED looks datatypes up whole, src1's type included even where it
        // is unused: (mov :d :d takes entry 0x4075d, not an earlier one
        // differing only in src1's type).
        let dt = lookup(&DATATYPE, pack(DATATYPE_PIECES, w), u64::MAX)?;
        c::DATATYPE_INDEX.set(&mut cw, dt);
        let mask = if imm {
            SUBREG_IMM_MASK
        } else {
            table_mask(SUBREG_PIECES, w)
        };
        let sr = lookup(&SUBREG, pack(SUBREG_PIECES, w), mask)?;
        c::SUBREG_INDEX.set(&mut cw, sr);
        let s0 = lookup(&SRC_INDEX, pack(SRC0_PIECES, w), u64::MAX)?;
        c::SRC0_INDEX.set(&mut cw, s0);
        for (n, k) in DIRECT {
            k.set(&mut cw, n.get(w));
        }
        if imm {
            let v = fl::IMM32.get(w);
            c::IMM_LO.set(&mut cw, v);
            c::IMM_HI.set(&mut cw, v >> c::IMM_LO.width());
        } else {
            let s1 = lookup(&SRC_INDEX, pack(SRC1_PIECES, w), u64::MAX)?;
            c::SRC1_INDEX.set(&mut cw, s1);
            c::SRC1_REG_NR.set(&mut cw, fl::SRC1_REG_NR.get(w));
        }
    }
    let ci = cw as u64;
    // Whatever the lookups did not cover (reserved bits, register numbers
    // above 127 in three-source form, immediates wider than 13 bits, bits
    // 11/47/95 that no compacted field maps) shows up as a difference here.
    same_instruction(expand(ci).ok()?, w).then_some(ci)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random compacted words: wherever the expansion compacts again, the
    /// result expands to the same instruction.
    #[test]
    fn compact_inverts_expand() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut hits = 0;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut ci = seed;
            // A real compacted opcode of a compactable form.
            let info = &opcodes::INFO[(seed >> 40) as usize % opcodes::INFO.len()];
            let mut cw = ci as u128;
            c::OPCODE.set(&mut cw, info.num as u64);
            c::CMPT_CTRL.set(&mut cw, 1);
            ci = cw as u64;
            let Ok(w) = expand(ci) else { continue };
            if let Some(back) = compact(w) {
                let again = expand(back).unwrap();
                assert!(same_instruction(again, w), "{ci:#018x}");
                hits += 1;
            }
        }
        assert!(
            hits > 10_000,
            "only {hits} random compacted words round-trip"
        );
    }
}
