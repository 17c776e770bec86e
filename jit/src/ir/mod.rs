//! The Gen IR: scalar SSA over compact arrays (ARCHITECTURE.md, seed 001).
//!
//! Vectors of the source language become several scalar values; real
//! vectors appear only at sends, in instruction selection. Every value is
//! one `Inst` in `Function::insts`, referred to by index (`Value`); blocks
//! list their instructions in order and end in a terminator.

pub mod parse;
pub mod print;
pub mod verify;

use std::fmt;

use serde::{Deserialize, Serialize};

/// Address spaces of pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Space {
    Global,
    Constant,
    Local,
    Private,
    Generic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ty {
    Bool,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
    /// A 64-bit pointer into `Space`.
    Ptr(Space),
    Void,
}

impl Ty {
    pub fn bytes(self) -> u32 {
        match self {
            Ty::Bool | Ty::I8 => 1,
            Ty::I16 | Ty::F16 => 2,
            Ty::I32 | Ty::F32 => 4,
            Ty::I64 | Ty::F64 | Ty::Ptr(_) => 8,
            Ty::Void => 0,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }
    pub fn is_int(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }
    /// An integer type's width in bits.
    pub fn int_bits(self) -> Option<u32> {
        self.is_int().then(|| 8 * self.bytes())
    }
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub struct Value(pub u32);

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub struct Block(pub u32);

/// Work-item built-ins, per dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Builtin {
    GlobalId,
    LocalId,
    GroupId,
    GlobalSize,
    /// The local size the launch asked for (get_enqueued_local_size); a group at the
    /// end of a range that is not a multiple of it is smaller (the front end computes
    /// get_local_size from this).
    EnqueuedLocalSize,
    NumGroups,
    GlobalOffset,
    WorkDim,
    /// The work-item's lane in its sub-group (the hardware thread): 0 .. SIMD width - 1.
    SubgroupLocalId,
}

/// Whether `Op::LaneScan` takes `op` on `ty`: the 32-bit operations whose result does not
/// depend on the order of the fold (not float addition or multiplication, whose rounding
/// does; those scans stay a fold from lane 0).
pub fn lane_scannable(op: BinOp, ty: Ty) -> bool {
    match ty {
        Ty::I32 => op.commutes() && !matches!(op, BinOp::FAdd | BinOp::FMul),
        Ty::F32 => matches!(op, BinOp::FMin | BinOp::FMax),
        _ => false,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// High half of the product (mul_hi), signedness from `signed`.
    MulHi {
        signed: bool,
    },
    Div {
        signed: bool,
    },
    Rem {
        signed: bool,
    },
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
    Min {
        signed: bool,
    },
    Max {
        signed: bool,
    },
    FMin,
    FMax,
}

impl BinOp {
    /// `a op b` is `b op a`, bit for bit (not fmin and fmax: of +0 and -0, Gen's `sel`
    /// returns its second operand).
    pub fn commutes(self) -> bool {
        matches!(
            self,
            BinOp::Add
                | BinOp::Mul
                | BinOp::And
                | BinOp::Or
                | BinOp::Xor
                | BinOp::FAdd
                | BinOp::FMul
                | BinOp::Min { .. }
                | BinOp::Max { .. }
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    Neg,
    FNeg,
    Not,
    FAbs,
    Sqrt,
    Rsqrt,
    Exp2,
    Log2,
    Sin,
    Cos,
    Floor,
    Ceil,
    Trunc,
    /// Round to nearest even.
    Rint,
    /// Leading zeros of a 32-bit value (32 for 0).
    Clz,
    /// Set bits of a 32-bit value.
    Popcount,
    /// The IEEE half in the low 16 bits of an I32, as an F32 (exact).
    HalfToFloat,
    /// An F32 rounded to IEEE half (to nearest even), its bits zero-extended in an I32.
    FloatToHalf,
    /// The IEEE half in the low 16 bits of an I32, as an F16 (the same bits, signalling
    /// NaNs too): a half from memory or an argument for native half arithmetic
    /// (`passes::native_half`).
    HalfFromBits,
    /// An F16's bits zero-extended in an I32 (the same bits): a native half's container
    /// for a store.
    HalfToBits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt {
        signed: bool,
    },
    Le {
        signed: bool,
    },
    Gt {
        signed: bool,
    },
    Ge {
        signed: bool,
    },
    /// Ordered float compares (false if either is NaN).
    FOEq,
    FOLt,
    FOLe,
    FOGt,
    FOGe,
    /// `!=` that is true on NaN (unordered-or-not-equal), as C's `!=`.
    FUNe,
    FOne,
    FUEq,
    FULt,
    FULe,
    FUGt,
    FUGe,
    FOrd,
    FUnord,
}

/// The read-modify-write of an atomic: the new value from the old one and the operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AtomicOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    /// The operand replaces the old value (atomic_xchg, atomic_store).
    Xchg,
    SMin,
    SMax,
    UMin,
    UMax,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConvOp {
    /// Integer to wider or narrower integer: sign- or zero-extension, truncation.
    SExt,
    ZExt,
    Trunc,
    FToS,
    FToU,
    SToF,
    UToF,
    FConv,
    /// Reinterpret the same bits (pointer ↔ integer, int ↔ float of one size).
    Bitcast,
    /// F32 to the bits of an IEEE half in an I32 (as `UnOp::FloatToHalf`); the form
    /// `Op::ConvRound` takes for a directed rounding mode.
    ToHalf,
    /// A pointer of a named address space to the generic one (seed 002): the same pointer
    /// where the space is resolved statically, else tagged in bits 63:61.
    ToGeneric,
    /// A generic pointer to the named address space of the result type: the pointer, or
    /// NULL where it points elsewhere (to_global, to_local, to_private).
    FromGeneric,
}

/// A rounding mode of a conversion (SPIR-V FPRoundingMode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Round {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    /// Constant, raw bits of `ty`.
    Const(u64),
    /// Kernel argument `index` (a pushed constant; by-value and pointers alike).
    Arg(u32),
    /// `bytes` bytes at `offset` into by-value kernel argument `arg` (a vector's
    /// component, a struct's field, a narrow scalar): a read of the pushed constant,
    /// zero-extended when narrower than the value's type.
    ArgAt {
        arg: u32,
        offset: u32,
        bytes: u32,
    },
    /// The address of by-value aggregate argument `arg` (a struct the kernel reads through
    /// a pointer, SPIR-V's ByVal). Loads at constant offsets from it become `ArgAt`
    /// (`passes::pushed_args`); any other use needs the argument in memory.
    ArgAddr(u32),
    /// A private variable of `bytes` bytes (SPIR-V's Function storage): its address.
    /// `passes::mem2reg` turns the variables that only see loads and stores at constant
    /// offsets into SSA values; the rest need private memory.
    Alloca {
        bytes: u32,
        align: u32,
    },
    /// A private array of `bytes` bytes that lives in registers (`passes::private_registers`):
    /// its address, which only loads and stores of `elem` bytes use, at itself or at
    /// `PtrAdd(this, byte offset)`. Selection gives it `bytes` per lane of GRFs, reads with
    /// an indirect gather and writes each element under a compare.
    RegArray {
        bytes: u32,
        elem: u32,
    },
    /// The address of constant data buffer `n` (0: the program's `__constant` data, 1:
    /// the built-in library's tables), a buffer the runtime makes from the kernel's
    /// `data_buffers`, its address pushed in the cross-thread data.
    ConstData(u32),
    /// The address of the launch's printf buffer (`abi::Printf`), pushed in the
    /// cross-thread data.
    PrintfBuffer,
    /// A printf call: the record of format `format` (the kernel's `abi::PrintfFormat`s) and
    /// `args` (I32, I64, F32, F64 or pointers, as the record holds them) appended to the
    /// printf buffer; the result (I32) is 0, or -1 where the buffer had no room. Expanded
    /// into the buffer's atomic and stores by `passes::printf`.
    Printf {
        format: u32,
        args: Vec<Value>,
    },
    /// The address of the program's global variables (`abi::ProgramGlobals`: one buffer
    /// per program that every kernel of it shares, as long as the program lives), pushed
    /// in the cross-thread data.
    GlobalVars,
    /// The GPU address of the launch's scratch space, to which private addresses
    /// (`PrivateBase`) are relative: what makes a private pointer an address of the global
    /// memory when it turns generic (`passes::generic_pointers`). Pushed in the
    /// cross-thread data.
    ScratchBase,
    /// The address of this work-item's private memory (`private_bytes` of it), where the
    /// variables that stay in memory live: in the thread's scratch space, one area per lane.
    PrivateBase,
    Builtin(Builtin, u8),
    Bin(BinOp, Value, Value),
    Un(UnOp, Value),
    /// a * b + c (fused for floats).
    Mad(Value, Value, Value),
    Cmp(CmpOp, Value, Value),
    Select(Value, Value, Value),
    Conv(ConvOp, Value),
    /// A conversion to float in a directed rounding mode (not Rte).
    ConvRound(ConvOp, Value, Round),
    /// Pointer plus a byte offset (i64).
    PtrAdd(Value, Value),
    /// A load of `bytes` bytes (the size of `ty`, or 1 or 2 for an 8- or 16-bit integer
    /// carried zero-extended in an I32).
    Load {
        addr: Value,
        align: u32,
        bytes: u32,
    },
    /// A store of the low `bytes` bytes of `value`.
    Store {
        addr: Value,
        value: Value,
        align: u32,
        bytes: u32,
    },
    Phi(Vec<(Block, Value)>),
    /// `x` in the lanes that execute this, `fill` in the others (the sub-group's inactive
    /// work-items, so that a reduction over every lane sees its identity there). Depends on
    /// where it is, so never merged with another.
    FillInactive(Value, Value),
    /// `x` as lane `k` of the sub-group holds it, the same for every lane.
    ReadLane(Value, u8),
    /// The prefixes of `x` over the sub-group's lanes under an operation (`lane_scannable`),
    /// lane i's the fold of lanes 0..=i (`exclusive`: 0..i, lane 0's the identity), every
    /// lane of `x` counted (its inactive lanes hold the identity: a `FillInactive` of it).
    /// Reads lanes the current one does not own, so never merged with another.
    LaneScan {
        op: BinOp,
        x: Value,
        identity: Value,
        exclusive: bool,
    },
    /// `x` as lane `idx` of the sub-group holds it (idx taken modulo the SIMD width), per
    /// lane: cl_intel_subgroups' shuffles, with indirect register addressing. Never merged
    /// with another (like `FillInactive`, it reads lanes the current one does not own).
    Shuffle(Value, Value),
    /// An atomic read-modify-write of the `ty`-sized integer at `addr` with the operand
    /// (global or local memory); the result is the old value.
    Atomic(AtomicOp, Value, Value),
    /// An atomic compare-exchange at `addr`: `value` is written where the old value equals
    /// `cmp`; the result is the old value.
    CmpXchg {
        addr: Value,
        cmp: Value,
        value: Value,
    },
    /// A work-group barrier (gateway), preceded by a memory fence: barrier() and
    /// work_group_barrier() with any fence flags.
    Barrier,
    /// A memory fence: every earlier data-port access of the work-item is visible before
    /// any later one (mem_fence, read_mem_fence, write_mem_fence).
    Fence,
    /// An atomic's memory order for the memory its address (the operand) points into: a
    /// release orders the work-item's earlier accesses before the atomic (this comes first),
    /// an acquire its later ones after it (this comes after). Selected as a `Fence` unless
    /// the address is local: one Gen9 thread's SLM messages are performed in order, so local
    /// memory takes no fence message (as `Fence` for local memory alone is not emitted).
    AtomicFence(Value),
    /// The hardware thread lets the EU's other threads run before it goes on (`{Switch}`):
    /// the back-off of a spin-wait. Orders nothing.
    Yield,
    /// Channel `channel` (0-3: red, green, blue, alpha) of a texel of image argument `image`
    /// (its binding-table surface): sampled through SAMPLER_STATE `sampler` at F32
    /// coordinates (Gen9's `sample_lz`), or without a sampler loaded at I32 ones (`ld_lz`).
    /// `coords` are u, v, r as the image's type has them (a 1D array's element is v, a 2D
    /// array's r). A read of memory, never merged with another (a read_write image's texels
    /// change); selection reads the channels of one texel with one message.
    ImageRead {
        image: u32,
        sampler: Option<u32>,
        coords: Vec<Value>,
        channel: u8,
    },
    /// `values` (red, green, blue, alpha: F32, or I32 for integer images) written to the
    /// texel at I32 `coords` of image argument `image`, converted to its format (a typed
    /// surface write).
    ImageWrite {
        image: u32,
        coords: Vec<Value>,
        values: Vec<Value>,
    },
    /// cl_intel_subgroups' image block read (a media block read): lane i of the sub-group
    /// gets the dword at byte `x` + 4i of row `y` of image argument `image` (I32 `x` and `y`,
    /// the same in every lane). A read of memory, never merged with another.
    ImageBlockRead {
        image: u32,
        x: Value,
        y: Value,
    },
    /// cl_intel_subgroups' image block write: lane i's I32 `value` to the dword at byte
    /// `x` + 4i of row `y`.
    ImageBlockWrite {
        image: u32,
        x: Value,
        y: Value,
        value: Value,
    },
    /// A value of image argument `arg` the runtime pushes (its width, height, format, ...).
    ImageParam {
        arg: u32,
        param: crate::abi::ObjectParam,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inst {
    pub op: Op,
    pub ty: Ty,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Term {
    Br(Block),
    CondBr(Value, Block, Block),
    Ret,
    /// Unreachable: not yet terminated (builder state) or unreachable code.
    None,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockData {
    pub insts: Vec<Value>,
    pub term: Term,
}

/// One kernel in IR: its blocks (entry = block 0) and its arguments' types.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub insts: Vec<Inst>,
    pub blocks: Vec<BlockData>,
    pub args: Vec<Ty>,
    /// Bytes of private memory each work-item needs for the variables that live in memory
    /// (`passes::private_memory`), 0 when every variable became a register.
    pub private_bytes: u32,
    /// Bytes of shared local memory the kernel's `__local` variables and the compiler's own
    /// words take, from offset 0 (the runtime places `__local` pointer arguments after
    /// them); 0 when it uses none. Passes that need a word of SLM take it at the end
    /// (`passes::local_atomics64`).
    pub slm_bytes: u32,
    /// The SIMD width the function was lowered at, which its lane operations assume (its
    /// sub-group size); passes that expand into lane operations read it.
    pub simd: u8,
    /// Values read after the function returns, which every pass keeps alive and renames:
    /// a library template's results (`frontend::lower::template`). Empty for a kernel.
    pub live_out: Vec<Value>,
}

impl Function {
    pub fn new(name: &str, args: Vec<Ty>) -> Function {
        Function {
            name: name.into(),
            insts: Vec::new(),
            blocks: Vec::new(),
            args,
            private_bytes: 0,
            slm_bytes: 0,
            simd: 8,
            live_out: Vec::new(),
        }
    }
    pub fn add_block(&mut self) -> Block {
        self.blocks.push(BlockData {
            insts: Vec::new(),
            term: Term::None,
        });
        Block(self.blocks.len() as u32 - 1)
    }
    /// Append an instruction to `b` and return its value.
    pub fn push(&mut self, b: Block, op: Op, ty: Ty) -> Value {
        self.insts.push(Inst { op, ty });
        let v = Value(self.insts.len() as u32 - 1);
        self.blocks[b.0 as usize].insts.push(v);
        v
    }
    /// In `b`: `x` (of a `lane_scannable` operation and type) folded by `op` over the active
    /// lanes of a `width`-lane sub-group, `identity` standing in for the inactive ones: the
    /// last lane of the inclusive scan, the same for every lane.
    pub fn reduce_active_lanes(
        &mut self,
        b: Block,
        op: BinOp,
        x: Value,
        identity: Value,
        width: u8,
    ) -> Value {
        let ty = self.ty(x);
        let x = self.push(b, Op::FillInactive(x, identity), ty);
        let scan = Op::LaneScan {
            op,
            x,
            identity,
            exclusive: false,
        };
        let scan = self.push(b, scan, ty);
        self.push(b, Op::ReadLane(scan, width - 1), ty)
    }
    /// Place a new instruction at position `pos` of block `b` and return its value.
    pub fn insert(&mut self, b: Block, pos: usize, op: Op, ty: Ty) -> Value {
        self.insts.push(Inst { op, ty });
        let v = Value(self.insts.len() as u32 - 1);
        self.blocks[b.0 as usize].insts.insert(pos, v);
        v
    }
    pub fn inst(&self, v: Value) -> &Inst {
        &self.insts[v.0 as usize]
    }
    pub fn ty(&self, v: Value) -> Ty {
        self.insts[v.0 as usize].ty
    }
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.0 as usize]
    }
    /// How many times each placed value is read: as an operand, a branch condition or a
    /// template's result (`live_out`).
    pub fn use_counts(&self) -> Vec<u32> {
        let mut uses = vec![0u32; self.insts.len()];
        for bd in &self.blocks {
            for v in &bd.insts {
                for o in self.inst(*v).op.operands().iter() {
                    uses[o.0 as usize] += 1;
                }
            }
            if let Term::CondBr(c, ..) = bd.term {
                uses[c.0 as usize] += 1;
            }
        }
        for v in &self.live_out {
            uses[v.0 as usize] += 1;
        }
        uses
    }
    /// The blocks `b` branches to (none, one or two), without allocating: the CFG and
    /// several passes ask for every block's, on every run.
    pub fn successors(&self, b: Block) -> Operands<Block> {
        match &self.blocks[b.0 as usize].term {
            Term::Br(t) => Operands::few(&[*t]),
            Term::CondBr(_, t, f) => Operands::few(&[*t, *f]),
            Term::Ret | Term::None => Operands::few(&[]),
        }
    }
}

/// Up to three items inline (an operation's operands, a block's successors), or a phi's
/// any number on the heap: what passes ask of every instruction, mostly without allocating.
#[derive(Clone, Debug)]
pub enum Operands<T: Copy + Default> {
    Few([T; 3], u8),
    Many(Vec<T>),
}

impl<T: Copy + Default> Operands<T> {
    fn few(items: &[T]) -> Self {
        let mut a = [T::default(); 3];
        a[..items.len()].copy_from_slice(items);
        Operands::Few(a, items.len() as u8)
    }
}

impl<T: Copy + Default> std::ops::Deref for Operands<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Operands::Few(a, n) => &a[..usize::from(*n)],
            Operands::Many(v) => v,
        }
    }
}

impl<T: Copy + Default> IntoIterator for Operands<T> {
    type Item = T;
    type IntoIter = OperandsIter<T>;
    fn into_iter(self) -> OperandsIter<T> {
        OperandsIter { items: self, at: 0 }
    }
}

impl<'a, T: Copy + Default> IntoIterator for &'a Operands<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> std::slice::Iter<'a, T> {
        self.iter()
    }
}

/// By-value iteration of `Operands`.
pub struct OperandsIter<T: Copy + Default> {
    items: Operands<T>,
    at: usize,
}

impl<T: Copy + Default> Iterator for OperandsIter<T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        let x = self.items.get(self.at).copied();
        self.at += 1;
        x
    }
}

impl Op {
    /// The values this operation reads.
    pub fn operands(&self) -> Operands<Value> {
        match self.operand_vec() {
            Ok(few) => few,
            Err(many) => Operands::Many(many),
        }
    }

    /// The operands inline, or (a phi's) in a vector.
    fn operand_vec(&self) -> Result<Operands<Value>, Vec<Value>> {
        let few = |v: &[Value]| Ok(Operands::few(v));
        match self {
            Op::Const(_)
            | Op::Arg(_)
            | Op::ArgAt { .. }
            | Op::ArgAddr(_)
            | Op::ConstData(_)
            | Op::PrivateBase
            | Op::PrintfBuffer
            | Op::GlobalVars
            | Op::ScratchBase
            | Op::Alloca { .. }
            | Op::RegArray { .. }
            | Op::Builtin(..)
            | Op::Barrier
            | Op::Fence
            | Op::Yield
            | Op::ImageParam { .. } => few(&[]),
            Op::ImageRead { coords, .. } => Err(coords.clone()),
            Op::Printf { args, .. } => Err(args.clone()),
            Op::ImageBlockRead { x, y, .. } => few(&[*x, *y]),
            Op::ImageBlockWrite { x, y, value, .. } => few(&[*x, *y, *value]),
            Op::ImageWrite { coords, values, .. } => {
                Err(coords.iter().chain(values).copied().collect())
            }
            Op::Bin(_, a, b)
            | Op::Cmp(_, a, b)
            | Op::PtrAdd(a, b)
            | Op::Atomic(_, a, b)
            | Op::FillInactive(a, b)
            | Op::Shuffle(a, b) => few(&[*a, *b]),
            Op::LaneScan { x, identity, .. } => few(&[*x, *identity]),
            Op::ReadLane(a, _) | Op::AtomicFence(a) => few(&[*a]),
            Op::CmpXchg { addr, cmp, value } => few(&[*addr, *cmp, *value]),
            Op::Un(_, a) | Op::Conv(_, a) | Op::ConvRound(_, a, _) => few(&[*a]),
            Op::Mad(a, b, c) | Op::Select(a, b, c) => few(&[*a, *b, *c]),
            Op::Load { addr, .. } => few(&[*addr]),
            Op::Store { addr, value, .. } => few(&[*addr, *value]),
            Op::Phi(ins) => Err(ins.iter().map(|(_, v)| *v).collect()),
        }
    }
    /// Rewrite every value this operation reads.
    pub fn map_operands(&mut self, f: &impl Fn(Value) -> Value) {
        match self {
            Op::Const(_)
            | Op::Arg(_)
            | Op::ArgAt { .. }
            | Op::ArgAddr(_)
            | Op::ConstData(_)
            | Op::PrivateBase
            | Op::PrintfBuffer
            | Op::GlobalVars
            | Op::ScratchBase
            | Op::Alloca { .. }
            | Op::RegArray { .. }
            | Op::Builtin(..)
            | Op::Barrier
            | Op::Fence
            | Op::Yield
            | Op::ImageParam { .. } => {}
            Op::ImageRead { coords, .. } => coords.iter_mut().for_each(|v| *v = f(*v)),
            Op::Printf { args, .. } => args.iter_mut().for_each(|v| *v = f(*v)),
            Op::ImageBlockRead { x, y, .. } => {
                *x = f(*x);
                *y = f(*y);
            }
            Op::ImageBlockWrite { x, y, value, .. } => {
                *x = f(*x);
                *y = f(*y);
                *value = f(*value);
            }
            Op::ImageWrite { coords, values, .. } => {
                coords.iter_mut().chain(values).for_each(|v| *v = f(*v))
            }
            Op::Bin(_, a, b)
            | Op::Cmp(_, a, b)
            | Op::PtrAdd(a, b)
            | Op::Atomic(_, a, b)
            | Op::FillInactive(a, b)
            | Op::Shuffle(a, b) => {
                *a = f(*a);
                *b = f(*b);
            }
            Op::ReadLane(a, _) | Op::AtomicFence(a) => *a = f(*a),
            Op::LaneScan { x, identity, .. } => {
                *x = f(*x);
                *identity = f(*identity);
            }
            Op::CmpXchg { addr, cmp, value } => {
                *addr = f(*addr);
                *cmp = f(*cmp);
                *value = f(*value);
            }
            Op::Un(_, a) | Op::Conv(_, a) | Op::ConvRound(_, a, _) => *a = f(*a),
            Op::Mad(a, b, c) | Op::Select(a, b, c) => {
                *a = f(*a);
                *b = f(*b);
                *c = f(*c);
            }
            Op::Load { addr, .. } => *addr = f(*addr),
            Op::Store { addr, value, .. } => {
                *addr = f(*addr);
                *value = f(*value);
            }
            Op::Phi(ins) => {
                for (_, v) in ins.iter_mut() {
                    *v = f(*v);
                }
            }
        }
    }

    pub fn has_side_effects(&self) -> bool {
        matches!(
            self,
            Op::Store { .. }
                | Op::Barrier
                | Op::Fence
                | Op::AtomicFence(_)
                | Op::Yield
                | Op::Atomic(..)
                | Op::CmpXchg { .. }
                | Op::ImageWrite { .. }
                | Op::ImageBlockWrite { .. }
                | Op::Printf { .. }
        )
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bb{}", self.0)
    }
}
