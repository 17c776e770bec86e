// Conversions between float, double and every integer type, with saturation and each
// rounding mode: 8 kernels, references in driver/tests/jit_corpus/conversions.rs.

#define CONV(T)                                                                            \
    kernel void conv_##T(global const float *f, global const double *d,                   \
                         global const T *n, global T *out, global float *fout) {           \
        size_t i = get_global_id(0);                                                       \
        out[6 * i + 0] = convert_##T##_sat_rte(f[i]);                                      \
        out[6 * i + 1] = convert_##T##_sat_rtz(f[i]);                                      \
        out[6 * i + 2] = convert_##T##_sat_rtp(f[i]);                                      \
        out[6 * i + 3] = convert_##T##_sat_rtn(f[i]);                                      \
        out[6 * i + 4] = convert_##T##_sat(d[i]);                                          \
        out[6 * i + 5] = convert_##T##_sat_rte(d[i]);                                      \
        fout[3 * i + 0] = convert_float_rte(n[i]);                                         \
        fout[3 * i + 1] = convert_float_rtz(n[i]);                                         \
        fout[3 * i + 2] = convert_float_rtn(n[i]);                                         \
    }

CONV(char)
CONV(uchar)
CONV(short)
CONV(ushort)
CONV(int)
CONV(uint)
CONV(long)
CONV(ulong)
