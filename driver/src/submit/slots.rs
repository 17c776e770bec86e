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
        loop {
            if let Some(s) = p.free.pop() {
                return Ok(s);
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
            self.returned.wait(&mut p);
        }
    }

    /// A slot whose launch has retired (or was never submitted).
    pub fn give_back(&self, s: Slot) {
        self.pool.lock().free.push(s);
        self.returned.notify_all();
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
