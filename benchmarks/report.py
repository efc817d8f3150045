"""The class report's speed: `autograder report` on a synthetic class (CSVs only), and how it grows.

Usage: .venv/bin/python benchmarks/report.py [--students 1000] [--assignments 10] [--questions 8]
       [--scale 250,500,1000,2000] [--keep DIR]

Writes grades.csv and questions.csv for students x assignments (questions per assignment), with seeded
scores, statuses and mistake ids drawn from the catalogue, then times `report.write` (HTML: load, statistics,
plots, page) for the full class and for each size in ``--scale``. Prints seconds and seconds per 1,000
students. The issue's bar: 1,000 students x 10 assignments in under 5 s.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.results import report  # noqa: E402
from autograder.results.journal import GRADES_COLUMNS, QUESTIONS_COLUMNS  # noqa: E402

STATUSES = ["ok"] * 90 + ["timeout"] * 3 + ["crashed"] * 2 + ["missing"] * 4 + ["invalid"]


def synthetic_class(out: Path, *, students: int, assignments: int, questions: int, seed: int = 0) -> None:
    """grades.csv and questions.csv for a made-up class: each student has an ability, each question a
    difficulty; a failure names one of a few catalogue mistakes per question, or ``unknown``."""
    rng = random.Random(seed)
    ids = sorted(report.catalogue()) or ["not-a-tensor"]
    out.mkdir(parents=True, exist_ok=True)
    with (
        open(out / "grades.csv", "w", newline="", encoding="utf-8") as g,
        open(out / "questions.csv", "w", newline="", encoding="utf-8") as q,
    ):
        gw, qw = csv.writer(g, lineterminator="\n"), csv.writer(q, lineterminator="\n")
        gw.writerow(GRADES_COLUMNS)
        qw.writerow(QUESTIONS_COLUMNS)
        for s in range(students):
            student = f"s{s:05d}"
            ability = rng.random()
            for a in range(assignments):
                assignment = f"{a + 1:02d}_assignment"
                status = rng.choice(STATUSES)
                score = 0
                rows = []
                for k in range(questions):
                    gid = f"test_q{k + 1}"
                    points = 1 + k % 3
                    if status in ("missing", "invalid"):
                        rows.append([student, assignment, gid, 0, points, status, "no notebook submitted", ""])
                        continue
                    passed = rng.random() < 0.3 + 0.6 * ability - 0.03 * k
                    if passed:
                        score += points
                        rows.append([student, assignment, gid, points, points, "passed", "", ""])
                    else:
                        choices = [ids[(a * questions + k + j) % len(ids)] for j in range(3)] + ["unknown"]
                        mistake = rng.choice(choices)
                        rows.append([student, assignment, gid, 0, points, "failed", f"wrong ({mistake})", mistake])
                gw.writerow([student, assignment, score, sum(1 + k % 3 for k in range(questions)), status])
                qw.writerows(rows)


def time_report(out: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one report (CPU time: this machine's 2 cores are often shared)."""
    start, cpu = time.perf_counter(), time.process_time()
    report.write(out)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--assignments", type=int, default=10)
    parser.add_argument("--questions", type=int, default=8)
    parser.add_argument("--scale", default="250,500,1000,2000")
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="report-bench-"))
    sizes = sorted({args.students, *(int(x) for x in args.scale.split(",") if x)})
    report._pyplot()  # matplotlib's import is paid once per process, not per report: outside the timing
    print(
        f"{'students':>9} {'rows':>8} {'wall s':>7} {'cpu s':>6} {'cpu s/1000':>11}  ({args.assignments} assignments)"
    )
    for n in sizes:
        out = base / f"class-{n}"
        synthetic_class(out, students=n, assignments=args.assignments, questions=args.questions)
        wall, cpu = time_report(out)
        rows = n * args.assignments * args.questions
        size = (out / report.REPORT).stat().st_size / 2**20
        print(f"{n:>9} {rows:>8} {wall:>7.2f} {cpu:>6.2f} {1000 * cpu / n:>11.2f}  ({size:.1f} MiB page)")
    print(f"classes kept in {base}" if args.keep else "")


if __name__ == "__main__":
    main()
