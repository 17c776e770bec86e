//! `gencl profile` prints the GPU model's counters for one launch; the counts
//! follow from the kernel and the ND-range alone, so they are exact.

use std::process::Command;

fn profile(args: &[&str]) -> std::collections::HashMap<String, String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = Command::new(env!("CARGO_BIN_EXE_gencl"))
        .current_dir(root)
        .arg("profile")
        .args(args)
        .output()
        .expect("run gencl");
    assert!(
        out.status.success(),
        "gencl profile failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn vadd_counts_one_thread_per_thirty_two_items() {
    // SIMD32 (the width chosen for a kernel without divergent loops that does not spill
    // there): 1024 items are 32 threads; each reads a and b and writes c, each access two
    // SIMD16 messages (6 on the buffers' binding-table surfaces, none A64), and ends (EOT).
    let c = profile(&[
        "tests/kernels/vadd.cl",
        "--kernel",
        "vadd",
        "--global",
        "1024",
    ]);
    assert_eq!(c["kernel"], "vadd (SIMD32)");
    assert_eq!(c["threads"], "32");
    assert_eq!(c["sends.surface"], "192");
    assert_eq!(c["sends.a64"], "0");
    assert_eq!(c["sends.eot"], "32");
    assert_eq!(c["sends"], "224");
    let lanes: u64 = c["lane-instructions"].parse().unwrap();
    let insts: u64 = c["instructions"].parse().unwrap();
    assert!(
        lanes <= 32 * insts && lanes >= insts,
        "{lanes} lanes, {insts} instructions"
    );
    assert!(c["modelled-cycles"].parse::<u64>().unwrap() > 0);
}

#[test]
fn partial_groups_still_dispatch_whole_threads() {
    // 1000 items in groups of 50: 20 groups of ceil(50/32) = 2 threads, the second with
    // 18 live lanes; every thread still sends its six messages and its EOT.
    let c = profile(&[
        "tests/kernels/vadd.cl",
        "--kernel",
        "vadd",
        "--global",
        "1000",
    ]);
    assert_eq!(c["threads"], "40");
    assert_eq!(c["sends.surface"], "240");
    assert_eq!(c["sends.eot"], "40");
}

#[test]
fn contended_local_64_bit_atomics_take_the_lock_per_thread() {
    // 256 work-items (16 SIMD16 threads) exchange 21 times each on one local long. The
    // lock is taken once per thread and operation (16 x 21 = 336 times), by one lane, and a
    // thread that finds it held yields; the EU then lets it sleep until the lock's word is
    // written (docs/gpu-model.md, "Spin-waits on SLM"): a take, a release and about two
    // failed attempts (a waiter woken by the holder taking it again) per turn, 1,332
    // messages. Without the sleep, waiters retried at every turn of the holder's quantum:
    // 24,147 (72 per turn); with a lock per lane, about 20 per work-item's operation.
    let c = profile(&[
        "tests/kernels/local_atomic64.cl",
        "--kernel",
        "exchange_one_word",
        "--global",
        "256",
        "--local",
        "256",
    ]);
    assert_eq!(c["kernel"], "exchange_one_word (SIMD16)");
    let atomics: u64 = c["sends.atomic"].parse().unwrap();
    let turns = 16 * 21;
    assert!(
        atomics <= 5 * turns,
        "{atomics} atomic messages for {turns} turns of the lock"
    );
}
