"""Values as data between the judge and the learner process: a JSON tree plus raw byte buffers, never a pickle.

What one side sends, the other rebuilds from plain parts: numbers, strings, containers, plain ``torch.Tensor``
(rebuilt from its storage bytes, so a learner's tensor subclass never survives), numpy arrays, generators,
and modules / optimizers of known classes (torch's own and ``course``'s, rebuilt from their attributes).

Identity is kept inside one message and across a call: every tensor, storage, list, dict, module,
optimizer and generator gets a number; a second mention is ``{"$ref": n}``. A reply names the objects
of the request it answers with ``{"$arg": n}``, so a returned view of an argument shares the argument's
storage, and ``updates`` carry the new state of every argument the learner changed in place.

The two directions trust differently. The learner side rebuilds whatever the judge sends (functions and
classes by import path: named fixtures in ``course/``). The judge side never imports or calls anything the
learner names: modules and optimizers must be of an allowed class already loaded; anything else the learner
returns (its own functions, classes, generators) stays in the learner process as a handle, and sizes,
depth, dtypes, shapes and strides are checked before a byte is used.
"""

from __future__ import annotations

import collections
import collections.abc
import functools
import importlib
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from autograder.protocol import DEFAULT_LIMITS, CodecError, Limits
from course import remote

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
OPTIMIZER_ROOT = "torch.optim."
OPTIMIZER_KEYS = {"defaults", "state", "param_groups"}


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


def _is_loaded_class(path: str, base: type, roots: tuple[str, ...]) -> type | None:
    """The class at ``module:qualname`` when its module is already imported, under ``roots``, a ``base``."""
    module_name, _, qualname = path.partition(":")
    if not module_name.startswith(roots) or "<" in qualname:
        return None
    obj: Any = sys.modules.get(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return obj if isinstance(obj, type) and issubclass(obj, base) else None


def _storage_key(storage: torch.UntypedStorage) -> tuple[str, int] | None:
    if storage.device.type == "meta" or storage.nbytes() == 0:
        return None
    return (str(storage.device), storage.data_ptr())


def storage_bytes(storage: torch.UntypedStorage) -> memoryview:
    """The storage's bytes without a copy for CPU storages."""
    data = torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)
    if data.device.type != "cpu":
        data = data.cpu()
    return memoryview(data.numpy()).cast("B")


def _hooks_empty(module: nn.Module) -> bool:
    return not any(value for key, value in vars(module).items() if "hook" in key and isinstance(value, dict))


# ---------------------------------------------------------------------------------------------------
# Encoding


class Encoder:
    """Turn values into a JSON tree (``tree``) and raw buffers (``buffers``), for one message.

    ``side`` is the sender: ``"judge"`` (functions travel by import path; learner objects by reference) or
    ``"learner"`` (what is not data becomes a handle in ``handles``). ``known`` maps ``id(obj)`` (and
    storage keys) of the request's objects to their numbers, so a reply can name them with ``$arg``.
    """

    def __init__(
        self,
        side: str,
        *,
        known: dict[Any, int] | None = None,
        handles: list[Any] | None = None,
        first_id: int = 1,
    ) -> None:
        self.side = side
        self.known = known or {}
        self.handles = handles
        self.buffers: list[memoryview | bytes] = []
        self.objects: dict[int, Any] = {}  # number -> object, what this message sent (the judge keeps it)
        self._memo: dict[Any, int] = {}
        self._keep: list[Any] = []
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
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return value if math.isfinite(value) else {"$float": repr(value)}
        if isinstance(value, complex):
            return {"$complex": [self.encode(value.real), self.encode(value.imag)]}
        if isinstance(value, torch.Tensor):
            return self._tensor(value, depth)
        if isinstance(value, (torch.Size,)):
            return {"$size": [int(d) for d in value]}
        if isinstance(value, torch.dtype):
            return {"$dtype": str(value).removeprefix("torch.")}
        if isinstance(value, torch.device):
            return {"$device": str(value)}
        if isinstance(value, tuple):
            return {"$tuple": [self.encode(v, depth + 1) for v in value]}
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
        if isinstance(value, np.generic) and value.dtype.kind in NUMPY_KINDS:
            return {"$npscalar": {"dtype": value.dtype.str, "buf": self._buffer(value.tobytes())}}
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
            if factory is None:
                raise NotData("defaultdict 的 default_factory 不是 dict / list / int / float")
            kind = f"defaultdict:{factory}"
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
        key = _storage_key(storage)
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
        a = np.ascontiguousarray(a)
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

    def _module(self, m: nn.Module, depth: int) -> Any:
        seen = self._seen(id(m))
        if seen is not None:
            return seen
        cls = type(m)
        if self.side == "learner":
            structural = all(
                _is_loaded_class(qualified(type(s)), nn.Module, MODULE_ROOTS) is type(s) and _hooks_empty(s)
                for s in m.modules()
            )
            if not structural:
                return self._handle(m)
            mark = self.checkpoint()
            try:
                number = self._new_id(id(m), m)
                return {"$module": {"class": qualified(cls), "state": self.module_state(m, depth + 1)}, "id": number}
            except NotData:
                self.rollback(mark)
                return self._handle(m)
        if not _hooks_empty(m):
            raise NotData(f"模型 {cls.__name__} 注册了 hook：评分器不能把它交给学习者的函数")
        self._importable(cls)
        number = self._new_id(id(m), m)
        return {"$module": {"class": qualified(cls), "state": self.module_state(m, depth + 1)}, "id": number}

    def optimizer_state(self, opt: torch.optim.Optimizer, depth: int) -> Any:
        state = opt.__getstate__()
        return self._dict_body({k: state[k] for k in OPTIMIZER_KEYS if k in state}, depth)

    def _optimizer(self, opt: torch.optim.Optimizer, depth: int) -> Any:
        seen = self._seen(id(opt))
        if seen is not None:
            return seen
        cls = type(opt)
        if (
            self.side == "learner"
            and _is_loaded_class(qualified(cls), torch.optim.Optimizer, (OPTIMIZER_ROOT,)) is not cls
        ):
            return self._handle(opt)
        if self.side == "judge":
            self._importable(cls)
        mark = self.checkpoint()
        try:
            number = self._new_id(id(opt), opt)
            return {"$optim": {"class": qualified(cls), "state": self.optimizer_state(opt, depth + 1)}, "id": number}
        except NotData:
            if self.side != "learner":
                raise
            self.rollback(mark)
            return self._handle(opt)

    def _other(self, value: Any, depth: int) -> Any:
        target = getattr(value, "__learner_target__", None)
        if self.side == "judge" and target is not None:
            return {"$learner": list(target)}
        if self.side == "judge":
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
        return self._handle(value)

    def _handle(self, value: Any) -> Any:
        if self.handles is None:
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


# ---------------------------------------------------------------------------------------------------
# Decoding


class Decoder:
    """Rebuild values from a tree and its buffers; every rule the sender could break is checked.

    ``side`` is the receiver. ``known`` maps the request's numbers to the receiver's own objects (for
    ``$arg`` in replies). ``resolve`` (learner side) turns ``$learner`` targets into learner objects;
    ``remote`` (judge side) turns ``$handle`` into an object that calls back into the learner.
    """

    def __init__(
        self,
        side: str,
        buffers: list[bytearray],
        *,
        known: dict[int, Any] | None = None,
        resolve: Callable[[list[Any]], Any] | None = None,
        remote: Callable[[Handle], Any] | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.side = side
        self.buffers = buffers
        self.known = known or {}
        self.resolve = resolve
        self.remote = remote
        self.limits = limits
        self.objects: dict[int, Any] = {}  # number -> object rebuilt here
        self.storages: dict[int, tuple[torch.UntypedStorage, bytes | None]] = {}  # number -> (storage, bytes)
        self._nodes = 0
        self._used: set[int] = set()

    @property
    def strict(self) -> bool:
        return self.side == "judge"

    def _buf(self, index: Any) -> bytearray:
        if not isinstance(index, int) or not 0 <= index < len(self.buffers) or index in self._used:
            raise CodecError("消息里的缓冲区编号不对 (bad buffer index)")
        self._used.add(index)
        return self.buffers[index]

    def _register(self, node: dict[str, Any], obj: Any) -> Any:
        number = node.get("id")
        if number is not None:
            if not isinstance(number, int) or number in self.objects:
                raise CodecError("消息里的对象编号重复 (duplicate id)")
            self.objects[number] = obj
        return obj

    def decode(self, tree: Any, depth: int = 0) -> Any:
        self._nodes += 1
        if self._nodes > self.limits.max_nodes:
            raise CodecError(f"值太大：超过 {self.limits.max_nodes} 个元素")
        if depth > self.limits.max_depth:
            raise CodecError("值嵌套太深 (nested too deeply)")
        if tree is None or isinstance(tree, bool):
            return tree
        if isinstance(tree, int):
            return tree
        if isinstance(tree, float):
            return tree
        if isinstance(tree, str):
            if len(tree) > self.limits.max_str:
                raise CodecError("字符串太长 (string too long)")
            return tree
        if not isinstance(tree, dict) or len(tree) > 3:
            raise CodecError("消息格式不对 (malformed value)")
        tag = next((k for k in tree if k.startswith("$")), None)
        handler = _DECODERS.get(tag) if tag else None
        if handler is None:
            raise CodecError(f"未知的值类型 {tag!r}")
        return handler(self, tree, depth)

    def _items(self, value: Any, depth: int) -> list[Any]:
        if not isinstance(value, list):
            raise CodecError("消息格式不对 (expected a list)")
        return [self.decode(v, depth + 1) for v in value]

    # -- tags

    def _float(self, tree: dict, depth: int) -> float:
        text = tree["$float"]
        if text not in ("nan", "inf", "-inf"):
            raise CodecError("消息格式不对 ($float)")
        return float(text)

    def _complex(self, tree: dict, depth: int) -> complex:
        re, im = self._items(tree["$complex"], depth)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (re, im)):
            raise CodecError("消息格式不对 ($complex)")
        return complex(re, im)

    def _ref(self, tree: dict, depth: int) -> Any:
        number = tree["$ref"]
        if number not in self.objects:
            raise CodecError("引用了不存在的对象 ($ref)")
        return self.objects[number]

    def _arg(self, tree: dict, depth: int) -> Any:
        number = tree["$arg"]
        if not isinstance(number, int) or number not in self.known:
            raise CodecError("引用了请求里不存在的对象 ($arg)")
        return self.known[number]

    def _tuple(self, tree: dict, depth: int) -> tuple:
        return tuple(self._items(tree["$tuple"], depth))

    def _list(self, tree: dict, depth: int) -> list:
        out: list[Any] = self._register(tree, [])
        out.extend(self._items(tree["$list"], depth))
        return out

    def _dict(self, tree: dict, depth: int) -> dict:
        kind = tree.get("kind", "dict")
        if kind == "dict":
            out: dict = {}
        elif kind == "odict":
            out = collections.OrderedDict()
        elif isinstance(kind, str) and kind.startswith("defaultdict:") and kind[12:] in DEFAULT_FACTORIES:
            out = collections.defaultdict(DEFAULT_FACTORIES[kind[12:]])
        else:
            raise CodecError("消息格式不对 (dict kind)")
        self._register(tree, out)
        pairs = tree["$dict"]
        if not isinstance(pairs, list):
            raise CodecError("消息格式不对 ($dict)")
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise CodecError("消息格式不对 ($dict item)")
            key = self.decode(pair[0], depth + 1)
            try:
                out[key] = self.decode(pair[1], depth + 1)
            except TypeError:
                raise CodecError("dict 的键不可哈希 (unhashable key)") from None
        return out

    def _set(self, tree: dict, depth: int) -> set | frozenset:
        try:
            items = set(self._items(tree["$set"], depth))
        except TypeError:
            raise CodecError("set 的元素不可哈希 (unhashable)") from None
        return frozenset(items) if tree.get("frozen") else items

    def _bytes(self, tree: dict, depth: int) -> bytes:
        return bytes(self._buf(tree["$bytes"]))

    def _size(self, tree: dict, depth: int) -> torch.Size:
        dims = tree["$size"]
        if not isinstance(dims, list) or len(dims) > self.limits.max_dims or not all(_nonneg_int(d) for d in dims):
            raise CodecError("消息格式不对 ($size)")
        return torch.Size(dims)

    def _dtype(self, tree: dict, depth: int) -> torch.dtype:
        name = tree["$dtype"]
        if name not in DTYPES:
            raise CodecError(f"不支持的 dtype {name!r}")
        return DTYPES[name]

    def _device(self, tree: dict, depth: int) -> torch.device:
        return _device(tree["$device"])

    def _slice(self, tree: dict, depth: int) -> slice:
        parts = self._items(tree["$slice"], depth)
        if len(parts) != 3:
            raise CodecError("消息格式不对 ($slice)")
        return slice(*parts)

    def _range(self, tree: dict, depth: int) -> range:
        parts = tree["$range"]
        if not isinstance(parts, list) or len(parts) != 3 or not all(type(p) is int for p in parts):
            raise CodecError("消息格式不对 ($range)")
        return range(*parts)

    def _ellipsis(self, tree: dict, depth: int) -> Any:
        return Ellipsis

    def _ndarray(self, tree: dict, depth: int) -> np.ndarray:
        body = tree["$ndarray"]
        dtype = _numpy_dtype(body.get("dtype"))
        shape = body.get("shape")
        if not isinstance(shape, list) or len(shape) > self.limits.max_dims or not all(_nonneg_int(d) for d in shape):
            raise CodecError("消息格式不对 ($ndarray shape)")
        data = self._buf(body.get("buf"))
        if len(data) != math.prod(shape) * dtype.itemsize:
            raise CodecError("numpy 数组的字节数与形状不符")
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()

    def _npscalar(self, tree: dict, depth: int) -> np.generic:
        body = tree["$npscalar"]
        dtype = _numpy_dtype(body.get("dtype"))
        data = self._buf(body.get("buf"))
        if len(data) != dtype.itemsize:
            raise CodecError("numpy 标量的字节数不对")
        return np.frombuffer(data, dtype=dtype)[0]

    def _storage(self, tree: dict, depth: int) -> torch.UntypedStorage:
        body = tree["$storage"]
        nbytes = body.get("nbytes")
        device = _device(body.get("device"))
        if not _nonneg_int(nbytes):
            raise CodecError("消息格式不对 ($storage)")
        if device.type == "meta":
            storage = torch.empty(nbytes, dtype=torch.uint8, device="meta").untyped_storage()
            original = None
        else:
            data = self._buf(body.get("buf"))
            if len(data) != nbytes:
                raise CodecError("存储 (storage) 的字节数不对")
            original = bytes(data)
            flat = torch.frombuffer(data, dtype=torch.uint8) if nbytes else torch.empty(0, dtype=torch.uint8)
            storage = (flat if device.type == "cpu" else flat.to(device)).untyped_storage()
        number = tree.get("id")
        self._register(tree, storage)
        if isinstance(number, int):
            self.storages[number] = (storage, original)
        return storage

    def _tensor(self, tree: dict, depth: int) -> torch.Tensor:
        body = tree["$tensor"]
        if not isinstance(body, dict):
            raise CodecError("消息格式不对 ($tensor)")
        storage = self.decode(body.get("storage"), depth + 1)
        if not isinstance(storage, torch.UntypedStorage):
            raise CodecError("张量的存储 (storage) 不对")
        t = _with_autograd(view_of(storage, body, self.limits), body)
        self._register(tree, t)
        grad = body.get("grad")
        if grad is not None and t.is_leaf:
            set_grad(t, self.decode(grad, depth + 1))
        return t

    def _generator(self, tree: dict, depth: int) -> torch.Generator:
        body = tree["$generator"]
        device = _device(body.get("device"))
        state = torch.frombuffer(self._buf(body.get("buf")), dtype=torch.uint8).clone()
        try:
            g = torch.Generator(device=device)
            g.set_state(state)
        except (RuntimeError, ValueError) as exc:
            raise CodecError(f"随机数生成器 (Generator) 的状态不对：{str(exc)[:200]}") from None
        return self._register(tree, g)

    def _module(self, tree: dict, depth: int) -> nn.Module:
        body = tree["$module"]
        cls = self._class(body.get("class"), nn.Module, MODULE_ROOTS)
        module = cls.__new__(cls)
        self._register(tree, module)
        state = self.decode(body.get("state"), depth + 1)
        module.__setstate__(check_module_state(cls, state) if self.strict else state)
        fresh_hooks(module)
        return module

    def _optim(self, tree: dict, depth: int) -> torch.optim.Optimizer:
        body = tree["$optim"]
        cls = self._class(body.get("class"), torch.optim.Optimizer, (OPTIMIZER_ROOT,))
        opt = cls.__new__(cls)
        self._register(tree, opt)
        state = self.decode(body.get("state"), depth + 1)
        opt.__setstate__(check_optimizer_state(state) if self.strict else state)
        return opt

    def _class(self, path: Any, base: type, roots: tuple[str, ...]) -> type:
        if not isinstance(path, str):
            raise CodecError("消息格式不对 (class)")
        if self.strict:
            cls = _is_loaded_class(path, base, roots)
            if cls is None:
                raise CodecError(f"评分器不接收 {path} 类型的对象")
            return cls
        return _import(path)

    def _fn(self, tree: dict, depth: int) -> Any:
        if self.strict:
            raise CodecError("学习者一侧不能发送函数引用 ($fn)")
        return _import(tree["$fn"])

    def _partial(self, tree: dict, depth: int) -> Any:
        if self.strict:
            raise CodecError("学习者一侧不能发送函数引用 ($partial)")
        body = tree["$partial"]
        return functools.partial(
            self.decode(body["fn"], depth + 1),
            *self.decode(body["args"], depth + 1),
            **self.decode(body["kwargs"], depth + 1),
        )

    def _iter(self, tree: dict, depth: int) -> Any:
        if self.strict:
            raise CodecError("消息格式不对 ($iter)")
        return (item for item in self._items(tree["$iter"], depth))

    def _learner(self, tree: dict, depth: int) -> Any:
        if self.strict or self.resolve is None:
            raise CodecError("消息格式不对 ($learner)")
        return self.resolve(tree["$learner"])

    def _handle(self, tree: dict, depth: int) -> Any:
        body = tree["$handle"]
        if not self.strict or self.remote is None or not isinstance(body, dict):
            raise CodecError("消息格式不对 ($handle)")
        info = Handle(
            id=body.get("id"),
            type=str(body.get("type", "object"))[:100],
            callable=bool(body.get("callable")),
            repr=str(body.get("repr", ""))[:200],
        )
        if not _nonneg_int(info.id):
            raise CodecError("消息格式不对 ($handle id)")
        return self.remote(info)


def _nonneg_int(value: Any) -> bool:
    return type(value) is int and value >= 0


def _device(name: Any) -> torch.device:
    if not isinstance(name, str) or len(name) > 32:
        raise CodecError("消息格式不对 (device)")
    try:
        device = torch.device(name)
    except RuntimeError:
        raise CodecError(f"不认识的设备 {name!r}") from None
    if device.type not in ("cpu", "meta", "cuda", "mps"):
        raise CodecError(f"不支持的设备 {name!r}")
    return device


def _numpy_dtype(text: Any) -> np.dtype:
    try:
        dtype = np.dtype(text) if isinstance(text, str) and len(text) < 8 else None
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind not in NUMPY_KINDS:
        raise CodecError(f"不支持的 numpy dtype {text!r}")
    return dtype


def _import(path: Any) -> Any:
    if not isinstance(path, str) or ":" not in path:
        raise CodecError("消息格式不对 (import path)")
    module_name, _, qualname = path.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def view_of(storage: torch.UntypedStorage, body: dict, limits: Limits = DEFAULT_LIMITS) -> torch.Tensor:
    """A plain tensor over ``storage`` with the dtype, shape, stride and offset in ``body``, all checked."""
    dtype = DTYPES.get(body.get("dtype"))
    shape, stride, offset = body.get("shape"), body.get("stride"), body.get("offset")
    if dtype is None:
        raise CodecError(f"不支持的 dtype {body.get('dtype')!r}")
    if not (isinstance(shape, list) and isinstance(stride, list) and len(shape) == len(stride) <= limits.max_dims):
        raise CodecError("张量的形状 (shape) / 步长 (stride) 不对")
    if not all(_nonneg_int(v) for v in [*shape, *stride, offset]):
        raise CodecError("张量的形状 / 步长 / 偏移必须是非负整数")
    itemsize = torch.empty(0, dtype=dtype).element_size()
    numel = math.prod(shape)
    if numel:
        last = offset + sum((n - 1) * s for n, s in zip(shape, stride))
        if (last + 1) * itemsize > storage.nbytes():
            raise CodecError("张量超出了它的存储范围 (out of storage bounds)")
    if numel * itemsize > limits.max_bytes:
        raise CodecError("张量太大")
    if body.get("inference"):
        with torch.inference_mode():  # only a tensor made in inference mode is an inference tensor
            return torch.empty(0, dtype=dtype, device=storage.device).set_(storage, offset, shape, stride)
    return torch.empty(0, dtype=dtype, device=storage.device).set_(storage, offset, shape, stride)


def _with_autograd(t: torch.Tensor, body: dict) -> torch.Tensor:
    """Give a rebuilt tensor the facts it had: requires_grad, leaf or not, inference tensor, Parameter."""
    rg, leaf, inference = bool(body.get("rg")), bool(body.get("leaf", True)), bool(body.get("inference"))
    if rg and not (t.is_floating_point() or t.is_complex()):
        raise CodecError("整数 / bool 张量不能 requires_grad")
    if inference:
        if rg:
            raise CodecError("inference tensor 不能 requires_grad")
        return t
    if body.get("param"):
        return nn.Parameter(t, requires_grad=rg)
    if rg and leaf:
        return t.requires_grad_(True)
    if rg:
        base = t.requires_grad_(True)
        out = base.view_as(base)  # not a leaf, shares the storage; its grad_fn stands for the learner's
        name = body.get("grad_fn")
        if isinstance(name, str):
            remote.note_grad_fn(out, name[:80])
        return out
    return t


def set_grad(t: torch.Tensor, g: Any) -> None:
    if g is not None and not isinstance(g, torch.Tensor):
        raise CodecError(".grad 必须是张量或 None")
    try:
        t.grad = g
    except (RuntimeError, TypeError) as exc:
        raise CodecError(f".grad 与参数不匹配：{str(exc).splitlines()[0][:200]}") from None


_HOOK_TEMPLATE = {k: v for k, v in vars(nn.Module()).items() if "hook" in k}


def fresh_hooks(module: nn.Module) -> None:
    """Empty hook tables, as a new module has (hooks are code: they never travel)."""
    for key, value in _HOOK_TEMPLATE.items():
        setattr(module, key, type(value)() if isinstance(value, dict) else value)


def check_module_state(cls: type, state: Any) -> dict[str, Any]:
    """A learner-sent module's attributes: data, tensors and modules where torch keeps them, no method shadowed."""
    if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
        raise CodecError("模型的属性 (module state) 格式不对")
    for key, value in state.items():
        if (
            key.startswith("__")
            or "hook" in key
            or (callable(getattr(cls, key, None)) and not isinstance(getattr(cls, key, None), type))
        ):
            raise CodecError(f"模型的属性 {key!r} 会覆盖方法或 hook，评分器不接收")
        if key in ("_parameters", "_buffers", "_modules"):
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                raise CodecError(f"模型的 {key} 格式不对")
            want = {"_parameters": nn.Parameter, "_buffers": torch.Tensor, "_modules": nn.Module}[key]
            if not all(v is None or isinstance(v, want) for v in value.values()):
                raise CodecError(f"模型的 {key} 里有不对的类型")
        elif isinstance(value, (torch.optim.Optimizer, torch.Generator)):
            raise CodecError(f"模型的属性 {key!r} 的类型不对")
    if not isinstance(state.get("training", True), bool):
        raise CodecError("模型的 training 必须是 bool")
    return state


def check_optimizer_state(state: Any) -> dict[str, Any]:
    """A learner-sent optimizer: defaults, state and param_groups (with tensors as params), nothing else."""
    if not isinstance(state, dict) or not set(state) <= OPTIMIZER_KEYS or "param_groups" not in state:
        raise CodecError("优化器的状态 (optimizer state) 格式不对")
    groups = state["param_groups"]
    if not isinstance(groups, list) or not all(
        isinstance(g, dict) and isinstance(g.get("params"), list) for g in groups
    ):
        raise CodecError("优化器的 param_groups 格式不对")
    if not all(isinstance(p, torch.Tensor) for g in groups for p in g["params"]):
        raise CodecError("优化器的 params 必须是张量")
    if not isinstance(state.get("state", {}), dict) or not isinstance(state.get("defaults", {}), dict):
        raise CodecError("优化器的状态格式不对")
    state.setdefault("defaults", {})
    state["state"] = collections.defaultdict(dict, state.get("state", {}))
    return state


_DECODERS: dict[str, Callable[[Decoder, dict, int], Any]] = {
    "$float": Decoder._float,
    "$complex": Decoder._complex,
    "$ref": Decoder._ref,
    "$arg": Decoder._arg,
    "$tuple": Decoder._tuple,
    "$list": Decoder._list,
    "$dict": Decoder._dict,
    "$set": Decoder._set,
    "$bytes": Decoder._bytes,
    "$size": Decoder._size,
    "$dtype": Decoder._dtype,
    "$device": Decoder._device,
    "$slice": Decoder._slice,
    "$range": Decoder._range,
    "$ellipsis": Decoder._ellipsis,
    "$ndarray": Decoder._ndarray,
    "$npscalar": Decoder._npscalar,
    "$storage": Decoder._storage,
    "$tensor": Decoder._tensor,
    "$generator": Decoder._generator,
    "$module": Decoder._module,
    "$optim": Decoder._optim,
    "$fn": Decoder._fn,
    "$partial": Decoder._partial,
    "$iter": Decoder._iter,
    "$learner": Decoder._learner,
    "$handle": Decoder._handle,
}
