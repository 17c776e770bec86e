//! The runtime's core, below the C entry points (`api/`, which only check arguments and
//! translate handles) and above the service connection: the objects (contexts, memory
//! objects and images, programs, kernels, samplers, queues, events) and their state, queues
//! whose worker threads run commands while the application goes on, and the events that
//! order them. The embedded
//! device and gencld run the same core, in the application's process: events, their
//! callbacks and the host memory that reads and writes touch all live there (docs/runtime.md).

pub mod context;
pub mod event;
pub mod image;
pub mod kernel;
pub mod memory;
pub mod program;
pub mod queue;
pub mod rect;
pub mod sampler;
pub mod sched;

static NEXT_WIRE_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A new name for an object in the requests it sends (`protocol::Launch::queue`,
/// `protocol::Launch::context`): unique in this process, never 0.
pub(crate) fn next_wire_id() -> u64 {
    NEXT_WIRE_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
