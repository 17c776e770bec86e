//! Gen9 (Skylake) encoding of the ISA: field table, opcode table, encoder,
//! decoder (native and compacted), disassembler in IGA's syntax.

use super::Inst;
use thiserror::Error;

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
    Err(EncodeError::Unencodable { what: format!("{:?}", inst.op), why: "encoder not written yet".into() })
}

/// Decode one instruction (native or compacted) at the start of `bytes`;
/// returns it and its length in bytes (16 or 8).
pub fn decode(bytes: &[u8]) -> Result<(Inst, usize), DecodeError> {
    Err(DecodeError::Invalid(format!("decoder not written yet ({} bytes)", bytes.len())))
}
