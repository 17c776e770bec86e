//! Computes the compiler's identity: a hash of every source file of the compiler and of the
//! kernel ABI it emits for. Program binaries carry it, so a binary made by another build of the
//! compiler is refused (CL_INVALID_BINARY) instead of run with a descriptor it may not match.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut all = Vec::new();
    // The compiler and the ISA crate it encodes with (jit/isa).
    for d in ["src", "isa/src"] {
        let dir = root.join(d);
        println!("cargo:rerun-if-changed={}", dir.display());
        files(&dir, &mut all);
    }
    all.sort();
    // FNV-1a over (relative path, contents): stable across machines and checkouts.
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in &all {
        let rel = p
            .strip_prefix(&root)
            .unwrap_or(p)
            .to_string_lossy()
            .into_owned();
        let body = std::fs::read(p).unwrap_or_default();
        for b in rel.as_bytes().iter().chain([0u8].iter()).chain(body.iter()) {
            h = (h ^ *b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=GENCL_COMPILER_ID={h:016x}");
}
