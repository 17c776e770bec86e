//! A client's retiring thread: launches are queued to the GPU by the thread that serves the
//! client's requests, which answers `Queued` and goes on; this thread waits for each launch
//! in the order they were queued (the order the GPU runs them in), and reports it through the
//! client's sink as `Completed`.

use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::sync::Arc;

use super::gpu::ClientGpu;
use super::stats::ClientCounters;
use crate::protocol::{ErrorCode, Launched, Response};
use crate::submit::Submitted;

/// Where a client's `Completed` messages go: its socket, or the embedded ICD's dispatcher.
pub type Sink = Arc<dyn Fn(Response) + Send + Sync>;

#[derive(Default)]
struct Jobs {
    /// (tag, the client's queue, the launch).
    queue: VecDeque<(u64, u64, Submitted)>,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    jobs: Mutex<Jobs>,
    queued: Condvar,
}

pub struct Retirer {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
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
        let thread = std::thread::Builder::new()
            .name("gencl-retire".into())
            .spawn(move || run(&s, &gpu, &*sink, &counters))?;
        Ok(Retirer {
            shared,
            thread: Some(thread),
        })
    }

    /// Retire `launch` (of the client's queue `queue`) after those queued before it, and
    /// report it as `tag`.
    pub fn push(&self, tag: u64, queue: u64, launch: Submitted) {
        self.shared
            .jobs
            .lock()
            .queue
            .push_back((tag, queue, launch));
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
    sink: &(dyn Fn(Response) + Send + Sync),
    counters: &ClientCounters,
) {
    loop {
        let (tag, queue, launch) = {
            let mut j = shared.jobs.lock();
            loop {
                if let Some(job) = j.queue.pop_front() {
                    break job;
                }
                if j.closed {
                    return;
                }
                shared.queued.wait(&mut j);
            }
        };
        let retired = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| launch.retire(gpu)));
        let result = match retired {
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
        };
        counters.finished(queue, result.is_ok());
        sink(Response::Completed { tag, result });
    }
}
