// Sorting networks. References: driver/tests/bench/cases.rs.

// One compare-exchange step (j, k) of a global bitonic sort, one pair per work-item.
__kernel void bitonic_step(__global int *a, int j, int k) {
    int i = get_global_id(0);
    // Item i handles the pair (lo, lo + j), lo having bit j clear.
    int lo = ((i & ~(j - 1)) << 1) | (i & (j - 1));
    int hi = lo + j;
    bool up = (lo & k) == 0;
    int x = a[lo], y = a[hi];
    if ((x > y) == up) {
        a[lo] = y;
        a[hi] = x;
    }
}

// A whole bitonic sort of 256 ints per group in __local memory (128 items, 2 each).
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void bitonic_sort_local(__global int *a) {
    __local int t[256];
    int l = get_local_id(0);
    int base = get_group_id(0) * 256;
    t[l] = a[base + l];
    t[l + 128] = a[base + l + 128];
    for (int k = 2; k <= 256; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            int lo = ((l & ~(j - 1)) << 1) | (l & (j - 1));
            int hi = lo + j;
            bool up = (lo & k) == 0;
            int x = t[lo], y = t[hi];
            if ((x > y) == up) {
                t[lo] = y;
                t[hi] = x;
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    a[base + l] = t[l];
    a[base + l + 128] = t[l + 128];
}

// One odd-even transposition step over float keys (phase 0: pairs (0,1), (2,3)...).
__kernel void odd_even_step(__global float *a, int phase, int n) {
    int lo = 2 * get_global_id(0) + phase;
    if (lo + 1 < n) {
        float x = a[lo], y = a[lo + 1];
        a[lo] = fmin(x, y);
        a[lo + 1] = fmax(x, y);
    }
}
