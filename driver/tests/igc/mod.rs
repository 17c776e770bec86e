//! Intel's compiler (IGC, through ocloc) as a second source of Gen9 code:
//! its kernels run on the GPU model through gencl's own submission path and
//! must match CPU references.
pub mod cases;
pub mod harness;
pub mod loader;
pub mod run;
