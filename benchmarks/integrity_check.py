"""The integrity check around the learner's scenario calls (``autograder.child.integrity.Baseline.tampered``): the
quick path (what every function refers to, compared by identity in C; now) against reading each function's code,
defaults and keyword defaults in Python (before stop 62; each ``f.__code__`` read raises an audit event, and the
course's audit hook is a Python call), side by side in one run, in a process with what a learner child imports.

Usage: .venv/bin/python benchmarks/integrity_check.py [--checks 300]

Prints milliseconds per check for each and the ratio before / now.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograder.child import integrity, zygote  # noqa: E402


def exact_functions(baseline: integrity.Baseline) -> bool:
    """The functions' part of the check as it was: one Python-level comparison per function."""
    return all(integrity._same_parts(f, parts) for _, f, parts in baseline.functions.values())


def per_check(fn, checks: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(checks):
        fn()
    return (time.perf_counter() - start) / checks * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=300)
    checks = parser.parse_args().checks
    zygote._preload("learner")  # the modules a learner child has loaded when its Server makes the baseline
    baseline = integrity.Baseline()
    quick = per_check(baseline._functions_as_they_were, checks)
    exact = per_check(lambda: exact_functions(baseline), checks)
    whole = per_check(baseline.tampered, checks)
    print(f"functions checked: {len(baseline.functions)}, namespaces: {len(baseline.namespaces)}")
    print(f"functions, exact per function (before): {exact:6.3f} ms per check")
    print(f"functions, quick path in C (now):       {quick:6.3f} ms per check   ratio {exact / quick:4.1f}x")
    print(f"the whole tampered() now:               {whole:6.3f} ms per check")


if __name__ == "__main__":
    main()
