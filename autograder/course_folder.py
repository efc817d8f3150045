"""Where the course lives: its root folder, assignments and their source notebooks."""

from __future__ import annotations

import re
from pathlib import Path

from autograder.errors import AutograderError

ASSIGNMENT_ID = re.compile(r"^\d\d_[a-z0-9_]+$")


def is_course_root(path: Path) -> bool:
    return (path / "nbgrader_config.py").is_file() and (path / "source").is_dir()


def find_course_root(*starts: Path) -> Path | None:
    """The nearest folder at or above each start (default: the cwd) with ``source/`` and ``nbgrader_config.py``.

    ``None`` when there is no course (a learner with only a copy of a release notebook).
    """
    for start in starts or (Path.cwd(),):
        here = start.resolve()
        for folder in [here, *here.parents]:
            if is_course_root(folder):
                return folder
    return None


def course_root(path: str | None) -> Path:
    """The course folder: ``path`` (which must be one), else the one found from the cwd; AutograderError if none."""
    if path is not None:
        root = Path(path)
        if not is_course_root(root):
            raise AutograderError(f"{root} is not a course folder (it needs source/ and nbgrader_config.py)")
        return root.resolve()
    root = find_course_root()
    if root is None:
        raise AutograderError("no course folder found here or above (one with source/ and nbgrader_config.py)")
    return root


def assignments(course_root: Path) -> list[str]:
    """Assignment ids with a source notebook ``source/<id>/<id>.ipynb``, in course order."""
    source = course_root / "source"
    return sorted(p.name for p in source.iterdir() if ASSIGNMENT_ID.match(p.name) and (p / f"{p.name}.ipynb").is_file())


def source_notebook(course_root: Path, assignment: str) -> Path:
    path = course_root / "source" / assignment / f"{assignment}.ipynb"
    if not path.is_file():
        known = ", ".join(assignments(course_root)) or "none"
        raise AutograderError(f"unknown assignment {assignment!r} (known: {known})")
    return path


def guess_assignment(notebook: Path, known: list[str]) -> str | None:
    """The assignment a learner's notebook belongs to: its folder name, else its file name."""
    for candidate in (notebook.parent.name, notebook.stem):
        if candidate in known:
            return candidate
    for name in known:  # e.g. "01_tensors (1).ipynb" or "01_tensors-copy.ipynb"
        if notebook.stem.startswith(name):
            return name
    return None
