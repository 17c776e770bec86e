//! When a running batch counts as hung by time: the model's stand-in for i915's heartbeat
//! and preemption timeout.
//!
//! On a Gen9, i915 does not bound how long a compute batch runs: GPGPU work is preemptible
//! (mid-thread on Gen9), so the engine's heartbeat gets through and a long kernel goes on.
//! A context is reset only when something else cannot get the engine: a heartbeat or
//! another context's request waits past the preemption timeout. The model cannot preempt a
//! dispatch, so it stops a batch that holds the engine while another context's batch waits
//! (`Budget::max_starved`, default 20 s, two heartbeat intervals scaled to the model's
//! speed). A batch alone on the engine runs until a hard ceiling (`Budget::max_time`,
//! default 10 minutes: on a Gen9 about a second and a half of work at the model's speed),
//! so that an endless kernel still ends a CI run. `GENCL_HANG_TIMEOUT_MS` sets one bound
//! for both: what a test or a user who wants a tight watchdog asks for.
//!
//! The bounds are the model's running time, not wall time: a Gen9 runs on while its host
//! is stopped or busy, and the model's GPU is host threads that do not. Each host thread
//! that runs the batch counts the CPU time it spent on it (its CPU clock), and the batch
//! has run past a bound when one of them has. A process stopped with SIGSTOP or under a
//! debugger, or starved of the CPU by other processes, so no longer has its batch reset
//! for time the model did not run (seen on 2026-12-01: a CTS run stopped for a quarter of
//! an hour failed its next kernel with "the context was reset"). While another context
//! waits, the batch's time counts from the first look that sees it waiting.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The time on the coarse monotonic clock (CLOCK_MONOTONIC_COARSE: the time of the last
/// scheduler tick, the same clock as CLOCK_MONOTONIC but a few milliseconds behind at
/// most). The model reads it after every round of a group's threads and every few groups,
/// to know whether a bound could have passed since the thread's CPU clock was last read:
/// a thread runs no longer than the time that passes. The precise clock costs four times
/// as much on this project's VMs (38 ns against 9 a read), and a thread's CPU clock is a
/// system call; reading either twice a group was several per cent of a launch of many
/// short groups.
fn coarse() -> Duration {
    read(nix::time::ClockId::CLOCK_MONOTONIC_COARSE)
}

fn precise() -> Duration {
    read(nix::time::ClockId::CLOCK_MONOTONIC)
}

/// The CPU time the calling thread has run.
fn thread_cpu() -> Duration {
    read(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID)
}

fn read(clock: nix::time::ClockId) -> Duration {
    nix::time::clock_gettime(clock)
        .map(Duration::from)
        .unwrap_or_default()
}

/// How far two reads of the coarse clock may understate the time between them (a tick
/// at 100 Hz, the slowest kernel tick, and a margin).
const COARSE_SLACK: Duration = Duration::from_millis(20);

/// Since when another context's batch has waited for the engine (shared between the queue
/// that receives submissions and the batch that runs).
#[derive(Debug, Default)]
pub struct Starvation {
    /// Nanoseconds on the monotonic clock (`precise`), plus one; 0 while nobody waits.
    since: AtomicU64,
}

impl Starvation {
    /// Another context's batch waits from now on (an earlier wait keeps its start).
    pub fn waiting(&self) {
        let now = precise().as_nanos() as u64 + 1;
        let _ = self
            .since
            .compare_exchange(0, now, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Nobody waits (the engine took the next batch, or the queue holds only the running
    /// context's).
    pub fn clear(&self) {
        self.since.store(0, Ordering::Relaxed);
    }

    /// The wait in force: its start as `since` keeps it (an id of the wait), if any.
    fn since(&self) -> Option<u64> {
        match self.since.load(Ordering::Relaxed) {
            0 => None,
            n => Some(n),
        }
    }
}

/// The time bounds of one running batch.
#[derive(Debug, Clone, Default)]
pub struct Watchdog {
    /// Which batch (from 1; 0 for no bounds): whose time a host thread is counting.
    batch: u64,
    /// The batch's start on the monotonic clock, `precise` (in `Starvation::since`'s units).
    start: u64,
    /// Past this much running time the batch is hung, whoever waits.
    max_time: Option<Duration>,
    /// How long it may run while another context waits, and who waits.
    starved: Option<(Duration, Arc<Starvation>)>,
}

/// One host thread's count of the batch it runs.
#[derive(Debug, Clone, Copy, Default)]
struct Count {
    /// The batch counted (`Watchdog::batch`); 0: none.
    batch: u64,
    /// The thread's CPU clock and the coarse clock when the CPU clock was last read.
    cpu_read: Duration,
    wall_read: Duration,
    /// CPU time this thread has spent on the batch, as of that read.
    ran: Duration,
    /// The other context's wait this thread has seen (`Starvation::since`; 0: none), and
    /// `ran` when it first saw it.
    wait: u64,
    ran_at_wait: Duration,
}

thread_local! {
    static COUNT: Cell<Count> = Cell::new(Count::default());
}

static BATCHES: AtomicU64 = AtomicU64::new(1);

impl Watchdog {
    /// No bound by time (work and command budgets still apply).
    pub fn none() -> Self {
        Self::default()
    }

    /// The bounds of a batch starting now.
    pub fn start(
        max_time: Option<Duration>,
        max_starved: Option<Duration>,
        starvation: Option<&Arc<Starvation>>,
    ) -> Self {
        Self {
            batch: BATCHES.fetch_add(1, Ordering::Relaxed),
            start: precise().as_nanos() as u64 + 1,
            max_time,
            starved: max_starved.zip(starvation.cloned()),
        }
    }

    /// Whether the batch has run past one of its bounds, by the calling thread's count
    /// (a thread that first asks begins its count).
    pub fn expired(&self) -> bool {
        if self.max_time.is_none() && self.starved.is_none() {
            return false;
        }
        let wall = coarse();
        let mut c = COUNT.get();
        if c.batch != self.batch {
            c = Count {
                batch: self.batch,
                cpu_read: thread_cpu(),
                wall_read: wall,
                ..Count::default()
            };
        }
        let wait = self
            .starved
            .as_ref()
            .and_then(|(limit, s)| s.since().map(|since| (*limit, since)));
        // The running time left before a bound passes, as of the last read; a wait not
        // seen before needs a read to start its count.
        let mut left = self
            .max_time
            .map_or(Duration::MAX, |t| t.saturating_sub(c.ran));
        let mut read = false;
        if let Some((limit, since)) = wait {
            if since == c.wait {
                left = left.min((c.ran_at_wait + limit).saturating_sub(c.ran));
            } else {
                read = true;
            }
        }
        if read || wall.saturating_sub(c.wall_read) + COARSE_SLACK >= left {
            let cpu = thread_cpu();
            c.ran += cpu.saturating_sub(c.cpu_read);
            c.cpu_read = cpu;
            c.wall_read = wall;
        }
        let mut hung = self.max_time.is_some_and(|t| c.ran >= t);
        match wait {
            Some((limit, since)) => {
                if since != c.wait {
                    // A wait that began before the batch counts from the batch's start
                    // (this thread's part of it).
                    c.wait = since;
                    c.ran_at_wait = if since <= self.start {
                        Duration::ZERO
                    } else {
                        c.ran
                    };
                }
                hung |= c.ran.saturating_sub(c.ran_at_wait) >= limit;
            }
            None => c.wait = 0,
        }
        COUNT.set(c);
        hung
    }

    /// The calling thread ran other work since its last look (another dispatch's lane):
    /// its count starts again at its next look, so that this work is not charged.
    pub fn lent() {
        COUNT.set(Count::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Runs on this thread's CPU for `d` of its CPU time, looking at `w` as the model does
    /// between rounds; whether it expired, and when.
    fn run_for(w: &Watchdog, d: Duration) -> Option<Duration> {
        let start = thread_cpu();
        while thread_cpu() - start < d {
            if w.expired() {
                return Some(thread_cpu() - start);
            }
        }
        None
    }

    #[test]
    fn a_hard_bound_counts_the_time_the_thread_ran() {
        let w = Watchdog::start(Some(Duration::ZERO), None, None);
        assert!(w.expired());
        // Never early: at least the bound's CPU time, whatever the wall clock says.
        let bound = Duration::from_millis(30);
        let w = Watchdog::start(Some(bound), None, None);
        let ran = run_for(&w, Duration::from_secs(2)).expect("expires");
        assert!(ran >= bound, "expired after {ran:?} of CPU time");
        assert!(w.expired());
        assert!(!Watchdog::none().expired());
        let w = Watchdog::start(Some(Duration::from_secs(3600)), None, None);
        assert!(!w.expired());
    }

    #[test]
    fn a_thread_that_does_not_run_does_not_count() {
        // As a process stopped by SIGSTOP or a debugger: time passes, the model does not
        // run, the batch is not hung.
        let bound = Duration::from_millis(40);
        let w = Watchdog::start(Some(bound), None, None);
        assert!(!w.expired());
        std::thread::sleep(Duration::from_millis(120));
        assert!(!w.expired(), "asleep three times the bound");
        // Other threads' work is not this batch's (the CPU taken by other processes).
        std::thread::scope(|s| {
            s.spawn(|| {
                let t = Instant::now();
                while t.elapsed() < Duration::from_millis(120) {
                    std::hint::black_box(thread_cpu());
                }
            });
        });
        assert!(!w.expired(), "another thread ran three times the bound");
        // Running, it expires after the bound.
        assert!(run_for(&w, Duration::from_secs(2)).is_some());
        // Another batch on the same thread counts afresh; a thread lent to other work
        // starts its count again.
        let w2 = Watchdog::start(Some(bound), None, None);
        assert!(!w2.expired());
        run_for(&w2, Duration::from_millis(20));
        Watchdog::lent();
        run_for(&w2, Duration::from_millis(25));
        assert!(!w2.expired(), "20 + 25 ms, the first 20 lent");
        assert!(run_for(&w2, Duration::from_secs(2)).is_some());
    }

    #[test]
    fn starvation_counts_only_while_another_context_waits() {
        let s = Arc::new(Starvation::default());
        let limit = Duration::from_millis(30);
        let w = Watchdog::start(None, Some(limit), Some(&s));
        assert_eq!(
            run_for(&w, Duration::from_millis(40)),
            None,
            "nobody waits: the batch runs on"
        );
        let t = thread_cpu();
        s.waiting();
        assert!(!w.expired(), "the wait has just begun");
        std::thread::sleep(Duration::from_millis(60));
        assert!(!w.expired(), "the batch has not run while the other waited");
        run_for(&w, Duration::from_secs(2)).expect("another context waited past the limit");
        let ran = thread_cpu() - t;
        assert!(ran >= limit, "{ran:?}");
        s.clear();
        assert!(!w.expired(), "the waiter left");
        // A second wait counts from its own start.
        s.waiting();
        assert!(run_for(&w, Duration::from_millis(20)).is_none());
        assert!(run_for(&w, Duration::from_secs(2)).is_some());
        s.clear();
        // A wait that began before the batch counts from the batch's start.
        s.waiting();
        let t = thread_cpu();
        let w2 = Watchdog::start(None, Some(limit), Some(&s));
        assert!(!w2.expired());
        run_for(&w2, Duration::from_secs(2)).expect("expires");
        let ran = thread_cpu() - t;
        assert!(ran >= limit, "{ran:?}");
    }
}
