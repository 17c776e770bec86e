//! The request handler: one `Client` per connection, holding everything that client created.
//! Untrusted input never panics here: every id is looked up in this client's own tables, every
//! size and count is checked before use, and failures become `Response::Error`.

use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::sync::Arc;

use gencl_jit::abi::{ArgKind, ProgramBinary};

use super::gpu::{Bo, ClientGpu};
use super::retire::{Held, Retirer, Sink, Took, HOLD_AT_MOST};
use super::stats::ClientCounters;
use super::{Service, ServiceError};
use crate::protocol::{
    ErrorCode, KernelDesc, Launch, ProgramSource, Request, Response, WireArg, PROTOCOL_VERSION,
};
use crate::submit::{ArgValue, NdRange, Submitter};

/// A response and the fds that travel with it.
#[derive(Debug)]
pub struct Reply {
    pub response: Response,
    pub fds: Vec<OwnedFd>,
}

impl From<Response> for Reply {
    fn from(response: Response) -> Self {
        Reply {
            response,
            fds: Vec::new(),
        }
    }
}

fn error(code: ErrorCode, message: impl Into<String>) -> Reply {
    Reply::from(Response::Error {
        code,
        message: message.into(),
    })
}

/// `error`, boxed: a launch's refusal.
fn refusal(code: ErrorCode, message: impl Into<String>) -> Box<Reply> {
    Box::new(error(code, message))
}

/// One client's state in the service. Dropping it frees every object the client created.
pub struct Client {
    svc: Arc<Service>,
    gpu: Arc<ClientGpu>,
    greeted: bool,
    buffers: HashMap<u64, Bo>,
    programs: HashMap<u64, Program>,
    submitter: Option<Submitter>,
    /// Where `Completed` goes.
    sink: Sink,
    /// Waits for launches and reports them (started with the first launch).
    retirer: Option<Retirer>,
    /// What `Request::Stats` reports of this client.
    counters: Arc<ClientCounters>,
}

/// A built program of a client: its kernels, and the buffer of its global variables (OpenCL
/// C 2.0 program scope), made before the first launch that reaches them and kept, with what
/// the kernels wrote there, until the program is released.
struct Program {
    bin: ProgramBinary,
    globals: Option<Bo>,
    /// Per kernel, how long its last launch took to retire (`retire::Took`).
    took: Vec<Took>,
}

impl Client {
    /// A client whose finished launches are reported to `sink` (as `Response::Completed`,
    /// from another thread).
    pub fn new(svc: Arc<Service>, sink: Sink) -> Result<Client, ServiceError> {
        let gpu = Arc::new(ClientGpu::new(svc.dev.clone())?);
        let counters = svc.registry.join();
        Ok(Client {
            counters,
            svc,
            gpu,
            greeted: false,
            buffers: HashMap::new(),
            programs: HashMap::new(),
            submitter: None,
            sink,
            retirer: None,
        })
    }

    /// The client's process, as the socket's peer credentials name it.
    pub fn set_peer(&self, pid: Option<i32>) {
        *self.counters.pid.lock() = pid;
    }

    /// A request answered at once, or a build's work for the caller to run without holding
    /// this client (its other requests go on meanwhile) and then hand to `finish`.
    pub fn begin(&mut self, req: Request) -> Step {
        if !self.greeted && !matches!(req, Request::Hello { .. }) {
            return Step::Reply(error(
                ErrorCode::BadHandshake,
                "the first request must be Hello",
            ));
        }
        match Work::of(req) {
            Ok(w) => {
                if w.counts_as_build {
                    ClientCounters::add(&self.counters.builds, 1);
                }
                Step::Work(w)
            }
            Err(req) => Step::Reply(self.answer(req)),
        }
    }

    /// The answer to a build whose work has run: a program is kept under a new id.
    pub fn finish(&mut self, done: Worked) -> Reply {
        match done {
            Worked::Program(bin) => self.keep(bin),
            Worked::Reply(r) => r,
        }
    }

    fn answer(&mut self, req: Request) -> Reply {
        match req {
            Request::Hello { version } => {
                if self.greeted {
                    return error(ErrorCode::BadHandshake, "Hello sent twice");
                }
                if version != PROTOCOL_VERSION {
                    return error(
                        ErrorCode::BadHandshake,
                        format!("protocol version {version}, service speaks {PROTOCOL_VERSION}"),
                    );
                }
                self.greeted = true;
                Response::Welcome {
                    version: PROTOCOL_VERSION,
                    device: self.svc.desc.clone(),
                }
                .into()
            }
            // `Work::of` takes these; they never come here.
            Request::BuildProgram { .. }
            | Request::CompileProgram { .. }
            | Request::LinkPrograms { .. } => {
                error(ErrorCode::Malformed, "a build has no answer of its own")
            }
            Request::CreateBuffer { size } => self.create_buffer(size),
            Request::FreeBuffer { id } => match self.buffers.remove(&id) {
                Some(bo) => {
                    ClientCounters::sub(&self.counters.buffers, 1);
                    ClientCounters::sub(&self.counters.buffer_bytes, bo.size);
                    self.gpu.free_bo(bo);
                    Response::Done.into()
                }
                None => error(ErrorCode::UnknownObject, format!("no buffer {id}")),
            },
            Request::ReleaseContext { context } => {
                self.gpu.release_stream(context);
                Response::Done.into()
            }
            Request::FreeProgram { id } => match self.programs.remove(&id) {
                Some(p) => {
                    ClientCounters::sub(&self.counters.programs, 1);
                    if let Some(bo) = p.globals {
                        self.gpu.free_bo(bo);
                    }
                    Response::Done.into()
                }
                None => error(ErrorCode::UnknownObject, format!("no program {id}")),
            },
            Request::ProgramBinary { id } => match self.programs.get(&id) {
                Some(p) => Response::Binary {
                    bytes: gencl_jit::binary::encode(&p.bin),
                }
                .into(),
                None => error(ErrorCode::UnknownObject, format!("no program {id}")),
            },
            Request::Launch(l) => self.launch(&l),
            // The socket server answers nothing for a posted launch that is queued
            // (`Client::post`); a request answered through `begin` gets `Queued`.
            Request::Post(l) | Request::PostWaited(l) => self
                .post(&l)
                .unwrap_or_else(|| Response::Queued { tag: l.tag }.into()),
            Request::Stats => Response::Stats(Box::new(self.svc.stats())).into(),
        }
    }

    fn create_buffer(&mut self, size: u64) -> Reply {
        if size == 0 || size > self.svc.desc.max_alloc_bytes {
            return error(
                ErrorCode::InvalidArgs,
                format!(
                    "buffer size {size} outside 1..={}",
                    self.svc.desc.max_alloc_bytes
                ),
            );
        }
        let bo = match self.gpu.create_bo(size) {
            Ok(bo) => bo,
            Err(e) => return error(ErrorCode::OutOfResources, e.to_string()),
        };
        let fd = match self.gpu.export_bo(&bo) {
            Ok(fd) => fd,
            Err(e) => {
                self.gpu.free_bo(bo);
                return error(ErrorCode::OutOfResources, e.to_string());
            }
        };
        let id = self.svc.next_id();
        let response = Response::Buffer {
            id,
            size,
            gpu_addr: bo.gpu_addr,
        };
        tracing::debug!(id, ?bo, "buffer created");
        ClientCounters::add(&self.counters.buffers, 1);
        ClientCounters::add(&self.counters.buffer_bytes, size);
        self.buffers.insert(id, bo);
        Reply {
            response,
            fds: vec![fd],
        }
    }

    /// A built program, kept under a new id.
    fn keep(&mut self, bin: gencl_jit::abi::ProgramBinary) -> Reply {
        let id = self.svc.next_id();
        let kernels = bin.kernels.iter().map(KernelDesc::from).collect();
        let log = bin.build_log.clone();
        let globals_bytes = bin.globals.data.len() as u64;
        ClientCounters::add(&self.counters.programs, 1);
        let took = bin.kernels.iter().map(|_| Took::default()).collect();
        self.programs.insert(
            id,
            Program {
                bin,
                globals: None,
                took,
            },
        );
        Response::Built {
            id,
            kernels,
            log,
            globals_bytes,
        }
        .into()
    }

    /// A posted launch: `None` once queued (nothing to answer), else its failure as the
    /// launch's `Completed`.
    pub fn post(&mut self, l: &Launch) -> Option<Reply> {
        match self.queue_launch(l, false) {
            Ok(_) => None,
            Err(r) => Some(refused_as_completed(l.tag, *r)),
        }
    }

    /// A posted launch that its client waits for at once (`Request::PostWaited`): queued as
    /// `post` queues it (`Ok(None)`), or held for the caller to retire (`Held::retire`) once
    /// it has let go of this client, when nothing of the client is being retired before it;
    /// a refusal is the launch's `Completed` with the error.
    pub fn post_waited(&mut self, l: &Launch) -> Result<Option<Held>, Box<Reply>> {
        // The thread that retires a held launch reads no request of this client meanwhile: a
        // kernel whose last launch took longer than `HOLD_AT_MOST` (or that never ran) goes to
        // the retiring thread, so that the client's other threads wait at most about that.
        let short = self
            .programs
            .get(&l.program)
            .and_then(|p| p.took.get(l.kernel as usize))
            .is_some_and(|t| t.below(HOLD_AT_MOST));
        self.queue_launch(l, short)
            .map_err(|r| Box::new(refused_as_completed(l.tag, *r)))
    }

    fn launch(&mut self, l: &Launch) -> Reply {
        match self.queue_launch(l, false) {
            Ok(_) => Response::Queued { tag: l.tag }.into(),
            Err(r) => *r,
        }
    }

    /// A launch its caller waits for at once (`Launch::wait`): queued as any, or, when
    /// nothing of this client is being retired before it, held for the caller to retire
    /// once it has let go of this client (`Held::retire`), on its own thread.
    pub fn launch_waited(&mut self, l: &Launch) -> Result<Option<Held>, Box<Reply>> {
        self.queue_launch(l, true)
    }

    /// Check and submit `l`; a held launch when `wait` and the retiring thread is idle.
    fn queue_launch(&mut self, l: &Launch, wait: bool) -> Result<Option<Held>, Box<Reply>> {
        let Some(program) = self.programs.get_mut(&l.program) else {
            return Err(refusal(
                ErrorCode::UnknownObject,
                format!("no program {}", l.program),
            ));
        };
        let Some(kernel) = program.bin.kernels.get(l.kernel as usize) else {
            return Err(refusal(
                ErrorCode::InvalidArgs,
                format!("program has no kernel #{}", l.kernel),
            ));
        };
        if l.args.len() != kernel.args.len() {
            return Err(refusal(
                ErrorCode::InvalidArgs,
                format!(
                    "{} takes {} arguments, got {}",
                    kernel.name,
                    kernel.args.len(),
                    l.args.len()
                ),
            ));
        }
        if let Err(msg) = check_nd(l, self.svc.desc.max_work_group_size) {
            return Err(refusal(ErrorCode::InvalidArgs, msg));
        }
        let mut args = Vec::with_capacity(l.args.len());
        let mut buffers = Vec::new();
        for (i, (decl, val)) in kernel.args.iter().zip(&l.args).enumerate() {
            let v = match (&decl.kind, val) {
                (ArgKind::Buffer { .. }, WireArg::Buffer { id, offset }) => {
                    let Some(bo) = self.buffers.get(id) else {
                        return Err(refusal(
                            ErrorCode::UnknownObject,
                            format!("argument {i}: no buffer {id}"),
                        ));
                    };
                    if *offset >= bo.size {
                        return Err(refusal(
                            ErrorCode::InvalidArgs,
                            format!("argument {i}: offset {offset} past buffer {id}"),
                        ));
                    }
                    // Written unless declared __constant (the JIT does not report writes yet).
                    let written = decl.address != gencl_jit::abi::AddressQualifier::Constant;
                    buffers.push((bo.handle, bo.gpu_addr, written));
                    ArgValue::Buffer {
                        gpu_addr: bo.gpu_addr + offset,
                        handle: bo.handle,
                        size: bo.size - offset,
                    }
                }
                (ArgKind::Buffer { .. }, WireArg::NullBuffer) => ArgValue::NullBuffer,
                (ArgKind::Local, WireArg::Local { size }) if *size > 0 => {
                    ArgValue::Local { size: *size }
                }
                (ArgKind::Value, WireArg::Bytes(b)) if b.len() == decl.size as usize => {
                    ArgValue::Bytes(b.clone())
                }
                (
                    ArgKind::Image { .. },
                    WireArg::Image {
                        id,
                        offset,
                        surface,
                    },
                ) => {
                    let Some(bo) = self.buffers.get(id) else {
                        return Err(refusal(
                            ErrorCode::UnknownObject,
                            format!("argument {i}: no buffer {id}"),
                        ));
                    };
                    // The client's description of the image is untrusted: its texels must
                    // lie inside the buffer, so that the GPU reads and writes nothing else.
                    let fits = surface
                        .extent()
                        .and_then(|e| e.checked_add(*offset))
                        .is_some_and(|end| end <= bo.size);
                    if !fits {
                        return Err(refusal(
                            ErrorCode::InvalidArgs,
                            format!(
                                "argument {i}: image {}x{}x{} (format {:#x}, pitch {}) \
                                 does not fit buffer {id} of {} bytes from offset {offset}",
                                surface.width,
                                surface.height,
                                surface.depth,
                                surface.format,
                                surface.row_pitch,
                                bo.size
                            ),
                        ));
                    }
                    buffers.push((bo.handle, bo.gpu_addr, true));
                    ArgValue::Image {
                        gpu_addr: bo.gpu_addr + offset,
                        handle: bo.handle,
                        surface: *surface,
                    }
                }
                (ArgKind::Sampler { .. }, WireArg::Sampler(v)) => ArgValue::Sampler(*v),
                _ => {
                    return Err(refusal(
                        ErrorCode::InvalidArgs,
                        format!(
                            "argument {i} ({}) does not match its declaration {:?}",
                            decl.name, decl.kind
                        ),
                    ))
                }
            };
            args.push(v);
        }
        let nd = NdRange {
            work_dim: l.work_dim,
            global_offset: l.global_offset,
            global_size: l.global_size,
            local_size: l.local_size,
        };
        if self.submitter.is_none() {
            match Submitter::new(&self.gpu) {
                Ok(s) => self.submitter = Some(s),
                Err(e) => return Err(refusal(ErrorCode::LaunchFailed, e.to_string())),
            }
        }
        if self.retirer.is_none() {
            let (sink, counters) = (self.sink.clone(), self.counters.clone());
            match Retirer::new(self.gpu.clone(), sink, counters) {
                Ok(r) => self.retirer = Some(r),
                Err(e) => {
                    return Err(refusal(
                        ErrorCode::OutOfResources,
                        format!("no thread: {e}"),
                    ))
                }
            }
        }
        // The program's global variables: made with their initial values before the first
        // launch that reaches them, then shared by every launch of the program's kernels.
        let mut globals = None;
        if kernel.globals_offset.is_some() {
            if program.globals.is_none() {
                match self.gpu.create_globals(&program.bin.globals) {
                    Ok(bo) => program.globals = Some(bo),
                    Err(e) => return Err(refusal(ErrorCode::LaunchFailed, e.to_string())),
                }
            }
            if let Some(bo) = &program.globals {
                buffers.push((bo.handle, bo.gpu_addr, true));
                globals = Some(bo.gpu_addr);
            }
        }
        let (Some(submitter), Some(retirer)) = (self.submitter.as_mut(), &self.retirer) else {
            return Err(refusal(ErrorCode::LaunchFailed, "no submitter"));
        };
        let took = program.took[l.kernel as usize].clone();
        // Every launch is retired next by a thread of this client, which runs it on the
        // emulated device when the engine is idle: the thread that holds it, or the client's
        // retiring thread, which retires each launch in the order they were queued
        // (docs/runtime.md, "Launches run by their waiters").
        let submitted =
            submitter.submit(&self.gpu, l.context, kernel, &args, &nd, &buffers, globals);
        match submitted {
            Ok(submitted) => {
                self.counters.launched(l.queue);
                if wait {
                    return Ok(retirer.hold(l.tag, l.queue, submitted, took));
                }
                retirer.push(l.tag, l.queue, submitted, took);
                Ok(None)
            }
            Err(e) => Err(refusal(ErrorCode::LaunchFailed, e.to_string())),
        }
    }

    /// Buffers and programs this client holds (tests).
    pub fn object_counts(&self) -> (usize, usize) {
        (self.buffers.len(), self.programs.len())
    }
}

/// The ND-range must be one the submitter can walk: 1-3 dims, non-empty, a work-group within
/// the device limit. The client validated the same rules; this repeats them for hostile peers.
/// A launch's refusal as the `Completed` a posted launch gets instead of an answer.
fn refused_as_completed(tag: u64, refusal: Reply) -> Reply {
    let error = match refusal.response {
        Response::Error { code, message } => (code, message),
        other => (ErrorCode::LaunchFailed, format!("{other:?}")),
    };
    Response::Completed {
        tag,
        result: Err(error),
    }
    .into()
}

fn check_nd(l: &Launch, max_wg: u32) -> Result<(), String> {
    if !(1..=3).contains(&l.work_dim) {
        return Err(format!("work_dim {} not in 1..=3", l.work_dim));
    }
    let dims = l.work_dim as usize;
    let mut wg: u64 = 1;
    for d in 0..3 {
        let (g, loc) = (l.global_size[d], l.local_size[d]);
        if d >= dims {
            if g != 1 || loc != 1 || l.global_offset[d] != 0 {
                return Err(format!("dimension {d} beyond work_dim must be 1"));
            }
            continue;
        }
        if g == 0 || loc == 0 {
            return Err(format!("dimension {d}: empty size"));
        }
        if l.global_offset[d].checked_add(g).is_none() {
            return Err(format!("dimension {d}: offset + size overflows"));
        }
        wg *= loc as u64;
    }
    if wg > max_wg as u64 {
        return Err(format!("work-group of {wg} items exceeds {max_wg}"));
    }
    Ok(())
}

impl Drop for Client {
    fn drop(&mut self) {
        // Launches in flight finish first: they use the heaps and buffers freed below.
        drop(self.retirer.take());
        if let Some(s) = self.submitter.take() {
            s.destroy(&self.gpu);
        }
        let n = self.buffers.len();
        for (_, bo) in self.buffers.drain() {
            self.gpu.free_bo(bo);
        }
        for bo in self.programs.values_mut().filter_map(|p| p.globals.take()) {
            self.gpu.free_bo(bo);
        }
        tracing::debug!(
            buffers = n,
            programs = self.programs.len(),
            "client gone, objects freed"
        );
    }
}

/// A build's long part: the compiler alone, none of the client's state.
pub struct Work {
    run: Box<dyn FnOnce() -> Worked + Send>,
    /// clBuildProgram or clLinkProgram (`ClientStats::builds`), not clCompileProgram.
    counts_as_build: bool,
}

/// What a build's work made.
pub enum Worked {
    /// An executable, to keep under a new id.
    Program(ProgramBinary),
    /// The whole answer (a compiled object or library, or the compiler's failure).
    Reply(Reply),
}

/// What `Client::begin` makes of a request.
pub enum Step {
    Reply(Reply),
    Work(Work),
}

impl Work {
    /// The work of a build request; any other request back.
    fn of(req: Request) -> Result<Work, Request> {
        let (run, counts_as_build): (Box<dyn FnOnce() -> Worked + Send>, _) = match req {
            Request::BuildProgram {
                source,
                options,
                spec_constants,
            } => (
                Box::new(move || build(&source, &options, &spec_constants)),
                true,
            ),
            Request::CompileProgram {
                source,
                options,
                headers,
            } => (
                Box::new(move || compile_object(&source, &options, &headers)),
                false,
            ),
            Request::LinkPrograms { modules, options } => {
                (Box::new(move || link(&modules, &options)), true)
            }
            other => return Err(other),
        };
        Ok(Work {
            run,
            counts_as_build,
        })
    }

    pub fn run(self) -> Worked {
        (self.run)()
    }
}

fn input(source: &ProgramSource) -> gencl_jit::CompileInput<'_> {
    match source {
        ProgramSource::OpenClC(s) => gencl_jit::CompileInput::OpenClC(s),
        ProgramSource::SpirV(b) => gencl_jit::CompileInput::SpirV(b),
        ProgramSource::Binary(b) => gencl_jit::CompileInput::Binary(b),
    }
}

/// clBuildProgram's work.
fn build(source: &ProgramSource, options: &str, spec: &[(u32, Vec<u8>)]) -> Worked {
    let input = input(source);
    // A program built before, by this client or another, or by another process of this
    // cache's user (the persistent program cache, checked byte for byte against its key).
    let key = gencl_jit::program_cache::Key::of(&input, options, spec);
    if let Some(bin) = key.as_ref().and_then(gencl_jit::program_cache::lookup) {
        return Worked::Program(bin);
    }
    contained(
        || gencl_jit::compile_specialized(input, options, spec),
        |bin| {
            if let Some(key) = &key {
                gencl_jit::program_cache::store(key, &bin);
            }
            Worked::Program(bin)
        },
    )
}

/// clLinkProgram's work: a library is the answer, an executable is kept.
fn link(modules: &[Vec<u8>], options: &str) -> Worked {
    contained(
        || gencl_jit::link_programs(modules, options),
        |linked| match linked {
            gencl_jit::Linked::Library(il) => Worked::Reply(compiled(il)),
            gencl_jit::Linked::Executable(_, bin) => Worked::Program(bin),
        },
    )
}

/// clCompileProgram's work.
fn compile_object(source: &ProgramSource, options: &str, headers: &[(String, String)]) -> Worked {
    contained(
        || gencl_jit::compile_object(input(source), options, headers),
        |il| Worked::Reply(compiled(il)),
    )
}

/// Run a compiler step; its result to `done`, its failure as `BuildFailed`. The JIT parses
/// untrusted SPIR-V with libraries that may panic (TOOLCHAIN.md: rspirv): a panic there
/// costs this build, not the service.
fn contained<T>(
    step: impl FnOnce() -> Result<T, gencl_jit::BuildError>,
    done: impl FnOnce(T) -> Worked,
) -> Worked {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(step)) {
        Ok(Ok(t)) => done(t),
        Ok(Err(e)) => Worked::Reply(
            Response::BuildFailed {
                log: e.log,
                invalid_options: e.invalid_options,
            }
            .into(),
        ),
        Err(_) => Worked::Reply(panicked()),
    }
}

/// A compiled object or a library: SPIR-V for the client to keep.
fn compiled(il: Vec<u8>) -> Reply {
    Response::Compiled {
        il,
        log: String::new(),
    }
    .into()
}

/// The answer when the compiler panicked: the build fails, the service goes on.
fn panicked() -> Reply {
    Response::BuildFailed {
        log: "internal compiler error: the compiler panicked on this input".into(),
        invalid_options: false,
    }
    .into()
}
