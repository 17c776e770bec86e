// Histograms with atomics. References: driver/tests/bench/cases.rs.

// 256 bins in global memory, one atomic per input.
__kernel void hist256_global(__global const uint *in, __global uint *bins) {
    atomic_inc(&bins[in[get_global_id(0)] & 255]);
}

// 256 bins per group in __local memory, then merged with global atomics; 4 inputs per item.
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void hist256_local(__global const uint *in, __global uint *bins) {
    __local uint h[256];
    int l = get_local_id(0);
    h[l] = 0;
    h[l + 128] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int base = get_group_id(0) * 512;
    for (int k = 0; k < 4; k++)
        atomic_inc(&h[(in[base + k * 128 + l] >> 8) & 255]);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[l], h[l]);
    atomic_add(&bins[l + 128], h[l + 128]);
}

// Bytes of uchar4 inputs into 16 bins by their high nibble.
__kernel void hist16_uchar4(__global const uchar4 *in, __global uint *bins) {
    uchar4 v = in[get_global_id(0)];
    atomic_inc(&bins[v.x >> 4]);
    atomic_inc(&bins[v.y >> 4]);
    atomic_inc(&bins[v.z >> 4]);
    atomic_inc(&bins[v.w >> 4]);
}
