// ALU-bound loops: the model's speed is measured on these (model_speed in
// driver/tests/igc_corpus.rs); each is also checked against a CPU reference.

// Integer hash: xor, shifts, 32-bit multiply, add.
__kernel void alu_int_hash(__global uint *out, int iters) {
    uint h = (uint)get_global_id(0);
    for (int i = 0; i < iters; i++) {
        h ^= h >> 13;
        h = h * 0x5bd1e995u + (uint)i;
        h ^= h << 7;
    }
    out[get_global_id(0)] = h;
}

// Float recurrence whose every step is exact or rounds once (x * 0.5 is exact,
// so a fused or unfused multiply-add give the same result).
__kernel void alu_float_affine(__global float *out, int iters) {
    float x = (float)(get_global_id(0) & 1023);
    float y = 3.0f;
    for (int i = 0; i < iters; i++) {
        x = x * 0.5f + 1.25f;
        y = y * 0.5f + x;
    }
    out[get_global_id(0)] = x + y;
}

// Mixed integer and float work per iteration, SIMD16.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void alu_mix16(__global uint *out, int iters) {
    uint a = (uint)get_global_id(0) * 2654435761u;
    float f = 0.0f;
    for (int i = 0; i < iters; i++) {
        a = (a << 5) - a + (uint)i;
        f = f * 0.25f + (float)(a & 255);
    }
    out[get_global_id(0)] = a ^ as_uint(f);
}
