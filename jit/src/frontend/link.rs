//! clLinkProgram: SPIR-V modules (compiled objects and libraries) linked into one by
//! `spirv-link` (Debian spirv-tools), run as a child process like the other tools. The result
//! is either a library (`-create-library`: imports may stay unresolved) or a module whose every
//! import is resolved, which the JIT then compiles like any SPIR-V.

use std::process::Command;

use super::clc::{run, tool, TempDir};
use super::FrontendError;

/// clLinkProgram's options (OpenCL 3.0 §5.8.7): the library switches and the math options a
/// link may carry. Anything else is CL_INVALID_LINKER_OPTIONS.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LinkOptions {
    pub create_library: bool,
    pub enable_link_options: bool,
    /// The math options, handed to the build of an executable.
    pub build_options: Vec<String>,
}

pub fn parse_link_options(options: &str) -> Result<LinkOptions, String> {
    let mut out = LinkOptions::default();
    for w in options.split_whitespace() {
        match w {
            "-create-library" => out.create_library = true,
            "-enable-link-options" => out.enable_link_options = true,
            "-cl-denorms-are-zero"
            | "-cl-no-signed-zeros"
            | "-cl-unsafe-math-optimizations"
            | "-cl-finite-math-only"
            | "-cl-fast-relaxed-math"
            | "-cl-no-subgroup-ifp" => out.build_options.push(w.into()),
            _ => return Err(format!("unknown link option '{w}'")),
        }
    }
    // "-enable-link-options ... This option must be specified with the -create-library option."
    if out.enable_link_options && !out.create_library {
        return Err("-enable-link-options needs -create-library".into());
    }
    Ok(out)
}

/// The names a module exports (OpDecorate LinkageAttributes with linkage type Export).
pub fn exports(module: &[u8]) -> Result<Vec<String>, FrontendError> {
    const OP_DECORATE: u32 = 71;
    const LINKAGE_ATTRIBUTES: u32 = 41;
    const EXPORT: u32 = 0;
    let words = super::spirv::words_of(module)?;
    Ok(super::spirv::instructions(&words)
        .filter(|i| i[0] & 0xffff == OP_DECORATE && i.len() >= 4 && i[2] == LINKAGE_ATTRIBUTES)
        .filter_map(|i| {
            let (name, used) = super::spirv::literal_string(&i[3..]);
            (i.get(3 + used) == Some(&EXPORT)).then_some(name)
        })
        .collect())
}

/// Link `modules` (SPIR-V bytes) into one module.
pub fn link(modules: &[Vec<u8>], create_library: bool) -> Result<Vec<u8>, FrontendError> {
    if modules.is_empty() {
        return Err(FrontendError::Compile("nothing to link".into()));
    }
    // A symbol defined by two modules is a link error, as in C; this spirv-link (2022) keeps
    // both when nothing imports the name.
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (k, m) in modules.iter().enumerate() {
        for name in exports(m)? {
            if let Some(first) = seen.insert(name.clone(), k) {
                return Err(FrontendError::Compile(format!(
                    "error: '{name}' is defined by input program {first} and input program {k}"
                )));
            }
        }
    }
    let dir = TempDir::new()?;
    let mut inputs = Vec::new();
    for (k, m) in modules.iter().enumerate() {
        let p = dir.0.join(format!("input{k}.spv"));
        std::fs::write(&p, m)
            .map_err(|e| FrontendError::Tool(format!("cannot write {}: {e}", p.display())))?;
        inputs.push(p);
    }
    let out = dir.0.join("linked.spv");
    let linker = tool("spirv-link", "GENCL_SPIRV_LINK");
    let mut cmd = Command::new(&linker);
    if create_library {
        cmd.arg("--create-library");
    }
    cmd.args(&inputs).arg("-o").arg(&out);
    run(cmd, &linker, "spirv-link (Debian package spirv-tools)")?;
    std::fs::read(&out)
        .map_err(|e| FrontendError::Tool(format!("cannot read {}: {e}", out.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_options_are_validated() {
        let o = parse_link_options("-create-library -enable-link-options -cl-fast-relaxed-math")
            .unwrap();
        assert!(o.create_library && o.enable_link_options);
        assert_eq!(o.build_options, ["-cl-fast-relaxed-math"]);
        assert!(parse_link_options("-enable-link-options").is_err());
        assert!(parse_link_options("-cl-opt-disable").is_err());
        assert!(parse_link_options("-D X").is_err());
        assert_eq!(parse_link_options("").unwrap(), LinkOptions::default());
    }
}
