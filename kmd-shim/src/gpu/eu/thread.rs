//! The architectural state of one EU thread and typed access to its operands.
//!
//! Gathers and scatters are specialised per type outside the lane loops: one
//! `match` on the type per operand per instruction, then a straight loop.

// Lane loops index several parallel lane arrays at once.
#![allow(clippy::needless_range_loop)]

use gencl_isa::{PredCtrl, Type};

use super::float::{f16_to_f32, f32_to_f16, flush_f32, flush_f64};
use super::program::{arf, DstOp, ExecInst, Loc, SrcOp, GRF_BYTES};
use super::timing::grf_range;
use crate::gpu::GpuError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Ready,
    /// `wait n0` with no notification pending.
    WaitNotify,
    /// Asleep in a spin-wait on an SLM dword (`dataport::SlmWatch`).
    SpinWait,
    Done,
}

pub struct Thread {
    pub grf: Vec<u8>,
    pub arf: [u8; arf::BYTES],
    /// acc0/acc1 channels at full precision: integers as i64 (mach/mac/addc/subb
    /// need more than 32 bits), floats as their f32/f64 bits.
    pub acc: [u64; 32],
    /// Channels the dispatcher enabled.
    pub dispatch: u32,
    /// Channels enabled by structured control flow (a subset of `dispatch`).
    pub active: u32,
    /// Channels disabled by control flow, waiting to be re-enabled at `wait_ip`.
    pub waiting: u32,
    pub wait_ip: [u64; 32],
    /// Smallest `wait_ip` of a waiting channel (cheap "anything to wake here?").
    pub wake_min: u64,
    pub ip: u64,
    pub state: RunState,
    /// Index of the thread within its group.
    pub index: u32,
    /// The IEEE macros' extended accumulators (mme0..7).
    pub mme: super::mathmacro::MmeFile,
    /// The registers that may not be zero (bit n: rn), which dispatching the thread again
    /// clears past its payload: all of them while it runs; after, its payload's and those
    /// its program may write (`ran`).
    dirty: u128,
    /// Registers of its dispatch payload.
    payload: usize,
}

pub type Lanes<T> = [T; 32];

impl Thread {
    /// Whether a channel of `lanes` parked by control flow waits at an address `at` takes.
    pub fn parked_at(&self, lanes: u32, mut at: impl FnMut(u64) -> bool) -> bool {
        let mut w = self.waiting & lanes;
        while w != 0 {
            let c = w.trailing_zeros() as usize;
            w &= w - 1;
            if at(self.wait_ip[c]) {
                return true;
            }
        }
        false
    }
    pub fn new(index: u32, grfs: &[[u8; 32]], exec_mask: u32, ip: u64) -> Thread {
        let mut t = Thread {
            grf: vec![0u8; GRF_BYTES],
            arf: [0; arf::BYTES],
            acc: [0; 32],
            dispatch: 0,
            active: 0,
            waiting: 0,
            wait_ip: [0; 32],
            wake_min: u64::MAX,
            ip,
            state: RunState::Ready,
            index,
            mme: Default::default(),
            dirty: 0,
            payload: 0,
        };
        t.dispatch_again(index, grfs, exec_mask, ip);
        t
    }

    /// The thread as `new` makes it, in place (a thread of an earlier group reused, its
    /// register file kept): the payload `grfs` and zeros after it, every other register
    /// and state as at dispatch.
    pub fn dispatch_again(&mut self, index: u32, grfs: &[[u8; 32]], exec_mask: u32, ip: u64) {
        // Every field named: one added later must be set here too.
        let Thread {
            grf,
            arf,
            acc,
            dispatch,
            active,
            waiting,
            wait_ip,
            wake_min,
            ip: t_ip,
            state,
            index: t_index,
            mme,
            dirty,
            payload: t_payload,
        } = self;
        grf.resize(GRF_BYTES, 0);
        let payload = grfs.len().min(128);
        grf[..payload * 32].copy_from_slice(grfs[..payload].as_flattened());
        // Zeros after the payload: only where the last run may have written, a fill for
        // each run of registers (4 KiB a thread cleared whole was a tenth of a scalar
        // kernel's host instructions).
        let mut left = *dirty & !grf_range(0, payload as u32);
        while left != 0 {
            let first = left.trailing_zeros();
            let count = (left >> first).trailing_ones();
            grf[first as usize * 32..(first + count) as usize * 32].fill(0);
            left &= !grf_range(first, count);
        }
        // Until the run ends, any register may be written.
        (*dirty, *t_payload) = (u128::MAX, payload);
        arf.fill(0);
        acc.fill(0);
        (*dispatch, *active, *waiting) = (exec_mask, exec_mask, 0);
        wait_ip.fill(0);
        *wake_min = u64::MAX;
        *t_ip = ip;
        *state = RunState::Ready;
        *t_index = index;
        *mme = Default::default();
        self.set_arf_u32(arf::CE0, 0, exec_mask);
        // sr0.2: dispatch mask; sr0.3: the IP-relative vmask (same here).
        self.set_arf_u32(arf::SR0, 2, exec_mask);
        self.set_arf_u32(arf::SR0, 3, exec_mask);
    }

    /// The thread ran to its end on a program whose instructions write registers `writes`
    /// only (`Program::grf_writes`): the others past its payload are still zero.
    pub fn ran(&mut self, writes: u128) {
        self.dirty = grf_range(0, self.payload as u32) | writes;
    }

    pub fn arf_u32(&self, reg: usize, dword: usize) -> u32 {
        let o = reg * 32 + dword * 4;
        u32::from_le_bytes([
            self.arf[o],
            self.arf[o + 1],
            self.arf[o + 2],
            self.arf[o + 3],
        ])
    }

    pub fn set_arf_u32(&mut self, reg: usize, dword: usize, v: u32) {
        let o = reg * 32 + dword * 4;
        self.arf[o..o + 4].copy_from_slice(&v.to_le_bytes());
    }

    pub fn flag(&self, f: u8) -> u32 {
        self.arf_u32(if f == 0 { arf::F0 } else { arf::F1 }, 0)
    }

    pub fn set_flag(&mut self, f: u8, v: u32) {
        self.set_arf_u32(if f == 0 { arf::F0 } else { arf::F1 }, 0, v)
    }

    pub fn cr0(&self) -> u32 {
        self.arf_u32(arf::CR0, 0)
    }

    pub fn grf_u32(&self, reg: usize, dword: usize) -> u32 {
        let o = (reg * 32 + dword * 4) % GRF_BYTES;
        u32::from_le_bytes([
            self.grf[o],
            self.grf[o + 1],
            self.grf[o + 2],
            self.grf[o + 3],
        ])
    }

    /// The predicate of `inst` as a lane mask (bit i = lane i of the instruction).
    pub fn pred_mask(&self, inst: &ExecInst) -> u32 {
        let Some((ctrl, inverse)) = inst.pred else {
            return full(inst.n);
        };
        let f = self.flag(inst.flag_reg) as u64;
        let shift = u32::from(inst.flag_shift) + u32::from(inst.chan_off);
        let bits = if shift >= 32 { 0 } else { (f >> shift) as u32 };
        let n = inst.n as u32;
        let group = |g: u32, all: bool| -> u32 {
            // Group forms read the N flag bits of the channel's aligned group
            // (anyNh/allNh), starting from channel 0 of the flag subregister.
            let all_f = (f >> inst.flag_shift) as u32;
            let mut m = 0u32;
            for lane in 0..n {
                let ch = lane + u32::from(inst.chan_off);
                let start = ch / g * g;
                let gm = if g >= 32 {
                    u32::MAX
                } else {
                    ((1u32 << g) - 1) << start
                };
                let v = all_f & gm;
                let on = if all { v == gm } else { v != 0 };
                if on {
                    m |= 1 << lane;
                }
            }
            m
        };
        let m = match ctrl {
            PredCtrl::Normal => bits,
            PredCtrl::AnyV | PredCtrl::Any4h => group(4, false),
            PredCtrl::AllV | PredCtrl::All4h => group(4, true),
            PredCtrl::Any2h => group(2, false),
            PredCtrl::All2h => group(2, true),
            PredCtrl::Any8h => group(8, false),
            PredCtrl::All8h => group(8, true),
            PredCtrl::Any16h => group(16, false),
            PredCtrl::All16h => group(16, true),
            PredCtrl::Any32h => group(32, false),
            PredCtrl::All32h => group(32, true),
            // Align16 .x/.y/.z/.w: every channel of a 4-group reads that component's flag bit.
            PredCtrl::X | PredCtrl::Y | PredCtrl::Z | PredCtrl::W => {
                let k = match ctrl {
                    PredCtrl::X => 0,
                    PredCtrl::Y => 1,
                    PredCtrl::Z => 2,
                    _ => 3,
                };
                let all_f = (f >> inst.flag_shift) as u32;
                let mut m = 0u32;
                for lane in 0..n {
                    let ch = lane + u32::from(inst.chan_off);
                    let bit = ch / 4 * 4 + k;
                    if bit < 32 && all_f & (1 << bit) != 0 {
                        m |= 1 << lane;
                    }
                }
                m
            }
        };
        (if inverse { !m } else { m }) & full(inst.n)
    }

    /// Lanes (relative to the instruction) that control flow and dispatch enable.
    pub fn enabled(&self, inst: &ExecInst) -> u32 {
        if inst.no_mask {
            full(inst.n)
        } else {
            (self.active >> inst.chan_off) & full(inst.n)
        }
    }

    fn a0(&self, sub: usize) -> i64 {
        let o = arf::A0 * 32 + (sub % 16) * 2;
        u16::from_le_bytes([self.arf[o], self.arf[o + 1]]) as i64
    }

    fn indirect_base(&self, sub: u8, off: i16, addr: u64) -> Result<u32, GpuError> {
        let a = self.a0(sub as usize) + off as i64;
        if !(0..GRF_BYTES as i64).contains(&a) {
            return Err(GpuError::IllegalInstruction {
                addr,
                why: format!("indirect register address {a:#x} outside the GRF"),
            });
        }
        Ok(a as u32)
    }

    /// Base and per-lane offsets of a source after resolving a0 (indirect) and
    /// VxH rows; the caller checks the end against the register file.
    /// A source's base and per-lane offsets: the decoded ones of a direct region (borrowed,
    /// not copied: a copy of the 64-byte table per source was a fifth of the time of the
    /// double sequences), computed into `buf` for an indirect one.
    fn src_offsets<'a>(
        &self,
        s: &'a SrcOp,
        n: usize,
        addr: u64,
        buf: &'a mut [u16; 32],
    ) -> Result<(usize, &'a [u16; 32]), GpuError> {
        match s.indirect {
            None => Ok((s.base as usize, &s.rel)),
            Some((sub, off)) if s.vxh != 0 => {
                for i in 0..n {
                    let row = i / s.vxh as usize;
                    let b = self.indirect_base(sub.wrapping_add(row as u8), off, addr)?;
                    buf[i] = (b + u32::from(s.rel[i])).min(u16::MAX as u32) as u16;
                }
                Ok((0, buf))
            }
            Some((sub, off)) => Ok((self.indirect_base(sub, off, addr)? as usize, &s.rel)),
        }
    }

    fn bytes(&self, loc: Loc) -> &[u8] {
        if loc == Loc::Arf {
            &self.arf
        } else {
            &self.grf
        }
    }

    /// A register source's file bytes, base and per-lane offsets, every lane's
    /// element checked to lie inside the file (an indirect region can point past r127).
    fn src_region<'a>(
        &'a self,
        s: &'a SrcOp,
        n: usize,
        addr: u64,
        buf: &'a mut [u16; 32],
    ) -> Result<(&'a [u8], usize, &'a [u16; 32]), GpuError> {
        let (base, rel) = self.src_offsets(s, n, addr, buf)?;
        let b = self.bytes(s.loc);
        let last = rel[..n].iter().copied().max().unwrap_or(0) as usize;
        if base + last + s.ty.size() as usize > b.len() {
            return Err(GpuError::IllegalInstruction {
                addr,
                why: "indirect region past r127".into(),
            });
        }
        Ok((b, base, rel))
    }

    /// Gather a source as integers (sign/zero-extended per type); modifiers applied
    /// as integer negate/abs, or bitwise not when `logic`.
    pub fn gather_int(
        &self,
        s: &SrcOp,
        n: usize,
        out: &mut Lanes<i64>,
        logic: bool,
        addr: u64,
    ) -> Result<(), GpuError> {
        match s.loc {
            Loc::Imm => fill_imm_int(s.ty, s.imm, n, out),
            Loc::Null => out[..n].fill(0),
            Loc::Acc => {
                for i in 0..n {
                    let v = self.acc[(s.base as usize + s.rel[i] as usize) % 32];
                    out[i] = match s.ty {
                        Type::UD => v as u32 as i64,
                        Type::D => v as i32 as i64,
                        Type::UW => v as u16 as i64,
                        Type::W => v as i16 as i64,
                        _ => v as i64,
                    };
                }
            }
            Loc::Grf | Loc::Arf => {
                let mut buf = [0u16; 32];
                let (b, base, rel) = self.src_region(s, n, addr, &mut buf)?;
                macro_rules! g {
                    ($t:ty, $n:expr) => {
                        for i in 0..n {
                            let o = base + rel[i] as usize;
                            let mut a = [0u8; $n];
                            a.copy_from_slice(&b[o..o + $n]);
                            out[i] = <$t>::from_le_bytes(a) as i64;
                        }
                    };
                }
                match s.ty {
                    Type::UB => g!(u8, 1),
                    Type::B => g!(i8, 1),
                    Type::UW => g!(u16, 2),
                    Type::W => g!(i16, 2),
                    Type::UD => g!(u32, 4),
                    Type::D => g!(i32, 4),
                    Type::UQ => g!(u64, 8),
                    Type::Q => g!(i64, 8),
                    // Raw bits of float types (only logic ops and movs of raw data get here).
                    Type::HF => g!(u16, 2),
                    Type::F => g!(u32, 4),
                    Type::DF => g!(u64, 8),
                    Type::V | Type::UV | Type::VF => unreachable_ty(),
                }
            }
        }
        if logic {
            if s.neg {
                for v in out[..n].iter_mut() {
                    *v = !*v;
                }
            }
        } else {
            if s.abs {
                for v in out[..n].iter_mut() {
                    *v = v.wrapping_abs();
                }
            }
            if s.neg {
                for v in out[..n].iter_mut() {
                    *v = v.wrapping_neg();
                }
            }
        }
        Ok(())
    }

    pub fn gather_f32(
        &self,
        s: &SrcOp,
        n: usize,
        out: &mut Lanes<f32>,
        ftz: bool,
        addr: u64,
    ) -> Result<(), GpuError> {
        match (s.loc, s.ty) {
            (Loc::Imm, _) => fill_imm_f32(s.ty, s.imm, n, out),
            (Loc::Null, _) => out[..n].fill(0.0),
            (Loc::Acc, Type::F) => {
                for i in 0..n {
                    out[i] =
                        f32::from_bits(self.acc[(s.base as usize + s.rel[i] as usize) % 32] as u32);
                }
            }
            (Loc::Grf | Loc::Arf, Type::F | Type::HF) => {
                let mut buf = [0u16; 32];
                let (b, base, rel) = self.src_region(s, n, addr, &mut buf)?;
                if s.ty == Type::F {
                    for i in 0..n {
                        let o = base + rel[i] as usize;
                        out[i] = f32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
                    }
                } else {
                    for i in 0..n {
                        let o = base + rel[i] as usize;
                        out[i] = f16_to_f32(u16::from_le_bytes([b[o], b[o + 1]]));
                    }
                }
            }
            (_, Type::DF) => {
                let mut t = [0f64; 32];
                self.gather_f64(s, n, &mut t, false, addr)?;
                for i in 0..n {
                    out[i] = t[i] as f32;
                }
                return Ok(());
            }
            _ => {
                // Integer source in a float instruction: converted, round to nearest even.
                let mut t = [0i64; 32];
                let mut s2 = *s;
                s2.neg = false;
                s2.abs = false;
                self.gather_int(&s2, n, &mut t, false, addr)?;
                if s.ty == Type::UQ {
                    for i in 0..n {
                        out[i] = t[i] as u64 as f32;
                    }
                } else {
                    for i in 0..n {
                        out[i] = t[i] as f32;
                    }
                }
            }
        }
        if ftz && s.ty != Type::HF {
            for v in out[..n].iter_mut() {
                *v = flush_f32(*v);
            }
        }
        if s.abs {
            for v in out[..n].iter_mut() {
                *v = v.abs();
            }
        }
        if s.neg {
            for v in out[..n].iter_mut() {
                *v = -*v;
            }
        }
        Ok(())
    }

    pub fn gather_f64(
        &self,
        s: &SrcOp,
        n: usize,
        out: &mut Lanes<f64>,
        ftz: bool,
        addr: u64,
    ) -> Result<(), GpuError> {
        match (s.loc, s.ty) {
            (Loc::Imm, Type::DF) => out[..n].fill(f64::from_bits(s.imm)),
            (Loc::Acc, Type::DF) => {
                for i in 0..n {
                    out[i] = f64::from_bits(self.acc[(s.base as usize + s.rel[i] as usize) % 32]);
                }
            }
            (Loc::Grf | Loc::Arf, Type::DF) => {
                let mut buf = [0u16; 32];
                let (b, base, rel) = self.src_region(s, n, addr, &mut buf)?;
                for i in 0..n {
                    let o = base + rel[i] as usize;
                    let mut a = [0u8; 8];
                    a.copy_from_slice(&b[o..o + 8]);
                    out[i] = f64::from_le_bytes(a);
                }
            }
            (_, t) if t.is_float() => {
                let mut tmp = [0f32; 32];
                let mut s2 = *s;
                s2.neg = false;
                s2.abs = false;
                self.gather_f32(&s2, n, &mut tmp, false, addr)?;
                for i in 0..n {
                    out[i] = tmp[i] as f64;
                }
            }
            _ => {
                let mut t = [0i64; 32];
                let mut s2 = *s;
                s2.neg = false;
                s2.abs = false;
                self.gather_int(&s2, n, &mut t, false, addr)?;
                if s.ty == Type::UQ {
                    for i in 0..n {
                        out[i] = t[i] as u64 as f64;
                    }
                } else {
                    for i in 0..n {
                        out[i] = t[i] as f64;
                    }
                }
            }
        }
        if ftz {
            for v in out[..n].iter_mut() {
                *v = flush_f64(*v);
            }
        }
        if s.abs {
            for v in out[..n].iter_mut() {
                *v = v.abs();
            }
        }
        if s.neg {
            for v in out[..n].iter_mut() {
                *v = -*v;
            }
        }
        Ok(())
    }

    /// Write raw 64-bit lane values (already in the destination's representation:
    /// integer bits, or float bits of the destination's width) to enabled lanes.
    pub fn scatter_bits(
        &mut self,
        d: &DstOp,
        n: usize,
        mask: u32,
        vals: &Lanes<u64>,
        addr: u64,
    ) -> Result<(), GpuError> {
        let mask = mask & !d.wmask_off;
        match d.loc {
            Loc::Null | Loc::Imm => Ok(()),
            Loc::Acc => {
                for i in 0..n {
                    if mask & (1 << i) != 0 {
                        self.acc[(d.base as usize + d.rel[i] as usize) % 32] = vals[i];
                    }
                }
                Ok(())
            }
            Loc::Grf | Loc::Arf => {
                let base = match d.indirect {
                    None => d.base as usize,
                    Some((sub, off)) => self.indirect_base(sub, off, addr)? as usize,
                };
                let sz = d.ty.size() as usize;
                let b: &mut [u8] = if d.loc == Loc::Arf {
                    &mut self.arf
                } else {
                    &mut self.grf
                };
                if n > 0 && base + d.rel[n - 1] as usize + sz > b.len() {
                    return Err(GpuError::IllegalInstruction {
                        addr,
                        why: "indirect destination past r127".into(),
                    });
                }
                for i in 0..n {
                    if mask & (1 << i) != 0 {
                        let o = base + d.rel[i] as usize;
                        b[o..o + sz].copy_from_slice(&vals[i].to_le_bytes()[..sz]);
                    }
                }
                Ok(())
            }
        }
    }
}

#[cold]
fn unreachable_ty() {
    // Vector immediate types are rejected when operands are resolved.
}

pub fn full(n: u8) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

fn fill_imm_int(ty: Type, bits: u64, n: usize, out: &mut Lanes<i64>) {
    match ty {
        // Packed half-byte vectors: 8 elements, lane i takes element i % 8.
        Type::V => {
            for (i, o) in out[..n].iter_mut().enumerate() {
                let nib = ((bits >> ((i % 8) * 4)) & 0xF) as i64;
                *o = if nib >= 8 { nib - 16 } else { nib };
            }
        }
        Type::UV => {
            for (i, o) in out[..n].iter_mut().enumerate() {
                *o = ((bits >> ((i % 8) * 4)) & 0xF) as i64;
            }
        }
        _ => {
            let v = match ty {
                Type::UB => bits as u8 as i64,
                Type::B => bits as i8 as i64,
                Type::UW => bits as u16 as i64,
                Type::W => bits as i16 as i64,
                Type::UD => bits as u32 as i64,
                Type::D => bits as i32 as i64,
                Type::HF => bits as u16 as i64,
                Type::F => bits as u32 as i64,
                _ => bits as i64,
            };
            out[..n].fill(v);
        }
    }
}

/// The 8-bit restricted float of VF immediates: sign, 3-bit exponent (bias 3), 4-bit mantissa.
pub fn vf_to_f32(b: u8) -> f32 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((b >> 4) & 7) as i32;
    let m = (b & 0xF) as f32;
    if e == 0 && b & 0xF == 0 {
        return 0.0 * sign;
    }
    if e == 0 {
        // Denormal: 2^-2 * m/16.
        return sign * m / 16.0 * 0.25;
    }
    sign * (1.0 + m / 16.0) * 2f32.powi(e - 3)
}

fn fill_imm_f32(ty: Type, bits: u64, n: usize, out: &mut Lanes<f32>) {
    match ty {
        Type::VF => {
            for (i, o) in out[..n].iter_mut().enumerate() {
                *o = vf_to_f32((bits >> ((i % 4) * 8)) as u8);
            }
        }
        Type::F => out[..n].fill(f32::from_bits(bits as u32)),
        Type::HF => out[..n].fill(f16_to_f32(bits as u16)),
        Type::DF => out[..n].fill(f64::from_bits(bits) as f32),
        _ => {
            let mut t = [0i64; 32];
            fill_imm_int(ty, bits, n, &mut t);
            for i in 0..n {
                out[i] = if ty == Type::UQ {
                    t[i] as u64 as f32
                } else {
                    t[i] as f32
                };
            }
        }
    }
}

/// Convert f32 lane values to destination bits for a float destination type.
pub fn f32_bits(ty: Type, v: f32) -> u64 {
    match ty {
        Type::HF => f32_to_f16(v) as u64,
        Type::DF => (v as f64).to_bits(),
        _ => v.to_bits() as u64,
    }
}
