//! The ICD's side of the protocol: a connection to `gencld`, or the same service core running
//! in-process (embedded). Both send the same `Request` values to the same handler.
//!
//! `GENCL_MODE`: `service` (connect or fail), `embedded` (never connect), `auto` (default:
//! connect to gencld if something listens at `socket_candidates()`, else embedded).

use memmap2::{MmapMut, MmapOptions};
use parking_lot::Mutex;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use thiserror::Error;

use crate::protocol::{
    recv_message, send_message, BufferId, DeviceDesc, ErrorCode, FrameError, Request, Response,
    PROTOCOL_VERSION,
};
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

enum Transport {
    Embedded(Box<Client>),
    Socket(UnixStream),
}

/// One connection (one client state in the service, one GPU VM).
pub struct Connection {
    transport: Mutex<Transport>,
    pub device: DeviceDesc,
    pub mode: Mode,
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
        let client = Client::new(Service::open()?)?;
        Self::handshake(Transport::Embedded(Box::new(client)), Mode::Embedded)
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
        let s = UnixStream::connect(path).map_err(|source| ClientError::Connect {
            path: path.display().to_string(),
            source,
        })?;
        Self::handshake(Transport::Socket(s), Mode::Service)
    }

    fn handshake(t: Transport, mode: Mode) -> Result<Connection, ClientError> {
        let mut t = t;
        let (r, _) = exchange(
            &mut t,
            Request::Hello {
                version: PROTOCOL_VERSION,
            },
        )?;
        match r {
            Response::Welcome { device, .. } => Ok(Connection {
                transport: Mutex::new(t),
                device,
                mode,
            }),
            other => Err(unexpected(other)),
        }
    }

    /// One request, one response; a `Response::Error` becomes `ClientError::Service`.
    pub fn call(&self, req: Request) -> Result<(Response, Vec<OwnedFd>), ClientError> {
        let (r, fds) = exchange(&mut self.transport.lock(), req)?;
        match r {
            Response::Error { code, message } => Err(ClientError::Service { code, message }),
            r => Ok((r, fds)),
        }
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
}

fn unexpected(r: Response) -> ClientError {
    match r {
        Response::Error { code, message } => ClientError::Service { code, message },
        r => ClientError::Unexpected(format!("{r:?}")),
    }
}

fn exchange(t: &mut Transport, req: Request) -> Result<(Response, Vec<OwnedFd>), ClientError> {
    match t {
        Transport::Embedded(c) => {
            let reply = c.handle(req);
            Ok((reply.response, reply.fds))
        }
        Transport::Socket(s) => {
            send_message(s, &req, &[])?;
            recv_message::<Response>(s)?.ok_or(ClientError::Closed)
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
