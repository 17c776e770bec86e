//! Speed of the Gen9 EU model on ALU-bound kernels.
//!
//! `cargo run --release -p gencl-kmd --example eu_speed [-- SCALE [NAME [MODE]]]`
//! (NAME: run only the kernels whose name starts with it; MODE: `interpreted`, `translated`
//! `threaded` or `spread` alone, for instruction counts of one mode under valgrind)
//!
//! Each kernel runs as thread groups of one dispatch, its program from the device's
//! decoded-kernel cache (`eu::cache`), as the command streamer runs them; the figures are lane-instructions (the sum of
//! each instruction's enabled lanes), instructions, the host thread's CPU
//! time and wall time, and the rates per CPU second (one core). Kernels (in `kernels/`, the `.bin` files are what runs):
//! - `mad16`: SIMD16 f32 mad loop, assembled with `iga64 -a -p=9 mad16.asm`;
//! - `mad32`: SIMD32 f32 mad loop as IGC emits SIMD32 (M0/M16 halves);
//! - `int16`: SIMD16 integer add/shl/and/xor loop;
//! - `mix`:   `mix.cl` compiled by Intel's ocloc for skl (SIMD32), a float and
//!   integer hash loop with one load and one store per work-item;
//! - `addr8`: SIMD8 64-bit address arithmetic in the shapes gencl's JIT emits
//!   for size_t/long (extensions, qword add/shl/shr/logic/cmp/sel, 32-bit ops
//!   on the halves of qwords, widening mul), assembled as `mad16`.
//!
//! Each kernel runs four times in the same process: interpreted, with hot runs translated
//! to host code (`eu::translate`), both on one host thread, translated with its groups
//! over every host thread (`gpu::pool`, GENCL_GPU_THREADS, as the command streamer runs a
//! dispatch), and translated with its groups one after another, each group's threads
//! spread over the host threads (`eu::lanes`, as a dispatch of one group runs). After
//! each, its speed against the first: lane-instructions per CPU second (one thread), per
//! wall second for the threaded and spread runs. All must agree on every counter and every
//! output byte (asserted).
//!
//! It prints figures; it asserts nothing about timings.

use std::time::Instant;

use gencl_kmd::gpu::binding::Bindings;
use gencl_kmd::gpu::eu::cache::ProgramCache;
use gencl_kmd::gpu::eu::translate::Policy;
use gencl_kmd::gpu::eu::{run_program, run_spread, LaunchEnv};
use gencl_kmd::gpu::pool::{host_threads, lanes_available, side_by_side, GroupGrid, Run};
use gencl_kmd::gpu::watchdog::Watchdog;
use gencl_kmd::gpu::{BufferSurface, Counters, GpuMemory, MemFault, ThreadGroup, ThreadPayload};

const KERNEL_BASE: u64 = 0x1_0000;
const BUF_BASE: u64 = 0x10_0000;
const MEM_SIZE: usize = 0x20_0000;

/// A flat window of GPU memory starting at `KERNEL_BASE`.
struct Mem(parking_lot::Mutex<Vec<u8>>);

impl Mem {
    fn range(&self, addr: u64, len: usize) -> Result<usize, MemFault> {
        let off = addr.wrapping_sub(KERNEL_BASE) as usize;
        if addr < KERNEL_BASE || off + len > MEM_SIZE {
            return Err(MemFault {
                addr,
                kind: "unmapped",
            });
        }
        Ok(off)
    }
}

impl GpuMemory for Mem {
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let o = self.range(addr, out.len())?;
        out.copy_from_slice(&self.0.lock()[o..o + out.len()]);
        Ok(())
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let o = self.range(addr, data.len())?;
        self.0.lock()[o..o + data.len()].copy_from_slice(data);
        Ok(())
    }
}

struct Kernel {
    name: &'static str,
    code: &'static [u8],
    simd: u32,
    /// Loop trip count at SCALE 1.
    iters: u32,
    /// Initial registers of thread `k` of group `g` with trip count `n`.
    payload: fn(g: u32, k: u32, n: u32) -> Vec<[u8; 32]>,
}

fn put_u32(grfs: &mut [[u8; 32]], reg: usize, dword: usize, v: u32) {
    grfs[reg][dword * 4..dword * 4 + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_f32s(grfs: &mut [[u8; 32]], reg: usize, v: impl Fn(usize) -> f32, n: usize) {
    for i in 0..n {
        put_u32(grfs, reg + i / 8, i % 8, v(i).to_bits());
    }
}

/// r0 header, r8.0 = trip count, r10.. accumulators, r40..r47 operands.
fn loop_payload(g: u32, k: u32, n: u32) -> Vec<[u8; 32]> {
    let mut r = vec![[0u8; 32]; 128];
    put_u32(&mut r, 0, 1, g);
    put_u32(&mut r, 0, 2, k);
    put_u32(&mut r, 8, 0, n);
    put_f32s(&mut r, 10, |i| i as f32 * 0.25, 32 * 8);
    // mad: x += 0.5·y, small steps that stay far from overflow and denormals.
    put_f32s(&mut r, 40, |_| 0.5, 32);
    put_f32s(&mut r, 44, |i| 1.0 + i as f32 / 64.0, 32);
    r
}

fn int_payload(g: u32, k: u32, n: u32) -> Vec<[u8; 32]> {
    let mut r = loop_payload(g, k, n);
    for i in 0..16 {
        put_u32(
            &mut r,
            40 + i / 8,
            i % 8,
            0x9E37_79B9u32.wrapping_mul(i as u32 + 1),
        );
        put_u32(&mut r, 42 + i / 8, i % 8, 0x00FF_F0F0);
    }
    r
}

/// The payload ocloc's `mix` expects (read off its disassembly): r0.1 group id,
/// r1/r2 local ids x of lanes 0-15/16-31 (uw), r7.0 global offset, r8.4 = n,
/// r8.5/r8.6 = buffer offsets of `out`/`in` (BTI 0/1), r9.0 local size.
fn mix_payload(g: u32, k: u32, n: u32) -> Vec<[u8; 32]> {
    let mut r = vec![[0u8; 32]; 128];
    let local = THREADS * 32;
    put_u32(&mut r, 0, 1, g);
    for i in 0..32u32 {
        let id = (k * 32 + i) as u16;
        let (reg, lane) = (1 + i as usize / 16, i as usize % 16);
        r[reg][lane * 2..lane * 2 + 2].copy_from_slice(&id.to_le_bytes());
    }
    put_u32(&mut r, 8, 4, n);
    put_u32(&mut r, 9, 0, local);
    r
}

/// CPU time of the process (all its threads), in seconds: the machine is shared, so wall
/// time alone over-states the cost when other processes run.
fn process_cpu_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

const THREADS: u32 = 4;
const GROUPS: u32 = 8;

fn main() {
    let scale: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let only = std::env::args().nth(2).unwrap_or_default();
    let mode = std::env::args().nth(3).unwrap_or_default();
    let kernels = [
        Kernel {
            name: "mad16 (SIMD16 f32 mad)",
            code: include_bytes!("kernels/mad16.bin"),
            simd: 16,
            iters: 20_000,
            payload: loop_payload,
        },
        Kernel {
            name: "mad32 (SIMD32 f32 mad)",
            code: include_bytes!("kernels/mad32.bin"),
            simd: 32,
            iters: 20_000,
            payload: loop_payload,
        },
        Kernel {
            name: "int16 (SIMD16 add/shl/and/xor)",
            code: include_bytes!("kernels/int16.bin"),
            simd: 16,
            iters: 20_000,
            payload: int_payload,
        },
        Kernel {
            name: "mix (ocloc SIMD32 float+int)",
            code: include_bytes!("kernels/mix.bin"),
            simd: 32,
            iters: 5_000,
            payload: mix_payload,
        },
        Kernel {
            name: "addr8 (SIMD8 64-bit addressing)",
            code: include_bytes!("kernels/addr8.bin"),
            simd: 8,
            iters: 10_000,
            payload: int_payload,
        },
    ];
    println!(
        "{:<32} {:>12} {:>13} {:>7} {:>7} {:>15} {:>10}",
        "kernel", "instructions", "lane-instr", "cpu s", "wall s", "M lane-instr/s", "M instr/s"
    );
    let mut total = (0u64, 0u64, 0f64, 0f64);
    for k in kernels.iter().filter(|k| k.name.starts_with(&only)) {
        let mem = Mem(parking_lot::Mutex::new(vec![0; MEM_SIZE]));
        let kaddr = KERNEL_BASE;
        mem.write(kaddr, k.code).unwrap();
        let n = ((k.iters as f64 * scale) as u32).max(1);
        let items = (GROUPS * THREADS * k.simd) as u64;
        let out = BUF_BASE;
        let inp = BUF_BASE + 4 * items;
        for i in 0..items {
            mem.write(inp + 4 * i, &(i as f32 / items as f32).to_le_bytes())
                .unwrap();
        }
        let surf = |base| {
            Some(
                BufferSurface {
                    base,
                    size: 4 * items,
                }
                .into(),
            )
        };
        let groups: Vec<ThreadGroup> = (0..GROUPS)
            .map(|g| ThreadGroup {
                kernel_addr: kaddr,
                simd: k.simd,
                threads: (0..THREADS)
                    .map(|t| ThreadPayload {
                        grfs: (k.payload)(g, t, n),
                        exec_mask: if k.simd == 32 {
                            u32::MAX
                        } else {
                            (1 << k.simd) - 1
                        },
                    })
                    .collect(),
                bindings: Bindings::Fixed(vec![surf(out), surf(inp)]),
                slm_bytes: 0,
                scratch_base: 0,
                scratch_per_thread: 0,
                barrier_enabled: false,
                dynamic_state_base: 0,
                sampler_state_pointer: 0,
            })
            .collect();
        let mut first: Option<(Counters, Vec<u8>, f64)> = None;
        let lanes = host_threads().min(lanes_available()).min(THREADS as usize);
        for (translate, workers, spread) in [
            (false, 1, false),
            (true, 1, false),
            (true, host_threads(), false),
            (true, lanes, true),
        ] {
            let label = match (translate, workers, spread) {
                (false, _, _) => "interpreted",
                (true, _, true) => "spread",
                (true, 1, _) => "translated",
                _ => "threaded",
            };
            if !mode.is_empty() && mode != label {
                continue;
            }
            // Each mode starts from the same memory.
            mem.write(out, &vec![0u8; 4 * items as usize]).unwrap();
            let env = LaunchEnv::default();
            let mut c = Counters::default();
            let cache = ProgramCache::with_translation(Policy {
                on: translate,
                ..Policy::default()
            });
            let t0 = Instant::now();
            let c0 = process_cpu_s();
            let dispatch = cache.checkout(mem.address_space(), kaddr, workers);
            // The groups over `workers` host threads, as the command streamer runs a
            // dispatch (`gpu::pool`).
            let watchdog = Watchdog::none();
            let pool = Run {
                groups: GroupGrid::new([0; 3], [GROUPS, 1, 1]),
                workers,
                max_work: u64::MAX,
                work: 0,
                watchdog: &watchdog,
                helpers_after: 0,
            };
            if spread {
                // One group at a time, its threads over `lanes` host threads.
                for tg in &groups {
                    run_spread(
                        &mem,
                        tg,
                        &env,
                        &mut c,
                        lanes,
                        |n, f| side_by_side(n, f),
                        &|i, f| dispatch.with(i, &mem, |p| f(p)),
                    )
                    .expect("kernel failed");
                }
            } else {
                let (_, r) = pool.run(&mut c, &|id, _, w, _, c| {
                    let tg = &groups[id[0] as usize];
                    dispatch.with(w, &mem, |p| run_program(p, &mem, tg, &env, c))
                });
                r.expect("kernel failed");
            }
            drop(dispatch);
            let wall = t0.elapsed().as_secs_f64();
            let s = process_cpu_s() - c0;
            let name = format!("{} {label}", k.name.split(' ').next().unwrap_or(k.name));
            println!(
                "{:<32} {:>12} {:>13} {:>7.3} {:>7.3} {:>15.1} {:>10.1}",
                name,
                c.instructions,
                c.lane_instructions,
                s,
                wall,
                c.lane_instructions as f64 / s / 1e6,
                c.instructions as f64 / s / 1e6
            );
            println!("    counters: {c:?}");
            if k.name.starts_with("mix") {
                // Every work-item stores one float: check they all arrived.
                let mut b = [0u8; 4];
                let written = (0..items)
                    .filter(|i| {
                        mem.read(out + 4 * i, &mut b).unwrap();
                        let v = f32::from_le_bytes(b);
                        v != 0.0 && v.is_finite()
                    })
                    .count();
                println!("    outputs written and finite: {written}/{items}");
            }
            let mut bytes = vec![0u8; 4 * items as usize];
            mem.read(out, &mut bytes).unwrap();
            let rate = c.lane_instructions as f64 / s;
            match &first {
                None => first = Some((c.clone(), bytes, rate)),
                Some((c0, b0, r0)) => {
                    assert_eq!(&c, c0, "{}: {label} counters differ", k.name);
                    assert!(&bytes == b0, "{}: {label} outputs differ", k.name);
                    if workers == 1 && !spread {
                        println!(
                            "    {label} / first mode, per CPU second: {:.2}x",
                            rate / r0
                        );
                    } else {
                        println!(
                            "    {label} ({workers} host threads) / first mode, per wall second: {:.2}x",
                            c.lane_instructions as f64 / wall / r0
                        );
                    }
                }
            }
            if translate && workers == 1 && !spread {
                total.0 += c.instructions;
                total.1 += c.lane_instructions;
                total.2 += s;
                total.3 += wall;
            }
        }
    }
    println!(
        "{:<32} {:>12} {:>13} {:>7.3} {:>7.3} {:>15.1} {:>10.1}",
        "all (translated)",
        total.0,
        total.1,
        total.2,
        total.3,
        total.1 as f64 / total.2 / 1e6,
        total.0 as f64 / total.2 / 1e6
    );
}
