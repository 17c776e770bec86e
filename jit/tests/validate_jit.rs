//! Every kernel the JIT builds from tests/kernels/*.cl obeys the Gen9
//! legality rules (gencl_isa::gen9::validate), checked on the final bytes.

use std::path::Path;

use gencl_isa::gen9::validate::validate_kernel;
use gencl_jit::compile::compile_each;
use gencl_jit::{compile, CompileInput};

/// Kernel `name`'s machine code, checked by the legality validator, as `ocloc disasm` prints.
fn legal_text(name: &str, isa: &[u8]) -> String {
    validate_kernel(isa).unwrap_or_else(|e| panic!("{name}: {e}"));
    gencl_jit::isa::gen9::disasm_kernel(isa).unwrap()
}

/// Each kernel of `tests/kernels/<file>`: its name, its binary and its legal disassembly.
fn corpus_file(file: &str) -> Vec<(String, gencl_jit::abi::KernelBinary, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/kernels")
        .join(file);
    let src = std::fs::read_to_string(&path).unwrap();
    compile_each(CompileInput::OpenClC(&src), "")
        .unwrap()
        .into_iter()
        .map(|(name, k)| {
            let k = k.unwrap_or_else(|e| panic!("{name}: {e}"));
            let text = legal_text(&name, &k.isa);
            (name, k, text)
        })
        .collect()
}

/// The data-port messages of a disassembly: each send line and its descriptor (the last hex
/// number of the line).
fn data_port_sends(text: &str) -> Vec<(&str, u32)> {
    text.lines()
        .filter(|l| l.contains("send") && l.contains("hdc."))
        .filter_map(|l| {
            let d = l
                .split_whitespace()
                .filter_map(|w| w.strip_prefix("0x"))
                .filter_map(|h| u32::from_str_radix(h, 16).ok())
                .next_back()?;
            Some((l, d))
        })
        .collect()
}

#[test]
fn jit_kernels_are_legal() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    paths.sort();
    let mut count = 0;
    let mut failures = Vec::new();
    for path in &paths {
        let src = std::fs::read_to_string(path).unwrap();
        let program = compile(CompileInput::OpenClC(&src), "")
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.log));
        for k in &program.kernels {
            count += 1;
            if let Err(e) = validate_kernel(&k.isa) {
                failures.push(format!("{}/{}: {e}", path.display(), k.name));
            }
        }
    }
    eprintln!("validated {count} JIT kernels");
    assert!(count > 0, "no kernels in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The corpus kernel written to need more registers than Gen9 has spills (at -O2 and with
/// -cl-opt-disable), and its spill code is legal: scratch block messages with the r0 header,
/// NoMask, and scratch sized for the HWords used. The results are checked on the GPU model by
/// driver/tests/gencl_corpus.rs ("pressure").
#[test]
fn register_pressure_spills_legally() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/jit/vectors.cl");
    let src = std::fs::read_to_string(&path).unwrap();
    for options in ["", "-cl-opt-disable"] {
        let program = compile(CompileInput::OpenClC(&src), options)
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.log));
        let k = program
            .kernels
            .iter()
            .find(|k| k.name == "pressure")
            .expect("the pressure kernel");
        assert!(
            k.scratch_bytes > 0 && k.scratch_bytes % 32 == 0,
            "{options:?}: {} bytes spilled",
            k.scratch_bytes
        );
        assert!(k.scratch_per_thread.is_power_of_two() && k.scratch_per_thread >= 1024);
        assert!(k.scratch_per_thread >= k.scratch_bytes);
        validate_kernel(&k.isa).unwrap_or_else(|e| panic!("{options:?}: {e}"));
        let text = gencl_isa::gen9::disasm_kernel(&k.isa).unwrap();
        assert!(
            text.contains("scratch"),
            "{options:?}: no scratch message in the disassembly"
        );
    }
}

/// OpenCL C 2.0 helpers taking generic pointers, inlined at call sites with global, local
/// and private pointers: each access takes its own space's message (static resolution, seed
/// 002). There is no run-time switch to look for: a pointer left generic is a build error,
/// so the kernel building, with A64 (global) and BTI 254 (SLM) messages and private reads
/// (register gathers, the array being small) for the helper's three calls, is the
/// resolution at work.
#[test]
fn generic_pointers_resolve_statically() {
    let src = "int sum2(int *p) { return p[0] + p[1]; }
        __kernel void k(__global int *g, __global int *out, int i) {
            __local int l[64];
            int priv[8];
            l[get_local_id(0)] = g[get_global_id(0)];
            for (int j = 0; j < 8; j++) priv[j] = j * i;
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = sum2(g) + sum2(&l[i & 7]) + sum2(&priv[i & 3]);
        }";
    for opts in ["-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"] {
        let ks = compile_each(CompileInput::OpenClC(src), opts).unwrap();
        let k = ks[0].1.as_ref().unwrap_or_else(|e| panic!("{opts}: {e}"));
        let text = gencl_jit::isa::gen9::disasm_kernel(&k.isa).unwrap();
        // Each data-port message by its descriptor (the last hex number of a send): A64
        // messages are DC1's types 0x10-0x1F (bits 18:14); the others name a binding-table
        // index in the low byte, 254 for SLM, 255 for private (stateless) memory, and a
        // buffer argument's surface below 240.
        let descs: Vec<u32> = data_port_sends(&text).into_iter().map(|(_, d)| d).collect();
        let is_a64 = |d: u32| (0x10..=0x1F).contains(&((d >> 14) & 0x1F));
        let a64 = descs.iter().filter(|d| is_a64(**d)).count();
        let bti = |b: u32| {
            descs
                .iter()
                .filter(|d| !is_a64(**d) && *d & 0xFF == b)
                .count()
        };
        // Global memory: A64, or a buffer argument's binding-table surface (below 240).
        let surfaces = descs
            .iter()
            .filter(|d| !is_a64(**d) && **d & 0xFF < 240)
            .count();
        assert!(a64 + surfaces >= 3, "{opts}: global accesses\n{text}");
        assert!(bti(0xFE) >= 2, "{opts}: SLM messages\n{text}");
        // The private array lives in registers (passes::private_registers): its reads are
        // indirect gathers, `r[a0.0]`, where private memory would take BTI 255 messages.
        assert_eq!(bti(0xFF), 0, "{opts}: private messages\n{text}");
        assert!(
            text.matches("r[a0.0]").count() >= 2,
            "{opts}: private reads as register gathers\n{text}"
        );
    }
}

/// More `__local` memory than Gen9's 64 KiB per work-group is a build error that says so,
/// and what fits builds (the variables are laid out per kernel: a kernel that does not use
/// the big array does not pay for it).
#[test]
fn local_memory_past_the_device_is_a_build_error() {
    let src = "__kernel void big(__global int *o) {
            __local int a[12000], b[5000];
            a[get_local_id(0)] = 1; b[get_local_id(0)] = 2;
            barrier(CLK_LOCAL_MEM_FENCE);
            o[get_global_id(0)] = a[0] + b[1];
        }
        __kernel void fits(__global int *o) {
            __local int c[16000];
            c[get_local_id(0)] = 3;
            barrier(CLK_LOCAL_MEM_FENCE);
            o[get_global_id(0)] = c[1];
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let by = |n: &str| ks.iter().find(|(k, _)| k == n).map(|(_, r)| r).unwrap();
    let e = by("big")
        .as_ref()
        .expect_err("68000 bytes of __local must not build");
    assert!(e.contains("65536 bytes of local memory"), "{e}");
    let k = by("fits").as_ref().expect("64000 bytes of __local fit");
    assert_eq!(k.slm_bytes, 64000);
}

/// Send coalescing (isel/coalesce.rs): a work-item's float4 is one four-channel read or
/// write, and 32 uniform round constants one SIMD8 message without the execution mask; the
/// same kernels without coalescing took four messages per float4 and one per constant.
/// A vector stored from a computation is computed into the store's payload
/// (`mir::fold_copies`): an `int16` sum is sixteen adds and no moves, at SIMD16 and SIMD32.
#[test]
fn a_stored_vector_is_computed_into_its_payload() {
    let src = "kernel void add16(global const int16 *a, global const int16 *b, global int16 *c) {
            int i = get_global_id(0);
            c[i] = a[i] + b[i];
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let adds = text
            .lines()
            .filter(|l| l.trim_start().starts_with("add ("))
            .count();
        let moves: Vec<&str> = text
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                l.starts_with("mov (") && !l.contains("r127")
            })
            .collect();
        assert!(adds >= 16, "{text}");
        assert!(
            moves.is_empty(),
            "the sums are moved into the payload: {moves:?}\n{text}"
        );
    }
}

#[test]
fn float4_and_table_reads_are_coalesced() {
    let src =
        "kernel void vadd4(global const float4 *a, global const float4 *b, global float4 *c) {
            size_t i = get_global_id(0);
            c[i] = a[i] + b[i];
        }
        kernel void rounds(global const uint *k, global uint *out) {
            uint h = get_global_id(0);
            for (int i = 0; i < 32; i++)
                h = (h ^ k[i]) * 16777619u;
            out[get_global_id(0)] = h;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let sends: Vec<&str> = data_port_sends(&text).into_iter().map(|(l, _)| l).collect();
        // GRFs a channel takes in one message (SIMD16 at most), and messages a per-lane
        // access takes.
        let regs = k.simd.min(16) / 8;
        let per = per_access(k);
        match name.as_str() {
            "vadd4" => {
                // Two reads of four channels (rd: 4 GRFs per channel group) and one write.
                assert_eq!(sends.len(), 3 * per, "{text}");
                let reads = sends
                    .iter()
                    .filter(|l| l.contains(&format!("rd:{}", 4 * regs)))
                    .count();
                assert_eq!(reads, 2 * per, "{text}");
                // Each component's address is the argument plus one offset
                // (`passes::ptradd_chains`): the buffers' surfaces, offsets in 32 bits.
                assert!(
                    !text.contains(":q") && !text.contains(":uq"),
                    "no 64-bit address arithmetic:\n{text}"
                );
                assert!(
                    sends.iter().any(|l| l.contains(&format!("+{}", 4 * regs))),
                    "{text}"
                );
            }
            "rounds" => {
                // The table in one message (eight lanes of four dwords, NoMask), the result
                // in another (two in a SIMD32 kernel).
                assert_eq!(sends.len(), 1 + per, "{text}");
                assert!(
                    sends
                        .iter()
                        .any(|l| l.starts_with("(W)") && l.contains("rd:4")),
                    "{text}"
                );
            }
            other => panic!("unexpected kernel {other}"),
        }
    }
}

/// Word groups (isel/coalesce.rs): a work-item's half4 or short4, eight bytes aligned to
/// eight, is one two-channel read and one two-channel write, not four 16-bit messages each;
/// `vload2` of halves (aligned to a half only) stays two 16-bit reads.
#[test]
fn half4_and_short4_accesses_are_dword_messages() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
        kernel void h(global const half4 *a, global half4 *b) {
            size_t i = get_global_id(0);
            b[i] = a[i] * (half)2.0h;
        }
        kernel void s(global const short4 *a, global short4 *b) {
            size_t i = get_global_id(0);
            b[i] = a[i] + (short4)(1);
        }
        kernel void v(global const half *a, global half *b) {
            size_t i = get_global_id(0);
            vstore_half2(vload_half2(i, a), i, b);
        }";
    assert_messages(src, |name| if name == "v" { 4 } else { 2 });
}

/// The halves of a half4 read and written as dwords (the test above) are taken apart and
/// put together by word regions (isel `low_words`, `store_bits`, `memory.rs` word groups):
/// each half read where the reply holds it, each written by a word move at a stride of two
/// from its own register. Before, a mask or a shift per half read and a mask, a shift and
/// an or per pair written (the bench's half4_lerp: 93 instructions, now 65; IGC's 41).
#[test]
fn half4_halves_move_as_words_in_place() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
        #pragma OPENCL FP_CONTRACT OFF
        kernel void lerp(global const half4 *a, global const half4 *b, global half4 *o,
                         half t) {
            size_t i = get_global_id(0);
            half4 x = a[i];
            o[i] = x + (b[i] - x) * t;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let bit_ops: Vec<&str> = text
            .lines()
            .filter(|l| {
                let op = l.split_whitespace().find(|w| !w.starts_with('('));
                matches!(op, Some("and" | "or" | "shr")) && !l.contains("cr0")
            })
            .collect();
        assert!(bit_ops.is_empty(), "{name}: {bit_ops:#?}\n{text}");
        // Twelve word moves a SIMD16 group of lanes: eight halves read, four written.
        let words = text
            .lines()
            .filter(|l| {
                !l.trim_start().starts_with("(W)")
                    && l.contains("mov (")
                    && l.matches(":uw").count() == 2
            })
            .count();
        assert_eq!(words, 12 * per_access(k), "{name}: {text}");
    }
}

/// Work-group reductions (frontend `collectives.rs`, isel `lane_tree`): each sub-group's
/// total reduced as a tree (SIMD8, 4, 2, 1 steps after the first), stored, and after the
/// barrier every work-item gathers the totals, as many a message as the sub-group has
/// lanes, and reduces them the same way. Before, the totals were folded by one uniform SLM
/// read each and a reduction was a full scan (two SIMD8 halves a step).
#[test]
fn work_group_reductions_gather_the_totals_and_reduce_as_trees() {
    let src = "kernel void r(global const int *in, global int *out) {
            out[get_global_id(0)] = work_group_reduce_add(in[get_global_id(0)]);
        }
        kernel void any(global const int *in, global int *out, int t) {
            out[get_global_id(0)] = work_group_any(in[get_global_id(0)] > t);
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "-cl-std=CL2.0").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        // The tree's steps of four and two lanes, NoMask, once for the sub-group's total and
        // once for the work-group's.
        let steps = |n: u32| {
            text.lines()
                .filter(|l| {
                    l.trim_start().starts_with("(W)")
                        && l.contains(&format!("({n}|M0)"))
                        && l.matches(&format!("<{n};{n},1>")).count() == 2
                })
                .count()
        };
        assert_eq!(steps(4), 2, "{name}: {text}");
        assert_eq!(steps(2), 2, "{name}: {text}");
        // The input's read, lane 0's store of its sub-group's total, the gather (and the
        // gather of the turns after the first, in a loop that a group of at most the width
        // squared whose threads are full never enters), and the result's store.
        assert_eq!(
            data_port_sends(&text).len(),
            5 * per_access(k),
            "{name}: {text}"
        );
    }
}

/// Pairs at `2 * l` and `2 * l + 1` (which clang writes as `(l << 1) | 1`: passes::
/// disjoint_or makes it the add it is) coalesce, in global and in local memory alike, and an
/// access to one memory does not keep the other's accesses apart (shared local and global
/// memory never alias): `pairs` reads two globals (one message), writes two locals (one),
/// reads them back (one) and writes two globals (one). Without either change, eight
/// messages (each alone leaves all eight).
#[test]
fn odd_and_even_neighbours_coalesce_across_the_other_memory() {
    let src = "kernel void pairs(global const int *in, global int *out) {
            local int t[128];
            int l = get_local_id(0);
            int base = get_group_id(0) * 128;
            t[2 * l] = in[base + 2 * l];
            t[2 * l + 1] = in[base + 2 * l + 1];
            barrier(CLK_LOCAL_MEM_FENCE);
            out[base + 2 * l] = t[2 * l + 1];
            out[base + 2 * l + 1] = t[2 * l];
        }";
    assert_messages(src, |_| 4);
}

/// Every kernel of `src` built, legal, and with `want(name)` per-lane data-port accesses,
/// each one message (two SIMD16 ones in a SIMD32 kernel).
fn assert_messages(src: &str, want: impl Fn(&str) -> usize) {
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let sends = data_port_sends(&text).len();
        assert_eq!(sends, want(name) * per_access(k), "{name}: {text}");
    }
}

/// Messages a per-lane access of kernel `k` takes: one, or two SIMD16 ones at SIMD32 (the
/// data port takes at most 16 lanes a message).
fn per_access(k: &gencl_jit::abi::KernelBinary) -> usize {
    (k.simd as usize / 16).max(1)
}

/// Byte and qword groups (isel/coalesce.rs): a work-item's char4 or char16 (aligned to its
/// size) is one read and one write of whole dwords, a long2 one four-channel read and write,
/// a long16 eight of each; before, every char was a byte-scattered message of its own and
/// every long a two-channel one (char16 + char16 took 49 messages, long16 + long16 49). A
/// char3 through vload3/vstore3, aligned to a char only, stays bytes.
#[test]
fn char_and_long_vectors_are_dword_messages() {
    let src = "kernel void c4(global const char4 *a, global const char4 *b, global char4 *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] + b[i];
        }
        kernel void c16(global const char16 *a, global const char16 *b, global char16 *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] * b[i];
        }
        kernel void l2(global const long2 *a, global const long2 *b, global long2 *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] + b[i];
        }
        kernel void l16(global const long16 *a, global const long16 *b, global long16 *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] + b[i];
        }
        kernel void c3(global const char *a, global char *o) {
            size_t i = get_global_id(0);
            vstore3(vload3(i, a) + (char3)(1), i, o);
        }";
    assert_messages(src, |name| match name {
        "c4" | "c16" | "l2" => 3,
        "l16" => 24,
        "c3" => 6,
        other => panic!("unexpected kernel {other}"),
    });
}

/// `__local` addresses in 32 bits (analysis/addresses.rs, passes::narrow, isel's
/// `slm_offset`): indexing a `__local` array adds no qword instruction to a kernel. Kernel
/// `b` is `a` plus a local store, a barrier and two local reads at computed indices; before,
/// each local access cost its index's sign extension, shift and add in qwords (two
/// instructions each at SIMD16) and a pack of the low dwords into the message.
#[test]
fn local_addresses_take_no_qword_instructions() {
    let src = "kernel void a(global int *out) {
            size_t i = get_global_id(0);
            out[i] = (int)i;
        }
        kernel void b(global int *out, local int *s) {
            size_t i = get_global_id(0);
            int l = get_local_id(0);
            s[l] = (int)i;
            barrier(CLK_LOCAL_MEM_FENCE);
            out[i] = s[l ^ 1] + s[(l + 3) & 15];
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let mut qwords = std::collections::BTreeMap::new();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        // SLM messages: binding-table index 254 in the descriptor's low byte.
        let slm = data_port_sends(&text)
            .iter()
            .filter(|(_, d)| d & 0xff == 0xfe)
            .count();
        let q = text
            .lines()
            .filter(|l| l.contains(":q") || l.contains(":uq"))
            .count();
        qwords.insert(name.clone(), (q, slm, text));
    }
    let (qa, _, ta) = &qwords["a"];
    let (qb, slm, tb) = &qwords["b"];
    assert!(*slm >= 2, "b has its local accesses: {tb}");
    assert_eq!(qa, qb, "a:\n{ta}\nb:\n{tb}");
}

/// A uniform double division and square root (a loop of uniform values): ieee.rs's macro
/// sequences leave per-lane results, so the analysis keeps them varying and no scalar
/// instruction reads them with a <4;4,1> region (pyopencl's complex pow and tan did).
#[test]
fn uniform_double_division_is_legal() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
        kernel void k(global double *out, double a, int n) {
            double s = a;
            for (int i = 0; i < n; i++)
                s = s / (a + i) + sqrt(s);
            out[get_global_id(0)] = s * 2.0;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let k = ks[0].1.as_ref().unwrap_or_else(|e| panic!("{e}"));
    validate_kernel(&k.isa).unwrap_or_else(|e| panic!("{e}"));
}

/// The data port's memory fences of a disassembly: DC0 messages of type 7 (PRM vol 2d,
/// "Message Descriptor - Data Cache 0": Memory Fence).
fn fences(text: &str) -> usize {
    data_port_sends(text)
        .iter()
        .filter(|(l, d)| l.contains("hdc.dc0") && (d >> 14) & 0xf == 7)
        .count()
}

/// A barrier or fence on local memory alone takes no fence message: one thread's SLM
/// messages are performed in order on Gen9 (IGC leaves its local fences out up to Gen9);
/// global memory's flags keep the fence, before the gateway's barrier.
#[test]
fn barriers_fence_only_global_memory() {
    let src = "kernel void local_only(global int *out, local int *s) {
            int l = get_local_id(0);
            s[l] = l;
            barrier(CLK_LOCAL_MEM_FENCE);
            mem_fence(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = s[l ^ 1];
        }
        kernel void global_too(global int *out, local int *s) {
            int l = get_local_id(0);
            s[l] = l;
            out[get_global_id(0)] = l;
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
            out[get_global_id(0) ^ 1] += s[l ^ 1];
        }
        kernel void fence_global(global int *out) {
            out[get_global_id(0)] = 1;
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            out[get_global_id(0) + 1] = 2;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let barriers = text.lines().filter(|l| l.contains("gateway")).count();
        seen.insert(name.as_str(), (fences(&text), barriers, text));
    }
    let (f, b, t) = &seen["local_only"];
    assert_eq!((*f, *b), (0, 1), "local_only: no fence, one barrier:\n{t}");
    let (f, b, t) = &seen["global_too"];
    assert_eq!((*f, *b), (1, 1), "global_too: one fence, one barrier:\n{t}");
    let fence_at = t.lines().position(|l| l.contains("hdc.dc0")).unwrap();
    let barrier_at = t.lines().position(|l| l.contains("gateway")).unwrap();
    assert!(fence_at < barrier_at, "the fence comes first:\n{t}");
    let (f, b, t) = &seen["fence_global"];
    assert_eq!((*f, *b), (1, 0), "fence_global: one fence:\n{t}");
}

/// An atomic's memory order fences the memory its address points into: none for local
/// memory (32-bit SLM atomics, and the 64-bit ones' lock, whose load, store and release are
/// SLM messages of one thread, performed in order), one before and one after a
/// sequentially consistent atomic on global memory or through a generic pointer whose
/// space is known only at run time, none for a relaxed one.
#[test]
fn atomics_fence_only_global_memory() {
    let src = "kernel void local32(global int *out) {
            local atomic_int c;
            if (get_local_id(0) == 0) atomic_init(&c, 0);
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = atomic_fetch_add(&c, 1);
        }
        kernel void local64(global long *out) {
            local atomic_long c;
            if (get_local_id(0) == 0) atomic_init(&c, 0);
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = atomic_fetch_or(&c, 1L << get_local_id(0));
        }
        kernel void global32(global atomic_int *c, global int *out) {
            out[get_global_id(0)] = atomic_fetch_add(c, 1);
        }
        kernel void relaxed(global atomic_int *c, global int *out) {
            out[get_global_id(0)] = atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
        }
        kernel void either(global atomic_int *g, global int *out, int which) {
            local atomic_int l;
            if (get_local_id(0) == 0) atomic_init(&l, 0);
            barrier(CLK_LOCAL_MEM_FENCE);
            atomic_int *p = which ? (atomic_int *)&l : (atomic_int *)g;
            out[get_global_id(0)] = atomic_fetch_add(p, 1);
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "-cl-std=CL2.0").unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        seen.insert(name.as_str(), (fences(&text), text));
    }
    for (name, want) in [
        ("local32", 0),
        ("local64", 0),
        ("global32", 2),
        ("relaxed", 0),
        ("either", 2),
    ] {
        let (f, t) = &seen[name];
        assert_eq!(*f, want, "{name}: {want} fences:\n{t}");
    }
}

/// A compare that only a branch reads sets the branch's flag itself: one `cmp` into the
/// null register, not booleans in a register compared with zero again.
#[test]
fn a_branch_reads_its_compare_from_the_flag() {
    // The float loop's exit test is `fcmp ugt` (the negation of `<=`): `cmp.le` with the
    // branch's predicates inverted.
    let src = "kernel void k(global int *a, int n, global float *f, int m) {
            size_t i = get_global_id(0);
            int x = a[i];
            if (x > 3)
                a[i] = 0;
            for (int j = 0; j < n; j++)
                a[i + 1] += j;
            float z = f[i];
            int it = 0;
            while (z * z <= 4.0f) {
                z = z * z - 1.5f;
                if (++it >= m)
                    break;
            }
            a[i + 2] = it;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let k = ks[0].1.as_ref().unwrap();
    let text = legal_text("k", &k.isa);
    let cmps: Vec<&str> = text.lines().filter(|l| l.contains(" cmp ")).collect();
    assert!(!cmps.is_empty(), "{text}");
    // The if's, the counted loop's and the float loop's tests.
    let into_flag = cmps.iter().filter(|c| c.contains("null")).count();
    assert!(
        into_flag >= 3,
        "{into_flag} compares into the flag alone:\n{text}"
    );
    assert!(
        !cmps
            .iter()
            .any(|c| c.contains("(ne)") && c.contains(" 0:d")),
        "no boolean is tested against zero again:\n{text}"
    );
    assert!(
        !text.lines().any(|l| l.contains(" not ")),
        "no boolean is negated:\n{text}"
    );
}

/// Uniform qwords at consecutive addresses are read by one message, two a lane (a
/// polynomial's `double` coefficients): nine of them take two reads (eight and the ninth),
/// not nine.
#[test]
fn uniform_qword_tables_are_one_message() {
    let src = "kernel void k(global const double *x, constant double *c, global double *y) {
            double v = x[get_global_id(0)];
            double acc = c[8];
            for (int k = 7; k >= 0; k--)
                acc = acc * v + c[k];
            y[get_global_id(0)] = acc;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let k = ks[0].1.as_ref().unwrap();
    let text = legal_text("k", &k.isa);
    // x's per-lane read, c's two reads, y's write.
    assert_eq!(data_port_sends(&text).len(), 4, "{text}");
}

/// A uniform double read by three-source instructions (which take 64-bit operands only a
/// register a lane: "64b datatypes cannot use the replicate control") is widened once a
/// block, not before every `mad`: clpeak's fp64 chain was two moves a mad, 2.7 times IGC's
/// cycles.
#[test]
fn uniform_doubles_are_widened_once_a_block() {
    let src = "kernel void k(global double *out, double a, double b) {
            double x = get_global_id(0), y = x + 1;
            for (int k = 0; k < 16; k++) {
                x = mad(x, a, b);
                y = mad(y, a, b);
            }
            out[get_global_id(0)] = x + y;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let k = ks[0].1.as_ref().unwrap();
    let text = legal_text("k", &k.isa);
    let mads = text.lines().filter(|l| l.contains(" mad ")).count();
    let moves = text
        .lines()
        .filter(|l| l.contains(" mov ") && l.contains(":df "))
        .count();
    assert!(mads >= 32, "{text}");
    // a and b widened once per SIMD8 half; a few moves for x and y.
    assert!(
        moves <= 8,
        "{moves} moves of doubles for {mads} mads:\n{text}"
    );
}

/// A half operation without a native form (a division) is the float one rounded to half
/// (`mov` to `:hf`) and widened again for the next (`mov` from `:hf`, which reads the low word
/// alone): the container's upper word is cleared (`and 0xffff`) only for a half that
/// something else reads (a store, a bit cast).
#[test]
fn half_chains_clear_only_the_halves_others_read() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
        kernel void k(global half *out, half a, half b) {
            half x = (half)(get_local_id(0) & 15);
            for (int k = 0; k < 8; k++)
                x = x / a / b;
            out[get_global_id(0)] = x;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let k = ks[0].1.as_ref().unwrap();
    let text = legal_text("k", &k.isa);
    let clears = text
        .lines()
        .filter(|l| l.contains(" and ") && l.contains("0xFFFF"))
        .count();
    let rounds = text
        .lines()
        .filter(|l| l.contains(" mov ") && l.contains(">:hf "))
        .count();
    assert!(rounds >= 16, "{text}");
    // The stored result's container only (one clearing, not one per operation).
    assert!(
        clears <= 1,
        "{clears} clearings for {rounds} roundings:\n{text}"
    );
}

/// Half add, multiply and mad on halves are native packed `:hf` instructions (16 lanes a
/// GRF, Gen9's double rate), not float ones rounded and widened again (`passes::native_half`):
/// the loop's chain of `x * a + b` and the final sum have no float arithmetic and no `:hf`
/// roundings of floats at all; the halves come from the arguments and go to the store as
/// words.
#[test]
fn half_arithmetic_on_halves_is_packed_hf() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
        kernel void k(global half *out, half a, half b, global const half *in) {
            half x = in[get_global_id(0)], y = x + (half)1;
            for (int k = 0; k < 8; k++) {
                x = x * a + b;
                y = mad(y, a, b);
            }
            out[get_global_id(0)] = x + y;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let k = ks[0].1.as_ref().unwrap();
    let text = legal_text("k", &k.isa);
    let count = |f: &dyn Fn(&str) -> bool| text.lines().filter(|l| f(l)).count();
    let native = count(&|l: &str| {
        (l.contains(" mad ") || l.contains(" mul ") || l.contains(" add "))
            && l.contains("<1>:hf")
            && !l.contains(":f ")
    });
    let float_math = count(&|l: &str| {
        (l.contains(" mad ") || l.contains(" mul ") || l.contains(" add ")) && l.contains(":f ")
    });
    let conversions =
        count(&|l: &str| l.contains(" mov ") && l.contains(":hf") && l.contains(":f "));
    // 16 mads (clang contracts `x * a + b`), the +1 and the final add.
    assert!(native >= 18, "{native} native half operations:\n{text}");
    assert_eq!(float_math, 0, "{text}");
    assert_eq!(conversions, 0, "{text}");
}

/// A sub-group scan or reduction of 32-bit integers (and float min/max) is Hillis and
/// Steele's scan: log2(16) steps of two SIMD8 halves at SIMD16, not a fold lane by lane (16
/// reads, 15 operations and a select a lane).
#[test]
fn sub_group_scans_take_log_steps() {
    let src = "kernel void scan(global int *a) {
            size_t i = get_global_id(0);
            a[i] = sub_group_scan_inclusive_add(a[i]);
        }
        kernel void reduce(global uint *a) {
            size_t i = get_global_id(0);
            a[i] = sub_group_reduce_min(a[i]);
        }
        kernel void fmax_scan(global float *a) {
            size_t i = get_global_id(0);
            a[i] = sub_group_scan_exclusive_max(a[i]);
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(k.simd, 16, "{name}");
        let text = legal_text(name, &k.isa);
        let op = if name == "scan" { " add " } else { " sel " };
        let steps = |lanes: &str| {
            text.lines()
                .filter(|l| l.starts_with("(W)") && l.contains(op) && l.contains(lanes))
                .count()
        };
        if name == "reduce" {
            // A reduction is a tree (`lane_tree`): 8, 4, 2 and 1 lanes.
            for lanes in ["(8|M0)", "(4|M0)", "(2|M0)", "(1|M0)"] {
                assert_eq!(steps(lanes), 1, "{name}: a step of {lanes}:\n{text}");
            }
        } else {
            assert_eq!(
                steps("(8|M"),
                8,
                "{name}: four steps of two halves:\n{text}"
            );
        }
        let n = text.lines().filter(|l| !l.ends_with(':')).count();
        assert!(n < 40, "{name}: {n} instructions:\n{text}");
    }
}

/// Buffer arguments through their binding-table surfaces (seed 003; docs/jit.md "Buffers
/// through binding-table surfaces"): a load, store or 32-bit atomic at `arg + offset` whose
/// address nothing else reads is a surface message on the argument's binding-table index
/// with a 32-bit offset, so a vector add has no 64-bit instruction left (A64 addressing
/// took a qword shift and add an access, each two instructions at SIMD16: 20 instructions
/// against 11), and a SIMD16 histogram's atomic is one message (A64 atomics are SIMD8 only:
/// two). A 64-bit atomic keeps A64 (Gen9's surface atomics are 32-bit), also at an argument
/// whose other accesses take its surface.
#[test]
fn buffer_arguments_go_through_their_surfaces() {
    use gencl_jit::abi::ArgKind;
    let src = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
        kernel void vadd(global const float *a, global const float *b, global float *c) {
            size_t i = get_global_id(0);
            c[i] = a[i] + b[i];
        }
        kernel void count(global int *hist, global const uchar *x) {
            atomic_inc(&hist[x[get_global_id(0)] & 15]);
        }
        kernel void count64(global long *c, long x) {
            long v = c[2];
            atom_add(c, v + x);
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let is_a64 = |d: u32| (0x10..=0x1F).contains(&((d >> 14) & 0x1F));
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let descs: Vec<u32> = data_port_sends(&text).into_iter().map(|(_, d)| d).collect();
        let a64 = descs.iter().filter(|d| is_a64(**d)).count();
        let btis: Vec<Option<u8>> = k
            .args
            .iter()
            .map(|a| match a.kind {
                ArgKind::Buffer { bti } => bti,
                _ => None,
            })
            .collect();
        match name.as_str() {
            "vadd" => {
                assert_eq!(btis, [Some(0), Some(1), Some(2)], "{text}");
                let mut surfaces: Vec<u32> = descs.iter().map(|d| d & 0xFF).collect();
                surfaces.sort_unstable();
                surfaces.dedup();
                assert_eq!(surfaces, [0, 1, 2], "{text}");
                assert_eq!(descs.len(), 3 * per_access(k), "{text}");
                assert_eq!(a64, 0, "{text}");
                assert!(
                    !text.contains(":q") && !text.contains(":uq"),
                    "no 64-bit address arithmetic:\n{text}"
                );
            }
            "count" => {
                assert_eq!(btis, [Some(0), Some(1)], "{text}");
                // x's byte read and one atomic, both through surfaces.
                assert_eq!(descs.len(), 2 * per_access(k), "{text}");
                assert_eq!(a64, 0, "{text}");
            }
            "count64" => {
                // c[2] through c's surface; the 64-bit atomic at c itself A64.
                assert_eq!(btis, [Some(0), None], "{text}");
                assert!(descs.iter().any(|d| !is_a64(*d) && d & 0xFF == 0), "{text}");
                assert!(a64 >= 1, "{text}");
            }
            _ => unreachable!(),
        }
    }
}

/// Instruction scheduling (`schedule/`): a sum of four independent loads issues all four
/// messages before the first addition reads a reply, so their latencies overlap (selection
/// emits each load beside its use). Fails with `GENCL_SCHEDULE=0`.
#[test]
fn independent_loads_issue_before_their_uses() {
    let src = "kernel void sum4(global const float *in, global float *out) {
            size_t i = get_global_id(0), n = get_global_size(0);
            float s = in[i];
            for (int k = 1; k < 4; k++)
                s += in[i + k * n] * (float)k;
            out[i] = s;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    let (name, k) = &ks[0];
    let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = legal_text(name, &k.isa);
    let lines: Vec<&str> = text.lines().collect();
    let reads: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("send") && l.contains("surface read"))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(reads.len(), 4 * per_access(k), "{text}");
    let first_float = lines
        .iter()
        .position(|l| {
            (l.contains("add (") || l.contains("mad (") || l.contains("mul (")) && l.contains(":f")
        })
        .unwrap_or_else(|| panic!("no float arithmetic:\n{text}"));
    assert!(
        reads.iter().all(|&r| r < first_float),
        "a load issued after the first use of another's reply:\n{text}"
    );
}

/// An atomic whose old value nobody reads asks for none: its message has no reply (response
/// length 0), so nothing waits for it; one whose value is read keeps its reply. A64 (a
/// pointer made from an integer), surface and SLM atomics alike.
#[test]
fn atomics_whose_old_value_is_unused_have_no_reply() {
    let src = "kernel void drop(global int *h, global const uchar *x, ulong p, local int *l) {
            atomic_inc(&h[x[get_global_id(0)] & 15]);
            atomic_add((global int *)p, 2);
            atomic_inc(&l[get_local_id(0) & 3]);
        }
        kernel void keep(global int *h, global int *o) {
            o[get_global_id(0)] = atomic_inc(&h[get_global_id(0) & 15]);
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let atomics: Vec<u32> = data_port_sends(&text)
            .into_iter()
            // DC1's untyped and A64 atomics (message types 0x02 and 0x12).
            .filter(|(_, d)| matches!((d >> 14) & 0x1F, 0x02 | 0x12))
            .map(|(_, d)| (d >> 20) & 0x1F)
            .collect();
        match name.as_str() {
            // A64's atomic is SIMD8: two messages at SIMD16.
            "drop" => assert_eq!(atomics, [0, 0, 0, 0], "{text}"),
            "keep" => assert!(
                !atomics.is_empty() && atomics.iter().all(|&r| r > 0),
                "{text}"
            ),
            _ => unreachable!(),
        }
    }
}

/// A phi's input computed in its arm goes straight into the phi's register (isel
/// `into_phis`): `l >= d ? t[l] + t[l - d] : t[l]` is one predicated move for the lanes that
/// skip the arm and the add into the same register, no move after the add. Before, the add
/// wrote a register of its own and a move copied it (scan_inclusive_hs: four moves a step).
#[test]
fn an_arms_result_is_computed_into_its_phis_register() {
    let src = "kernel void step(global const int *in, global int *out, int d) {
            local int t[64];
            int l = get_local_id(0);
            t[l] = in[get_global_id(0)];
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = l >= d ? t[l] + t[l - d] : t[l];
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let is_mov = |l: &&str| l.split_whitespace().any(|w| w == "mov");
        // One predicated move a group of lanes (the skip edge's copy) before the branch...
        let copies = text
            .lines()
            .filter(|l| l.trim_start().starts_with("(f0.0)") && is_mov(l));
        assert_eq!(copies.count(), per_access(k), "{name}: {text}");
        // ...and none in the arm or after it.
        let arm = text.split_once("goto").map_or("", |(_, rest)| rest);
        let after: Vec<&str> = arm
            .lines()
            .filter(|l| is_mov(l) && !l.trim_start().starts_with("(W)"))
            .collect();
        assert!(after.is_empty(), "{name}: {after:#?}\n{text}");
    }
}

/// A loop's value read after it: its header's phi and its exit's take the same values from
/// the same blocks, so they share a register (isel), the guard's two copies into it are one
/// (`merge_copies`), and the loop's last step writes it (`into_phis`): one move a group of
/// lanes in all, before the loop. Before, two predicated moves at the guard and two more an
/// iteration (murmur3_fmix: 52 instructions, now 46).
#[test]
fn a_loops_header_and_exit_phis_share_a_register() {
    let src = "kernel void fmix(global const uint *in, global uint *out, int rounds) {
            uint h = in[get_global_id(0)];
            for (int r = 0; r < rounds; r++) {
                h ^= h >> 16;
                h *= 0x85ebca6bu;
                h ^= h >> 13;
            }
            out[get_global_id(0)] = h;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let moves: Vec<&str> = text
            .lines()
            .filter(|l| {
                let t = l.trim_start();
                !t.starts_with("(W") && t.split_whitespace().any(|w| w == "mov")
            })
            .collect();
        assert_eq!(moves.len(), per_access(k), "{name}: {moves:#?}\n{text}");
        assert!(
            moves.iter().all(|l| !l.trim_start().starts_with('(')),
            "{name}: {text}"
        );
    }
}

/// The bytes of a word that only `xor`, `or` and `and` read are read where the word is, as
/// `:ub` regions striding the dwords (isel `byte_fields`), as IGC reads a hash's bytes: no
/// shift or mask is left. Before, each byte took a shift and a mask (fnv1a_32: 247
/// instructions, now 183; IGC's 185).
#[test]
fn bytes_of_a_word_are_read_in_place() {
    for (name, k, text) in corpus_file("byte_hash.cl") {
        let k = &k;
        let masks: Vec<&str> = text
            .lines()
            .filter(|l| {
                let op = l.split_whitespace().find(|w| !w.starts_with('('));
                matches!(op, Some("and" | "shr")) && !l.contains("cr0")
            })
            .collect();
        assert!(masks.is_empty(), "{name}: {masks:#?}\n{text}");
        // Bytes 0 to 3 into the hash and byte 1 into the result, a group of lanes each.
        let bytes = text.lines().filter(|l| l.contains("<32;8,4>:ub")).count();
        assert_eq!(bytes, 5 * per_access(k), "{name}: {text}");
    }
}

/// A not that only logic operations read is their operand's `~` source modifier (isel
/// `logic_nots`); a not that something else reads too is selected (`tests/kernels/logic_not.cl`).
#[test]
fn a_not_that_only_logic_reads_is_a_source_modifier() {
    for (name, k, text) in corpus_file("logic_not.cl") {
        let k = &k;
        let op = |l: &str| {
            l.split_whitespace()
                .find(|w| !w.starts_with('('))
                .map(str::to_owned)
        };
        let modified: Vec<&str> = text
            .lines()
            .filter(|l| matches!(op(l).as_deref(), Some("and" | "or" | "xor")) && l.contains('~'))
            .collect();
        // `~e & g` and `f | ~y`, a group of lanes each.
        assert_eq!(modified.len(), 2 * per_access(k), "{name}: {text}");
        // `~y` stored as well: one not of its own (`xor` with all ones or `not`).
        let nots = text
            .lines()
            .filter(|l| {
                matches!(op(l).as_deref(), Some("not"))
                    || (op(l).as_deref() == Some("xor") && l.contains("0xFFFFFFFF"))
            })
            .count();
        assert_eq!(nots, per_access(k), "{name}: {text}");
    }
}

/// A loop-carried value that nothing after the loop reads is computed into its header
/// phi's register even where the latch also leaves the loop (`into_phis`: the register is
/// dead at the exit), as mandelbrot's `zi`: no copy an iteration. Before, a move for the
/// lanes that go round, predicated by the latch's exit test.
#[test]
fn a_loop_carried_value_dead_after_the_loop_is_computed_in_place() {
    // `orbit2`: `z`'s next value is read again in the latch after it is computed.
    let src = "kernel void orbit(global int *out, int n, int c) {
            int z = get_global_id(0);
            int it = 0;
            while (it < n && z < 1000) {
                z = (z ^ c) + 3;
                it++;
            }
            out[get_global_id(0)] = it;
        }
        kernel void orbit2(global int *out, int n, int c) {
            int z = get_global_id(0);
            int it = 0;
            while (it < n && z < 1000) {
                z = (z ^ c) + 3;
                it += 1 + (z & 1);
            }
            out[get_global_id(0)] = it;
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        // The loop: from the instruction after the first goto to its while.
        let body = text
            .split_once("goto")
            .and_then(|(_, rest)| rest.split_once("while"))
            .map_or("", |(b, _)| b);
        let copies: Vec<&str> = body
            .lines()
            .filter(|l| {
                let t = l.trim_start();
                // A per-lane value's copy (the exit's count is a scalar's).
                t.split_whitespace().any(|w| w == "mov") && t.contains("<8;8,1>")
            })
            .collect();
        assert!(copies.is_empty(), "{name}: {copies:#?}\n{text}");
    }
}

/// A byte or word load that only left shifts past its bits read (the first half of a
/// `char`'s sign extension) takes the data port's reply dword as it is (isel
/// `shifted_loads`): no mask. A `uchar`, read as it is, keeps the mask, and so does a `char`
/// that a shift by fewer bits also reads.
#[test]
fn a_byte_load_only_shifted_out_is_not_masked() {
    let src = "kernel void lt(global const char *a, global const char *b, global int *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] < b[i];
        }
        kernel void ult(global const uchar *a, global const uchar *b, global int *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] < b[i];
        }
        kernel void both(global const char *a, global int *o) {
            size_t i = get_global_id(0);
            char c = a[i];
            o[i] = c + (((int)(uchar)c) << 4);
        }";
    let ks = compile_each(CompileInput::OpenClC(src), "").unwrap();
    for (name, k) in &ks {
        let k = k.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = legal_text(name, &k.isa);
        let masks = text
            .lines()
            .filter(|l| {
                let op = l.split_whitespace().find(|w| !w.starts_with('('));
                op == Some("and") && (l.contains("0xFF:ud") || l.contains("0xFF:d"))
            })
            .count();
        let want = match name.as_str() {
            "lt" => 0,
            "ult" => 2,
            _ => 1,
        };
        assert_eq!(masks, want * per_access(k), "{name}: {text}");
    }
}
