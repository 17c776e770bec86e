/* Prints the ABI facts of the i915/DRM uAPI as libdrm's headers define them:
 * one "key value" line per struct size, field offset, constant and ioctl
 * request number. tests/uapi_abi.rs compares every line with gencl's
 * Rust mirror (src/uapi.rs). Built with: cc -I/usr/include/libdrm */
#include <stddef.h>
#include <stdio.h>
#include <fcntl.h>
#include <drm.h>
#include <i915_drm.h>

#define S(s) printf("sizeof %s %llu\n", #s, (unsigned long long)sizeof(struct s))
#define F(s, f) printf("offsetof %s.%s %llu\n", #s, #f, (unsigned long long)offsetof(struct s, f))
#define C(c) printf("const %s %llu\n", #c, (unsigned long long)(__u64)(c))

int main(void)
{
	S(drm_i915_getparam); F(drm_i915_getparam, param); F(drm_i915_getparam, value);
	S(drm_i915_query); F(drm_i915_query, num_items); F(drm_i915_query, flags);
	F(drm_i915_query, items_ptr);
	S(drm_i915_query_item); F(drm_i915_query_item, query_id); F(drm_i915_query_item, length);
	F(drm_i915_query_item, flags); F(drm_i915_query_item, data_ptr);
	S(drm_i915_query_topology_info); F(drm_i915_query_topology_info, flags);
	F(drm_i915_query_topology_info, max_slices); F(drm_i915_query_topology_info, max_subslices);
	F(drm_i915_query_topology_info, max_eus_per_subslice);
	F(drm_i915_query_topology_info, subslice_offset);
	F(drm_i915_query_topology_info, subslice_stride); F(drm_i915_query_topology_info, eu_offset);
	F(drm_i915_query_topology_info, eu_stride); F(drm_i915_query_topology_info, data);
	S(drm_i915_gem_create); F(drm_i915_gem_create, size); F(drm_i915_gem_create, handle);
	F(drm_i915_gem_create, pad);
	S(drm_gem_close); F(drm_gem_close, handle); F(drm_gem_close, pad);
	S(drm_i915_gem_mmap_offset); F(drm_i915_gem_mmap_offset, handle);
	F(drm_i915_gem_mmap_offset, pad); F(drm_i915_gem_mmap_offset, offset);
	F(drm_i915_gem_mmap_offset, flags); F(drm_i915_gem_mmap_offset, extensions);
	S(drm_version); F(drm_version, version_major); F(drm_version, version_minor);
	F(drm_version, version_patchlevel); F(drm_version, name_len); F(drm_version, name);
	F(drm_version, date_len); F(drm_version, date); F(drm_version, desc_len);
	F(drm_version, desc);
	S(drm_prime_handle); F(drm_prime_handle, handle); F(drm_prime_handle, flags);
	F(drm_prime_handle, fd);
	S(drm_i915_gem_vm_control); F(drm_i915_gem_vm_control, extensions);
	F(drm_i915_gem_vm_control, flags); F(drm_i915_gem_vm_control, vm_id);
	S(i915_user_extension); F(i915_user_extension, next_extension); F(i915_user_extension, name);
	F(i915_user_extension, flags); F(i915_user_extension, rsvd);
	S(drm_i915_gem_context_create_ext); F(drm_i915_gem_context_create_ext, ctx_id);
	F(drm_i915_gem_context_create_ext, flags); F(drm_i915_gem_context_create_ext, extensions);
	S(drm_i915_gem_context_param); F(drm_i915_gem_context_param, ctx_id);
	F(drm_i915_gem_context_param, size); F(drm_i915_gem_context_param, param);
	F(drm_i915_gem_context_param, value);
	S(drm_i915_gem_context_create_ext_setparam);
	F(drm_i915_gem_context_create_ext_setparam, base);
	F(drm_i915_gem_context_create_ext_setparam, param);
	S(drm_i915_gem_context_destroy); F(drm_i915_gem_context_destroy, ctx_id);
	F(drm_i915_gem_context_destroy, pad);
	S(drm_i915_gem_execbuffer2); F(drm_i915_gem_execbuffer2, buffers_ptr);
	F(drm_i915_gem_execbuffer2, buffer_count); F(drm_i915_gem_execbuffer2, batch_start_offset);
	F(drm_i915_gem_execbuffer2, batch_len); F(drm_i915_gem_execbuffer2, DR1);
	F(drm_i915_gem_execbuffer2, DR4); F(drm_i915_gem_execbuffer2, num_cliprects);
	F(drm_i915_gem_execbuffer2, cliprects_ptr); F(drm_i915_gem_execbuffer2, flags);
	F(drm_i915_gem_execbuffer2, rsvd1); F(drm_i915_gem_execbuffer2, rsvd2);
	S(drm_i915_gem_exec_object2); F(drm_i915_gem_exec_object2, handle);
	F(drm_i915_gem_exec_object2, relocation_count); F(drm_i915_gem_exec_object2, relocs_ptr);
	F(drm_i915_gem_exec_object2, alignment); F(drm_i915_gem_exec_object2, offset);
	F(drm_i915_gem_exec_object2, flags); F(drm_i915_gem_exec_object2, rsvd1);
	F(drm_i915_gem_exec_object2, rsvd2);
	S(drm_i915_gem_busy); F(drm_i915_gem_busy, handle); F(drm_i915_gem_busy, busy);
	S(drm_i915_gem_wait); F(drm_i915_gem_wait, bo_handle); F(drm_i915_gem_wait, flags);
	F(drm_i915_gem_wait, timeout_ns);
	S(drm_i915_reset_stats); F(drm_i915_reset_stats, ctx_id); F(drm_i915_reset_stats, flags);
	F(drm_i915_reset_stats, reset_count); F(drm_i915_reset_stats, batch_active);
	F(drm_i915_reset_stats, batch_pending); F(drm_i915_reset_stats, pad);

	S(drm_syncobj_create); F(drm_syncobj_create, handle); F(drm_syncobj_create, flags);
	S(drm_syncobj_destroy); F(drm_syncobj_destroy, handle); F(drm_syncobj_destroy, pad);
	S(drm_syncobj_wait); F(drm_syncobj_wait, handles); F(drm_syncobj_wait, timeout_nsec);
	F(drm_syncobj_wait, count_handles); F(drm_syncobj_wait, flags);
	F(drm_syncobj_wait, first_signaled); F(drm_syncobj_wait, pad);
	S(drm_syncobj_array); F(drm_syncobj_array, handles); F(drm_syncobj_array, count_handles);
	F(drm_syncobj_array, pad);
	S(drm_i915_gem_exec_fence); F(drm_i915_gem_exec_fence, handle);
	F(drm_i915_gem_exec_fence, flags);

	C(DRM_COMMAND_BASE);
	C(DRM_I915_GETPARAM); C(DRM_I915_GEM_EXECBUFFER2); C(DRM_I915_GEM_CREATE);
	C(DRM_I915_GEM_MMAP_GTT); C(DRM_I915_GEM_WAIT); C(DRM_I915_GEM_BUSY); C(DRM_I915_GEM_CONTEXT_CREATE);
	C(DRM_I915_GEM_CONTEXT_DESTROY); C(DRM_I915_GET_RESET_STATS); C(DRM_I915_QUERY);
	C(DRM_I915_GEM_VM_CREATE); C(DRM_I915_GEM_VM_DESTROY);
	C(I915_PARAM_CHIPSET_ID); C(I915_PARAM_REVISION); C(I915_PARAM_SUBSLICE_TOTAL);
	C(I915_PARAM_EU_TOTAL); C(I915_PARAM_HAS_EXEC_SOFTPIN); C(I915_PARAM_CS_TIMESTAMP_FREQUENCY);
	C(DRM_I915_QUERY_TOPOLOGY_INFO);
	C(I915_CONTEXT_PARAM_BANNABLE); C(I915_CONTEXT_PARAM_RECOVERABLE); C(I915_CONTEXT_PARAM_VM);
	C(I915_CONTEXT_PARAM_PERSISTENCE);
	C(I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS); C(I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE);
	C(I915_CONTEXT_CREATE_EXT_SETPARAM); C(I915_CONTEXT_CREATE_EXT_CLONE);
	C(I915_MMAP_OFFSET_GTT); C(I915_MMAP_OFFSET_WC); C(I915_MMAP_OFFSET_WB);
	C(I915_MMAP_OFFSET_UC); C(I915_MMAP_OFFSET_FIXED);
	C(EXEC_OBJECT_NEEDS_FENCE); C(EXEC_OBJECT_NEEDS_GTT); C(EXEC_OBJECT_WRITE);
	C(EXEC_OBJECT_SUPPORTS_48B_ADDRESS); C(EXEC_OBJECT_PINNED); C(EXEC_OBJECT_PAD_TO_SIZE);
	C(EXEC_OBJECT_ASYNC); C(EXEC_OBJECT_CAPTURE);
	printf("const EXEC_OBJECT_UNKNOWN_FLAGS %llu\n", (unsigned long long)(__u64)(__EXEC_OBJECT_UNKNOWN_FLAGS));
	C(I915_EXEC_RING_MASK); C(I915_EXEC_DEFAULT); C(I915_EXEC_RENDER); C(I915_EXEC_NO_RELOC);
	C(I915_EXEC_HANDLE_LUT); C(I915_EXEC_FENCE_IN); C(I915_EXEC_FENCE_OUT);
	C(I915_EXEC_BATCH_FIRST); C(I915_EXEC_FENCE_ARRAY); C(I915_EXEC_USE_EXTENSIONS);
	C(I915_EXEC_FENCE_WAIT); C(I915_EXEC_FENCE_SIGNAL); C(I915_PARAM_HAS_EXEC_FENCE_ARRAY);
	C(DRM_SYNCOBJ_CREATE_SIGNALED); C(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL);
	C(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT);
	printf("const I915_EXEC_UNKNOWN_FLAGS %llu\n", (unsigned long long)(__u64)(__I915_EXEC_UNKNOWN_FLAGS));
	C(DRM_CLOEXEC); C(DRM_RDWR);

	C(DRM_IOCTL_VERSION); C(DRM_IOCTL_GEM_CLOSE); C(DRM_IOCTL_PRIME_HANDLE_TO_FD);
	C(DRM_IOCTL_I915_GETPARAM); C(DRM_IOCTL_I915_GEM_EXECBUFFER2);
	C(DRM_IOCTL_I915_GEM_EXECBUFFER2_WR); C(DRM_IOCTL_I915_GEM_CREATE);
	C(DRM_IOCTL_I915_GEM_MMAP_OFFSET); C(DRM_IOCTL_I915_GEM_WAIT); C(DRM_IOCTL_I915_GEM_BUSY);
	C(DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT); C(DRM_IOCTL_I915_GEM_CONTEXT_DESTROY);
	C(DRM_IOCTL_I915_GET_RESET_STATS); C(DRM_IOCTL_I915_QUERY);
	C(DRM_IOCTL_I915_GEM_VM_CREATE); C(DRM_IOCTL_I915_GEM_VM_DESTROY);
	C(DRM_IOCTL_SYNCOBJ_CREATE); C(DRM_IOCTL_SYNCOBJ_DESTROY); C(DRM_IOCTL_SYNCOBJ_WAIT);
	C(DRM_IOCTL_SYNCOBJ_RESET); C(DRM_IOCTL_SYNCOBJ_SIGNAL);
	return 0;
}
