//! Writes what the emulated device executes as an AUB memtrace stream, in the layout
//! NEO's recordings have, so that gencl's batches and NEO's can be decoded side by side
//! (`gencl decode`) and replayed by the same path (`gencl replay`).
//!
//! Each submission writes the execbuffer's objects (every page, but pages of zeros never
//! written before) into system memory behind a 4-level PPGTT built here, then appends an
//! MI_BATCH_BUFFER_START to a ring in the GGTT, updates the tail in the logical ring
//! context's image, and submits the context through the render ELSP, as an execlist
//! submission by i915 would.

use std::collections::HashMap;
use std::io::Write;

use super::stream::AddressSpace;
use crate::genx::gen9::{MiBatchBufferStart, MiLoadRegisterImm, MiNoop, ASI_PPGTT};

const PAGE: u64 = 4096;
/// Where the context image and the ring sit in the GGTT.
const LRCA: u64 = 0x10000;
const RING: u64 = 0x20000;
const RING_SIZE: u64 = PAGE;
/// Context descriptor flags: valid, legacy 64-bit (48-bit PPGTT) addressing, privileged.
const DESC_FLAGS: u64 = 0x119;
/// The register state page's dword that holds RING_TAIL's value (see `context_image`).
const TAIL_SLOT: u64 = 5;

fn header(sub: u32, dwords: usize) -> u32 {
    (7 << 29) | (0x2e << 23) | (sub << 16) | (dwords as u32 - 1)
}

fn space_bits(s: AddressSpace) -> u32 {
    match s {
        AddressSpace::Ggtt => 0,
        AddressSpace::Physical => 2,
        AddressSpace::GgttEntry => 4,
        AddressSpace::PpgttPte => 6,
        AddressSpace::PpgttPdpe => 8,
        AddressSpace::PpgttPde => 9,
        AddressSpace::PpgttPml4e => 10,
        AddressSpace::Local => 1,
        AddressSpace::Ppgtt => 5,
        AddressSpace::Other(v) => v,
    }
}

/// An AUB stream being written.
pub struct AubWriter<W: Write> {
    out: W,
    next_phys: u64,
    /// Page-table pages by (level, VA prefix), and mapped data pages by VA page.
    tables: HashMap<(u32, u64), u64>,
    pages: HashMap<u64, u64>,
    pml4: u64,
    tail: u64,
    started: bool,
}

impl<W: Write> AubWriter<W> {
    pub fn new(out: W) -> Self {
        Self {
            out,
            // Physical pages from 1 MiB up; the GGTT's own pages are allocated the same way.
            next_phys: 0x10_0000,
            tables: HashMap::new(),
            pages: HashMap::new(),
            pml4: 0,
            tail: 0,
            started: false,
        }
    }

    fn dwords(&mut self, dw: &[u32]) -> std::io::Result<()> {
        let bytes: Vec<u8> = dw.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.out.write_all(&bytes)
    }

    fn mem_write(&mut self, space: AddressSpace, addr: u64, data: &[u8]) -> std::io::Result<()> {
        let data_dw = data.len().div_ceil(4);
        let mut rec = vec![
            header(0x06, 5 + data_dw),
            addr as u32,
            (addr >> 32) as u32,
            space_bits(space) << 28,
            data.len() as u32,
        ];
        let mut padded = data.to_vec();
        padded.resize(data_dw * 4, 0);
        rec.extend(
            padded
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        self.dwords(&rec)
    }

    fn reg_write(&mut self, reg: u32, value: u32) -> std::io::Result<()> {
        // offset, flags (dword size), mask low, mask high, value
        self.dwords(&[header(0x03, 6), reg, 2 << 16, 0xffff_ffff, 0, value])
    }

    fn alloc_phys(&mut self) -> u64 {
        let p = self.next_phys;
        self.next_phys += PAGE;
        p
    }

    /// Maps a GGTT page to a fresh physical page; returns the physical page.
    fn ggtt_map(&mut self, ggtt: u64) -> std::io::Result<u64> {
        let pa = self.alloc_phys();
        self.mem_write(
            AddressSpace::GgttEntry,
            ggtt / PAGE * 8,
            &(pa | 1).to_le_bytes(),
        )?;
        Ok(pa)
    }

    /// The physical page behind `va`'s page, mapping it (and its tables) if new.
    fn map(&mut self, va: u64) -> std::io::Result<(u64, bool)> {
        let vpn = va / PAGE;
        if let Some(&pa) = self.pages.get(&vpn) {
            return Ok((pa, false));
        }
        let mut table = self.pml4;
        for (level, shift, space) in [
            (4u32, 39u32, AddressSpace::PpgttPml4e),
            (3, 30, AddressSpace::PpgttPdpe),
            (2, 21, AddressSpace::PpgttPde),
        ] {
            let key = (level - 1, va >> shift);
            let next = match self.tables.get(&key) {
                Some(&t) => t,
                None => {
                    let t = self.alloc_phys();
                    self.tables.insert(key, t);
                    let entry = table + 8 * ((va >> shift) & 0x1ff);
                    self.mem_write(space, entry, &(t | 3).to_le_bytes())?;
                    t
                }
            };
            table = next;
        }
        let pa = self.alloc_phys();
        let entry = table + 8 * ((va >> 12) & 0x1ff);
        self.mem_write(AddressSpace::PpgttPte, entry, &(pa | 3).to_le_bytes())?;
        self.pages.insert(vpn, pa);
        Ok((pa, true))
    }

    /// The stream's start: version, the context image and an empty ring.
    fn start(&mut self) -> std::io::Result<()> {
        let text = b"gencl\0\0\0";
        let mut rec = vec![header(0x0e, 5 + 2), 0, 0, 0, 0];
        rec.extend(
            text.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        self.dwords(&rec)?;
        self.pml4 = self.alloc_phys();
        self.mem_write(AddressSpace::Physical, self.pml4, &[0; PAGE as usize])?;
        let ring_pa = self.ggtt_map(RING)?;
        self.mem_write(AddressSpace::Physical, ring_pa, &[0; RING_SIZE as usize])?;
        let _hwsp = self.ggtt_map(LRCA)?;
        let state = self.ggtt_map(LRCA + PAGE)?;
        let image = self.context_image();
        let bytes: Vec<u8> = image.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.mem_write(AddressSpace::Physical, state, &bytes)?;
        self.started = true;
        Ok(())
    }

    /// The register state page: MI_NOOP, then one MI_LOAD_REGISTER_IMM of the ring and
    /// PPGTT registers (RING_TAIL's value at dword TAIL_SLOT), then MI_BATCH_BUFFER_END.
    fn context_image(&self) -> Vec<u32> {
        let regs: [(u32, u32); 6] = [
            (0x2034, 0),                                           // RING_HEAD
            (0x2030, 0),                                           // RING_TAIL
            (0x2038, RING as u32),                                 // RING_START
            (0x203c, (((RING_SIZE / PAGE) - 1) << 12) as u32 | 1), // RING_CTL: length, enable
            (0x2274, (self.pml4 >> 32) as u32),                    // PDP0_UDW
            (0x2270, self.pml4 as u32),                            // PDP0_LDW
        ];
        let lri = MiLoadRegisterImm {
            dword_length: (2 * regs.len() - 1) as u32,
            ..Default::default()
        }
        .pack()[0];
        let mut dw = vec![MiNoop::default().pack()[0], lri];
        for (r, v) in regs {
            dw.extend([r, v]);
        }
        dw.push(0x0500_0000); // MI_BATCH_BUFFER_END
        dw
    }

    /// The stream written so far.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// One execbuffer: `objects` are (GPU address, contents) of every object it lists,
    /// `batch` the batch's GPU address.
    pub fn submit(&mut self, objects: &[(u64, Vec<u8>)], batch: u64) -> std::io::Result<()> {
        if !self.started {
            self.start()?;
        }
        for (addr, bytes) in objects {
            for (i, page) in bytes.chunks(PAGE as usize).enumerate() {
                let (pa, fresh) = self.map(addr + i as u64 * PAGE)?;
                if fresh && page.iter().all(|&b| b == 0) {
                    continue;
                }
                self.mem_write(AddressSpace::Physical, pa, page)?;
            }
        }
        // The ring: MI_BATCH_BUFFER_START (PPGTT, first level) and a MI_NOOP, 16 bytes.
        let bbs = MiBatchBufferStart {
            address_space_indicator: ASI_PPGTT,
            batch_buffer_start_address: batch,
            ..Default::default()
        }
        .pack();
        let cmd = [bbs[0], bbs[1], bbs[2], 0];
        let bytes: Vec<u8> = cmd.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.mem_write(AddressSpace::Ggtt, RING + self.tail, &bytes)?;
        self.tail = (self.tail + 16) % RING_SIZE;
        let tail = self.tail as u32;
        self.mem_write(
            AddressSpace::Ggtt,
            LRCA + PAGE + 4 * TAIL_SLOT,
            &tail.to_le_bytes(),
        )?;
        let desc = LRCA | DESC_FLAGS;
        for v in [0, 0, (desc >> 32) as u32, desc as u32] {
            self.reg_write(0x2230, v)?;
        }
        self.out.flush()
    }
}
