//! The service core: one `Service` per device, one `Client` per connection (or per embedded
//! ICD instance). `handler` turns a `Request` into a `Response`; `server` runs it on a socket.
//!
//! A client's requests are taken in order on its connection's thread; a build's compiling
//! runs beside them (`Client::begin` hands it out as `Work`, `Client::finish` keeps its
//! program) and is answered under its call's id when done. A launch is queued to the GPU on
//! the connection's thread and answered `Queued`; the client's retiring thread (`retire`) reports it
//! `Completed` when the GPU has run it, in the order the launches were queued.

pub mod device;
pub mod gpu;
pub mod handler;
pub mod retire;
pub mod server;
pub mod stats;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use thiserror::Error;

use crate::protocol::DeviceDesc;
use device::{Device, DeviceError};
use gencl_kmd::uapi::{
    I915_PARAM_CHIPSET_ID, I915_PARAM_CS_TIMESTAMP_FREQUENCY, I915_PARAM_EU_TOTAL,
    I915_PARAM_SUBSLICE_TOTAL,
};

pub use handler::{Client, Reply};

#[derive(Debug, Error)]
pub enum ServiceError {
    #[error("GPU: {op}: {source}")]
    Gpu {
        op: &'static str,
        source: DeviceError,
    },
    #[error("no GPU address space left for {size} bytes")]
    OutOfAddressSpace { size: u64 },
    #[error("{live} OpenCL contexts with launches are live in this client, the most one may hold")]
    TooManyStreams { live: usize },
    #[error("socket {path}: {source}")]
    Socket {
        path: String,
        source: std::io::Error,
    },
}

/// The device and what every client shares.
pub struct Service {
    pub dev: Arc<Device>,
    pub desc: DeviceDesc,
    /// Object ids are unique across clients (see protocol::messages).
    next_id: AtomicU64,
    /// Each client's counters, for `Request::Stats`.
    pub registry: stats::Registry,
}

/// Shared local memory per subslice that one work-group may use.
const GEN9_SLM_BYTES: u64 = 64 << 10;
const MAX_WORK_GROUP_SIZE: u32 = 256;
/// Memory the emulated device offers (host memory behind memfds).
const EMULATED_GLOBAL_MEM: u64 = 2 << 30;

impl Service {
    pub fn open() -> Result<Arc<Service>, ServiceError> {
        let dev = device::open().map_err(|e| ServiceError::Gpu {
            op: "open device",
            source: e,
        })?;
        let desc = describe(&dev)?;
        tracing::info!(device = %desc.name, chipset = format_args!("{:#06x}", desc.chipset_id), "service ready");
        Ok(Arc::new(Service {
            dev: Arc::new(dev),
            desc,
            next_id: AtomicU64::new(1),
            registry: stats::Registry::default(),
        }))
    }

    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// The answer to `Request::Stats`.
    pub fn stats(&self) -> crate::protocol::ServiceStats {
        self.registry.stats(
            &self.desc.name,
            self.dev.live.counts(),
            self.dev.total_counters(),
        )
    }
}

/// The device, described from what the kernel driver reports.
fn describe(dev: &Device) -> Result<DeviceDesc, ServiceError> {
    let param = |p, what| {
        dev.getparam(p).map_err(|e| ServiceError::Gpu {
            op: what,
            source: e,
        })
    };
    let chipset_id = param(I915_PARAM_CHIPSET_ID, "GETPARAM chipset id")? as u32;
    // The backend refuses other generations; a Gen9 part is known by its PCI id.
    let part = gencl_kmd::devices::part(chipset_id).ok_or_else(|| ServiceError::Gpu {
        op: "identify the GPU",
        source: DeviceError::Unsupported {
            path: dev.describe(),
            why: gencl_kmd::devices::refusal(chipset_id),
        },
    })?;
    // Slices, subslices and EUs as the kernel reports them (fused-off EUs left out).
    let (eu_count, subslices) = match dev.topology() {
        Ok(t) => (t.eus, t.subslices),
        Err(_) => (
            param(I915_PARAM_EU_TOTAL, "GETPARAM EU total")? as u32,
            param(I915_PARAM_SUBSLICE_TOTAL, "GETPARAM subslice total")? as u32,
        ),
    };
    let timestamp_hz = match param(I915_PARAM_CS_TIMESTAMP_FREQUENCY, "GETPARAM timestamp") {
        Ok(hz) if hz > 0 => hz as u64,
        _ => part.platform.cs_timestamp_hz(),
    };
    let emulated = device::is_emulated(dev);
    let mut name = format!("Intel(R) {}", gen9_name(&part));
    if emulated {
        name.push_str(" (emulated)");
    }
    Ok(DeviceDesc {
        name,
        chipset_id,
        emulated,
        eu_count,
        subslices,
        threads_per_eu: part.platform.threads_per_eu(),
        global_mem_bytes: EMULATED_GLOBAL_MEM,
        max_alloc_bytes: EMULATED_GLOBAL_MEM / 2,
        local_mem_bytes: GEN9_SLM_BYTES,
        max_work_group_size: MAX_WORK_GROUP_SIZE,
        // The profiling resolution: one TIMESTAMP tick (83 ns at 12 MHz, 52 ns at 19.2).
        timer_resolution_ns: 1_000_000_000 / timestamp_hz,
        compiler_id: gencl_jit::binary::COMPILER_ID.to_string(),
    })
}

/// Names by the Gen9 table: the GT level as before, the platform and PCI id after it
/// ("Gen9 HD Graphics GT2 [Skylake, 0x1912]").
fn gen9_name(part: &gencl_kmd::devices::Part) -> String {
    format!(
        "Gen9 HD Graphics {} [{}, {:#06x}]",
        part.gt,
        part.platform.name(),
        part.pci_id
    )
}
