//! SIMD control flow for any reducible CFG, with Gen8+'s `goto`/`join` and `while`
//! (what IGC emits on Gen9): blocks in the order of `layout.rs`; an edge to the next
//! block in that order falls through, any other forward edge is a `goto` that parks
//! the channels taking it until the thread's IP reaches the target's `join`; a loop's
//! back edges reach its end, where a `while` takes the channels still looping back
//! to the header. Exits from loops (break, return from inside) are forward gotos,
//! so they need no structure of their own.
//!
//! A `goto` sends the channels whose predicate is false to UIP (BDW/SKL; IGC's
//! vISA flips forward gotos' predicates for these parts); its JIP, and every
//! `join`'s, is the next join point, where the thread goes when no channel is left
//! enabled. Phi copies on a conditional edge are predicated on that edge's side of
//! the branch, so no edge needs splitting.

use super::ssa_copies::Copies;
use super::*;
use crate::analysis::LoopForest;
use crate::mir::{Item, Label, MInst};

/// Where an edge leads in the emitted code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Point {
    Block(Block),
    /// The `while` at the end of a loop (its back edges).
    LoopEnd(usize),
}

pub(super) struct Flow {
    order: Vec<Block>,
    pos: Vec<usize>,
    loops: LoopForest,
    /// The label at each block's start (goto targets).
    block_label: Vec<Label>,
    /// Each loop's label at its header (the while's target) and before its while.
    head_label: Vec<Label>,
    end_label: Vec<Label>,
    /// Loops that end after each position of the order, innermost first.
    ends_after: Vec<Vec<usize>>,
    /// Whether a goto reaches each point (a join is emitted there).
    block_joined: Vec<bool>,
    end_joined: Vec<bool>,
    /// Loops whose last block ends in the loop's only exit test: a predicated while
    /// (`(f0.0) while` or `(~f0.0) while`) does both edges.
    fused_while: Vec<Option<bool>>,
}

impl Sel<'_> {
    /// Emit the whole function.
    pub(super) fn emit_cfg(&mut self) -> Result<(), IselError> {
        let loops = LoopForest::new(self.f, &self.cfg).map_err(IselError::Unsupported)?;
        let order = super::layout::order(self.f, &self.cfg, &loops);
        let n = self.f.blocks.len();
        let mut pos = vec![usize::MAX; n];
        for (i, b) in order.iter().enumerate() {
            pos[b.0 as usize] = i;
        }
        let mut ends_after = vec![Vec::new(); order.len()];
        for (l, lp) in loops.loops.iter().enumerate() {
            let last = order
                .iter()
                .rposition(|b| lp.contains[b.0 as usize])
                .expect("a loop has blocks");
            ends_after[last].push(l);
        }
        for e in &mut ends_after {
            // Innermost first: a loop nested in another ends no later and is smaller.
            e.sort_by_key(|&l| loops.loops[l].contains.iter().filter(|c| **c).count());
        }
        let block_label = (0..n).map(|_| self.m.new_label()).collect();
        let head_label = (0..loops.loops.len()).map(|_| self.m.new_label()).collect();
        let end_label = (0..loops.loops.len()).map(|_| self.m.new_label()).collect();
        let mut flow = Flow {
            order,
            pos,
            block_label,
            head_label,
            end_label,
            ends_after,
            block_joined: vec![false; n],
            end_joined: vec![false; loops.loops.len()],
            fused_while: vec![None; loops.loops.len()],
            loops,
        };
        flow.plan(self.f);
        for i in 0..flow.order.len() {
            let b = flow.order[i];
            if let Some(l) = flow.loops.headed_by[b.0 as usize] {
                self.m.items.push(Item::LoopStart(flow.head_label[l]));
                self.label(flow.head_label[l]);
            }
            if flow.block_joined[b.0 as usize] {
                self.join(flow.block_label[b.0 as usize]);
            }
            self.block_body(b)?;
            let negated = self.terminator(&flow, i)?;
            for l in flow.ends_after[i].clone() {
                if flow.end_joined[l] {
                    self.join(flow.end_label[l]);
                }
                let mut w = Inst::new(Opcode::While, self.simd);
                let flip = negated && flow.fused_at(i) == Some(l);
                w.predicate = flow.fused_while[l].map(|inverse| Predicate {
                    ctrl: PredCtrl::Normal,
                    inverse: inverse ^ flip,
                });
                self.branch(w, Some(flow.head_label[l]), None);
                self.m.items.push(Item::LoopEnd(flow.head_label[l]));
            }
        }
        resolve_jips(&mut self.m.items);
        Ok(())
    }

    fn join(&mut self, l: Label) {
        self.label(l);
        // JIP is filled in by `resolve_jips`.
        self.branch(Inst::new(Opcode::Join, self.simd), None, None);
    }

    fn branch(&mut self, inst: Inst, jip: Option<Label>, uip: Option<Label>) {
        self.m.items.push(Item::Inst(MInst {
            inst,
            dst: None,
            srcs: [None; 3],
            jip,
            uip,
        }));
    }

    /// `goto` sending the channels whose predicate (f0.0, inverted if `inverse`) is false
    /// to `to`; with no predicate every enabled channel jumps.
    fn goto(&mut self, flow: &Flow, to: Point, pred: Option<bool>) {
        let inverse = match pred {
            Some(inv) => inv,
            None => {
                // An all-false f0.0 (f0 whole, 32 bits, in SIMD32): every channel jumps
                // (IGC's unconditional goto).
                let t = if self.simd == 32 { Type::UD } else { Type::UW };
                let mut i = Inst::new(Opcode::Mov, 1);
                i.no_mask = true;
                i.dst = Some(arf_dst(0x30, t));
                i.srcs[0] = Some(imm(t, 0));
                self.push(i, None, [None; 3]);
                false
            }
        };
        let mut g = Inst::new(Opcode::Goto, self.simd);
        g.predicate = Some(Predicate {
            ctrl: PredCtrl::Normal,
            inverse,
        });
        self.branch(g, None, Some(flow.label_of(to)));
    }

    /// The block's branch; true when it ends in a fused while's test whose flag holds the
    /// negated condition (`flag_from_bool`), for the while's predicate to read inverted.
    fn terminator(&mut self, flow: &Flow, i: usize) -> Result<bool, IselError> {
        let b = flow.order[i];
        let next = flow.next_point(i);
        match self.f.block(b).term.clone() {
            Term::None => unsupported("a block without a terminator"),
            Term::Ret => {
                // The return block is laid out last: any other is a goto to it.
                if i + 1 != flow.order.len() {
                    return unsupported("a second return block");
                }
                Ok(false)
            }
            Term::Br(t) => {
                self.edge_copies(b, t, None, Copies::All)?;
                let to = flow.point(b, t);
                if Some(to) != next {
                    self.goto(flow, to, None);
                }
                Ok(false)
            }
            Term::CondBr(c, t, e) => {
                // f0.0 holds c, or !c (`negated`): each predicate below reads its side.
                let n = self.flag_from_bool(c)?;
                let copies = self.m.items.len();
                if self.is_uniform(c) {
                    self.edge_copies(b, t, Some(n), Copies::All)?;
                    self.edge_copies(b, e, Some(!n), Copies::All)?;
                } else {
                    // A divergent branch's scalar copies run whichever way the lanes go: they
                    // come after both sides' per-lane copies, which may read a scalar phi's
                    // old value (an exit block's phi of a loop header's phi).
                    for which in [Copies::Varying, Copies::Scalar] {
                        self.edge_copies(b, t, Some(n), which)?;
                        self.edge_copies(b, e, Some(!n), which)?;
                    }
                }
                self.merge_copies(copies);
                let (tp, ep) = (flow.point(b, t), flow.point(b, e));
                if let Some(l) = flow.fused_at(i) {
                    // The while's predicate picks the back edge; the others fall out of the loop.
                    debug_assert!(flow.fused_while[l].is_some());
                    return Ok(n);
                }
                if Some(tp) == next {
                    // Channels with c false jump to e.
                    self.goto(flow, ep, Some(n));
                } else if Some(ep) == next {
                    self.goto(flow, tp, Some(!n));
                } else {
                    self.goto(flow, ep, Some(n));
                    // Only the c channels are left: under ~f0.0 all of them jump.
                    self.goto(flow, tp, Some(!n));
                }
                Ok(false)
            }
        }
    }
}

impl Flow {
    fn label_of(&self, p: Point) -> Label {
        match p {
            Point::Block(b) => self.block_label[b.0 as usize],
            Point::LoopEnd(l) => self.end_label[l],
        }
    }

    /// Where the edge `from -> to` goes: a back edge to the end of the loop `to` heads.
    fn point(&self, from: Block, to: Block) -> Point {
        match self.loops.headed_by[to.0 as usize] {
            Some(l) if self.loops.contains(l, from) => Point::LoopEnd(l),
            _ => Point::Block(to),
        }
    }

    /// What follows block `order[i]` in the code: the end of the innermost loop that ends
    /// after it, else the next block.
    fn next_point(&self, i: usize) -> Option<Point> {
        if let Some(&l) = self.ends_after[i].first() {
            return Some(Point::LoopEnd(l));
        }
        self.order.get(i + 1).map(|b| Point::Block(*b))
    }

    /// The block after the whole of loop `l` (and of every loop ending with it).
    fn after_loop(&self, i: usize) -> Option<Point> {
        self.order.get(i + 1).map(|b| Point::Block(*b))
    }

    /// The loop whose `while` the conditional branch ending `order[i]` is fused into.
    fn fused_at(&self, i: usize) -> Option<usize> {
        let l = *self.ends_after[i].first()?;
        self.fused_while[l].map(|_| l)
    }

    /// Decide the fused whiles and which points need a join.
    fn plan(&mut self, f: &Function) {
        // A loop whose last block ends in `br c, header, exit` (or the reverse), where exit
        // is what follows the loop and nothing else goes around the back edge: `(f0.0) while`.
        for i in 0..self.order.len() {
            let [l] = self.ends_after[i][..] else {
                continue;
            };
            let b = self.order[i];
            if let Term::CondBr(_, t, e) = f.block(b).term {
                let (tp, ep) = (self.point(b, t), self.point(b, e));
                let after = self.after_loop(i);
                let back_edges = (0..f.blocks.len())
                    .filter(|&x| {
                        self.pos[x] != usize::MAX
                            && f.successors(Block(x as u32))
                                .iter()
                                .any(|s| self.point(Block(x as u32), *s) == Point::LoopEnd(l))
                    })
                    .count();
                if back_edges == 1 {
                    if tp == Point::LoopEnd(l) && Some(ep) == after {
                        self.fused_while[l] = Some(false);
                    } else if ep == Point::LoopEnd(l) && Some(tp) == after {
                        self.fused_while[l] = Some(true);
                    }
                }
                // The channels a predicated while lets out wait at the next instruction,
                // which must be a join: the thread reaches it through the JIP chain when
                // the last channels leave the loop by a goto.
                if let (Some(_), Some(Point::Block(a))) = (self.fused_while[l], after) {
                    self.block_joined[a.0 as usize] = true;
                }
            }
        }
        // Every edge that is not a fall-through becomes a goto to a join.
        for i in 0..self.order.len() {
            let b = self.order[i];
            if self.fused_at(i).is_some() {
                continue;
            }
            let next = self.next_point(i);
            for s in f.successors(b) {
                let p = self.point(b, s);
                if Some(p) != next {
                    match p {
                        Point::Block(x) => self.block_joined[x.0 as usize] = true,
                        Point::LoopEnd(l) => self.end_joined[l] = true,
                    }
                }
            }
        }
    }
}

/// Each goto's and join's JIP: the next join in the code (the instruction after the
/// last join for the last one), where the thread goes when no channel is enabled.
fn resolve_jips(items: &mut [Item]) {
    let mut next_join: Option<Label> = None;
    // Walking backwards: set on a join, so that the label just before it names it.
    let mut after_join = false;
    for item in items.iter_mut().rev() {
        match item {
            Item::Inst(mi) => {
                after_join = false;
                match mi.inst.op {
                    Opcode::Goto => mi.jip = next_join,
                    Opcode::Join => {
                        mi.jip = next_join;
                        after_join = true;
                    }
                    _ => {}
                }
            }
            Item::Label(l) if after_join => {
                next_join = Some(*l);
                after_join = false;
            }
            _ => {}
        }
    }
}
