//! Native (128-bit) Gen9 decoder: bits → `Inst`, through the same field table
//! as the encoder. Never panics on arbitrary bytes.

use super::encode::ARF_A0;
use super::encoding::*;
use super::fields::{self as fl, SRC_FIELDS};
use super::opcodes::{self, Form};
use super::DecodeError;
use crate::*;

fn bad(what: &str) -> DecodeError {
    DecodeError::Invalid(what.to_string())
}

fn file_from(c: u64) -> Result<RegFile, DecodeError> {
    match c {
        FILE_ARF => Ok(RegFile::Arf),
        FILE_GRF => Ok(RegFile::Grf),
        _ => Err(bad(&format!("register file {c}"))),
    }
}

fn ia_offset(lo: u64, hi: u64) -> i16 {
    let v = (lo | (hi << 9)) as u16;
    ((v << 6) as i16) >> 6
}

/// Decode one native instruction from its 128-bit word.
pub fn decode_native(w: u128) -> Result<Inst, DecodeError> {
    if fl::CMPT_CTRL.get(w) != 0 {
        return Err(bad("compacted bit set in a native instruction"));
    }
    let num = fl::OPCODE.get(w) as u8;
    let info = opcodes::by_num(num).ok_or_else(|| bad(&format!("opcode {num:#x}")))?;
    let mut i = Inst::new(info.op, 1 << fl::EXEC_SIZE.get(w).min(5));
    if fl::EXEC_SIZE.get(w) > 5 {
        return Err(bad("exec size"));
    }
    let a16 = fl::ACCESS_MODE.get(w) != 0;
    if a16 && info.form != Form::Ternary {
        i.access_mode = AccessMode::Align16;
    }
    i.no_dd_clr = fl::NO_DD_CLR.get(w) != 0;
    i.no_dd_chk = fl::NO_DD_CHK.get(w) != 0;
    i.chan_offset = (fl::QTR_CTRL.get(w) * 8 + fl::NIB_CTRL.get(w) * 4) as u8;
    i.thread_ctrl = match fl::THREAD_CTRL.get(w) {
        0 => ThreadCtrl::Normal,
        1 => ThreadCtrl::Atomic,
        2 => ThreadCtrl::Switch,
        _ => return Err(bad("thread control 3")),
    };
    let pc = fl::PRED_CTRL.get(w);
    if pc != 0 {
        let ctrl = pred_from_code(pc, a16 && info.form != Form::Ternary)
            .ok_or_else(|| bad("predicate"))?;
        i.predicate = Some(Predicate {
            ctrl,
            inverse: fl::PRED_INV.get(w) != 0,
        });
    }
    match info.form {
        Form::Math => {
            i.math_fn =
                Some(math_from_code(fl::MATH_FN.get(w)).ok_or_else(|| bad("math function"))?);
        }
        Form::Send | Form::Sends => {}
        _ => i.cond_mod = cond_mod_from_code(fl::COND_MOD.get(w)).ok_or_else(|| bad("cond mod"))?,
    }
    i.acc_wr_en = fl::ACC_WR_EN.get(w) != 0;
    i.debug = fl::DEBUG_CTRL.get(w) != 0;
    i.saturate = fl::SATURATE.get(w) != 0;
    i.flag = (fl::FLAG_REG.get(w) as u8, fl::FLAG_SUBREG.get(w) as u8);
    i.no_mask = fl::MASK_CTRL.get(w) != 0;
    match info.form {
        Form::Unary | Form::Binary | Form::Math => alu(w, &mut i, info.form)?,
        Form::Ternary => ternary(w, &mut i)?,
        Form::Send => send(w, &mut i)?,
        Form::Sends => sends(w, &mut i)?,
        Form::Nullary => {}
        _ => branch(w, &mut i, info.form)?,
    }
    Ok(i)
}

fn alu(w: u128, i: &mut Inst, form: Form) -> Result<(), DecodeError> {
    let a16 = i.access_mode == AccessMode::Align16;
    let nsrc = match form {
        Form::Unary => 1,
        Form::Binary => 2,
        _ => math_nsrc(i.math_fn.unwrap_or(MathFn::Inv)),
    };
    i.dst = Some(dst_op(w, a16)?);
    for (s, f) in SRC_FIELDS.iter().enumerate().take(nsrc) {
        if f.file.get(w) == FILE_IMM {
            let ty = imm_type_from_code(f.ty.get(w)).ok_or_else(|| bad("imm type"))?;
            let bits = match ty.size() {
                8 => fl::IMM64.get(w),
                2 => fl::IMM32.get(w) & 0xFFFF,
                _ => fl::IMM32.get(w),
            };
            i.srcs[s] = Some(Src::Imm(Imm { ty, bits }));
        } else {
            i.srcs[s] = Some(Src::Reg(src_reg(w, s, a16)?));
        }
    }
    Ok(())
}

pub(crate) fn dst_op(w: u128, a16: bool) -> Result<Dst, DecodeError> {
    let file = file_from(fl::DST_REG_FILE.get(w))?;
    let ty = reg_type_from_code(fl::DST_TYPE.get(w)).ok_or_else(|| bad("dst type"))?;
    let mut d = Dst {
        file,
        nr: 0,
        subreg: 0,
        hstride: 1,
        ty,
        indirect: None,
        writemask: 0xF,
    };
    // Align16 keeps the field too (1, or 0 in IGA's DF math macros) so that bytes
    // encode back as they were.
    d.hstride = if a16 {
        fl::DST_HSTRIDE.get(w).min(1) as u8
    } else {
        hstride_from_code(fl::DST_HSTRIDE.get(w))
    };
    if fl::DST_ADDR_MODE.get(w) == 0 {
        d.nr = fl::DST_REG_NR.get(w) as u8;
        if a16 {
            d.subreg = fl::DST_DA16_SUBREG.get(w) as u8 * 16;
            d.writemask = fl::DST_DA16_WRITEMASK.get(w) as u8;
        } else {
            d.subreg = fl::DST_DA1_SUBREG.get(w) as u8;
        }
    } else {
        let lo = if a16 {
            fl::DST_IA16_IMM.get(w) << 4
        } else {
            fl::DST_IA_IMM.get(w)
        };
        if a16 {
            d.writemask = fl::DST_DA16_WRITEMASK.get(w) as u8;
        }
        d.indirect = Some(Indirect {
            addr_subreg: fl::DST_IA_SUBREG.get(w) as u8,
            offset: ia_offset(lo, fl::DST_IA_IMM9.get(w)),
        });
    }
    Ok(d)
}

fn src_reg(w: u128, s: usize, a16: bool) -> Result<SrcReg, DecodeError> {
    let f = &SRC_FIELDS[s];
    let file = file_from(f.file.get(w))?;
    let ty = reg_type_from_code(f.ty.get(w)).ok_or_else(|| bad("src type"))?;
    let vstride = vstride_from_code(f.vstride.get(w)).ok_or_else(|| bad("vstride"))?;
    let mut r = SrcReg {
        file,
        nr: 0,
        subreg: 0,
        region: Region {
            vstride,
            width: 1,
            hstride: 0,
        },
        ty,
        modifier: SrcMod {
            negate: f.negate.get(w) != 0,
            abs: f.abs.get(w) != 0,
        },
        indirect: None,
        swizzle: [0, 1, 2, 3],
    };
    if a16 {
        for k in 0..4 {
            r.swizzle[k] = f.swz[k].get(w) as u8;
        }
        r.region.width = 4;
        r.region.hstride = 1;
    } else {
        r.region.width = width_from_code(f.width.get(w)).ok_or_else(|| bad("width"))?;
        r.region.hstride = hstride_from_code(f.hstride.get(w));
    }
    if f.addr_mode.get(w) == 0 {
        r.nr = f.reg_nr.get(w) as u8;
        r.subreg = if a16 {
            f.da16_subreg.get(w) as u8 * 16
        } else {
            f.da1_subreg.get(w) as u8
        };
    } else {
        let lo = if a16 {
            f.ia16_imm.get(w) << 4
        } else {
            f.ia_imm.get(w)
        };
        r.indirect = Some(Indirect {
            addr_subreg: f.ia_subreg.get(w) as u8,
            offset: ia_offset(lo, f.ia_imm9.get(w)),
        });
    }
    Ok(r)
}

fn ternary(w: u128, i: &mut Inst) -> Result<(), DecodeError> {
    let dty = ternary_type_from_code(fl::T_DST_TYPE.get(w)).ok_or_else(|| bad("dst type"))?;
    i.dst = Some(Dst {
        file: RegFile::Grf,
        nr: fl::T_DST_REG_NR.get(w) as u8,
        subreg: fl::T_DST_SUBREG.get(w) as u8 * 4,
        hstride: 1,
        ty: dty,
        indirect: None,
        writemask: fl::T_DST_WRITEMASK.get(w) as u8,
    });
    let sty = ternary_type_from_code(fl::T_SRC_TYPE.get(w)).ok_or_else(|| bad("src type"))?;
    for s in 0..3 {
        let f = &fl::T_SRC[s];
        let rep = f.rep_ctrl.get(w) != 0;
        let swz = f.swizzle.get(w);
        let float_mode = matches!(sty, Type::F | Type::HF);
        let ty = match s {
            1 if float_mode => {
                if fl::T_SRC1_TYPE_HF.get(w) != 0 {
                    Type::HF
                } else {
                    Type::F
                }
            }
            2 if float_mode => {
                if fl::T_SRC2_TYPE_HF.get(w) != 0 {
                    Type::HF
                } else {
                    Type::F
                }
            }
            _ => sty,
        };
        let (abs, neg) = fl::T_SRC_MODS[s];
        i.srcs[s] = Some(Src::Reg(SrcReg {
            file: RegFile::Grf,
            nr: f.reg_nr.get(w) as u8,
            subreg: (f.subreg.get(w) * 4 + f.subreg_bit1.get(w) * 2) as u8,
            region: if rep {
                Region::SCALAR
            } else {
                Region {
                    vstride: 4,
                    width: 4,
                    hstride: 1,
                }
            },
            ty,
            modifier: SrcMod {
                negate: neg.get(w) != 0,
                abs: abs.get(w) != 0,
            },
            indirect: None,
            swizzle: [
                (swz & 3) as u8,
                ((swz >> 2) & 3) as u8,
                ((swz >> 4) & 3) as u8,
                ((swz >> 6) & 3) as u8,
            ],
        }));
    }
    Ok(())
}

fn plain_reg(file: RegFile, nr: u8, subreg: u8, ty: Type) -> SrcReg {
    SrcReg {
        file,
        nr,
        subreg,
        region: Region::SCALAR,
        ty,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    }
}

fn send(w: u128, i: &mut Inst) -> Result<(), DecodeError> {
    let dfile = file_from(fl::DST_REG_FILE.get(w))?;
    let dty = reg_type_from_code(fl::DST_TYPE.get(w)).ok_or_else(|| bad("dst type"))?;
    i.dst = Some(Dst {
        file: dfile,
        nr: fl::DST_REG_NR.get(w) as u8,
        subreg: fl::DST_DA1_SUBREG.get(w) as u8,
        hstride: 1,
        ty: dty,
        indirect: None,
        writemask: 0xF,
    });
    let sfile = file_from(fl::SRC0_REG_FILE.get(w))?;
    let sty = reg_type_from_code(fl::SRC0_TYPE.get(w)).ok_or_else(|| bad("src0 type"))?;
    i.srcs[0] = Some(Src::Reg(plain_reg(
        sfile,
        fl::SRC0_REG_NR.get(w) as u8,
        0,
        sty,
    )));
    let sfid = fl::SFID.get(w);
    let eot = fl::EOT.get(w) != 0;
    let ex = (fl::SEND_EXDESC_19_16.get(w) << 16)
        | (fl::SEND_EXDESC_23_20.get(w) << 20)
        | (fl::SEND_EXDESC_27_24.get(w) << 24)
        | (fl::SEND_EXDESC_31_28.get(w) << 28)
        | sfid
        | if eot { 0x20 } else { 0 };
    let desc = if fl::SRC1_REG_FILE.get(w) == FILE_IMM {
        Some(fl::SEND_DESC.get(w) as u32)
    } else if fl::SRC1_REG_NR.get(w) == ARF_A0 as u64 {
        None
    } else {
        return Err(bad("send descriptor is neither immediate nor a0"));
    };
    i.send = Some(SendInfo {
        sfid: sfid_from_code(sfid),
        desc,
        ex_desc: ex as u32,
        eot,
    });
    Ok(())
}

fn sends(w: u128, i: &mut Inst) -> Result<(), DecodeError> {
    let dty = reg_type_from_code(fl::DST_TYPE.get(w)).ok_or_else(|| bad("dst type"))?;
    let dfile = if fl::SENDS_DST_FILE.get(w) != 0 {
        RegFile::Grf
    } else {
        RegFile::Arf
    };
    i.dst = Some(Dst {
        file: dfile,
        nr: fl::DST_REG_NR.get(w) as u8,
        subreg: 0,
        hstride: 1,
        ty: dty,
        indirect: None,
        writemask: 0xF,
    });
    i.srcs[0] = Some(Src::Reg(plain_reg(
        RegFile::Grf,
        fl::SRC0_REG_NR.get(w) as u8,
        0,
        Type::UD,
    )));
    let s1file = if fl::SENDS_SRC1_FILE.get(w) != 0 {
        RegFile::Grf
    } else {
        RegFile::Arf
    };
    i.srcs[1] = Some(Src::Reg(plain_reg(
        s1file,
        fl::SENDS_SRC1_REG_NR.get(w) as u8,
        0,
        Type::UD,
    )));
    if fl::SENDS_EXDESC_REG.get(w) != 0 {
        return Err(bad("sends with a register ex_desc is not modelled"));
    }
    let sfid = fl::SFID.get(w);
    let eot = fl::EOT.get(w) != 0;
    let ex = (fl::SENDS_EXDESC_31_16.get(w) << 16)
        | (fl::SENDS_EXDESC_9_6.get(w) << 6)
        | sfid
        | if eot { 0x20 } else { 0 };
    let desc = if fl::SENDS_DESC_REG.get(w) != 0 {
        None
    } else {
        Some(fl::SEND_DESC.get(w) as u32)
    };
    i.send = Some(SendInfo {
        sfid: sfid_from_code(sfid),
        desc,
        ex_desc: ex as u32,
        eot,
    });
    Ok(())
}

fn branch(w: u128, i: &mut Inst, form: Form) -> Result<(), DecodeError> {
    let jip = fl::JIP.get(w) as u32 as i32;
    let uip = fl::UIP.get(w) as u32 as i32;
    match form {
        Form::Jmpi => {
            if fl::SRC1_REG_FILE.get(w) != FILE_IMM {
                return Err(bad("register-indirect jmpi is not modelled"));
            }
            i.branch = Some(Branch { jip, uip: 0 });
        }
        Form::BranchJipUip => i.branch = Some(Branch { jip, uip }),
        Form::BranchJip => i.branch = Some(Branch { jip, uip: 0 }),
        Form::Call => {
            // The type is kept as encoded: IGA prints it unless it is :d.
            i.dst = Some(dst_op(w, false)?);
            i.branch = Some(Branch { jip, uip: 0 });
        }
        Form::Ret => {
            let file = file_from(fl::SRC0_REG_FILE.get(w))?;
            let ty =
                reg_type_from_code(fl::SRC0_TYPE.get(w)).ok_or_else(|| bad("ret src0 type"))?;
            let mut r = plain_reg(
                file,
                fl::SRC0_REG_NR.get(w) as u8,
                fl::SRC0_DA1_SUBREG.get(w) as u8,
                ty,
            );
            r.region = Region {
                vstride: 2,
                width: 2,
                hstride: 1,
            };
            i.srcs[0] = Some(Src::Reg(r));
        }
        Form::Wait => {
            i.srcs[0] = Some(Src::Reg(plain_reg(
                RegFile::Arf,
                fl::SRC0_REG_NR.get(w) as u8,
                fl::SRC0_DA1_SUBREG.get(w) as u8,
                Type::UD,
            )));
        }
        _ => return Err(bad("form")),
    }
    Ok(())
}
