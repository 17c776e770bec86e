#!/usr/bin/env bash
# Installs what gencl needs on a fresh Debian 12 machine (run as root, or with sudo available).
# Idempotent: packages already present are left as they are.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

packages=(
  gcc make pkg-config                       # C probes and examples
  clang-15 llvm-spirv-15 spirv-tools        # OpenCL C -> SPIR-V (the JIT's front end)
  llvm-15                                   # opt-15, llvm-as/dis-15: LLVM IR legalised before llvm-spirv
  llvm-15-dev libclang-cpp15-dev libclang-15-dev libllvmspirvlib-15-dev  # gencl-clc: the three as libraries
  libclc-15                                 # the OpenCL C built-in library as SPIR-V, linked by the JIT
  libigc-tools intel-opencl-icd libigc-dev  # iga64 and ocloc: Intel's references
  ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers clinfo  # the ICD loader and its clients
  pocl-opencl-icd                           # a second OpenCL implementation for cross-checks
  piglit                                    # piglit's OpenCL profile (scripts/piglit.sh)
  time                                      # /usr/bin/time: peak memory in scripts/bench_compile.py
  libdrm-dev                                # i915_drm.h: the uAPI reference
  python3-venv python3-pip
  cmake                                     # pyopencl's sdist: scikit-build-core wants CMake to prepare its metadata
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# pyopencl from PyPI in a venv of the project's own (its wheel bundles an ICD
# loader that honours OCL_ICD_VENDORS).
venv="$here/target/venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pyopencl, numpy" 2>/dev/null; then
  echo "setup: creating $venv with pyopencl and numpy"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check pyopencl numpy
fi
