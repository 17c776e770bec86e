//! The JIT's entry point: source or IL in, a `ProgramBinary` out. Runs the
//! stages in order: front end, IR passes, instruction selection, register
//! allocation, emission.

use thiserror::Error;

use crate::abi::{self, AddressQualifier, ArgKind, KernelArg, KernelBinary, ProgramBinary};
use crate::frontend::{self, clc, lower, lower::LoweredKernel, FrontendError};
use crate::isel::{self, Layout};
use crate::{emit, passes, regalloc};

/// What `clCreateProgramWith*` handed in.
#[derive(Debug, Clone, Copy)]
pub enum CompileInput<'a> {
    /// OpenCL C source text.
    OpenClC(&'a str),
    /// A SPIR-V module (bytes, either endianness).
    SpirV(&'a [u8]),
    /// LLVM 15 IR, bitcode or text.
    LlvmIr(&'a [u8]),
    /// A program binary from clCreateProgramWithBinary: gencl's own (`crate::binary`), or LLVM
    /// bitcode (as cl_khr_spir hands it in), told apart by their magic. Untrusted.
    Binary(&'a [u8]),
}

/// A failed build; `log` is what clGetProgramBuildInfo(CL_PROGRAM_BUILD_LOG) shows.
#[derive(Debug, Clone, Error)]
#[error("build failed: {log}")]
pub struct BuildError {
    pub log: String,
    /// true when the options string itself was invalid (CL_INVALID_BUILD_OPTIONS).
    pub invalid_options: bool,
}

impl BuildError {
    fn log(log: impl Into<String>) -> BuildError {
        BuildError {
            log: log.into(),
            invalid_options: false,
        }
    }
}

impl From<FrontendError> for BuildError {
    fn from(e: FrontendError) -> Self {
        BuildError::log(e.to_string())
    }
}

fn opt_level(opts: &clc::ClcOptions) -> frontend::llvm::OptLevel {
    if clc::opt_disabled(opts) {
        frontend::llvm::OptLevel::None
    } else {
        frontend::llvm::OptLevel::O2
    }
}

/// Compile every kernel of a program for Gen9.
pub fn compile(input: CompileInput<'_>, options: &str) -> Result<ProgramBinary, BuildError> {
    compile_specialized(input, options, &[])
}

/// `compile`, with the values clSetProgramSpecializationConstant gave for SPIR-V's
/// specialization constants (`(SpecId, bytes)`; the rest keep their defaults).
pub fn compile_specialized(
    input: CompileInput<'_>,
    options: &str,
    spec: &[(u32, Vec<u8>)],
) -> Result<ProgramBinary, BuildError> {
    let mut opts = clc::parse_options(options).map_err(|log| BuildError {
        log,
        invalid_options: true,
    })?;
    if crate::dump::dir().is_some() {
        let (bytes, ext): (&[u8], &str) = match input {
            CompileInput::OpenClC(src) => (src.as_bytes(), "cl"),
            CompileInput::SpirV(b) => (b, "input.spv"),
            CompileInput::LlvmIr(b) => (b, "ll"),
            CompileInput::Binary(b) => (b, "input.bin"),
        };
        let name = crate::dump::program_name(bytes, options);
        crate::dump::write(&format!("{name}.{ext}"), bytes);
        crate::dump::write(&format!("{name}.options"), options.as_bytes());
        opts.dump = Some(name);
    }
    let spirv_bytes;
    let spirv: &[u8] = match input {
        CompileInput::OpenClC(src) => {
            spirv_bytes = clc::compile_to_spirv(src, &opts)?;
            &spirv_bytes
        }
        CompileInput::SpirV(b) => b,
        CompileInput::LlvmIr(ir) => {
            spirv_bytes = frontend::llvm::to_spirv(ir, opt_level(&opts))?;
            &spirv_bytes
        }
        CompileInput::Binary(b) if frontend::llvm::is_bitcode(b) => {
            spirv_bytes = frontend::llvm::to_spirv(b, opt_level(&opts))?;
            &spirv_bytes
        }
        CompileInput::Binary(b) => {
            // The code was compiled when the binary was made; what remains is to check it.
            return crate::binary::decode(b).map_err(|e| BuildError::log(e.to_string()));
        }
    };
    if let Some(name) = &opts.dump {
        crate::dump::write(&format!("{name}.spv"), spirv);
    }
    let (mut kernels, globals) = compile_spirv_program(spirv, spec, &opts)?;
    if let CompileInput::OpenClC(src) = input {
        kernels = with_source_lines(kernels, src, spec, &opts)?;
    }
    let mut out = Vec::new();
    let mut log = String::new();
    for (name, k) in kernels {
        match k {
            Ok(bin) => out.push(bin),
            Err(e) => log.push_str(&format!("kernel '{name}': {e}\n")),
        }
    }
    if !log.is_empty() {
        return Err(BuildError::log(log));
    }
    // What a successful build reports per kernel (CL_PROGRAM_BUILD_LOG, `gencl compile`).
    let build_log = out.iter().map(|k| stats_line(k) + "\n").collect();
    Ok(ProgramBinary {
        kernels: out,
        build_log,
        globals,
    })
}

/// One kernel's figures: SIMD width, registers, spills, instructions.
pub fn stats_line(k: &KernelBinary) -> String {
    let mut insts = 0;
    let mut at = 0;
    while let Some(len) = k.isa.get(at..).and_then(crate::isa::gen9::instruction_len) {
        at += len;
        insts += 1;
    }
    format!(
        "kernel '{}': SIMD{}, {} GRFs used, {} bytes private, {} bytes spilled, {} instructions \
         ({} bytes)",
        k.name,
        k.simd,
        k.grfs_used,
        k.private_bytes,
        k.spill_bytes(),
        insts,
        k.isa.len()
    )
}

/// One kernel's build: its binary, or the reason it failed.
pub type KernelResult = Result<KernelBinary, String>;

/// clCompileProgram: OpenCL C (with its embedded headers, `(include name, text)`) or SPIR-V to
/// a compiled object, which is SPIR-V with its functions' linkage kept. IL is checked and kept
/// as it is ("If program was created with clCreateProgramWithIL, then num_input_headers,
/// input_headers, and header_include_names are ignored").
pub fn compile_object(
    input: CompileInput<'_>,
    options: &str,
    headers: &[(String, String)],
) -> Result<Vec<u8>, BuildError> {
    let opts = clc::parse_options(options).map_err(|log| BuildError {
        log,
        invalid_options: true,
    })?;
    match input {
        CompileInput::OpenClC(src) => Ok(clc::compile_with_headers(src, &opts, headers)?),
        CompileInput::SpirV(b) => {
            frontend::spirv::load(b)?;
            Ok(b.to_vec())
        }
        CompileInput::LlvmIr(ir) => Ok(frontend::llvm::to_spirv(ir, opt_level(&opts))?),
        CompileInput::Binary(_) => Err(BuildError::log(
            "a program created from a binary has nothing to compile",
        )),
    }
}

/// What clLinkProgram makes.
pub enum Linked {
    /// `-create-library`: the linked SPIR-V, still a library.
    Library(Vec<u8>),
    /// An executable: the linked SPIR-V and its build.
    Executable(Vec<u8>, ProgramBinary),
}

/// clLinkProgram: compiled objects and libraries (SPIR-V) linked into a library or an
/// executable. An options error says so (`invalid_options`: CL_INVALID_LINKER_OPTIONS).
pub fn link_programs(modules: &[Vec<u8>], options: &str) -> Result<Linked, BuildError> {
    let opts = frontend::link::parse_link_options(options).map_err(|log| BuildError {
        log,
        invalid_options: true,
    })?;
    for m in modules {
        frontend::spirv::load(m)?;
    }
    let il = frontend::link::link(modules, opts.create_library)?;
    if opts.create_library {
        return Ok(Linked::Library(il));
    }
    let bin = compile(CompileInput::SpirV(&il), &opts.build_options.join(" "))?;
    Ok(Linked::Executable(il, bin))
}

/// Compile every kernel of a program separately: a kernel that fails does not stop the others
/// (for tools and tests that report per kernel; `compile` fails the whole program).
pub fn compile_each(
    input: CompileInput<'_>,
    options: &str,
) -> Result<Vec<(String, KernelResult)>, BuildError> {
    Ok(compile_program_each(input, options)?.0)
}

/// `compile_each`, and the program's global variables, which its kernels share.
pub fn compile_program_each(
    input: CompileInput<'_>,
    options: &str,
) -> Result<(Vec<(String, KernelResult)>, crate::abi::ProgramGlobals), BuildError> {
    let opts = clc::parse_options(options).map_err(|log| BuildError {
        log,
        invalid_options: true,
    })?;
    let spirv = match input {
        CompileInput::OpenClC(src) => {
            let spirv = clc::compile_to_spirv(src, &opts)?;
            let (kernels, globals) = compile_spirv_program(&spirv, &[], &opts)?;
            return Ok((with_source_lines(kernels, src, &[], &opts)?, globals));
        }
        CompileInput::SpirV(b) => b.to_vec(),
        CompileInput::LlvmIr(ir) => frontend::llvm::to_spirv(ir, opt_level(&opts))?,
        CompileInput::Binary(_) => {
            return Err(BuildError::log(
                "compile_each takes source or IL, not a binary",
            ))
        }
    };
    compile_spirv_program(&spirv, &[], &opts)
}

/// When a kernel of an OpenCL C program fails in the JIT and the build had no line tables,
/// the program is built again with them (`-g`), so that the log names the source line of what
/// failed; the first build stays fast, and only a failing one pays for the second.
fn with_source_lines(
    kernels: Vec<(String, KernelResult)>,
    src: &str,
    spec: &[(u32, Vec<u8>)],
    opts: &clc::ClcOptions,
) -> Result<Vec<(String, KernelResult)>, BuildError> {
    if opts.line_tables || kernels.iter().all(|(_, k)| k.is_ok()) {
        return Ok(kernels);
    }
    let mut located = opts.clone();
    located.line_tables = true;
    let Ok(spirv) = clc::compile_to_spirv(src, &located) else {
        return Ok(kernels);
    };
    let Ok(again) = compile_spirv_each(&spirv, spec, &located) else {
        return Ok(kernels);
    };
    // Kernel by kernel: the located error where the second build failed the same kernel.
    Ok(kernels
        .into_iter()
        .map(|(name, k)| {
            let k = match k {
                Err(e) => Err(again
                    .iter()
                    .find(|(n, _)| *n == name)
                    .and_then(|(_, r)| r.as_ref().err().cloned())
                    .unwrap_or(e)),
                ok => ok,
            };
            (name, k)
        })
        .collect())
}

fn compile_spirv_each(
    spirv: &[u8],
    spec: &[(u32, Vec<u8>)],
    opts: &clc::ClcOptions,
) -> Result<Vec<(String, KernelResult)>, BuildError> {
    Ok(compile_spirv_program(spirv, spec, opts)?.0)
}

/// Every kernel of the module, each on its own, and the program's global variables.
fn compile_spirv_program(
    spirv: &[u8],
    spec: &[(u32, Vec<u8>)],
    opts: &clc::ClcOptions,
) -> Result<(Vec<(String, KernelResult)>, crate::abi::ProgramGlobals), BuildError> {
    let mut module = frontend::spirv::load(spirv)?;
    frontend::spirv::specialize(&mut module.module, spec)?;
    let chosen = lower::width_choice() == lower::WidthChoice::Chosen;
    let (kernels, globals) = lower::lower_program(&module, lower::first_width())?;
    // Lowered again at SIMD8 on the first kernel that needs it; and at the first width
    // again for a kernel whose two widths both spill.
    let (mut narrow, mut wider) = (None, None);
    let spills = |r: &KernelResult| r.as_ref().map_or(u32::MAX, |k| k.spill_bytes());
    // A kernel's build, and whether it stopped because its registers would spill.
    let build = |k: lower::KernelLowering, may_spill: bool| -> (KernelResult, bool) {
        match k.map(|k| compile_kernel(k, opts, may_spill)) {
            Err(e) => (Err(e.to_string()), false),
            Ok(r) => {
                let would_spill = matches!(r, Err(KernelError::WouldSpill));
                (r.map_err(|e| e.to_string()), would_spill)
            }
        }
    };
    let mut out = Vec::new();
    for (name, k) in kernels {
        // A chosen width: a kernel whose SIMD16 code spills, or does not build, is built again
        // at SIMD8 and keeps the build that spills less (IGC compiles both and keeps SIMD16
        // unless it spills). A kernel that asked for its width keeps it.
        let retry = chosen && !matches!(&k, Ok(k) if k.required_sub_group_size.is_some());
        // Where SIMD8 is the fallback, the wide build is first tried without spilling: a
        // spilling allocation is a scan of the whole kernel per register it spills, which
        // for a kernel that spills dozens (the CTS's unrolled 64-bit local atomics at
        // SIMD16) was most of the build, and then thrown away for SIMD8's.
        let (wide, would_spill) = build(k, !retry);
        if !retry || spills(&wide) == 0 {
            out.push((name, wide));
            continue;
        }
        // An internal error at SIMD16 (illegal code the validator caught) is a compiler bug
        // that the SIMD8 build may not have: said, so that the fallback hides nothing; where
        // the verifier runs (tests, GENCL_VERIFY_IR) it fails the build.
        if passes::PassOptions::default().verify
            && matches!(&wide, Err(e) if e.contains("internal"))
        {
            out.push((name, wide));
            continue;
        }
        match &wide {
            Err(e) if e.contains("internal") => {
                tracing::warn!(kernel = %name, error = %e, "the SIMD16 build failed; building at SIMD8")
            }
            Err(e) => {
                tracing::debug!(kernel = %name, error = %e, "no SIMD16 build; building at SIMD8")
            }
            Ok(_) => {}
        }
        let r8 = match relowered(&mut narrow, &module, 8, &name)? {
            Some(Ok(k8)) if k8.required_sub_group_size.is_none() => Some(build(Ok(k8), true).0),
            _ => None,
        };
        // Both widths spill (or SIMD8 does not build): the wide build with its spills, to
        // keep the one that spills less.
        let wide = if would_spill && r8.as_ref().is_none_or(|r| spills(r) > 0) {
            match relowered(&mut wider, &module, lower::first_width(), &name)? {
                Some(k) => build(k, true).0,
                None => wide,
            }
        } else {
            wide
        };
        let r = match r8 {
            Some(r8) if spills(&r8) < spills(&wide) => r8,
            _ => wide,
        };
        out.push((name, r));
    }
    Ok((out, globals))
}

/// Kernel `name` of `module` lowered at `width`: the program's kernels are lowered together
/// into `cache` at the first that asks, and each taken from it once.
fn relowered(
    cache: &mut Option<std::collections::HashMap<String, lower::KernelLowering>>,
    module: &frontend::spirv::Module,
    width: u8,
    name: &str,
) -> Result<Option<lower::KernelLowering>, BuildError> {
    if cache.is_none() {
        *cache = Some(lower::lower_program(module, width)?.0.into_iter().collect());
    }
    Ok(cache.as_mut().and_then(|c| c.remove(name)))
}

#[derive(Debug, Error)]
enum KernelError {
    #[error("{0}")]
    Passes(String),
    #[error(transparent)]
    Isel(#[from] isel::IselError),
    #[error(transparent)]
    Regalloc(#[from] regalloc::RegallocError),
    #[error(transparent)]
    Emit(#[from] emit::EmitError),
    #[error("the kernel's registers do not fit without spilling")]
    WouldSpill,
    #[error("the kernel's __local variables and the compiler's own words ({0} bytes) exceed the device's {max} bytes of local memory", max = abi::SLM_BYTES)]
    LocalMemory(u32),
}

/// Kernel `k` built at its width; with `may_spill` false, `KernelError::WouldSpill` where its
/// registers do not fit without spilling.
fn compile_kernel(
    k: LoweredKernel,
    opts: &clc::ClcOptions,
    may_spill: bool,
) -> Result<KernelBinary, KernelError> {
    let LoweredKernel {
        mut func,
        args,
        required_wg_size,
        simd,
        width_free,
        required_sub_group_size,
        attributes,
        constant_data,
        library_data,
        printf,
        samplers,
    } = k;
    passes::run(&mut func, passes::PassOptions::default()).map_err(KernelError::Passes)?;
    // A pass may have taken a word of SLM (`passes::local_atomics64`).
    if func.slm_bytes > abi::SLM_BYTES {
        return Err(KernelError::LocalMemory(func.slm_bytes));
    }
    if let Some(name) = &opts.dump {
        let ir = crate::ir::print::print(&func);
        crate::dump::write(&format!("{name}.{}.ir", func.name), ir.as_bytes());
    }
    // The gateway's barrier only where the kernel still has one after the passes.
    let barriers = func
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|v| func.inst(*v).op == crate::ir::Op::Barrier);
    let uniform = passes::uniform::analyse(&func);

    // Arguments after the implicit values, each aligned to its size.
    let mut off = abi::FIRST_ARG;
    let mut kargs = Vec::new();
    let mut arg_offsets = Vec::new();
    for a in &args {
        let size = a.size.max(1);
        off = abi::place_arg(off, size);
        arg_offsets.push(off);
        let n = arg_offsets.len() as u32 - 1;
        let kind = if let Some(shape) = a.image {
            // Images take binding-table indices from 0 in argument order (buffers are
            // reached by address, stateless).
            let bti = args[..n as usize]
                .iter()
                .filter(|b| b.image.is_some())
                .count();
            ArgKind::Image {
                bti: bti as u8,
                image: shape.arg(),
            }
        } else if a.sampler {
            let k = samplers
                .iter()
                .position(|s| *s == crate::frontend::lower::SamplerSlot::Arg(n))
                .unwrap_or(0);
            ArgKind::Sampler {
                state_offset: SAMPLER_STATES + 16 * k as u32,
            }
        } else {
            match a.address {
                AddressQualifier::Global | AddressQualifier::Constant => {
                    ArgKind::Buffer { bti: None }
                }
                AddressQualifier::Local => ArgKind::Local,
                AddressQualifier::Private => ArgKind::Value,
            }
        };
        kargs.push(KernelArg {
            name: a.name.clone(),
            type_name: a.type_name.clone(),
            kind,
            address: a.address,
            size: a.size,
            curbe_offset: off,
            pieces: Vec::new(),
            type_qualifier: a.type_qualifier.unwrap_or(
                if a.is_const && a.address != AddressQualifier::Private {
                    1
                } else {
                    0
                },
            ),
            object_params: Vec::new(),
        });
        off += size;
    }
    // The image values the kernel reads (width, format, ...), after the arguments.
    let mut image_params: Vec<((u32, abi::ObjectParam), u32)> = Vec::new();
    for b in &func.blocks {
        for v in &b.insts {
            if let crate::ir::Op::ImageParam { arg, param } = func.inst(*v).op {
                if !image_params.iter().any(|(k, _)| *k == (arg, param)) {
                    off = abi::place_arg(off, 4);
                    image_params.push(((arg, param), off));
                    off += 4;
                }
            }
        }
    }
    for &((arg, param), at) in &image_params {
        if let Some(k) = kargs.get_mut(arg as usize) {
            k.object_params.push((param, at));
        }
    }
    let image_btis: Vec<Option<u8>> = kargs
        .iter()
        .map(|k| match k.kind {
            ArgKind::Image { bti, .. } => Some(bti),
            _ => None,
        })
        .collect();
    // Buffer arguments reached through their binding-table surfaces (32-bit offsets,
    // docs/jit.md "Buffers through binding-table surfaces"): indices after the images', in
    // argument order, as far as the table goes (the rest stay stateless).
    let mut buffer_btis: Vec<Option<u8>> = vec![None; kargs.len()];
    let mut next_bti = image_btis.iter().flatten().count();
    for k in crate::analysis::addresses::surface_args(&func) {
        let Some(karg) = kargs.get_mut(k as usize) else {
            continue;
        };
        if next_bti >= abi::SURFACE_BTIS || !matches!(karg.kind, ArgKind::Buffer { .. }) {
            continue;
        }
        karg.kind = ArgKind::Buffer {
            bti: Some(next_bti as u8),
        };
        buffer_btis[k as usize] = Some(next_bti as u8);
        next_bti += 1;
    }
    // The sampler states: the border colour (transparent black) at 0, then the array; the
    // runtime writes each argument's state and each inline sampler's.
    let sampler_heap = (!samplers.is_empty()).then(|| abi::SamplerHeap {
        heap: vec![0; (SAMPLER_STATES + 16 * samplers.len() as u32) as usize],
        state_offset: SAMPLER_STATES,
        count: samplers.len() as u32,
        border_offset: 0,
        inline: samplers
            .iter()
            .enumerate()
            .filter_map(|(k, s)| match *s {
                crate::frontend::lower::SamplerSlot::Inline {
                    normalized,
                    addressing,
                    filter,
                } => Some(abi::InlineSampler {
                    index: k as u32,
                    normalized,
                    addressing,
                    filter,
                }),
                crate::frontend::lower::SamplerSlot::Arg(_) => None,
            })
            .collect(),
    });
    // The addresses of the program's __constant data and the library's, after the arguments.
    let mut data_buffers = Vec::new();
    let mut const_data = Vec::new();
    for data in std::iter::once(constant_data).chain(library_data) {
        const_data.push(if data.is_empty() {
            None
        } else {
            off = abi::place_arg(off, 8);
            data_buffers.push(abi::DataBuffer {
                data,
                curbe_offset: off,
                bti: None,
            });
            off += 8;
            Some(off - 8)
        });
    }
    // A buffer address the launch pushes, placed after what is there when the kernel still
    // reads `op` after the passes.
    let reads = |op: crate::ir::Op| {
        func.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .any(|v| func.inst(*v).op == op)
    };
    let mut pushed_address = |wanted: bool| {
        wanted.then(|| {
            off = abi::place_arg(off, 8) + 8;
            off - 8
        })
    };
    // The program's global variables' address, and the scratch space's (a private pointer
    // turned generic is an address in it).
    let globals_offset = pushed_address(reads(crate::ir::Op::GlobalVars));
    let scratch_base_offset = pushed_address(reads(crate::ir::Op::ScratchBase));
    // The printf buffer's address, last, if a printf call survived the passes.
    let printf = pushed_address(!printf.is_empty() && reads(crate::ir::Op::PrintfBuffer)).map(
        |curbe_offset| abi::Printf {
            curbe_offset,
            formats: printf,
        },
    );
    let cross_thread_bytes = off.div_ceil(32) * 32;
    let layout_at = |simd: u8| {
        let cross_thread_grf = abi::cross_thread_grf(u32::from(simd));
        Layout {
            simd,
            cross_thread_grf: cross_thread_grf as u8,
            arg_offsets: arg_offsets.clone(),
            global_offset: abi::GLOBAL_OFFSET,
            local_size: abi::ENQUEUED_LOCAL_SIZE,
            global_size: abi::GLOBAL_SIZE,
            num_groups: abi::NUM_GROUPS,
            work_dim: abi::WORK_DIM,
            payload_grfs: (cross_thread_grf + cross_thread_bytes / 32) as u8,
            const_data: const_data.clone(),
            printf_buffer: printf.as_ref().map(|p| p.curbe_offset),
            global_vars: globals_offset,
            scratch_base: scratch_base_offset,
            flush_f32_denorms: opts.denorms_are_zero,
            image_btis: image_btis.clone(),
            buffer_btis: buffer_btis.clone(),
            image_params: image_params.clone(),
        }
    };
    // SIMD32 where the kernel is worth it (`analysis::simd32`, IGC's rule) and its code fits
    // the registers without spilling, else the width it was lowered at. Only code that did
    // not read its width (no sub-group functions) is selected at another one.
    let simd32 = simd == 16
        && width_free
        && required_sub_group_size.is_none()
        && match lower::width_choice() {
            lower::WidthChoice::Chosen => {
                crate::analysis::simd32::profitable(&func, &uniform, required_wg_size)
                    .map_err(|why| tracing::debug!(kernel = %func.name, why, "not SIMD32"))
                    .is_ok()
            }
            // GENCL_SIMD=32: every kernel without sub-group functions.
            lower::WidthChoice::Fixed(w) => {
                w == 32 && crate::analysis::simd32::lanes_independent(&func).is_ok()
            }
        };
    let mut built = None;
    if simd32 {
        match machine_code(&func, uniform.clone(), &layout_at(32), Attempt::Simd32) {
            Ok(Some(b)) => built = Some((32, b)),
            Ok(None) => tracing::debug!(kernel = %func.name, "SIMD32 code not kept; SIMD16"),
            // An internal error (illegal code the verifier caught) is a compiler bug the
            // SIMD16 build may not have: said, so that the fallback hides nothing; where the
            // verifier runs (tests, GENCL_VERIFY_IR) it fails the build.
            Err(e) if e.to_string().contains("internal") => {
                if passes::PassOptions::default().verify {
                    return Err(e);
                }
                tracing::warn!(kernel = %func.name, error = %e, "the SIMD32 build failed; SIMD16")
            }
            Err(e) => tracing::debug!(kernel = %func.name, error = %e, "no SIMD32 build"),
        }
    }
    let (simd, (mfunc, assignment, uses_local_ids)) = match built {
        Some(b) => b,
        None => {
            let attempt = if may_spill {
                Attempt::Spill
            } else {
                Attempt::NoSpill
            };
            match machine_code(&func, uniform, &layout_at(simd), attempt)? {
                Some(b) => (simd, b),
                None if may_spill => unreachable!("an allocation that may spill always answers"),
                None => return Err(KernelError::WouldSpill),
            }
        }
    };
    // GENCL_NO_COMPACT=1 emits every instruction native (a debugging aid).
    let emit_opts = emit::EmitOptions {
        compact: std::env::var_os("GENCL_NO_COMPACT").is_none_or(|v| v.is_empty() || v == "0"),
    };
    let isa = emit::emit_with(&mfunc, &assignment, emit_opts)?;
    if let Some(name) = &opts.dump {
        let asm = gencl_isa::gen9::disasm_kernel(&isa).unwrap_or_else(|e| format!("{e}\n"));
        crate::dump::write(&format!("{name}.{}.asm", func.name), asm.as_bytes());
    }
    let implicit = abi::implicit_args();
    Ok(KernelBinary {
        name: func.name.clone(),
        isa,
        simd: u32::from(simd),
        grf_count: assignment.grf_count,
        grfs_used: assignment.grfs_used,
        args: kargs,
        cross_thread_bytes,
        implicit,
        uses_local_ids,
        slm_bytes: func.slm_bytes,
        scratch_bytes: assignment.scratch_bytes,
        private_bytes: func.private_bytes,
        // MEDIA_VFE_STATE's Per Thread Scratch Space: 1 KiB << n (some, for a kernel that
        // turns a private pointer generic, even one that points at nothing).
        scratch_per_thread: if assignment.scratch_bytes == 0 && scratch_base_offset.is_none() {
            0
        } else {
            assignment.scratch_bytes.max(1024).next_power_of_two()
        },
        barriers,
        data_buffers,
        printf,
        globals_offset,
        scratch_base_offset,
        required_wg_size,
        required_sub_group_size,
        attributes,
        samplers: sampler_heap,
    })
}

/// Whether machine code `m` does 64-bit work per lane (an instruction of eight or more lanes
/// with a qword destination: 64-bit integers, doubles, 64-bit addresses). At SIMD32 each
/// such instruction is four SIMD8 quarters; on the bench's corpus every kernel whose SIMD32
/// code did such work ran slower on the model than its SIMD16 code (docs/jit.md, "SIMD32"),
/// so it is built at SIMD16. IGC computes a buffer's addresses in 32 bits and keeps these.
fn lane_qwords(m: &crate::mir::MFunction) -> bool {
    m.items.iter().any(|it| {
        matches!(it, crate::mir::Item::Inst(mi)
            if mi.inst.exec_size >= 8 && mi.inst.dst.as_ref().is_some_and(|d| d.ty.size() == 8))
    })
}

/// What a `machine_code` attempt may give up on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attempt {
    /// The SIMD32 attempt: none where the code does 64-bit work per lane or would spill.
    Simd32,
    /// None where the registers do not fit without spilling.
    NoSpill,
    /// Spills as it must: always an answer.
    Spill,
}

/// Machine code for `func` at `layout`'s width: selected, scheduled and allocated; `None`
/// when the attempt is SIMD32's and the selected code does 64-bit work per lane
/// (`lane_qwords`, found before scheduling and allocation are paid for), or it may not spill
/// and its registers do not fit without spilling.
fn machine_code(
    func: &crate::ir::Function,
    uniform: Vec<bool>,
    layout: &Layout,
    attempt: Attempt,
) -> Result<Option<(crate::mir::MFunction, regalloc::Assignment, bool)>, KernelError> {
    let may_spill = attempt == Attempt::Spill;
    let (mut mfunc, uses_local_ids) = isel::select(func, uniform, layout)?;
    let folded = crate::mir::fold_copies::fold_copies(&mut mfunc);
    tracing::trace!(kernel = %func.name, folded, "copies folded into their sources");
    // The machine IR's verifier where the IR's runs (debug builds, tests, GENCL_VERIFY_IR).
    let verify = passes::PassOptions::default().verify;
    let mir_error = |after: &str, e: String| {
        KernelError::Passes(format!(
            "internal compiler error: the machine IR is invalid after {after}: {e}"
        ))
    };
    if verify {
        crate::mir::verify::verify(&mfunc).map_err(|e| mir_error("instruction selection", e))?;
    }
    if attempt == Attempt::Simd32 && lane_qwords(&mfunc) {
        tracing::debug!(kernel = %func.name, "64-bit work per lane");
        return Ok(None);
    }
    // Scheduled code is kept if it allocates without spilling: loose first, then under
    // tighter register pressure, and at last the order selection made, allocated with
    // whatever spills it needs (Mesa's scheduler, too, tries its modes in turn until one
    // allocates). A mode is tried with one allocation scan; only the last pays for spills.
    let mut assignment = None;
    if crate::schedule::enabled() {
        for pressure in [
            crate::schedule::Pressure::Loose,
            crate::schedule::Pressure::Tight,
        ] {
            let mut m = mfunc.clone();
            if !crate::schedule::schedule(&mut m, pressure) {
                // Nothing moved (or the code cannot fit the registers in any order).
                break;
            }
            if verify {
                crate::mir::verify::verify(&m).map_err(|e| mir_error("scheduling", e))?;
            }
            if let Some(a) = regalloc::allocate_without_spilling(&m) {
                (mfunc, assignment) = (m, Some(a));
                break;
            }
            tracing::debug!(kernel = %func.name, simd = layout.simd, ?pressure, "this schedule spills");
        }
    }
    let assignment = match assignment {
        Some(a) => a,
        None if may_spill => regalloc::allocate(&mut mfunc)?,
        None => match regalloc::allocate_without_spilling(&mfunc) {
            Some(a) => a,
            None => return Ok(None),
        },
    };
    if verify {
        crate::mir::verify::verify(&mfunc).map_err(|e| mir_error("register allocation", e))?;
        crate::mir::verify::verify_assigned(&mfunc, &assignment.base)
            .map_err(|e| mir_error("register allocation", e))?;
    }
    Ok(Some((mfunc, assignment, uses_local_ids)))
}

/// Where a kernel's SAMPLER_STATE array starts in its sampler heap (after the border colour,
/// which SAMPLER_STATE's pointer wants 64-byte aligned).
const SAMPLER_STATES: u32 = 64;
