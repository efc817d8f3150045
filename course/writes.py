"""Writes a call makes into the memory of the tensors it was given, through any alias.

An in-place op on an input moves its version counter, and ``course.checks.call_learner`` sees that. A write
through ``x.data`` does not: ``.data`` is a tensor with a version counter of its own, so ``raw.data.sub_(1)``
and a later ``raw.data.add_(1)`` leave no trace, and a graph that saved ``raw`` meanwhile is silently wrong.
:class:`WriteWatch` sees every aten op whose schema says it writes an argument, and notes the watched tensors
whose memory that argument lies in, whichever tensor object the op was given. Fixture code that changes a
learner's inputs on purpose (between two calls) runs under :func:`unwatched`. Tensors without data (meta) are
not watched.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

_paused = [0]  # > 0 while fixture code writes inputs on purpose


@contextmanager
def unwatched() -> Iterator[None]:
    """Writes made inside are the fixture's own, not the learner's."""
    _paused[0] += 1
    try:
        yield
    finally:
        _paused[0] -= 1


def _span(t: torch.Tensor) -> tuple[int, int] | None:
    """The bytes ``t``'s storage covers, as [start, end); None for a tensor without data."""
    if t.device.type == "meta" or t.is_nested or t.layout != torch.strided:
        return None
    storage = t.untyped_storage()
    start = storage.data_ptr()
    return (start, start + storage.nbytes()) if start and storage.nbytes() else None


def _written_arguments(func: Any, args: tuple, kwargs: dict) -> list[torch.Tensor]:
    """The tensors ``func`` writes (``Tensor(a!)`` in its schema), positional or keyword."""
    found = []
    for i, argument in enumerate(func._schema.arguments):
        if argument.alias_info is None or not argument.alias_info.is_write:
            continue
        value = args[i] if i < len(args) else kwargs.get(argument.name)
        values = value if isinstance(value, (list, tuple)) else [value]
        found += [v for v in values if isinstance(v, torch.Tensor)]
    return found


def run_keeping_versions(func: Any, args: Any, kwargs: dict) -> Any:
    """``func(*args, **kwargs)`` inside a dispatch mode's ``__torch_dispatch__``: an in-place ``_foreach_*_`` op run
    there leaves its tensors' version counters as they were (torch bumps them only outside Python dispatch), so they
    are bumped here, as without the mode (autograd's in-place checks and the course's ``.data`` checks read them)."""
    name = func.overloadpacket.__name__
    if not (name.startswith("_foreach_") and name.endswith("_") and args and isinstance(args[0], (list, tuple))):
        return func(*args, **kwargs)
    written = [t for t in args[0] if isinstance(t, torch.Tensor)]
    before = [t._version for t in written]
    result = func(*args, **kwargs)
    for t, version in zip(written, before):
        if t._version == version:
            torch.autograd.graph.increment_version(t)
    return result


class WriteWatch(TorchDispatchMode):
    """Notes, in ``written``, the tensors of ``given`` whose memory an op wrote during the ``with`` block."""

    def __init__(self, given: list[torch.Tensor]) -> None:
        super().__init__()
        self.spans = [(span, t) for t in given if (span := _span(t)) is not None]
        self.written: list[torch.Tensor] = []

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        if self.spans and not _paused[0] and func._schema.is_mutable:
            for target in _written_arguments(func, args, kwargs):
                span = _span(target)
                for (start, end), t in self.spans:
                    if span and span[0] < end and start < span[1] and all(t is not w for w in self.written):
                        self.written.append(t)
        return run_keeping_versions(func, args, kwargs)


def watched(given: list[torch.Tensor]) -> WriteWatch | None:
    """A :class:`WriteWatch` over the ``given`` tensors that have data, or None if there are none."""
    watch = WriteWatch(given)
    return watch if watch.spans else None


def mark_written(watch: WriteWatch | None) -> None:
    """Move the version counter of every tensor ``watch`` saw written whose counter did not move by itself (a
    write through ``.data``): the call then reads as the in-place write it was."""
    for t in watch.written if watch is not None else []:
        torch.autograd.graph.increment_version(t)


def has_module(value: Any) -> bool:
    """Whether ``value`` (arguments: lists, tuples and dicts searched too) holds a module or an optimizer: such
    calls train, run long, and write parameters on purpose; their inputs keep only the version-counter check."""
    if isinstance(value, (torch.nn.Module, torch.optim.Optimizer)):
        return True
    if isinstance(value, (list, tuple)):
        return any(has_module(v) for v in value)
    if isinstance(value, dict):
        return any(has_module(v) for v in value.values())
    return False


def _warm_up() -> None:
    """Run one op under a watch now: the first dispatch mode of a process imports torch's symbolic-shape machinery
    (SymPy among it, about 900 modules, seconds), whose import calls ``warnings.simplefilter``; inside a learner's
    call that would cost the first graded cell its time and read as the learner hiding warnings."""
    probe = torch.zeros(1)
    with WriteWatch([probe]):
        probe.add_(0)


_warm_up()
