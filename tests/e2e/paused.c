/* A kernel that runs for a while, in a process stopped (SIGSTOP) while it runs, as under a
 * debugger: the model's GPU stops with the process, and the device must not count the time
 * it was stopped against the batch's hang budget. Prints "running" once the kernel has
 * started, then its results against the host's, how long enqueue to clFinish took and what
 * clFinish answered; exits 0 when every result is exact. Built by driver/tests/e2e.rs;
 * argument: iterations of each work-item's loop. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *src =
    "kernel void lcg(global uint *out, uint n) {\n"
    "  uint x = (uint)get_global_id(0);\n"
    "  for (uint i = 0; i < n; i++) x = x * 1664525u + 1013904223u;\n"
    "  out[get_global_id(0)] = x;\n"
    "}\n";

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

enum { N = 32 };

int main(int argc, char **argv) {
  cl_uint n = argc > 1 ? (cl_uint)strtoul(argv[1], NULL, 0) : 1000000u;
  cl_platform_id p;
  cl_device_id d;
  cl_int e;
  if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL)) return 2;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
  cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  if (clBuildProgram(pr, 1, &d, "", NULL, NULL)) return 2;
  cl_kernel k = clCreateKernel(pr, "lcg", &e);
  clSetKernelArg(k, 0, sizeof out, &out);
  clSetKernelArg(k, 1, sizeof n, &n);
  size_t g = N, l = N;
  cl_event ev;
  double t0 = now();
  if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev)) return 2;
  clFlush(q);
  cl_int status = CL_QUEUED;
  while (status > CL_RUNNING)
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  printf("running\n");
  fflush(stdout);
  cl_int fin = clFinish(q);
  double t = now() - t0;
  cl_uint got[N];
  cl_int rd = clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
  /* n steps of x -> a x + c at once, x -> A x + C, by squaring (mod 2^32). */
  cl_uint A = 1, C = 0, a = 1664525u, cc = 1013904223u;
  for (cl_uint m = n; m; m >>= 1) {
    if (m & 1) { A = a * A; C = a * C + cc; }
    cc = a * cc + cc;
    a = a * a;
  }
  int exact = 0;
  for (cl_uint i = 0; i < N; i++) exact += rd == CL_SUCCESS && got[i] == A * i + C;
  printf("paused: clFinish %d, %d of %d exact, after %.3f s\n", fin, exact, N, t);
  return fin == CL_SUCCESS && exact == N ? 0 : 1;
}
