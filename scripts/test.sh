#!/usr/bin/env bash
# The tests: install what they need, then every crate's tests (unit tests,
# iga64/genxml/i915_drm.h cross-checks, and end-to-end runs through the ICD
# loader with clinfo, C programs, pyopencl and PoCL) with one summary line over
# all test binaries, then piglit's OpenCL profile and pyopencl's own tests, each against its
# expected-failure list.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
bash scripts/setup.sh
cargo build --release -p gencl -p gencl-clc -p gencl-drm-shim
# The emulated device is listed only when asked for; the drm-shim runs below ask for the real
# backend instead.
export GENCL_DEVICE="${GENCL_DEVICE:-emulated}"
# Every kernel every test builds (the JIT's own tests, the corpora, and what piglit, pyopencl
# and the C programs build through the API) is checked: the IR verifier after every pass and
# the legality validator on the emitted machine code (docs/jit.md). A violation fails the
# build with an internal compiler error, so the test that built it fails.
export GENCL_VERIFY_IR="${GENCL_VERIFY_IR:-1}" GENCL_VALIDATE="${GENCL_VALIDATE:-1}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
# A test binary that hangs is killed at the deadline with its threads' stacks printed.
bash scripts/deadline.sh "${GENCL_TEST_LIMIT:-2700}" cargo test --release --workspace 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
awk '/^test result:/ { p += $4; f += $6 } END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
# The real backend, as a machine with a GPU runs it, through the drm-shim (an LD_PRELOAD
# library presenting the emulated i915 as /dev/dri/renderD128): gencl's kernel corpus.
set +e
CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="env LD_PRELOAD=$here/target/release/libgencl_drm_shim.so GENCL_DEVICE=real" \
  bash scripts/deadline.sh 900 cargo test --release -p gencl --test gencl_corpus 2>&1 | tee -a "$log.shim"
shim_status=${PIPESTATUS[0]}
set -e
awk '/^test result:/ { p += $4; f += $6 } END { printf "tests through the drm-shim: %d passed, %d failed\n", p, f }' "$log.shim"
rm -f "$log.shim"
[ "$status" = 0 ] && status=$shim_status
# piglit's OpenCL profile against its expected-failure list (about a minute), on the embedded
# emulated device and then through the real backend and the drm-shim.
set +e
bash scripts/piglit.sh
piglit_status=$?
GENCL_PIGLIT_SHIM=1 bash scripts/piglit.sh
piglit_shim_status=$?
set -e
[ "$status" = 0 ] && status=$piglit_status
[ "$status" = 0 ] && status=$piglit_shim_status
# pyopencl's own tests against their expected-failure list: the issue's six files
# (test_wrapper, test_enqueue_copy, test_arrays_in_structs, test_clmath, test_array,
# test_algorithm), each in its own process (docs/conformance.md has the figures).
set +e
bash scripts/pyopencl.sh
pyopencl_status=$?
set -e
[ "$status" = 0 ] && status=$pyopencl_status
exit "$status"
