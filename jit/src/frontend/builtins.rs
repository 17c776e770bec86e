//! OpenCL.std extended instructions (and the SPIR-V core built-ins IsInf, Dot, BitCount,
//! ...) as IR: one Gen operation where that is exact, else a short straight-line
//! sequence of exact integer and float operations. What needs a real library (the
//! full-precision transcendental functions) is refused here with its name, so that
//! the build log says which built-in is missing.
//!
//! Instructions are named by `spirv::OpenclStd100Op`, the SPIR-V registry's own
//! numbering of the OpenCL.std extended instruction set.

use rspirv::spirv::OpenclStd100Op as C;

use crate::ir::{BinOp, Block, CmpOp, ConvOp, Function, Op, Ty, UnOp, Value};

use super::FrontendError;

/// Whether `B::fix_library_result` changes the library's result of `op`.
pub(super) fn fixes_library_result(op: C) -> bool {
    matches!(op, C::sinpi | C::cospi | C::tanpi | C::atanpi | C::ldexp)
}

/// A builder appending to one block.
pub(super) struct B<'a> {
    pub f: &'a mut Function,
    pub b: Block,
}

impl B<'_> {
    fn push(&mut self, op: Op, ty: Ty) -> Value {
        self.f.push(self.b, op, ty)
    }
    pub fn push_op(&mut self, op: Op, ty: Ty) -> Value {
        self.push(op, ty)
    }
    pub fn push_un(&mut self, op: UnOp, a: Value) -> Value {
        self.un(op, a)
    }
    pub fn k(&mut self, ty: Ty, bits: u64) -> Value {
        self.f.push(Block(0), Op::Const(bits), ty)
    }
    /// A float constant of `ty` (F32 or F64).
    pub fn kf(&mut self, ty: Ty, x: f64) -> Value {
        let bits = match ty {
            Ty::F32 => (x as f32).to_bits() as u64,
            _ => x.to_bits(),
        };
        self.k(ty, bits)
    }
    pub fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ty = self.f.ty(a);
        self.push(Op::Bin(op, a, b), ty)
    }
    /// A unary operation: of the operand's type, but the half conversions, whose result
    /// type is their own (a value mistyped here was once selected as a float `and`).
    fn un(&mut self, op: UnOp, a: Value) -> Value {
        let ty = match op {
            UnOp::FloatToHalf => Ty::I32,
            UnOp::HalfToFloat => Ty::F32,
            _ => self.f.ty(a),
        };
        self.push(Op::Un(op, a), ty)
    }
    pub fn cmp_op(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        self.cmp(op, a, b)
    }
    pub fn sel_op(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.sel(c, a, b)
    }
    fn cmp(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        self.push(Op::Cmp(op, a, b), Ty::Bool)
    }
    fn sel(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.f.ty(a);
        self.push(Op::Select(c, a, b), ty)
    }
    fn conv(&mut self, op: ConvOp, a: Value, ty: Ty) -> Value {
        self.push(Op::Conv(op, a), ty)
    }
    fn ty(&self, v: Value) -> Ty {
        self.f.ty(v)
    }

    /// A half's 16 bits (the low bits of an I32) as the float that is that half, bit for bit
    /// also for NaNs: the hardware conversion quiets a signalling NaN, and moving a half
    /// through memory or as_type must keep all its bits.
    pub fn half_in(&mut self, bits: Value) -> Value {
        let f = self.push(Op::Un(UnOp::HalfToFloat, bits), Ty::F32);
        let k = |me: &mut Self, x: u64| me.k(Ty::I32, x);
        let (m7fff, inf, m3ff, m8000) = (
            k(self, 0x7fff),
            k(self, 0x7c00),
            k(self, 0x3ff),
            k(self, 0x8000),
        );
        let (sixteen, thirteen, finf) = (k(self, 16), k(self, 13), k(self, 0x7f80_0000));
        let mag = self.push(Op::Bin(BinOp::And, bits, m7fff), Ty::I32);
        let nan = self.push(Op::Cmp(CmpOp::Gt { signed: false }, mag, inf), Ty::Bool);
        let sign = self.push(Op::Bin(BinOp::And, bits, m8000), Ty::I32);
        let sign = self.push(Op::Bin(BinOp::Shl, sign, sixteen), Ty::I32);
        let mant = self.push(Op::Bin(BinOp::And, bits, m3ff), Ty::I32);
        let mant = self.push(Op::Bin(BinOp::Shl, mant, thirteen), Ty::I32);
        let e = self.push(Op::Bin(BinOp::Or, sign, finf), Ty::I32);
        let e = self.push(Op::Bin(BinOp::Or, e, mant), Ty::I32);
        let exact = self.push(Op::Conv(ConvOp::Bitcast, e), Ty::F32);
        self.push(Op::Select(nan, exact, f), Ty::F32)
    }

    /// A half (carried as a float) as its 16 bits, keeping a NaN's sign and payload (the
    /// counterpart of `half_in`; a payload that lived only below the half's bits becomes
    /// the quiet bit, so that a NaN stays a NaN).
    pub fn half_out(&mut self, v: Value) -> Value {
        let h = self.push(Op::Un(UnOp::FloatToHalf, v), Ty::I32);
        let k = |me: &mut Self, x: u64| me.k(Ty::I32, x);
        let fb = self.push(Op::Conv(ConvOp::Bitcast, v), Ty::I32);
        let (m7fffffff, finf, m3ff) = (k(self, 0x7fff_ffff), k(self, 0x7f80_0000), k(self, 0x3ff));
        let (sixteen, thirteen, m8000, inf, quiet, zero) = (
            k(self, 16),
            k(self, 13),
            k(self, 0x8000),
            k(self, 0x7c00),
            k(self, 0x200),
            k(self, 0),
        );
        let mag = self.push(Op::Bin(BinOp::And, fb, m7fffffff), Ty::I32);
        let nan = self.push(Op::Cmp(CmpOp::Gt { signed: false }, mag, finf), Ty::Bool);
        let mant = self.push(Op::Bin(BinOp::LShr, fb, thirteen), Ty::I32);
        let mant = self.push(Op::Bin(BinOp::And, mant, m3ff), Ty::I32);
        let none = self.push(Op::Cmp(CmpOp::Eq, mant, zero), Ty::Bool);
        let mant = self.push(Op::Select(none, quiet, mant), Ty::I32);
        let sign = self.push(Op::Bin(BinOp::LShr, fb, sixteen), Ty::I32);
        let sign = self.push(Op::Bin(BinOp::And, sign, m8000), Ty::I32);
        let e = self.push(Op::Bin(BinOp::Or, sign, inf), Ty::I32);
        let e = self.push(Op::Bin(BinOp::Or, e, mant), Ty::I32);
        self.push(Op::Select(nan, e, h), Ty::I32)
    }
    /// The integer type of a float's bits.
    fn int_of(ty: Ty) -> Ty {
        match ty {
            Ty::F64 => Ty::I64,
            Ty::F16 => Ty::I16,
            _ => Ty::I32,
        }
    }
    fn bits(ty: Ty) -> u32 {
        ty.bytes() * 8
    }
    fn min_int(ty: Ty) -> u64 {
        1u64 << (Self::bits(ty) - 1)
    }
    fn max_uint(ty: Ty) -> u64 {
        if Self::bits(ty) == 64 {
            u64::MAX
        } else {
            (1u64 << Self::bits(ty)) - 1
        }
    }

    /// The high half of the full product of `a` and `b` (32 or 64 bits).
    pub fn mul_hi(&mut self, a: Value, b: Value, signed: bool) -> Value {
        let ty = self.ty(a);
        if ty == Ty::I32 {
            let ext = if signed { ConvOp::SExt } else { ConvOp::ZExt };
            let (a, b) = (self.conv(ext, a, Ty::I64), self.conv(ext, b, Ty::I64));
            let p = self.bin(BinOp::Mul, a, b);
            let k32 = self.k(Ty::I64, 32);
            let hi = self.bin(BinOp::LShr, p, k32);
            return self.conv(ConvOp::Trunc, hi, Ty::I32);
        }
        // 64 bits: schoolbook over 32-bit halves, each partial product exact in 64 bits.
        let k32 = self.k(Ty::I64, 32);
        let lo_mask = self.k(Ty::I64, 0xffff_ffff);
        let (al, bl) = (
            self.bin(BinOp::And, a, lo_mask),
            self.bin(BinOp::And, b, lo_mask),
        );
        let (ah, bh) = (self.bin(BinOp::LShr, a, k32), self.bin(BinOp::LShr, b, k32));
        let ll = self.bin(BinOp::Mul, al, bl);
        let lh = self.bin(BinOp::Mul, al, bh);
        let hl = self.bin(BinOp::Mul, ah, bl);
        let hh = self.bin(BinOp::Mul, ah, bh);
        let ll_hi = self.bin(BinOp::LShr, ll, k32);
        let lh_lo = self.bin(BinOp::And, lh, lo_mask);
        let hl_lo = self.bin(BinOp::And, hl, lo_mask);
        let mid = self.bin(BinOp::Add, ll_hi, lh_lo);
        let mid = self.bin(BinOp::Add, mid, hl_lo);
        let lh_hi = self.bin(BinOp::LShr, lh, k32);
        let hl_hi = self.bin(BinOp::LShr, hl, k32);
        let mid_hi = self.bin(BinOp::LShr, mid, k32);
        let hi = self.bin(BinOp::Add, hh, lh_hi);
        let hi = self.bin(BinOp::Add, hi, hl_hi);
        let hi = self.bin(BinOp::Add, hi, mid_hi);
        if !signed {
            return hi;
        }
        // Signed: subtract b when a < 0 and a when b < 0 (two's complement correction).
        let zero = self.k(Ty::I64, 0);
        let an = self.cmp(CmpOp::Lt { signed: true }, a, zero);
        let bn = self.cmp(CmpOp::Lt { signed: true }, b, zero);
        let cb = self.sel(an, b, zero);
        let ca = self.sel(bn, a, zero);
        let hi = self.bin(BinOp::Sub, hi, cb);
        self.bin(BinOp::Sub, hi, ca)
    }

    fn popcount(&mut self, a: Value) -> Value {
        let ty = self.ty(a);
        if ty == Ty::I64 {
            let k32 = self.k(Ty::I64, 32);
            let lo = self.conv(ConvOp::Trunc, a, Ty::I32);
            let hi = self.bin(BinOp::LShr, a, k32);
            let hi = self.conv(ConvOp::Trunc, hi, Ty::I32);
            let (pl, ph) = (self.un(UnOp::Popcount, lo), self.un(UnOp::Popcount, hi));
            let s = self.bin(BinOp::Add, pl, ph);
            return self.conv(ConvOp::ZExt, s, Ty::I64);
        }
        self.un(UnOp::Popcount, a)
    }

    fn clz(&mut self, a: Value) -> Value {
        let ty = self.ty(a);
        if ty == Ty::I64 {
            let k32 = self.k(Ty::I64, 32);
            let lo = self.conv(ConvOp::Trunc, a, Ty::I32);
            let hi = self.bin(BinOp::LShr, a, k32);
            let hi = self.conv(ConvOp::Trunc, hi, Ty::I32);
            let (zl, zh) = (self.un(UnOp::Clz, lo), self.un(UnOp::Clz, hi));
            let k32i = self.k(Ty::I32, 32);
            let zl32 = self.bin(BinOp::Add, zl, k32i);
            let zero = self.k(Ty::I32, 0);
            let hi_zero = self.cmp(CmpOp::Eq, hi, zero);
            let r = self.sel(hi_zero, zl32, zh);
            return self.conv(ConvOp::ZExt, r, Ty::I64);
        }
        self.un(UnOp::Clz, a)
    }

    /// Count trailing zeros: the width for 0, else width-1 - clz(x & -x).
    fn ctz(&mut self, a: Value) -> Value {
        let ty = self.ty(a);
        let neg = self.un(UnOp::Neg, a);
        let low = self.bin(BinOp::And, a, neg);
        let z = self.clz(low);
        let w1 = self.k(ty, (Self::bits(ty) - 1) as u64);
        let r = self.bin(BinOp::Sub, w1, z);
        let zero = self.k(ty, 0);
        let is0 = self.cmp(CmpOp::Eq, a, zero);
        let w = self.k(ty, Self::bits(ty) as u64);
        self.sel(is0, w, r)
    }

    /// 64-bit mad_sat from the 128-bit value of a * b + c: (hi, lo) of the product, c added
    /// with its carry (and c's sign extension when signed); the sum fits in 64 bits when its
    /// high half is the sign extension of its low half (zero when unsigned).
    fn mad_sat64(&mut self, a: Value, b: Value, c: Value, signed: bool) -> Value {
        let ty = Ty::I64;
        let hi = self.mul_hi(a, b, signed);
        let lo = self.bin(BinOp::Mul, a, b);
        let s = self.bin(BinOp::Add, lo, c);
        let carry = self.cmp(CmpOp::Lt { signed: false }, s, lo);
        let zero = self.k(ty, 0);
        let one = self.k(ty, 1);
        let cy = self.sel(carry, one, zero);
        let mut h = self.bin(BinOp::Add, hi, cy);
        if !signed {
            let over = self.cmp(CmpOp::Ne, h, zero);
            let max = self.k(ty, u64::MAX);
            return self.sel(over, max, s);
        }
        let k63 = self.k(ty, 63);
        let c_sign = self.bin(BinOp::AShr, c, k63);
        h = self.bin(BinOp::Add, h, c_sign);
        let s_sign = self.bin(BinOp::AShr, s, k63);
        let over = self.cmp(CmpOp::Ne, h, s_sign);
        let neg = self.cmp(CmpOp::Lt { signed: true }, h, zero);
        let min = self.k(ty, i64::MIN as u64);
        let max = self.k(ty, i64::MAX as u64);
        let bound = self.sel(neg, min, max);
        self.sel(over, bound, s)
    }

    fn add_sat(&mut self, a: Value, b: Value, signed: bool) -> Value {
        let ty = self.ty(a);
        let r = self.bin(BinOp::Add, a, b);
        if !signed {
            let wrapped = self.cmp(CmpOp::Lt { signed: false }, r, a);
            let max = self.k(ty, Self::max_uint(ty));
            return self.sel(wrapped, max, r);
        }
        // Overflow iff a and b have one sign and r the other: ((a ^ r) & (b ^ r)) < 0.
        let ar = self.bin(BinOp::Xor, a, r);
        let br = self.bin(BinOp::Xor, b, r);
        let both = self.bin(BinOp::And, ar, br);
        self.saturate_signed(a, r, both)
    }

    fn sub_sat(&mut self, a: Value, b: Value, signed: bool) -> Value {
        let ty = self.ty(a);
        let r = self.bin(BinOp::Sub, a, b);
        if !signed {
            let under = self.cmp(CmpOp::Lt { signed: false }, a, b);
            let zero = self.k(ty, 0);
            return self.sel(under, zero, r);
        }
        // Overflow iff a and b differ in sign and r's sign differs from a's.
        let ab = self.bin(BinOp::Xor, a, b);
        let ar = self.bin(BinOp::Xor, a, r);
        let both = self.bin(BinOp::And, ab, ar);
        self.saturate_signed(a, r, both)
    }

    /// `r`, or the bound on `a`'s side when `flag`'s sign bit says it overflowed.
    fn saturate_signed(&mut self, a: Value, r: Value, flag: Value) -> Value {
        let ty = self.ty(a);
        let zero = self.k(ty, 0);
        let over = self.cmp(CmpOp::Lt { signed: true }, flag, zero);
        let a_neg = self.cmp(CmpOp::Lt { signed: true }, a, zero);
        let min = self.k(ty, Self::min_int(ty));
        let max = self.k(ty, Self::min_int(ty) - 1);
        let bound = self.sel(a_neg, min, max);
        self.sel(over, bound, r)
    }

    /// (a >> 1) + (b >> 1) + (carry of the low bits): hadd (`round` false) or rhadd.
    fn hadd(&mut self, a: Value, b: Value, signed: bool, round: bool) -> Value {
        let ty = self.ty(a);
        let one = self.k(ty, 1);
        let sh = if signed { BinOp::AShr } else { BinOp::LShr };
        let ha = self.bin(sh, a, one);
        let hb = self.bin(sh, b, one);
        let low = self.bin(if round { BinOp::Or } else { BinOp::And }, a, b);
        let low = self.bin(BinOp::And, low, one);
        let s = self.bin(BinOp::Add, ha, hb);
        self.bin(BinOp::Add, s, low)
    }

    fn abs_diff(&mut self, a: Value, b: Value, signed: bool) -> Value {
        let gt = self.cmp(CmpOp::Gt { signed }, a, b);
        let d1 = self.bin(BinOp::Sub, a, b);
        let d2 = self.bin(BinOp::Sub, b, a);
        self.sel(gt, d1, d2)
    }

    fn rotate(&mut self, x: Value, n: Value) -> Value {
        let ty = self.ty(x);
        let m = self.k(ty, (Self::bits(ty) - 1) as u64);
        let w = self.k(ty, Self::bits(ty) as u64);
        let s = self.bin(BinOp::And, n, m);
        let l = self.bin(BinOp::Shl, x, s);
        let rs = self.bin(BinOp::Sub, w, s);
        let rs = self.bin(BinOp::And, rs, m);
        let r = self.bin(BinOp::LShr, x, rs);
        // s == 0: l = x and r = x >> 0 = x; or-ing them is still x.
        self.bin(BinOp::Or, l, r)
    }

    /// (a & ~c) | (b & c) on the bits of any type.
    fn bitselect(&mut self, a: Value, b: Value, c: Value) -> Value {
        let ty = self.ty(a);
        let it = if ty.is_float() { Self::int_of(ty) } else { ty };
        let cast = |me: &mut Self, v: Value| {
            if ty.is_float() {
                me.conv(ConvOp::Bitcast, v, it)
            } else {
                v
            }
        };
        let (ai, bi, ci) = (cast(self, a), cast(self, b), cast(self, c));
        let nc = self.un(UnOp::Not, ci);
        let x = self.bin(BinOp::And, ai, nc);
        let y = self.bin(BinOp::And, bi, ci);
        let r = self.bin(BinOp::Or, x, y);
        if ty.is_float() {
            self.conv(ConvOp::Bitcast, r, ty)
        } else {
            r
        }
    }

    fn copysign(&mut self, x: Value, y: Value) -> Value {
        let ty = self.ty(x);
        let it = Self::int_of(ty);
        let xi = self.conv(ConvOp::Bitcast, x, it);
        let yi = self.conv(ConvOp::Bitcast, y, it);
        let sign = self.k(it, Self::min_int(it));
        let mag = self.k(it, Self::min_int(it) - 1);
        let a = self.bin(BinOp::And, xi, mag);
        let s = self.bin(BinOp::And, yi, sign);
        let r = self.bin(BinOp::Or, a, s);
        self.conv(ConvOp::Bitcast, r, ty)
    }

    /// Result `r` of libclc-15's `op` on first argument `x`, fixed where libclc's is wrong
    /// (docs/jit.md, "Where libclc-15's results are wrong"); see `fixes_library_result`.
    pub fn fix_library_result(&mut self, op: C, x: Value, r: Value) -> Value {
        match op {
            C::sinpi | C::cospi | C::tanpi | C::atanpi => self.pi_zero_sign(op, x, r),
            // ldexp(double, int) reads a NaN as a number with the largest exponent:
            // ldexp(NaN, 1) was -inf, ldexp(NaN, -2^30) zero (CTS bruteforce).
            C::ldexp => self.nan_passes(x, r),
            _ => r,
        }
    }

    /// The sign of a zero result of sinpi, cospi, tanpi and atanpi, as OpenCL C 9.3.3's
    /// special values fix it (libclc's implementations get it wrong at the integers):
    /// "sinpi(n) returns +0 for positive integers n and -0 for negative integers n",
    /// "cospi(n + 0.5) is +0 for any integer n", "tanpi(n) is copysign(0.0, n) for even
    /// integers n" and "copysign(0.0, -n) for odd integers n", "atanpi(±0) returns ±0".
    /// A zero result of these comes only from such arguments (or a zero x), so the fix
    /// looks at zero results alone.
    fn pi_zero_sign(&mut self, op: C, x: Value, r: Value) -> Value {
        let ty = self.ty(r);
        let zero = self.kf(ty, 0.0);
        let is_zero = self.cmp(CmpOp::FOEq, r, zero);
        let fixed = match op {
            C::cospi => zero,
            C::sinpi | C::atanpi => self.copysign(zero, x),
            C::tanpi => {
                // Odd: below 2^mantissa (every float above is even) with the low bit set.
                let it = Self::int_of(ty);
                let big = self.kf(
                    ty,
                    if ty == Ty::F64 {
                        2f64.powi(53)
                    } else {
                        2f64.powi(24)
                    },
                );
                let ax = self.un(UnOp::FAbs, x);
                let small = self.cmp(CmpOp::FOLt, ax, big);
                let n = self.conv(ConvOp::FToS, ax, it);
                let one = self.k(it, 1);
                let low = self.bin(BinOp::And, n, one);
                let odd_bit = self.cmp(CmpOp::Eq, low, one);
                let odd = self.push(Op::Bin(BinOp::And, small, odd_bit), Ty::Bool);
                let neg_x = self.un(UnOp::FNeg, x);
                let s = self.sel(odd, neg_x, x);
                self.copysign(zero, s)
            }
            _ => return r,
        };
        self.sel(is_zero, fixed, r)
    }

    /// An i32 exponent clamped to [-2200, 2200].
    pub fn clamp_exponent(&mut self, n: Value) -> Value {
        if self.ty(n) != Ty::I32 {
            return n;
        }
        let lo = self.k(Ty::I32, (-2200i32) as u32 as u64);
        let hi = self.k(Ty::I32, 2200);
        let n = self.bin(BinOp::Max { signed: true }, n, lo);
        self.bin(BinOp::Min { signed: true }, n, hi)
    }

    /// `r`, or below `limit` (where every gamma of a non-integer rounds to zero) a zero of
    /// gamma's sign: (-1)^n on (-n-1, -n). `x`, `r` doubles.
    pub fn gamma_underflow(&mut self, x: Value, r: Value, limit: f64) -> Value {
        let ty = self.ty(x);
        let limit = self.kf(ty, limit);
        let far = self.cmp(CmpOp::FOLt, x, limit);
        let fl = self.un(UnOp::Floor, x);
        let not_whole = self.cmp(CmpOp::FOGt, x, fl);
        let zero_there = self.push(Op::Bin(BinOp::And, far, not_whole), Ty::Bool);
        // floor(x) even: positive; odd: negative (|floor(x)| < 2^53 here unless x is
        // an integer, which is excluded).
        let half = self.kf(ty, 0.5);
        let h = self.bin(BinOp::FMul, fl, half);
        let hf = self.un(UnOp::Floor, h);
        let even = self.cmp(CmpOp::FOEq, hf, h);
        let pz = self.kf(ty, 0.0);
        let nz = self.kf(ty, -0.0);
        let z = self.sel(even, pz, nz);
        self.sel(zero_there, z, r)
    }

    /// `r`, or `x` where `x` is a NaN: a NaN argument's result is a NaN.
    fn nan_passes(&mut self, x: Value, r: Value) -> Value {
        if !self.ty(x).is_float() || self.ty(x) != self.ty(r) {
            return r;
        }
        let nan = self.cmp(CmpOp::FUnord, x, x);
        self.sel(nan, x, r)
    }

    /// nextafter(x, y): the representable value next to x toward y, stepping the bits of x
    /// (of its half when `half`, x being carried as a float holding a half). NaN when either
    /// is NaN, y when x == y, the smallest subnormal with y's sign from a zero x.
    pub fn nextafter(&mut self, x: Value, y: Value, half: bool) -> Value {
        let ty = self.ty(x);
        let it = Self::int_of(ty);
        let (bits, sign) = if half {
            (self.un(UnOp::FloatToHalf, x), self.k(it, 0x8000))
        } else {
            (
                self.conv(ConvOp::Bitcast, x, it),
                self.k(it, Self::min_int(it)),
            )
        };
        let yb = self.conv(ConvOp::Bitcast, y, Self::int_of(ty));
        let ysign = if half {
            let k = self.k(it, 16);
            let s = self.bin(BinOp::LShr, yb, k);
            self.bin(BinOp::And, s, sign)
        } else {
            self.bin(BinOp::And, yb, sign)
        };
        let one = self.k(it, 1);
        let zero = self.k(it, 0);
        let minus = self.k(it, Self::max_uint(it));
        // (x < y) != (x < 0): away from zero, one up in magnitude; else one down.
        let fzero = self.k(ty, 0);
        let lt = self.cmp(CmpOp::FOLt, x, y);
        let neg = self.cmp(CmpOp::FOLt, x, fzero);
        let up = self.bin(BinOp::Xor, lt, neg);
        let step = self.sel(up, one, minus);
        let stepped = self.bin(BinOp::Add, bits, step);
        let mag_mask = self.un(UnOp::Not, sign);
        let mag = self.bin(BinOp::And, bits, mag_mask);
        let is_zero = self.cmp(CmpOp::Eq, mag, zero);
        let tiny = self.bin(BinOp::Or, ysign, one);
        let r = self.sel(is_zero, tiny, stepped);
        let r = if half {
            let mask = self.k(it, 0xffff);
            let r = self.bin(BinOp::And, r, mask);
            self.un(UnOp::HalfToFloat, r)
        } else {
            self.conv(ConvOp::Bitcast, r, ty)
        };
        let eq = self.cmp(CmpOp::FOEq, x, y);
        let r = self.sel(eq, y, r);
        let unord = self.cmp(CmpOp::FUnord, x, y);
        let nan = self.bin(BinOp::FAdd, x, y);
        self.sel(unord, nan, r)
    }

    /// round(): to nearest, halfway cases away from zero. x - trunc(x) is exact.
    fn round(&mut self, x: Value) -> Value {
        let ty = self.ty(x);
        let t = self.un(UnOp::Trunc, x);
        let d = self.bin(BinOp::FSub, x, t);
        let ad = self.un(UnOp::FAbs, d);
        let half = self.kf(ty, 0.5);
        let up = self.cmp(CmpOp::FOGe, ad, half);
        let one = self.kf(ty, 1.0);
        let s = self.copysign(one, x);
        let t1 = self.bin(BinOp::FAdd, t, s);
        self.sel(up, t1, t)
    }

    fn is_inf(&mut self, x: Value) -> Value {
        let ty = self.ty(x);
        let a = self.un(UnOp::FAbs, x);
        let inf = self.kf(ty, f64::INFINITY);
        self.cmp(CmpOp::FOEq, a, inf)
    }

    fn is_finite(&mut self, x: Value) -> Value {
        let ty = self.ty(x);
        let a = self.un(UnOp::FAbs, x);
        let inf = self.kf(ty, f64::INFINITY);
        self.cmp(CmpOp::FOLt, a, inf)
    }

    fn is_normal(&mut self, x: Value) -> Value {
        let ty = self.ty(x);
        let a = self.un(UnOp::FAbs, x);
        let inf = self.kf(ty, f64::INFINITY);
        let min = self.kf(
            ty,
            if ty == Ty::F32 {
                f32::MIN_POSITIVE as f64
            } else {
                f64::MIN_POSITIVE
            },
        );
        let lt = self.cmp(CmpOp::FOLt, a, inf);
        let ge = self.cmp(CmpOp::FOGe, a, min);
        self.bin_bool(BinOp::And, lt, ge)
    }

    fn sign_bit(&mut self, x: Value) -> Value {
        let ty = self.ty(x);
        let it = Self::int_of(ty);
        let xi = self.conv(ConvOp::Bitcast, x, it);
        let zero = self.k(it, 0);
        self.cmp(CmpOp::Lt { signed: true }, xi, zero)
    }

    fn bin_bool(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        self.push(Op::Bin(op, a, b), Ty::Bool)
    }

    /// sign(): 1.0, -1.0, or x itself for ±0; 0.0 for NaN.
    fn sign(&mut self, x: Value) -> Value {
        let ty = self.ty(x);
        let zero = self.kf(ty, 0.0);
        let one = self.kf(ty, 1.0);
        let mone = self.kf(ty, -1.0);
        let gt = self.cmp(CmpOp::FOGt, x, zero);
        let lt = self.cmp(CmpOp::FOLt, x, zero);
        let nan = self.cmp(CmpOp::FUnord, x, x);
        let r = self.sel(lt, mone, x);
        let r = self.sel(gt, one, r);
        self.sel(nan, zero, r)
    }

    fn fclamp(&mut self, x: Value, lo: Value, hi: Value) -> Value {
        let m = self.bin(BinOp::FMax, x, lo);
        self.bin(BinOp::FMin, m, hi)
    }
}

/// Whether OpenCL.std instruction `which` can be lowered here. `half`: the result is a half
/// (carried in a float), for the built-ins whose answer depends on the format's bits.
pub(super) fn ext_inst(
    bld: &mut B<'_>,
    which: u32,
    ty: Ty,
    vector: bool,
    half: bool,
    a: &[Value],
) -> Result<Option<Value>, FrontendError> {
    let arg = |k: usize| {
        a.get(k).copied().ok_or_else(|| {
            FrontendError::InvalidIl(format!("OpenCL.std #{which}: operand {k} missing"))
        })
    };
    let f32_only = |name: &str| -> Result<(), FrontendError> {
        if ty == Ty::F32 {
            Ok(())
        } else {
            Err(FrontendError::Unsupported(format!(
                "{name} on {ty:?} (Gen's math unit computes it for float only)"
            )))
        }
    };
    let b = bld;
    let op = C::from_u32(which).ok_or_else(|| {
        FrontendError::InvalidIl(format!("OpenCL.std has no instruction #{which}"))
    })?;
    Ok(Some(match op {
        // Float, on one Gen operation each.
        C::fma | C::mad => b.push(Op::Mad(arg(0)?, arg(1)?, arg(2)?), ty), // fma, mad
        C::fabs => b.un(UnOp::FAbs, arg(0)?),
        C::sqrt | C::native_sqrt | C::half_sqrt => b.un(UnOp::Sqrt, arg(0)?), // sqrt, native_sqrt, half_sqrt
        C::rsqrt | C::native_rsqrt | C::half_rsqrt if ty == Ty::F64 => {
            // 1 / √x, both correctly rounded (the spec allows 2 ulp for double rsqrt).
            let sq = b.un(UnOp::Sqrt, arg(0)?);
            let one = b.kf(ty, 1.0);
            b.bin(BinOp::FDiv, one, sq)
        }
        C::rsqrt | C::native_rsqrt | C::half_rsqrt => b.un(UnOp::Rsqrt, arg(0)?),
        C::fmax | C::fmax_common => b.bin(BinOp::FMax, arg(0)?, arg(1)?),
        C::fmin | C::fmin_common => b.bin(BinOp::FMin, arg(0)?, arg(1)?),
        C::floor => b.un(UnOp::Floor, arg(0)?),
        C::ceil => b.un(UnOp::Ceil, arg(0)?),
        C::trunc => b.un(UnOp::Trunc, arg(0)?),
        C::rint => b.un(UnOp::Rint, arg(0)?),
        C::round => b.round(arg(0)?),
        C::copysign => b.copysign(arg(0)?, arg(1)?),
        // libclc-15's SPIR-V has no nextafter.
        C::nextafter => b.nextafter(arg(0)?, arg(1)?, half),
        // libclc-15 has no half nan(): a quiet NaN with the code's low nine bits as payload
        // (a half's mantissa below its quiet bit), carried as the float that is that half.
        C::nan if half => {
            let code = arg(0)?;
            let code = match b.ty(code) {
                Ty::I32 => code,
                Ty::I64 => b.conv(ConvOp::Trunc, code, Ty::I32),
                _ => b.conv(ConvOp::ZExt, code, Ty::I32),
            };
            let mask = b.k(Ty::I32, 0x1ff);
            let payload = b.bin(BinOp::And, code, mask);
            let thirteen = b.k(Ty::I32, 13);
            let payload = b.bin(BinOp::Shl, payload, thirteen);
            let quiet = b.k(Ty::I32, 0x7fc0_0000);
            let bits = b.bin(BinOp::Or, payload, quiet);
            b.conv(ConvOp::Bitcast, bits, Ty::F32)
        }
        // nan(uint) and nan(ulong) (libclc-15 has neither): a quiet NaN carrying the code
        // in the mantissa bits below the quiet bit.
        C::nan if matches!(ty, Ty::F32 | Ty::F64) => {
            let it = if ty == Ty::F64 { Ty::I64 } else { Ty::I32 };
            let code = arg(0)?;
            let code = match (b.ty(code), it) {
                (t, u) if t == u => code,
                (Ty::I64, _) => b.conv(ConvOp::Trunc, code, it),
                _ => b.conv(ConvOp::ZExt, code, it),
            };
            let (mask, quiet) = if ty == Ty::F64 {
                (0x0007_ffff_ffff_ffff, 0x7ff8_0000_0000_0000)
            } else {
                (0x003f_ffff, 0x7fc0_0000)
            };
            let mask = b.k(it, mask);
            let payload = b.bin(BinOp::And, code, mask);
            let quiet = b.k(it, quiet);
            let bits = b.bin(BinOp::Or, payload, quiet);
            b.conv(ConvOp::Bitcast, bits, ty)
        }
        C::fclamp => b.fclamp(arg(0)?, arg(1)?, arg(2)?),
        C::sign => b.sign(arg(0)?),
        C::fdim => {
            // fdim: x - y if x > y, +0 if x <= y, NaN if either is.
            let (x, y) = (arg(0)?, arg(1)?);
            let d = b.bin(BinOp::FSub, x, y);
            let le = b.cmp(CmpOp::FOLe, x, y);
            let zero = b.kf(ty, 0.0);
            b.sel(le, zero, d)
        }
        C::maxmag | C::minmag => {
            // maxmag / minmag: the larger / smaller magnitude, else fmax / fmin.
            let (x, y) = (arg(0)?, arg(1)?);
            let (ax, ay) = (b.un(UnOp::FAbs, x), b.un(UnOp::FAbs, y));
            let (pick_x, pick_y) = if op == C::maxmag {
                (b.cmp(CmpOp::FOGt, ax, ay), b.cmp(CmpOp::FOGt, ay, ax))
            } else {
                (b.cmp(CmpOp::FOLt, ax, ay), b.cmp(CmpOp::FOLt, ay, ax))
            };
            let m = b.bin(
                if op == C::maxmag {
                    BinOp::FMax
                } else {
                    BinOp::FMin
                },
                x,
                y,
            );
            let r = b.sel(pick_y, y, m);
            b.sel(pick_x, x, r)
        }
        C::degrees | C::radians => {
            // degrees / radians: one multiply by the constant (the spec allows 2 ulp).
            let k = if op == C::degrees {
                180.0 / std::f64::consts::PI
            } else {
                std::f64::consts::PI / 180.0
            };
            let c = b.kf(ty, k);
            b.bin(BinOp::FMul, arg(0)?, c)
        }
        C::mix => {
            // mix: x + (y - x) * a
            let (x, y, t) = (arg(0)?, arg(1)?, arg(2)?);
            let d = b.bin(BinOp::FSub, y, x);
            b.push(Op::Mad(d, t, x), ty)
        }
        C::step => {
            // step(edge, x): 0 if x < edge, else 1.
            let (e, x) = (arg(0)?, arg(1)?);
            let lt = b.cmp(CmpOp::FOLt, x, e);
            let (zero, one) = (b.kf(ty, 0.0), b.kf(ty, 1.0));
            b.sel(lt, zero, one)
        }
        C::smoothstep => {
            // smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2t).
            let (e0, e1, x) = (arg(0)?, arg(1)?, arg(2)?);
            let num = b.bin(BinOp::FSub, x, e0);
            let den = b.bin(BinOp::FSub, e1, e0);
            let q = b.bin(BinOp::FDiv, num, den);
            let (zero, one) = (b.kf(ty, 0.0), b.kf(ty, 1.0));
            let t = b.fclamp(q, zero, one);
            let (two, three) = (b.kf(ty, 2.0), b.kf(ty, 3.0));
            let tt = b.bin(BinOp::FMul, t, two);
            let s = b.bin(BinOp::FSub, three, tt);
            let t2 = b.bin(BinOp::FMul, t, t);
            b.bin(BinOp::FMul, t2, s)
        }
        // native_ and half_ forms on Gen's math unit (their precision is the device's own;
        // half_ allows 8192 ulp).
        C::native_exp2 | C::half_exp2 => {
            f32_only("exp2")?;
            b.un(UnOp::Exp2, arg(0)?)
        }
        C::native_log2 | C::half_log2 => {
            f32_only("log2")?;
            b.un(UnOp::Log2, arg(0)?)
        }
        C::native_sin | C::half_sin => {
            f32_only("sin")?;
            b.un(UnOp::Sin, arg(0)?)
        }
        C::native_cos | C::half_cos => {
            f32_only("cos")?;
            b.un(UnOp::Cos, arg(0)?)
        }
        C::native_tan | C::half_tan => {
            f32_only("tan")?;
            let (s, c) = (b.un(UnOp::Sin, arg(0)?), b.un(UnOp::Cos, arg(0)?));
            b.bin(BinOp::FDiv, s, c)
        }
        C::native_exp
        | C::half_exp
        | C::native_exp10
        | C::half_exp10
        | C::native_log
        | C::half_log
        | C::native_log10
        | C::half_log10
        | C::native_powr
        | C::half_powr => {
            f32_only("native exp/log")?;
            let x = arg(0)?;
            match op {
                // native_exp, half_exp: 2^(x log2 e)
                C::native_exp | C::half_exp => {
                    let k = b.kf(ty, std::f64::consts::LOG2_E);
                    let y = b.bin(BinOp::FMul, x, k);
                    b.un(UnOp::Exp2, y)
                }
                // native_exp10, half_exp10: 2^(x log2 10)
                C::native_exp10 | C::half_exp10 => {
                    let k = b.kf(ty, std::f64::consts::LOG2_10);
                    let y = b.bin(BinOp::FMul, x, k);
                    b.un(UnOp::Exp2, y)
                }
                // native_log, half_log: log2(x) ln 2
                C::native_log | C::half_log => {
                    let l = b.un(UnOp::Log2, x);
                    let k = b.kf(ty, std::f64::consts::LN_2);
                    b.bin(BinOp::FMul, l, k)
                }
                // native_log10, half_log10
                C::native_log10 | C::half_log10 => {
                    let l = b.un(UnOp::Log2, x);
                    let k = b.kf(ty, std::f64::consts::LOG10_2);
                    b.bin(BinOp::FMul, l, k)
                }
                // native_powr, half_powr: 2^(y log2 x)
                _ => {
                    let l = b.un(UnOp::Log2, x);
                    let y = b.bin(BinOp::FMul, arg(1)?, l);
                    b.un(UnOp::Exp2, y)
                }
            }
        }
        C::native_divide | C::half_divide => b.bin(BinOp::FDiv, arg(0)?, arg(1)?), // native_divide, half_divide
        C::native_recip | C::half_recip => {
            // native_recip, half_recip
            let one = b.kf(ty, 1.0);
            b.bin(BinOp::FDiv, one, arg(0)?)
        }
        // Integer.
        C::s_abs => {
            // s_abs: the magnitude, as the unsigned type of the same width.
            let x = arg(0)?;
            let zero = b.k(ty, 0);
            let neg = b.cmp(CmpOp::Lt { signed: true }, x, zero);
            let nx = b.un(UnOp::Neg, x);
            b.sel(neg, nx, x)
        }
        C::u_abs => arg(0)?, // u_abs
        C::s_abs_diff => b.abs_diff(arg(0)?, arg(1)?, true),
        C::u_abs_diff => b.abs_diff(arg(0)?, arg(1)?, false),
        C::s_add_sat => b.add_sat(arg(0)?, arg(1)?, true),
        C::u_add_sat => b.add_sat(arg(0)?, arg(1)?, false),
        C::s_sub_sat => b.sub_sat(arg(0)?, arg(1)?, true),
        C::u_sub_sat => b.sub_sat(arg(0)?, arg(1)?, false),
        C::s_hadd => b.hadd(arg(0)?, arg(1)?, true, false),
        C::u_hadd => b.hadd(arg(0)?, arg(1)?, false, false),
        C::s_rhadd => b.hadd(arg(0)?, arg(1)?, true, true),
        C::u_rhadd => b.hadd(arg(0)?, arg(1)?, false, true),
        C::s_clamp | C::u_clamp => {
            let signed = op == C::s_clamp;
            let m = b.bin(BinOp::Max { signed }, arg(0)?, arg(1)?);
            b.bin(BinOp::Min { signed }, m, arg(2)?)
        }
        C::clz => b.clz(arg(0)?),
        C::ctz => b.ctz(arg(0)?),
        C::popcount => b.popcount(arg(0)?),
        C::s_mad_hi | C::u_mad_hi => {
            let h = b.mul_hi(arg(0)?, arg(1)?, op == C::s_mad_hi);
            b.bin(BinOp::Add, h, arg(2)?)
        }
        C::u_mad_sat | C::s_mad_sat => {
            // mad_sat: a * b + c saturated, from the exact 64-bit result for 32-bit operands.
            let signed = op == C::s_mad_sat;
            if ty == Ty::I64 {
                return Ok(Some(b.mad_sat64(arg(0)?, arg(1)?, arg(2)?, signed)));
            }
            if ty != Ty::I32 {
                return Err(FrontendError::Unsupported(format!("mad_sat on {ty:?}")));
            }
            let ext = if signed { ConvOp::SExt } else { ConvOp::ZExt };
            let (x, y, z) = (
                b.conv(ext, arg(0)?, Ty::I64),
                b.conv(ext, arg(1)?, Ty::I64),
                b.conv(ext, arg(2)?, Ty::I64),
            );
            let p = b.bin(BinOp::Mul, x, y);
            // p + z cannot overflow 64 bits for 32-bit operands.
            let s = b.bin(BinOp::Add, p, z);
            let (lo, hi) = if signed {
                (i32::MIN as i64 as u64, i32::MAX as u64)
            } else {
                (0, u32::MAX as u64)
            };
            let (klo, khi) = (b.k(Ty::I64, lo), b.k(Ty::I64, hi));
            let s = if signed {
                let m = b.bin(BinOp::Max { signed: true }, s, klo);
                b.bin(BinOp::Min { signed: true }, m, khi)
            } else {
                // Unsigned: s may exceed 2^64 / 2 but never wraps: only the upper bound.
                b.bin(BinOp::Min { signed: false }, s, khi)
            };
            b.conv(ConvOp::Trunc, s, Ty::I32)
        }
        C::s_mul_hi | C::u_mul_hi => b.mul_hi(arg(0)?, arg(1)?, op == C::s_mul_hi),
        C::s_max => b.bin(BinOp::Max { signed: true }, arg(0)?, arg(1)?),
        C::u_max => b.bin(BinOp::Max { signed: false }, arg(0)?, arg(1)?),
        C::s_min => b.bin(BinOp::Min { signed: true }, arg(0)?, arg(1)?),
        C::u_min => b.bin(BinOp::Min { signed: false }, arg(0)?, arg(1)?),
        C::rotate => b.rotate(arg(0)?, arg(1)?),
        C::u_upsample | C::s_upsample => {
            // upsample(hi, lo) = hi << width(lo) | lo, in the result's double width.
            let (hi, lo) = (arg(0)?, arg(1)?);
            let half = b.ty(lo);
            let ext = if op == C::s_upsample {
                ConvOp::SExt
            } else {
                ConvOp::ZExt
            };
            let h = if half == ty { hi } else { b.conv(ext, hi, ty) };
            let l = if half == ty {
                lo
            } else {
                b.conv(ConvOp::ZExt, lo, ty)
            };
            let w = b.k(ty, (half.bytes() * 8) as u64);
            let hs = b.bin(BinOp::Shl, h, w);
            b.bin(BinOp::Or, hs, l)
        }
        C::s_mad24 | C::u_mad24 => {
            // mad24: 24-bit operands multiply exactly in 32 bits.
            let p = b.bin(BinOp::Mul, arg(0)?, arg(1)?);
            b.bin(BinOp::Add, p, arg(2)?)
        }
        C::s_mul24 | C::u_mul24 => b.bin(BinOp::Mul, arg(0)?, arg(1)?),
        // A half is carried as the float holding it: select among its own 16 bits, NaNs'
        // included (mixing bits makes signalling NaNs, which a conversion would quiet).
        C::bitselect if half => {
            let (x, y, z) = (
                b.half_out(arg(0)?),
                b.half_out(arg(1)?),
                b.half_out(arg(2)?),
            );
            let r = b.bitselect(x, y, z);
            b.half_in(r)
        }
        C::bitselect => b.bitselect(arg(0)?, arg(1)?, arg(2)?),
        C::select => {
            // select(a, b, c): b where c (its most significant bit, for vectors) is set.
            let c = arg(2)?;
            let cty = b.ty(c);
            let zero = b.k(cty, 0);
            let pick_b = if vector {
                b.cmp(CmpOp::Lt { signed: true }, c, zero)
            } else {
                b.cmp(CmpOp::Ne, c, zero)
            };
            b.sel(pick_b, arg(1)?, arg(0)?)
        }
        // Everything else comes from the built-in library (`library.rs`).
        _ => return Ok(None),
    }))
}

/// SPIR-V core instructions that are built-in functions: the relational tests and
/// bit counting.
pub(super) fn core_builtin(b: &mut B<'_>, op: rspirv::spirv::Op, a: &[Value]) -> Option<Value> {
    use rspirv::spirv::Op as S;
    let x = *a.first()?;
    Some(match op {
        S::IsInf => b.is_inf(x),
        S::IsFinite => b.is_finite(x),
        S::IsNormal => b.is_normal(x),
        S::SignBitSet => b.sign_bit(x),
        S::BitCount => b.popcount(x),
        S::LessOrGreater => {
            let y = *a.get(1)?;
            b.cmp(CmpOp::FOne, x, y)
        }
        _ => return None,
    })
}

/// `ext_inst` for integer operands narrower than their container (`w` bits, kept
/// zero-extended): signed built-ins see their operands sign-extended, and the built-ins
/// whose result depends on the width (saturation, bit counts, rotation, the high half of
/// a product, upsample) are computed for `w` bits. The caller masks the result to the
/// result type's width.
pub(super) fn ext_inst_narrow(
    b: &mut B<'_>,
    which: u32,
    ty: Ty,
    vector: bool,
    a: &[Value],
    w: u32,
) -> Result<Option<Value>, FrontendError> {
    let Some(op) = C::from_u32(which) else {
        return ext_inst(b, which, ty, vector, false, a);
    };
    let signed = matches!(
        op,
        C::s_abs
            | C::s_abs_diff
            | C::s_add_sat
            | C::s_hadd
            | C::s_rhadd
            | C::s_clamp
            | C::s_mad_hi
            | C::s_mad_sat
            | C::s_max
            | C::s_min
            | C::s_mul_hi
            | C::s_sub_sat
            | C::s_upsample
            | C::s_mad24
            | C::s_mul24
    );
    let mut args: Vec<Value> = a.to_vec();
    if signed {
        let k = b.k(ty, (ty.bytes() * 8 - w) as u64);
        for v in args.iter_mut() {
            if b.ty(*v) == ty {
                let up = b.bin(BinOp::Shl, *v, k);
                *v = b.bin(BinOp::AShr, up, k);
            }
        }
    }
    let arg = |k: usize| {
        args.get(k)
            .copied()
            .ok_or_else(|| FrontendError::InvalidIl(format!("{op:?}: operand {k} missing")))
    };
    // Bounds of a w-bit integer, in the container.
    let (smin, smax, umax) = (
        (-(1i64 << (w - 1))) as u64 & B::max_uint(ty),
        (1u64 << (w - 1)) - 1,
        (1u64 << w) - 1,
    );
    let clamp = |b: &mut B<'_>, v: Value, signed: bool| {
        let (lo, hi) = if signed { (smin, smax) } else { (0, umax) };
        let (klo, khi) = (b.k(ty, lo), b.k(ty, hi));
        let m = b.bin(BinOp::Max { signed: true }, v, klo);
        b.bin(BinOp::Min { signed: true }, m, khi)
    };
    Ok(Some(match op {
        // Exact in the container (w <= 16 < 32), then clamped to w bits.
        C::s_add_sat | C::u_add_sat => {
            let s = b.bin(BinOp::Add, arg(0)?, arg(1)?);
            clamp(b, s, op == C::s_add_sat)
        }
        C::s_sub_sat | C::u_sub_sat => {
            let s = b.bin(BinOp::Sub, arg(0)?, arg(1)?);
            clamp(b, s, op == C::s_sub_sat)
        }
        C::s_mad_sat | C::u_mad_sat => {
            let p = b.bin(BinOp::Mul, arg(0)?, arg(1)?);
            let s = b.bin(BinOp::Add, p, arg(2)?);
            if op == C::s_mad_sat {
                clamp(b, s, true)
            } else {
                // Unsigned w <= 16 bits: a * b + c < 2^32 does not wrap the container but
                // may set its sign bit, so the bound is an unsigned minimum.
                let khi = b.k(ty, umax);
                b.bin(BinOp::Min { signed: false }, s, khi)
            }
        }
        C::s_mul_hi | C::u_mul_hi | C::s_mad_hi | C::u_mad_hi => {
            let s = matches!(op, C::s_mul_hi | C::s_mad_hi);
            let p = b.bin(BinOp::Mul, arg(0)?, arg(1)?);
            let kw = b.k(ty, w as u64);
            let h = b.bin(if s { BinOp::AShr } else { BinOp::LShr }, p, kw);
            if matches!(op, C::s_mad_hi | C::u_mad_hi) {
                b.bin(BinOp::Add, h, arg(2)?)
            } else {
                h
            }
        }
        C::clz => {
            let z = b.un(UnOp::Clz, arg(0)?);
            let k = b.k(ty, (ty.bytes() * 8 - w) as u64);
            b.bin(BinOp::Sub, z, k)
        }
        C::ctz => {
            let x = arg(0)?;
            let t = b.ctz(x);
            let kw = b.k(ty, w as u64);
            b.bin(BinOp::Min { signed: false }, t, kw)
        }
        C::rotate => {
            let (x, n) = (arg(0)?, arg(1)?);
            let m = b.k(ty, (w - 1) as u64);
            let kw = b.k(ty, w as u64);
            let s = b.bin(BinOp::And, n, m);
            let l = b.bin(BinOp::Shl, x, s);
            let rs = b.bin(BinOp::Sub, kw, s);
            let rs = b.bin(BinOp::And, rs, m);
            let r = b.bin(BinOp::LShr, x, rs);
            b.bin(BinOp::Or, l, r)
        }
        C::s_upsample | C::u_upsample => {
            // hi << w | lo, where `w` is the width of hi and lo; lo is zero-extended.
            let (hi, lo) = (a[0], a[1]);
            let hi = if op == C::s_upsample { arg(0)? } else { hi };
            let kw = b.k(ty, w as u64);
            let hs = b.bin(BinOp::Shl, hi, kw);
            b.bin(BinOp::Or, hs, lo)
        }
        _ => return ext_inst(b, which, ty, vector, false, &args),
    }))
}
