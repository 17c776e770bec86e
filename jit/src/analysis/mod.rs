//! Analyses of the IR that passes and instruction selection share: the CFG with
//! dominators (`cfg`) and the loop forest (`loops`). Each is computed on demand from
//! a function and is stale once a pass changes the blocks; `addresses`, the `__local`
//! and buffer addresses read only as addresses; `liveness`, the machine IR's live
//! intervals (register allocation's and the machine IR verifier's); `simd32`, whether a kernel
//! is worth SIMD32 code.

pub mod addresses;
pub mod cfg;
pub mod liveness;
pub mod loops;
pub mod simd32;

pub use cfg::Cfg;
pub use loops::LoopForest;
