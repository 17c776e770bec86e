//! Gen9 send messages: a send's SFID + descriptors decoded into a named
//! message (what the GPU model executes), descriptor builders for the JIT,
//! and IGA's end-of-line comment. Descriptor layouts: PRM Vol 2d
//! "Message Descriptor" (data port DC0/DC1, gateway, thread spawner), as in
//! Mesa's brw_eu_defines.h / brw_eu.h descriptor helpers (facts re-typed),
//! checked against iga64's decoding of ocloc-built kernels.

use crate::{Dst, Inst, Opcode, RegFile, Region, SendInfo, Sfid, Src, SrcMod, SrcReg, Type};

/// Binding-table indices 0..=MAX_SURFACE_BTI name surfaces; 240..=251 are reserved, and
/// 252..=255 have fixed meanings (Mesa brw_eu_defines.h, IGA's send decoding).
pub const MAX_SURFACE_BTI: u8 = 239;
/// Binding-table index of bindless surface access.
pub const BTI_BINDLESS: u8 = 252;
/// Binding-table index of stateless access without coherence (IA-noncoherent A64).
pub const BTI_STATELESS_NON_COHERENT: u8 = 253;
/// Binding-table index of shared local memory (SLM).
pub const BTI_SLM: u8 = 254;
/// Binding-table index of stateless (flat) access.
pub const BTI_STATELESS: u8 = 255;

/// Atomic operations of the data port (integer AOP codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Cmpwr8b,
    And,
    Or,
    Xor,
    Mov,
    Inc,
    Dec,
    Add,
    Sub,
    RevSub,
    Imax,
    Imin,
    Umax,
    Umin,
    Cmpwr,
    Predec,
    /// Float atomics (separate message types): max, min, compare-exchange, add.
    Fmax,
    Fmin,
    Fcmpwr,
    Fadd,
}

impl AtomicOp {
    fn from_int(c: u32) -> AtomicOp {
        use AtomicOp::*;
        [
            Cmpwr8b, And, Or, Xor, Mov, Inc, Dec, Add, Sub, RevSub, Imax, Imin, Umax, Umin, Cmpwr,
            Predec,
        ][(c & 0xF) as usize]
    }
    fn int_code(self) -> u32 {
        use AtomicOp::*;
        match self {
            Cmpwr8b => 0,
            And => 1,
            Or => 2,
            Xor => 3,
            Mov => 4,
            Inc => 5,
            Dec => 6,
            Add => 7,
            Sub => 8,
            RevSub => 9,
            Imax => 10,
            Imin => 11,
            Umax => 12,
            Umin => 13,
            Cmpwr => 14,
            Predec => 15,
            Fmax => 1,
            Fmin => 2,
            Fcmpwr => 3,
            Fadd => 4,
        }
    }
    fn from_float(c: u32) -> Option<AtomicOp> {
        Some(match c & 7 {
            1 => AtomicOp::Fmax,
            2 => AtomicOp::Fmin,
            3 => AtomicOp::Fcmpwr,
            4 => AtomicOp::Fadd,
            _ => return None,
        })
    }
    /// IGA's description of an integer atomic op.
    fn iga_name(self) -> &'static str {
        use AtomicOp::*;
        match self {
            Cmpwr8b => "64b integer compare and swap",
            And => "logical AND",
            Or => "logical OR",
            Xor => "logical XOR",
            Mov => "store",
            Inc => "integer increment",
            Dec => "integer decrement",
            Add => "integer add",
            Sub => "integer subtract",
            RevSub => "commuted integer subtract",
            Imax => "signed-integer max",
            Imin => "signed-integer min",
            Umax => "unsigned-integer max",
            Umin => "unsigned-integer min",
            Cmpwr => "integer compare and swap",
            Predec => "integer pre-decrement (returns pre-decrement value)",
            Fmax => "max",
            Fmin => "min",
            Fcmpwr => "fp-compare and swap ",
            Fadd => "add",
        }
    }
}

/// What a message does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsgKind {
    /// DC1 untyped surface read/write (BTI, SLM or stateless 32-bit offsets).
    UntypedRead,
    UntypedWrite,
    /// DC1 A64 untyped surface read/write (64-bit addresses).
    A64UntypedRead,
    A64UntypedWrite,
    /// DC1 A64 scattered (byte/dword/qword gathering) read/write.
    A64ScatteredRead,
    A64ScatteredWrite,
    /// A64 OWord block read/write.
    A64BlockRead,
    A64BlockWrite,
    UntypedAtomic,
    UntypedAtomicFloat,
    A64UntypedAtomic,
    A64UntypedAtomicFloat,
    TypedRead,
    TypedWrite,
    TypedAtomic,
    /// DC1 media block read/write: a block of bytes of a 2D surface at a byte X and a row Y
    /// (header dword 0 and 1), `data_size` ... the block's shape in header dword 2.
    MediaBlockRead,
    MediaBlockWrite,
    /// DC0.
    OwordBlockRead,
    UnalignedOwordBlockRead,
    OwordBlockWrite,
    DwordScatteredRead,
    DwordScatteredWrite,
    ByteScatteredRead,
    ByteScatteredWrite,
    MemoryFence,
    ScratchBlockRead,
    ScratchBlockWrite,
    /// Gateway barrier signal.
    Barrier,
    /// Thread spawner end of thread.
    EndOfThread,
    Sampler,
    RenderTargetWrite,
    Other,
}

/// A send decoded into a named message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    pub sfid: Sfid,
    pub kind: MsgKind,
    /// Payload length of src0 in GRFs, of src1 (sends), response length.
    pub mlen: u32,
    pub ex_mlen: u32,
    pub rlen: u32,
    pub header: bool,
    /// Binding-table index (254 SLM, 255 stateless) where the message has one.
    pub bti: Option<u8>,
    /// SIMD width of the message (1 for block messages; 4 for an untyped
    /// message in SIMD4x2 mode; 0 for a reserved SIMD mode).
    pub simd: u32,
    /// Channels enabled (RGBA mask, bit 0 = x) of untyped/typed messages.
    pub channel_mask: u8,
    /// Bytes per element of scattered messages; bytes per block of block
    /// messages; 0 for a reserved size encoding.
    pub data_size: u32,
    /// Elements per lane of A64 dword/qword scattered messages (1 otherwise).
    pub elements: u32,
    /// A one-OWord block message on the high half of its register.
    pub high_half: bool,
    pub atomic: Option<AtomicOp>,
    /// Atomics: is the old value returned.
    pub returns: bool,
    /// Atomics: 64-bit data.
    pub data64: bool,
    /// Scratch: offset in 32-byte units (HWords), blocks.
    pub scratch_offset: u32,
    /// Sampler messages: the operation and the sampler-state index.
    pub sampler: Option<SamplerMsg>,
    pub eot: bool,
}

/// A sampler message's operation (descriptor bits 16:12; Mesa `brw_eu_defines.h`,
/// `GFX5_SAMPLER_MESSAGE_*`, `GFX9_SAMPLER_MESSAGE_*`). The payload parameters of each, for
/// SIMD8/16 (one or two registers per parameter): `sample`/`sample_lz` u, v, r;
/// `sample_l` lod, u, v, r; `ld` u, v, lod, r (Gen9's order); `ld_lz` u, v, r;
/// `resinfo` lod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplerOp {
    Sample,
    SampleB,
    SampleL,
    SampleC,
    SampleD,
    Ld,
    Gather4,
    Lod,
    Resinfo,
    SampleInfo,
    SampleLz,
    SampleCLz,
    LdLz,
    /// Type 31 in SIMD32/64 mode: flush the sampler's caches (IGC sends it for an image
    /// fence, before reading what a kernel wrote); the reply register is written when done.
    CacheFlush,
    /// Any other encoding (the value of bits 16:12).
    Other(u8),
}

impl SamplerOp {
    pub fn from_bits(v: u32) -> SamplerOp {
        use SamplerOp::*;
        match v {
            0 => Sample,
            1 => SampleB,
            2 => SampleL,
            3 => SampleC,
            4 => SampleD,
            7 => Ld,
            8 => Gather4,
            9 => Lod,
            10 => Resinfo,
            11 => SampleInfo,
            24 => SampleLz,
            25 => SampleCLz,
            26 => LdLz,
            v => Other(v as u8),
        }
    }

    pub fn bits(self) -> u32 {
        use SamplerOp::*;
        match self {
            Sample => 0,
            SampleB => 1,
            SampleL => 2,
            SampleC => 3,
            SampleD => 4,
            Ld => 7,
            Gather4 => 8,
            Lod => 9,
            Resinfo => 10,
            SampleInfo => 11,
            SampleLz => 24,
            SampleCLz => 25,
            LdLz => 26,
            CacheFlush => 31,
            Other(v) => u32::from(v),
        }
    }
}

/// The sampler's fields of a descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerMsg {
    pub op: SamplerOp,
    /// SAMPLER_STATE index (bits 11:8), from the sampler state pointer.
    pub index: u8,
}

fn bits(v: u32, lo: u32, hi: u32) -> u32 {
    (v >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

/// Decode a send's message. `exec_size` is the instruction's; `desc` must be
/// an immediate (register descriptors are known only at run time: the GPU
/// model passes a0.0's value).
pub fn decode_message(op: Opcode, exec_size: u8, sfid: Sfid, desc: u32, ex_desc: u32) -> Message {
    let split = matches!(op, Opcode::Sends | Opcode::Sendsc);
    let mut m = Message {
        sfid,
        kind: MsgKind::Other,
        mlen: bits(desc, 25, 28),
        ex_mlen: if split { bits(ex_desc, 6, 9) } else { 0 },
        rlen: bits(desc, 20, 24),
        header: bits(desc, 19, 19) != 0,
        bti: None,
        simd: exec_size as u32,
        channel_mask: 0,
        data_size: 0,
        elements: 1,
        high_half: false,
        atomic: None,
        returns: false,
        data64: false,
        scratch_offset: 0,
        sampler: None,
        eot: ex_desc & 0x20 != 0,
    };
    let bti = (desc & 0xFF) as u8;
    let ty = bits(desc, 14, 18);
    let ctl = bits(desc, 8, 13);
    // Untyped surface messages, bits 13:12: 0 SIMD4x2, 1 SIMD16, 2 SIMD8.
    let simd_mode = |c: u32| match bits(c, 4, 5) {
        0 => 4,
        1 => 16,
        2 => 8,
        _ => 0,
    };
    // OWord block sizes, message control 2:0 (Mesa BRW_DATAPORT_OWORD_BLOCK_*):
    // 1 OWord in the low or the high half of a register, 2, 4 or 8 OWords.
    let oword_block = |m: &mut Message| {
        m.simd = 1;
        m.high_half = bits(ctl, 0, 2) == 1;
        m.data_size = match bits(ctl, 0, 2) {
            0 | 1 => 16,
            2 => 32,
            3 => 64,
            4 => 128,
            _ => 0,
        };
    };
    match sfid {
        Sfid::Dc1 => {
            m.bti = Some(bti);
            match ty {
                0x01 | 0x09 | 0x11 | 0x19 => {
                    m.kind = match ty {
                        0x01 => MsgKind::UntypedRead,
                        0x09 => MsgKind::UntypedWrite,
                        0x11 => MsgKind::A64UntypedRead,
                        _ => MsgKind::A64UntypedWrite,
                    };
                    m.channel_mask = (!ctl & 0xF) as u8;
                    m.simd = simd_mode(ctl);
                    m.data_size = 4;
                    if ty >= 0x11 {
                        m.bti = None;
                    }
                }
                0x02 | 0x12 => {
                    m.kind = if ty == 0x02 {
                        MsgKind::UntypedAtomic
                    } else {
                        MsgKind::A64UntypedAtomic
                    };
                    m.atomic = Some(AtomicOp::from_int(ctl));
                    m.returns = bits(ctl, 5, 5) != 0;
                    if ty == 0x02 {
                        m.simd = if bits(ctl, 4, 4) != 0 { 8 } else { 16 };
                    } else {
                        m.simd = 8;
                        m.data64 = bits(ctl, 4, 4) != 0;
                        m.bti = None;
                    }
                    m.data_size = if m.data64 { 8 } else { 4 };
                }
                0x1B | 0x1D => {
                    m.kind = if ty == 0x1B {
                        MsgKind::UntypedAtomicFloat
                    } else {
                        MsgKind::A64UntypedAtomicFloat
                    };
                    m.atomic = AtomicOp::from_float(ctl);
                    m.returns = bits(ctl, 5, 5) != 0;
                    m.simd = if ty == 0x1B && bits(ctl, 4, 4) == 0 {
                        16
                    } else {
                        8
                    };
                    m.data_size = 4;
                    if ty == 0x1D {
                        m.bti = None;
                    }
                }
                0x10 | 0x1A => {
                    m.kind = if ty == 0x10 {
                        MsgKind::A64ScatteredRead
                    } else {
                        MsgKind::A64ScatteredWrite
                    };
                    // Subtype 1:0 (byte, dword, qword); data size 3:2 is the
                    // bytes of a byte element, the count of dword/qword elements.
                    let n = 1 << bits(ctl, 2, 3);
                    (m.data_size, m.elements) = match bits(ctl, 0, 1) {
                        0 if n <= 4 => (n, 1),
                        1 => (4, n),
                        2 => (8, n),
                        _ => (0, 1),
                    };
                    m.simd = if bits(ctl, 4, 4) != 0 { 16 } else { 8 };
                    m.bti = None;
                }
                0x14 | 0x15 => {
                    m.kind = if ty == 0x14 {
                        MsgKind::A64BlockRead
                    } else {
                        MsgKind::A64BlockWrite
                    };
                    oword_block(&mut m);
                    m.bti = None;
                }
                // Typed atomics are not decoded further (no OpenCL built-in needs them).
                0x06 => m.kind = MsgKind::TypedAtomic,
                // Media block read and write (IGC's `hdc.dc1; media block read`): always a
                // header; the block's width and height are the header's, not the descriptor's.
                0x04 | 0x0A => {
                    m.kind = if ty == 0x04 {
                        MsgKind::MediaBlockRead
                    } else {
                        MsgKind::MediaBlockWrite
                    };
                    m.simd = 1;
                }
                0x05 | 0x0D => {
                    m.kind = if ty == 0x05 {
                        MsgKind::TypedRead
                    } else {
                        MsgKind::TypedWrite
                    };
                    // Typed messages are SIMD8 (or SIMD4x2) with a slot group, bits 13:12
                    // (Mesa `brw_dp_typed_surface_rw_desc`, the PRM's MDC_SG3): 0 SIMD4x2,
                    // 1 the low 8 slots, 2 the high 8 (which of the header's 16 sample-mask
                    // bits apply).
                    (m.simd, m.high_half) = match bits(ctl, 4, 5) {
                        0 => (4, false),
                        1 => (8, false),
                        2 => (8, true),
                        _ => (0, false),
                    };
                    m.channel_mask = (!ctl & 0xF) as u8;
                    m.data_size = 4;
                }
                _ => {}
            }
        }
        // The constant and sampler caches' data ports take DC0's legacy messages.
        Sfid::Dc0 | Sfid::ConstCache | Sfid::Dc2 => {
            m.bti = Some(bti);
            if sfid == Sfid::Dc0 && bits(desc, 18, 18) != 0 {
                // Scratch block messages: bit 17 write, 13:12 blocks, 11:0 offset (HWords).
                m.kind = if bits(desc, 17, 17) != 0 {
                    MsgKind::ScratchBlockWrite
                } else {
                    MsgKind::ScratchBlockRead
                };
                m.simd = 1;
                m.data_size = 32 * [1, 2, 4, 8][bits(desc, 12, 13) as usize];
                m.scratch_offset = bits(desc, 0, 11);
                m.bti = None;
                return m;
            }
            match ty & 0xF {
                0x0 | 0x1 | 0x8 => {
                    m.kind = match ty & 0xF {
                        0x0 => MsgKind::OwordBlockRead,
                        0x1 => MsgKind::UnalignedOwordBlockRead,
                        _ => MsgKind::OwordBlockWrite,
                    };
                    oword_block(&mut m);
                }
                0x3 | 0xB => {
                    m.kind = if ty & 0xF == 3 {
                        MsgKind::DwordScatteredRead
                    } else {
                        MsgKind::DwordScatteredWrite
                    };
                    m.data_size = 4;
                    m.simd = if bits(ctl, 0, 1) == 3 { 16 } else { 8 };
                }
                0x4 | 0xC => {
                    m.kind = if ty & 0xF == 4 {
                        MsgKind::ByteScatteredRead
                    } else {
                        MsgKind::ByteScatteredWrite
                    };
                    m.data_size = [1, 2, 4, 0][bits(ctl, 2, 3) as usize];
                    m.simd = if bits(ctl, 0, 0) != 0 { 16 } else { 8 };
                }
                0x7 => m.kind = MsgKind::MemoryFence,
                _ => {}
            }
        }
        Sfid::Gateway if bits(desc, 0, 2) == 4 => m.kind = MsgKind::Barrier,
        Sfid::ThreadSpawner if m.eot => m.kind = MsgKind::EndOfThread,
        Sfid::Sampler => {
            m.kind = MsgKind::Sampler;
            m.bti = Some(bti);
            // SIMD mode, bits 18:17: 0 SIMD4x2, 1 SIMD8, 2 SIMD16, 3 SIMD32/64.
            m.simd = [4, 8, 16, 32][bits(desc, 17, 18) as usize];
            let op = match (bits(desc, 12, 16), m.simd) {
                (31, 32) => SamplerOp::CacheFlush,
                (t, _) => SamplerOp::from_bits(t),
            };
            m.sampler = Some(SamplerMsg {
                op,
                index: bits(desc, 8, 11) as u8,
            });
        }
        Sfid::RenderCache if ty == 7 => m.kind = MsgKind::MemoryFence,
        Sfid::RenderCache => m.kind = MsgKind::RenderTargetWrite,
        _ => {}
    }
    m
}

/// Decode the message of a decoded send instruction (None: register descriptor).
pub fn message_of(inst: &crate::Inst) -> Option<Message> {
    let s = inst.send?;
    Some(decode_message(
        inst.op,
        inst.exec_size,
        s.sfid,
        s.desc?,
        s.ex_desc,
    ))
}

fn sfid_name(s: Sfid) -> &'static str {
    match s {
        Sfid::Dc1 => "hdc.dc1",
        Sfid::Dc0 => "hdc.dc0",
        Sfid::Dc2 => "hdc.dc2",
        Sfid::RenderCache => "hdc.rc",
        Sfid::ConstCache => "hdc.ro",
        Sfid::Gateway => "gateway",
        Sfid::ThreadSpawner => "spawner",
        Sfid::Sampler => "sampler",
        Sfid::Urb => "urb",
        Sfid::PixelInterp => "pixi",
        Sfid::Vme => "vme",
        Sfid::Cre => "cre",
        Sfid::Null => "null",
        Sfid::Raw(_) => "?",
    }
}

/// IGA's description of a message, where gencl names it the same way.
fn describe(m: &Message) -> Option<String> {
    let chans = |mask: u8| -> String {
        (0..4)
            .filter(|k| mask & (1 << k) != 0)
            .map(|k| b"xyzw"[k] as char)
            .collect()
    };
    Some(match m.kind {
        MsgKind::UntypedRead => format!("untyped surface read with {}", chans(m.channel_mask)),
        MsgKind::UntypedWrite => format!("untyped surface write with {}", chans(m.channel_mask)),
        MsgKind::A64ScatteredRead if m.data_size == 4 => "a64 dword gathering read".into(),
        MsgKind::A64ScatteredWrite if m.data_size == 4 => "a64 dword scattering write".into(),
        MsgKind::A64ScatteredRead if m.data_size == 8 => "a64 qword gathering read".into(),
        MsgKind::A64ScatteredWrite if m.data_size == 8 => "a64 qword scattering write".into(),
        MsgKind::ByteScatteredRead => format!("byte gathering read {}b", m.data_size * 8),
        MsgKind::ByteScatteredWrite => format!("byte scattering write {}b", m.data_size * 8),
        MsgKind::A64UntypedAtomic if !m.returns && !m.data64 => {
            format!("untyped a64 atomic int32 {}", m.atomic?.iga_name())
        }
        MsgKind::MediaBlockRead => "media block read".into(),
        MsgKind::MediaBlockWrite => "media block write".into(),
        MsgKind::ScratchBlockRead => format!("hword scratch block read x{}", m.data_size / 32),
        MsgKind::ScratchBlockWrite => format!("hword scratch block write x{}", m.data_size / 32),
        MsgKind::TypedWrite | MsgKind::TypedRead => format!(
            "typed surface {}{} with {}",
            if m.kind == MsgKind::TypedWrite {
                "write"
            } else {
                "read"
            },
            if m.high_half {
                " (high slot group)"
            } else {
                ""
            },
            chans(m.channel_mask)
        ),
        MsgKind::Sampler => {
            let s = m.sampler?;
            if s.op == SamplerOp::CacheFlush {
                return Some(format!(
                    "simd32/64 sampler cache flush using sampler index {}",
                    s.index
                ));
            }
            let what = match s.op {
                SamplerOp::Sample => "sample",
                SamplerOp::SampleB => "sample+LOD bias",
                SamplerOp::SampleL => "sample override LOD",
                SamplerOp::SampleC => "sample compare",
                SamplerOp::Ld => "sample load",
                SamplerOp::Resinfo => "sample res info",
                SamplerOp::SampleLz => "sample with lod forced to 0",
                SamplerOp::LdLz => "sample load with lod forced to 0",
                _ => return None,
            };
            format!("simd{} {what} using sampler index {}", m.simd, s.index)
        }
        MsgKind::Barrier => "signal barrier".into(),
        MsgKind::EndOfThread => "end of thread".into(),
        _ => return None,
    })
}

/// IGA's end-of-line comment for a send: `wr:M+X, rd:R; <sfid>; <message>`.
/// The message part is left out where gencl does not name a message the way
/// IGA does (the test compares up to what we print; see docs/isa.md).
pub fn comment(op: Opcode, exec_size: u8, si: &SendInfo, _dst_null: bool) -> String {
    let split = matches!(op, Opcode::Sends | Opcode::Sendsc);
    let ext = if split { (si.ex_desc >> 6) & 0xF } else { 0 };
    match si.desc {
        Some(d) => {
            let m = decode_message(op, exec_size, si.sfid, d, si.ex_desc);
            // IGA marks the header in the length of scratch messages ("wr:1h+2"), of the
            // memory fence ("wr:1h+0"), of sampler and typed messages ("wr:1h+4") and of media
            // block messages ("wr:1h+0", "wr:1h+1").
            let h = if matches!(
                m.kind,
                MsgKind::ScratchBlockRead
                    | MsgKind::ScratchBlockWrite
                    | MsgKind::MemoryFence
                    | MsgKind::Sampler
                    | MsgKind::TypedRead
                    | MsgKind::TypedWrite
                    | MsgKind::MediaBlockRead
                    | MsgKind::MediaBlockWrite
            ) && bits(d, 19, 19) != 0
            {
                "h"
            } else {
                ""
            };
            let mut s = format!(
                "wr:{}{h}+{}, rd:{}; {}",
                bits(d, 25, 28),
                ext,
                bits(d, 20, 24),
                sfid_name(si.sfid)
            );
            if let Some(t) = describe(&m) {
                s.push_str("; ");
                s.push_str(&t);
            }
            s
        }
        None => format!(
            "wr:a0.0[28:25]+{ext}, rd:a0.0[24:20]; {}",
            sfid_name(si.sfid)
        ),
    }
}

// ---- Builders (the JIT's side) ----

fn desc(mlen: u32, rlen: u32, header: bool, ty: u32, ctl: u32, bti: u32) -> u32 {
    (mlen << 25) | (rlen << 20) | ((header as u32) << 19) | (ty << 14) | (ctl << 8) | bti
}

/// SIMD-mode field of untyped surface messages (13:12): 1 = SIMD16, 2 = SIMD8.
fn untyped_simd(simd: u32) -> u32 {
    if simd == 16 {
        1
    } else {
        2
    }
}

fn chan_ctl(simd: u32, channels: u32) -> u32 {
    let mask = !((1u32 << channels.clamp(1, 4)) - 1) & 0xF;
    (untyped_simd(simd) << 4) | mask
}

/// A descriptor and its lengths: (desc, ex_desc with SFID, mlen, rlen).
pub type DescParts = (u32, u32, u32, u32);

/// A64 untyped surface read of `num_channels` dwords per lane: address
/// payload is 64-bit per lane (mlen 2 GRFs per 8 lanes).
pub fn a64_untyped_read_desc(simd: u32, num_channels: u32) -> DescParts {
    let regs = simd / 8;
    let (mlen, rlen) = (2 * regs, regs * num_channels);
    (
        desc(
            mlen,
            rlen,
            false,
            0x11,
            chan_ctl(simd, num_channels),
            BTI_STATELESS as u32,
        ),
        0xC,
        mlen,
        rlen,
    )
}

/// A64 untyped surface write (sends: src0 addresses, src1 data of
/// `num_channels` × simd/8 GRFs, put in ex_desc[9:6]).
pub fn a64_untyped_write_desc(simd: u32, num_channels: u32) -> DescParts {
    let regs = simd / 8;
    let mlen = 2 * regs;
    let ex = 0xC | ((regs * num_channels) << 6);
    (
        desc(
            mlen,
            0,
            false,
            0x19,
            chan_ctl(simd, num_channels),
            BTI_STATELESS as u32,
        ),
        ex,
        mlen,
        0,
    )
}

/// A64 byte scattered read of `bytes` (1, 2 or 4) bytes per lane, each returned in the
/// low bytes of a dword slot (message type 0x10, subtype byte, data size 3:2 = log2 bytes).
pub fn a64_byte_scattered_read_desc(simd: u32, bytes: u32) -> DescParts {
    let regs = simd / 8;
    let (mlen, rlen) = (2 * regs, regs);
    let ctl = (u32::from(simd == 16) << 4) | (bytes.trailing_zeros() << 2);
    (
        desc(mlen, rlen, false, 0x10, ctl, BTI_STATELESS as u32),
        0xC,
        mlen,
        rlen,
    )
}

/// A64 byte scattered write of the low `bytes` (1, 2 or 4) bytes of each lane's dword
/// (message type 0x1A; sends: src1 carries the data, one GRF per 8 lanes).
pub fn a64_byte_scattered_write_desc(simd: u32, bytes: u32) -> DescParts {
    let regs = simd / 8;
    let mlen = 2 * regs;
    let ctl = (u32::from(simd == 16) << 4) | (bytes.trailing_zeros() << 2);
    (
        desc(mlen, 0, false, 0x1A, ctl, BTI_STATELESS as u32),
        0xC | (regs << 6),
        mlen,
        0,
    )
}

/// DC0 byte scattered read through a binding-table index (254 = SLM): `bytes` (1, 2 or 4)
/// per lane at the dword offsets of the payload, each returned in the low bytes of a
/// dword slot (message type 0x04; control bit 0 SIMD16, 3:2 log2 of the size: Mesa's
/// `brw_dp_byte_scattered_rw_desc`).
pub fn byte_scattered_read_desc(bti: u8, simd: u32, bytes: u32) -> DescParts {
    let regs = simd / 8;
    let ctl = u32::from(simd == 16) | (bytes.trailing_zeros() << 2);
    (
        desc(regs, regs, false, 0x04, ctl, bti as u32),
        0xA,
        regs,
        regs,
    )
}

/// DC0 byte scattered write (message type 0x0C; sends: src1 the data, one dword per lane).
pub fn byte_scattered_write_desc(bti: u8, simd: u32, bytes: u32) -> DescParts {
    let regs = simd / 8;
    let ctl = u32::from(simd == 16) | (bytes.trailing_zeros() << 2);
    (
        desc(regs, 0, false, 0x0C, ctl, bti as u32),
        0xA | (regs << 6),
        regs,
        0,
    )
}

/// Untyped surface read through a binding-table index (254 = SLM).
pub fn untyped_read_desc(bti: u8, simd: u32, num_channels: u32) -> DescParts {
    let regs = simd / 8;
    let (mlen, rlen) = (regs, regs * num_channels);
    (
        desc(
            mlen,
            rlen,
            false,
            0x01,
            chan_ctl(simd, num_channels),
            bti as u32,
        ),
        0xC,
        mlen,
        rlen,
    )
}

/// Untyped surface write (sends form; data length in ex_desc[9:6]).
pub fn untyped_write_desc(bti: u8, simd: u32, num_channels: u32) -> DescParts {
    let regs = simd / 8;
    let ex = 0xC | ((regs * num_channels) << 6);
    (
        desc(
            regs,
            0,
            false,
            0x09,
            chan_ctl(simd, num_channels),
            bti as u32,
        ),
        ex,
        regs,
        0,
    )
}

/// Untyped 32-bit integer atomic through a BTI; `src_args` 0, 1 or 2 data operands.
pub fn untyped_atomic_desc(
    bti: u8,
    simd: u32,
    op: AtomicOp,
    returns: bool,
    src_args: u32,
) -> DescParts {
    let regs = simd / 8;
    let ctl = op.int_code() | (((simd == 8) as u32) << 4) | ((returns as u32) << 5);
    let rlen = if returns { regs } else { 0 };
    let ex = 0xC | ((regs * src_args) << 6);
    (
        desc(regs, rlen, false, 0x02, ctl, bti as u32),
        ex,
        regs,
        rlen,
    )
}

/// A64 untyped integer atomic, SIMD8 (the only width Gen9 has).
pub fn a64_atomic_desc(op: AtomicOp, data64: bool, returns: bool, src_args: u32) -> DescParts {
    let ctl = op.int_code() | ((data64 as u32) << 4) | ((returns as u32) << 5);
    let rlen = if returns {
        if data64 {
            2
        } else {
            1
        }
    } else {
        0
    };
    let ex = 0xC | ((src_args * if data64 { 2 } else { 1 }) << 6);
    (
        desc(2, rlen, false, 0x12, ctl, BTI_STATELESS as u32),
        ex,
        2,
        rlen,
    )
}

/// A64 float atomic (fmax, fmin, fcmpwr, fadd), SIMD8.
pub fn a64_float_atomic_desc(op: AtomicOp, returns: bool, src_args: u32) -> DescParts {
    let ctl = op.int_code() | ((returns as u32) << 5);
    let rlen = returns as u32;
    (
        desc(2, rlen, false, 0x1D, ctl, BTI_STATELESS as u32),
        0xC | (src_args << 6),
        2,
        rlen,
    )
}

/// Scratch block messages (DC0, header required: a copy of r0, whose dword 5 holds the
/// thread's scratch pointer): bit 18 scratch, bit 17 write, 13:12 log2 of the registers
/// (1, 2, 4 or 8 on Gen8+), 11:0 the offset in HWords (32 bytes). Mesa's
/// `GFX7_DATAPORT_SCRATCH_READ/WRITE` and `gfx7_block_read_scratch`.
fn scratch_bits(write: bool, regs: u32, offset_hwords: u32) -> u32 {
    debug_assert!(matches!(regs, 1 | 2 | 4 | 8) && offset_hwords < 4096);
    (1 << 18) | ((write as u32) << 17) | (regs.trailing_zeros() << 12) | offset_hwords
}

/// Scratch block read of `regs` GRFs from `offset_hwords` (send: src0 the header).
pub fn scratch_block_read_desc(regs: u32, offset_hwords: u32) -> DescParts {
    (
        desc(1, regs, true, 0, 0, 0) | scratch_bits(false, regs, offset_hwords),
        0xA,
        1,
        regs,
    )
}

/// Scratch block write of `regs` GRFs at `offset_hwords` (sends: src0 the header, src1 the
/// data, its length in ex_desc[9:6]).
pub fn scratch_block_write_desc(regs: u32, offset_hwords: u32) -> DescParts {
    (
        desc(1, 0, true, 0, 0, 0) | scratch_bits(true, regs, offset_hwords),
        0xA | (regs << 6),
        1,
        0,
    )
}

/// A `send`/`sends` of message `parts` at `exec_size`: the SFID taken from the extended
/// descriptor's low bits (where the builders above put it, so it is never said twice),
/// src0 (and src1 of `sends`) whole GRFs of UD at r0 for the register allocator to place,
/// no reply (the caller names one). The one way the JIT builds a message instruction.
pub fn message(op: Opcode, exec_size: u8, (desc, ex_desc, _, _): DescParts) -> Inst {
    let grf = Src::Reg(SrcReg {
        file: RegFile::Grf,
        nr: 0,
        subreg: 0,
        region: Region::contiguous(8),
        ty: Type::UD,
        modifier: SrcMod::default(),
        indirect: None,
        swizzle: [0, 1, 2, 3],
    });
    let mut i = Inst::new(op, exec_size);
    i.dst = Some(Dst {
        file: RegFile::Arf,
        nr: 0,
        subreg: 0,
        hstride: 1,
        ty: Type::UD,
        indirect: None,
        writemask: 0xF,
    });
    i.srcs[0] = Some(grf);
    if matches!(op, Opcode::Sends | Opcode::Sendsc) {
        i.srcs[1] = Some(grf);
    }
    i.send = Some(SendInfo {
        sfid: crate::gen9::encoding::sfid_from_code(u64::from(ex_desc & 0xF)),
        desc: Some(desc),
        ex_desc,
        eot: false,
    });
    i
}

/// A sampler message of `simd` lanes (8 or 16): `op` reading the surface at `bti` with
/// SAMPLER_STATE `index`, four channels returned (simd/8 GRFs each), the `params`
/// parameters of simd/8 GRFs each in the order of `SamplerOp`'s table. With a header (a
/// `sends`): src0 the header (one GRF: r0's copy with M0.2 = 0, as IGC builds it), src1
/// the parameters; IGC's `sends (16|M0) r25 r6 r41 0x102 0x028D8000` is
/// `sampler_desc(SampleLz, 16, 0, 0, true, 2)`. Without one, the parameters are src0.
pub fn sampler_desc(
    op: SamplerOp,
    simd: u32,
    bti: u8,
    index: u8,
    header: bool,
    params: u32,
) -> DescParts {
    let regs = simd / 8;
    let mode = if simd == 16 { 2 } else { 1 };
    let (mlen, ex_mlen) = if header {
        (1, params * regs)
    } else {
        (params * regs, 0)
    };
    let rlen = 4 * regs;
    let d = (mlen << 25)
        | (rlen << 20)
        | (u32::from(header) << 19)
        | (mode << 17)
        | (op.bits() << 12)
        | (u32::from(index & 0xF) << 8)
        | u32::from(bti);
    (d, 0x2 | (ex_mlen << 6), mlen, rlen)
}

/// A typed surface write of the lanes of one SIMD8 slot group (`high`: lanes 8-15 of the
/// header's mask; without a header the send's own channel enables choose): src0 the `coords`
/// address registers (U, V, R as the surface type has them), src1 one register per channel
/// of `num_channels` (RGBA from red). IGC's `sends (8|M0) null r13 r49 0x14C 0x02035001` is
/// `typed_write_desc(1, false, 2, 4)` with U in src0 and V moved to the head of src1.
pub fn typed_write_desc(bti: u8, high: bool, coords: u32, num_channels: u32) -> DescParts {
    let mask = !((1u32 << num_channels.clamp(1, 4)) - 1) & 0xF;
    let ctl = ((1 + u32::from(high)) << 4) | mask;
    let mlen = coords;
    (
        desc(mlen, 0, false, 0x0D, ctl, u32::from(bti)),
        0xC | (num_channels << 6),
        mlen,
        0,
    )
}

/// DC1 media block read of surface `bti` into `rlen` registers: the header (X in bytes,
/// Y in rows, the block's width − 1 in bits 9:0 and height − 1 in bits 21:16 of dword 2) is
/// the whole payload. IGC's `send (8|M0) r12:d r16 0xC 0x02190000` is
/// `media_block_read_desc(0, 1)`.
pub fn media_block_read_desc(bti: u8, rlen: u32) -> DescParts {
    (desc(1, rlen, true, 0x04, 0, u32::from(bti)), 0xC, 1, rlen)
}

/// DC1 media block write of surface `bti`: the header in src0, `regs` registers of the
/// block's bytes in src1. IGC's `sends (8|M0) null:ud r16 r23 0x4C 0x020A8002` is
/// `media_block_write_desc(2, 1)`.
pub fn media_block_write_desc(bti: u8, regs: u32) -> DescParts {
    (
        desc(1, 0, true, 0x0A, 0, u32::from(bti)),
        0xC | (regs << 6),
        1,
        0,
    )
}

/// Memory fence through DC0 (commit enable: returns one GRF to wait on).
pub fn fence_desc() -> DescParts {
    (desc(1, 1, true, 0x7, 1 << 5, 0), 0xA, 1, 1)
}

/// Gateway barrier signal (payload: r0 header with the barrier id).
pub fn barrier_desc() -> DescParts {
    (desc(1, 0, false, 0, 0, 4), 0x3, 1, 0)
}

/// Thread spawner end of thread (payload: a copy of r0); ex_desc has EOT.
pub fn eot_desc() -> DescParts {
    (desc(1, 0, false, 0, 0, 0x10), 0x27, 1, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn image_builders_give_igcs_descriptors() {
        // IGC's read_imagef with a sampler (simd16, header, u and v).
        let (d, ex, mlen, rlen) = sampler_desc(SamplerOp::SampleLz, 16, 0, 0, true, 2);
        assert_eq!((d, ex, mlen, rlen), (0x028D_8000, 0x102, 1, 8));
        // IGC's samplerless read of an image at BTI 2 (ld_lz).
        assert_eq!(
            sampler_desc(SamplerOp::LdLz, 16, 2, 0, true, 2).0,
            0x028D_A002
        );
        let (d, ex, _, _) = sampler_desc(SamplerOp::SampleL, 8, 3, 5, false, 3);
        assert_eq!(ex, 0x2, "no second payload without a header");
        let m = decode_message(Opcode::Send, 8, Sfid::Sampler, d, ex);
        let want = SamplerMsg {
            op: SamplerOp::SampleL,
            index: 5,
        };
        assert_eq!(
            (m.simd, m.bti, m.rlen, m.mlen, m.header, m.sampler),
            (8, Some(3), 4, 3, false, Some(want))
        );
        // IGC's write_imagef to a 2D image at BTI 1: one address register in src0 here,
        // IGC's five (V and four channels) in src1 being the same message.
        let (d, ex, _, _) = typed_write_desc(1, false, 1, 4);
        assert_eq!(d, 0x0203_5001);
        assert_eq!(ex & 0xF, 0xC);
        let m = decode_message(Opcode::Sends, 8, Sfid::Dc1, d, ex);
        assert_eq!(
            (m.kind, m.simd, m.high_half, m.channel_mask),
            (MsgKind::TypedWrite, 8, false, 0xF,)
        );
        let m = decode_message(
            Opcode::Sends,
            8,
            Sfid::Dc1,
            typed_write_desc(1, true, 2, 1).0,
            0x4C,
        );
        assert_eq!((m.high_half, m.channel_mask, m.mlen), (true, 1, 2));
    }

    /// IGC's media block messages (cl_intel_subgroups' image block reads and writes).
    #[test]
    fn media_block_descriptors_are_igcs() {
        let (d, ex, _, _) = media_block_read_desc(0, 1);
        assert_eq!((d, ex), (0x0219_0000, 0xC));
        let m = decode_message(Opcode::Send, 8, Sfid::Dc1, d, ex);
        assert_eq!(
            (m.kind, m.mlen, m.rlen, m.header, m.bti),
            (MsgKind::MediaBlockRead, 1, 1, true, Some(0))
        );
        assert_eq!(media_block_read_desc(0, 2).0, 0x0229_0000);
        let (d, ex, _, _) = media_block_write_desc(2, 1);
        assert_eq!((d, ex), (0x020A_8002, 0x4C));
        let m = decode_message(Opcode::Sends, 8, Sfid::Dc1, d, ex);
        assert_eq!(
            (m.kind, m.mlen, m.ex_mlen, m.rlen, m.bti),
            (MsgKind::MediaBlockWrite, 1, 1, 0, Some(2))
        );
    }

    #[test]
    fn builders_decode_back() {
        let (d, ex, _, _) = untyped_read_desc(0, 16, 1);
        assert_eq!(d, 0x04205E00, "the descriptor IGC emits for this message");
        let m = decode_message(Opcode::Send, 16, Sfid::Dc1, d, ex);
        assert_eq!(
            (m.kind, m.simd, m.channel_mask, m.bti),
            (MsgKind::UntypedRead, 16, 1, Some(0))
        );
        let (d, ex, _, _) = untyped_write_desc(BTI_SLM, 16, 1);
        assert_eq!((d, ex), (0x04025EFE, 0x8C));
        let (d, ex, _, _) = a64_atomic_desc(AtomicOp::Add, false, false, 1);
        assert_eq!((d, ex), (0x040487FF, 0x4C));
        assert_eq!(eot_desc().0, 0x02000010);
        let (d, ex, _, _) = scratch_block_write_desc(2, 5);
        let m = decode_message(Opcode::Sends, 8, Sfid::Dc0, d, ex);
        assert_eq!(
            (m.kind, m.data_size, m.scratch_offset),
            (MsgKind::ScratchBlockWrite, 64, 5)
        );
        let (d, ex, _, _) = scratch_block_read_desc(8, 4095);
        assert_eq!(
            d, 0x028C_3FFF,
            "mlen 1, rlen 8, header, scratch read, 8 regs"
        );
        let m = decode_message(Opcode::Send, 8, Sfid::Dc0, d, ex);
        assert_eq!(
            (m.kind, m.data_size, m.scratch_offset),
            (MsgKind::ScratchBlockRead, 256, 4095)
        );
        assert_eq!(barrier_desc().0, 0x02000004);
        // `message` takes the SFID from the extended descriptor the builders wrote.
        for (parts, sfid) in [
            (fence_desc(), Sfid::Dc0),
            (barrier_desc(), Sfid::Gateway),
            (a64_untyped_read_desc(8, 1), Sfid::Dc1),
            (byte_scattered_write_desc(BTI_SLM, 8, 1), Sfid::Dc0),
            (eot_desc(), Sfid::ThreadSpawner),
        ] {
            let i = message(Opcode::Send, 8, parts);
            assert_eq!(i.send.map(|s| s.sfid), Some(sfid), "{parts:x?}");
        }
        for (bytes, size) in [(1, 1), (2, 2)] {
            let (d, ex, _, _) = byte_scattered_read_desc(BTI_SLM, 8, bytes);
            let m = decode_message(Opcode::Send, 8, Sfid::Dc0, d, ex);
            assert_eq!(
                (m.kind, m.simd, m.data_size, m.bti),
                (MsgKind::ByteScatteredRead, 8, size, Some(BTI_SLM))
            );
            let (d, ex, _, _) = byte_scattered_write_desc(BTI_SLM, 8, bytes);
            let m = decode_message(Opcode::Sends, 8, Sfid::Dc0, d, ex);
            assert_eq!(
                (m.kind, m.simd, m.data_size, m.bti),
                (MsgKind::ByteScatteredWrite, 8, size, Some(BTI_SLM))
            );
        }
    }
}
