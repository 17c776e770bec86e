//! OpenCL C → LLVM bitcode through clang-15, run as a child process; `llvm` takes the bitcode on
//! to SPIR-V (TOOLCHAIN.md: clang-15 and llvm-spirv-15 are the only pair here that make SPIR-V
//! 1.0–1.2).
//!
//! clang emits the module unoptimised but ready for the optimiser (`-disable-llvm-passes`: TBAA
//! and lifetime markers are there, no `optnone`), with typed pointers (`-no-opaque-pointers`:
//! llvm-spirv-15 aborts on opaque ones) and without jump tables (`-fno-jump-tables`: no switch
//! lookup tables in private memory); `llvm` then optimises with SPIR-V's integer widths.

use std::path::PathBuf;
use std::process::Command;

use super::FrontendError;

/// Options of clBuildProgram that are forwarded to clang, after validation.
/// Anything not understood is CL_INVALID_BUILD_OPTIONS, as the spec asks.
#[derive(Debug, Default, Clone)]
pub struct ClcOptions {
    pub clang_args: Vec<String>,
    pub cl_std: String,
    /// -cl-denorms-are-zero: the generated code flushes float denormals.
    pub denorms_are_zero: bool,
    /// -g: clang's line tables go into the SPIR-V (OpLine), so that the JIT's errors name
    /// the source line. A failed build is retried this way to find the line (`compile`).
    pub line_tables: bool,
    /// The program's name in the `GENCL_DUMP` folder, when dumping (`crate::dump`).
    pub dump: Option<String>,
}

/// Parse a clBuildProgram options string (OpenCL 3.0 §5.8.6).
pub fn parse_options(options: &str) -> Result<ClcOptions, String> {
    let mut out = ClcOptions {
        denorms_are_zero: false,
        line_tables: false,
        dump: None,
        clang_args: Vec::new(),
        // "If the -cl-std build option is not specified, the highest OpenCL C 1.x language
        // version supported by each device is used."
        cl_std: "CL1.2".into(),
    };
    let mut words = options.split_whitespace().peekable();
    while let Some(w) = words.next() {
        match w {
            // Preprocessor options: -D name[=def], -I dir (attached or separate).
            "-D" | "-I" => {
                let v = words
                    .next()
                    .ok_or_else(|| format!("option {w} needs an argument"))?;
                out.clang_args.push(w.into());
                out.clang_args.push(v.into());
            }
            _ if w.starts_with("-D") || w.starts_with("-I") => out.clang_args.push(w.into()),
            _ if w.starts_with("-cl-std=") => {
                let std = &w["-cl-std=".len()..];
                match std {
                    "CL1.0" | "CL1.1" | "CL1.2" | "CL2.0" | "CL3.0" => out.cl_std = std.into(),
                    _ => return Err(format!("unsupported OpenCL C version in {w}")),
                }
            }
            // "-cl-denorms-are-zero ... controls how single precision and double precision
            // denormalized numbers are handled": clang hears it as its driver says it (the
            // functions' f32 denormal mode), and the kernel flushes float denormals (cr0),
            // as IGC does; doubles keep theirs (cl_khr_fp64 requires CL_FP_DENORM).
            "-cl-denorms-are-zero" => {
                out.denorms_are_zero = true;
                out.clang_args
                    .push("-fdenormal-fp-math-f32=preserve-sign,preserve-sign".into())
            }
            // A promise by the application that sub-groups need no independent forward
            // progress: nothing for the compiler to do.
            "-cl-no-subgroup-ifp" => {}
            // Math intrinsics and optimization options clang understands as such.
            "-cl-single-precision-constant"
            | "-cl-fp32-correctly-rounded-divide-sqrt"
            | "-cl-opt-disable"
            | "-cl-mad-enable"
            | "-cl-no-signed-zeros"
            | "-cl-unsafe-math-optimizations"
            | "-cl-finite-math-only"
            | "-cl-fast-relaxed-math"
            | "-cl-uniform-work-group-size" => out.clang_args.push(w.into()),
            // Options that only affect what the runtime reports or warnings.
            "-cl-kernel-arg-info" | "-w" | "-Werror" => out.clang_args.push(w.into()),
            "-g" => out.line_tables = true,
            "-cl-strict-aliasing" => {}
            _ => return Err(format!("unknown build option '{w}'")),
        }
    }
    Ok(out)
}

/// A scratch directory removed on drop.
pub(super) struct TempDir(pub(super) PathBuf);

impl TempDir {
    pub(super) fn new() -> Result<TempDir, FrontendError> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "gencl-clc-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| FrontendError::Tool(format!("cannot create {}: {e}", dir.display())))?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The tool the front end runs for `name`: `$env` if set, else `name` (found on PATH).
pub fn tool(name: &str, env: &str) -> String {
    std::env::var(env).unwrap_or_else(|_| name.to_string())
}

/// The file a child process would run for `name`: a path as it is, or the first match on PATH.
pub fn find_program(name: &str) -> Option<std::path::PathBuf> {
    if name.contains('/') {
        let p = std::path::Path::new(name);
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether the options ask for no optimisation (-cl-opt-disable).
pub fn opt_disabled(opts: &ClcOptions) -> bool {
    opts.clang_args.iter().any(|a| a == "-cl-opt-disable")
}

/// Compile OpenCL C to SPIR-V words. Errors carry the compiler's own
/// diagnostics: they become the build log.
pub fn compile_to_spirv(source: &str, opts: &ClcOptions) -> Result<Vec<u8>, FrontendError> {
    compile_with_headers(source, opts, &[])
}

/// As `compile_to_spirv`, with clCompileProgram's embedded headers: each `(include name,
/// text)` is written under a folder of its own that `#include "name"` finds (`-I`). A name
/// that is absolute or climbs out with `..` is refused.
pub fn compile_with_headers(
    source: &str,
    opts: &ClcOptions,
    headers: &[(String, String)],
) -> Result<Vec<u8>, FrontendError> {
    use super::llvm;
    let dir = TempDir::new()?;
    let (clang, bc) = clang_command(&dir, source, opts, headers)?;
    let level = if opt_disabled(opts) {
        llvm::OptLevel::None
    } else {
        llvm::OptLevel::O2
    };
    // The three steps as one request on one module in memory, when the helper takes it
    // (docs/jit.md); otherwise, or when a step after clang failed, one by one with files.
    let (optimised, spv) = (dir.0.join(llvm::OPTIMISED), dir.0.join(llvm::SPIRV));
    let steps = [
        &clang,
        &llvm::opt_command(&bc, &optimised, level),
        &llvm::translate_command(&optimised, &spv),
    ];
    match super::helper::run_chain(&steps) {
        Some((true, _)) => {
            let bytes = std::fs::read(&spv)
                .map_err(|e| FrontendError::Tool(format!("cannot read {}: {e}", spv.display())))?;
            // An integer vec_type_hint needs the optimised module's text (`type_hints`),
            // which only the step-by-step build leaves behind.
            if !super::type_hints::has_integer_hint(&bytes) {
                return Ok(bytes);
            }
        }
        Some((false, stderr)) => return Err(compile_error(&stderr)),
        None => {}
    }
    run_clang(clang)?;
    llvm::file_to_spirv(&dir, &bc, level)
}

/// Compile OpenCL C to unoptimised LLVM bitcode (see the module comment).
pub fn compile_to_bitcode(source: &str, opts: &ClcOptions) -> Result<Vec<u8>, FrontendError> {
    compile_to_bitcode_with(source, opts, &[])
}

fn compile_to_bitcode_with(
    source: &str,
    opts: &ClcOptions,
    headers: &[(String, String)],
) -> Result<Vec<u8>, FrontendError> {
    let dir = TempDir::new()?;
    let (clang, bc) = clang_command(&dir, source, opts, headers)?;
    run_clang(clang)?;
    std::fs::read(&bc)
        .map_err(|e| FrontendError::Tool(format!("cannot read {}: {e}", bc.display())))
}

/// clang's command line for `source` with `headers`, whose files it writes into `dir`; and
/// the bitcode file it makes.
fn clang_command(
    dir: &TempDir,
    source: &str,
    opts: &ClcOptions,
    headers: &[(String, String)],
) -> Result<(Command, PathBuf), FrontendError> {
    let src = dir.0.join("program.cl");
    let bc = dir.0.join("program.bc");
    std::fs::write(&src, source)
        .map_err(|e| FrontendError::Tool(format!("cannot write {}: {e}", src.display())))?;
    let undefine = dir.0.join("gencl-features.h");
    std::fs::write(
        &undefine,
        crate::extensions::undefine_header() + &crate::extensions::intel_subgroups_header(),
    )
    .map_err(|e| FrontendError::Tool(format!("cannot write {}: {e}", undefine.display())))?;
    let include = dir.0.join("include");
    for (name, text) in headers {
        let rel = std::path::Path::new(name);
        let inside = !name.is_empty()
            && rel
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !inside {
            return Err(FrontendError::Compile(format!(
                "header include name '{name}' is not a relative path inside the program"
            )));
        }
        let path = include.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                FrontendError::Tool(format!("cannot create {}: {e}", parent.display()))
            })?;
        }
        std::fs::write(&path, text)
            .map_err(|e| FrontendError::Tool(format!("cannot write {}: {e}", path.display())))?;
    }

    let clang = tool("clang-15", "GENCL_CLANG");
    let mut cmd = Command::new(&clang);
    cmd.args(["-cc1", "-triple", "spir64-unknown-unknown"])
        .arg(format!("-cl-std={}", opts.cl_std))
        .args([
            "-finclude-default-header",
            "-fdeclare-opencl-builtins",
            "-no-opaque-pointers",
            "-fno-jump-tables",
            "-emit-llvm-bc",
        ]);
    // The extension and feature macros of what the device reports, no others, and
    // __IMAGE_SUPPORT__ (CL_DEVICE_IMAGE_SUPPORT is true); __OPENCL_VERSION__, which the SPIR
    // target leaves out, is the device's OpenCL version (3.0).
    cmd.arg(crate::extensions::clang_ext_arg())
        .arg("-D__IMAGE_SUPPORT__=1");
    cmd.arg("-D__OPENCL_VERSION__=300")
        .arg("-include")
        .arg(&undefine);
    if opt_disabled(opts) {
        cmd.args(["-O0", "-disable-O0-optnone"]);
    } else {
        cmd.args(["-O2", "-disable-llvm-passes"]);
    }
    if opts.line_tables {
        cmd.args(["-debug-info-kind=line-tables-only", "-dwarf-version=4"]);
    }
    if !headers.is_empty() {
        cmd.arg("-I").arg(&include);
    }
    cmd.args(&opts.clang_args).arg(&src).arg("-o").arg(&bc);
    Ok((cmd, bc))
}

/// Run clang's command line (`clang_command`).
fn run_clang(cmd: Command) -> Result<(), FrontendError> {
    let name = cmd.get_program().to_string_lossy().into_owned();
    run(cmd, &name, "clang-15 (Debian package clang-15)")
}

pub(super) fn run(mut cmd: Command, name: &str, package: &str) -> Result<(), FrontendError> {
    // The warm helper runs the step when it can (`helper`); the tool's process otherwise.
    let (success, stderr) = match super::helper::run(&cmd) {
        Some(done) => done,
        None => run_process(&mut cmd, name, package)?,
    };
    if success {
        return Ok(());
    }
    Err(compile_error(&stderr))
}

/// A failed step's stderr as the build log.
fn compile_error(stderr: &[u8]) -> FrontendError {
    let mut log = String::from_utf8_lossy(stderr).into_owned();
    // clang names the temporary file; the log reads better with the spec's name for it.
    if let Some(pos) = log.find("program.cl") {
        let prefix_end = log[..pos].rfind(['\n', ' ']).map(|p| p + 1).unwrap_or(0);
        if log[prefix_end..pos].contains('/') {
            log = log.replace(&log[prefix_end..pos].to_string(), "");
        }
    }
    FrontendError::Compile(log)
}

/// Run the tool's process: whether it succeeded, and its stderr.
fn run_process(
    cmd: &mut Command,
    name: &str,
    package: &str,
) -> Result<(bool, Vec<u8>), FrontendError> {
    match cmd.output() {
        Ok(o) => Ok((o.status.success(), o.stderr)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(FrontendError::Tool(format!(
            "the OpenCL C compiler '{name}' was not found: install {package}, \
             or build from SPIR-V with clCreateProgramWithIL"
        ))),
        Err(e) => Err(FrontendError::Tool(format!("cannot run '{name}': {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_validated() {
        let o = parse_options("-D N=4 -DFOO -cl-std=CL1.2 -cl-mad-enable").unwrap();
        assert_eq!(o.cl_std, "CL1.2");
        assert_eq!(o.clang_args, ["-D", "N=4", "-DFOO", "-cl-mad-enable"]);
        assert!(parse_options("-cl-std=CL9.9").is_err());
        assert!(parse_options("--bogus").is_err());
        assert!(parse_options("-D").is_err());
        // Options clang's -cc1 does not take as such.
        let o = parse_options("-cl-denorms-are-zero -cl-no-subgroup-ifp").unwrap();
        assert_eq!(
            o.clang_args,
            ["-fdenormal-fp-math-f32=preserve-sign,preserve-sign"]
        );
    }

    /// The feature macros clang's SPIR header defines on its own are gone where the device
    /// does not report the feature, and stay where it does.
    #[test]
    fn feature_macros_are_the_devices() {
        let src = "#ifndef __opencl_c_read_write_images\n#error rw\n#endif\n\
                   #ifndef __IMAGE_SUPPORT__\n#error images\n#endif\n\
                   #ifdef __opencl_c_atomic_scope_all_devices\n#error all\n#endif\n\
                   #ifndef __opencl_c_atomic_scope_device\n#error device\n#endif\n\
                   kernel void k(global int *a) { a[0] = 1; }";
        let o = parse_options("-cl-std=CL3.0").unwrap();
        if let Err(e) = compile_to_bitcode(src, &o) {
            panic!("{e:?}");
        }
    }
}
