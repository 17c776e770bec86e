//! clCompileProgram and clLinkProgram as applications call them: separate compilation with
//! embedded headers, libraries (-create-library), compiled objects through
//! CL_PROGRAM_BINARIES and back, and the spec's error codes. The linked kernels run on the
//! emulated GPU and are checked against a CPU reference.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_char, CString};
use std::ptr::{null, null_mut};

/// The header: a declaration and a macro the kernel's file needs.
const HEADER: &str = "int scale(int x);\n#define OFFSET 7\n";
/// The kernel: includes the header by the name the application gives it.
const KERNEL: &str = "#include \"util/scale.h\"
kernel void apply(global int *a) {
    size_t i = get_global_id(0);
    a[i] = scale(a[i]) + OFFSET;
}";
/// The function, in another program.
const FUNCTION: &str = "int scale(int x) { return 3 * x - 1; }";

unsafe fn source(ctx: cl_context, text: &str) -> cl_program {
    let s = CString::new(text).unwrap();
    let mut p = s.as_ptr();
    let mut e = 0;
    // SAFETY: one NUL-terminated string.
    let prog = unsafe { clCreateProgramWithSource(ctx, 1, &mut p, null(), &mut e) };
    assert_eq!(e, CL_SUCCESS);
    prog
}

/// clCompileProgram with the header program under `name`.
unsafe fn compile(p: cl_program, options: &str, header: Option<(cl_program, &str)>) -> cl_int {
    let opts = CString::new(options).unwrap();
    // SAFETY: arrays of one entry each, or none.
    unsafe {
        match header {
            Some((h, name)) => {
                let n = CString::new(name).unwrap();
                let mut names: [*const c_char; 1] = [n.as_ptr()];
                clCompileProgram(
                    p,
                    0,
                    null(),
                    opts.as_ptr(),
                    1,
                    &h,
                    names.as_mut_ptr(),
                    None,
                    null_mut(),
                )
            }
            None => clCompileProgram(
                p,
                0,
                null(),
                opts.as_ptr(),
                0,
                null(),
                null_mut(),
                None,
                null_mut(),
            ),
        }
    }
}

unsafe fn link(ctx: cl_context, inputs: &[cl_program], options: &str) -> (cl_program, cl_int) {
    let opts = CString::new(options).unwrap();
    let mut e = 0;
    // SAFETY: `inputs` has the count given.
    let p = unsafe {
        clLinkProgram(
            ctx,
            0,
            null(),
            opts.as_ptr(),
            inputs.len() as u32,
            inputs.as_ptr(),
            None,
            null_mut(),
            &mut e,
        )
    };
    (p, e)
}

/// Runs `apply` from `p` over 0..64 and checks 3x - 1 + 7.
unsafe fn run_apply(ctx: cl_context, q: cl_command_queue, p: cl_program) {
    let n = 64usize;
    let mut a: Vec<i32> = (0..n as i32).map(|i| i * 5 - 100).collect();
    let want: Vec<i32> = a.iter().map(|x| 3 * x - 1 + 7).collect();
    let mut e = 0;
    // SAFETY: valid handles; host pointers cover the sizes passed.
    unsafe {
        let name = CString::new("apply").unwrap();
        let k = clCreateKernel(p, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
        let b = clCreateBuffer(ctx, flags, n * 4, a.as_mut_ptr().cast(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(clSetKernelArg(k, 0, 8, (&raw const b).cast()), CL_SUCCESS);
        let g = n;
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                b,
                CL_TRUE,
                0,
                n * 4,
                a.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        clReleaseMemObject(b);
        clReleaseKernel(k);
    }
    assert_eq!(a, want);
}

#[test]
fn separate_compilation_links_and_runs() {
    let (d, ctx, q) = setup();
    // SAFETY: handles from setup; the helpers pass valid pointers.
    unsafe {
        let mut avail: cl_bool = 0;
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_LINKER_AVAILABLE,
                4,
                (&raw mut avail).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(avail, CL_TRUE);

        let header = source(ctx, HEADER);
        let kernel = source(ctx, KERNEL);
        let function = source(ctx, FUNCTION);
        assert_eq!(
            compile(kernel, "", Some((header, "util/scale.h"))),
            CL_SUCCESS
        );
        assert_eq!(compile(function, "-cl-std=CL1.2", None), CL_SUCCESS);
        assert_eq!(
            binary_type(kernel, d),
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
        );
        // A compiled object has no kernels to make.
        let name = CString::new("apply").unwrap();
        let mut e = 0;
        assert!(clCreateKernel(kernel, name.as_ptr(), &mut e).is_null());
        assert_eq!(e, CL_INVALID_PROGRAM_EXECUTABLE);

        // Object + object → executable.
        let (exe, e) = link(ctx, &[kernel, function], "");
        assert_eq!(e, CL_SUCCESS, "{}", build_log(exe, d));
        assert_eq!(binary_type(exe, d), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        run_apply(ctx, q, exe);
        // A linked program is not built again.
        assert_eq!(
            clBuildProgram(exe, 0, null(), null(), None, null_mut()),
            CL_INVALID_OPERATION
        );

        // Object → library; object + library → executable.
        let (lib, e) = link(ctx, &[function], "-create-library");
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(binary_type(lib, d), CL_PROGRAM_BINARY_TYPE_LIBRARY);
        let (exe2, e) = link(ctx, &[kernel, lib], "");
        assert_eq!(e, CL_SUCCESS, "{}", build_log(exe2, d));
        run_apply(ctx, q, exe2);

        // A compiled object's CL_PROGRAM_BINARIES make a program that links again.
        let bytes = binary_of(function);
        assert!(!bytes.is_empty());
        let (len, mut ptr) = (bytes.len(), bytes.as_ptr());
        let (mut status, mut err) = (0, 0);
        let from_binary =
            clCreateProgramWithBinary(ctx, 1, &d, &len, &mut ptr, &mut status, &mut err);
        assert_eq!((err, status), (CL_SUCCESS, CL_SUCCESS));
        assert_eq!(
            binary_type(from_binary, d),
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
        );
        // "CL_INVALID_OPERATION if program has no source or IL available".
        assert_eq!(compile(from_binary, "", None), CL_INVALID_OPERATION);
        let (exe3, e) = link(ctx, &[kernel, from_binary], "");
        assert_eq!(e, CL_SUCCESS);
        run_apply(ctx, q, exe3);
        // A library's binary comes back as a library (gencl's header says which kind).
        let lib_bytes = binary_of(lib);
        assert_eq!(&lib_bytes[..8], b"GENCLBIN");
        let (len, mut ptr) = (lib_bytes.len(), lib_bytes.as_ptr());
        let lib2 = clCreateProgramWithBinary(ctx, 1, &d, &len, &mut ptr, &mut status, &mut err);
        assert_eq!((err, status), (CL_SUCCESS, CL_SUCCESS));
        assert_eq!(binary_type(lib2, d), CL_PROGRAM_BINARY_TYPE_LIBRARY);
        let (exe4, e) = link(ctx, &[kernel, lib2], "");
        assert_eq!(e, CL_SUCCESS);
        run_apply(ctx, q, exe4);
        // Plain SPIR-V is taken as a compiled object too.
        let spv = lib_bytes[48..].to_vec();
        let (len, mut ptr) = (spv.len(), spv.as_ptr());
        let raw = clCreateProgramWithBinary(ctx, 1, &d, &len, &mut ptr, &mut status, &mut err);
        assert_eq!((err, status), (CL_SUCCESS, CL_SUCCESS));
        assert_eq!(binary_type(raw, d), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

        for p in [
            header,
            kernel,
            function,
            exe,
            lib,
            exe2,
            from_binary,
            exe3,
            lib2,
            exe4,
            raw,
        ] {
            clReleaseProgram(p);
        }
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}

#[test]
fn compile_and_link_errors() {
    let (d, ctx, q) = setup();
    // SAFETY: handles from setup; the helpers pass valid pointers.
    unsafe {
        let header = source(ctx, HEADER);
        let kernel = source(ctx, KERNEL);
        let function = source(ctx, FUNCTION);
        let broken = source(ctx, "int f(void) { return missing; }");

        // Options and sources the compiler refuses.
        assert_eq!(
            compile(function, "-create-library", None),
            CL_INVALID_COMPILER_OPTIONS
        );
        assert_eq!(compile(broken, "", None), CL_COMPILE_PROGRAM_FAILURE);
        assert!(build_log(broken, d).contains("missing"));
        // A header may not name a path outside the program.
        assert_eq!(
            compile(kernel, "", Some((header, "../scale.h"))),
            CL_COMPILE_PROGRAM_FAILURE
        );
        assert!(build_log(kernel, d).contains("../scale.h"));
        // Without its header the kernel does not compile.
        assert_eq!(compile(kernel, "", None), CL_COMPILE_PROGRAM_FAILURE);

        assert_eq!(
            compile(kernel, "", Some((header, "util/scale.h"))),
            CL_SUCCESS
        );
        assert_eq!(compile(function, "", None), CL_SUCCESS);

        // "CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid."
        let (p, e) = link(ctx, &[kernel, function], "-cl-opt-disable");
        assert!(p.is_null());
        assert_eq!(e, CL_INVALID_LINKER_OPTIONS);
        let (p, e) = link(ctx, &[kernel, function], "-enable-link-options");
        assert!(p.is_null());
        assert_eq!(e, CL_INVALID_LINKER_OPTIONS);
        // "CL_INVALID_VALUE if num_input_programs is zero ..."
        let (p, e) = link(ctx, &[], "");
        assert!(p.is_null());
        assert_eq!(e, CL_INVALID_VALUE);

        // An unresolved function: the link fails, and the program it returns has the log.
        let (p, e) = link(ctx, &[kernel], "");
        assert_eq!(e, CL_LINK_PROGRAM_FAILURE);
        assert!(!p.is_null());
        assert!(build_log(p, d).contains("scale"), "{}", build_log(p, d));
        clReleaseProgram(p);
        // A function defined twice.
        let twice = source(ctx, "int scale(int x) { return x; }");
        assert_eq!(compile(twice, "", None), CL_SUCCESS);
        let (p, e) = link(ctx, &[kernel, function, twice], "");
        assert_eq!(e, CL_LINK_PROGRAM_FAILURE);
        assert!(
            build_log(p, d).contains("'scale' is defined by input program 1 and input program 2")
        );
        clReleaseProgram(p);

        // Only compiled objects and libraries link: not an executable, not plain source.
        let exe = source(ctx, "kernel void k(global int *a) { a[0] = 1; }");
        assert_eq!(
            clBuildProgram(exe, 0, null(), null(), None, null_mut()),
            CL_SUCCESS
        );
        let (p, e) = link(ctx, &[kernel, exe], "");
        assert!(p.is_null());
        assert_eq!(e, CL_INVALID_OPERATION);
        let raw = source(ctx, FUNCTION);
        let (p, e) = link(ctx, &[kernel, raw], "");
        assert!(p.is_null());
        assert_eq!(e, CL_INVALID_OPERATION);

        // "CL_INVALID_VALUE if num_input_headers is zero and header_include_names or
        // input_headers are not NULL".
        let opts = CString::new("").unwrap();
        assert_eq!(
            clCompileProgram(
                function,
                0,
                null(),
                opts.as_ptr(),
                0,
                &header,
                null_mut(),
                None,
                null_mut()
            ),
            CL_INVALID_VALUE
        );

        for p in [header, kernel, function, broken, twice, exe, raw] {
            clReleaseProgram(p);
        }
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
