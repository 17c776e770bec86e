//! The helper makes what the tools make: every OpenCL C file of the repository's corpora
//! compiled to SPIR-V through gencl-clc and through the clang-15, opt-15 and llvm-spirv-15
//! processes gives the same bytes (but for the per-build scratch folder in `-g`'s file names), and a program with errors the same build log.
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use gencl_jit::frontend::clc::{compile_to_spirv, parse_options};
use gencl_jit::frontend::helper::{chained_builds, current, use_helper};
use gencl_jit::frontend::FrontendError;

/// The helper in use is one per process: the tests take turns.
static TURN: Mutex<()> = Mutex::new(());

fn helper() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_gencl-clc"))
}

/// One compile through the helper at `with` (or through the tools' processes).
fn spirv(src: &str, options: &str, with: Option<PathBuf>) -> Result<Vec<u8>, String> {
    use_helper(with);
    let opts = parse_options(options).unwrap();
    compile_to_spirv(src, &opts).map_err(|e| match e {
        FrontendError::Compile(log) => log,
        e => panic!("not a compile error: {e}"),
    })
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["tests/jit", "tests/kernels", "tests/bench"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cl") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 20, "{} files", files.len());
    files
}

/// A module's instructions, with the build's scratch folder in OpString (`-g`'s file names:
/// `/tmp/gencl-clc-PID-N/program.cl`, numbered per build) written as `<build>`.
fn normalised(spv: &[u8]) -> Vec<Vec<u8>> {
    const OP_STRING: u32 = 7;
    let words: Vec<u32> = spv
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut out = vec![spv[..20].to_vec()];
    let mut at = 5;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        assert!(n > 0 && at + n <= words.len(), "malformed SPIR-V");
        let bytes: Vec<u8> = words[at..at + n]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        if words[at] & 0xffff == OP_STRING {
            let text = String::from_utf8_lossy(&bytes[8..]);
            let text = text.trim_end_matches('\0');
            let scratch = std::env::temp_dir().join("gencl-clc-");
            let text = match text.find(scratch.to_str().unwrap()) {
                Some(i) => {
                    let tail = &text[i..];
                    let end = tail[scratch.as_os_str().len()..]
                        .find('/')
                        .map_or(tail.len(), |e| e + scratch.as_os_str().len());
                    format!("{}<build>{}", &text[..i], &tail[end..])
                }
                None => text.to_string(),
            };
            out.push(text.into_bytes());
        } else {
            out.push(bytes);
        }
        at += n;
    }
    out
}

#[test]
fn corpus_spirv_is_byte_identical() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    // Exit status 3: built without clang's and LLVM's development packages.
    let probe = std::process::Command::new(helper())
        .arg("--probe")
        .output()
        .unwrap();
    assert_ne!(
        probe.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&probe.stderr)
    );
    let mut compared = 0;
    let chained = chained_builds();
    for file in corpus() {
        let src = std::fs::read_to_string(&file).unwrap();
        // OpenCL C 3.0 (generic.cl and groups.cl need 2.0 or later), optimised and not,
        // and with line tables (-g: OpLine and the file's name); N for tests/bench.
        for options in [
            "-cl-std=CL3.0 -D N=8",
            "-cl-std=CL3.0 -D N=8 -cl-opt-disable",
            "-cl-std=CL3.0 -D N=8 -g",
        ] {
            let tools = spirv(&src, options, None);
            let warm = spirv(&src, options, Some(helper()));
            assert_eq!(
                warm.as_deref().map(normalised),
                tools.as_deref().map(normalised),
                "{} [{options}]: the helper's result differs from the tools'",
                file.display()
            );
            assert!(tools.is_ok(), "{}: {:?}", file.display(), tools.err());
            compared += 1;
        }
    }
    // The helper stayed in use: none of these steps made it give up; and each build was
    // one request for its three steps (clang, opt, llvm-spirv on one module in memory), but
    // for the five whose module the translator refuses until it is legalised, which then
    // run step by step: images.cl at -cl-opt-disable (image handles in allocas), integers.cl
    // and vectors.cl optimised, with and without -g (freeze, vector reductions).
    assert_eq!(current(), Some(helper()));
    let stepwise = compared - (chained_builds() - chained);
    assert!(
        stepwise <= 5,
        "{stepwise} of {compared} builds did not run as one request"
    );
    println!("{compared} builds identical");
}

#[test]
fn build_logs_are_identical() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    for (src, options) in [
        ("kernel void k(global int *p) { p[0] = undeclared; }", ""),
        ("kernel void k(global int *p) { int x = 1 }", "-cl-std=CL1.2"),
        ("kernel void k(global int *p) {\n#error stop here\n}", "-D A=1"),
        // A macro of the program that the headers define too (the header's definition wins):
        // the helper's precompiled header is made with it, or clang would refuse the header
        // ("definition of macro differs"); the same bytes either way.
        ("kernel void k(global int *p) { p[0] = CLK_LOCAL_MEM_FENCE; }", "-D CLK_LOCAL_MEM_FENCE=7"),
        ("kernel void k(global int *p) { p[0] = CLK_LOCAL_MEM_FENCE; }", "-cl-std=CL2.0 -D N=1"),
        ("kernel void k(global float *p) { p[0] = (float)(long)p; }\nint f(void);\nkernel void g(global int *q) { q[0] = f(); }", ""),
    ] {
        let tools = spirv(src, options, None);
        let warm = spirv(src, options, Some(helper()));
        assert_eq!(warm, tools, "{src}");
    }
    // The last one compiles (f is only declared): the others' logs name the line.
    let err = spirv(
        "kernel void k(global int *p) { int x = 1 }",
        "",
        Some(helper()),
    )
    .unwrap_err();
    assert!(
        err.contains("program.cl:1:") && err.contains("error: expected ';'"),
        "{err}"
    );
}

#[test]
fn a_helper_that_fails_leaves_the_tools_to_do_the_work() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let src = "kernel void k(global int *p) { p[get_global_id(0)] *= 3; }";
    let tools = spirv(src, "", None).unwrap();
    // A helper that ends at once (as one would on an LLVM fatal error): the build still
    // succeeds through the processes, with the same bytes, and the helper is no longer used.
    assert_eq!(
        spirv(src, "", Some(PathBuf::from("/bin/false"))).unwrap(),
        tools
    );
    assert_eq!(current(), None);
}

/// The helper's precompiled headers are its own: made in a folder of its process and gone
/// with it.
#[test]
fn precompiled_headers_go_with_the_helper() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let folders = || -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n.starts_with("gencl-clc-pch-"))
            })
            .map(|e| e.path())
            .collect();
        v.sort();
        v
    };
    let before = folders();
    // The first build of a set of options parses the headers; the second makes the PCH.
    spirv(
        "kernel void k(global int *p) { p[0] = 1; }",
        "",
        Some(helper()),
    )
    .unwrap();
    assert_eq!(folders(), before, "a PCH made for a single build");
    let opts = parse_options("").unwrap();
    compile_to_spirv("kernel void k(global int *p) { p[0] = 2; }", &opts).unwrap();
    let made: Vec<PathBuf> = folders()
        .into_iter()
        .filter(|f| !before.contains(f))
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    let pch = std::fs::read_dir(&made[0])
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "pch"))
        .count();
    assert_eq!(pch, 1);
    // No helper from now on: the idle one is closed, and ends.
    use_helper(None);
    assert!(!made[0].exists(), "{} left behind", made[0].display());
}

/// A helper killed by a signal on its first request was ended by that input (LLVM
/// aborting on an odd module: images.cl at -cl-opt-disable in the corpus test, whose helper
/// stays in use) and the next request gets a new helper; but one that dies on every first
/// request is given up after three in a row, and the builds run the tools.
#[test]
fn a_helper_that_always_dies_is_given_up() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let src = "kernel void k(global int *p) { p[get_global_id(0)] += 2; }";
    let tools = spirv(src, "", None).unwrap();
    let dir = std::env::temp_dir().join(format!("gencl-clc-abort-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("aborts");
    std::fs::write(&script, "#!/bin/sh\nhead -c 4 > /dev/null\nkill -ABRT $$\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The build's chain request, then its clang and opt steps, each on a new helper.
    assert_eq!(spirv(src, "", Some(script.clone())).unwrap(), tools);
    assert_eq!(current(), None, "still used after three deaths in a row");
    std::fs::remove_dir_all(&dir).unwrap();
}
