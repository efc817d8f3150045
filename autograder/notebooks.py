"""Reading notebooks and turning a (source, submission) pair into the plan the judge steps through.

Cells come in four kinds: **test** cells (nbgrader ``grade`` without ``solution``: run only in the judge,
in the instructor's version), **answer** cells (``solution``: run only in the learner's process, in the
learner's version; the names the instructor's version defines are what the judge binds), **formative**
cells (nbgrader read-only: ``locked`` without ``grade`` or ``solution``, e.g. a "predict first" check: run
only in the learner's process, never in the judge, worth no points; a failure there fails no test) and
**setup** cells (everything else: the learner's version runs in the learner's process, the instructor's in
the judge, when a later test needs what it defines).
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.errors import AutograderError

# nbformat imports jsonschema, which compiles rfc3987_syntax's grammars on import (1-2 s) for string formats
# nbformat's schema never checks: this process skips that optional import.
sys.modules.setdefault("rfc3987_syntax", None)

MAX_NOTEBOOK_BYTES = 32 * 2**20  # the same cap as autograder.parent.submission's

EFFECT_CALLS = {
    "manual_seed",
    "seed",
    "set_default_dtype",
    "set_default_device",
    "set_num_threads",
    "use_deterministic_algorithms",
    "set_printoptions",
    "filterwarnings",
    "simplefilter",
    "set_grad_enabled",
    "set_flush_denormal",
}


def read_notebook(path: Path) -> Any:
    """Read and validate a notebook; every problem becomes one AutograderError line."""
    if not path.exists():
        raise AutograderError(f"notebook not found: {path}")
    if not path.is_file():
        raise AutograderError(f"not a notebook file: {path}")
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        raise AutograderError(f"{path} is over {MAX_NOTEBOOK_BYTES // 2**20} MB: not a course notebook")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise AutograderError(f"{path} is not UTF-8 text, so it is not a notebook") from None
    return parse_notebook(text, str(path))


def parse_notebook(text: str, name: str = "notebook") -> Any:
    import nbformat

    if not text.strip():
        raise AutograderError(f"{name} is empty")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AutograderError(f"{name} is not valid notebook JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(raw, dict) or not ("cells" in raw or "worksheets" in raw):  # nbformat 4 / 3
        raise AutograderError(f"{name} is JSON but not a notebook (no 'cells')")
    try:
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
    except Exception as exc:  # noqa: BLE001 - nbformat raises many kinds; one line says which
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise AutograderError(f"{name} is not a valid notebook: {first}") from None
    return nb


def meta(cell: Any) -> dict[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_test(cell: Any) -> bool:
    m = meta(cell)
    return cell.get("cell_type") == "code" and bool(m.get("grade")) and not m.get("solution") and "grade_id" in m


def is_answer(cell: Any) -> bool:
    return cell.get("cell_type") == "code" and bool(meta(cell).get("solution"))


def is_formative(cell: Any) -> bool:
    """A read-only check the learner runs for feedback only (a "predict first" question): never graded."""
    m = meta(cell)
    return cell.get("cell_type") == "code" and bool(m.get("locked")) and not m.get("grade") and not m.get("solution")


def test_cells(nb: Any) -> dict[str, Any]:
    """The autograded test cells of a notebook by grade_id, in notebook order."""
    return {meta(c)["grade_id"]: c for c in nb.cells if is_test(c)}


def points(nb: Any) -> dict[str, float]:
    return {gid: float(meta(c).get("points", 0) or 0) for gid, c in test_cells(nb).items()}


# ---------------------------------------------------------------------------------------------------
# What a cell defines and uses


@dataclass
class CellNames:
    defined: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)
    imports: bool = False
    effects: bool = False  # changes global state (seeds, defaults, warnings filters, module attributes)


def cell_names(source: str) -> CellNames:
    """Names a cell binds at top level and every name it reads anywhere (an over-approximation)."""
    names = CellNames()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        names.effects = True  # unknown: keep the cell
        return names
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.used.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.imports = True
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.effects = True
    for stmt in tree.body:
        _top_level(stmt, names)
    return names


def _top_level(stmt: ast.stmt, names: CellNames) -> None:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        names.defined.add(stmt.name)
        return
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            names.defined.add((alias.asname or alias.name).split(".")[0])
        return
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.defined.add(node.name)  # defined inside an if / try at top level: still a global
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.defined.add(node.id)
        elif isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            names.effects = True
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in EFFECT_CALLS and not _seeds_a_new_generator(func):
                names.effects = True
        stack.extend(ast.iter_child_nodes(node))


def _seeds_a_new_generator(func: ast.expr) -> bool:
    """``torch.Generator(...).manual_seed(...)``: seeds a generator made right there, not global state."""
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call)):
        return False
    made = func.value.func
    return (made.attr if isinstance(made, ast.Attribute) else getattr(made, "id", "")) == "Generator"


def answer_names(source: str) -> list[str]:
    """The names an instructor's solution cell defines (functions, classes, variables; not imports)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found: list[str] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.If, ast.Try)):
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    found.append(node.id)
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------------------------------------------
# The plan


@dataclass
class Plan:
    """The instructor's steps for the judge and the submission's cells for the learner, in step."""

    steps: list[dict[str, Any]]
    learner: list[dict[str, Any]]  # {"index": position among the submission's code cells, "source": ...}
    tests: list[str]  # grade_ids in the instructor's order
    missing: list[str]  # test cells the submission does not have (deleted, or their metadata changed)
    points: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        """What the judge needs: its steps and the submission's cells."""
        return {"steps": self.steps, "learner": self.learner}

    def to_dict(self) -> dict[str, Any]:
        return {**self.to_json(), "tests": self.tests, "missing": self.missing, "points": self.points}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        return cls(data["steps"], data["learner"], data["tests"], data["missing"], data["points"])


def make_plan(source: Any, submission: Any, *, slice_setup: bool = True) -> Plan:
    """Align the instructor's ``source`` notebook with a learner's ``submission`` (both nbformat 4)."""
    sub_code = [c for c in submission.cells if c.get("cell_type") == "code"]
    position: dict[str, int] = {}
    for i, cell in enumerate(sub_code):
        gid = meta(cell).get("grade_id")
        if gid is not None and gid not in position:
            position[gid] = i
    test_ids = list(test_cells(source))
    test_at = {gid: position[gid] for gid in test_ids if gid in position}
    learner = [{"index": i, "source": c.source} for i, c in enumerate(sub_code) if i not in set(test_at.values())]
    steps: list[dict[str, Any]] = []
    upto = 0
    for cell in source.cells:
        if cell.get("cell_type") != "code":
            continue
        if is_test(cell):
            gid = meta(cell)["grade_id"]
            if gid not in test_at:
                continue
            upto = max(upto, sum(1 for c in learner if c["index"] < test_at[gid]))
            steps.append({"kind": "test", "grade_id": gid, "source": cell.source, "upto": upto})
        elif is_answer(cell):
            steps.append({"kind": "answer", "names": answer_names(cell.source)})
        elif is_formative(cell):
            continue  # the learner's kernel checks it; no verdict, so the judge neither runs nor needs it
        else:
            steps.append({"kind": "setup", "source": cell.source})
    if slice_setup:
        steps = _needed(steps)
    _mark_learner_setups(steps, len(learner))
    return Plan(
        steps=steps,
        learner=learner,
        tests=test_ids,
        missing=[gid for gid in test_ids if gid not in test_at],
        points=points(source),
    )


def _mark_learner_setups(steps: list[dict[str, Any]], n_learner: int) -> None:
    """A setup cell that uses an answer name runs after the learner has reached the next test cell."""
    names: set[str] = set()
    next_upto = n_learner
    for step in reversed(steps):
        if step["kind"] == "test":
            next_upto = step["upto"]
        step["next_upto"] = next_upto
    for step in steps:
        if step["kind"] == "answer":
            names |= set(step["names"])
        elif step["kind"] == "setup":
            step["learner"] = bool(cell_names(step["source"]).used & names)
        step.pop("next_upto") if step["kind"] != "setup" else None


def _needed(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop the instructor's setup cells no later test depends on (demos, plots, printed examples)."""
    wanted: set[str] = set()
    keep: list[bool] = []
    for step in reversed(steps):
        if step["kind"] == "answer":
            keep.append(True)
            continue
        names = cell_names(step["source"])
        needed = step["kind"] == "test" or names.imports or names.effects or bool(names.defined & wanted)
        if needed:
            wanted |= names.used
        keep.append(needed)
    keep.reverse()
    return [s for s, k in zip(steps, keep) if k]
