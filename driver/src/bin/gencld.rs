//! gencld: the gencl service. Owns the GPU (i915 render node or the emulated device) and serves
//! OpenCL clients (libgencl.so) on a Unix socket, one thread and one GPU VM per connection.
//!
//! Socket: a socket-activated fd (LISTEN_FDS), else `--socket`, else `$GENCL_SOCKET`, else
//! `$XDG_RUNTIME_DIR/gencl/gencld.sock`, else `/run/gencl/gencld.sock`.

use clap::Parser;
use gencl::service::{server, Service};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(version, about = "gencl OpenCL service")]
struct Args {
    /// Listen on this Unix socket path (ignored when socket-activated).
    #[arg(long)]
    socket: Option<PathBuf>,
}

fn main() -> ExitCode {
    // Take the activated fd before anything else runs (it clears LISTEN_* for children).
    let activated = server::activated_listener();
    gencl::logging::init(Some("info"));
    let args = Args::parse();
    let svc = match Service::open() {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let listener = match activated {
        Some(l) => {
            tracing::info!("listening on the socket-activated fd");
            l
        }
        None => {
            let path = args.socket.unwrap_or_else(server::socket_path);
            match server::bind(&path) {
                Ok(l) => {
                    tracing::info!("listening on {}", path.display());
                    l
                }
                Err(e) => {
                    tracing::error!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    match server::serve(listener, svc) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            ExitCode::FAILURE
        }
    }
}
