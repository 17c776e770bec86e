//! Surface formats of the typed data-port messages and the sampler: how a texel's bytes
//! hold its channels, and the conversions between them and the 32-bit values a message
//! carries (floats for UNORM, SNORM and FLOAT formats, integers for UINT and SINT ones).
//!
//! The numbering is RENDER_SURFACE_STATE's Surface Format (the PRM's SURFACE_FORMAT
//! enumeration, as Mesa's `isl.h` lists it). The table holds the formats an OpenCL image can
//! have on Gen9 (docs/images.md); any other code is refused by name, never guessed.
//!
//! Conversions, where the PRM leaves room, follow what OpenCL asks of an image on Gen9
//! (OpenCL C 2.0 §8.3): UNORM/SNORM writes round to nearest even after clamping,
//! integer writes saturate, half writes round to nearest even, sRGB reads use the
//! sRGB transfer function on red, green and blue.

use crate::gpu::eu::float::{f16_to_f32, f32_to_f16};

/// How a channel's bits are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Float,
}

/// Where a stored channel lands in the RGBA a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    R,
    G,
    B,
    A,
    /// Luminance: red, green and blue.
    L,
    /// Intensity: all four.
    I,
    /// Padding bits (the X of B8G8R8X8).
    X,
}

/// One surface format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub code: u16,
    pub name: &'static str,
    /// Bytes per texel.
    pub bytes: u32,
    pub ty: Ty,
    /// UNORM with the sRGB transfer function on red, green and blue.
    pub srgb: bool,
    /// The stored channels from the lowest bits up: (where it goes, bits).
    pub chans: &'static [(Slot, u8)],
}

use Slot::*;
use Ty::*;

macro_rules! formats {
    ($($code:literal $name:ident $bytes:literal $ty:ident $srgb:literal [$($slot:ident $bits:literal),*];)*) => {
        /// Every modelled format.
        pub const FORMATS: &[Format] = &[$(Format {
            code: $code,
            name: stringify!($name),
            bytes: $bytes,
            ty: $ty,
            srgb: $srgb,
            chans: &[$(($slot, $bits)),*],
        }),*];
    };
}

formats! {
    0x000 R32G32B32A32_FLOAT 16 Float false [R 32, G 32, B 32, A 32];
    0x001 R32G32B32A32_SINT 16 Sint false [R 32, G 32, B 32, A 32];
    0x002 R32G32B32A32_UINT 16 Uint false [R 32, G 32, B 32, A 32];
    0x080 R16G16B16A16_UNORM 8 Unorm false [R 16, G 16, B 16, A 16];
    0x081 R16G16B16A16_SNORM 8 Snorm false [R 16, G 16, B 16, A 16];
    0x082 R16G16B16A16_SINT 8 Sint false [R 16, G 16, B 16, A 16];
    0x083 R16G16B16A16_UINT 8 Uint false [R 16, G 16, B 16, A 16];
    0x084 R16G16B16A16_FLOAT 8 Float false [R 16, G 16, B 16, A 16];
    0x085 R32G32_FLOAT 8 Float false [R 32, G 32];
    0x086 R32G32_SINT 8 Sint false [R 32, G 32];
    0x087 R32G32_UINT 8 Uint false [R 32, G 32];
    0x0C0 B8G8R8A8_UNORM 4 Unorm false [B 8, G 8, R 8, A 8];
    0x0C1 B8G8R8A8_UNORM_SRGB 4 Unorm true [B 8, G 8, R 8, A 8];
    0x0C2 R10G10B10A2_UNORM 4 Unorm false [R 10, G 10, B 10, A 2];
    0x0C7 R8G8B8A8_UNORM 4 Unorm false [R 8, G 8, B 8, A 8];
    0x0C8 R8G8B8A8_UNORM_SRGB 4 Unorm true [R 8, G 8, B 8, A 8];
    0x0C9 R8G8B8A8_SNORM 4 Snorm false [R 8, G 8, B 8, A 8];
    0x0CA R8G8B8A8_SINT 4 Sint false [R 8, G 8, B 8, A 8];
    0x0CB R8G8B8A8_UINT 4 Uint false [R 8, G 8, B 8, A 8];
    0x0CC R16G16_UNORM 4 Unorm false [R 16, G 16];
    0x0CD R16G16_SNORM 4 Snorm false [R 16, G 16];
    0x0CE R16G16_SINT 4 Sint false [R 16, G 16];
    0x0CF R16G16_UINT 4 Uint false [R 16, G 16];
    0x0D0 R16G16_FLOAT 4 Float false [R 16, G 16];
    0x0D6 R32_SINT 4 Sint false [R 32];
    0x0D7 R32_UINT 4 Uint false [R 32];
    0x0D8 R32_FLOAT 4 Float false [R 32];
    0x0E3 I32_FLOAT 4 Float false [I 32];
    0x0E4 L32_FLOAT 4 Float false [L 32];
    0x0E5 A32_FLOAT 4 Float false [A 32];
    0x0E9 B8G8R8X8_UNORM 4 Unorm false [B 8, G 8, R 8, X 8];
    0x0EB R8G8B8X8_UNORM 4 Unorm false [R 8, G 8, B 8, X 8];
    0x100 B5G6R5_UNORM 2 Unorm false [B 5, G 6, R 5];
    0x106 R8G8_UNORM 2 Unorm false [R 8, G 8];
    0x107 R8G8_SNORM 2 Snorm false [R 8, G 8];
    0x108 R8G8_SINT 2 Sint false [R 8, G 8];
    0x109 R8G8_UINT 2 Uint false [R 8, G 8];
    0x10A R16_UNORM 2 Unorm false [R 16];
    0x10B R16_SNORM 2 Snorm false [R 16];
    0x10C R16_SINT 2 Sint false [R 16];
    0x10D R16_UINT 2 Uint false [R 16];
    0x10E R16_FLOAT 2 Float false [R 16];
    0x111 I16_UNORM 2 Unorm false [I 16];
    0x112 L16_UNORM 2 Unorm false [L 16];
    0x113 A16_UNORM 2 Unorm false [A 16];
    0x115 I16_FLOAT 2 Float false [I 16];
    0x116 L16_FLOAT 2 Float false [L 16];
    0x117 A16_FLOAT 2 Float false [A 16];
    0x11A B5G5R5X1_UNORM 2 Unorm false [B 5, G 5, R 5, X 1];
    0x140 R8_UNORM 1 Unorm false [R 8];
    0x141 R8_SNORM 1 Snorm false [R 8];
    0x142 R8_SINT 1 Sint false [R 8];
    0x143 R8_UINT 1 Uint false [R 8];
    0x144 A8_UNORM 1 Unorm false [A 8];
    0x145 I8_UNORM 1 Unorm false [I 8];
    0x146 L8_UNORM 1 Unorm false [L 8];
}

/// The format of Surface Format `code`, if modelled.
pub fn format(code: u16) -> Option<&'static Format> {
    FORMATS.iter().find(|f| f.code == code)
}

impl Format {
    /// Whether the message values are integers (UINT, SINT) rather than floats.
    pub fn integer(&self) -> bool {
        matches!(self.ty, Uint | Sint)
    }

    /// The value of "one" a missing alpha reads as: 1.0, or the integer 1.
    fn one(&self) -> u32 {
        if self.integer() {
            1
        } else {
            1f32.to_bits()
        }
    }

    /// The four message values (RGBA, as 32-bit patterns) of the texel in `bytes`.
    /// Missing channels read as 0, alpha as one.
    pub fn decode(&self, bytes: &[u8]) -> [u32; 4] {
        let mut raw = [0u8; 16];
        raw[..bytes.len().min(16)].copy_from_slice(&bytes[..bytes.len().min(16)]);
        let word = u128::from_le_bytes(raw);
        let mut out = [0, 0, 0, self.one()];
        let mut shift = 0u32;
        for &(slot, bits) in self.chans {
            let v = ((word >> shift) & ((1u128 << bits) - 1)) as u32;
            shift += u32::from(bits);
            let c = self.channel_in(v, bits, matches!(slot, R | G | B | L));
            match slot {
                R => out[0] = c,
                G => out[1] = c,
                B => out[2] = c,
                A => out[3] = c,
                L => out[..3].fill(c),
                I => out.fill(c),
                X => {}
            }
        }
        out
    }

    /// One stored channel of `bits` bits as a message value; `colour` channels of an sRGB
    /// format go through the transfer function.
    fn channel_in(&self, v: u32, bits: u8, colour: bool) -> u32 {
        let max = ((1u64 << bits) - 1) as f64;
        match self.ty {
            Unorm => {
                let f = (f64::from(v) / max) as f32;
                if self.srgb && colour {
                    srgb_to_linear(f).to_bits()
                } else {
                    f.to_bits()
                }
            }
            Snorm => {
                let s = sign_extend(v, bits);
                let half = ((1u64 << (bits - 1)) - 1) as f64;
                ((f64::from(s) / half).max(-1.0) as f32).to_bits()
            }
            Uint => v,
            Sint => sign_extend(v, bits) as u32,
            Float => match bits {
                32 => v,
                16 => f16_to_f32(v as u16).to_bits(),
                _ => unreachable!("no float format of {bits} bits in the table"),
            },
        }
    }

    /// The texel bytes of the message values `rgba` (32-bit patterns) for the channels of
    /// `write_mask` (bit 0 red); channels not written keep `old`'s bits.
    pub fn encode(&self, rgba: [u32; 4], write_mask: u8, old: &[u8], out: &mut [u8]) {
        let mut raw = [0u8; 16];
        let n = (self.bytes as usize).min(16);
        raw[..n].copy_from_slice(&old[..n]);
        let mut word = u128::from_le_bytes(raw);
        let mut shift = 0u32;
        for &(slot, bits) in self.chans {
            let k = match slot {
                R | L | I => Some(0),
                G => Some(1),
                B => Some(2),
                A => Some(3),
                X => None,
            };
            if let Some(k) = k.filter(|&k| write_mask & (1 << k) != 0) {
                let mask = (1u128 << bits) - 1;
                let v = self.channel_out(rgba[k], bits, matches!(slot, R | G | B | L));
                word = (word & !(mask << shift)) | ((u128::from(v) & mask) << shift);
            }
            shift += u32::from(bits);
        }
        out[..n].copy_from_slice(&word.to_le_bytes()[..n]);
    }

    /// A message value as a stored channel of `bits` bits.
    fn channel_out(&self, v: u32, bits: u8, colour: bool) -> u32 {
        let max = ((1u64 << bits) - 1) as f32;
        match self.ty {
            Unorm => {
                let mut f = f32::from_bits(v);
                if self.srgb && colour {
                    f = linear_to_srgb(f);
                }
                // NaN converts to 0.
                let c = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                (c * max).round_ties_even() as u32
            }
            Snorm => {
                let f = f32::from_bits(v);
                let half = ((1u64 << (bits - 1)) - 1) as f32;
                let c = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
                ((c * half).round_ties_even() as i32) as u32
            }
            Uint => {
                if bits == 32 {
                    v
                } else {
                    v.min(max as u32)
                }
            }
            Sint => {
                if bits == 32 {
                    v
                } else {
                    let hi = (1i32 << (bits - 1)) - 1;
                    (v as i32).clamp(-hi - 1, hi) as u32
                }
            }
            Float => match bits {
                32 => v,
                16 => u32::from(f32_to_f16(f32::from_bits(v))),
                _ => unreachable!("no float format of {bits} bits in the table"),
            },
        }
    }
}

fn sign_extend(v: u32, bits: u8) -> i32 {
    let s = 32 - u32::from(bits);
    ((v << s) as i32) >> s
}

/// The sRGB transfer function, decoding (IEC 61966-2-1; OpenCL C 2.0 §8.3.1.1).
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    (if c <= 0.04045 {
        c / 12.92
    } else {
        // The `libm` crate's pow, as the math unit's functions: the tool links no libm.so
        // (docs/jit.md, "No libm.so").
        libm::pow((c + 0.055) / 1.055, 2.4)
    }) as f32
}

/// The sRGB transfer function, encoding.
pub fn linear_to_srgb(l: f32) -> f32 {
    if l.is_nan() {
        return 0.0;
    }
    let l = f64::from(l.clamp(0.0, 1.0));
    (if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * libm::pow(l, 1.0 / 2.4) - 0.055
    }) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(code: u16) -> &'static Format {
        format(code).unwrap()
    }

    #[test]
    fn table_sizes_match_channel_bits() {
        for fm in FORMATS {
            let bits: u32 = fm.chans.iter().map(|c| u32::from(c.1)).sum();
            assert_eq!(bits, fm.bytes * 8, "{}", fm.name);
            assert_eq!(FORMATS.iter().filter(|g| g.code == fm.code).count(), 1);
        }
    }

    #[test]
    fn unorm8_round_trip_and_rounding() {
        let rgba8 = f(0x0C7);
        let px = rgba8.decode(&[0, 128, 255, 51]);
        assert_eq!(f32::from_bits(px[0]), 0.0);
        assert_eq!(f32::from_bits(px[1]), 128.0 / 255.0);
        assert_eq!(f32::from_bits(px[2]), 1.0);
        assert_eq!(f32::from_bits(px[3]), 0.2);
        // 0.5 * 255 = 127.5 rounds to even (128); out of range and NaN clamp.
        let mut out = [0u8; 4];
        let v = [0.5f32, 1.5, -0.25, f32::NAN].map(f32::to_bits);
        rgba8.encode(v, 0xF, &[9; 4], &mut out);
        assert_eq!(out, [128, 255, 0, 0]);
        // A write mask keeps the other channels' old bytes.
        rgba8.encode(v, 0b0101, &[9; 4], &mut out);
        assert_eq!(out, [128, 9, 0, 9]);
    }

    #[test]
    fn bgra_swizzles_and_missing_channels_default() {
        let bgra = f(0x0C0);
        let px = bgra.decode(&[255, 0, 0, 255]);
        assert_eq!(px.map(f32::from_bits), [0.0, 0.0, 1.0, 1.0]);
        // R8_UINT: green and blue 0, alpha the integer 1.
        assert_eq!(f(0x143).decode(&[200]), [200, 0, 0, 1]);
        // R16_FLOAT: alpha 1.0.
        let h = f(0x10E).decode(&0x3C00u16.to_le_bytes());
        assert_eq!(h.map(f32::from_bits), [1.0, 0.0, 0.0, 1.0]);
        // Luminance fills red, green and blue; intensity all four.
        assert_eq!(
            f(0x146).decode(&[255]).map(f32::from_bits),
            [1.0, 1.0, 1.0, 1.0]
        );
        assert_eq!(f(0x145).decode(&[0]).map(f32::from_bits), [0.0; 4]);
        assert_eq!(
            f(0x144).decode(&[255]).map(f32::from_bits),
            [0.0, 0.0, 0.0, 1.0]
        );
    }

    #[test]
    fn snorm_and_integer_saturation() {
        let s8 = f(0x141);
        // -128 reads as -1.0 (clamped), 127 as 1.0.
        assert_eq!(f32::from_bits(s8.decode(&[0x80])[0]), -1.0);
        assert_eq!(f32::from_bits(s8.decode(&[0x7f])[0]), 1.0);
        let mut out = [0u8; 1];
        s8.encode([(-2.0f32).to_bits(), 0, 0, 0], 1, &[0], &mut out);
        assert_eq!(out, [0x81]);
        // UINT8 saturates, SINT16 saturates both ways, sign-extends on read.
        f(0x143).encode([300, 0, 0, 0], 1, &[0], &mut out);
        assert_eq!(out, [255]);
        let mut o2 = [0u8; 2];
        f(0x10C).encode([(-70000i32) as u32, 0, 0, 0], 1, &[0; 2], &mut o2);
        assert_eq!(i16::from_le_bytes(o2), i16::MIN);
        assert_eq!(f(0x10C).decode(&o2)[0] as i32, -32768);
    }

    #[test]
    fn half_and_srgb() {
        let mut o = [0u8; 8];
        let v = [1.0f32, 65520.0, -0.0, 0.333].map(f32::to_bits);
        f(0x084).encode(v, 0xF, &[0; 8], &mut o);
        let hs: Vec<u16> = o
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(hs, [0x3C00, 0x7C00, 0x8000, 0x3554]);
        // sRGB: 0.5 linear encodes to 188 (0.7354 * 255 = 187.5 -> 188); alpha is linear.
        let mut p = [0u8; 4];
        f(0x0C8).encode(
            [0.5f32, 0.0, 1.0, 0.5].map(f32::to_bits),
            0xF,
            &[0; 4],
            &mut p,
        );
        assert_eq!(p, [188, 0, 255, 128]);
        let back = f(0x0C8).decode(&p).map(f32::from_bits);
        assert!((back[0] - 0.5).abs() < 0.003, "{back:?}");
        assert_eq!(back[3], 128.0 / 255.0);
    }

    #[test]
    fn packed_formats() {
        // B5G6R5: blue in bits 4:0, green 10:5, red 15:11.
        let v = f(0x100)
            .decode(&0xF800u16.to_le_bytes())
            .map(f32::from_bits);
        assert_eq!(v, [1.0, 0.0, 0.0, 1.0]);
        let w = f(0x0C2)
            .decode(&(3u32 << 30 | 1023).to_le_bytes())
            .map(f32::from_bits);
        assert_eq!(w, [1.0, 0.0, 0.0, 1.0]);
    }
}
