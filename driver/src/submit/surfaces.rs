//! A launch's surface state: the binding table and the RENDER_SURFACE_STATE of each buffer
//! argument, program-scope data buffer and image, written into the launch's surface-state
//! area (the binding table at its start, then a 64-byte state per entry, then a null
//! surface for the entries no argument fills).

use gencl_jit::abi::{ArgKind, KernelBinary};
use gencl_kmd::genx::gen9::{
    BindingTableState, RenderSurfaceState, MOCS_CACHED, SURFACE_FORMAT_RAW,
};
use gencl_kmd::genx::Packet;

use super::{images, write_dwords, ArgValue, DataRef, SubmitError};

/// Binding-table entries a kernel may use (indices 240-255 are special: SLM, stateless).
const MAX_BTI: usize = gencl_jit::abi::SURFACE_BTIS;
/// Where the surface states start, after the binding table.
const STATES: usize = 1024;

/// Write the binding table and surface states into `area` (offsets in it are offsets from
/// the surface state base); returns the binding table's entry count.
pub fn write(
    area: &mut [u8],
    kernel: &KernelBinary,
    args: &[ArgValue],
    data: &[DataRef],
) -> Result<usize, SubmitError> {
    let buffers = buffer_entries(kernel, args, data);
    let images = image_entries(kernel, args)?;
    // Every index the kernel names, also a NULL buffer argument's (no state of its own: it
    // keeps the null surface, whose reads give 0 and whose writes are dropped, as NEO
    // programs a NULL argument's surface).
    let named = kernel.args.iter().filter_map(|a| match a.kind {
        ArgKind::Buffer { bti: Some(b) } => Some(usize::from(b) + 1),
        _ => None,
    });
    let entries = buffers
        .iter()
        .map(|s| s.0 + 1)
        .chain(images.iter().map(|s| s.0 + 1))
        .chain(named)
        .max()
        .unwrap_or(0);
    if entries > MAX_BTI || STATES + 64 * (entries + 1) > area.len() {
        return Err(SubmitError::TooLarge(
            "more buffer arguments than the binding table holds",
        ));
    }
    let entry = |at: usize| {
        BindingTableState {
            surface_state_pointer: at as u32,
            ..Default::default()
        }
        .pack_vec()[0]
    };
    // Entries no argument fills point at a null surface (reads 0, writes dropped).
    let null_at = STATES + 64 * entries;
    write_dwords(area, null_at, &RenderSurfaceState::null().pack_vec());
    let mut bt = vec![entry(null_at); entries];
    for (bti, gpu_addr, size) in &buffers {
        let at = STATES + bti * 64;
        // A RAW buffer's size is whole dwords (NEO rounds it up to 4 alike); the GEM
        // object behind it is whole pages, so the rounding stays inside it.
        let ss = RenderSurfaceState::buffer(
            *gpu_addr,
            (*size).max(1).next_multiple_of(4),
            1,
            SURFACE_FORMAT_RAW,
            MOCS_CACHED,
        )
        .ok_or(SubmitError::TooLarge("a buffer over 4 GiB for a surface"))?;
        // IA-coherent: the client's CPU maps the same pages (zero-copy buffers), as NEO
        // marks its buffer surfaces on Gen9.
        let ss = RenderSurfaceState {
            coherency_type: 1,
            ..ss
        };
        write_dwords(area, at, &ss.pack_vec());
        bt[*bti] = entry(at);
    }
    for (bti, ss) in &images {
        let at = STATES + bti * 64;
        write_dwords(area, at, &ss.pack_vec());
        bt[*bti] = entry(at);
    }
    write_dwords(area, 0, &bt);
    Ok(entries)
}

/// One raw buffer surface per buffer argument and data buffer: (index, address, size), at
/// the binding-table index the kernel gave it, or else at the next free index in argument
/// order, then the data buffers'.
fn buffer_entries(
    kernel: &KernelBinary,
    args: &[ArgValue],
    data: &[DataRef],
) -> Vec<(usize, u64, u64)> {
    let given = kernel
        .args
        .iter()
        .filter_map(|a| match a.kind {
            ArgKind::Buffer { bti: Some(b) } => Some(usize::from(b) + 1),
            _ => None,
        })
        .chain(
            kernel
                .data_buffers
                .iter()
                .filter_map(|d| d.bti.map(|b| usize::from(b) + 1)),
        );
    let mut next = given.max().unwrap_or(0);
    let mut fresh = || {
        next += 1;
        next - 1
    };
    let mut out = Vec::new();
    for (a, desc) in args.iter().zip(&kernel.args) {
        if let ArgValue::Buffer { gpu_addr, size, .. } = a {
            let bti = match desc.kind {
                ArgKind::Buffer { bti: Some(b) } => usize::from(b),
                _ => fresh(),
            };
            out.push((bti, *gpu_addr, *size));
        }
    }
    for ((addr, size, _), d) in data.iter().zip(&kernel.data_buffers) {
        let bti = d.bti.map_or_else(&mut fresh, usize::from);
        out.push((bti, *addr, *size));
    }
    out
}

/// Images: their surface states at the binding-table index the kernel gave each.
fn image_entries(
    kernel: &KernelBinary,
    args: &[ArgValue],
) -> Result<Vec<(usize, RenderSurfaceState)>, SubmitError> {
    let mut out = Vec::new();
    for (a, desc) in args.iter().zip(&kernel.args) {
        match (a, &desc.kind) {
            (
                ArgValue::Image {
                    gpu_addr, surface, ..
                },
                ArgKind::Image { bti, .. },
            ) => out.push((
                usize::from(*bti),
                images::surface_state(surface, *gpu_addr)?,
            )),
            (ArgValue::Image { .. }, _) | (_, ArgKind::Image { .. }) => {
                return Err(SubmitError::Descriptor(
                    "an image argument without an image",
                ));
            }
            _ => {}
        }
    }
    Ok(out)
}
