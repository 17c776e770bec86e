//! What the counters record beyond instruction counts: sends by kind and the
//! modelled EU cycles (docs/gpu-model.md "Counters and timing model").

use gencl_isa::{Opcode, SendInfo, Sfid};

use super::program::{Dom, ExecInst, Loc};
use crate::gpu::Counters;

/// EU threads per EU on Gen9: up to this many threads overlap their latency.
pub const THREADS_PER_EU: u64 = 7;

/// Instructions an EU issues per cycle (FPU0 and FPU1), from different threads.
pub const ISSUE_PER_CYCLE: u64 = 2;

/// One thread's cycles: the issue slots it used, the cycles it waited for message replies,
/// and its scoreboard (the replies still on their way).
///
/// A send's reply registers are scoreboarded, as Gen's are: the thread goes on issuing and
/// waits only when an instruction reads or writes a register a reply has yet to land in
/// (or at its end), so independent work, and other messages, issued after a send hide its
/// latency. A message without a reply (a store, an atomic whose old value is dropped)
/// makes nobody wait.
#[derive(Default, Clone, Debug)]
pub struct Timing {
    pub issue: u64,
    /// Cycles the thread stood waiting for replies.
    pub latency: u64,
    /// Replies on their way: the GRFs each writes (bit n: rn) and the cycle it lands.
    pending: Vec<(u128, u64)>,
    /// Union of `pending`'s registers.
    busy: u128,
}

impl Timing {
    /// As at dispatch (the replies' list keeps its capacity).
    pub fn reset(&mut self) {
        let Timing {
            issue,
            latency,
            pending,
            busy,
        } = self;
        (*issue, *latency, *busy) = (0, 0, 0);
        pending.clear();
    }

    /// The thread's cycle: its issue and its waits so far, in sequence.
    fn now(&self) -> u64 {
        self.issue + self.latency
    }

    /// Before an instruction that reads or writes `grfs` issues: wait for every reply
    /// landing in them.
    #[inline]
    pub fn touch(&mut self, grfs: u128) {
        if self.busy & grfs != 0 {
            self.wait_for(grfs);
        }
    }

    #[cold]
    fn wait_for(&mut self, grfs: u128) {
        let now = self.now();
        let mut until = now;
        self.pending.retain(|&(regs, ready)| {
            if regs & grfs != 0 {
                until = until.max(ready);
                false
            } else {
                ready > now
            }
        });
        self.latency += until - now;
        self.busy = self.pending.iter().fold(0, |m, p| m | p.0);
    }

    /// The GRFs replies may still be on their way to (some may have landed: `touch` and
    /// `clear_of` forget those).
    pub fn busy(&self) -> u128 {
        self.busy
    }

    /// Whether the replies on their way leave `grfs` alone (those landed by now are
    /// forgotten first): a translated run touching only such registers need not check.
    pub fn clear_of(&mut self, grfs: u128) -> bool {
        if self.busy & grfs == 0 {
            return true;
        }
        let now = self.now();
        self.pending.retain(|&(_, ready)| ready > now);
        self.busy = self.pending.iter().fold(0, |m, p| m | p.0);
        self.busy & grfs == 0
    }

    /// A send just issued whose reply lands in `grfs` after `latency` cycles.
    pub fn reply(&mut self, grfs: u128, latency: u64) {
        if grfs != 0 && latency > 0 {
            self.pending.push((grfs, self.now() + latency));
            self.busy |= grfs;
        }
    }

    /// The thread ends when its last reply has landed.
    pub fn end(&mut self) {
        self.touch(u128::MAX);
    }
}

/// The GRFs (bit n: rn) of `count` whole registers from `first`; registers past r127 are
/// not named (the data port refuses such messages).
pub fn grf_range(first: u32, count: u32) -> u128 {
    if count == 0 || first >= 128 {
        return 0;
    }
    let end = (first + count).min(128);
    let ones = if end - first == 128 {
        u128::MAX
    } else {
        (1u128 << (end - first)) - 1
    };
    ones << first
}

/// The GRFs (bit n: rn) of an operand's region over `n` lanes: its direct GRF region; an
/// indirect one may name any register.
fn region_grfs(n: usize, loc: Loc, indirect: bool, base: u32, rel: &[u16; 32], size: u32) -> u128 {
    match loc {
        Loc::Grf if indirect => u128::MAX,
        Loc::Grf => {
            let lo = rel[..n].iter().copied().min().unwrap_or(0) as u32;
            let hi = rel[..n].iter().copied().max().unwrap_or(0) as u32 + size;
            let (first, last) = ((base + lo) / 32, (base + hi - 1) / 32);
            grf_range(first, last + 1 - first)
        }
        _ => 0,
    }
}

/// The GRFs of `inst`'s destination region (none: 0).
fn dst_grfs(inst: &ExecInst) -> u128 {
    let n = usize::from(inst.n).clamp(1, 32);
    inst.dst.as_ref().map_or(0, |d| {
        region_grfs(n, d.loc, d.indirect.is_some(), d.base, &d.rel, d.ty.size())
    })
}

/// The GRFs an instruction may write (bit n: rn): an ALU instruction's destination region
/// (any register through an indirect one; integer division's remainder in the registers
/// after the quotient's), a send's reply (any register when its descriptor is not known
/// before it issues).
pub fn grfs_written(inst: &ExecInst) -> u128 {
    if inst.send.is_some() {
        return inst.send_regs.map_or(u128::MAX, |(_, reply)| reply);
    }
    let w = dst_grfs(inst);
    if inst.math == Some(gencl_isa::MathFn::IntDivBoth) {
        w | w << 1 | w << 2
    } else {
        w
    }
}

/// The GRFs an ALU or flow instruction reads or writes: its direct GRF operands' regions;
/// an indirect operand may name any register.
pub fn grfs_touched(inst: &ExecInst) -> u128 {
    let n = usize::from(inst.n).clamp(1, 32);
    inst.srcs.iter().flatten().fold(dst_grfs(inst), |m, s| {
        m | region_grfs(n, s.loc, s.indirect.is_some(), s.base, &s.rel, s.ty.size())
    })
}

/// Modelled cycles of a group on one EU: the larger of the issue bound (all
/// instructions through two pipes) and the latency bound (a thread's issue and
/// its message latencies in sequence, up to 7 threads overlapping: waves).
pub fn group_cycles(timing: &[Timing]) -> u64 {
    GroupTime::of(timing).cycles()
}

/// What `group_cycles` reads of a group's threads, gathered from some of them: the
/// threads of a group that runs on several host threads (`eu::lanes`) are timed by each
/// host thread for its own, and their sums and maxima make the group's.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct GroupTime {
    /// Issue cycles of every thread.
    issue: u64,
    /// The latest any thread ended.
    longest: u64,
    threads: u64,
}

impl GroupTime {
    pub fn of(timing: &[Timing]) -> GroupTime {
        GroupTime {
            issue: timing.iter().map(|t| t.issue).sum(),
            longest: timing.iter().map(Timing::now).max().unwrap_or(0),
            threads: timing.len() as u64,
        }
    }

    /// Both parts' threads.
    pub fn add(&mut self, other: GroupTime) {
        self.issue += other.issue;
        self.longest = self.longest.max(other.longest);
        self.threads += other.threads;
    }

    pub fn cycles(&self) -> u64 {
        let waves = self.threads.div_ceil(THREADS_PER_EU);
        self.issue
            .div_ceil(ISSUE_PER_CYCLE)
            .max(waves * self.longest)
    }
}

/// Issue cycles of an ALU instruction on Gen9's 128-bit FPUs ("The Compute Architecture of
/// Intel Processor Graphics Gen9", §5.3.2: each EU has two SIMD FPUs, each SIMD4 on 32-bit
/// floats or integers and SIMD8 on 16-bit ones; FP64 and extended math only on FPU0):
/// - 32-bit: a cycle per 4 lanes (SIMD8 = 2, SIMD16 = 4), either pipe;
/// - 16-bit (`:hf` destination): a cycle per 8 lanes;
/// - 64-bit integers: a cycle per 2 lanes;
/// - 32×32-bit integer multiplies: twice the 32-bit cost (clpeak's HD 530 runs its mul+add
///   chains at a third of the rate of its mad chains, docs/gpu-model.md);
/// - DF arithmetic and extended math: four times the 32-bit cost, a quarter of FP32's rate
///   (FPU0 at half its width; the model, with one issue counter, charges the cycles that
///   would leave FPU1 to other work as both pipes' time).
pub fn issue_cycles(inst: &ExecInst) -> u64 {
    let lanes = u64::from(inst.n).max(1);
    let per4 = lanes.div_ceil(4);
    let dst_bytes = inst.dst.map_or(4, |d| d.ty.size());
    let int32 = |s: &Option<super::program::SrcOp>| {
        s.as_ref()
            .is_some_and(|s| s.ty.size() == 4 && !s.ty.is_float())
    };
    match inst.op {
        Opcode::Math => 4 * per4,
        _ if inst.dom == Dom::F64 => 4 * per4,
        _ if dst_bytes == 8 => lanes.div_ceil(2),
        Opcode::Mul if int32(&inst.srcs[0]) && int32(&inst.srcs[1]) => 2 * per4,
        _ if dst_bytes == 2 && inst.dom == Dom::F32 => lanes.div_ceil(8),
        _ => per4,
    }
}

/// Count one send by kind; `desc` is the message descriptor (immediate or a0.0).
pub fn count_send(c: &mut Counters, info: &SendInfo, desc: u32) {
    let msg_type = (desc >> 14) & 0x1F;
    let bti = desc & 0xFF;
    // By binding-table index: SLM, stateless (global memory), or a surface.
    let by_bti = |c: &mut Counters| match bti {
        254 => c.sends_slm += 1,
        253 | 255 => c.sends_a64 += 1,
        _ => c.sends_surface += 1,
    };
    if info.eot {
        c.sends_eot += 1;
        return;
    }
    match info.sfid {
        Sfid::ThreadSpawner => c.sends_eot += 1,
        Sfid::Gateway if desc & 7 == 4 => c.sends_barrier += 1,
        Sfid::Dc1 => match msg_type {
            // Untyped atomics (integer, float) and A64 atomics (integer, float).
            2 | 0x12 | 0x1B | 0x1D => c.sends_atomic += 1,
            0x10..=0x1F => c.sends_a64 += 1,
            _ => by_bti(c),
        },
        Sfid::Dc0 | Sfid::ConstCache | Sfid::Dc2 => {
            // Bit 18: scratch block messages; type 7: memory fence.
            if desc & (1 << 18) != 0 {
                c.sends_scratch += 1;
            } else if msg_type == 7 {
                c.sends_other += 1;
            } else {
                by_bti(c);
            }
        }
        Sfid::Sampler => c.sends_sampler += 1,
        _ => c.sends_other += 1,
    }
}
