//! Image and sampler arguments of a launch: the RENDER_SURFACE_STATE of an image, the
//! SAMPLER_STATE of an OpenCL sampler, and the values of either that a kernel reads from
//! its cross-thread data.
//!
//! The sampler mapping is the one Intel's runtime uses on Gen9 (compute-runtime's
//! `sampler.inl`): CL_ADDRESS_NONE and CL_ADDRESS_CLAMP read the border colour
//! (TCM_CLAMP_BORDER, the colour transparent black: the sampler gives formats without alpha
//! an alpha of one, as OpenCL wants), CL_ADDRESS_CLAMP_TO_EDGE clamps, REPEAT wraps,
//! MIRRORED_REPEAT mirrors; one mip level.

use gencl_jit::abi::ObjectParam;
use gencl_kmd::genx::gen9::{
    RenderSurfaceState, SamplerState, MAPFILTER_LINEAR, MAPFILTER_NEAREST, MOCS_CACHED,
    SURFTYPE_1D, SURFTYPE_2D, SURFTYPE_3D, TCM_CLAMP, TCM_CLAMP_BORDER, TCM_MIRROR, TCM_WRAP,
};

use super::SubmitError;

pub const CL_ADDRESS_NONE: u32 = 0x1130;
pub const CL_ADDRESS_CLAMP_TO_EDGE: u32 = 0x1131;
pub const CL_ADDRESS_CLAMP: u32 = 0x1132;
pub const CL_ADDRESS_REPEAT: u32 = 0x1133;
pub const CL_ADDRESS_MIRRORED_REPEAT: u32 = 0x1134;
pub const CL_FILTER_NEAREST: u32 = 0x1140;
pub const CL_LUMINANCE: u32 = 0x10B9;

// RENDER_SURFACE_STATE Shader Channel Select values.
const SCS_ONE: u8 = 1;
const SCS_RED: u8 = 4;
const SCS_GREEN: u8 = 5;
const SCS_BLUE: u8 = 6;
const SCS_ALPHA: u8 = 7;
pub const CL_FILTER_LINEAR: u32 = 0x1141;

/// The shape of an image surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ImageType {
    /// image1d_buffer_t: a typed buffer.
    Buffer,
    D1,
    D1Array,
    D2,
    D2Array,
    D3,
}

/// How an image's memory is laid out and what the application asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ImageSurface {
    pub ty: ImageType,
    /// RENDER_SURFACE_STATE Surface Format.
    pub format: u16,
    pub width: u32,
    pub height: u32,
    /// 3D: slices; arrays: elements; otherwise 1.
    pub depth: u32,
    /// Bytes per row (a typed buffer's whole size; its elements are the format's size).
    pub row_pitch: u32,
    /// Rows between array elements or 3D slices; texels between a 1D array's elements (a
    /// multiple of 4 either way).
    pub qpitch: u32,
    /// RENDER_SURFACE_STATE Tile Mode.
    pub tiling: u8,
    /// CL_* channel order and data type (pushed to kernels that ask for them).
    pub channel_order: u32,
    pub channel_data_type: u32,
}

/// An OpenCL sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SamplerValue {
    pub normalized: bool,
    /// CL_ADDRESS_*.
    pub addressing: u32,
    /// CL_FILTER_*.
    pub filter: u32,
}

impl ImageSurface {
    /// Bytes per texel, if the format is one the GPU model has.
    pub fn texel_bytes(&self) -> Option<u64> {
        gencl_kmd::gpu::image::format::format(self.format).map(|f| u64::from(f.bytes))
    }

    /// How many bytes from its base a linear image's texels reach: what its buffer must hold.
    /// `None` for a tiled image, an unknown format or a size of 0.
    pub fn extent(&self) -> Option<u64> {
        let bpp = self.texel_bytes()?;
        if self.tiling != 0 || self.width == 0 || self.height == 0 || self.depth == 0 {
            return None;
        }
        let (w, h, d) = (
            u64::from(self.width),
            u64::from(self.height),
            u64::from(self.depth),
        );
        let row = u64::from(self.row_pitch);
        let q = u64::from(self.qpitch);
        // Checked: the values come from clients, and a wrapped product would pass for small.
        let last_row = w.checked_mul(bpp)?;
        let rows = |n: u64| (n - 1).checked_mul(row);
        match self.ty {
            ImageType::Buffer | ImageType::D1 => Some(last_row),
            // Elements QPitch texels apart in one row.
            ImageType::D1Array => (d - 1)
                .checked_mul(q)?
                .checked_mul(bpp)?
                .checked_add(last_row),
            ImageType::D2 => rows(h)?.checked_add(last_row),
            // Slices QPitch rows apart.
            ImageType::D2Array | ImageType::D3 => (d - 1)
                .checked_mul(q)?
                .checked_mul(row)?
                .checked_add(rows(h)?)?
                .checked_add(last_row),
        }
    }
}

/// The surface state of image `img` whose memory starts at `gpu_addr`.
pub fn surface_state(img: &ImageSurface, gpu_addr: u64) -> Result<RenderSurfaceState, SubmitError> {
    let too_large = || SubmitError::TooLarge("image dimensions beyond what a surface holds");
    let dims = |v: u32, bits: u32| -> Result<u16, SubmitError> {
        let v = v
            .checked_sub(1)
            .ok_or(SubmitError::Descriptor("an image of size 0"))?;
        if v >> bits != 0 {
            return Err(too_large());
        }
        Ok(v as u16)
    };
    // Identity channel selects (the sampler applies them: zero would read zero), but a
    // luminance image, which Intel's runtime keeps in an R format, reads (R, R, R, 1).
    let (sel_g, sel_b, sel_a) = if img.channel_order == CL_LUMINANCE {
        (SCS_RED, SCS_RED, SCS_ONE)
    } else {
        (SCS_GREEN, SCS_BLUE, SCS_ALPHA)
    };
    let base = RenderSurfaceState {
        surface_format: img.format,
        mocs: MOCS_CACHED,
        shader_channel_select_red: SCS_RED,
        shader_channel_select_green: sel_g,
        shader_channel_select_blue: sel_b,
        shader_channel_select_alpha: sel_a,
        surface_base_address: gpu_addr,
        coherency_type: 1,
        ..Default::default()
    };
    if img.ty == ImageType::Buffer {
        let stride = gencl_kmd::gpu::image::format::format(img.format)
            .ok_or(SubmitError::Unsupported(
                "an image format the GPU model lacks",
            ))?
            .bytes;
        let size = u64::from(img.width) * u64::from(stride);
        let s = RenderSurfaceState::buffer(gpu_addr, size, stride, img.format, MOCS_CACHED)
            .ok_or_else(too_large)?;
        // The buffer's type and size split, with the channel selects and coherency above.
        return Ok(RenderSurfaceState {
            surface_type: s.surface_type,
            width: s.width,
            height: s.height,
            depth: s.depth,
            surface_pitch: s.surface_pitch,
            ..base
        });
    }
    let (ty, array) = match img.ty {
        ImageType::D1 => (SURFTYPE_1D, false),
        ImageType::D1Array => (SURFTYPE_1D, true),
        ImageType::D2 => (SURFTYPE_2D, false),
        ImageType::D2Array => (SURFTYPE_2D, true),
        ImageType::D3 => (SURFTYPE_3D, false),
        ImageType::Buffer => unreachable!(),
    };
    if !img.qpitch.is_multiple_of(4) || img.qpitch / 4 >= 1 << 15 {
        return Err(SubmitError::Descriptor("image slice pitch"));
    }
    Ok(RenderSurfaceState {
        surface_type: ty,
        surface_array: array,
        width: dims(img.width, 14)?,
        height: dims(img.height, 14)?,
        depth: dims(img.depth, 11)?,
        surface_pitch: img
            .row_pitch
            .checked_sub(1)
            .filter(|p| p >> 18 == 0)
            .ok_or_else(too_large)?,
        surface_qpitch: (img.qpitch / 4) as u16,
        tile_mode: img.tiling,
        // VALIGN_4 / HALIGN_4 (single-level images: any alignment places level 0 the same).
        surface_vertical_alignment: 1,
        surface_horizontal_alignment: 1,
        ..base
    })
}

/// The SAMPLER_STATE of sampler `s`, its border colour `border_pointer` bytes from the
/// dynamic state base.
pub fn sampler_state(s: &SamplerValue, border_pointer: u32) -> Result<SamplerState, SubmitError> {
    let tcm = match s.addressing {
        CL_ADDRESS_NONE | CL_ADDRESS_CLAMP => TCM_CLAMP_BORDER,
        CL_ADDRESS_CLAMP_TO_EDGE => TCM_CLAMP,
        CL_ADDRESS_REPEAT => TCM_WRAP,
        CL_ADDRESS_MIRRORED_REPEAT => TCM_MIRROR,
        _ => return Err(SubmitError::Descriptor("sampler addressing mode")),
    };
    let filter = match s.filter {
        CL_FILTER_NEAREST => MAPFILTER_NEAREST,
        CL_FILTER_LINEAR => MAPFILTER_LINEAR,
        _ => return Err(SubmitError::Descriptor("sampler filter mode")),
    };
    Ok(SamplerState {
        min_mode_filter: filter,
        mag_mode_filter: filter,
        tcx_address_control_mode: tcm,
        tcy_address_control_mode: tcm,
        tcz_address_control_mode: tcm,
        non_normalized_coordinate_enable: !s.normalized,
        border_color_pointer: border_pointer,
        ..Default::default()
    })
}

/// The value of `p` for image `img`.
pub fn image_param(img: &ImageSurface, p: ObjectParam) -> Option<u32> {
    let array = matches!(img.ty, ImageType::D1Array | ImageType::D2Array);
    Some(match p {
        ObjectParam::ImageWidth => img.width,
        ObjectParam::ImageHeight => match img.ty {
            ImageType::Buffer | ImageType::D1 | ImageType::D1Array => 1,
            _ => img.height,
        },
        ObjectParam::ImageDepth => match img.ty {
            ImageType::D3 => img.depth,
            _ => 1,
        },
        ObjectParam::ImageArraySize => {
            if array {
                img.depth
            } else {
                1
            }
        }
        ObjectParam::ImageChannelDataType => img.channel_data_type,
        ObjectParam::ImageChannelOrder => img.channel_order,
        ObjectParam::ImageNumMipLevels => 1,
        ObjectParam::ImageNumSamples => 0,
        ObjectParam::SamplerSnapWa => return None,
    })
}

/// The value of `p` for sampler `s`.
pub fn sampler_param(s: &SamplerValue, p: ObjectParam) -> Option<u32> {
    match p {
        ObjectParam::SamplerSnapWa => Some(u32::from(
            s.addressing == CL_ADDRESS_CLAMP && s.filter == CL_FILTER_NEAREST,
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gencl_kmd::gpu::image::surface::{Dim, Image};

    #[test]
    fn surface_states_decode_to_the_image_they_describe() {
        let img = ImageSurface {
            ty: ImageType::D2Array,
            format: 0x0C7,
            width: 33,
            height: 17,
            depth: 5,
            row_pitch: 256,
            qpitch: 20,
            tiling: 0,
            channel_order: 0x10B5,
            channel_data_type: 0x10D2,
        };
        let s = surface_state(&img, 0x1_0000).unwrap();
        let m = Image::from_state(&s).unwrap();
        assert_eq!((m.dim, m.array), (Dim::D2, true));
        assert_eq!((m.width, m.height, m.layers()), (33, 17, 5));
        assert_eq!((m.pitch, m.qpitch), (256, 20));
        assert_eq!(m.texel(1, 2, 3), Some(0x1_0000 + (3 * 20 + 2) * 256 + 4));
        let b = surface_state(
            &ImageSurface {
                ty: ImageType::Buffer,
                width: 100,
                row_pitch: 800,
                format: 0x084,
                ..img
            },
            0x2000,
        )
        .unwrap();
        let m = Image::from_state(&b).unwrap();
        assert_eq!(
            (m.dim, m.width, m.texel(99, 0, 0)),
            (Dim::Buffer, 100, Some(0x2000 + 792))
        );
        assert!(surface_state(
            &ImageSurface {
                width: 20000,
                ..img
            },
            0
        )
        .is_err());
    }

    #[test]
    fn samplers_map_as_intels_runtime_does() {
        let s = |addressing, filter, normalized| {
            sampler_state(
                &SamplerValue {
                    normalized,
                    addressing,
                    filter,
                },
                0x40,
            )
            .unwrap()
        };
        let a = s(CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, true);
        assert_eq!(
            (
                a.tcx_address_control_mode,
                a.min_mode_filter,
                a.non_normalized_coordinate_enable
            ),
            (TCM_CLAMP_BORDER, MAPFILTER_LINEAR, false)
        );
        assert_eq!(a.border_color_pointer, 0x40);
        assert_eq!(
            s(CL_ADDRESS_NONE, CL_FILTER_NEAREST, false).tcy_address_control_mode,
            TCM_CLAMP_BORDER
        );
        assert_eq!(
            s(CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, false).tcz_address_control_mode,
            TCM_CLAMP
        );
        assert_eq!(
            s(CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, true).tcx_address_control_mode,
            TCM_WRAP
        );
        assert_eq!(
            s(CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, true).tcx_address_control_mode,
            TCM_MIRROR
        );
        assert!(sampler_state(
            &SamplerValue {
                normalized: true,
                addressing: 7,
                filter: CL_FILTER_LINEAR
            },
            0
        )
        .is_err());
    }
}
