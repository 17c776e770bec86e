//! The data port's media block messages (DC1 media block read and write): a rectangle of
//! bytes of a 2D surface, what cl_intel_subgroups' image block reads and writes compile to
//! (IGC: `send (8|M0) r12:d r16 0xC 0x02190000 // hdc.dc1; media block read`).
//!
//! The payload's header (vISA's MEDIA_LD/MEDIA_ST and IGC's code show the fields): dword 0
//! the block's X in bytes, dword 1 its first row, dword 2 the width in bytes − 1 (bits 9:0)
//! and the height in rows − 1 (bits 21:16). Rows are packed into the response (or a write's
//! data registers) `reg_pitch` bytes apart: the width rounded up to a power of two, at
//! least 4 (MEDIA_LD's semantics).
//!
//! Bounds, as the cl_intel_subgroups specification describes them: the surface is checked
//! in units of dwords against its width in elements (so exact for 4-byte formats, and late
//! for narrower ones, as the specification warns) and in rows against its height; a read
//! outside returns the nearest edge dword (CLK_ADDRESS_CLAMP_TO_EDGE), a write outside is
//! dropped. X must be a multiple of 4 (the messages' dword granularity): other X, and
//! surfaces other than 2D, are refused by name.

use gencl_isa::gen9::send::{Message, MsgKind};

use crate::gpu::dataport::{illegal, Dataport, Payload, Reply, SendOutcome, LATENCY_MEMORY};
use crate::gpu::image::surface::Dim;
use crate::gpu::GpuError;

impl Dataport<'_> {
    pub(crate) fn media_block(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let write = m.kind == MsgKind::MediaBlockWrite;
        let x = msg.u32(0, 0) as i32;
        let y = msg.u32(0, 1) as i32;
        let shape = msg.u32(0, 2);
        let width = (shape & 0x3FF) as usize + 1;
        let height = ((shape >> 16) & 0x3F) as usize + 1;
        let pitch = width.next_power_of_two().max(4);
        let regs = (pitch * height).div_ceil(32);
        if x % 4 != 0 || !width.is_multiple_of(4) || width > 64 {
            return Err(illegal(
                addr,
                format!(
                    "media block {} at byte X {x}, {width} bytes wide: only whole, aligned \
                     dwords (and at most 64 bytes) are modelled",
                    if write { "write" } else { "read" }
                ),
            ));
        }
        let have = if write { msg.len - 1 } else { m.rlen as usize };
        if have < regs {
            return Err(illegal(
                addr,
                format!(
                    "media block of {width} x {height} bytes needs {regs} registers, the \
                     message has {have}"
                ),
            ));
        }
        let bti = m.bti.map(u32::from).unwrap_or(0);
        let Some(img) = self.tg.bindings.image(self.mem, bti, addr)? else {
            // A null surface: reads return zero, writes are dropped.
            if !write {
                resp.regs[..regs].iter_mut().for_each(|r| r.fill(0));
                resp.written = regs;
            }
            return Ok(SendOutcome::Continue {
                latency: LATENCY_MEMORY,
            });
        };
        if img.dim != Dim::D2 || img.array {
            return Err(illegal(
                addr,
                format!(
                    "media block message on a {:?}{} surface: only 2D ones are modelled",
                    img.dim,
                    if img.array { " array" } else { "" }
                ),
            ));
        }
        let (w_dwords, rows) = (i64::from(img.width), i64::from(img.height));
        for r in 0..height {
            let row = i64::from(y) + r as i64;
            for d in 0..width / 4 {
                let col = i64::from(x / 4) + d as i64;
                let at = r * pitch + d * 4;
                let (reg, byte) = (at / 32, at % 32);
                let inside = (0..w_dwords).contains(&col) && (0..rows).contains(&row);
                if write {
                    if inside {
                        let a = img.byte_address(col as u64 * 4, row as u64);
                        self.mem.write(a, &msg.regs[1 + reg][byte..byte + 4])?;
                    }
                } else {
                    let (c, r) = (col.clamp(0, w_dwords - 1), row.clamp(0, rows - 1));
                    let a = img.byte_address(c as u64 * 4, r as u64);
                    let mut v = [0u8; 4];
                    self.mem.read(a, &mut v)?;
                    resp.regs[reg][byte..byte + 4].copy_from_slice(&v);
                }
            }
        }
        if !write {
            resp.written = regs;
        }
        Ok(SendOutcome::Continue {
            latency: LATENCY_MEMORY,
        })
    }
}
