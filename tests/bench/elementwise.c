// The GPU model on the CTS's integer kernels (issue 23): `d[i] = a[i] OP b[i]` over N
// work-items of an integer vector type, as test_integer_ops runs them, each launch timed
// (after one warm-up), the result checked against the host's arithmetic. Run by
// scripts/bench_model.sh on gencl's emulated device and on PoCL, side by side.
// usage: elementwise SCALAR WIDTH [N] [REPS] [OP]   (SCALAR: char, short, int, long; OP: + - * ^)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t apply(char op, uint64_t x, uint64_t y) {
  switch (op) {
    case '+': return x + y;
    case '-': return x - y;
    case '*': return x * y;
    default: return x ^ y;
  }
}

#define CHECK(e, what)                                         \
  do {                                                         \
    if ((e) != CL_SUCCESS) {                                   \
      fprintf(stderr, "%s failed: %d\n", what, (int)(e));      \
      return 1;                                                \
    }                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SCALAR WIDTH [N] [REPS] [OP]\n", argv[0]);
    return 2;
  }
  const char *scalar = argv[1];
  int width = atoi(argv[2]);
  size_t n = argc > 3 ? strtoul(argv[3], 0, 0) : (1u << 20);
  int reps = argc > 4 ? atoi(argv[4]) : 5;
  char op = argc > 5 ? argv[5][0] : '+';
  size_t ssz = !strcmp(scalar, "char") ? 1 : !strcmp(scalar, "short") ? 2 : !strcmp(scalar, "int") ? 4 : 8;
  size_t lanes = (size_t)width, bytes = n * lanes * ssz;
  char type[32], src[512];
  snprintf(type, sizeof type, width > 1 ? "%s%d" : "%s", scalar, width);
  snprintf(src, sizeof src,
           "__kernel void test(__global %s *a, __global %s *b, __global %s *d)"
           "{ int t = get_global_id(0); d[t] = a[t] %c b[t]; }",
           type, type, type, op);

  cl_platform_id p;
  cl_device_id dev;
  cl_int e = clGetPlatformIDs(1, &p, 0);
  CHECK(e, "clGetPlatformIDs");
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, 0), "clGetDeviceIDs");
  cl_context c = clCreateContext(0, 1, &dev, 0, 0, &e);
  CHECK(e, "clCreateContext");
  cl_command_queue q = clCreateCommandQueueWithProperties(c, dev, 0, &e);
  CHECK(e, "clCreateCommandQueue");
  const char *s = src;
  cl_program pr = clCreateProgramWithSource(c, 1, &s, 0, &e);
  CHECK(e, "clCreateProgramWithSource");
  CHECK(clBuildProgram(pr, 1, &dev, "", 0, 0), "clBuildProgram");
  cl_kernel k = clCreateKernel(pr, "test", &e);
  CHECK(e, "clCreateKernel");

  unsigned char *a = malloc(bytes), *b = malloc(bytes), *d = malloc(bytes);
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < bytes; i++) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    a[i] = (unsigned char)seed;
    b[i] = (unsigned char)(seed >> 8);
  }
  cl_mem A = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, bytes, a, &e);
  CHECK(e, "clCreateBuffer");
  cl_mem B = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, bytes, b, &e);
  CHECK(e, "clCreateBuffer");
  cl_mem D = clCreateBuffer(c, 0, bytes, 0, &e);
  CHECK(e, "clCreateBuffer");
  clSetKernelArg(k, 0, sizeof A, &A);
  clSetKernelArg(k, 1, sizeof B, &B);
  clSetKernelArg(k, 2, sizeof D, &D);

  CHECK(clEnqueueNDRangeKernel(q, k, 1, 0, &n, 0, 0, 0, 0), "clEnqueueNDRangeKernel");
  CHECK(clFinish(q), "clFinish");
  double best = 1e9, sum = 0;
  for (int r = 0; r < reps; r++) {
    double t = now();
    CHECK(clEnqueueNDRangeKernel(q, k, 1, 0, &n, 0, 0, 0, 0), "clEnqueueNDRangeKernel");
    CHECK(clFinish(q), "clFinish");
    t = now() - t;
    sum += t;
    best = t < best ? t : best;
  }
  CHECK(clEnqueueReadBuffer(q, D, CL_TRUE, 0, bytes, d, 0, 0, 0), "clEnqueueReadBuffer");
  uint64_t mask = ssz == 8 ? ~0ull : (1ull << (8 * ssz)) - 1;
  for (size_t i = 0; i < n * lanes; i++) {
    uint64_t x = 0, y = 0, got = 0;
    memcpy(&x, a + i * ssz, ssz);
    memcpy(&y, b + i * ssz, ssz);
    memcpy(&got, d + i * ssz, ssz);
    if (((apply(op, x, y) ^ got) & mask) != 0) {
      fprintf(stderr, "%s %c: element %zu is %#llx, the host computes %#llx\n", type, op, i,
              (unsigned long long)got, (unsigned long long)(apply(op, x, y) & mask));
      return 1;
    }
  }
  printf("%s %c n=%zu: best %.2f ms, mean %.2f ms, %.2f ns a work-item\n", type, op, n,
         best * 1e3, sum / reps * 1e3, best * 1e9 / n);
  return 0;
}
