// Double precision. References: driver/tests/bench/cases.rs.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void daxpy(double a, __global const double *x, __global double *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

// Partial dot products per group of 64 through a __local tree.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void ddot_partial(__global const double *x, __global const double *y,
                           __global double *partial) {
    __local double s[64];
    int l = get_local_id(0);
    s[l] = x[get_global_id(0)] * y[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 32; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        partial[get_group_id(0)] = s[0];
}

__kernel void dgemv(__global const double *A, __global const double *x, __global double *y,
                    int n) {
    int r = get_global_id(0);
    double acc = 0.0;
    for (int j = 0; j < n; j++)
        acc += A[r * n + j] * x[j];
    y[r] = acc;
}

// Horner evaluation of a degree-8 polynomial with coefficients in a __constant buffer.
__kernel void dhorner8(__global const double *x, __constant double *c, __global double *y) {
    double v = x[get_global_id(0)];
    double acc = c[8];
    for (int k = 7; k >= 0; k--)
        acc = acc * v + c[k];
    y[get_global_id(0)] = acc;
}

// Euclidean norms of 3-vectors (sqrt is correctly rounded in double).
__kernel void dnorm3(__global const double *v, __global double *out) {
    size_t i = get_global_id(0);
    double x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
    out[i] = sqrt(x * x + y * y + z * z);
}
