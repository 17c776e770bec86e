//! Front end, in the order input flows: OpenCL C → LLVM bitcode (`clc`), LLVM IR → legalised,
//! optimised → SPIR-V (`llvm`), SPIR-V checked and loaded (`spirv`), and lowered to the scalar
//! Gen IR (`lower`); `link` joins SPIR-V modules for clLinkProgram.

pub mod builtins;
pub mod clc;
pub mod convert;
pub mod helper;
pub mod library;
pub mod link;
pub mod llvm;
pub mod lower;
pub mod spirv;
pub mod type_hints;

use thiserror::Error;

#[derive(Debug, Clone, Error)]
pub enum FrontendError {
    /// A compiler tool could not run (missing, or I/O).
    #[error("{0}")]
    Tool(String),
    /// The OpenCL C compiler rejected the source: its diagnostics.
    #[error("{0}")]
    Compile(String),
    /// The IL is not valid SPIR-V.
    #[error("invalid SPIR-V: {0}")]
    InvalidIl(String),
    /// Valid input that this JIT does not compile yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// An error at a source location the module's OpLine gave (`file:line:column`, as
    /// clang's diagnostics begin).
    #[error("{at}: {error}")]
    Located {
        at: String,
        error: Box<FrontendError>,
    },
}
