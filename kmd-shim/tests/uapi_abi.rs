//! Holds `gencl_kmd::uapi` against libdrm's C headers: a C program
//! (tests/abi/abi.c, compiled with the system `cc`) prints the size of
//! every struct, the offset of every field, every constant and ioctl
//! number; each line must equal what the Rust mirror says, and the two
//! sets of keys must be the same.

use gencl_kmd::uapi::*;
use std::collections::BTreeMap;
use std::mem::{offset_of, size_of};
use std::path::PathBuf;
use std::process::Command;

fn c_facts() -> BTreeMap<String, u64> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let src = dir.join("tests/abi/abi.c");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gencl_uapi_abi");
    let cc = Command::new("cc")
        .args(["-I/usr/include/libdrm", "-Wall", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("running `cc` failed: install gcc (and libdrm-dev for i915_drm.h)");
    assert!(
        cc.status.success(),
        "compiling {} failed (is libdrm-dev installed?):\n{}",
        src.display(),
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&out).output().expect("running the ABI probe");
    assert!(run.status.success());
    String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.rsplit_once(' ').expect("key value line");
            (k.to_string(), v.parse().expect("number"))
        })
        .collect()
}

fn rust_facts() -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    macro_rules! s {
        ($s:ident { $($f:ident),* }) => {
            m.insert(format!("sizeof {}", stringify!($s)), size_of::<$s>() as u64);
            $( m.insert(format!("offsetof {}.{}", stringify!($s), stringify!($f)),
                        offset_of!($s, $f) as u64); )*
        };
    }
    macro_rules! c {
        ($($c:ident),*) => { $( m.insert(format!("const {}", stringify!($c)), $c as u64); )* };
    }
    s!(drm_i915_getparam { param, value });
    s!(drm_i915_query {
        num_items,
        flags,
        items_ptr
    });
    s!(drm_i915_query_item {
        query_id,
        length,
        flags,
        data_ptr
    });
    s!(drm_i915_query_topology_info {
        flags,
        max_slices,
        max_subslices,
        max_eus_per_subslice,
        subslice_offset,
        subslice_stride,
        eu_offset,
        eu_stride,
        data
    });
    s!(drm_i915_gem_create { size, handle, pad });
    s!(drm_gem_close { handle, pad });
    s!(drm_i915_gem_mmap_offset {
        handle,
        pad,
        offset,
        flags,
        extensions
    });
    s!(drm_version {
        version_major,
        version_minor,
        version_patchlevel,
        name_len,
        name,
        date_len,
        date,
        desc_len,
        desc
    });
    s!(drm_prime_handle { handle, flags, fd });
    s!(drm_i915_gem_vm_control {
        extensions,
        flags,
        vm_id
    });
    s!(i915_user_extension {
        next_extension,
        name,
        flags,
        rsvd
    });
    s!(drm_i915_gem_context_create_ext {
        ctx_id,
        flags,
        extensions
    });
    s!(drm_i915_gem_context_param {
        ctx_id,
        size,
        param,
        value
    });
    s!(drm_i915_gem_context_create_ext_setparam { base, param });
    s!(drm_i915_gem_context_destroy { ctx_id, pad });
    s!(drm_i915_gem_execbuffer2 {
        buffers_ptr,
        buffer_count,
        batch_start_offset,
        batch_len,
        DR1,
        DR4,
        num_cliprects,
        cliprects_ptr,
        flags,
        rsvd1,
        rsvd2
    });
    s!(drm_i915_gem_exec_object2 {
        handle,
        relocation_count,
        relocs_ptr,
        alignment,
        offset,
        flags,
        rsvd1,
        rsvd2
    });
    s!(drm_i915_gem_busy { handle, busy });
    s!(drm_i915_gem_wait {
        bo_handle,
        flags,
        timeout_ns
    });
    s!(drm_i915_reset_stats {
        ctx_id,
        flags,
        reset_count,
        batch_active,
        batch_pending,
        pad
    });
    s!(drm_syncobj_create { handle, flags });
    s!(drm_syncobj_destroy { handle, pad });
    s!(drm_syncobj_wait {
        handles,
        timeout_nsec,
        count_handles,
        flags,
        first_signaled,
        pad
    });
    s!(drm_syncobj_array {
        handles,
        count_handles,
        pad
    });
    s!(drm_i915_gem_exec_fence { handle, flags });
    c!(
        DRM_COMMAND_BASE,
        DRM_I915_GETPARAM,
        DRM_I915_GEM_EXECBUFFER2,
        DRM_I915_GEM_CREATE,
        DRM_I915_GEM_MMAP_GTT,
        DRM_I915_GEM_WAIT,
        DRM_I915_GEM_BUSY,
        DRM_I915_GEM_CONTEXT_CREATE,
        DRM_I915_GEM_CONTEXT_DESTROY,
        DRM_I915_GET_RESET_STATS,
        DRM_I915_QUERY,
        DRM_I915_GEM_VM_CREATE,
        DRM_I915_GEM_VM_DESTROY,
        I915_PARAM_CHIPSET_ID,
        I915_PARAM_REVISION,
        I915_PARAM_SUBSLICE_TOTAL,
        I915_PARAM_EU_TOTAL,
        I915_PARAM_HAS_EXEC_SOFTPIN,
        I915_PARAM_CS_TIMESTAMP_FREQUENCY,
        DRM_I915_QUERY_TOPOLOGY_INFO,
        I915_CONTEXT_PARAM_BANNABLE,
        I915_CONTEXT_PARAM_RECOVERABLE,
        I915_CONTEXT_PARAM_VM,
        I915_CONTEXT_PARAM_PERSISTENCE,
        I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS,
        I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE,
        I915_CONTEXT_CREATE_EXT_SETPARAM,
        I915_CONTEXT_CREATE_EXT_CLONE,
        I915_MMAP_OFFSET_GTT,
        I915_MMAP_OFFSET_WC,
        I915_MMAP_OFFSET_WB,
        I915_MMAP_OFFSET_UC,
        I915_MMAP_OFFSET_FIXED,
        EXEC_OBJECT_NEEDS_FENCE,
        EXEC_OBJECT_NEEDS_GTT,
        EXEC_OBJECT_WRITE,
        EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
        EXEC_OBJECT_PINNED,
        EXEC_OBJECT_PAD_TO_SIZE,
        EXEC_OBJECT_ASYNC,
        EXEC_OBJECT_CAPTURE,
        EXEC_OBJECT_UNKNOWN_FLAGS,
        I915_EXEC_RING_MASK,
        I915_EXEC_DEFAULT,
        I915_EXEC_RENDER,
        I915_EXEC_NO_RELOC,
        I915_EXEC_HANDLE_LUT,
        I915_EXEC_FENCE_IN,
        I915_EXEC_FENCE_OUT,
        I915_EXEC_BATCH_FIRST,
        I915_EXEC_FENCE_ARRAY,
        I915_EXEC_USE_EXTENSIONS,
        I915_EXEC_FENCE_WAIT,
        I915_EXEC_FENCE_SIGNAL,
        I915_PARAM_HAS_EXEC_FENCE_ARRAY,
        DRM_SYNCOBJ_CREATE_SIGNALED,
        DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
        DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
        I915_EXEC_UNKNOWN_FLAGS,
        DRM_CLOEXEC,
        DRM_RDWR,
        DRM_IOCTL_VERSION,
        DRM_IOCTL_GEM_CLOSE,
        DRM_IOCTL_PRIME_HANDLE_TO_FD,
        DRM_IOCTL_I915_GETPARAM,
        DRM_IOCTL_I915_GEM_EXECBUFFER2,
        DRM_IOCTL_I915_GEM_EXECBUFFER2_WR,
        DRM_IOCTL_I915_GEM_CREATE,
        DRM_IOCTL_I915_GEM_MMAP_OFFSET,
        DRM_IOCTL_I915_GEM_WAIT,
        DRM_IOCTL_I915_GEM_BUSY,
        DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT,
        DRM_IOCTL_I915_GEM_CONTEXT_DESTROY,
        DRM_IOCTL_I915_GET_RESET_STATS,
        DRM_IOCTL_I915_QUERY,
        DRM_IOCTL_I915_GEM_VM_CREATE,
        DRM_IOCTL_I915_GEM_VM_DESTROY,
        DRM_IOCTL_SYNCOBJ_CREATE,
        DRM_IOCTL_SYNCOBJ_DESTROY,
        DRM_IOCTL_SYNCOBJ_WAIT,
        DRM_IOCTL_SYNCOBJ_RESET,
        DRM_IOCTL_SYNCOBJ_SIGNAL
    );
    m
}

#[test]
fn uapi_matches_libdrm_headers() {
    let c = c_facts();
    let r = rust_facts();
    let mut bad = Vec::new();
    for (k, cv) in &c {
        match r.get(k) {
            Some(rv) if rv == cv => {}
            Some(rv) => bad.push(format!("{k}: C {cv:#x}, Rust {rv:#x}")),
            None => bad.push(format!("{k}: printed by abi.c but not checked in Rust")),
        }
    }
    for k in r.keys().filter(|k| !c.contains_key(*k)) {
        bad.push(format!("{k}: checked in Rust but abi.c does not print it"));
    }
    assert!(bad.is_empty(), "uAPI mismatches:\n{}", bad.join("\n"));
    assert!(c.len() > 150, "abi.c printed only {} facts", c.len());
}
