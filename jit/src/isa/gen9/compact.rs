//! Gen9 compacted (64-bit) instructions: the compaction tables (facts from
//! the PRM's "EU Compact Instruction" tables, as Mesa's brw_eu_compact.c
//! lists them for Gen8/Gen9) and the expansion of a compacted instruction to
//! its native 128-bit word, which the native decoder then reads.

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

fn set(w: &mut u128, lo: u32, hi: u32, v: u64) {
    Field::new(lo, hi).set(w, v);
}

/// Expand a compacted instruction (its 8 bytes as a little-endian u64) into
/// the native 128-bit word it stands for.
pub fn expand(ci: u64) -> Result<u128, DecodeError> {
    let w128 = ci as u128;
    let num = c::OPCODE.get(w128) as u8;
    let info = opcodes::by_num(num)
        .ok_or_else(|| DecodeError::Invalid(format!("compacted opcode {num:#x}")))?;
    let mut w: u128 = 0;
    fl::OPCODE.set(&mut w, num as u64);
    if info.form == Form::Ternary {
        let ctl = T_CONTROL_INDEX[c::T_CONTROL_INDEX.get(w128) as usize] as u64;
        set(&mut w, 32, 34, (ctl >> 21) & 0x7);
        set(&mut w, 8, 28, ctl & 0x1F_FFFF);
        set(&mut w, 35, 36, (ctl >> 24) & 0x3);
        let src = T_SOURCE_INDEX[c::T_SOURCE_INDEX.get(w128) as usize];
        set(&mut w, 83, 83, (src >> 43) & 0x1);
        set(&mut w, 107, 114, (src >> 35) & 0xFF);
        set(&mut w, 86, 93, (src >> 27) & 0xFF);
        set(&mut w, 65, 72, (src >> 19) & 0xFF);
        set(&mut w, 37, 55, src & 0x7FFFF);
        set(&mut w, 125, 126, (src >> 47) & 0x3);
        set(&mut w, 104, 105, (src >> 45) & 0x3);
        set(&mut w, 84, 84, (src >> 44) & 0x1);
        fl::T_DST_REG_NR.set(&mut w, c::T_DST_REG_NR.get(w128));
        fl::T_SRC[0]
            .rep_ctrl
            .set(&mut w, c::T_SRC0_REP_CTRL.get(w128));
        fl::T_SRC[1]
            .rep_ctrl
            .set(&mut w, c::T_SRC1_REP_CTRL.get(w128));
        fl::T_SRC[2]
            .rep_ctrl
            .set(&mut w, c::T_SRC2_REP_CTRL.get(w128));
        fl::DEBUG_CTRL.set(&mut w, c::T_DEBUG_CTRL.get(w128));
        fl::SATURATE.set(&mut w, c::T_SATURATE.get(w128));
        // Register numbers are 7 bits here (r0..r127); subregisters in dwords.
        fl::T_SRC[0].reg_nr.set(&mut w, c::T_SRC0_REG_NR.get(w128));
        fl::T_SRC[1].reg_nr.set(&mut w, c::T_SRC1_REG_NR.get(w128));
        fl::T_SRC[2].reg_nr.set(&mut w, c::T_SRC2_REG_NR.get(w128));
        fl::T_SRC[0].subreg.set(&mut w, c::T_SRC0_SUBREG.get(w128));
        fl::T_SRC[1].subreg.set(&mut w, c::T_SRC1_SUBREG.get(w128));
        fl::T_SRC[2].subreg.set(&mut w, c::T_SRC2_SUBREG.get(w128));
        return Ok(w);
    }
    fl::DEBUG_CTRL.set(&mut w, c::DEBUG_CTRL.get(w128));
    let ctl = CONTROL_INDEX[c::CONTROL_INDEX.get(w128) as usize] as u64;
    set(&mut w, 31, 33, ctl >> 16);
    set(&mut w, 12, 23, (ctl >> 4) & 0xFFF);
    set(&mut w, 9, 10, (ctl >> 2) & 0x3);
    set(&mut w, 34, 34, (ctl >> 1) & 0x1);
    set(&mut w, 8, 8, ctl & 0x1);
    let dt = DATATYPE[c::DATATYPE_INDEX.get(w128) as usize] as u64;
    set(&mut w, 61, 63, dt >> 18);
    set(&mut w, 89, 94, (dt >> 12) & 0x3F);
    set(&mut w, 35, 46, dt & 0xFFF);
    let sr = SUBREG[c::SUBREG_INDEX.get(w128) as usize] as u64;
    set(&mut w, 96, 100, sr >> 10);
    set(&mut w, 64, 68, (sr >> 5) & 0x1F);
    set(&mut w, 48, 52, sr & 0x1F);
    set(
        &mut w,
        77,
        88,
        SRC_INDEX[c::SRC0_INDEX.get(w128) as usize] as u64,
    );
    let src0_imm = fl::SRC0_REG_FILE.get(w) == FILE_IMM;
    let src1_imm = fl::SRC1_REG_FILE.get(w) == FILE_IMM;
    if src0_imm || src1_imm {
        // 13-bit immediate, sign-extended to 32 bits.
        let raw = (c::IMM_HI.get(w128) << 8) | c::IMM_LO.get(w128);
        let v = (((raw as u32) << 19) as i32 >> 19) as u32;
        fl::IMM32.set(&mut w, v as u64);
    } else {
        set(
            &mut w,
            109,
            120,
            SRC_INDEX[c::SRC1_INDEX.get(w128) as usize] as u64,
        );
        fl::SRC1_REG_NR.set(&mut w, c::SRC1_REG_NR.get(w128));
    }
    fl::ACC_WR_EN.set(&mut w, c::ACC_WR_EN.get(w128));
    fl::COND_MOD.set(&mut w, c::COND_MOD.get(w128));
    fl::DST_REG_NR.set(&mut w, c::DST_REG_NR.get(w128));
    fl::SRC0_REG_NR.set(&mut w, c::SRC0_REG_NR.get(w128));
    Ok(w)
}
