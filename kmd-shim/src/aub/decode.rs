//! Decodes a submission as the command streamer will read it: the ring, the batches its
//! MI_BATCH_BUFFER_STARTs reach, and the state the commands point at (interface
//! descriptors, binding tables, surface states), one line per command or structure
//! with the documented field names (those of `genx::gen9`, held against Mesa's genxml
//! by tests/genxml.rs). Fields that are zero are left out, so that two listings differ
//! only where the programming does.

use crate::genx::gen9::*;
use crate::genx::Packet;
use crate::gpu::cs::Ring;
use crate::gpu::GpuMemory;

/// Names of the MMIO registers that the recorded streams load.
fn register_name(r: u32) -> Option<&'static str> {
    Some(match r {
        0x2030 => "RING_TAIL",
        0x2034 => "RING_HEAD",
        0x2038 => "RING_START",
        0x203c => "RING_CTL",
        0x2244 => "CTX_CONTEXT_CONTROL",
        0x2270 => "PDP0_LDW",
        0x2274 => "PDP0_UDW",
        0x2358 => "TIMESTAMP",
        0x23a8 => "CTX_TIMESTAMP",
        0x2580 => "CS_CHICKEN1",
        0x7034 => "L3CNTLREG",
        0xe404 => "DEBUG_CONTROL_REG2",
        _ => return None,
    })
}

fn fields<P: Packet>(p: &P) -> String {
    let mut s = String::new();
    for f in P::FIELDS {
        let v = p.get(f.doc_name).unwrap_or(0);
        if v != 0 {
            if v > 9 {
                s += &format!(" {}={v:#x}", f.doc_name);
            } else {
                s += &format!(" {}={v}", f.doc_name);
            }
        }
    }
    s
}

/// One command: its length in dwords and its line, if it is one the model knows.
fn command(dw: &[u32]) -> Option<(usize, String)> {
    macro_rules! try_packets {
        ($($p:ty),*) => {$(
            if <$p>::matches(dw[0]) {
                let len = <$p>::length_from_header(dw[0]);
                let p = <$p>::unpack(&dw[..len.min(dw.len())]);
                return Some((len, format!("{}{}", <$p>::NAME, fields(&p))));
            }
        )*};
    }
    if MiLoadRegisterImm::matches(dw[0]) {
        let len = MiLoadRegisterImm::length_from_header(dw[0]);
        let mut s = String::from("MI_LOAD_REGISTER_IMM");
        for (r, v) in lri_pairs(&dw[..len.min(dw.len())]) {
            match register_name(r) {
                Some(n) => s += &format!(" {n}({r:#x})={v:#x}"),
                None => s += &format!(" {r:#x}={v:#x}"),
            }
        }
        return Some((len, s));
    }
    try_packets!(
        MiBatchBufferEnd,
        MiNoop,
        MiStoreDataImm,
        MiBatchBufferStart,
        MiArbCheck,
        MiStoreRegisterMem,
        PipelineSelect,
        StateBaseAddress,
        StateSip,
        GpgpuCsrBaseAddress,
        MediaVfeState,
        MediaCurbeLoad,
        MediaInterfaceDescriptorLoad,
        GpgpuWalker,
        MediaStateFlush,
        PipeControl
    );
    None
}

fn read(mem: &dyn GpuMemory, addr: u64, n: usize) -> Option<Vec<u32>> {
    crate::gpu::read_dwords(mem, addr, n).ok()
}

struct Lister<'a> {
    ppgtt: &'a dyn GpuMemory,
    ggtt: &'a dyn GpuMemory,
    surface_base: u64,
    dynamic_base: u64,
    out: Vec<String>,
}

impl Lister<'_> {
    /// The state a command points at, indented under it.
    fn state(&mut self, dw: &[u32]) {
        if StateBaseAddress::matches(dw[0]) {
            let p = StateBaseAddress::unpack(dw);
            if p.surface_state_base_address_modify_enable {
                self.surface_base = p.surface_state_base_address;
            }
            if p.dynamic_state_base_address_modify_enable {
                self.dynamic_base = p.dynamic_state_base_address;
            }
        } else if MediaInterfaceDescriptorLoad::matches(dw[0]) {
            let p = MediaInterfaceDescriptorLoad::unpack(dw);
            let at = self.dynamic_base + u64::from(p.interface_descriptor_data_start_address);
            let n = (p.interface_descriptor_total_length as usize / 32).min(64);
            for i in 0..n {
                let Some(d) = read(self.ppgtt, at + 32 * i as u64, 8) else {
                    self.out
                        .push(format!("    descriptor {i}: unreadable at {at:#x}"));
                    return;
                };
                let idd = InterfaceDescriptorData::unpack(&d);
                self.out.push(format!(
                    "    INTERFACE_DESCRIPTOR_DATA[{i}]{}",
                    fields(&idd)
                ));
                self.binding_table(&idd);
            }
        }
    }

    fn binding_table(&mut self, idd: &InterfaceDescriptorData) {
        let bt = self.surface_base + u64::from(idd.binding_table_pointer);
        for i in 0..u64::from(idd.binding_table_entry_count) {
            let Some(e) = read(self.ppgtt, bt + 4 * i, 1) else {
                return;
            };
            let entry = BindingTableState::unpack(&e);
            let at = self.surface_base + u64::from(entry.surface_state_pointer);
            match read(self.ppgtt, at, 16) {
                Some(s) => {
                    let rss = RenderSurfaceState::unpack(&s);
                    self.out.push(format!(
                        "      BINDING_TABLE[{i}] RENDER_SURFACE_STATE{}",
                        fields(&rss)
                    ));
                }
                None => self
                    .out
                    .push(format!("      BINDING_TABLE[{i}] unreadable at {at:#x}")),
            }
        }
    }

    /// Lists a batch from `addr` to its end, following chains and second-level calls.
    fn batch(&mut self, addr: u64, ggtt: bool, level: u32) {
        let mut addr = addr;
        let mut ggtt = ggtt;
        for _ in 0..100_000 {
            let mem = if ggtt { self.ggtt } else { self.ppgtt };
            let Some(h) = read(mem, addr, 1) else {
                self.out.push(format!("  {addr:#x}: unreadable"));
                return;
            };
            let Some((len, _)) = command(&h) else {
                self.out
                    .push(format!("  {addr:#x}: unknown command {:#010x}", h[0]));
                return;
            };
            let Some(dw) = read(mem, addr, len) else {
                self.out.push(format!("  {addr:#x}: unreadable"));
                return;
            };
            let text = command(&dw).map(|c| c.1).unwrap_or_default();
            if !MiNoop::matches(dw[0]) {
                self.out.push(format!("  {addr:#x}: {text}"));
            }
            self.state(&dw);
            if MiBatchBufferEnd::matches(dw[0]) {
                return;
            }
            if MiBatchBufferStart::matches(dw[0]) {
                let p = MiBatchBufferStart::unpack(&dw);
                let to_ggtt = p.address_space_indicator != ASI_PPGTT;
                if p.second_level_batch_buffer != 0 && level < 2 {
                    self.batch(p.batch_buffer_start_address, to_ggtt, level + 1);
                } else {
                    addr = p.batch_buffer_start_address;
                    ggtt = to_ggtt;
                    continue;
                }
            }
            addr += 4 * len as u64;
        }
        self.out
            .push("  (listing cut after 100,000 commands)".into());
    }
}

/// The listing of one submission: the ring's commands from head to tail, each batch
/// they start, and the state the commands point at.
pub fn submission(ppgtt: &dyn GpuMemory, ggtt: &dyn GpuMemory, ring: &Ring) -> Vec<String> {
    let mut l = Lister {
        ppgtt,
        ggtt,
        surface_base: 0,
        dynamic_base: 0,
        out: Vec::new(),
    };
    let mut head = ring.head;
    let mut guard = 0;
    while head != ring.tail && guard < 4096 {
        guard += 1;
        let addr = ring.start + head;
        let Some(h) = read(ggtt, addr, 1) else {
            l.out.push(format!("ring {addr:#x}: unreadable"));
            break;
        };
        let Some((len, _)) = command(&h) else {
            l.out
                .push(format!("ring {addr:#x}: unknown command {:#010x}", h[0]));
            break;
        };
        let Some(dw) = read(ggtt, addr, len) else {
            break;
        };
        let text = command(&dw).map(|c| c.1).unwrap_or_default();
        if !MiNoop::matches(dw[0]) {
            l.out.push(format!("ring {addr:#x}: {text}"));
        }
        if MiBatchBufferStart::matches(dw[0]) {
            let p = MiBatchBufferStart::unpack(&dw);
            l.batch(
                p.batch_buffer_start_address,
                p.address_space_indicator != ASI_PPGTT,
                1,
            );
        }
        head = (head + 4 * len as u64) % ring.size.max(4);
    }
    l.out
}
