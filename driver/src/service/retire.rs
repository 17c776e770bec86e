//! A client's retiring thread: launches are queued to the GPU by the thread that serves the
//! client's requests, which answers `Queued` and goes on; this thread waits for each launch
//! in the order they were queued (the order the GPU runs them in), and reports it through the
//! client's sink as `Completed`.
//!
//! A launch its client waits for at once (`Client::launch_waited`) may instead be retired by
//! the thread that waits (`Retirer::hold`, `Held::retire`) when this thread has nothing of the
//! client's before it: on the emulated device that thread then runs the batch itself
//! (`EmulatedI915::wait_retired` helps an idle engine), and a blocking launch's round trip
//! wakes no other thread. While a launch is held this thread retires nothing, so launches
//! are still reported in the order they were queued.

use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::gpu::ClientGpu;
use super::stats::ClientCounters;
use crate::protocol::{ErrorCode, Launched, Response};
use crate::submit::Submitted;

/// Where a client's `Completed` messages go, several at a time in the order of their
/// launches: its socket (one write), or the embedded ICD's dispatcher.
pub type Sink = Arc<dyn Fn(Vec<Response>) + Send + Sync>;

/// Completions held back while the client's next launch is already queued here, sent
/// together (`run`): one write, and one wake-up of the client's reader and of its queue's
/// worker, for a batch of short launches instead of one each. None is held longer than
/// `GATHER_FOR` past its launch's end, nor more than `GATHER_AT_MOST` of them, nor behind
/// a kernel that itself takes `GATHER_FOR` or more (its last launch's time); the last of a
/// run of launches is sent as soon as it retires.
const GATHER_FOR: Duration = Duration::from_micros(50);
const GATHER_AT_MOST: usize = 32;

/// The longest a kernel's last launch may have taken to retire for gencld's connection thread
/// to retire the next one itself (`Request::PostWaited`): the client's other requests wait
/// for it meanwhile.
pub const HOLD_AT_MOST: Duration = Duration::from_millis(1);

/// How long a kernel's last launch took from the start of its retiring to its end (host
/// time, nanoseconds; unknown until one has run): about the kernel's time on the GPU (more
/// where launches before it were still running, less where the retiring thread came to it
/// late).
#[derive(Clone)]
pub struct Took(Arc<AtomicU64>);

impl Default for Took {
    fn default() -> Self {
        Took(Arc::new(AtomicU64::new(u64::MAX)))
    }
}

impl Took {
    /// Its last launch is known and took less than `limit`.
    pub fn below(&self, limit: Duration) -> bool {
        u128::from(self.0.load(Ordering::Relaxed)) < limit.as_nanos()
    }
    fn record(&self, since: Instant) {
        let ns = u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX - 1);
        self.0.store(ns, Ordering::Relaxed);
    }
}

#[derive(Default)]
struct Jobs {
    /// (tag, the client's queue, the launch, its kernel's time).
    queue: VecDeque<(u64, u64, Submitted, Took)>,
    closed: bool,
    /// The thread is retiring a launch it took from `queue`.
    busy: bool,
    /// A launch is being retired by the thread that waits for it (`Held`).
    held: bool,
}

impl Jobs {
    /// Nothing of the client is queued, in the retiring thread's hands or held, and the
    /// retirer is open: a launch may be held for its caller.
    fn idle(&self) -> bool {
        self.queue.is_empty() && !self.busy && !self.held && !self.closed
    }
}

#[derive(Default)]
struct Shared {
    jobs: Mutex<Jobs>,
    queued: Condvar,
}

pub struct Retirer {
    shared: Arc<Shared>,
    gpu: Arc<ClientGpu>,
    counters: Arc<ClientCounters>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// A launch that the thread waiting for it retires (`Retirer::hold`).
pub struct Held {
    shared: Arc<Shared>,
    gpu: Arc<ClientGpu>,
    counters: Arc<ClientCounters>,
    tag: u64,
    queue: u64,
    launch: Option<Submitted>,
    took: Took,
}

impl Held {
    /// Wait for the launch to finish (running it, where the device lets the waiter), and
    /// its outcome as `Completed` would carry it.
    pub fn retire(mut self) -> Result<Launched, (ErrorCode, String)> {
        let launch = self.launch.take().expect("a held launch is retired once");
        let result = retire_one(self.tag, launch, &self.gpu, &self.took);
        self.counters.finished(self.queue, result.is_ok());
        result
    }
}

impl Drop for Held {
    /// The retiring thread goes on (with this launch, if it was never retired here).
    fn drop(&mut self) {
        let mut j = self.shared.jobs.lock();
        if let Some(launch) = self.launch.take() {
            j.queue
                .push_front((self.tag, self.queue, launch, self.took.clone()));
        }
        j.held = false;
        // Woken only when it has something to do (a wake-up costs the caller a system call).
        let wake = !j.queue.is_empty() || j.closed;
        drop(j);
        if wake {
            self.shared.queued.notify_one();
        }
    }
}

impl Retirer {
    /// Its finished launches are counted in `counters` on their way to `sink`.
    pub fn new(
        gpu: Arc<ClientGpu>,
        sink: Sink,
        counters: Arc<ClientCounters>,
    ) -> std::io::Result<Retirer> {
        let shared = Arc::new(Shared::default());
        let s = shared.clone();
        let (g, c) = (gpu.clone(), counters.clone());
        let thread = std::thread::Builder::new()
            .name("gencl-retire".into())
            .spawn(move || run(&s, &g, &*sink, &c))?;
        Ok(Retirer {
            shared,
            gpu,
            counters,
            thread: Some(thread),
        })
    }

    /// `launch`, for the caller to retire (`Held::retire`) when nothing of the client is
    /// queued here or being retired; else it is queued as `push` queues it (`None`).
    pub fn hold(&self, tag: u64, queue: u64, launch: Submitted, took: Took) -> Option<Held> {
        let mut j = self.shared.jobs.lock();
        if !j.idle() {
            j.queue.push_back((tag, queue, launch, took));
            drop(j);
            self.shared.queued.notify_one();
            return None;
        }
        j.held = true;
        Some(Held {
            shared: self.shared.clone(),
            gpu: self.gpu.clone(),
            counters: self.counters.clone(),
            tag,
            queue,
            launch: Some(launch),
            took,
        })
    }

    /// Retire `launch` (of the client's queue `queue`) after those queued before it, and
    /// report it as `tag`.
    pub fn push(&self, tag: u64, queue: u64, launch: Submitted, took: Took) {
        self.shared
            .jobs
            .lock()
            .queue
            .push_back((tag, queue, launch, took));
        self.shared.queued.notify_one();
    }
}

impl Drop for Retirer {
    /// Every launch queued is retired (its slot and buffers are then free to go) before the
    /// thread ends.
    fn drop(&mut self) {
        self.shared.jobs.lock().closed = true;
        self.shared.queued.notify_one();
        if let Some(t) = self.thread.take() {
            if t.join().is_err() {
                tracing::error!("the retiring thread panicked");
            }
        }
    }
}

fn run(
    shared: &Shared,
    gpu: &ClientGpu,
    sink: &(dyn Fn(Vec<Response>) + Send + Sync),
    counters: &ClientCounters,
) {
    // Completions retired and not sent yet, and when the first of them was.
    let mut gathered: Vec<Response> = Vec::new();
    let mut since = Instant::now();
    loop {
        let (tag, queue, launch, took) = {
            let mut j = shared.jobs.lock();
            loop {
                // Nothing after a held launch before it (the order of `Completed`); none is
                // held while this thread is busy, and it stays busy while it holds back
                // completions.
                if !j.held {
                    if let Some(job) = j.queue.pop_front() {
                        j.busy = true;
                        break job;
                    }
                    if j.closed && gathered.is_empty() {
                        return;
                    }
                }
                if !gathered.is_empty() {
                    drop(j);
                    sink(std::mem::take(&mut gathered));
                    j = shared.jobs.lock();
                    j.busy = false;
                    continue;
                }
                shared.queued.wait(&mut j);
            }
        };
        let result = retire_one(tag, launch, gpu, &took);
        counters.finished(queue, result.is_ok());
        if gathered.is_empty() {
            since = Instant::now();
        }
        gathered.push(Response::Completed { tag, result });
        let next_queued = !shared.jobs.lock().queue.is_empty();
        let hold = next_queued
            && gathered.len() < GATHER_AT_MOST
            && since.elapsed() < GATHER_FOR
            && took.below(GATHER_FOR);
        if !hold {
            sink(std::mem::take(&mut gathered));
            shared.jobs.lock().busy = false;
        }
    }
}

/// Wait for `launch` and make its outcome what `Completed` carries.
fn retire_one(
    tag: u64,
    launch: Submitted,
    gpu: &ClientGpu,
    took: &Took,
) -> Result<Launched, (ErrorCode, String)> {
    let since = Instant::now();
    let retired = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| launch.retire(gpu)));
    took.record(since);
    match retired {
        Ok(Ok(s)) => Ok(Launched {
            start_ns: s.start_ns,
            end_ns: s.end_ns,
            printf: s.printf,
        }),
        Ok(Err(e)) => Err((ErrorCode::LaunchFailed, e.to_string())),
        Err(_) => {
            tracing::error!(tag, "panic retiring a launch");
            Err((
                ErrorCode::LaunchFailed,
                "internal error retiring the launch".into(),
            ))
        }
    }
}
