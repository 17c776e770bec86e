//! The built-in library cached between processes (`jit/src/frontend/library.rs`, and
//! `jit/src/frontend/lower/template.rs`): the first `gencl compile` writes each built-in's
//! slice (`.spv`) and lowered template (`.ir`); a second reads the templates and produces
//! the same bytes, as does a compile with the cache turned off; a damaged entry of either
//! kind is read as untrusted input, dropped and made again.

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
    let kinds: Vec<&str> = cached
        .iter()
        .map(|n| n.rsplit('.').next().unwrap())
        .collect();
    assert_eq!(kinds, ["spv", "ir", "spv", "ir"], "{cached:?}");
    assert!(cached[0] == "_Z3expf.spv" && cached[1].starts_with("_Z3expf_"));
    assert!(cached[2] == "_Z3sinf.spv" && cached[3].starts_with("_Z3sinf_"));
    // Without the slices, the second process works from the templates alone.
    let folder = std::fs::read_dir(cache.join("gencl"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    for n in ["_Z3expf.spv", "_Z3sinf.spv"] {
        std::fs::rename(folder.join(n), dir.join(n)).unwrap();
    }
    let second = compile(&cache, &dir.join("b"), &[]);
    assert_eq!(first, second);
    assert!(
        !folder.join("_Z3sinf.spv").exists(),
        "a template hit cuts no slice"
    );
    for n in ["_Z3expf.spv", "_Z3sinf.spv"] {
        std::fs::rename(dir.join(n), folder.join(n)).unwrap();
    }
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
    // The template was read, so the slice was not needed: still damaged. Without the
    // template, it is cut again.
    let template = folder.join(&cached[3]);
    let good_template = std::fs::read(&template).unwrap();
    std::fs::remove_file(&template).unwrap();
    assert_eq!(compile(&cache, &dir.join("e"), &[]), first);
    assert_eq!(std::fs::read(&entry).unwrap(), good);
    assert_eq!(std::fs::read(&template).unwrap(), good_template);
    // A damaged template is dropped and made again.
    let mut bad = good_template.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x40;
    std::fs::write(&template, &bad).unwrap();
    assert_eq!(compile(&cache, &dir.join("f"), &[]), first);
    assert_eq!(std::fs::read(&template).unwrap(), good_template);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_new_cache_folder_removes_all_but_the_newest_three_others() {
    let dir = std::env::temp_dir().join(format!("gencl-libprune-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let base = dir.join("cache").join("gencl");
    // Folders of five other builds, a minute apart (k = 0 the oldest), and a folder that is
    // not the library cache's.
    let now = std::time::SystemTime::now();
    for k in 0..5u64 {
        let d = base.join(format!("libclc-{k:016x}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("_Z3sinf.spv"), b"old").unwrap();
        let at = now - std::time::Duration::from_secs(60 * (10 - k));
        std::fs::File::open(&d).unwrap().set_modified(at).unwrap();
    }
    std::fs::create_dir_all(base.join("other")).unwrap();
    compile(&dir.join("cache"), &dir.join("out"), &[]);
    let mut left: Vec<String> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    let made: Vec<&String> = left
        .iter()
        .filter(|n| n.starts_with("libclc-") && !n.starts_with("libclc-000000000000000"))
        .collect();
    assert_eq!(made.len(), 1, "{left:?}");
    let kept: Vec<&str> = left
        .iter()
        .filter(|n| n.starts_with("libclc-000000000000000"))
        .map(|n| n.as_str())
        .collect();
    assert_eq!(
        kept,
        [
            "libclc-0000000000000002",
            "libclc-0000000000000003",
            "libclc-0000000000000004"
        ]
    );
    assert!(left.contains(&"other".to_string()));
    // A process that finds its folder made prunes nothing.
    std::fs::create_dir_all(base.join("libclc-0000000000000009")).unwrap();
    compile(&dir.join("cache"), &dir.join("out2"), &[]);
    assert!(base.join("libclc-0000000000000002").is_dir());
    let _ = std::fs::remove_dir_all(&dir);
}
