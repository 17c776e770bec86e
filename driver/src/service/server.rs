//! The socket server: accept connections, one thread and one `Client` per connection.
//!
//! A frame that does not decode gets `ErrorCode::Malformed` under its call's id (or
//! `NO_CALL` if even the id is unreadable) and the connection goes on (the length prefix
//! keeps frames apart); a frame that is too large, truncated, or a socket error
//! ends that connection only. A panic in a client's handler is caught and ends that connection.

use parking_lot::Mutex;
use std::os::fd::{AsFd, FromRawFd, RawFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::handler::{Step, Work};
use super::retire::Sink;
use super::{Client, Service, ServiceError};
use crate::protocol::{
    decode_call, send_message, send_messages, ErrorCode, FrameError, FrameReader, Next, Polling,
    Reply, Request, Response, NO_CALL,
};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system-wide socket (systemd's gencld.socket).
pub const SYSTEM_SOCKET: &str = "/run/gencl/gencld.sock";

/// Where gencld listens: `$GENCL_SOCKET`, else `$XDG_RUNTIME_DIR/gencl/gencld.sock` (a per-user
/// service), else `/run/gencl/gencld.sock`.
pub fn socket_path() -> PathBuf {
    socket_candidates().swap_remove(0)
}

/// Where the ICD looks, in order: `$GENCL_SOCKET` only, if set; else the per-user socket, then
/// the system one.
pub fn socket_candidates() -> Vec<PathBuf> {
    if let Some(p) = std::env::var_os("GENCL_SOCKET").filter(|p| !p.is_empty()) {
        return vec![PathBuf::from(p)];
    }
    let mut v = Vec::new();
    if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").filter(|p| !p.is_empty()) {
        v.push(Path::new(&d).join("gencl/gencld.sock"));
    }
    v.push(PathBuf::from(SYSTEM_SOCKET));
    v
}

/// The listening socket systemd passed (socket activation: `LISTEN_PID` is us, `LISTEN_FDS` ≥ 1,
/// the first passed fd is 3), if any.
pub fn activated_listener() -> Option<UnixListener> {
    const SD_LISTEN_FDS_START: RawFd = 3;
    let pid: u32 = std::env::var("LISTEN_PID").ok()?.parse().ok()?;
    let n: u32 = std::env::var("LISTEN_FDS").ok()?.parse().ok()?;
    if pid != std::process::id() || n < 1 {
        return None;
    }
    // SAFETY: systemd hands us fd 3 as an open listening socket and nothing else in this process
    // owns it; we take it once (the variables are cleared so children do not).
    let l = unsafe { UnixListener::from_raw_fd(SD_LISTEN_FDS_START) };
    // SAFETY: single-threaded at this point of start-up (called before any thread is spawned).
    unsafe {
        std::env::remove_var("LISTEN_PID");
        std::env::remove_var("LISTEN_FDS");
    }
    Some(l)
}

/// Bind `path`, creating its directory (mode 0700 for a per-user runtime dir) and replacing a
/// stale socket file.
pub fn bind(path: &Path) -> Result<UnixListener, ServiceError> {
    let err = |source| ServiceError::Socket {
        path: path.display().to_string(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    if UnixStream::connect(path).is_ok() {
        return Err(err(std::io::Error::new(
            std::io::ErrorKind::AddrInUse,
            "another gencld is listening there",
        )));
    }
    let _ = std::fs::remove_file(path);
    UnixListener::bind(path).map_err(err)
}

/// Accept forever.
pub fn serve(listener: UnixListener, svc: Arc<Service>) -> Result<(), ServiceError> {
    for conn in listener.incoming() {
        match conn {
            Ok(stream) => {
                let svc = svc.clone();
                let spawned = std::thread::Builder::new()
                    .name("gencld-client".into())
                    .spawn(move || serve_client(stream, svc));
                if let Err(e) = spawned {
                    tracing::error!("cannot start a client thread: {e}");
                }
            }
            Err(e) => tracing::warn!("accept: {e}"),
        }
    }
    Ok(())
}

/// Builds of one connection running beside its other requests at once; a build asked for
/// beyond that runs on the connection's thread (the client waits, and cannot make the
/// service start threads without bound).
const BUILDS_IN_FLIGHT: usize = 4;

/// The socket, shared by the connection's thread, its builds and its retiring thread: one
/// whole frame at a time.
#[derive(Clone)]
struct Out {
    stream: Arc<Mutex<UnixStream>>,
    peer: Option<i32>,
}

impl Out {
    fn send(&self, id: u64, r: super::Reply) -> Result<(), FrameError> {
        let fds: Vec<_> = r.fds.iter().map(|f| f.as_fd()).collect();
        let reply = Reply {
            id,
            response: r.response,
        };
        send_message(&self.stream.lock(), &reply, &fds)
    }

    /// Messages of no call (`Completed`s), in one write.
    fn send_many(&self, rs: Vec<Response>) -> Result<(), FrameError> {
        let replies: Vec<Reply> = rs
            .into_iter()
            .map(|response| Reply {
                id: NO_CALL,
                response,
            })
            .collect();
        send_messages(&self.stream.lock(), &replies)
    }
}

/// Run one connection to its end. Requests are taken in order on this thread; a build's
/// compiling runs on a thread of its own (up to `BUILDS_IN_FLIGHT`), so that the client's
/// launches and other requests go on meanwhile, and its reply comes when it is done, under
/// its call's id.
pub fn serve_client(stream: UnixStream, svc: Arc<Service>) {
    let peer = peer_pid(&stream);
    tracing::info!(?peer, "client connected");
    let out = match stream.try_clone() {
        Ok(s) => Out {
            stream: Arc::new(Mutex::new(s)),
            peer,
        },
        Err(e) => {
            tracing::error!(?peer, "cannot share the socket: {e}");
            return;
        }
    };
    let sink: Sink = {
        let out = out.clone();
        Arc::new(move |rs: Vec<Response>| {
            if let Err(e) = out.send_many(rs) {
                tracing::debug!(?peer, "completion not delivered: {e}");
            }
        })
    };
    let client = match Client::new(svc, sink) {
        Ok(c) => {
            c.set_peer(peer);
            Arc::new(Mutex::new(c))
        }
        Err(e) => {
            tracing::error!(?peer, "cannot set up client: {e}");
            let r = Response::Error {
                code: ErrorCode::OutOfResources,
                message: e.to_string(),
            };
            let _ = out.send(NO_CALL, r.into());
            return;
        }
    };
    let builds = Arc::new(AtomicUsize::new(0));
    // No request carries fds; any sent are closed.
    let mut frames = FrameReader::default();
    // The client just had a waited launch retired here: its next request likely follows.
    let mut latency_bound = false;
    loop {
        let body = match next_request(&mut frames, &stream, latency_bound) {
            Ok(Some(b)) => b,
            Ok(None) => break,
            Err(e) => {
                tracing::warn!(?peer, "dropping connection: {e}");
                break;
            }
        };
        latency_bound = false;
        let (id, req) = decode_call(&body);
        let req = match req {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(?peer, "malformed request: {e}");
                let r = Response::Error {
                    code: ErrorCode::Malformed,
                    message: e.to_string(),
                };
                if out.send(id, r.into()).is_err() {
                    break;
                }
                continue;
            }
        };
        let step = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match req {
            // Its client blocks until it has finished: retired here (`Client::post_waited`
            // decides), with no other thread of the service woken, unless another of the
            // client's requests is waiting (it would wait for the kernel).
            Request::PostWaited(l) if !frames.buffered() && !readable(&stream) => {
                let held = client.lock().post_waited(&l);
                match held {
                    Ok(Some(h)) => {
                        latency_bound = true;
                        Some(Step::Reply(
                            Response::Completed {
                                tag: l.tag,
                                result: h.retire(),
                            }
                            .into(),
                        ))
                    }
                    Ok(None) => None,
                    Err(r) => Some(Step::Reply(*r)),
                }
            }
            // Queued: nothing to answer (the client did not wait).
            Request::Post(l) | Request::PostWaited(l) => client.lock().post(&l).map(Step::Reply),
            req => Some(client.lock().begin(req)),
        }));
        let reply = match step {
            Ok(None) => continue,
            Ok(Some(Step::Reply(r))) => r,
            Ok(Some(Step::Work(w))) => match build_beside(w, id, &client, &out, &builds) {
                Ok(()) => continue,
                Err(w) => match finish(w, &client) {
                    Some(r) => r,
                    None => break,
                },
            },
            Err(_) => {
                tracing::error!(?peer, "handler panicked; closing this connection");
                break;
            }
        };
        if let Err(e) = out.send(id, reply) {
            tracing::warn!(?peer, "reply failed: {e}");
            break;
        }
    }
    tracing::info!(?peer, "client disconnected");
    // `client` drops when its last build has answered: its launches in flight finish, then
    // all its buffers and programs are freed.
}

/// Run a build's work on a thread of its own and reply from there; the work back when the
/// connection already has `BUILDS_IN_FLIGHT` builds running (or no thread can be started).
fn build_beside(
    w: Work,
    id: u64,
    client: &Arc<Mutex<Client>>,
    out: &Out,
    builds: &Arc<AtomicUsize>,
) -> Result<(), Work> {
    if builds.fetch_add(1, Ordering::AcqRel) >= BUILDS_IN_FLIGHT {
        builds.fetch_sub(1, Ordering::AcqRel);
        return Err(w);
    }
    let slot = Arc::new(Mutex::new(Some(w)));
    let (client, out, count, taken) = (client.clone(), out.clone(), builds.clone(), slot.clone());
    let spawned = std::thread::Builder::new()
        .name("gencl-build".into())
        .spawn(move || {
            let Some(w) = taken.lock().take() else {
                return;
            };
            let reply = finish(w, &client).unwrap_or_else(|| {
                Response::Error {
                    code: ErrorCode::OutOfResources,
                    message: "internal error: the build's handler panicked".into(),
                }
                .into()
            });
            count.fetch_sub(1, Ordering::AcqRel);
            if let Err(e) = out.send(id, reply) {
                tracing::debug!(peer = ?out.peer, "build reply not delivered: {e}");
            }
        });
    match spawned {
        Ok(_) => Ok(()),
        Err(e) => {
            tracing::warn!("no thread for a build ({e}); building on the connection's");
            builds.fetch_sub(1, Ordering::AcqRel);
            // The thread never ran: the work is still in its slot.
            slot.lock().take().map_or(Ok(()), Err)
        }
    }
}

/// A build's work run, then its result kept by the client (`None`: a panic, contained).
fn finish(w: Work, client: &Mutex<Client>) -> Option<super::Reply> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let done = w.run();
        client.lock().finish(done)
    }))
    .ok()
}

/// How long a connection's thread polls its socket, after it retired a waited launch, before
/// it sleeps in the read (`protocol::poll`): a client that waits for one launch at a time
/// sends the next soon, and a thread that did not sleep costs no wake-up. The client's side
/// polls the same way for its answers.
const POLL_FOR: std::time::Duration = std::time::Duration::from_micros(50);

/// Connection threads polling now: one at a time, so that polling never takes more than one
/// of the machine's cores from the service's other work, however many clients it serves.
static POLLERS: AtomicUsize = AtomicUsize::new(0);

/// Whether polling pays now, for every connection of this gencld.
static POLLING: Polling = Polling::new();

/// The client's next request: after a waited launch (`poll`), read without sleeping for up
/// to `POLL_FOR` if no other connection's thread polls and polling pays, then as usual.
fn next_request(
    frames: &mut FrameReader,
    stream: &UnixStream,
    poll: bool,
) -> Result<Option<Vec<u8>>, FrameError> {
    if poll {
        let polled = (POLLERS.fetch_add(1, Ordering::AcqRel) == 0)
            .then(|| POLLING.next(frames, stream, POLL_FOR))
            .flatten();
        POLLERS.fetch_sub(1, Ordering::AcqRel);
        match polled {
            Some(Ok(Next::Frame(b))) => return Ok(Some(b)),
            Some(Ok(Next::Closed)) => return Ok(None),
            Some(Err(e)) => return Err(e),
            Some(Ok(Next::Later)) | None => {}
        }
    }
    frames.next(stream)
}

/// Bytes wait on the socket (a request the client sent since).
fn readable(stream: &UnixStream) -> bool {
    use nix::sys::socket::{recv, MsgFlags};
    use std::os::fd::AsRawFd;
    let mut b = [0u8; 1];
    matches!(
        recv(
            stream.as_raw_fd(),
            &mut b,
            MsgFlags::MSG_PEEK | MsgFlags::MSG_DONTWAIT
        ),
        Ok(n) if n > 0
    )
}

fn peer_pid(stream: &UnixStream) -> Option<i32> {
    nix::sys::socket::getsockopt(stream, nix::sys::socket::sockopt::PeerCredentials)
        .ok()
        .map(|c| c.pid())
}
