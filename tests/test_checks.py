"""Each course.checks message fires on the mistake it names, and passing checks stay silent."""

from __future__ import annotations

import warnings

import pytest
import torch

from course import checks
from course.checks import Case, CheckError


def fails(fn, *args, **kwargs) -> str:
    with pytest.raises(CheckError) as info:
        fn(*args, **kwargs)
    return str(info.value)


def test_check_tensor_accepts_an_equal_tensor_silently(capfd):
    checks.check_tensor(torch.ones(2, 3), torch.ones(2, 3))
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_non_tensor_result_names_the_type():
    assert "list" in fails(checks.check_tensor, [1.0, 2.0], torch.tensor([1.0, 2.0]))


def test_transposed_shape_points_at_permute():
    msg = fails(checks.check_tensor, torch.zeros(4, 3), torch.zeros(3, 4))
    assert "期望 (3, 4)，得到 (4, 3)" in msg and "permute" in msg


def test_dropped_batch_dimension_points_at_bare_squeeze():
    msg = fails(checks.check_tensor, torch.zeros(5), torch.zeros(1, 5))
    assert "squeeze(dim)" in msg


def test_a_partly_dropped_size_one_dimension_does_not_name_squeeze():
    msg = fails(checks.check_tensor, torch.zeros(5, 1), torch.zeros(1, 5, 1))
    assert "期望 (1, 5, 1)，得到 (5, 1)" in msg and "squeeze" not in msg


def test_extra_size_one_dimension_points_at_unsqueeze():
    assert "unsqueeze" in fails(checks.check_tensor, torch.zeros(1, 5), torch.zeros(5))


def test_n_by_n_result_says_what_differed_without_guessing_broadcasting():
    msg = fails(checks.check_tensor, torch.zeros(4, 4), torch.zeros(4))
    assert "(N, N) = (4, 4)" in msg and "N = 4 倍" in msg and "广播" not in msg


def test_same_numel_other_shape_points_at_reshape():
    assert "reshape" in fails(checks.check_tensor, torch.zeros(2, 6), torch.zeros(3, 4))


def test_check_never_broadcasts_a_result_that_would_broadcast():
    msg = fails(checks.check_tensor, torch.ones(1, 3), torch.ones(2, 3))
    assert "形状 (shape)" in msg


@pytest.mark.parametrize(
    ("actual", "expected", "needle"),
    [
        (torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), ".float()"),
        (torch.tensor([1.0, 2.0], dtype=torch.float64), torch.tensor([1.0, 2.0]), "float64"),
        (torch.tensor([0.0, 1.0]), torch.tensor([0, 1]), ".long()"),
        (torch.tensor([0, 1], dtype=torch.int32), torch.tensor([0, 1]), "torch.long"),
        (torch.tensor([0.0, 1.0]), torch.tensor([False, True]), "torch.bool"),
    ],
)
def test_dtype_mistakes_get_their_own_hint(actual, expected, needle):
    msg = fails(checks.check_tensor, actual, expected)
    assert "dtype" in msg and needle in msg


def test_device_mismatch_names_both_devices():
    msg = fails(checks.check_tensor, torch.zeros(2, device="meta"), torch.zeros(2))
    assert "device" in msg and "meta" in msg and "cpu" in msg


def test_wrong_values_report_count_and_first_wrong_index():
    expected = torch.zeros(2, 3)
    actual = expected.clone()
    actual[1, 2] = 5.0
    actual[1, 0] = 4.0
    msg = fails(checks.check_tensor, actual, expected)
    assert "2 / 6" in msg and "索引 (1, 0)" in msg and "rtol" in msg


def test_values_within_stated_tolerance_pass():
    checks.check_tensor(torch.tensor([1.0 + 1e-7]), torch.tensor([1.0]))
    msg = fails(checks.check_tensor, torch.tensor([1.001]), torch.tensor([1.0]), rtol=1e-5, atol=1e-6)
    assert "rtol=1e-05" in msg


def test_nan_in_result_is_called_out():
    assert "nan" in fails(checks.check_tensor, torch.tensor([float("nan")]), torch.tensor([1.0]))


def test_requires_grad_lost_points_at_detach():
    x = torch.ones(2, requires_grad=True)
    msg = fails(checks.check_tensor, x.detach() * 2, x * 2)
    assert "requires_grad" in msg and "detach()" in msg


def test_requires_grad_kept_when_it_should_not_be():
    x = torch.ones(2, requires_grad=True)
    assert "requires_grad 应为 False" in fails(checks.check_tensor, x * 2, (x * 2).detach())


def test_grad_fn_checks_leaf_and_graph():
    x = torch.ones(2, requires_grad=True)
    assert "非叶子" in fails(checks.check_grad_fn, x / 2, expect_none=True)
    assert "grad_fn 是 None" in fails(checks.check_grad_fn, x.detach(), expect_none=False)
    checks.check_grad_fn(x, expect_none=True)
    checks.check_grad_fn(x * 2, expect_none=False)


def test_contiguity_both_ways():
    t = torch.zeros(2, 3).t()
    assert ".contiguous()" in fails(checks.check_contiguous, t, expected=True)
    assert "视图" in fails(checks.check_contiguous, t.contiguous(), expected=False)


def test_shared_storage_both_ways():
    x = torch.arange(6.0)
    assert "复制" in fails(checks.check_shares_storage, x.clone(), x, expected=True)
    assert "clone()" in fails(checks.check_shares_storage, x.view(2, 3), x, expected=False)
    checks.check_shares_storage(x.view(2, 3), x, expected=True)


def test_grad_none_versus_zeros():
    p = torch.nn.Parameter(torch.ones(3))
    assert "backward()" in fails(checks.check_grad, p, torch.ones(3))
    p.grad = torch.zeros(3)
    msg = fails(checks.check_grad, p, None)
    assert "全零" in msg and "set_to_none=True" in msg


def test_doubled_gradient_points_at_missing_zero_grad():
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.tensor([2.0, 4.0, 6.0])
    msg = fails(checks.check_grad, p, torch.tensor([1.0, 2.0, 3.0]))
    assert "2 倍" in msg and "zero_grad" in msg


def test_check_close_wants_a_python_number():
    assert ".item()" in fails(checks.check_close, torch.tensor(1.0), 1.0)
    checks.check_close(1.0 + 1e-9, 1.0)


def test_make_cases_covers_scalars_size_one_and_non_contiguous_inputs():
    cases = checks.make_cases(0)
    shapes = [tuple(c.args[0].shape) for c in cases]
    assert () in shapes and (1,) in shapes and (1, 4) in shapes
    assert any(not c.args[0].is_contiguous() for c in cases)
    again = checks.make_cases(0)
    assert all(torch.equal(a.args[0], b.args[0]) for a, b in zip(cases, again))


def test_function_checker_reports_the_failing_input_shape_and_index():
    def almost(x):
        y = x.clone()
        if y.dim() == 2 and y.shape == (2, 3):
            y[1, 1] += 1
        return y

    msg = fails(checks.check_function, almost, lambda x: x.clone(), checks.make_cases(1))
    assert "shape=(2, 3)" in msg and "索引 (1, 1)" in msg


def test_function_checker_explains_view_on_non_contiguous_input():
    msg = fails(checks.check_function, lambda x: x.view(-1), lambda x: x.reshape(-1), checks.make_cases(2))
    assert "非连续" in msg and "reshape()" in msg


def test_function_checker_turns_the_stub_into_a_message():
    def stub(x):
        raise NotImplementedError()

    assert "还没有实现" in fails(checks.check_function, stub, lambda x: x, [Case((torch.ones(1),))])


def test_function_checker_catches_in_place_changes_to_inputs():
    def bump(x):
        x += 1
        return x

    assert "in-place" in fails(checks.check_function, bump, lambda x: x + 1, [Case((torch.ones(2),))])


def test_an_input_changed_in_place_and_put_back_is_caught_by_its_version_counter():
    def round_trip(x):
        x.unsqueeze_(0)
        out = x * 2
        x.squeeze_(0)
        return out.squeeze(0)

    said = fails(checks.check_function, round_trip, lambda x: x * 2, [Case((torch.ones(2),))])
    assert "这块内存在调用中被写过" in said


def test_an_input_written_through_data_and_put_back_is_caught_though_no_version_counter_moved():
    def round_trip(raw):
        raw.data.sub_(1)  # .data has a version counter of its own
        labels = raw.long()
        raw.data.add_(1)
        return labels

    said = fails(checks.check_function, round_trip, lambda raw: (raw - 1).long(), [Case((torch.ones(3),))])
    assert "这块内存在调用中被写过" in said and ".data" in said


def test_a_function_writing_only_its_own_tensors_or_meta_inputs_is_not_taken_for_writing_its_inputs():
    def own(x):
        out = x.clone()
        out.data.add_(1)  # its own result, not the caller's memory
        return out

    assert checks.call_learner(own, Case((torch.ones(2),)), fn_name="own").tolist() == [2.0, 2.0]
    assert checks.call_learner(lambda x: x * 2, Case((torch.ones(2, device="meta"),)), fn_name="f").is_meta


def test_function_checker_does_not_let_the_learner_change_the_reference_input():
    seen = []

    def reference(x):
        seen.append(x.clone())
        return x * 2

    def sneaky(x):
        x.mul_(0)
        return x

    with pytest.raises(CheckError):
        checks.check_function(sneaky, reference, [Case((torch.ones(2),))])
    assert torch.equal(seen[0], torch.ones(2))


def test_function_checker_compares_tuples_and_python_values():
    checks.check_function(lambda a, b: (a + b, 3), lambda a, b: (a + b, 3), [Case((torch.ones(2), torch.ones(2)))])
    msg = fails(checks.check_function, lambda s: tuple(s), lambda s: (1, 2), [Case(((1, 3),))])
    assert "返回值[1]" in msg and "期望 2，得到 3" in msg


def test_warnings_from_learner_code_never_reach_stderr_on_a_pass(capfd):
    def noisy(x):
        warnings.warn("a torch-style UserWarning", UserWarning, stacklevel=1)
        return x * 2

    checks.check_function(noisy, lambda x: x * 2, checks.make_cases(3))
    out, err = capfd.readouterr()
    assert err == ""


def test_warnings_from_learner_code_are_shown_in_the_failure_message():
    def noisy(x):
        warnings.warn("To copy construct from a tensor, use clone()", UserWarning, stacklevel=1)
        return x * 3

    assert "copy construct" in fails(checks.check_function, noisy, lambda x: x * 2, [Case((torch.ones(2),))])


def test_describe_prints_shape_dtype_device_requires_grad_on_one_line(capsys):
    checks.describe(torch.zeros(2, 3, requires_grad=True), "w")
    out = capsys.readouterr().out
    assert out == "w: shape=(2, 3) dtype=torch.float32 device=cpu requires_grad=True\n"


def test_passed_is_honest_about_hidden_tests(capsys):
    checks.passed("f")
    assert "hidden tests" in capsys.readouterr().out


def test_function_checker_compares_dicts_key_by_key():
    ref = lambda d: {"x": d["x"] * 2, "n": 1}  # noqa: E731
    checks.check_function(ref, ref, [Case(({"x": torch.ones(2)},))])
    msg = fails(checks.check_function, lambda d: {"x": d["x"] * 3, "n": 1}, ref, [Case(({"x": torch.ones(2)},))])
    assert "['x']" in msg and "数值" in msg


def test_function_checker_accepts_meta_inputs():
    checks.check_function(lambda x: x * 2, lambda x: x * 2, [Case((torch.ones(2, device="meta"),))])
    msg = fails(
        checks.check_function, lambda x: torch.zeros(2), lambda x: x * 2, [Case((torch.ones(2, device="meta"),))]
    )
    assert "device" in msg and "meta" in msg


def test_torch_error_messages_get_hints():
    def scalar_backward(x):
        (x * 2).backward()

    msg = fails(checks.check_function, scalar_backward, lambda x: None, [Case((torch.ones(2, requires_grad=True),))])
    assert "上游梯度" in msg


def test_in_jupyter_a_failed_check_shows_its_message_and_still_counts_as_an_error():
    import nbformat
    from nbclient import NotebookClient
    from nbformat.v4 import new_code_cell, new_notebook
    from nbgrader.utils import determine_grade

    test = new_code_cell("checks.check_tensor(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))")
    test.metadata["nbgrader"] = {"grade": True, "solution": False, "points": 1, "grade_id": "t", "locked": True}
    nb = new_notebook(cells=[new_code_cell("import torch\nfrom course import checks"), test])
    NotebookClient(nb, kernel_name="python3", allow_errors=True, timeout=120).execute()
    (output,) = nb.cells[1].outputs
    assert output.output_type == "error" and output.ename == "CheckError"
    shown = "\n".join(output.traceback)
    assert "dtype" in shown and "checks.check_tensor(torch.tensor([1, 2])" in shown
    assert "course/checks.py" not in shown and "Traceback" not in shown
    assert determine_grade(nbformat.from_dict(nb.cells[1]))[0] == 0


def test_tensors_playing_gpus_pass_that_device_on_like_a_gpu_would():
    # 09 diagnose meets cuda:0 beside cuda:1 on a CPU: a correct answer that detaches its inputs, makes a
    # tensor on logits.device or moves labels there must see the devices a GPU would give it
    from course.fixtures.debugging import on_devices

    def devices(logits, labels, num_classes):
        made = torch.ones(logits.shape[0], device=logits.device)
        moved = labels.to(logits.device)
        return [
            str(t.device)
            for t in (logits.detach(), logits.data, logits.sum(dim=1), made, moved, labels.cuda(), logits.cpu())
        ] + [torch.allclose(logits.sum(dim=1), made), labels.is_cuda, labels.get_device()]

    logits, labels = torch.rand(3, 2), torch.tensor([0, 1, 1])
    got = on_devices(devices, logits, labels, 2, ("cuda:0", "cuda:1"))
    assert got == ["cuda:0", "cuda:0", "cuda:0", "cuda:0", "cuda:0", "cuda:0", "cpu", False, True, 1]
    assert (logits.device, labels.device) == (torch.device("cpu"), torch.device("cpu"))


def test_played_devices_take_module_to_and_know_which_tensors_a_call_sent_somewhere():
    # 10 train_one_epoch: model.to(its own device) passes a bool non_blocking positionally (no device index), and
    # the global-device diagnosis needs to know whether a batch was sent anywhere at all (x.to("cpu") returns x)
    from course.fixtures import PlayedDevices

    model = torch.nn.Linear(2, 2)
    mode = PlayedDevices({id(p): torch.device("cuda:1") for p in model.parameters()})
    kept, sent = torch.ones(1, 2), torch.ones(1, 2)
    with mode:
        model.to(next(model.parameters()).device)
        same = sent.to("cpu")
        on_model = kept.to(model.weight.device)
    assert mode.reports(model.weight) == torch.device("cuda:1") == mode.reports(on_model)
    assert same is sent and id(sent) in mode.sent and id(on_model) in mode.sent and id(kept) not in mode.sent


def test_tensors_playing_gpus_report_their_storage_and_refuse_a_mixed_op_like_a_gpu():
    # their storage is on the played device, numpy(force=True) and a CPU tensor type copy to the host, and an
    # op that mixes them with a CPU tensor of elements (not a 0-d one) or with each other raises
    from course.fixtures.debugging import on_devices

    def seen(logits, labels, num_classes):
        refused = []
        for op in (lambda: torch.allclose(logits.sum(dim=1), torch.ones(3)), lambda: logits[:, 0] + labels):
            try:
                op()
            except RuntimeError as err:
                refused.append(str(err).split("!")[0])
        storages = [str(t.untyped_storage().device) for t in (logits, labels, logits.cpu())]
        host = [labels.numpy(force=True).tolist(), str(labels.type(torch.LongTensor).device)]
        return storages, host, refused, bool((labels < torch.tensor(num_classes)).all())

    storages, host, refused, in_range = on_devices(
        seen, torch.rand(3, 2), torch.tensor([0, 1, 1]), 2, ("cuda:0", "cuda:1")
    )
    assert storages == ["cuda:0", "cuda:1", "cpu"] and host == [[0, 1, 1], "cpu"] and in_range
    same = "Expected all tensors to be on the same device, but found at least two devices"
    assert refused == [f"{same}, cuda:0 and cpu", f"{same}, cuda:0 and cuda:1"]


def test_tensors_playing_gpus_refuse_an_unsynchronised_copy_to_the_host_and_keep_a_host_buffer_on_the_host():
    # a GPU -> CPU copy with non_blocking=True must be synchronised before reading it: strict mode raises; a
    # blocking copy_ into a host buffer leaves the buffer on the host; a positional bool is non_blocking
    from course.fixtures.debugging import on_devices

    def seen(logits, labels, num_classes):
        refused = []
        for op in (lambda: labels.to("cpu", non_blocking=True), lambda: torch.empty(3).copy_(logits[:, 0], True)):
            try:
                op()
            except RuntimeError as err:
                refused.append(str(err).split("（")[0])
        buffer = torch.empty(3, dtype=torch.long).copy_(labels)
        moved = labels.to(torch.device("cpu"), torch.long, False, True)
        return refused, str(buffer.device), buffer.numpy().tolist(), str(moved.device)

    refused, buffer_device, values, moved_device = on_devices(
        seen, torch.rand(3, 2), torch.tensor([0, 1, 1]), 2, ("cuda:0", "cuda:1")
    )
    assert refused == ["cuda:1 → CPU 的拷贝用了 non_blocking=True", "cuda:0 → CPU 的拷贝用了 non_blocking=True"]
    assert (buffer_device, values, moved_device) == ("cpu", [0, 1, 1], "cpu")


def test_a_banned_function_aliased_after_the_walk_over_torch_modules_or_named_by_a_helper_is_refused():
    # the walk over torch's modules is kept until a module is imported: an alias set on a torch module after it
    # ran, and a helper of the learner's that names the function, are found from the learner's code instead
    import functools

    from course.fixtures.autograd import counting_vjps, sum_and_sum_of_squares

    def rows(f, x):
        leaf = x.detach().requires_grad_(True)
        y = f(leaf)
        eye = torch.eye(y.numel()).reshape(y.numel(), *y.shape)
        return torch.stack([torch.autograd.grad(y, leaf, v, retain_graph=True)[0] for v in eye])

    assert counting_vjps(rows, sum_and_sum_of_squares, torch.ones(3))[1:] == (
        2,
        1,
        2,
        False,
        1,
        False,
        False,
        False,
        False,
    )
    torch.autograd.hb_alias = torch.autograd.functional.jacobian
    helper = functools.partial(torch.autograd.functional.jacobian, vectorize=False)
    try:
        for fn in (lambda f, x: torch.autograd.hb_alias(f, x.detach()), lambda f, x: helper(f, x.detach())):
            with pytest.raises(RuntimeError, match="不能用 torch.autograd.functional.jacobian"):
                counting_vjps(fn, sum_and_sum_of_squares, torch.ones(3))
    finally:
        del torch.autograd.hb_alias
