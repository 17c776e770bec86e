//! gencl's compiler. Data flows through the modules in this order:
//! `frontend` (OpenCL C → SPIR-V → validated module) → `ir` (scalar SSA Gen IR)
//! → `passes` → `isel` (instruction selection to Gen instructions, the machine IR `mir`)
//! → `regalloc` → `emit` (encoding). `abi` is the kernel ABI the runtime shares (descriptor,
//! payload, pushed constants), `binary` the program binary format,
//! `extensions` the OpenCL C extensions the device reports and clang defines.
//! `isa` is the Gen instruction-set crate (`jit/isa`, `gencl-isa`), shared with the GPU model.

pub mod abi;
pub mod analysis;
pub mod binary;
pub mod compile;
pub mod dump;
pub mod emit;
pub mod extensions;
pub mod frontend;
pub mod ir;
pub mod isel;
pub mod mir;
pub mod passes;
pub mod program_cache;
pub mod regalloc;
pub mod schedule;

pub use compile::{
    compile, compile_object, compile_specialized, link_programs, BuildError, CompileInput, Linked,
};

/// The Gen ISA, a crate of its own so that the GPU model does not depend on the compiler.
pub use gencl_isa as isa;
