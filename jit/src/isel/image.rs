//! Image messages, as IGC sends them on Gen9 (docs/images.md): a read through a sampler is
//! `sample_lz` at float coordinates, a read without one `ld_lz` at integer coordinates (one
//! message of the kernel's width, all four channels returned, the channels an `ImageRead`
//! of one texel asks for sharing it); a write is a typed surface write per eight lanes (the
//! message is SIMD8: a SIMD16 kernel sends two, `(8|M0)` and `(8|M8)`), the address in
//! src0, the four channels in src1. No header: the sampler state pointer is the interface
//! descriptor's, the channel enables the send's.

use gencl_isa::gen9::send::{
    media_block_read_desc, media_block_write_desc, sampler_desc, typed_write_desc, SamplerOp,
};

use super::*;
use crate::abi::ObjectParam;

impl Sel<'_> {
    fn image_bti(&self, image: u32) -> Result<u8, IselError> {
        match self
            .layout
            .image_btis
            .get(image as usize)
            .copied()
            .flatten()
        {
            Some(b) => Ok(b),
            None => unsupported(format!("internal: argument {image} is not an image")),
        }
    }

    /// `Op::ImageRead`: the texel's four channels by one sampler message (reused by the
    /// other channels of the same texel in the block, until an image write or a fence),
    /// channel `channel` of them as `v`.
    pub(super) fn image_read(
        &mut self,
        v: Value,
        image: u32,
        sampler: Option<u32>,
        coords: &[Value],
        channel: u8,
    ) -> Result<(), IselError> {
        let key = (image, sampler, coords.to_vec());
        let regs = u32::from(self.simd) / 8;
        let resp = match self.texels.get(&key) {
            Some(r) => *r,
            None => {
                let bti = self.image_bti(image)?;
                let t = if sampler.is_some() { Type::F } else { Type::D };
                let payload = self.m.new_vreg(32 * regs * coords.len() as u32);
                for (k, &c) in coords.iter().enumerate() {
                    let o = self.opnd(c, t)?;
                    let mut i = Inst::new(Opcode::Mov, self.simd);
                    i.dst = Some(grf_dst(0, 0, t));
                    i.srcs[0] = Some(o.src);
                    self.push(
                        i,
                        Some(VRef {
                            v: payload,
                            off: 32 * regs * k as u32,
                        }),
                        [o.vref, None, None],
                    );
                }
                let (op, index) = match sampler {
                    Some(s) => (SamplerOp::SampleLz, s),
                    None => (SamplerOp::LdLz, 0),
                };
                let n = coords.len() as u32;
                let resp = self.m.new_vreg(4 * 32 * regs);
                // A SIMD32 read is two SIMD16 sampler messages (`memory.rs`
                // `lane_message`), each with its lanes' coordinates and texels.
                let payload = self.in_halves(payload, n);
                let resp = self.in_halves(resp, 4);
                self.lane_message(
                    |w| {
                        let parts = sampler_desc(op, u32::from(w), bti, index as u8, false, n);
                        let mut i = send::message(Opcode::Send, w, parts);
                        i.dst = Some(grf_dst(0, 0, Type::UD));
                        i
                    },
                    Some(VRef { v: resp, off: 0 }),
                    [Some(VRef { v: payload, off: 0 }), None],
                    [16, 4 * n, 0],
                );
                self.texels.insert(key, resp);
                resp
            }
        };
        let (r, _) = self.def_varying(v);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        self.push(
            i,
            Some(VRef { v: r, off: 0 }),
            [
                Some(VRef {
                    v: resp,
                    off: 32 * regs * u32::from(channel),
                }),
                None,
                None,
            ],
        );
        Ok(())
    }

    /// `Op::ImageWrite`: a typed surface write per eight lanes.
    pub(super) fn image_write(
        &mut self,
        image: u32,
        coords: &[Value],
        values: &[Value],
    ) -> Result<(), IselError> {
        let bti = self.image_bti(image)?;
        // What an earlier read of this work-item saw may be stale now.
        self.texels.clear();
        let vt = if self.f.ty(values[0]) == Ty::F32 {
            Type::F
        } else {
            Type::D
        };
        for group in 0..u32::from(self.simd) / 8 {
            let addr = self.m.new_vreg(32 * coords.len() as u32);
            let data = self.m.new_vreg(32 * 4);
            for (k, &c) in coords.iter().chain(values).enumerate() {
                let (dst, off, t) = if k < coords.len() {
                    (addr, 32 * k as u32, Type::D)
                } else {
                    (data, 32 * (k - coords.len()) as u32, vt)
                };
                let o = self.opnd(c, t)?;
                let mut i = Inst::new(Opcode::Mov, 8);
                i.chan_offset = 8 * group as u8;
                i.dst = Some(grf_dst(0, 0, t));
                i.srcs[0] = Some(o.src);
                // A varying value's lanes 8k..8k+7 are its register k.
                let src = o.vref.map(|r| VRef {
                    v: r.v,
                    off: r.off + if o.scalar { 0 } else { 32 * group },
                });
                self.push(i, Some(VRef { v: dst, off }), [src, None, None]);
            }
            // The slot group: the upper eight lanes of a sixteen (Mesa's
            // `brw_dp_typed_surface_rw_desc`: `group % 16 >= 8`).
            let parts = typed_write_desc(bti, group % 2 == 1, coords.len() as u32, 4);
            let mut i = send::message(Opcode::Sends, 8, parts);
            i.chan_offset = 8 * group as u8;
            self.push(
                i,
                None,
                [
                    Some(VRef { v: addr, off: 0 }),
                    Some(VRef { v: data, off: 0 }),
                    None,
                ],
            );
        }
        Ok(())
    }

    /// The header of a media block message for eight lanes of `group`: r0 as the thread
    /// received it (IGC's form), then dword 0 the block's byte X (`x` + 32 per group), dword
    /// 1 its row `y`, dword 2 the shape: 32 bytes wide (eight dwords), one row high.
    fn media_block_header(&mut self, x: Value, y: Value, group: u32) -> Result<VReg, IselError> {
        let hdr = self.m.new_vreg(32);
        let mut i = Inst::new(Opcode::Mov, 8);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        self.push(i, Some(VRef { v: hdr, off: 0 }), [None; 3]);
        // The coordinates are the sub-group's ("must be the same for all work-items in the
        // sub-group"): lane 0's.
        for (k, c) in [x, y].into_iter().enumerate() {
            let o = self.opnd(c, Type::D)?;
            let mut src = if o.scalar {
                o.src
            } else {
                reg_src(0, 0, Region::SCALAR, Type::D)
            };
            let mut add = k == 0 && group > 0;
            if let (true, Src::Imm(i)) = (add, &mut src) {
                // A constant X: the group's offset folded in (an add takes no immediate
                // first source).
                i.bits = u64::from((i.bits as u32).wrapping_add(32 * group));
                add = false;
            }
            let mut i = Inst::new(if add { Opcode::Add } else { Opcode::Mov }, 1);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::D));
            i.srcs[0] = Some(src);
            if add {
                i.srcs[1] = Some(imm(Type::D, u64::from(32 * group)));
            }
            self.push(
                i,
                Some(VRef {
                    v: hdr,
                    off: 4 * k as u32,
                }),
                [o.vref, None, None],
            );
        }
        let mut i = Inst::new(Opcode::Mov, 1);
        i.no_mask = true;
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(imm(Type::UD, 0x1F));
        self.push(i, Some(VRef { v: hdr, off: 8 }), [None; 3]);
        Ok(hdr)
    }

    /// `Op::ImageBlockRead`: a media block read of eight dwords per eight lanes (IGC's
    /// `send (8|M0) r12:d r16 0xC 0x02190000`), into a temporary, then the value.
    pub(super) fn image_block_read(
        &mut self,
        v: Value,
        image: u32,
        x: Value,
        y: Value,
    ) -> Result<(), IselError> {
        let bti = self.image_bti(image)?;
        let regs = u32::from(self.simd) / 8;
        let resp = self.m.new_vreg(32 * regs);
        for group in 0..regs {
            let hdr = self.media_block_header(x, y, group)?;
            let mut i = send::message(Opcode::Send, 8, media_block_read_desc(bti, 1));
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::UD));
            self.push(
                i,
                Some(VRef {
                    v: resp,
                    off: 32 * group,
                }),
                [Some(VRef { v: hdr, off: 0 }), None, None],
            );
        }
        let (r, _) = self.def_varying(v);
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.dst = Some(grf_dst(0, 0, Type::UD));
        i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::UD));
        self.push(
            i,
            Some(VRef { v: r, off: 0 }),
            [Some(VRef { v: resp, off: 0 }), None, None],
        );
        Ok(())
    }

    /// `Op::ImageBlockWrite`: a media block write of eight dwords per eight lanes (IGC's
    /// `sends (8|M0) null:ud r16 r23 0x4C 0x020A8002`).
    pub(super) fn image_block_write(
        &mut self,
        image: u32,
        x: Value,
        y: Value,
        value: Value,
    ) -> Result<(), IselError> {
        let bti = self.image_bti(image)?;
        // What an earlier read of this work-item saw may be stale now.
        self.texels.clear();
        for group in 0..u32::from(self.simd) / 8 {
            let hdr = self.media_block_header(x, y, group)?;
            let data = self.m.new_vreg(32);
            let o = self.opnd(value, Type::D)?;
            let mut i = Inst::new(Opcode::Mov, 8);
            i.no_mask = true;
            i.dst = Some(grf_dst(0, 0, Type::D));
            i.srcs[0] = Some(o.src);
            let src = o.vref.map(|r| VRef {
                v: r.v,
                off: r.off + if o.scalar { 0 } else { 32 * group },
            });
            self.push(i, Some(VRef { v: data, off: 0 }), [src, None, None]);
            let mut i = send::message(Opcode::Sends, 8, media_block_write_desc(bti, 1));
            i.no_mask = true;
            self.push(
                i,
                None,
                [
                    Some(VRef { v: hdr, off: 0 }),
                    Some(VRef { v: data, off: 0 }),
                    None,
                ],
            );
        }
        Ok(())
    }

    /// `Op::ImageParam`: the value the runtime pushed.
    pub(super) fn image_param(
        &mut self,
        v: Value,
        arg: u32,
        param: ObjectParam,
    ) -> Result<(), IselError> {
        let off = self
            .layout
            .image_params
            .iter()
            .find(|(k, _)| *k == (arg, param))
            .map(|(_, o)| *o);
        match off {
            Some(off) => {
                let at = self.layout.cross_thread_grf as u32 * 32 + off;
                self.locs.insert(v, Loc::Payload(at));
                Ok(())
            }
            None => unsupported(format!(
                "internal: {param:?} of argument {arg} is not pushed"
            )),
        }
    }
}
