//! A queue worker's wake-up: a generation count that moves whenever something the worker
//! may be waiting for happens — a command queued to its queue, the queue released, or the
//! completion of the one event its oldest waiting command was found waiting for — so that a
//! worker that found nothing ready sleeps until something may have become ready, and never
//! misses the change that happened between its look and its sleep (the count moves under the
//! lock the sleeper checks it under).
//!
//! One wake-up per event and worker: an event's completion wakes only the workers that
//! registered on it (`EventCore::on_status`), not every queue's (docs/runtime.md, "Waiting").
//! While an application thread is blocked on the queue and does its work meanwhile (a
//! "helper", `QueueCore::wait_helping`), the wake-ups go to it instead of the sleeping
//! worker, and what it leaves undone when it returns is handed back to the worker.

use parking_lot::{Condvar, Mutex};

#[derive(Default)]
pub struct Waker {
    state: Mutex<State>,
    worker: Condvar,
    helpers: Condvar,
}

#[derive(Default)]
struct State {
    generation: u64,
    /// Threads blocked on the queue that do its work meanwhile (`QueueCore::wait_helping`).
    helping: usize,
    /// The worker sleeps (from its look at the queue until it runs again).
    worker_asleep: bool,
}

impl Waker {
    /// The current generation: read it before looking for ready work.
    pub fn generation(&self) -> u64 {
        self.state.lock().generation
    }

    /// Something changed: wake the threads doing the queue's work. A thread blocked on the
    /// queue is awake for it anyway, so it is woken alone while there is one; else the
    /// worker.
    pub fn wake(&self) {
        let mut s = self.state.lock();
        s.generation += 1;
        if s.helping > 0 {
            self.helpers.notify_all();
        } else {
            self.worker.notify_one();
        }
    }

    /// The worker: sleep until the generation moves past `seen`.
    pub fn wait_past(&self, seen: u64) {
        let mut s = self.state.lock();
        s.worker_asleep = true;
        while s.generation == seen {
            self.worker.wait(&mut s);
        }
        s.worker_asleep = false;
    }

    /// Whether the worker sleeps: a helping thread then does the queue's work; while the
    /// worker is at it, the helper leaves it the work (two threads taking turns at one
    /// queue cost more than they save: measured, docs/runtime.md "Waiting").
    pub fn worker_asleep(&self) -> bool {
        self.state.lock().worker_asleep
    }

    /// A helping thread: sleep until the generation moves past `seen`.
    pub fn help_past(&self, seen: u64) {
        let mut s = self.state.lock();
        s.helping += 1;
        while s.generation == seen {
            self.helpers.wait(&mut s);
        }
        s.helping -= 1;
    }

    /// What a helping thread waits for is done: wake it (and not the worker, which has
    /// nothing to do for it).
    pub fn wake_helpers(&self) {
        let mut s = self.state.lock();
        s.generation += 1;
        self.helpers.notify_all();
    }

    /// A helping thread leaves work behind (wake-ups may have gone to it alone): the worker
    /// takes it.
    pub fn hand_back(&self) {
        let _s = self.state.lock();
        self.worker.notify_one();
    }
}
