#!/usr/bin/env python3
"""Compares a pytest JUnit XML report of pyopencl's own tests with gencl's expected-failure list.

usage: compare.py REPORT.xml [REPORT.xml...] EXPECTED.txt   (one report per test file)

Test ids drop pytest's context-factory parameter (it names the device), so
`test_array.py::test_pow_array[<context factory for ...>-add]` is listed as
`test_array.py::test_pow_array[add]`. Each line of EXPECTED.txt is `test id | cause`. The run
fails when a test fails that is not listed (a regression) or when a listed test passes (the list
must shrink with the fix); a listed test that did not run (skipped, deselected) is reported only.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expected_failures import load_expected  # noqa: E402

CTX = re.compile(r"<context factory for <pyopencl\.Device [^>]*>>-?")


def test_id(case):
    # classname "test_array" (or "test.test_array"), name "test_x[<context factory ...>-p]"
    module = case.get("classname", "").split(".")[-1]
    name = CTX.sub("", case.get("name", "")).replace("[]", "")
    return f"{module}.py::{name}"


def load_report(path):
    outcome = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            outcome[test_id(case)] = "fail"
        elif case.find("skipped") is not None:
            outcome[test_id(case)] = "skip"
        else:
            outcome[test_id(case)] = "pass"
    return outcome


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outcome = {}
    for report in sys.argv[1:-1]:
        if not os.path.exists(report):
            print(f"no report: {report} (the pytest run did not finish)")
            sys.exit(1)
        outcome.update(load_report(report))
    expected = load_expected(sys.argv[-1])
    counts = {k: sum(1 for v in outcome.values() if v == k) for k in ("pass", "fail", "skip")}
    print(f"pyopencl: {len(outcome)} tests: pass {counts['pass']}, fail {counts['fail']}, "
          f"skip {counts['skip']}")
    bad = 0
    for t, o in sorted(outcome.items()):
        if o == "fail" and t not in expected:
            print(f"REGRESSION {t}")
            bad += 1
        if o == "pass" and t in expected:
            print(f"NOW PASSES (remove it from the list): {t}")
            bad += 1
    for t in sorted(set(expected) - set(outcome)):
        print(f"not run: {t}")
    print(f"pyopencl: {counts['fail']} failing, {len(expected)} expected; {bad} unexpected")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
