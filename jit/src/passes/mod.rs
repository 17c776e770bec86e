//! IR passes, in the order `compile` runs them: dead-code elimination, then
//! the uniformity analysis that instruction selection reads.

pub mod dce;
pub mod pushed_args;
pub mod uniform;
