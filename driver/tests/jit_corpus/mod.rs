//! gencl's own kernel corpus (tests/jit/*.cl), one module of cases per file.
pub mod args;
pub mod atomics;
pub mod constants;
pub mod control;
pub mod conversions;
pub mod generic;
pub mod geometric;
pub mod groups;
pub mod images;
pub mod integers;
pub mod intel_subgroups;
pub mod local;
pub mod math;
pub mod private;
pub mod relational;
mod tgamma_ref;
pub mod uniform;
pub mod vectors;

/// The kernel sources of the corpus (files under tests/jit/).
pub const FILES: &[&str] = &[
    "control.cl",
    "args.cl",
    "constants.cl",
    "vectors.cl",
    "math.cl",
    "integers.cl",
    "conversions.cl",
    "relational.cl",
    "geometric.cl",
    "half.cl",
    "local.cl",
    "atomics.cl",
    "private.cl",
    "groups.cl",
    "generic.cl",
    "intel_subgroups.cl",
    "images.cl",
    "uniform.cl",
];

/// Build options a file needs beside the run's own (its language version).
pub fn options_of(file: &str) -> &'static str {
    match file {
        // work_group_* functions are OpenCL C 2.0.
        "groups.cl" => "-cl-std=CL2.0",
        // Generic pointers and program-scope variables are OpenCL C 2.0.
        "generic.cl" => "-cl-std=CL2.0",
        // Sub-group functions are OpenCL C 2.0 (cl_khr_subgroups) or 3.0.
        "intel_subgroups.cl" => "-cl-std=CL3.0",
        // read_write images are OpenCL C 2.0.
        "images.cl" => "-cl-std=CL2.0",
        _ => "",
    }
}

pub fn all() -> Vec<crate::igc::harness::Case> {
    let mut v = Vec::new();
    v.extend(control::cases());
    v.extend(args::cases());
    v.extend(constants::cases());
    v.extend(vectors::cases());
    v.extend(math::cases());
    v.extend(integers::cases());
    v.extend(conversions::cases());
    v.extend(relational::cases());
    v.extend(geometric::cases());
    v.extend(local::cases());
    v.extend(atomics::cases());
    v.extend(private::cases());
    v.extend(groups::cases());
    v.extend(generic::cases());
    v.extend(intel_subgroups::cases());
    v.extend(images::cases());
    v.extend(uniform::cases());
    v
}
