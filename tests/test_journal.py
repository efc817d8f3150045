"""The journal and the CSVs written from it: appended rows equal a whole rewrite, a torn line is redone."""

from __future__ import annotations

import json

from autograder.results import journal
from autograder.wire.schema import Status, Verdict


def _record(student: str, assignment: str, points: float, status: str = "ok") -> dict:
    verdicts = [
        Verdict("test_a", points, 1.0, Status.PASSED if points else Status.FAILED, "" if points else "=1+1", "x"),
        Verdict("test_b", 0.0, 2.0, Status.FAILED, "差一点", "unknown"),
    ]
    return {
        "key": f"{student}/{assignment}",
        "fingerprint": "f",
        "student_id": student,
        "assignment": assignment,
        "score": points,
        "max_score": 3.0,
        "status": status,
        "message": "",
        "questions": [v.to_json(stdout=False) for v in verdicts],
    }


def test_journal_appended_rows_hold_what_a_sorted_rewrite_holds(tmp_path):
    records = {}
    journal.write_csvs(tmp_path, records)
    for record in [_record("bob", "01", 1.0), _record("ann", "02", 0.0, "crashed"), _record("ann", "01", 1.0)]:
        records[record["key"]] = record
        journal.append_csvs(tmp_path, record)
    appended = {name: (tmp_path / name).read_text().splitlines() for name in ("grades.csv", "questions.csv")}
    journal.write_csvs(tmp_path, records)
    rewritten = {name: (tmp_path / name).read_text().splitlines() for name in ("grades.csv", "questions.csv")}
    for name in appended:
        assert appended[name][0] == rewritten[name][0]  # the same header, columns unchanged
        assert sorted(appended[name][1:]) == sorted(rewritten[name][1:])
    assert rewritten["grades.csv"][0] == ",".join(journal.GRADES_COLUMNS)
    assert rewritten["questions.csv"][0] == ",".join(journal.QUESTIONS_COLUMNS)
    assert rewritten["grades.csv"][1].startswith("ann,01,")


def test_journal_a_formula_like_text_stays_text():
    assert journal.spreadsheet_text("=1+1") == "'=1+1" and journal.spreadsheet_text("ok") == "ok"


def test_journal_a_torn_last_line_is_ignored_and_the_rest_read(tmp_path):
    journal.append(tmp_path, _record("ann", "01", 1.0))
    with open(tmp_path / journal.JOURNAL, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(_record("bob", "01", 1.0))[:40])  # killed mid-write
    assert list(journal.read(tmp_path)) == ["ann/01"]
