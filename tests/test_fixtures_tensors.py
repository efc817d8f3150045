"""The recorders of ``course.fixtures.tensors``: a call that runs past ``STEP_LIMIT`` steps is stopped, noted, failed,
and leaves torch's settings as they were."""

from __future__ import annotations

import pytest
import torch

from course import checks
from course.fixtures.tensors import STEP_LIMIT, STOPPED_NOTE, forbid_handoff, record_work

STOPPED = f"{STOPPED_NOTE}{STEP_LIMIT}"


# the learner's code: compiled from a cell, as in a notebook (this repository's own files count as the course's)
LEARNER = """
import torch

def double_loop(x, y):
    return torch.stack([torch.stack([((a - b) ** 2).sum() for b in y]) for a in x])

def broadcast(x, y):
    return ((x[:, None] - y[None]) ** 2).sum(-1)

def grad_off_in_a_loop(x):
    before = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        return torch.stack([v * 2 for v in x for _ in range(4)])
    finally:
        torch.set_grad_enabled(before)

scripted_loop = torch.jit.CompilationUnit(\'\'\'
def loop(x):
    out = x
    for _ in range(3000):
        out = out + 1
    return out
\'\'\').loop

def script_without_torch_function(x):
    with torch._C.DisableTorchFunction():
        out = scripted_loop(x)
    return out.clone()

def to_numpy(x):
    return x.numpy()
"""
cell: dict = {}
exec(compile(LEARNER, "<cell>", "exec"), cell)


def test_a_loop_past_the_step_limit_is_stopped_and_noted():
    x = torch.randn(200, 3)
    out, names, steps = record_work(cell["double_loop"], x, x)  # 40,000 turns, about 6 steps each
    assert out is None and STOPPED in names
    assert STEP_LIMIT < steps < 2 * STEP_LIMIT


def test_an_answer_without_a_loop_is_not_stopped():
    x = torch.randn(200, 3)
    out, names, steps = record_work(cell["broadcast"], x, x)
    assert out.shape == (200, 200) and not any(n.startswith(STOPPED_NOTE) for n in names) and steps < 50


def test_forbid_handoff_fails_a_stopped_call_and_says_it_was_stopped():
    x = torch.randn(100, 3)
    _, names, _ = record_work(cell["double_loop"], x, x)
    with pytest.raises(checks.CheckError, match=f"超过 {STEP_LIMIT} 步，测试就把它停下了"):
        forbid_handoff(names, fn_name="pairwise_sq_dist(x (100, 3), y (100, 3))")


@pytest.mark.parametrize("fn", ["grad_off_in_a_loop", "script_without_torch_function"])
def test_a_stopped_call_leaves_torch_settings_as_they_were(fn):
    """The stop comes at a call, never into an ``__exit__`` nor twice: ``finally`` and ``with`` blocks still run."""
    _, names, _ = record_work(cell[fn], torch.randn(1000))
    assert STOPPED in names or fn == "script_without_torch_function"  # its one call after the loop is __exit__
    assert torch.is_grad_enabled() and torch._C._is_torch_function_enabled()
    _, names = record_work(cell["to_numpy"], torch.randn(3))[:2]  # the recorders still see torch calls
    assert "Tensor.numpy" in names
