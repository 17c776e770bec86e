//! The corpus DSL: one `Case` per kernel launch of the IGC corpus, with its
//! inputs and the CPU reference its outputs must equal.
//!
//! A case names a kernel of a file in `tests/igc/`, its ND-range, its
//! arguments in order, and checks. Each check compares one output buffer
//! with a reference the test computes on the CPU from the inputs.
#![allow(dead_code)]

use std::fmt::Debug;

/// An element type of a buffer or a by-value argument.
pub trait Elem: Copy + Debug + PartialEq + 'static {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

macro_rules! elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("element size"))
            }
        }
    )*};
}
elem!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// Bytes of a slice of elements, little endian.
pub fn bytes_of<T: Elem>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * T::SIZE);
    for x in v {
        x.put(&mut out);
    }
    out
}

/// Elements of little-endian bytes (a trailing partial element is ignored).
pub fn elems_of<T: Elem>(b: &[u8]) -> Vec<T> {
    b.chunks_exact(T::SIZE).map(T::get).collect()
}

/// One kernel argument.
#[derive(Clone, Debug)]
pub enum Arg {
    /// A global (or constant) buffer with these initial bytes.
    Buffer(Vec<u8>),
    /// A by-value argument: these bytes, exactly the size the kernel declares.
    Value(Vec<u8>),
    /// A `__local` pointer argument of this many bytes.
    Local(usize),
    /// An image laid out as `surface` says, with these initial bytes.
    Image(gencl::submit::images::ImageSurface, Vec<u8>),
    /// A sampler.
    Sampler(gencl::submit::images::SamplerValue),
}

/// What a launch left behind: each argument's initial bytes and final bytes
/// (by-value and local arguments: final = initial / empty).
pub struct Run {
    pub inputs: Vec<Vec<u8>>,
    pub outputs: Vec<Vec<u8>>,
    /// The launch shape, for references that depend on it.
    pub global: [usize; 3],
    pub local: [usize; 3],
    /// Host seconds spent in the launch (batch, execbuffer2, the GPU model).
    pub launch_secs: f64,
}

impl Run {
    /// Initial contents of argument `arg` (buffer or value).
    pub fn input<T: Elem>(&self, arg: usize) -> Vec<T> {
        elems_of(&self.inputs[arg])
    }
    /// Final contents of buffer argument `arg`.
    pub fn output<T: Elem>(&self, arg: usize) -> Vec<T> {
        elems_of(&self.outputs[arg])
    }
    /// Initial value of by-value argument `arg`.
    pub fn value<T: Elem>(&self, arg: usize) -> T {
        T::get(&self.inputs[arg][..T::SIZE])
    }
}

pub type Check = Box<dyn Fn(&Run) -> Result<(), String>>;

/// One launch of one kernel of the corpus.
pub struct Case {
    /// File under tests/igc/, e.g. "integer.cl".
    pub file: &'static str,
    pub kernel: &'static str,
    pub global: Vec<usize>,
    pub local: Option<Vec<usize>>,
    pub args: Vec<Arg>,
    pub checks: Vec<Check>,
}

/// Start a case for `kernel` of `tests/igc/<file>`.
pub fn case(file: &'static str, kernel: &'static str) -> Case {
    Case {
        file,
        kernel,
        global: vec![64],
        local: None,
        args: Vec::new(),
        checks: Vec::new(),
    }
}

impl Case {
    /// The launch shape: dimensions, global and local sizes in three dimensions. The local
    /// size is the case's, else the largest divisor of global[0] up to 64 (1 elsewhere).
    pub fn shape(&self) -> Result<(usize, [usize; 3], [usize; 3]), String> {
        let dims = self.global.len();
        if !(1..=3).contains(&dims) {
            return Err(format!("{dims}-dimensional range"));
        }
        let mut global = [1usize; 3];
        global[..dims].copy_from_slice(&self.global);
        let mut local = [1usize; 3];
        match &self.local {
            Some(l) if l.len() == dims => local[..dims].copy_from_slice(l),
            Some(l) => return Err(format!("local size {l:?} for a {dims}-D range")),
            None => {
                local[0] = (1..=64.min(global[0]))
                    .rev()
                    .find(|d| global[0] % d == 0)
                    .unwrap_or(1)
            }
        }
        Ok((dims, global, local))
    }

    /// Global size, 1 to 3 dimensions (default: [64]).
    pub fn global(mut self, g: &[usize]) -> Self {
        self.global = g.to_vec();
        self
    }
    /// Local size (default: the largest divisor of global[0] up to 64, 1 in other dimensions).
    pub fn local(mut self, l: &[usize]) -> Self {
        self.local = Some(l.to_vec());
        self
    }
    /// A buffer argument initialised with `data`.
    pub fn buf<T: Elem>(mut self, data: Vec<T>) -> Self {
        self.args.push(Arg::Buffer(bytes_of(&data)));
        self
    }
    /// A buffer argument of `n` elements of T, initialised to a fill pattern (bytes 0xA5)
    /// so a kernel that fails to write is caught.
    pub fn out<T: Elem>(mut self, n: usize) -> Self {
        self.args.push(Arg::Buffer(vec![0xA5; n * T::SIZE]));
        self
    }
    /// A by-value argument.
    pub fn val<T: Elem>(mut self, v: T) -> Self {
        self.args.push(Arg::Value(bytes_of(&[v])));
        self
    }
    /// A by-value argument given as raw bytes (vectors, structs).
    pub fn val_bytes(mut self, b: Vec<u8>) -> Self {
        self.args.push(Arg::Value(b));
        self
    }
    /// An image argument laid out as `surface`, with initial bytes `data`.
    pub fn image(mut self, surface: gencl::submit::images::ImageSurface, data: Vec<u8>) -> Self {
        self.args.push(Arg::Image(surface, data));
        self
    }
    /// A sampler argument.
    pub fn sampler(mut self, s: gencl::submit::images::SamplerValue) -> Self {
        self.args.push(Arg::Sampler(s));
        self
    }
    /// A `__local` pointer argument of `bytes` bytes.
    pub fn local_arg(mut self, bytes: usize) -> Self {
        self.args.push(Arg::Local(bytes));
        self
    }
    /// Buffer `arg` must end up exactly equal to `reference(run)`.
    pub fn expect<T: Elem>(
        mut self,
        arg: usize,
        reference: impl Fn(&Run) -> Vec<T> + 'static,
    ) -> Self {
        self.checks.push(Box::new(move |r: &Run| {
            expect_eq(&r.output::<T>(arg), &reference(r))
                .map_err(|e| format!("argument {arg}: {e}"))
        }));
        self
    }
    /// Float buffer `arg` must be within `ulps` of `reference(run)` element-wise
    /// (NaN matches NaN; infinities must match exactly).
    pub fn expect_f32(
        mut self,
        arg: usize,
        ulps: u32,
        reference: impl Fn(&Run) -> Vec<f32> + 'static,
    ) -> Self {
        self.checks.push(Box::new(move |r: &Run| {
            expect_ulp(&r.output::<f32>(arg), &reference(r), u64::from(ulps))
                .map_err(|e| format!("argument {arg}: {e}"))
        }));
        self
    }
    /// As `expect_f32`, for doubles.
    pub fn expect_f64(
        mut self,
        arg: usize,
        ulps: u64,
        reference: impl Fn(&Run) -> Vec<f64> + 'static,
    ) -> Self {
        self.checks.push(Box::new(move |r: &Run| {
            expect_ulp(&r.output::<f64>(arg), &reference(r), ulps)
                .map_err(|e| format!("argument {arg}: {e}"))
        }));
        self
    }
    /// Any other check (order-independent results of atomics, say).
    pub fn check(mut self, f: impl Fn(&Run) -> Result<(), String> + 'static) -> Self {
        self.checks.push(Box::new(f));
        self
    }
}

/// Floats within `tol` of a reference (a NaN anywhere differs), with a report of the first
/// differences: for results whose rounding the spec leaves open (filtering, conversions).
pub fn expect_close(got: &[f32], want: &[f64], tol: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} values, {} expected", got.len(), want.len()));
    }
    let off = |g: f32, w: f64| (f64::from(g) - w).abs() > tol || g.is_nan() || w.is_nan();
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| off(**g, **w))
        .take(6)
        .map(|(i, (g, w))| format!("[{i}] got {g} want {w}"))
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let n = got.iter().zip(want).filter(|(g, w)| off(**g, **w)).count();
    Err(format!("{n} of {} differ: {}", got.len(), bad.join(", ")))
}

/// Exact equality with a readable report of the first differences.
pub fn expect_eq<T: Elem>(got: &[T], want: &[T]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("length {} != reference {}", got.len(), want.len()));
    }
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| g != w)
        .take(8)
        .map(|(i, (g, w))| format!("[{i}] got {g:?} want {w:?}"))
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        let n = got.iter().zip(want).filter(|(g, w)| g != w).count();
        Err(format!("{n} of {} differ: {}", got.len(), bad.join(", ")))
    }
}

/// A float element type compared in units in the last place.
pub trait Float: Elem + std::fmt::LowerExp {
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    /// The bits as a signed integer ordered like the values (-0 and +0 adjacent).
    fn ordered(self) -> i128;
}

macro_rules! float {
    ($($t:ty, $i:ty);*) => {$(
        impl Float for $t {
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
            fn ordered(self) -> i128 {
                let i = self.to_bits() as $i;
                if i < 0 {
                    <$i>::MIN.wrapping_sub(i) as i128
                } else {
                    i as i128
                }
            }
        }
    )*};
}
float!(f32, i32; f64, i64);

/// Distance in ulps; NaN matches NaN, and anything else against NaN or an
/// infinity is infinitely far unless equal.
fn ulp_dist<T: Float>(a: T, b: T) -> u64 {
    if (a.is_nan() && b.is_nan()) || a == b {
        return 0;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
        return u64::MAX;
    }
    (a.ordered() - b.ordered())
        .unsigned_abs()
        .min(u64::MAX as u128) as u64
}

/// Element-wise within `ulps` of the reference, with a readable report.
pub fn expect_ulp<T: Float>(got: &[T], want: &[T], ulps: u64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("length {} != reference {}", got.len(), want.len()));
    }
    let bad: Vec<(usize, T, T, u64)> = got
        .iter()
        .zip(want)
        .enumerate()
        .map(|(i, (g, w))| (i, *g, *w, ulp_dist(*g, *w)))
        .filter(|x| x.3 > ulps)
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = bad
        .iter()
        .take(8)
        .map(|(i, g, w, d)| format!("[{i}] got {g:e} want {w:e} ({d} ulp)"))
        .collect();
    Err(format!(
        "{} of {} beyond {ulps} ulp: {}",
        bad.len(),
        got.len(),
        shown.join(", ")
    ))
}

/// A check that buffer `arg`, read as groups of `ulps.len()` floats, is within
/// `ulps[k]` of the reference in slot k of every group.
pub fn slots<T: Float>(
    arg: usize,
    ulps: &'static [u64],
    reference: impl Fn(&Run) -> Vec<T> + 'static,
) -> Check {
    Box::new(move |r: &Run| {
        let (got, want) = (r.output::<T>(arg), reference(r));
        if got.len() != want.len() {
            return Err(format!(
                "argument {arg}: length {} != {}",
                got.len(),
                want.len()
            ));
        }
        let k = ulps.len();
        for (s, u) in ulps.iter().enumerate() {
            let g: Vec<T> = got.iter().skip(s).step_by(k).copied().collect();
            let w: Vec<T> = want.iter().skip(s).step_by(k).copied().collect();
            expect_ulp(&g, &w, *u).map_err(|e| format!("argument {arg} slot {s}: {e}"))?;
        }
        Ok(())
    })
}

/// Deterministic pseudo-random inputs (splitmix64), so every run sees the same data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `n` integers of every bit pattern of T (full range).
pub fn rand_bits<T: Elem>(n: usize, seed: u64) -> Vec<T> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| T::get(&r.next_u64().to_le_bytes()[..T::SIZE]))
        .collect()
}

/// `n` i32 in [lo, hi).
pub fn rand_i32(n: usize, seed: u64, lo: i32, hi: i32) -> Vec<i32> {
    let mut r = Rng::new(seed);
    let span = (hi as i64 - lo as i64) as u64;
    (0..n)
        .map(|_| (lo as i64 + (r.next_u64() % span) as i64) as i32)
        .collect()
}

/// `n` f32 uniform in [lo, hi).
pub fn rand_f32(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| lo + (hi - lo) * ((r.next_u64() >> 40) as f32 / (1u64 << 24) as f32))
        .collect()
}

/// `n` f64 uniform in [lo, hi).
pub fn rand_f64(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut r = Rng::new(seed);
    (0..n)
        .map(|_| lo + (hi - lo) * ((r.next_u64() >> 11) as f64 / (1u64 << 53) as f64))
        .collect()
}

/// One winner per claimed slot: `slots[s]` is the tag of the one item with key `s` whose
/// exchange succeeded (`won` 1, every other 0); a slot nobody claimed keeps `empty`.
pub fn check_claims(
    keys: &[usize],
    slots: &[i64],
    won: &[i64],
    empty: i64,
    tag: impl Fn(usize) -> i64,
) -> Result<(), String> {
    if let Some(i) = won.iter().position(|&w| w != 0 && w != 1) {
        return Err(format!("won[{i}] = {}", won[i]));
    }
    let mut claimants = vec![Vec::new(); slots.len()];
    for (i, &k) in keys.iter().enumerate() {
        claimants[k].push(i);
    }
    for (s, (&v, c)) in slots.iter().zip(&claimants).enumerate() {
        let winners: Vec<usize> = c.iter().copied().filter(|&i| won[i] == 1).collect();
        if c.is_empty() {
            if v != empty {
                return Err(format!("slot {s}: nobody claimed it, holds {v:#x}"));
            }
        } else if winners.len() != 1 || tag(winners[0]) != v {
            return Err(format!(
                "slot {s} holds {v:#x}; winners {winners:?} of claimants {c:?}"
            ));
        }
    }
    Ok(())
}
