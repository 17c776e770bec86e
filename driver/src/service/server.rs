//! The socket server: accept connections, one thread and one `Client` per connection.
//!
//! A frame that does not decode gets `ErrorCode::Malformed` and the connection goes on (the
//! length prefix keeps frames apart); a frame that is too large, truncated, or a socket error
//! ends that connection only. A panic in a client's handler is caught and ends that connection.

use parking_lot::Mutex;
use std::os::fd::{AsFd, BorrowedFd, FromRawFd, RawFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::retire::Sink;
use super::{Client, Service, ServiceError};
use crate::protocol::{recv_message, send_message, ErrorCode, FrameError, Request, Response};

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

/// Run one connection to its end. Answers and `Completed` messages (sent by the client's
/// retiring thread) share the socket, one whole frame at a time.
pub fn serve_client(stream: UnixStream, svc: Arc<Service>) {
    let peer = peer_pid(&stream);
    tracing::info!(?peer, "client connected");
    let out = match stream.try_clone() {
        Ok(s) => Arc::new(Mutex::new(s)),
        Err(e) => {
            tracing::error!(?peer, "cannot share the socket: {e}");
            return;
        }
    };
    let send = {
        let out = out.clone();
        move |r: &Response, fds: &[BorrowedFd<'_>]| send_message(&out.lock(), r, fds)
    };
    let sink: Sink = {
        let out = out.clone();
        Arc::new(move |r: Response| {
            if let Err(e) = send_message(&out.lock(), &r, &[]) {
                tracing::debug!(?peer, "completion not delivered: {e}");
            }
        })
    };
    let mut client = match Client::new(svc, sink) {
        Ok(c) => {
            c.set_peer(peer);
            c
        }
        Err(e) => {
            tracing::error!(?peer, "cannot set up client: {e}");
            let _ = send(
                &Response::Error {
                    code: ErrorCode::OutOfResources,
                    message: e.to_string(),
                },
                &[],
            );
            return;
        }
    };
    loop {
        let (req, fds) = match recv_message::<Request>(&stream) {
            Ok(Some(m)) => m,
            Ok(None) => break,
            Err(FrameError::Decode(e)) => {
                tracing::warn!(?peer, "malformed request: {e}");
                let r = Response::Error {
                    code: ErrorCode::Malformed,
                    message: e.to_string(),
                };
                if send(&r, &[]).is_err() {
                    break;
                }
                continue;
            }
            Err(e) => {
                tracing::warn!(?peer, "dropping connection: {e}");
                break;
            }
        };
        drop(fds); // no request carries fds; any sent are closed.
        let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match req {
            // Queued: nothing to answer (the client did not wait).
            Request::Post(l) => client.post(&l),
            req => Some(client.handle(req)),
        }));
        let reply = match handled {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(_) => {
                tracing::error!(?peer, "handler panicked; closing this connection");
                break;
            }
        };
        let fds: Vec<_> = reply.fds.iter().map(|f| f.as_fd()).collect();
        if let Err(e) = send(&reply.response, &fds) {
            tracing::warn!(?peer, "reply failed: {e}");
            break;
        }
    }
    tracing::info!(?peer, "client disconnected");
    // `client` drops here: its launches in flight finish, then all its buffers and programs
    // are freed.
}

fn peer_pid(stream: &UnixStream) -> Option<i32> {
    nix::sys::socket::getsockopt(stream, nix::sys::socket::sockopt::PeerCredentials)
        .ok()
        .map(|c| c.pid())
}
