//! The data cache data ports a Gen9 EU thread talks to with `send` (DC0:
//! scattered, OWord block, scratch, fence; DC1: untyped surface, A64, atomics),
//! with the group's shared local memory. The message gateway (barrier) is
//! `gpu::gateway`, and the thread spawner's end of thread is the EU's.
//!
//! A send's descriptors are decoded by the ISA's own message decoder
//! (`gencl_isa::gen9::send::decode_message`, the one the disassembler
//! uses; layouts from the PRM vol 2d "Message Descriptor" as Mesa's
//! `brw_eu.h` lists them); this file executes the decoded message.

use gencl_isa::gen9::send::{self, AtomicOp, Message, MsgKind};
use gencl_isa::Sfid;

use crate::gpu::{copy_lane, lane_zext, GpuError, GpuMemory, MemFault, ThreadGroup};

/// Binding-table indices with a fixed meaning on Gen9: the ISA crate's, widened to the
/// descriptor field they are compared with.
pub const BTI_SLM: u32 = send::BTI_SLM as u32;
pub const BTI_STATELESS: u32 = send::BTI_STATELESS as u32;
pub const BTI_STATELESS_NON_COHERENT: u32 = send::BTI_STATELESS_NON_COHERENT as u32;
pub const BTI_BINDLESS: u32 = send::BTI_BINDLESS as u32;

/// Modelled latencies (cycles) of a message, for the timing model.
pub const LATENCY_MEMORY: u32 = 200;
pub const LATENCY_SLM: u32 = 30;
pub const LATENCY_FENCE: u32 = 50;

// SLM atomics need no lock of their own: a send runs to its end before any other thread of
// the group issues, and a group whose threads run on several host threads (`eu::lanes`)
// takes its SLM's lock for each SLM message (`Dataport::send`). Atomics on graphics memory
// hold their lines' locks (`GpuMemory::update_each`).

/// What the thread does after its send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendOutcome {
    Continue {
        latency: u32,
    },
    /// The gateway received this thread's barrier arrival.
    Barrier,
    /// End of thread.
    Eot,
}

/// Memory the data port reaches for one thread group.
pub struct Dataport<'a> {
    pub mem: &'a dyn GpuMemory,
    pub tg: &'a ThreadGroup,
    /// The group's shared local memory.
    pub slm: Vec<u8>,
    /// Base of stateless (BTI 255/253) 32-bit offsets: the General State Base Address.
    pub general_state_base: u64,
    /// Spin-waits on the group's SLM: who waits for which dword to be written.
    pub watch: SlmWatch,
    /// The SLM and watch of a group whose threads run on several host threads (`eu::lanes`):
    /// swapped into `slm` and `watch` under its lock for each message that reaches them.
    /// `None`: this data port's own are the group's.
    shared: Option<&'a parking_lot::Mutex<SharedSlm>>,
    /// A message through `shared` left threads woken for the EU to run (some may be another
    /// host thread's to pick up); the EU clears it.
    pub woke: bool,
    /// The surfaces the group's last messages named, by binding-table index modulo
    /// `SURFACES` (`space`): a group's kernel reaches a few, each message looked one up.
    surfaces: [std::cell::Cell<Option<(u32, Space)>>; SURFACES],
}

/// Slots of `Dataport::surfaces`.
const SURFACES: usize = 8;

/// The SLM and spin-wait watch of a group whose threads run on several host threads.
#[derive(Debug, Default)]
pub struct SharedSlm {
    pub slm: Vec<u8>,
    pub watch: SlmWatch,
}

/// The most rounds of its group a spin-waiter sleeps through when nothing writes its dword.
pub const MAX_SLEEP_ROUNDS: u64 = 64;

/// A spin-wait on SLM, as a lock's waiters run it: a compare-exchange that fails in every
/// lane, then a back-off (`mov (1) null 0 {Switch}`, gencl's 64-bit local atomics). While
/// the dword does not hold what the compare-exchange compares with, the thread's retries
/// can only fail, so the EU puts it to sleep until a write leaves that value there (one
/// sleeper woken a write, first asleep first), no thread of the group can run, or
/// `MAX_SLEEP_ROUNDS` rounds have passed (a bound, so that a thread whose loop ends on
/// something else is only delayed). Where the failed lanes compared with different values
/// (or with 64 bits), any write of the dword wakes, and the thread sleeps only if nothing
/// was written since its attempt. The back-off is the JIT's own, after a compare-exchange
/// whose operands are constants (`passes::local_atomics64`). On the GPU model a spinning
/// thread took its turns from the lock's holder: 98 % of the messages of the CTS's 64-bit
/// `__local` atomics were failed retries (docs/gpu-model.md, "Spin-waits on SLM"); and
/// woken by any write, a sleeper woke at the holder's own taking of the lock as well as at
/// its release, to fail again: two failed attempts for each one that got the lock.
#[derive(Debug, Default)]
pub struct SlmWatch {
    /// SLM writes so far, at any address: a failed compare-exchange is stale once this
    /// moves (the dword may have changed before the thread switches).
    pub writes: u64,
    /// Per thread: its last SLM compare-exchange, when that failed in every lane on one
    /// dword.
    pub failed: Vec<Option<Failed>>,
    /// Threads asleep on a dword, in the order they went to sleep.
    sleepers: Vec<Sleeper>,
    /// Threads a write has woken, for the EU to run again.
    pub woken: Vec<u32>,
    /// The dwords whose sleeper the current message has woken: a message wakes one a
    /// dword, however many of its lanes write it (a lock's release by every lane).
    in_message: Vec<usize>,
    /// The lowest and highest dword a sleeper waits on (while any sleeps; not narrowed as
    /// they wake): most writes are to other data than the lock the sleepers wait on, and
    /// are told so without a look at each sleeper.
    span: (usize, usize),
    /// The dword and value every sleeper waits for, when they are one (while any sleeps;
    /// the waiters of one lock): a write that leaves another value there is told so with
    /// one look at it (taking the lock wakes no one).
    one: Option<(usize, Option<u32>)>,
}

/// A compare-exchange on SLM that failed in every lane, on one dword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failed {
    /// The dword's byte offset in SLM.
    pub dword: usize,
    /// `SlmWatch::writes` after it.
    pub writes: u64,
    /// The value every lane compared with (32-bit compare-exchanges): only a dword holding
    /// it lets a retry succeed.
    pub expected: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
struct Sleeper {
    thread: u32,
    dword: usize,
    expected: Option<u32>,
    /// The round it fell asleep in.
    since: u64,
}

/// The dword at byte `d` of `slm` (zero past its end, as an SLM read there).
fn slm_dword(slm: &[u8], d: usize) -> u32 {
    slm.get(d..d + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl SlmWatch {
    /// A write of SLM bytes `o..o + len` (`slm` after it): wakes the first thread asleep on
    /// a dword of them that now holds what it waits for.
    fn written(&mut self, o: usize, len: usize, slm: &[u8]) {
        self.writes += 1;
        if self.sleepers.is_empty() || o >= self.span.1 + 4 || o + len <= self.span.0 {
            return;
        }
        // Sleepers wait on whole dwords: a write within one that this message has already
        // woken a sleeper of wakes no other (a lock's release by every lane: eight lanes
        // each looked at every sleeper).
        if o % 4 + len <= 4 && self.in_message.contains(&(o & !3)) {
            return;
        }
        if let Some((d, Some(e))) = self.one {
            if slm_dword(slm, d) != e {
                return;
            }
        }
        let in_message = &self.in_message;
        if let Some(i) = self.sleepers.iter().position(|s| {
            s.dword + 4 > o
                && s.dword < o + len
                && !in_message.contains(&s.dword)
                && s.expected.is_none_or(|e| slm_dword(slm, s.dword) == e)
        }) {
            let s = self.sleepers.remove(i);
            self.woken.push(s.thread);
            self.in_message.push(s.dword);
        }
    }

    /// Thread `t` backs off in round `round` (`slm` the group's SLM): whether it goes to
    /// sleep (its last SLM compare-exchange failed in every lane, and a retry would fail
    /// too: the dword does not hold the value compared with, or, where that is not one
    /// value, SLM was not written since).
    pub fn sleeps(&mut self, t: u32, round: u64, slm: &[u8]) -> bool {
        let Some(f) = self.failed.get_mut(t as usize).and_then(Option::take) else {
            return false;
        };
        let fails = match f.expected {
            Some(e) => slm_dword(slm, f.dword) != e,
            None => f.writes == self.writes,
        };
        if !fails {
            return false;
        }
        let d = f.dword;
        (self.span, self.one) = if self.sleepers.is_empty() {
            ((d, d), Some((d, f.expected)))
        } else {
            (
                (self.span.0.min(d), self.span.1.max(d)),
                self.one.filter(|&one| one == (d, f.expected)),
            )
        };
        self.sleepers.push(Sleeper {
            thread: t,
            dword: d,
            expected: f.expected,
            since: round,
        });
        true
    }

    /// Every sleeper woken (no thread of the group could run); whether any thread is now
    /// woken and not yet running again (a late sleeper `wake_late` woke counts).
    pub fn wake_all(&mut self) -> bool {
        self.woken.extend(self.sleepers.drain(..).map(|s| s.thread));
        !self.woken.is_empty()
    }

    /// The sleepers of `mine` that fell asleep `MAX_SLEEP_ROUNDS` rounds before `round`
    /// (rounds of whoever runs them: the group's, or its lane's, `eu::lanes`), woken.
    pub fn wake_late(&mut self, round: u64, mine: impl Fn(u32) -> bool) {
        let woken = &mut self.woken;
        self.sleepers.retain(|s| {
            let keep = !mine(s.thread) || round - s.since < MAX_SLEEP_ROUNDS;
            if !keep {
                woken.push(s.thread);
            }
            keep
        });
    }
}

/// One message from an EU thread.
pub struct Request<'a> {
    /// The send's instruction address (errors name it).
    pub addr: u64,
    /// The sending thread's index in its group (its scratch slot).
    pub thread: u32,
    /// The lanes the message is for (relative to the instruction).
    pub emask: u32,
    /// The descriptor, and the message it names.
    pub desc: u32,
    pub message: &'a Message,
    pub payload: &'a Payload,
}

/// What taking a message in place (`Dataport::send_form`) needs of it besides its lanes'
/// addresses and enabled lanes, from its descriptor and register numbers alone: an untyped
/// read or write (channels x, xy, xyz or xyzw), or a byte or dword scattered one (DC0's, or
/// A64's of one element a lane), of SIMD8 or SIMD16, to memory (not shared local memory),
/// its register blocks each within one of the two payloads and within r127. Found once
/// when a send with an immediate descriptor is decoded (`eu::program`), else at each send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InPlaceForm {
    write: bool,
    scattered: bool,
    a64: bool,
    simd: u8,
    /// Untyped: its channels; scattered: bytes per element (1, 2 or 4).
    width: u8,
    bti: Option<u8>,
    /// GRF byte offsets of the lanes' addresses and of a write's data or a read's reply.
    addrs: u16,
    data: u16,
}

impl InPlaceForm {
    /// The form of message `m` whose payload starts at `src0` (`mlen` registers) and, for
    /// a split send, `src1` (`ex_mlen`), and whose reply goes to `dst`; `None` when it has
    /// none (the message path takes it, and raises what is wrong with it).
    pub fn of(m: &Message, src0: usize, src1: Option<usize>, dst: Option<usize>) -> Option<Self> {
        let (write, scattered) = match m.kind {
            MsgKind::UntypedRead | MsgKind::A64UntypedRead => (false, false),
            MsgKind::UntypedWrite | MsgKind::A64UntypedWrite => (true, false),
            MsgKind::ByteScatteredRead | MsgKind::DwordScatteredRead => (false, true),
            MsgKind::ByteScatteredWrite | MsgKind::DwordScatteredWrite => (true, true),
            // One element a lane (a byte subtype's 1, 2 or 4 bytes, or one dword).
            MsgKind::A64ScatteredRead if m.elements == 1 => (false, true),
            MsgKind::A64ScatteredWrite if m.elements == 1 => (true, true),
            _ => return None,
        };
        let (mlen, ex_mlen, rlen) = (m.mlen as usize, m.ex_mlen as usize, m.rlen as usize);
        let simd = m.simd as usize;
        if !matches!(simd, 8 | 16)
            || matches!(m.sfid, Sfid::Null | Sfid::ThreadSpawner | Sfid::Gateway)
            || m.bti.is_some_and(|b| u32::from(b) == BTI_SLM)
            || src0 + mlen > 128
            || src1.is_some_and(|r| r + ex_mlen > 128)
            || dst.is_some_and(|r| r + rlen > 128)
        {
            return None;
        }
        // GRF byte offset of payload registers `k..k + n`, in one of the two payloads.
        let payload = |k: usize, n: usize| -> Option<usize> {
            if k + n <= mlen {
                Some(32 * (src0 + k))
            } else if k >= mlen && k + n <= mlen + ex_mlen {
                src1.map(|r| 32 * (r + k - mlen))
            } else {
                None
            }
        };
        let per = simd / 8;
        let areg = usize::from(m.header);
        let a64 = m.bti.is_none();
        let (width, aregs, dregs) = if scattered {
            let es = m.data_size as usize;
            if !matches!(es, 1 | 2 | 4) {
                return None;
            }
            (es, if a64 { simd / 4 } else { per }, per)
        } else {
            let mask = m.channel_mask;
            if mask == 0 || mask & (mask + 1) != 0 {
                return None;
            }
            let chans = mask.count_ones() as usize;
            (chans, if a64 { simd / 4 } else { per }, chans * per)
        };
        let addrs = payload(areg, aregs)?;
        let data = if write {
            payload(areg + aregs, dregs)?
        } else {
            32 * dst.filter(|_| rlen == dregs)?
        };
        Some(InPlaceForm {
            write,
            scattered,
            a64,
            simd: simd as u8,
            width: width as u8,
            bti: m.bti,
            addrs: addrs as u16,
            data: data as u16,
        })
    }
}

/// Where the addresses of a message point.
#[derive(Debug, Clone, Copy)]
enum Space {
    Slm,
    /// Graphics memory at `base + offset`, with a bound for surfaces (accesses
    /// at or past it read zero / are dropped).
    Mem {
        base: u64,
        bound: Option<u64>,
    },
    /// A null binding-table entry: reads zero, writes dropped.
    Null,
}

/// A message's payload: up to 15 + 15 registers (a split send's two parts, in order).
#[derive(Default)]
pub struct Payload {
    pub regs: [[u8; 32]; 32],
    pub len: usize,
}

/// The bits in which `N` dword lane addresses (little-endian, from `flat`) differ from
/// `a0 + l * stride`: zero when the lanes step by `stride`. In 32 bits, lane by lane with
/// no early exit, so that the loop is a few vector instructions (`stepping` has checked
/// that the last lane's address fits, so that no lane's wraps).
fn lanes_off32<const N: usize>(flat: &[u8], a0: u32, stride: u32) -> u32 {
    let Some(flat) = flat.get(..N * 4) else {
        return u32::MAX;
    };
    let (lanes, _) = flat.as_chunks::<4>();
    let mut off = 0;
    for (l, b) in lanes.iter().enumerate() {
        off |= u32::from_le_bytes(*b) ^ a0.wrapping_add((l as u32).wrapping_mul(stride));
    }
    off
}

/// `lanes_off32` for qword (A64) lane addresses.
fn lanes_off64<const N: usize>(flat: &[u8], a0: u64, stride: u64) -> u64 {
    let Some(flat) = flat.get(..N * 8) else {
        return u64::MAX;
    };
    let (lanes, _) = flat.as_chunks::<8>();
    let mut off = 0;
    for (l, b) in lanes.iter().enumerate() {
        off |= u64::from_le_bytes(*b) ^ a0.wrapping_add((l as u64).wrapping_mul(stride));
    }
    off
}

/// Lane 0's address and the step between lanes when the first `n` of the `simd` lane
/// addresses at the start of `flat` (dwords, or qwords with `a64`) are lane 0's plus
/// `l * stride` for a stride of 0 or more, with no wrap-around (32-bit offsets stay below
/// 4 GiB). One lane steps by anything: its stride is 0.
fn stepping(flat: &[u8], simd: usize, a64: bool, n: usize) -> Option<(u64, u64)> {
    // Of a fixed size each way: a copy of a variable length was a call to memcpy, and its
    // bytes read back at once a store-forwarding stall (7 % of a 64-bit CTS run's time).
    let lane = |l: usize| -> Option<u64> {
        Some(if a64 {
            u64::from_le_bytes(flat.get(8 * l..8 * l + 8)?.try_into().ok()?)
        } else {
            u64::from(u32::from_le_bytes(
                flat.get(4 * l..4 * l + 4)?.try_into().ok()?,
            ))
        })
    };
    let a0 = lane(0)?;
    if n == 1 {
        return Some((a0, 0));
    }
    let stride = lane(1)?.checked_sub(a0)?;
    let last = stride
        .checked_mul(n as u64 - 1)
        .and_then(|s| s.checked_add(a0))?;
    if !a64 && last > u64::from(u32::MAX) {
        return None;
    }
    // Every lane compared, no early exit: a loop of fixed length the compiler unrolls.
    let same = match (a64, simd, n == simd) {
        (true, 8, true) => lanes_off64::<8>(flat, a0, stride) == 0,
        (true, _, true) => lanes_off64::<16>(flat, a0, stride) == 0,
        // (a0 and stride fit in 32 bits: the last lane's address does.)
        (false, 8, true) => lanes_off32::<8>(flat, a0 as u32, stride as u32) == 0,
        (false, _, true) => lanes_off32::<16>(flat, a0 as u32, stride as u32) == 0,
        // A partial thread's first lanes (rarer): one lane at a time.
        _ => (2..n).all(|l| lane(l) == Some(a0.wrapping_add(l as u64 * stride))),
    };
    same.then_some((a0, stride))
}

/// The low `es` (1, 2 or 4) bytes of each lane's dword of `dwords`, packed into `buf`: a
/// loop per element size, so that each lane's copy is a move of its size (a variable-length
/// copy is a call to memcpy).
fn narrow_lanes(es: usize, dwords: &[u8], buf: &mut [u8]) {
    // Lanes zipped, not indexed: no bounds check a lane, and loops that vectorise.
    let (lanes, _) = dwords.as_chunks::<4>();
    match es {
        1 => buf.iter_mut().zip(lanes).for_each(|(b, d)| *b = d[0]),
        2 => {
            let (words, _) = buf.as_chunks_mut::<2>();
            words
                .iter_mut()
                .zip(lanes)
                .for_each(|(w, d)| *w = [d[0], d[1]]);
        }
        _ => buf.copy_from_slice(&dwords[..buf.len()]),
    }
}

/// The inverse of `narrow_lanes`: each lane's `es` bytes of `buf` zero-extended into its
/// dword of `dwords`.
fn widen_lanes(es: usize, buf: &[u8], dwords: &mut [u8]) {
    let (lanes, _) = dwords.as_chunks_mut::<4>();
    match es {
        1 => lanes
            .iter_mut()
            .zip(buf)
            .for_each(|(d, &b)| *d = u32::from(b).to_le_bytes()),
        2 => {
            let (words, _) = buf.as_chunks::<2>();
            lanes
                .iter_mut()
                .zip(words)
                .for_each(|(d, w)| *d = u32::from(u16::from_le_bytes(*w)).to_le_bytes());
        }
        _ => dwords[..buf.len()].copy_from_slice(buf),
    }
}

/// `simd` lanes' `chans` channel planes to lane-major dwords (`interleave`, in its
/// constant-length form for the shape).
fn planes_to_lanes(chans: usize, simd: usize, planes: &[[u8; 32]], buf: &mut [u8]) {
    match (chans, simd) {
        (1, _) => buf.copy_from_slice(&planes.as_flattened()[..simd * 4]),
        (2, 8) => interleave::<2, 8>(planes, buf),
        (2, _) => interleave::<2, 16>(planes, buf),
        (3, 8) => interleave::<3, 8>(planes, buf),
        (3, _) => interleave::<3, 16>(planes, buf),
        (_, 8) => interleave::<4, 8>(planes, buf),
        (_, _) => interleave::<4, 16>(planes, buf),
    }
}

/// The inverse of `planes_to_lanes`.
fn lanes_to_planes(chans: usize, simd: usize, buf: &[u8], planes: &mut [[u8; 32]]) {
    match (chans, simd) {
        (1, _) => planes.as_flattened_mut()[..simd * 4].copy_from_slice(buf),
        (2, 8) => deinterleave::<2, 8>(buf, planes),
        (2, _) => deinterleave::<2, 16>(buf, planes),
        (3, 8) => deinterleave::<3, 8>(buf, planes),
        (3, _) => deinterleave::<3, 16>(buf, planes),
        (_, 8) => deinterleave::<4, 8>(buf, planes),
        (_, _) => deinterleave::<4, 16>(buf, planes),
    }
}

/// Lane-major dwords (lane l's `C` components at `buf[4 C l..]`) of `N` lanes from `C`
/// channel planes of `N / 8` registers each (channel c of lane l: dword l of plane c).
/// Lengths are constants, so that the copies are unrolled.
fn interleave<const C: usize, const N: usize>(planes: &[[u8; 32]], buf: &mut [u8]) {
    let (planes, buf) = (&planes[..C * N / 8], &mut buf[..4 * C * N]);
    for c in 0..C {
        for l in 0..N {
            let d = &planes[c * N / 8 + l / 8][4 * (l % 8)..4 * (l % 8) + 4];
            buf[4 * (C * l + c)..4 * (C * l + c) + 4].copy_from_slice(d);
        }
    }
}

/// The inverse of `interleave`: lane-major dwords into `C` channel planes.
fn deinterleave<const C: usize, const N: usize>(buf: &[u8], planes: &mut [[u8; 32]]) {
    let (planes, buf) = (&mut planes[..C * N / 8], &buf[..4 * C * N]);
    for c in 0..C {
        for l in 0..N {
            let d = &buf[4 * (C * l + c)..4 * (C * l + c) + 4];
            planes[c * N / 8 + l / 8][4 * (l % 8)..4 * (l % 8) + 4].copy_from_slice(d);
        }
    }
}

impl Payload {
    /// Lane 0's address and the step between lanes when the message is for all `simd`
    /// lanes (`emask`) and lane l's address is lane 0's plus `l * stride` for a stride of 0
    /// or more, with no wrap-around (32-bit offsets stay below 4 GiB): the lanes of a
    /// work-item's element of an array.
    fn strided(&self, reg: usize, simd: usize, a64: bool, emask: u32) -> Option<(u64, u64)> {
        if emask & ((1u32 << simd) - 1) != (1u32 << simd) - 1 {
            return None;
        }
        stepping(self.regs.get(reg..)?.as_flattened(), simd, a64, simd)
    }
    /// Dword `lane` (0..7) of payload register `reg`.
    pub(crate) fn u32(&self, reg: usize, lane: usize) -> u32 {
        let r = &self.regs[reg % 32];
        let o = (lane % 8) * 4;
        u32::from_le_bytes([r[o], r[o + 1], r[o + 2], r[o + 3]])
    }
    /// Dword `lane` of a SIMD8/16 operand starting at payload register `reg`.
    pub(crate) fn lane_u32(&self, reg: usize, lane: usize) -> u32 {
        self.u32(reg + lane / 8, lane % 8)
    }
    /// `lane`'s address: 64-bit in an A64 address block (4 lanes per GRF),
    /// else a 32-bit offset (8 lanes per GRF).
    fn lane_addr(&self, reg: usize, lane: usize, a64: bool) -> u64 {
        if a64 {
            self.lane_u64(reg, lane)
        } else {
            u64::from(self.lane_u32(reg, lane))
        }
    }
    /// 64-bit address of `lane` in an A64 address block at `reg` (4 lanes per GRF).
    fn lane_u64(&self, reg: usize, lane: usize) -> u64 {
        let r = &self.regs[(reg + lane / 4) % 32];
        let o = (lane % 4) * 8;
        let mut b = [0u8; 8];
        b.copy_from_slice(&r[o..o + 8]);
        u64::from_le_bytes(b)
    }
}

/// The SLM decodes only the offset bits of a 64 KiB window: IGC tags valid local
/// pointers with a high nibble (VALID_LOCAL_HIGH_BITS, 0x10000000, so that the null
/// pointer stays distinct from offset 0) and sends the tagged value as the address.
fn slm_offset(off: u64) -> usize {
    (off & 0xFFFF) as usize
}

pub(crate) fn illegal(addr: u64, why: impl Into<String>) -> GpuError {
    GpuError::IllegalInstruction {
        addr,
        why: why.into(),
    }
}

impl Dataport<'_> {
    /// The data port of group `tg`, whose SLM is `slm` (zeroed, `tg.slm_bytes` long: a
    /// buffer the host thread reuses from group to group).
    pub fn new<'a>(
        mem: &'a dyn GpuMemory,
        tg: &'a ThreadGroup,
        general_state_base: u64,
        slm: Vec<u8>,
    ) -> Dataport<'a> {
        debug_assert_eq!(slm.len(), tg.slm_bytes as usize);
        Dataport {
            mem,
            tg,
            slm,
            general_state_base,
            watch: SlmWatch::default(),
            shared: None,
            woke: false,
            surfaces: Default::default(),
        }
    }

    /// The data port of one host thread's share of group `tg`, whose SLM and watch are
    /// `shared`'s (`eu::lanes`).
    pub fn sharing<'a>(
        mem: &'a dyn GpuMemory,
        tg: &'a ThreadGroup,
        general_state_base: u64,
        shared: &'a parking_lot::Mutex<SharedSlm>,
    ) -> Dataport<'a> {
        Dataport {
            mem,
            tg,
            slm: Vec::new(),
            general_state_base,
            watch: SlmWatch::default(),
            shared: Some(shared),
            woke: false,
            surfaces: Default::default(),
        }
    }

    /// `f` with the group's SLM and watch in `self.slm` and `self.watch`: a shared group's
    /// swapped in under their lock (three words each way) and back after.
    pub fn with_slm<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let Some(shared) = self.shared else {
            return f(self);
        };
        let mut g = shared.lock();
        std::mem::swap(&mut self.slm, &mut g.slm);
        std::mem::swap(&mut self.watch, &mut g.watch);
        let r = f(self);
        self.woke |= !self.watch.woken.is_empty();
        std::mem::swap(&mut self.slm, &mut g.slm);
        std::mem::swap(&mut self.watch, &mut g.watch);
        r
    }

    fn space(&self, addr: u64, bti: u32) -> Result<Space, GpuError> {
        Ok(match bti {
            BTI_SLM => Space::Slm,
            BTI_STATELESS | BTI_STATELESS_NON_COHERENT => Space::Mem {
                base: self.general_state_base,
                bound: None,
            },
            BTI_BINDLESS => return Err(illegal(addr, "bindless surfaces are not modelled")),
            b => {
                // A walker's binding table does not change while its groups run
                // (`binding::Bindings`): what an index named once, it names again.
                let slot = &self.surfaces[b as usize % SURFACES];
                if let Some((_, sp)) = slot.get().filter(|&(at, _)| at == b) {
                    return Ok(sp);
                }
                let sp = match self.tg.bindings.surface(self.mem, b, addr)? {
                    Some(s) => Space::Mem {
                        base: s.base,
                        bound: Some(s.size),
                    },
                    None => Space::Null,
                };
                slot.set(Some((b, sp)));
                sp
            }
        })
    }

    #[inline]
    fn read(&self, sp: Space, off: u64, out: &mut [u8]) -> Result<(), MemFault> {
        match sp {
            Space::Null => {
                out.fill(0);
                Ok(())
            }
            Space::Slm => {
                let o = slm_offset(off);
                match self.slm.get(o..o.saturating_add(out.len())) {
                    Some(s) if off < usize::MAX as u64 => out.copy_from_slice(s),
                    _ => out.fill(0),
                }
                Ok(())
            }
            Space::Mem { base, bound } => {
                let n = in_bounds(bound, off, out.len());
                out[n..].fill(0);
                if n == 0 {
                    return Ok(());
                }
                self.mem.read(base.wrapping_add(off), &mut out[..n])
            }
        }
    }

    #[inline]
    fn write(&mut self, sp: Space, off: u64, data: &[u8]) -> Result<(), MemFault> {
        match sp {
            Space::Null => Ok(()),
            Space::Slm => {
                self.slm_store(slm_offset(off), data);
                Ok(())
            }
            Space::Mem { base, bound } => {
                let n = in_bounds(bound, off, data.len());
                if n == 0 {
                    return Ok(());
                }
                self.mem.write(base.wrapping_add(off), &data[..n])
            }
        }
    }

    /// `data` to SLM at byte `o`, shown to the spin-wait watch; dropped where it reaches past
    /// the group's SLM.
    #[inline(always)]
    fn slm_store(&mut self, o: usize, data: &[u8]) {
        if let Some(s) = self.slm.get_mut(o..o.saturating_add(data.len())) {
            s.copy_from_slice(data);
            self.watch.written(o, data.len(), &self.slm);
        }
    }

    /// `size` bytes at each of `offs` in `sp`, in order, into consecutive slots of `out`:
    /// the lane accesses of one message, which memory takes together (`GpuMemory::read_each`;
    /// `offs` become addresses). If a lane is past a surface's bound, the message goes lane
    /// by lane (that lane reads zero, its neighbours are read).
    fn read_each(
        &self,
        sp: Space,
        offs: &mut [u64],
        size: usize,
        out: &mut [u8],
    ) -> Result<(), MemFault> {
        match sp {
            Space::Mem { base, bound } if !offs.iter().any(|&o| past(bound, o, size)) => {
                offs.iter_mut().for_each(|o| *o = base.wrapping_add(*o));
                self.mem.read_each(offs, size, out)
            }
            _ => {
                for (&off, o) in offs.iter().zip(out.chunks_exact_mut(size)) {
                    self.read(sp, off, o)?;
                }
                Ok(())
            }
        }
    }

    /// `size` bytes from consecutive slots of `data` to each of `offs` in `sp`, in order; as
    /// `read_each`, and a lane past a surface's bound drops its write.
    fn write_each(
        &mut self,
        sp: Space,
        offs: &mut [u64],
        size: usize,
        data: &[u8],
    ) -> Result<(), MemFault> {
        match sp {
            Space::Mem { base, bound } if !offs.iter().any(|&o| past(bound, o, size)) => {
                offs.iter_mut().for_each(|o| *o = base.wrapping_add(*o));
                self.mem.write_each(offs, size, data)
            }
            _ => {
                for (&off, d) in offs.iter().zip(data.chunks_exact(size)) {
                    self.write(sp, off, d)?;
                }
                Ok(())
            }
        }
    }

    /// Whether the data port reads message `m`'s payload or writes its reply: all but a
    /// fence do. A fence's reply is its destination's own contents, returned when it
    /// commits; the model's memory is coherent at every message, so a fence only takes its
    /// time. The EU sends a message that moves no register without copying any.
    pub fn moves_registers(m: &Message) -> bool {
        m.kind != MsgKind::MemoryFence
    }

    /// Carry out `req`: its reply (the registers it returns) goes to `reply`, whose
    /// registers hold the destination's old contents (lanes a message does not return keep
    /// them); `reply.written` says how many the message returned.
    #[inline]
    pub fn send(&mut self, req: &Request, reply: &mut Reply) -> Result<SendOutcome, GpuError> {
        reply.written = 0;
        // A fence moves no register (`moves_registers`): its reply register keeps what it
        // held, and the scoreboard holds it until the fence commits. Answered here, without
        // the call into the messages' dispatch (a seq_cst atomic comes with two fences).
        if !Self::moves_registers(req.message) {
            return Ok(SendOutcome::Continue {
                latency: LATENCY_FENCE,
            });
        }
        // Only SLM messages (binding-table index 254) reach the SLM and its watch.
        if self.shared.is_some() && req.message.bti.is_some_and(|b| u32::from(b) == BTI_SLM) {
            return self.with_slm(|dp| dp.message(req, reply));
        }
        self.message(req, reply)
    }

    /// `send` for a message of an `InPlaceForm` whose enabled lanes are its first ones
    /// (all of them, or those of a work-group's last, partial thread) and whose lanes'
    /// addresses step by a constant within a buffer (the work-items' elements of an
    /// array, most of the CTS's integer and conversion kernels), taken where its
    /// registers are: the payload read from the sender's registers `grf` and the reply
    /// written to its destination registers (its disabled lanes' dwords left as they
    /// were), without the copies into a message and out of a reply. What it does is
    /// `untyped`'s or `scattered`'s, so memory, the registers and the latency are as `send`
    /// leaves them; `None` when the message's lanes are not of that form, for `send`.
    pub fn send_form(
        &mut self,
        addr: u64,
        f: &InPlaceForm,
        grf: &mut [u8],
        emask: u32,
    ) -> Result<Option<SendOutcome>, GpuError> {
        let simd = usize::from(f.simd);
        let on = emask & ((1u32 << simd) - 1);
        if on == 0 || on & (on + 1) != 0 {
            return Ok(None);
        }
        let n = on.count_ones() as usize;
        let Space::Mem { base, bound } = self.bti_space(addr, f.bti)? else {
            return Ok(None);
        };
        let ao = usize::from(f.addrs);
        let Some((a0, stride)) = stepping(&grf[ao..], simd, f.a64, n) else {
            return Ok(None);
        };
        // The lanes' addresses grow: the last lane's access bounds them all.
        let size = if f.scattered {
            usize::from(f.width)
        } else {
            4 * usize::from(f.width)
        };
        if past(bound, a0 + (n as u64 - 1) * stride, size) {
            return Ok(None);
        }
        let at = base.wrapping_add(a0);
        let d = usize::from(f.data);
        if f.scattered {
            let es = size;
            let mut buf = [0u8; 16 * 4];
            let buf = &mut buf[..n * es];
            let dwords = &mut grf[d..d + 4 * simd];
            if f.write {
                narrow_lanes(es, dwords, buf);
                self.mem.write_strided(at, stride, es, buf)?;
            } else {
                self.mem.read_strided(at, stride, es, buf)?;
                widen_lanes(es, buf, dwords);
            }
        } else {
            let chans = usize::from(f.width);
            let mut buf = [0u8; 16 * 16];
            let buf = &mut buf[..simd * size];
            let (planes, _) = grf[d..d + 4 * simd * chans].as_chunks_mut::<32>();
            if f.write {
                planes_to_lanes(chans, simd, planes, buf);
                self.mem.write_strided(at, stride, size, &buf[..n * size])?;
            } else {
                if n < simd {
                    // The disabled lanes' channels keep what the registers held.
                    planes_to_lanes(chans, simd, planes, buf);
                }
                self.mem
                    .read_strided(at, stride, size, &mut buf[..n * size])?;
                lanes_to_planes(chans, simd, buf, planes);
            }
        }
        Ok(Some(latency(Space::Mem { base, bound })))
    }

    /// `send` for every message but a fence.
    fn message(&mut self, req: &Request, reply: &mut Reply) -> Result<SendOutcome, GpuError> {
        let (m, msg, emask, desc, addr) = (req.message, req.payload, req.emask, req.desc, req.addr);
        let resp = reply;
        self.watch.in_message.clear();
        let out = match (m.sfid, m.kind) {
            // The gateway and the thread spawner are units of their own (`gpu::gateway`,
            // and end of thread in the EU); the EU routes their messages there.
            (Sfid::ThreadSpawner | Sfid::Gateway, _) => {
                return Err(illegal(
                    addr,
                    "a gateway or spawner message sent to the data port",
                ))
            }
            (Sfid::Null, _) => SendOutcome::Continue { latency: 0 },
            (_, MsgKind::ScratchBlockRead | MsgKind::ScratchBlockWrite) => {
                self.scratch(addr, m, msg, req.thread, resp)?
            }
            (_, MsgKind::OwordBlockRead | MsgKind::UnalignedOwordBlockRead)
            | (_, MsgKind::OwordBlockWrite | MsgKind::A64BlockRead | MsgKind::A64BlockWrite) => {
                self.block(addr, m, msg, resp)?
            }
            (
                _,
                MsgKind::ByteScatteredRead
                | MsgKind::ByteScatteredWrite
                | MsgKind::DwordScatteredRead
                | MsgKind::DwordScatteredWrite,
            ) => self.scattered(addr, m, msg, emask, resp)?,
            (
                _,
                MsgKind::UntypedRead
                | MsgKind::UntypedWrite
                | MsgKind::A64UntypedRead
                | MsgKind::A64UntypedWrite,
            ) => self.untyped(addr, m, msg, emask, resp)?,
            (_, MsgKind::A64ScatteredRead | MsgKind::A64ScatteredWrite) => {
                self.a64_scattered(addr, m, msg, emask, resp)?
            }
            (Sfid::Sampler, _) => {
                crate::gpu::sampler::Sampler::new(self.mem, self.tg).message(req, resp)?
            }
            (_, MsgKind::TypedRead | MsgKind::TypedWrite) => {
                self.typed(addr, m, msg, emask, resp)?
            }
            (_, MsgKind::MediaBlockRead | MsgKind::MediaBlockWrite) => {
                self.media_block(addr, m, msg, resp)?
            }
            (
                _,
                MsgKind::UntypedAtomic
                | MsgKind::UntypedAtomicFloat
                | MsgKind::A64UntypedAtomic
                | MsgKind::A64UntypedAtomicFloat,
            ) => self.atomic(addr, m, msg, emask, req.thread, resp)?,
            (s, k) => {
                return Err(illegal(
                    addr,
                    format!("{k:?} message ({s:?}, descriptor {desc:#010x}) is not modelled"),
                ))
            }
        };
        Ok(out)
    }

    /// The space a message's addresses are in: its binding-table index, or
    /// flat 64-bit addresses (A64 messages).
    fn message_space(&self, addr: u64, m: &Message) -> Result<Space, GpuError> {
        self.bti_space(addr, m.bti)
    }

    /// Where a message with binding-table index `bti` (none: stateless A64) points.
    fn bti_space(&self, addr: u64, bti: Option<u8>) -> Result<Space, GpuError> {
        match bti {
            Some(b) => self.space(addr, u32::from(b)),
            None => Ok(Space::Mem {
                base: 0,
                bound: None,
            }),
        }
    }

    /// OWord block read/write (DC0: offset in OWords, or in bytes when
    /// unaligned, in header dword 2; A64: the address in header dwords 0-1).
    fn block(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let bytes = m.data_size as usize;
        if bytes == 0 {
            return Err(illegal(addr, "OWord block size"));
        }
        let sp = self.message_space(addr, m)?;
        let off = match m.kind {
            MsgKind::A64BlockRead | MsgKind::A64BlockWrite => msg.lane_u64(0, 0),
            MsgKind::UnalignedOwordBlockRead => msg.u32(0, 2) as u64,
            _ => msg.u32(0, 2) as u64 * 16,
        };
        let s = if m.high_half { 16 } else { 0 };
        let mut buf = vec![0u8; bytes];
        if matches!(m.kind, MsgKind::OwordBlockWrite | MsgKind::A64BlockWrite) {
            for (k, c) in buf.chunks_mut(32).enumerate() {
                c.copy_from_slice(&msg.regs[(1 + k) % 32][s..s + c.len()]);
            }
            self.write(sp, off, &buf)?;
        } else {
            self.read(sp, off, &mut buf)?;
            for (k, c) in buf.chunks(32).enumerate() {
                resp.regs[k][s..s + c.len()].copy_from_slice(c);
            }
            resp.written = bytes.div_ceil(32);
        }
        Ok(latency(sp))
    }

    /// Byte scattered (an element of 1, 2 or 4 bytes in a dword slot per
    /// lane) and dword scattered read/write.
    fn scattered(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        emask: u32,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let es = m.data_size as usize;
        if es == 0 {
            return Err(illegal(addr, "byte scattered data size"));
        }
        let sp = self.message_space(addr, m)?;
        let write = matches!(
            m.kind,
            MsgKind::ByteScatteredWrite | MsgKind::DwordScatteredWrite
        );
        let simd = m.simd as usize;
        let areg = m.header as usize;
        let dreg = areg + simd / 8;
        if !matches!(sp, Space::Mem { .. }) {
            // Shared local memory (or a null surface): no lookups or locks to share.
            for lane in (0..simd).filter(|l| emask & (1 << l) != 0) {
                let off = u64::from(msg.lane_u32(areg, lane));
                if write {
                    let v = msg.lane_u32(dreg, lane).to_le_bytes();
                    self.write(sp, off, &v[..es])?;
                } else {
                    let mut v = [0u8; 4];
                    self.read(sp, off, &mut v[..es])?;
                    resp.set_lane_u32(0, lane, u32::from_le_bytes(v));
                }
            }
            if !write {
                resp.written = simd / 8;
            }
            return Ok(latency(sp));
        }
        let mut lanes = Lanes::<16>::new();
        for lane in (0..simd).filter(|l| emask & (1 << l) != 0) {
            lanes.push(lane, u64::from(msg.lane_u32(areg, lane)));
        }
        let mut buf = [0u8; 16 * 4];
        let buf = &mut buf[..lanes.n * es];
        let (offs, slots) = lanes.split();
        if write {
            for (k, &lane) in slots.iter().enumerate() {
                let v = msg.lane_u32(dreg, usize::from(lane)).to_le_bytes();
                copy_lane(&mut buf[k * es..(k + 1) * es], &v);
            }
            self.write_each(sp, offs, es, buf)?;
        } else {
            self.read_each(sp, offs, es, buf)?;
            for (b, &lane) in buf.chunks_exact(es).zip(slots) {
                resp.set_lane_u32(0, usize::from(lane), lane_zext(b));
            }
            resp.written = simd / 8;
        }
        Ok(latency(sp))
    }

    fn scratch(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        thread: u32,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let write = m.kind == MsgKind::ScratchBlockWrite;
        let nregs = m.data_size as usize / 32;
        let off = u64::from(m.scratch_offset) * 32;
        let per = self.tg.scratch_per_thread as u64;
        if per == 0 || off + nregs as u64 * 32 > per {
            return Err(illegal(
                addr,
                "scratch access outside the thread's scratch space",
            ));
        }
        let base = self.tg.scratch_base + u64::from(thread) * per + off;
        if write {
            let mut buf = vec![0u8; nregs * 32];
            for k in 0..nregs {
                buf[k * 32..k * 32 + 32].copy_from_slice(&msg.regs[(1 + k) % 32]);
            }
            self.mem.write(base, &buf)?;
        } else {
            let mut buf = vec![0u8; nregs * 32];
            self.mem.read(base, &mut buf)?;
            for k in 0..nregs {
                resp.regs[k].copy_from_slice(&buf[k * 32..k * 32 + 32]);
            }
            resp.written = nregs;
        }
        Ok(SendOutcome::Continue {
            latency: LATENCY_MEMORY,
        })
    }

    /// Untyped surface read/write (BTI, SLM, stateless) and A64 untyped
    /// surface read/write: up to four dword components per lane.
    fn untyped(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        emask: u32,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let simd = match m.simd {
            8 | 16 => m.simd as usize,
            _ => return Err(illegal(addr, "SIMD4x2 surface messages are not modelled")),
        };
        let a64 = m.bti.is_none();
        let write = matches!(m.kind, MsgKind::UntypedWrite | MsgKind::A64UntypedWrite);
        let chans = m.channel_mask.count_ones() as usize;
        if chans == 0 {
            // Every channel masked off: the message moves nothing, which the PRM does not
            // allow ("at least one channel must be enabled"); a kernel's error, not a panic.
            return Err(illegal(
                addr,
                "an untyped message with every channel masked off",
            ));
        }
        let sp = self.message_space(addr, m)?;
        let areg = m.header as usize;
        let aregs = if a64 { simd / 4 } else { simd / 8 };
        let dreg = areg + aregs;
        let per = simd / 8;
        // Enabled components are packed in the payload and reply but keep their own offset
        // (x +0, y +4, z +8, w +12: "xz" reads dwords 0 and 2). When they are x, xy, xyz or
        // xyzw, a lane's components are one access of 4 bytes each to memory; otherwise, and
        // if a lane's components reach past a surface's bound (the dwords before it are
        // read), each component is an access of its own.
        if !matches!(sp, Space::Mem { .. }) {
            // Shared local memory (or a null surface): no lookups or locks to share.
            for lane in (0..simd).filter(|l| emask & (1 << l) != 0) {
                let a = msg.lane_addr(areg, lane, a64);
                if matches!(sp, Space::Slm) && self.slm_lane(a, m, msg, [dreg, lane], resp) {
                    continue;
                }
                let comps = (0..4u64).filter(|k| m.channel_mask & (1 << k) != 0);
                for (c, k) in comps.enumerate() {
                    let ea = a.wrapping_add(4 * k);
                    if write {
                        let v = msg.lane_u32(dreg + c * per, lane);
                        self.write(sp, ea, &v.to_le_bytes())?;
                    } else {
                        let mut v = [0u8; 4];
                        self.read(sp, ea, &mut v)?;
                        resp.set_lane_u32(c * per, lane, u32::from_le_bytes(v));
                    }
                }
            }
            if !write {
                resp.written = chans * per;
            }
            return Ok(latency(sp));
        }
        let prefix = m.channel_mask & (m.channel_mask + 1) == 0;
        if let (true, Space::Mem { base, bound }) = (prefix, sp) {
            if let Some((a0, stride)) = msg.strided(areg, simd, a64, emask) {
                // The lanes' addresses grow: the last lane's access bounds them all.
                let last = a0 + (simd as u64 - 1) * stride;
                if !past(bound, last, 4 * chans) {
                    let at = base.wrapping_add(a0);
                    self.untyped_strided(at, stride, msg, m, dreg, chans, resp)?;
                    return Ok(latency(sp));
                }
            }
        }
        let wide = prefix
            && !(0..simd).any(|l| {
                emask & (1 << l) != 0
                    && matches!(sp, Space::Mem { bound: Some(b), .. }
                        if past(Some(b), msg.lane_addr(areg, l, a64), 4 * chans))
            });
        if wide {
            return self.untyped_wide(sp, msg, m, emask, [areg, dreg], chans, resp);
        }
        // Each component an access of its own.
        let mut lanes = Lanes::<64>::new();
        for lane in (0..simd).filter(|l| emask & (1 << l) != 0) {
            let a = msg.lane_addr(areg, lane, a64);
            let comps = (0..4u64).filter(|k| m.channel_mask & (1 << k) != 0);
            for (c, k) in comps.enumerate() {
                lanes.push(c * 16 + lane, a.wrapping_add(4 * k));
            }
        }
        let size = 4;
        // An access's slot: its first component (packed) and lane; it holds size / 4 of them.
        let slot = |s: u8| (usize::from(s) / 16, usize::from(s) % 16);
        let mut buf = [0u8; 64 * 4];
        let buf = &mut buf[..lanes.n * size];
        let (offs, slots) = lanes.split();
        if write {
            for (b, &s) in buf.chunks_exact_mut(size).zip(slots) {
                let (c0, lane) = slot(s);
                for (c, d) in (c0..).zip(b.chunks_exact_mut(4)) {
                    d.copy_from_slice(&msg.lane_u32(dreg + c * per, lane).to_le_bytes());
                }
            }
            self.write_each(sp, offs, size, buf)?;
        } else {
            self.read_each(sp, offs, size, buf)?;
            for (b, &s) in buf.chunks_exact(size).zip(slots) {
                let (c0, lane) = slot(s);
                for (c, d) in (c0..).zip(b.chunks_exact(4)) {
                    let v = u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
                    resp.set_lane_u32(c * per, lane, v);
                }
            }
            resp.written = chans * per;
        }
        Ok(latency(sp))
    }

    /// Lane `lane`'s components of an untyped SLM message (`[dreg, lane]`: its data's first
    /// payload register) at SLM address `a`, when its components are x, xy, xyz or xyzw and
    /// all within SLM: its dwords read or written in place (in component order, each
    /// write seen by the spin-wait watch as the component's own). `false` when they are
    /// not, for the component-by-component accesses.
    fn slm_lane(
        &mut self,
        a: u64,
        m: &Message,
        msg: &Payload,
        [dreg, lane]: [usize; 2],
        resp: &mut Reply,
    ) -> bool {
        let mask = m.channel_mask;
        let chans = mask.count_ones() as usize;
        let o = slm_offset(a);
        if mask & (mask + 1) != 0 || o + 4 * chans > self.slm.len() {
            return false;
        }
        let per = m.simd as usize / 8;
        if matches!(m.kind, MsgKind::UntypedWrite | MsgKind::A64UntypedWrite) {
            for c in 0..chans {
                let v = msg.lane_u32(dreg + c * per, lane);
                self.slm_store(o + 4 * c, &v.to_le_bytes());
            }
        } else {
            for c in 0..chans {
                resp.set_lane_u32(c * per, lane, slm_dword(&self.slm, o + 4 * c));
            }
        }
        true
    }

    /// An untyped message of every lane whose lanes' addresses step by `stride` from
    /// `addr` (lane l's components at `addr + l * stride`: a work-item's dword, or its
    /// `int4`, of an array indexed by the global id), within bounds: one strided access
    /// (`GpuMemory::read_strided`: one page lookup where the lanes share a page, one copy
    /// where they are one run), the dwords moved between lane-major order and the channel
    /// planes. Memory sees what the lanes in order would do, and a fault is the first
    /// unmapped page's, as theirs.
    #[allow(clippy::too_many_arguments)]
    fn untyped_strided(
        &mut self,
        addr: u64,
        stride: u64,
        msg: &Payload,
        m: &Message,
        dreg: usize,
        chans: usize,
        resp: &mut Reply,
    ) -> Result<(), GpuError> {
        let simd = m.simd as usize;
        let per = simd / 8;
        let size = 4 * chans;
        let mut buf = [0u8; 16 * 16];
        let buf = &mut buf[..simd * size];
        if matches!(m.kind, MsgKind::UntypedWrite | MsgKind::A64UntypedWrite) {
            planes_to_lanes(chans, simd, &msg.regs[dreg..dreg + chans * per], buf);
            self.mem.write_strided(addr, stride, size, buf)?;
        } else {
            self.mem.read_strided(addr, stride, size, buf)?;
            lanes_to_planes(chans, simd, buf, &mut resp.regs[..chans * per]);
            resp.written = chans * per;
        }
        Ok(())
    }

    /// An untyped message whose channels are x, xy, xyz or xyzw, every enabled lane's
    /// components within bounds: one access of `4 * chans` bytes a lane, the lanes in order
    /// (`read_each`/`write_each`), its dwords moved straight between the channel planes of
    /// the payload or reply and the lane's slot. (The CTS's integer kernels are mostly
    /// these: the general form's per-dword slot bookkeeping was a third of a send.)
    #[allow(clippy::too_many_arguments)]
    fn untyped_wide(
        &mut self,
        sp: Space,
        msg: &Payload,
        m: &Message,
        emask: u32,
        [areg, dreg]: [usize; 2],
        chans: usize,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let simd = m.simd as usize;
        let a64 = m.bti.is_none();
        let per = simd / 8;
        let write = matches!(m.kind, MsgKind::UntypedWrite | MsgKind::A64UntypedWrite);
        let (mut offs, mut which, mut n) = ([0u64; 16], [0u8; 16], 0);
        let mut e = emask & ((1u32 << simd) - 1);
        while e != 0 {
            let lane = e.trailing_zeros() as usize;
            e &= e - 1;
            offs[n] = msg.lane_addr(areg, lane, a64);
            which[n] = lane as u8;
            n += 1;
        }
        let size = 4 * chans;
        let mut buf = [0u8; 16 * 16];
        let buf = &mut buf[..n * size];
        // Channel c of lane l: dword l of the plane of `per` registers at `reg + c * per`
        // (within the 32 registers: a header, at most four address and eight data ones).
        let at = |reg: usize, c: usize, lane: u8| 32 * (reg + c * per) + 4 * usize::from(lane);
        if write {
            let flat = msg.regs.as_flattened();
            for (slot, &lane) in buf.chunks_exact_mut(size).zip(&which[..n]) {
                for (c, d) in slot.chunks_exact_mut(4).enumerate() {
                    let o = at(dreg, c, lane);
                    d.copy_from_slice(&flat[o..o + 4]);
                }
            }
            self.write_each(sp, &mut offs[..n], size, buf)?;
        } else {
            self.read_each(sp, &mut offs[..n], size, buf)?;
            let flat = resp.regs.as_flattened_mut();
            for (slot, &lane) in buf.chunks_exact(size).zip(&which[..n]) {
                for (c, d) in slot.chunks_exact(4).enumerate() {
                    let o = at(0, c, lane);
                    flat[o..o + 4].copy_from_slice(d);
                }
            }
            resp.written = chans * per;
        }
        Ok(latency(sp))
    }

    /// A64 scattered read/write: per lane, `elements` elements of
    /// `data_size` bytes (a byte element sits in a dword slot).
    fn a64_scattered(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        emask: u32,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let write = m.kind == MsgKind::A64ScatteredWrite;
        let simd = m.simd as usize;
        let (es, count) = (m.data_size as usize, m.elements as usize);
        if es == 0 {
            return Err(illegal(addr, "A64 scattered subtype/size is not modelled"));
        }
        let slot_bytes = es.max(4);
        let areg = m.header as usize;
        let dreg = areg + simd / 4;
        let regs_per_elem = simd * slot_bytes / 32;
        // A lane's elements follow each other in memory: one access of count x es bytes.
        let size = es * count;
        let mut lanes = Lanes::<16>::new();
        for lane in (0..simd).filter(|l| emask & (1 << l) != 0) {
            lanes.push(lane, msg.lane_u64(areg, lane));
        }
        let flat = Space::Mem {
            base: 0,
            bound: None,
        };
        let mut buf = [0u8; 16 * 64];
        let buf = &mut buf[..lanes.n * size];
        let (offs, slots) = lanes.split();
        if write {
            for (b, &lane) in buf.chunks_exact_mut(size).zip(slots) {
                for (j, e) in b.chunks_exact_mut(es).enumerate() {
                    let v = msg_value(msg, dreg + j * regs_per_elem, usize::from(lane), slot_bytes);
                    copy_lane(e, &v.to_le_bytes()[..es]);
                }
            }
            self.write_each(flat, offs, size, buf)?;
        } else {
            self.read_each(flat, offs, size, buf)?;
            for (b, &lane) in buf.chunks_exact(size).zip(slots) {
                for (j, e) in b.chunks_exact(es).enumerate() {
                    // Zero-extended by value, not by a narrow copy read back wide (a stall).
                    let v: u64 = match es {
                        1 => u64::from(e[0]),
                        2 => u64::from(u16::from_le_bytes([e[0], e[1]])),
                        4 => u64::from(u32::from_le_bytes([e[0], e[1], e[2], e[3]])),
                        _ => u64::from_le_bytes(e[..8].try_into().unwrap_or_default()),
                    };
                    resp.set_slot(
                        j * regs_per_elem,
                        usize::from(lane),
                        slot_bytes,
                        &v.to_le_bytes()[..slot_bytes],
                    );
                }
            }
            resp.written = count * regs_per_elem;
        }
        Ok(SendOutcome::Continue {
            latency: LATENCY_MEMORY,
        })
    }

    /// Untyped atomics (BTI or SLM, integer and float) and A64 atomics.
    fn atomic(
        &mut self,
        addr: u64,
        m: &Message,
        msg: &Payload,
        emask: u32,
        thread: u32,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let op = m
            .atomic
            .ok_or_else(|| illegal(addr, "float atomic operation"))?;
        let a64 = m.bti.is_none();
        let (simd, wide) = (m.simd as usize, m.data64);
        let sp = self.message_space(addr, m)?;
        let areg = m.header as usize;
        let aregs = if a64 { simd / 4 } else { simd / 8 };
        let dregs = if wide { simd / 4 } else { simd / 8 };
        let s0 = areg + aregs;
        let s1 = s0 + dregs;
        let es = if wide { 8 } else { 4 };
        let needs_src1 = matches!(op, AtomicOp::Cmpwr | AtomicOp::Fcmpwr);
        let needs_src0 = !matches!(op, AtomicOp::Inc | AtomicOp::Dec | AtomicOp::Predec);
        if needs_src1 && s1 + dregs > msg.len || needs_src0 && s0 + dregs > msg.len {
            return Err(illegal(addr, "atomic payload shorter than its operands"));
        }
        let lanes_of = AtomicLanes {
            op,
            wide,
            a64,
            areg,
            s0,
            s1: needs_src1.then_some(s1),
        };
        let on = (&lanes_of, m, msg, active_lanes(emask, simd));
        match sp {
            Space::Slm => return self.atomic_in_slm(addr, on, thread, resp),
            Space::Mem { base, bound } => {
                if let Some(out) = self.atomic_in_memory(addr, on, (base, bound), resp)? {
                    return Ok(out);
                }
            }
            Space::Null => {}
        }
        // Lane by lane: graphics memory with a lane past its surface's bound (it reads zero
        // and its write is dropped, its neighbours are served), or a null surface.
        // The lock held, kept from lane to lane while they are on lines it guards (a
        // contended counter: every lane on one word); one at a time, so no order to keep.
        let mut held: Option<(usize, parking_lot::MutexGuard<'static, ()>)> = None;
        let mut left = on.3;
        while left != 0 {
            let lane = left.trailing_zeros() as usize;
            left &= left - 1;
            let at = msg.lane_addr(areg, lane, a64);
            let (x, y) = lanes_of.operands(msg, lane);
            // Other groups run on other host threads: the read-modify-write of global
            // memory is indivisible, as the L3's atomic units make it.
            let i = atomic_lock_index(at);
            if held.as_ref().is_none_or(|(j, _)| *j != i) {
                // The old lock goes before the new one is taken.
                drop(held.take());
                held = Some((i, ATOMIC_LOCKS[i].0.lock()));
            }
            // Read at its own size, for the same reason as `msg_value`.
            let old = if wide {
                let mut cur = [0u8; 8];
                self.read(sp, at, &mut cur)?;
                u64::from_le_bytes(cur)
            } else {
                let mut cur = [0u8; 4];
                self.read(sp, at, &mut cur)?;
                u64::from(u32::from_le_bytes(cur))
            };
            let new = atomic_result(op, old, x, y, wide)
                .ok_or_else(|| illegal(addr, format!("atomic operation {op:?}")))?;
            if let Some(nv) = new {
                self.write(sp, at, &nv.to_le_bytes()[..es])?;
            }
            if m.returns {
                let r = returned(op, old, new);
                resp.set_slot(0, lane, es, &r.to_le_bytes()[..es]);
            }
        }
        if m.returns {
            resp.written = dregs;
        }
        Ok(latency(sp))
    }

    /// What the spin-wait watch keeps of `thread`'s SLM atomic message: on which dword its
    /// compare-exchange failed in every lane, and the value compared with (`None`: it did
    /// not, or not on one dword).
    fn note_failed(&mut self, thread: u32, failed_on: Option<Option<(usize, Option<u32>)>>) {
        let t = thread as usize;
        if self.watch.failed.len() <= t {
            self.watch.failed.resize(t + 1, None);
        }
        let writes = self.watch.writes;
        self.watch.failed[t] = failed_on.flatten().map(|(dword, expected)| Failed {
            dword,
            writes,
            expected,
        });
    }

    /// An atomic message on SLM: its lanes' read-modify-writes in lane order, for the
    /// message's operation and width chosen once (the lock of a 64-bit local atomic, and
    /// local counters, take it at every turn). `addr` is the send's, for the error of an
    /// operation the model does not execute.
    fn atomic_in_slm(
        &mut self,
        addr: u64,
        on: AtomicMessage,
        thread: u32,
        resp: &mut Reply,
    ) -> Result<SendOutcome, GpuError> {
        let (at, wide) = (on.0, on.0.wide);
        with_lane_fn!(at.op, wide, ES, f => Ok(self.slm_lanes::<ES>(on, thread, resp, f)),
            Err(illegal(addr, format!("atomic operation {:?}", at.op))))
    }

    /// `atomic_in_slm` for one operation and width (`ES` bytes a lane), `op` its lane
    /// function: lanes on the word of the lane before take its value from it, and the word
    /// is written once when the lanes move on (the group's SLM is this thread's alone for
    /// the message). A lane reaching past the group's SLM reads zero and its write is
    /// dropped; it leaves the word carried as it is.
    #[inline(always)]
    fn slm_lanes<const ES: usize>(
        &mut self,
        (at, m, msg, lanes): AtomicMessage,
        thread: u32,
        resp: &mut Reply,
        op: impl Fn(u64, u64, u64) -> Option<Option<u64>>,
    ) -> SendOutcome {
        let mut failed_on: Option<Option<(usize, Option<u32>)>> = None;
        // The word of the lane before: its address, SLM offset, value, and whether that is
        // still to be written.
        let mut carried: Option<(u64, usize, u64, bool)> = None;
        let mut left = lanes;
        while left != 0 {
            let lane = left.trailing_zeros() as usize;
            left &= left - 1;
            let addr = msg.lane_addr(at.areg, lane, at.a64);
            let o = slm_offset(addr);
            let x = msg_value(msg, at.s0, lane, ES);
            let y = at.s1.map_or(0, |r| msg_value(msg, r, lane, ES));
            let inside = o + ES <= self.slm.len();
            let (old, dirty) = match carried {
                Some((a, _, v, d)) if a == addr => (v, d),
                _ if !inside => (0, false),
                before => {
                    if let Some((_, bo, v, true)) = before {
                        self.slm_store(bo, &v.to_le_bytes()[..ES]);
                    }
                    let mut b = [0u8; 8];
                    b[..ES].copy_from_slice(&self.slm[o..o + ES]);
                    (u64::from_le_bytes(b), false)
                }
            };
            let new = op(old, x, y).flatten();
            if inside {
                carried = Some((addr, o, new.unwrap_or(old), dirty || new.is_some()));
            }
            if at.op == AtomicOp::Cmpwr {
                let cmp = (ES == 4).then_some(x as u32);
                failed_on = failed_lane(failed_on, o, new.is_none(), cmp);
            }
            if m.returns {
                resp.set_value::<ES>(lane, returned(at.op, old, new));
            }
        }
        if let Some((_, o, v, true)) = carried {
            self.slm_store(o, &v.to_le_bytes()[..ES]);
        }
        if m.returns {
            resp.written = m.simd as usize * ES / 32;
        }
        self.note_failed(thread, failed_on);
        latency(Space::Slm)
    }

    /// An atomic message on graphics memory whose lanes are all within its surface: the
    /// lanes' read-modify-writes in lane order through `GpuMemory::update_each` (one page
    /// lookup per page they share), under the locks of every line they touch, taken in
    /// ascending order (other host threads' messages take theirs in the same order, or one at
    /// a time). `None` when a lane reaches past the surface's bound (`atomic`'s lane-by-lane
    /// path reads zero there and drops the write).
    fn atomic_in_memory(
        &mut self,
        addr: u64,
        on: AtomicMessage,
        surface: (u64, Option<u64>),
        resp: &mut Reply,
    ) -> Result<Option<SendOutcome>, GpuError> {
        let at = on.0;
        with_lane_fn!(at.op, at.wide, ES, f => self.atomic_lanes::<ES>(on, surface, resp, f),
            Err(illegal(addr, format!("atomic operation {:?}", at.op))))
    }

    /// `atomic_in_memory` for one operation and width (`ES` bytes a lane), `op` its lane
    /// function. Whatever needs no lock is done outside the lines' locks (addresses,
    /// operands, the reply), so that the held part is the lanes' reads, new values and
    /// writes alone: the host threads' messages on one contended word wait for each other
    /// only that long.
    #[inline(always)]
    fn atomic_lanes<const ES: usize>(
        &mut self,
        (at, m, msg, mut left): AtomicMessage,
        (base, bound): (u64, Option<u64>),
        resp: &mut Reply,
        op: impl Fn(u64, u64, u64) -> Option<Option<u64>>,
    ) -> Result<Option<SendOutcome>, GpuError> {
        let simd = m.simd as usize;
        let dregs = simd * ES / 32;
        let mut lanes = Lanes::<16>::new();
        // Each access's operands, and the old value it read.
        let (mut xs, mut ys, mut olds) = ([0u64; 16], [0u64; 16], [0u64; 16]);
        let mut locks = 0u64;
        while left != 0 {
            let lane = left.trailing_zeros() as usize;
            left &= left - 1;
            let off = msg.lane_addr(at.areg, lane, at.a64);
            if past(bound, off, ES) {
                return Ok(None);
            }
            let addr = base.wrapping_add(off);
            locks |= 1 << atomic_lock_index(addr);
            let k = lanes.n;
            xs[k] = msg_value(msg, at.s0, lane, ES);
            if let Some(r) = at.s1 {
                ys[k] = msg_value(msg, r, lane, ES);
            }
            lanes.push(lane, addr);
        }
        let (addrs, slots) = lanes.split();
        with_line_locks(locks, || {
            self.mem.update_each(addrs, ES, &mut |k, old| {
                olds[k] = old;
                op(old, xs[k], ys[k]).flatten()
            })
        })?;
        if m.returns {
            for (k, &lane) in slots.iter().enumerate() {
                let old = olds[k];
                let r = match at.op {
                    AtomicOp::Predec => returned(at.op, old, op(old, xs[k], ys[k]).flatten()),
                    _ => old,
                };
                resp.set_value::<ES>(usize::from(lane), r);
            }
            resp.written = dregs;
        }
        Ok(Some(latency(Space::Mem { base, bound })))
    }
}

/// The accesses of one message that go to memory, in lane order (at most `N`: a lane each,
/// or 16 lanes x 4 components of an untyped message whose components go one by one): each
/// one's offset or address, and its slot (what it reads or writes in the message's terms: a
/// lane, or a component and a lane).
struct Lanes<const N: usize> {
    offs: [u64; N],
    slots: [u8; N],
    n: usize,
}

impl<const N: usize> Lanes<N> {
    fn new() -> Self {
        Lanes {
            offs: [0; N],
            slots: [0; N],
            n: 0,
        }
    }
    fn push(&mut self, slot: usize, off: u64) {
        self.offs[self.n] = off;
        self.slots[self.n] = slot as u8;
        self.n += 1;
    }
    /// The offsets, and the slots beside them.
    fn split(&mut self) -> (&mut [u64], &[u8]) {
        (&mut self.offs[..self.n], &self.slots[..self.n])
    }
}

/// How many bytes of an access of `len` at `off` a surface of `bound` bytes serves: all of
/// it within the bound; of one that crosses it, the whole dwords below the bound (a buffer
/// surface's bounds check is per dword: reads past it return zero, writes past it are
/// dropped, and the dwords before it are read and written as usual — IGC's block reads of a
/// small `__constant` table rely on that); none of an access of under a dword that crosses.
fn in_bounds(bound: Option<u64>, off: u64, len: usize) -> usize {
    match bound {
        None => len,
        Some(b) if off.checked_add(len as u64).is_some_and(|e| e <= b) => len,
        Some(b) if off >= b => 0,
        Some(b) => ((b - off) as usize).min(len) / 4 * 4,
    }
}

/// Whether `size` bytes at `off` reach past a surface's `bound` (read zero, write dropped).
fn past(bound: Option<u64>, off: u64, size: usize) -> bool {
    in_bounds(bound, off, size) != size
}

/// The locks that make global atomics indivisible across host threads: one of 64 for each
/// 64-byte line (two lanes on one line serialise, as they do in the L3), each on a host
/// cache line of its own (packed, the 64 one-byte locks shared one line, which every atomic
/// of either host thread then took from the other).
#[repr(align(64))]
struct LineLock(parking_lot::Mutex<()>);

static ATOMIC_LOCKS: [LineLock; 64] = [const { LineLock(parking_lot::Mutex::new(())) }; 64];

/// `f` run holding the `ATOMIC_LOCKS` of `mask`'s bits, taken in ascending order (one
/// frame a lock: most messages need one, and no array of guards is built and dropped).
fn with_line_locks<R>(mask: u64, f: impl FnOnce() -> R) -> R {
    if mask == 0 {
        return f();
    }
    let _held = ATOMIC_LOCKS[mask.trailing_zeros() as usize].0.lock();
    with_line_locks(mask & (mask - 1), f)
}

/// Which of `ATOMIC_LOCKS` guards the line of `addr`.
fn atomic_lock_index(addr: u64) -> usize {
    ((addr >> 6) % 64) as usize
}

/// Modelled latency of a message to `sp`.
fn latency(sp: Space) -> SendOutcome {
    SendOutcome::Continue {
        latency: if matches!(sp, Space::Slm) {
            LATENCY_SLM
        } else {
            LATENCY_MEMORY
        },
    }
}

/// The lanes of `emask` that a SIMD`simd` message has.
#[inline]
fn active_lanes(emask: u32, simd: usize) -> u32 {
    emask
        & u32::MAX
            .checked_shr(32u32.saturating_sub(simd as u32))
            .unwrap_or(0)
}

/// An atomic message as its lanes are served: where they find their addresses and
/// operands, the message, its payload, and its active lanes.
type AtomicMessage<'a> = (&'a AtomicLanes, &'a Message, &'a Payload, u32);

/// Where an atomic message's lanes find their addresses and operands.
struct AtomicLanes {
    op: AtomicOp,
    wide: bool,
    a64: bool,
    areg: usize,
    s0: usize,
    /// The second operand's registers (compare-exchanges).
    s1: Option<usize>,
}

impl AtomicLanes {
    /// `lane`'s two operands (0 for one the operation does not take).
    #[inline]
    fn operands(&self, msg: &Payload, lane: usize) -> (u64, u64) {
        let es = if self.wide { 8 } else { 4 };
        let y = self.s1.map_or(0, |r| msg_value(msg, r, lane, es));
        (msg_value(msg, self.s0, lane, es), y)
    }
}

/// What a compare-exchange's lanes so far on SLM say for the spin-wait watch, after one
/// more lane at SLM byte `o` that `failed` (a compare-exchange writes nothing when its
/// compare fails), compared with `cmp` (32-bit): `Some(Some((dword, value)))` while every
/// lane failed on one dword (the value kept while they all compared with it), `Some(None)`
/// once one did not.
fn failed_lane(
    so_far: Option<Option<(usize, Option<u32>)>>,
    o: usize,
    failed: bool,
    cmp: Option<u32>,
) -> Option<Option<(usize, Option<u32>)>> {
    let d = o & !3;
    match so_far {
        None => Some(failed.then_some((d, cmp))),
        Some(Some((f, e))) if failed && f == d => Some(Some((d, e.filter(|_| e == cmp)))),
        _ => Some(None),
    }
}

/// What an atomic returns in its lane: PREDEC the decremented value, everything else the old
/// one.
#[inline]
fn returned(op: AtomicOp, old: u64, new: Option<u64>) -> u64 {
    if op == AtomicOp::Predec {
        new.unwrap_or(old)
    } else {
        old
    }
}

/// `$call` with `$f` the lane function (`atomic_result`, its operation a constant) of the
/// operation `$op` at width `$wide`, and the constant `$es` its bytes a lane: a message's
/// operation chosen once, not per lane. `$none` for an operation the model does not execute.
macro_rules! with_lane_fn {
    ($op:expr, $wide:expr, $es:ident, $f:ident => $call:expr, $none:expr) => {
        with_lane_fn!(@arms ($op, $wide), $es, $f, $call, $none;
            And Or Xor Mov Inc Dec Predec Add Sub RevSub Imax Imin Umax Umin Cmpwr Fmax Fmin Fcmpwr)
    };
    (@arms $sel:expr, $es:ident, $f:ident, $call:expr, $none:expr; $($o:ident)*) => {
        match $sel {
            $(
                (AtomicOp::$o, true) => {
                    const $es: usize = 8;
                    let $f = |old, x, y| atomic_result(AtomicOp::$o, old, x, y, true);
                    $call
                }
                (AtomicOp::$o, false) => {
                    const $es: usize = 4;
                    let $f = |old, x, y| atomic_result(AtomicOp::$o, old, x, y, false);
                    $call
                }
            )*
            (AtomicOp::Fadd | AtomicOp::Cmpwr8b, _) => $none,
        }
    };
}
use with_lane_fn;

/// New value of an atomic; `Some(None)` = no write (a failed compare-exchange),
/// `None` = an operation the model does not execute (8-byte compare-exchange). Inlined
/// always: with `op` a constant, only its arm is left.
#[inline(always)]
fn atomic_result(op: AtomicOp, old: u64, x: u64, y: u64, wide: bool) -> Option<Option<u64>> {
    use AtomicOp::*;
    let mask = if wide { u64::MAX } else { u32::MAX as u64 };
    let (so, sx) = if wide {
        (old as i64, x as i64)
    } else {
        (old as u32 as i32 as i64, x as u32 as i32 as i64)
    };
    let (fo, fa, fb) = (
        f32::from_bits(old as u32),
        f32::from_bits(x as u32),
        f32::from_bits(y as u32),
    );
    let v = match op {
        And => old & x,
        Or => old | x,
        Xor => old ^ x,
        Mov => x,
        Inc => old.wrapping_add(1),
        Dec | Predec => old.wrapping_sub(1),
        Add => old.wrapping_add(x),
        Sub => old.wrapping_sub(x),
        RevSub => x.wrapping_sub(old),
        Imax => so.max(sx) as u64,
        Imin => so.min(sx) as u64,
        Umax => old.max(x),
        Umin => old.min(x),
        Cmpwr => return Some((old == x).then_some(y & mask)),
        Fmax => fo.max(fa).to_bits() as u64,
        Fmin => fo.min(fa).to_bits() as u64,
        Fcmpwr => return Some((fo == fa).then_some(fb.to_bits() as u64)),
        Fadd | Cmpwr8b => return None,
    };
    Some(Some(v & mask))
}

/// The value in `lane`'s slot of `slot` bytes (1, 2, 4 or 8) in a block of registers
/// starting at `reg`, zero-extended: one load of the slot's size (a narrower copy into a
/// wider buffer read back whole stalls the host's store forwarding, on every lane of every
/// atomic message).
#[inline]
fn msg_value(msg: &Payload, reg: usize, lane: usize, slot: usize) -> u64 {
    let byte = lane * slot;
    let r = &msg.regs[(reg + byte / 32) % 32];
    let o = byte % 32;
    match slot {
        1 => u64::from(r[o]),
        2 => u64::from(u16::from_le_bytes([r[o], r[o + 1]])),
        4 => u64::from(u32::from_le_bytes(
            r[o..o + 4].try_into().unwrap_or_default(),
        )),
        _ => u64::from_le_bytes(r[o..o + 8].try_into().unwrap_or_default()),
    }
}

/// A message's reply registers, as the destination held them before the message, with what
/// the message returned written over them.
#[derive(Default)]
pub struct Reply {
    pub regs: [[u8; 32]; 32],
    /// Registers the message returned.
    pub written: usize,
}

impl Reply {
    pub(crate) fn set_lane_u32(&mut self, reg: usize, lane: usize, v: u32) {
        self.set_slot(reg, lane, 4, &v.to_le_bytes());
    }
    /// `v`'s low `N` bytes (4 or 8) in `lane`'s slot of the registers from r0 on: the
    /// slot's size a constant, one store.
    #[inline(always)]
    fn set_value<const N: usize>(&mut self, lane: usize, v: u64) {
        let byte = lane * N;
        let o = byte % 32;
        let r = &mut self.regs[(byte / 32) % 32];
        r[o..o + N].copy_from_slice(&v.to_le_bytes()[..N]);
    }
    #[inline]
    fn set_slot(&mut self, reg: usize, lane: usize, slot: usize, v: &[u8]) {
        let byte = lane * slot;
        let r = &mut self.regs[(reg + byte / 32) % 32];
        let o = byte % 32;
        copy_lane(&mut r[o..o + slot], &v[..slot]);
    }
}

#[cfg(test)]
mod tests {
    use super::{in_bounds, Failed, SlmWatch, MAX_SLEEP_ROUNDS};

    #[test]
    fn spin_waiters_sleep_until_their_dword_is_written_one_a_message_or_a_bound() {
        let f = |dword, writes| {
            Some(Failed {
                dword,
                writes,
                expected: None,
            })
        };
        let slm = [0u8; 64];
        // Threads 1 and 2 failed a compare-exchange on dword 8 (their lanes compared with
        // different values: any write wakes); thread 3 on dword 16, but SLM was written
        // after its attempt: its retry may succeed, so it does not sleep.
        let mut w = SlmWatch {
            failed: vec![None, f(8, 0), f(8, 0), f(16, 0)],
            ..Default::default()
        };
        assert!(w.sleeps(1, 0, &slm));
        assert!(w.sleeps(2, 0, &slm));
        w.written(0, 8, &slm);
        assert!(!w.sleeps(3, 0, &slm), "SLM written since its attempt");
        assert!(w.woken.is_empty(), "bytes 0..8 are not dword 8");
        // One message whose lanes all write dword 8 wakes one sleeper, the first asleep.
        w.in_message.clear();
        w.written(8, 4, &slm);
        w.written(8, 4, &slm);
        assert_eq!(w.woken, [1]);
        // The next message wakes the next.
        w.in_message.clear();
        w.written(6, 4, &slm);
        assert_eq!(w.woken, [1, 2]);
        // A sleeper that nothing wakes is woken after MAX_SLEEP_ROUNDS rounds.
        w.failed = vec![None, f(32, w.writes)];
        assert!(w.sleeps(1, 10, &slm));
        w.woken.clear();
        w.wake_late(10 + MAX_SLEEP_ROUNDS - 1, |_| true);
        assert!(w.woken.is_empty());
        w.wake_late(10 + MAX_SLEEP_ROUNDS, |_| true);
        assert_eq!(w.woken, [1]);
        assert!(w.sleepers.is_empty());
        assert!(w.wake_all(), "thread 1, woken late, has not run yet");
        w.woken.clear();
        assert!(!w.wake_all(), "no one asleep, no one woken");
        // A thread sleeps once for each failed attempt.
        assert!(!w.sleeps(1, 80, &slm));
    }

    #[test]
    fn lock_waiters_sleep_until_the_lock_is_free() {
        // Threads 1 and 2 failed to take the lock at dword 8 (compare with 0, the dword
        // holds 1); thread 3 too, but the lock was released (0) before it backed off.
        let lock = |v: u32| {
            let mut slm = [0u8; 64];
            slm[8..12].copy_from_slice(&v.to_le_bytes());
            slm
        };
        let f = Some(Failed {
            dword: 8,
            writes: 0,
            expected: Some(0),
        });
        let mut w = SlmWatch {
            failed: vec![None, f, f, f],
            ..Default::default()
        };
        assert!(w.sleeps(1, 0, &lock(1)));
        // Writes since its attempt do not matter: the dword still holds 1.
        w.written(32, 4, &lock(1));
        assert!(w.sleeps(2, 0, &lock(1)));
        assert!(
            !w.sleeps(3, 0, &lock(0)),
            "the lock is free: its retry succeeds"
        );
        // Another thread takes the lock (the dword written, 1 again): no one is woken.
        w.in_message.clear();
        w.written(8, 4, &lock(1));
        assert!(w.woken.is_empty(), "taking the lock wakes no waiter");
        // Its release (0) wakes the first asleep, the next release the next.
        w.in_message.clear();
        w.written(8, 4, &lock(0));
        assert_eq!(w.woken, [1]);
        w.in_message.clear();
        w.written(8, 4, &lock(0));
        assert_eq!(w.woken, [1, 2]);
    }

    #[test]
    fn a_surface_serves_the_dwords_of_an_access_below_its_bound() {
        // No bound (stateless): everything.
        assert_eq!(in_bounds(None, u64::MAX - 3, 128), 128);
        // Within: everything; at or past the bound: nothing.
        assert_eq!(in_bounds(Some(256), 128, 128), 128);
        assert_eq!(in_bounds(Some(256), 256, 16), 0);
        assert_eq!(in_bounds(Some(256), 4096, 4), 0);
        // A 128-byte block read of a 256-byte table from byte 160 (IGC's last block of
        // md5's K): the 96 bytes below the bound, whole dwords.
        assert_eq!(in_bounds(Some(256), 160, 128), 96);
        // A bound that is not a dword multiple: the dword it cuts is out.
        assert_eq!(in_bounds(Some(250), 240, 16), 8);
        // A byte access that crosses is out (it is one element).
        assert_eq!(in_bounds(Some(250), 249, 2), 0);
        // An offset near the top of the address space does not wrap.
        assert_eq!(in_bounds(Some(256), u64::MAX - 1, 16), 0);
    }
}
