/* Pipelining benchmark (issue 22, "The runtime submits without waiting"): a kernel that runs
 * about 1 ms, launched N times on one in-order queue, on the first device of the one
 * platform the ICD loader sees (scripts/bench_launch.sh runs it once per implementation).
 *   calibrate - the kernel's loop count doubles until one launch, waited for, takes >= 1 ms
 *   blocking  - N launches, each waited for (clFinish) before the next: ms per launch
 *   queued    - N launches queued at once, then one clFinish: ms per launch
 *   enqueue   - mean time inside clEnqueueNDRangeKernel during the queued run (µs)
 * A runtime that submits without waiting takes about the kernel's own time per queued launch;
 * one that waits for each adds its round trip to every launch.
 * (Profiling times are no measure here: on the emulated device they are the modelled Gen9's,
 * not the host's.)
 * Output: one line "iterations blocking_ms queued_ms enqueue_us". */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)

static const char *src =
    "kernel void busy(global float *out, int n) {\n"
    "    float a = (float)get_global_id(0);\n"
    "    for (int i = 0; i < n; i++) a = a * 0.999f + 1.0f;\n"
    "    out[get_global_id(0)] = a;\n"
    "}\n";

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 200;
    cl_platform_id p;
    cl_device_id d;
    cl_int e;
    CHECK(clGetPlatformIDs(1, &p, NULL));
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    CHECK(e);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &e);
    CHECK(e);
    cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    CHECK(e);
    CHECK(clBuildProgram(pr, 1, &d, "", NULL, NULL));
    cl_kernel k = clCreateKernel(pr, "busy", &e);
    CHECK(e);
    size_t g = 64, l = 64;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, g * sizeof(float), NULL, &e);
    CHECK(e);
    CHECK(clSetKernelArg(k, 0, sizeof m, &m));

    /* Calibrate: the loop count for about 1 ms per launch (the median of 5 waited-for runs). */
    int iters = 16;
    for (;;) {
        CHECK(clSetKernelArg(k, 1, sizeof iters, &iters));
        double best = 1e9;
        for (int r = 0; r < 5; r++) {
            double t = now();
            CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
            CHECK(clFinish(q));
            t = now() - t;
            if (t < best) best = t;
        }
        if (best >= 1e-3 || iters >= (1 << 26)) break;
        iters *= 2;
    }

    double t0 = now();
    for (int i = 0; i < n; i++) {
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK(clFinish(q));
    }
    double blocking = (now() - t0) / n;

    double in_enqueue = 0;
    double t1 = now();
    for (int i = 0; i < n; i++) {
        double a = now();
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        in_enqueue += now() - a;
    }
    CHECK(clFinish(q));
    double queued = (now() - t1) / n;

    printf("%d %.3f %.3f %.2f\n", iters, blocking * 1e3, queued * 1e3, in_enqueue / n * 1e6);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(pr);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
