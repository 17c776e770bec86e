/* printf from kernels, through the ICD loader: every conversion of OpenCL C 6.15.14 with
 * flags, widths and precisions, vectors, string literals and printf's return value. The
 * output is compared with PoCL's by driver/tests/e2e.rs; "host before" and "host after"
 * check that the kernel's lines come out between the host's own. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void k(__global int *ret, __global const float *f) {\n"
    "  int g = get_global_id(0);\n"
    "  float x = f[g];\n"
    "  long l = (long)g * -1000000000000L;\n"
    "  ret[g] = printf(\"g=%d i=%i u=%u x=%x X=%X o=%o c=%c s=%s pct=%%\\n\", g, -g, g * 7u,\n"
    "                  g * 255, g * 4095, g * 9, 'a' + g, \"lit\");\n"
    "  printf(\"g=%d f=%f e=%e g=%g a=%a E=%E G=%G\\n\", g, x, x, x, x, x, x);\n"
    "  printf(\"g=%d [%8.3f] [%-8.2f] [%+d] [% d] [%05d] [%#o] [%#x] [%.0f] [%10s]\\n\", g, x, x,\n"
    "         g, g, g, g + 8, g + 16, x, \"right\");\n"
    "  printf(\"g=%d l=%ld lu=%lu lx=%lx d=%f\\n\", g, l, (ulong)l, l, (double)x / 3.0);\n"
    "  printf(\"g=%d v2=%v2hld v4=%v4hlf v3=%v3hlx v8=%v8hhd\\n\", g, (int2)(g, -g),\n"
    "         (float4)(x, 1.5f, -2.0f, 0.125f), (uint3)(g, 16, 255),\n"
    "         (char8)(g, -1, 2, -3, 4, -5, 6, -128));\n"
    "}\n";

int main(void) {
  cl_platform_id p;
  cl_device_id d;
  cl_int e;
  if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL))
    return 2;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  if (clBuildProgram(pr, 1, &d, "", NULL, NULL)) {
    char log[8192];
    clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed: %s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(pr, "k", &e);
  enum { N = 4 };
  float fin[N] = {0.0f, 1.0f / 3.0f, -1234.5678f, 6.02e23f};
  cl_mem ret = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(int) * N, NULL, &e);
  cl_mem f = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof fin, fin, &e);
  clSetKernelArg(k, 0, sizeof ret, &ret);
  clSetKernelArg(k, 1, sizeof f, &f);
  printf("host before\n");
  size_t g = N, l = N;
  if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL)) return 3;
  if (clFinish(q)) return 4;
  int r[N];
  clEnqueueReadBuffer(q, ret, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL);
  for (int i = 0; i < N; i++)
    if (r[i] != 0) {
      printf("printf returned %d\n", r[i]);
      return 5;
    }
  printf("host after\n");
  return 0;
}
