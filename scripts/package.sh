#!/usr/bin/env bash
# Builds gencl's Debian package: target/debian/gencl_VERSION_ARCH.deb (dpkg-deb, no other
# packaging tool). usage: bash scripts/package.sh [OUT_DIR]
# GENCL_PACKAGE_NO_BUILD=1 packages what is built already, from GENCL_PACKAGE_FROM (default
# target/release; the package test names its own build folder).
#
# What it installs (docs/user-guide.md, "Install"):
#   /usr/lib/<triplet>/libgencl.so          the ICD
#   /etc/OpenCL/vendors/gencl.icd           names it for the ICD loader (a conffile)
#   /usr/bin/gencld, /usr/bin/gencl         the service and the tool
#   /usr/libexec/gencl/gencl-clc            the warm compile helper (clang and LLVM as libraries)
#   /lib/systemd/system/gencld.{socket,service}   the socket-activated service (not enabled:
#                                           `systemctl enable --now gencld.socket`)
#   /usr/share/doc/gencl/                   README, the user guide, copyright
# Installed without an Intel GPU it lists no device: the emulated Gen9 is for development
# (GENCL_DEVICE=emulated).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/target/debian}"
cd "$here"
if [ "${GENCL_PACKAGE_NO_BUILD:-0}" != 1 ]; then
  cargo build --release -p gencl -p gencl-clc
fi
rel="${GENCL_PACKAGE_FROM:-$here/target/release}"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
arch="$(dpkg --print-architecture)"
triplet="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)"
root="$(mktemp -d)"
chmod 0755 "$root"
trap 'rm -rf "$root"' EXIT
install -d "$root/DEBIAN" "$root/usr/lib/$triplet" "$root/etc/OpenCL/vendors" "$root/usr/bin" \
  "$root/usr/libexec/gencl" "$root/lib/systemd/system" "$root/usr/share/doc/gencl"
install -m 0644 "$rel/libgencl.so" "$root/usr/lib/$triplet/libgencl.so"
# The library by name: the loader finds it on the system's library path, as pocl.icd does.
echo "libgencl.so" > "$root/etc/OpenCL/vendors/gencl.icd"
install -m 0755 "$rel/gencld" "$rel/gencl" "$root/usr/bin/"
install -m 0755 "$rel/gencl-clc" "$root/usr/libexec/gencl/"
install -m 0644 systemd/gencld.socket systemd/gencld.service "$root/lib/systemd/system/"
install -m 0644 README.md docs/user-guide.md docs/protocol.md "$root/usr/share/doc/gencl/"
cat > "$root/usr/share/doc/gencl/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gencl

Files: *
Copyright: the gencl developers
License: MIT
EOF
strip --strip-unneeded "$root/usr/lib/$triplet/libgencl.so" "$root/usr/bin/gencld" \
  "$root/usr/bin/gencl" "$root/usr/libexec/gencl/gencl-clc" 2>/dev/null || true
size_kib="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
cat > "$root/DEBIAN/control" <<EOF
Package: gencl
Version: $version
Architecture: $arch
Maintainer: gencl developers <gencl@localhost>
Installed-Size: $size_kib
Depends: ocl-icd-libopencl1, clang-15, llvm-15, llvm-spirv-15, libclc-15, spirv-tools,
 libclang-cpp15, libllvm15, libllvmspirvlib15
Recommends: clinfo
Provides: opencl-icd
Section: libs
Priority: optional
Description: OpenCL driver for Intel Gen9 GPUs
 gencl is an OpenCL 3.0 implementation for Intel Gen9 GPUs (Skylake to Comet Lake,
 Apollo Lake, Gemini Lake) through the i915 kernel driver: an ICD for the OpenCL ICD
 loader, a service (gencld) that owns the GPU, and a JIT from OpenCL C and SPIR-V to Gen9
 machine code. An emulated Gen9 (GENCL_DEVICE=emulated) serves development and CI.
EOF
echo "/etc/OpenCL/vendors/gencl.icd" > "$root/DEBIAN/conffiles"
mkdir -p "$out"
deb="$out/gencl_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$root" "$deb" >/dev/null
echo "$deb"
