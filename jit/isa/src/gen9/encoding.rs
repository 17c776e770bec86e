//! Gen9 encodings of the small enumerations: register types, register
//! files, region strides, predicates, conditional modifiers, math functions,
//! shared-function IDs. Values from Mesa brw_eu_defines.h / brw_reg_type.c
//! (Gen8-9 columns), checked against iga64.

use crate::{CondMod, MathFn, PredCtrl, Sfid, Type};

/// Register type code of a register operand (`file != IMM`).
pub fn reg_type_code(t: Type) -> Option<u64> {
    Some(match t {
        Type::UD => 0,
        Type::D => 1,
        Type::UW => 2,
        Type::W => 3,
        Type::UB => 4,
        Type::B => 5,
        Type::DF => 6,
        Type::F => 7,
        Type::UQ => 8,
        Type::Q => 9,
        Type::HF => 10,
        Type::V | Type::UV | Type::VF => return None,
    })
}

pub fn reg_type_from_code(c: u64) -> Option<Type> {
    Some(match c {
        0 => Type::UD,
        1 => Type::D,
        2 => Type::UW,
        3 => Type::W,
        4 => Type::UB,
        5 => Type::B,
        6 => Type::DF,
        7 => Type::F,
        8 => Type::UQ,
        9 => Type::Q,
        10 => Type::HF,
        _ => return None,
    })
}

/// Type code of an immediate operand.
pub fn imm_type_code(t: Type) -> Option<u64> {
    Some(match t {
        Type::UD => 0,
        Type::D => 1,
        Type::UW => 2,
        Type::W => 3,
        Type::UV => 4,
        Type::VF => 5,
        Type::V => 6,
        Type::F => 7,
        Type::UQ => 8,
        Type::Q => 9,
        Type::DF => 10,
        Type::HF => 11,
        Type::UB | Type::B => return None,
    })
}

pub fn imm_type_from_code(c: u64) -> Option<Type> {
    Some(match c {
        0 => Type::UD,
        1 => Type::D,
        2 => Type::UW,
        3 => Type::W,
        4 => Type::UV,
        5 => Type::VF,
        6 => Type::V,
        7 => Type::F,
        8 => Type::UQ,
        9 => Type::Q,
        10 => Type::DF,
        11 => Type::HF,
        _ => return None,
    })
}

/// Three-source Align16 type code (Gen8-9: F, D, UD, DF, HF).
pub fn ternary_type_code(t: Type) -> Option<u64> {
    Some(match t {
        Type::F => 0,
        Type::D => 1,
        Type::UD => 2,
        Type::DF => 3,
        Type::HF => 4,
        _ => return None,
    })
}

pub fn ternary_type_from_code(c: u64) -> Option<Type> {
    Some(match c {
        0 => Type::F,
        1 => Type::D,
        2 => Type::UD,
        3 => Type::DF,
        4 => Type::HF,
        _ => return None,
    })
}

/// Register file codes (2 bits).
pub const FILE_ARF: u64 = 0;
pub const FILE_GRF: u64 = 1;
pub const FILE_IMM: u64 = 3;

/// Encode a vertical stride (elements) to its field value.
pub fn vstride_code(v: u8) -> Option<u64> {
    Some(match v {
        0 => 0,
        1 => 1,
        2 => 2,
        4 => 3,
        8 => 4,
        16 => 5,
        32 => 6,
        crate::Region::VXH => 0xF,
        _ => return None,
    })
}
pub fn vstride_from_code(c: u64) -> Option<u8> {
    Some(match c {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 4,
        4 => 8,
        5 => 16,
        6 => 32,
        0xF => crate::Region::VXH,
        _ => return None,
    })
}
pub fn width_code(w: u8) -> Option<u64> {
    Some(match w {
        1 => 0,
        2 => 1,
        4 => 2,
        8 => 3,
        16 => 4,
        _ => return None,
    })
}
pub fn width_from_code(c: u64) -> Option<u8> {
    if c <= 4 {
        Some(1 << c)
    } else {
        None
    }
}
pub fn hstride_code(h: u8) -> Option<u64> {
    Some(match h {
        0 => 0,
        1 => 1,
        2 => 2,
        4 => 3,
        _ => return None,
    })
}
pub fn hstride_from_code(c: u64) -> u8 {
    match c {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 4,
    }
}
pub fn exec_size_code(e: u8) -> Option<u64> {
    Some(match e {
        1 => 0,
        2 => 1,
        4 => 2,
        8 => 3,
        16 => 4,
        32 => 5,
        _ => return None,
    })
}

pub fn cond_mod_code(c: CondMod) -> u64 {
    match c {
        CondMod::Z => 1,
        CondMod::Nz => 2,
        CondMod::G => 3,
        CondMod::Ge => 4,
        CondMod::L => 5,
        CondMod::Le => 6,
        CondMod::O => 8,
        CondMod::U => 9,
    }
}
pub fn cond_mod_from_code(c: u64) -> Option<Option<CondMod>> {
    Some(match c {
        0 => None,
        1 => Some(CondMod::Z),
        2 => Some(CondMod::Nz),
        3 => Some(CondMod::G),
        4 => Some(CondMod::Ge),
        5 => Some(CondMod::L),
        6 => Some(CondMod::Le),
        8 => Some(CondMod::O),
        9 => Some(CondMod::U),
        _ => return None,
    })
}
/// IGA spelling of a conditional modifier.
pub fn cond_mod_name(c: CondMod) -> &'static str {
    match c {
        CondMod::Z => "eq",
        CondMod::Nz => "ne",
        CondMod::G => "gt",
        CondMod::Ge => "ge",
        CondMod::L => "lt",
        CondMod::Le => "le",
        CondMod::O => "ov",
        CondMod::U => "un",
    }
}

/// Predicate control code; Align16 uses 2..5 for .x..w.
pub fn pred_code(p: PredCtrl) -> u64 {
    use PredCtrl::*;
    match p {
        Normal => 1,
        AnyV => 2,
        AllV => 3,
        Any2h => 4,
        All2h => 5,
        Any4h => 6,
        All4h => 7,
        Any8h => 8,
        All8h => 9,
        Any16h => 10,
        All16h => 11,
        Any32h => 12,
        All32h => 13,
        X => 2,
        Y => 3,
        Z => 4,
        W => 5,
    }
}
pub fn pred_from_code(c: u64, align16: bool) -> Option<PredCtrl> {
    use PredCtrl::*;
    if align16 {
        return Some(match c {
            1 => Normal,
            2 => X,
            3 => Y,
            4 => Z,
            5 => W,
            6 => Any4h,
            7 => All4h,
            _ => return None,
        });
    }
    Some(match c {
        1 => Normal,
        2 => AnyV,
        3 => AllV,
        4 => Any2h,
        5 => All2h,
        6 => Any4h,
        7 => All4h,
        8 => Any8h,
        9 => All8h,
        10 => Any16h,
        11 => All16h,
        12 => Any32h,
        13 => All32h,
        _ => return None,
    })
}
pub fn pred_suffix(p: PredCtrl) -> &'static str {
    use PredCtrl::*;
    match p {
        Normal => "",
        AnyV => ".anyv",
        AllV => ".allv",
        Any2h => ".any2h",
        All2h => ".all2h",
        Any4h => ".any4h",
        All4h => ".all4h",
        Any8h => ".any8h",
        All8h => ".all8h",
        Any16h => ".any16h",
        All16h => ".all16h",
        Any32h => ".any32h",
        All32h => ".all32h",
        X => ".x",
        Y => ".y",
        Z => ".z",
        W => ".w",
    }
}

pub fn math_code(m: MathFn) -> u64 {
    use MathFn::*;
    match m {
        Inv => 1,
        Log => 2,
        Exp => 3,
        Sqrt => 4,
        Rsq => 5,
        Sin => 6,
        Cos => 7,
        Fdiv => 9,
        Pow => 10,
        IntDivBoth => 11,
        IntDivQuotient => 12,
        IntDivRemainder => 13,
        Invm => 14,
        Rsqrtm => 15,
    }
}
pub fn math_from_code(c: u64) -> Option<MathFn> {
    use MathFn::*;
    Some(match c {
        1 => Inv,
        2 => Log,
        3 => Exp,
        4 => Sqrt,
        5 => Rsq,
        6 => Sin,
        7 => Cos,
        9 => Fdiv,
        10 => Pow,
        11 => IntDivBoth,
        12 => IntDivQuotient,
        13 => IntDivRemainder,
        14 => Invm,
        15 => Rsqrtm,
        _ => return None,
    })
}
/// IGA's subfunction name (`math.sqt`).
pub fn math_name(m: MathFn) -> &'static str {
    use MathFn::*;
    match m {
        Inv => "inv",
        Log => "log",
        Exp => "exp",
        Sqrt => "sqt",
        Rsq => "rsqt",
        Sin => "sin",
        Cos => "cos",
        Fdiv => "fdiv",
        Pow => "pow",
        IntDivBoth => "idiv",
        IntDivQuotient => "iqot",
        IntDivRemainder => "irem",
        Invm => "invm",
        Rsqrtm => "rsqtm",
    }
}
/// Number of sources of a math function.
pub fn math_nsrc(m: MathFn) -> usize {
    use MathFn::*;
    match m {
        Fdiv | Pow | IntDivBoth | IntDivQuotient | IntDivRemainder | Invm => 2,
        _ => 1,
    }
}

/// Gen9 SFID numbers.
pub fn sfid_code(s: Sfid) -> u64 {
    match s {
        Sfid::Null => 0,
        Sfid::Sampler => 2,
        Sfid::Gateway => 3,
        Sfid::Dc2 => 4,
        Sfid::RenderCache => 5,
        Sfid::Urb => 6,
        Sfid::ThreadSpawner => 7,
        Sfid::Vme => 8,
        Sfid::ConstCache => 9,
        Sfid::Dc0 => 10,
        Sfid::PixelInterp => 11,
        Sfid::Dc1 => 12,
        Sfid::Cre => 13,
        Sfid::Raw(n) => n as u64 & 0xF,
    }
}
pub fn sfid_from_code(c: u64) -> Sfid {
    match c {
        0 => Sfid::Null,
        2 => Sfid::Sampler,
        3 => Sfid::Gateway,
        4 => Sfid::Dc2,
        5 => Sfid::RenderCache,
        6 => Sfid::Urb,
        7 => Sfid::ThreadSpawner,
        8 => Sfid::Vme,
        9 => Sfid::ConstCache,
        10 => Sfid::Dc0,
        11 => Sfid::PixelInterp,
        12 => Sfid::Dc1,
        13 => Sfid::Cre,
        n => Sfid::Raw(n as u8),
    }
}
