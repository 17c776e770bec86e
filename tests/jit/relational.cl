// Relational, select and sign built-ins over float and double at every vector width
// (1, 2, 4, 8, 16): 10 kernels, references in driver/tests/jit_corpus/relational.rs.
// Scalar relationals answer 1 (int), vector ones -1 (int for float, long for double);
// select's mask has the width of the values (a long for a scalar double).

#define FREL(T, C, S, N)                                                                     \
    kernel void frel_##T##N(global const T##N *a, global const T##N *b, global C *cmp,      \
                            global T##N *out) {                                             \
        size_t i = get_global_id(0);                                                        \
        T##N x = a[i], y = b[i];                                                            \
        cmp[5 * i + 0] = isequal(x, y);                                                     \
        cmp[5 * i + 1] = isless(x, y);                                                      \
        cmp[5 * i + 2] = isgreaterequal(x, y);                                              \
        cmp[5 * i + 3] = isnan(x);                                                          \
        cmp[5 * i + 4] = signbit(x);                                                        \
        out[4 * i + 0] = select(x, y, (S)isless(x, y));                                     \
        out[4 * i + 1] = fmax(x, y);                                                        \
        out[4 * i + 2] = copysign(x, y);                                                    \
        out[4 * i + 3] = fabs(x);                                                           \
    }

FREL(float, int, int, )
FREL(float, int2, int2, 2)
FREL(float, int4, int4, 4)
FREL(float, int8, int8, 8)
FREL(float, int16, int16, 16)

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
FREL(double, int, long, )
FREL(double, long2, long2, 2)
FREL(double, long4, long4, 4)
FREL(double, long8, long8, 8)
FREL(double, long16, long16, 16)

// select and bitselect on char and short vectors (the CTS's test_select found vector
// select testing the container's sign bit, not the element's): each element of c picks b
// where its most significant bit is set (c != 0 for scalars); c's type may be signed or
// unsigned. 20 kernels, references in driver/tests/jit_corpus/relational.rs.
#define ISEL(T, C, N)                                                                        \
    kernel void isel_##T##_##C##N(global const T##N *a, global const T##N *b,              \
                                  global const C##N *c, global T##N *out) {                 \
        size_t i = get_global_id(0);                                                        \
        out[2 * i] = select(a[i], b[i], c[i]);                                              \
        out[2 * i + 1] = bitselect(a[i], b[i], as_##T##N(c[i]));                            \
    }
#define ISEL_WIDTHS(T, C) ISEL(T, C, ) ISEL(T, C, 2) ISEL(T, C, 4) ISEL(T, C, 8) ISEL(T, C, 16)
ISEL_WIDTHS(char, char)
ISEL_WIDTHS(uchar, char)
ISEL_WIDTHS(short, ushort)
ISEL_WIDTHS(ushort, short)
