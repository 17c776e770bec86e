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

use super::image::surface::Image;
use super::{read_dwords, BufferSurface, GpuError, GpuMemory};
use crate::genx::gen9::{
    BindingTableState, RenderSurfaceState, SURFACE_FORMAT_RAW, SURFTYPE_BUFFER, SURFTYPE_NULL,
};
use crate::genx::Packet;

/// What a binding-table entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// A buffer: untyped, scattered and block messages reach it by byte offset; with a
    /// format (a typed buffer, image1d_buffer_t), typed messages and the sampler too.
    Buffer(BufferSurface, Option<Image>),
    /// An image (1D, 2D, 3D, arrays): typed messages and the sampler.
    Image(Image),
    /// A surface state the model cannot take; kept so that a message to it is refused
    /// with the reason, as `Image::from_state` gives it.
    Unmodelled(RenderSurfaceState),
}

impl From<BufferSurface> for Surface {
    fn from(b: BufferSurface) -> Surface {
        Surface::Buffer(b, None)
    }
}

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
        cache: Arc<Resolved>,
    },
    /// Entries given directly (unit tests of the EUs).
    Fixed(Vec<Option<Surface>>),
}

/// Entries resolved so far, by index, in runs of `RUN` made when one of theirs is first
/// used: a walker's groups share them, and a walker that reaches a few surfaces makes one
/// run, not the 240 entries of the whole table (which cost a short launch more than its
/// kernel did).
#[derive(Debug, Default)]
pub struct Resolved {
    runs: [OnceLock<Box<Run>>; RUNS],
}

/// `RUN` entries from a multiple of `RUN` on, each resolved when first used.
type Run = [OnceLock<Option<Surface>>; RUN];

const RUN: usize = 16;
const RUNS: usize = (MAX_SURFACE_BTI as usize + 1).div_ceil(RUN);

impl Resolved {
    fn slot(&self, bti: u32) -> &OnceLock<Option<Surface>> {
        let (run, at) = (bti as usize / RUN, bti as usize % RUN);
        &self.runs[run].get_or_init(|| Box::new(std::array::from_fn(|_| OnceLock::new())))[at]
    }
}

impl Bindings {
    pub fn table(surface_state_base: u64, pointer: u32) -> Bindings {
        Bindings::Table {
            surface_state_base,
            pointer,
            cache: Arc::default(),
        }
    }

    /// The entry at `bti` (None: a null surface, reads 0 and drops writes). Reading the
    /// table or the surface state can fault.
    pub fn entry(
        &self,
        mem: &dyn GpuMemory,
        bti: u32,
        addr: u64,
    ) -> Result<Option<&Surface>, GpuError> {
        if bti > MAX_SURFACE_BTI {
            return Err(illegal(addr, format!("reserved binding-table index {bti}")));
        }
        match self {
            Bindings::Fixed(v) => Ok(v.get(bti as usize).and_then(Option::as_ref)),
            Bindings::Table {
                surface_state_base,
                pointer,
                cache,
            } => {
                let slot = cache.slot(bti);
                if let Some(s) = slot.get() {
                    return Ok(s.as_ref());
                }
                let s = resolve(mem, *surface_state_base, *pointer, bti)?;
                Ok(slot.get_or_init(|| s).as_ref())
            }
        }
    }

    /// The buffer surface at `bti`, for the messages that address bytes (None: a null
    /// surface); an image there is an error.
    pub fn surface(
        &self,
        mem: &dyn GpuMemory,
        bti: u32,
        addr: u64,
    ) -> Result<Option<BufferSurface>, GpuError> {
        match self.entry(mem, bti, addr)? {
            None => Ok(None),
            Some(Surface::Buffer(b, _)) => Ok(Some(*b)),
            Some(Surface::Image(_)) => Err(illegal(
                addr,
                format!("binding-table index {bti}: an untyped message to an image surface"),
            )),
            Some(Surface::Unmodelled(s)) => Err(unmodelled(addr, bti, s)),
        }
    }

    /// The typed view of the surface at `bti`, for typed messages and the sampler (None: a
    /// null surface).
    pub fn image(
        &self,
        mem: &dyn GpuMemory,
        bti: u32,
        addr: u64,
    ) -> Result<Option<Image>, GpuError> {
        match self.entry(mem, bti, addr)? {
            None => Ok(None),
            Some(Surface::Image(i) | Surface::Buffer(_, Some(i))) => Ok(Some(*i)),
            Some(Surface::Buffer(_, None)) => Err(illegal(
                addr,
                format!("binding-table index {bti}: a typed message to a raw buffer"),
            )),
            Some(Surface::Unmodelled(s)) => Err(unmodelled(addr, bti, s)),
        }
    }
}

fn unmodelled(addr: u64, bti: u32, s: &RenderSurfaceState) -> GpuError {
    let why = Image::from_state(s).err().unwrap_or_default();
    illegal(addr, format!("binding-table index {bti}: {why}"))
}

/// Binding table entry `bti` → its RENDER_SURFACE_STATE → the surface.
pub fn resolve(
    mem: &dyn GpuMemory,
    surface_state_base: u64,
    pointer: u32,
    bti: u32,
) -> Result<Option<Surface>, GpuError> {
    let entry = read_dwords(
        mem,
        surface_state_base + u64::from(pointer) + 4 * u64::from(bti),
        1,
    )?;
    let ptr = BindingTableState::unpack(&entry).surface_state_pointer;
    let rss =
        RenderSurfaceState::unpack(&read_dwords(mem, surface_state_base + u64::from(ptr), 16)?);
    Ok(match rss.surface_type {
        SURFTYPE_NULL => None,
        SURFTYPE_BUFFER => {
            let b = BufferSurface {
                base: rss.surface_base_address,
                size: rss.buffer_size(),
            };
            let typed = if rss.surface_format == SURFACE_FORMAT_RAW {
                None
            } else {
                Image::from_state(&rss).ok()
            };
            Some(Surface::Buffer(b, typed))
        }
        _ => Some(match Image::from_state(&rss) {
            Ok(i) => Surface::Image(i),
            Err(_) => Surface::Unmodelled(rss),
        }),
    })
}

fn illegal(addr: u64, why: String) -> GpuError {
    GpuError::IllegalInstruction { addr, why }
}
