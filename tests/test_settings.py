"""A learner's function that leaves a process-wide setting changed fails, in the kernel and in the judge, and the
setting is put back at once; what only a library did, or what the learner merely claims, does not count."""

from __future__ import annotations

import gc
import logging
import os
import sys
import types
import warnings

import pytest
import torch

from autograder.child.judge import Learner, LoopbackChannel, Remote
from autograder.child.learner import Server, exec_cell
from course import checks, settings


def remote_function(source: str, name: str) -> Remote:
    namespace: dict = {"__name__": "__main__"}
    exec(compile("import warnings\nimport torch\n" + source, "<learner>", "exec"), namespace)
    return Remote(Learner(LoopbackChannel(Server(namespace, exec_cell(namespace)))), ["name", name])


def test_a_changed_setting_is_put_back_and_named_with_how_it_changed():
    before = settings.snapshot()
    torch.set_default_dtype(torch.float64)
    torch.set_float32_matmul_precision("medium")
    changed = [c for c in settings.restore_changed(before) if "fp32_precision" not in c[0]]  # the new API follows
    assert changed == [
        ("torch.set_default_dtype()", "torch.float32 -> torch.float64"),
        ("torch.set_float32_matmul_precision()", "'highest' -> 'medium'"),
    ]
    assert torch.get_default_dtype() == torch.float32 and torch.get_float32_matmul_precision() == "highest"
    assert settings.restore_changed(before) == []


def test_a_filter_for_one_message_counts_unless_a_library_was_imported_during_the_call():
    class LibraryWarning(Warning):
        pass

    with warnings.catch_warnings():
        before = settings.snapshot()
        warnings.filterwarnings("ignore", message="TypedStorage is deprecated")
        assert settings.restore_changed(before) == [
            (
                "warnings.filterwarnings() / warnings.simplefilter()",
                "新增 [('ignore', 'Warning', 'TypedStorage is deprecated')]",
            )
        ]
        before = settings.snapshot()
        sys.modules["_a_library_imported_during_the_call"] = types.ModuleType("_a_library_imported_during_the_call")
        try:
            warnings.simplefilter("once", LibraryWarning)  # what SymPy does when it is imported
            warnings.filterwarnings("ignore", message="its own message")
            assert settings.restore_changed(before) == []
            warnings.simplefilter("ignore")  # a blanket filter is never a library's
            assert settings.restore_changed(before) == [
                ("warnings.filterwarnings() / warnings.simplefilter()", "新增 [('ignore', 'Warning', None)]")
            ]
        finally:
            del sys.modules["_a_library_imported_during_the_call"]


def test_in_the_kernel_call_learner_names_the_function_and_puts_the_setting_back():
    def mse(a: torch.Tensor) -> torch.Tensor:
        torch.set_default_dtype(torch.float64)
        return a.square().mean()

    with pytest.raises(checks.CheckError) as failed:
        checks.call_learner(mse, checks.Case((torch.ones(2),)), fn_name="mse")
    assert failed.value.mistake == "global-setting-changed"
    assert "mse 返回之后" in str(failed.value) and "torch.set_default_dtype()" in str(failed.value)
    assert torch.get_default_dtype() == torch.float32


def test_the_learner_process_puts_the_setting_back_and_the_judge_gets_it_as_a_field():
    fn = remote_function("def f(x):\n    torch.set_grad_enabled(False)\n    return x * 2\n", "f")
    with pytest.raises(checks.SettingChanged) as failed:
        fn(torch.ones(2))
    assert failed.value.setting == "torch.set_grad_enabled()" and failed.value.change == "True -> False"
    assert failed.value.mistake == "grad-mode-left-off"
    assert torch.is_grad_enabled()
    with pytest.raises(checks.CheckError, match="grad mode 仍然关着"):
        checks.call_learner(fn, checks.Case((torch.ones(2),)), fn_name="f")


def test_an_exception_the_learner_names_setting_changed_is_only_the_learners_error():
    fn = remote_function(
        "class SettingChanged(Exception):\n    pass\n\ndef f(x):\n    raise SettingChanged('torch.set_default_dtype()')\n",
        "f",
    )
    with pytest.raises(Exception) as raised:
        fn(torch.ones(2))
    assert not isinstance(raised.value, checks.CheckError)
    with pytest.raises(checks.CheckError) as failed:
        checks.call_learner(fn, checks.Case((torch.ones(2),)), fn_name="f")
    assert failed.value.mistake == "" and "f 抛出 SettingChanged" in str(failed.value)


def test_the_root_logger_and_the_environment_are_settings_too():
    level, handlers = logging.root.level, list(logging.root.handlers)
    before = settings.snapshot()
    logging.basicConfig(level=logging.DEBUG, force=True)  # force: pytest's own handlers are on the root logger
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
    changed = dict(settings.restore_changed(before))
    assert changed["logging.basicConfig() / the root logger"].endswith(f"-> DEBUG，handler {len(handlers)} 个 -> 1 个")
    assert changed["os.environ"] == "变了的变量：CUDA_LAUNCH_BLOCKING"
    assert "CUDA_LAUNCH_BLOCKING" not in os.environ
    assert logging.root.level == level and logging.root.handlers == handlers


def test_reseeding_the_global_rng_counts_even_with_the_seed_it_already_had_and_drawing_does_not():
    torch.manual_seed(0)
    torch.rand(3)
    state = torch.get_rng_state()
    before = settings.snapshot()
    torch.manual_seed(0)  # the notebook's own seed: torch.initial_seed() alone would not change
    assert [name for name, _ in settings.restore_changed(before)] == [
        "torch.manual_seed() / torch.seed()",
        settings.CUDA_SEED,  # torch.manual_seed seeds the GPUs too (queued until CUDA starts)
    ]
    assert torch.equal(torch.get_rng_state(), state)  # the stream as it was before the call
    expected = torch.rand(4)
    torch.set_rng_state(state)
    before = settings.snapshot()
    torch.rand(2)  # a Dropout in training mode draws: that is not reseeding
    assert settings.restore_changed(before) == [] and torch.initial_seed() == 0
    torch.set_rng_state(state)
    before = settings.snapshot()
    assert settings.restore_changed(before) == []
    assert torch.equal(torch.rand(4), expected)  # the probe leaves the stream where it was


def test_the_learner_process_reports_a_reseeded_global_rng_as_a_field():
    fn = remote_function("def f(x):\n    torch.manual_seed(0)\n    return x + torch.rand(2)\n", "f")
    with pytest.raises(checks.CheckError) as failed:
        checks.call_learner(fn, checks.Case((torch.ones(2),)), fn_name="f")
    assert failed.value.mistake == "global-seed-reset" and "重设了全局随机种子" in str(failed.value)


def test_the_new_fp32_precision_api_and_the_garbage_collector_are_settings_and_legacy_reads_do_not_crash():
    before = settings.snapshot()
    torch.backends.cuda.matmul.fp32_precision = "tf32"  # torch refuses the legacy reads after this
    gc.disable()
    changed = dict(settings.restore_changed(before))
    assert list(changed)[:2] == ["gc.disable()", "torch.backends.cuda.matmul.fp32_precision"]  # what was set
    assert changed["torch.backends.cuda.matmul.fp32_precision"].endswith("-> 'tf32'")
    assert gc.isenabled() and torch.backends.cuda.matmul.fp32_precision in ("none", "ieee")  # as it was
    assert torch.get_float32_matmul_precision() == "highest"  # the legacy read works again


def test_a_named_logger_given_a_handler_counts_but_loggers_a_library_sets_up_for_itself_do_not():
    import torch.utils._python_dispatch as dispatch

    class Plain(dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    before = settings.snapshot()
    with Plain():  # the first dispatch mode of a process makes torch set up torch._dynamo's loggers
        torch.ones(2) + 1
    assert settings.restore_changed(before) == []
    before = settings.snapshot()
    train = logging.getLogger("course-test-train")
    train.setLevel(logging.INFO)
    train.addHandler(logging.StreamHandler(sys.stdout))
    changed = settings.restore_changed(before)
    assert changed == [("logging.getLogger(name) 的级别 / handler", "变了的 logger：course-test-train")]
    assert train.level == logging.NOTSET and not train.handlers


def test_gc_thresholds_logging_disable_the_working_directory_sys_path_and_the_streams_are_settings_too():
    before = settings.snapshot()
    threshold, cwd, path, streams = gc.get_threshold(), os.getcwd(), list(sys.path), (sys.stdout, sys.stderr)
    gc.set_threshold(0)  # automatic collection off, though gc.isenabled() still says True
    logging.disable(logging.INFO)
    os.chdir("/")
    sys.path.append("/nowhere")
    sys.stdout = sys.stderr
    changed = dict(settings.restore_changed(before))
    assert changed == {
        "gc.set_threshold()": f"{threshold!r} -> {(0, *threshold[1:])!r}",
        "os.chdir()（当前工作目录）": f"{cwd!r} -> '/'",
        "sys.path": "加入 ['/nowhere']，去掉 []",
        "sys.stdout / sys.stderr": changed["sys.stdout / sys.stderr"],
        "logging.disable()": "0 -> 20",
    }
    assert gc.get_threshold() == threshold and logging.root.manager.disable == 0 and os.getcwd() == cwd
    assert sys.path == path and (sys.stdout, sys.stderr) == streams
    assert settings.restore_changed(before) == []


def test_the_learner_process_reports_an_input_written_through_data_so_the_judge_refuses_it():
    fn = remote_function(
        "def f(raw):\n    raw.data.sub_(1)\n    out = raw.long()\n    raw.data.add_(1)\n    return out\n", "f"
    )
    with pytest.raises(checks.CheckError) as failed:
        checks.call_learner(fn, checks.Case((torch.ones(3),)), fn_name="f")
    assert failed.value.mistake == "modifies-input" and ".data" in str(failed.value)


def test_a_cuda_seed_queued_before_cuda_starts_is_a_change_and_is_taken_off_the_queue():
    """On a machine without a GPU torch only queues torch.cuda.manual_seed*; the queue is what a reading sees."""
    for seed in (lambda: torch.cuda.manual_seed_all(0), lambda: torch.cuda.manual_seed(1), torch.cuda.seed_all):
        before = settings.snapshot()
        seed()
        assert [name for name, _ in settings.restore_changed(before)] == [settings.CUDA_SEED]
        assert settings.restore_changed(before) == []


def test_fp32_precision_put_back_through_the_legacy_setter_is_no_change():
    """set_float32_matmul_precision("highest") writes "ieee" where "none" (inherit: ieee) was: the same precision."""
    before = settings.snapshot()
    previous = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    torch.set_float32_matmul_precision(previous)
    assert settings.restore_changed(before) == []
    torch.backends.cuda.matmul.fp32_precision = "tf32"
    changed = dict(settings.restore_changed(before))
    assert "torch.backends.cuda.matmul.fp32_precision" in changed
    assert torch.backends.cuda.matmul.fp32_precision != "tf32"


def test_python_and_numpy_global_rngs_and_flush_denormal_are_settings_and_are_put_back():
    import random

    import numpy as np

    py_state, np_draw = random.getstate(), np.random.get_state(legacy=False)
    before = settings.snapshot()
    random.seed(7)
    np.random.seed(7)
    torch.set_flush_denormal(True)
    changed = dict(settings.restore_changed(before))
    assert changed[settings.PYTHON_RANDOM] == changed[settings.NUMPY_RANDOM] == "重设了种子，或从中抽了随机数"
    if "torch.set_flush_denormal()" in changed:  # a CPU without denormal flushing cannot turn it on
        assert changed["torch.set_flush_denormal()"] == "False -> True"
    assert (
        random.getstate() == py_state
        and (np.random.get_state(legacy=False)["state"]["key"] == np_draw["state"]["key"]).all()
    )
    assert torch.tensor([1e-40]).mul(1.0).item() != 0.0
    assert settings.restore_changed(before) == []


def _enter_a_function_mode() -> None:
    from torch.overrides import TorchFunctionMode

    TorchFunctionMode().__enter__()


_LEFT_BEHIND = {  # what a call left, and the setting that names it
    "F.relu rebound": (lambda: setattr(torch.nn.functional, "relu", lambda x: x), settings.BINDINGS),
    "Tensor.item replaced": (lambda: setattr(torch.Tensor, "item", lambda self: 0.0), settings.BINDINGS),
    "a TorchFunctionMode entered, never exited": (_enter_a_function_mode, "TorchFunctionMode"),
    "saved_tensors_hooks entered, never exited": (
        lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__(),
        "saved_tensors_hooks",
    ),
    "fp16 accumulation": (
        lambda: setattr(torch.backends.cuda.matmul, "allow_fp16_accumulation", True),
        "allow_fp16_accumulation",
    ),
    "flash attention off": (lambda: torch.backends.cuda.enable_flash_sdp(False), "enable_flash_sdp"),
    "reduced-precision math SDPA": (
        lambda: torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp(True),
        "allow_fp16_bf16_reduction_math_sdp",
    ),
    "MHA fast path off": (lambda: torch.backends.mha.set_fastpath_enabled(False), "set_fastpath_enabled"),
    "TorchScript off": (torch.jit._state.disable, "torch.jit._state"),
}


@pytest.mark.parametrize("left", list(_LEFT_BEHIND), ids=str)
def test_process_wide_torch_state_left_behind_is_named_and_put_back(left):
    do, named = _LEFT_BEHIND[left]
    before = settings.snapshot()
    do()
    changed = settings.restore_changed(before)
    assert len(changed) == 1 and named in changed[0][0] + changed[0][1], changed
    assert settings.restore_changed(settings.snapshot()) == []
    assert torch.tensor([2.0]).item() == 2.0 and torch.nn.functional.relu(torch.tensor(-1.0)).item() == 0.0
    assert torch._C._len_torch_function_stack() == 0 and settings._saved_tensors_hooks() is None


def test_the_learner_process_reports_a_rebound_torch_function_as_a_field():
    relu = torch.nn.functional.relu
    fn = remote_function("def f(x):\n    torch.nn.functional.relu = lambda t: t\n    return x\n", "f")
    with pytest.raises(checks.CheckError, match="torch.nn.functional.relu"):
        checks.call_learner(fn, checks.Case((torch.ones(1),)), fn_name="f")
    assert torch.nn.functional.relu is relu


def test_pickling_a_tensor_is_no_rebinding_whichever_reading_comes_first():
    import io

    before = settings.snapshot()
    del_slotnames = "__slotnames__" in vars(torch.Tensor)
    if del_slotnames:
        delattr(torch.Tensor, "__slotnames__")  # as in a process that has not pickled a tensor yet
    torch.save(torch.ones(2), io.BytesIO())
    assert settings.restore_changed(before) == []
