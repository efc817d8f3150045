"""Source and release notebooks: well-formed, stripped, current, and graded as intended by nbgrader."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from autograder.generate import generate
from autograder.grade import grade
from tests import notebooks as nbs

ASSIGNMENTS = nbs.assignments()
# one mutant per assignment (its last of an exercise, not a prediction) graded through the real engine
MUTANT_OF = {
    a: [m for m in nbs.mutants(a) if not m.formative and not m.grade_id.startswith("test_predict")][-1]
    for a in ASSIGNMENTS
    if a != "10_lenet_mnist"
}


def _stored(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _without_ids(nb: dict) -> dict:
    nb = json.loads(json.dumps(nb))
    for cell in nb["cells"]:
        cell.pop("id", None)
    return nb


def test_the_course_has_its_first_assignment():
    assert "01_tensors" in ASSIGNMENTS


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_notebooks_are_stored_without_outputs(assignment):
    for path in (nbs.source_path(assignment), nbs.release_path(assignment)):
        for cell in _stored(path)["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, path


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_grade_ids_are_unique_and_test_cells_carry_points(assignment):
    nb = nbs.read(nbs.source_path(assignment))
    ids = [nbs.meta(c)["grade_id"] for c in nb.cells if "grade_id" in nbs.meta(c)]
    assert len(ids) == len(set(ids)), ids
    graded = nbs.grade_cells(nb)
    assert len(graded) >= 3
    for cell in graded:
        assert nbs.meta(cell)["points"] > 0 and nbs.meta(cell)["locked"]
        assert "### BEGIN HIDDEN TESTS" in cell.source, nbs.meta(cell)["grade_id"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_prediction_carries_points_and_every_graded_cell_tests_a_function(assignment):
    """A retry always earns a prediction (a wrong one is told the true value): predictions are formative."""
    import ast

    nb = nbs.read(nbs.source_path(assignment))
    answers = {nbs.meta(c)["grade_id"]: c.source for c in nb.cells if nbs.meta(c).get("solution")}
    for cell in nbs.grade_cells(nb):
        grade_id = nbs.meta(cell)["grade_id"]
        assert "check_prediction" not in cell.source, f"{grade_id}: a prediction must be a formative cell"
        answer = answers.get(grade_id.removeprefix("test_"))
        if answer is not None:
            defs = [n for n in ast.parse(answer).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
            assert defs, f"{grade_id}: a graded cell tests a function or class, not a value to guess"
    for cell in nb.cells:
        if cell.cell_type == "code" and "check_prediction(" in cell.source:
            m = nbs.meta(cell)
            assert cell in nbs.formative_cells(nb), f"{m.get('grade_id')}: make it a read-only (formative) cell"
            assert not m.get("points") and "HIDDEN TESTS" not in cell.source, m.get("grade_id")


def _wrong_predictions(assignment: str) -> nbformat.NotebookNode:
    """The honest submission with every answer a formative cell checks replaced by a value no check accepts."""
    nb = nbs.honest_submission(assignment)
    checked = {nbs.meta(c)["grade_id"].removeprefix("test_") for c in nbs.formative_cells(nb)}
    for cell in nb.cells:
        if nbs.meta(cell).get("solution") and nbs.meta(cell).get("grade_id") in checked:
            cell.source = f"{nbs.meta(cell)['grade_id']} = 'a wrong prediction'\n"
    return nb


@pytest.mark.parametrize("assignment", ["01_tensors", "02_shapes", "03_broadcasting"])
def test_wrong_predictions_fail_their_checks_in_the_learner_and_cost_no_points_in_the_judge(assignment):
    from autograder.child.judge import Learner, LoopbackChannel, run_plan
    from autograder.child.learner import Server, exec_cell
    from autograder.notebooks import make_plan
    from course import remote

    source, submission = nbs.read(nbs.source_path(assignment)), _wrong_predictions(assignment)
    formative = [nbs.meta(c)["grade_id"] for c in nbs.formative_cells(source)]
    assert formative, f"{assignment} has no formative predictions"
    plan = make_plan(source, submission)
    assert plan.tests == nbs.test_cells_ids(source) and not set(plan.points) & set(formative)
    assert not any("check_prediction" in step.get("source", "") for step in plan.steps), "the judge runs none"
    namespace: dict = {"__name__": "__main__"}
    try:
        report = run_plan(plan.to_json(), Learner(LoopbackChannel(Server(namespace, exec_cell(namespace)))))
    finally:
        remote.IN_JUDGE = False
    failed = {gid: r.error for gid, r in report.tests.items() if not r.passed}
    assert not failed and set(report.tests) == set(plan.tests), failed
    errors = [cell.error for cell in report.cells.values() if cell.error]
    assert len(errors) == len(formative) and all("预测" in e[1] for e in errors), errors


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_notebooks_use_no_magics_or_shell_escapes(assignment):
    nb = nbs.read(nbs.source_path(assignment))
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not any(line.lstrip().startswith(("%", "!")) for line in cell.source.splitlines())


def test_release_is_a_fresh_generation_of_source(tmp_path):
    generate(course_root=nbs.ROOT, assignments=ASSIGNMENTS, out=tmp_path)
    generated = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in nbs.RELEASE.iterdir() if p.is_dir() or p.suffix == ".md")
    assert committed == generated, "release/ has other assignments than source/: run `make generate`"
    for assignment in ASSIGNMENTS:
        fresh = _stored(tmp_path / assignment / f"{assignment}.ipynb")
        stored = _stored(nbs.release_path(assignment))
        assert _without_ids(stored) == _without_ids(fresh), f"release/{assignment} is stale: run `make generate`"
    for page in tmp_path.glob("*.md"):
        assert (nbs.RELEASE / page.name).read_text(encoding="utf-8") == page.read_text(encoding="utf-8")


def test_release_hides_solutions_and_hidden_tests():
    for assignment in ASSIGNMENTS:
        text = nbs.release_path(assignment).read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text and "_ref_" not in text


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_honest_answers_score_full_marks_through_check(honest_progress, assignment):
    row = next(r for r in honest_progress if r.assignment == assignment)
    assert row.status == "ok" and not row.remaining and row.score == row.max_score > 0, row


@pytest.fixture(scope="module")
def class_of_two(tmp_path_factory):
    """The sandboxed grader over every assignment: one student hands in the solutions, one the blanks, and
    one the solutions with a mutant in place of one answer (not in the capstone: it would train again)."""
    subs = tmp_path_factory.mktemp("class")
    for assignment in ASSIGNMENTS:
        students = [("honest", nbs.honest_submission(assignment)), ("blank", nbs.read(nbs.release_path(assignment)))]
        if assignment in MUTANT_OF:
            students.append(("mutant", nbs.mutant_submission(assignment, MUTANT_OF[assignment])))
        for student, nb in students:
            folder = subs / student / assignment
            folder.mkdir(parents=True)
            nbformat.write(nb, folder / f"{assignment}.ipynb")
    return grade(subs, tmp_path_factory.mktemp("out"), course_root=nbs.ROOT, progress=False)


@pytest.mark.slow
@pytest.mark.parametrize("assignment", sorted(MUTANT_OF))
def test_a_mutant_fails_through_the_sandboxed_engine_with_its_message_and_nothing_else_does(class_of_two, assignment):
    mutant = MUTANT_OF[assignment]
    record = class_of_two[f"mutant/{assignment}"]
    failed = {q["grade_id"]: q["message"] for q in record["questions"] if q["status"] != "passed"}
    assert list(failed) == [mutant.grade_id], failed
    assert mutant.expect in failed[mutant.grade_id], failed


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_untouched_release_notebook_scores_zero_on_every_graded_cell(class_of_two, assignment):
    record = class_of_two[f"blank/{assignment}"]
    assert record["status"] == "ok" and record["questions"], record
    assert all(q["points"] == 0 and q["message"] for q in record["questions"]), record["questions"]


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_honest_answers_score_full_marks_in_the_sandboxed_grader(class_of_two, assignment):
    record = class_of_two[f"honest/{assignment}"]
    failed = {q["grade_id"]: q["message"] for q in record["questions"] if q["status"] != "passed"}
    assert record["status"] == "ok" and not failed and record["score"] == record["max_score"] > 0, failed
