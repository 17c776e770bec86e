kernel void mix(global float *out, global const float *in, int n) {
  int i = get_global_id(0);
  float a = in[i];
  float b = a * 0.5f + 1.0f;
  uint h = (uint)i * 2654435761u;
  for (int k = 0; k < n; k++) {
    b = b * a + 0.25f;
    a = a * 0.999f - b * 0.001f;
    h ^= h << 13; h ^= h >> 17; h ^= h << 5;
    b += (float)(h & 255) * 0.0001f;
  }
  out[i] = a + b;
}
