// Kernel arguments by value: vectors, narrow integers and structs, all pushed as
// constants (seed 001); references in driver/tests/jit_corpus/args.rs.

typedef struct {
    int a;
    float b;
    char c;
    long d;
} params_t;

kernel void vec_args(global const float *in, global float *out, float4 scale, int3 shift) {
    int i = get_global_id(0);
    float x = in[i];
    out[4 * i + 0] = x * scale.x + (float)shift.x;
    out[4 * i + 1] = x * scale.y + (float)shift.y;
    out[4 * i + 2] = x * scale.z + (float)shift.z;
    out[4 * i + 3] = x * scale.w;
}

kernel void narrow_args(global int *out, char c, uchar uc, short s, ushort us, int tail) {
    int i = get_global_id(0);
    out[5 * i + 0] = c * i;
    out[5 * i + 1] = uc + i;
    out[5 * i + 2] = s - i;
    out[5 * i + 3] = us * 2 + i;
    out[5 * i + 4] = tail;
}

kernel void struct_arg(global const int *in, global long *out, params_t p) {
    int i = get_global_id(0);
    long v = in[i];
    out[2 * i] = v * p.a + (long)(p.b * 2.0f) + p.c;
    out[2 * i + 1] = p.d - v;
}

kernel void long2_arg(global long *out, long2 k, uint2 m) {
    int i = get_global_id(0);
    out[2 * i] = k.x + i * (long)m.x;
    out[2 * i + 1] = k.y - i * (long)m.y;
}

// A union by value: its bytes read as the member each use names.
typedef union {
    float f;
    uint u;
    uchar b[4];
} bits_t;

kernel void union_arg(global uint *out, bits_t v) {
    int i = get_global_id(0);
    out[3 * i + 0] = as_uint(v.f * (float)i);
    out[3 * i + 1] = v.u ^ (uint)i;
    // Constant indices: an aggregate argument indexed at run time needs the private
    // memory of the memory-model issue.
    out[3 * i + 2] = v.b[0] + v.b[1] * 2 + v.b[2] * 3 + v.b[3] * 4;
}

// A struct holding an array and a nested struct, by value.
typedef struct {
    short id;
    int table[6];
    struct {
        double scale;
        char tag;
    } inner;
} table_t;

kernel void array_struct_arg(global double *out, table_t t) {
    int i = get_global_id(0);
    int k = i % 6;
    int e = k == 0 ? t.table[0] : k == 1 ? t.table[1] : k == 2 ? t.table[2]
          : k == 3 ? t.table[3] : k == 4 ? t.table[4] : t.table[5];
    out[i] = e * t.inner.scale + t.id + t.inner.tag;
}

// A packed struct (pyopencl's scan sizes its local scratch for one): members back to back,
// 7 bytes, so `value` and `weight` sit at odd addresses in the buffers and in local memory.
typedef struct __attribute__((packed)) {
    char tag;
    int value;
    short weight;
} packed_t;

kernel void packed_struct(global const packed_t *in, global packed_t *out, packed_t k) {
    local packed_t tmp[64];
    int i = get_global_id(0);
    int l = get_local_id(0);
    tmp[l] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    packed_t v = tmp[63 - l];
    v.value = v.value * k.value + k.tag;
    v.weight += k.weight;
    out[i] = v;
}
