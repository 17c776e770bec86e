// cl_intel_subgroups and cl_intel_required_subgroup_size: the shuffles and the buffer block
// reads and writes, on the sub-groups of the width gencl chooses (no attribute) and on
// SIMD16 and SIMD32 ones (intel_reqd_sub_group_size(16), (32)). Launches use whole
// sub-groups: a shuffle from a lane that does not exist is undefined.

#define SHUFFLES                                                                          \
    uint g = get_global_id(0);                                                            \
    uint l = get_sub_group_local_id();                                                    \
    uint s = get_max_sub_group_size();                                                    \
    int x = in[g];                                                                        \
    out[5 * g + 0] = intel_sub_group_shuffle(x, (l * 3 + 1) % s);                         \
    out[5 * g + 1] = intel_sub_group_shuffle_xor(x, 5);                                   \
    out[5 * g + 2] = intel_sub_group_shuffle_down(x, x * 2, 3);                           \
    out[5 * g + 3] = intel_sub_group_shuffle_up(x * 5, x, 2);                             \
    out[5 * g + 4] = get_sub_group_size() * 100 + get_sub_group_id();                     \
    long y = (long)x * 1000000007L;                                                       \
    lo[g] = intel_sub_group_shuffle(y, s - 1 - l);                                        \
    float4 f = (float4)(x, x + 0.5f, -x, x * 0.25f);                                      \
    fo[g] = intel_sub_group_shuffle_down(f, f * 2.0f, 1);                                 \
    double2 d = (double2)(x * 0.125, x);                                                  \
    dout[g] = intel_sub_group_shuffle_up(d, d * 3.0, 1);

kernel void shuffles(global const int *in, global int *out, global long *lo,
                     global float4 *fo, global double2 *dout) {
    SHUFFLES
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void shuffles16(global const int *in, global int *out, global long *lo,
                       global float4 *fo, global double2 *dout) {
    SHUFFLES
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void shuffles32(global const int *in, global int *out, global long *lo,
                       global float4 *fo, global double2 *dout) {
    SHUFFLES
}

// Each sub-group reads a block of 4 x S uints (element k of lane l is block[k * S + l])
// and writes the block back transformed.
#define BLOCKS                                                                            \
    uint s = get_max_sub_group_size();                                                    \
    uint first = get_group_id(0) * get_local_size(0) + get_sub_group_id() * s;            \
    uint4 v = intel_sub_group_block_read4(in + 4 * first);                                \
    uint l = get_sub_group_local_id();                                                    \
    intel_sub_group_block_write4(out + 4 * first, v * 3u + (uint4)(l));                  \
    uint w = intel_sub_group_block_read(in + 4 * first + 1);                              \
    intel_sub_group_block_write(one + first, w ^ 0x5a5a5a5au);

kernel void blocks(global const uint *in, global uint *out, global uint *one) {
    BLOCKS
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void blocks16(global const uint *in, global uint *out, global uint *one) {
    BLOCKS
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void blocks32(global const uint *in, global uint *out, global uint *one) {
    BLOCKS
}

// The khr sub-group functions at SIMD16 and SIMD32: reductions, scans, broadcast over 16
// or 32 lanes, with long and double values (split into SIMD8 pieces), in a partial last
// sub-group.
#define COLLECTIVES                                                                       \
    uint g = get_global_id(0);                                                            \
    int x = in[g];                                                                        \
    long y = (long)x << 20;                                                               \
    out[4 * g + 0] = sub_group_reduce_add(y);                                             \
    out[4 * g + 1] = sub_group_scan_inclusive_max(y);                                     \
    out[4 * g + 2] = sub_group_broadcast(y, 1);                                           \
    out[4 * g + 3] = get_sub_group_size() * 1000 + get_sub_group_local_id() * 10 +        \
                     get_num_sub_groups();                                                \
    dout[g] = sub_group_scan_exclusive_add((double)x * 0.5);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void collectives16(global const int *in, global long *out, global double *dout) {
    COLLECTIVES
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void collectives32(global const int *in, global long *out, global double *dout) {
    COLLECTIVES
}

// cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative (SPIR-V 1.3's
// OpGroupNonUniformShuffle*). Every lane shuffles; what a lane outside the sub-group would
// give (undefined) is replaced after the shuffle.
#define KHR_SHUFFLES                                                                      \
    uint g = get_global_id(0);                                                            \
    uint l = get_sub_group_local_id();                                                    \
    uint s = get_max_sub_group_size();                                                    \
    int x = in[g];                                                                        \
    int dn = sub_group_shuffle_down(x, 3u);                                               \
    int up = sub_group_shuffle_up(x, 1u);                                                 \
    out[4 * g + 0] = sub_group_shuffle(x, (l * 5 + 2) % s);                               \
    out[4 * g + 1] = sub_group_shuffle_xor(x, 6u);                                        \
    out[4 * g + 2] = l + 3 < s ? dn : -1;                                                 \
    out[4 * g + 3] = l >= 1 ? up : -2;                                                    \
    lo[g] = sub_group_shuffle_xor((long)x << 33, 1u);                                     \
    fo[g] = sub_group_shuffle(x * 0.5f, s - 1 - l);

kernel void khr_shuffles(global const int *in, global int *out, global long *lo,
                         global float *fo) {
    KHR_SHUFFLES
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void khr_shuffles16(global const int *in, global int *out, global long *lo,
                           global float *fo) {
    KHR_SHUFFLES
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void khr_shuffles32(global const int *in, global int *out, global long *lo,
                           global float *fo) {
    KHR_SHUFFLES
}
