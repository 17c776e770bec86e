//! Frames on a Unix stream socket: `len: u32 (LE)` then `len` bytes of postcard. File descriptors
//! are attached (SCM_RIGHTS) to the `sendmsg` that carries the frame's first byte, so the receiver
//! gets them with the length prefix.

use serde::Serialize;
use std::io::{IoSlice, IoSliceMut};
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
    send_frames(sock, std::slice::from_ref(msg), fds)
}

/// `msgs` as one frame each, written together (one `sendmsg` where the socket takes them
/// all: the reader gets them in one read, with one wake-up); `fds` go with the first.
pub fn send_messages<T: Serialize>(sock: &UnixStream, msgs: &[T]) -> Result<(), FrameError> {
    send_frames(sock, msgs, &[])
}

fn send_frames<T: Serialize>(
    sock: &UnixStream,
    msgs: &[T],
    fds: &[BorrowedFd<'_>],
) -> Result<(), FrameError> {
    let mut frame = Vec::new();
    for msg in msgs {
        let body = postcard::to_stdvec(msg).map_err(FrameError::Encode)?;
        if body.len() as u64 > MAX_MESSAGE_BYTES as u64 {
            return Err(FrameError::TooLarge(body.len() as u64));
        }
        frame.reserve(4 + body.len());
        frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
        frame.extend_from_slice(&body);
    }
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

/// Frames read from a socket in chunks: one `recvmsg` takes as many frames as the socket
/// holds (reading the length and then the body took two system calls a frame).
///
/// Fds: the service's reader (`FrameReader::default`) closes any that come (no request
/// carries one). The ICD's (`keeping_fds`) queues them in the order they came, and the
/// frame that carries fds takes them from the queue (`take_fd`) when it is decoded: the
/// kernel delivers an fd with the first byte of the frame it was sent with, so by the time a
/// frame is whole its fds are queued, behind those of the frames before it.
pub struct FrameReader {
    buf: Vec<u8>,
    /// The bytes read and not yet handed out.
    start: usize,
    end: usize,
    /// Fds received, oldest first, when kept.
    fds: Option<std::collections::VecDeque<OwnedFd>>,
    /// `recvmsg`'s room for the fds of one message, kept (a poll reads many times).
    cmsg: Vec<u8>,
}

/// What a read found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// A whole frame's body.
    Frame(Vec<u8>),
    /// The peer closed cleanly between frames.
    Closed,
    /// No whole frame yet (a read that does not wait).
    Later,
}

/// Bytes a read asks for at least.
const CHUNK: usize = 64 << 10;

impl Default for FrameReader {
    fn default() -> Self {
        FrameReader {
            buf: vec![0; CHUNK],
            start: 0,
            end: 0,
            fds: None,
            cmsg: nix::cmsg_space!([RawFd; MAX_FDS]),
        }
    }
}

impl FrameReader {
    /// A reader that keeps the fds it receives for `take_fd`.
    pub fn keeping_fds() -> FrameReader {
        FrameReader {
            fds: Some(Default::default()),
            ..Default::default()
        }
    }

    /// The oldest fd received and not yet taken.
    pub fn take_fd(&mut self) -> Option<OwnedFd> {
        self.fds.as_mut()?.pop_front()
    }

    /// Bytes of a frame not yet handed out are read already.
    pub fn buffered(&self) -> bool {
        self.end > self.start
    }

    /// The next frame's bytes; `Ok(None)`: the peer closed cleanly between frames.
    pub fn next(&mut self, sock: &UnixStream) -> Result<Option<Vec<u8>>, FrameError> {
        match self.read(sock, true)? {
            Next::Frame(body) => Ok(Some(body)),
            Next::Closed => Ok(None),
            // A blocking read returns bytes or the end.
            Next::Later => Err(FrameError::Sys {
                call: "recvmsg",
                errno: nix::errno::Errno::EAGAIN,
            }),
        }
    }

    /// The next frame if the socket holds it whole now, without waiting for it (what has
    /// come of a frame stays buffered for the next read).
    pub fn next_now(&mut self, sock: &UnixStream) -> Result<Next, FrameError> {
        self.read(sock, false)
    }

    fn read(&mut self, sock: &UnixStream, wait: bool) -> Result<Next, FrameError> {
        let flags = if wait {
            MsgFlags::MSG_CMSG_CLOEXEC
        } else {
            MsgFlags::MSG_CMSG_CLOEXEC | MsgFlags::MSG_DONTWAIT
        };
        loop {
            let have = self.end - self.start;
            let need = if have >= 4 {
                let len = u32::from_le_bytes(
                    self.buf[self.start..self.start + 4]
                        .try_into()
                        .unwrap_or_default(),
                );
                if len > MAX_MESSAGE_BYTES {
                    return Err(FrameError::TooLarge(len as u64));
                }
                let whole = 4 + len as usize;
                if have >= whole {
                    let body = self.buf[self.start + 4..self.start + whole].to_vec();
                    self.start += whole;
                    return Ok(Next::Frame(body));
                }
                whole
            } else {
                4
            };
            // Room for the rest of this frame and a chunk more, the unread bytes moved to
            // the front; a buffer grown for a large frame shrinks back once it is read.
            self.buf.copy_within(self.start..self.end, 0);
            self.end = have;
            self.start = 0;
            let want = (need + CHUNK).max(CHUNK);
            if self.buf.len() < want || (self.buf.len() > 16 * CHUNK && want <= CHUNK * 2) {
                self.buf.resize(want, 0);
                self.buf.shrink_to(want);
            }
            let n = loop {
                let mut iov = [IoSliceMut::new(&mut self.buf[self.end..])];
                match recvmsg::<()>(sock.as_raw_fd(), &mut iov, Some(&mut self.cmsg), flags) {
                    Ok(m) => {
                        if let Ok(cmsgs) = m.cmsgs() {
                            for c in cmsgs {
                                if let ControlMessageOwned::ScmRights(raw) = c {
                                    for fd in raw {
                                        // SAFETY: the kernel just installed this fd in our
                                        // table for us; nothing else owns it.
                                        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
                                        // Kept, or dropped: closed.
                                        if let Some(q) = self.fds.as_mut() {
                                            q.push_back(fd);
                                        }
                                    }
                                }
                            }
                        }
                        break m.bytes;
                    }
                    Err(nix::errno::Errno::EINTR) => continue,
                    Err(nix::errno::Errno::EAGAIN) if !wait => return Ok(Next::Later),
                    Err(errno) => {
                        return Err(FrameError::Sys {
                            call: "recvmsg",
                            errno,
                        })
                    }
                }
            };
            if n == 0 {
                return if have == 0 {
                    Ok(Next::Closed)
                } else {
                    Err(FrameError::Truncated)
                };
            }
            self.end += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsFd;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut f = (body.len() as u32).to_le_bytes().to_vec();
        f.extend_from_slice(body);
        f
    }

    #[test]
    fn a_reader_hands_out_frames_however_they_arrive() {
        let (mut a, b) = UnixStream::pair().unwrap();
        let mut r = FrameReader::default();
        // Three frames in one write.
        let mut w = frame(b"one");
        w.extend(frame(b""));
        w.extend(frame(b"three"));
        a.write_all(&w).unwrap();
        assert_eq!(r.next(&b).unwrap().unwrap(), b"one");
        assert_eq!(r.next(&b).unwrap().unwrap(), b"");
        assert_eq!(r.next(&b).unwrap().unwrap(), b"three");
        // A frame in pieces: its length split, then its body.
        let big: Vec<u8> = (0..3 * CHUNK).map(|i| i as u8).collect();
        let f = frame(&big);
        let writer = std::thread::spawn(move || {
            for piece in [&f[..2], &f[2..7], &f[7..]] {
                a.write_all(piece).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            a.write_all(&frame(b"after")).unwrap();
            a
        });
        assert_eq!(r.next(&b).unwrap().unwrap(), big);
        assert_eq!(r.next(&b).unwrap().unwrap(), b"after");
        // The peer closes between frames: the end; inside one: truncated.
        let mut a = writer.join().unwrap();
        a.write_all(&[9, 0, 0, 0, 1]).unwrap();
        drop(a);
        assert!(matches!(r.next(&b), Err(FrameError::Truncated)));
        let (a, b) = UnixStream::pair().unwrap();
        drop(a);
        assert!(FrameReader::default().next(&b).unwrap().is_none());
        // Fds: kept in order by a reader that keeps them, for the frames that carry them.
        let (a, b) = UnixStream::pair().unwrap();
        let memfd = |name: &str| {
            nix::sys::memfd::memfd_create(name, nix::sys::memfd::MFdFlags::empty()).unwrap()
        };
        let (f1, f2) = (memfd("one"), memfd("two"));
        send_message(&a, &1u32, &[]).unwrap();
        send_message(&a, &2u32, &[f1.as_fd()]).unwrap();
        send_message(&a, &3u32, &[]).unwrap();
        send_message(&a, &4u32, &[f2.as_fd()]).unwrap();
        let mut r = FrameReader::keeping_fds();
        let mut got = Vec::new();
        for want in 1u32..=4 {
            let body = r.next(&b).unwrap().unwrap();
            assert_eq!(postcard::from_bytes::<u32>(&body).unwrap(), want);
            if want % 2 == 0 {
                let fd = r.take_fd().expect("the frame's fd");
                got.push(std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).unwrap());
            }
        }
        assert!(r.take_fd().is_none());
        let names: Vec<String> = got.iter().map(|p| p.display().to_string()).collect();
        assert!(
            names[0].contains("memfd:one") && names[1].contains("memfd:two"),
            "{names:?}"
        );
        // A length over the limit is refused before anything is read for it.
        let (mut a, b) = UnixStream::pair().unwrap();
        a.write_all(&(MAX_MESSAGE_BYTES + 1).to_le_bytes()).unwrap();
        assert!(matches!(
            FrameReader::default().next(&b),
            Err(FrameError::TooLarge(_))
        ));
    }

    /// Several messages written together are read back one frame each, in order, and all
    /// of them are there at once (one write: the reader's first read takes them all).
    #[test]
    fn messages_sent_together_are_separate_frames_read_at_once() {
        let (a, b) = UnixStream::pair().unwrap();
        let msgs: Vec<u64> = vec![7, 1 << 40, 0, 12_345];
        send_messages(&a, &msgs).unwrap();
        let mut r = FrameReader::default();
        for want in &msgs {
            let body = r.next_now(&b).unwrap();
            let Next::Frame(body) = body else {
                panic!("frame {want} not there at once: {body:?}");
            };
            assert_eq!(postcard::from_bytes::<u64>(&body).unwrap(), *want);
        }
        assert_eq!(r.next_now(&b).unwrap(), Next::Later);
        send_messages::<u64>(&a, &[]).unwrap();
        assert_eq!(r.next_now(&b).unwrap(), Next::Later);
    }

    #[test]
    fn a_read_that_does_not_wait_keeps_a_partial_frame() {
        let (mut a, b) = UnixStream::pair().unwrap();
        let mut r = FrameReader::default();
        assert_eq!(r.next_now(&b).unwrap(), Next::Later);
        let f = frame(b"whole");
        a.write_all(&f[..6]).unwrap();
        assert_eq!(r.next_now(&b).unwrap(), Next::Later);
        assert!(r.buffered());
        a.write_all(&f[6..]).unwrap();
        a.write_all(&frame(b"next")[..3]).unwrap();
        assert_eq!(r.next_now(&b).unwrap(), Next::Frame(b"whole".to_vec()));
        assert_eq!(r.next_now(&b).unwrap(), Next::Later);
        a.write_all(&frame(b"next")[3..]).unwrap();
        // A blocking read goes on from the same bytes.
        assert_eq!(r.next(&b).unwrap().unwrap(), b"next");
        drop(a);
        assert_eq!(r.next_now(&b).unwrap(), Next::Closed);
    }
}
