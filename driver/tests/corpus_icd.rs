//! gencl's own kernel corpus (tests/jit/*.cl) run as an application runs it: through the
//! system's ICD loader (ocl-icd's libOpenCL), on gencl's platform and on PoCL's, from
//! clCreateProgramWithSource to clEnqueueReadBuffer. Every case is held to its CPU reference
//! on both platforms, and the outputs of the two platforms are compared with each other
//! where the case's reference is exact. A kernel PoCL cannot build is reported, not failed.
#![allow(non_camel_case_types)]

#[allow(dead_code)]
mod igc;
mod jit_corpus;

use std::ffi::{c_char, c_void, CString};
use std::path::{Path, PathBuf};
use std::ptr::{null, null_mut};

use igc::harness::{Arg, Case, Run};

type cl_int = i32;
type cl_uint = u32;
type Handle = *mut c_void;

const CL_SUCCESS: cl_int = 0;
const CL_DEVICE_TYPE_ALL: u64 = 0xFFFF_FFFF;
const CL_PLATFORM_NAME: cl_uint = 0x0902;
const CL_PROGRAM_BUILD_LOG: cl_uint = 0x1183;
const CL_MEM_READ_WRITE: u64 = 1;
const CL_MEM_READ_ONLY: u64 = 1 << 2;
const CL_IMAGE_FORMAT_NOT_SUPPORTED: cl_int = -10;
const CL_MEM_COPY_HOST_PTR: u64 = 1 << 5;
const CL_TRUE: cl_uint = 1;

#[link(name = "OpenCL")]
extern "C" {
    fn clGetPlatformIDs(n: cl_uint, platforms: *mut Handle, num: *mut cl_uint) -> cl_int;
    fn clGetPlatformInfo(
        p: Handle,
        param: cl_uint,
        size: usize,
        value: *mut c_void,
        ret: *mut usize,
    ) -> cl_int;
    fn clGetDeviceIDs(
        p: Handle,
        ty: u64,
        n: cl_uint,
        devices: *mut Handle,
        num: *mut cl_uint,
    ) -> cl_int;
    fn clCreateContext(
        props: *const isize,
        n: cl_uint,
        devices: *const Handle,
        notify: *const c_void,
        user: *mut c_void,
        err: *mut cl_int,
    ) -> Handle;
    fn clCreateCommandQueue(ctx: Handle, dev: Handle, props: u64, err: *mut cl_int) -> Handle;
    fn clCreateProgramWithSource(
        ctx: Handle,
        n: cl_uint,
        strings: *const *const c_char,
        lengths: *const usize,
        err: *mut cl_int,
    ) -> Handle;
    fn clBuildProgram(
        p: Handle,
        n: cl_uint,
        devices: *const Handle,
        options: *const c_char,
        notify: *const c_void,
        user: *mut c_void,
    ) -> cl_int;
    fn clGetProgramBuildInfo(
        p: Handle,
        dev: Handle,
        param: cl_uint,
        size: usize,
        value: *mut c_void,
        ret: *mut usize,
    ) -> cl_int;
    fn clCreateKernel(p: Handle, name: *const c_char, err: *mut cl_int) -> Handle;
    fn clCreateBuffer(
        ctx: Handle,
        flags: u64,
        size: usize,
        host: *mut c_void,
        err: *mut cl_int,
    ) -> Handle;
    fn clSetKernelArg(k: Handle, index: cl_uint, size: usize, value: *const c_void) -> cl_int;
    fn clEnqueueNDRangeKernel(
        q: Handle,
        k: Handle,
        dims: cl_uint,
        offset: *const usize,
        global: *const usize,
        local: *const usize,
        n: cl_uint,
        wait: *const Handle,
        event: *mut Handle,
    ) -> cl_int;
    fn clEnqueueReadBuffer(
        q: Handle,
        b: Handle,
        blocking: cl_uint,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        n: cl_uint,
        wait: *const Handle,
        event: *mut Handle,
    ) -> cl_int;
    fn clCreateImage(
        ctx: Handle,
        flags: u64,
        format: *const ImageFormat,
        desc: *const ImageDesc,
        host: *mut c_void,
        err: *mut cl_int,
    ) -> Handle;
    fn clCreateSamplerWithProperties(ctx: Handle, props: *const u64, err: *mut cl_int) -> Handle;
    fn clEnqueueReadImage(
        q: Handle,
        image: Handle,
        blocking: cl_uint,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *mut c_void,
        n: cl_uint,
        wait: *const Handle,
        event: *mut Handle,
    ) -> cl_int;
    fn clReleaseSampler(s: Handle) -> cl_int;
    fn clReleaseMemObject(m: Handle) -> cl_int;
    fn clReleaseKernel(k: Handle) -> cl_int;
    fn clReleaseProgram(p: Handle) -> cl_int;
    fn clReleaseCommandQueue(q: Handle) -> cl_int;
    fn clReleaseContext(c: Handle) -> cl_int;
}

/// The start of a launch error that says the platform would not make the image (a format
/// or type it lacks): reported for other platforms, not failed.
const NO_IMAGE: &str = "no such image: ";

const CL_MEM_OBJECT_IMAGE2D: cl_uint = 0x10F1;
const CL_MEM_OBJECT_IMAGE3D: cl_uint = 0x10F2;
const CL_MEM_OBJECT_IMAGE2D_ARRAY: cl_uint = 0x10F3;
const CL_MEM_OBJECT_IMAGE1D: cl_uint = 0x10F4;
const CL_MEM_OBJECT_IMAGE1D_ARRAY: cl_uint = 0x10F5;
const CL_MEM_OBJECT_IMAGE1D_BUFFER: cl_uint = 0x10F6;

/// cl_image_format.
#[repr(C)]
struct ImageFormat {
    order: cl_uint,
    data_type: cl_uint,
}

/// cl_image_desc.
#[repr(C)]
struct ImageDesc {
    image_type: cl_uint,
    width: usize,
    height: usize,
    depth: usize,
    array_size: usize,
    row_pitch: usize,
    slice_pitch: usize,
    num_mip_levels: cl_uint,
    num_samples: cl_uint,
    buffer: Handle,
}

/// How an image argument's bytes lie in its host copy (the layout the harness gives it):
/// the CL image type, region, and the host row and slice pitches.
fn image_layout(s: &gencl::submit::images::ImageSurface) -> (cl_uint, [usize; 3], usize, usize) {
    use gencl::submit::images::ImageType as T;
    let (w, h, d) = (s.width as usize, s.height as usize, s.depth as usize);
    let (row, q) = (s.row_pitch as usize, s.qpitch as usize);
    match s.ty {
        T::Buffer => (CL_MEM_OBJECT_IMAGE1D_BUFFER, [w, 1, 1], 0, 0),
        T::D1 => (CL_MEM_OBJECT_IMAGE1D, [w, 1, 1], 0, 0),
        // A 1D array's elements are QPitch texels apart: OpenCL's slice pitch.
        T::D1Array => {
            let pitch = q * s.texel_bytes().unwrap() as usize;
            (CL_MEM_OBJECT_IMAGE1D_ARRAY, [w, d, 1], pitch, pitch)
        }
        T::D2 => (CL_MEM_OBJECT_IMAGE2D, [w, h, 1], row, 0),
        T::D2Array => (CL_MEM_OBJECT_IMAGE2D_ARRAY, [w, h, d], row, row * q),
        T::D3 => (CL_MEM_OBJECT_IMAGE3D, [w, h, d], row, row * q),
    }
}

/// target/<profile>, where the build put libgencl.so.
fn out_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(|d| d.parent()).unwrap().to_path_buf()
}

/// One platform's device, context and queue.
struct Platform {
    name: String,
    device: Handle,
    context: Handle,
    queue: Handle,
}

/// The platforms the loader finds with gencl's and PoCL's .icd files in the vendors folder.
fn platforms() -> Vec<Platform> {
    let lib = out_dir().join("libgencl.so");
    assert!(
        lib.exists(),
        "{} missing: cargo build --release -p gencl",
        lib.display()
    );
    let dir = std::env::temp_dir().join(format!("gencl-corpus-icd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("gencl.icd"), format!("{}\n", lib.display())).unwrap();
    let pocl = Path::new("/etc/OpenCL/vendors/pocl.icd");
    assert!(pocl.exists(), "PoCL missing (Debian pocl-opencl-icd)");
    std::fs::copy(pocl, dir.join("pocl.icd")).unwrap();
    // Read by the loader on its first call, and by gencl's ICD when it starts.
    std::env::set_var("OCL_ICD_VENDORS", &dir);
    std::env::set_var("GENCL_MODE", "embedded");
    std::env::set_var("GENCL_DEVICE", "emulated");
    let mut out = Vec::new();
    // SAFETY: out-pointers of the sizes given; handles come from the loader.
    unsafe {
        let mut n = 0;
        assert_eq!(clGetPlatformIDs(0, null_mut(), &mut n), CL_SUCCESS);
        let mut ps = vec![null_mut(); n as usize];
        assert_eq!(clGetPlatformIDs(n, ps.as_mut_ptr(), null_mut()), CL_SUCCESS);
        for p in ps {
            let mut buf = [0u8; 256];
            let mut len = 0;
            clGetPlatformInfo(p, CL_PLATFORM_NAME, 256, buf.as_mut_ptr().cast(), &mut len);
            let name = String::from_utf8_lossy(&buf[..len.saturating_sub(1)]).into_owned();
            let mut device = null_mut();
            if clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &mut device, null_mut()) != CL_SUCCESS {
                continue;
            }
            let mut e = 0;
            let context = clCreateContext(null(), 1, &device, null(), null_mut(), &mut e);
            assert_eq!(e, CL_SUCCESS, "{name}: clCreateContext");
            let queue = clCreateCommandQueue(context, device, 0, &mut e);
            assert_eq!(e, CL_SUCCESS, "{name}: clCreateCommandQueue");
            out.push(Platform {
                name,
                device,
                context,
                queue,
            });
        }
    }
    out
}

/// Build `source` on the platform: the program, or the build log.
fn build(p: &Platform, source: &str, options: &str) -> Result<Handle, String> {
    let src = CString::new(source).unwrap();
    let opts = CString::new(options).unwrap();
    let ptr = src.as_ptr();
    let mut e = 0;
    // SAFETY: one NUL-terminated string; out-pointers of the sizes given.
    unsafe {
        let prog = clCreateProgramWithSource(p.context, 1, &ptr, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        if clBuildProgram(prog, 1, &p.device, opts.as_ptr(), null(), null_mut()) == CL_SUCCESS {
            return Ok(prog);
        }
        let mut log = vec![0u8; 1 << 16];
        let mut len = 0;
        clGetProgramBuildInfo(
            prog,
            p.device,
            CL_PROGRAM_BUILD_LOG,
            log.len(),
            log.as_mut_ptr().cast(),
            &mut len,
        );
        clReleaseProgram(prog);
        Err(String::from_utf8_lossy(&log[..len.saturating_sub(1)]).into_owned())
    }
}

/// Run one case: its buffers created from their initial bytes, its arguments set, the range
/// launched with the harness's local size, every buffer read back.
fn launch(p: &Platform, prog: Handle, c: &Case) -> Result<Run, String> {
    let (dims, global, local) = c.shape()?;
    let name = CString::new(c.kernel).unwrap();
    let mut e = 0;
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    // SAFETY: handles from the loader; host pointers cover the sizes passed.
    unsafe {
        let k = clCreateKernel(prog, name.as_ptr(), &mut e);
        if e != CL_SUCCESS {
            return Err(format!("clCreateKernel: {e}"));
        }
        let mut buffers = Vec::new();
        let mut images = Vec::new();
        let mut samplers = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            let i = i as cl_uint;
            let r = match a {
                Arg::Buffer(data) => {
                    let mut bytes = data.clone();
                    let size = bytes.len().max(1);
                    bytes.resize(size, 0);
                    let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
                    let b =
                        clCreateBuffer(p.context, flags, size, bytes.as_mut_ptr().cast(), &mut e);
                    assert_eq!(e, CL_SUCCESS);
                    buffers.push((b, data.len()));
                    inputs.push(data.clone());
                    clSetKernelArg(k, i, std::mem::size_of::<Handle>(), (&raw const b).cast())
                }
                Arg::Value(bytes) => {
                    inputs.push(bytes.clone());
                    buffers.push((null_mut(), 0));
                    clSetKernelArg(k, i, bytes.len(), bytes.as_ptr().cast())
                }
                Arg::Local(n) => {
                    inputs.push(Vec::new());
                    buffers.push((null_mut(), 0));
                    clSetKernelArg(k, i, *n, null())
                }
                Arg::Image(s, data) => {
                    let (ty, region, row, slice) = image_layout(s);
                    let mut bytes = data.clone();
                    let fmt = ImageFormat {
                        order: s.channel_order,
                        data_type: s.channel_data_type,
                    };
                    // A typed buffer's image is made from a buffer (cl_khr_image2d's 1D form).
                    let backing = if ty == CL_MEM_OBJECT_IMAGE1D_BUFFER {
                        let b = clCreateBuffer(
                            p.context,
                            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            bytes.len(),
                            bytes.as_mut_ptr().cast(),
                            &mut e,
                        );
                        assert_eq!(e, CL_SUCCESS);
                        b
                    } else {
                        null_mut()
                    };
                    let desc = ImageDesc {
                        image_type: ty,
                        width: region[0],
                        height: match ty {
                            CL_MEM_OBJECT_IMAGE2D
                            | CL_MEM_OBJECT_IMAGE2D_ARRAY
                            | CL_MEM_OBJECT_IMAGE3D => region[1],
                            _ => 0,
                        },
                        depth: if ty == CL_MEM_OBJECT_IMAGE3D {
                            region[2]
                        } else {
                            0
                        },
                        array_size: match ty {
                            CL_MEM_OBJECT_IMAGE1D_ARRAY => region[1],
                            CL_MEM_OBJECT_IMAGE2D_ARRAY => region[2],
                            _ => 0,
                        },
                        row_pitch: row,
                        slice_pitch: slice,
                        num_mip_levels: 0,
                        num_samples: 0,
                        buffer: backing,
                    };
                    let (flags, host) = if backing.is_null() {
                        (
                            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            bytes.as_mut_ptr().cast(),
                        )
                    } else {
                        (CL_MEM_READ_WRITE, null_mut())
                    };
                    let mut im = clCreateImage(p.context, flags, &fmt, &desc, host, &mut e);
                    // A format kernels may only read (sRGB, intensity on Gen9): a read-only
                    // image, as an application makes one.
                    if e == CL_IMAGE_FORMAT_NOT_SUPPORTED {
                        let ro = (flags & !CL_MEM_READ_WRITE) | CL_MEM_READ_ONLY;
                        im = clCreateImage(p.context, ro, &fmt, &desc, host, &mut e);
                    }
                    if e != CL_SUCCESS {
                        return Err(format!("{NO_IMAGE}clCreateImage: {e}"));
                    }
                    images.push((buffers.len(), im, backing, region, row, slice));
                    buffers.push((null_mut(), data.len()));
                    inputs.push(data.clone());
                    clSetKernelArg(k, i, std::mem::size_of::<Handle>(), (&raw const im).cast())
                }
                Arg::Sampler(s) => {
                    let props = [
                        0x1152,
                        u64::from(s.normalized),
                        0x1153,
                        u64::from(s.addressing),
                        0x1154,
                        u64::from(s.filter),
                        0,
                    ];
                    let smp = clCreateSamplerWithProperties(p.context, props.as_ptr(), &mut e);
                    if e != CL_SUCCESS {
                        return Err(format!("clCreateSamplerWithProperties: {e}"));
                    }
                    samplers.push(smp);
                    inputs.push(Vec::new());
                    buffers.push((null_mut(), 0));
                    clSetKernelArg(k, i, std::mem::size_of::<Handle>(), (&raw const smp).cast())
                }
            };
            if r != CL_SUCCESS {
                return Err(format!("clSetKernelArg({i}): {r}"));
            }
        }
        let r = clEnqueueNDRangeKernel(
            p.queue,
            k,
            dims as cl_uint,
            null(),
            global.as_ptr(),
            local.as_ptr(),
            0,
            null(),
            null_mut(),
        );
        if r != CL_SUCCESS {
            return Err(format!("clEnqueueNDRangeKernel: {r}"));
        }
        for (b, len) in &buffers {
            let mut out = vec![0u8; *len];
            if !b.is_null() && *len > 0 {
                let r = clEnqueueReadBuffer(
                    p.queue,
                    *b,
                    CL_TRUE,
                    0,
                    *len,
                    out.as_mut_ptr().cast(),
                    0,
                    null(),
                    null_mut(),
                );
                assert_eq!(r, CL_SUCCESS);
            }
            outputs.push(out);
        }
        // Images read back into their host layout (what lies between rows and slices keeps
        // the input's bytes).
        for (at, im, backing, region, row, slice) in images {
            let origin = [0usize; 3];
            let out = &mut outputs[at];
            out.copy_from_slice(&inputs[at]);
            let r = clEnqueueReadImage(
                p.queue,
                im,
                CL_TRUE,
                origin.as_ptr(),
                region.as_ptr(),
                row,
                slice,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut(),
            );
            assert_eq!(r, CL_SUCCESS);
            clReleaseMemObject(im);
            if !backing.is_null() {
                clReleaseMemObject(backing);
            }
        }
        for s in samplers {
            clReleaseSampler(s);
        }
        for (b, _) in buffers {
            if !b.is_null() {
                clReleaseMemObject(b);
            }
        }
        clReleaseKernel(k);
    }
    Ok(Run {
        inputs,
        outputs,
        global,
        local,
        launch_secs: 0.0,
    })
}

/// Cases another platform gets wrong, each with its cause: reported, not failed, there (gencl
/// must pass them). A listed case that passes fails the test, so the list only shrinks.
const OTHERS_KNOWN_WRONG: &[(&str, &str)] = &[
    (
        "m_pi_exact",
        "PoCL 2.10's sinpi, cospi and tanpi give zeros the wrong sign at odd negative \
         integers and halves (sinpi(-15) = +0); CTS bruteforce's math_edge_cases fails so on PoCL",
    ),
    ("d_pi_exact", "as m_pi_exact, for doubles"),
    (
        "d_tgamma",
        "PoCL 3.1's double tgamma gives 0 where gamma is subnormal: tgamma(-178.0000000001619) \
         = -9.9068123e-316, PoCL +0",
    ),
    (
        "ir_border_no_alpha",
        "PoCL 3.1's CLK_ADDRESS_CLAMP border is (0, 0, 0, 0) for CL_R, where OpenCL 1.2 \
         §6.12.14.2 asks for (0, 0, 0, 1) for a format without alpha (the NEO replay \
         image_2d_array found it too)",
    ),
];

/// Kernels another platform cannot run at all (it aborts the process), each with its cause:
/// not run there, reported.
const OTHERS_CANNOT_RUN: &[(&str, &str)] = &[(
    "iq_buffer",
    "PoCL 3.1 has no get_image_channel_order for image1d_buffer_t: the kernel's symbol \
     _cl_get_image_channel_order is missing at dlopen and PoCL aborts the process",
)];

#[test]
fn corpus_through_the_icd_on_gencl_and_pocl() {
    let plats = platforms();
    let names: Vec<&str> = plats.iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"gencl"), "no gencl platform: {names:?}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/jit");
    let cases = jit_corpus::all();
    let mut failures = Vec::new();
    let mut report = Vec::new();
    // results[case][platform]: the outputs, for the cross-platform comparison.
    let mut results: Vec<Vec<Option<Vec<Vec<u8>>>>> = vec![vec![None; plats.len()]; cases.len()];
    for (pi, p) in plats.iter().enumerate() {
        let gencl = p.name == "gencl";
        let (mut ran, mut unbuilt) = (0, 0);
        for file in jit_corpus::FILES {
            let src = std::fs::read_to_string(dir.join(file)).unwrap();
            let prog = match build(p, &src, jit_corpus::options_of(file)) {
                Ok(prog) => prog,
                Err(log) if gencl => {
                    failures.push(format!("gencl: {file} does not build: {log}"));
                    continue;
                }
                Err(log) => {
                    let n = cases.iter().filter(|c| c.file == *file).count();
                    unbuilt += n;
                    let first = log.lines().find(|l| l.contains("error")).unwrap_or("");
                    report.push(format!(
                        "{}: {file} does not build ({n} cases): {first}",
                        p.name
                    ));
                    continue;
                }
            };
            for (ci, c) in cases.iter().enumerate().filter(|(_, c)| c.file == *file) {
                if let (false, Some((_, cause))) = (
                    gencl,
                    OTHERS_CANNOT_RUN.iter().find(|(k, _)| *k == c.kernel),
                ) {
                    report.push(format!("{}: {} not run: {cause}", p.name, c.kernel));
                    continue;
                }
                match launch(p, prog, c) {
                    Err(e) if !gencl && e.starts_with(NO_IMAGE) => {
                        report.push(format!("{}: {file}:{}: {e}", p.name, c.kernel))
                    }
                    Err(e) => failures.push(format!("{}: {file}:{}: {e}", p.name, c.kernel)),
                    Ok(run) => {
                        ran += 1;
                        let errs: Vec<String> =
                            c.checks.iter().filter_map(|f| f(&run).err()).collect();
                        let known = OTHERS_KNOWN_WRONG.iter().find(|(k, _)| *k == c.kernel);
                        if let (false, Some((_, cause))) = (gencl, known) {
                            if errs.is_empty() {
                                failures.push(format!(
                                    "{}: {file}:{} is listed as wrong ({cause}) but passes: \
                                     take it off the list",
                                    p.name, c.kernel
                                ));
                            } else {
                                report.push(format!(
                                    "{}: {file}:{}: known: {cause}",
                                    p.name, c.kernel
                                ));
                            }
                        } else if !errs.is_empty() {
                            failures.push(format!(
                                "{}: {file}:{}: {}",
                                p.name,
                                c.kernel,
                                errs.join("; ")
                            ));
                        }
                        results[ci][pi] = Some(run.outputs);
                    }
                }
            }
            // SAFETY: a program this test made.
            unsafe { clReleaseProgram(prog) };
        }
        report.push(format!(
            "{}: {ran} of {} cases ran and were checked, {unbuilt} not built",
            p.name,
            cases.len()
        ));
    }
    // gencl and PoCL side by side: how many cases agree to the byte (float cases may differ
    // within their ULP bounds, which the references check).
    if plats.len() > 1 {
        let both = results
            .iter()
            .filter(|r| r.iter().all(|o| o.is_some()))
            .count();
        let same = results
            .iter()
            .filter(|r| r.iter().all(|o| o.is_some()) && r.windows(2).all(|w| w[0] == w[1]))
            .count();
        report.push(format!(
            "{same} of the {both} cases that ran on every platform agree to the byte"
        ));
    }
    for p in plats {
        // SAFETY: handles this test made.
        unsafe {
            clReleaseCommandQueue(p.queue);
            clReleaseContext(p.context);
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
