//! The sub-group primitives: the sub-group is the hardware thread, its work-items the SIMD
//! lanes. The front end builds every sub-group and work-group function from these three
//! (frontend/collectives.rs): the lane number, a value with the inactive lanes filled, and
//! one lane's value read by all.

use super::*;

impl Sel<'_> {
    /// The lane numbers 0..simd-1 as words: 0..7 from a packed vector immediate (which
    /// holds eight), and in SIMD16 8..15 as those plus 8.
    pub(super) fn lane_words(&mut self) -> VReg {
        let words = self.m.new_vreg(2 * self.simd as u32);
        let mut i = Inst::new(Opcode::Mov, 8);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UW));
        i.srcs[0] = Some(imm(Type::UV, 0x7654_3210));
        self.push(i, Some(VRef { v: words, off: 0 }), [None; 3]);
        if self.simd == 16 {
            let mut i = Inst::new(Opcode::Add, 8);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::UW));
            i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UW));
            i.srcs[1] = Some(imm(Type::UW, 8));
            self.push(
                i,
                Some(VRef { v: words, off: 16 }),
                [Some(VRef { v: words, off: 0 }), None, None],
            );
        }
        words
    }

    /// get_sub_group_local_id(): the lane numbers as dwords.
    pub(super) fn subgroup_local_id(&mut self, v: Value) {
        let words = self.lane_words();
        let (r, _) = self.def_varying(v);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UW));
        self.push(
            i,
            Some(VRef { v: r, off: 0 }),
            [Some(VRef { v: words, off: 0 }), None, None],
        );
    }

    /// `x` where the lane executes, `fill` elsewhere: the fill written to every lane with
    /// NoMask, then `x` under the execution mask.
    pub(super) fn fill_inactive(
        &mut self,
        v: Value,
        x: Value,
        fill: Value,
    ) -> Result<(), IselError> {
        let t = raw_type(self.f.ty(v))?;
        let (r, _) = self.def_varying(v);
        for (src, no_mask) in [(fill, true), (x, false)] {
            let o = self.opnd(src, t)?;
            let mut i = Inst::new(Opcode::Mov, self.simd);
            i.no_mask = no_mask;
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(o.src);
            self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
        }
        Ok(())
    }

    /// Lane `k`'s `x`, as a scalar every lane reads.
    pub(super) fn read_lane(&mut self, v: Value, x: Value, k: u8) -> Result<(), IselError> {
        let t = raw_type(self.f.ty(v))?;
        let o = self.opnd(x, t)?;
        if o.scalar || k >= self.simd {
            // Already the same in every lane (or a lane past the thread's: undefined, any
            // value will do).
            let (r, _) = self.def(v);
            let mut i = Inst::new(Opcode::Mov, 1);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(o.src);
            self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
            return Ok(());
        }
        let Some(xr) = o.vref else {
            return unsupported("internal: a varying value outside a register");
        };
        let (r, _) = self.def(v);
        let mut i = Inst::new(Opcode::Mov, 1);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, t));
        i.srcs[0] = Some(reg_src(0, 0, Region::SCALAR, t));
        let lane = VRef {
            v: xr.v,
            off: xr.off + u32::from(k) * t.size(),
        };
        self.push(i, Some(VRef { v: r, off: 0 }), [Some(lane), None, None]);
        Ok(())
    }
}

impl Sel<'_> {
    /// Each lane's `x` from lane `idx` (modulo the width): `(W) and` and `(W) shl` make
    /// every lane's byte offset into `x` (NoMask, so that the disabled lanes' offsets stay
    /// inside the register too), then the indirect move `mov dst r[a0.0]<1,0>` (VxH: one
    /// address per lane), which emission completes with the `add` that sets a0 from the
    /// offsets and `x`'s register (`mfunc::MInst::is_gather`). a0 has sixteen word
    /// addresses: dwords go in one move, qwords eight lanes at a time (as Mesa's
    /// `generate_shuffle` does).
    pub(super) fn shuffle(&mut self, v: Value, x: Value, idx: Value) -> Result<(), IselError> {
        let t = raw_type(self.f.ty(v))?;
        let ox = self.opnd(x, t)?;
        if ox.scalar {
            // Every lane holds the same: any lane's is the value.
            self.alu(v, Opcode::Mov, t, &[ox], None);
            return Ok(());
        }
        let Some(xr) = ox.vref else {
            return unsupported("internal: a varying value outside a register");
        };
        let simd = self.simd;
        let oi = self.opnd(idx, Type::UD)?;
        let offsets = self.m.new_vreg(4 * u32::from(simd));
        let mut i = Inst::new(Opcode::And, simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        let (src, vref) = if matches!(oi.src, Src::Imm(_)) {
            let o = self.reg_opnd(idx, Type::UD)?;
            (o.src, o.vref)
        } else {
            (oi.src, oi.vref)
        };
        i.srcs = [Some(src), Some(imm(Type::UD, u64::from(simd) - 1)), None];
        let at = VRef { v: offsets, off: 0 };
        self.push(i, Some(at), [vref, None, None]);
        let mut i = Inst::new(Opcode::Shl, simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs = [
            Some(reg_src(0, 0, Region::contiguous(8), Type::UD)),
            Some(imm(Type::UD, u64::from(t.size().trailing_zeros()))),
            None,
        ];
        self.push(i, Some(at), [Some(at), None, None]);
        let (r, _) = self.def_varying(v);
        self.gather(r, xr, offsets, t);
        Ok(())
    }

    /// `r` = per lane, the `t` at byte `offsets[lane]` of register `x` (offsets made with
    /// NoMask, so that every lane's address is inside `x`).
    pub(super) fn gather(&mut self, r: VReg, xr: VRef, offsets: VReg, t: Type) {
        let simd = self.simd;
        let group = if t.size() == 8 { 8 } else { simd };
        for g in 0..simd / group {
            let mut i = Inst::new(Opcode::Mov, group);
            i.chan_offset = g * group;
            i.dst = Some(grf_dst(0, 0, t));
            let mut s = reg_src(
                0,
                0,
                Region {
                    vstride: Region::VXH,
                    width: 1,
                    hstride: 0,
                },
                t,
            );
            if let Src::Reg(sr) = &mut s {
                sr.indirect = Some(crate::isa::Indirect {
                    addr_subreg: 0,
                    offset: 0,
                });
            }
            i.srcs[0] = Some(s);
            let g = u32::from(g) * u32::from(group);
            self.push(
                i,
                Some(VRef {
                    v: r,
                    off: g * t.size(),
                }),
                [
                    Some(xr),
                    Some(VRef {
                        v: offsets,
                        off: 4 * g,
                    }),
                    None,
                ],
            );
        }
    }
}

/// The unsigned integer type that moves a value of `ty` bit for bit.
fn raw_type(ty: Ty) -> Result<Type, IselError> {
    Ok(match ty.bytes() {
        8 => Type::UQ,
        4 | 1 | 2 => Type::UD,
        _ => return unsupported(format!("sub-group operations on {ty:?}")),
    })
}
