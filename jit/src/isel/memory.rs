//! Message lowering: loads and stores become data-port messages. Global and constant
//! pointers take the A64 untyped surface messages (dwords and qwords, up to four channels)
//! and the A64 byte scattered ones (8- and 16-bit values, carried zero-extended in dwords).
//! Local pointers are 32-bit offsets into the work-group's shared local memory, reached
//! through binding-table index 254 with the same shapes of message: untyped surface
//! read/write (DC1) for dwords and qwords, byte scattered read/write (DC0) for bytes and
//! words, as IGC does. Private pointers are refused here (variables that mem2reg could not
//! promote). A buffer argument's addresses that only address memory take its binding-table
//! surface with the same messages and 32-bit offsets (`Port::Surface`, docs/jit.md).

use super::*;

impl Sel<'_> {
    /// 64-bit per-lane addresses for a message (the A64 address payload).
    pub(super) fn address_payload(&mut self, addr: Value) -> Result<VRef, IselError> {
        let o = self.opnd(addr, Type::UQ)?;
        if !o.scalar {
            if let Some(r) = o.vref {
                return Ok(r);
            }
        }
        let r = self.m.new_vreg(8 * self.simd as u32);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UQ));
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
        Ok(VRef { v: r, off: 0 })
    }

    /// The 32-bit offset of a local, private or buffer-surface address: the low dword of
    /// the pointer, the offset itself where it is kept in 32 bits (`slm32`, `surf`), or 0 at
    /// a buffer argument reached through its surface.
    fn offset32(&mut self, addr: Value) -> Result<Opnd, IselError> {
        if self.slm32.contains(&addr) || self.surf.contains_key(&addr) {
            self.opnd(addr, Type::UD)
        } else if self.argument_surface(addr).is_some() {
            // A buffer argument itself: offset 0 into its surface.
            Ok(Opnd {
                src: imm(Type::UD, 0),
                vref: None,
                scalar: true,
            })
        } else {
            self.half(addr, 0)
        }
    }

    /// A `__local` address read only as an address: the pointer's low dword plus the
    /// offset's, one dword a lane (or one for a uniform address). `passes::narrow` leaves
    /// the offset a 32-bit value zero-extended where it can.
    pub(super) fn slm_offset(&mut self, v: Value, p: Value, off: Value) -> Result<(), IselError> {
        let base = self.half(p, 0)?;
        let off_value = off;
        let off = match self.f.inst(off).op {
            Op::Conv(ConvOp::ZExt | ConvOp::SExt, x) if self.f.ty(x) == Ty::I32 => {
                self.opnd(x, Type::UD)?
            }
            _ => self.half(off, 0)?,
        };
        // A `__local` array at SLM offset 0: the address is the offset itself.
        if let (Src::Imm(x), Some(r)) = (&base.src, off.vref) {
            if x.bits & 0xffff_ffff == 0 && r.off == 0 && off.scalar == self.is_uniform(v) {
                let offset = match self.f.inst(off_value).op {
                    Op::Conv(ConvOp::ZExt | ConvOp::SExt, x) if self.f.ty(x) == Ty::I32 => x,
                    _ => off_value,
                };
                // Not a phi's register: the edges into its block write it again, and an
                // address read after such an edge would see the next value.
                if self.f.ty(offset) == Ty::I32 && !matches!(self.f.inst(offset).op, Op::Phi(_)) {
                    if let Some(l) = self.locs.get(&offset).copied() {
                        self.locs.insert(v, l);
                        return Ok(());
                    }
                }
            }
        }
        if let (Src::Imm(x), Src::Imm(y)) = (&base.src, &off.src) {
            // A constant address (a `__local` array at a fixed offset, a constant index).
            let sum = (x.bits.wrapping_add(y.bits)) & 0xffff_ffff;
            self.locs.insert(v, Loc::Imm(sum));
            return Ok(());
        }
        let scalar = self.is_uniform(v);
        let r = self
            .m
            .new_vreg(if scalar { 4 } else { 4 * self.simd as u32 });
        self.locs.insert(v, Loc::V(r, scalar));
        // An immediate goes last.
        let (a, b) = if matches!(base.src, Src::Imm(_)) {
            (off, base)
        } else {
            (base, off)
        };
        let mut i = Inst::new(Opcode::Add, if scalar { 1 } else { self.simd });
        i.no_mask = scalar;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs = [Some(a.src), Some(b.src), None];
        self.push(i, Some(VRef { v: r, off: 0 }), [a.vref, b.vref, None]);
        Ok(())
    }

    /// A buffer address read only as an address (`surf`): the offset's low dword, one a
    /// lane (or one for a uniform address), the argument's surface being the base.
    /// `passes::narrow` leaves the offset a 32-bit value extended where it can.
    pub(super) fn surface_offset(&mut self, v: Value, off: Value) -> Result<(), IselError> {
        let off32 = match self.f.inst(off).op {
            Op::Conv(ConvOp::ZExt | ConvOp::SExt, x) if self.f.ty(x) == Ty::I32 => Some(x),
            _ => None,
        };
        // The 32-bit offset's own register, where it is not a phi's (the edges into its
        // block write that again, and an access after such an edge would see the next value).
        if let Some(x) = off32 {
            if !matches!(self.f.inst(x).op, Op::Phi(_)) {
                if let Some(l) = self.locs.get(&x).copied() {
                    let lane_major = match l {
                        Loc::V(_, scalar) => scalar == self.is_uniform(v),
                        Loc::Imm(_) => true,
                        _ => false,
                    };
                    if lane_major {
                        self.locs.insert(v, l);
                        return Ok(());
                    }
                }
            }
        }
        let o = match off32 {
            Some(x) => self.opnd(x, Type::UD)?,
            None => self.half(off, 0)?,
        };
        if let Src::Imm(x) = &o.src {
            self.locs.insert(v, Loc::Imm(x.bits & 0xffff_ffff));
            return Ok(());
        }
        let scalar = self.is_uniform(v);
        let r = self
            .m
            .new_vreg(if scalar { 4 } else { 4 * self.simd as u32 });
        self.locs.insert(v, Loc::V(r, scalar));
        let mut i = Inst::new(Opcode::Mov, if scalar { 1 } else { self.simd });
        i.no_mask = scalar;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
        Ok(())
    }

    /// The binding-table index of buffer argument `addr` if it is one reached through its
    /// surface (`Layout::buffer_btis`).
    fn argument_surface(&self, addr: Value) -> Option<u8> {
        let k = crate::analysis::addresses::buffer_arg(self.f, addr)?;
        self.layout.buffer_btis.get(k as usize).copied().flatten()
    }

    pub(super) fn space_of(&self, addr: Value) -> Space {
        match self.f.ty(addr) {
            Ty::Ptr(s) => s,
            _ => Space::Global,
        }
    }

    /// The port a pointer's accesses go through.
    fn port(&self, addr: Value) -> Result<Port, IselError> {
        if let Some(b) = self
            .surf
            .get(&addr)
            .copied()
            .or_else(|| self.argument_surface(addr))
        {
            return Ok(Port::Surface(b));
        }
        match self.space_of(addr) {
            Space::Global | Space::Constant => Ok(Port::A64),
            Space::Local => Ok(Port::Slm),
            Space::Private => Ok(Port::Scratch),
            s => unsupported(format!("memory access in the {s:?} address space")),
        }
    }

    /// The address of the lane's private memory: the thread's scratch space (r0.5 bits
    /// 31:10, relative to the General State Base Address as stateless messages are), past
    /// its first `abi::PRIVATE_NULL_GUARD` bytes (so that no private object is at address 0,
    /// NULL), plus the lane's area, lanes one after another at `private_bytes` each.
    pub(super) fn private_base(&mut self, v: Value) {
        let per = self.f.private_bytes;
        let scratch = self.m.new_vreg(4);
        let mut i = Inst::new(Opcode::And, 1);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 20, Region::SCALAR, Type::UD));
        i.srcs[1] = Some(imm(Type::UD, 0xFFFF_FC00));
        self.push(i, Some(VRef { v: scratch, off: 0 }), [None; 3]);
        let mut i = Inst::new(Opcode::Add, 1);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::SCALAR, Type::UD));
        i.srcs[1] = Some(imm(Type::UD, u64::from(crate::abi::PRIVATE_NULL_GUARD)));
        self.push(
            i,
            Some(VRef { v: scratch, off: 0 }),
            [Some(VRef { v: scratch, off: 0 }), None, None],
        );
        let lanes = self.lane_words();
        let off = self.m.new_vreg(4 * self.simd as u32);
        let mut i = Inst::new(Opcode::Mul, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UW));
        i.srcs[1] = Some(imm(Type::UW, u64::from(per)));
        self.push(
            i,
            Some(VRef { v: off, off: 0 }),
            [Some(VRef { v: lanes, off: 0 }), None, None],
        );
        let mut i = Inst::new(Opcode::Add, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        i.srcs[1] = Some(reg_src(0, 0, Region::SCALAR, Type::UD));
        self.push(
            i,
            Some(VRef { v: off, off: 0 }),
            [
                Some(VRef { v: off, off: 0 }),
                Some(VRef { v: scratch, off: 0 }),
                None,
            ],
        );
        let (r, _) = self.def_varying(v);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UQ));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        self.push(
            i,
            Some(VRef { v: r, off: 0 }),
            [Some(VRef { v: off, off: 0 }), None, None],
        );
    }

    /// The address payload of a message on `port`: 64-bit addresses (A64), or the low
    /// dword of each lane's local or private pointer (SLM offsets, stateless offsets).
    fn payload(&mut self, port: Port, addr: Value) -> Result<VRef, IselError> {
        if port == Port::A64 {
            return self.address_payload(addr);
        }
        let o = self.offset32(addr)?;
        // A per-lane 32-bit address is its own payload; the low dwords of qwords are
        // strided and are packed first.
        let own = self.slm32.contains(&addr) || self.surf.contains_key(&addr);
        if let (true, false, Some(r)) = (own, o.scalar, o.vref) {
            return Ok(r);
        }
        let r = self.m.new_vreg(4 * self.simd as u32);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
        Ok(VRef { v: r, off: 0 })
    }

    /// A byte or word per lane with the A64 byte scattered read; the data port leaves
    /// it in the low bytes of a dword, which is masked to keep the value zero-extended
    /// (unless every reader shifts the high bytes out: `shifted_loads`).
    pub(super) fn load_narrow(
        &mut self,
        v: Value,
        addr: Value,
        bytes: u32,
    ) -> Result<(), IselError> {
        let port = self.port(addr)?;
        let payload = self.payload(port, addr)?;
        let raw = self.shifted_loads.contains(&v);
        let resp = if raw {
            self.def_varying(v).0
        } else {
            self.m.new_vreg(4 * self.simd as u32)
        };
        self.lane_message(
            |w| {
                let parts = match port {
                    Port::A64 => send::a64_byte_scattered_read_desc(u32::from(w), bytes),
                    _ => send::byte_scattered_read_desc(port.bti(), u32::from(w), bytes),
                };
                let mut i = send::message(Opcode::Send, w, parts);
                i.dst = Some(grf_dst(0, 0, Type::UD));
                i
            },
            Some(VRef { v: resp, off: 0 }),
            [Some(payload), None],
            [4, port.address_bytes(), 0],
        );
        if raw {
            return Ok(());
        }
        let o = Opnd {
            src: reg_src(0, 0, region_for(false, Type::UD), Type::UD),
            vref: Some(VRef { v: resp, off: 0 }),
            scalar: false,
        };
        let mask = Opnd {
            src: imm(Type::UD, (1u64 << (8 * bytes)) - 1),
            vref: None,
            scalar: true,
        };
        let (r, _) = self.def_varying(v);
        let mut i = Inst::new(Opcode::And, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs = [Some(o.src), Some(mask.src), None];
        self.push(i, Some(VRef { v: r, off: 0 }), [o.vref, None, None]);
        Ok(())
    }

    /// The low byte or word of each lane's dword, with the A64 byte scattered write.
    pub(super) fn store_narrow(
        &mut self,
        addr: Value,
        value: Value,
        bytes: u32,
    ) -> Result<(), IselError> {
        let port = self.port(addr)?;
        let payload = self.payload(port, addr)?;
        let data = self.m.new_vreg(4 * self.simd as u32);
        let o = self.opnd(value, Type::UD)?;
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: data, off: 0 }), [o.vref, None, None]);
        self.write_msg(
            |w| match port {
                Port::A64 => send::a64_byte_scattered_write_desc(w, bytes),
                _ => send::byte_scattered_write_desc(port.bti(), w, bytes),
            },
            port,
            payload,
            data,
            1,
        );
        Ok(())
    }

    /// A data-port write (`sends`) on `port`: the address payload, then `data`, `planes`
    /// dwords a lane laid out plane after plane (no response). `desc` gives the message's
    /// descriptor at a SIMD width.
    pub(super) fn write_msg(
        &mut self,
        desc: impl Fn(u32) -> send::DescParts,
        port: Port,
        payload: VRef,
        data: VReg,
        planes: u32,
    ) {
        let data = self.in_halves(data, planes);
        self.lane_message(
            |w| send::message(Opcode::Sends, w, desc(u32::from(w))),
            None,
            [Some(payload), Some(VRef { v: data, off: 0 })],
            [0, port.address_bytes(), 4 * planes],
        );
    }

    /// A per-lane untyped write of `channels` dwords a lane (`data`, plane after plane) at
    /// the addresses of `payload`.
    fn untyped_write(&mut self, port: Port, payload: VRef, data: VReg, channels: u32) {
        self.write_msg(
            |w| match port {
                Port::A64 => send::a64_untyped_write_desc(w, channels),
                _ => send::untyped_write_desc(port.bti(), w, channels),
            },
            port,
            payload,
            data,
            channels,
        );
    }

    /// A per-lane untyped read of `channels` dwords a lane at the addresses of `payload`;
    /// the reply's register (all lanes' channel 0, then channel 1, ...).
    fn untyped_read(&mut self, port: Port, payload: VRef, channels: u32) -> VReg {
        let simd = u32::from(self.simd);
        let resp = self.m.new_vreg(4 * simd * channels);
        self.lane_message(
            |w| {
                let parts = match port {
                    Port::A64 => send::a64_untyped_read_desc(u32::from(w), channels),
                    _ => send::untyped_read_desc(port.bti(), u32::from(w), channels),
                };
                let mut i = send::message(Opcode::Sends, w, parts);
                i.dst = Some(grf_dst(0, 0, Type::UD));
                // No second payload: src1 is the null register.
                i.srcs[1] = Some(arf_src(0, Region::contiguous(8), Type::UD));
                i
            },
            Some(VRef { v: resp, off: 0 }),
            [Some(payload), None],
            [4 * channels, port.address_bytes(), 0],
        );
        self.in_halves(resp, channels)
    }

    /// A data-port message at the kernel's width: one message, or in a SIMD32 kernel two
    /// SIMD16 ones, `(16|M0)` and `(16|M16)` (Gen9's data port takes at most 16 lanes a
    /// message, and IGC's SIMD32 code splits each access so), each with its half of every
    /// operand. `make` builds the message at a width; `per_lane` is the bytes a lane has in
    /// the reply, the address payload and the data payload, each laid out with lanes 0-15's
    /// bytes before lanes 16-31's (`in_halves` has a multi-plane operand laid out so).
    pub(super) fn lane_message(
        &mut self,
        make: impl Fn(u8) -> Inst,
        dst: Option<VRef>,
        srcs: [Option<VRef>; 2],
        per_lane: [u32; 3],
    ) {
        if self.simd <= 16 {
            self.push(make(self.simd), dst, [srcs[0], srcs[1], None]);
            return;
        }
        for h in 0..2u32 {
            let mut i = make(16);
            i.chan_offset = 16 * h as u8;
            let at = |r: Option<VRef>, per: u32| {
                r.map(|r| VRef {
                    v: r.v,
                    off: r.off + 16 * per * h,
                })
            };
            self.push(
                i,
                at(dst, per_lane[0]),
                [at(srcs[0], per_lane[1]), at(srcs[1], per_lane[2]), None],
            );
        }
    }

    /// In a SIMD32 kernel, message operand `r` of `planes` planes of dwords: selection reads
    /// and writes it plane after plane (all lanes' plane 0, then plane 1, ...), and the
    /// messages `lane_message` sends want lanes 0-15's planes, then lanes 16-31's, so every
    /// other reference to it is moved there once the code is split into halves
    /// (`width::to_half_major`): no copies. Returns `r`.
    pub(super) fn in_halves(&mut self, r: VReg, planes: u32) -> VReg {
        if self.simd == 32 && planes > 1 {
            self.half_major.push((r, planes));
        }
        r
    }

    pub(super) fn load(&mut self, v: Value, addr: Value, ty: Ty) -> Result<(), IselError> {
        let port = self.port(addr)?;
        let size = ty.bytes();
        if size != 4 && size != 8 {
            return unsupported(format!("loads of {ty:?}"));
        }
        if self.is_uniform(v) && port != Port::Scratch {
            return self.load_uniform(v, addr, port, size / 4);
        }
        let payload = self.payload(port, addr)?;
        let channels = size / 4;
        let resp = self.untyped_read(port, payload, channels);
        if channels == 1 {
            self.locs.insert(v, Loc::V(resp, false));
        } else {
            // The response holds all low dwords, then all high dwords: interleave into qwords.
            let plane = 4 * u32::from(self.simd);
            self.qword_from_planes(v, resp, [0, plane]);
        }
        Ok(())
    }

    /// A load from a uniform address (uniform.rs): one SIMD8 message without the execution
    /// mask, every channel at the same address, so that channel 0's reply is there whichever
    /// lanes are enabled; the value is read from it as a scalar. The address is one the
    /// kernel reads here (at least one lane runs this block), so reading it on disabled
    /// channels reads nothing the kernel would not.
    fn load_uniform(
        &mut self,
        v: Value,
        addr: Value,
        port: Port,
        channels: u32,
    ) -> Result<(), IselError> {
        let resp = self.uniform_read(addr, port, 1, channels)?;
        if channels == 1 {
            self.locs.insert(v, Loc::Part(resp, 0, true));
            return Ok(());
        }
        // A qword: its low dword is channel 0's first, its high dword channel 1's.
        self.qword_from_dwords(v, resp, [0, 32]);
        Ok(())
    }

    /// Uniform qword `v` put together from the dwords at byte offsets `at` (low, high) of
    /// a uniform message's reply `resp`.
    fn qword_from_dwords(&mut self, v: Value, resp: VReg, at: [u32; 2]) {
        let (r, _) = self.def(v);
        for (h, off) in (0u32..).zip(at) {
            let mut i = Inst::new(Opcode::Mov, 1);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::UD));
            i.srcs[0] = Some(reg_src(0, 0, Region::SCALAR, Type::UD));
            self.push(
                i,
                Some(VRef { v: r, off: 4 * h }),
                [Some(VRef { v: resp, off }), None, None],
            );
        }
    }

    /// Loads of consecutive dwords as one message: per lane, `g.dwords` channels, each
    /// load's value its channel of the response; uniform, `uniform_group`.
    pub(super) fn load_group(&mut self, g: &super::coalesce::LoadGroup) -> Result<(), IselError> {
        if g.uniform {
            return self.uniform_group(g);
        }
        let port = self.port(g.addr)?;
        let payload = self.payload(port, g.addr)?;
        let plane = 4 * u32::from(self.simd);
        let resp = self.untyped_read(port, payload, g.dwords);
        use super::coalesce::Unit;
        match g.unit {
            Unit::Dword => {
                for (v, c) in &g.members {
                    self.locs.insert(*v, Loc::Part(resp, plane * c, false));
                }
            }
            Unit::Byte | Unit::Word => {
                // Member k: `bits` bits at 8 (k % per) bytes of dword k / per, zero-extended:
                // the low one masked, the high one shifted down, one between both.
                let (per, bits) = if g.unit == Unit::Byte {
                    (4, 8)
                } else {
                    (2, 16)
                };
                for &(v, k) in &g.members {
                    if g.unit == Unit::Word && self.low_words.contains(&v) {
                        // Read as a word where it is (its readers' regions stride the dwords).
                        self.locs
                            .insert(v, Loc::Part(resp, plane * (k / per) + 2 * (k % per), false));
                        continue;
                    }
                    let at = VRef {
                        v: resp,
                        off: plane * (k / per),
                    };
                    let shift = bits * (k % per);
                    let mut steps = Vec::new();
                    if shift > 0 {
                        steps.push((Opcode::Shr, u64::from(shift)));
                    }
                    if shift + bits < 32 {
                        steps.push((Opcode::And, (1u64 << bits) - 1));
                    }
                    let mut from = at;
                    for (op, k) in steps {
                        let r = self.m.new_vreg(plane);
                        let mut i = Inst::new(op, self.simd);
                        i.dst = Some(grf_dst(0, 0, Type::UD));
                        i.srcs = [
                            Some(reg_src(0, 0, region_for(false, Type::UD), Type::UD)),
                            Some(imm(Type::UD, k)),
                            None,
                        ];
                        self.push(i, Some(VRef { v: r, off: 0 }), [Some(from), None, None]);
                        from = VRef { v: r, off: 0 };
                    }
                    self.locs.insert(v, Loc::V(from.v, false));
                }
            }
            Unit::Qword => {
                // Qword k: its low dwords are channel 2k, its high dwords channel 2k + 1.
                for &(v, k) in &g.members {
                    self.qword_from_planes(v, resp, [plane * 2 * k, plane * (2 * k + 1)]);
                }
            }
        }
        Ok(())
    }

    /// Per-lane qword `x` split into two planes of a message's data: its low dwords at byte
    /// offset `at[0]` of `data`, its high dwords at `at[1]` (`qword_from_planes` undone).
    fn qword_to_planes(&mut self, x: Value, data: VReg, at: [u32; 2]) -> Result<(), IselError> {
        for (h, off) in (0u32..).zip(at) {
            let o = self.half(x, h)?;
            let mut i = Inst::new(Opcode::Mov, self.simd);
            i.dst = Some(grf_dst(0, 0, Type::UD));
            i.srcs[0] = Some(o.src);
            self.push(i, Some(VRef { v: data, off }), [o.vref, None, None]);
        }
        Ok(())
    }

    /// Per-lane qword `v` interleaved from two planes of a reply (all lanes' low dwords at
    /// byte offset `at[0]`, their high dwords at `at[1]`).
    fn qword_from_planes(&mut self, v: Value, resp: VReg, at: [u32; 2]) {
        let (r, _) = self.def_varying(v);
        for (half, off) in (0u32..).zip(at) {
            let mut i = Inst::new(Opcode::Mov, self.simd);
            let mut d = grf_dst(0, 0, Type::UD);
            d.hstride = 2;
            i.dst = Some(d);
            i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
            self.push(
                i,
                Some(VRef {
                    v: r,
                    off: 4 * half,
                }),
                [Some(VRef { v: resp, off }), None, None],
            );
        }
    }

    /// One SIMD8 read without the execution mask, `channels` dwords a lane: lane i at `addr`
    /// + 16 min(i, lanes - 1) (every lane at `addr` when `lanes` is 1); the reply's register.
    fn uniform_read(
        &mut self,
        addr: Value,
        port: Port,
        lanes: u32,
        channels: u32,
    ) -> Result<VReg, IselError> {
        let a64 = port == Port::A64;
        let (t, base) = if a64 {
            (Type::UQ, self.opnd(addr, Type::UQ)?)
        } else {
            (Type::UD, self.offset32(addr)?)
        };
        let payload = self.m.new_vreg(8 * t.size());
        let mut i = Inst::new(Opcode::Mov, 8);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, t));
        i.srcs[0] = Some(base.src);
        self.push(
            i,
            Some(VRef { v: payload, off: 0 }),
            [base.vref, None, None],
        );
        if lanes > 1 {
            // Each lane's byte offset: 16 × min(lane, lanes - 1), from a vector immediate.
            let nibbles = (0..8u32).fold(0u64, |acc, l| {
                acc | (u64::from(l.min(lanes - 1)) << (4 * l))
            });
            let idx = self.m.new_vreg(16);
            let mut i = Inst::new(Opcode::Mov, 8);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::UW));
            i.srcs[0] = Some(imm(Type::UV, nibbles));
            self.push(i, Some(VRef { v: idx, off: 0 }), [None; 3]);
            let off = self.m.new_vreg(8 * t.size());
            let mut i = Inst::new(Opcode::Shl, 8);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UW));
            i.srcs[1] = Some(imm(Type::UD, 4));
            self.push(
                i,
                Some(VRef { v: off, off: 0 }),
                [Some(VRef { v: idx, off: 0 }), None, None],
            );
            let mut i = Inst::new(Opcode::Add, 8);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(reg_src(0, 0, region_for(false, t), t));
            i.srcs[1] = Some(reg_src(0, 0, region_for(false, t), t));
            self.push(
                i,
                Some(VRef { v: payload, off: 0 }),
                [
                    Some(VRef { v: payload, off: 0 }),
                    Some(VRef { v: off, off: 0 }),
                    None,
                ],
            );
        }
        let resp = self.m.new_vreg(32 * channels);
        let parts = if a64 {
            send::a64_untyped_read_desc(8, channels)
        } else {
            send::untyped_read_desc(port.bti(), 8, channels)
        };
        let mut i = send::message(Opcode::Sends, 8, parts);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[1] = Some(arf_src(0, Region::contiguous(8), Type::UD));
        self.push(
            i,
            Some(VRef { v: resp, off: 0 }),
            [Some(VRef { v: payload, off: 0 }), None, None],
        );
        Ok(resp)
    }

    /// Uniform loads of up to 32 consecutive dwords as one SIMD8 message without the
    /// execution mask: lane i reads the four dwords at the group's address + 16 i (lanes
    /// past the group read its last four again: nothing the kernel does not read), and
    /// dword k is then the scalar in channel k % 4 of lane k / 4.
    fn uniform_group(&mut self, g: &super::coalesce::LoadGroup) -> Result<(), IselError> {
        let port = self.port(g.addr)?;
        let lanes = g.dwords.div_ceil(4);
        debug_assert!(lanes == 1 || g.dwords.is_multiple_of(4));
        let resp = self.uniform_read(g.addr, port, lanes, g.dwords.min(4))?;
        // Where dword k of the group is in the reply.
        let at = |k: u32| 32 * (k % 4) + 4 * (k / 4);
        for &(v, k) in &g.members {
            if g.unit != super::coalesce::Unit::Qword {
                self.locs.insert(v, Loc::Part(resp, at(k), true));
                continue;
            }
            // Qword k: its low dword is dword 2k's channel, its high dword the next one's.
            self.qword_from_dwords(v, resp, [at(2 * k), at(2 * k + 1)]);
        }
        Ok(())
    }

    /// `values` one after another, `per` bytes each (a lane's element of each, as `t`): a
    /// message's data payload.
    fn operand_block(&mut self, values: &[Value], per: u32, t: Type) -> Result<VReg, IselError> {
        let data = self.m.new_vreg(per * values.len() as u32);
        for (k, x) in values.iter().enumerate() {
            let o = self.opnd(*x, t)?;
            let mut i = Inst::new(Opcode::Mov, self.simd);
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(o.src);
            self.push(
                i,
                Some(VRef {
                    v: data,
                    off: per * k as u32,
                }),
                [o.vref, None, None],
            );
        }
        Ok(data)
    }

    /// Stores of consecutive dwords as one message: the values laid out channel after
    /// channel in its data payload.
    pub(super) fn store_group(&mut self, g: &super::coalesce::StoreGroup) -> Result<(), IselError> {
        let port = self.port(g.addr)?;
        let payload = self.payload(port, g.addr)?;
        let plane = 4 * u32::from(self.simd);
        use super::coalesce::Unit;
        let (channels, data) = match g.unit {
            Unit::Word => {
                // Word k into the low (k even) or high half of dword k / 2, a word move at a
                // stride of two: from a dword a lane its low word, from a half's container
                // (`store_bits`) the half's own packed word.
                let channels = g.values.len() as u32 / 2;
                let data = self.m.new_vreg(plane * channels);
                for (k, &x) in (0u32..).zip(&g.values) {
                    let x = self.store_bits.get(&x).copied().unwrap_or(x);
                    let o = self.reg_opnd(x, Type::UW)?;
                    let mut src = o.src;
                    if let Src::Reg(r) = &mut src {
                        if !o.scalar && lane_bytes(self.f.ty(x)) == 4 {
                            r.region = Region {
                                vstride: 16,
                                width: 8,
                                hstride: 2,
                            };
                        }
                    }
                    let mut i = Inst::new(Opcode::Mov, self.simd);
                    let mut d = grf_dst(0, 0, Type::UW);
                    d.hstride = 2;
                    i.dst = Some(d);
                    i.srcs[0] = Some(src);
                    let at = VRef {
                        v: data,
                        off: plane * (k / 2) + 2 * (k % 2),
                    };
                    self.push(i, Some(at), [o.vref, None, None]);
                }
                (channels, data)
            }
            Unit::Byte => {
                // Dword c: member per c + j in bits 8 j (bytes) or 16 j (words), the first
                // member in the low bits.
                let (per, bits) = if g.unit == Unit::Byte {
                    (4, 8)
                } else {
                    (2, 16)
                };
                let channels = g.values.len() as u32 / per;
                let data = self.m.new_vreg(plane * channels);
                for c in 0..channels {
                    let mut acc: Option<VReg> = None;
                    for j in 0..per {
                        let shift = bits * j;
                        let x = self.reg_opnd(g.values[(per * c + j) as usize], Type::UD)?;
                        // In registers: the mask and the shift take the immediate. The top
                        // member's shift drops its high bits, the others are masked first.
                        let mut steps = Vec::new();
                        if shift + bits < 32 {
                            steps.push((Opcode::And, (1u64 << bits) - 1));
                        }
                        if shift > 0 {
                            steps.push((Opcode::Shl, u64::from(shift)));
                        }
                        let (mut src, mut vref) = (x.src, x.vref);
                        for (op, k) in steps {
                            let r = self.m.new_vreg(plane);
                            let mut i = Inst::new(op, self.simd);
                            i.dst = Some(grf_dst(0, 0, Type::UD));
                            i.srcs = [Some(src), Some(imm(Type::UD, k)), None];
                            self.push(i, Some(VRef { v: r, off: 0 }), [vref, None, None]);
                            src = reg_src(0, 0, region_for(false, Type::UD), Type::UD);
                            vref = Some(VRef { v: r, off: 0 });
                        }
                        let part = vref.expect("masked or shifted into a register").v;
                        let last = j + 1 == per;
                        acc = Some(match acc {
                            None => part,
                            Some(a) => {
                                let dst = if last { data } else { self.m.new_vreg(plane) };
                                let off = if last { plane * c } else { 0 };
                                let mut i = Inst::new(Opcode::Or, self.simd);
                                i.dst = Some(grf_dst(0, 0, Type::UD));
                                let whole = reg_src(0, 0, region_for(false, Type::UD), Type::UD);
                                i.srcs = [Some(whole), Some(whole), None];
                                self.push(
                                    i,
                                    Some(VRef { v: dst, off }),
                                    [
                                        Some(VRef { v: a, off: 0 }),
                                        Some(VRef { v: part, off: 0 }),
                                        None,
                                    ],
                                );
                                dst
                            }
                        });
                    }
                }
                (channels, data)
            }
            Unit::Dword => {
                // Raw dwords (a group may hold ints and floats side by side).
                let data = self.operand_block(&g.values, plane, Type::UD)?;
                (g.values.len() as u32, data)
            }
            Unit::Qword => {
                // Qword k: its low dwords in channel 2k, its high dwords in channel 2k + 1.
                let channels = 2 * g.values.len() as u32;
                let data = self.m.new_vreg(plane * channels);
                for (k, x) in (0u32..).zip(&g.values) {
                    self.qword_to_planes(*x, data, [plane * 2 * k, plane * (2 * k + 1)])?;
                }
                (channels, data)
            }
        };
        self.untyped_write(port, payload, data, channels);
        Ok(())
    }

    pub(super) fn store(&mut self, addr: Value, value: Value) -> Result<(), IselError> {
        let port = self.port(addr)?;
        let ty = self.f.ty(value);
        let size = ty.bytes();
        if size != 4 && size != 8 {
            return unsupported(format!("stores of {ty:?}"));
        }
        let payload = self.payload(port, addr)?;
        let channels = size / 4;
        let data = self.m.new_vreg(4 * self.simd as u32 * channels);
        let t = isa_type(ty, false)?;
        let o = self.opnd(value, t)?;
        let data = if channels == 1
            && !o.scalar
            && o.vref.is_some_and(|r| r.off == 0)
            && matches!(o.src, Src::Reg(r) if r.modifier == SrcMod::default())
        {
            // Already one dword per lane in a register of its own: send it as it is.
            o.vref.map(|r| r.v).unwrap_or(data)
        } else {
            data
        };
        if channels == 1 && data != o.vref.map(|r| r.v).unwrap_or(VReg(u32::MAX)) {
            let mut i = Inst::new(Opcode::Mov, self.simd);
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(o.src);
            self.push(i, Some(VRef { v: data, off: 0 }), [o.vref, None, None]);
        } else if channels == 2 {
            // Split qwords into the low-dword and high-dword planes the message wants.
            self.qword_to_planes(value, data, [0, 4 * u32::from(self.simd)])?;
        }
        self.untyped_write(port, payload, data, channels);
        Ok(())
    }

    /// An atomic on global or local memory: the A64 untyped atomic (32- or 64-bit, SIMD8)
    /// or the untyped atomic through BTI 254 (SLM: 32-bit only, Gen9 has no 64-bit SLM
    /// atomics). The operands follow the address payload in the order the data port
    /// wants them (compare-exchange: the compared value, then the new one); the reply is
    /// each lane's old value, laid out as the IR keeps a value of its type.
    pub(super) fn atomic(
        &mut self,
        v: Value,
        op: send::AtomicOp,
        addr: Value,
        operands: &[Value],
    ) -> Result<(), IselError> {
        let ty = self.f.ty(v);
        let wide = ty.bytes() == 8;
        let port = match self.port(addr)? {
            // A buffer argument's own address, whose 32-bit accesses take its surface: a
            // 64-bit atomic there is A64 (`buffer_addresses` never gives one a surface).
            Port::Surface(_) if wide => Port::A64,
            p => p,
        };
        if wide && port == Port::Slm {
            return unsupported("64-bit atomics on __local memory (Gen9 SLM atomics are 32-bit)");
        }
        if port == Port::Scratch {
            return unsupported("atomics on private memory");
        }
        let t = if wide { Type::UQ } else { Type::UD };
        let payload = self.payload(port, addr)?;
        // An old value nobody reads is not asked for: the message then has no reply, which
        // nothing waits for (IGC's atomic_inc on a histogram is such a message).
        let returns = self.uses[v.0 as usize] > 0;
        if port == Port::A64 && self.simd > 8 {
            return self.a64_atomic_halves(v, op, payload, operands, t, returns);
        }
        let per = ty.bytes().max(4) * self.simd as u32;
        let data = self.operand_block(operands, per, t)?;
        let n = operands.len() as u32;
        let data = self.in_halves(data, n);
        let reply = returns.then(|| VRef {
            v: self.def_varying(v).0,
            off: 0,
        });
        self.lane_message(
            |w| {
                let parts = match port {
                    Port::A64 => send::a64_atomic_desc(op, wide, returns, n),
                    _ => send::untyped_atomic_desc(port.bti(), u32::from(w), op, returns, n),
                };
                let mut i = send::message(Opcode::Sends, w, parts);
                if returns {
                    i.dst = Some(grf_dst(0, 0, Type::UD));
                }
                i
            },
            reply,
            [Some(payload), Some(VRef { v: data, off: 0 })],
            [4, port.address_bytes(), 4 * n],
        );
        Ok(())
    }

    /// An A64 atomic in a SIMD16 or SIMD32 kernel: Gen9's A64 untyped atomic message is SIMD8
    /// only (Mesa's `brw_dp_a64_untyped_atomic_desc` asserts it), so a message for each eight
    /// lanes, `(8|M0)`, `(8|M8)`, ..., each with its eighth of the addresses and an operand
    /// block of its own.
    fn a64_atomic_halves(
        &mut self,
        v: Value,
        op: send::AtomicOp,
        payload: VRef,
        operands: &[Value],
        t: Type,
        returns: bool,
    ) -> Result<(), IselError> {
        let n = operands.len() as u32;
        let parts = u32::from(self.simd) / 8;
        // Per eighth: operand k's eight lanes at 8 × size × k.
        let per = 8 * t.size();
        let data = self.m.new_vreg(parts * per * n);
        for (k, x) in operands.iter().enumerate() {
            let o = self.opnd(*x, t)?;
            let mut i = Inst::new(Opcode::Mov, self.simd);
            i.dst = Some(grf_dst(0, 0, t));
            i.srcs[0] = Some(o.src);
            let mov = MInst {
                inst: i,
                dst: Some(VRef { v: data, off: 0 }),
                srcs: [o.vref, None, None],
                jip: None,
                uip: None,
            };
            // The SIMD8 pieces of the copy, each moved to its message's operand block.
            let mut pieces = vec![mov];
            while pieces[0].inst.exec_size > 8 {
                pieces = pieces
                    .iter()
                    .flat_map(|p| {
                        let (lo, hi) = width::halves(p);
                        [lo, hi]
                    })
                    .collect();
            }
            for (h, mut p) in (0u32..).zip(pieces) {
                p.dst = Some(VRef {
                    v: data,
                    off: per * (n * h + k as u32),
                });
                self.m.items.push(Item::Inst(p));
            }
        }
        let r = returns.then(|| self.def_varying(v).0);
        for h in 0..parts {
            let mut i = send::message(
                Opcode::Sends,
                8,
                send::a64_atomic_desc(op, t.size() == 8, returns, n),
            );
            i.chan_offset = 8 * h as u8;
            if returns {
                i.dst = Some(grf_dst(0, 0, Type::UD));
            }
            self.push(
                i,
                r.map(|r| VRef { v: r, off: per * h }),
                [
                    Some(VRef {
                        v: payload.v,
                        off: payload.off + 64 * h,
                    }),
                    Some(VRef {
                        v: data,
                        off: per * n * h,
                    }),
                    None,
                ],
            );
        }
        Ok(())
    }

    /// A memory fence: DC0's fence message with commit enable, whose reply is read (into
    /// the null register) so that the thread waits until every earlier access of its own
    /// is globally visible (Mesa's `brw_memory_fence` and the `mov null` it is followed by).
    pub(super) fn fence(&mut self) {
        let parts = send::fence_desc();
        let reply = self.m.new_vreg(32 * parts.3);
        let mut i = send::message(Opcode::Send, 8, parts);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        // The header is r0 as the thread received it.
        self.push(i, Some(VRef { v: reply, off: 0 }), [None; 3]);
        let mut i = Inst::new(Opcode::Mov, 8);
        i.no_mask = true;
        i.dst = Some(null_dst(Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        self.push(i, None, [Some(VRef { v: reply, off: 0 }), None, None]);
    }

    /// `Op::Yield`: `(W) mov (1) null:ud 0:ud {Switch}`, a thread switch after an
    /// instruction that does nothing else.
    pub(super) fn yield_thread(&mut self) {
        let mut i = Inst::new(Opcode::Mov, 1);
        i.no_mask = true;
        i.thread_ctrl = crate::isa::ThreadCtrl::Switch;
        i.dst = Some(null_dst(Type::UD));
        i.srcs[0] = Some(imm(Type::UD, 0));
        self.push(i, None, [None; 3]);
    }

    /// barrier(): the gateway's barrier message with the thread's barrier id (r0.2 bits
    /// 27:24, masked as Mesa does for Gen9: 0x8F000000), then `wait n0.0` until the gateway
    /// has heard from every thread of the work-group. The fence, where the program's flags
    /// ask for one, is an `Op::Fence` of its own before it.
    ///
    /// The message reads its header's DWord 2 alone; one `and (8)` writes r0.2's masked bits
    /// to all eight DWords (IGC's Gen9 header) instead of zeroing the rest first.
    pub(super) fn barrier(&mut self) {
        let hdr = self.m.new_vreg(32);
        let mut i = Inst::new(Opcode::And, 8);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 8, Region::SCALAR, Type::UD));
        i.srcs[1] = Some(imm(Type::UD, 0x8F00_0000));
        self.push(i, Some(VRef { v: hdr, off: 0 }), [None; 3]);
        let mut i = send::message(Opcode::Send, 8, send::barrier_desc());
        i.no_mask = true;
        self.push(i, None, [Some(VRef { v: hdr, off: 0 }), None, None]);
        let mut i = Inst::new(Opcode::Wait, 1);
        i.no_mask = true;
        // n0.0, the notification register the gateway signals.
        i.dst = Some(arf_dst(0x90, Type::UD));
        i.srcs[0] = Some(arf_src(0x90, Region::SCALAR, Type::UD));
        self.push(i, None, [None; 3]);
    }
}

/// The data port a pointer's accesses take.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Port {
    /// Global and constant memory: 64-bit addresses, stateless A64 messages.
    A64,
    /// Shared local memory: 32-bit offsets, binding-table index 254.
    Slm,
    /// Private memory in the thread's scratch space: 32-bit stateless offsets (binding-
    /// table index 255, relative to the General State Base Address).
    Scratch,
    /// A buffer argument's raw surface at this binding-table index: 32-bit offsets from
    /// the argument's address, bounds-checked against its buffer's end.
    Surface(u8),
}

impl Port {
    /// Bytes a lane's address takes in a message's payload.
    fn address_bytes(self) -> u32 {
        if self == Port::A64 {
            8
        } else {
            4
        }
    }

    /// The binding-table index of a 32-bit-offset port.
    fn bti(self) -> u8 {
        match self {
            Port::Slm => send::BTI_SLM,
            Port::Surface(b) => b,
            _ => send::BTI_STATELESS,
        }
    }
}
