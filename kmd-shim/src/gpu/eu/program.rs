//! Decoded kernels: instructions decoded once per kernel address and
//! pre-resolved into [`ExecInst`] — operand byte offsets, element counts and
//! the value domain the ALU computes in — so the interpreter's inner loops
//! never look at encodings.

use gencl_isa::{
    AccessMode, Branch, CondMod, Dst, Inst, MathFn, Opcode, PredCtrl, RegFile, Src, SrcReg, Type,
};

use crate::gpu::{GpuError, GpuMemory};

/// Size of the GRF file of one thread: 128 registers of 32 bytes.
pub const GRF_BYTES: usize = 128 * 32;

/// The byte-addressable ARF registers, each modelled as 32 bytes in one array
/// (`Thread::arf`); the accumulators are kept apart at full precision.
pub mod arf {
    pub const A0: usize = 0;
    pub const F0: usize = 1;
    pub const F1: usize = 2;
    pub const CE0: usize = 3;
    pub const SR0: usize = 4;
    pub const CR0: usize = 5;
    pub const N0: usize = 6;
    pub const IP: usize = 7;
    pub const TDR: usize = 8;
    pub const TM0: usize = 9;
    pub const COUNT: usize = 10;
    pub const BYTES: usize = COUNT * 32;
}

/// What a lane's value is computed as. Chosen once per instruction from the
/// operand types (the PRM's "execution data type").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dom {
    /// Integers, held sign- or zero-extended (per source type) in `i64`.
    Int,
    /// Single (and half) precision floats, computed in `f32`.
    F32,
    /// Double precision.
    F64,
}

/// Half precision in an instruction, from its operand types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// No :hf operand.
    None,
    /// Every operand :hf: a native half instruction, rounded once to half.
    Native,
    /// :hf and :f operands together: a mixed-mode instruction, computed in
    /// f32 and converted (it keeps denormals, as conversions do).
    Mixed,
}

/// Where an operand lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Null,
    Grf,
    /// A byte-addressable ARF register (`arf::*` index × 32 is in `base`).
    Arf,
    /// acc0/acc1: `base` is the first accumulator slot.
    Acc,
    Imm,
}

/// A resolved source operand: lane `i` reads `base + rel[i]` (bytes in the
/// GRF or ARF array, or accumulator slots), or an immediate.
#[derive(Clone, Copy, Debug)]
pub struct SrcOp {
    pub loc: Loc,
    pub ty: Type,
    pub neg: bool,
    pub abs: bool,
    /// Register-indirect: a0 subregister (16-bit units) and byte offset; `base` is then 0.
    pub indirect: Option<(u8, i16)>,
    pub base: u32,
    pub rel: [u16; 32],
    /// VxH indirect region: rows of this width, row r addressed by a0.(subreg + r); 0 = not VxH.
    pub vxh: u8,
    /// Raw immediate bits.
    pub imm: u64,
}

#[derive(Clone, Copy, Debug)]
pub struct DstOp {
    pub loc: Loc,
    pub ty: Type,
    pub indirect: Option<(u8, i16)>,
    pub base: u32,
    pub rel: [u16; 32],
    /// Lanes the Align16 write mask suppresses (bit per lane).
    pub wmask_off: u32,
}

/// One pre-resolved instruction.
#[derive(Clone, Debug)]
pub struct ExecInst {
    pub addr: u64,
    pub len: u8,
    pub op: Opcode,
    pub n: u8,
    pub chan_off: u8,
    pub no_mask: bool,
    pub pred: Option<(PredCtrl, bool)>,
    /// Flag register index (0 = f0, 1 = f1) and the bit of that 32-bit register for channel 0.
    pub flag_reg: u8,
    pub flag_shift: u8,
    pub cmod: Option<CondMod>,
    pub sat: bool,
    pub acc_wr: bool,
    pub dom: Dom,
    pub half: Half,
    /// Some source is UQ: 64-bit comparisons and conversions are unsigned.
    pub unsigned64: bool,
    /// All integer sources are unsigned (comparisons, min/max, mul high, shifts).
    pub all_unsigned: bool,
    pub dst: Option<DstOp>,
    pub srcs: [Option<SrcOp>; 3],
    pub math: Option<MathFn>,
    pub send: Option<gencl_isa::SendInfo>,
    /// The send's message, decoded once when its descriptor is an immediate (else per
    /// send, from a0.0).
    pub message: Option<gencl_isa::gen9::send::Message>,
    pub branch: Branch,
    /// Raw instruction (sends read their register numbers from it).
    pub inst: Inst,
    /// The fast-path form, when the instruction has one (`fast::plan`).
    pub fast: Option<super::fast::Plan>,
    /// Issue cycles of an ALU instruction (`timing::issue_cycles`).
    pub issue: u8,
    /// GRFs it reads or writes (bit n: rn; `timing::grfs_touched`): the scoreboard's
    /// check before it issues. A send's are its message's, known when it issues.
    pub touch: u128,
    /// A send with an immediate descriptor: the GRFs of its payloads and of its reply
    /// (`send::registers`), for the scoreboard at each issue (None: known at issue).
    pub send_regs: Option<(u128, u128)>,
    /// A send with an immediate descriptor: its message's form for the data port to take
    /// it where its registers are (`send::in_place_form`), if it has one.
    pub in_place: Option<crate::gpu::dataport::InPlaceForm>,
    /// IEEE macro operands' mme registers: dst, src0..src2 (0..7; 8 = nomme).
    pub mme: [u8; 4],
}

fn illegal(addr: u64, why: impl Into<String>) -> GpuError {
    GpuError::IllegalInstruction {
        addr,
        why: why.into(),
    }
}

/// Map an ARF number to its byte-array slot, or the accumulator.
fn arf_slot(addr: u64, nr: u8) -> Result<Loc2, GpuError> {
    Ok(match nr {
        0x00..=0x0F => Loc2::Null,
        0x10 => Loc2::Arf(arf::A0),
        0x20 | 0x21 => Loc2::Acc((nr - 0x20) as u32),
        0x30 => Loc2::Arf(arf::F0),
        0x31 => Loc2::Arf(arf::F1),
        0x40 => Loc2::Arf(arf::CE0),
        0x70 => Loc2::Arf(arf::SR0),
        0x80 => Loc2::Arf(arf::CR0),
        0x90 => Loc2::Arf(arf::N0),
        0xA0 => Loc2::Arf(arf::IP),
        0xB0 => Loc2::Arf(arf::TDR),
        0xC0 => Loc2::Arf(arf::TM0),
        _ => {
            return Err(illegal(
                addr,
                format!("ARF register {nr:#x} is not modelled"),
            ))
        }
    })
}

enum Loc2 {
    Null,
    Arf(usize),
    Acc(u32),
}

/// Byte offsets of the lanes of an Align1 region, or of an Align16 operand.
fn region_offsets(
    addr: u64,
    n: usize,
    size: u32,
    vstride: u32,
    width: u32,
    hstride: u32,
    align16: Option<[u8; 4]>,
) -> Result<[u16; 32], GpuError> {
    let mut rel = [0u16; 32];
    if width == 0 {
        return Err(illegal(addr, "region width 0"));
    }
    for (i, r) in rel.iter_mut().enumerate().take(n) {
        let i = i as u32;
        let elem = match align16 {
            // Align16: groups of 4 channels, vstride (elements) between groups, swizzle within.
            Some(swz) if !(vstride == 0 && width == 1 && hstride == 0) => {
                (i / 4) * vstride + u32::from(swz[(i % 4) as usize] & 3)
            }
            _ => (i / width) * vstride + (i % width) * hstride,
        };
        let off = elem * size;
        if off >= GRF_BYTES as u32 {
            return Err(illegal(addr, "region runs past the register file"));
        }
        *r = off as u16;
    }
    Ok(rel)
}

fn resolve_src(addr: u64, s: &Src, n: usize, align16: bool) -> Result<SrcOp, GpuError> {
    match s {
        Src::Imm(imm) => Ok(SrcOp {
            loc: Loc::Imm,
            ty: imm.ty,
            neg: false,
            abs: false,
            indirect: None,
            base: 0,
            rel: [0; 32],
            vxh: 0,
            imm: imm.bits,
        }),
        Src::Reg(r) => resolve_src_reg(addr, r, n, align16),
    }
}

fn resolve_src_reg(addr: u64, r: &SrcReg, n: usize, align16: bool) -> Result<SrcOp, GpuError> {
    if matches!(r.ty, Type::V | Type::UV | Type::VF) {
        return Err(illegal(addr, "vector immediate type on a register operand"));
    }
    let size = r.ty.size();
    let vxh = r.region.vstride == gencl_isa::Region::VXH;
    if vxh && (r.indirect.is_none() || r.region.width == 0) {
        return Err(illegal(addr, "VxH region without indirect addressing"));
    }
    let rel = if vxh {
        // Each row has its own address register; `rel` is the offset within the row.
        region_offsets(
            addr,
            n,
            size,
            0,
            u32::from(r.region.width),
            u32::from(r.region.hstride),
            None,
        )?
    } else {
        region_offsets(
            addr,
            n,
            size,
            u32::from(r.region.vstride),
            u32::from(r.region.width),
            u32::from(r.region.hstride),
            align16.then_some(r.swizzle),
        )?
    };
    let mut op = SrcOp {
        loc: Loc::Grf,
        ty: r.ty,
        neg: r.modifier.negate,
        abs: r.modifier.abs,
        indirect: None,
        base: 0,
        rel,
        vxh: if vxh { r.region.width } else { 0 },
        imm: 0,
    };
    if let Some(ind) = r.indirect {
        if r.file != RegFile::Grf {
            return Err(illegal(addr, "indirect addressing of an ARF"));
        }
        if ind.addr_subreg >= 16 {
            return Err(illegal(addr, "address subregister out of range"));
        }
        op.indirect = Some((ind.addr_subreg, ind.offset));
        return Ok(op);
    }
    let max = rel[..n].iter().copied().max().unwrap_or(0) as u32 + size;
    match r.file {
        RegFile::Grf => {
            op.base = u32::from(r.nr) * 32 + u32::from(r.subreg);
            if op.base + max > GRF_BYTES as u32 {
                return Err(illegal(addr, format!("source r{} region past r127", r.nr)));
            }
        }
        RegFile::Arf => match arf_slot(addr, r.nr)? {
            Loc2::Null => op.loc = Loc::Null,
            Loc2::Arf(slot) => {
                op.loc = Loc::Arf;
                op.base = (slot * 32) as u32 + u32::from(r.subreg);
                if op.base + max > arf::BYTES as u32 || u32::from(r.subreg) + max > 32 {
                    return Err(illegal(addr, "ARF source region past its register"));
                }
            }
            Loc2::Acc(k) => {
                op.loc = Loc::Acc;
                let per = 32 / size.max(4);
                op.base = k * per + u32::from(r.subreg) / size;
                for v in op.rel.iter_mut() {
                    *v /= size as u16;
                }
                if op.base + (max - size) / size >= 32 {
                    return Err(illegal(addr, "accumulator region out of range"));
                }
            }
        },
    }
    Ok(op)
}

fn resolve_dst(addr: u64, d: &Dst, n: usize, align16: bool) -> Result<DstOp, GpuError> {
    if matches!(d.ty, Type::V | Type::UV | Type::VF) {
        return Err(illegal(addr, "vector immediate type on the destination"));
    }
    let size = d.ty.size();
    let hs = if align16 { 1 } else { u32::from(d.hstride) };
    if hs == 0 {
        return Err(illegal(addr, "destination horizontal stride 0"));
    }
    let rel = region_offsets(addr, n, size, 0, 1, 0, None).map(|_| {
        let mut rel = [0u16; 32];
        for (i, r) in rel.iter_mut().enumerate().take(n) {
            *r = (i as u32 * hs * size).min(u16::MAX as u32) as u16;
        }
        rel
    })?;
    let mut wmask_off = 0u32;
    if align16 {
        for i in 0..n {
            if d.writemask & (1 << (i % 4)) == 0 {
                wmask_off |= 1 << i;
            }
        }
    }
    let mut op = DstOp {
        loc: Loc::Grf,
        ty: d.ty,
        indirect: None,
        base: 0,
        rel,
        wmask_off,
    };
    if let Some(ind) = d.indirect {
        if d.file != RegFile::Grf || ind.addr_subreg >= 16 {
            return Err(illegal(addr, "bad indirect destination"));
        }
        op.indirect = Some((ind.addr_subreg, ind.offset));
        return Ok(op);
    }
    let max = if n == 0 {
        0
    } else {
        u32::from(rel[n - 1]) + size
    };
    match d.file {
        RegFile::Grf => {
            op.base = u32::from(d.nr) * 32 + u32::from(d.subreg);
            if op.base + max > GRF_BYTES as u32 {
                return Err(illegal(
                    addr,
                    format!("destination r{} region past r127", d.nr),
                ));
            }
        }
        RegFile::Arf => match arf_slot(addr, d.nr)? {
            Loc2::Null => op.loc = Loc::Null,
            Loc2::Arf(slot) => {
                op.loc = Loc::Arf;
                op.base = (slot * 32) as u32 + u32::from(d.subreg);
                if u32::from(d.subreg) + max > 32 {
                    return Err(illegal(addr, "ARF destination past its register"));
                }
            }
            Loc2::Acc(k) => {
                op.loc = Loc::Acc;
                let per = 32 / size.max(4);
                op.base = k * per + u32::from(d.subreg) / size;
                for v in op.rel.iter_mut() {
                    *v /= size as u16;
                }
                if op.base + (max - size) / size >= 32 {
                    return Err(illegal(addr, "accumulator destination out of range"));
                }
            }
        },
    }
    Ok(op)
}

fn src_ty(s: &Option<Src>) -> Option<Type> {
    match s {
        Some(Src::Reg(r)) => Some(r.ty),
        Some(Src::Imm(i)) => Some(i.ty),
        None => None,
    }
}

/// Pre-resolve one decoded instruction at `addr` of `len` bytes.
pub fn resolve(addr: u64, len: u8, inst: Inst) -> Result<ExecInst, GpuError> {
    let n = inst.exec_size as usize;
    if !matches!(n, 1 | 2 | 4 | 8 | 16 | 32) {
        return Err(illegal(addr, format!("execution size {n}")));
    }
    if inst.chan_offset as usize + n > 32 || !inst.chan_offset.is_multiple_of(4) {
        return Err(illegal(addr, "channel offset past 32 channels"));
    }
    let align16 = inst.access_mode == AccessMode::Align16;
    let (f, fsub) = inst.flag;
    if f > 1 || fsub > 1 {
        return Err(illegal(addr, "flag register out of range"));
    }
    let is_send = matches!(
        inst.op,
        Opcode::Send | Opcode::Sendc | Opcode::Sends | Opcode::Sendsc
    );
    let is_flow = matches!(
        inst.op,
        Opcode::Jmpi
            | Opcode::Brd
            | Opcode::If
            | Opcode::Brc
            | Opcode::Else
            | Opcode::Endif
            | Opcode::While
            | Opcode::Break
            | Opcode::Cont
            | Opcode::Halt
            | Opcode::Calla
            | Opcode::Call
            | Opcode::Ret
            | Opcode::Goto
            | Opcode::Join
            | Opcode::Wait
            | Opcode::Nop
            | Opcode::Illegal
    );
    let mut srcs: [Option<SrcOp>; 3] = [None, None, None];
    let mut dst = None;
    // Sends and flow control name registers whole; their operands are read by
    // their own code from `inst`, except call/ret/jmpi which use ordinary operands.
    if !is_send && (!is_flow || matches!(inst.op, Opcode::Call | Opcode::Ret | Opcode::Jmpi)) {
        for (k, s) in inst.srcs.iter().enumerate() {
            if let Some(s) = s {
                srcs[k] = Some(resolve_src(addr, s, n, align16)?);
            }
        }
        if let Some(d) = &inst.dst {
            dst = Some(resolve_dst(addr, d, n, align16)?);
        }
    }
    // The IEEE macros' Align16 swizzle / write-mask fields name mme registers,
    // not channels: their operands are whole contiguous registers.
    let mut mme = [8u8; 4];
    if super::mathmacro::is_macro(inst.op, inst.math_fn) {
        if let Some((d, op)) = inst.dst.as_ref().zip(dst.as_mut()) {
            mme[0] = d.writemask.min(8);
            op.wmask_off = 0;
        }
        for (k, s) in inst.srcs.iter().enumerate() {
            if let (Some(Src::Reg(r)), Some(op)) = (s, srcs[k].as_mut()) {
                let v = r.swizzle.iter().rev().fold(0u8, |v, c| (v << 2) | c);
                mme[k + 1] = v.min(8);
                let size = r.ty.size();
                op.rel = contiguous_rel(addr, n, size, op.base)?;
            }
        }
    }
    // A packed :v/:uv immediate is a row of 8 words: each channel takes the element at its
    // destination byte offset / 2. With a dword destination channel i reads element 2i
    // (IGC relies on it: `mov (2) r9.0<1>:ud 0x400:uv` gives 0, 4). Lanes then take
    // element i of the remapped value, whatever the destination.
    if let Some(d) = dst.as_ref().filter(|d| d.loc == Loc::Grf && n > 1) {
        let step = (u32::from(d.rel[1]).saturating_sub(u32::from(d.rel[0])) / 2).max(1);
        for op in srcs.iter_mut().flatten() {
            if op.loc == Loc::Imm && matches!(op.ty, Type::V | Type::UV) && step > 1 {
                let nib = |k: u32| (op.imm >> ((k % 8) * 4)) & 0xF;
                op.imm = (0..8u32).fold(0, |v, i| v | nib(i * step) << (4 * i));
            }
        }
    }
    let tys: Vec<Type> = inst.srcs.iter().filter_map(src_ty).collect();
    let any_df = tys.contains(&Type::DF);
    let any_float = tys.iter().any(|t| t.is_float());
    let float_op = matches!(
        inst.op,
        Opcode::Frc
            | Opcode::Rndd
            | Opcode::Rndu
            | Opcode::Rnde
            | Opcode::Rndz
            | Opcode::Dp2
            | Opcode::Dp3
            | Opcode::Dp4
            | Opcode::Dph
            | Opcode::Lrp
            | Opcode::Madm
            | Opcode::Line
            | Opcode::Pln
    );
    let int_math = matches!(
        inst.math_fn,
        Some(MathFn::IntDivBoth | MathFn::IntDivQuotient | MathFn::IntDivRemainder)
    ) && inst.op == Opcode::Math;
    let dom = if any_df || (float_op && inst.dst.map(|d| d.ty) == Some(Type::DF)) {
        Dom::F64
    } else if (any_float || float_op || inst.op == Opcode::Math) && !int_math {
        Dom::F32
    } else {
        Dom::Int
    };
    let all_tys = || tys.iter().copied().chain(inst.dst.map(|d| d.ty));
    let half = if !all_tys().any(|t| t == Type::HF) {
        Half::None
    } else if all_tys().all(|t| t == Type::HF) {
        Half::Native
    } else if all_tys().any(|t| t == Type::F) {
        Half::Mixed
    } else {
        Half::None
    };
    let unsigned64 = tys.contains(&Type::UQ);
    let all_unsigned = !tys.is_empty()
        && tys
            .iter()
            .all(|t| matches!(t, Type::UD | Type::UW | Type::UB | Type::UQ | Type::UV));
    let mut e = ExecInst {
        addr,
        len,
        op: inst.op,
        n: n as u8,
        chan_off: inst.chan_offset,
        no_mask: inst.no_mask,
        pred: inst.predicate.map(|p| (p.ctrl, p.inverse)),
        flag_reg: f,
        flag_shift: fsub * 16,
        cmod: inst.cond_mod,
        sat: inst.saturate,
        acc_wr: inst.acc_wr_en,
        dom,
        half,
        unsigned64,
        all_unsigned,
        dst,
        srcs,
        math: inst.math_fn,
        send: inst.send,
        message: inst.send.and_then(|info| {
            info.desc.map(|d| {
                gencl_isa::gen9::send::decode_message(
                    inst.op,
                    inst.exec_size,
                    info.sfid,
                    d,
                    info.ex_desc,
                )
            })
        }),
        branch: inst.branch.unwrap_or_default(),
        inst,
        fast: None,
        issue: 0,
        touch: 0,
        send_regs: None,
        in_place: None,
        mme,
    };
    e.fast = super::fast::plan(&e);
    e.issue = super::timing::issue_cycles(&e) as u8;
    e.touch = super::timing::grfs_touched(&e);
    e.send_regs = e.message.map(|m| super::send::registers(&e, &m));
    e.in_place = e.message.and_then(|m| super::send::in_place_form(&e, &m));
    Ok(e)
}

/// Byte offsets of `n` consecutive elements of `size` bytes from `base`.
fn contiguous_rel(addr: u64, n: usize, size: u32, base: u32) -> Result<[u16; 32], GpuError> {
    if base + n as u32 * size > GRF_BYTES as u32 {
        return Err(illegal(addr, "macro operand past r127"));
    }
    let mut rel = [0u16; 32];
    for (i, r) in rel.iter_mut().enumerate().take(n) {
        *r = (i as u32 * size) as u16;
    }
    Ok(rel)
}

/// One slot of a program: the resolved instruction and the raw bytes it was decoded from.
#[derive(Clone, Debug)]
struct Slot {
    addr: u64,
    inst: Result<ExecInst, GpuError>,
    raw: [u8; 16],
    /// Launch generation in which `raw` was last checked against memory.
    checked: u64,
}

/// A kernel's instructions, decoded lazily per address and kept.
#[derive(Debug, Default)]
pub struct Program {
    base: u64,
    /// Slot index per 8-byte unit past `base` (`u32::MAX`: not decoded yet).
    index: Vec<u32>,
    slots: Vec<Slot>,
    /// Built from `Inst` values: nothing to fetch or re-check.
    prebuilt: bool,
    generation: u64,
    scratch: Vec<u8>,
    /// Generation in which every slot was checked at once (`revalidate`).
    all_checked: u64,
    /// One past the last byte of any decoded instruction.
    end: u64,
    /// Hot runs translated to host code, and how often each instruction was reached.
    runs: super::translate::Runs,
    /// The registers the decoded instructions may write (bit n: rn; `grf_writes`).
    writes: u128,
}

/// Largest kernel the cache indexes: 16 MiB of instructions.
const MAX_SPAN: u64 = 16 << 20;

/// Largest span `revalidate` reads at once.
const MAX_BULK_CHECK: u64 = 256 << 10;

/// Bytes of an instruction: bit 29 of the first dword is CmptCtrl (compacted: 8).
fn slot_len(raw: &[u8; 16]) -> usize {
    if raw[3] & 0x20 != 0 {
        8
    } else {
        16
    }
}

impl Program {
    pub fn new(base: u64) -> Program {
        Program {
            base,
            ..Default::default()
        }
    }

    /// A program made of already-decoded instructions (tests, and callers that
    /// hold an `Inst` list). Addresses outside them are illegal.
    pub fn from_insts(insts: Vec<(u64, Inst)>) -> Result<Program, GpuError> {
        let base = insts.iter().map(|(a, _)| *a).min().unwrap_or(0);
        let mut p = Program {
            base,
            prebuilt: true,
            ..Default::default()
        };
        for (addr, inst) in insts {
            let len = if inst.compacted { 8 } else { 16 };
            let slot = Slot {
                addr,
                inst: resolve(addr, len, inst),
                raw: [0; 16],
                checked: 0,
            };
            p.insert(addr, slot)?;
        }
        Ok(p)
    }

    /// Drop every fast-path plan, so the general path runs everything (tests
    /// compare the two paths).
    #[cfg(test)]
    pub fn without_fast_paths(mut self) -> Program {
        for s in &mut self.slots {
            if let Ok(i) = &mut s.inst {
                i.fast = None;
            }
        }
        self
    }

    /// How many instructions have a fast-path plan.
    #[cfg(test)]
    pub fn planned(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| matches!(&s.inst, Ok(i) if i.fast.is_some()))
            .count()
    }

    pub fn base(&self) -> u64 {
        self.base
    }

    /// Translate hot runs per `policy` (tests; the default follows `GENCL_TRANSLATE`).
    pub fn with_translation(mut self, policy: super::translate::Policy) -> Program {
        self.runs.policy = policy;
        self
    }

    /// Translate hot runs or not (its runs are kept either way).
    pub fn set_translating(&mut self, policy: super::translate::Policy) {
        self.runs.policy = super::translate::Policy {
            on: policy.on && super::translate::enabled(),
            hot: policy.hot.max(1),
        };
    }

    /// Runs translated so far.
    pub fn translated_runs(&self) -> usize {
        self.runs.len()
    }

    /// Whether this program's run `r` and `other`'s run `q` are one compiled code.
    #[cfg(test)]
    pub fn shares_run(&self, r: usize, other: &Program, q: usize) -> bool {
        self.runs.run(r).same_code(other.runs.run(q))
    }

    /// The translated run covering `addr` and the position of `addr` in it, when it may run
    /// under `cr0`; the run from `addr` is translated when the interpreter has reached `addr`
    /// `Policy::hot` times (one attempt per address).
    #[inline]
    pub fn translated(
        &mut self,
        mem: &dyn GpuMemory,
        addr: u64,
        cr0: u32,
    ) -> Option<(usize, usize)> {
        if !self.runs.policy.on {
            return None;
        }
        let u = self.unit(addr)?;
        if let Some((r, k)) = self.runs.at(u) {
            let run = self.runs.run(r);
            // Its instructions were checked against memory in this launch.
            let checked = self.prebuilt
                || self.all_checked == self.generation
                || run.generation == self.generation;
            return (checked && run.applies(cr0)).then_some((r, k));
        }
        use super::translate::Heat;
        match self.runs.warm(u) {
            Heat::Warming => None,
            // A run another program compiled is taken early: it costs nothing to have.
            Heat::Probe => self.translate_from(mem, addr, cr0, true),
            Heat::Hot => {
                self.runs.chill(u);
                self.translate_from(mem, addr, cr0, false)
            }
        }
    }

    /// Translate the run of translatable instructions that starts at `addr` (when `shared`,
    /// only if some program has compiled the same run: `Run::shared`).
    #[cold]
    fn translate_from(
        &mut self,
        mem: &dyn GpuMemory,
        addr: u64,
        cr0: u32,
        shared: bool,
    ) -> Option<(usize, usize)> {
        use super::translate::{translatable, Run, MAX_RUN, MIN_RUN};
        let ftz = cr0 & super::alu::CR0_FP32_DENORM_KEEP == 0;
        if shared && !self.fetch(mem, addr).is_ok_and(|i| Run::may_share(i, ftz)) {
            return None;
        }
        let mut insts = Vec::new();
        let mut units = Vec::new();
        let mut a = addr;
        while insts.len() < MAX_RUN {
            let Some(u) = self.unit(a) else { break };
            // An instruction another run covers ends this one, which leaves for it: a
            // loop's head is hot before the code that leads to it, and translating the
            // lead-in with the loop again would compile the loop twice.
            if self.runs.at(u).is_some() {
                break;
            }
            // Decoding ahead: an instruction that does not decode ends the run (and is an
            // error only if the thread gets there).
            let Ok(i) = self.fetch(mem, a) else { break };
            if !translatable(i) {
                break;
            }
            let i = i.clone();
            a = a.wrapping_add(u64::from(i.len));
            insts.push(i);
            units.push(u);
        }
        if insts.len() < MIN_RUN {
            return None;
        }
        let run = if shared {
            Run::shared(&insts, ftz, self.generation).ok_or_else(String::new)
        } else {
            Run::compile(&insts, ftz, self.generation)
        };
        match run {
            Ok(run) => {
                tracing::trace!(
                    addr,
                    instructions = run.len(),
                    bytes = run.code_bytes(),
                    "run translated"
                );
                let applies = run.applies(cr0);
                let r = self.runs.add(run, &units);
                applies.then_some((r, 0))
            }
            Err(_) if shared => None,
            Err(e) => {
                tracing::debug!(addr, error = %e, "run not translated");
                None
            }
        }
    }

    /// Run instructions of translated run `r` from position `k` on `t` (`Run::exec`).
    #[inline]
    /// The GRFs run `r` reads or writes.
    pub fn run_touch(&self, r: usize) -> u128 {
        self.runs.run(r).touch()
    }

    /// Instructions of run `r` from position `k` (at most `budget`) before the first that
    /// `clear` refuses (`Run::clear_prefix`).
    pub fn run_clear_prefix(
        &self,
        r: usize,
        k: usize,
        budget: usize,
        clear: impl FnMut(u128) -> bool,
    ) -> usize {
        self.runs.run(r).clear_prefix(k, budget, clear)
    }

    pub fn exec_run(
        &self,
        r: usize,
        t: &mut super::thread::Thread,
        k: usize,
        budget: usize,
        free: bool,
        host: &mut dyn super::translate::Host,
    ) -> Result<Option<super::translate::Ran>, GpuError> {
        self.runs.run(r).exec(t, k, budget, free, host)
    }

    /// Start a new launch: instructions are re-checked against memory once per launch.
    pub fn new_generation(&mut self) {
        self.generation += 1;
    }

    /// Check every decoded instruction against memory with one read of the
    /// kernel's span (instead of one read per instruction on first fetch);
    /// on any difference or fault the per-instruction checks in `fetch` remain.
    pub fn revalidate(&mut self, mem: &dyn GpuMemory) {
        let span = self.end.saturating_sub(self.base);
        if self.prebuilt || span == 0 || span > MAX_BULK_CHECK {
            return;
        }
        let mut buf = std::mem::take(&mut self.scratch);
        buf.resize(span as usize, 0);
        if mem.read(self.base, &mut buf).is_ok()
            && self.slots.iter().all(|s| {
                let off = (s.addr - self.base) as usize;
                let len = slot_len(&s.raw);
                buf.get(off..off + len) == Some(&s.raw[..len])
            })
        {
            self.all_checked = self.generation;
        }
        self.scratch = buf;
    }

    fn unit(&self, addr: u64) -> Option<usize> {
        let off = addr.checked_sub(self.base)?;
        if off % 8 != 0 || off >= MAX_SPAN {
            return None;
        }
        Some((off / 8) as usize)
    }

    /// The registers (bit n: rn) that the program's instructions decoded so far may write:
    /// a thread that ran only those left every other register as it was (`Thread::ran`).
    /// An instruction runs only once decoded.
    pub fn grf_writes(&self) -> u128 {
        self.writes
    }

    /// `slot`'s instruction's registers added to `writes`.
    fn reaches(&mut self, slot: &Slot) {
        if let Ok(inst) = &slot.inst {
            self.writes |= super::timing::grfs_written(inst);
        }
    }

    fn insert(&mut self, addr: u64, slot: Slot) -> Result<usize, GpuError> {
        self.reaches(&slot);
        let u = self
            .unit(addr)
            .ok_or_else(|| illegal(addr, "instruction address outside the kernel"))?;
        if self.index.len() <= u {
            self.index.resize(u + 1, u32::MAX);
        }
        let k = self.slots.len();
        self.slots.push(slot);
        self.index[u] = k as u32;
        Ok(k)
    }

    /// The instruction at `addr` as decoded already (`fetch` checks it against memory).
    pub fn decoded(&self, addr: u64) -> Option<&ExecInst> {
        let k = self.index.get(self.unit(addr)?).copied()?;
        self.slots.get(k as usize)?.inst.as_ref().ok()
    }

    /// The instruction at `addr`, decoding it from `mem` the first time (and
    /// re-checking its bytes once per launch so a rewritten heap is noticed).
    pub fn fetch(&mut self, mem: &dyn GpuMemory, addr: u64) -> Result<&ExecInst, GpuError> {
        let u = self
            .unit(addr)
            .ok_or_else(|| illegal(addr, "jump outside the kernel"))?;
        let known = self.index.get(u).copied().filter(|&k| k != u32::MAX);
        let k = match known {
            Some(k)
                if self.prebuilt
                    || self.all_checked == self.generation
                    || self.slots[k as usize].checked == self.generation =>
            {
                k as usize
            }
            Some(_) | None if self.prebuilt => {
                return Err(illegal(addr, "no instruction at this address"));
            }
            _ => {
                let mut raw = [0u8; 16];
                mem.read(addr, &mut raw[..8])?;
                let compact = slot_len(&raw) == 8;
                if !compact {
                    mem.read(addr + 8, &mut raw[8..])?;
                }
                self.end = self.end.max(addr + slot_len(&raw) as u64);
                match known {
                    Some(k) if self.slots[k as usize].raw == raw => {
                        self.slots[k as usize].checked = self.generation;
                        k as usize
                    }
                    _ => {
                        let inst =
                            match gencl_isa::gen9::decode(&raw[..if compact { 8 } else { 16 }]) {
                                Ok((inst, len)) => resolve(addr, len as u8, inst),
                                Err(e) => Err(illegal(addr, format!("undecodable: {e}"))),
                            };
                        let slot = Slot {
                            addr,
                            inst,
                            raw,
                            checked: self.generation,
                        };
                        match known {
                            Some(k) => {
                                // Rewritten in memory: no run may hold the old instruction.
                                self.runs.clear();
                                self.reaches(&slot);
                                self.slots[k as usize] = slot;
                                k as usize
                            }
                            None => self.insert(addr, slot)?,
                        }
                    }
                }
            }
        };
        self.slots[k].inst.as_ref().map_err(Clone::clone)
    }
}
