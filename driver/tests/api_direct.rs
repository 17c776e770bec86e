//! The entry points called directly (no loader), the constants against the Khronos headers,
//! and the dispatch table against cl_icd.h's slot order.

use gencl::api::dispatch::{IcdDispatch, SLOT_NAMES};
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::c_void;
use std::process::Command;
use std::ptr::{null, null_mut};

fn setup() -> (cl_platform_id, cl_device_id) {
    std::env::set_var("GENCL_MODE", "embedded");
    std::env::set_var("GENCL_DEVICE", "emulated");
    let mut p = null_mut();
    let mut d = null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(clGetPlatformIDs(1, &mut p, null_mut()), CL_SUCCESS);
        assert_eq!(
            clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &mut d, null_mut()),
            CL_SUCCESS
        );
    }
    (p, d)
}

#[test]
fn info_queries_follow_the_size_rules() {
    let (p, d) = setup();
    let mut size = 0usize;
    let mut v = [0u8; 64];
    // SAFETY: buffers are as large as claimed.
    unsafe {
        assert_eq!(
            clGetPlatformInfo(p, CL_PLATFORM_ICD_SUFFIX_KHR, 0, null_mut(), &mut size),
            CL_SUCCESS
        );
        assert_eq!(size, "gencl".len() + 1);
        assert_eq!(
            clGetPlatformInfo(
                p,
                CL_PLATFORM_ICD_SUFFIX_KHR,
                size - 1,
                v.as_mut_ptr().cast(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clGetPlatformInfo(
                p,
                CL_PLATFORM_ICD_SUFFIX_KHR,
                v.len(),
                v.as_mut_ptr().cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(&v[..6], b"gencl\0");
        assert_eq!(
            clGetPlatformInfo(d.cast(), CL_PLATFORM_NAME, 0, null_mut(), &mut size),
            CL_INVALID_PLATFORM
        );
        let mut units: cl_uint = 0;
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_MAX_COMPUTE_UNITS,
                4,
                (&raw mut units).cast(),
                &mut size
            ),
            CL_SUCCESS
        );
        assert_eq!((units, size), (24, 4));
        let mut sizes = [0usize; 3];
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_MAX_WORK_ITEM_SIZES,
                24,
                sizes.as_mut_ptr().cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(sizes, [256; 3]);
        assert_eq!(
            clGetDeviceInfo(p.cast(), CL_DEVICE_NAME, 0, null_mut(), &mut size),
            CL_INVALID_DEVICE
        );
        let mut vendor: cl_uint = 0;
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_VENDOR_ID,
                4,
                (&raw mut vendor).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(vendor, 0x8086);
    }
}

#[test]
fn handles_of_the_wrong_type_or_freed_are_rejected() {
    let (_p, d) = setup();
    let mut e = 0;
    // SAFETY: valid pointers everywhere; the "wrong" handles are live objects of another type.
    unsafe {
        let ctx = clCreateContext(null(), 1, &d, None, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let q = clCreateCommandQueueWithProperties(ctx, d, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let m = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, 4096, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(clRetainContext(q.cast()), CL_INVALID_CONTEXT);
        assert_eq!(clRetainMemObject(ctx.cast()), CL_INVALID_MEM_OBJECT);
        assert_eq!(clFinish(m.cast()), CL_INVALID_COMMAND_QUEUE);
        assert_eq!(clReleaseEvent(m.cast()), CL_INVALID_EVENT);
        let mut count: cl_uint = 0;
        assert_eq!(clRetainMemObject(m), CL_SUCCESS);
        assert_eq!(
            clGetMemObjectInfo(
                m,
                CL_MEM_REFERENCE_COUNT,
                4,
                (&raw mut count).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(count, 2);
        // Map, write through the pointer, unmap, read back.
        let p = clEnqueueMapBuffer(
            q,
            m,
            CL_TRUE,
            CL_MAP_WRITE,
            8,
            8,
            0,
            null(),
            null_mut(),
            &mut e,
        );
        assert_eq!(e, CL_SUCCESS);
        p.cast::<u64>().write_unaligned(0x1122_3344_5566_7788);
        assert_eq!(
            clEnqueueUnmapMemObject(q, m, p, 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueUnmapMemObject(q, m, p, 0, null(), null_mut()),
            CL_INVALID_VALUE
        );
        let mut back = 0u64;
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                m,
                CL_TRUE,
                8,
                8,
                (&raw mut back).cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(back, 0x1122_3344_5566_7788);
        let pat = 0xabu8;
        assert_eq!(
            clEnqueueFillBuffer(
                q,
                m,
                (&raw const pat).cast(),
                1,
                0,
                4096,
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueFillBuffer(
                q,
                m,
                (&raw const pat).cast(),
                3,
                0,
                4095,
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clEnqueueCopyBuffer(q, m, m, 0, 8, 16, 0, null(), null_mut()),
            CL_MEM_COPY_OVERLAP
        );
        // Queued commands hold the buffer until they have run.
        assert_eq!(clFinish(q), CL_SUCCESS);
        assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        assert_eq!(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
        assert_eq!(
            clGetMemObjectInfo(m, CL_MEM_SIZE, 0, null_mut(), null_mut()),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(clReleaseCommandQueue(q), CL_SUCCESS);
        assert_eq!(clReleaseContext(ctx), CL_SUCCESS);
        assert_eq!(clRetainContext(ctx), CL_INVALID_CONTEXT);
    }
}

#[test]
fn unsupported_entry_points_return_errors() {
    let (_p, d) = setup();
    let t = &gencl::api::dispatch::DISPATCH;
    let mut e = 0;
    // SAFETY: the stubs never dereference their arguments except errcode_ret.
    unsafe {
        let ctx = clCreateContext(null(), 1, &d, None, null_mut(), &mut e);
        assert!(t.clCreatePipe.unwrap()(ctx, 0, 4, 16, null(), &mut e).is_null());
        assert_eq!(e, CL_INVALID_OPERATION);
        assert!(t.clSVMAlloc.unwrap()(ctx, 0, 64, 0).is_null());
        assert_eq!(
            t.clCreateSubDevices.unwrap()(d, null(), 0, null_mut(), null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(clReleaseContext(ctx), CL_SUCCESS);
    }
    // Every core slot is filled; extension-only slots (GL, D3D, DX9, EGL, EXT) may be empty.
    let slots: &[Option<unsafe extern "C" fn()>] = {
        let n = std::mem::size_of::<IcdDispatch>() / std::mem::size_of::<usize>();
        // SAFETY: IcdDispatch is repr(C) and made only of pointer-sized Option<fn>s.
        unsafe { std::slice::from_raw_parts((t as *const IcdDispatch).cast(), n) }
    };
    assert_eq!(slots.len(), SLOT_NAMES.len());
    for (name, slot) in SLOT_NAMES.iter().zip(slots) {
        let ext =
            ["GL", "D3D", "DX9", "EGL"].iter().any(|x| name.contains(x)) || name.ends_with("EXT");
        assert!(ext || slot.is_some(), "{name} has no entry point");
        if !ext {
            let c = std::ffi::CString::new(*name).unwrap();
            // SAFETY: a NUL-terminated name.
            let p = unsafe { clGetExtensionFunctionAddress(c.as_ptr()) };
            assert_eq!(p, slot.map_or(null_mut(), |f| f as *mut c_void), "{name}");
        }
    }
}

/// The C compiler's view of cl_icd.h and cl.h, checked against the Rust table and constants.
#[test]
fn layout_and_constants_match_the_khronos_headers() {
    let dir = std::env::temp_dir().join(format!("gencl-hdr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let consts = [
        "CL_SUCCESS",
        "CL_INVALID_VALUE",
        "CL_INVALID_KERNEL_ARGS",
        "CL_INVALID_ARG_SIZE",
        "CL_DEVICE_TYPE_GPU",
        "CL_DEVICE_NAME",
        "CL_DEVICE_IL_VERSION",
        "CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT",
        "CL_MEM_READ_WRITE",
        "CL_MEM_USE_HOST_PTR",
        "CL_MEM_HOST_NO_ACCESS",
        "CL_QUEUE_PROFILING_ENABLE",
        "CL_PROGRAM_BUILD_LOG",
        "CL_KERNEL_ARG_ADDRESS_LOCAL",
        "CL_COMPLETE",
        "CL_PLATFORM_ICD_SUFFIX_KHR",
        "CL_PLATFORM_NOT_FOUND_KHR",
        "CL_MAP_WRITE_INVALIDATE_REGION",
        "CL_PROFILING_COMMAND_END",
        "CL_DEVICE_HALF_FP_CONFIG",
    ];
    let mut c = String::from("#define CL_TARGET_OPENCL_VERSION 300\n#include <CL/cl_icd.h>\n#include <CL/cl_ext.h>\n#include <stdio.h>\n#include <stddef.h>\nint main(void) {\n");
    c.push_str("  printf(\"sizeof %zu\\n\", sizeof(cl_icd_dispatch));\n");
    for (i, n) in SLOT_NAMES.iter().enumerate() {
        c.push_str(&format!(
            "  printf(\"slot {i} %zu\\n\", offsetof(cl_icd_dispatch, {n}));\n"
        ));
    }
    for n in consts {
        c.push_str(&format!("  printf(\"{n} %lld\\n\", (long long)({n}));\n"));
    }
    c.push_str("  return 0;\n}\n");
    let src = dir.join("hdr.c");
    std::fs::write(&src, c).unwrap();
    let exe = dir.join("hdr");
    let out = Command::new("cc")
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("cc is required for this test");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = String::from_utf8(Command::new(&exe).output().unwrap().stdout).unwrap();
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        format!("sizeof {}", std::mem::size_of::<IcdDispatch>())
    );
    for (i, name) in SLOT_NAMES.iter().enumerate() {
        assert_eq!(
            lines.next().unwrap(),
            format!("slot {i} {}", i * 8),
            "{}",
            name
        );
    }
    let ours: [i64; 20] = [
        CL_SUCCESS as i64,
        CL_INVALID_VALUE as i64,
        CL_INVALID_KERNEL_ARGS as i64,
        CL_INVALID_ARG_SIZE as i64,
        CL_DEVICE_TYPE_GPU as i64,
        CL_DEVICE_NAME as i64,
        CL_DEVICE_IL_VERSION as i64,
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT as i64,
        CL_MEM_READ_WRITE as i64,
        CL_MEM_USE_HOST_PTR as i64,
        CL_MEM_HOST_NO_ACCESS as i64,
        CL_QUEUE_PROFILING_ENABLE as i64,
        CL_PROGRAM_BUILD_LOG as i64,
        CL_KERNEL_ARG_ADDRESS_LOCAL as i64,
        CL_COMPLETE as i64,
        CL_PLATFORM_ICD_SUFFIX_KHR as i64,
        CL_PLATFORM_NOT_FOUND_KHR as i64,
        CL_MAP_WRITE_INVALIDATE_REGION as i64,
        CL_PROFILING_COMMAND_END as i64,
        CL_DEVICE_HALF_FP_CONFIG as i64,
    ];
    for (n, v) in consts.iter().zip(ours) {
        assert_eq!(lines.next().unwrap(), format!("{n} {v}"));
    }
}

/// clEnqueueReadBuffer / clEnqueueWriteBuffer: the bytes round-trip, and each refuses what
/// the spec says with its error code (range and NULL: CL_INVALID_VALUE; the host-access
/// flags that forbid that direction: CL_INVALID_OPERATION).
#[test]
fn buffer_reads_and_writes_check_range_pointer_and_host_access() {
    let (_, d) = setup();
    let mut e = 0;
    // SAFETY: valid handles and out-pointers; host pointers cover the sizes passed.
    unsafe {
        let ctx = clCreateContext(null(), 1, &d, None, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let q = clCreateCommandQueueWithProperties(ctx, d, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let buf = |flags| {
            let mut e = 0;
            let m = clCreateBuffer(ctx, flags, 64, null_mut(), &mut e);
            assert_eq!(e, CL_SUCCESS);
            m
        };
        let (rw, wo, ro, na) = (
            buf(CL_MEM_READ_WRITE),
            buf(CL_MEM_HOST_WRITE_ONLY),
            buf(CL_MEM_HOST_READ_ONLY),
            buf(CL_MEM_HOST_NO_ACCESS),
        );
        let src: Vec<u8> = (0..64).map(|i| i * 3 + 1).collect();
        let mut dst = vec![0u8; 64];
        let write = |m, off, n, p: *const u8| {
            clEnqueueWriteBuffer(q, m, CL_TRUE, off, n, p.cast(), 0, null(), null_mut())
        };
        let read = |m, off, n, p: *mut u8| {
            clEnqueueReadBuffer(q, m, CL_TRUE, off, n, p.cast(), 0, null(), null_mut())
        };
        assert_eq!(write(rw, 0, 64, src.as_ptr()), CL_SUCCESS);
        assert_eq!(read(rw, 8, 16, dst.as_mut_ptr()), CL_SUCCESS);
        assert_eq!(&dst[..16], &src[8..24]);
        assert_eq!(write(rw, 60, 8, src.as_ptr()), CL_INVALID_VALUE);
        assert_eq!(read(rw, 0, 65, dst.as_mut_ptr()), CL_INVALID_VALUE);
        assert_eq!(write(rw, 0, 4, null()), CL_INVALID_VALUE);
        assert_eq!(read(rw, 0, 4, null_mut()), CL_INVALID_VALUE);
        assert_eq!(write(wo, 0, 4, src.as_ptr()), CL_SUCCESS);
        assert_eq!(read(wo, 0, 4, dst.as_mut_ptr()), CL_INVALID_OPERATION);
        assert_eq!(read(ro, 0, 4, dst.as_mut_ptr()), CL_SUCCESS);
        assert_eq!(write(ro, 0, 4, src.as_ptr()), CL_INVALID_OPERATION);
        assert_eq!(read(na, 0, 4, dst.as_mut_ptr()), CL_INVALID_OPERATION);
        assert_eq!(write(na, 0, 4, src.as_ptr()), CL_INVALID_OPERATION);
        for m in [rw, wo, ro, na] {
            assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        }
        assert_eq!(clReleaseCommandQueue(q), CL_SUCCESS);
        assert_eq!(clReleaseContext(ctx), CL_SUCCESS);
    }
}

/// The dispatch table is generated (`scripts/gen_dispatch.py` from cl_icd.h and entry.rs):
/// the committed file must be what the generator writes, so a new entry point in entry.rs or
/// a new slot in the header cannot be forgotten in the table.
#[test]
fn dispatch_table_is_what_the_generator_writes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new("python3")
        .arg(root.join("scripts/gen_dispatch.py"))
        .arg("--check")
        .output()
        .expect("run python3 scripts/gen_dispatch.py --check");
    assert!(
        out.status.success(),
        "driver/src/api/dispatch.rs is stale: run python3 scripts/gen_dispatch.py\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
