"""The class report on a class graded by the real engine: one student per mutant of 01_tensors (so the
misconception counts are known exactly), honest students, one who submitted nothing; then the page in
Chromium, with a screenshot of each section under ``artifacts/report/``.

Kept cheap for 2 shared cores: 01_tensors only (its tests are fast), one student per graded mutant, 3 honest
students and 1 who submitted nothing (a few dozen submissions, not hundreds).
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import nbformat
import pytest

from autograder.grade import grade
from autograder.parent.sandbox import bwrap_problem
from autograder.results import report
from tests import notebooks as nbs

pytestmark = pytest.mark.browser

ASSIGNMENT = "01_tensors"
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "report"

# The named mistake the judge reports for each mutant of 01_tensors (the others prove none: ``unknown``).
NAMED = {
    "adds a batch dimension": "extra-unit-dim",
    "keeps float64 from NumPy": "float64-not-float32",
    "float64 grid": "float64-not-float32",
    "keeps int64 from integer lists": "int-not-float",
    "shifts but stays float": "labels-not-long",
    "int32 labels": "labels-not-long",
    "shifts the input in place": "modifies-input",
    "returns a numpy array": "not-a-tensor",
}


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("report-class")
    subs, out = work / "submitted", work / "out"
    students: dict[str, nbs.Mutant | None] = {}
    for i, mutant in enumerate(m for m in nbs.mutants(ASSIGNMENT) if not m.formative):  # graded cells only
        students[f"m{i:02d}"] = mutant
    for i in range(3):
        students[f"honest{i}"] = None
    for student, mutant in students.items():
        nb = nbs.honest_submission(ASSIGNMENT) if mutant is None else nbs.mutant_submission(ASSIGNMENT, mutant)
        (subs / student / ASSIGNMENT).mkdir(parents=True)
        nbformat.write(nb, subs / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    (subs / "nobody" / ASSIGNMENT).mkdir(parents=True)  # a student who handed nothing in
    grade(
        subs,
        out,
        course_root=ROOT,
        assignments=[ASSIGNMENT],
        jobs=2,
        cell_timeout=10,
        notebook_timeout=60,
        memory="3G",
        sandbox_mode="auto" if not bwrap_problem() else "none",
        progress=False,
    )
    return {"out": out, "students": students, "report": report.build(out)}


def expected_counts(students: dict[str, nbs.Mutant | None]) -> Counter:
    """(grade_id, mistake) -> students, from the mutants alone."""
    return Counter((m.grade_id, NAMED.get(m.name, "unknown")) for m in students.values() if m is not None)


def test_each_mutant_fails_its_question_with_the_named_mistake_id_in_questions_csv(graded_class):
    import csv

    with open(graded_class["out"] / "questions.csv", encoding="utf-8", newline="") as fh:
        rows = {(r["student_id"], r["grade_id"]): r for r in csv.DictReader(fh)}
    for student, mutant in graded_class["students"].items():
        if mutant is None:
            assert all(r["mistake"] == "" for (s, _), r in rows.items() if s == student)
            continue
        row = rows[(student, mutant.grade_id)]
        assert row["status"] == "failed", (mutant, row)
        assert row["mistake"] == NAMED.get(mutant.name, "unknown"), (mutant, row["message"])


def test_the_report_counts_exactly_the_misconceptions_the_mutants_hold(graded_class):
    data = graded_class["report"]
    found = Counter()
    for q in data["questions"]:
        for m in q["mistakes"]:
            found[(q["grade_id"], m["mistake"])] = m["count"]
    want = expected_counts(graded_class["students"])
    named = {k: v for k, v in want.items() if k[1] != "unknown"}
    assert {k: v for k, v in found.items() if k[1] != "unknown"} == named
    for key, count in want.items():  # a mutant may also fail a later question that uses its answer
        assert found[key] >= count, key
    questions = {q["grade_id"]: q for q in data["questions"]}
    attempted = len(graded_class["students"])  # "nobody" never ran
    assert all(q["attempted"] == attempted for q in questions.values())
    assert data["class"]["by_status"][ASSIGNMENT]["missing"] == 1
    for q in questions.values():
        assert "nobody passes" not in q["flags"]  # honest students pass every question
    print(json.dumps({f"{g} {m}": n for (g, m), n in sorted(named.items())}, indent=1))


def test_the_report_in_chromium_shows_each_section_and_links_to_feedback(graded_class, playwright):
    from tests.browser import lab

    out = graded_class["out"]
    page_file = report.write(out)
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = lab.chromium_context(playwright, out.parent / "chromium-profile")
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        for section in ("class", "questions", "misconceptions", "students"):
            locator = page.locator(f"section#{section}")
            assert locator.is_visible()
            locator.screenshot(path=str(SHOTS / f"{section}.png"))
        images = page.locator("img[src^='data:image/png']")
        assert images.count() == 3
        assert all(images.nth(i).evaluate("i => i.naturalWidth > 100") for i in range(3))
        row = page.locator("section#misconceptions tr", has_text="extra-unit-dim").first
        assert report.catalogue()["extra-unit-dim"].hint in row.inner_text()
        row.locator("summary").click()
        link = row.locator("a").first
        target = out / link.get_attribute("href")
        assert target.is_file(), target
        link.click()
        page.wait_for_load_state()
        assert ASSIGNMENT in page.title()
        page.screenshot(path=str(SHOTS / "feedback-from-link.png"))
        # a regrade that changed one student's result: the changes section lists it
        old = out.parent / "old"
        shutil.copytree(out, old, ignore=shutil.ignore_patterns("nbgrader", "feedback"))
        text = (old / "grades.csv").read_text(encoding="utf-8").replace(",ok\n", ",crashed\n", 1)
        (old / "grades.csv").write_text(text, encoding="utf-8")
        page.goto(report.write(out, compare_with=old).as_uri())
        changes = page.locator("section#changes")
        assert "1 students changed" in changes.inner_text()
        changes.screenshot(path=str(SHOTS / "changes.png"))
    finally:
        context.close()
