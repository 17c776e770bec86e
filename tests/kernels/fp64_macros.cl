// Double division and square root: Gen's IEEE macros (math.invm / math.rsqtm, madm with
// accumulator operands), held to iga64 by jit_iga and run by tests/jit/math.cl.
kernel void ddiv(global const double *a, global const double *b, global double *o) {
    size_t i = get_global_id(0);
    o[i] = a[i] / b[i];
}
kernel void dsqrt(global const double *a, global double *o) {
    size_t i = get_global_id(0);
    o[i] = sqrt(a[i]);
}
