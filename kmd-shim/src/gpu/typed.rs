//! The data port's typed surface messages (DC1 typed surface read and write): per lane a
//! texel of an image surface by its coordinates, converted between the surface format and
//! the 32-bit channel values of the message.
//!
//! Payload (SIMD8, one register per parameter; Mesa `brw_dp_typed_surface_rw_desc` and
//! the PRM's MDC_SG3 for the slot group): an optional header whose dword 7 holds the
//! 16-bit pixel mask of the slot groups, then the address U, V, R (as many as the surface
//! type has coordinates: a 1D array's element is V, a 2D array's or a 3D slice R), an
//! optional LOD, then for a write one register per enabled channel. IGC's writes show the
//! shape: `sends (8|M0) null r13 r49 0x14C 0x02035001` sends U alone and then V and four
//! channels, six registers for a 2D surface with no header and no LOD. A read returns one
//! register per enabled channel.
//!
//! Out of bounds, a read returns zero and a write is dropped. Typed reads convert every
//! modelled format, where Gen9's hardware reads only some formats typed (Mesa lowers the
//! others); gencl's JIT reads images through the sampler, as IGC does.

use gencl_isa::gen9::send::{Message, MsgKind};

use crate::gpu::dataport::{illegal, Dataport, Payload, Reply, SendOutcome, LATENCY_MEMORY};
use crate::gpu::GpuError;

impl Dataport<'_> {
    pub(crate) fn typed(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        emask: u32,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        if m.simd != 8 {
            return Err(illegal(addr, "SIMD4x2 typed messages are not modelled"));
        }
        let write = m.kind == MsgKind::TypedWrite;
        let chans = m.channel_mask.count_ones() as usize;
        let bti = m.bti.map(u32::from).unwrap_or(0);
        let mut lanes = emask & 0xFF;
        if m.header {
            // Dword 7 of the header: the pixel mask, 8 bits per slot group.
            let mask = msg.u32(0, 7) >> if m.high_half { 8 } else { 0 };
            lanes &= mask & 0xFF;
        }
        let first = usize::from(m.header);
        let Some(img) = self.tg.bindings.image(self.mem, bti, addr)? else {
            // A null surface: reads return zero, writes are dropped.
            if !write {
                resp.regs[..chans].iter_mut().for_each(|r| r.fill(0));
                resp.written = chans;
            }
            return Ok(SendOutcome::Continue {
                latency: LATENCY_MEMORY,
            });
        };
        let coords = img.coords();
        let addr_regs = if write {
            msg.len
                .checked_sub(first + chans)
                .filter(|&n| n == coords || n == coords + 1)
                .ok_or_else(|| {
                    illegal(
                        addr,
                        format!(
                            "typed write of {} registers: {} of header, {coords} coordinates \
                             (+1 LOD) and {chans} channels expected",
                            msg.len, first
                        ),
                    )
                })?
        } else {
            msg.len - first
        };
        let bytes = img.format.bytes as usize;
        for lane in (0..8).filter(|l| lanes & (1 << l) != 0) {
            let coord = |k: usize| -> i64 {
                if k < addr_regs.min(coords) {
                    i64::from(msg.lane_u32(first + k, lane) as i32)
                } else {
                    0
                }
            };
            // A LOD other than 0 is past the surface's single mip level.
            let lod = if addr_regs > coords {
                msg.lane_u32(first + coords, lane)
            } else {
                0
            };
            let at = if lod == 0 {
                img.texel(coord(0), coord(1), coord(2))
            } else {
                None
            };
            let mut texel = [0u8; 16];
            if write {
                let Some(a) = at else { continue };
                let mut vals = [0u32; 4];
                let mut c = 0;
                for (k, v) in vals.iter_mut().enumerate() {
                    if m.channel_mask & (1 << k) != 0 {
                        *v = msg.lane_u32(first + addr_regs + c, lane);
                        c += 1;
                    }
                }
                let mut old = [0u8; 16];
                if m.channel_mask != 0xF {
                    self.mem.read(a, &mut old[..bytes])?;
                }
                img.format
                    .encode(vals, m.channel_mask, &old[..bytes], &mut texel[..bytes]);
                self.mem.write(a, &texel[..bytes])?;
            } else {
                let vals = match at {
                    Some(a) => {
                        self.mem.read(a, &mut texel[..bytes])?;
                        img.format.decode(&texel[..bytes])
                    }
                    None => [0; 4],
                };
                let mut c = 0;
                for (k, v) in vals.iter().enumerate() {
                    if m.channel_mask & (1 << k) != 0 {
                        resp.set_lane_u32(c, lane, *v);
                        c += 1;
                    }
                }
            }
        }
        if !write {
            resp.written = chans;
        }
        Ok(SendOutcome::Continue {
            latency: LATENCY_MEMORY,
        })
    }
}
