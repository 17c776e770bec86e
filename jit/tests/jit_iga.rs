//! Every instruction the JIT emits, held against Intel's IGA: `iga64 -d -p=9`
//! of our bytes must print what our disassembler prints, and `iga64 -a -p=9`
//! of that text must give our bytes back.

use std::path::{Path, PathBuf};
use std::process::Command;

use gencl_jit::isa::gen9::disasm_kernel;
use gencl_jit::{compile, CompileInput};

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
}

fn iga(args: &[&str]) -> std::process::Output {
    Command::new("iga64").args(args).output().expect("iga64 not found: install Debian package libigc-tools")
}

/// Instruction lines only (labels dropped), whitespace collapsed.
fn normalise(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty() && !l.ends_with(':'))
        .collect()
}

#[test]
fn jit_output_matches_iga() {
    let dir = std::env::temp_dir().join(format!("gencl-jit-iga-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut count = 0;
    for entry in std::fs::read_dir(kernels_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "cl") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let program = compile(CompileInput::OpenClC(&src), "").unwrap_or_else(|e| panic!("{}: {}", path.display(), e.log));
        for k in &program.kernels {
            let bin = dir.join(format!("{}.bin", k.name));
            std::fs::write(&bin, &k.isa).unwrap();
            let ours = disasm_kernel(&k.isa).unwrap();
            let out = iga(&["-d", "-p=9", bin.to_str().unwrap()]);
            assert!(out.status.success(), "iga64 -d failed on {}: {}", k.name, String::from_utf8_lossy(&out.stderr));
            let theirs = String::from_utf8_lossy(&out.stdout).into_owned();
            assert_eq!(normalise(&ours), normalise(&theirs), "kernel {}: our disassembly differs from iga64's", k.name);
            // Assemble our text back: the same bytes.
            let asm = dir.join(format!("{}.asm", k.name));
            std::fs::write(&asm, &ours).unwrap();
            let rebuilt = dir.join(format!("{}.re.bin", k.name));
            let out = iga(&["-a", "-p=9", "-Xnoautocompact", asm.to_str().unwrap(), "-o", rebuilt.to_str().unwrap()]);
            assert!(out.status.success(), "iga64 -a failed on {}: {}", k.name, String::from_utf8_lossy(&out.stderr));
            let re = std::fs::read(&rebuilt).unwrap();
            assert_eq!(k.isa, re, "kernel {}: iga64 assembles our text to other bytes", k.name);
            count += 1;
        }
    }
    assert!(count >= 6, "expected the kernel corpus, compiled {count}");
    let _ = std::fs::remove_dir_all(&dir);
}
