//! The EU's side of a data-port send: the payload registers gathered from the thread's
//! GRF into a message, and the reply written back to the destination registers, as the
//! EU and the data port exchange them over the hardware's message bus. The data port
//! (`gpu::dataport`) sees the message only.

use gencl_isa::gen9::send::{Message, MsgKind};
use gencl_isa::{RegFile, Src};

use super::program::ExecInst;
use super::thread::Thread;
use super::timing::grf_range;
use crate::gpu::dataport::{Dataport, Payload, Reply, Request, SendOutcome};
use crate::gpu::GpuError;

/// A group's message and reply buffers, kept from send to send (only the registers a
/// message has are read, only those it returns written).
#[derive(Default)]
pub struct Port {
    payload: Box<Payload>,
    reply: Box<Reply>,
}

fn illegal(inst: &ExecInst, why: &str) -> GpuError {
    GpuError::IllegalInstruction {
        addr: inst.addr,
        why: why.into(),
    }
}

/// The GRF register a send's source `k` names (a send's payload is whole registers).
fn reg_nr(inst: &ExecInst, k: usize) -> Result<Option<usize>, GpuError> {
    match &inst.inst.srcs[k] {
        Some(Src::Reg(r)) if r.file == RegFile::Grf => Ok(Some(r.nr as usize)),
        Some(Src::Reg(_)) => Ok(None),
        Some(Src::Imm(_)) if k == 0 => Err(illegal(inst, "send payload is an immediate")),
        _ => Ok(None),
    }
}

/// The GRFs (bit n: rn) of message `m`'s payloads and of its reply, for the scoreboard.
pub fn registers(inst: &ExecInst, m: &Message) -> (u128, u128) {
    let grfs = |nr: Option<usize>, len: u32| nr.map_or(0, |r| grf_range(r as u32, len));
    let src = |k| reg_nr(inst, k).ok().flatten();
    let dst = match inst.inst.dst {
        Some(d) if d.file == RegFile::Grf => Some(d.nr as usize),
        _ => None,
    };
    (
        grfs(src(0), m.mlen) | grfs(src(1), m.ex_mlen),
        grfs(dst, m.rlen),
    )
}

impl Port {
    /// Send message `m` (descriptor `desc`) of `inst` for the lanes of `emask` to the data
    /// port, and write its reply to the destination registers.
    pub fn exchange(
        &mut self,
        dp: &mut Dataport,
        t: &mut Thread,
        inst: &ExecInst,
        emask: u32,
        desc: u32,
        m: &Message,
    ) -> Result<SendOutcome, GpuError> {
        let payload = &mut *self.payload;
        payload.len = 0;
        let src0 = reg_nr(inst, 0)?.ok_or_else(|| illegal(inst, "send payload is not a GRF"))?;
        if m.kind == MsgKind::MemoryFence {
            // A fence reads nothing of its payload and returns its destination's own
            // contents when it commits: nothing to gather or write back.
            let dst = inst.inst.dst.filter(|d| d.file == RegFile::Grf);
            if src0 + m.mlen as usize > 128 {
                return Err(illegal(inst, "message payload past r127"));
            }
            if m.ex_mlen > 0 {
                let src1 = reg_nr(inst, 1)?
                    .ok_or_else(|| illegal(inst, "split send without a second payload"))?;
                if src1 + m.ex_mlen as usize > 128 {
                    return Err(illegal(inst, "second payload past r127"));
                }
            }
            if dst.is_some_and(|d| d.nr as usize + m.rlen as usize > 128) {
                return Err(illegal(inst, "response past r127"));
            }
            return Ok(Dataport::fence());
        }
        let mut gather = |first: usize, count: usize, past: &str| {
            for r in first..first + count {
                if r >= 128 {
                    return Err(illegal(inst, past));
                }
                payload.regs[payload.len].copy_from_slice(&t.grf[r * 32..r * 32 + 32]);
                payload.len += 1;
            }
            Ok(())
        };
        gather(src0, m.mlen as usize, "message payload past r127")?;
        if m.ex_mlen > 0 {
            let src1 = reg_nr(inst, 1)?
                .ok_or_else(|| illegal(inst, "split send without a second payload"))?;
            gather(src1, m.ex_mlen as usize, "second payload past r127")?;
        }
        let dst = match inst.inst.dst {
            Some(d) if d.file == RegFile::Grf => Some(d.nr as usize),
            _ => None,
        };
        let rlen = m.rlen as usize;
        let reply = &mut *self.reply;
        if let Some(r) = dst {
            if r + rlen > 128 {
                return Err(illegal(inst, "response past r127"));
            }
            // Lanes a message does not return keep their old register contents.
            for k in 0..rlen {
                reply.regs[k].copy_from_slice(&t.grf[(r + k) * 32..(r + k) * 32 + 32]);
            }
        }
        let req = Request {
            addr: inst.addr,
            thread: t.index,
            emask,
            desc,
            message: m,
            payload,
        };
        let out = dp.send(&req, reply)?;
        if let Some(r) = dst {
            for k in 0..reply.written.min(rlen) {
                t.grf[(r + k) * 32..(r + k) * 32 + 32].copy_from_slice(&reply.regs[k]);
            }
        }
        Ok(out)
    }
}
