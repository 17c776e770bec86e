//! The EU's side of a data-port send: the payload registers gathered from the thread's
//! GRF into a message, and the reply written back to the destination registers, as the
//! EU and the data port exchange them over the hardware's message bus. The data port
//! (`gpu::dataport`) sees the message only.

use gencl_isa::gen9::send::Message;
use gencl_isa::{RegFile, Src};

use super::program::ExecInst;
use super::thread::Thread;
use super::timing::grf_range;
use crate::gpu::dataport::{Dataport, InPlaceForm, Payload, Reply, Request, SendOutcome};
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

/// The GRF a send's reply goes to (`None`: the null register, or another file).
fn dst_nr(inst: &ExecInst) -> Option<usize> {
    match inst.inst.dst {
        Some(d) if d.file == RegFile::Grf => Some(d.nr as usize),
        _ => None,
    }
}

/// The form in which the data port takes message `m` of `inst` where its registers are
/// (`Dataport::send_form`), if it has one.
pub fn in_place_form(inst: &ExecInst, m: &Message) -> Option<InPlaceForm> {
    let src1 = match m.ex_mlen {
        0 => None,
        _ => Some(reg_nr(inst, 1).ok()??),
    };
    InPlaceForm::of(m, reg_nr(inst, 0).ok()??, src1, dst_nr(inst))
}

/// The GRFs (bit n: rn) of message `m`'s payloads and of its reply, for the scoreboard.
pub fn registers(inst: &ExecInst, m: &Message) -> (u128, u128) {
    let grfs = |nr: Option<usize>, len: u32| nr.map_or(0, |r| grf_range(r as u32, len));
    let src = |k| reg_nr(inst, k).ok().flatten();
    (
        grfs(src(0), m.mlen) | grfs(src(1), m.ex_mlen),
        grfs(dst_nr(inst), m.rlen),
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
        let src1 = match m.ex_mlen {
            0 => None,
            _ => Some(
                reg_nr(inst, 1)?
                    .ok_or_else(|| illegal(inst, "split send without a second payload"))?,
            ),
        };
        let dst = dst_nr(inst);
        let rlen = m.rlen as usize;
        // Every message's registers are checked, also those the data port leaves alone.
        if src0 + m.mlen as usize > 128 {
            return Err(illegal(inst, "message payload past r127"));
        }
        if src1.is_some_and(|r| r + m.ex_mlen as usize > 128) {
            return Err(illegal(inst, "second payload past r127"));
        }
        if dst.is_some_and(|r| r + rlen > 128) {
            return Err(illegal(inst, "response past r127"));
        }
        // A message whose registers the data port neither reads nor writes (a fence) goes
        // without copies.
        let moves = Dataport::moves_registers(m);
        if moves {
            let mut gather = |first: usize, count: usize| {
                for r in first..first + count {
                    payload.regs[payload.len].copy_from_slice(&t.grf[r * 32..r * 32 + 32]);
                    payload.len += 1;
                }
            };
            gather(src0, m.mlen as usize);
            if let Some(r) = src1 {
                gather(r, m.ex_mlen as usize);
            }
        }
        let reply = &mut *self.reply;
        if let Some(r) = dst.filter(|_| moves) {
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
