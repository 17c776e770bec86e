//! Replays an AUB stream on the GPU model, as the hardware would run it.
//!
//! Memory writes land in system memory (directly, or through the GGTT's entries); a
//! context submission (the fourth dword written to the render engine's ELSP, 0x2230, as
//! Mesa's `aub_read.c` reads execlists) names a logical ring context by its GGTT address.
//! Its register state page (the page after the per-process status page) is a list of
//! MI_LOAD_REGISTER_IMMs, which the hardware executes on context restore; from it come
//! the ring (RING_START, RING_CTL, RING_HEAD, RING_TAIL) and the PPGTT's PML4 (PDP0).
//! The ring then runs on `gpu::cs` with the context's persistent pipeline state, and the
//! new head is saved back into the image, as the hardware's context save does. Memory
//! polls the recording made (the runtime waiting for its completion tag) are checked.

use std::collections::HashMap;

use thiserror::Error;
use tracing::debug;

use super::memory::{Ggtt, GgttView, PhysMem, PpgttView};
use super::stream::{AddressSpace, AubError, Reader, Record};
use crate::genx::gen9::{MiBatchBufferEnd, MiLoadRegisterImm, MiNoop};
use crate::genx::Packet;
use crate::gpu::cs::{self, Budget, Engine, EngineState, Ring};
use crate::gpu::{Counters, GpuError, GpuMemory};

/// The render engine's execlist submit port and its ring registers (engine base 0x2000).
const RCS_ELSP: u32 = 0x2230;
const RING_TAIL: u32 = 0x2030;
const RING_HEAD: u32 = 0x2034;
const RING_START: u32 = 0x2038;
const RING_CTL: u32 = 0x203c;
const PDP0_LDW: u32 = 0x2270;
const PDP0_UDW: u32 = 0x2274;
/// RING_HEAD's and RING_TAIL's offset bits ([20:2] and [20:3]).
const HEAD_OFFSET: u32 = 0x001f_fffc;
const TAIL_OFFSET: u32 = 0x001f_fff8;
/// Dwords of the register state page read for its MI_LOAD_REGISTER_IMM lists.
const REG_STATE_DWORDS: usize = 1024;

#[derive(Debug, Error)]
pub enum ReplayError {
    #[error(transparent)]
    Stream(#[from] AubError),
    #[error("AUB record at byte {offset}: {why}")]
    Unsupported { offset: usize, why: String },
    #[error("submission {index} (context {lrca:#x}): context image: {why}")]
    Context {
        index: usize,
        lrca: u64,
        why: String,
    },
    #[error("submission {index} (context {lrca:#x}): GPU error: {error}")]
    Gpu {
        index: usize,
        lrca: u64,
        error: GpuError,
    },
    #[error("memory poll at byte {offset}: {what}")]
    Poll { offset: usize, what: String },
}

/// One context submission and what it did.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The logical ring context's GGTT address.
    pub lrca: u64,
    pub ring: Ring,
    /// Physical address of the context's PML4.
    pub pml4: u64,
    pub counters: Counters,
}

/// What the register state page of a context image holds: register → (dword slot, value).
struct ContextImage {
    regs: HashMap<u32, (usize, u32)>,
}

impl ContextImage {
    fn parse(dw: &[u32]) -> Result<Self, String> {
        let mut regs = HashMap::new();
        let mut i = 0;
        while i < dw.len() {
            let h = dw[i];
            if MiNoop::matches(h) {
                i += 1;
            } else if MiLoadRegisterImm::matches(h) {
                let len = MiLoadRegisterImm::length_from_header(h);
                if len < 3 || len.is_multiple_of(2) || i + len > dw.len() {
                    return Err(format!("MI_LOAD_REGISTER_IMM of {len} dwords at dword {i}"));
                }
                for k in (i + 1..i + len).step_by(2) {
                    regs.insert(dw[k] & 0x007f_fffc, (k + 1, dw[k + 1]));
                }
                i += len;
            } else if MiBatchBufferEnd::matches(h) {
                break;
            } else {
                // Past the lists: the rest of the image is engine state the model keeps
                // in `EngineState`.
                break;
            }
        }
        Ok(Self { regs })
    }

    fn reg(&self, r: u32) -> Result<(usize, u32), String> {
        self.regs
            .get(&r)
            .copied()
            .ok_or_else(|| format!("no value for register {r:#x}"))
    }
}

/// An AUB stream replayed on the model.
pub struct Replay {
    phys: PhysMem,
    ggtt: Ggtt,
    elsp: [u32; 4],
    elsp_n: usize,
    /// MMIO registers the stream wrote (other than the submit port).
    mmio: HashMap<u32, u32>,
    /// Each context's pipeline state, by LRCA.
    contexts: HashMap<u64, EngineState>,
    budget: Budget,
    engine: Engine,
    submissions: Vec<Submission>,
    /// Memory polls checked, and comments read (allocations NEO made resident).
    pub polls_checked: usize,
    /// When set, each submission's decoded commands are appended before it runs.
    pub listing: Option<Vec<String>>,
    pub comments: Vec<String>,
}

impl Default for Replay {
    fn default() -> Self {
        Self::new(Budget::default())
    }
}

impl Replay {
    pub fn new(budget: Budget) -> Self {
        Self {
            phys: PhysMem::default(),
            ggtt: Ggtt::default(),
            elsp: [0; 4],
            elsp_n: 0,
            mmio: HashMap::new(),
            contexts: HashMap::new(),
            budget,
            engine: Engine::default(),
            submissions: Vec::new(),
            polls_checked: 0,
            listing: None,
            comments: Vec::new(),
        }
    }

    /// Replays a whole stream; stops at the first error.
    pub fn run(&mut self, data: &[u8]) -> Result<(), ReplayError> {
        let mut reader = Reader::new(data);
        loop {
            let offset = reader.offset();
            match reader.next() {
                None => return Ok(()),
                Some(r) => self.record(offset, r?)?,
            }
        }
    }

    /// The submissions run so far.
    pub fn submissions(&self) -> &[Submission] {
        &self.submissions
    }

    /// The address space of the most recently submitted context.
    pub fn ppgtt(&self) -> Option<PpgttView<'_>> {
        self.submissions.last().map(|s| self.ppgtt_of(s.pml4))
    }

    fn ppgtt_of(&self, pml4: u64) -> PpgttView<'_> {
        PpgttView {
            phys: &self.phys,
            pml4,
        }
    }

    fn ggtt_view(&self) -> GgttView<'_> {
        GgttView {
            phys: &self.phys,
            ggtt: &self.ggtt,
        }
    }

    /// The model's counters summed over every submission.
    pub fn counters(&self) -> Counters {
        let mut c = Counters::default();
        for s in &self.submissions {
            c.add(&s.counters);
        }
        c
    }

    fn record(&mut self, offset: usize, r: Record<'_>) -> Result<(), ReplayError> {
        let unsupported = |why: String| ReplayError::Unsupported { offset, why };
        match r {
            Record::Version { .. } | Record::Ignored { .. } | Record::RegisterPoll { .. } => {}
            Record::Comment { text } => self.comments.push(text),
            Record::MemoryWrite { space, addr, data } => match space {
                s if s.is_physical() => self.phys.write(addr, data),
                AddressSpace::GgttEntry => {
                    self.ggtt.write_entries(addr, data).map_err(unsupported)?
                }
                AddressSpace::Ggtt => self
                    .ggtt_view()
                    .write(addr, data)
                    .map_err(|e| unsupported(e.to_string()))?,
                other => {
                    return Err(unsupported(format!(
                        "memory write to address space {other:?} (not modelled on Gen9)"
                    )))
                }
            },
            Record::MemoryCompare { .. } => {}
            Record::MemoryPoll {
                space,
                addr,
                mask,
                value,
                not_equal,
            } => {
                let mut b = [0u8; 4];
                let read = match space {
                    s if s.is_physical() => {
                        self.phys.read(addr, &mut b);
                        Ok(())
                    }
                    AddressSpace::Ggtt => self.ggtt_view().read(addr, &mut b),
                    AddressSpace::Ppgtt => match self.ppgtt() {
                        Some(p) => p.read(addr, &mut b),
                        None => return Err(unsupported("PPGTT poll before any submission".into())),
                    },
                    other => return Err(unsupported(format!("memory poll in {other:?}"))),
                };
                read.map_err(|e| ReplayError::Poll {
                    offset,
                    what: e.to_string(),
                })?;
                let got = u32::from_le_bytes(b) & mask;
                if (got == value & mask) == not_equal {
                    return Err(ReplayError::Poll {
                        offset,
                        what: format!(
                            "{space:?} {addr:#x} & {mask:#x} is {got:#x}, the recording waits for {}{value:#x}",
                            if not_equal { "anything but " } else { "" }
                        ),
                    });
                }
                self.polls_checked += 1;
            }
            Record::RegisterWrite { offset: reg, value } => {
                if reg == RCS_ELSP {
                    self.elsp[self.elsp_n] = value;
                    self.elsp_n += 1;
                    if self.elsp_n == 4 {
                        self.elsp_n = 0;
                        // Written element 1 (high, low) then element 0 (high, low).
                        let desc = u64::from(self.elsp[2]) << 32 | u64::from(self.elsp[3]);
                        if desc & 1 != 0 {
                            self.submit(desc)?;
                        }
                    }
                } else {
                    self.mmio.insert(reg, value);
                }
            }
        }
        Ok(())
    }

    /// Runs the context a descriptor names (bit 0 valid, bits 31:12 the LRCA).
    fn submit(&mut self, desc: u64) -> Result<(), ReplayError> {
        let index = self.submissions.len();
        let lrca = desc & 0xffff_f000;
        let ctx_err = |why: String| ReplayError::Context { index, lrca, why };
        let state_page = lrca + 4096;
        let dw = crate::gpu::read_dwords(&self.ggtt_view(), state_page, REG_STATE_DWORDS)
            .map_err(|e| ctx_err(e.to_string()))?;
        let image = ContextImage::parse(&dw).map_err(ctx_err)?;
        let (_, start) = image.reg(RING_START).map_err(ctx_err)?;
        let (_, ctl) = image.reg(RING_CTL).map_err(ctx_err)?;
        let (head_slot, head) = image.reg(RING_HEAD).map_err(ctx_err)?;
        let (_, tail) = image.reg(RING_TAIL).map_err(ctx_err)?;
        let (_, pdp_lo) = image.reg(PDP0_LDW).map_err(ctx_err)?;
        let (_, pdp_hi) = image.reg(PDP0_UDW).map_err(ctx_err)?;
        // RING_CTL: Buffer Length [20:12] in pages, minus one; Ring Buffer Enable [0].
        if ctl & 1 == 0 {
            return Err(ctx_err(format!("RING_CTL {ctl:#x}: ring disabled")));
        }
        let ring = Ring {
            start: u64::from(start & 0xffff_f000),
            size: (u64::from((ctl >> 12) & 0x1ff) + 1) * 4096,
            head: u64::from(head & HEAD_OFFSET),
            tail: u64::from(tail & TAIL_OFFSET),
        };
        let pml4 = u64::from(pdp_hi) << 32 | u64::from(pdp_lo);
        debug!(
            index,
            lrca = format_args!("{lrca:#x}"),
            ?ring,
            pml4 = format_args!("{pml4:#x}"),
            "submission"
        );

        if self.listing.is_some() {
            let lines = super::decode::submission(&self.ppgtt_of(pml4), &self.ggtt_view(), &ring);
            if let Some(l) = &mut self.listing {
                l.push(format!("submission {index} (context {lrca:#x})"));
                l.extend(lines);
            }
        }
        let mut state = self.contexts.remove(&lrca).unwrap_or_default();
        let mut counters = Counters::default();
        let r = {
            let ppgtt = self.ppgtt_of(pml4);
            let ggtt = self.ggtt_view();
            cs::execute_ring(
                &ppgtt,
                &ggtt,
                &ring,
                &mut state,
                &self.budget,
                &self.engine,
                &mut counters,
            )
        };
        self.contexts.insert(lrca, state);
        self.submissions.push(Submission {
            lrca,
            ring,
            pml4,
            counters,
        });
        r.map_err(|error| ReplayError::Gpu { index, lrca, error })?;
        // Context save: the head has reached the tail.
        let new_head = (head & !HEAD_OFFSET) | (ring.tail as u32);
        self.ggtt_view()
            .write(state_page + 4 * head_slot as u64, &new_head.to_le_bytes())
            .map_err(|e| ctx_err(e.to_string()))?;
        Ok(())
    }

    /// The mapped ranges of the last context's address space: (VA, bytes), each a run of
    /// contiguous virtual pages.
    pub fn memory_ranges(&self) -> Vec<(u64, Vec<u8>)> {
        let Some(pp) = self.ppgtt() else {
            return Vec::new();
        };
        let mut out: Vec<(u64, Vec<u8>)> = Vec::new();
        for (va, pa) in pp.mapped_pages() {
            let mut page = vec![0u8; 4096];
            self.phys.read(pa, &mut page);
            match out.last_mut() {
                Some((start, bytes)) if *start + bytes.len() as u64 == va => bytes.extend(page),
                _ => out.push((va, page)),
            }
        }
        out
    }
}
