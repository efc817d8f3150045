"""The class report: its statistics on small hand-made classes, its page, and bad input as one line."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from autograder.errors import AutograderError
from autograder.results import classdata, report
from autograder.results.journal import GRADES_COLUMNS, QUESTIONS_COLUMNS

# student -> (status, [(grade_id, points, max, mistake)]) for one assignment "a1"
CLASS = {
    "ann": ("ok", [("q1", 1, 1, ""), ("q2", 2, 2, ""), ("q3", 0, 1, "extra-unit-dim")]),
    "bob": ("ok", [("q1", 1, 1, ""), ("q2", 0, 2, "float64-not-float32"), ("q3", 0, 1, "extra-unit-dim")]),
    "cy": ("ok", [("q1", 0, 1, "unknown"), ("q2", 0, 2, "float64-not-float32"), ("q3", 0, 1, "unknown")]),
    "dee": ("missing", [("q1", 0, 1, ""), ("q2", 0, 2, ""), ("q3", 0, 1, "")]),
}


def write_class(out: Path, cls: dict = CLASS, *, assignment: str = "a1", mistake_column: bool = True) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    q_columns = QUESTIONS_COLUMNS if mistake_column else QUESTIONS_COLUMNS[:-1]
    with open(out / "grades.csv", "w", newline="") as g, open(out / "questions.csv", "w", newline="") as q:
        gw, qw = csv.writer(g), csv.writer(q)
        gw.writerow(GRADES_COLUMNS)
        qw.writerow(q_columns)
        for student, (status, rows) in cls.items():
            gw.writerow([student, assignment, sum(r[1] for r in rows), sum(r[2] for r in rows), status])
            for gid, points, maximum, mistake in rows:
                state = status if status in ("missing", "invalid") else ("passed" if points == maximum else "failed")
                row = [student, assignment, gid, points, maximum, state, f"message {gid} {student}", mistake]
                qw.writerow(row[: len(q_columns)])
    return out


def by_id(stats: list[classdata.QuestionStats]) -> dict[str, classdata.QuestionStats]:
    return {q.grade_id: q for q in stats}


def test_pearson_matches_the_textbook_value_and_is_none_without_variance():
    assert classdata.pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert classdata.pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    xs, ys = [1, 0, 1, 0, 1], [3, 1, 2, 2, 4]
    mx, my = sum(xs) / 5, sum(ys) / 5
    expected = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / math.sqrt(
        sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)
    )
    assert classdata.pearson(xs, ys) == pytest.approx(expected)
    assert classdata.pearson([1, 1, 1], [1, 2, 3]) is None
    assert classdata.pearson([1], [1]) is None


def test_question_stats_count_attempted_full_credit_mean_and_discrimination_against_the_rest(tmp_path):
    stats = by_id(classdata.question_stats(classdata.load(write_class(tmp_path))))
    q1 = stats["q1"]
    assert (q1.attempted, q1.full_credit, q1.max_points) == (3, 2, 1)  # dee's missing submission: not attempted
    assert q1.mean_points == pytest.approx(2 / 3)
    # rest of the assignment: ann 2, bob 0, cy 0; q1: 1, 1, 0
    assert q1.discrimination == pytest.approx(classdata.pearson([1, 1, 0], [2, 0, 0]))
    assert q1.flags == []


def test_a_question_nobody_passes_is_flagged_and_its_mistakes_are_ranked_by_students(tmp_path):
    q3 = by_id(classdata.question_stats(classdata.load(write_class(tmp_path))))["q3"]
    assert q3.full_credit == 0 and "nobody passes" in q3.flags
    assert [(m.mistake, m.students) for m in q3.mistakes] == [
        ("extra-unit-dim", ["ann", "bob"]),
        ("unknown", ["cy"]),
    ]
    assert q3.mistakes[0].share == pytest.approx(2 / 3)


def test_a_question_the_weaker_students_pass_is_flagged_for_negative_discrimination(tmp_path):
    cls = {
        "ann": ("ok", [("q1", 0, 1, "unknown"), ("q2", 2, 2, "")]),
        "bob": ("ok", [("q1", 1, 1, ""), ("q2", 0, 2, "unknown")]),
        "cy": ("ok", [("q1", 0, 1, "unknown"), ("q2", 2, 2, "")]),
    }
    q1 = by_id(classdata.question_stats(classdata.load(write_class(tmp_path, cls))))["q1"]
    assert q1.discrimination == pytest.approx(-1.0) and "negative discrimination" in q1.flags


def test_students_who_lost_most_come_first_with_their_named_mistakes(tmp_path):
    students = classdata.student_stats(classdata.load(write_class(tmp_path)))
    assert [s.student for s in students] == ["cy", "dee", "bob", "ann"]
    bob = next(s for s in students if s.student == "bob")
    assert dict(bob.mistakes) == {"float64-not-float32": 1, "extra-unit-dim": 1}
    assert [q.grade_id for q in bob.lost] == ["q2", "q3"]


def test_compare_lists_every_changed_question_with_old_and_new_messages(tmp_path):
    old = write_class(tmp_path / "old")
    fixed = dict(CLASS)
    fixed["cy"] = ("ok", [("q1", 1, 1, ""), ("q2", 0, 2, "float64-not-float32"), ("q3", 0, 1, "unknown")])
    new = write_class(tmp_path / "new", fixed)
    changes = classdata.compare(classdata.load(old), classdata.load(new))
    assert [(c.student, c.grade_id, c.old_points, c.new_points) for c in changes] == [
        ("cy", "", 0, 1),
        ("cy", "q1", 0, 1),
    ]
    assert changes[1].old_message == "message q1 cy" and changes[1].new_status == "passed"
    assert classdata.compare(classdata.load(old), classdata.load(old)) == []


def test_compare_counts_a_row_only_one_side_has_as_changed(tmp_path):
    old = write_class(tmp_path / "old")
    new = write_class(tmp_path / "new", {k: v for k, v in CLASS.items() if k != "dee"})
    gone = [c for c in classdata.compare(classdata.load(old), classdata.load(new)) if c.student == "dee"]
    assert gone and all(c.new_points is None and c.new_status == "" and c.new_message == "" for c in gone)
    assert [c.grade_id for c in gone] == ["", "q1", "q2", "q3"] and gone[1].old_message == "message q1 dee"
    back = classdata.compare(classdata.load(new), classdata.load(old))
    assert [(c.old_points, c.new_points) for c in back if c.student == "dee"][0] == (None, gone[0].old_points)


def test_the_page_has_every_section_plots_inline_and_links_to_feedback_pages(tmp_path):
    out = write_class(tmp_path / "out")
    page = report.write(out).read_text(encoding="utf-8")
    for section in ("id=class", "id=questions", "id=misconceptions", "id=students"):
        assert section in page
    assert page.count("data:image/png;base64,") == 3
    assert "http://" not in page and "https://" not in page  # offline: no CDN
    assert 'href="feedback/bob/a1/a1.html"' in page
    assert report.catalogue()["extra-unit-dim"].hint in page


def test_json_report_holds_the_same_numbers(tmp_path):
    out = write_class(tmp_path / "out")
    data = json.loads(report.write(out, as_json=True).read_text(encoding="utf-8"))
    q3 = next(q for q in data["questions"] if q["grade_id"] == "q3")
    assert q3["mistakes"][0] == {
        **q3["mistakes"][0],
        "mistake": "extra-unit-dim",
        "count": 2,
        "students": ["ann", "bob"],
    }
    assert data["class"]["students"] == 4 and data["class"]["by_status"] == {"a1": {"ok": 3, "missing": 1}}


def test_missing_out_or_grades_csv_is_one_line_error(tmp_path):
    with pytest.raises(AutograderError, match="is not a folder"):
        report.write(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(AutograderError, match="no grades.csv"):
        report.write(tmp_path / "empty")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "grades.csv").write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(AutograderError) as info:
        report.write(tmp_path / "bad")
    assert "\n" not in str(info.value)


def test_half_written_csvs_and_an_old_questions_csv_give_notes_and_empty_sections(tmp_path):
    out = write_class(tmp_path / "torn")
    text = (out / "questions.csv").read_text()
    (out / "questions.csv").write_text(text[: len(text) // 2])  # cut mid-row
    (out / "grades.csv").write_text((out / "grades.csv").read_text() + "eve,a1,not-a-number\n")
    page = report.write(out).read_text(encoding="utf-8")
    assert "could not be read" in page and "id=misconceptions" in page
    old = write_class(tmp_path / "old", mistake_column=False)
    page = report.write(old).read_text(encoding="utf-8")
    assert "no mistake column" in page and "cannot be counted" in page
    (old / "questions.csv").unlink()
    assert "no questions.csv" in report.write(old).read_text(encoding="utf-8")


def test_one_student_and_an_assignment_nobody_submitted_give_a_page(tmp_path):
    one = write_class(tmp_path / "one", {"ann": CLASS["ann"]})
    q1 = json.loads(report.write(one, as_json=True).read_text())["questions"][0]
    assert q1["discrimination"] is None and q1["attempted"] == 1
    nobody = write_class(tmp_path / "nobody", {"dee": CLASS["dee"]})
    page = report.write(nobody).read_text(encoding="utf-8")
    assert "no submissions" in page and "No submission ran" in page


def test_report_command_writes_the_page_and_bad_input_is_one_line(tmp_path):
    import subprocess
    import sys

    out = write_class(tmp_path / "out")
    done = subprocess.run([sys.executable, "-m", "autograder", "report", str(out)], capture_output=True, text=True)
    assert done.returncode == 0 and (out / "report.html").is_file(), done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "report", str(tmp_path / "nope")], capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "error:" in done.stderr


def test_a_grading_run_stopped_before_its_csvs_or_an_empty_grades_csv_is_one_line_error(tmp_path):
    stopped = tmp_path / "stopped"
    stopped.mkdir()
    (stopped / ".journal.jsonl").write_text('{"key": "ann/a1"}\n')  # killed mid-run: journal, no CSVs yet
    with pytest.raises(AutograderError, match="did not finish.*--resume") as info:
        report.write(stopped)
    assert "\n" not in str(info.value)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "grades.csv").write_text("")  # cut before its header
    with pytest.raises(AutograderError, match="lacks the column") as info:
        report.write(tmp_path / "empty")
    assert "\n" not in str(info.value)


def test_an_assignment_nobody_submitted_beside_one_that_ran_has_its_own_empty_rows(tmp_path):
    out = write_class(tmp_path / "out")
    with open(out / "grades.csv", "a", newline="") as g, open(out / "questions.csv", "a", newline="") as q:
        for student in CLASS:
            csv.writer(g).writerow([student, "a2", 0, 2, "missing"])
            csv.writer(q).writerow([student, "a2", "p1", 0, 2, "missing", "", ""])
    data = report.build(out)
    assert data["class"]["by_status"]["a2"] == {"missing": 4} and data["class"]["fractions"]["a2"] == []
    p1 = next(q for q in data["questions"] if q["assignment"] == "a2")
    assert (p1["attempted"], p1["full_credit_rate"], p1["mistakes"]) == (0, None, []) and p1["flags"] == [
        "no submissions"
    ]
    page = report.render(data)
    assert page.count("data:image/png;base64,") == 3  # a1's plots still drawn; a2 has no box


def test_compare_with_a_missing_or_older_old_out(tmp_path):
    import subprocess
    import sys

    out = write_class(tmp_path / "out")
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "report", str(out), "--compare", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "is not a folder" in done.stderr
    old = write_class(tmp_path / "old", mistake_column=False)  # graded by a version before the mistake column
    data = report.build(out, compare_with=old)
    assert data["compare"]["changes"] == [] and any("no mistake column" in n for n in data["notes"])
