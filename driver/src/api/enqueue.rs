//! What every clEnqueue* shares (OpenCL 3.0 §5.11-5.12): the checks of a queue and its wait
//! list, handing the command to the queue's core, the event and the wait of a blocking call;
//! and the commands that only order others (markers, barriers, migrations). Buffer commands
//! are in `transfer.rs`, kernel launches in `launch.rs`.

use super::event::{hand_out, wait_list, wait_list_context};
use super::object::{get, Ref};
use super::types::*;
use super::util::{entry, has_other_bits, slice, ClResult};
use crate::core::event::Event;
use crate::core::event::EventCore;
use crate::core::memory::Mem;
use crate::core::queue::Queue;
use crate::core::queue::{Kind, Work};
use std::sync::Arc;

/// A command checked and ready to queue: its queue, type, wait list and event out-pointer.
pub(crate) struct Enqueue {
    pub queue: Ref<Queue>,
    pub command_type: cl_command_type,
    pub wait: Vec<std::sync::Arc<crate::core::event::EventCore>>,
    pub event: *mut cl_event,
}

impl Enqueue {
    /// The wait-list checks (after the command's own ones, where the spec lists them).
    pub fn new(
        queue: Ref<Queue>,
        command_type: cl_command_type,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) -> ClResult<Enqueue> {
        let wait = wait_list(&queue, n, list)?;
        Ok(Enqueue {
            queue,
            command_type,
            wait,
            event,
        })
    }

    /// Queue `work`; hand out its event; for a blocking call, wait for it:
    /// "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the ... operations are blocking and the
    /// execution status of any of the events in event_wait_list is a negative integer value."
    /// A blocking command runs on the calling thread once what it waits for is done
    /// (`QueueCore::run_here`): the caller waits for it either way.
    pub fn submit(mut self, kind: Kind, blocking: bool, work: Work) -> ClResult<()> {
        let wait = std::mem::take(&mut self.wait);
        let core = if blocking {
            self.queue.core.run_here(kind, wait, work)
        } else {
            self.queue.core.enqueue(kind, wait, work)
        };
        self.hand_out_and_wait(core, blocking)
    }

    /// Queue a kernel launch (never blocking: no launch call is).
    pub fn submit_launch(mut self, launch: crate::core::queue::Launch) -> ClResult<()> {
        let wait = std::mem::take(&mut self.wait);
        let core = self.queue.core.enqueue_launch(wait, launch);
        self.hand_out_and_wait(core, false)
    }

    fn hand_out_and_wait(self, core: Arc<EventCore>, blocking: bool) -> ClResult<()> {
        hand_out(&self.queue, self.command_type, &core, self.event);
        if blocking {
            match core.wait() {
                CL_COMPLETE => {}
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST => {
                    return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
                }
                e => return Err(e),
            }
        }
        Ok(())
    }
}

/// A host pointer a queued command reads or writes when it runs (the application keeps the
/// memory valid until the command completes, as the spec requires of it).
#[derive(Clone, Copy)]
pub(crate) struct HostPtr(pub usize);

impl HostPtr {
    pub fn new<T>(p: *const T) -> HostPtr {
        HostPtr(p as usize)
    }
    pub fn get(self) -> *mut u8 {
        self.0 as *mut u8
    }
}

/// Does nothing when it runs.
pub(crate) fn nothing() -> Work {
    Box::new(|| Ok(None))
}

/// The checks the memory commands share, in their spec order:
/// "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
/// "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same
/// or if the context associated with command_queue and events in event_wait_list are not the
/// same" (over the objects and events that are valid: an invalid one is the error after)
/// "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object" (or image: the callers check
/// which kind each must be).
pub(crate) fn queue_and_objects<const N: usize>(
    q: cl_command_queue,
    mems: [cl_mem; N],
    n: cl_uint,
    list: *const cl_event,
) -> ClResult<(Ref<Queue>, [Ref<Mem>; N])> {
    let q = get::<Queue>(q)?;
    let mems = mems.map(get::<Mem>);
    let ctx = q.context.handle();
    if mems.iter().flatten().any(|m| m.context.handle() != ctx) {
        return Err(CL_INVALID_CONTEXT);
    }
    wait_list_context(&q, n, list)?;
    let mems: Vec<Ref<Mem>> = mems.into_iter().collect::<ClResult<_>>()?;
    let mems = mems
        .try_into()
        .unwrap_or_else(|_| unreachable!("N objects"));
    Ok((q, mems))
}

/// `queue_and_objects` for the buffer commands: an image is not a buffer.
pub(crate) fn queue_and_mems<const N: usize>(
    q: cl_command_queue,
    mems: [cl_mem; N],
    n: cl_uint,
    list: *const cl_event,
) -> ClResult<(Ref<Queue>, [Ref<Mem>; N])> {
    let (q, mems) = queue_and_objects(q, mems, n, list)?;
    for m in &mems {
        m.check_buffer()?;
    }
    Ok((q, mems))
}

/// Markers and barriers, on a queue already checked ("CL_INVALID_COMMAND_QUEUE if
/// command_queue is not a valid host command-queue" comes first in each).
fn marker(
    q: Ref<Queue>,
    n: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    ty: cl_command_type,
    kind: Kind,
) -> ClResult<()> {
    // "CL_INVALID_CONTEXT if context associated with command_queue and events in
    // event_wait_list are not the same." (before CL_INVALID_EVENT_WAIT_LIST)
    wait_list_context(&q, n, list)?;
    Enqueue::new(q, ty, n, list, event)?.submit(kind, false, nothing())
}

pub unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| marker(get(q)?, n, list, event, CL_COMMAND_MARKER, Kind::Marker))
}

pub unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| marker(get(q)?, n, list, event, CL_COMMAND_BARRIER, Kind::Barrier))
}

pub unsafe extern "C" fn clEnqueueMarker(q: cl_command_queue, event: *mut cl_event) -> cl_int {
    entry(|| {
        let queue = get(q)?;
        // "CL_INVALID_VALUE if event is a NULL value."
        if event.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        marker(
            queue,
            0,
            std::ptr::null(),
            event,
            CL_COMMAND_MARKER,
            Kind::Marker,
        )
    })
}

pub unsafe extern "C" fn clEnqueueBarrier(q: cl_command_queue) -> cl_int {
    entry(|| {
        marker(
            get(q)?,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
            CL_COMMAND_BARRIER,
            Kind::Barrier,
        )
    })
}

/// "clEnqueueWaitForEvents ... enqueues a wait for a specific event or a list of events to
/// complete before any future commands queued in the command-queue are executed": a barrier
/// on those events.
pub unsafe extern "C" fn clEnqueueWaitForEvents(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
) -> cl_int {
    entry(|| {
        let queue = get(q)?;
        // "CL_INVALID_CONTEXT if context associated with command_queue and events in
        // event_list are not the same."
        wait_list_context(&queue, n, list)?;
        // "CL_INVALID_VALUE if num_events is 0 or event_list is NULL."
        if n == 0 || list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // OpenCL 3.0 lists no error for an invalid event here; 1.0, which defined the
        // function, has "CL_INVALID_EVENT if event objects specified in event_list are not
        // valid events", last (clWaitForEvents' code for its list).
        // SAFETY: list has n entries per the spec.
        for &e in unsafe { slice(list, n as usize) } {
            get::<Event>(e)?;
        }
        marker(
            queue,
            n,
            list,
            std::ptr::null_mut(),
            CL_COMMAND_BARRIER,
            Kind::Barrier,
        )
    })
}

/// One device whose memory the host maps directly: a migration moves nothing, but it is a
/// command with its event, ordered like any other.
pub unsafe extern "C" fn clEnqueueMigrateMemObjects(
    command_queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        let q = get::<Queue>(command_queue)?;
        // SAFETY: mem_objects has num_mem_objects entries per the spec (none read when NULL).
        let handles = unsafe { slice(mem_objects, num_mem_objects as usize) };
        let found: Vec<ClResult<Ref<Mem>>> = handles.iter().map(|&h| get::<Mem>(h)).collect();
        // "CL_INVALID_CONTEXT if the context associated with command_queue and memory objects
        // in mem_objects are not the same or if the context associated with command_queue and
        // events in event_wait_list are not the same" (over those that are valid)
        let ctx = q.context.handle();
        if found.iter().flatten().any(|m| m.context.handle() != ctx) {
            return Err(CL_INVALID_CONTEXT);
        }
        wait_list_context(&q, num_events_in_wait_list, event_wait_list)?;
        // "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid
        // memory object."
        let held = found.into_iter().collect::<ClResult<Vec<_>>>()?;
        // "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL."
        if num_mem_objects == 0 || mem_objects.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if flags is not 0 or is not any of the values described in the
        // table above."
        let known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
        if has_other_bits(flags, known) {
            return Err(CL_INVALID_VALUE);
        }
        let e = Enqueue::new(
            q,
            CL_COMMAND_MIGRATE_MEM_OBJECTS,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                drop(held);
                Ok(None)
            }),
        )
    })
}
