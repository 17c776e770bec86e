//! The sampler: the shared function that reads images for `sample*`, `ld*` and `resinfo`
//! messages, with the addressing and filtering of a SAMPLER_STATE.
//!
//! A message (SFID 2) names a binding-table surface and a SAMPLER_STATE index; the state
//! array is at Dynamic State Base Address + the sampler state pointer, which a header's
//! M0.3 [31:5] gives, else the interface descriptor's (delivered in r0.3 too, so that
//! IGC's headers, copies of r0, name the same). Header M0.2 [15:12] disables red, green,
//! blue, alpha of the response (a disabled channel takes no registers in it).
//!
//! Parameters are one register per SIMD8 operand (two for SIMD16), in the order of Gen9's
//! message types (Mesa `lower_sampler_logical_send_gfx7`): `sample` and `sample_lz` u, v,
//! r; `sample_l` lod, u, v, r; `ld` u, v, lod, r; `ld_lz` u, v, r; `resinfo` lod. Fewer
//! registers than a message has parameters leave the rest 0. IGC's OpenCL reads are
//! `sample_lz` for a sampler (integer coordinates converted to float) and `ld_lz` without
//! one (`sends (16|M0) r25 r6 r41 0x102 0x028D8000`: a header, then u and v).
//!
//! Addressing per axis follows the Texture Coordinate Modes (TCM_*) on the texel index:
//! normalized coordinates are scaled by the size; nearest takes floor(u), linear the two
//! texels around u - 0.5 with the fraction as weight; WRAP takes the index modulo the size,
//! MIRROR reflects it every size texels, CLAMP clamps it to the edge, CLAMP_BORDER returns
//! the border colour for an index outside. An array's element is the rounded coordinate
//! clamped to the array. Linear filtering here weighs in f32, where the hardware's weights
//! have a fixed sub-texel precision (docs/gpu-model.md, "Images").

use gencl_isa::gen9::send::{SamplerMsg, SamplerOp};

use crate::genx::gen9::{
    SamplerBorderColorState, SamplerState, MAPFILTER_LINEAR, MAPFILTER_NEAREST, TCM_CLAMP,
    TCM_CLAMP_BORDER, TCM_MIRROR, TCM_MIRROR_ONCE, TCM_WRAP,
};
use crate::genx::Packet;
use crate::gpu::dataport::{illegal, Reply, Request, SendOutcome, LATENCY_MEMORY};
use crate::gpu::image::format::Slot;
use crate::gpu::image::surface::{Dim, Image};
use crate::gpu::{read_dwords, GpuError, GpuMemory, ThreadGroup};

/// Modelled latency of a sampler message (cycles).
pub const LATENCY_SAMPLER: u32 = LATENCY_MEMORY + 50;

/// The sampler unit of one thread group's dispatch.
pub struct Sampler<'a> {
    mem: &'a dyn GpuMemory,
    tg: &'a ThreadGroup,
}

/// What a sampling message reads with: the state and its border colour.
struct State {
    st: SamplerState,
    border: [u32; 4],
}

impl<'a> Sampler<'a> {
    pub fn new(mem: &'a dyn GpuMemory, tg: &'a ThreadGroup) -> Sampler<'a> {
        Sampler { mem, tg }
    }

    /// Carry out `req`, a sampler message; its response goes to `resp` (lanes the
    /// message is not for keep the destination's old contents).
    pub fn message(&self, req: &Request, resp: &mut Reply) -> Result<SendOutcome, GpuError> {
        let (m, msg, addr) = (req.message, req.payload, req.addr);
        let SamplerMsg { op, index } = m
            .sampler
            .ok_or_else(|| illegal(addr, "sampler message without its fields"))?;
        if op == SamplerOp::CacheFlush {
            // The model's sampler keeps no cache: done at once, the reply register written
            // (with its old contents, as the fence's).
            resp.written = m.rlen as usize;
            return Ok(SendOutcome::Continue {
                latency: LATENCY_SAMPLER,
            });
        }
        let per = match m.simd {
            8 => 1,
            16 => 2,
            s => {
                return Err(illegal(
                    addr,
                    format!("SIMD{s} sampler messages are not modelled"),
                ))
            }
        };
        let simd = m.simd as usize;
        let (first, disabled, pointer) = if m.header {
            let m2 = msg.u32(0, 2);
            if m2 & 0xFFF != 0 {
                return Err(illegal(
                    addr,
                    "sampler texel offsets (M0.2 [11:0]) are not modelled",
                ));
            }
            (1, ((m2 >> 12) & 0xF) as u8, msg.u32(0, 3) & !0x1F)
        } else {
            (0, 0, self.tg.sampler_state_pointer)
        };
        let params = (msg.len - first) / per;
        let param = |k: usize, lane: usize| -> u32 {
            if k < params {
                msg.lane_u32(first + k * per, lane)
            } else {
                0
            }
        };
        let bti = u32::from(m.bti.unwrap_or(0));
        let img = self.tg.bindings.image(self.mem, bti, addr)?;
        let state = match op {
            SamplerOp::Sample | SamplerOp::SampleLz | SamplerOp::SampleL => {
                Some(self.state(addr, pointer, index)?)
            }
            SamplerOp::Ld | SamplerOp::LdLz | SamplerOp::Resinfo => None,
            o => {
                return Err(illegal(
                    addr,
                    format!("sampler message {o:?} is not modelled"),
                ))
            }
        };
        // The channels the response carries, in order (no allocation per message).
        let mut enabled = [0usize; 4];
        let mut n = 0;
        for c in (0..4).filter(|c| disabled & (1 << c) == 0) {
            enabled[n] = c;
            n += 1;
        }
        let enabled = &enabled[..n];
        for lane in (0..simd).filter(|l| req.emask & (1 << l) != 0) {
            let f = |k| f32::from_bits(param(k, lane));
            let i = |k| i64::from(param(k, lane) as i32);
            let rgba = match (img, op) {
                (None, _) => [0; 4],
                (Some(img), SamplerOp::Resinfo) => resinfo(&img, param(0, lane)),
                // A LOD other than 0 is past the single mip level.
                (Some(_), SamplerOp::Ld) if param(2, lane) != 0 => [0; 4],
                (Some(img), SamplerOp::Ld) => self.load(&img, i(0), i(1), i(3))?,
                (Some(img), SamplerOp::LdLz) => self.load(&img, i(0), i(1), i(2))?,
                (Some(img), _) => {
                    let s = state.as_ref().expect("sampling ops read their state");
                    let (lod, c) = match op {
                        SamplerOp::SampleL => (f(0), [f(1), f(2), f(3)]),
                        _ => (0.0, [f(0), f(1), f(2)]),
                    };
                    self.sample(addr, &img, s, c, lod)?
                }
            };
            for (k, &c) in enabled.iter().enumerate() {
                resp.set_lane_u32(k * per, lane, rgba[c]);
            }
        }
        resp.written = (n * per).min(m.rlen as usize);
        Ok(SendOutcome::Continue {
            latency: LATENCY_SAMPLER,
        })
    }

    /// SAMPLER_STATE `index` of the array at `pointer`, and its border colour.
    fn state(&self, addr: u64, pointer: u32, index: u8) -> Result<State, GpuError> {
        let base = self.tg.dynamic_state_base + u64::from(pointer) + 16 * u64::from(index);
        let st = SamplerState::unpack(&read_dwords(self.mem, base, 4)?);
        if st.texture_border_color_mode != 0 {
            return Err(illegal(addr, "DX9 border colour mode is not modelled"));
        }
        let bc = SamplerBorderColorState::unpack(&read_dwords(
            self.mem,
            self.tg.dynamic_state_base + u64::from(st.border_color_pointer),
            4,
        )?);
        Ok(State {
            st,
            border: [
                bc.border_color_red,
                bc.border_color_green,
                bc.border_color_blue,
                bc.border_color_alpha,
            ],
        })
    }

    /// The decoded texel at integer coordinates (None outside the surface).
    fn fetch(&self, img: &Image, x: i64, y: i64, z: i64) -> Result<Option<[u32; 4]>, GpuError> {
        let Some(a) = img.texel(x, y, z) else {
            return Ok(None);
        };
        let mut b = [0u8; 16];
        let n = img.format.bytes as usize;
        self.mem.read(a, &mut b[..n])?;
        Ok(Some(img.format.decode(&b[..n])))
    }

    /// `ld`: the texel at integer coordinates, zero outside the surface.
    fn load(&self, img: &Image, u: i64, v: i64, r: i64) -> Result<[u32; 4], GpuError> {
        Ok(match self.fetch(img, u, v, r)? {
            Some(t) => img.select(t),
            None => [0; 4],
        })
    }

    /// `sample*`: the filtered value at coordinates `c` (u, v, r as the surface type
    /// takes them) and level of detail `lod`.
    fn sample(
        &self,
        addr: u64,
        img: &Image,
        s: &State,
        c: [f32; 3],
        lod: f32,
    ) -> Result<[u32; 4], GpuError> {
        let st = &s.st;
        // Spatial axes, and the coordinate that picks an array element.
        let (axes, layer) = match (img.dim, img.array) {
            (Dim::Buffer, _) => return Err(illegal(addr, "sampling a buffer surface")),
            (Dim::D1, false) => (1, None),
            (Dim::D1, true) => (1, Some(c[1])),
            (Dim::D2, false) => (2, None),
            (Dim::D2, true) => (2, Some(c[2])),
            (Dim::D3, _) => (3, None),
        };
        let sizes = [img.width, img.height, img.depth];
        let modes = [
            st.tcx_address_control_mode,
            st.tcy_address_control_mode,
            st.tcz_address_control_mode,
        ];
        // Minification beyond LOD 0 (there is one level); magnification otherwise.
        let filter = if lod > 0.0 {
            st.min_mode_filter
        } else {
            st.mag_mode_filter
        };
        let linear = match filter {
            MAPFILTER_NEAREST => false,
            MAPFILTER_LINEAR => !img.format.integer(),
            f => return Err(illegal(addr, format!("map filter {f} is not modelled"))),
        };
        for &mode in &modes[..axes] {
            if !matches!(
                mode,
                TCM_WRAP | TCM_MIRROR | TCM_CLAMP | TCM_CLAMP_BORDER | TCM_MIRROR_ONCE
            ) {
                return Err(illegal(
                    addr,
                    format!("texture coordinate mode {mode} is not modelled"),
                ));
            }
        }
        let layer = layer.map(|l| {
            let n = i64::from(img.layers());
            (l.round_ties_even() as i64).clamp(0, n - 1)
        });
        // Per axis: the taps (index, weight); an index None is outside (border).
        let mut taps: [[(Option<i64>, f32); 2]; 3] = [[(Some(0), 1.0), (None, 0.0)]; 3];
        for k in 0..axes {
            let n = i64::from(sizes[k]);
            let u = if st.non_normalized_coordinate_enable {
                c[k]
            } else {
                c[k] * sizes[k] as f32
            };
            taps[k] = if linear {
                let t = u - 0.5;
                let i0 = t.floor();
                let w = t - i0;
                let i0 = i0 as i64;
                [
                    (wrap(i0, n, modes[k]), 1.0 - w),
                    (wrap(i0 + 1, n, modes[k]), w),
                ]
            } else {
                [(wrap(u.floor() as i64, n, modes[k]), 1.0), (None, 0.0)]
            };
        }
        let border = self.border(img, s.border);
        let mut acc = [0f32; 4];
        let mut nearest = None;
        let ntaps = if linear { 2 } else { 1 };
        for a in 0..ntaps {
            for b in 0..if axes >= 2 { ntaps } else { 1 } {
                for d in 0..if axes >= 3 { ntaps } else { 1 } {
                    let (x, wx) = taps[0][a];
                    let (y, wy) = taps[1][b];
                    let (z, wz) = taps[2][d];
                    let texel = match (x, y, z) {
                        (Some(x), Some(y), Some(z)) => {
                            let (y, z) = match (img.dim, layer) {
                                (Dim::D1, Some(l)) => (l, 0),
                                (_, Some(l)) => (y, l),
                                _ => (y, z),
                            };
                            self.fetch(img, x, y, z)?.unwrap_or(border)
                        }
                        _ => border,
                    };
                    if !linear {
                        nearest = Some(texel);
                        continue;
                    }
                    let w = wx * wy * wz;
                    for (acc, t) in acc.iter_mut().zip(texel) {
                        *acc += w * f32::from_bits(t);
                    }
                }
            }
        }
        let v = match nearest {
            Some(t) => t,
            None => acc.map(f32::to_bits),
        };
        Ok(img.select(v))
    }

    /// The border colour as `img`'s format returns it: its channels where the format has
    /// them, 0 and an alpha of one where it has not.
    fn border(&self, img: &Image, border: [u32; 4]) -> [u32; 4] {
        let fmt = img.format;
        let has = |k: usize| {
            fmt.chans.iter().any(|&(s, _)| match s {
                Slot::R => k == 0,
                Slot::G => k == 1,
                Slot::B => k == 2,
                Slot::A => k == 3,
                Slot::L => k < 3,
                Slot::I => true,
                Slot::X => false,
            })
        };
        let one = if fmt.integer() { 1 } else { 1f32.to_bits() };
        [0, 1, 2, 3].map(|k| {
            if has(k) {
                border[k]
            } else if k == 3 {
                one
            } else {
                0
            }
        })
    }
}

/// A texel index on an axis of `n` texels under address mode `mode` (None: outside, the
/// border colour).
fn wrap(i: i64, n: i64, mode: u8) -> Option<i64> {
    match mode {
        TCM_WRAP => Some(i.rem_euclid(n)),
        TCM_MIRROR => {
            let m = i.rem_euclid(2 * n);
            Some(if m >= n { 2 * n - 1 - m } else { m })
        }
        TCM_MIRROR_ONCE => {
            let m = if i < 0 { -1 - i } else { i };
            Some(m.min(n - 1))
        }
        TCM_CLAMP => Some(i.clamp(0, n - 1)),
        _ => (0..n).contains(&i).then_some(i),
    }
}

/// `resinfo`: width, height, depth or array size, and the mip count, as integers (level 0
/// only; other levels read zero).
fn resinfo(img: &Image, lod: u32) -> [u32; 4] {
    if lod != 0 {
        return [0; 4];
    }
    match (img.dim, img.array) {
        (Dim::Buffer, _) => [img.width, 0, 0, 0],
        (Dim::D1, false) => [img.width, 0, 0, 1],
        (Dim::D1, true) => [img.width, img.layers(), 0, 1],
        (Dim::D2, false) => [img.width, img.height, 0, 1],
        (Dim::D2, true) => [img.width, img.height, img.layers(), 1],
        (Dim::D3, _) => [img.width, img.height, img.depth, 1],
    }
}
