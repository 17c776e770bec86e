//! The emulated i915 through the same structs and safe layer the driver uses.

use super::*;
use crate::backend::device::{canonical, Device};
use crate::genx::gen9::*;
use memmap2::MmapOptions;

fn dev() -> Device {
    Device::new(Box::new(EmulatedI915::new()))
}

fn errno<T: std::fmt::Debug>(r: Result<T, KmdError>) -> Errno {
    r.unwrap_err().errno().expect("an ioctl errno")
}

#[test]
fn getparam_answers_skl_gt2() {
    let d = dev();
    assert_eq!(d.getparam(I915_PARAM_CHIPSET_ID).unwrap(), 0x1912);
    assert_eq!(d.getparam(I915_PARAM_EU_TOTAL).unwrap(), 24);
    assert_eq!(d.getparam(I915_PARAM_SUBSLICE_TOTAL).unwrap(), 3);
    assert_eq!(d.getparam(I915_PARAM_HAS_EXEC_SOFTPIN).unwrap(), 1);
    assert_eq!(
        d.getparam(I915_PARAM_CS_TIMESTAMP_FREQUENCY).unwrap(),
        12_000_000
    );
    assert_eq!(errno(d.getparam(9999)), Errno::EINVAL);
    let mut p = drm_i915_getparam {
        param: I915_PARAM_CHIPSET_ID,
        value: std::ptr::null_mut(),
    };
    assert_eq!(errno(d.kmd.getparam(&mut p)), Errno::EFAULT);
}

#[test]
fn topology_query_two_call_protocol() {
    let d = dev();
    let t = d.topology().unwrap();
    assert_eq!((t.slices, t.subslices, t.eus), (1, 3, 24));
    assert_eq!(t.eus_per_subslice, vec![8, 8, 8]);
    // Length first; a short buffer is -EINVAL in the item; unknown ids too.
    let mut items = [
        drm_i915_query_item {
            query_id: DRM_I915_QUERY_TOPOLOGY_INFO,
            ..Default::default()
        },
        drm_i915_query_item {
            query_id: 77,
            ..Default::default()
        },
    ];
    let mut q = drm_i915_query {
        num_items: 2,
        flags: 0,
        items_ptr: items.as_mut_ptr() as u64,
    };
    d.kmd.query(&mut q).unwrap();
    assert_eq!(items[0].length, 16 + 1 + 1 + 3);
    assert_eq!(items[1].length, -(Errno::EINVAL as i32));
    let mut small = [0u8; 8];
    items[0].length = 8;
    items[0].data_ptr = small.as_mut_ptr() as u64;
    d.kmd.query(&mut q).unwrap();
    assert_eq!(items[0].length, -(Errno::EINVAL as i32));
    q.flags = 1;
    assert_eq!(errno(d.kmd.query(&mut q)), Errno::EINVAL);
}

#[test]
fn objects_are_page_rounded_mapped_and_shared() {
    let d = dev();
    let mut c = drm_i915_gem_create {
        size: 1,
        ..Default::default()
    };
    d.kmd.gem_create(&mut c).unwrap();
    assert_eq!(c.size, 4096);
    assert_eq!(errno(d.create_bo(0)), Errno::EINVAL);
    let mut m = d.map_bo(c.handle, 4096).unwrap();
    m[..4].copy_from_slice(b"gen9");
    let fd = d.export_bo(c.handle).unwrap();
    // SAFETY: a test mapping of the exported memfd.
    let other = unsafe { MmapOptions::new().len(4096).map(&std::fs::File::from(fd)) }.unwrap();
    assert_eq!(&other[..4], b"gen9");
    assert_eq!(errno(d.map_bo(c.handle, 8192)), Errno::EINVAL);
    assert_eq!(errno(d.kmd.mmap(0x1234, 4096)), Errno::EACCES);
    d.close_bo(c.handle).unwrap();
    assert_eq!(errno(d.close_bo(c.handle)), Errno::EINVAL);
    assert_eq!(errno(d.export_bo(c.handle)), Errno::ENOENT);
}

#[test]
fn contexts_and_vms() {
    let d = dev();
    let vm = d.create_vm().unwrap();
    let ctx = d.create_context(vm).unwrap();
    assert_ne!(ctx, 0);
    assert_eq!(errno(d.create_context(vm + 100)), Errno::ENOENT);
    assert_eq!(errno(d.destroy_context(0)), Errno::ENOENT);
    assert_eq!(errno(d.destroy_context(ctx + 100)), Errno::ENOENT);
    let mut bad = drm_i915_gem_context_create_ext {
        flags: 1 << 7,
        ..Default::default()
    };
    assert_eq!(errno(d.kmd.context_create_ext(&mut bad)), Errno::EINVAL);
    let mut null_ext = drm_i915_gem_context_create_ext {
        flags: I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS,
        extensions: 0,
        ..Default::default()
    };
    d.kmd.context_create_ext(&mut null_ext).unwrap();
    d.destroy_context(ctx).unwrap();
    d.destroy_vm(vm).unwrap();
    assert_eq!(errno(d.destroy_vm(vm)), Errno::ENOENT);
}

const BATCH_VA: u64 = 0x8000_0000_0000; // bit 47 set: canonical form is 0xffff8000_00000000
const DATA_VA: u64 = 0x1_0000_0000;

struct Setup {
    d: Device,
    ctx: u32,
    batch: u32,
    data: u32,
}

fn setup(budget: Budget) -> Setup {
    let d = Device::new(Box::new(EmulatedI915::with_budget(budget)));
    let vm = d.create_vm().unwrap();
    let ctx = d.create_context(vm).unwrap();
    let batch = d.create_bo(4096).unwrap();
    let data = d.create_bo(8192).unwrap();
    Setup {
        d,
        ctx,
        batch,
        data,
    }
}

fn write_batch(s: &Setup, dw: &[u32]) {
    let mut m = s.d.map_bo(s.batch, 4096).unwrap();
    for (i, w) in dw.iter().enumerate() {
        m[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
}

fn stores(target: u64) -> Vec<u32> {
    let mut b = MiStoreDataImm {
        address: target,
        immediate_data: 0xcafe_f00d,
        ..Default::default()
    }
    .pack()[..4]
        .to_vec();
    b.extend(
        PipeControl {
            post_sync_operation: POST_SYNC_WRITE_IMMEDIATE,
            address: target + 8,
            immediate_data: 0x1122_3344_5566_7788,
            ..Default::default()
        }
        .pack(),
    );
    b.extend(MiBatchBufferEnd::default().pack());
    b.push(0);
    b
}

#[test]
fn execbuffer_runs_the_batch_in_the_contexts_vm() {
    let s = setup(Budget::default());
    write_batch(&s, &stores(DATA_VA + 0x1000));
    let objs = [(s.data, DATA_VA, true), (s.batch, BATCH_VA, false)];
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    assert!(s.d.wait(s.data, 1_000_000).unwrap());
    let m = s.d.map_bo(s.data, 8192).unwrap();
    assert_eq!(&m[0x1000..0x1004], &0xcafe_f00du32.to_le_bytes());
    assert_eq!(&m[0x1008..0x1010], &0x1122_3344_5566_7788u64.to_le_bytes());
    assert_eq!(s.d.reset_stats(s.ctx).unwrap().batch_active, 0);
    assert_eq!(errno(s.d.wait(9999, 0)), Errno::ENOENT);
}

fn raw_exec(s: &Setup, objs: &mut [drm_i915_gem_exec_object2], flags: u64) -> Result<(), KmdError> {
    let mut e = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_mut_ptr() as u64,
        buffer_count: objs.len() as u32,
        flags,
        ..Default::default()
    };
    execbuffer2_set_context_id(&mut e, s.ctx);
    s.d.kmd.execbuffer2(&mut e)
}

fn obj(handle: u32, offset: u64) -> drm_i915_gem_exec_object2 {
    drm_i915_gem_exec_object2 {
        handle,
        offset,
        flags: EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
        ..Default::default()
    }
}

#[test]
fn execbuffer_validates_like_i915() {
    let s = setup(Budget::default());
    write_batch(&s, &stores(DATA_VA));
    let b = canonical(BATCH_VA);
    let render = I915_EXEC_RENDER | I915_EXEC_NO_RELOC;
    // The good case first, with the batch first.
    raw_exec(
        &s,
        &mut [obj(s.batch, b), obj(s.data, DATA_VA)],
        render | I915_EXEC_BATCH_FIRST,
    )
    .unwrap();
    // Not canonical: bit 47 set without the sign extension.
    let e = raw_exec(
        &s,
        &mut [obj(s.data, DATA_VA), obj(s.batch, BATCH_VA)],
        render,
    );
    assert_eq!(errno(e), Errno::EINVAL);
    // Not page-aligned.
    let e = raw_exec(
        &s,
        &mut [obj(s.data, DATA_VA + 64), obj(s.batch, b)],
        render,
    );
    assert_eq!(errno(e), Errno::EINVAL);
    // Overlapping within one execbuf.
    let e = raw_exec(
        &s,
        &mut [obj(s.data, DATA_VA), obj(s.batch, DATA_VA + 4096)],
        render,
    );
    assert_eq!(errno(e), Errno::ENOSPC);
    // Unknown handle; duplicate handle; not pinned; above 4 GiB without 48B.
    let e = raw_exec(&s, &mut [obj(999, DATA_VA), obj(s.batch, b)], render);
    assert_eq!(errno(e), Errno::ENOENT);
    let e = raw_exec(&s, &mut [obj(s.batch, DATA_VA), obj(s.batch, b)], render);
    assert_eq!(errno(e), Errno::EINVAL);
    let mut unpinned = obj(s.data, DATA_VA);
    unpinned.flags = 0;
    assert_eq!(
        errno(raw_exec(&s, &mut [unpinned, obj(s.batch, b)], render)),
        Errno::EINVAL
    );
    let mut low = obj(s.data, DATA_VA);
    low.flags = EXEC_OBJECT_PINNED;
    assert_eq!(
        errno(raw_exec(&s, &mut [low, obj(s.batch, b)], render)),
        Errno::EINVAL
    );
    // Other engines, unknown flags, an empty list, a null list.
    let e = raw_exec(&s, &mut [obj(s.data, DATA_VA), obj(s.batch, b)], 3);
    assert_eq!(errno(e), Errno::EINVAL);
    let e = raw_exec(&s, &mut [obj(s.data, DATA_VA), obj(s.batch, b)], 1 << 40);
    assert_eq!(errno(e), Errno::EINVAL);
    assert_eq!(errno(raw_exec(&s, &mut [], render)), Errno::EINVAL);
    let mut e = drm_i915_gem_execbuffer2 {
        buffer_count: 1,
        ..Default::default()
    };
    assert_eq!(errno(s.d.kmd.execbuffer2(&mut e)), Errno::EFAULT);
    // Unknown context.
    let mut e = drm_i915_gem_execbuffer2 {
        buffer_count: 1,
        ..Default::default()
    };
    let mut l = [obj(s.batch, b)];
    e.buffers_ptr = l.as_mut_ptr() as u64;
    execbuffer2_set_context_id(&mut e, 4242);
    assert_eq!(errno(s.d.kmd.execbuffer2(&mut e)), Errno::ENOENT);
}

#[test]
fn a_fault_bans_the_context() {
    let s = setup(Budget::default());
    // Store to a page nothing is bound at.
    write_batch(&s, &stores(0x7000_0000_0000));
    let objs = [(s.data, DATA_VA, true), (s.batch, BATCH_VA, false)];
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    let r = s.d.reset_stats(s.ctx).unwrap();
    assert_eq!(r.batch_active, 1);
    assert!(r.reset_count >= 1);
    assert_eq!(errno(s.d.exec(s.ctx, &objs, s.batch, 0)), Errno::EIO);
    // Another context of the same device is unaffected.
    let vm = s.d.create_vm().unwrap();
    let ctx2 = s.d.create_context(vm).unwrap();
    write_batch(&s, &stores(DATA_VA));
    s.d.exec(ctx2, &objs, s.batch, 0).unwrap();
    assert_eq!(s.d.reset_stats(ctx2).unwrap().batch_active, 0);
}

#[test]
fn a_batch_past_its_budget_hangs() {
    let s = setup(Budget {
        max_commands: 64,
        ..Budget::default()
    });
    write_batch(&s, &[0; 1024]); // MI_NOOPs to the end of the page
    let objs = [(s.batch, BATCH_VA, false)];
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    assert_eq!(s.d.reset_stats(s.ctx).unwrap().batch_active, 1);
}

#[test]
fn closing_an_object_unmaps_it_from_the_gpu() {
    let s = setup(Budget::default());
    write_batch(&s, &stores(DATA_VA));
    let objs = [(s.data, DATA_VA, true), (s.batch, BATCH_VA, false)];
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    s.d.close_bo(s.data).unwrap();
    // The batch alone now stores into a page no longer mapped: a fault.
    s.d.exec(s.ctx, &[(s.batch, BATCH_VA, false)], s.batch, 0)
        .unwrap();
    assert_eq!(s.d.reset_stats(s.ctx).unwrap().batch_active, 1);
}
