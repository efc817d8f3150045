"""Rebuilding values from a JSON tree and raw buffers, every rule checked; see ``autograder.child.codec``."""

from __future__ import annotations

import collections
import collections.abc
import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn

from autograder.child.codec.common import (
    DEFAULT_FACTORIES,
    DTYPES,
    MODULE_ROOTS,
    OPTIMIZER_EXTRA,
    OPTIMIZER_ROOTS,
    Handle,
    loaded_class,
    plain_extra,
)
from autograder.child.codec.rules import (
    check_module_state,
    check_optimizer_state,
    device_of,
    fresh_hooks,
    import_path,
    nonneg_int,
    numpy_dtype,
    set_grad,
    view_of,
    with_autograd,
)
from autograder.wire.protocol import DEFAULT_LIMITS, CodecError, MessageLimits


class Decoder:
    """Rebuild values from a tree and its buffers; every rule the sender could break is checked.

    What differs with the direction is in the two subclasses: :class:`JudgeDecoder` (what the judge
    accepts from the learner: the strict one) and :class:`LearnerDecoder` (what the learner's process
    rebuilds from the judge). Here, a tag only one direction may send is refused. ``known`` maps the
    request's numbers to the receiver's own objects (for ``$arg`` in replies).
    """

    def __init__(
        self, buffers: list[bytearray], *, known: dict[int, Any] | None = None, limits: MessageLimits = DEFAULT_LIMITS
    ) -> None:
        self.buffers = buffers
        self.known = known or {}
        self.limits = limits
        self.objects: dict[int, Any] = {}  # number -> object rebuilt here
        self.storages: dict[int, tuple[torch.UntypedStorage, bytes | None]] = {}  # number -> (storage, bytes)
        self._nodes = 0
        self._used: set[int] = set()
        self._inside_object = 0  # > 0 while rebuilding a module's or optimizer's attributes

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
        if not isinstance(tree, dict) or len(tree) > 4:  # a tag, its "kind", "id", a list or dict class "cls"
            raise CodecError("消息格式不对 (malformed value)")
        tag = next((k for k in tree if k.startswith("$")), None)
        handler = _DECODERS.get(tag) if tag else None
        if handler is None:
            raise CodecError(f"未知的值类型 {tag!r}")
        return getattr(self, handler)(tree, depth)

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
        out: list[Any] = self._register(tree, _subclass(tree, list)())
        out.extend(self._items(tree["$list"], depth))
        return out

    def _dict(self, tree: dict, depth: int) -> dict:
        kind = tree.get("kind", "dict")
        if kind == "dict":
            out: dict = _subclass(tree, dict)()
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
        if not isinstance(dims, list) or len(dims) > self.limits.max_dims or not all(nonneg_int(d) for d in dims):
            raise CodecError("消息格式不对 ($size)")
        return torch.Size(dims)

    def _dtype(self, tree: dict, depth: int) -> torch.dtype:
        name = tree["$dtype"]
        if name not in DTYPES:
            raise CodecError(f"不支持的 dtype {name!r}")
        return DTYPES[name]

    def _device(self, tree: dict, depth: int) -> torch.device:
        return device_of(tree["$device"])

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
        dtype = numpy_dtype(body.get("dtype"))
        shape = body.get("shape")
        if not isinstance(shape, list) or len(shape) > self.limits.max_dims or not all(nonneg_int(d) for d in shape):
            raise CodecError("消息格式不对 ($ndarray shape)")
        data = self._buf(body.get("buf"))
        if len(data) != math.prod(shape) * dtype.itemsize:
            raise CodecError("numpy 数组的字节数与形状不符")
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()

    def _npscalar(self, tree: dict, depth: int) -> np.generic:
        body = tree["$npscalar"]
        dtype = numpy_dtype(body.get("dtype"))
        data = self._buf(body.get("buf"))
        if len(data) != dtype.itemsize:
            raise CodecError("numpy 标量的字节数不对")
        return np.frombuffer(data, dtype=dtype)[0]

    def _storage(self, tree: dict, depth: int) -> torch.UntypedStorage:
        body = tree["$storage"]
        nbytes = body.get("nbytes")
        device = device_of(body.get("device"))
        if not nonneg_int(nbytes):
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
        t = with_autograd(view_of(storage, body, self.limits), body)
        self._register(tree, t)
        grad = body.get("grad")
        if grad is not None and t.is_leaf:
            set_grad(t, self.decode(grad, depth + 1))
        return t

    def _generator(self, tree: dict, depth: int) -> torch.Generator:
        body = tree["$generator"]
        device = device_of(body.get("device"))
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
        module.__setstate__(self._module_state(cls, self._object_state(body, depth)))
        fresh_hooks(module)
        return module

    def _optim(self, tree: dict, depth: int) -> torch.optim.Optimizer:
        body = tree["$optim"]
        cls = self._class(body.get("class"), torch.optim.Optimizer, OPTIMIZER_ROOTS)
        opt = cls.__new__(cls)
        self._register(tree, opt)
        state = self._optimizer_state(self._object_state(body, depth))
        extra = state.pop(OPTIMIZER_EXTRA, {}) if isinstance(state, dict) else {}
        opt.__setstate__(state)
        for name, value in extra.items():  # plain attributes its class does not define (checked for the judge)
            if plain_extra(cls, name, value):
                setattr(opt, name, value)
        return opt

    def _object_state(self, body: dict, depth: int) -> Any:
        """A module's or optimizer's attributes: data only, never a handle (the learner's code would run
        whenever the judge uses the rebuilt object)."""
        self._inside_object += 1
        try:
            return self.decode(body.get("state"), depth + 1)
        finally:
            self._inside_object -= 1

    # -- what one direction only may send: refused here, allowed by a subclass

    def _module_state(self, cls: type, state: Any) -> Any:
        raise CodecError("消息格式不对 ($module)")

    def _optimizer_state(self, state: Any) -> Any:
        raise CodecError("消息格式不对 ($optim)")

    def _class(self, path: Any, base: type, roots: tuple[str, ...]) -> type:
        raise CodecError("消息格式不对 (class)")

    def _fn(self, tree: dict, depth: int) -> Any:
        raise CodecError("消息格式不对 ($fn)")

    def _partial(self, tree: dict, depth: int) -> Any:
        raise CodecError("消息格式不对 ($partial)")

    def _iter(self, tree: dict, depth: int) -> Any:
        raise CodecError("消息格式不对 ($iter)")

    def _learner(self, tree: dict, depth: int) -> Any:
        raise CodecError("消息格式不对 ($learner)")

    def _handle(self, tree: dict, depth: int) -> Any:
        raise CodecError("消息格式不对 ($handle)")


class JudgeDecoder(Decoder):
    """What the judge accepts from the learner's process: the one decoder to audit.

    It never imports or calls anything the learner names: modules and optimizers must be of an allowed
    class already loaded, and their state passes ``check_module_state`` / ``check_optimizer_state``;
    function references ($fn, $partial) and iterators are refused; what is not data arrives as a
    ``$handle``, which ``remote`` turns into an object that calls back into the learner (never inside a
    module's or optimizer's attributes)."""

    def __init__(
        self,
        buffers: list[bytearray],
        *,
        known: dict[int, Any] | None = None,
        remote: Callable[[Handle], Any] | None = None,
        limits: MessageLimits = DEFAULT_LIMITS,
    ) -> None:
        super().__init__(buffers, known=known, limits=limits)
        self.remote = remote

    def _module_state(self, cls: type, state: Any) -> Any:
        return check_module_state(cls, state)

    def _optimizer_state(self, state: Any) -> Any:
        return check_optimizer_state(state)

    def _class(self, path: Any, base: type, roots: tuple[str, ...]) -> type:
        if not isinstance(path, str):
            raise CodecError("消息格式不对 (class)")
        cls = loaded_class(path, base, roots)
        if cls is None:
            raise CodecError(f"评分器不接收 {path} 类型的对象")
        return cls

    def _fn(self, tree: dict, depth: int) -> Any:
        raise CodecError("学习者一侧不能发送函数引用 ($fn)")

    def _partial(self, tree: dict, depth: int) -> Any:
        raise CodecError("学习者一侧不能发送函数引用 ($partial)")

    def _handle(self, tree: dict, depth: int) -> Any:
        body = tree["$handle"]
        if self.remote is None or not isinstance(body, dict):
            raise CodecError("消息格式不对 ($handle)")
        if self._inside_object:
            raise CodecError("模型或优化器的属性里有学习者的代码（函数、对象），评分器不接收")
        info = Handle(
            id=body.get("id"),
            type=str(body.get("type", "object"))[:100],
            callable=bool(body.get("callable")),
            repr=str(body.get("repr", ""))[:200],
        )
        if not nonneg_int(info.id):
            raise CodecError("消息格式不对 ($handle id)")
        return self.remote(info)


class LearnerDecoder(Decoder):
    """What the learner's process rebuilds from the judge: classes and functions by import path (named
    fixtures in ``course/``), iterators, and ``$learner`` targets, which ``resolve`` turns into the
    learner's own objects."""

    def __init__(
        self,
        buffers: list[bytearray],
        *,
        known: dict[int, Any] | None = None,
        resolve: Callable[[list[Any]], Any] | None = None,
        limits: MessageLimits = DEFAULT_LIMITS,
    ) -> None:
        super().__init__(buffers, known=known, limits=limits)
        self.resolve = resolve

    def _module_state(self, cls: type, state: Any) -> Any:
        return state

    def _optimizer_state(self, state: Any) -> Any:
        return state

    def _class(self, path: Any, base: type, roots: tuple[str, ...]) -> type:
        if not isinstance(path, str):
            raise CodecError("消息格式不对 (class)")
        return import_path(path)

    def _fn(self, tree: dict, depth: int) -> Any:
        return import_path(tree["$fn"])

    def _partial(self, tree: dict, depth: int) -> Any:
        body = tree["$partial"]
        return functools.partial(
            self.decode(body["fn"], depth + 1),
            *self.decode(body["args"], depth + 1),
            **self.decode(body["kwargs"], depth + 1),
        )

    def _iter(self, tree: dict, depth: int) -> Any:
        return (item for item in self._items(tree["$iter"], depth))

    def _learner(self, tree: dict, depth: int) -> Any:
        if self.resolve is None:
            raise CodecError("消息格式不对 ($learner)")
        return self.resolve(tree["$learner"])


_DECODERS: dict[str, str] = {  # tag -> the method that rebuilds it (a subclass may override it)
    "$float": "_float",
    "$complex": "_complex",
    "$ref": "_ref",
    "$arg": "_arg",
    "$tuple": "_tuple",
    "$list": "_list",
    "$dict": "_dict",
    "$set": "_set",
    "$bytes": "_bytes",
    "$size": "_size",
    "$dtype": "_dtype",
    "$device": "_device",
    "$slice": "_slice",
    "$range": "_range",
    "$ellipsis": "_ellipsis",
    "$ndarray": "_ndarray",
    "$npscalar": "_npscalar",
    "$storage": "_storage",
    "$tensor": "_tensor",
    "$generator": "_generator",
    "$module": "_module",
    "$optim": "_optim",
    "$fn": "_fn",
    "$partial": "_partial",
    "$iter": "_iter",
    "$learner": "_learner",
    "$handle": "_handle",
}


_SUBCLASSES: dict[tuple[str, type], type] = {}


def _subclass(tree: dict, base: type) -> type:
    """``base``, or for a learner's list or dict of its own class (``"cls": "Found"``) an empty subclass of that name:
    no code of the learner's, only its name (a check's ``isinstance`` holds and its message names the class)."""
    name = tree.get("cls")
    if name is None:
        return base
    if not isinstance(name, str) or not name.isidentifier() or len(name) > 64:
        raise CodecError("消息格式不对 (cls)")
    key = (name, base)
    if key not in _SUBCLASSES:
        _SUBCLASSES[key] = type(name, (base,), {"__module__": "learner", "__qualname__": name})
    return _SUBCLASSES[key]
