//! The OpenCL C extensions the compiler implements end to end: the one list from which the
//! device reports CL_DEVICE_EXTENSIONS(_WITH_VERSION) and clang is told which extension macros
//! to define (`-cl-ext`), so that `#ifdef cl_khr_fp64` in a kernel agrees with clGetDeviceInfo.
//! An extension joins the list when its kernels build and run exactly (docs/jit.md).

/// One extension and its version (CL_DEVICE_EXTENSIONS_WITH_VERSION).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extension {
    pub name: &'static str,
    pub version: (u32, u32, u32),
    /// The OpenCL C 3.0 feature that goes with it, which clang requires to match under
    /// -cl-std=CL3.0 ("options cl_khr_fp64 and __opencl_c_fp64 are set to different values").
    pub feature: Option<&'static str>,
}

pub const EXTENSIONS: &[Extension] = &[
    // Byte and short stores through the A64 byte scattered messages.
    Extension {
        name: "cl_khr_byte_addressable_store",
        version: (1, 0, 0),
        feature: None,
    },
    // Gen9's native DF, with IEEE-exact division and square root (isel/ieee.rs).
    Extension {
        name: "cl_khr_fp64",
        version: (1, 0, 0),
        feature: Some("__opencl_c_fp64"),
    },
    // half values carried in float registers as exact halves, rounded to half after every
    // operation (frontend/lower.rs, "half").
    Extension {
        name: "cl_khr_fp16",
        version: (1, 0, 0),
        feature: None,
    },
    // 32-bit atomics on global memory (A64 untyped atomics) and local memory (SLM untyped
    // atomics through BTI 254): isel/memory.rs.
    Extension {
        name: "cl_khr_global_int32_base_atomics",
        version: (1, 0, 0),
        feature: None,
    },
    Extension {
        name: "cl_khr_global_int32_extended_atomics",
        version: (1, 0, 0),
        feature: None,
    },
    Extension {
        name: "cl_khr_local_int32_base_atomics",
        version: (1, 0, 0),
        feature: None,
    },
    Extension {
        name: "cl_khr_local_int32_extended_atomics",
        version: (1, 0, 0),
        feature: None,
    },
    // 64-bit atomics: A64 atomics with 64-bit data on global memory; on local memory
    // (Gen9's SLM atomics are 32-bit) a read-modify-write under an SLM lock
    // (`passes::local_atomics64`).
    Extension {
        name: "cl_khr_int64_base_atomics",
        version: (1, 0, 0),
        feature: None,
    },
    Extension {
        name: "cl_khr_int64_extended_atomics",
        version: (1, 0, 0),
        feature: None,
    },
    // Sub-groups: the hardware thread, its lanes the work-items (frontend/lower/collectives.rs).
    // clCreateProgramWithILKHR (clGetExtensionFunctionAddress), CL_DEVICE_IL_VERSION_KHR and
    // CL_PROGRAM_IL_KHR: the 2.1 core entry point and queries under their KHR names.
    Extension {
        name: "cl_khr_il_program",
        version: (1, 0, 0),
        feature: None,
    },
    Extension {
        name: "cl_khr_subgroups",
        version: (1, 0, 0),
        feature: Some("__opencl_c_subgroups"),
    },
    // sub_group_shuffle(_xor) and sub_group_shuffle_up/down: SPIR-V 1.3's
    // OpGroupNonUniformShuffle* (llvm-spirv runs with --spirv-max-version=1.3), each one
    // register-file gather (frontend/lower/collectives.rs, `khr_subgroup_shuffle`).
    Extension {
        name: "cl_khr_subgroup_shuffle",
        version: (1, 0, 0),
        feature: None,
    },
    Extension {
        name: "cl_khr_subgroup_shuffle_relative",
        version: (1, 0, 0),
        feature: None,
    },
    // sub_group_elect and sub_group_non_uniform_all/any/all_equal: reductions over the
    // active lanes (frontend/lower/collectives.rs, `khr_vote`).
    Extension {
        name: "cl_khr_subgroup_non_uniform_vote",
        version: (1, 0, 0),
        feature: None,
    },
    // sub_group_non_uniform_reduce/scan_inclusive/scan_exclusive of add, mul, min, max,
    // and, or, xor and the logical forms: the sub-group reductions and scans, which read an
    // inactive lane as the operation's identity (frontend/lower/collectives.rs).
    Extension {
        name: "cl_khr_subgroup_non_uniform_arithmetic",
        version: (1, 0, 0),
        feature: None,
    },
    // sub_group_clustered_reduce_*: each cluster's lanes folded, the result picked by the
    // lane's cluster (frontend/lower/collectives.rs, `clustered`).
    Extension {
        name: "cl_khr_subgroup_clustered_reduce",
        version: (1, 0, 0),
        feature: None,
    },
    // char, uchar, short and ushort in the sub-group functions (and vectors in the
    // broadcasts): carried in 32-bit registers, compared sign- or zero-extended, with the
    // narrow type's identities (frontend/lower/collectives.rs, `group_function`).
    Extension {
        name: "cl_khr_subgroup_extended_types",
        version: (1, 0, 0),
        feature: None,
    },
    // The shuffles, the buffer block reads and writes, and their image forms (Gen9's media
    // block messages, isel/image.rs), on SIMD8 and SIMD16 sub-groups.
    Extension {
        name: "cl_intel_subgroups",
        version: (1, 0, 0),
        feature: None,
    },
    // write_imagef/i/ui on image3d_t: typed writes with three coordinates
    // (isel/image.rs), which the GPU model's 3D surfaces take.
    Extension {
        name: "cl_khr_3d_image_writes",
        version: (1, 0, 0),
        feature: Some("__opencl_c_3d_image_writes"),
    },
    // image2d_depth_t and image2d_array_depth_t: CL_DEPTH images of floats or UNORM16, kept
    // in R32_FLOAT and R16_UNORM surfaces; their reads are the red channel, their writes a
    // typed write of red (frontend/lower.rs, api/image.rs).
    Extension {
        name: "cl_khr_depth_images",
        version: (1, 0, 0),
        feature: None,
    },
    // 2D images over a buffer's bytes (api/image.rs): the runtime's alone, nothing for
    // the compiler.
    Extension {
        name: "cl_khr_image2d_from_buffer",
        version: (1, 0, 0),
        feature: None,
    },
    // intel_reqd_sub_group_size(8 | 16); CL_DEVICE_SUB_GROUP_SIZES_INTEL.
    Extension {
        name: "cl_intel_required_subgroup_size",
        version: (1, 0, 0),
        feature: None,
    },
];

/// OpenCL C 3.0 features without an extension: 64-bit integers (the full profile's, which
/// clang defines for every spir64 program), and the atomics' orders and device scope (every
/// Gen9 atomic is performed at the L3 or in SLM, where all work-items see it; acquire and
/// release add a fence after and before it: frontend/lower.rs, `atomic_order`).
pub const FEATURES: &[&str] = &[
    "__opencl_c_int64",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    // work_group_all/any/broadcast/reduce/scan, through shared local memory.
    "__opencl_c_work_group_collective_functions",
    // Program-scope global variables and static function-scope ones: one buffer per
    // program, shared by its kernels and kept between launches (abi::ProgramGlobals).
    "__opencl_c_program_scope_global_variables",
    // The generic address space: static resolution where the space is provable, tags in
    // bits 63:61 and a local/global switch at run time otherwise (passes/generic_pointers.rs).
    "__opencl_c_generic_address_space",
    // Images through the sampler (sample_lz, ld_lz) and typed writes (isel/image.rs), and
    // read_write images, whose reads go through the sampler as IGC's do (docs/images.md).
    "__opencl_c_images",
    "__opencl_c_read_write_images",
];

/// Every OpenCL C 3.0 feature the device has: CL_DEVICE_OPENCL_C_FEATURES, and what clang
/// defines under -cl-std=CL3.0.
pub fn features() -> impl Iterator<Item = &'static str> {
    FEATURES
        .iter()
        .copied()
        .chain(EXTENSIONS.iter().filter_map(|e| e.feature))
}

/// Features clang-15's opencl-c-base.h defines for every SPIR target whatever `-cl-ext` says
/// (`#if defined(__SPIR__)` ... `#define __opencl_c_atomic_scope_all_devices 1`).
const SPIR_HEADER_FEATURES: &[&str] = &[
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_read_write_images",
];

/// A header to include after clang's own: `#undef` of each feature macro that header defined
/// but the device does not have, so that a kernel's `#ifdef` sees what the device reports.
pub fn undefine_header() -> String {
    SPIR_HEADER_FEATURES
        .iter()
        .filter(|f| !features().any(|g| g == **f))
        .map(|f| format!("#undef {f}\n"))
        .collect()
}

/// Declarations of cl_intel_subgroups' buffer functions, which clang-15's built-in table
/// (`-fdeclare-opencl-builtins`) does not have (only its opencl-c.h, whose image forms need
/// image support): the shuffles of each type the extension lists, the block reads and
/// writes of `__global uint`. llvm-spirv turns the calls into SPV_INTEL_subgroups.
pub fn intel_subgroups_header() -> String {
    let mut out = String::from("#ifdef cl_intel_subgroups\n");
    let decl = "__attribute__((overloadable, convergent))";
    let mut types: Vec<String> = Vec::new();
    for base in ["float", "int", "uint"] {
        types.push(base.into());
        for n in [2, 3, 4, 8, 16] {
            types.push(format!("{base}{n}"));
        }
    }
    types.extend(["long".into(), "ulong".into()]);
    for (ext, base) in [("cl_khr_fp16", "half"), ("cl_khr_fp64", "double")] {
        // Declared with the extension enabled, disabled again for the program (whose own
        // pragma comes after this header).
        out.push_str(&format!(
            "#ifdef {ext}\n#pragma OPENCL EXTENSION {ext} : enable\n"
        ));
        for n in ["", "2", "3", "4", "8", "16"] {
            let t = format!("{base}{n}");
            shuffles(&mut out, decl, &t);
        }
        out.push_str(&format!(
            "#pragma OPENCL EXTENSION {ext} : disable\n#endif\n"
        ));
    }
    for t in &types {
        shuffles(&mut out, decl, t);
    }
    for n in ["", "2", "4", "8"] {
        out.push_str(&format!(
            "uint{n} {decl} intel_sub_group_block_read{n}(const __global uint *p);\n\
             void {decl} intel_sub_group_block_write{n}(__global uint *p, uint{n} data);\n"
        ));
    }
    // The image forms (media block messages): 2D images, byte coordinates; read_write ones
    // where the language version has read_write images.
    out.push_str("#ifdef __IMAGE_SUPPORT__\n");
    for n in ["", "2", "4", "8"] {
        out.push_str(&format!(
            "uint{n} {decl} intel_sub_group_block_read{n}(read_only image2d_t image, int2 byte_coord);\n\
             void {decl} intel_sub_group_block_write{n}(write_only image2d_t image, int2 byte_coord, uint{n} data);\n"
        ));
    }
    out.push_str(
        "#if __OPENCL_C_VERSION__ == 200 || (__OPENCL_C_VERSION__ >= 300 && defined(__opencl_c_read_write_images))\n",
    );
    for n in ["", "2", "4", "8"] {
        out.push_str(&format!(
            "uint{n} {decl} intel_sub_group_block_read{n}(read_write image2d_t image, int2 byte_coord);\n\
             void {decl} intel_sub_group_block_write{n}(read_write image2d_t image, int2 byte_coord, uint{n} data);\n"
        ));
    }
    out.push_str("#endif\n#endif\n#endif\n");
    out
}

fn shuffles(out: &mut String, decl: &str, t: &str) {
    out.push_str(&format!(
        "{t} {decl} intel_sub_group_shuffle({t} x, uint c);\n\
         {t} {decl} intel_sub_group_shuffle_xor({t} x, uint c);\n\
         {t} {decl} intel_sub_group_shuffle_down({t} cur, {t} next, uint c);\n\
         {t} {decl} intel_sub_group_shuffle_up({t} prev, {t} cur, uint c);\n"
    ));
}

/// clang's `-cl-ext` argument: everything off, then the extensions and features.
pub fn clang_ext_arg() -> String {
    let mut s = String::from("-cl-ext=-all");
    for name in EXTENSIONS.iter().map(|e| e.name).chain(features()) {
        s.push_str(",+");
        s.push_str(name);
    }
    s
}

/// The space-separated names, as CL_DEVICE_EXTENSIONS reports them.
pub fn names() -> String {
    EXTENSIONS
        .iter()
        .map(|e| e.name)
        .collect::<Vec<_>>()
        .join(" ")
}
