#!/usr/bin/env bash
# Records what Intel's runtime (NEO, Debian's intel-opencl-icd) sends to a Skylake GT2 for
# each program of record.c, in its AUB mode (no GPU needed: nothing executes), and the
# expected results (PoCL's, or the case's CPU reference). Writes, per case, into this
# folder: CASE.aub.zst (the recording), CASE.expect and CASE.out.zst (the expected
# buffers). Usage: bash tests/neo/record.sh [CASE...]   (default: every case)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
gcc -O1 -std=c11 -o "$work/record" "$here/record.c" -lOpenCL -lm
cases=("$@")
[ ${#cases[@]} -gt 0 ] || mapfile -t cases < <("$work/record" list)
intel_icd=/etc/OpenCL/vendors/intel.icd
pocl_icd=/etc/OpenCL/vendors/pocl.icd
for c in "${cases[@]}"; do
  mkdir -p "$work/$c"
  (cd "$work/$c" && NEOReadDebugKeys=1 SetCommandStreamReceiver=1 ProductFamilyOverride=skl \
    OCL_ICD_VENDORS="$intel_icd" "$work/record" "$c" neo)
  zstd -q -19 -f "$work/$c/skl_1x3x8_0_ocl.aub" -o "$here/$c.aub.zst"
  OCL_ICD_VENDORS="$pocl_icd" "$work/record" "$c" ref "$work/$c"
  cp "$work/$c/$c.expect" "$here/$c.expect"
  zstd -q -19 -f "$work/$c/$c.out" -o "$here/$c.out.zst"
  echo "$c: $(stat -c %s "$here/$c.aub.zst") bytes recorded"
done
