//! A safe convenience layer over [`I915`]: the calls the driver makes, with
//! the structs filled in the way i915 expects them.

use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::MmapMut;
use nix::errno::Errno;

use super::{KmdError, I915};
use crate::uapi::*;

pub struct Device {
    pub kmd: Box<dyn I915>,
    /// What this process holds in the kernel driver through this device, by its own count:
    /// what a leak check reads (`gencld` reports it in `Stats`).
    pub live: Live,
}

/// Handles made through a [`Device`] and not yet closed.
#[derive(Debug, Default)]
pub struct Live {
    pub objects: AtomicU64,
    pub vms: AtomicU64,
    pub contexts: AtomicU64,
}

impl Live {
    /// (GEM objects, VMs, contexts).
    pub fn counts(&self) -> (u64, u64, u64) {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        (get(&self.objects), get(&self.vms), get(&self.contexts))
    }
}

fn made(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

fn closed(c: &AtomicU64) {
    c.fetch_sub(1, Ordering::Relaxed);
}

/// The EU topology from DRM_I915_QUERY_TOPOLOGY_INFO.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    pub max_slices: u32,
    pub max_subslices: u32,
    pub max_eus_per_subslice: u32,
    /// Enabled slices, subslices and EUs.
    pub slices: u32,
    pub subslices: u32,
    pub eus: u32,
    /// Per enabled subslice: its EU count (fused-off EUs excluded).
    pub eus_per_subslice: Vec<u32>,
}

/// A 48-bit GPU address in canonical form (bit 47 sign-extended), as softpin wants.
pub fn canonical(addr: u64) -> u64 {
    (((addr << 16) as i64) >> 16) as u64
}

impl Device {
    pub fn new(kmd: Box<dyn I915>) -> Self {
        Self {
            kmd,
            live: Live::default(),
        }
    }

    pub fn describe(&self) -> String {
        self.kmd.describe()
    }

    /// The GPU model's counters for the last batch of `ctx_id` (None on real hardware).
    pub fn batch_counters(&self, ctx_id: u32) -> Option<crate::gpu::Counters> {
        self.kmd.batch_counters(ctx_id)
    }

    pub fn total_counters(&self) -> Option<crate::gpu::Counters> {
        self.kmd.total_counters()
    }

    pub fn getparam(&self, param: i32) -> Result<i32, KmdError> {
        let mut value = 0i32;
        let mut p = drm_i915_getparam {
            param,
            value: &mut value,
        };
        self.kmd.getparam(&mut p)?;
        Ok(value)
    }

    /// The topology, with the two-call protocol: length first, then data.
    pub fn topology(&self) -> Result<Topology, KmdError> {
        let mut item = drm_i915_query_item {
            query_id: DRM_I915_QUERY_TOPOLOGY_INFO,
            ..Default::default()
        };
        let mut q = drm_i915_query {
            num_items: 1,
            flags: 0,
            items_ptr: &mut item as *mut _ as u64,
        };
        self.kmd.query(&mut q)?;
        let errno_of = |len: i32| KmdError::Errno {
            ioctl: "I915_QUERY(TOPOLOGY_INFO)",
            errno: Errno::from_raw(-len),
        };
        if item.length < 0 {
            return Err(errno_of(item.length));
        }
        let hdr = std::mem::size_of::<drm_i915_query_topology_info>();
        let len = item.length as usize;
        if len < hdr {
            return Err(KmdError::Protocol {
                what: "topology length",
            });
        }
        // u64 storage keeps the header suitably aligned.
        let mut buf = vec![0u64; len.div_ceil(8)];
        item.data_ptr = buf.as_mut_ptr() as u64;
        q.items_ptr = &mut item as *mut _ as u64;
        self.kmd.query(&mut q)?;
        if item.length < 0 {
            return Err(errno_of(item.length));
        }
        let bytes: Vec<u8> = buf.iter().flat_map(|w| w.to_le_bytes()).take(len).collect();
        let h = |i: usize| u32::from(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]));
        let (max_s, max_ss, max_eu) = (h(1), h(2), h(3));
        let (ss_off, ss_stride, eu_off, eu_stride) = (h(4), h(5), h(6), h(7));
        let data = &bytes[hdr..];
        let bit = |byte: usize, b: u32| -> Result<bool, KmdError> {
            data.get(byte)
                .map(|v| v >> b & 1 == 1)
                .ok_or(KmdError::Protocol {
                    what: "topology masks",
                })
        };
        let mut t = Topology {
            max_slices: max_s,
            max_subslices: max_ss,
            max_eus_per_subslice: max_eu,
            slices: 0,
            subslices: 0,
            eus: 0,
            eus_per_subslice: Vec::new(),
        };
        for s in 0..max_s {
            if !bit((s / 8) as usize, s % 8)? {
                continue;
            }
            t.slices += 1;
            for ss in 0..max_ss {
                let at = (ss_off + s * ss_stride + ss / 8) as usize;
                if !bit(at, ss % 8)? {
                    continue;
                }
                t.subslices += 1;
                let mut n = 0;
                for eu in 0..max_eu {
                    let at = (eu_off + (s * max_ss + ss) * eu_stride + eu / 8) as usize;
                    n += u32::from(bit(at, eu % 8)?);
                }
                t.eus += n;
                t.eus_per_subslice.push(n);
            }
        }
        Ok(t)
    }

    /// A GEM object of at least `size` bytes; returns its handle.
    pub fn create_bo(&self, size: u64) -> Result<u32, KmdError> {
        let mut c = drm_i915_gem_create {
            size,
            ..Default::default()
        };
        self.kmd.gem_create(&mut c)?;
        made(&self.live.objects);
        Ok(c.handle)
    }

    /// Maps the object write-back cached (the CPU view the driver shares).
    pub fn map_bo(&self, handle: u32, size: usize) -> Result<MmapMut, KmdError> {
        let mut m = drm_i915_gem_mmap_offset {
            handle,
            flags: I915_MMAP_OFFSET_WB,
            ..Default::default()
        };
        self.kmd.gem_mmap_offset(&mut m)?;
        self.kmd.mmap(m.offset, size)
    }

    /// A dma-buf (emulated: memfd) of the object, to pass to another process.
    pub fn export_bo(&self, handle: u32) -> Result<OwnedFd, KmdError> {
        let mut p = drm_prime_handle {
            handle,
            flags: DRM_CLOEXEC | DRM_RDWR,
            fd: -1,
        };
        self.kmd.prime_handle_to_fd(&mut p)?;
        if p.fd < 0 {
            return Err(KmdError::Protocol {
                what: "PRIME_HANDLE_TO_FD fd",
            });
        }
        // SAFETY: on success the ioctl returned a new fd that we now own.
        Ok(unsafe { OwnedFd::from_raw_fd(p.fd) })
    }

    pub fn close_bo(&self, handle: u32) -> Result<(), KmdError> {
        self.kmd.gem_close(&drm_gem_close { handle, pad: 0 })?;
        closed(&self.live.objects);
        Ok(())
    }

    pub fn create_vm(&self) -> Result<u32, KmdError> {
        let mut v = drm_i915_gem_vm_control::default();
        self.kmd.vm_create(&mut v)?;
        made(&self.live.vms);
        Ok(v.vm_id)
    }

    pub fn destroy_vm(&self, vm_id: u32) -> Result<(), KmdError> {
        self.kmd.vm_destroy(&drm_i915_gem_vm_control {
            vm_id,
            ..Default::default()
        })?;
        closed(&self.live.vms);
        Ok(())
    }

    /// A context in `vm`, non-recoverable (a hang bans it rather than
    /// replaying, as compute runtimes want), set at creation through the
    /// SETPARAM extension chain.
    pub fn create_context(&self, vm: u32) -> Result<u32, KmdError> {
        let mut recoverable = drm_i915_gem_context_create_ext_setparam {
            base: i915_user_extension {
                name: I915_CONTEXT_CREATE_EXT_SETPARAM,
                ..Default::default()
            },
            param: drm_i915_gem_context_param {
                param: I915_CONTEXT_PARAM_RECOVERABLE,
                value: 0,
                ..Default::default()
            },
        };
        let vm_ext = drm_i915_gem_context_create_ext_setparam {
            base: i915_user_extension {
                next_extension: &mut recoverable as *mut _ as u64,
                name: I915_CONTEXT_CREATE_EXT_SETPARAM,
                ..Default::default()
            },
            param: drm_i915_gem_context_param {
                param: I915_CONTEXT_PARAM_VM,
                value: u64::from(vm),
                ..Default::default()
            },
        };
        let mut c = drm_i915_gem_context_create_ext {
            flags: I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS,
            extensions: &vm_ext as *const _ as u64,
            ..Default::default()
        };
        self.kmd.context_create_ext(&mut c)?;
        made(&self.live.contexts);
        Ok(c.ctx_id)
    }

    pub fn destroy_context(&self, ctx_id: u32) -> Result<(), KmdError> {
        self.kmd
            .context_destroy(&drm_i915_gem_context_destroy { ctx_id, pad: 0 })?;
        closed(&self.live.contexts);
        Ok(())
    }

    /// Submits `batch_handle` (which must be one of `objects`) on the render
    /// engine of `ctx`, every object softpinned at its address.
    pub fn exec(
        &self,
        ctx: u32,
        objects: &[(u32, u64, bool)],
        batch_handle: u32,
        batch_len: u32,
    ) -> Result<(), KmdError> {
        self.exec_as(ctx, objects, batch_handle, batch_len, false)
    }

    /// `exec` of a batch that a thread of the caller's waits for next, without a timeout
    /// (`I915::execbuffer2_then_wait`).
    pub fn exec_then_wait(
        &self,
        ctx: u32,
        objects: &[(u32, u64, bool)],
        batch_handle: u32,
        batch_len: u32,
    ) -> Result<(), KmdError> {
        self.exec_as(ctx, objects, batch_handle, batch_len, true)
    }

    fn exec_as(
        &self,
        ctx: u32,
        objects: &[(u32, u64, bool)],
        batch_handle: u32,
        batch_len: u32,
        then_wait: bool,
    ) -> Result<(), KmdError> {
        let mut list: Vec<drm_i915_gem_exec_object2> = objects
            .iter()
            .filter(|o| o.0 != batch_handle)
            .chain(objects.iter().filter(|o| o.0 == batch_handle).take(1))
            .map(|&(handle, addr, write)| drm_i915_gem_exec_object2 {
                handle,
                offset: canonical(addr),
                flags: EXEC_OBJECT_PINNED
                    | EXEC_OBJECT_SUPPORTS_48B_ADDRESS
                    | if write { EXEC_OBJECT_WRITE } else { 0 },
                ..Default::default()
            })
            .collect();
        if list.last().map(|o| o.handle) != Some(batch_handle) {
            return Err(KmdError::Errno {
                ioctl: "I915_GEM_EXECBUFFER2",
                errno: Errno::EINVAL,
            });
        }
        let mut e = drm_i915_gem_execbuffer2 {
            buffers_ptr: list.as_mut_ptr() as u64,
            buffer_count: list.len() as u32,
            batch_len,
            // The batch is the last object; no relocations (softpin).
            flags: I915_EXEC_RENDER | I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT,
            ..Default::default()
        };
        execbuffer2_set_context_id(&mut e, ctx);
        if then_wait {
            self.kmd.execbuffer2_then_wait(&mut e)
        } else {
            self.kmd.execbuffer2(&mut e)
        }
    }

    /// Waits for the object to be idle: true if it is, false on timeout.
    pub fn wait(&self, handle: u32, timeout_ns: i64) -> Result<bool, KmdError> {
        let mut w = drm_i915_gem_wait {
            bo_handle: handle,
            flags: 0,
            timeout_ns,
        };
        match self.kmd.gem_wait(&mut w) {
            Ok(()) => Ok(true),
            Err(KmdError::Errno {
                errno: Errno::ETIME,
                ..
            }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub fn reset_stats(&self, ctx_id: u32) -> Result<drm_i915_reset_stats, KmdError> {
        let mut r = drm_i915_reset_stats {
            ctx_id,
            ..Default::default()
        };
        self.kmd.get_reset_stats(&mut r)?;
        Ok(r)
    }
}
