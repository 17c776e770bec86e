//! The OpenCL API: the ICD entry points and the objects behind the handles.
//!
//! Style (after Mesa's rusticl): every entry point validates in the order its spec section lists
//! the errors, quoting the sentence above each check; clGet*Info queries go through `info`.
//! All entry points catch panics (`util::entry`), so a bug is an error code, not an abort.
//!
//! # Safety
//! Every `unsafe extern "C" fn` here has the safety contract the OpenCL specification gives its
//! caller for that function (pointer arguments valid for the sizes and counts passed), so the
//! per-function `# Safety` sections are not repeated.
#![allow(non_snake_case, clippy::missing_safety_doc)]

pub mod absent;
pub mod context;
pub mod device;
pub mod dispatch;
pub mod enqueue;
pub mod entry;
pub mod event;
pub mod icd;
pub mod image;
pub mod image_commands;
pub mod info;
pub mod kernel;
pub mod launch;
pub mod memory;
pub mod object;
pub mod platform;
pub mod program;
pub mod queue;
pub mod runtime;
pub mod sampler;
pub mod transfer;
pub mod types;
pub mod util;
