"""course.fixtures.devices: CUDA played by meta (FakeCuda, FakeCudaIndex) sees the current device and the GPU a copy
comes from."""

import pytest
import torch

from course.fixtures import devices


def _to(batch: dict, device) -> dict:
    return {k: t.to(device) for k, t in batch.items()}


def _hard_coded_cuda0(batch: dict, device) -> dict:
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", 0)
    return {k: t.to(device) for k, t in batch.items()}


def _back_then_wait_for_the_current_gpu(batch: dict, device) -> dict:
    out = {k: t.to(device, non_blocking=True) for k, t in batch.items()}
    torch.cuda.synchronize()
    return out


def _back_then_wait_for_each_gpu(batch: dict, device) -> dict:
    out = {k: t.to(device, non_blocking=True) for k, t in batch.items()}
    for index in range(torch.cuda.device_count()):
        torch.cuda.synchronize(index)
    return out


BATCH = {"x": torch.tensor([1.0, 2.0]), "y": torch.tensor([3, 4])}


def test_an_index_less_cuda_target_is_the_current_gpu_and_a_tensor_on_cuda1_moves_there():
    *_, indices = devices.run_with_fake_cuda(_to, dict(BATCH), "cuda", [], ["x"], {"x": 1}, 0)
    assert indices == {"x": 0, "y": 0}
    *_, indices = devices.run_with_fake_cuda(_to, dict(BATCH), "cuda", [], [], None, 1)
    assert indices == {"x": 1, "y": 1}
    *_, indices = devices.run_with_fake_cuda(_hard_coded_cuda0, dict(BATCH), "cuda", [], [], None, 1)
    assert indices == {"x": 0, "y": 0}


def test_a_copy_already_on_the_target_gpu_is_the_tensor_itself_and_is_marked_so():
    _, calls, *_ = devices.run_with_fake_cuda(_to, dict(BATCH), "cuda", [], ["x"], {"x": 0}, 0)
    assert [c.get("itself", False) for c in calls if c.get("key") == "x"] == [True]


def test_a_wait_on_the_current_gpu_does_not_cover_a_copy_back_from_cuda1():
    _, calls, *_ = devices.run_with_fake_cuda(
        _back_then_wait_for_the_current_gpu, dict(BATCH), "cpu", [], ["x", "y"], {"x": 1, "y": 1}, 0
    )
    assert devices.unsynced_to_host(calls) == "other gpu"
    _, calls, *_ = devices.run_with_fake_cuda(
        _back_then_wait_for_each_gpu, dict(BATCH), "cpu", [], ["x", "y"], {"x": 1, "y": 1}, 0
    )
    assert devices.unsynced_to_host(calls) is None


def test_a_torch_cuda_device_block_switches_the_current_gpu_for_index_less_cuda():
    def inside_the_block(x: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
        with torch.cuda.device(ref.device):
            return x.cuda()

    _, where = devices.run_with_fake_cuda_index(inside_the_block, torch.ones(2), torch.empty(1, device="meta"), 1)
    assert where == "cuda:1"


def test_a_memo_of_moved_tensors_hands_back_the_first_results_after_an_in_place_change():
    memo: dict = {}

    def remembers(x: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
        if id(x) not in memo:
            memo[id(x)] = x.to(ref.device)
        return memo[id(x)]

    assert devices.moved_twice(remembers, torch.ones(2), torch.empty(1, device="meta")) == (1, 1)
    assert devices.moved_twice(lambda x, ref: x.to(ref.device), torch.ones(2), torch.empty(1, device="meta")) == (0, 1)


def test_a_bare_grad_switch_is_left_off_when_the_update_is_interrupted():
    from course.fixtures import no_grad

    def bare(params: list, buffers: dict, lr: float, momentum: float) -> None:
        torch.set_grad_enabled(False)
        for p in params:
            p.sub_(lr * p.grad)
        torch.set_grad_enabled(True)

    def with_block(params: list, buffers: dict, lr: float, momentum: float) -> None:
        with torch.no_grad():
            for p in params:
                p.sub_(lr * p.grad)

    assert no_grad.sgd_step_interrupted(bare) == ("KeyboardInterrupt", False)
    assert no_grad.sgd_step_interrupted(with_block) == ("KeyboardInterrupt", True)
    assert torch.is_grad_enabled()


def test_a_played_machine_with_one_gpu_refuses_a_move_to_cuda_1_as_cuda_does():
    move = lambda batch, device: {k: t.to(device) for k, t in batch.items()}  # noqa: E731
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        devices.run_with_fake_cuda(move, {"x": torch.ones(2)}, "cuda:1", [], [], gpus=1)
    assert devices.run_with_fake_cuda(move, {"x": torch.ones(2)}, "cuda:0", [], [], gpus=1)[6] == {"x": 0}
