//! The shared functions a Gen9 EU thread talks to with `send`: the data
//! cache data ports (DC0: scattered, OWord block, scratch, fence; DC1:
//! untyped surface, A64, atomics), the message gateway (barrier) and the
//! thread spawner (end of thread).
//!
//! Descriptor layout (Skylake PRM vol 2d "Message Descriptor"; field
//! positions as in Mesa `brw_eu.h`): mlen [28:25], rlen [24:20], header
//! present [19], data-port message type [18:14], message control [13:8],
//! binding-table index [7:0]; the split-send extended descriptor carries the
//! second payload's length in [9:6].

use std::sync::Mutex;

use gencl_jit::isa::{Sfid, Src};

use crate::gpu::eu::program::ExecInst;
use crate::gpu::eu::thread::Thread;
use crate::gpu::{GpuError, GpuMemory, MemFault, ThreadGroup};

/// Binding-table indices with a fixed meaning on Gen9 (Mesa brw_eu_defines.h).
pub const BTI_SLM: u32 = 254;
pub const BTI_STATELESS: u32 = 255;
pub const BTI_STATELESS_NON_COHERENT: u32 = 253;
pub const BTI_BINDLESS: u32 = 252;

/// Modelled latencies (cycles) of a message, for the timing model.
pub const LATENCY_MEMORY: u32 = 200;
pub const LATENCY_SLM: u32 = 30;
pub const LATENCY_FENCE: u32 = 50;

/// Read-modify-writes of atomics hold this lock, so that they are atomic even
/// when groups run on several host threads over one memory.
static ATOMIC_LOCK: Mutex<()> = Mutex::new(());

/// What the thread does after its send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendOutcome {
    Continue {
        latency: u32,
    },
    /// The gateway received this thread's barrier arrival.
    Barrier,
    /// End of thread.
    Eot,
}

/// Memory the data port reaches for one thread group.
pub struct Dataport<'a> {
    pub mem: &'a dyn GpuMemory,
    pub tg: &'a ThreadGroup,
    /// The group's shared local memory.
    pub slm: Vec<u8>,
    /// Base of stateless (BTI 255/253) 32-bit offsets: the General State Base Address.
    pub general_state_base: u64,
}

/// Fields of a message descriptor.
#[derive(Debug, Clone, Copy)]
pub struct Desc {
    pub raw: u32,
    pub mlen: u32,
    pub rlen: u32,
    pub header: bool,
    pub msg_type: u32,
    pub ctrl: u32,
    pub bti: u32,
}

impl Desc {
    pub fn new(raw: u32) -> Desc {
        Desc {
            raw,
            mlen: (raw >> 25) & 0xF,
            rlen: (raw >> 20) & 0x1F,
            header: raw & (1 << 19) != 0,
            msg_type: (raw >> 14) & 0x1F,
            ctrl: (raw >> 8) & 0x3F,
            bti: raw & 0xFF,
        }
    }
}

/// Where the addresses of a message point.
#[derive(Debug, Clone, Copy)]
enum Space {
    Slm,
    /// Graphics memory at `base + offset`, with a bound for surfaces (accesses
    /// at or past it read zero / are dropped).
    Mem {
        base: u64,
        bound: Option<u64>,
    },
    /// A null binding-table entry: reads zero, writes dropped.
    Null,
}

/// The message payload (up to 15 + 15 registers) and where the response goes.
struct Msg {
    regs: [[u8; 32]; 32],
    len: usize,
}

impl Msg {
    fn u32(&self, reg: usize, lane: usize) -> u32 {
        let r = &self.regs[reg % 32];
        let o = (lane % 8) * 4;
        u32::from_le_bytes([r[o], r[o + 1], r[o + 2], r[o + 3]])
    }
    /// Dword `lane` of a SIMD8/16 operand starting at payload register `reg`.
    fn lane_u32(&self, reg: usize, lane: usize) -> u32 {
        self.u32(reg + lane / 8, lane % 8)
    }
    /// 64-bit address of `lane` in an A64 address block at `reg` (4 lanes per GRF).
    fn lane_u64(&self, reg: usize, lane: usize) -> u64 {
        let r = &self.regs[(reg + lane / 4) % 32];
        let o = (lane % 4) * 8;
        let mut b = [0u8; 8];
        b.copy_from_slice(&r[o..o + 8]);
        u64::from_le_bytes(b)
    }
}

/// The SLM decodes only the offset bits of a 64 KiB window: IGC tags valid local
/// pointers with a high nibble (VALID_LOCAL_HIGH_BITS, 0x10000000, so that the null
/// pointer stays distinct from offset 0) and sends the tagged value as the address.
fn slm_offset(off: u64) -> usize {
    (off & 0xFFFF) as usize
}

fn illegal(inst: &ExecInst, why: impl Into<String>) -> GpuError {
    GpuError::IllegalInstruction {
        addr: inst.addr,
        why: why.into(),
    }
}

fn reg_nr(inst: &ExecInst, k: usize) -> Result<Option<usize>, GpuError> {
    match &inst.inst.srcs[k] {
        Some(Src::Reg(r)) if r.file == gencl_jit::isa::RegFile::Grf => Ok(Some(r.nr as usize)),
        Some(Src::Reg(_)) => Ok(None),
        Some(Src::Imm(_)) if k == 0 => Err(illegal(inst, "send payload is an immediate")),
        _ => Ok(None),
    }
}

/// Map the generic SFID to Gen9's numbering (Mesa brw_eu_defines.h `brw_message_target`).
fn sfid_number(s: Sfid) -> u8 {
    match s {
        Sfid::Null => 0,
        Sfid::Sampler => 2,
        Sfid::Gateway => 3,
        Sfid::Dc2 => 4,
        Sfid::RenderCache => 5,
        Sfid::Urb => 6,
        Sfid::ThreadSpawner => 7,
        Sfid::Vme => 8,
        Sfid::ConstCache => 9,
        Sfid::Dc0 => 10,
        Sfid::PixelInterp => 11,
        Sfid::Dc1 => 12,
        Sfid::Cre => 13,
        Sfid::Raw(n) => n,
    }
}

impl Dataport<'_> {
    pub fn new<'a>(
        mem: &'a dyn GpuMemory,
        tg: &'a ThreadGroup,
        general_state_base: u64,
    ) -> Dataport<'a> {
        Dataport {
            mem,
            tg,
            slm: vec![0; tg.slm_bytes as usize],
            general_state_base,
        }
    }

    fn space(&self, inst: &ExecInst, bti: u32) -> Result<Space, GpuError> {
        Ok(match bti {
            BTI_SLM => Space::Slm,
            BTI_STATELESS | BTI_STATELESS_NON_COHERENT => Space::Mem {
                base: self.general_state_base,
                bound: None,
            },
            BTI_BINDLESS => return Err(illegal(inst, "bindless surfaces are not modelled")),
            b => match self.tg.bindings.surface(self.mem, b, inst.addr)? {
                Some(s) => Space::Mem {
                    base: s.base,
                    bound: Some(s.size),
                },
                None => Space::Null,
            },
        })
    }

    fn read(&self, sp: Space, off: u64, out: &mut [u8]) -> Result<(), MemFault> {
        match sp {
            Space::Null => {
                out.fill(0);
                Ok(())
            }
            Space::Slm => {
                let o = slm_offset(off);
                match self.slm.get(o..o.saturating_add(out.len())) {
                    Some(s) if off < usize::MAX as u64 => out.copy_from_slice(s),
                    _ => out.fill(0),
                }
                Ok(())
            }
            Space::Mem { base, bound } => {
                if let Some(b) = bound {
                    if off.checked_add(out.len() as u64).is_none_or(|e| e > b) {
                        out.fill(0);
                        return Ok(());
                    }
                }
                self.mem.read(base.wrapping_add(off), out)
            }
        }
    }

    fn write(&mut self, sp: Space, off: u64, data: &[u8]) -> Result<(), MemFault> {
        match sp {
            Space::Null => Ok(()),
            Space::Slm => {
                let o = slm_offset(off);
                if let Some(s) = self.slm.get_mut(o..o.saturating_add(data.len())) {
                    s.copy_from_slice(data);
                }
                Ok(())
            }
            Space::Mem { base, bound } => {
                if let Some(b) = bound {
                    if off.checked_add(data.len() as u64).is_none_or(|e| e > b) {
                        return Ok(());
                    }
                }
                self.mem.write(base.wrapping_add(off), data)
            }
        }
    }

    /// Execute the send `inst` for the lanes in `emask` (relative to the instruction).
    pub fn send(
        &mut self,
        t: &mut Thread,
        inst: &ExecInst,
        emask: u32,
    ) -> Result<SendOutcome, GpuError> {
        let info = inst
            .send
            .ok_or_else(|| illegal(inst, "send without message information"))?;
        let raw = match info.desc {
            Some(d) => d,
            None => t.arf_u32(crate::gpu::eu::program::arf::A0, 0),
        };
        let d = Desc::new(raw);
        let ex_mlen = if matches!(
            inst.op,
            gencl_jit::isa::Opcode::Sends | gencl_jit::isa::Opcode::Sendsc
        ) {
            ((info.ex_desc >> 6) & 0xF) as usize
        } else {
            0
        };
        // Gather the payload.
        let mut msg = Msg {
            regs: [[0; 32]; 32],
            len: 0,
        };
        let src0 = reg_nr(inst, 0)?.ok_or_else(|| illegal(inst, "send payload is not a GRF"))?;
        for k in 0..d.mlen as usize {
            let r = src0 + k;
            if r >= 128 {
                return Err(illegal(inst, "message payload past r127"));
            }
            msg.regs[msg.len].copy_from_slice(&t.grf[r * 32..r * 32 + 32]);
            msg.len += 1;
        }
        if ex_mlen > 0 {
            let src1 = reg_nr(inst, 1)?
                .ok_or_else(|| illegal(inst, "split send without a second payload"))?;
            for k in 0..ex_mlen {
                let r = src1 + k;
                if r >= 128 {
                    return Err(illegal(inst, "second payload past r127"));
                }
                msg.regs[msg.len].copy_from_slice(&t.grf[r * 32..r * 32 + 32]);
                msg.len += 1;
            }
        }
        let dst = match inst.inst.dst {
            Some(dd) if dd.file == gencl_jit::isa::RegFile::Grf => Some(dd.nr as usize),
            _ => None,
        };
        if let Some(r) = dst {
            if r + d.rlen as usize > 128 {
                return Err(illegal(inst, "response past r127"));
            }
        }
        // Lanes a message does not return keep their old register contents.
        let mut resp = Resp {
            regs: [[0; 32]; 32],
            written: 0,
        };
        if let Some(r) = dst {
            for k in 0..d.rlen as usize {
                resp.regs[k].copy_from_slice(&t.grf[(r + k) * 32..(r + k) * 32 + 32]);
            }
        }
        let sfid = sfid_number(info.sfid);
        let out = match sfid {
            // Thread spawner: only end-of-thread exists for compute kernels.
            7 => SendOutcome::Eot,
            3 => match raw & 7 {
                4 => SendOutcome::Barrier,
                k => {
                    return Err(illegal(
                        inst,
                        format!("gateway message {k} is not modelled"),
                    ))
                }
            },
            10 | 9 | 4 => self.dc0(inst, &d, &msg, emask, t, &mut resp)?,
            12 => self.dc1(inst, &d, &msg, emask, &mut resp)?,
            5 if d.msg_type == 7 => SendOutcome::Continue {
                latency: LATENCY_FENCE,
            },
            0 => SendOutcome::Continue { latency: 0 },
            s => {
                return Err(illegal(
                    inst,
                    format!("shared function {s} is not modelled"),
                ))
            }
        };
        // Memory fences reply with one register once committed.
        if let Some(r) = dst {
            let n = resp.written.min(d.rlen as usize);
            for k in 0..n {
                t.grf[(r + k) * 32..(r + k) * 32 + 32].copy_from_slice(&resp.regs[k]);
            }
        }
        if info.eot {
            return Ok(SendOutcome::Eot);
        }
        Ok(out)
    }

    fn bti_space(&self, inst: &ExecInst, d: &Desc) -> Result<Space, GpuError> {
        self.space(inst, d.bti)
    }

    fn dc0(
        &mut self,
        inst: &ExecInst,
        d: &Desc,
        msg: &Msg,
        emask: u32,
        t: &Thread,
        resp: &mut Resp,
    ) -> Result<SendOutcome, GpuError> {
        // Bit 18 selects the scratch block messages (dp_category).
        if d.raw & (1 << 18) != 0 {
            return self.scratch(inst, d, msg, t, resp);
        }
        let h = d.header as usize;
        let lat = |sp: Space| SendOutcome::Continue {
            latency: if matches!(sp, Space::Slm) {
                LATENCY_SLM
            } else {
                LATENCY_MEMORY
            },
        };
        match d.msg_type {
            // OWord block read (aligned: offset in OWords; unaligned: in bytes), write.
            0 | 1 | 8 => {
                let sp = self.bti_space(inst, d)?;
                let owords = match d.ctrl & 7 {
                    0 | 1 => 1,
                    2 => 2,
                    3 => 4,
                    4 => 8,
                    _ => return Err(illegal(inst, "OWord block size")),
                };
                let m2 = msg.u32(0, 2) as u64;
                let off = if d.msg_type == 1 { m2 } else { m2 * 16 };
                let bytes = owords * 16;
                let high = d.ctrl & 7 == 1;
                if d.msg_type == 8 {
                    let mut buf = vec![0u8; bytes];
                    for (k, c) in buf.chunks_mut(32).enumerate() {
                        let src = &msg.regs[(1 + k) % 32];
                        let s = if high { 16 } else { 0 };
                        c.copy_from_slice(&src[s..s + c.len()]);
                    }
                    self.write(sp, off, &buf)?;
                } else {
                    let mut buf = vec![0u8; bytes];
                    self.read(sp, off, &mut buf)?;
                    for (k, c) in buf.chunks(32).enumerate() {
                        let s = if high { 16 } else { 0 };
                        resp.regs[k][s..s + c.len()].copy_from_slice(c);
                    }
                    resp.written = bytes.div_ceil(32);
                }
                Ok(lat(sp))
            }
            // Byte scattered read/write: element of 1/2/4 bytes in a dword slot per lane.
            4 | 12 => {
                let sp = self.bti_space(inst, d)?;
                let simd = if d.ctrl & 1 != 0 { 16 } else { 8 };
                let es = match (d.ctrl >> 2) & 3 {
                    0 => 1,
                    1 => 2,
                    2 => 4,
                    _ => return Err(illegal(inst, "byte scattered data size")),
                };
                let areg = h;
                let dreg = h + simd / 8;
                for lane in 0..simd {
                    if emask & (1 << lane) == 0 {
                        continue;
                    }
                    let off = msg.lane_u32(areg, lane) as u64;
                    if d.msg_type == 12 {
                        let v = msg.lane_u32(dreg, lane).to_le_bytes();
                        self.write(sp, off, &v[..es])?;
                    } else {
                        let mut v = [0u8; 4];
                        self.read(sp, off, &mut v[..es])?;
                        resp.set_lane_u32(0, lane, u32::from_le_bytes(v));
                    }
                }
                resp.written = resp.written.max(if d.msg_type == 4 { simd / 8 } else { 0 });
                Ok(lat(sp))
            }
            // DWord scattered read/write.
            3 | 11 => {
                let sp = self.bti_space(inst, d)?;
                let simd = if d.ctrl & 1 != 0 { 16 } else { 8 };
                let areg = h;
                let dreg = h + simd / 8;
                for lane in 0..simd {
                    if emask & (1 << lane) == 0 {
                        continue;
                    }
                    let off = msg.lane_u32(areg, lane) as u64;
                    if d.msg_type == 11 {
                        self.write(sp, off, &msg.lane_u32(dreg, lane).to_le_bytes())?;
                    } else {
                        let mut v = [0u8; 4];
                        self.read(sp, off, &mut v)?;
                        resp.set_lane_u32(0, lane, u32::from_le_bytes(v));
                    }
                }
                if d.msg_type == 3 {
                    resp.written = simd / 8;
                }
                Ok(lat(sp))
            }
            // Memory fence: the reply register is written once the fence commits.
            7 => {
                resp.written = d.rlen as usize;
                Ok(SendOutcome::Continue {
                    latency: LATENCY_FENCE,
                })
            }
            k => Err(illegal(
                inst,
                format!("DC0 message type {k} is not modelled"),
            )),
        }
    }

    fn scratch(
        &mut self,
        inst: &ExecInst,
        d: &Desc,
        msg: &Msg,
        t: &Thread,
        resp: &mut Resp,
    ) -> Result<SendOutcome, GpuError> {
        let write = d.raw & (1 << 17) != 0;
        let nregs = 1usize << ((d.raw >> 12) & 3);
        let off = (d.raw & 0xFFF) as u64 * 32;
        let per = self.tg.scratch_per_thread as u64;
        if per == 0 || off + nregs as u64 * 32 > per {
            return Err(illegal(
                inst,
                "scratch access outside the thread's scratch space",
            ));
        }
        let base = self.tg.scratch_base + t.index as u64 * per + off;
        if write {
            let mut buf = vec![0u8; nregs * 32];
            for k in 0..nregs {
                buf[k * 32..k * 32 + 32].copy_from_slice(&msg.regs[(1 + k) % 32]);
            }
            self.mem.write(base, &buf)?;
        } else {
            let mut buf = vec![0u8; nregs * 32];
            self.mem.read(base, &mut buf)?;
            for k in 0..nregs {
                resp.regs[k].copy_from_slice(&buf[k * 32..k * 32 + 32]);
            }
            resp.written = nregs;
        }
        Ok(SendOutcome::Continue {
            latency: LATENCY_MEMORY,
        })
    }

    fn dc1(
        &mut self,
        inst: &ExecInst,
        d: &Desc,
        msg: &Msg,
        emask: u32,
        resp: &mut Resp,
    ) -> Result<SendOutcome, GpuError> {
        let h = d.header as usize;
        let simd_sm3 = |ctrl: u32| -> Result<usize, GpuError> {
            match (ctrl >> 4) & 3 {
                1 => Ok(16),
                2 => Ok(8),
                _ => Err(illegal(inst, "SIMD4x2 surface messages are not modelled")),
            }
        };
        match d.msg_type {
            // Untyped surface read/write (BTI) and A64 untyped surface read/write.
            1 | 9 | 0x11 | 0x19 => {
                let a64 = d.msg_type >= 0x11;
                let write = matches!(d.msg_type, 9 | 0x19);
                let simd = simd_sm3(d.ctrl)?;
                let chans = 4 - (d.ctrl & 0xF).count_ones() as usize;
                let sp = if a64 {
                    Space::Mem {
                        base: 0,
                        bound: None,
                    }
                } else {
                    self.bti_space(inst, d)?
                };
                let areg = h;
                let aregs = if a64 { simd / 4 } else { simd / 8 };
                let dreg = areg + aregs;
                let per = simd / 8;
                for lane in 0..simd {
                    if emask & (1 << lane) == 0 {
                        continue;
                    }
                    let addr = if a64 {
                        msg.lane_u64(areg, lane)
                    } else {
                        msg.lane_u32(areg, lane) as u64
                    };
                    // The channel mask disables components (bit set = off); enabled ones are
                    // packed in the payload/response but keep their own offset (x +0, y +4,
                    // z +8, w +12): "xz" reads dwords 0 and 2 into two consecutive blocks.
                    let enabled = (0..4usize).filter(|k| d.ctrl & (1 << k) == 0);
                    for (c, k) in enabled.enumerate() {
                        let ea = addr.wrapping_add(4 * k as u64);
                        if write {
                            let v = msg.lane_u32(dreg + c * per, lane);
                            self.write(sp, ea, &v.to_le_bytes())?;
                        } else {
                            let mut v = [0u8; 4];
                            self.read(sp, ea, &mut v)?;
                            resp.set_lane_u32(c * per, lane, u32::from_le_bytes(v));
                        }
                    }
                }
                if !write {
                    resp.written = chans * per;
                }
                Ok(SendOutcome::Continue {
                    latency: if matches!(sp, Space::Slm) {
                        LATENCY_SLM
                    } else {
                        LATENCY_MEMORY
                    },
                })
            }
            // A64 scattered read/write: subtype [1:0], data size [3:2], SIMD16 [4].
            0x10 | 0x1a => {
                let write = d.msg_type == 0x1a;
                let simd = if d.ctrl & 0x10 != 0 { 16 } else { 8 };
                let ds = 1usize << ((d.ctrl >> 2) & 3);
                let (es, count, slot) = match d.ctrl & 3 {
                    0 if ds <= 4 => (ds, 1, 4),
                    1 => (4, ds, 4),
                    2 => (8, ds, 8),
                    _ => return Err(illegal(inst, "A64 scattered subtype/size is not modelled")),
                };
                let areg = h;
                let dreg = areg + simd / 4;
                let regs_per_elem = simd * slot / 32;
                for lane in 0..simd {
                    if emask & (1 << lane) == 0 {
                        continue;
                    }
                    let addr = msg.lane_u64(areg, lane);
                    for j in 0..count {
                        let ea = addr.wrapping_add((j * es) as u64);
                        let r0 = j * regs_per_elem;
                        if write {
                            let bytes = msg_slot(msg, dreg + r0, lane, slot);
                            self.mem.write(ea, &bytes[..es])?;
                        } else {
                            let mut v = [0u8; 8];
                            self.mem.read(ea, &mut v[..es])?;
                            resp.set_slot(r0, lane, slot, &v[..slot]);
                        }
                    }
                }
                if !write {
                    resp.written = count * regs_per_elem;
                }
                Ok(SendOutcome::Continue {
                    latency: LATENCY_MEMORY,
                })
            }
            // A64 OWord block read/write: address in header dwords 0-1.
            0x14 | 0x15 => {
                let owords = match d.ctrl & 7 {
                    0 | 1 => 1,
                    2 => 2,
                    3 => 4,
                    4 => 8,
                    _ => return Err(illegal(inst, "OWord block size")),
                };
                let high = d.ctrl & 7 == 1;
                let addr = msg.lane_u64(0, 0);
                let bytes = owords * 16;
                let s = if high { 16 } else { 0 };
                let mut buf = vec![0u8; bytes];
                if d.msg_type == 0x15 {
                    for (k, c) in buf.chunks_mut(32).enumerate() {
                        c.copy_from_slice(&msg.regs[(1 + k) % 32][s..s + c.len()]);
                    }
                    self.mem.write(addr, &buf)?;
                } else {
                    self.mem.read(addr, &mut buf)?;
                    for (k, c) in buf.chunks(32).enumerate() {
                        resp.regs[k][s..s + c.len()].copy_from_slice(c);
                    }
                    resp.written = bytes.div_ceil(32);
                }
                Ok(SendOutcome::Continue {
                    latency: LATENCY_MEMORY,
                })
            }
            // Untyped atomics (BTI, integer and float) and A64 atomics.
            2 | 0x1b | 0x12 | 0x1d => self.atomic(inst, d, msg, emask, resp),
            k => Err(illegal(
                inst,
                format!("DC1 message type {k:#x} is not modelled"),
            )),
        }
    }

    fn atomic(
        &mut self,
        inst: &ExecInst,
        d: &Desc,
        msg: &Msg,
        emask: u32,
        resp: &mut Resp,
    ) -> Result<SendOutcome, GpuError> {
        let a64 = matches!(d.msg_type, 0x12 | 0x1d);
        let float = matches!(d.msg_type, 0x1b | 0x1d);
        let op = if float { d.ctrl & 3 } else { d.ctrl & 0xF };
        // BTI atomics: bit 4 = SIMD8; A64 atomics are SIMD8 with bit 4 = 64-bit data.
        let (simd, wide) = if a64 {
            (8, !float && d.ctrl & 0x10 != 0)
        } else if d.ctrl & 0x10 != 0 {
            (8, false)
        } else {
            (16, false)
        };
        let ret = d.ctrl & 0x20 != 0;
        let sp = if a64 {
            Space::Mem {
                base: 0,
                bound: None,
            }
        } else {
            self.bti_space(inst, d)?
        };
        let h = d.header as usize;
        let areg = h;
        let aregs = if a64 { simd / 4 } else { simd / 8 };
        let dregs = if wide { simd / 4 } else { simd / 8 };
        let s0 = areg + aregs;
        let s1 = s0 + dregs;
        let es = if wide { 8 } else { 4 };
        let needs_src1 = if float { op == 3 } else { op == 14 };
        let needs_src0 = float || !matches!(op, 5 | 6 | 15);
        if needs_src1 && s1 + dregs > msg.len || needs_src0 && s0 + dregs > msg.len {
            return Err(illegal(inst, "atomic payload shorter than its operands"));
        }
        let _g = ATOMIC_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        for lane in 0..simd {
            if emask & (1 << lane) == 0 {
                continue;
            }
            let addr = if a64 {
                msg.lane_u64(areg, lane)
            } else {
                msg.lane_u32(areg, lane) as u64
            };
            let get = |r: usize| -> u64 {
                let b = msg_slot(msg, r, lane, es);
                let mut a = [0u8; 8];
                a[..es].copy_from_slice(&b[..es]);
                u64::from_le_bytes(a)
            };
            let (x, y) = (get(s0), if needs_src1 { get(s1) } else { 0 });
            let mut cur = [0u8; 8];
            self.read(sp, addr, &mut cur[..es])?;
            let old = u64::from_le_bytes(cur);
            let new = if float {
                let (o, a, b) = (
                    f32::from_bits(old as u32),
                    f32::from_bits(x as u32),
                    f32::from_bits(y as u32),
                );
                match op {
                    1 => Some(o.max(a).to_bits() as u64),
                    2 => Some(o.min(a).to_bits() as u64),
                    3 => (o == a).then_some(b.to_bits() as u64),
                    _ => return Err(illegal(inst, "float atomic operation")),
                }
            } else {
                int_atomic(op, old, x, y, wide)
                    .ok_or_else(|| illegal(inst, format!("atomic operation {op}")))?
            };
            if let Some(nv) = new {
                self.write(sp, addr, &nv.to_le_bytes()[..es])?;
            }
            if ret {
                // PREDEC returns the decremented value, everything else the old one.
                let r = if !float && op == 15 {
                    new.unwrap_or(old)
                } else {
                    old
                };
                resp.set_slot(0, lane, es, &r.to_le_bytes()[..es]);
            }
        }
        if ret {
            resp.written = dregs;
        }
        Ok(SendOutcome::Continue {
            latency: if matches!(sp, Space::Slm) {
                LATENCY_SLM
            } else {
                LATENCY_MEMORY
            },
        })
    }
}

/// New value of an integer atomic (Mesa `BRW_AOP_*` numbering); `None` = no write
/// (a failed compare-exchange); `Err` via `None` outer = unknown operation.
fn int_atomic(op: u32, old: u64, x: u64, y: u64, wide: bool) -> Option<Option<u64>> {
    let mask = if wide { u64::MAX } else { u32::MAX as u64 };
    let (so, sx) = if wide {
        (old as i64, x as i64)
    } else {
        (old as u32 as i32 as i64, x as u32 as i32 as i64)
    };
    let v = match op {
        1 => old & x,
        2 => old | x,
        3 => old ^ x,
        4 => x,
        5 => old.wrapping_add(1),
        6 | 15 => old.wrapping_sub(1),
        7 => old.wrapping_add(x),
        8 => old.wrapping_sub(x),
        9 => x.wrapping_sub(old),
        10 => so.max(sx) as u64,
        11 => so.min(sx) as u64,
        12 => old.max(x),
        13 => old.min(x),
        14 => return Some(if old == x { Some(y & mask) } else { None }),
        _ => return None,
    };
    Some(Some(v & mask))
}

/// Bytes of `lane`'s slot of `slot` bytes in a block of registers starting at `reg`.
fn msg_slot(msg: &Msg, reg: usize, lane: usize, slot: usize) -> [u8; 8] {
    let byte = lane * slot;
    let r = &msg.regs[(reg + byte / 32) % 32];
    let o = byte % 32;
    let mut b = [0u8; 8];
    b[..slot].copy_from_slice(&r[o..o + slot]);
    b
}

/// Response registers being assembled.
struct Resp {
    regs: [[u8; 32]; 32],
    written: usize,
}

impl Resp {
    fn set_lane_u32(&mut self, reg: usize, lane: usize, v: u32) {
        self.set_slot(reg, lane, 4, &v.to_le_bytes());
    }
    fn set_slot(&mut self, reg: usize, lane: usize, slot: usize, v: &[u8]) {
        let byte = lane * slot;
        let r = &mut self.regs[(reg + byte / 32) % 32];
        let o = byte % 32;
        r[o..o + slot].copy_from_slice(&v[..slot]);
    }
}
