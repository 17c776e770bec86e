// Sub-group (cl_khr_subgroups) and work-group (OpenCL C 2.0) functions; built with
// -cl-std=CL2.0 (jit_corpus::options_of). Sub-groups are gencl's SIMD8 threads, but the
// references compute from get_max_sub_group_size(), which each kernel also writes out.

// Eight ints per work-item: the sub-group's shape and its int functions.
__kernel void sg_int(__global const int *in, __global int *out) {
    size_t g = get_global_id(0);
    int x = in[g];
    __global int *o = out + 8 * g;
    o[0] = (int)(get_sub_group_size() * 10000 + get_max_sub_group_size() * 100 +
                 get_num_sub_groups());
    o[1] = (int)(get_sub_group_id() * 100 + get_sub_group_local_id());
    o[2] = sub_group_reduce_add(x);
    o[3] = sub_group_reduce_min(x) ^ sub_group_reduce_max(x);
    o[4] = sub_group_scan_inclusive_add(x);
    o[5] = sub_group_scan_exclusive_max(x);
    o[6] = sub_group_broadcast(x, 1) + sub_group_broadcast(x, (uint)in[0] & 1);
    o[7] = sub_group_any(x > 900) * 10 + sub_group_all(x >= -900);
}

// The unsigned, long, float and double forms.
__kernel void sg_types(__global const int *in, __global ulong *lo, __global double *fo) {
    size_t g = get_global_id(0);
    int x = in[g];
    lo[4 * g] = sub_group_reduce_max((uint)x);
    lo[4 * g + 1] = sub_group_scan_inclusive_add((long)x * 1000000007L);
    lo[4 * g + 2] = sub_group_scan_exclusive_min((ulong)(x + 2000));
    lo[4 * g + 3] = sub_group_reduce_add((ulong)x << 33);
    fo[3 * g] = sub_group_reduce_add((float)x);
    fo[3 * g + 1] = sub_group_scan_inclusive_max((float)x * 0.5f);
    fo[3 * g + 2] = sub_group_scan_exclusive_add((double)x * 0.25);
}

// cl_khr_subgroup_extended_types: char, uchar, short and ushort in the sub-group functions
// (carried in 32-bit registers: signed minima and maxima, and the narrow identities of
// exclusive scans, are the narrow type's).
__kernel void sg_narrow(__global const int *in, __global short *out) {
    size_t g = get_global_id(0);
    char c = (char)(in[g] >> 3);
    short s = (short)(in[g] * 30);
    __global short *o = out + 9 * g;
    o[0] = sub_group_reduce_max(c);
    o[1] = sub_group_reduce_min(c);
    o[2] = sub_group_scan_exclusive_max(c);
    o[3] = sub_group_scan_exclusive_min((uchar)c);
    o[4] = sub_group_scan_inclusive_min(s);
    o[5] = sub_group_reduce_max((ushort)s);
    o[6] = sub_group_reduce_add(c);
    o[7] = sub_group_broadcast(s, 0);
    // The sum wraps at 8 bits before the (unsigned) division reads it.
    o[8] = sub_group_reduce_add((uchar)c) / (uchar)3;
}

// cl_khr_subgroup_non_uniform_vote in divergent code: only the odd lanes vote.
__kernel void sg_vote(__global const int *in, __global int *out) {
    size_t g = get_global_id(0);
    int x = in[g];
    __global int *o = out + 4 * g;
    o[0] = o[1] = o[2] = o[3] = -1;
    if (get_sub_group_local_id() & 1) {
        o[0] = sub_group_elect();
        o[1] = sub_group_non_uniform_all(x > -900);
        o[2] = sub_group_non_uniform_any(x > 900);
        o[3] = sub_group_non_uniform_all_equal(x >> 10);
    }
}

// cl_khr_subgroup_non_uniform_arithmetic in divergent code: the lanes with x >= 0 take part.
__kernel void sg_nonuniform(__global const int *in, __global long *out) {
    size_t g = get_global_id(0);
    int x = in[g];
    __global long *o = out + 5 * g;
    o[0] = o[1] = o[2] = o[3] = o[4] = -7;
    if (x >= 0) {
        o[0] = sub_group_non_uniform_reduce_add(x);
        o[1] = sub_group_non_uniform_scan_inclusive_mul((long)(x % 5 + 1));
        o[2] = sub_group_non_uniform_reduce_xor((uint)x);
        o[3] = sub_group_non_uniform_scan_exclusive_min(x);
        o[4] = sub_group_non_uniform_reduce_logical_or(x > 800);
    }
}

// cl_khr_subgroup_clustered_reduce: constant cluster sizes, and one known at run time (LLVM
// merges the switch into one call on `cs`).
__kernel void sg_clustered(__global const int *in, __global int *out, uint cs) {
    size_t g = get_global_id(0);
    int x = in[g];
    __global int *o = out + 3 * g;
    o[0] = sub_group_clustered_reduce_add(x, 2);
    o[1] = sub_group_clustered_reduce_max(x, 4);
    int r = 0;
    switch (cs) {
        case 1: r = sub_group_clustered_reduce_min(x, 1); break;
        case 2: r = sub_group_clustered_reduce_min(x, 2); break;
        case 4: r = sub_group_clustered_reduce_min(x, 4); break;
        case 8: r = sub_group_clustered_reduce_min(x, 8); break;
    }
    o[2] = r;
}

// Work-group reductions, scans and all/any.
__kernel void wg_int(__global const int *in, __global int *out) {
    size_t g = get_global_id(0);
    int x = in[g];
    __global int *o = out + 6 * g;
    o[0] = work_group_reduce_add(x);
    o[1] = work_group_reduce_min(x);
    o[2] = work_group_reduce_max(x);
    o[3] = work_group_scan_inclusive_add(x);
    o[4] = work_group_scan_exclusive_add(x);
    o[5] = work_group_any(x > 990) * 10 + work_group_all(x > -990);
}

// Work-group scans of long and float, and broadcasts in one and two dimensions.
__kernel void wg_more(__global const int *in, __global long *lo, __global float *fo) {
    size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
    int x = in[g];
    lo[3 * g] = work_group_scan_inclusive_max((long)x << 20);
    lo[3 * g + 1] = work_group_scan_exclusive_min((long)x);
    lo[3 * g + 2] = work_group_broadcast((long)x, get_local_size(0) - 1, 0);
    fo[2 * g] = work_group_reduce_add((float)x);
    fo[2 * g + 1] = work_group_broadcast((float)x * 2.0f, 1, get_local_size(1) - 1);
}
