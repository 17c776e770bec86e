//! Gen9 send messages: descriptors decoded into named messages, and built.
use crate::isa::{Opcode, SendInfo};

/// IGA's end-of-line comment for a send (`wr:2+0, rd:2; hdc.dc1; ...`).
pub fn comment(op: Opcode, _exec_size: u8, si: &SendInfo, _dst_null: bool) -> String {
    let ext = if matches!(op, Opcode::Sends | Opcode::Sendsc) { (si.ex_desc >> 6) & 0xF } else { 0 };
    match si.desc {
        Some(d) => format!("wr:{}+{}, rd:{}", (d >> 25) & 0xF, ext, (d >> 20) & 0x1F),
        None => format!("wr:a0.0[28:25]+{ext}, rd:a0.0[24:20]"),
    }
}
