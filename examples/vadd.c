/* Vector add of 2^20 floats through the OpenCL API, checked against the CPU.
 * Built against the Khronos headers and -lOpenCL (the ICD loader), so it runs
 * on whatever platform the loader finds: gencl through OCL_ICD_VENDORS. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "kernel void vadd(global const float *a, global const float *b, global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int err_ = (call);                                                      \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call,     \
              err_);                                                           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  const char *want = argc > 1 ? argv[1] : "gencl";
  size_t n = (size_t)1 << 20;
  cl_uint np = 0;
  CHECK(clGetPlatformIDs(0, NULL, &np));
  cl_platform_id plats[16];
  CHECK(clGetPlatformIDs(np < 16 ? np : 16, plats, NULL));
  cl_platform_id plat = NULL;
  for (cl_uint i = 0; i < np && i < 16; i++) {
    char name[256] = {0};
    CHECK(clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
    if (strstr(name, want) || (strcmp(want, "gencl") == 0 && strstr(name, "gencl"))) {
      plat = plats[i];
      printf("platform: %s\n", name);
      break;
    }
  }
  if (!plat) {
    fprintf(stderr, "no platform named like '%s'\n", want);
    return 1;
  }
  cl_device_id dev;
  CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  char dname[256] = {0};
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL));
  printf("device: %s\n", dname);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);

  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)i * 0.5f;
    b[i] = 1.0f / (float)(i + 1);
    c[i] = -1.0f;
  }
  cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a, &err);
  CHECK(err);
  cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(q, bb, CL_TRUE, 0, n * sizeof(float), b, 0, NULL, NULL));
  cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
  CHECK(err);

  cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  CHECK(err);
  err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = {0};
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed (%d):\n%s\n", err, log);
    return 1;
  }
  cl_kernel k = clCreateKernel(p, "vadd", &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &ba));
  CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &bb));
  CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &bc));
  size_t global = n;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));
  CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, n * sizeof(float), c, 0, NULL, NULL));

  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    float want_c = a[i] + b[i];
    if (memcmp(&c[i], &want_c, sizeof(float)) != 0) {
      if (bad < 5)
        fprintf(stderr, "c[%zu] = %a, expected %a\n", i, c[i], want_c);
      bad++;
    }
  }
  if (bad) {
    fprintf(stderr, "vadd: %zu of %zu results wrong\n", bad, n);
    return 1;
  }
  printf("vadd: %zu floats exact\n", n);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(a);
  free(b);
  free(c);
  return 0;
}
