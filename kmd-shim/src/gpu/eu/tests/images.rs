//! Image messages as IGC sends them: `ld_lz`, `sample_lz` with a header (IGC's
//! `sends (16|M0) r25 r6 r41 0x102 0x028D8000`), `sample_l`, and the typed surface write
//! (`sends (8|M0) null r13 r49 0x14C 0x02035001`). Programs are iga64-assembled (the source
//! is quoted above each); expected texels come from the OpenCL C spec's sampling rules
//! (§8.2, "Image addressing and filtering") computed here on the image's bytes.

use super::*;
use crate::genx::gen9::*;
use crate::gpu::binding::Surface;
use crate::gpu::image::surface::Image;

const SSP: u32 = 0x100; // sampler state pointer (from the dynamic state base, MEM_BASE)
const BORDER: u32 = 0x200;
const IMG_A: u64 = MEM_BASE + 0x2000;
const IMG_B: u64 = MEM_BASE + 0x3000;

/// Identity shader channel selects (SCS_RED..SCS_ALPHA), as a runtime programs them.
fn rss(ty: u8, format: u16, w: u16, h: u16, pitch: u32, base: u64) -> RenderSurfaceState {
    RenderSurfaceState {
        surface_type: ty,
        surface_format: format,
        width: w - 1,
        height: h - 1,
        surface_pitch: pitch - 1,
        surface_base_address: base,
        shader_channel_select_red: 4,
        shader_channel_select_green: 5,
        shader_channel_select_blue: 6,
        shader_channel_select_alpha: 7,
        ..Default::default()
    }
}

fn image(s: RenderSurfaceState) -> Option<Surface> {
    Some(Surface::Image(Image::from_state(&s).unwrap()))
}

fn put_f32s(g: &mut [[u8; 32]], reg: usize, v: &[f32]) {
    put_u32s(g, reg, &v.iter().map(|f| f.to_bits()).collect::<Vec<_>>());
}

fn grf_f32(t: &Thread, reg: usize, lane: usize) -> f32 {
    f32::from_bits(t.grf_u32(reg + lane / 8, lane % 8))
}

/// RGBA8 UNORM texels of a `w`-wide image in `mem` at `base` (pitch 4w).
fn rgba8(mem: &FlatMem, base: u64, w: i64, x: i64, y: i64) -> [f32; 4] {
    let mut b = [0u8; 4];
    mem.read(base + (4 * (y * w + x)) as u64, &mut b).unwrap();
    b.map(|c| f32::from(c) / 255.0)
}

fn fill(mem: &FlatMem, base: u64, n: usize, seed: u32) {
    let bytes: Vec<u8> = (0..n as u32)
        .map(|i| (i.wrapping_mul(2654435761).wrapping_add(seed) >> 13) as u8)
        .collect();
    mem.write(base, &bytes).unwrap();
}

fn sampler(mem: &FlatMem, index: u32, st: SamplerState) {
    let st = SamplerState {
        border_color_pointer: BORDER,
        ..st
    };
    mem.put_u32s(MEM_BASE + u64::from(SSP + 16 * index), &st.pack());
}

// sends (8|M0) r20:ud r10 r11 0x42 0x0243A000     // simd8 ld_lz: u, v
// sends (8|M0) null:ud r10 r19 0x14C 0x02035001   // typed write, BTI 1: u | v, r, g, b, a
const LD_TYPED_WRITE: &str = "3300600218b080024101000000a043023300600c103001004501000001500302";

#[test]
fn ld_lz_and_typed_write_copy_texels_between_formats() {
    let mem = FlatMem::new();
    fill(&mem, IMG_A, 8 * 4 * 4, 7);
    let sentinel = 0xDEAD_BEEFu32;
    mem.put_u32s(IMG_B, &[sentinel; 8 * 4 * 4]);
    let t = asm_thread_in(
        LD_TYPED_WRITE,
        0x7F, // lane 7 off
        &mem,
        |tg| {
            tg.bindings = Bindings::Fixed(vec![
                image(rss(SURFTYPE_2D, 0x0C7, 8, 4, 32, IMG_A)),
                image(rss(SURFTYPE_2D, 0x000, 8, 4, 128, IMG_B)),
            ]);
        },
        |g| {
            put_u32s(g, 10, &[0, 1, 2, 3, 4, 5, 6, 7]);
            // ld's v: row 2, but lane 6 reads row 5, past the image's 4 rows.
            put_u32s(g, 11, &[2, 2, 2, 2, 2, 2, 5, 2]);
            put_u32s(g, 19, &[2; 8]);
        },
    )
    .unwrap();
    let out = mem.get_u32s(IMG_B, 8 * 4 * 4);
    for x in 0..8usize {
        let got: Vec<u32> = out[(2 * 8 + x) * 4..][..4].to_vec();
        let want: Vec<u32> = match x {
            6 => vec![0; 4], // ld past the surface: every channel 0
            7 => vec![sentinel; 4],
            _ => rgba8(&mem, IMG_A, 8, x as i64, 2)
                .map(f32::to_bits)
                .to_vec(),
        };
        assert_eq!(got, want, "texel ({x}, 2)");
        if x < 6 {
            // The response registers hold the same floats, channel by channel.
            for (c, w) in want.iter().enumerate() {
                assert_eq!(t.grf_u32(20 + c, x), *w);
            }
        }
    }
    // Nothing else written.
    for (i, v) in out.iter().enumerate() {
        if i / 4 / 8 != 2 {
            assert_eq!(*v, sentinel, "dword {i}");
        }
    }
}

// sends (16|M0) r20:w r6 r41 0x102 0x028D8000    // simd16 sample_lz, header r6: u, v
const SAMPLE_LZ_16: &str = "3300800278908202c400000000808d02";

/// OpenCL's addressing of one axis: the texel indices and weight of coordinate `s`.
fn axis(s: f32, n: i64, mode: u8, linear: bool, normalized: bool) -> Vec<(Option<i64>, f32)> {
    let u = if normalized { s * n as f32 } else { s };
    let fix = |i: i64| match mode {
        TCM_CLAMP => Some(i.clamp(0, n - 1)),
        TCM_WRAP => Some(i.rem_euclid(n)),
        _ => (0..n).contains(&i).then_some(i),
    };
    if linear {
        let i0 = (u - 0.5).floor();
        let a = (u - 0.5) - i0;
        vec![(fix(i0 as i64), 1.0 - a), (fix(i0 as i64 + 1), a)]
    } else {
        vec![(fix(u.floor() as i64), 1.0)]
    }
}

fn reference(
    mem: &FlatMem,
    (w, h): (i64, i64),
    (s, t): (f32, f32),
    mode: u8,
    linear: bool,
    normalized: bool,
    border: [f32; 4],
) -> [f32; 4] {
    let mut acc = [0f32; 4];
    for (x, wx) in axis(s, w, mode, linear, normalized) {
        for (y, wy) in axis(t, h, mode, linear, normalized) {
            let texel = match (x, y) {
                (Some(x), Some(y)) => rgba8(mem, IMG_A, w, x, y),
                _ => border,
            };
            for c in 0..4 {
                acc[c] += wx * wy * texel[c];
            }
        }
    }
    acc
}

#[test]
fn sample_lz_filters_and_addresses_as_opencl_asks() {
    let mem = FlatMem::new();
    fill(&mem, IMG_A, 5 * 3 * 4, 99);
    let (w, h) = (5i64, 3i64);
    let coords: Vec<(f32, f32)> = (0..16)
        .map(|i| {
            let i = i as f32;
            (-0.3 + 0.11 * i, 1.2 - 0.093 * i)
        })
        .collect();
    let border = [0.25f32, 0.5, 0.75, 0.125];
    mem.put_u32s(MEM_BASE + u64::from(BORDER), &border.map(f32::to_bits));
    for (mode, filter) in [
        (TCM_CLAMP, MAPFILTER_LINEAR),
        (TCM_WRAP, MAPFILTER_LINEAR),
        (TCM_CLAMP_BORDER, MAPFILTER_LINEAR),
        (TCM_WRAP, MAPFILTER_NEAREST),
        (TCM_CLAMP_BORDER, MAPFILTER_NEAREST),
    ] {
        sampler(
            &mem,
            0,
            SamplerState {
                min_mode_filter: filter,
                mag_mode_filter: filter,
                tcx_address_control_mode: mode,
                tcy_address_control_mode: mode,
                tcz_address_control_mode: mode,
                ..Default::default()
            },
        );
        let t = asm_thread_in(
            SAMPLE_LZ_16,
            0xFFFF,
            &mem,
            |tg| {
                tg.bindings =
                    Bindings::Fixed(vec![image(rss(SURFTYPE_2D, 0x0C7, 5, 3, 20, IMG_A))]);
                tg.sampler_state_pointer = 0x7000; // the header's pointer is the one used
            },
            |g| {
                put_u32s(g, 6, &[0, 0, 0, SSP, 0, 0, 0, 0]);
                let (u, v): (Vec<f32>, Vec<f32>) = coords.iter().copied().unzip();
                put_f32s(g, 41, &u);
                put_f32s(g, 43, &v);
            },
        )
        .unwrap();
        for (lane, &c) in coords.iter().enumerate() {
            let linear = filter == MAPFILTER_LINEAR;
            let want = reference(&mem, (w, h), c, mode, linear, true, border);
            for (ch, w) in want.iter().enumerate() {
                let got = grf_f32(&t, 20 + 2 * ch, lane);
                assert!(
                    (got - w).abs() <= 1e-6,
                    "mode {mode} filter {filter} lane {lane} {c:?} channel {ch}: {got} vs {w}"
                );
            }
        }
    }
}

// sends (8|M0) r20:ud r9 r10 0x82 0x02422100      // simd8 sample_l, sampler 1: lod | u, v
const SAMPLE_L_8: &str = "3300600218a080022201000000214202";

#[test]
fn sample_l_reads_its_lod_first_and_the_state_at_its_index() {
    let mem = FlatMem::new();
    fill(&mem, IMG_A, 4 * 4 * 4, 3);
    // State 0 would fail the test (wrap, linear); state 1 clamps, unnormalized, nearest
    // for magnification and linear for minification.
    sampler(
        &mem,
        0,
        SamplerState {
            min_mode_filter: MAPFILTER_LINEAR,
            mag_mode_filter: MAPFILTER_LINEAR,
            ..Default::default()
        },
    );
    sampler(
        &mem,
        1,
        SamplerState {
            min_mode_filter: MAPFILTER_LINEAR,
            mag_mode_filter: MAPFILTER_NEAREST,
            non_normalized_coordinate_enable: true,
            tcx_address_control_mode: TCM_CLAMP,
            tcy_address_control_mode: TCM_CLAMP,
            ..Default::default()
        },
    );
    let lods = [0.0f32, 0.0, -1.0, 0.0, 2.0, 0.5, 0.0, 0.0];
    let u = [0.5f32, 1.7, 3.2, 9.0, 1.5, 2.25, -4.0, 3.99];
    let v = [0.5f32, 2.2, 0.9, 1.0, 1.5, 0.75, 2.0, 3.5];
    let t = asm_thread_in(
        SAMPLE_L_8,
        0xFF,
        &mem,
        |tg| {
            tg.bindings = Bindings::Fixed(vec![image(rss(SURFTYPE_2D, 0x0C7, 4, 4, 16, IMG_A))]);
            tg.sampler_state_pointer = SSP;
        },
        |g| {
            put_f32s(g, 9, &lods);
            put_f32s(g, 10, &u);
            put_f32s(g, 11, &v);
        },
    )
    .unwrap();
    for lane in 0..8 {
        let linear = lods[lane] > 0.0;
        let want = reference(
            &mem,
            (4, 4),
            (u[lane], v[lane]),
            TCM_CLAMP,
            linear,
            false,
            [0.0; 4],
        );
        for (ch, w) in want.iter().enumerate() {
            let got = grf_f32(&t, 20 + ch, lane);
            assert!(
                (got - w).abs() <= 1e-6,
                "lane {lane} channel {ch}: {got} vs {w}"
            );
        }
    }
}

#[test]
fn the_border_colour_of_a_format_without_alpha_has_alpha_one() {
    let mem = FlatMem::new();
    mem.put_u32s(
        MEM_BASE + u64::from(BORDER),
        &[0.25f32, 0.5, 0.75, 0.0].map(f32::to_bits),
    );
    sampler(
        &mem,
        0,
        SamplerState {
            tcx_address_control_mode: TCM_CLAMP_BORDER,
            tcy_address_control_mode: TCM_CLAMP_BORDER,
            ..Default::default()
        },
    );
    // R8_UNORM with red and blue swapped by the channel selects.
    let mut s = rss(SURFTYPE_2D, 0x140, 4, 4, 4, IMG_A);
    (s.shader_channel_select_red, s.shader_channel_select_blue) = (6, 4);
    let t = asm_thread_in(
        SAMPLE_LZ_16,
        0xFFFF,
        &mem,
        |tg| tg.bindings = Bindings::Fixed(vec![image(s)]),
        |g| {
            put_u32s(g, 6, &[0, 0, 0, SSP, 0, 0, 0, 0]);
            put_f32s(g, 41, &[-0.5; 8]);
            put_f32s(g, 42, &[-0.5; 8]);
            put_f32s(g, 43, &[0.5; 8]);
            put_f32s(g, 44, &[0.5; 8]);
        },
    )
    .unwrap();
    for lane in 0..16 {
        let got: Vec<f32> = (0..4).map(|c| grf_f32(&t, 20 + 2 * c, lane)).collect();
        // Red is the border's (0.25); green and blue the format lacks read 0, alpha 1;
        // then red and blue trade places.
        assert_eq!(got, [0.0, 0.0, 0.25, 1.0], "lane {lane}");
    }
}

#[test]
fn a_typed_write_with_a_header_writes_only_the_lanes_of_its_pixel_mask() {
    // sends (8|M0) null:ud r12 r19 0x14C 0x040B5001: header, u | v, r, g, b, a
    let hex = "3300600c103001008501000001500b04";
    let mem = FlatMem::new();
    mem.put_u32s(IMG_B, &[0; 8]);
    asm_thread_in(
        hex,
        0xFF,
        &mem,
        |tg| {
            tg.bindings =
                Bindings::Fixed(vec![None, image(rss(SURFTYPE_2D, 0x143, 8, 1, 8, IMG_B))])
        },
        |g| {
            put_u32s(g, 12, &[0, 0, 0, 0, 0, 0, 0, 0b1011_0101]);
            put_u32s(g, 13, &[0, 1, 2, 3, 4, 5, 6, 7]);
            put_u32s(g, 19, &[0; 8]);
            put_u32s(g, 20, &[10, 20, 30, 40, 300, 60, 70, 80]);
        },
    )
    .unwrap();
    let mut got = [0u8; 8];
    mem.read(IMG_B, &mut got).unwrap();
    // R8_UINT saturates 300 to 255; lanes 1, 3 and 6 are off in the mask.
    assert_eq!(got, [10, 0, 30, 0, 255, 60, 0, 80]);
}

// IGC's media block messages (cl_intel_subgroups' image block reads and writes), assembled by
// iga64 from IGC's own lines:
// (W) send (8|M0) r17:d r16 0xC 0x02290000          // media block read, BTI 0, 2 registers
const MEDIA_READ2: &str = "3100600c2c0220220002000600002902";
// (W) sends (8|M0) null:ud r16 r23 0x4C 0x020A8002   // media block write, BTI 2
const MEDIA_WRITE: &str = "3300600c147001000102000002800a02";

/// A 10-dword-wide, 5-row R32_UINT surface whose dword (x, y) holds y × 1000 + x.
fn dwords_surface(mem: &FlatMem, base: u64) -> Option<Surface> {
    for y in 0..5u32 {
        let row: Vec<u32> = (0..16).map(|x| y * 1000 + x).collect();
        mem.put_u32s(base + u64::from(y) * 64, &row);
    }
    image(rss(SURFTYPE_2D, 0x0D7, 10, 5, 64, base))
}

/// A media block read of 32 bytes by 2 rows that starts 2 dwords left of the surface and
/// reaches one row below it: "out-of-bounds reads will return the edge image element"
/// (cl_intel_subgroups), in dwords.
#[test]
fn media_block_read_clamps_to_the_edge_in_dwords() {
    let mem = FlatMem::new();
    let t = asm_thread_in(
        MEDIA_READ2,
        0xFF,
        &mem,
        |tg| tg.bindings = Bindings::Fixed(vec![dwords_surface(&mem, IMG_A)]),
        |g| {
            // Header: X = -8 bytes, Y = row 4, 32 bytes wide, 2 rows high.
            put_u32s(g, 16, &[(-8i32) as u32, 4, 0x1_001F, 0, 0, 0, 0, 0]);
        },
    )
    .unwrap();
    for r in 0..2 {
        for d in 0..8 {
            let want = 4 * 1000 + (d as i64 - 2).max(0) as u32;
            assert_eq!(t.grf_u32(17 + r, d), want, "row {r}, dword {d}");
        }
    }
}

/// A media block write of 32 bytes from dword 7 of row 4: dwords 7 to 9 are the surface's,
/// the rest fall outside it and are dropped ("out-of-bounds writes will be ignored").
#[test]
fn media_block_write_drops_what_falls_outside() {
    let mem = FlatMem::new();
    mem.put_u32s(IMG_B, &[0xAAAA_AAAA; 5 * 16 + 16]);
    asm_thread_in(
        MEDIA_WRITE,
        0xFF,
        &mem,
        |tg| {
            tg.bindings = Bindings::Fixed(vec![
                None,
                None,
                image(rss(SURFTYPE_2D, 0x0D7, 10, 5, 64, IMG_B)),
            ])
        },
        |g| {
            put_u32s(g, 16, &[28, 4, 0x1F, 0, 0, 0, 0, 0]);
            put_u32s(g, 23, &[70, 71, 72, 73, 74, 75, 76, 77]);
        },
    )
    .unwrap();
    let out = mem.get_u32s(IMG_B, 5 * 16 + 16);
    for (i, v) in out.iter().enumerate() {
        let (y, x) = (i / 16, i % 16);
        let want = if y == 4 && (7..10).contains(&x) {
            70 + x as u32 - 7
        } else {
            0xAAAA_AAAA
        };
        assert_eq!(*v, want, "dword ({x}, {y})");
    }
}
