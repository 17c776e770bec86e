//! `gencl selftest`: what a hardware CI runner runs after installing gencl on a machine with
//! an Intel GPU. It opens the device as applications do (`GENCL_DEVICE`, default: the render
//! node if there is one), compiles a set of kernels with known results, runs each once
//! through the submitter (the batch, state and EXECBUFFER2 path of every launch) and checks
//! every output word against a CPU reference. One line per kernel: pass or FAIL, and the
//! GPU time. docs/hardware.md says what each failure would point at.

use std::sync::Arc;
use std::time::Instant;

use gencl_jit::{compile, CompileInput};
use gencl_kmd::backend::{open_default, Device};

use crate::service::gpu::ClientGpu;
use crate::submit::{ArgValue, NdRange, Submitter};

/// A kernel argument of a check.
enum Arg {
    /// A buffer of 32-bit words with initial contents.
    Words(Vec<u32>),
    /// `__local` memory of this many bytes.
    Local(u32),
    /// A by-value argument's bytes.
    Value(Vec<u8>),
}

/// One check: a kernel, its NDRange and arguments, and the words each buffer must hold
/// afterwards (by argument index).
struct Check {
    name: &'static str,
    what: &'static str,
    source: &'static str,
    options: &'static str,
    global: [u64; 3],
    local: [u32; 3],
    dims: u32,
    args: Vec<Arg>,
    expect: Vec<(usize, Vec<u32>)>,
}

fn words(n: usize, f: impl Fn(u32) -> u32) -> Vec<u32> {
    (0..n as u32).map(f).collect()
}

/// A deterministic input: integers from a small linear congruential generator.
fn random(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed.wrapping_mul(2_654_435_761) | 1;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            x >> 8
        })
        .collect()
}

fn checks() -> Vec<Check> {
    let n = 4096usize;
    let a = random(n, 1);
    let b = random(n, 2);
    let fa: Vec<u32> = a.iter().map(|&v| (v as f32 / 65536.0).to_bits()).collect();
    let fb: Vec<u32> = b.iter().map(|&v| (v as f32 / 32768.0).to_bits()).collect();
    let small: Vec<u32> = a.iter().map(|&v| v % 1000).collect();
    vec![
        Check {
            name: "vadd",
            what: "stateless loads and stores, float add",
            source: "kernel void k(global const float *a, global const float *b, global float *c) {\
                     size_t i = get_global_id(0); c[i] = a[i] + b[i]; }",
            options: "",
            global: [n as u64, 1, 1],
            local: [64, 1, 1],
            dims: 1,
            args: vec![
                Arg::Words(fa.clone()),
                Arg::Words(fb.clone()),
                Arg::Words(vec![0; n]),
            ],
            expect: vec![(
                2,
                fa.iter()
                    .zip(&fb)
                    .map(|(x, y)| (f32::from_bits(*x) + f32::from_bits(*y)).to_bits())
                    .collect(),
            )],
        },
        Check {
            name: "ids_3d",
            what: "thread payload: global, local and group ids in three dimensions",
            source: "kernel void k(global uint *o) {\
                     size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));\
                     o[i] = (uint)(get_local_id(0) | get_local_id(1) << 8 | get_group_id(2) << 16); }",
            options: "",
            global: [32, 8, 4],
            local: [16, 2, 2],
            dims: 3,
            args: vec![Arg::Words(vec![0; 32 * 8 * 4])],
            expect: vec![(
                0,
                words(32 * 8 * 4, |i| {
                    let (x, y, z) = (i % 32, (i / 32) % 8, i / 256);
                    (x % 16) | ((y % 2) << 8) | ((z / 2) << 16)
                }),
            )],
        },
        Check {
            name: "slm_reduce",
            what: "shared local memory, the L3's SLM partition and barriers",
            source: "kernel void k(global const uint *in, global uint *out, local uint *t) {\
                     size_t l = get_local_id(0); t[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\
                     for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) { if (l < s) t[l] += t[l + s];\
                     barrier(CLK_LOCAL_MEM_FENCE); } if (l == 0) out[get_group_id(0)] = t[0]; }",
            options: "",
            global: [n as u64, 1, 1],
            local: [256, 1, 1],
            dims: 1,
            args: vec![
                Arg::Words(small.clone()),
                Arg::Words(vec![0; n / 256]),
                Arg::Local(256 * 4),
            ],
            expect: vec![(
                1,
                small.chunks(256).map(|c| c.iter().sum()).collect(),
            )],
        },
        Check {
            name: "atomics",
            what: "global atomics through the data port",
            source: "kernel void k(global const uint *in, global uint *h) {\
                     atomic_inc(&h[in[get_global_id(0)] % 16]); atomic_add(&h[16], in[get_global_id(0)] % 1000); }",
            options: "",
            global: [n as u64, 1, 1],
            local: [64, 1, 1],
            dims: 1,
            args: vec![Arg::Words(a.clone()), Arg::Words(vec![0; 17])],
            expect: vec![(1, {
                let mut h = vec![0u32; 17];
                for v in &a {
                    h[(*v % 16) as usize] += 1;
                    h[16] = h[16].wrapping_add(v % 1000);
                }
                h
            })],
        },
        Check {
            name: "scratch",
            what: "private arrays in scratch space (per-thread slots from the general state base)",
            source: "kernel void k(global const uint *idx, global uint *o) {\
                     uint p[96]; size_t i = get_global_id(0);\
                     for (int j = 0; j < 96; j++) p[j] = (uint)(j * 7) ^ (uint)i;\
                     uint s = 0; for (int j = 0; j < 8; j++) s += p[(idx[i] + (uint)j * 11) % 96]; o[i] = s; }",
            options: "",
            global: [512, 1, 1],
            local: [64, 1, 1],
            dims: 1,
            args: vec![Arg::Words(a[..512].to_vec()), Arg::Words(vec![0; 512])],
            expect: vec![(
                1,
                (0..512u32)
                    .map(|i| {
                        (0..8u32)
                            .map(|j| ((a[i as usize] + j * 11) % 96 * 7) ^ i)
                            .fold(0u32, u32::wrapping_add)
                    })
                    .collect(),
            )],
        },
        Check {
            name: "fp64",
            what: "double precision (denormals kept)",
            source: "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
                     kernel void k(global const uint *a, global ulong *o) {\
                     size_t i = get_global_id(0); double x = (double)a[i] * 1e-310;\
                     o[i] = as_ulong(x * 3.0 + (double)a[i]); }",
            options: "",
            global: [256, 1, 1],
            local: [64, 1, 1],
            dims: 1,
            args: vec![Arg::Words(small[..256].to_vec()), Arg::Words(vec![0; 512])],
            expect: vec![(
                1,
                small[..256]
                    .iter()
                    .flat_map(|&v| {
                        let x = v as f64 * 1e-310;
                        let r = (x * 3.0 + v as f64).to_bits();
                        [r as u32, (r >> 32) as u32]
                    })
                    .collect(),
            )],
        },
        Check {
            name: "subgroups",
            what: "sub-group reduction across the SIMD lanes",
            source: "__attribute__((intel_reqd_sub_group_size(16)))\
                     kernel void k(global const uint *in, global uint *o) {\
                     size_t i = get_global_id(0); o[i] = sub_group_reduce_add(in[i]); }",
            options: "-cl-std=CL2.0",
            global: [512, 1, 1],
            local: [64, 1, 1],
            dims: 1,
            args: vec![Arg::Words(small[..512].to_vec()), Arg::Words(vec![0; 512])],
            expect: vec![(
                1,
                small[..512]
                    .chunks(16)
                    .flat_map(|c| {
                        let s: u32 = c.iter().sum();
                        [s; 16]
                    })
                    .collect(),
            )],
        },
        Check {
            name: "by_value",
            what: "pushed constants: by-value arguments in the CURBE",
            source: "kernel void k(global uint *o, uint m, ulong add) {\
                     size_t i = get_global_id(0); o[i] = (uint)(i * m + add); }",
            options: "",
            global: [100, 1, 1],
            local: [4, 1, 1],
            dims: 1,
            args: vec![
                Arg::Words(vec![0; 100]),
                Arg::Value(7u32.to_le_bytes().to_vec()),
                Arg::Value(0x1_0000_0005u64.to_le_bytes().to_vec()),
            ],
            expect: vec![(0, words(100, |i| i * 7 + 5))],
        },
    ]
}

/// Runs every check; returns the report and whether all passed.
pub fn run() -> Result<(String, bool), String> {
    let dev = Arc::new(Device::new(open_default().map_err(|e| e.to_string())?));
    let gpu = ClientGpu::new(dev.clone()).map_err(|e| e.to_string())?;
    let mut submitter = Submitter::new(&gpu).map_err(|e| e.to_string())?;
    let id = dev
        .getparam(gencl_kmd::uapi::I915_PARAM_CHIPSET_ID)
        .map_err(|e| e.to_string())? as u32;
    let eus = dev
        .getparam(gencl_kmd::uapi::I915_PARAM_EU_TOTAL)
        .map_err(|e| e.to_string())?;
    let part = gencl_kmd::devices::part(id).ok_or_else(|| gencl_kmd::devices::refusal(id))?;
    let mut out = format!(
        "device: {}: {} ({id:#06x}), {eus} EUs\n",
        dev.describe(),
        part.describe()
    );
    let mut all = true;
    for c in checks() {
        let t = Instant::now();
        let r = run_one(&gpu, &mut submitter, &c);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        match r {
            Ok(gpu_ns) => {
                out += &format!(
                    "pass  {:<10}  GPU {:>7.3} ms  with its build {:>7.1} ms  {}\n",
                    c.name,
                    gpu_ns as f64 / 1e6,
                    ms,
                    c.what
                )
            }
            Err(e) => {
                all = false;
                out += &format!("FAIL  {:<10} {e}  ({})\n", c.name, c.what);
            }
        }
    }
    submitter.destroy(&gpu);
    out += if all {
        "selftest: all passed\n"
    } else {
        "selftest: FAILED\n"
    };
    Ok((out, all))
}

/// One check: the GPU time of its launch, or what went wrong.
fn run_one(gpu: &ClientGpu, submitter: &mut Submitter, c: &Check) -> Result<u64, String> {
    let program = compile(CompileInput::OpenClC(c.source), c.options).map_err(|e| e.log)?;
    let kernel = program.kernels.first().ok_or("no kernel")?;
    let mut bos = Vec::new();
    let mut args = Vec::new();
    let mut objects = Vec::new();
    let mut result = Ok(());
    for a in &c.args {
        match a {
            Arg::Words(w) => match gpu.create_bo((w.len() as u64 * 4).max(4096)) {
                Ok(mut bo) => {
                    for (i, v) in w.iter().enumerate() {
                        bo.map[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
                    }
                    args.push(ArgValue::Buffer {
                        gpu_addr: bo.gpu_addr,
                        handle: bo.handle,
                        size: w.len() as u64 * 4,
                    });
                    objects.push((bo.handle, bo.gpu_addr, true));
                    bos.push(Some(bo));
                }
                Err(e) => {
                    result = Err(e.to_string());
                    break;
                }
            },
            Arg::Local(size) => {
                args.push(ArgValue::Local { size: *size });
                bos.push(None);
            }
            Arg::Value(bytes) => {
                args.push(ArgValue::Bytes(bytes.clone()));
                bos.push(None);
            }
        }
    }
    let r = result.and_then(|()| {
        let nd = NdRange {
            work_dim: c.dims,
            global_offset: [0; 3],
            global_size: c.global,
            local_size: c.local,
        };
        let stats = submitter
            .launch(gpu, kernel, &args, &nd, &objects, None)
            .map_err(|e| e.to_string())?;
        for (arg, want) in &c.expect {
            let bo = bos[*arg].as_ref().ok_or("expected words of a non-buffer")?;
            for (i, w) in want.iter().enumerate() {
                let got = u32::from_le_bytes(bo.map[4 * i..4 * i + 4].try_into().unwrap());
                if got != *w {
                    return Err(format!(
                        "argument {arg} word {i}: {got:#010x}, expected {w:#010x}"
                    ));
                }
            }
        }
        Ok(stats.end_ns.saturating_sub(stats.start_ns))
    });
    for bo in bos.into_iter().flatten() {
        gpu.free_bo(bo);
    }
    r
}
