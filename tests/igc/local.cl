// Shared local memory, barriers, work-group and sub-group built-ins as
// Intel's compiler lowers them. References: driver/tests/igc/cases/local.rs.

// Tree reduction of 256 ints in a fixed-size __local array.
__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void wg_sum(__global const int *in, __global int *out) {
    __local int s[256];
    int l = get_local_id(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 128; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}

// Hillis-Steele inclusive scan, double-buffered in two __local pointer arguments.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void scan_hs(__global const int *in, __global int *out, __local int *a, __local int *b) {
    int l = get_local_id(0);
    int n = get_local_size(0);
    a[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < n; d <<= 1) {
        b[l] = l >= d ? a[l] + a[l - d] : a[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local int *t = a;
        a = b;
        b = t;
    }
    out[get_global_id(0)] = a[l];
}

// Matrix transpose through a padded 16x16 local tile (2-D groups).
__kernel void transpose16(__global const float *in, __global float *out) {
    __local float tile[16][17];
    int lx = get_local_id(0), ly = get_local_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
    tile[ly][lx] = in[(gy + ly) * w + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Item (lx, ly) writes column gy+lx of row gx+ly of the h-wide output.
    out[(gx + ly) * h + gy + lx] = tile[lx][ly];
}

// Reverse the elements of each group through a __local pointer argument.
__kernel void reverse_group(__global const int *in, __global int *out, __local int *t) {
    int l = get_local_id(0), n = get_local_size(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[n - 1 - l];
}

// A 64-bin histogram per group in local memory with local atomics.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void local_histogram(__global const uint *in, __global uint *out) {
    __local uint bins[64];
    int l = get_local_id(0), n = get_local_size(0);
    for (int b = l; b < 64; b += n)
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; k++)
        atomic_inc(&bins[(in[get_global_id(0) * 4 + k] >> 3) & 63]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = l; b < 64; b += n)
        out[get_group_id(0) * 64 + b] = bins[b];
}

// Local arrays of char, short, long and float: each item reads its right neighbour.
__kernel void local_types(__global const int *in, __global char *oc, __global short *os,
                          __global long *ol, __global float *of) {
    __local char c[64];
    __local short s[64];
    __local long q[64];
    __local float f[64];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int x = in[g];
    c[l] = (char)x;
    s[l] = (short)(x * 3);
    q[l] = (long)x * 0x10001L * 0x10001L;
    f[l] = (float)x * 0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
    int r = (l + 1) % n;
    oc[g] = c[r] + c[l];
    os[g] = s[r] - s[l];
    ol[g] = q[r] ^ q[l];
    of[g] = f[r] + f[l];
}

// OpenCL 2.0 work-group reductions.
__kernel void wg_reduce_builtin(__global const int *in, __global int *out) {
    int g = get_global_id(0);
    int x = in[g];
    out[3 * g] = work_group_reduce_add(x);
    out[3 * g + 1] = work_group_reduce_min(x);
    out[3 * g + 2] = work_group_reduce_max(x);
}

// work_group_broadcast in 1-D (by-value source item) and in 2-D.
__kernel void wg_broadcast_1d(__global const int *in, __global int *out, uint src) {
    int g = get_global_id(0);
    out[g] = work_group_broadcast(in[g], src) + in[g];
}

__kernel void wg_broadcast_2d(__global const int *in, __global int *out) {
    int g = get_global_id(1) * get_global_size(0) + get_global_id(0);
    out[g] = work_group_broadcast(in[g], 3, 1);
}

// OpenCL 2.0 work-group scans.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void wg_scan_builtin(__global const int *in, __global int *out) {
    int g = get_global_id(0);
    int x = in[g];
    out[3 * g] = work_group_scan_inclusive_add(x);
    out[3 * g + 1] = work_group_scan_exclusive_add(x);
    out[3 * g + 2] = work_group_scan_inclusive_max(x);
}

// Several barriers inside a loop: repeated 3-point smoothing within the group.
__kernel void barrier_loop(__global const int *in, __global int *out, int iters) {
    __local int a[128];
    int l = get_local_id(0), n = get_local_size(0);
    a[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int it = 0; it < iters; it++) {
        int t = (a[(l + n - 1) % n] + 2 * a[l] + a[(l + 1) % n]) / 4 + it;
        barrier(CLK_LOCAL_MEM_FENCE);
        a[l] = t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = a[l];
}

// 2-D local ids: each item stores its id in a local tile; its transposed partner reads it.
__kernel void local_ids_2d(__global int *out) {
    __local int t[16][16];
    int lx = get_local_id(0), ly = get_local_id(1);
    t[ly][lx] = (int)(get_group_id(1) * 4096 + get_group_id(0) * 256 + ly * 16 + lx);
    barrier(CLK_LOCAL_MEM_FENCE);
    int g = get_global_id(1) * get_global_size(0) + get_global_id(0);
    out[g] = t[lx][ly];
}

// 3-D local ids and the flat local id, rotated by one through local memory.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void local_ids_3d(__global int *out) {
    __local int t[64];
    int flat = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
               get_local_id(0);
    int n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    t[flat] = (int)(get_local_id(2) * 100 + get_local_id(1) * 10 + get_local_id(0));
    barrier(CLK_LOCAL_MEM_FENCE);
    int g = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) +
            get_global_id(0);
    out[g] = t[(flat + 1) % n] + (int)get_local_linear_id() * 1000;
}

// Sub-group reduction and ids at SIMD16.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_reduce(__global const int *in, __global int *out) {
    int g = get_global_id(0);
    out[4 * g] = sub_group_reduce_add(in[g]);
    out[4 * g + 1] = get_sub_group_id();
    out[4 * g + 2] = get_sub_group_local_id();
    out[4 * g + 3] = get_sub_group_size() * 100 + get_num_sub_groups();
}

// Sub-group broadcast and reductions min/max at SIMD8.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void sg_broadcast(__global const int *in, __global int *out) {
    int g = get_global_id(0);
    int x = in[g];
    out[3 * g] = sub_group_broadcast(x, 3);
    out[3 * g + 1] = sub_group_reduce_min(x);
    out[3 * g + 2] = sub_group_reduce_max(x);
}

// Sub-group scans at SIMD16.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_scan(__global const int *in, __global int *out) {
    int g = get_global_id(0);
    int x = in[g];
    out[2 * g] = sub_group_scan_inclusive_add(x);
    out[2 * g + 1] = sub_group_scan_exclusive_max(x);
}

// cl_intel_subgroups shuffles at SIMD8: rotate by a per-item amount.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void sg_shuffle(__global const int *in, __global int *out) {
    int g = get_global_id(0);
    uint l = get_sub_group_local_id();
    int x = in[g];
    out[2 * g] = intel_sub_group_shuffle(x, (l + 3) & 7);
    out[2 * g + 1] = intel_sub_group_shuffle_xor(x, 5);
}

// Reductions of long and float in __local pointer arguments.
__kernel void wg_sum_long_float(__global const long *in, __global const float *fin,
                                __global long *out, __global float *fout,
                                __local long *s, __local float *f) {
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    s[l] = in[g];
    f[l] = fin[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = n / 2; w > 0; w >>= 1) {
        if (l < w) {
            s[l] += s[l + w];
            f[l] += f[l + w];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        out[get_group_id(0)] = s[0];
        fout[get_group_id(0)] = f[0];
    }
}
