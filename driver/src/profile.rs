//! `gencl profile` and `gencl run`: one launch of a kernel, straight through the submitter
//! (no queue, no service connection). `profile` runs on a fresh emulated device and reports
//! the GPU model's counters (instructions, lane-instructions, sends by kind, modelled cycles)
//! with zero-filled buffers and by-value arguments; `run` takes the arguments' contents,
//! runs on the device GENCL_DEVICE selects and hands back every buffer afterwards.

use std::sync::Arc;

use gencl_jit::abi::{ArgKind, KernelBinary, ProgramGlobals};
use gencl_kmd::backend::{open_default, open_emulated, Device};
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

/// One argument's contents for `run`.
#[derive(Debug, Clone, PartialEq)]
pub enum RunArg {
    /// A buffer holding these bytes.
    Buffer(Vec<u8>),
    /// A by-value argument's bytes.
    Value(Vec<u8>),
    /// A `__local` pointer's size in bytes.
    Local(u32),
}

/// Run `kernel` once on a fresh emulated device and return the launch's statistics;
/// `globals`, its program's global variables, start as the program initialises them.
pub fn profile(
    kernel: &KernelBinary,
    globals: &ProgramGlobals,
    launch: &ProfileLaunch,
) -> Result<LaunchStats, String> {
    let dev = Arc::new(Device::new(open_emulated().map_err(|e| e.to_string())?));
    let args = kernel
        .args
        .iter()
        .map(|a| match a.kind {
            ArgKind::Buffer { .. } => RunArg::Buffer(vec![0; launch.buffer_bytes as usize]),
            ArgKind::Local => RunArg::Local(launch.local_bytes),
            _ => RunArg::Value(vec![0; a.size as usize]),
        })
        .collect::<Vec<_>>();
    launch_on(&dev, kernel, globals, launch, &args).map(|(stats, _)| stats)
}

/// Run `kernel` once with `args` on the device GENCL_DEVICE selects: the launch's statistics
/// (the model's counters on the emulated device) and every buffer argument's bytes after it,
/// in argument order.
pub fn run(
    kernel: &KernelBinary,
    globals: &ProgramGlobals,
    launch: &ProfileLaunch,
    args: &[RunArg],
) -> Result<(LaunchStats, Vec<Vec<u8>>), String> {
    let dev = Arc::new(Device::new(open_default().map_err(|e| e.to_string())?));
    launch_on(&dev, kernel, globals, launch, args)
}

fn launch_on(
    dev: &Arc<Device>,
    kernel: &KernelBinary,
    globals: &ProgramGlobals,
    launch: &ProfileLaunch,
    given: &[RunArg],
) -> Result<(LaunchStats, Vec<Vec<u8>>), String> {
    if given.len() != kernel.args.len() {
        return Err(format!(
            "{} takes {} arguments, {} given",
            kernel.name,
            kernel.args.len(),
            given.len()
        ));
    }
    let gpu = ClientGpu::new(dev.clone()).map_err(|e| e.to_string())?;
    let mut submitter = Submitter::new(&gpu).map_err(|e| e.to_string())?;
    let mut bos = Vec::new();
    let mut buffers = Vec::new();
    let mut args = Vec::new();
    let mut objects = Vec::new();
    let mut result = Ok(());
    for (a, v) in kernel.args.iter().zip(given) {
        match (&a.kind, v) {
            (ArgKind::Buffer { .. }, RunArg::Buffer(bytes)) => {
                let len = bytes.len() as u64;
                match gpu.create_bo(len.max(1).next_multiple_of(4096)) {
                    Ok(mut bo) => {
                        bo.map[..bytes.len()].copy_from_slice(bytes);
                        args.push(ArgValue::Buffer {
                            gpu_addr: bo.gpu_addr,
                            handle: bo.handle,
                            size: len.max(1),
                        });
                        objects.push((bo.handle, bo.gpu_addr, true));
                        buffers.push((bos.len(), bytes.len()));
                        bos.push(bo);
                    }
                    Err(e) => {
                        result = Err(e.to_string());
                        break;
                    }
                }
            }
            (ArgKind::Local, RunArg::Local(size)) => args.push(ArgValue::Local { size: *size }),
            (ArgKind::Value, RunArg::Value(bytes)) if bytes.len() == a.size as usize => {
                args.push(ArgValue::Bytes(bytes.clone()))
            }
            (ArgKind::Sampler { .. } | ArgKind::Image { .. }, _) => {
                result = Err(format!(
                    "argument {}: images and samplers are not supported",
                    a.name
                ));
                break;
            }
            (kind, v) => {
                result = Err(format!(
                    "argument {} ({kind:?}, {} bytes) cannot take {v:?}",
                    a.name, a.size
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
    let after = buffers
        .iter()
        .map(|&(i, len)| bos[i].map[..len].to_vec())
        .collect();
    for bo in bos {
        gpu.free_bo(bo);
    }
    submitter.destroy(&gpu);
    stats.map(|s| (s, after))
}

/// The counters as `gencl profile` prints them, one `name: value` per line.
pub fn format_counters(c: &Counters) -> String {
    let rows: [(&str, u64); 16] = [
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
        ("sends.sampler", c.sends_sampler),
        ("sends.other", c.sends_other),
        ("issue-cycles", c.issue_cycles),
        ("latency-cycles", c.latency_cycles),
        ("modelled-cycles", c.modelled_cycles),
    ];
    rows.iter().map(|(k, v)| format!("{k}: {v}\n")).collect()
}
