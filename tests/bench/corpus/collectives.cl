// Work-group and sub-group collectives. References: driver/tests/bench/cases.rs.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__kernel void wg_reduce_add(__global const int *in, __global int *out) {
    out[get_global_id(0)] = work_group_reduce_add(in[get_global_id(0)]);
}

__kernel void wg_scan_exclusive_add(__global const int *in, __global int *out) {
    out[get_global_id(0)] = work_group_scan_exclusive_add(in[get_global_id(0)]);
}

__kernel void wg_reduce_max_f32(__global const float *in, __global float *out) {
    out[get_global_id(0)] = work_group_reduce_max(in[get_global_id(0)]);
}

// Each item adds the value of its group's item 5.
__kernel void wg_broadcast(__global const int *in, __global int *out) {
    int x = in[get_global_id(0)];
    out[get_global_id(0)] = x + work_group_broadcast(x, 5);
}

// Whether any item's value exceeds t1 (bit 0) and whether all exceed t2 (bit 1).
__kernel void wg_any_all(__global const int *in, __global int *out, int t1, int t2) {
    int x = in[get_global_id(0)];
    out[get_global_id(0)] = work_group_any(x > t1) | (work_group_all(x > t2) << 1);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_reduce_add(__global const int *in, __global int *out) {
    out[get_global_id(0)] = sub_group_reduce_add(in[get_global_id(0)]);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_scan_inclusive_add(__global const int *in, __global int *out) {
    out[get_global_id(0)] = sub_group_scan_inclusive_add(in[get_global_id(0)]);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sg_broadcast(__global const float *in, __global float *out) {
    float x = in[get_global_id(0)];
    out[get_global_id(0)] = x * sub_group_broadcast(x, 3);
}

// The sub-group size the compiler chose, and the maximum over each sub-group.
__kernel void sg_reduce_max_any_width(__global const int *in, __global int *out) {
    int g = get_global_id(0);
    out[2 * g] = sub_group_reduce_max(in[g]);
    out[2 * g + 1] = get_sub_group_size();
}

// cl_intel_subgroups: rotate values by one lane within each sub-group of 16.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_shuffle_rotate(__global const int *in, __global int *out) {
    int x = in[get_global_id(0)];
    uint l = get_sub_group_local_id();
    out[get_global_id(0)] = intel_sub_group_shuffle(x, (l + 1) & 15);
}

// cl_intel_subgroups block reads: each sub-group of 16 reads 16 consecutive words.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_block_read_scale(__global const uint *in, __global uint *out) {
    size_t base = get_global_id(0) - get_sub_group_local_id();
    uint v = intel_sub_group_block_read(in + base);
    out[get_global_id(0)] = v * 3u + 1u;
}
