//! The OpenCL C / LLVM → SPIR-V pipeline (`frontend::clc`, `frontend::llvm`) on the kernels that
//! broke the plain clang-15 + llvm-spirv-15 pair (TOOLCHAIN.md): each one now gives SPIR-V that
//! Khronos' validator (`spirv-val`, a tool this project did not write) accepts, at -O2 and with
//! -cl-opt-disable. The plain pipeline's failure is shown alongside, so that a test fails if a
//! case stops exercising the problem it is here for.

use gencl_jit::frontend::{clc, llvm};
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("gencl-pipeline-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn spirv_val(spv: &[u8], tag: &str) {
    let p = scratch().join(format!("{tag}.spv"));
    std::fs::write(&p, spv).unwrap();
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.0"])
        .arg(&p)
        .output()
        .expect("spirv-val (Debian package spirv-tools)");
    assert!(
        out.status.success(),
        "{tag}: spirv-val: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What the plain pipeline says: clang-15 -O2 (opaque pointers) then llvm-spirv-15.
fn plain_pipeline_error(src: &str, tag: &str) -> String {
    let dir = scratch();
    let cl = dir.join(format!("{tag}.cl"));
    let bc = dir.join(format!("{tag}.bc"));
    std::fs::write(&cl, src).unwrap();
    let clang = Command::new("clang-15")
        .args(["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0"])
        .args([
            "-finclude-default-header",
            "-fdeclare-opencl-builtins",
            "-O2",
        ])
        .arg("-emit-llvm-bc")
        .arg(&cl)
        .arg("-o")
        .arg(&bc)
        .output()
        .unwrap();
    assert!(clang.status.success());
    let out = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(dir.join(format!("{tag}.spv")))
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "{tag}: the plain pipeline translated it"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const SWITCH: &str = "kernel void sw(global int *a) {
    size_t i = get_global_id(0);
    int r;
    switch (a[i] & 7) {
    case 0: r = 10; break; case 1: r = 3; break; case 2: r = 7; break;
    case 3: r = 1; break; case 5: r = 2; break; default: r = -1;
    }
    a[i] = r;
}";

const VLOAD3: &str = "kernel void v3(global float *a, global float *o) {
    size_t i = get_global_id(0);
    float3 v = vload3(i, a);
    o[i] = v.x + v.y + v.z;
}";

const ATOMIC: &str = "kernel void at(global int *c) { atomic_inc(c); }";

fn both_levels(src: &str, tag: &str) {
    for opts in ["", "-cl-opt-disable"] {
        let o = clc::parse_options(opts).unwrap();
        let spv =
            clc::compile_to_spirv(src, &o).unwrap_or_else(|e| panic!("{tag} with '{opts}': {e}"));
        spirv_val(&spv, &format!("{tag}{opts}"));
    }
}

/// -O2 narrows `switch (x & 7)` to an i3 switch: "InvalidBitWidth". With SPIR-V's integer
/// widths in the data layout it stays i32.
#[test]
fn a_switch_is_not_narrowed_to_odd_widths() {
    let err = plain_pipeline_error(SWITCH, "sw");
    assert!(err.contains("InvalidBitWidth"), "{err}");
    both_levels(SWITCH, "sw");
}

/// vload3 and atomics on opaque pointers abort llvm-spirv-15; typed pointers translate.
#[test]
fn vload3_and_atomics_translate_with_typed_pointers() {
    for (src, tag) in [(VLOAD3, "v3"), (ATOMIC, "at")] {
        let err = plain_pipeline_error(src, tag);
        assert!(err.contains("opaque pointer"), "{tag}: {err}");
        both_levels(src, tag);
    }
}

/// `freeze` in LLVM IR handed in by the user (`gencl compile k.ll`, or bitcode as a program
/// binary) is thawed into a no-op cast and translates.
#[test]
fn freeze_in_llvm_ir_translates() {
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/llvm/freeze.ll");
    let text = std::fs::read(&ll).unwrap();
    // The plain translator refuses it.
    let dir = scratch();
    let bc = dir.join("freeze.bc");
    let asm = Command::new("llvm-as-15")
        .arg(&ll)
        .arg("-o")
        .arg(&bc)
        .output()
        .unwrap();
    assert!(asm.status.success());
    let out = Command::new("llvm-spirv-15")
        .arg(&bc)
        .arg("-o")
        .arg(dir.join("plain.spv"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("freeze"));
    // Both as text and as bitcode, with and without the optimiser (opt -O2 alone may already
    // remove the freezes of this module; the unoptimised path must thaw them).
    let bitcode = std::fs::read(&bc).unwrap();
    assert!(llvm::is_bitcode(&bitcode));
    for (ir, tag) in [(&text, "ll"), (&bitcode, "bc")] {
        for level in [llvm::OptLevel::None, llvm::OptLevel::O2] {
            let spv = llvm::to_spirv(ir, level).unwrap_or_else(|e| panic!("{tag} {level:?}: {e}"));
            spirv_val(&spv, &format!("freeze-{tag}-{level:?}"));
        }
    }
}

/// Text IR with opaque pointers gets an error that says what to do, not the translator's abort.
#[test]
fn opaque_pointer_text_ir_is_refused_with_the_reason() {
    let ir = b"define spir_kernel void @k(ptr addrspace(1) %p) {\n  ret void\n}\n";
    let e = llvm::to_spirv(ir, llvm::OptLevel::O2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("-no-opaque-pointers"), "{e}");
}

/// Every OpenCL C version the device lists builds a kernel that uses doubles, and the
/// extension macros and 3.0 feature macros agree with what the device reports (clang refuses
/// `cl_khr_fp64` without `__opencl_c_fp64` under CL3.0; the OpenCL-CTS compiles with
/// -cl-std=CL3.0), __IMAGE_SUPPORT__ with them (the device reports images).
#[test]
fn every_language_version_builds_with_the_reported_extensions() {
    let src = "#ifndef cl_khr_fp64\n#error no cl_khr_fp64\n#endif\n\
               #if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_fp64)\n#error no fp64 feature\n#endif\n\
               #ifndef __IMAGE_SUPPORT__\n#error no __IMAGE_SUPPORT__\n#endif\n\
               kernel void k(global double *a) { a[0] = sqrt(a[1]); }";
    for std in ["", "-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"] {
        gencl_jit::compile(gencl_jit::CompileInput::OpenClC(src), std)
            .unwrap_or_else(|e| panic!("[{std}] {}", e.log));
    }
}

/// CL_KERNEL_ATTRIBUTES spells `vec_type_hint` as the source did, the sign of an integer
/// component included (SPIR-V's VecTypeHint operand has none; `frontend::type_hints`), next to
/// the work-group attributes; at -O2 and with -cl-opt-disable.
#[test]
fn kernel_attributes_keep_the_sources_spelling() {
    let src = "__kernel __attribute__((vec_type_hint(uint4))) \
                 __attribute__((reqd_work_group_size(1,2,3))) void k1(__global int *a) { a[0] = 1; }\n\
               __kernel __attribute__((vec_type_hint(char16))) void k2(__global int *a) { a[0] = 2; }\n\
               __kernel __attribute__((vec_type_hint(ulong))) void k3(__global int *a) { a[0] = 3; }\n\
               __kernel __attribute__((vec_type_hint(float8))) \
                 __attribute__((work_group_size_hint(4,1,1))) void k4(__global int *a) { a[0] = 4; }\n";
    for opts in ["", "-cl-opt-disable"] {
        let p = gencl_jit::compile(gencl_jit::CompileInput::OpenClC(src), opts)
            .unwrap_or_else(|e| panic!("[{opts}] {}", e.log));
        let attrs = |name: &str| {
            let k = p.kernels.iter().find(|k| k.name == name).expect(name);
            let mut a: Vec<&str> = k.attributes.split(' ').collect();
            a.sort();
            a.join(" ")
        };
        assert_eq!(
            attrs("k1"),
            "reqd_work_group_size(1,2,3) vec_type_hint(uint4)",
            "[{opts}]"
        );
        assert_eq!(attrs("k2"), "vec_type_hint(char16)", "[{opts}]");
        assert_eq!(attrs("k3"), "vec_type_hint(ulong)", "[{opts}]");
        assert_eq!(
            attrs("k4"),
            "vec_type_hint(float8) work_group_size_hint(4,1,1)",
            "[{opts}]"
        );
    }
}

/// The JIT's errors name the source line, as clang's do: a failed OpenCL C build is retried
/// with line tables (`compile::with_source_lines`), and the front end reads OpLine.
#[test]
fn jit_errors_name_the_source_line() {
    let cases = [
        (
            "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n\
             kernel void k(global int *a) {\n    a[0] = fib(a[1]);\n}\n",
            "program.cl:1:",
            "recursion ('fib' calls 'fib')",
        ),
        (
            "kernel void k(global int *a, int n) {\n    int i = a[1];\n    if (n > 3) goto inside;\n\
             \x20   while (i < 100) {\n        i += 3;\ninside:\n        i *= 2;\n    }\n    a[0] = i;\n}\n",
            "program.cl:",
            "irreducible control flow",
        ),
        (
            "kernel void k(global int *a) {\n    int x = a[0];\n    a[1] = x;\n    printf(a[2] ? \"a\" : \"b\");\n}\n",
            "program.cl:4:5: unsupported: printf whose format is not a literal",
            "",
        ),
    ];
    for (src, at, what) in cases {
        for opts in ["", "-cl-opt-disable", "-g"] {
            let log = gencl_jit::compile(gencl_jit::CompileInput::OpenClC(src), opts)
                .map(|_| "built".to_string())
                .unwrap_or_else(|e| e.log);
            assert!(log.contains(at) && log.contains(what), "[{opts}] {log}");
        }
    }
}

/// `-g` puts line tables (and llvm-spirv's OpenCL.DebugInfo.100 instructions, which the loader
/// drops) into the SPIR-V; the machine code is the same as without.
#[test]
fn debug_info_changes_no_machine_code() {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/jit/args.cl"),
    )
    .unwrap();
    let plain = gencl_jit::compile(gencl_jit::CompileInput::OpenClC(&src), "").unwrap();
    let debug = gencl_jit::compile(gencl_jit::CompileInput::OpenClC(&src), "-g").unwrap();
    assert_eq!(plain.kernels.len(), debug.kernels.len());
    for (a, b) in plain.kernels.iter().zip(&debug.kernels) {
        assert_eq!(a.name, b.name);
        assert!(a.isa == b.isa, "kernel {}: -g changed the code", a.name);
    }
}
