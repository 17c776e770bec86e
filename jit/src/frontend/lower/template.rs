//! Library templates: a built-in of the library (sin, exp, ...) lowered once on its own into
//! IR, its parameters as placeholders (`Op::Arg(k)`, the k-th scalar component of the
//! arguments), cleaned by `passes::LIBRARY_PASSES`, and kept for the process and, between
//! processes, in the library cache folder (`<name>_<hash of the types>.ir`). A call copies the template
//! into the caller, placeholders replaced by the arguments, instead of cutting the built-in
//! out of the library, parsing it and lowering it again.
//!
//! Why: lowering a built-in from SPIR-V was most of a typical kernel's compile (parsing its
//! slice with rspirv, lowering libclc's unoptimised code, promoting its variables); the result
//! depends only on the built-in and its argument types, so it is made once per machine.
//!
//! A built-in whose lowering needs its caller (local memory, printf) or fails has no template;
//! the caller lowers it in place as before, and a failure is reported from there, with its
//! source line. A template read back from disk is untrusted input: it is decoded, bounds
//! checked and verified, and one that fails any check is made again.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};

use super::{library, FrontendError, LibData, Lowerer, SlmLayout, Sym};
use crate::ir::{Block, Function, Op, Term, Ty, Value};
use crate::passes;

/// A built-in lowered on its own.
#[derive(Serialize, Deserialize)]
pub(super) struct Template {
    /// Block 0 is the entry; `Op::Arg(k)` there is the k-th parameter component (its type
    /// `func.args[k]`); the one block that ends in `Term::Ret` is the exit, and
    /// `func.live_out` the results, one per scalar leaf.
    func: Function,
    /// The tables `Op::ConstData(1 + k)` reads: the library function they were cut out
    /// with, and their bytes (empty where the template does not read them).
    data: Vec<(String, Vec<u8>)>,
    /// Every function the built-in's slice calls has a body (`library::Slice::complete`).
    pub complete: bool,
}

/// What a built-in's call goes through.
pub(super) enum Callee {
    Template(Arc<Template>),
    /// The library function, lowered in place (no template).
    Slice(&'static library::Slice),
}

impl Callee {
    pub fn complete(&self) -> bool {
        match self {
            Callee::Template(t) => t.complete,
            Callee::Slice(s) => s.complete,
        }
    }
}

/// Templates made or read in this process, by key; None: the built-in has none.
type Made = Mutex<HashMap<String, Option<Arc<Template>>>>;
static MADE: OnceLock<Made> = OnceLock::new();

/// Cache files start with this, then the format's version.
const MAGIC: &[u8; 4] = b"GCLT";
const VERSION: u32 = 1;

/// The key of built-in `name` called with arguments of types `tys`: the mangled name, and a
/// hash of the component types (a pointer's address space, a vector's width).
fn key(name: &str, tys: &[Ty]) -> String {
    format!("{name}_{:016x}", fnv(format!("{tys:?}").as_bytes()))
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Lowerer<'_, '_> {
    /// How to call built-in `name` with `args`: its template (made now if this process has
    /// none and the cache folder neither), else its library slice; None when the library has
    /// no such function.
    pub(super) fn callee(
        &mut self,
        name: &str,
        args: &[Sym],
    ) -> Result<Option<Callee>, FrontendError> {
        let mut tys = Vec::new();
        for a in args {
            match a {
                Sym::Vals(v) => tys.extend(v.iter().map(|v| self.f.ty(*v))),
                // Not from a built-in's call; lowered in place.
                Sym::Undef => return Ok(library::function(name)?.map(Callee::Slice)),
                Sym::Image(_) | Sym::Sampler(_) | Sym::SampledImage(..) => {
                    return Err(FrontendError::Unsupported(format!(
                        "an image or sampler passed to the library's {name}"
                    )))
                }
            }
        }
        let key = key(name, &tys);
        let made = MADE.get_or_init(Default::default);
        let known = made
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .cloned();
        let t = match known {
            Some(t) => t,
            None => {
                // Not under the lock: making a template lowers its built-in, which may call
                // other built-ins and so come back here.
                let file = library::cache_file(&library::library_path(), &key, "ir");
                let read = file.as_deref().and_then(|f| read(f, &tys));
                let t = match read {
                    Some(t) => Some(Arc::new(t)),
                    None => {
                        let Some(slice) = library::function(name)? else {
                            return Ok(None);
                        };
                        let t = self.make(name, slice, args, &tys);
                        if let (Some(t), Some(f)) = (&t, &file) {
                            write(f, t);
                        }
                        t.map(Arc::new)
                    }
                };
                made.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key, t.clone());
                t
            }
        };
        match t {
            Some(t) => Ok(Some(Callee::Template(t))),
            None => Ok(library::function(name)?.map(Callee::Slice)),
        }
    }

    /// Lower `slice` on its own with placeholder arguments shaped as `args`, then clean it;
    /// None where the result would not stand alone.
    fn make(
        &self,
        name: &str,
        slice: &'static library::Slice,
        args: &[Sym],
        tys: &[Ty],
    ) -> Option<Template> {
        let mut func = Function::new(name, tys.to_vec());
        let entry = func.add_block();
        let mut k = 0;
        let mut params = Vec::new();
        for a in args {
            let Sym::Vals(v) = a else { return None };
            let mut comps = Vec::new();
            for _ in v {
                comps.push(func.push(entry, Op::Arg(k), tys[k as usize]));
                k += 1;
            }
            params.push(Sym::Vals(comps));
        }
        let libs = std::cell::RefCell::new(Vec::new());
        let slm = std::cell::RefCell::new(SlmLayout::default());
        let printf = std::cell::RefCell::new(Vec::new());
        // Library math reads no sub-group value, so a template is the same at every width
        // (and its cache key leaves the width out): lowered at the default, 8.
        let width_read = std::cell::Cell::new(false);
        let mut sub = Lowerer::new(
            &slice.info,
            &mut func,
            0,
            self.depth,
            (&libs, &slm, &printf),
            (8, &width_read),
        );
        sub.data = sub.lib_index(name, || LibData::Slice(slice));
        let (exit, results) = match sub.lower_call(slice.fid, params, entry) {
            Ok(r) => r,
            Err(e) => {
                tracing::debug!("no template for {name}: {e}");
                return None;
            }
        };
        if width_read.get() {
            tracing::debug!("no template for {name}: it reads the SIMD width");
            return None;
        }
        if slm.borrow().end != 0 || !printf.borrow().is_empty() {
            tracing::debug!("no template for {name}: it uses local memory or printf");
            return None;
        }
        func.blocks[exit.0 as usize].term = Term::Ret;
        func.live_out = results;
        if let Err(e) = passes::run_list(
            &mut func,
            passes::LIBRARY_PASSES,
            passes::PassOptions::default(),
        ) {
            tracing::warn!("no template for {name}: {e}");
            return None;
        }
        let func = compact(&func);
        let reads = |n: u32| func.insts.iter().any(|i| i.op == Op::ConstData(n));
        let mut data = Vec::new();
        for (k, lib) in libs.borrow().iter().enumerate() {
            let bytes = if reads(1 + k as u32) {
                lib.bytes().ok()?
            } else {
                Vec::new()
            };
            data.push((lib.name.clone(), bytes));
        }
        let t = Template {
            func,
            data,
            complete: slice.complete,
        };
        if let Err(e) = check(&t, tys) {
            tracing::warn!("no template for {name}: {e}");
            return None;
        }
        Some(t)
    }

    /// Copy template `t` into the function at block `cur`, its parameters replaced by the
    /// components of `args`; the block where the call's code ends, and its results.
    pub(super) fn splice(
        &mut self,
        t: &Template,
        args: Vec<Sym>,
        cur: Block,
    ) -> Result<(Block, Vec<Value>), FrontendError> {
        let mut vals = Vec::new();
        for a in args {
            match a {
                Sym::Vals(v) => vals.extend(v),
                Sym::Undef => return Err(FrontendError::InvalidIl("undefined argument".into())),
                Sym::Image(_) | Sym::Sampler(_) | Sym::SampledImage(..) => {
                    return Err(FrontendError::Unsupported(
                        "an image or sampler passed to a library template".into(),
                    ))
                }
            }
        }
        let tf = &t.func;
        if vals.len() != tf.args.len() {
            return Err(FrontendError::InvalidIl(format!(
                "{} takes {} values, the call passes {}",
                tf.name,
                tf.args.len(),
                vals.len()
            )));
        }
        let data: Vec<u32> = t
            .data
            .iter()
            .map(|(name, bytes)| self.lib_index(name, || LibData::Bytes(bytes.clone())))
            .collect();
        let blocks: Vec<Block> = (0..tf.blocks.len())
            .map(|b| if b == 0 { cur } else { self.f.add_block() })
            .collect();
        // Place every instruction first (phis read values defined later), then rename.
        let mut map = vec![Value(u32::MAX); tf.insts.len()];
        let first = self.f.insts.len();
        for (b, bd) in tf.blocks.iter().enumerate() {
            for v in &bd.insts {
                let inst = &tf.insts[v.0 as usize];
                map[v.0 as usize] = match inst.op {
                    Op::Arg(k) => vals[k as usize],
                    _ => self.f.push(blocks[b], inst.op.clone(), inst.ty),
                };
            }
        }
        for inst in &mut self.f.insts[first..] {
            inst.op.map_operands(&|x| map[x.0 as usize]);
            match &mut inst.op {
                Op::Phi(ins) => {
                    for (p, _) in ins {
                        *p = blocks[p.0 as usize];
                    }
                }
                Op::ConstData(n) => *n = data[*n as usize - 1],
                _ => {}
            }
        }
        let mut exit = cur;
        for (b, bd) in tf.blocks.iter().enumerate() {
            let term = match bd.term {
                Term::Br(to) => Term::Br(blocks[to.0 as usize]),
                Term::CondBr(c, y, n) => Term::CondBr(
                    map[c.0 as usize],
                    blocks[y.0 as usize],
                    blocks[n.0 as usize],
                ),
                Term::Ret => {
                    exit = blocks[b];
                    Term::None
                }
                Term::None => Term::None,
            };
            self.f.blocks[blocks[b].0 as usize].term = term;
        }
        Ok((
            exit,
            tf.live_out.iter().map(|v| map[v.0 as usize]).collect(),
        ))
    }
}

/// `f` with only its reachable blocks and placed instructions, renumbered in block order
/// (what the passes leave behind is not copied into every caller).
fn compact(f: &Function) -> Function {
    let cfg = crate::analysis::Cfg::new(f);
    let mut blocks = vec![u32::MAX; f.blocks.len()];
    let mut n = 0;
    for (b, slot) in blocks.iter_mut().enumerate() {
        if cfg.rpo[b] != u32::MAX {
            *slot = n;
            n += 1;
        }
    }
    let mut values = vec![u32::MAX; f.insts.len()];
    let mut out = Function::new(&f.name, f.args.clone());
    for (b, bd) in f.blocks.iter().enumerate() {
        if blocks[b] == u32::MAX {
            continue;
        }
        for v in &bd.insts {
            values[v.0 as usize] = out.insts.len() as u32;
            out.insts.push(f.inst(*v).clone());
        }
    }
    let value = |v: Value| Value(values[v.0 as usize]);
    let block = |b: Block| Block(blocks[b.0 as usize]);
    for inst in &mut out.insts {
        inst.op.map_operands(&value);
        if let Op::Phi(ins) = &mut inst.op {
            ins.retain(|(p, _)| blocks[p.0 as usize] != u32::MAX);
            for (p, _) in ins {
                *p = block(*p);
            }
        }
    }
    for (b, bd) in f.blocks.iter().enumerate() {
        if blocks[b] == u32::MAX {
            continue;
        }
        let nb = out.add_block();
        out.blocks[nb.0 as usize].insts = bd.insts.iter().map(|v| value(*v)).collect();
        out.blocks[nb.0 as usize].term = match bd.term {
            Term::Br(t) => Term::Br(block(t)),
            Term::CondBr(c, t, e) => Term::CondBr(value(c), block(t), block(e)),
            Term::Ret => Term::Ret,
            Term::None => Term::None,
        };
    }
    out.live_out = f.live_out.iter().map(|v| value(*v)).collect();
    out
}

/// Whether `t` is a template for arguments of types `tys` that `splice` can copy: every
/// reference in bounds, parameters and tables as declared, one exit, and valid IR.
fn check(t: &Template, tys: &[Ty]) -> Result<(), String> {
    let f = &t.func;
    if f.args != tys {
        return Err("parameter types differ".into());
    }
    let (nv, nb) = (f.insts.len(), f.blocks.len());
    let value = |v: &Value| {
        if (v.0 as usize) < nv {
            Ok(())
        } else {
            Err(format!("{v} out of range"))
        }
    };
    let block = |b: &Block| {
        if (b.0 as usize) < nb {
            Ok(())
        } else {
            Err(format!("{b} out of range"))
        }
    };
    for inst in &f.insts {
        for o in inst.op.operands() {
            value(&o)?;
        }
        match &inst.op {
            Op::Phi(ins) => ins.iter().try_for_each(|(p, _)| block(p))?,
            Op::Arg(k) if f.args.get(*k as usize) != Some(&inst.ty) => {
                return Err(format!("parameter {k} of the wrong type"));
            }
            Op::ConstData(n) if *n == 0 || *n as usize > t.data.len() => {
                return Err(format!("table {n} out of range"));
            }
            Op::ArgAt { .. }
            | Op::ArgAddr(_)
            | Op::PrintfBuffer
            | Op::PrivateBase
            | Op::GlobalVars
            | Op::ScratchBase => {
                return Err("an operation of the kernel's own".into());
            }
            _ => {}
        }
    }
    let mut exits = 0;
    for bd in &f.blocks {
        bd.insts.iter().try_for_each(value)?;
        match &bd.term {
            Term::Br(b) => block(b)?,
            Term::CondBr(c, y, n) => {
                value(c)?;
                block(y)?;
                block(n)?;
            }
            Term::Ret => exits += 1,
            Term::None => {}
        }
    }
    if exits != 1 {
        return Err(format!("{exits} exits"));
    }
    f.live_out.iter().try_for_each(value)?;
    crate::ir::verify::verify(f)
}

/// A template from the cache folder, if the file is whole and passes `check`.
fn read(file: &std::path::Path, tys: &[Ty]) -> Option<Template> {
    let bytes = std::fs::read(file).ok()?;
    let t = decode(&bytes, tys);
    if t.is_none() {
        tracing::debug!("dropping the cached template {}", file.display());
        let _ = std::fs::remove_file(file);
    }
    t
}

fn decode(bytes: &[u8], tys: &[Ty]) -> Option<Template> {
    let body = bytes.strip_prefix(MAGIC.as_slice())?;
    let (version, body) = body.split_first_chunk::<4>()?;
    let (body, sum) = body.split_last_chunk::<8>()?;
    if u32::from_le_bytes(*version) != VERSION || u64::from_le_bytes(*sum) != fnv(body) {
        return None;
    }
    let t: Template = postcard::from_bytes(body).ok()?;
    check(&t, tys).ok()?;
    Some(t)
}

fn encode(t: &Template) -> Option<Vec<u8>> {
    let body = postcard::to_allocvec(t).ok()?;
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(&fnv(&body).to_le_bytes());
    Some(out)
}

fn write(file: &std::path::Path, t: &Template) {
    if let Some(bytes) = encode(t) {
        library::write_atomically(file, &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Template, Vec<Ty>) {
        let tys = vec![Ty::F32];
        let mut f = Function::new("t", tys.clone());
        let b = f.add_block();
        let x = f.push(b, Op::Arg(0), Ty::F32);
        let y = f.push(b, Op::Bin(crate::ir::BinOp::FMul, x, x), Ty::F32);
        f.blocks[b.0 as usize].term = Term::Ret;
        f.live_out = vec![y];
        let t = Template {
            func: f,
            data: Vec::new(),
            complete: true,
        };
        (t, tys)
    }

    #[test]
    fn a_cached_template_reads_back_and_damage_is_refused() {
        let (t, tys) = sample();
        let bytes = encode(&t).unwrap();
        let back = decode(&bytes, &tys).expect("reads back");
        assert_eq!(back.func.insts, t.func.insts);
        assert_eq!(back.func.live_out, t.func.live_out);
        // Every single-byte change and every truncation is refused, never a panic.
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x5a;
            assert!(decode(&bad, &tys).is_none(), "byte {i} changed");
            assert!(decode(&bytes[..i], &tys).is_none(), "cut at {i}");
        }
        // Another argument type is another template.
        assert!(decode(&bytes, &[Ty::F64]).is_none());
    }

    #[test]
    fn check_refuses_references_out_of_range() {
        let (mut t, tys) = sample();
        t.func.insts[1].op = Op::Bin(crate::ir::BinOp::FMul, Value(0), Value(7));
        assert!(check(&t, &tys).unwrap_err().contains("out of range"));
        let (mut t, tys) = sample();
        t.func.live_out = vec![Value(9)];
        assert!(check(&t, &tys).is_err());
        let (mut t, tys) = sample();
        t.func.insts.push(crate::ir::Inst {
            op: Op::ConstData(1),
            ty: Ty::Ptr(crate::ir::Space::Constant),
        });
        t.func.blocks[0].insts.push(Value(2));
        assert!(check(&t, &tys).unwrap_err().contains("table 1"));
    }
}
