//! Emission: virtual registers replaced by their GRFs, flow-control targets
//! resolved to JIP/UIP byte offsets on the final layout, every instruction
//! encoded, compacted (8 bytes) wherever `isa::gen9::compact` allows.

use thiserror::Error;

use crate::isa::gen9::compact::compact;
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
    /// The encoded kernel breaks a Gen9 legality rule
    /// (`isa::gen9::validate`; checked in debug builds and with GENCL_VALIDATE=1).
    #[error("internal: illegal machine code emitted: {message}")]
    Illegal { message: String },
}

/// Is the legality validator to run on emitted code: always in debug
/// builds, and in release builds when GENCL_VALIDATE=1.
fn validate_emitted() -> bool {
    cfg!(debug_assertions) || std::env::var("GENCL_VALIDATE").is_ok_and(|v| v == "1")
}

/// How to encode: compacted wherever possible (the default), or all native
/// (to compare against a plain listing when debugging).
#[derive(Clone, Copy, Debug)]
pub struct EmitOptions {
    pub compact: bool,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions { compact: true }
    }
}

/// Final instruction list (for disassembly in tests and tools) and bytes,
/// compacted wherever possible.
pub fn emit(m: &MFunction, a: &Assignment) -> Result<(Vec<crate::isa::Inst>, Vec<u8>), EmitError> {
    emit_with(m, a, EmitOptions::default())
}

/// A branch's jump target: an instruction index (`n` = the end).
#[derive(Clone, Copy)]
struct Targets {
    jip: Option<usize>,
    uip: Option<usize>,
}

pub fn emit_with(
    m: &MFunction,
    a: &Assignment,
    opts: EmitOptions,
) -> Result<(Vec<crate::isa::Inst>, Vec<u8>), EmitError> {
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
    // Registers assigned; jump targets as instruction indices.
    let mut insts = Vec::with_capacity(n);
    let mut targets = Vec::with_capacity(n);
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
        let ip = insts.len();
        let t = match inst.op {
            Opcode::If
            | Opcode::Else
            | Opcode::While
            | Opcode::Break
            | Opcode::Cont
            | Opcode::Goto
            | Opcode::Join => Targets {
                // No JIP: fall through to the next instruction.
                jip: Some(mi.jip.map(target).transpose()?.unwrap_or(ip + 1)),
                uip: mi.uip.map(target).transpose()?,
            },
            // JIP: where to go when no channel is left enabled after this
            // endif: the end of the enclosing block, else the next instruction.
            Opcode::Endif => Targets {
                jip: Some(enclosing_block_end(m, pos).unwrap_or(ip + 1)),
                uip: None,
            },
            _ => Targets {
                jip: None,
                uip: None,
            },
        };
        insts.push(inst);
        targets.push(t);
    }
    // Layout: every instruction starts compacted if compaction is on, and
    // one that does not compact at its final offsets grows to 16 bytes;
    // sizes only grow, so this ends (after one round today: flow control,
    // the only offset-dependent kind, never compacts).
    let mut compacted = vec![opts.compact; n];
    // Only branches depend on offsets: every other instruction is encoded once.
    let mut natives: Vec<Option<(u128, Option<u64>)>> = vec![None; n];
    let words = loop {
        let mut offset = Vec::with_capacity(n + 1);
        let mut o = 0i64;
        for &c in &compacted {
            offset.push(o);
            o += if c { 8 } else { 16 };
        }
        offset.push(o);
        let mut words = Vec::with_capacity(n);
        let mut grew = false;
        for (ip, (inst, t)) in insts.iter_mut().zip(&targets).enumerate() {
            if t.jip.is_some() {
                let rel = |x: Option<usize>| x.map_or(0, |x| (offset[x] - offset[ip]) as i32);
                inst.branch = Some(Branch {
                    jip: rel(t.jip),
                    uip: rel(t.uip),
                });
            }
            let (native, compact_form) = match natives[ip] {
                Some(x) if t.jip.is_none() => x,
                _ => {
                    let x = u128::from_le_bytes(encode(inst)?);
                    let c = if compacted[ip] { compact(x) } else { None };
                    natives[ip] = Some((x, c));
                    (x, c)
                }
            };
            let word = if compacted[ip] {
                compact_form.map(Word::Compact)
            } else {
                None
            };
            words.push(word.unwrap_or_else(|| {
                grew |= compacted[ip];
                compacted[ip] = false;
                Word::Native(native)
            }));
        }
        if !grew {
            break words;
        }
    };
    let mut bytes = Vec::with_capacity(n * 16);
    for (inst, w) in insts.iter_mut().zip(&words) {
        match *w {
            Word::Compact(c) => bytes.extend_from_slice(&c.to_le_bytes()),
            Word::Native(x) => bytes.extend_from_slice(&x.to_le_bytes()),
        }
        inst.compacted = matches!(w, Word::Compact(_));
    }
    if validate_emitted() {
        crate::isa::gen9::validate::validate_kernel(&bytes).map_err(|e| EmitError::Illegal {
            message: e.to_string(),
        })?;
    }
    Ok((insts, bytes))
}

enum Word {
    Native(u128),
    Compact(u64),
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
