// vloadn/vstoren (generic-pointer built-ins under CL2.0, resolved statically to global)
// and 8/16-bit vector built-ins; references in driver/tests/jit_corpus/vectors.rs.

kernel void vload3_sum(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    float3 v = vload3(i, in);
    vstore3(v * 2.0f + (float3)(1.0f, 2.0f, 3.0f), i, out);
}

kernel void uchar_builtins(global const uchar4 *a, global const uchar4 *b, global uchar4 *out) {
    size_t i = get_global_id(0);
    uchar4 x = a[i], y = b[i];
    out[3 * i] = add_sat(x, y);
    out[3 * i + 1] = rotate(x, (uchar4)(1, 3, 5, 7));
    out[3 * i + 2] = abs_diff(x, y) + clz(y);
}

kernel void short_builtins(global const short *a, global const short *b, global short *out) {
    size_t i = get_global_id(0);
    short x = a[i], y = b[i];
    out[4 * i] = sub_sat(x, y);
    out[4 * i + 1] = mul_hi(x, y);
    out[4 * i + 2] = hadd(x, y);
    out[4 * i + 3] = (short)convert_char_sat(x);
}

kernel void div64(global const long *a, global const long *b, global long *q, global ulong *uq) {
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    q[2 * i] = x / y;
    q[2 * i + 1] = x % y;
    ulong ux = (ulong)x, uy = (ulong)y;
    uq[2 * i] = ux / uy;
    uq[2 * i + 1] = ux % uy;
}
