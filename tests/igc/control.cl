// Control flow as Intel's compiler lowers it: divergent branches, loops with
// data-dependent trip counts, early exits, switches, calls and non-uniform
// work-groups. Each kernel aims at one feature; the references are in
// driver/tests/igc/cases/control.rs.

// Divergent if/else on the low bit of the input.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void divergent_if(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int r;
    if (x & 1) {
        r = x * 3 + 1;
    } else {
        r = x / 2 - 7;
    }
    out[i] = r;
}

// Nested ifs, some arms without else.
__kernel void nested_if(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int r = 0;
    if (x > 0) {
        if (x > 500) {
            r = 1;
            if (x % 3 == 0)
                r += 10;
        } else {
            r = 2;
        }
    } else {
        if (x < -500)
            r = 3;
        else if (x == 0)
            r = 4;
        r += 100;
    }
    out[i] = r;
}

// A for loop whose trip count is per work-item data.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void for_data_trip(__global const int *n, __global int *out) {
    int i = get_global_id(0);
    int s = 0;
    for (int k = 0; k < n[i]; k++)
        s += k * k + i;
    out[i] = s;
}

// A while loop over a row of the input with continue (skip negatives) and
// break (stop at a zero).
__kernel void while_break_continue(__global const int *in, __global int *out, int row) {
    int i = get_global_id(0);
    __global const int *p = in + i * row;
    int k = 0, s = 0, c = 0;
    while (k < row) {
        int v = p[k++];
        if (v < 0)
            continue;
        if (v == 0)
            break;
        s += v;
        c++;
    }
    out[2 * i] = s;
    out[2 * i + 1] = c;
}

// Early returns: items past n and items with negative input leave early.
__kernel void early_return(__global const int *in, __global int *out, int n) {
    int i = get_global_id(0);
    if (i >= n)
        return;
    int x = in[i];
    if (x < 0) {
        out[i] = -1;
        return;
    }
    out[i] = x * x;
}

// A dense switch (a jump table candidate).
__kernel void switch_dense(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int r;
    switch (x & 7) {
    case 0: r = x + 11; break;
    case 1: r = x * 5; break;
    case 2: r = x - 300; break;
    case 3: r = x ^ 0x5555; break;
    case 4: r = x << 3; break;
    case 5: r = -x; break;
    case 6: r = x / 3; break;
    default: r = 77; break;
    }
    out[i] = r;
}

// A sparse switch with fall-through (an if chain).
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void switch_sparse(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int r = 0;
    switch (x) {
    case -100: r = 1; break;
    case 7: r = 2; // fall through
    case 1000: r += 3; break;
    case 65536: r = 4; break;
    case 12345: r = 5; break;
    default: r = x & 0xff;
    }
    out[i] = r;
}

// A search loop with three exits: found, sentinel, or the end of the rows.
// goto leaves both loops at once; the bounds are arguments so the loops stay loops.
__kernel void multi_exit(__global const int *rows, __global const int *keys,
                         __global int *out, int nrows, int ncols) {
    int i = get_global_id(0);
    int key = keys[i];
    int where = -3;
    __global const int *base = rows + (i % 8) * nrows * ncols;
    for (int r = 0; r < nrows; r++) {
        for (int c = 0; c < ncols; c++) {
            int v = base[r * ncols + c];
            if (v == key) {
                where = r * ncols + c;
                goto done;
            }
            if (v == -1) {
                where = -2 - r * 100;
                goto done;
            }
        }
    }
done:
    out[i] = where;
}

// do-while: reverse the decimal digits and count them.
__kernel void do_while_digits(__global const uint *in, __global uint *out) {
    int i = get_global_id(0);
    uint x = in[i];
    uint rev = 0, n = 0;
    do {
        rev = rev * 10 + x % 10;
        x /= 10;
        n++;
    } while (x != 0);
    out[2 * i] = rev;
    out[2 * i + 1] = n;
}

// Real calls: helpers IGC must not inline.
__attribute__((noinline)) int gcd_helper(int a, int b) {
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

__attribute__((noinline)) int mix_helper(int a, int b) {
    if (a > b)
        return a * 2 - b;
    return b * 3 + a;
}

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void noinline_calls(__global const int *a, __global const int *b, __global int *out) {
    int i = get_global_id(0);
    int x = a[i], y = b[i];
    int g = gcd_helper(x, y);
    int m = (i & 1) ? mix_helper(x, y) : mix_helper(y, g);
    out[i] = g * 1000 + m;
}

// A 2-D range, each item summing a 3x3 window with clamped edges.
__kernel void box_2d(__global const int *in, __global int *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int s = 0;
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            int xx = clamp(x + dx, 0, w - 1);
            int yy = clamp(y + dy, 0, h - 1);
            s += in[yy * w + xx];
        }
    }
    out[y * w + x] = s;
}

// Predicated selects: ternaries, select(), min/max with no branches.
__kernel void predicated_select(__global const int *a, __global const int *b, __global int *out) {
    int i = get_global_id(0);
    int x = a[i], y = b[i];
    int r = x > y ? x - y : y - x;
    r += select(x, y, x < 0);
    r += (x == y) ? 1000 : 0;
    r ^= max(x, y) & min(x, y);
    out[i] = r;
}

// A branch on a by-value argument (uniform) around one on the item (divergent).
__kernel void uniform_vs_divergent(__global const int *in, __global int *out, int mode) {
    int i = get_global_id(0);
    int x = in[i];
    if (mode == 1) {
        if (x > 0)
            x = x * 2;
        else
            x = -x;
    } else if (mode == 2) {
        for (int k = 0; k < mode; k++)
            x = x * 3 + k;
    } else {
        x = 5;
    }
    out[i] = x;
}

// A 64-bit loop counter that crosses 2^32.
__kernel void loop_u64(__global const ulong *start, __global ulong *out) {
    int i = get_global_id(0);
    ulong s = 0;
    ulong b = start[i];
    for (ulong k = b; k < b + (ulong)(i % 13) * 3; k += 3)
        s += k ^ (k >> 7);
    out[i] = s;
}

// Bubble sort of 8 ints per work-item (in registers).
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void bubble8(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    int v[8];
    for (int k = 0; k < 8; k++)
        v[k] = in[i * 8 + k];
    for (int p = 0; p < 7; p++) {
        for (int k = 0; k < 7 - p; k++) {
            if (v[k] > v[k + 1]) {
                int t = v[k];
                v[k] = v[k + 1];
                v[k + 1] = t;
            }
        }
    }
    for (int k = 0; k < 8; k++)
        out[i * 8 + k] = v[k];
}

// Collatz step counts: neighbouring items take wildly different trip counts.
__kernel void collatz(__global const uint *in, __global uint *out) {
    int i = get_global_id(0);
    uint x = in[i];
    uint steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    out[i] = steps;
}

// Non-uniform work-groups (OpenCL 2.0): the last group is smaller.
__kernel void remainder_group(__global int *out, __global int *sizes) {
    int i = get_global_id(0);
    out[i] = (int)get_group_id(0) * 1000000 + (int)get_local_size(0) * 1000 + (int)get_local_id(0);
    sizes[i] = (int)get_enqueued_local_size(0) * 1000 + (int)get_num_groups(0);
}

// A 3-D range: the item's own id in every dimension and the flat id.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void ids_3d(__global int *out) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int w = get_global_size(0), h = get_global_size(1);
    int flat = (z * h + y) * w + x;
    out[flat] = (int)(get_group_id(2) << 24 | get_group_id(1) << 16 | get_group_id(0) << 8 |
                      (get_local_id(2) * 16 + get_local_id(1) * 4 + get_local_id(0)));
}
