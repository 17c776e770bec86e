//! End to end through the ICD loader, as users run gencl: clinfo, a C
//! program built against the Khronos headers and -lOpenCL, and pyopencl
//! (from PyPI, set up by scripts/setup.sh) cross-checked against NumPy and
//! PoCL — each with the service embedded in the application and through
//! `gencld` on its socket.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// target/<profile>, where the build put libgencl.so and gencl.icd.
fn out_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(|d| d.parent()).unwrap().to_path_buf()
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gencl-e2e-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A vendors folder holding gencl's .icd (and PoCL's, when asked).
fn vendors(tag: &str, with_pocl: bool) -> PathBuf {
    let icd = out_dir().join("gencl.icd");
    assert!(
        icd.exists(),
        "{} missing: build the cdylib first (cargo build -p gencl)",
        icd.display()
    );
    let lib = out_dir().join("libgencl.so");
    assert!(lib.exists(), "{} missing", lib.display());
    let d = scratch(tag);
    std::fs::write(d.join("gencl.icd"), format!("{}\n", lib.display())).unwrap();
    if with_pocl {
        let pocl = Path::new("/etc/OpenCL/vendors/pocl.icd");
        assert!(
            pocl.exists(),
            "PoCL is not installed (Debian package pocl-opencl-icd)"
        );
        std::fs::copy(pocl, d.join("pocl.icd")).unwrap();
    }
    d
}

fn check(out: Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// gencld on a socket of its own, stopped on drop.
struct Service {
    child: Child,
    socket: PathBuf,
}

impl Service {
    fn start(tag: &str) -> Service {
        Self::start_with(tag, &[])
    }

    fn start_with(tag: &str, env: &[(&str, &std::ffi::OsStr)]) -> Service {
        let socket = scratch(tag).join("gencld.sock");
        let child = Command::new(env!("CARGO_BIN_EXE_gencld"))
            .arg("--socket")
            .arg(&socket)
            .envs(env.iter().copied())
            .spawn()
            .expect("start gencld");
        let t = Instant::now();
        while !socket.exists() {
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "gencld did not create {}",
                socket.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Service { child, socket }
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn mode(cmd: &mut Command, svc: Option<&Service>) {
    match svc {
        Some(s) => cmd
            .env("GENCL_MODE", "service")
            .env("GENCL_SOCKET", &s.socket),
        None => cmd.env("GENCL_MODE", "embedded"),
    };
}

#[test]
fn clinfo_lists_the_gencl_platform_and_device() {
    let v = vendors("clinfo", false);
    let out = check(
        Command::new("clinfo")
            .arg("-l")
            .env("OCL_ICD_VENDORS", &v)
            .output()
            .expect("clinfo (Debian package clinfo)"),
        "clinfo -l",
    );
    assert!(out.contains("Platform #0: gencl"), "{out}");
    assert!(out.contains("Intel(R) Gen9 HD Graphics GT2"), "{out}");
    // The full listing answers every query clinfo makes without the loader or clinfo failing.
    let full = check(
        Command::new("clinfo")
            .env("OCL_ICD_VENDORS", &v)
            .output()
            .unwrap(),
        "clinfo",
    );
    assert!(full.contains("cl_khr_icd"), "{full}");
    assert!(full.contains("0x8086"), "vendor id: {full}");
}

/// A C program of the repo built with gcc against the ICD loader, into a folder of `tag`'s
/// own: two tests writing one path race (ETXTBSY when one executes what the other is still
/// writing).
fn build_c(source: &str, tag: &str) -> PathBuf {
    let name = Path::new(source).file_stem().unwrap();
    let exe = scratch(&format!("cbuild-{tag}")).join(name);
    check(
        Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&exe)
            .arg(repo().join(source))
            .arg("-lOpenCL")
            .output()
            .expect("gcc"),
        &format!("gcc {source} -lOpenCL"),
    );
    exe
}

fn c_vadd(svc: Option<&Service>) {
    let exe = build_c(
        "examples/vadd.c",
        if svc.is_some() { "svc" } else { "embedded" },
    );
    let mut cmd = Command::new(&exe);
    cmd.env("OCL_ICD_VENDORS", vendors("cvadd", false));
    mode(&mut cmd, svc);
    let out = check(cmd.output().unwrap(), "examples/vadd.c");
    assert!(out.contains("vadd: 1048576 floats exact"), "{out}");
}

#[test]
fn c_program_vector_add_embedded() {
    c_vadd(None);
}

#[test]
fn c_program_vector_add_through_gencld() {
    let s = Service::start("csvc");
    c_vadd(Some(&s));
}

fn crosscheck(svc: Option<&Service>) {
    let py = repo().join("target/venv/bin/python");
    assert!(
        py.exists(),
        "{} missing: run scripts/setup.sh (pyopencl from PyPI)",
        py.display()
    );
    let mut cmd = Command::new(py);
    // No pyopencl binary cache: every build goes through gencl, and parallel tests do not race on it.
    cmd.arg(repo().join("tests/e2e/crosscheck.py"))
        .env("OCL_ICD_VENDORS", vendors("py", true))
        .env("PYOPENCL_NO_CACHE", "1");
    mode(&mut cmd, svc);
    let out = check(cmd.output().unwrap(), "tests/e2e/crosscheck.py");
    assert!(out.contains("ok  gencl vadd[0] vs PoCL"), "{out}");
    assert!(
        out.contains("ok  gencl vadd of 2^20 floats via pyopencl: 0 mismatches"),
        "{out}"
    );
    assert!(!out.contains("BAD"), "{out}");
}

#[test]
fn pyopencl_corpus_matches_numpy_and_pocl_embedded() {
    crosscheck(None);
}

#[test]
fn pyopencl_corpus_matches_numpy_and_pocl_through_gencld() {
    let s = Service::start("pysvc");
    crosscheck(Some(&s));
}

/// pyopencl's binary cache, on (its default): two runs of one program in two processes share a
/// cache folder; the second builds from the binary the first stored, and both are exact.
fn pyopencl_cache(svc: Option<&Service>, tag: &str) {
    let py = repo().join("target/venv/bin/python");
    let cache = scratch(tag).join("cache");
    let _ = std::fs::remove_dir_all(&cache);
    let run = || {
        let mut cmd = Command::new(&py);
        cmd.arg(repo().join("tests/e2e/pyopencl_cache.py"))
            .arg(&cache)
            .env("OCL_ICD_VENDORS", vendors(tag, false))
            .env_remove("PYOPENCL_NO_CACHE");
        mode(&mut cmd, svc);
        check(cmd.output().unwrap(), "tests/e2e/pyopencl_cache.py")
    };
    let first = run();
    assert!(first.contains("cached=False"), "{first}");
    let second = run();
    assert!(second.contains("cached=True"), "{second}");
    for out in [&first, &second] {
        assert!(out.contains("ok  low-level: 0 mismatches"), "{out}");
        assert!(out.contains("ok  Program.build: 0 mismatches"), "{out}");
    }
}

#[test]
fn pyopencl_with_its_binary_cache_runs_twice_embedded() {
    pyopencl_cache(None, "pycache");
}

#[test]
fn pyopencl_with_its_binary_cache_runs_twice_through_gencld() {
    let s = Service::start("pycachesvc");
    pyopencl_cache(Some(&s), "pycachesvc");
}

/// printf from kernels: gencl's lines are PoCL's (as a set: the order of work-items is each
/// implementation's), every one of them between the host's "before" and "after".
fn c_printf(svc: Option<&Service>) {
    let tag = if svc.is_some() { "svc" } else { "embedded" };
    let exe = build_c("driver/tests/c/printf.c", &format!("printf-{tag}"));
    let mut cmd = Command::new(&exe);
    cmd.env("OCL_ICD_VENDORS", vendors(&format!("printf-{tag}"), false));
    mode(&mut cmd, svc);
    let ours = check(cmd.output().unwrap(), "printf.c on gencl");
    let pocl = check(
        Command::new(&exe)
            .env("OCL_ICD_VENDORS", "/etc/OpenCL/vendors/pocl.icd")
            .output()
            .unwrap(),
        "printf.c on PoCL",
    );
    let lines: Vec<&str> = ours.lines().collect();
    assert_eq!(lines.first(), Some(&"host before"), "{ours}");
    assert_eq!(lines.last(), Some(&"host after"), "{ours}");
    assert_eq!(lines.len(), 2 + 5 * 4, "{ours}");
    let sorted = |s: &str| {
        let mut v: Vec<String> = s.lines().map(str::to_string).collect();
        v.sort();
        v
    };
    assert_eq!(
        sorted(&ours),
        sorted(&pocl),
        "gencl:\n{ours}\nPoCL:\n{pocl}"
    );
}

#[test]
fn c_program_printf_embedded() {
    c_printf(None);
}

#[test]
fn c_program_printf_through_gencld() {
    let s = Service::start("printf-svc");
    c_printf(Some(&s));
}

/// A client that ends with launches in flight, by exit or by SIGKILL, leaves gencld serving
/// the next client (its state goes with its connection; the answer to a launch whose client
/// is gone is dropped, not a crash).
#[test]
fn a_client_that_dies_with_work_in_flight_leaves_gencld_serving() {
    let mut s = Service::start("inflight");
    let exe = build_c("driver/tests/c/exit_in_flight.c", "inflight");
    for how in ["exit", "kill"] {
        let mut cmd = Command::new(&exe);
        cmd.arg(how)
            .env("OCL_ICD_VENDORS", vendors("inflight", false));
        mode(&mut cmd, Some(&s));
        let out = cmd.output().unwrap();
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("queued"),
            "{how}: {out:?}"
        );
        assert!(
            s.child.try_wait().unwrap().is_none(),
            "gencld ended after a client's {how}"
        );
    }
    c_vadd(Some(&s));
}

/// What clinfo says of the device under one emulated configuration.
fn clinfo_of(config: &str) -> Output {
    Command::new("clinfo")
        .env("OCL_ICD_VENDORS", vendors(&format!("cfg-{config}"), false))
        .env("GENCL_MODE", "embedded")
        .env("GENCL_DEVICE", "emulated")
        .env("GENCL_EMULATED_GPU", config)
        .output()
        .expect("clinfo (Debian package clinfo)")
}

/// The value clinfo prints after `key` on its line.
fn clinfo_field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.trim_start().strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} in clinfo's output:\n{out}"))
        .trim()
}

#[test]
fn every_emulated_gen9_configuration_is_described_from_the_device_tables() {
    for &(name, pci_id) in gencl_kmd::devices::EMULATED {
        let part = gencl_kmd::devices::part(u32::from(pci_id)).unwrap();
        let out = check(clinfo_of(name), &format!("clinfo ({name})"));
        let device = clinfo_field(&out, "Device Name");
        assert!(
            device.contains(&format!("[{}, {pci_id:#06x}]", part.platform.name()))
                && device.contains(&part.gt.to_string()),
            "{name}: {device}"
        );
        let (s, ss, eu) = part.topology();
        let cus: u32 = clinfo_field(&out, "Max compute units").parse().unwrap();
        assert_eq!(cus, u32::from(s * ss * eu), "{name}: compute units (EUs)");
        let res = clinfo_field(&out, "Profiling timer resolution");
        let want = 1_000_000_000 / part.platform.cs_timestamp_hz();
        assert_eq!(res, format!("{want}ns"), "{name}: timer resolution");
    }
    // A configuration the tables do not hold: no device, and the reason on stderr.
    let out = clinfo_of("tgl-gt2");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("Device Name"), "{text}");
}

#[test]
fn a_gen9lp_configuration_runs_kernels_exactly() {
    // Gemini Lake: 6 threads per EU, a 19.2 MHz timestamp, 18 EUs.
    let exe = build_c("examples/vadd.c", "glk");
    let out = check(
        Command::new(&exe)
            .env("OCL_ICD_VENDORS", vendors("glk", false))
            .env("GENCL_MODE", "embedded")
            .env("GENCL_DEVICE", "emulated")
            .env("GENCL_EMULATED_GPU", "glk")
            .output()
            .unwrap(),
        "examples/vadd.c on glk",
    );
    assert!(out.contains("vadd: 1048576 floats exact"), "{out}");
    assert!(out.contains("Gemini Lake"), "{out}");
}

/// The drm-shim (an LD_PRELOAD library presenting the emulated i915 as renderD128).
fn drm_shim() -> PathBuf {
    let so = out_dir().join("libgencl_drm_shim.so");
    assert!(
        so.exists(),
        "{} missing: cargo build --release -p gencl-drm-shim",
        so.display()
    );
    so
}

#[test]
fn the_real_backend_runs_the_demo_through_the_drm_shim() {
    // Embedded: the real backend opens /dev/dri/renderD128, checks the driver's name and
    // PCI id, and drives every ioctl and mmap through libc, answered by the shim.
    let exe = build_c("examples/vadd.c", "shim");
    let shim = drm_shim();
    let out = check(
        Command::new(&exe)
            .env("OCL_ICD_VENDORS", vendors("shim", false))
            .env("GENCL_MODE", "embedded")
            .env("GENCL_DEVICE", "real")
            .env("LD_PRELOAD", &shim)
            .output()
            .unwrap(),
        "examples/vadd.c through the drm-shim",
    );
    assert!(out.contains("vadd: 1048576 floats exact"), "{out}");
    // The device is the render node's, not the emulated device's.
    assert!(
        out.contains("device: Intel(R) Gen9 HD Graphics GT2 [Skylake, 0x1912]\n"),
        "{out}"
    );
    // Through gencld, the service on the shim.
    let svc = Service::start_with(
        "shimsvc",
        &[
            ("GENCL_DEVICE", "real".as_ref()),
            ("LD_PRELOAD", shim.as_os_str()),
        ],
    );
    let mut cmd = Command::new(&exe);
    cmd.env("OCL_ICD_VENDORS", vendors("shimsvc", false));
    mode(&mut cmd, Some(&svc));
    let out = check(
        cmd.output().unwrap(),
        "examples/vadd.c through gencld on the shim",
    );
    assert!(out.contains("vadd: 1048576 floats exact"), "{out}");
}

#[test]
fn the_real_backend_refuses_other_generations() {
    let exe = build_c("examples/vadd.c", "shim12");
    let out = Command::new(&exe)
        .env("OCL_ICD_VENDORS", vendors("shim12", false))
        .env("GENCL_MODE", "embedded")
        .env("GENCL_DEVICE", "real")
        .env("GENCL_DRM_SHIM_PCI_ID", "0x9a49")
        .env("LD_PRELOAD", drm_shim())
        .env("GENCL_LOG", "error")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("PCI id 0x9a49 is Gen12 or later; gencl supports the Gen9 family only"),
        "{err}"
    );
}

/// The time a test client printed as "after S s" (tests/e2e/spin.c, paused.c).
fn seconds_after(text: &str) -> Duration {
    let s: f64 = text
        .split("after ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no time in {text:?}"));
    Duration::from_secs_f64(s)
}

#[test]
fn a_process_stopped_while_its_kernel_runs_keeps_the_kernel() {
    // As under a debugger: the process is stopped (SIGSTOP) again and again while its
    // kernel runs, each time for longer than the hang budget. The model's GPU stops with
    // it; the budget counts the time the model ran (gpu::watchdog), so the kernel, about a
    // fifth of the budget's work, ends exact. Embedded only: through gencld the GPU is
    // the service's and does not stop with the client.
    use std::io::BufRead;
    let budget = Duration::from_millis(2000);
    let exe = build_c("tests/e2e/paused.c", "paused");
    let mut cmd = Command::new(&exe);
    cmd.arg("20000000")
        .env("OCL_ICD_VENDORS", vendors("paused", false))
        .env("GENCL_HANG_TIMEOUT_MS", budget.as_millis().to_string())
        .env("XDG_CACHE_HOME", scratch("paused-cache"));
    mode(&mut cmd, None);
    let mut child = cmd.stdout(std::process::Stdio::piped()).spawn().unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "running", "the kernel did not start");
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let mut stops = 0;
    while child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(150));
        if nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGSTOP).is_err() {
            break;
        }
        std::thread::sleep(budget + Duration::from_millis(100));
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGCONT).unwrap();
        stops += 1;
    }
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{rest} ({status}, {stops} stops)");
    assert!(rest.contains("clFinish 0, 32 of 32 exact"), "{rest}");
    // The stops fell in the kernel's run: enqueue to clFinish took longer than the budget.
    let after = seconds_after(&rest);
    assert!(after > budget, "{after:?}, {stops} stops: {rest}");
}

#[test]
fn an_endless_kernel_in_one_client_does_not_stop_another() {
    // gencld with a 1.5 s hang budget; one client spins for ever, another adds vectors.
    let budget = Duration::from_millis(1500);
    let svc = Service::start_with(
        "hang",
        &[(
            "GENCL_HANG_TIMEOUT_MS",
            budget.as_millis().to_string().as_ref(),
        )],
    );
    let spin = build_c("tests/e2e/spin.c", "spin");
    let vadd = build_c("examples/vadd.c", "beside-spin");
    let mut a = Command::new(&spin);
    a.env("OCL_ICD_VENDORS", vendors("spin", false));
    mode(&mut a, Some(&svc));
    let a = a.stdout(std::process::Stdio::piped()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut b = Command::new(&vadd);
    b.env("OCL_ICD_VENDORS", vendors("beside-spin", false));
    mode(&mut b, Some(&svc));
    let out_b = check(b.output().unwrap(), "vadd beside an endless kernel");
    assert!(out_b.contains("vadd: 1048576 floats exact"), "{out_b}");
    let out_a = a.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out_a.stdout);
    assert!(out_a.status.success(), "{text}");
    assert!(text.contains("status -5, clFinish -5"), "{text}");
    // From the spinning kernel's enqueue to clFinish's answer, as the client measured it
    // (its build and start-up left out: the machine may be busy with other tests).
    let after = seconds_after(&text);
    assert!(after >= budget, "{after:?}: {text}");
    // The budget is the model's running time (gpu::watchdog): the tests beside this one
    // and the other client may take up to half of the spinning batch's host core.
    assert!(
        after < 2 * budget + Duration::from_secs(2),
        "{after:?}: {text}"
    );
}
