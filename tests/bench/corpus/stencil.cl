// Stencils and convolutions. References: driver/tests/bench/cases.rs.
#pragma OPENCL FP_CONTRACT OFF

// 1-D convolution of radius 3 with weights in a __constant buffer; edges clamped.
__kernel void conv1d_r3(__global const float *in, __constant float *w, __global float *out) {
    int i = get_global_id(0);
    int n = get_global_size(0);
    float acc = 0.0f;
    for (int k = -3; k <= 3; k++) {
        int j = clamp(i + k, 0, n - 1);
        acc += w[k + 3] * in[j];
    }
    out[i] = acc;
}

// 1-D box blur of radius 4 through a __local tile with halo (64 items per group).
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void blur1d_local(__global const float *in, __global float *out) {
    __local float t[64 + 8];
    int l = get_local_id(0);
    int g = get_global_id(0);
    int n = get_global_size(0);
    t[l + 4] = in[g];
    if (l < 4) {
        t[l] = in[max(g - 4, 0)];
        t[l + 68] = in[min(g + 64, n - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    for (int k = 0; k < 9; k++)
        acc += t[l + k];
    out[g] = acc * (1.0f / 9.0f);
}

// One Jacobi sweep of the 5-point Laplace stencil; the border is copied.
__kernel void jacobi5(__global const float *in, __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        out[i] = in[i];
    else
        out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

// 3x3 convolution with weights in a __constant buffer; edges clamped.
__kernel void conv2d_3x3(__global const float *in, __constant float *k, __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
            acc += k[(dy + 1) * 3 + dx + 1] * in[sy * w + sx];
        }
    out[y * w + x] = acc;
}

// Integer Sobel gradient magnitude (|gx| + |gy|) of an 8-bit image, 0 on the border.
__kernel void sobel_u8(__global const uchar *img, __global int *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[y * w + x] = 0;
        return;
    }
#define P(dx, dy) ((int)img[(y + (dy)) * w + x + (dx)])
    int gx = -P(-1, -1) - 2 * P(-1, 0) - P(-1, 1) + P(1, -1) + 2 * P(1, 0) + P(1, 1);
    int gy = -P(-1, -1) - 2 * P(0, -1) - P(1, -1) + P(-1, 1) + 2 * P(0, 1) + P(1, 1);
#undef P
    out[y * w + x] = abs(gx) + abs(gy);
}
