//! SPIR-V in: checked word by word before rspirv sees it, then loaded with
//! rspirv behind `catch_unwind` (its loader panics on some malformed input,
//! TOOLCHAIN.md), so untrusted IL never takes the service down.

use rspirv::dr;

use super::FrontendError;

const MAGIC: u32 = 0x0723_0203;

/// Turn bytes into words, accepting either endianness, and check the
/// physical layout: header, and that every instruction's word count fits.
pub fn words_of(bytes: &[u8]) -> Result<Vec<u32>, FrontendError> {
    let bad = |why: String| Err(FrontendError::InvalidIl(why));
    if !bytes.len().is_multiple_of(4) {
        return bad(format!(
            "SPIR-V size {} is not a multiple of 4",
            bytes.len()
        ));
    }
    if bytes.len() < 20 {
        return bad("SPIR-V module shorter than its 5-word header".into());
    }
    let le = u32::from_le_bytes(bytes[0..4].try_into().unwrap_or_default());
    let swap = match le {
        MAGIC => false,
        m if m.swap_bytes() == MAGIC => true,
        m => return bad(format!("not SPIR-V: magic number {m:#010x}")),
    };
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| {
            let w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if swap {
                w.swap_bytes()
            } else {
                w
            }
        })
        .collect();
    let version = words[1];
    if version & 0xff00_00ff != 0 || (version >> 16) != 1 || ((version >> 8) & 0xff) > 6 {
        return bad(format!("unsupported SPIR-V version word {version:#010x}"));
    }
    let bound = words[3];
    if bound == 0 || bound > 4_000_000 {
        return bad(format!("implausible SPIR-V id bound {bound}"));
    }
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return bad(format!("instruction at word {i} has a word count of 0"));
        }
        if i + count > words.len() {
            return bad(format!(
                "instruction at word {i} runs past the end of the module"
            ));
        }
        i += count;
    }
    Ok(words)
}

/// A loaded module, and the integer types whose width SPIR-V 1.2 has no type for
/// (SPV_INTEL_arbitrary_precision_integers: i33 from LLVM's closed forms, say).
pub struct Module {
    pub module: dr::Module,
    /// Type id → real width of every odd-width `OpTypeInt`; in `module` these types
    /// read as their 32- or 64-bit container.
    pub odd_int_widths: std::collections::HashMap<u32, u32>,
}

const OP_TYPE_INT: u32 = 21;

/// rspirv parses only 8/16/32/64-bit integer literals, so an odd-width `OpTypeInt` is
/// widened to its container before parsing and its width kept aside. Literals of the
/// type keep their word count: 1 word up to 32 bits, 2 words up to 64.
fn widen_odd_ints(words: &mut [u32]) -> Result<std::collections::HashMap<u32, u32>, FrontendError> {
    let mut odd = std::collections::HashMap::new();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if words[i] & 0xffff == OP_TYPE_INT && count == 4 {
            let w = words[i + 2];
            if !matches!(w, 8 | 16 | 32 | 64) {
                if w == 0 || w > 64 {
                    return Err(FrontendError::Unsupported(format!(
                        "{w}-bit integers (gencl has integers of up to 64 bits)"
                    )));
                }
                odd.insert(words[i + 1], w);
                words[i + 2] = if w < 32 { 32 } else { 64 };
            }
        }
        i += count;
    }
    Ok(odd)
}

/// Load a checked module. A panic inside rspirv becomes an error.
pub fn load(bytes: &[u8]) -> Result<Module, FrontendError> {
    let mut words = words_of(bytes)?;
    let odd_int_widths = widen_odd_ints(&mut words)?;
    let result = std::panic::catch_unwind(move || dr::load_words(words));
    match result {
        Ok(Ok(module)) => Ok(Module {
            module,
            odd_int_widths,
        }),
        Ok(Err(e)) => Err(FrontendError::InvalidIl(format!("SPIR-V parse error: {e}"))),
        Err(_) => Err(FrontendError::InvalidIl(
            "malformed SPIR-V (rejected by the parser)".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_malformed_headers() {
        assert!(matches!(
            words_of(&[1, 2, 3]),
            Err(FrontendError::InvalidIl(_))
        ));
        assert!(matches!(
            words_of(&[0u8; 20]),
            Err(FrontendError::InvalidIl(_))
        ));
        let mut m = Vec::new();
        for w in [MAGIC, 0x0001_0000, 0, 10, 0, 0x0005_0011] {
            m.extend_from_slice(&w.to_le_bytes());
        }
        // The last instruction claims 5 words but has 1.
        let e = words_of(&m).unwrap_err();
        assert!(e.to_string().contains("runs past the end"), "{e}");
    }

    #[test]
    fn truncated_and_garbage_modules_never_panic() {
        // Deterministic pseudo-random garbage after a valid header.
        let mut seed = 0x1234_5678u32;
        for len in 0..200usize {
            let mut m = Vec::new();
            for w in [MAGIC, 0x0001_0000, 0, 50, 0] {
                m.extend_from_slice(&w.to_le_bytes());
            }
            for _ in 0..len {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let w = (seed & 0x0003_00ff) | 0x0001_0000;
                m.extend_from_slice(&w.to_le_bytes());
            }
            let _ = load(&m);
        }
    }
}
