//! The ICD's side of the protocol: a connection to `gencld`, or the same service core running
//! in-process (embedded). Both send the same `Request` values to the same handler.
//!
//! `GENCL_MODE`: `service` (connect or fail), `embedded` (never connect), `auto` (default:
//! connect to gencld if something listens at `socket_candidates()`, else embedded).
//!
//! Launches are asynchronous: `launch` returns once the service has queued the kernel, and
//! the service's `Completed` message (read by this connection's reader thread, or handed
//! over by the embedded service's retiring thread) calls the launch's `done`.
//!
//! No lock is held across a round trip: through gencld each call has an id and waits for
//! the reply with that id alone (the reader thread hands it over), so the application's
//! threads have requests in flight at once; embedded, the client's state is locked only
//! while a request is answered, and a build compiles without it.

use memmap2::{MmapMut, MmapOptions};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use thiserror::Error;

use crate::protocol::{
    send_message, BufferId, Call, DeviceDesc, ErrorCode, FrameError, FrameReader, Launch, Launched,
    Reply, Request, Response, NO_CALL, PROTOCOL_VERSION,
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
    /// Calls go out on `out`, one whole frame at a time; the reader thread hands each reply to
    /// the call waiting for its id (`calls`).
    Socket {
        out: Mutex<UnixStream>,
        calls: Arc<Calls>,
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
        Arc::new(move |r| match r {
            Response::Completed { tag, result } => pending.complete(tag, result),
            other => tracing::warn!("unexpected message from the service: {other:?}"),
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
        let incoming = stream.try_clone().map_err(connect_err)?;
        let pending = Arc::new(Pending::default());
        let calls = Arc::new(Calls::new());
        let (p, c) = (pending.clone(), calls.clone());
        std::thread::Builder::new()
            .name("gencl-conn".into())
            .spawn(move || read_messages(&incoming, &p, &c))
            .map_err(connect_err)?;
        Self::handshake(
            Transport::Socket {
                out: Mutex::new(stream),
                calls,
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
            // `Completed` with the error) comes to the reader thread, and this thread goes on
            // without a round trip.
            Transport::Socket { out, .. } => {
                let call = Call {
                    id: NO_CALL,
                    request: Request::Post(Box::new(l)),
                };
                let sent = send_message(&out.lock(), &call, &[]);
                match sent {
                    Ok(()) => Ok(()),
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
            // Through gencld the service may retire it on the thread that read it.
            Transport::Socket { out, .. } => {
                let tag = self.register(&mut l, Box::new(done))?;
                let call = Call {
                    id: NO_CALL,
                    request: Request::PostWaited(Box::new(l)),
                };
                return send_message(&out.lock(), &call, &[]).map_err(|e| {
                    self.forget(tag);
                    e.into()
                });
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
        Transport::Socket { out, calls } => {
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
            rx.recv().unwrap_or(Err(ClientError::Closed))
        }
    }
}

/// The reader thread of a socket connection: `Completed` messages go to their launches, every
/// other message to the call with its id. When the connection ends, the calls and launches
/// still waiting fail.
fn read_messages(stream: &UnixStream, pending: &Pending, calls: &Calls) {
    let mut frames = FrameReader::keeping_fds();
    let why = loop {
        let body = match frames.next(stream) {
            Ok(Some(b)) => b,
            Ok(None) => break None,
            Err(e) => break Some(e.to_string()),
        };
        let reply: Reply = match postcard::from_bytes(&body) {
            Ok(r) => r,
            Err(e) => break Some(FrameError::Decode(e).to_string()),
        };
        match reply {
            Reply {
                response: Response::Completed { tag, result },
                ..
            } => pending.complete(tag, result),
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
                calls.answer(id, Ok((response, fds)))
            }
        }
    };
    if let Some(e) = &why {
        tracing::warn!("connection to gencld: {e}");
    }
    calls.close(|| match &why {
        Some(e) => ClientError::Unexpected(e.clone()),
        None => ClientError::Closed,
    });
    pending.close();
}

impl Drop for Connection {
    /// Ends the reader thread (its read sees the end of the stream).
    fn drop(&mut self) {
        if let Transport::Socket { out, .. } = &self.transport {
            let _ = out.lock().shutdown(std::net::Shutdown::Both);
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
