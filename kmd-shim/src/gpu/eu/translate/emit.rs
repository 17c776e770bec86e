//! Cranelift IR for a run of planned instructions (`fast::Plan`, `Path::Plain`): each
//! instruction computes what `fast::exec` computes, bit for bit, on host vectors of four
//! lanes (a SIMD16 instruction is four of them) or, at SIMD1, on host scalars.
//!
//! The function has one block per instruction and enters at any of them (a jump table on
//! `start`), so that the interpreter's round-robin quantum and a channel parked mid-run
//! (`flow::wake`) can stop a run anywhere; after instruction k it leaves when k + 1 is
//! `end`. Registers stay in the thread's GRF bytes: every instruction loads its sources
//! and stores its result, in the order the interpreter does (all sources before the
//! destination, so an instruction whose destination overlaps a source reads the old bytes).

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Block, ConstantData, Endianness, Function, InstBuilder, MemFlagsData, SigRef,
    Signature, Type, UserFuncName, Value,
};
use cranelift_codegen::isa::TargetIsa;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use gencl_isa::{CondMod, Opcode, PredCtrl, Sfid};

use super::super::fast::{At, DForm, FOp, FSrc, Path, Plan, QOp};
use super::super::program::{arf, ExecInst, GRF_BYTES};
use super::super::thread::full;
use super::code;

/// Whether `inst` can be part of a run. (What is not runs in the interpreter.)
pub fn translatable(inst: &ExecInst) -> bool {
    // A thread switch ends the thread's quantum, which the interpreter keeps.
    if inst.inst.thread_ctrl == gencl_isa::ThreadCtrl::Switch {
        return false;
    }
    if is_send(inst.op) {
        // A data-port message (`code::send_hook`), whose registers are known: its payload
        // and reply, from an immediate descriptor. The gateway's and end of thread change
        // the thread's state, which the interpreter keeps.
        return inst.send_regs.is_some()
            && inst.send.is_some_and(|i| {
                !i.eot && matches!(i.sfid, Sfid::Dc0 | Sfid::Dc1 | Sfid::Dc2 | Sfid::ConstCache)
            });
    }
    if inst.op == Opcode::Jmpi {
        // A uniform jump on flag bit 0 of its channels (`flow::exec`).
        return matches!(inst.pred, None | Some((PredCtrl::Normal, _))) && inst.n <= 32;
    }
    if simd_flow(inst.op) {
        // SIMD control flow, where it parks no channel (`Cx::simd_flow`); the run leaves
        // before one that would, for the interpreter to park them.
        return !inst.no_mask
            && matches!(inst.n, 8 | 16 | 32)
            && matches!(inst.pred, None | Some((PredCtrl::Normal, _)));
    }
    let Some(p) = &inst.fast else { return false };
    // Doubles run in the interpreter's planned loops (`fast::lanes_d`).
    if p.path == Path::Double {
        return false;
    }
    if !matches!(inst.n, 1 | 2 | 4 | 8 | 16 | 32) {
        return false;
    }
    if let Some((ctrl, _)) = inst.pred {
        if ctrl != PredCtrl::Normal {
            return false;
        }
    }
    let n = u32::from(inst.n);
    let arity = if p.path == Path::Wide {
        qarity(p.q)
    } else {
        arity(p.op)
    };
    // Every byte the plan reads or writes lies in the GRF.
    for s in &p.srcs[..arity] {
        let end = match s.at {
            At::Vec(o) => o + 4 * n,
            At::Scalar(o) => o + 4,
            At::Imm(_) | At::QImm(_) => 0,
            At::Vec2(o) => o + 8 * (n - 1) + 4,
            At::Words(o) => o + 2 * n,
            At::WScalar(o) => o + 2,
            At::QVec(o) => o + 8 * n,
            At::QScalar(o) => o + 8,
        };
        if end > GRF_BYTES as u32 {
            return false;
        }
    }
    if let Some(o) = p.dst {
        let end = match p.dform {
            DForm::Vec => o + 4 * n,
            DForm::Vec2 => o + 8 * (n - 1) + 4,
            DForm::QVec => o + 8 * n,
            DForm::Words => o + 2 * n,
            DForm::Words2 => o + 4 * (n - 1) + 2,
        };
        if end > GRF_BYTES as u32 {
            return false;
        }
    }
    match p.op {
        // `load_w` extends to 64 bits before negating: a 32-bit conversion of the
        // modified value would differ (neg of 0x8000_0000, of an unsigned value).
        FOp::IToF => !p.srcs[0].neg && !p.srcs[0].abs,
        FOp::ISel(cm) => !matches!(cm, Some(CondMod::O | CondMod::U)) && int_signed(p).is_some(),
        FOp::ICmp(cm) => !matches!(cm, CondMod::O | CondMod::U) && int_signed(p).is_some(),
        // A run is compiled for one float mode, which a write of cr0 may change.
        FOp::Cr0Imm { .. } => false,
        _ => true,
    }
}

fn is_send(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Send | Opcode::Sendc | Opcode::Sends | Opcode::Sendsc
    )
}

/// The GRFs an instruction of a run reads or writes before which the scoreboard may make
/// it wait: none for a send, which waits in its hook (`Host::send`), as the interpreter's
/// step does.
pub fn touched(inst: &ExecInst) -> u128 {
    if is_send(inst.op) {
        0
    } else {
        inst.touch
    }
}

/// The GRFs the sends of a run reply to: an instruction touching them may have to wait in
/// the run (`code::wait_hook`).
pub fn replies(insts: &[ExecInst]) -> u128 {
    insts
        .iter()
        .filter(|i| is_send(i.op))
        .fold(0, |m, i| m | i.send_regs.map_or(0, |(_, r)| r))
}

/// The SIMD control flow a run holds (`flow::exec`): taken whole when every enabled channel
/// goes the same way, which parks none.
pub fn simd_flow(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::While | Opcode::Goto | Opcode::Join | Opcode::Endif | Opcode::If
    )
}

/// Whether an instruction of a run may be followed by one other than the next (`Run`'s
/// in-order prefixes end after it).
pub fn jumps(op: Opcode) -> bool {
    matches!(op, Opcode::Jmpi | Opcode::While | Opcode::Goto)
}

/// Sources a 64-bit operation reads.
fn qarity(op: QOp) -> usize {
    match op {
        QOp::Mov | QOp::Not => 1,
        _ => 2,
    }
}

/// Sources an operation reads.
fn arity(op: FOp) -> usize {
    match op {
        FOp::FlagImm { .. } | FOp::Cr0Imm { .. } => 0,
        FOp::FMov | FOp::FInv | FOp::FToI { .. } | FOp::IToF | FOp::IMov | FOp::INot => 1,
        FOp::FMad => 3,
        _ => 2,
    }
}

/// The 32-bit comparison (signed or not) that equals `cond_int` on the sources extended to
/// 64 bits: both sources' signedness must agree, an immediate in [0, 2^31) agreeing with
/// either. `None`: they disagree (the 64-bit comparison stays in the interpreter), or a
/// source has a modifier (negated in 64 bits).
fn int_signed(p: &Plan) -> Option<bool> {
    let mut want = None;
    for s in &p.srcs[..2] {
        if s.neg || s.abs {
            return None;
        }
        let this = match s.at {
            At::Imm(v) => {
                let wide = if s.signed {
                    i64::from(v as i32)
                } else {
                    i64::from(v)
                };
                if (0..=i64::from(i32::MAX)).contains(&wide) {
                    continue;
                }
                s.signed
            }
            _ => s.signed,
        };
        match want {
            Some(w) if w != this => return None,
            _ => want = Some(this),
        }
    }
    Some(want.unwrap_or(true))
}

/// Whether a run of these instructions needs cr0's rounding mode to be round-to-nearest-even
/// (`Plan::applies`).
pub fn needs_rtne(inst: &ExecInst) -> bool {
    inst.fast.is_some_and(|p| {
        matches!(p.op, FOp::FAdd | FOp::FMul | FOp::FMad | FOp::IToF)
            || p.path == Path::Wide && matches!(p.q, QOp::ToF { .. })
    })
}

/// The run's signature (`code::RunFn`): the GRF bytes, the ARF bytes, the `code::Ctx`, and
/// the GRF bytes again: a masked store's reload of its destination goes through the second
/// pointer, so that Cranelift does not merge it with an earlier load of a source at the same
/// place (which keeps that source in a register across the instruction and spills others).
fn signature(isa: &dyn TargetIsa) -> Signature {
    let ptr = isa.pointer_type();
    let mut sig = Signature::new(isa.default_call_conv());
    for _ in 0..4 {
        sig.params.push(AbiParam::new(ptr));
    }
    sig
}

/// `code::SlowFn`: the run's `Ctx`, the GRF bytes, the plan, the write mask, the predicate and
/// the shape.
fn slow_signature(isa: &dyn TargetIsa) -> Signature {
    let ptr = isa.pointer_type();
    let mut sig = Signature::new(isa.default_call_conv());
    for _ in 0..3 {
        sig.params.push(AbiParam::new(ptr));
    }
    for _ in 0..3 {
        sig.params.push(AbiParam::new(types::I32));
    }
    sig
}

/// Fill an instruction's slow block: the interpreter does the instruction
/// (`code::slow_float`), whose plan the run keeps at `plan`'s address; the caller then
/// counts it and leaves the run for the next instruction, so that only the counters live
/// across the call (a call clobbers the host's vector registers and most others; going
/// on in the run after it made the common path pay for keeping its values).
fn slow_float(
    b: &mut FunctionBuilder<'_>,
    blk: Block,
    sig: SigRef,
    plan: &Option<Plan>,
    inst: &ExecInst,
    (cx, grf, wmask, pred): (Value, Value, Value, Value),
    ftz: bool,
) {
    b.switch_to_block(blk);
    let ptr = b.func.dfg.value_type(grf);
    let f = b
        .ins()
        .iconst(ptr, code::slow_float as code::SlowFn as usize as i64);
    let plan = plan
        .as_ref()
        .expect("only planned float operations have a slow block");
    let at = b.ins().iconst(ptr, plan as *const Plan as i64);
    let shape = u32::from(inst.n) | if ftz { 0x100 } else { 0 };
    let shape = b.ins().iconst(types::I32, imm(shape));
    b.ins()
        .call_indirect(sig, f, &[cx, grf, at, wmask, pred, shape]);
}

/// Whether a 64-bit plan runs two lanes a host operation (`Cx::op_wide_pairs`): qword
/// destinations of an even number of lanes; sources of whole qwords, dwords (extended as
/// they load) or uniform values; moves, adds, widening multiplies, logic, shifts by a uniform
/// count, predicated selects and compares (to the null register too; their flag bits are
/// the lanes' sign bits). The rest goes lane by lane.
fn wide_in_pairs(inst: &ExecInst, p: &Plan) -> bool {
    let uniform = |s: &FSrc| {
        matches!(
            s.at,
            At::QScalar(_) | At::QImm(_) | At::Scalar(_) | At::Imm(_)
        )
    };
    let pairable = |s: &FSrc| !s.abs && (uniform(s) || matches!(s.at, At::QVec(_) | At::Vec(_)));
    let [s0, s1, _] = &p.srcs;
    let sources = match p.q {
        QOp::Mov | QOp::Not => pairable(s0),
        QOp::Add | QOp::Mul | QOp::And | QOp::Or | QOp::Xor | QOp::Sel { cm: None, .. } => {
            pairable(s0) && pairable(s1)
        }
        QOp::Shl { .. } | QOp::Shr { .. } => pairable(s0) && uniform(s1) && !s1.abs,
        QOp::Cmp { cm, .. } => {
            !matches!(cm, CondMod::O | CondMod::U) && pairable(s0) && pairable(s1)
        }
        _ => false,
    };
    // A compare may write the null register only (its flag is what it is for).
    let dst = p.dst.is_none() && matches!(p.q, QOp::Cmp { .. })
        || p.dst.is_some() && p.dform == DForm::QVec;
    sources && inst.n >= 2 && dst
}

/// The function of a run: `insts` (each `translatable`, consecutive), for cr0's denormal
/// mode `ftz`. `daz`: the caller runs it with the host's denormals-are-zero mode on (x86's
/// MXCSR.DAZ, set only when `ftz`): float operations then read denormal operands as zeros
/// of their sign, which is the input flush of `fast::load_f`, so the emitted code leaves it
/// out. Every float operation whose operands are not flushed (sel's comparison,
/// saturation) is done on the integer bits, which DAZ does not touch.
///
/// It runs from instruction `ctx.start` until it has run `ctx.budget` instructions, leaves
/// the run (past its end, or by a jmpi to outside it), and writes what it did to `ctx`; a
/// jmpi to an instruction of the run (a loop) stays in host code.
pub fn function(
    isa: &dyn TargetIsa,
    insts: &[ExecInst],
    plans: &[Option<Plan>],
    ftz: bool,
    daz: bool,
) -> Function {
    use super::code::ctx;
    let mut func = Function::with_name_signature(UserFuncName::default(), signature(isa));
    let mut fctx = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut func, &mut fctx);
    let slow_sig = b.import_signature(slow_signature(isa));
    // Registers the run's sends reply to: an instruction touching them checks the
    // scoreboard's copy in the `Ctx` (`busy`) and, where a reply may be on its way, leaves
    // for `Run::exec` to wait (what the interpreter's `Timing::touch` does before it issues).
    let replied = replies(insts);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    let blocks: Vec<Block> = insts.iter().map(|_| b.create_block()).collect();
    let exit = b.create_block();
    b.append_block_param(exit, types::I64);
    // The counters in one 64-bit accumulator: the instructions the run may still execute
    // in bits 0-15 (it leaves when they reach 0), issue cycles in bits 16-39, lanes from
    // bit 40. An instruction adds (lanes << 40) + (cycles << 16) - 1, which never borrows
    // across fields (the low field is at least 1 before it); most instructions' increments
    // are computed at entry and kept in the `Ctx` (`incs`), so that each adds one memory
    // operand, where three counters and a compare were four operations and a recount.
    let acc = b.declare_var(types::I64);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (grf, arf_ptr, cx, grf_old) = (params[0], params[1], params[2], params[3]);
    let ctxp = cx;
    let flags = MemFlagsData::new().with_notrap();
    let active = b.ins().load(types::I32, flags, cx, ctx::ACTIVE);
    let start = b.ins().load(types::I32, flags, cx, ctx::START);
    let budget = b.ins().load(types::I32, flags, cx, ctx::BUDGET);
    let budget64 = b.ins().uextend(types::I64, budget);
    b.def_var(acc, budget64);
    // What follows is done at the first entry of a `Run::exec` only (`Ctx::ready`): it
    // enters again after each of its sends, with the same channels enabled.
    let init = b.create_block();
    let dispatch_blk = b.create_block();
    let ready = b.ins().load(types::I8, flags, cx, ctx::READY);
    b.ins().brif(ready, dispatch_blk, &[], init, &[]);
    b.switch_to_block(init);
    // The channels each instruction shape enables, and how many: `active` does not change
    // within a run, so they are computed once here rather than per instruction.
    let mut enables: Vec<((u8, u8), Value, Value)> = Vec::new();
    for inst in insts.iter().filter(|i| i.fast.is_some() && !i.no_mask) {
        let key = (inst.chan_off, inst.n);
        if enables.iter().all(|(k, ..)| *k != key) {
            let a = b.ins().ushr_imm_u(active, i64::from(inst.chan_off));
            let e = b.ins().band_imm_u(a, imm(full(inst.n)));
            let count = b.ins().popcnt(e);
            enables.push((key, e, count));
        }
    }
    // Whether each shape's channels are all enabled, for its stores (`Cx::store`).
    let mut alls: Vec<((u8, u8), i32)> = Vec::new();
    for &((off, n), e, _) in enables.iter().take(super::code::INCS) {
        let all = b.ins().icmp_imm_u(IntCC::Equal, e, imm(full(n)));
        let at = ctx::ALLS + alls.len() as i32;
        b.ins().store(flags, all, cx, at);
        alls.push(((off, n), at));
    }
    // The increments of the instructions whose lanes are their shape's enabled channels
    // (no predicate, or sel's), by (no_mask, channel offset, width, issue cycles).
    let mut incs: Vec<(IncKey, i32)> = Vec::new();
    for inst in insts.iter() {
        let Some(p) = inst.fast.as_ref() else {
            continue;
        };
        if !lanes_are_enabled(inst, p) || incs.len() == super::code::INCS {
            continue;
        }
        let key = inc_key(inst);
        if incs.iter().any(|(k, _)| *k == key) {
            continue;
        }
        let count = if inst.no_mask {
            b.ins()
                .iconst(types::I64, i64::from(full(inst.n).count_ones()))
        } else {
            let &(_, _, c) = enables
                .iter()
                .find(|(k, ..)| *k == (inst.chan_off, inst.n))
                .expect("every shape's enable is computed above");
            b.ins().uextend(types::I64, c)
        };
        let inc = increment(&mut b, count, inst.issue);
        let off = ctx::INCS + 8 * incs.len() as i32;
        b.ins().store(flags, inc, cx, off);
        incs.push((key, off));
    }
    b.ins().jump(dispatch_blk, &[]);
    b.switch_to_block(dispatch_blk);
    // Addresses leave the run as offsets from its first instruction (`Run::exec` adds
    // where the program has it), so that programs with the same code share it.
    let base = insts[0].addr;
    let rel = move |addr: u64| addr.wrapping_sub(base) as i64;
    let nowhere = b.ins().iconst(types::I64, 0);
    let default = b
        .func
        .dfg
        .block_call(exit, &[cranelift_codegen::ir::BlockArg::Value(nowhere)]);
    let table: Vec<_> = blocks
        .iter()
        .map(|&blk| b.func.dfg.block_call(blk, &[]))
        .collect();
    let jt = b.create_jump_table(cranelift_codegen::ir::JumpTableData::new(default, &table));
    b.ins().br_table(start, jt);
    let index_of = |addr: u64| insts.iter().position(|i| i.addr == addr);
    for (k, inst) in insts.iter().enumerate() {
        b.switch_to_block(blocks[k]);
        let next = inst.addr.wrapping_add(u64::from(inst.len));
        let waits = touched(inst) & replied;
        if waits != 0 {
            let lo = b.ins().load(types::I64, flags, ctxp, ctx::BUSY);
            let hi = b.ins().load(types::I64, flags, ctxp, ctx::BUSY + 8);
            let lo = b.ins().band_imm_u(lo, waits as u64 as i64);
            let hi = b.ins().band_imm_u(hi, (waits >> 64) as u64 as i64);
            let hit = b.ins().bor(lo, hi);
            let wait = b.create_block();
            let on = b.create_block();
            b.ins().brif(hit, wait, &[], on, &[]);
            b.switch_to_block(wait);
            leave_before(&mut b, ctxp, exit, code::STOP_WAIT, k, rel(inst.addr));
            b.switch_to_block(on);
        }
        if is_send(inst.op) {
            // A message: `Run::exec` sends it (`Host::send`) and comes back after it.
            leave_before(&mut b, ctxp, exit, code::STOP_SEND, k, rel(inst.addr));
            continue;
        }
        // `active`, `dispatch` and the instruction's enabled channels are read again in
        // each instruction's block: values kept from the entry block live across every
        // block (each an entry of the jump table), which made the register allocator most
        // of a long run's compile (runs with their sends are hundreds of instructions).
        let active = b.ins().load(types::I32, flags, ctxp, ctx::ACTIVE);
        let dispatch = b.ins().load(types::I32, flags, ctxp, ctx::DISPATCH);
        let enables = if inst.fast.is_some() && !inst.no_mask {
            let a = b.ins().ushr_imm_u(active, i64::from(inst.chan_off));
            let e = b.ins().band_imm_u(a, imm(full(inst.n)));
            let count = b.ins().popcnt(e);
            vec![((inst.chan_off, inst.n), e, count)]
        } else {
            Vec::new()
        };
        let mut cx = Cx {
            b: &mut b,
            grf,
            grf_old,
            arf: arf_ptr,
            active,
            ftz,
            daz: daz && ftz,
            n: inst.n,
            // SIMD1, 2 and 4 (a reduction's steps) lane by lane.
            per_lane: inst.n < 8 || inst.fast.is_some_and(|p| p.path != Path::Plain),
            enables: &enables,
            ctx: ctxp,
            alls: &alls,
            slow: None,
            masks: None,
        };
        // SIMD flow: the run leaves before it (uncounted) where it would park channels,
        // else goes where every enabled channel goes.
        let forward = (inst.op == Opcode::Goto && inst.branch.uip > 0)
            .then(|| forward_joins(insts, k))
            .flatten();
        let flow = simd_flow(inst.op).then(|| {
            let a = cx.b.use_var(acc);
            let left = cx.b.ins().band_imm_u(a, 0xFFFF);
            cx.simd_flow(inst, forward, left)
        });
        if let Some((_, bail, _)) = flow {
            // Where it parks channels, `Run::exec` has the EU take it (`Host::flow`).
            let park = cx.b.create_block();
            let on = cx.b.create_block();
            cx.b.ins().brif(bail, park, &[], on, &[]);
            cx.b.switch_to_block(park);
            leave_before(cx.b, ctxp, exit, code::STOP_FLOW, k, rel(inst.addr));
            cx.b.switch_to_block(on);
        }
        let (l, cycles) = if let Some((lanes, ..)) = flow {
            (lanes, 1)
        } else if inst.op == Opcode::Jmpi {
            (cx.jmpi_lanes(inst, dispatch), 1)
        } else {
            let plan = inst
                .fast
                .as_ref()
                .expect("translatable instructions have plans");
            (cx.inst(inst, plan), inst.issue)
        };
        let slow = cx.slow.zip(cx.masks);
        let taken = match flow {
            Some((_, _, taken)) => taken,
            None => (inst.op == Opcode::Jmpi).then(|| cx.jmpi_taken(inst)),
        };
        let kept = incs
            .iter()
            .find(|(k, _)| inst.fast.is_some() && *k == inc_key(inst))
            .filter(|_| inst.fast.is_some_and(|p| lanes_are_enabled(inst, &p)));
        // The instruction's counter increment: kept at entry, or computed from its lanes.
        let increment_of = |b: &mut FunctionBuilder<'_>| match kept {
            Some(&(_, off)) => b.ins().load(types::I64, flags, ctxp, off),
            None => {
                let l = b.ins().uextend(types::I64, l);
                increment(b, l, cycles)
            }
        };
        let inc = increment_of(&mut b);
        let a = b.use_var(acc);
        let a = b.ins().iadd(a, inc);
        b.def_var(acc, a);
        let left = b.ins().band_imm_u(a, 0xFFFF);
        let spent = b.ins().icmp_imm_u(IntCC::Equal, left, 0);
        // Go on at instruction `to` of the run, or leave for `addr`.
        let go = |b: &mut FunctionBuilder<'_>, to: Option<usize>, addr: u64| {
            let a = b.ins().iconst(types::I64, rel(addr));
            let out = [cranelift_codegen::ir::BlockArg::Value(a)];
            match to {
                Some(j) => {
                    b.ins().brif(spent, exit, &out, blocks[j], &[]);
                }
                None => {
                    b.ins().jump(exit, &out);
                }
            }
        };
        let fall = (k + 1 < insts.len()).then_some(k + 1);
        if let Some((blk, (wmask, pred))) = slow {
            let here = b
                .current_block()
                .expect("the instruction's block is current");
            slow_float(
                &mut b,
                blk,
                slow_sig,
                &plans[k],
                inst,
                (ctxp, grf, wmask, pred),
                ftz,
            );
            let again = increment_of(&mut b);
            let a = b.use_var(acc);
            let a = b.ins().iadd(a, again);
            b.def_var(acc, a);
            let at = b.ins().iconst(types::I64, rel(next));
            b.ins()
                .jump(exit, &[cranelift_codegen::ir::BlockArg::Value(at)]);
            b.switch_to_block(here);
        }
        match taken {
            None => go(&mut b, fall, next),
            Some(taken) => {
                let target = forward.map_or_else(|| branch_target(inst), |(_, uip)| uip);
                let yes = b.create_block();
                let no = b.create_block();
                b.ins().brif(taken, yes, &[], no, &[]);
                b.switch_to_block(yes);
                if let Some((joins, _)) = forward {
                    // The joins on the way to UIP, each an instruction of one cycle.
                    let a = b.use_var(acc);
                    let a = b.ins().iadd_imm_s(a, i64::from(joins) * EMPTY_JOIN);
                    b.def_var(acc, a);
                    let left = b.ins().band_imm_u(a, 0xFFFF);
                    let spent = b.ins().icmp_imm_u(IntCC::Equal, left, 0);
                    let at = b.ins().iconst(types::I64, rel(target));
                    let out = [cranelift_codegen::ir::BlockArg::Value(at)];
                    match index_of(target) {
                        Some(j) => {
                            b.ins().brif(spent, exit, &out, blocks[j], &[]);
                        }
                        None => {
                            b.ins().jump(exit, &out);
                        }
                    }
                } else {
                    go(&mut b, index_of(target), target);
                }
                b.switch_to_block(no);
                go(&mut b, fall, next);
            }
        }
    }
    b.switch_to_block(exit);
    let next_ip = b.block_params(exit)[0];
    let a = b.use_var(acc);
    let total = b.ins().ushr_imm_u(a, 40);
    let total = b.ins().ireduce(types::I32, total);
    let cycles = b.ins().ushr_imm_u(a, 16);
    let cycles = b.ins().ireduce(types::I32, cycles);
    let cycles = b.ins().band_imm_u(cycles, 0xFF_FFFF);
    let l = b.ins().ireduce(types::I32, a);
    let l = b.ins().band_imm_u(l, 0xFFFF);
    let ran = b.ins().isub(budget, l);
    b.ins().store(flags, total, cx, ctx::LANES);
    b.ins().store(flags, ran, cx, ctx::EXECUTED);
    b.ins().store(flags, cycles, cx, ctx::ISSUE);
    b.ins().store(flags, next_ip, cx, ctx::NEXT_IP);
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(isa.frontend_config());
    func
}

/// Leave the run before its instruction `k` (at `at`, relative) for `Run::exec`, saying why
/// (`code::STOP_SEND`, `code::STOP_WAIT`, `code::STOP_FLOW`).
fn leave_before(b: &mut FunctionBuilder<'_>, cx: Value, exit: Block, why: u32, k: usize, at: i64) {
    use super::code::ctx;
    let flags = MemFlagsData::new().with_notrap();
    let why = b.ins().iconst(types::I32, i64::from(why));
    b.ins().store(flags, why, cx, ctx::STOP);
    let k = b.ins().iconst(types::I32, k as i64);
    b.ins().store(flags, k, cx, ctx::STOP_AT);
    let at = b.ins().iconst(types::I64, at);
    b.ins()
        .jump(exit, &[cranelift_codegen::ir::BlockArg::Value(at)]);
}

/// A forward `goto` of `insts[k]` that every enabled channel takes: the interpreter parks
/// them at UIP and the thread goes to JIP, then from `join` to `join` (each counted, no
/// channel enabled: on to the next where the parked channels wait there, else to its JIP)
/// until it reaches UIP, where they are enabled again. `Some((joins, uip))` when that path
/// is joins of the run of the goto's own channels (at most 16), which a run then counts
/// and jumps over; `None` when the run leaves before such a goto.
fn forward_joins(insts: &[ExecInst], k: usize) -> Option<(u32, u64)> {
    let g = &insts[k];
    let uip = g.addr.wrapping_add(g.branch.uip as i64 as u64);
    let next = g.addr.wrapping_add(u64::from(g.len));
    let mut ip = if uip == next {
        next
    } else {
        g.addr.wrapping_add(g.branch.jip as i64 as u64)
    };
    let mut joins = 0;
    while ip != uip {
        let j = insts.iter().position(|i| i.addr == ip)?;
        let join = &insts[j];
        if !matches!(join.op, Opcode::Join | Opcode::Endif)
            || (join.n, join.chan_off) != (g.n, g.chan_off)
            || joins == 16
        {
            return None;
        }
        joins += 1;
        let after = join.addr.wrapping_add(u64::from(join.len));
        ip = if after == uip {
            after
        } else {
            join.addr.wrapping_add(join.branch.jip as i64 as u64)
        };
    }
    Some((joins, uip))
}

/// The counter increment of a `join` no channel runs (see `increment`): one issue cycle.
const EMPTY_JOIN: i64 = (1 << 16) - 1;

/// Where a jump of a run goes when taken: a jmpi's offset is from the next instruction
/// (16 bytes on), `while`'s JIP and a backward `goto`'s UIP from the instruction itself.
fn branch_target(inst: &ExecInst) -> u64 {
    match inst.op {
        Opcode::Jmpi => inst
            .addr
            .wrapping_add(16)
            .wrapping_add(inst.branch.jip as i64 as u64),
        Opcode::Goto => inst.addr.wrapping_add(inst.branch.uip as i64 as u64),
        _ => inst.addr.wrapping_add(inst.branch.jip as i64 as u64),
    }
}

/// The most instructions a run executes in one call: its count-down field is 16 bits.
pub const MAX_BUDGET: usize = 0xFFFF;

/// What an instruction's kept counter increment depends on.
type IncKey = (bool, u8, u8, u8);

/// Whether the lanes an instruction writes are its shape's enabled channels: it has no
/// predicate, or it is a sel, whose predicate picks a source in every enabled lane. Its
/// write mask and counter increment then depend on the shape alone (kept at entry).
fn lanes_are_enabled(inst: &ExecInst, p: &Plan) -> bool {
    p.selects || inst.pred.is_none()
}

fn inc_key(inst: &ExecInst) -> IncKey {
    (inst.no_mask, inst.chan_off, inst.n, inst.issue)
}

/// An instruction's addition to the counter accumulator: `lanes` (I64) lanes, `cycles`
/// issue cycles and one instruction fewer left.
fn increment(b: &mut FunctionBuilder<'_>, lanes: Value, cycles: u8) -> Value {
    let l = b.ins().ishl_imm_u(lanes, 40);
    b.ins().iadd_imm_s(l, (i64::from(cycles) << 16) - 1)
}

/// A 32-bit immediate of an I32 operation (zero-extended: the `_imm_u` forms).
fn imm(v: u32) -> i64 {
    i64::from(v)
}

const SIGN: u32 = 0x8000_0000;
/// Chunks of a float operation checked by one branch (`Cx::nan_check`).
const GROUP: usize = 4;
const EXP: u32 = 0x7F80_0000;
const ONE: u32 = 0x3F80_0000;

/// One instruction's emission. Values are integer-typed (I32X4 per four lanes, or I32 at
/// SIMD1) and bitcast to floats around float operations; a "mask" is a comparison's result
/// (I32X4 of all-ones or zero lanes, or an I8 0/1 at SIMD1).
struct Cx<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    grf: Value,
    /// The same bytes, for a masked store's reload of its destination (see `signature`).
    grf_old: Value,
    arf: Value,
    active: Value,
    ftz: bool,
    /// Denormal operands of float operations read as zeros by the host (see `function`).
    daz: bool,
    n: u8,
    /// One host scalar per lane (SIMD1, and the strided and 64-bit plans, whose lanes are
    /// not whole host vectors), rather than host vectors of four lanes.
    per_lane: bool,
    /// (chan_off, n) → the channels `active` enables for that shape, and their count.
    enables: &'a [((u8, u8), Value, Value)],
    /// The run's `Ctx`, and where in it each shape's all-enabled flag is.
    ctx: Value,
    alls: &'a [((u8, u8), i32)],
    /// The instruction's block that hands it to the interpreter's rules when some result
    /// needs them (`slow_float`), and its write mask and predicate.
    slow: Option<Block>,
    masks: Option<(Value, Value)>,
}

/// What a store knows of its write mask being every channel of the instruction.
#[derive(Clone, Copy)]
enum Whole {
    /// Always (NoMask, no predicate).
    Yes,
    /// The shape's flag at this `Ctx` offset says (no predicate).
    Flag(i32),
    /// Compared when it runs.
    Ask,
}

impl Cx<'_, '_> {
    fn scalar(&self) -> bool {
        self.per_lane
    }

    fn chunks(&self) -> usize {
        if self.scalar() {
            self.n as usize
        } else {
            self.n as usize / 4
        }
    }

    /// Lanes per chunk.
    fn width(&self) -> usize {
        if self.scalar() {
            1
        } else {
            4
        }
    }

    fn ity(&self) -> Type {
        if self.scalar() {
            types::I32
        } else {
            types::I32X4
        }
    }

    fn fty(&self) -> Type {
        if self.scalar() {
            types::F32
        } else {
            types::F32X4
        }
    }

    fn mem() -> MemFlagsData {
        // In bounds (checked when translated), not necessarily aligned.
        MemFlagsData::new().with_notrap()
    }

    fn i32(&mut self, v: u32) -> Value {
        self.b.ins().iconst(types::I32, i64::from(v as i32))
    }

    /// `v` in every lane.
    fn konst(&mut self, v: u32) -> Value {
        let s = self.i32(v);
        if self.scalar() {
            s
        } else {
            self.b.ins().splat(types::I32X4, s)
        }
    }

    fn bitcast(&mut self, ty: Type, v: Value) -> Value {
        let flags = if self.scalar() {
            MemFlagsData::new()
        } else {
            MemFlagsData::new().with_endianness(Endianness::Little)
        };
        self.b.ins().bitcast(ty, flags, v)
    }

    fn as_float(&mut self, v: Value) -> Value {
        let t = self.fty();
        self.bitcast(t, v)
    }

    fn as_int(&mut self, v: Value) -> Value {
        let t = self.ity();
        self.bitcast(t, v)
    }

    /// `mask ? a : b` per lane.
    fn sel(&mut self, mask: Value, a: Value, b: Value) -> Value {
        if self.scalar() {
            self.b.ins().select(mask, a, b)
        } else {
            self.b.ins().bitselect(mask, a, b)
        }
    }

    /// A mask as all-ones / zero lanes of the integer type.
    fn mask_value(&mut self, m: Value) -> Value {
        if self.scalar() {
            self.b.ins().bmask(types::I32, m)
        } else {
            m
        }
    }

    /// The lanes of a mask as bits (4, or 1 at SIMD1), of chunk `c` in place.
    fn mask_bits(&mut self, m: Value, c: usize) -> Value {
        let bits = if self.scalar() {
            self.b.ins().uextend(types::I32, m)
        } else {
            self.b.ins().vhigh_bits(types::I32, m)
        };
        if c == 0 {
            bits
        } else {
            let w = self.width();
            self.b.ins().ishl_imm_u(bits, (w * c) as i64)
        }
    }

    /// The lanes of chunk `c` whose bit is set in `bits`, as a mask.
    fn bits_mask(&mut self, bits: Value, c: usize) -> Value {
        if self.scalar() {
            let one = self.b.ins().band_imm_u(bits, 1 << c);
            return self.b.ins().icmp_imm_u(IntCC::NotEqual, one, 0);
        }
        let shifted = if c == 0 {
            bits
        } else {
            self.b.ins().ushr_imm_u(bits, (4 * c) as i64)
        };
        let s = self.b.ins().splat(types::I32X4, shifted);
        let data: Vec<u8> = [1u32, 2, 4, 8]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let h = self.b.func.dfg.constants.insert(ConstantData::from(data));
        let lane_bits = self.b.ins().vconst(types::I32X4, h);
        let on = self.b.ins().band(s, lane_bits);
        let zero = self.konst(0);
        self.b.ins().icmp(IntCC::NotEqual, on, zero)
    }

    /// Chunk `c` of a source, raw. (A scalar's load and splat repeat per chunk; Cranelift
    /// merges the repeats.)
    fn chunk(&mut self, s: &FSrc, c: usize) -> Value {
        let load = |cx: &mut Self, ty: Type, at: usize| {
            cx.b.ins().load(ty, Self::mem(), cx.grf, at as i32)
        };
        // A word, extended to 32 bits per the source's type.
        let word = |cx: &mut Self, at: usize| {
            let w = load(cx, types::I16, at);
            if s.signed {
                cx.b.ins().sextend(types::I32, w)
            } else {
                cx.b.ins().uextend(types::I32, w)
            }
        };
        match (s.at, self.scalar()) {
            (At::Vec(o), false) => load(self, types::I32X4, o as usize + 16 * c),
            (At::Vec(o), true) => load(self, types::I32, o as usize + 4 * c),
            (At::Scalar(o), _) => {
                let v = load(self, types::I32, o as usize);
                if self.scalar() {
                    v
                } else {
                    self.b.ins().splat(types::I32X4, v)
                }
            }
            (At::Imm(v), _) => self.konst(v),
            // Per lane only (`per_lane` for every plan but the plain ones).
            (At::Vec2(o) | At::QVec(o), true) => load(self, types::I32, o as usize + 8 * c),
            (At::Words(o), true) => word(self, o as usize + 2 * c),
            (At::WScalar(o), true) => word(self, o as usize),
            (At::QScalar(o), true) => load(self, types::I32, o as usize),
            (At::QImm(lo), true) => self.konst(lo),
            _ => unreachable!("vector chunks of plain plans only"),
        }
    }

    /// A source's chunks, raw.
    fn load(&mut self, s: &FSrc) -> Vec<Value> {
        (0..self.chunks()).map(|c| self.chunk(s, c)).collect()
    }

    /// Chunk `c` of a float source as `fast::load_f` gives it: flushed when `flush`, then
    /// abs, negate.
    fn chunk_f(&mut self, s: &FSrc, flush: bool, c: usize) -> Value {
        let mut x = self.chunk(s, c);
        if flush && !self.daz {
            x = self.flush(x);
        }
        if s.abs {
            let m = self.konst(!SIGN);
            x = self.b.ins().band(x, m);
        }
        if s.neg {
            let m = self.konst(SIGN);
            x = self.b.ins().bxor(x, m);
        }
        x
    }

    /// `chunk_f` as a float. A contiguous chunk that needs no flush or modifier is loaded as
    /// floats, so that the operation can take it as its memory operand (a load and a
    /// bitcast stay two instructions).
    fn chunk_float(&mut self, s: &FSrc, flush: bool, c: usize) -> Value {
        if let (At::Vec(o), false, false, false, true) =
            (s.at, self.scalar(), s.neg, s.abs, !flush || self.daz)
        {
            return self.b.ins().load(
                types::F32X4,
                Self::mem(),
                self.grf,
                o as i32 + 16 * c as i32,
            );
        }
        let x = self.chunk_f(s, flush, c);
        self.as_float(x)
    }

    /// Denormal → zero of the same sign, on f32 bits (`fast::flush`).
    fn flush(&mut self, v: Value) -> Value {
        let exp = self.konst(EXP);
        let e = self.b.ins().band(v, exp);
        let zero = self.konst(0);
        let tiny = self.b.ins().icmp(IntCC::Equal, e, zero);
        let sign = self.konst(SIGN);
        let signed_zero = self.b.ins().band(v, sign);
        self.sel(tiny, signed_zero, v)
    }

    /// A float source's chunks as `fast::load_f` gives them.
    fn load_f(&mut self, s: &FSrc, flush: bool) -> Vec<Value> {
        (0..self.chunks())
            .map(|c| self.chunk_f(s, flush, c))
            .collect()
    }

    /// An integer source as `fast::load_u` gives it (`logic`: negate is not).
    fn load_u(&mut self, s: &FSrc, logic: bool) -> Vec<Value> {
        let mut v = self.load(s);
        for x in v.iter_mut() {
            if logic {
                if s.neg {
                    *x = self.b.ins().bnot(*x);
                }
                continue;
            }
            if s.abs && s.signed {
                *x = self.b.ins().iabs(*x);
            }
            if s.neg {
                *x = self.b.ins().ineg(*x);
            }
        }
        v
    }

    /// Float saturation (`fast::sat`): NaN → 0, then clamped to [0, 1] (-0 stays -0), on
    /// the bits: negative values below -0 and NaNs become +0, positive values above 1.0
    /// become 1.0 (positive floats order as their bits do).
    fn sat(&mut self, v: Value) -> Value {
        let magnitude = self.konst(!SIGN);
        let a = self.b.ins().band(v, magnitude);
        let inf = self.konst(EXP);
        let nan = self.b.ins().icmp(IntCC::UnsignedGreaterThan, a, inf);
        let zero = self.konst(0);
        let negative = self.b.ins().icmp(IntCC::SignedLessThan, v, zero);
        let nonzero = self.b.ins().icmp(IntCC::NotEqual, a, zero);
        let below = self.b.ins().band(negative, nonzero);
        let one = self.konst(ONE);
        let above = self.b.ins().icmp(IntCC::SignedGreaterThan, v, one);
        let r = self.sel(above, one, v);
        let to_zero = self.b.ins().bor(nan, below);
        self.sel(to_zero, zero, r)
    }

    /// The float order of non-NaN bits as a signed integer order: zeros made +0 (IEEE's
    /// -0 == +0), negative values' magnitude bits flipped.
    fn order_key(&mut self, v: Value) -> Value {
        let magnitude = self.konst(!SIGN);
        let a = self.b.ins().band(v, magnitude);
        let zero = self.konst(0);
        let is_zero = self.b.ins().icmp(IntCC::Equal, a, zero);
        let v = self.sel(is_zero, zero, v);
        let sign = self.b.ins().sshr_imm_u(v, 31);
        let flip = self.b.ins().band(sign, magnitude);
        self.b.ins().bxor(v, flip)
    }

    /// `cond_f` of two operands neither of which is a NaN, on their bits (unflushed, as
    /// sel compares them, whatever the host's denormal mode).
    fn fcmp_ordered_bits(&mut self, cm: CondMod, x: Value, y: Value) -> Value {
        let (kx, ky) = (self.order_key(x), self.order_key(y));
        let cc = match cm {
            CondMod::Z => IntCC::Equal,
            CondMod::Nz => IntCC::NotEqual,
            CondMod::G => IntCC::SignedGreaterThan,
            CondMod::Ge => IntCC::SignedGreaterThanOrEqual,
            CondMod::L => IntCC::SignedLessThan,
            CondMod::Le => IntCC::SignedLessThanOrEqual,
            // Unordered is false and ordered true when neither is a NaN.
            CondMod::U => IntCC::NotEqual,
            CondMod::O => IntCC::Equal,
        };
        match cm {
            CondMod::U | CondMod::O => self.b.ins().icmp(cc, kx, kx),
            _ => self.b.ins().icmp(cc, kx, ky),
        }
    }

    fn fin(&mut self, v: Vec<Value>, sat: bool) -> Vec<Value> {
        if sat {
            v.into_iter().map(|x| self.sat(x)).collect()
        } else {
            v
        }
    }

    fn fcmp(&mut self, cm: CondMod, x: Value, y: Value) -> Value {
        let cc = match cm {
            CondMod::Z => FloatCC::Equal,
            CondMod::Nz => FloatCC::NotEqual,
            CondMod::G => FloatCC::GreaterThan,
            CondMod::Ge => FloatCC::GreaterThanOrEqual,
            CondMod::L => FloatCC::LessThan,
            CondMod::Le => FloatCC::LessThanOrEqual,
            CondMod::U => FloatCC::Unordered,
            CondMod::O => FloatCC::Ordered,
        };
        let (xf, yf) = (self.as_float(x), self.as_float(y));
        self.b.ins().fcmp(cc, xf, yf)
    }

    fn icmp(&mut self, cm: CondMod, signed: bool, x: Value, y: Value) -> Value {
        let cc = match (cm, signed) {
            (CondMod::Z, _) => IntCC::Equal,
            (CondMod::Nz, _) => IntCC::NotEqual,
            (CondMod::G, true) => IntCC::SignedGreaterThan,
            (CondMod::Ge, true) => IntCC::SignedGreaterThanOrEqual,
            (CondMod::L, true) => IntCC::SignedLessThan,
            (CondMod::Le, true) => IntCC::SignedLessThanOrEqual,
            (CondMod::G, false) => IntCC::UnsignedGreaterThan,
            (CondMod::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
            (CondMod::L, false) => IntCC::UnsignedLessThan,
            (CondMod::Le, false) => IntCC::UnsignedLessThanOrEqual,
            (CondMod::O | CondMod::U, _) => unreachable!("`translatable` refuses .o/.u"),
        };
        self.b.ins().icmp(cc, x, y)
    }

    /// The flag bits of an instruction's predicate, per its channels (`pred_mask`, Normal).
    fn pred_bits(&mut self, inst: &ExecInst) -> Value {
        let fulln = full(inst.n);
        match inst.pred {
            None => self.i32(fulln),
            Some((_, inverse)) => {
                let f = self.flag(inst.flag_reg);
                let shift = u32::from(inst.flag_shift) + u32::from(inst.chan_off);
                let bits = if shift >= 32 {
                    self.i32(0)
                } else {
                    self.b.ins().ushr_imm_u(f, i64::from(shift))
                };
                let m = self.b.ins().band_imm_u(bits, imm(fulln));
                if inverse {
                    self.b.ins().bxor_imm_u(m, imm(fulln))
                } else {
                    m
                }
            }
        }
    }

    /// Whether a jmpi jumps: no predicate, or its first channel's.
    fn jmpi_taken(&mut self, inst: &ExecInst) -> Value {
        let p = self.pred_bits(inst);
        self.b.ins().band_imm_u(p, 1)
    }

    /// SIMD flow (`flow::exec`) where no channel is parked: the channels it reports,
    /// whether the run must leave before it for the interpreter (it would park channels,
    /// or none is enabled and `flow::pick` would look at the parked ones), and, for
    /// `while` and a backward `goto`, whether it jumps (to `branch_target`). Channel masks
    /// are relative to the instruction's first channel.
    ///
    /// - `while`: the enabled channels whose predicate holds loop; none or all of them.
    /// - `goto`: the jumping channels (predicate false, or true with BranchCtrl); backward,
    ///   none (on to the next) or all (to UIP); forward, none, or all when `forward` (the
    ///   joins on the way, `forward_joins`), no channel is parked and `left`, the quantum's
    ///   instructions, lasts to UIP.
    /// - `if`: every enabled channel's predicate holds (none parks at JIP).
    /// - `join`, `endif`: some channel is enabled (on to the next).
    fn simd_flow(
        &mut self,
        inst: &ExecInst,
        forward: Option<(u32, u64)>,
        left: Value,
    ) -> (Value, Value, Option<Value>) {
        let fulln = imm(full(inst.n));
        let a = self
            .b
            .ins()
            .ushr_imm_u(self.active, i64::from(inst.chan_off));
        let act = self.b.ins().band_imm_u(a, fulln);
        let lanes = self.b.ins().popcnt(act);
        let none = self.b.ins().icmp_imm_u(IntCC::Equal, act, 0);
        let p = self.pred_bits(inst);
        let not_p = self.b.ins().bxor_imm_u(p, fulln);
        let stay = self.b.ins().band(act, not_p);
        let go = self.b.ins().band(act, p);
        let some =
            |b: &mut FunctionBuilder<'_>, v: Value| b.ins().icmp_imm_u(IntCC::NotEqual, v, 0);
        let b = &mut *self.b;
        match inst.op {
            Opcode::While => {
                let (g, s) = (some(b, go), some(b, stay));
                let bail = b.ins().band(g, s);
                (lanes, bail, Some(g))
            }
            Opcode::Goto => {
                let jump = if inst.acc_wr { go } else { stay };
                let j = some(b, jump);
                if inst.branch.uip <= 0 {
                    let all = b.ins().icmp(IntCC::Equal, jump, act);
                    let partial = b.ins().band_not(j, all);
                    let bail = b.ins().bor(partial, none);
                    (lanes, bail, Some(j))
                } else if let Some((joins, _)) = forward {
                    // Every channel jumps, no channel is parked yet (a `join` on the way
                    // would wake it), and the quantum lasts to UIP; or none jumps.
                    let all = b.ins().icmp(IntCC::Equal, jump, act);
                    let partial = b.ins().band_not(j, all);
                    let waiting = b.ins().load(
                        types::I32,
                        MemFlagsData::new().with_notrap(),
                        self.ctx,
                        super::code::ctx::WAITING,
                    );
                    let parked = b.ins().icmp_imm_u(IntCC::NotEqual, waiting, 0);
                    let short =
                        b.ins()
                            .icmp_imm_u(IntCC::UnsignedLessThan, left, i64::from(joins) + 1);
                    let cannot = b.ins().bor(parked, short);
                    let cannot = b.ins().band(j, cannot);
                    let bail = b.ins().bor(partial, none);
                    let bail = b.ins().bor(bail, cannot);
                    (lanes, bail, Some(j))
                } else {
                    let bail = b.ins().bor(j, none);
                    (lanes, bail, None)
                }
            }
            Opcode::If => {
                let s = some(b, stay);
                let bail = b.ins().bor(s, none);
                (lanes, bail, None)
            }
            _ => (lanes, none, None),
        }
    }

    /// The channels `flow::exec` reports for a jmpi.
    fn jmpi_lanes(&mut self, inst: &ExecInst, dispatch: Value) -> Value {
        let group = full(inst.n) << inst.chan_off;
        let on = if inst.no_mask { dispatch } else { self.active };
        let act = self.b.ins().band_imm_u(on, imm(group));
        self.b.ins().popcnt(act)
    }

    /// `fast::exec` of one instruction; returns the lanes it wrote.
    fn inst(&mut self, inst: &ExecInst, p: &Plan) -> Value {
        let n = self.n;
        let fulln = full(n);
        let (enabled, count) = if inst.no_mask {
            (self.i32(fulln), self.i32(fulln.count_ones()))
        } else {
            let key = (inst.chan_off, inst.n);
            let &(_, e, c) = self
                .enables
                .iter()
                .find(|(k, ..)| *k == key)
                .expect("every shape's enable is computed at entry");
            (e, c)
        };
        if let FOp::FlagImm { at, bytes, value } = p.op {
            // On no mask and no predicate (`fast::plan_flag_imm`): every lane of one.
            let v = if bytes == 2 {
                self.b
                    .ins()
                    .iconst(types::I16, i64::from(value as u16 as i16))
            } else {
                self.i32(value)
            };
            self.b.ins().store(Self::mem(), v, self.arf, i32::from(at));
            return count;
        }
        let pred = self.pred_bits(inst);
        let wmask = if lanes_are_enabled(inst, p) {
            enabled
        } else {
            self.b.ins().band(enabled, pred)
        };
        self.masks = Some((wmask, pred));
        let pairs = p.path == Path::Wide && wide_in_pairs(inst, p);
        let (out, cond) = if pairs {
            self.op_wide_pairs(p, pred)
        } else if p.path == Path::Wide {
            self.op_wide(p, pred)
        } else {
            self.op(p, pred)
        };
        if let Some(cond) = cond {
            self.write_flags(inst, wmask, cond);
        }
        if let Some(o) = p.dst {
            let (out, step) = match p.dform {
                DForm::Vec => (self.low_dwords(out), 4),
                DForm::Vec2 => (self.low_dwords(out), 8),
                DForm::QVec => (out, 8),
                // Per lane (a strided plan): the low 16 bits of each lane.
                DForm::Words | DForm::Words2 => {
                    let low = self.low_dwords(out);
                    let words = low
                        .into_iter()
                        .map(|v| self.b.ins().ireduce(types::I16, v))
                        .collect();
                    (words, if p.dform == DForm::Words { 2 } else { 4 })
                }
            };
            let whole = if wmask != enabled {
                Whole::Ask
            } else if inst.no_mask {
                Whole::Yes
            } else {
                self.alls
                    .iter()
                    .find(|(k, _)| *k == (inst.chan_off, inst.n))
                    .map_or(Whole::Ask, |&(_, at)| Whole::Flag(at))
            };
            if pairs {
                self.store_pairs(o, &out, wmask, whole);
            } else {
                self.store(o, step, &out, wmask, whole);
            }
        }
        if wmask == enabled {
            count
        } else {
            self.b.ins().popcnt(wmask)
        }
    }

    fn flag(&mut self, f: u8) -> Value {
        let reg = if f == 0 { arf::F0 } else { arf::F1 };
        self.b
            .ins()
            .load(types::I32, Self::mem(), self.arf, (reg * 32) as i32)
    }

    /// `alu::write_flags`: the written lanes' condition bits replace theirs in the flag.
    fn write_flags(&mut self, inst: &ExecInst, wmask: Value, cond: Value) {
        let shift = u32::from(inst.flag_shift) + u32::from(inst.chan_off);
        if shift >= 32 {
            return;
        }
        let reg = if inst.flag_reg == 0 { arf::F0 } else { arf::F1 };
        let f = self.flag(inst.flag_reg);
        let m = self.b.ins().band_imm_u(wmask, imm(full(inst.n)));
        let m = self.b.ins().ishl_imm_u(m, i64::from(shift));
        let c = self.b.ins().band(cond, wmask);
        let c = self.b.ins().ishl_imm_u(c, i64::from(shift));
        let keep = self.b.ins().band_not(f, m);
        let nf = self.b.ins().bor(keep, c);
        self.b
            .ins()
            .store(Self::mem(), nf, self.arf, (reg * 32) as i32);
    }

    /// Write the lanes of `wmask` at GRF offset `o`, `step` bytes apart per lane (per-lane
    /// mode; vectors are contiguous); the others keep their bytes.
    fn store(&mut self, o: u32, step: usize, out: &[Value], wmask: Value, whole: Whole) {
        let o = o as i32;
        if self.scalar() {
            for (c, v) in out.iter().enumerate() {
                let at = o + (step * c) as i32;
                let ty = self.b.func.dfg.value_type(*v);
                let old = self.b.ins().load(ty, Self::mem(), self.grf_old, at);
                let on = self.bits_mask(wmask, c);
                let nv = self.b.ins().select(on, *v, old);
                self.b.ins().store(Self::mem(), nv, self.grf, at);
            }
            return;
        }
        self.store_vectors(o, out, wmask, whole, types::I32X4, Self::bits_mask);
    }

    /// Whole 16-byte chunks `out` to the GRF from byte `o` up, the lanes of `wmask`: at once
    /// when `whole` says every lane is written, else each chunk merged with the old bytes
    /// under `mask(wmask, c)` (lanes of `ty`).
    fn store_vectors(
        &mut self,
        o: i32,
        out: &[Value],
        wmask: Value,
        whole: Whole,
        ty: Type,
        mask: fn(&mut Self, Value, usize) -> Value,
    ) {
        let mem = Self::mem();
        let is_all = match whole {
            Whole::Yes => {
                for (c, v) in out.iter().enumerate() {
                    self.b.ins().store(mem, *v, self.grf, o + 16 * c as i32);
                }
                return;
            }
            Whole::Flag(at) => self.b.ins().load(types::I8, mem, self.ctx, at),
            Whole::Ask => self
                .b
                .ins()
                .icmp_imm_u(IntCC::Equal, wmask, imm(full(self.n))),
        };
        let all = self.b.create_block();
        let some = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(is_all, all, &[], some, &[]);
        self.b.switch_to_block(all);
        for (c, v) in out.iter().enumerate() {
            self.b.ins().store(mem, *v, self.grf, o + 16 * c as i32);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(some);
        for (c, v) in out.iter().enumerate() {
            let at = o + 16 * c as i32;
            let old = self.b.ins().load(ty, mem, self.grf_old, at);
            let on = mask(self, wmask, c);
            let nv = self.b.ins().bitselect(on, *v, old);
            self.b.ins().store(mem, nv, self.grf, at);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    /// The condition bits of the lanes of per-chunk masks.
    fn cond_bits(&mut self, masks: &[Value]) -> Value {
        let mut acc = None;
        for (c, m) in masks.iter().enumerate() {
            let bits = self.mask_bits(*m, c);
            acc = Some(match acc {
                None => bits,
                Some(a) => self.b.ins().bor(a, bits),
            });
        }
        acc.expect("at least one chunk")
    }

    /// The operation's result chunks and, for cmp, its condition bits.
    fn op(&mut self, p: &Plan, pred: Value) -> (Vec<Value>, Option<Value>) {
        let [s0, s1, s2] = &p.srcs;
        let ftz = self.ftz;
        let chunks = self.chunks();
        match p.op {
            FOp::FMov => {
                let x = self.load_f(s0, false);
                (self.fin(x, p.sat), None)
            }
            FOp::FAdd | FOp::FMul | FOp::FMad => {
                // One check and branch for up to `GROUP` chunks (a SIMD16 instruction's
                // four): a result to fix leaves for the interpreter (`slow_float`), so the
                // check holds nothing but the results live. (When the fix was inline, it
                // reloaded each chunk's operands, and a check per chunk kept that cheap.)
                let mut r = Vec::with_capacity(chunks);
                for c in 0..chunks {
                    // The operand loaded last, right before the operation, can be its
                    // memory operand (a load merges only with no other load between).
                    let v = match p.op {
                        FOp::FAdd | FOp::FMul => {
                            let xf = self.chunk_float(s0, ftz, c);
                            let yf = self.chunk_float(s1, ftz, c);
                            if p.op == FOp::FAdd {
                                self.b.ins().fadd(xf, yf)
                            } else {
                                self.b.ins().fmul(xf, yf)
                            }
                        }
                        _ => {
                            // Gen mad: src0 + src1 * src2, one rounding.
                            let yf = self.chunk_float(s1, ftz, c);
                            let zf = self.chunk_float(s2, ftz, c);
                            let xf = self.chunk_float(s0, ftz, c);
                            self.b.ins().fma(yf, zf, xf)
                        }
                    };
                    r.push(v);
                    if r.len() % GROUP == 0 || c + 1 == chunks {
                        let from = (r.len() - 1) / GROUP * GROUP;
                        self.nan_check(&r[from..], ftz);
                    }
                }
                let r = r.into_iter().map(|v| self.as_int(v)).collect();
                (self.fin(r, p.sat), None)
            }
            FOp::FDiv | FOp::FInv => {
                // The host's division, as the general path's; a tiny quotient flushed
                // under ftz (after its rounding, as `alu` flushes).
                let mut out = Vec::with_capacity(chunks);
                for c in 0..chunks {
                    let q = if p.op == FOp::FDiv {
                        let xf = self.chunk_float(s0, ftz, c);
                        let yf = self.chunk_float(s1, ftz, c);
                        self.b.ins().fdiv(xf, yf)
                    } else {
                        let one = self.konst(1f32.to_bits());
                        let one = self.as_float(one);
                        let xf = self.chunk_float(s0, ftz, c);
                        self.b.ins().fdiv(one, xf)
                    };
                    let v = self.as_int(q);
                    out.push(if ftz { self.flush(v) } else { v });
                }
                (self.fin(out, p.sat), None)
            }
            FOp::FSel(cm) => {
                let x = self.load_f(s0, false);
                let y = self.load_f(s1, false);
                let mut out = Vec::with_capacity(chunks);
                for c in 0..chunks {
                    let m = match cm {
                        None => self.bits_mask(pred, c),
                        // minNum/maxNum: a NaN operand loses.
                        Some(cm) => {
                            let yn = self.fcmp(CondMod::U, y[c], y[c]);
                            let xo = self.fcmp(CondMod::O, x[c], x[c]);
                            let k = self.fcmp_ordered_bits(cm, x[c], y[c]);
                            let k = self.b.ins().band(xo, k);
                            self.b.ins().bor(yn, k)
                        }
                    };
                    out.push(self.sel(m, x[c], y[c]));
                }
                (self.fin(out, p.sat), None)
            }
            FOp::FCmp(cm) => {
                let x = self.load_f(s0, ftz);
                let y = self.load_f(s1, ftz);
                let masks: Vec<Value> = (0..chunks).map(|c| self.fcmp(cm, x[c], y[c])).collect();
                let out = masks.iter().map(|&m| self.mask_value(m)).collect();
                let bits = self.cond_bits(&masks);
                (out, Some(bits))
            }
            FOp::FToI { signed } => {
                let x = self.load_f(s0, false);
                let ity = self.ity();
                let out = x
                    .into_iter()
                    .map(|v| {
                        let f = self.as_float(v);
                        if signed {
                            self.b.ins().fcvt_to_sint_sat(ity, f)
                        } else {
                            self.b.ins().fcvt_to_uint_sat(ity, f)
                        }
                    })
                    .collect();
                (out, None)
            }
            FOp::IToF => {
                let x = self.load(s0);
                let fty = self.fty();
                let out = x
                    .into_iter()
                    .map(|v| {
                        let f = if s0.signed {
                            self.b.ins().fcvt_from_sint(fty, v)
                        } else {
                            self.b.ins().fcvt_from_uint(fty, v)
                        };
                        self.as_int(f)
                    })
                    .collect();
                (self.fin(out, p.sat), None)
            }
            FOp::ISel(cm) => {
                let signed = int_signed(p).expect("checked by `translatable`");
                let x = self.load(s0);
                let y = self.load(s1);
                let mut out = Vec::with_capacity(chunks);
                for c in 0..chunks {
                    let m = match cm {
                        None => self.bits_mask(pred, c),
                        Some(cm) => self.icmp(cm, signed, x[c], y[c]),
                    };
                    out.push(self.sel(m, x[c], y[c]));
                }
                (out, None)
            }
            FOp::ICmp(cm) => {
                let signed = int_signed(p).expect("checked by `translatable`");
                let x = self.load(s0);
                let y = self.load(s1);
                let masks: Vec<Value> = (0..chunks)
                    .map(|c| self.icmp(cm, signed, x[c], y[c]))
                    .collect();
                let out = masks.iter().map(|&m| self.mask_value(m)).collect();
                let bits = self.cond_bits(&masks);
                (out, Some(bits))
            }
            FOp::IMov => (self.load_u(s0, false), None),
            FOp::INot => {
                let x = self.load_u(s0, true);
                (x.into_iter().map(|v| self.b.ins().bnot(v)).collect(), None)
            }
            FOp::IAdd | FOp::IMul | FOp::IAnd | FOp::IOr | FOp::IXor => {
                let logic = matches!(p.op, FOp::IAnd | FOp::IOr | FOp::IXor);
                let x = self.load_u(s0, logic);
                let y = self.load_u(s1, logic);
                let out = (0..chunks)
                    .map(|c| {
                        let (a, b) = (x[c], y[c]);
                        match p.op {
                            FOp::IAdd => self.b.ins().iadd(a, b),
                            FOp::IMul => self.b.ins().imul(a, b),
                            FOp::IAnd => self.b.ins().band(a, b),
                            FOp::IOr => self.b.ins().bor(a, b),
                            _ => self.b.ins().bxor(a, b),
                        }
                    })
                    .collect();
                (out, None)
            }
            FOp::IDiv { rem, signed } => {
                let x = self.load_u(s0, false);
                let y = self.load_u(s1, false);
                let out = (0..chunks)
                    .map(|c| self.div(x[c], y[c], signed, rem))
                    .collect();
                (out, None)
            }
            FOp::IShl | FOp::IShr | FOp::IAsr => {
                let x = self.load_u(s0, false);
                let y = self.load_u(s1, false);
                let out = (0..chunks)
                    .map(|c| self.shift(p.op, x[c], y[c], !matches!(s1.at, At::Vec(_))))
                    .collect();
                (out, None)
            }
            FOp::Wide => unreachable!("64-bit plans are `op_wide`'s"),
            FOp::FlagImm { .. } => unreachable!("`inst` writes the flag itself"),
            FOp::Cr0Imm { .. } => unreachable!("`translatable` refuses cr0's writes"),
        }
    }

    /// The low 32 bits of 64-bit lanes (what a dword destination keeps); others unchanged.
    fn low_dwords(&mut self, out: Vec<Value>) -> Vec<Value> {
        out.into_iter()
            .map(|v| {
                if self.b.func.dfg.value_type(v) == types::I64 {
                    self.b.ins().ireduce(types::I32, v)
                } else {
                    v
                }
            })
            .collect()
    }

    /// Lane `c` of a 64-bit plan's source as `fast::load_q` gives it: extended to 64 bits
    /// per its type, then abs and negate in 64 bits (`logic`: negate is a 64-bit not).
    fn lane_q(&mut self, s: &FSrc, c: usize, logic: bool) -> Value {
        let mut v = match s.at {
            At::QVec(o) => self.b.ins().load(
                types::I64,
                Self::mem(),
                self.grf,
                (o as usize + 8 * c) as i32,
            ),
            At::QScalar(o) => self
                .b
                .ins()
                .load(types::I64, Self::mem(), self.grf, o as i32),
            At::QImm(lo) => {
                let bits = (u64::from(s.hi) << 32) | u64::from(lo);
                self.b.ins().iconst(types::I64, bits as i64)
            }
            _ => {
                let d = self.chunk(s, c);
                if s.signed {
                    self.b.ins().sextend(types::I64, d)
                } else {
                    self.b.ins().uextend(types::I64, d)
                }
            }
        };
        if logic {
            if s.neg {
                v = self.b.ins().bnot(v);
            }
            return v;
        }
        if s.abs {
            v = self.b.ins().iabs(v);
        }
        if s.neg {
            v = self.b.ins().ineg(v);
        }
        v
    }

    /// `fast::lanes_q`: a 64-bit plan, lane by lane.
    fn op_wide(&mut self, p: &Plan, pred: Value) -> (Vec<Value>, Option<Value>) {
        let [s0, s1, _] = &p.srcs;
        let logic = matches!(p.q, QOp::And | QOp::Or | QOp::Xor | QOp::Not);
        let mut out = Vec::with_capacity(self.n as usize);
        let mut masks = Vec::new();
        for c in 0..self.n as usize {
            if let QOp::FromF { u } = p.q {
                let v = self.lane_from_f(s0, c, u);
                out.push(v);
                continue;
            }
            let x = self.lane_q(s0, c, logic);
            let v = match p.q {
                QOp::Mov => x,
                QOp::Not => self.b.ins().bnot(x),
                // The float's bits in the low dword (`fast::lanes_q`), rounded to nearest
                // even (a run with one needs cr0 to say so: `needs_rtne`).
                QOp::ToF { u } => {
                    let f = if u {
                        self.b.ins().fcvt_from_uint(types::F32, x)
                    } else {
                        self.b.ins().fcvt_from_sint(types::F32, x)
                    };
                    let bits = self.bitcast(types::I32, f);
                    self.b.ins().uextend(types::I64, bits)
                }
                _ => {
                    let y = self.lane_q(s1, c, logic);
                    match p.q {
                        QOp::Add => self.b.ins().iadd(x, y),
                        QOp::Mul => self.b.ins().imul(x, y),
                        QOp::And => self.b.ins().band(x, y),
                        QOp::Or => self.b.ins().bor(x, y),
                        QOp::Xor => self.b.ins().bxor(x, y),
                        QOp::Shl { cm } => {
                            let k = self.b.ins().band_imm_u(y, i64::from(cm));
                            self.b.ins().ishl(x, k)
                        }
                        // shr shifts in zeros above src0's width, asr its sign.
                        QOp::Shr { cm, bits } => {
                            let k = self.b.ins().band_imm_u(y, i64::from(cm));
                            let a = if bits == 64 {
                                x
                            } else {
                                self.b.ins().band_imm_u(x, 0xFFFF_FFFF)
                            };
                            self.b.ins().ushr(a, k)
                        }
                        QOp::Asr { cm, bits } => {
                            let k = self.b.ins().band_imm_u(y, i64::from(cm));
                            let a = if bits == 64 {
                                x
                            } else {
                                let lo = self.b.ins().ireduce(types::I32, x);
                                self.b.ins().sextend(types::I64, lo)
                            };
                            self.b.ins().sshr(a, k)
                        }
                        QOp::Sel { cm, u } => {
                            let m = match cm {
                                None => self.bits_mask(pred, c),
                                Some(cm) => self.icmp_q(cm, u, x, y),
                            };
                            self.b.ins().select(m, x, y)
                        }
                        QOp::Cmp { cm, u } => {
                            let m = self.icmp_q(cm, u, x, y);
                            masks.push(m);
                            self.b.ins().bmask(types::I64, m)
                        }
                        QOp::Mov | QOp::Not | QOp::ToF { .. } | QOp::FromF { .. } => {
                            unreachable!("one source")
                        }
                        QOp::DMov
                        | QOp::DAdd
                        | QOp::DMul
                        | QOp::DMad
                        | QOp::DSel { .. }
                        | QOp::DCmp { .. } => unreachable!("doubles are not translated"),
                    }
                }
            };
            out.push(v);
        }
        let cond = (!masks.is_empty()).then(|| self.cond_bits(&masks));
        (out, cond)
    }

    /// Lane `c` of a float source converted to a qword as `fast::lanes_q` does (`u`: to
    /// UQ): its bits with abs and negate applied to the sign, truncated toward zero,
    /// saturating, NaN to 0 (the host's saturating conversions).
    fn lane_from_f(&mut self, s: &FSrc, c: usize, u: bool) -> Value {
        let raw = FSrc {
            abs: false,
            neg: false,
            ..*s
        };
        let wide = self.lane_q(&raw, c, false);
        let mut bits = self.b.ins().ireduce(types::I32, wide);
        if s.abs {
            bits = self.b.ins().band_imm_u(bits, i64::from(!SIGN));
        }
        if s.neg {
            bits = self.b.ins().bxor_imm_u(bits, i64::from(SIGN));
        }
        let f = self.bitcast(types::F32, bits);
        if u {
            self.b.ins().fcvt_to_uint_sat(types::I64, f)
        } else {
            self.b.ins().fcvt_to_sint_sat(types::I64, f)
        }
    }

    /// Lanes 2c and 2c+1 of a 64-bit plan's source, as an I64X2, extended and modified as
    /// `lane_q` does one lane (`wide_in_pairs` says which sources come here).
    fn pair_q(&mut self, s: &FSrc, c: usize, logic: bool) -> Value {
        let mem = Self::mem();
        let mut v = match s.at {
            At::QVec(o) => {
                self.b
                    .ins()
                    .load(types::I64X2, mem, self.grf, (o as usize + 16 * c) as i32)
            }
            At::Vec(o) => {
                let at = (o as usize + 8 * c) as i32;
                if s.signed {
                    self.b.ins().sload32x2(mem, self.grf, at)
                } else {
                    self.b.ins().uload32x2(mem, self.grf, at)
                }
            }
            At::QScalar(_) | At::QImm(_) | At::Scalar(_) | At::Imm(_) => {
                let one = self.uniform_q(s);
                self.b.ins().splat(types::I64X2, one)
            }
            _ => unreachable!("`wide_in_pairs` admits no other source"),
        };
        if logic {
            if s.neg {
                v = self.b.ins().bnot(v);
            }
            return v;
        }
        if s.neg {
            v = self.b.ins().ineg(v);
        }
        v
    }

    /// A uniform source of a 64-bit plan (a qword or dword scalar, an immediate), extended
    /// to an I64 as `lane_q` extends it (no modifiers).
    fn uniform_q(&mut self, s: &FSrc) -> Value {
        let mem = Self::mem();
        match s.at {
            At::QScalar(o) => self.b.ins().load(types::I64, mem, self.grf, o as i32),
            At::QImm(lo) => {
                let bits = (u64::from(s.hi) << 32) | u64::from(lo);
                self.b.ins().iconst(types::I64, bits as i64)
            }
            At::Scalar(o) => {
                let d = self.b.ins().load(types::I32, mem, self.grf, o as i32);
                if s.signed {
                    self.b.ins().sextend(types::I64, d)
                } else {
                    self.b.ins().uextend(types::I64, d)
                }
            }
            At::Imm(v) => {
                let x = if s.signed {
                    i64::from(v as i32)
                } else {
                    i64::from(v)
                };
                self.b.ins().iconst(types::I64, x)
            }
            _ => unreachable!("not a uniform source"),
        }
    }

    /// The lane mask of lanes 2c and 2c+1 from an instruction's channel bits.
    fn pair_mask(&mut self, bits: Value, c: usize) -> Value {
        let b = self.b.ins().ushr_imm_u(bits, (2 * c) as i64);
        let b = self.b.ins().uextend(types::I64, b);
        let s = self.b.ins().splat(types::I64X2, b);
        let data: Vec<u8> = [1u64, 2].iter().flat_map(|x| x.to_le_bytes()).collect();
        let h = self.b.func.dfg.constants.insert(ConstantData::from(data));
        let lane_bits = self.b.ins().vconst(types::I64X2, h);
        let on = self.b.ins().band(s, lane_bits);
        let zero = self.b.ins().iconst(types::I64, 0);
        let zero = self.b.ins().splat(types::I64X2, zero);
        self.b.ins().icmp(IntCC::NotEqual, on, zero)
    }

    /// A 64-bit plan two lanes a host operation (`wide_in_pairs`), where `op_wide` does one
    /// lane at a time: the same values lane for lane.
    fn op_wide_pairs(&mut self, p: &Plan, pred: Value) -> (Vec<Value>, Option<Value>) {
        let [s0, s1, _] = &p.srcs;
        let logic = matches!(p.q, QOp::And | QOp::Or | QOp::Xor | QOp::Not);
        let pairs = self.n as usize / 2;
        // A shift's count is uniform (`wide_in_pairs`): one host scalar for every lane.
        let count = match p.q {
            QOp::Shl { cm } | QOp::Shr { cm, .. } => {
                let y = self.uniform_q(s1);
                let y = if s1.neg { self.b.ins().ineg(y) } else { y };
                Some(self.b.ins().band_imm_u(y, i64::from(cm)))
            }
            _ => None,
        };
        let mut out = Vec::with_capacity(pairs);
        let mut cond = None;
        for c in 0..pairs {
            let x = self.pair_q(s0, c, logic);
            let v = match p.q {
                QOp::Mov => x,
                QOp::Not => self.b.ins().bnot(x),
                QOp::Shl { .. } => {
                    let k = count.expect("a shift's count");
                    self.b.ins().ishl(x, k)
                }
                QOp::Shr { bits, .. } => {
                    let k = count.expect("a shift's count");
                    let a = if bits == 64 {
                        x
                    } else {
                        let low = self.b.ins().iconst(types::I64, 0xFFFF_FFFF);
                        let low = self.b.ins().splat(types::I64X2, low);
                        self.b.ins().band(x, low)
                    };
                    self.b.ins().ushr(a, k)
                }
                _ => {
                    let y = self.pair_q(s1, c, logic);
                    match p.q {
                        QOp::Add => self.b.ins().iadd(x, y),
                        QOp::Mul => self.b.ins().imul(x, y),
                        QOp::And => self.b.ins().band(x, y),
                        QOp::Or => self.b.ins().bor(x, y),
                        QOp::Xor => self.b.ins().bxor(x, y),
                        QOp::Sel { cm: None, .. } => {
                            let m = self.pair_mask(pred, c);
                            self.b.ins().bitselect(m, x, y)
                        }
                        // All ones or zero per lane, as `bmask` makes each lane in `op_wide`.
                        QOp::Cmp { cm, u } => {
                            let m = self.icmp(cm, !u, x, y);
                            let bits = self.b.ins().vhigh_bits(types::I32, m);
                            let bits = self.b.ins().ishl_imm_u(bits, (2 * c) as i64);
                            cond = Some(match cond {
                                None => bits,
                                Some(a) => self.b.ins().bor(a, bits),
                            });
                            m
                        }
                        _ => unreachable!("`wide_in_pairs` admits no other operation"),
                    }
                }
            };
            out.push(v);
        }
        (out, cond)
    }

    /// `store` for `op_wide_pairs`' results: consecutive qwords, two lanes a chunk.
    fn store_pairs(&mut self, o: u32, out: &[Value], wmask: Value, whole: Whole) {
        self.store_vectors(o as i32, out, wmask, whole, types::I64X2, Self::pair_mask);
    }

    /// `cond_int` on 64-bit lanes (`.o`/`.u` are false for integers).
    fn icmp_q(&mut self, cm: CondMod, unsigned: bool, x: Value, y: Value) -> Value {
        if matches!(cm, CondMod::O | CondMod::U) {
            return self.b.ins().iconst(types::I8, 0);
        }
        self.icmp(cm, !unsigned, x, y)
    }

    /// Integer division of 32-bit lanes as `fast::div32`: the host has no vector division,
    /// so lane by lane, with the divisor made 1 where it is 0 or where `i32::MIN / -1`
    /// would trap (the quotient of the latter is then `i32::MIN`, its remainder 0, as the
    /// wrapping division's), and the quotient by zero all ones, the remainder the dividend.
    fn div(&mut self, x: Value, y: Value, signed: bool, rem: bool) -> Value {
        fn one(b: &mut FunctionBuilder<'_>, a: Value, d: Value, signed: bool, rem: bool) -> Value {
            let zero = b.ins().icmp_imm_s(IntCC::Equal, d, 0);
            let mut bad = zero;
            if signed {
                let min = b.ins().icmp_imm_s(IntCC::Equal, a, i64::from(i32::MIN));
                let minus1 = b.ins().icmp_imm_s(IntCC::Equal, d, -1);
                let wraps = b.ins().band(min, minus1);
                bad = b.ins().bor(zero, wraps);
            }
            let one = b.ins().iconst(types::I32, 1);
            let safe = b.ins().select(bad, one, d);
            let (q, by_zero) = match (signed, rem) {
                (true, false) => (b.ins().sdiv(a, safe), b.ins().iconst(types::I32, -1)),
                (false, false) => (b.ins().udiv(a, safe), b.ins().iconst(types::I32, -1)),
                (true, true) => (b.ins().srem(a, safe), a),
                (false, true) => (b.ins().urem(a, safe), a),
            };
            b.ins().select(zero, by_zero, q)
        }
        if self.scalar() {
            return one(self.b, x, y, signed, rem);
        }
        let mut r = x;
        for lane in 0..4u8 {
            let a = self.b.ins().extractlane(x, lane);
            let d = self.b.ins().extractlane(y, lane);
            let v = one(self.b, a, d, signed, rem);
            r = self.b.ins().insertlane(r, v, lane);
        }
        r
    }

    /// A 32-bit shift, the count masked to 5 bits (Cranelift's shifts mask it likewise).
    /// `uniform`: every lane's count is the same (a scalar or immediate source).
    fn shift(&mut self, op: FOp, x: Value, y: Value, uniform: bool) -> Value {
        fn one(b: &mut FunctionBuilder<'_>, op: FOp, x: Value, amt: Value) -> Value {
            match op {
                FOp::IShl => b.ins().ishl(x, amt),
                FOp::IShr => b.ins().ushr(x, amt),
                _ => b.ins().sshr(x, amt),
            }
        }
        if self.scalar() {
            return one(self.b, op, x, y);
        }
        if uniform {
            let amt = self.b.ins().extractlane(y, 0);
            return one(self.b, op, x, amt);
        }
        let mut r = x;
        for lane in 0..4u8 {
            let a = self.b.ins().extractlane(x, lane);
            let s = self.b.ins().extractlane(y, lane);
            let v = one(self.b, op, a, s);
            r = self.b.ins().insertlane(r, v, lane);
        }
        r
    }

    /// Whether some lane of the chunks `vs` (float results) is a NaN, or with `flush` below
    /// the smallest normal (|r| < 2^-126 or unordered, one comparison for both: zeros
    /// too), in which case the instruction goes to its slow block, where the interpreter
    /// does it (`nan_f32`, `fast::flush`). One branch for all of `vs`.
    fn nan_check(&mut self, vs: &[Value], flush: bool) {
        let mut any: Option<Value> = None;
        for &v in vs {
            let bad = if flush {
                let magnitude = self.konst(!SIGN);
                let min_normal = self.konst(0x0080_0000);
                let min_normal = self.as_float(min_normal);
                let a = self.as_int(v);
                let a = self.b.ins().band(a, magnitude);
                let a = self.as_float(a);
                self.b
                    .ins()
                    .fcmp(FloatCC::UnorderedOrLessThan, a, min_normal)
            } else {
                self.b.ins().fcmp(FloatCC::Unordered, v, v)
            };
            any = Some(match any {
                None => bad,
                Some(a) => self.b.ins().bor(a, bad),
            });
        }
        let bad = any.expect("at least one chunk");
        let any = if self.scalar() {
            bad
        } else {
            self.b.ins().vany_true(bad)
        };
        // A result to fix: the interpreter does the whole instruction (`code::slow_float`),
        // from the instruction's slow block (filled by `slow_float`, in `function`); nothing
        // of it is written yet.
        let slow = match self.slow {
            Some(blk) => blk,
            None => {
                let blk = self.b.create_block();
                self.b.set_cold_block(blk);
                self.slow = Some(blk);
                blk
            }
        };
        let cont = self.b.create_block();
        self.b.ins().brif(any, slow, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }
}
