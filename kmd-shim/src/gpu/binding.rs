//! Binding tables: what a binding-table index names, read from memory when a
//! message first uses it.
//!
//! The interface descriptor's Binding Table Entry Count only sets how many
//! entries the hardware prefetches at dispatch (Mesa sets it to 0 on
//! Gen12.5 "to avoid prefetching on every thread dispatch", and kernels still
//! reach every surface); the data port looks up whatever index a message
//! names. So the model resolves `BT[bti]` → RENDER_SURFACE_STATE on first use
//! within a walker and caches the entry, and an index beyond the entry count
//! works as on hardware.

use std::sync::{Arc, OnceLock};

use super::{read_dwords, BufferSurface, GpuError, GpuMemory};
use crate::genx::gen9::{BindingTableState, RenderSurfaceState, SURFTYPE_BUFFER, SURFTYPE_NULL};
use crate::genx::Packet;

/// Binding-table indices 0..=239 name surfaces; 240..=251 are reserved and
/// 252..=255 have fixed meanings (bindless, stateless, SLM).
pub const MAX_SURFACE_BTI: u32 = gencl_isa::gen9::send::MAX_SURFACE_BTI as u32;

/// The surfaces a thread group's messages reach by binding-table index.
#[derive(Debug, Clone)]
pub enum Bindings {
    /// The binding table at `surface_state_base + pointer`, entries resolved
    /// on first use (shared by the groups of one walker, on whichever host threads
    /// run them; two threads resolving one entry at once read the same state).
    Table {
        surface_state_base: u64,
        pointer: u32,
        cache: Arc<[OnceLock<Option<BufferSurface>>]>,
    },
    /// Entries given directly (unit tests of the EUs).
    Fixed(Vec<Option<BufferSurface>>),
}

impl Bindings {
    pub fn table(surface_state_base: u64, pointer: u32) -> Bindings {
        Bindings::Table {
            surface_state_base,
            pointer,
            cache: (0..=MAX_SURFACE_BTI).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The buffer surface at `bti` (None: a null surface, reads 0 and drops
    /// writes). Reading the table or the surface state can fault; surface
    /// types other than buffers and null are not modelled.
    pub fn surface(
        &self,
        mem: &dyn GpuMemory,
        bti: u32,
        addr: u64,
    ) -> Result<Option<BufferSurface>, GpuError> {
        if bti > MAX_SURFACE_BTI {
            return Err(illegal(addr, format!("reserved binding-table index {bti}")));
        }
        match self {
            Bindings::Fixed(v) => Ok(v.get(bti as usize).copied().flatten()),
            Bindings::Table {
                surface_state_base,
                pointer,
                cache,
            } => {
                let slot = &cache[bti as usize];
                if let Some(s) = slot.get() {
                    return Ok(*s);
                }
                let s = resolve(mem, *surface_state_base, *pointer, bti, addr)?;
                Ok(*slot.get_or_init(|| s))
            }
        }
    }
}

/// Binding table entry `bti` → its RENDER_SURFACE_STATE → a buffer surface.
pub fn resolve(
    mem: &dyn GpuMemory,
    surface_state_base: u64,
    pointer: u32,
    bti: u32,
    addr: u64,
) -> Result<Option<BufferSurface>, GpuError> {
    let entry = read_dwords(
        mem,
        surface_state_base + u64::from(pointer) + 4 * u64::from(bti),
        1,
    )?;
    let ptr = BindingTableState::unpack(&entry).surface_state_pointer;
    let rss =
        RenderSurfaceState::unpack(&read_dwords(mem, surface_state_base + u64::from(ptr), 16)?);
    match rss.surface_type {
        SURFTYPE_BUFFER => Ok(Some(BufferSurface {
            base: rss.surface_base_address,
            size: rss.buffer_size(),
        })),
        SURFTYPE_NULL => Ok(None),
        t => Err(illegal(
            addr,
            format!("binding-table index {bti}: surface type {t} (only buffers are modelled)"),
        )),
    }
}

fn illegal(addr: u64, why: String) -> GpuError {
    GpuError::IllegalInstruction { addr, why }
}
