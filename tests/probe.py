"""The small course the grading tests use: assignment 99_probe, two exercises (2 + 1 points)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from tests.notebooks import ROOT

ID = "99_probe"
RIGHT_ANSWER = "def answer():\n    return torch.tensor([1.0, 2.0])\n"
RIGHT_OTHER = "def other():\n    return 3\n"
WRONG = "def answer():\n    return torch.zeros(2)\n"
STUB = "def answer():\n    raise NotImplementedError()\n"
STUB_OTHER = "def other():\n    raise NotImplementedError()\n"


def _cell(source: str, **nbgrader) -> nbformat.NotebookNode:
    cell = new_code_cell(source)
    if nbgrader:
        cell.metadata["nbgrader"] = {"schema_version": 3, "task": False, **nbgrader}
    return cell


def source_notebook() -> nbformat.NotebookNode:
    cells = [
        _cell("import torch\nfrom course import checks"),
        _cell(
            "def answer():\n    ### BEGIN SOLUTION\n    return torch.tensor([1.0, 2.0])\n    ### END SOLUTION",
            grade=False,
            solution=True,
            locked=False,
            grade_id="answer",
        ),
        _cell(
            "checks.check_tensor(answer(), torch.tensor([1.0, 2.0]))\n"
            "assert torch.equal(answer(), torch.tensor([1.0, 2.0]))\n"
            "### BEGIN HIDDEN TESTS\nassert torch.allclose(answer(), torch.tensor([1.0, 2.0]))\n### END HIDDEN TESTS",
            grade=True,
            solution=False,
            locked=True,
            grade_id="test_answer",
            points=2,
        ),
        _cell(
            "def other():\n    ### BEGIN SOLUTION\n    return 3\n    ### END SOLUTION",
            grade=False,
            solution=True,
            locked=False,
            grade_id="other",
        ),
        _cell(
            'assert other() == 3, "other() 应该返回 3"',
            grade=True,
            solution=False,
            locked=True,
            grade_id="test_other",
            points=1,
        ),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def submission(
    answer: str = RIGHT_ANSWER, other: str = RIGHT_OTHER, edit=None, extra: str = ""
) -> nbformat.NotebookNode:
    """The probe notebook with these answers; ``extra`` is a cell of the learner's own after the imports."""
    nb = source_notebook()
    nb.cells[1].source, nb.cells[3].source = answer, other
    if edit is not None:
        edit(nb)
    if extra:
        nb.cells.insert(1, new_code_cell(extra))
    return nb


def make_course(root: Path) -> Path:
    """A course folder with the probe's source notebook and the course's nbgrader_config.py."""
    shutil.copy2(ROOT / "nbgrader_config.py", root)
    (root / "source" / ID).mkdir(parents=True)
    nbformat.write(source_notebook(), root / "source" / ID / f"{ID}.ipynb")
    (root / "source" / ID / "hints.toml").write_text(
        '[answer]\nhints = ["HINT-ONE: 返回一个 float32 张量。", "HINT-TWO: torch.tensor([1.0, 2.0])。"]\n',
        encoding="utf-8",
    )
    return root


def grade_cli(*args: str, env: dict | None = None) -> subprocess.Popen:
    """`python -m autograder grade ARGS --quiet` in a session of its own (so a test can kill it whole)."""
    return subprocess.Popen(
        [sys.executable, "-m", "autograder", "grade", *args, "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
