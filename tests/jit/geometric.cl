// Geometric functions over float and double vectors of 2, 3 and 4 (6 kernels) and the
// common functions over float at every width (5 kernels); references in
// driver/tests/jit_corpus/geometric.rs.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define GEO(T, N)                                                                           \
    kernel void geo_##T##N(global const T *a, global const T *b, global T *out,             \
                           global T *vout) {                                                \
        size_t i = get_global_id(0);                                                        \
        T##N x = vload##N(i, a), y = vload##N(i, b);                                        \
        out[3 * i + 0] = dot(x, y);                                                         \
        out[3 * i + 1] = length(x);                                                         \
        out[3 * i + 2] = distance(x, y);                                                    \
        vstore##N(normalize(x), i, vout);                                                   \
    }

GEO(float, 2)
GEO(float, 3)
GEO(float, 4)
GEO(double, 2)
GEO(double, 3)
GEO(double, 4)

#define COMMON(N)                                                                           \
    kernel void common_float##N(global const float##N *a, global const float##N *b,         \
                                global float##N *out) {                                     \
        size_t i = get_global_id(0);                                                        \
        float##N x = a[i], y = b[i];                                                        \
        out[6 * i + 0] = clamp(x, -1.0f, 1.0f);                                             \
        out[6 * i + 1] = mix(x, y, 0.25f);                                                  \
        out[6 * i + 2] = step(0.5f, x);                                                     \
        out[6 * i + 3] = smoothstep(-1.0f, 1.0f, x);                                        \
        out[6 * i + 4] = degrees(x);                                                        \
        out[6 * i + 5] = sign(x);                                                           \
    }

COMMON()
COMMON(2)
COMMON(4)
COMMON(8)
COMMON(16)
