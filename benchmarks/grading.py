"""Grading throughput: `autograder grade` against plain `nbgrader autograde`, same class, same machine.

Usage: .venv/bin/python benchmarks/grading.py [--students 24] [--assignment ID ...] [--jobs N]
       [--timeout 60] [--keep DIR] [--cluster local:2] [--skip-nbgrader]

Builds a synthetic class (students x assignments): a third right answers (the source solutions), a
third wrong (a mutant from tests/mutants replaces one solution), a third broken (malformed JSON, the
untouched release notebook, a `sys.exit()` in the first answer cell). Identical copies are graded by
`nbgrader autograde` (one call per assignment, serial, as nbgrader works) and by `autograder grade`.
Prints both times, seconds per notebook, the ratio, and how many (student, assignment) scores agree.
With ``--cluster`` the same class is also graded on a Dask cluster, and the cluster's cost over ``--jobs``
and its throughput per worker (with what that means for 10,000 notebooks) are printed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.course_folder import assignments as course_assignments  # noqa: E402
from tests import notebooks as nbs  # noqa: E402


def build_class(root: Path, assignments: list[str], students: int) -> Path:
    subs = root / "submitted"
    for i in range(students):
        student = f"student{i:03d}"
        for assignment in assignments:
            folder = subs / student / assignment
            folder.mkdir(parents=True)
            target = folder / f"{assignment}.ipynb"
            kind = i % 3
            if kind == 0:
                nbformat.write(nbs.honest_submission(assignment), target)
            elif kind == 1:
                mutants = [m for m in nbs.mutants(assignment) if not m.formative]
                wrong = nbs.mutant_submission(assignment, mutants[i % len(mutants)]) if mutants else None
                nbformat.write(wrong or nbs.honest_submission(assignment), target)
            elif i % 9 == 2:
                target.write_text("{ this is not a notebook", encoding="utf-8")
            elif i % 9 == 5:
                shutil.copy2(ROOT / "release" / assignment / f"{assignment}.ipynb", target)
            else:
                answered = nbs.honest_submission(assignment)
                for cell in answered.cells:
                    if cell.metadata.get("nbgrader", {}).get("solution"):
                        cell.source = "import sys\nsys.exit(1)\n" + cell.source
                        break
                nbformat.write(answered, target)
    return subs


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def run_nbgrader(work: Path, subs: Path, assignments: list[str], timeout: float) -> float:
    course = work / "nbgrader"
    (course / "source").mkdir(parents=True)
    shutil.copy2(ROOT / "nbgrader_config.py", course)
    for assignment in assignments:
        shutil.copytree(ROOT / "source" / assignment, course / "source" / assignment)
    common = [f"--CourseDirectory.root={course}", f"--Execute.timeout={int(timeout)}", "--log-level=ERROR"]
    for assignment in assignments:  # preparation, not timed
        subprocess.run(
            [sys.executable, "-m", "nbgrader", "generate_assignment", assignment, "--force", *common],
            cwd=course,
            env=_env(),
            check=True,
            capture_output=True,
        )
    shutil.copytree(subs, course / "submitted")
    start = time.perf_counter()
    for assignment in assignments:
        subprocess.run(
            [sys.executable, "-m", "nbgrader", "autograde", assignment, "--force", *common],
            cwd=course,
            env=_env(),
            capture_output=True,
        )
    return time.perf_counter() - start


def run_ours(
    work: Path, subs: Path, assignments: list[str], jobs: int, timeout: float, *, cluster: str | None = None
) -> float:
    out = work / ("ours-cluster" if cluster else "ours")
    args = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--quiet"]
    args += ["--jobs", str(jobs), "--timeout", str(timeout), "--course", str(ROOT)]
    if cluster:
        args += ["--cluster", cluster]
    for assignment in assignments:
        args += ["--assignment", assignment]
    start = time.perf_counter()
    done = subprocess.run(args, env={**_env(), "AUTOGRADER_TIMINGS": "1"}, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"autograder grade failed: {done.stderr.strip().splitlines()[-1:]}")
    CPU.clear()
    for line in done.stderr.splitlines():
        if line.startswith("cpu seconds: "):
            CPU.update({k: float(v) for k, v in (part.split("=") for part in line.split(": ", 1)[1].split())})
    return elapsed


CPU: dict[str, float] = {}  # the last run_ours: CPU seconds of the parent, all learner and all judge children


def agreement(work: Path) -> tuple[int, int]:
    import csv

    from nbgrader.api import Gradebook, MissingEntry

    with open(work / "ours" / "grades.csv", encoding="utf-8") as fh:
        ours = {(r["student_id"], r["assignment"]): float(r["score"]) for r in csv.DictReader(fh)}
    same = 0
    with Gradebook(f"sqlite:///{work / 'nbgrader' / 'gradebook.db'}") as gb:
        for (student, assignment), score in ours.items():
            try:
                theirs = gb.find_submission(assignment, student).score
            except MissingEntry:  # nbgrader leaves no row when the kernel dies or the file is broken
                theirs = None
            same += theirs is not None and abs(theirs - score) < 1e-9
    return same, len(ours)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=24)
    parser.add_argument("--assignment", action="append", dest="assignments")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=120, help="seconds per cell, for both tools")
    parser.add_argument("--keep", type=Path, help="keep the class and results in this folder")
    parser.add_argument("--cluster", help="also grade on this Dask cluster (local:N or an address), side by side")
    parser.add_argument("--skip-nbgrader", action="store_true", help="only our runs (for --cluster)")
    args = parser.parse_args()
    assignments = args.assignments or course_assignments(ROOT)
    work = args.keep or Path(tempfile.mkdtemp(prefix="grading-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    subs = build_class(work, assignments, args.students)
    n = args.students * len(assignments)
    print(f"class: {args.students} students x {len(assignments)} assignments = {n} notebooks; jobs={args.jobs}")
    theirs = None if args.skip_nbgrader else run_nbgrader(work, subs, assignments, args.timeout)
    ours = run_ours(work, subs, assignments, args.jobs, args.timeout)
    print(f"{'tool':<34} {'seconds':>9} {'s / notebook':>13}")
    if theirs is not None:
        print(f"{'nbgrader autograde':<34} {theirs:>9.1f} {theirs / n:>13.2f}")
    print(f"{f'autograder grade --jobs {args.jobs}':<34} {ours:>9.1f} {ours / n:>13.2f}")
    if CPU:
        print("  CPU s / notebook: " + ", ".join(f"{k} {v / n:.3f}" for k, v in CPU.items()))
    if args.cluster:
        on_cluster = run_ours(work, subs, assignments, args.jobs, args.timeout, cluster=args.cluster)
        print(f"{f'autograder grade --cluster {args.cluster}':<34} {on_cluster:>9.1f} {on_cluster / n:>13.2f}")
        same_rows = all(
            (work / "ours" / name).read_text() == (work / "ours-cluster" / name).read_text()
            for name in ("grades.csv", "questions.csv")
        )
        workers = int(args.cluster.removeprefix("local:")) if args.cluster.startswith("local:") else None
        print(f"cluster / local: {on_cluster / ours:.2f}x; rows identical to the local run: {same_rows}")
        if workers:
            per_worker = n / on_cluster / workers  # notebooks per second per worker process
            print(f"throughput: {per_worker:.2f} notebooks/s per worker; 10,000 notebooks would take about:")
            for count in (10, 50, 100):
                print(f"  {count:>3} workers: {10_000 / (per_worker * count) / 60:6.1f} min")
    if theirs is not None:
        same, total = agreement(work)
        print(f"ratio (nbgrader / ours): {theirs / ours:.2f}x")
        print(f"scores that agree: {same} / {total} (nbgrader records no score where its kernel died)")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
