//! Text form of the IR, for `gencl compile --ir` and test failure messages.

use super::{Function, Term};
use std::fmt::Write;

pub fn print(f: &Function) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "kernel {}({:?})", f.name, f.args);
    for (i, b) in f.blocks.iter().enumerate() {
        let _ = writeln!(s, "bb{i}:");
        for v in &b.insts {
            let inst = f.inst(*v);
            let _ = writeln!(s, "  {v}: {:?} = {:?}", inst.ty, inst.op);
        }
        let _ = match &b.term {
            Term::Br(t) => writeln!(s, "  br {t}"),
            Term::CondBr(c, t, e) => writeln!(s, "  br {c}, {t}, {e}"),
            Term::Ret => writeln!(s, "  ret"),
            Term::None => writeln!(s, "  <no terminator>"),
        };
    }
    s
}
