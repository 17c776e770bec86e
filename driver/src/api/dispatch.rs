//! The ICD dispatch table (`struct _cl_icd_dispatch`, /usr/include/CL/cl_icd.h), slot for slot in
//! the header's order, and the entry points gencl does not support: each returns the spec's
//! error code for an unsupported feature instead of crashing. Generated once from the header
//! by a script (signatures are ABI facts); extension slots (GL, D3D, DX9, EGL, EXT fission)
//! stay empty because gencl does not report those extensions.
#![allow(non_snake_case, clippy::too_many_arguments, clippy::type_complexity)]

use super::types::*;
use std::ffi::{c_char, c_uint, c_void};

/// An empty slot for an extension entry point gencl does not report.
pub type Unimplemented = Option<unsafe extern "C" fn()>;

#[repr(C)]
pub struct IcdDispatch {
    pub clGetPlatformIDs:
        Option<unsafe extern "C" fn(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int>,
    pub clGetPlatformInfo: Option<
        unsafe extern "C" fn(
            cl_platform_id,
            cl_platform_info,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int,
    >,
    pub clGetDeviceIDs: Option<
        unsafe extern "C" fn(
            cl_platform_id,
            cl_device_type,
            cl_uint,
            *mut cl_device_id,
            *mut cl_uint,
        ) -> cl_int,
    >,
    pub clGetDeviceInfo: Option<
        unsafe extern "C" fn(
            cl_device_id,
            cl_device_info,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int,
    >,
    pub clCreateContext: Option<
        unsafe extern "C" fn(
            *const cl_context_properties,
            cl_uint,
            *const cl_device_id,
            Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>,
            *mut c_void,
            *mut cl_int,
        ) -> cl_context,
    >,
    pub clCreateContextFromType: Option<
        unsafe extern "C" fn(
            *const cl_context_properties,
            cl_device_type,
            Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>,
            *mut c_void,
            *mut cl_int,
        ) -> cl_context,
    >,
    pub clRetainContext: Option<unsafe extern "C" fn(cl_context) -> cl_int>,
    pub clReleaseContext: Option<unsafe extern "C" fn(cl_context) -> cl_int>,
    pub clGetContextInfo: Option<
        unsafe extern "C" fn(cl_context, cl_context_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clCreateCommandQueue: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_device_id,
            cl_command_queue_properties,
            *mut cl_int,
        ) -> cl_command_queue,
    >,
    pub clRetainCommandQueue: Option<unsafe extern "C" fn(cl_command_queue) -> cl_int>,
    pub clReleaseCommandQueue: Option<unsafe extern "C" fn(cl_command_queue) -> cl_int>,
    pub clGetCommandQueueInfo: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_command_queue_info,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int,
    >,
    pub clSetCommandQueueProperty: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_command_queue_properties,
            cl_bool,
            *mut cl_command_queue_properties,
        ) -> cl_int,
    >,
    pub clCreateBuffer: Option<
        unsafe extern "C" fn(cl_context, cl_mem_flags, usize, *mut c_void, *mut cl_int) -> cl_mem,
    >,
    pub clCreateImage2D: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_mem_flags,
            *const cl_image_format,
            usize,
            usize,
            usize,
            *mut c_void,
            *mut cl_int,
        ) -> cl_mem,
    >,
    pub clCreateImage3D: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_mem_flags,
            *const cl_image_format,
            usize,
            usize,
            usize,
            usize,
            usize,
            *mut c_void,
            *mut cl_int,
        ) -> cl_mem,
    >,
    pub clRetainMemObject: Option<unsafe extern "C" fn(cl_mem) -> cl_int>,
    pub clReleaseMemObject: Option<unsafe extern "C" fn(cl_mem) -> cl_int>,
    pub clGetSupportedImageFormats: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_mem_flags,
            cl_mem_object_type,
            cl_uint,
            *mut cl_image_format,
            *mut cl_uint,
        ) -> cl_int,
    >,
    pub clGetMemObjectInfo:
        Option<unsafe extern "C" fn(cl_mem, cl_mem_info, usize, *mut c_void, *mut usize) -> cl_int>,
    pub clGetImageInfo: Option<
        unsafe extern "C" fn(cl_mem, cl_image_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clCreateSampler: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_bool,
            cl_addressing_mode,
            cl_filter_mode,
            *mut cl_int,
        ) -> cl_sampler,
    >,
    pub clRetainSampler: Option<unsafe extern "C" fn(cl_sampler) -> cl_int>,
    pub clReleaseSampler: Option<unsafe extern "C" fn(cl_sampler) -> cl_int>,
    pub clGetSamplerInfo: Option<
        unsafe extern "C" fn(cl_sampler, cl_sampler_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clCreateProgramWithSource: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_uint,
            *mut *const c_char,
            *const usize,
            *mut cl_int,
        ) -> cl_program,
    >,
    pub clCreateProgramWithBinary: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_uint,
            *const cl_device_id,
            *const usize,
            *mut *const u8,
            *mut cl_int,
            *mut cl_int,
        ) -> cl_program,
    >,
    pub clRetainProgram: Option<unsafe extern "C" fn(cl_program) -> cl_int>,
    pub clReleaseProgram: Option<unsafe extern "C" fn(cl_program) -> cl_int>,
    pub clBuildProgram: Option<
        unsafe extern "C" fn(
            cl_program,
            cl_uint,
            *const cl_device_id,
            *const c_char,
            Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
            *mut c_void,
        ) -> cl_int,
    >,
    pub clUnloadCompiler: Option<unsafe extern "C" fn() -> cl_int>,
    pub clGetProgramInfo: Option<
        unsafe extern "C" fn(cl_program, cl_program_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clGetProgramBuildInfo: Option<
        unsafe extern "C" fn(
            cl_program,
            cl_device_id,
            cl_program_build_info,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int,
    >,
    pub clCreateKernel:
        Option<unsafe extern "C" fn(cl_program, *const c_char, *mut cl_int) -> cl_kernel>,
    pub clCreateKernelsInProgram:
        Option<unsafe extern "C" fn(cl_program, cl_uint, *mut cl_kernel, *mut cl_uint) -> cl_int>,
    pub clRetainKernel: Option<unsafe extern "C" fn(cl_kernel) -> cl_int>,
    pub clReleaseKernel: Option<unsafe extern "C" fn(cl_kernel) -> cl_int>,
    pub clSetKernelArg:
        Option<unsafe extern "C" fn(cl_kernel, cl_uint, usize, *const c_void) -> cl_int>,
    pub clGetKernelInfo: Option<
        unsafe extern "C" fn(cl_kernel, cl_kernel_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clGetKernelWorkGroupInfo: Option<
        unsafe extern "C" fn(
            cl_kernel,
            cl_device_id,
            cl_kernel_work_group_info,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int,
    >,
    pub clWaitForEvents: Option<unsafe extern "C" fn(cl_uint, *const cl_event) -> cl_int>,
    pub clGetEventInfo: Option<
        unsafe extern "C" fn(cl_event, cl_event_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clRetainEvent: Option<unsafe extern "C" fn(cl_event) -> cl_int>,
    pub clReleaseEvent: Option<unsafe extern "C" fn(cl_event) -> cl_int>,
    pub clGetEventProfilingInfo: Option<
        unsafe extern "C" fn(cl_event, cl_profiling_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clFlush: Option<unsafe extern "C" fn(cl_command_queue) -> cl_int>,
    pub clFinish: Option<unsafe extern "C" fn(cl_command_queue) -> cl_int>,
    pub clEnqueueReadBuffer: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            usize,
            usize,
            *mut c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueWriteBuffer: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            usize,
            usize,
            *const c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueCopyBuffer: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_mem,
            usize,
            usize,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueReadImage: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            *const usize,
            *const usize,
            usize,
            usize,
            *mut c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueWriteImage: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            *const usize,
            *const usize,
            usize,
            usize,
            *const c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueCopyImage: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_mem,
            *const usize,
            *const usize,
            *const usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueCopyImageToBuffer: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_mem,
            *const usize,
            *const usize,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueCopyBufferToImage: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_mem,
            usize,
            *const usize,
            *const usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueMapBuffer: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            cl_map_flags,
            usize,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
            *mut cl_int,
        ) -> *mut c_void,
    >,
    pub clEnqueueMapImage: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            cl_map_flags,
            *const usize,
            *const usize,
            *mut usize,
            *mut usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
            *mut cl_int,
        ) -> *mut c_void,
    >,
    pub clEnqueueUnmapMemObject: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            *mut c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueNDRangeKernel: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_kernel,
            cl_uint,
            *const usize,
            *const usize,
            *const usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueTask: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_kernel,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueNativeKernel: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            Option<unsafe extern "C" fn(*mut c_void)>,
            *mut c_void,
            usize,
            cl_uint,
            *const cl_mem,
            *mut *const c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueMarker: Option<unsafe extern "C" fn(cl_command_queue, *mut cl_event) -> cl_int>,
    pub clEnqueueWaitForEvents:
        Option<unsafe extern "C" fn(cl_command_queue, cl_uint, *const cl_event) -> cl_int>,
    pub clEnqueueBarrier: Option<unsafe extern "C" fn(cl_command_queue) -> cl_int>,
    pub clGetExtensionFunctionAddress: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub clCreateFromGLBuffer: Unimplemented,
    pub clCreateFromGLTexture2D: Unimplemented,
    pub clCreateFromGLTexture3D: Unimplemented,
    pub clCreateFromGLRenderbuffer: Unimplemented,
    pub clGetGLObjectInfo: Unimplemented,
    pub clGetGLTextureInfo: Unimplemented,
    pub clEnqueueAcquireGLObjects: Unimplemented,
    pub clEnqueueReleaseGLObjects: Unimplemented,
    pub clGetGLContextInfoKHR: Unimplemented,
    pub clGetDeviceIDsFromD3D10KHR: Unimplemented,
    pub clCreateFromD3D10BufferKHR: Unimplemented,
    pub clCreateFromD3D10Texture2DKHR: Unimplemented,
    pub clCreateFromD3D10Texture3DKHR: Unimplemented,
    pub clEnqueueAcquireD3D10ObjectsKHR: Unimplemented,
    pub clEnqueueReleaseD3D10ObjectsKHR: Unimplemented,
    pub clSetEventCallback: Option<
        unsafe extern "C" fn(
            cl_event,
            cl_int,
            Option<unsafe extern "C" fn(cl_event, cl_int, *mut c_void)>,
            *mut c_void,
        ) -> cl_int,
    >,
    pub clCreateSubBuffer: Option<
        unsafe extern "C" fn(
            cl_mem,
            cl_mem_flags,
            cl_buffer_create_type,
            *const c_void,
            *mut cl_int,
        ) -> cl_mem,
    >,
    pub clSetMemObjectDestructorCallback: Option<
        unsafe extern "C" fn(
            cl_mem,
            Option<unsafe extern "C" fn(cl_mem, *mut c_void)>,
            *mut c_void,
        ) -> cl_int,
    >,
    pub clCreateUserEvent: Option<unsafe extern "C" fn(cl_context, *mut cl_int) -> cl_event>,
    pub clSetUserEventStatus: Option<unsafe extern "C" fn(cl_event, cl_int) -> cl_int>,
    pub clEnqueueReadBufferRect: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            *const usize,
            *const usize,
            *const usize,
            usize,
            usize,
            usize,
            usize,
            *mut c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueWriteBufferRect: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_bool,
            *const usize,
            *const usize,
            *const usize,
            usize,
            usize,
            usize,
            usize,
            *const c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueCopyBufferRect: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            cl_mem,
            *const usize,
            *const usize,
            *const usize,
            usize,
            usize,
            usize,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clCreateSubDevicesEXT: Unimplemented,
    pub clRetainDeviceEXT: Unimplemented,
    pub clReleaseDeviceEXT: Unimplemented,
    pub clCreateEventFromGLsyncKHR: Unimplemented,
    pub clCreateSubDevices: Option<
        unsafe extern "C" fn(
            cl_device_id,
            *const cl_device_partition_property,
            cl_uint,
            *mut cl_device_id,
            *mut cl_uint,
        ) -> cl_int,
    >,
    pub clRetainDevice: Option<unsafe extern "C" fn(cl_device_id) -> cl_int>,
    pub clReleaseDevice: Option<unsafe extern "C" fn(cl_device_id) -> cl_int>,
    pub clCreateImage: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_mem_flags,
            *const cl_image_format,
            *const cl_image_desc,
            *mut c_void,
            *mut cl_int,
        ) -> cl_mem,
    >,
    pub clCreateProgramWithBuiltInKernels: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_uint,
            *const cl_device_id,
            *const c_char,
            *mut cl_int,
        ) -> cl_program,
    >,
    pub clCompileProgram: Option<
        unsafe extern "C" fn(
            cl_program,
            cl_uint,
            *const cl_device_id,
            *const c_char,
            cl_uint,
            *const cl_program,
            *mut *const c_char,
            Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
            *mut c_void,
        ) -> cl_int,
    >,
    pub clLinkProgram: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_uint,
            *const cl_device_id,
            *const c_char,
            cl_uint,
            *const cl_program,
            Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
            *mut c_void,
            *mut cl_int,
        ) -> cl_program,
    >,
    pub clUnloadPlatformCompiler: Option<unsafe extern "C" fn(cl_platform_id) -> cl_int>,
    pub clGetKernelArgInfo: Option<
        unsafe extern "C" fn(
            cl_kernel,
            cl_uint,
            cl_kernel_arg_info,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int,
    >,
    pub clEnqueueFillBuffer: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            *const c_void,
            usize,
            usize,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueFillImage: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_mem,
            *const c_void,
            *const usize,
            *const usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueMigrateMemObjects: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_uint,
            *const cl_mem,
            cl_mem_migration_flags,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueMarkerWithWaitList: Option<
        unsafe extern "C" fn(cl_command_queue, cl_uint, *const cl_event, *mut cl_event) -> cl_int,
    >,
    pub clEnqueueBarrierWithWaitList: Option<
        unsafe extern "C" fn(cl_command_queue, cl_uint, *const cl_event, *mut cl_event) -> cl_int,
    >,
    pub clGetExtensionFunctionAddressForPlatform:
        Option<unsafe extern "C" fn(cl_platform_id, *const c_char) -> *mut c_void>,
    pub clCreateFromGLTexture: Unimplemented,
    pub clGetDeviceIDsFromD3D11KHR: Unimplemented,
    pub clCreateFromD3D11BufferKHR: Unimplemented,
    pub clCreateFromD3D11Texture2DKHR: Unimplemented,
    pub clCreateFromD3D11Texture3DKHR: Unimplemented,
    pub clCreateFromDX9MediaSurfaceKHR: Unimplemented,
    pub clEnqueueAcquireD3D11ObjectsKHR: Unimplemented,
    pub clEnqueueReleaseD3D11ObjectsKHR: Unimplemented,
    pub clGetDeviceIDsFromDX9MediaAdapterKHR: Unimplemented,
    pub clEnqueueAcquireDX9MediaSurfacesKHR: Unimplemented,
    pub clEnqueueReleaseDX9MediaSurfacesKHR: Unimplemented,
    pub clCreateFromEGLImageKHR: Unimplemented,
    pub clEnqueueAcquireEGLObjectsKHR: Unimplemented,
    pub clEnqueueReleaseEGLObjectsKHR: Unimplemented,
    pub clCreateEventFromEGLSyncKHR: Unimplemented,
    pub clCreateCommandQueueWithProperties: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_device_id,
            *const cl_queue_properties,
            *mut cl_int,
        ) -> cl_command_queue,
    >,
    pub clCreatePipe: Option<
        unsafe extern "C" fn(
            cl_context,
            cl_mem_flags,
            cl_uint,
            cl_uint,
            *const cl_pipe_properties,
            *mut cl_int,
        ) -> cl_mem,
    >,
    pub clGetPipeInfo: Option<
        unsafe extern "C" fn(cl_mem, cl_pipe_info, usize, *mut c_void, *mut usize) -> cl_int,
    >,
    pub clSVMAlloc:
        Option<unsafe extern "C" fn(cl_context, cl_svm_mem_flags, usize, c_uint) -> *mut c_void>,
    pub clSVMFree: Option<unsafe extern "C" fn(cl_context, *mut c_void)>,
    pub clEnqueueSVMFree: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_uint,
            *mut *mut c_void,
            Option<unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void)>,
            *mut c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueSVMMemcpy: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_bool,
            *mut c_void,
            *const c_void,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueSVMMemFill: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            *mut c_void,
            *const c_void,
            usize,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueSVMMap: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_bool,
            cl_map_flags,
            *mut c_void,
            usize,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clEnqueueSVMUnmap: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            *mut c_void,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clCreateSamplerWithProperties: Option<
        unsafe extern "C" fn(cl_context, *const cl_sampler_properties, *mut cl_int) -> cl_sampler,
    >,
    pub clSetKernelArgSVMPointer:
        Option<unsafe extern "C" fn(cl_kernel, cl_uint, *const c_void) -> cl_int>,
    pub clSetKernelExecInfo: Option<
        unsafe extern "C" fn(cl_kernel, cl_kernel_exec_info, usize, *const c_void) -> cl_int,
    >,
    pub clGetKernelSubGroupInfoKHR: Unimplemented,
    pub clCloneKernel: Option<unsafe extern "C" fn(cl_kernel, *mut cl_int) -> cl_kernel>,
    pub clCreateProgramWithIL:
        Option<unsafe extern "C" fn(cl_context, *const c_void, usize, *mut cl_int) -> cl_program>,
    pub clEnqueueSVMMigrateMem: Option<
        unsafe extern "C" fn(
            cl_command_queue,
            cl_uint,
            *mut *const c_void,
            *const usize,
            cl_mem_migration_flags,
            cl_uint,
            *const cl_event,
            *mut cl_event,
        ) -> cl_int,
    >,
    pub clGetDeviceAndHostTimer:
        Option<unsafe extern "C" fn(cl_device_id, *mut cl_ulong, *mut cl_ulong) -> cl_int>,
    pub clGetHostTimer: Option<unsafe extern "C" fn(cl_device_id, *mut cl_ulong) -> cl_int>,
    pub clGetKernelSubGroupInfo: Option<
        unsafe extern "C" fn(
            cl_kernel,
            cl_device_id,
            cl_kernel_sub_group_info,
            usize,
            *const c_void,
            usize,
            *mut c_void,
            *mut usize,
        ) -> cl_int,
    >,
    pub clSetDefaultDeviceCommandQueue:
        Option<unsafe extern "C" fn(cl_context, cl_device_id, cl_command_queue) -> cl_int>,
    pub clSetProgramReleaseCallback: Option<
        unsafe extern "C" fn(
            cl_program,
            Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
            *mut c_void,
        ) -> cl_int,
    >,
    pub clSetProgramSpecializationConstant:
        Option<unsafe extern "C" fn(cl_program, cl_uint, usize, *const c_void) -> cl_int>,
    pub clCreateBufferWithProperties: Option<
        unsafe extern "C" fn(
            cl_context,
            *const cl_mem_properties,
            cl_mem_flags,
            usize,
            *mut c_void,
            *mut cl_int,
        ) -> cl_mem,
    >,
    pub clCreateImageWithProperties: Option<
        unsafe extern "C" fn(
            cl_context,
            *const cl_mem_properties,
            cl_mem_flags,
            *const cl_image_format,
            *const cl_image_desc,
            *mut c_void,
            *mut cl_int,
        ) -> cl_mem,
    >,
    pub clSetContextDestructorCallback: Option<
        unsafe extern "C" fn(
            cl_context,
            Option<unsafe extern "C" fn(cl_context, *mut c_void)>,
            *mut c_void,
        ) -> cl_int,
    >,
}

/// Entry points gencl does not implement (see docs/api.md).
pub mod unsupported {
    use super::*;
    use crate::api::util::unsupported;
    pub unsafe extern "C" fn clSetCommandQueueProperty(
        _command_queue: cl_command_queue,
        _properties: cl_command_queue_properties,
        _enable: cl_bool,
        _old_properties: *mut cl_command_queue_properties,
    ) -> cl_int {
        unsupported("clSetCommandQueueProperty", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clCreateImage2D(
        _context: cl_context,
        _flags: cl_mem_flags,
        _image_format: *const cl_image_format,
        _image_width: usize,
        _image_height: usize,
        _image_row_pitch: usize,
        _host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem {
        let err = unsupported("clCreateImage2D", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clCreateImage3D(
        _context: cl_context,
        _flags: cl_mem_flags,
        _image_format: *const cl_image_format,
        _image_width: usize,
        _image_height: usize,
        _image_depth: usize,
        _image_row_pitch: usize,
        _image_slice_pitch: usize,
        _host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem {
        let err = unsupported("clCreateImage3D", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clCreateSampler(
        _context: cl_context,
        _normalized_coords: cl_bool,
        _addressing_mode: cl_addressing_mode,
        _filter_mode: cl_filter_mode,
        errcode_ret: *mut cl_int,
    ) -> cl_sampler {
        let err = unsupported("clCreateSampler", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clEnqueueReadImage(
        _command_queue: cl_command_queue,
        _image: cl_mem,
        _blocking_read: cl_bool,
        _origin: *const usize,
        _region: *const usize,
        _row_pitch: usize,
        _slice_pitch: usize,
        _ptr: *mut c_void,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueReadImage", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueWriteImage(
        _command_queue: cl_command_queue,
        _image: cl_mem,
        _blocking_write: cl_bool,
        _origin: *const usize,
        _region: *const usize,
        _input_row_pitch: usize,
        _input_slice_pitch: usize,
        _ptr: *const c_void,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueWriteImage", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueCopyImage(
        _command_queue: cl_command_queue,
        _src_image: cl_mem,
        _dst_image: cl_mem,
        _src_origin: *const usize,
        _dst_origin: *const usize,
        _region: *const usize,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueCopyImage", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueCopyImageToBuffer(
        _command_queue: cl_command_queue,
        _src_image: cl_mem,
        _dst_buffer: cl_mem,
        _src_origin: *const usize,
        _region: *const usize,
        _dst_offset: usize,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueCopyImageToBuffer", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueCopyBufferToImage(
        _command_queue: cl_command_queue,
        _src_buffer: cl_mem,
        _dst_image: cl_mem,
        _src_offset: usize,
        _dst_origin: *const usize,
        _region: *const usize,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueCopyBufferToImage", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueMapImage(
        _command_queue: cl_command_queue,
        _image: cl_mem,
        _blocking_map: cl_bool,
        _map_flags: cl_map_flags,
        _origin: *const usize,
        _region: *const usize,
        _image_row_pitch: *mut usize,
        _image_slice_pitch: *mut usize,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
        errcode_ret: *mut cl_int,
    ) -> *mut c_void {
        let err = unsupported("clEnqueueMapImage", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clEnqueueNativeKernel(
        _command_queue: cl_command_queue,
        _user_func: Option<unsafe extern "C" fn(*mut c_void)>,
        _args: *mut c_void,
        _cb_args: usize,
        _num_mem_objects: cl_uint,
        _mem_list: *const cl_mem,
        _args_mem_loc: *mut *const c_void,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueNativeKernel", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clCreateSubDevices(
        _in_device: cl_device_id,
        _partition_properties: *const cl_device_partition_property,
        _num_entries: cl_uint,
        _out_devices: *mut cl_device_id,
        _num_devices: *mut cl_uint,
    ) -> cl_int {
        unsupported("clCreateSubDevices", CL_INVALID_VALUE)
    }
    pub unsafe extern "C" fn clCreateImage(
        _context: cl_context,
        _flags: cl_mem_flags,
        _image_format: *const cl_image_format,
        _image_desc: *const cl_image_desc,
        _host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem {
        let err = unsupported("clCreateImage", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clCreateProgramWithBuiltInKernels(
        _context: cl_context,
        _num_devices: cl_uint,
        _device_list: *const cl_device_id,
        _kernel_names: *const c_char,
        errcode_ret: *mut cl_int,
    ) -> cl_program {
        let err = unsupported("clCreateProgramWithBuiltInKernels", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clEnqueueFillImage(
        _command_queue: cl_command_queue,
        _image: cl_mem,
        _fill_color: *const c_void,
        _origin: *const usize,
        _region: *const usize,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueFillImage", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clCreatePipe(
        _a0: cl_context,
        _a1: cl_mem_flags,
        _a2: cl_uint,
        _a3: cl_uint,
        _a4: *const cl_pipe_properties,
        errcode_ret: *mut cl_int,
    ) -> cl_mem {
        let err = unsupported("clCreatePipe", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clSVMAlloc(
        _a0: cl_context,
        _a1: cl_svm_mem_flags,
        _a2: usize,
        _a3: c_uint,
    ) -> *mut c_void {
        let _ = unsupported("clSVMAlloc", CL_INVALID_OPERATION);
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clSVMFree(_a0: cl_context, _a1: *mut c_void) {
        let _ = unsupported("clSVMFree", CL_INVALID_OPERATION);
    }
    pub unsafe extern "C" fn clEnqueueSVMFree(
        _a0: cl_command_queue,
        _a1: cl_uint,
        _a2: *mut *mut c_void,
        _pfn_free_func: Option<
            unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void),
        >,
        _a4: *mut c_void,
        _a5: cl_uint,
        _a6: *const cl_event,
        _a7: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueSVMFree", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueSVMMemcpy(
        _a0: cl_command_queue,
        _a1: cl_bool,
        _a2: *mut c_void,
        _a3: *const c_void,
        _a4: usize,
        _a5: cl_uint,
        _a6: *const cl_event,
        _a7: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueSVMMemcpy", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueSVMMemFill(
        _a0: cl_command_queue,
        _a1: *mut c_void,
        _a2: *const c_void,
        _a3: usize,
        _a4: usize,
        _a5: cl_uint,
        _a6: *const cl_event,
        _a7: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueSVMMemFill", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueSVMMap(
        _a0: cl_command_queue,
        _a1: cl_bool,
        _a2: cl_map_flags,
        _a3: *mut c_void,
        _a4: usize,
        _a5: cl_uint,
        _a6: *const cl_event,
        _a7: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueSVMMap", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueSVMUnmap(
        _a0: cl_command_queue,
        _a1: *mut c_void,
        _a2: cl_uint,
        _a3: *const cl_event,
        _a4: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueSVMUnmap", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clCreateSamplerWithProperties(
        _a0: cl_context,
        _a1: *const cl_sampler_properties,
        errcode_ret: *mut cl_int,
    ) -> cl_sampler {
        let err = unsupported("clCreateSamplerWithProperties", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
    pub unsafe extern "C" fn clSetKernelArgSVMPointer(
        _a0: cl_kernel,
        _a1: cl_uint,
        _a2: *const c_void,
    ) -> cl_int {
        unsupported("clSetKernelArgSVMPointer", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clEnqueueSVMMigrateMem(
        _command_queue: cl_command_queue,
        _num_svm_pointers: cl_uint,
        _svm_pointers: *mut *const c_void,
        _sizes: *const usize,
        _flags: cl_mem_migration_flags,
        _num_events_in_wait_list: cl_uint,
        _event_wait_list: *const cl_event,
        _event: *mut cl_event,
    ) -> cl_int {
        unsupported("clEnqueueSVMMigrateMem", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clSetDefaultDeviceCommandQueue(
        _context: cl_context,
        _device: cl_device_id,
        _command_queue: cl_command_queue,
    ) -> cl_int {
        unsupported("clSetDefaultDeviceCommandQueue", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clSetProgramReleaseCallback(
        _program: cl_program,
        _pfn_notify: Option<unsafe extern "C" fn(cl_program, *mut c_void)>,
        _user_data: *mut c_void,
    ) -> cl_int {
        unsupported("clSetProgramReleaseCallback", CL_INVALID_OPERATION)
    }
    pub unsafe extern "C" fn clCreateImageWithProperties(
        _context: cl_context,
        _properties: *const cl_mem_properties,
        _flags: cl_mem_flags,
        _image_format: *const cl_image_format,
        _image_desc: *const cl_image_desc,
        _host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem {
        let err = unsupported("clCreateImageWithProperties", CL_INVALID_OPERATION);
        // SAFETY: errcode_ret is NULL or points to a cl_int, as the spec requires of the caller.
        if let Some(e) = unsafe { errcode_ret.as_mut() } {
            *e = err;
        }
        std::ptr::null_mut()
    }
}

/// The slot names in table order (for clGetExtensionFunctionAddress and tests).
pub const SLOT_NAMES: &[&str] = &[
    "clGetPlatformIDs",
    "clGetPlatformInfo",
    "clGetDeviceIDs",
    "clGetDeviceInfo",
    "clCreateContext",
    "clCreateContextFromType",
    "clRetainContext",
    "clReleaseContext",
    "clGetContextInfo",
    "clCreateCommandQueue",
    "clRetainCommandQueue",
    "clReleaseCommandQueue",
    "clGetCommandQueueInfo",
    "clSetCommandQueueProperty",
    "clCreateBuffer",
    "clCreateImage2D",
    "clCreateImage3D",
    "clRetainMemObject",
    "clReleaseMemObject",
    "clGetSupportedImageFormats",
    "clGetMemObjectInfo",
    "clGetImageInfo",
    "clCreateSampler",
    "clRetainSampler",
    "clReleaseSampler",
    "clGetSamplerInfo",
    "clCreateProgramWithSource",
    "clCreateProgramWithBinary",
    "clRetainProgram",
    "clReleaseProgram",
    "clBuildProgram",
    "clUnloadCompiler",
    "clGetProgramInfo",
    "clGetProgramBuildInfo",
    "clCreateKernel",
    "clCreateKernelsInProgram",
    "clRetainKernel",
    "clReleaseKernel",
    "clSetKernelArg",
    "clGetKernelInfo",
    "clGetKernelWorkGroupInfo",
    "clWaitForEvents",
    "clGetEventInfo",
    "clRetainEvent",
    "clReleaseEvent",
    "clGetEventProfilingInfo",
    "clFlush",
    "clFinish",
    "clEnqueueReadBuffer",
    "clEnqueueWriteBuffer",
    "clEnqueueCopyBuffer",
    "clEnqueueReadImage",
    "clEnqueueWriteImage",
    "clEnqueueCopyImage",
    "clEnqueueCopyImageToBuffer",
    "clEnqueueCopyBufferToImage",
    "clEnqueueMapBuffer",
    "clEnqueueMapImage",
    "clEnqueueUnmapMemObject",
    "clEnqueueNDRangeKernel",
    "clEnqueueTask",
    "clEnqueueNativeKernel",
    "clEnqueueMarker",
    "clEnqueueWaitForEvents",
    "clEnqueueBarrier",
    "clGetExtensionFunctionAddress",
    "clCreateFromGLBuffer",
    "clCreateFromGLTexture2D",
    "clCreateFromGLTexture3D",
    "clCreateFromGLRenderbuffer",
    "clGetGLObjectInfo",
    "clGetGLTextureInfo",
    "clEnqueueAcquireGLObjects",
    "clEnqueueReleaseGLObjects",
    "clGetGLContextInfoKHR",
    "clGetDeviceIDsFromD3D10KHR",
    "clCreateFromD3D10BufferKHR",
    "clCreateFromD3D10Texture2DKHR",
    "clCreateFromD3D10Texture3DKHR",
    "clEnqueueAcquireD3D10ObjectsKHR",
    "clEnqueueReleaseD3D10ObjectsKHR",
    "clSetEventCallback",
    "clCreateSubBuffer",
    "clSetMemObjectDestructorCallback",
    "clCreateUserEvent",
    "clSetUserEventStatus",
    "clEnqueueReadBufferRect",
    "clEnqueueWriteBufferRect",
    "clEnqueueCopyBufferRect",
    "clCreateSubDevicesEXT",
    "clRetainDeviceEXT",
    "clReleaseDeviceEXT",
    "clCreateEventFromGLsyncKHR",
    "clCreateSubDevices",
    "clRetainDevice",
    "clReleaseDevice",
    "clCreateImage",
    "clCreateProgramWithBuiltInKernels",
    "clCompileProgram",
    "clLinkProgram",
    "clUnloadPlatformCompiler",
    "clGetKernelArgInfo",
    "clEnqueueFillBuffer",
    "clEnqueueFillImage",
    "clEnqueueMigrateMemObjects",
    "clEnqueueMarkerWithWaitList",
    "clEnqueueBarrierWithWaitList",
    "clGetExtensionFunctionAddressForPlatform",
    "clCreateFromGLTexture",
    "clGetDeviceIDsFromD3D11KHR",
    "clCreateFromD3D11BufferKHR",
    "clCreateFromD3D11Texture2DKHR",
    "clCreateFromD3D11Texture3DKHR",
    "clCreateFromDX9MediaSurfaceKHR",
    "clEnqueueAcquireD3D11ObjectsKHR",
    "clEnqueueReleaseD3D11ObjectsKHR",
    "clGetDeviceIDsFromDX9MediaAdapterKHR",
    "clEnqueueAcquireDX9MediaSurfacesKHR",
    "clEnqueueReleaseDX9MediaSurfacesKHR",
    "clCreateFromEGLImageKHR",
    "clEnqueueAcquireEGLObjectsKHR",
    "clEnqueueReleaseEGLObjectsKHR",
    "clCreateEventFromEGLSyncKHR",
    "clCreateCommandQueueWithProperties",
    "clCreatePipe",
    "clGetPipeInfo",
    "clSVMAlloc",
    "clSVMFree",
    "clEnqueueSVMFree",
    "clEnqueueSVMMemcpy",
    "clEnqueueSVMMemFill",
    "clEnqueueSVMMap",
    "clEnqueueSVMUnmap",
    "clCreateSamplerWithProperties",
    "clSetKernelArgSVMPointer",
    "clSetKernelExecInfo",
    "clGetKernelSubGroupInfoKHR",
    "clCloneKernel",
    "clCreateProgramWithIL",
    "clEnqueueSVMMigrateMem",
    "clGetDeviceAndHostTimer",
    "clGetHostTimer",
    "clGetKernelSubGroupInfo",
    "clSetDefaultDeviceCommandQueue",
    "clSetProgramReleaseCallback",
    "clSetProgramSpecializationConstant",
    "clCreateBufferWithProperties",
    "clCreateImageWithProperties",
    "clSetContextDestructorCallback",
];

/// The one dispatch table every gencl object points at.
pub static DISPATCH: IcdDispatch = IcdDispatch {
    clGetPlatformIDs: Some(crate::api::entry::clGetPlatformIDs),
    clGetPlatformInfo: Some(crate::api::entry::clGetPlatformInfo),
    clGetDeviceIDs: Some(crate::api::entry::clGetDeviceIDs),
    clGetDeviceInfo: Some(crate::api::entry::clGetDeviceInfo),
    clCreateContext: Some(crate::api::entry::clCreateContext),
    clCreateContextFromType: Some(crate::api::entry::clCreateContextFromType),
    clRetainContext: Some(crate::api::entry::clRetainContext),
    clReleaseContext: Some(crate::api::entry::clReleaseContext),
    clGetContextInfo: Some(crate::api::entry::clGetContextInfo),
    clCreateCommandQueue: Some(crate::api::entry::clCreateCommandQueue),
    clRetainCommandQueue: Some(crate::api::entry::clRetainCommandQueue),
    clReleaseCommandQueue: Some(crate::api::entry::clReleaseCommandQueue),
    clGetCommandQueueInfo: Some(crate::api::entry::clGetCommandQueueInfo),
    clSetCommandQueueProperty: Some(unsupported::clSetCommandQueueProperty),
    clCreateBuffer: Some(crate::api::entry::clCreateBuffer),
    clCreateImage2D: Some(unsupported::clCreateImage2D),
    clCreateImage3D: Some(unsupported::clCreateImage3D),
    clRetainMemObject: Some(crate::api::entry::clRetainMemObject),
    clReleaseMemObject: Some(crate::api::entry::clReleaseMemObject),
    clGetSupportedImageFormats: Some(crate::api::absent::clGetSupportedImageFormats),
    clGetMemObjectInfo: Some(crate::api::entry::clGetMemObjectInfo),
    clGetImageInfo: Some(crate::api::absent::clGetImageInfo),
    clCreateSampler: Some(unsupported::clCreateSampler),
    clRetainSampler: Some(crate::api::absent::clRetainSampler),
    clReleaseSampler: Some(crate::api::absent::clReleaseSampler),
    clGetSamplerInfo: Some(crate::api::absent::clGetSamplerInfo),
    clCreateProgramWithSource: Some(crate::api::entry::clCreateProgramWithSource),
    clCreateProgramWithBinary: Some(crate::api::entry::clCreateProgramWithBinary),
    clRetainProgram: Some(crate::api::entry::clRetainProgram),
    clReleaseProgram: Some(crate::api::entry::clReleaseProgram),
    clBuildProgram: Some(crate::api::entry::clBuildProgram),
    clUnloadCompiler: Some(crate::api::entry::clUnloadCompiler),
    clGetProgramInfo: Some(crate::api::entry::clGetProgramInfo),
    clGetProgramBuildInfo: Some(crate::api::entry::clGetProgramBuildInfo),
    clCreateKernel: Some(crate::api::entry::clCreateKernel),
    clCreateKernelsInProgram: Some(crate::api::entry::clCreateKernelsInProgram),
    clRetainKernel: Some(crate::api::entry::clRetainKernel),
    clReleaseKernel: Some(crate::api::entry::clReleaseKernel),
    clSetKernelArg: Some(crate::api::entry::clSetKernelArg),
    clGetKernelInfo: Some(crate::api::entry::clGetKernelInfo),
    clGetKernelWorkGroupInfo: Some(crate::api::entry::clGetKernelWorkGroupInfo),
    clWaitForEvents: Some(crate::api::entry::clWaitForEvents),
    clGetEventInfo: Some(crate::api::entry::clGetEventInfo),
    clRetainEvent: Some(crate::api::entry::clRetainEvent),
    clReleaseEvent: Some(crate::api::entry::clReleaseEvent),
    clGetEventProfilingInfo: Some(crate::api::entry::clGetEventProfilingInfo),
    clFlush: Some(crate::api::entry::clFlush),
    clFinish: Some(crate::api::entry::clFinish),
    clEnqueueReadBuffer: Some(crate::api::entry::clEnqueueReadBuffer),
    clEnqueueWriteBuffer: Some(crate::api::entry::clEnqueueWriteBuffer),
    clEnqueueCopyBuffer: Some(crate::api::entry::clEnqueueCopyBuffer),
    clEnqueueReadImage: Some(unsupported::clEnqueueReadImage),
    clEnqueueWriteImage: Some(unsupported::clEnqueueWriteImage),
    clEnqueueCopyImage: Some(unsupported::clEnqueueCopyImage),
    clEnqueueCopyImageToBuffer: Some(unsupported::clEnqueueCopyImageToBuffer),
    clEnqueueCopyBufferToImage: Some(unsupported::clEnqueueCopyBufferToImage),
    clEnqueueMapBuffer: Some(crate::api::entry::clEnqueueMapBuffer),
    clEnqueueMapImage: Some(unsupported::clEnqueueMapImage),
    clEnqueueUnmapMemObject: Some(crate::api::entry::clEnqueueUnmapMemObject),
    clEnqueueNDRangeKernel: Some(crate::api::entry::clEnqueueNDRangeKernel),
    clEnqueueTask: Some(crate::api::entry::clEnqueueTask),
    clEnqueueNativeKernel: Some(unsupported::clEnqueueNativeKernel),
    clEnqueueMarker: Some(crate::api::entry::clEnqueueMarker),
    clEnqueueWaitForEvents: Some(crate::api::entry::clEnqueueWaitForEvents),
    clEnqueueBarrier: Some(crate::api::entry::clEnqueueBarrier),
    clGetExtensionFunctionAddress: Some(crate::api::entry::clGetExtensionFunctionAddress),
    clCreateFromGLBuffer: None,
    clCreateFromGLTexture2D: None,
    clCreateFromGLTexture3D: None,
    clCreateFromGLRenderbuffer: None,
    clGetGLObjectInfo: None,
    clGetGLTextureInfo: None,
    clEnqueueAcquireGLObjects: None,
    clEnqueueReleaseGLObjects: None,
    clGetGLContextInfoKHR: None,
    clGetDeviceIDsFromD3D10KHR: None,
    clCreateFromD3D10BufferKHR: None,
    clCreateFromD3D10Texture2DKHR: None,
    clCreateFromD3D10Texture3DKHR: None,
    clEnqueueAcquireD3D10ObjectsKHR: None,
    clEnqueueReleaseD3D10ObjectsKHR: None,
    clSetEventCallback: Some(crate::api::entry::clSetEventCallback),
    clCreateSubBuffer: Some(crate::api::entry::clCreateSubBuffer),
    clSetMemObjectDestructorCallback: Some(crate::api::entry::clSetMemObjectDestructorCallback),
    clCreateUserEvent: Some(crate::api::entry::clCreateUserEvent),
    clSetUserEventStatus: Some(crate::api::entry::clSetUserEventStatus),
    clEnqueueReadBufferRect: Some(crate::api::entry::clEnqueueReadBufferRect),
    clEnqueueWriteBufferRect: Some(crate::api::entry::clEnqueueWriteBufferRect),
    clEnqueueCopyBufferRect: Some(crate::api::entry::clEnqueueCopyBufferRect),
    clCreateSubDevicesEXT: None,
    clRetainDeviceEXT: None,
    clReleaseDeviceEXT: None,
    clCreateEventFromGLsyncKHR: None,
    clCreateSubDevices: Some(unsupported::clCreateSubDevices),
    clRetainDevice: Some(crate::api::entry::clRetainDevice),
    clReleaseDevice: Some(crate::api::entry::clReleaseDevice),
    clCreateImage: Some(unsupported::clCreateImage),
    clCreateProgramWithBuiltInKernels: Some(unsupported::clCreateProgramWithBuiltInKernels),
    clCompileProgram: Some(crate::api::entry::clCompileProgram),
    clLinkProgram: Some(crate::api::entry::clLinkProgram),
    clUnloadPlatformCompiler: Some(crate::api::entry::clUnloadPlatformCompiler),
    clGetKernelArgInfo: Some(crate::api::entry::clGetKernelArgInfo),
    clEnqueueFillBuffer: Some(crate::api::entry::clEnqueueFillBuffer),
    clEnqueueFillImage: Some(unsupported::clEnqueueFillImage),
    clEnqueueMigrateMemObjects: Some(crate::api::entry::clEnqueueMigrateMemObjects),
    clEnqueueMarkerWithWaitList: Some(crate::api::entry::clEnqueueMarkerWithWaitList),
    clEnqueueBarrierWithWaitList: Some(crate::api::entry::clEnqueueBarrierWithWaitList),
    clGetExtensionFunctionAddressForPlatform: Some(
        crate::api::entry::clGetExtensionFunctionAddressForPlatform,
    ),
    clCreateFromGLTexture: None,
    clGetDeviceIDsFromD3D11KHR: None,
    clCreateFromD3D11BufferKHR: None,
    clCreateFromD3D11Texture2DKHR: None,
    clCreateFromD3D11Texture3DKHR: None,
    clCreateFromDX9MediaSurfaceKHR: None,
    clEnqueueAcquireD3D11ObjectsKHR: None,
    clEnqueueReleaseD3D11ObjectsKHR: None,
    clGetDeviceIDsFromDX9MediaAdapterKHR: None,
    clEnqueueAcquireDX9MediaSurfacesKHR: None,
    clEnqueueReleaseDX9MediaSurfacesKHR: None,
    clCreateFromEGLImageKHR: None,
    clEnqueueAcquireEGLObjectsKHR: None,
    clEnqueueReleaseEGLObjectsKHR: None,
    clCreateEventFromEGLSyncKHR: None,
    clCreateCommandQueueWithProperties: Some(crate::api::entry::clCreateCommandQueueWithProperties),
    clCreatePipe: Some(unsupported::clCreatePipe),
    clGetPipeInfo: Some(crate::api::absent::clGetPipeInfo),
    clSVMAlloc: Some(unsupported::clSVMAlloc),
    clSVMFree: Some(unsupported::clSVMFree),
    clEnqueueSVMFree: Some(unsupported::clEnqueueSVMFree),
    clEnqueueSVMMemcpy: Some(unsupported::clEnqueueSVMMemcpy),
    clEnqueueSVMMemFill: Some(unsupported::clEnqueueSVMMemFill),
    clEnqueueSVMMap: Some(unsupported::clEnqueueSVMMap),
    clEnqueueSVMUnmap: Some(unsupported::clEnqueueSVMUnmap),
    clCreateSamplerWithProperties: Some(unsupported::clCreateSamplerWithProperties),
    clSetKernelArgSVMPointer: Some(unsupported::clSetKernelArgSVMPointer),
    clSetKernelExecInfo: Some(crate::api::entry::clSetKernelExecInfo),
    clGetKernelSubGroupInfoKHR: None,
    clCloneKernel: Some(crate::api::entry::clCloneKernel),
    clCreateProgramWithIL: Some(crate::api::entry::clCreateProgramWithIL),
    clEnqueueSVMMigrateMem: Some(unsupported::clEnqueueSVMMigrateMem),
    clGetDeviceAndHostTimer: Some(crate::api::entry::clGetDeviceAndHostTimer),
    clGetHostTimer: Some(crate::api::entry::clGetHostTimer),
    clGetKernelSubGroupInfo: Some(crate::api::entry::clGetKernelSubGroupInfo),
    clSetDefaultDeviceCommandQueue: Some(unsupported::clSetDefaultDeviceCommandQueue),
    clSetProgramReleaseCallback: Some(unsupported::clSetProgramReleaseCallback),
    clSetProgramSpecializationConstant: Some(crate::api::entry::clSetProgramSpecializationConstant),
    clCreateBufferWithProperties: Some(crate::api::entry::clCreateBufferWithProperties),
    clCreateImageWithProperties: Some(unsupported::clCreateImageWithProperties),
    clSetContextDestructorCallback: Some(crate::api::entry::clSetContextDestructorCallback),
};

/// The address of a core entry point by name (clGetExtensionFunctionAddress answers through it).
pub fn entry_point(name: &str) -> *mut c_void {
    match name {
        "clGetPlatformIDs" => DISPATCH
            .clGetPlatformIDs
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetPlatformInfo" => DISPATCH
            .clGetPlatformInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetDeviceIDs" => DISPATCH
            .clGetDeviceIDs
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetDeviceInfo" => DISPATCH
            .clGetDeviceInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateContext" => DISPATCH
            .clCreateContext
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateContextFromType" => DISPATCH
            .clCreateContextFromType
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainContext" => DISPATCH
            .clRetainContext
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseContext" => DISPATCH
            .clReleaseContext
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetContextInfo" => DISPATCH
            .clGetContextInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateCommandQueue" => DISPATCH
            .clCreateCommandQueue
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainCommandQueue" => DISPATCH
            .clRetainCommandQueue
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseCommandQueue" => DISPATCH
            .clReleaseCommandQueue
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetCommandQueueInfo" => DISPATCH
            .clGetCommandQueueInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetCommandQueueProperty" => DISPATCH
            .clSetCommandQueueProperty
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateBuffer" => DISPATCH
            .clCreateBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateImage2D" => DISPATCH
            .clCreateImage2D
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateImage3D" => DISPATCH
            .clCreateImage3D
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainMemObject" => DISPATCH
            .clRetainMemObject
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseMemObject" => DISPATCH
            .clReleaseMemObject
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetSupportedImageFormats" => DISPATCH
            .clGetSupportedImageFormats
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetMemObjectInfo" => DISPATCH
            .clGetMemObjectInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetImageInfo" => DISPATCH
            .clGetImageInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateSampler" => DISPATCH
            .clCreateSampler
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainSampler" => DISPATCH
            .clRetainSampler
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseSampler" => DISPATCH
            .clReleaseSampler
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetSamplerInfo" => DISPATCH
            .clGetSamplerInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateProgramWithSource" => DISPATCH
            .clCreateProgramWithSource
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateProgramWithBinary" => DISPATCH
            .clCreateProgramWithBinary
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainProgram" => DISPATCH
            .clRetainProgram
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseProgram" => DISPATCH
            .clReleaseProgram
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clBuildProgram" => DISPATCH
            .clBuildProgram
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clUnloadCompiler" => DISPATCH
            .clUnloadCompiler
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetProgramInfo" => DISPATCH
            .clGetProgramInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetProgramBuildInfo" => DISPATCH
            .clGetProgramBuildInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateKernel" => DISPATCH
            .clCreateKernel
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateKernelsInProgram" => DISPATCH
            .clCreateKernelsInProgram
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainKernel" => DISPATCH
            .clRetainKernel
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseKernel" => DISPATCH
            .clReleaseKernel
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetKernelArg" => DISPATCH
            .clSetKernelArg
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetKernelInfo" => DISPATCH
            .clGetKernelInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetKernelWorkGroupInfo" => DISPATCH
            .clGetKernelWorkGroupInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clWaitForEvents" => DISPATCH
            .clWaitForEvents
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetEventInfo" => DISPATCH
            .clGetEventInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainEvent" => DISPATCH
            .clRetainEvent
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseEvent" => DISPATCH
            .clReleaseEvent
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetEventProfilingInfo" => DISPATCH
            .clGetEventProfilingInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clFlush" => DISPATCH
            .clFlush
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clFinish" => DISPATCH
            .clFinish
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueReadBuffer" => DISPATCH
            .clEnqueueReadBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueWriteBuffer" => DISPATCH
            .clEnqueueWriteBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueCopyBuffer" => DISPATCH
            .clEnqueueCopyBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueReadImage" => DISPATCH
            .clEnqueueReadImage
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueWriteImage" => DISPATCH
            .clEnqueueWriteImage
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueCopyImage" => DISPATCH
            .clEnqueueCopyImage
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueCopyImageToBuffer" => DISPATCH
            .clEnqueueCopyImageToBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueCopyBufferToImage" => DISPATCH
            .clEnqueueCopyBufferToImage
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueMapBuffer" => DISPATCH
            .clEnqueueMapBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueMapImage" => DISPATCH
            .clEnqueueMapImage
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueUnmapMemObject" => DISPATCH
            .clEnqueueUnmapMemObject
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueNDRangeKernel" => DISPATCH
            .clEnqueueNDRangeKernel
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueTask" => DISPATCH
            .clEnqueueTask
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueNativeKernel" => DISPATCH
            .clEnqueueNativeKernel
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueMarker" => DISPATCH
            .clEnqueueMarker
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueWaitForEvents" => DISPATCH
            .clEnqueueWaitForEvents
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueBarrier" => DISPATCH
            .clEnqueueBarrier
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetExtensionFunctionAddress" => DISPATCH
            .clGetExtensionFunctionAddress
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetEventCallback" => DISPATCH
            .clSetEventCallback
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateSubBuffer" => DISPATCH
            .clCreateSubBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetMemObjectDestructorCallback" => DISPATCH
            .clSetMemObjectDestructorCallback
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateUserEvent" => DISPATCH
            .clCreateUserEvent
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetUserEventStatus" => DISPATCH
            .clSetUserEventStatus
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueReadBufferRect" => DISPATCH
            .clEnqueueReadBufferRect
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueWriteBufferRect" => DISPATCH
            .clEnqueueWriteBufferRect
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueCopyBufferRect" => DISPATCH
            .clEnqueueCopyBufferRect
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateSubDevices" => DISPATCH
            .clCreateSubDevices
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clRetainDevice" => DISPATCH
            .clRetainDevice
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clReleaseDevice" => DISPATCH
            .clReleaseDevice
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateImage" => DISPATCH
            .clCreateImage
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateProgramWithBuiltInKernels" => DISPATCH
            .clCreateProgramWithBuiltInKernels
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCompileProgram" => DISPATCH
            .clCompileProgram
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clLinkProgram" => DISPATCH
            .clLinkProgram
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clUnloadPlatformCompiler" => DISPATCH
            .clUnloadPlatformCompiler
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetKernelArgInfo" => DISPATCH
            .clGetKernelArgInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueFillBuffer" => DISPATCH
            .clEnqueueFillBuffer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueFillImage" => DISPATCH
            .clEnqueueFillImage
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueMigrateMemObjects" => DISPATCH
            .clEnqueueMigrateMemObjects
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueMarkerWithWaitList" => DISPATCH
            .clEnqueueMarkerWithWaitList
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueBarrierWithWaitList" => DISPATCH
            .clEnqueueBarrierWithWaitList
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetExtensionFunctionAddressForPlatform" => DISPATCH
            .clGetExtensionFunctionAddressForPlatform
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateCommandQueueWithProperties" => DISPATCH
            .clCreateCommandQueueWithProperties
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreatePipe" => DISPATCH
            .clCreatePipe
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetPipeInfo" => DISPATCH
            .clGetPipeInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSVMAlloc" => DISPATCH
            .clSVMAlloc
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSVMFree" => DISPATCH
            .clSVMFree
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueSVMFree" => DISPATCH
            .clEnqueueSVMFree
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueSVMMemcpy" => DISPATCH
            .clEnqueueSVMMemcpy
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueSVMMemFill" => DISPATCH
            .clEnqueueSVMMemFill
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueSVMMap" => DISPATCH
            .clEnqueueSVMMap
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueSVMUnmap" => DISPATCH
            .clEnqueueSVMUnmap
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateSamplerWithProperties" => DISPATCH
            .clCreateSamplerWithProperties
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetKernelArgSVMPointer" => DISPATCH
            .clSetKernelArgSVMPointer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetKernelExecInfo" => DISPATCH
            .clSetKernelExecInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCloneKernel" => DISPATCH
            .clCloneKernel
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateProgramWithIL" => DISPATCH
            .clCreateProgramWithIL
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clEnqueueSVMMigrateMem" => DISPATCH
            .clEnqueueSVMMigrateMem
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetDeviceAndHostTimer" => DISPATCH
            .clGetDeviceAndHostTimer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetHostTimer" => DISPATCH
            .clGetHostTimer
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clGetKernelSubGroupInfo" => DISPATCH
            .clGetKernelSubGroupInfo
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetDefaultDeviceCommandQueue" => DISPATCH
            .clSetDefaultDeviceCommandQueue
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetProgramReleaseCallback" => DISPATCH
            .clSetProgramReleaseCallback
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetProgramSpecializationConstant" => DISPATCH
            .clSetProgramSpecializationConstant
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateBufferWithProperties" => DISPATCH
            .clCreateBufferWithProperties
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clCreateImageWithProperties" => DISPATCH
            .clCreateImageWithProperties
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        "clSetContextDestructorCallback" => DISPATCH
            .clSetContextDestructorCallback
            .map_or(std::ptr::null_mut(), |f| f as *mut c_void),
        _ => std::ptr::null_mut(),
    }
}
