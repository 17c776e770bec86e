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
    /// Address constants (`take_address_constants`), by result id.
    pub address_constants: std::collections::HashMap<u32, AddressConstant>,
}

/// An OpSpecConstantOp that forms an address from a program-scope variable (an access
/// chain with constant indices, or a pointer cast): what an initialiser such as
/// `global int *p = &a[1];` holds.
#[derive(Clone, Debug)]
pub struct AddressConstant {
    /// The operation (SPIR-V opcode).
    pub op: u32,
    /// Its operand ids: the base, then the indices.
    pub operands: Vec<u32>,
}

const OP_UNDEF: u32 = 1;
const OP_SPEC_CONSTANT_OP: u32 = 52;

/// rspirv parses OpSpecConstantOp's access chains with at most one index ("found extra
/// operands" for `PtrAccessChain %a 0 1 0`, valid SPIR-V), so address constants are taken
/// out of the words before parsing: each is kept aside and left as an OpUndef of its type
/// and id. Other operations stay, for `specialize` to refuse.
fn take_address_constants(
    words: Vec<u32>,
) -> (Vec<u32>, std::collections::HashMap<u32, AddressConstant>) {
    use rspirv::spirv::Op;
    let address_ops = [
        Op::AccessChain,
        Op::InBoundsAccessChain,
        Op::PtrAccessChain,
        Op::InBoundsPtrAccessChain,
        Op::Bitcast,
        Op::PtrCastToGeneric,
        Op::GenericCastToPtr,
    ]
    .map(|o| o as u32);
    let is_address = |i: &[u32]| {
        i[0] & 0xffff == OP_SPEC_CONSTANT_OP && i.len() >= 5 && address_ops.contains(&i[3])
    };
    if !instructions(&words).any(is_address) {
        return (words, Default::default());
    }
    let mut taken = std::collections::HashMap::new();
    let mut out = words[..5].to_vec();
    for i in instructions(&words) {
        if is_address(i) {
            taken.insert(
                i[2],
                AddressConstant {
                    op: i[3],
                    operands: i[4..].to_vec(),
                },
            );
            out.extend_from_slice(&[(3 << 16) | OP_UNDEF, i[1], i[2]]);
        } else {
            out.extend_from_slice(i);
        }
    }
    (out, taken)
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

const OP_EXT_INST_IMPORT: u32 = 11;
const OP_EXT_INST: u32 = 12;

/// The module without its debug-information extended instructions (`OpenCL.DebugInfo.100`,
/// which llvm-spirv writes for `clang -g`, and the `NonSemantic.*` sets): they place
/// OpExtInst among the types, where rspirv's loader refuses it ("not inside block"), and
/// nothing in them changes what the kernel computes. Core OpLine stays: it is how build
/// logs name source lines.
fn strip_debug_info(words: Vec<u32>) -> Vec<u32> {
    let debug_sets: std::collections::HashSet<u32> = instructions(&words)
        .filter(|i| i[0] & 0xffff == OP_EXT_INST_IMPORT && i.len() > 2)
        .filter(|i| {
            let (name, _) = literal_string(&i[2..]);
            name.starts_with("OpenCL.DebugInfo.") || name.starts_with("NonSemantic.")
        })
        .map(|i| i[1])
        .collect();
    if debug_sets.is_empty() {
        return words;
    }
    let mut out = words[..5].to_vec();
    for i in instructions(&words) {
        let op = i[0] & 0xffff;
        let debug = match op {
            OP_EXT_INST_IMPORT => debug_sets.contains(&i[1]),
            OP_EXT_INST => i.len() > 3 && debug_sets.contains(&i[3]),
            _ => false,
        };
        if !debug {
            out.extend_from_slice(i);
        }
    }
    out
}

/// Load a checked module. A panic inside rspirv becomes an error.
pub fn load(bytes: &[u8]) -> Result<Module, FrontendError> {
    let mut words = strip_debug_info(words_of(bytes)?);
    let odd_int_widths = widen_odd_ints(&mut words)?;
    let (words, address_constants) = take_address_constants(words);
    let result = std::panic::catch_unwind(move || dr::load_words(words));
    match result {
        Ok(Ok(module)) => Ok(Module {
            module,
            odd_int_widths,
            address_constants,
        }),
        Ok(Err(e)) => Err(FrontendError::InvalidIl(format!("SPIR-V parse error: {e}"))),
        Err(_) => Err(FrontendError::InvalidIl(
            "malformed SPIR-V (rejected by the parser)".into(),
        )),
    }
}

/// The instructions of a module's words as `words_of` returned them (every one fits): each
/// with its opcode word first.
pub fn instructions(words: &[u32]) -> impl Iterator<Item = &[u32]> {
    let mut at = 5;
    std::iter::from_fn(move || {
        let count = (*words.get(at)? >> 16) as usize;
        let inst = words.get(at..at + count).filter(|_| count > 0)?;
        at += count;
        Some(inst)
    })
}

/// A literal string at the start of `words` (bytes up to the first NUL, four to a word) and
/// how many words it takes.
pub fn literal_string(words: &[u32]) -> (String, usize) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    (
        String::from_utf8_lossy(&bytes[..end]).into_owned(),
        end / 4 + 1,
    )
}

/// A specialization constant a module declares: its SpecId and the size in bytes that
/// clSetProgramSpecializationConstant must be given ("For boolean constants, spec_value
/// should be a pointer to a cl_uchar value": 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    pub id: u32,
    pub size: u32,
}

/// The specialization constants of `bytes`, read from the words (the module is untrusted; its
/// layout is checked by `words_of`).
pub fn spec_constants(bytes: &[u8]) -> Result<Vec<SpecConstant>, FrontendError> {
    use rspirv::spirv::Op;
    let words = words_of(bytes)?;
    let mut spec_id: std::collections::HashMap<u32, u32> = Default::default();
    let mut width: std::collections::HashMap<u32, u32> = Default::default();
    let mut out = Vec::new();
    for inst in instructions(&words) {
        let op = Op::from_u32(inst[0] & 0xffff);
        match (op, inst.len()) {
            // OpDecorate %target SpecId n
            (Some(Op::Decorate), 4) if inst[2] == rspirv::spirv::Decoration::SpecId as u32 => {
                spec_id.insert(inst[1], inst[3]);
            }
            (Some(Op::TypeInt | Op::TypeFloat), 3..) => {
                width.insert(inst[1], inst[2] / 8);
            }
            (Some(Op::TypeBool), 2) => {
                width.insert(inst[1], 1);
            }
            (Some(Op::SpecConstantTrue | Op::SpecConstantFalse | Op::SpecConstant), 3..) => {
                if let (Some(&id), Some(&size)) = (spec_id.get(&inst[2]), width.get(&inst[1])) {
                    out.push(SpecConstant { id, size });
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Specialise a module (OpenCL 3.0 §5.8.3.1, SPIR-V 2.12): every OpSpecConstant(True/False)
/// becomes the constant the application set for its SpecId, or its default; composites of
/// them become OpConstantComposite. OpSpecConstantOp (constant folding of specialised values)
/// is refused with a clear error.
pub fn specialize(m: &mut dr::Module, values: &[(u32, Vec<u8>)]) -> Result<(), FrontendError> {
    use rspirv::grammar::INSTRUCTION_TABLE as T;
    use rspirv::spirv::Op;
    let mut spec_id: std::collections::HashMap<u32, u32> = Default::default();
    for a in &m.annotations {
        if let (
            Op::Decorate,
            Some(dr::Operand::IdRef(t)),
            Some(dr::Operand::Decoration(rspirv::spirv::Decoration::SpecId)),
            Some(dr::Operand::LiteralBit32(n)),
        ) = (
            a.class.opcode,
            a.operands.first(),
            a.operands.get(1),
            a.operands.get(2),
        ) {
            spec_id.insert(*t, *n);
        }
    }
    let mut types: std::collections::HashMap<u32, (u32, bool)> = Default::default();
    for i in &m.types_global_values {
        if let (Op::TypeInt, Some(r)) = (i.class.opcode, i.result_id) {
            let w = match i.operands.first() {
                Some(dr::Operand::LiteralBit32(w)) => *w,
                _ => 32,
            };
            let signed = matches!(i.operands.get(1), Some(dr::Operand::LiteralBit32(1)));
            types.insert(r, (w, signed));
        } else if let (Op::TypeFloat, Some(r)) = (i.class.opcode, i.result_id) {
            let w = match i.operands.first() {
                Some(dr::Operand::LiteralBit32(w)) => *w,
                _ => 32,
            };
            types.insert(r, (w, false));
        }
    }
    let value_of = |result: Option<u32>| -> Option<&Vec<u8>> {
        let id = spec_id.get(&result?)?;
        values.iter().rev().find(|(k, _)| k == id).map(|(_, v)| v)
    };
    for i in m.types_global_values.iter_mut() {
        match i.class.opcode {
            Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let default = i.class.opcode == Op::SpecConstantTrue;
                let v = value_of(i.result_id).map_or(default, |b| b.iter().any(|&x| x != 0));
                i.class = T.get(if v {
                    Op::ConstantTrue
                } else {
                    Op::ConstantFalse
                });
            }
            Op::SpecConstant => {
                if let Some(bytes) = value_of(i.result_id) {
                    let (w, signed) = i
                        .result_type
                        .and_then(|t| types.get(&t).copied())
                        .ok_or_else(|| {
                            FrontendError::InvalidIl("OpSpecConstant of a non-scalar type".into())
                        })?;
                    let mut raw = [0u8; 8];
                    let n = bytes.len().min(8);
                    raw[..n].copy_from_slice(&bytes[..n]);
                    let mut v = u64::from_le_bytes(raw);
                    if w < 64 {
                        v &= (1u64 << w) - 1;
                        // Narrow signed literals are sign-extended in their word (SPIR-V 2.2.1).
                        if signed && w < 32 && v >> (w - 1) & 1 == 1 {
                            v |= !0u64 << w;
                        }
                    }
                    i.operands = vec![if w == 64 {
                        dr::Operand::LiteralBit64(v)
                    } else {
                        dr::Operand::LiteralBit32(v as u32)
                    }];
                }
                i.class = T.get(Op::Constant);
            }
            Op::SpecConstantComposite => i.class = T.get(Op::ConstantComposite),
            Op::SpecConstantOp => {
                return Err(FrontendError::Unsupported(
                    "OpSpecConstantOp (operations on specialization constants)".into(),
                ))
            }
            _ => {}
        }
    }
    Ok(())
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
