//! The OpenCL C built-in library: libclc-15's SPIR-V (`/usr/lib/clc/spirv64-mesa3d-.spv`,
//! Debian package libclc-15, the library Mesa's rusticl links). A built-in the JIT has no
//! exact sequence for (sin, exp, pow, fmod, length, ...) is found here by its Itanium-mangled
//! name and inlined into the kernel; its constant tables become one of the kernel's data
//! buffers.
//!
//! The library is 2.5 MB of SPIR-V with 2166 functions, and a kernel needs a handful of them.
//! Parsing all of it costs about 40 ms and 30 MB in every process that compiles, so it is
//! indexed instead, word by word, once per process (definitions by id, function bodies,
//! exports by name), and each built-in is cut out as a small module of its own: the function,
//! the functions it calls, and the types, constants, variables and decorations they reach.
//! That slice is parsed (rspirv) on first use and kept for the process.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::lower::ModuleInfo;
use super::FrontendError;

/// Where Debian's libclc-15 puts the SPIR-V library; `GENCL_LIBCLC` overrides it.
pub const DEFAULT_PATH: &str = "/usr/lib/clc/spirv64-mesa3d-.spv";

/// One built-in cut out of the library, parsed and indexed.
pub(super) struct Slice {
    /// The built-in's mangled name.
    pub name: String,
    pub info: ModuleInfo<'static>,
    /// The built-in's function id (ids are the library's own).
    pub fid: u32,
    /// Every function the slice calls has a body. libclc-15 has a few built-ins that call
    /// a helper it does not define (`ldexp(half, int)` calls `__clc_ldexp(half, int)`).
    pub complete: bool,
}

/// The library's words and where everything is in them.
struct Index {
    /// The library file, mapped (read only where a slice needs it); little-endian words.
    bytes: memmap2::Mmap,
    /// Words in the file.
    len: usize,
    /// Capabilities, extensions, extended instruction set imports, the memory model.
    preamble: Vec<u32>,
    /// OpName and the annotations, with the id they name.
    names: Vec<(u32, u32)>,
    decorations: Vec<(u32, u32)>,
    /// Id → word offset of the type, constant or variable defining it (0: none).
    def_at: Vec<u32>,
    /// Id → word offset of its OpFunction (0: none).
    func_at: Vec<u32>,
    /// Exported function name → id.
    exports: HashMap<String, u32>,
}

static INDEX: OnceLock<Result<Index, String>> = OnceLock::new();
static SLICES: OnceLock<Mutex<HashMap<String, &'static Slice>>> = OnceLock::new();

/// The built-in exported as `name`, cut out of the library and parsed on first use; None
/// when the library has no such function.
pub(super) fn function(name: &str) -> Result<Option<&'static Slice>, FrontendError> {
    let slices = SLICES.get_or_init(Default::default);
    if let Some(s) = slices
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(name)
    {
        return Ok(Some(s));
    }
    let path = library_path();
    let cached = cache_file(&path, name, "spv");
    // A slice cut by an earlier process (same library file, same compiler) spares this one
    // the index. It is read back as untrusted SPIR-V; one that does not load is dropped and
    // cut again.
    let from_cache = cached
        .as_ref()
        .and_then(|c| read_cached(c))
        .and_then(|(bytes, fid)| Some((super::spirv::load(&bytes).ok()?, fid)));
    let (loaded, fid) = match from_cache {
        Some(hit) => hit,
        None => {
            if let Some(c) = &cached {
                let _ = std::fs::remove_file(c);
            }
            let index = INDEX
                .get_or_init(load_index)
                .as_ref()
                .map_err(|e| FrontendError::Tool(e.clone()))?;
            let Some(&fid) = index.exports.get(name) else {
                return Ok(None);
            };
            let bytes: Vec<u8> = index
                .slice(fid)
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            let loaded = super::spirv::load(&bytes).map_err(|e| {
                FrontendError::Tool(format!("{path}: the slice for {name} does not load: {e}"))
            })?;
            if let Some(c) = &cached {
                write_cached(c, &bytes, fid);
            }
            (loaded, fid)
        }
    };
    // Slices live as long as the process: leaking each once lets its index borrow it.
    let loaded: &'static super::spirv::Module = Box::leak(Box::new(loaded));
    let mut info = ModuleInfo::new(&loaded.module)
        .map_err(|e| FrontendError::Tool(format!("{path} ({name}): {e}")))?;
    info.set_odd_int_widths(
        loaded
            .odd_int_widths
            .iter()
            .map(|(k, v)| (*k, *v))
            .collect(),
    );
    let complete = loaded.module.functions.iter().all(|f| !f.blocks.is_empty());
    let slice: &'static Slice = Box::leak(Box::new(Slice {
        name: name.to_string(),
        info,
        fid,
        complete,
    }));
    slices
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(name.to_string(), slice);
    Ok(Some(slice))
}

/// Where what is made of the library at `path` is kept between processes (a slice,
/// `<name>.spv`; a lowered template, `<name>.ir`):
/// `$XDG_CACHE_HOME/gencl/libclc-<key>/<name>.<ext>` (else `~/.cache`), the key naming the
/// library file (path, size, modification time) and this compiler build, so that another
/// library or another gencl never reads it. `GENCL_LIBCLC_CACHE=0` turns the cache off.
pub(super) fn cache_file(path: &str, name: &str, ext: &str) -> Option<std::path::PathBuf> {
    let root = cache_root()?;
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    // FNV-1a over what identifies the library and the slicer.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!(
        "{path}\0{}\0{mtime}\0{}",
        meta.len(),
        crate::binary::COMPILER_ID
    )
    .bytes()
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    // Mangled names are [A-Za-z0-9_] only; anything else is not cached.
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    Some(
        root.join(format!("libclc-{h:016x}"))
            .join(format!("{name}.{ext}")),
    )
}

/// The folder the built-in cache lives under ([`cache_base`]); none when
/// `GENCL_LIBCLC_CACHE=0` turns the cache off or no variable names a cache folder.
pub fn cache_root() -> Option<std::path::PathBuf> {
    if std::env::var_os("GENCL_LIBCLC_CACHE").is_some_and(|v| v == "0") {
        return None;
    }
    cache_base()
}

/// gencl's cache folder: systemd's `CACHE_DIRECTORY` (gencld.service's `CacheDirectory=gencl`,
/// /var/cache/gencl), else `$XDG_CACHE_HOME/gencl`, else `~/.cache/gencl`; none if no
/// variable names one.
pub fn cache_base() -> Option<std::path::PathBuf> {
    if let Some(d) = std::env::var_os("CACHE_DIRECTORY").filter(|d| !d.is_empty()) {
        // systemd may list several, separated by colons: gencl asks for one.
        let first = d
            .to_string_lossy()
            .split(':')
            .next()
            .unwrap_or_default()
            .to_string();
        return Some(std::path::PathBuf::from(first));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cache")))?;
    Some(base.join("gencl"))
}

/// A cached slice: its function id (a word before the module) and the module's bytes.
fn read_cached(file: &std::path::Path) -> Option<(Vec<u8>, u32)> {
    let mut bytes = std::fs::read(file).ok()?;
    if bytes.len() < 24 {
        return None;
    }
    let fid = u32::from_le_bytes(bytes[..4].try_into().ok()?);
    bytes.drain(..4);
    Some((bytes, fid))
}

/// Write a slice for later processes (its function id, then the module).
fn write_cached(file: &std::path::Path, bytes: &[u8], fid: u32) {
    let mut data = fid.to_le_bytes().to_vec();
    data.extend_from_slice(bytes);
    write_atomically(file, &data);
}

/// Write a cache file: to a temporary file, then renamed into place, so that a reader sees
/// all of it or nothing. Failure only costs the next process the work the file would save.
pub(super) fn write_atomically(file: &std::path::Path, data: &[u8]) {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name()) else {
        return;
    };
    if !dir.is_dir() {
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        prune_caches(dir);
    }
    let tmp = dir.join(format!(
        ".{}.{}",
        std::process::id(),
        name.to_string_lossy()
    ));
    if std::fs::write(&tmp, data).is_ok() && std::fs::rename(&tmp, file).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// How many cache folders (`libclc-<key>`, one per compiler build and library) stay beside
/// the one a process has just made: the newest, by modification time (a folder's changes
/// each time an entry is written into it). Every gencl build makes a folder of its own,
/// a megabyte or so for a few dozen built-ins, and nothing else would ever remove the old
/// ones; a few are kept for other gencl versions in use on the machine.
const CACHE_FOLDERS_KEPT: usize = 3;

/// Remove the cache folders beside `made` (just created) but the newest
/// `CACHE_FOLDERS_KEPT`. A process still using a removed folder only misses: it cuts and
/// lowers again and writes the folder anew, and a reader sees whole entries or none.
fn prune_caches(made: &std::path::Path) {
    let Some(Ok(entries)) = made.parent().map(std::fs::read_dir) else {
        return;
    };
    let mut others: Vec<(std::time::SystemTime, std::path::PathBuf)> = entries
        .filter_map(|e| {
            let e = e.ok()?;
            if !e.file_name().to_str()?.starts_with("libclc-") || e.path() == made {
                return None;
            }
            let meta = e.metadata().ok()?;
            meta.is_dir().then_some((meta.modified().ok()?, e.path()))
        })
        .collect();
    // Newest first.
    others.sort_by_key(|o| std::cmp::Reverse(o.0));
    for (_, old) in others.into_iter().skip(CACHE_FOLDERS_KEPT) {
        match std::fs::remove_dir_all(&old) {
            Ok(()) => tracing::debug!("removed the old library cache {}", old.display()),
            Err(e) => tracing::debug!("cannot remove the old library cache {}: {e}", old.display()),
        }
    }
}

pub(super) fn library_path() -> String {
    std::env::var("GENCL_LIBCLC").unwrap_or_else(|_| DEFAULT_PATH.into())
}

fn load_index() -> Result<Index, String> {
    let path = library_path();
    let cannot = |e: std::io::Error| {
        format!("the built-in library {path} cannot be read ({e}); install Debian's libclc-15")
    };
    let file = std::fs::File::open(&path).map_err(cannot)?;
    // SAFETY: a read-only private mapping of a file that the distribution installs and
    // nothing in this process writes; every access below is bounds-checked, so a file
    // truncated under us fails a check (or faults) rather than reading out of the mapping.
    let bytes = unsafe { memmap2::Mmap::map(&file) }.map_err(cannot)?;
    Index::new(bytes).map_err(|e| format!("{path}: {e}"))
}

// Opcodes the index tells apart (SPIR-V 1.2, section 3.32).
const OP_NAME: u32 = 5;
const OP_MEMBER_NAME: u32 = 6;
const OP_EXTENSION: u32 = 10;
const OP_EXT_INST_IMPORT: u32 = 11;
const OP_MEMORY_MODEL: u32 = 14;
const OP_CAPABILITY: u32 = 17;
const OP_CONSTANT: u32 = 43;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_END: u32 = 56;
const OP_FUNCTION_CALL: u32 = 57;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;
const DECORATION_LINKAGE_ATTRIBUTES: u32 = 41;
const LINKAGE_EXPORT: u32 = 0;

impl Index {
    fn new(bytes: memmap2::Mmap) -> Result<Index, String> {
        let len = bytes.len() / 4;
        if len < 5 || !bytes.len().is_multiple_of(4) {
            return Err("not a SPIR-V module".into());
        }
        let mut ix = Index {
            bytes,
            len,
            preamble: Vec::new(),
            names: Vec::new(),
            decorations: Vec::new(),
            def_at: Vec::new(),
            func_at: Vec::new(),
            exports: HashMap::new(),
        };
        if ix.w(0) != 0x0723_0203 {
            return Err("not a little-endian SPIR-V module".into());
        }
        let bound = ix.w(3) as usize;
        if bound > 4_000_000 {
            return Err(format!("implausible id bound {bound}"));
        }
        ix.def_at = vec![0; bound];
        ix.func_at = vec![0; bound];
        let mut at = 5;
        let mut in_function = false;
        while at < len {
            let head = ix.w(at);
            let count = (head >> 16) as usize;
            let op = head & 0xffff;
            if count == 0 || at + count > len {
                return Err(format!("instruction at word {at} does not fit"));
            }
            let word_id = |k: usize| -> Option<usize> {
                (k < count)
                    .then(|| ix.w(at + k) as usize)
                    .filter(|&v| v < bound)
            };
            let (id1, id2) = (word_id(1), word_id(2));
            let id = |k: usize| if k == 1 { id1 } else { id2 };
            let here = at as u32;
            if in_function {
                in_function = op != OP_FUNCTION_END;
                at += count;
                continue;
            }
            match op {
                OP_CAPABILITY | OP_EXTENSION | OP_EXT_INST_IMPORT | OP_MEMORY_MODEL => {
                    ix.preamble.push(here);
                    if op == OP_EXT_INST_IMPORT {
                        if let Some(i) = id(1) {
                            ix.def_at[i] = here;
                        }
                    }
                }
                OP_NAME | OP_MEMBER_NAME => {
                    if let Some(i) = id(1) {
                        ix.names.push((i as u32, here));
                    }
                }
                OP_DECORATE | OP_MEMBER_DECORATE => {
                    if let Some(i) = id(1) {
                        ix.decorations.push((i as u32, here));
                        if op == OP_DECORATE
                            && count > 3
                            && ix.w(at + 2) == DECORATION_LINKAGE_ATTRIBUTES
                        {
                            let name = ix.string(at + 3, at + count);
                            let after = 3 + name.len() / 4 + 1;
                            if after < count && ix.w(at + after) == LINKAGE_EXPORT {
                                ix.exports.insert(name, i as u32);
                            }
                        }
                    }
                }
                OP_FUNCTION => {
                    if let Some(i) = id(2) {
                        ix.func_at[i] = here;
                    }
                    in_function = true;
                }
                // Types (result id first) and constants, undef and variables (result type,
                // then result id).
                19..=39 => {
                    if let Some(i) = id(1) {
                        ix.def_at[i] = here;
                    }
                }
                1 | 41..=46 | 59 => {
                    if let Some(i) = id(2) {
                        ix.def_at[i] = here;
                    }
                }
                _ => {}
            }
            at += count;
        }
        Ok(ix)
    }

    /// Word `i` of the file.
    fn w(&self, i: usize) -> u32 {
        let b = &self.bytes[4 * i..4 * i + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// The words of the instruction at `at` (it fits: `new` checked every one).
    fn inst(&self, at: usize) -> impl Iterator<Item = u32> + '_ {
        let count = (self.w(at) >> 16) as usize;
        (at..at + count).map(|k| self.w(k))
    }

    /// A literal string in words `from..to`: bytes up to the first NUL.
    fn string(&self, from: usize, to: usize) -> String {
        let bytes = &self.bytes[4 * from..4 * to];
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        String::from_utf8_lossy(&bytes[..end]).into_owned()
    }

    /// The ids an instruction may refer to: every operand word that is the id of a
    /// definition (an over-approximation: a literal that happens to equal an id brings in
    /// one more type or constant, which is harmless), but functions only through
    /// OpFunctionCall's callee, and never a constant's literal value.
    fn refs(&self, at: usize, globals: &mut Vec<usize>, funcs: &mut Vec<usize>) {
        let head = self.w(at);
        let count = (head >> 16) as usize;
        let op = head & 0xffff;
        let last = if op == OP_CONSTANT {
            3.min(count)
        } else {
            count
        };
        for k in 1..last {
            let v = self.w(at + k) as usize;
            if v >= self.def_at.len() {
                continue;
            }
            let def = self.def_at[v] as usize;
            if def != 0 && def != at {
                globals.push(v);
            }
            if op == OP_FUNCTION_CALL && k == 3 && self.func_at[v] != 0 {
                funcs.push(v);
            }
        }
    }

    /// A module holding function `fid`, its callees, and what they reach.
    fn slice(&self, fid: u32) -> Vec<u32> {
        let n = self.def_at.len();
        let mut global_in = vec![false; n];
        let mut func_in = vec![false; n];
        // Every id a function body mentions: the names and decorations of its own values
        // (FPRoundingMode on a conversion, say) come along.
        let mut seen = vec![false; n];
        let (mut gwork, mut fwork) = (Vec::new(), vec![fid as usize]);
        while let Some(f) = fwork.pop() {
            if std::mem::replace(&mut func_in[f], true) {
                continue;
            }
            let mut at = self.func_at[f] as usize;
            loop {
                for w in self.inst(at).skip(1) {
                    if let Some(x) = seen.get_mut(w as usize) {
                        *x = true;
                    }
                }
                self.refs(at, &mut gwork, &mut fwork);
                let head = self.w(at);
                at += (head >> 16) as usize;
                if head & 0xffff == OP_FUNCTION_END || at >= self.len {
                    break;
                }
            }
            while let Some(g) = gwork.pop() {
                if !std::mem::replace(&mut global_in[g], true) {
                    self.refs(self.def_at[g] as usize, &mut gwork, &mut fwork);
                }
            }
        }
        let mut out: Vec<u32> = (0..5).map(|k| self.w(k)).collect();
        for &at in &self.preamble {
            out.extend(self.inst(at as usize));
        }
        let included = |id: u32| {
            let id = id as usize;
            global_in[id]
                || func_in[id]
                || (seen[id] && self.def_at[id] == 0 && self.func_at[id] == 0)
        };
        for &(id, at) in self.names.iter().chain(&self.decorations) {
            if included(id) {
                out.extend(self.inst(at as usize));
            }
        }
        // Definitions in the library's order, which defines before it uses.
        let mut defs: Vec<u32> = (0..n)
            .filter(|&g| global_in[g])
            .map(|g| self.def_at[g])
            .collect();
        defs.sort_unstable();
        defs.dedup();
        for at in defs {
            if self.w(at as usize) & 0xffff != OP_EXT_INST_IMPORT {
                out.extend(self.inst(at as usize));
            }
        }
        let mut funcs: Vec<u32> = (0..n)
            .filter(|&f| func_in[f])
            .map(|f| self.func_at[f])
            .collect();
        funcs.sort_unstable();
        for at in funcs {
            let mut at = at as usize;
            loop {
                let head = self.w(at);
                out.extend(self.inst(at));
                at += (head >> 16) as usize;
                if head & 0xffff == OP_FUNCTION_END || at >= self.len {
                    break;
                }
            }
        }
        out
    }
}

/// A parameter type as Itanium mangling sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Param {
    /// A builtin type: `f`, `d`, `Dh`, `i`, ...
    Scalar(&'static str),
    /// A vector: `Dv4_f`.
    Vector(u32, &'static str),
    /// A pointer into an address space (`P` private, `PU3AS1` global, `PU3AS3` local).
    Pointer(&'static str, Box<Param>),
}

/// The Itanium-mangled name of an OpenCL C built-in with these parameter types, with the
/// substitutions that repeated vector and pointer types take (`pow(float4, float4)` is
/// `_Z3powDv4_fS_`, `modf(float2, float2 *)` is `_Z4modfDv2_fPS_`).
pub(super) fn mangle(name: &str, params: &[Param]) -> String {
    let mut out = format!("_Z{}{}", name.len(), name);
    let mut subs: Vec<Param> = Vec::new();
    for p in params {
        out.push_str(&encode(p, &mut subs));
    }
    out
}

fn encode(p: &Param, subs: &mut Vec<Param>) -> String {
    if !matches!(p, Param::Scalar(_)) {
        if let Some(k) = subs.iter().position(|s| s == p) {
            return if k == 0 {
                "S_".to_string()
            } else {
                format!("S{}_", k - 1)
            };
        }
    }
    let text = match p {
        Param::Scalar(c) => return c.to_string(),
        Param::Vector(n, c) => format!("Dv{n}_{c}"),
        Param::Pointer(prefix, inner) => format!("{prefix}{}", encode(inner, subs)),
    };
    subs.push(p.clone());
    text
}

#[cfg(test)]
mod tests {
    use super::mangle;

    #[test]
    fn mangling_matches_clang() {
        use super::Param::*;
        let v = |n, c| Vector(n, c);
        assert_eq!(mangle("sin", &[Scalar("f")]), "_Z3sinf");
        assert_eq!(mangle("pow", &[v(4, "f"), v(4, "f")]), "_Z3powDv4_fS_");
        assert_eq!(
            mangle("ldexp", &[v(2, "d"), v(2, "i")]),
            "_Z5ldexpDv2_dDv2_i"
        );
        assert_eq!(
            mangle("fma", &[v(3, "f"), v(3, "f"), v(3, "f")]),
            "_Z3fmaDv3_fS_S_"
        );
        assert_eq!(
            mangle("smoothstep", &[Scalar("f"), Scalar("f"), v(2, "f")]),
            "_Z10smoothstepffDv2_f"
        );
        // Pointers: private, global; a pointer to a vector already seen.
        assert_eq!(
            mangle("frexp", &[Scalar("f"), Pointer("P", Box::new(Scalar("i")))]),
            "_Z5frexpfPi"
        );
        assert_eq!(
            mangle(
                "modf",
                &[Scalar("f"), Pointer("PU3AS1", Box::new(Scalar("f")))]
            ),
            "_Z4modffPU3AS1f"
        );
        assert_eq!(
            mangle("modf", &[v(2, "f"), Pointer("P", Box::new(v(2, "f")))]),
            "_Z4modfDv2_fPS_"
        );
    }
}
