//! The i915 and core DRM uAPI gencl uses: ABI-exact `#[repr(C)]` mirrors of
//! the structs in libdrm's `i915_drm.h` / `drm.h`, with the C names, plus the
//! constants and ioctl request numbers. `tests/uapi_abi.rs` holds every size,
//! offset, constant and request number here against the C headers.
#![allow(non_camel_case_types, non_snake_case)]

use nix::{request_code_readwrite, request_code_write};

// ---------------------------------------------------------------- structs

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct drm_i915_getparam {
    pub param: i32,
    /// `int *value`: where the kernel writes the answer.
    pub value: *mut i32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_query {
    pub num_items: u32,
    pub flags: u32,
    /// Pointer to an array of `drm_i915_query_item`.
    pub items_ptr: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_query_item {
    pub query_id: u64,
    /// In: 0 to ask for the length, else the buffer size. Out: the length
    /// needed, or a negative errno for this item.
    pub length: i32,
    pub flags: u32,
    pub data_ptr: u64,
}

/// Header of the topology query answer; the masks follow it (`data[]`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_query_topology_info {
    pub flags: u16,
    pub max_slices: u16,
    pub max_subslices: u16,
    pub max_eus_per_subslice: u16,
    pub subslice_offset: u16,
    pub subslice_stride: u16,
    pub eu_offset: u16,
    pub eu_stride: u16,
    pub data: [u8; 0],
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_create {
    pub size: u64,
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_gem_close {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_mmap_offset {
    pub handle: u32,
    pub pad: u32,
    pub offset: u64,
    pub flags: u64,
    pub extensions: u64,
}

/// DRM_IOCTL_VERSION (drm.h): the driver's version and name; the lengths are in/out and
/// the strings are written up to the lengths the caller gave.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct drm_version {
    pub version_major: i32,
    pub version_minor: i32,
    pub version_patchlevel: i32,
    pub name_len: usize,
    pub name: *mut u8,
    pub date_len: usize,
    pub date: *mut u8,
    pub desc_len: usize,
    pub desc: *mut u8,
}

impl Default for drm_version {
    fn default() -> Self {
        Self {
            version_major: 0,
            version_minor: 0,
            version_patchlevel: 0,
            name_len: 0,
            name: std::ptr::null_mut(),
            date_len: 0,
            date: std::ptr::null_mut(),
            desc_len: 0,
            desc: std::ptr::null_mut(),
        }
    }
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_prime_handle {
    pub handle: u32,
    pub flags: u32,
    pub fd: i32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_vm_control {
    pub extensions: u64,
    pub flags: u32,
    pub vm_id: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct i915_user_extension {
    pub next_extension: u64,
    pub name: u32,
    pub flags: u32,
    pub rsvd: [u32; 4],
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_context_create_ext {
    pub ctx_id: u32,
    pub flags: u32,
    pub extensions: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_context_param {
    pub ctx_id: u32,
    pub size: u32,
    pub param: u64,
    pub value: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_context_create_ext_setparam {
    pub base: i915_user_extension,
    pub param: drm_i915_gem_context_param,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_context_destroy {
    pub ctx_id: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_execbuffer2 {
    /// Pointer to an array of `drm_i915_gem_exec_object2`.
    pub buffers_ptr: u64,
    pub buffer_count: u32,
    pub batch_start_offset: u32,
    pub batch_len: u32,
    pub DR1: u32,
    pub DR4: u32,
    pub num_cliprects: u32,
    pub cliprects_ptr: u64,
    pub flags: u64,
    /// Context id in the low 32 bits (`i915_execbuffer2_set_context_id`).
    pub rsvd1: u64,
    pub rsvd2: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_exec_object2 {
    pub handle: u32,
    pub relocation_count: u32,
    pub relocs_ptr: u64,
    pub alignment: u64,
    /// With EXEC_OBJECT_PINNED: the GPU address the caller chose (softpin).
    pub offset: u64,
    pub flags: u64,
    /// `union { rsvd1; pad_to_size; }` in C.
    pub rsvd1: u64,
    pub rsvd2: u64,
}

/// DRM_IOCTL_I915_GEM_BUSY: `busy` is the engine classes reading the object, one bit each
/// from bit 16, and the class + 1 of the engine writing it in the low word (0: idle).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_busy {
    pub handle: u32,
    pub busy: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_wait {
    pub bo_handle: u32,
    pub flags: u32,
    /// In: how long to wait (0: poll; negative: forever). Out: time left.
    pub timeout_ns: i64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_reset_stats {
    pub ctx_id: u32,
    pub flags: u32,
    pub reset_count: u32,
    pub batch_active: u32,
    pub batch_pending: u32,
    pub pad: u32,
}

/// DRM_IOCTL_SYNCOBJ_CREATE: a new sync object (`flags`: DRM_SYNCOBJ_CREATE_SIGNALED).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_syncobj_create {
    pub handle: u32,
    pub flags: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_syncobj_destroy {
    pub handle: u32,
    pub pad: u32,
}

/// DRM_IOCTL_SYNCOBJ_WAIT: `handles` points at `count_handles` u32 handles.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_syncobj_wait {
    pub handles: u64,
    /// An absolute CLOCK_MONOTONIC time, in ns.
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    /// Out, without WAIT_ALL: the index of a signalled handle.
    pub first_signaled: u32,
    pub pad: u32,
}

/// DRM_IOCTL_SYNCOBJ_RESET and _SIGNAL.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_syncobj_array {
    pub handles: u64,
    pub count_handles: u32,
    pub pad: u32,
}

/// One entry of execbuffer2's fence array (I915_EXEC_FENCE_ARRAY: `cliprects_ptr` points at
/// `num_cliprects` of them): a sync object the batch waits for, or signals when it retires.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct drm_i915_gem_exec_fence {
    pub handle: u32,
    pub flags: u32,
}

// ---------------------------------------------------------------- constants

pub const DRM_COMMAND_BASE: u32 = 0x40;

pub const DRM_I915_GETPARAM: u32 = 0x06;
pub const DRM_I915_GEM_EXECBUFFER2: u32 = 0x29;
pub const DRM_I915_GEM_CREATE: u32 = 0x1b;
pub const DRM_I915_GEM_MMAP_GTT: u32 = 0x24;
pub const DRM_I915_GEM_WAIT: u32 = 0x2c;
pub const DRM_I915_GEM_BUSY: u32 = 0x17;
pub const DRM_I915_GEM_CONTEXT_CREATE: u32 = 0x2d;
pub const DRM_I915_GEM_CONTEXT_DESTROY: u32 = 0x2e;
pub const DRM_I915_GET_RESET_STATS: u32 = 0x32;
pub const DRM_I915_QUERY: u32 = 0x39;
pub const DRM_I915_GEM_VM_CREATE: u32 = 0x3a;
pub const DRM_I915_GEM_VM_DESTROY: u32 = 0x3b;

pub const I915_PARAM_CHIPSET_ID: i32 = 4;
pub const I915_PARAM_REVISION: i32 = 32;
pub const I915_PARAM_SUBSLICE_TOTAL: i32 = 33;
pub const I915_PARAM_EU_TOTAL: i32 = 34;
pub const I915_PARAM_HAS_EXEC_SOFTPIN: i32 = 37;
pub const I915_PARAM_HAS_EXEC_FENCE_ARRAY: i32 = 49;
pub const I915_PARAM_CS_TIMESTAMP_FREQUENCY: i32 = 51;

pub const DRM_I915_QUERY_TOPOLOGY_INFO: u64 = 1;

pub const I915_CONTEXT_PARAM_BANNABLE: u64 = 0x5;
pub const I915_CONTEXT_PARAM_RECOVERABLE: u64 = 0x8;
pub const I915_CONTEXT_PARAM_VM: u64 = 0x9;
pub const I915_CONTEXT_PARAM_PERSISTENCE: u64 = 0xb;

pub const I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS: u32 = 1 << 0;
pub const I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE: u32 = 1 << 1;
pub const I915_CONTEXT_CREATE_EXT_SETPARAM: u32 = 0;
pub const I915_CONTEXT_CREATE_EXT_CLONE: u32 = 1;

pub const I915_MMAP_OFFSET_GTT: u64 = 0;
pub const I915_MMAP_OFFSET_WC: u64 = 1;
pub const I915_MMAP_OFFSET_WB: u64 = 2;
pub const I915_MMAP_OFFSET_UC: u64 = 3;
pub const I915_MMAP_OFFSET_FIXED: u64 = 4;

pub const EXEC_OBJECT_NEEDS_FENCE: u64 = 1 << 0;
pub const EXEC_OBJECT_NEEDS_GTT: u64 = 1 << 1;
pub const EXEC_OBJECT_WRITE: u64 = 1 << 2;
pub const EXEC_OBJECT_SUPPORTS_48B_ADDRESS: u64 = 1 << 3;
pub const EXEC_OBJECT_PINNED: u64 = 1 << 4;
pub const EXEC_OBJECT_PAD_TO_SIZE: u64 = 1 << 5;
pub const EXEC_OBJECT_ASYNC: u64 = 1 << 6;
pub const EXEC_OBJECT_CAPTURE: u64 = 1 << 7;
/// Every exec-object flag bit above CAPTURE is reserved (MBZ).
pub const EXEC_OBJECT_UNKNOWN_FLAGS: u64 = !((EXEC_OBJECT_CAPTURE << 1) - 1);

pub const I915_EXEC_RING_MASK: u64 = 0x3f;
pub const I915_EXEC_DEFAULT: u64 = 0;
pub const I915_EXEC_RENDER: u64 = 1;
pub const I915_EXEC_NO_RELOC: u64 = 1 << 11;
pub const I915_EXEC_HANDLE_LUT: u64 = 1 << 12;
pub const I915_EXEC_FENCE_IN: u64 = 1 << 16;
pub const I915_EXEC_FENCE_OUT: u64 = 1 << 17;
pub const I915_EXEC_BATCH_FIRST: u64 = 1 << 18;
pub const I915_EXEC_FENCE_ARRAY: u64 = 1 << 19;
pub const I915_EXEC_USE_EXTENSIONS: u64 = 1 << 21;
/// Every execbuffer2 flag bit above USE_EXTENSIONS is unknown to the kernel.
pub const I915_EXEC_UNKNOWN_FLAGS: u64 = !((I915_EXEC_USE_EXTENSIONS << 1) - 1);

pub const I915_EXEC_FENCE_WAIT: u32 = 1 << 0;
pub const I915_EXEC_FENCE_SIGNAL: u32 = 1 << 1;

pub const DRM_SYNCOBJ_CREATE_SIGNALED: u32 = 1 << 0;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL: u32 = 1 << 0;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT: u32 = 1 << 1;

pub const DRM_CLOEXEC: u32 = libc::O_CLOEXEC as u32;
pub const DRM_RDWR: u32 = libc::O_RDWR as u32;

// ---------------------------------------------------------------- ioctl numbers

const DRM_IOCTL_BASE: u8 = b'd';

macro_rules! drm_iowr {
    ($nr:expr, $ty:ty) => {
        request_code_readwrite!(DRM_IOCTL_BASE, $nr, ::core::mem::size_of::<$ty>()) as u64
    };
}
macro_rules! drm_iow {
    ($nr:expr, $ty:ty) => {
        request_code_write!(DRM_IOCTL_BASE, $nr, ::core::mem::size_of::<$ty>()) as u64
    };
}

pub const DRM_IOCTL_VERSION: u64 = drm_iowr!(0x00, drm_version);
pub const DRM_IOCTL_GEM_CLOSE: u64 = drm_iow!(0x09, drm_gem_close);
pub const DRM_IOCTL_PRIME_HANDLE_TO_FD: u64 = drm_iowr!(0x2d, drm_prime_handle);
pub const DRM_IOCTL_SYNCOBJ_CREATE: u64 = drm_iowr!(0xbf, drm_syncobj_create);
pub const DRM_IOCTL_SYNCOBJ_DESTROY: u64 = drm_iowr!(0xc0, drm_syncobj_destroy);
pub const DRM_IOCTL_SYNCOBJ_WAIT: u64 = drm_iowr!(0xc3, drm_syncobj_wait);
pub const DRM_IOCTL_SYNCOBJ_RESET: u64 = drm_iowr!(0xc4, drm_syncobj_array);
pub const DRM_IOCTL_SYNCOBJ_SIGNAL: u64 = drm_iowr!(0xc5, drm_syncobj_array);

pub const DRM_IOCTL_I915_GETPARAM: u64 =
    drm_iowr!(DRM_COMMAND_BASE + DRM_I915_GETPARAM, drm_i915_getparam);
pub const DRM_IOCTL_I915_GEM_EXECBUFFER2: u64 = drm_iow!(
    DRM_COMMAND_BASE + DRM_I915_GEM_EXECBUFFER2,
    drm_i915_gem_execbuffer2
);
pub const DRM_IOCTL_I915_GEM_EXECBUFFER2_WR: u64 = drm_iowr!(
    DRM_COMMAND_BASE + DRM_I915_GEM_EXECBUFFER2,
    drm_i915_gem_execbuffer2
);
pub const DRM_IOCTL_I915_GEM_CREATE: u64 =
    drm_iowr!(DRM_COMMAND_BASE + DRM_I915_GEM_CREATE, drm_i915_gem_create);
/// Shares its number with the legacy MMAP_GTT ioctl, as in the kernel.
pub const DRM_IOCTL_I915_GEM_MMAP_OFFSET: u64 = drm_iowr!(
    DRM_COMMAND_BASE + DRM_I915_GEM_MMAP_GTT,
    drm_i915_gem_mmap_offset
);
pub const DRM_IOCTL_I915_GEM_WAIT: u64 =
    drm_iowr!(DRM_COMMAND_BASE + DRM_I915_GEM_WAIT, drm_i915_gem_wait);
pub const DRM_IOCTL_I915_GEM_BUSY: u64 =
    drm_iowr!(DRM_COMMAND_BASE + DRM_I915_GEM_BUSY, drm_i915_gem_busy);
pub const DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT: u64 = drm_iowr!(
    DRM_COMMAND_BASE + DRM_I915_GEM_CONTEXT_CREATE,
    drm_i915_gem_context_create_ext
);
pub const DRM_IOCTL_I915_GEM_CONTEXT_DESTROY: u64 = drm_iow!(
    DRM_COMMAND_BASE + DRM_I915_GEM_CONTEXT_DESTROY,
    drm_i915_gem_context_destroy
);
pub const DRM_IOCTL_I915_GET_RESET_STATS: u64 = drm_iowr!(
    DRM_COMMAND_BASE + DRM_I915_GET_RESET_STATS,
    drm_i915_reset_stats
);
pub const DRM_IOCTL_I915_QUERY: u64 = drm_iowr!(DRM_COMMAND_BASE + DRM_I915_QUERY, drm_i915_query);
pub const DRM_IOCTL_I915_GEM_VM_CREATE: u64 = drm_iowr!(
    DRM_COMMAND_BASE + DRM_I915_GEM_VM_CREATE,
    drm_i915_gem_vm_control
);
pub const DRM_IOCTL_I915_GEM_VM_DESTROY: u64 = drm_iow!(
    DRM_COMMAND_BASE + DRM_I915_GEM_VM_DESTROY,
    drm_i915_gem_vm_control
);

/// The context id lives in the low 32 bits of `rsvd1` (`i915_execbuffer2_set_context_id`).
pub fn execbuffer2_set_context_id(e: &mut drm_i915_gem_execbuffer2, ctx: u32) {
    e.rsvd1 = (e.rsvd1 & !0xffff_ffff) | u64::from(ctx);
}

/// `i915_execbuffer2_get_context_id`.
pub fn execbuffer2_context_id(e: &drm_i915_gem_execbuffer2) -> u32 {
    (e.rsvd1 & 0xffff_ffff) as u32
}
