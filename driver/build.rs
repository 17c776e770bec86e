//! Writes `target/<profile>/gencl.icd`, a vendor file naming the built `libgencl.so` by absolute
//! path, so `OCL_ICD_VENDORS=target/<profile>/gencl.icd clinfo` finds gencl without installing.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // The `gencl` developer tool links as a position-dependent executable: its addresses are
    // fixed at link time, so the dynamic loader has no relative relocations to apply, which
    // in a PIE dirty 40-odd pages of .data.rel.ro at every start (a fifth of a `gencl
    // compile`'s page faults, 2-4 us each on a virtual machine). The service `gencld` and
    // the ICD keep position independence (and ASLR): they take untrusted input.
    println!("cargo:rustc-link-arg-bin=gencl=-no-pie");
    // OUT_DIR is target/<profile>/build/gencl-<hash>/out: three levels up is target/<profile>.
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let Some(profile_dir) = out.ancestors().nth(3) else {
        println!(
            "cargo:warning=unexpected OUT_DIR layout {}; no gencl.icd written",
            out.display()
        );
        return;
    };
    let lib = profile_dir.join("libgencl.so");
    let icd = profile_dir.join("gencl.icd");
    if let Err(e) = std::fs::write(&icd, format!("{}\n", lib.display())) {
        println!("cargo:warning=cannot write {}: {e}", icd.display());
    }
}
