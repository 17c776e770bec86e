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
    // It also carries its own copy of the unwinder (gcc's `-static-libgcc`): std names the
    // shared libgcc_s for `_Unwind_*`, whose constructor (`__cpu_indicator_init`) runs a dozen
    // `cpuid`s at every start, and a `cpuid` traps to the hypervisor on a virtual machine
    // (8-9 us each here): 0.1-0.15 ms of a 2 ms `gencl compile`. The whole archive is named
    // because the linker has met libgcc_s by then: only definitions from objects displace
    // its symbols, and `--as-needed` then drops it.
    println!(
        "cargo:rustc-link-arg-bin=gencl=-Wl,--push-state,--whole-archive,-lgcc_eh,--pop-state"
    );
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
