"""The expected-failure lists of the suites no one here wrote (tests/piglit/, tests/pyopencl/):
one entry per line as `test name | cause`, `#` comments and blank lines ignored."""
import os
import sys


def load_expected(path):
    """The list as {test name: cause}; an entry without a cause ends the run. A missing file
    is an empty list (piglit's GENCL_PIGLIT_WRITE=1 writes it from a run)."""
    expected = {}
    if not os.path.exists(path):
        return expected
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            name, sep, cause = line.partition(" | ")
            if not sep or not cause.strip():
                sys.exit(f"{path}: every entry needs a cause: {line!r}")
            expected[name.strip()] = cause.strip()
    return expected
