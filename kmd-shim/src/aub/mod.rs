//! AUB files: the command streams Intel's runtime (NEO, in its AUB mode) records for a
//! Skylake GT2, replayed on the GPU model.
//!
//! Data flows: `stream` (the file's records) → `memory` (system memory by physical page,
//! the GGTT, the PPGTT page walk) → `replay` (register writes, execlist submissions, the
//! context image, the ring, then the command streamer of `crate::gpu::cs`); `writer`
//! records what the emulated device runs in the same form (GENCL_AUB=FILE).

pub mod decode;
pub mod memory;
pub mod replay;
pub mod stream;
pub mod writer;

#[cfg(test)]
mod tests;

pub use replay::{Replay, ReplayError, Submission};

/// The stream in `bytes`, decompressed first when it is a zstd frame (recordings are
/// kept compressed: NEO's pages of zeros and page tables shrink about 14 times).
pub fn decompress(bytes: Vec<u8>) -> Result<Vec<u8>, String> {
    const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
    if !bytes.starts_with(&ZSTD_MAGIC) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(bytes.as_slice())
        .map_err(|e| format!("zstd: {e}"))?;
    std::io::Read::read_to_end(&mut dec, &mut out).map_err(|e| format!("zstd: {e}"))?;
    Ok(out)
}
