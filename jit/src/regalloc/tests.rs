//! The allocator on machine IR written for the case.

use crate::isa::{Inst, Opcode, Region, Type};
use crate::isel::{grf_dst, reg_src};
use crate::mir::{Item, MFunction, MInst, VRef, VReg};

/// `d = a + b`, SIMD16 floats.
fn add(d: VReg, a: VReg, b: VReg) -> Item {
    let mut i = Inst::new(Opcode::Add, 16);
    i.dst = Some(grf_dst(0, 0, Type::F));
    i.srcs[0] = Some(reg_src(0, 0, Region::contiguous(8), Type::F));
    i.srcs[1] = Some(reg_src(0, 0, Region::contiguous(8), Type::F));
    let r = |v| Some(VRef { v, off: 0 });
    Item::Inst(MInst {
        inst: i,
        dst: r(d),
        srcs: [r(a), r(b), None],
        jip: None,
        uip: None,
    })
}

#[test]
fn a_large_register_finds_room_that_first_fit_scattered() {
    // Twelve GRFs free (r115-r126). A four-GRF value p dies at once; a one-GRF value q lives
    // throughout. First fit puts p at r115-r118 and q after it at r119, so when p is dead the
    // free GRFs are r115-r118 and r121-r126 (r is at r120): no ten in a row for d, though
    // q, r and d are twelve. Placing the large ones from the top and the small from the
    // bottom keeps the free GRFs together.
    let mut m = MFunction {
        first_free_grf: 115,
        ..Default::default()
    };
    let p = m.new_vreg(4 * 32);
    let q = m.new_vreg(32);
    let r = m.new_vreg(32);
    let d = m.new_vreg(10 * 32);
    let t = m.new_vreg(32);
    m.items = vec![add(p, q, q), add(r, p, p), add(d, r, r), add(t, d, q)];
    let a = super::allocate_without_spilling(&m).expect("twelve GRFs hold twelve");
    crate::mir::verify::verify_assigned(&m, &a.base).unwrap();
    assert_eq!(a.base[d.0 as usize], 117 * 32);
    assert_eq!(a.spill_bytes, 0);
}
