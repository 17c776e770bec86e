#!/usr/bin/env python3
"""Compile benchmark, side by side with Intel's compiler (issue 9, "Speed and memory").

For each kernel (tests/bench/typical.cl: sin and exp from the built-in library;
tests/kernels/vadd.cl: none), the same SPIR-V (clang-15 + llvm-spirv-15) is compiled by
  A: target/release/gencl compile K.spv            (whole process)
  B: ocloc compile -spirv_input -file K.spv -device skl
in turn, A B A B ..., and the script prints each one's median wall time and peak memory
(the child's own ru_maxrss, from wait4) and the ratios A/B. Then `gencl compile --repeat`
gives the in-process JIT time of the same kernel once the library is indexed.

Targets from the issue: A/B time under 1/50, A/B memory under 1/8, in-process under 1 ms.
Usage: python3 scripts/bench_compile.py [RUNS]   (needs: cargo build --release -p gencl)
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENCL = os.path.join(ROOT, "target/release/gencl")
KERNELS = ["tests/bench/typical.cl", "tests/kernels/vadd.cl"]


def to_spirv(cl, out):
    bc = out + ".bc"
    subprocess.run(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL1.2",
                    "-finclude-default-header", "-fdeclare-opencl-builtins",
                    "-no-opaque-pointers", "-emit-llvm-bc", "-O2", cl, "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-max-version=1.2", bc, "-o", out], check=True)


def run(cmd):
    """Wall seconds of one whole process, and its peak resident KiB from a second run under
    GNU time (a forked child's ru_maxrss would count this interpreter's pages too)."""
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    t = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    return wall, int(t.stderr.strip().splitlines()[-1])


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    if not shutil.which("ocloc"):
        sys.exit("ocloc not found (Debian intel-opencl-icd)")
    if not os.path.exists("/usr/bin/time"):
        sys.exit("/usr/bin/time not found (Debian time)")
    tmp = tempfile.mkdtemp(prefix="gencl-bench-")
    print(f"{'kernel':<10} {'gencl ms':>9} {'ocloc ms':>9} {'time A/B':>9} "
          f"{'gencl MiB':>10} {'ocloc MiB':>10} {'mem A/B':>8} {'in-process ms':>14}")
    for k in KERNELS:
        name = os.path.splitext(os.path.basename(k))[0]
        spv = os.path.join(tmp, name + ".spv")
        to_spirv(os.path.join(ROOT, k), spv)
        a_cmd = [GENCL, "compile", spv, "-o", os.path.join(tmp, "gencl")]
        b_cmd = ["ocloc", "compile", "-spirv_input", "-file", spv, "-device", "skl",
                 "-out_dir", os.path.join(tmp, "ocloc")]
        run(a_cmd)
        run(b_cmd)  # warm-up
        a, b, ratios = [], [], []
        for _ in range(runs):
            ra, rb = run(a_cmd), run(b_cmd)
            a.append(ra)
            b.append(rb)
            ratios.append(ra[0] / rb[0])
        rep = subprocess.run(a_cmd + ["--repeat", "200"], capture_output=True, text=True)
        inproc = next((l.split("median ")[1].split(" ms")[0] for l in rep.stderr.splitlines()
                       if "median" in l), "?")
        med = statistics.median
        am, bm = med(x[1] for x in a) / 1024, med(x[1] for x in b) / 1024
        print(f"{name:<10} {med(x[0] for x in a) * 1e3:9.2f} {med(x[0] for x in b) * 1e3:9.2f} "
              f"{'1/%.1f' % (1 / med(ratios)):>9} {am:10.1f} {bm:10.1f} "
              f"{'1/%.1f' % (bm / am):>8} {inproc:>14}")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
