"""The order a class is graded in: folder order against slowest assignment first, same class, one run.

Usage: .venv/bin/python benchmarks/grading_order.py [--students 3] [--jobs 2] [--rounds 2]

Builds the class `benchmarks/grading.py` builds and grades it with `autograder grade` in the two orders,
alternating, ``--rounds`` times each. Folder order is the grader's order before `autograder.parent.order`:
student by student, each student's assignments in course order. Prints each round's wall time, the best of
each order, and whether both orders wrote the same grades.csv.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder import grade as grading  # noqa: E402
from autograder.course_folder import assignments as course_assignments  # noqa: E402
from autograder.parent.order import LongestFirst  # noqa: E402
from benchmarks.grading import build_class  # noqa: E402


class FolderOrder(LongestFirst):
    """The tasks as found: learns nothing, reorders nothing."""

    def __init__(self, items: list, kind, clock=time.monotonic) -> None:  # noqa: ANN001 - LongestFirst's
        super().__init__(items, kind, clock)
        self._items = list(items)

    def __iter__(self):  # noqa: ANN204 - a generator, as LongestFirst's
        yield from self._items


def grade_once(subs: Path, out: Path, assignments: list[str], jobs: int, order: type) -> float:
    grading.LongestFirst = order  # the one name grade() builds its order from
    start = time.perf_counter()
    grading.grade(subs, out, course_root=ROOT, assignments=assignments, jobs=jobs, progress=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--assignment", action="append", dest="assignments")
    args = parser.parse_args()
    assignments = args.assignments or course_assignments(ROOT)
    work = Path(tempfile.mkdtemp(prefix="grading-order-"))
    try:
        subs = build_class(work, assignments, args.students)
        n = args.students * len(assignments)
        print(f"class: {args.students} students x {len(assignments)} assignments = {n} notebooks; jobs={args.jobs}")
        times: dict[str, list[float]] = {"folder order": [], "slowest first": []}
        for i in range(args.rounds):
            for label, order in (("folder order", FolderOrder), ("slowest first", LongestFirst)):
                out = work / f"out-{label.replace(' ', '-')}-{i}"
                times[label].append(grade_once(subs, out, assignments, args.jobs, order))
                print(f"round {i + 1}: {label:<14} {times[label][-1]:7.1f} s", flush=True)
        for label, values in times.items():
            print(f"{label:<14} best {min(values):7.1f} s")
        print(f"folder order / slowest first: {min(times['folder order']) / min(times['slowest first']):.2f}x")
        csvs = {(work / f"out-{label.replace(' ', '-')}-0" / "grades.csv").read_text() for label in times}
        print(f"grades.csv identical in both orders: {len(csvs) == 1}")
    finally:
        grading.LongestFirst = LongestFirst
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
