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


def test_the_grader_s_uncounted_block_entered_from_a_learner_s_call_still_counts_its_syncs(pristine: None) -> None:
    source = _EPOCH + (
        "import course.scenarios\n"
        "def mean_loss(losses):\n"
        "    with course.scenarios.uncounted():  # the grader's own bookkeeping block\n"
        "        return sum(loss.item() for loss in losses) / len(losses)\n"
    )
    learner, mean_loss = guarded(source)
    assert _syncs(mean_loss) == [".item()", ".item()"]


def test_a_function_behind_a_contextmanager_or_in_a_closure_is_checked_and_put_back(pristine: None) -> None:
    """What the grader's functions reach without a name: a ``@contextmanager``'s generator function
    (``__wrapped__``) and the functions a closure holds."""
    baseline = integrity.Baseline()
    generator = scenarios._logging_on.__wrapped__
    code = generator.__code__
    assert any(f is generator for _, f, _ in baseline.functions.values())
    generator.__code__ = scenarios.uncounted.__wrapped__.__code__
    try:
        found = baseline.tampered()
        assert found == ["course.scenarios._logging_on.__wrapped__（函数的 __code__ / 默认参数）"]
        assert generator.__code__ is code
        assert baseline.tampered() == []
        label, cell, held = baseline.cells[0]
        cell.cell_contents = lambda *a, **k: None
        assert baseline.tampered() == [label] and cell.cell_contents is held
    finally:
        generator.__code__ = code


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


def test_a_keyword_default_changed_in_place_or_a_new_defaults_tuple_is_found_and_an_attribute_dict_is_not(
    pristine: None,
) -> None:
    """The quick path (what each function refers to, compared in C) hands a change to the exact one; a function
    that only gained an attribute or its annotations dict comes out unchanged there."""
    baseline = integrity.Baseline()
    fn = checks.check_tensor  # keyword-only defaults
    kwdefaults, name, value = fn.__kwdefaults__, "rtol", fn.__kwdefaults__["rtol"]
    defaults = checks.describe.__defaults__
    fn.note = "an attribute dict, made now"
    assert fn.__annotations__ is not None
    try:
        assert baseline.tampered() == []
        kwdefaults[name] = 0.5  # a looser tolerance, in place
        checks.describe.__defaults__ = tuple(list(defaults))  # equal values, another tuple
        found = baseline.tampered()  # each labelled by the first module that binds it (course re-exports some)
        assert sorted(label.split("（")[0].rsplit(".", 1)[-1] for label in found) == ["check_tensor", "describe"]
        assert all(label.endswith("（函数的 __code__ / 默认参数）") for label in found)
        assert fn.__kwdefaults__[name] is value and checks.describe.__defaults__ is defaults
        assert baseline.tampered() == []
    finally:
        kwdefaults[name], checks.describe.__defaults__ = value, defaults
        fn.__kwdefaults__ = kwdefaults
        del fn.note


def test_a_scenario_call_right_after_a_checked_one_skips_the_check_before_it_and_a_cell_between_them_does_not(
    pristine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    learner, mean_loss = guarded(_EPOCH)
    server = learner.channel.server
    checks_made: list[int] = []
    change = server.baseline.change
    monkeypatch.setattr(server.baseline, "change", lambda: checks_made.append(1) or change())
    _syncs(mean_loss)
    assert len(checks_made) == 2  # before (a cell ran) and after
    _syncs(mean_loss)
    assert len(checks_made) == 3  # after only: nothing of the learner's ran since the last check
    learner.run_cell("import course.scenarios\ncourse.scenarios.SyncCounter._record = lambda *a, **k: None\n")
    with pytest.raises(checks.SettingChanged, match="SyncCounter._record"):
        _syncs(mean_loss)
    assert len(checks_made) == 5
    assert _syncs(mean_loss) == [".item()", ".item()"]
