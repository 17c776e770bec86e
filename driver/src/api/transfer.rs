//! Buffer commands (OpenCL 3.0 §5.2.2-5.2.4): read, write, copy, fill, their rectangular
//! forms, map and unmap. Each is checked when enqueued and runs on the queue's worker as
//! memory operations on the buffer's shared mapping.

use super::enqueue::{queue_and_mems, Enqueue, HostPtr};
use super::object::{get, Ref};
use super::types::*;
use super::util::{entry, entry_ptr, has_other_bits, slice, ClResult};
use crate::core::memory::{Mapping, Mem};
use crate::core::queue::Kind;
use crate::core::queue::Queue;
use crate::core::rect::{copy_host, Rect};
use std::ffi::c_void;
use std::sync::atomic::Ordering;

/// A host transfer's direction.
#[derive(Clone, Copy)]
enum Dir {
    /// Buffer → host memory.
    Read,
    /// Host memory → buffer.
    Write,
}

impl Dir {
    /// The command's wait list and event, then the host-access rule, in the spec's order
    /// (the same for the plain and the rect forms).
    fn enqueue(
        self,
        q: Ref<Queue>,
        m: &Mem,
        rect: bool,
        n: cl_uint,
        list: *const cl_event,
        event: *mut cl_event,
    ) -> ClResult<Enqueue> {
        let ty = match (self, rect) {
            (Dir::Read, false) => CL_COMMAND_READ_BUFFER,
            (Dir::Write, false) => CL_COMMAND_WRITE_BUFFER,
            (Dir::Read, true) => CL_COMMAND_READ_BUFFER_RECT,
            (Dir::Write, true) => CL_COMMAND_WRITE_BUFFER_RECT,
        };
        let e = Enqueue::new(q, ty, n, list, event)?;
        self.check_host_access(m)?;
        Ok(e)
    }

    /// "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been created
    /// with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS." / "... if clEnqueueWriteBuffer
    /// is called on buffer which has been created with CL_MEM_HOST_READ_ONLY or
    /// CL_MEM_HOST_NO_ACCESS." (and the same of the Rect forms)
    fn check_host_access(self, m: &Mem) -> ClResult<()> {
        let refused = match self {
            Dir::Read => CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
            Dir::Write => CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        };
        if m.flags & refused != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(())
    }
}

/// clEnqueueReadBuffer and clEnqueueWriteBuffer: the same checks in the spec's order, then
/// the copy.
#[allow(clippy::too_many_arguments)]
fn transfer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: HostPtr,
    dir: Dir,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [m]) = queue_and_mems(
            command_queue,
            [buffer],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // "CL_INVALID_VALUE if the region being read or written specified by (offset, size) is
        // out of bounds or if ptr is a NULL value."
        m.check_range(offset, size)?;
        if ptr.0 == 0 {
            return Err(CL_INVALID_VALUE);
        }
        let e = dir.enqueue(
            q,
            &m,
            false,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        e.submit(
            Kind::Command,
            blocking != 0,
            Box::new(move || {
                match dir {
                    // SAFETY: ptr points to `size` writable bytes until the command completes.
                    Dir::Read => m.read(offset, unsafe {
                        std::slice::from_raw_parts_mut(ptr.get(), size)
                    }),
                    // SAFETY: ptr points to `size` readable bytes until the command completes.
                    Dir::Write => m.write(offset, unsafe {
                        std::slice::from_raw_parts(ptr.get(), size)
                    }),
                }
                Ok(None)
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueReadBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    transfer(
        command_queue,
        buffer,
        blocking_read,
        offset,
        size,
        HostPtr::new(ptr),
        Dir::Read,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueWriteBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    transfer(
        command_queue,
        buffer,
        blocking_write,
        offset,
        size,
        HostPtr::new(ptr),
        Dir::Write,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )
}

/// Whether two byte ranges of the same buffer object overlap ("the same buffer or sub-buffer
/// object": sub-buffers of one parent share its object).
fn same_object_overlap(a: &Mem, a_off: usize, b: &Mem, b_off: usize, size: usize) -> bool {
    let ((oa, ba), (ob, bb)) = (a.object(), b.object());
    if oa.id != ob.id {
        return false;
    }
    let (x, y) = (ba + a_off, bb + b_off);
    x < y + size && y < x + size
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyBuffer(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [src, dst]) = queue_and_mems(
            command_queue,
            [src_buffer, dst_buffer],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset +
        // size require accessing elements outside the src_buffer and dst_buffer buffer objects
        // respectively."
        // A copy of no bytes: no error in the spec's list covers it; gencl refuses it with the
        // same code (decision, held by tests/api_validation.rs).
        src.check_range(src_offset, size)?;
        dst.check_range(dst_offset, size)?;
        if size == 0 {
            return Err(CL_INVALID_VALUE);
        }
        let e = Enqueue::new(
            q,
            CL_COMMAND_COPY_BUFFER,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
        // object and the source and destination regions overlap or if src_buffer and
        // dst_buffer are different sub-buffers of the same associated buffer object and they
        // overlap."
        if same_object_overlap(&src, src_offset, &dst, dst_offset, size) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                let mut tmp = vec![0u8; size];
                src.read(src_offset, &mut tmp);
                dst.write(dst_offset, &tmp);
                Ok(None)
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueFillBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [m]) = queue_and_mems(
            command_queue,
            [buffer],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // "CL_INVALID_VALUE if offset or offset + size require accessing elements outside the
        // buffer buffer object respectively."
        m.check_range(offset, size)?;
        // "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not
        // one of { 1, 2, 4, 8, 16, 32, 64, 128 }."
        if pattern.is_null() || !pattern_size.is_power_of_two() || pattern_size > 128 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if offset and size are not a multiple of pattern_size."
        if !offset.is_multiple_of(pattern_size) || !size.is_multiple_of(pattern_size) {
            return Err(CL_INVALID_VALUE);
        }
        let e = Enqueue::new(
            q,
            CL_COMMAND_FILL_BUFFER,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        // "The memory associated with pattern can be reused or freed after the function
        // returns": copied now.
        // SAFETY: pattern points to pattern_size bytes per the spec.
        let pat =
            unsafe { std::slice::from_raw_parts(pattern.cast::<u8>(), pattern_size) }.to_vec();
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                m.with_bytes(|b| {
                    for chunk in b[offset..offset + size].chunks_exact_mut(pattern_size) {
                        chunk.copy_from_slice(&pat);
                    }
                });
                Ok(None)
            }),
        )
    })
}

/// The three-element arrays of the rect commands: NULL is CL_INVALID_VALUE; "CL_INVALID_VALUE
/// if any region array element is 0".
///
/// # Safety
/// Each pointer is NULL or points to three `usize`.
unsafe fn rect_args(
    a: *const usize,
    b: *const usize,
    region: *const usize,
) -> ClResult<([usize; 3], [usize; 3], [usize; 3])> {
    if a.is_null() || b.is_null() || region.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let three = |p: *const usize| -> [usize; 3] {
        // SAFETY: three elements, per this function's contract.
        let s = unsafe { slice(p, 3) };
        [s[0], s[1], s[2]]
    };
    let r = three(region);
    if r.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    Ok((three(a), three(b), r))
}

/// clEnqueueReadBufferRect and clEnqueueWriteBufferRect.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer_rect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: HostPtr,
    dir: Dir,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [m]) = queue_and_mems(
            command_queue,
            [buffer],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // SAFETY: the arrays have three elements when not NULL, per the spec.
        let (bo, ho, region) = unsafe { rect_args(buffer_origin, host_origin, region) }?;
        // "CL_INVALID_VALUE if the region being read or written specified by (buffer_origin,
        // region, buffer_row_pitch, buffer_slice_pitch) is out of bounds."
        // "CL_INVALID_VALUE if ptr is a NULL value."
        // "CL_INVALID_VALUE if buffer_row_pitch is not 0 and is less than region[0]." (and the
        // other pitch rules, in `Rect::new`)
        let buf = Rect::new(bo, region, buffer_row_pitch, buffer_slice_pitch)?;
        let host = Rect::new(ho, region, host_row_pitch, host_slice_pitch)?;
        if buf.end(region).is_none_or(|e| e > m.size) || ptr.0 == 0 {
            return Err(CL_INVALID_VALUE);
        }
        let e = dir.enqueue(q, &m, true, num_events_in_wait_list, event_wait_list, event)?;
        e.submit(
            Kind::Command,
            blocking != 0,
            Box::new(move || {
                let read = matches!(dir, Dir::Read);
                m.with_bytes(|bytes| {
                    // SAFETY: the application's host rectangle holds these rows until the
                    // command completes (writable for a read, readable for a write).
                    unsafe { copy_host(bytes, buf, ptr.get(), host, region, read) }
                });
                Ok(None)
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueReadBufferRect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // SAFETY: the caller's pointers, per the spec.
    unsafe {
        transfer_rect(
            command_queue,
            buffer,
            blocking_read,
            buffer_origin,
            host_origin,
            region,
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
            HostPtr::new(ptr),
            Dir::Read,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueWriteBufferRect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // SAFETY: the caller's pointers, per the spec.
    unsafe {
        transfer_rect(
            command_queue,
            buffer,
            blocking_write,
            buffer_origin,
            host_origin,
            region,
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
            HostPtr::new(ptr),
            Dir::Write,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

/// Whether two rectangles of one shape (`region`, the same pitches) in one buffer object share
/// a byte. Each is the set {origin + z·slice + y·row + x} over the region, so they meet iff
/// the distance between their origins is some dz·slice + dy·row + dx with |dx| < region[0],
/// |dy| < region[1], |dz| < region[2]. For each dz only two dy can bring the rest within
/// (-region[0], region[0]), because region[0] ≤ row pitch: an exact test in region[2] steps,
/// which also sees rows that run past the pitch into the next row.
fn rects_overlap(a: Rect, b: Rect, region: [usize; 3]) -> bool {
    let delta = b.offset as i128 - a.offset as i128;
    let [nx, ny, nz] = region.map(|n| n as i128);
    let (row, slice) = (a.row_pitch as i128, a.slice_pitch as i128);
    (-(nz - 1)..nz).any(|dz| {
        let rest = delta - dz * slice;
        let q = rest.div_euclid(row);
        [q, q + 1]
            .into_iter()
            .any(|dy| dy.abs() < ny && (rest - dy * row).abs() < nx)
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyBufferRect(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let (q, [src, dst]) = queue_and_mems(
            command_queue,
            [src_buffer, dst_buffer],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // SAFETY: the arrays have three elements when not NULL, per the spec.
        let (so, d_o, region) = unsafe { rect_args(src_origin, dst_origin, region) }?;
        // "CL_INVALID_VALUE if (src_origin, region, src_row_pitch, src_slice_pitch) or
        // (dst_origin, region, dst_row_pitch, dst_slice_pitch) require accessing elements
        // outside the src_buffer and dst_buffer buffer objects respectively."
        let s = Rect::new(so, region, src_row_pitch, src_slice_pitch)?;
        let d = Rect::new(d_o, region, dst_row_pitch, dst_slice_pitch)?;
        if s.end(region).is_none_or(|e| e > src.size) || d.end(region).is_none_or(|e| e > dst.size)
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object and
        // src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not equal to
        // dst_row_pitch."
        let same = src.handle() == dst.handle();
        if same && (s.row_pitch != d.row_pitch || s.slice_pitch != d.slice_pitch) {
            return Err(CL_INVALID_VALUE);
        }
        let e = Enqueue::new(
            q,
            CL_COMMAND_COPY_BUFFER_RECT,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
        // object and the source and destination regions overlap"
        if same && rects_overlap(s, d, region) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                let mut row = vec![0u8; region[0]];
                for (a, b) in s.rows(region).zip(d.rows(region)) {
                    src.read(a, &mut row);
                    dst.write(b, &row);
                }
                Ok(None)
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueMapBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    entry_ptr(errcode_ret, || {
        let (q, [m]) = queue_and_mems(
            command_queue,
            [buffer],
            num_events_in_wait_list,
            event_wait_list,
        )?;
        // "CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or
        // if size is 0 or if values specified in map_flags are not valid."
        m.check_range(offset, size)?;
        if size == 0 || !valid_map_flags(map_flags) {
            return Err(CL_INVALID_VALUE);
        }
        let e = Enqueue::new(
            q,
            CL_COMMAND_MAP_BUFFER,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        check_map_access(&m, map_flags)?;
        // CL_MEM_USE_HOST_PTR: "the pointer value returned by clEnqueueMapBuffer will be
        // derived from the host_ptr specified when the buffer object is created", and must
        // hold the buffer's current contents once the map completes. Otherwise the map is the
        // buffer's own pages: nothing to copy ("without copies", CL_MAP_WRITE_INVALIDATE_REGION
        // included).
        let p = if m.host_ptr != 0 {
            m.host_ptr + offset
        } else {
            m.host_addr(offset) as usize
        };
        let copy_in = map_flags & CL_MAP_WRITE_INVALIDATE_REGION == 0;
        enqueue_map(
            e,
            &m,
            Mapping::linear(p, offset, size),
            copy_in,
            blocking_map != 0,
        )?;
        Ok(p as *mut c_void)
    })
}

/// "... if values specified in map_flags are not valid": read, write, or write-invalidate
/// alone.
pub(crate) fn valid_map_flags(map_flags: cl_map_flags) -> bool {
    let rw = CL_MAP_READ | CL_MAP_WRITE;
    let invalidate = map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0;
    let known = !has_other_bits(map_flags, rw | CL_MAP_WRITE_INVALIDATE_REGION);
    known && (!invalidate || map_flags & rw == 0)
}

/// "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_WRITE_ONLY or
/// CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags or if buffer has been created
/// with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
/// CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags" (and the same of an image).
pub(crate) fn check_map_access(m: &Mem, map_flags: cl_map_flags) -> ClResult<()> {
    if (m.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0
        && map_flags & CL_MAP_READ != 0)
        || (m.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0
            && map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0)
    {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(())
}

/// A map (of a buffer or an image) checked and ready: listed as live and counted at once,
/// its bytes brought to the host memory when the command runs unless `copy_in` is false
/// (CL_MAP_WRITE_INVALIDATE_REGION). A blocking map that failed maps nothing ("A NULL pointer
/// is returned otherwise"): it leaves no map to unmap and CL_MEM_MAP_COUNT as it was.
pub(crate) fn enqueue_map(
    e: Enqueue,
    m: &Ref<Mem>,
    mapping: Mapping,
    copy_in: bool,
    blocking: bool,
) -> ClResult<()> {
    m.maps.lock().push(mapping);
    m.map_count.fetch_add(1, Ordering::Relaxed);
    let source = m.clone();
    let submitted = e.submit(
        Kind::Command,
        blocking,
        Box::new(move || {
            if copy_in {
                mapping.sync(&source, true);
            }
            Ok(None)
        }),
    );
    if let Err(err) = submitted {
        let mut maps = m.maps.lock();
        if let Some(i) = maps.iter().rposition(|x| *x == mapping) {
            maps.remove(i);
        }
        m.map_count.fetch_sub(1, Ordering::Relaxed);
        return Err(err);
    }
    Ok(())
}

pub unsafe extern "C" fn clEnqueueUnmapMemObject(
    command_queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
        let q = get::<Queue>(command_queue)?;
        // "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object or is a pipe object."
        let m = get::<Mem>(memobj)?;
        // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer
        // or clEnqueueMapImage for memobj."
        let mut maps = m.maps.lock();
        let i = maps
            .iter()
            .position(|x| x.ptr == mapped_ptr as usize)
            .ok_or(CL_INVALID_VALUE)?;
        // "CL_INVALID_EVENT_WAIT_LIST ..." (and the events' context), then, listed last here,
        // "CL_INVALID_CONTEXT if context associated with command_queue and memobj are not the
        // same or if the context associated with command_queue and events in event_wait_list
        // are not the same."
        let ctx = q.context.handle();
        let e = Enqueue::new(
            q,
            CL_COMMAND_UNMAP_MEM_OBJECT,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )?;
        if m.context.handle() != ctx {
            return Err(CL_INVALID_CONTEXT);
        }
        let mapping = maps.remove(i);
        drop(maps);
        e.submit(
            Kind::Command,
            false,
            Box::new(move || {
                mapping.sync(&m, false);
                m.map_count.fetch_sub(1, Ordering::Relaxed);
                Ok(None)
            }),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_pitches_default_and_are_checked() {
        let r = Rect::new([1, 2, 3], [4, 5, 6], 0, 0).unwrap();
        assert_eq!((r.row_pitch, r.slice_pitch), (4, 20));
        assert_eq!(r.offset, 3 * 20 + 2 * 4 + 1);
        assert_eq!(r.end([4, 5, 6]), Some(r.offset + 5 * 20 + 4 * 4 + 4));
        assert_eq!(Rect::new([0; 3], [8, 2, 1], 7, 0), Err(CL_INVALID_VALUE));
        assert_eq!(Rect::new([0; 3], [8, 2, 1], 10, 15), Err(CL_INVALID_VALUE));
        assert_eq!(Rect::new([0; 3], [8, 2, 1], 10, 25), Err(CL_INVALID_VALUE));
        assert!(Rect::new([0; 3], [8, 2, 1], 10, 30).is_ok());
    }

    #[test]
    fn rect_rows_walk_slices_then_rows() {
        let r = Rect::new([1, 1, 0], [2, 2, 2], 4, 16).unwrap();
        assert_eq!(r.rows([2, 2, 2]).collect::<Vec<_>>(), [5, 9, 21, 25]);
    }

    /// The exact test against the sets of bytes themselves.
    #[test]
    fn overlap_is_exactly_a_shared_byte() {
        let bytes = |r: Rect, region: [usize; 3]| -> std::collections::HashSet<usize> {
            r.rows(region).flat_map(|o| o..o + region[0]).collect()
        };
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..2000 {
            let region = [1 + next(5), 1 + next(4), 1 + next(3)];
            let row = region[0] + next(4);
            let slice = row * (region[1] + next(3));
            let at = |o: [usize; 3]| Rect::new(o, region, row, slice).unwrap();
            let (a, b) = (
                at([next(2 * row), next(6), next(4)]),
                at([next(2 * row), next(6), next(4)]),
            );
            let shared = !bytes(a, region).is_disjoint(&bytes(b, region));
            assert_eq!(
                rects_overlap(a, b, region),
                shared,
                "{a:?} {b:?} {region:?}"
            );
        }
    }
}
