//! The render command streamer: parses a batch buffer from GPU memory,
//! keeps the pipeline state the packets program, and turns GPGPU_WALKER
//! into thread groups for the EUs, with the thread payload the hardware's
//! thread dispatcher would load (see docs/kmd-shim.md, "Thread payload").

use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tracing::{debug, trace};

use super::binding::Bindings;
use super::dispatcher::GroupDispatch;
pub use super::dispatcher::R0;
use super::eu::cache::{Checkout, LastDispatch, ProgramCache};
use super::pool;
use super::watchdog::{Starvation, Watchdog};
use super::{Counters, GpuError, GpuMemory, ThreadGroup};
use crate::genx::gen9::*;
use crate::genx::Packet;

/// Frequency of the command streamer's TIMESTAMP register on Gen9 (12 MHz),
/// also what I915_PARAM_CS_TIMESTAMP_FREQUENCY reports.
pub const CS_TIMESTAMP_HZ: u64 = 12_000_000;
/// The modelled GT clock: one modelled cycle is 1 ns.
pub const GT_CLOCK_HZ: u64 = 1_000_000_000;
/// Modelled cycles a command costs the command streamer.
const CYCLES_PER_COMMAND: u64 = 8;

/// What a device keeps from one batch to the next besides memory: its clock, and the
/// kernels its EUs have decoded (`eu::cache`).
#[derive(Default)]
pub struct Engine {
    pub clock: GpuClock,
    pub programs: ProgramCache,
}

impl Engine {
    /// A device whose TIMESTAMP register ticks at `hz`.
    pub fn with_frequency(hz: u64) -> Self {
        Engine {
            clock: GpuClock::with_frequency(hz),
            programs: ProgramCache::default(),
        }
    }
}

/// A GPU's free-running clock in modelled cycles. Each device has its own, so that two
/// devices (or the clients of one service on different devices) never share a counter;
/// the TIMESTAMP register reads it at the device's timestamp frequency.
#[derive(Debug)]
pub struct GpuClock {
    cycles: AtomicU64,
    /// TIMESTAMP ticks per second (12 MHz on Gen9, 19.2 MHz on Gen9LP).
    hz: u64,
}

impl Default for GpuClock {
    fn default() -> Self {
        Self::with_frequency(CS_TIMESTAMP_HZ)
    }
}

impl GpuClock {
    pub fn with_frequency(hz: u64) -> Self {
        Self {
            cycles: AtomicU64::new(0),
            hz,
        }
    }

    /// The TIMESTAMP register now.
    pub fn timestamp(&self) -> u64 {
        self.ticks(self.cycles.load(Ordering::Relaxed))
    }

    fn ticks(&self, cycles: u64) -> u64 {
        ((u128::from(cycles) * u128::from(self.hz)) / u128::from(GT_CLOCK_HZ)) as u64
    }
}

/// How much one batch may do before it counts as a hang.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// EU instructions plus dispatched threads.
    pub max_work: u64,
    /// Commands parsed.
    pub max_commands: u64,
    /// Host time from the batch's start past which it is hung, whoever waits (None: no
    /// limit). See `gpu::watchdog`.
    pub max_time: Option<std::time::Duration>,
    /// Host time the batch may hold the engine while another context's batch waits, as
    /// i915's heartbeat and preemption timeout bound it (None: no limit).
    pub max_starved: Option<std::time::Duration>,
    /// Host threads a dispatch's thread groups may run on (`gpu::pool`): the model's
    /// resource, not the hardware's.
    pub host_threads: usize,
    /// Whether hot runs of instructions are translated to host code (`eu::translate`;
    /// default: unless GENCL_TRANSLATE=0), and after how many reaches (`translate::HOT`;
    /// differential tests take 1, so that everything that can be translated is). The
    /// results are the same either way; tests compare.
    pub translate: super::eu::translate::Policy,
    /// When a dispatch of one group spreads its threads over host threads (`eu::lanes`).
    pub spread: Spread,
}

/// When a dispatch of one thread group spreads the group's threads over host threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Spread {
    /// When the kernel's last dispatch showed that it pays (`SPREAD_RUN`).
    #[default]
    Measured,
    /// Always (tests: the lanes' results against one host thread's).
    Always,
    Never,
}

impl Spread {
    /// GENCL_SPREAD: `always`, `never`, else (unset too) `Measured`; read once.
    pub fn from_env() -> Spread {
        static S: std::sync::OnceLock<Spread> = std::sync::OnceLock::new();
        *S.get_or_init(|| match std::env::var("GENCL_SPREAD").as_deref() {
            Ok("always") => Spread::Always,
            Ok("never") => Spread::Never,
            _ => Spread::Measured,
        })
    }
}

/// GENCL_HANG_TIMEOUT_MS, if set to a positive number of milliseconds.
fn hang_timeout_from_env() -> Option<std::time::Duration> {
    std::env::var("GENCL_HANG_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&ms| ms > 0)
        .map(std::time::Duration::from_millis)
}

/// A batch alone on the engine: 10 minutes, about 1.5 s of a Gen9's work at the model's
/// speed (the hardware would not stop it; the model's ceiling ends an endless kernel).
pub const DEFAULT_MAX_TIME: std::time::Duration = std::time::Duration::from_secs(600);
/// A batch that keeps another context waiting: 20 s. i915 resets a Gen9 context whose
/// request blocks its heartbeat for about two 2.5 s intervals; the model cannot preempt a
/// dispatch and runs kernels hundreds of times slower than the hardware, hence more here.
pub const DEFAULT_MAX_STARVED: std::time::Duration = std::time::Duration::from_secs(20);

impl Default for Budget {
    /// The work and command bounds, and the time bounds of `gpu::watchdog`; both time
    /// bounds are GENCL_HANG_TIMEOUT_MS when it is set.
    fn default() -> Self {
        let env = hang_timeout_from_env();
        Self {
            max_work: 1 << 32,
            max_commands: 1 << 20,
            max_time: Some(env.unwrap_or(DEFAULT_MAX_TIME)),
            max_starved: Some(env.unwrap_or(DEFAULT_MAX_STARVED)),
            host_threads: super::pool::host_threads(),
            translate: super::eu::translate::Policy::default(),
            spread: Spread::from_env(),
        }
    }
}

/// Launch-wide facts a thread group needs besides its payload.
#[derive(Debug, Clone)]
pub struct GroupEnv {
    /// General State Base Address (the base of stateless 32-bit offsets).
    pub general_state_base: u64,
    /// EU instructions the group may still issue before the batch hangs.
    pub max_instructions: u64,
    /// When the batch counts as hung by time.
    pub watchdog: Watchdog,
    /// The host thread running the group (`gpu::pool`): whose program it takes.
    pub worker: usize,
    /// Host threads the group's own threads may spread over (`eu::lanes`; 1: the group
    /// runs on `worker` alone). More than one only for a dispatch's single group.
    pub lanes: usize,
}

/// The function that runs a thread group on the EUs (from any of the host threads that
/// run a dispatch), with the dispatch's programs (one a host thread).
pub type Dispatch<'a> = dyn Fn(
        &dyn GpuMemory,
        &ThreadGroup,
        &GroupEnv,
        &Checkout<'_>,
        &mut Counters,
    ) -> Result<(), GpuError>
    + Sync
    + 'a;

/// Runs a thread group on the EU model, with its kernel as the device keeps it decoded:
/// on the worker's host thread, or its threads over `env.lanes` host threads.
pub fn run_on_eus(
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &GroupEnv,
    programs: &Checkout<'_>,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    let launch = crate::gpu::eu::LaunchEnv {
        general_state_base: env.general_state_base,
        max_instructions: env.max_instructions,
        watchdog: env.watchdog.clone(),
    };
    let lanes = env
        .lanes
        .min(tg.threads.len())
        .min(programs.host_threads())
        .min(pool::lanes_available());
    if lanes <= 1 {
        return programs.with(env.worker, mem, |p| {
            crate::gpu::eu::run_program(p, mem, tg, &launch, counters)
        });
    }
    crate::gpu::eu::run_spread(
        mem,
        tg,
        &launch,
        counters,
        lanes,
        |n, f| pool::side_by_side(n, f),
        &|i, f| programs.with(i, mem, |p| f(p)),
    )
}

/// Executes the batch at `batch_addr` to MI_BATCH_BUFFER_END.
pub fn execute_batch(
    mem: &dyn GpuMemory,
    batch_addr: u64,
    budget: &Budget,
    engine: &Engine,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    execute_batch_with(mem, batch_addr, budget, engine, counters, &run_on_eus)
}

/// [`execute_batch`] on a device's engine: the batch also hangs when it keeps the
/// contexts that `starvation` tracks waiting past `Budget::max_starved`.
pub fn execute_batch_on_engine(
    mem: &dyn GpuMemory,
    batch_addr: u64,
    budget: &Budget,
    starvation: &Arc<Starvation>,
    engine: &Engine,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    first_level_batch(
        mem,
        batch_addr,
        budget,
        Some(starvation),
        engine,
        counters,
        &run_on_eus,
    )
}

/// [`execute_batch`] with the thread-group consumer given (tests capture the groups).
pub fn execute_batch_with(
    mem: &dyn GpuMemory,
    batch_addr: u64,
    budget: &Budget,
    engine: &Engine,
    counters: &mut Counters,
    dispatch: &Dispatch<'_>,
) -> Result<(), GpuError> {
    first_level_batch(mem, batch_addr, budget, None, engine, counters, dispatch)
}

/// A first-level batch in the PPGTT, with a fresh engine state.
fn first_level_batch(
    mem: &dyn GpuMemory,
    batch_addr: u64,
    budget: &Budget,
    starvation: Option<&Arc<Starvation>>,
    engine: &Engine,
    counters: &mut Counters,
    dispatch: &Dispatch<'_>,
) -> Result<(), GpuError> {
    let mut state = EngineState::default();
    let mut cs = CommandStreamer::new(mem, None, &mut state, budget, starvation, engine, counters);
    let r = cs.run_batch(batch_addr, Space::Ppgtt, 1, counters, dispatch);
    cs.finish(&engine.clock, counters);
    r
}

/// A ring buffer as the context image describes it (RING_START, RING_CTL's length, and
/// the head and tail offsets), in the GGTT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ring {
    pub start: u64,
    pub size: u64,
    pub head: u64,
    pub tail: u64,
}

/// Runs a context's ring from head to tail with the privileges of the ring: its
/// MI_BATCH_BUFFER_STARTs run batches in the context's PPGTT (`ppgtt`) or the GGTT, and
/// its post-sync writes may target the GGTT. `state` is the context's pipeline state,
/// kept across submissions as the hardware's context image keeps it.
pub fn execute_ring(
    ppgtt: &dyn GpuMemory,
    ggtt: &dyn GpuMemory,
    ring: &Ring,
    state: &mut EngineState,
    budget: &Budget,
    engine: &Engine,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    let mut cs = CommandStreamer::new(ppgtt, Some(ggtt), state, budget, None, engine, counters);
    let r = cs.run_ring(ring, counters, &run_on_eus);
    cs.finish(&engine.clock, counters);
    r
}

/// Where a command is fetched from or a post-sync write lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Space {
    Ppgtt,
    Ggtt,
}

/// The render engine's state that outlives one batch: what the context image saves
/// and restores (pipeline state, base addresses, registers loaded by MI commands).
#[derive(Debug, Default)]
pub struct EngineState(State);

impl EngineState {
    /// An MMIO register as MI_LOAD_REGISTER_IMM last left it.
    pub fn register(&self, offset: u32) -> Option<u32> {
        self.0.registers.get(&offset).copied()
    }
}

#[derive(Debug, Default)]
struct State {
    pipeline: Option<u8>,
    general_base: u64,
    surface_base: u64,
    dynamic_base: u64,
    indirect_base: u64,
    instruction_base: u64,
    vfe: Option<MediaVfeState>,
    curbe: Vec<u8>,
    idds: Vec<InterfaceDescriptorData>,
    /// MMIO registers written by MI_LOAD_REGISTER_IMM (kept; L3CNTLREG is read).
    registers: HashMap<u32, u32>,
    /// STATE_SIP's system routine (relative to the instruction base) and the
    /// preemption save area of GPGPU_CSR_BASE_ADDRESS: kept, never entered (the model
    /// raises no exceptions to a system routine and does not preempt mid-thread).
    sip: Option<u64>,
    csr_base: Option<u64>,
    /// Whether STATE_BASE_ADDRESS was ever executed in this context.
    bases_programmed: bool,
    /// Modelled cycles this context has run (CTX_TIMESTAMP counts only while it runs).
    ctx_cycles: u64,
    /// Whether a GPGPU_WALKER ran since the last stalling PIPE_CONTROL: thread groups
    /// may still be in flight and read the state they were dispatched with.
    work_since_stall: bool,
}

struct CommandStreamer<'m> {
    /// The context's PPGTT: batches, state, and what the EUs reach.
    mem: &'m dyn GpuMemory,
    /// The global GTT, reachable by privileged commands only (the ring's).
    ggtt: Option<&'m dyn GpuMemory>,
    budget: Budget,
    watchdog: Watchdog,
    state: &'m mut State,
    commands: u64,
    work: u64,
    start_cycles: u64,
    /// The TIMESTAMP register's frequency.
    ts_hz: u64,
    eu_cycles0: u64,
    /// The device's decoded kernels.
    programs: &'m ProgramCache,
}

/// A command's dwords as fetched: in place for the lengths batches use (the longest command
/// gencl's and NEO's batches hold, STATE_BASE_ADDRESS, has 19), on the heap beyond, so that
/// fetching a batch allocates nothing.
struct Command {
    inline: [u32; COMMAND_INLINE],
    len: usize,
    heap: Vec<u32>,
}

const COMMAND_INLINE: usize = 32;

impl Command {
    fn read(mem: &dyn GpuMemory, addr: u64, len: usize) -> Result<Command, GpuError> {
        let mut c = Command {
            inline: [0; COMMAND_INLINE],
            len,
            heap: Vec::new(),
        };
        if len <= COMMAND_INLINE {
            let mut bytes = [0u8; 4 * COMMAND_INLINE];
            mem.read(addr, &mut bytes[..4 * len])?;
            for (d, b) in c.inline.iter_mut().zip(bytes[..4 * len].chunks_exact(4)) {
                *d = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        } else {
            c.heap = super::read_dwords(mem, addr, len)?;
        }
        Ok(c)
    }
}

impl std::ops::Deref for Command {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        if self.len <= COMMAND_INLINE {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

fn bad(addr: u64, why: impl Into<String>) -> GpuError {
    GpuError::BadCommand {
        addr,
        why: why.into(),
    }
}

/// Dword count of every fixed-length command (its announced length must match).
fn expect_len<P: Packet>(addr: u64, len: usize) -> Result<(), GpuError> {
    if len == P::DWORDS {
        Ok(())
    } else {
        Err(bad(addr, format!("{} with {len} dwords", P::NAME)))
    }
}

/// Nesting of batch buffers: the ring starts first-level batches, which may call
/// second-level ones (Gen9 has two levels).
const MAX_BATCH_LEVEL: u32 = 2;

impl<'m> CommandStreamer<'m> {
    fn new(
        mem: &'m dyn GpuMemory,
        ggtt: Option<&'m dyn GpuMemory>,
        state: &'m mut EngineState,
        budget: &Budget,
        starvation: Option<&Arc<Starvation>>,
        engine: &'m Engine,
        counters: &Counters,
    ) -> Self {
        let clock = &engine.clock;
        Self {
            mem,
            ggtt,
            budget: *budget,
            watchdog: Watchdog::start(budget.max_time, budget.max_starved, starvation),
            state: &mut state.0,
            commands: 0,
            work: 0,
            start_cycles: clock.cycles.load(Ordering::Relaxed),
            ts_hz: clock.hz,
            eu_cycles0: counters.modelled_cycles,
            programs: &engine.programs,
        }
    }

    /// Advances the GPU clock by what this run of the command streamer cost.
    fn finish(&mut self, clock: &GpuClock, counters: &Counters) {
        let spent = self.spent(counters);
        clock.cycles.fetch_add(spent, Ordering::Relaxed);
        self.state.ctx_cycles += spent;
    }

    /// Modelled cycles this run of the command streamer has taken so far.
    fn spent(&self, counters: &Counters) -> u64 {
        self.commands * CYCLES_PER_COMMAND
            + counters.modelled_cycles.saturating_sub(self.eu_cycles0)
    }

    /// CTX_TIMESTAMP: ticks of the time this context has run, over all its submissions.
    fn context_ticks(&self, counters: &Counters) -> u64 {
        let cycles = self.state.ctx_cycles + self.spent(counters);
        ((u128::from(cycles) * u128::from(self.ts_hz)) / u128::from(GT_CLOCK_HZ)) as u64
    }

    fn space(&self, space: Space, addr: u64) -> Result<&'m dyn GpuMemory, GpuError> {
        match space {
            Space::Ppgtt => Ok(self.mem),
            Space::Ggtt => self
                .ggtt
                .ok_or_else(|| bad(addr, "GGTT access from a non-privileged batch")),
        }
    }

    fn read_dwords_in(&self, space: Space, addr: u64, n: usize) -> Result<Vec<u32>, GpuError> {
        Ok(super::read_dwords(self.space(space, addr)?, addr, n)?)
    }

    fn read_dwords(&self, addr: u64, n: usize) -> Result<Vec<u32>, GpuError> {
        self.read_dwords_in(Space::Ppgtt, addr, n)
    }

    /// Fetches the command at `addr`: its dwords as its header announces them.
    fn fetch(&mut self, space: Space, addr: u64) -> Result<Command, GpuError> {
        self.commands += 1;
        if self.commands > self.budget.max_commands {
            return Err(GpuError::Hang);
        }
        let mem = self.space(space, addr)?;
        let dw0 = super::read_dword(mem, addr)?;
        let len = self.command_length(addr, dw0)?;
        let dw = Command::read(mem, addr, len)?;
        trace!(
            addr = format_args!("{addr:#x}"),
            dw0 = format_args!("{dw0:#010x}"),
            len
        );
        Ok(dw)
    }

    fn run_ring(
        &mut self,
        ring: &Ring,
        counters: &mut Counters,
        dispatch: &Dispatch<'_>,
    ) -> Result<(), GpuError> {
        if ring.size == 0 || ring.head >= ring.size || ring.tail >= ring.size {
            return Err(bad(ring.start, format!("ring {ring:?} out of its bounds")));
        }
        let mut head = ring.head;
        while head != ring.tail {
            let addr = ring.start + head;
            let dw = self.fetch(Space::Ggtt, addr)?;
            let bytes = 4 * dw.len() as u64;
            if head + bytes > ring.size {
                return Err(bad(addr, "command runs past the end of the ring"));
            }
            if MiBatchBufferStart::matches(dw[0]) {
                let (target, space, _) = self.batch_start(addr, &dw)?;
                self.run_batch(target, space, 1, counters, dispatch)?;
            } else if MiBatchBufferEnd::matches(dw[0]) {
                return Err(bad(addr, "MI_BATCH_BUFFER_END in the ring"));
            } else {
                self.execute(addr, &dw, true, counters, dispatch)?;
            }
            head = (head + bytes) % ring.size;
        }
        Ok(())
    }

    /// An MI_BATCH_BUFFER_START's target, address space and whether it calls a
    /// second-level batch.
    fn batch_start(&self, addr: u64, dw: &[u32]) -> Result<(u64, Space, bool), GpuError> {
        expect_len::<MiBatchBufferStart>(addr, dw.len())?;
        let p = MiBatchBufferStart::unpack(dw);
        if p.predication_enable || p.add_offset_enable || p.resource_streamer_enable {
            return Err(bad(
                addr,
                "predicated, offset or resource-streamer MI_BATCH_BUFFER_START (not modelled)",
            ));
        }
        let space = if p.address_space_indicator == ASI_PPGTT {
            Space::Ppgtt
        } else {
            Space::Ggtt
        };
        Ok((
            p.batch_buffer_start_address,
            space,
            p.second_level_batch_buffer != 0,
        ))
    }

    fn clock_ticks(&self, counters: &Counters) -> u64 {
        let cycles = self.start_cycles + self.spent(counters);
        ((u128::from(cycles) * u128::from(self.ts_hz)) / u128::from(GT_CLOCK_HZ)) as u64
    }

    /// Runs the batch at `addr` (a batch of `level`, fetched from `space`) to its
    /// MI_BATCH_BUFFER_END, following chained batches and calling second-level ones.
    fn run_batch(
        &mut self,
        batch_addr: u64,
        space: Space,
        level: u32,
        counters: &mut Counters,
        dispatch: &Dispatch<'_>,
    ) -> Result<(), GpuError> {
        let (mut addr, mut space) = (batch_addr, space);
        loop {
            let dw = self.fetch(space, addr)?;
            if MiBatchBufferEnd::matches(dw[0]) {
                return Ok(());
            }
            if MiBatchBufferStart::matches(dw[0]) {
                let (target, to, second) = self.batch_start(addr, &dw)?;
                if to == Space::Ggtt && space == Space::Ppgtt {
                    return Err(bad(addr, "a PPGTT batch starts a GGTT batch"));
                }
                if second && level < MAX_BATCH_LEVEL {
                    self.run_batch(target, to, level + 1, counters, dispatch)?;
                } else {
                    // A chained batch: the jump does not return.
                    (addr, space) = (target, to);
                    continue;
                }
            } else {
                let privileged = space == Space::Ggtt;
                self.execute(addr, &dw, privileged, counters, dispatch)?;
            }
            addr = addr
                .checked_add(4 * dw.len() as u64)
                .ok_or_else(|| bad(addr, "batch runs off the address space"))?;
        }
    }

    /// The command's length in dwords from its header.
    fn command_length(&self, addr: u64, dw0: u32) -> Result<usize, GpuError> {
        macro_rules! len_of {
            ($($p:ty),*) => {
                $( if <$p>::matches(dw0) { return Ok(<$p>::length_from_header(dw0)); } )*
            };
        }
        len_of!(
            MiBatchBufferEnd,
            MiBatchBufferStart,
            MiNoop,
            MiStoreDataImm,
            MiLoadRegisterImm,
            MiArbCheck,
            MiStoreRegisterMem,
            StateSip,
            GpgpuCsrBaseAddress,
            PipelineSelect,
            StateBaseAddress,
            MediaVfeState,
            MediaCurbeLoad,
            MediaInterfaceDescriptorLoad,
            GpgpuWalker,
            MediaStateFlush,
            PipeControl
        );
        Err(bad(addr, format!("unknown command header {dw0:#010x}")))
    }

    fn execute(
        &mut self,
        addr: u64,
        dw: &[u32],
        privileged: bool,
        counters: &mut Counters,
        dispatch: &Dispatch<'_>,
    ) -> Result<(), GpuError> {
        let dw0 = dw[0];
        let len = dw.len();
        if MiNoop::matches(dw0) {
            // MI_NOOP's register write is not modelled; the NOOP is.
        } else if MiStoreDataImm::matches(dw0) {
            let p = MiStoreDataImm::unpack(dw);
            let mem = self.post_sync_target(addr, p.use_global_gtt, privileged)?;
            match (len, p.store_qword) {
                (4, false) => mem.write(p.address, &(p.immediate_data as u32).to_le_bytes())?,
                (5, _) => mem.write(p.address, &p.immediate_data.to_le_bytes())?,
                _ => return Err(bad(addr, format!("MI_STORE_DATA_IMM with {len} dwords"))),
            }
        } else if MiLoadRegisterImm::matches(dw0) {
            if len < 3 || len.is_multiple_of(2) {
                return Err(bad(addr, format!("MI_LOAD_REGISTER_IMM with {len} dwords")));
            }
            for (reg, value) in lri_pairs(dw) {
                if reg == REG_L3CNTLREG {
                    // Gen9 PRM, L3CNTLREG: the L3 may be repartitioned only while the
                    // pipeline is idle (Mesa's genX_l3_config stalls and flushes first).
                    self.require_idle(
                        addr,
                        "L3CNTLREG programmed while dispatched work may run (stall first)",
                    )?;
                }
                self.state.registers.insert(reg, value);
            }
        } else if MiArbCheck::matches(dw0) {
            // A preemption point: the model runs a batch to its end.
        } else if MiStoreRegisterMem::matches(dw0) {
            expect_len::<MiStoreRegisterMem>(addr, len)?;
            let p = MiStoreRegisterMem::unpack(dw);
            if p.predicate_enable {
                return Err(bad(addr, "predicated MI_STORE_REGISTER_MEM (not modelled)"));
            }
            let value = match p.register_address {
                REG_TIMESTAMP => self.clock_ticks(counters) as u32,
                REG_TIMESTAMP_UDW => (self.clock_ticks(counters) >> 32) as u32,
                REG_CTX_TIMESTAMP => self.context_ticks(counters) as u32,
                r => *self.state.registers.get(&r).ok_or_else(|| {
                    bad(
                        addr,
                        format!("MI_STORE_REGISTER_MEM of register {r:#x} (not modelled)"),
                    )
                })?,
            };
            let mem = self.post_sync_target(addr, p.use_global_gtt, privileged)?;
            mem.write(p.memory_address, &value.to_le_bytes())?;
        } else if StateSip::matches(dw0) {
            expect_len::<StateSip>(addr, len)?;
            self.state.sip = Some(StateSip::unpack(dw).system_instruction_pointer);
        } else if GpgpuCsrBaseAddress::matches(dw0) {
            expect_len::<GpgpuCsrBaseAddress>(addr, len)?;
            self.state.csr_base = Some(GpgpuCsrBaseAddress::unpack(dw).gpgpu_csr_base_address);
        } else if PipelineSelect::matches(dw0) {
            let p = PipelineSelect::unpack(dw);
            // Gen9: Mask Bits [9:8] enable writing Pipeline Selection [1:0].
            if p.mask_bits & 0x3 == 0x3 {
                if self.state.pipeline != Some(p.pipeline_selection) {
                    // SKL PRM, PIPELINE_SELECT: "Software must ensure all the write caches
                    // are flushed through a stalling PIPE_CONTROL command ... prior to
                    // programming MI_PIPELINE_SELECT command to change the Pipeline Select
                    // Mode."
                    self.require_idle(
                        addr,
                        "PIPELINE_SELECT changes the pipeline without a stalling PIPE_CONTROL",
                    )?;
                }
                self.state.pipeline = Some(p.pipeline_selection);
            }
        } else if StateBaseAddress::matches(dw0) {
            expect_len::<StateBaseAddress>(addr, len)?;
            // Threads in flight address their state and surfaces from the bases: moving
            // them under running work needs a stall first (Mesa's anv and iris flush and
            // stall around STATE_BASE_ADDRESS on Gen9).
            self.require_idle(
                addr,
                "STATE_BASE_ADDRESS while dispatched work may run (stall first)",
            )?;
            let p = StateBaseAddress::unpack(dw);
            let s = &mut self.state;
            s.bases_programmed = true;
            if p.general_state_base_address_modify_enable {
                s.general_base = p.general_state_base_address;
            }
            if p.surface_state_base_address_modify_enable {
                s.surface_base = p.surface_state_base_address;
            }
            if p.dynamic_state_base_address_modify_enable {
                s.dynamic_base = p.dynamic_state_base_address;
            }
            if p.indirect_object_base_address_modify_enable {
                s.indirect_base = p.indirect_object_base_address;
            }
            if p.instruction_base_address_modify_enable {
                s.instruction_base = p.instruction_base_address;
            }
        } else if MediaVfeState::matches(dw0) {
            expect_len::<MediaVfeState>(addr, len)?;
            self.require_gpgpu(addr, "MEDIA_VFE_STATE")?;
            // SKL PRM Vol 2a, MEDIA_VFE_STATE: "A stalling PIPE_CONTROL is required before
            // MEDIA_VFE_STATE unless the only bits that are changed are scoreboard related".
            self.require_idle(
                addr,
                "MEDIA_VFE_STATE without a stalling PIPE_CONTROL after the last walker",
            )?;
            self.state.vfe = Some(MediaVfeState::unpack(dw));
        } else if MediaCurbeLoad::matches(dw0) {
            expect_len::<MediaCurbeLoad>(addr, len)?;
            self.require_gpgpu(addr, "MEDIA_CURBE_LOAD")?;
            self.require_bases(addr)?;
            let p = MediaCurbeLoad::unpack(dw);
            // MEDIA_VFE_STATE's CURBE Allocation Size (in 256-bit units) is the URB space
            // the CURBE is loaded into: a longer load does not fit.
            let allocated = self
                .state
                .vfe
                .map_or(0, |v| u32::from(v.curbe_allocation_size) * 32);
            if p.curbe_total_data_length > allocated {
                return Err(GpuError::Rule {
                    addr,
                    rule: "MEDIA_CURBE_LOAD longer than MEDIA_VFE_STATE's CURBE Allocation Size",
                });
            }
            let mut curbe = vec![0u8; p.curbe_total_data_length as usize];
            let at = self.state.dynamic_base + u64::from(p.curbe_data_start_address);
            self.mem.read(at, &mut curbe)?;
            self.state.curbe = curbe;
        } else if MediaInterfaceDescriptorLoad::matches(dw0) {
            expect_len::<MediaInterfaceDescriptorLoad>(addr, len)?;
            self.require_gpgpu(addr, "MEDIA_INTERFACE_DESCRIPTOR_LOAD")?;
            self.require_bases(addr)?;
            let p = MediaInterfaceDescriptorLoad::unpack(dw);
            let total = p.interface_descriptor_total_length as usize;
            // 32-byte descriptors; the walker's offset field (6 bits) reaches 64 of them.
            if !total.is_multiple_of(32) || total > 64 * 32 {
                return Err(bad(addr, format!("interface descriptor length {total}")));
            }
            let at = self.state.dynamic_base + u64::from(p.interface_descriptor_data_start_address);
            let words = self.read_dwords(at, total / 4)?;
            self.state.idds = words
                .chunks_exact(8)
                .map(InterfaceDescriptorData::unpack)
                .collect();
        } else if GpgpuWalker::matches(dw0) {
            expect_len::<GpgpuWalker>(addr, len)?;
            self.require_gpgpu(addr, "GPGPU_WALKER")?;
            self.walk(addr, &GpgpuWalker::unpack(dw), counters, dispatch)?;
        } else if MediaStateFlush::matches(dw0) {
            // Thread groups run to completion inside the walker: nothing is in flight.
            expect_len::<MediaStateFlush>(addr, len)?;
        } else if PipeControl::matches(dw0) {
            expect_len::<PipeControl>(addr, len)?;
            self.pipe_control(addr, &PipeControl::unpack(dw), privileged, counters)?;
        } else {
            return Err(bad(addr, format!("unhandled command {dw0:#010x}")));
        }
        Ok(())
    }

    /// State that dispatched threads read may change only once they have drained: a
    /// stalling PIPE_CONTROL since the last GPGPU_WALKER.
    fn require_idle(&self, addr: u64, rule: &'static str) -> Result<(), GpuError> {
        if self.state.work_since_stall {
            Err(GpuError::Rule { addr, rule })
        } else {
            Ok(())
        }
    }

    /// Commands that read state relative to the base addresses need them programmed.
    fn require_bases(&self, addr: u64) -> Result<(), GpuError> {
        if self.state.bases_programmed {
            Ok(())
        } else {
            Err(GpuError::Rule {
                addr,
                rule: "state read before any STATE_BASE_ADDRESS (its bases were never programmed)",
            })
        }
    }

    fn require_gpgpu(&self, addr: u64, what: &str) -> Result<(), GpuError> {
        if self.state.pipeline == Some(PIPELINE_GPGPU) {
            Ok(())
        } else {
            Err(bad(addr, format!("{what} without PIPELINE_SELECT(GPGPU)")))
        }
    }

    /// The memory a post-sync write lands in: the GGTT (when the command asks for it and
    /// may) or the context's PPGTT.
    fn post_sync_target(
        &self,
        addr: u64,
        global: bool,
        privileged: bool,
    ) -> Result<&'m dyn GpuMemory, GpuError> {
        match (global, privileged) {
            (false, _) => Ok(self.mem),
            (true, true) => self.space(Space::Ggtt, addr),
            (true, false) => Err(bad(addr, "GGTT write from a non-privileged batch")),
        }
    }

    fn pipe_control(
        &mut self,
        addr: u64,
        p: &PipeControl,
        privileged: bool,
        counters: &Counters,
    ) -> Result<(), GpuError> {
        if p.command_streamer_stall_enable {
            // The command streamer waits for everything dispatched before it.
            self.state.work_since_stall = false;
        }
        if p.post_sync_operation == POST_SYNC_NONE {
            return Ok(());
        }
        if p.store_data_index {
            return Err(bad(
                addr,
                "PIPE_CONTROL post-sync to the status page index (not modelled)",
            ));
        }
        let mem = self.post_sync_target(addr, p.destination_address_type, privileged)?;
        let value = match p.post_sync_operation {
            POST_SYNC_WRITE_IMMEDIATE => p.immediate_data,
            POST_SYNC_WRITE_TIMESTAMP => self.clock_ticks(counters),
            _ => return Err(bad(addr, "PIPE_CONTROL PS_DEPTH_COUNT write (no 3D pipe)")),
        };
        mem.write(p.address, &value.to_le_bytes())?;
        Ok(())
    }

    fn walk(
        &mut self,
        addr: u64,
        w: &GpgpuWalker,
        counters: &mut Counters,
        dispatch: &Dispatch<'_>,
    ) -> Result<(), GpuError> {
        if w.predicate_enable || w.indirect_parameter_enable {
            return Err(bad(addr, "predicated/indirect GPGPU_WALKER (not modelled)"));
        }
        let vfe = self
            .state
            .vfe
            .ok_or_else(|| bad(addr, "GPGPU_WALKER before MEDIA_VFE_STATE"))?;
        let idd = *self
            .state
            .idds
            .get(usize::from(w.interface_descriptor_offset))
            .ok_or_else(|| bad(addr, "interface descriptor offset past the loaded ones"))?;
        let (simd, simd_mask) = match w.simd_size {
            SIMD8 => (8, 0xff),
            SIMD16 => (16, 0xffff),
            SIMD32 => (32, 0xffff_ffff),
            _ => return Err(bad(addr, "reserved SIMD Size")),
        };
        let threads = u32::from(idd.number_of_threads_in_gpgpu_thread_group);
        if threads == 0 || threads > 64 {
            return Err(bad(addr, format!("{threads} threads in a thread group")));
        }
        let slm_bytes = slm_size_bytes(idd.shared_local_memory_size)
            .ok_or_else(|| bad(addr, "reserved Shared Local Memory Size"))?;
        self.require_bases(addr)?;
        let l3 = self
            .state
            .registers
            .get(&REG_L3CNTLREG)
            .copied()
            .unwrap_or(0);
        if slm_bytes > 0 && l3 & L3CNTLREG_SLM_ENABLE == 0 {
            // SLM lives in the L3: a group that uses it needs L3CNTLREG's SLM partition
            // (NEO loads 0x60000321 for such kernels on Skylake GT2, 0x80000340 otherwise).
            return Err(GpuError::Rule {
                addr,
                rule: "shared local memory without an L3 partition for it (L3CNTLREG SLM Enable)",
            });
        }
        self.state.work_since_stall = true;

        // The thread payload's constants: cross-thread block first, then one per-thread
        // block per thread. They come from the walker's indirect data (in the indirect
        // object heap) when it has any, as NEO sends them, else from the CURBE that
        // MEDIA_CURBE_LOAD loaded, from the descriptor's read offset on.
        let cross = usize::from(idd.cross_thread_constant_data_read_length) * 32;
        let per_thread = usize::from(idd.constant_urb_entry_read_length) * 32;
        let need_data = cross + per_thread * threads as usize;
        let curbe = if w.indirect_data_length > 0 {
            let len = w.indirect_data_length as usize;
            if len < need_data {
                return Err(bad(
                    addr,
                    format!("indirect data of {len} bytes, the dispatch reads {need_data}"),
                ));
            }
            let mut data = vec![0u8; need_data];
            let at = self.state.indirect_base + u64::from(w.indirect_data_start_address);
            self.mem.read(at, &mut data)?;
            data
        } else {
            let curbe_start = usize::from(idd.constant_urb_entry_read_offset) * 32;
            let need = curbe_start + need_data;
            if self.state.curbe.len() < need {
                return Err(bad(
                    addr,
                    format!(
                        "CURBE has {} bytes, the dispatch reads {need}",
                        self.state.curbe.len()
                    ),
                ));
            }
            self.state.curbe[curbe_start..need].to_vec()
        };

        let bindings = Bindings::table(self.state.surface_base, idd.binding_table_pointer);
        // The hardware hands every thread its scratch slice whether or not the kernel uses
        // it: Scratch Space Base Pointer (an offset from the General State Base Address,
        // possibly 0) plus the thread's slot times the per-thread size.
        if vfe.per_thread_scratch_space > 11 {
            return Err(bad(addr, "reserved Per Thread Scratch Space"));
        }
        let scratch_per_thread = 1024u32 << vfe.per_thread_scratch_space;
        let scratch_base = self.state.general_base + vfe.scratch_space_base_pointer;
        let width = u32::from(w.thread_width_counter_maximum) + 1;
        let height = u32::from(w.thread_height_counter_maximum) + 1;

        let kernel_addr = self.state.instruction_base + idd.kernel_start_pointer;
        debug!(
            kernel = format_args!("{kernel_addr:#x}"),
            simd,
            threads,
            groups = ?(w.thread_group_id_x_dimension, w.thread_group_id_y_dimension,
                       w.thread_group_id_z_dimension),
            "GPGPU_WALKER"
        );
        let shape = GroupDispatch {
            threads,
            width,
            height,
            simd_mask,
            right_mask: w.right_execution_mask,
            bottom_mask: w.bottom_execution_mask,
            barrier_enable: idd.barrier_enable,
            sampler_state_pointer: idd.sampler_state_pointer,
            binding_table_pointer: idd.binding_table_pointer,
            per_thread_scratch_space: vfe.per_thread_scratch_space,
            scratch_space_base_pointer: vfe.scratch_space_base_pointer,
            scratch_per_thread,
            cross,
            per_thread,
        };
        let groups = pool::GroupGrid::new(
            [
                w.thread_group_id_starting_x,
                w.thread_group_id_starting_y,
                w.thread_group_id_starting_resume_z,
            ],
            [
                w.thread_group_id_x_dimension,
                w.thread_group_id_y_dimension,
                w.thread_group_id_z_dimension,
            ],
        );
        // Groups run side by side on as many host threads as the budget allows and as the
        // hardware threads MEDIA_VFE_STATE provides (scratch is allocated for those): each
        // host thread's group takes its own slots.
        let hw_threads = u32::from(vfe.maximum_number_of_threads) + 1;
        let workers = (hw_threads / threads).max(1) as usize;
        let mem = self.mem;
        let workers = self.budget.host_threads.min(workers);
        // A dispatch of one group may spread its threads over the host threads instead
        // (`eu::lanes`), each with a program of its own.
        let lanes = match (groups.len(), self.budget.spread) {
            (1, Spread::Measured | Spread::Always) => self
                .budget
                .host_threads
                .min(pool::lanes_available())
                .min(threads as usize)
                .max(1),
            _ => 1,
        };
        let mut programs = self
            .programs
            .checkout(mem.address_space(), kernel_addr, workers.max(lanes))
            .translating(self.budget.translate);
        // Other host threads join at once when the kernel's last dispatch says its groups
        // are long enough to pay for waking them (or it is the kernel's first), else once
        // this thread has done HELPERS_AFTER of the work alone.
        let last = programs.last();
        let helpers_after = match last {
            Some(last)
                if last.work_per_group.saturating_mul(groups.len()) < 2 * pool::HELPERS_AFTER =>
            {
                pool::HELPERS_AFTER
            }
            _ => 0,
        };
        // A single group's threads spread when the kernel's last dispatch showed that it
        // pays (`spreads`); a kernel's first dispatch runs on one host thread.
        let lanes = match self.budget.spread {
            Spread::Always => lanes,
            _ if last.is_some_and(|l| l.spreads) => lanes,
            _ => 1,
        };
        let before = counters.clone();
        let run = pool::Run {
            groups,
            workers,
            max_work: self.budget.max_work,
            work: self.work,
            watchdog: &self.watchdog,
            helpers_after,
        };
        let general_state_base = self.state.general_base;
        let watchdog = &self.watchdog;
        let (work, result) = run.run(counters, &|group, seq, worker, max_instructions, c| {
            let first_slot = worker as u32 * threads;
            let mut payloads = PAYLOADS.with_borrow_mut(std::mem::take);
            shape.payloads_into(group, seq, first_slot, &curbe, &mut payloads);
            let tg = ThreadGroup {
                kernel_addr,
                simd,
                threads: payloads,
                bindings: bindings.clone(),
                slm_bytes,
                scratch_base: scratch_base + u64::from(first_slot) * u64::from(scratch_per_thread),
                scratch_per_thread,
                barrier_enabled: idd.barrier_enable,
                dynamic_state_base: self.state.dynamic_base,
                sampler_state_pointer: idd.sampler_state_pointer,
            };
            let env = GroupEnv {
                general_state_base,
                max_instructions,
                watchdog: watchdog.clone(),
                worker,
                lanes,
            };
            let r = dispatch(mem, &tg, &env, &programs, c);
            PAYLOADS.with_borrow_mut(|p| *p = tg.threads);
            r
        });
        if !groups.is_empty() {
            let work_per_group = work.saturating_sub(self.work) / groups.len();
            programs.set_last(LastDispatch {
                work_per_group,
                spreads: groups.len() == 1
                    && threads > 1
                    && work_per_group >= 2 * pool::HELPERS_AFTER
                    && spreads(&before, counters),
            });
        }
        self.work = work;
        result
    }
}

/// EU instructions a group's threads run, on average, between messages to what they
/// share (SLM, atomics, the barrier) for a group to be spread over host threads
/// (`eu::lanes`). Each such message takes the group's lock on the host, and a lock that
/// moves between host cores costs more than a round of instructions: on two host threads a
/// compare-exchange loop on one `__local` word (8 instructions a message) ran 2.6 times
/// slower than on one, kernels with 70 and 137 instructions a message 1.5 and 1.3 times
/// slower, with 270 1.2-1.4 times faster and with 1,480 1.8 times (docs/gpu-model.md,
/// "One group's threads on several host threads").
const SPREAD_RUN: u64 = 256;

/// Whether the dispatch between counters `before` and `after` ran long runs of
/// instructions between its threads' messages to what they share.
fn spreads(before: &Counters, after: &Counters) -> bool {
    let shared = (after.sends_slm - before.sends_slm)
        + (after.sends_atomic - before.sends_atomic)
        + (after.sends_barrier - before.sends_barrier);
    after.instructions - before.instructions >= SPREAD_RUN * (shared + 1)
}

thread_local! {
    /// The payloads of the last group a host thread dispatched, their buffers reused by its
    /// next (a group's dispatch allocates nothing).
    static PAYLOADS: std::cell::RefCell<Vec<crate::gpu::ThreadPayload>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests;
