// The GPU model's speed on local memory and barriers beside an ALU loop (docs/gpu-model.md,
// "Local memory and barriers beside the ALU"): run each with gencl profile --global 4096
// --local 256 --options="-D N=300" (and N=20), under callgrind.
kernel void alu_loop(global int *out, int unused) {
    int x = get_global_id(0), y = 7;
    for (int i = 0; i < N; i++) { x = x * 3 + y; y ^= x >> 3; }
    out[get_global_id(0)] = x + y;
}
kernel void slm_loop(global int *out, local int *l, int unused) {
    int lid = get_local_id(0), x = lid;
    int sz = get_local_size(0);
    for (int i = 0; i < N; i++) {
        l[lid] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
        x += l[(lid + 1) % sz];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = x;
}
