//! `GENCL_DUMP=DIR`: what the compiler made of every program it built, as IGC's shader dumps
//! show it. Per program, named `prog-HASH` by a hash of its input and options: the OpenCL C
//! source (`.cl`) or the IL it was given, the build options (`.options`) and the SPIR-V it
//! compiled (`.spv`); per kernel, `prog-HASH.KERNEL.ir` (the IR after the passes, in
//! `ir::print`'s form) and `prog-HASH.KERNEL.asm` (the Gen9 code in IGA's syntax). A file
//! that cannot be written is logged and the build goes on.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folder `GENCL_DUMP` names, read once per process.
pub fn dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        std::env::var_os("GENCL_DUMP")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
    .as_deref()
}

/// A program's name in the dump: a hash of what was compiled and how.
pub fn program_name(input: &[u8], options: &str) -> String {
    let mut key = input.to_vec();
    key.push(0);
    key.extend_from_slice(options.as_bytes());
    let h = crate::binary::fnv(&key);
    format!("prog-{h:016x}")
}

/// Write `bytes` as `name` in the dump folder (made if missing).
pub fn write(name: &str, bytes: &[u8]) {
    let Some(dir) = dir() else { return };
    let path = dir.join(name);
    if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, bytes)) {
        tracing::warn!("GENCL_DUMP: {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_input_and_the_options() {
        let a = program_name(b"kernel void k() {}", "");
        assert_eq!(a, program_name(b"kernel void k() {}", ""));
        assert_ne!(a, program_name(b"kernel void k() {}", "-D N=1"));
        assert_ne!(a, program_name(b"kernel void j() {}", ""));
        assert!(a.starts_with("prog-") && a.len() == 5 + 16);
    }
}
