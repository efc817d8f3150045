"""Hooks a call leaves behind on the modules and optimizers it was given.

A function that registers a hook on the caller's model (``model.register_forward_hook(print_shape)``) and
never calls ``handle.remove()`` changes that model for good: every later forward runs the hook again, and
each call adds one more. :func:`snapshot` notes the hooks of every module among a call's arguments (its
submodules and parameters too); :func:`left_behind` says what the call added and takes it off again, so the
caller's later steps run as they would. Process-wide module hooks are a watched setting instead
(``course.settings``).
"""

from __future__ import annotations

import functools
import types
from typing import Any

import torch
from torch import nn

# The hook tables of one module, each an OrderedDict keyed by the handle's id, with what each holds.
_MODULE_TABLES = {
    "_forward_pre_hooks": "forward pre-hook（register_forward_pre_hook）",
    "_forward_hooks": "forward hook（register_forward_hook）",
    "_backward_pre_hooks": "backward pre-hook（register_full_backward_pre_hook）",
    "_backward_hooks": "backward hook（register_full_backward_hook / register_backward_hook）",
    "_state_dict_pre_hooks": "state_dict pre-hook",
    "_state_dict_hooks": "state_dict hook",
    "_load_state_dict_pre_hooks": "load_state_dict pre-hook",
    "_load_state_dict_post_hooks": "load_state_dict post-hook",
}
# Side tables keyed by the same handle ids (flags of a forward hook); cleaned with the hook they belong to.
_SIDE_TABLES = ("_forward_hooks_with_kwargs", "_forward_hooks_always_called", "_forward_pre_hooks_with_kwargs")
_OPTIMIZER_TABLES = {
    "_optimizer_step_pre_hooks": "step pre-hook（optimizer.register_step_pre_hook）",
    "_optimizer_step_post_hooks": "step post-hook（optimizer.register_step_post_hook）",
    "_optimizer_state_dict_pre_hooks": "state_dict pre-hook（optimizer.register_state_dict_pre_hook）",
    "_optimizer_state_dict_post_hooks": "state_dict post-hook（optimizer.register_state_dict_post_hook）",
    "_optimizer_load_state_dict_pre_hooks": "load_state_dict pre-hook（optimizer.register_load_state_dict_pre_hook）",
    "_optimizer_load_state_dict_post_hooks": "load_state_dict post-hook（optimizer.register_load_state_dict_post_hook）",
}
_TENSOR_TABLES = {
    "_backward_hooks": "梯度 hook（register_hook）",
    "_post_accumulate_grad_hooks": "post-accumulate-grad hook（register_post_accumulate_grad_hook）",
}

Snapshot = list[tuple[str, Any, str, frozenset]]

HOOKS_LEFT = "register_*_hook()（调用者传入的模块上）"  # told as one setting (course.settings.message)
METHOD_REPLACED = "模块的方法（module.train = ...）"
_CODE = (types.FunctionType, types.MethodType, types.BuiltinFunctionType, functools.partial)
_ATTRIBUTES = "__dict__"  # the table name under which snapshot notes a module's own attributes that are code
_CLASS = "__class__"  # ... and under which it notes a module's class (``m.__class__ = Subclass`` swaps its methods)
_SETTINGS = "__settings__"  # ... and its plain settings (``loss_fn.reduction``, ``dropout.p``, ``relu.inplace``)
ATTRIBUTE_CHANGED = "模块的设置（loss_fn.reduction = ...）"
_PLAIN = (str, int, float, bool, type(None))


def _modules_in(value: Any, found: list[Any]) -> list[Any]:
    """The modules and optimizers in ``value`` (inside lists, tuples and dicts too), each once."""
    if isinstance(value, (nn.Module, torch.optim.Optimizer)):
        if all(value is not m for m in found):
            found.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _modules_in(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            _modules_in(v, found)
    return found


def _tables(owners: list[Any]) -> list[tuple[str, Any, str]]:
    """(where, owner, table name) for every hook table of the modules (their submodules and parameters too) and
    of the optimizers (and the parameters they update)."""
    tables: list[tuple[str, Any, str]] = []
    seen: set[int] = set()
    for owner in owners:
        if isinstance(owner, torch.optim.Optimizer):
            tables += [(type(owner).__name__, owner, t) for t in _OPTIMIZER_TABLES if hasattr(owner, t)]
            for g, group in enumerate(owner.param_groups):
                for i, p in enumerate(group["params"]):
                    if isinstance(p, torch.Tensor) and id(p) not in seen:
                        seen.add(id(p))
                        tables += [(f"param_groups[{g}]['params'][{i}]", p, t) for t in _TENSOR_TABLES]
            continue
        module = owner
        for name, sub in module.named_modules(remove_duplicate=False):
            if id(sub) not in seen:
                seen.add(id(sub))
                tables += [(name or type(sub).__name__, sub, t) for t in _MODULE_TABLES if hasattr(sub, t)]
        for name, p in module.named_parameters(remove_duplicate=False):
            if id(p) not in seen:
                seen.add(id(p))
                tables += [(name, p, t) for t in _TENSOR_TABLES]
    return tables


def _keys(owner: Any, table: str) -> frozenset:
    hooks = getattr(owner, table, None)
    return frozenset(hooks) if hooks else frozenset()


def _code_attributes(module: nn.Module) -> dict[str, Any]:
    """name -> value for every function, method, partial or other callable object (not a module or a tensor) set
    on ``module`` itself (``module.train = f``, ``object.__setattr__(m, "train", StayEval())``)."""
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, _CODE) or (callable(value) and not isinstance(value, (nn.Module, torch.Tensor)))
    }


def _plain_attributes(module: nn.Module) -> dict[str, Any]:
    """name -> value of the module's settings: what torch's own classes declare in ``__constants__`` (a loss's
    ``reduction`` / ``ignore_index``, Dropout's ``p`` / ``inplace``, BatchNorm's ``eps`` / ``momentum``) and hold as a
    str, number, bool or None. (A course probe's counters are no setting: its classes declare none.)"""
    declared = {
        name
        for cls in type(module).__mro__
        if cls.__module__.startswith("torch.")
        for name in getattr(cls, "__constants__", ())
    }
    return {name: value for name, value in vars(module).items() if name in declared and isinstance(value, _PLAIN)}


def snapshot(values: Any) -> Snapshot:
    """The hooks on every module found in ``values`` (arguments: modules inside lists, tuples and dicts too),
    and the functions set on each module as its own attributes."""
    owners = _modules_in(values, [])
    noted = [(where, owner, table, _keys(owner, table)) for where, owner, table in _tables(owners)]
    modules = {id(m): (name, m) for o in owners if isinstance(o, nn.Module) for name, m in o.named_modules()}
    named = [(name or type(m).__name__, m) for name, m in modules.values()]
    return (
        noted
        + [(where, m, _ATTRIBUTES, _code_attributes(m)) for where, m in named]
        + [(where, m, _CLASS, type(m)) for where, m in named]
        + [(where, m, _SETTINGS, _plain_attributes(m)) for where, m in named]
    )


def left_on_callers(before: Snapshot) -> tuple[str, str] | None:
    """(:data:`HOOKS_LEFT` or :data:`METHOD_REPLACED`, what was left) when the call left a hook or put a function
    of its own in place of a module's method since ``before``; both are taken off again."""
    hook, replaced, changed = left_behind(before), replaced_methods(before), changed_settings(before)
    if hook:
        return HOOKS_LEFT, hook
    return (METHOD_REPLACED, replaced) if replaced else (ATTRIBUTE_CHANGED, changed) if changed else None


def changed_settings(before: Snapshot) -> str:
    """Which of a module's settings (:func:`_plain_attributes`) the call changed or deleted since ``before`` ('' if
    none), e.g. ``"MSELoss.reduction 从 'mean' 变成了 'sum'"``; each is put back."""
    found = ""
    for where, module, table, was in before:
        if table != _SETTINGS:
            continue
        now = _plain_attributes(module)
        for name in sorted(
            n for n, value in was.items() if n not in now or now[n] != value or type(now[n]) is not type(value)
        ):
            shown = repr(now[name]) if name in now else "（被删掉了）"
            found = found or f"{where}.{name} 从 {was[name]!r} 变成了 {shown}"
            setattr(module, name, was[name])
    return found


def replaced_methods(before: Snapshot) -> str:
    """Which module attribute the call set to a function of its own since ``before`` ('' if none), e.g.
    ``"backbone.train"``; each is put back (or deleted, so the class's method answers again)."""
    found = ""
    for where, module, table, was in before:
        if table == _CLASS and type(module) is not was:
            found = found or f"{where}.__class__"
            module.__class__ = was
        if table != _ATTRIBUTES:
            continue
        now = _code_attributes(module)
        for name in sorted(n for n, value in now.items() if was.get(n, _CLASS) is not value):
            found = found or f"{where}.{name}"
            if name in was:
                object.__setattr__(module, name, was[name])
            else:
                object.__delattr__(module, name)
    return found


def left_behind(before: Snapshot) -> str:
    """What the call added to the hooks noted in ``before`` ('' if nothing), e.g. ``"fc 上多了 1 个 forward hook
    （register_forward_hook）"``; the added hooks are removed again."""
    found = ""
    for where, owner, table, keys in before:
        if table in (_ATTRIBUTES, _CLASS, _SETTINGS):
            continue
        hooks = getattr(owner, table, None)
        added = [k for k in (hooks or {}) if k not in keys]
        if not added:
            continue
        kind = (_TENSOR_TABLES if isinstance(owner, torch.Tensor) else {**_MODULE_TABLES, **_OPTIMIZER_TABLES})[table]
        found = found or f"{where} 上多了 {len(added)} 个 {kind}"
        for key in added:
            del hooks[key]
            for side in _SIDE_TABLES if isinstance(owner, nn.Module) else ():
                getattr(owner, side, {}).pop(key, None)
    return found
