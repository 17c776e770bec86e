//! Holds `gencl_kmd::genx::gen9` against Mesa's genxml description of Gen9
//! (`tests/reference/genxml/gen9.xml`, MIT, read here only, never by product
//! code). Packed dwords are decoded with the XML's own field positions,
//! widths, types and defaults; gencl's tables are used only to name the
//! fields to set.

use gencl_kmd::genx::gen9::*;
use gencl_kmd::genx::Packet;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, Clone)]
struct XmlField {
    name: String,
    start: u32,
    end: u32,
    ty: String,
    default: Option<u64>,
}

#[derive(Debug, Clone)]
struct XmlPacket {
    length: usize,
    bias: u32,
    fields: Vec<XmlField>,
}

impl XmlField {
    fn width(&self) -> u32 {
        self.end - self.start + 1
    }
    /// genxml's address/offset fields hold the address bits in place.
    fn shift(&self) -> u32 {
        if self.ty == "address" || self.ty == "offset" {
            self.start % 32
        } else {
            0
        }
    }
    fn get(&self, dw: &[u32]) -> u64 {
        let mut v = 0u64;
        for (i, bit) in (self.start..=self.end).enumerate() {
            let w = dw.get((bit / 32) as usize).copied().unwrap_or(0);
            v |= u64::from((w >> (bit % 32)) & 1) << i;
        }
        v
    }
    fn put(&self, dw: &mut [u32], v: u64) {
        for (i, bit) in (self.start..=self.end).enumerate() {
            let w = &mut dw[(bit / 32) as usize];
            *w = (*w & !(1 << (bit % 32))) | ((((v >> i) & 1) as u32) << (bit % 32));
        }
    }
}

fn xml_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/genxml/gen9.xml")
}

fn load() -> HashMap<String, XmlPacket> {
    let path = xml_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text).expect("gen9.xml parses");
    let mut out = HashMap::new();
    for n in doc.root_element().children().filter(|n| n.is_element()) {
        let tag = n.tag_name().name();
        if tag != "instruction" && tag != "struct" {
            continue;
        }
        let fields = n
            .children()
            .filter(|c| c.has_tag_name("field"))
            .map(|c| XmlField {
                name: c.attribute("name").unwrap().to_string(),
                start: c.attribute("start").unwrap().parse().unwrap(),
                end: c.attribute("end").unwrap().parse().unwrap(),
                ty: c.attribute("type").unwrap_or("uint").to_string(),
                default: c.attribute("default").map(|d| d.parse().unwrap()),
            })
            .collect();
        out.insert(
            n.attribute("name").unwrap().to_string(),
            XmlPacket {
                length: n.attribute("length").map_or(0, |l| l.parse().unwrap()),
                bias: n.attribute("bias").map_or(0, |b| b.parse().unwrap()),
                fields,
            },
        );
    }
    out
}

fn xml_field<'a>(x: &'a XmlPacket, pname: &str, fname: &str) -> &'a XmlField {
    x.fields
        .iter()
        .find(|f| f.name == fname)
        .unwrap_or_else(|| panic!("{pname}: gen9.xml has no field {fname:?}"))
}

/// The dwords the XML says a packet with these field bits encodes to.
fn xml_encode(x: &XmlPacket, dwords: usize, set: &[(&XmlField, u64)]) -> Vec<u32> {
    let mut dw = vec![0u32; dwords];
    for f in x.fields.iter() {
        if let Some(d) = f.default {
            f.put(&mut dw, d);
        }
    }
    for (f, bits) in set {
        f.put(&mut dw, *bits);
    }
    dw
}

/// A value for field `i` of width `w`: top and bottom bits set, distinct middle.
fn pattern(i: usize, w: u32) -> u64 {
    let m = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let mid = (0x9e37_79b9_7f4a_7c15u64.rotate_left(i as u32 * 7) ^ i as u64) << 1;
    (mid | 1 | (1u64 << (w - 1))) & m
}

fn check<P: Packet + std::fmt::Debug + PartialEq>(xml: &HashMap<String, XmlPacket>) {
    let name = P::NAME;
    let x = xml
        .get(name)
        .unwrap_or_else(|| panic!("gen9.xml has no {name}"));
    let max_end = x.fields.iter().map(|f| f.end).max().unwrap_or(0);
    let xml_dwords = x.length.max((max_end / 32 + 1) as usize);
    assert_eq!(P::DWORDS, xml_dwords, "{name}: dword count");
    assert_eq!(P::BIAS, x.bias, "{name}: bias");
    assert!(!P::FIELDS.is_empty() || name == "MI_BATCH_BUFFER_END" || name == "MI_ARB_CHECK");

    // Every field at once, each with a distinct value.
    let mut p = P::default();
    let mut set = Vec::new();
    for (i, fd) in P::FIELDS.iter().enumerate() {
        let f = xml_field(x, name, fd.doc_name);
        let bits = pattern(i, f.width());
        assert!(
            p.set(fd.doc_name, bits << f.shift()),
            "{name}: set {}",
            f.name
        );
        set.push((f, bits));
    }
    let packed = p.pack_vec();
    for f in &x.fields {
        let want = set
            .iter()
            .find(|(g, _)| g.name == f.name)
            .map(|s| s.1)
            .or(f.default);
        if let Some(want) = want {
            assert_eq!(
                f.get(&packed),
                want,
                "{name}: field {:?} decoded by gen9.xml",
                f.name
            );
        }
    }
    let expected = xml_encode(x, P::DWORDS, &set);
    assert_eq!(
        packed, expected,
        "{name}: packed dwords vs gen9.xml encoding"
    );
    assert!(
        P::matches(expected[0]) || P::OPCODE.is_empty(),
        "{name}: header"
    );
    if let Some(lf) = x.fields.iter().find(|f| f.name == "DWord Length") {
        assert_eq!(
            P::length_from_header(expected[0]),
            lf.default.unwrap() as usize + x.bias as usize,
            "{name}: length from header"
        );
    }

    // Unpacking the XML's encoding gives each value back.
    let u = P::unpack(&expected);
    for (f, bits) in &set {
        assert_eq!(
            u.get(&f.name),
            Some(bits << f.shift()),
            "{name}: unpack {:?}",
            f.name
        );
    }
    assert_eq!(u, p, "{name}: unpack(pack(x)) == x");

    // Each field alone with every bit set covers exactly the XML's bits.
    for fd in P::FIELDS {
        let f = xml_field(x, name, fd.doc_name);
        let mut p = P::default();
        p.set(fd.doc_name, u64::MAX);
        let ones = if f.width() >= 64 {
            u64::MAX
        } else {
            (1u64 << f.width()) - 1
        };
        assert_eq!(
            p.pack_vec(),
            xml_encode(x, P::DWORDS, &[(f, ones)]),
            "{name}: extent of field {:?}",
            f.name
        );
    }
}

macro_rules! all_packets {
    ($m:ident) => {
        $m!(
            MiBatchBufferEnd,
            MiNoop,
            MiStoreDataImm,
            MiLoadRegisterImm,
            MiBatchBufferStart,
            MiArbCheck,
            MiStoreRegisterMem,
            StateSip,
            GpgpuCsrBaseAddress,
            PipelineSelect,
            StateBaseAddress,
            MediaVfeState,
            MediaCurbeLoad,
            MediaInterfaceDescriptorLoad,
            InterfaceDescriptorData,
            GpgpuWalker,
            MediaStateFlush,
            PipeControl,
            RenderSurfaceState,
            SamplerState,
            SamplerBorderColorState,
            BindingTableState
        )
    };
}

#[test]
fn packets_match_genxml() {
    let xml = load();
    macro_rules! run { ($($p:ty),*) => { $( check::<$p>(&xml); )* }; }
    all_packets!(run);
}

/// (name, is a struct, default header dword, the packet's `matches`).
type Header = (&'static str, bool, u32, fn(u32) -> bool);

#[test]
fn commands_are_told_apart_by_their_headers() {
    let xml = load();
    macro_rules! headers {
        ($($p:ty),*) => { vec![ $( (<$p>::NAME, <$p as Packet>::OPCODE.is_empty(),
            <$p>::default().pack_vec()[0], <$p as Packet>::matches as fn(u32) -> bool) ),* ] };
    }
    let hs: Vec<Header> = all_packets!(headers);
    for (a, a_struct, _, a_matches) in &hs {
        for (b, b_struct, b_dw0, _) in &hs {
            if *a_struct || *b_struct || a == b {
                continue;
            }
            assert!(!a_matches(*b_dw0), "{a} claims {b}'s header");
        }
        assert!(xml.contains_key(*a));
    }
}

#[test]
fn buffer_surface_size_encoding_matches_genxml() {
    let xml = load();
    let x = &xml["RENDER_SURFACE_STATE"];
    let size = 0x1234_5678u64;
    let s = RenderSurfaceState::buffer(0x7fff_1234_0000, size, 1, SURFACE_FORMAT_RAW, 2).unwrap();
    let dw = s.pack();
    let get = |n: &str| xml_field(x, "RENDER_SURFACE_STATE", n).get(&dw);
    let entries = (get("Width") | get("Height") << 7 | get("Depth") << 21) + 1;
    assert_eq!(entries * (get("Surface Pitch") + 1), size);
    assert_eq!(get("Surface Type"), 4, "SURFTYPE_BUFFER");
    assert_eq!(get("Surface Format"), 0x1ff, "RAW");
    assert_eq!(get("Surface Base Address"), 0x7fff_1234_0000);
    assert_eq!(RenderSurfaceState::unpack(&dw).buffer_size(), size);
}

/// Which XML instruction a header dword is: every field with a default
/// (opcodes; DWord Length excepted) must match. Returns (name, dwords).
fn xml_identify<'a>(xml: &'a HashMap<String, XmlPacket>, dw: &[u32]) -> Option<(&'a str, usize)> {
    let mut found = None;
    for (name, x) in xml {
        let heads: Vec<&XmlField> = x
            .fields
            .iter()
            .filter(|f| f.default.is_some() && f.end < 32 && f.name != "DWord Length")
            .collect();
        // Structs have no header; a command has at least its Command Type.
        if !heads.iter().any(|f| f.name == "Command Type") {
            continue;
        }
        if heads.iter().all(|f| f.get(dw) == f.default.unwrap()) {
            let len = match x.fields.iter().find(|f| f.name == "DWord Length") {
                Some(l) => l.get(dw) as usize + x.bias as usize,
                None => x.length,
            };
            // Several XML commands may share a header (e.g. by engine); the
            // ones gencl emits must be unambiguous among those it knows.
            if found.is_none() || xml_known(name) {
                found = Some((name.as_str(), len));
            }
        }
    }
    found
}

fn xml_known(name: &str) -> bool {
    [
        "MI_BATCH_BUFFER_END",
        "MI_NOOP",
        "PIPELINE_SELECT",
        "STATE_BASE_ADDRESS",
        "MEDIA_VFE_STATE",
        "MEDIA_CURBE_LOAD",
        "MEDIA_INTERFACE_DESCRIPTOR_LOAD",
        "GPGPU_WALKER",
        "MEDIA_STATE_FLUSH",
        "PIPE_CONTROL",
    ]
    .contains(&name)
}

#[test]
fn launch_batch_decodes_by_genxml() {
    use gencl_kmd::genx::launch::{Launch, PostSync, StateBases, Walk};
    let xml = load();
    let launch = Launch {
        bases: StateBases {
            general: 0x1_0000_0000,
            surface: 0x2_0000_0000,
            dynamic: 0x3_0000_0000,
            instruction: 0x4_0000_0000,
            ..Default::default()
        },
        vfe: MediaVfeState {
            maximum_number_of_threads: 55,
            number_of_urb_entries: 2,
            curbe_allocation_size: 20,
            ..Default::default()
        },
        walks: vec![Walk {
            curbe_offset: 0x440,
            curbe_length: 0x120,
            idd_offset: 0x400,
            idd_length: 32,
            walker: GpgpuWalker {
                simd_size: SIMD16,
                thread_width_counter_maximum: 3,
                thread_group_id_x_dimension: 7,
                thread_group_id_y_dimension: 5,
                thread_group_id_z_dimension: 2,
                right_execution_mask: 0xfff,
                bottom_execution_mask: 0xffff_ffff,
                ..Default::default()
            },
        }],
        post_sync: Some(PostSync {
            address: 0x5_0000_0040,
            operation: POST_SYNC_WRITE_TIMESTAMP,
            immediate: 0,
        }),
        slm: false,
        start_timestamp: Some(0x5_0000_0038),
    };
    let b = launch.batch();
    let mut at = 0;
    let mut seen = Vec::new();
    while at < b.len() {
        let (name, len) = xml_identify(&xml, &b[at..])
            .unwrap_or_else(|| panic!("dword {at} ({:#010x}) is no gen9.xml command", b[at]));
        let dw = &b[at..at + len];
        let x = &xml[name];
        let f = |n: &str| xml_field(x, name, n).get(dw) << xml_field(x, name, n).shift();
        match name {
            "PIPELINE_SELECT" => {
                assert_eq!(f("Pipeline Selection"), 2, "GPGPU");
                assert_eq!(f("Mask Bits") & 3, 3);
            }
            "STATE_BASE_ADDRESS" => {
                assert_eq!(f("General State Base Address"), 0x1_0000_0000);
                assert_eq!(f("Surface State Base Address"), 0x2_0000_0000);
                assert_eq!(f("Dynamic State Base Address"), 0x3_0000_0000);
                assert_eq!(f("Instruction Base Address"), 0x4_0000_0000);
                assert_eq!(f("Instruction Base Address Modify Enable"), 1);
                assert_eq!(f("Dynamic State Buffer Size"), 0xf_ffff);
            }
            "MEDIA_VFE_STATE" => {
                assert_eq!(f("Maximum Number of Threads"), 55);
                assert_eq!(f("CURBE Allocation Size"), 20);
            }
            "MEDIA_CURBE_LOAD" => {
                assert_eq!(f("CURBE Total Data Length"), 0x120);
                assert_eq!(f("CURBE Data Start Address"), 0x440);
            }
            "MEDIA_INTERFACE_DESCRIPTOR_LOAD" => {
                assert_eq!(f("Interface Descriptor Total Length"), 32);
                assert_eq!(f("Interface Descriptor Data Start Address"), 0x400);
            }
            "GPGPU_WALKER" => {
                assert_eq!(f("SIMD Size"), 1);
                assert_eq!(f("Thread Width Counter Maximum"), 3);
                assert_eq!(f("Thread Group ID X Dimension"), 7);
                assert_eq!(f("Thread Group ID Y Dimension"), 5);
                assert_eq!(f("Thread Group ID Z Dimension"), 2);
                assert_eq!(f("Right Execution Mask"), 0xfff);
                assert_eq!(f("Bottom Execution Mask"), 0xffff_ffff);
            }
            "PIPE_CONTROL" => {
                // Stalls before PIPELINE_SELECT and MEDIA_VFE_STATE; the last one writes
                // the timestamp.
                assert_eq!(f("Command Streamer Stall Enable"), 1);
                if seen.contains(&"GPGPU_WALKER") {
                    assert_eq!(f("Post Sync Operation"), 3, "write timestamp");
                    assert_eq!(f("Address"), 0x5_0000_0040);
                    assert_eq!(f("DC Flush Enable"), 1);
                } else if seen.contains(&"STATE_BASE_ADDRESS") {
                    assert_eq!(f("Post Sync Operation"), 3, "start timestamp");
                    assert_eq!(f("Address"), 0x5_0000_0038);
                } else {
                    assert_eq!(f("Post Sync Operation"), 0);
                }
            }
            "MI_LOAD_REGISTER_IMM" => match f("Register Offset") {
                0x7034 => assert_eq!(f("Data DWord"), 0x8000_0340, "L3CNTLREG: no SLM"),
                0xe404 => assert_eq!(f("Data DWord"), 0x100, "DEBUG_CONTROL2: round robin"),
                other => panic!("a load of register {other:#x}"),
            },
            _ => {}
        }
        seen.push(name);
        at += len;
    }
    assert_eq!(at, b.len(), "the last command ends at the batch end");
    assert_eq!(
        seen,
        [
            "PIPE_CONTROL",
            "PIPELINE_SELECT",
            "MI_LOAD_REGISTER_IMM",
            "MI_LOAD_REGISTER_IMM",
            "STATE_BASE_ADDRESS",
            "PIPE_CONTROL",
            "MEDIA_VFE_STATE",
            "MEDIA_CURBE_LOAD",
            "MEDIA_INTERFACE_DESCRIPTOR_LOAD",
            "GPGPU_WALKER",
            "MEDIA_STATE_FLUSH",
            "PIPE_CONTROL",
            "MI_BATCH_BUFFER_END",
            "MI_NOOP",
        ]
    );
}
