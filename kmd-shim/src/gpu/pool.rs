//! The host threads that run a dispatch's thread groups, as a Gen9's EUs run the groups of
//! one GPGPU_WALKER side by side.
//!
//! Groups are claimed in walker order (X fastest, then Y, then Z) from one counter by up to
//! `workers` host threads; each thread has its own counters, summed at the end, so the
//! totals do not depend on which thread ran which group. Memory is shared as the EUs share
//! it (`GpuMemory: Sync`; the data port makes each lane's global atomic indivisible), and
//! each host thread's group runs in hardware thread slots of its own (its scratch). A
//! kernel whose results do not depend on the order of its atomics writes the same bytes on
//! one host thread and on many. When a group fails, no further group starts, the groups
//! already running finish, and the error of the earliest failing group in walker order is
//! the dispatch's (the one a single host thread would have met first).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use super::watchdog::Watchdog;
use super::{Counters, GpuError};

/// Host threads for a dispatch: GENCL_GPU_THREADS, else every core the process may use
/// (at most 64).
pub fn host_threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| {
        std::env::var("GENCL_GPU_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(64)
    })
}

/// The thread-group ids a walker covers: from `start` (inclusive) to `end` (exclusive) in
/// each dimension.
#[derive(Debug, Clone, Copy)]
pub struct GroupGrid {
    start: [u32; 3],
    size: [u64; 3],
}

impl GroupGrid {
    pub fn new(start: [u32; 3], end: [u32; 3]) -> Self {
        let size = std::array::from_fn(|d| u64::from(end[d].saturating_sub(start[d])));
        Self { start, size }
    }

    pub fn len(&self) -> u64 {
        self.size.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id of the `i`-th group in walker order.
    pub fn group(&self, i: u64) -> [u32; 3] {
        let x = i % self.size[0];
        let y = (i / self.size[0]) % self.size[1];
        let z = i / (self.size[0] * self.size[1]);
        [
            self.start[0] + x as u32,
            self.start[1] + y as u32,
            self.start[2] + z as u32,
        ]
    }
}

/// Runs one group: its id, its sequence number in the dispatch, the host thread running it
/// (0..workers: which hardware thread slots it takes), the EU instructions it may still
/// issue, and that thread's counters.
pub type RunGroup<'a> =
    dyn Fn([u32; 3], u32, usize, u64, &mut Counters) -> Result<(), GpuError> + Sync + 'a;

/// One dispatch's groups and the bounds they share.
pub struct Run<'a> {
    pub groups: GroupGrid,
    pub workers: usize,
    /// The batch's work budget and what it has used before this dispatch (a group's
    /// threads and its EU instructions count, as the command streamer counts them).
    pub max_work: u64,
    pub work: u64,
    pub watchdog: &'a Watchdog,
    /// Work (threads and instructions) the calling thread does alone before the other
    /// host threads join; 0: they join at once.
    pub helpers_after: u64,
}

/// The process's host threads for dispatches, beside each dispatch's calling thread:
/// `host_threads() - 1` of them, started once. `None` when none could be started (the
/// calling thread then runs every group).
fn helper_threads() -> Option<&'static rayon_core::ThreadPool> {
    static POOL: OnceLock<Option<rayon_core::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let n = host_threads().saturating_sub(1);
        if n == 0 {
            return None;
        }
        rayon_core::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("gencl-eu{}", i + 1))
            .build()
            .map_err(|e| tracing::warn!("no host threads for the GPU model's EUs: {e}"))
            .ok()
    })
    .as_ref()
}

/// Host threads that can run at once for one dispatch: the calling thread and the pool's.
pub fn lanes_available() -> usize {
    helper_threads().map_or(1, |p| p.current_num_threads() + 1)
}

/// `lane(i)` for each `i` in `0..lanes`, side by side: 0 on the calling thread, the others
/// on the pool's threads (one each; `lanes` is at most `lanes_available()`, so every lane
/// gets a thread of its own and lanes may wait for each other). Their results in order.
pub fn side_by_side<T: Send>(lanes: usize, lane: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    assert!(lanes <= lanes_available(), "more lanes than host threads");
    let Some(pool) = helper_threads().filter(|_| lanes > 1) else {
        return (0..lanes).map(lane).collect();
    };
    let others = parking_lot::Mutex::new(Vec::with_capacity(lanes - 1));
    let first = pool.in_place_scope(|s| {
        for i in 1..lanes {
            let others = &others;
            s.spawn(move |_| {
                let r = lane(i);
                others.lock().push((i, r));
            });
        }
        lane(0)
    });
    let mut others = others.into_inner();
    others.sort_by_key(|(i, _)| *i);
    std::iter::once(first)
        .chain(others.into_iter().map(|(_, r)| r))
        .collect()
}

impl Run<'_> {
    /// Runs every group; the batch's work after it, and the dispatch's result.
    ///
    /// The calling thread runs groups itself from the start; the other host threads (a
    /// pool kept for the process: starting threads for each dispatch cost a small launch
    /// several times its own run) join it as soon as the dispatch is known to be long
    /// enough to pay for waking them: at once when `helpers_after` is 0, else once the
    /// calling thread has done that much work and groups are left. A dispatch of a few
    /// short groups so wakes no other thread.
    pub fn run(
        &self,
        counters: &mut Counters,
        group: &RunGroup<'_>,
    ) -> (u64, Result<(), GpuError>) {
        let total = self.groups.len();
        let shared = Shared {
            next: AtomicU64::new(0),
            work: AtomicU64::new(self.work),
            failed: AtomicBool::new(false),
        };
        let helpers = helper_threads();
        // More lanes than host threads would only queue behind each other.
        let lanes = (self.workers as u64)
            .min(total)
            .min(helpers.map_or(0, |p| p.current_num_threads() as u64) + 1)
            .max(1) as usize;
        let mut outcomes: Vec<Outcome> = Vec::with_capacity(lanes);
        match helpers {
            Some(pool) if lanes > 1 => {
                let joined = parking_lot::Mutex::new(Vec::with_capacity(lanes - 1));
                let own = pool.in_place_scope(|s| {
                    let start = || {
                        for w in 1..lanes {
                            let (shared, joined) = (&shared, &joined);
                            s.spawn(move |_| {
                                // Between groups a helper runs any other dispatch's
                                // waiting lane first, so that a long dispatch does not
                                // hold a short one's end (whose time is not this batch's).
                                let o = self.worker(w, shared, group, |_| {
                                    if rayon_core::yield_now() == Some(rayon_core::Yield::Executed)
                                    {
                                        Watchdog::lent();
                                    }
                                });
                                joined.lock().push(o);
                            });
                        }
                    };
                    self.lead(&shared, group, start)
                });
                outcomes.push(own);
                outcomes.extend(joined.into_inner());
            }
            _ => outcomes.push(self.worker(0, &shared, group, |_| {})),
        }
        let mut first: Option<(u64, GpuError)> = None;
        for o in outcomes {
            counters.add(&o.counters);
            if let Some((i, e)) = o.error {
                if first.as_ref().is_none_or(|(j, _)| i < *j) {
                    first = Some((i, e));
                }
            }
        }
        let work = shared.work.load(Ordering::Relaxed);
        (work, first.map_or(Ok(()), |(_, e)| Err(e)))
    }

    /// Host thread 0 (the caller): its groups, starting the helpers when the dispatch has
    /// proved long enough.
    fn lead(&self, shared: &Shared, group: &RunGroup<'_>, start: impl FnOnce()) -> Outcome {
        let mut start = Some(start);
        if self.helpers_after == 0 {
            if let Some(f) = start.take() {
                f();
            }
        }
        let total = self.groups.len();
        self.worker(0, shared, group, |c| {
            if c.threads + c.instructions >= self.helpers_after
                && shared.next.load(Ordering::Relaxed) < total
            {
                if let Some(f) = start.take() {
                    f();
                }
            }
        })
    }

    /// Claims and runs groups until none is left or one failed; `between` is called after
    /// each group with this host thread's counters so far.
    fn worker(
        &self,
        w: usize,
        shared: &Shared,
        group: &RunGroup<'_>,
        mut between: impl FnMut(&Counters),
    ) -> Outcome {
        let mut counters = Counters::default();
        let total = self.groups.len();
        loop {
            if shared.failed.load(Ordering::Relaxed) {
                return Outcome::ok(counters);
            }
            let i = shared.next.fetch_add(1, Ordering::Relaxed);
            if i >= total {
                return Outcome::ok(counters);
            }
            let r = self.one(i, w, shared, group, &mut counters);
            if let Err(e) = r {
                shared.failed.store(true, Ordering::Relaxed);
                return Outcome {
                    counters,
                    error: Some((i, e)),
                };
            }
            between(&counters);
        }
    }

    fn one(
        &self,
        i: u64,
        w: usize,
        shared: &Shared,
        group: &RunGroup<'_>,
        counters: &mut Counters,
    ) -> Result<(), GpuError> {
        // A group's dispatch costs its threads; its instructions are charged after it.
        let threads_before = counters.threads;
        let before = counters.instructions;
        let used = shared.work.load(Ordering::Relaxed);
        if used > self.max_work || (i.is_multiple_of(WATCHDOG_EVERY) && self.watchdog.expired()) {
            return Err(GpuError::Hang);
        }
        let r = group(
            self.groups.group(i),
            i as u32,
            w,
            self.max_work.saturating_sub(used),
            counters,
        );
        let spent = (counters.threads - threads_before) + (counters.instructions - before);
        let used = shared.work.fetch_add(spent, Ordering::Relaxed) + spent;
        r?;
        if used > self.max_work
            || ((i.is_multiple_of(WATCHDOG_EVERY) || spent > LONG_GROUP) && self.watchdog.expired())
        {
            return Err(GpuError::Hang);
        }
        Ok(())
    }
}

/// The watchdog's clock is read before every `WATCHDOG_EVERY`th group and after any group
/// that took more than `LONG_GROUP` units of work (threads and instructions), not around
/// every group: a group of a small launch is a few microseconds, its bounds are seconds,
/// and reading the clock twice a group was 4 % of the model's time on the CTS's
/// vstore_half (small groups; a VM's clock_gettime).
const WATCHDOG_EVERY: u64 = 32;

/// Work (threads and EU instructions) a dispatch's calling thread does alone before it
/// wakes the other host threads, when the kernel's last dispatch was short: waking an idle
/// vCPU costs tens of microseconds, about what this much work takes the model.
pub const HELPERS_AFTER: u64 = 2_000;
const LONG_GROUP: u64 = 100_000;

struct Shared {
    /// The next group to claim, in walker order.
    next: AtomicU64,
    work: AtomicU64,
    failed: AtomicBool,
}

struct Outcome {
    counters: Counters,
    error: Option<(u64, GpuError)>,
}

impl Outcome {
    fn ok(counters: Counters) -> Self {
        Self {
            counters,
            error: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_order_is_the_walkers() {
        let g = GroupGrid::new([1, 0, 2], [3, 2, 4]);
        assert_eq!(g.len(), 8);
        let ids: Vec<_> = (0..g.len()).map(|i| g.group(i)).collect();
        assert_eq!(ids[0], [1, 0, 2]);
        assert_eq!(ids[1], [2, 0, 2]);
        assert_eq!(ids[2], [1, 1, 2]);
        assert_eq!(ids[4], [1, 0, 3]);
        assert_eq!(ids[7], [2, 1, 3]);
        assert!(GroupGrid::new([3, 0, 0], [3, 1, 1]).is_empty());
    }

    fn run_with(workers: usize, fail_at: Option<u32>) -> (Counters, Result<(), GpuError>, u64) {
        let watchdog = Watchdog::none();
        let run = Run {
            groups: GroupGrid::new([0, 0, 0], [10, 10, 1]),
            workers,
            max_work: u64::MAX,
            work: 0,
            watchdog: &watchdog,
            helpers_after: 0,
        };
        let mut c = Counters::default();
        let seen = std::sync::Mutex::new(Vec::new());
        let (work, r) = run.run(&mut c, &|g, seq, w, _, c| {
            assert!(w < workers);
            assert_eq!(seq, g[0] + 10 * g[1]);
            c.threads += 2;
            c.instructions += u64::from(seq);
            seen.lock().unwrap().push(seq);
            if Some(seq) == fail_at || fail_at.is_some_and(|f| seq > f && seq % 7 == 0) {
                return Err(GpuError::IllegalInstruction {
                    addr: u64::from(seq),
                    why: "test".into(),
                });
            }
            Ok(())
        });
        if fail_at.is_none() {
            let mut s = seen.into_inner().unwrap();
            s.sort_unstable();
            assert_eq!(s, (0..100).collect::<Vec<_>>(), "every group exactly once");
        }
        (c, r, work)
    }

    #[test]
    fn many_host_threads_give_the_totals_of_one() {
        let (one, r1, w1) = run_with(1, None);
        assert_eq!(r1, Ok(()));
        assert_eq!(one.threads, 200);
        assert_eq!(one.instructions, (0..100).sum::<u64>());
        assert_eq!(w1, 200 + (0..100).sum::<u64>());
        for workers in [2, 3, 8] {
            let (many, r, w) = run_with(workers, None);
            assert_eq!(r, Ok(()));
            assert_eq!(many, one);
            assert_eq!(w, w1);
        }
    }

    #[test]
    fn the_earliest_failing_group_is_the_error() {
        for workers in [1, 2, 8] {
            let (_, r, _) = run_with(workers, Some(41));
            assert_eq!(
                r,
                Err(GpuError::IllegalInstruction {
                    addr: 41,
                    why: "test".into()
                }),
                "{workers} host threads"
            );
        }
    }

    #[test]
    fn the_work_budget_stops_a_dispatch() {
        let watchdog = Watchdog::none();
        for workers in [1, 4] {
            let run = Run {
                groups: GroupGrid::new([0, 0, 0], [1000, 1, 1]),
                workers,
                max_work: 50,
                work: 0,
                watchdog: &watchdog,
                helpers_after: 0,
            };
            let (_, r) = run.run(&mut Counters::default(), &|_, _, _, _, c| {
                c.instructions += 5;
                Ok(())
            });
            assert_eq!(r, Err(GpuError::Hang));
        }
    }

    fn run_of(groups: u32, workers: usize, helpers_after: u64, watchdog: &Watchdog) -> Run<'_> {
        Run {
            groups: GroupGrid::new([0, 0, 0], [groups, 1, 1]),
            workers,
            max_work: u64::MAX,
            work: 0,
            watchdog,
            helpers_after,
        }
    }

    #[test]
    fn a_short_dispatch_runs_on_the_calling_thread_alone() {
        let watchdog = Watchdog::none();
        let caller = std::thread::current().id();
        let run = run_of(50, 4, HELPERS_AFTER, &watchdog);
        let (_, r) = run.run(&mut Counters::default(), &|_, _, w, _, c| {
            assert_eq!(w, 0);
            assert_eq!(std::thread::current().id(), caller);
            c.instructions += 1;
            Ok(())
        });
        assert_eq!(r, Ok(()));
    }

    /// Waits up to 10 s for `flag`; whether it came.
    fn wait_for(flag: &AtomicBool) -> bool {
        let t = std::time::Instant::now();
        while !flag.load(Ordering::SeqCst) {
            if t.elapsed() > std::time::Duration::from_secs(10) {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        true
    }

    #[test]
    fn a_long_dispatch_brings_the_other_host_threads_in() {
        if helper_threads().is_none() {
            return; // one host thread: nothing to bring in
        }
        let watchdog = Watchdog::none();
        let caller = std::thread::current().id();
        let helped = AtomicBool::new(false);
        // The calling thread's groups past the threshold wait for a helper's group.
        let run = run_of(1000, 2, 10, &watchdog);
        let (_, r) = run.run(&mut Counters::default(), &|_, seq, w, _, c| {
            c.instructions += 5;
            if w != 0 {
                assert_ne!(std::thread::current().id(), caller);
                helped.store(true, Ordering::SeqCst);
            } else if seq >= 2 {
                assert!(wait_for(&helped), "no helper joined a long dispatch");
            }
            Ok(())
        });
        assert_eq!(r, Ok(()));
        assert!(helped.load(Ordering::SeqCst));
    }

    #[test]
    fn a_long_dispatch_does_not_hold_a_short_ones_end() {
        if helper_threads().is_none() {
            return;
        }
        // Dispatch A's groups on the helper threads keep them busy until dispatch B (which
        // needs a helper too: it starts them at once) has ended: B's end must not wait for A's.
        let watchdog = Watchdog::none();
        let a_helped = AtomicBool::new(false);
        let b_done = AtomicBool::new(false);
        let a_gave_up = AtomicBool::new(false);
        let started = std::time::Instant::now();
        std::thread::scope(|s| {
            let a = s.spawn(|| {
                let run = run_of(1_000_000, 64, 0, &watchdog);
                run.run(&mut Counters::default(), &|_, _, w, _, _| {
                    if w != 0 {
                        a_helped.store(true, Ordering::SeqCst);
                    }
                    if !b_done.load(Ordering::SeqCst) {
                        if started.elapsed() < std::time::Duration::from_secs(10) {
                            std::thread::sleep(std::time::Duration::from_micros(500));
                        } else {
                            a_gave_up.store(true, Ordering::SeqCst);
                        }
                    }
                    Ok(())
                })
                .1
            });
            assert!(wait_for(&a_helped), "dispatch A never had a helper");
            let run = run_of(8, 64, 0, &watchdog);
            let (_, r) = run.run(&mut Counters::default(), &|_, _, _, _, _| Ok(()));
            assert_eq!(r, Ok(()));
            b_done.store(true, Ordering::SeqCst);
            assert_eq!(a.join().unwrap(), Ok(()));
        });
        assert!(
            !a_gave_up.load(Ordering::SeqCst),
            "dispatch B ended only after dispatch A's groups stopped waiting for it"
        );
    }
}
