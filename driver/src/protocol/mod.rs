//! The wire protocol between `libgencl.so` and `gencld` (docs/protocol.md).
//!
//! `messages` holds the serde enums both sides exchange; `framing` puts them on a Unix stream
//! socket (a little-endian u32 length, then the postcard bytes) with file descriptors riding along
//! as SCM_RIGHTS. The embedded mode passes the same values to the same handler without a socket.

pub mod framing;
pub mod messages;
pub mod poll;

pub use framing::{send_message, send_messages, FrameError, FrameReader, Next, MAX_MESSAGE_BYTES};
pub use messages::*;
pub use poll::Polling;
