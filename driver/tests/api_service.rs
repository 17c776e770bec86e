//! gencld on a temporary socket: two clients, each in its own VM with its own objects; handles
//! of one client are unknown to the other; garbage on the socket gets an error or a closed
//! connection and the service keeps serving everyone else.

use gencl::client::{ClientError, Connection};
use gencl::protocol::{
    self, ErrorCode, Launch, Launched, Request, Response, WireArg, PROTOCOL_VERSION,
};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Command, Stdio};

mod service_common;
use service_common::{start_gencld, start_gencld_with, Daemon};

fn alive(d: &mut Daemon, sock: &Path) {
    assert!(d.0.try_wait().unwrap().is_none(), "gencld died");
    let c = Connection::connect_to(sock).expect("a new client is still served");
    assert!(c.device.name.contains("Gen9"));
}

const ADD: &str = "kernel void add(global int *a, int b) { a[get_global_id(0)] += b; }";

fn build(c: &Connection) -> u64 {
    let req = Request::BuildProgram {
        source: protocol::ProgramSource::OpenClC(ADD.into()),
        options: String::new(),
        spec_constants: Vec::new(),
    };
    match c.call(req).expect("build").0 {
        Response::Built { id, kernels, .. } => {
            assert_eq!(kernels[0].name, "add");
            id
        }
        other => panic!("build answered {other:?}"),
    }
}

/// `add` over `n` items of `buffer`, adding `b`.
fn add(program: u64, buffer: u64, n: u64, b: i32) -> Launch {
    Launch {
        tag: 0,
        queue: 0,
        context: 0,
        program,
        kernel: 0,
        args: vec![
            WireArg::Buffer {
                id: buffer,
                offset: 0,
            },
            WireArg::Bytes(b.to_ne_bytes().to_vec()),
        ],
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [n, 1, 1],
        local_size: [16, 1, 1],
    }
}

fn launch(c: &Connection, program: u64, buffer: u64, n: u64) -> Result<Launched, ClientError> {
    c.launch_and_wait(add(program, buffer, n, 7))
}

/// A buffer's contents as the ints a kernel wrote there.
fn ints(buf: &gencl::client::SharedBuffer) -> Vec<i32> {
    buf.map
        .lock()
        .chunks(4)
        .map(|w| i32::from_ne_bytes(w.try_into().unwrap()))
        .collect()
}

fn unknown(r: Result<impl std::fmt::Debug, ClientError>) {
    match r {
        Err(ClientError::Service {
            code: ErrorCode::UnknownObject,
            ..
        }) => {}
        other => panic!("expected UnknownObject, got {other:?}"),
    }
}

#[test]
fn two_clients_share_memory_with_the_service_but_not_with_each_other() {
    let (mut d, sock) = start_gencld("iso");
    let a = Connection::connect_to(&sock).expect("client A");
    let b = Connection::connect_to(&sock).expect("client B");
    assert_eq!(a.device, b.device);
    assert_eq!(a.device.eu_count, 24);

    let buf_a = a.create_buffer(64 * 4).expect("A's buffer");
    let buf_b = b.create_buffer(64 * 4).expect("B's buffer");
    assert_ne!(buf_a.id, buf_b.id, "ids are unique across clients");
    assert_eq!(buf_a.gpu_addr % 4096, 0);
    {
        let mut m = buf_a.map.lock();
        assert!(m.iter().all(|&x| x == 0), "new buffers are zeroed");
        for (i, w) in m.chunks_mut(4).enumerate() {
            w.copy_from_slice(&(i as i32).to_ne_bytes());
        }
    }
    let prog_a = build(&a);

    // The kernel runs in the service on A's pages: A sees the result in its own mapping, which
    // proves the memory is shared (nothing is copied back over the socket).
    let r = launch(&a, prog_a, buf_a.id, 64).expect("A's launch");
    assert!(r.end_ns >= r.start_ns, "{r:?}");
    let got = ints(&buf_a);
    assert_eq!(got, (0..64).map(|i| i + 7).collect::<Vec<_>>());

    // B cannot name A's objects: not A's program, not A's buffer, not to free them either.
    unknown(launch(&b, prog_a, buf_b.id, 64));
    let prog_b = build(&b);
    unknown(launch(&b, prog_b, buf_a.id, 64));
    unknown(b.free_buffer(buf_a.id));
    unknown(b.call(Request::FreeProgram { id: prog_a }));
    // B's own launch works and did not touch A's data.
    assert!(launch(&b, prog_b, buf_b.id, 64).is_ok());
    assert_eq!(
        i32::from_ne_bytes(buf_a.map.lock()[..4].try_into().unwrap()),
        7
    );
    assert_eq!(
        i32::from_ne_bytes(buf_b.map.lock()[..4].try_into().unwrap()),
        7
    );

    // Freed means gone.
    a.free_buffer(buf_a.id).expect("free");
    unknown(a.free_buffer(buf_a.id));
    unknown(launch(&a, prog_a, buf_a.id, 64));
    alive(&mut d, &sock);
}

#[test]
fn bad_requests_get_errors_not_crashes() {
    let (mut d, sock) = start_gencld("bad");
    let c = Connection::connect_to(&sock).unwrap();
    let buf = c.create_buffer(256).unwrap();
    let prog = build(&c);
    let invalid = |r: Result<Response, ClientError>| match r {
        Err(ClientError::Service {
            code: ErrorCode::InvalidArgs,
            ..
        }) => {}
        other => panic!("expected InvalidArgs, got {other:?}"),
    };
    invalid(c.call(Request::CreateBuffer { size: 0 }).map(|r| r.0));
    invalid(
        c.call(Request::CreateBuffer { size: u64::MAX })
            .map(|r| r.0),
    );
    let base = Launch {
        tag: 0,
        queue: 0,
        context: 0,
        program: prog,
        kernel: 0,
        args: vec![
            WireArg::Buffer {
                id: buf.id,
                offset: 0,
            },
            WireArg::Bytes(vec![0; 4]),
        ],
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [64, 1, 1],
        local_size: [16, 1, 1],
    };
    let mut l = base.clone();
    l.kernel = 5;
    invalid(c.call(Request::Launch(Box::new(l))).map(|r| r.0));
    let mut l = base.clone();
    l.args.pop();
    invalid(c.call(Request::Launch(Box::new(l))).map(|r| r.0));
    let mut l = base.clone();
    l.args[1] = WireArg::Bytes(vec![0; 3]);
    invalid(c.call(Request::Launch(Box::new(l))).map(|r| r.0));
    let mut l = base.clone();
    l.work_dim = 9;
    invalid(c.call(Request::Launch(Box::new(l))).map(|r| r.0));
    let mut l = base.clone();
    l.local_size = [1024, 1, 1];
    invalid(c.call(Request::Launch(Box::new(l))).map(|r| r.0));
    let mut l = base.clone();
    l.global_offset = [u64::MAX, 0, 0];
    invalid(c.call(Request::Launch(Box::new(l))).map(|r| r.0));
    // Posted, as the ICD sends launches: the refusal comes back as the launch's completion,
    // and the answers of the requests after it stay in step.
    let mut l = base.clone();
    l.kernel = 5;
    invalid(c.launch_and_wait(l).map(|_| Response::Done));
    let extra = c
        .create_buffer(64)
        .expect("a request after a refused posted launch");
    c.free_buffer(extra.id).expect("free");
    // A second Hello is a protocol error too.
    match c.call(Request::Hello {
        version: PROTOCOL_VERSION,
    }) {
        Err(ClientError::Service {
            code: ErrorCode::BadHandshake,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    // Compile and link requests with untrusted modules and header names: a failed build each.
    let failed = |r: Result<(Response, _), ClientError>| match r {
        Ok((Response::BuildFailed { .. }, _)) => {}
        other => panic!("expected BuildFailed, got {other:?}"),
    };
    let mut truncated = 0x0723_0203u32.to_le_bytes().to_vec();
    truncated.extend([0x00, 0x02, 0x01, 0x00, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0]);
    truncated.extend(0x0005_0047u32.to_le_bytes());
    failed(c.call(Request::LinkPrograms {
        modules: vec![truncated, vec![1, 2, 3]],
        options: String::new(),
    }));
    failed(c.call(Request::LinkPrograms {
        modules: Vec::new(),
        options: String::new(),
    }));
    failed(c.call(Request::CompileProgram {
        source: protocol::ProgramSource::OpenClC("#include \"/etc/passwd\"".into()),
        options: String::new(),
        headers: vec![("/etc/passwd".into(), "int x;".into())],
    }));
    failed(c.call(Request::CompileProgram {
        source: protocol::ProgramSource::SpirV(vec![0; 40]),
        options: String::new(),
        headers: Vec::new(),
    }));
    // The connection still works after all that.
    assert!(c.launch_and_wait(base).is_ok());
    alive(&mut d, &sock);
}

/// The next reply on a raw socket: (call id, response).
fn read_frame(s: &mut UnixStream) -> Option<(u64, Response)> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).ok()?;
    let mut body = vec![0u8; u32::from_le_bytes(len) as usize];
    s.read_exact(&mut body).ok()?;
    let r: protocol::Reply = postcard::from_bytes(&body).ok()?;
    Some((r.id, r.response))
}

/// A call's frame, as the ICD writes it.
fn write_call(s: &mut UnixStream, id: u64, request: Request) {
    let body = postcard::to_stdvec(&protocol::Call { id, request }).unwrap();
    s.write_all(&(body.len() as u32).to_le_bytes()).unwrap();
    s.write_all(&body).unwrap();
}

#[test]
fn garbage_on_the_socket_gets_an_error_or_a_closed_connection() {
    let (mut d, sock) = start_gencld("garbage");
    let good = Connection::connect_to(&sock).unwrap();
    let buf = good.create_buffer(64).unwrap();

    // A well-framed message that is not a call, not even its id: an error answer that
    // answers no call, and the connection lives on.
    let mut s = UnixStream::connect(&sock).unwrap();
    s.write_all(&[5, 0, 0, 0, 0xff, 0xfe, 0xfd, 0xfc, 0xfb])
        .unwrap();
    match read_frame(&mut s) {
        Some((
            protocol::NO_CALL,
            Response::Error {
                code: ErrorCode::Malformed,
                ..
            },
        )) => {}
        other => panic!("expected Malformed, got {other:?}"),
    }
    // A call whose request does not decode: the error under its id.
    s.write_all(&[4, 0, 0, 0, 42, 0xfd, 0xfc, 0xfb]).unwrap();
    match read_frame(&mut s) {
        Some((
            42,
            Response::Error {
                code: ErrorCode::Malformed,
                ..
            },
        )) => {}
        other => panic!("expected Malformed for call 42, got {other:?}"),
    }
    // Requests before Hello are refused.
    write_call(&mut s, 7, Request::CreateBuffer { size: 4096 });
    match read_frame(&mut s) {
        Some((
            7,
            Response::Error {
                code: ErrorCode::BadHandshake,
                ..
            },
        )) => {}
        other => panic!("expected BadHandshake for call 7, got {other:?}"),
    }
    // An absurd length: the service hangs up.
    s.write_all(&u32::MAX.to_le_bytes()).unwrap();
    assert!(read_frame(&mut s).is_none(), "connection closed");

    // Random bytes of every kind from several connections.
    let mut seed = 0x1234_5678_9abc_def0u64;
    for round in 0..20 {
        let mut s = UnixStream::connect(&sock).unwrap();
        let n = 1 + round * 13;
        let bytes: Vec<u8> = (0..n)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        let _ = s.write_all(&bytes);
        drop(s); // truncated frames end just that connection
    }
    // A client that vanishes mid-frame.
    let mut s = UnixStream::connect(&sock).unwrap();
    s.write_all(&[100, 0, 0, 0, 1, 2]).unwrap();
    drop(s);

    // Everyone else is unaffected.
    alive(&mut d, &sock);
    assert!(good.create_buffer(64).is_ok());
    good.free_buffer(buf.id)
        .expect("the good client's objects are intact");
}

#[test]
fn protocol_version_mismatch_is_refused() {
    let (_d, sock) = start_gencld("version");
    let mut s = UnixStream::connect(&sock).unwrap();
    write_call(
        &mut s,
        1,
        Request::Hello {
            version: PROTOCOL_VERSION + 1,
        },
    );
    match read_frame(&mut s) {
        Some((
            1,
            Response::Error {
                code: ErrorCode::BadHandshake,
                ..
            },
        )) => {}
        other => panic!("{other:?}"),
    }
}

/// Program binaries through the service: a built program's binary builds again and runs; bytes
/// that are not a binary, or a forged binary whose code is garbage, cost only that build or that
/// launch, and the service goes on serving.
#[test]
fn program_binaries_round_trip_and_forged_ones_fail_cleanly() {
    let (mut d, sock) = start_gencld("bin");
    let c = Connection::connect_to(&sock).unwrap();
    let prog = build(&c);
    let bytes = match c.call(Request::ProgramBinary { id: prog }).unwrap().0 {
        Response::Binary { bytes } => bytes,
        other => panic!("{other:?}"),
    };
    assert_eq!(&bytes[..8], b"GENCLBIN");
    let rebuild = |bytes: Vec<u8>| {
        c.call(Request::BuildProgram {
            source: protocol::ProgramSource::Binary(bytes),
            options: String::new(),
            spec_constants: Vec::new(),
        })
        .unwrap()
        .0
    };
    let prog2 = match rebuild(bytes.clone()) {
        Response::Built { id, kernels, .. } => {
            assert_eq!(kernels[0].name, "add");
            assert_eq!(kernels[0].args.len(), 2);
            id
        }
        other => panic!("{other:?}"),
    };
    let buf = c.create_buffer(64 * 4).unwrap();
    assert!(launch(&c, prog2, buf.id, 64).is_ok());
    assert!(buf
        .map
        .lock()
        .chunks(4)
        .all(|w| i32::from_ne_bytes(w.try_into().unwrap()) == 7));

    // Not a binary: a build failure with the reason in the log.
    match rebuild(b"\x7fELF and more".to_vec()) {
        Response::BuildFailed { log, .. } => assert!(log.contains("not a gencl program binary")),
        other => panic!("{other:?}"),
    }
    // A forged binary: the real descriptor, the code replaced by bytes that are no Gen9
    // program. It builds (the service cannot know what code means until it runs), and its
    // launch fails with an error instead of taking the service down.
    let mut program = gencl_jit::binary::decode(&bytes).unwrap();
    let n = program.kernels[0].isa.len();
    program.kernels[0].isa = (0..n).map(|i| (i * 37 + 11) as u8).collect();
    let forged = gencl_jit::binary::encode(&program);
    let bad = match rebuild(forged) {
        Response::Built { id, .. } => id,
        other => panic!("{other:?}"),
    };
    match launch(&c, bad, buf.id, 64) {
        Err(ClientError::Service {
            code: ErrorCode::LaunchFailed,
            ..
        }) => {}
        other => panic!("expected LaunchFailed, got {other:?}"),
    }
    unknown(c.call(Request::ProgramBinary { id: 999_999 }).map(|r| r.0));
    // The good program still runs after the bad one.
    let r = launch(&c, prog2, buf.id, 64);
    assert!(r.is_ok(), "{r:?}");
    alive(&mut d, &sock);
}

/// Many clients at once: 32 connections, each its own VM, each 1,000 launches of a kernel
/// that adds the launch's number to its buffer; half wait for every launch, half queue all
/// 1,000 and wait at the end (8 in flight per client at most). Every client finishes, every
/// buffer holds the exact sum, and gencld serves a new client afterwards. The blocking
/// clients' round trips are printed as percentiles per client (figures, not assertions: the
/// machine is shared).
#[test]
fn thirty_two_clients_of_a_thousand_launches_each_all_finish_exactly() {
    const CLIENTS: usize = 32;
    const LAUNCHES: u64 = 1000;
    const N: u64 = 64;
    let (mut d, sock) = start_gencld("many");
    let start = std::time::Instant::now();
    let results: Vec<(usize, Vec<u128>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let sock = sock.clone();
                s.spawn(move || {
                    let c = Connection::connect_to(&sock).expect("connect");
                    let prog = build(&c);
                    let buf = c.create_buffer(N * 4).expect("buffer");
                    let launch = |b: u64| add(prog, buf.id, N, b as i32);
                    let mut latencies = Vec::new();
                    if client % 2 == 0 {
                        for b in 1..=LAUNCHES {
                            let t = std::time::Instant::now();
                            c.launch_and_wait(launch(b)).expect("launch");
                            latencies.push(t.elapsed().as_micros());
                        }
                    } else {
                        let (tx, rx) = std::sync::mpsc::channel();
                        for b in 1..=LAUNCHES {
                            let tx = tx.clone();
                            c.launch(launch(b), move |r| {
                                let _ = tx.send(r.is_ok());
                            })
                            .expect("queued");
                        }
                        let ok = rx.iter().take(LAUNCHES as usize).filter(|&ok| ok).count();
                        assert_eq!(ok as u64, LAUNCHES, "client {client}: launches failed");
                    }
                    let sum = (LAUNCHES * (LAUNCHES + 1) / 2) as i32;
                    let got = ints(&buf);
                    assert_eq!(got, vec![sum; N as usize], "client {client}");
                    (client, latencies)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wall = start.elapsed();
    eprintln!(
        "{CLIENTS} clients × {LAUNCHES} launches in {:.2} s ({:.0} launches/s)",
        wall.as_secs_f64(),
        (CLIENTS as f64 * LAUNCHES as f64) / wall.as_secs_f64()
    );
    for (client, mut l) in results.into_iter().filter(|(_, l)| !l.is_empty()) {
        l.sort_unstable();
        let p = |q: f64| l[((l.len() - 1) as f64 * q) as usize];
        eprintln!(
            "client {client:2}: round trip µs p50 {} p90 {} p99 {} max {}",
            p(0.5),
            p(0.9),
            p(0.99),
            l[l.len() - 1]
        );
    }
    alive(&mut d, &sock);
}

/// What gencld holds for itself, from /proc: open fds (every GEM object of the emulated
/// device is a memfd), threads (two per client: its requests and its retiring), and mappings
/// of GEM objects (`memfd:gencl-gem`; the C library's own mappings, its per-thread malloc
/// arenas, stay after the threads that made them, up to its bound, and are not counted).
fn held(pid: u32) -> (usize, usize, usize) {
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let threads = status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps"))
        .unwrap()
        .lines()
        .filter(|l| l.contains("memfd:gencl-gem"))
        .count();
    (fds, threads, maps)
}

/// What gencld's own counters say, asked on a connection of its own: (clients connected, the
/// GEM objects, VMs and contexts it holds in the kernel driver, its program cache's entries
/// and the files in the cache's folder).
fn service_state(sock: &Path) -> (usize, protocol::Held, u64, usize) {
    let c = Connection::connect_to(sock).unwrap();
    let Response::Stats(s) = c.call(Request::Stats).unwrap().0 else {
        panic!("no stats")
    };
    let files = std::fs::read_dir(&s.program_cache.dir)
        .map(|d| d.count())
        .unwrap_or(0);
    (s.clients.len(), s.held, s.program_cache.entries, files)
}

/// Clients killed with SIGKILL in the middle of a launch storm (C programs on the ICD loader,
/// through gencld) leave nothing behind in gencld: its fds, threads and mappings, and by its
/// own counters its clients, GEM objects, VMs, contexts and program-cache entries (no
/// half-written entry among the cache's files) come back to what they were with no client,
/// and it serves the next client.
#[test]
fn clients_killed_mid_storm_leave_nothing_behind() {
    let cache = std::env::temp_dir().join(format!("gencl-kill-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let (mut d, sock) = start_gencld_with(
        "kill",
        &[("CACHE_DIRECTORY", cache.to_str().unwrap())],
        Stdio::null(),
    );
    let dir = sock.parent().unwrap().to_path_buf();
    let profile = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .to_path_buf();
    std::fs::create_dir_all(dir.join("vendors")).unwrap();
    std::fs::write(
        dir.join("vendors/gencl.icd"),
        profile.join("libgencl.so").display().to_string(),
    )
    .unwrap();
    let exe = dir.join("launch");
    let cc = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/bench/launch.c"
        ))
        .arg("-lOpenCL")
        .output()
        .expect("cc");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let client = |batch: &str| {
        let mut c = Command::new(&exe);
        c.args([batch, "20"])
            .env("OCL_ICD_VENDORS", dir.join("vendors"))
            .env("GENCL_MODE", "service")
            .env("GENCL_SOCKET", &sock)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    // One client to its end first: whatever gencld keeps for good (its libraries, the
    // compiler's first use) is then in the baseline.
    assert!(client("200").status().unwrap().success());
    let pid = d.0.id();
    let settle = |want: (usize, usize, usize)| {
        let mut now = held(pid);
        for _ in 0..200 {
            if now == want {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            now = held(pid);
        }
        now
    };
    // The baseline once nothing moves for half a second (the first client's connection is
    // still being taken down right after it exits).
    let mut baseline = held(pid);
    let mut still = 0;
    while still < 10 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let now = held(pid);
        still = if now == baseline { still + 1 } else { 0 };
        baseline = now;
    }
    let service_baseline = service_state(&sock);
    // Ten storms, each killed at its own moment between 30 and 800 ms in (a fixed sequence:
    // the same test every run).
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut caught = 0;
    for _ in 0..10 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut child = client("1000000").spawn().expect("client");
        std::thread::sleep(std::time::Duration::from_millis(30 + x % 770));
        // Killed while gencld holds its objects and threads (most kills; the earliest may
        // land before the connection).
        let during = held(pid);
        if during.0 > baseline.0 && during.1 > baseline.1 && during.2 > baseline.2 {
            caught += 1;
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(caught >= 5, "only {caught} of 10 kills landed mid-storm");
    assert_eq!(
        settle(baseline),
        baseline,
        "(fds, threads, mappings) left in gencld"
    );
    // The asking connection is the one client; what it holds (a VM and a context) is in
    // the baseline too. The one program the storms build is the cache's one entry.
    let mut state = service_state(&sock);
    for _ in 0..100 {
        if state == service_baseline {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        state = service_state(&sock);
    }
    assert_eq!(
        state, service_baseline,
        "(clients, held, cache entries, cache files) after the kills"
    );
    assert_eq!(state.0, 1, "only the asking client");
    assert_eq!((state.1.vms, state.1.contexts), (1, 1), "the asker's own");
    assert_eq!(
        (state.2, state.3),
        (1, 1),
        "one whole cache entry, no partial file"
    );
    assert!(
        client("200").status().unwrap().success(),
        "served after the kills"
    );
    alive(&mut d, &sock);
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn top_shows_each_client_its_objects_launches_and_the_gpu() {
    let (_d, sock) = start_gencld("top");
    let a = Connection::connect_to(&sock).unwrap();
    let buf = a.create_buffer(64 * 4).unwrap();
    let prog = build(&a);
    // Two launches from the client's queue 5, one from its queue 9.
    for queue in [5, 9, 5] {
        let l = Launch {
            queue,
            ..add(prog, buf.id, 64, 7)
        };
        a.launch_and_wait(l).unwrap();
    }
    let b = Connection::connect_to(&sock).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gencl"))
        .args(["top", "-n", "1", "--socket"])
        .arg(&sock)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Three clients: A, B and `gencl top` itself.
    assert!(text.contains("3 clients"), "{text}");
    // The rows under the header, in connection order (ids count every connection, the
    // start-up probe's too): id pid up buffers MiB programs builds launches finished failed
    // launch/s.
    let table: Vec<Vec<&str>> = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("id"))
        .skip(1)
        .take_while(|l| !l.starts_with("program cache"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let rows: Vec<&Vec<&str>> = table.iter().filter(|r| r[0] != "queue").collect();
    assert_eq!(rows.len(), 3, "{text}");
    // Under A, its queues, the most recently active last: queue, id, (n in flight),
    // launches, finished, failed.
    let queues: Vec<&Vec<&str>> = table.iter().filter(|r| r[0] == "queue").collect();
    assert_eq!(queues.len(), 2, "{text}");
    assert_eq!(
        queues[0][..],
        ["queue", "9", "(0", "in", "flight)", "1", "1", "0"],
        "{text}"
    );
    assert_eq!(
        queues[1][..],
        ["queue", "5", "(0", "in", "flight)", "2", "2", "0"],
        "{text}"
    );
    let me = std::process::id().to_string();
    assert_eq!(rows[0][1], me, "{text}");
    assert_eq!(
        rows[0][3..10],
        ["1", "0.0", "1", "1", "3", "3", "0"],
        "{text}"
    );
    assert_eq!(rows[1][1], me, "{text}");
    assert_eq!(
        rows[1][3..10],
        ["0", "0.0", "0", "0", "0", "0", "0"],
        "{text}"
    );
    assert_ne!(rows[2][1], me, "gencl top's own connection: {text}");
    assert!(text.contains("program cache: "), "{text}");
    let gpu = text
        .lines()
        .find(|l| l.starts_with("GPU model: "))
        .unwrap_or_else(|| panic!("{text}"));
    let threads: u64 = gpu["GPU model: ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // Three launches of 64 items in SIMD8 or SIMD16 threads.
    assert!((12..=24).contains(&threads), "{gpu}");
    // A VM and a context for each of the three clients.
    assert!(text.contains(" 3 VMs, 3 contexts"), "{text}");
    drop(b);
}

const IMAGES: &str = "kernel void w(write_only image2d_t i, sampler_t s, read_only image2d_t r) {
    write_imagef(i, (int2)(get_global_id(0), 0), read_imagef(r, s, (float2)(0.5f, 0.5f)));
}";

/// Image and sampler arguments are the client's description of memory: an image that does
/// not fit its buffer, an unknown format, a tiled layout, a size of 0, a sampler with an
/// unknown mode, an image for a buffer: each an InvalidArgs error, the service unharmed.
#[test]
fn hostile_image_arguments_get_errors() {
    use gencl::submit::images::{ImageSurface, ImageType, SamplerValue};
    let (mut d, sock) = start_gencld("images");
    let c = Connection::connect_to(&sock).unwrap();
    let buf = c.create_buffer(4096).unwrap();
    let prog = match c
        .call(Request::BuildProgram {
            source: protocol::ProgramSource::OpenClC(IMAGES.into()),
            options: String::new(),
            spec_constants: Vec::new(),
        })
        .unwrap()
        .0
    {
        Response::Built { id, .. } => id,
        other => panic!("build answered {other:?}"),
    };
    // 16 x 16 RGBA8, 64-byte rows: 1024 bytes.
    let surface = ImageSurface {
        ty: ImageType::D2,
        format: 0x0C7,
        width: 16,
        height: 16,
        depth: 1,
        row_pitch: 64,
        qpitch: 0,
        tiling: 0,
        channel_order: 0x10B5,
        channel_data_type: 0x10D2,
    };
    let image = |offset: u64, surface: ImageSurface| WireArg::Image {
        id: buf.id,
        offset,
        surface,
    };
    let sampler = SamplerValue {
        normalized: true,
        addressing: 0x1132,
        filter: 0x1140,
    };
    let base = Launch {
        tag: 0,
        queue: 0,
        context: 0,
        program: prog,
        kernel: 0,
        args: vec![
            image(0, surface),
            WireArg::Sampler(sampler),
            image(1024, surface),
        ],
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [16, 1, 1],
        local_size: [16, 1, 1],
    };
    let invalid = |l: Launch, what: &str| match c.call(Request::Launch(Box::new(l))).map(|r| r.0) {
        Err(ClientError::Service {
            code: ErrorCode::InvalidArgs,
            ..
        }) => {}
        other => panic!("{what}: expected InvalidArgs, got {other:?}"),
    };
    let with = |i: usize, a: WireArg| {
        let mut l = base.clone();
        l.args[i] = a;
        l
    };
    invalid(with(2, image(3073, surface)), "an image past its buffer");
    invalid(
        with(
            0,
            image(
                0,
                ImageSurface {
                    height: 65,
                    ..surface
                },
            ),
        ),
        "65 rows of 64 bytes in 4096",
    );
    invalid(
        with(
            0,
            image(
                0,
                ImageSurface {
                    row_pitch: 4096,
                    ..surface
                },
            ),
        ),
        "a pitch past the buffer",
    );
    invalid(
        with(
            0,
            image(
                0,
                ImageSurface {
                    format: 0x1FF,
                    ..surface
                },
            ),
        ),
        "an unknown format",
    );
    invalid(
        with(
            0,
            image(
                0,
                ImageSurface {
                    tiling: 3,
                    ..surface
                },
            ),
        ),
        "a tiled image",
    );
    invalid(
        with(
            0,
            image(
                0,
                ImageSurface {
                    width: 0,
                    ..surface
                },
            ),
        ),
        "a width of 0",
    );
    invalid(
        with(
            0,
            image(
                0,
                ImageSurface {
                    ty: ImageType::D3,
                    depth: u32::MAX,
                    qpitch: 16,
                    ..surface
                },
            ),
        ),
        "a 3D image of 2^32 slices",
    );
    invalid(
        with(
            0,
            image(
                0,
                ImageSurface {
                    ty: ImageType::D3,
                    depth: u32::MAX,
                    qpitch: u32::MAX - 3,
                    row_pitch: u32::MAX,
                    ..surface
                },
            ),
        ),
        "a 3D image whose extent overflows 64 bits",
    );
    invalid(
        with(
            0,
            WireArg::Buffer {
                id: buf.id,
                offset: 0,
            },
        ),
        "a buffer for an image",
    );
    invalid(with(1, WireArg::Bytes(vec![0; 8])), "bytes for a sampler");
    match c.launch_and_wait(with(
        1,
        WireArg::Sampler(SamplerValue {
            addressing: 7,
            ..sampler
        }),
    )) {
        Err(_) => {}
        Ok(l) => panic!("a sampler of addressing mode 7 ran: {l:?}"),
    }
    // The real thing: RGBA8 (0.25, 0.5, 0.75, 1) read through the sampler and written
    // 16 times.
    for t in buf.map.lock()[1024..2048].chunks_mut(4) {
        t.copy_from_slice(&[64, 128, 191, 255]);
    }
    assert!(c.launch_and_wait(base).is_ok());
    assert_eq!(
        buf.map.lock()[..64],
        [64u8, 128, 191, 255].repeat(16)[..],
        "row 0 of the written image"
    );
    alive(&mut d, &sock);
}

/// A program that keeps the compiler busy for a good while (thirty kernels), with a
/// comment unique to this run so that no program cache holds it.
fn slow_source() -> String {
    let mut s = format!(
        "// {} {:?}\n",
        std::process::id(),
        std::time::SystemTime::now()
    );
    for k in 0..30 {
        s.push_str(&format!(
            "kernel void k{k}(global float *a, global const float *b, int n) {{\
             float x = b[get_global_id(0)];\
             for (int i = 0; i < 16; i++) x = sin(x) * {k}.5f + cos(x * x + i);\
             a[get_global_id(0)] = x; }}\n"
        ));
    }
    s
}

/// While one thread's build compiles, another thread of the same process goes on with its
/// buffers and launches: no lock is held across a round trip, and the service answers a
/// call as soon as it is done, in any order (the build's reply comes last).
fn requests_go_on_beside_a_build(c: std::sync::Arc<Connection>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let program = build(&c);
    let building = std::sync::Arc::new(AtomicBool::new(true));
    let (c2, flag) = (c.clone(), building.clone());
    let builder = std::thread::spawn(move || {
        let r = c2.call(Request::BuildProgram {
            source: protocol::ProgramSource::OpenClC(slow_source()),
            options: String::new(),
            spec_constants: Vec::new(),
        });
        flag.store(false, Ordering::Release);
        r
    });
    // The build goes out first.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let mut beside = 0;
    while building.load(Ordering::Acquire) {
        let buf = c.create_buffer(64 * 4).expect("a buffer beside the build");
        launch(&c, program, buf.id, 64).expect("a launch beside the build");
        let first = i32::from_ne_bytes(buf.map.lock()[..4].try_into().unwrap());
        assert_eq!(first, 7, "the launch ran on the buffer");
        c.free_buffer(buf.id).unwrap();
        if building.load(Ordering::Acquire) {
            beside += 1;
        }
    }
    match builder.join().unwrap().expect("the slow build").0 {
        Response::Built { kernels, .. } => assert_eq!(kernels.len(), 30),
        other => panic!("the slow build answered {other:?}"),
    }
    // Held behind the build, the other thread would finish one round at most.
    assert!(
        beside >= 5,
        "only {beside} rounds of buffer and launch finished beside the build"
    );
}

#[test]
fn a_build_does_not_hold_up_its_clients_other_requests_through_gencld() {
    let (_d, sock) = start_gencld("beside");
    let c = Connection::connect_to(&sock).unwrap();
    requests_go_on_beside_a_build(std::sync::Arc::new(c));
}

#[test]
fn a_build_does_not_hold_up_its_clients_other_requests_embedded() {
    let c = Connection::embedded().unwrap();
    requests_go_on_beside_a_build(std::sync::Arc::new(c));
}

/// Each OpenCL context's launches run on a GPU context of the client's own
/// (`Launch::context`): made on its first launch, gone with `ReleaseContext`, and a client
/// cannot hold more than `MAX_STREAMS` at once.
#[test]
fn each_context_gets_a_gpu_context_until_it_is_released() {
    let (_d, sock) = start_gencld("streams");
    let c = Connection::connect_to(&sock).unwrap();
    let buf = c.create_buffer(64 * 4).unwrap();
    let prog = build(&c);
    // The service's GPU contexts once only this client and the asking connection are
    // there: another connection's (start_gencld's probe, the previous question) goes away
    // after it closes, in the service's time; read twice alike, 20 ms apart.
    let held = |sock: &Path| {
        let mut seen = None;
        for _ in 0..500 {
            let (clients, h, ..) = service_state(sock);
            if clients == 2 && seen == Some(h.contexts) {
                return h.contexts;
            }
            seen = (clients == 2).then_some(h.contexts);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!("the service's clients never settled at this one and the asker");
    };
    // The asking connection's context and this client's default one.
    let base = held(&sock);
    for context in [7, 8, 9, 7] {
        let l = Launch {
            context,
            ..add(prog, buf.id, 64, 1)
        };
        c.launch_and_wait(l).unwrap();
    }
    assert_eq!(held(&sock), base + 3, "one GPU context per stream");
    for context in [7, 8, 9, 12345, 0] {
        // Releasing one never launched on, or the default, is harmless.
        c.call(Request::ReleaseContext { context }).unwrap();
    }
    assert_eq!(held(&sock), base, "released");
    // The adds all ran: 4 launches of +1.
    assert!(buf.map.lock()[..64 * 4]
        .chunks(4)
        .all(|w| i32::from_ne_bytes(w.try_into().unwrap()) == 4));
    // At most MAX_STREAMS live streams a client (the default one among them).
    let max = gencl::service::gpu::MAX_STREAMS as u64;
    for context in 1..max {
        let l = Launch {
            context,
            ..add(prog, buf.id, 16, 0)
        };
        c.launch_and_wait(l).unwrap();
    }
    let over = Launch {
        context: max,
        ..add(prog, buf.id, 16, 0)
    };
    match c.launch_and_wait(over) {
        Err(ClientError::Service { code, message }) => {
            assert_eq!(code, ErrorCode::LaunchFailed);
            assert!(message.contains("OpenCL contexts"), "{message}");
        }
        other => panic!("a stream past the bound: {other:?}"),
    }
    c.call(Request::ReleaseContext { context: 1 }).unwrap();
    c.launch_and_wait(Launch {
        context: max,
        ..add(prog, buf.id, 16, 0)
    })
    .unwrap();
}

/// A launch its client waits for at once (`Request::PostWaited`, what a blocking call sends):
/// its `Completed` comes under its tag with the kernel's results in the client's memory,
/// launch after launch (the service retires the short ones on the connection's thread), and
/// one the service refuses fails with the refusal's code.
#[test]
fn waited_launches_through_gencld_complete_with_their_results() {
    let (_d, sock) = start_gencld("waited");
    let c = Connection::connect_to(&sock).unwrap();
    let program = build(&c);
    let buf = c.create_buffer(64 * 4).unwrap();
    for round in 1..=5 {
        let (tx, rx) = std::sync::mpsc::channel();
        c.launch_waited(add(program, buf.id, 64, 7), move |r| {
            tx.send((r, std::thread::current().id())).unwrap();
        })
        .expect("posted");
        // Nobody else reads the socket: this thread read its own `Completed`, so the launch
        // is done when the call returns, heard on this thread (not handed over by the
        // connection's background thread, a wake-up more).
        let (r, heard_on) = rx.try_recv().expect("done before launch_waited returned");
        r.expect("launch");
        assert_eq!(heard_on, std::thread::current().id());
        let m = buf.map.lock();
        for w in m.chunks(4) {
            assert_eq!(i32::from_ne_bytes(w.try_into().unwrap()), 7 * round);
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    c.launch_waited(add(program + 1000, buf.id, 64, 7), move |r| {
        tx.send(r).unwrap();
    })
    .expect("posted");
    unknown(rx.recv().unwrap());
}

/// Threads sharing one connection, each with calls and waited launches in flight at once:
/// whichever thread reads the socket hands the others their answers, and every answer and
/// every result is the right one (no answer lost when the reading thread changes).
#[test]
fn threads_sharing_a_connection_each_get_their_own_answers() {
    let (_d, sock) = start_gencld("shared-conn");
    let c = std::sync::Arc::new(Connection::connect_to(&sock).unwrap());
    let program = build(&c);
    let workers: Vec<_> = (0..4)
        .map(|t| {
            let c = c.clone();
            std::thread::spawn(move || {
                let buf = c.create_buffer(64 * 4).unwrap();
                for round in 1..=100 {
                    let (tx, rx) = std::sync::mpsc::channel();
                    c.launch_waited(add(program, buf.id, 64, t + 1), move |r| {
                        tx.send(r).unwrap();
                    })
                    .expect("posted");
                    rx.recv().unwrap().expect("launch");
                    // A call between launches: its reply among the others' completions.
                    let extra = c.create_buffer(4096).unwrap();
                    c.free_buffer(extra.id).unwrap();
                    let m = buf.map.lock();
                    for w in m.chunks(4) {
                        assert_eq!(i32::from_ne_bytes(w.try_into().unwrap()), (t + 1) * round);
                    }
                }
                // Posted launches too, all read by whoever reads.
                let (tx, rx) = std::sync::mpsc::channel();
                for _ in 0..20 {
                    let tx = tx.clone();
                    c.launch(add(program, buf.id, 64, 1), move |r| {
                        tx.send(r).unwrap();
                    })
                    .expect("posted");
                }
                for _ in 0..20 {
                    rx.recv().unwrap().expect("launch");
                }
                let m = buf.map.lock();
                assert_eq!(
                    i32::from_ne_bytes(m[..4].try_into().unwrap()),
                    (t + 1) * 100 + 20
                );
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a thread's answers");
    }
}

/// gencld's connection thread does not retire a waited launch of a kernel whose last launch
/// took longer than `HOLD_AT_MOST` (1 ms): the client's request sent while the kernel runs is
/// answered before the kernel's `Completed`, not after it.
#[test]
fn a_long_waited_launch_does_not_hold_up_its_clients_other_requests() {
    let (_d, sock) = start_gencld("long-waited");
    let mut s = UnixStream::connect(&sock).unwrap();
    write_call(
        &mut s,
        1,
        Request::Hello {
            version: PROTOCOL_VERSION,
        },
    );
    assert!(matches!(
        read_frame(&mut s),
        Some((1, Response::Welcome { .. }))
    ));
    let spin = "kernel void spin(global int *a, int n) {
        int x = 0;
        for (int i = 0; i < n; i++) x = x * 3 + i;
        a[get_global_id(0)] = x;
    }";
    write_call(
        &mut s,
        2,
        Request::BuildProgram {
            source: protocol::ProgramSource::OpenClC(spin.into()),
            options: String::new(),
            spec_constants: Vec::new(),
        },
    );
    let Some((2, Response::Built { id: program, .. })) = read_frame(&mut s) else {
        panic!("build");
    };
    write_call(&mut s, 3, Request::CreateBuffer { size: 4096 });
    let Some((3, Response::Buffer { id: buffer, .. })) = read_frame(&mut s) else {
        panic!("buffer");
    };
    let spin_launch = |tag: u64| Launch {
        tag,
        args: vec![
            WireArg::Buffer {
                id: buffer,
                offset: 0,
            },
            WireArg::Bytes(10_000_000i32.to_ne_bytes().to_vec()),
        ],
        ..add(program, buffer, 16, 0)
    };
    // Once, so that the service knows the kernel's time.
    let t = std::time::Instant::now();
    write_call(&mut s, 0, Request::PostWaited(Box::new(spin_launch(8))));
    match read_frame(&mut s) {
        Some((protocol::NO_CALL, Response::Completed { tag: 8, result })) => {
            result.expect("first spin")
        }
        other => panic!("{other:?}"),
    };
    let took = t.elapsed();
    assert!(
        took > std::time::Duration::from_millis(40),
        "the kernel must outlast the pause below: {took:?}"
    );
    write_call(&mut s, 0, Request::PostWaited(Box::new(spin_launch(9))));
    // The connection's thread has read the launch by then (it is quiet on the socket).
    std::thread::sleep(std::time::Duration::from_millis(20));
    write_call(&mut s, 4, Request::CreateBuffer { size: 4096 });
    match read_frame(&mut s) {
        Some((4, Response::Buffer { .. })) => {}
        other => panic!("the buffer is answered first, got {other:?}"),
    }
    match read_frame(&mut s) {
        Some((protocol::NO_CALL, Response::Completed { tag: 9, result })) => {
            result.expect("second spin");
        }
        other => panic!("{other:?}"),
    }
}

/// 2,000 short launches posted at once, each adding its own number: every one is reported,
/// in the order it was queued (the retiring thread sends the completions of a run of short
/// launches together, `service::retire`), and the buffer holds their exact sum.
fn posted_launches_are_reported_in_order(c: &Connection) {
    const LAUNCHES: i32 = 2000;
    const N: u64 = 32;
    let prog = build(c);
    let buf = c.create_buffer(N * 4).expect("buffer");
    let order = std::sync::Arc::new(parking_lot::Mutex::new(Vec::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    for b in 1..=LAUNCHES {
        let (order, tx) = (order.clone(), tx.clone());
        c.launch(add(prog, buf.id, N, b), move |r| {
            order.lock().push(b);
            let _ = tx.send(r.is_ok());
        })
        .expect("queued");
    }
    let ok = rx.iter().take(LAUNCHES as usize).filter(|&ok| ok).count();
    assert_eq!(ok, LAUNCHES as usize, "launches failed");
    assert_eq!(*order.lock(), (1..=LAUNCHES).collect::<Vec<_>>());
    let got = ints(&buf);
    assert_eq!(got, vec![LAUNCHES * (LAUNCHES + 1) / 2; N as usize]);
}

#[test]
fn posted_launches_are_reported_in_order_through_gencld() {
    let (mut d, sock) = start_gencld("order");
    posted_launches_are_reported_in_order(&Connection::connect_to(&sock).expect("connect"));
    alive(&mut d, &sock);
}

#[test]
fn posted_launches_are_reported_in_order_embedded() {
    posted_launches_are_reported_in_order(&Connection::embedded().expect("embedded"));
}
