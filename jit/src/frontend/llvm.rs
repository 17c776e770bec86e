//! LLVM IR (bitcode or text, LLVM 15) → SPIR-V (the lowest version the module needs: 1.3
//! only for cl_khr_subgroup_shuffle's functions), through `opt-15` and `llvm-spirv-15` run as
//! child processes. OpenCL C arrives here as the unoptimised bitcode clang made (`clc`); users
//! hand in `.ll`/`.bc` through `gencl compile` or as a program binary (the cl_khr_spir way).
//!
//! llvm-spirv-15 translates only part of what LLVM 15's optimiser makes (TOOLCHAIN.md), so the
//! module is legalised first, at the depth where each problem starts:
//! - **Odd-width integers** (i3, i5, ... from switch and bitfield narrowing, "InvalidBitWidth"):
//!   the spir64 data layout names no native integer widths, so InstCombine treats every width as
//!   legal and shrinks switch conditions to i3. `opt` runs with the same layout plus
//!   `n8:16:32:64`, the widths SPIR-V has, and narrows only to those.
//! - **Switch lookup tables**: SimplifyCFG turns switches into tables in the private address
//!   space; clang's `-fno-jump-tables` (set by `clc`) keeps them as branches.
//! - **`freeze`** (no SPIR-V counterpart in this translator: "Can't translate llvm instruction:
//!   freeze"): if any is left after `opt`, each `%x = freeze T %v` becomes `%x = bitcast T %v to
//!   T`. Replacing freeze by its operand is a refinement (a frozen value may be any value, the
//!   operand's included), and the no-op cast is dropped by the translator.
//! - **Vector reductions** (`llvm.vector.reduce.add` and the rest, which the loop and SLP
//!   vectorisers make of a sum over a vector's components; "Unexpected llvm intrinsic"): LLVM's
//!   ExpandReductions pass turns them into shuffles and vector operations, which translate.
//! - **Opaque pointers**: llvm-spirv-15 reads typed pointers only; `clc` asks clang for them
//!   (`-no-opaque-pointers`), and text IR written with `ptr` is refused with that reason.

use std::path::Path;
use std::process::Command;

use super::clc::{run, tool, TempDir};
use super::FrontendError;

/// spir64's data layout (clang-15's) with SPIR-V's integer widths declared native.
const DATA_LAYOUT: &str =
    "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64";

/// How much of LLVM's optimiser runs before translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptLevel {
    /// -cl-opt-disable: no LLVM optimisation at all (opt only verifies and sets the data
    /// layout); the JIT's own mem2reg promotes the variables clang leaves in memory.
    None,
    /// The default: LLVM's -O2 pipeline.
    O2,
}

/// True for LLVM bitcode: the raw magic `BC\xC0\xDE` or the wrapper header `0x0B17C0DE`.
pub fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&0x0B17_C0DEu32.to_le_bytes())
}

/// LLVM IR, text or bitcode, to SPIR-V words.
pub fn to_spirv(ir: &[u8], opt: OptLevel) -> Result<Vec<u8>, FrontendError> {
    let dir = TempDir::new()?;
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.0.join(name);
        std::fs::write(&p, bytes)
            .map_err(|e| FrontendError::Tool(format!("cannot write {}: {e}", p.display())))?;
        Ok::<_, FrontendError>(p)
    };
    let input = if is_bitcode(ir) {
        write("input.bc", ir)?
    } else {
        let text = std::str::from_utf8(ir)
            .map_err(|_| FrontendError::Compile("LLVM IR is neither bitcode nor text".into()))?;
        if text.contains(" ptr ") || text.contains(" ptr,") || text.contains("(ptr") {
            return Err(FrontendError::Compile(
                "LLVM IR with opaque pointers ('ptr'): llvm-spirv-15 reads typed pointers only; \
                 emit it with clang-15 -Xclang -no-opaque-pointers"
                    .into(),
            ));
        }
        write("input.ll", ir)?
    };
    file_to_spirv(&dir, &input, opt)
}

/// opt's command line: `input` optimised at `opt` into `output`.
pub(super) fn opt_command(input: &Path, output: &Path, opt: OptLevel) -> Command {
    let mut cmd = Command::new(tool("opt-15", "GENCL_OPT"));
    cmd.arg(format!("--data-layout={DATA_LAYOUT}"));
    match opt {
        // LLVM's -O2 with the front end's global options (`helper::OPT_GLOBALS`);
        // GENCL_LLVM_PASSES: another pipeline, to try against the bench (docs/user-guide.md).
        OptLevel::O2 => {
            match std::env::var("GENCL_LLVM_PASSES") {
                Ok(p) if !p.is_empty() => cmd.arg(format!("-passes={p}")),
                _ => cmd.arg("-O2"),
            };
            cmd.args(super::helper::OPT_GLOBALS)
        }
        OptLevel::None => cmd.arg("-passes=verify"),
    };
    cmd.arg(input).arg("-o").arg(output);
    cmd
}

/// The file names the steps use in a build's folder: opt's output, the SPIR-V.
pub(super) const OPTIMISED: &str = "opt.bc";
pub(super) const SPIRV: &str = "program.spv";

/// The module at `input` (bitcode or text) optimised and translated, each step its own
/// request or process, with the legalisations the translator asks for.
pub(super) fn file_to_spirv(
    dir: &TempDir,
    input: &Path,
    opt: OptLevel,
) -> Result<Vec<u8>, FrontendError> {
    let optimised = dir.0.join(OPTIMISED);
    let cmd = opt_command(input, &optimised, opt);
    let opt_tool = cmd.get_program().to_string_lossy().into_owned();
    run(cmd, &opt_tool, "opt-15 (Debian package llvm-15)")?;

    let spv = dir.0.join(SPIRV);
    // Each legalisation below runs only when the translator names its construct, at most once.
    let mut module = optimised;
    let (mut thawed, mut expanded, mut nulls, mut promoted) = (false, false, false, false);
    loop {
        match translate(&module, &spv) {
            Err(FrontendError::Compile(log))
                if log.contains("allowed only to generic") && !nulls =>
            {
                module = rewrite(dir, &module, "nulls", null_casts_text)?;
                nulls = true;
            }
            Err(FrontendError::Compile(log)) if log.contains("freeze") && !thawed => {
                module = thaw(dir, &module)?;
                thawed = true;
            }
            Err(FrontendError::Compile(log)) if log.contains("llvm.vector.reduce") && !expanded => {
                module = expand_reductions(dir, &module)?;
                expanded = true;
            }
            // Unoptimised code keeps image and sampler handles in allocas, and the translator
            // aborts on the stores of those opaque pointers ("Inconsistent operand types"):
            // promoted to registers (mem2reg alone: nothing else of -O0 changes), it takes them.
            Err(FrontendError::Compile(log))
                if log.contains("Inconsistent operand types") && !promoted =>
            {
                module = promote(dir, &module)?;
                promoted = true;
            }
            other => break other?,
        }
    }
    let bytes = std::fs::read(&spv)
        .map_err(|e| FrontendError::Tool(format!("cannot read {}: {e}", spv.display())))?;
    if !super::type_hints::has_integer_hint(&bytes) {
        return Ok(bytes);
    }
    let hints = super::type_hints::from_llvm_text(&disassemble(dir, &module)?);
    super::type_hints::annotate(&bytes, &hints)
}

/// LLVM IR text of a bitcode module.
fn disassemble(dir: &TempDir, bc: &Path) -> Result<String, FrontendError> {
    let ll = dir.0.join("module.ll");
    let dis = tool("llvm-dis-15", "GENCL_LLVM_DIS");
    let mut cmd = Command::new(&dis);
    cmd.arg(bc).arg("-o").arg(&ll);
    run(cmd, &dis, "llvm-dis-15 (Debian package llvm-15)")?;
    std::fs::read_to_string(&ll)
        .map_err(|e| FrontendError::Tool(format!("cannot read {}: {e}", ll.display())))
}

/// llvm-spirv's command line: the bitcode at `bc` into SPIR-V at `spv`.
pub(super) fn translate_command(bc: &Path, spv: &Path) -> Command {
    let mut cmd = Command::new(tool("llvm-spirv-15", "GENCL_LLVM_SPIRV"));
    // Odd integer widths (i33 from IndVarSimplify's closed forms, say) that the data layout
    // cannot keep out pass through as SPV_INTEL_arbitrary_precision_integers; the front end
    // carries them in a 32- or 64-bit register (`lower.rs`, "odd-width integers").
    // The source's argument type names and qualifiers, for clGetKernelArgInfo.
    // SPIR-V 1.3 for cl_khr_subgroup_shuffle(_relative), whose functions llvm-spirv writes as
    // OpGroupNonUniformShuffle* (at 1.2 it aborts on them); what else it writes is 1.2's.
    cmd.arg("--spirv-max-version=1.3")
        .arg("--spirv-ext=+SPV_INTEL_arbitrary_precision_integers,+SPV_INTEL_subgroups")
        .arg("--preserve-ocl-kernel-arg-type-metadata-through-string")
        .arg(bc)
        .arg("-o")
        .arg(spv);
    cmd
}

fn translate(bc: &Path, spv: &Path) -> Result<(), FrontendError> {
    let cmd = translate_command(bc, spv);
    let spirv_tool = cmd.get_program().to_string_lossy().into_owned();
    run(
        cmd,
        &spirv_tool,
        "llvm-spirv-15 (Debian package llvm-spirv-15)",
    )
    .map_err(|e| match e {
        FrontendError::Compile(log) if log.contains("InvalidBitWidth") => FrontendError::Compile(
            format!("{log}\nan integer width SPIR-V 1.2 has no type for survived legalisation"),
        ),
        e => e,
    })
}

/// The module with every `llvm.vector.reduce.*` call expanded into shuffles and vector
/// operations by LLVM's own ExpandReductions pass (see the module comment).
fn expand_reductions(dir: &TempDir, bc: &Path) -> Result<std::path::PathBuf, FrontendError> {
    let out = dir.0.join("expanded.bc");
    let opt_tool = tool("opt-15", "GENCL_OPT");
    let mut cmd = Command::new(&opt_tool);
    // ExpandReductions has no new-pass-manager name in LLVM 15.
    cmd.arg("-enable-new-pm=0")
        .arg("-expand-reductions")
        .arg(bc)
        .arg("-o")
        .arg(&out);
    run(cmd, &opt_tool, "opt-15 (Debian package llvm-15)")?;
    Ok(out)
}

/// The module with its allocas promoted to registers (LLVM's mem2reg).
fn promote(dir: &TempDir, bc: &Path) -> Result<std::path::PathBuf, FrontendError> {
    let out = dir.0.join("promoted.bc");
    let opt_tool = tool("opt-15", "GENCL_OPT");
    let mut cmd = Command::new(&opt_tool);
    cmd.arg("-passes=mem2reg").arg(bc).arg("-o").arg(&out);
    run(cmd, &opt_tool, "opt-15 (Debian package llvm-15)")?;
    Ok(out)
}

/// The module with every `freeze` turned into a no-op bitcast (see the module comment).
fn thaw(dir: &TempDir, bc: &Path) -> Result<std::path::PathBuf, FrontendError> {
    rewrite(dir, bc, "thaw", thaw_text)
}

/// The module as text, changed by `edit`, and assembled again.
fn rewrite(
    dir: &TempDir,
    bc: &Path,
    name: &str,
    edit: fn(&str) -> String,
) -> Result<std::path::PathBuf, FrontendError> {
    let text = disassemble(dir, bc)?;
    let ll = dir.0.join(format!("{name}.ll"));
    std::fs::write(&ll, edit(&text))
        .map_err(|e| FrontendError::Tool(format!("cannot write {}: {e}", ll.display())))?;
    let out = dir.0.join(format!("{name}.bc"));
    let asm = tool("llvm-as-15", "GENCL_LLVM_AS");
    let mut cmd = Command::new(&asm);
    cmd.arg(&ll).arg("-o").arg(&out);
    run(cmd, &asm, "llvm-as-15 (Debian package llvm-15)")?;
    Ok(out)
}

/// Every constant `addrspacecast (T addrspace(N)* null to U addrspace(M)*)` → `null`. clang
/// folds a comparison of a global NULL with a generic pointer holding a local NULL into a
/// cast between named spaces, which llvm-spirv refuses ("Casts from private/local/global
/// address space are allowed only to generic"); NULL of any space is the same null
/// pointer, and where the constant stands its type is already written.
pub fn null_casts_text(text: &str) -> String {
    const KEY: &str = "addrspacecast (";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(KEY) {
        out.push_str(&rest[..at]);
        let body = &rest[at + KEY.len()..];
        let mut depth = 1;
        let mut end = None;
        for (k, c) in body.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(k);
                        break;
                    }
                }
                _ => {}
            }
        }
        match end {
            Some(k) if body[..k].contains("* null to ") && !body[..k].contains(KEY) => {
                out.push_str("null");
                rest = &body[k + 1..];
            }
            _ => {
                out.push_str(KEY);
                rest = body;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `%x = freeze T V` → `%x = bitcast T V to T`, line by line.
pub fn thaw_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        out.push_str(&thaw_line(line).unwrap_or_else(|| line.to_string()));
        out.push('\n');
    }
    out
}

fn thaw_line(line: &str) -> Option<String> {
    let (lhs, rhs) = line.split_once(" = freeze ")?;
    if !lhs.trim_start().starts_with('%') {
        return None;
    }
    // Metadata attachments (", !dbg !7") stay after the cast.
    let (operands, meta) = match rhs.find(", !") {
        Some(i) => (&rhs[..i], &rhs[i..]),
        None => (rhs, ""),
    };
    let (ty, value) = operands.trim_end().rsplit_once(' ')?;
    Some(format!("{lhs} = bitcast {ty} {value} to {ty}{meta}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_casts_between_named_spaces_become_null() {
        assert_eq!(
            null_casts_text(
                "  %c = icmp eq i32 addrspace(1)* %g, addrspacecast (i32 addrspace(3)* null to i32 addrspace(1)*)"
            ),
            "  %c = icmp eq i32 addrspace(1)* %g, null"
        );
        // A cast of a non-null constant, and a cast inside another expression's operand.
        let kept = "store i32 addrspace(4)* addrspacecast (i32 addrspace(1)* @g to i32 addrspace(4)*), i32 addrspace(4)** %p";
        assert_eq!(null_casts_text(kept), kept);
        assert_eq!(
            null_casts_text("call void @f(i8 addrspace(1)* bitcast (i32 addrspace(1)* addrspacecast (i32 addrspace(0)* null to i32 addrspace(1)*) to i8 addrspace(1)*))"),
            "call void @f(i8 addrspace(1)* bitcast (i32 addrspace(1)* null to i8 addrspace(1)*))"
        );
    }

    #[test]
    fn freeze_becomes_a_no_op_cast() {
        assert_eq!(
            thaw_line("  %f = freeze i32 %x"),
            Some("  %f = bitcast i32 %x to i32".into())
        );
        assert_eq!(
            thaw_line("  %v.fr = freeze <4 x i32> %v, !dbg !12"),
            Some("  %v.fr = bitcast <4 x i32> %v to <4 x i32>, !dbg !12".into())
        );
        assert_eq!(
            thaw_line("  %p1 = freeze i32 addrspace(1)* %p"),
            Some("  %p1 = bitcast i32 addrspace(1)* %p to i32 addrspace(1)*".into())
        );
        assert_eq!(thaw_line("  %a = add i32 %x, 1"), None);
        assert_eq!(thaw_line("; %a = freeze i32 %x"), None);
    }

    #[test]
    fn bitcode_magic() {
        assert!(is_bitcode(b"BC\xC0\xDE\x35\x14"));
        assert!(is_bitcode(&[0xDE, 0xC0, 0x17, 0x0B, 0, 0]));
        assert!(!is_bitcode(b"; ModuleID"));
    }
}
