/* Leaves the service with work in flight: queues many launches without waiting, then ends
 * the process at once - by exit(0) (argv[1] = "exit") or by SIGKILL ("kill"). The test then
 * checks that gencld is still up and serves the next client. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    cl_platform_id p;
    cl_device_id d;
    cl_int e;
    if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL))
        return 2;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &e);
    const char *src = "kernel void spin(global int *a) {"
                      "  int s = 0; for (int i = 0; i < 2000; i++) s += i * a[i & 63];"
                      "  a[get_global_id(0)] = s; }";
    cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (clBuildProgram(pr, 1, &d, "", NULL, NULL)) return 3;
    cl_kernel k = clCreateKernel(pr, "spin", &e);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &e);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t g = 4096;
    for (int i = 0; i < 200; i++)
        if (clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL)) return 4;
    clFlush(q);
    usleep(20000); /* a launch is in the service now */
    printf("queued\n");
    fflush(stdout);
    if (argc > 1 && !strcmp(argv[1], "kill")) raise(SIGKILL);
    exit(0);
}
