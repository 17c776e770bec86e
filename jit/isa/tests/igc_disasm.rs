//! Holds gencl's Gen9 disassembler to Intel's iga64 on the whole IGC corpus:
//! every kernel ocloc builds from tests/igc/*.cl must disassemble, line for
//! line, exactly as `iga64 -d -p=9` prints the same heap.

mod common;

use gencl_isa::gen9::disasm_kernel;

/// The corpus is meant to hold at least this many kernels over all categories.
const MIN_KERNELS: usize = 100;

/// The differing lines of one kernel (ours vs iga64), or `None` if equal.
fn compare(name: &str, heap: &[u8], dir: &std::path::Path) -> Option<String> {
    let file_tag = name.replace('/', "-");
    let ours = match disasm_kernel(heap) {
        Ok(t) => t,
        Err(e) => return Some(format!("{name}: decode error: {e}")),
    };
    let theirs = common::iga_disasm(heap, dir, &file_tag);
    let (o, t) = (common::normalise(&ours), common::normalise(&theirs));
    let bad: Vec<String> = o
        .iter()
        .zip(t.iter())
        .filter(|(a, b)| !common::same_line(a, b))
        .take(6)
        .map(|(a, b)| format!("  ours: {a}\n  iga : {b}"))
        .collect();
    if bad.is_empty() && o.len() == t.len() {
        return None;
    }
    Some(format!(
        "{name}: {} vs {} lines\n{}",
        o.len(),
        t.len(),
        bad.join("\n")
    ))
}

#[test]
fn igc_corpus_disassembles_like_iga() {
    let dir = common::scratch("igc-disasm");
    let kernels = common::igc_corpus(&dir);
    let total = kernels.len();
    let mut failures = Vec::new();
    for (name, heap) in &kernels {
        if let Some(f) = compare(name, heap, &dir) {
            failures.push(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} kernels disassemble differently from iga64:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        total >= MIN_KERNELS,
        "the IGC corpus has {total} kernels, fewer than {MIN_KERNELS}"
    );
}
