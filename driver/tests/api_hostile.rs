//! A hostile client (issue 26, docs/reliability.md): kernels of one gencld client store to and
//! load from addresses that are not theirs: another client's buffers (each client has a VM of
//! its own, so those addresses name nothing in the attacker's), addresses just past and before
//! its own buffers, buffers it freed, and random canonical 48-bit addresses. Every attempt
//! that names no page of the attacker's own must fail its launch with a page fault reported
//! on that launch; none may change or read a byte of the victim's; both clients go on.
//!
//! `GENCL_HOSTILE_ATTEMPTS` sets the number of attempts (default 10,000, about 1.5 s).

use gencl::client::{ClientError, Connection, SharedBuffer};
use gencl::protocol::{self, Launch, Request, Response, WireArg};

mod service_common;
use service_common::{start_gencld, Rng};

const POKE: &str = "kernel void poke(global uint *out, ulong addr, uint value, int load) {
    if (load)
        out[0] = *(volatile global uint *)addr;
    else
        *(volatile global uint *)addr = value;
}
kernel void fill(global uint *p, uint base) { p[get_global_id(0)] = base + get_global_id(0); }";

fn build(c: &Connection) -> u64 {
    match c
        .call(Request::BuildProgram {
            source: protocol::ProgramSource::OpenClC(POKE.into()),
            options: String::new(),
            spec_constants: Vec::new(),
        })
        .unwrap()
        .0
    {
        Response::Built { id, .. } => id,
        other => panic!("build answered {other:?}"),
    }
}

fn poke(program: u64, out: u64, addr: u64, value: u32, load: bool) -> Launch {
    Launch {
        tag: 0,
        queue: 0,
        context: 0,
        program,
        kernel: 0,
        args: vec![
            WireArg::Buffer { id: out, offset: 0 },
            WireArg::Bytes(addr.to_ne_bytes().to_vec()),
            WireArg::Bytes(value.to_ne_bytes().to_vec()),
            WireArg::Bytes(i32::from(load).to_ne_bytes().to_vec()),
        ],
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [1, 1, 1],
        local_size: [1, 1, 1],
    }
}

/// `fill` over the first `n` words of `buffer`: word i becomes `base + i`.
fn fill(program: u64, buffer: u64, base: u32, n: u64) -> Launch {
    Launch {
        tag: 0,
        queue: 0,
        context: 0,
        program,
        kernel: 1,
        args: vec![
            WireArg::Buffer {
                id: buffer,
                offset: 0,
            },
            WireArg::Bytes(base.to_ne_bytes().to_vec()),
        ],
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [n, 1, 1],
        local_size: [64, 1, 1],
    }
}

fn words(b: &SharedBuffer) -> Vec<u32> {
    b.map
        .lock()
        .chunks(4)
        .map(|w| u32::from_ne_bytes(w.try_into().unwrap()))
        .collect()
}

const VICTIM: u32 = 0x5EC0_0000;

#[test]
fn stray_stores_and_loads_never_reach_another_client() {
    let attempts: usize = std::env::var("GENCL_HOSTILE_ATTEMPTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let (_d, sock) = start_gencld("hostile");
    let victim = Connection::connect_to(&sock).unwrap();
    let attacker = Connection::connect_to(&sock).unwrap();

    // The victim's data: four buffers of 64 KiB, filled by its own kernel. Both VMs hand out
    // addresses from the same base, so the victim's buffers come after 64 MiB of others:
    // their addresses are then nothing of the attacker's (a lower one would name the
    // attacker's own objects in its own VM, which is no breach).
    let vprog = build(&victim);
    let _spacer = victim.create_buffer(64 << 20).unwrap();
    let vbufs: Vec<SharedBuffer> = (0..4)
        .map(|_| victim.create_buffer(64 << 10).unwrap())
        .collect();
    for (k, b) in vbufs.iter().enumerate() {
        let base = VICTIM + (k as u32) * 0x4000;
        victim
            .launch_and_wait(fill(vprog, b.id, base, 16384))
            .unwrap();
    }
    let before: Vec<Vec<u32>> = vbufs.iter().map(words).collect();

    // The attacker: a buffer for loads, two of its own to stray from, one freed.
    let aprog = build(&attacker);
    let out = attacker.create_buffer(4096).unwrap();
    let own: Vec<SharedBuffer> = (0..2)
        .map(|_| attacker.create_buffer(8192).unwrap())
        .collect();
    // The service gives each client its batches and state lazily, from the same addresses:
    // a warm-up of sequential and overlapping launches makes them all before the buffer is
    // freed, so that its range is not handed to one of them (then it would be the attacker's
    // own again, as addresses are reused on an i915).
    for _ in 0..16 {
        attacker
            .launch_and_wait(poke(aprog, out.id, out.gpu_addr, 0, false))
            .unwrap();
    }
    let (tx, rx) = std::sync::mpsc::channel();
    for _ in 0..16 {
        let tx = tx.clone();
        attacker
            .launch(poke(aprog, out.id, out.gpu_addr, 0, false), move |r| {
                tx.send(r.is_ok()).unwrap()
            })
            .unwrap();
    }
    assert!((0..16).all(|_| rx.recv().unwrap()));
    let freed = attacker.create_buffer(64 << 10).unwrap();
    let freed_addr = freed.gpu_addr;
    attacker.free_buffer(freed.id).unwrap();
    drop(freed);
    let inside_own = |a: u64| {
        own.iter()
            .chain([&out])
            .any(|b| (b.gpu_addr..b.gpu_addr + b.size).contains(&a))
    };

    assert!(vbufs.iter().all(|b| b.gpu_addr > freed_addr + (32 << 20)));
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut faulted, mut own_hits, mut breaches) = (0usize, 0usize, Vec::new());
    let mut kinds = [0usize; 4];
    for i in 0..attempts {
        let r = rng.next();
        let kind = (r % 4) as usize;
        kinds[kind] += 1;
        let offset = ((r >> 8) % (64 << 10)) & !3;
        let addr = match kind {
            // The victim's buffers, at their own addresses (meaningless in the attacker's VM).
            0 => vbufs[(r >> 40) as usize % 4].gpu_addr + offset,
            // Just past or just before one of the attacker's own buffers: the service leaves
            // a guard page after every object, so an overrun faults instead of landing in
            // the next one.
            1 => {
                let b = &own[(r >> 40) as usize % 2];
                if r & (1 << 7) != 0 {
                    b.gpu_addr + b.size + offset % 4096
                } else {
                    b.gpu_addr - 4 - offset % 4096
                }
            }
            // A buffer it freed.
            2 => freed_addr + offset,
            // Anywhere in the 48-bit address space (canonical, dword-aligned).
            _ => (r >> 16) & 0x0000_7FFF_FFFF_FFFC,
        };
        let load = r & (1 << 6) != 0;
        let value = 0xBAD0_0000 | i as u32;
        out.map.lock()[..4].copy_from_slice(&0u32.to_ne_bytes());
        match attacker.launch_and_wait(poke(aprog, out.id, addr, value, load)) {
            Err(ClientError::Service { message, .. }) if message.contains("fault") => faulted += 1,
            Err(e) => panic!("attempt {i} at {addr:#x}: not a page fault: {e:?}"),
            Ok(_) if inside_own(addr) => own_hits += 1,
            Ok(_) => {
                let got = words(&out)[0];
                breaches.push(format!(
                    "attempt {i} (kind {kind}): {} at {addr:#x} succeeded outside the attacker's buffers \
                     (loaded {got:#x})",
                    if load { "load" } else { "store" }
                ));
            }
        }
        if load && (words(&out)[0] & 0xFFF0_0000) == VICTIM {
            breaches.push(format!("attempt {i}: read the victim's data at {addr:#x}"));
        }
    }
    let after: Vec<Vec<u32>> = vbufs.iter().map(words).collect();
    if after != before {
        breaches.push("the victim's buffers changed".into());
    }
    assert!(breaches.is_empty(), "{}", breaches.join("\n"));
    println!(
        "{attempts} attempts (victim's {} / neighbouring {} / freed {} / random {}): \
         {faulted} faults reported on their launch, {own_hits} inside the attacker's own \
         buffers, 0 breaches",
        kinds[0], kinds[1], kinds[2], kinds[3]
    );
    assert_eq!(faulted + own_hits, attempts);
    assert_eq!(
        own_hits, 0,
        "no attempt was aimed inside the attacker's buffers"
    );
    // Both clients go on: the victim's kernels still run on its data.
    victim
        .launch_and_wait(fill(vprog, vbufs[0].id, 7, 64))
        .unwrap();
    assert_eq!(words(&vbufs[0])[..3], [7, 8, 9]);
    // And the attacker's own: a store to its buffer, passed as the kernel's argument (a
    // launch's VM holds the buffers its arguments name, and the service's own objects).
    let legal = attacker.launch_and_wait(poke(aprog, own[0].id, own[0].gpu_addr, 42, false));
    assert!(legal.is_ok(), "{legal:?}");
    assert_eq!(words(&own[0])[0], 42);
}
