#!/usr/bin/env python3
"""Audit of the OpenCL C built-in library (issue 9, "The built-in library, complete").

Generates one kernel per (built-in, argument type) from the OpenCL C 3.0 specification's lists
(6.15: math, half_ and native_ math, integer, common, geometric, relational, vector data load
and store, conversions, shuffle), compiles every program with `target/release/gencl compile`
(which reports each kernel on its own) and prints, per category, how many kernels build and
which do not, with the JIT's reason. It checks that the build succeeds, not the results: the
corpus (tests/jit/*.cl) holds results against CPU references.

Usage: python3 scripts/audit_builtins.py [--verbose]   (needs: cargo build --release -p gencl)
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENCL = os.path.join(ROOT, "target/release/gencl")

FLOATS = ["float", "float4", "double", "double4", "half", "half4"]
INTS = [t + n for t in ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
        for n in ["", "4"]]
PRAGMA = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"

MATH1 = ("acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi erfc erf "
         "exp exp2 exp10 expm1 fabs floor lgamma log log2 log10 log1p logb rint round rsqrt sin "
         "sinh sinpi sqrt tan tanh tanpi tgamma trunc").split()
MATH2 = ("atan2 atan2pi copysign fdim fmax fmin fmod hypot maxmag minmag nextafter pow powr "
         "remainder").split()
MATH3 = ["fma", "mad"]
HALF_NATIVE1 = "cos exp exp2 exp10 log log2 log10 recip rsqrt sin sqrt tan".split()
HALF_NATIVE2 = ["divide", "powr"]
INT1 = ["abs", "clz", "ctz", "popcount"]
INT2 = ["abs_diff", "add_sat", "hadd", "rhadd", "max", "min", "mul_hi", "rotate", "sub_sat"]
INT3 = ["clamp", "mad_hi", "mad_sat"]
COMMON = {"clamp": 3, "degrees": 1, "max": 2, "min": 2, "mix": 3, "radians": 1, "step": 2,
          "smoothstep": 3, "sign": 1}
REL2 = ("isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered "
        "isunordered").split()
REL1 = ["isfinite", "isinf", "isnan", "isnormal", "signbit"]


def int_of(t):
    """The int type of a float type's shape (ilogb, pown, ...)."""
    return "int" + re.sub(r"^[a-z]+", "", t)


def rel_of(t):
    """The relational result type of float type `t`."""
    n = re.sub(r"^[a-z]+", "", t)
    base = {"float": "int", "double": "long", "half": "short"}[re.sub(r"\d+$", "", t)]
    return ("int" if n == "" else base) + n


def kernels():
    """(category, name, source) for every kernel of the audit."""
    out = []

    def k(cat, name, params, body):
        out.append((cat, name, f"kernel void {name}({params}) {{ size_t i = get_global_id(0); {body} }}\n"))

    for t in FLOATS:
        s = t.replace("4", "v4")
        io = f"global {t} *a, global {t} *o"
        for f in MATH1:
            k("math", f"m1_{f}_{s}", io, f"o[i] = {f}(a[i]);")
        for f in MATH2:
            k("math", f"m2_{f}_{s}", io, f"o[i] = {f}(a[i], a[i + 1]);")
        for f in MATH3:
            k("math", f"m3_{f}_{s}", io, f"o[i] = {f}(a[i], a[i + 1], a[i + 2]);")
        it = int_of(t)
        k("math", f"ms_frexp_{s}", io + f", global {it} *e", "o[i] = frexp(a[i], &e[i]);")
        k("math", f"ms_ilogb_{s}", f"global {t} *a, global {it} *o", "o[i] = ilogb(a[i]);")
        k("math", f"ms_ldexp_{s}", io + f", global {it} *e", "o[i] = ldexp(a[i], e[i]);")
        k("math", f"ms_lgamma_r_{s}", io + f", global {it} *e", "o[i] = lgamma_r(a[i], &e[i]);")
        k("math", f"ms_modf_{s}", io, "o[i] = modf(a[i], &o[i + 1]);")
        k("math", f"ms_fract_{s}", io, "o[i] = fract(a[i], &o[i + 1]);")
        k("math", f"ms_sincos_{s}", io, "o[i] = sincos(a[i], &o[i + 1]);")
        k("math", f"ms_pown_{s}", io + f", global {it} *e", "o[i] = pown(a[i], e[i]);")
        k("math", f"ms_rootn_{s}", io + f", global {it} *e", "o[i] = rootn(a[i], e[i]);")
        k("math", f"ms_remquo_{s}", io + f", global {it} *e", "o[i] = remquo(a[i], a[i + 1], &e[i]);")
        for f, n in COMMON.items():
            args = ", ".join(f"a[i + {j}]" for j in range(n))
            k("common", f"c_{f}_{s}", io, f"o[i] = {f}({args});")
        for f in REL2:
            k("relational", f"r2_{f}_{s}", f"global {t} *a, global {rel_of(t)} *o", f"o[i] = {f}(a[i], a[i + 1]);")
        for f in REL1:
            k("relational", f"r1_{f}_{s}", f"global {t} *a, global {rel_of(t)} *o", f"o[i] = {f}(a[i]);")
        k("relational", f"r_bitselect_{s}", io, "o[i] = bitselect(a[i], a[i + 1], a[i + 2]);")
        same_bits = {"float": "int", "double": "long", "half": "short"}[re.sub(r"\d+$", "", t)] + re.sub(r"^[a-z]+", "", t)
        k("relational", f"r_select_{s}", io + f", global {same_bits} *c", "o[i] = select(a[i], a[i + 1], c[i]);")
    for t in ["float", "float4"]:
        s = t.replace("4", "v4")
        io = f"global {t} *a, global {t} *o"
        for pre in ["half", "native"]:
            for f in HALF_NATIVE1:
                k("half_native", f"{pre}_{f}_{s}", io, f"o[i] = {pre}_{f}(a[i]);")
            for f in HALF_NATIVE2:
                k("half_native", f"{pre}_{f}_{s}", io, f"o[i] = {pre}_{f}(a[i], a[i + 1]);")
    for t in ["float", "float2", "float3", "float4", "double", "double2", "double3", "double4",
              "half", "half4"]:
        s = t.replace("2", "v2").replace("3", "v3").replace("4", "v4")
        sc = re.sub(r"\d+$", "", t)
        k("geometric", f"g_dot_{s}", f"global {t} *a, global {sc} *o", "o[i] = dot(a[i], a[i + 1]);")
        k("geometric", f"g_distance_{s}", f"global {t} *a, global {sc} *o", "o[i] = distance(a[i], a[i + 1]);")
        k("geometric", f"g_length_{s}", f"global {t} *a, global {sc} *o", "o[i] = length(a[i]);")
        k("geometric", f"g_normalize_{s}", f"global {t} *a, global {t} *o", "o[i] = normalize(a[i]);")
        if t in ("float3", "float4", "double3", "double4"):
            k("geometric", f"g_cross_{s}", f"global {t} *a, global {t} *o", "o[i] = cross(a[i], a[i + 1]);")
        if sc == "float":
            k("geometric", f"g_fast_distance_{s}", f"global {t} *a, global float *o", "o[i] = fast_distance(a[i], a[i + 1]);")
            k("geometric", f"g_fast_length_{s}", f"global {t} *a, global float *o", "o[i] = fast_length(a[i]);")
            k("geometric", f"g_fast_normalize_{s}", f"global {t} *a, global {t} *o", "o[i] = fast_normalize(a[i]);")
    for t in INTS:
        s = t.replace("4", "v4")
        io = f"global {t} *a, global {t} *o"
        for f in INT1:
            k("integer", f"i1_{f}_{s}", f"global {t} *a, global u{t.lstrip('u')} *o" if f == "abs" else io,
              f"o[i] = {f}(a[i]);")
        for f in INT2:
            k("integer", f"i2_{f}_{s}", f"global {t} *a, global u{t.lstrip('u')} *o" if f == "abs_diff" else io,
              f"o[i] = {f}(a[i], a[i + 1]);")
        for f in INT3:
            k("integer", f"i3_{f}_{s}", io, f"o[i] = {f}(a[i], a[i + 1], a[i + 2]);")
        k("relational", f"r_bitselect_{s}", io, "o[i] = bitselect(a[i], a[i + 1], a[i + 2]);")
        signed = t.lstrip("u")
        k("relational", f"r_select_{s}", io, f"o[i] = select(a[i], a[i + 1], as_{signed}(a[i + 2]));")
        if t.endswith("4") and not t.startswith("u"):
            k("relational", f"r_any_all_{s}", f"global {t} *a, global int *o", "o[i] = any(a[i]) + all(a[i]);")
        wider = {"char": "short", "short": "int", "int": "long"}
        base = t.rstrip("4").lstrip("u")
        if base in wider and t.startswith("u") is False:
            n = "4" if t.endswith("4") else ""
            k("integer", f"i_upsample_{s}", f"global {t} *a, global u{t} *b, global {wider[base]}{n} *o",
              "o[i] = upsample(a[i], b[i]);")
    for t in ["int", "uint", "int4", "uint4"]:
        s = t.replace("4", "v4")
        k("integer", f"i_mad24_{s}", f"global {t} *a, global {t} *o", "o[i] = mad24(a[i], a[i + 1], a[i + 2]);")
        k("integer", f"i_mul24_{s}", f"global {t} *a, global {t} *o", "o[i] = mul24(a[i], a[i + 1]);")
    for t in ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half"]:
        for n in ["2", "3", "4", "8", "16"]:
            k("vload_vstore", f"v_{t}{n}", f"global {t} *a, global {t} *o",
              f"vstore{n}(vload{n}(i, a), i, o);")
    for n in ["", "2", "3", "4", "8", "16"]:
        for mode in ["", "_rte", "_rtz", "_rtp", "_rtn"]:
            k("vload_vstore", f"vh_half{n}{mode}", "global half *a, global float *o",
              f"vstore_half{n}{mode}(vload_half{n}(i, a), i, (global half *)o);")
        if n:
            k("vload_vstore", f"vha_half{n}", "global half *a, global float *o",
              f"vstorea_half{n}(vloada_half{n}(i, a), i, (global half *)o);")
    scal = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half"]
    for dst in scal:
        for src in scal:
            for sat in (["", "_sat"] if dst not in ("float", "double", "half") else [""]):
                for mode in ["", "_rte", "_rtz", "_rtp", "_rtn"]:
                    k("conversions", f"cv_{dst}{sat}{mode}_{src}", f"global {src}4 *a, global {dst}4 *o",
                      f"o[i] = convert_{dst}4{sat}{mode}(a[i]);")
    for t in ["char", "int", "long", "float", "double"]:
        m = {"char": "uchar", "int": "uint", "long": "ulong", "float": "uint", "double": "ulong"}[t]
        for n in ["2", "4", "8", "16"]:
            k("shuffle", f"sh_{t}{n}", f"global {t}{n} *a, global {m}{n} *m, global {t}{n} *o",
              "o[i] = shuffle(a[i], m[i]) + shuffle2(a[i], a[i + 1], m[i]);")
    return out


def main():
    verbose = "--verbose" in sys.argv
    ks = kernels()
    by_cat = collections.defaultdict(list)
    for cat, name, src in ks:
        by_cat[cat].append((name, src))
    failures = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for cat, items in by_cat.items():
            path = os.path.join(tmp, f"{cat}.cl")
            with open(path, "w") as f:
                f.write(PRAGMA + "".join(src for _, src in items))
            p = subprocess.run([GENCL, "compile", "-o", tmp, "--options=-cl-std=CL2.0", path],
                               capture_output=True, text=True)
            # A failed program lists each failing kernel ("kernel 'name': why"); a clang
            # error fails them all.
            log = p.stderr + p.stdout
            clang_failed = p.returncode != 0 and "kernel '" not in log
            for name, _ in items:
                why = re.search(rf"kernel '{re.escape(name)}': (?!SIMD)(.*)", log)
                if why:
                    failures[cat].append((name, why.group(1)))
                elif clang_failed:
                    failures[cat].append((name, "clang: " + (log.strip().splitlines() or ["?"])[0][:200]))
    total = len(ks)
    bad = sum(len(v) for v in failures.values())
    print(f"{'category':<14} {'kernels':>8} {'build':>8}")
    for cat, items in by_cat.items():
        print(f"{cat:<14} {len(items):>8} {len(items) - len(failures[cat]):>8}")
    print(f"{'all':<14} {total:>8} {total - bad:>8}")
    for cat, fs in failures.items():
        reasons = collections.Counter(re.sub(r"\d+", "N", why)[:120] for _, why in fs)
        print(f"\n{cat}: {len(fs)} fail")
        for why, n in reasons.most_common():
            print(f"  {n:>4}  {why}")
        if verbose:
            for name, why in fs:
                print(f"    {name}: {why}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
