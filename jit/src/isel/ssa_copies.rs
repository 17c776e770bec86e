//! Out of SSA: a phi's inputs become copies into the phi's register on each incoming edge,
//! under the edge's predicate when the edge leaves a conditional branch.

use super::*;

impl Sel<'_> {
    /// Copies into the phis of `to` for the edge from `from` (parallel: through temporaries);
    /// under f0.0 (inverted if `Some(true)`) when the edge is one side of a branch.
    pub(super) fn edge_copies(
        &mut self,
        from: Block,
        to: Block,
        pred: Option<bool>,
    ) -> Result<(), IselError> {
        let mut moves = Vec::new();
        for v in &self.f.block(to).insts {
            if let Op::Phi(ins) = &self.f.inst(*v).op {
                if let Some((_, src)) = ins.iter().find(|(p, _)| *p == from) {
                    moves.push((*v, *src));
                }
            }
        }
        let mut temps = Vec::new();
        for (phi, src) in &moves {
            let ty = self.f.ty(*phi);
            let t = isa_type(ty, false)?;
            let o = self.opnd(*src, t)?;
            let tmp = if moves.len() > 1 {
                self.m.new_vreg(ty.bytes().max(4) * self.simd as u32)
            } else {
                self.phis[phi]
            };
            self.mov_to(tmp, t, o, pred);
            temps.push((tmp, t));
        }
        if moves.len() > 1 {
            for ((phi, _), (tmp, t)) in moves.iter().zip(temps) {
                let o = Opnd {
                    src: reg_src(0, 0, region_for(false, t), t),
                    vref: Some(VRef { v: tmp, off: 0 }),
                    scalar: false,
                };
                let dst = self.phis[phi];
                self.mov_to(dst, t, o, pred);
            }
        }
        Ok(())
    }

    pub(super) fn mov_to(&mut self, dst: VReg, t: Type, o: Opnd, pred: Option<bool>) {
        let mut i = Inst::new(Opcode::Mov, self.simd);
        i.predicate = pred.map(|inverse| Predicate {
            ctrl: PredCtrl::Normal,
            inverse,
        });
        i.dst = Some(grf_dst(0, 0, t));
        i.srcs[0] = Some(o.src);
        self.push(i, Some(VRef { v: dst, off: 0 }), [o.vref, None, None]);
    }
}
