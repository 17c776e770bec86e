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

// shuffle and shuffle2 with a mask from memory (a tree of selects per component) and a
// constant one; a component picked at run time (OpVectorExtractDynamic) and written at run
// time (OpVectorInsertDynamic).
kernel void shuffles(global const int8 *x, global const uint8 *mask, global const int *j,
                     global int8 *out, global int *picked) {
    size_t i = get_global_id(0);
    int8 v = x[i];
    out[3 * i] = shuffle(v, mask[i]);
    out[3 * i + 1] = shuffle2(v, v + 100, (uint8)(15, 0, 9, 2, 11, 4, 13, 6));
    int8 w = v;
    int k = j[i];
    w[k & 7] = -1;
    out[3 * i + 2] = w;
    picked[i] = v[k & 7];
}

// 64-bit mad_sat (128-bit sums) and the saturating 16-bit form whose sum sets the container's
// sign bit.
kernel void mad_sat_wide(global const long *a, global const long *b, global const long *c,
                         global long *s, global ulong *u, global ushort *h) {
    size_t i = get_global_id(0);
    s[i] = mad_sat(a[i], b[i], c[i]);
    u[i] = mad_sat((ulong)a[i], (ulong)b[i], (ulong)c[i]);
    h[i] = mad_sat((ushort)a[i], (ushort)b[i], (ushort)c[i]);
}

// nextafter (not in libclc-15) and the compares with no Gen condition: ordered-not-equal
// (islessgreater) and unordered-or-equal (its negation), on inputs with NaNs, zeros and
// denormals.
kernel void float_steps(global const float *a, global const float *b, global uint *next,
                        global int *cmp) {
    size_t i = get_global_id(0);
    next[i] = as_uint(nextafter(a[i], b[i]));
    cmp[2 * i] = islessgreater(a[i], b[i]);
    cmp[2 * i + 1] = !islessgreater(a[i], b[i]);
}

// More live values than the GRF file holds (four long16 of 32 GRFs each in SIMD8, all needed
// until the end): register allocation spills to scratch.
kernel void pressure(global const long16 *a, global long *out) {
    size_t i = get_global_id(0);
    long16 p = a[4 * i], q = a[4 * i + 1], r = a[4 * i + 2], s = a[4 * i + 3];
    long16 t = p * q + r;
    long16 u = (s ^ p) - q;
    long16 w = t * u + (p >> 3) + (s << 1) + r * q;
    out[2 * i] = w.s0 + w.s1 * 3 + w.s2 * 5 + w.s3 * 7 + w.s4 * 11 + w.s5 * 13 + w.s6 * 17 +
                 w.s7 * 19 + w.s8 * 23 + w.s9 * 29 + w.sa * 31 + w.sb * 37 + w.sc * 41 +
                 w.sd * 43 + w.se * 47 + w.sf * 53;
    out[2 * i + 1] = (p.sf ^ q.se) + (r.sd ^ s.sc) + (t.s0 ^ u.s1);
}

// as_type: the same 16 bytes read as other types of the same size.
kernel void as_types(global const float4 *a, global uint4 *u, global char16 *c,
                     global long2 *l, global double *d, global short2 *s) {
    size_t i = get_global_id(0);
    float4 x = a[i];
    u[i] = as_uint4(x);
    c[i] = as_char16(x);
    l[i] = as_long2(x);
    d[i] = as_double(x.xy);
    s[i] = as_short2(x.z);
}

// shuffle2 over 32 char sources and shuffle from 8 floats to 4, masks from memory.
kernel void shuffle_widths(global const char16 *a, global const char16 *b,
                           global const uchar16 *m, global char16 *out,
                           global const float8 *f, global const uint4 *fm, global float4 *fout) {
    size_t i = get_global_id(0);
    out[i] = shuffle2(a[i], b[i], m[i]);
    fout[i] = shuffle(f[i], fm[i]);
}

// Byte and qword groups (isel/coalesce.rs): a char16, a uchar4, a long16 and a ulong2 of a
// work-item each read and written as four-channel messages; chars sign-extended after the
// dword is cut (the arithmetic shift), a char3 (aligned to 1) left as bytes.
kernel void byte_qword_groups(global const char16 *a, global const uchar4 *b,
                              global const long16 *c, global const ulong2 *d,
                              global const char *e, global char16 *oa, global uchar4 *ob,
                              global long16 *oc, global ulong2 *od, global char *oe) {
    size_t i = get_global_id(0);
    oa[i] = (a[i] >> (char)1) * (char)3 + (char)i;
    uchar4 x = b[i];
    ob[i] = x ^ (uchar4)(x.w, x.z, x.y, (uchar)i);
    oc[i] = c[i] * (long)(i + 1) + c[i].s0;
    ulong2 y = d[i];
    od[i] = y + (ulong2)(y.y, (ulong)i << 40);
    vstore3(vload3(i, e) - (char3)(1, 2, 3), i, oe);
}
