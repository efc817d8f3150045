"""The typed records that cross the process boundary: each reads back what it wrote and refuses the rest."""

from __future__ import annotations

import pytest

from autograder.wire.schema import (
    CellResult,
    Done,
    Lost,
    Origin,
    Status,
    Step,
    StepKind,
    TestResult,
    Verdict,
    read_result,
    result_message,
)

RECORDS = [
    TestResult("test_a", False, ("CheckError", "差一点"), "printed", False, "", Origin.CHECK, "not-a-tensor"),
    TestResult("test_b", True),
    CellResult(3, "out", "err", True, ("ValueError", "bad")),
    Done(("test", "test_a"), "gone", Lost.HUNG),
    Done(("cell", 2), "gone", Lost.EXITED),
    Done(grader_error="Traceback ..."),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_schema_result_messages_read_back_what_was_written(record):
    assert read_result(result_message(record)) == record


@pytest.mark.parametrize(
    "message",
    [
        {"kind": "verdict", "item": {}},
        {"kind": "test", "item": {"grade_id": "t", "passed": "yes"}},
        {"kind": "test", "item": {**TestResult("t", True).to_dict(), "origin": "someone"}},
        {"kind": "cell", "item": {**CellResult(1).to_dict(), "index": True}},
        {"kind": "cell", "item": {**CellResult(1).to_dict(), "error": ["only a name"]}},
        {"kind": "done", "item": {**Done().to_dict(), "lost_at": ["test", 3]}},
        {"kind": "done", "item": {**Done().to_dict(), "reason": "bored"}},
        "not a message",
    ],
)
def test_schema_a_result_message_that_breaks_the_schema_is_refused(message):
    with pytest.raises(ValueError):
        read_result(message)


@pytest.mark.parametrize(
    "step",
    [
        Step(StepKind.ANSWER, names=("f", "g")),
        Step(StepKind.SETUP, "import torch", next_upto=3, learner=True),
        Step(StepKind.TEST, "assert f(1) == 2", grade_id="test_f", upto=2),
    ],
)
def test_schema_plan_steps_read_back_what_was_written(step):
    assert Step.from_dict(step.to_dict()) == step


@pytest.mark.parametrize(
    "data",
    [{"kind": "answer", "names": [1]}, {"kind": "test", "source": "x", "grade_id": "t"}, {"kind": "demo"}, []],
)
def test_schema_a_plan_step_that_breaks_the_schema_is_refused(data):
    with pytest.raises(ValueError):
        Step.from_dict(data)


def test_schema_a_verdict_reads_back_what_it_wrote_and_refuses_anything_else():
    verdict = Verdict("test_a", 1.0, 1.0, Status.PASSED, stdout="printed")
    assert Verdict.from_json(verdict.to_json()) == verdict
    assert "stdout" not in verdict.to_json(stdout=False)
    with pytest.raises(ValueError):
        Verdict.from_json({**verdict.to_json(), "status": "maybe"})
    with pytest.raises(ValueError):
        Verdict.from_json({"grade_id": "test_a"})
