//! Rectangles of bytes in an object or in host memory (OpenCL 3.0 §5.2.3's rect commands,
//! images and maps), and the copy of a region between two of them.

use crate::api::types::*;
use crate::api::util::ClResult;

/// A rectangle of bytes: its origin's offset and its pitches, once the spec's defaults are
/// applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub offset: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl Rect {
    /// "If buffer_row_pitch is 0, buffer_row_pitch is computed as region[0]. If
    /// buffer_slice_pitch is 0, buffer_slice_pitch is computed as region[1] ×
    /// buffer_row_pitch." The offset is "origin[2] × slice_pitch + origin[1] × row_pitch +
    /// origin[0]". "CL_INVALID_VALUE if row_pitch is not 0 and is less than region[0]";
    /// "... if slice_pitch is not 0 and is less than region[1] × row_pitch and not a multiple
    /// of row_pitch".
    pub fn new(
        origin: [usize; 3],
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
    ) -> ClResult<Rect> {
        if row_pitch != 0 && row_pitch < region[0] {
            return Err(CL_INVALID_VALUE);
        }
        let row_pitch = if row_pitch == 0 { region[0] } else { row_pitch };
        let min_slice = region[1].checked_mul(row_pitch).ok_or(CL_INVALID_VALUE)?;
        if slice_pitch != 0 && (slice_pitch < min_slice || !slice_pitch.is_multiple_of(row_pitch)) {
            return Err(CL_INVALID_VALUE);
        }
        let slice_pitch = if slice_pitch == 0 {
            min_slice
        } else {
            slice_pitch
        };
        let offset = origin[2]
            .checked_mul(slice_pitch)
            .and_then(|z| origin[1].checked_mul(row_pitch)?.checked_add(z))
            .and_then(|o| o.checked_add(origin[0]))
            .ok_or(CL_INVALID_VALUE)?;
        Ok(Rect {
            offset,
            row_pitch,
            slice_pitch,
        })
    }

    /// One past the last byte the region touches.
    pub fn end(&self, region: [usize; 3]) -> Option<usize> {
        let z = (region[2] - 1).checked_mul(self.slice_pitch)?;
        let y = (region[1] - 1).checked_mul(self.row_pitch)?;
        self.offset
            .checked_add(z)?
            .checked_add(y)?
            .checked_add(region[0])
    }

    /// The offset of each row of the region, slice by slice.
    pub fn rows(self, region: [usize; 3]) -> impl Iterator<Item = usize> {
        (0..region[2]).flat_map(move |z| {
            (0..region[1]).map(move |y| self.offset + z * self.slice_pitch + y * self.row_pitch)
        })
    }
}

/// Copy `region` (bytes × rows × slices) between a rectangle of `bytes` (`dev`) and one of
/// host memory at `host` (`hrect`): object → host when `to_host`. The row loop of the rect
/// commands, the image commands and maps.
///
/// # Safety
/// The host rectangle must be valid memory for the region (writable for `to_host`, readable
/// otherwise), and the object's rectangle must lie in `bytes`.
pub unsafe fn copy_host(
    bytes: &mut [u8],
    dev: Rect,
    host: *mut u8,
    hrect: Rect,
    region: [usize; 3],
    to_host: bool,
) {
    let n = region[0];
    for (d, h) in dev.rows(region).zip(hrect.rows(region)) {
        let row = &mut bytes[d..d + n];
        // SAFETY: per this function's contract.
        unsafe {
            if to_host {
                std::ptr::copy_nonoverlapping(row.as_ptr(), host.add(h), n);
            } else {
                std::ptr::copy_nonoverlapping(host.add(h), row.as_mut_ptr(), n);
            }
        }
    }
}
