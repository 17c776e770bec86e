// Vector and BLAS-like kernels. References: driver/tests/bench/cases.rs.
#pragma OPENCL FP_CONTRACT OFF

__kernel void saxpy(float a, __global const float *x, __global float *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void vadd_f4(__global const float4 *a, __global const float4 *b, __global float4 *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

// Partial dot products: each group reduces its 128 products in __local memory.
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void sdot_partial(__global const float *x, __global const float *y,
                           __global float *partial) {
    __local float s[128];
    int l = get_local_id(0);
    s[l] = x[get_global_id(0)] * y[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 64; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        partial[get_group_id(0)] = s[0];
}

// y = A x, one row per work-item, A row-major rows x n.
__kernel void sgemv(__global const float *A, __global const float *x, __global float *y, int n) {
    int r = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += A[r * n + j] * x[j];
    y[r] = acc;
}

// y = A^T x: work-item c sums column c (coalesced along rows).
__kernel void sgemv_t(__global const float *A, __global const float *x, __global float *y,
                      int rows) {
    int c = get_global_id(0);
    int n = get_global_size(0);
    float acc = 0.0f;
    for (int i = 0; i < rows; i++)
        acc += A[i * n + c] * x[i];
    y[c] = acc;
}
