#!/usr/bin/env bash
# piglit's OpenCL profile (`piglit run cl`, Debian `piglit`) against gencl alone, on the embedded
# emulated Gen9, then compared with the expected-failure list tests/piglit/expected-failures.txt:
# a failure not on the list, or a listed test that now passes, fails this script, so the list can
# only shrink. GENCL_PIGLIT_WRITE=1 rewrites the list from this run (causes already written by hand
# are kept). Needs target/release/libgencl.so (cargo build --release -p gencl).
# With GENCL_PIGLIT_SHIM=1 the run goes through the real backend (GENCL_DEVICE=real) and the
# drm-shim (target/release/libgencl_drm_shim.so, LD_PRELOAD), into target/piglit-shim.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/target/piglit"
shim_env=(GENCL_DEVICE=emulated)
if [ "${GENCL_PIGLIT_SHIM:-0}" = 1 ]; then
  out="$here/target/piglit-shim"
  shim_env=(GENCL_DEVICE=real LD_PRELOAD="$here/target/release/libgencl_drm_shim.so")
fi
vendors="$out/vendors"
rm -rf "$out"
mkdir -p "$vendors"
echo "$here/target/release/libgencl.so" > "$vendors/gencl.icd"
# piglit's runner writes under the current folder; -j2 is the machine's two cores.
( cd "$out" && env "${shim_env[@]}" GENCL_MODE=embedded OCL_ICD_VENDORS="$vendors" \
    timeout 1500 piglit run -l dummy -j2 --timeout 300 cl "$out/results" )
python3 "$here/tests/piglit/compare.py" "$out/results/results.json.bz2" \
  "$here/tests/piglit/expected-failures.txt"
