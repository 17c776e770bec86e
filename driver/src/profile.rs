//! `gencl profile`: one launch of a kernel on the embedded emulated device,
//! reporting the GPU model's counters (instructions, lane-instructions, sends
//! by kind, modelled cycles). Buffers are zero-filled; by-value arguments are
//! zero; `__local` arguments get the size asked for.

use std::sync::Arc;

use gencl_jit::abi::{ArgKind, KernelBinary, ProgramGlobals};
use gencl_kmd::backend::{open_emulated, Device};
use gencl_kmd::gpu::Counters;

use crate::service::gpu::ClientGpu;
use crate::submit::{ArgValue, LaunchStats, NdRange, Submitter};

/// The launch to profile.
pub struct ProfileLaunch {
    pub work_dim: u32,
    pub global: [u64; 3],
    pub local: [u32; 3],
    /// Bytes of each buffer argument.
    pub buffer_bytes: u64,
    /// Bytes of each `__local` pointer argument.
    pub local_bytes: u32,
}

/// Run `kernel` once on a fresh emulated device and return the launch's statistics;
/// `globals`, its program's global variables, start as the program initialises them.
pub fn profile(
    kernel: &KernelBinary,
    globals: &ProgramGlobals,
    launch: &ProfileLaunch,
) -> Result<LaunchStats, String> {
    let dev = Arc::new(Device::new(open_emulated().map_err(|e| e.to_string())?));
    let gpu = ClientGpu::new(dev).map_err(|e| e.to_string())?;
    let mut submitter = Submitter::new(&gpu).map_err(|e| e.to_string())?;
    let mut bos = Vec::new();
    let mut args = Vec::new();
    let mut objects = Vec::new();
    let mut result = Ok(());
    for a in &kernel.args {
        match a.kind {
            ArgKind::Buffer { .. } => match gpu.create_bo(launch.buffer_bytes.max(4096)) {
                Ok(bo) => {
                    args.push(ArgValue::Buffer {
                        gpu_addr: bo.gpu_addr,
                        handle: bo.handle,
                        size: launch.buffer_bytes,
                    });
                    objects.push((bo.handle, bo.gpu_addr, true));
                    bos.push(bo);
                }
                Err(e) => {
                    result = Err(e.to_string());
                    break;
                }
            },
            ArgKind::Local => args.push(ArgValue::Local {
                size: launch.local_bytes,
            }),
            ArgKind::Value => args.push(ArgValue::Bytes(vec![0; a.size as usize])),
            ArgKind::Sampler | ArgKind::Image => {
                result = Err(format!(
                    "argument {}: images and samplers are not supported",
                    a.name
                ));
                break;
            }
        }
    }
    let mut globals_addr = None;
    if result.is_ok() && kernel.globals_offset.is_some() {
        match gpu.create_globals(globals) {
            Ok(bo) => {
                objects.push((bo.handle, bo.gpu_addr, true));
                globals_addr = Some(bo.gpu_addr);
                bos.push(bo);
            }
            Err(e) => result = Err(e.to_string()),
        }
    }
    let stats = result.and_then(|()| {
        let nd = NdRange {
            work_dim: launch.work_dim,
            global_offset: [0; 3],
            global_size: launch.global,
            local_size: launch.local,
        };
        submitter
            .launch(&gpu, kernel, &args, &nd, &objects, globals_addr)
            .map_err(|e| e.to_string())
    });
    for bo in bos {
        gpu.free_bo(bo);
    }
    submitter.destroy(&gpu);
    stats
}

/// The counters as `gencl profile` prints them, one `name: value` per line.
pub fn format_counters(c: &Counters) -> String {
    let rows: [(&str, u64); 15] = [
        ("threads", c.threads),
        ("instructions", c.instructions),
        ("lane-instructions", c.lane_instructions),
        ("sends", c.sends),
        ("sends.a64", c.sends_a64),
        ("sends.surface", c.sends_surface),
        ("sends.slm", c.sends_slm),
        ("sends.scratch", c.sends_scratch),
        ("sends.atomic", c.sends_atomic),
        ("sends.barrier", c.sends_barrier),
        ("sends.eot", c.sends_eot),
        ("sends.other", c.sends_other),
        ("issue-cycles", c.issue_cycles),
        ("latency-cycles", c.latency_cycles),
        ("modelled-cycles", c.modelled_cycles),
    ];
    rows.iter().map(|(k, v)| format!("{k}: {v}\n")).collect()
}
