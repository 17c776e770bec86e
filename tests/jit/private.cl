// Private arrays and structs that must live in memory (indexed at run time, their address
// taken, passed to helpers): elements of every width (char, short, int, long, float, double,
// float4), lookup tables filled in the kernel, an insertion sort, a sieve, stacks (an RPN
// machine, an iterative quicksort), a 2-D array, a struct with array members, pointer walks,
// helpers writing into the caller's array, a large array, structs by value, and writes under
// divergent control flow. Each item's data is its own, so every result is deterministic;
// float results are exact. References in driver/tests/jit_corpus/private.rs.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// An int[16] filled from the input, then read and written at indices taken from the data.
// out: the 16 elements after the updates, then one read at a data index; 17 an item.
static void dyn_int_body(global const int *in, global const uint *sel, global int *out) {
    int i = get_global_id(0);
    int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[16 * i + k];
    uint s = sel[i];
    a[s & 15] += 1000;
    a[(s >> 4) & 15] *= 3;
    a[(s >> 8) & 15] = a[(s >> 12) & 15] - a[(s >> 16) & 15];
    for (int k = 0; k < 4; k++)
        a[(s >> (4 * k + 2)) & 15] ^= k + 1;
    for (int k = 0; k < 16; k++)
        out[17 * i + k] = a[k];
    out[17 * i + 16] = a[(s >> 20) & 15];
}

kernel void dyn_int(global const int *in, global const uint *sel, global int *out) {
    dyn_int_body(in, sel, out);
}

// The same at SIMD32: the register array's gathers sixteen lanes a move.
__attribute__((intel_reqd_sub_group_size(32)))
kernel void dyn_int32(global const int *in, global const uint *sel, global int *out) {
    dyn_int_body(in, sel, out);
}

// char[32] and short[16] side by side: single-byte and single-short stores at data indices
// (wrapping), read back sign-extended. out: the 32 chars and 16 shorts as ints, then a sum of
// each read in a data-rotated order; 50 an item.
kernel void dyn_narrow(global const uchar *in, global const uint *sel, global int *out) {
    int i = get_global_id(0);
    char c[32];
    short h[16];
    for (int k = 0; k < 32; k++)
        c[k] = as_char(in[32 * i + k]);
    for (int k = 0; k < 16; k++)
        h[k] = (short)(c[2 * k] * 256 + in[32 * i + 2 * k + 1]);
    uint s = sel[i];
    for (int k = 0; k < 6; k++) {
        int j = (s >> (5 * k)) & 31;
        c[j] = as_char((uchar)(c[j] + 100));
        h[j & 15] = as_short((ushort)(h[j & 15] - 3000));
    }
    int cs = 0, hs = 0;
    for (int k = 0; k < 32; k++) {
        out[50 * i + k] = c[k];
        cs += c[(k + s) & 31];
    }
    for (int k = 0; k < 16; k++) {
        out[50 * i + 32 + k] = h[k];
        hs += h[(k * 3 + s) & 15];
    }
    out[50 * i + 48] = cs;
    out[50 * i + 49] = hs;
}

// long[8] and ulong[8] at data indices: arithmetic shifts and adds, shifts across the halves,
// wrapping adds. out: the 8 longs, then the 8 ulongs; 16 an item.
kernel void dyn_long(global const long *in, global const uint *sel, global long *out) {
    int i = get_global_id(0);
    long q[8];
    ulong u[8];
    for (int k = 0; k < 8; k++) {
        q[k] = in[8 * i + k];
        u[k] = as_ulong(in[8 * i + k]) ^ 0xF0F0F0F0F0F0F0F0UL;
    }
    uint s = sel[i];
    for (int k = 0; k < 5; k++) {
        int a = (s >> (3 * k)) & 7, b = (s >> (3 * k + 15)) & 7;
        q[a] = (q[a] >> 3) + (q[b] >> 5);
        u[b] = (u[b] << 7) | (u[a] >> 57);
        u[a] += u[b];
    }
    for (int k = 0; k < 8; k++) {
        out[16 * i + k] = q[k];
        out[16 * i + 8 + k] = as_long(u[k]);
    }
}

// float[12] and double[6] at data indices: swaps with a halving (float) or a scaling by 4
// (double) and a sign flip or a subtraction, all correctly rounded the same way on any device.
// out: the 12 floats, then one read at a data index; dout: the 6 doubles.
kernel void dyn_fp(global const float *in, global const double *din, global const uint *sel,
                   global float *out, global double *dout) {
    int i = get_global_id(0);
    float f[12];
    double d[6];
    for (int k = 0; k < 12; k++)
        f[k] = in[12 * i + k];
    for (int k = 0; k < 6; k++)
        d[k] = din[6 * i + k];
    uint s = sel[i];
    for (int k = 0; k < 4; k++) {
        int a = (s >> (8 * k)) % 12, b = (s >> (8 * k + 4)) % 12;
        float t = f[a];
        f[a] = f[b] * 0.5f;
        f[b] = -t;
        int c = a % 6, e = b % 6;
        double u = d[c];
        d[c] = d[e] * 4.0;
        d[e] = u - d[e];
    }
    for (int k = 0; k < 12; k++)
        out[13 * i + k] = f[k];
    out[13 * i + 12] = f[(s >> 3) % 12];
    for (int k = 0; k < 6; k++)
        dout[6 * i + k] = d[k];
}

// float4[8] (integer-valued, so every sum is exact): a component written in a vector at a
// data index, a whole swizzled vector copied between data indices, a two-component update,
// and single floats read and written through a float pointer into the array. out: the 8
// vectors, then (a float read before the pointer's store, one after, a z component, 0).
kernel void dyn_float4(global const float4 *in, global const uint *sel, global float4 *out) {
    int i = get_global_id(0);
    float4 v[8];
    for (int k = 0; k < 8; k++)
        v[k] = in[8 * i + k];
    uint s = sel[i];
    v[s & 7].y = (float)(s & 0xFFFF);
    v[(s >> 3) & 7] = v[(s >> 6) & 7].wzyx * 2.0f;
    v[(s >> 9) & 7].xw += v[(s >> 12) & 7].zy;
    float *p = (float *)v;
    float r0 = p[(s >> 15) & 31];
    p[(s >> 20) & 31] = -1.0f;
    float r1 = p[(s >> 25) & 31];
    for (int k = 0; k < 8; k++)
        out[9 * i + k] = v[k];
    out[9 * i + 8] = (float4)(r0, r1, v[(s >> 27) & 7].z, 0.0f);
}

// Lookup tables filled in the kernel, then indexed by data: the nibble table of a reflected
// CRC-32 with the polynomial `poly` (16 uints) and a 16-entry popcount table (uchar). out: the
// CRC of the item's 32 bytes, and their number of set bits; 2 an item.
kernel void lut_crc(global const uchar *in, global uint *out, uint poly) {
    int i = get_global_id(0);
    uint t[16];
    uchar pc[16];
    for (uint n = 0; n < 16; n++) {
        uint c = n;
        for (int k = 0; k < 4; k++)
            c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
        t[n] = c;
        pc[n] = (uchar)((n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + (n >> 3));
    }
    uint crc = 0xFFFFFFFFu, bits = 0;
    for (int k = 0; k < 32; k++) {
        uchar b = in[32 * i + k];
        crc ^= b;
        crc = (crc >> 4) ^ t[crc & 15];
        crc = (crc >> 4) ^ t[crc & 15];
        bits += pc[b & 15] + pc[b >> 4];
    }
    out[2 * i] = ~crc;
    out[2 * i + 1] = bits;
}

// Insertion sort of the item's 16 ints in a private array. out: the sorted values, then the
// number of shifts (the input's inversions); 17 an item.
kernel void insertion_sort(global const int *in, global int *out) {
    int i = get_global_id(0);
    int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[16 * i + k];
    int shifts = 0;
    for (int k = 1; k < 16; k++) {
        int x = a[k];
        int j = k - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
            shifts++;
        }
        a[j + 1] = x;
    }
    for (int k = 0; k < 16; k++)
        out[17 * i + k] = a[k];
    out[17 * i + 16] = shifts;
}

// A sieve of Eratosthenes up to the item's n (2 <= n < 256) in a private uchar[256]. out: the
// number of primes up to n, the largest, and their sum; 3 an item.
kernel void sieve(global const int *in, global int *out) {
    int i = get_global_id(0);
    int n = in[i];
    uchar comp[256];
    for (int k = 0; k < 256; k++)
        comp[k] = 0;
    for (int p = 2; p * p <= n; p++)
        if (!comp[p])
            for (int m = p * p; m <= n; m += p)
                comp[m] = 1;
    int count = 0, last = 0, sum = 0;
    for (int k = 2; k <= n; k++) {
        if (!comp[k]) {
            count++;
            last = k;
            sum += k;
        }
    }
    out[3 * i] = count;
    out[3 * i + 1] = last;
    out[3 * i + 2] = sum;
}

// An RPN machine on a private uint stack of 16: tokens >= 0 push themselves; -1 add, -2 sub,
// -3 mul, -4 dup, -5 swap, -6 max (an operator short of operands, a push or a dup on a full
// stack, is skipped). Each item runs its own program of `len` tokens. out: the depth, the top
// (0 when empty) and a hash of the stack; 3 an item.
kernel void rpn(global const int *prog, global uint *out, int len) {
    int i = get_global_id(0);
    uint st[16];
    int sp = 0;
    for (int k = 0; k < len; k++) {
        int t = prog[len * i + k];
        if (t >= 0) {
            if (sp < 16)
                st[sp++] = (uint)t;
        } else if (t == -4) {
            if (sp >= 1 && sp < 16) {
                st[sp] = st[sp - 1];
                sp++;
            }
        } else if (sp >= 2) {
            uint b = st[sp - 1], a = st[sp - 2];
            switch (t) {
            case -1:
                st[sp - 2] = a + b;
                sp--;
                break;
            case -2:
                st[sp - 2] = a - b;
                sp--;
                break;
            case -3:
                st[sp - 2] = a * b;
                sp--;
                break;
            case -5:
                st[sp - 2] = b;
                st[sp - 1] = a;
                break;
            default:
                st[sp - 2] = max(a, b);
                sp--;
                break;
            }
        }
    }
    uint h = 0;
    for (int k = 0; k < sp; k++)
        h = h * 31u + st[k];
    out[3 * i] = sp;
    out[3 * i + 1] = sp > 0 ? st[sp - 1] : 0u;
    out[3 * i + 2] = h;
}

// Iterative quicksort of the item's 32 ints (Lomuto partition, last element as pivot) with an
// explicit stack of ranges in a private int[32]: only ranges of two or more are pushed, and
// those on the stack are disjoint, so 16 fit. out: the sorted values, then the stack's peak
// depth in ints; 33 an item.
kernel void quicksort_stack(global const int *in, global int *out) {
    int i = get_global_id(0);
    int a[32];
    int stk[32];
    for (int k = 0; k < 32; k++)
        a[k] = in[32 * i + k];
    int sp = 0, peak = 2;
    stk[sp++] = 0;
    stk[sp++] = 31;
    while (sp > 0) {
        int hi = stk[--sp];
        int lo = stk[--sp];
        int pivot = a[hi], m = lo;
        for (int k = lo; k < hi; k++) {
            if (a[k] < pivot) {
                int t = a[k];
                a[k] = a[m];
                a[m] = t;
                m++;
            }
        }
        a[hi] = a[m];
        a[m] = pivot;
        if (lo < m - 1) {
            stk[sp++] = lo;
            stk[sp++] = m - 1;
        }
        if (m + 1 < hi) {
            stk[sp++] = m + 1;
            stk[sp++] = hi;
        }
        peak = max(peak, sp);
    }
    for (int k = 0; k < 32; k++)
        out[33 * i + k] = a[k];
    out[33 * i + 32] = peak;
}

// A private int[8][8]: filled, one element overwritten at a data row and column, one updated
// from another, then read with data-dependent row and column offsets. out: the shifted 8x8,
// the 8 row sums and the 8 column sums; 80 an item.
kernel void array_2d(global const int *in, global const uint *sel, global int *out) {
    int i = get_global_id(0);
    int m[8][8];
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            m[r][c] = in[64 * i + 8 * r + c];
    uint s = sel[i];
    int dr = s & 7, dc = (s >> 3) & 7;
    m[(s >> 6) & 7][(s >> 9) & 7] = -12345;
    m[dr][dc] += m[(s >> 12) & 7][(s >> 15) & 7];
    for (int r = 0; r < 8; r++) {
        int rs = 0, cs = 0;
        for (int c = 0; c < 8; c++) {
            out[80 * i + 8 * r + c] = m[(r + dr) & 7][(c * 3 + dc) & 7];
            rs += m[r][c];
            cs += m[c][r];
        }
        out[80 * i + 64 + r] = rs;
        out[80 * i + 72 + r] = cs;
    }
}

typedef struct {
    int n;
    short tag[6];
    float w[8];
    long big[3];
} rec_t;

// A private struct with array members of three widths indexed at run time, updated also
// through a pointer to it. out: n, the 6 tags, a tag read at a data index (8 an item); fout:
// the 8 weights and one read at a data index (9 an item); lout: the 3 longs.
kernel void struct_member(global const int *in, global const uint *sel, global int *out,
                          global float *fout, global long *lout) {
    int i = get_global_id(0);
    rec_t r;
    r.n = in[i];
    for (int k = 0; k < 6; k++)
        r.tag[k] = (short)(r.n * (k + 1));
    for (int k = 0; k < 8; k++)
        r.w[k] = (float)(r.n - k);
    for (int k = 0; k < 3; k++)
        r.big[k] = (long)r.n * (1L << (20 * k));
    uint s = sel[i];
    r.tag[s % 6] = -1;
    r.w[(s >> 4) & 7] *= -2.0f;
    r.big[(s >> 8) % 3] += r.tag[(s >> 12) % 6];
    rec_t *p = &r;
    p->n += p->tag[(s >> 16) % 6];
    p->w[(s >> 18) & 7] = (float)p->n;
    out[8 * i] = r.n;
    for (int k = 0; k < 6; k++)
        out[8 * i + 1 + k] = r.tag[k];
    out[8 * i + 7] = r.tag[(s >> 20) % 6];
    for (int k = 0; k < 8; k++)
        fout[9 * i + k] = r.w[k];
    fout[9 * i + 8] = r.w[(s >> 24) & 7];
    for (int k = 0; k < 3; k++)
        lout[3 * i + k] = r.big[k];
}

// Pointer arithmetic over a private int[24]: a forward walk from a data offset with a data
// stride that rewrites as it goes, a backward walk summing every third element, a byte of the
// array read and one written through a uchar pointer at data offsets. out: the 24 ints, the
// index the forward walk stopped at, the backward sum, the byte read; 27 an item.
kernel void ptr_walk(global const int *in, global const uint *sel, global int *out) {
    int i = get_global_id(0);
    int a[24];
    for (int k = 0; k < 24; k++)
        a[k] = in[24 * i + k];
    uint s = sel[i];
    int *end = a + 24;
    int step = 1 + ((s >> 3) & 3);
    int *p = a + (s % 8);
    for (;;) {
        *p = *p * 2 + 1;
        if (end - p <= step)
            break;
        p += step;
    }
    int *q = end - 1 - ((s >> 5) & 7);
    int sum = *q;
    while (q - a >= 3) {
        q -= 3;
        sum += *q;
    }
    uchar *b = (uchar *)a;
    int byte = b[(s >> 8) % 96];
    b[(s >> 16) % 96] = 0x80;
    for (int k = 0; k < 24; k++)
        out[27 * i + k] = a[k];
    out[27 * i + 24] = (int)(p - a);
    out[27 * i + 25] = sum;
    out[27 * i + 26] = byte;
}

// Helpers marked noinline (gencl inlines them anyway): one fills a span of the caller's
// private array, at its start and from a data offset to its end; one sums a strided span of
// it through a const pointer.
__attribute__((noinline)) void fill_span(int *a, int n, int seed) {
    for (int k = 0; k < n; k++)
        a[k] = seed * (k + 1) - k * k;
}

__attribute__((noinline)) int sum_stride(const int *a, int n, int step) {
    int s = 0;
    for (int k = 0; k < n; k += step)
        s += a[k];
    return s;
}

// out: the 20 elements after both fills, then two strided sums; 22 an item.
kernel void noinline_helper(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int a[20];
    for (int k = 0; k < 20; k++)
        a[k] = -k;
    int n = 1 + (x & 7);
    fill_span(a, n, x >> 4);
    int off = 8 + ((x >> 3) & 7);
    fill_span(a + off, 20 - off, x >> 8);
    for (int k = 0; k < 20; k++)
        out[22 * i + k] = a[k];
    out[22 * i + 20] = sum_stride(a, 20, 1 + ((x >> 6) & 3));
    out[22 * i + 21] = sum_stride(a + n, 20 - n, 2);
}

// A large private array, int[256] (1 KiB an item): filled from the item's value, walked in a
// data-driven order that rewrites it, then prefix-summed in place. out: 8 elements at a data
// offset, then the walk's sum; 9 an item.
kernel void large_array(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int big[256];
    for (int k = 0; k < 256; k++)
        big[k] = (k * 37) ^ x;
    int j = x & 255, acc = 0;
    for (int k = 0; k < 256; k++) {
        acc += big[j];
        big[j] = acc & 0xFFFF;
        j = (j * 5 + 1 + (big[(j + 17) & 255] & 7)) & 255;
    }
    for (int k = 1; k < 256; k++)
        big[k] += big[k - 1];
    for (int m = 0; m < 8; m++)
        out[9 * i + m] = big[32 * m + (x & 31)];
    out[9 * i + 8] = acc;
}

typedef struct {
    int v[4];
    float f;
    long id;
} box_t;

// By value: the callee changes its copy (an array member at a data index among its fields)...
__attribute__((noinline)) int consume(box_t b, int k) {
    b.v[k & 3] += 100;
    b.f *= 2.0f;
    b.id = -b.id;
    return b.v[0] - b.v[1] + b.v[2] - b.v[3] + (int)b.f + (int)(b.id >> 8);
}

// ... or returns a changed copy.
__attribute__((noinline)) box_t shifted(box_t b, int k) {
    b.v[(k + 1) & 3] = b.v[k & 3] * 2;
    b.id += k;
    return b;
}

// The caller's struct must be unchanged by every call: consume twice (the second sees the
// original), shifted once. out: the two results, the caller's 4 ints and float (as int), the
// copy's 4 ints and float (12 an item); lout: the caller's id and the copy's (2 an item).
kernel void struct_by_value(global const int *in, global int *out, global long *lout) {
    int i = get_global_id(0);
    int x = in[i];
    box_t b;
    for (int k = 0; k < 4; k++)
        b.v[k] = x + k * 1000;
    b.f = (float)(x & 1023);
    b.id = (long)x * 100000;
    int r1 = consume(b, x >> 3);
    box_t c = shifted(b, x >> 5);
    int r2 = consume(b, x >> 7);
    out[12 * i] = r1;
    out[12 * i + 1] = r2;
    for (int k = 0; k < 4; k++) {
        out[12 * i + 2 + k] = b.v[k];
        out[12 * i + 7 + k] = c.v[k];
    }
    out[12 * i + 6] = (int)b.f;
    out[12 * i + 11] = (int)c.f;
    lout[2 * i] = b.id;
    lout[2 * i + 1] = c.id;
}

// Private arrays written under divergent control flow: lanes of one hardware thread take
// different branches and loops with their own trip counts and early exits, each writing
// different indices, and a short array only some lanes write. out: the 16 ints, then the 8
// shorts as ints; 24 an item.
kernel void divergent_writes(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int a[16];
    short b[8];
    for (int k = 0; k < 16; k++)
        a[k] = k - i;
    for (int k = 0; k < 8; k++)
        b[k] = (short)k;
    if (x & 1) {
        for (int k = 0; k < ((x >> 1) & 7); k++)
            a[(x + 3 * k) & 15] = k * x;
    } else if (x % 3 == 0) {
        a[x & 15] = -x;
        b[(x >> 4) & 7] = (short)(x & 0x7FFF);
    } else {
        int j = (x >> 2) & 15;
        while (j < 16) {
            a[j] += x;
            if (a[j] & 4)
                break;
            j += 1 + ((x >> 6) & 3);
        }
    }
    switch ((x >> 8) & 3) {
    case 0:
        a[15 - (x & 15)] ^= 0x5555;
        break;
    case 1:
        b[x & 7] = -7;
        // fall through
    case 2:
        a[(x >> 10) & 15] = b[(x >> 12) & 7];
        break;
    default:
        break;
    }
    for (int k = 0; k < 16; k++)
        out[24 * i + k] = a[k];
    for (int k = 0; k < 8; k++)
        out[24 * i + 16 + k] = b[k];
}
