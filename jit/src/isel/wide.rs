//! 64-bit lowering: what Gen9 has no single instruction for on 64-bit integers. A qword
//! operand is read as its two dword halves, and the 64-bit product is the 32×32→64 product
//! of the low halves with the two cross products added into its high dword.

use super::*;

/// One dword per qword lane (`<8;4,2>`: a SIMD8 qword operand's two GRFs), or the one dword
/// of a scalar; the high halves when the reference is offset by 4 bytes.
fn odd_dwords(scalar: bool) -> Region {
    if scalar {
        Region::SCALAR
    } else {
        Region {
            vstride: 8,
            width: 4,
            hstride: 2,
        }
    }
}

impl Sel<'_> {
    /// One dword half (0: low, 1: high) of a 64-bit operand, as a UD source.
    pub(super) fn half(&mut self, x: Value, h: u32) -> Result<Opnd, IselError> {
        if let (None | Some(Loc::Imm(_)), Op::Const(k)) =
            (self.locs.get(&x).copied(), &self.f.inst(x).op)
        {
            let bits = if h == 0 { *k & 0xffff_ffff } else { *k >> 32 };
            return Ok(Opnd {
                src: imm(Type::UD, bits),
                vref: None,
                scalar: true,
            });
        }
        let o = self.reg_opnd(x, Type::UQ)?;
        let mut src = o.src;
        if let Src::Reg(r) = &mut src {
            r.ty = Type::UD;
            r.region = odd_dwords(o.scalar);
            if o.vref.is_none() {
                r.subreg += 4 * h as u8;
            }
        }
        Ok(Opnd {
            src,
            vref: o.vref.map(|r| VRef {
                v: r.v,
                off: r.off + 4 * h,
            }),
            scalar: o.scalar,
        })
    }

    /// 64-bit multiply from 32-bit pieces (Gen9 has no qword × qword):
    /// lo(a)·lo(b) as a full 64-bit product, plus (lo(a)·hi(b) + hi(a)·lo(b)) << 32.
    pub(super) fn mul64(&mut self, v: Value, a: Value, b: Value) -> Result<(), IselError> {
        let (a, b) = if matches!(self.f.inst(a).op, Op::Const(_)) {
            (b, a)
        } else {
            (a, b)
        };
        let (r, scalar) = self.def(v);
        let exec = if scalar { 1 } else { self.simd };
        let al = self.half(a, 0)?;
        let ah = self.half(a, 1)?;
        let bl = self.half(b, 0)?;
        let bh = self.half(b, 1)?;
        let mut i = Inst::new(Opcode::Mul, exec);
        i.no_mask = scalar;
        i.dst = Some(grf_dst(0, 0, Type::UQ));
        i.srcs = [Some(al.src), Some(bl.src), None];
        self.push(i, Some(VRef { v: r, off: 0 }), [al.vref, bl.vref, None]);
        let is_zero = |o: &Opnd| matches!(o.src, Src::Imm(Imm { bits: 0, .. }));
        for (x, y) in [(al, bh), (ah, bl)] {
            if is_zero(&x) || is_zero(&y) {
                continue;
            }
            let (x, y) = if matches!(x.src, Src::Imm(_)) {
                (y, x)
            } else {
                (x, y)
            };
            let t = self
                .m
                .new_vreg(if scalar { 4 } else { 4 * self.simd as u32 });
            let mut i = Inst::new(Opcode::Mul, exec);
            i.no_mask = scalar;
            i.dst = Some(grf_dst(0, 0, Type::UD));
            i.srcs = [Some(x.src), Some(y.src), None];
            self.push(i, Some(VRef { v: t, off: 0 }), [x.vref, y.vref, None]);
            // hi(result) += t
            let mut i = Inst::new(Opcode::Add, exec);
            i.no_mask = scalar;
            let mut d = grf_dst(0, 0, Type::UD);
            d.hstride = if scalar { 1 } else { 2 };
            i.dst = Some(d);
            let hi_region = odd_dwords(scalar);
            i.srcs = [
                Some(reg_src(0, 0, hi_region, Type::UD)),
                Some(reg_src(0, 0, region_for(scalar, Type::UD), Type::UD)),
                None,
            ];
            let hi = VRef { v: r, off: 4 };
            self.push(i, Some(hi), [Some(hi), Some(VRef { v: t, off: 0 }), None]);
        }
        Ok(())
    }

    /// The high dword of a 32×32 product (`mulhi.i32`): the full product into a qword, then
    /// its high dwords moved out. (IGC's `mul` to acc0 and `mach` give the same; the
    /// accumulator is avoided here as everywhere in gencl's code.)
    pub(super) fn mul_hi32(
        &mut self,
        v: Value,
        a: Value,
        b: Value,
        signed: bool,
    ) -> Result<(), IselError> {
        let (a, b) = if matches!(self.f.inst(a).op, Op::Const(_)) {
            (b, a)
        } else {
            (a, b)
        };
        let (t, wide) = if signed {
            (Type::D, Type::Q)
        } else {
            (Type::UD, Type::UQ)
        };
        let (r, scalar) = self.def(v);
        let exec = if scalar { 1 } else { self.simd };
        let oa = self.reg_opnd(a, t)?;
        let ob = self.opnd(b, t)?;
        let p = self
            .m
            .new_vreg(if scalar { 8 } else { 8 * self.simd as u32 });
        let mut i = Inst::new(Opcode::Mul, exec);
        i.no_mask = scalar;
        i.dst = Some(grf_dst(0, 0, wide));
        i.srcs = [Some(oa.src), Some(ob.src), None];
        self.push(i, Some(VRef { v: p, off: 0 }), [oa.vref, ob.vref, None]);
        let mut i = Inst::new(Opcode::Mov, exec);
        i.no_mask = scalar;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        let hi_region = odd_dwords(scalar);
        i.srcs = [Some(reg_src(0, 0, hi_region, Type::UD)), None, None];
        let hi = VRef { v: p, off: 4 };
        self.push(i, Some(VRef { v: r, off: 0 }), [Some(hi), None, None]);
        Ok(())
    }
}
