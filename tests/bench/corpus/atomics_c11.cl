// C11 atomics under contention, as OpenCL-CTS test_c11_atomics runs them (one counter that
// every work-item of a group updates, memory_order_seq_cst by default): each work-item adds 1
// to its group's counter ITERS times. References: driver/tests/bench/cases.rs.

#define ITERS 16

// A compare-exchange loop on a 32-bit __local counter (test_c11_atomics' cas_strong on int).
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void c11_cas_local_u32(__global uint *out) {
    __local atomic_uint c;
    if (get_local_id(0) == 0)
        atomic_init(&c, 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < ITERS; i++) {
        uint e = atomic_load(&c);
        while (!atomic_compare_exchange_strong(&c, &e, e + 1))
            ;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = atomic_load(&c);
}

// A compare-exchange loop on a 64-bit __global counter, one a group (the global variants).
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void c11_cas_global_u64(__global atomic_ulong *counters) {
    __global atomic_ulong *c = &counters[get_group_id(0)];
    for (int i = 0; i < ITERS; i++) {
        ulong e = atomic_load(c);
        while (!atomic_compare_exchange_strong(c, &e, e + 1))
            ;
    }
}

// The same on a 64-bit __local counter (Gen9's SLM has no 64-bit atomics: both compilers
// take a lock).
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void c11_cas_local_u64(__global ulong *out) {
    __local atomic_ulong c;
    if (get_local_id(0) == 0)
        atomic_init(&c, 0ul);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < ITERS; i++) {
        ulong e = atomic_load(&c);
        while (!atomic_compare_exchange_strong(&c, &e, e + 1))
            ;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = atomic_load(&c);
}

// atomic_fetch_add on a 64-bit __local counter (test_c11_atomics' fetch_add on long).
__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void c11_fetch_add_local_u64(__global ulong *out) {
    __local atomic_ulong c;
    if (get_local_id(0) == 0)
        atomic_init(&c, 0ul);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < ITERS; i++)
        atomic_fetch_add(&c, 1ul);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = atomic_load(&c);
}
