//! `gencl run --arg SPEC`: a kernel argument's contents from the command line, and a buffer's
//! elements printed back.
//!
//! - `i32:V`, `u32:V`, `i64:V`, `u64:V`, `f32:V`, `f64:V`, `i8:V` ... : a by-value argument;
//! - `buf:TYPE:COUNT[:INIT]`: a buffer of COUNT elements of TYPE, INIT `zero` (the default),
//!   `iota` (0, 1, 2, ...), `rand` (a fixed sequence: the same every run; floats in [0, 1)),
//!   a value for every element, or `@FILE` (its bytes, COUNT elements' worth);
//! - `local:BYTES`: a `__local` pointer's size.

use crate::profile::RunArg;

/// An element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Elem {
    fn parse(s: &str) -> Result<Elem, String> {
        Ok(match s {
            "i8" | "char" => Elem::I8,
            "u8" | "uchar" => Elem::U8,
            "i16" | "short" => Elem::I16,
            "u16" | "ushort" => Elem::U16,
            "i32" | "int" => Elem::I32,
            "u32" | "uint" => Elem::U32,
            "i64" | "long" => Elem::I64,
            "u64" | "ulong" => Elem::U64,
            "f32" | "float" => Elem::F32,
            "f64" | "double" => Elem::F64,
            _ => return Err(format!("unknown element type {s:?}")),
        })
    }

    pub fn size(self) -> usize {
        match self {
            Elem::I8 | Elem::U8 => 1,
            Elem::I16 | Elem::U16 => 2,
            Elem::I32 | Elem::U32 | Elem::F32 => 4,
            Elem::I64 | Elem::U64 | Elem::F64 => 8,
        }
    }

    /// `v` as this type's little-endian bytes.
    fn bytes(self, v: &str) -> Result<Vec<u8>, String> {
        let bad = |_| format!("{v:?} is not a {self:?}");
        Ok(match self {
            Elem::I8 => v.parse::<i8>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::U8 => v.parse::<u8>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::I16 => v.parse::<i16>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::U16 => v.parse::<u16>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::I32 => v.parse::<i32>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::U32 => v.parse::<u32>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::I64 => v.parse::<i64>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::U64 => v.parse::<u64>().map_err(bad)?.to_le_bytes().to_vec(),
            Elem::F32 => v
                .parse::<f32>()
                .map_err(|_| format!("{v:?} is not a F32"))?
                .to_le_bytes()
                .to_vec(),
            Elem::F64 => v
                .parse::<f64>()
                .map_err(|_| format!("{v:?} is not a F64"))?
                .to_le_bytes()
                .to_vec(),
        })
    }

    /// Element `i` of a generated sequence: `iota` or `rand` (xorshift state `x`).
    fn generated(self, i: u64, x: Option<u64>) -> Vec<u8> {
        let mut b = vec![0u8; self.size()];
        match (self, x) {
            (Elem::F32, None) => b.copy_from_slice(&(i as f32).to_le_bytes()),
            (Elem::F64, None) => b.copy_from_slice(&(i as f64).to_le_bytes()),
            (Elem::F32, Some(x)) => {
                b.copy_from_slice(&(((x >> 40) as f32) / (1u64 << 24) as f32).to_le_bytes())
            }
            (Elem::F64, Some(x)) => {
                b.copy_from_slice(&(((x >> 11) as f64) / (1u64 << 53) as f64).to_le_bytes())
            }
            (_, None) => b.copy_from_slice(&i.to_le_bytes()[..self.size()]),
            (_, Some(x)) => b.copy_from_slice(&x.to_le_bytes()[..self.size()]),
        }
        b
    }

    /// The elements of `bytes` as text.
    pub fn format(self, bytes: &[u8], count: usize) -> String {
        let n = self.size();
        bytes
            .chunks_exact(n)
            .take(count)
            .map(|c| match self {
                Elem::I8 => (c[0] as i8).to_string(),
                Elem::U8 => c[0].to_string(),
                Elem::I16 => i16::from_le_bytes([c[0], c[1]]).to_string(),
                Elem::U16 => u16::from_le_bytes([c[0], c[1]]).to_string(),
                Elem::I32 => i32::from_le_bytes(c.try_into().unwrap_or_default()).to_string(),
                Elem::U32 => u32::from_le_bytes(c.try_into().unwrap_or_default()).to_string(),
                Elem::I64 => i64::from_le_bytes(c.try_into().unwrap_or_default()).to_string(),
                Elem::U64 => u64::from_le_bytes(c.try_into().unwrap_or_default()).to_string(),
                Elem::F32 => f32::from_le_bytes(c.try_into().unwrap_or_default()).to_string(),
                Elem::F64 => f64::from_le_bytes(c.try_into().unwrap_or_default()).to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// One `--arg`: the argument's contents, and for a buffer its element type.
pub fn parse(spec: &str, index: usize) -> Result<(RunArg, Option<Elem>), String> {
    let err = |why: String| format!("--arg {spec:?}: {why}");
    let parts: Vec<&str> = spec.splitn(4, ':').collect();
    match parts.as_slice() {
        ["local", bytes] => Ok((
            RunArg::Local(bytes.parse().map_err(|_| err("a byte count".into()))?),
            None,
        )),
        ["buf", ty, count, init @ ..] => {
            let ty = Elem::parse(ty).map_err(err)?;
            let count: usize = count.parse().map_err(|_| err("an element count".into()))?;
            let len = count
                .checked_mul(ty.size())
                .filter(|&l| l <= 1 << 30)
                .ok_or_else(|| err("larger than 1 GiB".into()))?;
            let bytes = match init.first().copied().unwrap_or("zero") {
                "zero" => vec![0; len],
                "iota" => (0..count as u64)
                    .flat_map(|i| ty.generated(i, None))
                    .collect(),
                "rand" => {
                    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ (index as u64 + 1);
                    (0..count)
                        .flat_map(|_| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            ty.generated(0, Some(x))
                        })
                        .collect()
                }
                file if file.starts_with('@') => {
                    let b = std::fs::read(&file[1..]).map_err(|e| err(e.to_string()))?;
                    if b.len() < len {
                        return Err(err(format!(
                            "{} holds {} bytes, {len} needed",
                            &file[1..],
                            b.len()
                        )));
                    }
                    b[..len].to_vec()
                }
                value => ty.bytes(value).map_err(err)?.repeat(count),
            };
            Ok((RunArg::Buffer(bytes), Some(ty)))
        }
        [ty, value] => {
            let ty = Elem::parse(ty).map_err(err)?;
            Ok((RunArg::Value(ty.bytes(value).map_err(err)?), None))
        }
        _ => Err(err(
            "expected TYPE:VALUE, buf:TYPE:COUNT[:INIT] or local:BYTES".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_give_the_bytes_they_name() {
        assert_eq!(
            parse("i32:-2", 0).unwrap().0,
            RunArg::Value((-2i32).to_le_bytes().to_vec())
        );
        assert_eq!(
            parse("f64:1.5", 0).unwrap().0,
            RunArg::Value(1.5f64.to_le_bytes().to_vec())
        );
        assert_eq!(parse("local:256", 0).unwrap().0, RunArg::Local(256));
        let (a, ty) = parse("buf:u16:3:iota", 0).unwrap();
        assert_eq!(a, RunArg::Buffer(vec![0, 0, 1, 0, 2, 0]));
        assert_eq!(ty, Some(Elem::U16));
        assert_eq!(parse("buf:i32:2", 0).unwrap().0, RunArg::Buffer(vec![0; 8]));
        assert_eq!(
            parse("buf:i8:2:-1", 0).unwrap().0,
            RunArg::Buffer(vec![0xff; 2])
        );
        // rand: the same every run, different per argument, floats in [0, 1).
        let r = |i| parse("buf:f32:64:rand", i).unwrap().0;
        assert_eq!(r(1), r(1));
        assert_ne!(r(1), r(2));
        let RunArg::Buffer(b) = r(1) else { panic!() };
        assert!(b
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .all(|v| (0.0..1.0).contains(&v)));
        for bad in [
            "i33:1",
            "buf:f32:x",
            "buf:f32:4:nope",
            "local:-1",
            "i32",
            "u8:300",
        ] {
            assert!(parse(bad, 0).is_err(), "{bad}");
        }
        assert_eq!(
            Elem::F32.format(&[0, 0, 0x80, 0x3f, 0, 0, 0, 0x40], 8),
            "1 2"
        );
        assert_eq!(Elem::I16.format(&[0xff, 0xff, 1, 0], 1), "-1");
    }
}
