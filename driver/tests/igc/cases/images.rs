//! Cases of tests/igc/images.cl: IGC's image code (sampler `sample_lz` and `ld_lz`, typed
//! surface writes) on the GPU model. References follow the OpenCL C spec's rules (§8.2
//! addressing and filtering, §8.3 conversions), computed here on the images' bytes;
//! coordinates stay off texel boundaries, where the spec's float arithmetic and the
//! hardware's may round a texel index differently.
use crate::igc::harness::*;
use gencl::submit::images::*;

const F: &str = "images.cl";

const CL_R: u32 = 0x10B0;
const CL_RGBA: u32 = 0x10B5;
const CL_BGRA: u32 = 0x10B6;
const CL_UNORM_INT8: u32 = 0x10D2;
const CL_SIGNED_INT16: u32 = 0x10D8;
const CL_UNSIGNED_INT8: u32 = 0x10DA;
const CL_UNSIGNED_INT16: u32 = 0x10DB;
const CL_UNSIGNED_INT32: u32 = 0x10DC;
const CL_HALF_FLOAT: u32 = 0x10DD;
const CL_FLOAT: u32 = 0x10DE;

/// A linear image: rows of `w * bpp` bytes, slices (or array elements) `h` rounded up to 4
/// rows apart.
fn linear(ty: ImageType, format: u16, bpp: u32, (w, h, d): (u32, u32, u32)) -> ImageSurface {
    ImageSurface {
        ty,
        format,
        width: w,
        height: h,
        depth: d,
        row_pitch: w * bpp,
        qpitch: h.next_multiple_of(4),
        tiling: 0,
        channel_order: CL_RGBA,
        channel_data_type: CL_UNORM_INT8,
    }
}

fn bytes_len(s: &ImageSurface) -> usize {
    (match s.ty {
        ImageType::Buffer => s.row_pitch * s.width,
        ImageType::D3 | ImageType::D1Array | ImageType::D2Array => s.row_pitch * s.qpitch * s.depth,
        ImageType::D1 | ImageType::D2 => s.row_pitch * s.height,
    }) as usize
}

fn noise(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32)
        .map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 11) as u8)
        .collect()
}

/// Byte offset of texel (x, y, z) of a linear image.
fn at(s: &ImageSurface, bpp: u32, x: i64, y: i64, z: i64) -> usize {
    ((z as u32 * s.qpitch + y as u32) * s.row_pitch + x as u32 * bpp) as usize
}

/// RGBA8 UNORM texel as OpenCL converts it: c / 255.
fn rgba8(data: &[u8], s: &ImageSurface, x: i64, y: i64, z: i64) -> [f32; 4] {
    let o = at(s, 4, x, y, z);
    [0, 1, 2, 3].map(|c| f32::from(data[o + c]) / 255.0)
}

fn sampler(normalized: bool, addressing: u32, filter: u32) -> SamplerValue {
    SamplerValue {
        normalized,
        addressing,
        filter,
    }
}

/// OpenCL's texel taps on one axis of `n` texels: (index or None for the border, weight).
fn taps(
    s: f32,
    n: i64,
    addressing: u32,
    linear: bool,
    normalized: bool,
) -> Vec<(Option<i64>, f32)> {
    let n_f = n as f32;
    match (addressing, linear) {
        (CL_ADDRESS_REPEAT, false) => {
            let u = (s - s.floor()) * n_f;
            let mut i = u.floor() as i64;
            if i > n - 1 {
                i -= n;
            }
            vec![(Some(i), 1.0)]
        }
        (CL_ADDRESS_REPEAT, true) => {
            let u = (s - s.floor()) * n_f;
            let mut i0 = (u - 0.5).floor() as i64;
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += n;
            }
            if i1 > n - 1 {
                i1 -= n;
            }
            let a = (u - 0.5) - (u - 0.5).floor();
            vec![(Some(i0), 1.0 - a), (Some(i1), a)]
        }
        (CL_ADDRESS_MIRRORED_REPEAT, false) => {
            let sp = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - sp).abs() * n_f;
            vec![(Some((u.floor() as i64).min(n - 1)), 1.0)]
        }
        (mode, lin) => {
            let u = if normalized { s * n_f } else { s };
            let fix = |i: i64| match mode {
                CL_ADDRESS_CLAMP_TO_EDGE => Some(i.clamp(0, n - 1)),
                _ => (0..n).contains(&i).then_some(i),
            };
            if lin {
                let i0 = (u - 0.5).floor();
                let a = (u - 0.5) - i0;
                vec![(fix(i0 as i64), 1.0 - a), (fix(i0 as i64 + 1), a)]
            } else {
                vec![(fix(u.floor() as i64), 1.0)]
            }
        }
    }
}

/// read_imagef of an RGBA8 image at `c` (x, y and, for 3D, z) with sampler `sm`.
fn sample(data: &[u8], s: &ImageSurface, sm: &SamplerValue, c: [f32; 3], dims: usize) -> [f32; 4] {
    let linear = sm.filter == CL_FILTER_LINEAR;
    let size = [s.width, s.height, s.depth];
    let axes: Vec<Vec<(Option<i64>, f32)>> = (0..3)
        .map(|k| {
            if k < dims {
                taps(
                    c[k],
                    i64::from(size[k]),
                    sm.addressing,
                    linear,
                    sm.normalized,
                )
            } else {
                vec![(Some(0), 1.0)]
            }
        })
        .collect();
    let mut acc = [0f32; 4];
    for &(x, wx) in &axes[0] {
        for &(y, wy) in &axes[1] {
            for &(z, wz) in &axes[2] {
                let t = match (x, y, z) {
                    (Some(x), Some(y), Some(z)) => rgba8(data, s, x, y, z),
                    _ => [0.0; 4],
                };
                for k in 0..4 {
                    acc[k] += wx * wy * wz * t[k];
                }
            }
        }
    }
    acc
}

/// `expect_close` for a reference in f32.
fn close(got: &[f32], want: &[f32], tol: f32) -> Result<(), String> {
    let want: Vec<f64> = want.iter().map(|w| f64::from(*w)).collect();
    expect_close(got, &want, f64::from(tol))
}

fn f16_to_f32(h: u16) -> f32 {
    let (s, e, m) = (
        (h >> 15) as u32,
        ((h >> 10) & 0x1f) as i32,
        (h & 0x3ff) as u32,
    );
    let mag = match e {
        0 => m as f32 * (2f32).powi(-24),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m as f32 / 1024.0) * (2f32).powi(e - 15),
    };
    if s == 1 {
        -mag
    } else {
        mag
    }
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();

    // Integer coordinates through a constant sampler, UNORM8 to FLOAT.
    let src = linear(ImageType::D2, 0x0C7, 4, (13, 7, 1));
    let dst = ImageSurface {
        channel_data_type: CL_FLOAT,
        ..linear(ImageType::D2, 0x000, 16, (13, 7, 1))
    };
    let src_bytes = noise(bytes_len(&src), 1);
    v.push(
        case(F, "img_copy_nearest")
            .global(&[13, 7])
            .image(src, src_bytes)
            .image(dst, vec![0xA5; bytes_len(&dst)])
            .expect_f32(1, 0, move |r| {
                let d = &r.inputs[0];
                let mut out = Vec::new();
                for y in 0..7 {
                    for x in 0..13 {
                        out.extend(rgba8(d, &src, x, y, 0));
                    }
                }
                out
            }),
    );

    // A sampler argument: linear filtering with each addressing mode, normalized.
    let src = linear(ImageType::D2, 0x0C7, 4, (8, 6, 1));
    for (k, sm) in [
        sampler(true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR),
        sampler(true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR),
        sampler(true, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR),
        sampler(true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST),
        sampler(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR),
    ]
    .into_iter()
    .enumerate()
    {
        let bytes = noise(bytes_len(&src), 7 + k as u32);
        // Off texel boundaries: steps of 0.0731 texels-ish, starting outside the image.
        let (x0, y0, dx, dy) = if sm.normalized {
            (-0.2371f32, -0.3113f32, 0.0913f32, 0.1179f32)
        } else {
            (-1.37f32, -0.61f32, 0.731f32, 0.493f32)
        };
        v.push(
            case(F, "img_sample")
                .global(&[16, 16])
                .local(&[16, 1])
                .image(src, bytes)
                .sampler(sm)
                .out::<f32>(16 * 16 * 4)
                .val(x0)
                .val(y0)
                .val(dx)
                .val(dy)
                .check(move |r| {
                    let d = &r.inputs[0];
                    let mut want = Vec::new();
                    for y in 0..16 {
                        for x in 0..16 {
                            let c = [x0 + x as f32 * dx, y0 + y as f32 * dy, 0.0];
                            want.extend(sample(d, &src, &sm, c, 2));
                        }
                    }
                    close(&r.output::<f32>(2), &want, 1e-5)
                        .map_err(|e| format!("sampler {sm:?}: {e}"))
                }),
        );
    }

    // Samplerless reads of a 16-bit UINT image, and its size.
    let src = ImageSurface {
        channel_data_type: CL_UNSIGNED_INT16,
        ..linear(ImageType::D2, 0x083, 8, (9, 5, 1))
    };
    v.push(
        case(F, "img_load_uint")
            .global(&[9, 5])
            .image(src, noise(bytes_len(&src), 3))
            .out::<u32>(9 * 5 * 4)
            .expect(1, move |r| {
                let d = &r.inputs[0];
                let mut out = Vec::new();
                for y in 0..5 {
                    for x in 0..9 {
                        let o = at(&src, 8, x, y, 0);
                        let c = |k: usize| {
                            u32::from(u16::from_le_bytes([d[o + 2 * k], d[o + 2 * k + 1]]))
                        };
                        out.extend([c(0) + 9, c(1) + 5, c(2), c(3)]);
                    }
                }
                out
            }),
    );

    // A read_write FLOAT image doubled in place.
    let im = ImageSurface {
        channel_data_type: CL_FLOAT,
        ..linear(ImageType::D2, 0x000, 16, (8, 4, 1))
    };
    let vals: Vec<f32> = (0..8 * 4 * 4).map(|i| i as f32 * 0.37 - 11.0).collect();
    v.push(
        case(F, "img_rw_double")
            .global(&[8, 4])
            .image(im, bytes_of(&vals))
            .expect_f32(0, 0, |r| {
                r.input::<f32>(0).iter().map(|v| v * 2.0).collect()
            }),
    );

    // Floats to UNORM8: clamp to [0, 1], NaN to 0, round to nearest even (§8.3.1.1).
    let dst = linear(ImageType::D2, 0x0C7, 4, (8, 2, 1));
    let vals: Vec<f32> = (0..64)
        .map(|i| match i % 8 {
            0 => -0.5,
            1 => 2.0,
            2 => f32::NAN,
            3 => 0.5 / 255.0 * (i / 8) as f32,
            4 => 127.5 / 255.0,
            5 => 1.0,
            _ => i as f32 / 63.0,
        })
        .collect();
    v.push(
        case(F, "img_write_unorm8")
            .global(&[8, 2])
            .image(dst, vec![0xA5; bytes_len(&dst)])
            .buf(vals)
            .expect(0, |r| {
                r.input::<f32>(1)
                    .iter()
                    .map(|&f| {
                        if f.is_nan() {
                            0u8
                        } else {
                            (f.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
                        }
                    })
                    .collect()
            }),
    );

    // Unsigned integers to UINT8: saturate.
    let dst = ImageSurface {
        channel_data_type: CL_UNSIGNED_INT8,
        ..linear(ImageType::D2, 0x0CB, 4, (8, 2, 1))
    };
    let vals: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x9E37_79B9) >> (i % 24))
        .collect();
    v.push(
        case(F, "img_write_uint8")
            .global(&[8, 2])
            .image(dst, vec![0xA5; bytes_len(&dst)])
            .buf(vals)
            .expect(0, |r| {
                r.input::<u32>(1)
                    .iter()
                    .map(|&u| u.min(255) as u8)
                    .collect()
            }),
    );

    // Signed integers to SINT16 and back: saturate both ways.
    let im = ImageSurface {
        channel_data_type: CL_SIGNED_INT16,
        ..linear(ImageType::D2, 0x082, 8, (8, 2, 1))
    };
    let vals: Vec<i32> = (0..64i32).map(|i| (i - 32) * 1777 * (i % 5 + 1)).collect();
    v.push(
        case(F, "img_write_read_sint16")
            .global(&[8, 2])
            .image(im, vec![0; bytes_len(&im)])
            .buf(vals)
            .out::<i32>(64)
            .expect(2, |r| {
                r.input::<i32>(1)
                    .iter()
                    .map(|&i| i.clamp(-32768, 32767))
                    .collect()
            })
            .expect(0, |r| {
                r.input::<i32>(1)
                    .iter()
                    .map(|&i| i.clamp(-32768, 32767) as i16)
                    .collect()
            }),
    );

    // A 3D image, normalized coordinates, repeat, nearest.
    let src = linear(ImageType::D3, 0x0C7, 4, (4, 4, 4));
    let sm = sampler(true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST);
    let (origin, step) = (
        [-0.3123f32, -0.2071, -0.1093, 0.0],
        [0.2513f32, 0.3071, 0.3519, 0.0],
    );
    let mut ob = Vec::new();
    let mut sb = Vec::new();
    for k in 0..4 {
        ob.extend(origin[k].to_le_bytes());
        sb.extend(step[k].to_le_bytes());
    }
    v.push(
        case(F, "img_sample_3d")
            .global(&[6, 5, 4])
            .local(&[6, 5, 1])
            .image(src, noise(bytes_len(&src), 11))
            .sampler(sm)
            .out::<f32>(6 * 5 * 4 * 4)
            .val_bytes(ob)
            .val_bytes(sb)
            .check(move |r| {
                let d = &r.inputs[0];
                let mut want = Vec::new();
                for z in 0..4 {
                    for y in 0..5 {
                        for x in 0..6 {
                            let c = [
                                origin[0] + x as f32 * step[0],
                                origin[1] + y as f32 * step[1],
                                origin[2] + z as f32 * step[2],
                            ];
                            want.extend(sample(d, &src, &sm, c, 3));
                        }
                    }
                }
                close(&r.output::<f32>(2), &want, 0.0)
            }),
    );

    // A 2D array: layers rint-ed and clamped; its size queries.
    let src = linear(ImageType::D2Array, 0x0C7, 4, (4, 3, 5));
    let sm = sampler(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
    v.push(
        case(F, "img_sample_array")
            .global(&[4, 3, 7])
            .local(&[4, 3, 1])
            .image(src, noise(bytes_len(&src), 13))
            .sampler(sm)
            .out::<f32>((4 * 3 * 7 + 1) * 4)
            .val(-1.27f32)
            .val(0.93f32)
            .check(move |r| {
                let d = &r.inputs[0];
                let mut want = Vec::new();
                for l in 0..7 {
                    let layer = (-1.27f32 + l as f32 * 0.93)
                        .round_ties_even()
                        .clamp(0.0, 4.0) as i64;
                    for y in 0..3 {
                        for x in 0..4 {
                            want.extend(rgba8(d, &src, x, y, layer));
                        }
                    }
                }
                want.extend([5.0, 4.0, 3.0, 0.0]);
                close(&r.output::<f32>(2), &want, 0.0)
            }),
    );

    // Images made from buffers: HALF in, FLOAT out, by element.
    let src = ImageSurface {
        channel_data_type: CL_HALF_FLOAT,
        ..linear(ImageType::Buffer, 0x084, 8, (100, 1, 1))
    };
    let dst = ImageSurface {
        channel_data_type: CL_FLOAT,
        ..linear(ImageType::Buffer, 0x000, 16, (100, 1, 1))
    };
    // Finite halves only (exponent field below 31).
    let halves: Vec<u16> = (0..400u32)
        .map(|i| ((i.wrapping_mul(0x9E37_79B9) >> 16) as u16) & 0xBBFF)
        .collect();
    v.push(
        case(F, "img_buffer_scale")
            .global(&[100])
            .local(&[50])
            .image(src, bytes_of(&halves))
            .image(dst, vec![0xA5; 1600])
            .val(1.5f32)
            .expect_f32(1, 0, |r| {
                r.input::<u16>(0)
                    .iter()
                    .map(|&h| f16_to_f32(h) * 1.5)
                    .collect()
            }),
    );

    // CL_ADDRESS_CLAMP reads the border, (0, 0, 0, 1) for a format without alpha (CL_R);
    // mirrored repeat, both through constant samplers with normalized coordinates.
    let src = ImageSurface {
        channel_order: CL_R,
        ..linear(ImageType::D2, 0x140, 1, (5, 4, 1))
    };
    let (scale, offset) = (0.3f32, -0.45f32);
    v.push(
        case(F, "img_sample_border_mirror")
            .global(&[8, 7])
            .local(&[8, 1])
            .image(src, noise(bytes_len(&src), 17))
            .out::<f32>(8 * 7 * 4)
            .out::<f32>(8 * 7 * 4)
            .val(scale)
            .val(offset)
            .check(move |r| {
                let d = &r.inputs[0];
                let r8 =
                    |x: i64, y: i64| [f32::from(d[at(&src, 1, x, y, 0)]) / 255.0, 0.0, 0.0, 1.0];
                let mut border = Vec::new();
                let mut mirror = Vec::new();
                for y in 0..7 {
                    for x in 0..8 {
                        let c = [x as f32 * scale + offset, y as f32 * scale + offset];
                        let b = (
                            taps(c[0], 5, CL_ADDRESS_CLAMP, false, true)[0].0,
                            taps(c[1], 4, CL_ADDRESS_CLAMP, false, true)[0].0,
                        );
                        border.extend(match b {
                            (Some(x), Some(y)) => r8(x, y),
                            _ => [0.0, 0.0, 0.0, 1.0],
                        });
                        let m = (
                            taps(c[0], 5, CL_ADDRESS_MIRRORED_REPEAT, false, true)[0].0,
                            taps(c[1], 4, CL_ADDRESS_MIRRORED_REPEAT, false, true)[0].0,
                        );
                        mirror.extend(r8(m.0.unwrap(), m.1.unwrap()));
                    }
                }
                close(&r.output::<f32>(1), &border, 0.0).map_err(|e| format!("border: {e}"))?;
                close(&r.output::<f32>(2), &mirror, 0.0).map_err(|e| format!("mirror: {e}"))
            }),
    );

    // The format and size queries read what the runtime pushes.
    let a = ImageSurface {
        channel_order: CL_BGRA,
        channel_data_type: CL_UNORM_INT8,
        ..linear(ImageType::D2, 0x0C0, 4, (3, 2, 1))
    };
    let b = ImageSurface {
        channel_order: CL_R,
        channel_data_type: CL_HALF_FLOAT,
        ..linear(ImageType::D3, 0x10E, 2, (7, 6, 5))
    };
    v.push(
        case(F, "img_format_queries")
            .global(&[8])
            .image(a, vec![0; bytes_len(&a)])
            .image(b, vec![0; bytes_len(&b)])
            .out::<i32>(7)
            .expect(2, |_| {
                vec![
                    CL_UNORM_INT8 as i32,
                    CL_BGRA as i32,
                    7,
                    6,
                    5,
                    CL_HALF_FLOAT as i32,
                    CL_R as i32,
                ]
            }),
    );
    // cl_intel_subgroups' image block reads and writes: IGC's media block messages on a
    // 40-dword-wide R32_UINT image of 6 rows, three groups of 16 (the last half outside).
    let (w, h) = (40u32, 6u32);
    let src = ImageSurface {
        channel_order: CL_R,
        channel_data_type: CL_UNSIGNED_INT32,
        ..linear(ImageType::D2, 0x0D7, 4, (w, h, 1))
    };
    let texels: Vec<u32> = (0..w * h)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    v.push(
        case(F, "img_block_rw")
            .global(&[48, h as usize])
            .local(&[16, 1])
            .image(src, bytes_of(&texels))
            .image(src, vec![0xA5; bytes_len(&src)])
            .expect(1, move |r| {
                let t = r.input::<u32>(0);
                let at = |x: u32, y: u32| t[(y.min(h - 1) * w + x) as usize];
                (0..h)
                    .flat_map(|y| {
                        (0..w).map(move |x| {
                            at(x, y)
                                .wrapping_add(at(x, y + 1).wrapping_mul(3))
                                .wrapping_add(at(x, y + 2).wrapping_mul(7))
                        })
                    })
                    .collect::<Vec<u32>>()
            }),
    );
    v
}
