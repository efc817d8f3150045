"""Where the learner's objects live, for test code that must work in both places.

In a notebook kernel the learner's functions are right here, and test cells call them directly. When
``python -m autograder`` grades, test cells run in a separate judge process and the learner's names are
stand-ins (remotes) that call into the learner's process; only data comes back. Code that must run beside
the learner's objects (an observer around a call, backward through a learner's result) is a function in
``course`` that :func:`run` starts where those objects are.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

IN_JUDGE = False  # set by the grader's judge process; in a kernel, tests run beside the learner's code

_GRAD_FN_NAMES: dict[int, str] = {}
_AROUND: list[Callable[..., Any]] = []  # scenarios that wrap every scenario run here (see around)


def is_remote(obj: Any) -> bool:
    """True for the judge's stand-in of a learner object (a function, a model of the learner's own class)."""
    return getattr(type(obj), "__learner_run__", None) is not None


def type_name(obj: Any) -> str:
    """The name of ``obj``'s class, where the learner's object lives (a stand-in's: the learner object's)."""
    return obj.__learner_type__ if is_remote(obj) else type(obj).__name__


def run(scenario: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``scenario(*args, **kwargs)`` in the process that holds the learner objects among the arguments.

    ``scenario`` must be importable from ``course`` (the learner's process imports it by name). Its
    result comes back as data, and arguments it changes in place are copied back, as for any call.
    """
    if _AROUND and scenario is not _AROUND[-1]:
        return run(_AROUND[-1], scenario, *args, **kwargs)
    for value in (*args, *kwargs.values()):
        if is_remote(value):
            return type(value).__learner_run__(value, scenario, args, kwargs)
    return scenario(*args, **kwargs)


@contextlib.contextmanager
def around(wrapper: Callable[..., Any]) -> Iterator[None]:
    """Inside the block, :func:`run` starts ``wrapper(scenario, *args, **kwargs)`` for every scenario, in the same
    place (``wrapper`` is a scenario too: importable from ``course``)."""
    _AROUND.append(wrapper)
    try:
        yield
    finally:
        _AROUND.pop()


def note_grad_fn(t: Any, name: str) -> None:
    """Remember the learner's ``grad_fn`` name for a tensor rebuilt in the judge (its own is a stand-in)."""
    key = id(t)
    _GRAD_FN_NAMES[key] = name
    weakref.finalize(t, _GRAD_FN_NAMES.pop, key, None)


def grad_fn_name(t: Any) -> str | None:
    """``type(t.grad_fn).__name__`` as the learner's process saw it; None for a tensor without grad_fn."""
    if getattr(t, "grad_fn", None) is None:
        return None
    return _GRAD_FN_NAMES.get(id(t), type(t.grad_fn).__name__)
