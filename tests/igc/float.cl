// Single-precision instruction families of Gen9 as IGC emits them (add, mul,
// mad, math unit functions, rounding, compares), one small kernel each.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// add, sub, mul: correctly rounded, kept in separate stores so nothing fuses.
kernel void f_add_sub_mul(global const float *a, global const float *b,
                          global float *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[3 * i] = x + y;
  out[3 * i + 1] = x - y;
  out[3 * i + 2] = x * y;
}

// fma is a single rounding (mad on Gen9).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void f_fma(global const float *a, global const float *b,
                  global const float *c, global float *out) {
  size_t i = get_global_id(0);
  out[i] = fma(a[i], b[i], c[i]);
}

// Full-precision division, reciprocal and sqrt (math unit plus correction).
kernel void f_div_sqrt(global const float *a, global const float *b,
                       global float *out) {
  size_t i = get_global_id(0);
  out[3 * i] = a[i] / b[i];
  out[3 * i + 1] = sqrt(fabs(a[i]));
  out[3 * i + 2] = rsqrt(fabs(b[i]));
}

// native_* and half_* variants: the bare math unit.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void f_native_half(global const float *a, global float *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  out[6 * i] = native_recip(x);
  out[6 * i + 1] = native_sqrt(x);
  out[6 * i + 2] = native_rsqrt(x);
  out[6 * i + 3] = native_exp2(x * 0.01f);
  out[6 * i + 4] = native_log2(x);
  out[6 * i + 5] = half_divide(1.0f, x);
}

// Trigonometric functions on a moderate range.
kernel void f_trig(global const float *a, global float *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  out[3 * i] = sin(x);
  out[3 * i + 1] = cos(x);
  out[3 * i + 2] = tan(x);
}

// Exponentials and logarithms.
kernel void f_exp_log(global const float *a, global const float *b,
                      global float *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  out[5 * i] = exp(x);
  out[5 * i + 1] = exp2(x);
  out[5 * i + 2] = log(fabs(x));
  out[5 * i + 3] = log2(fabs(x));
  out[5 * i + 4] = pow(fabs(x), b[i]);
}

// Rounding to integral values (rndd, rndu, rnde, rndz, frc).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void f_rounding(global const float *a, global float *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  out[6 * i] = floor(x);
  out[6 * i + 1] = ceil(x);
  out[6 * i + 2] = rint(x);
  out[6 * i + 3] = trunc(x);
  out[6 * i + 4] = round(x);
  float ip;
  out[6 * i + 5] = fract(x, &ip) + 0.0f * ip;
}

// fabs, copysign, fmin, fmax, fmod: exact results.
kernel void f_sign_minmax(global const float *a, global const float *b,
                          global float *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[5 * i] = fabs(x);
  out[5 * i + 1] = copysign(x, y);
  out[5 * i + 2] = fmin(x, y);
  out[5 * i + 3] = fmax(x, y);
  out[5 * i + 4] = fmod(x, y);
}

// Classification: isnan, isinf, isfinite, isnormal, signbit (scalar: 0/1).
kernel void f_classify(global const float *a, global int *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  out[5 * i] = isnan(x);
  out[5 * i + 1] = isinf(x);
  out[5 * i + 2] = isfinite(x);
  out[5 * i + 3] = isnormal(x);
  out[5 * i + 4] = signbit(x);
}

// Ordered and unordered compares, as 0/1 ints.
kernel void f_compare(global const float *a, global const float *b,
                      global int *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[4 * i] = x < y;
  out[4 * i + 1] = x >= y;
  out[4 * i + 2] = x == y;
  out[4 * i + 3] = isunordered(x, y) | (x != y) << 1;
}

// Denormal inputs and results: the device may flush them.
kernel void f_denormals(global const float *a, global const float *b,
                        global float *out) {
  size_t i = get_global_id(0);
  out[2 * i] = a[i] * b[i];
  out[2 * i + 1] = a[i] + b[i];
}

// float4 geometric functions (dp4/dp3 style sums).
kernel void f_geometric(global const float4 *a, global const float4 *b,
                        global float *d, global float4 *v) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  d[2 * i] = dot(x, y);
  d[2 * i + 1] = length(x);
  v[2 * i] = cross(x, y);
  v[2 * i + 1] = normalize(x);
}

// Half storage: vload_half / vstore_half (round to nearest even and rtz).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void f_half_storage(global const half *h, global const float *f,
                           global float *wide, global half *narrow) {
  size_t i = get_global_id(0);
  wide[i] = vload_half(i, h);
  vstore_half(f[i], 2 * i, narrow);
  vstore_half_rtz(f[i], 2 * i + 1, narrow);
}

// Half arithmetic (cl_khr_fp16): hf add, mul, div.
kernel void f_half_arith(global const half *a, global const half *b,
                         global half *out) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  out[3 * i] = x + y;
  out[3 * i + 1] = x * y;
  out[3 * i + 2] = x / y;
}

// ldexp and frexp: exponent manipulation.
kernel void f_ldexp_frexp(global const float *a, global const int *n,
                          global float *m, global int *e) {
  size_t i = get_global_id(0);
  int ex;
  m[2 * i] = frexp(a[i], &ex);
  e[i] = ex;
  m[2 * i + 1] = ldexp(a[i], n[i]);
}

// A vector float8 expression with a scalar by-value argument.
kernel void f_vector_scale(global const float8 *a, float s,
                           global float8 *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] * s + a[i].s76543210;
}

// Sum of a row in a loop (2-D range): float accumulation order is fixed.
kernel void f_row_sum(global const float *a, int n, global float *out) {
  size_t r = get_global_id(1) * get_global_size(0) + get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; k++)
    acc += a[r * n + k];
  out[r] = acc;
}
