"""course.fixtures.kept: an earlier result a later call wrote over is told from a fresh one."""

import pytest
import torch

from course.fixtures import kept

_BUFFER = torch.zeros(2)


def _fresh(x: float) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.tensor(x), torch.tensor(2 * x)


def _reused(x: float) -> tuple[torch.Tensor, torch.Tensor]:
    _BUFFER[0], _BUFFER[1] = x, 2 * x
    return _BUFFER[0], _BUFFER[1]


@pytest.mark.parametrize(("fn", "written"), [(_fresh, 0), (_reused, 2)])
def test_overwritten_counts_the_tensors_of_a_kept_result_that_the_next_call_changed(fn, written):
    first = fn(1.0)
    taken = kept.snapshot(first)
    fn(3.0)
    assert kept.overwritten(first, taken) == written


def test_frozen_keeps_the_structure_and_nan_equals_nan():
    first = {"loss": torch.tensor(float("nan")), "norms": [torch.ones(2)], "epoch": 3}
    copy = kept.frozen(first)
    assert copy["epoch"] == 3 and copy["norms"][0] is not first["norms"][0]
    assert kept.overwritten(first, kept.snapshot(copy)) == 0


def test_the_message_says_what_changed():
    with pytest.raises(AssertionError, match="第一次返回的总范数变了（1 个张量的值被改写）"):
        kept.fail_overwritten("f(x)", "第一次返回的总范数", 1)
