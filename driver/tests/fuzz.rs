//! Fuzzing of gencl's untrusted inputs (issue 26, docs/reliability.md): mutated inputs from a
//! corpus kept in the repo, each handed to the code that parses that input; any panic that
//! escapes it (one contained and answered with an error is fine) or any input that takes more
//! than its time bound is a finding. Targets:
//! - `spirv`: clCreateProgramWithIL's SPIR-V through the whole JIT (`gencl_jit::compile`);
//!   seeds: tests/fuzz/spirv/*.spv (made from small OpenCL C programs);
//! - `binary`: clCreateProgramWithBinary's loader (`binary::decode`); seeds: the programs the
//!   SPIR-V seeds build, encoded;
//! - `protocol`: the service's request decoder (`protocol::decode_call`, the call id then the
//!   `Request`, as gencld decodes each frame); seeds: calls of every kind of request;
//! - `aub`: the GPU model's command streamer, batch parser, GTT walks and EUs, through an AUB
//!   replay (`aub::replay::Replay`); seeds: NEO's recording of a vector add (tests/neo);
//! - `opencl_c`: clCreateProgramWithSource's source and clBuildProgram's options through the
//!   whole OpenCL C path (options parser, clang or gencl-clc, SPIR-V, the JIT); seeds: the
//!   kernels of tests/kernels and tests/bench with a set of option strings.
//!
//! The mutations (bit flips, interesting words, copied, deleted and duplicated word ranges,
//! truncation, splices of two seeds) come from a fixed-seed generator, so a run is the same
//! every time: CI runs a bounded number per target. Longer runs: `GENCL_FUZZ_ITERS=N` (the
//! multiple of the CI counts) and `GENCL_FUZZ_SEED=S`; findings are written to
//! target/fuzz-findings/<target>/ and, once fixed, kept in tests/fuzz/<target>/ as regression
//! inputs, which every run feeds first, unmutated.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use gencl::protocol::{self, Launch, ProgramSource, Request, WireArg};
use gencl_jit::CompileInput;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

mod service_common;
use service_common::Rng;

const INTERESTING: [u32; 12] = [
    0,
    1,
    2,
    3,
    4,
    0x7f,
    0xff,
    0xffff,
    0x8000_0000,
    0x7fff_ffff,
    0xffff_ffff,
    0x0001_0000,
];

/// One to four mutations of `seed` (word-aligned where the input is words, as SPIR-V is).
fn mutate(rng: &mut Rng, seed: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let words = v.len() / 4;
        match rng.below(9) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] = rng.next() as u8;
            }
            2 if words > 0 => {
                let w = rng.below(words) * 4;
                let x = INTERESTING[rng.below(INTERESTING.len())];
                v[w..w + 4].copy_from_slice(&x.to_le_bytes());
            }
            3 if words > 0 => {
                // An instruction's word count (the high half of its first word) changed.
                let w = rng.below(words) * 4;
                let count = (rng.below(8) as u16).to_le_bytes();
                v[w + 2..w + 4].copy_from_slice(&count);
            }
            4 if words > 1 => {
                let (a, b) = (rng.below(words) * 4, rng.below(words) * 4);
                let x: [u8; 4] = v[a..a + 4].try_into().unwrap();
                v[b..b + 4].copy_from_slice(&x);
            }
            5 if words > 1 => {
                let a = rng.below(words) * 4;
                let n = (1 + rng.below(8)) * 4;
                v.drain(a..(a + n).min(v.len()));
            }
            6 if words > 1 && v.len() < 1 << 20 => {
                let a = rng.below(words) * 4;
                let n = ((1 + rng.below(8)) * 4).min(v.len() - a);
                let chunk = v[a..a + n].to_vec();
                let at = rng.below(words) * 4;
                v.splice(at..at, chunk);
            }
            7 if !v.is_empty() => v.truncate(rng.below(v.len())),
            8 if !others.is_empty() => {
                let o = &others[rng.below(others.len())];
                let cut = rng.below(v.len() / 4 + 1) * 4;
                let from = rng.below(o.len() / 4 + 1) * 4;
                v.truncate(cut);
                v.extend_from_slice(&o[from..]);
            }
            _ => {}
        }
    }
    v
}

struct Target {
    name: &'static str,
    /// Mutated inputs per CI run.
    iterations: usize,
    /// Longest an input may take.
    bound: Duration,
    run: fn(&[u8]),
}

fn spirv(input: &[u8]) {
    let _ = gencl_jit::compile(CompileInput::SpirV(input), "");
}

fn binary(input: &[u8]) {
    let _ = gencl_jit::binary::decode(input);
}

fn request(input: &[u8]) {
    let _ = protocol::decode_call(input);
}

fn aub(input: &[u8]) {
    let budget = gencl_kmd::gpu::cs::Budget {
        max_work: 1 << 24,
        max_commands: 1 << 16,
        max_time: Some(Duration::from_secs(2)),
        max_starved: None,
        host_threads: 1,
        translate: gencl_kmd::gpu::eu::translate::Policy {
            on: gencl_kmd::gpu::eu::translate::enabled(),
            hot: 1,
        },
        spread: gencl_kmd::gpu::cs::Spread::Never,
    };
    let mut r = gencl_kmd::aub::replay::Replay::new(budget);
    let _ = r.run(input);
}

/// An OpenCL C input: options, a NUL, the source (lossily UTF-8: the API takes C strings).
fn opencl_c(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    let (options, source) = text.split_once('\0').unwrap_or(("", &text));
    let _ = gencl_jit::compile(CompileInput::OpenClC(source), options);
}

fn spirv_seeds() -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fuzz/spirv"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    match target {
        "spirv" => spirv_seeds(),
        "binary" => spirv_seeds()
            .iter()
            .filter_map(|s| gencl_jit::compile(CompileInput::SpirV(s), "").ok())
            .map(|p| gencl_jit::binary::encode(&p))
            .collect(),
        "protocol" => {
            let launch = Launch {
                tag: 7,
                queue: 2,
                context: 0,
                program: 3,
                kernel: 0,
                args: vec![
                    WireArg::Buffer { id: 5, offset: 64 },
                    WireArg::Bytes(vec![1, 2, 3, 4]),
                    WireArg::Local { size: 256 },
                    WireArg::NullBuffer,
                ],
                work_dim: 2,
                global_offset: [0, 4, 0],
                global_size: [64, 8, 1],
                local_size: [16, 2, 1],
            };
            [
                Request::Hello {
                    version: protocol::PROTOCOL_VERSION,
                },
                Request::CreateBuffer { size: 4096 },
                Request::FreeBuffer { id: 9 },
                Request::BuildProgram {
                    source: ProgramSource::OpenClC("kernel void k() {}".into()),
                    options: "-D N=4".into(),
                    spec_constants: vec![(1, vec![0, 0, 0, 1])],
                },
                Request::BuildProgram {
                    source: ProgramSource::SpirV(spirv_seeds()[0].clone()),
                    options: String::new(),
                    spec_constants: Vec::new(),
                },
                Request::LinkPrograms {
                    modules: vec![vec![3, 2, 0x23, 7]],
                    options: "-create-library".into(),
                },
                Request::CompileProgram {
                    source: ProgramSource::Binary(b"GENCLBIN".to_vec()),
                    options: "-I x".into(),
                    headers: vec![("a.h".into(), "#define A 1".into())],
                },
                Request::ProgramBinary { id: 2 },
                Request::FreeProgram { id: 2 },
                Request::Launch(Box::new(launch.clone())),
                Request::Post(Box::new(launch.clone())),
                Request::PostWaited(Box::new(launch)),
            ]
            .into_iter()
            .enumerate()
            .map(|(id, request)| {
                postcard::to_stdvec(&protocol::Call {
                    id: id as u64 * 1000,
                    request,
                })
                .unwrap()
            })
            .collect()
        }
        "opencl_c" => {
            let mut files = Vec::new();
            for dir in ["tests/kernels", "tests/bench"] {
                for e in std::fs::read_dir(root().join(dir)).unwrap() {
                    let p = e.unwrap().path();
                    if p.extension().is_some_and(|x| x == "cl") {
                        files.push(p);
                    }
                }
            }
            files.sort();
            let options = [
                "",
                "-D N=4 -cl-std=CL2.0",
                "-cl-opt-disable -cl-mad-enable",
                "-cl-fast-relaxed-math -D F=1.5f -w",
                "-cl-std=CL3.0 -cl-denorms-are-zero -g",
            ];
            files
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    let mut v = options[k % options.len()].as_bytes().to_vec();
                    v.push(0);
                    v.extend(std::fs::read(f).unwrap());
                    v
                })
                .collect()
        }
        "aub" => {
            let z = std::fs::read(root().join("tests/neo/vadd.aub.zst")).unwrap();
            vec![gencl_kmd::aub::decompress(z).unwrap()]
        }
        _ => unreachable!(),
    }
}

/// Regression inputs kept for `target` (tests/fuzz/<target>/*.bin).
fn regressions(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = root().join("tests/fuzz").join(target);
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<_> = rd
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    v.sort();
    v
}

/// The thread the inputs of one target run on, one after another. One thread for the whole
/// run, not one per input: a thread (with a 64 MiB stack, for the JIT's recursion on deep
/// inputs) spawned and detached per input, tens of thousands of times in three tests at
/// once, crashed the harness itself about one run in three on glibc 2.36 (SIGSEGV in
/// `pthread_detach` on the thread just spawned, its stack already unmapped; docs/reliability.md).
struct Worker {
    inputs: mpsc::Sender<Vec<u8>>,
    results: mpsc::Receiver<Result<(), String>>,
    thread: std::thread::JoinHandle<()>,
}

impl Worker {
    fn new(run: fn(&[u8])) -> Worker {
        let (inputs, rx) = mpsc::channel::<Vec<u8>>();
        let (tx, results) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                for input in rx {
                    let r = std::panic::catch_unwind(AssertUnwindSafe(|| run(&input)));
                    let r = r.map_err(|p| {
                        p.downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "panic".into())
                    });
                    if tx.send(r).is_err() {
                        return;
                    }
                }
            })
            .unwrap();
        Worker {
            inputs,
            results,
            thread,
        }
    }

    /// The worker's thread ended with the last input (it is joined).
    fn finish(self) {
        drop(self.inputs);
        let _ = self.thread.join();
    }
}

/// Run `input` through `t` on the worker (started first if there is none): `Err` with the
/// panic's message or a timeout. A timed-out input's worker is left running and forgotten
/// (the finding ends the test).
fn one(t: &Target, worker: &mut Option<Worker>, input: Vec<u8>) -> Result<(), String> {
    let w = worker.get_or_insert_with(|| Worker::new(t.run));
    w.inputs.send(input).expect("the worker takes inputs");
    match w.results.recv_timeout(t.bound) {
        Ok(r) => r.map_err(|m| format!("panicked: {m}")),
        Err(_) => {
            *worker = None;
            Err(format!("took longer than {:?}", t.bound))
        }
    }
}

fn fuzz(t: Target) {
    let scale: usize = std::env::var("GENCL_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let seed: u64 = std::env::var("GENCL_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED);
    let seeds = seeds(t.name);
    assert!(!seeds.is_empty(), "{}: no seeds", t.name);
    let mut findings = Vec::new();
    let save = |input: &[u8], why: &str, findings: &mut Vec<String>| {
        let dir = root().join("target/fuzz-findings").join(t.name);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{:016x}.bin", gencl_jit::binary::fnv(input)));
        std::fs::write(&file, input).unwrap();
        findings.push(format!("{}: {why}", file.display()));
    };
    let mut worker = None;
    // Every seed and regression input as it is: none may fail.
    for s in &seeds {
        if let Err(why) = one(&t, &mut worker, s.clone()) {
            save(s, &why, &mut findings);
        }
    }
    for (path, input) in regressions(t.name) {
        if let Err(why) = one(&t, &mut worker, input) {
            findings.push(format!("regression input {}: {why}", path.display()));
        }
    }
    // The input in hand, on disk: a stack overflow aborts the process, and then this file is
    // the finding.
    let dir = root().join("target/fuzz-findings").join(t.name);
    std::fs::create_dir_all(&dir).unwrap();
    let current = dir.join("current-input");
    let mut rng = Rng(seed ^ gencl_jit::binary::fnv(t.name.as_bytes()));
    let start = Instant::now();
    let n = t.iterations * scale;
    for _ in 0..n {
        let pick = rng.below(seeds.len());
        let input = mutate(&mut rng, &seeds[pick], &seeds);
        std::fs::write(&current, &input).unwrap();
        if let Err(why) = one(&t, &mut worker, input.clone()) {
            save(&input, &why, &mut findings);
            if why.starts_with("took longer") || findings.len() >= 20 {
                break;
            }
        }
    }
    let _ = std::fs::remove_file(&current);
    if let Some(w) = worker {
        w.finish();
    }
    println!(
        "fuzz {}: {n} mutated inputs from {} seeds in {:.1} s, {} findings",
        t.name,
        seeds.len(),
        start.elapsed().as_secs_f64(),
        findings.len()
    );
    // The default hook again, so that the test's own failure is printed.
    let _ = std::panic::take_hook();
    assert!(findings.is_empty(), "{}", findings.join("\n"));
}

/// Panics that are caught and answered (rspirv's, inside `frontend::spirv::load`) would print
/// a message each; the harness reports its own findings.
fn quiet() {
    std::panic::set_hook(Box::new(|_| {}));
}

#[test]
fn fuzz_spirv() {
    quiet();
    fuzz(Target {
        name: "spirv",
        iterations: 3000,
        bound: Duration::from_secs(20),
        run: spirv,
    });
}

#[test]
fn fuzz_program_binary() {
    quiet();
    fuzz(Target {
        name: "binary",
        iterations: 20_000,
        bound: Duration::from_secs(5),
        run: binary,
    });
}

#[test]
fn fuzz_protocol_decoder() {
    quiet();
    fuzz(Target {
        name: "protocol",
        iterations: 50_000,
        bound: Duration::from_secs(5),
        run: request,
    });
}

#[test]
fn fuzz_aub_replay() {
    quiet();
    fuzz(Target {
        name: "aub",
        iterations: 200,
        bound: Duration::from_secs(30),
        run: aub,
    });
}

#[test]
fn fuzz_opencl_c() {
    quiet();
    fuzz(Target {
        name: "opencl_c",
        iterations: 1000,
        bound: Duration::from_secs(60),
        run: opencl_c,
    });
}

#[test]
fn mutations_are_deterministic_and_change_their_input() {
    let seed = (0u8..64).collect::<Vec<u8>>();
    let run = |s| {
        let mut rng = Rng(s);
        (0..100)
            .map(|_| mutate(&mut rng, &seed, &[]))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
    assert!(run(1).iter().filter(|m| **m != seed).count() > 80);
}
