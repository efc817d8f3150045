"""The settings watch around every learner call: reading torch's namespaces (``course.settings._Bindings``) by filtering
every reading down to its callables first (before stop 57), as two plain copies compared by identity (stops 57-64),
and as one copy compared in place with the live namespaces (now: ``_Bindings.unchanged_now``), side by side in one
run; and the whole ``settings.snapshot()`` + ``restore_changed()`` pair a call pays.

Usage: .venv/bin/python benchmarks/settings_snapshot.py [--calls 2000]

Prints microseconds per call for each and the ratio before / now.
"""

from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import settings  # noqa: E402


def filtered_reading() -> dict[str, dict[str, object]]:
    """The reading as it was: every namespace filtered to its callables (classes and modules left out)."""
    return {
        label: {
            k: v
            for k, v in vars(ns).items()
            if not isinstance(v, (type, types.ModuleType)) and k not in settings._CACHES
        }
        for label, ns in settings._NAMESPACES.items()
    }


def filtered_same(a: dict, b: dict) -> bool:
    """The comparison as it was: key sets and identities of two filtered readings."""
    return all(a[label].keys() == b[label].keys() and all(a[label][k] is b[label][k] for k in a[label]) for label in a)


def per_call(fn, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    calls = parser.parse_args().calls
    before = per_call(lambda: filtered_same(filtered_reading(), filtered_reading()), calls)
    copies = per_call(lambda: settings._Bindings() == settings._Bindings(), calls)
    reading = settings._Bindings()
    now = per_call(lambda: settings._Bindings().unchanged_now(), calls)  # what a call pays since stop 65
    whole = per_call(lambda: settings.restore_changed(settings.snapshot()), max(calls // 10, 1))
    print(
        f"namespace readings, two and a comparison: before stop 57 {before:.0f} us, two copies (stop 57-64) "
        f"{copies:.0f} us, one copy compared in place (now) {now:.0f} us; ratios {before / now:.1f}, {copies / now:.1f}"
    )
    print(f"settings.snapshot() + restore_changed() per learner call now: {whole:.0f} us")
    assert reading.unchanged_now()  # nothing rebound while measuring


if __name__ == "__main__":
    main()
