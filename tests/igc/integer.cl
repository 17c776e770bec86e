// Integer instruction families of Gen9 as IGC emits them: one small kernel
// per family, each writing every result so a CPU reference can check it.

// add/sub/mul that wrap (add, add with negated source, mul dword).
kernel void add_sub_mul_wrap(global const int *a, global const int *b,
                             global int *out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  out[3 * i] = x + y;
  out[3 * i + 1] = x - y;
  out[3 * i + 2] = x * y;
}

// High halves of 32x32 products (mul/mach pair).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void mul_hi_32(global const uint *a, global const uint *b,
                      global uint *hu, global int *hs) {
  size_t i = get_global_id(0);
  hu[i] = mul_hi(a[i], b[i]);
  hs[i] = mul_hi((int)a[i], (int)b[i]);
}

// 24-bit multiplies (inputs within 24 bits, where the result is defined).
kernel void mad24_mul24(global const int *a, global const int *b,
                        global const int *c, global int *out) {
  size_t i = get_global_id(0);
  out[2 * i] = mul24(a[i], b[i]);
  out[2 * i + 1] = mad24(a[i], b[i], c[i]);
}

// 64-bit add, sub, mul and shifts of signed and unsigned longs.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void i64_arith(global const long *a, global const long *b,
                      global long *s, global ulong *u) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  uint n = (uint)y;
  s[4 * i] = x + y;
  s[4 * i + 1] = x - y;
  s[4 * i + 2] = x * y;
  s[4 * i + 3] = x >> n;
  ulong ux = (ulong)x;
  u[3 * i] = ux >> n;
  u[3 * i + 1] = ux << n;
  u[3 * i + 2] = mul_hi(ux, (ulong)y);
}

// 32-bit division and remainder, signed (divisor never 0; no INT_MIN/-1).
kernel void div_rem_i32(global const int *a, global const int *b,
                        global int *q, global int *r) {
  size_t i = get_global_id(0);
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
}

// 32-bit division and remainder, unsigned.
kernel void div_rem_u32(global const uint *a, global const uint *b,
                        global uint *q, global uint *r) {
  size_t i = get_global_id(0);
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
}

// 64-bit division and remainder (IGC emulates these), signed and unsigned.
kernel void div_rem_64(global const long *a, global const long *b,
                       global long *s, global ulong *u) {
  size_t i = get_global_id(0);
  s[2 * i] = a[i] / b[i];
  s[2 * i + 1] = a[i] % b[i];
  ulong ua = (ulong)a[i], ub = (ulong)b[i];
  u[2 * i] = ua / ub;
  u[2 * i + 1] = ua % ub;
}

// Shift counts are taken modulo the width in OpenCL C.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void shifts_masked(global const int *a, global const int *n,
                          global int *out) {
  size_t i = get_global_id(0);
  int x = a[i], c = n[i];
  out[3 * i] = x << c;
  out[3 * i + 1] = x >> c;
  out[3 * i + 2] = (int)((uint)x >> c);
}

// rotate, signed and unsigned, 32 and 16 bit.
kernel void rotate_bits(global const uint *a, global const uint *n,
                        global uint *r32, global ushort *r16) {
  size_t i = get_global_id(0);
  r32[i] = rotate(a[i], n[i]);
  r16[i] = rotate((ushort)a[i], (ushort)n[i]);
}

// popcount (cbit), clz (lzd), ctz (fbl / bfrev).
kernel void bit_count(global const uint *a, global const ulong *b,
                      global uint *out, global ulong *out64) {
  size_t i = get_global_id(0);
  uint x = a[i];
  out[3 * i] = popcount(x);
  out[3 * i + 1] = clz(x);
  out[3 * i + 2] = ctz(x);
  out64[2 * i] = popcount(b[i]);
  out64[2 * i + 1] = clz(b[i]);
}

// abs and abs_diff: results are unsigned, so abs(INT_MIN) is defined.
kernel void abs_family(global const int *a, global const int *b,
                       global uint *out) {
  size_t i = get_global_id(0);
  out[2 * i] = abs(a[i]);
  out[2 * i + 1] = abs_diff(a[i], b[i]);
}

// Saturating add/sub of int, uint, uchar and short (.sat modifiers).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sat_arith(global const int *a, global const int *b,
                      global int *si, global uint *su, global uchar *s8,
                      global short *s16) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  si[2 * i] = add_sat(x, y);
  si[2 * i + 1] = sub_sat(x, y);
  su[2 * i] = add_sat((uint)x, (uint)y);
  su[2 * i + 1] = sub_sat((uint)x, (uint)y);
  s8[2 * i] = add_sat((uchar)x, (uchar)y);
  s8[2 * i + 1] = sub_sat((uchar)x, (uchar)y);
  s16[2 * i] = add_sat((short)x, (short)y);
  s16[2 * i + 1] = sub_sat((short)x, (short)y);
}

// hadd/rhadd (avg) without overflow of the intermediate sum.
kernel void halving_add(global const int *a, global const int *b,
                        global int *s, global uint *u) {
  size_t i = get_global_id(0);
  s[2 * i] = hadd(a[i], b[i]);
  s[2 * i + 1] = rhadd(a[i], b[i]);
  u[2 * i] = hadd((uint)a[i], (uint)b[i]);
  u[2 * i + 1] = rhadd((uint)a[i], (uint)b[i]);
}

// min/max/clamp (sel with conditional modifiers), signed and unsigned.
kernel void min_max_clamp(global const int *a, global const int *b,
                          global int *s, global uint *u) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  s[3 * i] = min(x, y);
  s[3 * i + 1] = max(x, y);
  s[3 * i + 2] = clamp(x, -1000, 1000);
  u[3 * i] = min((uint)x, (uint)y);
  u[3 * i + 1] = max((uint)x, (uint)y);
  u[3 * i + 2] = clamp((uint)x, 10u, 0x80000000u);
}

// select (by sign bit of the vector mask / nonzero scalar) and bitselect.
kernel void select_bits(global const int *a, global const int *b,
                        global const int *c, global int *out) {
  size_t i = get_global_id(0);
  out[3 * i] = select(a[i], b[i], c[i]);
  out[3 * i + 1] = bitselect(a[i], b[i], c[i]);
  out[3 * i + 2] = c[i] < 0 ? a[i] : b[i];
}

// char and short arithmetic: byte/word types, wrap and sign extension.
kernel void small_types(global const char *a, global const char *b,
                        global const short *c, global char *o8,
                        global short *o16, global int *o32) {
  size_t i = get_global_id(0);
  char x = a[i], y = b[i];
  o8[3 * i] = x + y;
  o8[3 * i + 1] = x * y;
  o8[3 * i + 2] = x >> 2;
  short w = c[i];
  o16[2 * i] = w * (short)x;
  o16[2 * i + 1] = (short)((ushort)w >> 3);
  o32[i] = (int)x + (int)(uchar)y + (int)w;
}

// Vector types: int4 and short8 element-wise ops.
kernel void vectors(global const int4 *a, global const int4 *b,
                    global const short8 *c, global int4 *o4,
                    global short8 *o8) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  o4[2 * i] = x * y + (x ^ y);
  o4[2 * i + 1] = (x >> 3) - y.wzyx;
  short8 s = c[i];
  o8[i] = s + s.s76543210 * (short)3;
}

// mad_sat and mad_hi, signed and unsigned.
kernel void mad_sat_hi(global const int *a, global const int *b,
                       global const int *c, global int *s, global uint *u) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i], z = c[i];
  s[2 * i] = mad_sat(x, y, z);
  s[2 * i + 1] = mad_hi(x, y, z);
  u[2 * i] = mad_sat((uint)x, (uint)y, (uint)z);
  u[2 * i + 1] = mad_hi((uint)x, (uint)y, (uint)z);
}

// A 2-D range: each item writes a function of its coordinates and the sizes.
kernel void ids_2d(global const int *a, global int *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t w = get_global_size(0);
  size_t i = y * w + x;
  out[2 * i] = a[i] * (int)get_local_id(0) + (int)get_group_id(1);
  out[2 * i + 1] = (int)(get_num_groups(0) * 1000 + get_local_size(1));
}

// A 3-D range: linear index from all three dimensions.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void ids_3d(global uint *out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[2 * i] = (uint)(x | (y << 8) | (z << 16));
  out[2 * i + 1] = (uint)(get_local_id(2) << 16 | get_group_id(2) << 8 |
                          get_local_id(0));
}

// upsample and rotate-free bit tricks: upsample builds wide from narrow.
kernel void upsample_pack(global const short *hi, global const ushort *lo,
                          global int *out) {
  size_t i = get_global_id(0);
  out[i] = upsample(hi[i], lo[i]);
}

// More buffers than a binding-table prefetch count holds (at most 31): IGC
// gives each its own binding-table index, 0..39, and the data port must reach
// every one of them.
kernel void many_buffers(global const int *a0,
                         global const int *a1,
                         global const int *a2,
                         global const int *a3,
                         global const int *a4,
                         global const int *a5,
                         global const int *a6,
                         global const int *a7,
                         global const int *a8,
                         global const int *a9,
                         global const int *a10,
                         global const int *a11,
                         global const int *a12,
                         global const int *a13,
                         global const int *a14,
                         global const int *a15,
                         global const int *a16,
                         global const int *a17,
                         global const int *a18,
                         global const int *a19,
                         global const int *a20,
                         global const int *a21,
                         global const int *a22,
                         global const int *a23,
                         global const int *a24,
                         global const int *a25,
                         global const int *a26,
                         global const int *a27,
                         global const int *a28,
                         global const int *a29,
                         global const int *a30,
                         global const int *a31,
                         global const int *a32,
                         global const int *a33,
                         global const int *a34,
                         global const int *a35,
                         global const int *a36,
                         global const int *a37,
                         global const int *a38,
                         global int *out) {
  size_t i = get_global_id(0);
  int s = 0;
  s += 1 * a0[i];
  s += 2 * a1[i];
  s += 3 * a2[i];
  s += 4 * a3[i];
  s += 5 * a4[i];
  s += 6 * a5[i];
  s += 7 * a6[i];
  s += 8 * a7[i];
  s += 9 * a8[i];
  s += 10 * a9[i];
  s += 11 * a10[i];
  s += 12 * a11[i];
  s += 13 * a12[i];
  s += 14 * a13[i];
  s += 15 * a14[i];
  s += 16 * a15[i];
  s += 17 * a16[i];
  s += 18 * a17[i];
  s += 19 * a18[i];
  s += 20 * a19[i];
  s += 21 * a20[i];
  s += 22 * a21[i];
  s += 23 * a22[i];
  s += 24 * a23[i];
  s += 25 * a24[i];
  s += 26 * a25[i];
  s += 27 * a26[i];
  s += 28 * a27[i];
  s += 29 * a28[i];
  s += 30 * a29[i];
  s += 31 * a30[i];
  s += 32 * a31[i];
  s += 33 * a32[i];
  s += 34 * a33[i];
  s += 35 * a34[i];
  s += 36 * a35[i];
  s += 37 * a36[i];
  s += 38 * a37[i];
  s += 39 * a38[i];
  out[i] = s;
}
