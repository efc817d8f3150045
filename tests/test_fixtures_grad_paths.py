"""course.fixtures.grad_paths: the same calls, steps and values with inputs that require grad and inside no_grad."""

import pytest
import torch

from course import checks
from course.fixtures import grad_paths


def _outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a[:, :, None] + b[:, None, :]


def _loops_when_training(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.requires_grad:
        return torch.stack([ai[:, None] + bi[None, :] for ai, bi in zip(a, b)])
    return _outer_sum(a, b)


def _library_at_inference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if not torch.is_grad_enabled():
        return torch.add(a.unsqueeze(2), b.unsqueeze(1))
    return _outer_sum(a, b)


def _loops_for_float64(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.dtype == torch.float64:
        return torch.stack([ai[:, None] + bi[None, :] for ai, bi in zip(a, b)])
    return _outer_sum(a, b)


def _detached_when_training(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    out = _outer_sum(a, b)
    return out.detach() if out.requires_grad else out


def _add_(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    x += b[:, None, None]
    return x


def _copies_when_training_(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if x.requires_grad:
        return x.copy_(x + b[:, None, None])
    return _add_(x, b)


CASE = checks.Case((torch.randn(8, 3, generator=torch.Generator().manual_seed(1)), torch.randn(8, 4)))


def test_a_function_with_one_path_passes_in_every_grad_mode_and_dtype():
    grad_paths.check_same_in_every_grad_mode(_outer_sum, CASE, fn_name="f", dtypes=("float64", "int32", "bfloat16"))


def test_an_in_place_function_passes_and_integer_inputs_are_left_as_they_are():
    x = torch.randn(2, 3, 4, 4)
    grad_paths.check_same_in_every_grad_mode(_add_, checks.Case((x, torch.randn(3))), fn_name="f", in_place=True)
    grad_paths.check_same_in_every_grad_mode(
        _outer_sum, checks.Case((torch.ones(2, 3, dtype=torch.int64),) * 2), fn_name="f"
    )


@pytest.mark.parametrize(
    ("fn", "said"),
    [
        (_loops_when_training, "输入需要梯度时"),
        (_library_at_inference, "with torch.no_grad(): 里调用时"),
        (_loops_for_float64, "输入是 torch.float64 时"),
        (_detached_when_training, "输入需要梯度时"),
    ],
)
def test_a_branch_on_requires_grad_or_grad_mode_fails_naming_the_mode(fn, said):
    with pytest.raises(AssertionError, match="走的不是同一条路") as info:
        grad_paths.check_same_in_every_grad_mode(fn, CASE, fn_name="f", dtypes=("float64",))
    assert said in str(info.value)


def test_an_in_place_function_that_copies_only_when_training_fails():
    with pytest.raises(AssertionError, match="Tensor.copy_"):
        grad_paths.check_same_in_every_grad_mode(
            _copies_when_training_, checks.Case((torch.randn(2, 3, 4, 4), torch.randn(3))), fn_name="f", in_place=True
        )


def test_the_scenario_hands_the_function_non_leaf_inputs_that_require_grad_and_returns_detached_results():
    seen = []

    def probe(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        seen.append((a.requires_grad, a.is_leaf, b.dtype, torch.is_grad_enabled()))
        return a * 2

    out, names, steps, in_graph, unreached, syncs, lowered = grad_paths.work_in_grad_mode(
        probe, grad_paths.GRAD_INPUTS, False, torch.ones(2), torch.ones(2, dtype=torch.int64)
    )
    assert seen[-1] == (True, False, torch.int64, True) and not out.requires_grad and in_graph and steps >= 1 and names
    assert unreached == [] and syncs == [] and lowered == []
    grad_paths.work_in_grad_mode(probe, grad_paths.NO_GRAD, False, torch.ones(2), torch.ones(2))
    assert seen[-1][0] is False and seen[-1][3] is False


def _loops_when_not_contiguous(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if not a.is_contiguous():
        return torch.stack([ai[:, None] + bi[None, :] for ai, bi in zip(a, b)])
    return _outer_sum(a, b)


def _loops_for_a_parameter(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if isinstance(a, torch.nn.Parameter):
        return torch.stack([ai[:, None] + bi[None, :] for ai, bi in zip(a, b)])
    return _outer_sum(a, b)


_BUF = torch.zeros(8, 3, 4)


def _into_one_buffer(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _BUF.copy_(_outer_sum(a, b))  # copy_ is differentiable: the buffer joins the graph


@pytest.mark.parametrize(
    ("fn", "said"),
    [
        (_loops_when_not_contiguous, "输入不连续"),
        (_loops_for_a_parameter, "输入是需要梯度的参数时"),
        (_into_one_buffer, "第一次返回的张量变了"),
    ],
)
def test_a_branch_on_the_layout_or_on_a_parameter_and_a_reused_buffer_fail(fn, said):
    with pytest.raises(AssertionError, match=said):
        grad_paths.check_same_in_every_grad_mode(fn, CASE, fn_name="f")


def _another_call_when_only_b_needs_grad(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if b.requires_grad and not a.requires_grad:
        return torch.add(a[:, :, None], b[:, None, :])
    return _outer_sum(a, b)


def _drops_the_gradient_of_b(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a[:, :, None] + b.detach()[:, None, :]


def _loops_on_a_gpu_when_training(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.is_cuda and a.requires_grad:
        return torch.stack([ai[:, None] + bi[None, :] for ai, bi in zip(a, b)])
    return _outer_sum(a, b)


def _squares_in_the_autocast_dtype(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    dtype = torch.get_autocast_dtype("cpu") if torch.is_autocast_enabled("cpu") else torch.float32
    return ((a.to(dtype) - b.to(dtype)) ** 2).float().mean(1)


@pytest.mark.parametrize(
    ("fn", "said"),
    [
        (_another_call_when_only_b_needs_grad, "只有最后一个浮点输入需要梯度"),
        (_drops_the_gradient_of_b, "梯度却传不到它"),
        (_loops_on_a_gpu_when_training, "输入在 GPU 上.*输入需要梯度时"),
    ],
)
def test_the_last_input_needing_grad_a_gpu_while_training_and_a_dropped_gradient_are_played(fn, said):
    with pytest.raises(AssertionError, match=said):
        grad_paths.check_same_in_every_grad_mode(fn, CASE, fn_name="f")


def test_values_are_compared_inside_the_callers_float16_autocast():
    case = checks.Case((torch.tensor([[300.0, 0.0]]), torch.zeros(1, 2)))
    grad_paths.check_same_in_every_grad_mode(lambda a, b: ((a - b) ** 2).mean(1), case, fn_name="f")
    with pytest.raises(AssertionError, match=r"with torch.autocast\(\.\.\.\): 里调用时"):
        grad_paths.check_same_in_every_grad_mode(_squares_in_the_autocast_dtype, case, fn_name="f")


def _library_on_a_gpu_at_inference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.is_cuda and not torch.is_grad_enabled():
        return torch.add(a.unsqueeze(2), b.unsqueeze(1))
    return _outer_sum(a, b)


def test_a_branch_taken_only_on_a_gpu_inside_no_grad_is_played():
    with pytest.raises(AssertionError, match="输入在 GPU 上.*with torch.no_grad\\(\\): 里调用时"):
        grad_paths.check_same_in_every_grad_mode(_library_on_a_gpu_at_inference, CASE, fn_name="f")


def _loops_on_a_gpu_for_a_parameter(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.is_cuda and isinstance(b, torch.nn.Parameter):
        return torch.stack([ai[:, None] + bi[None, :] for ai, bi in zip(a, b)])
    return _outer_sum(a, b)


def _through_the_host_on_a_gpu_at_inference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.is_cuda and torch.is_inference_mode_enabled():
        return _outer_sum(a.cpu(), b.cpu())
    return _outer_sum(a, b)


@pytest.mark.parametrize(
    ("fn", "said"),
    [
        (_loops_on_a_gpu_for_a_parameter, "输入在 GPU 上.*输入是需要梯度的参数时"),
        (_through_the_host_on_a_gpu_at_inference, "输入在 GPU 上.*inference_mode.*让 CPU 等了 GPU"),
    ],
)
def test_every_mode_is_played_on_a_gpu_too_with_its_syncs(fn, said):
    with pytest.raises(AssertionError, match=said):
        grad_paths.check_same_in_every_grad_mode(fn, CASE, fn_name="f")


def test_inside_an_autocast_a_float16_path_is_compared_where_float16_holds_the_values():
    x = torch.tensor([[1000.01, -3.0], [-700.5, 250.25]])
    y = torch.tensor([[1000.0, -3.0], [999.0, -2.0]])
    plain = ((x.unsqueeze(1) - y.unsqueeze(0)) ** 2).sum(-1)  # 0.0001 ... 2.9e6 (past float16's largest value)
    with torch.autocast("cpu", dtype=torch.float16):
        diff = x.unsqueeze(1) - y.unsqueeze(0)
        einsum = torch.einsum("nmd,nmd->nm", diff, diff)  # float16: inf where the plain value is past 65504
        xy = torch.einsum("nd,md->nm", x, y)
        xx, yy = torch.einsum("nd,nd->n", x, x).unsqueeze(1), torch.einsum("md,md->m", y, y).unsqueeze(0)
        expansion = (xx - xy) - (xy - yy)
    assert einsum.isinf().any()
    grad_paths._check_in_float16_range(einsum, plain, name="f")
    with pytest.raises(AssertionError, match="f"):
        grad_paths._check_in_float16_range(expansion, plain, name="f")
