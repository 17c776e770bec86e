// gencl's image corpus (issue 24): reads through samplers (every filter and addressing mode,
// normalized and not), samplerless reads, writes with their conversions, every image type,
// format round trips, queries, and small image filters. References: the OpenCL C spec's
// rules, computed in driver/tests/jit_corpus/images.rs.

__constant sampler_t s_edge_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t s_border_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t s_norm_linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__constant sampler_t s_repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t s_mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;

#define GID2 int x = get_global_id(0), y = get_global_id(1); int i = y * get_global_size(0) + x

// ---- reads

kernel void ir_int_coords(read_only image2d_t im, global float4 *out) {
  GID2;
  out[i] = read_imagef(im, s_edge_nearest, (int2)(x, y));
}

kernel void ir_sampler_arg(read_only image2d_t im, sampler_t s, global float4 *out, float4 c0) {
  GID2;
  out[i] = read_imagef(im, s, (float2)(c0.x + x * c0.z, c0.y + y * c0.w));
}

kernel void ir_read_i(read_only image2d_t im, sampler_t s, global int4 *out) {
  GID2;
  out[i] = read_imagei(im, s, (int2)(x, y));
}

kernel void ir_read_ui(read_only image2d_t im, global uint4 *out) {
  GID2;
  out[i] = read_imageui(im, (int2)(x, y));
}

kernel void ir_read_f_nosampler(read_only image2d_t im, global float4 *out) {
  GID2;
  out[i] = read_imagef(im, (int2)(x, y));
}

kernel void ir_border(read_only image2d_t im, global float4 *out) {
  GID2;
  out[i] = read_imagef(im, s_border_nearest, (float2)(x - 2.5f, y - 1.5f));
}

// The same, for formats without alpha: the border is (0, 0, 0, 1).
kernel void ir_border_no_alpha(read_only image2d_t im, global float4 *out) {
  GID2;
  out[i] = read_imagef(im, s_border_nearest, (float2)(x - 2.5f, y - 1.5f));
}

kernel void ir_border_int(read_only image2d_t im, global uint4 *out) {
  GID2;
  out[i] = read_imageui(im, s_border_nearest, (int2)(x - 2, y - 1));
}

kernel void ir_norm_linear(read_only image2d_t im, global float4 *out, float scale) {
  GID2;
  out[i] = read_imagef(im, s_norm_linear, (float2)((x + 0.37f) * scale, (y + 0.21f) * scale));
}

kernel void ir_repeat_mirror(read_only image2d_t im, global float4 *rep, global float4 *mir) {
  GID2;
  float2 c = (float2)(x * 0.173f - 1.05f, y * 0.291f - 0.83f);
  rep[i] = read_imagef(im, s_repeat, c);
  mir[i] = read_imagef(im, s_mirror, c);
}

kernel void ir_1d(read_only image1d_t im, sampler_t s, global float4 *out) {
  int x = get_global_id(0);
  out[x] = read_imagef(im, s, (float)x * 0.71f - 1.3f) + read_imagef(im, x % get_image_width(im));
}

kernel void ir_1d_array(read_only image1d_array_t im, global float4 *out) {
  GID2;
  out[i] = read_imagef(im, (int2)(x, y));
}

kernel void ir_2d_array(read_only image2d_array_t im, sampler_t s, global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);
  out[(l * get_global_size(1) + y) * get_global_size(0) + x] =
      read_imagef(im, s, (float4)(x + 0.5f, y + 0.5f, l * 0.8f - 0.6f, 0.0f));
}

kernel void ir_3d_linear(read_only image3d_t im, sampler_t s, global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * get_global_size(1) + y) * get_global_size(0) + x] =
      read_imagef(im, s, (float4)(x * 0.61f + 0.2f, y * 0.53f + 0.1f, z * 0.47f + 0.3f, 0.0f));
}

kernel void ir_3d_int(read_only image3d_t im, global uint4 *out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imageui(im, (int4)(x, y, z, 0));
}

kernel void ir_buffer(read_only image1d_buffer_t im, global float4 *out) {
  int x = get_global_id(0);
  out[x] = read_imagef(im, x);
}

// ---- writes

kernel void iw_float(write_only image2d_t im, global const float4 *in) {
  GID2;
  write_imagef(im, (int2)(x, y), in[i]);
}

kernel void iw_int(write_only image2d_t im, global const int4 *in) {
  GID2;
  write_imagei(im, (int2)(x, y), in[i]);
}

kernel void iw_uint(write_only image2d_t im, global const uint4 *in) {
  GID2;
  write_imageui(im, (int2)(x, y), in[i]);
}

kernel void iw_1d(write_only image1d_t im, global const float4 *in) {
  int x = get_global_id(0);
  write_imagef(im, x, in[x]);
}

kernel void iw_1d_array(write_only image1d_array_t im, global const float4 *in) {
  GID2;
  write_imagef(im, (int2)(x, y), in[i]);
}

kernel void iw_2d_array(write_only image2d_array_t im, global const float4 *in) {
  int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);
  write_imagef(im, (int4)(x, y, l, 0), in[(l * get_global_size(1) + y) * get_global_size(0) + x]);
}

kernel void iw_3d(write_only image3d_t im, global const float4 *in) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  write_imagef(im, (int4)(x, y, z, 0), in[(z * get_global_size(1) + y) * get_global_size(0) + x]);
}

kernel void iw_buffer(write_only image1d_buffer_t im, global const uint4 *in) {
  int x = get_global_id(0);
  write_imageui(im, x, in[x]);
}

// ---- round trips, read_write

kernel void irw_round_trip(read_write image2d_t im, global const float4 *in, global float4 *out) {
  GID2;
  write_imagef(im, (int2)(x, y), in[i]);
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  out[i] = read_imagef(im, (int2)(x, y));
}

kernel void irw_scale_in_place(read_write image2d_t im, float k) {
  GID2;
  (void)i;
  write_imagef(im, (int2)(x, y), read_imagef(im, (int2)(x, y)) * k);
}

kernel void irw_convert(read_only image2d_t src, write_only image2d_t dst) {
  GID2;
  (void)i;
  write_imagef(dst, (int2)(x, y), read_imagef(src, s_edge_nearest, (int2)(x, y)));
}

// ---- queries

kernel void iq_2d(read_only image2d_t im, global int *out) {
  if (get_global_id(0) != 0) return;
  out[0] = get_image_width(im);
  out[1] = get_image_height(im);
  out[2] = get_image_channel_data_type(im);
  out[3] = get_image_channel_order(im);
  int2 d = get_image_dim(im);
  out[4] = d.x;
  out[5] = d.y;
}

kernel void iq_3d(read_only image3d_t im, global int *out) {
  if (get_global_id(0) != 0) return;
  int4 d = get_image_dim(im);
  out[0] = d.x;
  out[1] = d.y;
  out[2] = d.z;
  out[3] = d.w;
  out[4] = get_image_depth(im);
}

kernel void iq_arrays(read_only image1d_array_t a, read_only image2d_array_t b, global int *out) {
  if (get_global_id(0) != 0) return;
  out[0] = get_image_width(a);
  out[1] = (int)get_image_array_size(a);
  out[2] = get_image_width(b);
  out[3] = get_image_height(b);
  out[4] = (int)get_image_array_size(b);
}

kernel void iq_buffer(read_only image1d_buffer_t im, global int *out) {
  if (get_global_id(0) != 0) return;
  out[0] = get_image_width(im);
  out[1] = get_image_channel_order(im);
}

// ---- filters and resampling

kernel void if_box_blur(read_only image2d_t src, write_only image2d_t dst) {
  GID2;
  (void)i;
  float4 sum = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      sum += read_imagef(src, s_edge_nearest, (int2)(x + dx, y + dy));
  write_imagef(dst, (int2)(x, y), sum / 9.0f);
}

kernel void if_sobel(read_only image2d_t src, global float *out) {
  GID2;
  float p[3][3];
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      p[dy + 1][dx + 1] = read_imagef(src, s_edge_nearest, (int2)(x + dx, y + dy)).x;
  float gx = (p[0][2] + 2 * p[1][2] + p[2][2]) - (p[0][0] + 2 * p[1][0] + p[2][0]);
  float gy = (p[2][0] + 2 * p[2][1] + p[2][2]) - (p[0][0] + 2 * p[0][1] + p[0][2]);
  out[i] = gx * gx + gy * gy;
}

kernel void if_resize(read_only image2d_t src, write_only image2d_t dst) {
  GID2;
  (void)i;
  float2 c = ((float2)(x, y) + 0.5f) / (float2)(get_image_width(dst), get_image_height(dst));
  write_imagef(dst, (int2)(x, y), read_imagef(src, s_norm_linear, c));
}

kernel void if_rotate(read_only image2d_t src, global float4 *out, float cs, float sn) {
  GID2;
  float cx = get_image_width(src) * 0.5f, cy = get_image_height(src) * 0.5f;
  float u = (x + 0.5f - cx) * cs - (y + 0.5f - cy) * sn + cx;
  float v = (x + 0.5f - cx) * sn + (y + 0.5f - cy) * cs + cy;
  out[i] = read_imagef(src, s_border_nearest, (float2)(u, v));
}

kernel void if_flip(read_only image2d_t src, write_only image2d_t dst) {
  GID2;
  (void)i;
  int w = get_image_width(src);
  write_imageui(dst, (int2)(w - 1 - x, y), read_imageui(src, (int2)(x, y)));
}

kernel void if_histogram(read_only image2d_t src, global volatile int *bins) {
  GID2;
  (void)i;
  float4 v = read_imagef(src, (int2)(x, y));
  atomic_inc(&bins[(int)(v.x * 15.99f)]);
}

kernel void if_gray(read_only image2d_t src, write_only image2d_t dst) {
  GID2;
  (void)i;
  float4 c = read_imagef(src, (int2)(x, y));
  float l = dot(c.xyz, (float3)(0.299f, 0.587f, 0.114f));
  write_imagef(dst, (int2)(x, y), (float4)(l, l, l, c.w));
}

// ---- samplers through functions, several at once

float4 fetch(read_only image2d_t im, sampler_t s, float2 c) { return read_imagef(im, s, c); }

kernel void is_through_function(read_only image2d_t im, sampler_t s, global float4 *out) {
  GID2;
  out[i] = fetch(im, s, (float2)(x + 0.25f, y + 0.75f)) + fetch(im, s_edge_nearest, (float2)(x, y));
}

kernel void is_two_images(read_only image2d_t a, read_only image2d_t b, sampler_t s,
                          write_only image2d_t dst) {
  GID2;
  (void)i;
  write_imagef(dst, (int2)(x, y),
               read_imagef(a, s, (int2)(x, y)) * 0.5f + read_imagef(b, s_repeat, (float2)(x * 0.1f, y * 0.1f)));
}

__attribute__((intel_reqd_sub_group_size(8)))
kernel void is_simd8(read_only image2d_t im, write_only image2d_t dst) {
  GID2;
  (void)i;
  write_imagef(dst, (int2)(x, y), read_imagef(im, s_edge_nearest, (int2)(y % get_image_width(im), x % get_image_height(im))));
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void is_simd32(read_only image2d_t im, write_only image2d_t dst) {
  GID2;
  (void)i;
  write_imagef(dst, (int2)(x, y), read_imagef(im, s_edge_nearest, (int2)(y % get_image_width(im), x % get_image_height(im))));
}

kernel void is_divergent(read_only image2d_t im, global float4 *out) {
  GID2;
  if ((x ^ y) & 1)
    out[i] = read_imagef(im, s_edge_nearest, (int2)(x, y));
  else
    out[i] = read_imagef(im, s_repeat, (float2)(x * 0.05f, y * 0.05f)) * 2.0f;
}

kernel void is_loop(read_only image2d_t im, global float4 *out, int n) {
  GID2;
  float4 acc = 0.0f;
  for (int k = 0; k < n; k++)
    acc += read_imagef(im, s_edge_nearest, (int2)(x + k, y));
  out[i] = acc;
}

// cl_intel_subgroups' image block reads and writes (media block messages): each sub-group
// reads four rows from its first work-item's column (lane i the column of work-item i),
// writes two rows of results at row 2y, and stores a mix of the four; rows past the image
// read its last row.
kernel void ib_rows(read_only image2d_t src, write_only image2d_t dst, global uint *out) {
  int gx = get_global_id(0), y = get_global_id(1);
  int x = (gx - (int)get_sub_group_local_id()) * 4;
  uint4 r = intel_sub_group_block_read4(src, (int2)(x, y));
  intel_sub_group_block_write2(dst, (int2)(x, 2 * y), (uint2)(r.x ^ r.w, r.y + r.z));
  out[y * get_global_size(0) + gx] = r.x + r.y * 2 + r.z * 4 + r.w * 8;
}
