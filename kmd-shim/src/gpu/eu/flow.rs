//! SIMD control flow. Gen6+ keeps a per-channel instruction pointer (PcIP):
//! a channel executes an instruction iff its PcIP equals the thread's IP.
//! Here, enabled channels are in `Thread::active`; a channel that a branch
//! disables is parked with the IP where it rejoins (`wait_ip`) and is
//! re-enabled when the thread's IP reaches it. When a flow instruction leaves
//! no channel enabled, the thread jumps to JIP, as the PRM specifies for
//! if/else/endif/break/cont/halt/goto/join; JIP/UIP are byte offsets from the
//! instruction itself (Gen8+); `jmpi`'s offset is from the next instruction.

use gencl_isa::Opcode;

use super::program::ExecInst;
use super::thread::{full, Thread};
use crate::gpu::GpuError;

/// Re-enable channels parked at the current IP.
#[inline]
pub fn wake(t: &mut Thread) {
    if t.waiting == 0 || t.ip < t.wake_min {
        return;
    }
    let mut w = t.waiting;
    let mut min = u64::MAX;
    while w != 0 {
        let c = w.trailing_zeros() as usize;
        w &= w - 1;
        if t.wait_ip[c] == t.ip {
            t.waiting &= !(1 << c);
            t.active |= (1 << c) & t.dispatch;
        } else {
            min = min.min(t.wait_ip[c]);
        }
    }
    t.wake_min = min;
}

fn park(t: &mut Thread, lanes: u32, target: u64) {
    if lanes == 0 {
        return;
    }
    let mut w = lanes;
    while w != 0 {
        let c = w.trailing_zeros() as usize;
        w &= w - 1;
        t.wait_ip[c] = target;
    }
    t.waiting |= lanes;
    t.active &= !lanes;
    t.wake_min = t.wake_min.min(target);
}

/// Continue at `next` if some channel of the group is enabled there (or will
/// be re-enabled there), else take JIP.
fn pick(t: &Thread, group: u32, next: u64, jip: u64) -> u64 {
    if t.active & group != 0 || t.parked_at(group, |ip| ip == next) {
        return next;
    }
    jip
}

/// Execute one flow-control instruction; returns the channels it ran on.
pub fn exec(t: &mut Thread, inst: &ExecInst) -> Result<u32, GpuError> {
    let ip = t.ip;
    let next = ip.wrapping_add(u64::from(inst.len));
    let jip = ip.wrapping_add(inst.branch.jip as i64 as u64);
    let uip = ip.wrapping_add(inst.branch.uip as i64 as u64);
    let group = full(inst.n) << inst.chan_off;
    let act = if inst.no_mask {
        group & t.dispatch
    } else {
        t.active & group
    };
    // Predicate in absolute channel numbers (no predicate: every channel).
    let p = t.pred_mask(inst) << inst.chan_off;
    let illegal = |why: &str| GpuError::IllegalInstruction {
        addr: ip,
        why: format!("{:?}: {why}", inst.op),
    };
    match inst.op {
        Opcode::If => {
            park(t, act & !p, jip);
            t.ip = pick(t, group, next, jip);
        }
        Opcode::Else => {
            park(t, act, jip);
            t.ip = pick(t, group, next, jip);
        }
        Opcode::Endif | Opcode::Join => {
            t.ip = pick(t, group, next, jip);
        }
        Opcode::While => {
            let again = act & p;
            if again != 0 {
                park(t, act & !p, next);
                t.ip = jip;
            } else {
                t.ip = next;
            }
        }
        Opcode::Break => {
            // UIP names the loop's `while` (Gen7+, as compilers encode it); broken channels
            // leave the loop, so they rejoin after it, while `cont` channels rejoin at the
            // `while` and take part in its test. (`while` is never compacted: 16 bytes.)
            park(t, act & p, uip.wrapping_add(16));
            t.ip = pick(t, group, next, jip);
        }
        Opcode::Goto => {
            // On BDW/SKL a goto sends the channels whose predicate is FALSE to UIP; with
            // BranchCtrl set (what compilers emit for backward gotos) the TRUE ones jump.
            // (IGC's vISA flips forward gotos' predicates for these parts: "the false
            // channels are the ones that actually will take the jump".)
            let jump = if inst.acc_wr { act & p } else { act & !p };
            if uip <= ip {
                // Backward: the jumping channels loop; the others wait at JIP (the join
                // after the loop).
                if jump != 0 {
                    park(t, act & !jump, jip);
                    t.ip = uip;
                } else {
                    t.ip = pick(t, group, next, jip);
                }
            } else {
                park(t, jump, uip);
                t.ip = pick(t, group, next, jip);
            }
        }
        Opcode::Cont | Opcode::Halt => {
            park(t, act & p, uip);
            t.ip = pick(t, group, next, jip);
        }
        Opcode::Jmpi => {
            let taken = inst.pred.is_none() || t.pred_mask(inst) & 1 != 0;
            t.ip = if taken {
                ip.wrapping_add(16)
                    .wrapping_add(inst.branch.jip as i64 as u64)
            } else {
                next
            };
        }
        Opcode::Call => {
            // The destination receives the return IP (dword 0) and the channel mask (dword 1).
            if let Some(d) = &inst.dst {
                let mut v = [0u64; 32];
                v[0] = next & 0xFFFF_FFFF;
                v[1] = u64::from(t.active);
                let lanes = full(inst.n.min(2));
                t.scatter_bits(d, inst.n.min(2) as usize, lanes, &v, ip)?;
            }
            t.ip = jip;
        }
        Opcode::Ret => {
            let s = inst.srcs[0]
                .as_ref()
                .ok_or_else(|| illegal("ret without source"))?;
            let mut v = [0i64; 32];
            t.gather_int(s, inst.n.max(1) as usize, &mut v, false, ip)?;
            t.ip = (ip & !0xFFFF_FFFF) | (v[0] as u32 as u64);
        }
        Opcode::Nop => t.ip = next,
        Opcode::Illegal => return Err(illegal("the illegal opcode")),
        _ => return Err(illegal("this flow-control instruction is not modelled")),
    }
    Ok(act)
}
