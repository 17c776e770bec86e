// Half precision. References: driver/tests/bench/cases.rs.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF

// y = a x + y in half arithmetic (every operation rounded to half).
__kernel void half_axpy(half a, __global const half *x, __global half *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

// Storage-only halves: load, scale in float, store rounded to nearest even.
__kernel void half_convert_scale(__global const half *in, __global half *out, float s) {
    size_t i = get_global_id(0);
    vstore_half(vload_half(i, in) * s + 1.0f, i, out);
}

// half4 lerp: a + (b - a) t per component.
__kernel void half4_lerp(__global const half4 *a, __global const half4 *b, __global half4 *out,
                         half t) {
    size_t i = get_global_id(0);
    half4 x = a[i];
    out[i] = x + (b[i] - x) * t;
}
