#!/usr/bin/env bash
# The tests: install what they need, then every crate's tests (unit tests,
# iga64/genxml/i915_drm.h cross-checks, and end-to-end runs through the ICD
# loader with C, clinfo, pyopencl and PoCL).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
bash scripts/setup.sh
cargo build --release -p gencl
cargo test --release --workspace
