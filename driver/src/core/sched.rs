//! The wake-up every queue worker waits on: a generation count that moves whenever an event
//! completes or a command is queued, so that a worker that found nothing ready sleeps until
//! something may have become ready, and never misses the change that happened between its
//! look and its sleep (the count moves before the waker takes the lock to notify; the sleeper
//! looks at it under that lock).

use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicU64, Ordering};

static GENERATION: AtomicU64 = AtomicU64::new(0);
static LOCK: Mutex<()> = Mutex::new(());
static CHANGED: Condvar = Condvar::new();

/// The current generation: read it before looking for ready work.
pub fn generation() -> u64 {
    GENERATION.load(Ordering::Acquire)
}

/// Something changed: wake every worker.
pub fn wake() {
    GENERATION.fetch_add(1, Ordering::AcqRel);
    let _g = LOCK.lock();
    CHANGED.notify_all();
}

/// Sleep until the generation moves past `seen`; with `poll`, after polling for a moment as
/// `EventCore::wait` does (the next command of a busy queue usually comes at once).
pub fn wait_past(seen: u64, poll: bool) {
    let spin_until = std::time::Instant::now() + super::event::SPIN;
    while poll && std::time::Instant::now() < spin_until {
        if generation() != seen {
            return;
        }
        std::hint::spin_loop();
    }
    let mut g = LOCK.lock();
    while generation() == seen {
        CHANGED.wait(&mut g);
    }
}
