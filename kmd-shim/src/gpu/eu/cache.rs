//! The device's decoded kernels. A kernel is decoded where it runs (lazily, an instruction
//! at its first fetch: `program::Program`) and kept by the device from one dispatch to the
//! next, keyed by the address space and the kernel's address, so that a kernel of another
//! client at the same address is never taken for it. A dispatch checks the kept instructions
//! against memory once per host thread (one read of the kernel's span), not once per thread
//! group; what a dispatch decodes is kept for the next.
//!
//! Each host thread of a dispatch (`gpu::pool`) has a program of its own: decoding mutates
//! the program, and the host threads run groups side by side. The copies are kept too, so
//! the next dispatch's host threads find their instructions decoded.

use parking_lot::Mutex;
use std::collections::HashMap;

use super::program::Program;
use crate::gpu::GpuMemory;

/// Kernels kept at most; past it the cache starts over (the kernels of a long-running
/// device's dead clients go with it).
const MAX_KERNELS: usize = 256;

/// (address space, kernel address).
type Key = (u64, u64);

/// A kernel between dispatches: its host threads' programs, and the work (threads and EU
/// instructions) a thread group of its last dispatch took on average.
#[derive(Default)]
struct Kept {
    programs: Vec<Program>,
    last: Option<LastDispatch>,
}

/// What the kernel's last dispatch showed of its groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastDispatch {
    /// The work (threads and instructions) a group took on average.
    pub work_per_group: u64,
    /// Whether it was a single group whose threads would be faster spread over host
    /// threads (`eu::lanes`): long runs of instructions between its threads' messages to
    /// what they share (SLM, atomics, the barrier).
    pub spreads: bool,
}

#[derive(Default)]
pub struct ProgramCache {
    kernels: Mutex<HashMap<Key, Kept>>,
    /// Translation of the programs it makes (`None`: `GENCL_TRANSLATE`).
    policy: Option<super::translate::Policy>,
}

impl ProgramCache {
    /// A cache whose programs translate per `policy` (benchmarks and tests compare).
    pub fn with_translation(policy: super::translate::Policy) -> ProgramCache {
        ProgramCache {
            policy: Some(policy),
            ..Default::default()
        }
    }

    /// The programs of one dispatch of the kernel at `addr` of address space `space`, for
    /// `workers` host threads; given back to the cache when the dispatch ends.
    pub fn checkout(&self, space: u64, addr: u64, workers: usize) -> Checkout<'_> {
        let Kept {
            programs: mut kept,
            last,
        } = self
            .kernels
            .lock()
            .remove(&(space, addr))
            .unwrap_or_default();
        kept.resize_with(workers.max(kept.len()).max(1), || {
            let p = Program::new(addr);
            match self.policy {
                Some(policy) => p.with_translation(policy),
                None => p,
            }
        });
        Checkout {
            cache: self,
            key: (space, addr),
            programs: kept.into_iter().map(|p| Mutex::new((p, false))).collect(),
            last,
        }
    }

    /// Kernels kept (tests).
    pub fn len(&self) -> usize {
        self.kernels.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One dispatch's programs: one per host thread, each checked against memory at its first
/// use in the dispatch.
pub struct Checkout<'a> {
    cache: &'a ProgramCache,
    key: Key,
    programs: Vec<Mutex<(Program, bool)>>,
    last: Option<LastDispatch>,
}

impl Checkout<'_> {
    /// Whether this dispatch's programs translate hot runs (`cs::Budget::translate`).
    pub fn translating(self, policy: super::translate::Policy) -> Self {
        for slot in &self.programs {
            slot.lock().0.set_translating(policy);
        }
        self
    }

    /// Host threads with a program of their own in this dispatch.
    pub fn host_threads(&self) -> usize {
        self.programs.len()
    }

    /// What the kernel's last dispatch showed (`None`: this is its first).
    pub fn last(&self) -> Option<LastDispatch> {
        self.last
    }

    /// Records what this dispatch showed, for the kernel's next.
    pub fn set_last(&mut self, last: LastDispatch) {
        self.last = Some(last);
    }

    /// Run `f` with host thread `worker`'s program.
    pub fn with<R>(
        &self,
        worker: usize,
        mem: &dyn GpuMemory,
        f: impl FnOnce(&mut Program) -> R,
    ) -> R {
        let slot = &self.programs[worker.min(self.programs.len() - 1)];
        let mut g = slot.lock();
        let (program, checked) = &mut *g;
        if !*checked {
            program.new_generation();
            program.revalidate(mem);
            *checked = true;
        }
        f(program)
    }
}

impl Drop for Checkout<'_> {
    fn drop(&mut self) {
        let programs = std::mem::take(&mut self.programs)
            .into_iter()
            .map(|m| m.into_inner().0)
            .collect();
        let mut kernels = self.cache.kernels.lock();
        if kernels.len() >= MAX_KERNELS {
            kernels.clear();
        }
        kernels.insert(
            self.key,
            Kept {
                programs,
                last: self.last,
            },
        );
    }
}
