//! The message gateway of one thread group (PRM vol 7, "Message Gateway"): the barrier.
//!
//! A thread's barrier message (`send` to the gateway SFID, routed here by the EU) counts its
//! arrival. When every thread of the group has arrived, the gateway notifies each one: its
//! notification register n0.0 goes up by one, which `wait n0.0` consumes, and a thread
//! sleeping in that wait is woken. The gateway keeps no other state, and none outside its
//! group: two groups, launches or devices never share one.

use std::sync::atomic::{AtomicU64, Ordering};

use gencl_isa::gen9::send::MsgKind;

use crate::gpu::dataport::SendOutcome;
use crate::gpu::eu::program::arf;
use crate::gpu::eu::thread::{RunState, Thread};

/// The barrier of one thread group.
#[derive(Debug)]
pub struct Gateway {
    /// Threads in the group.
    members: usize,
    /// Threads arrived at the current barrier.
    arrived: usize,
}

impl Gateway {
    pub fn new(members: usize) -> Gateway {
        Gateway {
            members,
            arrived: 0,
        }
    }

    /// One thread's barrier message. The last arrival notifies every thread of the group
    /// and starts the next barrier.
    pub fn barrier(&mut self, threads: &mut [Thread]) {
        self.arrived += 1;
        if self.arrived < self.members {
            return;
        }
        self.arrived = 0;
        notify(threads);
    }

    /// A message to the gateway: the barrier signal (the group's count is the caller's
    /// `barrier`); any other gateway message is not modelled.
    pub fn message(m: &gencl_isa::gen9::send::Message, desc: u32) -> Result<SendOutcome, String> {
        match m.kind {
            MsgKind::Barrier => Ok(SendOutcome::Barrier),
            _ => Err(format!("gateway message {} is not modelled", desc & 7)),
        }
    }

    /// Threads waiting at the current barrier.
    pub fn waiting(&self) -> usize {
        self.arrived
    }
}

/// The gateway's notification of `threads`: n0.0 up by one, a thread sleeping in
/// `wait n0.0` woken.
fn notify(threads: &mut [Thread]) {
    for t in threads.iter_mut() {
        let n0 = t.arf_u32(arf::N0, 0);
        t.set_arf_u32(arf::N0, 0, n0.wrapping_add(1));
        if t.state == RunState::WaitNotify {
            t.state = RunState::Ready;
        }
    }
}

/// The barrier of a group whose threads run on several host threads (`eu::lanes`): the
/// arrivals counted under a lock, each completed barrier a generation, and each host thread
/// notifying its own threads of the generations it has not seen yet (before it runs them
/// again, so a thread sees its notification as it would from the one gateway).
#[derive(Debug)]
pub struct SharedBarrier {
    members: usize,
    arrived: parking_lot::Mutex<usize>,
    generation: AtomicU64,
}

impl SharedBarrier {
    pub fn new(members: usize) -> SharedBarrier {
        SharedBarrier {
            members,
            arrived: parking_lot::Mutex::new(0),
            generation: AtomicU64::new(0),
        }
    }

    /// One thread's barrier message; whether it was the last arrival (a new generation).
    pub fn arrive(&self) -> bool {
        let mut a = self.arrived.lock();
        *a += 1;
        if *a < self.members {
            return false;
        }
        *a = 0;
        self.generation.fetch_add(1, Ordering::Release);
        true
    }

    /// `threads` (one host thread's) notified of every barrier completed since `seen`;
    /// whether there was any.
    pub fn catch_up(&self, seen: &mut u64, threads: &mut [Thread]) -> bool {
        let g = self.generation.load(Ordering::Acquire);
        if g == *seen {
            return false;
        }
        for _ in *seen..g {
            notify(threads);
        }
        *seen = g;
        true
    }

    /// Threads waiting at the current barrier.
    pub fn waiting(&self) -> usize {
        *self.arrived.lock()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_arrival_notifies_every_thread_once() {
        let grfs = vec![[0u8; 32]; 1];
        let mut threads: Vec<Thread> = (0..3).map(|k| Thread::new(k, &grfs, 0xff, 0)).collect();
        threads[0].state = RunState::WaitNotify;
        let mut g = Gateway::new(3);
        g.barrier(&mut threads);
        g.barrier(&mut threads);
        assert_eq!(g.waiting(), 2);
        assert!(threads.iter().all(|t| t.arf_u32(arf::N0, 0) == 0));
        assert_eq!(threads[0].state, RunState::WaitNotify);
        g.barrier(&mut threads);
        assert_eq!(g.waiting(), 0);
        assert!(threads.iter().all(|t| t.arf_u32(arf::N0, 0) == 1));
        assert_eq!(threads[0].state, RunState::Ready);
        // The next barrier counts from zero again.
        g.barrier(&mut threads);
        assert_eq!(g.waiting(), 1);
        assert!(threads.iter().all(|t| t.arf_u32(arf::N0, 0) == 1));
    }
}
