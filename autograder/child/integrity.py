"""The grader's own code in the learner's process, as it was before any learner cell ran.

The observers a test runs beside the learner's objects (``course.scenarios``' sync counter, the played devices,
the spies) run in the learner's process, and so does the codec that sends their reports back. A learner cell
could rewrite them there (``course.scenarios.SyncCounter._record = lambda *a: None``, ``f.__code__ = ...``,
``SYNC_CALLS.clear()``) and every report would read clean. :class:`Baseline` records every name of the ``course``
and ``autograder`` modules loaded when the learner server starts, the code, defaults and attributes of their
functions and classes, and the contents of their module-level tables; :meth:`Baseline.tampered` names what
differs now and puts it back. The server checks before and after every call of a ``course`` scenario, so a
report is made by the grader's code as shipped. This raises the bar; it is no wall: code in this process can
also change what it would be checked against while a scenario runs, and put it back before the call returns.
"""

from __future__ import annotations

import builtins as _builtins
import gc
import operator
import os
import sys
import types
from itertools import repeat
from operator import is_ as _is
from typing import Any

import torch

from course.settings import GRADER_CODE

PREFIXES = ("course", "autograder")

# names Python or the libraries store on modules and classes themselves, and module-level state that changes
# between calls by design (caches, listeners that cannot be removed)
_OWN_NAMES = {
    "__builtins__",
    "__cached__",
    "__loader__",
    "__spec__",
    "__dict__",
    "__weakref__",
    "__slotnames__",
    "__abstractmethods__",
    "_abc_impl",
    "__parameters__",
    "__annotations__",
    "__annotate__",
    "__warningregistry__",
}
_CHANGING = {  # also the state a learner's own copy of a test line sets (checks.exercise, a check's last call)
    "course.hints._current",
    "course.fixtures.autograd._last_jacobian_wrote_grad",
    "course.fixtures.autograd._last_jacobian_accumulated",
    "course.remote._GRAD_FN_NAMES",
    "course.fixtures.autograd._PLACES",
    "course.fixtures.tensors._AUDIT_LISTENERS",
    "course.settings._LIBRARY_LOGGERS",
    "course.settings._OWNERS",
    "course.settings._NAMES_OF",
    "course.cellflags._NOTED",  # what the learner's cells computed from the machine, noted as they run
    "course.cellflags._ORDER",
    "course.cellflags._PLAYED",  # and the played machine's state of it, kept between played calls
    "course.cellflags._SWAPPED",
    "course.cellflags._MUTATED",
}
_MISSING = object()
_CONTENTS = operator.attrgetter("cell_contents")
_VARS, _SETATTR = vars, setattr  # as they were at import: the builtins are put back with them, before anything else


def _ours(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PREFIXES)


def _function_parts(f: types.FunctionType) -> tuple[Any, ...]:
    kwdefaults = f.__kwdefaults__
    return (f.__code__, f.__defaults__, None if kwdefaults is None else dict(kwdefaults))


def _set_function_parts(f: types.FunctionType, parts: tuple[Any, ...]) -> None:
    f.__code__, f.__defaults__ = parts[0], parts[1]
    f.__kwdefaults__ = None if parts[2] is None else dict(parts[2])


def _same_parts(f: types.FunctionType, parts: tuple[Any, ...]) -> bool:
    """``f`` still has the code, defaults (the same tuple: a new one is a change) and keyword defaults of ``parts``."""
    if f.__code__ is not parts[0] or f.__defaults__ is not parts[1]:
        return False
    now = f.__kwdefaults__
    if now is None or parts[2] is None:
        return now is None and parts[2] is None
    return now.keys() == parts[2].keys() and all(now[k] is parts[2][k] for k in now)


def _functions_in(value: Any) -> list[types.FunctionType]:
    """The plain functions a name holds: itself, or what a staticmethod / classmethod / property wraps."""
    if isinstance(value, types.FunctionType):
        return [value]
    if isinstance(value, (staticmethod, classmethod)) and isinstance(value.__func__, types.FunctionType):
        return [value.__func__]
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, types.FunctionType)]
    return []


_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep


def _wrapped_by_torch(now: Any, was: Any) -> bool:
    """Whether torch put a wrapper of its own around ``was`` (``Optimizer.__init__`` wraps a subclass's ``step`` in a
    profiling hook the first time one is made)."""
    code = getattr(now, "__code__", None)
    return getattr(now, "__wrapped__", None) is was and code is not None and code.co_filename.startswith(_TORCH_DIR)


def _contents(value: Any) -> Any:
    """A shallow copy of a module-level table, or None for anything else."""
    if type(value) in (dict, list, set):
        return type(value)(value)
    return None


def _same_contents(saved: Any, now: Any) -> bool:
    if isinstance(saved, dict):
        return saved.keys() == now.keys() and all(map(_is, saved.values(), map(now.__getitem__, saved)))
    if isinstance(saved, list):
        return len(saved) == len(now) and all(map(_is, saved, now))
    return saved == now


def _torch_machinery() -> list[tuple[str, Any]]:
    """What the observers stand on in torch itself: the mode stacks' Python side, module hooks, Tensor and
    optimizer methods."""
    from torch.utils._python_dispatch import TorchDispatchMode

    return [
        ("torch.overrides", torch.overrides),
        ("torch.overrides.TorchFunctionMode", torch.overrides.TorchFunctionMode),
        ("torch.utils._python_dispatch", sys.modules["torch.utils._python_dispatch"]),
        ("torch.utils._python_dispatch.TorchDispatchMode", TorchDispatchMode),
        ("torch.nn.Module", torch.nn.Module),
        ("torch.Tensor", torch.Tensor),
        ("torch.optim.Optimizer", torch.optim.Optimizer),
    ]


class Baseline:
    """What the grader's modules, the torch machinery they stand on and the builtins hold now (call before any
    learner code runs). Everything :meth:`tampered` compares is laid out here once (it runs before and after
    every scenario call, hundreds of times per notebook): per namespace its live mapping and the (name, value)
    pairs to compare, per function its parts."""

    def __init__(self) -> None:
        # (label, owner, its live mapping, the names it must still bind, their values, the names it may hold, whole)
        self.namespaces: list[tuple[str, Any, Any, tuple[str, ...], tuple[Any, ...], frozenset[str], bool]] = []
        self.functions: dict[int, tuple[str, types.FunctionType, tuple[Any, ...]]] = {}
        self.tables: list[tuple[str, Any, Any]] = []  # (label, the table, a copy of its contents)
        self.cells: list[tuple[str, Any, types.FunctionType]] = []  # (label, a closure cell, the function it held)
        # the builtins first: the rest of the check runs on them
        builtins = {k: v for k, v in vars(_builtins).items() if isinstance(v, (types.BuiltinFunctionType, type))}
        self._add_names("builtins", _builtins, builtins, whole=False)
        for name, module in sorted(sys.modules.items()):
            if module is None or not _ours(name) or not isinstance(module, types.ModuleType):
                continue
            self._add(name, module, whole=True)
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == name:
                    self._add(f"{name}.{value.__qualname__}", value, whole=True)
        for label, owner in _torch_machinery():  # torch binds submodules on its modules as it imports them lazily
            self._add(label, owner, whole=isinstance(owner, type))
        self._functions = tuple(f for _, f, _ in self.functions.values())
        self._cells = tuple(cell for _, cell, _ in self.cells)
        self._held = tuple(held for _, _, held in self.cells)
        self._note_functions()

    def _note_functions(self) -> None:
        """What the functions refer to now (code, defaults, keyword defaults among them) and their keyword
        defaults' contents, for :meth:`_functions_as_they_were`."""
        self._referents = gc.get_referents(*self._functions)
        kwdefaults = (f.__kwdefaults__ for f in self._functions)
        self._kwcontents = tuple((d, len(d), tuple(d), tuple(d.values())) for d in kwdefaults if d is not None)

    def _add(self, label: str, owner: Any, *, whole: bool) -> None:
        """``whole``: a name added or removed counts too, and module tables are compared (the grader's own)."""
        names = {k: v for k, v in vars(owner).items() if k not in _OWN_NAMES}
        self._add_names(label, owner, names, whole=whole)
        for key, value in names.items():
            for f in _functions_in(value):
                self._add_function(f"{label}.{key}", f)
            copied = _contents(value) if whole and isinstance(owner, types.ModuleType) else None
            if copied is not None and f"{label}.{key}" not in _CHANGING:
                self.tables.append((f"{label}.{key}", value, copied))

    def _add_function(self, label: str, f: types.FunctionType) -> None:
        """``f``, and the grader's functions it reaches without a name: what it wraps (``__wrapped__``: the generator
        function of a ``@contextmanager``) and what its closure holds (a decorator's function), with those cells."""
        if id(f) in self.functions:
            return
        self.functions[id(f)] = (label, f, _function_parts(f))
        inner = f.__dict__.get("__wrapped__")
        if isinstance(inner, types.FunctionType) and _ours(inner.__module__ or ""):
            self._add_function(f"{label}.__wrapped__", inner)
        for i, cell in enumerate(f.__closure__ or ()):
            try:
                held = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(held, types.FunctionType) and _ours(held.__module__ or ""):
                self.cells.append((f"{label}（闭包 {i}）", cell, held))
                self._add_function(f"{label}（闭包 {i}）", held)

    def _add_names(self, label: str, owner: Any, names: dict[str, Any], *, whole: bool) -> None:
        checked = {k: v for k, v in names.items() if f"{label}.{k}" not in _CHANGING}
        known = frozenset(names) | _OWN_NAMES
        self.namespaces.append((label, owner, vars(owner), tuple(checked), tuple(checked.values()), known, whole))

    def change(self) -> tuple[str, str] | None:
        """(setting, what changed) for a reply, as :mod:`course.settings` words it; None when nothing did. Puts
        back what it finds."""
        found = self.tampered()
        return (GRADER_CODE, "、".join(found[:4]) + ("……" if len(found) > 4 else "")) if found else None

    def _functions_as_they_were(self) -> bool:
        """Whether every function still refers to the same objects (its code, defaults and keyword defaults among
        them) and its keyword defaults hold the same values: the common answer, found in C. Reading
        ``f.__code__`` raises an audit event per read, and an audit hook is a Python call; False sends
        :meth:`tampered` through the functions one by one (a function that only gained an attribute dict or
        annotations since comes out unchanged there)."""
        now = gc.get_referents(*self._functions)
        return (
            len(now) == len(self._referents)
            and all(map(_is, now, self._referents))
            and all(
                len(d) == n and all(map(_is, d, keys)) and all(map(_is, d.values(), values))
                for d, n, keys, values in self._kwcontents
            )
        )

    def _cells_as_they_were(self) -> bool:
        try:
            return all(map(_is, map(_CONTENTS, self._cells), self._held))
        except ValueError:  # a cell emptied (del cell.cell_contents)
            return False

    def tampered(self) -> list[str]:
        """The names whose binding, code or contents differ from the baseline, each put back as it was."""
        found = []
        for label, owner, now, keys, values, known, whole in self.namespaces:
            get = now.get
            if not all(map(_is, map(get, keys, repeat(_MISSING)), values)):  # in C: the common answer is True
                for key, value in zip(keys, values):
                    if get(key, _MISSING) is not value and not _wrapped_by_torch(get(key), value):
                        found.append(f"{label}.{key}")
                        _SETATTR(owner, key, value)
            for key in (now.keys() - known) if whole else ():
                if isinstance(owner, types.ModuleType) and isinstance(now[key], types.ModuleType):
                    continue  # a submodule imported later: the import system binds it on its package
                found.append(f"{label}.{key}")
                delattr(owner, key)
        if not self._functions_as_they_were():
            for label, f, parts in self.functions.values():
                if not _same_parts(f, parts):
                    found.append(f"{label}（函数的 __code__ / 默认参数）")
                    _set_function_parts(f, parts)
            self._note_functions()  # as the baseline again: the next check takes the quick path
        if not self._cells_as_they_were():
            for label, cell, held in self.cells:
                if getattr(cell, "cell_contents", _MISSING) is not held:
                    found.append(label)
                    cell.cell_contents = held
        for label, table, copied in self.tables:
            if not _same_contents(copied, table):
                found.append(f"{label}（表的内容）")
                table.clear()
                if isinstance(table, list):
                    table.extend(copied)
                else:
                    table.update(copied)
        return found
