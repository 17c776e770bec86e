//! Sub-group and work-group functions: cl_khr_subgroups (get_sub_group_*, sub_group_barrier,
//! sub_group_all/any/broadcast/reduce/scan) and OpenCL C 2.0's work-group functions
//! (work_group_all/any/broadcast/reduce/scan).
//!
//! The sub-group is the hardware thread, its work-items the SIMD lanes, numbered in the
//! order the runtime lays out local IDs (x fastest, `SIMD` work-items a thread). Everything
//! is built from three IR primitives (`isel/subgroup.rs`): the lane number, `FillInactive`
//! (inactive lanes hold the operation's identity) and `ReadLane` (one lane's value, read by
//! all). A reduction folds the lanes' values as ordinary uniform arithmetic, so every type
//! and operation the IR has works; a scan selects each lane's prefix.
//!
//! Work-group functions combine the sub-groups' results through shared local memory: lane 0
//! of each sub-group writes its sub-group's value, the work-group meets at a barrier, every
//! work-item folds the values it needs, and a second barrier lets the next call reuse the
//! memory. They are called by every work-item of the group, as the spec requires.

use super::*;

/// SPIR-V scopes (Scope enumerant values).
const SCOPE_WORKGROUP: u32 = 2;
pub(super) const SCOPE_SUBGROUP: u32 = 3;

/// The operations of the group functions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum GroupOp {
    Add,
    FAdd,
    Mul,
    FMul,
    SMin,
    UMin,
    FMin,
    SMax,
    UMax,
    FMax,
    And,
    Or,
    Xor,
}

/// A clustered reduction's cluster size.
#[derive(Clone, Copy)]
enum Cluster {
    Fixed(u8),
    AtRunTime(Value),
}

/// Which of a group function's forms.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Reduce,
    Inclusive,
    Exclusive,
}

/// Bytes of shared local memory the work-group functions use: a slot of up to 8 bytes per
/// sub-group, 32 for the largest work-group (256 work-items) in the most sub-groups (SIMD8),
/// and room past them for the lanes of the fold's last turn (`fold_slots`: a turn from
/// slot c < 32 reads slots up to c + width - 1, at most 38), whose values it drops.
const COLLECTIVE_SLM: u32 = 8 * 40;

impl Lowerer<'_, '_> {
    /// The value of a Scope operand (a constant id).
    pub(super) fn scope(&mut self, i: &dr::Instruction, n: usize) -> Result<u32, FrontendError> {
        let id = match i.operands.get(n) {
            Some(Operand::IdScope(id) | Operand::IdRef(id)) => *id,
            other => return invalid(format!("{:?}: scope operand {other:?}", i.class.opcode)),
        };
        self.const_index(id)
            .map(|s| s as u32)
            .map_err(|_| FrontendError::Unsupported("a scope that is not a constant".into()))
    }

    /// get_local_size(d): the enqueued size, or what is left in the last group of a
    /// dimension (OpenCL 2.0 non-uniform groups): min(enqueued, global size - group ×
    /// enqueued).
    pub(super) fn actual_local_size(&mut self, b: Block, d: u8) -> Value {
        let enq = self
            .f
            .push(b, Op::Builtin(Builtin::EnqueuedLocalSize, d), Ty::I32);
        let gs = self.f.push(b, Op::Builtin(Builtin::GlobalSize, d), Ty::I32);
        let gid = self.f.push(b, Op::Builtin(Builtin::GroupId, d), Ty::I32);
        let start = self.f.push(b, Op::Bin(BinOp::Mul, gid, enq), Ty::I32);
        let left = self.f.push(b, Op::Bin(BinOp::Sub, gs, start), Ty::I32);
        self.f
            .push(b, Op::Bin(BinOp::Min { signed: false }, enq, left), Ty::I32)
    }

    /// get_local_linear_id() and the work-group's size in work-items.
    fn local_linear(&mut self, b: Block) -> (Value, Value) {
        let l: Vec<Value> = (0..3)
            .map(|d| self.f.push(b, Op::Builtin(Builtin::LocalId, d), Ty::I32))
            .collect();
        self.linear_of(b, &l)
    }

    /// The linear id of local IDs `l` (x fastest) and the work-group's size.
    fn linear_of(&mut self, b: Block, l: &[Value]) -> (Value, Value) {
        let s: Vec<Value> = (0..3).map(|d| self.actual_local_size(b, d)).collect();
        let yz = self.f.push(b, Op::Mad(l[2], s[1], l[1]), Ty::I32);
        let id = self.f.push(b, Op::Mad(yz, s[0], l[0]), Ty::I32);
        let s01 = self.f.push(b, Op::Bin(BinOp::Mul, s[0], s[1]), Ty::I32);
        let size = self.f.push(b, Op::Bin(BinOp::Mul, s01, s[2]), Ty::I32);
        (id, size)
    }

    /// Lane 0's local linear id and the work-group's size, both uniform: lane 0's local
    /// IDs read once each and combined as scalars, not every lane's linear id computed to
    /// read one. Lane 0 must be active (a work-group function: every work-item calls it,
    /// and every thread's lane 0 is a work-item).
    fn first_linear(&mut self, b: Block) -> (Value, Value) {
        let l: Vec<Value> = (0..3)
            .map(|d| {
                let id = self.f.push(b, Op::Builtin(Builtin::LocalId, d), Ty::I32);
                self.f.push(b, Op::ReadLane(id, 0), Ty::I32)
            })
            .collect();
        self.linear_of(b, &l)
    }

    fn simd(&mut self) -> Value {
        let w = self.width();
        self.konst(Ty::I32, u64::from(w))
    }

    /// The sub-group built-in variables that are not a lane number.
    pub(super) fn subgroup_builtin(
        &mut self,
        b: Block,
        which: spirv::BuiltIn,
    ) -> Result<Value, FrontendError> {
        let simd = self.simd();
        let shift = self.konst(Ty::I32, u64::from(self.width().trailing_zeros()));
        let round_up = |me: &mut Self, n: Value| {
            let k = me.konst(Ty::I32, u64::from(me.width()) - 1);
            let n = me.f.push(b, Op::Bin(BinOp::Add, n, k), Ty::I32);
            me.f.push(b, Op::Bin(BinOp::LShr, n, shift), Ty::I32)
        };
        Ok(match which {
            spirv::BuiltIn::SubgroupMaxSize => simd,
            // get_local_linear_id().
            spirv::BuiltIn::LocalInvocationIndex => self.local_linear(b).0,
            // get_global_linear_id(): (id - offset) of each dimension, x fastest.
            spirv::BuiltIn::GlobalLinearId => {
                let mut lin = self.konst(Ty::I64, 0);
                for d in (0..3).rev() {
                    let id = self.f.push(b, Op::Builtin(Builtin::GlobalId, d), Ty::I32);
                    let off = self
                        .f
                        .push(b, Op::Builtin(Builtin::GlobalOffset, d), Ty::I32);
                    let rel = self.f.push(b, Op::Bin(BinOp::Sub, id, off), Ty::I32);
                    let rel = self.f.push(b, Op::Conv(ConvOp::ZExt, rel), Ty::I64);
                    let gs = self.f.push(b, Op::Builtin(Builtin::GlobalSize, d), Ty::I32);
                    let gs = self.f.push(b, Op::Conv(ConvOp::ZExt, gs), Ty::I64);
                    // (64-bit multiply as a Bin: Gen9 has no qword mad.)
                    let scaled = self.f.push(b, Op::Bin(BinOp::Mul, lin, gs), Ty::I64);
                    lin = self.f.push(b, Op::Bin(BinOp::Add, scaled, rel), Ty::I64);
                }
                return Ok(lin);
            }
            spirv::BuiltIn::SubgroupId => {
                let (id, _) = self.local_linear(b);
                self.f.push(b, Op::Bin(BinOp::LShr, id, shift), Ty::I32)
            }
            spirv::BuiltIn::NumSubgroups => {
                let (_, size) = self.local_linear(b);
                round_up(self, size)
            }
            spirv::BuiltIn::NumEnqueuedSubgroups => {
                let e: Vec<Value> = (0..3)
                    .map(|d| {
                        self.f
                            .push(b, Op::Builtin(Builtin::EnqueuedLocalSize, d), Ty::I32)
                    })
                    .collect();
                let e01 = self.f.push(b, Op::Bin(BinOp::Mul, e[0], e[1]), Ty::I32);
                let n = self.f.push(b, Op::Bin(BinOp::Mul, e01, e[2]), Ty::I32);
                round_up(self, n)
            }
            // The last sub-group of a work-group that is not a multiple of SIMD is smaller.
            spirv::BuiltIn::SubgroupSize => {
                let (id, size) = self.local_linear(b);
                let sg = self.f.push(b, Op::Bin(BinOp::LShr, id, shift), Ty::I32);
                let first = self.f.push(b, Op::Bin(BinOp::Shl, sg, shift), Ty::I32);
                let left = self.f.push(b, Op::Bin(BinOp::Sub, size, first), Ty::I32);
                self.f.push(
                    b,
                    Op::Bin(BinOp::Min { signed: false }, left, simd),
                    Ty::I32,
                )
            }
            other => return unsupported(format!("built-in variable {other:?}")),
        })
    }

    /// One OpGroup* instruction: the sub-group or work-group form of all, any, broadcast,
    /// reduce and scan.
    pub(super) fn group_function(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        cur: Block,
    ) -> Result<(Block, Vec<Value>), FrontendError> {
        let scope = self.scope(i, 0)?;
        if scope != SCOPE_SUBGROUP && scope != SCOPE_WORKGROUP {
            return unsupported(format!("group operations at scope {scope}"));
        }
        let wg = scope == SCOPE_WORKGROUP;
        let op = i.class.opcode;
        if matches!(op, SOp::GroupAll | SOp::GroupAny) {
            let p = self.val(fr, id_op(i, 1)?)?;
            let (one, zero) = (self.konst(Ty::I32, 1), self.konst(Ty::I32, 0));
            let x = self.f.push(cur, Op::Select(p, one, zero), Ty::I32);
            let g = if op == SOp::GroupAll {
                GroupOp::And
            } else {
                GroupOp::Or
            };
            let (b, r) = self.collective(cur, g, Form::Reduce, x, wg, None)?;
            let r = self.f.push(b, Op::Cmp(CmpOp::Ne, r, zero), Ty::Bool);
            return Ok((b, vec![r]));
        }
        if op == SOp::GroupBroadcast {
            let x = self.vals(fr, id_op(i, 1)?)?;
            let id = self.vals(fr, id_op(i, 2)?)?;
            return self.broadcast(cur, &x, &id, wg);
        }
        let mut cluster = None;
        let form = match i.operands.get(1) {
            Some(Operand::GroupOperation(spirv::GroupOperation::Reduce)) => Form::Reduce,
            Some(Operand::GroupOperation(spirv::GroupOperation::InclusiveScan)) => Form::Inclusive,
            Some(Operand::GroupOperation(spirv::GroupOperation::ExclusiveScan)) => Form::Exclusive,
            // cl_khr_subgroup_clustered_reduce: ClusterSize, a power of two no larger than the
            // sub-group. SPIR-V wants a constant, but LLVM merges a `switch` over the sizes
            // into one call on the variable (the CTS's kernels), so a run-time size is read too.
            Some(Operand::GroupOperation(spirv::GroupOperation::ClusteredReduce)) if !wg => {
                let id = id_op(i, 3)?;
                cluster = Some(match self.const_index(id) {
                    Ok(c) if c.is_power_of_two() && c <= u64::from(self.width()) => {
                        Cluster::Fixed(c as u8)
                    }
                    Ok(c) => {
                        return unsupported(format!(
                            "a cluster of {c} work-items in sub-groups of {}",
                            self.width()
                        ))
                    }
                    Err(_) => Cluster::AtRunTime(self.val(fr, id)?),
                });
                Form::Reduce
            }
            other => return unsupported(format!("group operation {other:?}")),
        };
        // cl_khr_subgroup_non_uniform_arithmetic's forms (SPIR-V 1.3) read the lanes active
        // where they are called, as every collective here does (an inactive lane reads as
        // the identity).
        if i.operands.len() > 3 && cluster.is_none() {
            return invalid(format!("{op:?} with an operand past its value"));
        }
        let g = match op {
            SOp::GroupIAdd | SOp::GroupNonUniformIAdd => GroupOp::Add,
            SOp::GroupFAdd | SOp::GroupNonUniformFAdd => GroupOp::FAdd,
            SOp::GroupNonUniformIMul => GroupOp::Mul,
            SOp::GroupNonUniformFMul => GroupOp::FMul,
            SOp::GroupFMin | SOp::GroupNonUniformFMin => GroupOp::FMin,
            SOp::GroupUMin | SOp::GroupNonUniformUMin => GroupOp::UMin,
            SOp::GroupSMin | SOp::GroupNonUniformSMin => GroupOp::SMin,
            SOp::GroupFMax | SOp::GroupNonUniformFMax => GroupOp::FMax,
            SOp::GroupUMax | SOp::GroupNonUniformUMax => GroupOp::UMax,
            SOp::GroupNonUniformBitwiseAnd | SOp::GroupNonUniformLogicalAnd => GroupOp::And,
            SOp::GroupNonUniformBitwiseOr | SOp::GroupNonUniformLogicalOr => GroupOp::Or,
            SOp::GroupNonUniformBitwiseXor | SOp::GroupNonUniformLogicalXor => GroupOp::Xor,
            SOp::GroupSMax | SOp::GroupNonUniformSMax => GroupOp::SMax,
            other => return unsupported(format!("group operation {other:?}")),
        };
        let x = self.val(fr, id_op(i, 2)?)?;
        // The logical forms reduce bools: as 0 and 1, and back.
        if self.f.ty(x) == Ty::Bool {
            let (one, zero) = (self.konst(Ty::I32, 1), self.konst(Ty::I32, 0));
            let x = self.f.push(cur, Op::Select(x, one, zero), Ty::I32);
            let (b, r) = match cluster {
                Some(c) => (cur, self.clustered(cur, g, x, c, None)?),
                None => self.collective(cur, g, form, x, wg, None)?,
            };
            return Ok((
                b,
                vec![self.f.push(b, Op::Cmp(CmpOp::Ne, r, zero), Ty::Bool)],
            ));
        }
        // char and short (cl_khr_subgroup_extended_types) are carried zero-extended in 32-bit
        // registers (`ModuleInfo::odd_width`): signed minima and maxima compare them
        // sign-extended, the identities are the narrow type's (an exclusive scan's first lane
        // reads one: CHAR_MIN for max on char), and the result is zero-extended again.
        let narrow = match i.result_type.map(|t| self.info.ty(t)) {
            Some(Ok(SType::Int(w @ (8 | 16)))) => Some(*w),
            _ => None,
        };
        let x = match (narrow, g) {
            (Some(w), GroupOp::SMin | GroupOp::SMax) => {
                let k = self.konst(Ty::I32, u64::from(32 - w));
                let up = self.f.push(cur, Op::Bin(BinOp::Shl, x, k), Ty::I32);
                self.f.push(cur, Op::Bin(BinOp::AShr, up, k), Ty::I32)
            }
            _ => x,
        };
        let (b, r) = match cluster {
            Some(c) => (cur, self.clustered(cur, g, x, c, narrow)?),
            None => self.collective(cur, g, form, x, wg, narrow)?,
        };
        let r = match narrow {
            Some(w) => {
                let m = self.konst(Ty::I32, (1u64 << w) - 1);
                self.f.push(b, Op::Bin(BinOp::And, r, m), Ty::I32)
            }
            None => r,
        };
        Ok((b, vec![r]))
    }

    /// The identity of `op` on values of `ty`, as bits; for a char or short (`narrow`, its
    /// width) carried in 32 bits, the narrow type's, sign-extended for the signed operations.
    fn identity(ty: Ty, op: GroupOp, narrow: Option<u32>) -> Result<u64, FrontendError> {
        if let Some(w) = narrow {
            let bits = match op {
                GroupOp::UMin | GroupOp::And => (1u64 << w) - 1,
                GroupOp::SMin => (1i64 << (w - 1)) as u64 - 1,
                GroupOp::SMax => u64::from(-(1i32 << (w - 1)) as u32),
                GroupOp::Mul => 1,
                _ => 0,
            };
            return Ok(bits);
        }
        let wide = ty.bytes() == 8;
        Ok(match (op, ty) {
            (GroupOp::Add | GroupOp::Or | GroupOp::Xor | GroupOp::UMax, _) => 0,
            (GroupOp::Mul, _) => 1,
            (GroupOp::FMul, Ty::F32) => 1.0f32.to_bits().into(),
            (GroupOp::FMul, Ty::F64) => 1.0f64.to_bits(),
            (GroupOp::And | GroupOp::UMin, _) => {
                if wide {
                    u64::MAX
                } else {
                    u64::from(u32::MAX)
                }
            }
            (GroupOp::SMin, _) => {
                if wide {
                    i64::MAX as u64
                } else {
                    i32::MAX as u32 as u64
                }
            }
            (GroupOp::SMax, _) => {
                if wide {
                    i64::MIN as u64
                } else {
                    i32::MIN as u32 as u64
                }
            }
            (GroupOp::FAdd, Ty::F32) => (-0.0f32).to_bits().into(),
            (GroupOp::FAdd, Ty::F64) => (-0.0f64).to_bits(),
            (GroupOp::FMin, Ty::F32) => f32::INFINITY.to_bits().into(),
            (GroupOp::FMin, Ty::F64) => f64::INFINITY.to_bits(),
            (GroupOp::FMax, Ty::F32) => f32::NEG_INFINITY.to_bits().into(),
            (GroupOp::FMax, Ty::F64) => f64::NEG_INFINITY.to_bits(),
            (op, ty) => return unsupported(format!("group {op:?} on {ty:?}")),
        })
    }

    fn combine(&mut self, b: Block, op: GroupOp, a: Value, x: Value) -> Value {
        let ty = self.f.ty(a);
        self.f.push(b, Op::Bin(Self::bin_op(op), a, x), ty)
    }

    /// The IR operation a group operation folds with.
    fn bin_op(op: GroupOp) -> BinOp {
        match op {
            GroupOp::Add => BinOp::Add,
            GroupOp::FAdd => BinOp::FAdd,
            GroupOp::Mul => BinOp::Mul,
            GroupOp::FMul => BinOp::FMul,
            GroupOp::SMin => BinOp::Min { signed: true },
            GroupOp::UMin => BinOp::Min { signed: false },
            GroupOp::FMin => BinOp::FMin,
            GroupOp::SMax => BinOp::Max { signed: true },
            GroupOp::UMax => BinOp::Max { signed: false },
            GroupOp::FMax => BinOp::FMax,
            GroupOp::And => BinOp::And,
            GroupOp::Or => BinOp::Or,
            GroupOp::Xor => BinOp::Xor,
        }
    }

    /// Every lane's `x` as a uniform value, lane 0 first, an inactive lane reading as the
    /// identity of `op` (what the reductions, scans and clusters fold).
    fn lanes(
        &mut self,
        b: Block,
        op: GroupOp,
        x: Value,
        narrow: Option<u32>,
    ) -> Result<Vec<Value>, FrontendError> {
        let ty = self.f.ty(x);
        if !matches!(ty, Ty::I32 | Ty::I64 | Ty::F32 | Ty::F64) {
            return unsupported(format!("sub-group and work-group functions on {ty:?}"));
        }
        let ident = self.konst(ty, Self::identity(ty, op, narrow)?);
        let filled = self.f.push(b, Op::FillInactive(x, ident), ty);
        Ok((0..self.width())
            .map(|k| self.f.push(b, Op::ReadLane(filled, k), ty))
            .collect())
    }

    /// The sub-group's inclusive prefixes of `x` under `op`, lane by lane (uniform values;
    /// the last is the reduction), with the identity standing in for inactive lanes.
    fn prefixes(
        &mut self,
        b: Block,
        op: GroupOp,
        x: Value,
        narrow: Option<u32>,
    ) -> Result<Vec<Value>, FrontendError> {
        let lanes = self.lanes(b, op, x, narrow)?;
        let mut acc = lanes[0];
        let mut out = vec![acc];
        for &lane in &lanes[1..] {
            acc = self.combine(b, op, acc, lane);
            out.push(acc);
        }
        Ok(out)
    }

    /// A clustered reduction: each lane gets the reduction over its cluster, the `c`
    /// consecutive lanes `l - l % c ..` (inactive ones reading as the identity). The
    /// clusters of each size are folded from those of half the size; a size known only at
    /// run time picks among every power of two up to the width.
    fn clustered(
        &mut self,
        b: Block,
        op: GroupOp,
        x: Value,
        c: Cluster,
        narrow: Option<u32>,
    ) -> Result<Value, FrontendError> {
        let ty = self.f.ty(x);
        let largest = match c {
            Cluster::Fixed(c) => c,
            Cluster::AtRunTime(_) => self.width(),
        };
        // totals[s][j]: the fold of cluster j of size 2^s.
        let mut totals = vec![self.lanes(b, op, x, narrow)?];
        while (1u8 << (totals.len() - 1)) < largest {
            let half = &totals[totals.len() - 1];
            let pairs: Vec<(Value, Value)> = half.chunks(2).map(|p| (p[0], p[1])).collect();
            let next = pairs
                .into_iter()
                .map(|(a, z)| self.combine(b, op, a, z))
                .collect();
            totals.push(next);
        }
        let lane = self
            .f
            .push(b, Op::Builtin(Builtin::SubgroupLocalId, 0), Ty::I32);
        let by_size = |me: &mut Self, s: usize| {
            let shift = me.konst(Ty::I32, s as u64);
            let which = me.f.push(b, Op::Bin(BinOp::LShr, lane, shift), Ty::I32);
            let level = &totals[s];
            let mut r = level[level.len() - 1];
            for (j, &t) in level.iter().enumerate().rev().skip(1) {
                let jj = me.konst(Ty::I32, j as u64);
                let is = me.f.push(b, Op::Cmp(CmpOp::Eq, which, jj), Ty::Bool);
                r = me.f.push(b, Op::Select(is, t, r), ty);
            }
            r
        };
        let c = match c {
            Cluster::Fixed(_) => return Ok(by_size(self, totals.len() - 1)),
            Cluster::AtRunTime(c) => self.lane_index(b, c),
        };
        let mut r = by_size(self, totals.len() - 1);
        for s in (0..totals.len() - 1).rev() {
            let v = by_size(self, s);
            let k = self.konst(Ty::I32, 1u64 << s);
            let is = self.f.push(b, Op::Cmp(CmpOp::Eq, c, k), Ty::Bool);
            r = self.f.push(b, Op::Select(is, v, r), ty);
        }
        Ok(r)
    }

    /// The sub-group form: the reduction (uniform), or each lane's inclusive or exclusive
    /// prefix.
    fn subgroup(
        &mut self,
        b: Block,
        op: GroupOp,
        form: Form,
        x: Value,
        narrow: Option<u32>,
    ) -> Result<Value, FrontendError> {
        let ty = self.f.ty(x);
        let bop = Self::bin_op(op);
        if crate::ir::lane_scannable(bop, ty) {
            // A scan across the lanes in log2(width) steps (isel's `lane_scan`); the
            // reduction is its last lane.
            let ident = self.konst(ty, Self::identity(ty, op, narrow)?);
            if form == Form::Reduce {
                return Ok(self.f.reduce_active_lanes(b, bop, x, ident, self.width()));
            }
            let filled = self.f.push(b, Op::FillInactive(x, ident), ty);
            let scan = Op::LaneScan {
                op: bop,
                x: filled,
                identity: ident,
                exclusive: form == Form::Exclusive,
            };
            return Ok(self.f.push(b, scan, ty));
        }
        let p = self.prefixes(b, op, x, narrow)?;
        if form == Form::Reduce {
            return Ok(p[p.len() - 1]);
        }
        let lane = self
            .f
            .push(b, Op::Builtin(Builtin::SubgroupLocalId, 0), Ty::I32);
        // Lane k's value: its prefix (inclusive), or the one before (exclusive).
        let pick = |k: usize| -> Option<usize> {
            match form {
                Form::Exclusive => k.checked_sub(1),
                _ => Some(k),
            }
        };
        let last = p.len() - 1;
        let ident = self.konst(ty, Self::identity(ty, op, narrow)?);
        let mut r = pick(last).map_or(ident, |j| p[j]);
        for k in (0..last).rev() {
            let kk = self.konst(Ty::I32, k as u64);
            let is = self.f.push(b, Op::Cmp(CmpOp::Eq, lane, kk), Ty::Bool);
            let v = pick(k).map_or(ident, |j| p[j]);
            r = self.f.push(b, Op::Select(is, v, r), ty);
        }
        Ok(r)
    }

    /// Reduce or scan at sub-group or work-group scope.
    fn collective(
        &mut self,
        b: Block,
        op: GroupOp,
        form: Form,
        x: Value,
        wg: bool,
        narrow: Option<u32>,
    ) -> Result<(Block, Value), FrontendError> {
        if !wg {
            return Ok((b, self.subgroup(b, op, form, x, narrow)?));
        }
        let ty = self.f.ty(x);
        let total = self.subgroup(b, op, Form::Reduce, x, narrow)?;
        let own = match form {
            Form::Reduce => None,
            _ => Some(self.subgroup(b, op, form, x, narrow)?),
        };
        // Lane 0 of each sub-group writes the sub-group's total at its index.
        let slm = self.collective_slm()?;
        let shift = self.konst(Ty::I32, u64::from(self.width().trailing_zeros()));
        // The sub-group's index, uniform: lane 0's linear id over the width.
        let (lin0, _) = self.first_linear(b);
        let sg = self.f.push(b, Op::Bin(BinOp::LShr, lin0, shift), Ty::I32);
        let lane = self
            .f
            .push(b, Op::Builtin(Builtin::SubgroupLocalId, 0), Ty::I32);
        let zero = self.konst(Ty::I32, 0);
        let first = self.f.push(b, Op::Cmp(CmpOp::Eq, lane, zero), Ty::Bool);
        let at = self.slot(b, slm, sg);
        let b = self.guarded_store(b, first, at, total)?;
        self.f.push(b, Op::Barrier, Ty::Void);
        // Fold the totals of the sub-groups before this one (scans) or of all (reduce).
        let count = match form {
            Form::Reduce => self.subgroup_builtin(b, spirv::BuiltIn::NumSubgroups)?,
            _ => sg,
        };
        let (b, acc) = self.fold_slots(b, slm, count, op, ty, narrow)?;
        self.f.push(b, Op::Barrier, Ty::Void);
        let r = match own {
            None => acc,
            Some(v) => self.combine(b, op, acc, v),
        };
        Ok((b, r))
    }

    /// work_group_broadcast / sub_group_broadcast: `x` of the work-item whose local id (or
    /// lane) is `id`.
    fn broadcast(
        &mut self,
        b: Block,
        x: &[Value],
        id: &[Value],
        wg: bool,
    ) -> Result<(Block, Vec<Value>), FrontendError> {
        let id32 = |me: &mut Self, v: Value| me.lane_index(b, v);
        if !wg {
            let lane = id.first().copied().ok_or_else(|| {
                FrontendError::InvalidIl("sub_group_broadcast without a lane".into())
            })?;
            let lane = id32(self, lane);
            let mut out = Vec::new();
            for &v in x {
                let ty = self.f.ty(v);
                // A constant lane reads it directly; any other is a shuffle (one indirect
                // gather, where a chain of selects over the lanes took three instructions a
                // lane).
                if let Op::Const(k) = self.f.inst(lane).op {
                    out.push(self.f.push(b, Op::ReadLane(v, k as u8), ty));
                    continue;
                }
                out.push(self.f.push(b, Op::Shuffle(v, lane), ty));
            }
            return Ok((b, out));
        }
        // The work-item at local id (x, y, z) writes its value; everyone reads it.
        let s: Vec<Value> = (0..3).map(|d| self.actual_local_size(b, d)).collect();
        let zero = self.konst(Ty::I32, 0);
        let c: Vec<Value> = (0..3)
            .map(|d| id.get(d).map_or(zero, |v| id32(self, *v)))
            .collect();
        let yz = self.f.push(b, Op::Mad(c[2], s[1], c[1]), Ty::I32);
        let target = self.f.push(b, Op::Mad(yz, s[0], c[0]), Ty::I32);
        let (lin, _) = self.local_linear(b);
        let me = self.f.push(b, Op::Cmp(CmpOp::Eq, lin, target), Ty::Bool);
        let slm = self.collective_slm()?;
        let mut out = Vec::new();
        let mut b = b;
        for (k, &v) in x.iter().enumerate() {
            let kk = self.konst(Ty::I32, k as u64);
            let at = self.slot(b, slm, kk);
            let nb = self.guarded_store(b, me, at, v)?;
            b = nb;
            self.f.push(b, Op::Barrier, Ty::Void);
            let ty = self.f.ty(v);
            let r = self.f.push(
                b,
                Op::Load {
                    addr: at,
                    align: ty.bytes(),
                    bytes: ty.bytes(),
                },
                ty,
            );
            out.push(r);
            self.f.push(b, Op::Barrier, Ty::Void);
        }
        Ok((b, out))
    }

    /// async_work_group_copy and async_work_group_strided_copy: the work-group's items share
    /// the elements (item k copies k, k + size, ...) and the copy is complete when the call
    /// returns; the stride (in elements) applies to the global side. Returns the block
    /// after and the event (the one passed in: nothing is left to wait for).
    pub(super) fn async_copy(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        pre: Block,
    ) -> Result<(Block, Value), FrontendError> {
        let (dst_id, src_id) = (id_op(i, 1)?, id_op(i, 2)?);
        let (dst, src) = (self.val(fr, dst_id)?, self.val(fr, src_id)?);
        let count = self.val(fr, id_op(i, 3)?)?;
        let stride = self.val(fr, id_op(i, 4)?)?;
        let event = self.val(fr, id_op(i, 5)?)?;
        let tid = fr
            .types
            .get(&dst_id)
            .or_else(|| self.info.type_of.get(&dst_id))
            .copied()
            .ok_or_else(|| FrontendError::InvalidIl("async copy without types".into()))?;
        let SType::Pointer(_, elem) = self.info.ty(tid)?.clone() else {
            return invalid("async copy to a non-pointer");
        };
        let bytes = self.info.size_of(elem)?;
        let align = self.info.align_of(elem)? as u32;
        let wide = |me: &mut Self, b: Block, v: Value| match me.f.ty(v) {
            Ty::I64 => v,
            _ => me.f.push(b, Op::Conv(ConvOp::ZExt, v), Ty::I64),
        };
        let (count, stride) = (wide(self, pre, count), wide(self, pre, stride));
        let (lin, size) = self.local_linear(pre);
        let (lin, size) = (wide(self, pre, lin), wide(self, pre, size));
        let strided_src = self.f.ty(dst) == Ty::Ptr(Space::Local);
        let esize = self.konst(Ty::I64, bytes);
        let head = self.f.add_block();
        let body = self.f.add_block();
        let exit = self.f.add_block();
        self.f.blocks[pre.0 as usize].term = Term::Br(head);
        let k = self.f.push(head, Op::Phi(Vec::new()), Ty::I64);
        let more = self.f.push(
            head,
            Op::Cmp(CmpOp::Lt { signed: false }, k, count),
            Ty::Bool,
        );
        self.f.blocks[head.0 as usize].term = Term::CondBr(more, body, exit);
        let far = self.f.push(body, Op::Bin(BinOp::Mul, k, stride), Ty::I64);
        let (si, di) = if strided_src { (far, k) } else { (k, far) };
        let so = self.f.push(body, Op::Bin(BinOp::Mul, si, esize), Ty::I64);
        let dof = self.f.push(body, Op::Bin(BinOp::Mul, di, esize), Ty::I64);
        let (st, dt) = (self.f.ty(src), self.f.ty(dst));
        let sa = self.f.push(body, Op::PtrAdd(src, so), st);
        let da = self.f.push(body, Op::PtrAdd(dst, dof), dt);
        // The element's bytes, padding included (a 3-vector is four elements in memory,
        // and code reading the copy back as a 4-vector sees all of them).
        self.copy_bytes(body, da, sa, bytes, align);
        let k2 = self.f.push(body, Op::Bin(BinOp::Add, k, size), Ty::I64);
        self.f.blocks[body.0 as usize].term = Term::Br(head);
        self.f.insts[k.0 as usize].op = Op::Phi(vec![(pre, lin), (body, k2)]);
        Ok((exit, event))
    }

    /// Where slot `k` of the work-group functions' local memory is (8 bytes each).
    fn slot(&mut self, b: Block, slm: Value, k: Value) -> Value {
        let k64 = self.f.push(b, Op::Conv(ConvOp::ZExt, k), Ty::I64);
        let eight = self.konst(Ty::I64, 8);
        let off = self.f.push(b, Op::Bin(BinOp::Mul, k64, eight), Ty::I64);
        self.f.push(b, Op::PtrAdd(slm, off), Ty::Ptr(Space::Local))
    }

    /// Store `v` at `at` in the work-items where `cond` holds; returns the block after.
    fn guarded_store(
        &mut self,
        b: Block,
        cond: Value,
        at: Value,
        v: Value,
    ) -> Result<Block, FrontendError> {
        let write = self.f.add_block();
        let join = self.f.add_block();
        self.f.blocks[b.0 as usize].term = Term::CondBr(cond, write, join);
        let bytes = self.f.ty(v).bytes();
        self.f.push(
            write,
            Op::Store {
                addr: at,
                value: v,
                align: bytes,
                bytes,
            },
            Ty::Void,
        );
        self.f.blocks[write.0 as usize].term = Term::Br(join);
        Ok(join)
    }

    /// The fold of slots `0..count` (the sub-groups' totals) by `op`. Where the order does
    /// not change the result (`lane_scannable`: the integer operations, float min and max),
    /// each lane reads the slot of its index, and those a sub-group's size further while
    /// slots are left (a partial last thread's lanes cover every slot; the lanes past the
    /// count take the identity), and the lanes are reduced as a sub-group's
    /// are: where a sub-group has as many lanes as there are slots, one gather and
    /// log2(width) steps in straight code, where a loop of one uniform read a slot waited
    /// for each read in turn. Float add and multiply fold in slot order, a read at a time,
    /// as the sub-group's lanes do.
    fn fold_slots(
        &mut self,
        pre: Block,
        slm: Value,
        count: Value,
        op: GroupOp,
        ty: Ty,
        narrow: Option<u32>,
    ) -> Result<(Block, Value), FrontendError> {
        let ident = self.konst(ty, Self::identity(ty, op, narrow)?);
        let (zero, one) = (self.konst(Ty::I32, 0), self.konst(Ty::I32, 1));
        let gather = crate::ir::lane_scannable(Self::bin_op(op), ty);
        // Slot `k`'s value, read in block `b`.
        let read = |me: &mut Self, b: Block, k: Value| {
            let at = me.slot(b, slm, k);
            let load = Op::Load {
                addr: at,
                align: ty.bytes(),
                bytes: ty.bytes(),
            };
            me.f.push(b, load, ty)
        };
        // The lanes' reads from slot `c` on, in block `b`.
        let turn = |me: &mut Self, b: Block, c: Value, lane: Value| {
            let k = me.f.push(b, Op::Bin(BinOp::Add, c, lane), Ty::I32);
            let inside =
                me.f.push(b, Op::Cmp(CmpOp::Lt { signed: false }, k, count), Ty::Bool);
            // Past the count a lane reads a slot no sub-group wrote (the area has room for
            // them: `COLLECTIVE_SLM`) and takes the identity instead.
            let v = read(me, b, k);
            me.f.push(b, Op::Select(inside, v, ident), ty)
        };
        // The loop's first slot, step and first value: after one turn in straight code
        // (gathered), or from slot 0 one at a time (in order).
        let (start, step, first, lane) = if gather {
            let lane = self
                .f
                .push(pre, Op::Builtin(Builtin::SubgroupLocalId, 0), Ty::I32);
            // The sub-group's size, uniform: the work-items from lane 0's linear id on, at
            // most the width.
            let (lin0, size) = self.first_linear(pre);
            let left = self.f.push(pre, Op::Bin(BinOp::Sub, size, lin0), Ty::I32);
            let width = self.konst(Ty::I32, u64::from(self.width()));
            let n = self.f.push(
                pre,
                Op::Bin(BinOp::Min { signed: false }, left, width),
                Ty::I32,
            );
            let v = turn(self, pre, zero, lane);
            (n, n, v, Some(lane))
        } else {
            (zero, one, ident, None)
        };
        let head = self.f.add_block();
        let body = self.f.add_block();
        let exit = self.f.add_block();
        self.f.blocks[pre.0 as usize].term = Term::Br(head);
        let c = self.f.push(head, Op::Phi(Vec::new()), Ty::I32);
        let acc = self.f.push(head, Op::Phi(Vec::new()), ty);
        let more = self.f.push(
            head,
            Op::Cmp(CmpOp::Lt { signed: false }, c, count),
            Ty::Bool,
        );
        self.f.blocks[head.0 as usize].term = Term::CondBr(more, body, exit);
        let v = match lane {
            Some(lane) => turn(self, body, c, lane),
            None => read(self, body, c),
        };
        let acc2 = self.combine(body, op, acc, v);
        let c2 = self.f.push(body, Op::Bin(BinOp::Add, c, step), Ty::I32);
        self.f.blocks[body.0 as usize].term = Term::Br(head);
        self.f.insts[c.0 as usize].op = Op::Phi(vec![(pre, start), (body, c2)]);
        self.f.insts[acc.0 as usize].op = Op::Phi(vec![(pre, first), (body, acc2)]);
        if !gather {
            return Ok((exit, acc));
        }
        Ok((exit, self.subgroup(exit, op, Form::Reduce, acc, narrow)?))
    }

    /// The shared local memory the work-group functions exchange values through, placed
    /// after the kernel's `__local` variables on first use.
    fn collective_slm(&mut self) -> Result<Value, FrontendError> {
        let reserved = self
            .slm
            .borrow_mut()
            .reserve(SLM_COLLECTIVES, COLLECTIVE_SLM.into(), 8);
        let Some((off, _)) = reserved else {
            return unsupported("no local memory left for the work-group functions");
        };
        Ok(self
            .f
            .push(Block(0), Op::Const(off.into()), Ty::Ptr(Space::Local)))
    }
}

impl Lowerer<'_, '_> {
    /// cl_intel_subgroups (SPV_INTEL_subgroups): the four shuffles and the buffer block
    /// reads and writes.
    ///
    /// A shuffle is `Op::Shuffle` (lane `idx` modulo the width): xor reads lane `id ^ v`;
    /// down reads lane `id + d` of `current`, or of `next` past the sub-group (`id + d - S`,
    /// the same lane modulo S); up reads lane `id - d` of `current`, or of `previous` before
    /// it. Block reads and writes move element k of lane l at `p[k * S + l]`
    /// (cl_intel_subgroups: "the data is read from ... the sub-group's block"), as gathers
    /// and scatters through the ordinary message path.
    pub(super) fn intel_subgroup(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        b: Block,
    ) -> Result<Vec<Value>, FrontendError> {
        let op = i.class.opcode;
        let lane = self
            .f
            .push(b, Op::Builtin(Builtin::SubgroupLocalId, 0), Ty::I32);
        let to32 = |me: &mut Self, v: Value| me.lane_index(b, v);
        let shuffle = |me: &mut Self, xs: &[Value], idx: Value| me.shuffled(b, xs, idx);
        Ok(match op {
            SOp::SubgroupShuffleINTEL | SOp::SubgroupShuffleXorINTEL => {
                let xs = self.vals(fr, id_op(i, 0)?)?;
                let k = self.val(fr, id_op(i, 1)?)?;
                let k = to32(self, k);
                let idx = if op == SOp::SubgroupShuffleXorINTEL {
                    self.f.push(b, Op::Bin(BinOp::Xor, lane, k), Ty::I32)
                } else {
                    k
                };
                shuffle(self, &xs, idx)
            }
            SOp::SubgroupShuffleDownINTEL | SOp::SubgroupShuffleUpINTEL => {
                let first = self.vals(fr, id_op(i, 0)?)?;
                let second = self.vals(fr, id_op(i, 1)?)?;
                let d = self.val(fr, id_op(i, 2)?)?;
                let d = to32(self, d);
                let down = op == SOp::SubgroupShuffleDownINTEL;
                let (idx, inside, from_current, beyond) = if down {
                    // (current, next): lanes id + d below S come from current.
                    let idx = self.f.push(b, Op::Bin(BinOp::Add, lane, d), Ty::I32);
                    let s = self.konst(Ty::I32, u64::from(self.width()));
                    let inside =
                        self.f
                            .push(b, Op::Cmp(CmpOp::Lt { signed: false }, idx, s), Ty::Bool);
                    (idx, inside, &first, &second)
                } else {
                    // (previous, current): lanes id - d at or above 0 come from current.
                    let idx = self.f.push(b, Op::Bin(BinOp::Sub, lane, d), Ty::I32);
                    let inside =
                        self.f
                            .push(b, Op::Cmp(CmpOp::Ge { signed: false }, lane, d), Ty::Bool);
                    (idx, inside, &second, &first)
                };
                let a = shuffle(self, from_current, idx);
                let c = shuffle(self, beyond, idx);
                a.into_iter()
                    .zip(c)
                    .map(|(a, c)| {
                        let ty = self.f.ty(a);
                        self.f.push(b, Op::Select(inside, a, c), ty)
                    })
                    .collect()
            }
            SOp::SubgroupBlockReadINTEL => {
                let p = self.val(fr, id_op(i, 0)?)?;
                let tid = i
                    .result_type
                    .ok_or_else(|| FrontendError::InvalidIl("block read without a type".into()))?;
                let (ty, n, esize) = match self.info.ty(tid)? {
                    SType::Vector(e, n) => (self.info.scalar(*e)?, *n, self.info.size_of(*e)?),
                    _ => (self.info.scalar(tid)?, 1, self.info.size_of(tid)?),
                };
                self.check_block_space(p)?;
                (0..n)
                    .map(|k| {
                        let a = self.block_address(b, p, lane, k, esize as u32);
                        let load = Op::Load {
                            addr: a,
                            align: esize as u32,
                            bytes: esize as u32,
                        };
                        Ok(self.f.push(b, load, ty))
                    })
                    .collect::<Result<_, FrontendError>>()?
            }
            SOp::SubgroupBlockWriteINTEL => {
                let p = self.val(fr, id_op(i, 0)?)?;
                let data = self.vals(fr, id_op(i, 1)?)?;
                self.check_block_space(p)?;
                for (k, &x) in data.iter().enumerate() {
                    let esize = self.f.ty(x).bytes();
                    let a = self.block_address(b, p, lane, k as u32, esize);
                    let store = Op::Store {
                        addr: a,
                        value: x,
                        align: esize,
                        bytes: esize,
                    };
                    self.f.push(b, store, Ty::Void);
                }
                Vec::new()
            }
            // The image forms: one media block message per row (lane i's dword i of the row),
            // rows from the coordinate's y down.
            SOp::SubgroupImageBlockReadINTEL | SOp::SubgroupImageBlockWriteINTEL => {
                let image = self.image_of(fr, id_op(i, 0)?)?;
                let shape = self.image_shape(image)?;
                if shape.dim != 1 || shape.arrayed {
                    return unsupported("image block reads and writes of other than 2D images");
                }
                let c = self.vals(fr, id_op(i, 1)?)?;
                let [x, y] = c[..] else {
                    return invalid("an image block coordinate of other than two components");
                };
                if self.f.ty(x) != Ty::I32 || self.f.ty(y) != Ty::I32 {
                    return invalid("an image block coordinate of other than int2");
                }
                let row = |s: &mut Self, k: u32| {
                    if k == 0 {
                        y
                    } else {
                        let kk = s.konst(Ty::I32, u64::from(k));
                        s.f.push(b, Op::Bin(BinOp::Add, y, kk), Ty::I32)
                    }
                };
                if op == SOp::SubgroupImageBlockReadINTEL {
                    let tid = i.result_type.ok_or_else(|| {
                        FrontendError::InvalidIl("block read without a type".into())
                    })?;
                    let n = self.info.components(tid)?.max(1);
                    if self.info.scalar(tid)? != Ty::I32 {
                        return unsupported(
                            "image block reads of other than uint (cl_intel_subgroups_short)",
                        );
                    }
                    (0..n)
                        .map(|k| {
                            let y = row(self, k);
                            self.f.push(b, Op::ImageBlockRead { image, x, y }, Ty::I32)
                        })
                        .collect()
                } else {
                    let data = self.vals(fr, id_op(i, 2)?)?;
                    if data.iter().any(|d| self.f.ty(*d) != Ty::I32) {
                        return unsupported(
                            "image block writes of other than uint (cl_intel_subgroups_short)",
                        );
                    }
                    for (k, &value) in data.iter().enumerate() {
                        let y = row(self, k as u32);
                        self.f
                            .push(b, Op::ImageBlockWrite { image, x, y, value }, Ty::Void);
                    }
                    Vec::new()
                }
            }
            other => return invalid(format!("{other:?} is not a cl_intel_subgroups instruction")),
        })
    }

    /// cl_khr_subgroup_shuffle(_relative): `sub_group_shuffle(x, id)` reads lane `id`,
    /// `_xor(x, m)` lane `id ^ m`, `_up(x, d)` lane `id - d` and `_down(x, d)` lane `id + d`,
    /// each one `Op::Shuffle` (a lane outside the sub-group is undefined by the extension;
    /// the shuffle reads it modulo the width). The scope must be the sub-group.
    pub(super) fn khr_subgroup_shuffle(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        b: Block,
    ) -> Result<Vec<Value>, FrontendError> {
        let op = i.class.opcode;
        if self.scope(i, 0)? != SCOPE_SUBGROUP {
            return unsupported(format!("{op:?} at a scope other than the sub-group"));
        }
        let xs = self.vals(fr, id_op(i, 1)?)?;
        let k = self.val(fr, id_op(i, 2)?)?;
        let k = self.lane_index(b, k);
        let idx = if op == SOp::GroupNonUniformShuffle {
            k
        } else {
            let lane = self
                .f
                .push(b, Op::Builtin(Builtin::SubgroupLocalId, 0), Ty::I32);
            let bin = match op {
                SOp::GroupNonUniformShuffleXor => BinOp::Xor,
                SOp::GroupNonUniformShuffleUp => BinOp::Sub,
                _ => BinOp::Add,
            };
            self.f.push(b, Op::Bin(bin, lane, k), Ty::I32)
        };
        Ok(self.shuffled(b, &xs, idx))
    }

    /// Each component of `xs` as lane `idx` (per lane) holds it: one `Op::Shuffle` each.
    fn shuffled(&mut self, b: Block, xs: &[Value], idx: Value) -> Vec<Value> {
        xs.iter()
            .map(|&x| {
                let ty = self.f.ty(x);
                self.f.push(b, Op::Shuffle(x, idx), ty)
            })
            .collect()
    }

    /// cl_khr_subgroup_non_uniform_vote, over the lanes active where it is called (the
    /// collectives read an inactive lane as the operation's identity): `sub_group_elect()`
    /// holds in the lowest active lane; `_non_uniform_all(p)` and `_any(p)` reduce `p` with
    /// and and or; `_all_equal(x)` compares each lane's `x` with the lowest active lane's
    /// (ordered equality for floats: a NaN is equal to nothing).
    pub(super) fn khr_vote(
        &mut self,
        fr: &Frame,
        i: &dr::Instruction,
        b: Block,
    ) -> Result<(Block, Vec<Value>), FrontendError> {
        let op = i.class.opcode;
        if self.scope(i, 0)? != SCOPE_SUBGROUP {
            return unsupported(format!("{op:?} at a scope other than the sub-group"));
        }
        let (one, zero) = (self.konst(Ty::I32, 1), self.konst(Ty::I32, 0));
        let all = |me: &mut Self, b: Block, p: Value, g: GroupOp| {
            let x = me.f.push(b, Op::Select(p, one, zero), Ty::I32);
            let (b, r) = me.collective(b, g, Form::Reduce, x, false, None)?;
            Ok::<_, FrontendError>((b, me.f.push(b, Op::Cmp(CmpOp::Ne, r, zero), Ty::Bool)))
        };
        let (b, r) = match op {
            SOp::GroupNonUniformAll | SOp::GroupNonUniformAny => {
                let p = self.val(fr, id_op(i, 1)?)?;
                let g = if op == SOp::GroupNonUniformAll {
                    GroupOp::And
                } else {
                    GroupOp::Or
                };
                all(self, b, p, g)?
            }
            _ => {
                let (b, first, lane) = self.first_lane(b)?;
                if op == SOp::GroupNonUniformElect {
                    (b, self.f.push(b, Op::Cmp(CmpOp::Eq, lane, first), Ty::Bool))
                } else {
                    let x = self.val(fr, id_op(i, 1)?)?;
                    let ty = self.f.ty(x);
                    let theirs = self.f.push(b, Op::Shuffle(x, first), ty);
                    let eq = if matches!(ty, Ty::F16 | Ty::F32 | Ty::F64) {
                        CmpOp::FOEq
                    } else {
                        CmpOp::Eq
                    };
                    let same = self.f.push(b, Op::Cmp(eq, x, theirs), Ty::Bool);
                    all(self, b, same, GroupOp::And)?
                }
            }
        };
        Ok((b, vec![r]))
    }

    /// The lowest lane of the sub-group active where this is called, in every lane, and
    /// the lane's own number: `sub_group_elect()` is `lane == first`.
    pub(super) fn first_lane(&mut self, b: Block) -> Result<(Block, Value, Value), FrontendError> {
        let lane = self
            .f
            .push(b, Op::Builtin(Builtin::SubgroupLocalId, 0), Ty::I32);
        let (b, first) = self.collective(b, GroupOp::UMin, Form::Reduce, lane, false, None)?;
        Ok((b, first, lane))
    }

    /// A lane number or lane count as the i32 the IR's lane operations take (OpenCL passes
    /// them as uint, size_t or, for sub_group_broadcast, any integer).
    fn lane_index(&mut self, b: Block, v: Value) -> Value {
        match self.f.ty(v) {
            Ty::I64 => self.f.push(b, Op::Conv(ConvOp::Trunc, v), Ty::I32),
            Ty::I32 => v,
            _ => self.f.push(b, Op::Conv(ConvOp::ZExt, v), Ty::I32),
        }
    }

    /// Block reads and writes take global (or, for reads, constant) pointers.
    fn check_block_space(&self, p: Value) -> Result<(), FrontendError> {
        match self.f.ty(p) {
            Ty::Ptr(Space::Global | Space::Constant | Space::Generic) => Ok(()),
            other => unsupported(format!(
                "intel_sub_group_block_read/write through a {other:?} pointer"
            )),
        }
    }

    /// `p + (k * S + lane) * esize`: element k of this lane in a sub-group block.
    fn block_address(&mut self, b: Block, p: Value, lane: Value, k: u32, esize: u32) -> Value {
        let base = self.konst(Ty::I32, u64::from(k * u32::from(self.width())));
        let at = self.f.push(b, Op::Bin(BinOp::Add, base, lane), Ty::I32);
        let size = self.konst(Ty::I32, u64::from(esize));
        let bytes = self.f.push(b, Op::Bin(BinOp::Mul, at, size), Ty::I32);
        let bytes = self.f.push(b, Op::Conv(ConvOp::ZExt, bytes), Ty::I64);
        self.f.push(b, Op::PtrAdd(p, bytes), self.f.ty(p))
    }
}
