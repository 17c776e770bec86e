//! Out of SSA: a phi's inputs become copies into the phi's register on each incoming edge,
//! under the edge's predicate when the edge leaves a conditional branch.

use super::*;

/// Which phis of an edge to copy: a divergent branch copies its sides' per-lane phis first,
/// then its scalar ones (`flow.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Copies {
    All,
    Varying,
    Scalar,
}

impl Sel<'_> {
    /// Copies into the phis of `to` for the edge from `from` (one parallel copy, ordered);
    /// under f0.0 (inverted if `Some(true)`) when the edge is one side of a branch.
    pub(super) fn edge_copies(
        &mut self,
        from: Block,
        to: Block,
        pred: Option<bool>,
        which: Copies,
    ) -> Result<(), IselError> {
        let mut moves = Vec::new();
        for v in &self.f.block(to).insts {
            if let Op::Phi(ins) = &self.f.inst(*v).op {
                let scalar = self.is_uniform(*v);
                let wanted = match which {
                    Copies::All => true,
                    Copies::Varying => !scalar,
                    Copies::Scalar => scalar,
                };
                if let Some((_, src)) = ins.iter().find(|(p, _)| *p == from).filter(|_| wanted) {
                    moves.push((*v, *src));
                }
            }
        }
        // A uniform phi's copy is one channel without the execution mask. Under a uniform
        // branch it takes the edge's side from the flag (set on every channel); under a
        // divergent one it is made whichever way the lanes go: the phi's block is then
        // not where the two sides meet (uniform.rs), so no lane that leaves by the other
        // edge reads it.
        let uniform_branch = match self.f.block(from).term {
            Term::CondBr(c, ..) => self.is_uniform(c),
            _ => true,
        };
        let scalar_pred = if uniform_branch { pred } else { None };
        // The sources first (a 64-bit constant is materialised here, before any copy).
        let mut pending = Vec::with_capacity(moves.len());
        for (phi, src) in &moves {
            let t = isa_type(self.f.ty(*phi), false)?;
            let o = self.opnd(*src, t)?;
            let scalar = self.is_uniform(*phi);
            pending.push((self.phis[phi], t, o, scalar));
        }
        // A parallel copy made sequential (Boissinot et al.): a copy goes once no other
        // pending copy reads its destination; a cycle (phis that swap or rotate with no way
        // out) is broken by saving one destination in a temporary. A window of phis that
        // shifts by one each iteration is one copy per phi, not two.
        let reads = |o: &Opnd, r: VReg| o.vref.is_some_and(|x| x.v == r);
        pending.retain(|(dst, _, o, _)| !reads(o, *dst) || o.vref.is_some_and(|x| x.off != 0));
        while !pending.is_empty() {
            let free = (0..pending.len()).find(|&i| {
                let dst = pending[i].0;
                pending
                    .iter()
                    .enumerate()
                    .all(|(j, (_, _, o, _))| j == i || !reads(o, dst))
            });
            match free {
                Some(i) => {
                    let (dst, t, o, scalar) = pending.swap_remove(i);
                    self.phi_copy(dst, t, o, scalar, pred, scalar_pred);
                }
                None => {
                    let (dst, t, _, scalar) = pending[0];
                    let lanes = if scalar { 1 } else { u32::from(self.simd) };
                    let tmp = self.m.new_vreg(t.size().max(4) * lanes);
                    let saved = Opnd {
                        src: reg_src(0, 0, region_for(scalar, t), t),
                        vref: Some(VRef { v: dst, off: 0 }),
                        scalar,
                    };
                    self.phi_copy(tmp, t, saved, scalar, pred, scalar_pred);
                    for (_, _, o, _) in &mut pending {
                        if let Some(x) = o.vref.as_mut().filter(|x| x.v == dst) {
                            x.v = tmp;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// One copy of an edge: a scalar's under `scalar_pred`, a varying value's under `pred`.
    fn phi_copy(
        &mut self,
        dst: VReg,
        t: Type,
        o: Opnd,
        scalar: bool,
        pred: Option<bool>,
        scalar_pred: Option<bool>,
    ) {
        if scalar {
            self.mov_scalar(dst, t, o, scalar_pred);
        } else {
            self.mov_to(dst, t, o, pred);
        }
    }

    /// `(W) mov (1) dst o`, under f0.0's channel 0 when `pred` is given.
    fn mov_scalar(&mut self, dst: VReg, t: Type, o: Opnd, pred: Option<bool>) {
        self.mov_under(dst, t, o, pred, true);
    }

    pub(super) fn mov_to(&mut self, dst: VReg, t: Type, o: Opnd, pred: Option<bool>) {
        self.mov_under(dst, t, o, pred, false);
    }

    /// `mov dst o` over every lane, or (`scalar`) one channel without the mask; under f0.0
    /// (inverted if `Some(true)`) when `pred` is given.
    fn mov_under(&mut self, dst: VReg, t: Type, o: Opnd, pred: Option<bool>, scalar: bool) {
        let mut i = Inst::new(Opcode::Mov, if scalar { 1 } else { self.simd });
        i.no_mask = scalar;
        i.predicate = pred.map(|inverse| Predicate {
            ctrl: PredCtrl::Normal,
            inverse,
        });
        i.dst = Some(grf_dst(0, 0, t));
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: dst, off: 0 }), [o.vref, None, None]);
    }
}

impl Sel<'_> {
    /// A branch's copies from `start` on: two of one source into one register, one under
    /// the flag and one under its inverse (phis of the two sides that share a register),
    /// are one copy on every lane. The first loses its predicate and the second goes, where
    /// nothing between them touches the register or writes the source.
    pub(super) fn merge_copies(&mut self, start: usize) {
        let mut i = start;
        while i < self.m.items.len() {
            let Item::Inst(a) = &self.m.items[i] else {
                i += 1;
                continue;
            };
            let (Some(pa), Some(dst)) = (a.inst.predicate, a.dst) else {
                i += 1;
                continue;
            };
            if a.inst.op != Opcode::Mov || a.inst.no_mask {
                i += 1;
                continue;
            }
            let src = a.srcs[0];
            let mut twin = None;
            for j in i + 1..self.m.items.len() {
                let Item::Inst(b) = &self.m.items[j] else {
                    break;
                };
                let mut same = b.inst.clone();
                same.predicate = same.predicate.map(|p| Predicate {
                    inverse: !p.inverse,
                    ..p
                });
                if same == a.inst
                    && b.dst == a.dst
                    && b.srcs[0] == src
                    && pa.ctrl == PredCtrl::Normal
                {
                    twin = Some(j);
                    break;
                }
                let touches = |r: &Option<VRef>| r.is_some_and(|r| r.v == dst.v);
                let writes_src = b.dst.is_some_and(|d| src.is_some_and(|s| s.v == d.v));
                if touches(&b.dst) || b.srcs.iter().any(touches) || writes_src {
                    break;
                }
            }
            if let Some(j) = twin {
                self.m.items.remove(j);
                if let Item::Inst(a) = &mut self.m.items[i] {
                    a.inst.predicate = None;
                }
            }
            i += 1;
        }
    }
}
