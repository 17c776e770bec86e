//! What the tests of gencld share: a service on a socket of its own, and a fixed-seed
//! generator for their pseudo-random choices.
#![allow(dead_code)]

use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A running gencld, killed when dropped, and its folder, removed then.
pub struct Daemon(pub Child, PathBuf);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let _ = std::fs::remove_dir_all(&self.1);
    }
}

/// gencld on the emulated device, listening on a socket in a fresh folder named by `tag`.
pub fn start_gencld(tag: &str) -> (Daemon, PathBuf) {
    start_gencld_with(tag, &[], Stdio::null())
}

/// As `start_gencld`, with `env` set and its stderr going to `stderr`; returns once it
/// accepts connections.
pub fn start_gencld_with(tag: &str, env: &[(&str, &str)], stderr: Stdio) -> (Daemon, PathBuf) {
    let dir = std::env::temp_dir().join(format!("gencl-svc-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sock = dir.join("gencld.sock");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gencld"));
    cmd.arg("--socket")
        .arg(&sock)
        .env("GENCL_DEVICE", "emulated")
        .stderr(stderr);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut d = Daemon(cmd.spawn().expect("start gencld"), dir);
    for _ in 0..200 {
        if UnixStream::connect(&sock).is_ok() {
            return (d, sock);
        }
        assert!(d.0.try_wait().unwrap().is_none(), "gencld exited early");
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("gencld did not listen");
}

/// xorshift64*: pseudo-random choices that are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// In `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}
