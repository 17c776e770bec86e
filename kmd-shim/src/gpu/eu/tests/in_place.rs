//! `Dataport::send_in_place` (an untyped, byte scattered or dword scattered message of
//! every lane at strided addresses, read from and written to the sender's registers where
//! they are) against the message path it
//! stands in for (`Dataport::send` on a payload gathered from the registers, the reply
//! written back): over random messages, the same memory, registers, latency and errors;
//! and the messages it must leave to that path (lanes off, addresses that do not step by a
//! constant or step down, a bound crossed, channels that are not x, xy, xyz or xyzw,
//! a register block split between the two payloads) left to it.

use gencl_isa::gen9::send::{decode_message, Message, MsgKind};
use gencl_isa::{Opcode, Sfid};

use super::{group, FlatMem, Rng, MEM_BASE, MEM_SIZE};
use crate::gpu::binding::Bindings;
use crate::gpu::dataport::{Dataport, InPlaceForm, Payload, Reply, Request, SendOutcome};
use crate::gpu::{BufferSurface, GpuError, GpuMemory};

/// Where the surface (binding-table index 0) starts and the stateless base.
const SURFACE: u64 = MEM_BASE + 0x2000;
const GENERAL_STATE_BASE: u64 = MEM_BASE + 0x1000;
const SRC0: usize = 10;
const SRC1: usize = 40;
const DST: usize = 70;

/// What a message left: the memory window, the registers, and its outcome (or error).
type After = (Vec<u8>, Vec<u8>, Result<SendOutcome, String>);

/// The message path: the payload gathered from the registers, the reply over the
/// destination's old contents, the registers it returned written back (as `send::Port`).
fn by_message(
    dp: &mut Dataport,
    grf: &mut [u8],
    m: &Message,
    emask: u32,
    split: bool,
) -> Result<SendOutcome, GpuError> {
    let mut payload = Payload {
        regs: [[0; 32]; 32],
        len: 0,
    };
    let regs =
        (SRC0..SRC0 + m.mlen as usize).chain((SRC1..SRC1 + m.ex_mlen as usize).filter(|_| split));
    for r in regs {
        payload.regs[payload.len].copy_from_slice(&grf[32 * r..32 * r + 32]);
        payload.len += 1;
    }
    let mut reply = Reply {
        regs: [[0; 32]; 32],
        written: 0,
    };
    let rlen = m.rlen as usize;
    for k in 0..rlen {
        reply.regs[k].copy_from_slice(&grf[32 * (DST + k)..32 * (DST + k) + 32]);
    }
    let req = Request {
        addr: 0x40,
        thread: 0,
        emask,
        desc: 0,
        message: m,
        payload: &payload,
    };
    let out = dp.send(&req, &mut reply)?;
    for k in 0..reply.written.min(rlen) {
        grf[32 * (DST + k)..32 * (DST + k) + 32].copy_from_slice(&reply.regs[k]);
    }
    Ok(out)
}

#[test]
fn a_message_taken_in_place_leaves_what_the_message_path_leaves() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut in_place, mut declined, mut faults, mut scattered_in_place) = (0, 0, 0, 0);
    let (mut partial_in_place, mut a64_scattered_in_place) = (0, 0);
    for case in 0..6000 {
        let simd = rng.pick(&[8usize, 16]);
        let per = simd / 8;
        // A third of the cases: a byte or dword scattered message (DC0), one element of
        // `es` bytes a lane in the low bytes of its dword.
        let scattered = rng.below(3) == 0;
        let dword = scattered && rng.below(3) == 0;
        let es = match (scattered, dword) {
            (false, _) | (true, true) => 4,
            _ => rng.pick(&[1usize, 2, 4]),
        };
        let a64 = rng.below(3) == 0;
        let stateless = !a64 && rng.below(2) == 0;
        let write = rng.below(2) == 0;
        // Mostly x, xy, xyz, xyzw (which it takes); xz and yw it must not.
        let cmask: u32 = if scattered {
            1
        } else {
            rng.pick(&[1, 3, 7, 15, 1, 3, 7, 15, 5, 0xA])
        };
        let chans = cmask.count_ones() as usize;
        let header = rng.below(4) == 0;
        let aregs = if a64 { simd / 4 } else { simd / 8 };
        let split = write && rng.below(2) == 0;
        let data = if write { chans * per } else { 0 };
        let head = usize::from(header) + aregs;
        // Now and then a split send whose address block (of two registers or more) ends
        // in the second payload, or whose data starts in the first.
        let straddle = split && rng.below(4) == 0 && (aregs > 1 || data > 1);
        let (mlen, ex_mlen) = match (split, straddle) {
            (true, false) => (head, data),
            (true, true) if aregs > 1 && (data < 2 || rng.below(2) == 0) => (head - 1, data + 1),
            (true, true) => (head + 1, data - 1),
            _ => (head + data, 0),
        };
        let rlen = if write { 0 } else { chans * per };
        let msg_type = match (a64, write) {
            (false, false) => 0x01,
            (false, true) => 0x09,
            (true, false) => 0x11,
            (true, true) => 0x19,
        };
        let simd_mode = if simd == 8 { 2 } else { 1 };
        let bti = match (a64, stateless) {
            (true, _) => 253,
            (false, true) => 255,
            (false, false) => 0,
        };
        // DC0's scattered messages: type 3/0xB (dword; control 3 SIMD16, 2 SIMD8) and
        // 4/0xC (byte; control bit 0 SIMD16, bits 3:2 the size's log2).
        // DC1's A64 scattered: type 0x10/0x1A (control bits 1:0 the subtype, byte 0 or
        // dword 1; 3:2 a byte element's size's log2, or the dwords' count's; 4 SIMD16).
        let (msg_type, ctl, sfid) = match (scattered, dword) {
            (false, _) => (msg_type, simd_mode << 4 | (!cmask & 0xF), Sfid::Dc1),
            (true, _) if a64 => (
                if write { 0x1A } else { 0x10 },
                u32::from(simd == 16) << 4 | if dword { 1 } else { es.trailing_zeros() << 2 },
                Sfid::Dc1,
            ),
            (true, true) => (
                if write { 0xB } else { 0x3 },
                if simd == 16 { 3 } else { 2 },
                Sfid::Dc0,
            ),
            (true, false) => (
                if write { 0xC } else { 0x4 },
                u32::from(simd == 16) | (es.trailing_zeros() << 2),
                Sfid::Dc0,
            ),
        };
        let desc = ((mlen as u32) << 25)
            | ((rlen as u32) << 20)
            | (u32::from(header) << 19)
            | (msg_type << 14)
            | (ctl << 8)
            | bti;
        let op = if split { Opcode::Sends } else { Opcode::Send };
        let m = decode_message(op, simd as u8, sfid, desc, (ex_mlen as u32) << 6);
        let kind = match (scattered, dword, a64, write) {
            (true, _, true, false) => MsgKind::A64ScatteredRead,
            (true, _, true, true) => MsgKind::A64ScatteredWrite,
            (true, true, _, false) => MsgKind::DwordScatteredRead,
            (true, true, _, true) => MsgKind::DwordScatteredWrite,
            (true, false, _, false) => MsgKind::ByteScatteredRead,
            (true, false, _, true) => MsgKind::ByteScatteredWrite,
            (false, _, false, false) => MsgKind::UntypedRead,
            (false, _, false, true) => MsgKind::UntypedWrite,
            (false, _, true, false) => MsgKind::A64UntypedRead,
            (false, _, true, true) => MsgKind::A64UntypedWrite,
        };
        assert_eq!((m.kind, m.simd as usize), (kind, simd));
        if scattered {
            assert_eq!(m.data_size as usize, es);
        } else {
            assert_eq!(m.channel_mask as u32, cmask);
        }
        // The surface's bound: sometimes within the lanes' reach.
        let bound = rng.pick(&[0x4000u64, 0x4000, 0x200, 0x84, 0x1000]);
        // Addresses: lane 0's (relative to where the space starts), then a step.
        let a0 = if scattered && rng.coin() {
            rng.below(0x1800)
        } else {
            4 * rng.below(0x600)
        };
        let stride = if scattered && rng.coin() {
            rng.pick(&[1i64, 2, 2, 3, 4, -2])
        } else {
            rng.pick(&[0i64, 4, 8, 12, 16, 20, 64, 256, 1024, -4])
        };
        let pattern = rng.below(8);
        let base = if a64 {
            MEM_BASE + 0x3000
        } else if stateless {
            0x2000
        } else {
            0
        };
        let lane_addr = |l: usize, rng: &mut Rng| -> u64 {
            let a = match pattern {
                // One lane off the step (by a low bit, a dword, a high bit).
                0 if l == simd - 1 => a0 + [4, 1, 0x100][a0 as usize % 3],
                // Past the mapped window (a fault), for every lane.
                1 if a64 => MEM_BASE + MEM_SIZE as u64 - 8 + a0,
                2 => 4 * rng.below(0x800),
                _ => (a0 as i64 + stride * l as i64) as u64,
            };
            base.wrapping_add(a)
        };
        // Every lane; a work-group's last thread's first lanes; any lanes.
        let emask = match rng.below(8) {
            0 | 1 => rng.next() as u32 & ((1 << simd) - 1),
            2 | 3 => (1u32 << (1 + rng.below(simd as u64 - 1))) - 1,
            _ => (1u32 << simd) - 1,
        };

        let mut grf = vec![0u8; 128 * 32];
        grf.iter_mut().for_each(|b| *b = rng.next() as u8);
        // The address block after the header (the payload's first register).
        let payload_reg = |k: usize| {
            if k < mlen {
                SRC0 + k
            } else {
                SRC1 + k - mlen
            }
        };
        for l in 0..simd {
            let a = lane_addr(l, &mut rng);
            let areg = usize::from(header);
            if a64 {
                let r = payload_reg(areg + l / 4);
                let o = 32 * r + 8 * (l % 4);
                grf[o..o + 8].copy_from_slice(&a.to_le_bytes());
            } else {
                let r = payload_reg(areg + l / 8);
                let o = 32 * r + 4 * (l % 8);
                grf[o..o + 4].copy_from_slice(&(a as u32).to_le_bytes());
            }
        }
        let mut image = vec![0u8; MEM_SIZE];
        image.iter_mut().for_each(|b| *b = rng.next() as u8);

        let mut tg = group(1, emask, |_, _| {});
        tg.simd = simd as u32;
        tg.bindings = Bindings::Fixed(vec![Some(
            BufferSurface {
                base: SURFACE,
                size: bound,
            }
            .into(),
        )]);
        let run = |direct: bool| -> (After, bool) {
            let mem = FlatMem::new();
            mem.write(MEM_BASE, &image).unwrap();
            let mut g = grf.clone();
            let mut dp = Dataport::new(&mem, &tg, GENERAL_STATE_BASE, vec![0; 1024]);
            let (out, took) = if direct {
                let form =
                    InPlaceForm::of(&m, SRC0, split.then_some(SRC1), (!write).then_some(DST));
                let taken = match form {
                    Some(f) => dp.send_form(0x40, &f, &mut g, emask).transpose(),
                    None => None,
                };
                match taken {
                    Some(Ok(out)) => (Ok(out), true),
                    None => (by_message(&mut dp, &mut g, &m, emask, split), false),
                    Some(Err(e)) => (Err(e), true),
                }
            } else {
                (by_message(&mut dp, &mut g, &m, emask, split), false)
            };
            let mut after = vec![0u8; MEM_SIZE];
            mem.read(MEM_BASE, &mut after).unwrap();
            ((after, g, out.map_err(|e| e.to_string())), took)
        };
        let ((mem_a, grf_a, out_a), took) = run(true);
        let ((mem_b, grf_b, out_b), _) = run(false);
        let what = format!(
            "case {case}: SIMD{simd} {kind:?} es {es} a64 {a64} stateless {stateless} cmask {cmask:#x} \
             header {header} split {split} straddle {straddle} emask {emask:#x} a0 {a0:#x} \
             stride {stride} pattern {pattern} bound {bound:#x}"
        );
        assert_eq!(out_a, out_b, "{what}");
        assert!(mem_a == mem_b, "memory differs: {what}");
        assert!(grf_a == grf_b, "registers differ: {what}");
        // What it must leave to the message path, it leaves.
        let first_lanes = emask != 0 && emask & (emask + 1) == 0;
        // (Of one lane, any address steps; of two, any that grow.)
        let n = emask.count_ones();
        let off_step = n > 1
            && ((stride < 0 && pattern != 2)
                || (pattern == 2 && n > 2)
                || (pattern == 0 && emask >> (simd - 1) != 0));
        if !first_lanes || cmask == 5 || cmask == 0xA || straddle || off_step {
            assert!(!took || out_a.is_err(), "taken in place: {what}");
        }
        match (took, &out_a) {
            (true, Ok(_)) => {
                in_place += 1;
                scattered_in_place += usize::from(scattered);
                partial_in_place += usize::from(emask != (1 << simd) - 1);
                a64_scattered_in_place += usize::from(scattered && a64);
            }
            (true, Err(_)) => faults += 1,
            (false, _) => declined += 1,
        }
    }
    // The cases reach each side: messages taken in place, faults raised there, and
    // messages left to the message path.
    assert!(in_place > 1000, "{in_place} taken in place");
    assert!(
        scattered_in_place > 300,
        "{scattered_in_place} scattered messages taken in place"
    );
    assert!(
        partial_in_place > 200,
        "{partial_in_place} messages of a partial thread taken in place"
    );
    assert!(
        a64_scattered_in_place > 100,
        "{a64_scattered_in_place} A64 scattered messages taken in place"
    );
    assert!(faults > 20, "{faults} faults in place");
    assert!(declined > 1000, "{declined} left to the message path");
}
