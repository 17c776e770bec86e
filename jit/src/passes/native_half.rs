//! Half arithmetic in half (docs/jit.md, "Half"): the front end computes a half operation as
//! the float operation rounded to half and widened again (`r = halftofloat(floattohalf(y))`,
//! `y = fadd a, b`), three instructions where Gen9 has one that runs 16 lanes in a GRF at
//! twice float's rate (IGC computes `:hf` packed). Here each such rounding whose `y` is an
//! add, subtract, multiply or mad of halves becomes that operation on F16 values, which
//! selection gives packed `:hf` registers:
//!
//! - add, subtract and multiply: float's 24 bits are at least twice half's 11 plus 2, so the
//!   float result rounded to half is the correctly rounded half result, the native one;
//! - mad (fused in the IR): the native `mad :hf` rounds once, the correctly rounded `fma`
//!   that the float form's second rounding could miss by one ulp (OpenCL's `mad` allows
//!   either, `fma` wants this one).
//!
//! A half operand is any F32 value that is exactly a half with an F16 form at hand: another
//! rounding (the native result, or the float rounded by a conversion), a half's bits from
//! memory or an argument (`halftofloat bits` or the exact `half_in`: `halffrombits bits`, bit
//! for bit), a constant
//! that a half holds exactly, an F16 widened, or a phi of such values (then an F16 phi).
//! The front end's own F16 operations (`fma` and `mad` of halves, `frontend::lower`) read
//! their operands narrowed from float: those narrowings become the operands' F16 forms. A
//! min, max or select of halves that a native operation reads is made in F16 too, and a
//! compare of halves one of which is in F16 already compares the F16s. Readers that stay
//! in float read the F16 widened once (`fconv`, exact); a half's container for a store is
//! its bits (`halftobits`). Cruft left behind is dead for `dce`.
//!
//! Denormal halves are kept (cr0 bit 10, `isel` `float_modes`), as the float path keeps them.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::ir::{BinOp, Block, ConvOp, Function, Inst, Op, Ty, UnOp, Value};

/// How an F32 value that is exactly a half gets its F16 form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `halftofloat h`, `h = floattohalf y`: y's rounding.
    Rounded { h: Value, y: Value },
    /// `halftofloat bits` of any other container: the bits themselves.
    Bits(Value),
    /// A float constant a half holds exactly: that half's bits.
    Const(u16),
    /// An F16 widened (`fconv`): the F16 itself.
    Widened(Value),
    /// A min, max or select of values with forms: the same on their F16 forms (exact: the
    /// result is one of the operands).
    Exact,
    /// A phi whose every incoming value has a form.
    Phi,
}

/// The bits of the half holding `x` exactly, if one does (not a NaN: its payload).
pub fn exact_half(x: f32) -> Option<u16> {
    if x.is_nan() {
        return None;
    }
    let sign = ((x.to_bits() >> 16) & 0x8000) as u16;
    let a = x.abs();
    if a == 0.0 {
        return Some(sign);
    }
    if a.is_infinite() {
        return Some(sign | 0x7c00);
    }
    let bits = a.to_bits();
    let e = (bits >> 23) as i32 - 127;
    if (-14..=15).contains(&e) {
        // A normal half: 10 bits of mantissa, the float's other 13 zero.
        return (bits & 0x1fff == 0)
            .then(|| sign | (((e + 15) as u16) << 10) | ((bits >> 13) & 0x3ff) as u16);
    }
    // A subnormal half is m * 2^-24 for m below 1024 (the scaling is exact).
    let m = a * 16_777_216.0;
    (e < -14 && m.fract() == 0.0 && m < 1024.0).then_some(sign | m as u16)
}

fn form_of(f: &Function, x: Value) -> Option<Form> {
    if f.ty(x) != Ty::F32 {
        return None;
    }
    match f.inst(x).op {
        Op::Un(UnOp::HalfToFloat, h) => Some(match f.inst(h).op {
            Op::Un(UnOp::FloatToHalf, y) => Form::Rounded { h, y },
            _ => Form::Bits(h),
        }),
        // The exact `half_in(bits)` (`passes::halves`), which rebuilds a NaN's payload.
        Op::Select(c, _, plain) if super::halves::is_half_in(f, c, plain) => match f.inst(plain).op
        {
            Op::Un(UnOp::HalfToFloat, bits) => Some(Form::Bits(bits)),
            _ => None,
        },
        Op::Const(bits) => exact_half(f32::from_bits(bits as u32)).map(Form::Const),
        Op::Conv(ConvOp::FConv, x16) if f.ty(x16) == Ty::F16 => Some(Form::Widened(x16)),
        Op::Phi(_) => Some(Form::Phi),
        Op::Bin(BinOp::FMin | BinOp::FMax, ..) | Op::Select(..) => Some(Form::Exact),
        _ => None,
    }
}

struct Rewrite<'a> {
    f: &'a mut Function,
    forms: HashMap<Value, Form>,
    /// The roundings computed natively: `h` by its `y`.
    native: HashSet<Value>,
    /// Each F32 value's F16 form, made so far.
    made: HashMap<Value, Value>,
    /// New instructions to place after an existing one, in order.
    after: HashMap<Value, Vec<Value>>,
    /// New instructions to place after the phis of a block.
    after_phis: HashMap<Block, Vec<Value>>,
    /// The block of each placed instruction.
    at: HashMap<Value, Block>,
    /// Each native rounding's result widened to float, by the rounding.
    wides: HashMap<Value, Value>,
    map: HashMap<Value, Value>,
}

impl Rewrite<'_> {
    fn new_inst(&mut self, op: Op, ty: Ty) -> Value {
        self.f.insts.push(Inst { op, ty });
        Value(self.f.insts.len() as u32 - 1)
    }

    fn place_after(&mut self, x: Value, v: Value) {
        self.after.entry(x).or_default().push(v);
    }

    /// The F16 form of `x` (which has a form), made once.
    fn half_of(&mut self, x: Value) -> Value {
        if let Some(&v) = self.made.get(&x) {
            return v;
        }
        let v = match self.forms[&x] {
            Form::Rounded { h, y } => {
                if let Some(&v) = self.made.get(&h) {
                    v
                } else {
                    let v = if self.native.contains(&h) {
                        self.native_op(h, y)
                    } else {
                        let v = self.new_inst(Op::Conv(ConvOp::FConv, y), Ty::F16);
                        self.place_after(y, v);
                        v
                    };
                    self.made.insert(h, v);
                    v
                }
            }
            Form::Bits(bits) => {
                let v = self.new_inst(Op::Un(UnOp::HalfFromBits, bits), Ty::F16);
                self.place_after(x, v);
                v
            }
            Form::Const(k) => {
                let v = self.new_inst(Op::Const(u64::from(k)), Ty::F16);
                self.place_after(x, v);
                v
            }
            Form::Widened(x16) => x16,
            Form::Exact => {
                // Known before its operands, which may reach it round a loop.
                let v = self.new_inst(Op::Const(0), Ty::F16);
                self.made.insert(x, v);
                let op = match self.f.inst(x).op {
                    Op::Bin(op, a, b) => Op::Bin(op, self.half_of(a), self.half_of(b)),
                    Op::Select(c, a, b) => Op::Select(c, self.half_of(a), self.half_of(b)),
                    _ => unreachable!("an exact form is a min, max or select"),
                };
                self.f.insts[v.0 as usize].op = op;
                self.place_after(x, v);
                v
            }
            Form::Phi => {
                // Made before its incoming values, which may reach it round a loop.
                let Op::Phi(ins) = self.f.inst(x).op.clone() else {
                    unreachable!("a phi's form is a phi's")
                };
                let v = self.new_inst(Op::Phi(Vec::new()), Ty::F16);
                self.place_after(x, v);
                self.made.insert(x, v);
                let ins16 = ins.iter().map(|&(b, i)| (b, self.half_of(i))).collect();
                self.f.insts[v.0 as usize].op = Op::Phi(ins16);
                // Float readers of the phi read it widened, after the block's phis.
                let wide = self.new_inst(Op::Conv(ConvOp::FConv, v), Ty::F32);
                let b = self.at[&x];
                self.after_phis.entry(b).or_default().push(wide);
                self.map.insert(x, wide);
                v
            }
        };
        self.made.insert(x, v);
        v
    }

    /// `y`'s operation on the F16 forms of its operands, after `y`; the rounding's
    /// container and its float readers renamed to it.
    fn native_op(&mut self, h: Value, y: Value) -> Value {
        // Known before its operands, which may reach it round a loop (through a phi).
        let v = self.new_inst(Op::Const(0), Ty::F16);
        self.made.insert(h, v);
        let op = match self.f.inst(y).op {
            Op::Bin(op, a, b) => Op::Bin(op, self.half_of(a), self.half_of(b)),
            Op::Mad(a, b, c) => Op::Mad(self.half_of(a), self.half_of(b), self.half_of(c)),
            _ => unreachable!("only arithmetic is native"),
        };
        self.f.insts[v.0 as usize].op = op;
        self.place_after(y, v);
        let wide = self.new_inst(Op::Conv(ConvOp::FConv, v), Ty::F32);
        self.place_after(y, wide);
        self.wides.insert(h, wide);
        let bits = self.new_inst(Op::Un(UnOp::HalfToBits, v), Ty::I32);
        self.place_after(y, bits);
        self.map.insert(h, bits);
        v
    }
}

pub fn run(f: &mut Function) {
    if !f
        .insts
        .iter()
        .any(|i| matches!(i.op, Op::Un(UnOp::FloatToHalf, _)))
    {
        return;
    }
    let uses = f.use_counts();
    let mut at = HashMap::default();
    for (b, bd) in f.blocks.iter().enumerate() {
        for &v in &bd.insts {
            at.insert(v, Block(b as u32));
        }
    }
    // Every placed F32 value that may be a half, then the phis whose incoming values are
    // not dropped until none is left (optimistic, so loops keep their halves).
    let mut forms: HashMap<Value, Form> = HashMap::default();
    for &v in at.keys() {
        if let Some(form) = form_of(f, v) {
            forms.insert(v, form);
        }
    }
    loop {
        let drop: Vec<Value> = forms
            .iter()
            .filter(|(v, form)| {
                matches!(form, Form::Phi | Form::Exact)
                    && match &f.inst(**v).op {
                        Op::Phi(ins) => ins.iter().any(|(_, i)| !forms.contains_key(i)),
                        Op::Bin(_, a, b) | Op::Select(_, a, b) => {
                            !forms.contains_key(a) || !forms.contains_key(b)
                        }
                        _ => true,
                    }
            })
            .map(|(v, _)| *v)
            .collect();
        if drop.is_empty() {
            break;
        }
        for v in drop {
            forms.remove(&v);
        }
    }
    // The roundings of arithmetic on halves that nothing else reads unrounded.
    let mut native = HashSet::default();
    for form in forms.values() {
        let Form::Rounded { h, y } = *form else {
            continue;
        };
        let halves = match f.inst(y).op {
            Op::Bin(BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FMin | BinOp::FMax, a, b) => {
                forms.contains_key(&a) && forms.contains_key(&b)
            }
            Op::Mad(a, b, c) => [a, b, c].iter().all(|o| forms.contains_key(o)),
            _ => false,
        };
        if halves && f.ty(y) == Ty::F32 && uses[y.0 as usize] == 1 && at.contains_key(&y) {
            native.insert(h);
        }
    }
    // Halves narrowed to F16 (the front end's native `fma` and `mad` of halves): the F16
    // they are.
    let mut narrowed: Vec<(Value, Value)> = at
        .keys()
        .filter_map(|&v| match f.inst(v).op {
            Op::Conv(ConvOp::FConv, x) if f.ty(v) == Ty::F16 && forms.contains_key(&x) => {
                Some((v, x))
            }
            _ => None,
        })
        .collect();
    narrowed.sort_by_key(|(v, _)| v.0);
    if native.is_empty() && narrowed.is_empty() {
        return;
    }
    let mut rw = Rewrite {
        f,
        forms,
        native,
        made: HashMap::default(),
        after: HashMap::default(),
        after_phis: HashMap::default(),
        at,
        wides: HashMap::default(),
        map: HashMap::default(),
    };
    // Every native rounding's float readers read its result widened (in value order: the
    // output does not depend on hashing).
    let mut readers: Vec<(Value, Value)> = rw
        .forms
        .iter()
        .filter_map(|(x, form)| match form {
            Form::Rounded { h, .. } if rw.native.contains(h) => Some((*x, *h)),
            _ => None,
        })
        .collect();
    readers.sort_by_key(|(x, _)| x.0);
    for &(x, h) in &readers {
        rw.half_of(x);
        let wide = rw.wides[&h];
        rw.map.insert(x, wide);
    }
    for (v, x) in narrowed {
        let x16 = rw.half_of(x);
        rw.map.insert(v, x16);
    }
    // Compares of halves of which one is in F16 already compare the F16s (exactly what
    // the floats compare), rather than reading them widened.
    let mut cmps: Vec<Value> = rw
        .at
        .keys()
        .copied()
        .filter(|&v| match rw.f.inst(v).op {
            Op::Cmp(_, a, b) => {
                rw.forms.contains_key(&a)
                    && rw.forms.contains_key(&b)
                    && (rw.made.contains_key(&a) || rw.made.contains_key(&b))
            }
            _ => false,
        })
        .collect();
    cmps.sort_by_key(|v| v.0);
    for v in cmps {
        let Op::Cmp(op, a, b) = rw.f.inst(v).op else {
            continue;
        };
        let (a16, b16) = (rw.half_of(a), rw.half_of(b));
        rw.f.insts[v.0 as usize].op = Op::Cmp(op, a16, b16);
    }
    let Rewrite {
        f,
        after,
        after_phis,
        map,
        ..
    } = rw;
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut insts = Vec::with_capacity(old.len());
        let tail = after_phis.get(&Block(b as u32));
        let mut phis_done = false;
        for v in old {
            let phi = matches!(f.inst(v).op, Op::Phi(_));
            if !phi && !phis_done {
                phis_done = true;
                insts.extend(tail.into_iter().flatten().copied());
            }
            insts.push(v);
            if let Some(next) = after.get(&v) {
                insts.extend(next.iter().copied());
            }
        }
        if !phis_done {
            insts.extend(tail.into_iter().flatten().copied());
        }
        f.blocks[b].insts = insts;
    }
    super::replace_uses(f, &map);
    // The float operations left behind gone, a half's exact float form (`half_in`) that
    // only a min or max read (now in F16, on the bits) may be read by arithmetic alone,
    // which `halves` then gives the plain conversion.
    super::dce::run(f);
    super::halves::run(f);
}
