//! The IR passes, tested as printed IR before and after (as Mesa's pass tests are), the
//! verifier's rules, and the verifier run after lowering and every pass on every kernel
//! of the corpora.

use gencl_jit::ir::{parse::parse, print::print, verify::verify};
use gencl_jit::passes;
use gencl_jit::{compile::compile_each, CompileInput};

/// Printed IR with values renumbered in order of first appearance: passes that create
/// values may number them differently from the expected text without being wrong.
fn canon(text: &str) -> String {
    let mut names: std::collections::HashMap<String, usize> = Default::default();
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut num = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            num.push(*d);
            chars.next();
        }
        let n = names.len();
        let k = *names.entry(num).or_insert(n);
        out.push_str(&format!("%{k}"));
    }
    out
}

/// Run `pass` on `before` and compare the printed result with `after` (up to value
/// numbering); both must verify.
fn check_pass(pass: fn(&mut gencl_jit::ir::Function), before: &str, after: &str) {
    let mut f = parse(before).unwrap_or_else(|e| panic!("before: {e}"));
    verify(&f).unwrap_or_else(|e| panic!("before does not verify: {e}"));
    pass(&mut f);
    verify(&f).unwrap_or_else(|e| panic!("after does not verify: {e}"));
    let want = parse(after).unwrap_or_else(|e| panic!("after: {e}"));
    let (got, want) = (canon(&print(&f)), canon(&print(&want)));
    assert_eq!(got, want, "\ngot:\n{got}\nwant:\n{want}");
}

#[test]
fn dce_removes_unused_pure_values_and_keeps_stores() {
    check_pass(
        passes::dce::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x3
           %3 = i32 bin mul %1, %2
           %4 = i32 bin add %3, %2
           %5 = i32 bin xor %4, %1
           store %0, %3, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x3
           %3 = i32 bin mul %1, %2
           store %0, %3, align 4, bytes 4
           ret",
    );
}

#[test]
fn dce_keeps_branch_conditions_and_phi_inputs() {
    let text = "kernel k(i32, ptr.global)
         bb0:
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %2 = i32 const 0x0
           %3 = bool cmp lt.s %0, %2
           br %3, bb1, bb2
         bb1:
           %4 = i32 bin sub %2, %0
           br bb2
         bb2:
           %5 = i32 phi [bb0: %0], [bb1: %4]
           store %1, %5, align 4, bytes 4
           ret";
    check_pass(passes::dce::run, text, text);
}

#[test]
fn pushed_args_turns_loads_from_a_byval_struct_into_pushed_reads() {
    check_pass(
        passes::pushed_args::run,
        "kernel k(ptr.global, ptr.private)
         bb0:
           %0 = ptr.global arg 0
           %1 = ptr.private arg_addr 1
           %2 = i64 const 0x8
           %3 = ptr.private ptradd %1, %2
           %4 = i32 load %3, align 4, bytes 1
           %5 = i64 load %1, align 8, bytes 8
           %6 = i64 const 0x4
           %7 = ptr.private ptradd %3, %6
           %8 = f32 load %7, align 4, bytes 4
           store %0, %4, align 4, bytes 4
           ret",
        "kernel k(ptr.global, ptr.private)
         bb0:
           %0 = ptr.global arg 0
           %1 = ptr.private arg_addr 1
           %2 = i64 const 0x8
           %3 = ptr.private ptradd %1, %2
           %4 = i32 arg_at 1, 8, 1
           %5 = i64 arg_at 1, 0, 8
           %6 = i64 const 0x4
           %7 = ptr.private ptradd %3, %6
           %8 = f32 arg_at 1, 12, 4
           store %0, %4, align 4, bytes 4
           ret",
    );
}

#[test]
fn pushed_args_moves_a_choice_of_addresses_to_the_values_read() {
    // `c ? t.a[0] : t.a[1]` as LLVM leaves it: a select of two addresses, and a phi of two
    // addresses after a branch. Both become the choice among pushed reads.
    check_pass(
        passes::pushed_args::run,
        "kernel k(ptr.global, ptr.private, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = ptr.private arg_addr 1
           %2 = i32 arg 2
           %3 = i32 const 0x0
           %4 = bool cmp eq %2, %3
           %5 = i64 const 0x4
           %6 = ptr.private ptradd %1, %5
           %7 = ptr.private select %4, %1, %6
           %8 = i32 load %7, align 4, bytes 4
           store %0, %8, align 4, bytes 4
           br %4, bb1, bb2
         bb1:
           br bb2
         bb2:
           %9 = ptr.private phi [bb0: %1], [bb1: %6]
           %10 = i32 const 0x1
           %11 = i32 load %9, align 4, bytes 4
           store %0, %11, align 4, bytes 4
           ret",
        "kernel k(ptr.global, ptr.private, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = ptr.private arg_addr 1
           %2 = i32 arg 2
           %3 = i32 const 0x0
           %4 = bool cmp eq %2, %3
           %5 = i64 const 0x4
           %6 = ptr.private ptradd %1, %5
           %7 = ptr.private select %4, %1, %6
           %12 = i32 arg_at 1, 0, 4
           %13 = i32 arg_at 1, 4, 4
           %8 = i32 select %4, %12, %13
           store %0, %8, align 4, bytes 4
           %14 = i32 arg_at 1, 0, 4
           %15 = i32 arg_at 1, 4, 4
           br %4, bb1, bb2
         bb1:
           br bb2
         bb2:
           %9 = ptr.private phi [bb0: %1], [bb1: %6]
           %11 = i32 phi [bb0: %14], [bb1: %15]
           %10 = i32 const 0x1
           store %0, %11, align 4, bytes 4
           ret",
    );
}

#[test]
fn pushed_args_leaves_run_time_indexing_alone() {
    let text = "kernel k(ptr.private, i64)
         bb0:
           %0 = ptr.private arg_addr 0
           %1 = i64 arg 1
           %2 = ptr.private ptradd %0, %1
           %3 = i32 load %2, align 4, bytes 4
           ret";
    check_pass(passes::pushed_args::run, text, text);
}

fn rejects(text: &str, why: &str) {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}"));
    let e = verify(&f).expect_err("the verifier accepted invalid IR");
    assert!(e.contains(why), "expected '{why}', got '{e}'");
}

#[test]
fn verifier_rules() {
    rejects(
        "kernel k(i32)
         bb0:
           %1 = i32 bin add %0, %0
           %0 = i32 arg 0
           ret",
        "does not dominate",
    );
    rejects(
        "kernel k(i32)
         bb0:
           %0 = i32 arg 0
           %1 = bool cmp eq %0, %0
           br %1, bb1, bb2
         bb1:
           %2 = i32 const 0x1
           br bb2
         bb2:
           %3 = i32 bin add %2, %0
           ret",
        "does not dominate",
    );
    rejects(
        "kernel k(i32)
         bb0:
           %0 = i32 arg 0
           br bb1
         bb1:
           %1 = i32 phi [bb0: %0], [bb1: %0]
           ret",
        "predecessors",
    );
    rejects(
        "kernel k(i32)
         bb0:
           %0 = i32 arg 0
           %1 = i32 load %0, align 4, bytes 4
           ret",
        "non-pointer",
    );
    rejects(
        "kernel k(i32, f32)
         bb0:
           %0 = i32 arg 0
           %1 = f32 arg 1
           %2 = i32 bin add %0, %1
           ret",
        "differ from the result type",
    );
    rejects(
        "kernel k(i32)
         bb0:
           %0 = i32 arg 0
           br bb1
         bb1:
           %1 = i32 const 0x1",
        "no terminator",
    );
}

/// Lowering and every pass leave verified IR on every kernel the corpora build, at -O2
/// and with -cl-opt-disable (a broken invariant is an internal error in the build log).
#[test]
fn every_corpus_kernel_verifies_after_each_pass() {
    // SAFETY-free in edition 2021: only turns verification on for this process.
    std::env::set_var("GENCL_VERIFY_IR", "1");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["tests/kernels", "tests/jit"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    for f in ["integer", "float", "fp64", "conversions", "control", "alu"] {
        files.push(root.join(format!("tests/igc/{f}.cl")));
    }
    let mut built = 0;
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
    {
        let src = std::fs::read_to_string(path).unwrap();
        for opts in ["-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"] {
            let ks = compile_each(CompileInput::OpenClC(&src), opts)
                .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.log));
            for (name, k) in ks {
                match k {
                    Ok(_) => built += 1,
                    Err(e) => assert!(
                        !e.contains("internal compiler error"),
                        "{} {name} [{opts}]: {e}",
                        path.display()
                    ),
                }
            }
        }
    }
    assert!(built > 100, "only {built} kernels built");
}

/// The printed form reads back to the same function.
#[test]
fn printed_ir_reads_back() {
    let text = "kernel k(ptr.global, f32, i64)
         bb0:
           %0 = ptr.global arg 0
           %1 = f32 arg 1
           %2 = i32 builtin GlobalId 0
           %3 = f32 conv_round stof rtz %2
           %4 = f32 mad %1, %3, %1
           %5 = bool cmp foeq %4, %1
           %6 = f32 select %5, %4, %3
           %7 = i32 un clz %2
           %8 = i32 arg_at 1, 0, 2
           br %5, bb1, bb2
         bb1:
           br bb2
         bb2:
           %9 = f32 phi [bb0: %6], [bb1: %4]
           store %0, %9, align 4, bytes 4
           barrier
           ret";
    let f = parse(text).unwrap();
    let printed = print(&f);
    assert_eq!(print(&parse(&printed).unwrap()), printed);
    assert!(
        printed.contains("%3 = f32 conv_round stof rtz %2"),
        "{printed}"
    );
}

#[test]
fn mem2reg_promotes_a_variable_across_a_diamond_with_a_phi() {
    check_pass(
        passes::mem2reg::run,
        "kernel k(i32, ptr.global)
         bb0:
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %2 = ptr.private alloca 4, align 4
           %3 = i32 const 0x7
           store %2, %3, align 4, bytes 4
           %4 = i32 const 0x0
           %5 = bool cmp lt.s %0, %4
           br %5, bb1, bb2
         bb1:
           store %2, %0, align 4, bytes 4
           br bb2
         bb2:
           %6 = i32 load %2, align 4, bytes 4
           store %1, %6, align 4, bytes 4
           ret",
        "kernel k(i32, ptr.global)
         bb0:
           %8 = i32 const 0x0
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %3 = i32 const 0x7
           %4 = i32 const 0x0
           %5 = bool cmp lt.s %0, %4
           br %5, bb1, bb2
         bb1:
           br bb2
         bb2:
           %7 = i32 phi [bb0: %3], [bb1: %0]
           store %1, %7, align 4, bytes 4
           ret",
    );
}

#[test]
fn mem2reg_splits_a_struct_into_fields_and_keeps_loop_values() {
    // A two-field variable updated in a loop: one phi per field at the header.
    check_pass(
        passes::mem2reg::run,
        "kernel k(i32, ptr.global)
         bb0:
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %2 = ptr.private alloca 8, align 4
           %3 = i64 const 0x4
           %4 = ptr.private ptradd %2, %3
           %5 = i32 const 0x0
           %6 = f32 const 0x3f800000
           store %2, %5, align 4, bytes 4
           store %4, %6, align 4, bytes 4
           br bb1
         bb1:
           %7 = i32 load %2, align 4, bytes 4
           %8 = f32 load %4, align 4, bytes 4
           %9 = i32 const 0x1
           %10 = i32 bin add %7, %9
           %11 = f32 bin fadd %8, %8
           store %2, %10, align 4, bytes 4
           store %4, %11, align 4, bytes 4
           %12 = bool cmp lt.s %10, %0
           br %12, bb1, bb2
         bb2:
           %13 = f32 load %4, align 4, bytes 4
           store %1, %13, align 4, bytes 4
           ret",
        "kernel k(i32, ptr.global)
         bb0:
           %16 = i32 const 0x0
           %17 = f32 const 0x0
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %3 = i64 const 0x4
           %5 = i32 const 0x0
           %6 = f32 const 0x3f800000
           br bb1
         bb1:
           %14 = i32 phi [bb0: %5], [bb1: %10]
           %15 = f32 phi [bb0: %6], [bb1: %11]
           %9 = i32 const 0x1
           %10 = i32 bin add %14, %9
           %11 = f32 bin fadd %15, %15
           %12 = bool cmp lt.s %10, %0
           br %12, bb1, bb2
         bb2:
           store %1, %11, align 4, bytes 4
           ret",
    );
}

#[test]
fn mem2reg_promotes_a_variable_reached_through_a_generic_pointer() {
    // OpenCL 2.0's `atomic_compare_exchange_strong(p, &expected, v)`: `expected` is read
    // and written back through a generic pointer. Left in memory, it became a register
    // array read through a0 on every round of the CTS's compare-exchange loops.
    check_pass(
        passes::mem2reg::run,
        "kernel k(ptr.local, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = i32 arg 1
           %2 = ptr.private alloca 4, align 4
           store %2, %1, align 4, bytes 4
           %3 = ptr.generic conv togeneric %2
           %4 = i32 load %3, align 4, bytes 4
           %5 = i32 cmpxchg %0, %4, %1
           store %3, %5, align 4, bytes 4
           %6 = i32 load %2, align 4, bytes 4
           store %0, %6, align 4, bytes 4
           ret",
        "kernel k(ptr.local, i32)
         bb0:
           %7 = i32 const 0x0
           %0 = ptr.local arg 0
           %1 = i32 arg 1
           %5 = i32 cmpxchg %0, %1, %1
           store %0, %5, align 4, bytes 4
           ret",
    );
}

#[test]
fn mem2reg_leaves_a_variable_whose_generic_address_escapes() {
    // The generic pointer itself is stored: the variable can be reached from elsewhere.
    let text = "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = ptr.private alloca 4, align 4
           store %2, %1, align 4, bytes 4
           %3 = ptr.generic conv togeneric %2
           store %0, %3, align 8, bytes 8
           %4 = i32 load %3, align 4, bytes 4
           ret";
    check_pass(passes::mem2reg::run, text, text);
}

#[test]
fn disjoint_or_makes_adds_and_moves_extensions_inside() {
    // `(l << 1) | 1` is `(l << 1) + 1`; its sign extension is the extension plus 1. An `or`
    // whose constant reaches a bit the other operand may have set stays an `or`.
    check_pass(
        passes::disjoint_or::run,
        "kernel k(i32, ptr.global)
         bb0:
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %2 = i32 const 0x1
           %3 = i32 bin shl %0, %2
           %4 = i32 bin or %3, %2
           %5 = i64 conv sext %4
           %6 = ptr.global ptradd %1, %5
           store %6, %0, align 4, bytes 4
           %7 = i32 const 0x3
           %8 = i32 bin or %3, %7
           store %6, %8, align 4, bytes 4
           ret",
        "kernel k(i32, ptr.global)
         bb0:
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %2 = i32 const 0x1
           %3 = i32 bin shl %0, %2
           %4 = i32 bin add %3, %2
           %9 = i64 conv sext %3
           %10 = i64 const 0x1
           %11 = i64 bin add %9, %10
           %5 = i64 conv sext %4
           %6 = ptr.global ptradd %1, %11
           store %6, %0, align 4, bytes 4
           %7 = i32 const 0x3
           %8 = i32 bin or %3, %7
           store %6, %8, align 4, bytes 4
           ret",
    );
}

#[test]
fn mem2reg_leaves_a_variable_indexed_at_run_time() {
    let text = "kernel k(i64)
         bb0:
           %0 = i64 arg 0
           %1 = ptr.private alloca 16, align 4
           %2 = ptr.private ptradd %1, %0
           %3 = i32 const 0x1
           store %2, %3, align 4, bytes 4
           %4 = i32 load %1, align 4, bytes 4
           ret";
    check_pass(passes::mem2reg::run, text, text);
}

#[test]
fn constfold_folds_integers_and_identities_but_not_floats() {
    check_pass(
        passes::constfold::run,
        "kernel k(ptr.global, i32, f32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = f32 arg 2
           %3 = i32 const 0x6
           %4 = i32 const 0x7
           %5 = i32 bin mul %3, %4
           %6 = i32 const 0x0
           %7 = i32 bin add %1, %6
           %8 = i32 bin xor %7, %5
           %9 = bool cmp lt.s %3, %4
           %10 = i32 select %9, %8, %1
           %11 = f32 const 0x3f800000
           %12 = f32 bin fadd %11, %11
           %13 = i32 const 0xffffffff
           %14 = i64 conv sext %13
           store %0, %10, align 4, bytes 4
           store %0, %12, align 4, bytes 4
           store %0, %14, align 8, bytes 8
           ret",
        "kernel k(ptr.global, i32, f32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = f32 arg 2
           %3 = i32 const 0x6
           %4 = i32 const 0x7
           %5 = i32 const 0x2a
           %6 = i32 const 0x0
           %8 = i32 bin xor %1, %5
           %9 = bool const 0xffffffff
           %11 = f32 const 0x3f800000
           %12 = f32 bin fadd %11, %11
           %13 = i32 const 0xffffffff
           %14 = i64 const 0xffffffffffffffff
           store %0, %8, align 4, bytes 4
           store %0, %12, align 4, bytes 4
           store %0, %14, align 8, bytes 8
           ret",
    );
}

#[test]
fn cse_reuses_dominating_expressions_only() {
    // %5 repeats %3 in a block %3 dominates: it goes. %8 in bb1 and %10 in bb2 compute the
    // same, but neither block dominates the other: both stay. Loads are never merged.
    check_pass(
        passes::cse::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x3
           %3 = i32 bin mul %1, %2
           %4 = bool cmp lt.s %3, %2
           br %4, bb1, bb2
         bb1:
           %5 = i32 bin mul %1, %2
           %6 = i32 load %0, align 4, bytes 4
           %7 = i32 load %0, align 4, bytes 4
           %8 = i32 bin add %5, %6
           store %0, %8, align 4, bytes 4
           store %0, %7, align 4, bytes 4
           br bb3
         bb2:
           %10 = i32 bin add %3, %3
           store %0, %10, align 4, bytes 4
           br bb3
         bb3:
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x3
           %3 = i32 bin mul %1, %2
           %4 = bool cmp lt.s %3, %2
           br %4, bb1, bb2
         bb1:
           %6 = i32 load %0, align 4, bytes 4
           %7 = i32 load %0, align 4, bytes 4
           %8 = i32 bin add %3, %6
           store %0, %8, align 4, bytes 4
           store %0, %7, align 4, bytes 4
           br bb3
         bb2:
           %10 = i32 bin add %3, %3
           store %0, %10, align 4, bytes 4
           br bb3
         bb3:
           ret",
    );
}

#[test]
fn simplify_cfg_follows_constant_branches_and_joins_straight_lines() {
    // bb0 branches on a constant: bb2 becomes unreachable and leaves bb3's phi, whose one
    // remaining input then stands for it when bb1 and bb3 join bb0.
    check_pass(
        passes::simplify_cfg::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = bool const 0xffffffff
           br %2, bb1, bb2
         bb1:
           %3 = i32 const 0x1
           %4 = i32 bin add %1, %3
           br bb3
         bb2:
           %5 = i32 const 0x2
           br bb3
         bb3:
           %6 = i32 phi [bb1: %4], [bb2: %5]
           store %0, %6, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = bool const 0xffffffff
           %3 = i32 const 0x1
           %4 = i32 bin add %1, %3
           store %0, %4, align 4, bytes 4
           ret
         bb1:
         bb2:
         bb3:",
    );
}

/// A generic pointer that is a local pointer on every path, through a loop's phi and its
/// address arithmetic, becomes a local pointer; one that is global on one path and local on
/// the other stays generic, and what flows into it is cast back to generic on each edge, so
/// that `generic_pointers` tags it (its accesses then switch at run time).
#[test]
fn address_spaces_resolves_what_every_path_agrees_on() {
    check_pass(
        passes::address_spaces::run,
        "kernel k(ptr.local, ptr.global, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = ptr.global arg 1
           %2 = i32 arg 2
           %3 = i64 const 0x4
           %4 = i32 const 0x0
           %5 = bool cmp lt.s %2, %4
           br %5, bb1, bb2
         bb1:
           %6 = ptr.generic phi [bb0: %0], [bb1: %7]
           %7 = ptr.generic ptradd %6, %3
           %8 = i32 load %7, align 4, bytes 4
           br %5, bb1, bb2
         bb2:
           %9 = ptr.generic phi [bb0: %1], [bb1: %7]
           %10 = i32 load %9, align 4, bytes 4
           ret",
        "kernel k(ptr.local, ptr.global, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = ptr.global arg 1
           %2 = i32 arg 2
           %3 = i64 const 0x4
           %4 = i32 const 0x0
           %5 = bool cmp lt.s %2, %4
           %6 = ptr.generic conv togeneric %1
           br %5, bb1, bb2
         bb1:
           %7 = ptr.local phi [bb0: %0], [bb1: %8]
           %8 = ptr.local ptradd %7, %3
           %9 = i32 load %8, align 4, bytes 4
           %10 = ptr.generic conv togeneric %8
           br %5, bb1, bb2
         bb2:
           %11 = ptr.generic phi [bb0: %6], [bb1: %10]
           %12 = i32 load %11, align 4, bytes 4
           ret",
    );
}

/// A variable mem2reg cannot promote gets its place in the private area: the base once in
/// the entry block, the variable its offset from it.
#[test]
fn private_memory_places_what_stays_in_memory() {
    check_pass(
        passes::private_memory::run,
        "kernel k(i32)
         bb0:
           %0 = i32 arg 0
           %1 = ptr.private alloca 12, align 4
           %2 = ptr.private alloca 8, align 8
           %3 = i64 conv zext %0
           %4 = ptr.private ptradd %2, %3
           store %4, %0, align 4, bytes 4
           ret",
        "kernel k(i32)
         bb0:
           %5 = ptr.private private_base
           %6 = i64 const 0x0
           %7 = i64 const 0x10
           %0 = i32 arg 0
           %1 = ptr.private ptradd %5, %6
           %2 = ptr.private ptradd %5, %7
           %3 = i64 conv zext %0
           %4 = ptr.private ptradd %2, %3
           store %4, %0, align 4, bytes 4
           ret",
    );
}

/// `private_registers`: small arrays read and written only as elements of one size (dwords
/// through an offset and a pointer cast; a qword) go to registers, at the top of the entry
/// block; one accessed with two sizes, one too large and one whose address is stored stay
/// allocas for private memory.
#[test]
fn private_registers_keeps_small_element_arrays_in_registers() {
    check_pass(
        passes::private_registers::run,
        "kernel k(i32, ptr.global)
         bb0:
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %2 = i64 conv zext %0
           %3 = ptr.private alloca 32, align 4
           %4 = ptr.private conv bitcast %3
           %5 = ptr.private ptradd %4, %2
           store %5, %0, align 4, bytes 4
           %6 = i32 load %3, align 4, bytes 4
           %7 = ptr.private alloca 16, align 8
           store %7, %1, align 8, bytes 8
           %8 = ptr.private alloca 16, align 4
           store %8, %0, align 4, bytes 4
           %9 = ptr.private ptradd %8, %2
           %10 = i64 load %9, align 8, bytes 8
           %11 = ptr.private alloca 128, align 4
           %12 = ptr.private ptradd %11, %2
           store %12, %6, align 4, bytes 4
           %13 = ptr.private alloca 8, align 8
           store %1, %13, align 8, bytes 8
           ret",
        "kernel k(i32, ptr.global)
         bb0:
           %3 = ptr.private reg_array 32, elem 4
           %7 = ptr.private reg_array 16, elem 8
           %0 = i32 arg 0
           %1 = ptr.global arg 1
           %2 = i64 conv zext %0
           %4 = ptr.private conv bitcast %3
           %5 = ptr.private ptradd %4, %2
           store %5, %0, align 4, bytes 4
           %6 = i32 load %3, align 4, bytes 4
           store %7, %1, align 8, bytes 8
           %8 = ptr.private alloca 16, align 4
           store %8, %0, align 4, bytes 4
           %9 = ptr.private ptradd %8, %2
           %10 = i64 load %9, align 8, bytes 8
           %11 = ptr.private alloca 128, align 4
           %12 = ptr.private ptradd %11, %2
           store %12, %6, align 4, bytes 4
           %13 = ptr.private alloca 8, align 8
           store %1, %13, align 8, bytes 8
           ret",
    );
}

/// `narrow`: the low and high halves of a 32×32 product written in 64 bits (Random123's
/// Philox, `mul_hi` in C) become a 32-bit `mul` and a `mulhi`; a mixed-sign product and a
/// shift by other than 32 stay 64-bit; the 64-bit values are left for dce.
#[test]
fn narrow_does_64_bit_products_read_in_32_bits_in_32_bits() {
    check_pass(
        passes::narrow::run,
        "kernel k(ptr.global, i32, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 arg 2
           %3 = i64 conv zext %1
           %4 = i64 const 0xd2511f53
           %5 = i64 bin mul %3, %4
           %6 = i64 const 0x20
           %7 = i64 bin lshr %5, %6
           %8 = i32 conv trunc %7
           %9 = i32 conv trunc %5
           %10 = i64 conv sext %1
           %11 = i64 conv sext %2
           %12 = i64 bin mul %10, %11
           %13 = i64 bin ashr %12, %6
           %14 = i32 conv trunc %13
           %15 = i64 bin mul %3, %11
           %16 = i64 bin lshr %15, %6
           %17 = i32 conv trunc %16
           %18 = i64 const 0x1f
           %19 = i64 bin lshr %5, %18
           %20 = i32 conv trunc %19
           %21 = i64 bin add %3, %11
           %22 = i32 conv trunc %21
           store %0, %8, align 4, bytes 4
           store %0, %9, align 4, bytes 4
           store %0, %14, align 4, bytes 4
           store %0, %17, align 4, bytes 4
           store %0, %20, align 4, bytes 4
           store %0, %22, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 arg 2
           %3 = i64 conv zext %1
           %4 = i64 const 0xd2511f53
           %5 = i64 bin mul %3, %4
           %6 = i64 const 0x20
           %7 = i64 bin lshr %5, %6
           %23 = i32 const 0xd2511f53
           %8 = i32 bin mulhi.u %1, %23
           %24 = i32 const 0xd2511f53
           %9 = i32 bin mul %1, %24
           %10 = i64 conv sext %1
           %11 = i64 conv sext %2
           %12 = i64 bin mul %10, %11
           %13 = i64 bin ashr %12, %6
           %14 = i32 bin mulhi.s %1, %2
           %15 = i64 bin mul %3, %11
           %16 = i64 bin lshr %15, %6
           %17 = i32 conv trunc %16
           %18 = i64 const 0x1f
           %19 = i64 bin lshr %5, %18
           %20 = i32 conv trunc %19
           %21 = i64 bin add %3, %11
           %22 = i32 bin add %1, %2
           store %0, %8, align 4, bytes 4
           store %0, %9, align 4, bytes 4
           store %0, %14, align 4, bytes 4
           store %0, %17, align 4, bytes 4
           store %0, %20, align 4, bytes 4
           store %0, %22, align 4, bytes 4
           ret",
    );
}

/// `narrow`: a shift below 32 of a value extended the way the shift fills, read in 32 bits,
/// is the 32-bit shift (`(int)(get_local_size(0) / 2)`); an extension read back in its own
/// width is the value itself (`int l = get_local_id(0)`). A logical shift of a sign-extended
/// value (its high bits reach the low word) and a shift by 32 or more stay.
#[test]
fn narrow_shifts_extended_values_and_drops_round_trips() {
    check_pass(
        passes::narrow::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i64 conv zext %1
           %3 = i64 const 0x1
           %4 = i64 bin lshr %2, %3
           %5 = i32 conv trunc %4
           %6 = i64 conv sext %1
           %7 = i64 bin ashr %6, %3
           %8 = i32 conv trunc %7
           %9 = i64 bin lshr %6, %3
           %10 = i32 conv trunc %9
           %11 = i64 const 0x21
           %12 = i64 bin lshr %2, %11
           %13 = i32 conv trunc %12
           %14 = i32 conv trunc %2
           %15 = i32 conv trunc %6
           store %0, %5, align 4, bytes 4
           store %0, %8, align 4, bytes 4
           store %0, %10, align 4, bytes 4
           store %0, %13, align 4, bytes 4
           store %0, %14, align 4, bytes 4
           store %0, %15, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i64 conv zext %1
           %3 = i64 const 0x1
           %4 = i64 bin lshr %2, %3
           %16 = i32 const 0x1
           %5 = i32 bin lshr %1, %16
           %6 = i64 conv sext %1
           %7 = i64 bin ashr %6, %3
           %17 = i32 const 0x1
           %8 = i32 bin ashr %1, %17
           %9 = i64 bin lshr %6, %3
           %10 = i32 conv trunc %9
           %11 = i64 const 0x21
           %12 = i64 bin lshr %2, %11
           %13 = i32 conv trunc %12
           %14 = i32 conv trunc %2
           %15 = i32 conv trunc %6
           store %0, %5, align 4, bytes 4
           store %0, %8, align 4, bytes 4
           store %0, %10, align 4, bytes 4
           store %0, %13, align 4, bytes 4
           store %0, %1, align 4, bytes 4
           store %0, %1, align 4, bytes 4
           ret",
    );
}

/// `strength`: division and remainder by a power of two as shifts and masks (the signed
/// forms biased toward zero), a 64-bit product by one as a shift; a divisor that is not a
/// power of two stays.
#[test]
fn strength_makes_power_of_two_division_shifts() {
    check_pass(
        passes::strength::run,
        "kernel k(ptr.global, i64, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 arg 1
           %2 = i32 arg 2
           %3 = i64 const 0x100000000
           %4 = i64 bin div.s %1, %3
           %5 = i32 const 0x8
           %6 = i32 bin rem.s %2, %5
           %7 = i32 bin div.u %2, %5
           %8 = i32 bin rem.u %2, %5
           %9 = i64 bin mul %1, %3
           %10 = i32 const 0x6
           %11 = i32 bin div.s %2, %10
           store %0, %4, align 8, bytes 8
           store %0, %6, align 4, bytes 4
           store %0, %7, align 4, bytes 4
           store %0, %8, align 4, bytes 4
           store %0, %9, align 8, bytes 8
           store %0, %11, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i64, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 arg 1
           %2 = i32 arg 2
           %3 = i64 const 0x100000000
           %12 = i64 const 0x3f
           %13 = i64 bin ashr %1, %12
           %14 = i64 const 0x20
           %15 = i64 bin lshr %13, %14
           %16 = i64 bin add %1, %15
           %17 = i64 const 0x20
           %4 = i64 bin ashr %16, %17
           %5 = i32 const 0x8
           %18 = i32 const 0x1f
           %19 = i32 bin ashr %2, %18
           %20 = i32 const 0x1d
           %21 = i32 bin lshr %19, %20
           %22 = i32 bin add %2, %21
           %23 = i32 const 0xfffffff8
           %24 = i32 bin and %22, %23
           %6 = i32 bin sub %2, %24
           %25 = i32 const 0x3
           %7 = i32 bin lshr %2, %25
           %26 = i32 const 0x7
           %8 = i32 bin and %2, %26
           %27 = i64 const 0x20
           %9 = i64 bin shl %1, %27
           %10 = i32 const 0x6
           %11 = i32 bin div.s %2, %10
           store %0, %4, align 8, bytes 8
           store %0, %6, align 4, bytes 4
           store %0, %7, align 4, bytes 4
           store %0, %8, align 4, bytes 4
           store %0, %9, align 8, bytes 8
           store %0, %11, align 4, bytes 4
           ret",
    );
}

/// What stays generic is tagged and switched at run time: a local pointer cast to generic
/// takes tag 010 over its SLM offset, a private one its address in the scratch space with
/// tag 001; a load through the generic pointer becomes a branch on the tag to an SLM load
/// (the low 32 bits) and an A64 load (the address made canonical), joined by a phi under
/// the load's own number; to_local is the tag check and NULL otherwise.
#[test]
fn generic_pointers_tag_casts_and_switch_accesses() {
    check_pass(
        passes::generic_pointers::run,
        "kernel k(ptr.local, bool)
         bb0:
           %0 = ptr.local arg 0
           %1 = bool arg 1
           %2 = ptr.private private_base
           %3 = ptr.generic conv togeneric %0
           %4 = ptr.generic conv togeneric %2
           %5 = ptr.generic select %1, %3, %4
           %6 = i32 load %5, align 4, bytes 4
           %7 = ptr.local conv fromgeneric %5
           store %7, %6, align 4, bytes 4
           ret",
        "kernel k(ptr.local, bool)
         bb0:
           %0 = ptr.local arg 0
           %1 = bool arg 1
           %2 = ptr.private private_base
           %3 = i64 conv bitcast %0
           %4 = i64 const 0x4000000000000000
           %5 = i64 bin or %3, %4
           %6 = ptr.generic conv bitcast %5
           %7 = i64 conv bitcast %2
           %8 = ptr.global scratch_base
           %9 = i64 conv bitcast %8
           %10 = i64 bin add %7, %9
           %11 = i64 const 0x2000000000000000
           %12 = i64 bin or %10, %11
           %13 = ptr.generic conv bitcast %12
           %14 = ptr.generic select %1, %6, %13
           %15 = i64 conv bitcast %14
           %16 = i64 const 0x3d
           %17 = i64 bin lshr %15, %16
           %18 = i64 const 0x2
           %19 = bool cmp eq %17, %18
           %20 = i64 const 0xffffffff
           %21 = i64 bin and %15, %20
           %22 = i64 const 0xfffffffffffffff
           %23 = i64 bin and %15, %22
           %24 = i64 const 0x4
           %25 = i64 bin shl %15, %24
           %26 = i64 const 0xf000000000000000
           %27 = i64 bin and %25, %26
           %28 = i64 bin or %23, %27
           br %19, bb2, bb3
         bb1:
           %29 = i32 phi [bb2: %30], [bb3: %31]
           %32 = i64 conv bitcast %14
           %33 = i64 const 0x3d
           %34 = i64 bin lshr %32, %33
           %35 = i64 const 0x2
           %36 = bool cmp eq %34, %35
           %37 = i64 const 0xffffffff
           %38 = i64 bin and %32, %37
           %39 = i64 const 0x0
           %40 = i64 select %36, %38, %39
           %41 = ptr.local conv bitcast %40
           store %41, %29, align 4, bytes 4
           ret
         bb2:
           %42 = ptr.local conv bitcast %21
           %30 = i32 load %42, align 4, bytes 4
           br bb1
         bb3:
           %43 = ptr.global conv bitcast %28
           %31 = i32 load %43, align 4, bytes 4
           br bb1",
    );
}

/// Image reads are memory reads: CSE merges none of them (a read_write image's texel can
/// change between two reads), DCE drops one nobody uses, and an image write stays.
#[test]
fn image_reads_are_not_merged_and_writes_stay() {
    let before = "kernel k(i64, i64)
         bb0:
           %0 = i32 builtin GlobalId 0
           %1 = f32 image_load 0, channel 0, [%0, %0]
           %2 = f32 image_load 0, channel 0, [%0, %0]
           %3 = f32 image_load 0, channel 1, [%0, %0]
           %4 = f32 bin fadd %1, %2
           %5 = i32 image_param 0, ImageWidth
           %6 = i32 image_param 0, ImageWidth
           %7 = i32 bin add %5, %6
           %8 = f32 conv stof %7
           image_write 1, [%0, %0], [%4, %8, %4, %4]
           ret";
    check_pass(
        passes::cse::run,
        before,
        "kernel k(i64, i64)
         bb0:
           %0 = i32 builtin GlobalId 0
           %1 = f32 image_load 0, channel 0, [%0, %0]
           %2 = f32 image_load 0, channel 0, [%0, %0]
           %3 = f32 image_load 0, channel 1, [%0, %0]
           %4 = f32 bin fadd %1, %2
           %5 = i32 image_param 0, ImageWidth
           %7 = i32 bin add %5, %5
           %8 = f32 conv stof %7
           image_write 1, [%0, %0], [%4, %8, %4, %4]
           ret",
    );
    check_pass(
        passes::dce::run,
        before,
        "kernel k(i64, i64)
         bb0:
           %0 = i32 builtin GlobalId 0
           %1 = f32 image_load 0, channel 0, [%0, %0]
           %2 = f32 image_load 0, channel 0, [%0, %0]
           %4 = f32 bin fadd %1, %2
           %5 = i32 image_param 0, ImageWidth
           %6 = i32 image_param 0, ImageWidth
           %7 = i32 bin add %5, %6
           %8 = f32 conv stof %7
           image_write 1, [%0, %0], [%4, %8, %4, %4]
           ret",
    );
    // The sampler form prints and parses back; the verifier wants F32 coordinates there.
    let s = "kernel k(i64, i64)
         bb0:
           %0 = f32 const 0x3f000000
           %1 = f32 image_sample 0, sampler 1, channel 3, [%0, %0, %0]
           ret";
    let f = parse(s).unwrap();
    verify(&f).unwrap();
    assert_eq!(print(&parse(&print(&f)).unwrap()), print(&f));
    let bad = s.replace("%0 = f32 const 0x3f000000", "%0 = i32 const 1");
    assert!(verify(&parse(&bad).unwrap()).is_err());
}

/// cl_intel_subgroups' image block reads are memory reads too: CSE merges none (a write
/// between changes the row), DCE drops one nobody uses, and a block write stays.
#[test]
fn image_block_reads_are_not_merged_and_writes_stay() {
    let before = "kernel k(i64, i64)
         bb0:
           %0 = i32 const 0
           %1 = i32 image_block_read 0, [%0, %0]
           image_block_write 0, [%0, %0], [%1]
           %2 = i32 image_block_read 0, [%0, %0]
           %3 = i32 image_block_read 0, [%0, %0]
           image_block_write 1, [%0, %0], [%2]
           ret";
    check_pass(passes::cse::run, before, before);
    check_pass(
        passes::dce::run,
        before,
        "kernel k(i64, i64)
         bb0:
           %0 = i32 const 0
           %1 = i32 image_block_read 0, [%0, %0]
           image_block_write 0, [%0, %0], [%1]
           %2 = i32 image_block_read 0, [%0, %0]
           image_block_write 1, [%0, %0], [%2]
           ret",
    );
    let f = parse(before).unwrap();
    verify(&f).unwrap();
    assert_eq!(print(&parse(&print(&f)).unwrap()), print(&f));
    let bad = before.replace("%0 = i32 const 0", "%0 = f32 const 0");
    assert!(verify(&parse(&bad).unwrap()).is_err());
}

/// Run `pass` on `before` and return the printed result (for tests that check a property
/// of the result rather than its whole text).
fn run_pass(pass: fn(&mut gencl_jit::ir::Function), before: &str) -> String {
    let mut f = parse(before).unwrap_or_else(|e| panic!("before: {e}"));
    verify(&f).unwrap_or_else(|e| panic!("before does not verify: {e}"));
    pass(&mut f);
    verify(&f).unwrap_or_else(|e| panic!("after does not verify: {e}"));
    print(&f)
}

#[test]
fn unroll_turns_a_counted_loop_into_folded_straight_code() {
    // acc += (i == 1 ? 5 : i) for i in 0..3, then acc and the counter read after the loop:
    // the copies fold to acc + 5 + 2 and the counter's last value, 3.
    check_pass(
        passes::unroll::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = i32 const 0x1
           %4 = i32 const 0x3
           %5 = i32 const 0x5
           br bb1
         bb1:
           %6 = i32 phi [bb0: %2], [bb1: %10]
           %7 = i32 phi [bb0: %1], [bb1: %9]
           %8 = bool cmp eq %6, %3
           %11 = i32 select %8, %5, %6
           %9 = i32 bin add %7, %11
           %10 = i32 bin add %6, %3
           %12 = bool cmp lt.u %10, %4
           br %12, bb1, bb2
         bb2:
           %13 = i32 bin add %9, %10
           store %0, %13, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %5 = i32 const 0x5
           %6 = i32 bin add %1, %5
           %4 = i32 const 0x2
           %7 = i32 bin add %6, %4
           %8 = i32 const 0x3
           %9 = i32 bin add %7, %8
           store %0, %9, align 4, bytes 4
           ret
         bb1:
           unterminated
         bb2:
           unterminated
         bb3:
           unterminated
         bb4:
           unterminated
         bb5:
           unterminated",
    );
}

#[test]
fn unroll_handles_a_loop_tested_at_its_header() {
    // while (i < 2) { acc = acc * 3; i++; }: the header runs three times, the body twice.
    check_pass(
        passes::unroll::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = i32 const 0x1
           %4 = i32 const 0x2
           %5 = i32 const 0x3
           br bb1
         bb1:
           %6 = i32 phi [bb0: %2], [bb2: %9]
           %7 = i32 phi [bb0: %1], [bb2: %8]
           %10 = bool cmp lt.s %6, %4
           br %10, bb2, bb3
         bb2:
           %8 = i32 bin mul %7, %5
           %9 = i32 bin add %6, %3
           br bb1
         bb3:
           store %0, %7, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %5 = i32 const 0x3
           %8 = i32 bin mul %1, %5
           %9 = i32 bin mul %8, %5
           store %0, %9, align 4, bytes 4
           ret
         bb1:
           unterminated
         bb2:
           unterminated
         bb3:
           unterminated
         bb4:
           unterminated
         bb5:
           unterminated
         bb6:
           unterminated
         bb7:
           unterminated
         bb8:
           unterminated
         bb9:
           unterminated",
    );
}

#[test]
fn unroll_leaves_loops_it_cannot_count_or_that_run_too_long() {
    // The bound is an argument: not countable.
    let by_argument = "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = i32 const 0x1
           br bb1
         bb1:
           %6 = i32 phi [bb0: %2], [bb1: %10]
           %10 = i32 bin add %6, %3
           %12 = bool cmp lt.u %10, %1
           br %12, bb1, bb2
         bb2:
           store %0, %10, align 4, bytes 4
           ret";
    check_pass(passes::unroll::run, by_argument, by_argument);
    // 1001 iterations: more than MAX_TRIP, and no factor of 2 to unroll a part by; 5000:
    // more than PARTIAL_MAX_TRIP.
    for trip in ["0x3e9", "0x1388"] {
        let long = by_argument
            .replace("%1 = i32 arg 1", &format!("%1 = i32 const {trip}"))
            .replace("kernel k(ptr.global, i32)", "kernel k(ptr.global)");
        check_pass(passes::unroll::run, &long, &long);
    }
    const { assert!(1001 > passes::unroll::MAX_TRIP && 5000 > passes::unroll::PARTIAL_MAX_TRIP) };
    // A loop with a second exit (a break on a value read from memory) is left alone.
    let two_exits = "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %2 = i32 const 0x0
           %3 = i32 const 0x1
           %4 = i32 const 0x4
           br bb1
         bb1:
           %6 = i32 phi [bb0: %2], [bb2: %10]
           %7 = i32 load %0, align 4, bytes 4
           %8 = bool cmp eq %7, %6
           br %8, bb3, bb2
         bb2:
           %10 = i32 bin add %6, %3
           %12 = bool cmp lt.u %10, %4
           br %12, bb1, bb3
         bb3:
           store %0, %6, align 4, bytes 4
           ret";
    check_pass(passes::unroll::run, two_exits, two_exits);
}

#[test]
fn unroll_keeps_branches_that_do_not_fold_in_every_copy() {
    // A branch on the loaded value inside a counted loop: each of the four copies keeps it.
    let text = "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %2 = i32 const 0x0
           %3 = i32 const 0x1
           %4 = i32 const 0x4
           br bb1
         bb1:
           %6 = i32 phi [bb0: %2], [bb3: %10]
           %7 = i32 load %0, align 4, bytes 4
           %8 = bool cmp eq %7, %6
           br %8, bb2, bb3
         bb2:
           store %0, %6, align 4, bytes 4
           br bb3
         bb3:
           %10 = i32 bin add %6, %3
           %12 = bool cmp lt.u %10, %4
           br %12, bb1, bb4
         bb4:
           ret";
    let out = run_pass(passes::unroll::run, text);
    assert_eq!(out.matches("load").count(), 4, "{out}");
    assert_eq!(out.matches("store").count(), 4, "{out}");
    assert_eq!(out.matches("phi").count(), 0, "{out}");
    // The stores write the counter's value of their copy: 0, 1, 2, 3.
    for k in 0..4 {
        assert!(out.contains(&format!("i32 const 0x{k}")), "{out}");
    }
}

#[test]
fn constfold_drops_zero_offsets_from_addresses() {
    check_pass(
        passes::constfold::run,
        "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 const 0x0
           %2 = ptr.global ptradd %0, %1
           %3 = i32 load %2, align 4, bytes 4
           store %0, %3, align 4, bytes 4
           ret",
        "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 const 0x0
           %3 = i32 load %0, align 4, bytes 4
           store %0, %3, align 4, bytes 4
           ret",
    );
}

/// A byte load is zero-extended: its `& 0xffff` (a uchar widened to ushort) goes, as does
/// the second of two masks whose first keeps fewer bits; a word store writes the low half
/// only: the `& 0xffff` before it goes (the `and` stays while something else reads it).
#[test]
fn constfold_drops_masks_that_keep_every_bit() {
    check_pass(
        passes::constfold::run,
        "kernel k(ptr.global, ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = ptr.global arg 1
           %2 = i32 arg 2
           %3 = i32 load %0, align 1, bytes 1
           %4 = i32 const 0xffff
           %5 = i32 bin and %3, %4
           %6 = i32 const 0xff
           %7 = i32 bin and %2, %6
           %8 = i32 bin and %7, %4
           %9 = i32 bin add %5, %8
           %10 = i32 bin and %9, %4
           store %1, %10, align 2, bytes 2
           %11 = i32 bin and %2, %4
           store %1, %11, align 4, bytes 4
           ret",
        "kernel k(ptr.global, ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = ptr.global arg 1
           %2 = i32 arg 2
           %3 = i32 load %0, align 1, bytes 1
           %4 = i32 const 0xffff
           %6 = i32 const 0xff
           %7 = i32 bin and %2, %6
           %9 = i32 bin add %3, %7
           %10 = i32 bin and %9, %4
           store %1, %9, align 2, bytes 2
           %11 = i32 bin and %2, %4
           store %1, %11, align 4, bytes 4
           ret",
    );
}

/// The uniformity of each named value of `text`, after `passes::uniform::analyse`.
fn uniformity(text: &str) -> Vec<bool> {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}"));
    verify(&f).unwrap_or_else(|e| panic!("does not verify: {e}"));
    passes::uniform::analyse(&f)
}

#[test]
fn uniform_loop_counters_and_loads_from_uniform_addresses_are_uniform() {
    // for (i = 0; i < n; i++) acc += table[i] * x[gid]: the counter, the table's address
    // and its element are the same on every lane; x[gid] and acc are not.
    let u = uniformity(
        "kernel k(ptr.constant, ptr.global, i32)
         bb0:
           %0 = ptr.constant arg 0
           %1 = ptr.global arg 1
           %2 = i32 arg 2
           %3 = i32 builtin GlobalId 0
           %4 = i64 conv zext %3
           %5 = i64 const 0x2
           %6 = i64 bin shl %4, %5
           %7 = ptr.global ptradd %1, %6
           %8 = i32 load %7, align 4, bytes 4
           %9 = i32 const 0x0
           %10 = i32 const 0x1
           br bb1
         bb1:
           %11 = i32 phi [bb0: %9], [bb1: %18]
           %12 = i32 phi [bb0: %9], [bb1: %17]
           %13 = i64 conv zext %11
           %14 = i64 bin shl %13, %5
           %15 = ptr.constant ptradd %0, %14
           %16 = i32 load %15, align 4, bytes 4
           %19 = i32 bin mul %16, %8
           %17 = i32 bin add %12, %19
           %18 = i32 bin add %11, %10
           %20 = bool cmp lt.s %18, %2
           br %20, bb1, bb2
         bb2:
           store %7, %17, align 4, bytes 4
           ret",
    );
    for v in [11, 13, 14, 15, 16, 18, 20] {
        assert!(u[v], "%{v} should be uniform");
    }
    for v in [3, 7, 8, 12, 17, 19] {
        assert!(!u[v], "%{v} should be varying");
    }
}

#[test]
fn phis_where_a_divergent_branch_meets_again_are_varying() {
    // if (gid < 4) y = 1; else y = 2;  and  if (n < 4) z = 1; else z = 2;
    let u = uniformity(
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 builtin GlobalId 0
           %3 = i32 const 0x4
           %4 = i32 const 0x1
           %5 = i32 const 0x2
           %6 = bool cmp lt.u %2, %3
           br %6, bb1, bb2
         bb1:
           br bb2
         bb2:
           %7 = i32 phi [bb0: %5], [bb1: %4]
           %8 = bool cmp lt.u %1, %3
           br %8, bb3, bb4
         bb3:
           br bb4
         bb4:
           %9 = i32 phi [bb2: %5], [bb3: %4]
           %10 = i32 bin add %7, %9
           store %0, %10, align 4, bytes 4
           ret",
    );
    assert!(!u[7], "the join of a branch on the work-item id");
    assert!(u[9], "the join of a branch on an argument");
    assert!(!u[10]);
}

#[test]
fn values_of_a_loop_that_lanes_leave_apart_are_varying_after_it() {
    // do { i++; } while (x[i] != gid): every lane still in the loop has the same i, but
    // lanes leave at different iterations, so what is read of the loop after it varies:
    // the exit block's phi of i, and 3 * i read directly (which then varies in the loop
    // too: without LCSSA phis a value has one uniformity).
    let u = uniformity(
        "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 builtin GlobalId 0
           %2 = i32 const 0x0
           %3 = i32 const 0x1
           %9 = i64 const 0x2
           br bb1
         bb1:
           %4 = i32 phi [bb0: %2], [bb1: %5]
           %5 = i32 bin add %4, %3
           %10 = i64 conv zext %5
           %11 = i64 bin shl %10, %9
           %12 = ptr.global ptradd %0, %11
           %6 = i32 load %12, align 4, bytes 4
           %14 = i32 const 0x3
           %15 = i32 bin mul %4, %14
           %7 = bool cmp ne %6, %1
           br %7, bb1, bb2
         bb2:
           %8 = i32 phi [bb1: %4]
           %13 = i32 bin add %15, %8
           store %0, %13, align 4, bytes 4
           ret",
    );
    assert!(u[4], "the header's phi: lanes still looping agree");
    assert!(u[6], "a load from the uniform address");
    assert!(!u[7], "the exit test compares with the work-item id");
    assert!(u[5], "the counter's next value");
    assert!(!u[15], "read after the loop");
    assert!(!u[8], "the exit block's phi");
    assert!(!u[13]);
}

#[test]
fn unroll_does_part_of_a_long_counted_loop_each_turn() {
    // for (i = 0; i < 1000; i++) acc ^= acc << 1 + i: 1000 iterations, more than MAX_TRIP;
    // unrolled 8 times a turn, only the turn's last copy tests the counter.
    let text = "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = i32 const 0x1
           %4 = i32 const 0x3e8
           br bb1
         bb1:
           %6 = i32 phi [bb0: %2], [bb1: %10]
           %7 = i32 phi [bb0: %1], [bb1: %9]
           %8 = i32 bin shl %7, %3
           %11 = i32 bin add %8, %6
           %9 = i32 bin xor %7, %11
           %10 = i32 bin add %6, %3
           %12 = bool cmp lt.u %10, %4
           br %12, bb1, bb2
         bb2:
           store %0, %9, align 4, bytes 4
           ret";
    let out = run_pass(passes::unroll::run, text);
    assert_eq!(out.matches(" phi ").count(), 2, "{out}");
    assert_eq!(out.matches("cmp").count(), 1, "{out}");
    assert_eq!(out.matches("bin xor").count(), 8, "{out}");
    assert_eq!(out.matches("bin shl").count(), 8, "{out}");
    // The counter steps by 8 a turn (one add of 8 after constant folding would be
    // better; each copy adds 1 to the last).
    assert_eq!(out.matches("bin add").count(), 16, "{out}");
}

/// `div64`: a 64-bit division becomes the test for operands that fit in 32 bits (or a zero
/// divisor) and the 32-bit hardware division, else rounds of quotient digits estimated
/// through a single-precision reciprocal scaled by 1 - 2^-18 (0x3f7fffc0), while a round
/// moves and r >= d, then the one correction; signed forms take the magnitudes first and
/// give the quotient the sign of the signs' difference, under the division's own number.
#[test]
fn div64_expands_into_the_32_bit_test_and_the_estimation_loop() {
    check_pass(
        passes::div64::run,
        "kernel k(ptr.global, i64, i64)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 arg 1
           %2 = i64 arg 2
           %3 = i64 bin div.s %1, %2
           store %0, %3, align 8, bytes 8
           ret",
        "kernel k(ptr.global, i64, i64)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 arg 1
           %2 = i64 arg 2
           %5 = i64 const 0x0
           %6 = bool cmp lt.s %1, %5
           %7 = i64 un neg %1
           %8 = i64 select %6, %7, %1
           %9 = i64 const 0x0
           %10 = bool cmp lt.s %2, %9
           %11 = i64 un neg %2
           %12 = i64 select %10, %11, %2
           %13 = bool bin xor %6, %10
           %14 = i64 bin or %8, %12
           %15 = i64 const 0x20
           %16 = i64 bin lshr %14, %15
           %17 = i64 const 0x0
           %18 = bool cmp eq %16, %17
           %19 = bool cmp eq %12, %17
           %20 = bool bin or %18, %19
           br %20, bb2, bb3
         bb1:
           %46 = i64 phi [bb2: %24], [bb5: %45]
           %47 = i64 un neg %46
           %3 = i64 select %13, %47, %46
           store %0, %3, align 8, bytes 8
           ret
         bb2:
           %21 = i32 conv trunc %8
           %22 = i32 conv trunc %12
           %23 = i32 bin div.u %21, %22
           %24 = i64 conv zext %23
           br bb1
         bb3:
           %25 = f32 conv utof %12
           %26 = f32 const 0x3f800000
           %27 = f32 bin fdiv %26, %25
           %28 = f32 const 0x3f7fffc0
           %29 = f32 bin fmul %27, %28
           %30 = i64 const 0x0
           br bb4
         bb4:
           %31 = i64 phi [bb3: %30], [bb4: %36]
           %32 = i64 phi [bb3: %8], [bb4: %38]
           %33 = f32 conv utof %32
           %34 = f32 bin fmul %33, %29
           %35 = i64 conv ftou %34
           %36 = i64 bin add %31, %35
           %37 = i64 bin mul %35, %12
           %38 = i64 bin sub %32, %37
           %39 = i64 const 0x0
           %40 = bool cmp ne %35, %39
           %41 = bool cmp ge.u %38, %12
           %42 = bool bin and %40, %41
           br %42, bb4, bb5
         bb5:
           %43 = i64 const 0x1
           %44 = i64 bin add %36, %43
           %45 = i64 select %41, %44, %36
           br bb1",
    );
}

/// `narrow`: the offset of a `__local` address read only as an address is computed in 32
/// bits, through LLVM's in-place sign extension (`ashr(shl(x, 32), 32)`), the shift and the
/// add; an address that is also cast to an integer keeps its 64-bit offset (where a negative
/// offset's high half matters).
#[test]
fn narrow_computes_local_address_offsets_in_32_bits() {
    check_pass(
        passes::narrow::run,
        "kernel k(ptr.local, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = i32 arg 1
           %2 = i64 conv zext %1
           %3 = i64 const 0x20
           %4 = i64 bin shl %2, %3
           %5 = i64 bin ashr %4, %3
           %6 = i64 const 0x2
           %7 = i64 bin shl %5, %6
           %8 = ptr.local ptradd %0, %7
           %9 = i32 load %8, align 4, bytes 4
           %10 = i64 const 0x4
           %11 = i64 bin add %7, %10
           %12 = ptr.local ptradd %0, %11
           store %12, %9, align 4, bytes 4
           %13 = ptr.local ptradd %0, %11
           %14 = i64 conv bitcast %13
           %15 = ptr.local conv bitcast %14
           store %15, %9, align 4, bytes 4
           ret",
        "kernel k(ptr.local, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = i32 arg 1
           %2 = i64 conv zext %1
           %3 = i64 const 0x20
           %4 = i64 bin shl %2, %3
           %5 = i64 conv sext %1
           %6 = i64 const 0x2
           %7 = i64 bin shl %5, %6
           %18 = i32 const 0x2
           %19 = i32 bin shl %1, %18
           %20 = i64 conv zext %19
           %8 = ptr.local ptradd %0, %20
           %9 = i32 load %8, align 4, bytes 4
           %10 = i64 const 0x4
           %11 = i64 bin add %7, %10
           %21 = i32 const 0x2
           %22 = i32 bin shl %1, %21
           %23 = i32 const 0x4
           %24 = i32 bin add %22, %23
           %25 = i64 conv zext %24
           %12 = ptr.local ptradd %0, %25
           store %12, %9, align 4, bytes 4
           %13 = ptr.local ptradd %0, %11
           %14 = i64 conv bitcast %13
           %15 = ptr.local conv bitcast %14
           store %15, %9, align 4, bytes 4
           ret",
    );
}

/// `unroll`: an outer loop whose inner loop's count depends on its counter (a triangular
/// nest, as a bitonic sort's `for (k ...) for (j = k / 2; ...)`) is unrolled whole, then each
/// inner copy, now with constant bounds: what is left is straight code, the sum folded. Here
/// the inner loop runs k + 1 times for k = 0, 1, 2: 1 + 2 + 3 = 6.
#[test]
fn unroll_takes_an_outer_loop_whose_inner_count_depends_on_it() {
    let out = run_pass(
        passes::unroll::run,
        "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 const 0x0
           %2 = i32 const 0x1
           %3 = i32 const 0x3
           br bb1
         bb1:
           %4 = i32 phi [bb0: %1], [bb3: %10]
           %5 = i32 phi [bb0: %1], [bb3: %9]
           br bb2
         bb2:
           %6 = i32 phi [bb1: %1], [bb2: %8]
           %7 = i32 phi [bb1: %5], [bb2: %11]
           %11 = i32 bin add %7, %2
           %8 = i32 bin add %6, %2
           %12 = bool cmp le.s %8, %4
           br %12, bb2, bb3
         bb3:
           %9 = i32 phi [bb2: %11]
           %10 = i32 bin add %4, %2
           %13 = bool cmp lt.s %10, %3
           br %13, bb1, bb4
         bb4:
           store %0, %9, align 4, bytes 4
           ret",
    );
    assert!(!out.contains("phi"), "{out}");
    let store = out
        .lines()
        .find(|l| l.trim_start().starts_with("store"))
        .unwrap_or_else(|| panic!("{out}"));
    let value = store.split(", ").nth(1).unwrap();
    let def = format!("{value} = i32 const 0x6");
    assert!(out.contains(&def), "{out}");
}

/// `strength`: a 32-bit product by a power of two is a shift, its constant first or last
/// (a counter unrolled into a constant leaves `mul 2, x`; the pass runs again after unroll).
#[test]
fn strength_makes_32_bit_products_by_powers_of_two_shifts() {
    check_pass(
        passes::strength::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x2
           %3 = i32 bin mul %2, %1
           %4 = i32 const 0x6
           %5 = i32 bin mul %1, %4
           store %0, %3, align 4, bytes 4
           store %0, %5, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x2
           %6 = i32 const 0x1
           %3 = i32 bin shl %1, %6
           %4 = i32 const 0x6
           %5 = i32 bin mul %1, %4
           store %0, %3, align 4, bytes 4
           store %0, %5, align 4, bytes 4
           ret",
    );
}

/// `halves`: a half read from memory and only computed on takes the hardware's conversion
/// (the NaN-exact select goes), and the half written back of a value just rounded to half is
/// that rounding's bits; a half moved unchanged (the second load, stored as it is) keeps
/// both exact forms.
#[test]
fn halves_drop_the_exact_conversions_nothing_can_observe() {
    let out = run_pass(
        passes::halves::run,
        "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 load %0, align 2, bytes 2
           %2 = f32 un halftofloat %1
           %3 = i32 const 0x7fff
           %4 = i32 bin and %1, %3
           %5 = i32 const 0x7c00
           %6 = bool cmp gt.u %4, %5
           %7 = f32 const 0x3f800000
           %8 = f32 select %6, %7, %2
           %9 = f32 bin fadd %8, %8
           %10 = i32 un floattohalf %9
           %11 = f32 un halftofloat %10
           %12 = i32 un floattohalf %11
           %13 = i32 conv bitcast %11
           %14 = i32 const 0x7fffffff
           %15 = i32 bin and %13, %14
           %16 = i32 const 0x7f800000
           %17 = bool cmp gt.u %15, %16
           %18 = i32 const 0x7e00
           %19 = i32 select %17, %18, %12
           store %0, %19, align 2, bytes 2
           %20 = i32 load %0, align 2, bytes 2
           %21 = f32 un halftofloat %20
           %22 = i32 bin and %20, %3
           %23 = bool cmp gt.u %22, %5
           %24 = f32 select %23, %7, %21
           %25 = i32 un floattohalf %24
           %26 = i32 conv bitcast %24
           %27 = i32 bin and %26, %14
           %28 = bool cmp gt.u %27, %16
           %29 = i32 select %28, %18, %25
           store %0, %29, align 2, bytes 2
           ret",
    );
    let line = |v: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(&format!("{v} =")))
            .unwrap_or_else(|| panic!("{v}: {out}"))
            .to_string()
    };
    // The sum reads the plain conversion; the first store writes the rounding's bits.
    assert!(line("%9").contains("fadd %2, %2"), "{out}");
    assert!(out.contains("store %0, %10,"), "{out}");
    // The copy keeps its exact forms.
    assert!(out.contains("store %0, %29,"), "{out}");
    assert!(line("%25").contains("floattohalf %24"), "{out}");
}

/// `constfold`: a boolean made an integer and tested again (clang's int predicate of
/// `work_group_any(x > t)` made SPIR-V's bool) is the boolean: `select(c, 1, 0) != 0` and
/// `select(c, 1, 0) == 1` are `c`; `== 0` is not.
#[test]
fn constfold_sees_a_boolean_through_its_integer() {
    let out = run_pass(
        passes::constfold::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x5
           %3 = bool cmp gt.s %1, %2
           %4 = i32 const 0x1
           %5 = i32 const 0x0
           %6 = i32 select %3, %4, %5
           %7 = bool cmp ne %6, %5
           %8 = i32 select %7, %1, %2
           store %0, %8, align 4, bytes 4
           %9 = bool cmp eq %6, %4
           %10 = i32 select %9, %1, %2
           store %0, %10, align 4, bytes 4
           %11 = bool cmp eq %6, %5
           %12 = i32 select %11, %1, %2
           store %0, %12, align 4, bytes 4
           ret",
    );
    assert!(out.contains("%8 = i32 select %3, %1, %2"), "{out}");
    assert!(out.contains("%10 = i32 select %3, %1, %2"), "{out}");
    assert!(out.contains("%12 = i32 select %11, %1, %2"), "{out}");
}

/// `halves`: a half computed by the front end's native `mad` (clang contracts `x + (b - x) *
/// t` of halves) is widened to float for the store's exact conversion back: its bits are
/// the F16's own (the exact form's NaN test, rebuilt payload and selects go). A half widened
/// from bits, not computed, keeps the exact form.
#[test]
fn halves_store_a_native_results_own_bits() {
    let out = run_pass(
        passes::halves::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = f16 un halffrombits %1
           %3 = f16 mad %2, %2, %2
           %4 = f32 conv fconv %3
           %5 = i32 un floattohalf %4
           %6 = i32 conv bitcast %4
           %7 = i32 const 0x7fffffff
           %8 = i32 bin and %6, %7
           %9 = i32 const 0x7f800000
           %10 = bool cmp gt.u %8, %9
           %11 = i32 const 0x7e00
           %12 = i32 select %10, %11, %5
           store %0, %12, align 2, bytes 2
           %13 = f32 conv fconv %2
           %14 = i32 un floattohalf %13
           %15 = i32 conv bitcast %13
           %16 = i32 bin and %15, %7
           %17 = bool cmp gt.u %16, %9
           %18 = i32 select %17, %11, %14
           store %0, %18, align 2, bytes 2
           ret",
    );
    assert!(out.contains("%5 = i32 un halftobits %3"), "{out}");
    assert!(out.contains("store %0, %5,"), "{out}");
    assert!(out.contains("store %0, %18,"), "{out}");
    assert!(out.contains("%14 = i32 un floattohalf %13"), "{out}");
}

/// `narrow`: an unrolled `s[l + 64]` is LLVM's in-place sign extension of `l + 64` with the
/// constant folded in (`((l << 32) + (64 << 32)) >> 32`): its low 32 bits are `l + 64`.
#[test]
fn narrow_sees_a_constant_folded_into_an_in_place_sign_extension() {
    check_pass(
        passes::narrow::run,
        "kernel k(ptr.local, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = i32 arg 1
           %2 = i64 conv zext %1
           %3 = i64 const 0x20
           %4 = i64 bin shl %2, %3
           %5 = i64 const 0x4000000000
           %6 = i64 bin add %4, %5
           %7 = i64 bin ashr %6, %3
           %8 = i64 const 0x2
           %9 = i64 bin shl %7, %8
           %10 = ptr.local ptradd %0, %9
           %11 = i32 load %10, align 4, bytes 4
           store %0, %11, align 4, bytes 4
           ret",
        "kernel k(ptr.local, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = i32 arg 1
           %2 = i64 conv zext %1
           %3 = i64 const 0x20
           %4 = i64 bin shl %2, %3
           %5 = i64 const 0x4000000000
           %6 = i64 bin add %4, %5
           %30 = i32 const 0x40
           %31 = i32 bin add %1, %30
           %7 = i64 conv sext %31
           %8 = i64 const 0x2
           %9 = i64 bin shl %7, %8
           %12 = i32 const 0x40
           %13 = i32 bin add %1, %12
           %14 = i32 const 0x2
           %15 = i32 bin shl %13, %14
           %16 = i64 conv zext %15
           %10 = ptr.local ptradd %0, %16
           %11 = i32 load %10, align 4, bytes 4
           store %0, %11, align 4, bytes 4
           ret",
    );
}

/// `cse`: two equal compares are not merged (each, read by one select, is one `cmp` into the
/// flag at its reader; merged, a boolean in a register that each reader tests again), while
/// the arithmetic beside them is.
#[test]
fn cse_keeps_each_compare_for_its_reader() {
    check_pass(
        passes::cse::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = bool cmp eq %1, %2
           %4 = i32 bin add %1, %1
           %5 = i32 select %3, %4, %2
           %6 = bool cmp eq %1, %2
           %7 = i32 bin add %1, %1
           %8 = i32 select %6, %2, %7
           %9 = i32 bin xor %5, %8
           store %0, %9, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = bool cmp eq %1, %2
           %4 = i32 bin add %1, %1
           %5 = i32 select %3, %4, %2
           %6 = bool cmp eq %1, %2
           %8 = i32 select %6, %2, %4
           %9 = i32 bin xor %5, %8
           store %0, %9, align 4, bytes 4
           ret",
    );
}

/// `cse`: two lane scans of the same operands are not merged (each reads lanes whose values
/// depend on where it stands, as `fill_inactive` and `shuffle`), while the arithmetic beside
/// them is.
#[test]
fn cse_keeps_each_lane_scan() {
    check_pass(
        passes::cse::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = i32 fill_inactive %1, %2
           %4 = i32 lane_scan add %3, %2
           %5 = i32 lane_scan add %3, %2
           %6 = i32 lane_scan.excl max.u %3, %2
           %7 = i32 bin add %4, %5
           %8 = i32 bin add %4, %5
           %9 = i32 bin xor %7, %8
           %10 = i32 bin xor %9, %6
           store %0, %10, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0x0
           %3 = i32 fill_inactive %1, %2
           %4 = i32 lane_scan add %3, %2
           %5 = i32 lane_scan add %3, %2
           %6 = i32 lane_scan.excl max.u %3, %2
           %7 = i32 bin add %4, %5
           %9 = i32 bin xor %7, %7
           %10 = i32 bin xor %9, %6
           store %0, %10, align 4, bytes 4
           ret",
    );
}

#[test]
fn native_half_computes_rounded_half_arithmetic_in_half() {
    // x = a (a half argument's bits); loop { x = round_half(x * a + 1.0) }; a division stays
    // float (no native form) and reads the loop's half widened; the stored half is the F16's
    // bits. The loop-carried float phi becomes an F16 phi.
    fn native_half_then_dce(f: &mut gencl_jit::ir::Function) {
        passes::native_half::run(f);
        passes::dce::run(f);
    }
    check_pass(
        native_half_then_dce,
        "kernel k(f32, ptr.global)
         bb0:
           %0 = i32 arg_at 0, 0, 2
           %1 = ptr.global arg 1
           %2 = f32 un halftofloat %0
           %3 = f32 const 0x3f800000
           br bb1
         bb1:
           %4 = f32 phi [bb0: %2], [bb1: %7]
           %5 = f32 mad %4, %2, %3
           %6 = i32 un floattohalf %5
           %7 = f32 un halftofloat %6
           %8 = bool cmp lt.s %0, %0
           br %8, bb1, bb2
         bb2:
           %9 = f32 bin fdiv %7, %2
           %10 = i32 un floattohalf %9
           store %1, %6, align 2, bytes 2
           store %1, %10, align 2, bytes 2
           ret",
        "kernel k(f32, ptr.global)
         bb0:
           %0 = i32 arg_at 0, 0, 2
           %1 = ptr.global arg 1
           %2 = f32 un halftofloat %0
           %3 = f16 un halffrombits %0
           %5 = f16 const 0x3c00
           br bb1
         bb1:
           %8 = f16 phi [bb0: %3], [bb1: %9]
           %9 = f16 mad %8, %3, %5
           %7 = f32 conv fconv %9
           %12 = i32 un halftobits %9
           %15 = bool cmp lt.s %0, %0
           br %15, bb1, bb2
         bb2:
           %16 = f32 bin fdiv %7, %2
           %17 = i32 un floattohalf %16
           store %1, %12, align 2, bytes 2
           store %1, %17, align 2, bytes 2
           ret",
    );
}

#[test]
fn native_half_leaves_float_operands_and_unrounded_results_alone() {
    // A rounding of arithmetic on a float that is not a half (an argument's float), and one
    // whose unrounded float something else reads, stay float; so nothing changes.
    let text = "kernel k(f32, ptr.global)
         bb0:
           %0 = f32 arg 0
           %1 = ptr.global arg 1
           %2 = i32 arg_at 0, 0, 2
           %3 = f32 un halftofloat %2
           %4 = f32 bin fadd %3, %0
           %5 = i32 un floattohalf %4
           %6 = f32 bin fmul %3, %3
           %7 = i32 un floattohalf %6
           store %1, %5, align 2, bytes 2
           store %1, %7, align 2, bytes 2
           store %1, %6, align 4, bytes 4
           ret";
    check_pass(passes::native_half::run, text, text);
}

#[test]
fn exact_halves_of_float_constants() {
    use gencl_jit::passes::native_half::exact_half;
    assert_eq!(exact_half(1.0), Some(0x3c00));
    assert_eq!(exact_half(-2.0), Some(0xc000));
    assert_eq!(exact_half(65504.0), Some(0x7bff));
    assert_eq!(exact_half(f32::INFINITY), Some(0x7c00));
    assert_eq!(exact_half(-0.0), Some(0x8000));
    // The smallest subnormal half, the largest subnormal, the smallest normal.
    assert_eq!(exact_half(2f32.powi(-24)), Some(0x0001));
    assert_eq!(exact_half(1023.0 * 2f32.powi(-24)), Some(0x03ff));
    assert_eq!(exact_half(2f32.powi(-14)), Some(0x0400));
    // Not halves: a bit below half's precision, past its range, below its smallest, NaN.
    assert_eq!(exact_half(1.0 + 2f32.powi(-11)), None);
    assert_eq!(exact_half(65520.0), None);
    assert_eq!(exact_half(2f32.powi(-25)), None);
    assert_eq!(exact_half(1.5 * 2f32.powi(-24)), None);
    assert_eq!(exact_half(f32::NAN), None);
}

/// `analysis::simd32::profitable` on printed IR, with the uniform analysis the compiler
/// gives it.
fn simd32(text: &str, required_wg_size: Option<[u32; 3]>) -> Result<(), &'static str> {
    let f = parse(text).unwrap_or_else(|e| panic!("{e}"));
    verify(&f).unwrap_or_else(|e| panic!("does not verify: {e}"));
    let uniform = passes::uniform::analyse(&f);
    gencl_jit::analysis::simd32::profitable(&f, &uniform, required_wg_size)
}

#[test]
fn simd32_is_refused_for_a_loop_whose_exit_diverges() {
    // Mandelbrot's escape loop: each lane leaves when its own value passes a bound.
    let text = "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 builtin GlobalId 0
           br bb1
         bb1:
           %3 = i32 phi [bb0: %2], [bb1: %4]
           %4 = i32 bin mul %3, %3
           %5 = bool cmp lt.s %4, %1
           br %5, bb1, bb2
         bb2:
           store %0, %4, align 4, bytes 4
           ret";
    assert_eq!(simd32(text, None), Err("a loop whose exit is divergent"));
}

#[test]
fn simd32_is_kept_for_a_counted_loop_from_a_per_lane_start() {
    // `for (i = get_global_id(0); i < n; i += s)`: divergent only at its end (IGC's case).
    let counted = "kernel k(ptr.global, i32, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 arg 2
           %3 = i32 builtin GlobalId 0
           br bb1
         bb1:
           %4 = i32 phi [bb0: %3], [bb1: %5]
           %5 = i32 bin add %4, %2
           %6 = bool cmp lt.s %5, %1
           br %6, bb1, bb2
         bb2:
           store %0, %4, align 4, bytes 4
           ret";
    assert_eq!(simd32(counted, None), Ok(()));
    // The same kernel for groups of 16: the second half of every SIMD32 thread would idle.
    assert_eq!(
        simd32(counted, Some([16, 1, 1])),
        Err("a work-group of at most 16 work-items")
    );
    // A step that differs per lane makes the trip count differ per lane.
    let strided = counted.replace("bin add %4, %2", "bin add %4, %3");
    assert_eq!(
        simd32(&strided, None),
        Err("a loop whose exit is divergent")
    );
}

#[test]
fn simd32_is_refused_for_sub_group_functions() {
    let text = "kernel k(ptr.global)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 builtin SubgroupLocalId 0
           store %0, %1, align 4, bytes 4
           ret";
    assert_eq!(simd32(text, None), Err("sub-group functions"));
}

#[test]
fn ptradd_chains_sum_a_buffer_arguments_offsets() {
    // A float4's second component at `(a + i * 16) + 4`: one offset from the argument, so the
    // access can take the argument's surface; the element's own address stays for its read.
    check_pass(
        passes::ptradd_chains::run,
        "kernel k(ptr.global, i64)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 arg 1
           %2 = ptr.global ptradd %0, %1
           %3 = i64 const 0x4
           %4 = ptr.global ptradd %2, %3
           %5 = i32 load %2, align 4, bytes 4
           %6 = i32 load %4, align 4, bytes 4
           store %0, %6, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i64)
         bb0:
           %0 = ptr.global arg 0
           %1 = i64 arg 1
           %2 = ptr.global ptradd %0, %1
           %3 = i64 const 0x4
           %7 = i64 bin add %1, %3
           %4 = ptr.global ptradd %0, %7
           %5 = i32 load %2, align 4, bytes 4
           %6 = i32 load %4, align 4, bytes 4
           store %0, %6, align 4, bytes 4
           ret",
    );
}

#[test]
fn ptradd_chains_sum_a_local_arrays_row_and_column() {
    // `tile[y][x]` of a `__local float tile[16][17]`: `(tile + 68 y) + 4 x` as one offset.
    check_pass(
        passes::ptradd_chains::run,
        "kernel k(i64, i64)
         bb0:
           %0 = i64 arg 0
           %1 = i64 arg 1
           %2 = ptr.local const 0x0
           %3 = ptr.local ptradd %2, %0
           %4 = ptr.local ptradd %3, %1
           %5 = i32 load %4, align 4, bytes 4
           store %3, %5, align 4, bytes 4
           ret",
        "kernel k(i64, i64)
         bb0:
           %0 = i64 arg 0
           %1 = i64 arg 1
           %2 = ptr.local const 0x0
           %3 = ptr.local ptradd %2, %0
           %6 = i64 bin add %0, %1
           %4 = ptr.local ptradd %2, %6
           %5 = i32 load %4, align 4, bytes 4
           store %3, %5, align 4, bytes 4
           ret",
    );
}

/// `local_atomics64`: a 64-bit atomic on local memory becomes the lowest active lane's
/// 32-bit compare-exchange on a lock word placed after the kernel's SLM (cleared at the
/// top of the entry block, then a barrier), every lane retrying after a thread switch until
/// the leader has it, then one round per lane of the width, in which that lane loads,
/// combines and stores (no fence: one thread's SLM messages are performed in order), and
/// the release at the join, where the atomic's own number names the old value.
#[test]
fn local_atomics64_takes_the_threads_lock_and_serves_the_lanes_in_turn() {
    let mut f = parse(
        "kernel k(ptr.local, i64)
         bb0:
           %0 = ptr.local arg 0
           %1 = i64 arg 1
           %2 = i64 atomic add %0, %1
           store %0, %2, align 8, bytes 8
           ret",
    )
    .unwrap();
    f.slm_bytes = 18;
    // SIMD32: the rounds alone (at 16 lanes and fewer, lanes on one word are folded).
    f.simd = 32;
    passes::local_atomics64::run(&mut f);
    verify(&f).unwrap_or_else(|e| panic!("after does not verify: {e}"));
    assert_eq!(
        f.slm_bytes, 24,
        "the lock word at 20, after the kernel's 18 bytes"
    );
    let want = parse(
        "kernel k(ptr.local, i64)
         bb0:
           %4 = ptr.local const 0x14
           %5 = i32 const 0x0
           store %4, %5, align 4, bytes 4
           barrier
           %0 = ptr.local arg 0
           %1 = i64 arg 1
           %8 = i32 const 0x0
           %9 = i32 const 0x1
           %10 = i64 const 0x0
           %11 = i32 const 0x20
           %12 = i32 const 0xffffffff
           %13 = i32 builtin SubgroupLocalId 0
           %14 = i32 fill_inactive %13, %12
           %15 = i32 lane_scan min.u %14, %12
           %16 = i32 read_lane %15, 31
           %17 = bool cmp eq %13, %16
           br bb2
         bb1:
           %2 = i64 phi [bb9: %30]
           %33 = i32 atomic xchg %4, %8
           store %0, %2, align 8, bytes 8
           ret
         bb2:
           br %17, bb3, bb4
         bb3:
           %18 = i32 cmpxchg %4, %8, %9
           br bb4
         bb4:
           %19 = i32 phi [bb2: %9], [bb3: %18]
           %40 = i32 fill_inactive %19, %9
           %41 = i32 lane_scan min.u %40, %9
           %20 = i32 read_lane %41, 31
           %21 = bool cmp eq %20, %8
           br %21, bb6, bb5
         bb5:
           yield
           br bb2
         bb6:
           br bb7
         bb7:
           %23 = i32 phi [bb6: %8], [bb9: %31]
           %24 = i64 phi [bb6: %10], [bb9: %30]
           %25 = bool cmp eq %13, %23
           br %25, bb8, bb9
         bb8:
           %26 = i64 load %0, align 8, bytes 8
           %27 = i64 bin add %26, %1
           store %0, %27, align 8, bytes 8
           br bb9
         bb9:
           %30 = i64 phi [bb7: %24], [bb8: %26]
           %31 = i32 bin add %23, %9
           %32 = bool cmp lt.u %31, %11
           br %32, bb7, bb1",
    )
    .unwrap();
    let (got, want) = (canon(&print(&f)), canon(&print(&want)));
    assert_eq!(got, want, "\ngot:\n{got}\nwant:\n{want}");
}

/// `local_atomics64` at 16 lanes or fewer (here 2, to keep it short): with the lock held,
/// whether every active lane names one word (the least and greatest address over the
/// active lanes agree); if so one load of it, each lane's operation applied in lane order
/// under its activity (lane k's result the value before its step), one store (no fence);
/// else the rounds.
#[test]
fn local_atomics64_folds_lanes_on_one_word() {
    let mut f = parse(
        "kernel k(ptr.local, i64)
         bb0:
           %0 = ptr.local arg 0
           %1 = i64 arg 1
           %2 = i64 atomic xor %0, %1
           store %0, %2, align 8, bytes 8
           ret",
    )
    .unwrap();
    f.simd = 2;
    passes::local_atomics64::run(&mut f);
    verify(&f).unwrap_or_else(|e| panic!("after does not verify: {e}"));
    let got = print(&f);
    // The check, in the block that has just taken the lock.
    for want in [
        "lane_scan min.u",
        "lane_scan max.u",
        "read_lane",
        "conv zext",
        "fill_inactive",
    ] {
        assert!(got.contains(want), "no {want} in:\n{got}");
    }
    // The fold: one load and one store of the word, and per lane its activity, its
    // operand and result read from and written to its own lane; no fence (SLM alone).
    assert!(!got.contains("fence"), "{got}");
    let loads = got.matches("i64 load").count();
    let stores = got.matches("store").count();
    let folds = got.matches("i64 bin xor").count();
    let lanes = got.matches("read_lane").count();
    assert_eq!(loads, 2, "one load in the fold, one in the rounds:\n{got}");
    assert_eq!(
        folds, 3,
        "a xor per lane in the fold, one in the rounds:\n{got}"
    );
    // The lock's clearing, the rounds' store, the fold's store, the kernel's own.
    assert_eq!(stores, 4, "{got}");
    // Leader, lock answer, least and greatest address, and per lane its activity and operand.
    assert_eq!(lanes, 4 + 2 * 2, "{got}");
}

/// `local_atomics64`: a compare-exchange keeps the old value where it differs from the
/// comparator; 32-bit local atomics and 64-bit global ones are the data port's and stay.
#[test]
fn local_atomics64_leaves_what_the_data_port_does() {
    let out = run_pass(
        passes::local_atomics64::run,
        "kernel k(ptr.local, ptr.global, i64, i32)
         bb0:
           %0 = ptr.local arg 0
           %1 = ptr.global arg 1
           %2 = i64 arg 2
           %3 = i32 arg 3
           %4 = i32 atomic add %0, %3
           %5 = i64 atomic add %1, %2
           %6 = i64 cmpxchg %0, %2, %5
           store %1, %6, align 8, bytes 8
           ret",
    );
    assert!(out.contains("%4 = i32 atomic add %0, %3"), "{out}");
    assert!(out.contains("%5 = i64 atomic add %1, %2"), "{out}");
    assert_eq!(out.matches("cmpxchg").count(), 1, "only the lock's: {out}");
    assert!(
        out.contains("bool cmp eq %") && out.contains(", %2\n"),
        "{out}"
    );
    assert!(out.contains("i64 select %"), "{out}");
}

/// `printf`: a call takes its record's room (4 bytes of format index, then its arguments)
/// with one atomic add on the buffer's counter, writes the record after the counter only
/// where it ends inside the buffer and the counter did not wrap, and is 0 there, -1 where
/// it had no room, under the call's own number.
#[test]
fn printf_takes_its_records_room_and_writes_it_where_it_fits() {
    check_pass(
        passes::printf::run,
        "kernel k(ptr.global, i32, f64)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = f64 arg 2
           %3 = i32 printf 7, [%1, %2]
           %4 = i32 printf 8, []
           store %0, %3, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32, f64)
         bb0:
           %5 = ptr.global printf_buffer
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = f64 arg 2
           %7 = i32 const 0x10
           %8 = i32 atomic add %5, %7
           %9 = i32 bin add %8, %7
           %10 = i32 const 0xffffc
           %11 = bool cmp le.u %9, %10
           %12 = bool cmp le.u %8, %9
           %13 = bool bin and %11, %12
           br %13, bb2, bb1
           %24 = i32 const 0x0
           %25 = i32 const 0xffffffff
         bb1:
           %3 = i32 phi [bb0: %25], [bb2: %24]
           %26 = i32 const 0x4
           %27 = i32 atomic add %5, %26
           %28 = i32 bin add %27, %26
           %29 = i32 const 0xffffc
           %30 = bool cmp le.u %28, %29
           %31 = bool cmp le.u %27, %28
           %32 = bool bin and %30, %31
           br %32, bb4, bb3
           %38 = i32 const 0x0
           %39 = i32 const 0xffffffff
         bb2:
           %14 = i64 conv zext %8
           %15 = i64 const 0x4
           %16 = i64 bin add %14, %15
           %17 = ptr.global ptradd %5, %16
           %18 = i32 const 0x7
           store %17, %18, align 4, bytes 4
           %19 = i64 const 0x4
           %20 = ptr.global ptradd %17, %19
           store %20, %1, align 4, bytes 4
           %21 = i64 const 0x8
           %22 = ptr.global ptradd %17, %21
           store %22, %2, align 4, bytes 8
           br bb1
         bb3:
           %4 = i32 phi [bb1: %39], [bb4: %38]
           store %0, %3, align 4, bytes 4
           ret
         bb4:
           %33 = i64 conv zext %27
           %34 = i64 const 0x4
           %35 = i64 bin add %33, %34
           %36 = ptr.global ptradd %5, %35
           %37 = i32 const 0x8
           store %36, %37, align 4, bytes 4
           br bb3",
    );
}

/// `reassociate`: a sum's constant moves out through the shift, product or sum that is its
/// only reader (`((l + -2) << 2) + 0x200` is `(l << 2) + 0x1f8`); a sum read twice stays,
/// and a shift by a value is left alone.
#[test]
fn reassociate_moves_a_sums_constant_out_of_shifts_and_sums() {
    check_pass(
        passes::reassociate::run,
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0xfffffffe
           %3 = i32 bin add %1, %2
           %4 = i32 const 0x2
           %5 = i32 bin shl %3, %4
           %6 = i32 const 0x200
           %7 = i32 bin add %6, %5
           %8 = i64 conv zext %7
           %9 = ptr.global ptradd %0, %8
           store %9, %1, align 4, bytes 4
           %10 = i32 const 0x3
           %11 = i32 bin add %1, %10
           %12 = i32 bin mul %11, %10
           store %9, %12, align 4, bytes 4
           %13 = i32 bin add %1, %4
           %14 = i32 bin shl %13, %4
           %15 = i32 bin shl %13, %1
           store %9, %14, align 4, bytes 4
           store %9, %15, align 4, bytes 4
           ret",
        "kernel k(ptr.global, i32)
         bb0:
           %0 = ptr.global arg 0
           %1 = i32 arg 1
           %2 = i32 const 0xfffffffe
           %3 = i32 bin add %1, %2
           %4 = i32 const 0x2
           %16 = i32 bin shl %1, %4
           %17 = i32 const 0xfffffff8
           %5 = i32 bin add %16, %17
           %6 = i32 const 0x200
           %18 = i32 const 0x1f8
           %7 = i32 bin add %16, %18
           %8 = i64 conv zext %7
           %9 = ptr.global ptradd %0, %8
           store %9, %1, align 4, bytes 4
           %10 = i32 const 0x3
           %11 = i32 bin add %1, %10
           %19 = i32 bin mul %1, %10
           %20 = i32 const 0x9
           %12 = i32 bin add %19, %20
           store %9, %12, align 4, bytes 4
           %13 = i32 bin add %1, %4
           %14 = i32 bin shl %13, %4
           %15 = i32 bin shl %13, %1
           store %9, %14, align 4, bytes 4
           store %9, %15, align 4, bytes 4
           ret",
    );
}
