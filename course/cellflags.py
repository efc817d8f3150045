"""What a learner's cells computed from the machine they ran on, at the top level, and how a played GPU runs it again.

``USE_AMP = torch.cuda.is_available()`` is computed once, when the cell runs, on the machine that runs it: on a CPU
machine it is False, and a function that reads it never takes its GPU path where the checks play a GPU. The same
holds for every other spelling of "asked once": a flag set in an ``if`` or ``try`` block, a tuple of flags, a flag
computed by a helper function of the learner's, a memo (``@functools.cache`` on a query, a ``_AMP = None`` the first
call fills in), a query held in a dict, a class attribute or a closure, a default argument computed from a query.

This module notes the top-level statements of each cell as it runs (the kernel's ``pre_run_cell`` hook, the grader's
learner process). A played GPU (:func:`course.scenarios.cell_flags_played`) then runs again those that ask the machine
(their source names a query), those computed from what they bind, and the state the functions among them keep (the
``_AMP = None`` a memo fills in), so that the learner's functions find, by their global names, what a GPU machine
would have made. A statement runs again only where everything it binds holds a value that is cheap and safe to make
again (:func:`replayable`: flags, strings, dtypes, functions, classes, containers of them); a model or a tensor stays
as the cell made it. A ``torch.device`` runs again only for what is computed from it (``USE_AMP = device.type ==
"cuda"``) and is the cell's own again in the call, since the course's tensors are on the machine's real device. A
name a later statement changes in place (``CONFIG["gpu"] = ...``) is never made again. Everything is put back after
the played call.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

# words in a statement that asks the machine what it has
_MACHINE_WORDS = (
    "cuda", "accelerator", "is_available", "device_count", "mem_get_info", "bf16", "get_device_", "backends",
    "memory_stats", "memory_allocated", "memory_reserved", "dlpack",
)  # fmt: skip
_KINDS = (
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.If,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Import,  # from torch.cuda import is_available as have_gpu: imported again, the played machine's
    ast.ImportFrom,
    ast.With,  # with warnings.catch_warnings(): _SCALER = torch.amp.GradScaler("cuda")
)


@dataclass
class _Statement:
    """One top-level statement of a cell: what it binds, the global names it reads (in nested functions too), and
    whether its source names a machine query."""

    node: ast.stmt
    binds: frozenset[str]
    reads: frozenset[str]
    asks: bool
    order: int
    code: types.CodeType | None = field(default=None, repr=False)

    def compiled(self) -> types.CodeType:
        if self.code is None:
            self.code = compile(ast.Module([self.node], type_ignores=[]), "<cell>", "exec")
        return self.code


# id(namespace) -> (the namespace, {name: the statement that bound it last}), see note_cell
_NOTED: dict[int, tuple[dict[str, Any], dict[str, _Statement]]] = {}
_ORDER = [0]


def note_cell(source: str, namespace: dict[str, Any]) -> None:
    """Note the top-level statements of ``source`` (a cell about to run in ``namespace``) that bind names; a later
    statement of another kind (a loop, an import, a ``with``) that binds a name forgets it."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython's own syntax (%matplotlib inline, !nvidia-smi, %%time): its lines left out
        lines = source.splitlines()
        kept = ["pass" if line.lstrip().startswith(("%", "!")) else line for line in lines]
        try:
            tree = ast.parse("\n".join(kept[1:] if lines and lines[0].startswith("%%") else kept))
        except SyntaxError:
            return
    entry = _NOTED.get(id(namespace))
    if entry is None or entry[0] is not namespace:
        entry = _NOTED[id(namespace)] = (namespace, {})
    noted = entry[1]
    for node in tree.body:
        for name in _mutated(node):  # CONFIG["gpu"] = ..., CONFIG.update(...): made again, it would lose this
            noted.pop(name, None)
            mutated = _MUTATED.get(id(namespace))
            if mutated is None or mutated[0] is not namespace:
                mutated = _MUTATED[id(namespace)] = (namespace, set())
            mutated[1].add(name)
        binds = _bound(node)
        if not binds:
            continue
        if not isinstance(node, _KINDS):
            for name in binds:
                noted.pop(name, None)
            continue
        _ORDER[0] += 1
        statement = _Statement(node, binds, _reads(node), _asks(node), _ORDER[0])
        for name in binds:
            noted[name] = statement


# id(namespace) -> (the namespace, the names a top-level statement changed in place)
_MUTATED: dict[int, tuple[dict[str, Any], set[str]]] = {}


def _asks(node: ast.stmt) -> bool:
    """Whether a statement names a machine query: in its code (names, attributes, imported names), not in its
    strings (a docstring that mentions CUDA asks nothing)."""
    words = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    words += [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)]
    words += [a.name for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names]
    words += [n.module or "" for n in ast.walk(node) if isinstance(n, ast.ImportFrom)]
    words += [  # torch.device("cuda" if ... else "cpu"), x.to("cuda"): a string handed to a call
        c.value
        for n in ast.walk(node)
        if isinstance(n, ast.Call)
        for a in n.args
        for c in ast.walk(a)
        if isinstance(c, ast.Constant)
    ]
    return any(isinstance(w, str) and any(m in w for m in _MACHINE_WORDS) for w in words)


def _mutated(node: ast.stmt) -> set[str]:
    """The global names a top-level statement changes in place: ``X[k] = v``, ``X.a = v``, ``X.update(...)``."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return set()
    found = set()
    for n in ast.walk(node):
        target = n.value if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store) else None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            target = n.func.value
        if isinstance(target, ast.Name):
            found.add(target.id)
    return found


def _bound(node: ast.stmt) -> frozenset[str]:
    """The global names a top-level statement binds (not those of the functions and classes it defines inside)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return frozenset({node.name})
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return frozenset((a.asname or a.name).split(".")[0] for a in node.names)
    found: set[str] = set()
    todo: list[ast.AST] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(item.name)
            continue  # its body binds its own names
        if isinstance(item, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            continue
        if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store):
            found.add(item.id)
        todo.extend(ast.iter_child_nodes(item))
    return frozenset(found)


def _reads(node: ast.stmt) -> frozenset[str]:
    """Every name a statement reads or assigns through ``global``, in the functions it defines too."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    names |= {name for n in ast.walk(node) if isinstance(n, ast.Global) for name in n.names}
    return frozenset(names)


def noted(namespace: dict[str, Any]) -> list[str]:
    """The names a played machine binds again for ``namespace`` (:func:`replayed`), in the order the cells bound them."""
    return [name for s in _chosen(namespace) for name in sorted(s.binds)]


def _chosen(namespace: dict[str, Any]) -> list[_Statement]:
    """The noted statements a played machine runs again, in the order the cells ran them: those that ask the machine,
    then (repeatedly) the functions and the flags computed from what those bind (``HAVE_GPU = _has_gpu()``), then the
    plain state the chosen functions keep (:func:`_state`). Each binds only names it bound last, and each of those
    holds a :func:`replayable` value now (a block that never ran binds nothing here: it is not run)."""
    entry = _NOTED.get(id(namespace))
    if entry is None or entry[0] is not namespace:
        return []
    last = entry[1]
    eligible = {
        id(s): s
        for s in last.values()
        if all(last.get(n) is s and n in namespace and _runs_again(namespace[n], s) for n in s.binds)
    }
    chosen = {key: s for key, s in eligible.items() if s.asks}
    while True:  # computed from what the chosen ones bind
        bound = {name for s in chosen.values() for name in s.binds}
        more = {
            key: s for key, s in eligible.items() if key not in chosen and s.reads & bound and _follows(s, namespace)
        }
        if not more:
            break
        chosen |= more
    reads = {n for s in chosen.values() if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in s.reads}
    kept = _MUTATED.get(id(namespace))
    mutated = kept[1] if kept is not None and kept[0] is namespace else set()
    chosen |= {key: s for key, s in eligible.items() if s.binds & reads and _state(s) and not s.binds & mutated}
    return sorted(chosen.values(), key=lambda s: s.order)


def _runs_again(value: Any, statement: _Statement) -> bool:
    """Whether ``statement``, which bound ``value``, may run again: a :func:`replayable` value, or a ``torch.device``
    (``device = torch.device("cuda" if ...)``): it runs again so that what is computed from it
    (``USE_AMP = device.type == "cuda"``) is the GPU machine's, and is put back before the call (:func:`replayed`):
    the course's tensors stay on the real device."""
    return replayable(value) or _devices(value)


def _devices(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_devices(v) or replayable(v) for v in value) and any(_devices(v) for v in value)
    return isinstance(value, torch.device)


def _follows(statement: _Statement, namespace: dict[str, Any]) -> bool:
    """Whether a statement that reads a chosen name runs again too: a function (``def uses_flag():``), or one that
    binds flags or functions only (``HAVE_GPU = _has_gpu()``), or numbers computed without a call
    (``WORKERS = 2 if HAVE_GPU else 0``): never a result of work (``acc = evaluate(...)``)."""
    if isinstance(statement.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    if isinstance(statement.node, ast.ClassDef):
        return False
    calls = any(isinstance(n, ast.Call) for n in ast.walk(statement.node))
    values = [namespace[n] for n in statement.binds]
    return all(_flag(v) or _devices(v) or (not calls and _number(v)) for v in values)


def _number(value: Any) -> bool:
    return type(value) in (int, float) or (isinstance(value, tuple) and all(_number(v) or _flag(v) for v in value))


def _flag(value: Any) -> bool:
    """A flag, or a function a call handed back (``_gpu_ok = _probe()``: a closure over a query)."""
    if isinstance(value, tuple):
        return all(_flag(v) for v in value)
    if isinstance(value, (types.FunctionType, functools.partial)):
        return True
    return value is None or type(value) in (bool, str) or isinstance(value, torch.dtype)


def _state(statement: _Statement) -> bool:
    """A plain assignment of a constant or an empty container (``_AMP = None``, ``_SEEN = {}``, ``_CACHE = dict()``):
    the state a memo starts from."""
    node = statement.node
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    if value is None:
        return False
    if isinstance(value, ast.Call):
        return isinstance(value.func, ast.Name) and value.func.id in ("dict", "list", "set") and not value.args
    try:
        ast.literal_eval(value)
    except ValueError:
        return False
    return True


def replayable(value: Any, depth: int = 0) -> bool:
    """Whether a statement that bound ``value`` may run again on a played machine: a flag (bool, number, None), a
    string, a dtype, a function or class of the learner's, a builtin or a ``functools.partial`` (a query held), or a
    tuple, list, set or dict of these. Not a ``torch.device`` (the course's tensors stay on the real device), a
    tensor, a module or anything that took work to make."""
    if value is None or type(value) in (bool, int, float, complex, str, bytes) or isinstance(value, torch.dtype):
        return True
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, functools.partial, type)):
        return True
    if callable(value) and hasattr(value, "__wrapped__"):  # functools.cache / lru_cache of a function
        return True
    if isinstance(value, torch.amp.GradScaler):  # GradScaler("cuda"): enabled only where the machine has a GPU
        return True
    if depth < 3 and isinstance(value, (tuple, list, set, frozenset)):
        return all(replayable(v, depth + 1) for v in value)
    if depth < 3 and isinstance(value, dict):
        return all(replayable(v, depth + 1) for v in value.values())
    return False


_MISSING = object()


# id(namespace) -> the played machine's state of it, kept between played calls (a GPU machine runs every call in one
# process: a memo filled, a stream cached by one call is there at the next): (the namespace, the statements played,
# the values the cells made, the values the played calls left, the default arguments the played calls left)
_PLAYED: dict[
    int, tuple[dict[str, Any], tuple[int, ...], dict[str, Any], dict[str, Any], list[tuple[Any, Any, Any]]]
] = {}


_SWAPPED: list[dict[int, Any]] = []  # per played block: id(what the cells bound) -> what the played machine binds


def played_version(fn: Any) -> Any:
    """``fn``, or where the played machine binds its name to another function (``step = _amp if is_available() else
    _fp32``, a ``def`` in an ``if`` block), that one: a check that holds the cell's function calls the GPU's."""
    for swapped in reversed(_SWAPPED):
        if id(fn) in swapped:
            return swapped[id(fn)]
    return fn


@contextlib.contextmanager
def replayed(namespace: dict[str, Any], around: Callable[[], contextlib.AbstractContextManager]) -> Iterator[None]:
    """Inside the block, the noted statements of ``namespace`` that ask the machine (and those computed from them,
    and the state their functions keep) have run again, each inside ``around()``, in the order the cells ran them;
    a function defined again keeps its object where it was a plain function (its default arguments are the new
    ones), so that a check holding it meets them. The first played call runs them; the next find what the last one
    left (a memo, a cached stream), as long as the cells bound nothing new since. Everything is put back after."""
    chosen = _chosen(namespace)
    key = tuple(s.order for s in chosen)
    names = sorted({name for s in chosen for name in s.binds})
    made = {name: namespace.get(name, _MISSING) for name in names}
    undo: list[tuple[Any, str, Any]] = []
    kept = _PLAYED.get(id(namespace))
    try:
        if kept is not None and kept[0] is namespace and kept[1] == key and all(made[n] is kept[2][n] for n in names):
            for name in names:
                undo.append((namespace, name, made[name]))
                _put(namespace, name, kept[3][name])
            for function, defaults, kwdefaults in kept[4]:
                undo += [(function, "__defaults__", function.__defaults__)]
                undo += [(function, "__kwdefaults__", function.__kwdefaults__)]
                function.__defaults__, function.__kwdefaults__ = defaults, kwdefaults
        else:
            for statement in chosen:
                _replay(namespace, statement, around, undo)
            for name in names:  # a device the played machine named: back to the real one for the call itself
                if _devices(namespace.get(name)):
                    _put(namespace, name, made[name])
        _SWAPPED.append(
            {
                id(made[n]): namespace[n]
                for n in names
                if callable(made[n]) and n in namespace and namespace[n] is not made[n] and callable(namespace[n])
            }
        )
        try:
            yield
        finally:
            _SWAPPED.pop()
    finally:
        left = {name: namespace.get(name, _MISSING) for name in names}
        functions = list({id(owner): owner for owner, _, _ in undo if not isinstance(owner, dict)}.values())
        defaults = [(f, f.__defaults__, f.__kwdefaults__) for f in functions]
        for owner, name, value in reversed(undo):
            if isinstance(owner, dict):
                _put(owner, name, value)
            else:
                setattr(owner, name, value)
        _PLAYED[id(namespace)] = (namespace, key, made, left, defaults)


def _replay(
    namespace: dict[str, Any],
    statement: _Statement,
    around: Callable[[], contextlib.AbstractContextManager],
    undo: list[tuple[Any, str, Any]],
) -> None:
    before = {name: namespace.get(name, _MISSING) for name in statement.binds}
    try:
        with around(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            exec(statement.compiled(), namespace)  # noqa: S102 - the learner's own statement, in its own process
    except Exception:  # noqa: BLE001 - a statement only the real machine can run stays as the cell left it
        for name, value in before.items():
            _put(namespace, name, value)
        return
    for name, old in before.items():
        new = namespace.get(name, _MISSING)
        if new is old:
            continue
        defined = isinstance(statement.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.node.name == name
        if (
            defined
            and isinstance(old, types.FunctionType)
            and isinstance(new, types.FunctionType)
            and not old.__closure__
        ):
            _put(namespace, name, old)  # the same object, which a check may hold: its new default arguments
            undo += [(old, "__defaults__", old.__defaults__), (old, "__kwdefaults__", old.__kwdefaults__)]
            old.__defaults__, old.__kwdefaults__ = new.__defaults__, new.__kwdefaults__
            continue
        undo.append((namespace, name, old))


def _put(namespace: dict[str, Any], name: str, value: Any) -> None:
    if value is _MISSING:
        namespace.pop(name, None)
    else:
        namespace[name] = value
