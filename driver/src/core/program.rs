//! Program objects (OpenCL 3.0 §5.8): their origin, source and the state of their build. The
//! build happens in the service (the JIT); the program keeps the kernel descriptors it
//! returned. The entry points are in `api/program.rs`.

use super::context::Context;
use crate::api::object::{ClObject, Ref};
use crate::api::runtime::connection;
use crate::api::types::*;
use crate::api::util::ClResult;
use crate::protocol::{KernelDesc, ProgramId, ProgramSource, Request};
use parking_lot::Mutex;
use std::sync::atomic::AtomicU32;
use std::sync::Arc;

/// Which clCreateProgramWith* (or clLinkProgram) made a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Source,
    Il,
    Binary,
    Link,
}

pub struct Program {
    pub context: Ref<Context>,
    pub origin: Origin,
    pub source: ProgramSource,
    pub build: Mutex<Build>,
    /// Kernel objects made from this program ("CL_INVALID_OPERATION if there are kernel objects
    /// attached to program").
    pub kernels_attached: AtomicU32,
}

#[derive(Default)]
pub struct Build {
    pub status: cl_build_status,
    pub options: String,
    pub log: String,
    /// The service's program, once built (kernels and queued launches share it, so a rebuild
    /// or a release never frees it under a launch still to run).
    pub service_id: Option<Arc<Executable>>,
    pub kernels: Vec<KernelDesc>,
    /// OpenCL 2.0+ language (-cl-std=CL2.0/CL3.0) without -cl-uniform-work-group-size: the
    /// global size need not be a multiple of the local size.
    pub non_uniform: bool,
    /// CL_PROGRAM_BINARIES, fetched from the service the first time it is asked for.
    pub binary: Option<Vec<u8>>,
    /// CL_PROGRAM_BINARY_TYPE.
    pub binary_type: cl_program_binary_type,
    /// A compiled object's or a library's SPIR-V (clCompileProgram, clLinkProgram
    /// -create-library, or a SPIR-V binary): what clLinkProgram links.
    pub il: Option<Vec<u8>>,
    /// clSetProgramSpecializationConstant's values, applied by the next build.
    pub spec_constants: Vec<(u32, Vec<u8>)>,
    /// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE of the last successful build.
    pub globals_bytes: usize,
}

impl ClObject for Program {
    type Raw = _cl_program;
    const TAG: u32 = 0x6770_7267; // "gprg"
    const INVALID: cl_int = CL_INVALID_PROGRAM;
}

/// A program built in the service, freed there when the last holder lets go.
pub struct Executable(pub ProgramId);

impl Drop for Executable {
    fn drop(&mut self) {
        if let Ok(c) = connection() {
            let _ = c.call(Request::FreeProgram { id: self.0 });
        }
    }
}

impl Build {
    /// The service's executable, if any, freed, and its kernels forgotten.
    pub(crate) fn forget_executable(&mut self) {
        self.service_id = None;
        self.kernels.clear();
    }

    /// A compiled object or a library: its SPIR-V is what links, and its binary that SPIR-V
    /// under gencl's header saying which of the two it is.
    pub(crate) fn holds_il(&mut self, il: Vec<u8>, log: String, ty: cl_program_binary_type) {
        use gencl_jit::binary::{encode_il, BinaryKind};
        self.status = CL_BUILD_SUCCESS;
        self.log = log;
        let kind = if ty == CL_PROGRAM_BINARY_TYPE_LIBRARY {
            BinaryKind::Library
        } else {
            BinaryKind::CompiledObject
        };
        self.binary = Some(encode_il(kind, &il));
        self.il = Some(il);
        self.binary_type = ty;
    }

    pub(crate) fn built(
        &mut self,
        id: ProgramId,
        kernels: Vec<KernelDesc>,
        log: String,
        globals: usize,
    ) {
        self.status = CL_BUILD_SUCCESS;
        self.globals_bytes = globals;
        self.log = log;
        self.service_id = Some(Arc::new(Executable(id)));
        self.kernels = kernels;
        self.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    }

    /// An answer that is not the compiler's verdict: the log says why.
    pub(crate) fn internal_error(&mut self, outcome: Outcome) -> ClResult<()> {
        self.status = CL_BUILD_ERROR;
        let (log, code) = match outcome {
            Outcome::Internal(log, code) => (log, code),
            _ => (
                "internal error: an answer of the wrong kind from the service".into(),
                CL_OUT_OF_RESOURCES,
            ),
        };
        self.log = log;
        Err(code)
    }
}

/// What a build, compile or link request came back with.
pub(crate) enum Outcome {
    /// A compiled object or library (SPIR-V).
    Il(Vec<u8>, String),
    /// An executable built in the service, with the bytes of its global variables.
    Built(ProgramId, Vec<KernelDesc>, String, usize),
    /// The compiler's log, and whether the options were the fault.
    Failed(String, bool),
    /// No answer from the compiler (the service, the connection, or an answer of another
    /// kind): the build log says which, the code is the API's.
    Internal(String, cl_int),
}
