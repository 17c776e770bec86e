//! The emulated i915: a Gen9 GT2 (Skylake, PCI id 0x1912) answering the same
//! ioctl structs as the kernel, with the kernel's errnos, and running batches
//! on the GPU model (`crate::gpu`). Execution is asynchronous, as on i915: EXECBUFFER2
//! queues the batch to the device's engine thread and returns; batches run in submission
//! order; GEM_WAIT waits for an object's last batch with its timeout (ETIME); a batch that
//! keeps another context waiting past `Budget::max_starved`, or runs past `Budget::max_time`
//! (`gpu::watchdog`), is stopped, the engine reset and the context banned.

pub mod object;
pub mod vm;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use nix::errno::Errno;
use parking_lot::{Condvar, Mutex};
use tracing::{debug, warn};

use super::{KmdError, I915};
use crate::aub::writer::AubWriter;
use crate::devices::Part;
use crate::gpu::cs::{self, Budget};
use crate::gpu::watchdog::Starvation;
use crate::gpu::{Counters, GpuError};
use crate::uapi::*;
use object::GemObject;
use vm::{Vm, PAGE};

/// What the device reports by default: a Skylake GT2 (GENCL_EMULATED_GPU picks another
/// configuration of `crate::devices::EMULATED`).
pub const CHIPSET_ID: i32 = 0x1912;
pub const REVISION: i32 = 0x7;
/// Largest object GEM_CREATE accepts (the model keeps objects in memfds).
const MAX_OBJECT: u64 = 1 << 36;
/// Longest user-extension chain followed (the kernel's bound is similar).
const MAX_EXTENSIONS: usize = 512;

#[derive(Debug)]
struct Context {
    vm: Arc<Vm>,
    recoverable: bool,
    bannable: bool,
    banned: bool,
    batch_active: u32,
    batch_pending: u32,
}

impl Context {
    fn new(vm: Arc<Vm>) -> Self {
        Self {
            vm,
            recoverable: true,
            bannable: true,
            banned: false,
            batch_active: 0,
            batch_pending: 0,
        }
    }
}

#[derive(Debug, Default)]
struct State {
    next_handle: u32,
    objects: HashMap<u32, Arc<GemObject>>,
    mmap_offsets: HashSet<u32>,
    next_vm: u32,
    vms: HashMap<u32, Arc<Vm>>,
    next_ctx: u32,
    contexts: HashMap<u32, Context>,
    reset_count: u32,
    seqno: u64,
    /// Sync objects: the seqno of the batch whose fence each holds (0: a fence that is
    /// signalled already), or none. Batches retire in order, so a seqno is the whole fence.
    syncobjs: HashMap<u32, Option<u64>>,
    next_syncobj: u32,
}

/// A batch queued to the engine.
struct Job {
    ctx_id: u32,
    vm: Arc<Vm>,
    batch_gpu: u64,
    seqno: u64,
    /// I915_EXEC_FENCE_IN: the batch starts once this fd polls readable.
    in_fence: Option<OwnedFd>,
    /// I915_EXEC_FENCE_OUT: signalled (an eventfd made readable) when the batch retires.
    out_fence: Option<OwnedFd>,
    /// Queued by execbuffer2, which wakes the engine thread for it; a batch queued by
    /// `execbuffer2_then_wait` is left to its waiter (`help`) unless the engine is awake.
    doorbell: bool,
}

/// How long a batch waits for its in-fence, as i915's fence timeout (10 s by default)
/// bounds waits on fences from elsewhere; then the batch is cancelled.
const FENCE_TIMEOUT_MS: i32 = 10_000;

/// Waits until `fd` polls readable (a signalled sync_file, or the eventfds the emulated
/// device hands out), at most `timeout_ms`; whether it did.
fn wait_fence(fd: &OwnedFd, timeout_ms: i32) -> bool {
    let mut p = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(timeout_ms as u64);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        // SAFETY: one live pollfd for a valid fd this job owns.
        let r = unsafe { libc::poll(&mut p, 1, left.as_millis() as i32) };
        if r > 0 {
            return p.revents & libc::POLLIN != 0;
        }
        if r == 0 || Errno::last() != Errno::EINTR {
            return false;
        }
    }
}

/// Signals an out-fence: the eventfd's counter goes to 1 (readable).
fn signal_fence(fd: &OwnedFd) {
    let one: u64 = 1;
    // SAFETY: an eventfd this job owns; eventfd writes are 8 bytes.
    let _ = unsafe { libc::write(fd.as_raw_fd(), (&one as *const u64).cast(), 8) };
}

/// A new out-fence: an eventfd (close-on-exec), the caller's end and the job's.
fn new_fence() -> Result<(OwnedFd, OwnedFd), Errno> {
    // SAFETY: a plain system call; a non-negative result is a new fd we then own.
    let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) };
    if fd < 0 {
        return Err(Errno::last());
    }
    // SAFETY: the fd eventfd just returned.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let job = fd.try_clone().map_err(|_| Errno::EMFILE)?;
    Ok((fd, job))
}

/// The engine's queue and the sequence number of the last batch it retired.
#[derive(Default)]
struct Engine {
    jobs: std::collections::VecDeque<Job>,
    /// The context whose batch the engine runs.
    running: Option<u32>,
    shutdown: bool,
}

impl Engine {
    /// Whether a queued batch belongs to another context than the running one.
    fn others_wait(&self) -> bool {
        self.running
            .is_some_and(|r| self.jobs.iter().any(|j| j.ctx_id != r))
    }
}

/// The device: its state, shared with the engine thread that runs its batches.
pub struct EmulatedI915 {
    shared: Arc<Shared>,
    engine: Option<std::thread::JoinHandle<()>>,
}

impl std::ops::Deref for EmulatedI915 {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.shared
    }
}

impl Drop for EmulatedI915 {
    fn drop(&mut self) {
        self.shared.queue.lock().shutdown = true;
        self.shared.work.notify_all();
        if let Some(t) = self.engine.take() {
            let _ = t.join();
        }
    }
}

pub struct Shared {
    state: Mutex<State>,
    queue: Mutex<Engine>,
    work: Condvar,
    /// The last seqno retired (run, or dropped with its banned context).
    retired: Mutex<u64>,
    done: Condvar,
    budget: Budget,
    /// Whether another context's batch waits behind the running one (`gpu::watchdog`).
    starvation: Arc<Starvation>,
    counters: Mutex<Counters>,
    /// The counters of each context's most recent batch.
    last_batch: Mutex<HashMap<u32, Counters>>,
    last_error: Mutex<Option<(u32, GpuError)>>,
    /// Tests: the next batch's run panics, as a bug of the model would.
    #[cfg(test)]
    panic_next: std::sync::atomic::AtomicBool,
    /// Tests: the engine thread takes no batch (only waiters run them, `help`).
    #[cfg(test)]
    engine_paused: std::sync::atomic::AtomicBool,
    /// Tests: batches the engine thread ran (not a waiter).
    #[cfg(test)]
    pub(crate) engine_ran: std::sync::atomic::AtomicUsize,
    /// The Gen9 part presented.
    part: Part,
    /// This device's GPU clock (the TIMESTAMP register) and decoded kernels.
    engine: cs::Engine,
    /// Where every submission is recorded as an AUB stream (GENCL_AUB=FILE), for
    /// `gencl decode` and `gencl replay`.
    aub: Option<Mutex<AubWriter<std::io::BufWriter<std::fs::File>>>>,
}

impl Default for EmulatedI915 {
    fn default() -> Self {
        Self::new()
    }
}

/// Skylake GT2, 0x1912: what the emulated device is unless told otherwise.
fn default_part() -> Part {
    crate::devices::part(CHIPSET_ID as u32).expect("0x1912 is in the Gen9 table")
}

/// The AUB recording GENCL_AUB asks for, if it can be created.
fn aub_from_env() -> Option<Mutex<AubWriter<std::io::BufWriter<std::fs::File>>>> {
    let path = std::env::var_os("GENCL_AUB")?;
    match std::fs::File::create(&path) {
        Ok(f) => Some(Mutex::new(AubWriter::new(std::io::BufWriter::new(f)))),
        Err(e) => {
            warn!("GENCL_AUB={}: {e}; not recording", path.to_string_lossy());
            None
        }
    }
}

fn err(ioctl: &'static str, errno: Errno) -> KmdError {
    KmdError::Errno { ioctl, errno }
}

// The ioctl boundary: the structs carry user pointers. As for the kernel's
// copy_from_user, a null pointer is EFAULT; any other pointer is trusted per
// the `I915` contract (0 or live memory of the stated type and size).
fn read_user<T: Copy>(ioctl: &'static str, ptr: u64) -> Result<T, KmdError> {
    if ptr == 0 {
        return Err(err(ioctl, Errno::EFAULT));
    }
    // SAFETY: non-null, and by the I915 contract points to a live `T`;
    // read_unaligned because user pointers need not be aligned.
    Ok(unsafe { std::ptr::read_unaligned(ptr as *const T) })
}

fn write_user<T: Copy>(ioctl: &'static str, ptr: u64, v: T) -> Result<(), KmdError> {
    if ptr == 0 {
        return Err(err(ioctl, Errno::EFAULT));
    }
    // SAFETY: as in read_user, for a writable `T`.
    unsafe { std::ptr::write_unaligned(ptr as *mut T, v) };
    Ok(())
}

fn write_user_bytes(ioctl: &'static str, ptr: u64, bytes: &[u8]) -> Result<(), KmdError> {
    if ptr == 0 {
        return Err(err(ioctl, Errno::EFAULT));
    }
    // SAFETY: non-null, and by the I915 contract `ptr` has room for the
    // length the caller announced, which the caller checked is >= bytes.len().
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr as *mut u8, bytes.len()) };
    Ok(())
}

/// `count` sync object handles (u32) at the user pointer `ptr`.
fn read_handles(ioctl: &'static str, ptr: u64, count: u32) -> Result<Vec<u32>, KmdError> {
    (0..u64::from(count))
        .map(|i| read_user::<u32>(ioctl, ptr.wrapping_add(4 * i)))
        .collect()
}

/// CLOCK_MONOTONIC now, in ns (the clock of SYNCOBJ_WAIT's absolute timeout).
fn monotonic_ns() -> i64 {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC)
        .map(|t| t.tv_sec() * 1_000_000_000 + t.tv_nsec())
        .unwrap_or(0)
}

/// Whether a softpin address is in canonical 48-bit form (bits 63:48 = bit 47).
fn is_canonical(a: u64) -> bool {
    ((((a << 16) as i64) >> 16) as u64) == a
}

/// The DRM_I915_QUERY_TOPOLOGY_INFO answer: header, slice mask, subslice
/// masks, EU masks, laid out with the kernel's offsets and strides.
fn topology_blob(part: &Part) -> Vec<u8> {
    let (slices, subslices, eus_per_subslice) = part.topology();
    let ss_stride = subslices.div_ceil(8);
    let eu_stride = eus_per_subslice.div_ceil(8);
    let ss_offset = slices.div_ceil(8);
    let eu_offset = ss_offset + slices * ss_stride;
    let hdr = drm_i915_query_topology_info {
        flags: 0,
        max_slices: slices,
        max_subslices: subslices,
        max_eus_per_subslice: eus_per_subslice,
        subslice_offset: ss_offset,
        subslice_stride: ss_stride,
        eu_offset,
        eu_stride,
        data: [],
    };
    let mut b: Vec<u8> = [
        hdr.flags,
        hdr.max_slices,
        hdr.max_subslices,
        hdr.max_eus_per_subslice,
        hdr.subslice_offset,
        hdr.subslice_stride,
        hdr.eu_offset,
        hdr.eu_stride,
    ]
    .iter()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    let mut data = vec![0u8; usize::from(eu_offset + slices * subslices * eu_stride)];
    for s in 0..slices {
        data[usize::from(s / 8)] |= 1 << (s % 8);
        for ss in 0..subslices {
            data[usize::from(ss_offset + s * ss_stride + ss / 8)] |= 1 << (ss % 8);
            for eu in 0..eus_per_subslice {
                let at = eu_offset + (s * subslices + ss) * eu_stride + eu / 8;
                data[usize::from(at)] |= 1 << (eu % 8);
            }
        }
    }
    b.extend(data);
    b
}

impl EmulatedI915 {
    pub fn new() -> Self {
        Self::with_budget(Budget::default())
    }

    /// The configuration GENCL_EMULATED_GPU names (default `skl-gt2`).
    pub fn from_env() -> Result<Self, KmdError> {
        let part = match std::env::var("GENCL_EMULATED_GPU") {
            Ok(name) if !name.is_empty() => {
                crate::devices::emulated(&name).map_err(KmdError::BadConfiguration)?
            }
            _ => default_part(),
        };
        Ok(Self::with_part(part, Budget::default()))
    }

    /// A device whose batches hang past `budget`.
    pub fn with_budget(budget: Budget) -> Self {
        Self::with_part(default_part(), budget)
    }

    /// A device presenting `part`.
    pub fn with_part(part: Part, budget: Budget) -> Self {
        let mut st = State {
            next_handle: 1,
            next_vm: 1,
            next_ctx: 1,
            ..Default::default()
        };
        // Context 0: the default context, with its own private VM.
        st.contexts.insert(0, Context::new(Arc::new(Vm::default())));
        let shared = Arc::new(Shared {
            state: Mutex::new(st),
            queue: Mutex::new(Engine::default()),
            work: Condvar::new(),
            retired: Mutex::new(0),
            done: Condvar::new(),
            budget,
            starvation: Arc::new(Starvation::default()),
            counters: Mutex::new(Counters::default()),
            last_batch: Mutex::new(HashMap::default()),
            last_error: Mutex::new(None),
            #[cfg(test)]
            panic_next: std::sync::atomic::AtomicBool::new(false),
            #[cfg(test)]
            engine_paused: std::sync::atomic::AtomicBool::new(false),
            #[cfg(test)]
            engine_ran: std::sync::atomic::AtomicUsize::new(0),
            engine: cs::Engine::with_frequency(part.platform.cs_timestamp_hz()),
            part,
            aub: aub_from_env(),
        });
        let engine = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("gencl-rcs".into())
                .spawn(move || shared.engine_loop())
                .ok()
        };
        Self { shared, engine }
    }

    /// Tests: makes the next batch's run panic inside the model.
    #[cfg(test)]
    pub(crate) fn panic_on_next_batch(&self) {
        self.shared.panic_next.store(true, Ordering::SeqCst);
    }

    /// Tests: the engine thread stops taking batches (or takes them again).
    #[cfg(test)]
    pub(crate) fn pause_engine(&self, paused: bool) {
        self.shared.engine_paused.store(paused, Ordering::SeqCst);
        let _q = self.shared.queue.lock();
        self.shared.work.notify_all();
    }

    /// The last GPU error and the context it banned (for logs and tools).
    pub fn last_error(&self) -> Option<(u32, GpuError)> {
        self.last_error.lock().clone()
    }

    /// Totals of the GPU model's counters over every batch run so far.
    pub fn counters(&self) -> Counters {
        self.counters.lock().clone()
    }

    fn setparam(
        ctx: &mut Context,
        st: &State,
        p: &drm_i915_gem_context_param,
    ) -> Result<(), Errno> {
        if p.ctx_id != 0 || p.size != 0 {
            return Err(Errno::EINVAL);
        }
        match p.param {
            I915_CONTEXT_PARAM_VM => {
                let id = u32::try_from(p.value).map_err(|_| Errno::ENOENT)?;
                ctx.vm = st.vms.get(&id).cloned().ok_or(Errno::ENOENT)?;
            }
            I915_CONTEXT_PARAM_RECOVERABLE => match p.value {
                0 | 1 => ctx.recoverable = p.value == 1,
                _ => return Err(Errno::EINVAL),
            },
            I915_CONTEXT_PARAM_BANNABLE => match p.value {
                0 | 1 => ctx.bannable = p.value == 1,
                _ => return Err(Errno::EINVAL),
            },
            // Non-persistent contexts are what compute runtimes ask for; the
            // model has nothing left running when a context goes away.
            I915_CONTEXT_PARAM_PERSISTENCE => {}
            _ => return Err(Errno::EINVAL),
        }
        Ok(())
    }
}

impl Shared {
    /// SYNCOBJ_RESET / _SIGNAL: every handle's fence becomes `fence`, or none changes.
    fn set_syncobjs(
        &self,
        ioctl: &'static str,
        a: &drm_syncobj_array,
        fence: Option<u64>,
    ) -> Result<(), KmdError> {
        if a.pad != 0 || a.count_handles == 0 {
            return Err(err(ioctl, Errno::EINVAL));
        }
        let handles = read_handles(ioctl, a.handles, a.count_handles)?;
        let mut st = self.state.lock();
        if handles.iter().any(|h| !st.syncobjs.contains_key(h)) {
            return Err(err(ioctl, Errno::ENOENT));
        }
        for h in handles {
            st.syncobjs.insert(h, fence);
        }
        Ok(())
    }

    /// The render engine: runs queued batches in submission order until shutdown.
    fn engine_loop(&self) {
        loop {
            let job = {
                let mut q = self.queue.lock();
                loop {
                    // Nothing runs while a waiter runs a batch itself (`help`).
                    if q.running.is_none() && !self.paused() {
                        if let Some(j) = self.start(&mut q) {
                            break j;
                        }
                    }
                    if q.shutdown {
                        return;
                    }
                    self.work.wait(&mut q);
                }
            };
            #[cfg(test)]
            self.engine_ran.fetch_add(1, Ordering::SeqCst);
            // The batches behind it that rang are this thread's next look's.
            let _rung = self.execute(&job);
        }
    }

    #[cfg(test)]
    fn paused(&self) -> bool {
        self.engine_paused.load(Ordering::SeqCst)
    }

    #[cfg(not(test))]
    fn paused(&self) -> bool {
        false
    }

    /// The next queued batch, now running.
    fn start(&self, q: &mut Engine) -> Option<Job> {
        let j = q.jobs.pop_front()?;
        q.running = Some(j.ctx_id);
        self.starvation.clear();
        if q.others_wait() {
            self.starvation.waiting();
        }
        Some(j)
    }

    /// Runs a batch taken by `start` and retires it; whether a batch queued behind it rang
    /// for the engine thread (or the device shuts down).
    fn execute(&self, job: &Job) -> bool {
        let cancelled = job
            .in_fence
            .as_ref()
            .is_some_and(|f| !wait_fence(f, FENCE_TIMEOUT_MS));
        if cancelled {
            warn!(
                ctx_id = job.ctx_id,
                "in-fence not signalled in {FENCE_TIMEOUT_MS} ms: batch cancelled"
            );
        } else {
            self.run(job);
        }
        // The engine is idle again under `retired`, the lock a waiter holds from its look
        // at the engine to its sleep (`wait_retired`): a waiter that found it busy is asleep
        // by now and woken below, and runs its batch itself if nobody else does.
        let mut retired = self.retired.lock();
        *retired = job.seqno;
        let rung = {
            let mut q = self.queue.lock();
            q.running = None;
            q.shutdown || q.jobs.iter().any(|j| j.doorbell)
        };
        if let Some(f) = &job.out_fence {
            signal_fence(f);
        }
        self.done.notify_all();
        drop(retired);
        rung
    }

    /// A waiter for batch `seqno` runs the next queued batch on its own thread when the
    /// engine is idle and that batch comes no later than `seqno`: the engine thread would
    /// run it anyway, in the same order, and the waiter would sleep until then. Two thread
    /// wake-ups fewer (the engine's, then the waiter's) on a blocking launch's round trip.
    /// The caller holds `retired` (the engine cannot turn idle between this look and its
    /// sleep); the batch taken, if any, now running.
    fn help(&self, seqno: u64) -> Option<Job> {
        let mut q = self.queue.lock();
        if q.running.is_some() || q.shutdown || q.jobs.front().is_none_or(|j| j.seqno > seqno) {
            return None;
        }
        self.start(&mut q)
    }

    fn run(&self, job: &Job) {
        let ctx_id = job.ctx_id;
        {
            let mut st = self.state.lock();
            match st.contexts.get_mut(&ctx_id) {
                // A batch queued behind one that hung: lost with the context's reset.
                Some(ctx) if ctx.banned => {
                    ctx.batch_pending += 1;
                    return;
                }
                None => return,
                Some(_) => {}
            }
        }
        let mut counters = Counters::default();
        // A panic of the model (its bug) must not end the engine thread: every waiter on
        // this batch and every later one would then wait forever. It ends the batch as a
        // GPU error instead, reported as a hang is.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            #[cfg(test)]
            if self.panic_next.swap(false, Ordering::SeqCst) {
                panic!("a panic injected by a test");
            }
            cs::execute_batch_on_engine(
                &job.vm.view(),
                job.batch_gpu,
                &self.budget,
                &self.starvation,
                &self.engine,
                &mut counters,
            )
        }))
        .unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".into());
            tracing::error!(ctx_id, "the GPU model panicked: {why}");
            Err(GpuError::Model(why))
        });
        self.counters.lock().add(&counters);
        self.last_batch.lock().insert(ctx_id, counters);
        if let Err(gpu_err) = result {
            // A hang or fault resets the engine and marks the guilty context;
            // like i915, later submissions on it fail with EIO (a recoverable,
            // unbannable context would be replayed instead, which the model
            // does not do: it is banned too).
            warn!(ctx_id, "GPU error: {gpu_err}; context banned");
            *self.last_error.lock() = Some((ctx_id, gpu_err));
            let mut st = self.state.lock();
            st.reset_count += 1;
            if let Some(ctx) = st.contexts.get_mut(&ctx_id) {
                ctx.banned = true;
                ctx.batch_active += 1;
                let _ = (ctx.recoverable, ctx.bannable);
            }
        }
    }

    /// Waits until the batch `seqno` retired; false if `timeout` passed first.
    /// A wait without a timeout runs the batches it waits for itself when the engine is
    /// idle (`help`); a timed one only sleeps, as a batch may run longer than its time.
    fn wait_retired(&self, seqno: u64, timeout: Option<std::time::Duration>) -> bool {
        let deadline = timeout.map(|t| std::time::Instant::now() + t);
        loop {
            let mut retired = self.retired.lock();
            if *retired >= seqno {
                return true;
            }
            if let Some(job) = deadline.is_none().then(|| self.help(seqno)).flatten() {
                drop(retired);
                // The batches behind it that rang are the engine thread's again (woken only
                // when there are some: a wake-up costs this thread a system call); those
                // queued for their waiters are left to them.
                if self.execute(&job) {
                    self.work.notify_one();
                }
                continue;
            }
            match deadline {
                None => self.done.wait(&mut retired),
                Some(d) => {
                    if self.done.wait_until(&mut retired, d).timed_out() && *retired < seqno {
                        return false;
                    }
                }
            }
            if *retired >= seqno {
                return true;
            }
        }
    }
}

impl EmulatedI915 {
    /// execbuffer2: the batch checked and queued; the engine thread woken if `doorbell`.
    fn queue_batch(
        &self,
        e: &mut drm_i915_gem_execbuffer2,
        doorbell: bool,
    ) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_EXECBUFFER2";
        let einval = || err(IOCTL, Errno::EINVAL);
        if e.flags & I915_EXEC_UNKNOWN_FLAGS != 0 {
            return Err(einval());
        }
        // Only the render engine; no fences or extensions in the model.
        let ring = e.flags & I915_EXEC_RING_MASK;
        if ring != I915_EXEC_DEFAULT && ring != I915_EXEC_RENDER {
            return Err(einval());
        }
        // Fences: FENCE_IN's fd in rsvd2's low word, FENCE_OUT's written to its high word;
        // FENCE_ARRAY's sync objects in cliprects_ptr. Timeline fences (extensions) are not
        // modelled.
        if e.flags & I915_EXEC_USE_EXTENSIONS != 0 {
            return Err(einval());
        }
        let rsvd2_in_use = if e.flags & I915_EXEC_FENCE_IN != 0 {
            0xffff_ffff
        } else {
            0
        };
        if e.rsvd2 & !rsvd2_in_use != 0 {
            return Err(einval());
        }
        let in_fence = if e.flags & I915_EXEC_FENCE_IN != 0 {
            let fd = e.rsvd2 as u32 as i32;
            if fd < 0 {
                return Err(einval());
            }
            // SAFETY: the caller's fd, borrowed only to duplicate it (an invalid one makes
            // the duplication fail: EINVAL, as i915's sync_file_get_fence).
            let borrowed = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
            Some(borrowed.try_clone_to_owned().map_err(|_| einval())?)
        } else {
            None
        };
        let fences = if e.flags & I915_EXEC_FENCE_ARRAY != 0 {
            let entry = std::mem::size_of::<drm_i915_gem_exec_fence>() as u64;
            let mut v = Vec::with_capacity(e.num_cliprects.min(4096) as usize);
            for i in 0..u64::from(e.num_cliprects) {
                let f: drm_i915_gem_exec_fence =
                    read_user(IOCTL, e.cliprects_ptr.wrapping_add(i * entry))?;
                if f.flags & !(I915_EXEC_FENCE_WAIT | I915_EXEC_FENCE_SIGNAL) != 0 {
                    return Err(einval());
                }
                v.push(f);
            }
            v
        } else {
            if e.num_cliprects != 0 || e.cliprects_ptr != 0 {
                return Err(einval());
            }
            Vec::new()
        };
        if e.DR1 != 0 || e.DR4 != 0 {
            return Err(einval());
        }
        if (e.batch_start_offset | e.batch_len) & 7 != 0 {
            return Err(einval());
        }
        if e.buffer_count == 0 || e.buffer_count > 1 << 16 {
            return Err(einval());
        }
        if e.rsvd1 >> 32 != 0 {
            return Err(einval());
        }
        let ctx_id = execbuffer2_context_id(e);
        let entry = std::mem::size_of::<drm_i915_gem_exec_object2>() as u64;
        let mut list = Vec::with_capacity(e.buffer_count as usize);
        for i in 0..u64::from(e.buffer_count) {
            let o: drm_i915_gem_exec_object2 =
                read_user(IOCTL, e.buffers_ptr.wrapping_add(i * entry))?;
            list.push(o);
        }

        let st = self.state.lock();
        let ctx = st.contexts.get(&ctx_id).ok_or(err(IOCTL, Errno::ENOENT))?;
        if ctx.banned {
            return Err(err(IOCTL, Errno::EIO));
        }
        // A fence to wait for must exist (i915: ENOENT for no such sync object, EINVAL for
        // one without a fence). Waiting itself is the engine's order: every fence a sync
        // object can hold is an earlier batch on this engine.
        for f in &fences {
            match st.syncobjs.get(&f.handle) {
                None => return Err(err(IOCTL, Errno::ENOENT)),
                Some(None) if f.flags & I915_EXEC_FENCE_WAIT != 0 => return Err(einval()),
                Some(_) => {}
            }
        }
        let vm = Arc::clone(&ctx.vm);
        let mut placed = Vec::with_capacity(list.len());
        let mut seen = HashSet::default();
        for o in &list {
            let obj = st
                .objects
                .get(&o.handle)
                .cloned()
                .ok_or(err(IOCTL, Errno::ENOENT))?;
            if !seen.insert(o.handle) {
                return Err(einval());
            }
            if o.flags & EXEC_OBJECT_UNKNOWN_FLAGS != 0 || o.rsvd2 != 0 {
                return Err(einval());
            }
            // Softpin only: the model has no relocation or placement.
            if o.relocation_count != 0 || o.flags & EXEC_OBJECT_PINNED == 0 {
                return Err(einval());
            }
            if !is_canonical(o.offset) || o.offset % PAGE != 0 {
                return Err(einval());
            }
            let addr = o.offset & ((1 << vm::VA_BITS) - 1);
            let limit = if o.flags & EXEC_OBJECT_SUPPORTS_48B_ADDRESS != 0 {
                1u64 << vm::VA_BITS
            } else {
                1u64 << 32
            };
            if addr + obj.size > limit {
                return Err(einval());
            }
            placed.push((o.handle, obj, addr, o.flags & EXEC_OBJECT_WRITE != 0));
        }
        let mut sorted: Vec<_> = placed.iter().map(|(_, o, a, _)| (*a, o.size)).collect();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0].0 + w[0].1 > w[1].0) {
            // Two objects of one execbuf pinned over each other.
            return Err(err(IOCTL, Errno::ENOSPC));
        }
        let batch_index = if e.flags & I915_EXEC_BATCH_FIRST != 0 {
            0
        } else {
            placed.len() - 1
        };
        let (_, batch_obj, batch_addr, _) = &placed[batch_index];
        let start = u64::from(e.batch_start_offset);
        let len = if e.batch_len == 0 {
            batch_obj.size.checked_sub(start).ok_or_else(einval)?
        } else {
            u64::from(e.batch_len)
        };
        if start + len > batch_obj.size || len == 0 {
            return Err(einval());
        }
        let batch_gpu = batch_addr + start;
        drop(st);
        // Binding does not wait for a batch running in this VM (it runs on a snapshot of
        // the page tables) and does not hold the device.
        {
            let mut pt = vm.lock_mut();
            for (handle, obj, addr, _) in &placed {
                if pt.address_of(*handle) == Some(*addr) {
                    continue;
                }
                pt.unbind(*handle);
                // Whatever else sits there is evicted, as i915 does for softpin.
                for other in pt.overlapping(*addr, obj.size) {
                    pt.unbind(other);
                }
                pt.bind(*handle, obj, *addr);
            }
        }
        // Sequence numbers and the queue's order are assigned together, under the
        // device lock: batches retire in submission order.
        let st = self.state.lock();
        if st.contexts.get(&ctx_id).is_none_or(|c| c.banned) {
            return Err(err(IOCTL, Errno::EIO));
        }
        let mut st = st;
        st.seqno += 1;
        let seqno = st.seqno;
        for (_, obj, _, write) in &placed {
            obj.mark_used(seqno, *write);
        }
        let mut signals = false;
        for f in fences
            .iter()
            .filter(|f| f.flags & I915_EXEC_FENCE_SIGNAL != 0)
        {
            if let Some(fence) = st.syncobjs.get_mut(&f.handle) {
                *fence = Some(seqno);
                signals = true;
            }
        }

        debug!(
            ctx_id,
            batch = format_args!("{batch_gpu:#x}"),
            objects = placed.len(),
            "execbuffer2"
        );
        if let Some(aub) = &self.aub {
            let objects: Vec<(u64, Vec<u8>)> = placed
                .iter()
                .map(|(_, obj, addr, _)| {
                    let mut bytes = vec![0u8; obj.size as usize];
                    obj.read_at(0, &mut bytes);
                    (*addr, bytes)
                })
                .collect();
            if let Err(e) = aub.lock().submit(&objects, batch_gpu) {
                warn!("GENCL_AUB: {e}");
            }
        }
        let out_fence = if e.flags & I915_EXEC_FENCE_OUT != 0 {
            let (user, job) = new_fence().map_err(|errno| err(IOCTL, errno))?;
            e.rsvd2 = (e.rsvd2 & 0xffff_ffff) | (u64::from(user.into_raw_fd() as u32) << 32);
            Some(job)
        } else {
            None
        };
        {
            let mut q = self.queue.lock();
            q.jobs.push_back(Job {
                ctx_id,
                vm,
                batch_gpu,
                seqno,
                in_fence,
                out_fence,
                doorbell,
            });
            if q.others_wait() {
                self.starvation.waiting();
            }
        }
        drop(st);
        if doorbell {
            self.work.notify_one();
        }
        if signals {
            // A SYNCOBJ_WAIT for submission may be waiting for this fence.
            let _r = self.retired.lock();
            self.done.notify_all();
        }
        Ok(())
    }
}

impl I915 for EmulatedI915 {
    fn getparam(&self, p: &mut drm_i915_getparam) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GETPARAM";
        let v = match p.param {
            I915_PARAM_CHIPSET_ID => i32::from(self.part.pci_id),
            I915_PARAM_REVISION => REVISION,
            I915_PARAM_EU_TOTAL => {
                let (s, ss, eu) = self.part.topology();
                i32::from(s * ss * eu)
            }
            I915_PARAM_SUBSLICE_TOTAL => {
                let (s, ss, _) = self.part.topology();
                i32::from(s * ss)
            }
            I915_PARAM_HAS_EXEC_SOFTPIN => 1,
            I915_PARAM_HAS_EXEC_FENCE_ARRAY => 1,
            I915_PARAM_CS_TIMESTAMP_FREQUENCY => self.part.platform.cs_timestamp_hz() as i32,
            _ => return Err(err(IOCTL, Errno::EINVAL)),
        };
        write_user(IOCTL, p.value as u64, v)
    }

    fn query(&self, q: &mut drm_i915_query) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_QUERY";
        if q.flags != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let item_size = std::mem::size_of::<drm_i915_query_item>() as u64;
        for i in 0..u64::from(q.num_items) {
            let at = q.items_ptr.wrapping_add(i * item_size);
            let mut item: drm_i915_query_item = read_user(IOCTL, at)?;
            // Per-item errors go in the item's length; the ioctl succeeds.
            item.length = match item.query_id {
                DRM_I915_QUERY_TOPOLOGY_INFO if item.flags != 0 => -(Errno::EINVAL as i32),
                DRM_I915_QUERY_TOPOLOGY_INFO => {
                    let blob = topology_blob(&self.part);
                    let total = blob.len() as i32;
                    if item.length == 0 {
                        total
                    } else if item.length < total {
                        -(Errno::EINVAL as i32)
                    } else {
                        write_user_bytes(IOCTL, item.data_ptr, &blob)?;
                        total
                    }
                }
                _ => -(Errno::EINVAL as i32),
            };
            write_user(IOCTL, at, item)?;
        }
        Ok(())
    }

    fn gem_create(&self, c: &mut drm_i915_gem_create) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_CREATE";
        if c.size == 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        if c.size > MAX_OBJECT {
            return Err(err(IOCTL, Errno::E2BIG));
        }
        let size = c.size.div_ceil(PAGE) * PAGE;
        let obj = Arc::new(GemObject::new(size).map_err(|e| err(IOCTL, e))?);
        let mut st = self.state.lock();
        let handle = st.next_handle;
        st.next_handle = st
            .next_handle
            .checked_add(1)
            .ok_or(err(IOCTL, Errno::ENOSPC))?;
        st.objects.insert(handle, obj);
        c.size = size;
        c.handle = handle;
        Ok(())
    }

    fn gem_close(&self, c: &drm_gem_close) -> Result<(), KmdError> {
        const IOCTL: &str = "GEM_CLOSE";
        // i915 keeps a closed object's pages bound until the batches using it retire;
        // here the close waits for them, then unbinds.
        let last_use = self
            .state
            .lock()
            .objects
            .get(&c.handle)
            .map(|o| o.last_use.load(Ordering::Relaxed));
        if let Some(seqno) = last_use {
            self.wait_retired(seqno, None);
        }
        let mut st = self.state.lock();
        // drm_gem_handle_delete: an unknown handle is EINVAL.
        if st.objects.remove(&c.handle).is_none() {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        st.mmap_offsets.remove(&c.handle);
        // Closing the last handle unbinds the object from every address space.
        for vm in st.vms.values() {
            vm.lock_mut().unbind(c.handle);
        }
        for ctx in st.contexts.values() {
            ctx.vm.lock_mut().unbind(c.handle);
        }
        Ok(())
    }

    fn gem_mmap_offset(&self, m: &mut drm_i915_gem_mmap_offset) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_MMAP_OFFSET";
        if m.extensions != 0 || m.pad != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        match m.flags {
            I915_MMAP_OFFSET_WB
            | I915_MMAP_OFFSET_WC
            | I915_MMAP_OFFSET_UC
            | I915_MMAP_OFFSET_FIXED => {}
            // Integrated Gen9 has an aperture, but the model has no GGTT.
            I915_MMAP_OFFSET_GTT => return Err(err(IOCTL, Errno::ENODEV)),
            _ => return Err(err(IOCTL, Errno::EINVAL)),
        }
        let mut st = self.state.lock();
        if !st.objects.contains_key(&m.handle) {
            return Err(err(IOCTL, Errno::ENOENT));
        }
        st.mmap_offsets.insert(m.handle);
        // A fake offset in the DRM fd's address space, unique per object.
        m.offset = u64::from(m.handle) << 32;
        Ok(())
    }

    fn mmap(&self, offset: u64, size: usize) -> Result<memmap2::MmapMut, KmdError> {
        const IOCTL: &str = "mmap";
        let handle = (offset >> 32) as u32;
        let st = self.state.lock();
        let obj = st
            .objects
            .get(&handle)
            .filter(|_| offset & 0xffff_ffff == 0 && st.mmap_offsets.contains(&handle))
            .ok_or(err(IOCTL, Errno::EACCES))?;
        obj.map(size).map_err(|e| err(IOCTL, e))
    }

    fn prime_handle_to_fd(&self, p: &mut drm_prime_handle) -> Result<(), KmdError> {
        const IOCTL: &str = "PRIME_HANDLE_TO_FD";
        if p.flags & !(DRM_CLOEXEC | DRM_RDWR) != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let st = self.state.lock();
        let obj = st.objects.get(&p.handle).ok_or(err(IOCTL, Errno::ENOENT))?;
        let cmd = if p.flags & DRM_CLOEXEC != 0 {
            libc::F_DUPFD_CLOEXEC
        } else {
            libc::F_DUPFD
        };
        // SAFETY: fcntl(F_DUPFD*) on an fd the object owns; the new fd is
        // handed to the caller, who owns it (as with a dma-buf fd).
        let fd = unsafe { libc::fcntl(obj.fd().as_raw_fd(), cmd, 0) };
        if fd < 0 {
            return Err(err(IOCTL, Errno::last()));
        }
        p.fd = fd;
        Ok(())
    }

    fn vm_create(&self, v: &mut drm_i915_gem_vm_control) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_VM_CREATE";
        if v.flags != 0 || v.extensions != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let mut st = self.state.lock();
        let id = st.next_vm;
        st.next_vm = st.next_vm.checked_add(1).ok_or(err(IOCTL, Errno::ENOSPC))?;
        st.vms.insert(id, Arc::new(Vm::default()));
        v.vm_id = id;
        Ok(())
    }

    fn vm_destroy(&self, v: &drm_i915_gem_vm_control) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_VM_DESTROY";
        if v.flags != 0 || v.extensions != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        // Contexts using it keep it alive; only the id goes.
        match self.state.lock().vms.remove(&v.vm_id) {
            Some(_) => Ok(()),
            None => Err(err(IOCTL, Errno::ENOENT)),
        }
    }

    fn context_create_ext(&self, c: &mut drm_i915_gem_context_create_ext) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_CONTEXT_CREATE_EXT";
        let known =
            I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS | I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE;
        if c.flags & !known != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let mut st = self.state.lock();
        let mut ctx = Context::new(Arc::new(Vm::default()));
        if c.flags & I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS != 0 {
            let mut next = c.extensions;
            let mut n = 0;
            while next != 0 {
                n += 1;
                if n > MAX_EXTENSIONS {
                    return Err(err(IOCTL, Errno::E2BIG));
                }
                let ext: i915_user_extension = read_user(IOCTL, next)?;
                if ext.flags != 0 || ext.rsvd != [0; 4] {
                    return Err(err(IOCTL, Errno::EINVAL));
                }
                match ext.name {
                    I915_CONTEXT_CREATE_EXT_SETPARAM => {
                        let sp: drm_i915_gem_context_create_ext_setparam = read_user(IOCTL, next)?;
                        Self::setparam(&mut ctx, &st, &sp.param).map_err(|e| err(IOCTL, e))?;
                    }
                    _ => return Err(err(IOCTL, Errno::EINVAL)),
                }
                next = ext.next_extension;
            }
        }
        let id = st.next_ctx;
        st.next_ctx = st
            .next_ctx
            .checked_add(1)
            .ok_or(err(IOCTL, Errno::ENOSPC))?;
        st.contexts.insert(id, ctx);
        c.ctx_id = id;
        Ok(())
    }

    fn context_destroy(&self, c: &drm_i915_gem_context_destroy) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_CONTEXT_DESTROY";
        if c.pad != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        if c.ctx_id == 0 {
            return Err(err(IOCTL, Errno::ENOENT));
        }
        match self.state.lock().contexts.remove(&c.ctx_id) {
            Some(_) => Ok(()),
            None => Err(err(IOCTL, Errno::ENOENT)),
        }
    }

    fn execbuffer2(&self, e: &mut drm_i915_gem_execbuffer2) -> Result<(), KmdError> {
        self.queue_batch(e, true)
    }

    /// The batch is queued without waking the engine thread: the caller's untimed
    /// `gem_wait` runs it if the engine is idle then (`help`), else the engine thread takes
    /// it after the batches before it. Until that wait it runs only when something else
    /// wakes the engine (another submission, a wait for a later batch): the caller must
    /// wait. (The service's held launches always are: by the thread holding them, or, if
    /// it lets go, by the client's retiring thread.)
    fn execbuffer2_then_wait(&self, e: &mut drm_i915_gem_execbuffer2) -> Result<(), KmdError> {
        self.queue_batch(e, false)
    }

    fn gem_wait(&self, w: &mut drm_i915_gem_wait) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_WAIT";
        if w.flags != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let last_use = {
            let st = self.state.lock();
            let obj = st
                .objects
                .get(&w.bo_handle)
                .ok_or(err(IOCTL, Errno::ENOENT))?;
            obj.last_use.load(Ordering::Relaxed)
        };
        // i915: a negative timeout waits for ever; 0 only asks; the time left is written
        // back.
        let start = std::time::Instant::now();
        let timeout = u64::try_from(w.timeout_ns)
            .ok()
            .map(std::time::Duration::from_nanos);
        if !self.wait_retired(last_use, timeout) {
            if w.timeout_ns > 0 {
                w.timeout_ns = 0;
            }
            return Err(err(IOCTL, Errno::ETIME));
        }
        if w.timeout_ns > 0 {
            let spent = i64::try_from(start.elapsed().as_nanos()).unwrap_or(i64::MAX);
            w.timeout_ns = (w.timeout_ns - spent).max(0);
        }
        Ok(())
    }

    fn gem_busy(&self, b: &mut drm_i915_gem_busy) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GEM_BUSY";
        let (last_use, last_write) = {
            let st = self.state.lock();
            let obj = st.objects.get(&b.handle).ok_or(err(IOCTL, Errno::ENOENT))?;
            (
                obj.last_use.load(Ordering::Relaxed),
                obj.last_write.load(Ordering::Relaxed),
            )
        };
        let retired = *self.retired.lock();
        // The render engine (class 0): bit 16 while a batch reads it, class + 1 in the low
        // word while one writes it.
        b.busy = 0;
        if last_use > retired {
            b.busy |= 1 << 16;
        }
        if last_write > retired {
            b.busy |= 1;
        }
        Ok(())
    }

    fn get_reset_stats(&self, r: &mut drm_i915_reset_stats) -> Result<(), KmdError> {
        const IOCTL: &str = "I915_GET_RESET_STATS";
        if r.flags != 0 || r.pad != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let st = self.state.lock();
        let ctx = st
            .contexts
            .get(&r.ctx_id)
            .ok_or(err(IOCTL, Errno::ENOENT))?;
        // The global count is what a privileged caller sees.
        r.reset_count = st.reset_count;
        r.batch_active = ctx.batch_active;
        r.batch_pending = ctx.batch_pending;
        Ok(())
    }

    fn batch_counters(&self, ctx_id: u32) -> Option<Counters> {
        self.last_batch.lock().get(&ctx_id).cloned()
    }

    fn total_counters(&self) -> Option<Counters> {
        Some(self.counters())
    }

    fn syncobj_create(&self, c: &mut drm_syncobj_create) -> Result<(), KmdError> {
        const IOCTL: &str = "SYNCOBJ_CREATE";
        if c.flags & !DRM_SYNCOBJ_CREATE_SIGNALED != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let mut st = self.state.lock();
        st.next_syncobj += 1;
        let handle = st.next_syncobj;
        let fence = (c.flags & DRM_SYNCOBJ_CREATE_SIGNALED != 0).then_some(0);
        st.syncobjs.insert(handle, fence);
        c.handle = handle;
        Ok(())
    }

    fn syncobj_destroy(&self, d: &drm_syncobj_destroy) -> Result<(), KmdError> {
        const IOCTL: &str = "SYNCOBJ_DESTROY";
        if d.pad != 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        match self.state.lock().syncobjs.remove(&d.handle) {
            Some(_) => Ok(()),
            None => Err(err(IOCTL, Errno::EINVAL)),
        }
    }

    fn syncobj_wait(&self, w: &mut drm_syncobj_wait) -> Result<(), KmdError> {
        const IOCTL: &str = "SYNCOBJ_WAIT";
        let known = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
        if w.flags & !known != 0 || w.pad != 0 || w.count_handles == 0 {
            return Err(err(IOCTL, Errno::EINVAL));
        }
        let handles = read_handles(IOCTL, w.handles, w.count_handles)?;
        let all = w.flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL != 0;
        let for_submit = w.flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT != 0;
        // The timeout is an absolute CLOCK_MONOTONIC time, as drm_timeout_abs_to_jiffies
        // reads it (std's Instant is CLOCK_MONOTONIC on Linux).
        let now = monotonic_ns();
        let left = u64::try_from(w.timeout_nsec.saturating_sub(now)).unwrap_or(0);
        let start = std::time::Instant::now();
        // A wait for ever (INT64_MAX) ends some centuries on.
        let deadline = start
            .checked_add(std::time::Duration::from_nanos(left))
            .unwrap_or(start + std::time::Duration::from_secs(1 << 32));
        // Lock order: retired, then state (execbuffer2 updates sync objects under state and
        // notifies under retired, so no update falls between a look and a sleep).
        let mut retired = self.retired.lock();
        loop {
            let fences: Vec<Option<u64>> = {
                let st = self.state.lock();
                handles
                    .iter()
                    .map(|h| st.syncobjs.get(h).copied().ok_or(err(IOCTL, Errno::ENOENT)))
                    .collect::<Result<_, _>>()?
            };
            if !for_submit && fences.iter().any(Option::is_none) {
                return Err(err(IOCTL, Errno::EINVAL));
            }
            let signalled = |f: &Option<u64>| f.is_some_and(|s| s <= *retired);
            if all {
                if fences.iter().all(signalled) {
                    return Ok(());
                }
            } else if let Some(i) = fences.iter().position(signalled) {
                w.first_signaled = i as u32;
                return Ok(());
            }
            if std::time::Instant::now() >= deadline {
                return Err(err(IOCTL, Errno::ETIME));
            }
            self.done.wait_until(&mut retired, deadline);
        }
    }

    fn syncobj_reset(&self, a: &drm_syncobj_array) -> Result<(), KmdError> {
        self.set_syncobjs("SYNCOBJ_RESET", a, None)
    }

    fn syncobj_signal(&self, a: &drm_syncobj_array) -> Result<(), KmdError> {
        self.set_syncobjs("SYNCOBJ_SIGNAL", a, Some(0))?;
        let _r = self.retired.lock();
        self.done.notify_all();
        Ok(())
    }

    fn describe(&self) -> String {
        format!(
            "emulated Gen9 {} ({:#06x})",
            self.part.describe(),
            self.part.pci_id
        )
    }
}

#[cfg(test)]
mod tests;
