//! The state of one command (or user event): its execution status, the host times at which it
//! reached each status, and the callbacks waiting for a status. Queues' workers, blocking
//! calls and clWaitForEvents wait on it; a queue worker waiting for it registers a callback
//! (`queue::worker`, `sched::Waker`).

use super::context::Context;
use super::queue::Queue;
use crate::api::object::{ClObject, Ref};
use crate::api::types::*;
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

/// A callback for a status (CL_SUBMITTED, CL_RUNNING or CL_COMPLETE), called with the status
/// the event has when it reaches that one or a later one (or an error status).
pub type Callback = Box<dyn FnOnce(cl_int) + Send>;

struct State {
    /// CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a negative error code.
    status: cl_int,
    /// CLOCK_MONOTONIC ns at CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE.
    times: [u64; 4],
    callbacks: Vec<(cl_int, Callback)>,
}

/// What issues a command that was queued without its queue's worker being woken
/// (`queue::Shared`): a deferred launch.
pub trait Issue: Send + Sync {
    fn issue(&self);
}

pub struct EventCore {
    state: Mutex<State>,
    changed: Condvar,
    /// Set while the command is queued and not issued (`defer_to`).
    issuer: Mutex<Option<Weak<dyn Issue>>>,
    /// A kernel launch queued to the device and not finished: the device runs the launches
    /// queued after it later, so a launch that only has to follow it in an in-order queue
    /// may be queued at once.
    on_device: AtomicBool,
}

/// CLOCK_MONOTONIC in nanoseconds (the profiling time base).
pub fn now_ns() -> u64 {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC)
        .map(|t| t.tv_sec() as u64 * 1_000_000_000 + t.tv_nsec() as u64)
        .unwrap_or(0)
}

/// Whether `status` is at or past `state` (statuses count down to CL_COMPLETE = 0; an error
/// is past every state).
fn reached(status: cl_int, state: cl_int) -> bool {
    status <= state
}

impl EventCore {
    /// A command's event, CL_QUEUED now.
    pub fn queued() -> EventCore {
        Self::with_status(CL_QUEUED, now_ns())
    }

    /// A user event: "The execution status of the user event object created is set to
    /// CL_SUBMITTED."
    pub fn user() -> EventCore {
        Self::with_status(CL_SUBMITTED, now_ns())
    }

    fn with_status(status: cl_int, t: u64) -> EventCore {
        EventCore {
            state: Mutex::new(State {
                status,
                times: [t; 4],
                callbacks: Vec::new(),
            }),
            changed: Condvar::new(),
            issuer: Mutex::new(None),
            on_device: AtomicBool::new(false),
        }
    }

    /// The command is queued but not issued: `issue` (and a wait) issues it through `by`.
    pub fn defer_to(&self, by: Weak<dyn Issue>) {
        *self.issuer.lock() = Some(by);
    }

    /// Issue the command if it is queued and not issued yet: whoever waits for the event,
    /// asks for its status or hangs a callback on it needs it to run. (A thread that helps
    /// with the queue's work runs it itself: `queue::wait_helping`.)
    pub fn issue(&self) {
        let by = self.issuer.lock().take();
        if let Some(q) = by.and_then(|w| w.upgrade()) {
            q.issue();
        }
    }

    /// Whether the command is deferred by `queue` (the address of what issues it).
    pub fn deferred_by(&self, queue: *const ()) -> bool {
        self.issuer
            .lock()
            .as_ref()
            .is_some_and(|w| std::ptr::addr_eq(w.as_ptr(), queue))
    }

    /// The command runs: nothing is left to issue.
    pub fn issued(&self) {
        self.issuer.lock().take();
    }

    /// The command is a launch the device has queued.
    pub fn set_on_device(&self) {
        self.on_device.store(true, Ordering::Release);
    }

    /// Whether the command is a launch the device has queued (it may have finished since).
    pub fn is_on_device(&self) -> bool {
        self.on_device.load(Ordering::Acquire)
    }

    pub fn status(&self) -> cl_int {
        self.state.lock().status
    }

    /// Complete or failed: nothing will change any more.
    pub fn is_done(&self) -> bool {
        self.status() <= CL_COMPLETE
    }

    pub fn times(&self) -> [u64; 4] {
        self.state.lock().times
    }

    /// Move to `status` (a later state or an error) at host time `t`, filling the times of
    /// states skipped; then run the callbacks it satisfies, outside the lock.
    pub fn set_status_at(&self, status: cl_int, t: u64) {
        let due = {
            let mut s = self.state.lock();
            if s.status <= CL_COMPLETE || status >= s.status {
                return;
            }
            let last = if status < 0 { CL_COMPLETE } else { status };
            for st in last..s.status {
                s.times[(CL_QUEUED - st) as usize] = t;
            }
            s.status = status;
            let (due, keep) = std::mem::take(&mut s.callbacks)
                .into_iter()
                .partition(|(on, _)| reached(status, *on));
            s.callbacks = keep;
            due
        };
        // Waiters care only for the end: waking them at SUBMITTED and RUNNING too would
        // cost two context switches per command for nothing. (Queue workers that wait for
        // this event registered a callback: `queue::worker`.)
        if status <= CL_COMPLETE {
            self.changed.notify_all();
        }
        for (_, cb) in due {
            cb(status);
        }
    }

    pub fn set_status(&self, status: cl_int) {
        self.set_status_at(status, now_ns());
    }

    /// Complete at `end`, the command having started at `start` (a kernel's GPU window,
    /// within the time it was CL_RUNNING).
    pub fn complete_at(&self, start: u64, end: u64) {
        {
            let mut s = self.state.lock();
            if s.status == CL_RUNNING {
                s.times[2] = s.times[2].max(start);
            }
        }
        self.set_status_at(CL_COMPLETE, end);
    }

    /// Call `cb` once the event reaches `on` (now, on this thread, if it has).
    pub fn on_status(&self, on: cl_int, cb: Callback) {
        let now = {
            let mut s = self.state.lock();
            if !reached(s.status, on) {
                s.callbacks.push((on, cb));
                return;
            }
            (s.status, cb)
        };
        (now.1)(now.0);
    }

    /// Block until complete or failed; the final status.
    pub fn wait(&self) -> cl_int {
        self.issue();
        // No polling first: on the emulated device a waiter that spins takes a host core
        // from the GPU it waits for (docs/runtime.md, "Waiting").
        let mut s = self.state.lock();
        while s.status > CL_COMPLETE {
            self.changed.wait(&mut s);
        }
        s.status
    }
}

pub struct Event {
    pub context: Ref<Context>,
    /// None for a user event.
    pub queue: Option<Ref<Queue>>,
    pub command_type: cl_command_type,
    pub core: Arc<EventCore>,
}

impl ClObject for Event {
    type Raw = _cl_event;
    const TAG: u32 = 0x6765_766e; // "gevn"
    const INVALID: cl_int = CL_INVALID_EVENT;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn statuses_only_move_forward_and_fill_skipped_times() {
        let e = EventCore::queued();
        e.set_status_at(CL_RUNNING, 100);
        assert_eq!(e.status(), CL_RUNNING);
        e.set_status_at(CL_SUBMITTED, 200); // backwards: ignored
        assert_eq!(e.status(), CL_RUNNING);
        e.set_status_at(CL_COMPLETE, 300);
        let t = e.times();
        assert_eq!(t[1..], [100, 100, 300]);
        e.set_status_at(-5, 400); // already complete: final
        assert_eq!(e.status(), CL_COMPLETE);
    }

    #[test]
    fn callbacks_run_once_at_or_past_their_state() {
        let e = EventCore::queued();
        let seen = Arc::new(Mutex::new(Vec::new()));
        for on in [CL_SUBMITTED, CL_RUNNING, CL_COMPLETE] {
            let seen = seen.clone();
            e.on_status(on, Box::new(move |s| seen.lock().push((on, s))));
        }
        e.set_status(CL_RUNNING);
        assert_eq!(
            *seen.lock(),
            [(CL_SUBMITTED, CL_RUNNING), (CL_RUNNING, CL_RUNNING)]
        );
        e.set_status(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        assert_eq!(
            seen.lock()[2],
            (CL_COMPLETE, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        );
        // Registered after the fact: called at once.
        let seen2 = seen.clone();
        e.on_status(CL_SUBMITTED, Box::new(move |s| seen2.lock().push((0, s))));
        assert_eq!(seen.lock().len(), 4);
    }

    #[test]
    fn wait_returns_when_another_thread_completes() {
        let e = Arc::new(EventCore::user());
        let e2 = e.clone();
        let t = std::thread::spawn(move || e2.wait());
        std::thread::sleep(std::time::Duration::from_millis(10));
        e.set_status(CL_COMPLETE);
        assert_eq!(t.join().unwrap(), CL_COMPLETE);
    }
}
