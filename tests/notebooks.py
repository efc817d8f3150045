"""Read course notebooks and run their cells in-process (fast paths for mutant tests)."""

from __future__ import annotations

import functools
import runpy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from autograder.wire.schema import TestResult

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


def formative_cells(nb: nbformat.NotebookNode) -> list[Any]:
    """Read-only check cells ("predict first"): run in the learner's kernel only, worth no points."""
    from autograder.notebooks import is_formative

    return [c for c in nb.cells if is_formative(c) and "grade_id" in meta(c)]


def checked_cells(nb: nbformat.NotebookNode) -> list[Any]:
    """Every cell that checks a learner's answer, graded or formative, in notebook order."""
    wanted = {id(c) for c in grade_cells(nb) + formative_cells(nb)}
    return [c for c in nb.cells if id(c) in wanted]


def test_cells_ids(nb: nbformat.NotebookNode) -> list[str]:
    return [meta(c)["grade_id"] for c in grade_cells(nb)]


def test_cell_source(nb: nbformat.NotebookNode, grade_id: str) -> str:
    """The source of the graded or formative check cell ``grade_id``."""
    for cell in checked_cells(nb):
        if meta(cell).get("grade_id") == grade_id:
            return cell.source
    raise KeyError(f"no test or formative check cell {grade_id!r}")


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
    """A wrong answer a learner really writes; its test cell must fail with ``expect`` in the message.

    ``formative`` mutants (wrong predictions) name a formative check cell: checked in the kernel only,
    since the judge never runs those cells."""

    assignment: str
    grade_id: str
    name: str
    code: str
    expect: str
    formative: bool = False
    mistake: str = ""  # the catalogue id (course/mistakes.py) the judge must report for it, when given

    def __str__(self) -> str:
        return f"{self.assignment}:{self.grade_id}:{self.name}"


def mutants(assignment: str) -> list[Mutant]:
    """The mutants in ``tests/mutants/<assignment>.py`` (a list of dicts named MUTANTS)."""
    path = MUTANTS / f"{assignment}.py"
    if not path.is_file():
        return []
    return [Mutant(assignment=assignment, **m) for m in runpy.run_path(str(path))["MUTANTS"]]


def edited(code: str, *edits: tuple[str, str]) -> str:
    """A mutant's code: ``code`` (a solution's text) with each ``old`` replaced once by ``new``; each ``old``
    must be there, so that a changed solution text cannot leave a mutant silently equal to it."""
    for old, new in edits:
        assert old in code, f"not in the solution text: {old!r}"
        code = code.replace(old, new, 1)
    return code


# ---------------------------------------------------------------------------------------------------
# The same test cells through the judge (in this process, over the judge's own encoding)


def learner_cells_namespace(nb: nbformat.NotebookNode) -> dict[str, Any]:
    """Exec the cells a learner's process runs (everything but test cells, formative checks included) in one
    namespace."""
    import matplotlib.pyplot as plt

    namespace: dict[str, Any] = {"__name__": "__main__"}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and not (meta(cell).get("grade") and not meta(cell).get("solution")):
            exec(compile(cell.source, f"<cell {i}>", "exec"), namespace)
            plt.close("all")  # the notebooks' figures: nobody looks at them here
    return namespace


@functools.cache
def solution_namespace(assignment: str) -> dict[str, Any]:
    """The learner cells of ``assignment``'s solution notebook, run once per process (the capstone trains
    its model in them), for the tests of one notebook's work unit to share (tests/conftest.py). Copy it
    (``dict(...)``) before adding names; the objects in it are shared."""
    return learner_cells_namespace(read(source_path(assignment)))


def judge_plan(nb: nbformat.NotebookNode) -> dict[str, Any]:
    """The judge's plan (``autograder.notebooks.make_plan``) for every test of ``nb`` against a learner whose
    cells have already run: the submission handed to ``make_plan`` holds only the test cells, so the plan
    has no learner cells to run."""
    from autograder.notebooks import make_plan

    tests_only = nbformat.v4.new_notebook(cells=grade_cells(nb))
    return {"steps": make_plan(nb, tests_only).to_json()["steps"], "learner": []}


@dataclass(frozen=True)
class JudgeStage:
    """Where the judge stands just before one test: its namespace, and the plan that runs that test from
    there (the answer steps so far, then the test)."""

    namespace: dict[str, Any]
    plan: dict[str, Any]


def judge_stages(nb: nbformat.NotebookNode, learner_namespace: dict[str, Any]) -> dict[str, JudgeStage]:
    """grade_id -> the judge's stage before that test of ``nb``: the real ``run_plan`` runs the instructor's
    setup steps, a stretch at a time, against a learner whose names are ``learner_namespace``."""
    import matplotlib.pyplot as plt

    namespace: dict[str, Any] = {"__name__": "__main__"}
    answers: list[dict[str, Any]] = []  # every answer step before the current stretch
    stretch: list[dict[str, Any]] = []  # answer and setup steps since the last test
    stages = {}
    for step in judge_plan(nb)["steps"]:
        if step["kind"] != "test":
            stretch.append(step)
            continue
        run_judge({"steps": answers + stretch, "learner": []}, learner_namespace, namespace)
        plt.close("all")  # the instructor's figures: nobody looks at them here
        answers += [s for s in stretch if s["kind"] == "answer"]
        stretch = []
        stages[step["grade_id"]] = JudgeStage(dict(namespace), {"steps": [*answers, step], "learner": []})
    return stages


def run_judge(
    plan: dict[str, Any], learner_namespace: dict[str, Any], namespace: dict[str, Any] | None = None
) -> dict[str, TestResult]:
    """Run ``plan`` through the real judge (``autograder.child.judge.run_plan``) in this process, in the
    judge's ``namespace`` (fresh when None), against a learner ``Server`` over the judge's own encoding
    (``LoopbackChannel``) whose names are ``learner_namespace``: grade_id -> the judge's result per test."""
    from autograder.child.judge import Learner, LoopbackChannel, run_plan
    from autograder.child.learner import Server, exec_cell
    from course import remote

    learner = Learner(LoopbackChannel(Server(learner_namespace, exec_cell(learner_namespace))))
    try:
        return run_plan(plan, learner, namespace=namespace).tests
    finally:
        remote.IN_JUDGE = False  # the judge process keeps it set; this process goes on to run kernel tests


def solutions(source: Path) -> dict[str, str]:
    """grade_id -> the instructor's answer cell in ``source``, without its ``### BEGIN/END SOLUTION`` lines."""
    found = {}
    markers = ("### BEGIN SOLUTION", "### END SOLUTION")
    for cell in read(source).cells:
        if cell.cell_type == "code" and meta(cell).get("solution"):
            found[meta(cell)["grade_id"]] = "\n".join(
                ln for ln in cell.source.splitlines() if ln.strip() not in markers
            )
    return found


def solution_with(assignment: str, grade_id: str, *edits: tuple[str, str]) -> str:
    """A mutant's code: the instructor's answer cell ``grade_id`` of ``assignment`` with ``edits`` (:func:`edited`)."""
    return edited(solutions(source_path(assignment))[grade_id], *edits)


def solution_wrapped(assignment: str, grade_id: str, fn: str, wrapper: str) -> str:
    """A mutant's code: the instructor's answer cell ``grade_id`` with its ``fn`` renamed ``_{fn}_solution``, then
    ``wrapper``, which defines ``fn`` around it (a step run under ``torch.random.fork_rng()``, a setting around it)."""
    return solution_with(assignment, grade_id, (f"def {fn}(", f"def _{fn}_solution(")) + "\n\n" + wrapper.strip() + "\n"


def honest_submission(assignment: str) -> nbformat.NotebookNode:
    """The release notebook with the source's solutions pasted into its answer cells (what a learner
    who gets everything right hands in: no hidden tests, no solution markers)."""
    answers = solutions(source_path(assignment))
    nb = read(release_path(assignment))
    for cell in nb.cells:
        gid = meta(cell).get("grade_id")
        if meta(cell).get("solution") and gid in answers:
            cell.source = answers[gid]
    return nb


def mutant_submission(assignment: str, mutant: Mutant) -> nbformat.NotebookNode:
    """The honest submission with one answer cell replaced by ``mutant`` (the cell that defines its names)."""
    import ast

    def defined(source: str) -> set[str]:
        tree = ast.parse(source)
        names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        return names

    nb = honest_submission(assignment)
    wanted = defined(mutant.code)
    for cell in nb.cells:
        if meta(cell).get("solution") and defined(cell.source) & wanted:
            cell.source = mutant.code
            return nb
    raise KeyError(f"no answer cell defines {sorted(wanted)} in {assignment}")


def max_score(assignment: str) -> float:
    """The points of every graded cell of the assignment, as its source notebook gives them."""
    return float(sum(meta(c).get("points", 0) for c in grade_cells(read(source_path(assignment)))))
