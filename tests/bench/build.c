/* clBuildProgram from OpenCL C, timed (scripts/bench_build.sh, issue 26): the typical kernel of
 * the compile benchmark (tests/bench/typical.cl: a bounds check, loads, a store, sin and exp)
 * built cold (a source no cache has seen: a unique comment) and built again (the runtime's
 * persistent program cache: PoCL's kcache, gencl's program cache). Each build is
 * clCreateProgramWithSource + clBuildProgram + clCreateKernel + the releases.
 * usage: build N   prints: cold_ms cached_ms (medians of N builds each) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *KERNEL =
    "kernel void saxpy_sin(global float *y, global const float *x, float a, int n) {\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        float v = x[i];\n"
    "        y[i] = a * sin(v) + y[i] * exp(-v * v);\n"
    "    }\n"
    "}\n";

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double build(cl_context ctx, cl_device_id dev, const char *src) {
    double t0 = now_ms();
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err || clBuildProgram(p, 1, &dev, "", NULL, NULL)) {
        fprintf(stderr, "build failed\n");
        exit(1);
    }
    cl_kernel k = clCreateKernel(p, "saxpy_sin", &err);
    if (err) {
        fprintf(stderr, "no kernel\n");
        exit(1);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    return now_ms() - t0;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10;
    if (n < 1 || n > 1000)
        return 2;
    cl_platform_id plat;
    cl_device_id dev;
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &plat, &np) || !np ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    double *cold = calloc(n, sizeof(double)), *warm = calloc(n, sizeof(double));
    char *src = malloc(strlen(KERNEL) + 128);
    /* One build first, so that neither figure pays for loading the compiler. */
    sprintf(src, "// warm-up %d %ld\n%s", (int)getpid(), (long)time(NULL), KERNEL);
    build(ctx, dev, src);
    for (int i = 0; i < n; i++) {
        sprintf(src, "// cold %d %ld %d\n%s", (int)getpid(), (long)time(NULL), i, KERNEL);
        cold[i] = build(ctx, dev, src);
    }
    sprintf(src, "// cached %d %ld\n%s", (int)getpid(), (long)time(NULL), KERNEL);
    build(ctx, dev, src);
    for (int i = 0; i < n; i++)
        warm[i] = build(ctx, dev, src);
    qsort(cold, n, sizeof(double), cmp);
    qsort(warm, n, sizeof(double), cmp);
    printf("%.3f %.3f\n", cold[n / 2], warm[n / 2]);
    clReleaseContext(ctx);
    return 0;
}
