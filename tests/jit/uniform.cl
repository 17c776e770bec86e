// Uniform values, uniform loads and coalesced messages (jit/src/passes/uniform.rs,
// jit/src/isel/coalesce.rs), where a wrong choice shows: in branches that leave lane 0
// disabled (a uniform value is read from channel 0), in loops that lanes leave at different
// iterations, and in grouped loads and stores.

// A uniform load (two neighbouring dwords: one message) where only odd work-items run.
kernel void uniform_load_in_divergent_branch(global const int *table, global int *out, int n) {
    int g = get_global_id(0);
    if (g & 1)
        out[g] = table[n] + table[n + 1] * 3 + g;
    else
        out[g] = -1;
}

// A loop with a uniform counter and uniform table reads, inside a branch that leaves lane 0
// out; the loop's test and its phis are scalar.
kernel void uniform_loop_in_divergent_branch(global const int *table, global int *out, int n) {
    int g = get_global_id(0);
    if (g % 3 == 1) {
        int acc = 0;
        for (int i = 0; i < n; i++)
            acc += table[i] * (i + 1);
        out[g] = acc + g;
    } else {
        out[g] = 0;
    }
}

// A search with a uniform early exit inside a branch that leaves lane 0 out: the index after
// the loop is a uniform phi at the join of two uniform exits, whose copies take the side of
// each exit from a flag that a uniform compare sets on every channel.
kernel void uniform_search_in_divergent_branch(global const int *table, global int *out, int n,
                                               int marker) {
    int g = get_global_id(0);
    if (g % 3 == 1) {
        int i = 0;
        while (i < n && table[i] != marker)
            i++;
        out[g] = i * 1000 + g;
    } else {
        out[g] = -5;
    }
}

// A phi at the join of a branch on an argument, inside a branch on the work-item: its copies
// run on one channel, under a flag set on every channel.
kernel void uniform_phi_in_divergent_branch(global int *out, int n) {
    int g = get_global_id(0);
    if (g & 2) {
        int x;
        if (n > 5)
            x = n * 2;
        else
            x = n + 100;
        out[g] = x + g;
    } else {
        out[g] = 7;
    }
}

// Lanes leave the loop at different iterations: the counter is uniform inside, not after.
kernel void divergent_exit_loop(global const int *stop, global int *out) {
    int g = get_global_id(0);
    int i = 0, s = 0;
    do {
        s += i * 7;
        i++;
    } while (i < stop[g]);
    out[2 * g] = i;
    out[2 * g + 1] = s * 3 + i;
}

// 32 rounds over a uniform table, unrolled: one message reads the whole table.
kernel void uniform_table_rounds(global const uint *k, global uint *out) {
    uint h = get_global_id(0) * 2654435761u;
    for (int i = 0; i < 32; i++)
        h = (h ^ k[i]) * 16777619u;
    out[get_global_id(0)] = h;
}

// Nine uniform qwords, unrolled: eight in one message (two a lane), the ninth alone; each
// put together from its two dwords of the reply.
kernel void uniform_qword_table(global const ulong *k, global ulong *out) {
    ulong h = get_global_id(0);
    for (int i = 0; i < 9; i++)
        h = (h * 31 + k[i]) ^ (h >> 7);
    out[get_global_id(0)] = h;
}

// float4 loads and stores of each work-item as four-channel messages, some in a branch.
kernel void float4_messages(global const float4 *a, global float4 *b, float s) {
    int g = get_global_id(0);
    float4 v = a[g];
    if (g & 1)
        b[g] = v * s;
    else
        b[g] = v.wzyx;
}
