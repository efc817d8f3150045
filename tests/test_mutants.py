"""Every graded exercise rejects the wrong answers learners write, with a message that names the mistake,
both where students meet it (the test cell in their kernel) and where grading decides (the judge, which
sees the learner's functions only through data: the real ``judge.run_plan``, here in this process over the
judge's own encoding)."""

from __future__ import annotations

import functools
import runpy
from typing import Any

import pytest

from autograder.wire.schema import Origin
from course import cellflags
from tests import notebooks as nbs

ALL_MUTANTS = [m for a in nbs.assignments() for m in nbs.mutants(a)]
GRADED_MUTANTS = [m for m in ALL_MUTANTS if not m.formative]  # formative checks never run in the judge


@functools.cache
def _namespace(assignment: str) -> dict[str, Any]:
    """A kernel after "run all" of the solution: the learner's cells (shared), then every test cell."""
    namespace = dict(nbs.solution_namespace(assignment))
    for cell in nbs.grade_cells(nbs.read(nbs.source_path(assignment))):
        exec(compile(cell.source, f"<test {nbs.meta(cell)['grade_id']}>", "exec"), namespace)
    return namespace


@functools.cache
def _test_source(assignment: str, grade_id: str) -> str:
    """The source of ``grade_id``'s test cell (the notebook read and validated once, not once per mutant)."""
    return nbs.test_cell_source(nbs.read(nbs.source_path(assignment)), grade_id)


@functools.cache
def _stages(assignment: str) -> dict[str, nbs.JudgeStage]:
    return nbs.judge_stages(nbs.read(nbs.source_path(assignment)), dict(nbs.solution_namespace(assignment)))


# Test cells whose mutants train the capstone's model again (a training cell edited): the kernel test and the
# judge test share one run of such a mutant's code, over the solution's learner cells.
_RETRAINS = {("10_lenet_mnist", "test_final_accuracy")}


@functools.cache
def _trained_by(mutant: nbs.Mutant) -> dict[str, Any]:
    """The names ``mutant``'s code binds or rebinds when run over the solution's learner cells."""
    learner = dict(nbs.solution_namespace(mutant.assignment))
    before = dict(learner)
    exec(compile(mutant.code, f"<mutant {mutant}>", "exec"), learner)
    return {k: v for k, v in learner.items() if k not in before or before[k] is not v}


def _with_mutant(namespace: dict[str, Any], mutant: nbs.Mutant) -> dict[str, Any]:
    """``namespace`` (copied) with ``mutant``'s code run over it."""
    namespace = dict(namespace)
    if (mutant.assignment, mutant.grade_id) in _RETRAINS:
        namespace.update(_trained_by(mutant))
    else:
        cellflags.note_cell(mutant.code, namespace)  # as the kernel's and the grader's cell hooks do
        exec(compile(mutant.code, f"<mutant {mutant}>", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("mutant", ALL_MUTANTS, ids=str)
def test_mutant_fails_its_test_cell_in_the_kernel_with_a_message_naming_the_mistake(mutant: nbs.Mutant) -> None:
    test_source = _test_source(mutant.assignment, mutant.grade_id)
    namespace = _with_mutant(_namespace(mutant.assignment), mutant)
    with pytest.raises(AssertionError) as info:
        exec(compile(test_source, f"<test {mutant.grade_id}>", "exec"), namespace)
    assert mutant.expect in str(info.value), f"message does not name the mistake: {info.value}"


@pytest.mark.parametrize("mutant", GRADED_MUTANTS, ids=str)
def test_mutant_fails_its_test_cell_in_the_judge_with_a_message_naming_the_mistake(mutant: nbs.Mutant) -> None:
    learner = _with_mutant(nbs.solution_namespace(mutant.assignment), mutant)
    stage = _stages(mutant.assignment)[mutant.grade_id]
    result = nbs.run_judge(stage.plan, learner, dict(stage.namespace))[mutant.grade_id]
    assert not result.passed and result.error is not None, f"{mutant} passes in the judge"
    assert result.origin is Origin.CHECK, f"not a check's failure: {result.origin} {result.error}"
    assert mutant.expect in result.error[1], f"message does not name the mistake: {result.error[1]}"
    if mutant.mistake:  # the id crosses to the grader as a field of the failure, beside the message
        assert result.mistake == mutant.mistake, f"mistake id: {result.mistake!r} {result.error}"


@pytest.mark.parametrize("assignment", nbs.assignments())
def test_every_graded_exercise_has_at_least_three_mutants(assignment: str) -> None:
    nb = nbs.read(nbs.source_path(assignment))
    counts = {nbs.meta(c)["grade_id"]: 0 for c in nbs.grade_cells(nb)}
    for m in nbs.mutants(assignment):
        if not m.formative:
            assert m.grade_id in counts, f"mutant {m} names an unknown test cell (a prediction needs formative=True)"
            counts[m.grade_id] += 1
    assert counts, f"{assignment} has no graded test cells"
    assert all(n >= 3 for n in counts.values()), counts


@pytest.mark.parametrize("assignment", nbs.assignments())
def test_every_formative_check_has_a_wrong_prediction_that_fails_it(assignment: str) -> None:
    nb = nbs.read(nbs.source_path(assignment))
    counts = {nbs.meta(c)["grade_id"]: 0 for c in nbs.formative_cells(nb)}
    for m in nbs.mutants(assignment):
        if m.formative:
            assert m.grade_id in counts, f"formative mutant {m} names no formative check cell"
            counts[m.grade_id] += 1
    assert all(n >= 1 for n in counts.values()), counts


@pytest.mark.parametrize("assignment", nbs.assignments())
def test_solutions_pass_every_test_cell_in_the_kernel(assignment: str) -> None:
    nb = nbs.read(nbs.source_path(assignment))
    namespace = dict(_namespace(assignment))  # all cells ran without raising
    for cell in nbs.grade_cells(nb):
        exec(compile(cell.source, "<test>", "exec"), dict(namespace))


@pytest.mark.parametrize("assignment", nbs.assignments())
def test_solutions_pass_every_test_cell_in_the_judge(assignment: str) -> None:
    plan = nbs.judge_plan(nbs.read(nbs.source_path(assignment)))
    results = nbs.run_judge(plan, dict(nbs.solution_namespace(assignment)))
    failed = {gid: r.error for gid, r in results.items() if not r.passed}
    assert results and not failed, failed


def _correct_variants() -> list[tuple[str, dict[str, str]]]:
    """Right answers written another way (``CORRECT`` beside ``MUTANTS`` in ``tests/mutants/<id>.py``)."""
    found = []
    for assignment in nbs.assignments():
        path = nbs.MUTANTS / f"{assignment}.py"
        if path.is_file():
            found += [(assignment, v) for v in runpy.run_path(str(path)).get("CORRECT", [])]
    return found


@pytest.mark.parametrize("variant", _correct_variants(), ids=lambda v: f"{v[0]}:{v[1]['grade_id']}:{v[1]['name']}")
def test_a_correct_answer_written_another_way_passes_its_test_cell_in_the_kernel(variant: tuple[str, dict]) -> None:
    assignment, v = variant
    namespace = dict(_namespace(assignment))
    cellflags.note_cell(v["code"], namespace)
    exec(compile(v["code"], f"<variant {v['name']}>", "exec"), namespace)
    exec(compile(_test_source(assignment, v["grade_id"]), "<test>", "exec"), namespace)
