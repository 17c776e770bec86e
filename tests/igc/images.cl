// Image kernels for the IGC corpus (issue 24): what IGC makes of OpenCL's image built-ins
// for Skylake (sample_lz, ld_lz, typed surface writes), run on the GPU model against CPU
// references in driver/tests/igc/cases/images.rs.

__constant sampler_t s_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t s_border = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t s_mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;

// Integer coordinates through a constant sampler; UNORM8 in, float out.
__kernel void img_copy_nearest(__read_only image2d_t src, __write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, s_edge, p));
}

// Float coordinates through a sampler argument.
__kernel void img_sample(__read_only image2d_t src, sampler_t s, __global float4 *out,
                         float x0, float y0, float dx, float dy) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(src, s, (float2)(x0 + x * dx, y0 + y * dy));
}

// Samplerless reads of an integer image and the image's size.
__kernel void img_load_uint(__read_only image2d_t src, __global uint4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] =
      read_imageui(src, (int2)(x, y)) + (uint4)(get_image_width(src), get_image_height(src), 0, 0);
}

// A read_write image doubled in place.
__kernel void img_rw_double(__read_write image2d_t im) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(im, p);
  write_imagef(im, p, v * 2.0f);
}

// Float values written to an 8-bit UNORM image: clamping and rounding.
__kernel void img_write_unorm8(__write_only image2d_t dst, __global const float4 *src) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(dst, (int2)(x, y), src[y * get_global_size(0) + x]);
}

// Unsigned integers written to an 8-bit UINT image: saturation.
__kernel void img_write_uint8(__write_only image2d_t dst, __global const uint4 *src) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imageui(dst, (int2)(x, y), src[y * get_global_size(0) + x]);
}

// Signed integers written to a 16-bit SINT image, read back through the sampler.
__kernel void img_write_read_sint16(__read_write image2d_t im, __global const int4 *src,
                                    __global int4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * get_global_size(0) + x;
  write_imagei(im, (int2)(x, y), src[i]);
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  out[i] = read_imagei(im, (int2)(x, y));
}

// A 3D image through a sampler argument.
__kernel void img_sample_3d(__read_only image3d_t src, sampler_t s, __global float4 *out,
                            float4 origin, float4 step) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  float4 c = origin + (float4)(x, y, z, 0) * step;
  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagef(src, s, c);
}

// A 2D array: the layer coordinate is rounded and clamped.
__kernel void img_sample_array(__read_only image2d_array_t src, sampler_t s,
                               __global float4 *out, float layer0, float dlayer) {
  int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);
  float4 c = (float4)(x, y, layer0 + l * dlayer, 0.0f);
  out[(l * get_global_size(1) + y) * get_global_size(0) + x] = read_imagef(src, s, c);
  if (x == 0 && y == 0 && l == 0)
    out[get_global_size(0) * get_global_size(1) * get_global_size(2)] =
        (float4)(get_image_array_size(src), get_image_width(src), get_image_height(src), 0);
}

// An image made from a buffer: samplerless reads and writes by element.
__kernel void img_buffer_scale(__read_only image1d_buffer_t src, __write_only image1d_buffer_t dst,
                               float k) {
  int i = get_global_id(0);
  write_imagef(dst, i, read_imagef(src, i) * k);
}

// Constant samplers with the border (CL_ADDRESS_CLAMP) and mirrored repeat.
__kernel void img_sample_border_mirror(__read_only image2d_t src, __global float4 *border,
                                       __global float4 *mirror, float scale, float offset) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * get_global_size(0) + x;
  float2 c = (float2)(x, y) * scale + offset;
  border[i] = read_imagef(src, s_border, c);
  mirror[i] = read_imagef(src, s_mirror, c);
}

// The format queries.
__kernel void img_format_queries(__read_only image2d_t a, __read_only image3d_t b,
                                 __global int *out) {
  if (get_global_id(0) != 0)
    return;
  out[0] = get_image_channel_data_type(a);
  out[1] = get_image_channel_order(a);
  out[2] = get_image_width(b);
  out[3] = get_image_height(b);
  out[4] = get_image_depth(b);
  out[5] = get_image_channel_data_type(b);
  out[6] = get_image_channel_order(b);
}

// cl_intel_subgroups' image block reads and writes (media block messages): each sub-group of
// 16 reads its 16 dwords of row y and of the two rows below, and writes a sum of them at row
// y; the rows below the image read its last row (clamped to the edge), and the last group's
// columns past the image are dropped.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void img_block_rw(__read_only image2d_t src, __write_only image2d_t dst) {
  int2 c = (int2)(get_group_id(0) * 64, get_global_id(1));
  uint a = intel_sub_group_block_read(src, c);
  uint2 b = intel_sub_group_block_read2(src, (int2)(c.x, c.y + 1));
  intel_sub_group_block_write(dst, c, a + b.x * 3 + b.y * 7);
}
