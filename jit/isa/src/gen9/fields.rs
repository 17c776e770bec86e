//! Every Gen9 instruction field as a named bit range: the one table read by
//! the encoder, the decoder and the compaction code. Bit numbers count from
//! bit 0 of the 128-bit native instruction (little-endian), `Field::new(lo, hi)`
//! inclusive. Source: the Gen9 columns of Mesa's brw_inst.h (facts re-typed),
//! checked against `iga64 -Xprint-bits`.

/// An inclusive bit range `[lo, hi]` of an instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub lo: u32,
    pub hi: u32,
    /// `width` ones, computed once: compaction walks its field lists at run time, where a
    /// mask made at each use (a 128-bit shift and a branch on the width) was a tenth of a
    /// kernel's emission.
    mask: u128,
}

impl Field {
    pub const fn new(lo: u32, hi: u32) -> Field {
        assert!(lo <= hi && hi < 128, "a field lies within the 128-bit word");
        let width = hi - lo + 1;
        let mask = if width >= 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        Field { lo, hi, mask }
    }
    #[inline(always)]
    pub const fn width(self) -> u32 {
        self.hi - self.lo + 1
    }
    #[inline(always)]
    pub const fn mask(self) -> u128 {
        self.mask
    }
    /// Read the field from a 128-bit word.
    #[inline(always)]
    pub fn get(self, w: u128) -> u64 {
        ((w >> self.lo) & self.mask()) as u64
    }
    /// Write the field (value masked to the field's width).
    #[inline(always)]
    pub fn set(self, w: &mut u128, v: u64) {
        *w &= !(self.mask() << self.lo);
        *w |= (v as u128 & self.mask()) << self.lo;
    }
    /// Does `v` fit in the field?
    #[inline(always)]
    pub fn fits(self, v: u64) -> bool {
        (v as u128) <= self.mask()
    }
}

const fn f(lo: u32, hi: u32) -> Field {
    Field::new(lo, hi)
}

// ---- Common header (all native forms) ----
pub const OPCODE: Field = f(0, 6);
pub const ACCESS_MODE: Field = f(8, 8);
pub const NO_DD_CLR: Field = f(9, 9);
pub const NO_DD_CHK: Field = f(10, 10);
pub const NIB_CTRL: Field = f(11, 11);
pub const QTR_CTRL: Field = f(12, 13);
pub const THREAD_CTRL: Field = f(14, 15);
pub const PRED_CTRL: Field = f(16, 19);
pub const PRED_INV: Field = f(20, 20);
pub const EXEC_SIZE: Field = f(21, 23);
/// Conditional modifier; the same bits are the math function and the send SFID.
pub const COND_MOD: Field = f(24, 27);
pub const MATH_FN: Field = f(24, 27);
pub const SFID: Field = f(24, 27);
/// AccWrEn; the same bit is BranchCtrl on flow control.
pub const ACC_WR_EN: Field = f(28, 28);
pub const CMPT_CTRL: Field = f(29, 29);
pub const DEBUG_CTRL: Field = f(30, 30);
pub const SATURATE: Field = f(31, 31);
pub const FLAG_SUBREG: Field = f(32, 32);
pub const FLAG_REG: Field = f(33, 33);
pub const MASK_CTRL: Field = f(34, 34);

// ---- Align1 / Align16 two-source form ----
pub const DST_REG_FILE: Field = f(35, 36);
pub const DST_TYPE: Field = f(37, 40);
pub const SRC0_REG_FILE: Field = f(41, 42);
pub const SRC0_TYPE: Field = f(43, 46);
/// Bit 9 of the dst indirect address immediate.
pub const DST_IA_IMM9: Field = f(47, 47);
pub const DST_DA1_SUBREG: Field = f(48, 52);
pub const DST_DA16_SUBREG: Field = f(52, 52);
pub const DST_DA16_WRITEMASK: Field = f(48, 51);
pub const DST_REG_NR: Field = f(53, 60);
pub const DST_IA_IMM: Field = f(48, 56);
pub const DST_IA16_IMM: Field = f(52, 56);
pub const DST_IA_SUBREG: Field = f(57, 60);
pub const DST_HSTRIDE: Field = f(61, 62);
pub const DST_ADDR_MODE: Field = f(63, 63);

pub const SRC0_DA1_SUBREG: Field = f(64, 68);
pub const SRC0_DA16_SUBREG: Field = f(68, 68);
pub const SRC0_DA16_SWZ_X: Field = f(64, 65);
pub const SRC0_DA16_SWZ_Y: Field = f(66, 67);
pub const SRC0_REG_NR: Field = f(69, 76);
pub const SRC0_IA_IMM: Field = f(64, 72);
pub const SRC0_IA16_IMM: Field = f(68, 72);
pub const SRC0_IA_SUBREG: Field = f(73, 76);
pub const SRC0_ABS: Field = f(77, 77);
pub const SRC0_NEGATE: Field = f(78, 78);
pub const SRC0_ADDR_MODE: Field = f(79, 79);
pub const SRC0_HSTRIDE: Field = f(80, 81);
pub const SRC0_DA16_SWZ_Z: Field = f(80, 81);
pub const SRC0_WIDTH: Field = f(82, 84);
pub const SRC0_DA16_SWZ_W: Field = f(82, 83);
pub const SRC0_VSTRIDE: Field = f(85, 88);
pub const SRC1_REG_FILE: Field = f(89, 90);
pub const SRC1_TYPE: Field = f(91, 94);
/// Bit 9 of the src0 indirect address immediate.
pub const SRC0_IA_IMM9: Field = f(95, 95);

pub const SRC1_DA1_SUBREG: Field = f(96, 100);
pub const SRC1_DA16_SUBREG: Field = f(100, 100);
pub const SRC1_DA16_SWZ_X: Field = f(96, 97);
pub const SRC1_DA16_SWZ_Y: Field = f(98, 99);
pub const SRC1_REG_NR: Field = f(101, 108);
pub const SRC1_IA_IMM: Field = f(96, 104);
pub const SRC1_IA16_IMM: Field = f(100, 104);
pub const SRC1_IA_SUBREG: Field = f(105, 108);
pub const SRC1_ABS: Field = f(109, 109);
pub const SRC1_NEGATE: Field = f(110, 110);
pub const SRC1_ADDR_MODE: Field = f(111, 111);
pub const SRC1_HSTRIDE: Field = f(112, 113);
pub const SRC1_DA16_SWZ_Z: Field = f(112, 113);
pub const SRC1_WIDTH: Field = f(114, 116);
pub const SRC1_DA16_SWZ_W: Field = f(114, 115);
pub const SRC1_VSTRIDE: Field = f(117, 120);
/// Bit 9 of the src1 indirect address immediate.
pub const SRC1_IA_IMM9: Field = f(121, 121);

/// 32-bit immediate (the last source); 64-bit immediates use `IMM64`.
pub const IMM32: Field = f(96, 127);
pub const IMM64: Field = f(64, 127);

// ---- Flow control ----
pub const UIP: Field = f(64, 95);
pub const JIP: Field = f(96, 127);

// ---- send / sendc ----
pub const SEND_DESC: Field = f(96, 126);
pub const EOT: Field = f(127, 127);
/// Extended descriptor pieces of send(c): ex_desc[19:16], [23:20], [27:24], [31:28].
pub const SEND_EXDESC_19_16: Field = f(64, 67);
pub const SEND_EXDESC_23_20: Field = f(80, 83);
pub const SEND_EXDESC_27_24: Field = f(85, 88);
pub const SEND_EXDESC_31_28: Field = f(91, 94);

// ---- sends / sendsc (split send) ----
pub const SENDS_DST_FILE: Field = f(35, 35);
pub const SENDS_SRC1_FILE: Field = f(36, 36);
pub const SENDS_SRC1_REG_NR: Field = f(44, 51);
pub const SENDS_DST_SUBREG16: Field = f(52, 52);
pub const SENDS_EXDESC_REG: Field = f(61, 61);
/// ex_desc[9:6] of sends: src1 length.
pub const SENDS_EXDESC_9_6: Field = f(64, 67);
pub const SENDS_DESC_REG: Field = f(77, 77);
pub const SENDS_EXDESC_A0_SUBREG: Field = f(80, 82);
/// ex_desc[31:16] of sends.
pub const SENDS_EXDESC_31_16: Field = f(80, 95);

// ---- Three-source Align16 ----
pub const T_SRC_MODS: [(Field, Field); 3] = [
    (f(37, 37), f(38, 38)), // (abs, negate) of src0
    (f(39, 39), f(40, 40)),
    (f(41, 41), f(42, 42)),
];
pub const T_SRC2_TYPE_HF: Field = f(35, 35);
pub const T_SRC1_TYPE_HF: Field = f(36, 36);
pub const T_SRC_TYPE: Field = f(43, 45);
pub const T_DST_TYPE: Field = f(46, 48);
pub const T_DST_WRITEMASK: Field = f(49, 52);
/// Dst subregister in dwords.
pub const T_DST_SUBREG: Field = f(53, 55);
pub const T_DST_REG_NR: Field = f(56, 63);
/// Per source: (rep_ctrl, swizzle, subreg[4:2], reg nr, subreg bit 1).
pub struct TSrc {
    pub rep_ctrl: Field,
    pub swizzle: Field,
    pub subreg: Field,
    pub reg_nr: Field,
    pub subreg_bit1: Field,
}
pub const T_SRC: [TSrc; 3] = [
    TSrc {
        rep_ctrl: f(64, 64),
        swizzle: f(65, 72),
        subreg: f(73, 75),
        reg_nr: f(76, 83),
        subreg_bit1: f(84, 84),
    },
    TSrc {
        rep_ctrl: f(85, 85),
        swizzle: f(86, 93),
        subreg: f(94, 96),
        reg_nr: f(97, 104),
        subreg_bit1: f(105, 105),
    },
    TSrc {
        rep_ctrl: f(106, 106),
        swizzle: f(107, 114),
        subreg: f(115, 117),
        reg_nr: f(118, 125),
        subreg_bit1: f(126, 126),
    },
];

/// The Align1/Align16 fields of source 0 and source 1, indexed by source.
pub struct SrcFields {
    pub file: Field,
    pub ty: Field,
    pub addr_mode: Field,
    pub negate: Field,
    pub abs: Field,
    pub reg_nr: Field,
    pub da1_subreg: Field,
    pub da16_subreg: Field,
    pub ia_subreg: Field,
    pub ia_imm: Field,
    pub ia16_imm: Field,
    pub ia_imm9: Field,
    pub vstride: Field,
    pub width: Field,
    pub hstride: Field,
    pub swz: [Field; 4],
}

pub const SRC_FIELDS: [SrcFields; 2] = [
    SrcFields {
        file: SRC0_REG_FILE,
        ty: SRC0_TYPE,
        addr_mode: SRC0_ADDR_MODE,
        negate: SRC0_NEGATE,
        abs: SRC0_ABS,
        reg_nr: SRC0_REG_NR,
        da1_subreg: SRC0_DA1_SUBREG,
        da16_subreg: SRC0_DA16_SUBREG,
        ia_subreg: SRC0_IA_SUBREG,
        ia_imm: SRC0_IA_IMM,
        ia16_imm: SRC0_IA16_IMM,
        ia_imm9: SRC0_IA_IMM9,
        vstride: SRC0_VSTRIDE,
        width: SRC0_WIDTH,
        hstride: SRC0_HSTRIDE,
        swz: [
            SRC0_DA16_SWZ_X,
            SRC0_DA16_SWZ_Y,
            SRC0_DA16_SWZ_Z,
            SRC0_DA16_SWZ_W,
        ],
    },
    SrcFields {
        file: SRC1_REG_FILE,
        ty: SRC1_TYPE,
        addr_mode: SRC1_ADDR_MODE,
        negate: SRC1_NEGATE,
        abs: SRC1_ABS,
        reg_nr: SRC1_REG_NR,
        da1_subreg: SRC1_DA1_SUBREG,
        da16_subreg: SRC1_DA16_SUBREG,
        ia_subreg: SRC1_IA_SUBREG,
        ia_imm: SRC1_IA_IMM,
        ia16_imm: SRC1_IA16_IMM,
        ia_imm9: SRC1_IA_IMM9,
        vstride: SRC1_VSTRIDE,
        width: SRC1_WIDTH,
        hstride: SRC1_HSTRIDE,
        swz: [
            SRC1_DA16_SWZ_X,
            SRC1_DA16_SWZ_Y,
            SRC1_DA16_SWZ_Z,
            SRC1_DA16_SWZ_W,
        ],
    },
];

// ---- Compacted (64-bit) form ----
pub mod compact {
    use super::{f, Field};
    pub const OPCODE: Field = f(0, 6);
    pub const DEBUG_CTRL: Field = f(7, 7);
    pub const CONTROL_INDEX: Field = f(8, 12);
    pub const DATATYPE_INDEX: Field = f(13, 17);
    pub const SUBREG_INDEX: Field = f(18, 22);
    pub const ACC_WR_EN: Field = f(23, 23);
    pub const COND_MOD: Field = f(24, 27);
    pub const CMPT_CTRL: Field = f(29, 29);
    pub const SRC0_INDEX: Field = f(30, 34);
    pub const SRC1_INDEX: Field = f(35, 39);
    pub const DST_REG_NR: Field = f(40, 47);
    pub const SRC0_REG_NR: Field = f(48, 55);
    pub const SRC1_REG_NR: Field = f(56, 63);
    /// Immediate: bits [12:8] at 39:35, bits [7:0] at 63:56 (13 bits, sign-extended).
    pub const IMM_HI: Field = f(35, 39);
    pub const IMM_LO: Field = f(56, 63);

    pub const T_CONTROL_INDEX: Field = f(8, 9);
    pub const T_SOURCE_INDEX: Field = f(10, 11);
    pub const T_DST_REG_NR: Field = f(12, 18);
    pub const T_SRC0_REP_CTRL: Field = f(28, 28);
    pub const T_DEBUG_CTRL: Field = f(30, 30);
    pub const T_SATURATE: Field = f(31, 31);
    pub const T_SRC1_REP_CTRL: Field = f(32, 32);
    pub const T_SRC2_REP_CTRL: Field = f(33, 33);
    pub const T_SRC0_SUBREG: Field = f(34, 36);
    pub const T_SRC1_SUBREG: Field = f(37, 39);
    pub const T_SRC2_SUBREG: Field = f(40, 42);
    pub const T_SRC0_REG_NR: Field = f(43, 49);
    pub const T_SRC1_REG_NR: Field = f(50, 56);
    pub const T_SRC2_REG_NR: Field = f(57, 63);
}
