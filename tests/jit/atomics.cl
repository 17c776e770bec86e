// Atomic functions on global and local memory: the OpenCL 1.1 atomic_* on int, uint and float
// (xchg), the cl_khr_*_int32_*_atomics atom_* on int and the cl_khr_int64_*_atomics atom_* on
// long and ulong, each with its returned value used and unused. Contention is the point (whole
// hardware threads hit one address), so every result is independent of the order the atomics
// land in: sums, counts, minima and maxima, bit sets, exactly one winner per slot, and returned
// old values checked for a property every serial order has (atomic_inc's are a permutation,
// atomic_add's of positive values one chain, ...). References in
// driver/tests/jit_corpus/atomics.rs.
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// Results unused: int and uint add, sub, inc and dec on four counters each, and int add and
// uint sub into 8 bins (int bins by the item, uint bins by the data). acc and uacc: 12 each.
kernel void add_sub_unused(global const int *in, global const uint *uin, global int *acc,
                           global uint *uacc) {
    int i = get_global_id(0);
    int x = in[i];
    uint u = uin[i];
    atomic_add(&acc[0], x);
    atomic_sub(&acc[1], x);
    atomic_inc(&acc[2]);
    atomic_dec(&acc[3]);
    atomic_add(&acc[4 + (i & 7)], x);
    atomic_add(&uacc[0], u);
    atomic_sub(&uacc[1], u);
    atomic_inc(&uacc[2]);
    atomic_dec(&uacc[3]);
    atomic_sub(&uacc[4 + (u & 7)], u >> 3);
}

// Returned old values: positive int additions to one counter (from below zero to above it)
// and positive uint subtractions from another; sorted, the old values of each must form one
// serial chain from the initial value to the final one.
kernel void add_old_chain(global const int *in, global int *ctr, global int *old,
                          global uint *uctr, global uint *uold) {
    int i = get_global_id(0);
    old[i] = atomic_add(ctr, in[i]);
    uold[i] = atomic_sub(uctr, (uint)in[i] * 3u);
}

// Tickets: atomic_inc on a uint that wraps past 2^32 - 1 and atomic_dec on an int that goes
// below zero; the returned values are each counter's run of values, in some order.
kernel void inc_dec_tickets(global uint *uctr, global uint *tickets, global int *ctr,
                            global int *left) {
    int i = get_global_id(0);
    tickets[i] = atomic_inc(uctr);
    left[i] = atomic_dec(ctr);
}

// atomic_xchg: on one int for the whole range and on one uint per group, the old values with
// the final value are, as a multiset, the written values with the initial one; with the result
// unused, each of 4 ints ends holding one of the values written to it.
kernel void xchg_chain(global const int *in, global int *slot, global int *old,
                       global uint *gslot, global uint *gold, global int *last) {
    int i = get_global_id(0);
    old[i] = atomic_xchg(slot, in[i]);
    gold[i] = atomic_xchg(&gslot[get_group_id(0)], (uint)i * 2654435761u);
    atomic_xchg(&last[i & 3], i);
}

// Signed and unsigned min and max, results unused: one pair each for the range and 4 bins.
// Returned: the old values of an int max and an int min and of a uint min, each the initial
// value or another item's input, never past the final value.
kernel void min_max(global const int *in, global const uint *uin, global int *mm,
                    global uint *umm, global int *old, global uint *uold) {
    int i = get_global_id(0);
    int x = in[i];
    uint u = uin[i];
    atomic_min(&mm[0], x);
    atomic_max(&mm[1], x);
    atomic_min(&mm[2 + (i & 3)], x);
    atomic_max(&mm[6 + (i & 3)], x);
    atomic_min(&umm[0], u);
    atomic_max(&umm[1], u);
    atomic_max(&umm[2 + (u & 3)], u >> 2);
    old[2 * i] = atomic_max(&mm[10], x);
    old[2 * i + 1] = atomic_min(&mm[11], x);
    uold[i] = atomic_min(&umm[6], u);
}

// and, or and xor. Unused: on uint and int bins with full-range data. Returned: each item owns
// one bit (bit i % 32 of word i / 32) of an or-, an and- and a xor-array, and the old value it
// sees must show its own bit as it started; an or's old value also holds every initial bit,
// an and's none the initial value lacks.
kernel void bit_ops(global const uint *in, global uint *w, global int *iw, global uint *own,
                    global uint *old) {
    int i = get_global_id(0);
    uint u = in[i];
    atomic_and(&w[i & 3], u | (u >> 2) | (u << 3) | (u >> 7) | (u << 9));
    atomic_or(&w[4 + (i & 3)], u & (u >> 2) & (u << 3) & (u >> 7) & (u << 9));
    atomic_xor(&w[8 + (i & 3)], u);
    atomic_and(&iw[u & 3], as_int(u | (u >> 3) | (u << 5) | (u >> 11) | (u << 13)));
    atomic_or(&iw[4 + (u & 3)], as_int(u & (u >> 3) & (u << 5)));
    atomic_xor(&iw[8 + (u & 3)], as_int(u));
    int word = i >> 5, nw = get_global_size(0) >> 5;
    uint bit = 1u << (i & 31);
    old[3 * i] = atomic_or(&own[word], bit);
    old[3 * i + 1] = atomic_and(&own[nw + word], ~bit);
    old[3 * i + 2] = atomic_xor(&own[2 * nw + word], bit);
}

// Claim a slot with atomic_cmpxchg on uint: item i offers its tag to slot key[i] (keys
// collide), only while the slot is empty (all ones). Every item learns the winner: its own tag
// if the exchange succeeded, else the value it found; all claimants of a slot name one winner.
kernel void claim_slots(global const uint *key, global uint *slots, global uint *winner,
                        global int *won) {
    int i = get_global_id(0);
    uint tag = (uint)i * 3u + 1u;
    uint seen = atomic_cmpxchg(&slots[key[i]], 0xFFFFFFFFu, tag);
    won[i] = seen == 0xFFFFFFFFu;
    winner[i] = seen == 0xFFFFFFFFu ? tag : seen;
}

// Lock-free insertion into an open-addressing table of mask + 1 ints (empty: -1) with linear
// probing: from the key's hash, atomic_cmpxchg an empty slot to the key; stop at the slot that
// then holds the key (this item's or another's). Every distinct key ends in exactly one slot,
// and every slot on a key's probe path before it is full.
kernel void hash_insert(global const int *key, global int *table, global int *pos, int mask) {
    int i = get_global_id(0);
    int k = key[i];
    int h = (int)(((uint)k * 2654435761u) >> 16) & mask;
    for (int probe = 0; probe <= mask; probe++) {
        int seen = atomic_cmpxchg(&table[h], -1, k);
        if (seen == -1 || seen == k)
            break;
        h = (h + 1) & mask;
    }
    pos[i] = h;
}

// Stream compaction with atomic_inc: every selected input lands at its own index of out;
// the slots past the count keep their fill.
kernel void compact_inc(global const int *in, global int *out, global uint *count) {
    int i = get_global_id(0);
    int x = in[i];
    if ((x & 3) == 1 || x < -900000) {
        uint k = atomic_inc(count);
        out[k] = x;
    }
}

// Compaction in two levels: a group ranks its selected items with atomic_inc on a kernel-scope
// __local counter (item 0 clears it), one item reserves the group's run of out with a global
// atomic_add, and every selected item writes at the run's base + its rank. Unselected items'
// rank: all ones.
kernel void compact_local(global const uint *in, global uint *out, global uint *count,
                          global uint *ranks) {
    local uint n, base;
    int l = get_local_id(0), i = get_global_id(0);
    uint x = in[i];
    if (l == 0)
        n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint rank = 0xFFFFFFFFu;
    if (x % 5u < 2u)
        rank = atomic_inc(&n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        base = atomic_add(count, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (rank != 0xFFFFFFFFu)
        out[base + rank] = x;
    ranks[i] = rank;
}

// A histogram straight in global memory: 64 bins counted with atomic_inc and 64 bins summing
// weights with atomic_add, both chosen by the data (some bins hot).
kernel void hist_global(global const uint *in, global uint *bins, global uint *wbins) {
    uint x = in[get_global_id(0)];
    atomic_inc(&bins[x & 63]);
    atomic_add(&wbins[(x >> 6) & 63], x >> 24);
}

// A 256-bin byte histogram in a kernel-scope __local array: cleared by the group's items in
// strides, barrier, atomic_inc for the item's 4 bytes, barrier, then each non-empty bin merged
// into the global histogram with atomic_add. Any group size up to 256.
kernel void hist_local(global const uchar4 *in, global uint *bins) {
    local uint h[256];
    int l = get_local_id(0), n = get_local_size(0);
    for (int b = l; b < 256; b += n)
        h[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar4 v = in[get_global_id(0)];
    atomic_inc(&h[v.x]);
    atomic_inc(&h[v.y]);
    atomic_inc(&h[v.z]);
    atomic_inc(&h[v.w]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = l; b < 256; b += n)
        if (h[b] != 0)
            atomic_add(&bins[b], h[b]);
}

// Every atomic function on kernel-scope __local int and uint counters, results unused: item 0
// initialises them, barrier, every item's atomics, barrier, items 0 to 10 write the group's
// values (11 ints, then 11 uints). Slots 9 and 10 (xchg, and a cmpxchg only the first item
// wins) end holding one of the group's values. Groups of at least 11.
kernel void local_ops(global const int *in, global int *out, global uint *uout) {
    local int c[11];
    local uint u[11];
    int l = get_local_id(0), g = get_group_id(0);
    int x = in[get_global_id(0)];
    uint ux = (uint)x * 2654435761u;
    if (l == 0) {
        c[0] = 7;
        c[1] = -7;
        c[2] = 100;
        c[3] = 100;
        c[4] = INT_MAX;
        c[5] = INT_MIN;
        c[6] = -1;
        c[7] = 0x10000;
        c[8] = 0x5A5A5A5A;
        c[9] = -1;
        c[10] = -1;
        u[0] = 0xFFFFFF00u;
        u[1] = 5u;
        u[2] = 0xFFFFFFF0u;
        u[3] = 3u;
        u[4] = 0xFFFFFFFFu;
        u[5] = 0u;
        u[6] = 0xFFFFFFFFu;
        u[7] = 0u;
        u[8] = 0x12345678u;
        u[9] = 1u;
        u[10] = 1u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&c[0], x);
    atomic_sub(&c[1], x);
    atomic_inc(&c[2]);
    atomic_dec(&c[3]);
    atomic_min(&c[4], x);
    atomic_max(&c[5], x);
    atomic_and(&c[6], as_int(~(1u << (l & 31))) | x);
    atomic_or(&c[7], as_int(1u << (x & 31)));
    atomic_xor(&c[8], x);
    atomic_xchg(&c[9], x);
    atomic_cmpxchg(&c[10], -1, x);
    atomic_add(&u[0], ux);
    atomic_sub(&u[1], ux);
    atomic_inc(&u[2]);
    atomic_dec(&u[3]);
    atomic_min(&u[4], ux);
    atomic_max(&u[5], ux);
    atomic_and(&u[6], ux | (ux >> 3) | (ux << 4));
    atomic_or(&u[7], ux & (ux >> 3) & (ux << 4));
    atomic_xor(&u[8], ux);
    atomic_xchg(&u[9], ux);
    atomic_cmpxchg(&u[10], 1u, ux);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 11) {
        out[11 * g + l] = c[l];
        uout[11 * g + l] = u[l];
    }
}

// Returned old values of __local atomics, per group: atomic_inc ranks (0 to n-1 in some
// order), atomic_add of positive values (one chain from 100), atomic_xchg (the olds with the
// final value are the group's values with -1), and a leader elected with atomic_cmpxchg on
// uint (exactly one item wins, and the final value names it). Four values an item, four a
// group.
kernel void local_returns(global const int *in, global int *out, global int *fin) {
    local int ctr, sum, x;
    local uint leader;
    int l = get_local_id(0), i = get_global_id(0), g = get_group_id(0);
    int v = in[i];
    if (l == 0) {
        ctr = 0;
        sum = 100;
        x = -1;
        leader = 0xFFFFFFFFu;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[4 * i] = atomic_inc(&ctr);
    out[4 * i + 1] = atomic_add(&sum, v);
    out[4 * i + 2] = atomic_xchg(&x, v);
    out[4 * i + 3] = atomic_cmpxchg(&leader, 0xFFFFFFFFu, (uint)l) == 0xFFFFFFFFu;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        fin[4 * g] = ctr;
        fin[4 * g + 1] = sum;
        fin[4 * g + 2] = x;
        fin[4 * g + 3] = leader;
    }
}

// The cl_khr_{global,local}_int32_*_atomics names: atom_add, atom_sub, atom_min, atom_max,
// atom_and, atom_or and atom_xor on global ints (unused), atom_inc tickets on a global uint,
// and atom_add and atom_xchg on a kernel-scope __local int[2]. gsum: each group's sum and the
// final value of its xchg; xold: each item's old value from the xchg.
kernel void atom_int32(global const int *in, global int *acc, global uint *ctr,
                       global uint *tickets, global int *gsum, global int *xold) {
    local int s[2];
    int l = get_local_id(0), i = get_global_id(0);
    int x = in[i];
    if (l == 0) {
        s[0] = 0;
        s[1] = -5;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&acc[0], x);
    atom_sub(&acc[1], x);
    atom_min(&acc[2], x);
    atom_max(&acc[3], x);
    atom_and(&acc[4], x | 0x0F0F0F0F);
    atom_or(&acc[5], x & 0x30303030);
    atom_xor(&acc[6], x);
    tickets[i] = atom_inc(ctr);
    atom_add(&s[0], x);
    xold[i] = atom_xchg(&s[1], x);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        gsum[2 * get_group_id(0)] = s[0];
        gsum[2 * get_group_id(0) + 1] = s[1];
    }
}

// 64-bit atom_* on global long and ulong. Returned: an add chain of positive values up to 2^36
// from -2^40 (crossing 2^32 boundaries and zero), atom_xchg's olds, and atom_inc tickets from
// 2^32 - 16. Unused: signed and unsigned min and max, and, or and xor on ulong pairs. Claims:
// atom_cmpxchg of tags whose low half equals the empty value's (all ones), so only a full
// 64-bit compare keeps one winner per slot.
kernel void atom_long_global(global const long *in, global long *acc, global ulong *uacc,
                             global long *old, global long *slots, global int *won) {
    int i = get_global_id(0);
    long x = in[i];
    ulong u = as_ulong(x);
    old[3 * i] = atom_add(&acc[0], (x & 0xFFFFFFFFFL) + 1);
    old[3 * i + 1] = atom_xchg(&acc[1], x);
    old[3 * i + 2] = atom_inc(&acc[2]);
    atom_min(&acc[3], x);
    atom_max(&acc[4], x);
    atom_min(&uacc[0], u);
    atom_max(&uacc[1], u);
    atom_and(&uacc[2 + (i & 1)], u | (u >> 2) | (u << 3) | (u >> 7) | (u << 9));
    atom_or(&uacc[4 + (i & 1)], u & (u >> 2) & (u << 3) & (u >> 7) & (u << 9));
    atom_xor(&uacc[6 + (i & 1)], u);
    long tag = ((long)i << 32) | 0xFFFFFFFFL;
    won[i] = atom_cmpxchg(&slots[u >> 58], -1L, tag) == -1L;
}

// 64-bit atom_* on kernel-scope __local long and ulong: item 0 initialises, barrier, atomics,
// barrier, item 0 writes the group's 10 values (5 longs, 5 ulongs). Returned: an add chain
// across 2^32 and atom_xchg's olds, two an item. A leader elected with atom_cmpxchg on a long
// whose empty value and tags share their low half.
kernel void atom_long_local(global const long *in, global long *out, global long *old,
                            global int *won) {
    local long s[5];
    local ulong u[5];
    int l = get_local_id(0), i = get_global_id(0), g = get_group_id(0);
    long x = in[i];
    ulong ux = as_ulong(x);
    if (l == 0) {
        s[0] = 0xFFF00000L;
        s[1] = LONG_MAX;
        s[2] = LONG_MIN;
        s[3] = 0;
        s[4] = -1;
        u[0] = ULONG_MAX;
        u[1] = 0;
        u[2] = ULONG_MAX;
        u[3] = 0x8000000000000001UL;
        u[4] = 0x0123456789ABCDEFUL;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    old[2 * i] = atom_add(&s[0], (x & 0xFFFFFF) + 1);
    atom_min(&s[1], x);
    atom_max(&s[2], x);
    old[2 * i + 1] = atom_xchg(&s[3], x);
    won[i] = atom_cmpxchg(&s[4], -1L, ((long)l << 32) | 0xFFFFFFFFL) == -1L;
    atom_min(&u[0], ux);
    atom_max(&u[1], ux);
    atom_and(&u[2], ux | (ux >> 2) | (ux << 3) | (ux >> 7));
    atom_or(&u[3], ux & (ux >> 2) & (ux << 3) & (ux >> 7));
    atom_xor(&u[4], ux);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        for (int k = 0; k < 5; k++) {
            out[10 * g + k] = s[k];
            out[10 * g + 5 + k] = as_long(u[k]);
        }
    }
}

// 64-bit atom_* on __local long where a thread's lanes are not all on one word, or not all
// active. Items with l % 4 != 3 add to s[l % 3] (a thread's lanes on three words: served one
// lane at a time); odd items exchange on s[3] (one word, every other lane inactive: folded in
// registers); then item l tries once to make t (-1 at first) l where it is l - 1: in any
// serial order the items that succeed are 0 .. m - 1 for some m, and t ends at m - 1 (a
// spinning ticket is not a test: OpenCL promises no forward progress to a work-item waiting
// on another, and the GPU model's round-robin threads can starve one). Per group: s[0..3]
// and t.
kernel void atom_long_local_mixed(global const long *in, global long *out, global long *old,
                                  global long *tick) {
    local long s[4];
    local long t;
    int l = get_local_id(0), i = get_global_id(0), g = get_group_id(0);
    long x = in[i];
    if (l < 4)
        s[l] = l == 3 ? -7L : (long)l << 40;
    if (l == 0)
        t = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l % 4 != 3)
        old[2 * i] = atom_add(&s[l % 3], (x & 0xFFFFFF) + 1);
    if (l & 1)
        old[2 * i + 1] = atom_xchg(&s[3], x);
    tick[i] = atom_cmpxchg(&t, (long)l - 1, (long)l);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        for (int k = 0; k < 4; k++)
            out[5 * g + k] = s[k];
        out[5 * g + 4] = t;
    }
}

// atomic_xchg on floats (by their bits: -0, a denormal, infinities and NaNs among the values).
// On one global float: the old values with the final value are, bit for bit, the inputs with
// the initial value. With the result unused, on one global float per group, and on a
// kernel-scope __local float: each ends holding one of the values written to it.
kernel void xchg_float(global const float *in, global float *slot, global float *old,
                       global float *last, global float *lout) {
    local float lf;
    int l = get_local_id(0), i = get_global_id(0);
    float v = in[i];
    if (l == 0)
        lf = 1.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
    old[i] = atomic_xchg(slot, v);
    atomic_xchg(&last[get_group_id(0)], -v);
    atomic_xchg(&lf, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        lout[get_group_id(0)] = lf;
}

// A float add as an atomic_cmpxchg loop on the bits: lock-free (each round some item's
// exchange succeeds). Returns the value it replaced.
float add_float_global(volatile global float *p, float v) {
    uint old = as_uint(*p);
    uint seen;
    while ((seen = atomic_cmpxchg((volatile global uint *)p, old, as_uint(as_float(old) + v))) !=
           old)
        old = seen;
    return as_float(old);
}

float add_float_local(volatile local float *p, float v) {
    uint old = as_uint(*p);
    uint seen;
    while ((seen = atomic_cmpxchg((volatile local uint *)p, old, as_uint(as_float(old) + v))) !=
           old)
        old = seen;
    return as_float(old);
}

// Float sums by the compare-exchange loop, on integer-valued inputs so every partial sum is
// exact and every order gives the same result: positive values into one float with the old
// values kept (one chain), and signed values into 8 bins (unused).
kernel void float_add_cas(global const float *in, global float *sums, global float *old) {
    int i = get_global_id(0);
    float v = in[i];
    old[i] = add_float_global(&sums[0], v);
    add_float_global(&sums[1 + (i & 7)], 50.0f - v);
}

// The same loop on a kernel-scope __local float (item 0 clears it), then item 0 writes the
// group's sum and adds it to a global total with the global loop.
kernel void float_add_cas_local(global const float *in, global float *gsum,
                                global float *total) {
    local float s;
    int l = get_local_id(0);
    if (l == 0)
        s = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    add_float_local(&s, in[get_global_id(0)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        gsum[get_group_id(0)] = s;
        add_float_global(total, s);
    }
}
