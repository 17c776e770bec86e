//! The translator's code under a write-xor-execute policy: gencld's systemd unit sets
//! `MemoryDenyWriteExecute=yes`, and the kernel's `PR_SET_MDWE` is the same rule for one
//! process (no mapping may gain execute permission, none may be writable and executable).
//! Translated runs must still map there; before, their code was an anonymous mapping made
//! executable by `mprotect`, refused under the policy, and the GPU model interpreted
//! everything. A test binary of its own: the policy, once set, holds for the process.

use gencl_kmd::gpu::eu::translate::code::Code;

/// `prctl` options (linux/prctl.h, Linux 6.3+).
const PR_SET_MDWE: libc::c_int = 65;
const PR_MDWE_REFUSE_EXEC_GAIN: libc::c_ulong = 1;

#[test]
fn runs_map_under_a_write_xor_execute_policy() {
    // SAFETY: prctl with integer arguments only; it changes this process's mapping rules.
    let r = unsafe { libc::prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) };
    assert_eq!(
        r,
        0,
        "PR_SET_MDWE: {} (this test needs Linux 6.3 or later)",
        std::io::Error::last_os_error()
    );
    // The policy holds: an anonymous mapping may not become executable.
    let anon = memmap2::MmapMut::map_anon(4096).unwrap();
    assert!(anon.make_exec().is_err(), "the W^X policy is not in force");
    // x86-64 `ret`, or any bytes elsewhere: only the mapping is tested, not called.
    let code = Code::new(&[0xC3]).expect("a run's code maps under W^X");
    assert_eq!(code.len(), 1);
    let empty = Code::new(&[]).expect("an empty buffer maps too");
    assert_eq!(empty.len(), 1);
}
