//! gencl's compiler. Data flows through the modules in this order:
//! `frontend` (OpenCL C → SPIR-V → validated module) → `ir` (scalar SSA Gen IR)
//! → `passes` → `isel` (instruction selection to Gen instructions)
//! → `regalloc` → `emit` (encoding) → `kernel` (the binary and its descriptor).
//! `isa` is the Gen instruction-set model shared with the GPU model.

pub mod binary;
pub mod compile;
pub mod emit;
pub mod frontend;
pub mod ir;
pub mod isa;
pub mod isel;
pub mod kernel;
pub mod passes;
pub mod regalloc;

pub use compile::{compile, BuildError, CompileInput};
