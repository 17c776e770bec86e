#!/usr/bin/env bash
# Builds and runs OpenCL-CTS binaries against gencl (developers only: CI cannot fetch the CTS).
# usage: scripts/cts.sh CTS_SRC HEADERS_SRC SPIRV_HEADERS_SRC BUILD_DIR TEST [ARGS...]
#   e.g. scripts/cts.sh /tmp/cts/OpenCL-CTS /tmp/cts/OpenCL-Headers /tmp/cts/SPIRV-Headers \
#        /tmp/cts/build test_compiler
# The sources come from KhronosGroup/OpenCL-CTS, OpenCL-Headers and SPIRV-Headers (extracted
# outside the repo, never committed). Needs cmake and ninja-build; runs the test from its own
# build folder with gencl's .icd alone, embedded, on the emulated device. GENCL_CTS_ICD names
# another library (a second gencl build, to compare before and after). CL_DEVICE_TYPE (default
# all) picks the device type; test_computeinfo refuses "all" and needs CL_DEVICE_TYPE=gpu.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cts="$1" headers="$2" spirv="$3" build="$4" test="$5"
shift 5
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$cts" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCL_INCLUDE_DIR="$headers" -DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu \
    -DOPENCL_LIBRARIES=OpenCL -DSPIRV_INCLUDE_DIR="$spirv" >/dev/null
fi
ninja -C "$build" -j2 "$test" >/dev/null
bin="$(find "$build/test_conformance" -name "$test" -type f -perm -u+x | head -1)"
vendors="$(mktemp -d)"
trap 'rm -rf "$vendors"' EXIT
echo "${GENCL_CTS_ICD:-$here/target/release/libgencl.so}" > "$vendors/gencl.icd"
cd "$(dirname "$bin")"
GENCL_MODE=embedded GENCL_DEVICE=emulated OCL_ICD_VENDORS="$vendors" CL_DEVICE_TYPE="${CL_DEVICE_TYPE:-all}" \
  timeout 1800 "./$test" "$@"
