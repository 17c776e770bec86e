//! Packets and state structures of the Gen command streamer, one Rust
//! definition per packet, generated from named fields with bit ranges.
//!
//! Bit numbering follows the hardware documentation (and genxml): a field's
//! `start..=end` counts from bit 0 of dword 0 across the whole packet.
//! Address and offset fields hold the byte address itself (unshifted): the
//! packet stores bits `start%32 ..` of the address in place, the low bits
//! being implied zero by alignment. `tests/genxml.rs` checks every field of
//! every definition against `gen9.xml`.

pub mod gen9;
pub mod launch;

/// How a field's value maps to its bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The value is stored as is, truncated to the field width.
    Uint,
    /// A byte address or offset: bits below `start % 32` are implied zero.
    Address,
}

/// One field of a packet, for generic access (disassembly, tests, logs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldDef {
    /// The field's name in the hardware documentation (as genxml spells it).
    pub doc_name: &'static str,
    pub start: u32,
    pub end: u32,
    pub kind: Kind,
}

/// A packet or state structure.
pub trait Packet: Sized + Default {
    /// The documentation's name, e.g. `GPGPU_WALKER`.
    const NAME: &'static str;
    /// Dwords of the full-length packet.
    const DWORDS: usize;
    /// Difference between the dword count and the DWord Length field (0 for structs).
    const BIAS: u32;
    /// Header fields identifying the packet: (start, end, value).
    const OPCODE: &'static [(u32, u32, u64)];
    /// The DWord Length field (start, end, default), if the packet has one.
    const LENGTH: Option<(u32, u32, u64)>;
    const FIELDS: &'static [FieldDef];

    /// Write the packet into `dw` (at least [`Self::DWORDS`] long; extra is ignored).
    fn pack_into(&self, dw: &mut [u32]);
    /// Read the fields from `dw`; missing dwords read as zero.
    fn unpack(dw: &[u32]) -> Self;
    /// A field by its documentation name.
    fn get(&self, doc_name: &str) -> Option<u64>;
    /// Set a field by its documentation name; false if there is none.
    #[allow(unused_variables)]
    fn set(&mut self, doc_name: &str, value: u64) -> bool;

    fn pack_vec(&self) -> Vec<u32> {
        let mut v = vec![0; Self::DWORDS];
        self.pack_into(&mut v);
        v
    }
    /// Whether the header dword carries this packet's opcode fields.
    fn matches(dw0: u32) -> bool {
        Self::OPCODE
            .iter()
            .all(|&(s, e, v)| get_bits(&[dw0], s, e) == v)
    }
    /// Total dwords the packet header announces (DWord Length + bias).
    fn length_from_header(dw0: u32) -> usize {
        match Self::LENGTH {
            Some((s, e, _)) => get_bits(&[dw0], s, e) as usize + Self::BIAS as usize,
            None => Self::DWORDS,
        }
    }
}

/// A field's Rust type, converted to and from raw field bits.
pub trait FieldValue: Copy {
    fn to_bits(self) -> u64;
    fn from_bits(v: u64) -> Self;
}
impl FieldValue for bool {
    fn to_bits(self) -> u64 {
        self as u64
    }
    fn from_bits(v: u64) -> Self {
        v != 0
    }
}
macro_rules! int_field_value {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            fn to_bits(self) -> u64 { self as u64 }
            fn from_bits(v: u64) -> Self { v as $t }
        }
    )*};
}
int_field_value!(u8, u16, u32, u64);

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Read bits `start..=end` (at most 64) of a dword array; absent dwords read as zero.
pub fn get_bits(dw: &[u32], start: u32, end: u32) -> u64 {
    let first = (start / 32) as usize;
    let mut window: u128 = 0;
    for i in 0..3 {
        let w = dw.get(first + i).copied().unwrap_or(0);
        window |= u128::from(w) << (32 * i);
    }
    ((window >> (start % 32)) as u64) & mask(end - start + 1)
}

/// Write bits `start..=end` of a dword array; bits past the array are dropped.
pub fn set_bits(dw: &mut [u32], start: u32, end: u32, value: u64) {
    let first = (start / 32) as usize;
    let m = u128::from(mask(end - start + 1)) << (start % 32);
    let v = (u128::from(value) << (start % 32)) & m;
    for i in 0..3 {
        if let Some(w) = dw.get_mut(first + i) {
            let sh = 32 * i;
            let mm = (m >> sh) as u32;
            *w = (*w & !mm) | ((v >> sh) as u32 & mm);
        }
    }
}

/// The raw bits a field stores for `value`.
pub fn encode_field(f: &FieldDef, value: u64) -> u64 {
    match f.kind {
        Kind::Uint => value,
        Kind::Address => value >> (f.start % 32),
    }
}

/// The value a field's raw bits stand for.
pub fn decode_field(f: &FieldDef, bits: u64) -> u64 {
    match f.kind {
        Kind::Uint => bits,
        Kind::Address => bits << (f.start % 32),
    }
}

/// Defines a packet: a struct with one pub field per documented field, and
/// its [`Packet`] implementation. Field syntax:
/// `name: type = start, end, Uint|Address, "Documentation Name";`
macro_rules! packet {
    (
        $(#[$m:meta])*
        $name:ident = $doc:literal, dwords $n:literal, bias $bias:literal,
        opcode [$(($os:literal, $oe:literal, $ov:literal)),* $(,)?], length $len:expr;
        { $( $(#[$fm:meta])* $f:ident : $t:ty = $s:literal, $e:literal, $k:ident, $fd:literal; )* }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name {
            /// DWord Length (only meaningful for packets that have one).
            pub dword_length: u32,
            $( $(#[$fm])* pub $f: $t, )*
        }

        impl Default for $name {
            fn default() -> Self {
                let len: Option<(u32, u32, u64)> = $len;
                Self {
                    dword_length: len.map_or(0, |l| l.2 as u32),
                    $( $f: <$t as $crate::genx::FieldValue>::from_bits(0), )*
                }
            }
        }

        impl $name {
            /// The full-length packet as dwords.
            pub fn pack(&self) -> [u32; $n] {
                let mut dw = [0u32; $n];
                $crate::genx::Packet::pack_into(self, &mut dw);
                dw
            }
        }

        impl $crate::genx::Packet for $name {
            const NAME: &'static str = $doc;
            const DWORDS: usize = $n;
            const BIAS: u32 = $bias;
            const OPCODE: &'static [(u32, u32, u64)] = &[$(($os, $oe, $ov)),*];
            const LENGTH: Option<(u32, u32, u64)> = $len;
            const FIELDS: &'static [$crate::genx::FieldDef] = &[$(
                $crate::genx::FieldDef {
                    doc_name: $fd, start: $s, end: $e, kind: $crate::genx::Kind::$k,
                },
            )*];

            #[allow(unused_variables, unused_mut)]
            fn pack_into(&self, dw: &mut [u32]) {
                #[allow(unused_imports)]
                use $crate::genx::{set_bits, encode_field, FieldValue};
                for &(s, e, v) in Self::OPCODE {
                    set_bits(dw, s, e, v);
                }
                if let Some((s, e, _)) = Self::LENGTH {
                    set_bits(dw, s, e, u64::from(self.dword_length));
                }
                let mut i = 0;
                $(
                    let f = &Self::FIELDS[i];
                    set_bits(dw, f.start, f.end, encode_field(f, self.$f.to_bits()));
                    i += 1;
                )*
                let _ = i;
            }

            #[allow(unused_variables, unused_mut)]
            fn unpack(dw: &[u32]) -> Self {
                #[allow(unused_imports)]
                use $crate::genx::{get_bits, decode_field, FieldValue};
                let mut p = Self::default();
                if let Some((s, e, _)) = Self::LENGTH {
                    p.dword_length = get_bits(dw, s, e) as u32;
                }
                let mut i = 0;
                $(
                    let f = &Self::FIELDS[i];
                    p.$f = <$t>::from_bits(decode_field(f, get_bits(dw, f.start, f.end)));
                    i += 1;
                )*
                let _ = i;
                p
            }

            fn get(&self, doc_name: &str) -> Option<u64> {
                #[allow(unused_imports)]
                use $crate::genx::FieldValue;
                match doc_name {
                    $( $fd => Some(self.$f.to_bits()), )*
                    _ => None,
                }
            }

            #[allow(unused_variables)]
            fn set(&mut self, doc_name: &str, value: u64) -> bool {
                #[allow(unused_imports)]
                use $crate::genx::FieldValue;
                match doc_name {
                    $( $fd => { self.$f = <$t>::from_bits(value); true } )*
                    _ => false,
                }
            }
        }
    };
}
pub(crate) use packet;
