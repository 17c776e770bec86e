//! Gen9 (Skylake) encoding of the ISA: field table, opcode table, encoder,
//! decoder (native and compacted), disassembler in IGA's syntax, send
//! message descriptors.
//!
//! - `fields`: every instruction field as a bit range (one table);
//! - `opcodes`: opcode number, IGA mnemonic, sources, form (one table);
//! - `encoding`: codes of types, regions, predicates, math functions, SFIDs;
//! - `encode` / `decode` / `compact`: native and compacted forms;
//! - `disasm`: text exactly as `iga64 -d -p=9` prints it;
//! - `send`: message descriptors, decoded and built;
//! - `validate`: instruction legality (PRM register-region, type, send and
//!   flow-control restrictions).

pub mod compact;
pub mod decode;
pub mod disasm;
pub mod encode;
pub mod encoding;
pub mod fields;
pub mod opcodes;
pub mod send;
pub mod validate;

use super::Inst;
use thiserror::Error;

pub use disasm::{disasm, disasm_kernel};

#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum EncodeError {
    #[error("cannot encode {what}: {why}")]
    Unencodable { what: String, why: String },
}

#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum DecodeError {
    #[error("truncated instruction: {0} bytes left")]
    Truncated(usize),
    #[error("invalid instruction encoding: {0}")]
    Invalid(String),
}

/// Encode one instruction in native (128-bit) form.
pub fn encode(inst: &Inst) -> Result<[u8; 16], EncodeError> {
    encode::encode(inst)
}

/// The length in bytes (8 compacted, 16 native) of the instruction that starts `bytes`:
/// CmptCtrl is bit 29 in both forms. None when fewer than 8 bytes remain.
pub fn instruction_len(bytes: &[u8]) -> Option<usize> {
    (bytes.len() >= 8).then(|| if bytes[3] & 0x20 != 0 { 8 } else { 16 })
}

/// Decode one instruction (native or compacted) at the start of `bytes`;
/// returns it and its length in bytes (16 or 8).
pub fn decode(bytes: &[u8]) -> Result<(Inst, usize), DecodeError> {
    let Some(len) = instruction_len(bytes) else {
        return Err(DecodeError::Truncated(bytes.len()));
    };
    if len == 8 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[..8]);
        let w = compact::expand(u64::from_le_bytes(b))?;
        let mut inst = decode::decode_native(w)?;
        inst.compacted = true;
        Ok((inst, 8))
    } else {
        if bytes.len() < 16 {
            return Err(DecodeError::Truncated(bytes.len()));
        }
        let mut b = [0u8; 16];
        b.copy_from_slice(&bytes[..16]);
        Ok((decode::decode_native(u128::from_le_bytes(b))?, 16))
    }
}
