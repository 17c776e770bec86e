/* A kernel that never ends (it waits for a flag nobody sets): the device's hang detection
 * must stop it and the application must hear of it. Prints the event's status, what
 * clFinish answered and how long that took; exits 0 when the hang was reported as NEO
 * reports one (CL_OUT_OF_RESOURCES). Built by driver/tests/e2e.rs. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <time.h>

static const char *src =
    "kernel void spin(global volatile int *flag) { while (flag[0] == 0) { } flag[1] = 1; }";

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  cl_platform_id p;
  cl_device_id d;
  cl_int e;
  if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL)) return 2;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
  int zero[16] = {0};
  cl_mem flag = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  if (clBuildProgram(pr, 1, &d, "", NULL, NULL)) return 2;
  cl_kernel k = clCreateKernel(pr, "spin", &e);
  clSetKernelArg(k, 0, sizeof flag, &flag);
  size_t g = 16, l = 16;
  cl_event ev;
  double t0 = now();
  if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev)) return 2;
  cl_int fin = clFinish(q);
  double t = now() - t0;
  cl_int status = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  printf("spin: status %d, clFinish %d, after %.3f s\n", status, fin, t);
  return status == CL_OUT_OF_RESOURCES && fin == CL_OUT_OF_RESOURCES ? 0 : 1;
}
