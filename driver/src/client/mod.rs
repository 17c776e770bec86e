//! The ICD's side of the protocol: a connection to `gencld`, or the same service core running
//! in-process (embedded). Both send the same `Request` values to the same handler.
//!
//! `GENCL_MODE`: `service` (connect or fail), `embedded` (never connect), `auto` (default:
//! connect to gencld if something listens at `socket_candidates()`, else embedded).
//!
//! Launches are asynchronous: `launch` returns once the service has queued the kernel, and
//! the service's `Completed` message (read from the socket, or handed over by the embedded
//! service's retiring thread) calls the launch's `done`.
//!
//! No lock is held across a round trip: through gencld each call has an id and waits for
//! the reply with that id alone, so the application's threads have requests in flight at
//! once; embedded, the client's state is locked only while a request is answered, and a
//! build compiles without it.
//!
//! Who reads gencld's socket (`Inbox`): one thread at a time. A thread that waits for an
//! answer of its own (a call's reply, the `Completed` of a launch it waits for next) and
//! finds nobody reading reads itself, and hands what else it reads to whom it belongs; the
//! connection's background thread reads while answers are expected and no such thread
//! does. A blocking call's answer thus wakes the thread that waits for it, not a reader
//! thread that then wakes it.

use memmap2::{MmapMut, MmapOptions};
use parking_lot::{Condvar, Mutex};
use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

use crate::protocol::{
    send_message, BufferId, Call, DeviceDesc, ErrorCode, FrameError, FrameReader, Launch, Launched,
    Next, Polling, Reply, Request, Response, NO_CALL, PROTOCOL_VERSION,
};
use crate::service::handler::Step;
use crate::service::retire::Sink;
use crate::service::{server::socket_candidates, Client, Service, ServiceError};

#[derive(Debug, Error)]
pub enum ClientError {
    #[error("GENCL_MODE={0:?} is not one of embedded, service, auto")]
    BadMode(String),
    #[error("cannot reach gencld at {path}: {source}")]
    Connect {
        path: String,
        source: std::io::Error,
    },
    #[error("embedded service: {0}")]
    Embedded(#[from] ServiceError),
    #[error("connection to gencld: {0}")]
    Frame(#[from] FrameError),
    #[error("gencld closed the connection")]
    Closed,
    #[error("gencld answered {code:?}: {message}")]
    Service { code: ErrorCode, message: String },
    #[error("unexpected answer from gencld: {0}")]
    Unexpected(String),
    #[error("mapping buffer {id}: {source}")]
    Map {
        id: BufferId,
        source: std::io::Error,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Embedded,
    Service,
}

/// What the service answered, or why nothing came.
type Answer = Result<(Response, Vec<OwnedFd>), ClientError>;

enum Transport {
    /// The service's client state in this process, locked only while a request is answered.
    Embedded(Box<Mutex<Client>>),
    /// Calls go out on `out`, one whole frame at a time; whoever reads (`inbox`) hands each
    /// reply to the call waiting for its id.
    Socket {
        out: Mutex<UnixStream>,
        inbox: Arc<Inbox>,
    },
}

/// Calls through gencld waiting for their replies, by id.
#[derive(Default)]
struct Calls {
    next_id: AtomicU64,
    waiting: Mutex<HashMap<u64, mpsc::SyncSender<Answer>>>,
    /// The connection is gone: no reply will come.
    closed: AtomicBool,
}

impl Calls {
    fn new() -> Calls {
        Calls {
            next_id: AtomicU64::new(NO_CALL + 1),
            ..Default::default()
        }
    }

    /// The reply to call `id` has been handed over (or the call given up).
    fn answered(&self, id: u64) -> bool {
        !self.waiting.lock().contains_key(&id)
    }

    /// The reply to call `id` arrived.
    fn answer(&self, id: u64, answer: Answer) {
        match self.waiting.lock().remove(&id) {
            // The caller waits on a channel of one.
            Some(tx) => drop(tx.send(answer)),
            None => tracing::warn!(id, "a reply to no call waiting"),
        }
    }

    /// Every call still waiting fails: the service is gone.
    fn close(&self, why: impl Fn() -> ClientError) {
        self.closed.store(true, Ordering::Release);
        let all: Vec<_> = self.waiting.lock().drain().map(|(_, tx)| tx).collect();
        for tx in all {
            drop(tx.send(Err(why())));
        }
    }
}

/// What a launch's `done` is called with once it finished.
pub type LaunchOutcome = Result<Launched, ClientError>;
type Done = Box<dyn FnOnce(LaunchOutcome) + Send>;

/// Launches queued and not finished, by tag.
#[derive(Default)]
struct Pending {
    next_tag: AtomicU64,
    waiting: Mutex<HashMap<u64, Done>>,
    /// The connection is gone: no `Completed` will come.
    closed: AtomicBool,
}

impl Pending {
    fn complete(&self, tag: u64, result: Result<Launched, (ErrorCode, String)>) {
        let done = self.waiting.lock().remove(&tag);
        match done {
            Some(d) => d(result.map_err(|(code, message)| ClientError::Service { code, message })),
            None => tracing::warn!(tag, "completion of a launch not waited for"),
        }
    }

    /// Every launch still waiting fails: the service is gone.
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        let all: Vec<Done> = self.waiting.lock().drain().map(|(_, d)| d).collect();
        for d in all {
            d(Err(ClientError::Closed));
        }
    }

    /// Handles `Completed`; gives back any other response.
    fn sink(self: &Arc<Self>) -> Sink {
        let pending = self.clone();
        Arc::new(move |rs: Vec<Response>| {
            for r in rs {
                match r {
                    Response::Completed { tag, result } => pending.complete(tag, result),
                    other => tracing::warn!("unexpected message from the service: {other:?}"),
                }
            }
        })
    }
}

/// One connection (one client state in the service, one GPU VM).
pub struct Connection {
    transport: Transport,
    pending: Arc<Pending>,
    pub device: DeviceDesc,
    pub mode: Mode,
    /// gencld's socket, when connected to one.
    pub socket: Option<std::path::PathBuf>,
}

impl Connection {
    /// Connect as `GENCL_MODE` says.
    pub fn open() -> Result<Connection, ClientError> {
        let mode = std::env::var("GENCL_MODE").unwrap_or_default();
        match mode.as_str() {
            "embedded" => Self::embedded(),
            "service" => Self::connect(),
            "" | "auto" => Self::connect().or_else(|e| {
                tracing::debug!("no gencld ({e}); running the service in-process");
                Self::embedded()
            }),
            other => Err(ClientError::BadMode(other.into())),
        }
    }

    pub fn embedded() -> Result<Connection, ClientError> {
        let pending = Arc::new(Pending::default());
        let client = Client::new(Service::open()?, pending.sink())?;
        Self::handshake(
            Transport::Embedded(Box::new(Mutex::new(client))),
            pending,
            Mode::Embedded,
        )
    }

    /// Connect to the first of `socket_candidates()` that accepts.
    pub fn connect() -> Result<Connection, ClientError> {
        let mut last = None;
        for path in socket_candidates() {
            match Self::connect_to(&path) {
                Ok(c) => return Ok(c),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or(ClientError::Closed))
    }

    /// Connect to a given socket (tests, tools).
    pub fn connect_to(path: &std::path::Path) -> Result<Connection, ClientError> {
        let connect_err = |source| ClientError::Connect {
            path: path.display().to_string(),
            source,
        };
        let stream = UnixStream::connect(path).map_err(connect_err)?;
        let pending = Arc::new(Pending::default());
        let inbox = Arc::new(Inbox {
            stream: stream.try_clone().map_err(connect_err)?,
            frames: Mutex::new(FrameReader::keeping_fds()),
            turn: Mutex::new(Turn::default()),
            background: Condvar::new(),
            pending: pending.clone(),
            calls: Arc::new(Calls::new()),
        });
        let reader = inbox.clone();
        std::thread::Builder::new()
            .name("gencl-conn".into())
            .spawn(move || reader.background())
            .map_err(connect_err)?;
        Self::handshake(
            Transport::Socket {
                out: Mutex::new(stream),
                inbox,
            },
            pending,
            Mode::Service,
        )
    }

    fn handshake(
        t: Transport,
        pending: Arc<Pending>,
        mode: Mode,
    ) -> Result<Connection, ClientError> {
        let (r, _) = exchange(
            &t,
            Request::Hello {
                version: PROTOCOL_VERSION,
            },
        )?;
        match r {
            Response::Welcome { device, .. } => Ok(Connection {
                transport: t,
                pending,
                device,
                mode,
                socket: None,
            }),
            other => Err(unexpected(other)),
        }
    }

    /// One request, one response; a `Response::Error` becomes `ClientError::Service`.
    pub fn call(&self, req: Request) -> Result<(Response, Vec<OwnedFd>), ClientError> {
        let (r, fds) = exchange(&self.transport, req)?;
        match r {
            Response::Error { code, message } => Err(ClientError::Service { code, message }),
            r => Ok((r, fds)),
        }
    }

    /// Queue a kernel launch; `done` is called, on another thread, with its outcome once it
    /// has finished on the GPU. When it cannot be queued, the error is returned and `done`
    /// is dropped without being called.
    pub fn launch(
        &self,
        mut l: Launch,
        done: impl FnOnce(LaunchOutcome) + Send + 'static,
    ) -> Result<(), ClientError> {
        let tag = self.register(&mut l, Box::new(done))?;
        let forget = |e: ClientError| {
            self.forget(tag);
            Err(e)
        };
        match &self.transport {
            // Through gencld the launch is posted: its `Completed` (or its refusal, as a
            // `Completed` with the error) is read by the background thread or whichever
            // thread reads, and this thread goes on without a round trip.
            Transport::Socket { out, inbox } => {
                let call = Call {
                    id: NO_CALL,
                    request: Request::Post(Box::new(l)),
                };
                let sent = send_message(&out.lock(), &call, &[]);
                match sent {
                    Ok(()) => {
                        inbox.expect();
                        Ok(())
                    }
                    Err(e) => forget(e.into()),
                }
            }
            // In-process the answer is a call away: a refusal is returned at once.
            Transport::Embedded(_) => match exchange(&self.transport, Request::Launch(Box::new(l)))
            {
                Ok((Response::Queued { tag: q }, _)) if q == tag => Ok(()),
                Ok((other, _)) => forget(unexpected(other)),
                Err(e) => forget(e),
            },
        }
    }

    /// Queue a launch that the caller waits for next: as `launch`, except that embedded,
    /// when nothing of this client is being retired before it, this thread retires it
    /// itself, after letting go of the client (`Client::launch_waited`), and calls `done`
    /// before returning. On the emulated device it then runs the batch too: a blocking
    /// launch's round trip wakes no other thread.
    pub fn launch_waited(
        &self,
        mut l: Launch,
        done: impl FnOnce(LaunchOutcome) + Send + 'static,
    ) -> Result<(), ClientError> {
        let c = match &self.transport {
            Transport::Embedded(c) => c,
            // Through gencld the service may retire it on the thread that read it, and this
            // thread reads its `Completed` itself when nobody else reads (calling `done`).
            Transport::Socket { out, inbox } => {
                let tag = self.register(&mut l, Box::new(done))?;
                let call = Call {
                    id: NO_CALL,
                    request: Request::PostWaited(Box::new(l)),
                };
                if let Err(e) = send_message(&out.lock(), &call, &[]) {
                    self.forget(tag);
                    return Err(e.into());
                }
                if !inbox.read_until(|| !self.pending.waiting.lock().contains_key(&tag)) {
                    inbox.expect();
                }
                return Ok(());
            }
        };
        let tag = self.register(&mut l, Box::new(done))?;
        let held = c.lock().launch_waited(&l);
        match held {
            Ok(Some(h)) => {
                let result = h.retire();
                self.pending.complete(tag, result);
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(r) => {
                self.forget(tag);
                Err(unexpected(r.response))
            }
        }
    }

    /// Give `l` a tag and register `done` under it, before the launch goes out (its
    /// completion may come at once); a connection already closed fails it here.
    fn register(&self, l: &mut Launch, done: Done) -> Result<u64, ClientError> {
        let tag = self.pending.next_tag.fetch_add(1, Ordering::Relaxed);
        l.tag = tag;
        self.pending.waiting.lock().insert(tag, done);
        if self.pending.closed.load(Ordering::Acquire) {
            self.forget(tag);
            return Err(ClientError::Closed);
        }
        Ok(tag)
    }

    /// A launch that did not go out: its `done` is dropped unheard.
    fn forget(&self, tag: u64) {
        let d = self.pending.waiting.lock().remove(&tag);
        drop(d);
    }

    /// Queue a launch and wait until it has finished (tools and tests).
    pub fn launch_and_wait(&self, l: Launch) -> LaunchOutcome {
        let (tx, rx) = mpsc::channel();
        self.launch(l, move |r| {
            let _ = tx.send(r);
        })?;
        rx.recv().unwrap_or(Err(ClientError::Closed))
    }

    /// A new buffer object, mapped into this process.
    pub fn create_buffer(&self, size: u64) -> Result<SharedBuffer, ClientError> {
        let (r, mut fds) = self.call(Request::CreateBuffer { size })?;
        let Response::Buffer { id, size, gpu_addr } = r else {
            return Err(unexpected(r));
        };
        let Some(fd) = fds.pop() else {
            return Err(ClientError::Unexpected(
                "buffer answer without an fd".into(),
            ));
        };
        // SAFETY: a shared mapping of the object's fd; the service keeps the object alive until
        // FreeBuffer, which `SharedBuffer`'s owner sends only after dropping the mapping. Who
        // writes the pages when is ordered by the protocol (launches complete before replying).
        let map = unsafe { MmapOptions::new().len(size as usize).map_mut(&fd) }
            .map_err(|source| ClientError::Map { id, source })?;
        Ok(SharedBuffer {
            id,
            size,
            gpu_addr,
            map: Mutex::new(map),
        })
    }

    pub fn free_buffer(&self, id: BufferId) -> Result<(), ClientError> {
        self.call(Request::FreeBuffer { id }).map(|_| ())
    }

    /// The OpenCL context `context` (`Launch::context`) and its launches are gone.
    pub fn release_context(&self, context: u64) -> Result<(), ClientError> {
        self.call(Request::ReleaseContext { context }).map(|_| ())
    }
}

fn unexpected(r: Response) -> ClientError {
    match r {
        Response::Error { code, message } => ClientError::Service { code, message },
        r => ClientError::Unexpected(format!("{r:?}")),
    }
}

/// One request and its answer. Embedded, a build compiles without the client's lock;
/// through gencld, the call waits for the reply with its id alone.
fn exchange(t: &Transport, req: Request) -> Answer {
    match t {
        Transport::Embedded(c) => {
            let step = c.lock().begin(req);
            let reply = match step {
                Step::Reply(r) => r,
                Step::Work(w) => {
                    let done = w.run();
                    c.lock().finish(done)
                }
            };
            Ok((reply.response, reply.fds))
        }
        Transport::Socket { out, inbox } => {
            let calls = &inbox.calls;
            let id = calls.next_id.fetch_add(1, Ordering::Relaxed);
            let (tx, rx) = mpsc::sync_channel(1);
            calls.waiting.lock().insert(id, tx);
            // A connection closed before the call was registered fails it here.
            if calls.closed.load(Ordering::Acquire) {
                calls.waiting.lock().remove(&id);
                return Err(ClientError::Closed);
            }
            let sent = send_message(&out.lock(), &Call { id, request: req }, &[]);
            if let Err(e) = sent {
                calls.waiting.lock().remove(&id);
                return Err(e.into());
            }
            if !inbox.read_until(|| calls.answered(id)) {
                inbox.expect();
            }
            rx.recv().unwrap_or(Err(ClientError::Closed))
        }
    }
}

/// The reading side of a connection to gencld (see the module's comment).
struct Inbox {
    stream: UnixStream,
    /// Used by the thread whose `Turn::reading` it is.
    frames: Mutex<FrameReader>,
    turn: Mutex<Turn>,
    /// The background thread sleeps here while nothing is expected or another thread reads.
    background: Condvar,
    pending: Arc<Pending>,
    calls: Arc<Calls>,
}

#[derive(Default)]
struct Turn {
    /// A thread reads the socket.
    reading: bool,
    /// The background thread sleeps on `Inbox::background`.
    asleep: bool,
    /// The connection has ended: nothing more is read.
    ended: bool,
}

/// How long a thread reading for its own answer polls the socket before it sleeps in the
/// read (`protocol::poll`: an answer that comes within it costs no wake-up of this thread).
const POLL_FOR: Duration = Duration::from_micros(50);

/// Whether polling pays now, for every connection of this process.
static POLLING: Polling = Polling::new();

impl Inbox {
    /// Answers are expected that no waiting thread reads for: the background thread reads
    /// if nobody does.
    fn expect(&self) {
        let t = self.turn.lock();
        if t.asleep && !t.reading && !t.ended {
            self.background.notify_one();
        }
    }

    /// Something sent has not been answered yet.
    fn expecting(&self) -> bool {
        !self.pending.waiting.lock().is_empty() || !self.calls.waiting.lock().is_empty()
    }

    /// Read, handing over what comes, until `done()` (checked after each message) or the
    /// connection ends, if no other thread reads; false if another does (it hands this
    /// thread's answer over). Polls for `POLL_FOR` before it sleeps in the read.
    fn read_until(&self, done: impl Fn() -> bool) -> bool {
        {
            let mut t = self.turn.lock();
            if t.reading || t.ended {
                return false;
            }
            t.reading = true;
        }
        self.read(done, POLL_FOR);
        self.step_down();
        true
    }

    /// The background thread: reads while answers are expected and no other thread reads.
    fn background(&self) {
        loop {
            {
                let mut t = self.turn.lock();
                loop {
                    if t.ended {
                        return;
                    }
                    if !t.reading && self.expecting() {
                        t.reading = true;
                        break;
                    }
                    t.asleep = true;
                    self.background.wait(&mut t);
                    t.asleep = false;
                }
            }
            self.read(|| !self.expecting(), Duration::ZERO);
            self.step_down();
        }
    }

    /// This thread stops reading; the background thread takes over if answers are still
    /// expected.
    fn step_down(&self) {
        let mut t = self.turn.lock();
        t.reading = false;
        if t.asleep && !t.ended && self.expecting() {
            self.background.notify_one();
        }
    }

    /// Messages read and handed over until `done()`, the first `poll` of it without
    /// sleeping in the read (where polling pays: `Polling`).
    fn read(&self, done: impl Fn() -> bool, poll: Duration) {
        let mut frames = self.frames.lock();
        let start = Instant::now();
        while !done() {
            let left = poll.saturating_sub(start.elapsed());
            let polled = if left.is_zero() {
                None
            } else {
                POLLING.next(&mut frames, &self.stream, left)
            };
            let next = polled.unwrap_or_else(|| {
                frames
                    .next(&self.stream)
                    .map(|b| b.map_or(Next::Closed, Next::Frame))
            });
            let why = match next {
                Ok(Next::Frame(body)) => match self.deliver(&body, &mut frames) {
                    Ok(()) => continue,
                    Err(e) => Some(e.to_string()),
                },
                // A poll gives back a frame, the end or an error, never `Later`.
                Ok(Next::Later) => continue,
                Ok(Next::Closed) => None,
                Err(e) => Some(e.to_string()),
            };
            drop(frames);
            self.end(why);
            return;
        }
    }

    /// One message from gencld: `Completed` goes to its launch, any other to the call with
    /// its id.
    fn deliver(&self, body: &[u8], frames: &mut FrameReader) -> Result<(), FrameError> {
        let reply: Reply = postcard::from_bytes(body).map_err(FrameError::Decode)?;
        match reply {
            Reply {
                response: Response::Completed { tag, result },
                ..
            } => self.pending.complete(tag, result),
            Reply {
                id: NO_CALL,
                response,
            } => {
                tracing::warn!("a message from the service that answers no call: {response:?}");
            }
            Reply { id, response } => {
                // Only a buffer's reply carries an fd (its pages).
                let fds = match response {
                    Response::Buffer { .. } => frames.take_fd().into_iter().collect(),
                    _ => Vec::new(),
                };
                self.calls.answer(id, Ok((response, fds)))
            }
        }
        Ok(())
    }

    /// The connection ended (`why`: not cleanly): the calls and launches still waiting fail.
    fn end(&self, why: Option<String>) {
        if let Some(e) = &why {
            tracing::warn!("connection to gencld: {e}");
        }
        {
            let mut t = self.turn.lock();
            t.ended = true;
            self.background.notify_one();
        }
        self.calls.close(|| match &why {
            Some(e) => ClientError::Unexpected(e.clone()),
            None => ClientError::Closed,
        });
        self.pending.close();
    }
}

impl Drop for Connection {
    /// Ends the connection: a thread reading sees the end of the stream and ends it; if
    /// none reads, it ends here (what still waits fails, the background thread returns).
    fn drop(&mut self) {
        if let Transport::Socket { out, inbox } = &self.transport {
            let _ = out.lock().shutdown(std::net::Shutdown::Both);
            let reading = inbox.turn.lock().reading;
            if !reading {
                inbox.end(None);
            }
        }
    }
}

/// A buffer object's pages, shared with the service.
pub struct SharedBuffer {
    pub id: BufferId,
    pub size: u64,
    pub gpu_addr: u64,
    pub map: Mutex<MmapMut>,
}
