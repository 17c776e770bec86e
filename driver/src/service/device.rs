//! The device the service drives: the kmd's `Device` over the backend `GENCL_DEVICE` selects
//! (an i915 render node, else the emulated Gen9 GT2).

pub use gencl_kmd::backend::{Device, KmdError as DeviceError};

/// Open the default backend.
pub fn open() -> Result<Device, DeviceError> {
    Ok(Device::new(gencl_kmd::backend::open_default()?))
}

/// Whether `dev` is the emulated device (it says so in its description).
pub fn is_emulated(dev: &Device) -> bool {
    dev.describe().starts_with("emulated")
}
