//! Holds the Gen9 encoder, decoder and disassembler to Intel's iga64:
//! for a generated corpus, (1) iga64 -d of our bytes prints our text,
//! (2) iga64 -a of our text gives our bytes, (3) decode(encode(x)) == x.
//! Plus ocloc-compiled kernels (with compacted instructions): our
//! disasm_kernel equals iga64 -d of the same heap.

mod common;

use common::corpus::{branches, corpus};
use gencl_isa::gen9::{self, disasm_kernel, encode};
use gencl_isa::*;

fn check_batch(insts: &[Inst], tag: &str) {
    let dir = common::scratch("iga");
    let mut bytes = Vec::new();
    for i in insts {
        let b = encode(i).unwrap_or_else(|e| panic!("encode {i:?}: {e}"));
        let (back, len) = gen9::decode(&b).unwrap_or_else(|e| panic!("decode {i:?}: {e}"));
        assert_eq!(len, 16);
        assert_eq!(&back, i, "decode(encode(x)) != x");
        bytes.extend_from_slice(&b);
    }
    let ours = disasm_kernel(&bytes).expect("our disasm");
    let theirs = common::iga_disasm(&bytes, &dir, tag);
    let (o, t) = (common::normalise(&ours), common::normalise(&theirs));
    let mut bad = Vec::new();
    for k in 0..o.len().max(t.len()) {
        let a = o.get(k).map(String::as_str).unwrap_or("<none>");
        let b = t.get(k).map(String::as_str).unwrap_or("<none>");
        if !common::same_line(a, b) {
            bad.push(format!("ours: {a}\niga : {b}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} lines differ from iga64 -d:\n{}",
        bad.len(),
        bad[..bad.len().min(25)].join("\n")
    );
    let asm = common::iga_asm(&ours, &dir, tag)
        .unwrap_or_else(|e| panic!("iga64 -a rejected our text: {e}"));
    let mut badb = Vec::new();
    for (k, i) in insts.iter().enumerate() {
        let a = &bytes[k * 16..k * 16 + 16];
        let b = asm.get(k * 16..k * 16 + 16).unwrap_or(&[]);
        if a != b {
            badb.push(format!(
                "{}\n  ours {:02x?}\n  iga  {:02x?}",
                o.get(k + 1).cloned().unwrap_or_default(),
                a,
                b
            ));
            let _ = i;
        }
    }
    assert_eq!(
        asm.len(),
        bytes.len(),
        "iga64 -a produced a different length"
    );
    assert!(
        badb.is_empty(),
        "{} encodings differ from iga64 -a:\n{}",
        badb.len(),
        badb[..badb.len().min(20)].join("\n")
    );
}

#[test]
fn corpus_matches_iga() {
    check_batch(&corpus(), "corpus");
}

#[test]
fn branches_match_iga() {
    check_batch(&branches(), "branches");
}

const KERNELS: &str = r#"
kernel void k(global float *a, global int *b, local int *l, float x) {
  int i = get_global_id(0);
  float v = a[i];
  if (v > 0.5f) v = sqrt(v) / x; else v = native_sin(v)*v + x;
  for (int j=0;j<b[0];j++) v += b[j] ^ j;
  l[get_local_id(0)] = (int)v;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&b[1], l[0]);
  a[i] = v + (b[i] >> 3) * mad(v, v, x) + (float)(b[i] % 7) + clz(b[i]) + popcount(b[i]);
}
kernel void vadd(global const long *x, global long *y, double s) {
  size_t i = get_global_id(0);
  y[i] = x[i] * 3 + (long)(s * x[i]);
}
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void h(global half *p, global uchar *c) {
  int i = get_global_id(0);
  p[i] = p[i] * (half)2.0f;
  c[i] = rotate(c[i], (uchar)3) | hadd(c[i], (uchar)7);
}
"#;

#[test]
fn ocloc_kernels_match_iga() {
    let dir = common::scratch("ocloc");
    let kernels = common::ocloc_kernels(KERNELS, &dir, "ks");
    assert!(kernels.len() >= 3);
    let mut compacted = 0;
    for (name, heap) in &kernels {
        let ours = disasm_kernel(heap).unwrap_or_else(|e| panic!("{name}: {e}"));
        compacted += ours.matches("{Compacted").count();
        let theirs = common::iga_disasm(heap, &dir, name);
        let (o, t) = (common::normalise(&ours), common::normalise(&theirs));
        let bad: Vec<String> = o
            .iter()
            .zip(t.iter())
            .filter(|(a, b)| !common::same_line(a, b))
            .map(|(a, b)| format!("ours: {a}\niga : {b}"))
            .collect();
        assert!(
            bad.is_empty(),
            "kernel {name}: {} lines differ:\n{}",
            bad.len(),
            bad[..bad.len().min(25)].join("\n")
        );
        assert_eq!(o.len(), t.len(), "kernel {name}: line counts differ");
    }
    assert!(
        compacted > 0,
        "expected compacted instructions in ocloc output"
    );
}
