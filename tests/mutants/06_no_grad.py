"""Wrong answers learners write for 06_no_grad; each test cell must reject them, naming the mistake."""

from tests.notebooks import edited


def _body(signature: str, body: str) -> str:
    return signature + "\n" + "".join(f"    {line}\n" for line in body.strip().splitlines())


# ---------------------------------------------------------------------------------------------------
# The solutions; most mutants below are one of them with an edit or two

_EVAL_OK = """
modes = [(m, m.training) for m in model.modules()]
model.eval()
try:
    with torch.inference_mode():
        return model(x)
finally:
    for m, mode in modes:
        m.training = mode
"""
_IN_INFERENCE = "    with torch.inference_mode():\n        return model(x)\n"
_MODES = "modes = [(m, m.training) for m in model.modules()]\n"
_RESTORE = "finally:\n    for m, mode in modes:\n        m.training = mode\n"


def _eval_with(old: str, new: str, *more: tuple[str, str]) -> str:
    return _body("def evaluate(model, x):", edited(_EVAL_OK, (old, new), *more))


def _eval_restoring_only_after(error: str) -> str:
    """Restores the modes after a normal return, and in ``except error:`` (not in ``finally``)."""
    handler = f"except {error}:\n    for m, mode in modes:\n        m.training = mode\n    raise\n"
    after = "for m, mode in modes:\n    m.training = mode\nreturn out\n"
    return _eval_with("        return model(x)\n" + _RESTORE, "        out = model(x)\n" + handler + after)


_FREEZE_OK = """
count = 0
for name in names:
    module = model.get_submodule(name)
    for p in module.parameters():
        p.requires_grad_(False)
        count += p.numel()
    module.eval()
return count
"""
_FREEZE_EACH = "    for p in module.parameters():\n        p.requires_grad_(False)\n        count += p.numel()\n"
_COUNT_ALL = "    count += sum(p.numel() for p in module.parameters())\n"


def _freeze_with(old: str, new: str, *more: tuple[str, str]) -> str:
    return _body("def freeze(model, names):", edited(_FREEZE_OK, (old, new), *more))


_OPTIMIZER_OK = """
decay, no_decay = [], []
for p in model.parameters():
    if p.requires_grad:
        (decay if p.dim() >= 2 else no_decay).append(p)
groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
return torch.optim.AdamW(groups, lr=lr)
"""
_GROUPS = '[{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]'
_ADAMW = "torch.optim.AdamW(groups, lr=lr)"


def _optimizer_with(old: str, new: str, *more: tuple[str, str]) -> str:
    return _body("def make_optimizer(model, lr, weight_decay):", edited(_OPTIMIZER_OK, (old, new), *more))


_TD_OK = """
with torch.no_grad():
    target = reward + gamma * target_net(x_next)
prediction = value_net(x)
return ((prediction - target) ** 2).mean()
"""


def _td_with(old: str, new: str, *more: tuple[str, str]) -> str:
    return _body("def td_loss(value_net, target_net, x, reward, x_next, gamma):", edited(_TD_OK, (old, new), *more))


_REFINE_OK = """
z = h.detach().clone().requires_grad_(True)
for _ in range(steps):
    loss_fn(z).backward(inputs=[z])
    with torch.no_grad():
        z -= lr * z.grad
    z.grad = None
return z.detach()
"""


def _refine_with(old: str, new: str, *more: tuple[str, str]) -> str:
    return _body("def refine(h, loss_fn, steps, lr):", edited(_REFINE_OK, (old, new), *more))


MUTANTS = [
    # predict_no_grad ------------------------------------------------------------------------------
    dict(
        grade_id="test_predict_no_grad",
        formative=True,
        name="everything_in_no_grad_is_detached",
        code="predict_no_grad = (False, False)",
        expect="预测 1 的预测不对",
    ),
    dict(
        grade_id="test_predict_no_grad",
        formative=True,
        name="no_grad_changes_nothing",
        code="predict_no_grad = (True, True)",
        expect="预测 1 的预测不对",
    ),
    dict(
        grade_id="test_predict_no_grad",
        formative=True,
        name="swapped",
        code="predict_no_grad = (True, False)",
        expect="预测 1 的预测不对",
    ),
    dict(
        grade_id="test_predict_no_grad",
        formative=True,
        name="not_a_pair",
        code="predict_no_grad = False",
        expect="预测 1 应是",
    ),
    # predict_inference ----------------------------------------------------------------------------
    dict(
        grade_id="test_predict_inference",
        formative=True,
        name="inference_tensors_never_enter_autograd",
        code='predict_inference = ("raises", "raises")',
        expect="预测 2 的预测不对",
    ),
    dict(
        grade_id="test_predict_inference",
        formative=True,
        name="inference_tensors_are_plain_constants",
        code='predict_inference = ("ok", "ok")',
        expect="预测 2 的预测不对",
    ),
    dict(
        grade_id="test_predict_inference",
        formative=True,
        name="swapped",
        code='predict_inference = ("raises", "ok")',
        expect="预测 2 的预测不对",
    ),
    # predict_optimizer_state ----------------------------------------------------------------------
    dict(
        grade_id="test_predict_optimizer_state",
        formative=True,
        name="state_for_every_parameter",
        code="predict_optimizer_state = 4",
        expect="预测 3 的预测不对",
    ),
    dict(
        grade_id="test_predict_optimizer_state",
        formative=True,
        name="no_state_until_later",
        code="predict_optimizer_state = 0",
        expect="预测 3 的预测不对",
    ),
    dict(
        grade_id="test_predict_optimizer_state",
        formative=True,
        name="answer_as_string",
        code='predict_optimizer_state = "2"',
        expect="预测 3 应是",
    ),
    # evaluate -------------------------------------------------------------------------------------
    dict(
        grade_id="test_evaluate",
        name="inference_mode_without_eval",
        mistake="forward-in-training-mode",
        code="""
def evaluate(model, x):
    with torch.inference_mode():
        return model(x)
""",
        expect="model.eval()",
    ),
    dict(
        grade_id="test_evaluate",
        name="eval_without_inference_mode",
        code=_eval_with(_IN_INFERENCE, "    return model(x)\n"),
        expect="torch.inference_mode()",
    ),
    dict(
        grade_id="test_evaluate",
        name="no_grad_instead_of_inference_mode",
        code=_eval_with("torch.inference_mode()", "torch.no_grad()"),
        expect="而不是 torch.inference_mode()",
    ),
    dict(
        grade_id="test_evaluate",
        name="detach_output_instead_of_inference_mode",
        code=_eval_with(_IN_INFERENCE, "    return model(x).detach()\n"),
        expect="detach() 已经晚了",
    ),
    dict(
        grade_id="test_evaluate",
        name="forgets_to_restore_train_mode",
        code="""
def evaluate(model, x):
    model.eval()
    with torch.inference_mode():
        return model(x)
""",
        expect="没有恢复训练模式",
    ),
    dict(
        grade_id="test_evaluate",
        name="always_calls_train_afterwards",
        code=_eval_with(_MODES, "", (_RESTORE, "finally:\n    model.train()\n")),
        expect="不要无条件调用 model.train()",
    ),
    dict(
        grade_id="test_evaluate",
        name="restores_only_top_level_flag",
        mistake="training-attr-not-recursive",
        code=_eval_with(
            _MODES, "was_training = model.training\n", (_RESTORE, "finally:\n    model.training = was_training\n")
        ),
        expect="只改顶层这一个模块",
    ),
    dict(
        grade_id="test_evaluate",
        name="model_train_was_training_flips_frozen_backbone",
        mistake="recursive-train-restore",
        code=_eval_with(
            _MODES, "was_training = model.training\n", (_RESTORE, "finally:\n    model.train(was_training)\n")
        ),
        expect="所以直接 model.train(was_training)",
    ),
    dict(
        grade_id="test_evaluate",
        name="restores_without_finally",
        code=_eval_with(
            "try:\n" + _IN_INFERENCE + _RESTORE,
            "with torch.inference_mode():\n    logits = model(x)\nfor m, mode in modes:\n    m.training = mode\nreturn logits\n",
        ),
        expect="try/finally",
    ),
    dict(
        grade_id="test_evaluate",
        name="swallows_the_exception",
        code=_eval_with("finally:\n", "except Exception:\n    return None\nfinally:\n"),
        expect="不要吞掉异常",
    ),
    # freeze ---------------------------------------------------------------------------------------
    dict(
        grade_id="test_freeze",
        name="string_prefix_matches_lookalike_modules",
        code="""
def freeze(model, names):
    count = 0
    for pname, p in model.named_parameters():
        if any(pname.startswith(name) for name in names):
            p.requires_grad_(False)
            count += p.numel()
    for mname, m in model.named_modules():
        if any(mname.startswith(name) for name in names):
            m.eval()
    return count
""",
        expect="按字符串前缀匹配",
    ),
    dict(
        grade_id="test_freeze",
        name="eval_as_freeze",
        code=_freeze_with(_FREEZE_EACH, _COUNT_ALL),
        expect="评估模式只管 Dropout / BatchNorm 的行为，不改 requires_grad",
    ),
    dict(
        grade_id="test_freeze",
        name="module_requires_grad_attribute",
        mistake="module-requires-grad-attr",
        code=_freeze_with(_FREEZE_EACH, "    module.requires_grad = False\n" + _COUNT_ALL),
        expect="普通属性 requires_grad = False",
    ),
    dict(
        grade_id="test_freeze",
        name="rebinds_loop_variable_with_detach",
        code=_freeze_with("p.requires_grad_(False)", "p = p.detach()"),
        expect="requires_grad_(False)",
    ),
    dict(
        grade_id="test_freeze",
        name="forgets_eval",
        code=_freeze_with("    module.eval()\n", ""),
        expect="还在训练模式",
    ),
    dict(
        grade_id="test_freeze",
        name="whole_model_eval",
        code=_freeze_with("    module.eval()\n", "", ("return count", "model.eval()\nreturn count")),
        expect="不要调用 model.eval()",
    ),
    dict(
        grade_id="test_freeze",
        name="counts_tensors_not_elements",
        code=_freeze_with("count += p.numel()", "count += 1"),
        expect="参数张量 (tensor) 的个数",
    ),
    dict(
        grade_id="test_freeze",
        name="freezes_first_layer_only",
        code=_freeze_with("module.parameters()", "module[0].parameters()"),
        expect="只冻结了部分参数",
    ),
    dict(
        grade_id="test_freeze",
        name="freezes_everything",
        code="""
def freeze(model, names):
    count = 0
    for p in model.parameters():
        p.requires_grad_(False)
        count += p.numel()
    for name in names:
        model.get_submodule(name).eval()
    return count
""",
        expect="只冻结 names 里的子模块",
    ),
    # make_optimizer -------------------------------------------------------------------------------
    dict(
        grade_id="test_make_optimizer",
        name="all_parameters_one_group",
        mistake="frozen-params-in-optimizer",
        code="""
def make_optimizer(model, lr, weight_decay):
    return torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
""",
        expect="冻结参数 (requires_grad=False",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="groups_without_requires_grad_filter",
        mistake="frozen-params-in-optimizer",
        code=_optimizer_with("    if p.requires_grad:\n        (decay", "    (decay"),
        expect="冻结参数 (requires_grad=False",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="trainable_but_one_group",
        code="""
def make_optimizer(model, lr, weight_decay):
    return torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr, weight_decay=weight_decay)
""",
        expect="只有 1 个参数组",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="splits_by_bias_in_name",
        code="""
def make_optimizer(model, lr, weight_decay):
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    decay = [p for n, p in named if "bias" not in n]
    no_decay = [p for n, p in named if "bias" in n]
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}], lr=lr)
""",
        expect="按 p.dim() < 2 分组",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="groups_swapped",
        code=_optimizer_with(
            _GROUPS, '[{"params": no_decay, "weight_decay": 0.0}, {"params": decay, "weight_decay": weight_decay}]'
        ),
        expect="顺序反了",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="second_group_inherits_weight_decay",
        code=_optimizer_with(
            _GROUPS,
            '[{"params": decay}, {"params": no_decay}]',
            (_ADAMW, "torch.optim.AdamW(groups, lr=lr, weight_decay=weight_decay)"),
        ),
        expect="第 1 组的 weight_decay 应为 0.0",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="ignores_weight_decay_argument",
        code=_optimizer_with(_GROUPS, '[{"params": decay}, {"params": no_decay, "weight_decay": 0.0}]'),
        expect="第 0 组的 weight_decay 应为",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="ignores_lr",
        code=_optimizer_with(_ADAMW, "torch.optim.AdamW(groups)"),
        expect="学习率 (lr)",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="head_parameters_only",
        code=_optimizer_with("model.parameters()", "model.head.parameters()"),
        expect="漏掉了",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="sgd_instead_of_adamw",
        code=_optimizer_with("torch.optim.AdamW", "torch.optim.SGD"),
        expect="torch.optim.AdamW",
    ),
    # td_loss --------------------------------------------------------------------------------------
    dict(
        grade_id="test_td_loss",
        name="target_not_detached",
        mistake="target-not-detached",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    target = reward + gamma * target_net(x_next)
    return ((value_net(x) - target) ** 2).mean()
""",
        expect="target 没有 detach()",
    ),
    dict(
        grade_id="test_td_loss",
        name="detaches_prediction_instead",
        mistake="detached-from-graph",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    target = reward + gamma * target_net(x_next)
    return ((value_net(x).detach() - target.detach()) ** 2).mean()
""",
        expect="这一支被截断了",
    ),
    dict(
        grade_id="test_td_loss",
        name="whole_loss_under_no_grad",
        mistake="detached-from-graph",
        code=_td_with("\nprediction = value_net(x)\nreturn", "\n    prediction = value_net(x)\n    return"),
        expect="这一支被截断了",
    ),
    dict(
        grade_id="test_td_loss",
        name="sum_instead_of_mean",
        code=_td_with(".mean()", ".sum()"),
        expect="用了 sum()",
    ),
    dict(
        grade_id="test_td_loss",
        name="returns_item",
        code=_td_with(".mean()", ".mean().item()"),
        expect="会脱离计算图",
    ),
    dict(
        grade_id="test_td_loss",
        name="same_net_without_detach",
        mistake="target-not-detached",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    if target_net is value_net:
        target = reward + gamma * target_net(x_next)
    else:
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
    return ((value_net(x) - target) ** 2).mean()
""",
        expect="梯度还流过了 target",
    ),
    # refine
    dict(
        grade_id="test_refine",
        name="detach_without_clone_updates_h_in_place",
        code=_refine_with("h.detach().clone()", "h.detach()"),
        expect="共享存储",
    ),
    dict(
        grade_id="test_refine",
        name="clone_without_detach_stays_in_the_callers_graph",
        code=_refine_with("h.detach().clone()", "h.clone()"),
        expect="不是 requires_grad=True 的叶子（grad_fn=CloneBackward0）",
    ),
    dict(
        grade_id="test_refine",
        name="detach_clone_without_requires_grad",
        code=_refine_with(".requires_grad_(True)\n", "\n"),
        expect="requires_grad_(True)",
    ),
    dict(
        grade_id="test_refine",
        name="functional_steps_through_the_callers_graph",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h
    for _ in range(steps):
        (g,) = torch.autograd.grad(loss_fn(z), z)
        z = z - lr * g
    return z.detach()
""",
        expect="不是 requires_grad=True 的叶子",
    ),
    dict(
        grade_id="test_refine",
        name="forgets_to_clear_z_grad",
        code=_refine_with("    z.grad = None\n", ""),
        expect="两步之间没有清空",
    ),
    dict(
        grade_id="test_refine",
        name="returns_the_leaf_still_requiring_grad",
        code=_refine_with("return z.detach()", "return z"),
        expect="requires_grad",
    ),
    # found by reviewer rv46 ------------------------------------------------------------------------
    dict(
        grade_id="test_evaluate",
        name="restores_only_after_value_errors",
        code=_eval_restoring_only_after("ValueError"),
        expect="出错之后没有恢复训练模式",
    ),
    dict(
        grade_id="test_freeze",
        name="assigns_training_instead_of_eval",
        mistake="training-attr-not-recursive",
        code=_freeze_with("module.eval()", "module.training = False"),
        expect="给 m.training 赋值只改 m 这一个模块",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="decays_only_linear_weights_mingpt_style",
        code="""
def make_optimizer(model, lr, weight_decay):
    decay, no_decay = [], []
    for m in model.modules():
        for pn, p in m.named_parameters(recurse=False):
            if not p.requires_grad:
                continue
            (decay if pn == "weight" and isinstance(m, nn.Linear) else no_decay).append(p)
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}], lr=lr)
""",
        expect="是二维及以上的参数，却在第 1 组",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="decays_weights_outside_norm_layers_by_name",
        code="""
def make_optimizer(model, lr, weight_decay):
    norms = {n for n, m in model.named_modules() if isinstance(m, (nn.BatchNorm1d, nn.LayerNorm))}
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        if p.requires_grad:
            owner, _, leaf = n.rpartition(".")
            (decay if leaf == "weight" and owner not in norms else no_decay).append(p)
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}], lr=lr)
""",
        expect="是二维及以上的参数，却在第 1 组",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="nanogpt_betas",
        code=_optimizer_with(_ADAMW, "torch.optim.AdamW(groups, lr=lr, betas=(0.9, 0.95))"),
        expect="betas 是 (0.9, 0.95)",
    ),
    dict(
        grade_id="test_td_loss",
        name="freezes_a_distinct_target_net_inside_the_loss",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    if target_net is not value_net:
        target_net.requires_grad_(False)
        target = reward + gamma * target_net(x_next)
    else:
        target = (reward + gamma * target_net(x_next)).detach()
    return ((value_net(x) - target) ** 2).mean()
""",
        expect="的 requires_grad 变了",
    ),
    dict(
        grade_id="test_td_loss",
        name="freezes_target_net_params_inside_the_loss",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    target_net.requires_grad_(False)
    target = reward + gamma * target_net(x_next)
    return ((value_net(x) - target) ** 2).mean()
""",
        expect="的 requires_grad 变了",
    ),
    dict(
        grade_id="test_td_loss",
        name="calls_backward_inside",
        code=_td_with(
            "return ((prediction - target) ** 2).mean()",
            "loss = ((prediction - target) ** 2).mean()\nloss.backward()\nreturn loss",
        ),
        expect="不要自己调用 backward()",
    ),
    dict(
        grade_id="test_refine",
        name="updates_through_data",
        mistake="edits-data",
        code=_refine_with("    with torch.no_grad():\n        z -= lr * z.grad\n", "    z.data -= lr * z.grad\n"),
        expect="通过 z.data 修改的",
    ),
    dict(
        grade_id="test_refine",
        name="new_tensor_every_step_via_autograd_grad",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone()
    for _ in range(steps):
        z.requires_grad_(True)
        (g,) = torch.autograd.grad(loss_fn(z), z)
        z = (z - lr * g).detach()
    return z
""",
        expect="不是同一个张量",
    ),
    dict(
        grade_id="test_refine",
        name="zero_steps_returns_a_view_of_h",
        code=_refine_with("z = h.detach()", "if steps == 0:\n    return h.detach()\nz = h.detach()"),
        expect="共享存储",
    ),
    # issue 17 review pass (rfb)
    dict(
        grade_id="test_freeze",
        name="counts_every_frozen_parameter_of_the_model",
        code="""
def freeze(model, names):
    for name in names:
        module = model.get_submodule(name)
        module.requires_grad_(False)
        module.eval()
    return sum(p.numel() for p in model.parameters() if not p.requires_grad)
""",
        expect="调用前就已经 requires_grad=False",
    ),
    dict(
        grade_id="test_evaluate",
        name="replaces_the_exception_with_its_own",
        code=_eval_with(
            "finally:\n", 'except Exception:\n    raise RuntimeError("evaluate failed") from None\nfinally:\n'
        ),
        expect="不要换成别的异常",
    ),
    # review r0607: the closing fresh pass (issue 17 item 2) ------------------------------------------
    dict(
        grade_id="test_evaluate",
        name="freezes_the_parameters_to_evaluate",
        code=_eval_with("model.eval()\n", "model.eval()\nmodel.requires_grad_(False)\n"),
        expect="requires_grad 从 True 变成了 False",
    ),
    dict(
        grade_id="test_evaluate",
        name="restores_in_except_exception_not_finally",
        code=_eval_restoring_only_after("Exception"),
        expect="出错之后没有恢复训练模式",
    ),
    dict(
        grade_id="test_td_loss",
        name="switches_target_net_to_eval",
        code=_td_with("with torch.no_grad():", "target_net.eval()\nwith torch.no_grad():"),
        expect="的模式变了",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="no_decay_only_for_one_dimensional",
        code=_optimizer_with("(decay if p.dim() >= 2 else no_decay)", "(no_decay if p.dim() == 1 else decay)"),
        expect="是 0 维参数",
    ),
    dict(
        grade_id="test_freeze",
        name="replaces_each_submodule_with_a_frozen_copy",
        code="""
import copy


def freeze(model, names):
    count = 0
    for name in names:
        frozen = copy.deepcopy(model.get_submodule(name)).requires_grad_(False).eval()
        count += sum(p.numel() for p in frozen.parameters())
        model.set_submodule(name, frozen)
    return count
""",
        expect="已经不是原来的对象了",
    ),
    # issue 17 final fresh pass (rvb) -----------------------------------------------------------------
    dict(
        grade_id="test_evaluate",
        name="turns_grad_mode_off_for_good",
        mistake="grad-mode-left-off",
        code=_eval_with("model.eval()\n", "torch.set_grad_enabled(False)\nmodel.eval()\n"),
        expect="grad mode 仍然关着",
    ),
    dict(
        grade_id="test_evaluate",
        name="freezes_then_unfreezes_every_parameter",
        code=_eval_with(
            "model.eval()\n",
            "model.eval()\nmodel.requires_grad_(False)\n",
            (_RESTORE, _RESTORE + "    model.requires_grad_(True)\n"),
        ),
        expect="返回前又改了回来",  # s42: seen on the first model, whose parameters all require grad
    ),
    dict(
        grade_id="test_td_loss",
        name="freezes_target_net_then_unfreezes_it",
        code=_td_with(
            "with torch.no_grad():\n    target = reward + gamma * target_net(x_next)\n",
            "target_net.requires_grad_(False)\ntarget = reward + gamma * target_net(x_next)\ntarget_net.requires_grad_(True)\n",
        ),
        expect="返回前又改了回来",  # s42: seen on the first target net, whose parameters all require grad
    ),
]

MUTANTS += [
    dict(  # rv5: grad mode forced on at the end, whatever the caller had (found by a read-only reviewer)
        grade_id="test_evaluate",
        name="turns grad mode on at the end (a caller inside no_grad builds graphs again)",
        code=_eval_with(_RESTORE, _RESTORE + "    torch.set_grad_enabled(True)\n"),
        expect="返回之后 grad mode 却开着",
    ),
]

MUTANTS += [  # issue 17 final fresh pass (rvb5)
    dict(
        grade_id="test_evaluate",
        name="switches only the Dropout and BatchNorm submodules to eval, not the model",
        code=_eval_with(
            "model.eval()\n",
            "for m in model.modules():\n"
            "    if isinstance(m, (nn.Dropout, nn.modules.batchnorm._BatchNorm)):\n"
            "        m.eval()\n",
        ),
        expect="只有一部分模块切到了评估模式",
    ),
    dict(
        grade_id="test_evaluate",
        name="switches every submodule to eval but not the model itself (its forward reads self.training)",
        mistake="forward-in-training-mode",
        code=_eval_with("model.eval()\n", "for m in model.children():\n    m.eval()\n"),
        expect="forward 时模型自己 (model.training) 还在训练模式",
    ),
    dict(
        grade_id="test_td_loss",
        name="clears value_net's gradients inside the loss (an accumulating caller loses its gradients)",
        code=_td_with("with torch.no_grad():", "value_net.zero_grad()\nwith torch.no_grad():"),
        expect="不要在里面 zero_grad()",
    ),
]

MUTANTS += [  # issue 17 fresh pass (rwc)
    dict(
        grade_id="test_evaluate",
        name="a second model(x) after the modes are restored (training mode), the first result returned",
        code=_eval_with(
            "        return model(x)\n" + _RESTORE,
            "        out = model(x)\n" + _RESTORE + "with torch.inference_mode():\n    model(x)\nreturn out\n",
        ),
        expect="调用了 2 次 model(x)",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="parameters gathered per module with recurse=False: a tied weight (embed = out) is listed twice",
        code=_optimizer_with(
            "for p in model.parameters():\n",
            "for p in (q for m in model.modules() for q in m.parameters(recurse=False)):\n",
        ),
        expect="出现了不止一次",
    ),
]

MUTANTS += [  # gc: a copy evaluated in eval mode leaves the model's modes alone, and costs a second model in memory
    dict(
        grade_id="test_evaluate",
        name="evaluates a deepcopy of the model in eval mode (the model itself never runs)",
        code="def evaluate(model, x):\n    twin = copy.deepcopy(model).eval()\n    with torch.inference_mode():\n"
        "        return twin(x)\n",
        expect="copy.deepcopy(model) 的副本上算也不算",
    ),
]

MUTANTS += [  # hd: parameters of the named modules that were frozen before the call are frozen after it too
    dict(
        grade_id="test_freeze",
        name="counts_only_the_parameters_this_call_switched_off",
        code=_freeze_with(
            "        count += p.numel()\n",
            "",
            (
                "        p.requires_grad_(False)\n",
                "        if p.requires_grad:\n            count += p.numel()\n        p.requires_grad_(False)\n",
            ),
        ),
        expect="names 里调用前就已经 requires_grad=False 的参数",
    ),
]

MUTANTS += [  # s35 review (h3): each passed every test, or was told a cause it did not have
    dict(
        grade_id="test_freeze",
        name="makes the whole model trainable first ('a clean slate'), unfreezing what the caller had frozen",
        expect="调用前 requires_grad=False，调用之后变成了 True",
        code=_freeze_with("count = 0\n", "model.requires_grad_(True)\ncount = 0\n"),
    ),
    dict(
        grade_id="test_evaluate",
        name="restores the model's mode recursively, then flips back the modules that differed (recursively again)",
        expect="backbone eval、backbone.3 train",
        code="def evaluate(model, x):\n"
        "    was_training = model.training\n"
        "    exceptions = [m for m in model.modules() if m.training != was_training]\n"
        "    model.eval()\n"
        "    try:\n"
        "        with torch.inference_mode():\n"
        "            return model(x)\n"
        "    finally:\n"
        "        model.train(was_training)\n"
        "        for m in exceptions:\n"
        "            m.train(not was_training)\n",
    ),
    dict(
        grade_id="test_td_loss",
        name="folds a soft (Polyak) update of target_net into the loss",
        expect="的数值变了：td_loss 只计算并返回 loss",
        code=_td_with(
            "return ((prediction - target) ** 2).mean()",
            "loss = ((prediction - target) ** 2).mean()\n"
            "with torch.no_grad():\n"
            "    for pt, pv in zip(target_net.parameters(), value_net.parameters()):\n"
            "        pt.mul_(0.995).add_(pv, alpha=0.005)\n"
            "return loss",
        ),
    ),
    dict(
        grade_id="test_td_loss",
        name="the target computed under inference_mode: an inference tensor in the computation backward runs through",
        mistake="inference-tensor-in-training",
        expect="target 是在 torch.inference_mode() 里算的",
        code=_td_with("with torch.no_grad():", "with torch.inference_mode():"),
    ),
    dict(
        grade_id="test_make_optimizer",
        name="collects each group in the order of sorted parameter names, not the model's order",
        expect="组里参数的顺序和 model.named_parameters() 不同",
        code="def make_optimizer(model, lr, weight_decay):\n"
        "    named = dict(model.named_parameters())\n"
        "    decay = [named[n] for n in sorted(named) if named[n].requires_grad and named[n].dim() >= 2]\n"
        "    no_decay = [named[n] for n in sorted(named) if named[n].requires_grad and named[n].dim() < 2]\n"
        '    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]\n'
        "    return torch.optim.AdamW(groups, lr=lr)\n",
    ),
    dict(  # was told that detach() left the start without requires_grad (it had requires_grad_(True))
        grade_id="test_refine",
        name="updates out of place under no_grad (z = z - lr * z.grad): from step 2 z needs no grad",
        expect="第 2 步收到的却不需要了",
        code=_refine_with("        z -= lr * z.grad\n    z.grad = None\n", "        z = z - lr * z.grad\n"),
    ),
    dict(  # was told z was no leaf (it was a leaf; .grad is None before the first backward)
        grade_id="test_refine",
        name="clears z.grad at the top of the loop, before the first backward",
        expect="z.grad 在第一次 backward() 之前是 None",
        code=_refine_with("    loss_fn(z).backward(", "    z.grad.zero_()\n    loss_fn(z).backward("),
    ),
]

MUTANTS += [  # s35 final pass (r2): passed every test (no tested reward required grad, no value_net was in eval mode)
    dict(
        grade_id="test_td_loss",
        name="detaches only target_net(x_next): a reward that requires grad still gets a gradient",
        expect="反向传播流进了 reward",
        code="def td_loss(value_net, target_net, x, reward, x_next, gamma):\n"
        "    target = reward + gamma * target_net(x_next).detach()\n"
        "    return ((value_net(x) - target) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_td_loss",
        name="value_net.train() first 'to be safe': an eval-mode value_net comes back in training mode",
        expect="value_net 的模式变了",
        code=_td_with("with torch.no_grad():", "value_net.train()\nwith torch.no_grad():"),
    ),
]

MUTANTS += [  # s37: no tested loss_fn had parameters of its own, so backward() into them passed
    dict(
        grade_id="test_refine",
        name="loss_fn(z).backward(): the loss's own parameter gets gradient too",
        expect="scale 的 .grad 变了",
        code=_refine_with("backward(inputs=[z])", "backward()"),
    ),
    dict(
        grade_id="test_refine",
        name="backward(), then loss_fn.zero_grad() to undo it: the caller's accumulated gradient is gone",
        expect="调用之后成了 None",
        code=_refine_with(
            "backward(inputs=[z])",
            "backward()",
            ("    z.grad = None\n", "    z.grad = None\n    loss_fn.zero_grad()\n"),
        ),
    ),
]

MUTANTS += [  # s36 review (b2): passed every test (no tested model tied a weight between two modules)
    dict(
        grade_id="test_freeze",
        name="prefix match over model.named_parameters(): a tied weight is listed once, under its first name",
        expect="权重绑定",
        code="""
def freeze(model, names):
    count = 0
    for pname, p in model.named_parameters():
        if any(pname.startswith(n + ".") for n in names):
            p.requires_grad_(False)
            count += p.numel()
    for mname, m in model.named_modules():
        if any(mname == n or mname.startswith(n + ".") for n in names):
            m.eval()
    return count
""",
    ),
]


# Right answers written another way: each must pass its test cell (tests/test_mutants.py).
CORRECT = [  # s36: the maintainer's look for false negatives (06 had no correct variants)
    dict(
        grade_id="test_evaluate",
        name="restores each module with m.train(mode) in modules() order (a parent's recursion is undone by its children after it)",
        code="def evaluate(model, x):\n    modes = [(m, m.training) for m in model.modules()]\n    model.eval()\n    try:\n        with torch.inference_mode():\n            out = model(x)\n    finally:\n        for m, t in modes:\n            m.train(t)\n    return out\n",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="two list comprehensions over named_parameters(), p.ndim for the split",
        code='def make_optimizer(model, lr, weight_decay):\n    params = [p for _, p in model.named_parameters() if p.requires_grad]\n    return torch.optim.AdamW(\n        [{"params": [p for p in params if p.ndim >= 2], "weight_decay": weight_decay},\n         {"params": [p for p in params if p.ndim < 2], "weight_decay": 0.0}], lr=lr)\n',
    ),
    dict(
        grade_id="test_td_loss",
        name="the whole target computed with a graph, then .detach()",
        code="def td_loss(value_net, target_net, x, reward, x_next, gamma):\n    target = (reward + gamma * target_net(x_next)).detach()\n    return ((value_net(x) - target) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_td_loss",
        name="F.mse_loss against a target computed under no_grad()",
        code="import torch.nn.functional as F\ndef td_loss(value_net, target_net, x, reward, x_next, gamma):\n    with torch.no_grad():\n        target = reward + gamma * target_net(x_next)\n    return F.mse_loss(value_net(x), target)\n",
    ),
    dict(
        grade_id="test_refine",
        name="torch.optim.SGD over [z]: zero_grad() before each backward()",
        code="def refine(h, loss_fn, steps, lr):\n    z = h.detach().clone().requires_grad_(True)\n    opt = torch.optim.SGD([z], lr=lr)\n    for _ in range(steps):\n        opt.zero_grad()\n        loss_fn(z).backward(inputs=[z])\n        opt.step()\n    return z.detach()\n",
    ),
    dict(
        grade_id="test_refine",
        name="torch.autograd.grad(loss, z) instead of backward(): z.grad is never set",
        code="def refine(h, loss_fn, steps, lr):\n    z = h.detach().clone().requires_grad_(True)\n    for _ in range(steps):\n        loss = loss_fn(z)\n        (g,) = torch.autograd.grad(loss, z)\n        with torch.no_grad():\n            z -= lr * g\n    return z.detach()\n",
    ),
]

MUTANTS += [  # s37 review (b3): passed every test (only each group's lr was looked at)
    dict(
        grade_id="test_make_optimizer",
        name="lr written into each group only: the optimizer's own default lr stays AdamW's 1e-3",
        expect="optimizer.defaults['lr'] 却是 0.001",
        code=_optimizer_with(
            _GROUPS,
            '[{"params": decay, "lr": lr, "weight_decay": weight_decay}, {"params": no_decay, "lr": lr, "weight_decay": 0.0}]',
            (_ADAMW, "torch.optim.AdamW(groups)"),
        ),
    ),
]

MUTANTS += [  # s37 review (b3): wrong cause (the message blamed model.train(was_training), which it never called)
    dict(
        grade_id="test_evaluate",
        name="restores every module's own mode, children first: each parent's train() overwrites them",
        mistake="recursive-train-restore",
        expect="先恢复子模块、后恢复父模块",
        code=_eval_with(_RESTORE, "finally:\n    for m, t in reversed(modes):\n        m.train(t)\n"),
    ),
]

MUTANTS += [  # s37 review (b3): wrong cause (told it used eval() as a gradient switch; it tried to set requires_grad)
    dict(
        grade_id="test_freeze",
        name="p.requires_grad == False (a comparison, not an assignment) in the loop",
        expect="全都仍然 requires_grad=True",
        code=_freeze_with("p.requires_grad_(False)", "p.requires_grad == False"),
    ),
]

MUTANTS += [  # s37 review (b3): wrong cause (told it made a new tensor each step; torch.func wrapped the same z)
    dict(
        grade_id="test_refine",
        name="torch.func.grad(loss_fn) for the step, z updated in place",
        expect="torch.func 变换",
        code="def refine(h, loss_fn, steps, lr):\n"
        "    z = h.detach().clone()\n"
        "    step = torch.func.grad(loss_fn)\n"
        "    for _ in range(steps):\n"
        "        z.sub_(lr * step(z))\n"
        "    return z\n",
    ),
]

MUTANTS += [  # s37 review (b4): wrong cause (told about train(); it copied one flag to every module)
    dict(
        grade_id="test_evaluate",
        name="one saved flag assigned to every module's .training",
        mistake="recursive-train-restore",
        expect="只记一个标志再赋给每个模块",
        code=_eval_with(
            _MODES,
            "was_training = model.training\n",
            (_RESTORE, "finally:\n    for m in model.modules():\n        m.training = was_training\n"),
        ),
    ),
]


MUTANTS += [  # s37 review (b4): the old reference counted a parameter tied between two named modules twice
    dict(
        grade_id="test_freeze",
        name="count += p.numel() per module: a weight tied between two named modules is counted twice",
        expect="有的参数被数了两次",
        code=_body("def freeze(model, names):", _FREEZE_OK),
    ),
]


MUTANTS += [  # s38 review (b5): float32 rounding passed the float64 case's rtol 1e-5
    dict(
        grade_id="test_refine",
        name="z made float32 for a float64 h, cast back at the end",
        expect="loss_fn 收到的 z 却是 torch.float32",
        code=(
            "def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:\n"
            '    # "optimise in float32 for stability (mixed-precision style), cast back at the end"\n'
            "    z = h.detach().clone().float().requires_grad_(True)\n"
            "    for _ in range(steps):\n"
            "        loss_fn(z).backward(inputs=[z])\n"
            "        with torch.no_grad():\n"
            "            z -= lr * z.grad\n"
            "        z.grad = None\n"
            "    return z.detach().to(h.dtype)\n"
        ),
    ),
]


MUTANTS += [  # s38 review (b5): evaluate wiped the caller's accumulated gradients
    dict(
        grade_id="test_evaluate",
        name="model.zero_grad(set_to_none=True) inside evaluate",
        expect="调用者正在累积梯度",
        code=(
            "def evaluate(model: nn.Module, x: torch.Tensor) -> torch.Tensor:\n"
            "    modes_before = [(module, module.training) for module in model.modules()]\n"
            '    model.zero_grad(set_to_none=True)  # "tidy up": no stale gradients lying around during evaluation\n'
            "    model.eval()\n"
            "    try:\n"
            "        with torch.inference_mode():\n"
            "            return model(x)\n"
            "    finally:\n"
            "        for module, training in modes_before:\n"
            "            module.training = training\n"
        ),
    ),
]

MUTANTS += [  # s38 review (b5): the only hidden reward that required grad came with gamma = 0.9
    dict(
        grade_id="test_td_loss",
        name="gamma == 0 shortcut: target = reward, not detached",
        expect="gamma = 0 时 target 就是 reward",
        code=(
            "def td_loss(value_net, target_net, x, reward, x_next, gamma):\n"
            "    prediction = value_net(x)\n"
            "    if gamma == 0:  # no bootstrap term: skip the wasted target_net forward\n"
            "        target = reward\n"
            "    else:\n"
            "        with torch.no_grad():\n"
            "            target = reward + gamma * target_net(x_next)\n"
            "    return ((prediction - target) ** 2).mean()\n"
        ),
    ),
]

CORRECT += [  # s38: the same gamma == 0 shortcut with the reward detached
    dict(
        grade_id="test_td_loss",
        name="gamma == 0 shortcut: target = reward.detach(), no target_net forward",
        code=(
            "def td_loss(value_net, target_net, x, reward, x_next, gamma):\n"
            "    prediction = value_net(x)\n"
            "    if gamma == 0:\n"
            "        target = reward.detach()\n"
            "    else:\n"
            "        with torch.no_grad():\n"
            "            target = reward + gamma * target_net(x_next)\n"
            "    return ((prediction - target) ** 2).mean()\n"
        ),
    ),
]


# s38 (b6), fb3
MUTANTS += [  # s38 review (b6): each passed every test
    dict(
        grade_id="test_refine",
        name="requires_grad_(False) around the in-place update instead of no_grad()",
        expect="在 grad mode 开着时",
        code="def refine(h, loss_fn, steps, lr):\n    z = h.detach().clone().requires_grad_(True)\n    for _ in range(steps):\n        loss_fn(z).backward(inputs=[z])\n        # in-place update on a leaf: switch requires_grad off for the update instead of no_grad()\n        z.requires_grad_(False)\n        z.sub_(lr * z.grad)\n        z.requires_grad_(True)\n        z.grad = None\n    return z.detach()\n",
    ),
    dict(
        grade_id="test_refine",
        name="never clears z.grad; each step's gradient is z.grad minus the previous total",
        expect="z.grad 里还留着前面各步的梯度",
        code="def refine(h, loss_fn, steps, lr):\n    z = h.detach().clone().requires_grad_(True)\n    seen = torch.zeros_like(z)\n    for _ in range(steps):\n        loss_fn(z).backward(inputs=[z])\n        # z.grad accumulates across steps: this step's gradient is what was added since the last step\n        g = z.grad - seen\n        seen = z.grad.clone()\n        with torch.no_grad():\n            z -= lr * g\n    return z.detach()\n",
    ),
]


# s38 (b7), fb4
MUTANTS += [  # s38 review (b7): passed every test (the grad-mode watch matched z by identity)
    dict(
        grade_id="test_refine",
        name="the update through a detached alias with grad mode on (z.detach().sub_(...))",
        expect="通过另一个张量被原地写的",
        code=(
            "def refine(h, loss_fn, steps, lr):\n"
            "    z = h.detach().clone().requires_grad_(True)\n"
            "    for _ in range(steps):\n"
            "        loss_fn(z).backward(inputs=[z])\n"
            "        z.detach().sub_(lr * z.grad)  # shares z's memory; grad mode still on\n"
            "        z.grad = None\n"
            "    return z.detach()\n"
        ),
    ),
]
MUTANTS += [  # s38 review (b7): passed every test (the forward hooks that saw inference mode were skipped)
    dict(
        grade_id="test_td_loss",
        name="the target under inference_mode through target_net.forward(x_next): the inference tensor reaches the loss",
        mistake="inference-tensor-in-training",
        expect="target 是在 torch.inference_mode() 里算的",
        code=(
            "def td_loss(value_net, target_net, x, reward, x_next, gamma):\n"
            "    with torch.inference_mode():  # stricter and faster than no_grad\n"
            "        target = reward + gamma * target_net.forward(x_next)\n"
            "    prediction = value_net.forward(x)\n"
            "    return ((prediction - target) ** 2).mean()\n"
        ),
    ),
]
CORRECT += [  # s38 review (b7): was refused as an inference tensor in training; the clone is a normal tensor
    dict(
        grade_id="test_td_loss",
        name="the target under inference_mode, then .clone() outside it (a normal tensor) into F.mse_loss",
        code=(
            "import torch.nn.functional as F\n\n\n"
            "def td_loss(value_net, target_net, x, reward, x_next, gamma):\n"
            "    with torch.inference_mode():\n"
            "        target = reward + gamma * target_net(x_next)\n"
            "    target = target.clone()  # outside inference_mode: a normal tensor\n"
            "    return F.mse_loss(value_net(x), target)\n"
        ),
    ),
]


MUTANTS += [  # s39 (b8): functional_call with detached weights leaves x_next's graph in the target
    dict(
        grade_id="test_td_loss",
        name="detaches_only_the_target_nets_weights",
        expect="反向传播流进了 x_next",
        code=(
            "def td_loss(value_net, target_net, x, reward, x_next, gamma):\n"
            '    """TD loss with a frozen copy of the target network\'s weights (the TorchRL way: detached parameters)."""\n'
            "    frozen = {name: p.detach() for name, p in target_net.named_parameters()}\n"
            "    next_value = torch.func.functional_call(target_net, frozen, (x_next,))  # no gradient into target_net's weights\n"
            "    target = reward.detach() + gamma * next_value  # reward is a label too\n"
            "    prediction = value_net(x)\n"
            "    return ((prediction - target) ** 2).mean()\n"
        ),
    ),
]


MUTANTS += [  # s40 (b10): model.forward(x) skips nn.Module.__call__ and every hook registered on the model
    dict(
        grade_id="test_evaluate",
        name="model.forward(x) inside inference_mode: the model's hooks never run",
        expect="一次也没有通过 model(x) 调用",
        code=_eval_with("return model(x)", "return model.forward(x)"),
    ),
    dict(
        grade_id="test_td_loss",
        name="value_net.forward(x) and target_net.forward(x_next): the nets' hooks never run",
        expect="value_net：模型一次也没有通过 model(x) 调用",
        code=_td_with("target_net(x_next)", "target_net.forward(x_next)", ("value_net(x)", "value_net.forward(x)")),
    ),
    dict(
        grade_id="test_td_loss",
        name="target_net.forward(x_next) alone: the target net's hooks never run",
        expect="target_net：模型一次也没有通过 model(x) 调用",
        code=_td_with("target_net(x_next)", "target_net.forward(x_next)"),
    ),
]


MUTANTS += [  # s40 (b11): refine was only tested on the CPU
    dict(
        grade_id="test_refine",
        name="z from torch.zeros(h.shape, dtype=h.dtype): on the CPU beside a GPU h",
        expect="新建的 z 在 CPU 上",
        code="def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:\n    # a fresh leaf of h's shape and dtype, filled with h's values (device forgotten: default CPU)\n    z = torch.zeros(h.shape, dtype=h.dtype, requires_grad=True)\n    with torch.no_grad():\n        z.copy_(h)\n    for _ in range(steps):\n        loss_fn(z).backward(inputs=[z])\n        with torch.no_grad():\n            z -= lr * z.grad\n        z.grad = None\n    return z.detach()\n",
    ),
]


MUTANTS += [  # s40 (b11 cand07): passed the kernel, failed the judge only with a transport message
    dict(
        grade_id="test_freeze",
        name="pins the frozen layers in eval by replacing each one's train() with a lambda",
        expect="被换成了你写的代码",
        code=(
            "def freeze(model: nn.Module, names: list[str]) -> int:\n"
            "    frozen = {}\n"
            "    for name in names:\n"
            "        module = model.get_submodule(name)\n"
            "        for parameter in module.parameters():\n"
            "            parameter.requires_grad_(False)\n"
            "            frozen[id(parameter)] = parameter.numel()\n"
            "        module.eval()\n"
            "        for sub in module.modules():  # pin the frozen layers (BatchNorm stats, Dropout) in eval mode\n"
            "            sub.train = lambda mode=True, _m=sub: _m\n"
            "    return sum(frozen.values())\n"
        ),
    ),
]

MUTANTS += [  # b12: the caller's accumulated gradients cleared by make_optimizer / freeze
    dict(  # b12 cand06
        grade_id="test_make_optimizer",
        name="optimizer.zero_grad() right after construction (wipes the caller's accumulated .grad)",
        expect="调用之后它的 .grad 变成了 None（被清掉了）",
        code=_optimizer_with(
            "return torch.optim.AdamW(groups, lr=lr)\n",
            "optimizer = torch.optim.AdamW(groups, lr=lr)\noptimizer.zero_grad()  # start from clean gradients\n"
            "return optimizer\n",
        ),
    ),
    dict(
        grade_id="test_make_optimizer",
        name="model.zero_grad(set_to_none=False) before building the optimizer (zeros the caller's .grad)",
        expect="变成了全 0（被清零了）",
        code=_optimizer_with(
            "decay, no_decay = [], []\n", "model.zero_grad(set_to_none=False)\ndecay, no_decay = [], []\n"
        ),
    ),
    dict(  # b12 cand08
        grade_id="test_freeze",
        name="model.zero_grad(set_to_none=True) after freezing (clears the trainable parameters' .grad)",
        expect="（不属于 names 里的子模块）带着调用者累积的梯度，调用之后它的 .grad 变成了 None",
        code=_freeze_with("return count\n", "model.zero_grad(set_to_none=True)\nreturn count\n"),
    ),
]

CORRECT += [  # b12: dropping only the frozen parameters' stale .grad leaves the caller's other gradients alone
    dict(
        grade_id="test_freeze",
        name="also drops the frozen submodules' own .grad (module.zero_grad(set_to_none=True))",
        code=(
            "def freeze(model: nn.Module, names: list[str]) -> int:\n"
            "    frozen = {}\n"
            "    for name in names:\n"
            "        module = model.get_submodule(name)\n"
            "        for parameter in module.parameters():\n"
            "            parameter.requires_grad_(False)\n"
            "            frozen[id(parameter)] = parameter.numel()\n"
            "        module.eval()\n"
            "        module.zero_grad(set_to_none=True)  # a stale .grad on a frozen parameter is dropped\n"
            "    return sum(frozen.values())\n"
        ),
    ),
]

MUTANTS += [  # b12: a host read in td_loss (bool() of a tensor is a sync like .item())
    dict(  # b12 cand09
        grade_id="test_td_loss",
        name="if not torch.isfinite(loss): raise (bool() of a tensor reads it back to the host)",
        expect="td_loss 把张量的值读回了主机：bool() / if",
        code=_td_with(
            "return ((prediction - target) ** 2).mean()\n",
            "loss = ((prediction - target) ** 2).mean()\nif not torch.isfinite(loss):\n"
            '    raise FloatingPointError("TD loss is not finite")\nreturn loss\n',
        ),
    ),
    dict(
        grade_id="test_td_loss",
        name="assert torch.isfinite(target).all() on the bootstrapped target (assert reads the tensor back)",
        expect="td_loss 把张量的值读回了主机：bool() / if",
        code=_td_with(
            "prediction = value_net(x)\n",
            "assert torch.isfinite(target).all(), 'target diverged'\nprediction = value_net(x)\n",
        ),
    ),
]


MUTANTS += [  # s42 review (e2): the same pin by a subclass or a callable object (the kernel let both through)
    dict(
        grade_id="test_freeze",
        name="pins the frozen layers in eval by swapping each one's class for a subclass whose train() does nothing",
        expect=".__class__ 被换成了你写的代码",
        code='# 06 freeze: pins the frozen submodules in eval for good by swapping each one\'s class for a subclass whose\n# train() ignores its argument (the known mutant replaces module.train with a lambda; this replaces the class).\n# The caller\'s later model.train() no longer reaches those modules: a monkey patch by another name.\ndef freeze(model, names):\n    frozen = {}\n    for name in names:\n        module = model.get_submodule(name)\n        for parameter in module.parameters():\n            parameter.requires_grad_(False)\n            frozen[id(parameter)] = parameter.numel()\n        module.eval()\n        for sub in module.modules():\n            cls = type(sub)\n            sub.__class__ = type("Frozen" + cls.__name__, (cls,), {"train": lambda self, mode=True: self})\n    return sum(frozen.values())\n',
    ),
    dict(
        grade_id="test_freeze",
        name="pins the frozen layers in eval with a callable object set as each one's train",
        expect=".train 被换成了你写的代码",
        code='# 06 freeze: the same pin, but train replaced by an instance of a callable class (not a function, a method or a\n# partial), stored on each frozen submodule.\nclass _StayEval:\n    def __init__(self, module):\n        self.module = module\n    def __call__(self, mode=True):\n        return self.module\ndef freeze(model, names):\n    frozen = {}\n    for name in names:\n        module = model.get_submodule(name)\n        for parameter in module.parameters():\n            parameter.requires_grad_(False)\n            frozen[id(parameter)] = parameter.numel()\n        module.eval()\n        for sub in module.modules():\n            object.__setattr__(sub, "train", _StayEval(sub))\n    return sum(frozen.values())\n',
    ),
]


MUTANTS += [  # s42 review (e2): the caller's flags or grad mode switched for a while, a target net's mode not put back
    dict(  # e2 cand10
        grade_id="test_td_loss",
        name="switches the target net's parameters to requires_grad=False for its forward and back (not no_grad / detach)",
        expect="返回前又改了回来",
        code="""
# 06 td_loss: stop-gradient by switching the target net's parameters to requires_grad=False for the target's
# forward and back again (and detaching the inputs), instead of no_grad()/detach() on the target. It changes the
# caller's net while it runs (value_net itself when target_net is value_net): an exception in target_net(x_next)
# leaves the caller's net frozen for good, and any other thread sees it frozen meanwhile -- the toggle the course
# refuses in value_and_grad ("toggled") and sgd_step ("不要靠临时切换参数的 requires_grad").
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    flags = [(p, p.requires_grad) for p in target_net.parameters()]
    for p, _ in flags:
        p.requires_grad_(False)
    next_value = target_net(x_next.detach())
    for p, flag in flags:
        p.requires_grad_(flag)
    target = reward.detach() + gamma * next_value
    prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(  # e2 cand12
        grade_id="test_refine",
        name="switches loss_fn's own parameters to requires_grad=False for the steps and back (not backward(inputs=[z]))",
        expect="返回前又改了回来",
        code="""
# 06 refine: same toggle for loss_fn's own parameters (instead of backward(inputs=[z])).
def refine(h, loss_fn, steps, lr):
    flags = [(p, p.requires_grad) for p in loss_fn.parameters()] if isinstance(loss_fn, nn.Module) else []
    for p, _ in flags:
        p.requires_grad_(False)
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward()
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    for p, flag in flags:
        p.requires_grad_(flag)
    return z.detach()
""",
    ),
    dict(  # e2 cand24
        grade_id="test_evaluate",
        name="switches every parameter to requires_grad=False for the forward and back in finally, besides eval + inference_mode",
        expect="返回前又改了回来",
        code="""
# 06 evaluate: besides eval + inference_mode, switches every parameter to requires_grad=False for the forward "to
# save memory" and back in finally. The spec: evaluate may only switch modes temporarily, not touch the parameters;
# the caller's model is changed while evaluate runs (another thread training it sees frozen parameters).
def evaluate(model, x):
    modes = [(m, m.training) for m in model.modules()]
    flags = [(p, p.requires_grad) for p in model.parameters()]
    model.eval()
    for p, _ in flags:
        p.requires_grad_(False)
    try:
        with torch.inference_mode():
            return model(x)
    finally:
        for p, flag in flags:
            p.requires_grad_(flag)
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(  # e2 cand13
        grade_id="test_td_loss",
        name="set_grad_enabled(False) ... set_grad_enabled(True) calls around the target (a caller in no_grad gets grad mode on)",
        mistake="global-setting-changed",
        expect="td_loss 返回之后 grad mode 变了（False -> True）",
        code="""
# 06 td_loss: the target computed between torch.set_grad_enabled(False) and torch.set_grad_enabled(True) calls
# (not a with-block). Not exception-safe (a target_net that raises leaves grad mode off for the whole process) and,
# called inside the caller's torch.no_grad() (TD errors for replay priorities), it switches grad mode back ON for
# the rest of the caller's no_grad block. The settings watch compares before/after only with grad mode on.
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    torch.set_grad_enabled(False)
    target = reward + gamma * target_net(x_next)
    torch.set_grad_enabled(True)
    prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(  # e2 cand15
        grade_id="test_refine",
        name="set_grad_enabled(False) ... set_grad_enabled(True) calls around the update of z (an interrupted update leaves grad mode off)",
        mistake="grad-mode-left-off",
        expect="传出来之后，grad mode 仍然关着",
        code="""
# 06 refine: the in-place update of z between torch.set_grad_enabled(False) / (True) calls instead of no_grad().
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        torch.set_grad_enabled(False)
        z -= lr * z.grad
        torch.set_grad_enabled(True)
        z.grad = None
    return z.detach()
""",
    ),
    dict(  # e2 cand16
        grade_id="test_td_loss",
        name="target_net.eval() for the target, then an unconditional target_net.train() (a target net kept in eval comes back in train mode)",
        expect="target_net 的模式变了（training 从 False 变成了 True）",
        code="""
# 06 td_loss: evaluates the target net in eval mode "for a deterministic target", then switches it back with an
# unconditional target_net.train(). A target net the caller keeps in eval (the usual DQN setup), or value_net itself
# when the caller computes TD errors in eval mode with target_net is value_net, comes back in TRAIN mode: its
# Dropout turns on and its BatchNorm starts updating running statistics. The tests' only eval-mode net is a
# value_net with a separate, train-mode target_net.
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    target_net.eval()
    with torch.no_grad():
        target = reward + gamma * target_net(x_next)
    target_net.train()
    prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
]


CORRECT += [  # s42 review (e2): a context manager puts the caller's grad mode back, whatever it was
    dict(
        grade_id="test_td_loss",
        name="the target under `with torch.set_grad_enabled(False):`",
        code=_td_with("with torch.no_grad():", "with torch.set_grad_enabled(False):"),
    ),
    dict(
        grade_id="test_refine",
        name="the update of z by a helper decorated with @torch.no_grad()",
        code="@torch.no_grad()\ndef _step(z, lr):\n    z -= lr * z.grad\n\n\n"
        + _refine_with("    with torch.no_grad():\n        z -= lr * z.grad\n", "    _step(z, lr)\n"),
    ),
]


MUTANTS += [  # s42 review (e2): an implementation flag set though every other setting keeps its default
    dict(  # e2 cand20
        grade_id="test_make_optimizer",
        name="AdamW(groups, lr=lr, fused=True) (fused is not among the math settings the test compared)",
        expect="的 fused 是 True，应是 AdamW 的默认值 None",
        code=_optimizer_with(_ADAMW, "torch.optim.AdamW(groups, lr=lr, fused=True)"),
    ),
]

CORRECT += [  # s42 review (e2): the defaults written out, betas as a list
    dict(
        grade_id="test_make_optimizer",
        name="every default written out: betas=[0.9, 0.999], eps=1e-8, amsgrad=False, foreach=None, fused=None",
        code=_optimizer_with(
            _ADAMW,
            "torch.optim.AdamW(groups, lr=lr, betas=[0.9, 0.999], eps=1e-8, amsgrad=False, foreach=None, fused=None)",
        ),
    ),
]

MUTANTS += [  # s43 review (f2 cand07): a copy to the host was read as "meta has no data" and the device check skipped
    dict(
        grade_id="test_refine",
        name="z from h.detach().cpu().clone(): z and the result on the CPU for a GPU h",
        expect="函数把输入的数据拷出了它的设备",
        code="def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:\n    z = h.detach().cpu().clone().requires_grad_(True)\n    for _ in range(steps):\n        loss_fn(z).backward(inputs=[z])\n        with torch.no_grad():\n            z -= lr * z.grad\n        z.grad = None\n    return z.detach()\n",
    ),
]

MUTANTS += [  # issue-17 second pass (f2, stop 43)
    dict(
        grade_id="test_make_optimizer",
        name="lr passed as a 0-d tensor: AdamW(groups, lr=torch.tensor(lr))",
        expect="的 lr 是一个张量",
        code=_optimizer_with(_ADAMW, "torch.optim.AdamW(groups, lr=torch.tensor(lr))"),
    ),
    dict(
        grade_id="test_td_loss",
        name="one forward over cat([x, x_next]) when target_net is value_net",
        expect="x 和 x_next 被合成一个输入（cat / stack）做了一次前向",
        code=_body(
            "def td_loss(value_net, target_net, x, reward, x_next, gamma):",
            """
if target_net is value_net:
    out = value_net(torch.cat([x, x_next]))
    prediction, nxt = out[: x.shape[0]], out[x.shape[0]:].detach()
    target = reward.detach() + gamma * nxt
else:
    with torch.no_grad():
        target = reward + gamma * target_net(x_next)
    prediction = value_net(x)
return ((prediction - target) ** 2).mean()
""",
        ),
    ),
    dict(
        grade_id="test_td_loss",
        name="the target from copy.deepcopy(target_net): the caller's net never runs",
        expect="target_net：模型一次也没有通过 model(x) 调用，它的 forward 也没有运行",
        code="import copy as _copy\n" + _td_with("target_net(x_next)", "_copy.deepcopy(target_net)(x_next)"),
    ),
    dict(
        grade_id="test_evaluate",
        name="memoises the output per (id(model), x's memory): stale after the weights change",
        expect="第二次返回的和第一次完全一样",
        code="_EVAL_CACHE = {}\n"
        + _body(
            "def evaluate(model, x):",
            "key = (id(model), x.data_ptr(), tuple(x.shape), tuple(x.stride()))\n"
            "if key not in _EVAL_CACHE or _EVAL_CACHE[key][0] is not model or _EVAL_CACHE[key][1] is not x:\n"
            "    _EVAL_CACHE[key] = (model, x, _evaluate(model, x))  # model and x kept: an id is not reused\n"
            "return _EVAL_CACHE[key][2]\n",
        )
        + "\n\n"
        + _body("def _evaluate(model, x):", _EVAL_OK),
    ),
    dict(
        grade_id="test_freeze",
        name="names matched by suffix over named_modules() ('1' also freezes '0.1')",
        expect="0.1.bias、0.1.weight 也被冻结了",
        code=_body(
            "def freeze(model, names):",
            """
frozen = {}
for n, module in model.named_modules():
    if any(n == name or n.endswith("." + name) for name in names):
        for p in module.parameters():
            p.requires_grad_(False)
            frozen[id(p)] = p.numel()
        module.eval()
return sum(frozen.values())
""",
        ),
    ),
    dict(
        grade_id="test_refine",
        name="z.set_(z - lr * z.grad) under no_grad: z's memory swapped every step",
        expect="它的内存却在两步之间换了",
        code=_body(
            "def refine(h, loss_fn, steps, lr):",
            """
z = h.detach().clone().requires_grad_(True)
for _ in range(steps):
    loss_fn(z).backward(inputs=[z])
    with torch.no_grad():
        z.set_(z - lr * z.grad)
    z.grad = None
return z.detach()
""",
        ),
    ),
]


MUTANTS += [  # issue-17 third pass (h2, stop 44): full marks (no caller in no_grad, no sync count, elementwise loss_fns only)
    dict(
        grade_id="test_refine",
        name="torch.set_grad_enabled(True) at the top, never put back",
        expect="refine 返回之后 grad mode 变了（False -> True）",
        code="""\
def refine(h, loss_fn, steps, lr):
    torch.set_grad_enabled(True)  # global switch, never restored
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
    dict(
        grade_id="test_refine",
        name="early stop when loss.item() < 1e-12 (fewer steps, a host read per step)",
        expect="loss_fn 被调用了 1 次，应是每步一次、共 3 次",
        code="""\
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss = loss_fn(z)
        if loss.item() < 1e-12:  # "converged: stop early" -- a host read (GPU sync) every step
            break
        loss.backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
    dict(
        grade_id="test_refine",
        name="descent in float64 for a float32 h, cast back at the end",
        expect="loss_fn 收到的 z 却是 torch.float64",
        code="""\
def refine(h, loss_fn, steps, lr):
    # "descend in float64 for stability", cast back at the end
    z = h.detach().clone().to(torch.float64).requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach().to(h.dtype)
""",
    ),
    dict(
        grade_id="test_td_loss",
        name="gamma made a device tensor with torch.tensor(gamma, device=...) (an upload per call, told a read-back before)",
        expect="td_loss 每次调用都把主机内存里的值阻塞地拷到设备上：torch.tensor",
        code="""\
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    gamma = torch.tensor(gamma, dtype=reward.dtype, device=reward.device)  # "keep everything on the device"
    with torch.no_grad():
        target = reward + gamma * target_net(x_next)
    return ((value_net(x) - target) ** 2).mean()
""",
    ),
]

CORRECT += [  # h2 (stop 44): a caller inside no_grad() still gets the descent, and its grad mode back
    dict(
        grade_id="test_refine",
        name="the descent under torch.enable_grad()",
        code="""\
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    with torch.enable_grad():  # robust: a caller inside no_grad() still gets the descent
        for _ in range(steps):
            loss_fn(z).backward(inputs=[z])
            with torch.no_grad():
                z -= lr * z.grad
            z.grad = None
    return z.detach()
""",
    ),
]


MUTANTS += [  # stop 46 (j4 cand01, cand08)
    dict(
        grade_id="test_td_loss",
        name="one forward over torch.stack([x, x_next], dim=1) when target_net is value_net (rows stay N)",
        expect="被合成一个输入（cat / stack）做了一次前向",
        code="""\
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    if target_net is value_net:
        both = value_net(torch.stack([x, x_next], dim=1))  # (N, 2)
        prediction = both[:, 0]
        target = (reward + gamma * both[:, 1]).detach()
    else:
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
        prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_refine",
        name="plain backward(), then the .grad of loss_fn.parameters() put back only when loss_fn is a Module",
        expect="scale 的 .grad 变了",
        code="""\
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    owned = list(loss_fn.parameters()) if isinstance(loss_fn, nn.Module) else []
    saved = [None if p.grad is None else p.grad.clone() for p in owned]
    for _ in range(steps):
        loss_fn(z).backward()
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    for p, g in zip(owned, saved):
        p.grad = g
    return z.detach()
""",
    ),
]


MUTANTS += [  # stop 46 (j4 cand04): a memo invalidated only by the parameters' version counters
    dict(
        grade_id="test_evaluate",
        name="output memoised per (model, x, parameter versions): stale when only buffers or x change",
        expect="存下来的",
        code="""\
_memo = {}
def evaluate(model, x):
    key = (id(model), id(x), tuple(p._version for p in model.parameters()))
    hit = _memo.get(key)
    if hit is not None and hit[0] is model and hit[1] is x:
        return hit[2]
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        with torch.inference_mode():
            out = model(x)
    finally:
        for module, training in modes_before:
            module.training = training
    _memo[key] = (model, x, out)
    return out
""",
    ),
]

MUTANTS += [  # stop 47 review (m2): a memo keyed by every parameter's _version misses a write through .data
    dict(
        grade_id="test_evaluate",
        name="memo keyed by ids and _versions of x, the parameters and the buffers",
        expect="存下来的",
        code="""
_EVAL_CACHE = {}
def evaluate(model, x):
    key = (id(model), id(x), x._version,
           tuple((id(t), t._version) for t in list(model.parameters()) + list(model.buffers())))
    hit = _EVAL_CACHE.get(id(model))
    if hit is not None and hit[0] == key:
        return hit[1]
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        with torch.inference_mode():
            out = model(x)
    finally:
        for module, training in modes_before:
            module.training = training
    _EVAL_CACHE[id(model)] = (key, out, model, x)  # model and x kept alive: a later object never reuses their ids
    return out
""",
    ),
]

MUTANTS += [  # stop 48 review (n2): memos that passed the re-call checks (they changed only what the key saw)
    dict(
        grade_id="test_evaluate",
        name="a memo taken when x, parameters, buffers and modes equal a snapshot",
        expect="存下来的",
        code="""
_EV_MEMO = {}

def _ev_state(model, x):
    return [x] + [p for p in model.parameters()] + [b for b in model.buffers()]

def evaluate(model, x):
    key = (id(model), id(x))
    modes = [m.training for m in model.modules()]
    hit = _EV_MEMO.get(key)
    if hit is not None and hit[0] is model and hit[1] is x and hit[3] == modes:
        snap = hit[2]
        now = _ev_state(model, x)
        if len(now) == len(snap) and all(a.shape == b.shape and torch.equal(a, b) for a, b in zip(now, snap)):
            return hit[4]
    modes_before = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.inference_mode():
            out = model(x)
    finally:
        for m, t in modes_before:
            m.training = t
    snap = [t.detach().clone() for t in _ev_state(model, x)]
    _EV_MEMO[key] = (model, x, snap, modes, out)
    return out
""",
    ),
]

MUTANTS += [  # stop 48 review (n2 cand05): only defaults['lr'] was compared
    dict(
        grade_id="test_make_optimizer",
        name="AdamW(groups, lr=lr, weight_decay=weight_decay): the default weight_decay changed",
        expect="optimizer.defaults['weight_decay']",
        code="""
def make_optimizer(model, lr, weight_decay):
    decay, no_decay = [], []
    for p in model.parameters():
        if p.requires_grad:
            (decay if p.dim() >= 2 else no_decay).append(p)
    groups = [{"params": decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=lr, weight_decay=weight_decay)
""",
    ),
]

MUTANTS += [  # stop 48 review (n2 cand11): no td_loss target was non-finite
    dict(
        grade_id="test_td_loss",
        name="nan_to_num on the target: a diverged reward gives a finite loss",
        expect="不是有限的 target 原样算进 loss",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.no_grad():
        target = torch.nan_to_num(reward + gamma * target_net(x_next), nan=0.0, posinf=0.0, neginf=0.0)
    return ((value_net(x) - target) ** 2).mean()
""",
    ),
]

MUTANTS += [  # stop 48 review (n2 cand08): no refine gradient was non-finite
    dict(
        grade_id="test_refine",
        name="z -= lr * nan_to_num(z.grad): a non-finite step leaves z as it is",
        expect="z 原样变成 nan",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            z -= lr * torch.nan_to_num(z.grad, nan=0.0, posinf=0.0, neginf=0.0)
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 50 review (r1): non-finite values hidden
    dict(
        grade_id="test_td_loss",
        name="the target through torch.nan_to_num: a nan reward gives a finite loss",
        expect="reward 里有一个 nan：loss",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.no_grad():
        # a diverged reward model must not blow the update up: keep the target a finite number
        target = torch.nan_to_num(reward + gamma * target_net(x_next))
    prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_refine",
        name="each step's gradient clamped to ±1e4: an inf gradient no longer throws z to inf",
        expect="目标里有一个 inf",
        code="""
def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            # an infinite gradient would throw z to inf for good: cap each step's gradient
            z -= lr * z.grad.clamp(-1e4, 1e4)
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 50 review (r1): code that only a GPU runs
    dict(
        grade_id="test_make_optimizer",
        name="nanoGPT's idiom: fused=True when every parameter is on a GPU",
        expect="参数组 0 的 fused=True",
        code="""
def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> torch.optim.AdamW:
    decay, no_decay = [], []
    for parameter in model.parameters():
        if parameter.requires_grad:
            (decay if parameter.dim() >= 2 else no_decay).append(parameter)
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    # as in nanoGPT's configure_optimizers: the fused kernel is faster when the model is on a GPU
    on_gpu = all(p.is_cuda for p in decay + no_decay)
    extra = dict(fused=True) if on_gpu else dict()
    return torch.optim.AdamW(groups, lr=lr, **extra)
""",
    ),
]

MUTANTS += [  # stop 50 review (r5): a memo on the output, a setting changed only on a GPU
    dict(
        grade_id="test_make_optimizer",
        name="eps=1e-6 only when the parameters are on a GPU",
        expect="参数组 0 的 eps=1e-06，在 CPU 上是 eps=1e-08",
        code='''
import torch
from torch import nn

def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> torch.optim.AdamW:
    """AdamW(lr=lr)，只含 requires_grad=True 的参数：二维及以上的做 weight_decay，其余 weight_decay=0。"""
    decay, no_decay = [], []
    for parameter in model.parameters():
        if parameter.requires_grad:
            (decay if parameter.dim() >= 2 else no_decay).append(parameter)
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    on_gpu = any(p.is_cuda for p in decay + no_decay)
    # GPU 上常配混合精度：1e-8 在 float16 里下溢成 0，换一个放得下的 eps
    return torch.optim.AdamW(groups, lr=lr, eps=1e-6 if on_gpu else 1e-8)
''',
    ),
]

MUTANTS += [  # stop 50 review (r1): a memo for deployed models
    dict(
        grade_id="test_evaluate",
        name="an output memo for models already in eval mode everywhere",
        expect="同一个模型（调用前每个模块都在评估模式）",
        code="""
_EVAL_CACHE = {}


def evaluate(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    # a model already in eval mode everywhere is a deployed, frozen model: the same x gives the same output
    frozen = not any(m.training for m in model.modules())
    key = (id(model), id(x), x._version)
    if frozen:
        hit = _EVAL_CACHE.get(key)
        if hit is not None and hit[0] is model and hit[1] is x:
            return hit[2]
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        with torch.inference_mode():
            out = model(x)
    finally:
        for module, training in modes_before:
            module.training = training
    if frozen:
        _EVAL_CACHE[key] = (model, x, out)
    return out
""",
    ),
]

MUTANTS += [  # stop 51 (reviewers c, d): code that only a GPU runs; every hidden test now runs again with each call on a played GPU
    dict(
        grade_id="test_make_optimizer",
        name="GPU-only: lr and weight_decay as 0-d tensors",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> torch.optim.AdamW:
    decay, no_decay = [], []
    for parameter in model.parameters():
        if parameter.requires_grad:
            (decay if parameter.dim() >= 2 else no_decay).append(parameter)
    on_gpu = any(p.is_cuda for p in decay + no_decay)
    # on the GPU keep the hyperparameters as tensors so that changing them never recompiles / syncs
    hp = (lambda v: torch.tensor(v)) if on_gpu else (lambda v: v)
    groups = [{"params": decay, "weight_decay": hp(weight_decay)}, {"params": no_decay, "weight_decay": hp(0.0)}]
    return torch.optim.AdamW(groups, lr=hp(lr))
""",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="GPU-only: model.zero_grad() wipes the caller's gradients",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> torch.optim.AdamW:
    decay, no_decay = [], []
    for parameter in model.parameters():
        if parameter.requires_grad:
            (decay if parameter.dim() >= 2 else no_decay).append(parameter)
    if any(p.is_cuda for p in decay + no_decay):
        model.zero_grad(set_to_none=True)  # on the GPU: free the old gradients' memory before the optimizer's state
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=lr)
""",
    ),
    dict(
        grade_id="test_refine",
        name="a result cached per loss_fn (equal h, steps, lr): a repeat skips the descent",
        expect="不要缓存结果",
        code="""
import weakref

_refined = weakref.WeakKeyDictionary()


def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:
    # the same start, loss and schedule give the same descent: reuse it
    try:
        hit = _refined.get(loss_fn)
    except TypeError:
        hit = None
    if (hit is not None and hit[1] == steps and hit[2] == lr and hit[0].shape == h.shape and hit[0].dtype == h.dtype
            and hit[0].device == h.device and torch.equal(hit[0], h.detach())):
        return hit[3].clone()
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    out = z.detach()
    try:
        _refined[loss_fn] = (h.detach().clone(), steps, lr, out.clone())
    except TypeError:
        pass
    return out
""",
    ),
]

MUTANTS += [  # stop 52: GPU-only branches in checks that hand the learner's function to a scenario (reviewer c, d of stop 51)
    dict(
        grade_id="test_refine",
        name="GPU-only plain loss.backward() (no inputs=[z]): loss_fn's own parameters get gradients",
        expect="loss_fn 自己的可训练参数 scale 的 .grad 变了",
        code="""
def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss = loss_fn(z)
        if z.is_cuda:
            loss.backward()  # GPU: plain backward (inputs= makes autograd prune the graph on every step)
        else:
            loss.backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 52: GPU-only branches in td_loss and evaluate (reviewer d of stop 51)
    dict(
        grade_id="test_td_loss",
        name="GPU-only one batched forward of cat([x, x_next]) when value_net is target_net",
        expect="x 和 x_next 被合成一个输入",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    if value_net is target_net and x.is_cuda:  # on the GPU one bigger batch is cheaper than two launches
        both = value_net(torch.cat([x, x_next]))
        prediction, next_value = both[: x.shape[0]], both[x.shape[0]:]
        target = (reward + gamma * next_value).detach()
    else:
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
        prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="GPU-only torch.no_grad() in place of torch.inference_mode()",
        expect="而不是 torch.inference_mode() 里",
        code="""
def evaluate(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    # on the GPU the outputs often go on into training code (targets, distillation): inference tensors cannot, so use no_grad there
    guard = torch.no_grad() if x.is_cuda else torch.inference_mode()
    try:
        with guard:
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
]

MUTANTS += [  # stop 53: a loss below a tolerance from the start still takes every step
    dict(
        grade_id="test_refine",
        name="early stop on the device: the update is masked once the loss is at or below 1e-4 (s53 b cand36)",
        expect="h 离目标很近",
        code="""
def refine(h, loss_fn, steps, lr, tol=1e-4):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss = loss_fn(z)
        loss.backward(inputs=[z])
        with torch.no_grad():
            # early stop without a host read: once the loss is below tol the update is masked out on the device
            z -= lr * z.grad * (loss.detach() <= tol).logical_not()
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 53: freeze runs again on a played GPU
    dict(
        grade_id="test_freeze",
        name="GPU-only model.zero_grad(set_to_none=True): clears the caller's other gradients on a GPU (s53 b cand05)",
        expect="输入都在 GPU 上时",
        code="""
def freeze(model, names):
    frozen = {}
    for name in names:
        module = model.get_submodule(name)
        for parameter in module.parameters():
            parameter.requires_grad_(False)
            frozen[id(parameter)] = parameter.numel()
        module.eval()
    if any(p.is_cuda for p in model.parameters()):
        # on the GPU: release the gradient memory now (the optimizer is rebuilt after freezing anyway)
        model.zero_grad(set_to_none=True)
    return sum(frozen.values())
""",
    ),
]

MUTANTS += [  # stop 54 reviewer b: early stops below the low-loss case, an update in inference_mode, an optimizer memo per model
    dict(
        grade_id="test_refine",
        name="the update masked on the device once loss <= 1e-6 (early stopping below the old case's loss)",
        expect="不按 loss 或梯度的大小提前停",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss = loss_fn(z)
        loss.backward(inputs=[z])
        with torch.no_grad():
            # converged (loss <= tol): stop moving z, decided on the device (no .item(), no if)
            converged = loss <= 1e-6
            z -= torch.where(converged, torch.zeros_like(z.grad), lr * z.grad)
        z.grad = None
    return z.detach()
""",
    ),
    dict(
        grade_id="test_refine",
        name="the update masked on the device once the gradient norm is <= 1e-4 (a stationary-point stop)",
        expect="不按 loss 或梯度的大小提前停",
        code="""
def refine(h, loss_fn, steps, lr, tol=1e-4):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            # stationary point reached (gradient norm <= tol): stop moving, decided on the device
            z -= lr * z.grad * ~(z.grad.norm() <= tol)
        z.grad = None
    return z.detach()
""",
    ),
    dict(
        grade_id="test_refine",
        name="z updated inside torch.inference_mode() instead of no_grad()",
        expect="torch.inference_mode() 里被原地更新",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.inference_mode():  # stricter and faster than no_grad()
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="one optimizer per model kept in a WeakKeyDictionary (asked again after a freeze, the old groups)",
        expect="返回的优化器里却还有冻结了的",
        code="""
import weakref

_OPTIMIZERS = weakref.WeakKeyDictionary()  # one optimizer per model: asking again keeps AdamW's state (exp_avg, ...)


def make_optimizer(model, lr, weight_decay):
    cached = _OPTIMIZERS.get(model)
    if cached is not None and cached[0] == (lr, weight_decay):
        return cached[1]
    decay, no_decay = [], []
    for parameter in model.parameters():
        if parameter.requires_grad:
            (decay if parameter.dim() >= 2 else no_decay).append(parameter)
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    optimizer = torch.optim.AdamW(groups, lr=lr)
    _OPTIMIZERS[model] = ((lr, weight_decay), optimizer)
    return optimizer
""",
    ),
]

MUTANTS += [  # stop 53 reviewer b 2-4: GPU-only autocast; each call on a played GPU now reports the precision it ran under
    dict(
        grade_id="test_td_loss",
        name="a GPU-only float16 autocast around the whole TD loss",
        expect="用了更低的精度",
        code="""
import contextlib


def td_loss(value_net, target_net, x, reward, x_next, gamma):
    # mixed precision on the GPU (as in most DQN training loops)
    amp = torch.autocast("cuda", dtype=torch.float16) if x.is_cuda else contextlib.nullcontext()
    with amp:
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
        prediction = value_net(x)
        return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="a GPU-only autocast in evaluate (float16 logits on a GPU)",
        expect="用了更低的精度",
        code="""
import contextlib


def evaluate(model, x):
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    # on the GPU run the evaluation in float16 autocast (faster, and it is only inference)
    amp = torch.autocast("cuda", dtype=torch.float16) if x.is_cuda else contextlib.nullcontext()
    try:
        with torch.inference_mode(), amp:
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
    dict(
        grade_id="test_refine",
        name="a GPU-only autocast around loss_fn(z)",
        expect="用了更低的精度",
        code="""
import contextlib


def refine(h, loss_fn, steps, lr):
    amp = torch.autocast("cuda", dtype=torch.float16) if h.is_cuda else contextlib.nullcontext()
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        with amp:
            loss = loss_fn(z)
        loss.backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 54 reviewer f: a memo keyed on names and flags, a foreach update in inference_mode, and the caller's loss module left in eval mode
    dict(
        grade_id="test_make_optimizer",
        name="one optimizer per model, rebuilt only when parameter names or requires_grad flags change (a replaced layer keeps the old one)",
        expect="新层的不在里面",
        code="""
import weakref

# one optimizer per model: asking again keeps AdamW's state (exp_avg, ...), unless the set of
# trainable parameters changed (a freeze / unfreeze in between): then the groups are rebuilt
_OPTIMIZERS = weakref.WeakKeyDictionary()


def make_optimizer(model, lr, weight_decay):
    key = (lr, weight_decay, tuple((name, p.requires_grad) for name, p in model.named_parameters()))
    cached = _OPTIMIZERS.get(model)
    if cached is not None and cached[0] == key:
        return cached[1]
    decay, no_decay = [], []
    for parameter in model.parameters():
        if parameter.requires_grad:
            (decay if parameter.dim() >= 2 else no_decay).append(parameter)
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    optimizer = torch.optim.AdamW(groups, lr=lr)
    _OPTIMIZERS[model] = (key, optimizer)
    return optimizer
""",
    ),
    dict(
        grade_id="test_refine",
        name="a torch._foreach_add_ update inside inference_mode",
        expect="torch.inference_mode() 里被原地更新",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.inference_mode():  # stricter and faster than no_grad(); multi-tensor update as torch.optim does it
            torch._foreach_add_([z], [z.grad], alpha=-lr)
        z.grad = None
    return z.detach()
""",
    ),
    dict(
        grade_id="test_refine",
        name="loss_fn.eval() with no restore",
        expect="成了评估模式",
        code="""
def refine(h, loss_fn, steps, lr):
    if isinstance(loss_fn, nn.Module):
        loss_fn.eval()  # deterministic descent: no Dropout noise, BatchNorm uses its running statistics
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
]

CORRECT += [  # stop 54 reviewer f: a right foreach update was told it used z.data (an in-place _foreach_*_ op under a
    # dispatch mode left the version counter as it was; course.writes.run_keeping_versions now bumps it)
    dict(
        grade_id="test_refine",
        name="the update with torch._foreach_add_([z], [z.grad], alpha=-lr) under no_grad",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():  # multi-tensor update, as torch.optim does it
            torch._foreach_add_([z], [z.grad], alpha=-lr)
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 55 (stop 54 reviewer f cand08/09/21): td_loss and refine met no random net; now a Dropout in training mode, called twice
    dict(
        grade_id="test_td_loss",
        name="the TD loss inside torch.random.fork_rng() (the caller's RNG put back: one Dropout mask every call)",
        expect="Dropout 丢弃了完全相同的元素",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    # leave the caller's random stream as it was: the nets' Dropout draws inside a forked RNG
    with torch.random.fork_rng():
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
        prediction = value_net(x)
        return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_td_loss",
        name="the nets' Dropout layers switched to eval for the call and put back (a TD error without its noise)",
        expect="前向时 Dropout 处在评估模式",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    # a TD error without Dropout noise: the nets' Dropout layers are off for the call, then put back
    dropouts = [m for net in {id(value_net): value_net, id(target_net): target_net}.values()
                for m in net.modules() if isinstance(m, nn.Dropout) and m.training]
    for m in dropouts:
        m.eval()
    try:
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
        prediction = value_net(x)
        return ((prediction - target) ** 2).mean()
    finally:
        for m in dropouts:
            m.train()
""",
    ),
    dict(
        grade_id="test_refine",
        name="refine inside torch.random.fork_rng() (a random loss_fn replays one mask on every call)",
        expect="Dropout 丢弃了完全相同的元素",
        code="""
def refine(h, loss_fn, steps, lr):
    # leave the caller's random stream as it was: a random loss_fn (Dropout) draws inside a forked RNG
    with torch.random.fork_rng():
        z = h.detach().clone().requires_grad_(True)
        for _ in range(steps):
            loss_fn(z).backward(inputs=[z])
            with torch.no_grad():
                z -= lr * z.grad
            z.grad = None
        return z.detach()
""",
    ),
    dict(
        grade_id="test_refine",
        name="a module loss_fn run in eval mode while z moves, its modes put back after",
        expect="前向时 Dropout 处在评估模式",
        code="""
def refine(h, loss_fn, steps, lr):
    # the model behind loss_fn is fixed while z moves: run it in eval mode, then give it back its mode
    was = [(m, m.training) for m in loss_fn.modules()] if isinstance(loss_fn, nn.Module) else []
    for m, _ in was:
        m.eval()
    try:
        z = h.detach().clone().requires_grad_(True)
        for _ in range(steps):
            loss_fn(z).backward(inputs=[z])
            with torch.no_grad():
                z -= lr * z.grad
            z.grad = None
        return z.detach()
    finally:
        for m, mode in was:
            m.train(mode)
""",
    ),
]

MUTANTS += [  # stop 55 reviewer b: a memo asked again for an unchanged model (its gamma = 0 find keeps the s38 ruling: CORRECT)
    dict(
        grade_id="test_make_optimizer",
        name="a memo keyed on the model, lr, weight_decay and the trainable parameters' ids hands back the first AdamW",
        expect="第二次得到的是第一次的那个优化器本身",
        code="""
import torch
from torch import nn

_optimizers = {}


def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> torch.optim.AdamW:
    # 同一个模型、同样的参数和设置再要一次时，复用已经建好的优化器（它的 exp_avg 等状态也留着）
    trainable = [p for p in model.parameters() if p.requires_grad]
    key = (id(model), lr, weight_decay, tuple(id(p) for p in trainable))
    if key in _optimizers:
        return _optimizers[key]
    decay = [p for p in trainable if p.dim() >= 2]
    no_decay = [p for p in trainable if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=lr)
    _optimizers[key] = opt
    return opt
""",
    ),
]

CORRECT += [  # stop 55 (reviewer b cand03): a ruling. An optimizer over the new leaf does the update the prose
    # describes (in place, without grad, then z.grad cleared); the skill graded here is the new leaf itself
    dict(
        grade_id="test_refine",
        name="torch.optim.SGD([z], lr=lr) over the new leaf: zero_grad, backward(inputs=[z]), step",
        code="""
import torch


def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:
    z = h.detach().clone().requires_grad_(True)
    opt = torch.optim.SGD([z], lr=lr)
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        loss_fn(z).backward(inputs=[z])
        opt.step()
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 55 reviewer b cand18
    dict(
        grade_id="test_make_optimizer",
        name="a memo keyed on the model and its parameter ids only (lr and weight_decay ignored)",
        expect="第二次得到的是第一次的那个优化器本身",
        code="""
import torch
from torch import nn

_optimizers = {}


def make_optimizer(model: nn.Module, lr: float, weight_decay: float) -> torch.optim.AdamW:
    # 模型的可训练参数没变就复用同一个优化器
    trainable = [p for p in model.parameters() if p.requires_grad]
    key = (id(model), tuple(id(p) for p in trainable))
    if key not in _optimizers:
        decay = [p for p in trainable if p.dim() >= 2]
        no_decay = [p for p in trainable if p.dim() < 2]
        _optimizers[key] = torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                                              {"params": no_decay, "weight_decay": 0.0}], lr=lr)
    return _optimizers[key]
""",
    ),
]

MUTANTS += [  # stop 56 reviewer j F6: a loss_fn left frozen is told so (not 'put back')
    dict(
        grade_id="test_refine",
        name="a module loss_fn frozen with requires_grad_(False), never put back (told it was put back)",
        expect="的 requires_grad 仍是 False",
        code="""
def refine(h, loss_fn, steps, lr):
    # loss_fn's own parameters must not get gradients: freeze them
    if isinstance(loss_fn, torch.nn.Module):
        loss_fn.requires_grad_(False)
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward()
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_td_loss",
        name="a bare torch.set_grad_enabled(False) around the target (left off when target_net raises)",
        expect="grad mode 仍然关着",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    was_enabled = torch.is_grad_enabled()
    torch.set_grad_enabled(False)  # the target is a constant: no graph for it
    target = reward + gamma * target_net(x_next)
    torch.set_grad_enabled(was_enabled)
    prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_td_loss",
        name="the two nets swapped (the target from value_net under no_grad)",
        expect="两个网络用反了",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.no_grad():
        target = reward + gamma * value_net(x_next)   # nets mixed up: the target from value_net,
    prediction = target_net(x)                          # the prediction from target_net
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="the forward in inference_mode, then out.clone() outside the block",
        expect="返回之前在 inference_mode 外面把它复制了一份",
        code="""
def evaluate(model, x):
    modes_before = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.inference_mode():
            out = model(x)
    finally:
        for m, t in modes_before:
            m.training = t
    return out.clone()  # a normal tensor, so that the caller can use it anywhere (section 3: clone() an inference result)
""",
    ),
    dict(
        grade_id="test_freeze",
        name="p.requires_grad == False (a comparison) with the modules in eval mode",
        expect="p.requires_grad == False",
        code="""
def freeze(model, names):
    frozen = {}
    for name in names:
        module = model.get_submodule(name)
        for p in module.parameters():
            p.requires_grad == False      # typo: a comparison, not an assignment
            frozen[id(p)] = p.numel()
        module.eval()
    return sum(frozen.values())
""",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="group 1 written with weight_decay=weight_decay, AdamW without it",
        expect="第 1 组里写的也是 weight_decay",
        code="""
def make_optimizer(model, lr, weight_decay):
    decay, no_decay = [], []
    for p in model.parameters():
        if p.requires_grad:
            (decay if p.dim() >= 2 else no_decay).append(p)
    groups = [{"params": decay, "weight_decay": weight_decay},
              {"params": no_decay, "weight_decay": weight_decay}]   # copy-paste slip: should be 0.0
    return torch.optim.AdamW(groups, lr=lr)
""",
    ),
]

MUTANTS += [  # stop 57 reviewer r (round 3): a submodule shared under two names
    dict(
        grade_id="test_freeze",
        name="prefix_match_eval_over_deduplicated_modules",
        expect="共享的子模块",
        code="""
def freeze(model, names):
    def inside(full):
        return any(full == n or full.startswith(n + ".") for n in names)

    frozen = {}  # id -> numel: a tied parameter is counted once
    for full, p in model.named_parameters(remove_duplicate=False):  # a tied weight under every name it has
        if inside(full):
            p.requires_grad_(False)
            frozen[id(p)] = p.numel()
    for full, m in model.named_modules():
        if inside(full):
            m.eval()
    return sum(frozen.values())
""",
    ),
    dict(
        grade_id="test_freeze",
        name="exact_name_in_deduplicated_named_modules",
        expect="共享的子模块",
        code="""
def freeze(model, names):
    frozen = {}  # id -> numel: a tied parameter is counted once
    for name, module in model.named_modules():
        if name in names:
            for p in module.parameters():
                p.requires_grad_(False)
                frozen[id(p)] = p.numel()
            module.eval()
    return sum(frozen.values())
""",
    ),
]

MUTANTS += [  # stop 57 reviewer r: this was a CORRECT entry; a submodule shared under two names is missing from the
    # de-duplicated dict(model.named_modules()), so its second name raises KeyError
    dict(
        grade_id="test_freeze",
        name="the submodule looked up in dict(model.named_modules()): a shared submodule's second name is not there",
        expect="KeyError",
        code="def freeze(model, names):\n    frozen = {}\n    for name in names:\n        module = dict(model.named_modules())[name]\n        module.requires_grad_(False)\n        module.train(False)\n        frozen.update({id(p): p.numel() for p in module.parameters()})\n    return sum(frozen.values())\n",
    ),
]

MUTANTS += [  # stop 58 round 5 (d): modes already half set, frozen nets, the caller's no_grad; messages that say what differed
    dict(
        grade_id="test_freeze",
        name="eval_only_if_the_submodule_is_training",
        expect='backbone.1 (BatchNorm) 却在训练模式、names=["backbone"]：冻结的子模块（backbone.1）调用之后还在训练模式',
        code="""
def freeze(model, names):
    frozen = {}
    for name in names:
        module = model.get_submodule(name)
        for parameter in module.parameters():
            parameter.requires_grad_(False)
            frozen[id(parameter)] = parameter.numel()
        if module.training:  # already in eval mode: nothing to switch
            module.eval()
    return sum(frozen.values())
""",
    ),
    dict(
        grade_id="test_freeze",
        name="eval_undone_by_a_recursive_train_restore",
        expect="调用之后还在训练模式",
        code="""
def freeze(model, names):
    was_training = model.training  # the rest of the model keeps its mode
    frozen = {}
    for name in names:
        module = model.get_submodule(name)
        for parameter in module.parameters():
            parameter.requires_grad_(False)
            frozen[id(parameter)] = parameter.numel()
        module.eval()
    model.train(was_training)
    return sum(frozen.values())
""",
    ),
    dict(
        grade_id="test_freeze",
        name="eval_only_on_dropout_and_batchnorm",
        expect="调用之后还在训练模式",
        code="""
def freeze(model, names):
    frozen = {}
    for name in names:
        module = model.get_submodule(name)
        for parameter in module.parameters():
            parameter.requires_grad_(False)
            frozen[id(parameter)] = parameter.numel()
        for m in module.modules():  # fix the layers whose behaviour depends on the mode
            if isinstance(m, (nn.Dropout, nn.BatchNorm1d, nn.BatchNorm2d)):
                m.eval()
    return sum(frozen.values())
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="training_attribute_set_false_on_the_top_only",
        expect="forward 时模型的第一层还在训练模式",
        code="""
def evaluate(model, x):
    modes_before = [(module, module.training) for module in model.modules()]
    model.training = False  # evaluation mode for the forward
    try:
        with torch.inference_mode():
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="no_inference_mode_for_a_frozen_model",
        expect="整个模型已冻结（每个参数 requires_grad=False）、在训练模式：forward 时还在记录计算图",
        code="""
def evaluate(model, x):
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        if any(p.requires_grad for p in model.parameters()) or x.requires_grad:
            with torch.inference_mode():
                return model(x)
        return model(x)  # a fully frozen (deployed) model and a plain input build no graph anyway
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="no_inference_mode_inside_the_callers_no_grad",
        expect="调用方的 no_grad() 已经关了梯度",
        code="""
import contextlib
def evaluate(model, x):
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    # the caller's no_grad() already keeps the forward off the graph: only switch when grad mode is on
    guard = torch.inference_mode() if torch.is_grad_enabled() else contextlib.nullcontext()
    try:
        with guard:
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
    dict(
        grade_id="test_td_loss",
        name="no_no_grad_for_a_frozen_target_net",
        expect="target_net 已冻结、reward 和 x_next 是 requires_grad=True 的张量：反向传播流进了 reward",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    if any(p.requires_grad for p in target_net.parameters()):
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
    else:
        target = reward + gamma * target_net(x_next)  # frozen target net: it builds no graph, nothing to cut
    prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_td_loss",
        name="value_net_switched_to_training_mode",
        expect="不要在 td_loss 里调用 train() / eval()",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.no_grad():
        target = reward + gamma * target_net(x_next)
    value_net.train()  # the prediction is a training forward
    prediction = value_net(x)
    return ((prediction - target) ** 2).mean()
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 d: c16): the target net alone switched to eval for the target, modes put back
    dict(
        grade_id="test_td_loss",
        name="target_net_alone_in_eval_for_the_target_modes_put_back",
        expect="前向时 Dropout 处在评估模式",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    modes = [(m, m.training) for m in target_net.modules()]
    target_net.eval()  # a deterministic target: no Dropout noise in the bootstrap value
    try:
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
    finally:
        for m, training in modes:  # every module back as it was
            m.training = training
    return ((value_net(x) - target) ** 2).mean()
""",
    ),
]


MUTANTS += [  # round 8 d c12, c13, c20, c21: autocast behind a flag set in an if block, a dict of flags, a query in a dict or a closure
    dict(
        grade_id="test_evaluate",
        name="bfloat16 autocast behind a flag set in a top-level if block",
        expect="torch.autocast（bfloat16）",
        code="""
USE_BF16 = False
if torch.cuda.is_available() and torch.cuda.is_bf16_supported():
    USE_BF16 = True  # bf16 evaluation on GPUs that have it


def evaluate(model, x):
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=USE_BF16):
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
    dict(
        grade_id="test_td_loss",
        name="torch.autocast('cuda', **AMP) with a dict of flags",
        expect="torch.autocast（float16）",
        code="""
AMP = {"enabled": torch.cuda.is_available(), "dtype": torch.float16}


def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.autocast("cuda", **AMP):
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
        prediction = value_net(x)
        return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_td_loss",
        name="float16 autocast when a query held in a dict answers True",
        expect="torch.autocast（float16）",
        code="""
MACHINE = {"gpu": torch.cuda.is_available, "bf16": torch.cuda.is_bf16_supported}  # what the machine can do, asked when needed


def td_loss(value_net, target_net, x, reward, x_next, gamma):
    amp = x.is_cuda and MACHINE["gpu"]()
    with torch.autocast("cuda", dtype=torch.float16, enabled=amp):
        with torch.no_grad():
            target = reward + gamma * target_net(x_next)
        prediction = value_net(x)
        return ((prediction - target) ** 2).mean()
""",
    ),
    dict(
        grade_id="test_refine",
        name="bfloat16 autocast when a query held in a closure answers True",
        expect="torch.autocast（bfloat16）",
        code="""
def _machine_query(query):
    def ask():
        return query()
    return ask


gpu_available = _machine_query(torch.cuda.is_available)


def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=h.is_cuda and gpu_available()):
            loss = loss_fn(z)
        loss.backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
]


MUTANTS += [  # round 8 d: refine in float32 for a bfloat16 h, a loss.item() line every 50 steps; freeze sorts the caller's names; a query imported under another name
    dict(
        grade_id="test_refine",
        name="descent in float32 when h is float16 / bfloat16, cast back at the end",
        expect="loss_fn 收到的 z 却是 torch.float32",
        code="""
def refine(h, loss_fn, steps, lr):
    # half-precision h: do the descent in float32 "for stability", cast back at the end
    work = torch.float32 if h.dtype in (torch.float16, torch.bfloat16) else h.dtype
    z = h.detach().to(work).clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach().to(h.dtype)
""",
    ),
    dict(
        grade_id="test_refine",
        name="a progress line with loss.item() every 50 steps",
        expect=".item()",
        code="""
def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for i in range(steps):
        loss = loss_fn(z)
        loss.backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
        if (i + 1) % 50 == 0:  # progress every 50 steps on long runs
            print(f"refine step {i + 1}/{steps}: loss {loss.item():.4g}")
    return z.detach()
""",
    ),
    dict(
        grade_id="test_freeze",
        name="names.sort() on the caller's list",
        expect="修改了调用者传入的数据",
        mistake="modifies-input",
        code="""
def freeze(model, names):
    names.sort()  # a fixed order: the log lists the frozen modules alphabetically
    frozen = {}
    for name in names:
        module = model.get_submodule(name)
        for parameter in module.parameters():
            parameter.requires_grad_(False)
            frozen[id(parameter)] = parameter.numel()
        module.eval()
    return sum(frozen.values())
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="bfloat16 autocast behind a flag from is_available imported as have_gpu",
        expect="torch.autocast（",
        code="""
from torch.cuda import is_available as have_gpu

FAST = have_gpu()  # bf16 evaluation where there is a GPU


def evaluate(model, x):
    modes_before = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=FAST):
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
]


MUTANTS += [  # round 8 d c40: every step's loss kept, with its graph, in a module-level list
    dict(
        grade_id="test_refine",
        name="refine_losses.append(loss) in a module-level list, not detached",
        expect="还连着计算图被留着",
        mistake="losses-kept-with-graph",
        code="""
refine_losses = []  # every step's loss, to plot the descent afterwards


def refine(h, loss_fn, steps, lr):
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss = loss_fn(z)
        loss.backward(inputs=[z])
        refine_losses.append(loss)
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
]


MUTANTS += [  # round 8 d c36, c37: each model's module list or submodule lookups memoised between calls
    dict(
        grade_id="test_evaluate",
        name="each model's module list memoised in a WeakKeyDictionary",
        expect="像是用了第一次调用时记下的模块列表",
        code="""
import weakref

_MODULES = weakref.WeakKeyDictionary()  # each model's module list, walked once


def evaluate(model, x):
    modules = _MODULES.get(model)
    if modules is None:
        modules = _MODULES[model] = list(model.modules())
    modes_before = [(module, module.training) for module in modules]
    model.eval()
    try:
        with torch.inference_mode():
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
    dict(
        grade_id="test_freeze",
        name="submodule lookups memoised per model",
        expect="已经换下来的那个子模块",
        code="""
import weakref

_LOOKUP = weakref.WeakKeyDictionary()  # model -> {name: submodule}, looked up once


def freeze(model, names):
    table = _LOOKUP.setdefault(model, {})
    frozen = {}
    for name in names:
        if name not in table:
            table[name] = model.get_submodule(name)
        module = table[name]
        for parameter in module.parameters():
            parameter.requires_grad_(False)
            frozen[id(parameter)] = parameter.numel()
        module.eval()
    return sum(frozen.values())
""",
    ),
]


MUTANTS += [  # round 9 b c29, c30: module lists or lookups cached per model, refreshed only when a direct child changes
    dict(
        grade_id="test_evaluate",
        name="the module list cached per model, refreshed when the direct children change",
        expect="像是用了第一次调用时记下的模块列表",
        code="""
import weakref
_MODULES = weakref.WeakKeyDictionary()  # model -> (ids of its children, its module list): model.modules() once per structure
def evaluate(model, x):
    key = tuple(id(child) for child in model.children())
    hit = _MODULES.get(model)
    if hit is None or hit[0] != key:  # a child swapped in: walk the model again
        hit = (key, list(model.modules()))
        _MODULES[model] = hit
    modes_before = [(module, module.training) for module in hit[1]]
    model.eval()
    try:
        with torch.inference_mode():
            return model(x)
    finally:
        for module, training in modes_before:
            module.training = training
""",
    ),
    dict(
        grade_id="test_freeze",
        name="get_submodule cached per model, refreshed when the direct children change",
        expect="已经换下来的那个子模块",
        code="""
import weakref
_FOUND = weakref.WeakKeyDictionary()  # model -> {name: (id of the top-level child it lives under, the submodule)}
def freeze(model, names):
    found = _FOUND.setdefault(model, {})
    frozen = {}
    for name in names:
        top = id(model.get_submodule(name.split(".")[0]))
        hit = found.get(name)
        if hit is None or hit[0] != top:  # the top-level child was swapped: look again
            hit = found[name] = (top, model.get_submodule(name))
        module = hit[1]
        for parameter in module.parameters():
            parameter.requires_grad_(False)
            frozen[id(parameter)] = parameter.numel()
        module.eval()
    return sum(frozen.values())
""",
    ),
]


CORRECT += [  # round 10 c: a seeding setup cell (GPU branch included) beside a right answer (right answers)
    dict(
        grade_id="test_refine",
        name="a seeding setup cell beside the solution (c43_06rf)",
        code="""
# set-up cell (right answer below is the solution's): seed everything for reproducible runs
if torch.cuda.is_available():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    device = torch.device("cuda")
else:
    torch.manual_seed(0)
    device = torch.device("cpu")


def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:
    # h: (*) 调用者图里的中间结果 -> (*) 从 h 出发、在新图上做 steps 步梯度下降的结果 (requires_grad=False)。
    z = h.detach().clone().requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])  # 只写 z.grad：loss_fn 里模型的参数不碰
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach()
""",
    ),
]

MUTANTS += [  # round 15 c03: float16 widened to float32 for the descent
    dict(
        grade_id="test_refine",
        name="float16 h refined in float32",
        code="""def refine(h: torch.Tensor, loss_fn, steps: int, lr: float) -> torch.Tensor:
    # float16 tops out at 65504 (the 01 lesson): run the descent in float32 for it; bfloat16 has float32's range
    work = torch.float32 if h.dtype == torch.float16 else h.dtype
    z = h.detach().to(work, copy=True).requires_grad_(True)
    for _ in range(steps):
        loss_fn(z).backward(inputs=[z])
        with torch.no_grad():
            z -= lr * z.grad
        z.grad = None
    return z.detach().to(h.dtype)
""",
        expect="loss_fn 收到的 z 却是 torch.float32",
    ),
]
