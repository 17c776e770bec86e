// Global and local atomics as Intel's compiler lowers them (untyped atomic
// messages, SLM atomics, 64-bit atomics, compare-exchange loops).
// References: driver/tests/igc/cases/atomics.rs.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// Everyone adds to one counter; the returned old values chain the additions.
__kernel void atomic_add_old(__global const int *in, __global int *counter, __global int *old) {
    int i = get_global_id(0);
    old[i] = atomic_add(&counter[0], in[i]);
}

// atomic_inc on one address: the returned values are a permutation.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void atomic_inc_perm(__global uint *counter, __global uint *old) {
    int i = get_global_id(0);
    old[i] = atomic_inc(counter);
}

// atomic_dec on one address, at SIMD8.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void atomic_dec_perm(__global int *counter, __global int *old) {
    int i = get_global_id(0);
    old[i] = atomic_dec(counter);
}

// atomic_sub into 16 bins chosen by the data.
__kernel void atomic_sub_bins(__global const uint *in, __global uint *bins) {
    uint x = in[get_global_id(0)];
    atomic_sub(&bins[x & 15], x >> 4);
}

// Signed min/max on negative and positive values: one global pair and 8 bins.
__kernel void atomic_min_max_int(__global const int *in, __global int *mm, __global int *bins) {
    int i = get_global_id(0);
    int x = in[i];
    atomic_min(&mm[0], x);
    atomic_max(&mm[1], x);
    atomic_min(&bins[2 * (i % 8)], x);
    atomic_max(&bins[2 * (i % 8) + 1], x);
}

// Unsigned min/max on values above 2^31 (would order differently if signed).
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void atomic_min_max_uint(__global const uint *in, __global uint *mm, __global uint *old) {
    int i = get_global_id(0);
    uint x = in[i];
    old[i] = atomic_max(&mm[1], x);
    atomic_min(&mm[0], x);
}

// and/or/xor: each item sets, clears and toggles its own bit in one of four words.
__kernel void atomic_bits(__global const uint *in, __global uint *ors, __global uint *ands,
                          __global uint *xors) {
    int i = get_global_id(0);
    uint bit = 1u << (i % 32);
    int w = (i / 32) % 4;
    atomic_or(&ors[w], bit);
    atomic_and(&ands[w], ~bit);
    atomic_xor(&xors[i % 4], in[i]);
}

// atomic_xchg through one slot: old values plus the final value are the inputs plus the initial.
__kernel void atomic_xchg_chain(__global const int *in, __global int *slot, __global int *old) {
    int i = get_global_id(0);
    old[i] = atomic_xchg(slot, in[i]);
}

// atomic_cmpxchg claims: one winner per slot.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void atomic_cmpxchg_claim(__global const int *key, __global int *slots,
                                   __global int *won) {
    int i = get_global_id(0);
    won[i] = atomic_cmpxchg(&slots[key[i]], -1, i) == -1;
}

// 64-bit atom_add (cl_khr_int64_base_atomics) with values that carry across 2^32.
__kernel void atom_add_long(__global const long *in, __global long *acc, __global long *old) {
    int i = get_global_id(0);
    old[i] = atom_add(&acc[0], in[i]);
    atom_add(&acc[1 + i % 3], in[i] * 3);
}

// 64-bit compare-exchange and exchange.
__kernel void atom_cmpxchg_long(__global const long *key, __global long *slots,
                                __global long *won, __global long *last) {
    int i = get_global_id(0);
    long tag = ((long)i << 40) | 0x123;
    won[i] = atom_cmpxchg(&slots[key[i]], -1L, tag) == -1L;
    atom_xchg(last, 0x7700000000L + i);
}

// Local atomics: each group counts its items in local memory, then adds to a global total.
__kernel void local_atomic_count(__global const int *in, __global int *total, __global int *idx) {
    __local int count;
    __local int sum;
    int l = get_local_id(0);
    if (l == 0) {
        count = 0;
        sum = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    idx[get_global_id(0)] = atomic_inc(&count);
    atomic_add(&sum, in[get_global_id(0)]);
    atomic_max(&sum, -1000000); // a local max that never changes a larger value
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        atomic_add(&total[0], count);
        atomic_add(&total[1 + get_group_id(0)], sum);
    }
}

// OpenCL 2.0 atomic_fetch_add_explicit, relaxed, on an atomic_int.
__kernel void atomic_fetch_add_relaxed(__global const int *in, __global atomic_int *counter,
                                       __global int *old) {
    int i = get_global_id(0);
    old[i] = atomic_fetch_add_explicit(counter, in[i], memory_order_relaxed);
}

// OpenCL 2.0 exchange, compare-exchange, fetch_or and fetch_min on atomic types.
__kernel void atomic_c11_misc(__global const int *in, __global atomic_int *v,
                              __global atomic_uint *u, __global int *won) {
    int i = get_global_id(0);
    int expected = 0;
    won[i] = atomic_compare_exchange_strong_explicit(&v[0], &expected, i + 1, memory_order_relaxed,
                                                     memory_order_relaxed, memory_scope_device);
    atomic_fetch_or_explicit(&u[0], 1u << (i % 32), memory_order_relaxed);
    atomic_fetch_min_explicit(&v[1], in[i], memory_order_relaxed);
    atomic_fetch_max_explicit(&v[2], in[i], memory_order_relaxed);
    atomic_exchange_explicit(&u[1], 5u, memory_order_relaxed);
}

// Float addition by a compare-exchange loop (integer-valued floats: the sum is exact).
void atomic_add_float(volatile __global float *p, float v) {
    float prev = *p;
    for (;;) {
        int expected = as_int(prev);
        int got = atomic_cmpxchg((volatile __global int *)p, expected, as_int(prev + v));
        if (got == expected)
            break;
        prev = as_float(got);
    }
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void atomic_float_cas(__global const float *in, __global float *sum) {
    int i = get_global_id(0);
    atomic_add_float(&sum[i % 2], in[i]);
}

// A global histogram by atomic_inc, bins chosen by the data.
__kernel void atomic_histogram(__global const uint *in, __global uint *bins) {
    uint x = in[get_global_id(0)];
    atomic_inc(&bins[(x * 2654435761u) >> 27]);
}

// Per-item addresses (no contention): atomic_add returns each slot's prior value.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void atomic_add_private_slots(__global const int *in, __global int *slots,
                                       __global int *old) {
    int i = get_global_id(0);
    old[i] = atomic_add(&slots[i], in[i]);
    atomic_sub(&slots[(i + 1) % get_global_size(0)], 1);
}
