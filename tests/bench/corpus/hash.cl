// Hashes and checksums. References: driver/tests/bench/cases.rs.

inline uint rotl32(uint x, uint s) { return (x << s) | (x >> (32 - s)); }

// MD5 compression of one 64-byte block (16 words) per work-item, from MD5's IV.
__kernel void md5_block(__global const uint *msg, __constant uint *K, __global uint4 *out) {
    __global const uint *m = msg + get_global_id(0) * 16;
    uint a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;
    for (uint i = 0; i < 64; i++) {
        uint f, g, s;
        uint r = i >> 4, q = i & 3;
        if (r == 0) {
            f = (b & c) | (~b & d);
            g = i;
            s = q == 0 ? 7 : q == 1 ? 12 : q == 2 ? 17 : 22;
        } else if (r == 1) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) & 15;
            s = q == 0 ? 5 : q == 1 ? 9 : q == 2 ? 14 : 20;
        } else if (r == 2) {
            f = b ^ c ^ d;
            g = (3 * i + 5) & 15;
            s = q == 0 ? 4 : q == 1 ? 11 : q == 2 ? 16 : 23;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) & 15;
            s = q == 0 ? 6 : q == 1 ? 10 : q == 2 ? 15 : 21;
        }
        f = f + a + K[i] + m[g];
        a = d;
        d = c;
        c = b;
        b = b + rotl32(f, s);
    }
    out[get_global_id(0)] = (uint4)(a + 0x67452301, b + 0xefcdab89, c + 0x98badcfe,
                                    d + 0x10325476);
}

// The same with the table in __global memory.
__kernel void md5_block_global(__global const uint *msg, __global const uint *K, __global uint4 *out) {
    __global const uint *m = msg + get_global_id(0) * 16;
    uint a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;
    for (uint i = 0; i < 64; i++) {
        uint f, g, s;
        uint r = i >> 4, q = i & 3;
        if (r == 0) {
            f = (b & c) | (~b & d);
            g = i;
            s = q == 0 ? 7 : q == 1 ? 12 : q == 2 ? 17 : 22;
        } else if (r == 1) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) & 15;
            s = q == 0 ? 5 : q == 1 ? 9 : q == 2 ? 14 : 20;
        } else if (r == 2) {
            f = b ^ c ^ d;
            g = (3 * i + 5) & 15;
            s = q == 0 ? 4 : q == 1 ? 11 : q == 2 ? 16 : 23;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) & 15;
            s = q == 0 ? 6 : q == 1 ? 10 : q == 2 ? 15 : 21;
        }
        f = f + a + K[i] + m[g];
        a = d;
        d = c;
        c = b;
        b = b + rotl32(f, s);
    }
    out[get_global_id(0)] = (uint4)(a + 0x67452301, b + 0xefcdab89, c + 0x98badcfe,
                                    d + 0x10325476);
}

inline uint rotr32(uint x, uint s) { return (x >> s) | (x << (32 - s)); }

// SHA-256 compression of one block per work-item, the schedule in a 16-word rolling window.
__kernel void sha256_block(__global const uint *msg, __constant uint *K, __global uint *out) {
    __global const uint *m = msg + get_global_id(0) * 16;
    uint w0 = m[0], w1 = m[1], w2 = m[2], w3 = m[3], w4 = m[4], w5 = m[5], w6 = m[6],
         w7 = m[7], w8 = m[8], w9 = m[9], w10 = m[10], w11 = m[11], w12 = m[12], w13 = m[13],
         w14 = m[14], w15 = m[15];
    uint a = 0x6a09e667, b = 0xbb67ae85, c = 0x3c6ef372, d = 0xa54ff53a;
    uint e = 0x510e527f, f = 0x9b05688c, g = 0x1f83d9ab, h = 0x5be0cd19;
    for (int t = 0; t < 64; t++) {
        uint s1 = rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25);
        uint ch = (e & f) ^ (~e & g);
        uint t1 = h + s1 + ch + K[t] + w0;
        uint s0 = rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22);
        uint mj = (a & b) ^ (a & c) ^ (b & c);
        uint t2 = s0 + mj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
        uint sg0 = rotr32(w1, 7) ^ rotr32(w1, 18) ^ (w1 >> 3);
        uint sg1 = rotr32(w14, 17) ^ rotr32(w14, 19) ^ (w14 >> 10);
        uint nw = sg1 + w9 + sg0 + w0;
        w0 = w1; w1 = w2; w2 = w3; w3 = w4; w4 = w5; w5 = w6; w6 = w7; w7 = w8;
        w8 = w9; w9 = w10; w10 = w11; w11 = w12; w12 = w13; w13 = w14; w14 = w15; w15 = nw;
    }
    __global uint *o = out + get_global_id(0) * 8;
    o[0] = a + 0x6a09e667; o[1] = b + 0xbb67ae85; o[2] = c + 0x3c6ef372; o[3] = d + 0xa54ff53a;
    o[4] = e + 0x510e527f; o[5] = f + 0x9b05688c; o[6] = g + 0x1f83d9ab; o[7] = h + 0x5be0cd19;
}

// FNV-1a over the 32 bytes of each item's 8 words.
__kernel void fnv1a_32(__global const uint *in, __global uint *out) {
    __global const uint *p = in + get_global_id(0) * 8;
    uint h = 2166136261u;
    for (int i = 0; i < 8; i++) {
        uint w = p[i];
        for (int b = 0; b < 4; b++) {
            h ^= (w >> (8 * b)) & 0xff;
            h *= 16777619u;
        }
    }
    out[get_global_id(0)] = h;
}

// MurmurHash3's 32-bit finaliser applied `rounds` times.
__kernel void murmur3_fmix(__global const uint *in, __global uint *out, int rounds) {
    uint h = in[get_global_id(0)];
    for (int r = 0; r < rounds; r++) {
        h ^= h >> 16;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        h *= 0xc2b2ae35u;
        h ^= h >> 16;
    }
    out[get_global_id(0)] = h;
}

// Bitwise CRC-32 (reflected, polynomial 0xEDB88320) of each item's 4 words.
__kernel void crc32_bitwise(__global const uint4 *in, __global uint *out) {
    uint4 v = in[get_global_id(0)];
    uint crc = 0xffffffffu;
    for (int i = 0; i < 4; i++) {
        crc ^= i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
        for (int b = 0; b < 32; b++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    out[get_global_id(0)] = ~crc;
}
