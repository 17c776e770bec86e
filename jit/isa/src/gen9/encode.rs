//! Native (128-bit) Gen9 encoder: `Inst` → bits, through the field table.

use super::encoding::*;
use super::fields::{self as fl, Field, SRC_FIELDS};
use super::opcodes::{self, Form};
use super::EncodeError;
use crate::*;

/// ARF numbers the branch forms use implicitly.
pub(crate) const ARF_NULL: u8 = 0x00;
pub(crate) const ARF_A0: u8 = 0x10;
pub(crate) const ARF_IP: u8 = 0xA0;

struct W<'a> {
    w: u128,
    inst: &'a Inst,
}

impl W<'_> {
    // Inlined so that each field's mask and shift fold to constants at its call.
    #[inline(always)]
    fn put(&mut self, f: Field, v: u64, what: &str) -> Result<(), EncodeError> {
        if !f.fits(v) {
            return Err(self.overflow(f, v, what));
        }
        f.set(&mut self.w, v);
        Ok(())
    }
    #[cold]
    fn overflow(&self, f: Field, v: u64, what: &str) -> EncodeError {
        self.err(
            what,
            &format!("value {v:#x} does not fit in bits {}..{}", f.lo, f.hi),
        )
    }
    fn err(&self, what: &str, why: &str) -> EncodeError {
        EncodeError::Unencodable {
            what: format!("{:?} {what}", self.inst.op),
            why: why.to_string(),
        }
    }
    fn opt<T>(&self, v: Option<T>, what: &str, why: &str) -> Result<T, EncodeError> {
        v.ok_or_else(|| self.err(what, why))
    }
}

fn file_code(f: RegFile) -> u64 {
    match f {
        RegFile::Arf => FILE_ARF,
        RegFile::Grf => FILE_GRF,
    }
}

/// Split a signed 10-bit indirect offset into (low 9 bits, bit 9).
fn ia_imm(off: i16) -> Option<(u64, u64)> {
    if !(-512..=511).contains(&off) {
        return None;
    }
    let v = (off as u16 as u64) & 0x3FF;
    Some((v & 0x1FF, v >> 9))
}

/// Encode one instruction in native form.
pub fn encode(inst: &Inst) -> Result<[u8; 16], EncodeError> {
    let info = opcodes::info(inst.op);
    let mut w = W { w: 0, inst };
    w.put(fl::OPCODE, info.num as u64, "opcode")?;
    header(&mut w)?;
    match info.form {
        Form::Unary | Form::Binary | Form::Math => alu(&mut w, info.form)?,
        Form::Ternary => ternary(&mut w)?,
        Form::Send => send(&mut w)?,
        Form::Sends => sends(&mut w)?,
        Form::Jmpi | Form::BranchJipUip | Form::BranchJip | Form::Call | Form::Ret | Form::Wait => {
            branch(&mut w, info.form)?
        }
        Form::Nullary => {}
    }
    Ok(w.w.to_le_bytes())
}

fn header(w: &mut W) -> Result<(), EncodeError> {
    let i = w.inst;
    let info = opcodes::info(i.op);
    let es = w.opt(
        exec_size_code(i.exec_size),
        "exec size",
        "must be 1, 2, 4, 8, 16 or 32",
    )?;
    if info.form != Form::Nullary {
        w.put(fl::EXEC_SIZE, es, "exec size")?;
    }
    let a16 = i.access_mode == AccessMode::Align16 || info.form == Form::Ternary;
    w.put(fl::ACCESS_MODE, a16 as u64, "access mode")?;
    w.put(fl::NO_DD_CLR, i.no_dd_clr as u64, "NoDDClr")?;
    w.put(fl::NO_DD_CHK, i.no_dd_chk as u64, "NoDDChk")?;
    if !i.chan_offset.is_multiple_of(4) || i.chan_offset >= 32 {
        return Err(w.err("channel offset", "must be a multiple of 4 below 32"));
    }
    w.put(fl::QTR_CTRL, (i.chan_offset / 8) as u64, "qtr")?;
    w.put(fl::NIB_CTRL, ((i.chan_offset / 4) & 1) as u64, "nib")?;
    let tc = match i.thread_ctrl {
        ThreadCtrl::Normal => 0,
        ThreadCtrl::Atomic => 1,
        ThreadCtrl::Switch => 2,
    };
    w.put(fl::THREAD_CTRL, tc, "thread control")?;
    if let Some(p) = i.predicate {
        let is_a16_only = matches!(
            p.ctrl,
            PredCtrl::X | PredCtrl::Y | PredCtrl::Z | PredCtrl::W
        );
        if is_a16_only && !a16 {
            return Err(w.err("predicate", ".x/.y/.z/.w need Align16"));
        }
        w.put(fl::PRED_CTRL, pred_code(p.ctrl), "predicate")?;
        w.put(fl::PRED_INV, p.inverse as u64, "predicate inverse")?;
    }
    match info.form {
        Form::Math => {
            let m = w.opt(i.math_fn, "math function", "math needs math_fn")?;
            w.put(fl::MATH_FN, math_code(m), "math function")?;
        }
        Form::Send | Form::Sends => {
            let s = w.opt(i.send, "send", "send needs SendInfo")?;
            w.put(fl::SFID, sfid_code(s.sfid), "sfid")?;
        }
        _ => {
            if let Some(c) = i.cond_mod {
                w.put(fl::COND_MOD, cond_mod_code(c), "cond mod")?;
            }
        }
    }
    w.put(fl::ACC_WR_EN, i.acc_wr_en as u64, "AccWrEn")?;
    w.put(fl::DEBUG_CTRL, i.debug as u64, "Breakpoint")?;
    w.put(fl::SATURATE, i.saturate as u64, "saturate")?;
    if i.flag.0 > 1 || i.flag.1 > 1 {
        return Err(w.err("flag", "flag register is f0.0..f1.1"));
    }
    w.put(fl::FLAG_REG, i.flag.0 as u64, "flag reg")?;
    w.put(fl::FLAG_SUBREG, i.flag.1 as u64, "flag subreg")?;
    w.put(fl::MASK_CTRL, i.no_mask as u64, "NoMask")?;
    Ok(())
}

fn alu(w: &mut W, form: Form) -> Result<(), EncodeError> {
    let i = w.inst;
    let a16 = i.access_mode == AccessMode::Align16;
    let nsrc = match form {
        Form::Unary => 1,
        Form::Binary => 2,
        _ => math_nsrc(w.opt(i.math_fn, "math", "math needs math_fn")?),
    };
    let dst = w.opt(i.dst, "dst", "ALU instructions need a destination")?;
    dst_op(w, &dst, a16)?;
    for (s, src) in i.srcs.iter().enumerate().take(nsrc) {
        let src = w.opt(
            *src,
            "source",
            if s == 0 {
                "src0 missing"
            } else {
                "src1 missing"
            },
        )?;
        match src {
            Src::Reg(r) => src_reg(w, s, &r, a16)?,
            Src::Imm(imm) => {
                if s + 1 != nsrc {
                    return Err(w.err("immediate", "only the last source may be an immediate"));
                }
                src_imm(w, s, &imm)?
            }
        }
    }
    if i.srcs[nsrc..].iter().any(|s| s.is_some()) {
        return Err(w.err("sources", "too many sources for this opcode"));
    }
    Ok(())
}

fn dst_op(w: &mut W, d: &Dst, a16: bool) -> Result<(), EncodeError> {
    w.put(fl::DST_REG_FILE, file_code(d.file), "dst file")?;
    let t = w.opt(
        reg_type_code(d.ty),
        "dst type",
        "vector types are immediates only",
    )?;
    w.put(fl::DST_TYPE, t, "dst type")?;
    if a16 {
        // Align16 has no destination stride: the field is 1 (what compilers write), or 0
        // where IGA writes 0 (the DF math macros).
        w.put(fl::DST_HSTRIDE, u64::from(d.hstride != 0), "dst hstride")?;
    } else {
        let hs = w.opt(
            hstride_code(d.hstride).filter(|&c| c != 0),
            "dst hstride",
            "must be 1, 2 or 4",
        )?;
        w.put(fl::DST_HSTRIDE, hs, "dst hstride")?;
    }
    match d.indirect {
        None => {
            w.put(fl::DST_REG_NR, d.nr as u64, "dst reg")?;
            if a16 {
                if !d.subreg.is_multiple_of(16) {
                    return Err(w.err("dst subreg", "Align16 subregisters are 16-byte aligned"));
                }
                w.put(fl::DST_DA16_SUBREG, (d.subreg / 16) as u64, "dst subreg")?;
                w.put(fl::DST_DA16_WRITEMASK, d.writemask as u64, "writemask")?;
            } else {
                w.put(fl::DST_DA1_SUBREG, d.subreg as u64, "dst subreg")?;
            }
        }
        Some(ind) => {
            w.put(fl::DST_ADDR_MODE, 1, "dst addr mode")?;
            w.put(fl::DST_IA_SUBREG, ind.addr_subreg as u64, "dst a0 subreg")?;
            let (lo, hi) = w.opt(
                ia_imm(ind.offset),
                "dst indirect offset",
                "must be in -512..511",
            )?;
            if a16 {
                w.put(fl::DST_IA16_IMM, lo >> 4, "dst offset")?;
                w.put(fl::DST_DA16_WRITEMASK, d.writemask as u64, "writemask")?;
            } else {
                w.put(fl::DST_IA_IMM, lo, "dst offset")?;
            }
            w.put(fl::DST_IA_IMM9, hi, "dst offset")?;
        }
    }
    Ok(())
}

fn src_reg(w: &mut W, s: usize, r: &SrcReg, a16: bool) -> Result<(), EncodeError> {
    let f = &SRC_FIELDS[s];
    w.put(f.file, file_code(r.file), "src file")?;
    let t = w.opt(
        reg_type_code(r.ty),
        "src type",
        "vector types are immediates only",
    )?;
    w.put(f.ty, t, "src type")?;
    w.put(f.negate, r.modifier.negate as u64, "negate")?;
    w.put(f.abs, r.modifier.abs as u64, "abs")?;
    let vs = w.opt(
        vstride_code(r.region.vstride),
        "vstride",
        "must be 0,1,2,4,8,16,32 or VxH",
    )?;
    w.put(f.vstride, vs, "vstride")?;
    if a16 {
        for (k, fld) in f.swz.iter().enumerate() {
            if r.swizzle[k] > 3 {
                return Err(w.err("swizzle", "channel selects are 0..3"));
            }
            w.put(*fld, r.swizzle[k] as u64, "swizzle")?;
        }
    } else {
        let wd = w.opt(
            width_code(r.region.width),
            "width",
            "must be 1, 2, 4, 8 or 16",
        )?;
        w.put(f.width, wd, "width")?;
        let hs = w.opt(
            hstride_code(r.region.hstride),
            "hstride",
            "must be 0, 1, 2 or 4",
        )?;
        w.put(f.hstride, hs, "hstride")?;
    }
    match r.indirect {
        None => {
            if r.region.vstride == Region::VXH {
                return Err(w.err("region", "VxH needs indirect addressing"));
            }
            w.put(f.reg_nr, r.nr as u64, "src reg")?;
            if a16 {
                if !r.subreg.is_multiple_of(16) {
                    return Err(w.err("src subreg", "Align16 subregisters are 16-byte aligned"));
                }
                w.put(f.da16_subreg, (r.subreg / 16) as u64, "src subreg")?;
            } else {
                w.put(f.da1_subreg, r.subreg as u64, "src subreg")?;
            }
        }
        Some(ind) => {
            w.put(f.addr_mode, 1, "addr mode")?;
            w.put(f.ia_subreg, ind.addr_subreg as u64, "a0 subreg")?;
            let (lo, hi) = w.opt(
                ia_imm(ind.offset),
                "indirect offset",
                "must be in -512..511",
            )?;
            if a16 {
                w.put(f.ia16_imm, lo >> 4, "offset")?;
            } else {
                w.put(f.ia_imm, lo, "offset")?;
            }
            w.put(f.ia_imm9, hi, "offset")?;
        }
    }
    Ok(())
}

/// Raw immediate bits as the hardware holds them (16-bit values replicated).
pub(crate) fn imm_raw(imm: &Imm) -> u64 {
    match imm.ty.size() {
        2 => {
            let v = imm.bits & 0xFFFF;
            v | (v << 16)
        }
        8 => imm.bits,
        _ => imm.bits & 0xFFFF_FFFF,
    }
}

fn src_imm(w: &mut W, s: usize, imm: &Imm) -> Result<(), EncodeError> {
    let f = &SRC_FIELDS[s];
    let t = w.opt(
        imm_type_code(imm.ty),
        "immediate type",
        "byte immediates do not exist",
    )?;
    w.put(f.file, FILE_IMM, "src file")?;
    w.put(f.ty, t, "imm type")?;
    if imm.ty.size() == 8 {
        if s != 0 {
            return Err(w.err(
                "immediate",
                "64-bit immediates only in src0 of a one-source instruction",
            ));
        }
        w.put(fl::IMM64, imm.bits, "imm")?;
    } else {
        w.put(fl::IMM32, imm_raw(imm), "imm")?;
    }
    Ok(())
}

fn ternary(w: &mut W) -> Result<(), EncodeError> {
    let i = w.inst;
    let d = w.opt(i.dst, "dst", "needs a destination")?;
    if d.file != RegFile::Grf || d.indirect.is_some() {
        return Err(w.err("dst", "three-source dst is a direct GRF"));
    }
    let dt = w.opt(
        ternary_type_code(d.ty),
        "dst type",
        "three-source types are F, D, UD, DF, HF",
    )?;
    w.put(fl::T_DST_TYPE, dt, "dst type")?;
    w.put(fl::T_DST_REG_NR, d.nr as u64, "dst reg")?;
    if !d.subreg.is_multiple_of(4) {
        return Err(w.err("dst subreg", "three-source dst is dword aligned"));
    }
    w.put(fl::T_DST_SUBREG, (d.subreg / 4) as u64, "dst subreg")?;
    w.put(fl::T_DST_WRITEMASK, d.writemask as u64, "writemask")?;
    let mut src_ty = None;
    for s in 0..3 {
        let r = match w.opt(i.srcs[s], "source", "three sources needed")? {
            Src::Reg(r) => r,
            Src::Imm(_) => return Err(w.err("source", "Gen9 three-source has no immediates")),
        };
        if r.file != RegFile::Grf || r.indirect.is_some() {
            return Err(w.err("source", "three-source operands are direct GRFs"));
        }
        let f = &fl::T_SRC[s];
        let rep = r.region.vstride == 0 && r.region.hstride == 0;
        w.put(f.rep_ctrl, rep as u64, "rep ctrl")?;
        let mut swz = 0u64;
        for k in 0..4 {
            if r.swizzle[k] > 3 {
                return Err(w.err("swizzle", "channel selects are 0..3"));
            }
            swz |= (r.swizzle[k] as u64) << (2 * k);
        }
        w.put(f.swizzle, swz, "swizzle")?;
        if !r.subreg.is_multiple_of(2) {
            return Err(w.err("subreg", "three-source subregisters are word aligned"));
        }
        w.put(f.subreg, (r.subreg / 4) as u64, "subreg")?;
        w.put(f.subreg_bit1, ((r.subreg / 2) & 1) as u64, "subreg")?;
        w.put(f.reg_nr, r.nr as u64, "reg")?;
        let (abs, neg) = fl::T_SRC_MODS[s];
        w.put(abs, r.modifier.abs as u64, "abs")?;
        w.put(neg, r.modifier.negate as u64, "negate")?;
        match s {
            0 => {
                let t = w.opt(
                    ternary_type_code(r.ty),
                    "src type",
                    "three-source types are F, D, UD, DF, HF",
                )?;
                w.put(fl::T_SRC_TYPE, t, "src type")?;
                src_ty = Some(r.ty);
            }
            _ => {
                // src1/src2 carry their own type bit (36/35) in float mode:
                // 1 = HF, 0 = F. Integer ternaries share src0's type.
                let float_mode = matches!(src_ty, Some(Type::F) | Some(Type::HF));
                let fld = if s == 1 {
                    fl::T_SRC1_TYPE_HF
                } else {
                    fl::T_SRC2_TYPE_HF
                };
                if float_mode && matches!(r.ty, Type::F | Type::HF) {
                    w.put(fld, (r.ty == Type::HF) as u64, "src type")?;
                } else if Some(r.ty) != src_ty {
                    return Err(w.err(
                        "src type",
                        "src1/src2 must match src0 (or be F/HF in float mode)",
                    ));
                }
            }
        }
    }
    Ok(())
}

fn send_common(w: &mut W) -> Result<SendInfo, EncodeError> {
    let i = w.inst;
    let s = w.opt(i.send, "send", "needs SendInfo")?;
    w.put(fl::EOT, (s.eot || s.ex_desc & 0x20 != 0) as u64, "EOT")?;
    Ok(s)
}

fn send_src0(w: &mut W) -> Result<SrcReg, EncodeError> {
    match w.opt(w.inst.srcs[0], "src0", "send needs a payload register")? {
        Src::Reg(r) if r.indirect.is_none() => Ok(r),
        _ => Err(w.err("src0", "send payload is a direct register")),
    }
}

fn send(w: &mut W) -> Result<(), EncodeError> {
    let i = w.inst;
    let s = send_common(w)?;
    let d = w.opt(i.dst, "dst", "send needs a dst (null allowed)")?;
    w.put(fl::DST_REG_FILE, file_code(d.file), "dst file")?;
    let t = w.opt(reg_type_code(d.ty), "dst type", "bad type")?;
    w.put(fl::DST_TYPE, t, "dst type")?;
    w.put(fl::DST_HSTRIDE, 1, "dst hstride")?;
    w.put(fl::DST_REG_NR, d.nr as u64, "dst reg")?;
    w.put(fl::DST_DA1_SUBREG, d.subreg as u64, "dst subreg")?;
    let r = send_src0(w)?;
    w.put(fl::SRC0_REG_FILE, file_code(r.file), "src0 file")?;
    let t = w.opt(reg_type_code(r.ty), "src0 type", "bad type")?;
    w.put(fl::SRC0_TYPE, t, "src0 type")?;
    w.put(fl::SRC0_REG_NR, r.nr as u64, "src0 reg")?;
    if s.ex_desc & 0xFFC0 != 0 {
        return Err(w.err(
            "ex_desc",
            "send's ex_desc holds only bits 31:16, EOT and SFID",
        ));
    }
    let ex = s.ex_desc as u64;
    w.put(fl::SEND_EXDESC_19_16, (ex >> 16) & 0xF, "ex_desc")?;
    w.put(fl::SEND_EXDESC_23_20, (ex >> 20) & 0xF, "ex_desc")?;
    w.put(fl::SEND_EXDESC_27_24, (ex >> 24) & 0xF, "ex_desc")?;
    w.put(fl::SEND_EXDESC_31_28, (ex >> 28) & 0xF, "ex_desc")?;
    match s.desc {
        Some(desc) => {
            if desc >> 31 != 0 {
                return Err(w.err("desc", "bit 31 of a send descriptor is EOT"));
            }
            w.put(fl::SRC1_REG_FILE, FILE_IMM, "desc")?;
            w.put(fl::SEND_DESC, desc as u64, "desc")?;
        }
        None => {
            w.put(fl::SRC1_REG_FILE, FILE_ARF, "desc")?;
            w.put(fl::SRC1_REG_NR, ARF_A0 as u64, "desc")?;
        }
    }
    Ok(())
}

fn sends(w: &mut W) -> Result<(), EncodeError> {
    let i = w.inst;
    let s = send_common(w)?;
    let d = w.opt(i.dst, "dst", "sends needs a dst (null allowed)")?;
    w.put(
        fl::SENDS_DST_FILE,
        (d.file == RegFile::Grf) as u64,
        "dst file",
    )?;
    let t = w.opt(reg_type_code(d.ty), "dst type", "bad type")?;
    w.put(fl::DST_TYPE, t, "dst type")?;
    w.put(fl::DST_REG_NR, d.nr as u64, "dst reg")?;
    let r = send_src0(w)?;
    w.put(fl::SRC0_REG_NR, r.nr as u64, "src0 reg")?;
    let r1 = match w.opt(i.srcs[1], "src1", "sends needs src1")? {
        Src::Reg(r) if r.indirect.is_none() => r,
        _ => return Err(w.err("src1", "sends src1 is a direct register")),
    };
    w.put(
        fl::SENDS_SRC1_FILE,
        (r1.file == RegFile::Grf) as u64,
        "src1 file",
    )?;
    w.put(fl::SENDS_SRC1_REG_NR, r1.nr as u64, "src1 reg")?;
    if s.ex_desc & 0xFC10 != 0 {
        return Err(w.err(
            "ex_desc",
            "sends ex_desc holds bits 31:16, 9:6, EOT and SFID",
        ));
    }
    let ex = s.ex_desc as u64;
    w.put(fl::SENDS_EXDESC_9_6, (ex >> 6) & 0xF, "ex_desc")?;
    w.put(fl::SENDS_EXDESC_31_16, ex >> 16, "ex_desc")?;
    match s.desc {
        Some(desc) => {
            if desc >> 31 != 0 {
                return Err(w.err("desc", "bit 31 of a send descriptor is EOT"));
            }
            w.put(fl::SEND_DESC, desc as u64, "desc")?;
        }
        None => w.put(fl::SENDS_DESC_REG, 1, "desc")?,
    }
    Ok(())
}

/// Flow control, in the binary normal form iga64 assembles.
fn branch(w: &mut W, form: Form) -> Result<(), EncodeError> {
    let i = w.inst;
    let b = i.branch.unwrap_or_default();
    let set_dst = |w: &mut W, file: u64, nr: u8, ty: u64| -> Result<(), EncodeError> {
        w.put(fl::DST_REG_FILE, file, "dst")?;
        w.put(fl::DST_REG_NR, nr as u64, "dst")?;
        w.put(fl::DST_TYPE, ty, "dst")?;
        w.put(fl::DST_HSTRIDE, 1, "dst")
    };
    let imm_d = |w: &mut W, f: Field, t: Field| -> Result<(), EncodeError> {
        w.put(f, FILE_IMM, "target")?;
        w.put(t, 1, "target type")
    };
    match form {
        Form::Jmpi => {
            set_dst(w, FILE_ARF, ARF_IP, 0)?;
            w.put(fl::SRC0_REG_NR, ARF_IP as u64, "src0")?;
            imm_d(w, fl::SRC1_REG_FILE, fl::SRC1_TYPE)?;
            w.put(fl::JIP, b.jip as u32 as u64, "jip")?;
        }
        Form::BranchJipUip if i.op == Opcode::Brc => {
            set_dst(w, FILE_ARF, ARF_IP, 1)?;
            imm_d(w, fl::SRC0_REG_FILE, fl::SRC0_TYPE)?;
            w.put(fl::UIP, b.uip as u32 as u64, "uip")?;
            w.put(fl::JIP, b.jip as u32 as u64, "jip")?;
        }
        Form::BranchJipUip => {
            set_dst(w, FILE_ARF, ARF_NULL, 0)?;
            imm_d(w, fl::SRC0_REG_FILE, fl::SRC0_TYPE)?;
            w.put(fl::UIP, b.uip as u32 as u64, "uip")?;
            w.put(fl::JIP, b.jip as u32 as u64, "jip")?;
        }
        Form::BranchJip if i.op == Opcode::Brd => {
            set_dst(w, FILE_ARF, ARF_IP, 1)?;
            imm_d(w, fl::SRC0_REG_FILE, fl::SRC0_TYPE)?;
            w.put(fl::JIP, b.jip as u32 as u64, "jip")?;
        }
        Form::BranchJip => {
            set_dst(w, FILE_ARF, ARF_NULL, 0)?;
            imm_d(w, fl::SRC1_REG_FILE, fl::SRC1_TYPE)?;
            w.put(fl::JIP, b.jip as u32 as u64, "jip")?;
        }
        Form::Call => {
            let d = w.opt(i.dst, "dst", "call needs a return-address register")?;
            let ty = reg_type_code(d.ty).ok_or_else(|| w.err("dst", "call dst type"))?;
            set_dst(w, file_code(d.file), d.nr, ty)?;
            w.put(fl::DST_DA1_SUBREG, d.subreg as u64, "dst subreg")?;
            // src0: null<2;2,1>:ud, src1: the JIP immediate.
            w.put(fl::SRC0_VSTRIDE, 2, "src0")?;
            w.put(fl::SRC0_WIDTH, 1, "src0")?;
            w.put(fl::SRC0_HSTRIDE, 1, "src0")?;
            imm_d(w, fl::SRC1_REG_FILE, fl::SRC1_TYPE)?;
            w.put(fl::JIP, b.jip as u32 as u64, "jip")?;
        }
        Form::Ret => {
            set_dst(w, FILE_ARF, ARF_NULL, 0)?;
            let r = match w.opt(i.srcs[0], "src0", "ret needs the return-address register")? {
                Src::Reg(r) => r,
                Src::Imm(_) => return Err(w.err("src0", "ret takes a register")),
            };
            w.put(fl::SRC0_REG_FILE, file_code(r.file), "src0")?;
            let ty = reg_type_code(r.ty).ok_or_else(|| w.err("src0", "ret src type"))?;
            w.put(fl::SRC0_TYPE, ty, "src0")?;
            w.put(fl::SRC0_REG_NR, r.nr as u64, "src0")?;
            w.put(fl::SRC0_DA1_SUBREG, r.subreg as u64, "src0")?;
            w.put(fl::SRC0_VSTRIDE, 2, "src0")?;
            w.put(fl::SRC0_WIDTH, 1, "src0")?;
            w.put(fl::SRC0_HSTRIDE, 1, "src0")?;
        }
        Form::Wait => {
            let r = match w.opt(i.srcs[0], "src0", "wait needs a notification register")? {
                Src::Reg(r) => r,
                Src::Imm(_) => return Err(w.err("src0", "wait takes n0.x")),
            };
            set_dst(w, FILE_ARF, r.nr, 0)?;
            w.put(fl::DST_DA1_SUBREG, r.subreg as u64, "dst")?;
            w.put(fl::SRC0_REG_NR, r.nr as u64, "src0")?;
            w.put(fl::SRC0_DA1_SUBREG, r.subreg as u64, "src0")?;
        }
        _ => unreachable_form(w)?,
    }
    Ok(())
}

fn unreachable_form(w: &W) -> Result<(), EncodeError> {
    Err(w.err("form", "not a flow-control form"))
}
