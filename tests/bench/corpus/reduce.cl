// Reductions and scans. References: driver/tests/bench/cases.rs.

// Tree sum of each group's ints through a __local pointer argument.
__kernel void reduce_sum_i32(__global const int *in, __global int *out, __local int *s) {
    int l = get_local_id(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = get_local_size(0) / 2; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}

// Each item takes the max of 4 strided elements, then a __local tree max.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void reduce_max_f32(__global const float *in, __global float *out) {
    __local float s[64];
    int l = get_local_id(0);
    int n = get_global_size(0);
    int g = get_global_id(0);
    float m = fmax(fmax(in[g], in[g + n]), fmax(in[g + 2 * n], in[g + 3 * n]));
    s[l] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 32; w > 0; w >>= 1) {
        if (l < w)
            s[l] = fmax(s[l], s[l + w]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}

// Grid-stride loop then one global atomic per item.
__kernel void reduce_atomic_i32(__global const int *in, int n, __global int *total) {
    int acc = 0;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        acc += in[i];
    atomic_add(total, acc);
}

// Hillis-Steele inclusive scan of each group (double buffered, fixed 128 items).
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void scan_inclusive_hs(__global const int *in, __global int *out) {
    __local int buf[2][128];
    int l = get_local_id(0);
    int p = 0;
    buf[0][l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < 128; d <<= 1) {
        buf[1 - p][l] = l >= d ? buf[p][l] + buf[p][l - d] : buf[p][l];
        p = 1 - p;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[p][l];
}

// Blelloch work-efficient exclusive scan: 2 elements per item, 256 per group.
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void scan_exclusive_blelloch(__global const int *in, __global int *out) {
    __local int t[256];
    int l = get_local_id(0);
    int base = get_group_id(0) * 256;
    t[2 * l] = in[base + 2 * l];
    t[2 * l + 1] = in[base + 2 * l + 1];
    int off = 1;
    for (int d = 128; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
            t[bi] += t[ai];
        }
        off <<= 1;
    }
    if (l == 0)
        t[255] = 0;
    for (int d = 1; d < 256; d <<= 1) {
        off >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
            int v = t[ai];
            t[ai] = t[bi];
            t[bi] += v;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * l] = t[2 * l];
    out[base + 2 * l + 1] = t[2 * l + 1];
}
