//! Builds the bridge to clang, LLVM 15 and LLVMSPIRVLib (src/shim.cpp) and links their shared
//! libraries. Without their development packages (Debian: llvm-15-dev, libclang-cpp15-dev,
//! libllvmspirvlib-15-dev) the helper is built to say so and exit, and the JIT runs the tools
//! as processes, as it does when no helper is found.
use std::path::Path;
use std::process::Command;

fn query(tool: &str, arg: &str) -> Option<String> {
    let out = Command::new(tool).arg(arg).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn unavailable(why: &str) {
    println!("cargo:warning=gencl-clc without the in-process compiler: {why}");
    println!("cargo:rustc-cfg=gencl_clc_unavailable");
    println!("cargo:rustc-env=GENCL_CLC_UNAVAILABLE={why}");
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(gencl_clc_unavailable)");
    println!("cargo:rerun-if-changed=src/shim.cpp");
    println!("cargo:rerun-if-env-changed=GENCL_LLVM_CONFIG");
    let config = std::env::var("GENCL_LLVM_CONFIG").unwrap_or_else(|_| "llvm-config-15".into());
    let (Some(include), Some(libdir)) =
        (query(&config, "--includedir"), query(&config, "--libdir"))
    else {
        return unavailable("llvm-config-15 not found (Debian package llvm-15-dev)");
    };
    let spirv_include = "/usr/include";
    let needed = [
        (
            Path::new(&include).join("clang/FrontendTool/Utils.h"),
            "libclang-cpp15-dev and libclang-15-dev",
        ),
        (
            Path::new(&include).join("llvm/Passes/PassBuilder.h"),
            "llvm-15-dev",
        ),
        (
            Path::new(spirv_include).join("LLVMSPIRVLib/LLVMSPIRVLib.h"),
            "libllvmspirvlib-15-dev",
        ),
    ];
    for (header, package) in &needed {
        if !header.exists() {
            return unavailable(&format!(
                "{} is missing (Debian package {package})",
                header.display()
            ));
        }
    }
    // clang-15's own header folder (opencl-c-base.h): the in-process compiler must find the
    // headers the clang-15 process finds.
    let Some(resource_dir) = query("clang-15", "-print-resource-dir") else {
        return unavailable("clang-15 not found (Debian package clang-15)");
    };
    cc::Build::new()
        .cpp(true)
        .file("src/shim.cpp")
        .include(&include)
        .include(spirv_include)
        .flag("-std=c++17")
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        // LLVM's own headers warn under -Wall (unused parameters and the like).
        .warnings(false)
        .compile("gencl_clc_shim");
    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
    for lib in ["clang-cpp", "LLVM-15", "LLVMSPIRVLib", "stdc++"] {
        println!("cargo:rustc-link-lib=dylib={lib}");
    }
    println!("cargo:rustc-env=GENCL_CLANG_RESOURCE_DIR={resource_dir}");
}
