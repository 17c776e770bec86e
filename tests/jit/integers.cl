// Integer built-ins over every integer type and vector width (1, 2, 4, 8, 16): 40 kernels,
// references in driver/tests/jit_corpus/integers.rs. Eight results per element:
// add_sat, sub_sat, hadd, rhadd, abs_diff, clz, rotate, mul_hi.
// Then division, remainder and multiplication by constant powers of two, for each type as a
// scalar and as a 4-vector (LLVM leaves vector divisions for the target; the JIT's
// `strength` pass makes them shifts): 16 kernels.

#define INT_OPS(T, U, N)                                                                 \
    kernel void int_ops_##T##N(global const T##N *a, global const T##N *b,               \
                               global T##N *out) {                                       \
        size_t i = get_global_id(0);                                                     \
        T##N x = a[i], y = b[i];                                                         \
        out[8 * i + 0] = add_sat(x, y);                                                  \
        out[8 * i + 1] = sub_sat(x, y);                                                  \
        out[8 * i + 2] = hadd(x, y);                                                     \
        out[8 * i + 3] = rhadd(x, y);                                                    \
        out[8 * i + 4] = as_##T##N(abs_diff(x, y));                                      \
        out[8 * i + 5] = clz(x);                                                         \
        out[8 * i + 6] = rotate(x, y);                                                   \
        out[8 * i + 7] = mul_hi(x, y);                                                   \
    }

#define ALL_WIDTHS(T, U) INT_OPS(T, U, ) INT_OPS(T, U, 2) INT_OPS(T, U, 4) \
    INT_OPS(T, U, 8) INT_OPS(T, U, 16)

ALL_WIDTHS(char, uchar)
ALL_WIDTHS(uchar, uchar)
ALL_WIDTHS(short, ushort)
ALL_WIDTHS(ushort, ushort)
ALL_WIDTHS(int, uint)
ALL_WIDTHS(uint, uint)
ALL_WIDTHS(long, ulong)
ALL_WIDTHS(ulong, ulong)

// x / 2, x / 2^(bits-2), x % 8, x % 2^(bits/2), x * 2^(bits/2 - 1), x / 2^(bits/2) (the
// quotient pyopencl's random kernels take), in the type's own width.
#define POW2_OPS(T, N, BITS)                                                             \
    kernel void pow2_ops_##T##N(global const T##N *a, global T##N *out) {                \
        size_t i = get_global_id(0);                                                     \
        T##N x = a[i];                                                                   \
        out[6 * i + 0] = x / (T)2;                                                       \
        out[6 * i + 1] = x / (T)((T)1 << (BITS - 2));                                    \
        out[6 * i + 2] = x % (T)8;                                                       \
        out[6 * i + 3] = x % (T)((T)1 << (BITS / 2));                                    \
        out[6 * i + 4] = x * (T)((T)1 << (BITS / 2 - 1));                                \
        out[6 * i + 5] = x / (T)((T)1 << (BITS / 2));                                    \
    }

#define POW2_WIDTHS(T, BITS) POW2_OPS(T, , BITS) POW2_OPS(T, 4, BITS)

POW2_WIDTHS(char, 8)
POW2_WIDTHS(uchar, 8)
POW2_WIDTHS(short, 16)
POW2_WIDTHS(ushort, 16)
POW2_WIDTHS(int, 32)
POW2_WIDTHS(uint, 32)
POW2_WIDTHS(long, 64)
POW2_WIDTHS(ulong, 64)

// 32-bit products by constants that fit in a word (taken as :w or :uw immediates, a dword
// by a word) and by one that does not, signed and unsigned, negative and at the edges.
kernel void mul_by_word_constants(global const int *a, global int *out) {
    size_t i = get_global_id(0);
    int x = a[i];
    uint u = (uint)x;
    out[8 * i + 0] = x * 3;
    out[8 * i + 1] = x * -5;
    out[8 * i + 2] = x * -32768;
    out[8 * i + 3] = x * 32767;
    out[8 * i + 4] = (int)(u * 40000u);
    out[8 * i + 5] = (int)(u * 65535u);
    out[8 * i + 6] = x * 65537;
    out[8 * i + 7] = (int)(u * 0xFFFF8000u);
}
