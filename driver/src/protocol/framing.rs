//! Frames on a Unix stream socket: `len: u32 (LE)` then `len` bytes of postcard. File descriptors
//! are attached (SCM_RIGHTS) to the `sendmsg` that carries the frame's first byte, so the receiver
//! gets them with the length prefix.

use serde::{de::DeserializeOwned, Serialize};
use std::io::{IoSlice, IoSliceMut, Read};
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use thiserror::Error;

use nix::sys::socket::{recvmsg, sendmsg, ControlMessage, ControlMessageOwned, MsgFlags};

/// Largest frame either side accepts (a big SPIR-V module fits; a hostile length does not).
pub const MAX_MESSAGE_BYTES: u32 = 64 << 20;
/// Most fds one message may carry.
pub const MAX_FDS: usize = 4;

#[derive(Debug, Error)]
pub enum FrameError {
    #[error("socket i/o: {0}")]
    Io(#[from] std::io::Error),
    #[error("socket call {call} failed: {errno}")]
    Sys {
        call: &'static str,
        errno: nix::errno::Errno,
    },
    #[error("frame of {0} bytes exceeds the limit of {MAX_MESSAGE_BYTES}")]
    TooLarge(u64),
    #[error("message does not decode: {0}")]
    Decode(postcard::Error),
    #[error("message does not encode: {0}")]
    Encode(postcard::Error),
    #[error("peer closed the connection inside a frame")]
    Truncated,
}

/// Send one message with `fds` attached.
pub fn send_message<T: Serialize>(
    sock: &UnixStream,
    msg: &T,
    fds: &[BorrowedFd<'_>],
) -> Result<(), FrameError> {
    let body = postcard::to_stdvec(msg).map_err(FrameError::Encode)?;
    if body.len() as u64 > MAX_MESSAGE_BYTES as u64 {
        return Err(FrameError::TooLarge(body.len() as u64));
    }
    let mut frame = Vec::with_capacity(4 + body.len());
    frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
    frame.extend_from_slice(&body);
    let raw: Vec<RawFd> = fds.iter().map(|f| f.as_raw_fd()).collect();
    let mut sent = 0;
    while sent < frame.len() {
        let cmsg = [ControlMessage::ScmRights(&raw)];
        // fds go with the first chunk only.
        let cmsgs: &[ControlMessage] = if sent == 0 && !raw.is_empty() {
            &cmsg
        } else {
            &[]
        };
        let n = sendmsg::<()>(
            sock.as_raw_fd(),
            &[IoSlice::new(&frame[sent..])],
            cmsgs,
            MsgFlags::MSG_NOSIGNAL,
            None,
        );
        match n {
            Ok(n) => sent += n,
            Err(nix::errno::Errno::EINTR) => continue,
            Err(errno) => {
                return Err(FrameError::Sys {
                    call: "sendmsg",
                    errno,
                })
            }
        }
    }
    Ok(())
}

/// Receive one message and the fds that came with it. `Ok(None)`: the peer closed cleanly
/// between frames.
pub fn recv_message<T: DeserializeOwned>(
    sock: &UnixStream,
) -> Result<Option<(T, Vec<OwnedFd>)>, FrameError> {
    match recv_frame(sock)? {
        Some((body, fds)) => {
            let msg = postcard::from_bytes(&body).map_err(FrameError::Decode)?;
            Ok(Some((msg, fds)))
        }
        None => Ok(None),
    }
}

/// A frame's bytes and the fds that came with it.
pub type Frame = (Vec<u8>, Vec<OwnedFd>);

/// Receive one frame's bytes and the fds that came with it, undecoded. `Ok(None)`: the peer
/// closed cleanly between frames.
pub fn recv_frame(sock: &UnixStream) -> Result<Option<Frame>, FrameError> {
    let mut header = [0u8; 4];
    let mut got = 0;
    let mut fds = Vec::new();
    while got < 4 {
        let mut cmsg_buf = nix::cmsg_space!([RawFd; MAX_FDS]);
        let mut iov = [IoSliceMut::new(&mut header[got..])];
        let r = recvmsg::<()>(
            sock.as_raw_fd(),
            &mut iov,
            Some(&mut cmsg_buf),
            MsgFlags::MSG_CMSG_CLOEXEC,
        );
        let msg = match r {
            Ok(m) => m,
            Err(nix::errno::Errno::EINTR) => continue,
            Err(errno) => {
                return Err(FrameError::Sys {
                    call: "recvmsg",
                    errno,
                })
            }
        };
        let n = msg.bytes;
        if let Ok(cmsgs) = msg.cmsgs() {
            for c in cmsgs {
                if let ControlMessageOwned::ScmRights(raw) = c {
                    for fd in raw {
                        // SAFETY: the kernel just installed this fd in our table for us; nothing
                        // else owns it.
                        fds.push(unsafe { OwnedFd::from_raw_fd(fd) });
                    }
                }
            }
        }
        if n == 0 {
            return if got == 0 {
                Ok(None)
            } else {
                Err(FrameError::Truncated)
            };
        }
        got += n;
    }
    let len = u32::from_le_bytes(header);
    if len > MAX_MESSAGE_BYTES {
        return Err(FrameError::TooLarge(len as u64));
    }
    let mut body = vec![0u8; len as usize];
    let mut r = sock;
    r.read_exact(&mut body).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            FrameError::Truncated
        } else {
            FrameError::Io(e)
        }
    })?;
    Ok(Some((body, fds)))
}
