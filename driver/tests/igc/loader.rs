//! A test-only loader of ocloc's patch-token binaries (Gen9, "CTNI"): turns
//! each kernel into the `KernelBinary` descriptor gencl's submitter launches,
//! so IGC's machine code runs through exactly the path gencl's own code does.
//!
//! Layout facts from Intel's compute-runtime / IGC headers (patch_list.h,
//! patch_shared.h, patch_g7.h): a program header of 7 u32 (Magic "CTNI",
//! Version, Device, GPUPointerSizeInBytes, NumberOfKernels, SteppingId,
//! PatchListSize) and its patch list; then per kernel a 40-byte header
//! (CheckSum u32, ShaderHashCode u64, KernelNameSize, PatchListSize,
//! KernelHeapSize, GeneralStateHeapSize, DynamicStateHeapSize,
//! SurfaceStateHeapSize, KernelUnpaddedSize), the name, the four heaps and
//! the patch list of {Token u32, Size u32, body} items.
//!
//! Anything the loader does not model is an error naming the token, never
//! silently ignored.

use gencl_jit::abi::{
    AddressQualifier, ArgKind, ArgPiece, DataBuffer, ImplicitArg, ImplicitKind, KernelArg,
    KernelBinary, ObjectParam, SamplerHeap,
};

// Patch tokens (PATCH_TOKEN enum).
const STATE_SIP: u32 = 2;
const SAMPLER_STATE_ARRAY: u32 = 5;
const BINDING_TABLE_STATE: u32 = 8;
const GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 11;
const IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 12;
const SAMPLER_KERNEL_ARGUMENT: u32 = 16;
const ALLOCATE_LOCAL_SURFACE: u32 = 15;
const DATA_PARAMETER_BUFFER: u32 = 17;
const MEDIA_VFE_STATE: u32 = 18;
const MEDIA_INTERFACE_DESCRIPTOR_LOAD: u32 = 19;
const INTERFACE_DESCRIPTOR_DATA: u32 = 21;
const THREAD_PAYLOAD: u32 = 22;
const EXECUTION_ENVIRONMENT: u32 = 23;
const DATA_PARAMETER_STREAM: u32 = 25;
const KERNEL_ARGUMENT_INFO: u32 = 26;
const KERNEL_ATTRIBUTES_INFO: u32 = 27;
const STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 30;
const STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 31;
const ALLOCATE_STATELESS_PRIVATE_MEMORY: u32 = 38;
const ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO: u32 = 42;
const ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION: u32 = 44;
const GTPIN_FREE_GRF_INFO: u32 = 51;
const GTPIN_INFO: u32 = 52;
const MEDIA_VFE_STATE_SLOT1: u32 = 55;

// DATA_PARAMETER_TOKEN values.
const DP_KERNEL_ARGUMENT: u32 = 1;
const DP_LOCAL_WORK_SIZE: u32 = 2;
const DP_GLOBAL_WORK_SIZE: u32 = 3;
const DP_NUM_WORK_GROUPS: u32 = 4;
const DP_WORK_DIMENSIONS: u32 = 5;
const DP_SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES: u32 = 8;
const DP_IMAGE_WIDTH: u32 = 9;
const DP_IMAGE_HEIGHT: u32 = 10;
const DP_IMAGE_DEPTH: u32 = 11;
const DP_IMAGE_CHANNEL_DATA_TYPE: u32 = 12;
const DP_IMAGE_CHANNEL_ORDER: u32 = 13;
const DP_IMAGE_ARRAY_SIZE: u32 = 18;
const DP_IMAGE_NUM_SAMPLES: u32 = 20;
const DP_SAMPLER_COORDINATE_SNAP_WA_REQUIRED: u32 = 21;
const DP_IMAGE_NUM_MIP_LEVELS: u32 = 27;
const DP_GLOBAL_WORK_OFFSET: u32 = 16;
const DP_ENQUEUED_LOCAL_WORK_SIZE: u32 = 28;
const DP_BUFFER_OFFSET: u32 = 42;
const DP_BUFFER_STATEFUL: u32 = 43;

fn u32_at(b: &[u8], o: usize) -> Result<u32, String> {
    b.get(o..o + 4)
        .map(|x| u32::from_le_bytes(x.try_into().unwrap()))
        .ok_or_else(|| format!("truncated at {o:#x}"))
}

fn u64_at(b: &[u8], o: usize) -> Result<u64, String> {
    b.get(o..o + 8)
        .map(|x| u64::from_le_bytes(x.try_into().unwrap()))
        .ok_or_else(|| format!("truncated at {o:#x}"))
}

fn slice(b: &[u8], o: usize, n: usize) -> Result<&[u8], String> {
    b.get(o..o + n)
        .ok_or_else(|| format!("{n} bytes at {o:#x} run past the end"))
}

/// The patch-token program inside ocloc's ELF (the section starting with "CTNI").
fn program(elf: &[u8]) -> Result<&[u8], String> {
    if elf.get(0..4) != Some(&b"\x7fELF"[..]) {
        return Err("not an ELF file".into());
    }
    let shoff = u64_at(elf, 0x28)? as usize;
    let shnum = u16::from_le_bytes(slice(elf, 0x3c, 2)?.try_into().unwrap()) as usize;
    for i in 0..shnum {
        let sh = shoff + i * 64;
        let off = u64_at(elf, sh + 0x18)? as usize;
        let size = u64_at(elf, sh + 0x20)? as usize;
        let sec = slice(elf, off, size)?;
        if sec.starts_with(b"CTNI") {
            return Ok(sec);
        }
    }
    Err("no patch-token program (CTNI) in the ELF".into())
}

/// Every kernel of an ocloc `-device skl` binary.
pub fn load(elf: &[u8]) -> Result<Vec<KernelBinary>, String> {
    let p = program(elf)?;
    let kernels = u32_at(p, 16)? as usize;
    let program_patches = slice(p, 28, u32_at(p, 24)? as usize)?;
    let constants = program_constants(program_patches)?;
    let mut o = 28 + program_patches.len();
    let mut out = Vec::new();
    for _ in 0..kernels {
        let name_size = u32_at(p, o + 12)? as usize;
        let patch_size = u32_at(p, o + 16)? as usize;
        let heap_size = u32_at(p, o + 20)? as usize;
        let gsh = u32_at(p, o + 24)? as usize;
        let dsh = u32_at(p, o + 28)? as usize;
        let ssh_size = u32_at(p, o + 32)? as usize;
        o += 40;
        let name = String::from_utf8_lossy(slice(p, o, name_size)?)
            .trim_end_matches('\0')
            .to_string();
        o += name_size;
        let heap = slice(p, o, heap_size)?;
        o += heap_size + gsh + dsh;
        let dsh_bytes = slice(p, o - dsh, dsh)?;
        let ssh = slice(p, o, ssh_size)?;
        o += ssh_size;
        let patches = slice(p, o, patch_size)?;
        o += patch_size;
        let binary = kernel(&name, heap, dsh_bytes, ssh, patches, &constants)
            .map_err(|e| format!("kernel {name}: {e}"))?;
        out.push(binary);
    }
    Ok(out)
}

/// What the patch list says about one argument.
#[derive(Default)]
struct ArgInfo {
    address: Option<String>,
    name: String,
    type_name: String,
    type_qualifier: String,
    /// Stateless pointer: (cross-thread offset, SSH offset of its surface state).
    pointer: Option<(u32, u32)>,
    /// SLM offset location of a __local pointer.
    local: Option<u32>,
    pieces: Vec<ArgPiece>,
    /// An image: the SSH offset of its surface state.
    image: Option<u32>,
    /// A sampler: the DSH offset of its SAMPLER_STATE.
    sampler: Option<u32>,
    /// Image and sampler values pushed.
    object_params: Vec<(ObjectParam, u32)>,
}

/// The program's constant buffers (ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO:
/// ConstantBufferIndex, InlineDataSize, then the data), by index.
fn program_constants(patches: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    let mut o = 0;
    while o < patches.len() {
        let token = u32_at(patches, o)?;
        let size = u32_at(patches, o + 4)? as usize;
        if size < 8 {
            return Err(format!("program patch item {token} of size {size}"));
        }
        match token {
            ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO => {
                let index = u32_at(patches, o + 8)? as usize;
                let n = u32_at(patches, o + 12)? as usize;
                // The inline data may extend past the item's Size (it does in IGC's output).
                let data = slice(patches, o + 16, n)?.to_vec();
                if out.len() <= index {
                    out.resize(index + 1, Vec::new());
                }
                out[index] = data;
                o += 16 + n;
                continue;
            }
            t => return Err(format!("program-scope patch token {t} not modelled")),
        }
    }
    Ok(out)
}

fn kernel(
    name: &str,
    heap: &[u8],
    dsh: &[u8],
    ssh: &[u8],
    patches: &[u8],
    constants: &[Vec<u8>],
) -> Result<KernelBinary, String> {
    let mut args: Vec<ArgInfo> = Vec::new();
    fn arg(args: &mut Vec<ArgInfo>, n: u32) -> Result<&mut ArgInfo, String> {
        let n = n as usize;
        if n > 255 {
            return Err(format!("argument number {n}"));
        }
        if args.len() <= n {
            args.resize_with(n + 1, ArgInfo::default);
        }
        Ok(&mut args[n])
    }
    let mut implicit = Vec::new();
    let mut binding_table: Vec<u32> = Vec::new();
    let mut cross_thread_bytes = 0;
    let mut simd = 0;
    let mut barriers = false;
    let mut required_wg_size = None;
    let mut slm_bytes = 0;
    let mut scratch_per_thread = 0;
    let mut attributes = String::new();
    let mut payload_ok = false;
    let mut data_buffers = Vec::new();
    let mut data_ssh = Vec::new();
    let mut samplers = None;

    let mut o = 0;
    while o < patches.len() {
        let token = u32_at(patches, o)?;
        let size = u32_at(patches, o + 4)? as usize;
        if size < 8 {
            return Err(format!("patch item {token} of size {size}"));
        }
        let body = slice(patches, o + 8, size - 8)?;
        let f = |i: usize| u32_at(body, 4 * i);
        match token {
            BINDING_TABLE_STATE => {
                let (offset, count) = (f(0)? as usize, f(1)? as usize);
                binding_table = (0..count)
                    .map(|i| u32_at(ssh, offset + 4 * i))
                    .collect::<Result<_, _>>()?;
            }
            DATA_PARAMETER_BUFFER => {
                let (ty, n, offset, data_size, source) = (f(0)?, f(1)?, f(2)?, f(3)?, f(4)?);
                let dim = (source / 4) as u8;
                let kind = match ty {
                    DP_KERNEL_ARGUMENT => {
                        arg(&mut args, n)?.pieces.push(ArgPiece {
                            src: source,
                            dst: offset,
                            size: data_size,
                        });
                        None
                    }
                    DP_SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES => {
                        arg(&mut args, n)?.local = Some(offset);
                        None
                    }
                    DP_IMAGE_WIDTH
                    | DP_IMAGE_HEIGHT
                    | DP_IMAGE_DEPTH
                    | DP_IMAGE_CHANNEL_DATA_TYPE
                    | DP_IMAGE_CHANNEL_ORDER
                    | DP_IMAGE_ARRAY_SIZE
                    | DP_IMAGE_NUM_SAMPLES
                    | DP_IMAGE_NUM_MIP_LEVELS
                    | DP_SAMPLER_COORDINATE_SNAP_WA_REQUIRED => {
                        let p = match ty {
                            DP_IMAGE_WIDTH => ObjectParam::ImageWidth,
                            DP_IMAGE_HEIGHT => ObjectParam::ImageHeight,
                            DP_IMAGE_DEPTH => ObjectParam::ImageDepth,
                            DP_IMAGE_CHANNEL_DATA_TYPE => ObjectParam::ImageChannelDataType,
                            DP_IMAGE_CHANNEL_ORDER => ObjectParam::ImageChannelOrder,
                            DP_IMAGE_ARRAY_SIZE => ObjectParam::ImageArraySize,
                            DP_IMAGE_NUM_SAMPLES => ObjectParam::ImageNumSamples,
                            DP_IMAGE_NUM_MIP_LEVELS => ObjectParam::ImageNumMipLevels,
                            _ => ObjectParam::SamplerSnapWa,
                        };
                        if data_size != 4 {
                            return Err(format!("{p:?} of {data_size} bytes"));
                        }
                        arg(&mut args, n)?.object_params.push((p, offset));
                        None
                    }
                    DP_LOCAL_WORK_SIZE => Some(ImplicitKind::LocalSize),
                    DP_ENQUEUED_LOCAL_WORK_SIZE => Some(ImplicitKind::EnqueuedLocalSize),
                    DP_GLOBAL_WORK_SIZE => Some(ImplicitKind::GlobalSize),
                    DP_NUM_WORK_GROUPS => Some(ImplicitKind::NumGroups),
                    DP_GLOBAL_WORK_OFFSET => Some(ImplicitKind::GlobalOffset),
                    DP_WORK_DIMENSIONS => Some(ImplicitKind::WorkDim),
                    // Whole buffers start at offset 0 of their surface, and the cross-thread
                    // data starts zeroed; "stateful" only marks the argument.
                    DP_BUFFER_OFFSET | DP_BUFFER_STATEFUL => None,
                    t => return Err(format!("data parameter type {t} not modelled")),
                };
                if let Some(kind) = kind {
                    if data_size != 4 || dim > 2 {
                        return Err(format!("implicit {kind:?} of {data_size} bytes, dim {dim}"));
                    }
                    implicit.push(ImplicitArg { kind, dim, offset });
                }
            }
            STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT
            | STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                let (n, ssh_off, offset, data_size) = (f(0)?, f(1)?, f(2)?, f(3)?);
                if data_size != 8 {
                    return Err(format!("{data_size}-byte pointer argument"));
                }
                arg(&mut args, n)?.pointer = Some((offset, ssh_off));
            }
            IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                // ArgumentNumber, Type, Offset (of the surface state in the SSH), ...
                let (n, ssh_off) = (f(0)?, f(2)?);
                arg(&mut args, n)?.image = Some(ssh_off);
            }
            SAMPLER_KERNEL_ARGUMENT => {
                // ArgumentNumber, Type, Offset (of the SAMPLER_STATE in the DSH), ...
                let (n, dsh_off) = (f(0)?, f(2)?);
                arg(&mut args, n)?.sampler = Some(dsh_off);
            }
            SAMPLER_STATE_ARRAY => {
                // Offset, Count, BorderColorOffset (in the DSH).
                samplers = Some(SamplerHeap {
                    heap: dsh.to_vec(),
                    state_offset: f(0)?,
                    count: f(1)?,
                    border_offset: f(2)?,
                    inline: Vec::new(),
                });
            }
            GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                return Err("a buffer argument without a stateless pointer".into())
            }
            ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION => {
                let (index, ssh_off, offset, data_size) = (f(0)?, f(1)?, f(2)?, f(3)?);
                let data = constants
                    .get(index as usize)
                    .ok_or_else(|| format!("constant buffer {index} is not in the program"))?;
                if data_size != 8 {
                    return Err(format!("{data_size}-byte constant buffer pointer"));
                }
                data_buffers.push(DataBuffer {
                    data: data.clone(),
                    curbe_offset: offset,
                    bti: None,
                });
                data_ssh.push(ssh_off);
            }
            ALLOCATE_LOCAL_SURFACE => slm_bytes = f(1)?,
            MEDIA_VFE_STATE => scratch_per_thread = f(1)?,
            MEDIA_VFE_STATE_SLOT1 if f(1)? != 0 => {
                return Err("a second scratch space (slot 1)".into())
            }
            ALLOCATE_STATELESS_PRIVATE_MEMORY if f(3)? != 0 => {
                return Err(format!(
                    "stateless private memory ({} bytes per thread) not modelled",
                    f(3)?
                ))
            }
            THREAD_PAYLOAD => {
                // LocalIDX/Y/ZPresent, LocalIDFlattenedPresent: the per-thread block is
                // local IDs x, y, z (u16 per lane, whole GRFs each), as gencl lays out.
                let (x, y, z, flat) = (f(1)?, f(2)?, f(3)?, f(4)?);
                if (x, y, z, flat) != (1, 1, 1, 0) {
                    return Err(format!(
                        "thread payload with local IDs x{x} y{y} z{z} flattened{flat}"
                    ));
                }
                if f(12)? != 0 || f(14)? != 0 {
                    return Err("per-thread data load skip / inline data not modelled".into());
                }
                payload_ok = true;
            }
            EXECUTION_ENVIRONMENT => {
                let req = [f(0)?, f(1)?, f(2)?];
                if req != [0, 0, 0] {
                    required_wg_size = Some(req);
                }
                simd = f(3)?;
                barriers = f(5)? != 0;
                let grfs = f(20)?;
                if grfs != 0 && grfs != 128 {
                    return Err(format!("{grfs} GRFs"));
                }
            }
            DATA_PARAMETER_STREAM => cross_thread_bytes = f(0)?.next_multiple_of(32),
            KERNEL_ARGUMENT_INFO => {
                let n = f(0)?;
                let sizes = [f(1)?, f(2)?, f(3)?, f(4)?, f(5)?];
                let mut at = 24;
                let mut strings = Vec::new();
                for s in sizes {
                    let bytes = slice(body, at, s as usize)?;
                    strings.push(
                        String::from_utf8_lossy(bytes)
                            .trim_end_matches('\0')
                            .to_string(),
                    );
                    at += s as usize;
                }
                let a = arg(&mut args, n)?;
                a.address = Some(strings[0].clone());
                a.name = strings[2].clone();
                a.type_name = strings[3].split(';').next().unwrap_or("").to_string();
                a.type_qualifier = strings[4].clone();
            }
            KERNEL_ATTRIBUTES_INFO => {
                let n = f(0)? as usize;
                attributes = String::from_utf8_lossy(slice(body, 4, n)?)
                    .trim_end_matches('\0')
                    .to_string();
            }
            // Facts the runtime does not need: the debugger's system routine, the interface
            // descriptor template (gencl builds its own from the fields above), GT-Pin info.
            STATE_SIP
            | MEDIA_INTERFACE_DESCRIPTOR_LOAD
            | INTERFACE_DESCRIPTOR_DATA
            | GTPIN_FREE_GRF_INFO
            | GTPIN_INFO
            | MEDIA_VFE_STATE_SLOT1
            | ALLOCATE_STATELESS_PRIVATE_MEMORY => {}
            t => return Err(format!("patch token {t} not modelled")),
        }
        o += size;
    }
    if !payload_ok {
        return Err("no thread payload token".into());
    }
    if ![8, 16, 32].contains(&simd) {
        return Err(format!("SIMD{simd}"));
    }
    for (d, ssh_off) in data_buffers.iter_mut().zip(data_ssh) {
        d.bti = binding_table
            .iter()
            .position(|&e| e == ssh_off)
            .map(|b| b as u8);
    }
    let kargs = args
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            let address = match a.address.as_deref() {
                Some("__global") => AddressQualifier::Global,
                Some("__constant") => AddressQualifier::Constant,
                Some("__local") => AddressQualifier::Local,
                Some("__private") | Some("NONE") | None => AddressQualifier::Private,
                Some(q) => return Err(format!("argument {i}: address qualifier {q}")),
            };
            let bti_of = |ssh_off: u32| {
                binding_table
                    .iter()
                    .position(|&e| e == ssh_off)
                    .map(|b| b as u8)
            };
            let (kind, size, curbe_offset, pieces) = if let Some(ssh_off) = a.image {
                let bti = bti_of(ssh_off)
                    .ok_or_else(|| format!("argument {i}: an image outside the binding table"))?;
                (
                    ArgKind::Image {
                        bti,
                        image: Default::default(),
                    },
                    8,
                    0,
                    Vec::new(),
                )
            } else if let Some(state_offset) = a.sampler {
                (ArgKind::Sampler { state_offset }, 8, 0, Vec::new())
            } else if let Some((off, ssh_off)) = a.pointer {
                let bti = binding_table
                    .iter()
                    .position(|&e| e == ssh_off)
                    .map(|b| b as u8);
                (ArgKind::Buffer { bti }, 8, off, Vec::new())
            } else if let Some(off) = a.local {
                (ArgKind::Local, 8, off, Vec::new())
            } else if !a.pieces.is_empty() {
                let size = a.pieces.iter().map(|p| p.src + p.size).max().unwrap_or(0);
                (ArgKind::Value, size, 0, a.pieces)
            } else {
                return Err(format!(
                    "argument {i} ({}) has no location in the payload",
                    a.name
                ));
            };
            Ok(KernelArg {
                name: a.name,
                type_name: a.type_name,
                kind,
                address,
                size,
                curbe_offset,
                pieces,
                type_qualifier: u64::from(a.type_qualifier.contains("const")),
                object_params: a.object_params,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(KernelBinary {
        name: name.to_string(),
        isa: heap.to_vec(),
        simd,
        grf_count: 128,
        grfs_used: 0,
        args: kargs,
        cross_thread_bytes,
        implicit,
        uses_local_ids: true,
        slm_bytes,
        scratch_bytes: 0,
        private_bytes: 0,
        printf: None,
        scratch_per_thread,
        barriers,
        data_buffers,
        globals_offset: None,
        scratch_base_offset: None,
        required_wg_size,
        // IGC records the source's attributes as the source spells them.
        required_sub_group_size: attributes
            .split_once("intel_reqd_sub_group_size(")
            .and_then(|(_, rest)| rest.split_once(')'))
            .and_then(|(n, _)| n.trim().parse().ok()),
        attributes,
        samplers,
    })
}
