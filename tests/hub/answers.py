"""Submissions a learner could make: the release notebook with the instructor's solutions pasted in, or with
one of them wrong."""

from __future__ import annotations

import copy
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENT = "01_tensors"
# The answer a learner gets wrong in the wrong submission, and how: an int64 tensor where float32 is asked for.
WRONG_ID = "make_inputs"
WRONG_ANSWER = "def make_inputs(values) -> torch.Tensor:\n    return torch.tensor(values)\n"


def _notebook(folder: str, assignment: str = ASSIGNMENT) -> dict:
    return json.loads((ROOT / folder / assignment / f"{assignment}.ipynb").read_text(encoding="utf-8"))


def release_notebook(assignment: str = ASSIGNMENT) -> dict:
    """The student version, as nbgrader releases it."""
    return _notebook("release", assignment)


def solutions(assignment: str = ASSIGNMENT) -> dict[str, str]:
    """grade_id -> the instructor's solution cell source, without the ``### BEGIN/END SOLUTION`` lines."""
    from tests import notebooks as nbs

    return nbs.solutions(nbs.source_path(assignment))


def answered(notebook: dict, answers: dict[str, str]) -> dict:
    """A copy of ``notebook`` with the cells whose grade_id is in ``answers`` replaced by those sources."""
    result = copy.deepcopy(notebook)
    for cell in result["cells"]:
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell["source"] = answers[grade_id]
    return result


def right(notebook: dict) -> dict:
    """Every answer right."""
    return answered(notebook, solutions())


def wrong(notebook: dict) -> dict:
    """Every answer right but one: ``make_inputs`` returns int64."""
    return answered(notebook, {**solutions(), WRONG_ID: WRONG_ANSWER})
