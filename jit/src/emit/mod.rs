//! Emission: virtual registers replaced by their GRFs, flow-control targets
//! resolved to JIP/UIP byte offsets, every instruction encoded.

use thiserror::Error;

use crate::isa::gen9::{encode, EncodeError};
use crate::isa::{Branch, Opcode, Src};
use crate::isel::mfunc::{Item, Label, MFunction};
use crate::regalloc::Assignment;

#[derive(Debug, Clone, Error)]
pub enum EmitError {
    #[error(transparent)]
    Encode(#[from] EncodeError),
    #[error("internal: unresolved label {0}")]
    Label(u32),
}

/// Final instruction list (for disassembly in tests and tools) and bytes.
pub fn emit(m: &MFunction, a: &Assignment) -> Result<(Vec<crate::isa::Inst>, Vec<u8>), EmitError> {
    // Instruction index of every label.
    let mut at = vec![None; m.labels as usize];
    let mut n = 0usize;
    for item in &m.items {
        match item {
            Item::Inst(_) => n += 1,
            Item::Label(l) | Item::LoopStart(l) => {
                if at[l.0 as usize].is_none() {
                    at[l.0 as usize] = Some(n)
                }
            }
            Item::LoopEnd(_) => {}
        }
    }
    let target = |l: Label| {
        at.get(l.0 as usize)
            .copied()
            .flatten()
            .ok_or(EmitError::Label(l.0))
    };
    let mut insts = Vec::with_capacity(n);
    let mut ip = 0usize;
    for (pos, item) in m.items.iter().enumerate() {
        let Item::Inst(mi) = item else { continue };
        let mut inst = mi.inst.clone();
        if let (Some(d), Some(r)) = (inst.dst.as_mut(), mi.dst) {
            let b = a.base[r.v.0 as usize] + r.off;
            d.nr = (b / 32) as u8;
            d.subreg = (b % 32) as u8;
        }
        for (s, r) in inst.srcs.iter_mut().zip(mi.srcs) {
            if let (Some(Src::Reg(sr)), Some(r)) = (s.as_mut(), r) {
                let b = a.base[r.v.0 as usize] + r.off;
                sr.nr = (b / 32) as u8;
                sr.subreg = (b % 32) as u8;
            }
        }
        let rel = |t: usize| (t as i64 - ip as i64) as i32 * 16;
        match inst.op {
            Opcode::If | Opcode::Else | Opcode::While | Opcode::Break | Opcode::Cont => {
                let jip = mi.jip.map(target).transpose()?.map(rel).unwrap_or(16);
                let uip = mi.uip.map(target).transpose()?.map(rel).unwrap_or(0);
                inst.branch = Some(Branch { jip, uip });
            }
            Opcode::Endif => {
                // JIP: where to go when no channel is left enabled after this
                // endif: the end of the enclosing block, else the next instruction.
                let t = enclosing_block_end(m, pos).unwrap_or(ip + 1);
                inst.branch = Some(Branch {
                    jip: rel(t),
                    uip: 0,
                });
            }
            _ => {}
        }
        insts.push(inst);
        ip += 1;
    }
    let mut bytes = Vec::with_capacity(insts.len() * 16);
    for i in &insts {
        bytes.extend_from_slice(&encode(i)?);
    }
    Ok((insts, bytes))
}

/// Instruction index of the next else/endif/while that closes the block
/// enclosing item `pos` (nesting counted by if/endif and loop markers).
fn enclosing_block_end(m: &MFunction, pos: usize) -> Option<usize> {
    let mut ip = m.items[..=pos]
        .iter()
        .filter(|i| matches!(i, Item::Inst(_)))
        .count();
    let mut depth = 0i32;
    for item in &m.items[pos + 1..] {
        match item {
            Item::Inst(mi) => {
                match mi.inst.op {
                    Opcode::If => depth += 1,
                    Opcode::Endif if depth > 0 => depth -= 1,
                    Opcode::Else | Opcode::Endif | Opcode::While if depth == 0 => return Some(ip),
                    Opcode::While => depth -= 1,
                    _ => {}
                }
                ip += 1;
            }
            Item::LoopStart(_) => depth += 1,
            _ => {}
        }
    }
    None
}
