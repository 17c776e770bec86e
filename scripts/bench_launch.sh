#!/usr/bin/env bash
# Launch benchmark (issue 11, "Speed"), side by side with PoCL in one run: tests/bench/launch.c
# (an empty kernel: time inside a non-blocking enqueue, launches per second over a batch of
# 10,000 non-blocking enqueues and clFinish, a blocking round trip) against
#   gencl embedded, gencl through gencld (a private socket), and PoCL (Debian pocl-opencl-icd),
# each alone on the ICD loader, in turn, RUNS times (medians), then the ratios to PoCL.
# Targets from the issue: enqueue under 5 µs; batch at least 50,000/s embedded and 20,000/s
# through gencld; the blocking round trip through gencld no slower than PoCL's.
# usage: scripts/bench_launch.sh [RUNS] [BATCH]   (needs: cargo build --release -p gencl)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-5}" batch="${2:-10000}"
tmp="$(mktemp -d)"
trap 'kill "${gencld:-0}" 2>/dev/null || true; rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/launch" "$here/tests/bench/launch.c" -lOpenCL
mkdir -p "$tmp/gencl" "$tmp/pocl"
echo "$here/target/release/libgencl.so" > "$tmp/gencl/gencl.icd"
cp /etc/OpenCL/vendors/pocl.icd "$tmp/pocl/"
"$here/target/release/gencld" --socket "$tmp/gencld.sock" 2>/dev/null &
gencld=$!
for _ in $(seq 100); do [ -S "$tmp/gencld.sock" ] && break; sleep 0.05; done
run() { # name, env...
  local name="$1"; shift
  env "$@" "$tmp/launch" "$batch" >> "$tmp/$name.txt"
}
for _ in $(seq "$runs"); do
  run embedded OCL_ICD_VENDORS="$tmp/gencl" GENCL_MODE=embedded
  run service OCL_ICD_VENDORS="$tmp/gencl" GENCL_MODE=service GENCL_SOCKET="$tmp/gencld.sock"
  run pocl OCL_ICD_VENDORS="$tmp/pocl"
done
python3 - "$tmp" <<'PY'
import statistics, sys
tmp = sys.argv[1]
def med(name):
    rows = [list(map(float, l.split())) for l in open(f"{tmp}/{name}.txt")]
    return [statistics.median(c) for c in zip(*rows)]
pocl = med("pocl")
print(f"{'':<16}{'enqueue µs':>12}{'batch /s':>12}{'blocking µs':>13}"
      f"{'enq/PoCL':>10}{'batch/PoCL':>11}{'block/PoCL':>11}")
for name in ("embedded", "service", "pocl"):
    e, b, r = med(name)
    print(f"gencl {name:<10}" if name != "pocl" else f"{'PoCL':<16}", end="")
    print(f"{e:>12.2f}{b:>12.0f}{r:>13.1f}{e/pocl[0]:>10.2f}{b/pocl[1]:>11.2f}{r/pocl[2]:>11.2f}")
PY
