//! `gencl`: developer tool. `gencl disasm FILE` prints a raw Gen9 kernel
//! binary in IGA's syntax; `gencl compile KERNEL.cl|.spv|.ll|.bc` writes each
//! kernel's binary (`NAME.bin`) and, with `--asm`, its disassembly (`NAME.asm`); `gencl profile`
//! runs a kernel once on the emulated device and prints the model's counters.
//!
//! The tool starts at a C `main`, not through std's runtime start-up: that start-up finds
//! the main thread's stack guard through glibc's `pthread_getattr_np`, which reads and
//! parses /proc/self/maps, a quarter of the instructions of the tool's start-up and 6-8 % of
//! a whole `gencl compile` of a typical kernel (`docs/jit.md`). What it did otherwise is
//! done here (a panic is exit status 101, stdout is flushed) or left at the Unix default
//! (SIGPIPE ends the process; a stack overflow is a plain SIGSEGV, the kernel's guard gap
//! still below the stack). The service `gencld` keeps std's start-up.

// Test builds keep libtest's own `main`.
#![cfg_attr(not(test), no_main)]

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use gencl_isa::gen9::disasm_kernel;
use gencl_jit::abi::ProgramBinary;
use gencl_jit::{compile, CompileInput};

/// `--version`: the package version and the compiler build that program binaries and caches
/// are keyed by.
static LONG_VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} (compiler {})",
        env!("CARGO_PKG_VERSION"),
        gencl_jit::binary::COMPILER_ID
    )
});

#[derive(Parser)]
#[command(
    name = "gencl",
    about = "gencl developer tool",
    version,
    long_version = LONG_VERSION.as_str()
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Disassemble a raw Gen9 kernel binary (NAME.bin), or every kernel of a gencl program
    /// binary (CL_PROGRAM_BINARIES), one instruction per line, as IGA prints it.
    Disasm { file: PathBuf },
    /// Compile OpenCL C (.cl), SPIR-V (.spv) or LLVM 15 IR (.ll text, .bc bitcode) for Gen9;
    /// writes NAME.bin per kernel (and NAME.asm with --asm).
    Compile {
        file: PathBuf,
        /// Also write each kernel's disassembly, NAME.asm (as `ocloc disasm` would; off by
        /// default, as in ocloc, since printing costs more than compiling a small kernel).
        #[arg(long)]
        asm: bool,
        /// Output folder (default: the current one).
        #[arg(short, long, default_value = ".")]
        out: PathBuf,
        /// clBuildProgram options, e.g. "-D N=4 -cl-std=CL1.2" (a value that starts with
        /// a dash is taken as the options, not as a flag of the tool).
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        options: String,
        /// Compile this many more times in the same process and print the first build's
        /// time and the median of the others (the in-process JIT figure: the built-in
        /// library is indexed once per process).
        #[arg(long, default_value_t = 0)]
        repeat: u32,
    },
    /// Replay an AUB file (as Intel's runtime records it in its AUB mode, possibly
    /// zstd-compressed) on the GPU model; exit 0 when every submission ran without a GPU
    /// error. With --dump, write the last context's memory afterwards, one file per
    /// contiguous range, named by its GPU address.
    Replay {
        file: PathBuf,
        #[arg(long)]
        dump: Option<PathBuf>,
    },
    /// What a hardware CI runner runs after installing gencl: the device found, then a set of
    /// kernels with known results (one line each: pass or FAIL, GPU and wall time); exit 0
    /// when all pass, 1 otherwise (docs/hardware.md).
    Selftest,
    /// What an application would find: where the service runs, the device (as clinfo shows
    /// it, and how it was chosen), the compiler build and the tools and caches it uses;
    /// exit 1 when there is no device.
    Info,
    /// What a running gencld is doing: its clients (process, buffers, programs, builds,
    /// launches queued, finished and failed, launches a second), the program cache and the
    /// GPU model's totals, refreshed every interval until interrupted.
    Top {
        /// The service's socket (default: the one the ICD would connect to).
        #[arg(long)]
        socket: Option<PathBuf>,
        /// Seconds between screens.
        #[arg(long, default_value_t = 1.0)]
        interval: f64,
        /// Stop after this many screens (`-n 1`: one report, for scripts).
        #[arg(short = 'n', long)]
        count: Option<u64>,
    },
    /// Print the commands of every submission of AUB files (NEO's recordings, or gencl's
    /// with GENCL_AUB=FILE), with the state they point at, by documented field names;
    /// zero fields are left out. Two files are listed one after the other, for diff.
    Decode {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Compile a kernel, launch it once on the emulated device (zero-filled buffers, zero
    /// by-value arguments) and print the GPU model's counters for the launch.
    Profile {
        #[command(flatten)]
        what: OneKernel,
        /// Bytes of each buffer argument (default: 16 per work-item).
        #[arg(long)]
        buffer_bytes: Option<u64>,
        /// Bytes of each __local pointer argument.
        #[arg(long, default_value_t = 1024)]
        local_bytes: u32,
    },
    /// Compile a kernel and run it once on the device GENCL_DEVICE selects, with the
    /// arguments given; print every buffer argument afterwards, the GPU time, and on the
    /// emulated device the GPU model's counters.
    Run {
        #[command(flatten)]
        what: OneKernel,
        /// One per kernel argument, in order: TYPE:VALUE (by value: i32:7, f32:1.5, u64:9,
        /// ...), buf:TYPE:COUNT[:zero|iota|rand|VALUE|@FILE], local:BYTES.
        #[arg(long = "arg", allow_hyphen_values = true)]
        args: Vec<String>,
        /// Elements of each buffer to print.
        #[arg(long, default_value_t = 16)]
        show: usize,
        /// Write each buffer argument's bytes after the run to DIR/argN.bin.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// The kernel `profile` and `run` launch, and the launch's shape.
#[derive(clap::Args)]
struct OneKernel {
    file: PathBuf,
    /// The kernel to run.
    #[arg(long)]
    kernel: String,
    /// Global size: X, X,Y or X,Y,Z.
    #[arg(long)]
    global: String,
    /// Local size, as many dimensions as --global (default: the largest divisor of X up
    /// to 64, 1 elsewhere).
    #[arg(long)]
    local: Option<String>,
    /// clBuildProgram options, e.g. "-D N=4".
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    options: String,
}

impl OneKernel {
    /// The program built from the file (OpenCL C), the kernel's index in it, and the
    /// ND-range: dimensions, global and local sizes.
    fn build(&self) -> Result<(ProgramBinary, usize, Shape), String> {
        let file = &self.file;
        let src = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let program = compile(CompileInput::OpenClC(&src), &self.options).map_err(|e| e.log)?;
        let k = program
            .kernels
            .iter()
            .position(|k| k.name == self.kernel)
            .ok_or_else(|| format!("{}: no kernel {}", file.display(), self.kernel))?;
        let nd = nd_range(&self.global, self.local.as_deref())?;
        Ok((program, k, nd))
    }
}

/// An ND-range: dimensions, global and local sizes.
type Shape = (u32, [u64; 3], [u32; 3]);

/// The ND-range of `--global` and `--local`.
fn nd_range(global: &str, local: Option<&str>) -> Result<Shape, String> {
    let g = sizes(global)?;
    let mut gs = [1u64; 3];
    gs[..g.len()].copy_from_slice(&g);
    let mut ls = [1u32; 3];
    match local {
        Some(l) => {
            let l = sizes(l)?;
            if l.len() != g.len() {
                return Err("--local needs as many dimensions as --global".into());
            }
            for (d, v) in l.iter().enumerate() {
                ls[d] = u32::try_from(*v).map_err(|_| "local size too large")?;
            }
        }
        None => {
            ls[0] = (1..=64u32)
                .rev()
                .find(|d| gs[0] % u64::from(*d) == 0)
                .unwrap_or(1)
        }
    }
    Ok((g.len() as u32, gs, ls))
}

/// "1024" or "64,64" → the sizes given.
fn sizes(s: &str) -> Result<Vec<u64>, String> {
    let v: Vec<u64> = s
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<u64>()
                .map_err(|e| format!("size {x:?}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    if v.is_empty() || v.len() > 3 || v.contains(&0) {
        return Err(format!("{s:?}: expected 1 to 3 non-zero sizes"));
    }
    Ok(v)
}

/// Write `bytes` as the whole of `path`, over what is there rather than truncating it first:
/// an existing output of the same size (a kernel compiled again) keeps its blocks, where
/// O_TRUNC frees them and the write allocates new ones (0.3 ms on this ext4, a tenth of a
/// whole `gencl compile`); a longer old file is cut after the write.
fn write_output(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    f.write_all(bytes)?;
    if f.metadata()?.len() != bytes.len() as u64 {
        f.set_len(bytes.len() as u64)?;
    }
    Ok(())
}

/// The process entry, called by the C runtime with the arguments std reads for itself
/// (`std::env::args`, which glibc's start-up hands to std's initialiser).
#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    // A panic must not unwind into C; std's start-up would report it and exit with 101.
    let code = std::panic::catch_unwind(gencl_main).unwrap_or(101);
    // std flushes stdout at exit only when it started the process.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    code
}

#[cfg_attr(test, allow(dead_code))]
fn gencl_main() -> std::ffi::c_int {
    // The JIT's logs (`GENCL_LOG=debug`), as gencld's; nothing is set up without it (nor is
    // the filter parser's code paged in).
    if std::env::var_os("GENCL_LOG").is_some() {
        gencl::logging::init(None);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("gencl: {e}");
            1
        }
    }
}

/// A program binary (CL_PROGRAM_BINARIES, pyopencl's cache): each kernel's figures and code.
/// A binary of another compiler build is read with that build's id (the runtime would refuse
/// it; a tool may still show it).
fn disasm_program(bytes: &[u8]) -> Result<String, String> {
    use gencl_jit::binary::{decode, decode_for, BinaryError};
    let program = match decode(bytes) {
        Err(BinaryError::OtherCompiler { found, .. }) => {
            decode_for(bytes, &found).map_err(|e| e.to_string())?
        }
        Err(BinaryError::Kind(k)) => return Err(format!("binary kind {k} holds no machine code")),
        r => r.map_err(|e| e.to_string())?,
    };
    let mut out = String::new();
    for k in &program.kernels {
        out += &format!("// {}\n", gencl_jit::compile::stats_line(k));
        out += &disasm_kernel(&k.isa).map_err(|e| format!("kernel '{}': {e}", k.name))?;
        out += "\n";
    }
    Ok(out)
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Info => {
            print!("{}", gencl::info::report()?);
            Ok(())
        }
        Cmd::Top {
            socket,
            interval,
            count,
        } => {
            if !(interval.is_finite() && interval > 0.0) {
                return Err(format!("--interval {interval}: seconds, more than 0"));
            }
            gencl::top::run(
                socket.as_deref(),
                std::time::Duration::from_secs_f64(interval),
                count,
            )
        }
        Cmd::Selftest => {
            let (report, ok) = gencl::selftest::run()?;
            print!("{report}");
            if ok {
                Ok(())
            } else {
                Err("selftest failed".into())
            }
        }
        Cmd::Decode { files } => {
            for file in files {
                let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
                let data = gencl_kmd::aub::decompress(bytes)
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                let mut replay = gencl_kmd::aub::Replay::default();
                replay.listing = Some(Vec::new());
                let result = replay.run(&data);
                println!("== {}", file.display());
                for line in replay.listing.take().unwrap_or_default() {
                    println!("{line}");
                }
                if let Err(e) = result {
                    println!("(replay stopped: {e})");
                }
            }
            Ok(())
        }
        Cmd::Replay { file, dump } => {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let data = gencl_kmd::aub::decompress(bytes)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            let mut replay = gencl_kmd::aub::Replay::default();
            let result = replay.run(&data);
            for (i, s) in replay.submissions().iter().enumerate() {
                println!(
                    "submission {i}: context {:#x}, ring {:#x} [{:#x}..{:#x}), {} threads, {} instructions",
                    s.lrca, s.ring.start, s.ring.head, s.ring.tail, s.counters.threads,
                    s.counters.instructions
                );
            }
            println!("memory polls checked: {}", replay.polls_checked);
            if let Some(dir) = dump {
                std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                for (va, bytes) in replay.memory_ranges() {
                    let f = dir.join(format!("{va:016x}.bin"));
                    std::fs::write(&f, &bytes).map_err(|e| format!("{}: {e}", f.display()))?;
                }
            }
            result.map_err(|e| format!("{}: {e}", file.display()))
        }
        Cmd::Profile {
            what,
            buffer_bytes,
            local_bytes,
        } => {
            let (program, k, (dims, gs, ls)) = what.build()?;
            let k = &program.kernels[k];
            let items: u64 = gs.iter().product();
            let launch = gencl::profile::ProfileLaunch {
                work_dim: dims,
                global: gs,
                local: ls,
                buffer_bytes: buffer_bytes.unwrap_or(items.saturating_mul(16)),
                local_bytes,
            };
            let stats = gencl::profile::profile(k, &program.globals, &launch)?;
            println!("kernel: {} (SIMD{})", k.name, k.simd);
            print!("{}", gencl::profile::format_counters(&stats.counters));
            println!(
                "gpu-time-ns: {}",
                stats.end_ns.saturating_sub(stats.start_ns)
            );
            Ok(())
        }
        Cmd::Run {
            what,
            args,
            show,
            out,
        } => {
            let (program, k, (dims, gs, ls)) = what.build()?;
            let k = &program.kernels[k];
            let parsed = args
                .iter()
                .enumerate()
                .map(|(i, a)| gencl::run_args::parse(a, i))
                .collect::<Result<Vec<_>, _>>()?;
            let launch = gencl::profile::ProfileLaunch {
                work_dim: dims,
                global: gs,
                local: ls,
                buffer_bytes: 0,
                local_bytes: 0,
            };
            let values: Vec<_> = parsed.iter().map(|(v, _)| v.clone()).collect();
            let (stats, buffers) = gencl::profile::run(k, &program.globals, &launch, &values)?;
            println!("kernel: {} (SIMD{})", k.name, k.simd);
            let mut buffers = buffers.into_iter();
            for (i, (_, ty)) in parsed.iter().enumerate() {
                let Some(ty) = ty else { continue };
                let Some(bytes) = buffers.next() else { break };
                println!(
                    "arg {i} ({:?}[{}]): {}",
                    ty,
                    bytes.len() / ty.size(),
                    ty.format(&bytes, show)
                );
                if let Some(dir) = &out {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                    let f = dir.join(format!("arg{i}.bin"));
                    std::fs::write(&f, &bytes).map_err(|e| format!("{}: {e}", f.display()))?;
                }
            }
            println!(
                "gpu-time-ns: {}",
                stats.end_ns.saturating_sub(stats.start_ns)
            );
            if stats.counters.threads > 0 {
                print!("{}", gencl::profile::format_counters(&stats.counters));
            }
            Ok(())
        }
        Cmd::Disasm { file } => {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let text = if bytes.starts_with(gencl_jit::binary::MAGIC) {
                disasm_program(&bytes)
            } else {
                disasm_kernel(&bytes).map_err(|e| e.to_string())
            }
            .map_err(|e| format!("{}: {e}", file.display()))?;
            print!("{text}");
            Ok(())
        }
        Cmd::Compile {
            file,
            asm,
            out,
            options,
            repeat,
        } => {
            let data = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
            let text;
            let input = match ext {
                "spv" => CompileInput::SpirV(&data),
                "ll" | "bc" => CompileInput::LlvmIr(&data),
                _ => {
                    text = String::from_utf8(data.clone())
                        .map_err(|_| format!("{}: not UTF-8 text", file.display()))?;
                    CompileInput::OpenClC(&text)
                }
            };
            let start = std::time::Instant::now();
            let program = compile(input, &options).map_err(|e| e.log)?;
            let first = start.elapsed();
            if repeat > 0 {
                let mut times: Vec<std::time::Duration> = (0..repeat)
                    .map(|_| {
                        let t = std::time::Instant::now();
                        let _ = compile(input, &options);
                        t.elapsed()
                    })
                    .collect();
                times.sort();
                eprintln!(
                    "compile: first {:.3} ms, then median {:.3} ms over {repeat}",
                    first.as_secs_f64() * 1e3,
                    times[times.len() / 2].as_secs_f64() * 1e3
                );
            }
            std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            for k in &program.kernels {
                let bin = out.join(format!("{}.bin", k.name));
                write_output(&bin, &k.isa).map_err(|e| format!("{}: {e}", bin.display()))?;
                if asm {
                    let file = out.join(format!("{}.asm", k.name));
                    let text = disasm_kernel(&k.isa).map_err(|e| format!("{}: {e}", k.name))?;
                    std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
                }
                println!("{} -> {}", gencl_jit::compile::stats_line(k), bin.display());
            }
            Ok(())
        }
    }
}
