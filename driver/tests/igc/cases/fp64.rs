//! Cases of tests/igc/fp64.cl.
#[allow(unused_imports)]
use crate::igc::harness::*;

pub fn cases() -> Vec<Case> {
    vec![]
}
