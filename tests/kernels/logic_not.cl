// SHA-2's and MD5's selections: `~x` read only by and/or/xor is the reader's `~` source
// modifier (isel `logic_nots`), as IGC writes it; `~y`, stored, stays a not of its own.
// Held against iga64 by jit/tests/jit_iga.rs and legal by validate_jit.rs.
__kernel void logic_not(__global const uint *in, __global uint *out) {
    size_t i = get_global_id(0);
    uint e = in[4 * i], f = in[4 * i + 1], g = in[4 * i + 2], y = in[4 * i + 3];
    uint ch = (e & f) ^ (~e & g);
    uint md5_i = e ^ (f | ~g);
    out[2 * i] = ch + md5_i;
    out[2 * i + 1] = ~y;
}
