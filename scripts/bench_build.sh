#!/usr/bin/env bash
# Program build benchmark (issue 26, "persistent program cache"), side by side in one run:
# tests/bench/build.c builds the typical kernel from OpenCL C cold (a source no cache has seen)
# and again (from the runtime's persistent cache) on
#   gencl embedded with gencl-clc (the warm compile helper), gencl embedded without it
#   (GENCL_CLC_HELPER=0: clang-15, opt-15, llvm-spirv-15 as processes), gencl through gencld,
#   and PoCL (Debian pocl-opencl-icd, whose kcache is its program cache),
# then ocloc (NEO's compiler, `ocloc compile -file typical.cl -device skl`, one process a
# build: it has no cache), RUNS times each (medians), with the ratios to PoCL.
# usage: scripts/bench_build.sh [RUNS] [N]   (needs: cargo build --release -p gencl -p gencl-clc)
# Each configuration gets a cache folder of its own, removed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}" n="${2:-10}"
lib="${GENCL_LIB:-$here/target/release/libgencl.so}"
tmp="$(mktemp -d)"
export GENCL_DEVICE=emulated
trap 'kill "${gencld:-0}" 2>/dev/null || true; rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/build" "$here/tests/bench/build.c" -lOpenCL
mkdir -p "$tmp/gencl" "$tmp/pocl"
echo "$lib" > "$tmp/gencl/gencl.icd"
cp /etc/OpenCL/vendors/pocl.icd "$tmp/pocl/"
XDG_CACHE_HOME="$tmp/cache-service" "$(dirname "$lib")/gencld" --socket "$tmp/gencld.sock" \
  2>/dev/null &
gencld=$!
for _ in $(seq 100); do [ -S "$tmp/gencld.sock" ] && break; sleep 0.05; done
for _ in $(seq "$runs"); do
  env OCL_ICD_VENDORS="$tmp/gencl" GENCL_MODE=embedded XDG_CACHE_HOME="$tmp/cache-embedded" \
    "$tmp/build" "$n" >> "$tmp/embedded.txt"
  env OCL_ICD_VENDORS="$tmp/gencl" GENCL_MODE=embedded XDG_CACHE_HOME="$tmp/cache-processes" \
    GENCL_CLC_HELPER=0 "$tmp/build" "$n" >> "$tmp/processes.txt"
  env OCL_ICD_VENDORS="$tmp/gencl" GENCL_MODE=service GENCL_SOCKET="$tmp/gencld.sock" \
    "$tmp/build" "$n" >> "$tmp/service.txt"
  env OCL_ICD_VENDORS="$tmp/pocl" XDG_CACHE_HOME="$tmp/cache-pocl" \
    "$tmp/build" "$n" >> "$tmp/pocl.txt"
  if command -v ocloc >/dev/null; then
    for i in $(seq "$n"); do
      { echo "// cold $$ $i $RANDOM"; cat "$here/tests/bench/typical.cl"; } > "$tmp/k.cl"
      t0=$(date +%s%N)
      ocloc compile -file "$tmp/k.cl" -device skl -output_no_suffix -out_dir "$tmp/ocloc" \
        >/dev/null 2>&1
      echo "$(( ($(date +%s%N) - t0) / 1000 ))" >> "$tmp/ocloc.txt"
    done
  fi
done
python3 - "$tmp" <<'PY'
import os, statistics, sys
tmp = sys.argv[1]
def med(name):
    rows = [list(map(float, l.split())) for l in open(f"{tmp}/{name}.txt")]
    return [statistics.median(c) for c in zip(*rows)]
pocl = med("pocl")
print(f"{'clBuildProgram, typical.cl':<34}{'cold ms':>9}{'cached ms':>11}{'cold/PoCL':>11}"
      f"{'cached/PoCL':>13}")
for name, label in (("embedded", "gencl embedded (gencl-clc)"),
                    ("processes", "gencl embedded, tools as processes"),
                    ("service", "gencl through gencld"),
                    ("pocl", "PoCL")):
    c, w = med(name)
    print(f"{label:<34}{c:>9.2f}{w:>11.3f}{c/pocl[0]:>11.2f}{w/pocl[1]:>13.4f}")
if os.path.exists(f"{tmp}/ocloc.txt"):
    o = statistics.median(float(l) for l in open(f"{tmp}/ocloc.txt")) / 1000
    print(f"{'ocloc (a process a build, no cache)':<34}{o:>9.2f}{'-':>11}{o/pocl[0]:>11.2f}")
PY
