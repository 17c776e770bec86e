//! Conversions with an explicit rounding mode or saturation (OpenCL C's
//! `convert_T_sat_rtX`), from SPIR-V's FPRoundingMode and SaturatedConversion
//! decorations and the SatConvert instructions.
//!
//! - float → integer in a rounding mode: the value is rounded to an integral float
//!   first (rnde/rndd/rndu/rndz, exact), then converted (which truncates, now exactly);
//! - saturated float → integer: NaN gives 0, values beyond the type's range its bound
//!   (OpenCL C 6.2.3.3), decided on the float before converting;
//! - integer or float → float in a directed mode: `Op::ConvRound`, which instruction
//!   selection brackets with a change of cr0's rounding mode (as IGC does);
//! - saturated integer → integer: clamped to the destination's range first.

use rspirv::spirv::FPRoundingMode;

use super::builtins::B;
use crate::ir::{BinOp, CmpOp, ConvOp, Op, Round, Ty, UnOp, Value};

pub(super) fn round_of(m: FPRoundingMode) -> Round {
    match m {
        FPRoundingMode::RTE => Round::Rte,
        FPRoundingMode::RTZ => Round::Rtz,
        FPRoundingMode::RTP => Round::Rtp,
        FPRoundingMode::RTN => Round::Rtn,
    }
}

/// A conversion `op` of `x` to `ty`, in rounding mode `round` (None: the default,
/// round-to-nearest-even for float results and toward zero for integer results) and,
/// for float to integer, saturated if `sat` (integer saturation is `int_sat`).
pub(super) fn convert(
    b: &mut B<'_>,
    op: ConvOp,
    x: Value,
    (ty, bits): (Ty, u32),
    round: Option<Round>,
    sat: bool,
) -> Value {
    let from = b.f.ty(x);
    match op {
        ConvOp::FToS | ConvOp::FToU => {
            let signed = op == ConvOp::FToS;
            let x = match round {
                Some(Round::Rte) => b.push_un(UnOp::Rint, x),
                Some(Round::Rtp) => b.push_un(UnOp::Ceil, x),
                Some(Round::Rtn) => b.push_un(UnOp::Floor, x),
                Some(Round::Rtz) | None => x,
            };
            if !sat {
                return b.push_op(Op::Conv(op, x), ty);
            }
            // Bounds as floats: -2^(n-1) and 2^(n-1) (signed), 0 and 2^n (unsigned); both
            // powers of two are exact in any float format wide enough to matter here.
            let (lo, hi) = if signed {
                (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
            } else {
                (0.0, 2f64.powi(bits as i32))
            };
            let (min_int, max_int) = if signed {
                (1u64 << (bits - 1), (1u64 << (bits - 1)) - 1)
            } else {
                (
                    0,
                    if bits == 64 {
                        u64::MAX
                    } else {
                        (1u64 << bits) - 1
                    },
                )
            };
            let flo = b.kf(from, lo);
            let fhi = b.kf(from, hi);
            let below = b.push_op(Op::Cmp(CmpOp::FOLt, x, flo), Ty::Bool);
            let above = b.push_op(Op::Cmp(CmpOp::FOGe, x, fhi), Ty::Bool);
            let nan = b.push_op(Op::Cmp(CmpOp::FUnord, x, x), Ty::Bool);
            // Convert a value that is certainly in range, then pick.
            let zero_f = b.kf(from, 0.0);
            let out = b.push_op(Op::Bin(BinOp::Or, below, above), Ty::Bool);
            let out = b.push_op(Op::Bin(BinOp::Or, out, nan), Ty::Bool);
            let safe = b.push_op(Op::Select(out, zero_f, x), from);
            let c = b.push_op(Op::Conv(op, safe), ty);
            let (kmin, kmax, k0) = (b.k(ty, min_int), b.k(ty, max_int), b.k(ty, 0));
            let r = b.push_op(Op::Select(below, kmin, c), ty);
            let r = b.push_op(Op::Select(above, kmax, r), ty);
            b.push_op(Op::Select(nan, k0, r), ty)
        }
        ConvOp::SToF | ConvOp::UToF | ConvOp::FConv => match round {
            Some(r) if r != Round::Rte => b.push_op(Op::ConvRound(op, x, r), ty),
            _ => b.push_op(Op::Conv(op, x), ty),
        },
        _ => b.push_op(Op::Conv(op, x), ty),
    }
}

/// Saturating integer conversion: `x` (`fb` bits in its container, sign-extended when
/// `src_signed`) clamped to the range of a `tb`-bit integer, signed if `dst_signed`, then
/// moved into the container `ty`.
pub(super) fn int_sat(
    b: &mut B<'_>,
    x: Value,
    (fb, ty): (u32, Ty),
    tb: u32,
    src_signed: bool,
    dst_signed: bool,
) -> Value {
    let from = b.f.ty(x);
    let mut v = x;
    // Lower bound: only a signed source can be below an unsigned destination's 0 or a
    // narrower signed destination's minimum.
    if src_signed {
        let lo: i64 = if dst_signed {
            if tb < fb {
                -(1i64 << (tb - 1))
            } else {
                i64::MIN
            }
        } else {
            0
        };
        if !(dst_signed && tb >= fb) {
            let k = b.k(from, lo as u64 & mask(from.bytes() * 8));
            v = b.push_op(Op::Bin(BinOp::Max { signed: true }, v, k), from);
        }
    }
    // Upper bound, when the destination's maximum is below what the source can hold.
    let dst_max: u64 = if dst_signed {
        (1u64 << (tb - 1)) - 1
    } else if tb == 64 {
        u64::MAX
    } else {
        (1u64 << tb) - 1
    };
    let src_max: u64 = if src_signed {
        (1u64 << (fb - 1)) - 1
    } else {
        mask(fb)
    };
    if dst_max < src_max {
        let k = b.k(from, dst_max);
        // After the lower clamp a signed source is >= 0 or kept negative only when the
        // destination is signed: compare signed then; otherwise unsigned.
        let signed_cmp = src_signed;
        v = b.push_op(Op::Bin(BinOp::Min { signed: signed_cmp }, v, k), from);
    }
    // Between containers: the clamped value fits the destination's width.
    if from == ty {
        v
    } else if ty.bytes() < from.bytes() {
        b.push_op(Op::Conv(ConvOp::Trunc, v), ty)
    } else {
        let op = if src_signed {
            ConvOp::SExt
        } else {
            ConvOp::ZExt
        };
        b.push_op(Op::Conv(op, v), ty)
    }
}

fn mask(bits: u32) -> u64 {
    if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}
