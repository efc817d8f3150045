"""Turning values into a JSON tree and raw buffers (one message); see ``autograder.child.codec``."""

from __future__ import annotations

import collections
import collections.abc
import functools
import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn

from autograder.child.codec.common import (
    DEFAULT_FACTORIES,
    DTYPES,
    MODULE_ROOTS,
    NUMPY_KINDS,
    OPTIMIZER_EXTRA,
    OPTIMIZER_KEYS,
    OPTIMIZER_ROOTS,
    NotData,
    hooks_empty,
    loaded_class,
    plain_extra,
    qualified,
    storage_bytes,
    storage_key,
)
from autograder.wire.protocol import DEFAULT_LIMITS, CodecError

# the list and dict classes that travel as data (a tuple of any class travels as a tuple: torch.return_types)
PLAIN_CONTAINERS = (list, dict, collections.OrderedDict, collections.defaultdict)


class Encoder:
    """Turn values into a JSON tree (``tree``) and raw buffers (``buffers``), for one message.

    The direction is the subclass: :class:`JudgeEncoder` (functions travel by import path; learner objects
    by reference) or :class:`LearnerEncoder` (what is not data becomes a handle in ``handles``). ``known`` maps ``id(obj)`` (and
    storage keys) of the request's objects to their numbers, so a reply can name them with ``$arg``.
    """

    only_plain_containers = False  # True: a list or dict of another class is no data (LearnerEncoder)

    def __init__(
        self,
        *,
        known: dict[Any, int] | None = None,
        handles: list[Any] | None = None,
        first_id: int = 1,
    ) -> None:
        self.known = known or {}
        self.handles = handles
        self.buffers: list[memoryview | bytes] = []
        self.objects: dict[int, Any] = {}  # number -> object, what this message sent (the judge keeps it)
        self._memo: dict[Any, int] = {}
        self._keep: list[Any] = []
        self._data_only = 0  # > 0 inside a module's or optimizer's attributes: no handles there
        self._next = first_id

    # -- bookkeeping

    def _new_id(self, key: Any, obj: Any) -> int:
        number = self._next
        self._next += 1
        self._memo[key] = number
        self.objects[number] = obj
        self._keep.append(obj)
        return number

    def _seen(self, key: Any) -> dict[str, int] | None:
        if key in self.known:
            return {"$arg": self.known[key]}
        if key in self._memo:
            return {"$ref": self._memo[key]}
        return None

    def _buffer(self, data: memoryview | bytes) -> int:
        self.buffers.append(data)
        return len(self.buffers) - 1

    def checkpoint(self) -> tuple[int, int, dict[Any, int], dict[int, Any]]:
        return (len(self.buffers), self._next, dict(self._memo), dict(self.objects))

    def rollback(self, mark: tuple[int, int, dict[Any, int], dict[int, Any]]) -> None:
        n_buffers, self._next, self._memo, self.objects = mark
        del self.buffers[n_buffers:]

    # -- values

    def encode(self, value: Any, depth: int = 0) -> Any:
        if depth > 150:
            raise NotData("嵌套太深 (nested too deeply)")
        if isinstance(value, np.generic) and value.dtype.kind in NUMPY_KINDS:  # np.float64 is also a float:
            return {"$npscalar": {"dtype": value.dtype.str, "buf": self._buffer(value.tobytes())}}  # kept a NumPy one
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return value if math.isfinite(value) else {"$float": repr(float(value))}  # np.float64 is a float
        if isinstance(value, complex):
            return {"$complex": [self.encode(value.real), self.encode(value.imag)]}
        if isinstance(value, torch.Tensor):
            return self._tensor(value, depth)
        if isinstance(value, (torch.Size,)):
            dims = [int(d) for d in value]
            if len(dims) > DEFAULT_LIMITS.max_dims or any(not 0 <= d < 2**63 for d in dims):
                return {"$tuple": dims}  # a Size no tensor could have (2**70, 1500 dims): its numbers, as a tuple
            return {"$size": dims}
        if isinstance(value, torch.dtype):
            return {"$dtype": str(value).removeprefix("torch.")}
        if isinstance(value, torch.device):
            return {"$device": str(value)}
        if isinstance(value, tuple):
            return {"$tuple": [self.encode(v, depth + 1) for v in value]}
        if self.only_plain_containers and isinstance(value, (list, dict)) and type(value) not in PLAIN_CONTAINERS:
            # a list or dict of another class (class Found(list)): what it stores, read by the base class's own
            # methods (not its overrides), and the class's name; the judge rebuilds an empty subclass of that name
            # (isinstance(x, list) holds, type(x) is list does not, as in the kernel); its methods stay behind
            cls = type(value).__name__[:64]
            if isinstance(value, list):
                items = [list.__getitem__(value, i) for i in range(list.__len__(value))]
                return self._container(
                    value, depth, lambda: {"$list": [self.encode(v, depth + 1) for v in items], "cls": cls}
                )
            return self._container(
                value, depth, lambda: {**self._dict_body(dict(dict.items(value)), depth), "cls": cls}
            )
        if isinstance(value, list):
            return self._container(value, depth, lambda: {"$list": [self.encode(v, depth + 1) for v in value]})
        if isinstance(value, dict):
            return self._container(value, depth, lambda: self._dict_body(value, depth))
        if isinstance(value, (set, frozenset)):
            return {"$set": [self.encode(v, depth + 1) for v in value], "frozen": isinstance(value, frozenset)}
        if isinstance(value, (bytes, bytearray)):
            return {"$bytes": self._buffer(bytes(value))}
        if isinstance(value, slice):
            return {"$slice": [self.encode(v, depth + 1) for v in (value.start, value.stop, value.step)]}
        if isinstance(value, range):
            return {"$range": [value.start, value.stop, value.step]}
        if value is Ellipsis:
            return {"$ellipsis": 0}
        if isinstance(value, np.ndarray):
            return self._ndarray(value)
        if isinstance(value, torch.Generator):
            return self._generator(value)
        if isinstance(value, nn.Module):
            return self._module(value, depth)
        if isinstance(value, torch.optim.Optimizer):
            return self._optimizer(value, depth)
        return self._other(value, depth)

    def _container(self, value: Any, depth: int, body: Callable[[], dict[str, Any]]) -> Any:
        seen = self._seen(id(value))
        if seen is not None:
            return seen
        number = self._new_id(id(value), value)
        return {**body(), "id": number}

    def _dict_body(self, value: dict, depth: int) -> dict[str, Any]:
        if isinstance(value, collections.defaultdict):
            factory = next((k for k, f in DEFAULT_FACTORIES.items() if f is value.default_factory), None)
            kind = f"defaultdict:{factory}" if factory is not None else "dict"  # another factory: its entries only
        elif isinstance(value, collections.OrderedDict):
            kind = "odict"
        else:
            kind = "dict"
        items = [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in value.items()]
        return {"$dict": items, "kind": kind}

    def _tensor(self, t: torch.Tensor, depth: int) -> Any:
        seen = self._seen(id(t))
        if seen is not None:
            return seen
        number = self._new_id(id(t), t)
        return {"$tensor": self._tensor_body(t, depth), "id": number}

    def _tensor_body(self, t: torch.Tensor, depth: int) -> dict[str, Any]:
        if type(t) not in (torch.Tensor, nn.Parameter):
            t = t.as_subclass(torch.Tensor)  # a learner's subclass: only its data and facts travel
        if t.layout != torch.strided or t.is_quantized or t.is_nested:
            raise NotData(f"不支持的张量布局 (layout {t.layout})：只能传普通的稠密张量 (dense tensor)")
        dtype = str(t.dtype).removeprefix("torch.")
        if dtype not in DTYPES:
            raise NotData(f"不支持的 dtype {t.dtype}")
        grad = t._grad if (t.is_leaf or t.retains_grad) else None
        return {
            "storage": self._storage(t.untyped_storage()),
            "dtype": dtype,
            "shape": list(t.shape),
            "stride": list(t.stride()),
            "offset": t.storage_offset(),
            "rg": bool(t.requires_grad),
            "leaf": bool(t.is_leaf),
            "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None,
            "inference": bool(t.is_inference()),
            "param": isinstance(t, nn.Parameter),
            "grad": self.encode(grad, depth + 1) if grad is not None else None,
        }

    def state(self, obj: Any) -> Any:
        """``obj``'s own content even when it came with the request (an update after a call)."""
        if isinstance(obj, torch.Tensor):
            return {"$tensor": self._tensor_body(obj, 0)}
        if isinstance(obj, list):
            return {"$list": [self.encode(v, 1) for v in obj]}
        if isinstance(obj, dict):
            return self._dict_body(obj, 0)
        if isinstance(obj, nn.Module):
            return {"$module": {"class": qualified(type(obj)), "state": self.module_state(obj, 1)}}
        if isinstance(obj, torch.optim.Optimizer):
            return {"$optim": {"class": qualified(type(obj)), "state": self.optimizer_state(obj, 1)}}
        if isinstance(obj, torch.Generator):
            return {"$generator": {"device": str(obj.device), "buf": self._buffer(obj.get_state().numpy().tobytes())}}
        raise NotData(type(obj).__name__)

    def _storage(self, storage: torch.UntypedStorage) -> Any:
        key = storage_key(storage)
        if key is not None:
            seen = self._seen(key)
            if seen is not None:
                return seen
        body: dict[str, Any] = {"nbytes": storage.nbytes(), "device": str(storage.device)}
        if storage.device.type != "meta":
            body["buf"] = self._buffer(storage_bytes(storage))
        number = self._new_id(key if key is not None else ("fresh", self._next), storage)
        return {"$storage": body, "id": number}

    def _ndarray(self, a: np.ndarray) -> Any:
        if a.dtype.kind not in NUMPY_KINDS:
            raise NotData(f"不支持的 numpy dtype {a.dtype}")
        # tobytes() is C order whatever the layout (np.ascontiguousarray would turn a 0-d array into (1,))
        return {"$ndarray": {"dtype": a.dtype.str, "shape": list(a.shape), "buf": self._buffer(a.tobytes())}}

    def _generator(self, g: torch.Generator) -> Any:
        seen = self._seen(id(g))
        if seen is not None:
            return seen
        number = self._new_id(id(g), g)
        state = g.get_state()
        return {"$generator": {"device": str(g.device), "buf": self._buffer(state.numpy().tobytes())}, "id": number}

    def module_state(self, m: nn.Module, depth: int) -> Any:
        state = {k: v for k, v in vars(m).items() if "hook" not in k}
        return self._dict_body(state, depth)

    def optimizer_state(self, opt: torch.optim.Optimizer, depth: int) -> Any:
        state = opt.__getstate__()
        body = {k: state[k] for k in OPTIMIZER_KEYS if k in state}
        extra = {k: v for k, v in vars(opt).items() if k not in OPTIMIZER_KEYS and plain_extra(type(opt), k, v)}
        if extra:
            body[OPTIMIZER_EXTRA] = extra
        return self._dict_body(body, depth)

    def _module(self, m: nn.Module, depth: int) -> Any:
        raise NotImplementedError  # JudgeEncoder, LearnerEncoder

    def _optimizer(self, opt: torch.optim.Optimizer, depth: int) -> Any:
        raise NotImplementedError

    def _other(self, value: Any, depth: int) -> Any:
        raise NotImplementedError

    def _as_data(self, obj: Any, tag: str, state: Callable[[], Any]) -> Any:
        """``{tag: {class, state}}`` for a module or optimizer, numbered so later mentions are ``$ref``."""
        number = self._new_id(id(obj), obj)
        return {tag: {"class": qualified(type(obj)), "state": state()}, "id": number}

    def _handle(self, value: Any) -> Any:
        if self.handles is None or self._data_only:
            raise NotData(f"{type(value).__name__} 不是数据 (not data)")
        seen = self._seen(id(value))
        if seen is not None:
            return seen
        self.handles.append(value)
        try:
            text = object.__repr__(value) if isinstance(value, type) else repr(value)
        except Exception:  # noqa: BLE001 - a learner's __repr__ may raise; the type name is enough
            text = f"<{type(value).__name__}>"
        return {
            "$handle": {
                "id": len(self.handles) - 1,
                "type": type(value).__name__,
                "callable": callable(value),
                "repr": text[:200],
            }
        }

    def _importable(self, obj: Any) -> None:
        """The judge sends functions and classes by import path: they must be importable as themselves."""
        module = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", "")
        found: Any = sys.modules.get(module) if module and module != "__main__" else None
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if found is not obj:
            name = getattr(obj, "__name__", type(obj).__name__)
            raise CodecError(
                f"{name} 是在测试单元里定义的，不能交给学习者的函数：把它写进 course/（例如 course.fixtures），"
                "按名字导入 (a named fixture)"
            )


class JudgeEncoder(Encoder):
    """What the judge sends the learner: data, modules and optimizers of importable classes, functions and
    classes by import path (named fixtures in ``course/``), and the learner's own objects by reference."""

    def _module(self, m: nn.Module, depth: int) -> Any:
        seen = self._seen(id(m))
        if seen is not None:
            return seen
        if not hooks_empty(m):
            raise NotData(f"模型 {type(m).__name__} 注册了 hook：评分器不能把它交给学习者的函数")
        self._importable(type(m))
        return self._as_data(m, "$module", lambda: self.module_state(m, depth + 1))

    def _optimizer(self, opt: torch.optim.Optimizer, depth: int) -> Any:
        seen = self._seen(id(opt))
        if seen is not None:
            return seen
        self._importable(type(opt))
        self._data_only += 1
        try:
            return self._as_data(opt, "$optim", lambda: self.optimizer_state(opt, depth + 1))
        finally:
            self._data_only -= 1

    def _other(self, value: Any, depth: int) -> Any:
        target = getattr(value, "__learner_target__", None)
        if target is not None:
            return {"$learner": list(target)}
        if isinstance(value, functools.partial):
            return {
                "$partial": {
                    "fn": self.encode(value.func, depth + 1),
                    "args": self.encode(tuple(value.args), depth + 1),
                    "kwargs": self.encode(dict(value.keywords), depth + 1),
                }
            }
        if callable(value):
            self._importable(value)
            return {"$fn": qualified(value)}
        if isinstance(value, collections.abc.Iterator):
            return {"$iter": [self.encode(v, depth + 1) for v in value]}
        raise CodecError(
            f"{type(value).__name__} 不能交给学习者的函数：测试只能传数据，或 course/ 里按名字导入的对象 (fixtures)"
        )


class LearnerEncoder(Encoder):
    """What the learner's process sends the judge: data, and modules and optimizers only of torch's own (or
    ``course``'s) classes with data-only attributes; anything else becomes a handle in ``handles`` (a list or dict
    of another class too: ``torch.fx``'s ``immutable_dict`` is no ``dict`` to a caller that writes to it)."""

    only_plain_containers = True

    def _module(self, m: nn.Module, depth: int) -> Any:
        seen = self._seen(id(m))
        if seen is not None:
            return seen
        structural = all(
            loaded_class(qualified(type(s)), nn.Module, MODULE_ROOTS) is type(s) and hooks_empty(s) for s in m.modules()
        )
        if not structural:
            return self._handle(m)
        return self._data_or_handle(m, "$module", lambda: self.module_state(m, depth + 1))

    def _optimizer(self, opt: torch.optim.Optimizer, depth: int) -> Any:
        seen = self._seen(id(opt))
        if seen is not None:
            return seen
        if loaded_class(qualified(type(opt)), torch.optim.Optimizer, OPTIMIZER_ROOTS) is not type(opt):
            return self._handle(opt)
        return self._data_or_handle(opt, "$optim", lambda: self.optimizer_state(opt, depth + 1))

    def _data_or_handle(self, obj: Any, tag: str, state: Callable[[], Any]) -> Any:
        """The object as data; a handle when an attribute is not data (nothing of it is kept)."""
        mark = self.checkpoint()
        self._data_only += 1  # an attribute that is not data makes the whole object a handle
        try:
            return self._as_data(obj, tag, state)
        except NotData:
            self.rollback(mark)
        finally:
            self._data_only -= 1
        return self._handle(obj)

    def _other(self, value: Any, depth: int) -> Any:
        return self._handle(value)
