/* The programs whose command streams Intel's runtime (NEO) records for a Skylake GT2
 * (tests/neo/record.sh), and their expected results.
 *
 *   record list              the case names
 *   record CASE neo          runs CASE on NEO's platform (in its AUB mode, nothing
 *                            executes: the recording is the point)
 *   record CASE ref DIR      runs CASE on PoCL, or on the case's CPU reference where
 *                            PoCL cannot (OpenCL 2.0 collectives, sub-group sizes),
 *                            and writes DIR/CASE.expect and DIR/CASE.out
 *
 * Every buffer starts with contents made from the case and the argument's index alone,
 * so that the replay test finds each buffer in the recording by its first 64 bytes.
 * CASE.expect has one line per buffer: "buffer ARG BYTES MODE SIGNATURE", MODE being
 * exact, f32ulpN (N units in the last place), f32absX or f64absX (absolute); CASE.out holds the buffers' expected bytes, in order. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ty { F32, I32, U32, F64, U64, U8, U16 };
static const size_t tysize[] = {4, 4, 4, 8, 8, 1, 2};

typedef struct {
  char kind;     /* 'i' input buffer, 'o' output, 'b' in/out, 'l' __local bytes, 's' int, 'u' ulong, 'f' float,
                    'I' an input image (RGBA UNORM8, g[0] x g[1]) copied from its buffer before the
                    kernels, 'O' an output image (RGBA FLOAT) copied to its buffer after them,
                    'S' a sampler (lo: CL_ADDRESS_*, hi: CL_FILTER_*, n: normalized) */
  enum ty ty;
  size_t n;      /* elements (buffers), bytes ('l') */
  double lo, hi; /* input range; the scalar's value in lo */
} arg;

struct run;
typedef struct kcase {
  const char *name, *src, *kernel, *kernel2, *opts;
  int dims;
  size_t g[3], l[3], off[3]; /* l[0] == 0: no local size given */
  int nargs;
  arg a[8];
  const char *mode;              /* how outputs compare */
  void (*ref)(struct run *);     /* CPU reference; NULL: PoCL */
  int copy_src, copy_dst;        /* clEnqueueCopyBuffer after the kernels (-1: none) */
  int fill_dst;                  /* clEnqueueFillBuffer after them (-1: none) */
  int profiling;                 /* a queue with CL_QUEUE_PROFILING_ENABLE, events timed */
  /* The images of 'I' and 'O' arguments: type (0: IMAGE2D), size (0: g[0] x g[1]), and
   * formats (0: RGBA UNORM_INT8 in, RGBA FLOAT out). */
  cl_mem_object_type img_type;
  size_t img_size[3];
  cl_channel_order in_order;
  cl_channel_type in_type;
} kcase;

struct run {
  const kcase *c;
  void *host[8];
  size_t bytes[8];
};

#define CHECK(x)                                                          \
  do {                                                                    \
    cl_int e_ = (x);                                                      \
    if (e_ != CL_SUCCESS) {                                               \
      fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #x, e_);     \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

static uint64_t rng;
static uint32_t next(void) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng >> 33);
}
static double unit(void) { return next() / 2147483648.0; }

/* Deterministic contents: inputs from the case's and argument's seed, outputs a
 * pattern that names them. */
static void fill(const kcase *c, int ci, int ai, void *p, size_t bytes) {
  const arg *a = &c->a[ai];
  size_t n = bytes / tysize[a->ty];
  rng = 0x9e3779b97f4a7c15ull * (uint64_t)(ci * 16 + ai + 1);
  if (a->kind == 'o' || a->kind == 'O') {
    for (size_t i = 0; i < bytes / 4; i++)
      ((uint32_t *)p)[i] = 0xa5000000u | (uint32_t)(ai << 20) | (uint32_t)(i & 0xfffff);
    for (size_t i = bytes / 4 * 4; i < bytes; i++) ((uint8_t *)p)[i] = 0xa5;
    return;
  }
  for (size_t i = 0; i < n; i++) {
    double v = a->lo + (a->hi - a->lo) * unit();
    switch (a->ty) {
    case F32: ((float *)p)[i] = (float)v; break;
    case F64: ((double *)p)[i] = v; break;
    case I32: ((int32_t *)p)[i] = (int32_t)floor(v); break;
    case U32: ((uint32_t *)p)[i] = (uint32_t)floor(v); break;
    case U64: ((uint64_t *)p)[i] = (uint64_t)floor(v); break;
    case U8: ((uint8_t *)p)[i] = (uint8_t)floor(v); break;
    case U16: ((uint16_t *)p)[i] = (uint16_t)floor(v); break;
    }
  }
}

/* ------------------------------------------------------------------ CPU references */

static size_t items(const kcase *c) {
  size_t n = 1;
  for (int d = 0; d < c->dims; d++) n *= c->g[d];
  return n;
}

/* Sub-group reductions: a sub-group is `w` consecutive work-items of a group (dimension 0). */
static void ref_subgroup(struct run *r, int w) {
  const int *in = r->host[0];
  int *sum = r->host[1], *lane = r->host[2];
  size_t n = items(r->c);
  for (size_t i = 0; i < n; i += w) {
    int s = 0;
    for (int k = 0; k < w; k++) s += in[i + k];
    for (int k = 0; k < w; k++) {
      sum[i + k] = s;
      lane[i + k] = k;
    }
  }
}
static void ref_sg8(struct run *r) { ref_subgroup(r, 8); }
static void ref_sg16(struct run *r) { ref_subgroup(r, 16); }
static void ref_sg32(struct run *r) { ref_subgroup(r, 32); }

static void ref_wg_collectives(struct run *r) {
  const int *in = r->host[0];
  int *sum = r->host[1], *scan = r->host[2], *mx = r->host[3];
  size_t n = items(r->c), l = r->c->l[0];
  for (size_t g = 0; g < n; g += l) {
    int s = 0, m = INT32_MIN;
    for (size_t k = 0; k < l; k++) {
      s += in[g + k];
      scan[g + k] = s;
      if (in[g + k] > m) m = in[g + k];
    }
    for (size_t k = 0; k < l; k++) {
      sum[g + k] = s;
      mx[g + k] = m;
    }
  }
}

static void ref_non_uniform(struct run *r) {
  /* global 1000, local 64: the last group has 40 work-items. */
  int *out = r->host[0];
  for (size_t i = 0; i < r->c->g[0]; i++) out[i] = (int)((i % 64) * 1000 + i / 64 * 10 + (i / 64 == 15 ? 40 : 64));
}

static void ref_generic(struct run *r) {
  const int *in = r->host[0];
  int *out = r->host[1];
  size_t n = items(r->c);
  for (size_t i = 0; i < n; i++) out[i] = in[i] * 3 + (in[(i & ~63u) + (63 - i % 64)]);
}

static float half_to_float(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), e - 25);
  return (h & 0x8000) ? -v : v;
}

/* image_2d_array: nearest, unnormalized, CL_ADDRESS_CLAMP on a CL_R half image of 5 x 4 and
 * 5 elements: out of range the border, (0, 0, 0, 1) for a format without alpha (OpenCL 1.2
 * §6.12.14.2; PoCL 3.1 returns (0, 0, 0, 0) there, so the reference is this). */
static void ref_image_2d_array(struct run *r) {
  const uint16_t *src = r->host[0];
  float *out = r->host[2];
  for (int l = 0; l < 7; l++)
    for (int y = 0; y < 6; y++)
      for (int x = 0; x < 8; x++) {
        int layer = (int)rintf(l * 0.93f - 1.27f);
        layer = layer < 0 ? 0 : layer > 4 ? 4 : layer;
        int ix = (int)floorf(x - 1.5f), iy = (int)floorf(y - 0.5f);
        float v[4] = {0, 0, 0, 1};
        if (ix >= 0 && ix < 5 && iy >= 0 && iy < 4) v[0] = half_to_float(src[(layer * 4 + iy) * 5 + ix]);
        float *o = out + 4 * ((l * 6 + y) * 8 + x);
        o[0] = v[0] + 5.0f;
        o[1] = v[1];
        o[2] = v[2];
        o[3] = v[3];
      }
}

/* ------------------------------------------------------------------ the cases */

#define NONE -1, -1, -1
static const kcase cases[] = {
  /* Images (issue 24): a buffer copied into a tiled RGBA8 image by NEO's built-in kernel, a
   * sampler argument (normalized, repeat, linear) and a constant one (integer coordinates),
   * a float image written and copied back into a buffer. */
  {"image_sample", "__constant sampler_t ns = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
                   "kernel void img(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {"
                   " int2 p = (int2)(get_global_id(0), get_global_id(1));"
                   " float4 a = read_imagef(src, s, (float2)((p.x + 0.3f) * 0.0731f - 0.2f, (p.y + 0.7f) * 0.0917f - 0.3f));"
                   " float4 b = read_imagef(src, ns, p);"
                   " write_imagef(dst, p, a + b * 0.5f); }",
   "img", 0, "", 2, {37, 19}, {0}, {0}, 3,
   {{'I', U8, 37 * 19 * 4, 0, 256}, {'S', U8, 1, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, {'O', F32, 37 * 19 * 4}},
   "f32abs1e-5", 0, NONE},
  /* A 3D image: normalized coordinates, clamp to edge, linear (eight taps); sizes queried. */
  {"image_3d", "kernel void img(read_only image3d_t src, sampler_t s, global float4 *out) {"
               " int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);"
               " float4 c = (float4)((x + 0.4f) * 0.113f - 0.1f, (y + 0.2f) * 0.151f - 0.05f, (z + 0.3f) * 0.197f - 0.2f, 0.0f);"
               " out[(z * 7 + y) * 9 + x] = read_imagef(src, s, c) + (float4)(get_image_width(src), get_image_height(src), get_image_depth(src), 0) * 0.001f; }",
   "img", 0, "", 3, {9, 7, 5}, {0}, {0}, 3,
   {{'I', U8, 8 * 6 * 5 * 4, 0, 256}, {'S', U8, 1, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}, {'o', F32, 9 * 7 * 5 * 4}},
   "f32abs1e-5", 0, NONE, 0, CL_MEM_OBJECT_IMAGE3D, {8, 6, 5}},
  /* A 2D array of halves (CL_R): its elements by the rounded, clamped third coordinate;
   * CL_ADDRESS_CLAMP's border (0, 0, 0, 1) for a format without alpha. */
  {"image_2d_array", "kernel void img(read_only image2d_array_t src, sampler_t s, global float4 *out) {"
                     " int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);"
                     " float4 c = (float4)(x - 1.5f, y - 0.5f, l * 0.93f - 1.27f, 0.0f);"
                     " out[(l * 6 + y) * 8 + x] = read_imagef(src, s, c) + (float4)(get_image_array_size(src), 0, 0, 0); }",
   "img", 0, "", 3, {8, 6, 7}, {0}, {0}, 3,
   {{'I', U16, 5 * 4 * 5, 0x3000, 0x3c00}, {'S', U8, 0, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST}, {'o', F32, 8 * 6 * 7 * 4}},
   "exact", ref_image_2d_array, NONE, 0, CL_MEM_OBJECT_IMAGE2D_ARRAY, {5, 4, 5}, CL_R, CL_HALF_FLOAT},
  /* A 1D array of RGBA16 UNORM, integer coordinates (no sampler: ld). */
  {"image_1d_array", "kernel void img(read_only image1d_array_t src, global float4 *out) {"
                     " int x = get_global_id(0), l = get_global_id(1);"
                     " out[l * 11 + x] = read_imagef(src, (int2)(x, l)); }",
   "img", 0, "", 2, {11, 4}, {0}, {0}, 2,
   {{'I', U16, 11 * 4 * 4, 0, 65536}, {'o', F32, 11 * 4 * 4}},
   "f32ulp2", 0, NONE, 0, CL_MEM_OBJECT_IMAGE1D_ARRAY, {11, 4, 0}, CL_RGBA, CL_UNORM_INT16},
  /* BGRA UNORM8 through mirrored repeat, nearest. */
  {"image_bgra_mirror", "kernel void img(read_only image2d_t src, sampler_t s, global float4 *out) {"
                        " int x = get_global_id(0), y = get_global_id(1);"
                        " out[y * 16 + x] = read_imagef(src, s, (float2)(x * 0.171f - 0.93f, y * 0.213f - 1.07f)); }",
   "img", 0, "", 2, {16, 12}, {0}, {0}, 3,
   {{'I', U8, 6 * 5 * 4, 0, 256}, {'S', U8, 1, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST}, {'o', F32, 16 * 12 * 4}},
   "f32ulp2", 0, NONE, 0, CL_MEM_OBJECT_IMAGE2D, {6, 5, 0}, CL_BGRA, CL_UNORM_INT8},
  {"vadd", "kernel void vadd(global const float *a, global const float *b, global float *c) {"
           " size_t i = get_global_id(0); c[i] = a[i] + b[i]; }",
   "vadd", 0, "", 1, {4096}, {64}, {0}, 3,
   {{'i', F32, 4096, -100, 100}, {'i', F32, 4096, -100, 100}, {'o', F32, 4096}}, "exact", 0, NONE},
  {"saxpy", "kernel void saxpy(float a, global const float *x, global float *y) {"
            " size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }",
   "saxpy", 0, "", 1, {2048}, {128}, {0}, 3,
   {{'f', F32, 0, 2.5}, {'i', F32, 2048, -10, 10}, {'b', F32, 2048, -10, 10}}, "f32abs1e-5", 0, NONE},
  {"large_ndrange", "kernel void ids(global uint *o) {"
                    " size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));"
                    " o[i] = (uint)(get_group_id(0) * 7 + get_local_id(1) * 131 + get_group_id(2) * 8191) ^ (uint)i; }",
   "ids", 0, "", 3, {256, 64, 16}, {32, 4, 2}, {0}, 1, {{'o', U32, 256 * 64 * 16}}, "exact", 0, NONE},
  {"global_offset", "kernel void off(global int *o) {"
                    " o[get_global_id(0) - 100] = (int)(get_global_id(0) * 3 + get_global_offset(0)); }",
   "off", 0, "", 1, {512}, {64}, {100}, 1, {{'o', I32, 512}}, "exact", 0, NONE},
  {"transpose_2d", "kernel void tr(global const float *a, global float *b) {"
                   " size_t x = get_global_id(0), y = get_global_id(1);"
                   " b[x * get_global_size(1) + y] = a[y * get_global_size(0) + x]; }",
   "tr", 0, "", 2, {64, 48}, {16, 4}, {0}, 2, {{'i', F32, 64 * 48, -1, 1}, {'o', F32, 64 * 48}}, "exact", 0, NONE},
  {"local_reduce", "kernel void red(global const int *in, global int *out, local int *tmp) {"
                   " size_t l = get_local_id(0); tmp[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);"
                   " for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) { if (l < s) tmp[l] += tmp[l + s];"
                   " barrier(CLK_LOCAL_MEM_FENCE); } if (l == 0) out[get_group_id(0)] = tmp[0]; }",
   "red", 0, "", 1, {4096}, {256}, {0}, 3,
   {{'i', I32, 4096, -1000, 1000}, {'o', I32, 16}, {'l', I32, 256 * 4}}, "exact", 0, NONE},
  {"local_static_tile", "kernel void tile(global const float *a, global float *b) {"
                        " local float t[16][17]; size_t x = get_local_id(0), y = get_local_id(1);"
                        " size_t gx = get_group_id(0) * 16, gy = get_group_id(1) * 16, w = get_global_size(0);"
                        " t[y][x] = a[(gy + y) * w + gx + x]; barrier(CLK_LOCAL_MEM_FENCE);"
                        " b[(gx + y) * w + gy + x] = t[x][y]; }",
   "tile", 0, "", 2, {64, 64}, {16, 16}, {0}, 2, {{'i', F32, 4096, -5, 5}, {'o', F32, 4096}}, "exact", 0, NONE},
  {"atomic_global_histogram", "kernel void hist(global const uchar *in, global uint *h) {"
                              " atomic_inc(&h[in[get_global_id(0)] & 63]); }",
   "hist", 0, "", 1, {8192}, {64}, {0}, 2, {{'i', U8, 8192, 0, 256}, {'b', U32, 64, 1000, 100000}}, "exact", 0, NONE},
  {"atomic_local_histogram", "kernel void hist(global const uchar *in, global uint *h) {"
                             " local uint lh[32]; size_t l = get_local_id(0); if (l < 32) lh[l] = 0;"
                             " barrier(CLK_LOCAL_MEM_FENCE); atomic_add(&lh[in[get_global_id(0)] % 32], 1u);"
                             " barrier(CLK_LOCAL_MEM_FENCE); if (l < 32) atomic_add(&h[l], lh[l]); }",
   "hist", 0, "", 1, {8192}, {128}, {0}, 2, {{'i', U8, 8192, 0, 256}, {'b', U32, 32, 1000, 100000}}, "exact", 0, NONE},
  {"atomic_minmax_cmpxchg", "kernel void mm(global const int *in, global int *r) {"
                            " int v = in[get_global_id(0)]; atomic_min(&r[0], v); atomic_max(&r[1], v);"
                            " atomic_xor(&r[2], v); atomic_or(&r[3], v & 0xff0);"
                            " int old = r[4]; while (atomic_cmpxchg(&r[4], old, old + (v & 7)) != old) old = r[4]; }",
   "mm", 0, "", 1, {1024}, {64}, {0}, 2, {{'i', I32, 1024, -100000, 100000}, {'b', I32, 8, -1e6, 1e6}}, "exact", 0, NONE},
  {"atomic_64bit", "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                   "kernel void a64(global const ulong *in, global ulong *s) {"
                   " atom_add(&s[0], in[get_global_id(0)]); atom_xchg(&s[1], 5ul); }",
   "a64", 0, "", 1, {512}, {64}, {0}, 2, {{'i', U64, 512, 0, 4e15}, {'b', U64, 2, 1e12, 2e12}}, "exact", 0, NONE},
  {"private_scratch", "kernel void priv(global const int *idx, global int *o) {"
                      " int a[200]; size_t i = get_global_id(0);"
                      " for (int k = 0; k < 200; k++) a[k] = k * (int)i + (k ^ 5);"
                      " int s = 0; for (int k = 0; k < 16; k++) s += a[(idx[i] + k * 13) % 200]; o[i] = s; }",
   "priv", 0, "", 1, {256}, {32}, {0}, 2, {{'i', I32, 256, 0, 200}, {'o', I32, 256}}, "exact", 0, NONE},
  {"printf", "kernel void pr(global int *o) { size_t i = get_global_id(0);"
             " if (i == 3) printf(\"item %d of %d: %f\\n\", (int)i, (int)get_global_size(0), 1.5f);"
             " o[i] = (int)i * 2; }",
   "pr", 0, "", 1, {64}, {16}, {0}, 1, {{'o', I32, 64}}, "exact", 0, NONE},
  {"subgroup_simd8", "__attribute__((intel_reqd_sub_group_size(8)))"
                     " kernel void sg(global const int *in, global int *s, global int *l) { size_t i = get_global_id(0);"
                     " s[i] = sub_group_reduce_add(in[i]); l[i] = (int)get_sub_group_local_id(); }",
   "sg", 0, "-cl-std=CL2.0", 1, {512}, {64}, {0}, 3,
   {{'i', I32, 512, -50, 50}, {'o', I32, 512}, {'o', I32, 512}}, "exact", ref_sg8, NONE},
  {"subgroup_simd16", "__attribute__((intel_reqd_sub_group_size(16)))"
                      " kernel void sg(global const int *in, global int *s, global int *l) { size_t i = get_global_id(0);"
                      " s[i] = sub_group_reduce_add(in[i]); l[i] = (int)get_sub_group_local_id(); }",
   "sg", 0, "-cl-std=CL2.0", 1, {512}, {64}, {0}, 3,
   {{'i', I32, 512, -50, 50}, {'o', I32, 512}, {'o', I32, 512}}, "exact", ref_sg16, NONE},
  {"subgroup_simd32", "__attribute__((intel_reqd_sub_group_size(32)))"
                      " kernel void sg(global const int *in, global int *s, global int *l) { size_t i = get_global_id(0);"
                      " s[i] = sub_group_reduce_add(in[i]); l[i] = (int)get_sub_group_local_id(); }",
   "sg", 0, "-cl-std=CL2.0", 1, {512}, {64}, {0}, 3,
   {{'i', I32, 512, -50, 50}, {'o', I32, 512}, {'o', I32, 512}}, "exact", ref_sg32, NONE},
  {"workgroup_collectives", "kernel void wg(global const int *in, global int *s, global int *scan, global int *m) {"
                            " size_t i = get_global_id(0); s[i] = work_group_reduce_add(in[i]);"
                            " scan[i] = work_group_scan_inclusive_add(in[i]); m[i] = work_group_reduce_max(in[i]); }",
   "wg", 0, "-cl-std=CL2.0", 1, {1024}, {128}, {0}, 4,
   {{'i', I32, 1024, -1000, 1000}, {'o', I32, 1024}, {'o', I32, 1024}, {'o', I32, 1024}}, "exact",
   ref_wg_collectives, NONE},
  {"fp64", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
           "kernel void d(global const double *a, global const double *b, global double *c) {"
           " size_t i = get_global_id(0); c[i] = fma(a[i], b[i], a[i] * 0.25) - b[i] / 3.0; }",
   "d", 0, "", 1, {1024}, {64}, {0}, 3,
   {{'i', F64, 1024, -1e3, 1e3}, {'i', F64, 1024, 1, 1e3}, {'o', F64, 1024}}, "f64abs1e-6", 0, NONE},
  {"half", "kernel void h(global const half *a, global half *b, global float *f) {"
           " size_t i = get_global_id(0); float v = vload_half(i, a); f[i] = v * 2.0f;"
           " vstore_half_rte(v * 0.5f + 1.0f, i, b); }",
   "h", 0, "", 1, {512}, {64}, {0}, 3, {{'i', U16, 512, 0x3000, 0x5000}, {'o', U16, 512}, {'o', F32, 512}},
   "exact", 0, NONE},
  {"multi_kernel", "kernel void k1(global const int *a, global int *b, global int *c) {"
                   " size_t i = get_global_id(0); b[i] = a[i] * 3 - 7; }\n"
                   "kernel void k2(global const int *a, global int *b, global int *c) {"
                   " size_t i = get_global_id(0); c[i] = b[i] + a[(i + 1) % get_global_size(0)]; }",
   "k1", "k2", "", 1, {2048}, {64}, {0}, 3, {{'i', I32, 2048, -1e6, 1e6}, {'o', I32, 2048}, {'o', I32, 2048}},
   "exact", 0, NONE},
  {"copy_fill_buffer", "kernel void k(global const int *a, global int *b, global int *c) {"
                       " size_t i = get_global_id(0); b[i] = a[i] ^ 0x5555; }",
   "k", 0, "", 1, {1024}, {64}, {0}, 3, {{'i', I32, 1024, -1e6, 1e6}, {'o', I32, 1024}, {'o', I32, 1024}},
   "exact", 0, 1, 2, -1},
  {"fill_buffer", "kernel void k(global const int *a, global int *b) { b[get_global_id(0)] = a[get_global_id(0)] + 1; }",
   "k", 0, "", 1, {512}, {64}, {0}, 2, {{'o', I32, 512}, {'o', I32, 512}}, "exact", 0, -1, -1, 0},
  {"matmul_naive", "kernel void mm(global const float *a, global const float *b, global float *c, int n) {"
                   " size_t r = get_global_id(1), col = get_global_id(0); float s = 0.0f;"
                   " for (int k = 0; k < n; k++) s += a[r * n + k] * b[k * n + col]; c[r * n + col] = s; }",
   "mm", 0, "", 2, {32, 32}, {8, 8}, {0}, 4,
   {{'i', F32, 1024, -1, 1}, {'i', F32, 1024, -1, 1}, {'o', F32, 1024}, {'s', I32, 0, 32}}, "f32abs1e-4", 0, NONE},
  {"integer_ops", "kernel void io(global const uint *a, global const uint *b, global uint *o) {"
                  " size_t i = get_global_id(0); uint x = a[i], y = b[i];"
                  " o[6 * i] = mul_hi(x, y); o[6 * i + 1] = rotate(x, y); o[6 * i + 2] = popcount(x);"
                  " o[6 * i + 3] = clz(x); o[6 * i + 4] = add_sat(x, y); o[6 * i + 5] = x / (y | 1) + x % (y | 1); }",
   "io", 0, "", 1, {512}, {64}, {0}, 3, {{'i', U32, 512, 0, 4294967295.0}, {'i', U32, 512, 0, 4294967295.0}, {'o', U32, 3072}},
   "exact", 0, NONE},
  {"char_short", "kernel void cs(global const uchar *a, global const short *b, global short *o, global char *p) {"
                 " size_t i = get_global_id(0); o[i] = (short)(a[i] * b[i] >> 3); p[i] = (char)(b[i] ^ a[i]); }",
   "cs", 0, "", 1, {1024}, {64}, {0}, 4,
   {{'i', U8, 1024, 0, 256}, {'i', U16, 1024, 0, 65536}, {'o', U16, 1024}, {'o', U8, 1024}}, "exact", 0, NONE},
  {"conversions", "kernel void cv(global const float *a, global int *o, global uchar *u, global float *f) {"
                  " size_t i = get_global_id(0); o[i] = convert_int_sat_rte(a[i] * 1e5f);"
                  " u[i] = convert_uchar_sat(a[i]); f[i] = convert_float((int)(a[i] * 3.0f)); }",
   "cv", 0, "", 1, {1024}, {64}, {0}, 4,
   {{'i', F32, 1024, -3e4, 3e4}, {'o', I32, 1024}, {'o', U8, 1024}, {'o', F32, 1024}}, "exact", 0, NONE},
  {"math", "kernel void m(global const float *a, global float *o) {"
           " size_t i = get_global_id(0); float x = a[i];"
           " o[4 * i] = sqrt(x); o[4 * i + 1] = exp(x * 0.1f); o[4 * i + 2] = sin(x); o[4 * i + 3] = log(x); }",
   "m", 0, "", 1, {512}, {64}, {0}, 2, {{'i', F32, 512, 0.01, 50}, {'o', F32, 2048}}, "f32ulp8", 0, NONE},
  {"control_flow", "kernel void cf(global const uint *a, global uint *o) {"
                   " uint x = a[get_global_id(0)] % 10000 + 1, n = 0; while (x != 1 && n < 500) {"
                   " if (x & 1) x = 3 * x + 1; else x /= 2; n++; } o[get_global_id(0)] = n; }",
   "cf", 0, "", 1, {1024}, {64}, {0}, 2, {{'i', U32, 1024, 0, 1e9}, {'o', U32, 1024}}, "exact", 0, NONE},
  {"vectors", "kernel void v(global const float4 *a, global const float4 *b, global float4 *o) {"
              " size_t i = get_global_id(0); float4 x = a[i], y = b[i];"
              " o[i] = (float4)(dot(x, y), x.w - y.x, (x * y).z, max(x.y, y.y)) + x.wzyx; }",
   "v", 0, "", 1, {256}, {64}, {0}, 3, {{'i', F32, 1024, -4, 4}, {'i', F32, 1024, -4, 4}, {'o', F32, 1024}},
   "f32abs1e-4", 0, NONE},
  {"constant_table", "constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
                     "kernel void ct(constant int *c, global const uint *a, global int *o) {"
                     " size_t i = get_global_id(0); o[i] = c[a[i] % 16] * table[i % 8]; }",
   "ct", 0, "", 1, {512}, {64}, {0}, 3, {{'i', I32, 16, -100, 100}, {'i', U32, 512, 0, 1e6}, {'o', I32, 512}},
   "exact", 0, NONE},
  {"struct_arg", "typedef struct { float a; float b; float c[2]; } S;\n"
                 "kernel void st(global const S *s, global float *o) {"
                 " size_t i = get_global_id(0); o[i] = s[i % 4].b * (s[i % 4].a + s[i % 4].c[i & 1]); }",
   "st", 0, "", 1, {256}, {64}, {0}, 2, {{'i', F32, 16, -50, 50}, {'o', F32, 256}}, "exact", 0, NONE},
  {"mandelbrot", "#pragma OPENCL FP_CONTRACT OFF\nkernel void mb(global uint *o) { size_t x = get_global_id(0), y = get_global_id(1);"
                 " float cr = -2.0f + 2.5f * x / 64.0f, ci = -1.25f + 2.5f * y / 32.0f, zr = 0, zi = 0; uint n = 0;"
                 " while (n < 200 && zr * zr + zi * zi < 4.0f) { float t = zr * zr - zi * zi + cr;"
                 " zi = 2.0f * zr * zi + ci; zr = t; n++; } o[y * 64 + x] = n; }",
   "mb", 0, "", 2, {64, 32}, {16, 4}, {0}, 1, {{'o', U32, 2048}}, "exact", 0, NONE},
  {"non_uniform_group", "kernel void nu(global int *o) { size_t i = get_global_id(0);"
                        " o[i] = (int)(get_local_id(0) * 1000 + get_group_id(0) * 10 + get_local_size(0)); }",
   "nu", 0, "-cl-std=CL2.0", 1, {1000}, {64}, {0}, 1, {{'o', I32, 1000}}, "exact", ref_non_uniform, NONE},
  {"generic_pointers", "int twice(int *p, int k) { return p[k] * 3; }\n"
                       "kernel void gp(global const int *in, global int *out) {"
                       " local int l[64]; size_t i = get_global_id(0), j = get_local_id(0); l[j] = in[i];"
                       " barrier(CLK_LOCAL_MEM_FENCE); int *g = (int *)in; out[i] = twice(g, (int)i) + l[63 - j]; }",
   "gp", 0, "-cl-std=CL2.0", 1, {512}, {64}, {0}, 2, {{'i', I32, 512, -1e6, 1e6}, {'o', I32, 512}}, "exact",
   ref_generic, NONE},
  {"profiling", "kernel void k(global const int *a, global int *b) {"
                " size_t i = get_global_id(0); b[i] = a[i] * a[i] - (int)i; }",
   "k", 0, "", 1, {2048}, {64}, {0}, 2, {{'i', I32, 2048, -40000, 40000}, {'o', I32, 2048}}, "exact", 0,
   NONE, 1},
};
static const int ncases = sizeof cases / sizeof cases[0];

static cl_platform_id pick(const char *want) {
  cl_platform_id ps[16];
  cl_uint n = 0;
  CHECK(clGetPlatformIDs(16, ps, &n));
  for (cl_uint i = 0; i < n; i++) {
    char name[256] = {0};
    CHECK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
    if (strstr(name, want)) return ps[i];
  }
  fprintf(stderr, "no platform named like %s\n", want);
  exit(1);
}

static void run_cl(struct run *r, const char *platform, int ci) {
  const kcase *c = r->c;
  cl_platform_id plat = pick(platform);
  cl_device_id dev;
  cl_int err;
  CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, c->profiling ? props : NULL, &err);
  CHECK(err);
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&c->src, NULL, &err);
  CHECK(err);
  if (clBuildProgram(p, 1, &dev, c->opts, NULL, NULL) != CL_SUCCESS) {
    char log[16384] = {0};
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "%s: build failed:\n%s\n", c->name, log);
    exit(1);
  }
  cl_mem mem[8] = {0}, img[8] = {0};
  cl_sampler smp[8] = {0};
  size_t origin[3] = {0, 0, 0}, region[3] = {c->g[0], c->g[1], 1};
  if (c->img_size[0])
    for (int k = 0; k < 3; k++) region[k] = c->img_size[k] ? c->img_size[k] : 1;
  for (int ai = 0; ai < c->nargs; ai++) {
    const arg *a = &c->a[ai];
    if (strchr("iobIO", a->kind)) {
      mem[ai] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, r->bytes[ai], r->host[ai], &err);
      CHECK(err);
    }
    if (a->kind == 'I' || a->kind == 'O') {
      cl_image_format f = {CL_RGBA, a->kind == 'I' ? CL_UNORM_INT8 : CL_FLOAT};
      if (a->kind == 'I' && c->in_order) {
        f.image_channel_order = c->in_order;
        f.image_channel_data_type = c->in_type;
      }
      cl_image_desc d;
      memset(&d, 0, sizeof d);
      d.image_type = c->img_type ? c->img_type : CL_MEM_OBJECT_IMAGE2D;
      d.image_width = region[0];
      switch (d.image_type) {
      case CL_MEM_OBJECT_IMAGE1D_ARRAY: d.image_array_size = region[1]; break;
      case CL_MEM_OBJECT_IMAGE2D_ARRAY: d.image_height = region[1]; d.image_array_size = region[2]; break;
      case CL_MEM_OBJECT_IMAGE3D: d.image_height = region[1]; d.image_depth = region[2]; break;
      default: d.image_height = region[1]; break;
      }
      img[ai] = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &err);
      CHECK(err);
      if (a->kind == 'I')
        CHECK(clEnqueueCopyBufferToImage(q, mem[ai], img[ai], 0, origin, region, 0, NULL, NULL));
    }
    if (a->kind == 'S') {
      cl_sampler_properties sp[] = {CL_SAMPLER_NORMALIZED_COORDS, (cl_sampler_properties)a->n,
                                    CL_SAMPLER_ADDRESSING_MODE, (cl_sampler_properties)a->lo,
                                    CL_SAMPLER_FILTER_MODE, (cl_sampler_properties)a->hi, 0};
      smp[ai] = clCreateSamplerWithProperties(ctx, sp, &err);
      CHECK(err);
    }
  }
  const char *names[2] = {c->kernel, c->kernel2};
  for (int k = 0; k < 2 && names[k]; k++) {
    cl_kernel kern = clCreateKernel(p, names[k], &err);
    CHECK(err);
    for (int ai = 0; ai < c->nargs; ai++) {
      const arg *a = &c->a[ai];
      if (a->kind == 'l') {
        CHECK(clSetKernelArg(kern, ai, a->n, NULL));
      } else if (a->kind == 's') {
        int v = (int)a->lo;
        CHECK(clSetKernelArg(kern, ai, sizeof v, &v));
      } else if (a->kind == 'u') {
        cl_ulong v = (cl_ulong)a->lo;
        CHECK(clSetKernelArg(kern, ai, sizeof v, &v));
      } else if (a->kind == 'f') {
        float v = (float)a->lo;
        CHECK(clSetKernelArg(kern, ai, sizeof v, &v));
      } else if (a->kind == 'I' || a->kind == 'O') {
        CHECK(clSetKernelArg(kern, ai, sizeof(cl_mem), &img[ai]));
      } else if (a->kind == 'S') {
        CHECK(clSetKernelArg(kern, ai, sizeof(cl_sampler), &smp[ai]));
      } else {
        CHECK(clSetKernelArg(kern, ai, sizeof(cl_mem), &mem[ai]));
      }
    }
    cl_event ev = NULL;
    CHECK(clEnqueueNDRangeKernel(q, kern, c->dims, c->off[0] ? c->off : NULL, c->g, c->l[0] ? c->l : NULL,
                                 0, NULL, c->profiling ? &ev : NULL));
    if (ev) {
      cl_ulong start = 0, end = 0;
      CHECK(clWaitForEvents(1, &ev));
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
      clReleaseEvent(ev);
    }
  }
  for (int ai = 0; ai < c->nargs; ai++)
    if (c->a[ai].kind == 'O')
      CHECK(clEnqueueCopyImageToBuffer(q, img[ai], mem[ai], origin, region, 0, 0, NULL, NULL));
  if (c->copy_src >= 0)
    CHECK(clEnqueueCopyBuffer(q, mem[c->copy_src], mem[c->copy_dst], 0, 0, r->bytes[c->copy_dst], 0, NULL, NULL));
  if (c->fill_dst >= 0) {
    cl_uint pat = 0x01020304u + (cl_uint)ci;
    CHECK(clEnqueueFillBuffer(q, mem[c->fill_dst], &pat, sizeof pat, 0, r->bytes[c->fill_dst], 0, NULL, NULL));
  }
  for (int ai = 0; ai < c->nargs; ai++)
    if (mem[ai]) CHECK(clEnqueueReadBuffer(q, mem[ai], CL_TRUE, 0, r->bytes[ai], r->host[ai], 0, NULL, NULL));
  CHECK(clFinish(q));
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "list")) {
    for (int i = 0; i < ncases; i++) printf("%s\n", cases[i].name);
    return 0;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: record list | record CASE neo | record CASE ref DIR\n");
    return 2;
  }
  int ci = 0;
  while (ci < ncases && strcmp(cases[ci].name, argv[1])) ci++;
  if (ci == ncases) {
    fprintf(stderr, "no case %s\n", argv[1]);
    return 2;
  }
  struct run r = {&cases[ci], {0}, {0}};
  uint8_t sig[8][64];
  for (int ai = 0; ai < r.c->nargs; ai++) {
    const arg *a = &r.c->a[ai];
    if (!strchr("iobIO", a->kind)) continue;
    r.bytes[ai] = a->n * tysize[a->ty];
    r.host[ai] = calloc(1, r.bytes[ai] < 64 ? 64 : r.bytes[ai]);
    fill(r.c, ci, ai, r.host[ai], r.bytes[ai]);
    memcpy(sig[ai], r.host[ai], 64);
  }
  if (!strcmp(argv[2], "neo")) {
    run_cl(&r, "Intel", ci);
    return 0;
  }
  if (strcmp(argv[2], "ref") || argc < 4) return 2;
  if (r.c->ref)
    r.c->ref(&r);
  else
    run_cl(&r, "Portable", ci);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.expect", argv[3], r.c->name);
  FILE *ex = fopen(path, "w");
  snprintf(path, sizeof path, "%s/%s.out", argv[3], r.c->name);
  FILE *out = fopen(path, "wb");
  if (!ex || !out) return 1;
  for (int ai = 0; ai < r.c->nargs; ai++) {
    if (!r.host[ai]) continue;
    int in_only = strchr("iI", r.c->a[ai].kind) && r.c->copy_dst != ai && r.c->fill_dst != ai;
    fprintf(ex, "buffer %d %zu %s ", ai, r.bytes[ai], in_only ? "exact" : r.c->mode);
    for (int k = 0; k < 64 && k < (int)r.bytes[ai]; k++) fprintf(ex, "%02x", sig[ai][k]);
    fprintf(ex, "\n");
    fwrite(r.host[ai], 1, r.bytes[ai], out);
  }
  fclose(ex);
  fclose(out);
  return 0;
}
