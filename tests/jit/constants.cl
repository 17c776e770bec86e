// Program-scope __constant data: tables of every shape a kernel indexes at run time;
// references in driver/tests/jit_corpus/constants.rs.

constant int primes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
constant float4 weights[3] = {(float4)(0.5f, 1.0f, 2.0f, 4.0f),
                              (float4)(-1.0f, 0.25f, 8.0f, 0.0f),
                              (float4)(3.0f, 3.0f, -3.0f, 1.5f)};
typedef struct { short id; char tag; long big; } entry_t;
constant entry_t entries[4] = {{1, 'a', 1000000000000L}, {-2, 'b', -5L},
                               {300, 'c', 7L}, {-32768, 'z', 0x7fffffffffffffffL}};
constant uchar bytes[5] = {0, 255, 128, 7, 64};

kernel void table_lookup(global const int *in, global int *out) {
    int i = get_global_id(0);
    int k = in[i] & 15;
    out[i] = primes[k] * primes[15 - k] + bytes[k % 5];
}

kernel void vector_table(global const float *in, global float *out) {
    int i = get_global_id(0);
    float4 w = weights[i % 3];
    float x = in[i];
    out[i] = x * w.x + w.y * w.z - w.w;
}

kernel void struct_table(global long *out) {
    int i = get_global_id(0);
    constant entry_t *e = &entries[i & 3];
    out[i] = e->big + e->id * 10 + e->tag;
}
