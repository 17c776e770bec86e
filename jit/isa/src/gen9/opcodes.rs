//! The one Gen9 opcode table: hardware number, IGA mnemonic, number of
//! sources and encoding form. Numbers are those of `iga64 -p=9`
//! (IGA's Gen9 model) and Mesa's brw_eu.c opcode_descs.

use crate::Opcode;

/// How an opcode's operands are laid out in the instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// dst + 1 source (register or immediate).
    Unary,
    /// dst + 2 sources (src1 may be an immediate).
    Binary,
    /// `math`: dst + 1 or 2 sources depending on the function.
    Math,
    /// Three-source Align16 (mad, lrp, bfe, bfi2, csel, madm).
    Ternary,
    /// send/sendc: dst, src0, descriptor in src1's slot.
    Send,
    /// sends/sendsc: dst, src0, src1 register, descriptors.
    Sends,
    /// jmpi: ip-relative, target = pc + 16 + imm.
    Jmpi,
    /// Flow control with JIP and UIP (if, else, break, cont, halt, goto, brc).
    BranchJipUip,
    /// Flow control with JIP only (endif, while, join, brd).
    BranchJip,
    /// call/calla: dst register + JIP.
    Call,
    /// ret: src0 register.
    Ret,
    /// wait n0.x
    Wait,
    /// nop, illegal.
    Nullary,
}

#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    pub op: Opcode,
    pub num: u8,
    pub name: &'static str,
    pub nsrc: u8,
    pub form: Form,
}

const fn o(op: Opcode, num: u8, name: &'static str, nsrc: u8, form: Form) -> OpInfo {
    OpInfo {
        op,
        num,
        name,
        nsrc,
        form,
    }
}

use Form::*;
use Opcode as O;

pub const INFO: &[OpInfo] = &[
    o(O::Illegal, 0x00, "illegal", 0, Nullary),
    o(O::Mov, 0x01, "mov", 1, Unary),
    o(O::Sel, 0x02, "sel", 2, Binary),
    o(O::Movi, 0x03, "movi", 2, Binary),
    o(O::Not, 0x04, "not", 1, Unary),
    o(O::And, 0x05, "and", 2, Binary),
    o(O::Or, 0x06, "or", 2, Binary),
    o(O::Xor, 0x07, "xor", 2, Binary),
    o(O::Shr, 0x08, "shr", 2, Binary),
    o(O::Shl, 0x09, "shl", 2, Binary),
    o(O::Smov, 0x0A, "smov", 2, Binary),
    o(O::Asr, 0x0C, "asr", 2, Binary),
    o(O::Cmp, 0x10, "cmp", 2, Binary),
    o(O::Cmpn, 0x11, "cmpn", 2, Binary),
    o(O::Csel, 0x12, "csel", 3, Ternary),
    o(O::Bfrev, 0x17, "bfrev", 1, Unary),
    o(O::Bfe, 0x18, "bfe", 3, Ternary),
    o(O::Bfi1, 0x19, "bfi1", 2, Binary),
    o(O::Bfi2, 0x1A, "bfi2", 3, Ternary),
    o(O::Jmpi, 0x20, "jmpi", 1, Jmpi),
    o(O::Brd, 0x21, "brd", 1, BranchJip),
    o(O::If, 0x22, "if", 2, BranchJipUip),
    o(O::Brc, 0x23, "brc", 2, BranchJipUip),
    o(O::Else, 0x24, "else", 2, BranchJipUip),
    o(O::Endif, 0x25, "endif", 1, BranchJip),
    o(O::While, 0x27, "while", 1, BranchJip),
    o(O::Break, 0x28, "break", 2, BranchJipUip),
    o(O::Cont, 0x29, "cont", 2, BranchJipUip),
    o(O::Halt, 0x2A, "halt", 2, BranchJipUip),
    o(O::Calla, 0x2B, "calla", 1, Call),
    o(O::Call, 0x2C, "call", 1, Call),
    o(O::Ret, 0x2D, "ret", 1, Ret),
    o(O::Goto, 0x2E, "goto", 2, BranchJipUip),
    o(O::Join, 0x2F, "join", 1, BranchJip),
    o(O::Wait, 0x30, "wait", 1, Wait),
    o(O::Send, 0x31, "send", 1, Send),
    o(O::Sendc, 0x32, "sendc", 1, Send),
    o(O::Sends, 0x33, "sends", 2, Sends),
    o(O::Sendsc, 0x34, "sendsc", 2, Sends),
    o(O::Math, 0x38, "math", 2, Math),
    o(O::Add, 0x40, "add", 2, Binary),
    o(O::Mul, 0x41, "mul", 2, Binary),
    o(O::Avg, 0x42, "avg", 2, Binary),
    o(O::Frc, 0x43, "frc", 1, Unary),
    o(O::Rndu, 0x44, "rndu", 1, Unary),
    o(O::Rndd, 0x45, "rndd", 1, Unary),
    o(O::Rnde, 0x46, "rnde", 1, Unary),
    o(O::Rndz, 0x47, "rndz", 1, Unary),
    o(O::Mac, 0x48, "mac", 2, Binary),
    o(O::Mach, 0x49, "mach", 2, Binary),
    o(O::Lzd, 0x4A, "lzd", 1, Unary),
    o(O::Fbh, 0x4B, "fbh", 1, Unary),
    o(O::Fbl, 0x4C, "fbl", 1, Unary),
    o(O::Cbit, 0x4D, "cbit", 1, Unary),
    o(O::Addc, 0x4E, "addc", 2, Binary),
    o(O::Subb, 0x4F, "subb", 2, Binary),
    o(O::Sad2, 0x50, "sad2", 2, Binary),
    o(O::Sada2, 0x51, "sada2", 2, Binary),
    o(O::Dp4, 0x54, "dp4", 2, Binary),
    o(O::Dph, 0x55, "dph", 2, Binary),
    o(O::Dp3, 0x56, "dp3", 2, Binary),
    o(O::Dp2, 0x57, "dp2", 2, Binary),
    o(O::Line, 0x59, "line", 2, Binary),
    o(O::Pln, 0x5A, "pln", 2, Binary),
    o(O::Mad, 0x5B, "mad", 3, Ternary),
    o(O::Lrp, 0x5C, "lrp", 3, Ternary),
    o(O::Madm, 0x5D, "madm", 3, Ternary),
    o(O::Nop, 0x7E, "nop", 0, Nullary),
];

/// Facts of one opcode.
pub fn info(op: Opcode) -> &'static OpInfo {
    // Every Opcode variant is in INFO (checked by a unit test).
    INFO.iter().find(|i| i.op == op).unwrap_or(&INFO[0])
}

/// The opcode with hardware number `num`, if Gen9 has one.
pub fn by_num(num: u8) -> Option<&'static OpInfo> {
    INFO.iter().find(|i| i.num == num)
}

/// Does this opcode transfer control (and so end an IGA basic block)?
pub fn is_branch(op: Opcode) -> bool {
    matches!(info(op).form, Jmpi | BranchJipUip | BranchJip | Call | Ret)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn numbers_unique() {
        for (i, a) in INFO.iter().enumerate() {
            for b in &INFO[i + 1..] {
                assert_ne!(a.num, b.num, "{} and {}", a.name, b.name);
                assert_ne!(a.op, b.op);
            }
        }
    }
}
