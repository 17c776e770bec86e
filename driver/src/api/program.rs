//! Program objects (OpenCL 3.0 §5.8). Building happens in the service (the JIT); the client
//! keeps the kernel descriptors the build returned and answers every query from them.

use super::info::{self, val, Info};
use super::object::{get, Ref};
use super::runtime::{check_device, connection, device_id};
use super::types::*;
use super::util::{c_str, entry, entry_ptr, slice, write_opt, ClResult};
use crate::client::ClientError;
use crate::core::context::Context;
use crate::core::program::Outcome;
use crate::core::program::{Build, Origin, Program};
use crate::protocol::{ErrorCode, ProgramSource, Request, Response};
use parking_lot::Mutex;
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicU32, Ordering};

fn new_program(context: cl_context, origin: Origin, source: ProgramSource) -> ClResult<cl_program> {
    let ctx = get::<Context>(context)?;
    Ok(Ref::new_handle(Program {
        context: ctx,
        origin,
        source,
        build: Mutex::new(Build {
            status: CL_BUILD_NONE,
            ..Build::default()
        }),
        kernels_attached: AtomicU32::new(0),
    }))
}

pub unsafe extern "C" fn clCreateProgramWithSource(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    entry_ptr(errcode_ret, || {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        get::<Context>(context)?;
        // "CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL."
        if count == 0 || strings.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: strings has `count` entries; lengths is NULL or has `count` entries.
        let strs = unsafe { slice(strings.cast_const(), count as usize) };
        // SAFETY: as above.
        let lens = unsafe { slice(lengths, count as usize) };
        let mut src = String::new();
        for (i, &s) in strs.iter().enumerate() {
            if s.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // "If an element in lengths is zero, its accompanying string is null-terminated. If
            // lengths is NULL, all strings in the strings argument are considered null-terminated."
            match lens.get(i).copied().filter(|&l| l != 0) {
                Some(l) => {
                    // SAFETY: the application says this string has l bytes.
                    let b = unsafe { std::slice::from_raw_parts(s.cast::<u8>(), l) };
                    src.push_str(&String::from_utf8_lossy(b));
                }
                // SAFETY: NUL-terminated per the rule quoted above.
                None => src.push_str(&unsafe { c_str(s) }.unwrap_or_default()),
            }
        }
        new_program(context, Origin::Source, ProgramSource::OpenClC(src))
    })
}

const SPIRV_MAGIC: u32 = 0x0723_0203;

/// A SPIR-V module's first word, in either byte order.
fn is_spirv(bytes: &[u8]) -> bool {
    bytes.len() >= 20
        && bytes.len().is_multiple_of(4)
        && bytes.get(..4).is_some_and(|m| {
            let m: [u8; 4] = m.try_into().unwrap_or_default();
            u32::from_le_bytes(m) == SPIRV_MAGIC || u32::from_be_bytes(m) == SPIRV_MAGIC
        })
}

pub unsafe extern "C" fn clCreateProgramWithIL(
    context: cl_context,
    il: *const c_void,
    length: usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    entry_ptr(errcode_ret, || {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        get::<Context>(context)?;
        // "CL_INVALID_VALUE if il is NULL or if length is zero."
        if il.is_null() || length == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: il points to `length` bytes per the spec.
        let bytes = unsafe { std::slice::from_raw_parts(il.cast::<u8>(), length) }.to_vec();
        // "CL_INVALID_VALUE if the length-byte memory pointed to by il does not contain
        // well-formed intermediate language input": a SPIR-V header is 5 words, magic first
        // (in either byte order).
        let magic = bytes.get(..4).map(|m| {
            [
                u32::from_le_bytes(m.try_into().unwrap_or_default()),
                u32::from_be_bytes(m.try_into().unwrap_or_default()),
            ]
        });
        if !length.is_multiple_of(4)
            || length < 20
            || !magic.is_some_and(|m| m.contains(&SPIRV_MAGIC))
        {
            return Err(CL_INVALID_VALUE);
        }
        new_program(context, Origin::Il, ProgramSource::SpirV(bytes))
    })
}

pub unsafe extern "C" fn clCreateProgramWithBinary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const usize,
    binaries: *mut *const u8,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> cl_program {
    entry_ptr(errcode_ret, || {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        get::<Context>(context)?;
        // "CL_INVALID_VALUE if device_list is NULL or num_devices is zero."
        if device_list.is_null() || num_devices == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with context."
        // SAFETY: device_list has num_devices entries per the spec.
        let devices = unsafe { slice(device_list, num_devices as usize) };
        for &d in devices {
            check_device(d)?;
        }
        // A device named twice would get two binaries for one program: the spec's "list of
        // devices" is a set.
        if num_devices > 1 {
            return Err(CL_INVALID_DEVICE);
        }
        // SAFETY: binary_status is NULL or has num_devices entries.
        let status = unsafe { binary_status.as_mut() };
        // "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i] is zero
        // or binaries[i] is NULL."
        if lengths.is_null() || binaries.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: lengths and binaries have num_devices entries.
        let (len, ptr) = unsafe { (*lengths, *binaries) };
        if len == 0 || ptr.is_null() {
            // "otherwise returns CL_INVALID_VALUE if length[i] is zero or if binaries[i] is a
            // NULL value"
            if let Some(s) = status {
                *s = CL_INVALID_VALUE;
            }
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: binaries[0] points to lengths[0] bytes per the spec.
        let bytes = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
        // "CL_INVALID_BINARY if an invalid program binary was encountered for any device.
        // binary_status will return specific status for each device." The service decodes the
        // bytes again when the program is built: it does not trust this check.
        // LLVM bitcode (the cl_khr_spir way) is compiled at clBuildProgram like source.
        let compiler = &connection()?.device.compiler_id;
        use gencl_jit::binary::BinaryKind;
        // What the bytes hold: raw SPIR-V, a compiled object or library (gencl's header
        // around SPIR-V), LLVM bitcode, or an executable.
        let il: Result<Option<(cl_program_binary_type, Vec<u8>)>, String> = if is_spirv(&bytes) {
            Ok(Some((
                CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
                bytes.clone(),
            )))
        } else if gencl_jit::frontend::llvm::is_bitcode(&bytes) {
            Ok(None)
        } else {
            match gencl_jit::binary::decode_il(&bytes, compiler) {
                Ok(Some((kind, il))) if is_spirv(&il) => Ok(Some((
                    if kind == BinaryKind::Library {
                        CL_PROGRAM_BINARY_TYPE_LIBRARY
                    } else {
                        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
                    },
                    il,
                ))),
                Ok(Some(_)) => Err("a compiled object without SPIR-V".into()),
                Ok(None) => gencl_jit::binary::decode_for(&bytes, compiler)
                    .map(|_| None)
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            }
        };
        let checked = il.as_ref().map(|_| ());
        if let Err(e) = checked {
            tracing::debug!("clCreateProgramWithBinary: {e}");
            if let Some(s) = status {
                *s = CL_INVALID_BINARY;
            }
            return Err(CL_INVALID_BINARY);
        }
        if let Some(s) = status {
            *s = CL_SUCCESS;
        }
        // What clCompileProgram and clLinkProgram -create-library hand out as
        // CL_PROGRAM_BINARIES comes back as the same kind of program, to link or to build;
        // plain SPIR-V as a compiled object.
        if let Ok(Some((ty, il))) = il {
            let program = new_program(context, Origin::Binary, ProgramSource::SpirV(il.clone()))?;
            if let Ok(p) = get::<Program>(program) {
                let mut b = p.build.lock();
                b.binary_type = ty;
                b.il = Some(il);
                b.binary = Some(bytes);
            }
            return Ok(program);
        }
        let program = new_program(
            context,
            Origin::Binary,
            ProgramSource::Binary(bytes.clone()),
        )?;
        if let Ok(p) = get::<Program>(program) {
            let mut b = p.build.lock();
            b.binary = Some(bytes);
            // LLVM bitcode is an intermediate representation until built.
            b.binary_type = if is_executable_binary(&p.source) {
                CL_PROGRAM_BINARY_TYPE_EXECUTABLE
            } else {
                CL_PROGRAM_BINARY_TYPE_INTERMEDIATE
            };
        }
        Ok(program)
    })
}

pub unsafe extern "C" fn clRetainProgram(p: cl_program) -> cl_int {
    entry(|| Ref::<Program>::retain(p))
}

pub unsafe extern "C" fn clReleaseProgram(p: cl_program) -> cl_int {
    entry(|| Ref::<Program>::release(p))
}

/// Created from gencl's own executable binary (not from LLVM bitcode, which is compiled).
fn is_executable_binary(source: &ProgramSource) -> bool {
    matches!(source, ProgramSource::Binary(b) if !gencl_jit::frontend::llvm::is_bitcode(b))
}

/// Load an executable binary into the service if nothing has been built from it yet.
pub fn load_executable_binary(program: &Ref<Program>) -> ClResult<()> {
    let unbuilt = program.build.lock().status == CL_BUILD_NONE;
    if unbuilt && is_executable_binary(&program.source) {
        build(program, String::new())?;
    }
    Ok(())
}

/// The options with every relative `-I` folder made absolute against the application's
/// working folder: the compiler runs in the service, whose working folder is its own.
/// CL_PROGRAM_BUILD_OPTIONS still answers what the application passed.
fn with_absolute_includes(options: &str) -> String {
    let Ok(cwd) = std::env::current_dir() else {
        return options.to_string();
    };
    let abs = |dir: &str| {
        let p = std::path::Path::new(dir);
        if p.is_absolute() {
            dir.to_string()
        } else {
            cwd.join(p).display().to_string()
        }
    };
    let mut out = Vec::new();
    let mut words = options.split_whitespace();
    while let Some(w) = words.next() {
        if w == "-I" {
            out.push(w.to_string());
            if let Some(dir) = words.next() {
                out.push(abs(dir));
            }
        } else if let Some(dir) = w.strip_prefix("-I") {
            out.push(format!("-I{}", abs(dir)));
        } else {
            out.push(w.to_string());
        }
    }
    out.join(" ")
}

fn non_uniform(options: &str) -> bool {
    let words: Vec<&str> = options.split_whitespace().collect();
    let std20 = words
        .iter()
        .any(|w| matches!(*w, "-cl-std=CL2.0" | "-cl-std=CL3.0"));
    std20 && !words.contains(&"-cl-uniform-work-group-size")
}

fn build(program: &Ref<Program>, options: String) -> ClResult<()> {
    let mut b = program.build.lock();
    // "CL_INVALID_OPERATION if there are kernel objects attached to program."
    if program.kernels_attached.load(Ordering::Acquire) != 0 {
        return Err(CL_INVALID_OPERATION);
    }
    let outcome = call_compiler(Request::BuildProgram {
        source: program.source.clone(),
        options: with_absolute_includes(&options),
        spec_constants: b.spec_constants.clone(),
    });
    b.forget_executable();
    // A program's binary is the executable once built, unless it was created from one.
    if !is_executable_binary(&program.source) {
        b.binary = None;
    }
    b.non_uniform = non_uniform(&options);
    b.options = options;
    match outcome {
        Outcome::Built(id, kernels, log, globals) => {
            b.built(id, kernels, log, globals);
            Ok(())
        }
        Outcome::Failed(log, invalid_options) => {
            b.status = CL_BUILD_ERROR;
            b.log = log;
            if b.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                && !is_executable_binary(&program.source)
            {
                b.binary_type = if b.il.is_some() {
                    CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
                } else {
                    CL_PROGRAM_BINARY_TYPE_NONE
                };
            }
            // "CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid."
            // "CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program executable."
            Err(if invalid_options {
                CL_INVALID_BUILD_OPTIONS
            } else {
                CL_BUILD_PROGRAM_FAILURE
            })
        }
        other => b.internal_error(other),
    }
}

pub unsafe extern "C" fn clBuildProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: ProgramNotify,
    user_data: *mut c_void,
) -> cl_int {
    let r = entry(|| {
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        let p = get::<Program>(program)?;
        // "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
        // device_list is not NULL and num_devices is zero."
        if device_list.is_null() != (num_devices == 0) {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with program."
        // SAFETY: device_list has num_devices entries per the spec.
        for &d in unsafe { slice(device_list, num_devices as usize) } {
            check_device(d)?;
        }
        // SAFETY: options is NULL or NUL-terminated.
        let opts = unsafe { c_str(options) }.unwrap_or_default();
        // "CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid."
        // (before the CL_INVALID_OPERATION cases; the compiler checks them again)
        gencl_jit::frontend::clc::parse_options(&opts).map_err(|_| CL_INVALID_BUILD_OPTIONS)?;
        // "CL_INVALID_OPERATION if program was not created with clCreateProgramWithSource,
        // clCreateProgramWithIL or clCreateProgramWithBinary."
        if p.origin == Origin::Link {
            return Err(CL_INVALID_OPERATION);
        }
        build(&p, opts)
    });
    notify(program, pfn_notify, user_data);
    r
}

pub unsafe extern "C" fn clSetProgramSpecializationConstant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: usize,
    spec_value: *const c_void,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_PROGRAM if program is not a valid program object created from an
        // intermediate language (e.g. SPIR-V)."
        let p = get::<Program>(program)?;
        let ProgramSource::SpirV(il) = &p.source else {
            return Err(CL_INVALID_PROGRAM);
        };
        if p.origin != Origin::Il {
            return Err(CL_INVALID_PROGRAM);
        }
        // "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier."
        let declared =
            gencl_jit::frontend::spirv::spec_constants(il).map_err(|_| CL_INVALID_PROGRAM)?;
        let c = declared
            .iter()
            .find(|c| c.id == spec_id)
            .ok_or(CL_INVALID_SPEC_ID)?;
        // "CL_INVALID_VALUE if spec_size does not match the size of the specialization constant
        // in the module, or if spec_value is NULL."
        if spec_size != c.size as usize || spec_value.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: spec_value points to spec_size bytes per the spec.
        let bytes = unsafe { std::slice::from_raw_parts(spec_value.cast::<u8>(), spec_size) };
        let mut b = p.build.lock();
        b.spec_constants.retain(|(k, _)| *k != spec_id);
        b.spec_constants.push((spec_id, bytes.to_vec()));
        Ok(())
    })
}

fn call_compiler(req: Request) -> Outcome {
    let conn = match connection() {
        Ok(c) => c,
        Err(code) => return Outcome::Internal("internal error: no service".into(), code),
    };
    match conn.call(req) {
        Ok((Response::Compiled { il, log }, _)) => Outcome::Il(il, log),
        Ok((
            Response::Built {
                id,
                kernels,
                log,
                globals_bytes,
            },
            _,
        )) => Outcome::Built(id, kernels, log, globals_bytes as usize),
        Ok((
            Response::BuildFailed {
                log,
                invalid_options,
            },
            _,
        )) => Outcome::Failed(log, invalid_options),
        Ok((other, _)) => Outcome::Internal(
            format!("internal error: unexpected answer from the service: {other:?}"),
            CL_OUT_OF_RESOURCES,
        ),
        Err(e) => {
            let code = match e {
                ClientError::Service {
                    code: ErrorCode::OutOfResources,
                    ..
                } => CL_OUT_OF_RESOURCES,
                _ => CL_OUT_OF_HOST_MEMORY,
            };
            Outcome::Internal(format!("internal error: {e}"), code)
        }
    }
}

/// "If pfn_notify is not NULL, [the call] does not need to wait for the [operation] to
/// complete and can return immediately": gencl finishes first, then notifies.
fn notify(program: cl_program, pfn_notify: ProgramNotify, user_data: *mut c_void) {
    if let Some(f) = pfn_notify {
        if !program.is_null() && Ref::<Program>::is_valid(program) {
            // SAFETY: calling the application's callback with its own program and user data.
            unsafe { f(program, user_data) };
        }
    }
}

pub unsafe extern "C" fn clCompileProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *mut *const c_char,
    pfn_notify: ProgramNotify,
    user_data: *mut c_void,
) -> cl_int {
    let r = entry(|| {
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        let p = get::<Program>(program)?;
        // "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
        // device_list is not NULL and num_devices is zero."
        if device_list.is_null() != (num_devices == 0) {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if num_input_headers is zero and header_include_names or
        // input_headers are not NULL or if num_input_headers is not zero and
        // header_include_names or input_headers are NULL."
        if (num_input_headers == 0) != input_headers.is_null()
            || (num_input_headers == 0) != header_include_names.is_null()
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if device in device_list is not in the list of devices associated
        // with program."
        // SAFETY: device_list has num_devices entries per the spec.
        for &d in unsafe { slice(device_list, num_devices as usize) } {
            check_device(d)?;
        }
        // SAFETY: options is NULL or NUL-terminated.
        let opts = unsafe { c_str(options) }.unwrap_or_default();
        // "CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are
        // invalid." (before the CL_INVALID_OPERATION cases; the compiler checks them again)
        gencl_jit::frontend::clc::parse_options(&opts).map_err(|_| CL_INVALID_COMPILER_OPTIONS)?;
        // The headers: programs created from source, under the names the application gives.
        let mut headers = Vec::new();
        // SAFETY: both arrays have num_input_headers entries per the spec.
        let (progs, names) = unsafe {
            (
                slice(input_headers, num_input_headers as usize),
                slice(
                    header_include_names.cast_const(),
                    num_input_headers as usize,
                ),
            )
        };
        for (&h, &name) in progs.iter().zip(names) {
            let hp = get::<Program>(h)?;
            // SAFETY: each name is NUL-terminated per the spec.
            let name = unsafe { c_str(name) }.ok_or(CL_INVALID_VALUE)?;
            match &hp.source {
                ProgramSource::OpenClC(text) => headers.push((name, text.clone())),
                // A header is source text.
                _ => return Err(CL_INVALID_VALUE),
            }
        }
        // "CL_INVALID_OPERATION if program has no source or IL available, i.e. it has not been
        // created with clCreateProgramWithSource or clCreateProgramWithIL."
        if !matches!(p.origin, Origin::Source | Origin::Il) {
            return Err(CL_INVALID_OPERATION);
        }
        // "CL_INVALID_OPERATION if there are kernel objects attached to program."
        if p.kernels_attached.load(Ordering::Acquire) != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        let outcome = call_compiler(Request::CompileProgram {
            source: p.source.clone(),
            options: with_absolute_includes(&opts),
            headers,
        });
        let mut b = p.build.lock();
        b.forget_executable();
        b.options = opts;
        b.non_uniform = false;
        match outcome {
            Outcome::Il(il, log) => {
                b.holds_il(il, log, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
                Ok(())
            }
            Outcome::Failed(log, invalid_options) => {
                b.status = CL_BUILD_ERROR;
                b.log = log;
                b.binary = None;
                b.il = None;
                b.binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
                // "CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are
                // invalid." "CL_COMPILE_PROGRAM_FAILURE if there is a failure to compile the
                // program source."
                Err(if invalid_options {
                    CL_INVALID_COMPILER_OPTIONS
                } else {
                    CL_COMPILE_PROGRAM_FAILURE
                })
            }
            other => b.internal_error(other),
        }
    });
    notify(program, pfn_notify, user_data);
    r
}

pub unsafe extern "C" fn clLinkProgram(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: ProgramNotify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let mut linked: cl_program = std::ptr::null_mut();
    let r = entry(|| {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        get::<Context>(context)?;
        // "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
        // device_list is not NULL and num_devices is zero."
        if device_list.is_null() != (num_devices == 0) {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL or if
        // num_input_programs is zero and input_programs is not NULL or if num_input_programs is
        // not zero and input_programs is NULL."
        if num_input_programs == 0 || input_programs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_PROGRAM if programs specified in input_programs are not valid program
        // objects."
        // SAFETY: input_programs has num_input_programs entries per the spec.
        let inputs = unsafe { slice(input_programs, num_input_programs as usize) };
        let mut programs = Vec::new();
        for &i in inputs {
            programs.push(get::<Program>(i)?);
        }
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with context."
        // SAFETY: device_list has num_devices entries per the spec.
        for &d in unsafe { slice(device_list, num_devices as usize) } {
            check_device(d)?;
        }
        // SAFETY: options is NULL or NUL-terminated.
        let opts = unsafe { c_str(options) }.unwrap_or_default();
        // "CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid."
        gencl_jit::frontend::link::parse_link_options(&opts)
            .map_err(|_| CL_INVALID_LINKER_OPTIONS)?;
        // "CL_INVALID_OPERATION if the compilation or build of a program executable for any of
        // the devices listed in device_list by a previous call to clCompileProgram or
        // clBuildProgram for program has not completed" and "if the rules for devices
        // containing compiled binaries or libraries as described in input_programs argument
        // above are not followed": every input is a compiled object or a library.
        let mut modules = Vec::new();
        for p in &programs {
            let b = p.build.lock();
            let linkable = matches!(
                b.binary_type,
                CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT | CL_PROGRAM_BINARY_TYPE_LIBRARY
            );
            match (&b.il, linkable) {
                (Some(il), true) => modules.push(il.clone()),
                _ => return Err(CL_INVALID_OPERATION),
            }
        }
        let outcome = call_compiler(Request::LinkPrograms {
            modules,
            options: opts.clone(),
        });
        // No answer from the compiler is no link: no program.
        if let Outcome::Internal(_, code) = outcome {
            return Err(code);
        }
        // "If the linking operation can begin, clLinkProgram returns a valid non-zero program
        // object": also when the link fails, so that its log can be read.
        let handle = new_program(context, Origin::Link, ProgramSource::SpirV(Vec::new()))?;
        let p = get::<Program>(handle)?;
        let mut b = p.build.lock();
        b.options = opts;
        linked = handle;
        match outcome {
            Outcome::Il(il, log) => {
                b.holds_il(il, log, CL_PROGRAM_BINARY_TYPE_LIBRARY);
                Ok(())
            }
            Outcome::Built(id, kernels, log, globals) => {
                b.built(id, kernels, log, globals);
                Ok(())
            }
            Outcome::Failed(log, _) => {
                b.status = CL_BUILD_ERROR;
                b.log = log;
                // "CL_LINK_PROGRAM_FAILURE if there is a failure to link the compiled binaries
                // and/or libraries."
                Err(CL_LINK_PROGRAM_FAILURE)
            }
            Outcome::Internal(_, code) => Err(code),
        }
    });
    // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
    if let Some(e) = unsafe { errcode_ret.as_mut() } {
        *e = r;
    }
    notify(linked, pfn_notify, user_data);
    linked
}

/// The program's binary: the one it was created from, or the service's encoding of the build.
fn binary(p: &Program) -> ClResult<Option<Vec<u8>>> {
    let mut b = p.build.lock();
    if b.binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE && b.binary.is_some() {
        return Ok(b.binary.clone());
    }
    if b.binary.is_none() && b.status == CL_BUILD_SUCCESS {
        if let Some(id) = b.service_id.as_ref().map(|e| e.0) {
            match connection()?.call(Request::ProgramBinary { id }) {
                Ok((Response::Binary { bytes }, _)) => b.binary = Some(bytes),
                Ok(_) | Err(_) => return Err(CL_OUT_OF_RESOURCES),
            }
        }
    }
    Ok(b.binary.clone())
}

fn program_info(
    program: cl_program,
    param: cl_program_info,
    size: usize,
    value: *mut c_void,
) -> ClResult<Info> {
    let p = get::<Program>(program)?;
    // "If a binary is not available for a device(s), a size of zero is returned."
    if param == CL_PROGRAM_BINARY_SIZES {
        return val(&[binary(&p)?.map_or(0, |b| b.len())]);
    }
    let b = p.build.lock();
    let built = || {
        if b.status == CL_BUILD_SUCCESS && b.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE {
            Ok(())
        } else {
            Err(CL_INVALID_PROGRAM_EXECUTABLE)
        }
    };
    match param {
        CL_PROGRAM_REFERENCE_COUNT => val(&p.ref_count()),
        CL_PROGRAM_CONTEXT => val(&p.context.handle()),
        CL_PROGRAM_NUM_DEVICES => val(&1u32),
        CL_PROGRAM_DEVICES => val(&[device_id()]),
        CL_PROGRAM_SOURCE => match &p.source {
            ProgramSource::OpenClC(s) => val(s),
            ProgramSource::SpirV(_) | ProgramSource::Binary(_) => val(""),
        },
        // "If program is created with clCreateProgramWithIL, ... Otherwise, an empty buffer".
        CL_PROGRAM_IL => match (&p.source, p.origin) {
            (ProgramSource::SpirV(il), Origin::Il) => val(il),
            _ => val(&Vec::<u8>::new()),
        },
        // "CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS,
        // CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
        // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program executable has not been
        // built", listed after CL_INVALID_VALUE (a size_t, a cl_bool: sizes known without it).
        CL_PROGRAM_NUM_KERNELS => {
            info::fits::<usize>(size, value)?;
            built()?;
            val(&b.kernels.len())
        }
        CL_PROGRAM_KERNEL_NAMES => {
            built()?;
            val(&b
                .kernels
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(";"))
        }
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
            info::fits::<cl_bool>(size, value)?;
            built()?;
            val(&CL_FALSE)
        }
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetProgramInfo(
    program: cl_program,
    param_name: cl_program_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    if param_name == CL_PROGRAM_BINARIES {
        // "param_value points to an array of n pointers allocated by the caller, where n is the
        // number of devices associated with program. The buffer sizes needed to allocate the
        // memory that these n pointers refer to can be queried using the
        // CL_PROGRAM_BINARY_SIZES query [...] If an entry value in the array is NULL, the
        // implementation skips copying the program binary for the specific device identified by
        // the array index." The array itself is the application's: only the bytes it points to
        // are written.
        return entry(|| {
            let p = get::<Program>(program)?;
            let n = std::mem::size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < n {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: param_value holds at least one pointer (checked above).
                let dst = unsafe { *param_value.cast::<*mut u8>() };
                if !dst.is_null() {
                    if let Some(bytes) = binary(&p)? {
                        // SAFETY: the application sized dst from CL_PROGRAM_BINARY_SIZES.
                        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len()) };
                    }
                }
            }
            write_opt(param_value_size_ret, n);
            Ok(())
        });
    }
    info::answer(
        || program_info(program, param_name, param_value_size, param_value),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

fn build_info(
    program: cl_program,
    device: cl_device_id,
    param: cl_program_build_info,
) -> ClResult<Info> {
    // "CL_INVALID_DEVICE if device is not in the list of devices associated with program."
    let p = get::<Program>(program)?;
    check_device(device)?;
    let b = p.build.lock();
    match param {
        CL_PROGRAM_BUILD_STATUS => val(&b.status),
        CL_PROGRAM_BUILD_OPTIONS => val(&b.options),
        CL_PROGRAM_BUILD_LOG => val(&b.log),
        CL_PROGRAM_BINARY_TYPE => val(&b.binary_type),
        // "The total amount of storage, in bytes, used by program variables in the global
        // address space."
        CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => val(&b.globals_bytes),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetProgramBuildInfo(
    program: cl_program,
    device: cl_device_id,
    param_name: cl_program_build_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || build_info(program, device, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// "This function allows the implementation to release the resources allocated by the OpenCL
/// compiler. This is a hint from the application and does not guarantee that the compiler will
/// not be used in the future".
pub unsafe extern "C" fn clUnloadCompiler() -> cl_int {
    CL_SUCCESS
}

pub unsafe extern "C" fn clUnloadPlatformCompiler(platform: cl_platform_id) -> cl_int {
    // "CL_INVALID_PLATFORM if platform is not a valid platform."
    entry(|| super::runtime::check_platform(platform))
}

#[cfg(test)]
mod tests {
    use super::with_absolute_includes;

    #[test]
    fn relative_include_folders_become_absolute() {
        let cwd = std::env::current_dir().unwrap();
        let got = with_absolute_includes("-D X=1 -I inc -Isub/dir -I /abs -cl-std=CL1.2");
        assert_eq!(
            got,
            format!(
                "-D X=1 -I {} -I{} -I /abs -cl-std=CL1.2",
                cwd.join("inc").display(),
                cwd.join("sub/dir").display()
            )
        );
        assert_eq!(with_absolute_includes("-I"), "-I");
    }
}
