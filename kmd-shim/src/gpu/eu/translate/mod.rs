//! Translation of hot straight-line runs of decoded Gen ISA to host code (Cranelift).
//!
//! The interpreter counts how often each instruction is reached; when one has been reached
//! `Policy::hot` times, the run of translatable instructions starting there (planned 32-bit
//! ALU instructions, `emit::translatable`; at most `MAX_RUN`) is compiled to one host
//! function, which then runs in place of the interpreter from any instruction of the run.
//! SIMD control flow (`while`, `goto`, `join`, `endif`, `if`) is part of a run where it
//! parks no channel: every enabled channel goes the same way (a loop's back edge, a
//! forward `goto` every channel takes, over the joins on its way); where it would park
//! some, the run leaves before it for the interpreter (`emit::simd_flow`). Data-port sends
//! are part of runs too: the code leaves before one (`code::STOP_SEND`), `Run::exec` has the
//! EU around it (`Host`) send it, as the interpreter's step does (the data port, the send
//! counters, the scoreboard), and enters the code again after it; an instruction that
//! touches a register a send of the run replies to leaves first when a reply may be on its
//! way there (`code::STOP_WAIT`), for the host to wait as the interpreter's scoreboard does.
//! The code calls nothing for them: the host has the thread between two calls of the
//! code, in plain Rust, with nothing else holding it. Every other shape (the gateway, end
//! of thread, a thread switch) ends a run and stays in the interpreter, which keeps the
//! thread scheduling and the end of a quantum.
//!
//! - `emit`: the Cranelift IR of a run;
//! - `code`: executable memory.
//!
//! Decided (docs/gpu-model.md, "Translation"): Cranelift, for its vector IR (SIMD8/16/32
//! lanes as 128-bit host vectors), its register allocator and its x86-64 and AArch64
//! back ends, over a code generator of our own. `GENCL_TRANSLATE=0` turns translation off.

pub mod code;
pub mod emit;

use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;

use super::alu::CR0_FP32_DENORM_KEEP;
use super::fast::Plan;
use super::float::CR0_ROUND_MASK;
use super::program::{ExecInst, GRF_BYTES};
use super::thread::Thread;

pub use emit::translatable;

use crate::gpu::GpuError;

/// The EU around a run, for its sends and its scoreboard waits (`Run::exec`). `issue` is
/// the run's issue cycles so far: the thread's cycle at that instruction is its cycle at
/// the run's entry plus them, plus what it waited.
pub trait Host {
    /// The data-port send at `addr` of thread `t`, as the interpreter's step does it.
    fn send(&mut self, t: &mut Thread, addr: u64, issue: u64) -> Result<(), GpuError>;
    /// Before an instruction that touches `grfs`: wait for the replies landing there.
    fn wait(&mut self, grfs: u128, issue: u64);
    /// The SIMD flow instruction at `addr` of thread `t` that parks channels (or finds
    /// none enabled), as the interpreter's step does it.
    fn flow(&mut self, t: &mut Thread, addr: u64, issue: u64) -> Result<(), GpuError>;
    /// The GRFs replies may still be on their way to.
    fn busy(&self) -> u128;
}

/// Instructions a run holds at most (its position is kept in 8 bits).
pub const MAX_RUN: usize = 255;
/// Runs shorter than this stay in the interpreter (a call costs about an instruction).
pub const MIN_RUN: usize = 2;
/// Times an instruction is reached before the run from it is translated. Compiling a run
/// costs about a millisecond of Cranelift (a few million host instructions), which the run
/// repays after some hundreds of reaches; at 16 the CTS's thousands of short kernels (each
/// variant of test_c11_atomics a program of its own, run once) paid more to compile than
/// they ran (docs/gpu-model.md, "When a run is translated").
pub const HOT: u16 = 512;

/// Whether and when a program translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub on: bool,
    /// Reaches of an instruction before its run is translated (at least 1).
    pub hot: u16,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            on: enabled(),
            hot: HOT,
        }
    }
}

/// `GENCL_TRANSLATE=0` (read once) turns translation off; so does a host Cranelift has no
/// back end for.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("GENCL_TRANSLATE").map_or(true, |v| v != "0") && isa().is_some()
    })
}

/// `GENCL_TRANSLATE_DUMP=DIR`: write each translated run's host code to DIR (read once).
fn dump_dir() -> Option<&'static std::path::Path> {
    static DIR: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| std::env::var_os("GENCL_TRANSLATE_DUMP").map(Into::into))
        .as_deref()
}

/// The host's ISA with the features it has (AVX, SSE4.1, FMA, ...), built once.
fn isa() -> Option<&'static OwnedTargetIsa> {
    static ISA: OnceLock<Option<OwnedTargetIsa>> = OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        let ok = flags.set("opt_level", "speed").is_ok()
            && flags
                .set(
                    "enable_verifier",
                    if cfg!(debug_assertions) { "true" } else { "false" },
                )
                .is_ok();
        if !ok {
            return None;
        }
        match cranelift_native::builder() {
            Ok(b) => match b.finish(settings::Flags::new(flags)) {
                Ok(isa) => Some(isa),
                Err(e) => {
                    tracing::info!(error = %e, "no Cranelift ISA for this host: the GPU model interprets");
                    None
                }
            },
            Err(e) => {
                tracing::info!(error = e, "no Cranelift back end for this host: the GPU model interprets");
                None
            }
        }
    })
    .as_ref()
}

/// One translated run: its code, which programs with the same instructions share
/// (`Compiled`), where this program has it, and when it was checked.
pub struct Run {
    compiled: Arc<Compiled>,
    /// Address of its first instruction (the code's addresses are offsets from it).
    base: u64,
    /// The program's launch generation when it was translated (its instructions checked).
    pub generation: u64,
}

/// A run's host code and what is known of its instructions, all of it independent of
/// where they sit (`emit::function` gives addresses as offsets from the first).
struct Compiled {
    code: code::Code,
    entry: code::RunFn,
    /// Its instructions' plans: the code holds their addresses (`code::slow_float`).
    #[allow(dead_code)]
    plans: Box<[Option<Plan>]>,
    /// Each instruction's offset from the first, and the offset after it.
    offsets: Box<[u64]>,
    ends: Box<[u64]>,
    /// cr0's denormal mode it was compiled for.
    ftz: bool,
    /// Run with the host's denormals-are-zero mode on (`emit::function`).
    daz: bool,
    /// Some instruction rounds: cr0 must say round-to-nearest-even.
    rtne: bool,
    /// The GRFs its instructions read or write, but those its sends reply to (the
    /// scoreboard's check at its entry; the run checks those itself).
    touch: u128,
    /// Each instruction's GRFs, for a run entered while a reply is on its way to some, and
    /// for its in-run waits.
    touches: Box<[u128]>,
    /// Each instruction: it may be followed by one other than the next (`emit::jumps`).
    jumps: Box<[bool]>,
    /// Each instruction: the first at or after it that may jump (the last one if none).
    next_jump: Box<[u32]>,
}

/// Compiled runs by their instructions (each one's length and encoding) and denormal
/// mode, for every program of the process: the CTS builds a program for each variant of a
/// test (test_c11_atomics: about 1,300 a sub-test), most of them the same code, and a run's
/// compile costs as much as some hundreds of its executions. At `CACHED_RUNS` it is
/// emptied and fills again.
static CACHE: Mutex<Option<Shared>> = Mutex::new(None);
#[derive(Default)]
struct Shared {
    runs: FxHashMap<Box<[u8]>, Arc<Compiled>>,
    /// The keys of the cached runs' first instructions: a probe whose first instruction
    /// starts none stops there (`Run::may_share`), without decoding and encoding the run
    /// after it, which for runs with their sends was hundreds of instructions.
    heads: rustc_hash::FxHashSet<Box<[u8]>>,
}
const CACHED_RUNS: usize = 2048;

/// A run's key in `CACHE`: each instruction's length and native encoding, and `ftz`;
/// `None` for an instruction the encoder does not take (that run is not shared).
fn cache_key(insts: &[ExecInst], ftz: bool) -> Option<Box<[u8]>> {
    let mut key = Vec::with_capacity(1 + 17 * insts.len());
    key.push(u8::from(ftz));
    for i in insts {
        key.push(i.len);
        key.extend_from_slice(&gencl_isa::gen9::encode(&i.inst).ok()?);
    }
    Some(key.into_boxed_slice())
}

/// What running part of a run did.
#[derive(Default)]
pub struct Ran {
    pub instructions: usize,
    pub lanes: u32,
    pub issue: u64,
}

impl Compiled {
    /// Compile `insts` (consecutive, each `translatable`) for cr0's denormal mode `ftz`.
    fn new(insts: &[ExecInst], ftz: bool) -> Result<Compiled, String> {
        let isa = isa().ok_or("no Cranelift back end for this host")?;
        let daz = ftz && code::HOST_DAZ;
        // The plans the run's slow calls read (`code::slow_float`), kept with its code.
        let plans: Box<[Option<Plan>]> = insts.iter().map(|i| i.fast).collect();
        let func = emit::function(&**isa, insts, &plans, ftz, daz);
        let mut ctx = Context::for_function(func);
        let dump = dump_dir();
        ctx.set_disasm(dump.is_some());
        let compiled = ctx
            .compile(&**isa, &mut ControlPlane::default())
            .map_err(|e| format!("Cranelift: {:?}", e.inner))?;
        if !compiled.buffer.relocs().is_empty() {
            return Err("the run's code has relocations".into());
        }
        if let (Some(dir), Some(text)) = (dump, &compiled.vcode) {
            // As GENCL_DUMP does for kernels: one file per run, named by its first address.
            let path = dir.join(format!("run-{:x}-{}.s", insts[0].addr, insts.len()));
            if let Err(e) = std::fs::write(&path, text) {
                tracing::warn!(path = %path.display(), error = %e, "cannot write a translated run");
            }
        }
        let code = code::Code::new(compiled.code_buffer()).map_err(|e| e.to_string())?;
        let jumps: Box<[bool]> = insts.iter().map(|i| emit::jumps(i.op)).collect();
        let entry = code.entry();
        Ok(Compiled {
            code,
            entry,
            plans,
            offsets: insts
                .iter()
                .map(|i| i.addr.wrapping_sub(insts[0].addr))
                .collect(),
            ends: insts
                .iter()
                .map(|i| (i.addr + u64::from(i.len)).wrapping_sub(insts[0].addr))
                .collect(),
            ftz,
            daz,
            rtne: insts.iter().any(emit::needs_rtne),
            touch: insts.iter().fold(0, |m, i| m | emit::touched(i)) & !emit::replies(insts),
            touches: insts.iter().map(emit::touched).collect(),
            next_jump: next_jumps(&jumps),
            jumps,
        })
    }
}

/// For each instruction of a run whose instructions may jump where `jumps` says, the first
/// at or after it that may (the last instruction if none does).
fn next_jumps(jumps: &[bool]) -> Box<[u32]> {
    let last = jumps.len().saturating_sub(1) as u32;
    let mut next = vec![last; jumps.len()];
    for j in (0..jumps.len()).rev() {
        if jumps[j] {
            next[j] = j as u32;
        } else if j + 1 < jumps.len() {
            next[j] = next[j + 1];
        }
    }
    next.into_boxed_slice()
}

impl Run {
    /// Compile `insts` (consecutive, each `translatable`) for cr0's denormal mode `ftz`.
    pub fn compile(insts: &[ExecInst], ftz: bool, generation: u64) -> Result<Run, String> {
        if insts.is_empty() || insts.len() > MAX_RUN || !insts.iter().all(translatable) {
            return Err("not a run of translatable instructions".into());
        }
        let key = cache_key(insts, ftz);
        let shared = key
            .as_ref()
            .and_then(|k| CACHE.lock().as_ref().and_then(|c| c.runs.get(k).cloned()));
        let compiled = match shared {
            Some(c) => c,
            None => {
                let c = Arc::new(Compiled::new(insts, ftz)?);
                if let Some(k) = key {
                    let mut cache = CACHE.lock();
                    let shared = cache.get_or_insert_with(Shared::default);
                    if shared.runs.len() >= CACHED_RUNS {
                        shared.runs.clear();
                        shared.heads.clear();
                    }
                    shared.runs.insert(k, Arc::clone(&c));
                    if let Some(h) = cache_key(&insts[..1], ftz) {
                        shared.heads.insert(h);
                    }
                }
                c
            }
        };
        Ok(Run {
            compiled,
            base: insts[0].addr,
            generation,
        })
    }

    /// The run of `insts` if some program has compiled it (`CACHE`), else `None`.
    pub fn shared(insts: &[ExecInst], ftz: bool, generation: u64) -> Option<Run> {
        let key = cache_key(insts, ftz)?;
        let compiled = CACHE.lock().as_ref()?.runs.get(&key).cloned()?;
        Some(Run {
            compiled,
            base: insts[0].addr,
            generation,
        })
    }

    /// Whether some program's compiled run starts with `first` (a run from it may be
    /// shared: `shared`).
    pub fn may_share(first: &ExecInst, ftz: bool) -> bool {
        let Some(head) = cache_key(std::slice::from_ref(first), ftz) else {
            return false;
        };
        CACHE
            .lock()
            .as_ref()
            .is_some_and(|c| c.heads.contains(&head))
    }

    /// The GRFs its instructions read or write but its sends' replies (the scoreboard's
    /// check at its entry).
    pub fn touch(&self) -> u128 {
        self.compiled.touch
    }

    /// Whether `other` runs this run's code.
    #[cfg(test)]
    pub fn same_code(&self, other: &Run) -> bool {
        Arc::ptr_eq(&self.compiled, &other.compiled)
    }

    /// How many of its instructions from position `k` on (at most `budget`) may run before
    /// the first whose registers `clear` refuses: a reply on its way lands there, and the
    /// interpreter waits at that instruction as it would have (the ones before it do not
    /// wait). Only instructions that run in their order are counted: up to the first that
    /// may jump, included.
    pub fn clear_prefix(
        &self,
        k: usize,
        budget: usize,
        mut clear: impl FnMut(u128) -> bool,
    ) -> usize {
        self.in_order(k, budget, |j| clear(self.compiled.touches[j]))
    }

    /// Instructions from position `k` (at most `budget`) that run in their order, before
    /// the first that `ok` refuses: up to the first that may jump, included.
    fn in_order(&self, k: usize, budget: usize, mut ok: impl FnMut(usize) -> bool) -> usize {
        let mut n = 0;
        for j in k..self.len() {
            if n == budget || !ok(j) {
                break;
            }
            n += 1;
            if self.compiled.jumps[j] {
                break;
            }
        }
        n
    }

    pub fn len(&self) -> usize {
        self.compiled.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.compiled.offsets.is_empty()
    }

    /// Address of its instruction `k`.
    fn addr(&self, k: usize) -> u64 {
        self.base.wrapping_add(self.compiled.offsets[k])
    }

    /// Bytes of host code.
    pub fn code_bytes(&self) -> usize {
        self.compiled.code.len()
    }

    /// Whether the run computes what the interpreter does under `cr0`.
    pub fn applies(&self, cr0: u32) -> bool {
        let c = &self.compiled;
        (cr0 & CR0_FP32_DENORM_KEEP == 0) == c.ftz && (!c.rtne || cr0 & CR0_ROUND_MASK == 0)
    }

    /// Run the run on `t` from its instruction `k`, at most `budget` instructions. Where a
    /// parked channel of `t` waits at one of its instructions (the interpreter wakes it
    /// there), only the instructions before that one that run in their order; `None` when
    /// that is none.
    ///
    /// `free`: no reply on its way lands in a register of the run but those its own sends
    /// reply to (the EU's scoreboard at entry), so that the run may go on wherever its SIMD
    /// flow takes the thread: after a flow instruction that parks channels, which the EU
    /// takes (`Host::flow`), and where parked channels wait, which it wakes as the
    /// interpreter does before an instruction (`flow::wake`), it goes on at the thread's
    /// instruction while that is one of the run's and some channel is enabled. Without
    /// `free`, `budget` counts instructions in their order from `k` and the run ends at its
    /// first jump.
    pub fn exec(
        &self,
        t: &mut Thread,
        k: usize,
        budget: usize,
        free: bool,
        host: &mut dyn Host,
    ) -> Result<Option<Ran>, GpuError> {
        let mut seg = self.segment(t, k, budget);
        if seg == 0 {
            return Ok(None);
        }
        assert!(k < self.len() && t.grf.len() == GRF_BYTES);
        let (mut k, mut budget, mut done) = (k, budget, Ran::default());
        let mut cx = code::Ctx {
            active: t.active,
            dispatch: t.dispatch,
            waiting: t.waiting,
            ..Default::default()
        };
        loop {
            let busy = host.busy();
            cx.start = k as u32;
            // The run counts down in 16 bits (`emit::function`); a quantum is 64.
            cx.budget = seg.min(emit::MAX_BUDGET) as u32;
            cx.busy = [busy as u64, (busy >> 64) as u64];
            cx.stop = 0;
            // SAFETY: `entry` is this run's code (kept alive by `self.compiled.code`), compiled
            // for the `RunFn` signature. It reads and writes only bytes of `t.grf` at offsets
            // `emit::translatable` checked to lie within GRF_BYTES (the length asserted above),
            // the flag dwords of `t.arf` and `cx`; `k < len`, as its jump table expects.
            unsafe {
                code::call(
                    self.compiled.entry,
                    self.compiled.daz,
                    t.grf.as_mut_ptr(),
                    t.arf.as_mut_ptr(),
                    &mut cx,
                )
            };
            cx.ready = 1;
            if cx.slow_panicked != 0 {
                let why = code::take_slow_panic().unwrap_or_default();
                // Raised here, in Rust frames, for the engine to end the batch as the model's
                // error (`backend::emulated`), as an interpreted instruction's panic would.
                panic!("the GPU model, on a translated run's slow path: {why}");
            }
            done.instructions += cx.executed as usize;
            done.lanes += cx.lanes;
            done.issue += u64::from(cx.issue);
            budget -= cx.executed as usize;
            seg -= cx.executed as usize;
            let at = cx.stop_at as usize;
            match cx.stop {
                // Its send, in the EU around it (which counts its lanes and issue cycle), and
                // on after it; the run counts it as an instruction it ran.
                code::STOP_SEND => {
                    host.send(t, self.addr(at), done.issue)?;
                    done.instructions += 1;
                    budget -= 1;
                    seg -= 1;
                    if seg > 0 && at + 1 < self.len() {
                        k = at + 1;
                        continue;
                    }
                    t.ip = self.base.wrapping_add(self.compiled.ends[at]);
                }
                // A reply on its way to a register of instruction `at`: waited for, and on
                // from there.
                code::STOP_WAIT => {
                    host.wait(self.compiled.touches[at], done.issue);
                    k = at;
                    continue;
                }
                // SIMD flow that parks channels: the EU's, as the interpreter's step takes
                // it (it moves the thread's instruction pointer).
                code::STOP_FLOW => {
                    t.ip = self.addr(at);
                    host.flow(t, t.ip, done.issue)?;
                    done.instructions += 1;
                    budget -= 1;
                }
                // The code's addresses are offsets from the run's first instruction.
                _ => t.ip = self.base.wrapping_add(cx.next_ip),
            }
            match self.resume(t, budget, free) {
                Some((j, s)) => {
                    (k, seg) = (j, s);
                    // The channels changed: the entry's per-shape enables are made again.
                    if cx.active != t.active {
                        cx.ready = 0;
                    }
                    cx.active = t.active;
                    cx.waiting = t.waiting;
                }
                None => return Ok(Some(done)),
            }
        }
    }

    /// Where the run goes on after the thread left its code at `t.ip` with `budget`
    /// instructions left (`exec`): what the interpreter does before the instruction there
    /// (parked channels waiting there woken, none enabled: the interpreter's), then the
    /// run's position of it and the instructions it may run from there.
    fn resume(&self, t: &mut Thread, budget: usize, free: bool) -> Option<(usize, usize)> {
        if !free || budget == 0 {
            return None;
        }
        super::flow::wake(t);
        if t.active == 0 {
            return None;
        }
        let off = t.ip.wrapping_sub(self.base);
        let j = self.compiled.offsets.binary_search(&off).ok()?;
        let seg = self.segment(t, j, budget);
        (seg > 0).then_some((j, seg))
    }

    /// Of `budget` instructions from position `k`, those the code may run before it must
    /// leave for the interpreter to wake channels parked at one of the run's instructions:
    /// where some wait, the instructions before the first of them that run in their order.
    fn segment(&self, t: &Thread, k: usize, budget: usize) -> usize {
        let last = self.addr(self.len() - 1);
        if t.waiting == 0 || t.wake_min > last {
            return budget;
        }
        // The first of the run's instructions from `k` on where a channel waits.
        let (mut stop, mut seen) = (usize::MAX, None);
        t.parked_at(u32::MAX, |ip| {
            // Channels parked by one branch wait at one address: looked up once.
            if seen.replace(ip) == Some(ip) {
                return false;
            }
            let off = ip.wrapping_sub(self.base);
            if let Ok(j) = self.compiled.offsets.binary_search(&off) {
                if j >= k {
                    stop = stop.min(j);
                }
            }
            false
        });
        if stop == usize::MAX {
            return budget;
        }
        // In their order: up to the first that may jump, included.
        let jump = self.compiled.next_jump[k] as usize;
        budget.min(stop - k).min(jump + 1 - k)
    }
}

/// A program's runs: per 8-byte unit of the program, the run covering it and how often
/// the interpreter reached it.
#[derive(Default)]
pub struct Runs {
    pub policy: Policy,
    /// (run index + 1) << 8 | position in the run; 0: none.
    entry: Vec<u32>,
    heat: Vec<u16>,
    runs: Vec<Run>,
}

impl std::fmt::Debug for Runs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runs")
            .field("policy", &self.policy)
            .field("runs", &self.runs.len())
            .finish()
    }
}

/// What a reach of an instruction makes of it (`Runs::warm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heat {
    Warming,
    /// The `PROBE`th reach: the run from it is taken if another program compiled it.
    Probe,
    /// `Policy::hot` reaches: the run from it is compiled.
    Hot,
}

/// Reaches after which a run another program compiled is taken (`CACHE`): it costs a
/// look-up, not a compile, so it pays long before `HOT`.
pub const PROBE: u16 = 16;

/// Heat of a unit whose translation failed or was refused: never tried again.
const COLD: u16 = u16::MAX;

impl Runs {
    /// The run and position covering unit `u`.
    #[inline]
    pub fn at(&self, u: usize) -> Option<(usize, usize)> {
        match self.entry.get(u).copied() {
            None | Some(0) => None,
            Some(e) => Some(((e >> 8) as usize - 1, (e & 0xFF) as usize)),
        }
    }

    pub fn run(&self, r: usize) -> &Run {
        &self.runs[r]
    }

    /// Count a reach of unit `u`: whether it has just become hot, or reached `PROBE`.
    #[inline]
    pub fn warm(&mut self, u: usize) -> Heat {
        if self.heat.len() <= u {
            self.heat.resize(u + 1, 0);
        }
        let h = &mut self.heat[u];
        if *h == COLD {
            return Heat::Warming;
        }
        *h += 1;
        if *h >= self.policy.hot.max(1) {
            Heat::Hot
        } else if *h == PROBE {
            Heat::Probe
        } else {
            Heat::Warming
        }
    }

    /// Never translate from unit `u` again.
    pub fn chill(&mut self, u: usize) {
        if let Some(h) = self.heat.get_mut(u) {
            *h = COLD;
        }
    }

    /// Keep `run`, whose instructions sit at units `units`; returns its index.
    pub fn add(&mut self, run: Run, units: &[usize]) -> usize {
        let r = self.runs.len();
        self.runs.push(run);
        for (k, &u) in units.iter().enumerate() {
            if self.entry.len() <= u {
                self.entry.resize(u + 1, 0);
            }
            self.entry[u] = ((r as u32 + 1) << 8) | k as u32;
        }
        r
    }

    /// Forget every run (an instruction of the program changed in memory).
    pub fn clear(&mut self) {
        self.entry.clear();
        self.heat.clear();
        self.runs.clear();
    }

    pub fn len(&self) -> usize {
        self.runs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}
