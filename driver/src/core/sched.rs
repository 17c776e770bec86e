//! The wake-up every queue worker waits on: a generation count that moves whenever an event
//! completes or a command is queued, so that a worker that found nothing ready sleeps until
//! something may have become ready, and never misses the change that happened between its
//! look and its sleep (the count moves before the waker takes the lock to notify; the sleeper
//! looks at it under that lock).
//!
//! A change wakes the workers only while some queue holds a command that has not run: a
//! worker with nothing pending has nothing to look for, and the wake-ups an event's
//! completion paid for every idle worker were most of a small launch's cost (docs/runtime.md,
//! "Waiting").

use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicU64, Ordering};

static GENERATION: AtomicU64 = AtomicU64::new(0);
static LOCK: Mutex<()> = Mutex::new(());
static CHANGED: Condvar = Condvar::new();
/// Commands queued and not yet taken by a worker, over every queue.
static PENDING: AtomicU64 = AtomicU64::new(0);

/// The current generation: read it before looking for ready work.
pub fn generation() -> u64 {
    GENERATION.load(Ordering::SeqCst)
}

/// A command went into a queue's pending list (before the `wake` that announces it).
pub fn queued() {
    PENDING.fetch_add(1, Ordering::SeqCst);
}

/// A worker took a command out of its pending list.
pub fn taken() {
    PENDING.fetch_sub(1, Ordering::SeqCst);
}

/// Something changed: wake the workers if any has a command waiting. A worker reads the
/// generation before it looks at its list, and its command stays counted until it takes
/// it, so a change that finds no command pending has no worker to wake.
pub fn wake() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
    if PENDING.load(Ordering::SeqCst) != 0 {
        let _g = LOCK.lock();
        CHANGED.notify_all();
    }
}

/// Wake every worker whatever is pending (a queue released: its worker ends).
pub fn wake_all() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
    let _g = LOCK.lock();
    CHANGED.notify_all();
}

/// Sleep until the generation moves past `seen`.
pub fn wait_past(seen: u64) {
    let mut g = LOCK.lock();
    while generation() == seen {
        CHANGED.wait(&mut g);
    }
}
