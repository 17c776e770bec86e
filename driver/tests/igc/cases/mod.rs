//! The corpus, one module per category, each beside its `tests/igc/<category>.cl`.
use super::harness::Case;

pub mod alu;
pub mod atomics;
pub mod control;
pub mod conversions;
pub mod float;
pub mod fp64;
pub mod images;
pub mod integer;
pub mod local;
pub mod private;

/// The kernel sources of the corpus (files under tests/igc/).
pub const FILES: &[&str] = &[
    "integer.cl",
    "float.cl",
    "fp64.cl",
    "conversions.cl",
    "control.cl",
    "local.cl",
    "atomics.cl",
    "private.cl",
    "alu.cl",
    "images.cl",
];

/// Every case of every category.
pub fn all() -> Vec<Case> {
    let mut v = Vec::new();
    v.extend(integer::cases());
    v.extend(float::cases());
    v.extend(fp64::cases());
    v.extend(conversions::cases());
    v.extend(control::cases());
    v.extend(local::cases());
    v.extend(atomics::cases());
    v.extend(private::cases());
    v.extend(alu::cases());
    v.extend(images::cases());
    v
}
