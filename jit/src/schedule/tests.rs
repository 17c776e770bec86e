//! The scheduler on machine IR written before and after.

use super::{schedule as schedule_with, Pressure};
use crate::isa::gen9::send::{a64_untyped_read_desc, a64_untyped_write_desc, message};
use crate::isa::{CondMod, Inst, Opcode, PredCtrl, Predicate, Region, Type};
use crate::isel::{grf_dst, reg_src};
use crate::mir::{Item, MFunction, MInst, VRef, VReg};

fn schedule(m: &mut MFunction) -> bool {
    schedule_with(m, Pressure::Loose)
}

fn v(n: u32) -> Option<VRef> {
    Some(VRef { v: VReg(n), off: 0 })
}

fn func(items: Vec<Item>) -> MFunction {
    let mut m = MFunction {
        first_free_grf: 8,
        ..Default::default()
    };
    for _ in 0..32 {
        m.new_vreg(64);
    }
    m.items = items;
    m
}

/// `v[d] = load(v[a])`, SIMD16 A64.
fn load(d: u32, a: u32) -> Item {
    let mut i = message(Opcode::Send, 16, a64_untyped_read_desc(16, 1));
    i.dst = Some(grf_dst(0, 0, Type::UD));
    Item::Inst(MInst {
        inst: i,
        dst: v(d),
        srcs: [v(a), None, None],
        jip: None,
        uip: None,
    })
}

/// `store(v[p])`, address and data in one payload.
fn store(p: u32) -> Item {
    let i = message(Opcode::Send, 16, a64_untyped_write_desc(16, 1));
    Item::Inst(MInst {
        inst: i,
        dst: None,
        srcs: [v(p), None, None],
        jip: None,
        uip: None,
    })
}

fn alu(op: Opcode, d: u32, a: u32, b: u32) -> Item {
    let mut i = Inst::new(op, 16);
    i.dst = Some(grf_dst(0, 0, Type::F));
    i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::F));
    i.srcs[1] = Some(reg_src(0, 0, Region::contiguous(8), Type::F));
    Item::Inst(MInst {
        inst: i,
        dst: v(d),
        srcs: [v(a), v(b), None],
        jip: None,
        uip: None,
    })
}

/// Each item as the virtual register it writes (`s` a store, `L` a label, `f` a flag write
/// to nowhere).
fn shape(m: &MFunction) -> Vec<String> {
    m.items
        .iter()
        .map(|i| match i {
            Item::Inst(mi) => match (mi.dst, mi.inst.send.is_some()) {
                (Some(d), true) => format!("load{}", d.v.0),
                (Some(d), false) => format!("v{}", d.v.0),
                (None, true) => "store".into(),
                (None, false) => "flag".into(),
            },
            Item::Label(_) => "L".into(),
            _ => "loop".into(),
        })
        .collect()
}

#[test]
fn independent_loads_go_first_and_their_uses_after() {
    // Before: each load's reply used at once (the model waits 200 cycles twice).
    let mut m = func(vec![
        load(1, 20),
        alu(Opcode::Add, 2, 1, 1),
        load(3, 21),
        alu(Opcode::Add, 4, 3, 3),
        alu(Opcode::Mul, 5, 2, 4),
        store(5),
    ]);
    assert!(schedule(&mut m));
    // After: both loads in flight at once.
    assert_eq!(
        shape(&m),
        ["load1", "load3", "v2", "v4", "v5", "store"],
        "{:#?}",
        m.items
    );
}

#[test]
fn memory_keeps_its_order_where_a_message_writes_it() {
    // A load, a store, a load: the store may write what either load reads.
    let mut m = func(vec![
        load(1, 20),
        alu(Opcode::Add, 2, 1, 1),
        store(2),
        load(3, 21),
        alu(Opcode::Add, 4, 3, 3),
        store(4),
    ]);
    schedule(&mut m);
    let s = shape(&m);
    let at = |x: &str| s.iter().position(|y| y == x).unwrap();
    assert!(
        at("load1") < at("store") && at("store") < at("load3"),
        "{s:?}"
    );
    assert_eq!(s.iter().filter(|x| *x == "store").count(), 2);
}

#[test]
fn nothing_crosses_a_label() {
    let mut m = func(vec![
        load(1, 20),
        alu(Opcode::Add, 2, 1, 1),
        Item::Label(crate::mir::Label(0)),
        load(3, 21),
        alu(Opcode::Add, 4, 3, 3),
        alu(Opcode::Add, 5, 4, 2),
    ]);
    schedule(&mut m);
    assert_eq!(shape(&m), ["load1", "v2", "L", "load3", "v4", "v5"]);
}

#[test]
fn a_flag_is_read_before_the_next_compare_writes_it() {
    // cmp.l f0 v1 v2; (+f0) sel v3; load; cmp.g f0 v1 v2; (+f0) sel v4: the second compare
    // may not pass the first select, though the load (long) would pull work forward.
    let cmp = |c| {
        let Item::Inst(mut mi) = alu(Opcode::Cmp, 0, 1, 2) else {
            unreachable!()
        };
        mi.dst = None;
        mi.inst.dst = Some(crate::isel::null_dst(Type::F));
        mi.inst.cond_mod = Some(c);
        Item::Inst(mi)
    };
    let sel = |d| {
        let Item::Inst(mut mi) = alu(Opcode::Sel, d, 1, 2) else {
            unreachable!()
        };
        mi.inst.predicate = Some(Predicate {
            ctrl: PredCtrl::Normal,
            inverse: false,
        });
        Item::Inst(mi)
    };
    let mut m = func(vec![
        cmp(CondMod::L),
        sel(3),
        load(6, 20),
        cmp(CondMod::G),
        sel(4),
        alu(Opcode::Add, 7, 6, 4),
    ]);
    schedule(&mut m);
    let s = shape(&m);
    let flags: Vec<_> = s
        .iter()
        .filter(|x| *x == "flag" || *x == "v3" || *x == "v4")
        .collect();
    assert_eq!(flags, ["flag", "v3", "flag", "v4"], "{s:?}");
    assert_eq!(s[0], "load6", "the load goes first: {s:?}");
}

#[test]
fn a_message_follows_its_address() {
    // Three addresses computed first, then their loads: each address would hold its register
    // until the loads start. After: each load right after its address (the chain made ready
    // last goes first among equally long paths), and the replies used after all three.
    let mut m = func(vec![
        alu(Opcode::Add, 20, 10, 10),
        alu(Opcode::Add, 21, 11, 11),
        alu(Opcode::Add, 22, 12, 12),
        load(1, 20),
        load(2, 21),
        load(3, 22),
        alu(Opcode::Add, 4, 1, 2),
        alu(Opcode::Add, 5, 4, 3),
        store(5),
    ]);
    assert!(schedule(&mut m));
    let s = shape(&m);
    assert_eq!(
        &s[..6],
        ["v20", "load1", "v21", "load2", "v22", "load3"],
        "{s:?}"
    );
}

/// The bytes of registers live at once at the most, over `m`'s items in order.
fn peak_bytes(m: &MFunction) -> u32 {
    let live = crate::analysis::liveness::intervals(m);
    let mut delta = vec![0i64; m.items.len() + 1];
    for (v, info) in m.vregs.iter().enumerate() {
        if live.start[v] != usize::MAX {
            delta[live.start[v]] += i64::from(info.bytes);
            delta[live.end[v] + 1] -= i64::from(info.bytes);
        }
    }
    let (mut sum, mut peak) = (0i64, 0i64);
    for d in delta {
        sum += d;
        peak = peak.max(sum);
    }
    peak as u32
}

#[test]
fn replies_read_piece_by_piece_are_used_before_more_are_loaded() {
    // Twelve float4 loads of sixteen GRFs each summed into four accumulators (the unrolled
    // `s += in[i + k * n]` of clpeak's bandwidth kernel at SIMD32), each load's address
    // computed from values live into the block. Every reply is read by four adds, a quarter
    // at each, so none of them frees the reply alone: if the scheduler only counted a
    // register freed at its last reader, under pressure it would compute the addresses
    // first (each frees as little) and leave the replies in flight, needing more registers
    // than the file has. After: as many loads in flight as the registers hold.
    let mut m = MFunction {
        first_free_grf: 8,
        ..Default::default()
    };
    let base = m.new_vreg(64);
    let step = m.new_vreg(64);
    let mut items = Vec::new();
    let mut acc: Vec<Option<VReg>> = vec![None; 4];
    let read = |item: Item, k: usize, r: VReg, off: u32| {
        let Item::Inst(mut mi) = item else {
            unreachable!()
        };
        mi.srcs[k] = Some(VRef { v: r, off });
        Item::Inst(mi)
    };
    for _ in 0..12 {
        let a = m.new_vreg(64);
        items.push(alu(Opcode::Add, a.0, base.0, step.0));
        let r = m.new_vreg(512);
        items.push(load(r.0, a.0));
        for (j, acc) in acc.iter_mut().enumerate() {
            let d = m.new_vreg(128);
            let prev = acc.unwrap_or(r);
            let add = read(alu(Opcode::Add, d.0, prev.0, r.0), 1, r, 128 * j as u32);
            items.push(if acc.is_none() {
                read(add, 0, r, 128 * j as u32)
            } else {
                add
            });
            *acc = Some(d);
        }
    }
    let sum = m.new_vreg(128);
    items.push(alu(
        Opcode::Add,
        sum.0,
        acc[0].unwrap().0,
        acc[1].unwrap().0,
    ));
    items.push(store(sum.0));
    m.items = items;
    // As written, each reply is summed before the next load: one load in flight.
    assert!(schedule(&mut m));
    let peak = peak_bytes(&m);
    // Within the 119 GRFs after the payload (counted at the last reader only, the addresses
    // go first and the peak is 124 GRFs).
    assert!(peak <= 119 * 32, "{peak} bytes live: {:?}", shape(&m));
}
