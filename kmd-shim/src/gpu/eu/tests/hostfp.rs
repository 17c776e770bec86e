//! The host's own IEEE arithmetic in the host's rounding modes (x86-64
//! SSE and glibc's `fma` honour MXCSR / fesetround): a reference this
//! project did not write. `black_box` keeps each operation between the
//! two `fesetround` calls.

use super::super::float::Round;
use std::hint::black_box;

extern "C" {
    fn fesetround(mode: i32) -> i32;
}

fn fe(rm: Round) -> i32 {
    match rm {
        Round::Rtne => 0,
        Round::Rd => 0x400,
        Round::Ru => 0x800,
        Round::Rtz => 0xC00,
    }
}

pub fn with<T>(rm: Round, f: impl FnOnce() -> T) -> T {
    // SAFETY: fesetround only changes this thread's floating-point
    // environment; it is restored before returning.
    unsafe { fesetround(fe(rm)) };
    let r = black_box(f());
    // SAFETY: as above, back to round-to-nearest-even.
    unsafe { fesetround(0) };
    r
}

pub fn add64(a: f64, b: f64, rm: Round) -> f64 {
    with(rm, || black_box(a) + black_box(b))
}
pub fn mul64(a: f64, b: f64, rm: Round) -> f64 {
    with(rm, || black_box(a) * black_box(b))
}
pub fn fma64(a: f64, b: f64, c: f64, rm: Round) -> f64 {
    with(rm, || black_box(a).mul_add(black_box(b), black_box(c)))
}
pub fn add32(a: f32, b: f32, rm: Round) -> f32 {
    with(rm, || black_box(a) + black_box(b))
}
pub fn mul32(a: f32, b: f32, rm: Round) -> f32 {
    with(rm, || black_box(a) * black_box(b))
}
pub fn narrow(a: f64, rm: Round) -> f32 {
    with(rm, || black_box(a) as f32)
}
pub fn from_i64(v: i64, rm: Round) -> f64 {
    with(rm, || black_box(v) as f64)
}
