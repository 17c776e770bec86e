//! A queue worker's wake-up: a generation count that moves whenever something the worker
//! may be waiting for happens — a command queued to its queue, the queue released, or the
//! completion of the one event its oldest waiting command was found waiting for — so that a
//! worker that found nothing ready sleeps until something may have become ready, and never
//! misses the change that happened between its look and its sleep (the count moves under the
//! lock the sleeper checks it under).
//!
//! One wake-up per event and worker: an event's completion wakes only the workers that
//! registered on it (`EventCore::on_status`), not every queue's (docs/runtime.md, "Waiting").

use parking_lot::{Condvar, Mutex};

#[derive(Default)]
pub struct Waker {
    generation: Mutex<u64>,
    changed: Condvar,
}

impl Waker {
    /// The current generation: read it before looking for ready work.
    pub fn generation(&self) -> u64 {
        *self.generation.lock()
    }

    /// Something changed: wake the worker.
    pub fn wake(&self) {
        *self.generation.lock() += 1;
        self.changed.notify_one();
    }

    /// Sleep until the generation moves past `seen`.
    pub fn wait_past(&self, seen: u64) {
        let mut g = self.generation.lock();
        while *g == seen {
            self.changed.wait(&mut g);
        }
    }
}
