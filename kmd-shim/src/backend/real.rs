//! The kernel's i915: a render node, found, checked and driven with ioctls through
//! libc (the request numbers of `uapi`). Every call goes through libc's `open`, `ioctl`
//! and `mmap`, so an LD_PRELOAD shim (`libgencl_drm_shim.so`, as Mesa's drm-shim) can
//! answer them: the drm crate was dropped here because it issues its ioctls as raw
//! syscalls through rustix, which no such shim sees.

use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use nix::errno::Errno;

use super::{KmdError, I915};
use crate::uapi::*;

/// An open i915 render node.
#[derive(Debug)]
pub struct RealI915 {
    file: File,
    path: PathBuf,
}

/// The name of the kernel driver behind `fd` (DRM_IOCTL_VERSION, lengths first).
fn driver_name(fd: i32) -> nix::Result<String> {
    let mut v = drm_version::default();
    // SAFETY: a valid fd and a live drm_version with null buffers of zero length: the
    // kernel writes only the lengths.
    unsafe { ioctls::version(fd, &mut v) }?;
    let mut name = vec![0u8; v.name_len];
    let mut v = drm_version {
        name_len: name.len(),
        name: name.as_mut_ptr(),
        ..Default::default()
    };
    // SAFETY: `name` is live and `name_len` long; the other buffers are null, length 0.
    unsafe { ioctls::version(fd, &mut v) }?;
    name.truncate(v.name_len.min(name.len()));
    Ok(String::from_utf8_lossy(&name).into_owned())
}

mod ioctls {
    use crate::uapi::*;
    nix::ioctl_readwrite_bad!(version, DRM_IOCTL_VERSION, drm_version);
    nix::ioctl_readwrite_bad!(getparam, DRM_IOCTL_I915_GETPARAM, drm_i915_getparam);
    nix::ioctl_readwrite_bad!(query, DRM_IOCTL_I915_QUERY, drm_i915_query);
    nix::ioctl_readwrite_bad!(gem_create, DRM_IOCTL_I915_GEM_CREATE, drm_i915_gem_create);
    nix::ioctl_write_ptr_bad!(gem_close, DRM_IOCTL_GEM_CLOSE, drm_gem_close);
    nix::ioctl_readwrite_bad!(
        gem_mmap_offset,
        DRM_IOCTL_I915_GEM_MMAP_OFFSET,
        drm_i915_gem_mmap_offset
    );
    nix::ioctl_readwrite_bad!(
        prime_handle_to_fd,
        DRM_IOCTL_PRIME_HANDLE_TO_FD,
        drm_prime_handle
    );
    nix::ioctl_readwrite_bad!(
        vm_create,
        DRM_IOCTL_I915_GEM_VM_CREATE,
        drm_i915_gem_vm_control
    );
    nix::ioctl_write_ptr_bad!(
        vm_destroy,
        DRM_IOCTL_I915_GEM_VM_DESTROY,
        drm_i915_gem_vm_control
    );
    nix::ioctl_readwrite_bad!(
        context_create_ext,
        DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT,
        drm_i915_gem_context_create_ext
    );
    nix::ioctl_write_ptr_bad!(
        context_destroy,
        DRM_IOCTL_I915_GEM_CONTEXT_DESTROY,
        drm_i915_gem_context_destroy
    );
    nix::ioctl_write_ptr_bad!(
        execbuffer2,
        DRM_IOCTL_I915_GEM_EXECBUFFER2,
        drm_i915_gem_execbuffer2
    );
    nix::ioctl_readwrite_bad!(gem_wait, DRM_IOCTL_I915_GEM_WAIT, drm_i915_gem_wait);
    nix::ioctl_readwrite_bad!(gem_busy, DRM_IOCTL_I915_GEM_BUSY, drm_i915_gem_busy);
    nix::ioctl_readwrite_bad!(
        get_reset_stats,
        DRM_IOCTL_I915_GET_RESET_STATS,
        drm_i915_reset_stats
    );
    nix::ioctl_readwrite_bad!(syncobj_create, DRM_IOCTL_SYNCOBJ_CREATE, drm_syncobj_create);
    nix::ioctl_readwrite_bad!(
        syncobj_destroy,
        DRM_IOCTL_SYNCOBJ_DESTROY,
        drm_syncobj_destroy
    );
    nix::ioctl_readwrite_bad!(syncobj_wait, DRM_IOCTL_SYNCOBJ_WAIT, drm_syncobj_wait);
    nix::ioctl_readwrite_bad!(syncobj_reset, DRM_IOCTL_SYNCOBJ_RESET, drm_syncobj_array);
    nix::ioctl_readwrite_bad!(syncobj_signal, DRM_IOCTL_SYNCOBJ_SIGNAL, drm_syncobj_array);
}

impl RealI915 {
    /// The first render node whose kernel driver is i915.
    pub fn open() -> Result<Self, KmdError> {
        let mut tried = Vec::new();
        for minor in 128..192 {
            let path = PathBuf::from(format!("/dev/dri/renderD{minor}"));
            match Self::open_path(&path) {
                // No such node (asked by opening it, not by stat: open is what an
                // LD_PRELOAD shim answers).
                Err(KmdError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    continue
                }
                Ok(d) => return Ok(d),
                // A node that is i915 but not Gen9 is reported as such, not skipped.
                Err(e @ KmdError::Unsupported { .. }) => return Err(e),
                Err(e) => tried.push(format!("{}: {e}", path.display())),
            }
        }
        Err(KmdError::NoDevice(if tried.is_empty() {
            "no /dev/dri/renderD* node".into()
        } else {
            tried.join("; ")
        }))
    }

    /// Opens `path` and checks that the i915 driver owns it.
    pub fn open_path(path: &Path) -> Result<Self, KmdError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_CLOEXEC)
            .open(path)
            .map_err(|source| KmdError::Io {
                what: format!("opening {}", path.display()),
                source,
            })?;
        let driver = driver_name(file.as_raw_fd()).map_err(|e| KmdError::Io {
            what: format!("DRM_IOCTL_VERSION on {}", path.display()),
            source: e.into(),
        })?;
        if driver != "i915" {
            return Err(KmdError::NoDevice(format!(
                "{} is driven by {driver:?}, not i915",
                path.display()
            )));
        }
        let dev = Self {
            file,
            path: path.to_owned(),
        };
        // Gen9 code on another generation would not run: refuse anything the Gen9 table
        // does not hold, by name.
        let mut id = 0i32;
        let mut p = drm_i915_getparam {
            param: I915_PARAM_CHIPSET_ID,
            value: &mut id,
        };
        dev.getparam(&mut p)?;
        if crate::devices::part(id as u32).is_none() {
            return Err(KmdError::Unsupported {
                path: path.display().to_string(),
                why: crate::devices::refusal(id as u32),
            });
        }
        Ok(dev)
    }

    /// Issues an ioctl, restarting it on EINTR/EAGAIN as libdrm's drmIoctl does.
    fn call(
        &self,
        name: &'static str,
        mut f: impl FnMut(i32) -> nix::Result<i32>,
    ) -> Result<(), KmdError> {
        loop {
            match f(self.file.as_raw_fd()) {
                Ok(_) => return Ok(()),
                Err(Errno::EINTR) | Err(Errno::EAGAIN) => continue,
                Err(errno) => return Err(KmdError::Errno { ioctl: name, errno }),
            }
        }
    }
}

// SAFETY (for every ioctl below): the fd is an open i915 render node, the
// request number matches the struct type (checked against i915_drm.h by
// tests/uapi_abi.rs), and the struct is a live, exclusively borrowed value;
// pointers inside it are the caller's responsibility (see the trait contract).
impl I915 for RealI915 {
    fn getparam(&self, p: &mut drm_i915_getparam) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GETPARAM", |fd| unsafe { ioctls::getparam(fd, p) })
    }
    fn query(&self, q: &mut drm_i915_query) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_QUERY", |fd| unsafe { ioctls::query(fd, q) })
    }
    fn gem_create(&self, c: &mut drm_i915_gem_create) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_CREATE", |fd| unsafe { ioctls::gem_create(fd, c) })
    }
    fn gem_close(&self, c: &drm_gem_close) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("GEM_CLOSE", |fd| unsafe { ioctls::gem_close(fd, c) })
    }
    fn gem_mmap_offset(&self, m: &mut drm_i915_gem_mmap_offset) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_MMAP_OFFSET", |fd| unsafe {
            ioctls::gem_mmap_offset(fd, m)
        })
    }
    fn mmap(&self, offset: u64, size: usize) -> Result<memmap2::MmapMut, KmdError> {
        // SAFETY: the offset names a GEM object's mapping on this DRM fd; the
        // kernel keeps the object alive while mapped. Its pages may also be
        // written by the GPU, which is the point of sharing them.
        unsafe {
            memmap2::MmapOptions::new()
                .offset(offset)
                .len(size)
                .map_mut(&self.file)
        }
        .map_err(|source| KmdError::Io {
            what: format!("mmap of {} at {offset:#x}", self.path.display()),
            source,
        })
    }
    fn prime_handle_to_fd(&self, p: &mut drm_prime_handle) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("PRIME_HANDLE_TO_FD", |fd| unsafe {
            ioctls::prime_handle_to_fd(fd, p)
        })
    }
    fn vm_create(&self, v: &mut drm_i915_gem_vm_control) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_VM_CREATE", |fd| unsafe {
            ioctls::vm_create(fd, v)
        })
    }
    fn vm_destroy(&self, v: &drm_i915_gem_vm_control) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_VM_DESTROY", |fd| unsafe {
            ioctls::vm_destroy(fd, v)
        })
    }
    fn context_create_ext(&self, c: &mut drm_i915_gem_context_create_ext) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_CONTEXT_CREATE_EXT", |fd| unsafe {
            ioctls::context_create_ext(fd, c)
        })
    }
    fn context_destroy(&self, c: &drm_i915_gem_context_destroy) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_CONTEXT_DESTROY", |fd| unsafe {
            ioctls::context_destroy(fd, c)
        })
    }
    fn execbuffer2(&self, e: &mut drm_i915_gem_execbuffer2) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_EXECBUFFER2", |fd| unsafe {
            ioctls::execbuffer2(fd, e)
        })
    }
    fn gem_wait(&self, w: &mut drm_i915_gem_wait) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_WAIT", |fd| unsafe { ioctls::gem_wait(fd, w) })
    }

    fn gem_busy(&self, b: &mut drm_i915_gem_busy) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GEM_BUSY", |fd| unsafe { ioctls::gem_busy(fd, b) })
    }
    fn get_reset_stats(&self, r: &mut drm_i915_reset_stats) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("I915_GET_RESET_STATS", |fd| unsafe {
            ioctls::get_reset_stats(fd, r)
        })
    }
    fn syncobj_create(&self, c: &mut drm_syncobj_create) -> Result<(), KmdError> {
        // SAFETY: see above.
        self.call("SYNCOBJ_CREATE", |fd| unsafe {
            ioctls::syncobj_create(fd, c)
        })
    }
    fn syncobj_destroy(&self, d: &drm_syncobj_destroy) -> Result<(), KmdError> {
        let mut d = *d;
        // SAFETY: see above (the kernel reads the struct; a copy is passed as _IOWR wants).
        self.call("SYNCOBJ_DESTROY", |fd| unsafe {
            ioctls::syncobj_destroy(fd, &mut d)
        })
    }
    fn syncobj_wait(&self, w: &mut drm_syncobj_wait) -> Result<(), KmdError> {
        // SAFETY: see above; `handles` points at `count_handles` u32s (the caller's contract).
        self.call("SYNCOBJ_WAIT", |fd| unsafe { ioctls::syncobj_wait(fd, w) })
    }
    fn syncobj_reset(&self, a: &drm_syncobj_array) -> Result<(), KmdError> {
        let mut a = *a;
        // SAFETY: as for syncobj_wait.
        self.call("SYNCOBJ_RESET", |fd| unsafe {
            ioctls::syncobj_reset(fd, &mut a)
        })
    }
    fn syncobj_signal(&self, a: &drm_syncobj_array) -> Result<(), KmdError> {
        let mut a = *a;
        // SAFETY: as for syncobj_wait.
        self.call("SYNCOBJ_SIGNAL", |fd| unsafe {
            ioctls::syncobj_signal(fd, &mut a)
        })
    }
    fn describe(&self) -> String {
        format!("i915 at {}", self.path.display())
    }
}
