"""Feedback latency: how long each graded test cell takes to answer, and each source notebook to run.

Usage: .venv/bin/python benchmarks/feedback_latency.py [ASSIGNMENT ...]

Executes every source notebook once in a fresh kernel (solutions in place, hidden tests included, so
this is the slower, grading-time figure) and prints, per assignment, the notebook's wall time and each
graded cell's run time from the kernel's own timestamps.
"""

from __future__ import annotations

import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def _seconds(cell) -> float:
    timing = cell.metadata.get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not start or not end:
        return float("nan")
    parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))  # noqa: E731
    return (parse(end) - parse(start)).total_seconds()


def measure(assignment: str) -> tuple[float, list[tuple[str, float, float]]]:
    path = ROOT / "source" / assignment / f"{assignment}.ipynb"
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", record_timing=True, resources={"metadata": {"path": str(path.parent)}}
    )
    start = time.perf_counter()
    client.execute()
    total = time.perf_counter() - start
    rows = []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            rows.append((meta["grade_id"], float(meta.get("points", 0)), _seconds(cell)))
    return total, rows


def main(argv: list[str]) -> None:
    assignments = argv or sorted(p.name for p in (ROOT / "source").iterdir() if (p / f"{p.name}.ipynb").is_file())
    print(f"{'assignment':<18} {'notebook s':>10} {'exercises':>9} {'points':>6} {'slowest test cell':>28}")
    details = []
    for assignment in assignments:
        total, rows = measure(assignment)
        slowest = max(rows, key=lambda r: r[2])
        points = sum(r[1] for r in rows)
        print(f"{assignment:<18} {total:>10.2f} {len(rows):>9} {points:>6g} {slowest[0]:>20} {slowest[2]:>6.3f} s")
        details.append((assignment, rows))
    print()
    print(f"{'assignment':<18} {'graded cell':<32} {'seconds':>8}")
    for assignment, rows in details:
        for grade_id, _, seconds in rows:
            print(f"{assignment:<18} {grade_id:<32} {seconds:>8.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
