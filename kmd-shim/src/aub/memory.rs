//! The memory an AUB stream describes: system memory by physical page, the GGTT's
//! entries, and the PPGTT page walk (Gen8+ 4-level, 48-bit) through page-table pages
//! that live in that same physical memory, as the recording wrote them.

use std::collections::{BTreeMap, HashMap};

use parking_lot::RwLock;

use crate::gpu::{GpuMemory, MemFault};

const PAGE: u64 = 4096;
/// Address bits of a Gen8+ page-table or GGTT entry (bits 47:12).
const ENTRY_ADDRESS: u64 = 0x0000_ffff_ffff_f000;
const PRESENT: u64 = 1;
/// Page Size bit of a PDPE (1 GiB page) or PDE (2 MiB page).
const PAGE_SIZE: u64 = 1 << 7;

/// System memory, one zero-filled page the first time a write reaches it.
#[derive(Debug, Default)]
pub struct PhysMem {
    pages: RwLock<HashMap<u64, Box<[u8; PAGE as usize]>>>,
}

impl PhysMem {
    pub fn write(&self, addr: u64, data: &[u8]) {
        let mut pages = self.pages.write();
        let mut done = 0;
        while done < data.len() {
            let a = addr.wrapping_add(done as u64);
            let off = (a % PAGE) as usize;
            let n = (PAGE as usize - off).min(data.len() - done);
            let page = pages
                .entry(a / PAGE)
                .or_insert_with(|| Box::new([0; PAGE as usize]));
            page[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
    }

    /// Reads `out.len()` bytes; pages never written read as zero.
    pub fn read(&self, addr: u64, out: &mut [u8]) {
        let pages = self.pages.read();
        let mut done = 0;
        while done < out.len() {
            let a = addr.wrapping_add(done as u64);
            let off = (a % PAGE) as usize;
            let n = (PAGE as usize - off).min(out.len() - done);
            match pages.get(&(a / PAGE)) {
                Some(p) => out[done..done + n].copy_from_slice(&p[off..off + n]),
                None => out[done..done + n].fill(0),
            }
            done += n;
        }
    }

    pub fn read_u64(&self, addr: u64) -> u64 {
        let mut b = [0u8; 8];
        self.read(addr, &mut b);
        u64::from_le_bytes(b)
    }
}

/// The global GTT: entry index → entry.
#[derive(Debug, Default)]
pub struct Ggtt {
    entries: RwLock<HashMap<u64, u64>>,
}

impl Ggtt {
    /// A write of GGTT entries at byte offset `offset` of the table (8 bytes an entry).
    pub fn write_entries(&self, offset: u64, data: &[u8]) -> Result<(), String> {
        if !offset.is_multiple_of(8) || !data.len().is_multiple_of(8) {
            return Err(format!(
                "GGTT entry write of {} bytes at {offset:#x} is not whole entries",
                data.len()
            ));
        }
        let mut e = self.entries.write();
        for (i, c) in data.chunks_exact(8).enumerate() {
            let v = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            e.insert(offset / 8 + i as u64, v);
        }
        Ok(())
    }

    fn translate(&self, addr: u64) -> Option<u64> {
        let e = *self.entries.read().get(&(addr / PAGE))?;
        (e & PRESENT != 0).then_some((e & ENTRY_ADDRESS) | (addr % PAGE))
    }
}

/// The GGTT as the command streamer sees it (ring buffers, context images, status pages).
pub struct GgttView<'a> {
    pub phys: &'a PhysMem,
    pub ggtt: &'a Ggtt,
}

/// A PPGTT (the context's PML4) as the command streamer and the EUs see it.
pub struct PpgttView<'a> {
    pub phys: &'a PhysMem,
    /// Physical address of the PML4 page.
    pub pml4: u64,
}

impl PpgttView<'_> {
    /// The physical address of `va`, walking PML4 → PDP → PD → PT as the hardware does.
    pub fn translate(&self, va: u64) -> Option<u64> {
        let va = va & ((1 << 48) - 1);
        let mut table = self.pml4 & ENTRY_ADDRESS;
        for (level, shift) in [(4, 39u32), (3, 30), (2, 21), (1, 12)] {
            let index = (va >> shift) & 0x1ff;
            let e = self.phys.read_u64(table + 8 * index);
            if e & PRESENT == 0 {
                return None;
            }
            if (level == 3 || level == 2) && e & PAGE_SIZE != 0 {
                let size = 1u64 << shift;
                return Some((e & ENTRY_ADDRESS & !(size - 1)) | (va & (size - 1)));
            }
            table = e & ENTRY_ADDRESS;
        }
        Some(table | (va % PAGE))
    }

    /// Every mapped 4 KiB page of the address space in address order: (VA, physical).
    pub fn mapped_pages(&self) -> BTreeMap<u64, u64> {
        let mut out = BTreeMap::new();
        self.walk(self.pml4 & ENTRY_ADDRESS, 4, 0, &mut out);
        out
    }

    fn walk(&self, table: u64, level: u32, base: u64, out: &mut BTreeMap<u64, u64>) {
        let shift = 12 + 9 * (level - 1);
        let mut entries = [0u8; PAGE as usize];
        self.phys.read(table, &mut entries);
        for (i, c) in entries.chunks_exact(8).enumerate() {
            let e = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            if e & PRESENT == 0 {
                continue;
            }
            let va = base | ((i as u64) << shift);
            if level == 1 {
                out.insert(va, e & ENTRY_ADDRESS);
            } else if (level == 3 || level == 2) && e & PAGE_SIZE != 0 {
                let pa = e & ENTRY_ADDRESS & !((1u64 << shift) - 1);
                for p in 0..(1u64 << shift) / PAGE {
                    out.insert(va + p * PAGE, pa + p * PAGE);
                }
            } else {
                self.walk(e & ENTRY_ADDRESS, level - 1, va, out);
            }
        }
    }
}

/// Runs `f` over the physical pieces of `[addr, addr + len)`, translated page by page.
fn each_piece(
    translate: impl Fn(u64) -> Option<u64>,
    addr: u64,
    len: usize,
    kind: &'static str,
    mut f: impl FnMut(u64, std::ops::Range<usize>),
) -> Result<(), MemFault> {
    let mut done = 0;
    while done < len {
        let a = addr.wrapping_add(done as u64);
        let pa = translate(a).ok_or(MemFault { addr: a, kind })?;
        let n = ((PAGE - a % PAGE) as usize).min(len - done);
        f(pa, done..done + n);
        done += n;
    }
    Ok(())
}

impl GpuMemory for PpgttView<'_> {
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let len = out.len();
        each_piece(
            |a| self.translate(a),
            addr,
            len,
            "read of an unmapped page",
            |pa, r| self.phys.read(pa, &mut out[r]),
        )
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        each_piece(
            |a| self.translate(a),
            addr,
            data.len(),
            "write to an unmapped page",
            |pa, r| self.phys.write(pa, &data[r]),
        )
    }
}

impl GpuMemory for GgttView<'_> {
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let len = out.len();
        each_piece(
            |a| self.ggtt.translate(a),
            addr,
            len,
            "read of an unmapped GGTT page",
            |pa, r| self.phys.read(pa, &mut out[r]),
        )
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        each_piece(
            |a| self.ggtt.translate(a),
            addr,
            data.len(),
            "write to an unmapped GGTT page",
            |pa, r| self.phys.write(pa, &data[r]),
        )
    }
}
