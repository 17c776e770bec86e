//! Cases of tests/igc/float.cl.
#[allow(unused_imports)]
use crate::igc::harness::*;

pub fn cases() -> Vec<Case> {
    vec![]
}
