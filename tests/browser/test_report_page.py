"""The class report on a class graded by the real engine, then the page in Chromium with a screenshot of each
section under ``artifacts/browser/report/`` (an ignored folder, so a test run leaves the checkout clean); with
``UPDATE_REPORT_SHOTS=1`` they replace the README's screenshots in ``artifacts/report/``.

The class (built once per session: this module is its only user): for each question of 02_shapes and 06_no_grad, up
to NAMED_HOLDERS graded mutants per mistake id the judge names for them and up to UNNAMED_HOLDERS that match no named
mistake, each held by a student (every mistake id that a mutant of those notebooks reaches is held; every mutant is
graded in the judge by tests/test_mutants.py), and 8 submissions per notebook pairing a held mutant with one of
another question of the same notebook; most students (up to OVERLAP) hold mutants in both notebooks (two or three
misconceptions each); honest students, a student who handed in only 02_shapes and one who handed in nothing. Its
size grows with the named mistakes of those two notebooks, not with their mutants (about 110 submissions at stop
57). The expected rows come from the mutants alone: each fails its own question and no other, with the id the
judge's own code reports for it in this process (``tests.notebooks``; the declared ``mistake=`` where a mutant has
one). The report must then count exactly those misconceptions: per question, per mistake id, per student.

Cost: per submission about 1 CPU s in the learner and judge children (02_shapes and 06_no_grad are the
cheapest notebooks to grade) and about 0.3 s in the parent (nbgrader's sanitising, the gradebook, the feedback
page); each mutant's expected verdict is computed once in this process however many students hold it. The
set-up's seconds in a full run are in the "work units" summary (tests/conftest.py).
"""

from __future__ import annotations

import copy
import csv
import functools
import os
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import nbformat
import pytest

from autograder.grade import grade
from autograder.parent.sandbox import bwrap_problem
from autograder.results import report
from course import cellflags
from tests import notebooks as nbs

pytestmark = pytest.mark.browser

ASSIGNMENTS = ("02_shapes", "06_no_grad")  # the two cheapest notebooks to grade per submission
NAMED_HOLDERS = 2  # per question and named mistake id: the students who hold one of its mutants, at most
UNNAMED_HOLDERS = 3  # per question: the students who hold a mutant the judge names no mistake for, at most
PAIR_STEPS = (3,)  # per notebook: submissions holding two mutants of two different questions (see below)
PAIRS = 8  # per notebook, the first this many of them (each submission costs about 2 s of a full run)
OVERLAP = (
    150  # students holding mutants in both notebooks, at most (a pair in one or both: three or four misconceptions)
)
HONEST = 10  # students who get every question right (beyond those holding a mutant)
ROOT = Path(__file__).resolve().parents[2]
# the README's screenshots are refreshed only when asked; a plain run writes beside the other browser screenshots
SHOTS = ROOT / "artifacts" / ("report" if os.environ.get("UPDATE_REPORT_SHOTS") == "1" else "browser/report")

Group = tuple[nbs.Mutant, ...]  # the mutants one submission holds (empty: honest)
Holding = dict[str, Group]  # assignment -> what a student's submission holds


def held_mutants(assignment: str) -> list[nbs.Mutant]:
    """The graded mutants of ``assignment`` that the class holds, in the mutants' order: per question, the first
    ``NAMED_HOLDERS`` of each mistake id the judge reports for them and the first ``UNNAMED_HOLDERS`` it names
    none for ('unknown')."""
    seen: Counter = Counter()
    held = []
    for mutant in (m for m in nbs.mutants(assignment) if not m.formative):
        key = (mutant.grade_id, judge_verdict(mutant))
        seen[key] += 1
        if seen[key] <= (UNNAMED_HOLDERS if key[1] == "unknown" else NAMED_HOLDERS):
            held.append(mutant)
    return held


def mutant_groups(assignment: str) -> tuple[list[Group], list[Group]]:
    """Each held mutant of ``assignment`` alone, and ``PAIRS`` pairs of mutants of two different questions:
    mutant j with the one a third of the list further on (so each pair mixes questions and no pair repeats)."""
    graded = held_mutants(assignment)
    n = len(graded)
    pairs = [(m, graded[(j + n // k) % n]) for k in PAIR_STEPS for j, m in enumerate(graded)]
    return [(m,) for m in graded], [p for p in pairs if p[0].grade_id != p[1].grade_id][:PAIRS]


def class_plan() -> dict[str, Holding]:
    """student -> what each of their submissions holds; an assignment left out was not handed in."""
    (singles, pairs), (singles2, pairs2) = (mutant_groups(a) for a in ASSIGNMENTS)
    start = max(0, len(singles) + len(pairs) - OVERLAP)  # where the second notebook's groups start: the last
    # OVERLAP of the first notebook's hold both; the first notebook's pairs right there, the second's just after
    # them: both fall among students who hold the other notebook's single mutants too (three misconceptions each)
    first, second = singles[:start] + pairs + singles[start:], singles2[:PAIRS] + pairs2 + singles2[PAIRS:]
    total = start + len(second) + HONEST
    plan: dict[str, Holding] = {}
    for i in range(total):
        plan[f"s{i:03d}"] = {
            ASSIGNMENTS[0]: first[i] if i < len(first) else (),
            ASSIGNMENTS[1]: second[i - start] if start <= i < start + len(second) else (),
        }
    plan["only02"] = {ASSIGNMENTS[0]: ()}  # the second notebook never handed in
    plan["nobody"] = {}
    return plan


def submission(assignment: str, group: Group) -> nbformat.NotebookNode:
    """The honest submission with the answer cell of each mutant in ``group`` replaced by the mutant."""
    nb = copy.deepcopy(_honest(assignment))
    for mutant in group:
        nb.cells[_answer_cell(mutant)] = nbformat.from_dict({**nb.cells[_answer_cell(mutant)], "source": mutant.code})
    return nb


@functools.cache
def _honest(assignment: str) -> nbformat.NotebookNode:
    return nbs.honest_submission(assignment)


@functools.cache
def _answer_cell(mutant: nbs.Mutant) -> int:
    """The index of the answer cell that ``tests.notebooks.mutant_submission`` replaces by ``mutant``."""
    wrong, right = nbs.mutant_submission(mutant.assignment, mutant).cells, _honest(mutant.assignment).cells
    return next(i for i, (a, b) in enumerate(zip(wrong, right)) if a.source != b.source)


@functools.cache
def judge_verdict(mutant: nbs.Mutant) -> str:
    """The mistake id the judge's code (in this process) reports when ``mutant`` fails its own test cell
    ('unknown': no named mistake); the rest of the answers are the solution's."""
    learner = dict(_learner(mutant.assignment))
    cellflags.note_cell(mutant.code, learner)  # as the grader's learner process notes each cell it runs
    exec(compile(mutant.code, f"<mutant {mutant}>", "exec"), learner)
    stage = _stages(mutant.assignment)[mutant.grade_id]
    result = nbs.run_judge(stage.plan, learner, dict(stage.namespace))[mutant.grade_id]
    assert not result.passed, f"{mutant} passes its own test cell in the judge"
    return result.mistake or "unknown"


_cache: dict[str, dict] = {}


def _learner(assignment: str) -> dict:
    if assignment not in _cache:
        _cache[assignment] = nbs.learner_cells_namespace(nbs.read(nbs.source_path(assignment)))
    return _cache[assignment]


def _stages(assignment: str) -> dict[str, nbs.JudgeStage]:
    key = f"stages:{assignment}"
    if key not in _cache:
        _cache[key] = nbs.judge_stages(nbs.read(nbs.source_path(assignment)), dict(_learner(assignment)))
    return _cache[key]


def expected_rows(plan: dict[str, Holding]) -> dict[tuple[str, str, str], str]:
    """(student, assignment, grade_id) -> mistake id of every question a handed-in notebook fails: a mutant
    fails its own question and no other (its answer is used by no later question), an honest one none."""
    rows = {}
    for student, holding in plan.items():
        for assignment, group in holding.items():
            for mutant in group:
                rows[(student, assignment, mutant.grade_id)] = judge_verdict(mutant)
    return rows


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("report-class")
    subs, out = work / "submitted", work / "out"
    plan = class_plan()
    for student, holding in plan.items():
        for assignment in ASSIGNMENTS:
            folder = subs / student / assignment
            folder.mkdir(parents=True)  # an empty folder: handed nothing in
            if assignment in holding:
                nbformat.write(submission(assignment, holding[assignment]), folder / f"{assignment}.ipynb")
    grade(
        subs,
        out,
        course_root=ROOT,
        assignments=list(ASSIGNMENTS),
        jobs=2,
        cell_timeout=10,
        notebook_timeout=60,
        memory="3G",
        sandbox_mode="auto" if not bwrap_problem() else "none",
        progress=False,
    )
    return {"out": out, "plan": plan, "expected": expected_rows(plan), "report": report.build(out)}


def test_the_class_has_about_110_graded_submissions_holding_every_mistake_id_the_mutants_of_two_notebooks_reach(
    graded_class,
):
    by_status = graded_class["report"]["class"]["by_status"]
    assert set(by_status) == set(ASSIGNMENTS)
    ran = sum(by_status[a].get("ok", 0) for a in ASSIGNMENTS)
    assert ran == sum(len(h) for h in graded_class["plan"].values()) and ran >= 100
    held = {m for holding in graded_class["plan"].values() for group in holding.values() for m in group}
    assert held == {m for a in ASSIGNMENTS for m in held_mutants(a)}
    reached = {(m.grade_id, judge_verdict(m)) for a in ASSIGNMENTS for m in nbs.mutants(a) if not m.formative}
    assert {(m.grade_id, judge_verdict(m)) for m in held} == reached
    assert sum(1 for (_, mistake) in reached if mistake != "unknown") >= 30
    assert by_status[ASSIGNMENTS[0]]["missing"] == 1 and by_status[ASSIGNMENTS[1]]["missing"] == 2


def test_questions_csv_fails_exactly_the_questions_the_judge_fails_with_their_mistake_ids(graded_class):
    with open(graded_class["out"] / "questions.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    failed = {(r["student_id"], r["assignment"], r["grade_id"]): r["mistake"] for r in rows if r["status"] == "failed"}
    assert failed == graded_class["expected"]
    ran = {(s, a) for s, holding in graded_class["plan"].items() for a in holding}
    assert all(r["status"] in ("passed", "failed") for r in rows if (r["student_id"], r["assignment"]) in ran)
    for mutant_holder, holding in graded_class["plan"].items():  # each mutant fails its own question
        for assignment, group in holding.items():
            for mutant in group:
                assert (mutant_holder, assignment, mutant.grade_id) in failed, mutant
                if mutant.mistake:
                    assert failed[(mutant_holder, assignment, mutant.grade_id)] == mutant.mistake, mutant


def misconception_table(expected: dict[tuple[str, str, str], str]) -> dict[tuple[str, str, str], list[str]]:
    """(assignment, grade_id, mistake) -> the students who hold it, from the expected rows."""
    table: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for (student, assignment, grade_id), mistake in sorted(expected.items()):
        table[(assignment, grade_id, mistake)].append(student)
    return dict(table)


def test_the_report_counts_exactly_the_misconceptions_per_question_per_id_and_per_student(graded_class):
    data, plan, expected = graded_class["report"], graded_class["plan"], graded_class["expected"]
    found = {
        (q["assignment"], q["grade_id"], m["mistake"]): m["students"] for q in data["questions"] for m in q["mistakes"]
    }
    want = misconception_table(expected)
    assert found == want
    named = {k for k in want if k[2] != "unknown"}
    assert len({k[2] for k in named}) >= 5 and len({k[0] for k in named}) == 2  # named ids from both notebooks
    for q in data["questions"]:
        attempted = sum(1 for holding in plan.values() if q["assignment"] in holding)
        assert q["attempted"] == attempted, q["grade_id"]
        lost = sum(1 for (_, a, g) in expected if (a, g) == (q["assignment"], q["grade_id"]))
        assert q["full_credit"] == attempted - lost, q["grade_id"]
        assert "nobody passes" not in q["flags"]  # honest students pass every question
        for m in q["mistakes"]:
            assert m["share"] == pytest.approx(len(m["students"]) / attempted)
    students = {s["student"]: s for s in data["students"]}
    assert set(students) == set(plan)
    for student in plan:
        lost = {(x["assignment"], x["grade_id"]): x["mistake"] for x in students[student]["lost"]}
        assert {k: v for k, v in lost.items() if v} == {(a, g): m for (s, a, g), m in expected.items() if s == student}
        mine = Counter(m for (s, _, _), m in expected.items() if s == student and m != "unknown")
        assert students[student]["mistakes"] == dict(mine), student
    held = Counter(s for (s, _, _) in expected)
    both = sum(1 for holding in plan.values() if all(holding.get(a) for a in ASSIGNMENTS))
    assert both >= 40 and sum(1 for n in held.values() if n >= 2) >= both  # one in each notebook, or a pair
    assert sum(1 for n in held.values() if n >= 3) >= 2 * PAIRS  # a pair in one notebook and one in the other
    print_table(want)


def print_table(table: dict[tuple[str, str, str], list[str]]) -> None:
    """The misconception table of the test class (``pytest -s`` shows it; the report quotes it)."""
    for (assignment, grade_id, mistake), students in sorted(table.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        print(f"{assignment} | {grade_id} | {mistake} | {len(students)}")


def test_the_report_in_chromium_shows_each_section_and_links_to_feedback(graded_class, playwright):
    from tests.browser import lab

    out = graded_class["out"]
    page_file = report.write(out)
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = lab.chromium_context(playwright, out.parent / "chromium-profile")
    try:
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(page_file.as_uri())
        for section in ("class", "questions", "misconceptions", "students"):
            locator = page.locator(f"section#{section}")
            assert locator.is_visible()
            locator.screenshot(path=str(SHOTS / f"{section}.png"))
        images = page.locator("img[src^='data:image/png']")
        assert images.count() == 3
        assert all(images.nth(i).evaluate("i => i.naturalWidth > 100") for i in range(3))
        text = page.locator("section#class").inner_text()
        assert f"{len(graded_class['plan'])} students" in text
        mutant = next(m for m in nbs.mutants("02_shapes") if m.mistake)  # a misconception of the second notebook
        row = page.locator("section#misconceptions tr", has_text=mutant.mistake).first
        assert report.catalogue()[mutant.mistake].hint in row.inner_text()
        row.locator("summary").click()
        link = row.locator("a").first
        target = out / link.get_attribute("href")
        assert target.is_file(), target
        link.click()
        page.wait_for_load_state()
        assert "02_shapes" in page.title()
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
