// Random number generators. References: driver/tests/bench/cases.rs.
#pragma OPENCL FP_CONTRACT OFF

// Marsaglia's xorshift32, 64 steps from each item's seed; the xor of all outputs.
__kernel void xorshift32(__global const uint *seed, __global uint *out) {
    uint x = seed[get_global_id(0)] | 1u;
    uint acc = 0;
    for (int i = 0; i < 64; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        acc ^= x;
    }
    out[get_global_id(0)] = acc;
}

// xorshift128+ (64-bit), 32 steps; the wrapping sum of the outputs.
__kernel void xorshift128plus(__global const ulong2 *seed, __global ulong *out) {
    ulong2 s = seed[get_global_id(0)];
    ulong s0 = s.x | 1, s1 = s.y;
    ulong sum = 0;
    for (int i = 0; i < 32; i++) {
        ulong x = s0, y = s1;
        s0 = y;
        x ^= x << 23;
        s1 = x ^ y ^ (x >> 17) ^ (y >> 26);
        sum += s1 + y;
    }
    out[get_global_id(0)] = sum;
}

// Philox2x32-10: counter (item, ctr), key k.
__kernel void philox2x32_10(__global uint2 *out, uint ctr, uint key) {
    uint x0 = get_global_id(0), x1 = ctr, k = key;
    for (int r = 0; r < 10; r++) {
        uint lo = 0xD256D193u * x0;
        uint hi = mul_hi(0xD256D193u, x0);
        x0 = hi ^ k ^ x1;
        x1 = lo;
        k += 0x9E3779B9u;
    }
    out[get_global_id(0)] = (uint2)(x0, x1);
}

// PCG32 (XSH RR), 16 outputs per item; their xor.
__kernel void pcg32(__global const ulong *state, __global uint *out) {
    ulong s = state[get_global_id(0)];
    const ulong inc = 1442695040888963407ul;
    uint acc = 0;
    for (int i = 0; i < 16; i++) {
        ulong old = s;
        s = old * 6364136223846793005ul + inc;
        uint xs = (uint)(((old >> 18) ^ old) >> 27);
        uint rot = (uint)(old >> 59);
        acc ^= (xs >> rot) | (xs << ((32 - rot) & 31));
    }
    out[get_global_id(0)] = acc;
}

// Monte-Carlo pi: points of the unit square (xorshift32, 24-bit floats) inside the circle.
__kernel void mc_pi(__global const uint *seed, __global uint *hits, int samples) {
    uint x = seed[get_global_id(0)] | 1u;
    uint n = 0;
    for (int i = 0; i < samples; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        float u = (float)(x >> 8) * (1.0f / 16777216.0f);
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        float v = (float)(x >> 8) * (1.0f / 16777216.0f);
        n += u * u + v * v <= 1.0f;
    }
    hits[get_global_id(0)] = n;
}
