//! `cargo run --release -p gencl --example bench [-- --short] [-- --only NAME]`
//!
//! gencl's machine code against IGC's (`ocloc compile -device skl`) on the GPU model, kernel
//! by kernel, over `tests/bench/corpus/*.cl` (docs/benchmarks/README.md). Prints the table and
//! writes docs/benchmarks/results.md, cycles-ratio.svg and compile-time.svg (not with --only or
//! --short, which print only). Exits 1 when a kernel failed to build or its results on
//! either binary differ from the CPU reference.
#[path = "../tests/bench/mod.rs"]
mod bench;

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `--compile-one FILE`: gencl's JIT on one file in this process, for its time and peak
    // memory as a process (the bench runs itself this way).
    if let [flag, file] = args.as_slice() {
        if flag == "--compile-one" {
            let src = match std::fs::read_to_string(file) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{file}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            return match gencl_jit::compile::compile_each(
                gencl_jit::CompileInput::OpenClC(&src),
                bench::OPTIONS,
            ) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{file}: {}", e.log);
                    ExitCode::FAILURE
                }
            };
        }
    }
    let mut mode = bench::Mode {
        short: std::env::var_os("GENCL_BENCH_SHORT").is_some(),
        ..Default::default()
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--short" => mode.short = true,
            "--only" => mode.only = it.next().cloned(),
            other => {
                eprintln!("usage: bench [--short] [--only NAME]; unknown argument {other}");
                return ExitCode::FAILURE;
            }
        }
    }
    mode.self_exe = std::env::current_exe().ok();
    let report = bench::run_bench(&mode);
    let md = report.markdown();
    println!("{md}");
    if !mode.short && mode.only.is_none() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks");
        let written = std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(dir.join("results.md"), &md))
            .and_then(|()| std::fs::write(dir.join("cycles-ratio.svg"), report.svg()))
            .and_then(|()| std::fs::write(dir.join("compile-time.svg"), report.compile_svg()));
        if let Err(e) = written {
            eprintln!("writing {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        eprintln!(
            "wrote {}, cycles-ratio.svg and compile-time.svg",
            dir.join("results.md").display()
        );
    }
    if report.failures().is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("{} kernels failed", report.failures().len());
        ExitCode::FAILURE
    }
}
