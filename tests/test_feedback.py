"""Feedback pages from a journal record: every text escaped, hints only when given, no test code."""

from __future__ import annotations

from autograder.results import feedback
from autograder.wire.schema import Status, Verdict


def _record(message: str) -> dict:
    verdicts = [
        Verdict("test_make", 1.0, 1.0, Status.PASSED),
        Verdict("test_shape", 0.0, 2.0, Status.FAILED, message, "unknown"),
    ]
    return {
        "key": "ann/01",
        "student_id": "<ann>",
        "assignment": "01",
        "score": 1.0,
        "max_score": 3.0,
        "status": "ok",
        "message": "",
        "questions": [v.to_json(stdout=False) for v in verdicts],
    }


def test_feedback_escapes_every_text_a_learner_wrote():
    page = feedback.render(_record("<script>alert(1)</script>"))
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;ann&gt;" in page
    assert "1 / 3" in page


def test_feedback_shows_the_first_hint_of_a_failed_question_only_when_given():
    hints = {"shape": ["先看 shape", "再看 dtype"], "make": ["never shown: it passed"]}
    assert "提示" not in feedback.render(_record("差一点"))
    page = feedback.render(_record("差一点"), hints=hints)
    assert "先看 shape" in page and "再看 dtype" not in page and "never shown" not in page
