//! Disassembly in exactly the text `iga64 -d -p=9` prints.
//!
//! IGA lays an instruction out in fixed-width columns (predication 7,
//! mnemonic+exec size 13, flag modifier 9, dst 12, sources 16; for sends dst
//! 7, sources 6, descriptors 10); a column that overflows puts the excess in
//! a "debt" later padding repays. IGA counts only some output towards a
//! column: immediates, labels and send descriptors are written around the
//! counter, so they never fill their column. This module reproduces that
//! layout, quirks included, because the goal is byte-identical text.

use super::encoding::*;
use super::opcodes::{self, Form};
use super::send;
use super::DecodeError;
use crate::*;

struct Out {
    s: String,
    cap: Option<usize>,
    size: usize,
    debt: usize,
}

impl Out {
    fn new() -> Out {
        Out {
            s: String::new(),
            cap: None,
            size: 0,
            debt: 0,
        }
    }
    /// Text counted towards the current column.
    fn emit(&mut self, t: &str) {
        self.s.push_str(t);
        self.size += t.len();
    }
    /// Text IGA writes straight to the stream, past the column counter.
    fn raw(&mut self, t: &str) {
        self.s.push_str(t);
    }
    fn spaces(&mut self, n: usize) {
        for _ in 0..n {
            self.s.push(' ');
        }
        self.size += n;
    }
    fn start(&mut self, cap: usize) {
        self.cap = Some(cap);
        self.size = 0;
    }
    fn finish(&mut self) {
        let cap = self.cap.take().unwrap_or(0);
        if self.size <= cap {
            let mut pad = cap - self.size;
            let corr = self.debt.min(pad);
            pad -= corr;
            self.debt -= corr;
            self.spaces(pad);
        } else {
            self.debt += self.size - cap;
        }
        self.size = 0;
    }
}

const COL_PRED: usize = 7;
const COL_OP: usize = 13;
const COL_FLAG: usize = 9;
const COL_DST: usize = 12;
const COL_SRC: usize = 16;
const COL_SEND_DST: usize = 7;
const COL_SEND_SRC: usize = 6;
const COL_SEND_DESC: usize = 10;

fn type_name(t: Type) -> &'static str {
    match t {
        Type::UD => ":ud",
        Type::D => ":d",
        Type::UW => ":uw",
        Type::W => ":w",
        Type::UB => ":ub",
        Type::B => ":b",
        Type::UQ => ":uq",
        Type::Q => ":q",
        Type::HF => ":hf",
        Type::F => ":f",
        Type::DF => ":df",
        Type::V => ":v",
        Type::UV => ":uv",
        Type::VF => ":vf",
    }
}

/// IGA's name of an ARF register number: (prefix, has number, has subregisters).
fn arf_name(nr: u8) -> (String, bool) {
    let n = nr & 0xF;
    match nr >> 4 {
        0x0 => ("null".into(), false),
        0x1 => (format!("a{n}"), true),
        0x2 => (format!("acc{n}"), true),
        0x3 => (format!("f{n}"), true),
        0x4 => ("ce".into(), false),
        0x5 => (format!("msg{n}"), true),
        0x6 => ("sp".into(), true),
        0x7 => (format!("sr{n}"), true),
        0x8 => (format!("cr{n}"), true),
        0x9 => (format!("n{n}"), true),
        0xA => ("ip".into(), false),
        0xB => (format!("tdr{n}"), true),
        0xC => (format!("tm{n}"), true),
        0xD => (format!("fc{n}"), true),
        0xF => (format!("dbg{n}"), true),
        _ => (format!("arf{nr:#x}"), true),
    }
}

/// "r5.0", "null", "acc0.0"...; subregister in elements of `ty`.
fn reg_text(file: RegFile, nr: u8, subreg_bytes: u8, ty: Type, with_subreg: bool) -> String {
    let elem = subreg_bytes as u32 / ty.size().max(1);
    match file {
        RegFile::Grf => {
            if with_subreg || elem != 0 {
                format!("r{nr}.{elem}")
            } else {
                format!("r{nr}")
            }
        }
        RegFile::Arf => {
            let (name, subs) = arf_name(nr);
            if (with_subreg && subs) || elem != 0 {
                format!("{name}.{elem}")
            } else {
                name
            }
        }
    }
}

fn hex(v: u64) -> String {
    format!("0x{v:X}")
}

fn hex_w(v: u64, w: usize) -> String {
    format!("0x{v:0w$X}")
}

/// C's `%g` with the default precision 6 (what `ostream << double` prints).
fn fmt_g(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let e = format!("{:.5e}", x);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        let s = format!("{:.*}", (5 - exp) as usize, x);
        strip_zeros(&s)
    } else {
        format!(
            "{}e{}{:02}",
            strip_zeros(mant),
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    }
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// C++ `std::scientific` with precision 6.
fn fmt_e(x: f64) -> String {
    let e = format!("{:.6e}", x);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    format!(
        "{}e{}{:02}",
        mant,
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

/// IGA's float formatting: shortest of %g / %e that reparses exactly, else hex.
fn fmt_float(x: f64, is_f32: bool, bits: u64, mant_bits: u32) -> String {
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if x.is_nan() {
        let sign = bits >> (mant_bits + if is_f32 { 8 } else { 11 }) & 1;
        let qbit = 1u64 << (mant_bits - 1);
        let payload = bits & (qbit - 1);
        return format!(
            "{}{}({})",
            if sign != 0 { "-" } else { "" },
            if bits & qbit != 0 { "qnan" } else { "snan" },
            hex(payload)
        );
    }
    let same = |s: &str| -> bool {
        let y: f64 = s.parse().unwrap_or(f64::NAN);
        if is_f32 {
            (y as f32) == (x as f32)
        } else {
            y == x
        }
    };
    let g = fmt_g(x);
    if same(&g) {
        if g.contains('.') || g.contains('e') {
            return g;
        }
        return format!("{g}.0");
    }
    let e = fmt_e(x);
    if same(&e) {
        return e;
    }
    hex(bits)
}

fn half_to_f32(h: u16) -> f32 {
    let s = ((h >> 15) as u32) << 31;
    let e = ((h >> 10) & 0x1F) as u32;
    let m = (h & 0x3FF) as u32;
    let bits = if e == 0 {
        if m == 0 {
            s
        } else {
            // Subnormal: value = m * 2^-24.
            let v = m as f32 * (1.0 / 16_777_216.0);
            return if s != 0 { -v } else { v };
        }
    } else if e == 31 {
        s | 0x7F80_0000 | (m << 13)
    } else {
        s | ((e + 112) << 23) | (m << 13)
    };
    f32::from_bits(bits)
}

fn imm_text(imm: &Imm) -> String {
    let b = imm.bits;
    match imm.ty {
        Type::B => (b as i8).to_string(),
        Type::W => (b as i16).to_string(),
        Type::D => (b as i32).to_string(),
        Type::Q => (b as i64).to_string(),
        Type::UB => hex(b & 0xFF),
        Type::UW => hex(b & 0xFFFF),
        Type::UD | Type::V | Type::UV | Type::VF => hex(b & 0xFFFF_FFFF),
        Type::UQ => hex(b),
        Type::HF => {
            let h = (b & 0xFFFF) as u16;
            let f = half_to_f32(h);
            if f.is_nan() {
                fmt_float(f64::NAN, false, h as u64, 10)
            } else {
                fmt_float(f as f64, true, f.to_bits() as u64, 23)
            }
        }
        Type::F => {
            let f = f32::from_bits(b as u32);
            fmt_float(f as f64, true, b & 0xFFFF_FFFF, 23)
        }
        Type::DF => fmt_float(f64::from_bits(b), false, b, 52),
    }
}

/// Whether operands name math-macro accumulators (`r5.mme2`, `r7.nomme`)
/// instead of subregisters and regions: the IEEE macros madm, math.invm and
/// math.rsqtm keep their extra mantissa bits there.
fn is_macro(inst: &Inst) -> bool {
    inst.op == Opcode::Madm || matches!(inst.math_fn, Some(MathFn::Invm | MathFn::Rsqrtm))
}

/// IGA's math-macro register name of an Align16 channel field: the dst's
/// channel enables or a source's swizzle as one number (0..7 mme, else nomme).
fn mme_text(nr: u8, v: u8, ty: Type) -> String {
    let m = if v < 8 {
        format!("mme{v}")
    } else {
        "nomme".into()
    };
    format!("r{nr}.{m}{}", type_name(ty))
}

fn swizzle_value(swz: [u8; 4]) -> u8 {
    swz.iter()
        .enumerate()
        .fold(0, |v, (k, c)| v | (c << (2 * k)))
}

/// The type suffix of call/ret operands: IGA omits their implicit :d only.
fn implicit_d_type(t: Type) -> &'static str {
    if t == Type::D {
        ""
    } else {
        type_name(t)
    }
}

fn is_logic(op: Opcode) -> bool {
    matches!(op, Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not)
}

fn src_mod_text(op: Opcode, m: SrcMod) -> &'static str {
    match (m.negate, m.abs) {
        (false, false) => "",
        (true, false) if is_logic(op) => "~",
        (true, false) => "-",
        (false, true) => "(abs)",
        (true, true) => "-(abs)",
    }
}

fn region_text(r: Region) -> String {
    if r.vstride == Region::VXH {
        format!("<{},{}>", r.width, r.hstride)
    } else {
        format!("<{};{},{}>", r.vstride, r.width, r.hstride)
    }
}

fn indirect_text(ind: Indirect) -> String {
    if ind.offset != 0 {
        format!("r[a0.{},{}]", ind.addr_subreg, ind.offset)
    } else {
        format!("r[a0.{}]", ind.addr_subreg)
    }
}

/// Label of a byte offset as IGA names it.
pub fn label(pc: i64) -> String {
    if pc < 0 {
        format!("L_N{}", -pc)
    } else {
        format!("L{pc}")
    }
}

/// Branch targets of a flow-control instruction at `pc`, in IGA's source order.
pub fn branch_targets(inst: &Inst, pc: i64) -> Vec<i64> {
    let b = inst.branch.unwrap_or_default();
    match opcodes::info(inst.op).form {
        Form::Jmpi => vec![pc + 16 + b.jip as i64],
        Form::BranchJipUip => vec![pc + b.jip as i64, pc + b.uip as i64],
        Form::BranchJip | Form::Call => vec![pc + b.jip as i64],
        _ => vec![],
    }
}

/// Disassemble one instruction (at pc 0 for branch labels).
pub fn disasm(inst: &Inst) -> String {
    disasm_at(inst, 0)
}

/// Disassemble one instruction located at byte offset `pc`.
pub fn disasm_at(inst: &Inst, pc: i64) -> String {
    let info = opcodes::info(inst.op);
    let form = info.form;
    let is_send = matches!(form, Form::Send | Form::Sends);
    let mut o = Out::new();

    // Predication and mask.
    o.start(COL_PRED);
    if inst.no_mask || inst.predicate.is_some() {
        o.emit("(");
        if inst.no_mask {
            o.emit("W");
            if inst.predicate.is_some() {
                o.emit("&");
            }
        }
        if let Some(p) = inst.predicate {
            if p.inverse {
                o.emit("~");
            }
            o.emit(&format!("f{}.{}", inst.flag.0, inst.flag.1));
            o.emit(pred_suffix(p.ctrl));
        }
        o.emit(")");
    }
    o.finish();
    o.emit(" ");

    // Mnemonic and execution info.
    o.start(COL_OP);
    o.emit(info.name);
    // Bit 28 (AccWrEn elsewhere) is BranchCtrl on if, else and goto.
    if inst.acc_wr_en && matches!(inst.op, Opcode::If | Opcode::Else | Opcode::Goto) {
        o.emit(".b");
    }
    if let (Form::Math, Some(m)) = (form, inst.math_fn) {
        o.emit(".");
        o.emit(math_name(m));
    }
    o.emit(" ");
    if !matches!(form, Form::Jmpi | Form::Nullary | Form::Wait) {
        o.emit(&format!("({}|M{})", inst.exec_size, inst.chan_offset));
    }
    o.finish();
    o.emit(" ");

    // Flag modifier.
    o.start(COL_FLAG);
    if form == Form::Math && is_macro(inst) {
        // The early-out flag these macros always write.
        o.emit(&format!("(eo)f{}.{}", inst.flag.0, inst.flag.1));
    } else if let (Some(c), false) = (inst.cond_mod, is_send) {
        o.emit(&format!(
            "({}){}",
            cond_mod_name(c),
            format_args!("f{}.{}", inst.flag.0, inst.flag.1)
        ));
    }
    o.finish();

    let nsrc = match form {
        Form::Math => inst.math_fn.map(math_nsrc).unwrap_or(1),
        _ => info.nsrc as usize,
    };
    let has_opts = inst_opts(inst).is_some();
    let has_dst = matches!(
        form,
        Form::Unary
            | Form::Binary
            | Form::Math
            | Form::Ternary
            | Form::Send
            | Form::Sends
            | Form::Call
    );
    if has_dst {
        o.emit("  ");
        dst_text(&mut o, inst, form);
    } else if nsrc > 0 || has_opts {
        o.spaces(COL_DST);
    }

    if nsrc == 0 {
        if has_opts {
            o.spaces(COL_SRC);
        }
    } else {
        let targets = branch_targets(inst, pc);
        for s in 0..nsrc.min(3) {
            o.emit("  ");
            src_text(&mut o, inst, form, s, &targets);
            if s == 0 && nsrc == 1 && form != Form::Send {
                o.start(COL_SRC);
                o.finish();
            }
        }
    }

    if let (true, Some(si)) = (is_send, inst.send) {
        o.emit("  ");
        o.start(COL_SEND_DESC);
        o.raw(&hex(si.ex_desc as u64));
        o.finish();
        o.emit("  ");
        o.start(COL_SEND_DESC);
        match si.desc {
            Some(d) => o.raw(&hex_w(d as u64, 8)),
            None => o.emit("a0.0"),
        }
        o.finish();
    }

    if let Some(opts) = inst_opts(inst) {
        o.emit(" {");
        o.emit(&opts);
        o.emit("}");
    }

    if let (true, Some(si)) = (is_send, inst.send) {
        let dst_null = inst
            .dst
            .map(|d| d.file == RegFile::Arf && d.nr == 0)
            .unwrap_or(true);
        o.emit(" // ");
        o.emit(&send::comment(inst.op, inst.exec_size, &si, dst_null));
    }
    o.s
}

fn inst_opts(inst: &Inst) -> Option<String> {
    let mut v: Vec<&str> = Vec::new();
    // On flow control bit 28 is BranchCtrl (printed as ".b" on if, else, goto).
    if inst.acc_wr_en && !opcodes::is_branch(inst.op) {
        v.push("AccWrEn");
    }
    if inst.thread_ctrl == ThreadCtrl::Atomic {
        v.push("Atomic");
    }
    if inst.debug {
        v.push("Breakpoint");
    }
    if inst.compacted {
        v.push("Compacted");
    }
    if inst.send.map(|s| s.eot).unwrap_or(false) {
        v.push("EOT");
    }
    if inst.no_dd_chk {
        v.push("NoDDChk");
    }
    if inst.no_dd_clr {
        v.push("NoDDClr");
    }
    if inst.thread_ctrl == ThreadCtrl::Switch {
        v.push("Switch");
    }
    if v.is_empty() {
        None
    } else {
        Some(v.join(","))
    }
}

fn dst_text(o: &mut Out, inst: &Inst, form: Form) {
    let Some(d) = inst.dst else { return };
    match form {
        Form::Send | Form::Sends => {
            o.start(COL_SEND_DST);
            o.emit(&reg_text(d.file, d.nr, 0, d.ty, false));
            if form == Form::Sends || d.ty != Type::UD {
                o.emit(type_name(d.ty));
            }
            o.finish();
        }
        Form::Call => {
            o.start(COL_DST);
            o.emit(&reg_text(d.file, d.nr, d.subreg, Type::D, true));
            o.emit(implicit_d_type(d.ty));
            o.finish();
        }
        _ if is_macro(inst) => {
            o.start(COL_DST);
            if inst.saturate {
                o.emit("(sat)");
            }
            o.emit(&mme_text(d.nr, d.writemask, d.ty));
            o.finish();
        }
        _ => {
            o.start(COL_DST);
            if inst.saturate {
                o.emit("(sat)");
            }
            match d.indirect {
                Some(ind) => o.emit(&indirect_text(ind)),
                None => o.emit(&reg_text(d.file, d.nr, d.subreg, d.ty, true)),
            }
            o.emit(&format!("<{}>", d.hstride));
            o.emit(type_name(d.ty));
            o.finish();
        }
    }
}

fn src_text(o: &mut Out, inst: &Inst, form: Form, s: usize, targets: &[i64]) {
    let send_like = matches!(form, Form::Send | Form::Sends);
    o.start(if send_like { COL_SEND_SRC } else { COL_SRC });
    match form {
        Form::Jmpi | Form::BranchJipUip | Form::BranchJip | Form::Call => {
            if let Some(t) = targets.get(s) {
                o.raw(&label(*t));
            }
            o.finish();
            return;
        }
        _ => {}
    }
    match inst.srcs[s] {
        None => {}
        Some(Src::Imm(imm)) => {
            o.raw(&imm_text(&imm));
            o.emit(type_name(imm.ty));
        }
        Some(Src::Reg(r)) if is_macro(inst) => {
            o.emit(src_mod_text(inst.op, r.modifier));
            o.emit(&mme_text(r.nr, swizzle_value(r.swizzle), r.ty));
        }
        Some(Src::Reg(r)) => match form {
            Form::Send | Form::Sends => {
                o.emit(&reg_text(r.file, r.nr, 0, r.ty, false));
                if form == Form::Send && s == 0 && r.ty != Type::UD {
                    o.emit(type_name(r.ty));
                }
            }
            Form::Ret => {
                o.emit(&reg_text(r.file, r.nr, r.subreg, Type::D, true));
                o.emit(implicit_d_type(r.ty));
            }
            Form::Ternary => {
                o.emit(src_mod_text(inst.op, r.modifier));
                o.emit(&reg_text(r.file, r.nr, r.subreg, r.ty, true));
                let rep = r.region.vstride == 0 && r.region.hstride == 0;
                o.emit(match (s, rep) {
                    (2, true) => "<0>",
                    (2, false) => "<1>",
                    (_, true) => "<0;0>",
                    (_, false) => "<2;1>",
                });
                o.emit(type_name(r.ty));
            }
            _ => {
                o.emit(src_mod_text(inst.op, r.modifier));
                match r.indirect {
                    Some(ind) => o.emit(&indirect_text(ind)),
                    None => o.emit(&reg_text(r.file, r.nr, r.subreg, r.ty, true)),
                }
                o.emit(&region_text(r.region));
                o.emit(type_name(r.ty));
            }
        },
    }
    o.finish();
}

/// Disassemble a whole kernel: native and compacted instructions, with
/// IGA's block labels (`L<byte offset>:`) at the start, at every branch
/// target, after every flow-control instruction and after EOT.
pub fn disasm_kernel(bytes: &[u8]) -> Result<String, DecodeError> {
    let mut insts = Vec::new();
    let mut pc = 0usize;
    while pc < bytes.len() {
        let (inst, len) = decode(&bytes[pc..]).map_err(|e| match e {
            DecodeError::Invalid(m) => DecodeError::Invalid(format!("at byte {pc:#x}: {m}")),
            other => other,
        })?;
        insts.push((pc as i64, inst));
        pc += len;
    }
    let end = pc as i64;
    let mut starts = std::collections::BTreeSet::new();
    starts.insert(0i64);
    for (pc, inst) in &insts {
        let len = if inst.compacted { 8 } else { 16 };
        for t in branch_targets(inst, *pc) {
            if (0..=end).contains(&t) {
                starts.insert(t);
            }
        }
        if opcodes::is_branch(inst.op) || inst.send.map(|s| s.eot).unwrap_or(false) {
            starts.insert(pc + len);
        }
    }
    let mut out = String::new();
    let mut it = insts.iter().peekable();
    for &start in &starts {
        // Emit the instructions before this block start, then its label.
        while let Some((pc, inst)) = it.peek() {
            if *pc >= start {
                break;
            }
            out.push_str(&disasm_at(inst, *pc));
            out.push('\n');
            it.next();
        }
        out.push_str(&label(start));
        out.push_str(":\n");
    }
    for (pc, inst) in it {
        out.push_str(&disasm_at(inst, *pc));
        out.push('\n');
    }
    Ok(out)
}

use super::decode;
