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
        stdout.starts_with("kernel 'vadd': SIMD32, ") && stdout.ends_with("vadd.bin\n"),
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

/// The commands of one section of a `gencl decode` listing, without their addresses.
fn commands(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter_map(|l| l.trim().split_once(": ").map(|(_, c)| c.to_string()))
        .collect()
}

#[test]
fn gencl_batches_record_replay_and_decode_beside_neos() {
    // The same kernel as NEO's recording tests/neo/local_reduce (SLM and barriers).
    let dir = std::env::temp_dir().join(format!("gencl-aub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join("red.cl");
    std::fs::write(
        &cl,
        "kernel void red(global const int *in, global int *out, local int *tmp) {\
         size_t l = get_local_id(0); tmp[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\
         for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) { if (l < s) tmp[l] += tmp[l + s];\
         barrier(CLK_LOCAL_MEM_FENCE); } if (l == 0) out[get_group_id(0)] = tmp[0]; }",
    )
    .unwrap();
    let aub = dir.join("gencl.aub");
    let out = Command::new(env!("CARGO_BIN_EXE_gencl"))
        .env("GENCL_AUB", &aub)
        .args(["profile", cl.to_str().unwrap(), "--kernel", "red"])
        .args([
            "--global",
            "4096",
            "--local",
            "256",
            "--local-bytes",
            "1024",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // gencl's own recording replays on the model without a GPU error (strict rules on):
    // 4,096 work-items in SIMD16 threads.
    let replay = gencl(&["replay", aub.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&replay.stdout);
    assert_eq!(replay.status.code(), Some(0), "{text}");
    assert!(text.contains("256 threads"), "{text}");

    let decode = gencl(&[
        "decode",
        "tests/neo/local_reduce.aub.zst",
        aub.to_str().unwrap(),
    ]);
    assert!(decode.status.success());
    let text = String::from_utf8_lossy(&decode.stdout).into_owned();
    let mut sections = text.split("== ").skip(1);
    let (neo, ours) = (
        commands(sections.next().unwrap()),
        commands(sections.next().unwrap()),
    );
    // Where gencl adopted NEO's programming (docs/hardware.md), the commands are equal.
    for adopted in [
        "PIPELINE_SELECT",
        "MI_LOAD_REGISTER_IMM DEBUG_CONTROL_REG2",
        "MI_LOAD_REGISTER_IMM L3CNTLREG",
    ] {
        let pick = |c: &[String]| -> Vec<String> {
            c.iter()
                .filter(|l| l.starts_with(adopted))
                .cloned()
                .collect()
        };
        assert_eq!(pick(&neo), pick(&ours), "{adopted}");
        assert!(!pick(&ours).is_empty(), "{adopted} in gencl's batch");
    }
    assert!(ours
        .iter()
        .any(|c| c == "MI_LOAD_REGISTER_IMM L3CNTLREG(0x7034)=0x60000321"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selftest_passes_on_the_emulated_device_and_through_the_drm_shim() {
    let run = |env: &[(&str, &str)]| {
        let out = Command::new(env!("CARGO_BIN_EXE_gencl"))
            .arg("selftest")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = run(&[("GENCL_DEVICE", "emulated")]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.starts_with(
            "device: emulated Gen9 Skylake GT2 (0x1912): Skylake GT2 (0x1912), 24 EUs\n"
        ),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("pass ")).count(),
        8,
        "{text}"
    );
    assert!(text.ends_with("selftest: all passed\n"), "{text}");
    // The path a machine with a GPU takes: the render node (here the drm-shim's).
    let shim = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/release/libgencl_drm_shim.so"
    );
    assert!(
        std::path::Path::new(shim).exists(),
        "build the drm-shim: cargo build --release -p gencl-drm-shim"
    );
    let (code, text) = run(&[("GENCL_DEVICE", "real"), ("LD_PRELOAD", shim)]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.starts_with("device: i915 at /dev/dri/renderD128: Skylake GT2 (0x1912), 24 EUs\n"),
        "{text}"
    );
    // A device gencl cannot drive: exit 1, and why.
    let out = Command::new(env!("CARGO_BIN_EXE_gencl"))
        .arg("selftest")
        .env("GENCL_DEVICE", "real")
        .env("LD_PRELOAD", shim)
        .env("GENCL_DRM_SHIM_PCI_ID", "0x8a52")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Ice Lake"), "{err}");
}

/// Logs through a pipe are plain text (journald reads them so), and a GENCL_LOG that does not
/// parse is reported instead of ignored.
#[test]
fn logs_are_plain_text_off_a_terminal_and_a_bad_filter_is_reported() {
    let run = |log: &str| {
        Command::new(env!("CARGO_BIN_EXE_gencl"))
            .current_dir(ROOT)
            .env("GENCL_LOG", log)
            .env("GENCL_DEVICE", "emulated")
            .env_remove("NO_COLOR")
            .arg("selftest")
            .output()
            .expect("run gencl")
    };
    let out = run("gencl_kmd=debug");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DEBUG"), "debug logs expected: {err}");
    assert!(
        !err.contains('\x1b'),
        "no terminal escapes through a pipe: {err:?}"
    );
    let out = run("gencl=loudest");
    assert_eq!(
        out.status.code(),
        Some(0),
        "a bad filter does not stop the tool"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("gencl: GENCL_LOG=\"gencl=loudest\": "),
        "reported: {err}"
    );
}

/// Without an Intel GPU and without GENCL_DEVICE=emulated, the selftest finds no device and
/// says how to ask for the emulator (skipped where a render node exists).
#[test]
fn selftest_without_a_gpu_names_the_emulator_switch() {
    if std::path::Path::new("/dev/dri/renderD128").exists() {
        eprintln!("a render node exists here; the no-GPU case cannot be shown");
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gencl"))
        .current_dir(ROOT)
        .env("GENCL_DEVICE", "auto")
        .arg("selftest")
        .output()
        .expect("run gencl");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("GENCL_DEVICE=emulated"), "{text}");
}

/// `--version` names the package and the compiler build (what program binaries and caches
/// are keyed by).
#[test]
fn version_names_the_package_and_the_compiler_build() {
    let out = gencl(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let want = format!(
        "gencl {} (compiler {})\n",
        env!("CARGO_PKG_VERSION"),
        gencl_jit::binary::COMPILER_ID
    );
    assert_eq!(text, want);
    assert_eq!(gencl_jit::binary::COMPILER_ID.len(), 16);
}

/// `--options "-D N=4"`, as the help shows it: a value that starts with a dash is the
/// build options, not a flag of the tool.
#[test]
fn compile_takes_build_options_that_start_with_a_dash() {
    let dir = std::env::temp_dir().join(format!("gencl-opts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("n.cl");
    std::fs::write(&src, "kernel void k(global int *o) { o[0] = N; }\n").unwrap();
    let out = gencl(&[
        "compile",
        src.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
        "--options",
        "-D N=4 -cl-std=CL1.2",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("k.bin").exists());
    // Without the definition the build fails, so the options did reach the compiler.
    let out = gencl(&[
        "compile",
        src.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A kernel that asks for no sub-group size is built at SIMD32 where IGC would build it
/// (`analysis::simd32`) and its code fits the registers, else at SIMD16, and at SIMD8 when its
/// SIMD16 code spills and SIMD8's does not (as IGC chooses), and where both spill at the
/// width that spills less; GENCL_SIMD=16 or 8 fixes the width.
#[test]
fn the_width_is_simd32_then_simd16_unless_they_spill() {
    let dir = std::env::temp_dir().join(format!("gencl-width-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // `press{n}` keeps n floats live across a loop, with their loads' replies and products:
    // 26 spill at SIMD32 and fit SIMD16, 56 spill at SIMD16 and fit SIMD8, 140 spill at both.
    // (Until the loop's values were computed into their phis' registers, `isel`
    // `into_phis`, 10 and 20 did.)
    let press = |n: usize| {
        let mut press = format!(
            "kernel void press{n}(global const float *in, global float *out, int n) {{\n\
             size_t g = get_global_id(0);\n",
        );
        for i in 0..n {
            press += &format!("float a{i} = in[g * {n} + {i}];\n");
        }
        press += "for (int k = 0; k < n; k++) {\n";
        for i in 0..n {
            press += &format!("a{i} = a{i} * a{} + a{};\n", (i + 1) % n, (i + 7) % n);
        }
        press += "}\nfloat s = 0;\n";
        for i in 0..n {
            press += &format!("s += a{i};\n");
        }
        press + "out[g] = s;\n}\n"
    };
    let src = dir.join("w.cl");
    std::fs::write(
        &src,
        format!(
            "kernel void light(global int *o) {{ o[get_global_id(0)] += 1; }}\n{}{}{}",
            press(26),
            press(56),
            press(140)
        ),
    )
    .unwrap();
    let compile = |simd: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gencl"));
        c.current_dir(ROOT).args([
            "compile",
            src.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
        ]);
        match simd {
            Some(w) => c.env("GENCL_SIMD", w),
            None => c.env_remove("GENCL_SIMD"),
        };
        let out = c.output().expect("run gencl");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let line = |report: &str, k: &str| {
        report
            .lines()
            .find(|l| l.starts_with(&format!("kernel '{k}':")))
            .unwrap_or_else(|| panic!("no line for {k}: {report}"))
            .to_owned()
    };
    let chosen = compile(None);
    assert!(line(&chosen, "light").contains("SIMD32, "), "{chosen}");
    let p = line(&chosen, "press26");
    assert!(
        p.contains("SIMD16, ") && p.contains(" 0 bytes spilled"),
        "{p}"
    );
    let p = line(&chosen, "press56");
    assert!(
        p.contains("SIMD8, ") && p.contains(" 0 bytes spilled"),
        "{p}"
    );
    let wide = compile(Some("16"));
    assert!(line(&wide, "light").contains("SIMD16, "), "{wide}");
    let p16 = line(&wide, "press56");
    assert!(
        p16.contains("SIMD16, ") && !p16.contains(" 0 bytes spilled"),
        "{p16}"
    );
    let narrow = compile(Some("8"));
    assert!(line(&narrow, "light").contains("SIMD8, "), "{narrow}");
    // Both widths spill: the build keeps the one that spills less (the SIMD16 attempt that
    // stops at its first allocation is built again with its spills to be compared).
    let spilled = |l: &str| -> u32 {
        let before = l.split(" bytes spilled").next().unwrap_or_default();
        before
            .rsplit(' ')
            .next()
            .unwrap_or_default()
            .parse()
            .unwrap_or_else(|_| panic!("{l}"))
    };
    let (c, s16, s8) = (
        line(&chosen, "press140"),
        line(&wide, "press140"),
        line(&narrow, "press140"),
    );
    assert!(
        s16.contains("SIMD16, ") && s8.contains("SIMD8, "),
        "{s16}\n{s8}"
    );
    assert!(spilled(&s16) > 0 && spilled(&s8) > 0, "{s16}\n{s8}");
    let (less, width) = if spilled(&s8) < spilled(&s16) {
        (spilled(&s8), "SIMD8, ")
    } else {
        (spilled(&s16), "SIMD16, ")
    };
    assert!(c.contains(width) && spilled(&c) == less, "{c}\n{s16}\n{s8}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GENCL_DUMP=DIR keeps what the compiler made of a program: its source, options and
/// SPIR-V, and per kernel the IR after the passes and the Gen9 assembly.
#[test]
fn gencl_dump_writes_source_spirv_ir_and_isa() {
    let dir = std::env::temp_dir().join(format!("gencl-dump-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_gencl"))
        .current_dir(ROOT)
        .env("GENCL_DUMP", &dir)
        .args(["compile", "tests/kernels/vadd.cl", "-o"])
        .arg(dir.join("bin"))
        .output()
        .expect("run gencl");
    assert_eq!(out.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("prog-"))
        .collect();
    names.sort();
    let prog = names[0].split('.').next().unwrap().to_string();
    let want: Vec<String> = ["cl", "options", "spv", "vadd.asm", "vadd.ir"]
        .iter()
        .map(|e| format!("{prog}.{e}"))
        .collect();
    assert_eq!(names, want);
    let read = |e: &str| std::fs::read(dir.join(format!("{prog}.{e}"))).unwrap();
    assert_eq!(
        read("cl"),
        std::fs::read(format!("{ROOT}/tests/kernels/vadd.cl")).unwrap()
    );
    assert_eq!(read("spv")[..4], 0x0723_0203u32.to_le_bytes());
    let asm = String::from_utf8(read("vadd.asm")).unwrap();
    assert!(asm.contains("send") && asm.contains("EOT"), "{asm}");
    let ir = String::from_utf8(read("vadd.ir")).unwrap();
    assert!(ir.contains("vadd"), "{ir}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gencl info`: the device as an application finds it, where the service runs, how the
/// device was chosen, and the compiler build; without a device, exit 1 and the switch.
#[test]
fn info_names_the_device_the_service_and_the_compiler() {
    let run = |device: &str| {
        Command::new(env!("CARGO_BIN_EXE_gencl"))
            .current_dir(ROOT)
            .env("GENCL_DEVICE", device)
            .env("GENCL_MODE", "embedded")
            .arg("info")
            .output()
            .expect("run gencl")
    };
    let out = run("emulated");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for want in [
        format!("compiler {})", gencl_jit::binary::COMPILER_ID).as_str(),
        "service: in this process (embedded",
        "device: Intel(R) Gen9 HD Graphics GT2 [Skylake, 0x1912] (emulated)",
        "PCI id 0x1912; 24 EUs in 3 subslices, 7 threads per EU (168 hardware threads)",
        "chosen by: GENCL_DEVICE=emulated",
        "  clang-15: ",
        "  libclc: ",
        "  program cache: ",
    ] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    // The warm compile helper the workspace builds beside the tool.
    let helper = std::path::Path::new(env!("CARGO_BIN_EXE_gencl")).with_file_name("gencl-clc");
    let want = format!(
        "  gencl-clc: {} (clang and LLVM kept loaded)",
        helper.display()
    );
    assert!(text.contains(&want), "{want:?} in\n{text}");
    if !std::path::Path::new("/dev/dri/renderD128").exists() {
        let out = run("auto");
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no device") && err.contains("GENCL_DEVICE=emulated"),
            "{err}"
        );
    }
}

/// `gencl disasm` of a program binary (what CL_PROGRAM_BINARIES hands out): every kernel's
/// figures and code, the same code as its raw binary disassembles to.
#[test]
fn disasm_reads_program_binaries() {
    let src = std::fs::read_to_string(format!("{ROOT}/tests/kernels/vadd.cl")).unwrap();
    let program =
        gencl_jit::compile(gencl_jit::CompileInput::OpenClC(&src), "").expect("vadd builds");
    let dir = std::env::temp_dir().join(format!("gencl-disasm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("vadd.clbin");
    std::fs::write(&file, gencl_jit::binary::encode(&program)).unwrap();
    let out = gencl(&["disasm", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let k = &program.kernels[0];
    let want = format!(
        "// {}\n{}\n",
        gencl_jit::compile::stats_line(k),
        gencl_isa::gen9::disasm_kernel(&k.isa).unwrap()
    );
    assert_eq!(text, want);
    // A damaged binary is an error naming the file, not a crash.
    let mut bad = gencl_jit::binary::encode(&program);
    let n = bad.len();
    bad[n - 1] ^= 0xff;
    std::fs::write(&file, &bad).unwrap();
    let out = gencl(&["disasm", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("vadd.clbin"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gencl run`: a kernel from a file, with its arguments given on the command line, on the
/// emulated device; every buffer printed afterwards (and written with --out), the GPU time
/// and the model's counters. Results against a CPU reference.
#[test]
fn run_executes_a_kernel_with_the_arguments_given() {
    let dir = std::env::temp_dir().join(format!("gencl-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("axpy.cl");
    std::fs::write(
        &src,
        "kernel void axpy(float a, global const float *x, global float *y) {\n\
         size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_gencl"))
            .current_dir(ROOT)
            .env("GENCL_DEVICE", "emulated")
            .arg("run")
            .arg(&src)
            .args(args)
            .output()
            .expect("run gencl")
    };
    let out = run(&[
        "--kernel",
        "axpy",
        "--global",
        "16",
        "--arg",
        "f32:-2",
        "--arg",
        "buf:f32:16:iota",
        "--arg",
        "buf:f32:16:0.5",
        "--show",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("arg 1 (F32[16]): 0 1 2 3\n"), "{text}");
    assert!(
        text.contains("arg 2 (F32[16]): 0.5 -1.5 -3.5 -5.5\n"),
        "{text}"
    );
    assert!(
        text.contains("gpu-time-ns: ") && text.contains("instructions: "),
        "{text}"
    );
    let y: Vec<f32> = std::fs::read(dir.join("arg2.bin"))
        .unwrap()
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<f32> = (0..16).map(|i| -2.0 * i as f32 + 0.5).collect();
    assert_eq!(y, want);
    // Arguments that do not fit the kernel: exit 1 with the reason.
    let out = run(&["--kernel", "axpy", "--global", "16", "--arg", "f32:1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes 3 arguments, 1 given"));
    let out = run(&[
        "--kernel",
        "axpy",
        "--global",
        "16",
        "--arg",
        "f32:1",
        "--arg",
        "i32:1",
        "--arg",
        "buf:f32:1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}
