//! Private arrays in registers (`Op::RegArray`, `passes::private_registers`): `bytes` per
//! lane as rows of one element for every lane (element j of lane l at byte
//! `j * elem * simd + l * elem`, so each row is laid out as a per-lane value is). A load is a
//! VxH-indirect gather at each lane's row; a store writes each row under a compare of the
//! lane's offset with the row's, so only the lanes that address it (and execute) change it.
//! The registers are cleared once at the top of the kernel: they are defined from there on
//! (for the register allocator, around every loop), and an element read before it is
//! written is 0 rather than another variable's bits.

use super::*;

impl Sel<'_> {
    pub(super) fn reg_array(&mut self, v: Value, bytes: u32, elem: u32) {
        let simd = self.simd;
        let r = self.m.new_vreg(bytes * u32::from(simd));
        let t = if elem == 8 { Type::UQ } else { Type::UD };
        for row in 0..bytes / elem {
            let mut i = Inst::new(Opcode::Mov, simd);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(imm(Type::UD, 0));
            self.push(
                i,
                Some(VRef {
                    v: r,
                    off: row * elem * u32::from(simd),
                }),
                [None; 3],
            );
        }
        // Each lane's offset within a row, once (the array is at the top of the kernel, so
        // this dominates every access).
        let lanes = self.lane_words();
        let within = self.m.new_vreg(4 * u32::from(simd));
        let mut i = Inst::new(Opcode::Mul, simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs = [
            Some(reg_src(0, 0, Region::contiguous(8), Type::UW)),
            Some(imm(Type::UW, u64::from(elem))),
            None,
        ];
        self.push(
            i,
            Some(VRef { v: within, off: 0 }),
            [Some(VRef { v: lanes, off: 0 }), None, None],
        );
        self.reg_arrays.insert(v, (r, bytes, elem, within));
        self.array_ptrs.insert(v, (v, Vec::new()));
    }

    /// The array, its size and element size, and the low dword of the byte offset (None:
    /// offset 0) of an address into a register array: a constant where every offset added
    /// is one, else their sum per lane (NoMask: what disabled lanes hold is clamped later).
    #[allow(clippy::type_complexity)]
    fn array_at(
        &mut self,
        addr: Value,
    ) -> Result<((VReg, u32, u32, VReg), Option<Opnd>), IselError> {
        let Some((a, offs)) = self.array_ptrs.get(&addr).cloned() else {
            return unsupported("internal: not an address in a register array");
        };
        let Some(&arr) = self.reg_arrays.get(&a) else {
            return unsupported("internal: a register array without its registers");
        };
        let mut constant = 0u64;
        let mut varying = Vec::new();
        for o in offs {
            match self.f.inst(o).op {
                Op::Const(k) => constant = constant.wrapping_add(k) & 0xffff_ffff,
                _ => varying.push(o),
            }
        }
        if varying.is_empty() {
            return Ok((
                arr,
                (constant != 0).then(|| Opnd {
                    src: imm(Type::UD, constant),
                    vref: None,
                    scalar: true,
                }),
            ));
        }
        if varying.len() == 1 && constant == 0 {
            let o = self.half(varying[0], 0)?;
            return Ok((arr, Some(o)));
        }
        let simd = self.simd;
        let sum = self.m.new_vreg(4 * u32::from(simd));
        let at = VRef { v: sum, off: 0 };
        let mut i = Inst::new(Opcode::Mov, simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(imm(Type::UD, constant));
        self.push(i, Some(at), [None; 3]);
        for o in varying {
            let o = self.half(o, 0)?;
            let mut i = Inst::new(Opcode::Add, simd);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::UD));
            i.srcs = [
                Some(reg_src(0, 0, Region::contiguous(8), Type::UD)),
                Some(o.src),
                None,
            ];
            self.push(i, Some(at), [Some(at), o.vref, None]);
        }
        Ok((
            arr,
            Some(Opnd {
                src: reg_src(0, 0, Region::contiguous(8), Type::UD),
                vref: Some(at),
                scalar: false,
            }),
        ))
    }

    /// Each lane's byte in the array registers: `min(offset, bytes - elem) * simd + lane *
    /// elem` (an offset past the end, undefined in C, stays inside the array). NoMask, so
    /// that the disabled lanes' addresses are inside too.
    fn array_lane_offsets(
        &mut self,
        off: Option<Opnd>,
        bytes: u32,
        elem: u32,
        within: VReg,
    ) -> VReg {
        let simd = self.simd;
        let o = self.m.new_vreg(4 * u32::from(simd));
        let at = VRef { v: o, off: 0 };
        let mut i = Inst::new(Opcode::Mov, simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        let last = u64::from(bytes - elem);
        let mut vref = None;
        match off {
            None => i.srcs[0] = Some(imm(Type::UD, 0)),
            Some(Opnd {
                src: Src::Imm(k), ..
            }) => i.srcs[0] = Some(imm(Type::UD, k.bits.min(last))),
            Some(o) => {
                // sel.l: the unsigned minimum.
                i.op = Opcode::Sel;
                i.cond_mod = Some(CondMod::L);
                i.srcs = [Some(o.src), Some(imm(Type::UD, last)), None];
                vref = o.vref;
            }
        }
        self.push(i, Some(at), [vref, None, None]);
        let mut i = Inst::new(Opcode::Shl, simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs = [
            Some(reg_src(0, 0, Region::contiguous(8), Type::UD)),
            Some(imm(Type::UD, u64::from(simd.trailing_zeros()))),
            None,
        ];
        self.push(i, Some(at), [Some(at), None, None]);
        let mut i = Inst::new(Opcode::Add, simd);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs = [
            Some(reg_src(0, 0, Region::contiguous(8), Type::UD)),
            Some(reg_src(0, 0, Region::contiguous(8), Type::UD)),
            None,
        ];
        self.push(
            i,
            Some(at),
            [Some(at), Some(VRef { v: within, off: 0 }), None],
        );
        o
    }

    pub(super) fn array_load(&mut self, v: Value, addr: Value) -> Result<(), IselError> {
        let ((arr, bytes, elem, within), off) = self.array_at(addr)?;
        let t = if elem == 8 { Type::UQ } else { Type::UD };
        let offsets = self.array_lane_offsets(off, bytes, elem, within);
        let (r, _) = self.def_varying(v);
        self.gather(r, VRef { v: arr, off: 0 }, offsets, t);
        Ok(())
    }

    pub(super) fn array_store(&mut self, addr: Value, value: Value) -> Result<(), IselError> {
        let ((arr, bytes, elem, _), off) = self.array_at(addr)?;
        let simd = self.simd;
        let t = if elem == 8 { Type::UQ } else { Type::UD };
        let x = self.opnd(value, t)?;
        let row_bytes = elem * u32::from(simd);
        // A constant offset writes its one row.
        let constant = match off {
            None => Some(0),
            Some(Opnd {
                src: Src::Imm(k), ..
            }) => Some(k.bits),
            Some(_) => None,
        };
        for row in 0..bytes / elem {
            let at = u64::from(row * elem);
            if constant.is_some_and(|k| k != at) {
                continue;
            }
            let mut predicated = false;
            if let (None, Some(o)) = (constant, off) {
                let mut i = Inst::new(Opcode::Cmp, simd);
                i.cond_mod = Some(CondMod::Z);
                i.dst = Some(null_dst(Type::UD));
                i.srcs = [Some(o.src), Some(imm(Type::UD, at)), None];
                self.push(i, None, [o.vref, None, None]);
                predicated = true;
            }
            let mut i = Inst::new(Opcode::Mov, simd);
            if predicated {
                i.predicate = Some(Predicate {
                    ctrl: PredCtrl::Normal,
                    inverse: false,
                });
            }
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(x.src);
            self.push(
                i,
                Some(VRef {
                    v: arr,
                    off: row * row_bytes,
                }),
                [x.vref, None, None],
            );
        }
        Ok(())
    }
}
