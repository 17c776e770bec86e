// A typical kernel for the compile benchmark (scripts/bench_compile.py): a bounds check,
// two loads, a store, and two built-ins from the library (sin, exp).
kernel void saxpy_sin(global float *y, global const float *x, float a, int n) {
    int i = get_global_id(0);
    if (i < n) {
        float v = x[i];
        y[i] = a * sin(v) + y[i] * exp(-v * v);
    }
}
