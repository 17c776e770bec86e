//! `vec_type_hint` as the source spelled it. SPIR-V's VecTypeHint operand names an integer
//! component by width alone (0 i8, 1 i16, 2 i32, 3 i64), so `uint4` and `int4` translate to one
//! value, while CL_KERNEL_ATTRIBUTES must answer "vec_type_hint(uint4)". clang's LLVM metadata
//! still has the sign (`!vec_type_hint !{<4 x i32> undef, i32 0}`, the second operand 1 for a
//! signed type), so when a translated module has an integer hint, the LLVM module is
//! disassembled and each kernel's spelling is added to the SPIR-V as an
//! `OpString "gencl.vec_type_hint.<kernel>.<type>"`, next to llvm-spirv's own
//! `kernel_arg_type.<kernel>.` strings; `lower` prefers it to the bare operand.

use std::collections::HashMap;

use super::spirv::{instructions, words_of};
use super::FrontendError;

/// The prefix of the strings this module adds.
pub const PREFIX: &str = "gencl.vec_type_hint.";

const OP_STRING: u32 = 7;
const OP_EXECUTION_MODE: u32 = 16;
const EXECUTION_MODE_VEC_TYPE_HINT: u32 = 30;

/// True when `spv` has a VecTypeHint whose component type is an integer (the only case the
/// operand cannot spell).
pub fn has_integer_hint(spv: &[u8]) -> bool {
    let Ok(words) = words_of(spv) else {
        return false;
    };
    let found = instructions(&words).any(|i| {
        i[0] & 0xffff == OP_EXECUTION_MODE
            && i.len() >= 4
            && i[2] == EXECUTION_MODE_VEC_TYPE_HINT
            && i[3] & 0xffff <= 3
    });
    found
}

/// Each kernel's `vec_type_hint` type from LLVM IR text, as OpenCL C spells it.
pub fn from_llvm_text(text: &str) -> HashMap<String, String> {
    let mut nodes: HashMap<&str, &str> = HashMap::new();
    let mut uses: Vec<(&str, &str)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("define ") {
            let (Some(name), Some(node)) = (function_name(rest), metadata_ref(rest)) else {
                continue;
            };
            uses.push((name, node));
        } else if let Some((id, body)) = line.split_once(" = !{") {
            if id.starts_with('!') {
                nodes.insert(id, body);
            }
        }
    }
    uses.into_iter()
        .filter_map(|(name, node)| Some((name.to_string(), spell(nodes.get(node)?)?)))
        .collect()
}

/// `@name(` or `@"name"(` in a `define` line.
fn function_name(rest: &str) -> Option<&str> {
    let at = &rest[rest.find(" @")? + 2..];
    if let Some(quoted) = at.strip_prefix('"') {
        return quoted.split_once('"').map(|(n, _)| n);
    }
    at.split_once('(').map(|(n, _)| n)
}

fn metadata_ref(rest: &str) -> Option<&str> {
    let after = &rest[rest.find("!vec_type_hint ")? + "!vec_type_hint ".len()..];
    Some(after.split([' ', ',', '{']).next().unwrap_or(after))
}

/// `<4 x i32> undef, i32 0}` → `uint4`; `i64 undef, i32 1}` → `long`. Floating-point hints
/// (which SPIR-V spells exactly) and anything unexpected give None.
fn spell(body: &str) -> Option<String> {
    let (ty, rest) = body.split_once(" undef, i32 ")?;
    let signed = rest.trim_end_matches('}').trim() == "1";
    let (count, elem) = match ty.strip_prefix('<') {
        Some(v) => {
            let (n, e) = v.trim_end_matches('>').split_once(" x ")?;
            (Some(n.parse::<u32>().ok()?), e)
        }
        None => (None, ty),
    };
    let base = match elem {
        "i8" => "char",
        "i16" => "short",
        "i32" => "int",
        "i64" => "long",
        _ => return None,
    };
    let sign = if signed { "" } else { "u" };
    Some(match count {
        Some(n) => format!("{sign}{base}{n}"),
        None => format!("{sign}{base}"),
    })
}

/// `spv` with one `OpString "gencl.vec_type_hint.<kernel>.<type>"` per hint, placed before
/// the module's first OpString (the debug section's start; llvm-spirv always writes the
/// kernel_arg_type strings), or before the first instruction after the execution modes.
pub fn annotate(spv: &[u8], hints: &HashMap<String, String>) -> Result<Vec<u8>, FrontendError> {
    let mut words = words_of(spv)?;
    if hints.is_empty() {
        return Ok(spv.to_vec());
    }
    let mut at = None;
    let mut offset = 5;
    let mut after_modes = None;
    for i in instructions(&words) {
        let op = i[0] & 0xffff;
        if op == OP_STRING {
            at = Some(offset);
            break;
        }
        if op == OP_EXECUTION_MODE {
            after_modes = Some(offset + i.len());
        }
        offset += i.len();
    }
    let Some(at) = at.or(after_modes) else {
        return Ok(spv.to_vec());
    };
    let mut names: Vec<(&String, &String)> = hints.iter().collect();
    names.sort();
    let mut inserted = Vec::new();
    for (kernel, ty) in names {
        let id = words[3];
        words[3] += 1;
        let mut bytes = format!("{PREFIX}{kernel}.{ty}").into_bytes();
        bytes.push(0);
        bytes.resize(bytes.len().div_ceil(4) * 4, 0);
        let count = 2 + bytes.len() / 4;
        inserted.push(((count as u32) << 16) | OP_STRING);
        inserted.push(id);
        inserted.extend(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
    }
    words.splice(at..at, inserted);
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clangs_metadata_spells_the_sign() {
        let text = "define dso_local spir_kernel void @k1(i32 addrspace(1)* %a) #0 \
                    !kernel_arg_type !5 !vec_type_hint !7 !reqd_work_group_size !8 {\n\
                    define spir_kernel void @\"odd name\"() !vec_type_hint !13 {\n\
                    define spir_kernel void @k3() !vec_type_hint !14 {\n\
                    define spir_kernel void @k4() !vec_type_hint !15 {\n\
                    !7 = !{<4 x i32> undef, i32 0}\n\
                    !13 = !{<16 x i8> undef, i32 1}\n\
                    !14 = !{i64 undef, i32 0}\n\
                    !15 = !{<2 x float> undef, i32 0}\n";
        let hints = from_llvm_text(text);
        assert_eq!(hints.get("k1").map(String::as_str), Some("uint4"));
        assert_eq!(hints.get("odd name").map(String::as_str), Some("char16"));
        assert_eq!(hints.get("k3").map(String::as_str), Some("ulong"));
        assert_eq!(hints.get("k4"), None);
        assert_eq!(hints.len(), 3);
    }
}
