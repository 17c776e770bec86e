//! Private arrays in registers: a variable mem2reg could not promote because it is indexed
//! at run time (`int t[8]; ... t[i]`) lives in GRFs instead of scratch when it is small and
//! only read and written as elements of one size: `Op::RegArray`, which selection turns
//! into `bytes` per lane of registers, read with a VxH-indirect gather and written element
//! by element under a compare (isel/memory.rs). Everything else, and any variable whose
//! address is stored, cast, compared or passed on, keeps its place in private memory.
//!
//! The array moves to the top of the entry block, so its registers are defined (cleared)
//! once, before any loop that uses them.

use crate::ir::{Block, ConvOp, Function, Op, Space, Ty, Value};

/// The largest array kept in registers, in bytes per work-item: 16 GRFs at SIMD8, 32 at
/// SIMD16 (of 128).
pub const MAX_BYTES: u32 = 64;

pub fn run(f: &mut Function) {
    if !f.insts.iter().any(|i| matches!(i.op, Op::Alloca { .. })) {
        return;
    }
    let mut users: Vec<Vec<Value>> = vec![Vec::new(); f.insts.len()];
    for b in &f.blocks {
        for v in &b.insts {
            for o in f.inst(*v).op.operands() {
                users[o.0 as usize].push(*v);
            }
        }
    }
    let placed: Vec<Value> = f.blocks.iter().flat_map(|b| &b.insts).copied().collect();
    let mut moved = Vec::new();
    for a in placed {
        let Op::Alloca { bytes, .. } = f.inst(a).op else {
            continue;
        };
        let Some(elem) = element_size(f, &users, a) else {
            continue;
        };
        if bytes == 0 || bytes > MAX_BYTES || bytes % elem != 0 {
            continue;
        }
        f.insts[a.0 as usize].op = Op::RegArray { bytes, elem };
        moved.push(a);
    }
    if moved.is_empty() {
        return;
    }
    for b in &mut f.blocks {
        b.insts.retain(|v| !moved.contains(v));
    }
    f.blocks[Block(0).0 as usize].insts.splice(0..0, moved);
}

/// The one access size (4 or 8 bytes) of every load and store through `a`, if `a` is only
/// ever an address of such accesses: itself, offset (`PtrAdd`) or retyped (a pointer
/// bitcast), any number of times.
fn element_size(f: &Function, users: &[Vec<Value>], a: Value) -> Option<u32> {
    let mut size = None;
    let mut access = |addr: Value, user: Value| -> bool {
        let bytes = match f.inst(user).op {
            Op::Load { addr: p, bytes, .. } if p == addr => bytes,
            Op::Store {
                addr: p,
                value,
                bytes,
                ..
            } if p == addr && value != addr => bytes,
            _ => return false,
        };
        if !matches!(bytes, 4 | 8) || f.inst(user).ty.bytes() > bytes {
            return false;
        }
        *size.get_or_insert(bytes) == bytes
    };
    let mut addresses = vec![a];
    let mut seen = vec![a];
    while let Some(p) = addresses.pop() {
        for &u in &users[p.0 as usize] {
            let derived = match f.inst(u).op {
                Op::PtrAdd(q, off) => q == p && !seen.contains(&off),
                Op::Conv(ConvOp::Bitcast, q) => q == p && f.inst(u).ty == Ty::Ptr(Space::Private),
                _ => false,
            };
            if derived {
                if !seen.contains(&u) {
                    seen.push(u);
                    addresses.push(u);
                }
            } else if !access(p, u) {
                return None;
            }
        }
    }
    size
}
