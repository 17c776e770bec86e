//! The `gencl` tool as a process: what it links and how it exits. It starts at a C `main`
//! (not std's runtime start-up) and links libc alone (no libgcc_s, no libm), for its start-up
//! time (docs/jit.md, "Compile speed"); these tests hold both decisions to what a user sees.

use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn gencl(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gencl"))
        .current_dir(ROOT)
        .args(args)
        .output()
        .expect("run gencl")
}

#[test]
fn the_tool_needs_libc_alone() {
    let out = Command::new("readelf")
        .args(["-d", env!("CARGO_BIN_EXE_gencl")])
        .output()
        .expect("readelf (binutils)");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut needed: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| l.split('[').nth(1)?.strip_suffix(']'))
        .collect();
    needed.sort();
    assert_eq!(needed, ["ld-linux-x86-64.so.2", "libc.so.6"], "{text}");
}

#[test]
fn a_compile_prints_its_report_and_exits_zero() {
    let dir = std::env::temp_dir().join(format!("gencl-tool-{}", std::process::id()));
    let out = gencl(&[
        "compile",
        "tests/kernels/vadd.cl",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // Written through a pipe: what the tool prints reaches it before the process ends.
    assert!(
        stdout.starts_with("kernel 'vadd': SIMD8, ") && stdout.ends_with("vadd.bin\n"),
        "{stdout}"
    );
    let bin = std::fs::read(dir.join("vadd.bin")).unwrap();
    assert!(!bin.is_empty() && bin.len().is_multiple_of(8));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_exit_one_and_usage_errors_two() {
    let out = gencl(&["compile", "tests/kernels/no-such-kernel.cl"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("gencl: tests/kernels/no-such-kernel.cl: "),
        "{stderr}"
    );
    // clap's own exit for a command line it cannot parse.
    let out = gencl(&["no-such-command"]);
    assert_eq!(out.status.code(), Some(2));
}
