//! The warm compile helper, `gencl-clc` (jit/clc-helper): clang, LLVM's optimiser and the
//! SPIR-V translator loaded once in a process of their own, which runs the front end's
//! `clang-15 -cc1`, `opt-15` and `llvm-spirv-15` steps as those processes would (same options,
//! same files, same stderr) without starting them: each start maps and relocates libLLVM and
//! libclang-cpp again, 40-50 ms of a program's build on this machine (docs/jit.md).
//!
//! Decided: a process, not the libraries in the application's own process: a crash or an
//! LLVM fatal error on an odd input ends the helper, not the application or gencld, and the
//! JIT then runs the tool itself, which reports the error as before; LLVM's global options
//! stay out of applications that load another LLVM. Idle helpers wait in a pool (one per
//! compile running at once); a process that forks starts a pool of its own.
//!
//! The helper is found as `GENCL_CLC_HELPER` (a path, or `0` for none), else beside the
//! library or program this code is in (or a folder up: cargo's test binaries), else in
//! `libexec/gencl/` one or two folders up from it (the package's /usr/libexec/gencl for
//! /usr/bin and /usr/lib/<triplet>), else `/usr/libexec/gencl/gencl-clc`. Without it,
//! everything runs as processes.

use std::io::{BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

/// The tools the helper stands in for, by the name the front end runs them under. A tool
/// named through GENCL_CLANG, GENCL_OPT or GENCL_LLVM_SPIRV is someone's own: it runs itself.
pub const TOOLS: [&str; 3] = ["clang-15", "opt-15", "llvm-spirv-15"];

/// opt's global options the front end's optimising pipeline runs with (`llvm::opt_command`).
/// No SLP or loop vectorisation: the JIT runs one work-item per SIMD lane and splits every
/// vector into components, so packing a work-item's scalars into vectors buys nothing, and
/// SLP's horizontal reductions make vectors wider than SPIR-V's 16 ("Unsupported vector type
/// with 32 elements" from llvm-spirv). InstCombine once a run (LLVM 18's default; docs/jit.md).
/// The helper sets them once at its start (they are LLVM's process-wide options) and runs
/// only opt command lines that give exactly these.
pub const OPT_GLOBALS: [&str; 3] = [
    "-vectorize-slp=false",
    "-vectorize-loops=false",
    "-instcombine-max-iterations=1",
];

/// The request and reply framing, shared by the JIT and the helper.
pub mod wire {
    use std::io::{self, Read, Write};

    /// The helper ran the step: the tool would have exited 0.
    pub const OK: u8 = 0;
    /// The helper ran the step and it failed: the tool would have exited non-zero.
    pub const FAILED: u8 = 1;
    /// The helper does not run this command line (an option it does not know): run the tool.
    pub const DECLINED: u8 = 2;

    /// Longest string either side accepts (a command-line argument or a reply's log).
    const MAX_LEN: usize = 64 << 20;

    fn read_u32(r: &mut impl Read) -> io::Result<u32> {
        let mut b = [0u8; 4];
        r.read_exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn read_bytes(r: &mut impl Read) -> io::Result<Vec<u8>> {
        let n = read_u32(r)? as usize;
        if n > MAX_LEN {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "string too long",
            ));
        }
        let mut v = vec![0u8; n];
        r.read_exact(&mut v)?;
        Ok(v)
    }

    fn write_bytes(w: &mut impl Write, b: &[u8]) -> io::Result<()> {
        w.write_all(&(b.len() as u32).to_le_bytes())?;
        w.write_all(b)
    }

    /// A request: the tool's command line, its name first.
    pub fn write_request(w: &mut impl Write, argv: &[String]) -> io::Result<()> {
        w.write_all(&(argv.len() as u32).to_le_bytes())?;
        for a in argv {
            write_bytes(w, a.as_bytes())?;
        }
        w.flush()
    }

    pub fn read_request(r: &mut impl Read) -> io::Result<Vec<String>> {
        let n = read_u32(r)? as usize;
        if n > 4096 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "too many arguments",
            ));
        }
        (0..n)
            .map(|_| {
                String::from_utf8(read_bytes(r)?)
                    .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "argument not UTF-8"))
            })
            .collect()
    }

    /// A reply: one of the codes above and what the tool would have printed to stderr.
    pub fn write_reply(w: &mut impl Write, code: u8, stderr: &[u8]) -> io::Result<()> {
        w.write_all(&[code])?;
        write_bytes(w, stderr)?;
        w.flush()
    }

    pub fn read_reply(r: &mut impl Read) -> io::Result<(u8, Vec<u8>)> {
        let mut code = [0u8; 1];
        r.read_exact(&mut code)?;
        Ok((code[0], read_bytes(r)?))
    }
}

struct Helper {
    child: Child,
    /// `None` once closed (Drop).
    to: Option<BufWriter<ChildStdin>>,
    from: BufReader<ChildStdout>,
    /// Requests it answered: a helper that fails its first one is not tried again.
    served: u64,
}

impl Drop for Helper {
    fn drop(&mut self) {
        // Closing its stdin ends an idle helper, which then removes its own files (its
        // precompiled headers); one that does not end at once is killed.
        self.to = None;
        if ended(&mut self.child, 20).is_some() {
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Default)]
struct Pool {
    /// The process the idle helpers belong to (their pipes are not a forked child's).
    pid: u32,
    /// Where the helper is; `None` once none is to be used.
    path: Option<Option<PathBuf>>,
    idle: Vec<Helper>,
    /// Helpers in a row killed by a signal on their first request.
    first_step_deaths: u32,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    pid: 0,
    path: None,
    idle: Vec::new(),
    first_step_deaths: 0,
});

/// Helpers in a row that may die on their first request before none is used any more.
const FIRST_STEP_DEATHS: u32 = 3;

/// Idle helpers kept for the next compiles; more only while more compile at once.
const MAX_IDLE: usize = 4;

/// A command line the helper may run for the tool: its name first.
fn helper_argv(cmd: &Command) -> Option<Vec<String>> {
    let program = cmd.get_program().to_str()?;
    if !TOOLS.contains(&program) || cmd.get_current_dir().is_some() || cmd.get_envs().len() != 0 {
        return None;
    }
    let mut argv = vec![program.to_string()];
    for a in cmd.get_args() {
        argv.push(a.to_str()?.to_string());
    }
    Some(argv)
}

/// Run `cmd` in a helper: `Some((success, stderr))` as the tool's process would have
/// ended, `None` when there is no helper for it (the caller runs the tool).
pub fn run(cmd: &Command) -> Option<(bool, Vec<u8>)> {
    request(helper_argv(cmd)?)
}

/// Run clang's, opt's and llvm-spirv's command lines, whose files link them, as one request
/// on a module kept in memory: `Some((true, _))` when all three succeeded (the last one's
/// output is written), `Some((false, clang's stderr))` when clang failed, `None` when the
/// helper did not run them all (no helper, a step it does not run, or a step after clang
/// failed): then the caller runs the steps one by one, with their files.
pub fn run_chain(steps: &[&Command]) -> Option<(bool, Vec<u8>)> {
    let mut argv = vec!["chain".to_string()];
    for cmd in steps {
        let one = helper_argv(cmd)?;
        argv.push(one.len().to_string());
        argv.extend(one);
    }
    let done = request(argv);
    if done.as_ref().is_some_and(|(ok, _)| *ok) {
        CHAINED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    done
}

static CHAINED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Builds of this process whose three steps ran as one request (`run_chain`), for tests.
pub fn chained_builds() -> u64 {
    CHAINED.load(std::sync::atomic::Ordering::Relaxed)
}

fn request(argv: Vec<String>) -> Option<(bool, Vec<u8>)> {
    let program = argv.first()?.clone();
    let mut helper = take()?;
    let start = std::time::Instant::now();
    let answer = match helper.to.as_mut() {
        Some(to) => wire::write_request(to, &argv).and_then(|_| wire::read_reply(&mut helper.from)),
        None => Err(std::io::Error::other("helper closed")),
    };
    match answer {
        Ok((wire::DECLINED, _)) => {
            helper.served += 1;
            give_back(helper);
            None
        }
        Ok((code, stderr)) if code == wire::OK || code == wire::FAILED => {
            if helper.served == 0 {
                POOL.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .first_step_deaths = 0;
            }
            tracing::debug!(
                step = program,
                ms = start.elapsed().as_secs_f64() * 1e3,
                ok = code == wire::OK,
                "gencl-clc"
            );
            helper.served += 1;
            give_back(helper);
            Some((code == wire::OK, stderr))
        }
        other => {
            // The helper ended (an LLVM fatal error, a crash) or spoke out of turn: this step
            // runs as a process, which reports whatever went wrong; the next gets a new helper.
            let status = ended(&mut helper.child, 100);
            tracing::warn!(
                ?status,
                error = ?other.err(),
                step = program,
                "gencl-clc ended during a step; running the tool instead"
            );
            // A helper that cannot serve at all (built without LLVM, a wrong file) exits on
            // its first request; one killed by a signal there (LLVM's abort on an odd module)
            // was ended by that input, and the next helper serves the next build, unless
            // that keeps happening.
            use std::os::unix::process::ExitStatusExt;
            if helper.served == 0 {
                let signalled = status.is_some_and(|s| s.signal().is_some());
                let deaths = {
                    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
                    pool.first_step_deaths += 1;
                    pool.first_step_deaths
                };
                if !signalled || deaths >= FIRST_STEP_DEATHS {
                    disable("it ended on its first step");
                }
            }
            None
        }
    }
}

/// How a helper that is ending (its pipes closed) ended, or `None` if it has not within
/// `ms` milliseconds.
fn ended(child: &mut Child, ms: u32) -> Option<std::process::ExitStatus> {
    for _ in 0..ms {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    None
}

/// Use the helper at `path`, or none (`None`), from now on in this process, instead of the
/// one `GENCL_CLC_HELPER` or the search names: tests compare the two paths with it.
pub fn use_helper(path: Option<PathBuf>) {
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    pool.idle.clear();
    pool.path = Some(path);
    pool.first_step_deaths = 0;
}

/// The helper this process would use now (`None`: the tools run as processes).
pub fn current() -> Option<PathBuf> {
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    pool.path.get_or_insert_with(locate).clone()
}

fn disable(why: &str) {
    tracing::warn!("gencl-clc not used: {why}; OpenCL C builds run clang-15 as a process");
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    pool.path = Some(None);
}

fn take() -> Option<Helper> {
    let path = {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let me = std::process::id();
        if pool.pid != me {
            // A forked child: the parent's helpers answer the parent. Forget them without
            // touching them (no kill, no wait: they are the parent's children).
            std::mem::forget(std::mem::take(&mut pool.idle));
            pool.pid = me;
        }
        if let Some(h) = pool.idle.pop() {
            return Some(h);
        }
        pool.path.get_or_insert_with(locate).clone()?
    };
    match spawn(&path) {
        Ok(h) => Some(h),
        Err(e) => {
            disable(&format!("cannot start {}: {e}", path.display()));
            None
        }
    }
}

fn give_back(h: Helper) {
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if pool.pid == std::process::id() && pool.idle.len() < MAX_IDLE {
        pool.idle.push(h);
    }
}

fn spawn(path: &Path) -> std::io::Result<Helper> {
    let mut child = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let (Some(to), Some(from)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(std::io::Error::other("no pipes to the helper"));
    };
    Ok(Helper {
        child,
        to: Some(BufWriter::new(to)),
        from: BufReader::new(from),
        served: 0,
    })
}

/// Where the helper is (see the module comment), or `None`.
fn locate() -> Option<PathBuf> {
    match std::env::var_os("GENCL_CLC_HELPER") {
        Some(v) if v == "0" || v.is_empty() => return None,
        Some(v) => return Some(PathBuf::from(v)),
        None => {}
    }
    let mut candidates = Vec::new();
    if let Some(dir) = own_folder() {
        candidates.push(dir.join("gencl-clc"));
        // /usr/bin/gencld and /usr/lib/<triplet>/libgencl.so: the package's libexec folder
        // under the same prefix (an installation in another root finds its own).
        for up in dir.ancestors().skip(1).take(2) {
            candidates.push(up.join("gencl-clc"));
            candidates.push(up.join("libexec/gencl/gencl-clc"));
        }
    }
    candidates.push(PathBuf::from("/usr/libexec/gencl/gencl-clc"));
    let found = candidates.iter().find(|p| p.is_file()).cloned();
    match &found {
        Some(path) => tracing::debug!(helper = %path.display(), "gencl-clc"),
        // A library copied away from its helper builds every program through three
        // processes, several times slower: say so once, where it would be looked for.
        None => tracing::warn!(
            searched = ?candidates,
            "gencl-clc not found; OpenCL C builds run clang-15, opt-15 and llvm-spirv-15 \
             as processes (GENCL_CLC_HELPER names it)"
        ),
    }
    found
}

/// The folder of the file (library or executable) this function's code was loaded from,
/// from /proc/self/maps.
fn own_folder() -> Option<PathBuf> {
    let addr = own_folder as *const () as usize;
    let mut maps = String::new();
    std::fs::File::open("/proc/self/maps")
        .ok()?
        .read_to_string(&mut maps)
        .ok()?;
    maps.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let (lo, hi) = fields.next()?.split_once('-')?;
        let (lo, hi) = (
            usize::from_str_radix(lo, 16).ok()?,
            usize::from_str_radix(hi, 16).ok()?,
        );
        if !(lo..hi).contains(&addr) {
            return None;
        }
        let path = fields.nth(4)?;
        Path::new(path).parent().map(Path::to_path_buf)
    })
}

#[cfg(test)]
mod tests {
    use super::wire;

    #[test]
    fn framing_round_trips_and_refuses_oversized_input() {
        let argv = vec![
            "opt-15".to_string(),
            "-O2".into(),
            "a b.bc".into(),
            String::new(),
        ];
        let mut buf = Vec::new();
        wire::write_request(&mut buf, &argv).unwrap();
        assert_eq!(wire::read_request(&mut buf.as_slice()).unwrap(), argv);
        let mut buf = Vec::new();
        wire::write_reply(&mut buf, wire::FAILED, b"error: x\n").unwrap();
        assert_eq!(
            wire::read_reply(&mut buf.as_slice()).unwrap(),
            (wire::FAILED, b"error: x\n".to_vec())
        );
        // A length past the limit is refused before anything is allocated for it.
        let mut bad = 1u32.to_le_bytes().to_vec();
        bad.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(wire::read_request(&mut bad.as_slice()).is_err());
        // A reply cut short is an error, not a short log.
        assert!(wire::read_reply(&mut &buf[..buf.len() - 1]).is_err());
    }
}
