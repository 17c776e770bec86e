//! The built-in library's slices cached between processes (`jit/src/frontend/library.rs`):
//! a second `gencl compile` reads the slices the first one wrote and produces the same
//! bytes, as does a compile with the cache turned off; a damaged entry is read as untrusted
//! SPIR-V, dropped and cut again.

use std::path::Path;
use std::process::Command;

fn compile(cache: &Path, out: &Path, extra: &[(&str, &str)]) -> Vec<u8> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bench/typical.cl");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gencl"));
    cmd.arg("compile")
        .arg(&src)
        .arg("-o")
        .arg(out)
        .env("XDG_CACHE_HOME", cache);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let o = cmd.output().expect("gencl runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out.join("saxpy_sin.bin")).unwrap()
}

#[test]
fn slices_are_cached_between_processes_and_give_the_same_code() {
    let dir = std::env::temp_dir().join(format!("gencl-libcache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.join("cache");
    let first = compile(&cache, &dir.join("a"), &[]);
    let mut cached: Vec<_> = std::fs::read_dir(cache.join("gencl"))
        .expect("the cache folder")
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    cached.sort();
    assert_eq!(cached, ["_Z3expf.spv", "_Z3sinf.spv"]);
    let second = compile(&cache, &dir.join("b"), &[]);
    assert_eq!(first, second);
    let uncached = compile(
        &dir.join("none"),
        &dir.join("c"),
        &[("GENCL_LIBCLC_CACHE", "0")],
    );
    assert_eq!(first, uncached);
    assert!(
        !dir.join("none").exists(),
        "GENCL_LIBCLC_CACHE=0 writes nothing"
    );
    // A damaged entry is dropped and the slice cut again: same code, entry rewritten.
    let entry = std::fs::read_dir(cache.join("gencl"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join("_Z3sinf.spv");
    let good = std::fs::read(&entry).unwrap();
    std::fs::write(&entry, [7u8; 40]).unwrap();
    assert_eq!(compile(&cache, &dir.join("d"), &[]), first);
    assert_eq!(std::fs::read(&entry).unwrap(), good);
    let _ = std::fs::remove_dir_all(&dir);
}
