//! The persistent program cache: built programs kept on disk between processes, so that a
//! program built once, by any client of a gencld or by any embedded process of one user,
//! is not compiled again (docs/jit.md, "The program cache").
//!
//! - **Key**: everything a build depends on: the input's kind and bytes, the build options,
//!   the specialization constants, this compiler build (`binary::COMPILER_ID`), the
//!   environment variables the compiler reads, and the identity (path, size, modification
//!   time) of the tools and the built-in library it runs. The file name is a hash of the key;
//!   the entry holds the key itself, and a hit needs every byte of it to match, so two keys
//!   with one hash are a miss, never a wrong program.
//! - **Not cached**: programs whose source may read files the key cannot see (`-I`), and
//!   builds that dump (`GENCL_DUMP`) or failed.
//! - **Entries** are the program binary of `binary::encode` (its checksum, its compiler build,
//!   every descriptor checked on load) after the key; a corrupt or foreign entry is a miss and
//!   is removed, and the build that follows writes it again. Written to a temporary name and
//!   renamed, so a reader never sees half an entry.
//! - **Bounded**: at most `GENCL_PROGRAM_CACHE_MB` MiB (default 256); beyond it the entries
//!   used least recently (a hit sets its modification time) go first.
//! - **Where**: `programs/` under the cache folder (`frontend::library::cache_base`: systemd's
//!   `CACHE_DIRECTORY` for gencld, else `$XDG_CACHE_HOME/gencl` or `~/.cache/gencl`).
//!   `GENCL_PROGRAM_CACHE=0` turns it off.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use crate::abi::ProgramBinary;
use crate::binary;
use crate::compile::CompileInput;
use crate::frontend::clc::{find_program, tool};

const MAGIC: &[u8; 8] = b"GENCLPC1";

/// Environment variables the compiler reads that change what a build makes.
const ENV: [&str; 13] = [
    "GENCL_SIMD",
    "GENCL_BUFFER_SURFACES",
    "GENCL_SCHEDULE",
    "GENCL_LLVM_PASSES",
    "GENCL_CLANG",
    "GENCL_OPT",
    "GENCL_LLVM_SPIRV",
    "GENCL_LLVM_AS",
    "GENCL_LLVM_DIS",
    "GENCL_SPIRV_LINK",
    "GENCL_LIBCLC",
    "GENCL_NO_COMPACT",
    "GENCL_VALIDATE",
];

/// What this process's cache did: hits, misses, entries written, evicted, refused as
/// corrupt or foreign.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    pub hits: u64,
    pub misses: u64,
    pub stored: u64,
    pub evicted: u64,
    pub rejected: u64,
}

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);
static STORED: AtomicU64 = AtomicU64::new(0);
static EVICTED: AtomicU64 = AtomicU64::new(0);
static REJECTED: AtomicU64 = AtomicU64::new(0);

pub fn stats() -> Stats {
    Stats {
        hits: HITS.load(Ordering::Relaxed),
        misses: MISSES.load(Ordering::Relaxed),
        stored: STORED.load(Ordering::Relaxed),
        evicted: EVICTED.load(Ordering::Relaxed),
        rejected: REJECTED.load(Ordering::Relaxed),
    }
}

/// The cache's folder, or `None` when it is off.
pub fn dir() -> Option<PathBuf> {
    if std::env::var_os("GENCL_PROGRAM_CACHE").is_some_and(|v| v == "0") {
        return None;
    }
    Some(crate::frontend::library::cache_base()?.join("programs"))
}

/// The size bound in bytes.
fn limit() -> u64 {
    std::env::var("GENCL_PROGRAM_CACHE_MB")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(256)
        << 20
}

/// A build's key: the bytes a hit must match (see the module comment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key(Vec<u8>);

impl Key {
    /// The key of building `input` with `options` and `spec`, or `None` for a build that is
    /// not cached.
    pub fn of(input: &CompileInput<'_>, options: &str, spec: &[(u32, Vec<u8>)]) -> Option<Key> {
        if crate::dump::dir().is_some() || options.split_whitespace().any(|w| w.starts_with("-I")) {
            return None;
        }
        let (kind, bytes): (u8, &[u8]) = match input {
            CompileInput::OpenClC(s) => (1, s.as_bytes()),
            CompileInput::SpirV(b) => (2, b),
            CompileInput::LlvmIr(b) => (3, b),
            // Loading a binary is already cheap.
            CompileInput::Binary(_) => return None,
        };
        let mut k = Vec::with_capacity(bytes.len() + options.len() + 512);
        let mut field = |b: &[u8]| {
            k.extend_from_slice(&(b.len() as u64).to_le_bytes());
            k.extend_from_slice(b);
        };
        field(&[kind]);
        field(binary::COMPILER_ID.as_bytes());
        field(options.as_bytes());
        for (id, value) in spec {
            field(&id.to_le_bytes());
            field(value);
        }
        for var in ENV {
            let v = std::env::var_os(var).unwrap_or_default();
            field(var.as_bytes());
            field(v.as_encoded_bytes());
        }
        let libclc = std::env::var("GENCL_LIBCLC")
            .unwrap_or_else(|_| crate::frontend::library::DEFAULT_PATH.to_string());
        // The tools as the front end runs them (a GENCL_* override's file, else PATH's).
        let tools = [
            ("clang-15", "GENCL_CLANG"),
            ("opt-15", "GENCL_OPT"),
            ("llvm-spirv-15", "GENCL_LLVM_SPIRV"),
            ("llvm-as-15", "GENCL_LLVM_AS"),
            ("llvm-dis-15", "GENCL_LLVM_DIS"),
        ];
        let files = tools
            .iter()
            .filter_map(|(name, var)| find_program(&tool(name, var)))
            .chain([PathBuf::from(libclc)]);
        for file in files {
            field(file.as_os_str().as_encoded_bytes());
            field(&identity(&file));
        }
        field(bytes);
        Some(Key(k))
    }

    fn file_name(&self) -> String {
        format!("{:016x}.prog", binary::fnv(&self.0))
    }
}

/// A file's size and modification time (nothing for a missing file).
fn identity(path: &Path) -> Vec<u8> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Vec::new();
    };
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let mut v = meta.len().to_le_bytes().to_vec();
    v.extend_from_slice(&mtime.to_le_bytes());
    v
}

/// The program built under `key` before, if the cache holds it intact.
pub fn lookup(key: &Key) -> Option<ProgramBinary> {
    let found = lookup_in(&dir()?, key);
    tracing::debug!(hit = found.is_some(), "program cache");
    found
}

fn lookup_in(dir: &Path, key: &Key) -> Option<ProgramBinary> {
    let path = dir.join(key.file_name());
    let Ok(bytes) = std::fs::read(&path) else {
        MISSES.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    match parse(&bytes, key) {
        Ok(program) => {
            HITS.fetch_add(1, Ordering::Relaxed);
            // Used now: the last to be evicted.
            if let Ok(f) = std::fs::File::options().write(true).open(&path) {
                let _ = f.set_modified(SystemTime::now());
            }
            Some(program)
        }
        Err(Reject::OtherKey) => {
            // Another build with the same hash: a miss; the build that follows takes the slot.
            MISSES.fetch_add(1, Ordering::Relaxed);
            None
        }
        Err(Reject::Bad(why)) => {
            tracing::warn!(entry = %path.display(), why, "program cache entry rejected; rebuilding");
            REJECTED.fetch_add(1, Ordering::Relaxed);
            MISSES.fetch_add(1, Ordering::Relaxed);
            let _ = std::fs::remove_file(&path);
            None
        }
    }
}

enum Reject {
    OtherKey,
    Bad(String),
}

fn parse(bytes: &[u8], key: &Key) -> Result<ProgramBinary, Reject> {
    let rest = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| Reject::Bad("not a gencl program cache entry".into()))?;
    let len = rest
        .get(..8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
        .ok_or_else(|| Reject::Bad("truncated".into()))?;
    let stored_key = usize::try_from(len)
        .ok()
        .and_then(|n| rest.get(8..8usize.checked_add(n)?))
        .ok_or_else(|| Reject::Bad("truncated key".into()))?;
    if stored_key != key.0.as_slice() {
        return Err(Reject::OtherKey);
    }
    binary::decode(&rest[8 + stored_key.len()..]).map_err(|e| Reject::Bad(e.to_string()))
}

/// Keep `program`, built under `key`, for later builds.
pub fn store(key: &Key, program: &ProgramBinary) {
    if let Some(dir) = dir() {
        store_in(&dir, key, program, limit());
    }
}

fn store_in(dir: &Path, key: &Key, program: &ProgramBinary, limit: u64) {
    match write_entry(dir, key, program) {
        Ok(len) => {
            STORED.fetch_add(1, Ordering::Relaxed);
            trim(dir, len, limit);
        }
        Err(e) => {
            tracing::debug!(dir = %dir.display(), error = %e, "program cache entry not written")
        }
    }
}

fn write_entry(dir: &Path, key: &Key, program: &ProgramBinary) -> std::io::Result<u64> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    static N: AtomicU64 = AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{}-{}-{}.tmp",
        key.file_name(),
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let bin = binary::encode(program);
    let mut f = std::fs::File::create(&tmp)?;
    let written = f
        .write_all(MAGIC)
        .and_then(|_| f.write_all(&(key.0.len() as u64).to_le_bytes()))
        .and_then(|_| f.write_all(&key.0))
        .and_then(|_| f.write_all(&bin))
        .and_then(|_| std::fs::rename(&tmp, dir.join(key.file_name())));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|_| (MAGIC.len() + 8 + key.0.len() + bin.len()) as u64)
}

/// Bytes this process believes the cache folder holds (scanned at its first store, then
/// counted; scanned again whenever the count passes the bound, since other processes write
/// too).
static SIZE: Mutex<Option<(PathBuf, u64)>> = Mutex::new(None);

/// Keep the cache within `limit` bytes after an entry of `added` bytes was written.
fn trim(dir: &Path, added: u64, limit: u64) {
    let mut size = SIZE.lock().unwrap_or_else(|e| e.into_inner());
    let entries = |dir: &Path| -> Vec<(SystemTime, u64, PathBuf)> {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        rd.filter_map(|e| {
            let e = e.ok()?;
            let meta = e.metadata().ok()?;
            let name = e.file_name();
            if !meta.is_file() || !name.to_string_lossy().ends_with(".prog") {
                return None;
            }
            Some((meta.modified().ok()?, meta.len(), e.path()))
        })
        .collect()
    };
    // The entry just written is counted by the first scan, or added to the count.
    let mut total = match &*size {
        Some((d, s)) if d == dir => s.saturating_add(added),
        _ => entries(dir).iter().map(|e| e.1).sum(),
    };
    if total <= limit {
        *size = Some((dir.to_path_buf(), total));
        return;
    }
    // Over the bound: the least recently used go first, down to 90% of it.
    let mut all = entries(dir);
    all.sort();
    total = all.iter().map(|e| e.1).sum();
    for (_, len, path) in &all {
        if total <= limit / 10 * 9 {
            break;
        }
        if std::fs::remove_file(path).is_ok() {
            total -= len;
            EVICTED.fetch_add(1, Ordering::Relaxed);
        }
    }
    *size = Some((dir.to_path_buf(), total));
}

/// The cache's entries and their bytes, for `gencl info`.
pub fn usage() -> Option<(PathBuf, usize, u64)> {
    let dir = dir()?;
    let (n, bytes) = std::fs::read_dir(&dir)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.metadata().ok())
        .filter(|m| m.is_file())
        .fold((0, 0), |(n, b), m| (n + 1, b + m.len()));
    Some((dir, n, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(name: &str, isa_len: usize) -> ProgramBinary {
        let mut p = crate::binary::tests::sample();
        p.kernels[0].name = name.into();
        p.kernels[0].isa = vec![0; isa_len];
        p.build_log = format!("kernel '{name}'\n");
        p
    }

    /// The bytes of a program, to compare two.
    fn bytes(p: Option<ProgramBinary>) -> Option<Vec<u8>> {
        p.as_ref().map(binary::encode)
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gencl-pc-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn key(src: &str, options: &str) -> Key {
        Key::of(&CompileInput::OpenClC(src), options, &[]).unwrap()
    }

    #[test]
    fn an_entry_comes_back_exactly_and_only_for_its_own_key() {
        let dir = scratch("roundtrip");
        let (k, p) = (key("kernel void a() {}", ""), program("a", 32));
        assert!(lookup_in(&dir, &k).is_none());
        store_in(&dir, &k, &p, 1 << 30);
        assert_eq!(bytes(lookup_in(&dir, &k)), bytes(Some(p.clone())));
        // The same source with other options, specialization constants or kind: other keys.
        let others = [
            key("kernel void a() {}", "-D X=1"),
            Key::of(
                &CompileInput::OpenClC("kernel void a() {}"),
                "",
                &[(1, vec![0])],
            )
            .unwrap(),
            Key::of(&CompileInput::SpirV(b"kernel void a() {}"), "", &[]).unwrap(),
        ];
        for other in &others {
            assert_ne!(other, &k);
            assert!(lookup_in(&dir, other).is_none());
            // Even under the same file name (a hash collision): a miss, the entry kept.
            std::fs::copy(dir.join(k.file_name()), dir.join(other.file_name())).unwrap();
            assert!(lookup_in(&dir, other).is_none());
            assert!(dir.join(other.file_name()).exists());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn builds_that_may_read_other_files_or_that_dump_are_not_cached() {
        assert!(Key::of(&CompileInput::OpenClC("x"), "-I /tmp", &[]).is_none());
        assert!(Key::of(&CompileInput::OpenClC("x"), "-D A -I/tmp", &[]).is_none());
        assert!(Key::of(&CompileInput::Binary(b"GENCLBIN"), "", &[]).is_none());
        assert!(Key::of(&CompileInput::OpenClC("x"), "-D I=1", &[]).is_some());
    }

    #[test]
    fn corrupt_and_foreign_entries_are_rejected_removed_and_rebuilt() {
        let dir = scratch("corrupt");
        let (k, p) = (key("kernel void b() {}", ""), program("b", 32));
        store_in(&dir, &k, &p, 1 << 30);
        let path = dir.join(k.file_name());
        let good = std::fs::read(&path).unwrap();
        let before = stats().rejected;
        // A flipped byte in the program (its checksum), a cut-off entry, another format.
        let mut flipped = good.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x40;
        for bad in [
            flipped,
            good[..good.len() / 2].to_vec(),
            b"GENCLBIN....".to_vec(),
        ] {
            std::fs::write(&path, &bad).unwrap();
            assert!(lookup_in(&dir, &k).is_none());
            assert!(!path.exists(), "a rejected entry is removed");
            store_in(&dir, &k, &p, 1 << 30);
            assert_eq!(bytes(lookup_in(&dir, &k)), bytes(Some(p.clone())));
        }
        assert!(stats().rejected >= before + 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_least_recently_used_entries_go_when_the_bound_is_passed() {
        let dir = scratch("lru");
        let keys: Vec<Key> = (0..6)
            .map(|i| key(&format!("kernel void k{i}() {{}}"), ""))
            .collect();
        let p = program("k", 2048);
        // Entries of about 2.3 KiB; a bound that six pass and five keep within 90% of
        // (eviction goes down to 90%).
        store_in(&dir, &keys[0], &p, u64::MAX);
        let one = std::fs::metadata(dir.join(keys[0].file_name()))
            .unwrap()
            .len();
        let limit = one * 6 - 1;
        let old = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        for (i, k) in keys.iter().enumerate().take(5).skip(1) {
            store_in(&dir, k, &p, limit);
            // Written in order, as if long ago (one second apart).
            let f = std::fs::File::options()
                .write(true)
                .open(dir.join(k.file_name()))
                .unwrap();
            f.set_modified(old + std::time::Duration::from_secs(i as u64))
                .unwrap();
        }
        let f = std::fs::File::options()
            .write(true)
            .open(dir.join(keys[0].file_name()))
            .unwrap();
        f.set_modified(old).unwrap();
        // keys[0] is the oldest; using it makes keys[1] the least recently used.
        assert!(lookup_in(&dir, &keys[0]).is_some());
        store_in(&dir, &keys[5], &p, limit);
        let held: Vec<bool> = keys
            .iter()
            .map(|k| dir.join(k.file_name()).exists())
            .collect();
        assert_eq!(held, [true, false, true, true, true, true]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
