//! gencl's own kernel corpus: tests/jit/*.cl compiled by gencl's JIT at -O2 and with
//! -cl-opt-disable, each case run on the emulated Gen9 through the submitter and held
//! to its CPU reference (the IGC corpus's harness). Every kernel must also pass the
//! ISA legality validator.
#[allow(dead_code)]
mod igc;
mod jit_corpus;

use std::path::Path;

use gencl_jit::compile::{compile_each, compile_program_each};
use gencl_jit::CompileInput;

fn run_all(options: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/jit");
    let mut kernels = std::collections::HashMap::new();
    let mut globals = std::collections::HashMap::new();
    for file in jit_corpus::FILES {
        let src = std::fs::read_to_string(dir.join(file)).unwrap();
        let opts = format!("{options} {}", jit_corpus::options_of(file));
        let (each, program_globals) = compile_program_each(CompileInput::OpenClC(&src), &opts)
            .unwrap_or_else(|e| panic!("{file} {options}: {}", e.log));
        for (name, k) in each {
            kernels.insert((*file, name), k);
        }
        globals.insert(*file, program_globals);
    }
    let mut failures = Vec::new();
    let cases = jit_corpus::all();
    for c in &cases {
        let r = match kernels.get(&(c.file, c.kernel.to_string())) {
            None => Err("no such kernel".to_string()),
            Some(Err(e)) => Err(format!("build: {e}")),
            Some(Ok(k)) => {
                if let Err(e) = gencl_jit::isa::gen9::validate::validate_kernel(&k.isa) {
                    Err(format!("illegal code: {e}"))
                } else {
                    match igc::run::Gpu::new().run_with_globals(k, &globals[c.file], c) {
                        Err(e) => Err(format!("launch: {e}")),
                        Ok((run, _)) => {
                            let errs: Vec<String> =
                                c.checks.iter().filter_map(|f| f(&run).err()).collect();
                            if errs.is_empty() {
                                Ok(())
                            } else {
                                Err(errs.join("; "))
                            }
                        }
                    }
                }
            }
        };
        if let Err(e) = r {
            failures.push(format!("{}:{} [{options}]: {e}", c.file, c.kernel));
        }
    }
    println!(
        "{} cases with options '{options}': {} failed",
        cases.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_at_o2() {
    run_all("");
}

#[test]
fn corpus_with_opt_disable() {
    run_all("-cl-opt-disable");
}

/// The whole corpus again with every kernel built at SIMD8 (GENCL_SIMD=8, read once per
/// process, so in a child process of this test binary): the same references, with the
/// sub-group size the kernels then have.
#[test]
fn corpus_at_simd8() {
    if std::env::var_os("GENCL_SIMD").is_some() {
        return;
    }
    for test in ["corpus_at_o2", "corpus_with_opt_disable"] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([test, "--exact", "--nocapture", "--test-threads=1"])
            .env("GENCL_SIMD", "8")
            .output()
            .expect("run the corpus in a child process");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("1 passed"),
            "{test} at SIMD8:\n{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// tests/llvm/exit_phi.ll: lanes leave a loop at different iterations through a latch that
/// branches to the header first; the exit block's phi of the header's (uniform) phi must
/// read each lane's own iteration, not the value the back edge's scalar copy writes.
#[test]
fn an_exit_phi_reads_the_iteration_its_lane_left_at() {
    use igc::harness::{case, expect_eq};
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/llvm/exit_phi.ll");
    let ir = std::fs::read(ll).unwrap();
    for opts in ["-cl-opt-disable", ""] {
        let each = compile_each(CompileInput::LlvmIr(&ir), opts).unwrap();
        let k = each[0].1.as_ref().unwrap_or_else(|e| panic!("{opts}: {e}"));
        // x[k] = k - 1: lane g leaves when x[i + 1] >= g, at i = g (x never holds g + 1000).
        let c = case("exit_phi.ll", "exit_phi")
            .global(&[64])
            .buf((0..128).map(|k| k - 1).collect::<Vec<i32>>())
            .out::<i32>(64);
        let (run, _) = igc::run::Gpu::new().run(k, &c).unwrap();
        let want: Vec<i32> = (0..64).collect();
        expect_eq(&run.output::<i32>(1), &want).unwrap_or_else(|e| panic!("{opts}: {e}"));
    }
}

/// Flow that is not reducible is a build error that says so, never wrong code.
#[test]
fn irreducible_flow_is_a_build_error() {
    let src = r#"
kernel void irreducible(global int *out, int n) {
    int i = get_global_id(0);
    int a = out[i];
    if (a & 1) goto second;
first:
    a = a * 3 + 1;
second:
    a = a / 2;
    if (a > n) goto first;
    out[i] = a;
}
"#;
    for opts in ["", "-cl-opt-disable"] {
        let ks = compile_each(CompileInput::OpenClC(src), opts)
            .expect("the program builds up to the JIT");
        let (_, k) = &ks[0];
        let e = k
            .as_ref()
            .err()
            .unwrap_or_else(|| panic!("irreducible flow compiled [{opts}]"));
        assert!(e.contains("irreducible control flow"), "[{opts}] {e}");
    }
}

/// A successful build's log names each kernel's SIMD width, registers, spills and size.
#[test]
fn build_log_reports_each_kernel() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/jit");
    let src = std::fs::read_to_string(dir.join("control.cl")).unwrap();
    let p = gencl_jit::compile(CompileInput::OpenClC(&src), "").expect("control.cl builds");
    assert_eq!(
        p.build_log.lines().count(),
        p.kernels.len(),
        "{}",
        p.build_log
    );
    for k in &p.kernels {
        let line = p
            .build_log
            .lines()
            .find(|l| l.starts_with(&format!("kernel '{}':", k.name)))
            .unwrap_or_else(|| panic!("no line for {}: {}", k.name, p.build_log));
        // SIMD32 or SIMD16 (`analysis::simd32`), the widths chosen for kernels that do not
        // spill there, unless the corpus runs at SIMD8 (`corpus_at_simd8`); the log names
        // the kernel's own.
        if std::env::var("GENCL_SIMD").as_deref() == Ok("8") {
            assert_eq!(k.simd, 8, "{line}");
        } else {
            assert!(matches!(k.simd, 16 | 32), "{line}");
        }
        assert!(line.contains(&format!("SIMD{}, ", k.simd)), "{line}");
        assert!(k.grfs_used > 4 && k.grfs_used < 128, "{line}");
        assert!(
            line.contains(&format!("{} GRFs used", k.grfs_used)),
            "{line}"
        );
        assert!(line.contains("0 bytes spilled"), "{line}");
        assert!(
            line.ends_with(&format!("({} bytes)", k.isa.len())),
            "{line}"
        );
    }
}

/// -cl-denorms-are-zero flushes float denormals (cr0's FP32 denorm mode) and leaves
/// doubles' alone; without it both are kept. Checked on the GPU model against Rust's own
/// arithmetic, with products that land in the float denormal range.
#[test]
fn denorms_are_zero_flushes_float_denormals_only() {
    use igc::harness::*;
    let src = r#"
kernel void dz(global const float *a, global const float *b, global float *out,
               global const double *c, global double *dout) {
    size_t i = get_global_id(0);
    out[i] = a[i] * b[i];
    dout[i] = c[i] * 0.5;
}
"#;
    let a: Vec<f32> = (0..64).map(|i| 1.0e-20 * (1.0 + i as f32)).collect();
    let b: Vec<f32> = (0..64)
        .map(|i| if i % 2 == 0 { 1.0e-20 } else { 1.0e3 })
        .collect();
    let c: Vec<f64> = (0..64)
        .map(|i| f64::MIN_POSITIVE * (1.0 + i as f64))
        .collect();
    for (opts, flush) in [("", false), ("-cl-denorms-are-zero", true)] {
        let ks = compile_each(CompileInput::OpenClC(src), opts).expect("builds");
        let k = ks[0].1.as_ref().expect("dz compiles");
        let case = case("inline", "dz")
            .global(&[64])
            .buf(a.clone())
            .buf(b.clone())
            .out::<f32>(64)
            .buf(c.clone())
            .out::<f64>(64);
        let (run, _) = igc::run::Gpu::new().run(k, &case).expect("runs");
        let want: Vec<u32> = a
            .iter()
            .zip(&b)
            .map(|(x, y)| {
                let p = x * y;
                if flush && p.is_subnormal() {
                    (0.0f32).copysign(p).to_bits()
                } else {
                    p.to_bits()
                }
            })
            .collect();
        let got: Vec<u32> = run.output::<f32>(2).iter().map(|f| f.to_bits()).collect();
        assert_eq!(got, want, "[{opts}]");
        assert!(want.iter().any(|&w| f32::from_bits(w).is_subnormal()) != flush);
        let dwant: Vec<f64> = c.iter().map(|x| x * 0.5).collect();
        assert_eq!(
            run.output::<f64>(4),
            dwant,
            "[{opts}] doubles keep their denormals"
        );
    }
}
