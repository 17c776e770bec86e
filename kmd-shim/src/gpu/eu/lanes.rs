//! One thread group's threads on several host threads ("lanes"), as a Gen9 spreads the
//! threads of a group over the EUs of a subslice: a dispatch of a single group (the CTS's
//! `__local` atomics, a reduction in one work-group) otherwise leaves all but one host core
//! idle.
//!
//! Thread k of the group runs on lane `k % lanes`; each lane runs its threads round-robin
//! as the one-lane loop runs all of them (`eu::run_group`). What the threads of a group
//! share is shared as on the hardware, and made safe for host threads:
//! - the SLM and its spin-wait watch (`dataport::SharedSlm`), taken under one lock for
//!   each SLM message, so a message is indivisible as the SLM's banks make it;
//! - the barrier (`gateway::SharedBarrier`): arrivals counted under a lock, and each lane
//!   notifying its own threads of a completed barrier before it runs them again;
//! - the group's instruction budget, its watchdog and its first error (the other lanes
//!   stop at their next round);
//! - the timing model's figures (`timing::GroupTime`), summed over the lanes.
//!
//! A lane none of whose threads can run (all at a barrier or asleep on a spin-wait) waits
//! for news from the others (a barrier completed, a sleeper woken, a lane ended or failed),
//! spinning for `IDLE_SPIN`, then asleep for at most `IDLE_WAIT` before it looks again
//! (a spin-waiter's bound in rounds goes on); when every lane is so idle with no news since each
//! looked, the group is stalled exactly when the one-lane loop finds no thread to run, and
//! the same follows: the spin-waiters are woken, or, with none, the group is hung.
//!
//! Results: a kernel whose results do not depend on the order in which its threads' SLM
//! messages land (no atomics racing on one word, or only their final values read) writes
//! the same bytes on one lane and on several, with the same counters. Where the order
//! matters (the old values atomics return; a compare-exchange loop's retries) results and
//! counters are those of some interleaving of the threads, as on a GPU.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::timing::GroupTime;
use crate::gpu::dataport::SharedSlm;
use crate::gpu::gateway::SharedBarrier;
use crate::gpu::ThreadGroup;

/// How long a lane with none of its threads able to run waits for news before it looks
/// again (so the spin-waiters' bound in rounds goes on: `dataport::MAX_SLEEP_ROUNDS`).
const IDLE_WAIT: Duration = Duration::from_micros(200);

/// How long a lane with none of its threads able to run looks for news before it sleeps.
const IDLE_SPIN: Duration = Duration::from_micros(50);

/// What the lanes of one group share.
pub struct GroupShare {
    lanes: usize,
    pub slm: Mutex<SharedSlm>,
    pub barrier: SharedBarrier,
    /// EU instructions the lanes have issued (the group's budget is for all of them).
    issued: AtomicU64,
    /// A lane failed: the others stop at their next round.
    stop: AtomicBool,
    events: Mutex<Events>,
    /// `events.epoch`, read without the lock at each round's start.
    epoch: AtomicU64,
    news: Condvar,
    time: Mutex<GroupTime>,
}

#[derive(Default)]
struct Events {
    /// News so far: what may let another lane's threads run.
    epoch: u64,
    /// Lanes waiting for news that have seen all of it (a lane woken by news but not yet
    /// running again is not idle: news sets this to 0).
    waiting: usize,
    /// Lanes ended.
    ended: usize,
}

impl Events {
    fn news(&mut self) {
        self.epoch += 1;
        self.waiting = 0;
    }
}

/// What a lane that found none of its threads able to run does.
#[derive(Debug, PartialEq, Eq)]
pub enum Idle {
    /// Look again: there is news, or the wait ran out.
    Rerun,
    /// No lane can run a thread and there was no news since each looked.
    Stalled,
}

/// Stops the group's lanes when dropped while its host thread panics.
pub struct StopOnPanic<'a>(pub &'a GroupShare);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// One host thread's share of a group: its index among the group's lanes.
#[derive(Clone, Copy)]
pub struct Lane<'a> {
    pub share: &'a GroupShare,
    pub index: usize,
}

impl Lane<'_> {
    pub fn lanes(&self) -> usize {
        self.share.lanes
    }

    /// Whether group thread `k` runs on this lane.
    pub fn owns(&self, k: u32) -> bool {
        k as usize % self.share.lanes == self.index
    }
}

impl GroupShare {
    /// The shared state of `tg` over `lanes` lanes (at least one thread each).
    pub fn new(tg: &ThreadGroup, lanes: usize) -> GroupShare {
        debug_assert!(lanes >= 1 && lanes <= tg.threads.len().max(1));
        GroupShare {
            lanes,
            slm: Mutex::new(SharedSlm {
                slm: vec![0; tg.slm_bytes as usize],
                ..SharedSlm::default()
            }),
            barrier: SharedBarrier::new(tg.threads.len()),
            issued: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            events: Mutex::new(Events::default()),
            epoch: AtomicU64::new(0),
            news: Condvar::new(),
            time: Mutex::new(GroupTime::default()),
        }
    }

    /// The news so far (a lane reads it as it starts a round).
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::Acquire)
    }

    /// Something that may let another lane's threads run: a barrier completed, a sleeper
    /// woken, a lane failed.
    pub fn news(&self) {
        self.announce(self.events.lock());
    }

    /// A lane ran its last thread to its end: idle from now on.
    pub fn lane_ended(&self) {
        let mut e = self.events.lock();
        e.ended += 1;
        self.announce(e);
    }

    /// News, told under the events' lock (`e`) to the lanes that wait for it.
    fn announce(&self, mut e: parking_lot::MutexGuard<'_, Events>) {
        e.news();
        self.epoch.store(e.epoch, Ordering::Release);
        self.news.notify_all();
    }

    /// A lane failed: the others stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.news();
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// `n` more instructions issued by a lane; whether the group's are now past `max`.
    pub fn issue(&self, n: u64, max: u64) -> bool {
        self.issued.fetch_add(n, Ordering::Relaxed) + n > max
    }

    /// A lane ran a round in which none of its threads could run, having read `seen` news
    /// at its start: it waits for news (`Idle::Rerun`) unless every lane is waiting so
    /// (`Idle::Stalled`).
    pub fn idle(&self, seen: u64) -> Idle {
        // The news is most often another lane's barrier arrival a few microseconds away:
        // spinning that long costs less than sleeping and being woken (tens of
        // microseconds on a VM), which would stall the lanes at every barrier.
        let start = Instant::now();
        while start.elapsed() < IDLE_SPIN {
            for _ in 0..64 {
                if self.epoch() != seen {
                    return Idle::Rerun;
                }
                std::hint::spin_loop();
            }
        }
        let mut e = self.events.lock();
        if e.epoch != seen || self.stopped() {
            return Idle::Rerun;
        }
        e.waiting += 1;
        loop {
            if e.waiting + e.ended == self.lanes {
                e.waiting -= 1;
                return Idle::Stalled;
            }
            let waited = self.news.wait_for(&mut e, IDLE_WAIT);
            if e.epoch != seen {
                // News counted this lane out of `waiting`.
                return Idle::Rerun;
            }
            if waited.timed_out() || self.stopped() {
                e.waiting -= 1;
                return Idle::Rerun;
            }
        }
    }

    /// A lane's threads' timing, added to the group's.
    pub fn add_time(&self, t: GroupTime) {
        self.time.lock().add(t);
    }

    /// The group's modelled cycles (`timing::group_cycles` of all its threads).
    pub fn cycles(&self) -> u64 {
        self.time.lock().cycles()
    }
}
