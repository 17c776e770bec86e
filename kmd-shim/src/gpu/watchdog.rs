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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The time on the coarse monotonic clock (CLOCK_MONOTONIC_COARSE: the time of the last
/// scheduler tick, the same clock as CLOCK_MONOTONIC but a few milliseconds behind at
/// most). The model reads it after every round of a group's threads and every few groups;
/// the bounds it checks are seconds. The precise clock costs four times as much on this
/// project's VMs (38 ns against 9 a read), and was 6 % of the time of a launch of many short
/// groups. Being behind, it never sees a bound passed early: the instants it is compared
/// with are read on the precise clock (`precise`), once a batch or a wait.
fn coarse() -> Duration {
    read(nix::time::ClockId::CLOCK_MONOTONIC_COARSE)
}

fn precise() -> Duration {
    read(nix::time::ClockId::CLOCK_MONOTONIC)
}

fn read(clock: nix::time::ClockId) -> Duration {
    nix::time::clock_gettime(clock)
        .map(Duration::from)
        .unwrap_or_default()
}

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

    fn since(&self) -> Option<Duration> {
        match self.since.load(Ordering::Relaxed) {
            0 => None,
            n => Some(Duration::from_nanos(n - 1)),
        }
    }
}

/// The time bounds of one running batch.
#[derive(Debug, Clone, Default)]
pub struct Watchdog {
    start: Option<Duration>,
    /// Past this the batch is hung, whoever waits.
    deadline: Option<Duration>,
    /// How long it may hold the engine while another context waits, and who waits.
    starved: Option<(Duration, Arc<Starvation>)>,
}

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
        let now = precise();
        Self {
            start: Some(now),
            deadline: max_time.map(|t| now + t),
            starved: max_starved.zip(starvation.cloned()),
        }
    }

    /// Whether the batch has run past one of its bounds.
    pub fn expired(&self) -> bool {
        if self.deadline.is_none() && self.starved.is_none() {
            return false;
        }
        let now = coarse();
        if self.deadline.is_some_and(|d| now >= d) {
            return true;
        }
        match (&self.starved, self.start) {
            (Some((limit, s)), Some(start)) => s
                .since()
                .is_some_and(|since| now.saturating_sub(since.max(start)) >= *limit),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hard_deadline_expires_alone() {
        // Seen at most a tick late (the coarse clock), never early.
        let w = Watchdog::start(Some(Duration::ZERO), None, None);
        std::thread::sleep(Duration::from_millis(20));
        assert!(w.expired());
        let t0 = std::time::Instant::now();
        let bound = Duration::from_millis(30);
        let w = Watchdog::start(Some(bound), None, None);
        while t0.elapsed() < Duration::from_millis(60) {
            if w.expired() {
                assert!(t0.elapsed() >= bound, "expired after {:?}", t0.elapsed());
            }
        }
        assert!(w.expired());
        assert!(!Watchdog::none().expired());
        let w = Watchdog::start(Some(Duration::from_secs(3600)), None, None);
        assert!(!w.expired());
    }

    #[test]
    fn starvation_counts_only_while_another_context_waits() {
        let s = Arc::new(Starvation::default());
        let w = Watchdog::start(None, Some(Duration::from_millis(30)), Some(&s));
        std::thread::sleep(Duration::from_millis(40));
        assert!(!w.expired(), "nobody waits: the batch runs on");
        s.waiting();
        assert!(!w.expired(), "the wait has just begun");
        std::thread::sleep(Duration::from_millis(40));
        assert!(w.expired(), "another context waited past the limit");
        s.clear();
        assert!(!w.expired(), "the waiter left");
        // A wait that began before the batch counts from the batch's start.
        s.waiting();
        std::thread::sleep(Duration::from_millis(40));
        let w2 = Watchdog::start(None, Some(Duration::from_millis(30)), Some(&s));
        assert!(!w2.expired());
    }
}
