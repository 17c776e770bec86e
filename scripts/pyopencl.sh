#!/usr/bin/env bash
# pyopencl's own tests (its source distribution's test/) against gencl alone, embedded, then
# compared with tests/pyopencl/expected-failures.txt (tests/pyopencl/compare.py): a failure not
# on the list, or a listed test that passes, fails this script. The sdist of the pyopencl that
# scripts/setup.sh installed is fetched from PyPI once into target/.
# Each file runs in a pytest process of its own: pyopencl keeps process-wide registries (a
# struct dtype registered under one C name by test_array.py is spelled with that name in
# test_algorithm.py's generated code), so files sharing a process fail each other's tests.
# A test that runs longer than GENCL_PYOPENCL_TIMEOUT seconds (default 600) fails; a file still
# running after GENCL_PYOPENCL_FILE_LIMIT seconds (default 1200: a hang in native code, where
# pytest's timeout cannot reach) is killed with its native stacks printed (scripts/deadline.sh).
# usage: scripts/pyopencl.sh [TEST_FILE...]   (default: the issue's six files)
# Needs target/release/libgencl.so (cargo build --release -p gencl).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="$here/target/venv"
py="$venv/bin/python"
"$py" -c "import pytest, mako, pytest_timeout" 2>/dev/null ||
  "$venv/bin/pip" install -q --disable-pip-version-check pytest mako pytest-timeout
version="$("$py" -c "import pyopencl; print(pyopencl.VERSION_TEXT)")"
src="$here/target/pyopencl-$version"
if [ ! -d "$src/test" ]; then
  # Preparing the sdist's metadata needs its build backend (TOOLCHAIN.md).
  "$py" -c "import scikit_build_core, nanobind" 2>/dev/null ||
    "$venv/bin/pip" install -q --disable-pip-version-check scikit-build-core nanobind
  dl="$(mktemp -d)"
  "$venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary :all: \
    --no-build-isolation "pyopencl==$version" -d "$dl"
  tar -xzf "$dl"/pyopencl-*.tar.gz -C "$here/target"
  rm -rf "$dl"
fi
files=("$@")
# The longest first, so that the side-by-side runs end together. test_algorithm.py runs as two
# processes (FILE:EXPR selects tests as pytest's -k does): its two scans of one work-item
# (test_segmented_scan, the debug-scan sort: 380 of its 690 s, on one host core) beside the
# rest; CI's pyopencl step then takes about 8 minutes instead of 11.5.
slow="test_segmented_scan or GenericDebugScanKernel"
[ ${#files[@]} -gt 0 ] || files=("test_algorithm.py:$slow" "test_algorithm.py:not ($slow)"
  test_array.py test_wrapper.py test_enqueue_copy.py test_arrays_in_structs.py test_clmath.py)
out="$here/target/pyopencl-run"
rm -rf "$out" && mkdir -p "$out/vendors"
echo "$here/target/release/libgencl.so" > "$out/vendors/gencl.icd"
# From a copy of test/: some tests write files next to themselves.
cp -r "$src/test" "$out/test"
# One file (or FILE:EXPR, a part of one): its own process, cache folder and report, `name`.
run_one() {
  local spec="$1" name="$2" f="${1%%:*}" sel=()
  [ "$spec" = "$f" ] || sel=(-k "${spec#*:}")
  local status=0
  ( cd "$out/test" && PYOPENCL_TEST=gencl OCL_ICD_VENDORS="$out/vendors" GENCL_MODE=embedded GENCL_DEVICE=emulated \
      XDG_CACHE_HOME="$out/cache-$name" bash "$here/scripts/deadline.sh" "${GENCL_PYOPENCL_FILE_LIMIT:-1200}" \
      "$py" -m pytest -q -p no:warnings -p no:cacheprovider \
      --timeout="${GENCL_PYOPENCL_TIMEOUT:-600}" --durations=5 \
      --junitxml="$out/$name.xml" "${sel[@]}" "$f" > "$out/$name.log" 2>&1 ) || status=$?
  if [ "$status" = 124 ]; then
    # A hang: the tests that ran and the stacks, into CI's own output.
    echo "$spec: killed at its deadline"
    grep -vE '^(Thread|#)' "$out/$name.log" | tail -n 40
    grep -E '^(deadline|== pid|Thread|#)' "$out/$name.log" | head -n 400
  else
    echo "$spec: $(tail -n 1 "$out/$name.log")"
  fi
}
# The files run side by side, one per core (GENCL_PYOPENCL_JOBS): the GPU model runs a launch
# on one host thread, so two files take the time of the longer one.
jobs_max="${GENCL_PYOPENCL_JOBS:-$(nproc)}"
reports=()
set +e
part=0
for f in "${files[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  part=$((part + 1))
  name="$(basename "${f%%:*}" .py)-$part"
  run_one "$f" "$name" &
  reports+=("$out/$name.xml")
done
wait
set -e
python3 "$here/tests/pyopencl/compare.py" "${reports[@]}" "$here/tests/pyopencl/expected-failures.txt"
