//! Every instruction the JIT emits, held against Intel's IGA: `iga64 -d -p=9`
//! of our bytes must print what our disassembler prints (the normalisation
//! rule of `common::same_line`), and `iga64 -a -p=9` of our text must give
//! our bytes back exactly.

#[path = "../isa/tests/common/mod.rs"]
mod common;

use std::path::Path;

use gencl_isa::gen9::disasm_kernel;
use gencl_jit::{compile, CompileInput};

#[test]
fn jit_output_matches_iga() {
    let dir = common::scratch("jit-iga");
    let kernels = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut count = 0;
    let (mut compacted, mut total) = (0, 0);
    for entry in std::fs::read_dir(kernels).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "cl") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let program = compile(CompileInput::OpenClC(&src), "")
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.log));
        for k in &program.kernels {
            let ours = disasm_kernel(&k.isa).unwrap();
            let theirs = common::iga_disasm(&k.isa, &dir, &k.name);
            let (o, t) = (common::normalise(&ours), common::normalise(&theirs));
            assert_eq!(
                o.len(),
                t.len(),
                "kernel {}: line counts differ\nours:\n{ours}\niga64:\n{theirs}",
                k.name
            );
            for (a, b) in o.iter().zip(&t) {
                assert!(
                    common::same_line(a, b),
                    "kernel {}:\n ours: {a}\niga64: {b}",
                    k.name
                );
            }
            let re = common::iga_asm(&ours, &dir, &k.name)
                .unwrap_or_else(|e| panic!("iga64 -a rejected {}: {e}", k.name));
            assert_eq!(
                k.isa, re,
                "kernel {}: iga64 assembles our text to other bytes",
                k.name
            );
            // Compaction: iga64, left to compact what it can, compacts
            // exactly the instructions we compacted, into the same bytes.
            let plain = common::strip_compacted(&ours);
            let auto = common::iga_asm_with(&plain, &dir, &format!("{}-auto", k.name), true)
                .unwrap_or_else(|e| panic!("iga64 -a -Xautocompact rejected {}: {e}", k.name));
            assert_eq!(
                k.isa, auto,
                "kernel {}: iga64 compacts other instructions than we do",
                k.name
            );
            compacted += ours.matches("Compacted}").count();
            // Flow control (goto, join, while, ...) and the DF math macros (madm, math.invm,
            // math.rsqtm: Align16 with accumulator operands) stay native, as iga64 keeps them.
            let flow = [
                "goto",
                "join",
                "while",
                "if ",
                "else",
                "endif",
                "jmpi",
                "madm",
                "math.invm",
                "math.rsqtm",
            ];
            total += ours
                .lines()
                .filter(|l| l.starts_with(' ') || l.starts_with('('))
                .filter(|l| {
                    !flow
                        .iter()
                        .any(|f| l.contains(&format!(") {f}")) || l.contains(&format!(" {f} (")))
                })
                .count();
            count += 1;
        }
    }
    assert!(count >= 6, "expected the kernel corpus, compiled {count}");
    eprintln!("JIT kernels: {compacted} of {total} instructions other than flow control compacted");
    // A floor that says compaction is on (whether each instruction compacts is held to
    // iga64 -Xautocompact above): DF code compacts less (its moves and regions rarely
    // fit the tables), and so does SIMD16 code (the kernels' width since SIMD16 became the
    // choice: 71 of 410 here, against about a fifth at SIMD8), so the floor is a seventh.
    assert!(
        compacted * 7 >= total,
        "only {compacted} of {total} instructions compacted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
