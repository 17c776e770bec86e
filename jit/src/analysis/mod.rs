//! Analyses of the IR that passes and instruction selection share: the CFG with
//! dominators (`cfg`) and the loop forest (`loops`). Each is computed on demand from
//! a function and is stale once a pass changes the blocks; `slm_addresses`, the `__local`
//! addresses read only as addresses.

pub mod cfg;
pub mod loops;
pub mod slm_addresses;

pub use cfg::Cfg;
pub use loops::LoopForest;
