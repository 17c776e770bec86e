// __local memory and barriers: reductions, scans, tiles, sorts, local data of every width,
// the layout of SLM (kernel variables and __local pointer arguments), helpers taking __local
// pointers, fences, and work-groups that are not a power of two or not a multiple of the SIMD
// width. Every kernel is deterministic: between two barriers each item writes its own
// locations. References in driver/tests/jit_corpus/local.rs.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Tree sum of a group's ints in a __local pointer argument (any power-of-two group size).
kernel void reduce_sum_arg(global const int *in, global int *out, local int *s) {
    int l = get_local_id(0), n = get_local_size(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = n >> 1; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}

// The same in a kernel-scope array, with a constant trip count (groups of 64).
kernel void reduce_sum_array(global const int *in, global int *out) {
    local int tmp[64];
    int l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 32; w > 0; w >>= 1) {
        if (l < w)
            tmp[l] += tmp[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tmp[0];
}

// Float tree sum (integer-valued inputs: every partial sum is exact in any order).
kernel void reduce_float(global const float *in, global float *out, local float *s) {
    int l = get_local_id(0), n = get_local_size(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = n >> 1; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}

// 64-bit tree sum (wrapping) in a kernel-scope long array (groups of 64).
kernel void reduce_long(global const long *in, global long *out) {
    local long s[64];
    int l = get_local_id(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 32; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}

// 8- and 16-bit local data side by side (groups of 64): a uchar sum (wrapping, read back
// zero-extended), a signed char max (sign-extended loads decide it) and a short sum (wrapping,
// read back sign-extended). Neighbouring items store neighbouring bytes.
kernel void reduce_narrow(global const uchar *a, global const short *b, global int *out) {
    local uchar u[64];
    local char c[64];
    local short s[64];
    int l = get_local_id(0), g = get_global_id(0);
    u[l] = a[g];
    c[l] = as_char((uchar)(a[g] * 7));
    s[l] = b[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 32; w > 0; w >>= 1) {
        if (l < w) {
            u[l] = (uchar)(u[l] + u[l + w]);
            c[l] = max(c[l], c[l + w]);
            s[l] = (short)(s[l] + s[l + w]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        int grp = get_group_id(0);
        out[3 * grp] = u[0];
        out[3 * grp + 1] = c[0];
        out[3 * grp + 2] = s[0];
    }
}

// Hillis-Steele inclusive scan in one buffer: read, barrier, write, barrier.
kernel void scan_hs(global const int *in, global int *out, local int *a) {
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    a[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < n; d <<= 1) {
        int t = a[l];
        if (l >= d)
            t += a[l - d];
        barrier(CLK_LOCAL_MEM_FENCE);
        a[l] = t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = a[l];
}

// Blelloch exclusive scan of 2 * local size ints (two per item): up-sweep, clear the last,
// down-sweep.
kernel void scan_blelloch(global const int *in, global int *out, local int *t) {
    int l = get_local_id(0);
    int n = 2 * get_local_size(0);
    int base = get_group_id(0) * n;
    t[2 * l] = in[base + 2 * l];
    t[2 * l + 1] = in[base + 2 * l + 1];
    int off = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
            t[bi] += t[ai];
        }
        off <<= 1;
    }
    if (l == 0)
        t[n - 1] = 0;
    for (int d = 1; d < n; d <<= 1) {
        off >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
            int x = t[ai];
            t[ai] = t[bi];
            t[bi] += x;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * l] = t[2 * l];
    out[base + 2 * l + 1] = t[2 * l + 1];
}

// c = a * b through 16x16 tiles (2-D groups of 16x16): a is rows x k, b is k x n, c is rows x n,
// rows the global height; k and n multiples of 16.
kernel void matmul_tiled(global const int *a, global const int *b, global int *c, int k,
                         int n) {
    local int ta[16][16];
    local int tb[16][16];
    int lx = get_local_id(0), ly = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    int acc = 0;
    for (int t = 0; t < k / 16; t++) {
        ta[ly][lx] = a[row * k + t * 16 + lx];
        tb[ly][lx] = b[(t * 16 + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < 16; j++)
            acc += ta[ly][j] * tb[j][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = acc;
}

// A 3-point stencil with a one-element halo on each side loaded by the group's end items
// (zero outside the range); the __local argument holds local size + 2 ints.
kernel void stencil3(global const int *in, global int *out, local int *t) {
    int l = get_local_id(0), n = get_local_size(0);
    int g = get_global_id(0), size = get_global_size(0);
    t[l + 1] = in[g];
    if (l == 0)
        t[0] = g > 0 ? in[g - 1] : 0;
    if (l == n - 1)
        t[n + 1] = g + 1 < size ? in[g + 1] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = 3 * t[l] + 5 * t[l + 1] - 7 * t[l + 2];
}

// Transpose of a w x h int matrix through a padded 8x8 tile (2-D groups of 8x8).
kernel void transpose_tile(global const int *in, global int *out) {
    local int tile[8][9];
    int lx = get_local_id(0), ly = get_local_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int gx = get_group_id(0) * 8, gy = get_group_id(1) * 8;
    tile[ly][lx] = in[(gy + ly) * w + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Item (lx, ly) writes column gy + lx of row gx + ly of the h-wide output.
    out[(gx + ly) * h + gy + lx] = tile[lx][ly];
}

// Bitonic sort of a group's 64 ints, ascending; the lower item of each pair swaps both.
kernel void bitonic_sort64(global const int *in, global int *out) {
    local int s[64];
    uint l = get_local_id(0);
    size_t g = get_global_id(0);
    s[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 2; k <= 64; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            uint p = l ^ j;
            if (p > l) {
                int x = s[l], y = s[p];
                int up = (l & k) == 0;
                if ((x > y) == up) {
                    s[l] = y;
                    s[p] = x;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    out[g] = s[l];
}

// Reverse each group (up to 256 items, the largest group) through a kernel-scope array.
kernel void reverse_256(global const int *in, global int *out) {
    local int t[256];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    t[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = t[n - 1 - l];
}

// float4 in local memory (groups of up to 64): whole-vector loads and stores, then one
// component stored on its own.
kernel void local_float4(global const float4 *in, global float4 *out) {
    local float4 t[64];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    t[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 a = t[(l + 1) % n], b = t[n - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l].y = (float)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[2 * g] = a.wzyx - b;
    out[2 * g + 1] = t[(l + 3) % n];
}

// int2 and ulong in local memory (groups of up to 64).
kernel void local_int2_ulong(global const int2 *in, global const ulong *q, global int2 *out,
                             global ulong *oq) {
    local int2 t[64];
    local ulong u[64];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    t[l] = in[g];
    u[l] = q[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    int2 a = t[(l + 5) % n];
    out[g] = a.yx + t[l];
    oq[g] = (u[(l + 7) % n] ^ (u[l] >> 13)) + u[n - 1 - l];
}

// double in local memory (groups of up to 64); x * 0.5 is exact, so contraction cannot change
// the result.
kernel void local_double(global const double *in, global double *out) {
    local double t[64];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    t[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = t[(l + 3) % n] - t[l] * 0.5;
}

// half in a __local pointer argument through vstore_half / vload_half (inputs exact in half),
// and the same bits read back as ushort.
kernel void local_half(global const float *in, global float *out, global ushort *bits,
                       local half *h) {
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    vstore_half(in[g], l, h);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = vload_half((l + 1) % n, h) + vload_half(l, h);
    bits[g] = ((local ushort *)h)[n - 1 - l];
}

// The layout of SLM: two kernel-scope arrays (5 bytes, then ints) and two __local pointer
// arguments (65 shorts, an odd size, then ints); a region overlapping another shows as a
// wrong value. Groups of 64.
kernel void slm_layout(global const int *in, global int *out, local short *b, local int *a) {
    local uchar tag[5];
    local int kv[64];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int x = in[g];
    if (l < 5)
        tag[l] = (uchar)(l * 40 + 1);
    kv[l] = x;
    a[l] = x * 3;
    b[l] = (short)(x + 1);
    if (l == 0)
        b[n] = -7;
    barrier(CLK_LOCAL_MEM_FENCE);
    int r = n - 1 - l;
    out[5 * g] = kv[r];
    out[5 * g + 1] = a[r];
    out[5 * g + 2] = b[r];
    out[5 * g + 3] = b[n];
    out[5 * g + 4] = tag[l % 5];
}

// Helpers (not kernels) taking __local pointers, with barriers inside: called on a __local
// argument and on a kernel-scope array.
void put_local(local int *s, int l, int v) {
    s[l] = v;
}

int group_sum(local int *s, int l, int n) {
    for (int w = n >> 1; w > 0; w >>= 1) {
        if (l < w)
            s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[0];
}

int group_max(local int *s, int l, int n) {
    for (int w = n >> 1; w > 0; w >>= 1) {
        if (l < w)
            s[l] = max(s[l], s[l + w]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[0];
}

kernel void helper_local(global const int *in, global int *out, local int *s) {
    local int m[64];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int x = in[g];
    put_local(s, l, x);
    put_local(m, l, x ^ 0x55);
    barrier(CLK_LOCAL_MEM_FENCE);
    int sum = group_sum(s, l, n);
    int mx = group_max(m, l, n);
    out[2 * g] = sum - x;
    out[2 * g + 1] = mx;
}

// mem_fence, read_mem_fence and write_mem_fence on local and global memory, each ordering an
// item's own accesses; a barrier before the one read of another item's slot.
kernel void fences(global const int *in, global int *out, local int *s) {
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    s[l] = in[g];
    write_mem_fence(CLK_LOCAL_MEM_FENCE);
    s[l] = s[l] * 2 + 1;
    mem_fence(CLK_LOCAL_MEM_FENCE);
    int own = s[l];
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    own += s[l];
    out[2 * g] = own;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    out[2 * g] += 1;
    mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[2 * g + 1] = s[(l + 1) % n];
}

// barrier(CLK_GLOBAL_MEM_FENCE): items read global values other items of their group wrote;
// then a barrier with both fences over local and global data. Groups of up to 64.
kernel void global_barrier(global const int *in, global int *tmp, global int *out) {
    local int s[64];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int base = g - l;
    tmp[g] = in[g] * 3 + l;
    barrier(CLK_GLOBAL_MEM_FENCE);
    s[l] = tmp[base + (l + 1) % n] - tmp[g];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    out[g] = s[n - 1 - l] + tmp[base + (l + 3) % n];
}

// A tree sum for any group size (halving rounded up), and every item's share of it: groups
// whose last hardware thread is partial. `each` is longer than the range, and its tail must
// keep the fill pattern.
kernel void reduce_any_size(global const int *in, global int *sums, global int *each,
                            local int *s) {
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    s[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = n; w > 1;) {
        int h = (w + 1) >> 1;
        if (l < w - h)
            s[l] += s[l + h];
        barrier(CLK_LOCAL_MEM_FENCE);
        w = h;
    }
    if (l == 0)
        sums[get_group_id(0)] = s[0];
    each[g] = s[0] - in[g];
}

// A 2-D group's tree sum over its flat local id (the group's item count a power of two).
kernel void reduce_2d(global const int *in, global int *out, local int *s) {
    int lx = get_local_id(0), ly = get_local_id(1);
    int nx = get_local_size(0), ny = get_local_size(1);
    int f = ly * nx + lx;
    int w = get_global_size(0);
    s[f] = in[get_global_id(1) * w + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = (nx * ny) >> 1; h > 0; h >>= 1) {
        if (f < h)
            s[f] += s[f + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (f == 0)
        out[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = s[0];
}

// A loop with two barriers whose trip count is the local size / 8.
kernel void barrier_trips(global const int *in, global int *out, local int *s) {
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    s[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < n / 8; k++) {
        int t = s[(l + k + 1) % n] ^ k;
        barrier(CLK_LOCAL_MEM_FENCE);
        s[l] = t + l;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = s[l];
}

// One kernel-scope array in two phases: ping-pong between its halves `iters` times, then a
// tree sum of the results in its first half. Groups of up to 64 (a power of two).
kernel void ping_pong(global const int *in, global int *out, global int *sums, int iters) {
    local int buf[128];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    buf[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    int src = 0, dst = 64;
    for (int it = 0; it < iters; it++) {
        buf[dst + l] = buf[src + (l + 1) % n] * 3 - buf[src + l] + it;
        barrier(CLK_LOCAL_MEM_FENCE);
        int t = src;
        src = dst;
        dst = t;
    }
    int v = buf[src + l];
    out[g] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = n >> 1; w > 0; w >>= 1) {
        if (l < w)
            buf[l] += buf[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        sums[get_group_id(0)] = buf[0];
}

// Pointers as 32-bit integers (SPIR-V's ConvertPtrToU with a result narrower than the
// pointer: truncated), as the CTS's vec_align tests check alignment with
// `(uint)(local uchar *)&x`. Offsets between two addresses are exact whatever the layout; a
// pointer made from a ulong reads its element back. (Not from a uint: on a CPU device such
// as PoCL a local or global address does not fit in 32 bits.)
kernel void ptr_as_uint(global const int *in, global uint *out, global int *back) {
    local int s[64];
    private int p[4];
    int l = get_local_id(0), g = get_global_id(0);
    s[l] = in[g];
    for (int k = 0; k < 4; k++)
        p[k] = in[g] + k;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint ls = (uint)(local uchar *)&s[(l + 1) % 64] - (uint)(local uchar *)&s[0];
    uint gs = (uint)(global const uchar *)&in[g] - (uint)(global const uchar *)in;
    uint ps = (uint)(private uchar *)&p[l & 3] - (uint)(private uchar *)p;
    out[3 * g] = ls;
    out[3 * g + 1] = gs;
    out[3 * g + 2] = ps;
    local int *q = (local int *)(ulong)(local uchar *)&s[63 - l];
    global const int *r = (global const int *)(ulong)(global const uchar *)&in[g ^ 1];
    back[2 * g] = *q + p[l & 3];
    back[2 * g + 1] = *r;
}
