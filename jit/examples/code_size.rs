//! Code size of the JIT's kernels with and without instruction compaction.
//!
//! `cargo run -p gencl-jit --example code_size -- [--dump] FILE.cl...`
//! prints, per kernel and in total, the native and compacted byte counts and
//! the fraction of instructions compacted; `--dump` also prints the
//! compacted disassembly. Files our front end rejects are reported and
//! skipped.

use gencl_isa::gen9::disasm_kernel;
use gencl_jit::{compile, CompileInput};

/// Bytes and instruction counts (total, compacted) of one heap.
fn count(isa: &[u8]) -> (usize, usize) {
    let (mut n, mut c, mut o) = (0, 0, 0);
    while o < isa.len() {
        // CmptCtrl (bit 29) marks an 8-byte instruction.
        let len = if isa[o + 3] & 0x20 != 0 { 8 } else { 16 };
        n += 1;
        c += (len == 8) as usize;
        o += len;
    }
    (n, c)
}

fn build(src: &str, compact: bool) -> Result<Vec<(String, Vec<u8>)>, String> {
    // The JIT reads this switch once per compile.
    if compact {
        std::env::remove_var("GENCL_NO_COMPACT");
    } else {
        std::env::set_var("GENCL_NO_COMPACT", "1");
    }
    let p = compile(CompileInput::OpenClC(src), "").map_err(|e| e.log)?;
    Ok(p.kernels.into_iter().map(|k| (k.name, k.isa)).collect())
}

fn main() {
    let mut dump = false;
    let (mut native_total, mut compact_total, mut insts, mut compacted) = (0, 0, 0, 0);
    for arg in std::env::args().skip(1) {
        if arg == "--dump" {
            dump = true;
            continue;
        }
        let src = std::fs::read_to_string(&arg).unwrap_or_else(|e| panic!("{arg}: {e}"));
        let (native, small) = match (build(&src, false), build(&src, true)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                println!("{arg}: skipped ({})", e.lines().next().unwrap_or(""));
                continue;
            }
        };
        for ((name, a), (_, b)) in native.iter().zip(&small) {
            let (n, c) = count(b);
            println!(
                "{arg} {name}: {} -> {} bytes, {c}/{n} compacted",
                a.len(),
                b.len()
            );
            if dump {
                print!("{}", disasm_kernel(b).unwrap_or_else(|e| e.to_string()));
            }
            native_total += a.len();
            compact_total += b.len();
            insts += n;
            compacted += c;
        }
    }
    println!(
        "total: {native_total} -> {compact_total} bytes ({:.1}% smaller), {compacted}/{insts} instructions compacted ({:.1}%)",
        100.0 * (native_total - compact_total) as f64 / native_total.max(1) as f64,
        100.0 * compacted as f64 / insts.max(1) as f64
    );
}
