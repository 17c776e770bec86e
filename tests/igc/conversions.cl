// Conversions between integer and float types as IGC emits them on Gen9 (mov
// with type change, rounding modes through cr0 or rnd*, saturation).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// float -> int with each rounding mode (inputs in range).
kernel void f2i_modes(global const float *a, global int *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  out[4 * i] = convert_int_rte(x);
  out[4 * i + 1] = convert_int_rtz(x);
  out[4 * i + 2] = convert_int_rtp(x);
  out[4 * i + 3] = convert_int_rtn(x);
}

// float -> int/uint saturating (NaN -> 0, out-of-range clamps).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void f2i_sat(global const float *a, global int *si, global uint *su) {
  size_t i = get_global_id(0);
  si[i] = convert_int_sat(a[i]);
  su[i] = convert_uint_sat(a[i]);
}

// float -> short/char/uchar saturating, rounding to nearest even.
kernel void f2small_sat(global const float *a, global short *s,
                        global char *c, global uchar *u) {
  size_t i = get_global_id(0);
  s[i] = convert_short_sat_rte(a[i]);
  c[i] = convert_char_sat(a[i]);
  u[i] = convert_uchar_sat_rtp(a[i]);
}

// int -> float, each rounding mode (large magnitudes are inexact).
kernel void i2f_modes(global const int *a, global float *out) {
  size_t i = get_global_id(0);
  int x = a[i];
  out[4 * i] = convert_float(x);
  out[4 * i + 1] = convert_float_rtz(x);
  out[4 * i + 2] = convert_float_rtp(x);
  out[4 * i + 3] = convert_float_rtn(x);
}

// uint -> float.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void u2f(global const uint *a, global float *out) {
  size_t i = get_global_id(0);
  out[2 * i] = convert_float(a[i]);
  out[2 * i + 1] = convert_float_rtz(a[i]);
}

// long/ulong -> float (IGC emulates the 64-bit-to-float rounding).
kernel void l2f(global const long *a, global float *out) {
  size_t i = get_global_id(0);
  out[2 * i] = convert_float(a[i]);
  out[2 * i + 1] = convert_float((ulong)a[i]);
}

// float -> long/ulong saturating.
kernel void f2l_sat(global const float *a, global long *sl, global ulong *ul) {
  size_t i = get_global_id(0);
  sl[i] = convert_long_sat(a[i]);
  ul[i] = convert_ulong_sat(a[i]);
}

// float -> half -> float through the half type (round to nearest even).
kernel void f2h2f(global const float *a, global float *out, global half *h) {
  size_t i = get_global_id(0);
  half t = convert_half(a[i]);
  h[i] = t;
  out[i] = convert_float(t);
}

// Sign and zero extension from 8 and 16 bits.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void extend_small(global const char *c, global const short *s,
                         global int *out, global long *wide) {
  size_t i = get_global_id(0);
  out[4 * i] = c[i];
  out[4 * i + 1] = (uchar)c[i];
  out[4 * i + 2] = s[i];
  out[4 * i + 3] = (ushort)s[i];
  wide[i] = (long)c[i] * 0x100000000L + (ulong)(uint)s[i];
}

// bool -> int: scalar compares give 1, vector compares give -1.
kernel void bool_to_int(global const int *a, global const int *b,
                        global int *scalar, global int4 *vec) {
  size_t i = get_global_id(0);
  scalar[i] = (a[i] < b[i]) + (a[i] == b[i]) * 2;
  // The negation wraps (as_int of an unsigned difference): `-a[i]` would be undefined
  // for INT_MIN, one of the inputs.
  int4 x = (int4)(a[i], b[i], a[i] ^ b[i], as_int(0u - as_uint(a[i])));
  vec[i] = x > (int4)(0);
}

// as_type reinterpretation: no conversion of bits.
kernel void reinterpret(global const int *a, global const float4 *v,
                        global float *f, global int4 *iv, global char4 *cv) {
  size_t i = get_global_id(0);
  f[i] = as_float(a[i] & 0x7f7fffff);
  iv[i] = as_int4(v[i]);
  cv[i] = as_char4(a[i]);
}

// Vector conversions: float4 -> int4 (rtz), int4 -> uchar4 saturating.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void vector_convert(global const float4 *a, global const int4 *b,
                           global int4 *ri, global uchar4 *ru) {
  size_t i = get_global_id(0);
  ri[i] = convert_int4(a[i]);
  ru[i] = convert_uchar4_sat(b[i]);
}

// Saturating narrowings between integer types.
kernel void narrow_sat(global const int *a, global const long *l,
                       global short *s, global uchar *u, global char *c,
                       global uint *ui) {
  size_t i = get_global_id(0);
  s[i] = convert_short_sat(a[i]);
  u[i] = convert_uchar_sat((short)a[i]);
  c[i] = convert_char_sat(l[i]);
  ui[i] = convert_uint_sat(l[i]);
}

// Plain 32 <-> 64 bit integer conversions: sign, zero extension, truncation.
kernel void widen_truncate(global const int *a, global const long *l,
                           global long *wide, global int *narrow) {
  size_t i = get_global_id(0);
  wide[2 * i] = (long)a[i];
  wide[2 * i + 1] = (long)(uint)a[i];
  narrow[2 * i] = (int)l[i];
  narrow[2 * i + 1] = (int)(l[i] >> 32);
}

// Non-saturating wrap of int to char/short (implicit truncation).
kernel void wrap_narrow(global const int *a, global char *c, global short *s) {
  size_t i = get_global_id(0);
  c[i] = convert_char(a[i]);
  s[i] = convert_short(a[i]);
}

// half -> int and int -> half conversions.
kernel void half_int(global const half *h, global const short *n,
                     global int *to_i, global half *from) {
  size_t i = get_global_id(0);
  to_i[i] = convert_int_rtz(h[i]);
  from[i] = convert_half(n[i]);
}
