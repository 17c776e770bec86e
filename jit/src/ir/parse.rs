//! Reads the IR's text form (`print.rs`) back: pass tests are written as printed IR
//! before and after. Values keep the numbers the text gives them; numbers the text
//! skips become unused placeholders.

use super::print::{bin_name, cmp_name, ty_name};
use super::*;

fn err<T>(line: usize, what: impl Into<String>) -> Result<T, String> {
    Err(format!("line {}: {}", line + 1, what.into()))
}

fn ty_of(s: &str) -> Option<Ty> {
    use Space::*;
    [
        Ty::Bool,
        Ty::I8,
        Ty::I16,
        Ty::I32,
        Ty::I64,
        Ty::F16,
        Ty::F32,
        Ty::F64,
        Ty::Ptr(Global),
        Ty::Ptr(Constant),
        Ty::Ptr(Local),
        Ty::Ptr(Private),
        Ty::Ptr(Generic),
        Ty::Void,
    ]
    .into_iter()
    .find(|t| ty_name(*t) == s)
}

fn value(s: &str) -> Option<Value> {
    s.trim().strip_prefix('%')?.parse().ok().map(Value)
}

fn block(s: &str) -> Option<Block> {
    s.trim().strip_prefix("bb")?.parse().ok().map(Block)
}

fn num(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

fn bin_of(s: &str) -> Option<BinOp> {
    use BinOp::*;
    let all = [
        Add,
        Sub,
        Mul,
        MulHi { signed: true },
        MulHi { signed: false },
        Div { signed: true },
        Div { signed: false },
        Rem { signed: true },
        Rem { signed: false },
        FAdd,
        FSub,
        FMul,
        FDiv,
        And,
        Or,
        Xor,
        Shl,
        LShr,
        AShr,
        Min { signed: true },
        Min { signed: false },
        Max { signed: true },
        Max { signed: false },
        FMin,
        FMax,
    ];
    all.into_iter().find(|o| bin_name(*o) == s)
}

fn cmp_of(s: &str) -> Option<CmpOp> {
    use CmpOp::*;
    let all = [
        Eq,
        Ne,
        Lt { signed: true },
        Lt { signed: false },
        Le { signed: true },
        Le { signed: false },
        Gt { signed: true },
        Gt { signed: false },
        Ge { signed: true },
        Ge { signed: false },
        FOEq,
        FOLt,
        FOLe,
        FOGt,
        FOGe,
        FUNe,
        FOne,
        FUEq,
        FULt,
        FULe,
        FUGt,
        FUGe,
        FOrd,
        FUnord,
    ];
    all.into_iter().find(|o| cmp_name(*o) == s)
}

fn by_debug<T: std::fmt::Debug + Copy>(all: &[T], s: &str) -> Option<T> {
    all.iter()
        .copied()
        .find(|x| format!("{x:?}").to_lowercase() == s)
}

const UNOPS: &[UnOp] = &[
    UnOp::Neg,
    UnOp::FNeg,
    UnOp::Not,
    UnOp::FAbs,
    UnOp::Sqrt,
    UnOp::Rsqrt,
    UnOp::Exp2,
    UnOp::Log2,
    UnOp::Sin,
    UnOp::Cos,
    UnOp::Floor,
    UnOp::Ceil,
    UnOp::Trunc,
    UnOp::Rint,
    UnOp::Clz,
    UnOp::Popcount,
    UnOp::HalfToFloat,
    UnOp::FloatToHalf,
    UnOp::HalfFromBits,
    UnOp::HalfToBits,
];
const CONVS: &[ConvOp] = &[
    ConvOp::SExt,
    ConvOp::ZExt,
    ConvOp::Trunc,
    ConvOp::FToS,
    ConvOp::FToU,
    ConvOp::SToF,
    ConvOp::UToF,
    ConvOp::FConv,
    ConvOp::Bitcast,
    ConvOp::ToHalf,
    ConvOp::ToGeneric,
    ConvOp::FromGeneric,
];
const ATOMICS: &[AtomicOp] = &[
    AtomicOp::Add,
    AtomicOp::Sub,
    AtomicOp::And,
    AtomicOp::Or,
    AtomicOp::Xor,
    AtomicOp::Xchg,
    AtomicOp::SMin,
    AtomicOp::SMax,
    AtomicOp::UMin,
    AtomicOp::UMax,
];
const ROUNDS: &[Round] = &[Round::Rte, Round::Rtz, Round::Rtp, Round::Rtn];
const BUILTINS: &[Builtin] = &[
    Builtin::GlobalId,
    Builtin::LocalId,
    Builtin::GroupId,
    Builtin::GlobalSize,
    Builtin::EnqueuedLocalSize,
    Builtin::NumGroups,
    Builtin::GlobalOffset,
    Builtin::WorkDim,
    Builtin::SubgroupLocalId,
];

/// `a, b, c` operands as values.
fn values(s: &str) -> Option<Vec<Value>> {
    s.split(',').map(value).collect()
}

fn op_of(text: &str) -> Option<Op> {
    let (name, rest) = text.split_once(' ').unwrap_or((text, ""));
    let rest = rest.trim();
    let word = |s: &str| {
        s.split_once(' ')
            .map(|(a, b)| (a.to_string(), b.trim().to_string()))
    };
    Some(match name {
        "const" => Op::Const(num(rest)?),
        "arg" => Op::Arg(num(rest)? as u32),
        "arg_addr" => Op::ArgAddr(num(rest)? as u32),
        "arg_at" => {
            let n: Vec<u64> = rest.split(',').map(num).collect::<Option<_>>()?;
            Op::ArgAt {
                arg: *n.first()? as u32,
                offset: *n.get(1)? as u32,
                bytes: *n.get(2)? as u32,
            }
        }
        "builtin" => {
            let (b, d) = word(rest)?;
            Op::Builtin(by_debug(BUILTINS, &b.to_lowercase())?, num(&d)? as u8)
        }
        "bin" => {
            let (o, vs) = word(rest)?;
            let v = values(&vs)?;
            Op::Bin(bin_of(&o)?, *v.first()?, *v.get(1)?)
        }
        "un" => {
            let (o, a) = word(rest)?;
            Op::Un(by_debug(UNOPS, &o)?, value(&a)?)
        }
        "mad" => {
            let v = values(rest)?;
            Op::Mad(*v.first()?, *v.get(1)?, *v.get(2)?)
        }
        "cmp" => {
            let (o, vs) = word(rest)?;
            let v = values(&vs)?;
            Op::Cmp(cmp_of(&o)?, *v.first()?, *v.get(1)?)
        }
        "select" => {
            let v = values(rest)?;
            Op::Select(*v.first()?, *v.get(1)?, *v.get(2)?)
        }
        "conv" => {
            let (o, a) = word(rest)?;
            Op::Conv(by_debug(CONVS, &o)?, value(&a)?)
        }
        "conv_round" => {
            let (o, r) = word(rest)?;
            let (r, a) = word(&r)?;
            Op::ConvRound(by_debug(CONVS, &o)?, value(&a)?, by_debug(ROUNDS, &r)?)
        }
        "atomic" => {
            let (o, vs) = word(rest)?;
            let v = values(&vs)?;
            Op::Atomic(by_debug(ATOMICS, &o)?, *v.first()?, *v.get(1)?)
        }
        "lane_scan" | "lane_scan.excl" => {
            let (o, vs) = word(rest)?;
            let v = values(&vs)?;
            Op::LaneScan {
                op: bin_of(&o)?,
                x: *v.first()?,
                identity: *v.get(1)?,
                exclusive: name == "lane_scan.excl",
            }
        }
        "fill_inactive" => {
            let v = values(rest)?;
            Op::FillInactive(*v.first()?, *v.get(1)?)
        }
        "shuffle" => {
            let v = values(rest)?;
            Op::Shuffle(*v.first()?, *v.get(1)?)
        }
        "read_lane" => {
            let (a, k) = rest.split_once(',')?;
            Op::ReadLane(value(a.trim())?, num(k.trim())? as u8)
        }
        "cmpxchg" => {
            let v = values(rest)?;
            Op::CmpXchg {
                addr: *v.first()?,
                cmp: *v.get(1)?,
                value: *v.get(2)?,
            }
        }
        "ptradd" => {
            let v = values(rest)?;
            Op::PtrAdd(*v.first()?, *v.get(1)?)
        }
        "load" | "store" => {
            let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
            let field = |k: &str| {
                parts
                    .iter()
                    .find_map(|p| p.strip_prefix(k).and_then(num))
                    .map(|n| n as u32)
            };
            let (align, bytes) = (field("align ")?, field("bytes ")?);
            if name == "load" {
                Op::Load {
                    addr: value(parts.first()?)?,
                    align,
                    bytes,
                }
            } else {
                Op::Store {
                    addr: value(parts.first()?)?,
                    value: value(parts.get(1)?)?,
                    align,
                    bytes,
                }
            }
        }
        "phi" => {
            let mut ins = Vec::new();
            for part in rest.split(']') {
                let part = part.trim().trim_start_matches(',').trim();
                if part.is_empty() {
                    continue;
                }
                let (b, v) = part.strip_prefix('[')?.split_once(':')?;
                ins.push((block(b)?, value(v)?));
            }
            Op::Phi(ins)
        }
        "barrier" => Op::Barrier,
        "private_base" => Op::PrivateBase,
        "printf_buffer" => Op::PrintfBuffer,
        "printf" => {
            let (format, list) = rest.split_once(',')?;
            let list = list.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
            Op::Printf {
                format: num(format.trim())? as u32,
                args: if list.is_empty() {
                    Vec::new()
                } else {
                    values(list)?
                },
            }
        }
        "global_vars" => Op::GlobalVars,
        "scratch_base" => Op::ScratchBase,
        "fence" => Op::Fence,
        "atomic_fence" => Op::AtomicFence(value(rest.trim())?),
        "yield" => Op::Yield,
        "image_sample" | "image_load" | "image_write" | "image_block_read"
        | "image_block_write" => {
            // The head before the first '[', then bracketed value lists.
            let (head, lists) = rest.split_once('[')?;
            let lists: Vec<Vec<Value>> = format!("[{lists}")
                .split('[')
                .filter(|s| !s.trim().is_empty())
                .map(|s| values(s.trim().trim_end_matches(',').trim().trim_end_matches(']')))
                .collect::<Option<_>>()?;
            let fields: Vec<&str> = head
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            let image = num(fields.first()?)? as u32;
            let field = |k: &str| fields.iter().find_map(|p| p.strip_prefix(k).and_then(num));
            let xy = |l: &Vec<Value>| match l[..] {
                [x, y] => Some((x, y)),
                _ => None,
            };
            match name {
                "image_block_read" => {
                    let (x, y) = xy(lists.first()?)?;
                    Op::ImageBlockRead { image, x, y }
                }
                "image_block_write" => {
                    let (x, y) = xy(lists.first()?)?;
                    Op::ImageBlockWrite {
                        image,
                        x,
                        y,
                        value: *lists.get(1)?.first()?,
                    }
                }
                "image_write" => Op::ImageWrite {
                    image,
                    coords: lists.first()?.clone(),
                    values: lists.get(1)?.clone(),
                },
                _ => Op::ImageRead {
                    image,
                    sampler: if name == "image_sample" {
                        Some(field("sampler ")? as u32)
                    } else {
                        None
                    },
                    coords: lists.first()?.clone(),
                    channel: field("channel ")? as u8,
                },
            }
        }
        "image_param" => {
            let (a, p) = rest.split_once(',')?;
            let param = crate::abi::ObjectParam::ALL
                .into_iter()
                .find(|x| format!("{x:?}") == p.trim())?;
            Op::ImageParam {
                arg: num(a.trim())? as u32,
                param,
            }
        }
        "const_data" => Op::ConstData(num(rest)? as u32),
        "reg_array" => {
            let (b, e) = rest.split_once(',')?;
            Op::RegArray {
                bytes: num(b)? as u32,
                elem: num(e.trim().strip_prefix("elem")?)? as u32,
            }
        }
        "alloca" => {
            let (b, a) = rest.split_once(',')?;
            Op::Alloca {
                bytes: num(b)? as u32,
                align: num(a.trim().strip_prefix("align")?)? as u32,
            }
        }
        _ => return None,
    })
}

/// Parse one function.
pub fn parse(text: &str) -> Result<Function, String> {
    let mut f = Function::default();
    let mut cur: Option<usize> = None;
    let mut defs: Vec<(Value, Inst, usize)> = Vec::new();
    // Instructions without a result (stores, barriers) get numbers after all the others.
    let mut voids: Vec<(Inst, usize)> = Vec::new();
    let mut order: Vec<(usize, Option<Value>, usize)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("kernel ") {
            let (name, args) = rest
                .split_once('(')
                .ok_or(format!("line {}: kernel(", n + 1))?;
            f.name = name.trim().to_string();
            let args = args.trim_end_matches(')');
            for a in args.split(',').map(str::trim).filter(|a| !a.is_empty()) {
                f.args
                    .push(ty_of(a).ok_or(format!("line {}: type {a}", n + 1))?);
            }
            continue;
        }
        if let Some(b) = line.strip_suffix(':').and_then(block) {
            if b.0 as usize != f.blocks.len() {
                return err(n, format!("blocks must come in order: {b}"));
            }
            f.add_block();
            cur = Some(b.0 as usize);
            continue;
        }
        let Some(b) = cur else {
            return err(n, "instruction outside a block");
        };
        if let Some(rest) = line.strip_prefix("br ") {
            let parts: Vec<&str> = rest.split(',').collect();
            f.blocks[b].term = match parts.as_slice() {
                [t] => Term::Br(block(t).ok_or(format!("line {}: {t}", n + 1))?),
                [c, t, e] => Term::CondBr(
                    value(c).ok_or(format!("line {}: {c}", n + 1))?,
                    block(t).ok_or(format!("line {}: {t}", n + 1))?,
                    block(e).ok_or(format!("line {}: {e}", n + 1))?,
                ),
                _ => return err(n, "br takes a block, or a value and two blocks"),
            };
            continue;
        }
        if line == "ret" {
            f.blocks[b].term = Term::Ret;
            continue;
        }
        if line == "unterminated" {
            continue;
        }
        match line.split_once(" = ") {
            Some((v, rhs)) => {
                let v = value(v).ok_or(format!("line {}: value {v}", n + 1))?;
                let (ty, op) = rhs.split_once(' ').ok_or(format!("line {}: type", n + 1))?;
                let ty = ty_of(ty).ok_or(format!("line {}: type {ty}", n + 1))?;
                let op = op_of(op.trim()).ok_or(format!("line {}: cannot read '{op}'", n + 1))?;
                order.push((b, Some(v), 0));
                defs.push((v, Inst { op, ty }, n));
            }
            None => {
                let op = op_of(line).ok_or(format!("line {}: cannot read '{line}'", n + 1))?;
                order.push((b, None, voids.len()));
                voids.push((Inst { op, ty: Ty::Void }, n));
            }
        }
    }
    let count = defs
        .iter()
        .map(|(v, _, _)| v.0 as usize + 1)
        .max()
        .unwrap_or(0);
    f.insts = vec![
        Inst {
            op: Op::Const(0),
            ty: Ty::Void,
        };
        count
    ];
    let mut seen = vec![false; count];
    for (v, inst, n) in defs {
        if std::mem::replace(&mut seen[v.0 as usize], true) {
            return err(n, format!("{v} defined twice"));
        }
        f.insts[v.0 as usize] = inst;
    }
    let void_base = f.insts.len();
    f.insts.extend(voids.into_iter().map(|(i, _)| i));
    for (b, v, k) in order {
        let v = v.unwrap_or(Value((void_base + k) as u32));
        f.blocks[b].insts.push(v);
    }
    Ok(f)
}
