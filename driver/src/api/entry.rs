//! Every implemented entry point in one namespace (the dispatch table and tests use these).
pub use super::absent::clGetPipeInfo;
pub use super::context::{
    clCreateContext, clCreateContextFromType, clGetContextInfo, clReleaseContext, clRetainContext,
    clSetContextDestructorCallback,
};
pub use super::device::{
    clGetDeviceAndHostTimer, clGetDeviceIDs, clGetDeviceInfo, clGetHostTimer, clReleaseDevice,
    clRetainDevice,
};
/// The stubs, for completeness of this namespace.
pub use super::dispatch::unsupported;
pub use super::enqueue::{
    clEnqueueBarrier, clEnqueueBarrierWithWaitList, clEnqueueMarker, clEnqueueMarkerWithWaitList,
    clEnqueueMigrateMemObjects, clEnqueueWaitForEvents,
};
pub use super::event::{
    clCreateUserEvent, clGetEventInfo, clGetEventProfilingInfo, clReleaseEvent, clRetainEvent,
    clSetEventCallback, clSetUserEventStatus, clWaitForEvents,
};
pub use super::icd::{
    clGetExtensionFunctionAddress, clGetExtensionFunctionAddressForPlatform, clIcdGetPlatformIDsKHR,
};
pub use super::image::{
    clCreateImage, clCreateImage2D, clCreateImage3D, clCreateImageWithProperties, clGetImageInfo,
    clGetSupportedImageFormats,
};
pub use super::image_commands::{
    clEnqueueCopyBufferToImage, clEnqueueCopyImage, clEnqueueCopyImageToBuffer, clEnqueueFillImage,
    clEnqueueMapImage, clEnqueueReadImage, clEnqueueWriteImage,
};
pub use super::kernel::{
    clCloneKernel,
    clCreateKernel,
    clCreateKernelsInProgram,
    clGetKernelArgInfo,
    clGetKernelInfo,
    clGetKernelSubGroupInfo,
    // cl_khr_subgroups' name for it: "clGetKernelSubGroupInfoKHR ... behaves as
    // clGetKernelSubGroupInfo" (its two queries have the core values).
    clGetKernelSubGroupInfo as clGetKernelSubGroupInfoKHR,
    clGetKernelWorkGroupInfo,
    clReleaseKernel,
    clRetainKernel,
    clSetKernelArg,
    clSetKernelExecInfo,
};
pub use super::launch::{clEnqueueNDRangeKernel, clEnqueueTask};
pub use super::memory::{
    clCreateBuffer, clCreateBufferWithProperties, clCreateSubBuffer, clGetMemObjectInfo,
    clReleaseMemObject, clRetainMemObject, clSetMemObjectDestructorCallback,
};
pub use super::platform::{clGetPlatformIDs, clGetPlatformInfo};
pub use super::program::{
    clBuildProgram, clCompileProgram, clCreateProgramWithBinary, clCreateProgramWithIL,
    clCreateProgramWithSource, clGetProgramBuildInfo, clGetProgramInfo, clLinkProgram,
    clReleaseProgram, clRetainProgram, clSetProgramSpecializationConstant, clUnloadCompiler,
    clUnloadPlatformCompiler,
};
pub use super::queue::{
    clCreateCommandQueue, clCreateCommandQueueWithProperties, clFinish, clFlush,
    clGetCommandQueueInfo, clReleaseCommandQueue, clRetainCommandQueue,
};
pub use super::sampler::{
    clCreateSampler, clCreateSamplerWithProperties, clGetSamplerInfo, clReleaseSampler,
    clRetainSampler,
};
pub use super::transfer::{
    clEnqueueCopyBuffer, clEnqueueCopyBufferRect, clEnqueueFillBuffer, clEnqueueMapBuffer,
    clEnqueueReadBuffer, clEnqueueReadBufferRect, clEnqueueUnmapMemObject, clEnqueueWriteBuffer,
    clEnqueueWriteBufferRect,
};
