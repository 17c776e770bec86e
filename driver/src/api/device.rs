//! clGetDeviceIDs, clGetDeviceInfo, clRetainDevice, clReleaseDevice (OpenCL 3.0 §4.2).
//!
//! gencl reports an OpenCL 3.0 device with images and the optional features its compiler
//! lists (`gencl_jit::extensions`), but no SVM, pipes or device-side enqueue,
//! OpenCL C 1.2, SPIR-V 1.0-1.2 as IL, and non-uniform work-groups. docs/api.md lists what of
//! the mandatory core is still missing.

use super::image;
use super::info::{self, make_version, name_version, val, Info};
use super::runtime::{check_device, check_platform, device_desc, device_id, platform_id};
use super::types::*;
use super::util::{entry, write_opt, ClResult};
use std::ffi::c_void;

pub const DEVICE_VERSION: &str = "OpenCL 3.0 gencl";
/// "OpenCL C<space><major_version.minor_version><space><vendor-specific information>".
pub const OPENCL_C_VERSION: &str = "OpenCL C 1.2 gencl";
/// Only what works end to end: the compiler's list (`gencl_jit::extensions`, which also
/// decides clang's extension macros) after cl_khr_icd.
pub fn device_extensions() -> String {
    format!("cl_khr_icd {}", gencl_jit::extensions::names())
}
pub const IL_VERSION: &str = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2";
pub const MAX_WORK_ITEM_SIZE: usize = 256;
/// Image arguments of each kind (read, write, read-write) and samplers a kernel may take: Intel's
/// runtime's Gen9 figures. The binding table holds 240 surfaces in all, so a kernel with more
/// images than that in total fails to build with an error that says so.
const MAX_IMAGE_ARGS: u32 = 128;
const MAX_SAMPLERS: u32 = 16;
/// Gen9 GT2 L3 cache that backs global memory (KiB): 768 KiB total, 512 KiB usable by data.
const GLOBAL_CACHE_BYTES: u64 = 512 << 10;
const CACHELINE: u32 = 64;
/// Peak EU clock of the GT2 parts in MHz (the emulated device reports the same).
const MAX_CLOCK_MHZ: u32 = 1150;

pub(crate) fn get_device_ids(
    platform: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> ClResult<()> {
    // "CL_INVALID_PLATFORM if platform is not a valid platform."
    if !platform.is_null() {
        check_platform(platform)?;
    }
    // "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
    let known = CL_DEVICE_TYPE_DEFAULT
        | CL_DEVICE_TYPE_CPU
        | CL_DEVICE_TYPE_GPU
        | CL_DEVICE_TYPE_ACCELERATOR
        | CL_DEVICE_TYPE_CUSTOM;
    if device_type != CL_DEVICE_TYPE_ALL && (device_type & !known != 0 || device_type == 0) {
        return Err(CL_INVALID_DEVICE_TYPE);
    }
    // "CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL or if both
    // num_devices and devices are NULL."
    if (num_entries == 0 && !devices.is_null()) || (num_devices.is_null() && devices.is_null()) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found."
    let wanted = device_type == CL_DEVICE_TYPE_ALL
        || device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT) != 0;
    if !wanted || device_desc().is_err() {
        write_opt(num_devices, 0);
        return Err(CL_DEVICE_NOT_FOUND);
    }
    if !devices.is_null() {
        // SAFETY: devices holds num_entries >= 1 entries (checked above).
        unsafe { *devices = device_id() };
    }
    write_opt(num_devices, 1);
    Ok(())
}

pub unsafe extern "C" fn clGetDeviceIDs(
    platform: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    entry(|| get_device_ids(platform, device_type, num_entries, devices, num_devices))
}

fn b(v: bool) -> cl_bool {
    v as cl_bool
}

fn device_info(device: cl_device_id, param: cl_device_info) -> ClResult<Info> {
    // "CL_INVALID_DEVICE if device is not a valid device."
    check_device(device)?;
    let d = device_desc().map_err(|_| CL_INVALID_DEVICE)?;
    let ui = |v: u32| val(&v);
    let ul = |v: u64| val(&v);
    let sz = |v: usize| val(&v);
    match param {
        CL_DEVICE_TYPE => ul(CL_DEVICE_TYPE_GPU),
        CL_DEVICE_VENDOR_ID => ui(0x8086),
        CL_DEVICE_MAX_COMPUTE_UNITS => ui(d.eu_count),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => ui(3),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => val(&[MAX_WORK_ITEM_SIZE; 3]),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => sz(d.max_work_group_size as usize),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => ui(1),
        // cl_khr_fp64 and cl_khr_fp16 are reported (one component each, like every type).
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => ui(1),
        CL_DEVICE_MAX_CLOCK_FREQUENCY => ui(MAX_CLOCK_MHZ),
        CL_DEVICE_ADDRESS_BITS => ui(64),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => ul(d.max_alloc_bytes),
        // Images as Intel's runtime reports them on Gen9 (api/image.rs has the limits).
        CL_DEVICE_IMAGE_SUPPORT => ui(b(true)),
        CL_DEVICE_MAX_READ_IMAGE_ARGS
        | CL_DEVICE_MAX_WRITE_IMAGE_ARGS
        | CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => ui(MAX_IMAGE_ARGS),
        CL_DEVICE_MAX_SAMPLERS => ui(MAX_SAMPLERS),
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT => ui(image::IMAGE_PITCH_ALIGNMENT),
        CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => ui(image::IMAGE_BASE_ADDRESS_ALIGNMENT),
        CL_DEVICE_IMAGE2D_MAX_WIDTH | CL_DEVICE_IMAGE2D_MAX_HEIGHT => sz(image::IMAGE2D_MAX),
        CL_DEVICE_IMAGE3D_MAX_WIDTH
        | CL_DEVICE_IMAGE3D_MAX_HEIGHT
        | CL_DEVICE_IMAGE3D_MAX_DEPTH => sz(image::IMAGE3D_MAX),
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => sz(image::IMAGE_MAX_BUFFER_SIZE),
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => sz(image::IMAGE_MAX_ARRAY_SIZE),
        // The full profile's minimum.
        CL_DEVICE_MAX_PARAMETER_SIZE => sz(1024),
        // In bits: the size of the largest built-in type, long16 (128 bytes).
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => ui(1024),
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => ui(128),
        // The full profile's minimum for single precision.
        CL_DEVICE_SINGLE_FP_CONFIG => ul(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN),
        // Gen9's DF: fused multiply-add, every IEEE rounding mode (cr0), infinities and
        // NaNs, denormals kept (cr0 DP denorm mode set at kernel start), and division and
        // square root correctly rounded (isel/ieee.rs). The minimum cl_khr_fp64 asks is
        // FMA | ROUND_TO_NEAREST | INF_NAN | DENORM.
        CL_DEVICE_DOUBLE_FP_CONFIG => ul(CL_FP_FMA
            | CL_FP_ROUND_TO_NEAREST
            | CL_FP_ROUND_TO_ZERO
            | CL_FP_ROUND_TO_INF
            | CL_FP_INF_NAN
            | CL_FP_DENORM),
        // half: each operation computed in float and rounded once to nearest even
        // (exact for +, -, *, / and sqrt: float has more than 2 * 11 + 2 bits), half
        // denormals kept (they are normal floats), infinities and NaNs. No CL_FP_FMA: a fused
        // half fma would need a second rounding-free path. The minimum cl_khr_fp16 asks is
        // ROUND_TO_ZERO or ROUND_TO_NEAREST, and INF_NAN.
        CL_DEVICE_HALF_FP_CONFIG => ul(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM),
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => ui(CL_READ_WRITE_CACHE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => ui(CACHELINE),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => ul(GLOBAL_CACHE_BYTES),
        CL_DEVICE_GLOBAL_MEM_SIZE => ul(d.global_mem_bytes),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => ul(64 << 10),
        CL_DEVICE_MAX_CONSTANT_ARGS => ui(8),
        CL_DEVICE_LOCAL_MEM_TYPE => ui(CL_LOCAL),
        CL_DEVICE_LOCAL_MEM_SIZE => ul(d.local_mem_bytes),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => ui(b(false)),
        CL_DEVICE_HOST_UNIFIED_MEMORY => ui(b(true)),
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => sz(d.timer_resolution_ns as usize),
        CL_DEVICE_ENDIAN_LITTLE => ui(b(true)),
        CL_DEVICE_AVAILABLE => ui(b(true)),
        CL_DEVICE_COMPILER_AVAILABLE => ui(b(true)),
        // clCompileProgram/clLinkProgram: SPIR-V objects linked by spirv-link in the service.
        CL_DEVICE_LINKER_AVAILABLE => ui(b(true)),
        CL_DEVICE_EXECUTION_CAPABILITIES => ul(CL_EXEC_KERNEL),
        // Also CL_DEVICE_QUEUE_ON_HOST_PROPERTIES (same value).
        CL_DEVICE_QUEUE_PROPERTIES => {
            ul(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        }
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => ul(0),
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE
        | CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
        | CL_DEVICE_MAX_ON_DEVICE_QUEUES
        | CL_DEVICE_MAX_ON_DEVICE_EVENTS
        | CL_DEVICE_MAX_PIPE_ARGS
        | CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS
        | CL_DEVICE_PIPE_MAX_PACKET_SIZE
        | CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => ui(0),
        // A sub-group is a hardware thread, SIMD8 unless the kernel asks for 16; the largest
        // work-group holds this many of the smaller.
        CL_DEVICE_MAX_NUM_SUB_GROUPS => ui(d.max_work_group_size.div_ceil(8) as u32),
        // cl_intel_required_subgroup_size: the widths a kernel may ask for (`isel::SUB_GROUP_SIZES`).
        CL_DEVICE_SUB_GROUP_SIZES_INTEL => val(&gencl_jit::isel::SUB_GROUP_SIZES
            .iter()
            .map(|&w| usize::from(w))
            .collect::<Vec<usize>>()),
        // Program-scope global variables: one buffer per program (service/handler.rs).
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE | CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
            sz(gencl_jit::abi::MAX_GLOBAL_VARIABLE_BYTES as usize)
        }
        CL_DEVICE_SVM_CAPABILITIES => ul(0),
        CL_DEVICE_PLATFORM => val(&platform_id()),
        CL_DEVICE_NAME => val(&d.name),
        CL_DEVICE_VENDOR => val("Intel(R) Corporation"),
        // The compiler build is part of the version, so caches keyed by it (pyopencl's) miss
        // instead of handing this driver another build's binaries (CL_INVALID_BINARY).
        CL_DRIVER_VERSION => val(&format!(
            "{} (compiler {})",
            env!("CARGO_PKG_VERSION"),
            d.compiler_id
        )),
        CL_DEVICE_PROFILE => val("FULL_PROFILE"),
        CL_DEVICE_VERSION => val(DEVICE_VERSION),
        CL_DEVICE_NUMERIC_VERSION => ui(make_version(3, 0, 0)),
        CL_DEVICE_OPENCL_C_VERSION => val(OPENCL_C_VERSION),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => val(&[
            name_version("OpenCL C", 1, 0, 0),
            name_version("OpenCL C", 1, 1, 0),
            name_version("OpenCL C", 1, 2, 0),
            name_version("OpenCL C", 3, 0, 0),
        ]),
        // The features clang defines under -cl-std=CL3.0 (`gencl_jit::extensions`).
        CL_DEVICE_OPENCL_C_FEATURES => val(&gencl_jit::extensions::features()
            .map(|f| name_version(f, 3, 0, 0))
            .collect::<Vec<_>>()),
        CL_DEVICE_EXTENSIONS => val(&device_extensions()),
        CL_DEVICE_EXTENSIONS_WITH_VERSION => {
            let mut v = vec![name_version("cl_khr_icd", 1, 0, 0)];
            for e in gencl_jit::extensions::EXTENSIONS {
                let (a, b, c) = e.version;
                v.push(name_version(e.name, a, b, c));
            }
            val(&v)
        }
        CL_DEVICE_IL_VERSION => val(IL_VERSION),
        CL_DEVICE_ILS_WITH_VERSION => val(&[
            name_version("SPIR-V", 1, 0, 0),
            name_version("SPIR-V", 1, 1, 0),
            name_version("SPIR-V", 1, 2, 0),
        ]),
        CL_DEVICE_BUILT_IN_KERNELS => val(""),
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => val(&Vec::<cl_name_version>::new()),
        CL_DEVICE_PRINTF_BUFFER_SIZE => sz(1 << 20),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => ui(b(true)),
        CL_DEVICE_PARENT_DEVICE => val(&std::ptr::null_mut::<_cl_device_id>()),
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => ui(0),
        CL_DEVICE_PARTITION_PROPERTIES => val(&[0isize]),
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => ul(0),
        // "If device is a root-level device, a param_value_size_ret of 0 can be returned."
        CL_DEVICE_PARTITION_TYPE => val(&Vec::<isize>::new()),
        CL_DEVICE_REFERENCE_COUNT => ui(1),
        // "This query must return CL_TRUE for devices that support the cl_khr_subgroups
        // extension". And they have it: each sub-group is an EU thread, which Gen9 schedules
        // on its own (the GPU model gives the threads of a group turns), so a sub-group
        // waiting on another through memory does not starve it (CTS subgroups ifp_*).
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => ui(b(true)),
        // Every order, up to device scope: Gen9's atomics are performed at the L3 or in SLM,
        // and acquire/release add the data port's fence (jit/src/extensions.rs). Not all
        // devices: there is no SVM for a host to share atomics with.
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES => ul(CL_DEVICE_ATOMIC_ORDER_RELAXED
            | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
            | CL_DEVICE_ATOMIC_ORDER_SEQ_CST
            | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
            | CL_DEVICE_ATOMIC_SCOPE_DEVICE),
        CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => ul(CL_DEVICE_ATOMIC_ORDER_RELAXED
            | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
            | CL_DEVICE_ATOMIC_ORDER_SEQ_CST
            | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM
            | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
            | CL_DEVICE_ATOMIC_SCOPE_DEVICE),
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => ui(b(true)),
        // SIMD8 is the narrowest dispatch; kernels report their own multiple.
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => sz(8),
        // work_group_* through shared local memory (jit/src/frontend/lower/collectives.rs).
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => ui(b(true)),
        // Generic pointers: resolved statically where provable, tagged at run time otherwise
        // (jit/src/passes/generic_pointers.rs).
        CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => ui(b(true)),
        CL_DEVICE_PIPE_SUPPORT => ui(b(false)),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => ul(0),
        // Not conformant: the spec's format "vYYYY-MM-DD-XX" (month and day must be valid,
        // as the CTS's computeinfo checks) with year 0, which no CTS release has.
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => val("v0000-01-01-00"),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetDeviceInfo(
    device: cl_device_id,
    param_name: cl_device_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || device_info(device, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// "clRetainDevice: increments the reference count if device is a valid sub-device created by a
/// call to clCreateSubDevices. If device is a root level device ... the reference count remains
/// unchanged." Same for clReleaseDevice.
pub unsafe extern "C" fn clRetainDevice(device: cl_device_id) -> cl_int {
    entry(|| check_device(device))
}

pub unsafe extern "C" fn clReleaseDevice(device: cl_device_id) -> cl_int {
    entry(|| check_device(device))
}

/// "clGetDeviceAndHostTimer returns a reasonably synchronized pair of timestamps from the
/// device timer and the host timer as seen by device": the device timer is the profiling
/// timebase, and gencl's profiling times are CLOCK_MONOTONIC nanoseconds (a kernel's window
/// placed by the GPU's own duration: docs/runtime.md), so both are one reading.
pub unsafe extern "C" fn clGetDeviceAndHostTimer(
    device: cl_device_id,
    device_timestamp: *mut cl_ulong,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_DEVICE if device is not a valid device."
        check_device(device)?;
        // "CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL."
        if device_timestamp.is_null() || host_timestamp.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let now = crate::core::event::now_ns();
        write_opt(device_timestamp, now);
        write_opt(host_timestamp, now);
        Ok(())
    })
}

pub unsafe extern "C" fn clGetHostTimer(
    device: cl_device_id,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_DEVICE if device is not a valid device."
        check_device(device)?;
        // "CL_INVALID_VALUE if host_timestamp is NULL."
        if host_timestamp.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        write_opt(host_timestamp, crate::core::event::now_ns());
        Ok(())
    })
}
