//! The image part of a memory object (OpenCL 3.0 §5.3): its format, type, extent and layout.
//! The entry points are in `api/image.rs`, the image commands in `api/image_commands.rs`.

use super::rect::Rect;
use crate::api::types::*;
use crate::api::util::ClResult;
use crate::submit::images::{ImageSurface, ImageType};

/// The image part of a memory object.
pub struct Image {
    pub format: cl_image_format,
    pub fmt: &'static ClFormat,
    pub ty: cl_mem_object_type,
    pub width: usize,
    /// 1 for 1D images and 1D arrays.
    pub height: usize,
    /// 1 but for 3D images.
    pub depth: usize,
    /// 1 but for arrays.
    pub array_size: usize,
    /// The texels' layout in the memory object: bytes between rows, between 2D array
    /// elements or 3D slices (a multiple of 4 rows), and between 1D array elements (a
    /// multiple of 4 texels).
    pub row_pitch: usize,
    pub slice_pitch: usize,
    /// CL_IMAGE_ROW_PITCH and CL_IMAGE_SLICE_PITCH: the application's pitches of its host
    /// memory when it gave them (also the layout CL_MEM_USE_HOST_PTR's memory has), otherwise
    /// the packed pitches.
    pub host_row_pitch: usize,
    pub host_slice_pitch: usize,
    /// The handle of the buffer an image was made from (CL_IMAGE_BUFFER for a 1D image
    /// buffer; the image holds a reference to it in its storage).
    pub buffer: Option<usize>,
}

impl Image {
    /// The image's extent in the three coordinates the image commands use: (width, height
    /// or 1D array size, depth or 2D array size).
    pub fn dims(&self) -> [usize; 3] {
        match self.ty {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => [self.width, self.array_size, 1],
            CL_MEM_OBJECT_IMAGE2D_ARRAY => [self.width, self.height, self.array_size],
            _ => [self.width, self.height, self.depth],
        }
    }

    /// Bytes between successive values of the second and third coordinate in the memory
    /// object.
    fn pitches(&self) -> (usize, usize) {
        match self.ty {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => (self.slice_pitch, self.slice_pitch),
            _ => (self.row_pitch, self.slice_pitch),
        }
    }

    /// The rectangle of the image's bytes that starts at texel `origin`.
    pub fn rect(&self, origin: [usize; 3]) -> Rect {
        let (py, pz) = self.pitches();
        Rect {
            offset: origin[0] * self.fmt.bytes + origin[1] * py + origin[2] * pz,
            row_pitch: py,
            slice_pitch: pz,
        }
    }

    /// The rectangle of host memory whose texel (0, 0, 0) is at the start, with the pitches
    /// an image command was given (0: packed for `region`): "If row_pitch is set to 0, the
    /// appropriate row pitch is calculated based on the size of each element in bytes
    /// multiplied by width. If slice_pitch is set to 0, the appropriate slice pitch is
    /// calculated based on the row_pitch × height", where a 1D array's "slice" is one of its
    /// elements.
    pub fn host_rect(&self, region: [usize; 3], row_pitch: usize, slice_pitch: usize) -> Rect {
        let row = if row_pitch == 0 {
            region[0] * self.fmt.bytes
        } else {
            row_pitch
        };
        let slice = if slice_pitch != 0 {
            slice_pitch
        } else if self.ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            row
        } else {
            row * region[1]
        };
        match self.ty {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => Rect {
                offset: 0,
                row_pitch: slice,
                slice_pitch: slice,
            },
            _ => Rect {
                offset: 0,
                row_pitch: row,
                slice_pitch: slice,
            },
        }
    }

    /// "CL_INVALID_VALUE if the region being read or written specified by origin and region is
    /// out of bounds", "... if values in origin and region do not follow rules described in
    /// the argument description for origin and region": the coordinates an image type does
    /// not have must be 0 in `origin` and 1 in `region`, and no region element may be 0.
    pub fn check_region(&self, origin: [usize; 3], region: [usize; 3]) -> ClResult<()> {
        let dims = self.dims();
        for d in 0..3 {
            let end = origin[d].checked_add(region[d]).ok_or(CL_INVALID_VALUE)?;
            if region[d] == 0 || end > dims[d] {
                return Err(CL_INVALID_VALUE);
            }
        }
        Ok(())
    }

    /// The region in bytes (its first element is `region[0]` texels' bytes).
    pub fn byte_region(&self, region: [usize; 3]) -> [usize; 3] {
        [region[0] * self.fmt.bytes, region[1], region[2]]
    }

    /// How the submitter and the GPU see the image.
    pub fn surface(&self) -> ImageSurface {
        let bytes = self.fmt.bytes;
        let (ty, depth, qpitch) = match self.ty {
            CL_MEM_OBJECT_IMAGE1D_BUFFER => (ImageType::Buffer, 1, 0),
            CL_MEM_OBJECT_IMAGE1D => (ImageType::D1, 1, 0),
            CL_MEM_OBJECT_IMAGE1D_ARRAY => (
                ImageType::D1Array,
                self.array_size,
                self.slice_pitch / bytes,
            ),
            CL_MEM_OBJECT_IMAGE2D => (ImageType::D2, 1, 0),
            CL_MEM_OBJECT_IMAGE2D_ARRAY => (
                ImageType::D2Array,
                self.array_size,
                self.slice_pitch / self.row_pitch,
            ),
            _ => (ImageType::D3, self.depth, self.slice_pitch / self.row_pitch),
        };
        ImageSurface {
            ty,
            format: self.fmt.surface,
            width: self.width as u32,
            height: self.height as u32,
            depth: depth as u32,
            row_pitch: self.row_pitch as u32,
            qpitch: qpitch as u32,
            tiling: 0,
            channel_order: self.format.image_channel_order,
            channel_data_type: self.format.image_channel_data_type,
        }
    }
}

/// One image format: the application's CL format and the surface format it is kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClFormat {
    pub order: cl_channel_order,
    pub ty: cl_channel_type,
    /// RENDER_SURFACE_STATE Surface Format.
    pub surface: u16,
    /// Bytes per texel (CL_IMAGE_ELEMENT_SIZE).
    pub bytes: usize,
    /// Kernels may write it (typed writes): otherwise read-only images only.
    pub writable: bool,
}

macro_rules! formats {
    ($($order:ident $ty:ident $surface:literal $bytes:literal $w:literal;)*) => {
        /// Every format an image can have, in the order clGetSupportedImageFormats lists them.
        pub const FORMATS: &[ClFormat] = &[$(ClFormat {
            order: $order,
            ty: $ty,
            surface: $surface,
            bytes: $bytes,
            writable: $w,
        }),*];
    };
}

formats! {
    CL_RGBA CL_UNORM_INT8 0x0C7 4 true;
    CL_RGBA CL_UNORM_INT16 0x080 8 true;
    CL_RGBA CL_SIGNED_INT8 0x0CA 4 true;
    CL_RGBA CL_SIGNED_INT16 0x082 8 true;
    CL_RGBA CL_SIGNED_INT32 0x001 16 true;
    CL_RGBA CL_UNSIGNED_INT8 0x0CB 4 true;
    CL_RGBA CL_UNSIGNED_INT16 0x083 8 true;
    CL_RGBA CL_UNSIGNED_INT32 0x002 16 true;
    CL_RGBA CL_HALF_FLOAT 0x084 8 true;
    CL_RGBA CL_FLOAT 0x000 16 true;
    CL_BGRA CL_UNORM_INT8 0x0C0 4 true;
    CL_R CL_FLOAT 0x0D8 4 true;
    CL_R CL_UNORM_INT8 0x140 1 true;
    CL_R CL_UNORM_INT16 0x10A 2 true;
    CL_R CL_SIGNED_INT8 0x142 1 true;
    CL_R CL_SIGNED_INT16 0x10C 2 true;
    CL_R CL_SIGNED_INT32 0x0D6 4 true;
    CL_R CL_UNSIGNED_INT8 0x143 1 true;
    CL_R CL_UNSIGNED_INT16 0x10D 2 true;
    CL_R CL_UNSIGNED_INT32 0x0D7 4 true;
    CL_R CL_HALF_FLOAT 0x10E 2 true;
    CL_A CL_UNORM_INT8 0x144 1 true;
    CL_RG CL_UNORM_INT8 0x106 2 true;
    CL_RG CL_UNORM_INT16 0x0CC 4 true;
    CL_RG CL_SIGNED_INT8 0x108 2 true;
    CL_RG CL_SIGNED_INT16 0x0CE 4 true;
    CL_RG CL_SIGNED_INT32 0x086 8 true;
    CL_RG CL_UNSIGNED_INT8 0x109 2 true;
    CL_RG CL_UNSIGNED_INT16 0x0CF 4 true;
    CL_RG CL_UNSIGNED_INT32 0x087 8 true;
    CL_RG CL_HALF_FLOAT 0x0D0 4 true;
    CL_RG CL_FLOAT 0x085 8 true;
    CL_LUMINANCE CL_UNORM_INT8 0x140 1 true;
    CL_LUMINANCE CL_UNORM_INT16 0x10A 2 true;
    CL_LUMINANCE CL_HALF_FLOAT 0x10E 2 true;
    CL_LUMINANCE CL_FLOAT 0x0D8 4 true;
    CL_R CL_SNORM_INT8 0x141 1 true;
    CL_R CL_SNORM_INT16 0x10B 2 true;
    CL_RG CL_SNORM_INT8 0x107 2 true;
    CL_RG CL_SNORM_INT16 0x0CD 4 true;
    CL_RGBA CL_SNORM_INT8 0x0C9 4 true;
    CL_RGBA CL_SNORM_INT16 0x081 8 true;
    // Read-only: Gen9 has no typed writes of these.
    CL_INTENSITY CL_UNORM_INT8 0x145 1 false;
    CL_INTENSITY CL_UNORM_INT16 0x111 2 false;
    CL_INTENSITY CL_HALF_FLOAT 0x115 2 false;
    CL_INTENSITY CL_FLOAT 0x0E3 4 false;
    CL_A CL_UNORM_INT16 0x113 2 false;
    CL_A CL_HALF_FLOAT 0x117 2 false;
    CL_A CL_FLOAT 0x0E5 4 false;
    CL_sRGBA CL_UNORM_INT8 0x0C8 4 false;
    CL_sBGRA CL_UNORM_INT8 0x0C1 4 false;
    // cl_khr_depth_images, 2D images and 2D arrays only (`depth_allowed`).
    CL_DEPTH CL_FLOAT 0x0D8 4 true;
    CL_DEPTH CL_UNORM_INT16 0x10A 2 true;
}
