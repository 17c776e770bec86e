//! Program binaries: what CL_PROGRAM_BINARIES hands the application and
//! clCreateProgramWithBinary takes back (pyopencl's cache, ocl-icd tools, applications that ship
//! precompiled kernels).
//!
//! Layout, little-endian:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | magic `GENCLBIN` |
//! | 8..12 | format version ([`FORMAT_VERSION`]) |
//! | 12..16 | target: the Gen generation the code is for (9) |
//! | 16..24 | compiler id: a hash of the compiler's sources, set by `build.rs` |
//! | 24..28 | kind ([`BinaryKind`]) |
//! | 28..32 | reserved, 0 |
//! | 32..40 | payload length |
//! | 40..48 | FNV-1a of the payload |
//! | 48.. | payload: a postcard-encoded [`ProgramBinary`] (executable), or SPIR-V (compiled object, library) |
//!
//! A binary is accepted only by the same build of the compiler for the same generation: the
//! kernel descriptor and the code are one contract, and a binary from another build is
//! CL_INVALID_BINARY (pyopencl then rebuilds from source). The bytes are untrusted: decoding
//! checks every length, and [`ProgramBinary::check`] every descriptor field a launch reads.

use thiserror::Error;

use crate::abi::ProgramBinary;

pub const MAGIC: &[u8; 8] = b"GENCLBIN";
/// Bumped whenever the layout above changes.
pub const FORMAT_VERSION: u32 = 1;
/// Gen9 (Skylake, Kaby Lake, Coffee Lake).
pub const TARGET_GEN9: u32 = 9;
/// This build of the compiler.
pub const COMPILER_ID: &str = env!("GENCL_COMPILER_ID");
const HEADER: usize = 48;

/// What a binary holds (CL_PROGRAM_BINARY_TYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryKind {
    /// Machine code and kernel descriptors: CL_PROGRAM_BINARY_TYPE_EXECUTABLE.
    Executable = 1,
    /// clCompileProgram's SPIR-V: CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT.
    CompiledObject = 2,
    /// clLinkProgram -create-library's SPIR-V: CL_PROGRAM_BINARY_TYPE_LIBRARY.
    Library = 3,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum BinaryError {
    #[error("not a gencl program binary (no GENCLBIN header)")]
    NotOurs,
    #[error("program binary format version {0}, this driver reads {FORMAT_VERSION}")]
    FormatVersion(u32),
    #[error("program binary is for Gen{0}, this device is Gen{TARGET_GEN9}")]
    OtherDevice(u32),
    #[error("program binary was made by compiler build {found}, this is build {expected}")]
    OtherCompiler { found: String, expected: String },
    #[error("program binary kind {0} is unknown")]
    Kind(u32),
    #[error("program binary is truncated or corrupt: {0}")]
    Corrupt(String),
    #[error("program binary has an invalid kernel descriptor: {0}")]
    Descriptor(String),
}

/// FNV-1a: a checksum and a name, not a security boundary.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn compiler_id() -> u64 {
    u64::from_str_radix(COMPILER_ID, 16).unwrap_or(0)
}

/// The bytes of `program` as CL_PROGRAM_BINARIES reports them.
pub fn encode(program: &ProgramBinary) -> Vec<u8> {
    let payload = postcard::to_stdvec(program).unwrap_or_default();
    wrap(BinaryKind::Executable, &payload)
}

/// A compiled object's or a library's SPIR-V as CL_PROGRAM_BINARIES reports it: the header
/// says which, so that the binary comes back as the same kind of program.
pub fn encode_il(kind: BinaryKind, il: &[u8]) -> Vec<u8> {
    wrap(kind, il)
}

fn wrap(kind: BinaryKind, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&TARGET_GEN9.to_le_bytes());
    out.extend_from_slice(&compiler_id().to_le_bytes());
    out.extend_from_slice(&(kind as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The kind and SPIR-V of a compiled object's or library's binary (checked as any header;
/// the SPIR-V is checked again when it is linked or built). None for an executable.
pub fn decode_il(
    bytes: &[u8],
    compiler: &str,
) -> Result<Option<(BinaryKind, Vec<u8>)>, BinaryError> {
    Ok(match check_header_for(bytes, compiler)? {
        BinaryKind::Executable => None,
        kind => Some((kind, bytes[HEADER..].to_vec())),
    })
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default())
}

/// Checks the header only: enough to answer clCreateProgramWithBinary's binary_status without
/// decoding the payload.
pub fn check_header(bytes: &[u8]) -> Result<BinaryKind, BinaryError> {
    check_header_for(bytes, COMPILER_ID)
}

/// [`check_header`] for the compiler build `compiler` (hex, as [`COMPILER_ID`]): a client
/// library checks binaries against the service's compiler, which may be another build.
pub fn check_header_for(bytes: &[u8], compiler: &str) -> Result<BinaryKind, BinaryError> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(BinaryError::NotOurs);
    }
    let version = u32_at(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(BinaryError::FormatVersion(version));
    }
    let target = u32_at(bytes, 12);
    if target != TARGET_GEN9 {
        return Err(BinaryError::OtherDevice(target));
    }
    let kind = match u32_at(bytes, 24) {
        1 => BinaryKind::Executable,
        2 => BinaryKind::CompiledObject,
        3 => BinaryKind::Library,
        k => return Err(BinaryError::Kind(k)),
    };
    // Machine code belongs to the compiler build that made it; SPIR-V to any.
    let id = u64_at(bytes, 16);
    if kind == BinaryKind::Executable && Some(id) != u64::from_str_radix(compiler, 16).ok() {
        return Err(BinaryError::OtherCompiler {
            found: format!("{id:016x}"),
            expected: compiler.to_string(),
        });
    }
    let len = u64_at(bytes, 32);
    if len != (bytes.len() - HEADER) as u64 {
        return Err(BinaryError::Corrupt(format!(
            "payload of {} bytes, header says {len}",
            bytes.len() - HEADER
        )));
    }
    if fnv(&bytes[HEADER..]) != u64_at(bytes, 40) {
        return Err(BinaryError::Corrupt("payload checksum mismatch".into()));
    }
    Ok(kind)
}

/// Decodes and checks a whole binary made by this build of the compiler.
pub fn decode(bytes: &[u8]) -> Result<ProgramBinary, BinaryError> {
    decode_for(bytes, COMPILER_ID)
}

/// [`decode`] for the compiler build `compiler` (see [`check_header_for`]).
pub fn decode_for(bytes: &[u8], compiler: &str) -> Result<ProgramBinary, BinaryError> {
    check_header_for(bytes, compiler)?;
    let program: ProgramBinary = postcard::from_bytes(&bytes[HEADER..])
        .map_err(|e| BinaryError::Corrupt(format!("payload: {e}")))?;
    program.check().map_err(BinaryError::Descriptor)?;
    Ok(program)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::abi::{AddressQualifier, ArgKind, KernelArg, KernelBinary};

    pub(crate) fn sample() -> ProgramBinary {
        ProgramBinary {
            kernels: vec![KernelBinary {
                name: "k".into(),
                isa: vec![0; 32],
                simd: 8,
                grf_count: 16,
                grfs_used: 12,
                args: vec![KernelArg {
                    name: "p".into(),
                    type_name: "float*".into(),
                    kind: ArgKind::Buffer { bti: None },
                    address: AddressQualifier::Global,
                    size: 8,
                    curbe_offset: 64,
                    pieces: Vec::new(),
                    type_qualifier: 0,
                    object_params: Vec::new(),
                }],
                cross_thread_bytes: 96,
                implicit: Vec::new(),
                uses_local_ids: true,
                slm_bytes: 0,
                scratch_bytes: 0,
                scratch_per_thread: 0,
                private_bytes: 0,
                printf: None,
                barriers: false,
                data_buffers: Vec::new(),
                globals_offset: None,
                scratch_base_offset: None,
                required_wg_size: None,
                required_sub_group_size: None,
                attributes: String::new(),
                samplers: None,
            }],
            build_log: "ok".into(),
            globals: Default::default(),
        }
    }

    #[test]
    fn round_trip() {
        let p = sample();
        let b = encode(&p);
        assert_eq!(&b[..8], MAGIC);
        let q = decode(&b).unwrap();
        assert_eq!(q.kernels[0].isa, p.kernels[0].isa);
        assert_eq!(q.kernels[0].args[0].curbe_offset, 64);
        assert_eq!(q.build_log, "ok");
    }

    #[test]
    fn refuses_what_is_not_ours() {
        let b = encode(&sample());
        assert_eq!(decode(b"\x7fELF").err(), Some(BinaryError::NotOurs));
        assert_eq!(decode(&b[..47]).err(), Some(BinaryError::NotOurs));
        let mut v = b.clone();
        v[8] = 2;
        assert_eq!(decode(&v).err(), Some(BinaryError::FormatVersion(2)));
        let mut v = b.clone();
        v[12] = 12;
        assert_eq!(decode(&v).err(), Some(BinaryError::OtherDevice(12)));
        let mut v = b.clone();
        v[16] ^= 1;
        assert!(matches!(decode(&v), Err(BinaryError::OtherCompiler { .. })));
        let mut v = b.clone();
        v[24] = 7;
        assert_eq!(decode(&v).err(), Some(BinaryError::Kind(7)));
        // Truncated and flipped payloads.
        assert!(matches!(
            decode(&b[..b.len() - 1]),
            Err(BinaryError::Corrupt(_))
        ));
        let mut v = b.clone();
        *v.last_mut().unwrap() ^= 0x40;
        assert!(matches!(decode(&v), Err(BinaryError::Corrupt(_))));
    }

    /// A payload that decodes but describes an impossible kernel is refused with the field named.
    #[test]
    fn refuses_bad_descriptors() {
        let mut p = sample();
        p.kernels[0].simd = 12;
        assert!(
            matches!(decode(&encode(&p)), Err(BinaryError::Descriptor(m)) if m.contains("SIMD"))
        );
        let mut p = sample();
        p.kernels[0].args[0].curbe_offset = 92;
        assert!(
            matches!(decode(&encode(&p)), Err(BinaryError::Descriptor(m)) if m.contains("argument"))
        );
        let mut p = sample();
        p.kernels[0].grf_count = 129;
        assert!(matches!(
            decode(&encode(&p)),
            Err(BinaryError::Descriptor(_))
        ));
        let mut p = sample();
        p.kernels[0].isa.truncate(12);
        assert!(matches!(
            decode(&encode(&p)),
            Err(BinaryError::Descriptor(_))
        ));
        let mut p = sample();
        p.kernels.push(p.kernels[0].clone());
        assert!(
            matches!(decode(&encode(&p)), Err(BinaryError::Descriptor(m)) if m.contains("twice"))
        );
    }

    /// Random garbage after a valid header never panics.
    #[test]
    fn garbage_payloads_are_errors() {
        let good = encode(&sample());
        let mut seed = 0x1234_5678_9abc_def0u64;
        for n in 0..2000usize {
            let mut v = good[..HEADER].to_vec();
            let len = n % 200;
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                v.push(seed as u8);
            }
            v[32..40].copy_from_slice(&(len as u64).to_le_bytes());
            let sum = fnv(&v[HEADER..]);
            v[40..48].copy_from_slice(&sum.to_le_bytes());
            let _ = decode(&v);
        }
    }
}
