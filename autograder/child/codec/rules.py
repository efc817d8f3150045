"""What the judge accepts from the learner: tensor views inside their storage, autograd facts, module and
optimizer state that are data, devices and dtypes on the allowlists; see ``autograder.child.codec``."""

from __future__ import annotations

import collections
import importlib
import math
from typing import Any

import numpy as np
import torch
from torch import nn

from autograder.child.codec.common import DTYPES, NUMPY_KINDS, OPTIMIZER_EXTRA, OPTIMIZER_KEYS, plain_value
from autograder.wire.protocol import DEFAULT_LIMITS, CodecError, MessageLimits
from course import remote


def nonneg_int(value: Any) -> bool:
    return type(value) is int and value >= 0


def device_of(name: Any) -> torch.device:
    if not isinstance(name, str) or len(name) > 32:
        raise CodecError("消息格式不对 (device)")
    try:
        device = torch.device(name)
    except RuntimeError:
        raise CodecError(f"不认识的设备 {name!r}") from None
    if device.type not in ("cpu", "meta", "cuda", "mps"):
        raise CodecError(f"不支持的设备 {name!r}")
    return device


def numpy_dtype(text: Any) -> np.dtype:
    try:
        dtype = np.dtype(text) if isinstance(text, str) and len(text) < 8 else None
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind not in NUMPY_KINDS:
        raise CodecError(f"不支持的 numpy dtype {text!r}")
    return dtype


def import_path(path: Any) -> Any:
    if not isinstance(path, str) or ":" not in path:
        raise CodecError("消息格式不对 (import path)")
    module_name, _, qualname = path.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def view_of(storage: torch.UntypedStorage, body: dict, limits: MessageLimits = DEFAULT_LIMITS) -> torch.Tensor:
    """A plain tensor over ``storage`` with the dtype, shape, stride and offset in ``body``, all checked."""
    dtype = DTYPES.get(body.get("dtype"))
    shape, stride, offset = body.get("shape"), body.get("stride"), body.get("offset")
    if dtype is None:
        raise CodecError(f"不支持的 dtype {body.get('dtype')!r}")
    if not (isinstance(shape, list) and isinstance(stride, list) and len(shape) == len(stride) <= limits.max_dims):
        raise CodecError("张量的形状 (shape) / 步长 (stride) 不对")
    if not all(nonneg_int(v) for v in [*shape, *stride, offset]):
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


def with_autograd(t: torch.Tensor, body: dict) -> torch.Tensor:
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
        out = base * 1  # not a leaf; its grad_fn stands for the learner's
        with torch.no_grad():  # and the same memory, though not a view (as in the learner's kernel: detach_() works)
            out.set_(base.untyped_storage(), base.storage_offset(), base.shape, base.stride())
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
    members = {
        name
        for slot in ("_parameters", "_buffers", "_modules")
        if isinstance(state.get(slot), dict)
        for name in state[slot]
    }
    for key, value in state.items():
        # a torch module keeps nothing in its instance dict that its class defines (methods, hooks,
        # _compiled_call_impl, ...) but `training`; nor a name its parameters, buffers or submodules use
        if key.startswith("__") or "hook" in key or (hasattr(cls, key) and key != "training") or key in members:
            raise CodecError(f"模型的属性 {key!r} 会覆盖方法、hook 或参数，评分器不接收")
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
    if (
        not isinstance(state, dict)
        or not set(state) <= OPTIMIZER_KEYS | {OPTIMIZER_EXTRA}
        or "param_groups" not in state
    ):
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
    extra = state.get(OPTIMIZER_EXTRA, {})
    if not isinstance(extra, dict) or not all(isinstance(k, str) and not k.startswith("__") for k in extra):
        raise CodecError("优化器的属性格式不对")
    if not all(plain_value(v) for v in extra.values()):
        raise CodecError("优化器的属性只能是数、字符串、布尔值、None，或它们的 list / tuple / dict")
    state.setdefault("defaults", {})
    if not isinstance(state.get("state"), collections.defaultdict):  # the judge's own (a $ref) stays itself:
        state["state"] = collections.defaultdict(dict, state.get("state", {}))  # its own update may follow
    return state
