//! Send coalescing: the dword loads (and stores) of one block at consecutive addresses from
//! one base become one untyped message of two to four channels, as IGC's and Mesa's
//! vectorisers make of a `float4` access. The data port reads channel c of each lane at the
//! lane's address + 4c (PRM Vol 2d, "Untyped Surface Read" / "A64 Untyped Surface Read":
//! the channel mask picks RGBA, each channel the next dword), so `p[0] .. p[3]` of every
//! work-item are one message instead of four; their latencies (the model's 200 cycles each)
//! are paid once.
//!
//! Uniform loads (one address for every lane, uniform.rs) group the same way, wider: eight
//! lanes of four channels read 32 consecutive dwords of a table at once (MD5's and SHA-256's
//! round constants), each then read as a scalar; uniform qwords (a polynomial's `double`
//! coefficients) likewise, each put together from its two dwords of the reply.
//!
//! Per lane, bytes and qwords group too: a `char4`..`char16` (bytes from an address aligned
//! to 4, each then cut out of its dword) and two qwords a message (`long2`, `double2`, the
//! halves of a `long16`), which would otherwise be a byte-scattered or two-channel message
//! each.
//!
//! A group: loads of whole dwords (i32, f32) whose addresses are one base plus constant
//! offsets (through chains of `ptradd` by constants), in the same global/constant or local
//! space, with no write of that memory, atomic, barrier or fence between them in the block
//! (stores: no other access to their memory between them, not even a store through another
//! base, which may alias; shared local and global memory never alias each other). The
//! message goes where the first load of the group is (the address of its lowest channel
//! must be defined there) or, for stores, where the last one is (every value is defined
//! there).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::ir::{BinOp, Block, ConvOp, Function, Op, Space, Ty, Value};

/// A group of loads: the address of its first dword and each load's dword in the group.
/// Per lane (`uniform` false) dword c is channel c of the lane's reply; for uniform loads
/// dword k is channel k % 4 of lane k / 4, lane i reading at the address + 16 i.
#[derive(Clone, Debug)]
pub(super) struct LoadGroup {
    pub addr: Value,
    pub dwords: u32,
    pub uniform: bool,
    pub members: Vec<(Value, u32)>,
    /// What the members are, and so what their index counts.
    pub unit: Unit,
}

/// The members of a group: dwords; bytes (byte k: bits 8 (k % 4) of dword k / 4,
/// zero-extended); 16-bit words (word k: the low or high half of dword k / 2, zero-extended);
/// or qwords (qword k: dwords 2k and 2k + 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unit {
    Byte,
    Word,
    Dword,
    Qword,
}

/// The most dwords one uniform group reads: eight lanes of four channels (SIMD8).
pub(super) const UNIFORM_DWORDS: usize = 32;

/// A group of stores: the address of channel 0 and the value of each member, `unit` bytes
/// each, laid out from the address up (bytes and words in whole dwords, the low first).
#[derive(Clone, Debug)]
pub(super) struct StoreGroup {
    pub addr: Value,
    pub values: Vec<Value>,
    pub unit: Unit,
}

/// The groups of one block.
#[derive(Default)]
pub(super) struct Coalesced {
    /// By the group's first load (program order).
    pub loads: HashMap<Value, LoadGroup>,
    /// By the group's last store.
    pub stores: HashMap<Value, StoreGroup>,
    /// Loads and stores done by another's message.
    pub covered: HashSet<Value>,
    /// Address arithmetic that only covered accesses read: not selected.
    pub dead: HashSet<Value>,
}

/// What an address is relative to: a pointer, plus a run-time 64-bit value times a scale
/// when the offset has one (`p + 4 * (t + 3)`: (p, t, 4), byte offset 12).
type Base = (Value, Option<(Value, i64)>);

/// A 64-bit offset as `value * scale + constant`, through adds, subtractions, shifts and
/// multiplies by constants (exact: 64-bit arithmetic wraps as addresses do). A counter of an
/// unrolled loop is `t`, `t + 1`, `t + 2`, ... in its copies. With `wrap32` (a `__local`
/// address, of which the SLM reads 32 bits) the arithmetic counts modulo 2^32: 32-bit
/// operations and their extensions to 64 bits (`passes::narrow`'s offsets) are followed too.
fn linear(f: &Function, x: Value, wrap32: bool) -> (Option<(Value, i64)>, i64) {
    let konst = |v: Value| match f.inst(v).op {
        Op::Const(k) => Some(k as i64),
        _ => None,
    };
    let followed = match f.ty(x) {
        Ty::I64 => true,
        Ty::I32 => wrap32,
        _ => false,
    };
    if !followed {
        return (Some((x, 1)), 0);
    }
    if let Some(k) = konst(x) {
        return (None, k);
    }
    let linear = |v: Value| linear(f, v, wrap32);
    // A shift count the operation's width defines.
    let bits = if f.ty(x) == Ty::I32 { 32 } else { 63 };
    if let Op::Conv(ConvOp::ZExt | ConvOp::SExt, a) = f.inst(x).op {
        if wrap32 && f.ty(a) == Ty::I32 {
            return linear(a);
        }
    }
    let scaled = |(sym, c): (Option<(Value, i64)>, i64), m: i64| {
        (sym.map(|(v, s)| (v, s.wrapping_mul(m))), c.wrapping_mul(m))
    };
    match f.inst(x).op {
        crate::ir::Op::Bin(op, a, b) => match (op, konst(a), konst(b)) {
            (BinOp::Add, _, Some(k)) => {
                let (sym, c) = linear(a);
                (sym, c.wrapping_add(k))
            }
            (BinOp::Add, Some(k), _) => {
                let (sym, c) = linear(b);
                (sym, c.wrapping_add(k))
            }
            (BinOp::Sub, _, Some(k)) => {
                let (sym, c) = linear(a);
                (sym, c.wrapping_sub(k))
            }
            (BinOp::Shl, _, Some(k)) if (0..bits).contains(&k) => scaled(linear(a), 1 << k),
            (BinOp::Mul, _, Some(k)) => scaled(linear(a), k),
            (BinOp::Mul, Some(k), _) => scaled(linear(b), k),
            _ => (Some((x, 1)), 0),
        },
        _ => (Some((x, 1)), 0),
    }
}

/// The base and constant byte offset of an address: `ptradd` chains followed back, their
/// constant parts summed, a run-time part kept in the base.
fn base_offset(f: &Function, mut addr: Value, surfaces: &Surfaces) -> (Base, i64) {
    let mut off = 0i64;
    let mut sym = None;
    // A surface's offsets are 32-bit too.
    let wrap32 = f.ty(addr) == Ty::Ptr(Space::Local) || surfaces.contains_key(&addr);
    while let Op::PtrAdd(p, x) = f.inst(addr).op {
        let (s, c) = linear(f, x, wrap32);
        if s.is_some() && sym.is_some() {
            break;
        }
        sym = sym.or(s);
        off = off.wrapping_add(c);
        addr = p;
    }
    ((addr, sym), off)
}

/// One access a group may take: position in the block, address, its base and offset, and
/// the loaded value or the stored one.
struct Access {
    pos: usize,
    addr: Value,
    off: i64,
    value: Value,
    align: u32,
}

/// Which memory a groupable access reaches: 0 shared local memory, 1 global memory (the
/// global and constant spaces).
fn memory_of(f: &Function, addr: Value) -> usize {
    usize::from(f.ty(addr) != Ty::Ptr(Space::Local))
}

fn groupable_space(f: &Function, addr: Value) -> bool {
    matches!(
        f.ty(addr),
        Ty::Ptr(Space::Global | Space::Constant | Space::Local)
    )
}

/// Loads a group may take: dwords (per lane or uniform), qwords (per lane or uniform), and
/// per lane only, bytes and 16-bit words zero-extended to i32.
fn groupable_load(bytes: u32, ty: Ty, uniform: bool) -> bool {
    match bytes {
        4 => dword(ty),
        8 => matches!(ty, Ty::I64 | Ty::F64),
        1 | 2 => ty == Ty::I32 && !uniform,
        _ => false,
    }
}

fn dword(ty: Ty) -> bool {
    matches!(ty, Ty::I32 | Ty::F32)
}

/// Runs of consecutive dwords (by offset) among `list`, of up to `max` distinct dwords:
/// accesses of one dword join its run (a load read twice is read once), and a run is kept
/// when it has two accesses or more.
fn runs(list: &mut [Access], max: usize) -> Vec<Vec<usize>> {
    runs_of(list, 4, max)
}

/// `runs` for accesses `step` bytes apart.
fn runs_of(list: &mut [Access], step: i64, max: usize) -> Vec<Vec<usize>> {
    list.sort_by_key(|a| (a.off, a.pos));
    let mut out = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut run = vec![i];
        let mut distinct = 1;
        let mut j = i + 1;
        while j < list.len() {
            let last = list[*run.last().expect("not empty")].off;
            if list[j].off == last {
                run.push(j);
            } else if list[j].off == last + step && distinct < max {
                run.push(j);
                distinct += 1;
            } else {
                break;
            }
            j += 1;
        }
        if run.len() >= 2 {
            out.push(run);
        }
        i = j;
    }
    out
}

/// The buffer addresses that go through a surface (`Sel::surf`).
pub(super) type Surfaces = HashMap<Value, u8>;

pub(super) fn plan(
    f: &Function,
    b: Block,
    uniform: &[bool],
    uses: &[u32],
    surfaces: &Surfaces,
) -> Coalesced {
    let insts = &f.block(b).insts;
    let pos: HashMap<Value, usize> = insts.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let defined_before = |v: Value, at: usize| pos.get(&v).is_none_or(|p| *p < at);
    let mut out = Coalesced::default();
    // Loads: segments end at anything that writes their memory or orders it.
    let mut loads: HashMap<(usize, Base, bool), Vec<Access>> = HashMap::default();
    // Stores: segments end at any other access to their memory.
    let mut stores: HashMap<(usize, Base), Vec<Access>> = HashMap::default();
    // Per memory (`memory_of`): shared local memory and global memory never alias, so an
    // access to one ends no segment of the other (`out[i] = t[i]; out[i + 1] = t[i + 1]`
    // is two messages, not four); anything else ends every segment.
    let (mut load_seg, mut store_seg) = ([0usize; 2], [0usize; 2]);
    let mut last_store_base = [None; 2];
    // 16-bit loads and stores (halves, shorts), per lane: whole dwords of them.
    let mut word_loads: HashMap<(usize, Base), Vec<Access>> = HashMap::default();
    let mut word_stores: HashMap<(usize, Base), Vec<Access>> = HashMap::default();
    // 64-bit loads: uniform (a table of doubles or longs read by every lane) or per lane.
    let mut qword_loads: HashMap<(usize, Base, bool), Vec<Access>> = HashMap::default();
    let mut qword_stores: HashMap<(usize, Base), Vec<Access>> = HashMap::default();
    // Byte loads and stores per lane (chars), in whole dwords.
    let mut byte_loads: HashMap<(usize, Base), Vec<Access>> = HashMap::default();
    let mut byte_stores: HashMap<(usize, Base), Vec<Access>> = HashMap::default();
    for (i, v) in insts.iter().enumerate() {
        let op = &f.inst(*v).op;
        match *op {
            Op::Load { addr, bytes, align }
                if groupable_space(f, addr)
                    && groupable_load(bytes, f.ty(*v), uniform[v.0 as usize]) =>
            {
                let (base, off) = base_offset(f, addr, surfaces);
                let u = uniform[v.0 as usize];
                let access = Access {
                    pos: i,
                    addr,
                    off,
                    value: *v,
                    align,
                };
                let m = memory_of(f, addr);
                let seg = load_seg[m];
                match bytes {
                    1 => byte_loads.entry((seg, base)).or_default().push(access),
                    2 => word_loads.entry((seg, base)).or_default().push(access),
                    4 => loads.entry((seg, base, u)).or_default().push(access),
                    _ => qword_loads.entry((seg, base, u)).or_default().push(access),
                }
                store_seg[m] += 1;
            }
            Op::Store {
                addr,
                value,
                bytes: bytes @ (1 | 2 | 4 | 8),
                align,
            } if groupable_space(f, addr)
                && match bytes {
                    4 => dword(f.ty(value)),
                    8 => matches!(f.ty(value), Ty::I64 | Ty::F64),
                    _ => f.ty(value) == Ty::I32,
                } =>
            {
                let (base, off) = base_offset(f, addr, surfaces);
                let m = memory_of(f, addr);
                // Stores through another base may alias these, and so may stores of the
                // other size through this one (each kind's group goes where its last store
                // is): they keep their order.
                if last_store_base[m] != Some((base, bytes)) {
                    store_seg[m] += 1;
                    last_store_base[m] = Some((base, bytes));
                }
                let access = Access {
                    pos: i,
                    addr,
                    off,
                    value,
                    align,
                };
                let kind = match bytes {
                    1 => &mut byte_stores,
                    2 => &mut word_stores,
                    8 => &mut qword_stores,
                    _ => &mut stores,
                };
                kind.entry((store_seg[m], base)).or_default().push(access);
                load_seg[m] += 1;
            }
            _ if op.has_side_effects() => {
                load_seg.iter_mut().for_each(|s| *s += 1);
                store_seg.iter_mut().for_each(|s| *s += 1);
            }
            Op::Load { .. } | Op::ImageRead { .. } | Op::ImageBlockRead { .. } => {
                store_seg.iter_mut().for_each(|s| *s += 1);
            }
            _ => {}
        }
    }
    let mut add = |list: &[Access], chunk: &[usize], unit: Unit, uniform: bool| {
        if let Some((first, g)) = load_group(list, chunk, unit, uniform, &defined_before) {
            out.add_loads(insts[first], g);
        }
    };
    for ((_, _, uniform), mut list) in loads {
        let max = if uniform { UNIFORM_DWORDS } else { 4 };
        for run in runs(&mut list, max) {
            let chunks = if uniform {
                whole_lanes(&list, &run, 4)
            } else {
                vec![&run[..]]
            };
            for chunk in chunks {
                add(&list, chunk, Unit::Dword, uniform);
            }
        }
    }
    // Qwords: uniform, two a lane of the uniform message; per lane, two a message (four
    // channels).
    for ((_, _, uniform), mut list) in qword_loads {
        if uniform {
            for run in runs_of(&mut list, 8, UNIFORM_DWORDS / 2) {
                for chunk in whole_lanes(&list, &run, 2) {
                    add(&list, chunk, Unit::Qword, true);
                }
            }
        } else {
            for run in runs_of(&mut list, 8, 2) {
                add(&list, &run, Unit::Qword, false);
            }
        }
    }
    // Bytes: a run of up to sixteen from an address aligned to 4, read as whole dwords.
    for mut list in byte_loads.into_values() {
        for run in runs_of(&mut list, 1, 16) {
            if list[run[0]].align >= 4 {
                add(&list, &run, Unit::Byte, false);
            }
        }
    }
    // Words: a run of up to eight from an address aligned to 4 (the first access's
    // alignment says so), read as whole dwords.
    for mut list in word_loads.into_values() {
        for run in runs_of(&mut list, 2, 8) {
            if list[run[0]].align >= 4 {
                add(&list, &run, Unit::Word, false);
            }
        }
    }
    for mut list in stores.into_values() {
        if repeats_an_address(&list) {
            continue;
        }
        for run in runs(&mut list, 4) {
            out.add_stores(insts, &list, &run, Unit::Dword);
        }
    }
    for mut list in qword_stores.into_values() {
        if repeats_an_address(&list) {
            continue;
        }
        for run in runs_of(&mut list, 8, 2) {
            out.add_stores(insts, &list, &run, Unit::Qword);
        }
    }
    // Byte and word stores only in whole dwords, which the message writes at once.
    for (unit, lists) in [(Unit::Word, word_stores), (Unit::Byte, byte_stores)] {
        let per_dword = 4 / unit.bytes() as usize;
        for mut list in lists.into_values() {
            if repeats_an_address(&list) {
                continue;
            }
            for run in runs_of(&mut list, i64::from(unit.bytes()), 4 * per_dword) {
                let whole = run.len() / per_dword * per_dword;
                if whole < 2 || list[run[0]].align < 4 {
                    continue;
                }
                out.add_stores(insts, &list, &run[..whole], unit);
            }
        }
    }
    dead_addresses(f, &pos, uses, &mut out);
    out
}

impl Unit {
    /// Bytes a member reads.
    fn bytes(self) -> u32 {
        match self {
            Unit::Byte => 1,
            Unit::Word => 2,
            Unit::Dword => 4,
            Unit::Qword => 8,
        }
    }
}

/// A uniform run cut into whole lanes of the uniform message (`per_lane` members a lane:
/// each lane reads four dwords) when it spans more than one lane; the rest a group of its
/// own, or loads alone.
fn whole_lanes<'a>(list: &[Access], run: &'a [usize], per_lane: usize) -> Vec<&'a [usize]> {
    let mut offs: Vec<i64> = run.iter().map(|&k| list[k].off).collect();
    offs.dedup();
    let whole = offs.len() / per_lane * per_lane;
    if offs.len() <= per_lane || whole == offs.len() {
        return vec![run];
    }
    let end = offs[whole];
    let cut = run
        .iter()
        .position(|&k| list[k].off >= end)
        .unwrap_or(run.len());
    let (a, b) = run.split_at(cut);
    [a, b].into_iter().filter(|c| c.len() >= 2).collect()
}

/// The load group of `chunk` (members of `unit`, indexed from its lowest address) and the
/// position it goes to, its first load; `None` where that load cannot issue it (the lowest
/// address is defined later).
fn load_group(
    list: &[Access],
    chunk: &[usize],
    unit: Unit,
    uniform: bool,
    defined_before: &impl Fn(Value, usize) -> bool,
) -> Option<(usize, LoadGroup)> {
    let first = chunk.iter().map(|&k| list[k].pos).min()?;
    let low = &list[chunk[0]];
    if !defined_before(low.addr, first) {
        return None;
    }
    let members: Vec<(Value, u32)> = chunk
        .iter()
        .map(|&k| {
            let index = (list[k].off - low.off) / i64::from(unit.bytes());
            (list[k].value, index as u32)
        })
        .collect();
    let units = members.iter().map(|(_, k)| k + 1).max().unwrap_or(1);
    let dwords = (units * unit.bytes()).div_ceil(4);
    Some((
        first,
        LoadGroup {
            addr: low.addr,
            dwords,
            uniform,
            members,
            unit,
        },
    ))
}

/// Two stores to one address keep their order: such a base is left alone.
fn repeats_an_address(list: &[Access]) -> bool {
    let mut offs: Vec<i64> = list.iter().map(|a| a.off).collect();
    offs.sort_unstable();
    offs.windows(2).any(|w| w[0] == w[1])
}

impl Coalesced {
    /// A load group, done by its first load (`leader`); the others are covered.
    fn add_loads(&mut self, leader: Value, g: LoadGroup) {
        for (m, _) in &g.members {
            if *m != leader {
                self.covered.insert(*m);
            }
        }
        self.loads.insert(leader, g);
    }

    /// The stores `run` of `list` as one group, done by the last of them in the block.
    fn add_stores(&mut self, insts: &[Value], list: &[Access], run: &[usize], unit: Unit) {
        let last = run.iter().map(|&k| list[k].pos).max().expect("a run");
        let store = insts[last];
        for &k in run {
            if insts[list[k].pos] != store {
                self.covered.insert(insts[list[k].pos]);
            }
        }
        self.stores.insert(
            store,
            StoreGroup {
                addr: list[run[0]].addr,
                values: run.iter().map(|&k| list[k].value).collect(),
                unit,
            },
        );
    }
}

/// The addresses of covered accesses that nothing else reads: selected for nothing.
fn dead_addresses(f: &Function, pos: &HashMap<Value, usize>, uses: &[u32], out: &mut Coalesced) {
    let mut left: HashMap<Value, u32> = HashMap::default();
    let mut work: Vec<Value> = out
        .covered
        .iter()
        .chain(out.loads.keys())
        .chain(out.stores.keys())
        .filter_map(|v| match f.inst(*v).op {
            Op::Load { addr, .. } | Op::Store { addr, .. } => Some(addr),
            _ => None,
        })
        .collect();
    // A group's message reads its address (its leader's own address, when another, is
    // read by nothing: the leader is in the work list above like a covered access).
    for a in out
        .loads
        .values()
        .map(|g| g.addr)
        .chain(out.stores.values().map(|g| g.addr))
    {
        *left.entry(a).or_insert(uses[a.0 as usize]) += 1;
    }
    while let Some(a) = work.pop() {
        let n = left.entry(a).or_insert(uses[a.0 as usize]);
        *n -= 1;
        // An address, or the arithmetic of its offset (`passes::ptradd_chains` leaves a
        // component's `x + 4k` beside its `ptradd`), read by nothing else.
        if *n == 0
            && pos.contains_key(&a)
            && matches!(f.inst(a).op, Op::PtrAdd(..) | Op::Bin(..) | Op::Conv(..))
        {
            out.dead.insert(a);
            work.extend(f.inst(a).op.operands().iter());
        }
    }
}
