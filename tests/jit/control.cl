// gencl's own control-flow corpus: every shape of reducible flow clang leaves at
// -O2 and at -cl-opt-disable. Each kernel has a CPU reference in
// driver/tests/jit_corpus/control.rs.

kernel void switch_fallthrough(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int r = 0;
    switch (x & 7) {
    case 0: r += 1;
    case 1: r += 10; break;
    case 2: r = 7; break;
    case 3:
    case 4: r = x * 3; break;
    case 6: r = -x; // fall through
    default: r += 100;
    }
    out[i] = r;
}

kernel void switch_in_loop(global const int *in, global int *out) {
    int i = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < 12; k++) {
        switch ((in[i] + k) % 5) {
        case 0: acc += k; break;
        case 1: acc ^= k << 2; break;
        case 2: continue;
        case 3: acc -= 3; break;
        default: acc *= 2; break;
        }
        acc += 1;
    }
    out[i] = acc;
}

kernel void break_in_body(global const int *in, global int *out, int n) {
    int i = get_global_id(0);
    int x = in[i];
    int k = 0;
    for (; k < n; k++) {
        x = x * 5 + 3;
        if ((x & 0xff) == 17)
            break;
        x ^= k;
    }
    out[i] = x + k * 1000;
}

kernel void continue_and_break(global const int *in, global int *out) {
    int i = get_global_id(0);
    int s = 0;
    int x = in[i];
    for (int k = 0; k < 64; k++) {
        if ((x + k) % 3 == 0)
            continue;
        if (s > x)
            break;
        s += k;
    }
    out[i] = s;
}

kernel void nested_break_outer(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int found = -1;
    for (int a = 0; a < 10 && found < 0; a++) {
        for (int b = 0; b < 10; b++) {
            if (a * 10 + b == x) {
                found = a * 100 + b;
                break;
            }
        }
    }
    out[i] = found;
}

kernel void early_returns(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    out[i] = 0;
    if (x < 0)
        return;
    out[i] = 1;
    for (int k = 0; k < 20; k++) {
        if (x == k * 7) {
            out[i] = 100 + k;
            return;
        }
    }
    if (x > 1000)
        return;
    out[i] = 2;
}

kernel void several_exits(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int r;
    int k = 0;
    while (1) {
        if (x == 1) { r = 1000 + k; break; }
        if (k > 40) { r = -1; break; }
        if (x % 97 == 0) { r = 2000 + k; break; }
        x = (x & 1) ? 3 * x + 1 : x / 2;
        k++;
    }
    out[i] = r;
}

kernel void short_circuit(global const int *a, global const int *b, global int *out) {
    int i = get_global_id(0);
    int x = a[i], y = b[i];
    int r = 0;
    if ((x > 0 && y > 0) || (x < -50 && y < -50))
        r = x + y;
    else if (x == y || x == -y)
        r = 7;
    else
        r = x - y;
    out[i] = r;
}

kernel void do_while_nested(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i] & 0xffff;
    int steps = 0;
    do {
        int y = x;
        do {
            y >>= 1;
            steps++;
        } while (y > 3);
        x -= 37;
    } while (x > 0);
    out[i] = steps;
}

kernel void uniform_loop_divergent_exit(global const int *in, global int *out, int n) {
    int i = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < n; k++) {
        acc += in[(i + k) % 256];
        if (acc > 5000)
            break;
    }
    out[i] = acc;
}
