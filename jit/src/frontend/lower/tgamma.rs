//! tgamma, gencl's own for every type (docs/jit.md, "tgamma").
//!
//! libclc-15 computes tgamma as exp(lgamma(x)), whose relative error is lgamma's absolute
//! one: 19 to 159 ulps in double (OpenCL C allows 16), and finite at 2^-1024 where gamma
//! overflows. Here gamma is a Lanczos sum with g = 8.5 and twelve terms, within 1e-18 of
//! gamma over (0, 190] (`scripts/tgamma_lanczos.py` derives the constants):
//!
//! Γ(a)·a = S(a)·h²/e,  S(a) = P(a) / ((a+1)(a+2)...(a+10)),
//! h = (a+g-½)^((a-½)/2), e = exp(a+g-½),
//!
//! and for negative x = -a the reflection Γ(x) = π / (sinpi(x)·a·Γ(a)). What makes it
//! accurate in double:
//! - P and the denominator are evaluated in double-double (P's coefficients are all
//!   positive, so Horner's rule on a > 0 cancels nothing; in plain double its rounding was
//!   up to 3 ulps of S);
//! - a+g-½ is rounded once, and its rounding error (recovered exactly by TwoSum) is put
//!   back: the power and the exponential move together, so only g/(a+g-½) of it remains,
//!   but that was still 4 ulps at g = 8.5;
//! - h is the half power, so that neither h² nor e overflows before the result does
//!   (a reaches 184 on the negative side, where the result is subnormal).
//!
//! Modelled in double with correctly rounded pow and exp over 100,000 arguments: 5 ulps
//! at most. |x| < 2^-28: Γ(x) = (1 - γx)/x, within an ulp (the next term is x²
//! relative). Floats and halves are computed in double and rounded once.

use super::*;
use builtins::B;

/// g - ½ of the Lanczos sum: exact, as is g = 8.5.
const G_HALF: f64 = 8.0;
const G: f64 = 8.5;

/// P's coefficients, z^0 first, each as a double-double (hi, lo)
/// (`python3 scripts/tgamma_lanczos.py coefficients`).
const P: [(f64, f64); 12] = [
    (30595945707.73385, 1.0302858940590483e-06),
    (40839806335.932495, -1.3790870287425834e-06),
    (24768555728.64465, 5.24154800357143e-07),
    (9009143721.136768, 9.074309142303972e-07),
    (2183655336.992927, -1.1629558230483136e-07),
    (370327432.5013047, -2.9533316557595743e-08),
    (44839082.39567132, -1.2865400954296325e-09),
    (3876057.355573869, -2.178864543281896e-10),
    (234425.95331810892, -9.870571583311007e-12),
    (9447.281784965086, 8.129895188712425e-13),
    (228.31205868097362, 8.155316709977087e-15),
    (2.5066282746310007, -1.8721951667751375e-16),
];

/// (z+1)(z+2)...(z+10), z^0 first: integers, exact in double.
const Q: [f64; 11] = [
    3628800.0, 10628640.0, 12753576.0, 8409500.0, 3416930.0, 902055.0, 157773.0, 18150.0, 1320.0,
    55.0, 1.0,
];

/// Euler's constant γ.
const EULER: f64 = 0.577_215_664_901_532_9;

/// Below this |x|, Γ(x) = 1/x - γ to within an ulp.
const TINY: f64 = 3.725_290_298_461_914e-9; // 2^-28

/// Past this, Γ overflows for every x (Γ(171.6244) is the largest double; between the two
/// the sum itself overflows at the right place).
const OVERFLOW: f64 = 172.0;

/// The largest n whose Γ(n) = (n-1)! is below 2^52: a double's step is at most half there,
/// so the integer nearest a sum within a few ulps is the factorial.
const FACTORIAL_EXACT: f64 = 18.0;

/// Below this, |Γ(x)| of every non-integer double is under half the smallest subnormal
/// (-183 + 2^-45 still gives 3e-323).
const UNDERFLOW: f64 = -184.0;

impl Lowerer<'_, '_> {
    /// tgamma of `args` (scalars or vectors of double, float or half): each component
    /// through `tgamma_f64`. `None` for operand types tgamma has no meaning for.
    pub(super) fn tgamma(
        &mut self,
        i: &dr::Instruction,
        codes: &[library::Param],
        args: &[Sym],
        cur: Block,
    ) -> Result<Option<(Block, Vec<Value>)>, FrontendError> {
        use library::Param;
        let narrow = match codes {
            [Param::Scalar("d") | Param::Vector(_, "d")] => false,
            [Param::Scalar("f" | "Dh") | Param::Vector(_, "f" | "Dh")] => true,
            _ => return Ok(None),
        };
        let [Sym::Vals(xs)] = args else {
            return Ok(None);
        };
        let half_result = i.result_type.is_some_and(|t| self.info.is_half(t));
        let mut b = cur;
        let mut out = Vec::new();
        for &x in xs {
            let x = if narrow {
                self.f.push(b, Op::Conv(ConvOp::FConv, x), Ty::F64)
            } else {
                x
            };
            let (next, r) = self.tgamma_f64(x, b)?;
            b = next;
            out.push(match (narrow, half_result) {
                (false, _) => r,
                (true, false) => self.f.push(b, Op::Conv(ConvOp::FConv, r), Ty::F32),
                (true, true) => {
                    let f = self.f.push(b, Op::Conv(ConvOp::FConv, r), Ty::F32);
                    self.round_half(b, f)
                }
            });
        }
        Ok(Some((b, out)))
    }

    /// Γ(x) of one double; the block the code goes on in after the library's exp, pow and
    /// sinpi, and the result.
    fn tgamma_f64(&mut self, x: Value, cur: Block) -> Result<(Block, Value), FrontendError> {
        let d = Ty::F64;
        let mut bld = B {
            f: &mut *self.f,
            b: cur,
        };
        let a = bld.push_un(UnOp::FAbs, x);
        let gh = bld.kf(d, G_HALF);
        let zgh = bld.bin(BinOp::FAdd, a, gh);
        // zgh's rounding error (TwoSum: exact) and what it would change: Γ goes as
        // zgh^(a-½)/e^zgh, whose relative derivative in zgh is (a-½)/zgh - 1 = -g/zgh.
        let lo = bld.two_sum_error(a, gh, zgh);
        let g = bld.kf(d, G);
        let t = bld.bin(BinOp::FMul, lo, g);
        let t = bld.bin(BinOp::FDiv, t, zgh);
        let one = bld.kf(d, 1.0);
        let corr = bld.bin(BinOp::FSub, one, t);
        let half = bld.kf(d, 0.5);
        let y = bld.bin(BinOp::FSub, a, half);
        let y2 = bld.bin(BinOp::FMul, y, half);
        // S(a) = P(a)/Q(a) in double-double, rounded once.
        let p = bld.dd_horner(&P, a);
        let q_dd: Vec<(f64, f64)> = Q.iter().map(|&c| (c, 0.0)).collect();
        let q = bld.dd_horner(&q_dd, a);
        let s = bld.dd_div(p, q);
        let s = bld.bin(BinOp::FMul, s, corr);
        let (b, e) = self.library_f64("exp", &[zgh], cur)?;
        let (b, h) = self.library_f64("pow", &[zgh, y2], b)?;
        let (b, sp) = self.library_f64("sinpi", &[x], b)?;
        let mut bld = B { f: &mut *self.f, b };
        // x > 0: Γ(a) = (h/e)·h·(S/a).
        let he = bld.bin(BinOp::FDiv, h, e);
        let heh = bld.bin(BinOp::FMul, he, h);
        let sa = bld.bin(BinOp::FDiv, s, a);
        let pos = bld.bin(BinOp::FMul, heh, sa);
        // x < 0: Γ(x) = π / (sinpi(x)·a·Γ(a)) = ((π/(sinpi(x)·S·h))·e)/h, ordered so that
        // only the last division leaves the normal range.
        let ss = bld.bin(BinOp::FMul, sp, s);
        let den = bld.bin(BinOp::FMul, ss, h);
        let pi = bld.kf(d, std::f64::consts::PI);
        let neg = bld.bin(BinOp::FDiv, pi, den);
        let neg = bld.bin(BinOp::FMul, neg, e);
        let neg = bld.bin(BinOp::FDiv, neg, h);
        // |x| < 2^-28: (1 - γx)/x, which is ±inf at ±0 and past 2^-1024.
        let mg = bld.kf(d, -EULER);
        let num = bld.push_op(Op::Mad(mg, x, one), d);
        let small = bld.bin(BinOp::FDiv, num, x);

        let zero = bld.kf(d, 0.0);
        let is_neg = bld.cmp_op(CmpOp::FOLt, x, zero);
        let r = bld.sel_op(is_neg, neg, pos);
        let tiny = bld.kf(d, TINY);
        let is_tiny = bld.cmp_op(CmpOp::FOLt, a, tiny);
        let r = bld.sel_op(is_tiny, small, r);
        let big = bld.kf(d, OVERFLOW);
        let over = bld.cmp_op(CmpOp::FOGt, x, big);
        let inf = bld.kf(d, f64::INFINITY);
        let r = bld.sel_op(over, inf, r);
        let r = bld.gamma_underflow(x, r, UNDERFLOW);
        let fl = bld.push_un(UnOp::Floor, x);
        let whole = bld.cmp_op(CmpOp::FOEq, fl, x);
        // Γ(n) = (n-1)! exactly where that is below 2^52 (n ≤ 18), so that a factorial
        // computed as tgamma(n + 1) is an integer.
        let ri = bld.push_un(UnOp::Rint, r);
        let top = bld.kf(d, FACTORIAL_EXACT);
        let low = bld.cmp_op(CmpOp::FOLe, x, top);
        let at_factorial = bld.push_op(Op::Bin(BinOp::And, whole, low), Ty::Bool);
        let ge1 = bld.cmp_op(CmpOp::FOGe, x, one);
        let at_factorial = bld.push_op(Op::Bin(BinOp::And, at_factorial, ge1), Ty::Bool);
        let r = bld.sel_op(at_factorial, ri, r);
        // Negative integers and -inf: NaN ("tgamma(x) returns a NaN for x a negative
        // integer", "tgamma(-inf) returns a NaN"; OpenCL C 3.0, 7.5.2 special values).
        let pole = bld.push_op(Op::Bin(BinOp::And, is_neg, whole), Ty::Bool);
        let nan = bld.kf(d, f64::NAN);
        let r = bld.sel_op(pole, nan, r);
        Ok((b, r))
    }

    /// The library's double `name` (exp, pow, sinpi) on scalars, inlined at `cur`.
    fn library_f64(
        &mut self,
        name: &str,
        args: &[Value],
        cur: Block,
    ) -> Result<(Block, Value), FrontendError> {
        let codes = vec![library::Param::Scalar("d"); args.len()];
        let mangled = library::mangle(name, &codes);
        let syms: Vec<Sym> = args.iter().map(|&v| Sym::Vals(vec![v])).collect();
        let Some(callee) = self.callee(&mangled, &syms)? else {
            return Err(FrontendError::Unsupported(format!(
                "tgamma needs the library's {mangled}, which it does not have"
            )));
        };
        let (b, vals) = match callee {
            Callee::Template(t) => self.splice(&t, syms, cur)?,
            Callee::Slice(slice) => self.inline_slice(slice, syms, cur)?,
        };
        match vals[..] {
            [v] => Ok((b, v)),
            _ => invalid("a scalar library function with other than one result"),
        }
    }
}

impl B<'_> {
    /// The rounding error of `s = a + b` (Knuth's TwoSum: exact, whatever the order of
    /// magnitudes): a + b = s + error.
    fn two_sum_error(&mut self, a: Value, b: Value, s: Value) -> Value {
        let bv = self.bin(BinOp::FSub, s, a);
        let av = self.bin(BinOp::FSub, s, bv);
        let db = self.bin(BinOp::FSub, b, bv);
        let da = self.bin(BinOp::FSub, a, av);
        self.bin(BinOp::FAdd, da, db)
    }

    /// Σ c_k·x^k in double-double (`c` z^0 first; x a double > 0): (hi, lo) with
    /// hi = hi + lo rounded. Each step is TwoProduct (by a fused multiply-add) and TwoSum.
    fn dd_horner(&mut self, c: &[(f64, f64)], x: Value) -> (Value, Value) {
        let d = Ty::F64;
        let (top, rest) = c.split_last().expect("a polynomial has a coefficient");
        let mut hi = self.kf(d, top.0);
        let mut lo = self.kf(d, top.1);
        for &(ch, cl) in rest.iter().rev() {
            let ph = self.bin(BinOp::FMul, hi, x);
            let nph = self.push_un(UnOp::FNeg, ph);
            let pl = self.push_op(Op::Mad(hi, x, nph), d);
            let pl = self.push_op(Op::Mad(lo, x, pl), d);
            let kh = self.kf(d, ch);
            let sh = self.bin(BinOp::FAdd, ph, kh);
            let sl = self.two_sum_error(ph, kh, sh);
            let sl = self.bin(BinOp::FAdd, sl, pl);
            let sl = if cl == 0.0 {
                sl
            } else {
                let kl = self.kf(d, cl);
                self.bin(BinOp::FAdd, sl, kl)
            };
            // FastTwoSum: |sh| ≥ |sl|.
            hi = self.bin(BinOp::FAdd, sh, sl);
            let back = self.bin(BinOp::FSub, hi, sh);
            lo = self.bin(BinOp::FSub, sl, back);
        }
        (hi, lo)
    }

    /// (ph + pl) / (qh + ql), rounded once more than a division: q = ph/qh corrected by
    /// the remainder ph - q·qh (exact by a fused multiply-add) and the low parts.
    fn dd_div(&mut self, (ph, pl): (Value, Value), (qh, ql): (Value, Value)) -> Value {
        let d = Ty::F64;
        let q = self.bin(BinOp::FDiv, ph, qh);
        let nq = self.push_un(UnOp::FNeg, q);
        let r = self.push_op(Op::Mad(nq, qh, ph), d);
        let r = self.bin(BinOp::FAdd, r, pl);
        let r = self.push_op(Op::Mad(nq, ql, r), d);
        let c = self.bin(BinOp::FDiv, r, qh);
        self.bin(BinOp::FAdd, q, c)
    }
}
