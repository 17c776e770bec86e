// Divergent control flow: nested if/else reconverging, and loops whose trip
// count differs per work-item.
kernel void clamp_odd(global const int *a, global int *out, int lo, int hi) {
  size_t i = get_global_id(0);
  int x = a[i];
  if (x < lo) {
    x = lo * 2;
  } else if (x > hi) {
    x = hi - 1;
  } else {
    x = x ^ 1;
  }
  out[i] = x;
}
kernel void row_sum(global const float *m, global float *out, uint cols) {
  size_t r = get_global_id(0);
  float s = 0.0f;
  for (uint c = 0; c < cols; c++) s += m[r * cols + c];
  out[r] = s;
}
kernel void collatz(global const uint *start, global uint *steps) {
  size_t i = get_global_id(0);
  uint n = start[i];
  uint k = 0;
  while (n > 1 && k < 1000) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    k++;
  }
  steps[i] = k;
}
