//! Running one corpus case: buffers in the client's VM on the emulated i915,
//! the kernel through gencl's `Submitter` (the same batch, state and
//! execbuffer2 path gencl's own kernels take), results read back.

use std::sync::Arc;

use gencl::service::gpu::{Bo, ClientGpu};
use gencl::submit::{ArgValue, LaunchStats, NdRange, Submitter};
use gencl_jit::abi::{KernelBinary, ProgramGlobals};
use gencl_kmd::backend::emulated::EmulatedI915;
use gencl_kmd::backend::Device;
use gencl_kmd::gpu::cs::Budget;

use super::harness::{Arg, Case, Run};

/// An emulated device, one client VM on it and a submitter.
pub struct Gpu {
    gpu: ClientGpu,
    submitter: Option<Submitter>,
}

impl Gpu {
    pub fn new() -> Gpu {
        Gpu::with_budget(Budget::default())
    }

    /// A device that runs every dispatch on one host thread, translating hot runs or not
    /// (tests compare the two bit for bit).
    pub fn translating(on: bool) -> Gpu {
        Gpu::with_budget(Budget {
            host_threads: 1,
            // Every run that can be translated is, at its first reach.
            translate: gencl_kmd::gpu::eu::translate::Policy { on, hot: 1 },
            ..Budget::default()
        })
    }

    fn with_budget(budget: Budget) -> Gpu {
        // Every corpus case issues well under 2^26 EU instructions; more is a hang.
        let budget = Budget {
            max_work: 1 << 26,
            ..budget
        };
        // GENCL_DEVICE=real: the backend a machine with a GPU takes (in CI, the render node
        // the drm-shim presents); otherwise the emulated device, with the budget above.
        let kmd: Box<dyn gencl_kmd::backend::I915> =
            if std::env::var("GENCL_DEVICE").as_deref() == Ok("real") {
                gencl_kmd::backend::open_default().expect("GENCL_DEVICE=real: a render node")
            } else {
                Box::new(EmulatedI915::with_budget(budget))
            };
        let dev = Arc::new(Device::new(kmd));
        let gpu = ClientGpu::new(dev).expect("client VM on the device");
        let submitter = Some(Submitter::new(&gpu).expect("submitter"));
        Gpu { gpu, submitter }
    }

    /// Launch `case` with `kernel`; the final contents of every argument and the model's counters.
    pub fn run(
        &mut self,
        kernel: &KernelBinary,
        case: &Case,
    ) -> Result<(Run, LaunchStats), String> {
        self.run_with_globals(kernel, &ProgramGlobals::default(), case)
    }

    /// `run`, for a kernel of a program with global variables (made afresh for the launch).
    pub fn run_with_globals(
        &mut self,
        kernel: &KernelBinary,
        globals: &ProgramGlobals,
        case: &Case,
    ) -> Result<(Run, LaunchStats), String> {
        let mut globals_addr = None;
        let mut globals_bo = None;
        if kernel.globals_offset.is_some() {
            let bo = self
                .gpu
                .create_globals(globals)
                .map_err(|e| e.to_string())?;
            globals_addr = Some(bo.gpu_addr);
            globals_bo = Some(bo);
        }
        let r = self.launch(kernel, case, globals_bo.as_ref(), globals_addr);
        if let Some(bo) = globals_bo {
            self.gpu.free_bo(bo);
        }
        r
    }

    fn launch(
        &mut self,
        kernel: &KernelBinary,
        case: &Case,
        globals_bo: Option<&Bo>,
        globals: Option<u64>,
    ) -> Result<(Run, LaunchStats), String> {
        let (dims, global, local) = case.shape()?;
        let mut bos: Vec<Option<Bo>> = Vec::new();
        let mut args = Vec::new();
        let mut objects = Vec::new();
        let result = (|| {
            for a in &case.args {
                match a {
                    Arg::Buffer(data) => {
                        let size = (data.len().max(1) as u64).next_multiple_of(4096);
                        let mut bo = self.gpu.create_bo(size).map_err(|e| e.to_string())?;
                        bo.map[..data.len()].copy_from_slice(data);
                        args.push(ArgValue::Buffer {
                            gpu_addr: bo.gpu_addr,
                            handle: bo.handle,
                            // The surface covers exactly the buffer the application made.
                            size: data.len() as u64,
                        });
                        objects.push((bo.handle, bo.gpu_addr, true));
                        bos.push(Some(bo));
                    }
                    Arg::Value(b) => {
                        args.push(ArgValue::Bytes(b.clone()));
                        bos.push(None);
                    }
                    Arg::Local(n) => {
                        args.push(ArgValue::Local { size: *n as u32 });
                        bos.push(None);
                    }
                    Arg::Image(surface, data) => {
                        let size = (data.len().max(1) as u64).next_multiple_of(4096);
                        let mut bo = self.gpu.create_bo(size).map_err(|e| e.to_string())?;
                        bo.map[..data.len()].copy_from_slice(data);
                        args.push(ArgValue::Image {
                            gpu_addr: bo.gpu_addr,
                            handle: bo.handle,
                            surface: *surface,
                        });
                        objects.push((bo.handle, bo.gpu_addr, true));
                        bos.push(Some(bo));
                    }
                    Arg::Sampler(s) => {
                        args.push(ArgValue::Sampler(*s));
                        bos.push(None);
                    }
                }
            }
            if let Some(bo) = globals_bo {
                objects.push((bo.handle, bo.gpu_addr, true));
            }
            let nd = NdRange {
                work_dim: dims as u32,
                global_offset: [0; 3],
                global_size: global.map(|g| g as u64),
                local_size: local.map(|l| l as u32),
            };
            let submitter = self.submitter.as_mut().expect("submitter");
            let t = std::time::Instant::now();
            let stats = submitter
                .launch(&self.gpu, kernel, &args, &nd, &objects, globals)
                .map_err(|e| format!("launch: {e}"))?;
            let launch_secs = t.elapsed().as_secs_f64();
            let inputs: Vec<Vec<u8>> = case
                .args
                .iter()
                .map(|a| match a {
                    Arg::Buffer(d) | Arg::Value(d) | Arg::Image(_, d) => d.clone(),
                    Arg::Local(_) | Arg::Sampler(_) => Vec::new(),
                })
                .collect();
            let outputs = case
                .args
                .iter()
                .zip(&bos)
                .map(|(a, bo)| match (a, bo) {
                    (Arg::Buffer(d) | Arg::Image(_, d), Some(bo)) => bo.map[..d.len()].to_vec(),
                    (Arg::Value(d), _) => d.clone(),
                    _ => Vec::new(),
                })
                .collect();
            Ok((
                Run {
                    inputs,
                    outputs,
                    global,
                    local,
                    launch_secs,
                },
                stats,
            ))
        })();
        for bo in bos.into_iter().flatten() {
            self.gpu.free_bo(bo);
        }
        result
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        if let Some(s) = self.submitter.take() {
            s.destroy(&self.gpu);
        }
    }
}
