//! The Gen ISA model: one description of the instruction set, read by the
//! encoder, the decoder, the disassembler, the JIT's instruction selection and
//! the GPU model alike.
//!
//! `Inst` is the *native* (uncompacted, 128-bit) form of one instruction with
//! every field named. Compacted 64-bit instructions decode into the same
//! `Inst`. Generation-specific facts (bit positions, opcode numbers, type
//! encodings) live in `gen9/` tables; this file holds only the
//! generation-independent vocabulary.
//!
//! Conventions:
//! - register numbers are GRF/ARF numbers; `subreg` is always in **bytes**;
//! - regions hold the real strides/widths (not their log2 encodings);
//! - immediates keep their raw bits (`Imm::bits`), typed by `ty`.

pub mod gen9;
pub mod types;

pub use types::*;
