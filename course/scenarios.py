"""Scenarios: test code that must run beside the learner's objects, started with ``course.remote.run``.

A test cell in the judge holds only stand-ins for the learner's functions, so anything that needs the
learner's live objects (autograd through a learner's result, counting what a learner's function does
while it runs) is a function here. In a notebook kernel ``remote.run(scenario, fn, ...)`` simply calls
``scenario(fn, ...)``; when grading it runs in the learner's process and only its result comes back.

What a scenario *observes* inside the learner's process (how many syncs, which calls) is a fact the
learner's own code could forge: it catches honest mistakes, not cheating. Values the judge compares
(results, gradients copied back) are the guaranteed part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch.overrides import TorchFunctionMode


def backward(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``out = fn(*args, **kwargs)``, then ``out.backward()``; return ``out``.

    The arguments' ``.grad`` (leaf tensors, module parameters) come back to the caller, as in a kernel.
    """
    out = fn(*args, **kwargs)
    out.backward()
    return out


_T = torch.Tensor
SYNC_CALLS = {
    _T.item: ".item()",
    _T.__float__: "float()",
    _T.__int__: "int()",
    _T.__bool__: "bool() / if",
    _T.__index__: "index",
    _T.tolist: ".tolist()",
    _T.cpu: ".cpu()",
    _T.numpy: ".numpy()",
    _T.__repr__: "print / repr",
    _T.__format__: "f-string",
}


class SyncCounter(TorchFunctionMode):
    """Counts host-device syncs (``.item()``, ``float()``, ``.tolist()``, ``.cpu()``, ``print(t)``, ``if t``).

    On a GPU each of these makes the CPU wait for the device; on a CPU they cost nothing, so the tests
    count them instead of timing them. ``loss_nodes`` are the ``grad_fn`` of per-step losses: a sync on a
    tensor whose graph reaches two of them means ``total += loss`` kept every step's graph alive.
    """

    def __init__(self, loss_nodes: Any = ()) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.loss_nodes = set(loss_nodes)
        self.on_accumulated_graph = 0
        self._host: dict[int, torch.Tensor] = {}  # tensors already on the host (.cpu() results): free to read

    def _losses_reached(self, t: torch.Tensor) -> int:
        seen, stack, hits = set(), [t.grad_fn], 0
        while stack:
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            hits += node in self.loss_nodes
            stack.extend(next_node for next_node, _ in node.next_functions)
        return hits

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's protocol
        kwargs = kwargs or {}
        on_host = any(id(a) in self._host for a in args)
        if func in SYNC_CALLS and not on_host:
            self.calls.append(SYNC_CALLS[func])
            t = args[0] if args else None
            if isinstance(t, torch.Tensor) and t.grad_fn is not None and self._losses_reached(t) >= 2:
                self.on_accumulated_graph += 1
        result = func(*args, **kwargs)
        if isinstance(result, torch.Tensor) and (on_host or func is _T.cpu):
            self._host[id(result)] = result
        return result

    def report(self) -> dict[str, Any]:
        return {"calls": list(self.calls), "on_accumulated_graph": self.on_accumulated_graph}


ACTIVE_COUNTERS: list[SyncCounter] = []


def note_loss(loss: torch.Tensor) -> None:
    """Called by loss fixtures: the running counters treat ``loss``'s graph as one step's loss."""
    for counter in ACTIVE_COUNTERS:
        if loss.grad_fn is not None:
            counter.loss_nodes.add(loss.grad_fn)


def count_syncs(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """``fn(*args, **kwargs)`` under a :class:`SyncCounter`; returns (result, report).

    Tensors among the arguments (also inside lists) that have a ``grad_fn`` count as per-step losses,
    and so do losses the ``course.fixtures`` loss functions compute during the call.
    """
    nodes = [a.grad_fn for a in _tensors(args) if a.grad_fn is not None]
    counter = SyncCounter(nodes)
    ACTIVE_COUNTERS.append(counter)
    try:
        with counter:
            result = fn(*args, **kwargs)
    finally:
        ACTIVE_COUNTERS.remove(counter)
    return result, counter.report()


def _tensors(value: Any) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    return []
