//! Request and response messages. The ICD sends each request in a `Call` with an id of its
//! choosing; every request but `Post` and `PostWaited` gets exactly one response, sent in a `Reply` with the
//! same id. Replies may come out of order: a build runs beside the client's other requests.
//! The service also sends `Completed` on its own (in a `Reply` with id `NO_CALL`), once per
//! queued launch, when it finishes.
//!
//! Object ids (`BufferId`, `ProgramId`) are chosen by the service from one global counter, so an
//! id is never valid in two clients: a client naming another client's object gets
//! `ErrorCode::UnknownObject`, the same as for an id that never existed.

use gencl_jit::abi::KernelArg;
use serde::{Deserialize, Serialize};

/// Bumped on every incompatible change of these types.
pub const PROTOCOL_VERSION: u32 = 13;

/// What the ICD sends: a request and the id its reply will carry. The id is the client's
/// choice; `Post` gets no reply, so its id is not used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    pub id: u64,
    pub request: Request,
}

/// What the service sends: the response to the call `id`, or a message of its own with id
/// `NO_CALL` (`Completed`, or `Error` for a frame whose id did not decode).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    pub id: u64,
    pub response: Response,
}

/// The id of a reply that answers no call. Clients number their calls from 1.
pub const NO_CALL: u64 = 0;

/// A `Call` from a frame's bytes, in two steps so that a request that does not decode is
/// still answered under its call's id: (the id, or `NO_CALL` when even that is unreadable;
/// the request).
pub fn decode_call(body: &[u8]) -> (u64, Result<Request, postcard::Error>) {
    match postcard::take_from_bytes::<u64>(body) {
        Ok((id, rest)) => (id, postcard::from_bytes(rest)),
        Err(e) => (NO_CALL, Err(e)),
    }
}

pub type BufferId = u64;
pub type ProgramId = u64;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// First message of a connection: the service answers with `Welcome` (or `Error`).
    Hello {
        version: u32,
    },
    /// A buffer object of `size` bytes in the client's VM; the answer carries one fd to map.
    CreateBuffer {
        size: u64,
    },
    FreeBuffer {
        id: BufferId,
    },
    BuildProgram {
        source: ProgramSource,
        options: String,
        /// clSetProgramSpecializationConstant's values: (SpecId, bytes).
        spec_constants: Vec<(u32, Vec<u8>)>,
    },
    /// clCompileProgram: source (with its embedded headers, `(include name, text)`) or IL to a
    /// compiled object; the answer is `Compiled` or `BuildFailed`.
    CompileProgram {
        source: ProgramSource,
        options: String,
        headers: Vec<(String, String)>,
    },
    /// clLinkProgram: compiled objects and libraries (SPIR-V, untrusted) linked into a library
    /// (`Compiled`) or an executable (`Built`), or `BuildFailed`.
    LinkPrograms {
        modules: Vec<Vec<u8>>,
        options: String,
    },
    FreeProgram {
        id: ProgramId,
    },
    /// The OpenCL context `Launch::context` names is gone, with every launch of it: its GPU
    /// context goes too. Answered `Done`.
    ReleaseContext {
        context: u64,
    },
    /// The program binary (`gencl_jit::binary`) of a built program: CL_PROGRAM_BINARIES.
    ProgramBinary {
        id: ProgramId,
    },
    /// Queue one kernel to the GPU: the answer `Queued` comes once it is queued, and
    /// `Completed` with the same tag once it has finished. A client's launches run on the GPU
    /// in the order they were queued.
    Launch(Box<Launch>),
    /// A launch posted without waiting: no answer when it is queued (the client goes on at
    /// once, so a queue's launches stream to the service instead of paying a round trip
    /// each); one it cannot queue is answered `Completed` with the error, as a launch that
    /// failed on the GPU. `Completed` with its tag comes in every case.
    Post(Box<Launch>),
    /// A posted launch that the client waits for at once (a blocking call): as `Post`, except
    /// that the service may retire it on the thread that reads the client's requests, when
    /// nothing of the client is before it and no request of the client is waiting to be read,
    /// and send its `Completed` from there: no thread of the service but that one is woken.
    PostWaited(Box<Launch>),
    /// What the service is doing (`gencl top`): its clients, their objects and launches, the
    /// program cache and the GPU's counters. Answered with `Stats`.
    Stats,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ProgramSource {
    OpenClC(String),
    SpirV(Vec<u8>),
    /// A program binary from clCreateProgramWithBinary: untrusted bytes that the service decodes
    /// and checks again (`gencl_jit::binary::decode`) before anything runs from them.
    Binary(Vec<u8>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Launch {
    /// The client's name for this launch, echoed by `Queued` and `Completed`.
    pub tag: u64,
    /// The client's name for the queue it comes from (`gencl top` counts launches per
    /// queue); 0 for none.
    pub queue: u64,
    /// The client's name for the OpenCL context it belongs to; 0 for none. Each context's
    /// launches run on a GPU context of their own, in the order they were queued: a hang
    /// or fault bans that one, and fails only the launches of its OpenCL context.
    pub context: u64,
    pub program: ProgramId,
    /// Index into the `kernels` the build returned.
    pub kernel: u32,
    /// One value per kernel argument, in order.
    pub args: Vec<WireArg>,
    pub work_dim: u32,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    pub local_size: [u32; 3],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WireArg {
    /// A buffer, from `offset` bytes into it (a sub-buffer's origin).
    Buffer {
        id: BufferId,
        offset: u64,
    },
    NullBuffer,
    Local {
        size: u32,
    },
    Bytes(Vec<u8>),
    /// An image whose texels start `offset` bytes into buffer `id`, laid out as `surface`
    /// says (the service checks that it fits in the buffer).
    Image {
        id: BufferId,
        offset: u64,
        surface: crate::submit::images::ImageSurface,
    },
    Sampler(crate::submit::images::SamplerValue),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Response {
    Welcome {
        version: u32,
        device: DeviceDesc,
    },
    /// Followed by one fd (SCM_RIGHTS): the buffer's pages, `size` bytes, to map shared.
    Buffer {
        id: BufferId,
        size: u64,
        gpu_addr: u64,
    },
    Done,
    Built {
        id: ProgramId,
        kernels: Vec<KernelDesc>,
        log: String,
        /// Bytes of the program's global variables (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE).
        globals_bytes: u64,
    },
    BuildFailed {
        log: String,
        invalid_options: bool,
    },
    /// A compiled object or a library: SPIR-V, kept by the client.
    Compiled {
        il: Vec<u8>,
        log: String,
    },
    Binary {
        bytes: Vec<u8>,
    },
    /// The launch `tag` is queued to the GPU.
    Queued {
        tag: u64,
    },
    /// Not an answer: sent when the launch `tag` has finished on the GPU (or failed there:
    /// `LaunchFailed`), in the order the launches were queued.
    Completed {
        tag: u64,
        result: Result<Launched, (ErrorCode, String)>,
    },
    Error {
        code: ErrorCode,
        message: String,
    },
    Stats(Box<ServiceStats>),
}

/// The answer to `Request::Stats`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServiceStats {
    /// Since the service started.
    pub uptime_ms: u64,
    pub device: String,
    /// Every connected client, the asking one included, in connection order.
    pub clients: Vec<ClientStats>,
    pub program_cache: CacheStats,
    /// What gencld holds in the kernel driver, by its own count: GEM objects, VMs and
    /// contexts (every client's, and the service's own).
    pub held: Held,
    /// The GPU model's totals over every batch (the emulated device); `None` on an i915,
    /// whose counters gencl does not read.
    pub gpu: Option<GpuTotals>,
}

/// One of a client's queues, by the launches it sent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueStats {
    /// The client's name for the queue (`Launch::queue`).
    pub id: u64,
    pub launches: u64,
    pub completed: u64,
    pub failed: u64,
}

/// Queues of one client that `Stats` reports: the most recently active ones.
pub const MAX_QUEUE_ROWS: usize = 32;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientStats {
    /// The connection's number in this service (1 for the first).
    pub id: u64,
    /// The client's queues that launched, most recently active last (at most
    /// `MAX_QUEUE_ROWS`; the client's totals count every queue).
    pub queues: Vec<QueueStats>,
    /// The client's process (SO_PEERCRED), when the service can tell.
    pub pid: Option<i32>,
    pub connected_ms: u64,
    pub buffers: u64,
    pub buffer_bytes: u64,
    pub programs: u64,
    pub builds: u64,
    /// Launches queued; of them, finished and failed.
    pub launches: u64,
    pub completed: u64,
    pub failed: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheStats {
    /// Where it is; empty when it is off.
    pub dir: String,
    pub entries: u64,
    pub bytes: u64,
    /// This service's own lookups since it started.
    pub hits: u64,
    pub misses: u64,
    pub stored: u64,
    pub evicted: u64,
    pub rejected: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub gem_objects: u64,
    pub vms: u64,
    pub contexts: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuTotals {
    pub threads: u64,
    pub instructions: u64,
    pub lane_instructions: u64,
    pub sends: u64,
    pub modelled_cycles: u64,
}

/// A launch that ran to its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Launched {
    /// The GPU's timestamps at its start and end, in ns.
    pub start_ns: u64,
    pub end_ns: u64,
    /// printf's output, formatted, for the client to write to its stdout.
    pub printf: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The bytes did not decode as a `Request`, or the frame was too large.
    Malformed,
    /// `Hello` missing, repeated, or with another protocol version.
    BadHandshake,
    /// An id this client does not own.
    UnknownObject,
    /// Arguments that do not fit the kernel or the device (count, kind, size, ND-range).
    InvalidArgs,
    OutOfResources,
    /// The GPU faulted, hung or could not be submitted to.
    LaunchFailed,
}

/// What the service reports about its device; the client answers clGetDeviceInfo from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceDesc {
    /// e.g. "Intel(R) Gen9 HD Graphics GT2 (emulated)".
    pub name: String,
    /// PCI device id (I915_PARAM_CHIPSET_ID).
    pub chipset_id: u32,
    pub emulated: bool,
    pub eu_count: u32,
    pub subslices: u32,
    pub threads_per_eu: u32,
    pub global_mem_bytes: u64,
    pub max_alloc_bytes: u64,
    pub local_mem_bytes: u64,
    pub max_work_group_size: u32,
    /// Nanoseconds per GPU timestamp tick (profiling resolution).
    pub timer_resolution_ns: u64,
    /// The service's compiler build (`gencl_jit::binary::COMPILER_ID`): program binaries are
    /// checked against it, not against the client library's own build.
    pub compiler_id: String,
}

/// The part of a kernel's descriptor the client needs for clGetKernel*Info and clSetKernelArg.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelDesc {
    pub name: String,
    pub args: Vec<KernelArgDesc>,
    pub simd: u32,
    pub slm_bytes: u32,
    pub scratch_bytes: u32,
    pub required_wg_size: Option<[u32; 3]>,
    /// intel_reqd_sub_group_size's n (CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL).
    pub required_sub_group_size: Option<u32>,
    /// Scratch bytes a hardware thread spills registers to (CL_KERNEL_SPILL_MEM_SIZE_INTEL).
    pub spill_bytes: u32,
    pub attributes: String,
}

/// `gencl_jit::abi::KernelArg` without the CURBE layout, which only the service needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelArgDesc {
    pub name: String,
    pub type_name: String,
    pub kind: ArgKindDesc,
    pub address: AddressDesc,
    pub size: u32,
    pub type_qualifier: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArgKindDesc {
    Buffer,
    Local,
    Value,
    Sampler,
    /// An image argument: its declared type and access qualifier.
    Image(gencl_jit::abi::ImageArg),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AddressDesc {
    Global,
    Constant,
    Local,
    Private,
}

impl From<&KernelArg> for KernelArgDesc {
    fn from(a: &KernelArg) -> Self {
        use gencl_jit::abi::{AddressQualifier as Q, ArgKind as K};
        KernelArgDesc {
            name: a.name.clone(),
            type_name: a.type_name.clone(),
            kind: match a.kind {
                K::Buffer { .. } => ArgKindDesc::Buffer,
                K::Local => ArgKindDesc::Local,
                K::Value => ArgKindDesc::Value,
                K::Sampler { .. } => ArgKindDesc::Sampler,
                K::Image { image, .. } => ArgKindDesc::Image(image),
            },
            address: match a.address {
                Q::Global => AddressDesc::Global,
                Q::Constant => AddressDesc::Constant,
                Q::Local => AddressDesc::Local,
                Q::Private => AddressDesc::Private,
            },
            size: a.size,
            type_qualifier: a.type_qualifier,
        }
    }
}

impl From<&gencl_jit::abi::KernelBinary> for KernelDesc {
    fn from(k: &gencl_jit::abi::KernelBinary) -> Self {
        KernelDesc {
            name: k.name.clone(),
            args: k.args.iter().map(KernelArgDesc::from).collect(),
            simd: k.simd,
            slm_bytes: k.slm_bytes,
            scratch_bytes: k.scratch_bytes,
            required_wg_size: k.required_wg_size,
            required_sub_group_size: k.required_sub_group_size,
            spill_bytes: k.spill_bytes(),
            attributes: k.attributes.clone(),
        }
    }
}
