//! Intel's own command streams on the GPU model: each program of `tests/neo/record.c`, as
//! NEO (Intel's runtime, Debian's intel-opencl-icd) recorded it for a Skylake GT2 in its
//! AUB mode, replays on the model, and every buffer then holds what PoCL or the case's CPU
//! reference computed (`tests/neo/CASE.expect` and `CASE.out.zst`, made by
//! `tests/neo/record.sh`). A buffer is found in the recording by its initial contents
//! (record.c makes the first 64 bytes of each unique), written to a physical page
//! that the replayed context's PPGTT maps.

use std::path::{Path, PathBuf};

use gencl_kmd::aub::stream::{Reader, Record};
use gencl_kmd::aub::{decompress, Replay};
use gencl_kmd::gpu::cs::{Budget, Spread};
use gencl_kmd::gpu::eu::translate::Policy;
use gencl_kmd::gpu::GpuMemory;

fn neo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/neo")
}

struct Expected {
    arg: u32,
    bytes: usize,
    mode: String,
    signature: Vec<u8>,
}

fn parse_expect(text: &str) -> Vec<Expected> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 5, "expect line {l:?}");
            assert_eq!(f[0], "buffer");
            let signature = (0..f[4].len() / 2)
                .map(|i| u8::from_str_radix(&f[4][2 * i..2 * i + 2], 16).unwrap())
                .collect();
            Expected {
                arg: f[1].parse().unwrap(),
                bytes: f[2].parse().unwrap(),
                mode: f[3].to_string(),
                signature,
            }
        })
        .collect()
}

/// Units in the last place between two floats of the same type (as ordered integers).
fn ulps32(a: f32, b: f32) -> u64 {
    let k = |x: f32| {
        let i = x.to_bits() as i32;
        i64::from(if i < 0 { i32::MIN - i } else { i })
    };
    (k(a) - k(b)).unsigned_abs()
}

fn ulps64(a: f64, b: f64) -> u128 {
    let k = |x: f64| {
        let i = x.to_bits() as i64;
        i128::from(if i < 0 { i64::MIN - i } else { i })
    };
    (k(a) - k(b)).unsigned_abs()
}

/// The first mismatch of `got` against `want` under `mode`, as a message.
fn compare(mode: &str, got: &[u8], want: &[u8]) -> Option<String> {
    let f32s = |b: &[u8]| -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let f64s = |b: &[u8]| -> Vec<f64> {
        b.chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    if mode == "exact" {
        let i = got.iter().zip(want).position(|(a, b)| a != b)?;
        return Some(format!(
            "byte {i}: {:#04x}, expected {:#04x}",
            got[i], want[i]
        ));
    }
    if let Some(n) = mode.strip_prefix("f32ulp") {
        let n: u64 = n.parse().unwrap();
        let (g, w) = (f32s(got), f32s(want));
        let i = (0..g.len()).find(|&i| !(g[i] == w[i] || ulps32(g[i], w[i]) <= n))?;
        return Some(format!(
            "float {i}: {} expected {} (within {n} ulp)",
            g[i], w[i]
        ));
    }
    if let Some(x) = mode.strip_prefix("f32abs") {
        let x: f32 = x.parse().unwrap();
        let (g, w) = (f32s(got), f32s(want));
        let i = (0..g.len()).find(|&i| (g[i] - w[i]).is_nan() || (g[i] - w[i]).abs() > x)?;
        return Some(format!(
            "float {i}: {} expected {} (within {x})",
            g[i], w[i]
        ));
    }
    if let Some(x) = mode.strip_prefix("f64abs") {
        let x: f64 = x.parse().unwrap();
        let (g, w) = (f64s(got), f64s(want));
        let i = (0..g.len()).find(|&i| (g[i] - w[i]).is_nan() || (g[i] - w[i]).abs() > x)?;
        return Some(format!(
            "double {i}: {} expected {} (within {x})",
            g[i], w[i]
        ));
    }
    if let Some(n) = mode.strip_prefix("f64ulp") {
        let n: u128 = n.parse().unwrap();
        let (g, w) = (f64s(got), f64s(want));
        let i = (0..g.len()).find(|&i| !(g[i] == w[i] || ulps64(g[i], w[i]) <= n))?;
        return Some(format!(
            "double {i}: {} expected {} (within {n} ulp)",
            g[i], w[i]
        ));
    }
    panic!("unknown compare mode {mode}");
}

/// What one replay of a case left: each expected buffer's bytes and address, and the
/// model's counters.
struct Replayed {
    buffers: Vec<(u64, Vec<u8>)>,
    counters: gencl_kmd::gpu::Counters,
    submissions: usize,
}

/// Replays one recorded case with `budget` and reads back its buffers.
fn replay_case(
    dir: &Path,
    case: &str,
    budget: Budget,
) -> Result<(Replayed, Vec<Expected>, Vec<u8>), String> {
    let read = |name: String| {
        let p = dir.join(&name);
        std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let aub = decompress(read(format!("{case}.aub.zst"))?)?;
    let out = decompress(read(format!("{case}.out.zst"))?)?;
    let text = String::from_utf8(read(format!("{case}.expect"))?).unwrap();
    let expected = parse_expect(&text);

    // Where the recording put each buffer: the physical write that starts with it.
    let mut found: Vec<Option<u64>> = vec![None; expected.len()];
    for r in Reader::new(&aub) {
        if let Record::MemoryWrite { space, addr, data } = r.map_err(|e| e.to_string())? {
            if !space.is_physical() {
                continue;
            }
            for (k, e) in expected.iter().enumerate() {
                if data.starts_with(&e.signature) {
                    if found[k].is_some_and(|pa| pa != addr) {
                        return Err(format!("buffer {} found twice in the recording", e.arg));
                    }
                    found[k] = Some(addr);
                }
            }
        }
    }

    let mut replay = Replay::new(budget);
    replay.run(&aub).map_err(|e| format!("replay: {e}"))?;
    let ppgtt = replay.ppgtt().ok_or("no submission in the recording")?;
    let pages = ppgtt.mapped_pages();
    let mut buffers = Vec::new();
    for (k, e) in expected.iter().enumerate() {
        let pa = found[k].ok_or(format!("buffer {} not in the recording", e.arg))?;
        let va = pages
            .iter()
            .find(|(_, &p)| p == pa & !0xfff)
            .map(|(&v, _)| v | (pa & 0xfff))
            .ok_or(format!("buffer {} (physical {pa:#x}) not mapped", e.arg))?;
        let mut got = vec![0u8; e.bytes];
        ppgtt.read(va, &mut got).map_err(|e| e.to_string())?;
        buffers.push((va, got));
    }
    let replayed = Replayed {
        buffers,
        counters: replay.counters(),
        submissions: replay.submissions().len(),
    };
    Ok((replayed, expected, out))
}

/// Replays one recorded case and checks its buffers; returns a failure message.
fn check_case(dir: &Path, case: &str) -> Result<String, String> {
    let (r, expected, out) = replay_case(dir, case, Budget::default())?;
    let mut at = 0;
    let mut summary = Vec::new();
    for (e, (va, got)) in expected.iter().zip(&r.buffers) {
        let want = &out[at..at + e.bytes];
        at += e.bytes;
        if let Some(m) = compare(&e.mode, got, want) {
            return Err(format!("buffer {} at {va:#x}: {m}", e.arg));
        }
        summary.push(format!("buf{}@{va:#x}", e.arg));
    }
    let c = &r.counters;
    Ok(format!(
        "{} submissions, {} threads, {} instructions; {}",
        r.submissions,
        c.threads,
        c.instructions,
        summary.join(" ")
    ))
}

fn cases() -> Vec<String> {
    let dir = neo_dir();
    let mut cases: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().into_string().unwrap();
            n.strip_suffix(".expect").map(str::to_string)
        })
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no recordings in {}", dir.display());
    cases
}

#[test]
fn one_and_many_host_threads_and_the_interpreter_alone_give_the_same_bytes_and_counters() {
    // The model runs a dispatch's thread groups on several host threads (gpu::pool):
    // every recording's buffers are those of the run on one host thread, and so are its
    // counters, but where the work itself depends on the order in which atomics land: a
    // compare-exchange loop retries as often as other groups got in between, on a GPU too.
    // A dispatch of one group spreads its threads over host threads (eu::lanes) in a
    // fourth run, with the same bytes and counters.
    const RETRY_LOOPS: &[&str] = &["atomic_minmax_cmpxchg"];
    let dir = neo_dir();
    let mut failures = Vec::new();
    for case in &cases() {
        let with = |n, spread| {
            replay_case(
                &dir,
                case,
                Budget {
                    host_threads: n,
                    // Every run that can be translated is, against the interpreter alone.
                    translate: Policy { on: true, hot: 1 },
                    spread,
                    ..Budget::default()
                },
            )
            .unwrap()
            .0
        };
        let one = with(1, Spread::Never);
        let many = with(4, Spread::Never);
        let spread = with(4, Spread::Always);
        // And the interpreter alone, every translated run taken out: the same bytes and
        // the same counters, atomics' retries included (one host thread both times).
        let interpreted = replay_case(
            &dir,
            case,
            Budget {
                host_threads: 1,
                translate: Policy { on: false, hot: 1 },
                ..Budget::default()
            },
        )
        .unwrap()
        .0;
        for (k, ((va, a), (_, b))) in one.buffers.iter().zip(&interpreted.buffers).enumerate() {
            if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
                failures.push(format!(
                    "{case}: buffer {k} at {va:#x}, byte {i} differs between translated and interpreted runs"
                ));
            }
        }
        if one.counters != interpreted.counters {
            failures.push(format!(
                "{case}: counters {:?} translated, {:?} interpreted",
                one.counters, interpreted.counters
            ));
        }
        for (k, ((va, a), (_, b))) in one.buffers.iter().zip(&many.buffers).enumerate() {
            if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
                failures.push(format!("{case}: buffer {k} at {va:#x}, byte {i} differs"));
            }
        }
        if one.counters != many.counters && !RETRY_LOOPS.contains(&case.as_str()) {
            failures.push(format!(
                "{case}: counters {:?} on one host thread, {:?} on four",
                one.counters, many.counters
            ));
        }
        for (k, ((va, a), (_, b))) in one.buffers.iter().zip(&spread.buffers).enumerate() {
            if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
                failures.push(format!(
                    "{case}: buffer {k} at {va:#x}, byte {i} differs with single groups spread"
                ));
            }
        }
        if one.counters != spread.counters && !RETRY_LOOPS.contains(&case.as_str()) {
            failures.push(format!(
                "{case}: counters {:?} on one host thread, {:?} with single groups spread",
                one.counters, spread.counters
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn neo_recordings_replay_with_expected_results() {
    let dir = neo_dir();
    let cases = cases();
    let mut failures = Vec::new();
    for case in &cases {
        match check_case(&dir, case) {
            Ok(s) => println!("{case}: ok ({s})"),
            Err(e) => {
                println!("{case}: FAILED: {e}");
                failures.push(format!("{case}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} recordings failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn a_changed_result_is_caught() {
    // The check itself: the vadd recording with its expected output altered fails.
    let dir = neo_dir();
    let tmp = std::env::temp_dir().join(format!("gencl-neo-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for f in ["vadd.aub.zst", "vadd.expect"] {
        std::fs::copy(dir.join(f), tmp.join(f)).unwrap();
    }
    let mut out = decompress(std::fs::read(dir.join("vadd.out.zst")).unwrap()).unwrap();
    let last = out.len() - 1;
    out[last] ^= 0x40;
    // An uncompressed stream is read as is.
    std::fs::write(tmp.join("vadd.out.zst"), &out).unwrap();
    let r = check_case(&tmp, "vadd");
    std::fs::remove_dir_all(&tmp).unwrap();
    let e = r.expect_err("an altered expected result must fail");
    assert!(e.contains("buffer 2"), "{e}");
}
