//! Gen9 (Skylake) instruction legality: does a decoded instruction obey the
//! restrictions the hardware documents? Checked on `Inst` alone, apart from
//! any simulator, so that the JIT (debug builds, `GENCL_VALIDATE=1`) and the
//! tests can hold machine code to the same rules.
//!
//! The rule set follows the *idea* of Mesa's `brw_eu_validate.c` (which
//! rules exist, and which of them apply to Gen9) and the Gen9 PRM, Volume 7
//! "3D-Media-GPGPU", section "Register Region Restrictions", and Volume 2a/2d
//! (instruction and message-descriptor reference). The code is gencl's own.
//! Every rule is one `Rule` variant; `RULES` holds, per rule, its category,
//! the sentence it enforces and where that sentence comes from (docs/isa.md,
//! "Legality validator"). Where the PRM says more than IGC's shipping code
//! obeys, the rule follows the hardware-proven code and says so in its
//! source note.
//!
//! Scope: Gen9 (SKL), not Gen9LP (BXT/GLK): the CHV/BXT-only 64-bit rules
//! (qword-aligned regions, no indirect, no ARF, no DepCtrl) are not checked.
//! Indirectly addressed operands and register message descriptors are only
//! known at run time; their run-time parts are not checked.

use super::disasm::disasm_at;
use super::opcodes::{self, Form};
use super::send::{message_of, MsgKind};
use crate::*;
use thiserror::Error;

/// What a rule is about; the prefix of every message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    Encoding,
    Bounds,
    Region,
    Exec,
    Type,
    Send,
    Flow,
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Category::Encoding => "encoding",
            Category::Bounds => "bounds",
            Category::Region => "region",
            Category::Exec => "exec",
            Category::Type => "type",
            Category::Send => "send",
            Category::Flow => "flow",
        })
    }
}

/// One rule: its category, the restriction (quoted or closely paraphrased
/// from the source) and the source.
#[derive(Clone, Copy, Debug)]
pub struct RuleInfo {
    pub rule: Rule,
    pub category: Category,
    pub text: &'static str,
    pub source: &'static str,
}

macro_rules! rules {
    ($($(#[$m:meta])* $name:ident => $cat:ident, $text:literal, $src:literal;)*) => {
        /// Every rule the validator checks (see `RULES` for the sentences).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Rule { $($(#[$m])* $name),* }
        /// The rule table: one row per `Rule`, in declaration order.
        pub const RULES: &[RuleInfo] = &[
            $(RuleInfo { rule: Rule::$name, category: Category::$cat, text: $text, source: $src }),*
        ];
    };
}

rules! {
    // ---- Encoding / general ----
    /// The bytes do not decode into a Gen9 instruction.
    Decode => Encoding, "the bytes must decode into a Gen9 instruction",
        "gen9::decode";
    /// `illegal` opcode.
    UnsupportedOpcode => Encoding, "Instruction not supported on this Gen (the illegal opcode)",
        "brw_eu_validate.c is_unsupported_inst";
    /// ExecSize is one of 1, 2, 4, 8, 16, 32.
    ExecSizeValue => Exec, "ExecSize must be 1, 2, 4, 8, 16 or 32",
        "PRM Vol 2a 'Instruction Header: ExecSize'; brw 'invalid execution size'";
    /// QtrCtrl/NibCtrl group plus ExecSize stays within 32 channels.
    ChannelGroup => Exec, "the channel group (QtrCtrl/NibCtrl offset) plus ExecSize must stay within the 32 channels, at a multiple of ExecSize (up to 8)",
        "PRM Vol 7 'Execution Mask: QtrCtrl/NibCtrl'";
    /// A null source of an ALU instruction.
    SrcNull => Encoding, "src0 is null / src1 is null: ALU sources must not be the null register",
        "brw_eu_validate.c sources_not_null";
    /// An immediate must be the last source.
    ImmLastSource => Encoding, "an immediate may only be the last source operand (src1 of a two-source, src0 of a one-source instruction)",
        "PRM Vol 2a 'Instruction Formats: src1 may be an immediate'";
    /// A 64-bit immediate only in a one-source instruction.
    Imm64OneSource => Encoding, "a 64-bit immediate is only allowed as src0 of a one-source instruction (it fills src1's bits)",
        "PRM Vol 2a 'Immediate: 64-bit immediate occupies both source fields'";

    // ---- Register bounds ----
    /// A GRF operand region leaves r0..r127.
    GrfBounds => Bounds, "every GRF element an operand reads or writes must lie in r0..r127",
        "PRM Vol 7 'GRF Registers': 128 registers r0-r127";
    /// A send's payload leaves r127.
    SendPayloadBounds => Bounds, "a send's payload src0 .. src0+mlen-1 (and src1 .. src1+ex_mlen-1) must lie in r0..r127",
        "PRM Vol 2d 'Message Descriptor: Message Length'";
    /// A send's response leaves r127.
    SendResponseBounds => Bounds, "a send's response dst .. dst+rlen-1 must lie in r0..r127",
        "PRM Vol 2d 'Message Descriptor: Response Length'";
    /// An EOT send's payload outside r112..r127.
    SendEotPayload => Bounds, "send with EOT must use g112-g127",
        "brw_eu_validate.c send_restrictions; PRM Vol 2a 'send': EOT payload in r112-r127";
    /// Response overlapping the payload and reaching r127.
    SendR127Overlap => Bounds, "r127 must not be used for return address when there is a src and dest overlap",
        "brw_eu_validate.c send_restrictions";

    // ---- Region rules (PRM Vol 7 'Register Region Restrictions', 'General Restrictions on Regioning Parameters') ----
    /// Rule 1.
    ExecSizeGeWidth => Region, "ExecSize must be greater than or equal to Width",
        "PRM Vol 7 'Region Parameters' rule 1";
    /// Rule 2.
    VertStrideFullWidth => Region, "If ExecSize = Width and HorzStride != 0, VertStride must be set to Width * HorzStride",
        "PRM Vol 7 'Region Parameters' rule 2";
    /// Rule 3.
    Width1HorzStride0 => Region, "If Width = 1, HorzStride must be 0 regardless of the values of ExecSize and VertStride",
        "PRM Vol 7 'Region Parameters' rule 3";
    /// Rule 4.
    ExecWidth1Scalar => Region, "If ExecSize = Width = 1, both VertStride and HorzStride must be 0",
        "PRM Vol 7 'Region Parameters' rule 4";
    /// Rule 5.
    ScalarWidth1 => Region, "If VertStride = HorzStride = 0, Width must be 1 regardless of the value of ExecSize",
        "PRM Vol 7 'Region Parameters' rule 5";
    /// Rule 7 (row inside one GRF).
    RowCrossesGrf => Region, "VertStride must be used to cross GRF register boundaries (a row of Width elements stays in one GRF)",
        "PRM Vol 7 'Region Parameters' rule 7";
    /// Rule 8.
    DstHorzStrideNonZero => Region, "Dst.HorzStride must not be 0",
        "PRM Vol 7 'Region Parameters' rule 8";
    /// Align16 vertical strides.
    Align16VertStride => Region, "In Align16 mode, only VertStride of 0, 2, or 4 is allowed",
        "PRM Vol 7 'Region Parameters' (Align16); brw_eu_validate.c";
    /// Source spanning three GRFs.
    SrcSpan => Region, "In Direct Addressing mode, a source cannot span more than 2 adjacent GRF registers",
        "PRM Vol 7 'Region Alignment Rules'";
    /// Destination spanning three GRFs.
    DstSpan => Region, "A destination cannot span more than 2 adjacent GRF registers",
        "PRM Vol 7 'Region Alignment Rules'";
    /// Subregister not aligned to the type.
    SubregAlign => Region, "the subregister offset must be aligned to the operand's data type size",
        "PRM Vol 7 'Register Region Restrictions: data type alignment'";
    /// math destination halves.
    MathDstSplit => Region, "When destination of MATH instruction spans two registers, the destination elements must be evenly split between the two registers",
        "SKL PRM Vol 7 'Region Alignment Rules'";

    // ---- Execution size / 64-bit ----
    /// ExecSize × largest type size.
    ExecSizeTypeSize => Exec, "Where n is the largest element size in bytes for any source or destination operand type, ExecSize * n must be <= 64",
        "PRM Vol 7 'General Restrictions Based on Operand Types'";
    /// Align16 QW destination with a non-QW source.
    Align16QwExecSize => Exec, "If Align16 is required for an operation with QW destination and non-QW source datatypes, the execution size cannot exceed 2",
        "SKL PRM Vol 7 'Special Requirements for Handling Double Precision Data Types'";
    /// Three-source 64-bit replicate.
    Replicate64 => Exec, "64b datatypes cannot use the replicate control",
        "BDW+ PRM Vol 7 '3-src instruction: RepCtrl'";

    // ---- Types ----
    /// Packed byte destination.
    PackedByteDst => Type, "Only raw MOV supports a packed-byte destination",
        "PRM Vol 7 'General Restrictions Based on Operand Types'";
    /// Byte <-> 64-bit conversions.
    ByteQwordConversion => Type, "There is no direct conversion from B/UB to DF or DF to B/UB. There is no direct conversion from B/UB to Q/UQ or Q/UQ to B/UB",
        "BDW+ PRM Vol 2a 'MOV'";
    /// HF <-> 64-bit conversions.
    HalfQwordConversion => Type, "There is no direct conversion from HF to DF or DF to HF. There is no direct conversion from HF to Q/UQ or Q/UQ to HF",
        "BDW+ PRM Vol 2a 'MOV'";
    /// Integer <-> HF destination layout.
    IntHalfConversionDst => Type, "Conversion between Integer and HF (Half Float) must be DWord-aligned and strided by a DWord on the destination",
        "BDW+ PRM Vol 7 'General Restrictions Based on Operand Types'";
    /// F -> HF destination layout.
    HalfConversionDst => Type, "Conversions to HF must have either all words in even word locations or all words in odd word locations (or be mixed-float with an OWord-aligned packed destination)",
        "SKL PRM Vol 7 'relaxed alignment rule for word destinations'";
    /// Destination stride vs execution type.
    DstStrideExecType => Type, "Destination stride must be equal to the ratio of the sizes of the execution data type to the destination type",
        "PRM Vol 7 'General Restrictions Based on Operand Types'";
    /// Destination subregister vs execution type.
    DstAlignExecType => Type, "Destination subreg must be aligned to the size of the execution data type (or to the next lowest byte for byte destinations)",
        "PRM Vol 7 'General Restrictions Based on Operand Types'";
    /// Mixed float and indirect sources.
    MixedFloatIndirect => Type, "Indirect addressing on source is not supported when source and destination data types are mixed float",
        "SKL PRM Vol 7 'Special Restrictions for Handling Mixed Mode Float Operations'";
    /// Mixed float SIMD16 with an F destination.
    MixedFloatSimd16 => Type, "No SIMD16 in mixed mode when destination is f32. Instruction execution size must be no more than 8",
        "SKL PRM Vol 7 'Special Restrictions for Handling Mixed Mode Float Operations'";
    /// Mixed float packed HF destination.
    MixedFloatPackedHf => Type, "No SIMD16 in mixed mode when destination is packed f16; output packed f16 data must be oword aligned, no oword crossing in packed f16",
        "SKL PRM Vol 7 'Special Restrictions for Handling Mixed Mode Float Operations'";
    /// Mixed float in Align16.
    MixedFloatAlign16 => Type, "In Align16 mode, when half float and float data types are mixed ... the register content are assumed to be packed (VertStride 4, at most SIMD8)",
        "SKL PRM Vol 7 'Special Restrictions for Handling Mixed Mode Float Operations'";
    /// Mixed float math inputs.
    MixedFloatMath => Type, "Math operations for mixed mode: In Align1, f16 inputs need to be strided",
        "SKL PRM Vol 7 'Special Restrictions for Handling Mixed Mode Float Operations'";
    /// Vector immediates.
    VectorImmDst => Type, "When an immediate vector is used in an instruction, the destination must be 128-bit aligned with destination horizontal stride equivalent to a word for an immediate integer vector (v) and equivalent to a DWord for an immediate float vector (vf)",
        "PRM Vol 7 'Immediate Vector'; relaxed: v/uv may also have a DWord destination stride (IGC)";
    /// math operand types.
    MathTypes => Type, "math: INT DIV functions take D/UD operands; invm and rsqtm take F or DF; the other functions take F or HF operands",
        "SKL PRM Vol 2a 'math' (Data Type tables)";
    /// INT DIV source modifiers.
    MathIntDivModifiers => Type, "INT DIV function does not support source modifiers",
        "BDW PRM Vol 2a 'Extended Math Function'";
    /// cmp/cmpn condition.
    CmpCondMod => Type, "CMP (or CMPN) must have a condition",
        "PRM Vol 2a 'cmp'; brw_eu_validate.c instruction_restrictions";
    /// sel predicate xor condition.
    SelPredOrCond => Type, "SEL must either be predicated or have a condition modifier (not both, not neither)",
        "PRM Vol 2a 'sel'; brw_eu_validate.c instruction_restrictions";
    /// mul DW operand position.
    MulDwordSrc0 => Type, "When multiplying a DW and any lower precision integer, the DW operand must be on src0",
        "SKL PRM Vol 2a 'mul'";
    /// mul DW with saturate / condition.
    MulDwordSatCond => Type, "When multiplying integer data types, if one of the sources is a DW ... conditional modifiers and saturation (.sat) cannot be used",
        "PRM Vol 2a 'mul'";
    /// abs on logic ops.
    LogicAbs => Type, "Behavior of abs source modifier in logic ops is undefined",
        "brw_eu_validate.c instruction_restrictions (and/or/xor/not)";
    /// Condition modifiers of logic ops.
    LogicCondMod => Type, "This operation does not produce sign or overflow conditions (the .o and .u conditional modifiers must not be used)",
        "BDW PRM Vol 2a 'and/or/xor/not'";
    /// Logic ops on float types.
    LogicIntTypes => Type, "Logic and shift instructions operate on integer data types: a float type on any operand is not supported",
        "SKL PRM Vol 2a 'and', 'or', 'xor', 'not', 'shl', 'shr', 'asr' (Data Type Support: integer types only)";
    /// bfi2 types and modifiers.
    Bfi2Types => Type, "BFI2: destination and source types D or UD, all the same; no saturate, no conditional modifier",
        "PRM Vol 2a 'bfi2'";
    /// csel on Gen9.
    CselRules => Type, "CSEL (Gen9): types must be F, it must have a condition and cannot be predicated",
        "SKL PRM Vol 2a 'csel'";

    // ---- Sends ----
    /// src0 of a send.
    SendSrc0Grf => Send, "send src0 must be a directly addressed GRF (send from non-GRF)",
        "PRM Vol 2a 'send'; brw_eu_validate.c send_restrictions";
    /// src1 of a split send.
    SendsSrc1 => Send, "src1 of split send must be a GRF or NULL",
        "brw_eu_validate.c send_restrictions";
    /// Overlapping split-send payloads.
    SendsOverlap => Send, "split send payloads must not overlap",
        "brw_eu_validate.c send_restrictions";
    /// mlen range.
    SendMlen => Send, "Message Length: range [1, 15] GRFs (ex_mlen of a split send: [0, 15])",
        "PRM Vol 2d 'Message Descriptor: Message Length'";
    /// rlen range.
    SendRlen => Send, "Response Length: range [0, 16] GRFs",
        "PRM Vol 2d 'Message Descriptor: Response Length'";
    /// Header required.
    SendHeader => Send, "this message requires a header (Header Present must be 1): OWord block, scratch block and URB messages",
        "PRM Vol 2d 'OWord Block Read/Write', 'Scratch Block Read/Write'; brw 'Header must be present for all URB messages'";
    /// Response length vs message.
    SendResponseLength => Send, "the response length must be what the message returns (reads and returning atomics: one GRF per channel per 8 lanes; writes and non-returning atomics: 0)",
        "PRM Vol 2d 'Untyped Surface Read', 'Atomic Operation' message descriptors";
    /// EOT target.
    EotTarget => Send, "End of thread is only sent to the thread spawner (compute), the URB or a render-target write",
        "PRM Vol 2a 'send: EOT'";
    /// EOT response.
    EotResponse => Send, "a send with EOT must have no response (rlen 0)",
        "PRM Vol 2a 'send: EOT'";

    // ---- Flow control ----
    /// JIP/UIP present.
    BranchTargets => Flow, "flow control needs its targets: JIP (if, else, endif, while, break, cont, halt, goto, join, brc, brd, call, jmpi) and UIP (if, else, break, cont, halt, goto, brc)",
        "PRM Vol 2a 'Branch Instructions: JIP/UIP'";
    /// Target alignment.
    BranchAlign => Flow, "JIP and UIP are byte offsets to an instruction and must be multiples of 8 (QWord, the compacted-instruction granularity)",
        "PRM Vol 2a 'Branch Instructions: JIP/UIP'";
}

impl Rule {
    pub fn info(self) -> &'static RuleInfo {
        RULES
            .iter()
            .find(|r| r.rule == self)
            .expect("every rule has a row")
    }
    pub fn category(self) -> Category {
        self.info().category
    }
    pub fn text(self) -> &'static str {
        self.info().text
    }
    pub fn source(self) -> &'static str {
        self.info().source
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} ({})",
            self.category(),
            self.text(),
            self.source()
        )
    }
}

/// Which operand a violation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Inst,
    Dst,
    Src(u8),
}

impl std::fmt::Display for Operand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Operand::Inst => f.write_str("instruction"),
            Operand::Dst => f.write_str("dst"),
            Operand::Src(n) => write!(f, "src{n}"),
        }
    }
}

/// One broken rule. The variant is the rule's category; `rule` names it,
/// `at` the operand, `detail` the values that break it. Display:
/// `region: ExecSize must be ... (PRM Vol 7 'Region Parameters' rule 1) [src0: ExecSize 4 < Width 8]`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Violation {
    #[error("{rule} [{at}: {detail}]")]
    Encoding {
        rule: Rule,
        at: Operand,
        detail: String,
    },
    #[error("{rule} [{at}: {detail}]")]
    Bounds {
        rule: Rule,
        at: Operand,
        detail: String,
    },
    #[error("{rule} [{at}: {detail}]")]
    Region {
        rule: Rule,
        at: Operand,
        detail: String,
    },
    #[error("{rule} [{at}: {detail}]")]
    Exec {
        rule: Rule,
        at: Operand,
        detail: String,
    },
    #[error("{rule} [{at}: {detail}]")]
    Type {
        rule: Rule,
        at: Operand,
        detail: String,
    },
    #[error("{rule} [{at}: {detail}]")]
    Send {
        rule: Rule,
        at: Operand,
        detail: String,
    },
    #[error("{rule} [{at}: {detail}]")]
    Flow {
        rule: Rule,
        at: Operand,
        detail: String,
    },
}

impl Violation {
    pub fn new(rule: Rule, at: Operand, detail: impl Into<String>) -> Violation {
        let detail = detail.into();
        match rule.category() {
            Category::Encoding => Violation::Encoding { rule, at, detail },
            Category::Bounds => Violation::Bounds { rule, at, detail },
            Category::Region => Violation::Region { rule, at, detail },
            Category::Exec => Violation::Exec { rule, at, detail },
            Category::Type => Violation::Type { rule, at, detail },
            Category::Send => Violation::Send { rule, at, detail },
            Category::Flow => Violation::Flow { rule, at, detail },
        }
    }
    pub fn rule(&self) -> Rule {
        match self {
            Violation::Encoding { rule, .. }
            | Violation::Bounds { rule, .. }
            | Violation::Region { rule, .. }
            | Violation::Exec { rule, .. }
            | Violation::Type { rule, .. }
            | Violation::Send { rule, .. }
            | Violation::Flow { rule, .. } => *rule,
        }
    }
    pub fn at(&self) -> Operand {
        match self {
            Violation::Encoding { at, .. }
            | Violation::Bounds { at, .. }
            | Violation::Region { at, .. }
            | Violation::Exec { at, .. }
            | Violation::Type { at, .. }
            | Violation::Send { at, .. }
            | Violation::Flow { at, .. } => *at,
        }
    }
}

/// The violations of one instruction of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstViolations {
    /// Byte offset of the instruction in the kernel.
    pub offset: usize,
    /// Its disassembly (empty when it did not decode).
    pub text: String,
    pub violations: Vec<Violation>,
}

/// Every illegal instruction of a kernel.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", self.render())]
pub struct KernelViolations {
    pub insts: Vec<InstViolations>,
}

impl KernelViolations {
    fn render(&self) -> String {
        let mut s = format!("{} illegal instruction(s):", self.insts.len());
        for i in &self.insts {
            s.push_str(&format!("\n  @{:#06x}: {}", i.offset, i.text.trim_end()));
            for v in &i.violations {
                s.push_str(&format!("\n    - {v}"));
            }
        }
        s
    }
    /// Every rule broken anywhere in the kernel.
    pub fn rules(&self) -> Vec<Rule> {
        self.insts
            .iter()
            .flat_map(|i| i.violations.iter().map(|v| v.rule()))
            .collect()
    }
}

/// Validate every instruction (native or compacted) of a kernel's bytes.
/// Bytes that do not decode are reported (rule `Decode`) and end the walk.
pub fn validate_kernel(bytes: &[u8]) -> Result<(), KernelViolations> {
    let mut insts = Vec::new();
    let mut pc = 0usize;
    while pc < bytes.len() {
        match super::decode(&bytes[pc..]) {
            Ok((inst, len)) => {
                if let Err(violations) = validate(&inst) {
                    insts.push(InstViolations {
                        offset: pc,
                        text: disasm_at(&inst, pc as i64),
                        violations,
                    });
                }
                pc += len;
            }
            Err(e) => {
                insts.push(InstViolations {
                    offset: pc,
                    text: String::new(),
                    violations: vec![Violation::new(Rule::Decode, Operand::Inst, e.to_string())],
                });
                break;
            }
        }
    }
    if insts.is_empty() {
        Ok(())
    } else {
        Err(KernelViolations { insts })
    }
}

/// Validate one decoded instruction against every rule.
pub fn validate(inst: &Inst) -> Result<(), Vec<Violation>> {
    let mut c = Checker {
        inst,
        out: Vec::new(),
    };
    c.run();
    if c.out.is_empty() {
        Ok(())
    } else {
        Err(c.out)
    }
}

/// The bytes of the register file each operand of `inst` covers, counted from the
/// operand's own start (its register and sub-register): `[dst, src0, src1, src2]`, `None`
/// for an operand that is absent or not a direct GRF (an immediate, an ARF, null, an
/// indirect one). A send's are its message lengths (payload, second payload, response) in
/// whole GRFs. The same element positions the region and bounds rules check; the machine
/// IR's verifier holds each virtual-register operand to them.
pub fn operand_extents(inst: &Inst) -> [Option<u32>; 4] {
    let c = Checker {
        inst,
        out: Vec::new(),
    };
    let mut out = [None; 4];
    let direct = |file: RegFile, nr: u8, indirect: bool| {
        file == RegFile::Grf && !indirect && !is_null(file, nr)
    };
    if c.is_send() {
        let Some(m) = message_of(inst) else {
            return out;
        };
        if let Some(d) = inst.dst {
            if direct(d.file, d.nr, d.indirect.is_some()) && m.rlen > 0 {
                out[0] = Some(m.rlen * GRF_BYTES);
            }
        }
        for (k, len) in [(0usize, m.mlen), (1, m.ex_mlen)] {
            if let Some(Src::Reg(r)) = inst.srcs[k] {
                if direct(r.file, r.nr, r.indirect.is_some()) && len > 0 {
                    out[k + 1] = Some(len * GRF_BYTES);
                }
            }
        }
        return out;
    }
    if let Some(d) = inst.dst {
        if direct(d.file, d.nr, d.indirect.is_some()) {
            let last = c.dst_elems(&d).into_iter().max().unwrap_or(0);
            out[0] = Some(last - u32::from(d.subreg) + elem_size(d.ty));
        }
    }
    for (k, s) in inst.srcs.iter().enumerate() {
        if let Some(Src::Reg(r)) = s {
            if direct(r.file, r.nr, r.indirect.is_some()) {
                let last = c.src_elems(r).into_iter().max().unwrap_or(0);
                out[k + 1] = Some(last - u32::from(r.subreg) + elem_size(r.ty));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------

const GRF_BYTES: u32 = 32;
const NUM_GRF: u32 = 128;

fn is_null(file: RegFile, nr: u8) -> bool {
    file == RegFile::Arf && nr & 0xF0 == 0
}
fn is_int(t: Type) -> bool {
    !t.is_float()
}
fn is_vector_imm(t: Type) -> bool {
    matches!(t, Type::V | Type::UV | Type::VF)
}
fn signed(t: Type) -> Type {
    match t {
        Type::UD => Type::D,
        Type::UW => Type::W,
        Type::UB => Type::B,
        Type::UQ => Type::Q,
        x => x,
    }
}
/// Element size of an operand type (vector immediates: of one element).
fn elem_size(t: Type) -> u32 {
    match t {
        Type::V | Type::UV => 2,
        Type::VF => 4,
        x => x.size(),
    }
}
fn mixed_float(a: Type, b: Type) -> bool {
    matches!((a, b), (Type::F, Type::HF) | (Type::HF, Type::F))
}
/// The execution type a source type implies.
fn exec_type_of(t: Type) -> Type {
    match t {
        Type::DF | Type::F | Type::HF => t,
        Type::VF => Type::F,
        Type::Q | Type::UQ => Type::Q,
        Type::D | Type::UD => Type::D,
        _ => Type::W,
    }
}
fn is_packed(vstride: u32, width: u32, hstride: u32) -> bool {
    vstride == width
        && if vstride == 1 {
            hstride == 0
        } else {
            hstride == 1
        }
}

fn src_mods(s: &Src) -> SrcMod {
    match s {
        Src::Reg(r) => r.modifier,
        Src::Imm(_) => SrcMod::default(),
    }
}

struct Checker<'a> {
    inst: &'a Inst,
    out: Vec<Violation>,
}

impl Checker<'_> {
    fn err(&mut self, rule: Rule, at: Operand, detail: impl Into<String>) {
        let v = Violation::new(rule, at, detail);
        if !self.out.contains(&v) {
            self.out.push(v);
        }
    }

    fn form(&self) -> Form {
        opcodes::info(self.inst.op).form
    }
    fn is_alu(&self) -> bool {
        matches!(self.form(), Form::Unary | Form::Binary | Form::Math)
    }
    fn is_send(&self) -> bool {
        matches!(self.form(), Form::Send | Form::Sends)
    }
    fn srcs(&self) -> Vec<(u8, Src)> {
        self.inst
            .srcs
            .iter()
            .enumerate()
            .filter_map(|(k, s)| s.map(|s| (k as u8, s)))
            .collect()
    }
    fn nsrc(&self) -> usize {
        self.inst.srcs.iter().filter(|s| s.is_some()).count()
    }
    /// The destination, unless null.
    fn real_dst(&self) -> Option<Dst> {
        self.inst
            .dst
            .filter(|d| d.indirect.is_some() || !is_null(d.file, d.nr))
    }

    fn run(&mut self) {
        let i = self.inst;
        if i.op == Opcode::Illegal {
            self.err(Rule::UnsupportedOpcode, Operand::Inst, "opcode illegal");
            return;
        }
        if !matches!(i.exec_size, 1 | 2 | 4 | 8 | 16 | 32) {
            self.err(
                Rule::ExecSizeValue,
                Operand::Inst,
                format!("ExecSize {}", i.exec_size),
            );
            return;
        }
        self.channel_group();
        self.operands_general();
        self.bounds();
        match self.form() {
            Form::Unary | Form::Binary | Form::Math => {
                self.regions();
                self.exec_type_size();
                self.operand_types();
                self.mixed_float();
                self.vector_imm();
                self.double_precision();
                self.instruction_specific();
            }
            Form::Ternary => {
                self.exec_type_size();
                self.ternary();
                self.instruction_specific();
            }
            Form::Send | Form::Sends => self.sends(),
            _ => {}
        }
        self.flow();
    }

    fn channel_group(&mut self) {
        let i = self.inst;
        let group = (i.exec_size as u32).min(8);
        if i.chan_offset as u32 + i.exec_size as u32 > 32
            || !(i.chan_offset as u32).is_multiple_of(group) && i.exec_size > 1
        {
            self.err(
                Rule::ChannelGroup,
                Operand::Inst,
                format!("({}|M{})", i.exec_size, i.chan_offset),
            );
        }
    }

    fn operands_general(&mut self) {
        if !self.is_alu() {
            return;
        }
        let n = self.nsrc();
        for (k, s) in self.srcs() {
            match s {
                Src::Reg(r) => {
                    if r.indirect.is_none() && is_null(r.file, r.nr) {
                        self.err(Rule::SrcNull, Operand::Src(k), "null register");
                    }
                }
                Src::Imm(imm) => {
                    if k as usize + 1 != n {
                        self.err(
                            Rule::ImmLastSource,
                            Operand::Src(k),
                            format!("immediate in src{k} of a {n}-source instruction"),
                        );
                    }
                    if imm.ty.size() == 8 && n != 1 {
                        self.err(
                            Rule::Imm64OneSource,
                            Operand::Src(k),
                            format!("64-bit immediate :{:?} with {n} sources", imm.ty),
                        );
                    }
                }
            }
        }
    }

    // ---- bounds ----

    /// Byte offsets (from the start of register `nr`) of the elements a
    /// directly addressed source reads.
    fn src_elems(&self, r: &SrcReg) -> Vec<u32> {
        let es = self.inst.exec_size as u32;
        let size = elem_size(r.ty);
        let sub = r.subreg as u32;
        let align16 = self.inst.access_mode == AccessMode::Align16 || self.form() == Form::Ternary;
        if r.region == Region::SCALAR {
            return vec![sub];
        }
        if align16 {
            let groups = es.div_ceil(4);
            let per = es.min(4);
            let mut v = Vec::new();
            for g in 0..groups {
                for c in 0..per {
                    let sw = r.swizzle[c as usize] as u32;
                    v.push(sub + (g * r.region.vstride as u32 + sw) * size);
                }
            }
            return v;
        }
        let w = (r.region.width as u32).max(1);
        let rows = (es / w).max(1);
        let mut v = Vec::new();
        for y in 0..rows {
            for x in 0..w.min(es) {
                v.push(sub + (y * r.region.vstride as u32 + x * r.region.hstride as u32) * size);
            }
        }
        v
    }

    fn dst_elems(&self, d: &Dst) -> Vec<u32> {
        let es = self.inst.exec_size as u32;
        let size = elem_size(d.ty);
        let hs = if self.inst.access_mode == AccessMode::Align16 || self.form() == Form::Ternary {
            1
        } else {
            d.hstride as u32
        };
        (0..es).map(|i| d.subreg as u32 + i * hs * size).collect()
    }

    fn bounds(&mut self) {
        if self.is_send() {
            return; // payload/response bounds in sends()
        }
        if let Some(d) = self.inst.dst {
            if d.file == RegFile::Grf && d.indirect.is_none() {
                let size = elem_size(d.ty);
                let last = self.dst_elems(&d).into_iter().max().unwrap_or(0) + size - 1;
                let end = d.nr as u32 * GRF_BYTES + last;
                if end >= NUM_GRF * GRF_BYTES {
                    self.err(
                        Rule::GrfBounds,
                        Operand::Dst,
                        format!("r{}.{} writes up to byte {end} (past r127)", d.nr, d.subreg),
                    );
                }
            }
        }
        for (k, s) in self.srcs() {
            if let Src::Reg(r) = s {
                if r.file != RegFile::Grf || r.indirect.is_some() {
                    continue;
                }
                let last = self.src_elems(&r).into_iter().max().unwrap_or(0) + elem_size(r.ty) - 1;
                let end = r.nr as u32 * GRF_BYTES + last;
                if end >= NUM_GRF * GRF_BYTES {
                    self.err(
                        Rule::GrfBounds,
                        Operand::Src(k),
                        format!("r{}.{} reads up to byte {end} (past r127)", r.nr, r.subreg),
                    );
                }
            }
        }
    }

    // ---- regions (Align1 and Align16 two-source forms) ----

    fn regions(&mut self) {
        let i = self.inst;
        let es = i.exec_size as u32;
        if i.access_mode == AccessMode::Align16 {
            for (k, s) in self.srcs() {
                if let Src::Reg(r) = s {
                    if !matches!(r.region.vstride, 0 | 2 | 4) {
                        self.err(
                            Rule::Align16VertStride,
                            Operand::Src(k),
                            format!("VertStride {}", r.region.vstride),
                        );
                    }
                }
            }
        } else {
            for (k, s) in self.srcs() {
                let Src::Reg(r) = s else { continue };
                let (v, w, h) = (
                    r.region.vstride as u32,
                    r.region.width as u32,
                    r.region.hstride as u32,
                );
                let at = Operand::Src(k);
                let rg = format!("<{v};{w},{h}>");
                if es < w {
                    self.err(
                        Rule::ExecSizeGeWidth,
                        at,
                        format!("ExecSize {es} < Width {w} in {rg}"),
                    );
                }
                if w == 1 && h != 0 {
                    self.err(Rule::Width1HorzStride0, at, rg.to_string());
                }
                if r.region.vstride == Region::VXH {
                    continue;
                }
                if es == w && h != 0 && v != w * h {
                    self.err(
                        Rule::VertStrideFullWidth,
                        at,
                        format!("{rg} with ExecSize {es}: VertStride should be {}", w * h),
                    );
                }
                if es == 1 && w == 1 && (v != 0 || h != 0) {
                    self.err(Rule::ExecWidth1Scalar, at, rg.clone());
                }
                if v == 0 && h == 0 && w != 1 {
                    self.err(Rule::ScalarWidth1, at, rg.clone());
                }
                if r.file == RegFile::Grf && r.indirect.is_none() && w > 0 {
                    let size = elem_size(r.ty);
                    let rows = (es / w).max(1);
                    'rows: for y in 0..rows {
                        let base = r.subreg as u32 + y * v * size;
                        let first = base / GRF_BYTES;
                        for x in 0..w.min(es) {
                            let end = base + x * h * size + size - 1;
                            if end / GRF_BYTES != first {
                                self.err(
                                    Rule::RowCrossesGrf,
                                    at,
                                    format!("row {y} of {rg} at subreg {} crosses a GRF", r.subreg),
                                );
                                break 'rows;
                            }
                        }
                    }
                    let last = self.src_elems(&r).into_iter().max().unwrap_or(0);
                    if last >= 2 * GRF_BYTES {
                        self.err(
                            Rule::SrcSpan,
                            at,
                            format!("{rg} from subreg {} reaches byte {last}", r.subreg),
                        );
                    }
                }
            }
            if let Some(d) = self.real_dst() {
                if d.hstride == 0 {
                    self.err(Rule::DstHorzStrideNonZero, Operand::Dst, "<0>");
                }
            }
        }
        // Subregister alignment (both access modes, direct operands).
        for (k, s) in self.srcs() {
            if let Src::Reg(r) = s {
                if r.indirect.is_none() && !(r.subreg as u32).is_multiple_of(elem_size(r.ty)) {
                    self.err(
                        Rule::SubregAlign,
                        Operand::Src(k),
                        format!("subreg {} for :{:?}", r.subreg, r.ty),
                    );
                }
            }
        }
        if let Some(d) = self.real_dst() {
            if d.indirect.is_none() && !(d.subreg as u32).is_multiple_of(elem_size(d.ty)) {
                self.err(
                    Rule::SubregAlign,
                    Operand::Dst,
                    format!("subreg {} for :{:?}", d.subreg, d.ty),
                );
            }
        }
        // Destination span and the math split (Align1).
        if i.access_mode == AccessMode::Align1 {
            if let Some(d) = self.real_dst() {
                if d.indirect.is_none() {
                    let elems = self.dst_elems(&d);
                    let last = elems.iter().copied().max().unwrap_or(0);
                    if last >= 2 * GRF_BYTES {
                        self.err(
                            Rule::DstSpan,
                            Operand::Dst,
                            format!(
                                "({es}) <{}> from subreg {} reaches byte {last}",
                                d.hstride, d.subreg
                            ),
                        );
                    } else if i.op == Opcode::Math && es > 1 {
                        let size = elem_size(d.ty);
                        let first = d.subreg as u32 / GRF_BYTES;
                        let upper = elems.iter().filter(|&&o| o / GRF_BYTES != first).count();
                        let spans = elems.iter().any(|&o| (o + size - 1) / GRF_BYTES != first);
                        if spans && upper * 2 != elems.len() {
                            self.err(
                                Rule::MathDstSplit,
                                Operand::Dst,
                                format!(
                                    "{} of {} elements in the second register",
                                    upper,
                                    elems.len()
                                ),
                            );
                        }
                    }
                }
            }
        }
    }

    // ---- execution size × type size ----

    fn exec_type_size(&mut self) {
        let i = self.inst;
        let mut n = i.dst.map(|d| elem_size(d.ty)).unwrap_or(0);
        for (_, s) in self.srcs() {
            if let Src::Reg(r) = s {
                n = n.max(elem_size(r.ty));
            }
        }
        if i.exec_size as u32 * n > 64 {
            self.err(
                Rule::ExecSizeTypeSize,
                Operand::Inst,
                format!(
                    "ExecSize {} x {n} bytes = {}",
                    i.exec_size,
                    i.exec_size as u32 * n
                ),
            );
        }
    }

    fn exec_type(&self) -> Type {
        let i = self.inst;
        let dst = i.dst.map(|d| d.ty).unwrap_or(Type::UD);
        let s0 = i.srcs[0].map(|s| exec_type_of(s.ty())).unwrap_or(dst);
        let Some(s1) = i.srcs[1].map(|s| exec_type_of(s.ty())) else {
            return if s0 == Type::HF { dst } else { s0 };
        };
        if mixed_float(s0, s1) || mixed_float(s0, dst) || mixed_float(s1, dst) {
            return Type::F;
        }
        if s0 == s1 {
            return s0;
        }
        for t in [Type::Q, Type::D, Type::W, Type::DF] {
            if s0 == t || s1 == t {
                return t;
            }
        }
        s0
    }

    fn is_mixed_float(&self) -> bool {
        let i = self.inst;
        let Some(d) = i.dst else { return false };
        let tys: Vec<Type> = self.srcs().iter().map(|(_, s)| s.ty()).collect();
        tys.iter().any(|&t| mixed_float(t, d.ty)) || (tys.len() > 1 && mixed_float(tys[0], tys[1]))
    }

    fn is_raw_move(&self) -> bool {
        let i = self.inst;
        let (Some(d), Some(s)) = (i.dst, i.srcs[0]) else {
            return false;
        };
        match s {
            Src::Imm(imm) if is_vector_imm(imm.ty) => return false,
            Src::Reg(r) if r.modifier.negate || r.modifier.abs => return false,
            _ => {}
        }
        i.op == Opcode::Mov && !i.saturate && signed(d.ty) == signed(s.ty())
    }

    fn operand_types(&mut self) {
        let i = self.inst;
        if i.exec_size == 1 {
            return;
        }
        let Some(d) = i.dst else { return };
        let srcs: Vec<Type> = self.srcs().iter().map(|(_, s)| s.ty()).collect();
        let dst_size = elem_size(d.ty);
        let dst_byte = dst_size == 1;
        let stride = d.hstride as u32;
        if dst_byte && is_packed(i.exec_size as u32 * stride, i.exec_size as u32, stride) {
            if !self.is_raw_move() {
                self.err(
                    Rule::PackedByteDst,
                    Operand::Dst,
                    format!("{:?} <{stride}> with {:?}", d.ty, i.op),
                );
            }
            return;
        }
        let byte_conv = srcs
            .iter()
            .any(|&s| s != d.ty && (dst_size == 1 || elem_size(s) == 1));
        if byte_conv
            && ((dst_size == 1 && srcs.iter().any(|&s| s.size() == 8))
                || (dst_size == 8 && srcs.iter().any(|&s| elem_size(s) == 1)))
        {
            self.err(
                Rule::ByteQwordConversion,
                Operand::Inst,
                format!("{:?} <- {:?}", d.ty, srcs),
            );
        }
        let half_conv = srcs
            .iter()
            .any(|&s| s != d.ty && (d.ty == Type::HF || s == Type::HF));
        if half_conv {
            if (d.ty == Type::HF && srcs.iter().any(|&s| s.size() == 8))
                || (dst_size == 8 && srcs.contains(&Type::HF))
            {
                self.err(
                    Rule::HalfQwordConversion,
                    Operand::Inst,
                    format!("{:?} <- {:?}", d.ty, srcs),
                );
            }
            if i.access_mode == AccessMode::Align1 {
                let int_half = (d.ty == Type::HF && srcs.iter().any(|&s| is_int(s)))
                    || (is_int(d.ty) && srcs.contains(&Type::HF));
                if int_half {
                    if stride * dst_size != 4 || d.subreg % 4 != 0 {
                        self.err(
                            Rule::IntHalfConversionDst,
                            Operand::Dst,
                            format!("{:?} <{stride}> at subreg {}", d.ty, d.subreg),
                        );
                    }
                } else if d.ty == Type::HF
                    && stride != 2
                    && !(self.is_mixed_float() && stride == 1 && d.subreg % 16 == 0)
                {
                    self.err(
                        Rule::HalfConversionDst,
                        Operand::Dst,
                        format!("HF <{stride}> at subreg {}", d.subreg),
                    );
                }
            }
        }
        let exec_size_bytes = elem_size(self.exec_type());
        if !self.is_mixed_float() && exec_size_bytes > dst_size {
            if !(dst_byte && self.is_raw_move()) && stride * dst_size != exec_size_bytes {
                self.err(
                    Rule::DstStrideExecType,
                    Operand::Dst,
                    format!(
                        "{:?} <{stride}> with a {exec_size_bytes}-byte execution type",
                        d.ty
                    ),
                );
            }
            if i.access_mode == AccessMode::Align1 && d.indirect.is_none() {
                let sub = d.subreg as u32 % exec_size_bytes;
                if sub != 0 && !(dst_byte && sub == 1) {
                    self.err(
                        Rule::DstAlignExecType,
                        Operand::Dst,
                        format!(
                            "subreg {} with a {exec_size_bytes}-byte execution type",
                            d.subreg
                        ),
                    );
                }
            }
        }
    }

    fn mixed_float(&mut self) {
        let i = self.inst;
        if !self.is_mixed_float() {
            return;
        }
        let Some(d) = i.dst else { return };
        let es = i.exec_size as u32;
        let stride = d.hstride as u32;
        for (k, s) in self.srcs() {
            if let Src::Reg(r) = s {
                if r.indirect.is_some() {
                    self.err(Rule::MixedFloatIndirect, Operand::Src(k), "indirect source");
                }
            }
        }
        if es > 8 && d.ty == Type::F && i.op != Opcode::Mov {
            self.err(
                Rule::MixedFloatSimd16,
                Operand::Inst,
                format!("SIMD{es} with an F destination"),
            );
        }
        if i.access_mode == AccessMode::Align16 {
            for (k, s) in self.srcs() {
                if let Src::Reg(r) = s {
                    if r.region.vstride != 4 {
                        self.err(
                            Rule::MixedFloatAlign16,
                            Operand::Src(k),
                            format!("VertStride {}", r.region.vstride),
                        );
                    }
                }
            }
            if es > 8 {
                self.err(Rule::MixedFloatAlign16, Operand::Inst, format!("SIMD{es}"));
            }
            return;
        }
        let packed = is_packed(es * stride, es, stride);
        if es > 8 && packed && d.ty == Type::HF && i.op != Opcode::Mov {
            self.err(
                Rule::MixedFloatPackedHf,
                Operand::Dst,
                format!("SIMD{es} packed HF destination"),
            );
        }
        if i.op == Opcode::Math {
            for (k, s) in self.srcs() {
                if let Src::Reg(r) = s {
                    if r.ty == Type::HF && r.region.hstride <= 1 {
                        self.err(
                            Rule::MixedFloatMath,
                            Operand::Src(k),
                            format!("HF input with HorzStride {}", r.region.hstride),
                        );
                    }
                }
            }
        }
        if d.ty == Type::HF && stride == 1 && (d.subreg % 16 != 0 || es > 8) {
            self.err(
                Rule::MixedFloatPackedHf,
                Operand::Dst,
                format!("packed HF at subreg {} with SIMD{es}", d.subreg),
            );
        }
    }

    fn vector_imm(&mut self) {
        let i = self.inst;
        let n = self.nsrc();
        if n == 0 {
            return;
        }
        let (Some(Src::Imm(imm)), Some(d)) = (i.srcs[n - 1], i.dst) else {
            return;
        };
        if !is_vector_imm(imm.ty) {
            return;
        }
        // V/UV: a word stride, as the PRM says, or a DWord one: IGC
        // writes `mov (2) r9.0<1>:ud 0x400:uv` (each half-byte widened).
        let stride_bytes = elem_size(d.ty) * d.hstride as u32;
        let stride_ok = if imm.ty == Type::VF {
            stride_bytes == 4
        } else {
            matches!(stride_bytes, 2 | 4)
        };
        if d.subreg % 16 != 0 || !stride_ok {
            self.err(
                Rule::VectorImmDst,
                Operand::Dst,
                format!(
                    ":{:?} immediate with {:?} <{}> at subreg {}",
                    imm.ty, d.ty, d.hstride, d.subreg
                ),
            );
        }
    }

    fn double_precision(&mut self) {
        let i = self.inst;
        let Some(d) = i.dst else { return };
        if i.access_mode != AccessMode::Align16 || d.ty.size() != 8 || i.exec_size <= 2 {
            return;
        }
        if self.srcs().iter().any(|(_, s)| s.ty().size() != 8) {
            self.err(
                Rule::Align16QwExecSize,
                Operand::Inst,
                format!("Align16 SIMD{} with a QW destination", i.exec_size),
            );
        }
    }

    fn ternary(&mut self) {
        for (k, s) in self.srcs() {
            if let Src::Reg(r) = s {
                if r.ty.size() == 8 && r.region == Region::SCALAR {
                    self.err(
                        Rule::Replicate64,
                        Operand::Src(k),
                        format!(":{:?} with RepCtrl", r.ty),
                    );
                }
            }
        }
    }

    fn instruction_specific(&mut self) {
        let i = self.inst;
        let ty = |k: usize| i.srcs[k].map(|s| s.ty());
        let dty = i.dst.map(|d| d.ty);
        match i.op {
            Opcode::Cmp | Opcode::Cmpn if i.cond_mod.is_none() => {
                self.err(Rule::CmpCondMod, Operand::Inst, "no conditional modifier")
            }
            Opcode::Sel if i.cond_mod.is_some() == i.predicate.is_some() => self.err(
                Rule::SelPredOrCond,
                Operand::Inst,
                if i.cond_mod.is_some() {
                    "both a predicate and a conditional modifier"
                } else {
                    "neither a predicate nor a conditional modifier"
                },
            ),
            Opcode::Mul => {
                let (Some(t0), Some(t1)) = (ty(0), ty(1)) else {
                    return;
                };
                if is_int(t1) && elem_size(t0) < 4 && elem_size(t1) == 4 && is_int(t0) {
                    self.err(
                        Rule::MulDwordSrc0,
                        Operand::Src(1),
                        format!("{t0:?} * {t1:?}"),
                    );
                }
                let dw = |t: Type| matches!(t, Type::D | Type::UD);
                if (dw(t0) || dw(t1))
                    && matches!(dty, Some(Type::D | Type::UD | Type::W | Type::UW))
                    && (i.saturate || i.cond_mod.is_some())
                {
                    self.err(
                        Rule::MulDwordSatCond,
                        Operand::Inst,
                        "saturate or conditional modifier on a DW multiply",
                    );
                }
            }
            Opcode::Math => self.math(),
            Opcode::Shl | Opcode::Shr | Opcode::Asr => self.logic_int_types(),
            Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not => {
                self.logic_int_types();
                for (k, s) in self.srcs() {
                    if src_mods(&s).abs {
                        self.err(Rule::LogicAbs, Operand::Src(k), "(abs)");
                    }
                }
                if matches!(i.cond_mod, Some(CondMod::O | CondMod::U)) {
                    self.err(
                        Rule::LogicCondMod,
                        Operand::Inst,
                        format!("{:?}", i.cond_mod.unwrap()),
                    );
                }
            }
            Opcode::Bfi2 => {
                let ok_d = matches!(dty, Some(Type::D | Type::UD));
                let same = (0..3).all(|k| ty(k) == dty);
                if i.cond_mod.is_some() || i.saturate || !ok_d || !same {
                    self.err(
                        Rule::Bfi2Types,
                        Operand::Inst,
                        format!("dst {dty:?}, srcs {:?}", [ty(0), ty(1), ty(2)]),
                    );
                }
            }
            Opcode::Csel => {
                let all_f = dty == Some(Type::F) && (0..3).all(|k| ty(k) == Some(Type::F));
                if i.predicate.is_some() || i.cond_mod.is_none() || !all_f {
                    self.err(
                        Rule::CselRules,
                        Operand::Inst,
                        format!(
                            "predicate {}, condition {}, dst {dty:?}, srcs {:?}",
                            i.predicate.is_some(),
                            i.cond_mod.is_some(),
                            [ty(0), ty(1), ty(2)]
                        ),
                    );
                }
            }
            _ => {}
        }
    }

    /// Logic and shift instructions take integer types only.
    fn logic_int_types(&mut self) {
        let i = self.inst;
        if let Some(d) = i.dst.filter(|d| !is_int(d.ty)) {
            self.err(Rule::LogicIntTypes, Operand::Dst, format!("{:?}", d.ty));
        }
        for (k, s) in self.srcs() {
            let t = s.ty();
            if !is_int(t) {
                self.err(Rule::LogicIntTypes, Operand::Src(k), format!("{t:?}"));
            }
        }
    }

    fn math(&mut self) {
        let i = self.inst;
        let Some(f) = i.math_fn else { return };
        let int = matches!(
            f,
            MathFn::IntDivBoth | MathFn::IntDivQuotient | MathFn::IntDivRemainder
        );
        // The IEEE macros (invm, rsqtm) also take DF: IGC's double
        // division and square root are built on them.
        let ieee_macro = matches!(f, MathFn::Invm | MathFn::Rsqrtm);
        let ok = |t: Type| {
            if int {
                matches!(t, Type::D | Type::UD)
            } else if ieee_macro {
                matches!(t, Type::F | Type::DF)
            } else {
                matches!(t, Type::F | Type::HF)
            }
        };
        let mut bad: Vec<String> = Vec::new();
        if let Some(d) = i.dst {
            if !is_null(d.file, d.nr) && !ok(d.ty) {
                bad.push(format!("dst :{:?}", d.ty));
            }
        }
        for (k, s) in self.srcs() {
            if !ok(s.ty()) {
                bad.push(format!("src{k} :{:?}", s.ty()));
            }
            if int && (src_mods(&s).negate || src_mods(&s).abs) {
                self.err(
                    Rule::MathIntDivModifiers,
                    Operand::Src(k),
                    "source modifier",
                );
            }
        }
        if !bad.is_empty() {
            self.err(
                Rule::MathTypes,
                Operand::Inst,
                format!("math.{f:?} with {}", bad.join(", ")),
            );
        }
    }

    // ---- sends ----

    fn sends(&mut self) {
        let i = self.inst;
        let split = self.form() == Form::Sends;
        let Some(si) = i.send else { return };
        let src0 = match i.srcs[0] {
            Some(Src::Reg(r)) if r.file == RegFile::Grf && r.indirect.is_none() => Some(r),
            other => {
                self.err(
                    Rule::SendSrc0Grf,
                    Operand::Src(0),
                    format!("{:?}", other.map(|s| matches!(s, Src::Imm(_)))),
                );
                None
            }
        };
        let src1 = if split {
            match i.srcs[1] {
                Some(Src::Reg(r)) if r.file == RegFile::Grf && r.indirect.is_none() => Some(r),
                Some(Src::Reg(r)) if is_null(r.file, r.nr) && r.indirect.is_none() => None,
                None => None,
                Some(_) => {
                    self.err(Rule::SendsSrc1, Operand::Src(1), "not a GRF or null");
                    None
                }
            }
        } else {
            None
        };
        let dst = i
            .dst
            .filter(|d| d.file == RegFile::Grf && d.indirect.is_none());
        if si.eot {
            for (k, r) in [(0u8, src0), (1, src1)] {
                if let Some(r) = r {
                    if r.nr < 112 {
                        self.err(Rule::SendEotPayload, Operand::Src(k), format!("r{}", r.nr));
                    }
                }
            }
            if !matches!(si.sfid, Sfid::ThreadSpawner | Sfid::Urb | Sfid::RenderCache) {
                self.err(
                    Rule::EotTarget,
                    Operand::Inst,
                    format!("EOT to {:?}", si.sfid),
                );
            }
        }
        let Some(m) = message_of(i) else { return };
        if !(1..=15).contains(&m.mlen) {
            self.err(Rule::SendMlen, Operand::Inst, format!("mlen {}", m.mlen));
        }
        if m.ex_mlen > 15 {
            self.err(
                Rule::SendMlen,
                Operand::Inst,
                format!("ex_mlen {}", m.ex_mlen),
            );
        }
        if m.rlen > 16 {
            self.err(Rule::SendRlen, Operand::Inst, format!("rlen {}", m.rlen));
        }
        if si.eot && m.rlen != 0 {
            self.err(Rule::EotResponse, Operand::Inst, format!("rlen {}", m.rlen));
        }
        if let Some(r) = src0 {
            if r.nr as u32 + m.mlen > NUM_GRF {
                self.err(
                    Rule::SendPayloadBounds,
                    Operand::Src(0),
                    format!("r{} + mlen {}", r.nr, m.mlen),
                );
            }
        }
        if let Some(r) = src1 {
            if r.nr as u32 + m.ex_mlen > NUM_GRF {
                self.err(
                    Rule::SendPayloadBounds,
                    Operand::Src(1),
                    format!("r{} + ex_mlen {}", r.nr, m.ex_mlen),
                );
            }
            if let Some(r0) = src0 {
                let (a, b) = (r0.nr as u32, r.nr as u32);
                if (a <= b && b < a + m.mlen) || (b <= a && a < b + m.ex_mlen) {
                    self.err(
                        Rule::SendsOverlap,
                        Operand::Src(1),
                        format!("r{a}+{} and r{b}+{}", m.mlen, m.ex_mlen),
                    );
                }
            }
        }
        if let Some(d) = dst {
            if d.nr as u32 + m.rlen > NUM_GRF {
                self.err(
                    Rule::SendResponseBounds,
                    Operand::Dst,
                    format!("r{} + rlen {}", d.nr, m.rlen),
                );
            }
            if let Some(r0) = src0 {
                if !split && d.nr as u32 + m.rlen > 127 && r0.nr as u32 + m.mlen > d.nr as u32 {
                    self.err(
                        Rule::SendR127Overlap,
                        Operand::Dst,
                        format!("r{}+{} and r{}+{}", d.nr, m.rlen, r0.nr, m.mlen),
                    );
                }
            }
        }
        let needs_header = matches!(
            m.kind,
            MsgKind::OwordBlockRead
                | MsgKind::UnalignedOwordBlockRead
                | MsgKind::OwordBlockWrite
                | MsgKind::ScratchBlockRead
                | MsgKind::ScratchBlockWrite
        ) || m.sfid == Sfid::Urb;
        if needs_header && !m.header {
            self.err(
                Rule::SendHeader,
                Operand::Inst,
                format!("{:?} without a header", m.kind),
            );
        }
        let regs = |simd: u32| simd.div_ceil(8).max(1);
        let want = match m.kind {
            MsgKind::UntypedRead | MsgKind::A64UntypedRead if m.simd >= 8 => {
                Some(m.channel_mask.count_ones() * regs(m.simd))
            }
            // (EOT's own rlen is `EotResponse`.)
            MsgKind::UntypedWrite | MsgKind::A64UntypedWrite | MsgKind::A64ScatteredWrite => {
                Some(0)
            }
            MsgKind::UntypedAtomic
            | MsgKind::A64UntypedAtomic
            | MsgKind::UntypedAtomicFloat
            | MsgKind::A64UntypedAtomicFloat => Some(if m.returns {
                regs(m.simd) * if m.data64 { 2 } else { 1 }
            } else {
                0
            }),
            _ => None,
        };
        if let Some(w) = want {
            if m.rlen != w {
                self.err(
                    Rule::SendResponseLength,
                    Operand::Inst,
                    format!(
                        "{:?} SIMD{} returns {w} GRFs, rlen {}",
                        m.kind, m.simd, m.rlen
                    ),
                );
            }
        }
    }

    // ---- flow control ----

    fn flow(&mut self) {
        let i = self.inst;
        let (jip, uip) = match self.form() {
            Form::BranchJipUip => (true, true),
            Form::BranchJip | Form::Jmpi | Form::Call => (true, false),
            _ => return,
        };
        let Some(b) = i.branch else {
            self.err(Rule::BranchTargets, Operand::Inst, "no JIP/UIP");
            return;
        };
        if uip && b.uip == 0 {
            self.err(Rule::BranchTargets, Operand::Inst, "UIP 0 (no target)");
        }
        for (present, what, v) in [(jip, "JIP", b.jip), (uip, "UIP", b.uip)] {
            if present && v % 8 != 0 {
                self.err(Rule::BranchAlign, Operand::Inst, format!("{what} {v}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! One hand-built illegal instruction per rule that fails with exactly
    //! that rule, and a legal neighbour (one field changed) that passes.

    use super::*;

    fn g(nr: u8, sub: u8, ty: Type, v: u8, w: u8, h: u8) -> Src {
        Src::Reg(SrcReg {
            file: RegFile::Grf,
            nr,
            subreg: sub,
            region: Region {
                vstride: v,
                width: w,
                hstride: h,
            },
            ty,
            modifier: SrcMod::default(),
            indirect: None,
            swizzle: [0, 1, 2, 3],
        })
    }
    fn v8(nr: u8, ty: Type) -> Src {
        g(nr, 0, ty, 8, 8, 1)
    }
    fn sc(nr: u8, ty: Type) -> Src {
        g(nr, 0, ty, 0, 1, 0)
    }
    fn arf(nr: u8, ty: Type) -> Src {
        match sc(0, ty) {
            Src::Reg(r) => Src::Reg(SrcReg {
                file: RegFile::Arf,
                nr,
                ..r
            }),
            x => x,
        }
    }
    fn d(nr: u8, sub: u8, ty: Type, hs: u8) -> Dst {
        Dst {
            file: RegFile::Grf,
            nr,
            subreg: sub,
            hstride: hs,
            ty,
            indirect: None,
            writemask: 0xF,
        }
    }
    fn null(ty: Type) -> Dst {
        Dst {
            file: RegFile::Arf,
            nr: 0,
            ..d(0, 0, ty, 1)
        }
    }
    fn imm(ty: Type, bits: u64) -> Src {
        Src::Imm(Imm { ty, bits })
    }
    fn alu(op: Opcode, es: u8, dst: Dst, srcs: &[Src]) -> Inst {
        let mut i = Inst::new(op, es);
        i.dst = Some(dst);
        for (k, s) in srcs.iter().enumerate() {
            i.srcs[k] = Some(*s);
        }
        i
    }
    fn with(mut i: Inst, f: impl FnOnce(&mut Inst)) -> Inst {
        f(&mut i);
        i
    }
    fn modded(s: Src, negate: bool, abs: bool) -> Src {
        match s {
            Src::Reg(mut r) => {
                r.modifier = SrcMod { negate, abs };
                Src::Reg(r)
            }
            x => x,
        }
    }
    fn math(f: MathFn, es: u8, dst: Dst, srcs: &[Src]) -> Inst {
        with(alu(Opcode::Math, es, dst, srcs), |i| i.math_fn = Some(f))
    }
    fn a16(i: Inst) -> Inst {
        with(i, |i| i.access_mode = AccessMode::Align16)
    }
    fn desc(mlen: u32, rlen: u32, header: bool, ty: u32, ctl: u32, bti: u32) -> u32 {
        (mlen << 25) | (rlen << 20) | ((header as u32) << 19) | (ty << 14) | (ctl << 8) | bti
    }
    /// DC1 untyped surface read of the x channel: SIMD8 mlen 1 rlen 1.
    fn read8(rlen: u32) -> u32 {
        desc(1, rlen, false, 0x01, 0x2E, 0)
    }
    /// SIMD16 untyped read of `ch` channels: mlen 2, rlen 2*ch.
    fn read16(ch: u32) -> u32 {
        let mask = !((1u32 << ch) - 1) & 0xF;
        desc(2, 2 * ch, false, 0x01, 0x10 | mask, 0)
    }
    #[allow(clippy::too_many_arguments)]
    fn send(
        op: Opcode,
        es: u8,
        dst: Dst,
        src0: Src,
        src1: Option<Src>,
        sfid: Sfid,
        desc: u32,
        ex_mlen: u32,
        eot: bool,
    ) -> Inst {
        let mut i = Inst::new(op, es);
        i.dst = Some(dst);
        i.srcs[0] = Some(src0);
        i.srcs[1] = src1;
        let code = super::super::encoding::sfid_code(sfid) as u32;
        i.send = Some(SendInfo {
            sfid,
            desc: Some(desc),
            ex_desc: code | (ex_mlen << 6) | if eot { 0x20 } else { 0 },
            eot,
        });
        i
    }
    fn snd(dst: Dst, src0: u8, sfid: Sfid, desc: u32) -> Inst {
        send(
            Opcode::Send,
            8,
            dst,
            sc(src0, Type::UD),
            None,
            sfid,
            desc,
            0,
            false,
        )
    }
    fn eot(src0: u8, sfid: Sfid, desc: u32) -> Inst {
        send(
            Opcode::Send,
            8,
            null(Type::UD),
            sc(src0, Type::UD),
            None,
            sfid,
            desc,
            0,
            true,
        )
    }
    fn sends(src0: u8, src1: Src, ex_mlen: u32) -> Inst {
        // SIMD8 untyped write of x: address + data, split 1 + 1.
        let wdesc = desc(1, 0, false, 0x09, 0x2E, 0);
        send(
            Opcode::Sends,
            8,
            null(Type::UD),
            sc(src0, Type::UD),
            Some(src1),
            Sfid::Dc1,
            wdesc,
            ex_mlen,
            false,
        )
    }
    fn br(op: Opcode, jip: i32, uip: i32) -> Inst {
        with(Inst::new(op, 8), |i| i.branch = Some(Branch { jip, uip }))
    }

    /// (rule, illegal, legal neighbour)
    fn cases() -> Vec<(Rule, Inst, Inst)> {
        use Opcode::*;
        use Type::*;
        let add_f = |es: u8| alu(Add, es, d(10, 0, F, 1), &[v8(12, F), v8(14, F)]);
        let mov = |es: u8, dst: Dst, s: Src| alu(Mov, es, dst, &[s]);
        let ts = super::super::send::eot_desc().0;
        vec![
            (
                Rule::UnsupportedOpcode,
                Inst::new(Illegal, 1),
                Inst::new(Nop, 1),
            ),
            (
                Rule::ExecSizeValue,
                with(add_f(8), |i| i.exec_size = 3),
                add_f(8),
            ),
            (
                Rule::ChannelGroup,
                with(add_f(16), |i| i.chan_offset = 24),
                with(add_f(16), |i| i.chan_offset = 16),
            ),
            (
                Rule::SrcNull,
                alu(Add, 8, d(10, 0, F, 1), &[arf(0, F), v8(14, F)]),
                add_f(8),
            ),
            (
                Rule::ImmLastSource,
                alu(Add, 8, d(10, 0, D, 1), &[imm(D, 5), v8(14, D)]),
                alu(Add, 8, d(10, 0, D, 1), &[v8(14, D), imm(D, 5)]),
            ),
            (
                Rule::Imm64OneSource,
                alu(
                    Add,
                    4,
                    d(10, 0, DF, 1),
                    &[g(12, 0, DF, 4, 4, 1), imm(DF, 0)],
                ),
                mov(4, d(10, 0, DF, 1), imm(DF, 0)),
            ),
            (
                Rule::GrfBounds,
                mov(16, d(127, 0, F, 1), sc(2, F)),
                mov(16, d(126, 0, F, 1), sc(2, F)),
            ),
            (
                Rule::SendPayloadBounds,
                with(snd(d(10, 0, UD, 1), 127, Sfid::Dc1, read16(1)), |i| {
                    i.exec_size = 16
                }),
                with(snd(d(10, 0, UD, 1), 126, Sfid::Dc1, read16(1)), |i| {
                    i.exec_size = 16
                }),
            ),
            (
                Rule::SendResponseBounds,
                with(snd(d(122, 0, UD, 1), 10, Sfid::Dc1, read16(4)), |i| {
                    i.exec_size = 16
                }),
                with(snd(d(120, 0, UD, 1), 10, Sfid::Dc1, read16(4)), |i| {
                    i.exec_size = 16
                }),
            ),
            (
                Rule::SendEotPayload,
                eot(100, Sfid::ThreadSpawner, ts),
                eot(127, Sfid::ThreadSpawner, ts),
            ),
            (
                Rule::SendR127Overlap,
                with(snd(d(120, 0, UD, 1), 121, Sfid::Dc1, read16(4)), |i| {
                    i.exec_size = 16
                }),
                with(snd(d(120, 0, UD, 1), 10, Sfid::Dc1, read16(4)), |i| {
                    i.exec_size = 16
                }),
            ),
            (
                Rule::ExecSizeGeWidth,
                alu(Add, 4, d(10, 0, F, 1), &[v8(12, F), sc(14, F)]),
                alu(Add, 4, d(10, 0, F, 1), &[g(12, 0, F, 4, 4, 1), sc(14, F)]),
            ),
            (
                Rule::VertStrideFullWidth,
                mov(8, d(10, 0, F, 1), g(12, 0, F, 4, 8, 1)),
                mov(8, d(10, 0, F, 1), g(12, 0, F, 8, 8, 1)),
            ),
            (
                Rule::Width1HorzStride0,
                mov(8, d(10, 0, F, 1), g(12, 0, F, 1, 1, 1)),
                mov(8, d(10, 0, F, 1), g(12, 0, F, 1, 1, 0)),
            ),
            (
                Rule::ExecWidth1Scalar,
                mov(1, d(10, 0, F, 1), g(12, 0, F, 1, 1, 0)),
                mov(1, d(10, 0, F, 1), g(12, 0, F, 0, 1, 0)),
            ),
            (
                Rule::ScalarWidth1,
                mov(8, d(10, 0, F, 1), g(12, 0, F, 0, 4, 0)),
                mov(8, d(10, 0, F, 1), g(12, 0, F, 0, 1, 0)),
            ),
            (
                Rule::RowCrossesGrf,
                mov(8, d(10, 0, F, 1), g(12, 16, F, 8, 8, 1)),
                mov(8, d(10, 0, F, 1), g(12, 16, F, 4, 4, 1)),
            ),
            (
                Rule::DstHorzStrideNonZero,
                mov(8, d(10, 0, F, 0), v8(12, F)),
                mov(8, d(10, 0, F, 1), v8(12, F)),
            ),
            (
                Rule::Align16VertStride,
                a16(alu(
                    Add,
                    4,
                    d(10, 0, F, 1),
                    &[g(12, 0, F, 8, 4, 1), g(14, 0, F, 4, 4, 1)],
                )),
                a16(alu(
                    Add,
                    4,
                    d(10, 0, F, 1),
                    &[g(12, 0, F, 4, 4, 1), g(14, 0, F, 4, 4, 1)],
                )),
            ),
            (
                Rule::SrcSpan,
                mov(8, d(10, 0, D, 1), g(12, 0, D, 16, 4, 1)),
                mov(8, d(10, 0, D, 1), g(12, 0, D, 8, 4, 1)),
            ),
            (
                Rule::DstSpan,
                mov(8, d(10, 0, F, 4), v8(12, F)),
                mov(8, d(10, 0, F, 2), v8(12, F)),
            ),
            (
                Rule::SubregAlign,
                mov(8, d(10, 2, F, 1), v8(12, F)),
                mov(4, d(10, 4, F, 1), g(12, 0, F, 4, 4, 1)),
            ),
            (
                Rule::MathDstSplit,
                math(MathFn::Inv, 8, d(10, 8, F, 1), &[v8(12, F)]),
                math(MathFn::Inv, 8, d(10, 0, F, 1), &[v8(12, F)]),
            ),
            (
                Rule::ExecSizeTypeSize,
                with(alu(Cmp, 16, null(Q), &[sc(12, Q), sc(14, Q)]), |i| {
                    i.cond_mod = Some(CondMod::Z)
                }),
                with(alu(Cmp, 8, null(Q), &[sc(12, Q), sc(14, Q)]), |i| {
                    i.cond_mod = Some(CondMod::Z)
                }),
            ),
            (
                Rule::Align16QwExecSize,
                a16(mov(4, d(10, 0, DF, 1), g(12, 0, F, 4, 4, 1))),
                a16(mov(2, d(10, 0, DF, 1), g(12, 0, F, 4, 4, 1))),
            ),
            (
                Rule::Replicate64,
                alu(
                    Mad,
                    4,
                    d(10, 0, DF, 1),
                    &[g(1, 0, DF, 4, 4, 1), sc(2, DF), g(3, 0, DF, 4, 4, 1)],
                ),
                alu(
                    Mad,
                    4,
                    d(10, 0, DF, 1),
                    &[
                        g(1, 0, DF, 4, 4, 1),
                        g(2, 0, DF, 4, 4, 1),
                        g(3, 0, DF, 4, 4, 1),
                    ],
                ),
            ),
            (
                Rule::PackedByteDst,
                alu(Add, 8, d(10, 0, B, 1), &[v8(12, B), v8(14, B)]),
                mov(8, d(10, 0, B, 1), v8(12, B)),
            ),
            (
                Rule::ByteQwordConversion,
                mov(4, d(10, 0, Q, 1), g(12, 0, B, 4, 4, 1)),
                mov(4, d(10, 0, Q, 1), g(12, 0, D, 4, 4, 1)),
            ),
            (
                Rule::HalfQwordConversion,
                mov(4, d(10, 0, DF, 1), g(12, 0, HF, 4, 4, 1)),
                mov(4, d(10, 0, DF, 1), g(12, 0, F, 4, 4, 1)),
            ),
            (
                Rule::IntHalfConversionDst,
                mov(8, d(10, 0, W, 1), v8(12, HF)),
                mov(8, d(10, 0, W, 2), v8(12, HF)),
            ),
            (
                Rule::HalfConversionDst,
                mov(8, d(10, 0, HF, 4), v8(12, F)),
                mov(8, d(10, 0, HF, 2), v8(12, F)),
            ),
            (
                Rule::DstStrideExecType,
                alu(Add, 8, d(10, 0, W, 1), &[v8(12, D), v8(14, D)]),
                alu(Add, 8, d(10, 0, W, 2), &[v8(12, D), v8(14, D)]),
            ),
            (
                Rule::DstAlignExecType,
                alu(Add, 8, d(10, 2, W, 2), &[v8(12, D), v8(14, D)]),
                alu(Add, 8, d(10, 0, W, 2), &[v8(12, D), v8(14, D)]),
            ),
            (
                Rule::MixedFloatIndirect,
                with(alu(Add, 8, d(10, 0, F, 1), &[v8(12, HF), v8(14, F)]), |i| {
                    if let Some(Src::Reg(r)) = i.srcs[0].as_mut() {
                        r.indirect = Some(Indirect {
                            addr_subreg: 0,
                            offset: 0,
                        });
                    }
                }),
                alu(Add, 8, d(10, 0, F, 1), &[v8(12, HF), v8(14, F)]),
            ),
            (
                Rule::MixedFloatSimd16,
                alu(Add, 16, d(10, 0, F, 1), &[v8(12, HF), v8(14, HF)]),
                alu(Add, 8, d(10, 0, F, 1), &[v8(12, HF), v8(14, HF)]),
            ),
            (
                Rule::MixedFloatPackedHf,
                alu(Add, 16, d(10, 0, HF, 1), &[v8(12, F), v8(14, F)]),
                alu(Add, 8, d(10, 0, HF, 1), &[v8(12, F), v8(14, F)]),
            ),
            (
                Rule::MixedFloatAlign16,
                a16(alu(
                    Add,
                    8,
                    d(10, 0, F, 1),
                    &[g(12, 0, HF, 4, 4, 1), g(14, 0, F, 0, 4, 1)],
                )),
                a16(alu(
                    Add,
                    8,
                    d(10, 0, F, 1),
                    &[g(12, 0, HF, 4, 4, 1), g(14, 0, F, 4, 4, 1)],
                )),
            ),
            (
                Rule::MixedFloatMath,
                math(MathFn::Inv, 8, d(10, 0, F, 1), &[v8(12, HF)]),
                math(MathFn::Inv, 8, d(10, 0, F, 1), &[g(12, 0, HF, 16, 8, 2)]),
            ),
            (
                Rule::VectorImmDst,
                mov(4, d(10, 8, F, 1), imm(VF, 0x3C2A_1A00)),
                mov(4, d(10, 0, F, 1), imm(VF, 0x3C2A_1A00)),
            ),
            (
                Rule::MathTypes,
                math(MathFn::Inv, 8, d(10, 0, D, 1), &[v8(12, D)]),
                math(MathFn::Inv, 8, d(10, 0, F, 1), &[v8(12, F)]),
            ),
            (
                Rule::MathIntDivModifiers,
                math(
                    MathFn::IntDivQuotient,
                    8,
                    d(10, 0, D, 1),
                    &[modded(v8(12, D), true, false), v8(14, D)],
                ),
                math(
                    MathFn::IntDivQuotient,
                    8,
                    d(10, 0, D, 1),
                    &[v8(12, D), v8(14, D)],
                ),
            ),
            (
                Rule::CmpCondMod,
                alu(Cmp, 8, null(F), &[v8(12, F), v8(14, F)]),
                with(alu(Cmp, 8, null(F), &[v8(12, F), v8(14, F)]), |i| {
                    i.cond_mod = Some(CondMod::L)
                }),
            ),
            (
                Rule::SelPredOrCond,
                alu(Sel, 8, d(10, 0, F, 1), &[v8(12, F), v8(14, F)]),
                with(alu(Sel, 8, d(10, 0, F, 1), &[v8(12, F), v8(14, F)]), |i| {
                    i.cond_mod = Some(CondMod::Ge)
                }),
            ),
            (
                Rule::MulDwordSrc0,
                alu(Mul, 8, d(10, 0, D, 1), &[v8(12, W), v8(14, D)]),
                alu(Mul, 8, d(10, 0, D, 1), &[v8(14, D), v8(12, W)]),
            ),
            (
                Rule::MulDwordSatCond,
                with(alu(Mul, 8, d(10, 0, D, 1), &[v8(14, D), v8(12, W)]), |i| {
                    i.saturate = true
                }),
                alu(Mul, 8, d(10, 0, D, 1), &[v8(14, D), v8(12, W)]),
            ),
            (
                Rule::LogicAbs,
                alu(
                    And,
                    8,
                    d(10, 0, UD, 1),
                    &[modded(v8(12, UD), false, true), v8(14, UD)],
                ),
                alu(
                    And,
                    8,
                    d(10, 0, UD, 1),
                    &[modded(v8(12, UD), true, false), v8(14, UD)],
                ),
            ),
            (
                Rule::LogicCondMod,
                with(
                    alu(And, 8, d(10, 0, UD, 1), &[v8(12, UD), v8(14, UD)]),
                    |i| i.cond_mod = Some(CondMod::O),
                ),
                with(
                    alu(And, 8, d(10, 0, UD, 1), &[v8(12, UD), v8(14, UD)]),
                    |i| i.cond_mod = Some(CondMod::Z),
                ),
            ),
            (
                Rule::LogicIntTypes,
                alu(And, 8, d(10, 0, F, 1), &[v8(12, F), v8(14, F)]),
                alu(And, 8, d(10, 0, UD, 1), &[v8(12, UD), v8(14, UD)]),
            ),
            (
                Rule::Bfi2Types,
                with(
                    alu(
                        Bfi2,
                        8,
                        d(10, 0, UD, 1),
                        &[
                            g(1, 0, UD, 4, 4, 1),
                            g(2, 0, UD, 4, 4, 1),
                            g(3, 0, UD, 4, 4, 1),
                        ],
                    ),
                    |i| i.saturate = true,
                ),
                alu(
                    Bfi2,
                    8,
                    d(10, 0, UD, 1),
                    &[
                        g(1, 0, UD, 4, 4, 1),
                        g(2, 0, UD, 4, 4, 1),
                        g(3, 0, UD, 4, 4, 1),
                    ],
                ),
            ),
            (
                Rule::CselRules,
                with(
                    alu(
                        Csel,
                        8,
                        d(10, 0, F, 1),
                        &[
                            g(1, 0, F, 4, 4, 1),
                            g(2, 0, F, 4, 4, 1),
                            g(3, 0, F, 4, 4, 1),
                        ],
                    ),
                    |i| {
                        i.cond_mod = Some(CondMod::L);
                        i.predicate = Some(Predicate {
                            ctrl: PredCtrl::Normal,
                            inverse: false,
                        });
                    },
                ),
                with(
                    alu(
                        Csel,
                        8,
                        d(10, 0, F, 1),
                        &[
                            g(1, 0, F, 4, 4, 1),
                            g(2, 0, F, 4, 4, 1),
                            g(3, 0, F, 4, 4, 1),
                        ],
                    ),
                    |i| i.cond_mod = Some(CondMod::L),
                ),
            ),
            (
                Rule::SendSrc0Grf,
                with(snd(d(10, 0, UD, 1), 4, Sfid::Dc1, read8(1)), |i| {
                    i.srcs[0] = Some(arf(0x20, UD))
                }),
                snd(d(10, 0, UD, 1), 4, Sfid::Dc1, read8(1)),
            ),
            (
                Rule::SendsSrc1,
                sends(10, arf(0x20, UD), 1),
                sends(10, sc(12, UD), 1),
            ),
            (
                Rule::SendsOverlap,
                sends(10, sc(10, UD), 1),
                sends(10, sc(11, UD), 1),
            ),
            (
                Rule::SendMlen,
                snd(d(10, 0, UD, 1), 4, Sfid::Dc1, read8(1) & !(0xF << 25)),
                snd(d(10, 0, UD, 1), 4, Sfid::Dc1, read8(1)),
            ),
            (
                Rule::SendRlen,
                snd(
                    d(10, 0, UD, 1),
                    4,
                    Sfid::Sampler,
                    desc(2, 17, false, 0, 0, 0),
                ),
                snd(
                    d(10, 0, UD, 1),
                    4,
                    Sfid::Sampler,
                    desc(2, 16, false, 0, 0, 0),
                ),
            ),
            (
                Rule::SendHeader,
                snd(d(10, 0, UD, 1), 4, Sfid::Dc0, desc(1, 1, false, 0, 2, 0)),
                snd(d(10, 0, UD, 1), 4, Sfid::Dc0, desc(1, 1, true, 0, 2, 0)),
            ),
            (
                Rule::SendResponseLength,
                snd(d(10, 0, UD, 1), 4, Sfid::Dc1, read8(2)),
                snd(d(10, 0, UD, 1), 4, Sfid::Dc1, read8(1)),
            ),
            (
                Rule::EotTarget,
                eot(120, Sfid::Dc1, desc(2, 0, false, 0x09, 0x2E, 0)),
                eot(120, Sfid::ThreadSpawner, ts),
            ),
            (
                Rule::EotResponse,
                eot(120, Sfid::ThreadSpawner, ts | (1 << 20)),
                eot(120, Sfid::ThreadSpawner, ts),
            ),
            (
                Rule::BranchTargets,
                with(br(If, 32, 48), |i| i.branch = None),
                br(If, 32, 48),
            ),
            (Rule::BranchAlign, br(While, -12, 0), br(While, -16, 0)),
        ]
    }

    #[test]
    fn each_rule_has_an_illegal_case_and_a_legal_neighbour() {
        let mut problems = Vec::new();
        for (rule, bad, good) in cases() {
            match validate(&bad) {
                Ok(()) => problems.push(format!("{rule:?}: the illegal case passes")),
                Err(v) => {
                    if v.iter().any(|v| v.rule() != rule) {
                        problems.push(format!(
                            "{rule:?}: the illegal case breaks other rules too: {v:?}"
                        ));
                    }
                }
            }
            if let Err(v) = validate(&good) {
                problems.push(format!("{rule:?}: the legal neighbour fails: {v:?}"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn every_rule_is_tested() {
        let tested: Vec<Rule> = cases().iter().map(|c| c.0).collect();
        for r in RULES {
            // Decode is held by `undecodable_bytes_are_reported`.
            assert!(
                r.rule == Rule::Decode || tested.contains(&r.rule),
                "{:?} has no test case",
                r.rule
            );
        }
        for (k, r) in RULES.iter().enumerate() {
            assert!(RULES[..k].iter().all(|o| o.rule != r.rule));
        }
    }

    #[test]
    fn undecodable_bytes_are_reported() {
        let e = validate_kernel(&[0xFFu8; 16]).unwrap_err();
        assert_eq!(e.rules(), vec![Rule::Decode]);
        assert_eq!(e.insts[0].offset, 0);
    }

    #[test]
    fn messages_name_the_rule_and_the_instruction() {
        let bad = alu(
            Opcode::Add,
            4,
            d(10, 0, Type::F, 1),
            &[v8(12, Type::F), sc(14, Type::F)],
        );
        let v = validate(&bad).unwrap_err();
        assert_eq!(
            v[0].to_string(),
            "region: ExecSize must be greater than or equal to Width \
             (PRM Vol 7 'Region Parameters' rule 1) [src0: ExecSize 4 < Width 8 in <8;8,1>]"
        );
        let mut bytes = super::super::encode(&alu(
            Opcode::Mov,
            8,
            d(10, 0, Type::F, 1),
            &[v8(12, Type::F)],
        ))
        .unwrap()
        .to_vec();
        bytes.extend_from_slice(&super::super::encode(&bad).unwrap());
        let e = validate_kernel(&bytes).unwrap_err();
        assert_eq!(e.insts.len(), 1);
        assert_eq!(e.insts[0].offset, 16);
        let text = e.to_string();
        assert!(text.contains("@0x0010:"), "{text}");
        assert!(text.contains("add (4|M0)"), "{text}");
        assert!(text.contains("rule 1"), "{text}");
    }
}
