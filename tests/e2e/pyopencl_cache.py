"""pyopencl with its binary cache on, as users run it: the first run builds from source and
stores CL_PROGRAM_BINARIES, the second run (a new process, same cache folder) rebuilds from
the stored binary with clCreateProgramWithBinary. Both runs must give exact results.

Usage: python pyopencl_cache.py CACHE_DIR   (OCL_ICD_VENDORS names gencl's .icd)
Prints "cached=<bool>" for the low-level path and "ok ..." for each exact result.
"""
import os
import sys

os.environ["PYOPENCL_CACHE_FAILURE_FATAL"] = "1"  # a cache failure is an error, not a warning

import numpy as np
import pyopencl as cl
from pyopencl.cache import create_built_program_from_source_cached

SRC = """
kernel void scale_add(global const int *a, global int *out, int k) {
    size_t i = get_global_id(0);
    out[i] = a[i] * k + (int)i;
}
"""


def main():
    cache_dir = sys.argv[1]
    ctx = cl.Context(dev_type=cl.device_type.ALL)
    (dev,) = ctx.devices
    assert "gencl" in dev.platform.name.lower() or "gen9" in dev.name.lower(), dev.name
    q = cl.CommandQueue(ctx)
    n = 1000
    a = np.arange(n, dtype=np.int32) * 3 - 500
    want = a * 7 + np.arange(n, dtype=np.int32)

    # The cache's own entry point tells whether the binary came from the cache.
    prg, was_cached = create_built_program_from_source_cached(ctx, SRC, b"", cache_dir=cache_dir)
    print(f"cached={was_cached}")
    # And the way applications write it: Program(...).build() consults the same cache.
    prg2 = cl.Program(ctx, SRC).build(cache_dir=cache_dir)
    mf = cl.mem_flags
    for tag, p in (("low-level", prg), ("Program.build", prg2)):
        da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
        dout = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
        cl.Kernel(p, "scale_add")(q, (n,), None, da, dout, np.int32(7))
        got = np.empty_like(a)
        cl.enqueue_copy(q, got, dout)
        bad = int(np.count_nonzero(got != want))
        print(f"{'ok ' if bad == 0 else 'BAD'} {tag}: {bad} mismatches of {n}")
        if bad:
            sys.exit(1)


main()
