//! Issue 3's proof on Intel's compiler: every kernel of tests/igc/*.cl, built
//! by ocloc for Skylake, runs on the GPU model through gencl's submitter and
//! the emulated i915, and its results equal a CPU reference.
mod igc;

#[test]
fn corpus_cases_name_real_kernels() {
    let cases = igc::cases::all();
    for c in &cases {
        assert!(
            igc::cases::FILES.contains(&c.file),
            "{}: unknown file {}",
            c.kernel,
            c.file
        );
    }
}
