//! `gencl info`: what an application would find, as clinfo shows it, and what clinfo cannot
//! show: where the service runs, how the device was chosen, the compiler build and the tools
//! and caches it uses.

use std::path::{Path, PathBuf};

use crate::client::{Connection, Mode};
use crate::service::server::socket_candidates;

/// The report, or why no device was found (the caller exits 1 with it).
pub fn report() -> Result<String, String> {
    let mut out = format!(
        "gencl {} (compiler {})\n",
        env!("CARGO_PKG_VERSION"),
        gencl_jit::binary::COMPILER_ID
    );
    let selection = std::env::var("GENCL_DEVICE").unwrap_or_else(|_| "auto".into());
    let conn = Connection::open()
        .map_err(|e| format!("no device: {e} (device selection: GENCL_DEVICE={selection})"))?;
    match (&conn.mode, &conn.socket) {
        (Mode::Service, Some(path)) => {
            out += &format!("service: gencld at {}\n", path.display());
        }
        _ => {
            let tried: Vec<String> = socket_candidates()
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            out += &format!(
                "service: in this process (embedded; no gencld answered at {})\n",
                tried.join(", ")
            );
        }
    }
    let d = &conn.device;
    let mib = |b: u64| b >> 20;
    out += &format!(
        "device: {}\n  PCI id {:#06x}; {} EUs in {} subslices, {} threads per EU ({} hardware \
         threads)\n  memory: {} MiB global, {} MiB largest allocation, {} KiB local; \
         work-groups of up to {}\n  timestamps: {} ns per tick\n  chosen by: \
         GENCL_DEVICE={selection}{}\n",
        d.name,
        d.chipset_id,
        d.eu_count,
        d.subslices,
        d.threads_per_eu,
        d.eu_count * d.threads_per_eu,
        mib(d.global_mem_bytes),
        mib(d.max_alloc_bytes),
        d.local_mem_bytes >> 10,
        d.max_work_group_size,
        d.timer_resolution_ns,
        if d.emulated {
            " (the emulated Gen9: a GPU model on the CPU)"
        } else {
            ""
        },
    );
    if d.compiler_id != gencl_jit::binary::COMPILER_ID {
        out += &format!(
            "  the service's compiler build is {} (this tool's: {})\n",
            d.compiler_id,
            gencl_jit::binary::COMPILER_ID
        );
    }
    out += "compiler:\n";
    for (tool, var) in [
        ("clang-15", "GENCL_CLANG"),
        ("llvm-spirv-15", "GENCL_LLVM_SPIRV"),
        ("llvm-as-15", "GENCL_LLVM_AS"),
        ("spirv-link", "GENCL_SPIRV_LINK"),
    ] {
        let name = std::env::var(var).unwrap_or_else(|_| tool.to_string());
        out += &format!(
            "  {tool}: {}\n",
            gencl_jit::frontend::clc::find_program(&name).map_or_else(
                || format!("{name}: not found (OpenCL C builds need it; {var} names another)"),
                |p| p.display().to_string()
            )
        );
    }
    out += &format!(
        "  gencl-clc: {}\n",
        gencl_jit::frontend::helper::current().map_or_else(
            || "none: clang-15, opt-15 and llvm-spirv-15 run as processes (GENCL_CLC_HELPER \
                names the helper)"
                .to_string(),
            |p| format!("{} (clang and LLVM kept loaded)", p.display())
        )
    );
    let libclc = std::env::var("GENCL_LIBCLC")
        .unwrap_or_else(|_| gencl_jit::frontend::library::DEFAULT_PATH.to_string());
    out += &format!(
        "  libclc: {libclc}{}\n",
        if Path::new(&libclc).exists() {
            ""
        } else {
            " (missing: built-ins will not resolve)"
        }
    );
    out += &format!("  built-in cache: {}\n", cache_state());
    out += &format!(
        "  program cache: {}\n",
        gencl_jit::program_cache::usage().map_or_else(
            || "off (GENCL_PROGRAM_CACHE=0, or no cache folder)".to_string(),
            |(dir, n, bytes)| format!(
                "{} ({n} programs, {:.1} MiB)",
                dir.display(),
                bytes as f64 / (1 << 20) as f64
            )
        )
    );
    if let Some(d) = gencl_jit::dump::dir() {
        out += &format!("  GENCL_DUMP: {}\n", d.display());
    }
    Ok(out)
}

/// Where the parsed built-in library is kept between processes, and how much is there.
fn cache_state() -> String {
    let Some(dir) = gencl_jit::frontend::library::cache_root() else {
        return "off (GENCL_LIBCLC_CACHE=0, or neither XDG_CACHE_HOME nor HOME set)".into();
    };
    let (mut files, mut bytes) = (0u64, 0u64);
    // Its folders are libclc-<key>; programs/ beside them is the program cache's, shown apart.
    let mut stack: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("libclc-"))
        .map(|e| e.path())
        .collect();
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                Ok(m) => {
                    files += 1;
                    bytes += m.len();
                }
                Err(_) => {}
            }
        }
    }
    format!(
        "{} ({files} files, {} KiB)",
        dir.display(),
        bytes.div_ceil(1024)
    )
}
