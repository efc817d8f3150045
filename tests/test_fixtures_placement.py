"""course.fixtures.placement: a GPU machine with CPU inputs, and inputs on a second GPU, played without a GPU."""

import pytest
import torch
from torch import nn

from course import checks
from course.fixtures import placement


def _row_mean(x: torch.Tensor) -> torch.Tensor:
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    return torch.where(x > 0, x, zero).mean(1)


def _uploads(x: torch.Tensor) -> torch.Tensor:
    if torch.cuda.is_available() and not x.is_cuda:
        x = x.cuda()
    return _row_mean(x)


def _index_dropped(x: torch.Tensor) -> torch.Tensor:
    zero = torch.zeros(x.shape, dtype=x.dtype, device=x.device.type)
    return torch.where(x > 0, x, zero).mean(1)


def _synchronizes(x: torch.Tensor) -> torch.Tensor:
    if x.is_cuda:
        torch.cuda.synchronize()
    return _row_mean(x)


def _back_to_host(x: torch.Tensor) -> torch.Tensor:
    return _row_mean(x).cpu()


def _moves_the_model(model: nn.Module, sample: torch.Tensor) -> torch.Tensor:
    if torch.cuda.is_available():
        model.cuda()
    return model(sample.to(next(model.parameters()).device)[None])[0]


def _add_(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    x += b
    return x


CASE = checks.Case((torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.25, -1.0]]),))


@pytest.mark.parametrize("fn", [_row_mean, _synchronizes])
def test_a_function_that_follows_its_inputs_passes_on_every_place(fn):
    placement.check_on_every_device(fn, CASE, fn_name="f")


def test_an_in_place_function_that_follows_its_inputs_passes():
    placement.check_on_every_device(
        _add_, checks.Case((torch.ones(2, 3), torch.arange(3.0))), fn_name="f", in_place=True
    )


@pytest.mark.parametrize(
    ("fn", "needle"),
    [
        (_uploads, "在有 GPU 的机器上、输入都在 CPU 上时"),
        (_index_dropped, "不带编号的 GPU"),
        (_back_to_host, "返回的张量在 cpu 上"),
    ],
)
def test_a_function_that_leaves_its_inputs_device_fails_naming_where_the_result_went(fn, needle):
    with pytest.raises(checks.CheckError, match=needle):
        placement.check_on_every_device(fn, CASE, fn_name="f")


def test_a_model_moved_to_the_gpu_it_was_not_on_fails():
    case = checks.Case((nn.Linear(3, 2), torch.ones(3)))
    with pytest.raises(checks.CheckError, match="cuda:0"):
        placement.check_on_every_device(_moves_the_model, case, fn_name="forward_one")


def test_the_played_machine_is_put_back_after_the_check():
    with pytest.raises(checks.CheckError):
        placement.check_on_every_device(_uploads, CASE, fn_name="f")
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0


def _view(x: torch.Tensor) -> torch.Tensor:
    return x.t()


def _copies_on_a_gpu_machine(x: torch.Tensor) -> torch.Tensor:
    out = x.t()
    return out.contiguous() if torch.cuda.is_available() else out


def test_a_view_stays_a_view_on_every_place_and_a_copy_made_only_with_a_gpu_fails():
    placement.check_on_every_device(_view, CASE, fn_name="f")
    with pytest.raises(AssertionError, match="返回的张量是一份拷贝，没有 GPU 时它是输入的视图"):
        placement.check_on_every_device(_copies_on_a_gpu_machine, CASE, fn_name="f")


def _another_function_on_a_gpu_machine(x: torch.Tensor) -> torch.Tensor:
    if torch.cuda.is_available() and x.device.type == "cpu":
        return torch.clamp(x, min=0).mean(1)
    return _row_mean(x)


def test_another_torch_function_on_a_gpu_machine_fails_even_with_the_same_values():
    with pytest.raises(AssertionError, match="调用了 torch.clamp"):
        placement.check_on_every_device(_another_function_on_a_gpu_machine, CASE, fn_name="f")
