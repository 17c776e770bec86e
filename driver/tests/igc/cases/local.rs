//! Cases of tests/igc/local.cl.
#[allow(unused_imports)]
use crate::igc::harness::*;

pub fn cases() -> Vec<Case> {
    vec![]
}
