//! A command queue's device side: commands wait in `pending` until their events are
//! satisfied, and one worker thread per queue runs them, so that clEnqueue* returns as soon as
//! the command is queued. An in-order queue makes each command wait for the one before; an
//! out-of-order queue runs whatever its wait list allows, with barriers ordering the rest.

use super::context::Context;
use super::event::{now_ns, EventCore, Issue};
use super::sched;
use crate::api::object::{ClObject, Ref};
use crate::api::types::*;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// What a command does when it runs: `Ok(Some(ns))` for a kernel that ran `ns` on the GPU,
/// `Ok(None)` for any other command, `Err(status)` for a failure (the event's error status).
pub type Work = Box<dyn FnOnce() -> Result<Option<u64>, cl_int> + Send>;

/// A kernel launch: queues the kernel to the device and returns at once with the
/// `Completion` that the device's answer fills, or fails to queue it. Its argument: whether
/// the thread running it waits for its event next (a blocking call helping,
/// `wait_helping`), which may then retire it itself before it returns.
pub type Launch = Box<dyn FnOnce(bool) -> Result<Arc<Completion>, cl_int> + Send>;

/// The end of a launch: filled, from whichever thread hears from the device, with what
/// finishes the command (its printf output, its error report, its result); the queue's worker
/// runs it, so that event callbacks and the release of what the launch held run on the
/// worker as for every other command. Not on the thread that heard it: that thread (the
/// retiring thread, or the connection's reader through gencld) is what frees launch slots
/// and delivers answers, and a callback or a last reference dropped there that calls into
/// the connection (clReleaseMemObject → FreeBuffer) would wait for itself.
#[derive(Default)]
pub struct Completion(Mutex<Ends>);

#[derive(Default)]
struct Ends {
    finish: Option<Work>,
    target: Option<InFlight>,
}

impl Completion {
    pub fn fill(&self, finish: Work) {
        let mut ends = self.0.lock();
        match ends.target.take() {
            Some(f) => {
                drop(ends);
                let shared = f.shared.clone();
                shared.finished.lock().push((f, finish));
                shared.waker.wake();
            }
            None => ends.finish = Some(finish),
        }
    }

    /// The command this completion ends, once the device has it (on the worker).
    fn attach(&self, f: InFlight) {
        let mut ends = self.0.lock();
        match ends.finish.take() {
            Some(finish) => {
                drop(ends);
                f.shared.in_flight.fetch_sub(1, Ordering::AcqRel);
                conclude(&f.event, f.start, finish, &f.shared);
            }
            None => ends.target = Some(f),
        }
    }
}

enum Job {
    /// Runs on the worker to its end (buffer commands, markers, barriers).
    Host(Work),
    /// Queued to the device by the worker, finished when its `Completion` is filled.
    Device(Launch),
}

/// A launch the device has queued: what its completion concludes.
struct InFlight {
    event: Arc<EventCore>,
    start: u64,
    shared: Arc<Shared>,
}

/// How a command orders the others (OpenCL 3.0 §5.11).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Command,
    /// clEnqueueMarkerWithWaitList: "If event_wait_list is NULL, then this particular command
    /// waits until all previous enqueued commands to command_queue have completed."
    Marker,
    /// clEnqueueBarrierWithWaitList: as a marker, and "blocks command execution, that is, any
    /// following commands enqueued after it do not execute until it completes."
    Barrier,
}

struct Command {
    event: Arc<EventCore>,
    /// The wait list: a failure there fails this command.
    deps: Vec<Arc<EventCore>>,
    /// What the queue's order adds (the command before, the last barrier, what a marker
    /// waits for): waited for, whatever its outcome.
    after: Vec<Arc<EventCore>>,
    job: Job,
}

impl Command {
    /// An event it waits for that is not done yet (the one to be woken by), if any; with
    /// none it is ready: its wait list done, and what it follows done, or (for a launch) a
    /// launch that the device already has: the device runs one client's launches in the
    /// order they were queued, so an in-order queue of kernels keeps the device busy instead
    /// of waiting a round trip between them.
    fn blocker(&self) -> Option<&Arc<EventCore>> {
        let launch = matches!(self.job, Job::Device(_));
        self.deps.iter().find(|d| !d.is_done()).or_else(|| {
            self.after
                .iter()
                .find(|d| !(d.is_done() || (launch && d.is_on_device())))
        })
    }
}

#[derive(Default)]
struct Order {
    /// In-order queues: the last command (the next one waits for it).
    last: Option<Arc<EventCore>>,
    /// Out-of-order queues: the last barrier (every later command waits for it).
    barrier: Option<Arc<EventCore>>,
    /// Commands not known to be done, oldest first (clFinish waits for them; markers too).
    /// Pruned from the front, so a long batch costs nothing per enqueue.
    outstanding: VecDeque<Arc<EventCore>>,
}

impl Issue for Shared {
    /// Wake whoever does the queue's work if something is pending.
    fn issue(&self) {
        if !self.pending.lock().is_empty() {
            self.waker.wake();
        }
    }
}

#[derive(Default)]
struct Shared {
    out_of_order: bool,
    /// The worker's wake-up (`sched::Waker`).
    waker: sched::Waker,
    /// Events the worker has a wake-up registered on, by address (one each while not done).
    watched: Mutex<std::collections::HashSet<usize>>,
    /// Launches on the device, and those the device has finished, for the worker to conclude.
    in_flight: std::sync::atomic::AtomicUsize,
    finished: Mutex<Vec<(InFlight, Work)>>,
    pending: Mutex<VecDeque<Command>>,
    closed: AtomicBool,
    /// A command failed on the device (a GPU hang or fault: CL_OUT_OF_RESOURCES) since the
    /// last clFinish.
    device_failed: AtomicBool,
}

pub struct QueueCore {
    order: Mutex<Order>,
    shared: Arc<Shared>,
    worker: OnceLock<()>,
}

impl QueueCore {
    pub fn new(out_of_order: bool) -> QueueCore {
        QueueCore {
            order: Mutex::default(),
            shared: Arc::new(Shared {
                out_of_order,
                ..Shared::default()
            }),
            worker: OnceLock::new(),
        }
    }

    /// Queue `work` to run once every event of `wait` is done (and what the queue's order
    /// adds); its event, CL_QUEUED.
    pub fn enqueue(&self, kind: Kind, wait: Vec<Arc<EventCore>>, work: Work) -> Arc<EventCore> {
        self.enqueue_job(kind, wait, Job::Host(work))
    }

    /// Queue a kernel launch: as `enqueue`, but its event completes when the device has run
    /// it, and the launches after it may go to the device meanwhile. It goes to the device
    /// from the worker even when it could go at once: submitting costs the caller tens of µs
    /// (through gencld, a round trip), and waiting for a free launch slot would block it
    /// (measured, docs/runtime.md "Waiting").
    pub fn enqueue_launch(&self, wait: Vec<Arc<EventCore>>, launch: Launch) -> Arc<EventCore> {
        self.enqueue_job(Kind::Command, wait, Job::Device(launch))
    }

    /// Run `work` on the calling thread, for a blocking call: once every event of `wait` and
    /// what the queue's order adds are done, as the worker would run it, without the two
    /// thread hops through the worker (the caller waits for the command anyway). Its event.
    pub fn run_here(&self, kind: Kind, wait: Vec<Arc<EventCore>>, work: Work) -> Arc<EventCore> {
        let (event, after) = self.register(kind, &wait);
        for e in wait.iter().chain(&after) {
            self.wait_helping(e);
        }
        let c = Command {
            event: event.clone(),
            deps: wait,
            after,
            job: Job::Host(work),
        };
        run(c, &self.shared, false);
        event
    }

    /// A new command's event, entered in the queue's order; what that order makes it wait for.
    fn register(
        &self,
        kind: Kind,
        wait: &[Arc<EventCore>],
    ) -> (Arc<EventCore>, Vec<Arc<EventCore>>) {
        self.register_in(&mut self.order.lock(), kind, wait)
    }

    /// `register` under the order's lock, which the caller holds.
    fn register_in(
        &self,
        o: &mut Order,
        kind: Kind,
        wait: &[Arc<EventCore>],
    ) -> (Arc<EventCore>, Vec<Arc<EventCore>>) {
        let event = Arc::new(EventCore::queued());
        let mut after = Vec::new();
        while o.outstanding.front().is_some_and(|e| e.is_done()) {
            o.outstanding.pop_front();
        }
        if self.shared.out_of_order {
            after.extend(o.barrier.clone());
            if kind != Kind::Command && wait.is_empty() {
                after.extend(o.outstanding.iter().cloned());
            }
            if kind == Kind::Barrier {
                o.barrier = Some(event.clone());
            }
        } else {
            after.extend(o.last.replace(event.clone()));
        }
        o.outstanding.push_back(event.clone());
        (event, after)
    }

    fn enqueue_job(&self, kind: Kind, wait: Vec<Arc<EventCore>>, job: Job) -> Arc<EventCore> {
        // A command is pending in the order it was registered in: the order's lock is held
        // until it is. Two threads enqueueing on one in-order queue could otherwise push
        // their commands the other way round, and the worker, which looks at the oldest
        // pending command only, would wait forever for the one pending behind it (the
        // CTS's test_vectors vec_align_struct hung so, its threads sharing a queue: one run
        // in four on a loaded machine).
        let mut o = self.order.lock();
        let (event, after) = self.register_in(&mut o, kind, &wait);
        self.push(Command {
            event: event.clone(),
            deps: wait,
            after,
            job,
        });
        drop(o);
        event
    }

    /// Hand a command to the worker. A launch queued to a queue with nothing else pending
    /// is deferred: the worker is not woken for it until something needs it issued (the
    /// next command queued, clFlush, a wait, a status query or callback on its event,
    /// another queue's command waiting for it: `EventCore::issue`). An enqueue followed by
    /// a blocking call then runs the launch on the caller's thread without waking the
    /// worker first, which finds nothing to do (docs/runtime.md, "Deferred launches").
    fn push(&self, c: Command) {
        let deferred = {
            let mut p = self.shared.pending.lock();
            let defer = p.is_empty() && matches!(c.job, Job::Device(_));
            if defer {
                let by: std::sync::Weak<dyn Issue> = Arc::downgrade(&self.shared) as _;
                c.event.defer_to(by);
            }
            p.push_back(c);
            defer
        };
        self.worker.get_or_init(|| {
            let shared = self.shared.clone();
            // The worker starts asleep: woken by the wake-up below, or, for a deferred
            // launch, when something issues it.
            let seen = shared.waker.generation();
            std::thread::Builder::new()
                .name("gencl-queue".into())
                .spawn(move || {
                    shared.waker.wait_past(seen);
                    worker(&shared)
                })
                .map(drop)
                .unwrap_or_else(|e| tracing::error!("no worker thread for a queue: {e}"));
        });
        if !deferred {
            self.shared.waker.wake();
        }
    }

    /// clFlush: the commands queued are issued.
    pub fn flush(&self) {
        self.shared.issue();
    }

    /// clFinish: wait for every command queued so far. Err(CL_OUT_OF_RESOURCES) when a
    /// command failed on the device since the last finish, as NEO reports a GPU hang from
    /// clFinish.
    pub fn finish(&self) -> Result<(), cl_int> {
        let all: Vec<_> = self.order.lock().outstanding.iter().cloned().collect();
        // The newest first: in an in-order queue the others are done by then, so one wait
        // (one sleep and one wake-up) covers the whole queue.
        for e in all.iter().rev() {
            self.wait_helping(e);
        }
        if self.shared.device_failed.swap(false, Ordering::AcqRel) {
            Err(CL_OUT_OF_RESOURCES)
        } else {
            Ok(())
        }
    }
}

impl QueueCore {
    /// Wait for `e` (a command of this queue, or an event one waits for), doing the queue's
    /// work on this thread meanwhile whenever the worker sleeps: the next ready command is
    /// run here and a finished launch concluded here. A blocked caller is awake anyway; the
    /// worker, woken when the command was queued, is not yet (a sleeping thread's wake-up
    /// costs tens of µs on a small VM: docs/runtime.md, "Waiting"), so an enqueue followed
    /// by clFinish submits from the caller, and the device's answer wakes the caller, which
    /// concludes the launch: two thread hops fewer.
    fn wait_helping(&self, e: &Arc<EventCore>) -> cl_int {
        let shared = &self.shared;
        if e.is_done() {
            return e.status();
        }
        // A deferred launch of another queue (a wait list naming it) is issued there; one of
        // this queue's is run below by this thread.
        if !e.deferred_by(Arc::as_ptr(shared) as *const ()) {
            e.issue();
        }
        // Woken when `e` is done (by the worker, another queue, a user event, or this
        // thread's own conclusion), without waking the worker for it.
        let s = Arc::downgrade(shared);
        e.on_status(
            CL_COMPLETE,
            Box::new(move |_| {
                if let Some(s) = s.upgrade() {
                    s.waker.wake_helpers();
                }
            }),
        );
        loop {
            if e.is_done() {
                // Wake-ups may have come to this thread alone: what it leaves, the worker
                // takes.
                if !(shared.finished.lock().is_empty() && shared.pending.lock().is_empty()) {
                    shared.waker.hand_back();
                }
                return e.status();
            }
            let seen = shared.waker.generation();
            if !shared.waker.worker_asleep() {
                // The worker is at the queue's work: wait for `e` alone, as it concludes
                // it (a helper woken at every change would only take turns with it).
                return e.wait();
            }
            match step(shared, Some(e)) {
                Step::Worked => continue,
                Step::Ended => return e.wait(),
                Step::Idle(blockers) => {
                    for b in &blockers {
                        wake_on(shared, b);
                    }
                }
            }
            if !e.is_done() {
                shared.waker.help_past(seen);
            }
        }
    }
}

impl Drop for QueueCore {
    /// "clReleaseCommandQueue performs an implicit flush": the worker runs what is queued,
    /// then ends.
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Release);
        self.shared.waker.wake();
    }
}

/// What one look at a queue's work found.
enum Step {
    /// A finished launch concluded or a command run: look again.
    Worked,
    /// Nothing ready: the events the waiting commands are blocked on.
    Idle(Vec<Arc<EventCore>>),
    /// A released queue with nothing left to run or conclude.
    Ended,
}

/// Do the queue's next piece of work: conclude the launches the device has finished (in the
/// order they were heard of), else run the next ready command. The worker does this in a
/// loop; a thread blocked on the queue does it too (`QueueCore::wait_helping`).
/// `waiter`: the event the thread taking this step waits for, if it is a helper.
fn step(shared: &Arc<Shared>, waiter: Option<&Arc<EventCore>>) -> Step {
    let finished = std::mem::take(&mut *shared.finished.lock());
    if !finished.is_empty() {
        for (f, finish) in finished {
            shared.in_flight.fetch_sub(1, Ordering::AcqRel);
            conclude(&f.event, f.start, finish, shared);
        }
        return Step::Worked;
    }
    let next = {
        let mut p = shared.pending.lock();
        // Each command's blocker is looked at once: events complete on other threads without
        // this lock, so a command found blocked and then asked again could have no blocker
        // by then, and a worker that slept on that empty list of blockers would never be
        // woken for the command (seen in the CTS's test_basic imagedim: the queue's next
        // launch left pending, its worker asleep, the caller waiting for the launch). The
        // blocker found is what the sleeper registers on: if it completed meanwhile, the
        // registration wakes it at once. In order, only the oldest command can be ready
        // (each waits for the one before): a long batch behind a gated command is not
        // scanned at every wake-up.
        let waiting = if shared.out_of_order { p.len() } else { 1 };
        let mut blockers = Vec::new();
        let mut ready = None;
        for (i, c) in p.iter().take(waiting).enumerate() {
            match c.blocker() {
                None => {
                    ready = Some(i);
                    break;
                }
                Some(b) => blockers.push(b),
            }
        }
        match ready {
            Some(i) => p.remove(i),
            None if p.is_empty()
                && shared.in_flight.load(Ordering::Acquire) == 0
                && shared.closed.load(Ordering::Acquire) =>
            {
                return Step::Ended
            }
            None => return Step::Idle(blockers.into_iter().cloned().collect()),
        }
    };
    if let Some(c) = next {
        let waited = waiter.is_some_and(|e| Arc::ptr_eq(e, &c.event));
        run(c, shared, waited);
    }
    Step::Worked
}

fn worker(shared: &Arc<Shared>) {
    loop {
        let seen = shared.waker.generation();
        match step(shared, None) {
            Step::Worked => {}
            // A released queue's worker ends once nothing is left to run or conclude.
            Step::Ended => return,
            // No polling before sleeping: on the emulated device the host's cores are the
            // GPU's, and a waiter that spins takes one of them from the launch it waits for
            // (docs/runtime.md, "Waiting").
            Step::Idle(blockers) => {
                for e in &blockers {
                    wake_on(shared, e);
                }
                shared.waker.wait_past(seen);
            }
        }
    }
}

/// Have the worker woken when `e` is done: one callback per event while it is not (an event
/// already done wakes it at once).
fn wake_on(shared: &Arc<Shared>, e: &Arc<EventCore>) {
    // Another queue's command (or this one's) waits for it: it must run.
    e.issue();
    let key = Arc::as_ptr(e) as usize;
    if !shared.watched.lock().insert(key) {
        return;
    }
    let s = Arc::downgrade(shared);
    e.on_status(
        CL_COMPLETE,
        Box::new(move |_| {
            if let Some(s) = s.upgrade() {
                s.watched.lock().remove(&key);
                s.waker.wake();
            }
        }),
    );
}

/// Run a command; a launch the device queued is concluded by its `Completion`.
/// `waited`: the thread running `c` waits for its event next.
fn run(c: Command, shared: &Arc<Shared>, waited: bool) {
    // "If the execution of a command is terminated, the command-queue associated with this
    // terminated command, and the associated context (and all other command-queues in this
    // context) may no longer be available" — gencl goes on, and fails only the commands that
    // wait on the failed one, with this status.
    c.event.issued();
    if c.deps.iter().any(|d| d.status() < 0) {
        c.event
            .set_status(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        return;
    }
    c.event.set_status(CL_SUBMITTED);
    let start = now_ns();
    c.event.set_status_at(CL_RUNNING, start);
    match c.job {
        Job::Host(work) => conclude(&c.event, start, work, shared),
        Job::Device(launch) => match catch_unwind(AssertUnwindSafe(move || launch(waited))) {
            Ok(Ok(completion)) => {
                c.event.set_on_device();
                shared.in_flight.fetch_add(1, Ordering::AcqRel);
                completion.attach(InFlight {
                    event: c.event,
                    start,
                    shared: shared.clone(),
                });
            }
            Ok(Err(status)) => conclude(&c.event, start, Box::new(move || Err(status)), shared),
            Err(_) => {
                tracing::error!("panic queuing a launch");
                conclude(
                    &c.event,
                    start,
                    Box::new(|| Err(CL_OUT_OF_RESOURCES)),
                    shared,
                );
            }
        },
    }
}

/// Run `work` (a command, or the end of a launch) and give the event its outcome.
fn conclude(event: &EventCore, start: u64, work: Work, shared: &Shared) {
    let result = catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|_| {
        tracing::error!("panic in a queued command");
        Err(CL_OUT_OF_RESOURCES)
    });
    match result {
        Ok(None) => event.set_status(CL_COMPLETE),
        Ok(Some(gpu_ns)) => {
            // The GPU's own duration, placed at the end of the host-side window.
            let end = now_ns();
            event.complete_at(end - gpu_ns.min(end - start), end);
        }
        Err(status) => {
            if status == CL_OUT_OF_RESOURCES {
                shared.device_failed.store(true, Ordering::Release);
            }
            event.set_status(status)
        }
    }
}

pub struct Queue {
    pub context: Ref<Context>,
    pub properties: cl_command_queue_properties,
    /// The list given to clCreateCommandQueueWithProperties (CL_QUEUE_PROPERTIES_ARRAY).
    pub props_array: Option<Vec<(cl_queue_properties, cl_queue_properties)>>,
    pub core: QueueCore,
    /// Its name in the launches it sends (`protocol::Launch::queue`, for `gencl top`):
    /// unique in this process, never 0.
    pub wire_id: u64,
}

impl ClObject for Queue {
    type Raw = _cl_command_queue;
    const TAG: u32 = 0x6771_7565; // "gque"
    const INVALID: cl_int = CL_INVALID_COMMAND_QUEUE;
}

impl Queue {
    pub fn profiling(&self) -> bool {
        self.properties & CL_QUEUE_PROFILING_ENABLE != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn log_work(log: &Arc<Mutex<Vec<u32>>>, n: u32) -> Work {
        let log = log.clone();
        Box::new(move || {
            log.lock().push(n);
            Ok(None)
        })
    }

    #[test]
    fn in_order_queue_runs_in_order_behind_a_user_event() {
        let q = QueueCore::new(false);
        let log = Arc::new(Mutex::new(Vec::new()));
        let gate = Arc::new(EventCore::user());
        let a = q.enqueue(Kind::Command, vec![gate.clone()], log_work(&log, 1));
        let b = q.enqueue(Kind::Command, vec![], log_work(&log, 2));
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(log.lock().is_empty(), "nothing runs before the gate opens");
        assert_eq!(b.status(), CL_QUEUED);
        gate.set_status(CL_COMPLETE);
        assert_eq!(b.wait(), CL_COMPLETE);
        assert_eq!(a.status(), CL_COMPLETE);
        assert_eq!(*log.lock(), [1, 2]);
    }

    #[test]
    fn threads_enqueueing_on_one_in_order_queue_never_leave_it_stuck() {
        // Commands registered by one thread and pushed by another in the other order made
        // the worker wait forever for a command pending behind the oldest (test_vectors).
        let q = Arc::new(QueueCore::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let gate = Arc::new(EventCore::user());
        q.enqueue(Kind::Command, vec![gate.clone()], log_work(&log, u32::MAX));
        const THREADS: u32 = 4;
        const EACH: u32 = 2_000;
        let events: Vec<Arc<EventCore>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let (q, log) = (&q, &log);
                    s.spawn(move || {
                        (0..EACH)
                            .map(|i| q.enqueue(Kind::Command, vec![], log_work(log, t * EACH + i)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        gate.set_status(CL_COMPLETE);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for e in &events {
                e.wait();
            }
            let _ = tx.send(());
        });
        assert!(
            rx.recv_timeout(std::time::Duration::from_secs(20)).is_ok(),
            "the queue stopped with commands pending"
        );
        let log = log.lock();
        assert_eq!(log.len() as u32, 1 + THREADS * EACH);
        for t in 0..THREADS {
            let mine: Vec<u32> = log.iter().copied().filter(|n| n / EACH == t).collect();
            assert!(
                mine.windows(2).all(|w| w[0] < w[1]),
                "thread {t}'s commands in order"
            );
        }
    }

    #[test]
    fn out_of_order_queue_runs_past_a_blocked_command_but_not_past_a_barrier() {
        let q = QueueCore::new(true);
        let log = Arc::new(Mutex::new(Vec::new()));
        let gate = Arc::new(EventCore::user());
        let a = q.enqueue(Kind::Command, vec![gate.clone()], log_work(&log, 1));
        let b = q.enqueue(Kind::Command, vec![], log_work(&log, 2));
        assert_eq!(b.wait(), CL_COMPLETE);
        assert_eq!(*log.lock(), [2]);
        let bar = q.enqueue(Kind::Barrier, vec![], Box::new(|| Ok(None)));
        let c = q.enqueue(Kind::Command, vec![], log_work(&log, 3));
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(
            c.status(),
            CL_QUEUED,
            "a command after a barrier waits for it"
        );
        gate.set_status(CL_COMPLETE);
        q.finish().unwrap();
        assert_eq!(a.status(), CL_COMPLETE);
        assert_eq!(bar.status(), CL_COMPLETE);
        assert_eq!(*log.lock(), [2, 1, 3]);
    }

    #[test]
    fn a_failed_event_fails_its_waiters_without_running_them() {
        let q = QueueCore::new(false);
        let ran = Arc::new(AtomicUsize::new(0));
        let gate = Arc::new(EventCore::user());
        let r = ran.clone();
        let a = q.enqueue(
            Kind::Command,
            vec![gate.clone()],
            Box::new(move || {
                r.fetch_add(1, Ordering::Relaxed);
                Ok(None)
            }),
        );
        gate.set_status(-1234);
        assert_eq!(a.wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        assert_eq!(ran.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_command_error_is_its_status_and_times_are_ordered() {
        let q = QueueCore::new(false);
        let bad = q.enqueue(Kind::Command, vec![], Box::new(|| Err(CL_OUT_OF_RESOURCES)));
        assert_eq!(bad.wait(), CL_OUT_OF_RESOURCES);
        let k = q.enqueue(Kind::Command, vec![], Box::new(|| Ok(Some(0))));
        assert_eq!(k.wait(), CL_COMPLETE);
        let t = k.times();
        assert!(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3], "{t:?}");
    }

    #[test]
    fn a_blocking_command_runs_on_the_calling_thread_after_the_queue_before_it() {
        let q = QueueCore::new(false);
        let log = Arc::new(Mutex::new(Vec::new()));
        let gate = Arc::new(EventCore::user());
        let a = q.enqueue(Kind::Command, vec![gate.clone()], log_work(&log, 1));
        let opener = {
            let gate = gate.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(20));
                gate.set_status(CL_COMPLETE);
            })
        };
        let me = std::thread::current().id();
        let ran_on = Arc::new(Mutex::new(None));
        let r = ran_on.clone();
        let l = log.clone();
        let b = q.run_here(
            Kind::Command,
            vec![],
            Box::new(move || {
                *r.lock() = Some(std::thread::current().id());
                l.lock().push(2);
                Ok(None)
            }),
        );
        assert_eq!(b.status(), CL_COMPLETE, "done when run_here returns");
        assert_eq!(a.status(), CL_COMPLETE);
        assert_eq!(*log.lock(), [1, 2], "after the command queued before it");
        assert_eq!(*ran_on.lock(), Some(me));
        opener.join().unwrap();
        // A failed wait-list event fails it without running it.
        let failed = Arc::new(EventCore::user());
        failed.set_status(-5);
        let c = q.run_here(Kind::Command, vec![failed], log_work(&log, 3));
        assert_eq!(c.status(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        assert_eq!(*log.lock(), [1, 2]);
    }

    #[test]
    fn a_blocked_caller_concludes_a_launch_the_sleeping_worker_queued() {
        let q = QueueCore::new(false);
        let completion = Arc::new(Completion::default());
        let c2 = completion.clone();
        let b = q.enqueue_launch(vec![], Box::new(move |_| Ok(c2)));
        // A launch alone is deferred: issued, the worker queues it.
        q.flush();
        let t0 = std::time::Instant::now();
        while !(b.status() == CL_RUNNING && q.shared.waker.worker_asleep()) {
            assert!(
                t0.elapsed().as_secs() < 10,
                "the worker queues the launch, then sleeps"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // The device answers while this thread waits for the launch: this thread, not the
        // sleeping worker, is woken and concludes it.
        let me = std::thread::current().id();
        let ran_on = Arc::new(Mutex::new(None));
        let r = ran_on.clone();
        let device = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            completion.fill(Box::new(move || {
                *r.lock() = Some(std::thread::current().id());
                Ok(Some(5))
            }));
        });
        let c = q.run_here(Kind::Command, vec![], Box::new(|| Ok(None)));
        assert_eq!(c.status(), CL_COMPLETE);
        assert_eq!(b.status(), CL_COMPLETE);
        assert_eq!(*ran_on.lock(), Some(me), "concluded by the blocked caller");
        q.finish().unwrap();
        device.join().unwrap();
    }

    /// A launch that records the thread it was queued from and whether that thread waits
    /// for it next; the device finishes it at once.
    fn recorded_launch(log: &Arc<Mutex<Vec<(std::thread::ThreadId, bool)>>>) -> super::Launch {
        let log = log.clone();
        Box::new(move |waited| {
            log.lock().push((std::thread::current().id(), waited));
            let c = Arc::new(Completion::default());
            c.fill(Box::new(|| Ok(Some(1))));
            Ok(c)
        })
    }

    /// Wait for `e` without issuing it (`EventCore::wait` would): false after 10 s.
    fn done_within_10s(e: &EventCore) -> bool {
        let t0 = std::time::Instant::now();
        while !e.is_done() {
            if t0.elapsed().as_secs() >= 10 {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        true
    }

    #[test]
    fn a_launch_alone_waits_for_what_needs_it_and_a_blocked_caller_runs_it() {
        let q = QueueCore::new(false);
        let log = Arc::new(Mutex::new(Vec::new()));
        let a = q.enqueue_launch(vec![], recorded_launch(&log));
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert!(
            log.lock().is_empty(),
            "not issued: the worker was not woken"
        );
        assert_eq!(a.status(), CL_QUEUED);
        // clFinish runs it here, as the launch its thread waits for next.
        q.finish().unwrap();
        assert_eq!(a.status(), CL_COMPLETE);
        assert_eq!(*log.lock(), [(std::thread::current().id(), true)]);
    }

    #[test]
    fn a_deferred_launch_runs_when_anything_needs_it() {
        type Trigger = fn(&QueueCore, &Arc<EventCore>, &QueueCore);
        let triggers: [(&str, Trigger); 6] = [
            ("clFlush", |q, _, _| q.flush()),
            // clGetEventInfo's status, clSetEventCallback, clGetEventProfilingInfo.
            ("a status query", |_, e, _| e.issue()),
            ("the next command queued", |q, _, _| {
                q.enqueue(Kind::Command, vec![], Box::new(|| Ok(None)));
            }),
            ("another queue's command waiting for it", |_, e, other| {
                other.enqueue(Kind::Command, vec![e.clone()], Box::new(|| Ok(None)));
            }),
            (
                "a blocking call on another queue waiting for it",
                |_, e, other| {
                    other.run_here(Kind::Command, vec![e.clone()], Box::new(|| Ok(None)));
                },
            ),
            ("a wait on another thread (clWaitForEvents)", |_, e, _| {
                let e = e.clone();
                std::thread::spawn(move || e.wait());
            }),
        ];
        for (what, trigger) in triggers {
            let (q, other) = (QueueCore::new(false), QueueCore::new(true));
            let log = Arc::new(Mutex::new(Vec::new()));
            let a = q.enqueue_launch(vec![], recorded_launch(&log));
            std::thread::sleep(std::time::Duration::from_millis(10));
            assert_eq!(a.status(), CL_QUEUED, "{what}: deferred until then");
            trigger(&q, &a, &other);
            assert!(done_within_10s(&a), "{what} issues a deferred launch");
            assert_eq!(log.lock().len(), 1, "{what}");
            assert!(
                !log.lock()[0].1,
                "{what}: the worker queued it, not waited for"
            );
        }
        // A second launch behind one not deferred goes to the worker at once.
        let q = QueueCore::new(false);
        let gate = Arc::new(EventCore::user());
        q.enqueue(Kind::Command, vec![gate.clone()], Box::new(|| Ok(None)));
        let log = Arc::new(Mutex::new(Vec::new()));
        let b = q.enqueue_launch(vec![], recorded_launch(&log));
        gate.set_status(CL_COMPLETE);
        assert!(done_within_10s(&b), "queued behind another command: issued");
    }

    /// The CTS's test_basic imagedim pattern, many times over: a write queued, a launch
    /// queued behind it, a blocking read. The caller runs the write while the worker looks
    /// at the launch; the worker once asked the launch for its blocker twice, found one the
    /// first time and none the second (the write had completed in between), slept on no
    /// event, and the caller waited for the launch forever (before the fix: a hang within
    /// about 50,000 rounds here; a round is under a millisecond).
    #[test]
    fn a_write_launch_and_blocking_read_never_leave_the_launch_unrun() {
        const ROUNDS: u64 = 200_000;
        let q = QueueCore::new(false);
        let (tx, rx) = std::sync::mpsc::channel::<(Arc<Completion>, u64)>();
        // The device: fills each launch's completion after a few microseconds.
        let device = std::thread::spawn(move || {
            while let Ok((c, spin)) = rx.recv() {
                let t = std::time::Instant::now();
                while t.elapsed().as_nanos() < u128::from(spin) {
                    std::hint::spin_loop();
                }
                c.fill(Box::new(|| Ok(Some(1))));
            }
        });
        // A hang fails the test (with the round it stopped at) rather than the whole run.
        let done = Arc::new(AtomicUsize::new(0));
        let d = done.clone();
        let watchdog = std::thread::spawn(move || {
            let (mut last, mut still) = (usize::MAX, 0);
            loop {
                std::thread::sleep(std::time::Duration::from_millis(100));
                let now = d.load(Ordering::Acquire);
                if now == ROUNDS as usize {
                    return;
                }
                still = if now == last { still + 1 } else { 0 };
                if still == 100 {
                    eprintln!("no progress for 10 s at round {now}: the queue hung");
                    std::process::abort();
                }
                last = now;
            }
        });
        let mut seed = 12345u64;
        for _ in 0..ROUNDS {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let write_spin = seed % 4_000;
            q.enqueue(
                Kind::Command,
                vec![],
                Box::new(move || {
                    let t = std::time::Instant::now();
                    while t.elapsed().as_nanos() < u128::from(write_spin) {
                        std::hint::spin_loop();
                    }
                    Ok(None)
                }),
            );
            let (tx2, spin) = (tx.clone(), seed % 40_000);
            q.enqueue_launch(
                vec![],
                Box::new(move |_| {
                    let c = Arc::new(Completion::default());
                    tx2.send((c.clone(), spin)).expect("the device runs");
                    Ok(c)
                }),
            );
            let r = q.run_here(Kind::Command, vec![], Box::new(|| Ok(None)));
            assert_eq!(r.status(), CL_COMPLETE);
            done.fetch_add(1, Ordering::Release);
        }
        drop(tx);
        q.finish().unwrap();
        watchdog.join().unwrap();
        device.join().unwrap();
    }

    #[test]
    fn a_launch_concludes_whether_the_device_answers_before_or_after_it_is_attached() {
        for answer_first in [false, true] {
            let q = QueueCore::new(false);
            let completion = Arc::new(Completion::default());
            let c2 = completion.clone();
            if answer_first {
                completion.fill(Box::new(|| Ok(Some(5))));
            }
            let e = q.enqueue_launch(vec![], Box::new(move |_| Ok(c2)));
            if !answer_first {
                // On the device and not finished: the worker does not wait for it.
                let later = q.enqueue(Kind::Command, vec![], Box::new(|| Ok(None)));
                std::thread::sleep(std::time::Duration::from_millis(10));
                assert_eq!(e.status(), CL_RUNNING);
                assert!(later.status() > CL_COMPLETE, "in order: after the launch");
                // The finish runs on the worker, not on the thread that heard from the
                // device (which may be the one a callback of the finish would wait for).
                let me = std::thread::current().id();
                let ran_on = Arc::new(Mutex::new(None));
                let r = ran_on.clone();
                completion.fill(Box::new(move || {
                    *r.lock() = Some(std::thread::current().id());
                    Err(CL_OUT_OF_RESOURCES)
                }));
                assert_eq!(later.wait(), CL_COMPLETE);
                assert!(ran_on.lock().is_some_and(|t| t != me));
                assert_eq!(e.status(), CL_OUT_OF_RESOURCES);
                assert_eq!(q.finish(), Err(CL_OUT_OF_RESOURCES));
            } else {
                assert_eq!(e.wait(), CL_COMPLETE);
                assert_eq!(q.finish(), Ok(()));
            }
        }
    }
}
