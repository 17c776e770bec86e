//! One group's threads over several host threads (`eu::lanes`) against the same group on
//! one: the same memory, the same counters, the same hangs.

use super::*;
use crate::gpu::eu::program::Program;
use crate::gpu::eu::run_spread;

fn env() -> LaunchEnv {
    LaunchEnv {
        general_state_base: MEM_BASE,
        max_instructions: 100_000,
        watchdog: crate::gpu::watchdog::Watchdog::none(),
    }
}

/// `tg` over `lanes` lanes, each a std thread of its own with a program of its own.
fn run_over(
    insts: &[Inst],
    tg: &ThreadGroup,
    mem: &FlatMem,
    lanes: usize,
) -> Result<Counters, GpuError> {
    let programs: Vec<parking_lot::Mutex<Program>> = (0..lanes)
        .map(|_| parking_lot::Mutex::new(program(insts.to_vec())))
        .collect();
    let mut c = Counters::default();
    run_spread(
        mem,
        tg,
        &env(),
        &mut c,
        lanes,
        |n, f| {
            std::thread::scope(|s| {
                let lanes: Vec<_> = (0..n).map(|i| s.spawn(move || f(i))).collect();
                lanes.into_iter().map(|l| l.join().unwrap()).collect()
            })
        },
        &|i, f| f(&mut programs[i].lock()),
    )?;
    Ok(c)
}

/// Every thread adds 1 to SLM dword 0 in all 8 lanes 16 times (atomic add, old values
/// returned), meets the barrier, reads the dword and stores it to out[gid] (stateless,
/// 0x400 + 4 gid).
fn slm_counter_program() -> Vec<Inst> {
    use Opcode::*;
    let mut v = vec![
        alu(Mov, 8, dst(10, Type::UD), &[imm(Type::UD, 0)]),
        alu(Mov, 8, dst(11, Type::UD), &[imm(Type::UD, 1)]),
    ];
    for _ in 0..16 {
        v.push(send(
            8,
            Sfid::Dc1,
            Some(20),
            10,
            desc(2, 1, 2, 0x37, 254),
            false,
        ));
    }
    v.extend(barrier_wait());
    v.extend([
        alu(Mov, 8, dst(12, Type::UD), &[imm(Type::UD, 0)]),
        send(8, Sfid::Dc1, Some(13), 12, desc(1, 1, 1, 0x2E, 254), false),
    ]);
    v.extend(gid_in_r2_and_4gid_in_r10());
    v.extend(store_r13_at_gid());
    v
}

/// The SLM exchange across a barrier (`slm_barrier_program`: each work-item reads the slot
/// its mirror wrote) and a counter every thread adds to: over 2, 3 and 4 lanes the memory
/// and every counter (modelled cycles included) are those of one host thread. Fails when a
/// lane's threads run past a barrier before the other lanes' arrive, or SLM messages of
/// two lanes interleave (lost additions), or the lanes' timing is not summed as one
/// group's.
#[test]
fn lanes_write_the_bytes_and_count_the_counters_of_one_host_thread() {
    let cases: [(&str, Vec<Inst>, usize, usize); 2] = [
        ("exchange", slm_barrier_program(true), 4, 32),
        ("counter", slm_counter_program(), 5, 40),
    ];
    for (name, insts, threads, items) in cases {
        let tg = group(threads, 0xFF, |t, g| put_u32s(g, 1, &[8 * t as u32]));
        let alone = FlatMem::new();
        let (_, want) = run(insts.clone(), &tg, &alone).unwrap();
        let want_out = alone.get_u32s(MEM_BASE + 0x400, items);
        if name == "counter" {
            assert_eq!(want_out, vec![threads as u32 * 8 * 16; items]);
        } else {
            let mirror: Vec<u32> = (0..items as u32).map(|g| (31 - g) * 3).collect();
            assert_eq!(want_out, mirror);
        }
        for lanes in 2..=4 {
            let mem = FlatMem::new();
            let got = run_over(&insts, &tg, &mem, lanes).unwrap();
            assert_eq!(
                mem.get_u32s(MEM_BASE + 0x400, items),
                want_out,
                "{name}: {lanes} lanes"
            );
            assert_eq!(got, want, "{name}: counters over {lanes} lanes");
        }
    }
}

/// A barrier one thread skips hangs the group over lanes as on one host thread (every
/// lane idle, none with news: the stall the one-lane loop finds), and completes when no
/// thread skips it. Fails when a lane waiting for news is taken for a stalled one (the
/// group hangs although it completes), or the stall is never seen (the test times out).
#[test]
fn a_barrier_a_thread_skips_hangs_over_lanes_too() {
    let insts = barrier_skipped_by_24();
    for lanes in [2, 3] {
        let tg = group(4, 0xFF, |t, g| put_u32s(g, 1, &[8 * t as u32]));
        assert_eq!(
            run_over(&insts, &tg, &FlatMem::new(), lanes).err(),
            Some(GpuError::Hang),
            "{lanes} lanes"
        );
        let tg = group(4, 0xFF, |t, g| put_u32s(g, 1, &[8 * t as u32 + 1]));
        let (_, want) = run(insts.clone(), &tg, &FlatMem::new()).unwrap();
        let got = run_over(&insts, &tg, &FlatMem::new(), lanes).unwrap();
        assert_eq!(got, want, "{lanes} lanes");
    }
}
