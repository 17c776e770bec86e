//! The GPU memory each launch owns while it is in flight: its batch and state, and its printf
//! buffer. Launches are asynchronous (the client's next launch is built while the GPU runs
//! the last), so no two launches in flight may share one: a launch takes a free slot, and
//! the thread that retires it gives the slot back. At most `MAX_IN_FLIGHT` slots exist per
//! client; a launch past that waits for the oldest to retire, which bounds both the memory a
//! client pins and how far its submissions run ahead of the GPU (NEO bounds its command
//! buffers the same way).

use parking_lot::{Condvar, Mutex};

use super::{mem_err, SubmitError, STATE_SIZE};
use crate::service::gpu::{Bo, ClientGpu};

/// Launches of one client in flight at once.
pub const MAX_IN_FLIGHT: usize = 8;

/// Free slots a launch that waited for one waits for: the thread that retires launches gives
/// a slot back with each, and waking the submitting thread for each cost the retiring thread
/// (gencld's busiest, which runs the launches on the emulated device) a wake-up a launch;
/// at two, one every two launches, and the retiring thread still has six launches queued
/// when the submitter wakes (docs/runtime.md, "Launch slots back by two").
const REFILL: usize = 2;

/// One launch's own memory.
pub struct Slot {
    /// The batch, then surface state, then dynamic state (`super`'s layout).
    pub state: Bo,
    /// The printf buffer, made for the first kernel that prints.
    pub printf: Option<Bo>,
}

#[derive(Default)]
struct Pool {
    free: Vec<Slot>,
    /// Slots made so far (free or in flight).
    made: usize,
}

/// The slots of one client, shared by the thread that submits and the one that retires.
#[derive(Default)]
pub struct Slots {
    pool: Mutex<Pool>,
    returned: Condvar,
}

impl Slots {
    /// A free slot: one given back, or a new one while fewer than `MAX_IN_FLIGHT` exist;
    /// else wait for a launch to retire.
    pub fn take(&self, gpu: &ClientGpu) -> Result<Slot, SubmitError> {
        let mut p = self.pool.lock();
        let mut waited = false;
        loop {
            if !waited || p.free.len() >= REFILL {
                if let Some(s) = p.free.pop() {
                    return Ok(s);
                }
            }
            if p.made < MAX_IN_FLIGHT {
                p.made += 1;
                drop(p);
                return match gpu.create_bo(STATE_SIZE) {
                    Ok(state) => Ok(Slot {
                        state,
                        printf: None,
                    }),
                    Err(e) => {
                        self.pool.lock().made -= 1;
                        Err(mem_err(e))
                    }
                };
            }
            waited = true;
            self.returned.wait(&mut p);
        }
    }

    /// A slot whose launch has retired (or was never submitted).
    pub fn give_back(&self, s: Slot) {
        let mut p = self.pool.lock();
        p.free.push(s);
        let wake = p.free.len() >= REFILL || p.free.len() == p.made;
        drop(p);
        if wake {
            self.returned.notify_all();
        }
    }

    /// Wait until no launch is in flight (before memory that every launch shares, the
    /// scratch space or the instruction heap, is replaced).
    pub fn wait_idle(&self) {
        let mut p = self.pool.lock();
        while p.free.len() < p.made {
            self.returned.wait(&mut p);
        }
    }

    /// Free every slot, once none is in flight.
    pub fn destroy(&self, gpu: &ClientGpu) {
        self.wait_idle();
        let mut p = self.pool.lock();
        for s in p.free.drain(..) {
            gpu.free_bo(s.state);
            if let Some(b) = s.printf {
                gpu.free_bo(b);
            }
        }
        p.made = 0;
    }

    /// Slots in flight (tests).
    pub fn in_flight(&self) -> usize {
        let p = self.pool.lock();
        p.made - p.free.len()
    }
}

/// A slot taken for a launch: given back when dropped, so a launch that fails before it is
/// queued, or that has retired, returns its slot on every path.
pub struct Taken {
    slots: std::sync::Arc<Slots>,
    slot: Option<Slot>,
}

impl Taken {
    pub fn new(slots: std::sync::Arc<Slots>, gpu: &ClientGpu) -> Result<Taken, SubmitError> {
        let slot = slots.take(gpu)?;
        Ok(Taken {
            slots,
            slot: Some(slot),
        })
    }
}

impl std::ops::Deref for Taken {
    type Target = Slot;
    fn deref(&self) -> &Slot {
        // The slot is there until `drop`.
        self.slot.as_ref().expect("a taken slot")
    }
}

impl std::ops::DerefMut for Taken {
    fn deref_mut(&mut self) -> &mut Slot {
        self.slot.as_mut().expect("a taken slot")
    }
}

impl Drop for Taken {
    fn drop(&mut self) {
        if let Some(s) = self.slot.take() {
            self.slots.give_back(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gencl_kmd::backend::{open_emulated, Device};
    use std::sync::Arc;

    /// A launch that found every slot in flight takes one only when `REFILL` are back; one
    /// that did not wait takes any free one.
    #[test]
    fn a_launch_that_waited_for_a_slot_goes_on_when_two_are_back() {
        let dev = Arc::new(Device::new(open_emulated().unwrap()));
        let gpu = ClientGpu::new(dev).unwrap();
        let slots = Slots::default();
        let mut taken: Vec<Slot> = (0..MAX_IN_FLIGHT)
            .map(|_| slots.take(&gpu).unwrap())
            .collect();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| slots.take(&gpu).unwrap());
            std::thread::sleep(std::time::Duration::from_millis(20));
            slots.give_back(taken.pop().unwrap());
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(!waiter.is_finished(), "one slot back is not enough");
            slots.give_back(taken.pop().unwrap());
            let got = waiter.join().unwrap();
            assert_eq!(slots.in_flight(), MAX_IN_FLIGHT - 1);
            taken.push(got);
        });
        // One free, and one more back: a launch that did not wait takes one at once.
        slots.give_back(taken.pop().unwrap());
        taken.push(slots.take(&gpu).unwrap());
        for t in taken {
            slots.give_back(t);
        }
        assert_eq!(slots.in_flight(), 0);
        slots.destroy(&gpu);
    }
}
