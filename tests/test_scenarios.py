"""course.scenarios: the GPU's same-device rule (devices_of_call), which SyncCounter and PlayedDevices share."""

from __future__ import annotations

import pytest
import torch

from course import scenarios
from course.fixtures import PlayedDevices
from course.scenarios import count_syncs, devices_of_call

CUDA = torch.device("cuda:0")


def _on(played: list[torch.Tensor]):
    ids = {id(t) for t in played}
    return lambda t: CUDA if id(t) in ids else t.device


def test_a_0d_host_tensor_that_is_only_read_counts_as_a_number():
    x, s = torch.ones(3), torch.tensor(2.0)
    assert list(devices_of_call("mul", (x, s), {}, _on([x]))) == [CUDA]


@pytest.mark.parametrize(
    "name, call",
    [
        ("add_", lambda x, total: ((total, x), {})),  # total += x on a host accumulator
        ("add", lambda x, total: ((x, x), {"out": total})),  # torch.add(x, x, out=total)
        ("_foreach_add_", lambda x, total: (([total], [x]), {})),  # a foreach op writes its first list
        ("cat", lambda x, total: (([x, total],), {})),  # a join takes no number
    ],
)
def test_a_0d_host_tensor_written_into_or_joined_counts(name, call):
    x, total = torch.ones(3), torch.zeros(())
    args, kwargs = call(x, total)
    found = devices_of_call(name, args, kwargs, _on([x]))
    assert set(found) == {CUDA, torch.device("cpu")}
    assert found[torch.device("cpu")] == (total, name != "cat")


def test_moves_need_no_common_device():
    x, host = torch.ones(3), torch.zeros(3)
    assert devices_of_call("copy_", (host, x), {}, _on([x])) == {}


def test_the_played_devices_refuse_an_out_tensor_on_the_host_like_a_gpu():
    x, total = torch.ones(3), torch.zeros(())
    with PlayedDevices({id(x): CUDA}, strict=True), pytest.raises(RuntimeError, match="same device"):
        torch.sum(x, dim=0, out=total)


def test_one_hot_with_num_classes_is_no_sync_and_without_it_reads_the_maximum():
    labels = torch.tensor([0, 2, 1])
    _, told = count_syncs(lambda y: torch.nn.functional.one_hot(y, 3), labels)
    _, guessed = count_syncs(lambda y: torch.nn.functional.one_hot(y), labels)
    assert told["calls"] == []
    assert guessed["calls"] == ["one_hot()"]


def test_str_of_a_device_tensors_device_names_the_device_for_a_new_tensor_not_for_a_copy_of_it():
    loss = torch.tensor(1.0)

    def accumulate(t):
        total = torch.zeros((), device=str(t.device))  # "cuda:0" on a GPU: on the device
        total += t
        return total

    _, made_there = count_syncs(accumulate, loss)
    _, copied = count_syncs(lambda t: t.to("cpu:0"), loss)  # typed out: a copy to the host on a GPU machine
    assert (made_there["calls"], made_there["mixed"]) == ([], "")
    assert copied["calls"] == ['.to("cpu:0")']


def test_waiting_for_the_device_counts_as_a_sync_and_the_wait_is_put_back_after():
    wait = torch.cuda.synchronize

    def epoch_end() -> int:
        torch.cuda.synchronize()  # counted; on a CPU-only machine not run (it would raise)
        return 1

    _, report = count_syncs(epoch_end)
    assert report["calls"] == ["torch.cuda.synchronize()"]
    assert torch.cuda.synchronize is wait


_UPLOADS = {
    "torch.tensor(list, device=t.device)": lambda t, n: torch.tensor(n, device=t.device),
    "torch.tensor(0.0, device=t.device)": lambda t, n: torch.tensor(0.0, device=t.device),
    "torch.as_tensor(list, device=t.device)": lambda t, n: torch.as_tensor(n, device=t.device),
    "cpu_tensor.to(t.device)": lambda t, n: torch.tensor(n).to(t.device),
    "cpu_tensor.to(t)": lambda t, n: torch.tensor(n).to(t),
    "t.new_tensor(list)": lambda t, n: t.new_tensor(n),
    "buffer.copy_(cpu_tensor)": lambda t, n: torch.zeros(len(n), device=t.device).copy_(torch.tensor(n)),
    "_foreach_copy_": lambda t, n: torch._foreach_copy_([torch.zeros(len(n), device=t.device)], [torch.tensor(n)]),
}


@pytest.mark.parametrize("upload", list(_UPLOADS), ids=str)
def test_a_blocking_copy_from_host_memory_to_the_device_is_a_sync(upload):
    """On a GPU a host-to-device copy without non_blocking=True waits for the stream: one sync each."""
    _, report = count_syncs(_UPLOADS[upload], torch.ones(3), [1.0, 2.0, 3.0])
    assert len(report["calls"]) == 1
    assert "从主机内存阻塞拷到设备" in report["calls"][0]


def test_tensors_made_on_the_device_and_numbers_are_no_sync():
    def made_there(t, n):
        total = torch.zeros((), device=t.device) + t.sum() * n[0]  # a fill kernel and a Python number: no copy
        return total, torch.tensor(n)  # a host tensor that stays on the host

    _, report = count_syncs(made_there, torch.ones(3), [1.0, 2.0, 3.0])
    assert report["calls"] == []


def test_a_non_blocking_upload_from_pageable_memory_may_wait_and_counts():
    """CUDA may sync with the stream to stage pageable memory; only pinned memory overlaps (none here: no GPU)."""
    _, report = count_syncs(lambda t, n: torch.tensor(n).to(t.device, non_blocking=True), torch.ones(3), [1.0, 2.0])
    assert len(report["uploads"]) == 1 and "non_blocking=True" in report["uploads"][0]


_MORE_UPLOADS = {
    "buffer[:] = cpu_tensor": lambda t, n: torch.zeros(len(n), device=t.device).__setitem__(
        slice(None), torch.tensor(n)
    ),
    "cpu_tensor.type_as(t)": lambda t, n: torch.tensor(n).type_as(t),
    "t.new(list)": lambda t, n: t.new(n),
}


@pytest.mark.parametrize("upload", list(_MORE_UPLOADS), ids=str)
def test_uploads_through_setitem_type_as_and_the_legacy_new_are_syncs_too(upload):
    _, report = count_syncs(_MORE_UPLOADS[upload], torch.ones(3), [1.0, 2.0, 3.0])
    assert len(report["calls"]) == 1 and report["uploads"] == report["calls"]


def test_numpy_force_true_of_a_device_tensor_is_one_sync_not_an_error():
    out, report = count_syncs(lambda t: t.sum().numpy(force=True), torch.ones(3))
    assert float(out) == 3.0 and len(report["calls"]) == 1


def test_code_run_only_where_there_is_a_gpu_runs_and_its_waits_are_counted():
    """The counter answers torch.cuda.is_available() as a GPU machine does; the waits are counted, not run."""
    real = torch.cuda.is_available

    def guarded() -> tuple[bool, int]:
        if torch.cuda.is_available():
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
        return torch.cuda.is_available(), torch.cuda.device_count()

    result, report = count_syncs(guarded)
    assert result == (True, 1)
    assert report["calls"] == ["torch.cuda.synchronize()", "torch.cuda.empty_cache()"]
    assert torch.cuda.is_available is real


def test_the_played_gpu_answers_what_gpu_guards_ask_and_torch_gets_the_truth_after():
    """The questions code guards a GPU path with read as on a GPU run (is_initialized, current_device, t.type());
    outside the count they answer as this machine does."""
    real_type, real_init = torch.ones(2, dtype=torch.float64).type(), torch.cuda.is_initialized

    def guards(x: torch.Tensor) -> tuple[bool, int, str, str]:
        return torch.cuda.is_initialized(), torch.cuda.current_device(), x.type(), x.long().type()

    result, _ = count_syncs(guards, torch.ones(2, dtype=torch.float64))
    assert result == (True, 0, "torch.cuda.DoubleTensor", "torch.cuda.LongTensor")
    assert torch.cuda.is_initialized is real_init
    assert torch.ones(2, dtype=torch.float64).type() == real_type


@pytest.mark.parametrize("pin", ["factory", "method"])
def test_a_pinned_non_blocking_upload_is_no_sync(pin):
    def upload(t: torch.Tensor, n: list[float]) -> torch.Tensor:
        if pin == "factory":
            host = torch.tensor(n, pin_memory=torch.cuda.is_available())
        else:
            host = torch.tensor(n).pin_memory()
        assert host.is_pinned()
        return host.to(t.device, non_blocking=True)

    _, report = count_syncs(upload, torch.ones(3), [1.0, 2.0])
    assert report["calls"] == []


def test_a_copy_of_a_device_tensor_to_the_host_is_a_new_tensor():
    t = torch.ones(3)
    (a, b), report = count_syncs(lambda t: (t.cpu(), t.to("cpu")), t)
    assert a is not t and b is not t and torch.equal(a, t)
    assert len(report["calls"]) == 2


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_a_cuda_autocast_is_on_and_seen(dtype):
    def forward(t: torch.Tensor) -> torch.Tensor:
        with torch.autocast("cuda", dtype=dtype):
            return t * 2

    _, report = count_syncs(forward, torch.ones(3))
    assert report["autocast"] == str(dtype).removeprefix("torch.")
    assert count_syncs(lambda t: t * 2, torch.ones(3))[1]["autocast"] == ""


def _set_allow_tf32() -> None:
    torch.backends.cuda.matmul.allow_tf32 = True


@pytest.mark.parametrize(
    "reduce",
    [
        lambda: setattr(torch.backends.cuda.matmul, "fp32_precision", "tf32"),
        _set_allow_tf32,
        lambda: torch.set_float32_matmul_precision("high"),
    ],
)
def test_count_syncs_sees_tf32_matmuls_set_during_the_call(reduce) -> None:  # noqa: ANN001
    """TF32 switched on for the call and put back after is seen while the call runs, in each API's spelling."""
    previous = torch.backends.cuda.matmul.fp32_precision
    legacy = torch.get_float32_matmul_precision()

    def epoch(a: torch.Tensor) -> torch.Tensor:
        reduce()
        return a @ a

    try:
        _, report = count_syncs(epoch, torch.ones(2, 2))
    finally:
        torch.set_float32_matmul_precision(legacy)
        torch.backends.cuda.matmul.fp32_precision = previous
    assert report["tf32"]
    _, plain = count_syncs(lambda a: a @ a, torch.ones(2, 2))
    assert plain["tf32"] == ""


def _needs_a_graph(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    return torch.autograd.grad((leaf**2).sum(), leaf)[0]


def _forces_grad_on(x: torch.Tensor) -> torch.Tensor:
    torch.set_grad_enabled(True)
    return _needs_a_graph(x)


def _under_enable_grad(x: torch.Tensor) -> torch.Tensor:
    with torch.enable_grad():
        return _needs_a_graph(x)


def test_in_no_grad_or_refused_reports_a_refusal_and_grad_mode_whether_it_raised_or_returned():
    x = torch.tensor([1.0, 2.0])
    assert scenarios.in_no_grad_or_refused(_needs_a_graph, x)[1:] == ("RuntimeError", False)
    out, raised, grad_on = scenarios.in_no_grad_or_refused(_under_enable_grad, x)
    assert (raised, grad_on) == ("", False) and torch.equal(out, 2 * x)
    assert scenarios.in_no_grad_or_refused(_forces_grad_on, x)[1:] == ("", True)
    assert torch.is_grad_enabled()


def _forces_highest(x: torch.Tensor) -> torch.Tensor:
    torch.set_float32_matmul_precision("highest")
    return x


def test_with_tf32_chosen_sees_a_precision_forced_to_the_default_and_puts_the_callers_back():
    before = torch.get_float32_matmul_precision()
    assert scenarios.with_tf32_chosen(torch.neg, torch.ones(2))[1] == []
    _, changed = scenarios.with_tf32_chosen(_forces_highest, torch.ones(2))
    assert changed == [("torch.set_float32_matmul_precision()", "'high' -> 'highest'")]
    assert torch.get_float32_matmul_precision() == before


def _scaled_by_an_upload(x: torch.Tensor) -> torch.Tensor:
    return x * torch.tensor(0.5, device=x.device)


def _checked_with_if(x: torch.Tensor) -> torch.Tensor:
    if not torch.isfinite(x).all():
        raise ValueError
    return x * 0.5


def test_syncs_of_tells_uploads_from_read_backs():
    calls, uploads, _ = scenarios.syncs_of(_scaled_by_an_upload, torch.ones(2))
    assert len(calls) == 1 and uploads == calls
    calls, uploads, _ = scenarios.syncs_of(_checked_with_if, torch.ones(2))
    assert len(calls) == 1 and uploads == []
    assert scenarios.syncs_of(torch.neg, torch.ones(2)) == ([], [], "")


_MASKED_WRITES = {
    "t[mask] = device_tensor": lambda t: t.__setitem__(t > 1, torch.zeros((), device=t.device)),
    "t[mask] = device_vector": lambda t: t.__setitem__(t > 1, torch.zeros(2, device=t.device)),
    "t.index_put_((mask,), device_tensor)": lambda t: t.index_put_((t > 1,), torch.zeros((), device=t.device)),
    "t.index_put((mask,), v, accumulate=True)": lambda t: t.index_put((t > 1,), t[:2] * 0, accumulate=True),
    "t.to_sparse()": lambda t: t.to_sparse(),
}


@pytest.mark.parametrize("write", list(_MASKED_WRITES), ids=str)
def test_a_write_through_a_bool_mask_whose_value_is_a_device_tensor_is_a_sync(write):
    """On a GPU these find the mask's positions with nonzero() first: the host waits for the count."""
    _, report = count_syncs(_MASKED_WRITES[write], torch.tensor([1.0, 2.0, 3.0]))
    assert len(report["calls"]) == 1 and report["uploads"] == []


def test_a_write_through_a_bool_mask_of_a_number_is_a_masked_fill_and_no_sync():
    def fill(t):
        t[t > 1] = 0.0
        t[t < 0] = torch.tensor(5.0)  # a one-element host tensor: masked_fill_ reads it on the host
        return t

    _, report = count_syncs(fill, torch.tensor([1.0, 2.0, 3.0]))
    assert report["calls"] == []


def test_a_0d_host_tensor_written_onto_one_element_is_an_upload_and_onto_many_a_fill():
    _, element = count_syncs(lambda t: t.__setitem__(0, torch.tensor(1.0)), torch.zeros(3))
    _, row = count_syncs(lambda t: t.__setitem__(0, torch.tensor(1.0)), torch.zeros(2, 3))
    assert len(element["uploads"]) == 1 and row["calls"] == []


@pytest.mark.parametrize(
    "call",
    [
        lambda y, x, g: torch.autograd.grad(y, x, grad_outputs=g),
        lambda y, x, g: y.backward(g),
        lambda y, x, g: torch.autograd.backward(y, grad_tensors=g),
    ],
    ids=["autograd.grad", "Tensor.backward", "autograd.backward"],
)
def test_a_gradient_given_on_the_host_for_a_device_output_is_an_upload(call):
    def run(x):
        y = (x * 2).sum()
        call(y, x, torch.tensor(1.0))
        y2 = (x * 3).sum()
        call(y2, x, torch.ones((), device=x.device))  # made on the device: no copy
        return x.grad

    _, report = count_syncs(run, torch.ones(3, requires_grad=True))
    assert len(report["uploads"]) == 1 and report["calls"] == report["uploads"]


def _step_that_waits(x, wait=torch.cuda.synchronize, *, also=torch.cuda.synchronize):
    if torch.cuda.is_available():  # read as True under the counter: the played GPU
        wait()
        also()
    return x * 2


def test_a_wait_bound_as_a_default_argument_is_counted_and_put_back():
    _, report = count_syncs(_step_that_waits, torch.ones(2))
    assert report["calls"] == ["torch.cuda.synchronize()"] * 2
    assert _step_that_waits.__defaults__ == (torch.cuda.synchronize,)
    assert _step_that_waits.__kwdefaults__ == {"also": torch.cuda.synchronize}


# with_learner_calls_on_a_played_gpu: the learner's function handed to a scenario runs on a played GPU
_LEARNER = """
import torch

def where_am_i(x):
    return torch.tensor(1.0 if x.is_cuda else 0.0)
"""


def _learner_function():
    cell: dict = {}
    exec(compile(_LEARNER, "<cell>", "exec"), cell)
    return cell["where_am_i"]


def _hand_on(fn, x):  # a scenario of a check: calls the learner's function itself
    return fn(x)


def test_a_learner_function_handed_to_a_scenario_runs_on_a_played_gpu():
    fn, x = _learner_function(), torch.ones(2)
    assert scenarios.with_learner_calls_on_a_played_gpu(_hand_on, fn, x).item() == 1.0
    assert _hand_on(fn, x).item() == 0.0  # without the wrapper: the CPU, as it is


def test_a_learner_function_run_as_the_scenario_itself_runs_on_a_played_gpu():
    fn, x = _learner_function(), torch.ones(2)
    assert scenarios.with_learner_calls_on_a_played_gpu(fn, x).item() == 1.0  # remote.run(train_one_epoch, ...)
    assert fn(x).item() == 0.0


def test_a_recorder_is_played_around_and_a_check_that_plays_devices_itself_is_left_alone():
    from course.fixtures.tensors import record_calls

    fn = _learner_function()
    out, names = scenarios.with_learner_calls_on_a_played_gpu(record_calls, fn, torch.ones(2))
    assert out.item() == 1.0 and set(names) == {"?.__get__", "torch.tensor", "aten.lift_fresh"}  # the learner's only
    meta = torch.empty(2, device="meta")
    assert scenarios.with_learner_calls_on_a_played_gpu(_hand_on, lambda t: t.device, meta).type == "meta"
    with PlayedDevices({}, strict=False):
        assert scenarios.with_learner_calls_on_a_played_gpu(_hand_on, fn, torch.ones(2)).item() == 0.0


def test_a_sync_made_inside_a_torch_call_names_the_torch_file_the_learner_called():
    model = torch.nn.Linear(2, 1)
    model(torch.ones(1, 2)).sum().backward()

    def clips_strictly() -> None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)

    _, report = scenarios.count_syncs(clips_strictly)
    assert report["calls"] and set(report["entered"]) == {"nn/utils/clip_grad.py"}


def test_adam_step_counters_are_host_tensors_in_a_count_as_on_a_gpu_machine():
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.1)
    model(torch.ones(1, 2)).sum().backward()
    optimizer.step()

    def step(opt: torch.optim.Optimizer) -> None:
        opt.step()

    _, report = scenarios.count_syncs(step, optimizer)
    assert report["calls"] == []

    def moves_the_counters(opt: torch.optim.Optimizer) -> None:
        for state in opt.state.values():
            state["step"] = state["step"].to(opt.param_groups[0]["params"][0].device)  # the parameters' GPU
        opt.step()

    _, report = scenarios.count_syncs(moves_the_counters, optimizer)
    assert any(e.startswith("optim/") for e in report["entered"])


def test_a_played_torch_cuda_device_block_switches_the_played_current_device():
    with scenarios.a_gpu_machine(device_count=2):
        assert torch.cuda.current_device() == 0
        with torch.cuda.device(1):
            assert scenarios.played_current_cuda() == 1 and torch.cuda.current_device() == 1
        assert scenarios.played_current_cuda() == 0


def test_every_played_gpu_answers_what_code_asks_of_a_gpu_memory_and_kind_included():
    from course.fixtures.devices import PlayedCudaModule

    asked = lambda: (torch.cuda.mem_get_info(), torch.cuda.get_device_capability(), torch.cuda.max_memory_reserved())  # noqa: E731
    want = (scenarios.GPU_PROFILES[0]["mem_get_info"], (8, 0), 2**30)
    assert scenarios.count_syncs(asked)[0] == want  # a branch on free memory takes the GPU's path
    with PlayedCudaModule([]):
        assert asked() == want


def test_a_tensor_made_on_a_side_stream_and_used_before_the_current_stream_waits_is_a_race():
    def copy_then_use(x: torch.Tensor, wait: bool) -> torch.Tensor:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())  # the side stream reads x, which the current stream made
        with torch.cuda.stream(side):
            moved = x.to(x.device, non_blocking=True) * 1
        if wait:
            torch.cuda.current_stream().wait_stream(side)
            moved.record_stream(torch.cuda.current_stream())
        return moved + 1

    assert count_syncs(copy_then_use, torch.ones(3), False)[1]["race"] == "add()"
    assert count_syncs(copy_then_use, torch.ones(3), True)[1]["race"] == ""
    assert "record_stream" not in vars(torch.Tensor)  # the played record_stream is gone again


def _download_then_read(x: torch.Tensor, wait: str) -> list[float]:
    """A non_blocking copy to the host, read after the wait ``wait`` names."""
    side = torch.cuda.Stream()
    before = torch.cuda.Event()
    before.record()
    host = (x * 2).to("cpu", non_blocking=True)
    after = torch.cuda.Event()
    after.record()
    if wait == "device":
        torch.cuda.synchronize()
    elif wait == "stream":
        torch.cuda.current_stream().synchronize()
    elif wait == "event after":
        after.synchronize()
    elif wait == "event before":
        before.synchronize()
    elif wait == "other stream":
        side.synchronize()
    elif wait == "event never recorded":
        torch.cuda.Event().synchronize()
    return host.tolist()


@pytest.mark.parametrize("wait", ["device", "stream", "event after"])
def test_a_wait_that_covers_a_non_blocking_download_lets_it_be_read(wait):
    assert count_syncs(_download_then_read, torch.ones(3), wait)[1]["unsynced"] == ""


@pytest.mark.parametrize("wait", ["event before", "other stream", "event never recorded", "none"])
def test_a_wait_for_other_work_than_a_non_blocking_download_leaves_its_read_unsynced(wait):
    assert count_syncs(_download_then_read, torch.ones(3), wait)[1]["unsynced"] == ".tolist()"


def test_the_played_gpu_is_chosen_from_the_inputs_so_every_profile_meets_some_call():
    asked = lambda x: (torch.cuda.get_device_capability(x.device), torch.cuda.is_bf16_supported())  # noqa: E731
    seen = {count_syncs(asked, torch.full((n,), 0.5))[0] for n in range(12)}
    assert seen == {((8, 0), True), ((9, 0), True), ((7, 0), False)}
    assert (
        count_syncs(asked, torch.arange(4.0))[0] == count_syncs(asked, torch.arange(4.0))[0]
    )  # the same inputs, the same GPU


def _side_stream_work(x: torch.Tensor, how: str) -> torch.Tensor:
    """x * 2 made on a side stream, then used on the current one; ``how`` says what the code forgets or does."""
    side = torch.cuda.Stream()
    if how != "side never waits":
        side.wait_stream(torch.cuda.current_stream())
    block = side if how == "with side" else torch.cuda.stream(side)
    with block:
        made = x * 2
        if how == "wait inside the block":
            torch.cuda.current_stream().wait_stream(side)  # the current stream is side here: it waits for nothing
        _ = made.shape  # metadata: no data read
    if how == "returned":
        return made
    if how not in ("wait inside the block", "with side", "no record_stream"):
        torch.cuda.current_stream().wait_stream(side)
    if how != "no record_stream":
        made.record_stream(torch.cuda.current_stream())
    if how == "no record_stream":
        torch.cuda.current_stream().wait_stream(side)
    return made + 1


@pytest.mark.parametrize(
    "how, kind",
    [
        ("right", ""),
        ("side never waits", "stale"),
        ("wait inside the block", "unwaited"),
        ("with side", "unwaited"),
        ("returned", "returned"),
        ("no record_stream", "unrecorded"),
    ],
)
def test_the_played_streams_order_work_as_cuda_does(how, kind):
    report = count_syncs(_side_stream_work, torch.ones(3), how)[1]
    assert report["race_kind"] == kind and bool(report["race"]) == bool(kind)


def test_a_stream_that_waited_for_a_stream_that_waited_for_a_side_stream_orders_after_it():
    def chain(x: torch.Tensor) -> torch.Tensor:
        s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
        s1.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s1):
            made = x * 2
        s2.wait_stream(s1)
        torch.cuda.current_stream().wait_stream(s2)
        made.record_stream(torch.cuda.current_stream())
        return made + 1

    assert count_syncs(chain, torch.ones(3))[1]["race"] == ""
