// half arithmetic (cl_khr_fp16), in a file of its own: a platform without cl_khr_fp16
// (PoCL here) cannot build it. References in driver/tests/jit_corpus/vectors.rs.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// Correctly rounded: scalar and vector.
kernel void half_ops(global const half *a, global const half *b, global half *out) {
    size_t i = get_global_id(0);
    half x = a[i], y = b[i];
    out[5 * i + 0] = x + y;
    out[5 * i + 1] = x - y;
    out[5 * i + 2] = x * y;
    out[5 * i + 3] = x / y;
    out[5 * i + 4] = sqrt(fabs(x));
}

kernel void half4_ops(global const half4 *a, global const half4 *b, global half4 *out) {
    size_t i = get_global_id(0);
    half4 x = a[i], y = b[i];
    out[3 * i + 0] = x + y * y;
    out[3 * i + 1] = x / y;
    out[3 * i + 2] = fmax(x, y) - fmin(x, y);
}

