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
name a later statement changes in place (``CONFIG["gpu"] = ...``) is never made again: the statements that change it
in place and ask the machine run again on it instead (``CONFIG["gpu"] = ...``, ``args.cuda = ...``,
``FLAGS.update(...)``, a ``setup()`` of the learner's that sets a global), where every call they make is a machine
query, a builtin or such a function of the learner's. Everything is put back after the played call (a container's
contents too).
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import copy
import dataclasses
import enum
import functools
import inspect
import io
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

# words in a statement that asks the machine what it has
_MACHINE_WORDS = (
    "cuda", "accelerator", "is_available", "device_count", "mem_get_info", "bf16", "get_device_", "backends",
    "memory_stats", "memory_allocated", "memory_reserved", "dlpack", "current_device",
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
    ast.Expr,  # print(amp := torch.cuda.is_available()), setup() (a function of the learner's that sets a global)
    ast.For,  # for name in ("cuda", "cpu"): ... BACKEND = name (only where its calls are plain: _plain_calls)
    ast.Match,  # match torch.cuda.is_available(): case True: AMP_DTYPE = torch.bfloat16
)
# other calls that only read the machine's size: a statement that makes numbers with them may run again
_PLAIN_QUERIES = frozenset(
    {
        "os.cpu_count",
        "multiprocessing.cpu_count",
        "torch.get_num_threads",
        "math.ceil",
        "math.floor",
        "copy.copy",
        "copy.deepcopy",
    }
)
# builtins a statement may call and still run again (where it is not an assignment of flags: _plain_calls)
_PLAIN_BUILTINS = frozenset(
    {"print", "setattr", "bool", "int", "float", "str", "len", "getattr", "hasattr", "isinstance", "min", "max", "any", "all",
     "dict", "list", "set", "tuple", "sorted", "range", "enumerate", "zip", "repr", "format", "round", "abs",
     "vars", "globals"}
)  # fmt: skip


@dataclass
class _Statement:
    """One top-level statement of a cell: what it binds, the global names it reads (in nested functions too), and
    whether its source names a machine query."""

    node: ast.stmt
    binds: frozenset[str]
    reads: frozenset[str]
    asks: bool
    order: int
    changes: frozenset[str] = frozenset()  # global names it changes in place (CONFIG["gpu"] = ..., args.cuda = ...)
    plain: bool = False  # every call it makes is a machine query, a builtin or a plain function of the learner's
    code: types.CodeType | None = field(default=None, repr=False)

    def compiled(self, tolerant: bool = False) -> types.CodeType:
        """The statement as the played machine runs it: without the calls that set a process-wide default a played
        GPU cannot take (``torch.set_default_device("cuda")``, ``torch.cuda.set_device(0)``); ``tolerant``: each
        statement inside its blocks on its own, one that raises skipped (a line only a real GPU can run)."""
        if tolerant:
            node = _Tolerant().visit(_WithoutDefaults().visit(copy.deepcopy(self.node)))
            return compile(ast.fix_missing_locations(ast.Module([node], type_ignores=[])), "<cell>", "exec")
        if self.code is None:
            node = _WithoutDefaults().visit(copy.deepcopy(self.node))
            self.code = compile(ast.fix_missing_locations(ast.Module([node], type_ignores=[])), "<cell>", "exec")
        return self.code


# calls that change a process-wide default a played GPU cannot take: left out where it runs a cell again
# (and torch.set_flush_denormal: a CPU setting a GPU machine's setup cell sets for its host, not a played GPU's)
_DEFAULT_SETTERS = frozenset(
    {"set_default_device", "set_default_tensor_type", "set_device", "init_process_group", "set_flush_denormal"}
)


class _WithoutDefaults(ast.NodeTransformer):
    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        call = node.value
        name = getattr(call.func, "attr", getattr(call.func, "id", "")) if isinstance(call, ast.Call) else ""
        return ast.Pass() if name in _DEFAULT_SETTERS else node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a function's body runs when it is called, as written

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]
    visit_ClassDef = visit_FunctionDef  # type: ignore[assignment]


class _Tolerant(ast.NodeTransformer):
    """Every statement inside a block on its own: ``try: statement`` / ``except Exception: pass``."""

    def _wrapped(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for statement in body:
            statement = self.visit(statement)
            handler = ast.ExceptHandler(type=ast.Name("Exception", ast.Load()), name=None, body=[ast.Pass()])
            out.append(ast.Try(body=[statement], handlers=[handler], orelse=[], finalbody=[]))
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return node
        for part in ("body", "orelse", "finalbody"):
            body = getattr(node, part, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                setattr(node, part, self._wrapped(body))
        return node


# id(namespace) -> (the namespace, {name: the statement that bound it last}), see note_cell
_NOTED: dict[int, tuple[dict[str, Any], dict[str, _Statement]]] = {}
_ORDER = [0]


def note_cell(source: str, namespace: dict[str, Any]) -> None:
    """Note the top-level statements of ``source`` (a cell about to run in ``namespace``) that bind names or change
    them in place; a later statement of another kind (a ``while`` loop, a ``del``) that binds a name forgets it."""
    tree = _parsed(source)
    if tree is None:
        return
    entry = _NOTED.get(id(namespace))
    if entry is None or entry[0] is not namespace:
        entry = _NOTED[id(namespace)] = (namespace, {})
    noted = entry[1]
    mutated = _MUTATED.get(id(namespace))
    if mutated is None or mutated[0] is not namespace:
        mutated = _MUTATED[id(namespace)] = (namespace, set(), [])
    for node in tree.body:
        own = _own_methods_called(node, noted)  # cfg.detect(): the class's code may ask the machine
        changes = _objects(_changed(node), namespace, noted) | frozenset(own)
        binds, asks = _bound(node), _asks(node) or any(own.values())
        plain = _plain_calls(node, noted, changes)
        for name in _called(node):  # setup(): what the learner's function sets through ``global`` or in place
            defined = noted.get(name)
            if defined is not None and isinstance(defined.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                binds |= _globals_set(defined.node)
                changes |= _objects(_changed_inside(defined.node), namespace, noted)
                asks = asks or defined.asks
        kept = isinstance(node, _KINDS) and (plain or not isinstance(node, (ast.For, ast.Expr)))
        mutated_now = _objects(_mutated(node), namespace, noted)
        for name in mutated_now | changes - (changes if kept else frozenset()):  # made again, it would lose this
            noted.pop(name, None)
            mutated[1].add(name)
        if not binds and not changes:
            continue
        if not kept:
            for name in binds:
                noted.pop(name, None)
            continue
        _ORDER[0] += 1
        statement = _Statement(node, binds, _reads(node), asks, _ORDER[0], changes, plain)
        for name in binds:
            earlier = noted.get(name)
            if earlier is not None and name in _loads(node) and all(earlier is not s for s in mutated[2]):
                mutated[2].append(earlier)  # ON_GPU = ON_GPU and ...: the earlier value is this one's input
            noted[name] = statement
        if changes:
            mutated[2].append(statement)


def _objects(names: frozenset[str], namespace: dict[str, Any], noted: dict[str, _Statement]) -> frozenset[str]:
    """``names`` without the modules among them (``torch`` of ``torch.backends.cudnn.benchmark = True``: a
    process-wide setting, which settings.KeptAround puts back, not a value of the notebook's to run again)."""
    return frozenset(
        n
        for n in names
        if not isinstance(namespace.get(n), types.ModuleType)
        and not (n in noted and isinstance(noted[n].node, (ast.Import, ast.ImportFrom)))
    )


_BODY_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")  # cell magics that run their body as Python


def _parsed(source: str) -> ast.Module | None:
    """A cell's source as Python: IPython's own syntax (``%matplotlib inline``, ``!nvidia-smi`` indented in a block,
    ``info = !nvidia-smi``) turned into the calls IPython runs, as the kernel does; a ``%%time`` cell's body."""
    lines = source.lstrip().splitlines()
    if lines and lines[0].split()[0] in _BODY_MAGICS:
        return _parsed("\n".join(lines[1:]))
    try:
        return ast.parse(source)
    except SyntaxError:
        pass
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        return ast.parse(TransformerManager().transform_cell(source))
    except Exception:  # noqa: BLE001 - no IPython here, or a cell that is not Python even so: its magic lines left out
        lines = source.splitlines()
        kept = [
            line[: len(line) - len(line.lstrip())] + "pass" if line.lstrip()[:1] in "%!" else line for line in lines
        ]
        try:
            return ast.parse("\n".join(kept[1:] if lines and lines[0].startswith("%%") else kept))
        except SyntaxError:
            return None


# id(namespace) -> (the namespace, the names a top-level statement changed in place, those statements in order, and
# the statements whose names a later one computed again from themselves)
_MUTATED: dict[int, tuple[dict[str, Any], set[str], list[_Statement]]] = {}


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
        for a in [*n.args, *(k.value for k in n.keywords)]  # GradScaler(device="cuda") too
        for c in ast.walk(a)
        if isinstance(c, ast.Constant)
    ]
    return any(isinstance(w, str) and any(m in w for m in _MACHINE_WORDS) for w in words)


# methods that read a container or a string and change nothing (CONFIG.items(), DEVICE.startswith("cuda"))
_READING_METHODS = frozenset(
    {"items", "keys", "values", "get", "copy", "count", "index", "startswith", "endswith", "split", "rsplit", "strip",
     "lower", "upper", "replace", "format", "join", "partition", "rpartition", "find", "isdigit", "__contains__",
     "__getitem__", "__eq__", "issubset", "issuperset", "union", "intersection", "difference",
     "_replace", "_asdict"}  # a NamedTuple's: CFG = CFG._replace(gpu=...) makes a new one
)  # fmt: skip


def _mutated(node: ast.stmt) -> frozenset[str]:
    """The global names a top-level statement may change in place: ``X[k] = v``, ``X.a = v``, ``X.update(...)``, a
    method call on ``X`` that is not a known read (``X.items()``)."""
    return _in_place(node, lambda method: method not in _READING_METHODS)


_CHANGING_METHODS = frozenset(
    {"update", "setdefault", "add", "append", "extend", "insert", "__setitem__", "__setattr__", "discard", "pop"}
)


def _changed(node: ast.stmt) -> frozenset[str]:
    """The global names a statement surely changes in place, to run it again on them: ``X[k] = v``, ``X.a = v``,
    ``X.update(...)`` (a method that changes a container), ``setattr(X, ...)``."""
    return _in_place(node, lambda method: method in _CHANGING_METHODS)


def _in_place(node: ast.stmt, changes: Callable[[str], bool]) -> frozenset[str]:
    """The roots a statement stores into (``X[k] = v``, ``X.a.b = v``, ``X["a"]["b"] = v``, ``vars(X)["a"] = v``,
    ``setattr(X, ...)``, ``object.__setattr__(X, ...)``, ``operator.setitem(X, ...)``) or calls a method of that
    ``changes`` says changes it (``X["a"].append(...)``, ``X.__dict__.update(...)``); ``os.environ`` as
    :data:`_ENVIRON`. Not inside the functions and classes it defines."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return frozenset()
    found = set()
    for n in ast.walk(node):
        target = n.value if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store) else None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and changes(n.func.attr):
            target = n.func.value
        if isinstance(n, ast.Call) and _dotted(n.func) in _STORE_CALLS and n.args:
            target = n.args[0]
        if target is not None and _dotted(target).startswith("os.environ"):  # os.environ["USE_GPU"] = "1"
            found.add(_ENVIRON)  # put back after
            continue
        root = _root(target)
        if root is not None:
            found.add(root)
    return frozenset(found)


_STORE_CALLS = frozenset(
    {"setattr", "object.__setattr__", "operator.setitem", "operator.setattr", "dict.__setitem__", "dict.update",
     "dict.setdefault", "list.append", "list.extend", "list.insert", "set.add", "set.update"}
)  # fmt: skip


def _root(target: ast.expr | None) -> str | None:
    """The global name an item or attribute chain starts from (``X`` of ``X["a"].b``, of ``vars(X)["a"]`` and of
    ``X.__dict__``); None for anything else (a call's result, ``globals()``)."""
    while True:
        if isinstance(target, ast.Name):
            return target.id
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        elif (
            isinstance(target, ast.Call)
            and isinstance(target.func, ast.Name)
            and target.func.id == "vars"
            and target.args
        ):
            target = target.args[0]
        else:
            return None


def _own_methods_called(node: ast.stmt, noted: dict[str, _Statement]) -> dict[str, bool]:
    """The names a statement calls a method of where the name holds an instance of the notebook's own class
    (``cfg = Config()`` noted, then ``cfg.detect()``: the method may set anything on it), each with whether the
    class's code asks the machine."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {}
    found: dict[str, bool] = {}
    for n in ast.walk(node):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)):
            continue
        made = noted.get(n.func.value.id)
        value = getattr(made.node, "value", None) if made is not None else None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in noted:
            cls = noted[value.func.id]
            if isinstance(cls.node, ast.ClassDef) and n.func.attr not in _READING_METHODS:
                found[n.func.value.id] = cls.asks
    return found


_ENVIRON = "os.environ"  # not a global name: the process environment, which settings.KeptAround puts back


def _called(node: ast.stmt) -> set[str]:
    """The names a statement calls directly (``setup()``), outside the functions it defines."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return set()
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _globals_set(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The names a function declares ``global`` and assigns."""
    declared = {name for n in ast.walk(node) if isinstance(n, ast.Global) for name in n.names}
    stored = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return frozenset(declared & stored)


def _changed_inside(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The global names a function changes in place (``CONFIG["gpu"] = ...`` in its body): roots it does not bind."""
    local = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
    local |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local -= _globals_set(node)
    found: set[str] = set()
    for statement in node.body:
        found |= _changed(statement)
    return frozenset(found - local)


def _dotted(node: ast.AST) -> str:
    return ast.unparse(node) if isinstance(node, (ast.Attribute, ast.Name, ast.Call, ast.Subscript)) else ""


def _plain_calls(node: ast.stmt, noted: dict[str, _Statement], changes: frozenset[str] | None = None) -> bool:
    """Whether every call a statement makes (outside the functions it defines) is a machine query
    (``torch.cuda.is_available()``, ``getattr(torch, name).is_available()``), a builtin, a method of a name it
    changes in place (``FLAGS.update(...)``), a ``torch`` constructor of a device or dtype, or a function of the
    learner's whose own calls are plain: a statement cheap and safe to run again."""
    changes = _changed(node) if changes is None else changes
    todo: list[ast.AST] = [node]
    while todo:
        item = todo.pop()
        if item is not node and isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        todo.extend(ast.iter_child_nodes(item))
        if not isinstance(item, ast.Call):
            continue
        func = item.func
        if isinstance(func, ast.Name):
            defined = noted.get(func.id)
            if func.id in _PLAIN_BUILTINS or (defined is not None and defined.plain and defined.node is not node):
                continue
            return False
        text = _dotted(func)
        if any(m in text for m in _MACHINE_WORDS) or text in ("torch.device", "torch.dtype") or text in _PLAIN_QUERIES:
            continue
        if isinstance(func, ast.Attribute) and _root(func.value) in changes or text in _STORE_CALLS:
            continue
        if text == "globals().update":  # globals().update(ON_GPU=...): names it binds
            continue
        return False
    return True


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
        if isinstance(item, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            # their own names, but an assignment expression in one binds the global: [ON := ... for _ in x]
            found |= {n.target.id for n in ast.walk(item) if isinstance(n, ast.NamedExpr)}
            continue
        if isinstance(item, ast.Lambda):
            continue
        if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store):
            found.add(item.id)
        if (  # globals()["ON_GPU"] = ...
            isinstance(item, ast.Subscript)
            and isinstance(item.ctx, ast.Store)
            and isinstance(item.value, ast.Call)
            and isinstance(item.value.func, ast.Name)
            and item.value.func.id == "globals"
            and isinstance(item.slice, ast.Constant)
            and isinstance(item.slice.value, str)
        ):
            found.add(item.slice.value)
        if (  # globals().update(ON_GPU=..., ...) or globals().update({"ON_GPU": ...})
            isinstance(item, ast.Call) and _dotted(item.func) == "globals().update"
        ):
            found |= {k.arg for k in item.keywords if k.arg}
            for arg in item.args:
                if isinstance(arg, ast.Dict):
                    found |= {k.value for k in arg.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        todo.extend(ast.iter_child_nodes(item))
    return frozenset(found)


def _reads(node: ast.stmt) -> frozenset[str]:
    """Every name a statement reads or assigns through ``global``, in the functions it defines too."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    names |= {name for n in ast.walk(node) if isinstance(n, ast.Global) for name in n.names}
    return frozenset(names)


def noted(namespace: dict[str, Any]) -> list[str]:
    """The names a played machine binds or changes again for ``namespace`` (:func:`replayed`), in the order the cells
    did."""
    last = _NOTED[id(namespace)][1] if id(namespace) in _NOTED else {}
    return [name for s in _chosen(namespace) for name in sorted(_own(s, last) | s.changes)]


def placed_on_a_device(namespace: dict[str, Any], name: str) -> bool:
    """Whether the statement of a cell that last bound ``name`` in ``namespace`` puts what it makes on a device it
    names (``torch.zeros(1, device=DEVICE)``, ``torch.zeros(1).to(device)``, ``.cuda()``), not the constant "cpu":
    on a GPU machine that tensor is in device memory, though a played GPU leaves it as the cell made it."""
    statement = _NOTED[id(namespace)][1].get(name) if id(namespace) in _NOTED else None
    if statement is None:
        return False
    last = _NOTED[id(namespace)][1]

    def on_a_device(d: ast.expr) -> bool:
        if isinstance(d, ast.Constant):
            return not str(d.value).startswith("cpu")
        asked = {n for s in _chosen(namespace) for n in _own(s, last)}  # names computed from a machine query
        if any(isinstance(n, ast.Name) and n.id in asked for n in ast.walk(d)):
            return True  # DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu"): a GPU's on one
        value = namespace.get(d.id) if isinstance(d, ast.Name) else None
        return not (isinstance(value, (str, torch.device)) and str(value).startswith("cpu"))  # DEVICE = "cpu"

    for node in ast.walk(statement.node):
        if not isinstance(node, ast.Call):
            continue
        device = [k.value for k in node.keywords if k.arg == "device"]
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("to", "cuda"):
            device += node.args[:1] if node.func.attr == "to" else [ast.Constant("cuda")]
        if any(on_a_device(d) for d in device):
            return True
    return False


def _chosen(namespace: dict[str, Any]) -> list[_Statement]:
    """The noted statements a played machine runs again, in the order the cells ran them: those that ask the machine,
    then (repeatedly) the functions and the flags computed from what those bind or change (``HAVE_GPU =
    _has_gpu()``), then the plain state the chosen functions keep (:func:`_state`), and with a statement that made a
    name, every later one that changed it in place. Each binds only names it bound last, and each of those holds a
    :func:`replayable` value now, or binds names a block never bound here where its calls are plain; each changes in
    place only replayable values, with plain calls."""
    entry = _NOTED.get(id(namespace))
    if entry is None or entry[0] is not namespace:
        return []
    last = entry[1]
    kept = _MUTATED.get(id(namespace))
    mutated, inplace = (kept[1], kept[2]) if kept is not None and kept[0] is namespace else (set(), [])

    def fits(s: _Statement) -> bool:
        own = _own(s, last)  # a name a later statement bound again (not from itself) is put back after it
        if not own and not s.changes:
            return False
        for n in own:
            if n in namespace and not _runs_again(namespace[n], s):
                return False
            if n not in namespace and not (s.plain and s.asks):  # a block that never ran here, with plain calls
                return False
        return all(  # the environment is put back after the call whatever the statement's calls
            n == _ENVIRON
            or (s.plain and n in namespace and replayable(namespace[n]) and (n not in last or last[n].order < s.order))
            for n in s.changes
        )

    def changed_later(s: _Statement) -> list[_Statement]:
        return [i for i in inplace if i.order > s.order and i.changes & s.binds]

    candidates = {id(s): s for s in [*last.values(), *inplace]}
    eligible = {key: s for key, s in candidates.items() if fits(s) and all(fits(i) for i in changed_later(s))}
    chosen = {key: s for key, s in eligible.items() if s.asks}
    while True:  # computed from what the chosen ones bind or change; with a made name, what changed it after
        bound = {name for s in chosen.values() for name in _own(s, last) | s.changes}
        more = {
            key: s for key, s in eligible.items() if key not in chosen and s.reads & bound and _follows(s, namespace)
        }
        more |= {id(i): i for s in chosen.values() for i in changed_later(s) if id(i) not in chosen}
        if not more:
            break
        chosen |= more
    functions = [s for s in last.values() if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    reads = {n for s in chosen.values() if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in s.reads}
    while True:  # and what the functions they call read (a generic _once(key, make) helper's table)
        more_reads = {n for s in functions if s.binds & reads for n in s.reads} - reads
        if not more_reads:
            break
        reads |= more_reads
    state = {key: s for key, s in eligible.items() if _own(s, last) & reads and _state(s) and not s.binds & mutated}
    chosen |= state
    chosen |= {id(i): i for s in state.values() for i in changed_later(s)}
    return sorted(chosen.values(), key=lambda s: s.order)


def _own(statement: _Statement, last: dict[str, _Statement]) -> frozenset[str]:
    """The names ``statement`` bound last (a later statement that bound a name again owns it), or that a later
    statement computed again from themselves (``ON_GPU = ON_GPU and ...``: the later one reads this one's value)."""
    return frozenset(
        n for n in statement.binds if last.get(n) is statement or (n in last and n in _loads(last[n].node))
    )


@functools.lru_cache(maxsize=4096)
def _loads(node: ast.stmt) -> frozenset[str]:
    """The global names a top-level statement reads (not those it only assigns)."""
    return frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))


def _runs_again(value: Any, statement: _Statement) -> bool:
    """Whether ``statement``, which bound ``value``, may run again: a :func:`replayable` value, or a ``torch.device``
    (``device = torch.device("cuda" if ...)``): it runs again so that what is computed from it
    (``USE_AMP = device.type == "cuda"``) is the GPU machine's, and is put back before the call (:func:`replayed`):
    the course's tensors stay on the real device."""
    return replayable(value) or _devices(value)


def _devices(value: Any) -> bool:
    """A device, or a tuple, list, dict or settings object of devices and :func:`replayable` values
    (``CONFIG = {"device": ...}``, ``cfg.device``)."""
    values = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else None
    if values is None and not isinstance(value, (type, torch.device)) and _settings_object(value):
        values = _fields(value).values()
    if values is not None:
        return all(_devices(v) or replayable(v) for v in values) and any(_devices(v) for v in values)
    return isinstance(value, torch.device)


def _follows(statement: _Statement, namespace: dict[str, Any]) -> bool:
    """Whether a statement that reads a chosen name runs again too: a function (``def uses_flag():``), or one that
    binds flags or functions only (``HAVE_GPU = _has_gpu()``), or numbers computed without a call
    (``WORKERS = 2 if HAVE_GPU else 0``): never a result of work (``acc = evaluate(...)``)."""
    if isinstance(statement.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    if isinstance(statement.node, ast.ClassDef):
        return False
    if statement.changes:  # plain calls only (fits)
        return True
    calls = any(isinstance(n, ast.Call) for n in ast.walk(statement.node)) and not statement.plain
    values = [namespace[n] for n in statement.binds if n in namespace]
    return all(_flag(v) or _devices(v) or (not calls and _number(v)) for v in values)


def _number(value: Any) -> bool:
    """A number, or a tuple or dict of numbers and flags (``CFG = copy.deepcopy({"gpu": ..., "workers": 2})``)."""
    if isinstance(value, dict):
        return all(_number(v) or _flag(v) for v in value.values())
    return type(value) in (int, float) or (isinstance(value, tuple) and all(_number(v) or _flag(v) for v in value))


def _flag(value: Any, depth: int = 0) -> bool:
    """A flag, or a function a call handed back (``_gpu_ok = _probe()``: a closure over a query), a context or an
    enum member picked from one, or a small container of these (``AMP_KW = {"enabled": HAS_GPU, ...}``)."""
    if depth < 3 and isinstance(value, (tuple, list)):
        return all(_flag(v, depth + 1) for v in value)
    if depth < 3 and isinstance(value, dict):
        return all(_flag(v, depth + 1) for v in value.values())
    if isinstance(value, (types.FunctionType, functools.partial, *_CHEAP_OBJECTS, enum.Enum, range, np.generic)):
        return True
    if isinstance(value, torch.nn.Module) and replayable(value):  # a loss module picked from a flag
        return True
    if _settings_object(value) and replayable(value):  # cfg = Config(): a namespace of flags made from a query
        return True
    return value is None or type(value) in (bool, str) or isinstance(value, torch.dtype)


_EMPTY_MAKERS = frozenset({"dict", "list", "set", "OrderedDict", "defaultdict", "Counter", "SimpleNamespace"})


def _state(statement: _Statement) -> bool:
    """A plain assignment of a constant or an empty container (``_AMP = None``, ``_SEEN = {}``, ``_CACHE =
    OrderedDict()``), or a class that holds only such (``class Cfg: amp = None``): the state a memo starts from."""
    node = statement.node
    if isinstance(node, ast.ClassDef):
        body = [b for b in node.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
        return (
            not node.bases
            and not node.decorator_list
            and all(
                isinstance(b, (ast.Assign, ast.AnnAssign)) and b.value is not None and _empty(b.value) for b in body
            )
        )
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    return value is not None and _empty(value)


def _empty(value: ast.expr) -> bool:
    if isinstance(value, ast.Call):
        name = value.func.id if isinstance(value.func, ast.Name) else getattr(value.func, "attr", "")
        return name in _EMPTY_MAKERS and all(isinstance(a, ast.Name) for a in value.args) and not value.keywords
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
    if isinstance(value, _CHEAP_OBJECTS) or isinstance(value, enum.Enum):  # GradScaler("cuda"), a context, a member
        return True
    if isinstance(value, (range, np.generic)):  # range(torch.cuda.device_count()), np.bool_(...)
        return True
    if (
        isinstance(value, torch.nn.Module)
        and not any(True for _ in value.parameters())
        and not any(True for _ in value.buffers())
    ):  # a loss or an activation picked once (nn.MSELoss() if ... else WideMSE()): no state to lose
        return True
    if depth < 3 and isinstance(value, (tuple, list, set, frozenset)):
        return all(replayable(v, depth + 1) for v in value)
    if depth < 3 and isinstance(value, (dict, types.MappingProxyType)):
        return all(replayable(v, depth + 1) for v in value.values())
    if depth < 3 and isinstance(value, collections.ChainMap):  # layered settings: each layer a plain dict
        return all(replayable(m, depth + 1) for m in value.maps)
    if isinstance(value, types.MethodType) and isinstance(value.__func__, types.FunctionType):
        return replayable(value.__self__, depth)  # has_gpu = _Hw().has_gpu: a method of a settings object
    if depth < 3 and _settings_object(value):  # SimpleNamespace(amp=...), argparse's args, a dataclass of flags
        fields = _fields(value)  # a device among them (cfg.device) too: _as_played sets it for the call
        return bool(fields) and all(replayable(v, depth + 1) or isinstance(v, torch.device) for v in fields.values())
    return False


def _settings_object(value: Any) -> bool:
    """A namespace of settings: SimpleNamespace, argparse's, a dataclass instance or one of a class the notebook
    defined (``cfg = Config()``), whose fields are :func:`replayable`."""
    plain = type(value) in (types.SimpleNamespace, argparse.Namespace) or type(value).__module__ == "__main__"
    return plain or (dataclasses.is_dataclass(value) and not isinstance(value, type))


def _fields(value: Any) -> dict[str, Any]:
    """A settings object's fields: its ``__dict__``, a slotted dataclass's fields, or its ``__slots__``."""
    if hasattr(value, "__dict__"):
        return dict(vars(value))
    if dataclasses.is_dataclass(value):
        return {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
    slots: list[str] = []
    for cls in type(value).__mro__:
        declared = cls.__dict__.get("__slots__", ())
        slots += [declared] if isinstance(declared, str) else list(declared)
    return {n: getattr(value, n) for n in slots if hasattr(value, n)}


_MISSING = object()
# objects a statement makes cheaply from flags: GradScaler("cuda") (enabled only where the machine has a GPU), a
# context picked once (nanoGPT's ``ctx = nullcontext() if device_type == "cpu" else torch.autocast(...)``)
_CHEAP_OBJECTS = (torch.amp.GradScaler, contextlib.nullcontext, torch.autocast, torch.amp.autocast)


# id(namespace) -> the played machine's state of it, kept between played calls (a GPU machine runs every call in one
# process: a memo filled, a stream cached by one call is there at the next): (the namespace, the statements played,
# the values the cells made, the values the played calls left, what the played calls left elsewhere: (owner, what,
# value) for a function's default arguments and attributes, a container's contents)
_PLAYED: dict[  # (id(namespace), GPU played) -> (the namespace, the chosen statements' order, the values the cells
    tuple[int, int],  # made, ...
    tuple[dict[str, Any], tuple[int, ...], dict[str, Any], dict[str, Any], list[tuple[Any, str, Any]], Any],
] = {}  # ..., and the settings the first run left for the calls (settings.KeptAround) or None

_CONTENTS = "<contents>"  # what an undo entry puts back: a container's contents, not one of its names


def _get(owner: Any, what: str) -> Any:
    if what != _CONTENTS:
        return owner.get(what, _MISSING) if isinstance(owner, dict) else getattr(owner, what)
    if isinstance(owner, dict):
        return dict(owner)
    if isinstance(owner, (list, set)):
        return owner.copy()
    if isinstance(owner, type):
        return {k: v for k, v in vars(owner).items() if not k.startswith("__")}
    return _fields(owner)


def _set(owner: Any, what: str, value: Any) -> None:
    if what != _CONTENTS:
        if isinstance(owner, dict):
            _put(owner, what, value)
        else:
            setattr(owner, what, value)
    elif isinstance(owner, (dict, set)):
        owner.clear()
        owner.update(value)
    elif isinstance(owner, list):
        owner[:] = value
    elif isinstance(owner, type):
        for k in [k for k in vars(owner) if not k.startswith("__") and k not in value]:
            delattr(owner, k)
        for k, v in value.items():
            setattr(owner, k, v)
    elif hasattr(owner, "__dict__"):
        vars(owner).clear()
        vars(owner).update(value)
    else:  # a slotted dataclass
        for k, v in value.items():
            setattr(owner, k, v)


_SWAPPED: list[dict[int, Any]] = []  # per played block: id(what the cells bound) -> what the played machine binds


def _learners_callable(value: Any, namespace: dict[str, Any]) -> bool:
    """A function of the notebook's (or a partial of one), a class it defined (``class LeNet: ON_GPU = ...``), or an
    instance of one that is called (``to_device_async = AsyncMover()``)."""
    value = getattr(value, "func", value)
    if isinstance(value, types.FunctionType):
        return value.__globals__ is namespace
    cls = value if isinstance(value, type) else type(value)
    if not isinstance(value, type) and inspect.getattr_static(cls, "__call__", None) is None:
        return False
    return any(
        getattr(getattr(m, "__func__", m), "__globals__", None) is namespace
        for klass in cls.__mro__[:-1]
        for m in vars(klass).values()
    )


def played_version(fn: Any) -> Any:
    """``fn``, or where the played machine binds its name to another function (``step = _amp if is_available() else
    _fp32``, a ``def`` in an ``if`` block), that one: a check that holds the cell's function calls the GPU's."""
    for swapped in reversed(_SWAPPED):
        if id(fn) in swapped:
            return swapped[id(fn)]
    return fn


@contextlib.contextmanager
def replayed(
    namespace: dict[str, Any],
    around: Callable[[], contextlib.AbstractContextManager],
    gpu: torch.device | None = None,
) -> Iterator[None]:
    """Inside the block, the noted statements of ``namespace`` that ask the machine (and those computed from them,
    and the state their functions keep) have run again, each inside ``around()``, in the order the cells ran them;
    a function defined again keeps its object where it was a plain function (its default arguments and attributes
    are the new ones), so that a check holding it meets them. The first played call runs them; the next find what
    the last one left (a memo, a cached stream), as long as the cells bound nothing new since. Everything is put
    back after (a container changed in place too). A ``torch.device`` the played machine names a GPU is ``gpu`` in
    the call (the device a played GPU's tensors read as on: ``DEVICE.type == "cuda"`` read at call time is True), or,
    without one, the cell's own again."""
    chosen = _chosen(namespace)
    last = _NOTED[id(namespace)][1] if chosen else {}
    from course.scenarios import _GPU_PROFILE  # the GPU played now: each machine computes the flags its own way

    played, key = (id(namespace), _GPU_PROFILE[0]), tuple(s.order for s in chosen)
    names = sorted({name for s in chosen for name in _own(s, last)})
    made = {name: namespace.get(name, _MISSING) for name in names}
    undo: list[tuple[Any, str, Any]] = []  # (owner, what, value): put back in reverse order
    kept_settings = first_settings = None  # the process-wide settings the replayed statements set (put back)
    kept = _PLAYED.get(played)  # each played GPU keeps its own state (a memo, a cached stream)
    try:
        if kept is not None and kept[0] is namespace and kept[1] == key and all(made[n] is kept[2][n] for n in names):
            for name in names:
                undo.append((namespace, name, made[name]))
                _put(namespace, name, kept[3][name])
            for owner, what, value in kept[4]:
                undo.append((owner, what, _get(owner, what)))
                _set(owner, what, value)
            if kept[5] is not None:  # the settings the first run left for the call (TF32, the environment)
                from course import settings

                with around():
                    kept_settings, first_settings = settings.KeptAround(), kept[5]
                    first_settings.again()
        else:
            from course import settings  # the process-wide settings a replayed block set (cudnn.benchmark = True)

            if chosen:  # reading them takes ~15 ms: only where a statement runs again
                with around():
                    kept_settings = settings.KeptAround()  # in force for the call, as the cells left them on a GPU
            for statement in chosen:
                _replay(namespace, statement, _own(statement, last), around, undo)
            for statement in _read_later(chosen, last):  # AMP_DTYPE computed from a flag a later cell asked again
                _replay(namespace, statement, _own(statement, last), around, undo)
            if kept_settings is not None:
                with around():
                    kept_settings.noted()
            for name in names:  # a device the played machine named: the played GPU, or back to the real one
                value = namespace.get(name)
                if _devices(value):
                    _put(namespace, name, _as_played(value, gpu, made[name]))
        _SWAPPED.append(  # to a function, class or callable object of the learner's (not a torch.compile wrapper)
            {
                id(made[n]): namespace[n]
                for n in names
                if callable(made[n])
                and namespace.get(n) is not made[n]
                and _learners_callable(namespace.get(n), namespace)
            }
        )
        try:
            yield
        finally:
            _SWAPPED.pop()
    finally:
        left = {name: namespace.get(name, _MISSING) for name in names}
        elsewhere = list({(id(o), w): (o, w) for o, w, _ in undo if o is not namespace}.values())
        extras = [(o, w, _get(o, w)) for o, w in elsewhere]
        for owner, what, value in reversed(undo):
            _set(owner, what, value)
        if kept_settings is not None:
            with around():
                kept_settings.put_back(first_settings)
        _PLAYED[played] = (namespace, key, made, left, extras, first_settings or kept_settings)


def _read_later(chosen: list[_Statement], last: dict[str, _Statement]) -> list[_Statement]:
    """The chosen statements that read a name a later chosen statement binds: run again after it."""
    found = []
    for i, statement in enumerate(chosen):
        later = {n for s in chosen[i + 1 :] for n in _own(s, last) | s.changes}
        # the names it reads, not those it only stores (HAS_GPU = False before HAS_GPU = HAS_GPU or ...: run again
        # after the query, the default would win)
        if _loads(statement.node) & later and not isinstance(statement.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(statement)
    return found


def _replay(
    namespace: dict[str, Any],
    statement: _Statement,
    own: frozenset[str],
    around: Callable[[], contextlib.AbstractContextManager],
    undo: list[tuple[Any, str, Any]],
) -> None:
    before = {name: namespace.get(name, _MISSING) for name in statement.binds}
    changed = [namespace[n] for n in sorted(statement.changes) if n in namespace]
    contents = [(owner, _CONTENTS, _get(owner, _CONTENTS)) for owner in changed]
    try:
        with around(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                exec(statement.compiled(), namespace)  # noqa: S102 - the learner's own statement, in its own process
            except Exception:  # noqa: BLE001 - a line only a real GPU runs (torch.cuda.get_device_name(0)): the rest
                if not isinstance(statement.node, (ast.If, ast.Try, ast.With, ast.For, ast.Match)):
                    raise
                for name, value in before.items():
                    _put(namespace, name, value)
                for owner, what, value in contents:
                    _set(owner, what, value)
                exec(statement.compiled(tolerant=True), namespace)  # noqa: S102
        made = [namespace.get(n, _MISSING) for n, old in before.items() if old is _MISSING]
        if not all(v is _MISSING or _runs_again(v, statement) for v in made):
            raise ValueError("a block that never ran here made something that is not a flag")
    except Exception:  # noqa: BLE001 - a statement only the real machine can run stays as the cell left it
        for name, value in before.items():
            _put(namespace, name, value)
        for owner, what, value in contents:
            _set(owner, what, value)
        return
    undo += contents
    for name, old in before.items():
        new = namespace.get(name, _MISSING)
        if new is old:
            continue
        if name not in own:  # a later statement bound it again: as that one left it
            _put(namespace, name, old)
            continue
        defined = isinstance(statement.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.node.name == name
        if (
            defined
            and isinstance(old, types.FunctionType)
            and isinstance(new, types.FunctionType)
            and not old.__closure__
        ):
            _put(namespace, name, old)  # the same object, which a check may hold: its new default arguments
            for what in ("__defaults__", "__kwdefaults__", "__dict__"):  # and a fresh memo kept on it (f.amp = ...)
                undo.append((old, what, getattr(old, what)))
                setattr(old, what, getattr(new, what))
            continue
        undo.append((namespace, name, old))


def _as_played(value: Any, gpu: torch.device | None, made: Any) -> Any:
    """``value`` (a device, or a container with devices: :func:`_devices`) with each GPU device as ``gpu``, or
    without one, each device as the cell ``made`` it."""
    if isinstance(value, dict):  # a dict subclass (an AttrDict, a defaultdict) stays one
        out = copy.copy(value)
        for k, v in value.items():
            out[k] = _as_played(v, gpu, made.get(k) if isinstance(made, dict) else None)
        return out
    if isinstance(value, (tuple, list)):
        old = made if isinstance(made, (tuple, list)) and len(made) == len(value) else [None] * len(value)
        items = [_as_played(v, gpu, m) for v, m in zip(value, old, strict=True)]
        return type(value)._make(items) if hasattr(type(value), "_make") else type(value)(items)  # a namedtuple
    if not isinstance(value, (type, torch.device)) and _settings_object(value):  # the played machine's own object
        before = _fields(made) if _settings_object(made) and not isinstance(made, type) else {}
        for k, v in _fields(value).items():
            if isinstance(v, torch.device):  # object.__setattr__: a frozen dataclass too
                object.__setattr__(value, k, _as_played(v, gpu, before.get(k)))
        return value
    if not isinstance(value, torch.device):
        return value
    if gpu is not None:
        return gpu if value.type == "cuda" else value
    return made if isinstance(made, torch.device) else value


def _put(namespace: dict[str, Any], name: str, value: Any) -> None:
    if value is _MISSING:
        namespace.pop(name, None)
    else:
        namespace[name] = value
