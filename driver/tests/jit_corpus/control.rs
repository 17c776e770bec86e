//! Cases of tests/jit/control.cl, each with its CPU reference.
use crate::igc::harness::*;

const F: &str = "control.cl";

fn switch_fallthrough(x: i32) -> i32 {
    let mut r = 0i32;
    match x & 7 {
        0 => r = 11,
        1 => r = 10,
        2 => r = 7,
        3 | 4 => r = x.wrapping_mul(3),
        6 => r = (-x).wrapping_add(100),
        _ => r += 100,
    }
    r
}

fn switch_in_loop(x: i32) -> i32 {
    let mut acc = 0i32;
    for k in 0..12 {
        match (x + k) % 5 {
            0 => acc += k,
            1 => acc ^= k << 2,
            2 => continue,
            3 => acc -= 3,
            _ => acc = acc.wrapping_mul(2),
        }
        acc += 1;
    }
    acc
}

fn break_in_body(x0: i32, n: i32) -> i32 {
    let mut x = x0;
    let mut k = 0;
    while k < n {
        x = x.wrapping_mul(5).wrapping_add(3);
        if x & 0xff == 17 {
            break;
        }
        x ^= k;
        k += 1;
    }
    x.wrapping_add(k * 1000)
}

fn continue_and_break(x: i32) -> i32 {
    let mut s = 0;
    for k in 0..64 {
        if (x + k) % 3 == 0 {
            continue;
        }
        if s > x {
            break;
        }
        s += k;
    }
    s
}

fn nested_break_outer(x: i32) -> i32 {
    let mut found = -1;
    let mut a = 0;
    while a < 10 && found < 0 {
        for b in 0..10 {
            if a * 10 + b == x {
                found = a * 100 + b;
                break;
            }
        }
        a += 1;
    }
    found
}

fn early_returns(x: i32) -> i32 {
    if x < 0 {
        return 0;
    }
    for k in 0..20 {
        if x == k * 7 {
            return 100 + k;
        }
    }
    if x > 1000 {
        return 1;
    }
    2
}

fn several_exits(x0: i32) -> i32 {
    let mut x = x0;
    let mut k = 0;
    loop {
        if x == 1 {
            return 1000 + k;
        }
        if k > 40 {
            return -1;
        }
        if x % 97 == 0 {
            return 2000 + k;
        }
        x = if x & 1 != 0 {
            x.wrapping_mul(3).wrapping_add(1)
        } else {
            x / 2
        };
        k += 1;
    }
}

fn short_circuit(x: i32, y: i32) -> i32 {
    if (x > 0 && y > 0) || (x < -50 && y < -50) {
        x.wrapping_add(y)
    } else if x == y || x == y.wrapping_neg() {
        7
    } else {
        x.wrapping_sub(y)
    }
}

fn do_while_nested(x0: i32) -> i32 {
    let mut x = x0 & 0xffff;
    let mut steps = 0;
    loop {
        let mut y = x;
        loop {
            y >>= 1;
            steps += 1;
            if y <= 3 {
                break;
            }
        }
        x -= 37;
        if x <= 0 {
            break;
        }
    }
    steps
}

fn uniform_loop_divergent_exit(inp: &[i32], i: usize, n: i32) -> i32 {
    let mut acc = 0i32;
    for k in 0..n as usize {
        acc = acc.wrapping_add(inp[(i + k) % 256]);
        if acc > 5000 {
            break;
        }
    }
    acc
}

fn map1(f: fn(i32) -> i32) -> impl Fn(&Run) -> Vec<i32> {
    move |r: &Run| r.input::<i32>(0).iter().map(|&x| f(x)).collect()
}

pub fn cases() -> Vec<Case> {
    let small = |seed| rand_i32(256, seed, -20, 120);
    vec![
        case(F, "switch_fallthrough")
            .global(&[256])
            .buf(rand_i32(256, 1, -1000, 1000))
            .out::<i32>(256)
            .expect(1, map1(switch_fallthrough)),
        case(F, "switch_in_loop")
            .global(&[256])
            .buf(rand_i32(256, 2, 0, 1000))
            .out::<i32>(256)
            .expect(1, map1(switch_in_loop)),
        case(F, "break_in_body")
            .global(&[256])
            .buf(rand_i32(256, 3, -100_000, 100_000))
            .out::<i32>(256)
            .val(300i32)
            .expect(1, |r| {
                let n: i32 = r.value(2);
                r.input::<i32>(0)
                    .iter()
                    .map(|&x| break_in_body(x, n))
                    .collect()
            }),
        case(F, "continue_and_break")
            .global(&[256])
            .buf(rand_i32(256, 4, -10, 600))
            .out::<i32>(256)
            .expect(1, map1(continue_and_break)),
        case(F, "nested_break_outer")
            .global(&[256])
            .buf(small(5))
            .out::<i32>(256)
            .expect(1, map1(nested_break_outer)),
        case(F, "early_returns")
            .global(&[256])
            .buf(rand_i32(256, 6, -50, 1200))
            .out::<i32>(256)
            .expect(1, map1(early_returns)),
        case(F, "several_exits")
            .global(&[256])
            .buf(rand_i32(256, 7, 1, 100_000))
            .out::<i32>(256)
            .expect(1, map1(several_exits)),
        case(F, "short_circuit")
            .global(&[256])
            .buf(rand_i32(256, 8, -100, 100))
            .buf(rand_i32(256, 9, -100, 100))
            .out::<i32>(256)
            .expect(2, |r| {
                let (a, b) = (r.input::<i32>(0), r.input::<i32>(1));
                a.iter()
                    .zip(&b)
                    .map(|(&x, &y)| short_circuit(x, y))
                    .collect()
            }),
        case(F, "do_while_nested")
            .global(&[256])
            .buf(rand_i32(256, 10, 0, 4000))
            .out::<i32>(256)
            .expect(1, map1(do_while_nested)),
        case(F, "uniform_loop_divergent_exit")
            .global(&[256])
            .buf(rand_i32(256, 11, -20, 200))
            .out::<i32>(256)
            .val(200i32)
            .expect(1, |r| {
                let inp = r.input::<i32>(0);
                let n: i32 = r.value(2);
                (0..256)
                    .map(|i| uniform_loop_divergent_exit(&inp, i, n))
                    .collect()
            }),
    ]
}
