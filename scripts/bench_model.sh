#!/usr/bin/env bash
# The GPU model on element-wise integer kernels (issue 23; the shape of the CTS's
# test_integer_ops), side by side with PoCL in one run: tests/bench/elementwise.c, `d = a OP b`
# over N work-items of each type below, on gencl's emulated device (embedded) and on PoCL
# (Debian pocl-opencl-icd), each alone on the ICD loader; every result checked against the
# host's arithmetic. Prints each one's best launch in ns a work-item and gencl / PoCL.
# usage: scripts/bench_model.sh [N] [REPS] [OP]   (needs: cargo build --release -p gencl)
# GENCL_LIB=path/to/libgencl.so measures another build of gencl (e.g. an older commit's).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-1048576}" reps="${2:-5}" op="${3:-+}"
lib="${GENCL_LIB:-$here/target/release/libgencl.so}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/elementwise" "$here/tests/bench/elementwise.c" -lOpenCL
mkdir -p "$tmp/gencl" "$tmp/pocl"
echo "$lib" > "$tmp/gencl/gencl.icd"
cp /etc/OpenCL/vendors/pocl.icd "$tmp/pocl/"
ns() { sed -n 's/.*, \([0-9.]*\) ns a work-item/\1/p'; }
printf '%-8s %14s %14s %10s\n' type "gencl ns/wi" "PoCL ns/wi" "gencl/PoCL"
for t in "char 16" "short 8" "int 1" "int 4" "int 16" "long 1" "long 16"; do
  # shellcheck disable=SC2086
  g="$(GENCL_MODE=embedded GENCL_DEVICE=emulated OCL_ICD_VENDORS="$tmp/gencl" "$tmp/elementwise" $t "$n" "$reps" "$op" | ns)"
  # shellcheck disable=SC2086
  p="$(OCL_ICD_VENDORS="$tmp/pocl" "$tmp/elementwise" $t "$n" "$reps" "$op" | ns)"
  printf '%-8s %14s %14s %10s\n' "${t/ /}" "$g" "$p" "$(awk -v g="$g" -v p="$p" 'BEGIN { printf "%.1f", g / p }')"
done
