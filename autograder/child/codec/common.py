"""The codec's shared vocabulary: allowed dtypes and classes, handles, storage keys (see ``autograder.child.codec``)."""

from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from autograder.wire.protocol import CodecError

DTYPES: dict[str, torch.dtype] = {
    str(d).removeprefix("torch."): d
    for d in (
        torch.bool,
        torch.uint8,
        torch.int8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.float16,
        torch.bfloat16,
        torch.float32,
        torch.float64,
        torch.complex64,
        torch.complex128,
    )
}
NUMPY_KINDS = "biufc"  # bool, int, unsigned, float, complex: never object, string or void arrays
DEFAULT_FACTORIES: dict[str, type] = {"dict": dict, "list": list, "int": int, "float": float}
MODULE_ROOTS = ("torch.nn.modules.", "course.")  # classes the judge rebuilds from data (else: a handle)
OPTIMIZER_ROOTS = ("torch.optim.", "course.")  # the same for optimizers
OPTIMIZER_KEYS = {"defaults", "state", "param_groups"}
OPTIMIZER_EXTRA = "extra"  # an optimizer's own plain attributes beside those (a step counter the learner's code keeps)


# the attributes torch's own Optimizer keeps on an instance (hooks, profiling names): never the learner's
_TORCH_OWN = frozenset(vars(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)))


def plain_extra(cls: type, name: Any, value: Any) -> bool:
    """Whether ``name = value`` is an attribute of an optimizer of ``cls`` that crosses as data: a name its class
    does not define (no method or property is shadowed), not one torch's Optimizer keeps, not a dunder (a private
    ``_calls`` is the learner's too), holding :func:`plain_value` data."""
    return (
        isinstance(name, str)
        and not name.startswith("__")
        and name not in _TORCH_OWN
        and not hasattr(cls, name)
        and plain_value(value)
    )


def plain_value(value: Any, depth: int = 0) -> bool:
    """A number, a string, a bool or None, or a list, tuple or str-keyed dict of those (two levels, up to 1000
    items): a counter, a flag or a call log the learner keeps on an optimizer."""
    if value is None or type(value) in (bool, int, float, str):
        return True
    if depth >= 2 or not isinstance(value, (list, tuple, dict)) or len(value) > 1000:
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_value(v, depth + 1) for k, v in value.items())
    return all(plain_value(v, depth + 1) for v in value)


class NotData(CodecError):
    """The learner side found a value that is not data (it becomes a handle instead)."""


@dataclass
class Handle:
    """A learner object that is not data, by number: the judge calls it or reads its attributes remotely."""

    id: int
    type: str
    callable: bool
    repr: str


def qualified(obj: Any) -> str:
    return f"{obj.__module__}:{obj.__qualname__}"


def loaded_class(path: str, base: type, roots: tuple[str, ...]) -> type | None:
    """The class at ``module:qualname`` when its module is already imported, under ``roots``, a ``base``."""
    module_name, _, qualname = path.partition(":")
    if not module_name.startswith(roots) or "<" in qualname:
        return None
    obj: Any = sys.modules.get(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    if not (isinstance(obj, type) and issubclass(obj, base)):
        return None
    if obj.__module__ != module_name or obj.__qualname__ != qualname:  # no reaching other classes by attribute
        return None
    return obj


def storage_key(storage: torch.UntypedStorage) -> tuple[str, int] | None:
    if storage.device.type == "meta" or storage.nbytes() == 0:
        return None
    return (str(storage.device), storage.data_ptr())


def storage_bytes(storage: torch.UntypedStorage) -> memoryview:
    """The storage's bytes without a copy for CPU storages.

    A CPU storage is read through its address, not through NumPy: ``.numpy()`` marks a storage not resizable for
    good, and the learner's own tensor would then refuse ``resize_`` / ``out=`` in the judge only."""
    if storage.device.type != "cpu":
        data = torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage).cpu()
        return memoryview(data.numpy()).cast("B")
    view = (ctypes.c_char * storage.nbytes()).from_address(storage.data_ptr())
    view.storage = storage  # the bytes stay alive as long as the view does
    return memoryview(view).cast("B")


def hooks_empty(module: nn.Module) -> bool:
    return not any(value for key, value in vars(module).items() if "hook" in key and isinstance(value, dict))
