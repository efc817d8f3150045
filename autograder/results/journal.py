"""The grading journal and the CSV files rewritten from it.

Every (student, assignment) ends as one record in ``OUT/.journal.jsonl``, appended and fsynced once, when
its result arrives. ``grades.csv`` and ``questions.csv`` are rewritten whole from the journal when a run
starts and ends (sorted by student and assignment); in between, each new record's rows are appended. A run
killed at any point and resumed grades only what is left, with no row lost or doubled: the journal is the
truth, and the CSVs are rewritten from it first thing.
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


def spreadsheet_text(value: str) -> str:
    """A text cell a spreadsheet shows as text: one starting like a formula (=, +, -, @) gets a leading '."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _rows(record: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A record's grades.csv row and its questions.csv rows."""
    student = spreadsheet_text(record["student_id"])
    grade = [student, record["assignment"], f"{record['score']:g}", f"{record['max_score']:g}", record["status"]]
    questions = []
    for x in record["questions"]:
        points = [f"{x['points']:g}", f"{x['max_points']:g}"]
        row = [student, record["assignment"], x["grade_id"], *points, x["status"], spreadsheet_text(x["message"])]
        questions.append([*row, x.get("mistake", "")])  # mistake: '' passed or not run, else an id or unknown
    return grade, questions


def write_csvs(out: Path, records: dict[str, dict[str, Any]]) -> None:
    """grades.csv and questions.csv from the journal, sorted by student and assignment."""
    grades, questions = io.StringIO(), io.StringIO()
    g, q = csv.writer(grades, lineterminator="\n"), csv.writer(questions, lineterminator="\n")
    g.writerow(GRADES_COLUMNS)
    q.writerow(QUESTIONS_COLUMNS)
    for r in sorted(records.values(), key=lambda r: (r["student_id"], r["assignment"])):
        grade, rows = _rows(r)
        g.writerow(grade)
        q.writerows(rows)
    atomic_write(out / "grades.csv", grades.getvalue())
    atomic_write(out / "questions.csv", questions.getvalue())


def append_csvs(out: Path, record: dict[str, Any]) -> None:
    """One new record's rows at the end of both CSVs (written by :func:`write_csvs` first): constant time
    per submission, where rewriting both files each time was quadratic in the class size."""
    grade, rows = _rows(record)
    for name, lines in (("grades.csv", [grade]), ("questions.csv", rows)):
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(lines)
        with open(out / name, "a", encoding="utf-8") as fh:
            fh.write(text.getvalue())
