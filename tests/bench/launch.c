/* Launch benchmark (issue 11, "Speed"): an empty kernel on the first device of the one
 * platform the ICD loader sees (scripts/bench_launch.sh runs it once per implementation).
 *   enqueue  - mean time inside clEnqueueNDRangeKernel for a non-blocking launch (µs)
 *   batch    - 10,000 non-blocking launches then clFinish: launches per second
 *   blocking - one launch then clFinish, repeated: mean round trip (µs), and its median and
 *              99th percentile (on a busy machine the mean is its few rounds that waited
 *              milliseconds for a core; the median is what most rounds take)
 * Output: one line "enqueue_us batch_per_s blocking_us blocking_p50_us blocking_p99_us". */
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

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)

int main(int argc, char **argv) {
    int batch = argc > 1 ? atoi(argv[1]) : 10000;
    int rounds = argc > 2 ? atoi(argv[2]) : 200;
    cl_platform_id p;
    cl_device_id d;
    cl_int e;
    CHECK(clGetPlatformIDs(1, &p, NULL));
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    CHECK(e);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &e);
    CHECK(e);
    const char *src = "kernel void empty(global int *a) {}";
    cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    CHECK(e);
    CHECK(clBuildProgram(pr, 1, &d, "", NULL, NULL));
    cl_kernel k = clCreateKernel(pr, "empty", &e);
    CHECK(e);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &e);
    CHECK(e);
    CHECK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t g = 64, l = 64;
    /* Warm up: the first launch loads the kernel. */
    for (int i = 0; i < 10; i++)
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK(clFinish(q));

    double in_enqueue = 0;
    double t0 = now();
    for (int i = 0; i < batch; i++) {
        double a = now();
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        in_enqueue += now() - a;
    }
    CHECK(clFinish(q));
    double total = now() - t0;

    double *round = malloc(sizeof(double) * (rounds > 0 ? rounds : 1));
    double t1 = now();
    for (int i = 0; i < rounds; i++) {
        double a = now();
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK(clFinish(q));
        round[i] = now() - a;
    }
    double blocking = (now() - t1) / rounds;
    qsort(round, rounds, sizeof round[0], by_value);

    printf("%.2f %.0f %.2f %.2f %.2f\n", in_enqueue / batch * 1e6, batch / total, blocking * 1e6,
           round[rounds / 2] * 1e6, round[rounds * 99 / 100] * 1e6);
    free(round);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(pr);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
