//! gencl-clc: the JIT's warm compile helper (`gencl_jit::frontend::helper` says why and how
//! it is found). It reads command lines of `clang-15 -cc1`, `opt-15` and `llvm-spirv-15` on
//! stdin, runs each step in this process through clang, LLVM and LLVMSPIRVLib as libraries
//! (src/shim.cpp), and answers with the tool's exit status and what it printed to stderr.
//! A command line with an option it does not know is declined: the JIT runs the tool.
//! It ends when its stdin closes (the JIT's process ended).

use std::io::{BufReader, BufWriter};
use std::process::ExitCode;

use gencl_jit::frontend::helper::{wire, OPT_GLOBALS};

mod pch;

/// One step, as the tool's command line asks for it.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// `clang-15 -cc1 ARGS`.
    Cc1(Vec<String>),
    /// `opt-15 [--data-layout=DL] [-vectorize-slp=false -vectorize-loops=false] (-O2 |
    /// -passes=PIPELINE) IN -o OUT`; `pipeline` is the text pipeline (`default<O2>` for -O2).
    Opt {
        input: String,
        output: String,
        data_layout: Option<String>,
        pipeline: String,
    },
    /// `llvm-spirv-15 [--spirv-max-version=1.N] [--spirv-ext=LIST]
    /// [--preserve-ocl-kernel-arg-type-metadata-through-string] IN -o OUT`.
    Spirv {
        input: String,
        output: String,
        max_version: u32,
        exts: String,
        preserve_arg_types: bool,
    },
}

/// What the helper answers a `chain` request with when a step after clang failed: the
/// JIT then runs the three steps one by one, with their files, to see what failed.
const INCOMPLETE: u8 = wire::DECLINED;

/// A `chain` request: clang, opt and llvm-spirv command lines whose files link them (clang's
/// output is opt's input, opt's output llvm-spirv's input), run on one module in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Chain {
    cc1: Vec<String>,
    data_layout: Option<String>,
    pipeline: String,
    output: String,
    max_version: u32,
    exts: String,
    preserve_arg_types: bool,
}

/// `chain N1 ARGV1... N2 ARGV2... N3 ARGV3...` (each ARGV with its tool's name first).
fn parse_chain(argv: &[String]) -> Option<Chain> {
    let (first, mut rest) = argv.split_first()?;
    if first != "chain" {
        return None;
    }
    let mut steps = Vec::new();
    while let Some((n, tail)) = rest.split_first() {
        let n: usize = n.parse().ok()?;
        if n > tail.len() {
            return None;
        }
        steps.push(parse(&tail[..n])?);
        rest = &tail[n..];
    }
    let [Step::Cc1(cc1), Step::Opt {
        input: opt_in,
        output: opt_out,
        data_layout,
        pipeline,
    }, Step::Spirv {
        input: spirv_in,
        output,
        max_version,
        exts,
        preserve_arg_types,
    }] = <[Step; 3]>::try_from(steps).ok()?
    else {
        return None;
    };
    // clang writes bitcode to opt's input; opt's output is the translator's input.
    let clang_out = cc1.iter().skip_while(|a| *a != "-o").nth(1)?;
    let emits_bitcode = cc1.iter().any(|a| a == "-emit-llvm-bc");
    (emits_bitcode && *clang_out == opt_in && opt_out == spirv_in).then_some(Chain {
        cc1,
        data_layout,
        pipeline,
        output,
        max_version,
        exts,
        preserve_arg_types,
    })
}

/// The step `argv` asks for, or `None` to decline it.
fn parse(argv: &[String]) -> Option<Step> {
    let (tool, args) = argv.split_first()?;
    let mut input = None;
    let mut output = None;
    let mut rest = args.iter();
    let positional = |a: &String, input: &mut Option<String>| {
        if input.is_some() || a.starts_with('-') {
            return false;
        }
        *input = Some(a.clone());
        true
    };
    match tool.as_str() {
        "clang-15" => {
            let (first, cc1) = args.split_first()?;
            (first == "-cc1").then(|| Step::Cc1(cc1.to_vec()))
        }
        "opt-15" => {
            let (mut data_layout, mut o2, mut passes, mut globals) = (None, false, None, 0);
            while let Some(a) = rest.next() {
                match a.as_str() {
                    "-o" => output = Some(rest.next()?.clone()),
                    "-O2" => o2 = true,
                    g if OPT_GLOBALS.contains(&g) => globals += 1,
                    _ if a.starts_with("--data-layout=") => {
                        data_layout = Some(a["--data-layout=".len()..].to_string())
                    }
                    _ if a.starts_with("-passes=") && passes.is_none() => {
                        passes = Some(a["-passes=".len()..].to_string())
                    }
                    _ if positional(a, &mut input) => {}
                    _ => return None,
                }
            }
            // The vectorisers' options are this process's global setting: a pipeline runs
            // here with exactly those, or (when it has no vectoriser) with none given.
            let pipeline = match (o2, passes) {
                (true, None) => "default<O2>".to_string(),
                (false, Some(p)) if !p.is_empty() => p,
                _ => return None,
            };
            let as_set = globals == OPT_GLOBALS.len()
                || (globals == 0
                    && !pipeline.contains("default<")
                    && !pipeline.contains("vectorize"));
            as_set.then_some(())?;
            Some(Step::Opt {
                input: input?,
                output: output?,
                data_layout,
                pipeline,
            })
        }
        "llvm-spirv-15" => {
            let (mut max_version, mut exts, mut preserve_arg_types) = (0x0001_0300, None, false);
            while let Some(a) = rest.next() {
                match a.as_str() {
                    "-o" => output = Some(rest.next()?.clone()),
                    "--preserve-ocl-kernel-arg-type-metadata-through-string" => {
                        preserve_arg_types = true
                    }
                    _ if a.starts_with("--spirv-max-version=") => {
                        max_version = match &a["--spirv-max-version=".len()..] {
                            "1.0" => 0x0001_0000,
                            "1.1" => 0x0001_0100,
                            "1.2" => 0x0001_0200,
                            "1.3" => 0x0001_0300,
                            _ => return None,
                        }
                    }
                    _ if a.starts_with("--spirv-ext=") && exts.is_none() => {
                        exts = Some(a["--spirv-ext=".len()..].to_string())
                    }
                    _ if positional(a, &mut input) => {}
                    _ => return None,
                }
            }
            Some(Step::Spirv {
                input: input?,
                output: output?,
                max_version,
                exts: exts.unwrap_or_default(),
                preserve_arg_types,
            })
        }
        _ => None,
    }
}

#[cfg(not(gencl_clc_unavailable))]
mod ffi {
    use std::ffi::{c_char, c_int, c_uint, CString};

    extern "C" {
        fn gencl_clc_init(argc: c_int, argv: *const *const c_char) -> c_int;
        fn gencl_clc_cc1(argc: c_int, argv: *const *const c_char, resource: *const c_char)
            -> c_int;
        fn gencl_clc_opt(
            input: *const c_char,
            output: *const c_char,
            data_layout: *const c_char,
            pipeline: *const c_char,
        ) -> c_int;
        #[allow(clippy::too_many_arguments)]
        fn gencl_clc_chain(
            argc: c_int,
            argv: *const *const c_char,
            resource: *const c_char,
            data_layout: *const c_char,
            pipeline: *const c_char,
            spv_out: *const c_char,
            max_version: c_uint,
            exts: *const c_char,
            preserve_arg_types: c_int,
        ) -> c_int;
        fn gencl_clc_spirv(
            input: *const c_char,
            output: *const c_char,
            max_version: c_uint,
            exts: *const c_char,
            preserve_arg_types: c_int,
        ) -> c_int;
    }

    fn c(s: &str) -> Option<CString> {
        CString::new(s).ok()
    }

    fn with_argv<R>(args: &[&str], f: impl FnOnce(c_int, *const *const c_char) -> R) -> Option<R> {
        let owned: Vec<CString> = args.iter().map(|a| c(a)).collect::<Option<_>>()?;
        let ptrs: Vec<*const c_char> = owned.iter().map(|a| a.as_ptr()).collect();
        Some(f(ptrs.len() as c_int, ptrs.as_ptr()))
    }

    pub fn init(args: &[&str]) -> bool {
        // SAFETY: argv points at `args.len()` NUL-terminated strings that outlive the call;
        // LLVM copies what it keeps.
        with_argv(args, |n, p| unsafe { gencl_clc_init(n, p) }) == Some(0)
    }

    pub fn cc1(args: &[String]) -> Option<bool> {
        let resource = c(env!("GENCL_CLANG_RESOURCE_DIR"))?;
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // SAFETY: as in `init`; `resource` lives until the call returns.
        with_argv(
            &args,
            |n, p| unsafe { gencl_clc_cc1(n, p, resource.as_ptr()) } == 0,
        )
    }

    pub fn opt(
        input: &str,
        output: &str,
        data_layout: Option<&str>,
        pipeline: &str,
    ) -> Option<bool> {
        let (i, o, p) = (c(input)?, c(output)?, c(pipeline)?);
        let dl = match data_layout {
            Some(d) => Some(c(d)?),
            None => None,
        };
        let dl_ptr = dl.as_ref().map_or(std::ptr::null(), |d| d.as_ptr());
        // SAFETY: every pointer is a NUL-terminated string alive across the call, or null for
        // the data layout, which the shim checks.
        Some(unsafe { gencl_clc_opt(i.as_ptr(), o.as_ptr(), dl_ptr, p.as_ptr()) } == 0)
    }

    /// The chain's outcome: 0 done, 1 clang failed, 2 a later step failed.
    pub fn chain(chain: &super::Chain) -> Option<c_int> {
        let resource = c(env!("GENCL_CLANG_RESOURCE_DIR"))?;
        let dl = c(chain.data_layout.as_deref().unwrap_or(""))?;
        let (p, o, e) = (c(&chain.pipeline)?, c(&chain.output)?, c(&chain.exts)?);
        let args: Vec<&str> = chain.cc1.iter().map(String::as_str).collect();
        // SAFETY: argv as in `init`; every other pointer is a NUL-terminated string alive
        // across the call.
        with_argv(&args, |n, a| unsafe {
            gencl_clc_chain(
                n,
                a,
                resource.as_ptr(),
                dl.as_ptr(),
                p.as_ptr(),
                o.as_ptr(),
                chain.max_version,
                e.as_ptr(),
                c_int::from(chain.preserve_arg_types),
            )
        })
    }

    pub fn spirv(
        input: &str,
        output: &str,
        max_version: u32,
        exts: &str,
        preserve_arg_types: bool,
    ) -> Option<bool> {
        let (i, o, e) = (c(input)?, c(output)?, c(exts)?);
        // SAFETY: NUL-terminated strings alive across the call.
        Some(
            unsafe {
                gencl_clc_spirv(
                    i.as_ptr(),
                    o.as_ptr(),
                    max_version,
                    e.as_ptr(),
                    c_int::from(preserve_arg_types),
                )
            } == 0,
        )
    }
}

/// Run clang's cc1 `args` with `run` (a cc1 step, or a chain that starts with it), through a
/// precompiled header when one can stand in for the headers; `clang_failed` tells a result
/// in which clang failed (its log may blame the header: then it runs again without).
#[cfg(not(gencl_clc_unavailable))]
fn with_pch<R>(
    args: &[String],
    pchs: &mut pch::Cache,
    capture: &Capture,
    mut run: impl FnMut(&[String]) -> R,
    clang_failed: impl Fn(&R) -> bool,
) -> R {
    let resource = std::path::Path::new(env!("GENCL_CLANG_RESOURCE_DIR"));
    let Some(plan) = pchs.plan(args, resource) else {
        return run(args);
    };
    // A PCH whose headers printed anything (a warning about a program's macro) is not
    // used: the compile with it would not print that again.
    let made = pchs.get(&plan, &mut |a| {
        let built = ffi::cc1(a);
        let quiet = capture.take().is_empty();
        capture.reset();
        built.map(|ok| ok && quiet)
    });
    let Some(file) = made else {
        return run(args);
    };
    let done = run(&pch::with_pch(args, &plan, &file));
    if clang_failed(&done) && pch::blames_pch(&capture.take()) {
        pchs.refuse(&plan);
        capture.reset();
        return run(args);
    }
    done
}

/// Run a chain: the reply's code.
#[cfg(not(gencl_clc_unavailable))]
fn execute_chain(chain: &Chain, pchs: &mut pch::Cache, capture: &Capture) -> u8 {
    let outcome = with_pch(
        &chain.cc1,
        pchs,
        capture,
        |cc1| {
            ffi::chain(&Chain {
                cc1: cc1.to_vec(),
                ..chain.clone()
            })
        },
        |r| *r == Some(1),
    );
    match outcome {
        Some(0) => wire::OK,
        Some(1) => wire::FAILED,
        _ => INCOMPLETE,
    }
}

/// Run `step`: `Some(success)`, or `None` if it cannot be run here (declined).
#[cfg(not(gencl_clc_unavailable))]
fn execute(step: &Step, pchs: &mut pch::Cache, capture: &Capture) -> Option<bool> {
    match step {
        Step::Cc1(args) => with_pch(args, pchs, capture, ffi::cc1, |r| *r == Some(false)),
        Step::Opt {
            input,
            output,
            data_layout,
            pipeline,
        } => ffi::opt(input, output, data_layout.as_deref(), pipeline),
        Step::Spirv {
            input,
            output,
            max_version,
            exts,
            preserve_arg_types,
        } => ffi::spirv(input, output, *max_version, exts, *preserve_arg_types),
    }
}

/// What the steps print to stderr (fd 2), captured per request in an anonymous file.
struct Capture {
    fd: libc::c_int,
}

impl Capture {
    /// Point fd 2 at an anonymous file and fd 1 at /dev/null; the replies go out on a copy of
    /// the original stdout, so that nothing a library prints can break the framing.
    fn install() -> std::io::Result<(Capture, std::fs::File)> {
        use std::os::fd::FromRawFd;
        // SAFETY: plain descriptor calls on descriptors this process owns; each result is
        // checked before use, and the File takes sole ownership of the duplicated stdout.
        unsafe {
            let fd = libc::memfd_create(c"gencl-clc-stderr".as_ptr(), libc::MFD_CLOEXEC);
            if fd < 0 {
                return Err(std::io::Error::last_os_error());
            }
            let out = libc::dup(1);
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
            if out < 0 || null < 0 || libc::dup2(fd, 2) < 0 || libc::dup2(null, 1) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::close(null);
            Ok((Capture { fd }, std::fs::File::from_raw_fd(out)))
        }
    }

    fn reset(&self) {
        // SAFETY: `fd` is this process's memfd; fd 2 shares its offset.
        unsafe {
            libc::ftruncate(self.fd, 0);
            libc::lseek(self.fd, 0, libc::SEEK_SET);
        }
    }

    fn take(&self) -> Vec<u8> {
        // SAFETY: as in `reset`; the buffer is as long as the length passed.
        unsafe {
            let len = libc::lseek(self.fd, 0, libc::SEEK_END).max(0) as usize;
            let mut buf = vec![0u8; len];
            let n = libc::pread(self.fd, buf.as_mut_ptr().cast(), len, 0);
            buf.truncate(n.max(0) as usize);
            buf
        }
    }
}

#[cfg(gencl_clc_unavailable)]
fn main() -> ExitCode {
    eprintln!(
        "gencl-clc was built without the in-process compiler ({}); gencl runs clang-15 as a process",
        env!("GENCL_CLC_UNAVAILABLE")
    );
    ExitCode::from(3)
}

#[cfg(not(gencl_clc_unavailable))]
fn main() -> ExitCode {
    if std::env::args().nth(1).is_some() {
        eprintln!("gencl-clc takes no arguments: the gencl JIT starts it and talks to it on stdin");
        return ExitCode::from(2);
    }
    let mut init = vec!["gencl-clc"];
    init.extend(OPT_GLOBALS);
    if !ffi::init(&init) {
        return ExitCode::from(1);
    }
    let (capture, out) = match Capture::install() {
        Ok(c) => c,
        Err(_) => return ExitCode::from(1),
    };
    let mut from = BufReader::new(std::io::stdin().lock());
    let mut to = BufWriter::new(out);
    // The precompiled headers, removed when the helper ends.
    let mut pchs = pch::Cache::default();
    loop {
        let argv = match wire::read_request(&mut from) {
            Ok(a) => a,
            // The JIT's process closed the pipe: done.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return ExitCode::SUCCESS,
            Err(_) => return ExitCode::from(1),
        };
        capture.reset();
        let code = if argv.first().is_some_and(|a| a == "chain") {
            match parse_chain(&argv) {
                Some(chain) => execute_chain(&chain, &mut pchs, &capture),
                None => wire::DECLINED,
            }
        } else {
            match parse(&argv).and_then(|s| execute(&s, &mut pchs, &capture)) {
                None => wire::DECLINED,
                Some(true) => wire::OK,
                Some(false) => wire::FAILED,
            }
        };
        if wire::write_reply(&mut to, code, &capture.take()).is_err() {
            return ExitCode::from(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn command_lines_the_front_end_issues_are_parsed() {
        assert_eq!(
            parse(&argv(
                "clang-15 -cc1 -triple spir64-unknown-unknown a.cl -o a.bc"
            )),
            Some(Step::Cc1(argv(
                "-triple spir64-unknown-unknown a.cl -o a.bc"
            )))
        );
        assert_eq!(
            parse(&argv(
                "opt-15 --data-layout=e-n8 -O2 -vectorize-slp=false -vectorize-loops=false -instcombine-max-iterations=1 a.bc -o b.bc"
            )),
            Some(Step::Opt {
                input: "a.bc".into(),
                output: "b.bc".into(),
                data_layout: Some("e-n8".into()),
                pipeline: "default<O2>".into()
            })
        );
        assert_eq!(
            parse(&argv("opt-15 --data-layout=e -passes=verify a.bc -o b.bc")),
            Some(Step::Opt {
                input: "a.bc".into(),
                output: "b.bc".into(),
                data_layout: Some("e".into()),
                pipeline: "verify".into()
            })
        );
        assert_eq!(
            parse(&argv(
                "llvm-spirv-15 --spirv-max-version=1.3 --spirv-ext=+A,+B \
                 --preserve-ocl-kernel-arg-type-metadata-through-string a.bc -o a.spv"
            )),
            Some(Step::Spirv {
                input: "a.bc".into(),
                output: "a.spv".into(),
                max_version: 0x0001_0300,
                exts: "+A,+B".into(),
                preserve_arg_types: true
            })
        );
    }

    #[test]
    fn anything_else_is_declined() {
        for line in [
            "clang-15 -E a.cl",
            // Vectorisation other than this process's global setting.
            "opt-15 -O2 a.bc -o b.bc",
            "opt-15 -O2 -vectorize-slp=false -vectorize-loops=false -passes=verify a.bc -o b.bc",
            "opt-15 -passes=function(loop-vectorize) a.bc -o b.bc",
            "opt-15 -passes=sroa -passes=gvn a.bc -o b.bc",
            // The legalisation steps that stay processes.
            "opt-15 -enable-new-pm=0 -expand-reductions a.bc -o b.bc",
            "opt-15 -passes=verify a.bc b.bc -o c.bc",
            "opt-15 -passes=verify a.bc -o",
            "llvm-spirv-15 -r a.spv -o a.bc",
            "llvm-spirv-15 --spirv-max-version=1.4 a.bc -o a.spv",
            "llvm-dis-15 a.bc -o a.ll",
            "",
        ] {
            assert_eq!(parse(&argv(line)), None, "{line}");
        }
    }
}
