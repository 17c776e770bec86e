// Every work-item of a group exchanges on one local 64-bit word, as the CTS's
// test_c11_atomics does (with 10,000 rounds there): Gen9's SLM atomics are 32-bit, so this
// goes through the JIT's lock (docs/jit.md, "64-bit local atomics").
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void exchange_one_word(global long *old) {
    local long x;
    if (get_local_id(0) == 0)
        x = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long v = atom_xchg(&x, (long)get_local_id(0));
    for (int i = 0; i < 20; i++)
        v = atom_xchg(&x, v);
    old[get_global_id(0)] = v;
}
