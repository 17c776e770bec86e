//! Emission: virtual registers replaced by their GRFs, flow-control targets
//! resolved to JIP/UIP byte offsets on the final layout, every instruction
//! encoded, compacted (8 bytes) wherever `isa::gen9::compact` allows.

use thiserror::Error;

use crate::isa::gen9::compact::compact;
use crate::isa::gen9::{encode, EncodeError};
use crate::isa::{Branch, Opcode, Src};
use crate::mir::{Item, Label, MFunction};
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

/// The kernel's bytes, compacted wherever possible.
pub fn emit(m: &MFunction, a: &Assignment) -> Result<Vec<u8>, EmitError> {
    emit_with(m, a, EmitOptions::default())
}

/// A branch's jump target: an instruction index (`n` = the end).
#[derive(Clone, Copy)]
struct Targets {
    jip: Option<usize>,
    uip: Option<usize>,
}

/// One machine instruction on its way to bytes. Only flow control depends on the layout
/// (its JIP/UIP are byte offsets), so every other instruction is encoded once, as soon as
/// its registers are known, and only its words are kept.
enum Pending {
    Encoded { native: u128, compact: Option<u64> },
    Branch(Box<crate::isa::Inst>, Targets),
}

pub fn emit_with(m: &MFunction, a: &Assignment, opts: EmitOptions) -> Result<Vec<u8>, EmitError> {
    // Instruction index of every label.
    let mut at = vec![None; m.labels as usize];
    let mut n = 0usize;
    for item in &m.items {
        match item {
            Item::Inst(mi) => n += mi.machine_len(),
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
    let encoded = |inst: &crate::isa::Inst| -> Result<Pending, EmitError> {
        let native = u128::from_le_bytes(encode(inst)?);
        let compact = if opts.compact { compact(native) } else { None };
        Ok(Pending::Encoded { native, compact })
    };
    // Registers assigned; everything but flow control encoded.
    let mut pending = Vec::with_capacity(n);
    for (pos, item) in m.items.iter().enumerate() {
        let Item::Inst(mi) = item else { continue };
        if mi.is_gather() {
            pending.push(encoded(&gather_address(mi, a))?);
        }
        let mut inst = mi.inst.clone();
        if let (Some(d), Some(r)) = (inst.dst.as_mut(), mi.dst) {
            let b = a.base[r.v.0 as usize] + r.off;
            d.nr = (b / 32) as u8;
            d.subreg = (b % 32) as u8;
        }
        for (s, r) in inst.srcs.iter_mut().zip(mi.srcs) {
            if let (Some(Src::Reg(sr)), Some(r)) = (s.as_mut(), r) {
                if sr.indirect.is_some() {
                    // Addressed through a0 (`gather_address`).
                    continue;
                }
                let b = a.base[r.v.0 as usize] + r.off;
                sr.nr = (b / 32) as u8;
                sr.subreg = (b % 32) as u8;
            }
        }
        let ip = pending.len();
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
            _ => {
                pending.push(encoded(&inst)?);
                continue;
            }
        };
        pending.push(Pending::Branch(Box::new(inst), t));
    }
    // Layout: every instruction starts compacted if compaction is on, and
    // one that does not compact at its final offsets grows to 16 bytes;
    // sizes only grow, so this ends (after one round today: flow control,
    // the only offset-dependent kind, never compacts).
    let mut compacted = vec![opts.compact; n];
    let mut offset = vec![0i64; n + 1];
    let mut words = Vec::with_capacity(n);
    loop {
        let mut o = 0i64;
        for (slot, &c) in offset.iter_mut().zip(&compacted) {
            *slot = o;
            o += if c { 8 } else { 16 };
        }
        offset[n] = o;
        words.clear();
        let mut grew = false;
        for (ip, p) in pending.iter_mut().enumerate() {
            let (native, compact_form) = match p {
                Pending::Encoded { native, compact } => (*native, *compact),
                Pending::Branch(inst, t) => {
                    let rel = |x: Option<usize>| x.map_or(0, |x| (offset[x] - offset[ip]) as i32);
                    inst.branch = Some(Branch {
                        jip: rel(t.jip),
                        uip: rel(t.uip),
                    });
                    let native = u128::from_le_bytes(encode(inst)?);
                    let c = if compacted[ip] { compact(native) } else { None };
                    (native, c)
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
            break;
        }
    }
    let mut bytes = Vec::with_capacity(offset[n] as usize);
    for w in &words {
        match *w {
            Word::Compact(c) => bytes.extend_from_slice(&c.to_le_bytes()),
            Word::Native(x) => bytes.extend_from_slice(&x.to_le_bytes()),
        }
    }
    if validate_emitted() {
        crate::isa::gen9::validate::validate_kernel(&bytes).map_err(|e| EmitError::Illegal {
            message: e.to_string(),
        })?;
    }
    Ok(bytes)
}

/// `(W) add (n) a0.0<1>:uw offsets<16;8,2>:uw base` before a gather (`MInst::is_gather`):
/// each lane's address is its byte offset (the low word of its dword in `srcs[1]`) plus the
/// byte address of the register read (`srcs[0]`). NoMask, so that no lane's address is
/// stale; the move itself runs under the execution mask.
fn gather_address(mi: &crate::mir::MInst, a: &Assignment) -> crate::isa::Inst {
    use crate::isa::{Imm, Inst, Region, Type};
    let (Some(x), Some(o)) = (mi.srcs[0], mi.srcs[1]) else {
        unreachable!("is_gather checked both");
    };
    let base = a.base[x.v.0 as usize] + x.off;
    let at = a.base[o.v.0 as usize] + o.off;
    let mut i = Inst::new(Opcode::Add, mi.inst.exec_size);
    i.no_mask = true;
    i.chan_offset = mi.inst.chan_offset;
    // a0, the address register (ARF 0x10).
    i.dst = Some(crate::isel::arf_dst(0x10, Type::UW));
    i.srcs[0] = Some(crate::isel::reg_src(
        (at / 32) as u8,
        (at % 32) as u8,
        Region {
            vstride: 16,
            width: 8,
            hstride: 2,
        },
        Type::UW,
    ));
    i.srcs[1] = Some(Src::Imm(Imm {
        ty: Type::UW,
        bits: u64::from(base),
    }));
    i
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
        .map(|i| match i {
            Item::Inst(mi) => mi.machine_len(),
            _ => 0,
        })
        .sum::<usize>();
    let mut depth = 0i32;
    for item in &m.items[pos + 1..] {
        match item {
            Item::Inst(mi) => {
                ip += mi.machine_len() - 1;
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
