// Matrix multiply and transpose. References: driver/tests/bench/cases.rs.
#pragma OPENCL FP_CONTRACT OFF

// C = A B, square n x n, one element per work-item (2-D range n x n).
__kernel void matmul_naive(__global const float *A, __global const float *B, __global float *C,
                           int n) {
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

// C = A B through 16x16 __local tiles (n a multiple of 16).
__attribute__((reqd_work_group_size(16, 16, 1)))
__kernel void matmul_tiled16(__global const float *A, __global const float *B, __global float *C,
                             int n) {
    __local float As[16][16];
    __local float Bs[16][16];
    int lx = get_local_id(0), ly = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n; t += 16) {
        As[ly][lx] = A[row * n + t + lx];
        Bs[ly][lx] = B[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++)
            acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}

// Integer C = A B (exact), 4 outputs of a row per work-item with int4 loads of B.
__kernel void matmul_int4(__global const int *A, __global const int4 *B, __global int4 *C, int n) {
    int c4 = get_global_id(0), row = get_global_id(1);
    int n4 = n / 4;
    int4 acc = (int4)(0);
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n4 + c4];
    C[row * n4 + c4] = acc;
}

// Transpose through a padded 16x16 __local tile.
__attribute__((reqd_work_group_size(16, 16, 1)))
__kernel void transpose_tiled(__global const float *in, __global float *out) {
    __local float tile[16][17];
    int lx = get_local_id(0), ly = get_local_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
    tile[ly][lx] = in[(gy + ly) * w + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(gx + ly) * h + gy + lx] = tile[lx][ly];
}
