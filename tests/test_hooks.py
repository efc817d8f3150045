"""A learner's function that leaves a hook on a module it was given fails, in the kernel and in the judge, and the
hook is taken off at once; a hook removed before returning, or one the caller had put there, does not count."""

from __future__ import annotations

import pytest
import torch
from torch import nn
from torch.optim import optimizer as optimizer_module

from autograder.child.judge import Learner, LoopbackChannel, Remote
from autograder.child.learner import Server, exec_cell
from course import checks, hooks, settings


def remote_function(source: str, name: str) -> Remote:
    namespace: dict = {"__name__": "__main__"}
    exec(compile("import torch\n" + source, "<learner>", "exec"), namespace)
    return Remote(Learner(LoopbackChannel(Server(namespace, exec_cell(namespace)))), ["name", name])


LEAVES_HOOK = "def run(model, x):\n    model[1].register_forward_hook(lambda m, i, o: None)\n    return model(x)\n"


def test_a_hook_added_inside_a_call_is_named_and_taken_off_again():
    model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    before = hooks.snapshot(([model], {}))
    model[1].register_forward_hook(lambda m, i, o: None)
    model[0].weight.register_hook(lambda g: g)
    assert hooks.left_behind(before) == "1 上多了 1 个 forward hook（register_forward_hook）"
    assert not model[1]._forward_hooks and not model[0].weight._backward_hooks
    assert hooks.left_behind(before) == ""


def test_the_callers_own_hooks_and_hooks_removed_before_returning_do_not_count():
    model = nn.Linear(2, 2)
    mine = model.register_forward_hook(lambda m, i, o: None)
    before = hooks.snapshot((model,))
    model.register_forward_pre_hook(lambda m, i: None).remove()
    assert hooks.left_behind(before) == "" and list(model._forward_hooks) == [mine.id]


def test_a_hook_left_on_a_tensor_parameter_is_named():
    model = nn.Linear(2, 2)
    before = hooks.snapshot({"model": model})
    model.bias.register_hook(lambda g: g)
    assert hooks.left_behind(before) == "bias 上多了 1 个 梯度 hook（register_hook）"


@pytest.mark.parametrize("where", ["kernel", "judge"])
def test_a_function_leaving_a_hook_on_the_callers_model_fails_with_its_mistake(where: str):
    namespace: dict = {"torch": torch}
    exec(LEAVES_HOOK, namespace)
    fn = namespace["run"] if where == "kernel" else remote_function(LEAVES_HOOK, "run")
    model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    with pytest.raises(checks.CheckError) as failed:
        checks.call_learner(fn, checks.Case((model, torch.ones(1, 2))), fn_name="run")
    assert failed.value.mistake == "hook-left-on-module" and "留下了 hook" in str(failed.value)
    assert not model[1]._forward_hooks  # in the kernel the caller's own model is clean again


def test_a_global_module_hook_left_registered_is_a_changed_setting_and_is_put_back():
    before = settings.snapshot()
    torch.nn.modules.module.register_module_forward_hook(lambda m, i, o: None)
    changed = settings.restore_changed(before)
    assert [name for name, _ in changed] == [
        "torch.nn.modules.module.register_module_forward_hook() / register_optimizer_step_pre_hook() 等全局 hook"
    ]
    assert "_global_forward_hooks 0 个 -> 1 个" in changed[0][1]
    assert not torch.nn.modules.module._global_forward_hooks


def test_a_step_hook_left_on_the_callers_optimizer_is_named_and_taken_off():
    model = nn.Linear(2, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    before = hooks.snapshot((model, optimizer))
    optimizer.register_step_post_hook(lambda opt, args, kwargs: None)  # e.g. a scheduler stepped from a hook
    assert hooks.left_behind(before) == "SGD 上多了 1 个 step post-hook（optimizer.register_step_post_hook）"
    assert not optimizer._optimizer_step_post_hooks


def test_a_global_optimizer_hook_left_registered_is_a_changed_setting_and_is_put_back():
    before = settings.snapshot()
    optimizer_module.register_optimizer_step_pre_hook(lambda opt, args, kwargs: None)
    changed = settings.restore_changed(before)
    assert len(changed) == 1 and "_global_optimizer_pre_hooks 0 个 -> 1 个" in changed[0][1]
    assert not optimizer_module._global_optimizer_pre_hooks


def test_a_function_put_in_place_of_a_module_method_is_reported_and_taken_off():
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    model[1].keep = print  # there before the call: not the call's doing
    before = hooks.snapshot([model])
    model[1].train = lambda mode=True: model[1]  # frozen "for good": model.train() no longer reaches it
    assert hooks.left_on_callers(before) == (hooks.METHOD_REPLACED, "1.train")
    assert "train" not in vars(model[1]) and model[1].keep is print
    model.train()
    assert model[1].training and hooks.left_on_callers(before) is None


SETS_REDUCTION = "def run(loss_fn, x):\n    loss_fn.reduction = 'sum'\n    return loss_fn(x, torch.zeros_like(x))\n"


def test_a_changed_setting_of_a_torch_module_is_named_and_put_back():
    model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
    model.called = 0  # not a setting torch declares (a probe's counter)
    before = hooks.snapshot([model])
    model[1].p, model.called = 0.0, 3
    model.eval()  # the mode is the exercises' own business
    assert hooks.left_on_callers(before) == (hooks.ATTRIBUTE_CHANGED, "1.p 从 0.5 变成了 0.0")
    assert model[1].p == 0.5 and hooks.left_on_callers(before) is None


@pytest.mark.parametrize("where", ["kernel", "judge"])
def test_a_function_changing_the_callers_loss_reduction_fails_and_leaves_it_as_it_was(where: str):
    namespace: dict = {"torch": torch}
    exec(SETS_REDUCTION, namespace)
    fn = namespace["run"] if where == "kernel" else remote_function(SETS_REDUCTION, "run")
    loss_fn = nn.MSELoss()
    with pytest.raises(checks.CheckError) as failed:
        checks.call_learner(fn, checks.Case((loss_fn, torch.ones(3)), label="x"), fn_name="run", copy=False)
    assert "MSELoss.reduction 从 'mean' 变成了 'sum'" in str(failed.value)
    assert loss_fn.reduction == "mean"
