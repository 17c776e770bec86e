//! `libgencl_drm_shim.so`: an LD_PRELOAD library that presents the emulated i915 as the
//! render node `/dev/dri/renderD128`, as Mesa's drm-shim presents fake GPUs. With it,
//! `GENCL_DEVICE=real` drives the real backend (`gencl_kmd::backend::real`: open, the
//! DRM_IOCTL_VERSION check, every i915 ioctl, mmap of the fake offsets, close) through the
//! same libc calls and ioctl structs it would issue to the kernel, answered by the emulated
//! device in-process.
//!
//!     LD_PRELOAD=target/release/libgencl_drm_shim.so GENCL_DEVICE=real ./program
//!
//! Each open of the node is a DRM file of its own (its own handles, contexts and VMs), as
//! the kernel's are. `GENCL_EMULATED_GPU` picks the configuration presented;
//! `GENCL_DRM_SHIM_PCI_ID=0x....` overrides the PCI id GETPARAM answers (to exercise the
//! backend's refusal of other generations).
//!
//! The hooks are plain C functions: `open`, `open64`, `openat` and `openat64` (variadic in
//! C, defined here with their mode argument, which the x86-64 calling convention passes
//! in the same register either way), `ioctl` (likewise, with its pointer argument),
//! `mmap`, `mmap64`, `munmap` and `close`. Calls on other files go to the kernel: the
//! variadic ones as raw system calls, the others through the next definition in the
//! link order (`dlsym(RTLD_NEXT)`).

#![allow(clippy::missing_safety_doc)]

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
compile_error!("the drm-shim's variadic hooks are written for x86-64 Linux");

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void, CStr};
use std::sync::{Arc, LazyLock};

use gencl_kmd::backend::emulated::EmulatedI915;
use gencl_kmd::backend::{KmdError, I915};
use gencl_kmd::uapi::*;
use parking_lot::Mutex;

/// The node this library answers for.
const NODE: &[u8] = b"/dev/dri/renderD128";

/// Open DRM files: fd → the emulated device behind it.
static FILES: LazyLock<Mutex<HashMap<c_int, Arc<EmulatedI915>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
/// Mappings of objects: address → the mapping (dropped on munmap).
static MAPS: LazyLock<Mutex<HashMap<usize, memmap::Mapping>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

mod memmap {
    /// A mapping the emulated device made (memmap2's, kept alive until munmap).
    pub struct Mapping(#[allow(dead_code)] pub Box<dyn std::any::Any + Send>);
}

fn set_errno(e: c_int) {
    // SAFETY: glibc's thread-local errno.
    unsafe { *libc::__errno_location() = e };
}

fn file(fd: c_int) -> Option<Arc<EmulatedI915>> {
    FILES.lock().get(&fd).cloned()
}

/// Whether `path` names the node.
unsafe fn is_node(path: *const c_char) -> bool {
    // SAFETY: the caller's path, a NUL-terminated string (or null).
    !path.is_null() && unsafe { CStr::from_ptr(path) }.to_bytes() == NODE
}

/// A new DRM file: an fd of its own (a memfd stands for the node's file), and a device.
fn open_node() -> c_int {
    let device = match EmulatedI915::from_env() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("gencl drm-shim: {e}");
            set_errno(libc::ENODEV);
            return -1;
        }
    };
    // SAFETY: a plain system call with a static name.
    let fd = unsafe { libc::memfd_create(c"gencl-drm-shim".as_ptr(), libc::MFD_CLOEXEC) };
    if fd >= 0 {
        FILES.lock().insert(fd, Arc::new(device));
    }
    fd
}

#[no_mangle]
pub unsafe extern "C" fn open(path: *const c_char, flags: c_int, mode: c_uint) -> c_int {
    // SAFETY: forwarded as given.
    unsafe { openat(libc::AT_FDCWD, path, flags, mode) }
}

#[no_mangle]
pub unsafe extern "C" fn open64(path: *const c_char, flags: c_int, mode: c_uint) -> c_int {
    // SAFETY: forwarded as given.
    unsafe { openat(libc::AT_FDCWD, path, flags, mode) }
}

#[no_mangle]
pub unsafe extern "C" fn openat64(
    dir: c_int,
    path: *const c_char,
    flags: c_int,
    mode: c_uint,
) -> c_int {
    // SAFETY: forwarded as given.
    unsafe { openat(dir, path, flags, mode) }
}

#[no_mangle]
pub unsafe extern "C" fn openat(
    dir: c_int,
    path: *const c_char,
    flags: c_int,
    mode: c_uint,
) -> c_int {
    // SAFETY: the caller's path (checked for null).
    if unsafe { is_node(path) } {
        return open_node();
    }
    // SAFETY: the caller's arguments, passed to the kernel as the C library would.
    unsafe { libc::syscall(libc::SYS_openat, dir, path, flags, mode) as c_int }
}

/// The next definition of `name` after this library's (glibc's) as a function of C type
/// `$ty`, looked up once. Used inside the caller's `unsafe` block, whose SAFETY comment
/// covers the transmute: the address is that of glibc's function of that type.
macro_rules! real {
    ($name:literal, $ty:ty) => {{
        static REAL: LazyLock<usize> = LazyLock::new(|| next::<$ty>($name) as usize);
        std::mem::transmute::<usize, $ty>(*REAL)
    }};
}

/// The next definition of `name` after this library's (glibc's).
fn next<F: Copy>(name: &CStr) -> F {
    // SAFETY: dlsym with RTLD_NEXT and a static name; the caller names a function of
    // type F (asserted by size below).
    let p = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) };
    assert!(!p.is_null(), "gencl drm-shim: no next {name:?}");
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: a function pointer of the libc function's C type.
    unsafe { std::mem::transmute_copy(&p) }
}

#[no_mangle]
pub unsafe extern "C" fn close(fd: c_int) -> c_int {
    let dropped = FILES.lock().remove(&fd);
    drop(dropped); // outside the lock: the device's teardown closes fds of its own
    type Close = unsafe extern "C" fn(c_int) -> c_int;
    // SAFETY: glibc's close (its address, of its C type) with the caller's fd.
    unsafe { real!(c"close", Close)(fd) }
}

type Mmap =
    unsafe extern "C" fn(*mut c_void, usize, c_int, c_int, c_int, libc::off_t) -> *mut c_void;
type Munmap = unsafe extern "C" fn(*mut c_void, usize) -> c_int;

#[no_mangle]
pub unsafe extern "C" fn mmap(
    addr: *mut c_void,
    len: usize,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: libc::off_t,
) -> *mut c_void {
    if let Some(dev) = file(fd) {
        return match dev.mmap(offset as u64, len) {
            Ok(mut m) => {
                let p = m.as_mut_ptr();
                MAPS.lock().insert(p as usize, memmap::Mapping(Box::new(m)));
                p.cast()
            }
            Err(e) => {
                set_errno(e.errno().map_or(libc::EINVAL, |e| e as c_int));
                libc::MAP_FAILED
            }
        };
    }
    // SAFETY: glibc's mmap (its address, of its C type) with the caller's arguments.
    unsafe { real!(c"mmap", Mmap)(addr, len, prot, flags, fd, offset) }
}

#[no_mangle]
pub unsafe extern "C" fn mmap64(
    addr: *mut c_void,
    len: usize,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: libc::off_t,
) -> *mut c_void {
    // SAFETY: the same function on x86-64 (off_t is 64-bit).
    unsafe { mmap(addr, len, prot, flags, fd, offset) }
}

#[no_mangle]
pub unsafe extern "C" fn munmap(addr: *mut c_void, len: usize) -> c_int {
    let mapping = MAPS.lock().remove(&(addr as usize));
    if let Some(m) = mapping {
        // Dropping the mapping unmaps it (its munmap comes back here and goes on).
        drop(m);
        return 0;
    }
    // SAFETY: glibc's munmap (its address, of its C type) with the caller's arguments.
    unsafe { real!(c"munmap", Munmap)(addr, len) }
}

/// DRM_IOCTL_VERSION as i915 answers it (name "i915"), lengths first.
unsafe fn version(v: *mut drm_version) -> Result<(), c_int> {
    if v.is_null() {
        return Err(libc::EFAULT);
    }
    // SAFETY: the caller's live drm_version (checked for null).
    let v = unsafe { &mut *v };
    let fill = |buf: *mut u8, len: &mut usize, text: &[u8]| {
        if !buf.is_null() {
            let n = (*len).min(text.len());
            // SAFETY: the caller's buffer of `len` bytes.
            unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), buf, n) };
        }
        *len = text.len();
    };
    v.version_major = 1;
    v.version_minor = 6;
    v.version_patchlevel = 0;
    fill(v.name, &mut v.name_len, b"i915");
    fill(v.date, &mut v.date_len, b"20201103");
    fill(v.desc, &mut v.desc_len, b"Intel Graphics (gencl drm-shim)");
    Ok(())
}

/// The errno of a failed ioctl of the emulated device.
fn errno(r: Result<(), KmdError>) -> Result<(), c_int> {
    r.map_err(|e| e.errno().map_or(libc::EINVAL, |e| e as c_int))
}

/// Casts the ioctl's argument to the request's struct.
macro_rules! arg {
    ($p:expr, $t:ty) => {{
        let p = $p as *mut $t;
        if p.is_null() {
            return fail(libc::EFAULT);
        }
        // SAFETY: the request number names this struct (its size is encoded in the
        // number), and the caller passed a live one, as it would to the kernel.
        unsafe { &mut *p }
    }};
}

fn fail(e: c_int) -> c_int {
    set_errno(e);
    -1
}

#[no_mangle]
pub unsafe extern "C" fn ioctl(fd: c_int, request: c_ulong, argp: *mut c_void) -> c_int {
    let Some(dev) = file(fd) else {
        // SAFETY: the caller's arguments, passed to the kernel as the C library would.
        return unsafe { libc::syscall(libc::SYS_ioctl, fd, request, argp) as c_int };
    };
    let r: Result<(), KmdError> = match request {
        DRM_IOCTL_VERSION => {
            // SAFETY: see `version`.
            return match unsafe { version(argp.cast()) } {
                Ok(()) => 0,
                Err(e) => fail(e),
            };
        }
        DRM_IOCTL_I915_GETPARAM => {
            let p = arg!(argp, drm_i915_getparam);
            let r = dev.getparam(p);
            if r.is_ok() && p.param == I915_PARAM_CHIPSET_ID {
                if let Some(id) = pci_id_override() {
                    // SAFETY: getparam succeeded, so `value` is the caller's live int.
                    unsafe { *p.value = id };
                }
            }
            r
        }
        DRM_IOCTL_I915_QUERY => dev.query(arg!(argp, drm_i915_query)),
        DRM_IOCTL_I915_GEM_CREATE => dev.gem_create(arg!(argp, drm_i915_gem_create)),
        DRM_IOCTL_GEM_CLOSE => dev.gem_close(arg!(argp, drm_gem_close)),
        DRM_IOCTL_I915_GEM_MMAP_OFFSET => dev.gem_mmap_offset(arg!(argp, drm_i915_gem_mmap_offset)),
        DRM_IOCTL_PRIME_HANDLE_TO_FD => dev.prime_handle_to_fd(arg!(argp, drm_prime_handle)),
        DRM_IOCTL_I915_GEM_VM_CREATE => dev.vm_create(arg!(argp, drm_i915_gem_vm_control)),
        DRM_IOCTL_I915_GEM_VM_DESTROY => dev.vm_destroy(arg!(argp, drm_i915_gem_vm_control)),
        DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT => {
            dev.context_create_ext(arg!(argp, drm_i915_gem_context_create_ext))
        }
        DRM_IOCTL_I915_GEM_CONTEXT_DESTROY => {
            dev.context_destroy(arg!(argp, drm_i915_gem_context_destroy))
        }
        DRM_IOCTL_I915_GEM_EXECBUFFER2 | DRM_IOCTL_I915_GEM_EXECBUFFER2_WR => {
            dev.execbuffer2(arg!(argp, drm_i915_gem_execbuffer2))
        }
        DRM_IOCTL_I915_GEM_WAIT => dev.gem_wait(arg!(argp, drm_i915_gem_wait)),
        DRM_IOCTL_I915_GEM_BUSY => dev.gem_busy(arg!(argp, drm_i915_gem_busy)),
        DRM_IOCTL_I915_GET_RESET_STATS => dev.get_reset_stats(arg!(argp, drm_i915_reset_stats)),
        DRM_IOCTL_SYNCOBJ_CREATE => dev.syncobj_create(arg!(argp, drm_syncobj_create)),
        DRM_IOCTL_SYNCOBJ_DESTROY => dev.syncobj_destroy(arg!(argp, drm_syncobj_destroy)),
        DRM_IOCTL_SYNCOBJ_WAIT => dev.syncobj_wait(arg!(argp, drm_syncobj_wait)),
        DRM_IOCTL_SYNCOBJ_RESET => dev.syncobj_reset(arg!(argp, drm_syncobj_array)),
        DRM_IOCTL_SYNCOBJ_SIGNAL => dev.syncobj_signal(arg!(argp, drm_syncobj_array)),
        // What the kernel answers for an ioctl the driver does not have.
        _ => return fail(libc::EINVAL),
    };
    match errno(r) {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// GENCL_DRM_SHIM_PCI_ID, when set (hex with 0x, or decimal).
fn pci_id_override() -> Option<i32> {
    let v = std::env::var("GENCL_DRM_SHIM_PCI_ID").ok()?;
    let v = v.trim();
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => i32::from_str_radix(h, 16).ok(),
        None => v.parse().ok(),
    }
}
