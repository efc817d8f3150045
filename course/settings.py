"""The process-wide settings a graded function must leave as it found them.

A learner's function that calls ``torch.set_default_dtype``, ``warnings.filterwarnings`` or
``torch.set_float32_matmul_precision`` changes every line its caller runs after it. Every call of a learner's
function is watched where it runs: in a notebook kernel by ``course.checks.call_learner``, in the grader by
the learner process around each call (the judge gets the change as a field of the reply, never from text).
Either way the setting is put back at once, so later checks run as they would have.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch._tensor_str import PRINT_OPTS


def _set_attr(owner: Any, name: str) -> Callable[[Any], None]:
    return lambda value: setattr(owner, name, value)


class _Filters(tuple):
    """``warnings.filters``, compared by their blanket entries for Python's own categories (no message or
    module pattern), the ones ``filterwarnings("ignore")`` / ``simplefilter("ignore", UserWarning)`` add: a
    library that Python imports during a call may add filters of its own (SymPy adds ``("once",
    SymPyDeprecationWarning)``), which are not the learner's doing."""

    def blanket(self) -> list[Any]:
        return [e for e in self if e[1] is None and e[3] is None and getattr(e[2], "__module__", "") == "builtins"]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Filters) and self.blanket() == other.blanket()

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


def _set_filters(value: _Filters) -> None:
    warnings.filters[:] = list(value)
    warnings._filters_mutated()  # type: ignore[attr-defined]  # as warnings.filterwarnings does


# Each setting as what the learner would have typed to change it: (read, restore). Read values compare with
# ``==`` (functions, such as showwarning, by identity).
SETTINGS: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {
    "torch.set_grad_enabled()": (torch.is_grad_enabled, torch.set_grad_enabled),
    "torch.set_default_dtype()": (torch.get_default_dtype, torch.set_default_dtype),
    "torch.set_default_device()": (torch.get_default_device, torch.set_default_device),
    "torch.use_deterministic_algorithms()": (
        lambda: (torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()),
        lambda v: torch.use_deterministic_algorithms(v[0], warn_only=v[1]),
    ),
    "torch.autograd.set_detect_anomaly()": (
        lambda: (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()),
        lambda v: torch.set_anomaly_enabled(*v),
    ),
    "torch.set_float32_matmul_precision()": (torch.get_float32_matmul_precision, torch.set_float32_matmul_precision),
    "torch.set_num_threads()": (torch.get_num_threads, torch.set_num_threads),
    "torch.set_autocast_enabled()": (
        lambda: (torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled("cuda")),
        lambda v: (torch.set_autocast_enabled("cpu", v[0]), torch.set_autocast_enabled("cuda", v[1])),
    ),
    "torch.set_warn_always()": (torch.is_warn_always_enabled, torch.set_warn_always),
    "torch.autograd.set_multithreading_enabled()": (
        torch._C._is_multithreading_enabled,
        torch._C._set_multithreading_enabled,
    ),
    "torch.backends.mkldnn.enabled": (
        lambda: torch.backends.mkldnn.enabled,
        _set_attr(torch.backends.mkldnn, "enabled"),
    ),
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction": (
        lambda: torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
        _set_attr(torch.backends.cuda.matmul, "allow_fp16_reduced_precision_reduction"),
    ),
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction": (
        lambda: torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction,
        _set_attr(torch.backends.cuda.matmul, "allow_bf16_reduced_precision_reduction"),
    ),
    "torch.backends.cuda.matmul.allow_tf32": (
        lambda: torch.backends.cuda.matmul.allow_tf32,
        _set_attr(torch.backends.cuda.matmul, "allow_tf32"),
    ),
    "torch.backends.cudnn.allow_tf32": (
        lambda: torch.backends.cudnn.allow_tf32,
        _set_attr(torch.backends.cudnn, "allow_tf32"),
    ),
    "torch.backends.cudnn.benchmark": (
        lambda: torch.backends.cudnn.benchmark,
        _set_attr(torch.backends.cudnn, "benchmark"),
    ),
    "torch.backends.cudnn.deterministic": (
        lambda: torch.backends.cudnn.deterministic,
        _set_attr(torch.backends.cudnn, "deterministic"),
    ),
    "torch.backends.cudnn.enabled": (lambda: torch.backends.cudnn.enabled, _set_attr(torch.backends.cudnn, "enabled")),
    "torch.set_printoptions()": (lambda: dict(vars(PRINT_OPTS)), lambda v: vars(PRINT_OPTS).update(v)),
    "warnings.filterwarnings() / warnings.simplefilter()": (lambda: _Filters(warnings.filters), _set_filters),
    "warnings.showwarning": (lambda: warnings.showwarning, _set_attr(warnings, "showwarning")),
    "numpy.seterr()": (np.geterr, lambda v: np.seterr(**v)),
}


def snapshot() -> dict[str, Any]:
    """Every setting's value now."""
    return {name: read() for name, (read, _) in SETTINGS.items()}


def restore_changed(before: dict[str, Any]) -> list[tuple[str, str]]:
    """Put back every setting that differs from ``before``; (setting, how it changed) for each, in
    ``SETTINGS`` order, e.g. ``[("torch.set_default_dtype()", "torch.float32 -> torch.float64")]``."""
    changed = []
    for name, (read, restore) in SETTINGS.items():
        now = read()
        if now != before[name]:
            changed.append((name, _change(before[name], now)))
            restore(before[name])
    return changed


def _change(before: Any, now: Any) -> str:
    if isinstance(before, _Filters):  # the entries added, not the whole list
        added = [(entry[0], entry[2].__name__) for entry in now.blanket() if entry not in before.blanket()]
        return f"新增 {added[:3]}" if added else f"{len(before.blanket())} 条 -> {len(now.blanket())} 条"
    if callable(before):
        return f"{getattr(before, '__qualname__', before)!s:.60} -> {getattr(now, '__qualname__', now)!s:.60}"
    return f"{before!r:.100} -> {now!r:.100}"


def message(setting: str, change: str) -> tuple[str, str]:
    """(what to tell the learner after "fn 返回之后，", mistake id) for a setting a call left changed."""
    if setting == "torch.set_grad_enabled()":
        return (
            (
                "grad mode 仍然关着 (torch.is_grad_enabled() 为 False)：torch.set_grad_enabled(False) 这样不带 with 的调用"
                "改的是全局设置，一直留到有人再打开它，调用者之后的训练不再建图，loss.backward() 会报错。"
                "真要不建图，用 with torch.no_grad(): 只关这一块。",
                "grad-mode-left-off",
            )
            if change.endswith("False")
            else (
                f"grad mode 变了（{change}）：torch.set_grad_enabled() 不带 with 改的是全局设置，调用者之后的每一步都跟着变。",
                "global-setting-changed",
            )
        )
    return (
        f"全局设置变了：{setting}（{change}）。这是整个进程的设置，会一直留到有人再改回来，"
        "调用者之后的每一步都跟着变。函数只该返回结果，不要改全局设置；真要临时改，"
        "用只管一个块的写法（with torch.no_grad(): / with warnings.catch_warnings(): 等）。",
        "global-setting-changed",
    )
