//! The IR's text form: what `GENCL_DUMP_IR` prints between passes and what pass tests
//! are written in (`parse.rs` reads it back). One instruction a line:
//!
//! ```text
//! kernel name(i32, ptr.global)
//! bb0:
//!   %3 = i32 bin add %1, %2
//!   store %4, %3, align 4, bytes 4
//!   br bb1
//! ```
//!
//! Values keep their index in the function (`%N`), so a pass's output prints with the
//! numbers of its input.

use super::*;
use std::fmt::Write;

pub fn ty_name(t: Ty) -> &'static str {
    match t {
        Ty::Bool => "bool",
        Ty::I8 => "i8",
        Ty::I16 => "i16",
        Ty::I32 => "i32",
        Ty::I64 => "i64",
        Ty::F16 => "f16",
        Ty::F32 => "f32",
        Ty::F64 => "f64",
        Ty::Ptr(Space::Global) => "ptr.global",
        Ty::Ptr(Space::Constant) => "ptr.constant",
        Ty::Ptr(Space::Local) => "ptr.local",
        Ty::Ptr(Space::Private) => "ptr.private",
        Ty::Ptr(Space::Generic) => "ptr.generic",
        Ty::Void => "void",
    }
}

pub fn bin_name(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add => "add",
        Sub => "sub",
        Mul => "mul",
        MulHi { signed: true } => "mulhi.s",
        MulHi { signed: false } => "mulhi.u",
        Div { signed: true } => "div.s",
        Div { signed: false } => "div.u",
        Rem { signed: true } => "rem.s",
        Rem { signed: false } => "rem.u",
        FAdd => "fadd",
        FSub => "fsub",
        FMul => "fmul",
        FDiv => "fdiv",
        And => "and",
        Or => "or",
        Xor => "xor",
        Shl => "shl",
        LShr => "lshr",
        AShr => "ashr",
        Min { signed: true } => "min.s",
        Min { signed: false } => "min.u",
        Max { signed: true } => "max.s",
        Max { signed: false } => "max.u",
        FMin => "fmin",
        FMax => "fmax",
    }
}

pub fn cmp_name(op: CmpOp) -> String {
    match op {
        CmpOp::Lt { signed } => format!("lt.{}", if signed { 's' } else { 'u' }),
        CmpOp::Le { signed } => format!("le.{}", if signed { 's' } else { 'u' }),
        CmpOp::Gt { signed } => format!("gt.{}", if signed { 's' } else { 'u' }),
        CmpOp::Ge { signed } => format!("ge.{}", if signed { 's' } else { 'u' }),
        other => format!("{other:?}").to_lowercase(),
    }
}

fn op_text(op: &Op) -> String {
    match op {
        Op::Const(bits) => format!("const {bits:#x}"),
        Op::Arg(n) => format!("arg {n}"),
        Op::ArgAt { arg, offset, bytes } => format!("arg_at {arg}, {offset}, {bytes}"),
        Op::ArgAddr(n) => format!("arg_addr {n}"),
        Op::ConstData(n) => format!("const_data {n}"),
        Op::PrivateBase => "private_base".into(),
        Op::PrintfBuffer => "printf_buffer".into(),
        Op::Printf { format, args } => {
            let a: Vec<String> = args.iter().map(|v| v.to_string()).collect();
            format!("printf {format}, [{}]", a.join(", "))
        }
        Op::GlobalVars => "global_vars".into(),
        Op::ScratchBase => "scratch_base".into(),
        Op::Alloca { bytes, align } => format!("alloca {bytes}, align {align}"),
        Op::RegArray { bytes, elem } => format!("reg_array {bytes}, elem {elem}"),
        Op::Builtin(b, d) => format!("builtin {b:?} {d}"),
        Op::Bin(o, a, b) => format!("bin {} {a}, {b}", bin_name(*o)),
        Op::Un(o, a) => format!("un {o:?} {a}").to_lowercase(),
        Op::Mad(a, b, c) => format!("mad {a}, {b}, {c}"),
        Op::Cmp(o, a, b) => format!("cmp {} {a}, {b}", cmp_name(*o)),
        Op::Select(c, a, b) => format!("select {c}, {a}, {b}"),
        Op::Conv(o, a) => format!("conv {o:?} {a}").to_lowercase(),
        Op::ConvRound(o, a, r) => format!("conv_round {o:?} {r:?} {a}").to_lowercase(),
        Op::PtrAdd(a, b) => format!("ptradd {a}, {b}"),
        Op::Load { addr, align, bytes } => format!("load {addr}, align {align}, bytes {bytes}"),
        Op::Store {
            addr,
            value,
            align,
            bytes,
        } => format!("store {addr}, {value}, align {align}, bytes {bytes}"),
        Op::Phi(ins) => {
            let parts: Vec<String> = ins.iter().map(|(b, v)| format!("[{b}: {v}]")).collect();
            format!("phi {}", parts.join(", "))
        }
        Op::Atomic(o, a, b) => format!("atomic {o:?} {a}, {b}").to_lowercase(),
        Op::CmpXchg { addr, cmp, value } => format!("cmpxchg {addr}, {cmp}, {value}"),
        Op::FillInactive(a, b) => format!("fill_inactive {a}, {b}"),
        Op::LaneScan {
            op,
            x,
            identity,
            exclusive,
        } => format!(
            "lane_scan{} {} {x}, {identity}",
            if *exclusive { ".excl" } else { "" },
            bin_name(*op)
        ),
        Op::ReadLane(a, k) => format!("read_lane {a}, {k}"),
        Op::Shuffle(a, b) => format!("shuffle {a}, {b}"),
        Op::Barrier => "barrier".into(),
        Op::Fence => "fence".into(),
        Op::AtomicFence(a) => format!("atomic_fence {a}"),
        Op::Yield => "yield".into(),
        Op::ImageRead {
            image,
            sampler,
            coords,
            channel,
        } => {
            let c: Vec<String> = coords.iter().map(|v| v.to_string()).collect();
            match sampler {
                Some(s) => format!(
                    "image_sample {image}, sampler {s}, channel {channel}, [{}]",
                    c.join(", ")
                ),
                None => format!("image_load {image}, channel {channel}, [{}]", c.join(", ")),
            }
        }
        Op::ImageWrite {
            image,
            coords,
            values,
        } => {
            let c: Vec<String> = coords.iter().map(|v| v.to_string()).collect();
            let d: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            format!(
                "image_write {image}, [{}], [{}]",
                c.join(", "),
                d.join(", ")
            )
        }
        Op::ImageBlockRead { image, x, y } => format!("image_block_read {image}, [{x}, {y}]"),
        Op::ImageBlockWrite { image, x, y, value } => {
            format!("image_block_write {image}, [{x}, {y}], [{value}]")
        }
        Op::ImageParam { arg, param } => format!("image_param {arg}, {param:?}"),
    }
}

pub fn print(f: &Function) -> String {
    let mut s = String::new();
    let args: Vec<&str> = f.args.iter().map(|t| ty_name(*t)).collect();
    let _ = writeln!(s, "kernel {}({})", f.name, args.join(", "));
    for (i, b) in f.blocks.iter().enumerate() {
        let _ = writeln!(s, "bb{i}:");
        for v in &b.insts {
            let inst = f.inst(*v);
            if inst.ty == Ty::Void {
                let _ = writeln!(s, "  {}", op_text(&inst.op));
            } else {
                let _ = writeln!(s, "  {v} = {} {}", ty_name(inst.ty), op_text(&inst.op));
            }
        }
        let _ = match &b.term {
            Term::Br(t) => writeln!(s, "  br {t}"),
            Term::CondBr(c, t, e) => writeln!(s, "  br {c}, {t}, {e}"),
            Term::Ret => writeln!(s, "  ret"),
            Term::None => writeln!(s, "  unterminated"),
        };
    }
    s
}
