//! Kernel objects (OpenCL 3.0 §5.9). Argument values are recorded here, checked against the
//! kernel's descriptor from the build; every query is answered from the descriptor.

use super::info::{self, val, Info};
use super::object::{get, Ref};
use super::runtime::{check_device, device_desc};
use super::types::*;
use super::util::{c_str, entry, entry_ptr, write_opt, ClResult};
use crate::core::kernel::{ArgVal, Kernel};
use crate::core::memory::Mem;
use crate::core::program::{Origin, Program};
use crate::core::sampler::Sampler;
use crate::protocol::{AddressDesc, ArgKindDesc};
use gencl_jit::abi::{ImageAccess, ImageArgType};
use parking_lot::Mutex;
use std::ffi::{c_char, c_void};
use std::sync::atomic::Ordering;

fn make_kernel(p: &Ref<Program>, index: usize) -> ClResult<cl_kernel> {
    let b = p.build.lock();
    let desc = b
        .kernels
        .get(index)
        .cloned()
        .ok_or(CL_INVALID_KERNEL_NAME)?;
    let service_program = b.service_id.clone().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
    p.kernels_attached.fetch_add(1, Ordering::AcqRel);
    let args = (0..desc.args.len()).map(|_| None).collect();
    Ok(Ref::new_handle(Kernel {
        program: p.clone(),
        index: index as u32,
        desc,
        service_program,
        non_uniform: b.non_uniform,
        args: Mutex::new(args),
    }))
}

fn built(p: &Ref<Program>) -> ClResult<()> {
    // A program created from gencl's executable binary holds an executable already: as Mesa's
    // drivers and Intel's do (and piglit expects), its kernels can be made before
    // clBuildProgram, which then has only the binary to load.
    super::program::load_executable_binary(p)?;
    // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for program."
    let b = p.build.lock();
    if b.status == CL_BUILD_SUCCESS && b.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE {
        Ok(())
    } else {
        Err(CL_INVALID_PROGRAM_EXECUTABLE)
    }
}

pub unsafe extern "C" fn clCreateKernel(
    program: cl_program,
    kernel_name: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    entry_ptr(errcode_ret, || {
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        let p = get::<Program>(program)?;
        built(&p)?;
        // "CL_INVALID_VALUE if kernel_name is NULL."
        // SAFETY: NULL or NUL-terminated per the spec.
        let name = unsafe { c_str(kernel_name) }.ok_or(CL_INVALID_VALUE)?;
        // "CL_INVALID_KERNEL_NAME if kernel_name is not found in program."
        let index = p
            .build
            .lock()
            .kernels
            .iter()
            .position(|k| k.name == name)
            .ok_or(CL_INVALID_KERNEL_NAME)?;
        make_kernel(&p, index)
    })
}

pub unsafe extern "C" fn clCreateKernelsInProgram(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> cl_int {
    entry(|| {
        let p = get::<Program>(program)?;
        built(&p)?;
        let n = p.build.lock().kernels.len();
        // "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of
        // kernels in program."
        if !kernels.is_null() && (num_kernels as usize) < n {
            return Err(CL_INVALID_VALUE);
        }
        if !kernels.is_null() {
            for i in 0..n {
                let k = make_kernel(&p, i)?;
                // SAFETY: kernels has room for num_kernels >= n handles.
                unsafe { *kernels.add(i) = k };
            }
        }
        write_opt(num_kernels_ret, n as cl_uint);
        Ok(())
    })
}

pub unsafe extern "C" fn clRetainKernel(k: cl_kernel) -> cl_int {
    entry(|| Ref::<Kernel>::retain(k))
}

pub unsafe extern "C" fn clReleaseKernel(k: cl_kernel) -> cl_int {
    entry(|| Ref::<Kernel>::release(k))
}

fn set_arg(kernel: cl_kernel, index: cl_uint, size: usize, value: *const c_void) -> ClResult<()> {
    // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
    let k = get::<Kernel>(kernel)?;
    // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
    let decl = k
        .desc
        .args
        .get(index as usize)
        .ok_or(CL_INVALID_ARG_INDEX)?;
    let v = match decl.kind {
        ArgKindDesc::Buffer => {
            // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size !=
            // sizeof(cl_mem)"
            if size != std::mem::size_of::<cl_mem>() {
                return Err(CL_INVALID_ARG_SIZE);
            }
            // "If the argument is a buffer object, the arg_value pointer can be NULL or point to
            // a NULL value in which case a NULL value will be used as the value for the argument"
            // SAFETY: value is NULL or points to a cl_mem (arg_size checked).
            let m = unsafe { value.cast::<cl_mem>().as_ref() }
                .copied()
                .unwrap_or(std::ptr::null_mut());
            if m.is_null() {
                ArgVal::Mem(None)
            } else {
                // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
                // specified arg_value is not a valid memory object", and "The memory object must
                // be created with the context associated with the kernel object": one of another
                // context is not a valid one for this kernel.
                // An image is no buffer.
                let mem = get::<Mem>(m)?;
                if mem.context.handle() != k.program.context.handle() || mem.image.is_some() {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
                ArgVal::Mem(Some(m as usize))
            }
        }
        ArgKindDesc::Local => {
            // "CL_INVALID_ARG_VALUE if the argument is declared with the local qualifier and
            // arg_value is not NULL" (the local qualifier's arg_value "must be NULL")
            if !value.is_null() {
                return Err(CL_INVALID_ARG_VALUE);
            }
            // "CL_INVALID_ARG_SIZE if arg_size is zero and the argument is declared with the
            // local qualifier"
            if size == 0 {
                return Err(CL_INVALID_ARG_SIZE);
            }
            let max = device_desc()?.local_mem_bytes as usize;
            ArgVal::Local(size.min(max + 1) as u32)
        }
        ArgKindDesc::Value => {
            // "CL_INVALID_ARG_VALUE if arg_value specified is NULL for an argument that is not
            // declared with the __local qualifier or a memory object."
            if value.is_null() {
                return Err(CL_INVALID_ARG_VALUE);
            }
            // "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for an
            // argument that is not a memory object"
            if size != decl.size as usize {
                return Err(CL_INVALID_ARG_SIZE);
            }
            // SAFETY: value points to arg_size bytes per the spec.
            ArgVal::Bytes(unsafe { std::slice::from_raw_parts(value.cast::<u8>(), size) }.to_vec())
        }
        ArgKindDesc::Image(decl_image) => {
            // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size !=
            // sizeof(cl_mem)"
            if size != std::mem::size_of::<cl_mem>() || value.is_null() {
                return Err(if value.is_null() {
                    CL_INVALID_ARG_VALUE
                } else {
                    CL_INVALID_ARG_SIZE
                });
            }
            // SAFETY: value points to a cl_mem (arg_size checked).
            let h = unsafe { *value.cast::<cl_mem>() };
            // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
            // specified arg_value is not a valid memory object": an image argument takes an
            // image of its context.
            let m = get::<Mem>(h)?;
            let img = m.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
            if m.context.handle() != k.program.context.handle() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            // "CL_INVALID_ARG_VALUE if the argument is an image declared with the read_only
            // qualifier and arg_value refers to an image object created with cl_mem_flags of
            // CL_MEM_WRITE_ONLY or if the image argument is declared with the write_only
            // qualifier and arg_value refers to an image object created with cl_mem_flags of
            // CL_MEM_READ_ONLY."
            let refused = match decl_image.access {
                ImageAccess::ReadOnly => CL_MEM_WRITE_ONLY,
                ImageAccess::WriteOnly => CL_MEM_READ_ONLY,
                ImageAccess::ReadWrite => CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            };
            if m.flags & refused != 0 {
                return Err(CL_INVALID_ARG_VALUE);
            }
            // An image of another type than the argument's is no value for it (a 2D image
            // for an image3d_t argument would be read with the wrong surface state).
            // A depth image (CL_DEPTH) goes to image2d_depth_t and image2d_array_depth_t
            // arguments, and only there.
            let (ty, depth) = match decl_image.ty {
                ImageArgType::Image1d => (CL_MEM_OBJECT_IMAGE1D, false),
                ImageArgType::Image1dBuffer => (CL_MEM_OBJECT_IMAGE1D_BUFFER, false),
                ImageArgType::Image1dArray => (CL_MEM_OBJECT_IMAGE1D_ARRAY, false),
                ImageArgType::Image2d => (CL_MEM_OBJECT_IMAGE2D, false),
                ImageArgType::Image2dArray => (CL_MEM_OBJECT_IMAGE2D_ARRAY, false),
                ImageArgType::Image3d => (CL_MEM_OBJECT_IMAGE3D, false),
                ImageArgType::Image2dDepth => (CL_MEM_OBJECT_IMAGE2D, true),
                ImageArgType::Image2dArrayDepth => (CL_MEM_OBJECT_IMAGE2D_ARRAY, true),
            };
            if img.ty != ty || (img.format.image_channel_order == CL_DEPTH) != depth {
                return Err(CL_INVALID_ARG_VALUE);
            }
            ArgVal::Image(h as usize)
        }
        ArgKindDesc::Sampler => {
            // "CL_INVALID_ARG_SIZE if ... the argument is a sampler and arg_size !=
            // sizeof(cl_sampler)"
            if size != std::mem::size_of::<cl_sampler>() {
                return Err(CL_INVALID_ARG_SIZE);
            }
            // "CL_INVALID_SAMPLER for an argument declared to be of type sampler_t when the
            // specified arg_value is not a valid sampler object."
            // SAFETY: value is NULL or points to a cl_sampler (arg_size checked).
            let h = unsafe { value.cast::<cl_sampler>().as_ref() }
                .copied()
                .ok_or(CL_INVALID_SAMPLER)?;
            let smp = get::<Sampler>(h)?;
            if smp.context.handle() != k.program.context.handle() {
                return Err(CL_INVALID_SAMPLER);
            }
            ArgVal::Sampler(smp.value())
        }
    };
    k.args.lock()[index as usize] = Some(v);
    Ok(())
}

pub unsafe extern "C" fn clSetKernelArg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: usize,
    arg_value: *const c_void,
) -> cl_int {
    entry(|| set_arg(kernel, arg_index, arg_size, arg_value))
}

fn kernel_info(kernel: cl_kernel, param: cl_kernel_info) -> ClResult<Info> {
    let k = get::<Kernel>(kernel)?;
    match param {
        CL_KERNEL_FUNCTION_NAME => val(&k.desc.name),
        CL_KERNEL_NUM_ARGS => val(&(k.desc.args.len() as cl_uint)),
        CL_KERNEL_REFERENCE_COUNT => val(&k.ref_count()),
        CL_KERNEL_CONTEXT => val(&k.program.context.handle()),
        CL_KERNEL_PROGRAM => val(&k.program.handle()),
        CL_KERNEL_ATTRIBUTES => val(&k.desc.attributes),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetKernelInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || kernel_info(kernel, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

fn arg_info(
    kernel: cl_kernel,
    index: cl_uint,
    param: cl_kernel_arg_info,
    size: usize,
    value: *mut c_void,
) -> ClResult<Info> {
    let k = get::<Kernel>(kernel)?;
    // "CL_INVALID_ARG_INDEX if arg_indx is not a valid argument index."
    let a = k
        .desc
        .args
        .get(index as usize)
        .ok_or(CL_INVALID_ARG_INDEX)?;
    // "CL_INVALID_VALUE if param_name is not one of the supported values, or if the size in
    // bytes specified by param_value_size is less than size of the return type ... and
    // param_value is not NULL", before CL_KERNEL_ARG_INFO_NOT_AVAILABLE (the names' size needs
    // the information).
    match param {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => {
            info::fits::<cl_kernel_arg_address_qualifier>(size, value)?
        }
        CL_KERNEL_ARG_ACCESS_QUALIFIER => {
            info::fits::<cl_kernel_arg_access_qualifier>(size, value)?
        }
        CL_KERNEL_ARG_TYPE_QUALIFIER => info::fits::<cl_kernel_arg_type_qualifier>(size, value)?,
        CL_KERNEL_ARG_TYPE_NAME | CL_KERNEL_ARG_NAME => {}
        _ => return Err(CL_INVALID_VALUE),
    }
    // "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available for kernel."
    // "Kernel argument information is only available if the program object associated with
    // kernel is created with clCreateProgramWithSource and the program executable was built
    // with the -cl-kernel-arg-info option". A linked program keeps it too: the option belongs
    // to the clCompileProgram of its inputs, which the link does not see.
    let requested = match k.program.origin {
        Origin::Source => k
            .program
            .build
            .lock()
            .options
            .split_whitespace()
            .any(|w| w == "-cl-kernel-arg-info"),
        Origin::Link => true,
        Origin::Il | Origin::Binary => false,
    };
    if !requested || (a.name.is_empty() && a.type_name.is_empty()) {
        return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    }
    match param {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => val(&match (a.kind, a.address) {
            (ArgKindDesc::Local, _) | (_, AddressDesc::Local) => CL_KERNEL_ARG_ADDRESS_LOCAL,
            // Image objects are "always allocated from the global address space" (OpenCL C
            // §6.5).
            (ArgKindDesc::Image(_), _) => CL_KERNEL_ARG_ADDRESS_GLOBAL,
            (_, AddressDesc::Global) if a.kind == ArgKindDesc::Buffer => {
                CL_KERNEL_ARG_ADDRESS_GLOBAL
            }
            (_, AddressDesc::Constant) => CL_KERNEL_ARG_ADDRESS_CONSTANT,
            _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
        }),
        CL_KERNEL_ARG_ACCESS_QUALIFIER => val(&match a.kind {
            ArgKindDesc::Image(i) => match i.access {
                ImageAccess::ReadOnly => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                ImageAccess::WriteOnly => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                ImageAccess::ReadWrite => CL_KERNEL_ARG_ACCESS_READ_WRITE,
            },
            _ => CL_KERNEL_ARG_ACCESS_NONE,
        }),
        CL_KERNEL_ARG_TYPE_NAME => val(&a.type_name),
        CL_KERNEL_ARG_TYPE_QUALIFIER => val(&a.type_qualifier),
        CL_KERNEL_ARG_NAME => val(&a.name),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetKernelArgInfo(
    kernel: cl_kernel,
    arg_index: cl_uint,
    param_name: cl_kernel_arg_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || arg_info(kernel, arg_index, param_name, param_value_size, param_value),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

fn wg_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param: cl_kernel_work_group_info,
) -> ClResult<Info> {
    let k = get::<Kernel>(kernel)?;
    // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or if
    // device is NULL but there is more than one device associated with kernel."
    if !device.is_null() {
        check_device(device)?;
    }
    match param {
        CL_KERNEL_WORK_GROUP_SIZE => val(&k.max_work_group_size()?),
        CL_KERNEL_COMPILE_WORK_GROUP_SIZE => val(&k
            .desc
            .required_wg_size
            .map_or([0usize; 3], |r| r.map(|x| x as usize))),
        CL_KERNEL_LOCAL_MEM_SIZE => val(&k.local_mem_size()),
        CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => val(&(k.desc.simd as usize)),
        // "the minimum amount of private memory, in bytes, used by each work-item ...
        // including any private memory needed by an implementation": the kernel's scratch
        // (spilled registers) is per hardware thread, which runs `simd` work-items.
        CL_KERNEL_PRIVATE_MEM_SIZE => {
            val(&(u64::from(k.desc.scratch_bytes).div_ceil(u64::from(k.desc.simd.max(1)))))
        }
        // cl_intel_required_subgroup_size: "the amount of spill memory used by a kernel",
        // per hardware thread as the scratch space is laid out.
        CL_KERNEL_SPILL_MEM_SIZE_INTEL => val(&u64::from(k.desc.spill_bytes)),
        // "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a
        // custom device and kernel is not a built-in kernel."
        _ => Err(CL_INVALID_VALUE),
    }
}

pub unsafe extern "C" fn clGetKernelWorkGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_work_group_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        || wg_info(kernel, device, param_name),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// clGetKernelSubGroupInfo: the sub-group is the hardware thread of `simd` work-items, and
/// work-items fill threads in local linear order.
///
/// # Safety
/// `input_value` is read for `input_value_size` bytes when not NULL.
unsafe fn sg_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
) -> ClResult<Info> {
    let k = get::<Kernel>(kernel)?;
    // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or if
    // device is NULL but there is more than one device associated with kernel."
    if !device.is_null() {
        check_device(device)?;
    }
    let simd = k.desc.simd.max(1) as usize;
    let max_wg = k.max_work_group_size()?;
    let word = std::mem::size_of::<usize>();
    // "CL_INVALID_VALUE if param_name is CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE and the size in
    // bytes specified by input_value_size is not valid or if input_value is NULL."
    let input = || -> ClResult<Vec<usize>> {
        if input_value.is_null() || input_value_size == 0 || !input_value_size.is_multiple_of(word)
        {
            return Err(CL_INVALID_VALUE);
        }
        let n = input_value_size / word;
        if n > 3 {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the caller passes `input_value_size` readable bytes at `input_value`
        // (checked non-NULL above); read unaligned, as the application owns the layout.
        Ok((0..n)
            .map(|i| unsafe { input_value.cast::<usize>().add(i).read_unaligned() })
            .collect())
    };
    match param {
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE | CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => {
            let local = input()?;
            let total = local.iter().product::<usize>();
            if param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE {
                val(&total.min(simd))
            } else {
                val(&total.div_ceil(simd))
            }
        }
        // "the local size that will generate the requested number of sub-groups for the
        // kernel... 0 if ... no work-group size can accommodate the requested number".
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
            if input_value.is_null() || input_value_size != word {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: one size_t at `input_value`, non-NULL (checked above).
            let count = unsafe { input_value.cast::<usize>().read_unaligned() };
            let dims = (param_value_size / word).clamp(1, 3);
            let x = count.saturating_mul(simd);
            let mut out = vec![1usize; dims];
            out[0] = if count == 0 || x > max_wg { 0 } else { x };
            if out[0] == 0 {
                out.iter_mut().for_each(|v| *v = 0);
            }
            val(&out)
        }
        CL_KERNEL_MAX_NUM_SUB_GROUPS => val(&max_wg.div_ceil(simd)),
        // No attribute sets it (reqd_num_sub_groups is not an attribute clang-15 knows).
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS => val(&0usize),
        // cl_intel_required_subgroup_size: "the sub-group size specified by the
        // intel_reqd_sub_group_size attribute ... or 0 if the attribute was not specified".
        CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL => {
            val(&(k.desc.required_sub_group_size.unwrap_or(0) as usize))
        }
        _ => Err(CL_INVALID_VALUE),
    }
}

/// # Safety
/// The pointers follow the OpenCL API contract.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clGetKernelSubGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::answer(
        // SAFETY: the application's input buffer, as the API contract gives it.
        || unsafe {
            sg_info(
                kernel,
                device,
                param_name,
                input_value_size,
                input_value,
                param_value_size,
            )
        },
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// "clCloneKernel ... makes a shallow copy of the kernel object, its arguments and any
/// information passed to the kernel object using clSetKernelExecInfo."
pub unsafe extern "C" fn clCloneKernel(
    source_kernel: cl_kernel,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    entry_ptr(errcode_ret, || {
        // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
        let k = get::<Kernel>(source_kernel)?;
        let args = k
            .args
            .lock()
            .iter()
            .map(|a| {
                a.as_ref().map(|v| match v {
                    ArgVal::Mem(m) => ArgVal::Mem(*m),
                    ArgVal::Local(n) => ArgVal::Local(*n),
                    ArgVal::Bytes(b) => ArgVal::Bytes(b.clone()),
                    ArgVal::Image(h) => ArgVal::Image(*h),
                    ArgVal::Sampler(v) => ArgVal::Sampler(*v),
                })
            })
            .collect();
        k.program.kernels_attached.fetch_add(1, Ordering::AcqRel);
        Ok(Ref::new_handle(Kernel {
            program: k.program.clone(),
            index: k.index,
            desc: k.desc.clone(),
            service_program: k.service_program.clone(),
            non_uniform: k.non_uniform,
            args: Mutex::new(args),
        }))
    })
}

/// The two parameters OpenCL 3.0 defines both concern SVM, which the device does not support.
pub unsafe extern "C" fn clSetKernelExecInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_exec_info,
    _param_value_size: usize,
    _param_value: *const c_void,
) -> cl_int {
    entry(|| {
        // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
        get::<Kernel>(kernel)?;
        // "CL_INVALID_OPERATION if no devices in the context associated with kernel support
        // SVM" comes before the value checks for the SVM parameters (OpenCL-CTS
        // consistency_svm holds a device without SVM to it).
        match param_name {
            CL_KERNEL_EXEC_INFO_SVM_PTRS | CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
                Err(CL_INVALID_OPERATION)
            }
            // "CL_INVALID_VALUE if param_name is not valid"
            _ => Err(CL_INVALID_VALUE),
        }
    })
}
