//! The legality validator against code known to be legal: every kernel IGC
//! (ocloc) builds from the corpus tests/igc/*.cl, which runs on real
//! hardware, and gencl's generated single-instruction corpus.

mod common;

use gencl_isa::gen9::validate::{validate, validate_kernel, Rule};
use gencl_isa::gen9::{disasm, encode};

#[test]
fn igc_corpus_is_legal() {
    let dir = common::scratch("igc-validate");
    let kernels = common::igc_corpus(&dir);
    let total = kernels.len();
    let mut failures = Vec::new();
    for (name, heap) in &kernels {
        if let Err(e) = validate_kernel(heap) {
            failures.push(format!("{name}: {e}"));
        }
    }
    eprintln!("validated {total} IGC kernels");
    assert!(
        failures.is_empty(),
        "{} IGC kernels break a rule:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total >= 100, "only {total} IGC kernels");
}

/// The generated corpus is there to exercise the encoder, not to be legal:
/// these entries break rules for real (each checked against the PRM
/// sentence the rule quotes), and nothing else in it may fail.
const GENERATED_ILLEGAL: &[(&str, &[Rule])] = &[
    // Width 8 rows read by 1/2/4 channels (rule 1: ExecSize >= Width).
    (
        "add (1|M0) r10.0<1>:w r12.0<8;8,1>:w r14.0<8;8,1>:w",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "add (2|M0) r10.0<1>:w r12.0<8;8,1>:w r14.0<8;8,1>:w",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "add (4|M0) r10.0<1>:w r12.0<8;8,1>:w r14.0<8;8,1>:w",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "add (4|M4) r10.0<1>:w r12.0<8;8,1>:w r14.0<8;8,1>:w",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "add (4|M12) r10.0<1>:w r12.0<8;8,1>:w r14.0<8;8,1>:w",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "mov (4|M0) r10.0<1>:df r20.0<8;8,1>:df",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "mov (4|M0) r10.0<1>:q r20.0<8;8,1>:q",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "mov (4|M0) r10.0<1>:uq r20.0<8;8,1>:uq",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "add (4|M0) r30.0<1>:df r31.0<8;8,1>:df r32.0<0;1,0>:df",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "add (4|M0) r30.0<1>:q r31.0<8;8,1>:q r32.0<0;1,0>:q",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "mul (4|M0) r30.0<1>:df r31.0<8;8,1>:df r32.0<0;1,0>:df",
        &[Rule::ExecSizeGeWidth],
    ),
    (
        "shl (4|M0) r30.0<1>:q r31.0<8;8,1>:q r32.0<0;1,0>:q",
        &[Rule::ExecSizeGeWidth],
    ),
    // SIMD16 of a 64-bit type: 128 bytes, four GRFs.
    (
        "mov (16|M0) r12.0<1>:df r22.0<0;1,0>:df",
        &[Rule::DstSpan, Rule::ExecSizeTypeSize],
    ),
    (
        "mov (16|M0) r12.0<1>:q r22.0<0;1,0>:q",
        &[Rule::DstSpan, Rule::ExecSizeTypeSize],
    ),
    (
        "mov (16|M0) r12.0<1>:uq r22.0<0;1,0>:uq",
        &[Rule::DstSpan, Rule::ExecSizeTypeSize],
    ),
    // Eight dwords at a 2-dword stride from byte 8 end in a third GRF.
    (
        "mov (8|M0) r5.1<2>:d r4.2<16;8,2>:d",
        &[Rule::RowCrossesGrf, Rule::SrcSpan],
    ),
    // Eight floats at a 4-float stride: 128 bytes of destination.
    ("mov (8|M0) r5.0<4>:f -(abs)r4.0<8;8,1>:f", &[Rule::DstSpan]),
    // cmp without a condition; sel with neither predicate nor condition.
    (
        "cmp (8|M0) r30.0<1>:d r31.0<8;8,1>:d r32.0<0;1,0>:d",
        &[Rule::CmpCondMod],
    ),
    (
        "cmp (16|M16) r30.0<1>:d r31.4<0;1,0>:d 7:d",
        &[Rule::CmpCondMod],
    ),
    (
        "cmp (8|M0) r30.0<1>:f r31.0<8;8,1>:f r32.0<0;1,0>:f",
        &[Rule::CmpCondMod],
    ),
    (
        "cmp (16|M16) r30.0<1>:f r31.4<0;1,0>:f 3.0:f",
        &[Rule::CmpCondMod],
    ),
    (
        "cmp (8|M0) r30.0<1>:ud r31.0<8;8,1>:ud r32.0<0;1,0>:ud",
        &[Rule::CmpCondMod],
    ),
    (
        "cmp (16|M16) r30.0<1>:ud r31.4<0;1,0>:ud 0x7:ud",
        &[Rule::CmpCondMod],
    ),
    (
        "cmpn (8|M0) r30.0<1>:f r31.0<8;8,1>:f r32.0<0;1,0>:f",
        &[Rule::CmpCondMod],
    ),
    (
        "cmpn (16|M16) r30.0<1>:f r31.4<0;1,0>:f 3.0:f",
        &[Rule::CmpCondMod],
    ),
    (
        "sel (8|M0) r30.0<1>:d r31.0<8;8,1>:d r32.0<0;1,0>:d",
        &[Rule::SelPredOrCond],
    ),
    (
        "sel (16|M16) r30.0<1>:d r31.4<0;1,0>:d 7:d",
        &[Rule::SelPredOrCond],
    ),
    (
        "sel (8|M0) r30.0<1>:f r31.0<8;8,1>:f r32.0<0;1,0>:f",
        &[Rule::SelPredOrCond],
    ),
    (
        "sel (16|M16) r30.0<1>:f r31.4<0;1,0>:f 3.0:f",
        &[Rule::SelPredOrCond],
    ),
    // The SIMD16 csel of the corpus has no condition (its SIMD8 twin has .l).
    (
        "csel (16|M0) r40.2<1>:f r8.1<0;0>:f -r9.0<2;1>:f r10.0<0>:f",
        &[Rule::CselRules],
    ),
];

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn generated_corpus_is_legal_but_for_known_breaches() {
    let mut actual: Vec<(String, Vec<Rule>)> = Vec::new();
    let mut mismatch = Vec::new();
    for inst in common::corpus::corpus()
        .into_iter()
        .chain(common::corpus::branches())
    {
        let text = collapse(&disasm(&inst));
        let mut rules: Vec<Rule> = match validate(&inst) {
            Ok(()) => Vec::new(),
            Err(v) => v.iter().map(|v| v.rule()).collect(),
        };
        rules.dedup();
        // The same through the bytes: encode, then validate the kernel.
        let bytes = encode(&inst).expect("corpus encodes");
        let via_bytes: Vec<Rule> = match validate_kernel(&bytes) {
            Ok(()) => Vec::new(),
            Err(e) => {
                let mut r = e.rules();
                r.dedup();
                r
            }
        };
        if via_bytes != rules {
            mismatch.push(format!("{text}: {rules:?} vs encoded {via_bytes:?}"));
        }
        if !rules.is_empty() {
            actual.push((text, rules));
        }
    }
    assert!(mismatch.is_empty(), "{}", mismatch.join("\n"));
    let expected: Vec<(String, Vec<Rule>)> = GENERATED_ILLEGAL
        .iter()
        .map(|(t, r)| (t.to_string(), r.to_vec()))
        .collect();
    let mut a = actual.clone();
    let mut e = expected.clone();
    a.sort_by(|x, y| x.0.cmp(&y.0));
    e.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(
        a,
        e,
        "the generated corpus breaks other rules than expected; actual:\n{}",
        actual
            .iter()
            .map(|(t, r)| format!("    ({t:?}, &{r:?}),"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
