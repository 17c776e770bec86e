//! Command streamer tests on hand-built batches (built with the genx packers;
//! tests/genxml.rs decodes the same batch with genxml).

use super::*;
use crate::genx::launch::{Launch, PostSync, StateBases, Walk};
use crate::gpu::{BufferSurface, MemFault};

/// A sparse GPU address space: mapped pages read/write, others fault.
#[derive(Default)]
struct TestMem {
    pages: parking_lot::Mutex<HashMap<u64, Vec<u8>>>,
}

impl TestMem {
    fn map(&self, addr: u64, len: u64) {
        let mut p = self.pages.lock();
        for page in (addr >> 12)..=((addr + len - 1) >> 12) {
            p.entry(page).or_insert_with(|| vec![0xee; 4096]);
        }
    }
    fn put(&self, addr: u64, bytes: &[u8]) {
        self.map(addr, bytes.len() as u64);
        self.write(addr, bytes).unwrap();
    }
    fn put_dw(&self, addr: u64, dw: &[u32]) {
        let b: Vec<u8> = dw.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.put(addr, &b);
    }
    fn get_u64(&self, addr: u64) -> u64 {
        let mut b = [0u8; 8];
        self.read(addr, &mut b).unwrap();
        u64::from_le_bytes(b)
    }
}

impl GpuMemory for TestMem {
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let p = self.pages.lock();
        for (i, o) in out.iter_mut().enumerate() {
            let a = addr + i as u64;
            let page = p.get(&(a >> 12)).ok_or(MemFault {
                addr: a,
                kind: "read",
            })?;
            *o = page[(a & 0xfff) as usize];
        }
        Ok(())
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let mut p = self.pages.lock();
        for (i, d) in data.iter().enumerate() {
            let a = addr + i as u64;
            let page = p.get_mut(&(a >> 12)).ok_or(MemFault {
                addr: a,
                kind: "write",
            })?;
            page[(a & 0xfff) as usize] = *d;
        }
        Ok(())
    }
}

const GENERAL: u64 = 0x4_0000_0000;
const SURFACE: u64 = 0x3_0000_0000;
const DYNAMIC: u64 = 0x2_0000_0000;
const INSTR: u64 = 0x1_0000_0000;
const BATCH: u64 = 0x7_0000_0000;
const TS: u64 = 0x6_0000_0000;
const BUF: u64 = 0x5_0000_1000;

fn launch() -> Launch {
    Launch {
        bases: StateBases {
            general: GENERAL,
            surface: SURFACE,
            dynamic: DYNAMIC,
            instruction: INSTR,
            ..Default::default()
        },
        vfe: MediaVfeState {
            scratch_space_base_pointer: 0x400,
            per_thread_scratch_space: 1,
            maximum_number_of_threads: 55,
            number_of_urb_entries: 2,
            curbe_allocation_size: 16,
            urb_entry_allocation_size: 2,
            ..Default::default()
        },
        walks: vec![Walk {
            curbe_offset: 0x1000,
            curbe_length: 32 + 3 * 64,
            idd_offset: 0x100,
            idd_length: 32,
            walker: GpgpuWalker {
                simd_size: SIMD16,
                thread_width_counter_maximum: 2,
                thread_group_id_starting_x: 1,
                thread_group_id_x_dimension: 3,
                thread_group_id_y_dimension: 2,
                thread_group_id_z_dimension: 1,
                right_execution_mask: 0x00ff,
                bottom_execution_mask: 0xffff_ffff,
                ..Default::default()
            },
        }],
        post_sync: Some(post_sync(TS, POST_SYNC_WRITE_TIMESTAMP, 0)),
        slm: true,
        start_timestamp: None,
    }
}

fn post_sync(address: u64, operation: u8, immediate: u64) -> PostSync {
    PostSync {
        address,
        operation,
        immediate,
    }
}

/// Memory holding the launch's state: IDD, CURBE, binding table, surfaces.
fn setup(batch: &[u32]) -> TestMem {
    let m = TestMem::default();
    m.put_dw(
        DYNAMIC + 0x100,
        &InterfaceDescriptorData {
            kernel_start_pointer: 0x40,
            number_of_threads_in_gpgpu_thread_group: 3,
            // A prefetch count only: entries past it (index 40 below) still resolve.
            binding_table_entry_count: 1,
            binding_table_pointer: 0x40,
            sampler_state_pointer: 0x60,
            cross_thread_constant_data_read_length: 1,
            constant_urb_entry_read_length: 2,
            barrier_enable: true,
            shared_local_memory_size: 2,
            ..Default::default()
        }
        .pack(),
    );
    let mut curbe: Vec<u8> = (0..32).map(|i| 0xc0 + i as u8).collect();
    for t in 0..3u8 {
        curbe.extend((0..64).map(|i| t * 0x40 + i as u8));
    }
    m.put(DYNAMIC + 0x1000, &curbe);
    m.put_dw(
        SURFACE + 0x40,
        &[
            BindingTableState {
                surface_state_pointer: 0x100,
                ..Default::default()
            }
            .pack()[0],
            BindingTableState {
                surface_state_pointer: 0x140,
                ..Default::default()
            }
            .pack()[0],
        ],
    );
    m.put_dw(
        SURFACE + 0x40 + 4 * 40,
        &BindingTableState {
            surface_state_pointer: 0x180,
            ..Default::default()
        }
        .pack(),
    );
    m.put_dw(
        SURFACE + 0x180,
        &RenderSurfaceState::buffer(BUF + 0x1000, 64, 1, SURFACE_FORMAT_RAW, 0)
            .unwrap()
            .pack(),
    );
    m.put_dw(
        SURFACE + 0x100,
        &RenderSurfaceState::buffer(BUF, 1000, 1, SURFACE_FORMAT_RAW, 0)
            .unwrap()
            .pack(),
    );
    m.put_dw(
        SURFACE + 0x140,
        &RenderSurfaceState {
            surface_type: SURFTYPE_NULL,
            ..Default::default()
        }
        .pack(),
    );
    m.map(TS, 8);
    m.put_dw(BATCH, batch);
    m
}

fn run(m: &TestMem, budget: &Budget) -> (Result<(), GpuError>, Vec<ThreadGroup>) {
    let groups = parking_lot::Mutex::new(Vec::new());
    let mut counters = Counters::default();
    let r = execute_batch_with(
        m,
        BATCH,
        budget,
        &Engine::default(),
        &mut counters,
        &|_, tg, _, _, c| {
            c.instructions += 10;
            groups.lock().push(tg.clone());
            Ok(())
        },
    );
    let mut groups = groups.into_inner();
    // Host threads claim groups in walker order but may finish them in any order.
    groups.sort_by_key(|g| {
        let r0 = crate::gpu::dispatcher::R0::from_grf(&g.threads[0].grfs[0]);
        (r0.group[2], r0.group[1], r0.group[0])
    });
    (r, groups)
}

#[test]
fn walker_dispatches_groups_with_payload() {
    let m = setup(&launch().batch());
    // On one host thread every group takes the first hardware thread slots.
    let one = Budget {
        host_threads: 1,
        ..Budget::default()
    };
    let (r, groups) = run(&m, &one);
    r.unwrap();
    let ids: Vec<[u32; 3]> = groups
        .iter()
        .map(|g| R0::from_grf(&g.threads[0].grfs[0]).group)
        .collect();
    assert_eq!(ids, [[1, 0, 0], [2, 0, 0], [1, 1, 0], [2, 1, 0]]);
    for (seq, g) in groups.iter().enumerate() {
        assert_eq!(g.kernel_addr, INSTR + 0x40);
        assert_eq!(g.simd, 16);
        assert_eq!(g.slm_bytes, 2048);
        assert!(g.barrier_enabled);
        assert_eq!(g.scratch_base, GENERAL + 0x400);
        assert_eq!(g.scratch_per_thread, 2048);
        let at = |bti| g.bindings.surface(&m, bti, 0);
        let buf = |base, size| Ok(Some(BufferSurface { base, size }));
        assert_eq!(at(0), buf(BUF, 1000));
        assert_eq!(at(1), Ok(None), "a null surface");
        assert_eq!(at(40), buf(BUF + 0x1000, 64));
        assert!(at(245).is_err(), "reserved binding-table index");
        assert_eq!(g.threads.len(), 3);
        for (t, th) in g.threads.iter().enumerate() {
            let r0 = R0::from_grf(&th.grfs[0]);
            assert_eq!(r0.fftid, t as u32);
            assert_eq!(r0.barrier_id, seq as u32);
            assert_eq!(r0.binding_table_pointer, 0x40);
            assert_eq!(r0.sampler_state_pointer, 0x60);
            assert_eq!(r0.per_thread_scratch_space, 1);
            assert_eq!(r0.scratch_space_pointer, 0x400 + 2048 * t as u64);
            // r0.1 / r0.6 / r0.7 raw dwords carry the group id.
            let dw =
                |i: usize| u32::from_le_bytes(th.grfs[0][4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!([dw(1), dw(6), dw(7)], ids[seq]);
            assert_eq!(th.grfs.len(), 4, "r0 + 2 per-thread + 1 cross-thread");
            let own: Vec<u8> = (0..64).map(|i| t as u8 * 0x40 + i as u8).collect();
            assert_eq!(th.grfs[1][..], own[..32]);
            assert_eq!(th.grfs[2][..], own[32..]);
            let cross: Vec<u8> = (0..32).map(|i| 0xc0 + i as u8).collect();
            assert_eq!(th.grfs[3][..], cross[..]);
            assert_eq!(th.exec_mask, if t == 2 { 0x00ff } else { 0xffff });
        }
    }
    assert_ne!(m.get_u64(TS), 0xeeee_eeee_eeee_eeee, "timestamp written");
}

#[test]
fn groups_running_side_by_side_take_distinct_thread_slots() {
    // Four host threads: a group's threads take consecutive slots from a multiple of the
    // group's size (its host thread's), FFTID and scratch pointer agreeing, within the
    // hardware threads MEDIA_VFE_STATE provides.
    let m = setup(&launch().batch());
    let many = Budget {
        host_threads: 4,
        ..Budget::default()
    };
    let (r, groups) = run(&m, &many);
    r.unwrap();
    assert_eq!(groups.len(), 4);
    for g in &groups {
        let first = R0::from_grf(&g.threads[0].grfs[0]).fftid;
        assert_eq!(
            first % 3,
            0,
            "slots start at a multiple of the group's 3 threads"
        );
        assert_eq!(g.scratch_base, GENERAL + 0x400 + 2048 * u64::from(first));
        for (t, th) in g.threads.iter().enumerate() {
            let r0 = R0::from_grf(&th.grfs[0]);
            assert_eq!(r0.fftid, first + t as u32);
            assert_eq!(r0.scratch_space_pointer, 0x400 + 2048 * u64::from(r0.fftid));
        }
    }
}

#[test]
fn timestamps_advance_and_immediates_land() {
    let mut l = launch();
    let m = setup(&l.batch());
    run(&m, &Budget::default()).0.unwrap();
    let t0 = m.get_u64(TS);
    l.post_sync = Some(post_sync(
        TS,
        POST_SYNC_WRITE_IMMEDIATE,
        0x1122_3344_5566_7788,
    ));
    let sdi = MiStoreDataImm {
        address: TS + 0x10,
        immediate_data: 0xdead_beef_0bad_cafe,
        ..Default::default()
    };
    let mut b = sdi.pack()[..4].to_vec();
    b.extend(
        MiStoreDataImm {
            store_qword: true,
            dword_length: 3,
            address: TS + 0x20,
            immediate_data: 0x0123_4567_89ab_cdef,
            ..sdi
        }
        .pack(),
    );
    b.extend(l.batch());
    m.map(TS, 0x40);
    m.put_dw(BATCH, &b);
    run(&m, &Budget::default()).0.unwrap();
    assert_eq!(m.get_u64(TS), 0x1122_3344_5566_7788);
    assert_eq!(m.get_u64(TS + 0x10) & 0xffff_ffff, 0x0bad_cafe);
    assert_eq!(
        m.get_u64(TS + 0x10) >> 32,
        0xeeee_eeee,
        "a dword store writes 4 bytes"
    );
    assert_eq!(m.get_u64(TS + 0x20), 0x0123_4567_89ab_cdef);
    l.post_sync = Some(post_sync(TS + 0x30, POST_SYNC_WRITE_TIMESTAMP, 0));
    m.put_dw(BATCH, &l.batch());
    run(&m, &Budget::default()).0.unwrap();
    assert!(
        m.get_u64(TS + 0x30) >= t0,
        "the timestamp does not run backwards"
    );
}

#[test]
fn bad_batches_are_errors_not_panics() {
    // An unknown command.
    let m = setup(&[0x1234_5678, 0]);
    assert!(matches!(
        run(&m, &Budget::default()).0,
        Err(GpuError::BadCommand { addr: BATCH, .. })
    ));
    // A walker without PIPELINE_SELECT(GPGPU).
    let mut b = GpgpuWalker::default().pack().to_vec();
    b.extend(MiBatchBufferEnd::default().pack());
    let m = setup(&b);
    assert!(matches!(
        run(&m, &Budget::default()).0,
        Err(GpuError::BadCommand { .. })
    ));
    // A batch that never ends: NOOPs to the end of the page, then a fault.
    let m = setup(&[0; 1024]);
    assert!(
        matches!(run(&m, &Budget::default()).0, Err(GpuError::Fault(MemFault { addr, .. })) if addr == BATCH + 4096)
    );
    // The same under a small command budget: a hang.
    let small = Budget {
        max_commands: 100,
        ..Budget::default()
    };
    assert_eq!(run(&m, &small).0, Err(GpuError::Hang));
    // A work budget smaller than the launch: a hang.
    let m = setup(&launch().batch());
    let tiny = Budget {
        max_work: 20,
        ..Budget::default()
    };
    assert_eq!(run(&m, &tiny).0, Err(GpuError::Hang));
    // A truncated packet length.
    let mut b = launch().batch();
    let sba = find::<StateBaseAddress>(&b);
    b[sba] = (b[sba] & !0xff) | 3; // STATE_BASE_ADDRESS claiming 5 dwords
    let m = setup(&b);
    assert!(matches!(
        run(&m, &Budget::default()).0,
        Err(GpuError::BadCommand { .. })
    ));
    // A CURBE shorter than the dispatch reads.
    let mut l = launch();
    l.walks[0].curbe_length = 64;
    let m = setup(&l.batch());
    assert!(matches!(
        run(&m, &Budget::default()).0,
        Err(GpuError::BadCommand { .. })
    ));
    // A fault in the EU propagates.
    let m = setup(&launch().batch());
    let mut c = Counters::default();
    let e = GpuError::Fault(MemFault {
        addr: 0x42,
        kind: "read",
    });
    let r = execute_batch_with(
        &m,
        BATCH,
        &Budget::default(),
        &Engine::default(),
        &mut c,
        &|_, _, _, _, _| Err(e.clone()),
    );
    assert_eq!(r, Err(e));
}

/// The launch's batch with `edit` applied to its dwords, then run.
fn run_edited(edit: impl FnOnce(&mut Vec<u32>)) -> Result<(), GpuError> {
    let mut b = launch().batch();
    edit(&mut b);
    run(&setup(&b), &Budget::default()).0
}

/// Dword index of the first packet P in a batch (walking the packets by their lengths).
fn find<P: Packet>(b: &[u32]) -> usize {
    find_from::<P>(b, 0)
}

/// Dword index of the MI_LOAD_REGISTER_IMM that loads L3CNTLREG.
fn find_l3cntlreg(b: &[u32]) -> usize {
    let mut at = find::<MiLoadRegisterImm>(b);
    while b[at + 1] != REG_L3CNTLREG {
        at = find_from::<MiLoadRegisterImm>(b, at + 3);
    }
    at
}

/// Dword index of the first packet P at or after dword `at`.
fn find_from<P: Packet>(b: &[u32], mut at: usize) -> usize {
    while !P::matches(b[at]) {
        let dw0 = b[at];
        let len = if MiLoadRegisterImm::matches(dw0) {
            MiLoadRegisterImm::length_from_header(dw0)
        } else if PipeControl::matches(dw0) {
            PipeControl::DWORDS
        } else if StateBaseAddress::matches(dw0) {
            StateBaseAddress::DWORDS
        } else if MediaVfeState::matches(dw0) {
            MediaVfeState::DWORDS
        } else if MediaCurbeLoad::matches(dw0) || MediaInterfaceDescriptorLoad::matches(dw0) {
            4
        } else if GpgpuWalker::matches(dw0) {
            GpgpuWalker::DWORDS
        } else if MediaStateFlush::matches(dw0) {
            2
        } else {
            1
        };
        at += len;
    }
    at
}

fn rule(r: Result<(), GpuError>) -> &'static str {
    match r {
        Err(GpuError::Rule { rule, .. }) => rule,
        other => panic!("expected a broken programming rule, got {other:?}"),
    }
}

#[test]
fn strict_slm_needs_an_l3_partition() {
    // The kernel's descriptor asks for SLM; L3CNTLREG loaded without SLM Enable.
    let r = run_edited(|b| {
        let at = find_l3cntlreg(b);
        b[at + 2] = L3CNTLREG_GT2_NO_SLM;
    });
    assert!(rule(r).contains("L3CNTLREG SLM Enable"));
    // No L3CNTLREG load at all: the same (the partition was never made).
    let r = run_edited(|b| {
        let at = find_l3cntlreg(b);
        b.splice(at..at + 3, [0u32; 3]); // MI_NOOPs
    });
    assert!(rule(r).contains("L3CNTLREG SLM Enable"));
}

#[test]
fn strict_state_changes_after_a_walker_need_a_stall() {
    // A second MEDIA_VFE_STATE, STATE_BASE_ADDRESS or L3CNTLREG load after the walker,
    // before any stalling PIPE_CONTROL, breaks its rule; after a stall each is fine.
    let launch_batch = launch().batch();
    let vfe = find::<MediaVfeState>(&launch_batch);
    let sba = find::<StateBaseAddress>(&launch_batch);
    let lri = find_l3cntlreg(&launch_batch);
    let flush = find::<MediaStateFlush>(&launch_batch);
    for (what, at, len) in [
        ("MEDIA_VFE_STATE", vfe, MediaVfeState::DWORDS),
        ("STATE_BASE_ADDRESS", sba, StateBaseAddress::DWORDS),
        ("L3CNTLREG", lri, 3),
    ] {
        let packet = launch_batch[at..at + len].to_vec();
        let r = run_edited(|b| {
            b.splice(flush + 2..flush + 2, packet.iter().copied());
        });
        assert!(rule(r).contains(what), "{what}");
        let stall = PipeControl {
            command_streamer_stall_enable: true,
            ..Default::default()
        }
        .pack();
        run_edited(|b| {
            b.splice(flush + 2..flush + 2, stall.iter().chain(&packet).copied());
        })
        .unwrap_or_else(|e| panic!("{what} after a stall: {e}"));
    }
}

#[test]
fn strict_walker_needs_programmed_bases() {
    let r = run_edited(|b| {
        let at = find::<StateBaseAddress>(b);
        b.splice(at..at + StateBaseAddress::DWORDS, [0u32; 19]);
    });
    assert!(rule(r).contains("STATE_BASE_ADDRESS"));
}

#[test]
fn strict_curbe_fits_its_allocation() {
    let mut l = launch();
    l.vfe.curbe_allocation_size = 6; // 192 bytes; the launch loads 224
    let r = run(&setup(&l.batch()), &Budget::default()).0;
    assert!(rule(r).contains("CURBE Allocation Size"));
}

#[test]
fn a_command_is_fetched_whole_in_place_or_on_the_heap() {
    let m = TestMem::default();
    let dw: Vec<u32> = (0..100u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    // Ending at a page's end: one dword more faults.
    let at = BATCH + 4096 - 4 * 100;
    m.put_dw(at, &dw);
    for len in [
        1,
        5,
        COMMAND_INLINE - 1,
        COMMAND_INLINE,
        COMMAND_INLINE + 1,
        100,
    ] {
        let c = Command::read(&m, at, len).unwrap();
        assert_eq!(&c[..], &dw[..len], "{len} dwords");
    }
    for len in [COMMAND_INLINE, 100] {
        let from = BATCH + 4096 - 4 * (len as u64 - 1);
        assert!(
            matches!(
                Command::read(&m, from, len),
                Err(GpuError::Fault(MemFault { addr, .. })) if addr == BATCH + 4096
            ),
            "{len} dwords over the page's end"
        );
    }
}

/// A kernel launched as one group of 3 threads, four times: its first launch runs on one
/// host thread (nothing measured yet); a launch whose group ran long runs of instructions
/// between shared messages makes the next spread over the host threads (`eu::lanes`: at
/// most the budget's 2, the pool's and the group's 3); a launch with a shared message
/// every 8 instructions (a contended `__local` loop) makes the next run on one again.
/// Fails when the measure is not kept per kernel, or the rule is inverted.
#[test]
fn a_single_group_spreads_from_the_launch_after_one_that_showed_it_pays() {
    let mut l = launch();
    let w = &mut l.walks[0].walker;
    w.thread_group_id_starting_x = 0;
    w.thread_group_id_x_dimension = 1;
    w.thread_group_id_y_dimension = 1;
    let one = l.walks[0].clone();
    l.walks.extend([one.clone(), one.clone(), one]);
    let m = setup(&l.batch());
    let budget = Budget {
        host_threads: 2,
        spread: Spread::Measured,
        ..Budget::default()
    };
    let lanes = parking_lot::Mutex::new(Vec::new());
    let mut counters = Counters::default();
    execute_batch_with(
        &m,
        BATCH,
        &budget,
        &Engine::default(),
        &mut counters,
        &|_, tg, env, _, c| {
            let mut seen = lanes.lock();
            seen.push(env.lanes);
            c.threads += tg.threads.len() as u64;
            c.instructions += 1_000_000;
            if seen.len() == 3 {
                c.sends_slm += 1_000_000 / 8;
            }
            Ok(())
        },
    )
    .unwrap();
    let spread = pool::lanes_available().min(2);
    assert_eq!(lanes.into_inner(), [1, spread, spread, 1]);
}

/// The rule itself: at least `SPREAD_RUN` instructions for each SLM message, atomic and
/// barrier of the dispatch (counted between two readings of the counters).
#[test]
fn spreading_takes_long_runs_between_shared_messages() {
    let before = Counters {
        instructions: 5_000,
        sends_slm: 7,
        sends_atomic: 3,
        ..Counters::default()
    };
    let after = |instructions, slm: u64, atomic: u64, barrier| Counters {
        instructions: 5_000 + instructions,
        sends_slm: 7 + slm,
        sends_atomic: 3 + atomic,
        sends_barrier: barrier,
        ..Counters::default()
    };
    assert!(spreads(&before, &after(SPREAD_RUN * 4, 1, 1, 1)));
    assert!(!spreads(&before, &after(SPREAD_RUN * 4 - 1, 1, 1, 1)));
    assert!(spreads(&before, &after(SPREAD_RUN, 0, 0, 0)));
    assert!(!spreads(&before, &after(8_000, 1_000, 0, 0)));
}
