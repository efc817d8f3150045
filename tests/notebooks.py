"""Read course notebooks and run their cells in-process (fast paths for mutant tests)."""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "source"
RELEASE = ROOT / "release"
MUTANTS = ROOT / "tests" / "mutants"


def assignments() -> list[str]:
    """Assignment ids that have a source notebook, in course order."""
    return sorted(p.name for p in SOURCE.iterdir() if (p / f"{p.name}.ipynb").is_file())


def source_path(assignment: str) -> Path:
    return SOURCE / assignment / f"{assignment}.ipynb"


def release_path(assignment: str) -> Path:
    return RELEASE / assignment / f"{assignment}.ipynb"


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def meta(cell: Any) -> dict[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {})


def grade_cells(nb: nbformat.NotebookNode) -> list[Any]:
    """Autograded test cells: code cells with ``grade: true`` and no solution."""
    return [c for c in nb.cells if c.cell_type == "code" and meta(c).get("grade") and not meta(c).get("solution")]


def test_cell_source(nb: nbformat.NotebookNode, grade_id: str) -> str:
    for cell in grade_cells(nb):
        if meta(cell).get("grade_id") == grade_id:
            return cell.source
    raise KeyError(f"no graded test cell {grade_id!r}")


def run_cells(nb: nbformat.NotebookNode, *, upto: str | None = None) -> dict[str, Any]:
    """Exec every code cell (solutions included) in one namespace; stop before grade_id ``upto``."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if upto is not None and meta(cell).get("grade_id") == upto:
            break
        exec(compile(cell.source, f"<cell {i}>", "exec"), namespace)
    return namespace


@dataclass(frozen=True)
class Mutant:
    """A wrong answer a learner really writes; its test cell must fail with ``expect`` in the message."""

    assignment: str
    grade_id: str
    name: str
    code: str
    expect: str

    def __str__(self) -> str:
        return f"{self.assignment}:{self.grade_id}:{self.name}"


def mutants(assignment: str) -> list[Mutant]:
    """The mutants in ``tests/mutants/<assignment>.py`` (a list of dicts named MUTANTS)."""
    path = MUTANTS / f"{assignment}.py"
    if not path.is_file():
        return []
    return [Mutant(assignment=assignment, **m) for m in runpy.run_path(str(path))["MUTANTS"]]
