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
    s.d.wait(s.batch, -1).unwrap();
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
    s.d.wait(s.batch, -1).unwrap();
    let r = s.d.reset_stats(s.ctx).unwrap();
    assert_eq!(r.batch_active, 1);
    assert!(r.reset_count >= 1);
    assert_eq!(errno(s.d.exec(s.ctx, &objs, s.batch, 0)), Errno::EIO);
    // Another context of the same device is unaffected.
    let vm = s.d.create_vm().unwrap();
    let ctx2 = s.d.create_context(vm).unwrap();
    write_batch(&s, &stores(DATA_VA));
    s.d.exec(ctx2, &objs, s.batch, 0).unwrap();
    s.d.wait(s.batch, -1).unwrap();
    assert_eq!(s.d.reset_stats(ctx2).unwrap().batch_active, 0);
}

/// `setup`, with a handle on the emulated device itself for the tests' hooks.
fn setup_with_device() -> (std::sync::Arc<EmulatedI915>, Setup) {
    let emu = std::sync::Arc::new(EmulatedI915::with_budget(Budget::default()));
    let d = Device::new(Box::new(EmulatedI915Handle(emu.clone())));
    let vm = d.create_vm().unwrap();
    let ctx = d.create_context(vm).unwrap();
    let s = Setup {
        batch: d.create_bo(4096).unwrap(),
        data: d.create_bo(8192).unwrap(),
        d,
        ctx,
    };
    (emu, s)
}

#[test]
fn a_panic_of_the_model_ends_the_batch_as_an_error_and_the_engine_runs_on() {
    let (emu, s) = setup_with_device();
    write_batch(&s, &stores(DATA_VA));
    let objs = [(s.data, DATA_VA, true), (s.batch, BATCH_VA, false)];
    emu.panic_on_next_batch();
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    // Without the engine's catch this wait never returns: the engine thread is gone.
    s.d.wait(s.batch, -1).unwrap();
    let (banned, e) = emu.last_error().expect("the panic is the batch's error");
    assert_eq!(banned, s.ctx);
    assert_eq!(e, GpuError::Model("a panic injected by a test".into()));
    assert_eq!(s.d.reset_stats(s.ctx).unwrap().batch_active, 1);
    // The engine runs the next context's batches.
    let ctx2 = s.d.create_context(s.d.create_vm().unwrap()).unwrap();
    s.d.exec(ctx2, &objs, s.batch, 0).unwrap();
    s.d.wait(s.batch, -1).unwrap();
    let m = s.d.map_bo(s.data, 8192).unwrap();
    assert_eq!(&m[0..4], &0xcafe_f00du32.to_le_bytes());
}

/// A wait without a timeout runs the batch itself when the engine is idle (`help`): with the
/// engine thread taking nothing, the wait returns and the batch's stores are there. A timed
/// wait only sleeps (a batch may run longer than its time), and times out here.
#[test]
fn an_untimed_wait_runs_the_batch_when_the_engine_is_idle() {
    let (emu, s) = setup_with_device();
    write_batch(&s, &stores(DATA_VA));
    let objs = [(s.data, DATA_VA, true), (s.batch, BATCH_VA, false)];
    emu.pause_engine(true);
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    assert!(
        !s.d.wait(s.batch, 2_000_000).unwrap(),
        "a timed wait only sleeps"
    );
    assert_ne!(busy(&s.d, s.batch), 0, "still queued");
    // Without the help this wait never returns: fail instead of hanging.
    let s = std::sync::Arc::new(s);
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = s.clone();
    std::thread::spawn(move || tx.send(waiter.d.wait(waiter.batch, -1).unwrap()));
    let waited = rx.recv_timeout(std::time::Duration::from_secs(20));
    assert_eq!(waited, Ok(true), "the untimed wait did not run the batch");
    let m = s.d.map_bo(s.data, 8192).unwrap();
    assert_eq!(&m[0..4], &0xcafe_f00du32.to_le_bytes());
    assert_eq!(busy(&s.d, s.batch), 0);
    // The engine thread takes the next ones again.
    emu.pause_engine(false);
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    assert!(s.d.wait(s.batch, 5_000_000_000).unwrap());
}

/// A batch queued for a thread that waits for it next wakes no engine thread: the waiter
/// runs it (20 of 20 here, where with the engine thread woken it takes some). One whose
/// submitter breaks the promise runs with the next batch submitted as usual.
#[test]
fn a_batch_queued_for_its_waiter_runs_on_the_waiter_or_soon_without_it() {
    let (emu, s) = setup_with_device();
    write_batch(&s, &stores(DATA_VA));
    let objs = [(s.data, DATA_VA, true), (s.batch, BATCH_VA, false)];
    // The engine thread at its first look (it may not have looked yet) and then asleep.
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    assert!(s.d.wait(s.batch, 5_000_000_000).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(5));
    let before = emu.shared.engine_ran.load(Ordering::SeqCst);
    for _ in 0..20 {
        s.d.exec_then_wait(s.ctx, &objs, s.batch, 0).unwrap();
        // The engine thread, had it been woken, would take the batch meanwhile.
        std::thread::sleep(std::time::Duration::from_micros(200));
        assert!(s.d.wait(s.batch, -1).unwrap());
    }
    assert_eq!(
        emu.shared.engine_ran.load(Ordering::SeqCst),
        before,
        "the engine thread ran none of them"
    );
    // Its submitter does not wait: the next submission wakes the engine, which runs both.
    {
        let mut m = s.d.map_bo(s.data, 8192).unwrap();
        m[0..4].copy_from_slice(&[0; 4]);
    }
    s.d.exec_then_wait(s.ctx, &objs, s.batch, 0).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_ne!(
        busy(&s.d, s.batch),
        0,
        "not run yet: nothing woke the engine"
    );
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    let t0 = std::time::Instant::now();
    while busy(&s.d, s.batch) != 0 {
        assert!(t0.elapsed().as_secs() < 20, "the engine never ran them");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let m = s.d.map_bo(s.data, 8192).unwrap();
    assert_eq!(&m[0..4], &0xcafe_f00du32.to_le_bytes());
    assert_eq!(emu.shared.engine_ran.load(Ordering::SeqCst), before + 2);
}

/// Batches queued for their waiters, with no engine thread to fall back on (paused): two
/// threads wait for two such batches at once, again and again. The waiter of the second
/// finds the first running on the other thread and sleeps; it must be woken when the
/// engine turns idle, to run its own. (Before the engine's idle state was kept under the
/// lock a waiter sleeps under, it could look at the busy engine, then sleep past the
/// moment it went idle: 20,000 rounds hung within a few thousand here.)
#[test]
fn two_waiters_of_batches_left_to_them_never_sleep_past_an_idle_engine() {
    let (emu, s) = setup_with_device();
    write_batch(&s, &stores(DATA_VA));
    const TAG_VA: u64 = 0x20_0000;
    let tags = [s.d.create_bo(4096).unwrap(), s.d.create_bo(4096).unwrap()];
    emu.pause_engine(true);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for round in 0..20_000u32 {
            for t in tags {
                let objs = [
                    (s.data, DATA_VA, true),
                    (s.batch, BATCH_VA, false),
                    (t, TAG_VA, false),
                ];
                s.d.exec_then_wait(s.ctx, &objs, s.batch, 0).unwrap();
            }
            std::thread::scope(|sc| {
                for t in tags {
                    let d = &s.d;
                    sc.spawn(move || assert!(d.wait(t, -1).unwrap()));
                }
            });
            let _ = tx.send(round);
        }
    });
    let mut last = None;
    while last != Some(19_999) {
        match rx.recv_timeout(std::time::Duration::from_secs(30)) {
            Ok(r) => last = Some(r),
            Err(e) => {
                panic!("a waiter slept past the engine's idle time after round {last:?}: {e}")
            }
        }
    }
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
    s.d.wait(s.batch, -1).unwrap();
    assert_eq!(s.d.reset_stats(s.ctx).unwrap().batch_active, 1);
}

#[test]
fn closing_an_object_unmaps_it_from_the_gpu() {
    let s = setup(Budget::default());
    write_batch(&s, &stores(DATA_VA));
    let objs = [(s.data, DATA_VA, true), (s.batch, BATCH_VA, false)];
    s.d.exec(s.ctx, &objs, s.batch, 0).unwrap();
    s.d.wait(s.batch, -1).unwrap();
    s.d.close_bo(s.data).unwrap();
    // The batch alone now stores into a page no longer mapped: a fault.
    s.d.exec(s.ctx, &[(s.batch, BATCH_VA, false)], s.batch, 0)
        .unwrap();
    s.d.wait(s.batch, -1).unwrap();
    assert_eq!(s.d.reset_stats(s.ctx).unwrap().batch_active, 1);
}

/// Assembles Gen9 code with Intel's iga64 (the reference assembler).
fn iga64(asm: &str) -> Vec<u8> {
    // One file pair per call: tests assemble in parallel.
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gencl-kmd-iga-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, out) = (dir.join(format!("k{n}.asm")), dir.join(format!("k{n}.bin")));
    std::fs::write(&src, asm).unwrap();
    let st = std::process::Command::new("iga64")
        .args(["-a", "-p=9"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("running iga64 failed: install libigc-tools (Intel's Gen assembler)");
    assert!(st.success(), "iga64 rejected:\n{asm}");
    std::fs::read(&out).unwrap()
}

const STATE_VA: u64 = 0x2_0000_0000;
const KERNEL_VA: u64 = 0x3_0000_0000;

/// A whole GPGPU launch through execbuffer2: 3 groups of 2 SIMD8 threads, waited for.
fn launch_kernel(asm: &str, budget: Budget) -> (Device, u32, EmulatedI915Handle) {
    let (d, ctx, emu, batch) = launch_kernel_nowait(asm, budget);
    d.wait(batch, -1).unwrap();
    (d, ctx, emu)
}

/// The launch, returning once EXECBUFFER2 queued it (with the batch's handle).
fn launch_kernel_nowait(asm: &str, budget: Budget) -> (Device, u32, EmulatedI915Handle, u32) {
    let emu = std::sync::Arc::new(EmulatedI915::with_budget(budget));
    let d = Device::new(Box::new(EmulatedI915Handle(emu.clone())));
    let vm = d.create_vm().unwrap();
    let ctx = d.create_context(vm).unwrap();
    let (batch, state, kernel) = (
        d.create_bo(4096).unwrap(),
        d.create_bo(4096).unwrap(),
        d.create_bo(4096).unwrap(),
    );
    let code = iga64(asm);
    d.map_bo(kernel, 4096).unwrap()[..code.len()].copy_from_slice(&code);
    let mut st = d.map_bo(state, 4096).unwrap();
    let idd = InterfaceDescriptorData {
        kernel_start_pointer: 0,
        number_of_threads_in_gpgpu_thread_group: 2,
        cross_thread_constant_data_read_length: 1,
        ..Default::default()
    };
    for (i, w) in idd.pack().iter().enumerate() {
        st[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    drop(st);
    let l = crate::genx::launch::Launch {
        bases: crate::genx::launch::StateBases {
            general: STATE_VA,
            surface: STATE_VA,
            dynamic: STATE_VA,
            instruction: KERNEL_VA,
            ..Default::default()
        },
        vfe: MediaVfeState {
            maximum_number_of_threads: 55,
            curbe_allocation_size: 1,
            ..Default::default()
        },
        walks: vec![crate::genx::launch::Walk {
            curbe_offset: 0x100,
            curbe_length: 32,
            idd_offset: 0,
            idd_length: 32,
            walker: GpgpuWalker {
                simd_size: SIMD8,
                thread_width_counter_maximum: 1,
                thread_group_id_x_dimension: 3,
                thread_group_id_y_dimension: 1,
                thread_group_id_z_dimension: 1,
                right_execution_mask: 0xff,
                bottom_execution_mask: 0xffff_ffff,
                ..Default::default()
            },
        }],
        post_sync: Some(crate::genx::launch::PostSync {
            address: STATE_VA + 0x800,
            operation: POST_SYNC_WRITE_IMMEDIATE,
            immediate: 0x600d,
        }),
        slm: false,
        start_timestamp: None,
    };
    let s = Setup {
        d,
        ctx,
        batch,
        data: state,
    };
    write_batch(&s, &l.batch());
    let objs = [
        (state, STATE_VA, true),
        (kernel, KERNEL_VA, false),
        (batch, BATCH_VA, false),
    ];
    s.d.exec(ctx, &objs, batch, 0).unwrap();
    (s.d, ctx, EmulatedI915Handle(emu), batch)
}

/// Shares one emulated device between the Device under test and the test's
/// view of its counters.
struct EmulatedI915Handle(std::sync::Arc<EmulatedI915>);
impl I915 for EmulatedI915Handle {
    fn getparam(&self, p: &mut drm_i915_getparam) -> Result<(), KmdError> {
        self.0.getparam(p)
    }
    fn query(&self, q: &mut drm_i915_query) -> Result<(), KmdError> {
        self.0.query(q)
    }
    fn gem_create(&self, c: &mut drm_i915_gem_create) -> Result<(), KmdError> {
        self.0.gem_create(c)
    }
    fn gem_close(&self, c: &drm_gem_close) -> Result<(), KmdError> {
        self.0.gem_close(c)
    }
    fn gem_mmap_offset(&self, m: &mut drm_i915_gem_mmap_offset) -> Result<(), KmdError> {
        self.0.gem_mmap_offset(m)
    }
    fn mmap(&self, offset: u64, size: usize) -> Result<memmap2::MmapMut, KmdError> {
        self.0.mmap(offset, size)
    }
    fn prime_handle_to_fd(&self, p: &mut drm_prime_handle) -> Result<(), KmdError> {
        self.0.prime_handle_to_fd(p)
    }
    fn vm_create(&self, v: &mut drm_i915_gem_vm_control) -> Result<(), KmdError> {
        self.0.vm_create(v)
    }
    fn vm_destroy(&self, v: &drm_i915_gem_vm_control) -> Result<(), KmdError> {
        self.0.vm_destroy(v)
    }
    fn context_create_ext(&self, c: &mut drm_i915_gem_context_create_ext) -> Result<(), KmdError> {
        self.0.context_create_ext(c)
    }
    fn context_destroy(&self, c: &drm_i915_gem_context_destroy) -> Result<(), KmdError> {
        self.0.context_destroy(c)
    }
    fn execbuffer2(&self, e: &mut drm_i915_gem_execbuffer2) -> Result<(), KmdError> {
        self.0.execbuffer2(e)
    }
    fn execbuffer2_then_wait(&self, e: &mut drm_i915_gem_execbuffer2) -> Result<(), KmdError> {
        self.0.execbuffer2_then_wait(e)
    }
    fn gem_wait(&self, w: &mut drm_i915_gem_wait) -> Result<(), KmdError> {
        self.0.gem_wait(w)
    }
    fn gem_busy(&self, b: &mut drm_i915_gem_busy) -> Result<(), KmdError> {
        self.0.gem_busy(b)
    }
    fn get_reset_stats(&self, r: &mut drm_i915_reset_stats) -> Result<(), KmdError> {
        self.0.get_reset_stats(r)
    }
    fn syncobj_create(&self, c: &mut drm_syncobj_create) -> Result<(), KmdError> {
        self.0.syncobj_create(c)
    }
    fn syncobj_destroy(&self, d: &drm_syncobj_destroy) -> Result<(), KmdError> {
        self.0.syncobj_destroy(d)
    }
    fn syncobj_wait(&self, w: &mut drm_syncobj_wait) -> Result<(), KmdError> {
        self.0.syncobj_wait(w)
    }
    fn syncobj_reset(&self, a: &drm_syncobj_array) -> Result<(), KmdError> {
        self.0.syncobj_reset(a)
    }
    fn syncobj_signal(&self, a: &drm_syncobj_array) -> Result<(), KmdError> {
        self.0.syncobj_signal(a)
    }
    fn describe(&self) -> String {
        self.0.describe()
    }
}

#[test]
fn a_kernel_runs_on_the_eus_through_execbuffer2() {
    let asm = "mov (8|M0) r127.0<1>:ud r0.0<8;8,1>:ud\n\
               send (8|M0) null:ud r127:ud 0x27 0x02000010 {EOT}\n";
    let (d, ctx, emu) = launch_kernel(asm, Budget::default());
    assert_eq!(emu.0.last_error(), None);
    assert_eq!(d.reset_stats(ctx).unwrap().batch_active, 0, "no GPU error");
    let c = emu.0.counters();
    assert_eq!(c.threads, 6, "3 groups x 2 threads");
    assert_eq!(c.instructions, 12, "2 instructions per thread");
}

#[test]
fn an_endless_kernel_hangs_and_bans() {
    let budget = Budget {
        max_work: 10_000,
        ..Budget::default()
    };
    let (d, ctx, emu) = launch_kernel("L0:\n(W) jmpi (1|M0) L0\n", budget);
    assert_eq!(emu.0.last_error().map(|e| e.1), Some(GpuError::Hang));
    let r = d.reset_stats(ctx).unwrap();
    assert_eq!(r.batch_active, 1);
    assert!(r.reset_count >= 1);
}

#[test]
fn an_endless_kernel_is_stopped_when_another_context_waits_and_that_one_goes_on() {
    use std::time::{Duration, Instant};
    // No ceiling by time: only starving another context stops a batch (gpu::watchdog).
    let budget = Budget {
        max_time: None,
        max_starved: Some(Duration::from_millis(400)),
        ..Budget::default()
    };
    let (d, ctx, emu, batch) = launch_kernel_nowait("L0:\n(W) jmpi (1|M0) L0\n", budget);
    // From EXECBUFFER2's return (the assembler's run before it left out: tests run in
    // parallel on a busy machine); the batch may have started a moment before.
    let t0 = Instant::now();
    // EXECBUFFER2 returned with the batch queued or running, not finished.
    assert!(!d.wait(batch, 0).unwrap(), "busy right after submission");
    assert!(
        !d.wait(batch, 50_000_000).unwrap(),
        "still busy after 50 ms (ETIME)"
    );
    // Alone on the engine, it runs past the starvation limit: a Gen9 would go on too.
    assert!(
        !d.wait(batch, 700_000_000).unwrap(),
        "alone, still running after {:?}",
        t0.elapsed()
    );

    // Another context, in its own VM, submits while the first one spins.
    let vm2 = d.create_vm().unwrap();
    let ctx2 = d.create_context(vm2).unwrap();
    let (batch2, data2) = (d.create_bo(4096).unwrap(), d.create_bo(4096).unwrap());
    {
        let mut m = d.map_bo(batch2, 4096).unwrap();
        for (i, w) in stores(DATA_VA).iter().enumerate() {
            m[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    let objs = [(data2, DATA_VA, true), (batch2, BATCH_VA, false)];
    d.exec(ctx2, &objs, batch2, 0).unwrap();
    let t1 = Instant::now();

    // The hang is reported the limit after the other context began to wait (and a
    // margin), and only against its context.
    assert!(d.wait(batch, -1).unwrap());
    let hung_after = t1.elapsed();
    assert!(
        hung_after < Duration::from_millis(400) + Duration::from_secs(2),
        "{hung_after:?}"
    );
    assert!(
        hung_after + Duration::from_millis(100) >= Duration::from_millis(400),
        "{hung_after:?}"
    );
    assert_eq!(emu.0.last_error().map(|e| e.1), Some(GpuError::Hang));
    assert_eq!(d.reset_stats(ctx).unwrap().batch_active, 1);

    // The other context's batch then ran, exactly.
    assert!(d.wait(batch2, -1).unwrap());
    assert_eq!(d.reset_stats(ctx2).unwrap().batch_active, 0);
    let m = d.map_bo(data2, 4096).unwrap();
    assert_eq!(&m[0..4], &0xcafe_f00du32.to_le_bytes());
    assert_eq!(&m[8..16], &0x1122_3344_5566_7788u64.to_le_bytes());
}

fn busy(d: &Device, handle: u32) -> u32 {
    let mut b = drm_i915_gem_busy {
        handle,
        ..Default::default()
    };
    d.kmd.gem_busy(&mut b).unwrap();
    b.busy
}

fn readable(fd: i32, timeout_ms: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd for an fd the test owns.
    unsafe { libc::poll(&mut p, 1, timeout_ms) == 1 }
}

#[test]
fn fences_and_busy_follow_the_batch() {
    use std::time::Duration;
    // A batch held back by an in-fence the test signals: busy (read and written) until
    // then, its out-fence unsignalled; after, both idle and signalled, the stores done.
    let s = setup(Budget::default());
    write_batch(&s, &stores(DATA_VA));
    // SAFETY: a plain system call; the test closes the fd.
    let gate = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) };
    assert!(gate >= 0);
    let mut objs = [obj(s.data, DATA_VA), obj(s.batch, canonical(BATCH_VA))];
    objs[0].flags |= EXEC_OBJECT_WRITE;
    let mut e = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_mut_ptr() as u64,
        buffer_count: 2,
        flags: I915_EXEC_FENCE_IN | I915_EXEC_FENCE_OUT,
        rsvd2: gate as u64,
        ..Default::default()
    };
    execbuffer2_set_context_id(&mut e, s.ctx);
    s.d.kmd.execbuffer2(&mut e).unwrap();
    let out = (e.rsvd2 >> 32) as i32;
    assert!(out > 0, "an out-fence fd in rsvd2's high word");
    assert_eq!(
        e.rsvd2 as u32 as i32, gate,
        "the in-fence fd left in the low word"
    );
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        busy(&s.d, s.data),
        (1 << 16) | 1,
        "read and written by the render engine"
    );
    assert_eq!(busy(&s.d, s.batch), 1 << 16, "read only");
    assert!(
        !readable(out, 0),
        "out-fence unsignalled while the batch waits"
    );
    assert!(!s.d.wait(s.data, 0).unwrap());
    let one = 1u64;
    // SAFETY: an eventfd write of 8 bytes.
    assert_eq!(
        unsafe { libc::write(gate, (&one as *const u64).cast(), 8) },
        8
    );
    assert!(
        readable(out, 5000),
        "out-fence signalled once the batch ran"
    );
    assert!(s.d.wait(s.data, -1).unwrap());
    assert_eq!(busy(&s.d, s.data), 0);
    let m = s.d.map_bo(s.data, 4096).unwrap();
    assert_eq!(&m[0..4], &0xcafe_f00du32.to_le_bytes());
    // SAFETY: fds the test owns.
    unsafe {
        libc::close(gate);
        libc::close(out);
    }
    // An in-fence that is no fd: EINVAL, as i915's sync_file_get_fence.
    let mut e = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_mut_ptr() as u64,
        buffer_count: 2,
        flags: I915_EXEC_FENCE_IN,
        rsvd2: 999_999,
        ..Default::default()
    };
    execbuffer2_set_context_id(&mut e, s.ctx);
    assert_eq!(errno(s.d.kmd.execbuffer2(&mut e)), Errno::EINVAL);
    assert_eq!(
        errno(s.d.kmd.gem_busy(&mut drm_i915_gem_busy {
            handle: 777,
            busy: 0
        })),
        Errno::ENOENT
    );
}

fn syncobj(d: &Device, flags: u32) -> u32 {
    let mut c = drm_syncobj_create { handle: 0, flags };
    d.kmd.syncobj_create(&mut c).unwrap();
    assert_ne!(c.handle, 0);
    c.handle
}

/// SYNCOBJ_WAIT on `handles` until `timeout` from now (an absolute CLOCK_MONOTONIC time in
/// the ioctl, as the kernel reads it); the first signalled index without WAIT_ALL.
fn syncobj_wait(d: &Device, handles: &[u32], flags: u32, timeout: i64) -> Result<u32, KmdError> {
    let now = nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC).unwrap();
    let mut w = drm_syncobj_wait {
        handles: handles.as_ptr() as u64,
        timeout_nsec: (now.tv_sec() * 1_000_000_000 + now.tv_nsec()).saturating_add(timeout),
        count_handles: handles.len() as u32,
        flags,
        ..Default::default()
    };
    d.kmd.syncobj_wait(&mut w).map(|()| w.first_signaled)
}

#[test]
fn sync_objects_follow_the_batches_that_signal_them() {
    use std::time::{Duration, Instant};
    // A batch held back by an in-fence signals a sync object through the fence array: the
    // object waits (ETIME) until the batch ran, then waits no more. A batch may wait on a
    // sync object the one before it signals.
    let s = setup(Budget::default());
    write_batch(&s, &stores(DATA_VA));
    let mut p = drm_i915_getparam {
        param: I915_PARAM_HAS_EXEC_FENCE_ARRAY,
        value: &mut 0,
    };
    s.d.kmd.getparam(&mut p).unwrap();
    // SAFETY: getparam wrote the int `value` points at.
    assert_eq!(unsafe { *p.value }, 1);
    let done = syncobj(&s.d, 0);
    let ready = syncobj(&s.d, DRM_SYNCOBJ_CREATE_SIGNALED);
    // A sync object with no fence: EINVAL, unless waiting for submission.
    assert_eq!(errno(syncobj_wait(&s.d, &[done], 0, 0)), Errno::EINVAL);
    assert_eq!(
        errno(syncobj_wait(
            &s.d,
            &[done],
            DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
            1_000_000
        )),
        Errno::ETIME
    );
    assert_eq!(
        syncobj_wait(
            &s.d,
            &[done, ready],
            DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
            0
        )
        .unwrap(),
        1,
        "the signalled one; without WAIT_FOR_SUBMIT, `done` having no fence is EINVAL"
    );
    assert_eq!(
        errno(syncobj_wait(&s.d, &[done, ready], 0, 0)),
        Errno::EINVAL
    );
    // SAFETY: a plain system call; the test closes the fd.
    let gate = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC) };
    let mut objs = [obj(s.data, DATA_VA), obj(s.batch, canonical(BATCH_VA))];
    let fences = [
        drm_i915_gem_exec_fence {
            handle: ready,
            flags: I915_EXEC_FENCE_WAIT,
        },
        drm_i915_gem_exec_fence {
            handle: done,
            flags: I915_EXEC_FENCE_SIGNAL,
        },
    ];
    let mut e = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_mut_ptr() as u64,
        buffer_count: 2,
        flags: I915_EXEC_FENCE_IN | I915_EXEC_FENCE_ARRAY,
        rsvd2: gate as u64,
        cliprects_ptr: fences.as_ptr() as u64,
        num_cliprects: 2,
        ..Default::default()
    };
    execbuffer2_set_context_id(&mut e, s.ctx);
    s.d.kmd.execbuffer2(&mut e).unwrap();
    let t = Instant::now();
    assert_eq!(
        errno(syncobj_wait(
            &s.d,
            &[done],
            DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
            50_000_000
        )),
        Errno::ETIME,
        "the batch has not run"
    );
    assert!(
        t.elapsed() >= Duration::from_millis(45),
        "{:?}",
        t.elapsed()
    );
    // Without WAIT_ALL, the signalled one of the two is enough.
    assert_eq!(syncobj_wait(&s.d, &[done, ready], 0, 0).unwrap(), 1);
    assert_eq!(
        errno(syncobj_wait(
            &s.d,
            &[done, ready],
            DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
            0
        )),
        Errno::ETIME
    );
    // A second batch waits for `done` and signals `ready` anew.
    s.d.kmd
        .syncobj_reset(&drm_syncobj_array {
            handles: [ready].as_ptr() as u64,
            count_handles: 1,
            pad: 0,
        })
        .unwrap();
    let second = [
        drm_i915_gem_exec_fence {
            handle: done,
            flags: I915_EXEC_FENCE_WAIT,
        },
        drm_i915_gem_exec_fence {
            handle: ready,
            flags: I915_EXEC_FENCE_SIGNAL,
        },
    ];
    let mut e2 = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_mut_ptr() as u64,
        buffer_count: 2,
        flags: I915_EXEC_FENCE_ARRAY,
        cliprects_ptr: second.as_ptr() as u64,
        num_cliprects: 2,
        ..Default::default()
    };
    execbuffer2_set_context_id(&mut e2, s.ctx);
    s.d.kmd.execbuffer2(&mut e2).unwrap();
    let one = 1u64;
    // SAFETY: an eventfd write of 8 bytes.
    assert_eq!(
        unsafe { libc::write(gate, (&one as *const u64).cast(), 8) },
        8
    );
    syncobj_wait(
        &s.d,
        &[done, ready],
        DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
        5_000_000_000,
    )
    .expect("both batches ran");
    let m = s.d.map_bo(s.data, 4096).unwrap();
    assert_eq!(&m[0..4], &0xcafe_f00du32.to_le_bytes());
    // SAFETY: the fd the test owns.
    unsafe { libc::close(gate) };
    // SYNCOBJ_SIGNAL gives a fence that is signalled; RESET takes it away.
    let arr = |h: &[u32]| drm_syncobj_array {
        handles: h.as_ptr() as u64,
        count_handles: h.len() as u32,
        pad: 0,
    };
    let fresh = syncobj(&s.d, 0);
    s.d.kmd.syncobj_signal(&arr(&[fresh])).unwrap();
    syncobj_wait(&s.d, &[fresh], 0, 0).unwrap();
    s.d.kmd.syncobj_reset(&arr(&[fresh])).unwrap();
    assert_eq!(errno(syncobj_wait(&s.d, &[fresh], 0, 0)), Errno::EINVAL);
    // Errors as the kernel's: unknown handles, flags, empty arrays, a wait on no fence.
    assert_eq!(
        errno(s.d.kmd.syncobj_signal(&arr(&[fresh, 4242]))),
        Errno::ENOENT
    );
    assert_eq!(errno(s.d.kmd.syncobj_reset(&arr(&[]))), Errno::EINVAL);
    assert_eq!(errno(syncobj_wait(&s.d, &[4242], 0, 0)), Errno::ENOENT);
    assert_eq!(
        errno(syncobj_wait(&s.d, &[fresh], 1 << 7, 0)),
        Errno::EINVAL
    );
    assert_eq!(
        errno(s.d.kmd.syncobj_create(&mut drm_syncobj_create {
            handle: 0,
            flags: 2
        })),
        Errno::EINVAL
    );
    let bad = [drm_i915_gem_exec_fence {
        handle: fresh,
        flags: I915_EXEC_FENCE_WAIT,
    }];
    let mut e3 = drm_i915_gem_execbuffer2 {
        buffers_ptr: objs.as_mut_ptr() as u64,
        buffer_count: 2,
        flags: I915_EXEC_FENCE_ARRAY,
        cliprects_ptr: bad.as_ptr() as u64,
        num_cliprects: 1,
        ..Default::default()
    };
    execbuffer2_set_context_id(&mut e3, s.ctx);
    assert_eq!(
        errno(s.d.kmd.execbuffer2(&mut e3)),
        Errno::EINVAL,
        "no fence to wait for"
    );
    let unknown = [drm_i915_gem_exec_fence {
        handle: 4242,
        flags: I915_EXEC_FENCE_SIGNAL,
    }];
    e3.cliprects_ptr = unknown.as_ptr() as u64;
    assert_eq!(errno(s.d.kmd.execbuffer2(&mut e3)), Errno::ENOENT);
    let odd = [drm_i915_gem_exec_fence {
        handle: fresh,
        flags: 1 << 5,
    }];
    e3.cliprects_ptr = odd.as_ptr() as u64;
    assert_eq!(errno(s.d.kmd.execbuffer2(&mut e3)), Errno::EINVAL);
    e3.flags = 0;
    assert_eq!(
        errno(s.d.kmd.execbuffer2(&mut e3)),
        Errno::EINVAL,
        "cliprects without FENCE_ARRAY"
    );
    s.d.kmd
        .syncobj_destroy(&drm_syncobj_destroy {
            handle: fresh,
            pad: 0,
        })
        .unwrap();
    assert_eq!(
        errno(s.d.kmd.syncobj_destroy(&drm_syncobj_destroy {
            handle: fresh,
            pad: 0
        })),
        Errno::EINVAL
    );
}

#[test]
fn binding_new_objects_does_not_wait_for_a_batch_running_in_the_vm() {
    use std::time::{Duration, Instant};
    // An endless kernel runs (stopped by time, 3 s); execbuffer2 of the next batch of the
    // same VM binds an object the first never saw, and returns at once (a Gen9 with i915
    // binds while the GPU runs); the batch runs after the first, on its objects.
    let budget = Budget {
        max_time: Some(Duration::from_secs(3)),
        ..Budget::default()
    };
    let (d, ctx, emu, batch) = launch_kernel_nowait("L0:\n(W) jmpi (1|M0) L0\n", budget);
    std::thread::sleep(Duration::from_millis(50));
    assert!(!d.wait(batch, 0).unwrap(), "the endless kernel runs");
    let (next, data) = (d.create_bo(4096).unwrap(), d.create_bo(8192).unwrap());
    let s = Setup {
        d,
        ctx,
        batch: next,
        data,
    };
    write_batch(&s, &stores(DATA_VA));
    let t = Instant::now();
    s.d.exec(
        ctx,
        &[(data, DATA_VA, true), (next, BATCH_VA + 0x10_0000, false)],
        next,
        0,
    )
    .unwrap();
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "execbuffer2 waited {:?} for the running batch",
        t.elapsed()
    );
    assert!(!s.d.wait(data, 0).unwrap(), "queued behind the endless one");
    // The endless batch is stopped; the context is banned and what it had queued dropped.
    s.d.wait(data, -1).unwrap();
    assert_eq!(emu.0.last_error().map(|e| e.1), Some(GpuError::Hang));
    let r = s.d.reset_stats(ctx).unwrap();
    assert_eq!((r.batch_active, r.batch_pending), (1, 1));
}

/// A VM with two objects bound back to back: three pages at `va`, two at `vb` after them,
/// nothing past them.
fn two_objects() -> ([Arc<GemObject>; 2], Vm, u64, u64) {
    let (a, b) = (
        Arc::new(GemObject::new(3 * PAGE).unwrap()),
        Arc::new(GemObject::new(2 * PAGE).unwrap()),
    );
    let (va, vb) = (0x10_0000u64, 0x10_0000 + 3 * PAGE);
    let vm = Vm::default();
    {
        let mut m = vm.lock_mut();
        m.bind(1, &a, va);
        m.bind(2, &b, vb);
    }
    ([a, b], vm, va, vb)
}

/// A xorshift64 generator from `seed`.
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// A message's lanes taken together (`read_each`/`write_each`: one lookup and lock per page
/// and object) give the bytes of one access at a time: lanes on one page, on the next page
/// of the object, in a second object, crossing a page (and an object), in random order and
/// sizes; and the first unmapped lane faults at its address after the lanes before it.
#[test]
fn lane_batches_match_one_access_at_a_time() {
    use crate::gpu::GpuMemory;
    let (_objects, vm, va, vb) = two_objects();
    let v = vm.view();
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let span = 5 * PAGE;
    for round in 0..400 {
        let size = [1usize, 2, 4, 8][(next() % 4) as usize];
        let n = 1 + (next() % 128) as usize;
        let addrs: Vec<u64> = (0..n)
            .map(|i| match next() % 4 {
                // consecutive lanes (the common case), near a page end, anywhere
                0 | 1 => va + (round as u64 * 64 + i as u64 * size as u64) % (span - 8),
                2 => va + (1 + next() % 4) * PAGE - 1 - next() % 8,
                _ => va + next() % (span - 8),
            })
            .collect();
        let data: Vec<u8> = (0..n * size).map(|_| next() as u8).collect();
        // Reference: one access at a time; then memory as it was, and the batch.
        let mut before = vec![0u8; span as usize];
        v.read(va, &mut before).unwrap();
        for (&ad, d) in addrs.iter().zip(data.chunks_exact(size)) {
            v.write(ad, d).unwrap();
        }
        let mut want = vec![0u8; span as usize];
        v.read(va, &mut want).unwrap();
        v.write(va, &before).unwrap();
        v.write_each(&addrs, size, &data).unwrap();
        let mut got = vec![0u8; span as usize];
        v.read(va, &mut got).unwrap();
        assert_eq!(
            got, want,
            "round {round}: write_each of {n} lanes of {size} bytes"
        );
        let mut lanes = vec![0u8; n * size];
        v.read_each(&addrs, size, &mut lanes).unwrap();
        let mut one = vec![0u8; n * size];
        for (&ad, o) in addrs.iter().zip(one.chunks_exact_mut(size)) {
            v.read(ad, o).unwrap();
        }
        assert_eq!(lanes, one, "round {round}: read_each");
    }
    // Past the second object nothing is mapped: lanes before the fault are written.
    let hole = vb + 2 * PAGE;
    v.write(va + 32, &[0; 4]).unwrap();
    let err = v
        .write_each(
            &[va + 16, hole + 4, va + 32],
            4,
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        )
        .unwrap_err();
    assert_eq!(err.addr, hole + 4);
    let mut w = [0u8; 4];
    v.read(va + 16, &mut w).unwrap();
    assert_eq!(w, [1, 2, 3, 4]);
    v.read(va + 32, &mut w).unwrap();
    assert_eq!(w, [0; 4]);
    let mut r = [0u8; 8];
    assert_eq!(v.read_each(&[va, hole], 4, &mut r).unwrap_err().addr, hole);
}

/// Strided lanes (`read_strided`/`write_strided`: one lookup when they share a page, one
/// copy when they are one run) give the bytes of one access at a time: runs and gaps, one
/// address for all, overlapping lanes (a later lane's write wins), lanes across a page and
/// an object boundary; and a fault is at the first unmapped page, after the lanes before it.
#[test]
fn strided_lanes_match_one_access_at_a_time() {
    use crate::gpu::GpuMemory;
    let (_objects, vm, va, vb) = two_objects();
    let v = vm.view();
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let span = 5 * PAGE;
    for round in 0..400 {
        let size = [4usize, 8, 12, 16][(next() % 4) as usize];
        let n = 1 + (next() % 16) as usize;
        let stride = match next() % 4 {
            0 => size as u64,
            1 => 0,
            2 => 4,
            _ => next() % 80,
        };
        let reach = (n as u64 - 1) * stride + size as u64;
        let start = match next() % 3 {
            // within a page, ending near a page's end, anywhere the lanes fit
            0 => va + next() % (PAGE - reach),
            1 => va + (1 + next() % 4) * PAGE - reach + next() % reach.min(64),
            _ => va + next() % (span - reach),
        }
        .min(va + span - reach);
        let data: Vec<u8> = (0..n * size).map(|_| next() as u8).collect();
        let mut before = vec![0u8; span as usize];
        v.read(va, &mut before).unwrap();
        for (i, d) in data.chunks_exact(size).enumerate() {
            v.write(start + i as u64 * stride, d).unwrap();
        }
        let mut want = vec![0u8; span as usize];
        v.read(va, &mut want).unwrap();
        v.write(va, &before).unwrap();
        v.write_strided(start, stride, size, &data).unwrap();
        let mut got = vec![0u8; span as usize];
        v.read(va, &mut got).unwrap();
        assert_eq!(
            got, want,
            "round {round}: write_strided of {n} lanes of {size} bytes, stride {stride}, at {start:#x}"
        );
        let mut lanes = vec![0u8; n * size];
        v.read_strided(start, stride, size, &mut lanes).unwrap();
        let mut one = vec![0u8; n * size];
        for (i, o) in one.chunks_exact_mut(size).enumerate() {
            v.read(start + i as u64 * stride, o).unwrap();
        }
        assert_eq!(lanes, one, "round {round}: read_strided");
    }
    // Past the second object nothing is mapped: the lanes before the fault are written.
    let hole = vb + 2 * PAGE;
    let first = hole - 8;
    v.write(first, &[0; 8]).unwrap();
    let err = v.write_strided(first, 8, 8, &[7; 24]).unwrap_err();
    assert_eq!(err.addr, hole);
    let mut w = [0u8; 8];
    v.read(first, &mut w).unwrap();
    assert_eq!(w, [7; 8]);
    let mut r = [0u8; 16];
    assert_eq!(v.read_strided(first, 8, 8, &mut r).unwrap_err().addr, hole);
}

/// An atomic message's lanes taken together (`update_each`: one page lookup per page they
/// share) leave memory and return old values as one read-modify-write at a time: lanes on one
/// word (a contended counter), on neighbouring words, on two objects, crossing a page, in
/// random order; an operation that sometimes writes nothing (a failed compare-exchange); and
/// the first unmapped lane faults at its address after the lanes before it are done.
#[test]
fn atomic_lanes_together_match_one_update_at_a_time() {
    use crate::gpu::GpuMemory;
    let (a, b) = (
        Arc::new(GemObject::new(2 * PAGE).unwrap()),
        Arc::new(GemObject::new(PAGE).unwrap()),
    );
    let (va, vb) = (0x20_0000u64, 0x20_0000 + 2 * PAGE);
    let vm = Vm::default();
    {
        let mut m = vm.lock_mut();
        m.bind(1, &a, va);
        m.bind(2, &b, vb);
    }
    let v = vm.view();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let span = 3 * PAGE;
    // The update: add the lane's number, but write nothing where the old value is odd.
    let op = |i: usize, old: u64| {
        old.is_multiple_of(2)
            .then(|| old.wrapping_add(i as u64 + 1))
    };
    for round in 0..300 {
        let size = [4usize, 8][(next() % 2) as usize];
        let n = 1 + (next() % 16) as usize;
        let word = va + (next() % (span / 8 - 1)) * 8;
        let addrs: Vec<u64> = (0..n)
            .map(|i| match next() % 4 {
                0 => word,
                1 => word + (i * size) as u64 % 64,
                2 => va + PAGE - 4 + (next() % 2) * PAGE,
                _ => va + (next() % (span / 4 - 2)) * 4,
            })
            .collect();
        let mut before = vec![0u8; span as usize];
        v.read(va, &mut before).unwrap();
        let mut want_old = Vec::new();
        for (i, &ad) in addrs.iter().enumerate() {
            let mut o = [0u8; 8];
            v.read(ad, &mut o[..size]).unwrap();
            let old = u64::from_le_bytes(o);
            want_old.push(old);
            if let Some(new) = op(i, old) {
                v.write(ad, &new.to_le_bytes()[..size]).unwrap();
            }
        }
        let mut want = vec![0u8; span as usize];
        v.read(va, &mut want).unwrap();
        v.write(va, &before).unwrap();
        let mut got_old = Vec::new();
        v.update_each(&addrs, size, &mut |i, old| {
            got_old.push(old);
            op(i, old)
        })
        .unwrap();
        let mut got = vec![0u8; span as usize];
        v.read(va, &mut got).unwrap();
        assert_eq!(got_old, want_old, "round {round}: old values");
        assert_eq!(
            got, want,
            "round {round}: memory after {n} lanes of {size} bytes"
        );
    }
    let hole = vb + PAGE;
    v.write(va + 32, &[0; 8]).unwrap();
    let mut seen = 0;
    let err = v
        .update_each(&[va + 32, hole, va + 32], 4, &mut |_, old| {
            seen += 1;
            Some(old + 5)
        })
        .unwrap_err();
    assert_eq!((err.addr, seen), (hole, 1));
    let mut w = [0u8; 4];
    v.read(va + 32, &mut w).unwrap();
    assert_eq!(u32::from_le_bytes(w), 5);
}
