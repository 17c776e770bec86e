#!/usr/bin/env bash
# The main job: install, build, then clinfo lists the gencl platform and the
# example adds two vectors of 2^20 floats on the emulated Gen9 device, first
# with the service embedded in the application, then through gencld.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
bash scripts/setup.sh
cargo build --release -p gencl -p gencl-clc
out="$here/target/release"
export OCL_ICD_VENDORS="$out/gencl.icd"
# The emulated device is listed only when asked for (an installed gencl without an Intel GPU
# lists none).
export GENCL_DEVICE="${GENCL_DEVICE:-emulated}"

echo "== clinfo -l"
clinfo -l
echo "== vadd, embedded service"
gcc -O2 -o "$out/vadd" examples/vadd.c -lOpenCL
GENCL_MODE=embedded "$out/vadd"

echo "== vadd, through gencld"
sock="$(mktemp -d)/gencld.sock"
"$out/gencld" --socket "$sock" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
GENCL_MODE=service GENCL_SOCKET="$sock" "$out/vadd"
