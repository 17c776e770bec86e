//! Addresses that only address memory. Local-memory ones: `ptradd`s of `__local` pointers whose
//! every use is the address of a load, store or atomic. Shared local memory takes 32-bit
//! offsets, so only the low 32 bits of such an address are ever read: `passes::narrow`
//! computes their offsets in 32 bits, and instruction selection keeps them as one dword a
//! lane instead of a qword whose low dwords each message then packs (IGC keeps SLM
//! pointers 32-bit throughout). A `ptradd` read any other way (compared, cast to an
//! integer or to generic, stored, a phi's or a select's operand, the base of another
//! `ptradd`) keeps its 64 bits: there the high half of a negative offset matters.
//! Buffer ones (`buffer_addresses`): `ptradd`s of a buffer argument that go through the
//! argument's binding-table surface with 32-bit offsets, by the same rule.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{ConvOp, Function, Op, Space, Term, Ty, Value};

pub fn address_only(f: &Function) -> FxHashSet<Value> {
    let mut cand: FxHashSet<Value> = FxHashSet::default();
    for b in &f.blocks {
        for &v in &b.insts {
            if f.ty(v) == Ty::Ptr(Space::Local) && matches!(f.inst(v).op, Op::PtrAdd(..)) {
                cand.insert(v);
            }
        }
    }
    keep_address_only(f, &mut cand, |_| true);
    cand
}

/// Buffer addresses that only address memory (the binding-table technique of seed 003,
/// as IGC's stateless-to-stateful promotion does it): `ptradd(arg k, offset)` of a
/// `__global` or `__constant` pointer argument whose every use is the address of a load or
/// store, or of a 32-bit atomic. Such an access can go through argument k's binding-table
/// surface (a raw buffer surface from the argument's address to its buffer's end) with the
/// offset's low 32 bits, bounds-checked by the surface: an offset into a buffer fits in 32
/// bits (buffers are below 4 GiB), and a negative one leaves the memory object (undefined
/// in OpenCL C, and read as 0 / dropped by the surface). 64-bit atomics keep their 64-bit
/// address (A64: Gen9's untyped surface atomics are 32-bit only), as does a `ptradd` read
/// any other way.
/// The map gives each address its argument.
pub fn buffer_addresses(f: &Function) -> FxHashMap<Value, u32> {
    if !buffer_surfaces_enabled() {
        return FxHashMap::default();
    }
    let mut cand: FxHashSet<Value> = FxHashSet::default();
    for b in &f.blocks {
        for &v in &b.insts {
            if let Op::PtrAdd(p, _) = f.inst(v).op {
                if buffer_arg(f, p).is_some() {
                    cand.insert(v);
                }
            }
        }
    }
    // A 32-bit atomic takes the surface too (Gen9's untyped atomic: SIMD16 in one message,
    // where the A64 one is SIMD8 only); a 64-bit one needs A64.
    keep_address_only(f, &mut cand, |v| f.ty(v).bytes() == 4);
    cand.into_iter()
        .filter_map(|v| match f.inst(v).op {
            Op::PtrAdd(p, _) => buffer_arg(f, p).map(|k| (v, k)),
            _ => None,
        })
        .collect()
}

/// The buffer arguments a kernel reaches through their surfaces: those with an address in
/// `buffer_addresses`, or loaded, stored or (32-bit) atomically updated at directly
/// (offset 0), in argument order.
pub fn surface_args(f: &Function) -> Vec<u32> {
    let mut args: Vec<u32> = buffer_addresses(f).into_values().collect();
    if buffer_surfaces_enabled() {
        for b in &f.blocks {
            for &v in &b.insts {
                match f.inst(v).op {
                    Op::Load { addr, .. } | Op::Store { addr, .. } => {
                        args.extend(buffer_arg(f, addr))
                    }
                    Op::Atomic(_, addr, _) | Op::CmpXchg { addr, .. } if f.ty(v).bytes() == 4 => {
                        args.extend(buffer_arg(f, addr))
                    }
                    _ => {}
                }
            }
        }
    }
    args.sort_unstable();
    args.dedup();
    args
}

/// The argument `p` is, if it is a `__global` or `__constant` pointer argument.
pub fn buffer_arg(f: &Function, p: Value) -> Option<u32> {
    match (&f.inst(p).op, f.ty(p)) {
        (Op::Arg(k), Ty::Ptr(Space::Global | Space::Constant)) => Some(*k),
        _ => None,
    }
}

/// `GENCL_BUFFER_SURFACES=0` keeps every buffer access stateless (A64), for comparison
/// (docs/jit.md "Buffers through binding-table surfaces"). Read once.
pub fn buffer_surfaces_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("GENCL_BUFFER_SURFACES").map_or(true, |v| v != "0"))
}

/// Drop from `cand` every value read other than as the address of a load or store (or of
/// an atomic `atomic` accepts), or live out of the function.
fn keep_address_only(f: &Function, cand: &mut FxHashSet<Value>, atomic: impl Fn(Value) -> bool) {
    if cand.is_empty() {
        return;
    }
    for b in &f.blocks {
        for &v in &b.insts {
            let op = &f.inst(v).op;
            let addr = match op {
                Op::Load { addr, .. } | Op::Store { addr, .. } => Some(*addr),
                Op::Atomic(_, addr, _) | Op::CmpXchg { addr, .. } if atomic(v) => Some(*addr),
                _ => None,
            };
            // Every operand other than the address slot is a use of another kind (a
            // store's value may be the same pointer).
            let mut addr_seen = false;
            for o in op.operands() {
                if Some(o) == addr && !addr_seen {
                    addr_seen = true;
                    continue;
                }
                cand.remove(&o);
            }
        }
        if let Term::CondBr(c, _, _) = b.term {
            cand.remove(&c);
        }
    }
    for v in &f.live_out {
        cand.remove(v);
    }
}

/// The extensions of 32-bit offsets (`zext`/`sext` of an I32) read only as the offsets of
/// addresses in `only` (`uses`: every value's reads, `Function::use_counts`):
/// instruction selection adds the 32-bit value itself and never makes the 64-bit one.
pub fn extensions_read_in_32_bits(
    f: &Function,
    only: &FxHashSet<Value>,
    uses: &[u32],
) -> FxHashSet<Value> {
    let mut as_offset = vec![0u32; f.insts.len()];
    for b in &f.blocks {
        for &v in &b.insts {
            if let Op::PtrAdd(_, x) = f.inst(v).op {
                if only.contains(&v) {
                    as_offset[x.0 as usize] += 1;
                }
            }
        }
    }
    let mut out = FxHashSet::default();
    for b in &f.blocks {
        for &v in &b.insts {
            let i = v.0 as usize;
            if let Op::Conv(ConvOp::ZExt | ConvOp::SExt, a) = f.inst(v).op {
                if f.ty(a) == Ty::I32 && as_offset[i] > 0 && as_offset[i] == uses[i] {
                    out.insert(v);
                }
            }
        }
    }
    out
}
