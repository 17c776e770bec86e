//! Cases of tests/igc/conversions.cl.
#[allow(unused_imports)]
use crate::igc::harness::*;

pub fn cases() -> Vec<Case> {
    vec![]
}
