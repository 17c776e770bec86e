//! Typed surfaces: what a RENDER_SURFACE_STATE of an image (or of a buffer with a format)
//! says about where each texel is, for the typed data-port messages and the sampler.
//!
//! Layout facts: a surface is rows of `pitch` bytes; array slices and the slices of a 3D
//! surface are QPitch rows apart (the field counts rows in units of 4, Mesa `isl` writes
//! `qpitch >> 2` on Gen8+), except a 1D array's, whose elements follow one another in a
//! single row QPitch texels apart (Gen9's 1D layout: NEO's recorded 1D arrays,
//! `tests/neo/image_1d_array`, replay only so); tiled surfaces are 4 KiB tiles laid out row-major with `pitch`
//! bytes per row of tiles. A Y-major tile is 128 bytes by 32 rows, made of 16-byte-wide
//! columns of 32 rows stored one after another; an X-major tile is 512 bytes by 8 rows,
//! stored row by row (PRM vol 5 "Memory Views"; Mesa `isl_tiling_get_info`). Only mip level
//! 0 exists (OpenCL images without cl_khr_mipmap_image have one level).

use super::format::{format, Format};
use crate::genx::gen9::{
    RenderSurfaceState, SURFTYPE_1D, SURFTYPE_2D, SURFTYPE_3D, SURFTYPE_BUFFER, TILE_LINEAR,
    TILE_XMAJOR, TILE_YMAJOR,
};

/// The surface's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim {
    /// SURFTYPE_BUFFER with a format (image1d_buffer_t): `width` elements `stride` apart.
    Buffer,
    D1,
    D2,
    D3,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tiling {
    Linear,
    X,
    Y,
}

/// Shader Channel Select values (SCS_*): what each returned channel of a sampler message
/// carries.
pub const SCS_ZERO: u8 = 0;
pub const SCS_ONE: u8 = 1;
pub const SCS_RED: u8 = 4;
pub const SCS_ALPHA: u8 = 7;

/// An image surface as the typed messages and the sampler see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Image {
    pub dim: Dim,
    pub array: bool,
    pub format: &'static Format,
    pub width: u32,
    /// Rows (1 for 1D and buffers).
    pub height: u32,
    /// 3D: slices; arrays: the number of array elements; otherwise 1.
    pub depth: u32,
    /// The first array element the surface shows.
    pub min_array_element: u32,
    /// Bytes per row; for buffers, bytes per element.
    pub pitch: u64,
    /// Rows between array elements or 3D slices; texels between a 1D array's elements.
    pub qpitch: u64,
    pub tiling: Tiling,
    pub base: u64,
    /// Shader Channel Select of red, green, blue, alpha (the sampler applies them).
    pub scs: [u8; 4],
}

impl Image {
    /// The image of a RENDER_SURFACE_STATE, or why the model cannot take it.
    pub fn from_state(s: &RenderSurfaceState) -> Result<Image, String> {
        let fmt = format(s.surface_format).ok_or_else(|| {
            format!(
                "surface format {:#x} is not modelled (docs/images.md lists those that are)",
                s.surface_format
            )
        })?;
        let tiling = match s.tile_mode {
            TILE_LINEAR => Tiling::Linear,
            TILE_XMAJOR => Tiling::X,
            TILE_YMAJOR => Tiling::Y,
            t => return Err(format!("tile mode {t} (W-major) is not modelled")),
        };
        if s.x_offset != 0 || s.y_offset != 0 {
            return Err("surface X/Y Offset is not modelled".into());
        }
        if s.number_of_multisamples != 0 {
            return Err("multisampled surfaces are not modelled".into());
        }
        let scs = [
            s.shader_channel_select_red,
            s.shader_channel_select_green,
            s.shader_channel_select_blue,
            s.shader_channel_select_alpha,
        ];
        let base = s.surface_base_address;
        if s.surface_type == SURFTYPE_BUFFER {
            return Ok(Image {
                dim: Dim::Buffer,
                array: false,
                format: fmt,
                width: s
                    .buffer_entries()
                    .try_into()
                    .map_err(|_| "buffer of more than 2^32 entries")?,
                height: 1,
                depth: 1,
                min_array_element: 0,
                pitch: u64::from(s.surface_pitch) + 1,
                qpitch: 0,
                tiling: Tiling::Linear,
                base,
                scs,
            });
        }
        let dim = match s.surface_type {
            SURFTYPE_1D => Dim::D1,
            SURFTYPE_2D => Dim::D2,
            SURFTYPE_3D => Dim::D3,
            t => return Err(format!("surface type {t} (cube) is not modelled")),
        };
        let pitch = u64::from(s.surface_pitch) + 1;
        let row_bytes = u64::from(s.width + 1) * u64::from(fmt.bytes);
        if tiling == Tiling::Linear && pitch < row_bytes && dim != Dim::D1 {
            return Err(format!(
                "surface pitch {pitch} below a row of {row_bytes} bytes"
            ));
        }
        let tile_w = match tiling {
            Tiling::Linear => 1,
            Tiling::X => 512,
            Tiling::Y => 128,
        };
        if pitch % tile_w != 0 {
            return Err(format!(
                "tiled surface pitch {pitch} is not a multiple of {tile_w}"
            ));
        }
        let array = s.surface_array && dim != Dim::D3;
        let depth = u32::from(s.depth) + 1;
        Ok(Image {
            dim,
            array,
            format: fmt,
            width: u32::from(s.width) + 1,
            height: if dim == Dim::D1 {
                1
            } else {
                u32::from(s.height) + 1
            },
            depth: if dim == Dim::D3 || array { depth } else { 1 },
            min_array_element: u32::from(s.minimum_array_element),
            pitch,
            qpitch: u64::from(s.surface_qpitch) * 4,
            tiling,
            base,
            scs,
        })
    }

    /// How many coordinates address a texel: u, then v (2D, or a 1D array's element),
    /// then r (3D, or a 2D array's element).
    pub fn coords(&self) -> usize {
        match (self.dim, self.array) {
            (Dim::Buffer, _) | (Dim::D1, false) => 1,
            (Dim::D1, true) | (Dim::D2, false) => 2,
            _ => 3,
        }
    }

    /// The number of array elements (1 if not an array).
    pub fn layers(&self) -> u32 {
        if self.array {
            self.depth
        } else {
            1
        }
    }

    /// The texel at (x, y, z) in the coordinates of `coords` (y a 1D array's element, z a
    /// 2D array's element or a 3D slice): its GPU address, or None outside the surface.
    pub fn texel(&self, x: i64, y: i64, z: i64) -> Option<u64> {
        let inside = |v: i64, n: u32| (0..i64::from(n)).contains(&v);
        let (row, slice) = match (self.dim, self.array) {
            (Dim::Buffer, _) => {
                return inside(x, self.width).then(|| self.base + x as u64 * self.pitch);
            }
            (Dim::D1, false) => (0, 0),
            (Dim::D1, true) => (0, y),
            (Dim::D2, false) => (y, 0),
            _ => (y, z),
        };
        let ok = inside(x, self.width)
            && inside(row, self.height)
            && inside(slice, self.depth)
            && self.dim != Dim::Buffer;
        if !ok {
            return None;
        }
        let slice = slice as u64
            + if self.array {
                u64::from(self.min_array_element)
            } else {
                0
            };
        let bpp = u64::from(self.format.bytes);
        let (row, xb) = if self.dim == Dim::D1 {
            (0, (x as u64 + slice * self.qpitch) * bpp)
        } else {
            (row as u64 + slice * self.qpitch, x as u64 * bpp)
        };
        Some(self.byte_address(xb, row))
    }

    /// The GPU address of byte `xb` of row `row` (rows counted through the slices, as
    /// QPitch places them), through the surface's tiling.
    pub fn byte_address(&self, xb: u64, row: u64) -> u64 {
        let off = match self.tiling {
            Tiling::Linear => row * self.pitch + xb,
            Tiling::Y => {
                (row / 32) * self.pitch * 32
                    + (xb / 128) * 4096
                    + ((xb % 128) / 16) * 512
                    + (row % 32) * 16
                    + xb % 16
            }
            Tiling::X => {
                (row / 8) * self.pitch * 8 + (xb / 512) * 4096 + (row % 8) * 512 + xb % 512
            }
        };
        self.base + off
    }

    /// The message values of a sampled texel after the surface's channel selects.
    pub fn select(&self, rgba: [u32; 4]) -> [u32; 4] {
        let one = if self.format.integer() {
            1
        } else {
            1f32.to_bits()
        };
        self.scs.map(|s| match s {
            SCS_ZERO => 0,
            SCS_ONE => one,
            SCS_RED..=SCS_ALPHA => rgba[usize::from(s - SCS_RED)],
            _ => 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(tiling: u8, pitch: u32) -> Image {
        Image::from_state(&RenderSurfaceState {
            surface_type: SURFTYPE_2D,
            surface_format: 0x0C7,
            width: 255,
            height: 63,
            surface_pitch: pitch - 1,
            tile_mode: tiling,
            surface_base_address: 0x10000,
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn linear_and_tiled_addresses() {
        let l = image(TILE_LINEAR, 1024);
        assert_eq!(l.texel(3, 2, 0), Some(0x10000 + 2 * 1024 + 12));
        assert_eq!(l.texel(256, 0, 0), None);
        assert_eq!(l.texel(0, 64, 0), None);
        assert_eq!(l.texel(-1, 0, 0), None);
        // Y-major: the byte at x = 20 (bytes 80..84), row 5: column 5 of the first tile,
        // row 5 of that column.
        let y = image(TILE_YMAJOR, 1024);
        assert_eq!(y.texel(20, 5, 0), Some(0x10000 + 5 * 512 + 5 * 16));
        // x = 40 is byte 160: the second tile of the row, column 2; row 33 is the second
        // row of tiles (1024 * 32 bytes on).
        assert_eq!(
            y.texel(40, 33, 0),
            Some(0x10000 + 1024 * 32 + 4096 + 2 * 512 + 16)
        );
        // X-major: 512 bytes by 8 rows, row by row.
        let x = image(TILE_XMAJOR, 1024);
        assert_eq!(
            x.texel(130, 9, 0),
            Some(0x10000 + 1024 * 8 + 4096 + 512 + 8)
        );
    }

    #[test]
    fn every_texel_of_a_tiled_surface_has_its_own_bytes() {
        for t in [TILE_XMAJOR, TILE_YMAJOR] {
            let im = image(t, 1024);
            let mut seen = std::collections::HashSet::new();
            for y in 0..64 {
                for x in 0..256 {
                    let a = im.texel(x, y, 0).unwrap();
                    assert!(a >= 0x10000 && a + 4 <= 0x10000 + 1024 * 64);
                    assert!(seen.insert(a), "tile {t}: ({x},{y}) shares {a:#x}");
                }
            }
        }
    }

    #[test]
    fn arrays_and_buffers() {
        let a = Image::from_state(&RenderSurfaceState {
            surface_type: SURFTYPE_2D,
            surface_array: true,
            surface_format: 0x0D8,
            width: 7,
            height: 3,
            depth: 4,
            surface_qpitch: 1,
            surface_pitch: 31,
            minimum_array_element: 1,
            surface_base_address: 0,
            ..Default::default()
        })
        .unwrap();
        assert_eq!((a.coords(), a.layers()), (3, 5));
        // Element 2 of the view is element 3 of the surface, 4 rows each.
        assert_eq!(a.texel(1, 1, 2), Some(3 * 4 * 32 + 32 + 4));
        assert_eq!(a.texel(0, 0, 5), None);
        let b = Image::from_state(&RenderSurfaceState::buffer(0x2000, 64, 4, 0x0D8, 0).unwrap())
            .unwrap();
        assert_eq!((b.coords(), b.width), (1, 16));
        assert_eq!(b.texel(15, 0, 0), Some(0x2000 + 60));
        assert_eq!(b.texel(16, 0, 0), None);
        // A 1D array as NEO programs one (tests/neo/image_1d_array): RGBA16 UNORM, 11
        // wide, 4 elements, QPitch 16 (x4 = 64 texels): the elements 512 bytes apart in a row.
        let a1 = Image::from_state(&RenderSurfaceState {
            surface_type: SURFTYPE_1D,
            surface_array: true,
            surface_format: 0x080,
            width: 10,
            depth: 3,
            surface_qpitch: 16,
            surface_pitch: 511,
            surface_base_address: 0x4000,
            ..Default::default()
        })
        .unwrap();
        assert_eq!((a1.coords(), a1.layers()), (2, 4));
        assert_eq!(a1.texel(3, 2, 0), Some(0x4000 + 2 * 512 + 3 * 8));
        assert_eq!(a1.texel(11, 0, 0), None);
        let bad = RenderSurfaceState {
            surface_type: SURFTYPE_2D,
            surface_format: 0x1FF,
            ..Default::default()
        };
        assert!(Image::from_state(&bad).unwrap_err().contains("0x1ff"));
    }
}
