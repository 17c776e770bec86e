//! gencl's OpenCL runtime.
pub mod api;
pub mod client;
pub mod protocol;
pub mod service;
pub mod submit;
