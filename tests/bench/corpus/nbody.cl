// N-body. References: driver/tests/bench/cases.rs.
#pragma OPENCL FP_CONTRACT OFF

// Acceleration on body i from all n bodies (pos.w = mass), softened.
__kernel void nbody_accel(__global const float4 *pos, __global float4 *acc, int n, float eps2) {
    int i = get_global_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        float r2 = dot(d, d) + eps2;
        float inv = rsqrt(r2);
        a += d * (q.w * inv * inv * inv);
    }
    acc[i] = (float4)(a, 0.0f);
}

// The same with bodies staged through a __local tile of 64.
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void nbody_accel_local(__global const float4 *pos, __global float4 *acc, int n,
                                float eps2) {
    __local float4 tile[64];
    int i = get_global_id(0), l = get_local_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f);
    for (int t = 0; t < n; t += 64) {
        tile[l] = pos[t + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < 64; j++) {
            float4 q = tile[j];
            float3 d = q.xyz - p.xyz;
            float r2 = dot(d, d) + eps2;
            float inv = rsqrt(r2);
            a += d * (q.w * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[i] = (float4)(a, 0.0f);
}

// Leapfrog integration step: v += a dt, x += v dt.
__kernel void nbody_integrate(__global float4 *pos, __global float4 *vel,
                              __global const float4 *acc, float dt) {
    int i = get_global_id(0);
    float4 v = vel[i] + acc[i] * dt;
    float4 p = pos[i];
    p.xyz += v.xyz * dt;
    vel[i] = v;
    pos[i] = p;
}
