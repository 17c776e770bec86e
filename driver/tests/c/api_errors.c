/* Exercises gencl through the ICD loader (-lOpenCL) and checks exact error codes against the
 * OpenCL 3.0 specification. Prints one line per failed check and exits non-zero if any failed;
 * the last line is "ok N checks" on success. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static int failures, checks;
#define EXPECT(expr, want)                                                                    \
    do {                                                                                      \
        cl_int got_ = (expr);                                                                 \
        checks++;                                                                             \
        if (got_ != (want)) {                                                                 \
            printf("FAIL line %d: %s = %d, want %s (%d)\n", __LINE__, #expr, got_, #want, want); \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

int main(void) {
    cl_platform_id p;
    cl_device_id d;
    cl_int e;
    cl_uint n;

    /* clGetPlatformIDs: "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not
     * NULL or if both num_platforms and platforms are NULL." */
    EXPECT(clGetPlatformIDs(0, &p, NULL), CL_INVALID_VALUE);
    EXPECT(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
    EXPECT(clGetPlatformIDs(1, &p, &n), CL_SUCCESS);
    EXPECT(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &d, NULL), CL_DEVICE_NOT_FOUND);
    EXPECT(clGetDeviceIDs(p, 1u << 20, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
    EXPECT(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 0, &d, NULL), CL_INVALID_VALUE);
    EXPECT(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, NULL), CL_SUCCESS);

    /* Info queries: too small a buffer, unknown param. */
    char small[4];
    size_t sz = 0;
    EXPECT(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof small, small, NULL), CL_INVALID_VALUE);
    EXPECT(clGetDeviceInfo(d, 0x7fff, 0, NULL, &sz), CL_INVALID_VALUE);
    EXPECT(clGetDeviceInfo(d, CL_DEVICE_NAME, 0, NULL, &sz), CL_SUCCESS);
    char name[256];
    EXPECT(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL), CL_SUCCESS);
    checks++;
    if (sz != strlen(name) + 1) { printf("FAIL: size_ret %zu for \"%s\"\n", sz, name); failures++; }

    /* Contexts. */
    cl_context_properties bad_props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)0x1234, 0};
    cl_context_properties unknown_props[] = {0x7777, 1, 0};
    clCreateContext(bad_props, 1, &d, NULL, NULL, &e);
    EXPECT(e, CL_INVALID_PLATFORM);
    clCreateContext(unknown_props, 1, &d, NULL, NULL, &e);
    EXPECT(e, CL_INVALID_PROPERTY);
    clCreateContext(NULL, 0, &d, NULL, NULL, &e);
    EXPECT(e, CL_INVALID_VALUE);
    clCreateContext(NULL, 1, &d, NULL, (void *)1, &e);
    EXPECT(e, CL_INVALID_VALUE);
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    EXPECT(e, CL_SUCCESS);

    /* Queues. */
    /* Out-of-order host queues are supported; device queues are not. */
    cl_command_queue ooo = clCreateCommandQueue(ctx, d, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &e);
    EXPECT(e, CL_SUCCESS);
    EXPECT(clReleaseCommandQueue(ooo), CL_SUCCESS);
    clCreateCommandQueue(ctx, d, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, &e);
    EXPECT(e, CL_INVALID_QUEUE_PROPERTIES);
    clCreateCommandQueue(ctx, d, 1u << 10, &e);
    EXPECT(e, CL_INVALID_VALUE);
    cl_command_queue q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &e);
    EXPECT(e, CL_SUCCESS);

    /* Buffers: flags validated per the memory flags table. */
    int host[64];
    for (int i = 0; i < 64; i++) host[i] = i * 3;
    clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &e);
    EXPECT(e, CL_INVALID_VALUE);
    clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof host, host, &e);
    EXPECT(e, CL_INVALID_VALUE);
    clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &e);
    EXPECT(e, CL_INVALID_BUFFER_SIZE);
    clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 64, NULL, &e);
    EXPECT(e, CL_INVALID_HOST_PTR);
    clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, host, &e);
    EXPECT(e, CL_INVALID_HOST_PTR);
    clCreateBuffer((cl_context)q, CL_MEM_READ_WRITE, 64, NULL, &e);
    EXPECT(e, CL_INVALID_CONTEXT);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof host, host, &e);
    EXPECT(e, CL_SUCCESS);
    int back[64] = {0};
    EXPECT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back + 4, back, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT(clEnqueueReadBuffer(q, (cl_mem)ctx, CL_TRUE, 0, 4, back, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, back, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event ev;
    EXPECT(clEnqueueReadBuffer(q, m, CL_FALSE, 0, sizeof back, back, 0, NULL, &ev), CL_SUCCESS);
    EXPECT(clWaitForEvents(1, &ev), CL_SUCCESS);
    cl_int status = -99;
    EXPECT(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    EXPECT(status, CL_COMPLETE);
    cl_ulong t0 = 0, t1 = 0;
    EXPECT(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof t0, &t0, NULL), CL_SUCCESS);
    EXPECT(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL), CL_SUCCESS);
    checks++;
    if (t1 < t0 || t0 == 0) { printf("FAIL: profiling times %llu..%llu\n", (unsigned long long)t0, (unsigned long long)t1); failures++; }
    EXPECT(clReleaseEvent(ev), CL_SUCCESS);
    checks++;
    if (memcmp(host, back, sizeof host) != 0) { printf("FAIL: read back differs\n"); failures++; }

    /* Programs: a build failure comes with a log. */
    const char *bad = "kernel void k(global int *a) { a[0] = undeclared_thing; }";
    cl_program bp = clCreateProgramWithSource(ctx, 1, &bad, NULL, &e);
    EXPECT(e, CL_SUCCESS);
    EXPECT(clBuildProgram(bp, 1, &d, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cl_build_status bs = 0;
    EXPECT(clGetProgramBuildInfo(bp, d, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL), CL_SUCCESS);
    EXPECT(bs, CL_BUILD_ERROR);
    char log[8192] = {0};
    EXPECT(clGetProgramBuildInfo(bp, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL), CL_SUCCESS);
    checks++;
    if (!strstr(log, "undeclared_thing")) { printf("FAIL: build log does not name the error: %s\n", log); failures++; }
    clCreateKernel(bp, "k", &e);
    EXPECT(e, CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT(clReleaseProgram(bp), CL_SUCCESS);
    clCreateProgramWithSource(ctx, 0, &bad, NULL, &e);
    EXPECT(e, CL_INVALID_VALUE);
    unsigned char junk[20] = {1, 2, 3, 4};
    clCreateProgramWithIL(ctx, junk, sizeof junk, &e);
    EXPECT(e, CL_INVALID_VALUE);

    /* Kernels: argument validation against the descriptor. */
    const char *src =
        "kernel void scale(global int *a, int f, local int *tmp) {\n"
        "  size_t i = get_global_id(0); a[i] = a[i] * f;\n"
        "}\n"
        "kernel void scale2(global int *a, int f) {\n"
        "  size_t i = get_global_id(0); a[i] = a[i] * f;\n"
        "}\n";
    cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    e = clBuildProgram(pr, 0, NULL, "", NULL, NULL);
    EXPECT(e, CL_SUCCESS);
    if (e != CL_SUCCESS) {
        clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("build log: %s\n", log);
        return 1;
    }
    clCreateKernel(pr, "nope", &e);
    EXPECT(e, CL_INVALID_KERNEL_NAME);
    cl_kernel k = clCreateKernel(pr, "scale", &e);
    EXPECT(e, CL_SUCCESS);
    EXPECT(clBuildProgram(pr, 0, NULL, "", NULL, NULL), CL_INVALID_OPERATION); /* kernels attached */
    int f = 2;
    size_t g = 64, l = 16;
    EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    EXPECT(clSetKernelArg(k, 3, sizeof f, &f), CL_INVALID_ARG_INDEX);
    EXPECT(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
    EXPECT(clSetKernelArg(k, 0, sizeof(cl_mem), &ctx), CL_INVALID_MEM_OBJECT);
    EXPECT(clSetKernelArg(k, 1, 8, &f), CL_INVALID_ARG_SIZE);
    EXPECT(clSetKernelArg(k, 1, sizeof f, NULL), CL_INVALID_ARG_VALUE);
    EXPECT(clSetKernelArg(k, 2, 64, &f), CL_INVALID_ARG_VALUE);
    EXPECT(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
    EXPECT(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    EXPECT(clSetKernelArg(k, 1, sizeof f, &f), CL_SUCCESS);
    EXPECT(clSetKernelArg(k, 2, l * sizeof(int), NULL), CL_SUCCESS);
    cl_uint nargs = 0;
    EXPECT(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL), CL_SUCCESS);
    EXPECT((cl_int)nargs, 3);
    EXPECT(clEnqueueNDRangeKernel(q, k, 0, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    /* 3.0: a NULL global size is a launch that trivially succeeds (the error is deprecated by 2.1). */
    EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, &l, 0, NULL, NULL), CL_SUCCESS);
    size_t big = 512, odd = 60;
    /* 512 exceeds CL_KERNEL_WORK_GROUP_SIZE (256) as well as CL_DEVICE_MAX_WORK_ITEM_SIZES[0]:
     * the spec lists CL_INVALID_WORK_GROUP_SIZE first, and on this device no local size
     * reaches CL_INVALID_WORK_ITEM_SIZE alone (docs/api.md, the validation table). */
    EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &big, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    /* OpenCL C 1.2 program: uniform work-groups required. */
    EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &odd, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT(clEnqueueNDRangeKernel((cl_command_queue)k, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    EXPECT(clEnqueueNDRangeKernel(q, (cl_kernel)q, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
    /* The launch itself uses a kernel without __local arguments (the submitter does not take
     * them yet), with a global size that is not a multiple of any local size the runtime might
     * pick badly: the runtime chooses the local size. */
    cl_kernel k2 = clCreateKernel(pr, "scale2", &e);
    EXPECT(e, CL_SUCCESS);
    EXPECT(clSetKernelArg(k2, 0, sizeof m, &m), CL_SUCCESS);
    EXPECT(clSetKernelArg(k2, 1, sizeof f, &f), CL_SUCCESS);
    EXPECT(clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT(clFinish(q), CL_SUCCESS);
    EXPECT(clReleaseKernel(k2), CL_SUCCESS);
    EXPECT(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 64; i++) {
        checks++;
        if (back[i] != host[i] * 2) { printf("FAIL: a[%d] = %d, want %d\n", i, back[i], host[i] * 2); failures++; break; }
    }

    /* Images through the loader: a 4 x 4 RGBA8 image written and read back, byte for byte. */
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {CL_MEM_OBJECT_IMAGE2D, 4, 4};
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &e);
    EXPECT(e, CL_SUCCESS);
    unsigned char px[64], px_back[64];
    for (int i = 0; i < 64; i++) { px[i] = (unsigned char)(i * 3 + 1); px_back[i] = 0; }
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1};
    EXPECT(clEnqueueWriteImage(q, img, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
    EXPECT(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, px_back, 0, NULL, NULL), CL_SUCCESS);
    checks++;
    for (int i = 0; i < 64; i++) {
        if (px_back[i] != px[i]) { printf("FAIL: image byte %d = %d, want %d\n", i, px_back[i], px[i]); failures++; break; }
    }
    EXPECT(clReleaseMemObject(img), CL_SUCCESS);

    /* Unsupported features answer with the spec's code, not a crash. */
    clCreatePipe(ctx, 0, 4, 16, NULL, &e);
    EXPECT(e, CL_INVALID_OPERATION);

    /* Released handles are rejected. */
    EXPECT(clReleaseKernel(k), CL_SUCCESS);
    EXPECT(clRetainKernel(k), CL_INVALID_KERNEL);
    EXPECT(clReleaseMemObject(m), CL_SUCCESS);
    EXPECT(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
    EXPECT(clReleaseProgram(pr), CL_SUCCESS);
    EXPECT(clReleaseCommandQueue(q), CL_SUCCESS);
    EXPECT(clReleaseContext(ctx), CL_SUCCESS);
    EXPECT(clReleaseContext(ctx), CL_INVALID_CONTEXT);

    if (failures) {
        printf("%d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("ok %d checks\n", checks);
    return 0;
}
