#!/usr/bin/env python3
"""Compares a piglit results file with gencl's expected-failure list.

usage: compare.py RESULTS.json.bz2 EXPECTED.txt

Each line of EXPECTED.txt is `test name | cause`. The run fails when a test fails that is not
listed (a regression) or when a listed test passes or is skipped (the list must shrink with the
fix). With GENCL_PIGLIT_WRITE=1 the list is rewritten from the run: causes already in the list are
kept, new entries get the first error line of the test's output, to be edited by hand.
"""
import bz2
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expected_failures import load_expected  # noqa: E402

BAD = ("fail", "crash", "timeout", "incomplete", "dmesg-fail", "warn")

# Causes that belong to the open issues, recognised in the build log so that a rewritten list
# names them without hand edits.
KNOWN = [
    (r"program-scope variable '[^']*' in an address space other than",
     "memory model (issue 10): a program-scope variable in an unsupported address space"),
    (r"a private variable of \d+ bytes indexed at run time",
     "memory model (issue 10): private arrays in scratch"),
    (r"SPIR-V instruction Atomic", "memory model (issue 10): atomics"),
    (r"'printf'", "issue 10: printf"),
    (r"unsupported: barrier", "memory model (issue 10): barriers"),
]


def load_results(path):
    with bz2.open(path, "rt") as f:
        return json.load(f)["tests"]


def derive_cause(result):
    text = (result.get("out") or "") + (result.get("err") or "")
    for pattern, cause in KNOWN:
        if re.search(pattern, text):
            return cause
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("--") or "Build log" in line:
            continue
        if re.search(r"unsupported|error|Error|Fail|fail|Expect", line):
            return "TODO: " + line[:160]
    return "TODO: no message"


def main():
    results_path, expected_path = sys.argv[1], sys.argv[2]
    tests = load_results(results_path)
    expected = load_expected(expected_path)
    failing = {name: r for name, r in tests.items() if r["result"] in BAD}
    counts = {}
    for r in tests.values():
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"piglit cl: {len(tests)} tests: {summary}")

    if os.environ.get("GENCL_PIGLIT_WRITE") == "1":
        header = []
        if os.path.exists(expected_path):
            with open(expected_path) as f:
                header = [l.rstrip("\n") for l in f if l.startswith("#")]
        with open(expected_path, "w") as f:
            for line in header:
                f.write(line + "\n")
            for name in sorted(failing):
                cause = expected.get(name) or derive_cause(failing[name])
                f.write(f"{name} | {cause}\n")
        print(f"wrote {len(failing)} entries to {expected_path}")
        return 0

    regressions = sorted(set(failing) - set(expected))
    fixed = sorted(n for n in expected if n in tests and n not in failing)
    missing = sorted(n for n in expected if n not in tests)
    for name in regressions:
        print(f"REGRESSION {name}: {tests[name]['result']}: {derive_cause(tests[name])}")
    for name in fixed:
        print(f"NOW {tests[name]['result'].upper()} (remove it from the list): {name}")
    for name in missing:
        print(f"NOT RUN (remove it from the list): {name}")
    print(f"piglit cl: {len(failing)} failing, {len(expected)} expected; "
          f"{len(regressions)} unexpected failures, {len(fixed) + len(missing)} stale entries")
    return 1 if regressions or fixed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
