//! The persistent program cache (`jit/src/program_cache.rs`) as gencld's clients meet it: a
//! program one gencld built is served by the next gencld from the cache, byte for byte the
//! binary the first one made; a damaged entry is rejected, the program built again and the
//! entry written anew; `GENCL_PROGRAM_CACHE=0` writes nothing.

use gencl::client::Connection;
use gencl::protocol::{self, Request, Response};
use std::path::{Path, PathBuf};
use std::process::Stdio;

const SRC: &str = "kernel void scale(global float *a, float s) { a[get_global_id(0)] *= s; }";

mod service_common;

/// Build SRC in a new gencld and hand back the program binary it reports and its log.
fn build_in_new_service(dir: &Path, cache: &Path, extra: &[(&str, &str)]) -> (Vec<u8>, String) {
    let log = dir.join("gencld.log");
    let mut env = vec![
        ("XDG_CACHE_HOME", cache.to_str().unwrap()),
        ("CACHE_DIRECTORY", ""),
        ("GENCL_LOG", "gencl_jit::program_cache=debug"),
    ];
    env.extend_from_slice(extra);
    let stderr = Stdio::from(std::fs::File::create(&log).unwrap());
    let (daemon, sock) = service_common::start_gencld_with("progcache", &env, stderr);
    let c = Connection::connect_to(&sock).unwrap();
    let id = match c
        .call(Request::BuildProgram {
            source: protocol::ProgramSource::OpenClC(SRC.into()),
            options: "-cl-mad-enable".into(),
            spec_constants: Vec::new(),
        })
        .unwrap()
        .0
    {
        Response::Built { id, kernels, .. } => {
            assert_eq!(kernels[0].name, "scale");
            id
        }
        other => panic!("build answered {other:?}"),
    };
    let bytes = match c.call(Request::ProgramBinary { id }).unwrap().0 {
        Response::Binary { bytes } => bytes,
        other => panic!("binary answered {other:?}"),
    };
    drop(c);
    drop(daemon);
    (bytes, std::fs::read_to_string(&log).unwrap())
}

fn entries(cache: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(cache.join("gencl/programs")) {
        Ok(rd) => rd.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn programs_are_served_from_the_cache_across_restarts_and_damage_is_rebuilt() {
    let dir = std::env::temp_dir().join(format!("gencl-progcache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cache = dir.join("cache");

    let (built, log) = build_in_new_service(&dir, &cache, &[]);
    assert!(log.contains("hit=false"), "{log}");
    let stored = entries(&cache);
    assert_eq!(stored.len(), 1, "{stored:?}");

    // A new service: the same binary, from the cache.
    let (again, log) = build_in_new_service(&dir, &cache, &[]);
    assert!(log.contains("hit=true"), "{log}");
    assert_eq!(again, built);

    // A damaged entry (one byte of the program flipped): rejected, rebuilt, rewritten.
    let entry = &stored[0];
    let good = std::fs::read(entry).unwrap();
    let mut bad = good.clone();
    let at = bad.len() - 9;
    bad[at] ^= 0x10;
    std::fs::write(entry, &bad).unwrap();
    let (rebuilt, log) = build_in_new_service(&dir, &cache, &[]);
    assert!(
        log.contains("rejected") && log.contains("hit=false"),
        "{log}"
    );
    assert_eq!(rebuilt, built);
    assert_eq!(std::fs::read(entry).unwrap(), good);

    // Turned off: built, nothing read or written.
    let off = dir.join("off");
    let (plain, _) = build_in_new_service(&dir, &off, &[("GENCL_PROGRAM_CACHE", "0")]);
    assert_eq!(plain, built);
    assert!(entries(&off).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
