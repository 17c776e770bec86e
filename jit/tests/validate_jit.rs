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
