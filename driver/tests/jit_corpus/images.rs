//! Cases of tests/jit/images.cl: images through gencl's JIT, the submitter and the GPU model,
//! held to references computed here from the OpenCL C spec's rules (§8.2 addressing and
//! filtering, §8.3 conversions) on the images' bytes: a model of OpenCL images of its own,
//! written from the spec and not from the GPU model's code.
use crate::igc::harness::*;
use gencl::submit::images::*;

const F: &str = "images.cl";

// CL_* channel orders and data types.
const R: u32 = 0x10B0;
const A: u32 = 0x10B1;
const RG: u32 = 0x10B2;
const RGBA: u32 = 0x10B5;
const BGRA: u32 = 0x10B6;
const INTENSITY: u32 = 0x10B8;
const LUMINANCE: u32 = 0x10B9;
const SRGBA: u32 = 0x10C1;
const SNORM8: u32 = 0x10D0;
const UNORM8: u32 = 0x10D2;
const UNORM16: u32 = 0x10D3;
const SINT8: u32 = 0x10D7;
const SINT16: u32 = 0x10D8;
const UINT8: u32 = 0x10DA;
const UINT16: u32 = 0x10DB;
const UINT32: u32 = 0x10DC;
const HALF: u32 = 0x10DD;
const FLOAT: u32 = 0x10DE;

/// An image format: CL channel order and data type.
#[derive(Clone, Copy, Debug)]
struct Fmt(u32, u32);

impl Fmt {
    /// The channels in memory order.
    fn chans(self) -> &'static [char] {
        match self.0 {
            R => &['r'],
            A => &['a'],
            RG => &['r', 'g'],
            RGBA | SRGBA => &['r', 'g', 'b', 'a'],
            BGRA => &['b', 'g', 'r', 'a'],
            INTENSITY => &['i'],
            LUMINANCE => &['l'],
            o => panic!("order {o:#x}"),
        }
    }
    fn size(self) -> usize {
        match self.1 {
            SNORM8 | UNORM8 | SINT8 | UINT8 => 1,
            UNORM16 | SINT16 | UINT16 | HALF => 2,
            _ => 4,
        }
    }
    fn bpp(self) -> u32 {
        (self.size() * self.chans().len()) as u32
    }
    fn integer(self) -> bool {
        matches!(self.1, SINT8 | SINT16 | UINT8 | UINT16)
    }
    /// The GPU surface format (what a runtime on Gen9 picks for this CL format).
    fn code(self) -> u16 {
        match (self.0, self.1) {
            (RGBA, UNORM8) => 0x0C7,
            (RGBA, SNORM8) => 0x0C9,
            (RGBA, SINT8) => 0x0CA,
            (RGBA, UINT8) => 0x0CB,
            (RGBA, UNORM16) => 0x080,
            (RGBA, SINT16) => 0x082,
            (RGBA, UINT16) => 0x083,
            (RGBA, HALF) => 0x084,
            (RGBA, FLOAT) => 0x000,
            (BGRA, UNORM8) => 0x0C0,
            (SRGBA, UNORM8) => 0x0C8,
            (R, UNORM8) => 0x140,
            (R, UINT8) => 0x143,
            (R, UNORM16) => 0x10A,
            (R, FLOAT) => 0x0D8,
            (RG, HALF) => 0x0D0,
            (RG, FLOAT) => 0x085,
            (LUMINANCE, UNORM8) => 0x146,
            (INTENSITY, UNORM8) => 0x145,
            (A, UNORM8) => 0x144,
            f => panic!("format {f:x?}"),
        }
    }
    /// The value a channel of stored bits reads as (§8.3.1: normalized integers to float).
    fn channel_in(self, raw: u32, srgb: bool) -> f64 {
        let v = match self.1 {
            UNORM8 => f64::from(raw) / 255.0,
            UNORM16 => f64::from(raw) / 65535.0,
            SNORM8 => (f64::from(raw as u8 as i8) / 127.0).max(-1.0),
            SINT8 => f64::from(raw as u8 as i8),
            SINT16 => f64::from(raw as u16 as i16),
            UINT8 | UINT16 => f64::from(raw),
            HALF => f64::from(half(raw as u16)),
            FLOAT => f64::from(f32::from_bits(raw)),
            t => panic!("type {t:#x}"),
        };
        if srgb {
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        } else {
            v
        }
    }
    /// A texel's RGBA (§8.3: missing channels 0, alpha 1; luminance in r, g, b; intensity in
    /// all four).
    fn decode(self, b: &[u8]) -> [f64; 4] {
        let mut out = [0.0, 0.0, 0.0, 1.0];
        for (k, &c) in self.chans().iter().enumerate() {
            let s = &b[k * self.size()..(k + 1) * self.size()];
            let mut raw = [0u8; 4];
            raw[..s.len()].copy_from_slice(s);
            let raw = u32::from_le_bytes(raw);
            let v = self.channel_in(raw, self.0 == SRGBA && c != 'a');
            match c {
                'r' => out[0] = v,
                'g' => out[1] = v,
                'b' => out[2] = v,
                'a' => out[3] = v,
                'l' => out[..3].fill(v),
                'i' => out.fill(v),
                _ => unreachable!(),
            }
        }
        out
    }
    /// The bytes write_imagef/i/ui store for `v` (§8.3.1.1, §8.3.2-3: normalized values
    /// clamped and rounded to nearest even, NaN to 0; integers saturated).
    fn encode(self, v: [f64; 4]) -> Vec<u8> {
        let mut out = Vec::new();
        for &c in self.chans() {
            let x = match c {
                'r' | 'l' | 'i' => v[0],
                'g' => v[1],
                'b' => v[2],
                _ => v[3],
            };
            let bits: u32 = match self.1 {
                UNORM8 => norm(x, 255.0) as u32,
                UNORM16 => norm(x, 65535.0) as u32,
                SNORM8 => {
                    let y = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
                    ((y as f32 * 127.0).round_ties_even() as i32) as u32
                }
                SINT8 => x.clamp(-128.0, 127.0) as i32 as u32,
                SINT16 => x.clamp(-32768.0, 32767.0) as i32 as u32,
                UINT8 => x.clamp(0.0, 255.0) as u32,
                UINT16 => x.clamp(0.0, 65535.0) as u32,
                HALF => u32::from(to_half(x as f32)),
                FLOAT => (x as f32).to_bits(),
                t => panic!("type {t:#x}"),
            };
            out.extend_from_slice(&bits.to_le_bytes()[..self.size()]);
        }
        out
    }
}

fn norm(x: f64, max: f32) -> f32 {
    let y = if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0) as f32
    };
    (y * max).round_ties_even()
}

fn half(h: u16) -> f32 {
    let (s, e, m) = (h >> 15, i32::from((h >> 10) & 0x1f), f32::from(h & 0x3ff));
    let v = match e {
        0 => m * 2f32.powi(-24),
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    };
    if s == 1 {
        -v
    } else {
        v
    }
}

/// f32 to half, round to nearest even (the values here are in half's normal range or 0).
fn to_half(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let a = f.abs();
    if a == 0.0 {
        return sign;
    }
    let e = a.log2().floor() as i32;
    let m = a / 2f32.powi(e) * 1024.0 - 1024.0;
    let mut mi = m.round_ties_even() as u32;
    let mut e = e;
    if mi == 1024 {
        mi = 0;
        e += 1;
    }
    sign | (((e + 15) as u16) << 10) | mi as u16
}

/// An image: its surface description and bytes, linear (rows `w * bpp` bytes; 2D array
/// elements and 3D slices `h` rounded to 4 rows apart; 1D array elements `w` rounded to 4
/// texels apart in one row, as Gen9 lays them out).
#[derive(Clone)]
struct Img {
    s: ImageSurface,
    f: Fmt,
    data: Vec<u8>,
    /// Width, height (a 1D array's element count), depth (a 2D array's element count).
    dims: (u32, u32, u32),
}

fn img(ty: ImageType, f: Fmt, (w, h, d): (u32, u32, u32), seed: u32) -> Img {
    let bpp = f.bpp();
    let (qpitch, len) = match ty {
        ImageType::D1Array => (w.next_multiple_of(4), w.next_multiple_of(4) * bpp * h),
        ImageType::D2Array | ImageType::D3 => {
            (h.next_multiple_of(4), w * bpp * h.next_multiple_of(4) * d)
        }
        _ => (h.next_multiple_of(4), w * bpp * h),
    };
    let s = ImageSurface {
        ty,
        format: f.code(),
        width: w,
        height: if matches!(ty, ImageType::D1 | ImageType::D1Array | ImageType::Buffer) {
            1
        } else {
            h
        },
        // The runtime's convention: an array's element count is its depth.
        depth: if ty == ImageType::D1Array { h } else { d },
        row_pitch: w * bpp,
        qpitch,
        tiling: 0,
        channel_order: f.0,
        channel_data_type: f.1,
    };
    // Contents: every texel a valid value of its format (finite floats in [-2, 2]).
    let mut data = vec![0u8; len as usize];
    let texels = len / bpp;
    for t in 0..texels {
        let r = |k: u32| {
            let x = (t * 4 + k)
                .wrapping_mul(2_654_435_761)
                .wrapping_add(seed.wrapping_mul(40503));
            f64::from(x >> 8) / f64::from(1u32 << 24)
        };
        let v = [r(0), r(1), r(2), r(3)];
        let v = match f.1 {
            HALF | FLOAT => v.map(|x| f64::from(half(to_half((x * 4.0 - 2.0) as f32)))),
            SNORM8 => v.map(|x| x * 2.0 - 1.0),
            SINT8 => v.map(|x| (x * 256.0 - 128.0).floor()),
            SINT16 => v.map(|x| (x * 65536.0 - 32768.0).floor()),
            UINT8 => v.map(|x| (x * 256.0).floor()),
            UINT16 => v.map(|x| (x * 65536.0).floor()),
            _ => v,
        };
        let b = f.encode(v);
        data[(t * bpp) as usize..((t + 1) * bpp) as usize].copy_from_slice(&b);
    }
    Img {
        s,
        f,
        data,
        dims: (w, h, d),
    }
}

impl Img {
    /// The texel at (x, y, z) in the image's own coordinates, or None outside.
    fn at(&self, x: i64, y: i64, z: i64) -> Option<[f64; 4]> {
        let (w, h, d) = self.dims;
        let bpp = i64::from(self.f.bpp());
        let inside = |v: i64, n: u32| (0..i64::from(n)).contains(&v);
        let off = match self.s.ty {
            ImageType::Buffer | ImageType::D1 => inside(x, w).then_some(x * bpp)?,
            ImageType::D1Array => (inside(x, w) && inside(y, h))
                .then_some((y * i64::from(self.s.qpitch) + x) * bpp)?,
            ImageType::D2 => (inside(x, w) && inside(y, h))
                .then_some(y * i64::from(self.s.row_pitch) + x * bpp)?,
            ImageType::D2Array | ImageType::D3 => (inside(x, w) && inside(y, h) && inside(z, d))
                .then_some(
                    (z * i64::from(self.s.qpitch) + y) * i64::from(self.s.row_pitch) + x * bpp,
                )?,
        };
        let o = off as usize;
        Some(self.f.decode(&self.data[o..o + self.f.bpp() as usize]))
    }
    fn border(&self) -> [f64; 4] {
        let alpha = self.f.chans().iter().any(|c| *c == 'a' || *c == 'i');
        [0.0, 0.0, 0.0, if alpha { 0.0 } else { 1.0 }]
    }
    /// read_image* at integer coordinates without a sampler (zero outside, unused here).
    fn load(&self, x: i64, y: i64, z: i64) -> [f64; 4] {
        self.at(x, y, z).unwrap_or([0.0; 4])
    }
    /// read_image* through sampler `sm` at float coordinates `c` over `axes` axes; an array's
    /// element, if any, in `layer`.
    fn sample(&self, sm: &SamplerValue, c: [f32; 3], axes: usize, layer: Option<f32>) -> [f64; 4] {
        let sizes = [self.dims.0, self.dims.1, self.dims.2];
        let linear = sm.filter == CL_FILTER_LINEAR && !self.f.integer();
        let taps: Vec<Vec<(Option<i64>, f64)>> = (0..3)
            .map(|k| {
                if k < axes {
                    axis_taps(c[k], i64::from(sizes[k]), sm, linear)
                } else {
                    vec![(Some(0), 1.0)]
                }
            })
            .collect();
        let layer = layer.map(|l| {
            let n = if self.s.ty == ImageType::D1Array {
                self.dims.1
            } else {
                self.dims.2
            };
            (l.round_ties_even() as i64).clamp(0, i64::from(n) - 1)
        });
        let mut acc = [0f64; 4];
        for &(x, wx) in &taps[0] {
            for &(y, wy) in &taps[1] {
                for &(z, wz) in &taps[2] {
                    let t = match (x, y, z, layer) {
                        (Some(x), _, _, Some(l)) if self.s.ty == ImageType::D1Array => {
                            self.at(x, l, 0)
                        }
                        (Some(x), Some(y), _, Some(l)) => self.at(x, y, l),
                        (Some(x), Some(y), Some(z), None) => self.at(x, y, z),
                        _ => None,
                    }
                    .unwrap_or(self.border());
                    for k in 0..4 {
                        acc[k] += wx * wy * wz * t[k];
                    }
                }
            }
        }
        acc
    }
}

/// OpenCL's texel taps on one axis of `n` texels (§8.2): index (None: the border), weight.
fn axis_taps(s: f32, n: i64, sm: &SamplerValue, linear: bool) -> Vec<(Option<i64>, f64)> {
    let nf = n as f64;
    let s = f64::from(s);
    let u = match sm.addressing {
        CL_ADDRESS_REPEAT => (s - s.floor()) * nf,
        CL_ADDRESS_MIRRORED_REPEAT => {
            let sp = 2.0 * (0.5 * s).round_ties_even();
            (s - sp).abs() * nf
        }
        _ if sm.normalized => s * nf,
        _ => s,
    };
    let fix = |i: i64| match sm.addressing {
        CL_ADDRESS_REPEAT => Some(i.rem_euclid(n)),
        CL_ADDRESS_MIRRORED_REPEAT | CL_ADDRESS_CLAMP_TO_EDGE => Some(i.clamp(0, n - 1)),
        _ => (0..n).contains(&i).then_some(i),
    };
    if linear {
        let t = u - 0.5;
        let i0 = t.floor();
        let a = t - i0;
        vec![(fix(i0 as i64), 1.0 - a), (fix(i0 as i64 + 1), a)]
    } else {
        vec![(fix(u.floor() as i64), 1.0)]
    }
}

fn smp(normalized: bool, addressing: u32, filter: u32) -> SamplerValue {
    SamplerValue {
        normalized,
        addressing,
        filter,
    }
}

const EDGE_NEAREST: SamplerValue = SamplerValue {
    normalized: false,
    addressing: CL_ADDRESS_CLAMP_TO_EDGE,
    filter: CL_FILTER_NEAREST,
};

/// A case whose output buffer `arg` is `n` float4s computed by `f` per work-item index.
fn per_item<G: Fn(&Run, usize, usize, usize) -> [f64; 4] + 'static>(
    c: Case,
    arg: usize,
    (gx, gy, gz): (usize, usize, usize),
    tol: f64,
    f: G,
) -> Case {
    c.check(move |r| {
        let mut want = Vec::new();
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    want.extend(f(r, x, y, z));
                }
            }
        }
        expect_close(&r.output::<f32>(arg), &want, tol)
    })
}

fn float4s(n: usize, seed: u32, lo: f32, hi: f32) -> Vec<f32> {
    (0..4 * n as u32)
        .map(|i| {
            let x = i.wrapping_mul(2_246_822_519).wrapping_add(seed) >> 8;
            lo + (hi - lo) * (x as f32 / (1u32 << 24) as f32)
        })
        .collect()
}

fn bytes_equal(want: Vec<u8>) -> impl Fn(&Run) -> Vec<u8> {
    move |_| want.clone()
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let add_img = |c: Case, i: &Img| c.image(i.s, i.data.clone());
    let out4 = |c: Case, n: usize| c.out::<f32>(4 * n);

    // ---- reads
    let a = img(ImageType::D2, Fmt(RGBA, UNORM8), (13, 7, 1), 1);
    let ac = a.clone();
    v.push(per_item(
        out4(
            add_img(case(F, "ir_int_coords").global(&[13, 7]), &a),
            13 * 7,
        ),
        1,
        (13, 7, 1),
        1e-7,
        move |_, x, y, _| ac.load(x as i64, y as i64, 0),
    ));

    let a = img(ImageType::D2, Fmt(RGBA, UNORM16), (8, 6, 1), 2);
    for sm in [
        smp(true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR),
        smp(false, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR),
        smp(true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR),
        smp(false, CL_ADDRESS_NONE, CL_FILTER_NEAREST),
    ] {
        let c0: [f32; 4] = if sm.normalized {
            [-0.137, -0.093, 0.0913, 0.1179]
        } else {
            [-1.37, -0.61, 0.731, 0.493]
        };
        let ac = a.clone();
        v.push(per_item(
            out4(
                add_img(case(F, "ir_sampler_arg").global(&[12, 10]), &a).sampler(sm),
                120,
            )
            .val_bytes(bytes_of(&c0)),
            2,
            (12, 10, 1),
            2e-6,
            move |_, x, y, _| {
                let c = [c0[0] + x as f32 * c0[2], c0[1] + y as f32 * c0[3], 0.0];
                ac.sample(&sm, c, 2, None)
            },
        ));
    }

    let a = img(ImageType::D2, Fmt(RGBA, SINT16), (9, 5, 1), 3);
    let ac = a.clone();
    v.push(
        add_img(case(F, "ir_read_i").global(&[9, 5]), &a)
            .sampler(EDGE_NEAREST)
            .out::<i32>(4 * 45)
            .expect(2, move |_| {
                let mut o = Vec::new();
                for y in 0..5 {
                    for x in 0..9 {
                        o.extend(ac.load(x, y, 0).map(|c| c as i32));
                    }
                }
                o
            }),
    );
    let a = img(ImageType::D2, Fmt(RGBA, UINT8), (9, 5, 1), 4);
    let ac = a.clone();
    v.push(
        add_img(case(F, "ir_read_ui").global(&[9, 5]), &a)
            .out::<u32>(4 * 45)
            .expect(1, move |_| {
                let mut o = Vec::new();
                for y in 0..5 {
                    for x in 0..9 {
                        o.extend(ac.load(x, y, 0).map(|c| c as u32));
                    }
                }
                o
            }),
    );
    for (k, f) in [
        Fmt(BGRA, UNORM8),
        Fmt(SRGBA, UNORM8),
        Fmt(RGBA, SNORM8),
        Fmt(R, UNORM16),
        Fmt(RG, HALF),
        Fmt(LUMINANCE, UNORM8),
        Fmt(INTENSITY, UNORM8),
        Fmt(A, UNORM8),
        Fmt(R, FLOAT),
        Fmt(RG, FLOAT),
    ]
    .into_iter()
    .enumerate()
    {
        let a = img(ImageType::D2, f, (6, 4, 1), 10 + k as u32);
        let ac = a.clone();
        // sRGB decoding is allowed 0.5 ulp of error beyond the conversion (§8.3.1.1).
        let tol = if f.0 == SRGBA { 1e-6 } else { 1e-7 };
        v.push(per_item(
            out4(
                add_img(case(F, "ir_read_f_nosampler").global(&[6, 4]), &a),
                24,
            ),
            1,
            (6, 4, 1),
            tol,
            move |_, x, y, _| ac.load(x as i64, y as i64, 0),
        ));
    }
    for (name, f) in [
        ("ir_border_no_alpha", Fmt(R, UNORM8)),
        ("ir_border", Fmt(RGBA, UNORM8)),
    ] {
        let a = img(ImageType::D2, f, (5, 4, 1), 20);
        let ac = a.clone();
        v.push(per_item(
            out4(add_img(case(F, name).global(&[10, 7]), &a), 70),
            1,
            (10, 7, 1),
            1e-7,
            move |_, x, y, _| {
                let sm = smp(false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
                ac.sample(&sm, [x as f32 - 2.5, y as f32 - 1.5, 0.0], 2, None)
            },
        ));
    }
    let a = img(ImageType::D2, Fmt(RGBA, UINT8), (5, 4, 1), 21);
    let ac = a.clone();
    v.push(
        add_img(case(F, "ir_border_int").global(&[9, 7]), &a)
            .out::<u32>(4 * 63)
            .expect(1, move |_| {
                let mut o = Vec::new();
                for y in 0..7i64 {
                    for x in 0..9i64 {
                        o.extend(ac.at(x - 2, y - 1, 0).unwrap_or([0.0; 4]).map(|c| c as u32));
                    }
                }
                o
            }),
    );
    let a = img(ImageType::D2, Fmt(RGBA, UNORM8), (6, 5, 1), 22);
    let ac = a.clone();
    v.push(per_item(
        out4(add_img(case(F, "ir_norm_linear").global(&[8, 8]), &a), 64).val(0.131f32),
        1,
        (8, 8, 1),
        2e-6,
        move |_, x, y, _| {
            let sm = smp(true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
            ac.sample(
                &sm,
                [(x as f32 + 0.37) * 0.131, (y as f32 + 0.21) * 0.131, 0.0],
                2,
                None,
            )
        },
    ));
    let a = img(ImageType::D2, Fmt(RGBA, UNORM8), (5, 4, 1), 23);
    let ac = a.clone();
    v.push(
        add_img(case(F, "ir_repeat_mirror").global(&[12, 9]), &a)
            .out::<f32>(4 * 108)
            .out::<f32>(4 * 108)
            .check(move |r| {
                let (mut rep, mut mir) = (Vec::new(), Vec::new());
                for y in 0..9 {
                    for x in 0..12 {
                        let c = [x as f32 * 0.173 - 1.05, y as f32 * 0.291 - 0.83, 0.0];
                        rep.extend(ac.sample(
                            &smp(true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST),
                            c,
                            2,
                            None,
                        ));
                        mir.extend(ac.sample(
                            &smp(true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST),
                            c,
                            2,
                            None,
                        ));
                    }
                }
                expect_close(&r.output::<f32>(1), &rep, 1e-7)
                    .map_err(|e| format!("repeat: {e}"))?;
                expect_close(&r.output::<f32>(2), &mir, 1e-7).map_err(|e| format!("mirror: {e}"))
            }),
    );
    let a = img(ImageType::D1, Fmt(RGBA, UNORM8), (11, 1, 1), 24);
    let ac = a.clone();
    let sm1 = smp(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    v.push(per_item(
        out4(
            add_img(case(F, "ir_1d").global(&[16]).local(&[16]), &a).sampler(sm1),
            16,
        ),
        2,
        (16, 1, 1),
        2e-6,
        move |_, x, _, _| {
            let s = ac.sample(&sm1, [x as f32 * 0.71 - 1.3, 0.0, 0.0], 1, None);
            let l = ac.load((x % 11) as i64, 0, 0);
            [0, 1, 2, 3].map(|k| s[k] + l[k])
        },
    ));
    let a = img(ImageType::D1Array, Fmt(RGBA, UNORM16), (7, 3, 1), 25);
    let ac = a.clone();
    v.push(per_item(
        out4(add_img(case(F, "ir_1d_array").global(&[7, 3]), &a), 21),
        1,
        (7, 3, 1),
        1e-7,
        move |_, x, y, _| ac.load(x as i64, y as i64, 0),
    ));
    let a = img(ImageType::D2Array, Fmt(RGBA, UNORM8), (4, 3, 4), 26);
    let ac = a.clone();
    v.push(per_item(
        out4(
            add_img(
                case(F, "ir_2d_array").global(&[4, 3, 6]).local(&[4, 3, 1]),
                &a,
            )
            .sampler(EDGE_NEAREST),
            72,
        ),
        2,
        (4, 3, 6),
        1e-7,
        move |_, x, y, l| {
            let c = [x as f32 + 0.5, y as f32 + 0.5, 0.0];
            ac.sample(&EDGE_NEAREST, c, 2, Some(l as f32 * 0.8 - 0.6))
        },
    ));
    let a = img(ImageType::D3, Fmt(RGBA, UNORM8), (4, 4, 3), 27);
    let ac = a.clone();
    v.push(per_item(
        out4(
            add_img(
                case(F, "ir_3d_linear").global(&[5, 5, 4]).local(&[5, 5, 1]),
                &a,
            )
            .sampler(sm1),
            100,
        ),
        2,
        (5, 5, 4),
        2e-6,
        move |_, x, y, z| {
            let c = [
                x as f32 * 0.61 + 0.2,
                y as f32 * 0.53 + 0.1,
                z as f32 * 0.47 + 0.3,
            ];
            ac.sample(&sm1, c, 3, None)
        },
    ));
    let a = img(ImageType::D3, Fmt(RGBA, UINT16), (4, 3, 2), 28);
    let ac = a.clone();
    v.push(
        add_img(
            case(F, "ir_3d_int").global(&[4, 3, 2]).local(&[4, 3, 1]),
            &a,
        )
        .out::<u32>(4 * 24)
        .expect(1, move |_| {
            let mut o = Vec::new();
            for z in 0..2 {
                for y in 0..3 {
                    for x in 0..4 {
                        o.extend(ac.load(x, y, z).map(|c| c as u32));
                    }
                }
            }
            o
        }),
    );
    let a = img(ImageType::Buffer, Fmt(RGBA, HALF), (40, 1, 1), 29);
    let ac = a.clone();
    v.push(per_item(
        out4(
            add_img(case(F, "ir_buffer").global(&[40]).local(&[40]), &a),
            40,
        ),
        1,
        (40, 1, 1),
        0.0,
        move |_, x, _, _| ac.load(x as i64, 0, 0),
    ));

    // ---- writes
    let special = |n: usize| -> Vec<f32> {
        let mut v = float4s(n, 5, -0.25, 1.25);
        for (k, x) in v.iter_mut().enumerate().step_by(7) {
            *x = [f32::NAN, 0.5 / 255.0, 1.5 / 255.0, 127.5 / 255.0][k % 4];
        }
        v
    };
    for f in [
        Fmt(RGBA, UNORM8),
        Fmt(RGBA, SNORM8),
        Fmt(RGBA, HALF),
        Fmt(RGBA, FLOAT),
        Fmt(BGRA, UNORM8),
        Fmt(R, UNORM16),
    ] {
        let d = img(ImageType::D2, f, (7, 5, 1), 30);
        let vals = if f.1 == HALF || f.1 == FLOAT {
            // Exact in half: no rounding question for the reference's simple converter.
            float4s(35, 6, -2.0, 2.0)
                .iter()
                .map(|x| half(to_half(*x)))
                .collect()
        } else {
            special(35)
        };
        let want: Vec<u8> = vals
            .chunks(4)
            .flat_map(|c| f.encode([c[0], c[1], c[2], c[3]].map(f64::from)))
            .collect();
        v.push(
            case(F, "iw_float")
                .global(&[7, 5])
                .image(d.s, vec![0xA5; d.data.len()])
                .buf(vals)
                .expect(0, bytes_equal(want)),
        );
    }
    let d = img(ImageType::D2, Fmt(RGBA, SINT8), (6, 3, 1), 31);
    let ints: Vec<i32> = (0..72).map(|i| (i - 36) * 9 * ((i % 3) + 1)).collect();
    let want: Vec<u8> = ints
        .chunks(4)
        .flat_map(|c| Fmt(RGBA, SINT8).encode([c[0], c[1], c[2], c[3]].map(f64::from)))
        .collect();
    v.push(
        case(F, "iw_int")
            .global(&[6, 3])
            .image(d.s, vec![0xA5; d.data.len()])
            .buf(ints)
            .expect(0, bytes_equal(want)),
    );
    for f in [Fmt(RGBA, UINT16), Fmt(R, UINT8)] {
        let d = img(ImageType::D2, f, (6, 3, 1), 32);
        let u: Vec<u32> = (0..72u32)
            .map(|i| i.wrapping_mul(0x9E37_79B9) >> (i % 20))
            .collect();
        let want: Vec<u8> = u
            .chunks(4)
            .flat_map(|c| f.encode([c[0], c[1], c[2], c[3]].map(f64::from)))
            .collect();
        v.push(
            case(F, "iw_uint")
                .global(&[6, 3])
                .image(d.s, vec![0xA5; d.data.len()])
                .buf(u)
                .expect(0, bytes_equal(want)),
        );
    }
    let written = |f: Fmt, vals: &[f32]| -> Vec<u8> {
        vals.chunks(4)
            .flat_map(|c| f.encode([c[0], c[1], c[2], c[3]].map(f64::from)))
            .collect()
    };
    let d = img(ImageType::D1, Fmt(RGBA, FLOAT), (17, 1, 1), 33);
    let vals = float4s(17, 7, -3.0, 3.0);
    v.push(
        case(F, "iw_1d")
            .global(&[17])
            .local(&[17])
            .image(d.s, vec![0xA5; d.data.len()])
            .buf(vals.clone())
            .expect(0, bytes_equal(written(Fmt(RGBA, FLOAT), &vals))),
    );
    // A 1D array's elements are 8 texels apart (5 rounded to 4's multiple): the gaps keep
    // their bytes.
    let d = img(ImageType::D1Array, Fmt(RGBA, UNORM8), (5, 3, 1), 34);
    let vals = special(15);
    let mut want = vec![0xA5u8; d.data.len()];
    for l in 0..3 {
        let row = written(Fmt(RGBA, UNORM8), &vals[l * 20..(l + 1) * 20]);
        want[l * 32..l * 32 + 20].copy_from_slice(&row);
    }
    v.push(
        case(F, "iw_1d_array")
            .global(&[5, 3])
            .image(d.s, vec![0xA5; d.data.len()])
            .buf(vals)
            .expect(0, bytes_equal(want)),
    );
    let d = img(ImageType::D2Array, Fmt(RG, FLOAT), (4, 3, 3), 35);
    let vals = float4s(36, 8, -1.0, 1.0);
    let mut want = vec![0xA5u8; d.data.len()];
    for l in 0..3usize {
        for y in 0..3usize {
            for x in 0..4usize {
                let k = (l * 3 + y) * 4 + x;
                let o = (l * 4 + y) * 32 + x * 8;
                want[o..o + 8].copy_from_slice(&written(Fmt(RG, FLOAT), &vals[4 * k..4 * k + 4]));
            }
        }
    }
    v.push(
        case(F, "iw_2d_array")
            .global(&[4, 3, 3])
            .local(&[4, 3, 1])
            .image(d.s, vec![0xA5; d.data.len()])
            .buf(vals)
            .expect(0, bytes_equal(want)),
    );
    let d = img(ImageType::D3, Fmt(RGBA, UNORM16), (4, 3, 2), 36);
    let vals = special(24);
    let mut want = vec![0xA5u8; d.data.len()];
    for z in 0..2usize {
        for y in 0..3usize {
            for x in 0..4usize {
                let k = (z * 3 + y) * 4 + x;
                let o = (z * 4 + y) * 32 + x * 8;
                want[o..o + 8]
                    .copy_from_slice(&written(Fmt(RGBA, UNORM16), &vals[4 * k..4 * k + 4]));
            }
        }
    }
    v.push(
        case(F, "iw_3d")
            .global(&[4, 3, 2])
            .local(&[4, 3, 1])
            .image(d.s, vec![0xA5; d.data.len()])
            .buf(vals)
            .expect(0, bytes_equal(want)),
    );
    let d = img(ImageType::Buffer, Fmt(RGBA, UINT8), (33, 1, 1), 37);
    let u: Vec<u32> = (0..132u32).map(|i| i * 3).collect();
    let want: Vec<u8> = u.iter().map(|&x| x.min(255) as u8).collect();
    v.push(
        case(F, "iw_buffer")
            .global(&[33])
            .local(&[33])
            .image(d.s, vec![0xA5; d.data.len()])
            .buf(u)
            .expect(0, bytes_equal(want)),
    );

    // ---- round trips
    for f in [Fmt(RGBA, UNORM8), Fmt(RGBA, HALF)] {
        let d = img(ImageType::D2, f, (8, 4, 1), 40);
        let vals: Vec<f32> = if f.1 == HALF {
            float4s(32, 9, -2.0, 2.0)
                .iter()
                .map(|x| half(to_half(*x)))
                .collect()
        } else {
            special(32)
        };
        let back: Vec<f64> = vals
            .chunks(4)
            .flat_map(|c| f.decode(&f.encode([c[0], c[1], c[2], c[3]].map(f64::from))))
            .collect();
        v.push(
            case(F, "irw_round_trip")
                .global(&[8, 4])
                .image(d.s, vec![0; d.data.len()])
                .buf(vals)
                .out::<f32>(128)
                .check(move |r| expect_close(&r.output::<f32>(2), &back, 1e-7)),
        );
    }
    let d = img(ImageType::D2, Fmt(RGBA, FLOAT), (8, 4, 1), 41);
    let dd = d.data.clone();
    v.push(
        case(F, "irw_scale_in_place")
            .global(&[8, 4])
            .image(d.s, d.data.clone())
            .val(1.5f32)
            .expect(0, move |_| {
                elems_of::<f32>(&dd)
                    .iter()
                    .map(|x| x * 1.5)
                    .collect::<Vec<f32>>()
            }),
    );
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (9, 5, 1), 42);
    let d = img(ImageType::D2, Fmt(RGBA, UNORM16), (9, 5, 1), 43);
    // c / 255 as UNORM16 is c × 257 exactly.
    let want: Vec<u16> = s.data.iter().map(|&c| u16::from(c) * 257).collect();
    v.push(
        case(F, "irw_convert")
            .global(&[9, 5])
            .image(s.s, s.data.clone())
            .image(d.s, vec![0; d.data.len()])
            .expect(1, move |_| want.clone()),
    );

    // ---- queries
    let a = img(ImageType::D2, Fmt(BGRA, UNORM8), (7, 5, 1), 50);
    v.push(
        add_img(case(F, "iq_2d").global(&[8]), &a)
            .out::<i32>(6)
            .expect(1, |_| vec![7, 5, UNORM8 as i32, BGRA as i32, 7, 5]),
    );
    let a = img(ImageType::D3, Fmt(R, FLOAT), (3, 4, 5), 51);
    v.push(
        add_img(case(F, "iq_3d").global(&[8]), &a)
            .out::<i32>(5)
            .expect(1, |_| vec![3, 4, 5, 0, 5]),
    );
    let a = img(ImageType::D1Array, Fmt(RGBA, UNORM8), (6, 3, 1), 52);
    let b = img(ImageType::D2Array, Fmt(RGBA, UNORM8), (4, 5, 2), 53);
    v.push(
        add_img(add_img(case(F, "iq_arrays").global(&[8]), &a), &b)
            .out::<i32>(5)
            .expect(2, |_| vec![6, 3, 4, 5, 2]),
    );
    let a = img(ImageType::Buffer, Fmt(RGBA, UINT8), (21, 1, 1), 54);
    v.push(
        add_img(case(F, "iq_buffer").global(&[8]), &a)
            .out::<i32>(2)
            .expect(1, |_| vec![21, RGBA as i32]),
    );

    // ---- filters
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (9, 7, 1), 60);
    let d = img(ImageType::D2, Fmt(RGBA, FLOAT), (9, 7, 1), 61);
    let sc = s.clone();
    v.push(per_item(
        case(F, "if_box_blur")
            .global(&[9, 7])
            .image(s.s, s.data.clone())
            .image(d.s, vec![0; d.data.len()]),
        1,
        (9, 7, 1),
        1e-6,
        move |_, x, y, _| {
            let mut acc = [0f64; 4];
            for dy in -1..=1i64 {
                for dx in -1..=1i64 {
                    let t = sc.load((x as i64 + dx).clamp(0, 8), (y as i64 + dy).clamp(0, 6), 0);
                    for k in 0..4 {
                        acc[k] += t[k];
                    }
                }
            }
            acc.map(|a| a / 9.0)
        },
    ));
    let s = img(ImageType::D2, Fmt(R, UNORM8), (9, 7, 1), 62);
    let sc = s.clone();
    v.push(
        case(F, "if_sobel")
            .global(&[9, 7])
            .image(s.s, s.data.clone())
            .out::<f32>(63)
            .check(move |r| {
                let p = |x: i64, y: i64| sc.load(x.clamp(0, 8), y.clamp(0, 6), 0)[0];
                let mut want = Vec::new();
                for y in 0..7i64 {
                    for x in 0..9i64 {
                        let gx = (p(x + 1, y - 1) + 2.0 * p(x + 1, y) + p(x + 1, y + 1))
                            - (p(x - 1, y - 1) + 2.0 * p(x - 1, y) + p(x - 1, y + 1));
                        let gy = (p(x - 1, y + 1) + 2.0 * p(x, y + 1) + p(x + 1, y + 1))
                            - (p(x - 1, y - 1) + 2.0 * p(x, y - 1) + p(x + 1, y - 1));
                        want.push(gx * gx + gy * gy);
                    }
                }
                expect_close(&r.output::<f32>(1), &want, 1e-5)
            }),
    );
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (8, 8, 1), 63);
    let d = img(ImageType::D2, Fmt(RGBA, FLOAT), (5, 3, 1), 64);
    let sc = s.clone();
    v.push(per_item(
        case(F, "if_resize")
            .global(&[5, 3])
            .image(s.s, s.data.clone())
            .image(d.s, vec![0; d.data.len()]),
        1,
        (5, 3, 1),
        2e-6,
        move |_, x, y, _| {
            let sm = smp(true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
            let c = [(x as f32 + 0.5) / 5.0, (y as f32 + 0.5) / 3.0, 0.0];
            sc.sample(&sm, c, 2, None)
        },
    ));
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (8, 6, 1), 65);
    let sc = s.clone();
    let (cs, sn) = (0.3f32.cos(), 0.3f32.sin());
    v.push(
        add_img(case(F, "if_rotate").global(&[8, 6]), &s)
            .out::<f32>(4 * 48)
            .val(cs)
            .val(sn)
            .check(move |r| {
                // Nearest sampling at computed coordinates: where one lies within 1e-4 of a
                // texel edge, either texel is the right answer (the kernel's float rounding,
                // fused or not, may fall either side).
                let got = r.output::<f32>(1);
                let sm = smp(false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
                for y in 0..6usize {
                    for x in 0..8usize {
                        let (cx, cy) = (4.0f64, 3.0f64);
                        let (px, py) = (x as f64 + 0.5 - cx, y as f64 + 0.5 - cy);
                        let u = px * f64::from(cs) - py * f64::from(sn) + cx;
                        let v = px * f64::from(sn) + py * f64::from(cs) + cy;
                        let i = y * 8 + x;
                        let g = &got[4 * i..4 * i + 4];
                        // Either side of an edge the coordinate is near.
                        let sides = |a: f64| -> Vec<f64> {
                            if (a - a.round()).abs() < 1e-4 {
                                vec![a.round() - 0.5, a.round() + 0.5]
                            } else {
                                vec![a]
                            }
                        };
                        let options: Vec<[f64; 2]> = sides(u)
                            .into_iter()
                            .flat_map(|a| sides(v).into_iter().map(move |b| [a, b]))
                            .collect();
                        let ok = options.iter().any(|[a, b]| {
                            let w = sc.sample(&sm, [*a as f32, *b as f32, 0.0], 2, None);
                            (0..4).all(|k| (f64::from(g[k]) - w[k]).abs() <= 1e-7)
                        });
                        if !ok {
                            return Err(format!("({x}, {y}): got {g:?} at ({u}, {v})"));
                        }
                    }
                }
                Ok(())
            }),
    );
    let s = img(ImageType::D2, Fmt(RGBA, UINT8), (7, 3, 1), 66);
    let d = img(ImageType::D2, Fmt(RGBA, UINT8), (7, 3, 1), 67);
    let mut want = vec![0u8; d.data.len()];
    for y in 0..3 {
        for x in 0..7 {
            let (from, to) = ((y * 7 + x) * 4, (y * 7 + 6 - x) * 4);
            want[to..to + 4].copy_from_slice(&s.data[from..from + 4]);
        }
    }
    v.push(
        case(F, "if_flip")
            .global(&[7, 3])
            .image(s.s, s.data.clone())
            .image(d.s, vec![0; d.data.len()])
            .expect(1, bytes_equal(want)),
    );
    let s = img(ImageType::D2, Fmt(R, UNORM8), (16, 8, 1), 68);
    let mut bins = vec![0i32; 16];
    for &c in &s.data {
        bins[((f32::from(c) / 255.0) * 15.99) as usize] += 1;
    }
    v.push(
        case(F, "if_histogram")
            .global(&[16, 8])
            .image(s.s, s.data.clone())
            .buf(vec![0i32; 16])
            .expect(1, move |_| bins.clone()),
    );
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (6, 5, 1), 69);
    let d = img(ImageType::D2, Fmt(RGBA, FLOAT), (6, 5, 1), 70);
    let sc = s.clone();
    v.push(per_item(
        case(F, "if_gray")
            .global(&[6, 5])
            .image(s.s, s.data.clone())
            .image(d.s, vec![0; d.data.len()]),
        1,
        (6, 5, 1),
        1e-6,
        move |_, x, y, _| {
            let c = sc.load(x as i64, y as i64, 0);
            let l = c[0] * 0.299 + c[1] * 0.587 + c[2] * 0.114;
            [l, l, l, c[3]]
        },
    ));

    // ---- samplers through functions, several images, SIMD8, divergence, loops
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (6, 5, 1), 71);
    let sc = s.clone();
    let sm = smp(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    v.push(per_item(
        out4(
            add_img(case(F, "is_through_function").global(&[6, 5]), &s).sampler(sm),
            30,
        ),
        2,
        (6, 5, 1),
        2e-6,
        move |_, x, y, _| {
            let a = sc.sample(&sm, [x as f32 + 0.25, y as f32 + 0.75, 0.0], 2, None);
            let b = sc.load(x as i64, y as i64, 0);
            [0, 1, 2, 3].map(|k| a[k] + b[k])
        },
    ));
    let a = img(ImageType::D2, Fmt(RGBA, UNORM8), (6, 5, 1), 72);
    let b = img(ImageType::D2, Fmt(RGBA, UNORM8), (4, 4, 1), 73);
    let d = img(ImageType::D2, Fmt(RGBA, FLOAT), (6, 5, 1), 74);
    let (ac, bc) = (a.clone(), b.clone());
    v.push(per_item(
        case(F, "is_two_images")
            .global(&[6, 5])
            .image(a.s, a.data.clone())
            .image(b.s, b.data.clone())
            .sampler(EDGE_NEAREST)
            .image(d.s, vec![0; d.data.len()]),
        3,
        (6, 5, 1),
        1e-6,
        move |_, x, y, _| {
            let p = ac.load(x as i64, y as i64, 0);
            let q = bc.sample(
                &smp(true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST),
                [x as f32 * 0.1, y as f32 * 0.1, 0.0],
                2,
                None,
            );
            [0, 1, 2, 3].map(|k| p[k] * 0.5 + q[k])
        },
    ));
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (5, 6, 1), 75);
    let d = img(ImageType::D2, Fmt(RGBA, FLOAT), (8, 8, 1), 76);
    let sc = s.clone();
    v.push(per_item(
        case(F, "is_simd8")
            .global(&[8, 8])
            .image(s.s, s.data.clone())
            .image(d.s, vec![0; d.data.len()]),
        1,
        (8, 8, 1),
        1e-7,
        move |_, x, y, _| sc.load((y % 5) as i64, (x % 6) as i64, 0),
    ));
    // The same at SIMD32: two SIMD16 sampler messages a read, four SIMD8 typed writes.
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (5, 6, 1), 79);
    let d = img(ImageType::D2, Fmt(RGBA, FLOAT), (32, 4, 1), 80);
    let sc = s.clone();
    v.push(per_item(
        case(F, "is_simd32")
            .global(&[32, 4])
            .image(s.s, s.data.clone())
            .image(d.s, vec![0; d.data.len()]),
        1,
        (32, 4, 1),
        1e-7,
        move |_, x, y, _| sc.load((y % 5) as i64, (x % 6) as i64, 0),
    ));
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (8, 8, 1), 77);
    let sc = s.clone();
    v.push(per_item(
        out4(add_img(case(F, "is_divergent").global(&[8, 8]), &s), 64),
        1,
        (8, 8, 1),
        3e-7,
        move |_, x, y, _| {
            if (x ^ y) & 1 == 1 {
                sc.load(x as i64, y as i64, 0)
            } else {
                let c = [x as f32 * 0.05, y as f32 * 0.05, 0.0];
                sc.sample(&smp(true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST), c, 2, None)
                    .map(|t| t * 2.0)
            }
        },
    ));
    let s = img(ImageType::D2, Fmt(RGBA, UNORM8), (10, 4, 1), 78);
    let sc = s.clone();
    v.push(per_item(
        out4(add_img(case(F, "is_loop").global(&[10, 4]), &s), 40).val(4i32),
        1,
        (10, 4, 1),
        1e-6,
        move |_, x, y, _| {
            let mut acc = [0f64; 4];
            for k in 0..4 {
                let t = sc.load((x as i64 + k).min(9), y as i64, 0);
                for c in 0..4 {
                    acc[c] += t[c];
                }
            }
            acc
        },
    ));
    // cl_intel_subgroups' image block reads and writes: a 32-wide R32_UINT image of 6 rows,
    // 32 x 3 work-items, four rows read from row y (clamped to the last), two written at 2y.
    let (w, h) = (32u32, 6u32);
    let surface = |data_type| ImageSurface {
        ty: ImageType::D2,
        format: 0x0D7,
        width: w,
        height: h,
        depth: 1,
        row_pitch: 4 * w,
        qpitch: 8,
        tiling: 0,
        channel_order: R,
        channel_data_type: data_type,
    };
    let texels: Vec<u32> = (0..w * h)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 5)
        .collect();
    let at = move |t: &[u32], x: u32, y: u32| t[(y.min(h - 1) * w + x) as usize];
    v.push(
        case(F, "ib_rows")
            .global(&[w as usize, 3])
            .image(surface(UINT32), bytes_of(&texels))
            .image(surface(UINT32), vec![0xA5; (4 * w * h) as usize])
            .out::<u32>((w * 3) as usize)
            .expect(2, move |r| {
                let t = r.input::<u32>(0);
                (0..3)
                    .flat_map(|y| {
                        let t = t.clone();
                        (0..w).map(move |x| {
                            (0..4).fold(0u32, |acc, k| acc.wrapping_add(at(&t, x, y + k) << k))
                        })
                    })
                    .collect::<Vec<u32>>()
            })
            .expect(1, move |r| {
                let t = r.input::<u32>(0);
                let mut out: Vec<u32> = vec![0xA5A5_A5A5; (w * h) as usize];
                for y in 0..3 {
                    for x in 0..w {
                        let rd = |k| at(&t, x, y + k);
                        out[((2 * y) * w + x) as usize] = rd(0) ^ rd(3);
                        out[((2 * y + 1) * w + x) as usize] = rd(1).wrapping_add(rd(2));
                    }
                }
                out
            }),
    );
    v
}
