//! The Debian package as a user meets it: `scripts/package.sh` builds it from this build's
//! binaries; dpkg installs it into a clean root (its own dpkg database, nothing else); the
//! ICD loader finds gencl there (clinfo lists the emulated device when asked for it, and no
//! device otherwise), a C program adds two vectors through it; purging it leaves nothing
//! behind but dpkg's own records.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>")
        .to_path_buf()
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run");
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every file under `dir`, relative, sorted (dpkg's own database left out).
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if rel.starts_with("var/lib/dpkg") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_package_installs_runs_and_purges_cleanly() {
    let work = std::env::temp_dir().join(format!("gencl-package-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let root = work.join("root");
    for d in ["var/lib/dpkg/info", "var/lib/dpkg/updates"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for f in ["var/lib/dpkg/status", "var/lib/dpkg/available"] {
        std::fs::write(root.join(f), "").unwrap();
    }
    let deb = run(Command::new("bash")
        .current_dir(ROOT)
        .arg("scripts/package.sh")
        .arg(work.join("out"))
        .env("GENCL_PACKAGE_NO_BUILD", "1")
        .env("GENCL_PACKAGE_FROM", profile_dir()));
    let deb = PathBuf::from(deb.trim());
    assert!(deb.exists(), "{}", deb.display());
    let dpkg = |args: &[&str]| {
        run(Command::new("dpkg")
            .arg(format!("--root={}", root.display()))
            .args(["--force-not-root", "--force-depends", "--log=/dev/null"])
            .args(args))
    };
    dpkg(&["-i", deb.to_str().unwrap()]);
    let triplet = run(Command::new("gcc").arg("-print-multiarch"));
    let libdir = format!("usr/lib/{}", triplet.trim());
    let mut want = vec![
        "etc/OpenCL/vendors/gencl.icd".to_string(),
        "lib/systemd/system/gencld.service".into(),
        "lib/systemd/system/gencld.socket".into(),
        format!("{libdir}/libgencl.so"),
        "usr/bin/gencl".into(),
        "usr/bin/gencld".into(),
        "usr/libexec/gencl/gencl-clc".into(),
        "usr/share/doc/gencl/README.md".into(),
        "usr/share/doc/gencl/copyright".into(),
        "usr/share/doc/gencl/protocol.md".into(),
        "usr/share/doc/gencl/user-guide.md".into(),
    ];
    want.sort();
    assert_eq!(files(&root), want);
    // The installed ICD, as the loader sees it on a machine where it is installed system-wide
    // (here the library path stands in for the system's).
    let loader = |cmd: &mut Command| {
        cmd.env("OCL_ICD_VENDORS", root.join("etc/OpenCL/vendors"))
            .env("LD_LIBRARY_PATH", root.join(&libdir))
            .env("GENCL_MODE", "embedded")
            .env_remove("GENCL_SOCKET");
    };
    let mut clinfo = Command::new("clinfo");
    clinfo.arg("-l");
    loader(&mut clinfo);
    clinfo.env("GENCL_DEVICE", "emulated");
    let listed = run(&mut clinfo);
    assert!(
        listed.contains("Platform #0: gencl") && listed.contains("(emulated)"),
        "{listed}"
    );
    if !Path::new("/dev/dri/renderD128").exists() {
        let mut clinfo = Command::new("clinfo");
        clinfo.arg("-l");
        loader(&mut clinfo);
        clinfo.env("GENCL_DEVICE", "auto");
        let listed = run(&mut clinfo);
        assert!(
            listed.contains("gencl") && !listed.contains("Device #0"),
            "no device without a GPU unless asked for: {listed}"
        );
    }
    let exe = work.join("vadd");
    run(Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(format!("{ROOT}/examples/vadd.c"))
        .arg("-lOpenCL"));
    let mut vadd = Command::new(&exe);
    loader(&mut vadd);
    vadd.env("GENCL_DEVICE", "emulated");
    let said = run(&mut vadd);
    assert!(said.contains("floats exact"), "{said}");
    // The tool installed with it runs too.
    let version = run(Command::new(root.join("usr/bin/gencl")).arg("--version"));
    assert!(version.starts_with("gencl "), "{version}");
    dpkg(&["-P", "gencl"]);
    assert_eq!(files(&root), Vec::<String>::new(), "left behind");
    let status = std::fs::read_to_string(root.join("var/lib/dpkg/status")).unwrap();
    assert!(
        !status.contains("Package: gencl") || status.contains("Status: purge"),
        "{status}"
    );
    std::fs::remove_dir_all(&work).unwrap();
}
