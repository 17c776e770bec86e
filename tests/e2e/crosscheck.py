"""Runs the kernel corpus (tests/kernels) through pyopencl on gencl and on
PoCL, and checks every output against a NumPy reference and gencl against
PoCL. Exits non-zero on any mismatch; prints one line per check.

Usage: python crosscheck.py [--only-gencl]  (OCL_ICD_VENDORS names the .icd files)
"""
import os
import sys

import numpy as np
import pyopencl as cl

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "kernels")
N = 1000  # not a multiple of any work-group size: the remainder path runs too


def ulp_diff(a, b):
    ai = a.view(np.int32).astype(np.int64)
    bi = b.view(np.int32).astype(np.int64)
    ai = np.where(ai < 0, -(1 << 31) - ai, ai)
    bi = np.where(bi < 0, -(1 << 31) - bi, bi)
    return np.abs(ai - bi)


def cases(rng):
    a = rng.standard_normal(N).astype(np.float32)
    b = rng.standard_normal(N).astype(np.float32)
    ia = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int64).astype(np.int32)
    ib = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int64).astype(np.int32)
    la = rng.integers(-(1 << 62), 1 << 62, N, dtype=np.int64)
    lb = rng.integers(-(1 << 62), 1 << 62, N, dtype=np.int64)
    with np.errstate(over="ignore"):
        yield ("vadd.cl", "vadd", (N,), [a, b, np.zeros(N, np.float32)], [2], [a + b], 0)
        y = rng.standard_normal(N).astype(np.float32)
        n = np.uint32(N - 37)
        want = y.copy()
        # The kernel's a*x+y is contracted to a fused multiply-add: reference in double, rounded once.
        want[: N - 37] = (np.float64(2.5) * a[: N - 37].astype(np.float64) + y[: N - 37]).astype(np.float32)
        yield ("vector_ops.cl", "saxpy", (N,), [a, y, np.float32(2.5), n], [1], [want], 1)
        k = np.int32(12345)
        yield ("vector_ops.cl", "int_ops", (N,),
               [ia, ib, np.zeros(N, np.int32), np.zeros(N, np.int32), np.zeros(N, np.int32), k],
               [2, 3, 4], [ia + ib + k, ia - ib, ia * ib], 0)
        out = np.zeros(3 * N, np.float32)
        want = np.empty(3 * N, np.float32)
        want[0::3] = a - b
        want[1::3] = a * b
        want[2::3] = (a.astype(np.float64) * 0.5 + 2.0).astype(np.float32)
        yield ("vector_ops.cl", "float_ops", (N,), [a, b, out], [2], [want], 1)
        v = np.int64(-0x123456789ABCDEF)
        yield ("vector_ops.cl", "fill_long", (N,), [np.zeros(N, np.int64), v], [0], [np.full(N, v)], 0)
        yield ("vector_ops.cl", "long_add", (N,), [la, lb, np.zeros(N, np.int64)], [2], [la + lb], 0)
        w, h = 37, 23
        grid = np.zeros(w * h, np.uint32)
        xs, ys = np.meshgrid(np.arange(w, dtype=np.uint32), np.arange(h, dtype=np.uint32))
        yield ("vector_ops.cl", "ids2d", (w, h), [grid, np.uint32(w)], [0], [(xs * 1000 + ys).ravel()], 0)
        lo, hi = np.int32(-(1 << 29)), np.int32(1 << 29)
        x = ia.copy()
        want = np.where(x < lo, lo * 2, np.where(x > hi, hi - 1, x ^ 1)).astype(np.int32)
        yield ("control_flow.cl", "clamp_odd", (N,), [ia, np.zeros(N, np.int32), lo, hi], [1], [want], 0)
        rows, cols = 97, 13
        m = rng.standard_normal(rows * cols).astype(np.float32)
        want = np.zeros(rows, np.float32)
        for c in range(cols):  # the kernel's order of additions, in float32
            want = (want + m.reshape(rows, cols)[:, c]).astype(np.float32)
        yield ("control_flow.cl", "row_sum", (rows,), [m, np.zeros(rows, np.float32), np.uint32(cols)], [1], [want], 0)
        start = rng.integers(1, 100000, N, dtype=np.uint32)
        steps = np.zeros(N, np.uint32)
        for j, n0 in enumerate(start):
            n, k = int(n0), 0
            while n > 1 and k < 1000:
                n = (3 * n + 1) & 0xFFFFFFFF if n & 1 else n // 2
                k += 1
            steps[j] = k
        yield ("control_flow.cl", "collatz", (N,), [start, np.zeros(N, np.uint32)], [1], [steps], 0)


def run(platform, rng_seed=1):
    dev = platform.get_devices()[0]
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    results = {}
    programs = {}
    for file, name, gsize, args, outs, refs, tol in cases(np.random.default_rng(rng_seed)):
        if file not in programs:
            src = open(os.path.join(KERNELS, file)).read()
            programs[file] = cl.Program(ctx, src).build()
        kern = getattr(programs[file], name)
        mf = cl.mem_flags
        bufs = []
        for a in args:
            if isinstance(a, np.ndarray):
                bufs.append(cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a))
            else:
                bufs.append(a)
        kern(q, gsize, None, *bufs)
        got = []
        for i in outs:
            host = np.empty_like(args[i])
            cl.enqueue_copy(q, host, bufs[i])
            got.append(host)
        q.finish()
        results[name] = (got, refs, tol)
    return results


def vadd_2_20(platform):
    """The issue's acceptance check: 2^20 floats added exactly."""
    n = 1 << 20
    ctx = cl.Context([platform.get_devices()[0]])
    q = cl.CommandQueue(ctx)
    rng = np.random.default_rng(7)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    mf = cl.mem_flags
    da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    prg = cl.Program(ctx, open(os.path.join(KERNELS, "vadd.cl")).read()).build()
    prg.vadd(q, (n,), None, da, db, dc)
    c = np.empty_like(a)
    cl.enqueue_copy(q, c, dc)
    q.finish()
    bad = int(np.count_nonzero(c.view(np.uint32) != (a + b).view(np.uint32)))
    print(f"{'ok ' if bad == 0 else 'BAD'} gencl vadd of 2^20 floats via pyopencl: {bad} mismatches")
    return bad == 0


def compare(label, got, want, tol):
    if got.dtype == np.float32 and tol:
        bad = int(np.count_nonzero(ulp_diff(got, want) > tol))
    else:
        bad = int(np.count_nonzero(got.view(np.uint8) != want.astype(got.dtype).view(np.uint8)) > 0)
        if bad:
            bad = int(np.count_nonzero(got != want.astype(got.dtype)))
    print(f"{'ok ' if bad == 0 else 'BAD'} {label}: {bad} mismatches")
    return bad == 0


def main():
    only_gencl = "--only-gencl" in sys.argv
    plats = {p.name: p for p in cl.get_platforms()}
    print("platforms:", ", ".join(plats))
    if "gencl" not in plats:
        print("gencl platform not found")
        return 1
    ok = vadd_2_20(plats["gencl"])
    ours = run(plats["gencl"])
    for name, (got, refs, tol) in ours.items():
        for i, (g, r) in enumerate(zip(got, refs)):
            ok &= compare(f"gencl {name}[{i}] vs CPU reference", g, r, tol)
    if not only_gencl:
        pocl = next((p for n, p in plats.items() if "Portable" in n or "pocl" in n.lower()), None)
        if pocl is None:
            print("PoCL platform not found")
            return 1
        theirs = run(pocl)
        for name, (got, _refs, tol) in theirs.items():
            for i, (g, o) in enumerate(zip(got, ours[name][0])):
                ok &= compare(f"gencl {name}[{i}] vs PoCL", o, g, tol)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
