//! Cases of tests/igc/integer.cl.
#[allow(unused_imports)]
use crate::igc::harness::*;

pub fn cases() -> Vec<Case> {
    vec![]
}
