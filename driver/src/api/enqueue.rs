//! clEnqueue* (OpenCL 3.0 §5.2.2-5.2.4, §5.10, §5.12). Each command runs before the call
//! returns, in order: buffer commands are memory operations on the shared mapping, kernel
//! launches are one request to the service, which answers when the kernel has completed.

use super::event::{check_wait_list, complete, now_ns};
use super::kernel::{ArgVal, Kernel};
use super::memory::Mem;
use super::object::{get, Ref};
use super::queue::Queue;
use super::runtime::{connection, device_desc};
use super::types::*;
use super::util::{entry, entry_ptr, has_other_bits, slice, ClResult};
use crate::client::ClientError;
use crate::protocol::{ErrorCode, Launch, Request, Response, WireArg};
use std::ffi::c_void;
use std::sync::atomic::Ordering;

/// The checks the buffer commands share, in their spec order: queue, (caller: buffer), context,
/// wait list.
fn queue_and_mem(q: cl_command_queue, m: cl_mem) -> ClResult<(Ref<Queue>, Ref<Mem>)> {
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
    let q = get::<Queue>(q)?;
    // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object."
    let m = get::<Mem>(m)?;
    // "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the
    // same"
    if q.context.handle() != m.context.handle() {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok((q, m))
}

/// "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the ... operations are blocking and the
/// execution status of any of the events in event_wait_list is a negative integer value."
fn wait_list(q: &Queue, n: cl_uint, list: *const cl_event, blocking: bool) -> ClResult<()> {
    if check_wait_list(q, n, list)? && blocking {
        return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    Ok(())
}

/// A buffer command's direction and its host pointer.
enum Transfer {
    /// Buffer → host memory of `size` writable bytes.
    Read(*mut c_void),
    /// Host memory of `size` readable bytes → buffer.
    Write(*const c_void),
}

/// clEnqueueReadBuffer and clEnqueueWriteBuffer: the same checks in the spec's order (the
/// calls differ only in the host-access flags they refuse), then the copy.
#[allow(clippy::too_many_arguments)]
fn transfer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    dir: Transfer,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        let queued = now_ns();
        let (q, m) = queue_and_mem(command_queue, buffer)?;
        // "CL_INVALID_VALUE if the region being read or written specified by (offset, size) is
        // out of bounds or if ptr is a NULL value."
        m.check_range(offset, size)?;
        let null = match dir {
            Transfer::Read(p) => p.is_null(),
            Transfer::Write(p) => p.is_null(),
        };
        if null {
            return Err(CL_INVALID_VALUE);
        }
        wait_list(&q, num_events_in_wait_list, event_wait_list, blocking != 0)?;
        // "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been
        // created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS." / "... if
        // clEnqueueWriteBuffer is called on buffer which has been created with
        // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS."
        let refused = match dir {
            Transfer::Read(_) => CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
            Transfer::Write(_) => CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        };
        if m.flags & refused != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        let start = now_ns();
        let command = match dir {
            Transfer::Read(ptr) => {
                // SAFETY: ptr points to `size` writable bytes per the spec.
                m.read(offset, unsafe {
                    std::slice::from_raw_parts_mut(ptr.cast::<u8>(), size)
                });
                CL_COMMAND_READ_BUFFER
            }
            Transfer::Write(ptr) => {
                // SAFETY: ptr points to `size` readable bytes per the spec.
                m.write(offset, unsafe {
                    std::slice::from_raw_parts(ptr.cast::<u8>(), size)
                });
                CL_COMMAND_WRITE_BUFFER
            }
        };
        complete(
            &q,
            command,
            CL_COMPLETE,
            [queued, start, start, now_ns()],
            event,
        );
        Ok(())
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
        Transfer::Read(ptr),
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
        Transfer::Write(ptr),
        num_events_in_wait_list,
        event_wait_list,
        event,
    )
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
        let queued = now_ns();
        let (q, src) = queue_and_mem(command_queue, src_buffer)?;
        let (_, dst) = queue_and_mem(command_queue, dst_buffer)?;
        // "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset +
        // size require accessing elements outside the src_buffer and dst_buffer buffer objects
        // respectively."
        // "CL_INVALID_VALUE if size is 0."
        src.check_range(src_offset, size)?;
        dst.check_range(dst_offset, size)?;
        if size == 0 {
            return Err(CL_INVALID_VALUE);
        }
        wait_list(&q, num_events_in_wait_list, event_wait_list, false)?;
        // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
        // object and the source and destination regions overlap"
        let same = src.handle() == dst.handle();
        if same && src_offset < dst_offset + size && dst_offset < src_offset + size {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let start = now_ns();
        let mut tmp = vec![0u8; size];
        src.read(src_offset, &mut tmp);
        dst.write(dst_offset, &tmp);
        complete(
            &q,
            CL_COMMAND_COPY_BUFFER,
            CL_COMPLETE,
            [queued, start, start, now_ns()],
            event,
        );
        Ok(())
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
        let queued = now_ns();
        let (q, m) = queue_and_mem(command_queue, buffer)?;
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
        wait_list(&q, num_events_in_wait_list, event_wait_list, false)?;
        let start = now_ns();
        // SAFETY: pattern points to pattern_size bytes per the spec.
        let pat = unsafe { std::slice::from_raw_parts(pattern.cast::<u8>(), pattern_size) };
        let data: Vec<u8> = pat.iter().copied().cycle().take(size).collect();
        m.write(offset, &data);
        complete(
            &q,
            CL_COMMAND_FILL_BUFFER,
            CL_COMPLETE,
            [queued, start, start, now_ns()],
            event,
        );
        Ok(())
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
        let queued = now_ns();
        let (q, m) = queue_and_mem(command_queue, buffer)?;
        // "CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or
        // if size is 0 or if values specified in map_flags are not valid."
        m.check_range(offset, size)?;
        let rw = CL_MAP_READ | CL_MAP_WRITE;
        if size == 0
            || has_other_bits(map_flags, rw | CL_MAP_WRITE_INVALIDATE_REGION)
            || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0 && map_flags & rw != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        wait_list(
            &q,
            num_events_in_wait_list,
            event_wait_list,
            blocking_map != 0,
        )?;
        // "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_WRITE_ONLY or
        // CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags" / the write counterpart.
        if (m.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0
            && map_flags & CL_MAP_READ != 0)
            || (m.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0
                && map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0)
        {
            return Err(CL_INVALID_OPERATION);
        }
        let start = now_ns();
        let p = if m.host_ptr != 0 {
            // CL_MEM_USE_HOST_PTR: "the pointer value returned by clEnqueueMapBuffer will be
            // derived from the host_ptr specified when the buffer object is created", and must
            // hold the buffer's current contents.
            // SAFETY: host_ptr has m.size bytes (clCreateBuffer's contract); range checked.
            let dst = unsafe { std::slice::from_raw_parts_mut(m.host_ptr().add(offset), size) };
            m.read(offset, dst);
            dst.as_mut_ptr()
        } else {
            // SAFETY: offset is in bounds; the mapping lives as long as `m`'s buffer.
            unsafe { m.buf.map.lock().as_mut_ptr().add(offset) }
        };
        m.maps.lock().push((p as usize, offset, size));
        m.map_count.fetch_add(1, Ordering::Relaxed);
        complete(
            &q,
            CL_COMMAND_MAP_BUFFER,
            CL_COMPLETE,
            [queued, start, start, now_ns()],
            event,
        );
        Ok(p.cast::<c_void>())
    })
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
        let queued = now_ns();
        let (q, m) = queue_and_mem(command_queue, memobj)?;
        // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer
        // or clEnqueueMapImage for memobj."
        let mut maps = m.maps.lock();
        let i = maps
            .iter()
            .position(|&(p, _, _)| p == mapped_ptr as usize)
            .ok_or(CL_INVALID_VALUE)?;
        wait_list(&q, num_events_in_wait_list, event_wait_list, false)?;
        let (_, offset, size) = maps.remove(i);
        drop(maps);
        let start = now_ns();
        if m.host_ptr != 0 {
            // SAFETY: the same host_ptr range the map handed out.
            let src = unsafe { std::slice::from_raw_parts(m.host_ptr().add(offset), size) };
            m.write(offset, src);
        }
        m.map_count.fetch_sub(1, Ordering::Relaxed);
        complete(
            &q,
            CL_COMMAND_UNMAP_MEM_OBJECT,
            CL_COMPLETE,
            [queued, start, start, now_ns()],
            event,
        );
        Ok(())
    })
}

/// Marker and barrier: everything earlier has completed already.
fn marker(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    ty: cl_command_type,
) -> ClResult<()> {
    let now = now_ns();
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
    let q = get::<Queue>(q)?;
    check_wait_list(&q, n, list)?;
    complete(&q, ty, CL_COMPLETE, [now; 4], event);
    Ok(())
}

pub unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| marker(q, n, list, event, CL_COMMAND_MARKER))
}

pub unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| marker(q, n, list, event, CL_COMMAND_BARRIER))
}

pub unsafe extern "C" fn clEnqueueMarker(q: cl_command_queue, event: *mut cl_event) -> cl_int {
    // "CL_INVALID_VALUE if event is a NULL value."
    if event.is_null() {
        return entry(|| get::<Queue>(q).and(Err(CL_INVALID_VALUE)));
    }
    entry(|| marker(q, 0, std::ptr::null(), event, CL_COMMAND_MARKER))
}

pub unsafe extern "C" fn clEnqueueBarrier(q: cl_command_queue) -> cl_int {
    entry(|| get::<Queue>(q).map(drop))
}

pub unsafe extern "C" fn clEnqueueWaitForEvents(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
) -> cl_int {
    entry(|| {
        let q = get::<Queue>(q)?;
        // "CL_INVALID_VALUE if num_events is 0 or event_list is NULL."
        if n == 0 || list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_wait_list(&q, n, list).map(drop)
    })
}

/// The largest divisor of `n` not above `limit` (≥ 1).
fn largest_divisor(n: u64, limit: u64) -> u64 {
    (1..=limit.min(n).max(1))
        .rev()
        .find(|d| n.is_multiple_of(*d))
        .unwrap_or(1)
}

/// A local size when the application gave none: per dimension the largest divisor of the
/// global size that keeps the group within the device limit (uniform groups, so the choice is
/// valid whatever the program's language version).
pub fn choose_local_size(global: &[u64; 3], dims: usize, max_wg: u64, max_item: u64) -> [u32; 3] {
    let mut local = [1u32; 3];
    let mut budget = max_wg;
    for d in 0..dims {
        let l = largest_divisor(global[d], budget.min(max_item));
        local[d] = l as u32;
        budget /= l;
    }
    local
}

#[allow(clippy::too_many_arguments)]
fn nd_range(
    command: cl_command_type,
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let queued = now_ns();
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
    let q = get::<Queue>(command_queue)?;
    // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
    let k = get::<Kernel>(kernel)?;
    // "CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the same"
    if q.context.handle() != k.program.context.handle() {
        return Err(CL_INVALID_CONTEXT);
    }
    // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified."
    let args: Vec<WireArg> = {
        let set = k.args.lock();
        let mut out = Vec::with_capacity(set.len());
        for a in set.iter() {
            out.push(match a.as_ref().ok_or(CL_INVALID_KERNEL_ARGS)? {
                ArgVal::Mem(Some(m)) => WireArg::Buffer { id: m.buf.id },
                ArgVal::Mem(None) => WireArg::NullBuffer,
                ArgVal::Local(n) => WireArg::Local { size: *n },
                ArgVal::Bytes(b) => WireArg::Bytes(b.clone()),
            });
        }
        out
    };
    // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1 and
    // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
    if !(1..=3).contains(&work_dim) {
        return Err(CL_INVALID_WORK_DIMENSION);
    }
    let dims = work_dim as usize;
    // "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL"
    if global_work_size.is_null() {
        return Err(CL_INVALID_GLOBAL_WORK_SIZE);
    }
    // SAFETY: the three arrays have work_dim entries when not NULL, per the spec.
    let (gs, go, ls) = unsafe {
        (
            slice(global_work_size, dims),
            slice(global_work_offset, dims),
            slice(local_work_size, dims),
        )
    };
    let mut global = [1u64; 3];
    let mut offset = [0u64; 3];
    for d in 0..dims {
        global[d] = gs[d] as u64;
        offset[d] = go.get(d).copied().unwrap_or(0) as u64;
        // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the
        // corresponding values in global_work_offset for any dimensions is greater than the
        // maximum value representable by size t on the device."
        if offset[d].checked_add(global[d]).is_none() {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
    }
    let dev = device_desc()?;
    let max_wg = k.max_work_group_size()? as u64;
    let local: [u32; 3] = if ls.is_empty() {
        match k.desc.required_wg_size {
            Some(r) => r,
            None => choose_local_size(
                &global,
                dims,
                max_wg,
                super::device::MAX_WORK_ITEM_SIZE as u64,
            ),
        }
    } else {
        let mut l = [1u32; 3];
        let mut total: u64 = 1;
        for d in 0..dims {
            // A zero local size can form no work-group.
            if ls[d] == 0 {
                return Err(CL_INVALID_WORK_GROUP_SIZE);
            }
            // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
            // local_work_size[0], … local_work_size[work_dim - 1] is greater than the
            // corresponding values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES"
            if ls[d] > super::device::MAX_WORK_ITEM_SIZE {
                return Err(CL_INVALID_WORK_ITEM_SIZE);
            }
            l[d] = ls[d] as u32;
            total *= ls[d] as u64;
        }
        // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the
        // required work-group size for kernel in the program source."
        if k.desc.required_wg_size.is_some_and(|r| r != l) {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        // "... the total number of work-items in the work-group ... is greater than the value
        // specified by CL_KERNEL_WORK_GROUP_SIZE"
        if total > max_wg {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        // "CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and ... the
        // global_work_size is not evenly divisible by the local_work_size."
        if !k.non_uniform && (0..dims).any(|d| !global[d].is_multiple_of(l[d] as u64)) {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
        l
    };
    check_wait_list(&q, num_events_in_wait_list, event_wait_list)?;
    // "CL_OUT_OF_RESOURCES if there is a failure to queue the execution instance of kernel on
    // the command-queue because of insufficient resources needed to execute the kernel": the
    // work-group's shared local memory must fit.
    if k.local_mem_size() > dev.local_mem_bytes {
        return Err(CL_OUT_OF_RESOURCES);
    }
    // A zero global size in any dimension: "the kernel command will trivially succeed after its
    // event dependencies are satisfied".
    let start = now_ns();
    if global[..dims].contains(&0) {
        complete(
            &q,
            command,
            CL_COMPLETE,
            [queued, start, start, start],
            event,
        );
        return Ok(());
    }
    let launch = Launch {
        program: k.service_program,
        kernel: k.index,
        args,
        work_dim,
        global_offset: offset,
        global_size: global,
        local_size: local,
    };
    match connection()?.call(Request::Launch(launch)) {
        Ok((
            Response::Launched {
                start_ns,
                end_ns,
                printf,
            },
            _,
        )) => {
            let end = now_ns();
            write_stdout(&printf);
            // The GPU's own duration placed at the end of the host-side window.
            let gpu = end_ns.saturating_sub(start_ns).min(end - start);
            complete(
                &q,
                command,
                CL_COMPLETE,
                [queued, start, end - gpu, end],
                event,
            );
            Ok(())
        }
        Ok(_) => Err(CL_OUT_OF_RESOURCES),
        Err(ClientError::Service {
            code: ErrorCode::InvalidArgs,
            message,
        }) => {
            tracing::warn!("launch refused: {message}");
            Err(CL_INVALID_KERNEL_ARGS)
        }
        Err(e) => {
            tracing::warn!("launch failed: {e}");
            Err(CL_OUT_OF_RESOURCES)
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueNDRangeKernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    entry(|| {
        nd_range(
            CL_COMMAND_NDRANGE_KERNEL,
            command_queue,
            kernel,
            work_dim,
            global_work_offset,
            global_work_size,
            local_work_size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

/// "clEnqueueTask is equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1,
/// global_work_offset set to NULL, global_work_size[0] set to 1, and local_work_size[0] set
/// to 1" (OpenCL 3.0, deprecated since 2.0 but in the core), its event a CL_COMMAND_TASK.
///
/// # Safety
/// The pointers follow the OpenCL API contract.
pub unsafe extern "C" fn clEnqueueTask(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let one = [1usize];
    entry(|| {
        nd_range(
            CL_COMMAND_TASK,
            command_queue,
            kernel,
            1,
            std::ptr::null(),
            one.as_ptr(),
            one.as_ptr(),
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

/// printf's output, through the C library's stdout, so that it lands in order with what the
/// application prints itself (its own stdio buffer, flushed first).
fn write_stdout(text: &str) {
    if text.is_empty() {
        return;
    }
    extern "C" {
        static mut stdout: *mut libc::FILE;
    }
    // SAFETY: `stdout` is the C library's own stream, valid for the life of the process;
    // fwrite reads `text.len()` bytes from a live slice, and fflush takes the same stream.
    unsafe {
        let out = stdout;
        libc::fwrite(text.as_ptr().cast(), 1, text.len(), out);
        libc::fflush(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_size_is_the_largest_divisor_within_limits() {
        assert_eq!(choose_local_size(&[1024, 1, 1], 1, 256, 256), [256, 1, 1]);
        assert_eq!(choose_local_size(&[1000, 1, 1], 1, 256, 256), [250, 1, 1]);
        assert_eq!(choose_local_size(&[7919, 1, 1], 1, 256, 256), [1, 1, 1]); // prime
        assert_eq!(choose_local_size(&[64, 64, 1], 2, 256, 256), [64, 4, 1]);
        assert_eq!(choose_local_size(&[3, 5, 7], 3, 256, 256), [3, 5, 7]);
        assert_eq!(
            choose_local_size(&[512, 512, 512], 3, 256, 256),
            [256, 1, 1]
        );
    }
}
