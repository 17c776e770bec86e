//! The boundary the driver calls: the i915 ioctls gencl uses, answered by
//! the kernel (`real`) or by the emulated device (`emulated`), with the same
//! structs and errnos. `device` is a small safe layer over it.
//!
//! Contract of every method (as for the kernel): pointers inside the structs
//! (`drm_i915_getparam::value`, `items_ptr`, `data_ptr`, `buffers_ptr`,
//! `extensions`) are either 0 or point to live memory of the stated type and
//! size owned by the caller for the duration of the call.

pub mod device;
pub mod emulated;
pub mod real;

use nix::errno::Errno;
use thiserror::Error;

use crate::uapi::*;

pub use device::{Device, Topology};

#[derive(Debug, Error)]
pub enum KmdError {
    /// An ioctl failed with the errno the kernel (or the emulated device) gave.
    #[error("{ioctl} failed: {errno}")]
    Errno { ioctl: &'static str, errno: Errno },
    #[error("no i915 render node: {0}")]
    NoDevice(String),
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("GENCL_DEVICE={0:?}: expected emulated, real or auto")]
    BadSelection(String),
    /// An emulated configuration GENCL_EMULATED_GPU does not name.
    #[error("{0}")]
    BadConfiguration(String),
    /// An i915 device that is not a Gen9 GPU.
    #[error("{path}: {why}")]
    Unsupported { path: String, why: String },
    #[error("{what}: unexpected answer from the device")]
    Protocol { what: &'static str },
}

impl KmdError {
    /// The errno, if this is a failed ioctl.
    pub fn errno(&self) -> Option<Errno> {
        match self {
            KmdError::Errno { errno, .. } => Some(*errno),
            _ => None,
        }
    }
}

pub trait I915: Send + Sync {
    fn getparam(&self, p: &mut drm_i915_getparam) -> Result<(), KmdError>;
    fn query(&self, q: &mut drm_i915_query) -> Result<(), KmdError>;
    fn gem_create(&self, c: &mut drm_i915_gem_create) -> Result<(), KmdError>;
    fn gem_close(&self, c: &drm_gem_close) -> Result<(), KmdError>;
    fn gem_mmap_offset(&self, m: &mut drm_i915_gem_mmap_offset) -> Result<(), KmdError>;
    /// mmap what gem_mmap_offset returned (real: mmap of the DRM fd at that offset).
    fn mmap(&self, offset: u64, size: usize) -> Result<memmap2::MmapMut, KmdError>;
    fn prime_handle_to_fd(&self, p: &mut drm_prime_handle) -> Result<(), KmdError>;
    fn vm_create(&self, v: &mut drm_i915_gem_vm_control) -> Result<(), KmdError>;
    fn vm_destroy(&self, v: &drm_i915_gem_vm_control) -> Result<(), KmdError>;
    fn context_create_ext(&self, c: &mut drm_i915_gem_context_create_ext) -> Result<(), KmdError>;
    fn context_destroy(&self, c: &drm_i915_gem_context_destroy) -> Result<(), KmdError>;
    fn execbuffer2(&self, e: &mut drm_i915_gem_execbuffer2) -> Result<(), KmdError>;
    /// execbuffer2 of a batch that a thread of the caller's waits for next, without a
    /// timeout (a launch whose application thread is blocked on it, or the client's
    /// retiring thread, which waits for each launch in turn); the caller must see that it
    /// is waited for. i915 has no such call: the default is execbuffer2. The emulated
    /// device does not wake its engine thread for it, since the waiter runs it (`gem_wait`'s
    /// help): one thread wake-up fewer a launch.
    fn execbuffer2_then_wait(&self, e: &mut drm_i915_gem_execbuffer2) -> Result<(), KmdError> {
        self.execbuffer2(e)
    }
    fn gem_wait(&self, w: &mut drm_i915_gem_wait) -> Result<(), KmdError>;
    fn gem_busy(&self, b: &mut drm_i915_gem_busy) -> Result<(), KmdError>;
    fn get_reset_stats(&self, r: &mut drm_i915_reset_stats) -> Result<(), KmdError>;
    fn syncobj_create(&self, c: &mut drm_syncobj_create) -> Result<(), KmdError>;
    fn syncobj_destroy(&self, d: &drm_syncobj_destroy) -> Result<(), KmdError>;
    fn syncobj_wait(&self, w: &mut drm_syncobj_wait) -> Result<(), KmdError>;
    fn syncobj_reset(&self, a: &drm_syncobj_array) -> Result<(), KmdError>;
    fn syncobj_signal(&self, a: &drm_syncobj_array) -> Result<(), KmdError>;
    /// "emulated Gen9 GT2" or the render node path, for logs and clinfo.
    fn describe(&self) -> String;
    /// The GPU model's counters for the most recent batch of context `ctx_id` (the
    /// emulated device only: real hardware has no such oracle).
    fn batch_counters(&self, _ctx_id: u32) -> Option<crate::gpu::Counters> {
        None
    }
    /// The GPU model's totals over every batch so far (the emulated device only).
    fn total_counters(&self) -> Option<crate::gpu::Counters> {
        None
    }
}

/// The device `GENCL_DEVICE` selects: `emulated`, `real`, or `auto` (the default: an i915
/// render node, and no device without one). The emulated device is for development and CI:
/// an installed gencl on a machine without an Intel GPU lists no device unless asked for it,
/// so that an application that takes "the first GPU" does not land on an emulator.
pub fn open_default() -> Result<Box<dyn I915>, KmdError> {
    let sel = std::env::var("GENCL_DEVICE").unwrap_or_else(|_| "auto".into());
    match sel.as_str() {
        "emulated" => open_emulated(),
        "real" => Ok(Box::new(real::RealI915::open()?)),
        "auto" | "" => match real::RealI915::open() {
            Ok(r) => Ok(Box::new(r)),
            Err(KmdError::NoDevice(why)) => Err(KmdError::NoDevice(format!(
                "{why} (GENCL_DEVICE=emulated selects the emulated Gen9, for development and CI)"
            ))),
            Err(e) => Err(e),
        },
        other => Err(KmdError::BadSelection(other.to_string())),
    }
}

/// The emulated device, in the configuration GENCL_EMULATED_GPU names (default skl-gt2).
pub fn open_emulated() -> Result<Box<dyn I915>, KmdError> {
    Ok(Box::new(emulated::EmulatedI915::from_env()?))
}
