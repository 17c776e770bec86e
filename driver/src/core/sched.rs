//! The wake-up every queue worker waits on: a generation count that moves whenever an event
//! changes status or a command is queued, so that a worker that found nothing ready sleeps
//! until something may have become ready, and never misses the change that happened between
//! its look and its sleep.

use parking_lot::{Condvar, Mutex};

static GENERATION: Mutex<u64> = Mutex::new(0);
static CHANGED: Condvar = Condvar::new();

/// The current generation: read it before looking for ready work.
pub fn generation() -> u64 {
    *GENERATION.lock()
}

/// Something changed: wake every worker.
pub fn wake() {
    *GENERATION.lock() += 1;
    CHANGED.notify_all();
}

/// Sleep until the generation moves past `seen`.
pub fn wait_past(seen: u64) {
    let mut g = GENERATION.lock();
    while *g == seen {
        CHANGED.wait(&mut g);
    }
}
