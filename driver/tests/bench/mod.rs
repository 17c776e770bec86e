//! gencl's machine code against IGC's (issue 25's benchmark): every kernel of
//! `tests/bench/corpus/*.cl` is compiled by gencl's JIT and by `ocloc compile -device skl`
//! from the same source with the same options, both binaries run on the GPU model through
//! gencl's submitter with the same inputs and ND-range, both results are checked against a
//! CPU reference, and the model's counters are compared kernel by kernel.
//!
//! Shared by `driver/examples/bench.rs` (the command, full mode) and
//! `driver/tests/bench_short.rs` (the short mode CI runs).
#![allow(dead_code)]

#[path = "../igc/harness.rs"]
pub mod harness;
#[path = "../igc/loader.rs"]
pub mod loader;
#[path = "../igc/run.rs"]
pub mod run;

pub mod cases;
pub mod report;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gencl_jit::abi::KernelBinary;
use gencl_jit::isa::gen9::decode;
use gencl_jit::isa::{Opcode, RegFile, Sfid, Src};
use gencl_jit::CompileInput;
use gencl_kmd::gpu::Counters;
use harness::Case;

/// The build options both compilers get.
pub const OPTIONS: &str = "-cl-std=CL2.0";

/// The kernels of the short mode: one or two per category, at problem-size scale 1.
pub const SHORT: &[&str] = &[
    "saxpy",
    "reduce_sum_i32",
    "hist256_local",
    "conv2d_3x3",
    "matmul_tiled16",
    "sha256_block",
    // IGC reads its `__constant` table with a block that crosses the surface's end: holds the
    // data port's per-dword bounds (a whole-block zero made IGC's result wrong).
    "md5_block",
    "philox2x32_10",
    "daxpy",
    "half_axpy",
    "wg_reduce_add",
    "sg_reduce_add",
    // 64-bit division above 2^32 (passes::div64's estimated digits) and a triangular loop
    // nest with barriers (an outer loop unrolled whole, then its inner copies).
    "mandelbrot_fixed",
    "bitonic_sort_local",
];

/// Problem-size multiplier of the full mode.
pub const FULL_SCALE: usize = 4;

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bench/corpus")
}

/// What a run covers.
#[derive(Clone, Debug, Default)]
pub struct Mode {
    /// The short mode: the `SHORT` kernels at scale 1.
    pub short: bool,
    /// Only kernels whose name contains this (debugging).
    pub only: Option<String>,
    /// A program that compiles one corpus file with gencl's JIT in a process of its own
    /// (`bench --compile-one FILE`), for the JIT's wall time and peak memory as a process,
    /// as ocloc's are measured. None: the JIT's figure is its in-process wall time only.
    pub self_exe: Option<PathBuf>,
}

/// A binary's static figures.
#[derive(Clone, Debug, Default)]
pub struct Static {
    pub simd: u32,
    /// Instructions up to the last EOT.
    pub instructions: usize,
    pub sends: usize,
    /// Scratch block messages in the code (spill and fill, or private memory in scratch).
    pub scratch_sends: usize,
    /// Distinct GRFs any operand touches (a region's or a message payload's whole span).
    pub grfs: usize,
    /// Spilled bytes per thread from the binary's metadata (gencl's JIT records them; IGC's
    /// patch tokens do not say: None).
    pub spill_bytes: Option<u32>,
}

/// One compiler's outcome on one kernel.
#[derive(Clone, Debug)]
pub struct Side {
    /// The binary's static figures, or why there is no binary.
    pub build: Result<Static, String>,
    /// The launch's counters when its results equal the reference; else what went wrong.
    pub run: Result<Counters, String>,
}

impl Side {
    pub fn ok(&self) -> Option<(&Static, &Counters)> {
        match (&self.build, &self.run) {
            (Ok(s), Ok(c)) => Some((s, c)),
            _ => None,
        }
    }
    pub fn error(&self) -> Option<String> {
        match (&self.build, &self.run) {
            (Err(e), _) => Some(format!("build: {e}")),
            (_, Err(e)) => Some(e.clone()),
            _ => None,
        }
    }
}

pub struct Row {
    pub file: &'static str,
    pub kernel: &'static str,
    /// Work-items of the launch (the product of the global size).
    pub work_items: u64,
    pub gencl: Side,
    pub igc: Side,
}

impl Row {
    /// modelled cycles gencl / IGC, when both ran correctly.
    pub fn cycle_ratio(&self) -> Option<f64> {
        let (_, g) = self.gencl.ok()?;
        let (_, i) = self.igc.ok()?;
        (i.modelled_cycles > 0).then(|| g.modelled_cycles as f64 / i.modelled_cycles as f64)
    }
    pub fn instruction_ratio(&self) -> Option<f64> {
        let (_, g) = self.gencl.ok()?;
        let (_, i) = self.igc.ok()?;
        (i.instructions > 0).then(|| g.instructions as f64 / i.instructions as f64)
    }
}

/// One corpus file's compile times.
#[derive(Clone, Debug)]
pub struct CompileTime {
    pub file: &'static str,
    /// gencl's JIT, in this process (clang front end, JIT, every kernel of the file).
    pub gencl_secs: f64,
    /// gencl's JIT in a process of its own (`--compile-one`): wall seconds, peak RSS KiB.
    pub gencl_process: Option<(f64, u64)>,
    /// ocloc as a process: wall seconds, and its peak RSS in KiB when /usr/bin/time exists.
    pub ocloc_secs: f64,
    pub ocloc_peak_kib: Option<u64>,
}

pub struct Report {
    pub short: bool,
    pub rows: Vec<Row>,
    pub compile: Vec<CompileTime>,
}

/// Static figures of a Gen9 kernel binary.
pub fn static_figures(k: &KernelBinary, spill_bytes: Option<u32>) -> Static {
    let mut insts = Vec::new();
    let mut at = 0;
    while at < k.isa.len() {
        match decode(&k.isa[at..]) {
            Ok((inst, len)) => {
                insts.push(inst);
                at += len;
            }
            Err(_) => break,
        }
    }
    // Nothing after the last EOT runs (padding).
    if let Some(last) = insts
        .iter()
        .rposition(|i| i.send.map(|s| s.eot).unwrap_or(false))
    {
        insts.truncate(last + 1);
    }
    let is_send = |op: Opcode| {
        matches!(
            op,
            Opcode::Send | Opcode::Sendc | Opcode::Sends | Opcode::Sendsc
        )
    };
    let mut grfs = BTreeSet::new();
    let mut touch = |nr: u8, bytes: u32| {
        for r in 0..bytes.div_ceil(32).max(1) {
            grfs.insert(u32::from(nr) + r);
        }
    };
    let (mut sends, mut scratch) = (0, 0);
    for i in &insts {
        let send = is_send(i.op);
        if send {
            sends += 1;
            if let Some(s) = i.send {
                if s.sfid == Sfid::Dc0 && s.desc.map(|d| d & (1 << 18) != 0).unwrap_or(false) {
                    scratch += 1;
                }
            }
        }
        let desc = i.send.and_then(|s| s.desc);
        if let Some(d) = i
            .dst
            .filter(|d| d.file == RegFile::Grf && d.indirect.is_none())
        {
            let bytes = match (send, desc) {
                (true, Some(desc)) => ((desc >> 20) & 0x1f) * 32,
                (true, None) => 32,
                _ => {
                    u32::from(d.subreg)
                        + u32::from(i.exec_size) * u32::from(d.hstride.max(1)) * d.ty.size()
                }
            };
            if !(send && bytes == 0) {
                touch(d.nr, bytes);
            }
        }
        for (n, s) in i.srcs.iter().enumerate() {
            let Some(Src::Reg(r)) = s else { continue };
            if r.file != RegFile::Grf || r.indirect.is_some() {
                continue;
            }
            let bytes = if send {
                match (n, desc) {
                    (0, Some(desc)) => ((desc >> 25) & 0xf) * 32,
                    (1, _) => ((i.send.map(|s| s.ex_desc).unwrap_or(0) >> 6) & 0x1f) * 32,
                    _ => 32,
                }
            } else {
                let reg = r.region;
                let w = u32::from(reg.width.max(1));
                let rows = (u32::from(i.exec_size) / w).max(1);
                let span = if reg.vstride == gencl_jit::isa::Region::VXH {
                    u32::from(i.exec_size)
                } else {
                    (rows - 1) * u32::from(reg.vstride) + (w - 1) * u32::from(reg.hstride) + 1
                };
                u32::from(r.subreg) + span * r.ty.size()
            };
            if bytes > 0 {
                touch(r.nr, bytes);
            }
        }
    }
    Static {
        simd: k.simd,
        instructions: insts.len(),
        sends,
        scratch_sends: scratch,
        grfs: grfs.len(),
        spill_bytes,
    }
}

/// Run `case` with `kernel` on a fresh emulated device and check its results.
fn run_checked(kernel: &KernelBinary, case: &Case) -> Result<Counters, String> {
    let (run, stats) = run::Gpu::new()
        .run(kernel, case)
        .map_err(|e| format!("launch: {e}"))?;
    if case.checks.is_empty() {
        return Err("the case has no checks".into());
    }
    let errors: Vec<String> = case.checks.iter().filter_map(|f| f(&run).err()).collect();
    if errors.is_empty() {
        Ok(stats.counters)
    } else {
        let e = errors.join("; ");
        Err(format!(
            "wrong result: {}",
            e.chars().take(300).collect::<String>()
        ))
    }
}

/// Peak RSS (KiB) and wall seconds of a command, through `/usr/bin/time -f %M` when it exists.
/// (`GENCL_CLC_HELPER=0` for the process: clang's steps run as waited-for child processes,
/// so that the peak covers them; rusage's maximum RSS is the largest of the process tree.)
fn timed_process(program: &Path, args: &[&std::ffi::OsStr]) -> Result<(f64, Option<u64>), String> {
    let time = Path::new("/usr/bin/time");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "peak-kib %M"]).arg(program);
        c
    } else {
        Command::new(program)
    };
    cmd.args(args).env("GENCL_CLC_HELPER", "0");
    let t = Instant::now();
    let o = cmd
        .output()
        .map_err(|e| format!("run {}: {e}", program.display()))?;
    let secs = t.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        return Err(format!(
            "{} failed: {}{}",
            program.display(),
            String::from_utf8_lossy(&o.stdout),
            stderr
        ));
    }
    let peak = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("peak-kib "))
        .and_then(|v| v.trim().parse().ok());
    Ok((secs, peak))
}

/// ocloc's kernels of one corpus file (or why there are none), its wall time and peak RSS.
fn build_ocloc(file: &str, out: &Path) -> (Result<Vec<KernelBinary>, String>, f64, Option<u64>) {
    let src = corpus_dir().join(file);
    let args: Vec<&std::ffi::OsStr> = vec![
        "compile".as_ref(),
        "-file".as_ref(),
        src.as_os_str(),
        "-device".as_ref(),
        "skl".as_ref(),
        "-options".as_ref(),
        OPTIONS.as_ref(),
        "-q".as_ref(),
        "-out_dir".as_ref(),
        out.as_os_str(),
    ];
    let ocloc = which("ocloc").unwrap_or_else(|| PathBuf::from("/usr/bin/ocloc"));
    match timed_process(&ocloc, &args) {
        Err(e) => (Err(format!("ocloc: {e}")), 0.0, None),
        Ok((secs, peak)) => {
            let stem = file.trim_end_matches(".cl");
            let bin = out.join(format!("{stem}_Gen9core.bin"));
            let kernels = std::fs::read(&bin)
                .map_err(|e| format!("{}: {e}", bin.display()))
                .and_then(|b| loader::load(&b).map_err(|e| format!("loading ocloc's binary: {e}")));
            (kernels, secs, peak)
        }
    }
}

/// IGC's patch tokens give a by-value `half` argument 4 bytes of the payload (one piece of
/// DataSize 4); the API passes sizeof(cl_half) = 2 bytes. The kernel reads the low half of
/// the zeroed dword, so the piece is clipped to the argument's 2 bytes.
fn half_args_as_the_api_passes_them(k: &mut KernelBinary) {
    for a in &mut k.args {
        if a.type_name.trim() == "half" && a.size == 4 && a.pieces.len() == 1 {
            a.size = 2;
            a.pieces[0].size = 2;
        }
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.exists())
}

/// Each kernel's binary, or why it did not build.
pub type Built = Vec<(String, Result<KernelBinary, String>)>;

/// gencl's JIT on one corpus file: each kernel's binary or why it did not build.
pub fn build_gencl(file: &str) -> Result<Built, String> {
    let src = std::fs::read_to_string(corpus_dir().join(file))
        .map_err(|e| format!("reading {file}: {e}"))?;
    gencl_jit::compile::compile_each(CompileInput::OpenClC(&src), OPTIONS)
        .map_err(|e| format!("program: {}", e.log.lines().next().unwrap_or("")))
}

/// The cases a mode runs.
pub fn selected_cases(mode: &Mode) -> Vec<Case> {
    let scale = if mode.short { 1 } else { FULL_SCALE };
    cases::cases(scale)
        .into_iter()
        .filter(|c| !mode.short || SHORT.contains(&c.kernel))
        .filter(|c| {
            mode.only
                .as_ref()
                .is_none_or(|o| c.kernel.contains(o.as_str()))
        })
        .collect()
}

/// Build, run and check every selected kernel with both compilers.
pub fn run_bench(mode: &Mode) -> Report {
    let cases = selected_cases(mode);
    let files: Vec<&'static str> = cases
        .iter()
        .map(|c| c.file)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let out = std::env::temp_dir().join(format!("gencl-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&out);
    let mut gencl_bins: BTreeMap<(&str, String), Result<KernelBinary, String>> = BTreeMap::new();
    let mut igc_bins: BTreeMap<(&str, String), Result<KernelBinary, String>> = BTreeMap::new();
    let mut file_errors: BTreeMap<(&str, bool), String> = BTreeMap::new();
    let mut compile = Vec::new();
    // Compile times are the minimum of `repeats` runs (the machine may be shared).
    let repeats = if mode.short { 1 } else { 3 };
    for &file in &files {
        let mut gencl_secs = f64::INFINITY;
        let mut g = Err(String::new());
        for _ in 0..repeats {
            let t = Instant::now();
            g = build_gencl(file);
            gencl_secs = gencl_secs.min(t.elapsed().as_secs_f64());
        }
        match g {
            Ok(ks) => {
                for (name, k) in ks {
                    gencl_bins.insert((file, name), k);
                }
            }
            Err(e) => {
                file_errors.insert((file, true), e);
            }
        }
        let (mut ocloc_secs, mut ocloc_peak_kib) = (f64::INFINITY, None);
        let mut i = Err(String::new());
        for _ in 0..repeats {
            let (built, secs, peak) = build_ocloc(file, &out);
            i = built;
            ocloc_secs = ocloc_secs.min(secs);
            ocloc_peak_kib = ocloc_peak_kib.max(peak);
        }
        match i {
            Ok(ks) => {
                for mut k in ks {
                    half_args_as_the_api_passes_them(&mut k);
                    igc_bins.insert((file, k.name.clone()), Ok(k));
                }
            }
            Err(e) => {
                file_errors.insert((file, false), e);
            }
        }
        let gencl_process = mode.self_exe.as_ref().and_then(|exe| {
            let src = corpus_dir().join(file);
            let args: Vec<&std::ffi::OsStr> = vec!["--compile-one".as_ref(), src.as_os_str()];
            let runs: Vec<(f64, u64)> = (0..repeats)
                .filter_map(|_| {
                    let (s, p) = timed_process(exe, &args).ok()?;
                    Some((s, p?))
                })
                .collect();
            let secs = runs.iter().map(|r| r.0).min_by(f64::total_cmp)?;
            Some((secs, runs.iter().map(|r| r.1).max()?))
        });
        compile.push(CompileTime {
            file,
            gencl_secs,
            gencl_process,
            ocloc_secs,
            ocloc_peak_kib,
        });
    }
    let _ = std::fs::remove_dir_all(&out);
    let mut rows = Vec::new();
    for c in &cases {
        let side = |bins: &BTreeMap<(&str, String), Result<KernelBinary, String>>,
                    is_gencl: bool| {
            let k = match bins.get(&(c.file, c.kernel.to_string())) {
                Some(Ok(k)) => k,
                Some(Err(e)) => {
                    return Side {
                        build: Err(e.clone()),
                        run: Err("not built".into()),
                    }
                }
                None => {
                    let e = file_errors
                        .get(&(c.file, is_gencl))
                        .cloned()
                        .unwrap_or_else(|| "no such kernel in the compiler's output".into());
                    return Side {
                        build: Err(e),
                        run: Err("not built".into()),
                    };
                }
            };
            let spill = is_gencl.then(|| k.spill_bytes());
            Side {
                build: Ok(static_figures(k, spill)),
                run: run_checked(k, c),
            }
        };
        let gencl = side(&gencl_bins, true);
        let igc = side(&igc_bins, false);
        rows.push(Row {
            file: c.file,
            kernel: c.kernel,
            work_items: c.global.iter().product::<usize>() as u64,
            gencl,
            igc,
        });
    }
    Report {
        short: mode.short,
        rows,
        compile,
    }
}
