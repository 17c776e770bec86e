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


// Half math functions (libclc-15 has none: gencl computes them in float and rounds once).
kernel void half_math(global const half *a, global half *out) {
    size_t i = get_global_id(0);
    half x = a[i];
    out[5 * i + 0] = sin(x);
    out[5 * i + 1] = exp(clamp(x, -8.0h, 8.0h));
    out[5 * i + 2] = log(fabs(x) + 1.0h);
    out[5 * i + 3] = acospi(clamp(x, -1.0h, 1.0h));
    out[5 * i + 4] = nan((ushort)i) != nan((ushort)i) ? 1.0h : 0.0h;
}

// Halves moved, not computed on, keep every bit: signalling NaNs and payloads included.
kernel void half_bits(global const half *a, global half *out, global const short *s,
                      global half *out2) {
    size_t i = get_global_id(0);
    half2 v = vload2(i, a);
    vstore2(v, i, out);
    out2[i] = as_half(s[i]);
}

// Half built-ins writing through pointers (libclc-15 has none: computed in float into a
// temporary, rounded to half and stored).
kernel void half_ptr(global const half *a, global half *out, global int *ints) {
    size_t i = get_global_id(0);
    half x = a[i], ip, c, fl;
    int ex;
    out[5 * i + 0] = modf(x, &ip);
    out[5 * i + 1] = ip;
    out[5 * i + 2] = sincos(x, &c) + c;
    out[5 * i + 3] = frexp(x, &ex);
    out[5 * i + 4] = fract(x, &fl) + fl;
    ints[i] = ex;
}
