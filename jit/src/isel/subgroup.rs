//! The sub-group primitives: the sub-group is the hardware thread, its work-items the SIMD
//! lanes. The front end builds every sub-group and work-group function from these three
//! (frontend/collectives.rs): the lane number, a value with the inactive lanes filled, and
//! one lane's value read by all.

use super::*;

impl Sel<'_> {
    /// The lane numbers 0..simd-1 as words: 0..7 from a packed vector immediate (which
    /// holds eight), then each further group as the ones before it plus their count (8..15
    /// in SIMD16, 16..31 too in SIMD32).
    pub(super) fn lane_words(&mut self) -> VReg {
        let words = self.m.new_vreg(2 * self.simd as u32);
        let mut i = Inst::new(Opcode::Mov, 8);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UW));
        i.srcs[0] = Some(imm(Type::UV, 0x7654_3210));
        self.push(i, Some(VRef { v: words, off: 0 }), [None; 3]);
        let mut n = 8;
        while n < self.simd {
            let mut i = Inst::new(Opcode::Add, n);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::UW));
            i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UW));
            i.srcs[1] = Some(imm(Type::UW, u64::from(n)));
            self.push(
                i,
                Some(VRef {
                    v: words,
                    off: 2 * u32::from(n),
                }),
                [Some(VRef { v: words, off: 0 }), None, None],
            );
            n *= 2;
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

    /// `Op::LaneScan`: Hillis and Steele's scan in log2(width) steps on a register pair that
    /// holds the identity below `x` (`y[0..S)` the identity, `y[S..2S)` the lanes): step k
    /// combines each lane with the one k below it, every lane (NoMask: an inactive lane
    /// holds the identity and carries its neighbours' sums on). At SIMD16 a step is two
    /// SIMD8 halves, the upper first, so that no half reads what this step wrote. The
    /// inclusive prefixes are then `y[S..2S)`, the exclusive ones `y[S-1..2S-1)` (lane 0's
    /// the identity below). IGC scans with register regions the same way, where a fold
    /// from lane 0 took a move, an operation and a select a lane.
    pub(super) fn lane_scan(
        &mut self,
        v: Value,
        op: BinOp,
        x: Value,
        identity: Value,
        exclusive: bool,
    ) -> Result<(), IselError> {
        let ty = self.f.ty(v);
        let (code, cond, t) = match (op, ty) {
            (BinOp::Add, Ty::I32) => (Opcode::Add, None, Type::D),
            (BinOp::Mul, Ty::I32) => (Opcode::Mul, None, Type::D),
            (BinOp::And, Ty::I32) => (Opcode::And, None, Type::UD),
            (BinOp::Or, Ty::I32) => (Opcode::Or, None, Type::UD),
            (BinOp::Xor, Ty::I32) => (Opcode::Xor, None, Type::UD),
            (BinOp::Min { signed }, Ty::I32) => (
                Opcode::Sel,
                Some(CondMod::L),
                if signed { Type::D } else { Type::UD },
            ),
            (BinOp::Max { signed }, Ty::I32) => (
                Opcode::Sel,
                Some(CondMod::Ge),
                if signed { Type::D } else { Type::UD },
            ),
            (BinOp::FMin, Ty::F32) => (Opcode::Sel, Some(CondMod::L), Type::F),
            (BinOp::FMax, Ty::F32) => (Opcode::Sel, Some(CondMod::Ge), Type::F),
            _ => return unsupported(format!("a lane scan of {op:?} on {ty:?}")),
        };
        debug_assert!(crate::ir::lane_scannable(op, ty));
        let s = u32::from(self.simd);
        if !exclusive && self.last_lane_only.contains(&v) {
            return self.lane_tree(v, code, cond, t, x);
        }
        let y = self.m.new_vreg(8 * s);
        for (src, at) in [(identity, 0), (x, 4 * s)] {
            let o = self.opnd(src, t)?;
            let mut i = Inst::new(Opcode::Mov, self.simd);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(o.src);
            self.push(i, Some(VRef { v: y, off: at }), [o.vref, None, None]);
        }
        let lanes = |off: u32| Some(VRef { v: y, off: 4 * off });
        // Lanes from one that is not the first of a GRF: rows of one element, so that the
        // vertical stride crosses the GRF boundary ("a row of Width elements stays in one
        // GRF", PRM Vol 7, region rule 7).
        let shifted = |off: u32| {
            if off.is_multiple_of(8) {
                Region::contiguous(8)
            } else {
                Region {
                    vstride: 1,
                    width: 1,
                    hstride: 0,
                }
            }
        };
        let mut k = 1;
        while k < s {
            for h in (0..s / 8).rev() {
                let mut i = Inst::new(code, 8);
                i.no_mask = true;
                i.chan_offset = (8 * h) as u8;
                i.cond_mod = cond;
                i.dst = Some(grf_dst(0, 0, t));
                i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), t));
                let at = s + 8 * h;
                i.srcs[1] = Some(reg_src(0, 0, shifted(at - k), t));
                self.push(i, lanes(at), [lanes(at), lanes(at - k), None]);
            }
            k *= 2;
        }
        let (r, _) = self.def_varying(v);
        let first = if exclusive { s - 1 } else { s };
        // Every lane (NoMask): a reduction reads the last lane, active or not.
        for h in 0..s / 8 {
            let mut i = Inst::new(Opcode::Mov, 8);
            i.no_mask = true;
            i.chan_offset = (8 * h) as u8;
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(reg_src(0, 0, shifted(first + 8 * h), t));
            self.push(
                i,
                Some(VRef { v: r, off: 32 * h }),
                [lanes(first + 8 * h), None, None],
            );
        }
        Ok(())
    }

    /// An inclusive scan read only at its last lane: the reduction alone, as a tree toward
    /// the last lane (each step folds the lower half of the lanes left into the upper:
    /// log2(width) instructions of 16, 8, ... 1 lanes, every lane (NoMask) as in the scan),
    /// where the scan took two SIMD8 halves a step. The other lanes of `v` hold partial
    /// folds that nothing reads. IGC reduces this way.
    fn lane_tree(
        &mut self,
        v: Value,
        code: Opcode,
        cond: Option<CondMod>,
        t: Type,
        x: Value,
    ) -> Result<(), IselError> {
        let s = u32::from(self.simd);
        let (y, _) = self.def_varying(v);
        let o = self.reg_opnd(x, t)?;
        // The first step reads `x` where it is; the rest read and write `y`.
        let mut n = s;
        while n > 1 {
            let h = n / 2;
            let (lo, hi) = (s - n, s - h);
            let region = if h == 1 {
                Region::SCALAR
            } else {
                Region::contiguous(h.min(8) as u8)
            };
            let mut i = Inst::new(code, h as u8);
            i.no_mask = true;
            i.cond_mod = cond;
            i.dst = Some(grf_dst(0, 0, t));
            let (srcs, refs) = if n == s {
                let mut lo_src = o.src;
                if let Src::Reg(r) = &mut lo_src {
                    if !o.scalar {
                        r.region = region;
                    }
                }
                let hi_ref = o.vref.map(|r| VRef {
                    v: r.v,
                    off: if o.scalar { r.off } else { r.off + 4 * hi },
                });
                ([lo_src, lo_src], [o.vref, hi_ref])
            } else {
                let src = reg_src(0, 0, region, t);
                (
                    [src, src],
                    [
                        Some(VRef { v: y, off: 4 * lo }),
                        Some(VRef { v: y, off: 4 * hi }),
                    ],
                )
            };
            i.srcs[0] = Some(srcs[0]);
            i.srcs[1] = Some(srcs[1]);
            self.push(
                i,
                Some(VRef { v: y, off: 4 * hi }),
                [refs[0], refs[1], None],
            );
            n = h;
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
    /// offsets and `x`'s register (`mir::MInst::is_gather`). a0 has sixteen word
    /// addresses: dwords go sixteen lanes at a time (one move up to SIMD16), qwords eight
    /// (as Mesa's `generate_shuffle` does).
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
        let group = if t.size() == 8 { 8 } else { simd.min(16) };
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
