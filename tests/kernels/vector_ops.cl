// The vector-add family: 32-bit int and float add/sub/mul, scalar
// arguments, a bounds check, and 64-bit data.
kernel void saxpy(global const float *x, global float *y, float a, uint n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
kernel void int_ops(global const int *a, global const int *b, global int *sum,
                    global int *diff, global int *prod, int k) {
  size_t i = get_global_id(0);
  sum[i] = a[i] + b[i] + k;
  diff[i] = a[i] - b[i];
  prod[i] = a[i] * b[i];
}
kernel void float_ops(global const float *a, global const float *b, global float *out) {
  size_t i = get_global_id(0);
  out[3 * i] = a[i] - b[i];
  out[3 * i + 1] = a[i] * b[i];
  out[3 * i + 2] = a[i] * 0.5f + 2.0f;
}
kernel void long_add(global const long *a, global const long *b, global long *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
kernel void ids2d(global uint *out, uint width) {
  size_t x = get_global_id(0);
  size_t y = get_global_id(1);
  out[y * width + x] = (uint)(x * 1000 + y);
}
kernel void fill_long(global long *out, long v) {
  // A 64-bit argument stored as it is: both of its dwords come from the pushed constant.
  out[get_global_id(0)] = v;
}
