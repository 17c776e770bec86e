// Double-precision instruction families of Gen9 as IGC emits them (DF add,
// mul, mad, the madm/invm/rsqtm division and sqrt macros, conversions).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// add, sub, mul: correctly rounded.
kernel void d_add_sub_mul(global const double *a, global const double *b,
                          global double *out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  out[3 * i] = x + y;
  out[3 * i + 1] = x - y;
  out[3 * i + 2] = x * y;
}

// fma: a single rounding.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void d_fma(global const double *a, global const double *b,
                  global const double *c, global double *out) {
  size_t i = get_global_id(0);
  out[i] = fma(a[i], b[i], c[i]);
}

// Division: correctly rounded for doubles (madm/invm sequences).
kernel void d_div(global const double *a, global const double *b,
                  global double *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] / b[i];
}

// sqrt: correctly rounded for doubles (rsqtm sequences).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void d_sqrt(global const double *a, global double *out) {
  size_t i = get_global_id(0);
  out[i] = sqrt(a[i]);
}

// Rounding to integral values.
kernel void d_rounding(global const double *a, global double *out) {
  size_t i = get_global_id(0);
  double x = a[i];
  out[5 * i] = floor(x);
  out[5 * i + 1] = ceil(x);
  out[5 * i + 2] = rint(x);
  out[5 * i + 3] = trunc(x);
  out[5 * i + 4] = round(x);
}

// fmin, fmax, fabs, copysign.
kernel void d_min_max(global const double *a, global const double *b,
                      global double *out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  out[4 * i] = fmin(x, y);
  out[4 * i + 1] = fmax(x, y);
  out[4 * i + 2] = fabs(x);
  out[4 * i + 3] = copysign(x, y);
}

// Compares feeding selects; NaN makes ordered compares false.
kernel void d_compare_select(global const double *a, global const double *b,
                             global double *out, global int *flags) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  out[i] = x < y ? x : y * 2.0;
  flags[3 * i] = x <= y;
  flags[3 * i + 1] = x != y;
  flags[3 * i + 2] = isnan(x) + 2 * isinf(x) + 4 * signbit(x);
}

// double <-> float, both directions (default rounding: nearest even).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void d_float_conv(global const double *a, global const float *f,
                         global float *narrow, global double *wide) {
  size_t i = get_global_id(0);
  narrow[i] = (float)a[i];
  wide[i] = (double)f[i];
}

// double <-> int and uint (to integer truncates; from integer is exact).
kernel void d_int_conv(global const double *a, global const int *n,
                       global int *to_i, global uint *to_u,
                       global double *from) {
  size_t i = get_global_id(0);
  to_i[i] = (int)a[i];
  to_u[i] = (uint)fabs(a[i]);
  from[2 * i] = (double)n[i];
  from[2 * i + 1] = (double)(uint)n[i];
}

// double <-> long and ulong (from 64-bit integers rounds to nearest even).
kernel void d_long_conv(global const double *a, global const long *n,
                        global long *to_l, global double *from) {
  size_t i = get_global_id(0);
  to_l[i] = (long)a[i];
  from[2 * i] = (double)n[i];
  from[2 * i + 1] = (double)(ulong)n[i];
}

// exp and log.
kernel void d_exp_log(global const double *a, global double *out) {
  size_t i = get_global_id(0);
  out[2 * i] = exp(a[i]);
  out[2 * i + 1] = log(fabs(a[i]));
}

// double2 vectors: element-wise mul-add and a swizzle.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void d_vec2(global const double2 *a, global const double2 *b,
                   global double2 *out) {
  size_t i = get_global_id(0);
  double2 x = a[i], y = b[i];
  out[2 * i] = x * y.yx + x;
  out[2 * i + 1] = fmax(x, y) - fmin(x, y);
}

// rsqrt and reciprocal through division.
kernel void d_rsqrt_recip(global const double *a, global double *out) {
  size_t i = get_global_id(0);
  out[2 * i] = rsqrt(a[i]);
  out[2 * i + 1] = 1.0 / a[i];
}

// sin and cos.
kernel void d_trig(global const double *a, global double *out) {
  size_t i = get_global_id(0);
  out[2 * i] = sin(a[i]);
  out[2 * i + 1] = cos(a[i]);
}

// ldexp, frexp and fract.
kernel void d_exponent(global const double *a, global const int *n,
                       global double *out, global int *e) {
  size_t i = get_global_id(0);
  int ex;
  double ip;
  out[3 * i] = frexp(a[i], &ex);
  e[i] = ex;
  out[3 * i + 1] = ldexp(a[i], n[i]);
  out[3 * i + 2] = fract(a[i], &ip) + ip * 0.0;
}

// A dot product loop in double (2-D range).
kernel void d_row_dot(global const double *a, global const double *b, int n,
                      global double *out) {
  size_t r = get_global_id(1) * get_global_size(0) + get_global_id(0);
  double acc = 0.0;
  for (int k = 0; k < n; k++)
    acc = fma(a[r * n + k], b[r * n + k], acc);
  out[r] = acc;
}

// Mixed precision: float inputs widened, combined, narrowed back.
kernel void d_mixed(global const float *a, global const float *b,
                    global float *out) {
  size_t i = get_global_id(0);
  double p = (double)a[i] * (double)b[i];
  out[2 * i] = (float)p;
  out[2 * i + 1] = (float)(p - (double)(a[i] * b[i]));
}
