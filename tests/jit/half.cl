// half arithmetic (cl_khr_fp16), in a file of its own: a platform without cl_khr_fp16
// (PoCL here) cannot build it. References in driver/tests/jit_corpus/vectors.rs.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// Correctly rounded: scalar and vector.
kernel void half_ops(global const half *a, global const half *b, global half *out) {
    size_t i = get_global_id(0);
    half x = a[i], y = b[i];
    out[5 * i + 0] = x + y;
    out[5 * i + 1] = x - y;
    out[5 * i + 2] = x * y;
    out[5 * i + 3] = x / y;
    out[5 * i + 4] = sqrt(fabs(x));
}

kernel void half4_ops(global const half4 *a, global const half4 *b, global half4 *out) {
    size_t i = get_global_id(0);
    half4 x = a[i], y = b[i];
    out[3 * i + 0] = x + y * y;
    out[3 * i + 1] = x / y;
    out[3 * i + 2] = fmax(x, y) - fmin(x, y);
}


// Half math functions (libclc-15 has none: gencl computes them in float and rounds once).
kernel void half_math(global const half *a, global half *out) {
    size_t i = get_global_id(0);
    half x = a[i];
    out[5 * i + 0] = sin(x);
    out[5 * i + 1] = exp(clamp(x, -8.0h, 8.0h));
    out[5 * i + 2] = log(fabs(x) + 1.0h);
    out[5 * i + 3] = acospi(clamp(x, -1.0h, 1.0h));
    out[5 * i + 4] = nan((ushort)i) != nan((ushort)i) ? 1.0h : 0.0h;
}

// Halves moved, not computed on, keep every bit: signalling NaNs and payloads included.
kernel void half_bits(global const half *a, global half *out, global const short *s,
                      global half *out2) {
    size_t i = get_global_id(0);
    half2 v = vload2(i, a);
    vstore2(v, i, out);
    out2[i] = as_half(s[i]);
}

// A half4 and a short4 a work-item, read and written as two dwords each (isel/coalesce.rs's
// word groups): the halves keep every bit, the shorts each their own lane of the dword.
kernel void half4_copy(global const half4 *a, global half4 *out, global const short4 *s,
                       global short4 *out2) {
    size_t i = get_global_id(0);
    out[i] = a[i];
    out2[i] = s[i] * (short4)(3, -1, 7, 2) + (short4)(1, 0, -5, 9);
}

// Half built-ins writing through pointers (libclc-15 has none: computed in float into a
// temporary, rounded to half and stored).
kernel void half_ptr(global const half *a, global half *out, global int *ints) {
    size_t i = get_global_id(0);
    half x = a[i], ip, c, fl;
    int ex;
    out[5 * i + 0] = modf(x, &ip);
    out[5 * i + 1] = ip;
    out[5 * i + 2] = sincos(x, &c) + c;
    out[5 * i + 3] = frexp(x, &ex);
    out[5 * i + 4] = fract(x, &fl) + fl;
    ints[i] = ex;
}

// ldexp on halves: libclc-15's calls a helper it lacks, so it is computed in float (exact)
// and rounded once to half, which is the correctly rounded half result.
kernel void half_ldexp(global const half *a, global const int *e, global half *out) {
    size_t i = get_global_id(0);
    out[i] = ldexp(a[i], e[i]);
}

// Conversions to half in every rounding mode, from float and from double (a double goes
// through float in the same mode), and vstore_half_r from a double.
kernel void half_round_modes(global const float *f, global const double *d, global half *out) {
    size_t i = get_global_id(0);
    float x = f[i];
    double y = d[i];
    out[10 * i + 0] = convert_half_rte(x);
    out[10 * i + 1] = convert_half_rtz(x);
    out[10 * i + 2] = convert_half_rtp(x);
    out[10 * i + 3] = convert_half_rtn(x);
    out[10 * i + 4] = convert_half_rte(y);
    out[10 * i + 5] = convert_half_rtz(y);
    out[10 * i + 6] = convert_half_rtp(y);
    out[10 * i + 7] = convert_half_rtn(y);
    vstore_half_rtz(y, 10 * i + 8, out);
    vstore_half_rtp(y, 10 * i + 9, out);
}

// Integers to half in every rounding mode (the CTS's test_conversions, convert_halfn_rtp(
// ushortn) and the like): past 2048 not every integer is a half, and past 65504 they round
// to the largest half or to infinity by the mode.
kernel void half_from_int_round_modes(global const uint *u, global const int *s, global half *out) {
    size_t i = get_global_id(0);
    out[8 * i + 0] = convert_half(u[i]);
    out[8 * i + 1] = convert_half_rtz(u[i]);
    out[8 * i + 2] = convert_half_rtp(u[i]);
    out[8 * i + 3] = convert_half_rtn(u[i]);
    out[8 * i + 4] = convert_half(s[i]);
    out[8 * i + 5] = convert_half_rtz(s[i]);
    out[8 * i + 6] = convert_half_rtp(s[i]);
    out[8 * i + 7] = convert_half_rtn(s[i]);
}

// select and bitselect on half vectors: select picks by the sign bit of each short of c;
// select picks, and bitselect mixes, the bits of the halves themselves (not of the floats
// that carry them): every pattern comes out as it went in or was mixed, signalling NaNs too.
kernel void half_select(global const half4 *a, global const half4 *b, global const short4 *c,
                        global half4 *out) {
    size_t i = get_global_id(0);
    out[2 * i] = select(a[i], b[i], c[i]);
    out[2 * i + 1] = bitselect(a[i], b[i], as_half4(c[i]));
}

// nextafter on halves steps the half's own bits (not those of the float that carries it):
// from a zero to the smallest subnormal half with y's sign, NaN in, NaN out.
kernel void half_nextafter(global const half *a, global const half *b, global half *out) {
    size_t i = get_global_id(0);
    out[i] = nextafter(a[i], b[i]);
}

// Half arithmetic in half (passes::native_half): fma rounded once, and a loop-carried chain
// of fmas and adds on packed :hf registers.
kernel void half_fma(global const half *a, global const half *b, global const half *c,
                     global half *out) {
    size_t i = get_global_id(0);
    half x = a[i], y = b[i], z = c[i];
    out[2 * i] = fma(x, y, z);
    half s = x;
    for (int k = 0; k < 4; k++)
        s = fma(s, y, z) - x;
    out[2 * i + 1] = s;
}

// min and max of halves, NaNs among them, feeding half arithmetic (native :hf sel, then
// native add and multiply) and a compare of halves.
kernel void half_minmax(global const half *a, global const half *b, global half *out,
                        global int *lt) {
    size_t i = get_global_id(0);
    half x = a[i], y = b[i];
    half hi = fmax(x, y), lo = fmin(x, y);
    out[2 * i] = hi + (half)0;
    out[2 * i + 1] = lo * (half)1;
    lt[i] = (hi * (half)1) < (lo + (half)0) ? 1 : 0;
}
