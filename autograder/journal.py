"""The grading journal and the CSV files rewritten from it.

Every (student, assignment) ends as one record in ``OUT/.journal.jsonl``, appended and fsynced once, when
its result arrives; ``grades.csv`` and ``questions.csv`` are always rewritten from the journal. A run killed
at any point and resumed grades only what is left, with no row lost or doubled.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

JOURNAL = ".journal.jsonl"
GRADES_COLUMNS = ["student_id", "assignment", "score", "max_score", "status"]
QUESTIONS_COLUMNS = ["student_id", "assignment", "grade_id", "points", "max_points", "status", "message", "mistake"]


def read(out: Path) -> dict[str, dict[str, Any]]:
    """Finished records by key; a torn last line (a kill mid-write) is ignored and will be redone."""
    path = out / JOURNAL
    records: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return records
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and "key" in record:
            records[record["key"]] = record
    return records


def append(out: Path, record: dict[str, Any]) -> None:
    with open(out / JOURNAL, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def cell(value: str) -> str:
    """A text cell a spreadsheet shows as text: one starting like a formula (=, +, -, @) gets a leading '."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def write_csvs(out: Path, records: dict[str, dict[str, Any]]) -> None:
    """grades.csv and questions.csv from the journal, sorted by student and assignment."""
    grades, questions = io.StringIO(), io.StringIO()
    g, q = csv.writer(grades, lineterminator="\n"), csv.writer(questions, lineterminator="\n")
    g.writerow(GRADES_COLUMNS)
    q.writerow(QUESTIONS_COLUMNS)
    for r in sorted(records.values(), key=lambda r: (r["student_id"], r["assignment"])):
        student = cell(r["student_id"])
        g.writerow([student, r["assignment"], f"{r['score']:g}", f"{r['max_score']:g}", r["status"]])
        for x in r["questions"]:
            points = [f"{x['points']:g}", f"{x['max_points']:g}"]
            row = [student, r["assignment"], x["grade_id"], *points, x["status"], cell(x["message"])]
            q.writerow([*row, x.get("mistake", "")])  # mistake: '' passed or not run, else an id or unknown
    atomic_write(out / "grades.csv", grades.getvalue())
    atomic_write(out / "questions.csv", questions.getvalue())
