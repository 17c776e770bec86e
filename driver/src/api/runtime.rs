//! Process-wide state of the ICD: the one platform, the one device, and the connection to the
//! service (opened on first use, as GENCL_MODE says).

use super::dispatch::{IcdDispatch, DISPATCH};
use super::types::*;
use super::util::ClResult;
use crate::client::Connection;
use crate::protocol::DeviceDesc;
use std::sync::OnceLock;

/// Static objects (platform, device) still begin with the dispatch pointer.
#[repr(C)]
pub struct StaticObject {
    dispatch: &'static IcdDispatch,
}

pub static PLATFORM: StaticObject = StaticObject {
    dispatch: &DISPATCH,
};
pub static DEVICE: StaticObject = StaticObject {
    dispatch: &DISPATCH,
};

pub fn platform_id() -> cl_platform_id {
    std::ptr::from_ref(&PLATFORM).cast_mut().cast()
}

pub fn device_id() -> cl_device_id {
    std::ptr::from_ref(&DEVICE).cast_mut().cast()
}

/// "CL_INVALID_PLATFORM if platform is not a valid platform."
pub fn check_platform(p: cl_platform_id) -> ClResult<()> {
    if p == platform_id() {
        Ok(())
    } else {
        Err(CL_INVALID_PLATFORM)
    }
}

/// "CL_INVALID_DEVICE if device is not a valid device."
pub fn check_device(d: cl_device_id) -> ClResult<()> {
    if d == device_id() {
        Ok(())
    } else {
        Err(CL_INVALID_DEVICE)
    }
}

static CONNECTION: OnceLock<Result<Connection, String>> = OnceLock::new();

/// The connection to the service, opened on first use.
pub fn connection() -> ClResult<&'static Connection> {
    let c = CONNECTION.get_or_init(|| {
        init_logging();
        Connection::open().map_err(|e| {
            tracing::error!("gencl: no device: {e}");
            e.to_string()
        })
    });
    c.as_ref().map_err(|_| CL_DEVICE_NOT_AVAILABLE)
}

pub fn device_desc() -> ClResult<&'static DeviceDesc> {
    connection().map(|c| &c.device)
}

/// Logs of the ICD go to stderr when `GENCL_LOG` is set (e.g. `GENCL_LOG=debug`); an application
/// that installed its own tracing subscriber keeps it.
fn init_logging() {
    crate::logging::init(None);
}
