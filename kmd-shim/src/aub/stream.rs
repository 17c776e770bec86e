//! The AUB memtrace stream, record by record.
//!
//! An AUB file is a sequence of records, each a header dword (Type [31:29] = 7,
//! Opcode [28:23], Sub-opcode [22:16], DWord Length [15:0]) and its body. Intel's
//! runtime (NEO's `AubStream`) and Mesa's `aub_write.c` write the "memtrace" records
//! (Opcode 0x2e, total length DWord Length + 1); the classic pre-Gen8 records (Opcode 1)
//! are refused by name. Mesa's `intel_aub.h` and `aub_read.c` document the layout, NEO's
//! `aub_mem_dump.h` the address spaces. The input is untrusted: every length is checked
//! against the bytes present and a bad record is an error naming its offset.

use thiserror::Error;

/// Memtrace opcode (bits 28:23 of the header).
const OPCODE_MEMTRACE: u32 = 0x2e;
/// The classic AUB opcode (Gen7 and earlier tools): not read.
const OPCODE_CLASSIC: u32 = 0x01;

const SUB_REGISTER_POLL: u32 = 0x02;
const SUB_REGISTER_WRITE: u32 = 0x03;
const SUB_REGISTER_COMPARE: u32 = 0x01;
const SUB_MEMORY_COMPARE: u32 = 0x04;
const SUB_MEMORY_POLL: u32 = 0x05;
const SUB_FRAME_BEGIN: u32 = 0x07;
const SUB_DELAY: u32 = 0x09;
const SUB_MEMORY_WRITE: u32 = 0x06;
const SUB_COMMENT: u32 = 0x08;
const SUB_VERSION: u32 = 0x0e;

/// The address space of a memory write or poll (bits 31:28 of its fourth dword), as
/// NEO's `AddressSpaceValues` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressSpace {
    /// A graphics address translated through the GGTT.
    Ggtt,
    /// Device-local memory (discrete GPUs only).
    Local,
    /// System memory by physical address: page contents.
    Physical,
    /// A GGTT entry: the address is the entry's index times 8.
    GgttEntry,
    /// A graphics address translated through the current PPGTT.
    Ppgtt,
    /// Physical writes of page-table pages, by level (PT, PD, PDP, PML4).
    PpgttPte,
    PpgttPde,
    PpgttPdpe,
    PpgttPml4e,
    Other(u32),
}

impl AddressSpace {
    fn from_bits(v: u32) -> Self {
        match v {
            0 => Self::Ggtt,
            1 => Self::Local,
            2 => Self::Physical,
            4 => Self::GgttEntry,
            5 => Self::Ppgtt,
            6 => Self::PpgttPte,
            9 => Self::PpgttPde,
            8 => Self::PpgttPdpe,
            10 => Self::PpgttPml4e,
            v => Self::Other(v),
        }
    }

    /// Whether the address is a physical one (page contents or page-table pages).
    pub fn is_physical(self) -> bool {
        matches!(
            self,
            Self::Physical | Self::PpgttPte | Self::PpgttPde | Self::PpgttPdpe | Self::PpgttPml4e
        )
    }
}

/// One record of the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record<'a> {
    /// The stream's version record and the text that follows it (NEO writes "NEO").
    Version { text: String },
    /// Free text (NEO writes one per allocation it makes resident: "ppgtt: 0x… size: …").
    Comment { text: String },
    /// An MMIO register write.
    RegisterWrite { offset: u32, value: u32 },
    /// An MMIO register poll: the recording expects `(reg & mask) == value` (or `!=`).
    RegisterPoll {
        offset: u32,
        mask: u32,
        value: u32,
        not_equal: bool,
    },
    /// Bytes written to memory.
    MemoryWrite {
        space: AddressSpace,
        addr: u64,
        data: &'a [u8],
    },
    /// The bytes the recording expects at `addr` once the GPU is idle.
    MemoryCompare {
        space: AddressSpace,
        addr: u64,
        expected: &'a [u8],
    },
    /// Records that change nothing in a replay (frame begin, delay, register compare).
    Ignored { sub: u32 },
    /// A memory poll: the recording expects the dword at `addr` to reach `value` under
    /// `mask` (or to differ from it).
    MemoryPoll {
        space: AddressSpace,
        addr: u64,
        mask: u32,
        value: u32,
        not_equal: bool,
    },
}

#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum AubError {
    #[error("AUB record at byte {offset}: {why}")]
    Malformed { offset: usize, why: String },
}

fn malformed(offset: usize, why: impl Into<String>) -> AubError {
    AubError::Malformed {
        offset,
        why: why.into(),
    }
}

/// Iterates over the records of an AUB stream.
pub struct Reader<'a> {
    data: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, offset: 0 }
    }

    /// The byte offset of the next record.
    pub fn offset(&self) -> usize {
        self.offset
    }

    fn dword(&self, body: &[u8], i: usize) -> u32 {
        let b = &body[4 * i..4 * i + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// The body of a memory write or compare: address (2 dwords), flags (address space
    /// [31:28]), size in bytes, then the bytes.
    fn addressed_bytes(
        &self,
        at: usize,
        body: &'a [u8],
        what: &str,
    ) -> Result<(AddressSpace, u64, &'a [u8]), AubError> {
        let dwords = body.len() / 4;
        if dwords < 5 {
            return Err(malformed(
                at,
                format!("{what} of {dwords} dwords, 5 needed"),
            ));
        }
        let addr = u64::from(self.dword(body, 1)) | (u64::from(self.dword(body, 2)) << 32);
        let space = AddressSpace::from_bits(self.dword(body, 3) >> 28);
        let size = self.dword(body, 4) as usize;
        if size > 4 * (dwords - 5) {
            return Err(malformed(
                at,
                format!("{what} of {size} bytes in a {dwords}-dword record"),
            ));
        }
        Ok((space, addr, &body[20..20 + size]))
    }

    fn next_record(&mut self) -> Result<Option<Record<'a>>, AubError> {
        let at = self.offset;
        let rest = &self.data[at..];
        if rest.is_empty() {
            return Ok(None);
        }
        if rest.len() < 4 {
            return Err(malformed(at, "truncated header"));
        }
        let h = self.dword(rest, 0);
        let (ty, opcode, sub) = (h >> 29, (h >> 23) & 0x3f, (h >> 16) & 0x7f);
        if ty != 7 {
            return Err(malformed(
                at,
                format!("header {h:#010x} is not an AUB record"),
            ));
        }
        if opcode == OPCODE_CLASSIC {
            return Err(malformed(
                at,
                "classic (pre-memtrace) AUB record: only memtrace streams are read",
            ));
        }
        if opcode != OPCODE_MEMTRACE {
            return Err(malformed(at, format!("unknown AUB opcode {opcode:#x}")));
        }
        let dwords = (h & 0xffff) as usize + 1;
        if rest.len() < 4 * dwords {
            return Err(malformed(
                at,
                format!("record of {dwords} dwords with {} bytes left", rest.len()),
            ));
        }
        let body = &rest[..4 * dwords];
        self.offset += 4 * dwords;
        let need = |n: usize| {
            if dwords < n {
                Err(malformed(at, format!("{dwords}-dword record, {n} needed")))
            } else {
                Ok(())
            }
        };
        let text = |from: usize| {
            let b = &body[4 * from.min(dwords)..];
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8_lossy(&b[..end]).into_owned()
        };
        Ok(Some(match sub {
            SUB_VERSION => Record::Version { text: text(5) },
            SUB_COMMENT => Record::Comment { text: text(2) },
            SUB_REGISTER_WRITE => {
                // offset, flags (data size and the like), mask, reserved, value.
                need(6)?;
                Record::RegisterWrite {
                    offset: self.dword(body, 1),
                    value: self.dword(body, 5),
                }
            }
            SUB_REGISTER_POLL => {
                // offset, flags (bit 2: poll not equal), mask (low, high), value.
                need(6)?;
                Record::RegisterPoll {
                    offset: self.dword(body, 1),
                    not_equal: self.dword(body, 2) & 4 != 0,
                    mask: self.dword(body, 3),
                    value: self.dword(body, 5),
                }
            }
            SUB_MEMORY_WRITE => {
                let (space, addr, data) = self.addressed_bytes(at, body, "memory write")?;
                Record::MemoryWrite { space, addr, data }
            }
            SUB_MEMORY_POLL => {
                // address (2 dwords), flags (bit 0: not equal; address space [31:28]),
                // mask (low, high), value.
                need(7)?;
                let flags = self.dword(body, 3);
                Record::MemoryPoll {
                    addr: u64::from(self.dword(body, 1)) | (u64::from(self.dword(body, 2)) << 32),
                    space: AddressSpace::from_bits(flags >> 28),
                    not_equal: flags & 1 != 0,
                    mask: self.dword(body, 4),
                    value: self.dword(body, 6),
                }
            }
            SUB_MEMORY_COMPARE => {
                let (space, addr, expected) = self.addressed_bytes(at, body, "memory compare")?;
                Record::MemoryCompare {
                    space,
                    addr,
                    expected,
                }
            }
            SUB_FRAME_BEGIN | SUB_DELAY | SUB_REGISTER_COMPARE => Record::Ignored { sub },
            other => {
                return Err(malformed(
                    at,
                    format!("unknown memtrace sub-opcode {other:#x}"),
                ))
            }
        }))
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Record<'a>, AubError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_record() {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => None,
            Err(e) => {
                // Stop after an error: the stream has no resynchronisation point.
                self.offset = self.data.len();
                Some(Err(e))
            }
        }
    }
}
