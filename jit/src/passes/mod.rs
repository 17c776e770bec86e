//! The IR passes, one file each, run in the order of `PASSES`. After lowering and after
//! every pass the verifier runs (debug builds, tests, `GENCL_VERIFY_IR=1`), and
//! `GENCL_DUMP_IR=1` prints the IR after each (to stderr, in `ir::print`'s form).
//! `uniform` is an analysis that instruction selection reads, run last.

pub mod address_spaces;
pub mod constfold;
pub mod cse;
pub mod dce;
pub mod disjoint_or;
pub mod div64;
pub mod generic_pointers;
pub mod halves;
pub mod local_atomics64;
pub mod mem2reg;
pub mod narrow;
pub mod native_half;
pub mod printf;
pub mod private_memory;
pub mod private_registers;
pub mod ptradd_chains;
pub mod pushed_args;
pub mod reassociate;
pub mod simplify_cfg;
pub mod strength;
pub mod uniform;
pub mod unroll;

use crate::ir::{print, verify, Function};

/// A pass: rewrites the function in place.
pub type Pass = fn(&mut Function);

/// The passes, in the order they run.
pub const PASSES: &[(&str, Pass)] = &[
    // printf calls as the atomic that takes a record's room and the stores that fill it.
    ("printf", printf::run),
    // Pushed-constant reads for by-value aggregates (seed 001, case 1).
    ("pushed_args", pushed_args::run),
    // Private variables into SSA values (unoptimised SPIR-V, libclc).
    ("mem2reg", mem2reg::run),
    // Generic pointers whose address space is provable take it (seed 002); after mem2reg,
    // which turns the pointers unoptimised code keeps in variables back into values.
    ("address_spaces", address_spaces::run),
    // Small arrays indexed at run time into registers, where they fit.
    ("private_registers", private_registers::run),
    // What stays in memory gets its place in the work-item's private area.
    ("private_memory", private_memory::run),
    // What stays generic: tags at the casts, a local/global switch at each access.
    ("generic_pointers", generic_pointers::run),
    // 64-bit atomics on local memory under a lock (Gen9's SLM atomics are 32-bit); after
    // generic_pointers, whose local arms can hold them.
    ("local_atomics64", local_atomics64::run),
    // Constants and integer identities that inlining and promotion expose.
    ("constfold", constfold::run),
    // Halves carried as floats converted bit for bit only where their bits can be seen.
    ("halves", halves::run),
    // Division, remainder and 64-bit products by powers of two as shifts and masks.
    ("strength", strength::run),
    // Offsets from a buffer argument summed into one, so that its accesses can take its
    // surface (a vector's components, a struct's fields).
    ("ptradd_chains", ptradd_chains::run),
    // 64-bit arithmetic read only in 32 bits done in 32 bits (mul_hi written in C).
    ("narrow", narrow::run),
    // 64-bit division and remainder left after those: 32-bit hardware division where both
    // operands fit, else a few rounds of float-estimated quotient digits.
    ("div64", div64::run),
    // Constant branches gone, dead blocks emptied, straight lines joined.
    ("simplify_cfg", simplify_cfg::run),
    // Loops that run a constant number of times as straight code, folded (hash rounds,
    // bit loops, fixed-step generators).
    ("unroll", unroll::run),
    // Products by the powers of two that unrolled counters became.
    ("strength", strength::run),
    // `(l << 1) | 1` as the add it is, so that `t[2l]` and `t[2l + 1]` coalesce.
    ("disjoint_or", disjoint_or::run),
    // A sum's constant out through shifts, products and sums (`((l - d) << 2) + base` as
    // `(l << 2) + (base - 4d)`), so that cse shares what is left.
    ("reassociate", reassociate::run),
    // One computation of each pure expression where another dominates it.
    ("cse", cse::run),
    // Half arithmetic on halves as native half operations (packed `:hf` registers).
    ("native_half", native_half::run),
    // Dead code (what lowering and the passes before leave unused).
    ("dce", dce::run),
];

/// The passes a library template gets once, on its own, before it is kept
/// (`frontend::lower::template`): what cleans up a built-in whatever calls it. The rest of
/// `PASSES` runs on the kernel the template is spliced into.
pub const LIBRARY_PASSES: &[(&str, Pass)] = &[
    ("mem2reg", mem2reg::run),
    ("constfold", constfold::run),
    ("strength", strength::run),
    ("narrow", narrow::run),
    ("simplify_cfg", simplify_cfg::run),
    ("cse", cse::run),
    ("dce", dce::run),
];

/// Every use of a key of `map` (operands and branch conditions) reads its value instead,
/// through chains of replacements.
pub(crate) fn replace_uses(
    f: &mut Function,
    map: &rustc_hash::FxHashMap<crate::ir::Value, crate::ir::Value>,
) {
    let resolve = |mut v: crate::ir::Value| {
        while let Some(r) = map.get(&v) {
            v = *r;
        }
        v
    };
    // Only placed instructions: the rest are dead and read by nobody.
    for b in 0..f.blocks.len() {
        for i in 0..f.blocks[b].insts.len() {
            let v = f.blocks[b].insts[i];
            f.insts[v.0 as usize].op.map_operands(&resolve);
        }
        if let crate::ir::Term::CondBr(c, t, e) = f.blocks[b].term {
            f.blocks[b].term = crate::ir::Term::CondBr(resolve(c), t, e);
        }
    }
    for v in &mut f.live_out {
        *v = resolve(*v);
    }
}

/// Split block `b` around its instruction `pos`: the instructions after it and the
/// terminator move to a new block (returned), whose successors' phis now name it; the
/// instruction itself is taken out of `b`, which is left unterminated for the caller to
/// branch from (into code that ends in the new block, where the caller places the
/// instruction's replacement).
pub(crate) fn split_around(f: &mut Function, b: usize, pos: usize) -> crate::ir::Block {
    use crate::ir::{Block, BlockData, Op, Term};
    let tail: Vec<crate::ir::Value> = f.blocks[b].insts.split_off(pos + 1);
    f.blocks[b].insts.pop();
    let term = std::mem::replace(&mut f.blocks[b].term, Term::None);
    let join = Block(f.blocks.len() as u32);
    let succs: Vec<Block> = match &term {
        Term::Br(t) => vec![*t],
        Term::CondBr(_, t, e) => vec![*t, *e],
        _ => vec![],
    };
    for s in succs {
        for k in 0..f.blocks[s.0 as usize].insts.len() {
            let p = f.blocks[s.0 as usize].insts[k];
            if let Op::Phi(ins) = &mut f.insts[p.0 as usize].op {
                for (from, _) in ins.iter_mut() {
                    if from.0 as usize == b {
                        *from = join;
                    }
                }
            }
        }
    }
    f.blocks.push(BlockData { insts: tail, term });
    join
}

#[derive(Clone, Copy, Debug)]
pub struct PassOptions {
    pub verify: bool,
    pub dump: bool,
}

fn env_on(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

impl Default for PassOptions {
    /// Verify in debug builds or with GENCL_VERIFY_IR=1; dump with GENCL_DUMP_IR=1.
    fn default() -> Self {
        PassOptions {
            verify: cfg!(debug_assertions) || env_on("GENCL_VERIFY_IR"),
            dump: env_on("GENCL_DUMP_IR"),
        }
    }
}

/// Run every pass; an error names the pass after which the IR stopped verifying
/// (a compiler bug, reported as a build error rather than a crash).
pub fn run(f: &mut Function, opts: PassOptions) -> Result<(), String> {
    run_list(f, PASSES, opts)
}

/// Run `list` in order, with the verifier and the dump of `opts` after lowering and after
/// each pass.
pub fn run_list(f: &mut Function, list: &[(&str, Pass)], opts: PassOptions) -> Result<(), String> {
    let check = |f: &Function, after: &str| -> Result<(), String> {
        if opts.dump {
            eprintln!("; IR of '{}' after {after}\n{}", f.name, print::print(f));
        }
        if opts.verify {
            verify::verify(f).map_err(|e| {
                format!("internal compiler error: the IR is invalid after {after}: {e}")
            })?;
        }
        Ok(())
    };
    check(f, "lowering")?;
    for (name, pass) in list {
        pass(f);
        check(f, name)?;
    }
    Ok(())
}
