//! Generation-independent vocabulary of the Gen ISA (see `mod.rs`).

use serde::{Deserialize, Serialize};

/// Operation codes. Numbering is per generation (`gen9::opcodes`); this enum
/// is only the name. The one table of per-opcode facts (name as IGA prints
/// it, number of sources, kind) is `gen9::opcodes::INFO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Opcode {
    Illegal,
    Mov,
    Sel,
    Movi,
    Not,
    And,
    Or,
    Xor,
    Shr,
    Shl,
    Smov,
    Asr,
    Cmp,
    Cmpn,
    Csel,
    Bfrev,
    Bfe,
    Bfi1,
    Bfi2,
    Jmpi,
    Brd,
    If,
    Brc,
    Else,
    Endif,
    While,
    Break,
    Cont,
    Halt,
    Calla,
    Call,
    Ret,
    Goto,
    Join,
    Wait,
    Send,
    Sendc,
    Sends,
    Sendsc,
    Math,
    Add,
    Mul,
    Avg,
    Frc,
    Rndu,
    Rndd,
    Rnde,
    Rndz,
    Mac,
    Mach,
    Lzd,
    Fbh,
    Fbl,
    Cbit,
    Addc,
    Subb,
    Sad2,
    Sada2,
    Dp4,
    Dph,
    Dp3,
    Dp2,
    Line,
    Pln,
    Mad,
    Lrp,
    Madm,
    Nop,
}

/// Operand data types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Type {
    UD,
    D,
    UW,
    W,
    UB,
    B,
    UQ,
    Q,
    HF,
    F,
    DF,
    /// Packed signed half-byte vector immediate (8 x i4).
    V,
    /// Packed unsigned half-byte vector immediate (8 x u4).
    UV,
    /// Packed restricted-float vector immediate (4 x 8-bit float).
    VF,
}

impl Type {
    /// Size of one element in bytes (vector immediates: of the whole immediate).
    pub fn size(self) -> u32 {
        match self {
            Type::UB | Type::B => 1,
            Type::UW | Type::W | Type::HF => 2,
            Type::UD | Type::D | Type::F | Type::V | Type::UV | Type::VF => 4,
            Type::UQ | Type::Q | Type::DF => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Type::HF | Type::F | Type::DF | Type::VF)
    }
    pub fn is_signed_int(self) -> bool {
        matches!(self, Type::B | Type::W | Type::D | Type::Q | Type::V)
    }
}

/// Register files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RegFile {
    /// Architecture register file: null, a0, acc, f, ce, sp, sr0, cr0, n, ip, tdr, tm0, ...
    /// The register number is the full 8-bit ARF number (e.g. 0x00 null,
    /// 0x10 a0, 0x20 acc0, 0x30 f0, 0x31 f1, 0x70 sr0, 0x80 cr0, 0x90 n0, 0xA0 ip).
    Arf,
    Grf,
}

/// An Align1 region `<vstride;width,hstride>` in elements (real values, not encodings).
/// Align16 sources use `vstride` plus a swizzle instead (`SrcReg::swizzle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Region {
    pub vstride: u8,
    pub width: u8,
    pub hstride: u8,
}

impl Region {
    /// `vstride` value marking a VxH region (`<W,H>`, indirect sources only).
    pub const VXH: u8 = 0xFF;
    pub const SCALAR: Region = Region {
        vstride: 0,
        width: 1,
        hstride: 0,
    };
    pub fn contiguous(width: u8) -> Region {
        Region {
            vstride: width,
            width,
            hstride: 1,
        }
    }
}

/// Indirect (register-indirect through a0) addressing: the register address is
/// `a0.<subreg>` (in 16-bit units: a0.0 .. a0.15) plus `offset` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Indirect {
    pub addr_subreg: u8,
    pub offset: i16,
}

/// Source modifiers (`-`, `(abs)`, and for logic ops `~` is the same bit as `-`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SrcMod {
    pub negate: bool,
    pub abs: bool,
}

/// A register source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SrcReg {
    pub file: RegFile,
    pub nr: u8,
    /// Sub-register offset in bytes.
    pub subreg: u8,
    pub region: Region,
    pub ty: Type,
    pub modifier: SrcMod,
    pub indirect: Option<Indirect>,
    /// Align16 swizzle (channel selects x=0..w=3); `[0,1,2,3]` in Align1.
    pub swizzle: [u8; 4],
}

/// An immediate source, raw bits typed by `ty` (32-bit immediates use the low 32 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Imm {
    pub ty: Type,
    pub bits: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Src {
    Reg(SrcReg),
    Imm(Imm),
}

impl Src {
    /// The operand's data type, of a register or an immediate.
    pub fn ty(&self) -> Type {
        match self {
            Src::Reg(r) => r.ty,
            Src::Imm(i) => i.ty,
        }
    }
}

/// The destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dst {
    pub file: RegFile,
    pub nr: u8,
    /// Sub-register offset in bytes.
    pub subreg: u8,
    /// Horizontal stride in elements (1, 2, 4; 0 is not allowed for a dst).
    pub hstride: u8,
    pub ty: Type,
    pub indirect: Option<Indirect>,
    /// Align16 write mask (bit 0 = x ... bit 3 = w); 0xF in Align1.
    pub writemask: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AccessMode {
    Align1,
    Align16,
}

/// Predicate control. Align1 names; the group forms (`Any2h`...) read several flag bits per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PredCtrl {
    Normal,
    AnyV,
    AllV,
    Any2h,
    All2h,
    Any4h,
    All4h,
    Any8h,
    All8h,
    Any16h,
    All16h,
    Any32h,
    All32h,
    /// Align16 single-channel predicates (`.x` .. `.w`).
    X,
    Y,
    Z,
    W,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Predicate {
    pub ctrl: PredCtrl,
    pub inverse: bool,
}

/// Conditional modifiers (`.z`, `.nz`, `.g`, `.ge`, `.l`, `.le`, `.o`, `.u`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CondMod {
    Z,
    Nz,
    G,
    Ge,
    L,
    Le,
    O,
    U,
}

/// Math function control of the `math` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MathFn {
    Inv,
    Log,
    Exp,
    Sqrt,
    Rsq,
    Sin,
    Cos,
    Fdiv,
    Pow,
    IntDivBoth,
    IntDivQuotient,
    IntDivRemainder,
    Invm,
    Rsqrtm,
}

/// Shared function IDs (the target of a send).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sfid {
    Null,
    Sampler,
    Gateway,
    /// Render cache data port (DP_RC / DC2 on some gens).
    RenderCache,
    Urb,
    ThreadSpawner,
    Vme,
    /// Data cache data port 0 (DP_DC0: scattered, OWord block, legacy).
    Dc0,
    /// Data port constant cache (DP_CC).
    ConstCache,
    PixelInterp,
    /// Data cache data port 1 (DP_DC1: untyped/typed surface, A64, atomics).
    Dc1,
    Cre,
    /// Data port sampler cache (DC2 on Gen9 is the same number as RenderCache's neighbour; see gen9 table).
    Dc2,
    Raw(u8),
}

/// Message information of a send: the target and both descriptors, raw.
/// Decoding a descriptor into a named message is `gen9::send`'s job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SendInfo {
    pub sfid: Sfid,
    /// The 32-bit message descriptor (immediate), or None when it comes from a0.
    pub desc: Option<u32>,
    /// The extended message descriptor (immediate form; its SFID bits included as IGA prints it).
    pub ex_desc: u32,
    pub eot: bool,
}

/// Flow-control targets, in bytes relative to this instruction (as Gen9 encodes them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Branch {
    pub jip: i32,
    pub uip: i32,
}

/// One instruction in native form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inst {
    pub op: Opcode,
    /// 1, 2, 4, 8, 16 or 32.
    pub exec_size: u8,
    pub access_mode: AccessMode,
    /// `(W)`: write enable / NoMask.
    pub no_mask: bool,
    /// Channel group start, in channels: 0, 4, 8, ... 28 (`M0`, `M4`, ... as IGA prints `(16|M16)`).
    pub chan_offset: u8,
    pub predicate: Option<Predicate>,
    pub cond_mod: Option<CondMod>,
    /// Flag register used by the predicate and/or conditional modifier: (f0|f1, subreg 0|1).
    pub flag: (u8, u8),
    pub saturate: bool,
    /// Dependency control: `{NoDDClr}` and `{NoDDChk}`.
    pub no_dd_clr: bool,
    pub no_dd_chk: bool,
    /// Thread control: `{Switch}` or `{Atomic}`.
    pub thread_ctrl: ThreadCtrl,
    /// `{AccWrEn}`.
    pub acc_wr_en: bool,
    /// `{Breakpoint}`.
    pub debug: bool,
    /// Was this decoded from / may it be encoded as a compacted instruction.
    pub compacted: bool,
    pub math_fn: Option<MathFn>,
    pub dst: Option<Dst>,
    pub srcs: [Option<Src>; 3],
    pub send: Option<SendInfo>,
    pub branch: Option<Branch>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ThreadCtrl {
    Normal,
    Atomic,
    Switch,
}

impl Inst {
    /// An instruction with every control at its default, to be filled in.
    pub fn new(op: Opcode, exec_size: u8) -> Inst {
        Inst {
            op,
            exec_size,
            access_mode: AccessMode::Align1,
            no_mask: false,
            chan_offset: 0,
            predicate: None,
            cond_mod: None,
            flag: (0, 0),
            saturate: false,
            no_dd_clr: false,
            no_dd_chk: false,
            thread_ctrl: ThreadCtrl::Normal,
            acc_wr_en: false,
            debug: false,
            compacted: false,
            math_fn: None,
            dst: None,
            srcs: [None, None, None],
            send: None,
            branch: None,
        }
    }
}
