//! Every kernel the JIT builds from tests/kernels/*.cl obeys the Gen9
//! legality rules (gencl_isa::gen9::validate), checked on the final bytes.

use std::path::Path;

use gencl_isa::gen9::validate::validate_kernel;
use gencl_jit::{compile, CompileInput};

#[test]
fn jit_kernels_are_legal() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    paths.sort();
    let mut count = 0;
    let mut failures = Vec::new();
    for path in &paths {
        let src = std::fs::read_to_string(path).unwrap();
        let program = compile(CompileInput::OpenClC(&src), "")
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.log));
        for k in &program.kernels {
            count += 1;
            if let Err(e) = validate_kernel(&k.isa) {
                failures.push(format!("{}/{}: {e}", path.display(), k.name));
            }
        }
    }
    eprintln!("validated {count} JIT kernels");
    assert!(count > 0, "no kernels in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The corpus kernel written to need more registers than Gen9 has spills (at -O2 and with
/// -cl-opt-disable), and its spill code is legal: scratch block messages with the r0 header,
/// NoMask, and scratch sized for the HWords used. The results are checked on the GPU model by
/// driver/tests/gencl_corpus.rs ("pressure").
#[test]
fn register_pressure_spills_legally() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/jit/vectors.cl");
    let src = std::fs::read_to_string(&path).unwrap();
    for options in ["", "-cl-opt-disable"] {
        let program = compile(CompileInput::OpenClC(&src), options)
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.log));
        let k = program
            .kernels
            .iter()
            .find(|k| k.name == "pressure")
            .expect("the pressure kernel");
        assert!(
            k.scratch_bytes > 0 && k.scratch_bytes % 32 == 0,
            "{options:?}: {} bytes spilled",
            k.scratch_bytes
        );
        assert!(k.scratch_per_thread.is_power_of_two() && k.scratch_per_thread >= 1024);
        assert!(k.scratch_per_thread >= k.scratch_bytes);
        validate_kernel(&k.isa).unwrap_or_else(|e| panic!("{options:?}: {e}"));
        let text = gencl_isa::gen9::disasm_kernel(&k.isa).unwrap();
        assert!(
            text.contains("scratch"),
            "{options:?}: no scratch message in the disassembly"
        );
    }
}
