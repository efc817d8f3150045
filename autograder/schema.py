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
