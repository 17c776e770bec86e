// Peak-throughput kernels in the manner of clpeak's (global bandwidth; fp32, fp16, fp64 and
// int32 multiply-add chains): the model's cycles for IGC's code on them are held against
// clpeak's published results for a Gen9 GT2 (docs/gpu-model.md). Written for this corpus;
// not clpeak's code. References: driver/tests/bench/cases.rs.
//
// The chains multiply by `a` = 1 and add `b` = 0.5 (3 for int): run-time values, so nothing
// folds, and every intermediate is exact whether a compiler fuses the multiply-add or not.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define PEAK_N 64

// Each work-item reads 16 float4s, one from each of 16 blocks of the global size.
__kernel void peak_bandwidth_f4(__global const float4 *in, __global float *out) {
    size_t i = get_global_id(0), n = get_global_size(0);
    float4 s = (float4)(0.0f);
    for (int k = 0; k < 16; k++)
        s += in[i + k * n];
    out[i] = s.x + s.y + s.z + s.w;
}

// 4 independent chains of PEAK_N multiply-adds: 8 * PEAK_N flops a work-item.
__kernel void peak_sp(__global float *out, float a, float b) {
    float x0 = get_local_id(0), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
    for (int k = 0; k < PEAK_N; k++) {
        x0 = mad(x0, a, b);
        x1 = mad(x1, a, b);
        x2 = mad(x2, a, b);
        x3 = mad(x3, a, b);
    }
    out[get_global_id(0)] = (x0 + x1) + (x2 + x3);
}

__kernel void peak_hp(__global half *out, half a, half b) {
    half x0 = (half)(get_local_id(0) & 15), x1 = x0 + (half)1, x2 = x0 + (half)2,
         x3 = x0 + (half)3;
    for (int k = 0; k < PEAK_N; k++) {
        x0 = mad(x0, a, b);
        x1 = mad(x1, a, b);
        x2 = mad(x2, a, b);
        x3 = mad(x3, a, b);
    }
    out[get_global_id(0)] = (x0 + x1) + (x2 + x3);
}

__kernel void peak_dp(__global double *out, double a, double b) {
    double x0 = get_local_id(0), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
    for (int k = 0; k < PEAK_N; k++) {
        x0 = mad(x0, a, b);
        x1 = mad(x1, a, b);
        x2 = mad(x2, a, b);
        x3 = mad(x3, a, b);
    }
    out[get_global_id(0)] = (x0 + x1) + (x2 + x3);
}

// clpeak counts a multiply and an add as two integer operations, as here.
__kernel void peak_int(__global int *out, int a, int b) {
    int x0 = get_local_id(0), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
    for (int k = 0; k < PEAK_N; k++) {
        x0 = x0 * a + b;
        x1 = x1 * a + b;
        x2 = x2 * a + b;
        x3 = x3 * a + b;
    }
    out[get_global_id(0)] = (x0 + x1) + (x2 + x3);
}
