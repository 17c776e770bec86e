//! The Gen9 execution units: the threads of one thread group, resident
//! together, executing decoded Gen ISA round-robin so that barriers work.
//!
//! - `program`: decode once per kernel, pre-resolve operands;
//! - `cache`: the device's decoded kernels, kept between dispatches;
//! - `thread`: one thread's registers and typed operand access;
//! - `alu`: ALU and math instructions;
//! - `fast`: fast paths for the common 32-bit and 64-bit ALU shapes;
//! - `flow`: SIMD control flow on per-channel instruction pointers;
//! - `float`: IEEE helpers (half, denormals, the rounding instructions);
//! - `softfloat`: exact arithmetic rounded once in any cr0 rounding mode;
//! - `send`: a send's payload gathered into a message, its reply written back;
//! - `timing`: sends by kind and the modelled cycles;
//! - `translate`: hot runs of ALU instructions compiled to host code (Cranelift);
//! - `lanes`: one group's threads on several host threads;
//! - the data port (`super::dataport`) executes memory sends; the gateway
//!   (`super::gateway`) keeps the group's barrier.
//!
//! See docs/gpu-model.md for the execution and timing model.

pub mod alu;
pub mod cache;
pub mod fast;
pub mod float;
pub mod flow;
pub mod lanes;
pub mod mathmacro;
pub mod program;
pub mod send;
pub mod softfloat;
pub mod thread;
pub mod timing;
pub mod translate;

#[cfg(test)]
pub(crate) mod tests;

use gencl_isa::Opcode;

use self::lanes::{Idle, Lane};
use self::program::{ExecInst, Program};
use self::thread::{RunState, Thread};
pub use self::timing::THREADS_PER_EU;
use self::timing::{group_cycles, GroupTime, Timing};
use super::dataport::{Dataport, SendOutcome};
use super::gateway::Gateway;
use super::{Counters, GpuError, GpuMemory, ThreadGroup};

/// Launch-wide facts the thread group itself does not carry.
#[derive(Debug, Clone)]
pub struct LaunchEnv {
    /// General State Base Address: the base of stateless (BTI 255/253) 32-bit offsets.
    pub general_state_base: u64,
    /// Instructions one group may issue before it is declared hung.
    pub max_instructions: u64,
    /// When the batch counts as hung by time (i915's heartbeat and preemption timeout).
    pub watchdog: super::watchdog::Watchdog,
}

impl Default for LaunchEnv {
    fn default() -> Self {
        LaunchEnv {
            general_state_base: 0,
            max_instructions: 1 << 32,
            watchdog: super::watchdog::Watchdog::none(),
        }
    }
}

/// Instructions a thread runs before the next thread of the group gets a turn.
const QUANTUM: u32 = 64;

/// Instructions a lane of a group over several host threads (`eu::lanes`) issues between
/// adding them to the group's count: the group's budget may be passed by this much a lane
/// before it is seen (the budget is billions).
const ISSUED_BATCH: u64 = 1 << 16;

/// Run one thread group to completion (every thread ended), its kernel decoded afresh
/// (tests; the command streamer keeps decoded kernels in the device's `ProgramCache`).
pub fn run_thread_group(
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    run_thread_group_with(mem, tg, &LaunchEnv::default(), counters)
}

/// As [`run_thread_group`], with launch-wide state (general state base, time budget).
pub fn run_thread_group_with(
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &LaunchEnv,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    let mut prog = Program::new(tg.kernel_addr);
    run_program(&mut prog, mem, tg, env, counters)
}

/// What a host thread's thread groups reuse from one group to the next: the message
/// buffers of the data port's bus and the threads (their register files above all).
/// Allocating, zeroing, moving and freeing them for every group (two SIMD32 threads a
/// group of 64 work-items) was about a seventh of the model's time on the CTS's integer
/// kernels. Nothing of one group is seen by the next: a thread is dispatched again as a
/// new one is (its payload, zeros after it), and a message reads only what the send
/// gathered into it.
#[derive(Default)]
struct Spare {
    port: send::Port,
    threads: Vec<Thread>,
    /// The threads' timing (its replies in flight keep their capacity).
    timing: Vec<Timing>,
    /// The group's shared local memory (zeroed for each group, as the model gives it).
    slm: Vec<u8>,
}

/// Threads kept by a host thread (a group of 16 SIMD8 threads and more).
const SPARE_THREADS: usize = 64;

/// SLM kept by a host thread: a Gen9 group's most.
const SPARE_SLM: usize = 64 * 1024;

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::default();
}

/// Run `tg` on an explicit program (tests and callers holding decoded instructions).
pub fn run_program(
    prog: &mut Program,
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &LaunchEnv,
    counters: &mut Counters,
) -> Result<(), GpuError> {
    let mut spare = SPARE.with_borrow_mut(std::mem::take);
    let n = dispatch(tg, &mut spare.threads, 0, 1);
    let r = run_group(prog, mem, tg, env, counters, &mut spare, None);
    if r.is_ok() {
        ran(&mut spare.threads, n, prog);
    }
    keep(spare);
    r
}

/// Run lane `lane`'s threads of `tg` (`eu::lanes`): its share of the group's timing goes
/// to the group's shared state, and a failure stops the other lanes.
fn run_lane(
    prog: &mut Program,
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &LaunchEnv,
    counters: &mut Counters,
    lane: Lane,
) -> Result<(), GpuError> {
    let mut spare = SPARE.with_borrow_mut(std::mem::take);
    let n = dispatch(tg, &mut spare.threads, lane.index, lane.lanes());
    let r = run_group(prog, mem, tg, env, counters, &mut spare, Some(lane));
    if r.is_err() {
        lane.share.stop();
    } else {
        ran(&mut spare.threads, n, prog);
    }
    keep(spare);
    r
}

/// What one lane of a spread group gives back: its counters and its result.
pub type LaneOutcome = (Counters, Result<(), GpuError>);

/// Calls the function it is given with lane i's program.
pub type WithProgram<'a> = dyn Fn(usize, &mut dyn FnMut(&mut Program)) + Sync + 'a;

/// Run `tg`'s threads over `lanes` lanes (`eu::lanes`): `side_by_side(lanes, f)` runs
/// `f(i)` for every lane at once, each on a host thread of its own, and `with_program(i, g)`
/// calls `g` with lane i's program. The lanes' counters are added to `counters` with the
/// group's modelled cycles; the result is the first failing lane's.
pub fn run_spread(
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &LaunchEnv,
    counters: &mut Counters,
    lanes: usize,
    side_by_side: impl FnOnce(usize, &(dyn Fn(usize) -> LaneOutcome + Sync)) -> Vec<LaneOutcome>,
    with_program: &WithProgram<'_>,
) -> Result<(), GpuError> {
    let share = lanes::GroupShare::new(tg, lanes);
    let outcomes = side_by_side(lanes, &|index| {
        // A lane that panics (a fault of the model) stops the others, which would
        // otherwise wait for its threads at the next barrier until the watchdog.
        let _stop = lanes::StopOnPanic(&share);
        let mut c = Counters::default();
        let mut r = Ok(());
        let lane = Lane {
            share: &share,
            index,
        };
        with_program(index, &mut |p| r = run_lane(p, mem, tg, env, &mut c, lane));
        (c, r)
    });
    let mut result = Ok(());
    for (c, r) in outcomes {
        counters.add(&c);
        if result.is_ok() {
            result = r;
        }
    }
    counters.modelled_cycles += share.cycles();
    result
}

/// `spare` kept for the host thread's next group, trimmed.
fn keep(mut spare: Spare) {
    spare.threads.truncate(SPARE_THREADS);
    if spare.slm.capacity() > SPARE_SLM {
        spare.slm = Vec::new();
    }
    SPARE.with_borrow_mut(|s| *s = spare);
}

/// Run `tg` and hand back the threads' final state (tests inspect registers).
#[cfg(test)]
pub(crate) fn run_threads(
    prog: &mut Program,
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &LaunchEnv,
    counters: &mut Counters,
) -> Result<Vec<Thread>, GpuError> {
    let mut spare = Spare::default();
    dispatch(tg, &mut spare.threads, 0, 1);
    run_group(prog, mem, tg, env, counters, &mut spare, None)?;
    Ok(spare.threads)
}

/// Lane `lane` of `lanes`' threads of the group at dispatch (group threads `lane`,
/// `lane + lanes`, ...), in the first of `threads` (those there dispatched again, more
/// made as needed).
fn dispatch(tg: &ThreadGroup, threads: &mut Vec<Thread>, lane: usize, lanes: usize) -> usize {
    let mut n = 0;
    for (j, (k, p)) in tg
        .threads
        .iter()
        .enumerate()
        .skip(lane)
        .step_by(lanes)
        .enumerate()
    {
        match threads.get_mut(j) {
            Some(t) => t.dispatch_again(k as u32, &p.grfs, p.exec_mask, tg.kernel_addr),
            None => threads.push(Thread::new(k as u32, &p.grfs, p.exec_mask, tg.kernel_addr)),
        }
        n = j + 1;
    }
    n
}

/// The first `n` of `threads` ran `prog` to their ends (`Thread::ran`).
fn ran(threads: &mut [Thread], n: usize, prog: &Program) {
    let writes = prog.grf_writes();
    threads[..n].iter_mut().for_each(|t| t.ran(writes));
}

/// How many of `tg`'s threads lane `lane` of `lanes` runs.
fn lane_threads(tg: &ThreadGroup, lane: usize, lanes: usize) -> usize {
    (tg.threads.len() + lanes - 1 - lane) / lanes
}

/// Run the threads of `tg` (dispatched into `spare.threads`) to their ends, `spare.port`
/// carrying their messages: all of them, or `lane`'s share beside the group's other
/// lanes (`eu::lanes`).
fn run_group(
    prog: &mut Program,
    mem: &dyn GpuMemory,
    tg: &ThreadGroup,
    env: &LaunchEnv,
    counters: &mut Counters,
    spare: &mut Spare,
    lane: Option<Lane>,
) -> Result<(), GpuError> {
    let Spare {
        port,
        threads,
        timing,
        slm,
    } = spare;
    let (index, lanes) = lane.map_or((0, 1), |l| (l.index, l.lanes()));
    let threads = &mut threads[..lane_threads(tg, index, lanes)];
    let mut dp = match lane {
        None => {
            slm.clear();
            slm.resize(tg.slm_bytes as usize, 0);
            Dataport::new(mem, tg, env.general_state_base, std::mem::take(slm))
        }
        Some(l) => Dataport::sharing(mem, tg, env.general_state_base, &l.share.slm),
    };
    let mut gateway = Gateway::new(threads.len());
    // Barriers completed that this lane's threads were notified of.
    let mut barriers_seen = 0;
    // Instructions issued that the group's shared count has.
    let mut issued_shared = 0;
    timing.resize_with(threads.len(), Timing::default);
    let timing = &mut timing[..threads.len()];
    for t in timing.iter_mut() {
        t.reset();
    }
    let mut issued: u64 = 0;
    // Rounds of the group's threads so far (a spin-waiter's sleep is bounded in them).
    let mut round: u64 = 0;
    counters.threads += threads.len() as u64;
    loop {
        let mut progress = false;
        let mut live = 0;
        // The news a lane has seen as its round starts: barriers its threads were notified
        // of, its sleepers other lanes woke (or that slept too long).
        let seen = lane.map(|l| {
            let seen = l.share.epoch();
            l.share.barrier.catch_up(&mut barriers_seen, threads);
            // The watch is looked at (under the SLM's lock) only for a lane with a
            // thread asleep: sleepers are woken into the watch's list, whoever wrote.
            if threads.iter().any(|t| t.state == RunState::SpinWait) {
                dp.with_slm(|dp| {
                    // Sleepers asleep for too long try again (in this lane's rounds).
                    dp.watch.wake_late(round, |k| l.owns(k));
                    dp.watch.woken.retain(|&k| {
                        if !l.owns(k) {
                            return true;
                        }
                        threads[k as usize / lanes].state = RunState::Ready;
                        false
                    });
                });
                dp.woke = false;
            }
            seen
        });
        if lane.is_some_and(|l| l.share.stopped()) {
            // Another lane failed (its error is the group's).
            break;
        }
        for k in 0..threads.len() {
            // Spin-waiters woken (by a write of their dword, or the bounds below) run again
            // (a lane's: as its round starts).
            for w in dp.watch.woken.drain(..) {
                threads[w as usize].state = RunState::Ready;
            }
            if threads[k].state == RunState::Done {
                continue;
            }
            live += 1;
            let mut left = QUANTUM as usize;
            while left > 0 {
                let t = &mut threads[k];
                if t.state != RunState::Ready {
                    break;
                }
                flow::wake(t);
                // A run checks the scoreboard only for the registers its own sends reply to:
                // it is taken whole when no reply on its way lands in another register it
                // touches, else up to the first instruction that a reply lands in, where the
                // interpreter goes on and waits (its instructions one by one were a fifth of
                // a contended 64-bit local atomic's). No channel enabled: control flow on its way to where parked ones wait (a
                // run would leave at once).
                let found = if t.active != 0 {
                    prog.translated(mem, t.ip, t.cr0())
                } else {
                    None
                };
                if let Some((r, pos)) = found {
                    let tm = &mut timing[k];
                    let free = tm.clear_of(prog.run_touch(r));
                    let n = if free {
                        left
                    } else {
                        prog.run_clear_prefix(r, pos, left, |m| tm.clear_of(m))
                    };
                    // A run that leaves before its first instruction (SIMD flow that parks
                    // channels) ran nothing: the interpreter takes that instruction.
                    let mut host = EuHost {
                        prog,
                        dp: &mut dp,
                        port,
                        counters,
                        timing: tm,
                        synced: 0,
                    };
                    let ran = if n > 0 {
                        prog.exec_run(r, t, pos, n, free, &mut host)?
                    } else {
                        None
                    };
                    let synced = host.synced;
                    if let Some(ran) = ran.filter(|ran| ran.instructions > 0) {
                        // A translated run: the instructions the interpreter would run next,
                        // up to the end of the quantum, at once (its sends' issue cycles and
                        // those before each already counted by its host).
                        counters.instructions += ran.instructions as u64;
                        counters.lane_instructions += u64::from(ran.lanes);
                        timing[k].issue += ran.issue - synced;
                        issued += ran.instructions as u64;
                        left -= ran.instructions;
                        progress = true;
                        if issued > env.max_instructions {
                            return Err(GpuError::Hang);
                        }
                        continue;
                    }
                }
                left -= 1;
                let inst = prog.fetch(mem, t.ip)?;
                // `{Switch}`: the EU switches to another thread after this instruction
                // (IGC's cr0 writes, gencl's spin-wait back-off): the thread's quantum ends.
                let switch = inst.inst.thread_ctrl == gencl_isa::ThreadCtrl::Switch;
                // gencl's spin-wait back-off, `mov (1) null 0 {Switch}` (not IGC's cr0 writes,
                // which switch too): a thread may sleep there (`dataport::SlmWatch`).
                let backoff = switch
                    && inst.op == Opcode::Mov
                    && inst
                        .dst
                        .as_ref()
                        .is_some_and(|d| matches!(d.loc, program::Loc::Null));
                let step = step(t, inst, &mut dp, port, counters, &mut timing[k])?;
                issued += 1;
                progress = true;
                match step {
                    Step::Next => {}
                    Step::Barrier => match lane {
                        None => gateway.barrier(threads),
                        Some(l) => {
                            if l.share.barrier.arrive() {
                                l.share.barrier.catch_up(&mut barriers_seen, threads);
                                l.share.news();
                            }
                        }
                    },
                    Step::Blocked => break,
                }
                if issued > env.max_instructions {
                    return Err(GpuError::Hang);
                }
                if switch {
                    // A back-off after a compare-exchange that failed: asleep until the
                    // dword is written.
                    if backoff {
                        let index = threads[k].index;
                        if dp.with_slm(|dp| dp.watch.sleeps(index, round, &dp.slm)) {
                            threads[k].state = RunState::SpinWait;
                        }
                    }
                    break;
                }
            }
            // A lane's SLM message woke a sleeper, maybe another lane's.
            if let Some(l) = lane.filter(|_| dp.woke) {
                dp.woke = false;
                l.share.news();
            }
        }
        if live == 0 {
            if let Some(l) = lane {
                l.share.lane_ended();
            }
            break;
        }
        // A round of every thread is at most a few thousand instructions: reading the
        // clock once a round costs nothing measurable and bounds how late a hang is seen.
        if env.watchdog.expired() {
            return Err(GpuError::Hang);
        }
        if let Some(l) = lane {
            // The group's count, told in batches (a shared counter's line moving between
            // host cores each round cost more than the round's instructions).
            if issued - issued_shared >= ISSUED_BATCH {
                if l.share.issue(issued - issued_shared, env.max_instructions) {
                    return Err(GpuError::Hang);
                }
                issued_shared = issued;
            }
        } else {
            // Spin-waiters asleep for too long try again, whatever their dword (woken at
            // their next turn, as a write wakes them).
            dp.watch.wake_late(round, |_| true);
        }
        round += 1;
        if !progress {
            if let Some((l, seen)) = lane.zip(seen) {
                // None of the lane's threads could run: news from the others, or, when
                // no lane can run one, the group is stalled as below.
                if l.share.idle(seen) == Idle::Rerun {
                    continue;
                }
                if dp.with_slm(|dp| dp.watch.wake_all()) {
                    l.share.news();
                    continue;
                }
                tracing::warn!(
                    kernel = tg.kernel_addr,
                    waiting = l.share.barrier.waiting(),
                    "thread group deadlocked on a barrier"
                );
                return Err(GpuError::Hang);
            }
            // No thread could run: spin-waiters try again (the dword may be theirs to take,
            // or their loop may end on something other than it).
            if dp.watch.wake_all() {
                continue;
            }
            // Every live thread waits for a notification nobody will send:
            // a barrier some threads never reach.
            tracing::warn!(
                kernel = tg.kernel_addr,
                waiting = gateway.waiting(),
                "thread group deadlocked on a barrier"
            );
            return Err(GpuError::Hang);
        }
    }
    match lane {
        None => counters.modelled_cycles += group_cycles(timing),
        Some(l) => l.share.add_time(GroupTime::of(timing)),
    }
    for t in timing.iter() {
        counters.issue_cycles += t.issue;
        counters.latency_cycles += t.latency;
    }
    if lane.is_none() {
        *slm = std::mem::take(&mut dp.slm);
    }
    Ok(())
}

/// A send of `t` (the interpreter's and a translated run's): the message to its shared
/// function, its counters, its scoreboard wait and, for a reply, when that lands. The
/// caller counts the instruction and moves the instruction pointer.
fn send_message(
    t: &mut Thread,
    inst: &ExecInst,
    dp: &mut Dataport,
    port: &mut send::Port,
    counters: &mut Counters,
    timing: &mut Timing,
) -> Result<SendOutcome, GpuError> {
    let emask = t.enabled(inst) & t.pred_mask(inst);
    let info = inst.send.ok_or_else(|| GpuError::IllegalInstruction {
        addr: inst.addr,
        why: "send without message information".into(),
    })?;
    // The descriptor (an indirect one is a0.0's, read now) and the message it names,
    // resolved once for the counters and whichever shared function takes it; the ISA's
    // own decoder reads it (at decode time already for an immediate descriptor).
    let desc = info.desc.unwrap_or_else(|| t.arf_u32(program::arf::A0, 0));
    let decoded;
    let (m, (payload, reply)) = match (&inst.message, inst.send_regs) {
        (Some(m), Some(regs)) => (m, regs),
        _ => {
            decoded = gencl_isa::gen9::send::decode_message(
                inst.op,
                inst.inst.exec_size,
                info.sfid,
                desc,
                info.ex_desc,
            );
            (&decoded, send::registers(inst, &decoded))
        }
    };
    issue_send(&info, desc, emask, payload | reply, counters, timing);
    // Each shared function is its own unit: the message gateway (barriers), the
    // thread spawner (end of thread), and the data ports for everything else.
    let out = match info.sfid {
        gencl_isa::Sfid::Gateway => {
            Gateway::message(m, desc).map_err(|why| GpuError::IllegalInstruction {
                addr: inst.addr,
                why,
            })?
        }
        gencl_isa::Sfid::ThreadSpawner => SendOutcome::Eot,
        _ => {
            // The usual message, taken where its registers are (its form known since the
            // send was decoded, when its descriptor is an immediate), else the exchange
            // of a message and a reply.
            let form = match inst.message {
                Some(_) => inst.in_place,
                None => send::in_place_form(inst, m),
            };
            let taken = match form {
                Some(f) => dp.send_form(inst.addr, &f, &mut t.grf, emask)?,
                None => None,
            };
            let out = match taken {
                Some(out) => out,
                None => port.exchange(dp, t, inst, emask, desc, m)?,
            };
            // End of thread rides on a data-port message too (its reply written).
            if info.eot {
                SendOutcome::Eot
            } else {
                out
            }
        }
    };
    if let SendOutcome::Continue { latency } = out {
        timing.reply(reply, u64::from(latency));
    }
    Ok(out)
}

/// The EU's count of a send it issues (the send, its kind, its lanes `emask`) and its
/// place on the scoreboard: its payloads are read and its reply written (registers
/// `grfs`) where no reply still on its way lands.
fn issue_send(
    info: &gencl_isa::SendInfo,
    desc: u32,
    emask: u32,
    grfs: u128,
    counters: &mut Counters,
    timing: &mut Timing,
) {
    counters.sends += 1;
    timing::count_send(counters, info, desc);
    counters.lane_instructions += u64::from(emask.count_ones());
    timing.touch(grfs);
    timing.issue += 1;
}

/// What a translated run's sends and scoreboard waits reach (`translate::Host`): the
/// group's data port and the thread's counters and timing, as `step` has them.
struct EuHost<'a, 'm> {
    prog: &'a Program,
    dp: &'a mut Dataport<'m>,
    port: &'a mut send::Port,
    counters: &'a mut Counters,
    timing: &'a mut Timing,
    /// The run's issue cycles already added to `timing` (the rest when it ends).
    synced: u64,
}

impl<'a> EuHost<'a, '_> {
    /// The run has issued `issue` cycles so far: the thread's cycle is where they end.
    fn sync(&mut self, issue: u64) {
        self.timing.issue += issue - self.synced;
        self.synced = issue;
    }

    /// The run's `what` at `addr`, which the EU takes after the run's `issue` cycles so far.
    fn take(&mut self, addr: u64, issue: u64, what: &str) -> Result<&'a ExecInst, GpuError> {
        self.sync(issue);
        let prog: &'a Program = self.prog;
        prog.decoded(addr)
            .ok_or_else(|| GpuError::IllegalInstruction {
                addr,
                why: format!("a translated {what} that is not decoded"),
            })
    }
}

impl translate::Host for EuHost<'_, '_> {
    fn send(&mut self, t: &mut Thread, addr: u64, issue: u64) -> Result<(), GpuError> {
        let inst = self.take(addr, issue, "send")?;
        match send_message(t, inst, self.dp, self.port, self.counters, self.timing)? {
            SendOutcome::Continue { .. } => Ok(()),
            // `translate::translatable` takes data-port messages without end of thread.
            _ => Err(GpuError::IllegalInstruction {
                addr,
                why: "a translated send that ends the thread or meets a barrier".into(),
            }),
        }
    }

    fn wait(&mut self, grfs: u128, issue: u64) {
        self.sync(issue);
        self.timing.touch(grfs);
    }

    fn flow(&mut self, t: &mut Thread, addr: u64, issue: u64) -> Result<(), GpuError> {
        let inst = self.take(addr, issue, "flow instruction")?;
        flow_step(t, inst, self.counters, self.timing)
    }

    fn busy(&self) -> u128 {
        self.timing.busy()
    }
}

/// A flow instruction of `t` (the interpreter's and a translated run's), but for counting
/// it as an instruction: its scoreboard wait, issue cycle and lanes, and where it takes the
/// thread's channels.
fn flow_step(
    t: &mut Thread,
    inst: &ExecInst,
    counters: &mut Counters,
    timing: &mut Timing,
) -> Result<(), GpuError> {
    timing.touch(inst.touch);
    timing.issue += 1;
    let lanes = flow::exec(t, inst)?;
    counters.lane_instructions += u64::from(lanes.count_ones());
    Ok(())
}

enum Step {
    Next,
    Barrier,
    Blocked,
}

fn step(
    t: &mut Thread,
    inst: &ExecInst,
    dp: &mut Dataport,
    port: &mut send::Port,
    counters: &mut Counters,
    timing: &mut Timing,
) -> Result<Step, GpuError> {
    use Opcode::*;
    match inst.op {
        Send | Sendc | Sends | Sendsc => {
            counters.instructions += 1;
            let out = send_message(t, inst, dp, port, counters, timing)?;
            t.ip = t.ip.wrapping_add(u64::from(inst.len));
            match out {
                SendOutcome::Continue { .. } => Ok(Step::Next),
                SendOutcome::Barrier => Ok(Step::Barrier),
                SendOutcome::Eot => {
                    timing.end();
                    t.state = RunState::Done;
                    Ok(Step::Blocked)
                }
            }
        }
        Wait => {
            // `wait n0.0`: consume one notification or sleep until one arrives.
            let n0 = t.arf_u32(program::arf::N0, 0);
            if n0 == 0 {
                t.state = RunState::WaitNotify;
                return Ok(Step::Blocked);
            }
            t.set_arf_u32(program::arf::N0, 0, n0 - 1);
            counters.instructions += 1;
            timing.issue += 1;
            t.ip = t.ip.wrapping_add(u64::from(inst.len));
            Ok(Step::Next)
        }
        If | Else | Endif | While | Break | Cont | Halt | Goto | Join | Jmpi | Call | Ret
        | Calla | Brd | Brc | Nop | Illegal => {
            counters.instructions += 1;
            flow_step(t, inst, counters, timing)?;
            Ok(Step::Next)
        }
        _ => {
            timing.touch(inst.touch);
            let lanes = match &inst.fast {
                Some(p) if p.applies(t.cr0()) => fast::exec(t, inst, p),
                _ => alu::exec(t, inst)?,
            };
            counters.instructions += 1;
            counters.lane_instructions += u64::from(lanes.count_ones());
            timing.issue += u64::from(inst.issue);
            t.ip = t.ip.wrapping_add(u64::from(inst.len));
            Ok(Step::Next)
        }
    }
}
