// Mandelbrot sets. References: driver/tests/bench/cases.rs.
#pragma OPENCL FP_CONTRACT OFF

// Escape-time iteration counts in single precision, c = (x0 + x dx, y0 + y dy).
__kernel void mandelbrot_f32(__global int *out, int max_iter, float x0, float y0, float dx,
                             float dy) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0);
    float cr = x0 + (float)x * dx;
    float ci = y0 + (float)y * dy;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}

// The same in 4.24 fixed point with 64-bit products (exact integer arithmetic).
__kernel void mandelbrot_fixed(__global int *out, int max_iter) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    const long one = 1L << 24;
    long cr = -2 * one + (3 * one * x) / w;
    long ci = -(3 * one) / 2 + (3 * one * y) / h;
    long zr = 0, zi = 0;
    int it = 0;
    while (it < max_iter) {
        long zr2 = (zr * zr) >> 24, zi2 = (zi * zi) >> 24;
        if (zr2 + zi2 > 4 * one)
            break;
        long t = zr2 - zi2 + cr;
        zi = ((zr * zi) >> 23) + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}
