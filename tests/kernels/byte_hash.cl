// FNV-1a over the bytes of each item's words: `(w >> 8k) & 0xff` read by xor, which the
// JIT reads as a byte region of the word (isel `byte_fields`); held against iga64 by
// jit/tests/jit_iga.rs and legal by validate_jit.rs.
__kernel void byte_hash(__global const uint *in, __global uint *out) {
    uint w = in[get_global_id(0)];
    uint h = 2166136261u;
    for (int b = 0; b < 4; b++) {
        h ^= (w >> (8 * b)) & 0xff;
        h *= 16777619u;
    }
    out[get_global_id(0)] = h | ((w >> 8) & 0xff);
}
