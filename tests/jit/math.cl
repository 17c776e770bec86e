// Math built-ins from the linked library (libclc), one kernel each; CPU references
// (in double, rounded) and the OpenCL spec's ULP limits are in
// driver/tests/jit_corpus/math.rs.

kernel void m_exp(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = exp(a[i]); }
kernel void m_exp2(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = exp2(a[i]); }
kernel void m_exp10(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = exp10(a[i]); }
kernel void m_expm1(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = expm1(a[i]); }
kernel void m_log(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = log(a[i]); }
kernel void m_log2(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = log2(a[i]); }
kernel void m_log10(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = log10(a[i]); }
kernel void m_log1p(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = log1p(a[i]); }
kernel void m_asin(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = asin(a[i]); }
kernel void m_acos(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = acos(a[i]); }
kernel void m_atan(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = atan(a[i]); }
kernel void m_sinh(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = sinh(a[i]); }
kernel void m_cosh(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = cosh(a[i]); }
kernel void m_tanh(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = tanh(a[i]); }
kernel void m_asinh(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = asinh(a[i]); }
kernel void m_acosh(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = acosh(a[i]); }
kernel void m_atanh(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = atanh(a[i]); }
kernel void m_cbrt(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = cbrt(a[i]); }
kernel void m_sqrt(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = sqrt(a[i]); }
kernel void m_logb(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = logb(a[i]); }
kernel void m_pow(global const float *a, global const float *b, global float *o) { size_t i = get_global_id(0); o[i] = pow(a[i], b[i]); }
kernel void m_atan2(global const float *a, global const float *b, global float *o) { size_t i = get_global_id(0); o[i] = atan2(a[i], b[i]); }
kernel void m_hypot(global const float *a, global const float *b, global float *o) { size_t i = get_global_id(0); o[i] = hypot(a[i], b[i]); }
kernel void m_fmod(global const float *a, global const float *b, global float *o) { size_t i = get_global_id(0); o[i] = fmod(a[i], b[i]); }
kernel void m_powr(global const float *a, global const float *b, global float *o) { size_t i = get_global_id(0); o[i] = powr(a[i], b[i]); }
kernel void m_sin(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = sin(a[i]); }
kernel void m_cos(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = cos(a[i]); }
kernel void m_tan(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = tan(a[i]); }
kernel void m_sin_large(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = sin(a[i]); }
kernel void d_div(global const double *a, global const double *b, global double *o) { size_t i = get_global_id(0); o[i] = a[i] / b[i]; }
kernel void d_sqrt(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = sqrt(a[i]); }
// The IEEE division and square root macros at SIMD32 (eight passes of four lanes).
__attribute__((intel_reqd_sub_group_size(32)))
kernel void d_div32(global const double *a, global const double *b, global double *o) { size_t i = get_global_id(0); o[i] = a[i] / b[i]; }
__attribute__((intel_reqd_sub_group_size(32)))
kernel void d_sqrt32(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = sqrt(a[i]); }
kernel void d_exp(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = exp(a[i]); }
kernel void d_sin(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = sin(a[i]); }
// Double precision through the library (libclc's double functions), within the OpenCL C
// spec's ULP limits for double.
kernel void d_exp2(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = exp2(a[i]); }
kernel void d_expm1(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = expm1(a[i]); }
kernel void d_log(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = log(a[i]); }
kernel void d_log2(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = log2(a[i]); }
kernel void d_log10(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = log10(a[i]); }
kernel void d_log1p(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = log1p(a[i]); }
kernel void d_cos(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = cos(a[i]); }
kernel void d_tan(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = tan(a[i]); }
kernel void d_asin(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = asin(a[i]); }
kernel void d_atan(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = atan(a[i]); }
kernel void d_sinh(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = sinh(a[i]); }
kernel void d_tanh(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = tanh(a[i]); }
kernel void d_cbrt(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = cbrt(a[i]); }
kernel void d_pow(global const double *a, global const double *b, global double *o) { size_t i = get_global_id(0); o[i] = pow(a[i], b[i]); }
kernel void d_atan2(global const double *a, global const double *b, global double *o) { size_t i = get_global_id(0); o[i] = atan2(a[i], b[i]); }
kernel void d_hypot(global const double *a, global const double *b, global double *o) { size_t i = get_global_id(0); o[i] = hypot(a[i], b[i]); }
kernel void d_fmod(global const double *a, global const double *b, global double *o) { size_t i = get_global_id(0); o[i] = fmod(a[i], b[i]); }
// sinpi, cospi, tanpi and atanpi where their results are exact (integers, halves, both
// zeros, odd and even integers past the mantissa): the zeros' signs are OpenCL C's
// special values (sinpi(-1) = -0, cospi(0.5) = +0, tanpi(1) = -0, atanpi(-0) = -0).
kernel void m_pi_exact(global const float *a, global float *o) {
    size_t i = get_global_id(0);
    o[4 * i] = sinpi(a[i]); o[4 * i + 1] = cospi(a[i]); o[4 * i + 2] = tanpi(a[i]); o[4 * i + 3] = atanpi(a[i]);
}
kernel void d_pi_exact(global const double *a, global double *o) {
    size_t i = get_global_id(0);
    o[4 * i] = sinpi(a[i]); o[4 * i + 1] = cospi(a[i]); o[4 * i + 2] = tanpi(a[i]); o[4 * i + 3] = atanpi(a[i]);
}
// ldexp on doubles over NaNs, infinities, zeros, subnormals and exponents far out of range.
kernel void d_ldexp(global const double *a, global const int *n, global double *o) {
    size_t i = get_global_id(0);
    o[i] = ldexp(a[i], n[i]);
}
// tgamma on floats: tiny arguments (where 1/x dominates), both zeros, negative non-integers
// and arguments whose gamma nears FLT_MAX (libclc's float exp(lgamma) was 20-60 ulps off).
kernel void m_tgamma(global const float *a, global float *o) { size_t i = get_global_id(0); o[i] = tgamma(a[i]); }
// tgamma on doubles: against mpmath's gamma over (-184, 171.6), poles, subnormal and
// overflowing results, special values and exact factorials (libclc's was 19-159 ulps off).
kernel void d_tgamma(global const double *a, global double *o) { size_t i = get_global_id(0); o[i] = tgamma(a[i]); }
// Double division of double8: four IEEE-macro divisions side by side (each a math.invm
// writing f1.0 and mme0, then madm steps reading them), with infinities, zeros and quotients
// past the exponent range in every component.
kernel void d_div8(global const double8 *a, global const double8 *b, global double8 *o) { size_t i = get_global_id(0); o[i] = a[i] / b[i]; }
