"""One call from the judge into the learner process: the request, the reply, and the in-place updates.

The judge encodes the arguments (``Request``), the learner decodes them, runs the call and answers with
the result and the new state of every argument it changed (``Incoming.reply``); the judge applies those
updates to its own objects, so in-place writes, ``.grad`` and module or optimizer state look exactly as
if the call had run in the judge (``Request.outcome``).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

from autograder.child.codec import (
    CodecError,
    Decoder,
    Handle,
    JudgeDecoder,
    JudgeEncoder,
    LearnerDecoder,
    LearnerEncoder,
    MessageLimits,
    NotData,
    check_module_state,
    plain_extra,
    set_grad,
    storage_bytes,
)
from course.checks import SettingChanged


class LearnerError(Exception):
    """An exception raised by learner code, rebuilt in the judge from its type name and message."""


class ReplyError(LearnerError):
    """The learner's reply could not be accepted (not data, too large, malformed)."""


_ERROR_CLASSES: dict[tuple[str, str], type[BaseException]] = {}


def builtin_base(exc: BaseException) -> str:
    """The name of the nearest built-in exception class ``exc`` is an instance of (``ValueError`` for a learner's
    ``class NotTrainedYet(ValueError)``), so that the judge's ``pytest.raises(ValueError)`` sees what the kernel's does."""
    for cls in type(exc).__mro__:
        if getattr(builtins, cls.__name__, None) is cls:
            return cls.__name__
    return "Exception"


def _builtin_exception(name: str) -> type[Exception] | None:
    builtin = getattr(builtins, name, None)
    if isinstance(builtin, type) and issubclass(builtin, Exception) and not issubclass(builtin, Warning):
        return builtin
    return None


def rebuild_error(name: Any, message: Any, base: Any = "Exception") -> BaseException:
    """A judge-side exception for a learner's (type name, message, nearest built-in base): built-in types by name;
    else a LearnerError of that name that is also an instance of its built-in base (``ValueError``)."""
    name = str(name)[:100] if name else "Exception"
    message = str(message)[:4000]
    builtin = _builtin_exception(name)
    if builtin is not None:
        try:
            return mark_learners(builtin(message))
        except TypeError:  # built-ins with other constructors (UnicodeDecodeError, ...)
            pass
    parent = _builtin_exception(str(base)[:100]) or Exception
    key, label = (name, parent.__name__), name if name.isidentifier() else "LearnerError"
    if key not in _ERROR_CLASSES:
        try:
            _ERROR_CLASSES[key] = type(label, (LearnerError, parent), {})
        except TypeError:  # a base whose layout does not mix (OSError): the name alone
            _ERROR_CLASSES[key] = type(label, (LearnerError,), {})
    try:
        return mark_learners(_ERROR_CLASSES[key](message))
    except TypeError:
        return mark_learners(type(label, (LearnerError,), {})(message))


LEARNERS = "__raised_by_learner__"


def mark_learners(exc: BaseException) -> BaseException:
    """Mark an exception as the learner's (its name and text are the learner's to choose): the grader's
    wording is then chosen from this mark, never from the exception's name."""
    setattr(exc, LEARNERS, True)
    return exc


def raised_by_learner(exc: BaseException) -> bool:
    return isinstance(exc, LearnerError) or bool(getattr(exc, LEARNERS, False))


# ---------------------------------------------------------------------------------------------------
# Judge side


@dataclass
class Request:
    """A call the judge is about to send: its header and buffers, and the objects it sent by number."""

    header: dict[str, Any]
    buffers: list[Any]
    sent: dict[int, Any]

    @classmethod
    def make(cls, op: str, target: list[Any], args: tuple = (), kwargs: dict | None = None, **extra: Any) -> Request:
        enc = JudgeEncoder()
        tree = enc.encode((tuple(args), dict(kwargs or {})))
        header = {"op": op, "target": target, "args": tree, **extra}
        return cls(header, enc.buffers, enc.objects)

    def outcome(
        self, header: dict[str, Any], buffers: list[bytearray], remote: Callable[[Handle], Any], limits: MessageLimits
    ) -> tuple[Any, list[tuple[str, str]], str]:
        """Apply the reply's updates, then return (value, warnings, stdout) or raise the learner's error."""
        dec = JudgeDecoder(buffers, known=self.sent, remote=remote, limits=limits)
        try:
            self._apply_storages(dec, header.get("storages", []))
            for number, tree in _pairs(header.get("updates", [])):
                obj = self.sent.get(number)
                if obj is None:
                    raise CodecError("更新了请求里不存在的对象")
                apply_state(obj, dec.decode(tree))
            for number in header.get("written", []):
                obj = self.sent.get(number)
                if not isinstance(obj, torch.Tensor):
                    raise CodecError("消息格式不对 (written)")
                torch.autograd.graph.increment_version(obj)
            warnings = [(str(c)[:100], str(m)[:2000]) for c, m in _pairs(header.get("warnings", []))]
            stdout = str(header.get("stdout", ""))[:100_000]
            error = header.get("error")
            if error is not None and (not isinstance(error, list) or len(error) not in (2, 3)):
                raise CodecError("消息格式不对 (error)")
            value = None if error is not None else dec.decode(header.get("value"))
            setting = header.get("setting")
            if setting is not None and not (isinstance(setting, list) and len(setting) == 2):
                raise CodecError("消息格式不对 (setting)")
        except Exception as exc:  # noqa: BLE001 - anything the judge cannot rebuild fails this call only
            raise ReplyError(f"返回值无法交给评分器 (not data)：{str(exc)[:300]}") from None
        if setting is not None:  # found by the learner process's own code, not by the learner's
            raise SettingChanged(str(setting[0])[:200], str(setting[1])[:300])
        if error is not None:
            raise rebuild_error(*error)
        return value, warnings, stdout

    def _apply_storages(self, dec: Decoder, pairs: Any) -> None:
        for number, index in _pairs(pairs):
            storage = self.sent.get(number)
            if not isinstance(storage, torch.UntypedStorage):
                raise CodecError("更新了请求里不存在的存储 (storage)")
            data = dec._buf(index)
            if len(data) != storage.nbytes():
                raise CodecError("存储 (storage) 的大小变了：不要对输入调用 resize_()")
            target = torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)
            target.copy_(torch.frombuffer(data, dtype=torch.uint8) if len(data) else torch.empty(0, dtype=torch.uint8))


def _pairs(value: Any) -> list[tuple[Any, Any]]:
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        raise CodecError("消息格式不对 (pairs)")
    return [tuple(p) for p in value]


def apply_state(obj: Any, new: Any) -> None:
    """Make the judge's ``obj`` look like the learner's version of it after the call (``new``, rebuilt here)."""
    if isinstance(obj, torch.Tensor):
        if not isinstance(new, torch.Tensor):
            raise CodecError("张量的更新不是张量")
        same = (
            obj.dtype == new.dtype
            and obj.device == new.device
            and obj.untyped_storage().data_ptr() == new.untyped_storage().data_ptr()
            and obj.storage_offset() == new.storage_offset()
            and obj.shape == new.shape
            and obj.stride() == new.stride()
        )
        if not same:
            obj.data = new.detach()
        if obj.is_leaf and obj.requires_grad != new.requires_grad:
            obj.requires_grad_(new.requires_grad)
        if not obj.is_leaf and not new.requires_grad:  # the learner's detach_() of a tensor with a graph
            try:
                obj.detach_()
            except RuntimeError:  # a view of the judge's own: the learner's copy was not one, nothing to mirror
                pass
        if obj.is_leaf:
            set_grad(obj, new._grad)
    elif isinstance(obj, nn.Module):
        if not isinstance(new, nn.Module) or type(new) is not type(obj):
            raise CodecError("模型的更新类型不对")
        state = {k: v for k, v in vars(new).items() if "hook" not in k}
        vars(obj).update(check_module_state(type(obj), state))
    elif isinstance(obj, torch.optim.Optimizer):
        if not isinstance(new, torch.optim.Optimizer) or type(new) is not type(obj):
            raise CodecError("优化器的更新类型不对")
        for key in ("defaults", "state", "param_groups"):
            setattr(obj, key, getattr(new, key))
        for key, value in vars(new).items():  # the learner's own plain attributes (a step counter), as data
            if key not in ("defaults", "state", "param_groups") and plain_extra(type(obj), key, value):
                setattr(obj, key, value)
    elif isinstance(obj, torch.Generator):
        if not isinstance(new, torch.Generator):
            raise CodecError("Generator 的更新类型不对")
        obj.set_state(new.get_state())
    elif isinstance(obj, list):
        if not isinstance(new, list):
            raise CodecError("list 的更新类型不对")
        obj[:] = new
    elif isinstance(obj, dict):
        if not isinstance(new, dict):
            raise CodecError("dict 的更新类型不对")
        obj.clear()
        obj.update(new)


# ---------------------------------------------------------------------------------------------------
# Learner side


@dataclass
class Incoming:
    """A decoded request in the learner process, with what is needed to report changes after the call."""

    args: tuple
    kwargs: dict
    objects: dict[int, Any]
    storages: dict[int, tuple[torch.UntypedStorage, bytes | None]]
    before: dict[int, Any] = field(default_factory=dict)
    versions: dict[int, int] = field(default_factory=dict)  # tensors' version counters before the call

    @classmethod
    def read(cls, header: dict[str, Any], buffers: list[bytearray], resolve: Callable[[list[Any]], Any]) -> Incoming:
        dec = LearnerDecoder(buffers, resolve=resolve)
        args, kwargs = dec.decode(header.get("args", {"$tuple": [{"$tuple": []}, {"$dict": [], "kind": "dict"}]}))
        incoming = cls(tuple(args), dict(kwargs), dec.objects, dec.storages)
        incoming.before = {n: _fingerprint(obj) for n, obj in incoming.objects.items()}
        incoming.versions = {n: t._version for n, t in incoming.objects.items() if isinstance(t, torch.Tensor)}
        return incoming

    def reply(self, handles: list[Any], *, value: Any = None, error: BaseException | None = None, **extra: Any):
        """(header, buffers) for the judge: the value (or error) and the updates of changed arguments."""
        known: dict[Any, int] = {}
        for number, obj in self.objects.items():
            if isinstance(obj, torch.UntypedStorage):
                key = (str(obj.device), obj.data_ptr()) if obj.nbytes() and obj.device.type != "meta" else None
                if key is not None:
                    known[key] = number
            else:
                known[id(obj)] = number
        enc = LearnerEncoder(known=known, handles=handles)
        header: dict[str, Any] = dict(extra)
        updates, storages = [], []
        for number, (storage, original) in self.storages.items():
            if original is not None:
                current = bytes(storage_bytes(storage))
                if current != original:
                    storages.append([number, len(enc.buffers)])
                    enc.buffers.append(current)
        for number, obj in self.objects.items():
            if isinstance(obj, torch.UntypedStorage) or _fingerprint(obj) == self.before.get(number):
                continue
            try:
                updates.append([number, enc.state(obj)])
            except NotData as exc:
                error = error or ReplyError(f"参数被改成了评分器无法接收的值：{exc}")
        header["updates"], header["storages"] = updates, storages
        # tensors an in-place op wrote during the call, even one that put the values back: the judge's copies
        # get their version counters moved too, so a check there sees what a graph that saved them would
        header["written"] = [n for n, v in self.versions.items() if self.objects[n]._version != v]
        if error is not None:
            header["error"] = [type(error).__name__, str(error)[:4000], builtin_base(error)]
        else:
            try:
                header["value"] = enc.encode(value)
            except CodecError as exc:
                header["error"] = ["ReplyError", f"返回值无法交给评分器 (not data)：{exc}"]
        return header, enc.buffers


def _fingerprint(obj: Any) -> Any:
    """What must stay the same for ``obj`` to need no update (identities of its parts, tensor metadata)."""
    if isinstance(obj, torch.Tensor):
        grad = obj._grad if obj.is_leaf else None
        return (
            obj.untyped_storage().data_ptr(),
            obj.storage_offset(),
            tuple(obj.shape),
            obj.stride(),
            obj.dtype,
            obj.requires_grad,
            id(grad),
        )
    if isinstance(obj, list):
        return tuple(id(v) for v in obj)
    if isinstance(obj, dict):
        return tuple((k if isinstance(k, (str, int)) else id(k), id(v)) for k, v in obj.items())
    if isinstance(obj, (nn.Module, torch.optim.Optimizer)):
        return tuple((k, id(v)) for k, v in vars(obj).items())
    if isinstance(obj, torch.Generator):
        return bytes(obj.get_state().numpy())
    return None
