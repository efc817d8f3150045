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
import functools
import json
import sys
from dataclasses import dataclass, field, replace
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
    return parse_notebook(notebook_text(path), str(path))


def notebook_text(path: Path) -> str:
    """A notebook file's text, unparsed (no nbformat: a warm ``check`` hands it to its server as is); a
    missing, oversized or non-UTF-8 file becomes one AutograderError line."""
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
    return text


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
    """What a cell binds and reads (see :func:`_cell_names`), as a copy of no one else's."""
    found = _cell_names(source)
    return replace(found, defined=set(found.defined), used=set(found.used))


@functools.lru_cache(maxsize=2048)
def _cell_names(source: str) -> CellNames:
    """Names a cell binds at top level and every name it reads anywhere (an over-approximation). Cached by
    source: every submission's plan asks about the same instructor cells."""
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


@functools.lru_cache(maxsize=2048)
def needed_names(source: str) -> frozenset[str]:
    """The names a cell may read from earlier cells: of those it reads, less the ones local to a function or
    a comprehension in it, and less a name whose first mention in the cell is a statement that binds it
    outright (``values = ...``, ``def fit``, ``import x``). Unreadable code: every name it reads."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset(cell_names(source).used)
    bound_first: set[str] = set()
    seen: set[str] = set()
    for stmt in tree.body:
        mentioned = _global_names(stmt)
        bound_first |= {name for name in mentioned - seen if _binds_outright(stmt, name)}
        seen |= mentioned
    return frozenset(_global_reads(tree, frozenset()) - bound_first)


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _global_reads(node: ast.AST, local: frozenset[str]) -> set[str]:
    """Names read at module scope, or inside functions and comprehensions where they are not local
    (a parameter, a name the function binds): what the code below ``node`` may read from earlier cells."""
    found: set[str] = set()
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Load) and node.id not in local else found
    if isinstance(node, FUNCTIONS):
        args = node.args
        outer = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
        if not isinstance(node, ast.Lambda):
            outer += [*node.decorator_list, *(a.annotation for a in _params(args) if a.annotation), node.returns]
        for part in outer:
            if part is not None:
                found |= _global_reads(part, local)
        body = [node.body] if isinstance(node, ast.Lambda) else node.body
        inner = local | _function_locals(args, body)
        for part in body:
            found |= _global_reads(part, inner)
        return found
    if isinstance(node, COMPREHENSIONS):
        first, *rest = node.generators
        found |= _global_reads(first.iter, local)  # evaluated in the enclosing scope
        inner = local | {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        parts = [first.target, *first.ifs, *rest]
        parts += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            found |= _global_reads(part, inner)
        return found
    for child in ast.iter_child_nodes(node):
        found |= _global_reads(child, local)
    return found


def _params(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]


def _function_locals(args: ast.arguments, body: list[Any]) -> frozenset[str]:
    """A function's local names: its parameters and every name its own body binds, less those it declares
    ``global`` (nested functions and classes bind only their own name here)."""
    bound = {a.arg for a in _params(args)}
    declared: set[str] = set()
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            stack.extend([*node.decorator_list, *getattr(node, "bases", [])])
            continue
        elif isinstance(node, (ast.Lambda, *COMPREHENSIONS)):
            continue  # their own scopes (a comprehension's walrus would bind here: kept as not local)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Global):
            declared.update(node.names)
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(bound - declared)


def _global_names(stmt: ast.stmt) -> set[str]:
    """The module-scope names a top-level statement reads, binds or declares."""
    names = CellNames()
    _top_level(stmt, names)
    declared = {n for node in ast.walk(stmt) if isinstance(node, (ast.Global, ast.Nonlocal)) for n in node.names}
    return _global_reads(stmt, frozenset()) | names.defined | declared


def _loads(*nodes: ast.AST | None) -> set[str]:
    return {n.id for node in nodes if node is not None for n in ast.walk(node) if isinstance(n, ast.Name)}


def _binds_outright(stmt: ast.stmt, name: str) -> bool:
    """Whether top-level ``stmt`` binds ``name`` whenever it completes, without reading it first."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return any(a.name != "*" and (a.asname or a.name).split(".")[0] == name for a in stmt.names)
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):  # the body runs only when called, after
        header = [*stmt.args.defaults, *stmt.args.kw_defaults, stmt.returns]
        return stmt.name == name and not stmt.decorator_list and name not in _loads(*header, stmt.args)
    if isinstance(stmt, ast.ClassDef):  # a class body runs at once: it must not mention the name
        return (
            stmt.name == name
            and not stmt.decorator_list
            and name not in _loads(*stmt.bases, *stmt.keywords, *stmt.body)
        )
    if isinstance(stmt, ast.Assign):
        plain = all(_plain_target(t) for t in stmt.targets)
        return plain and name in _loads(*stmt.targets) and name not in _loads(stmt.value)
    if isinstance(stmt, ast.AnnAssign):
        target = stmt.target
        return (
            isinstance(target, ast.Name)
            and target.id == name
            and stmt.value is not None
            and name not in _loads(stmt.value, stmt.annotation)
        )
    return False


def _plain_target(target: ast.expr) -> bool:
    """A name, or a tuple or list of plain targets (no attribute or item assignment)."""
    if isinstance(target, ast.Starred):
        return _plain_target(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_plain_target(t) for t in target.elts)
    return isinstance(target, ast.Name)


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


@dataclass(frozen=True)
class CheckTexts:
    """One notebook to check, as text: the learner's notebook and the instructor's source notebook it is
    checked against (None: the notebook's own visible tests). What a warm ``check`` sends its server."""

    name: str
    text: str
    source_name: str = ""
    source_text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "text": self.text, "source_name": self.source_name, "source_text": self.source_text}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckTexts:
        source_text = data["source_text"]
        if not all(isinstance(data[k], str) for k in ("name", "text", "source_name")) or not (
            source_text is None or isinstance(source_text, str)
        ):
            raise AutograderError("a check request's notebook texts are not text")
        return cls(data["name"], data["text"], data["source_name"], source_text)


def plan_for(texts: CheckTexts) -> Plan:
    """The plan for one notebook to check (see :func:`make_plan`); an unreadable notebook, or one without
    graded test cells, raises AutograderError."""
    nb = parse_notebook(texts.text, texts.name)
    source = nb if texts.source_text is None else _source_notebook(texts.source_text, texts.source_name)
    plan = make_plan(source, nb)
    if not plan.tests:
        raise AutograderError(f"{texts.name} has no graded test cells: is it a course notebook?")
    return plan


@functools.lru_cache(maxsize=16)
def _source_notebook(text: str, name: str) -> Any:
    """An instructor's source notebook, parsed and validated once per content (the cache is keyed by the
    text itself, never by a file's mtime): the warm server checks the same few sources again and again.
    Only read afterwards (make_plan copies what it keeps)."""
    return parse_notebook(text, name)


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
            wanted |= needed_names(step["source"])
        keep.append(needed)
    keep.reverse()
    return [s for s, k in zip(steps, keep) if k]
