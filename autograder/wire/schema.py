"""Field values that cross the process boundary and decide statuses (no torch: the parent imports this).

Decisions are made from these fields, never from message text: messages are for people only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Lost(StrEnum):
    """Why the learner's process can no longer answer, as the judge reports it."""

    HUNG = "hung"  # no answer within the wall-clock backstop
    EXITED = "exited"  # the channel closed: the process ended (crash, exit, kill)
    GARBLED = "garbled"  # a message the judge cannot read, or one that answers another request
    OVERRAN = "overran"  # a test cell's own time ran out while the learner was still answering


class SkipReason(StrEnum):
    """Why a rerun leaves out a cell or a test: what the learner's process did there."""

    HUNG = "hung"  # it stopped answering (status timeout)
    STORAGE = "storage"  # it was stopped for what it wrote outside its memory (status crashed)
    EXITED = "exited"  # it ended or broke the protocol (status crashed)


class Status(StrEnum):
    """A submission's status (grades.csv) or a question's (questions.csv, feedback): one vocabulary."""

    OK = "ok"  # a submission graded to its end
    TIMEOUT = "timeout"  # a cell or the notebook ran past its time
    CRASHED = "crashed"  # the learner's process was lost (or the grader's own code failed)
    INVALID = "invalid"  # what was handed in cannot be graded
    MISSING = "missing"  # nothing was handed in
    PASSED = "passed"  # a question: full points
    FAILED = "failed"  # a question: none


@dataclass(frozen=True)
class Verdict:
    """One question's result, as the engine decided it: what the journal, both CSVs, the feedback page and
    nbgrader's gradebook are all written from. ``mistake``: a failed question's named mistake id (or
    ``unknown``), '' when it passed or never ran; ``stdout``: what the test printed (the graded notebook)."""

    grade_id: str
    points: float
    max_points: float
    status: Status
    message: str = ""
    mistake: str = ""
    stdout: str = ""

    @property
    def passed(self) -> bool:
        return self.status is Status.PASSED

    def to_json(self, *, stdout: bool = True) -> dict[str, Any]:
        data = {
            "grade_id": self.grade_id,
            "points": self.points,
            "max_points": self.max_points,
            "status": self.status.value,
            "message": self.message,
            "mistake": self.mistake,
        }
        return {**data, "stdout": self.stdout} if stdout else data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        """Read back what ``to_json`` wrote; anything else raises ValueError."""
        try:
            verdict = cls(
                str(data["grade_id"]),
                float(data["points"]),
                float(data["max_points"]),
                Status(data["status"]),
                str(data.get("message", "")),
                str(data.get("mistake", "")),
                str(data.get("stdout", "")),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a verdict: {exc}") from None
        return verdict


@dataclass
class Outcome:
    """How one submission ended: a verdict per test cell, the learner cells' outputs, a status (the engine's
    result; the warm server and Dask workers send it back as JSON)."""

    questions: list[Verdict]
    cells: dict[int, dict[str, Any]]
    status: Status  # ok, timeout or crashed
    note: str = ""
    grader_error: str = ""  # our own traceback, for the grading log (never in a learner's feedback)

    def to_json(self) -> dict[str, Any]:
        return {
            "questions": [q.to_json() for q in self.questions],
            "cells": {str(k): v for k, v in self.cells.items()},
            "status": self.status.value,
            "note": self.note,
            "grader_error": self.grader_error,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        questions = [Verdict.from_json(q) for q in data["questions"]]
        cells = {int(k): v for k, v in data["cells"].items()}
        return cls(questions, cells, Status(data["status"]), data["note"], data.get("grader_error", ""))


@dataclass
class RunLimits:
    """What one submission may use: seconds per cell and per notebook, bytes of memory, and bytes it may
    keep outside its address space (files in its scratch folder, /tmp and /dev/shm, SysV shared memory)."""

    cell_timeout: float
    notebook_timeout: float
    memory: int
    storage: int = 512 * 2**20


# ---------------------------------------------------------------------------------------------------
# The wire: plan steps (parent -> judge) and the judge's result stream (judge -> parent), validated on read


class Origin(StrEnum):
    """Who wrote a failed test's error: it chooses the wording, never the exception's name."""

    CHECK = "check"  # a check (course.checks.CheckError) or the test cell's own assert
    LEARNER = "learner"  # the learner's code raised it
    TEST = "test"  # the test code's own error (a name the learner never defined, ...)
    GONE = "gone"  # the learner's process could no longer answer
    TIMEOUT = "timeout"  # the test cell ran past its time
    CRASHED = "crashed"  # a rerun skipped this test: the learner's process was lost in it before


class StepKind(StrEnum):
    ANSWER = "answer"  # an answer cell: the names the learner defines there
    SETUP = "setup"  # an instructor's cell the judge runs
    TEST = "test"  # a test cell the judge runs


def _need(data: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name) if isinstance(data, dict) else None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"wire record: {name} is missing or not {getattr(kind, '__name__', kind)}")
    return value


def _error(value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise ValueError("wire record: error is not [type name, message]")
    return (value[0], value[1])


@dataclass(frozen=True)
class Step:
    """One step of the judge's plan: an answer cell's names, a setup cell, or a test cell.

    ``upto``: how many of the learner's cells run before a test; ``next_upto``: the same for the test
    after a setup that uses the learner's answers (``learner``)."""

    kind: StepKind
    source: str = ""
    names: tuple[str, ...] = ()
    grade_id: str = ""
    upto: int = 0
    next_upto: int = 0
    learner: bool = False

    def to_dict(self) -> dict[str, Any]:
        if self.kind is StepKind.ANSWER:
            return {"kind": "answer", "names": list(self.names)}
        if self.kind is StepKind.TEST:
            return {"kind": "test", "grade_id": self.grade_id, "source": self.source, "upto": self.upto}
        return {"kind": "setup", "source": self.source, "learner": self.learner, "next_upto": self.next_upto}

    @classmethod
    def from_dict(cls, data: Any) -> Step:
        kind = StepKind(_need(data, "kind", str))
        if kind is StepKind.ANSWER:
            names = _need(data, "names", list)
            if not all(isinstance(n, str) for n in names):
                raise ValueError("wire record: names are not strings")
            return cls(kind, names=tuple(names))
        if kind is StepKind.TEST:
            return cls(
                kind, _need(data, "source", str), grade_id=_need(data, "grade_id", str), upto=_need(data, "upto", int)
            )
        learner = _need(data, "learner", bool)
        return cls(kind, _need(data, "source", str), next_upto=_need(data, "next_upto", int), learner=learner)


@dataclass(frozen=True)
class TestResult:
    """How one test cell ended in the judge."""

    __test__ = False  # not a pytest test class

    grade_id: str
    passed: bool
    error: tuple[str, str] | None = None  # (type name, message) of what made it fail
    stdout: str = ""
    timeout: bool = False
    lost: str = ""  # why the learner could not answer, when it could not (for people)
    origin: Origin | None = None  # who wrote ``error``
    mistake: str = ""  # the catalogue id (course.mistakes) a check's failure proved; '' when none

    def to_dict(self) -> dict[str, Any]:
        return {
            "grade_id": self.grade_id,
            "passed": self.passed,
            "error": list(self.error) if self.error else None,
            "stdout": self.stdout,
            "timeout": self.timeout,
            "lost": self.lost,
            "origin": self.origin.value if self.origin else "",
            "mistake": self.mistake,
        }

    @classmethod
    def from_dict(cls, data: Any) -> TestResult:
        origin = _need(data, "origin", str)
        return cls(
            _need(data, "grade_id", str),
            _need(data, "passed", bool),
            _error(data.get("error")),
            _need(data, "stdout", str),
            _need(data, "timeout", bool),
            _need(data, "lost", str),
            Origin(origin) if origin else None,
            _need(data, "mistake", str),
        )


@dataclass(frozen=True)
class CellResult:
    """One learner cell's outputs, as the learner's process reported them to the judge."""

    index: int
    stdout: str = ""
    stderr: str = ""
    timeout: bool = False
    error: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        error = list(self.error) if self.error else None
        return {
            "index": self.index,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "timeout": self.timeout,
            "error": error,
        }

    @classmethod
    def from_dict(cls, data: Any) -> CellResult:
        return cls(
            _need(data, "index", int),
            _need(data, "stdout", str),
            _need(data, "stderr", str),
            _need(data, "timeout", bool),
            _error(data.get("error")),
        )


@dataclass(frozen=True)
class Done:
    """The judge's last message for a submission: where and why it lost the learner, or its own error."""

    lost_at: tuple[str, int | str] | None = None  # ("cell", index) or ("test", grade_id)
    lost: str = ""  # why, for people
    reason: Lost | None = None  # why, as a field
    grader_error: str = ""  # a traceback from the judge's own code

    def to_dict(self) -> dict[str, Any]:
        return {
            "lost_at": list(self.lost_at) if self.lost_at else None,
            "lost": self.lost,
            "reason": self.reason.value if self.reason else "",
            "grader_error": self.grader_error,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Done:
        where = data.get("lost_at") if isinstance(data, dict) else None
        lost_at = None
        if where is not None:
            ok = isinstance(where, list) and len(where) == 2
            ok = ok and (where[0], type(where[1])) in (("cell", int), ("test", str))
            if not ok:
                raise ValueError("wire record: lost_at is not [cell, index] or [test, grade_id]")
            lost_at = (where[0], where[1])
        reason = _need(data, "reason", str)
        return cls(
            lost_at, _need(data, "lost", str), Lost(reason) if reason else None, _need(data, "grader_error", str)
        )


RESULTS = {"test": TestResult, "cell": CellResult, "done": Done}


def result_message(record: TestResult | CellResult | Done) -> dict[str, Any]:
    """A result-stream message: {"kind": ..., "item": the record's fields}."""
    kind = next(k for k, t in RESULTS.items() if isinstance(record, t))
    return {"kind": kind, "item": record.to_dict()}


def read_result(message: Any) -> TestResult | CellResult | Done:
    """The record in one result-stream message; ValueError when it is not one."""
    kind = message.get("kind") if isinstance(message, dict) else None
    if kind not in RESULTS:
        raise ValueError(f"wire record: unknown result kind {str(kind)[:40]!r}")
    return RESULTS[kind].from_dict(message.get("item"))
