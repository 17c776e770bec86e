//! Polling a socket for a message that is due soon, instead of sleeping in the read, where
//! that pays: on a virtual machine, waking a thread whose vCPU went idle is most of a short
//! round trip (a ping-pong over a Unix socket took 12 µs sleeping and 4.5 µs polling on the
//! development machine), and NEO polls its completion tags the same way before it sleeps.
//!
//! It does not pay on a busy machine: a thread that polls stays runnable, shares its core
//! with whatever else runs there, and may be off the core when the message comes, while a
//! thread woken from sleep is run at once. So a poll that lost its core for a while (two of
//! its looks at the socket `LOST_CORE` or more apart) turns polling off, for this `Polling`,
//! for `BUSY_BACKOFF`. (Not any preemption: on a quiet machine a poll is now and then
//! preempted for a few microseconds by a short-lived thread, and turning polling off for
//! that took the blocking round trip through gencld from 21 to 32 µs.)
//!
//! Nor does it pay when the peer shares the poller's core: then the message cannot come
//! while the poll runs, and a client and gencld polling on one core (a busy machine puts
//! them there, beside one busy process on the other core) took turns running out their
//! budgets: 125 µs a round trip instead of 25. A poll that ran out its budget turns polling
//! off for `EXPIRED_BACKOFF`; a message due soon rarely misses the budget (a launch waited
//! for on a quiet machine comes in about 15 µs of the 50), and one that does is not due soon
//! (a long kernel, a client busy with other work), so polling for it saved nothing.

use super::framing::{FrameError, FrameReader, Next};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long polling stays off after a poll lost its core.
pub const BUSY_BACKOFF: Duration = Duration::from_millis(100);

/// How long polling stays off after a poll ran out its budget.
pub const EXPIRED_BACKOFF: Duration = Duration::from_millis(2);

/// A gap between two looks at the socket that says the poll lost its core to other work.
pub const LOST_CORE: Duration = Duration::from_micros(200);

/// Whether polling pays now, for one side of the protocol (the ICD's waiting threads, or
/// gencld's connection threads).
pub struct Polling {
    /// Polling is off until this time (ns since `epoch()`).
    off_until: AtomicU64,
}

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

fn now_ns() -> u64 {
    epoch().elapsed().as_nanos() as u64
}

impl Polling {
    pub const fn new() -> Polling {
        Polling {
            off_until: AtomicU64::new(0),
        }
    }

    /// The next frame on `sock` if it comes within `budget`, read without sleeping; `None`
    /// if it did not (the caller then reads, sleeping) or polling does not pay now.
    pub fn next(
        &self,
        frames: &mut FrameReader,
        sock: &UnixStream,
        budget: Duration,
    ) -> Option<Result<Next, FrameError>> {
        if now_ns() < self.off_until.load(Ordering::Relaxed) {
            return None;
        }
        let start = Instant::now();
        let (mut last, mut lost) = (start, false);
        let got = loop {
            let r = frames.next_now(sock);
            let now = Instant::now();
            lost |= now - last >= LOST_CORE;
            last = now;
            match r {
                Ok(Next::Later) if now - start < budget => std::hint::spin_loop(),
                Ok(Next::Later) => break None,
                other => break Some(other),
            }
        };
        let off = if lost {
            BUSY_BACKOFF
        } else if got.is_none() {
            EXPIRED_BACKOFF
        } else {
            return got;
        };
        self.off_until
            .store(now_ns() + off.as_nanos() as u64, Ordering::Relaxed);
        got
    }
}

impl Default for Polling {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_poll_returns_what_comes_within_its_budget_and_nothing_after() {
        let (mut a, b) = UnixStream::pair().unwrap();
        let p = Polling::new();
        let mut r = FrameReader::default();
        // Nothing comes: nothing, after the budget.
        let (t, before) = (Instant::now(), now_ns());
        assert!(p.next(&mut r, &b, Duration::from_millis(5)).is_none());
        assert!(t.elapsed() >= Duration::from_millis(5));
        // A poll that ran out its budget turned polling off from its end, for a while only
        // (on a busy machine it may have lost its core: off for longer).
        let until = p.off_until.load(Ordering::Relaxed);
        assert!(until >= before + (Duration::from_millis(5) + EXPIRED_BACKOFF).as_nanos() as u64);
        assert!(until <= now_ns() + BUSY_BACKOFF.as_nanos() as u64);
        // A frame that comes while it polls.
        p.off_until.store(0, Ordering::Relaxed);
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(2));
            a.write_all(&[2, 0, 0, 0, b'h', b'i']).unwrap();
            a
        });
        let got = p.next(&mut r, &b, Duration::from_secs(5));
        assert_eq!(got.unwrap().unwrap(), Next::Frame(b"hi".to_vec()));
        drop(writer.join().unwrap());
        // (A 5 s poll may have lost its core on a busy machine: on again.)
        p.off_until.store(0, Ordering::Relaxed);
        assert_eq!(
            p.next(&mut r, &b, Duration::from_secs(5)).unwrap().unwrap(),
            Next::Closed
        );
        // Turned off: no poll at all until the back-off ends.
        p.off_until
            .store(now_ns() + 60_000_000_000, Ordering::Relaxed);
        let t = Instant::now();
        assert!(p.next(&mut r, &b, Duration::from_secs(5)).is_none());
        assert!(t.elapsed() < Duration::from_secs(1));
    }
}
