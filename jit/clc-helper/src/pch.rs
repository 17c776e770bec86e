//! A precompiled header for what every OpenCL C compile parses before the program: clang's
//! opencl-c-base.h (`-finclude-default-header`) and the JIT's feature header (`-include`).
//! Parsing them is about 2.5 ms of each compile's 4-6 ms in clang (docs/benchmarks); the
//! helper parses them once per set of language options (at its second build) and hands clang the result
//! (`-include-pch`), as IGC's and PoCL's front ends do with their own headers.
//!
//! What decides whether a compile may use a PCH: everything that changes how the headers
//! parse is in the key. That is every option but the program's own file, its output, its
//! `-I` folders and its macros; a `-D`/`-U` whose name appears anywhere in the two headers
//! goes into the key too (the PCH is built with it), any other macro cannot change the
//! headers and stays on the compile's command line (clang accepts macros that the PCH did not
//! see; it refuses one whose definition differs, which the key rules out). A command line this
//! does not understand is compiled as it is.
//!
//! The PCHs live in a folder of this process (`gencl-clc-pch-PID` under the temporary
//! folder, mode 0700), removed when the helper ends; a folder left by a helper that was
//! killed is removed by the next helper that starts one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// PCHs kept by one helper: one per distinct key (a program's -cl-std, -cl-* options, -g).
const MAX_ENTRIES: usize = 16;

/// What decides how the headers parse: the options, in order, and the feature header's text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    args: Vec<String>,
    header: String,
}

/// What a compile's command line is, when a PCH can stand in for its headers.
#[derive(Debug, PartialEq, Eq)]
pub struct Plan {
    key: Key,
    /// The `-include` file's path (its text is the key's `header`).
    include: String,
}

/// Split a `clang-15 -cc1` command line (without those two words) into a plan, or `None`
/// when it is not the front end's ordinary compile or a macro would change the headers in a
/// way the key cannot hold. `header_idents` holds the identifiers of opencl-c-base.h.
pub fn plan(args: &[String], header_idents: &HashSet<String>) -> Option<Plan> {
    let mut key = Vec::new();
    let mut macros = Vec::new();
    let (mut include, mut input, mut output) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-include" if include.is_none() => include = Some(it.next()?.clone()),
            "-o" if output.is_none() => output = Some(it.next()?.clone()),
            "-D" | "-U" => macros.push(format!("{a}{}", it.next()?)),
            "-I" => {
                it.next()?;
            }
            "-triple" => {
                key.push(a.clone());
                key.push(it.next()?.clone());
            }
            // Anything that already names a PCH, a language or another header: as it is.
            "-include" | "-include-pch" | "-emit-pch" | "-x" | "-o" | "-imacros" => return None,
            _ if a.starts_with("-D") || a.starts_with("-U") => macros.push(a.clone()),
            _ if a.starts_with("-I") => {}
            _ if !a.starts_with('-') => {
                if input.replace(a.clone()).is_some() {
                    return None;
                }
            }
            _ => key.push(a.clone()),
        }
    }
    let (include, _, _) = (include?, input?, output?);
    if !key.iter().any(|a| a == "-finclude-default-header")
        || !key.iter().any(|a| a == "-emit-llvm-bc")
    {
        return None;
    }
    let header = std::fs::read_to_string(&include).ok()?;
    for m in macros {
        let name: String = m[2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if header_idents.contains(&name) || mentions(&header, &name) {
            key.push(m);
        }
    }
    Some(Plan {
        key: Key { args: key, header },
        include,
    })
}

/// Whether `name` appears in `text` as an identifier (a word of its own), as `identifiers`
/// would find it; without collecting the text's identifiers (the feature header is read for
/// every build, and most builds name no macro).
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            !text[..at].ends_with(ident) && !text[at + name.len()..].starts_with(ident)
        })
}

/// The identifiers of a C text (a superset of the macro names it can test or expand).
pub fn identifiers(text: &str) -> HashSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// Where a key stands.
enum State {
    /// Seen once: its PCH is made if it comes again.
    Seen,
    Made(PathBuf),
    /// Making it failed, or a compile with it blamed it: this key compiles without.
    Refused,
}

/// The PCHs of this helper.
#[derive(Default)]
pub struct Cache {
    dir: Option<Result<PathBuf, ()>>,
    /// The identifiers of clang's opencl-c-base.h; `None` until read, empty when it cannot
    /// be, or when GENCL_CLC_PCH=0 (then no PCH is made).
    base_header: Option<HashSet<String>>,
    /// Least recently used first, at most MAX_ENTRIES.
    entries: Vec<(Key, State)>,
    made: u64,
}

impl Cache {
    /// `plan` for a `clang-15 -cc1` command line, against clang's own header at `resource`.
    pub fn plan(&mut self, args: &[String], resource: &Path) -> Option<Plan> {
        let idents = self.base_header.get_or_insert_with(|| {
            // GENCL_CLC_PCH=0: no precompiled headers (to compare, or to rule them out).
            if std::env::var_os("GENCL_CLC_PCH").is_some_and(|v| v == "0") {
                return HashSet::new();
            }
            std::fs::read_to_string(resource.join("include/opencl-c-base.h"))
                .map(|t| identifiers(&t))
                .unwrap_or_default()
        });
        if idents.is_empty() {
            return None;
        }
        plan(args, idents)
    }

    /// The PCH for `plan`, made with `cc1` the second time its key comes; `None` when there
    /// is none to use. Not the first time: making the header costs about what parsing the
    /// headers costs three times (a process that builds one program would only pay for it),
    /// and it pays for itself from the third build on.
    pub fn get(
        &mut self,
        plan: &Plan,
        cc1: &mut dyn FnMut(&[String]) -> Option<bool>,
    ) -> Option<PathBuf> {
        let state = match self.entries.iter().position(|(k, _)| *k == plan.key) {
            Some(i) => {
                let e = self.entries.remove(i);
                self.entries.push(e);
                &mut self.entries.last_mut()?.1
            }
            None => {
                if self.entries.len() >= MAX_ENTRIES {
                    if let (_, State::Made(p)) = self.entries.remove(0) {
                        let _ = std::fs::remove_file(p);
                    }
                }
                self.entries.push((plan.key.clone(), State::Seen));
                return None;
            }
        };
        match state {
            State::Made(p) => return Some(p.clone()),
            State::Refused => return None,
            State::Seen => {}
        }
        let made = self.make(plan, cc1);
        let state = &mut self.entries.last_mut()?.1;
        *state = match &made {
            Some(p) => State::Made(p.clone()),
            None => State::Refused,
        };
        made
    }

    /// Make `plan`'s PCH in this helper's folder.
    fn make(
        &mut self,
        plan: &Plan,
        cc1: &mut dyn FnMut(&[String]) -> Option<bool>,
    ) -> Option<PathBuf> {
        let dir = self.dir()?;
        self.made += 1;
        // The header is copied: the PCH names its input file, and clang checks at each use
        // that the file is still there and unchanged; the JIT's copy goes with its compile.
        let header = dir.join(format!("features-{}.h", self.made));
        let pch = dir.join(format!("headers-{}.pch", self.made));
        std::fs::write(&header, &plan.key.header).ok()?;
        let mut args: Vec<String> = plan
            .key
            .args
            .iter()
            .map(|a| match a.as_str() {
                "-emit-llvm-bc" => "-emit-pch".to_string(),
                _ => a.clone(),
            })
            .collect();
        args.extend(["-x".into(), "cl-header".into()]);
        args.push(header.to_string_lossy().into_owned());
        args.push("-o".into());
        args.push(pch.to_string_lossy().into_owned());
        (cc1(&args) == Some(true)).then_some(pch)
    }

    /// Forget `plan`'s PCH: a compile with it failed in a way a PCH could cause.
    pub fn refuse(&mut self, plan: &Plan) {
        for (k, state) in &mut self.entries {
            if *k == plan.key {
                if let State::Made(p) = std::mem::replace(state, State::Refused) {
                    let _ = std::fs::remove_file(p);
                }
            }
        }
    }

    fn dir(&mut self) -> Option<PathBuf> {
        self.dir
            .get_or_insert_with(|| make_dir(&std::env::temp_dir()).map_err(|_| ()))
            .clone()
            .ok()
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        if let Some(Ok(dir)) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The compile's command line with the PCH in place of its `-include`.
pub fn with_pch(args: &[String], plan: &Plan, pch: &Path) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-include" {
            if it.next().is_some_and(|f| *f == plan.include) {
                out.push("-include-pch".into());
                out.push(pch.to_string_lossy().into_owned());
                continue;
            }
            return args.to_vec();
        }
        out.push(a.clone());
    }
    out
}

/// Whether a failed compile's log blames the PCH rather than the program.
pub fn blames_pch(log: &[u8]) -> bool {
    let log = String::from_utf8_lossy(log);
    log.contains("precompiled header") || log.contains("PCH file")
}

const PREFIX: &str = "gencl-clc-pch-";

/// This process's folder under `tmp`, after removing those of helpers no longer running.
fn make_dir(tmp: &Path) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    if let Ok(list) = std::fs::read_dir(tmp) {
        for e in list.flatten() {
            let name = e.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|n| n.strip_prefix(PREFIX))
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            // Only our own user's folders (the sticky temporary folder keeps others' anyway).
            if !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let dir = tmp.join(format!("{PREFIX}{}", std::process::id()));
    // A folder already there (a stale one of a reused pid, or someone else's) is not used:
    // `create` fails and the helper compiles without PCHs.
    std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_key_holds_what_changes_the_headers_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("gencl-pch-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let inc = dir.join("f.h");
        std::fs::write(&inc, "#undef cl_khr_fp16\n#ifdef FEATURE_X\n#endif\n").unwrap();
        let base = identifiers("#if defined(__opencl_c_images)\ntypedef int int2;\n#endif");
        let line = format!(
            "-triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header -emit-llvm-bc \
             -D__OPENCL_VERSION__=300 -include {} -O2 -D N=4 -DFEATURE_X -U__opencl_c_images \
             -I /inc a.cl -o a.bc",
            inc.display()
        );
        let p = plan(&words(&line), &base).unwrap();
        assert_eq!(
            p.key.args,
            words(
                "-triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header \
                 -emit-llvm-bc -O2 -DFEATURE_X -U__opencl_c_images"
            )
        );
        // __OPENCL_VERSION__ is in neither header here: it stays on the command line only.
        assert!(!p.key.args.iter().any(|a| a.contains("OPENCL_VERSION")));
        let pch = dir.join("h.pch");
        assert_eq!(
            with_pch(&words(&line), &p, &pch),
            words(&line.replace(
                &format!("-include {}", inc.display()),
                &format!("-include-pch {}", pch.display())
            ))
        );
        // Not the front end's compile: no plan.
        for other in [
            "-triple spir64-unknown-unknown -finclude-default-header -emit-llvm-bc a.cl -o a.bc",
            "-finclude-default-header -emit-llvm-bc -include-pch x.pch a.cl -o a.bc",
            "-finclude-default-header -emit-llvm-bc a.cl b.cl -o a.bc",
        ] {
            assert_eq!(plan(&words(other), &base), None, "{other}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn identifiers_are_words_not_numbers() {
        let ids = identifiers("#if __OPENCL_C_VERSION__ >= 200 && defined(x1)\n0x1F u8");
        for w in ["__OPENCL_C_VERSION__", "defined", "x1", "if", "u8"] {
            assert!(ids.contains(w), "{w}");
        }
        assert!(!ids.contains("200") && !ids.contains("0x1F"));
        // `mentions` agrees with `identifiers` on every word and on parts of words.
        let text = "#ifdef FEATURE_X\nint cl_khr_fp16_x = 0x1F;\n";
        let all = identifiers(text);
        for w in [
            "FEATURE_X",
            "FEATURE",
            "X",
            "cl_khr_fp16",
            "cl_khr_fp16_x",
            "int",
            "1F",
            "x",
        ] {
            assert_eq!(mentions(text, w), all.contains(w), "{w}");
        }
    }
}
