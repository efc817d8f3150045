"""course/fixtures/scale.py: a function runs the same ATen operators on a small input and on a FakeTensor twin of
2**32 elements, so a path taken only above the sizes a test can compute fails, and an honest answer passes."""

from __future__ import annotations

import pytest
import torch

from course import checks
from course.fixtures.scale import check_same_at_scale, ops_at_scale

_SMALL = checks.Case((torch.randn(2, 4, 5, 3),))
_BIG = ((4096, 256, 256, 16),)


def _flatten(x: torch.Tensor) -> torch.Tensor:
    return x.permute(0, 3, 1, 2).flatten(start_dim=1)


def test_the_same_operators_at_every_size_pass_and_cost_no_memory() -> None:
    small, large, shape, error, read, small_out, big_out = ops_at_scale(_flatten, *_SMALL.args, big=_BIG)
    assert small == large
    assert [op.partition(" -> ")[0] for op in small] == [
        "aten.permute.default",
        "aten.clone.default",
        "aten._unsafe_view.default",
    ]
    assert shape == (4096, 256 * 256 * 16) and error is None and not read
    assert small_out == big_out == ["float32", "cpu"]
    check_same_at_scale(_flatten, _SMALL, _BIG, fn_name="flatten_nhwc", shape=(4096, 256 * 256 * 16))


def test_a_path_taken_only_above_a_size_fails_naming_the_operators_that_differ() -> None:
    def guarded(x: torch.Tensor) -> torch.Tensor:
        return x.reshape(x.shape[0], -1) if x.numel() >= 2**22 else _flatten(x)

    with pytest.raises(checks.CheckError, match="少了 _unsafe_view, clone, permute"):
        check_same_at_scale(guarded, _SMALL, _BIG, fn_name="flatten_nhwc")


def test_a_loop_at_scale_fails_on_the_operator_count() -> None:
    def looped(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if a.shape[0] >= 1024:
            return torch.stack([a[k, :, None] + b[k, None, :] for k in range(a.shape[0])])
        return a[:, :, None] + b[:, None, :]

    case = checks.Case((torch.randn(4, 3), torch.randn(4, 2)))
    with pytest.raises(checks.CheckError, match="多了 add.Tensor"):
        check_same_at_scale(looped, case, ((4096, 2**14), (4096, 2**14)), fn_name="batch_outer_sum")


def test_a_value_read_in_both_runs_passes_and_one_only_at_scale_fails() -> None:
    def checked(x: torch.Tensor) -> torch.Tensor:
        assert torch.isfinite(x).all()
        return _flatten(x)

    check_same_at_scale(checked, _SMALL, _BIG, fn_name="flatten_nhwc")

    def read_when_big(x: torch.Tensor) -> torch.Tensor:
        if x.numel() >= 2**22:
            x.sum().item()
        return _flatten(x)

    with pytest.raises(checks.CheckError, match="ATen 运算"):
        check_same_at_scale(read_when_big, _SMALL, _BIG, fn_name="flatten_nhwc")


def test_played_devices_see_a_host_round_trip_at_scale() -> None:
    def through_host(x: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
        return x.cpu().to(ref.device) if x.numel() >= 2**22 else x.to(ref.device)

    case = checks.Case((torch.randn(4, 3), torch.zeros(1)))
    big = ((2**16, 2**16), (1,))
    check_same_at_scale(
        lambda x, ref: x.to(ref.device), case, big, fn_name="to_device_like", devices=("cuda:0", "cuda:1")
    )
    with pytest.raises(checks.CheckError, match="多了 _to_copy"):
        check_same_at_scale(through_host, case, big, fn_name="to_device_like", devices=("cuda:0", "cuda:1"))


def test_an_empty_twin_checks_only_the_result_its_dtype_and_its_device() -> None:
    case = checks.Case((torch.randn(2, 4, 5, 3, dtype=torch.float64),))
    empty = ((0, 4, 5, 3),)

    def special_cased(x: torch.Tensor) -> torch.Tensor:
        return x.new_empty(0, 60) if x.numel() == 0 else _flatten(x)

    def wrong_place(x: torch.Tensor) -> torch.Tensor:
        return torch.empty(0, 60) if x.numel() == 0 else _flatten(x)

    check_same_at_scale(
        special_cased, case, empty, fn_name="flatten_nhwc", shape=(0, 60), devices=("cuda:0",), same_ops=False
    )
    with pytest.raises(checks.CheckError, match="是 float32、在 cpu 上"):
        check_same_at_scale(
            wrong_place, case, empty, fn_name="flatten_nhwc", shape=(0, 60), devices=("cuda:0",), same_ops=False
        )


def test_the_same_operator_into_another_dtype_is_another_path() -> None:
    def unwidened(p: torch.Tensor) -> torch.Tensor:
        wide = p.dtype if p.numel() >= 2**20 else torch.float32
        return (p.to(wide, copy=True) ** 2).mean()

    case = checks.Case((torch.randn(32).half(),))
    with pytest.raises(checks.CheckError, match="得到 float16"):
        check_same_at_scale(unwidened, case, ((2**32,),), fn_name="mse_loss")
