//! gencl's OpenCL runtime.
pub mod api;
pub mod client;
pub mod core;
pub mod info;
pub mod logging;
pub mod profile;
pub mod protocol;
pub mod run_args;
pub mod selftest;
pub mod service;
pub mod submit;
pub mod top;
