"""The grader's code in the learner's process: a learner cell or call that rewrites it (a scenario's counter, a
function's code, a table) fails the next scenario's test with a message that names what changed, and the
original is back before the scenario runs, so the report is made by the grader's code as shipped."""

from __future__ import annotations

import pytest

from autograder.child import integrity
from autograder.child.judge import Learner, LoopbackChannel, Remote
from autograder.child.learner import Server, exec_cell
from course import checks, remote, scenarios, settings

_EPOCH = """
import torch
def mean_loss(losses):
    return sum(loss.item() for loss in losses) / len(losses)  # one sync per loss
"""


def guarded(source: str) -> tuple[Learner, Remote]:
    namespace: dict = {"__name__": "__main__"}
    learner = Learner(LoopbackChannel(Server(namespace, exec_cell(namespace), guard=True)))
    assert learner.run_cell(source)["error"] is None
    return learner, Remote(learner, ["name", "mean_loss"])


@pytest.fixture
def pristine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a test's learner cell changes in this shared process is put back after it, whatever happens."""
    monkeypatch.setattr(scenarios.SyncCounter, "_record", scenarios.SyncCounter._record)
    monkeypatch.setattr(scenarios, "SYNC_CALLS", scenarios.SYNC_CALLS)
    monkeypatch.setattr(scenarios.count_syncs, "__code__", scenarios.count_syncs.__code__)
    saved = dict(scenarios.SYNC_CALLS)
    yield
    scenarios.SYNC_CALLS.clear()
    scenarios.SYNC_CALLS.update(saved)


def _syncs(fn: Remote) -> list[str]:
    import torch

    _, report = remote.run(scenarios.count_syncs, fn, [torch.tensor(1.0), torch.tensor(2.0)])
    return report["calls"]


def test_the_baseline_finds_a_rebound_method_a_rewritten_function_and_an_emptied_table_and_puts_them_back(
    pristine: None,
) -> None:
    baseline = integrity.Baseline()
    record, code, table = scenarios.SyncCounter._record, scenarios.count_syncs.__code__, dict(scenarios.SYNC_CALLS)
    scenarios.SyncCounter._record = lambda *a, **k: None
    scenarios.count_syncs.__code__ = (lambda fn, *a, **k: (None, {})).__code__
    scenarios.SYNC_CALLS.clear()
    found = baseline.tampered()
    assert found == [
        "course.scenarios.SyncCounter._record",
        "course.scenarios.count_syncs（函数的 __code__ / 默认参数）",
        "course.scenarios.SYNC_CALLS（表的内容）",
    ]
    assert scenarios.SyncCounter._record is record and scenarios.count_syncs.__code__ is code
    assert scenarios.SYNC_CALLS == table
    assert baseline.tampered() == []


def test_a_cell_that_silences_the_sync_counter_fails_the_next_scenario_which_then_counts_as_shipped(
    pristine: None,
) -> None:
    learner, mean_loss = guarded(
        _EPOCH + "import course.scenarios\ncourse.scenarios.SyncCounter._record = lambda *a, **k: None\n"
    )
    with pytest.raises(checks.SettingChanged) as info:
        _syncs(mean_loss)
    assert info.value.setting == settings.GRADER_CODE
    assert "course.scenarios.SyncCounter._record" in str(info.value)
    assert _syncs(mean_loss) == [".item()", ".item()"]  # put back: the next report is the grader's own


def test_a_call_that_rewrites_the_counter_and_leaves_it_so_fails_that_call(pristine: None) -> None:
    source = _EPOCH + (
        "import course.scenarios\n"
        "def mean_loss(losses, _done=[]):\n"
        "    course.scenarios.SyncCounter._record = lambda *a, **k: None\n"
        "    return sum(loss.item() for loss in losses) / len(losses)\n"
    )
    learner, mean_loss = guarded(source)
    with pytest.raises(checks.SettingChanged, match="SyncCounter._record"):
        _syncs(mean_loss)


def test_an_honest_learner_passes_every_scenario_and_a_copied_test_line_is_not_tampering(pristine: None) -> None:
    learner, mean_loss = guarded(_EPOCH + "from course import checks\nchecks.exercise('mean_loss')\n")
    assert _syncs(mean_loss) == [".item()", ".item()"]
    assert _syncs(mean_loss) == [".item()", ".item()"]


def test_the_torch_machinery_the_observers_stand_on_and_the_builtins_count_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import builtins

    import torch

    baseline = integrity.Baseline()
    enter, call = torch.overrides.TorchFunctionMode.__enter__, torch.nn.Module.__call__
    monkeypatch.setattr(torch.overrides.TorchFunctionMode, "__enter__", enter)  # put back whatever happens
    monkeypatch.setattr(torch.nn.Module, "__call__", call)
    monkeypatch.setattr(builtins, "isinstance", builtins.isinstance)
    torch.overrides.TorchFunctionMode.__enter__ = lambda self: self  # no mode would ever be entered
    torch.Tensor.item = lambda self: 0.0  # over TensorBase's own: a name added to the class
    torch.nn.Module.__call__ = lambda self, *a, **k: None
    builtins.isinstance = lambda *a: True
    found = baseline.tampered()
    assert set(found) == {
        "torch.overrides.TorchFunctionMode.__enter__",
        "torch.Tensor.item",
        "torch.nn.Module.__call__",
        "builtins.isinstance",
    }
    assert "item" not in vars(torch.Tensor) and torch.nn.Module.__call__ is call and not isinstance(1, str)
