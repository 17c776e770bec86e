//! Everything at and below the kernel boundary: the i915 uAPI, the real and
//! emulated backends, and the Gen9 GPU model behind the emulated one.
pub mod aub;
pub mod backend;
pub mod devices;
pub mod genx;
pub mod gpu;
pub mod uapi;
