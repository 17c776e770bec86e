// Generic pointers and program-scope variables (OpenCL C 2.0); built with -cl-std=CL2.0
// (jit_corpus::options_of). Helpers take generic pointers: where a call's pointer has one
// space, the JIT resolves it statically; where the space depends on the data, the pointer
// is tagged and each access switches at run time. Local sizes are multiples of 4.

int gsum(const int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

void gscale(int *p, int n, int k) {
    for (int i = 0; i < n; i++)
        p[i] *= k;
}

// The helper called with a global, a local and a private pointer (static resolution).
__kernel void gen_static(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    int priv[4];
    for (int i = 0; i < 4; i++)
        priv[i] = in[g] * (i + 1);
    l[lid] = in[g] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[3 * g] = gsum(in + (g & ~3), 4);
    out[3 * g + 1] = gsum(l + (lid & ~3), 4);
    out[3 * g + 2] = gsum(priv, 4);
}

// The pointer's space chosen by the data: a run-time switch at each access.
__kernel void gen_dynamic(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    int priv[4] = { 1, 2, 3, (int)lid };
    l[lid] = in[g] + 7;
    barrier(CLK_LOCAL_MEM_FENCE);
    int w = in[g] & 3;
    const int *p = w == 0 ? (const int *)(in + (g & ~3))
                 : w == 1 ? (const int *)(l + (lid & ~3))
                          : (const int *)priv;
    out[g] = gsum(p, 4);
}

// to_global, to_local, to_private and get_fence on a pointer chosen by the data.
__kernel void gen_casts(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    int priv = (int)g;
    l[lid] = 0;
    int w = in[g] & 3;
    int *p = w == 0 ? (int *)(out + g) : w == 1 ? (int *)(l + lid) : &priv;
    out[g] = (to_global(p) != NULL) + 2 * (to_local(p) != NULL) + 4 * (to_private(p) != NULL) +
             8 * (int)get_fence(p);
}

// Writes through a generic pointer into each space, read back through the named one.
__kernel void gen_write(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    int priv[4] = { 1, 2, 3, 4 };
    for (int i = 0; i < 4; i++)
        out[4 * g + i] = in[g] + i;
    l[lid] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    int w = in[g] & 3;
    int k = (int)(g % 5) + 2;
    if (w == 0)
        gscale(out + 4 * g, 4, k);
    else if (w == 1)
        gscale((int *)(l + lid), 1, k);
    else
        gscale(priv, 4, k);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (w == 1)
        out[4 * g] = l[lid];
    else if (w >= 2)
        for (int i = 0; i < 4; i++)
            out[4 * g + i] = priv[i];
}

// Generic pointers kept in a private array indexed at run time (stored and loaded back).
__kernel void gen_table(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    int priv = 100 + (int)g;
    l[lid] = 200 + (int)lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    int *t[3] = { (int *)(in + g), (int *)(l + (lid ^ 1)), &priv };
    int s = 0;
    for (int i = 0; i < 3; i++)
        s = s * 1000 + *t[(in[g] + i) % 3 & 3];
    out[g] = s;
}

// Atomics through a generic pointer, on a local or a global counter.
__kernel void gen_atomics(__global const int *in, __global int *out, __global int *count) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    __local int lc;
    if (lid == 0)
        lc = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    volatile atomic_int *c = (in[g] & 1) ? (volatile atomic_int *)&lc
                                         : (volatile atomic_int *)count;
    atomic_fetch_add_explicit(c, in[g], memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        out[get_group_id(0)] = lc;
}

// The same with a half: modf's half form goes through a float temporary (half built-ins
// compute in float), which must be written back before the copy out through the pointer.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void gen_modf_half(__global const float *in, __global float *out, __local half *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    half priv = -1.0h;
    l[lid] = -1.0h;
    half *p = ((int)g & 1) ? (half *)(l + lid) : &priv;
    half frac = modf((half)in[g], p);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[2 * g] = frac;
    out[2 * g + 1] = ((int)g & 1) ? l[lid] : priv;
}

// 64-bit atomics through generic pointers chosen per work-item: Gen9's SLM has no 64-bit
// atomics, so local memory takes the lock path and global memory the data port's atomic,
// picked at run time from the pointer's tag.
__kernel void gen_atomics64(__global const long *in, __global long *out, __global long *count) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    __local long lc[2];
    if (lid < 2)
        lc[lid] = lid ? LONG_MIN : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long v = in[g];
    bool local_one = (v & 1) != 0;
    volatile atomic_long *c = local_one ? (volatile atomic_long *)&lc[0]
                                        : (volatile atomic_long *)&count[0];
    volatile atomic_long *m = local_one ? (volatile atomic_long *)&lc[1]
                                        : (volatile atomic_long *)&count[1];
    atomic_fetch_add_explicit(c, v, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max_explicit(m, v, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 2)
        out[2 * get_group_id(0) + lid] = lc[lid];
}

// A library built-in with a pointer result (modf) writing through a generic pointer chosen
// at run time: a private temporary, copied out through the pointer.
__kernel void gen_modf(__global const float *in, __global float *out, __local float *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    float priv = -1.0f;
    l[lid] = -1.0f;
    float *p = ((int)g & 1) ? (float *)(l + lid) : &priv;
    float frac = modf(in[g], p);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[2 * g] = frac;
    out[2 * g + 1] = ((int)g & 1) ? l[lid] : priv;
}

// Narrow and wide elements through generic pointers: char, short, long and double.
__kernel void gen_widths(__global const long *in, __global long *out, __local long *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    long priv = in[g] ^ 0x5555;
    l[lid] = in[g] + 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    long *p = ((int)in[g] & 1) ? (long *)(l + lid) : &priv;
    char *c = (char *)p;
    short *s = (short *)p;
    double *d = (double *)p;
    out[4 * g] = *p;
    out[4 * g + 1] = c[1];
    out[4 * g + 2] = s[3];
    out[4 * g + 3] = (long)(*d != *d);
    c[0] = 0x11;
    s[2] = 0x2222;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[4 * g] ^= ((int)in[g] & 1) ? l[lid] : priv;
}

// vload4 and vstore4 through generic pointers.
__kernel void gen_vectors(__global const float *in, __global float *out, __local float *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    float priv[4];
    vstore4(vload4(g, in) * 2.0f, 0, ((int)g & 1) ? (float *)(l + 4 * lid) : priv);
    barrier(CLK_LOCAL_MEM_FENCE);
    const float *p = ((int)g & 1) ? (const float *)(l + 4 * lid) : (const float *)priv;
    vstore4(vload4(0, p) + 1.0f, g, out);
}

// A struct through a generic pointer.
typedef struct { int a; short b; char c; long d; } S;

__kernel void gen_struct(__global const int *in, __global long *out, __local S *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    S priv = { in[g], (short)(in[g] * 3), (char)g, (long)in[g] << 20 };
    l[lid] = priv;
    l[lid].a += 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    S *p = (in[g] & 2) ? (S *)(l + lid) : &priv;
    p->b += 5;
    out[g] = p->a + p->b + p->c + p->d;
}

// The pointer alternates between a local and a global array from one iteration to the next.
__kernel void gen_loop(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    l[lid] = (int)lid * 10;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int *p = in + (g & ~3);
    int s = 0;
    for (int i = 0; i < 6; i++) {
        s = s * 3 + p[i & 3];
        p = (i & 1) ? (const int *)(in + (g & ~3)) : (const int *)(l + (lid & ~3));
    }
    out[g] = s;
}

// Pointer comparisons and NULL across spaces.
__kernel void gen_compare(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    int priv[2];
    int *a = (in[g] & 1) ? (int *)(l + lid) : (int *)priv;
    int *b = (in[g] & 2) ? (int *)(l + lid) : (int *)(priv + 1);
    int *n = (in[g] & 4) ? a : NULL;
    // Pointers into different objects are only compared for equality.
    int same = (in[g] & 3) == 0 ? (b - a == 1) : 0;
    out[g] = (a == b) + 4 * (n == NULL) + 8 * (a != NULL) + 16 * same;
}

// Program-scope variables: a table read through a generic pointer, and a pointer
// initialised with another variable's address.
__global int gtable[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
__global int *gentry = &gtable[5];

__kernel void gen_globals(__global const int *in, __global int *out) {
    size_t g = get_global_id(0);
    const int *p = gtable;
    out[2 * g] = p[in[g] & 7] + *gentry;
    out[2 * g + 1] = gtable[(in[g] >> 3) & 7];
}

// A reduction helper taking a generic pointer, called with a local array.
void tree_sum(int *buf, int lid, int n) {
    for (int s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            buf[lid] += buf[lid + s];
        work_group_barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel void gen_reduce(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0);
    int lid = (int)get_local_id(0), n = (int)get_local_size(0);
    l[lid] = in[g];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    tree_sum(l, lid, n);
    if (lid == 0)
        out[get_group_id(0)] = l[0];
}

// A generic pointer turned into an integer and back (its tag kept).
__kernel void gen_intptr(__global const int *in, __global int *out, __local int *l) {
    size_t g = get_global_id(0), lid = get_local_id(0);
    int priv = in[g] * 2;
    l[lid] = in[g] * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    int *p = (in[g] & 1) ? (int *)(l + lid) : &priv;
    uintptr_t bits = (uintptr_t)p;
    int *q = (int *)bits;
    out[g] = *q + (to_local(q) != NULL) * 100000;
}
