// Private memory as Intel's compiler lowers it: small arrays in registers
// with indirect addressing, larger ones in scratch, structs, private
// pointers and calls. References: driver/tests/igc/cases/private.rs.

// A small array indexed by data: registers with indirect (a0) addressing.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void priv_small_dyn(__global const int *in, __global const int *idx, __global int *out) {
    int i = get_global_id(0);
    int a[8];
    for (int k = 0; k < 8; k++)
        a[k] = in[i * 8 + k];
    int j = idx[i];
    a[j & 7] += 100;
    a[(j >> 3) & 7] *= 3;
    int s = a[(j >> 6) & 7];
    for (int k = 0; k < 8; k++)
        out[i * 9 + k] = a[k];
    out[i * 9 + 8] = s;
}

// int[256] with a data-dependent walk: too big for registers.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void priv_large_int(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int a[256];
    int x = in[i];
    for (int k = 0; k < 256; k++)
        a[k] = k * 37 + x;
    int p = x & 255;
    int s = 0;
    for (int step = 0; step < 64; step++) {
        int v = a[p];
        s += v;
        a[(v * 7) & 255] += step;
        p = (v ^ step) & 255;
    }
    out[2 * i] = s;
    out[2 * i + 1] = a[x & 255] + a[255 - (x & 255)];
}

// float[128] read at indices from a global table.
__kernel void priv_large_float(__global const float *in, __global const uchar *picks,
                               __global float *out) {
    int i = get_global_id(0);
    float a[128];
    float x = in[i];
    for (int k = 0; k < 128; k++)
        a[k] = (float)k * x;
    float s = 0.0f;
    for (int j = 0; j < 32; j++) {
        int k = picks[(i * 32 + j) % 1024] & 127;
        s += a[k];
        a[(k + 1) & 127] = s;
    }
    out[i] = s;
}

// An array of structs with mixed field sizes, indexed by data.
typedef struct {
    int id;
    float w;
    short s;
    char c;
    long l;
} item_t;

__kernel void priv_struct(__global const int *in, __global int *oi, __global float *of,
                          __global long *ol) {
    int i = get_global_id(0);
    item_t t[8];
    for (int k = 0; k < 8; k++) {
        int x = in[i * 8 + k];
        t[k].id = x;
        t[k].w = (float)x * 0.25f;
        t[k].s = (short)(x * 100);
        t[k].c = (char)x;
        t[k].l = (long)x << 33;
    }
    int j = in[i * 8] & 7;
    item_t u = t[j];
    t[j] = t[7 - j];
    t[7 - j] = u;
    int r = t[(j + 3) & 7].id;
    oi[2 * i] = r + t[j].s;
    oi[2 * i + 1] = t[j].c * 1000 + t[7 - j].c;
    of[i] = t[j].w + t[(j + 1) & 7].w;
    ol[i] = t[j].l + t[7 - j].l + t[(j + 5) & 7].l;
}

// long[16]: a running xor-multiply chain with data-dependent reads.
__kernel void priv_long_array(__global const ulong *in, __global ulong *out) {
    int i = get_global_id(0);
    ulong a[16];
    ulong x = in[i];
    a[0] = x;
    for (int k = 1; k < 16; k++)
        a[k] = a[k - 1] * 0x9E3779B97F4A7C15UL + (ulong)k;
    ulong s = 0;
    for (int k = 0; k < 16; k++)
        s ^= a[(x >> (4 * k)) & 15] >> k;
    out[i] = s;
}

// uchar[32]: reverse in place, then count bytes by a data-chosen threshold.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void priv_char_array(__global const uchar *in, __global uchar *out, __global int *count) {
    int i = get_global_id(0);
    uchar a[32];
    for (int k = 0; k < 32; k++)
        a[k] = in[i * 32 + k];
    for (int k = 0; k < 16; k++) {
        uchar t = a[k];
        a[k] = a[31 - k];
        a[31 - k] = t;
    }
    uchar th = a[a[0] & 31];
    int c = 0;
    for (int k = 0; k < 32; k++)
        c += a[k] > th;
    for (int k = 0; k < 32; k++)
        out[i * 32 + k] = a[k];
    count[i] = c;
}

// A lookup table initialised in a loop, then read at data-dependent places.
__kernel void priv_lut_loop(__global const uint *in, __global uint *out, uint seed) {
    int i = get_global_id(0);
    uint lut[64];
    for (uint k = 0; k < 64; k++)
        lut[k] = (k * k) ^ seed;
    uint x = in[i];
    uint s = 0;
    for (int k = 0; k < 5; k++) {
        s += lut[x & 63];
        x >>= 6;
    }
    out[i] = s;
}

// Insertion sort of 16 ints in a private array.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void priv_sort(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[i * 16 + k];
    for (int k = 1; k < 16; k++) {
        int v = a[k];
        int j = k - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
    for (int k = 0; k < 16; k++)
        out[i * 16 + k] = a[k];
}

// A private 4x4 matrix: M * M^T, then a data-chosen element and the trace.
__kernel void priv_2d(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int m[4][4], p[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            m[r][c] = in[i * 16 + r * 4 + c];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int s = 0;
            for (int k = 0; k < 4; k++)
                s += m[r][k] * m[c][k];
            p[r][c] = s;
        }
    int sel = m[0][0] & 15;
    out[2 * i] = p[sel >> 2][sel & 3];
    out[2 * i + 1] = p[0][0] + p[1][1] + p[2][2] + p[3][3];
}

// Pointer arithmetic on a private array: offsets, and a walk to the end.
__kernel void priv_ptr_arith(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[i * 16 + k];
    int *p = a + (a[0] & 7);
    int r = p[1] * 2 + *(p + 3);
    int *q = p;
    int s = 0;
    while (q < a + 16)
        s += *q++;
    out[2 * i] = r;
    out[2 * i + 1] = s + (int)(q - p);
}

// Private pointers passed to functions that are not inlined (one private,
// one generic parameter).
__attribute__((noinline)) int priv_sum_fn(__private int *p, int n) {
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k] * (k + 1);
    return s;
}

__attribute__((noinline)) void gen_scale_fn(int *p, int n, int f) {
    for (int k = 0; k < n; k++)
        p[k] *= f;
}

__kernel void priv_ptr_noinline(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int a[12];
    for (int k = 0; k < 12; k++)
        a[k] = in[i * 12 + k];
    int n = 4 + (i % 8);
    gen_scale_fn(a + 1, n, (i & 3) - 1);
    out[i] = priv_sum_fn(a, 12);
}

// short[24] with data-dependent writes (a small private histogram).
__kernel void priv_short_hist(__global const uchar *in, __global short *out) {
    int i = get_global_id(0);
    short h[24];
    for (int k = 0; k < 24; k++)
        h[k] = 0;
    for (int k = 0; k < 48; k++)
        h[in[i * 48 + k] % 24] += (short)(k - 20);
    for (int k = 0; k < 24; k++)
        out[i * 24 + k] = h[k];
}

// int4[8] indexed by data, components by data too.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void priv_vec_array(__global const int4 *in, __global int *out) {
    int i = get_global_id(0);
    int4 v[8];
    for (int k = 0; k < 8; k++)
        v[k] = in[i * 8 + k];
    int s = 0;
    for (int k = 0; k < 8; k++) {
        int4 w = v[(v[k].x) & 7];
        int c = v[k].y & 3;
        s += c == 0 ? w.x : c == 1 ? w.y : c == 2 ? w.z : w.w;
    }
    out[i] = s;
}

// A stack machine: each item runs a tiny RPN program with a private stack.
// Opcodes: 0..99 push the value, 100 add, 101 sub, 102 mul, 103 dup, 104 swap.
__kernel void priv_rpn(__global const int *prog, __global int *out, int len) {
    int i = get_global_id(0);
    int st[16];
    int sp = 0;
    __global const int *p = prog + i * len;
    for (int k = 0; k < len; k++) {
        int op = p[k];
        if (op < 100) {
            if (sp < 16)
                st[sp++] = op;
        } else if (sp >= 2) {
            int b = st[sp - 1], a = st[sp - 2];
            switch (op) {
            case 100: st[sp - 2] = a + b; sp--; break;
            case 101: st[sp - 2] = a - b; sp--; break;
            case 102: st[sp - 2] = a * b; sp--; break;
            case 103: if (sp < 16) st[sp++] = b; break;
            default: st[sp - 1] = a; st[sp - 2] = b; break;
            }
        }
    }
    int s = 0;
    for (int k = 0; k < sp; k++)
        s = s * 31 + st[k];
    out[2 * i] = s;
    out[2 * i + 1] = sp;
}

// A private sieve of Eratosthenes: primes below a per-item bound.
__kernel void priv_sieve(__global const int *n, __global int *out) {
    int i = get_global_id(0);
    uchar comp[128];
    int lim = n[i];
    for (int k = 0; k < 128; k++)
        comp[k] = 0;
    int c = 0;
    for (int k = 2; k < lim; k++) {
        if (comp[k])
            continue;
        c++;
        for (int m = k * k; m < lim; m += k)
            comp[m] = 1;
    }
    out[i] = c;
}
