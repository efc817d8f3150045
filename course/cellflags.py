"""What a learner's cell computed from the machine it ran on, at the top level: ``USE_AMP = torch.cuda.is_available()``.

Such a flag is computed once, when the cell runs, on the machine that runs it: on a CPU machine it is False, and a
function that reads it never takes its GPU path where the checks play a GPU. This module notes those assignments as
the cells run (the kernel's ``pre_run_cell`` hook, the grader's learner process), so that a played GPU can compute
them again (:func:`course.scenarios.cell_flags_played`). Only plain values are computed again (a bool, a number, a
tuple of them): a device or a string that names one stays as the cell made it, since the course's tensors are on
the machine's real device.
"""

from __future__ import annotations

import ast
from types import CodeType
from typing import Any

# words in an expression that asks the machine what it has
_MACHINE_WORDS = (
    "cuda", "accelerator", "is_available", "device_count", "mem_get_info", "bf16", "get_device_", "backends",
    "memory_stats", "memory_allocated", "memory_reserved",
)  # fmt: skip
# id(namespace) -> (the namespace, {name: the compiled expression that assigned it}), in the order assigned
_NOTED: dict[int, tuple[dict[str, Any], dict[str, CodeType]]] = {}


def note_cell(source: str, namespace: dict[str, Any]) -> None:
    """Note the top-level assignments of ``source`` (a cell about to run in ``namespace``) whose value asks what the
    machine has, or is computed from a name noted so; a later assignment of another kind forgets the name."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    entry = _NOTED.get(id(namespace))
    if entry is None or entry[0] is not namespace:
        entry = _NOTED[id(namespace)] = (namespace, {})
    noted = entry[1]
    for node in tree.body:
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            targets, value = [t.id for t in node.targets], node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            targets, value = [node.target.id], node.value
        else:
            continue
        used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
        asks = any(word in ast.unparse(value) for word in _MACHINE_WORDS) or bool(used & set(noted))
        for name in targets:
            noted.pop(name, None)  # re-assigned: noted again at its new place, or forgotten
            if asks:
                noted[name] = compile(ast.Expression(value), "<cell>", "eval")


def noted(namespace: dict[str, Any]) -> list[tuple[str, CodeType]]:
    """The assignments noted for ``namespace``, in the order the cells made them."""
    entry = _NOTED.get(id(namespace))
    return list(entry[1].items()) if entry is not None and entry[0] is namespace else []


def plain(value: Any) -> bool:
    """Whether ``value`` is a flag computed again on a played machine: a bool, a number, None, or a tuple of them."""
    if isinstance(value, tuple):
        return all(plain(v) for v in value)
    return value is None or type(value) in (bool, int, float)
