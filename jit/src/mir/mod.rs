//! Machine IR (`mir`): Gen instructions (`isa::Inst`) whose register operands may
//! name virtual registers, plus labels for structured control flow. Register
//! allocation assigns the virtual registers; `emit` patches them in, resolves
//! JIP/UIP and encodes.

use crate::isa::Inst;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Label(pub u32);

/// A virtual register: `bytes` of per-thread storage. Up to 8 bytes is a
/// scalar slot (uniform value); more is whole, contiguous GRFs.
#[derive(Clone, Copy, Debug)]
pub struct VRegInfo {
    pub bytes: u32,
}

impl VRegInfo {
    pub fn is_scalar(&self) -> bool {
        self.bytes <= 8
    }
    pub fn grfs(&self) -> u32 {
        self.bytes.div_ceil(32)
    }
}

/// A byte offset into a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VRef {
    pub v: VReg,
    pub off: u32,
}

#[derive(Clone, Debug)]
pub struct MInst {
    pub inst: Inst,
    /// When set, the destination register is this virtual register.
    pub dst: Option<VRef>,
    /// When set, source `n`'s register is this virtual register.
    pub srcs: [Option<VRef>; 3],
    /// Flow-control targets (resolved to byte offsets by `emit`).
    pub jip: Option<Label>,
    pub uip: Option<Label>,
}

impl MInst {
    /// A gather within the register file: a move whose source 0 is VxH-indirect
    /// (`r[a0.0]<1,0>`) and names virtual register `srcs[0]`, with each lane's byte offset
    /// into it in the dwords of `srcs[1]`. Emission puts the `add` that sets a0 (offsets
    /// plus the register's address, known only then) right before the move, so the pair
    /// stays one instruction here: spilling and liveness see both registers read at once.
    pub fn is_gather(&self) -> bool {
        matches!(self.inst.srcs[0], Some(crate::isa::Src::Reg(r)) if r.indirect.is_some())
            && self.srcs[0].is_some()
            && self.srcs[1].is_some()
    }

    /// Machine instructions this one becomes.
    pub fn machine_len(&self) -> usize {
        if self.is_gather() {
            2
        } else {
            1
        }
    }
}

#[derive(Clone, Debug)]
pub enum Item {
    Inst(MInst),
    Label(Label),
    /// Start and end of a loop body: values live into the loop stay live to its end.
    LoopStart(Label),
    LoopEnd(Label),
}

#[derive(Clone, Debug, Default)]
pub struct MFunction {
    pub items: Vec<Item>,
    pub vregs: Vec<VRegInfo>,
    pub labels: u32,
    /// First GRF that is not thread payload (allocation starts here).
    pub first_free_grf: u8,
    /// Bytes at the start of each thread's scratch space that hold its lanes' private
    /// memory (a multiple of 32); spilled registers go after them.
    pub scratch_base: u32,
}

impl MFunction {
    pub fn new_vreg(&mut self, bytes: u32) -> VReg {
        self.vregs.push(VRegInfo { bytes });
        VReg(self.vregs.len() as u32 - 1)
    }
    pub fn new_label(&mut self) -> Label {
        self.labels += 1;
        Label(self.labels - 1)
    }
}

pub mod fold_copies;
pub mod verify;
