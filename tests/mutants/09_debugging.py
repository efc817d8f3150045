"""Wrong answers learners write for 09_debugging; each must fail its test cell with ``expect`` in the message.

Every planted bug of the notebook has a mutant: for ``diagnose`` each code is missed (or mis-detected) by one
mutant; for the two broken training steps each mutant fixes all planted bugs but one.
"""

from tests.notebooks import edited, solution_with, solution_wrapped

_DIAGNOSE_OK = """
def diagnose(logits, labels, num_classes):
    problems = set()
    if {device}:
        problems.add("device_mismatch")
    if {shape}:
        problems.add("shape_mismatch")
    if {dtype}:
        problems.add("label_dtype")
    if {labels_meta_guard} labels.numel() > 0:
        if {range_check}:
            problems.add("label_range")
    if {logits_meta_guard} logits.numel() > 0:
        if {finite_check}:
            problems.add("nonfinite")
        elif {prob_guard}:
            if {prob_check}:
                problems.add("probabilities_not_logits")
    return problems
"""

_DIAGNOSE_PARTS = dict(
    device="logits.device != labels.device",
    shape="logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]",
    dtype="labels.dtype != torch.long",
    labels_meta_guard="not labels.is_meta and",
    range_check="not bool(((labels >= 0) & (labels < num_classes)).all())",
    logits_meta_guard="not logits.is_meta and",
    finite_check="not bool(torch.isfinite(logits).all())",
    prob_guard="logits.dim() == 2 and logits.shape[1] >= 2",
    prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all())",
)


def _diagnose(**changes):
    return _DIAGNOSE_OK.format(**{**_DIAGNOSE_PARTS, **changes})


_TRAIN_STEP = """
def train_step(model, x, y, optimizer):
    {train}
    {zero_grad}
    logits = {forward}
    loss = F.cross_entropy({loss_input}, y)
    loss.backward()
    {late_zero_grad}
    optimizer.step()
    return loss.item()
"""

_TRAIN_OK = dict(
    train="model.train()",
    zero_grad="optimizer.zero_grad()",
    forward="model(x)",
    loss_input="logits",
    late_zero_grad="pass",
)


def _train_step(**changes):
    return _TRAIN_STEP.format(**{**_TRAIN_OK, **changes})


_REGRESSION_STEP = """
def regression_step(model, x, y, optimizer):
    {early_norm}
    optimizer.zero_grad()
    pred = {pred}
    loss = {loss}
    {guard}
    {mid_norm}
    loss.backward()
    {late_norm}
    optimizer.step()
    return {{"loss": {loss_out}, "grad_norm": norm, "skipped": False}}
"""

_REGRESSION_OK = dict(
    early_norm="pass",
    pred="model(x).squeeze(1)",
    loss="F.mse_loss(pred, y)",
    guard="""if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}""",
    mid_norm="pass",
    late_norm="norm = grad_norm(model)",
    loss_out="loss.item()",
)


def _regression_step(**changes):
    return _REGRESSION_STEP.format(**{**_REGRESSION_OK, **changes})


MUTANTS = [
    # ---------------------------------------------------------------- diagnose: one mutant per planted problem
    dict(
        grade_id="test_diagnose",
        name="isnan_misses_inf",
        code=_diagnose(finite_check="bool(torch.isnan(logits).any())"),
        expect="torch.isnan 只认 nan",
    ),
    dict(
        grade_id="test_diagnose",
        name="equals_nan_is_always_false",
        code=_diagnose(finite_check='bool((logits == float("nan")).any())'),
        expect="永远是 False",
    ),
    dict(
        grade_id="test_diagnose",
        name="row_sums_allclose_default_tolerance",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and torch.allclose(logits.sum(dim=1), torch.ones(logits.shape[0]))"
        ),
        expect="漏掉了 'probabilities_not_logits'",
    ),
    dict(
        grade_id="test_diagnose",
        name="probabilities_by_row_sums_only",
        code=_diagnose(prob_check="bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all())"),
        expect="误报 (false positive) 'probabilities_not_logits'",
    ),
    dict(
        grade_id="test_diagnose",
        name="probability_check_on_a_single_column",
        code=_diagnose(prob_guard="logits.dim() == 2"),
        expect="误报 (false positive) 'probabilities_not_logits'",
    ),
    dict(
        grade_id="test_diagnose",
        name="no_nonfinite_check",
        code=_diagnose(finite_check="False"),
        expect="漏掉了 'nonfinite'",
    ),
    dict(
        grade_id="test_diagnose",
        name="no_device_check",
        code=_diagnose(device="False"),
        expect="漏掉了 'device_mismatch'",
    ),
    dict(
        grade_id="test_diagnose",
        name="dtype_check_is_floating_point_misses_int32",
        code=_diagnose(dtype="labels.is_floating_point()"),
        expect="int32",
    ),
    dict(
        grade_id="test_diagnose",
        name="range_off_by_one_labels_1_to_C",
        code=_diagnose(range_check="bool((labels < 0).any()) or bool((labels > num_classes).any())"),
        expect="含 num_classes",
    ),
    dict(
        grade_id="test_diagnose",
        name="range_misses_negative_labels",
        code=_diagnose(range_check="bool((labels >= num_classes).any())"),
        expect="负数",
    ),
    dict(
        grade_id="test_diagnose",
        name="nonnegative_is_not_probability",
        code=_diagnose(prob_check="bool((logits >= 0).all())"),
        expect="误报 (false positive) 'probabilities_not_logits'",
    ),
    dict(
        grade_id="test_diagnose",
        name="row_sums_compared_exactly",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and bool((logits.sum(dim=1) == 1).all())"
        ),
        expect="漏掉了 'probabilities_not_logits'",
    ),
    dict(
        grade_id="test_diagnose",
        name="no_softmax_check",
        code=_diagnose(prob_check="False"),
        expect="漏掉了 'probabilities_not_logits'",
    ),
    dict(
        grade_id="test_diagnose",
        name="shape_check_misses_labels_N_by_1",
        code=_diagnose(
            shape="logits.dim() != 2 or logits.shape[1] != num_classes or labels.shape[0] != logits.shape[0]"
        ),
        expect="(N, 1)",
    ),
    dict(
        grade_id="test_diagnose",
        name="value_checks_crash_on_meta",
        code=_diagnose(labels_meta_guard="", logits_meta_guard=""),
        expect="meta 张量没有数值",
    ),
    dict(
        grade_id="test_diagnose",
        name="probability_check_crashes_on_1d_logits",
        code=_diagnose(prob_guard="logits.shape[1] >= 2"),
        expect="也不能崩溃",
    ),
    dict(
        grade_id="test_diagnose",
        name="returns_list",
        code="""
_diagnose_set = diagnose
def diagnose(logits, labels, num_classes):
    return sorted(_diagnose_set(logits, labels, num_classes))
""",
        expect="应返回 set",
    ),
    # ---------------------------------------------------------------- train_step: each planted bug left in once
    dict(
        grade_id="test_train_step",
        name="keeps_detach",
        code=_train_step(forward="model.head(model.body(x).detach())"),
        expect="detach()",
    ),
    dict(
        grade_id="test_train_step",
        name="keeps_softmax_before_cross_entropy",
        code=_train_step(loss_input="logits.softmax(dim=1)"),
        expect="softmax()",
        mistake="softmax-before-ce",
    ),
    dict(
        grade_id="test_train_step",
        name="keeps_missing_zero_grad",
        code=_train_step(zero_grad="pass"),
        expect="zero_grad()",
        mistake="missing-zero-grad",
    ),
    dict(
        grade_id="test_train_step",
        name="keeps_eval_mode",
        code=_train_step(train="pass"),
        expect="model.train()",
        mistake="missing-model-train",
    ),
    dict(
        grade_id="test_train_step",
        name="sets_training_attribute_instead_of_train",
        code=_train_step(train="model.training = True"),
        expect="也只改模型自己这一个属性",
    ),
    dict(
        grade_id="test_train_step",
        name="train_after_the_forward_pass",
        code=_train_step(forward="model(x)\n    model.train()", train="pass"),
        expect="可前向时 body.1（BatchNorm1d）在评估模式",  # fd3: the mode the forward ran in, seen per module
    ),
    dict(
        grade_id="test_train_step",
        name="calls_eval_instead_of_train",
        code=_train_step(train="model.eval()"),
        expect="model.train()",
    ),
    dict(
        grade_id="test_train_step",
        name="zero_grad_between_backward_and_step",
        code=_train_step(zero_grad="pass", late_zero_grad="optimizer.zero_grad()"),
        expect="没有更新",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_loss_tensor",
        code=edited(_train_step(), ("return loss.item()", "return loss")),
        expect=".item()",
    ),
    # ---------------------------------------------------------------- regression_step: each planted bug left in once
    dict(
        grade_id="test_regression_step",
        name="keeps_broadcast_N_by_N",
        code=_regression_step(pred="model(x)", loss="((pred - y) ** 2).mean()"),
        expect="(N, N)",
        mistake="broadcast-n-by-n",
    ),
    dict(
        grade_id="test_regression_step",
        name="mse_loss_without_squeeze",
        code=_regression_step(pred="model(x)"),
        expect="(N, N)",
    ),
    dict(
        grade_id="test_regression_step",
        name="squeeze_without_dim",
        code=_regression_step(pred="model(x).squeeze()"),
        expect="squeeze(1)",
    ),
    dict(
        grade_id="test_regression_step",
        name="keeps_missing_isfinite_guard",
        code=_regression_step(guard="pass"),
        expect="torch.isfinite(loss)",
    ),
    dict(
        grade_id="test_regression_step",
        name="isnan_guard_misses_inf",
        code=_regression_step(
            guard="""if torch.isnan(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}"""
        ),
        expect="认不出 inf",
    ),
    dict(
        grade_id="test_regression_step",
        name="loss_equals_nan_is_always_false",
        code=_regression_step(
            guard="""if loss == float("nan"):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}"""
        ),
        expect="永远是 False",
    ),
    dict(
        grade_id="test_regression_step",
        name="self_inequality_guard_misses_inf",
        code=_regression_step(
            guard="""if loss != loss:
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}"""
        ),
        expect="认不出 inf",
    ),
    dict(
        grade_id="test_regression_step",
        name="backward_before_the_isfinite_check",
        code=edited(
            _regression_step(),
            ("    loss.backward()\n", ""),
            ("    if not torch.isfinite(loss):", "    loss.backward()\n    if not torch.isfinite(loss):"),
        ),
        expect="还是做了 backward()",
    ),
    dict(
        grade_id="test_regression_step",
        name="keeps_grad_norm_read_before_zero_grad",
        code=_regression_step(early_norm="norm = grad_norm(model)", late_norm="pass"),
        expect="上一步",
    ),
    dict(
        grade_id="test_regression_step",
        name="grad_norm_read_before_backward",
        code=_regression_step(mid_norm="norm = grad_norm(model)", late_norm="pass"),
        expect="backward() 之前",
    ),
    dict(
        grade_id="test_regression_step",
        name="returns_loss_tensor",
        code=_regression_step(loss_out="loss"),
        expect=".item()",
    ),
    # ---------------------------------------------------------------- predict first
    dict(
        grade_id="test_predict_nan_step_raises",
        formative=True,
        name="thinks_nan_raises",
        code="predict_nan_step_raises = True",
        expect="没有任何运算会因此报错",
    ),
    dict(
        grade_id="test_predict_nan_step_raises",
        formative=True,
        name="answer_as_text",
        code="predict_nan_step_raises = 'False'",
        expect="之一",
    ),
    dict(
        grade_id="test_predict_nan_step_raises",
        formative=True,
        name="answer_missing",
        code="predict_nan_step_raises = ...",
        expect="还没有写预测",
    ),
    dict(
        grade_id="test_predict_syncs_isfinite",
        formative=True,
        name="counts_only_item",
        code="predict_syncs_isfinite = 2",
        expect="一共 12 次",
    ),
    dict(
        grade_id="test_predict_syncs_isfinite",
        formative=True,
        name="counts_only_isfinite",
        code="predict_syncs_isfinite = 10",
        expect="一共 12 次",
    ),
    dict(
        grade_id="test_predict_syncs_isfinite",
        formative=True,
        name="thinks_isfinite_stays_on_device",
        code="predict_syncs_isfinite = 0",
        expect="bool(张量)",
    ),
    dict(
        grade_id="test_predict_broadcast_shape",
        formative=True,
        name="elementwise_shape",
        code="predict_broadcast_shape = (3,)",
        expect="实际是 (3, 3)",
    ),
    dict(
        grade_id="test_predict_broadcast_shape",
        formative=True,
        name="prediction_shape",
        code="predict_broadcast_shape = (3, 1)",
        expect="实际是 (3, 3)",
    ),
    dict(
        grade_id="test_predict_broadcast_shape",
        formative=True,
        name="answer_as_text",
        code="predict_broadcast_shape = '(3, 3)'",
        expect="应写成 tuple",
    ),
]


def _repairs(labels_fix="pass", logits_fix="pass"):
    return edited(
        _diagnose(),
        (
            '            problems.add("label_range")\n',
            '            problems.add("label_range")\n        ' + labels_fix + "\n",
        ),
        (
            '            problems.add("nonfinite")\n',
            '            problems.add("nonfinite")\n            ' + logits_fix + "\n",
        ),
    )


MUTANTS += [
    # ---------------------------------------------------------------- found by the fresh reviewer (pass 2)
    dict(
        grade_id="test_diagnose",
        name="repairs_labels_in_place",
        code=_repairs(labels_fix="labels.clamp_(0, num_classes - 1)"),
        expect="diagnose 修改了输入 labels",
    ),
    dict(
        grade_id="test_diagnose",
        name="repairs_logits_in_place",
        code=_repairs(logits_fix="logits.nan_to_num_(0.0, 0.0, 0.0)"),
        expect="diagnose 修改了输入 logits",
    ),
    # ---------------------------------------------------------------- review rfc (issue 17 item 2)
    dict(
        grade_id="test_diagnose",
        name="labels_checked_by_numel_misses_0d_labels",
        code=_diagnose(
            shape="logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() > 1 "
            "or labels.numel() != logits.shape[0]"
        ),
        expect="labels 是 0-d",
    ),
    dict(
        grade_id="test_diagnose",
        name="logits_dim_below_two_misses_3d_logits",
        code=_diagnose(
            shape="logits.dim() < 2 or logits.shape[1] != num_classes or labels.dim() != 1 "
            "or labels.shape[0] != logits.shape[0]",
            prob_guard="logits.dim() >= 2 and logits.shape[1] >= 2",
        ),
        expect="logits 是 3-D",
    ),
    dict(
        grade_id="test_regression_step",
        name="skips_an_exploding_but_finite_loss",
        code=_regression_step(
            guard="""if torch.isnan(loss) or loss > 1e6:
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}"""
        ),
        expect="loss 是有限值时 skipped 应为 False",
    ),
    dict(
        grade_id="test_regression_step",
        name="guard_not_below_a_threshold",
        code=_regression_step(
            guard="""if not (loss < 1e30):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}"""
        ),
        expect="很大，但是有限值",
    ),
    dict(
        grade_id="test_regression_step",
        name="silently_skips_a_big_loss_without_saying_so",
        code=_regression_step(
            guard="""if not torch.isfinite(loss) or loss > 1e20:
        return {"loss": loss.item(), "grad_norm": None, "skipped": not torch.isfinite(loss).item()}"""
        ),
        expect="grad_norm 却是 None",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- closing pass (issue 17, r0809)
    dict(
        grade_id="test_diagnose",
        name="device_mismatch_compares_device_type_only",
        code=_diagnose(device="logits.device.type != labels.device.type"),
        expect="编号不同",
    ),
    dict(
        grade_id="test_diagnose",
        name="device_mismatch_compares_is_cuda_and_is_meta",
        code=_diagnose(device="logits.is_cuda != labels.is_cuda or logits.is_meta != labels.is_meta"),
        expect="编号不同",
    ),
    dict(
        grade_id="test_diagnose",
        name="value_checks_only_on_cpu_tensors",
        code=_diagnose(
            labels_meta_guard='labels.device.type == "cpu" and', logits_meta_guard='logits.device.type == "cpu" and'
        ),
        expect="GPU 上的张量照样要查",
    ),
    dict(
        grade_id="test_diagnose",
        name="row_sums_within_1e-2_not_1e-3",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-2).all())"
        ),
        expect="每行和是 0.995",
    ),
    dict(
        grade_id="test_diagnose",
        name="row_sum_of_the_first_row_only",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and bool((logits[0].sum() - 1).abs() <= 1e-3)"
        ),
        expect="第一行和为 1",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- final fresh pass (issue 17, rvc)
    dict(
        grade_id="test_diagnose",
        name="mean_of_the_row_sums_instead_of_every_row",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and bool((logits.sum(dim=1).mean() - 1).abs() <= 1e-3)"
        ),
        expect="平均正好是 1",
    ),
    dict(
        grade_id="test_diagnose",
        name="row_sums_within_4e-3_not_1e-3",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 4e-3).all())"
        ),
        expect="每行和是 0.9985",
    ),
    dict(
        grade_id="test_diagnose",
        name="probabilities_strictly_below_one",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits < 1)).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all())"
        ),
        expect="恰好是 [1, 0, 0]",
    ),
    dict(
        grade_id="test_diagnose",
        name="uint8_labels_accepted",
        code=_diagnose(dtype="labels.dtype not in (torch.long, torch.uint8)"),
        expect="uint8",
    ),
    dict(
        grade_id="test_diagnose",
        name="value_checks_skipped_when_either_tensor_is_meta",
        code=_diagnose(logits_meta_guard="not logits.is_meta and not labels.is_meta and"),
        expect="数值检查只对 meta 张量自己跳过",
    ),
]

MUTANTS += [
    dict(  # skips the step, but only after a backward() through the non-finite loss, whose gradients it drops
        grade_id="test_regression_step",
        name="backward_before_the_finite_check_then_zero_grad",
        code=edited(
            _regression_step(),
            (
                "    if not torch.isfinite(loss):\n",
                "    loss.backward()\n    if not torch.isfinite(loss):\n        optimizer.zero_grad()\n",
            ),
            ("    pass\n    loss.backward()\n", "    pass\n"),
        ),
        expect="但这次调用里做了 backward()",
    ),
]

MUTANTS += [
    dict(  # rv5: reads the values through NumPy, which a tensor on a GPU cannot do (found by a read-only reviewer)
        grade_id="test_diagnose",
        name="values read through .numpy() (fails on a GPU tensor)",
        code="""import numpy as np


def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        lab = labels.detach().numpy()
        if (lab < 0).any() or (lab >= num_classes).any():
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        lg = logits.detach().numpy()
        if not np.isfinite(lg).all():
            problems.add("nonfinite")
        elif lg.ndim == 2 and lg.shape[1] >= 2:
            if ((lg >= 0) & (lg <= 1)).all() and (np.abs(lg.sum(1) - 1) <= 1e-3).all():
                problems.add("probabilities_not_logits")
    return problems
""",
        expect="can't convert cuda:1 device type tensor to numpy",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- final fresh pass (issue 17, rvc5)
    dict(  # a tensor's storage reports its device too: a played GPU tensor's must say the GPU
        grade_id="test_diagnose",
        name="value_checks_only_where_the_storage_is_on_the_cpu",
        code=_diagnose(
            labels_meta_guard='labels.untyped_storage().device.type == "cpu" and',
            logits_meta_guard='logits.untyped_storage().device.type == "cpu" and',
        ),
        expect="GPU 上的张量照样要查",
    ),
    dict(  # torch.ones(n) is on the CPU: beside logits on a GPU, allclose raises there
        grade_id="test_diagnose",
        name="row_sums_compared_with_a_cpu_tensor_of_ones",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) "
            "and torch.allclose(logits.sum(dim=1), torch.ones(logits.shape[0]), atol=1e-3, rtol=0)"
        ),
        expect="和它一起算的新张量要跟着它的 dtype",
    ),
    dict(
        grade_id="test_diagnose",
        name="labels_looked_up_in_a_cpu_arange",
        code=_diagnose(range_check="not bool(torch.isin(labels, torch.arange(num_classes)).all())"),
        expect="Expected all tensors to be on the same device",
    ),
    dict(  # the dtypes the messages named, added one by one, instead of "not torch.long"
        grade_id="test_diagnose",
        name="label_dtype_by_a_list_of_bad_dtypes",
        code=_diagnose(dtype="labels.is_floating_point() or labels.dtype in (torch.int32, torch.uint8)"),
        expect="int16 标签",
    ),
    dict(  # one nan / inf makes the sum non-finite, but so does a sum of finite values that overflows
        grade_id="test_diagnose",
        name="nonfinite_checked_on_the_sum",
        code=_diagnose(finite_check="not bool(torch.isfinite(logits.sum()))"),
        expect="和超出了 float32",
    ),
    dict(
        grade_id="test_diagnose",
        name="probabilities_without_the_upper_bound",
        code=_diagnose(prob_check="bool((logits >= 0).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all())"),
        expect="1.0005",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- final fresh pass (issue 17, rve5)
    dict(  # the rule is for 2-D logits only: a 3-D (N, C, 1) softmax output is a shape problem, nothing more
        grade_id="test_diagnose",
        name="probability_check_on_logits_of_any_dim_from_two",
        code=_diagnose(prob_guard="logits.dim() >= 2 and logits.shape[1] >= 2"),
        expect="只对 2-D 的 logits 成立",
    ),
    dict(  # the same along the last dim: a 3-D (N, 1, C) softmax output
        grade_id="test_diagnose",
        name="probability_check_along_the_last_dim_of_any_dim_from_two",
        code=_diagnose(
            prob_guard="logits.dim() >= 2 and logits.shape[-1] >= 2",
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) "
            "and bool(((logits.sum(dim=-1) - 1).abs() <= 1e-3).all())",
        ),
        expect="只对 2-D 的 logits 成立",
    ),
    dict(  # a GPU -> CPU copy with non_blocking=True returns before the data arrives: read unsynchronised
        grade_id="test_diagnose",
        name="values_read_through_a_non_blocking_copy_to_the_host",
        code=_diagnose(
            range_check="bool(((labels.to('cpu', non_blocking=True).numpy() < 0) "
            "| (labels.to('cpu', non_blocking=True).numpy() >= num_classes)).any())"
        ),
        expect="non_blocking=True",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- fresh pass (issue 17, rwe)
    dict(  # the rules are independent: a nan in 1-D logits is still a nan
        grade_id="test_diagnose",
        name="nonfinite_checked_on_2d_logits_only",
        code=_diagnose(logits_meta_guard="not logits.is_meta and logits.dim() == 2 and"),
        expect="形状不对也要报数值上的问题",
    ),
    dict(  # a softmax output with the wrong column count is both a shape problem and probabilities
        grade_id="test_diagnose",
        name="probability_check_only_when_the_columns_match_num_classes",
        code=_diagnose(prob_guard="logits.dim() == 2 and logits.shape[1] == num_classes and num_classes >= 2"),
        expect="logits (6, 5)",
    ),
    dict(  # labels.min() / labels.max() as the checklist table says, without a numel() guard
        grade_id="test_diagnose",
        name="label_range_by_min_max_crashes_on_empty_labels",
        code=edited(
            _diagnose(range_check="labels.min().item() < 0 or labels.max().item() >= num_classes"),
            ("not labels.is_meta and labels.numel() > 0", "not labels.is_meta"),
        ),
        expect="labels (0,) 是空张量",
    ),
    dict(
        grade_id="test_diagnose",
        name="probabilities_by_min_max_crash_on_an_empty_batch",
        code=edited(
            _diagnose(
                prob_check="logits.min() >= 0 and logits.max() <= 1 "
                "and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all())"
            ),
            ("not logits.is_meta and logits.numel() > 0", "not logits.is_meta"),
        ),
        expect="logits (0, 4)",
    ),
    dict(  # the dtypes the messages name, int16 added after the last pass's message: int8 is missing still
        grade_id="test_diagnose",
        name="label_dtype_by_a_longer_list_of_bad_dtypes",
        code=_diagnose(dtype="labels.is_floating_point() or labels.dtype in (torch.int32, torch.int16, torch.uint8)"),
        expect="torch.int8 标签",
    ),
    dict(  # labels' shape first: logits.shape[0] of a 0-d logits tensor raises
        grade_id="test_diagnose",
        name="shape_checked_labels_first_crashes_on_0d_logits",
        code=_diagnose(
            shape="labels.dim() != 1 or labels.shape[0] != logits.shape[0] or logits.dim() != 2 "
            "or logits.shape[1] != num_classes"
        ),
        expect="logits 是 0-d",
    ),
    dict(  # torch.ones(n, device=...) is float32: beside float64 row sums allclose raises
        grade_id="test_diagnose",
        name="row_sums_compared_with_float32_ones",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) and torch.allclose(logits.sum(dim=1), "
            "torch.ones(logits.shape[0], device=logits.device), atol=1e-3, rtol=0)"
        ),
        expect="和它一起算的新张量要跟着它的 dtype",
    ),
    dict(  # the model comes in with the previous step's .grad: zero_grad() at the end accumulates it once
        grade_id="test_train_step",
        name="zero_grad_after_step_instead_of_before_backward",
        code=edited(
            _train_step(zero_grad="pass"),
            ("    optimizer.step()\n", "    optimizer.step()\n    optimizer.zero_grad()\n"),
        ),
        expect="step() 之后梯度又被清掉了",
        mistake="grads-cleared-after-step",
    ),
    dict(  # keeps the softmax and takes its log: equal until a probability underflows to 0
        grade_id="test_train_step",
        name="nll_loss_of_the_log_of_softmax",
        code=edited(
            _train_step(), ("F.cross_entropy(logits, y)", "F.nll_loss(torch.log(torch.softmax(logits, dim=1)), y)")
        ),
        expect="返回的 loss 是 inf",
    ),
    dict(  # the caller's eval mode restored after a step run in training mode: the spec keeps training mode
        grade_id="test_train_step",
        name="restores_the_callers_eval_mode",
        code=edited(
            _train_step(train="was = model.training\n    model.train()"),
            ("    return loss.item()", "    model.train(was)\n    return loss.item()"),
        ),
        expect="又切回了评估模式",
    ),
    dict(
        grade_id="test_train_step",
        name="train_on_the_children_only",
        code=_train_step(train="[m.train() for m in model.children()]"),
        expect="只切换了一部分子模块",
    ),
]

# Right answers written another way: each must pass (tests/test_mutants.py).
MUTANTS += [  # rxc: a look at the rwe fixes
    dict(  # the dtype loop held every non-long dtype numpy holds but bool (labels from y > 0.5)
        grade_id="test_diagnose",
        name="label_dtype_by_a_list_of_bad_dtypes_without_bool",
        code=_diagnose(
            dtype="labels.is_floating_point() or labels.dtype in (torch.int8, torch.int16, torch.int32, torch.uint8)"
        ),
        expect="torch.bool 标签（y > 0.5",
    ),
    dict(  # torch.isin has no Bool kernel: it crashes on a bool labels batch, which must get label_dtype
        grade_id="test_diagnose",
        name="labels_looked_up_in_an_arange_on_their_device_crash_on_bool_labels",
        code=_diagnose(
            range_check="not bool(torch.isin(labels, torch.arange(num_classes, device=labels.device)).all())"
        ),
        expect="Unsupported input type encountered for isin(): Bool",
    ),
]

CORRECT = [
    dict(  # on a GPU a tensor's storage is on its device
        grade_id="test_diagnose",
        name="device_of_the_storage",
        code=_diagnose(device="logits.untyped_storage().device != labels.untyped_storage().device"),
    ),
    dict(  # numpy(force=True) copies a GPU tensor to the host first
        grade_id="test_diagnose",
        name="values_through_numpy_force",
        code=_diagnose(
            range_check="not bool(((labels.numpy(force=True) >= 0) & (labels.numpy(force=True) < num_classes)).all())"
        ),
    ),
    dict(  # a CPU tensor type copies a GPU tensor to the host (gd: DoubleTensor, not LongTensor, which truncated
        grade_id="test_diagnose",  # the float label -0.5 to 0 and so missed label_range in the new hidden case)
        name="values_through_a_cpu_tensor_type",
        code=_diagnose(
            range_check="not bool(((labels.type(torch.DoubleTensor).numpy() >= 0) "
            "& (labels.type(torch.DoubleTensor).numpy() < num_classes)).all())"
        ),
    ),
    dict(  # a blocking copy into a host buffer: the buffer stays on the host (rve5)
        grade_id="test_diagnose",
        name="values_through_a_copy_into_a_host_buffer",
        code=_diagnose(
            range_check="not bool(((torch.empty(labels.shape, dtype=labels.dtype).copy_(labels).numpy() >= 0) "
            "& (torch.empty(labels.shape, dtype=labels.dtype).copy_(labels).numpy() < num_classes)).all())"
        ),
    ),
    dict(  # .to(device, dtype, non_blocking, copy) with its flags given by position (rve5)
        grade_id="test_diagnose",
        name="values_through_to_the_cpu_with_positional_flags",
        code=_diagnose(
            range_check="not bool(((labels.to(torch.device('cpu'), labels.dtype, False, True).numpy() >= 0) "
            "& (labels.to(torch.device('cpu'), labels.dtype, False, True).numpy() < num_classes)).all())"
        ),
    ),
    dict(  # rxc: a stable cross-entropy by hand; float32 rounding on far-apart logits differs by ~1e-4 relative
        grade_id="test_train_step",
        name="cross_entropy_by_hand_with_logsumexp",
        code=edited(
            _train_step(),
            ("F.cross_entropy(logits, y)", "(torch.logsumexp(logits, 1) - logits.gather(1, y[:, None])[:, 0]).mean()"),
        ),
    ),
    dict(  # the loss computed in float64: more precise than the float32 reference
        grade_id="test_train_step",
        name="cross_entropy_in_float64",
        code=_train_step(loss_input="logits.double()"),
    ),
]

MUTANTS += [  # gd: the played GPU names an ATen overload by its op (torch.ops.aten.copy_.default is a copy_)
    dict(  # a non_blocking copy into a host buffer through the foreach op: _foreach_copy_ is a move, but unsynced
        grade_id="test_diagnose",
        name="values_read_through_a_non_blocking_foreach_copy_into_a_host_buffer",
        code=_diagnose(
            range_check="bool(((lambda b: (torch._foreach_copy_([b], [labels], non_blocking=True), b)[1])"
            "(torch.empty(labels.shape, dtype=labels.dtype)).numpy() < 0).any()) "
            "or bool((labels >= num_classes).any())"
        ),
        expect="non_blocking=True",
    ),
    dict(  # the same unsynced read through the ATen overload of .to (named _to_copy.default)
        grade_id="test_diagnose",
        name="values_read_through_aten_to_copy_non_blocking",
        code=_diagnose(
            range_check="bool((torch.ops.aten._to_copy.default(labels, device='cpu', non_blocking=True).numpy() < 0)"
            ".any()) or bool((labels >= num_classes).any())"
        ),
        expect="non_blocking=True",
    ),
]

CORRECT += [  # gd
    dict(  # a blocking copy into a host buffer through the ATen overload (named copy_.default)
        grade_id="test_diagnose",
        name="values_through_aten_copy_into_a_host_buffer",
        code=_diagnose(
            range_check="not bool(((lambda b: torch.ops.aten.copy_.default(b, labels))"
            "(torch.empty(labels.shape, dtype=labels.dtype)).numpy() >= 0).all()) "
            "or bool((labels >= num_classes).any())"
        ),
    ),
    dict(  # a blocking foreach copy into a host buffer, through the ATen overload
        grade_id="test_diagnose",
        name="values_through_a_foreach_copy_into_a_host_buffer",
        code=_diagnose(
            range_check="not bool(((lambda b: (torch.ops.aten._foreach_copy_.default([b], [labels]), b)[1])"
            "(torch.empty(labels.shape, dtype=labels.dtype)).numpy() >= 0).all()) "
            "or bool((labels >= num_classes).any())"
        ),
    ),
]

MUTANTS += [  # gd: diagnose checks the values as they are; regression_step's pred and y have one shape
    dict(  # the range read on labels.long(): -0.5 truncates to 0
        grade_id="test_diagnose",
        name="label_range_checked_after_long",
        code=_diagnose(range_check="bool((labels.long() < 0).any()) or bool((labels.long() >= num_classes).any())"),
        expect="先 .long() / .int() 转成整数会把 -0.5 截成 0",
    ),
    dict(  # the values read in float32: a finite float64 1e300 becomes inf
        grade_id="test_diagnose",
        name="value_checks_on_logits_float",
        code=_diagnose(
            finite_check="not bool(torch.isfinite(logits.float()).all())",
            prob_check="bool(((logits.float() >= 0) & (logits.float() <= 1)).all()) "
            "and bool(((logits.float().sum(dim=1) - 1).abs() <= 1e-3).all())",
        ),
        expect="先 .float() 转成 float32",
    ),
    dict(  # squeeze() without dim, a loss by hand: at batch size 1 a 0-d pred broadcasts against y (1,) unseen
        grade_id="test_regression_step",
        name="squeeze_without_dim_and_a_loss_by_hand",
        code=_regression_step(pred="model(x).squeeze()", loss="((pred - y) ** 2).mean()"),
        expect="pred 的形状是 ()，y 的形状是 (1,)",
    ),
    dict(  # both squeezed: one shape, but 0-d at batch size 1
        grade_id="test_regression_step",
        name="squeezes_pred_and_y_without_dim",
        code=_regression_step(pred="model(x).squeeze()", loss="F.mse_loss(pred, y.squeeze())"),
        expect="pred 的形状是 ()，y 的形状是 ()",
    ),
]

CORRECT += [  # gd
    dict(  # row sums in float64: more precise than float32 (the case near 1e-3 is no longer on the edge)
        grade_id="test_diagnose",
        name="row_sums_in_float64",
        code=_diagnose(
            prob_check="bool(((logits >= 0) & (logits <= 1)).all()) "
            "and bool(((logits.sum(dim=1, dtype=torch.float64) - 1).abs() <= 1e-3).all())"
        ),
    ),
    dict(  # y made (N, 1) beside the (N, 1) output: one shape (section 8's other fix)
        grade_id="test_regression_step",
        name="y_unsqueezed_beside_the_n_by_1_output",
        code=_regression_step(pred="model(x)", loss="((pred - y.unsqueeze(1)) ** 2).mean()"),
    ),
]

MUTANTS += [  # s33 (hc and the stop 32 leftover): a nan label is no class; < 0 and >= num_classes are both False for it
    dict(
        grade_id="test_diagnose",
        name="label_range_as_below_zero_or_at_least_num_classes_misses_a_nan_label",
        code=_diagnose(range_check="bool((labels < 0).any()) or bool((labels >= num_classes).any())"),
        expect="这里 labels 里有 nan",
    ),
]

MUTANTS += [  # s34 (hc): after the nan fix the rule read 'a label not in 0 .. num_classes-1', and a membership test
    dict(  # (== one of arange(num_classes)) flags 1.5 too; no case had an in-range fraction, so both readings passed
        grade_id="test_diagnose",
        name="label_range_as_membership_in_arange_flags_an_in_range_fraction",
        code=_diagnose(
            range_check="not bool((labels.reshape(-1, 1) == torch.arange(num_classes, device=labels.device))"
            ".any(dim=1).all())"
        ),
        expect="label_range 只比较大小",
    ),
]


MUTANTS += [  # s35 review (h4): each passed every test
    dict(
        grade_id="test_diagnose",
        name="torch.allclose(row_sums, 1, atol=1e-3): its default rtol widens the tolerance to 1.01e-3",
        expect="刚超过容差 1e-3",
        code=(
            "def diagnose(logits, labels, num_classes):\n"
            "    problems = set()\n"
            "    if logits.device != labels.device:\n"
            '        problems.add("device_mismatch")\n'
            "    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:\n"
            '        problems.add("shape_mismatch")\n'
            "    if labels.dtype != torch.long:\n"
            '        problems.add("label_dtype")\n'
            "    if not labels.is_meta and labels.numel() > 0:\n"
            "        if not bool(((labels >= 0) & (labels < num_classes)).all()):\n"
            '            problems.add("label_range")\n'
            "    if not logits.is_meta and logits.numel() > 0:\n"
            "        if not bool(torch.isfinite(logits).all()):\n"
            '            problems.add("nonfinite")\n'
            "        elif logits.dim() == 2 and logits.shape[1] >= 2:\n"
            "            row_sums = logits.sum(dim=1)\n"
            "            if bool(((logits >= 0) & (logits <= 1)).all()) and torch.allclose(row_sums, torch.ones_like(row_sums), atol=1e-3):\n"
            '                problems.add("probabilities_not_logits")\n'
            "    return problems\n"
        ),
    ),
    dict(
        grade_id="test_regression_step",
        name="y.unsqueeze_(1) to match the output: the caller's y changes shape",
        expect="原地改了调用者的 y（形状 (3,) -> (3, 1)）",
        code=(
            "def regression_step(model, x, y, optimizer):\n"
            "    optimizer.zero_grad()\n"
            "    pred = model(x)\n"
            "    y.unsqueeze_(1)\n"
            "    loss = ((pred - y) ** 2).mean()\n"
            "    if not torch.isfinite(loss):\n"
            '        return {"loss": loss.item(), "grad_norm": None, "skipped": True}\n'
            "    loss.backward()\n"
            "    norm = grad_norm(model)\n"
            "    optimizer.step()\n"
            '    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}\n'
        ),
    ),
]


MUTANTS += [  # s36: a call that leaves a process-wide setting changed (course.settings watches every call)
    dict(
        grade_id="test_diagnose",
        name="sets numpy.seterr() inside diagnose and leaves it so",
        mistake="global-setting-changed",
        expect="numpy.seterr()",
        code="import numpy as np\n\n"
        + solution_with(
            "09_debugging",
            "diagnose",
            ("    problems = set()", '    np.seterr(all="ignore")  # no NumPy warnings on nan\n    problems = set()'),
        ),
    ),
]


MUTANTS += [  # s36 review (c2): an environment variable set for debugging stays set for the whole process
    dict(
        grade_id="test_train_step",
        name="os.environ['CUDA_LAUNCH_BLOCKING'] = '1' in train_step, for debugging",
        mistake="global-setting-changed",
        expect="os.environ（变了的变量：CUDA_LAUNCH_BLOCKING）",
        code="import os\n\n"
        + solution_with(
            "09_debugging",
            "train_step",
            (
                "    model.train()\n",
                '    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"  # errors at the right line\n    model.train()\n',
            ),
        ),
    ),
]


MUTANTS += [  # fix37 (d3): each passed every test
    dict(  # NumPy cannot read a tensor that carries a graph: the most common input, a model's output
        grade_id="test_diagnose",
        name="values read through .cpu().numpy(): fails on logits that require grad",
        expect="requires_grad=True（带着计算图）",
        code="""import numpy as np


def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        lb = labels.cpu().numpy()
        if not np.all((lb >= 0) & (lb < num_classes)):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        lg = logits.cpu().numpy()
        if not np.isfinite(lg).all():
            problems.add("nonfinite")
        elif lg.ndim == 2 and lg.shape[1] >= 2:
            if np.all((lg >= 0) & (lg <= 1)) and np.all(np.abs(lg.sum(axis=1) - 1) <= 1e-3):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
    dict(  # p.grad.zero_() by hand: a fresh model's .grad is None
        grade_id="test_train_step",
        name="p.grad.zero_() by hand: raises on a fresh model",
        expect="每个参数的 .grad 都是 None",
        code=_train_step(zero_grad="for p in model.parameters():\n        p.grad.zero_()"),
    ),
    dict(  # unfreezes what the caller froze
        grade_id="test_train_step",
        name="model.requires_grad_(True) unfreezes the caller's frozen parameters",
        expect="调用之后它的 requires_grad 变成了 True",
        code=_train_step(zero_grad="model.requires_grad_(True)\n    optimizer.zero_grad()"),
    ),
    dict(  # a no_grad forward to look at the loss, then the real one: BatchNorm counts two batches
        grade_id="test_regression_step",
        name="a no_grad forward to check the loss, then a second forward",
        expect="model(x) 被调用了 2 次",
        code="""def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    with torch.no_grad():
        check = F.mse_loss(model(x).squeeze(1), y)
    if not torch.isfinite(check):
        return {"loss": check.item(), "grad_norm": None, "skipped": True}
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": check.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(  # step() on the skipped step: a no-op only because zero_grad() set every .grad to None
        grade_id="test_regression_step",
        name="optimizer.step() also on the skipped step",
        expect="这一步却调用了 optimizer.step()",
        code="""def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    skipped = not torch.isfinite(loss)
    norm = None
    if not skipped:
        loss.backward()
        norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": skipped}
""",
    ),
    dict(  # guards the inputs, not the loss: 1e30 is finite, its square is not (no isnan anywhere)
        grade_id="test_regression_step",
        name="isfinite guard on the inputs x and y, not on the loss",
        expect="要检查的是 loss 本身",
        code="""def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    bad = not (torch.isfinite(x).all() and torch.isfinite(y).all())
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if bad:
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(  # the loss in float64: 1e60 is finite there, so the overflowing batch is trained on
        grade_id="test_regression_step",
        name="loss computed in float64: the float32 overflow is not seen",
        expect="loss 不是在模型输出的 dtype（float32）里算的",
        code=_regression_step(loss="F.mse_loss(pred.double(), y.double())"),
    ),
]

CORRECT += [  # fix37
    dict(  # isnan beside isinf: both kinds caught (naming isnan in a failure needs the inf let through)
        grade_id="test_regression_step",
        name="isinf or isnan guard",
        code=_regression_step(
            guard="""if torch.isinf(loss) or torch.isnan(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}"""
        ),
    ),
]

MUTANTS += [  # fix37 ruled zero_grad(set_to_none=False) right (a fresh model's None grads stay None). Stop 53 rules it
    # wrong (s53 b cand26): parameters frozen after training keep zeroed, not None, grads, and the optimizer's momentum
    # from before the freeze moves them at every step; the frozen case now has that momentum
    dict(
        grade_id="test_train_step",
        name="zero_grad(set_to_none=False)",
        expect="是全 0 的张量，不是 None",
        code=_train_step(zero_grad="optimizer.zero_grad(set_to_none=False)"),
    ),
]

MUTANTS += [  # fix38 (fd2): passed every test
    dict(  # a finite loss (~2.25e38) whose gradient's squares overflow float32: the spec skips on the loss only
        grade_id="test_regression_step",
        name="also skips a step whose gradient norm is not finite",
        expect="却跳过了（skipped=True）",
        code=_regression_step(
            late_norm="norm = grad_norm(model)\n"
            "    if not math.isfinite(norm):\n"
            "        optimizer.zero_grad()\n"
            '        return {"loss": loss.item(), "grad_norm": None, "skipped": True}',
        ),
    ),
]

CORRECT += [  # fix38 (fd2): the norm taken in float64 is finite where grad_norm's float32 squares overflow
    dict(
        grade_id="test_regression_step",
        name="grad_norm computed in float64",
        code=_regression_step(
            late_norm="norm = torch.cat([p.grad.reshape(-1).double() for p in model.parameters()]).norm().item()"
        ),
    ),
]
CORRECT += [  # fix38 (fd2): checklist item 1 in train_step (the spec asks for no skip, and forbids none)
    dict(
        grade_id="test_train_step",
        name="isfinite guard before backward() that returns the loss without a step",
        code=edited(
            _train_step(),
            (
                "    loss.backward()\n",
                "    if not torch.isfinite(loss):\n        return loss.item()\n    loss.backward()\n",
            ),
        ),
    ),
]


# s38 (d5), fd3
MUTANTS += [
    dict(  # d5 cand04: the top flag True says nothing of a BatchNorm child left in eval mode
        grade_id="test_train_step",
        name="model.train() only when not model.training (a BatchNorm child in eval mode stays so)",
        expect="却在评估模式 (training=False)，train_step 之后它仍是评估模式",
        code=_train_step(train="if not model.training:\n        model.train()"),
    ),
]


MUTANTS += [  # s39 (d7): the None-grad hint now says what the zero-filled probe proves, not 'nothing to zero in place'
    dict(
        grade_id="test_train_step",
        name="checks_stale_grads_before_the_step",
        expect="代码在 .grad 还是 None 时用到了它",
        code=(
            "def train_step(model, x, y, optimizer):\n"
            "    # 清单第 1 条：先确认上一步留下的梯度是有限值，再开始这一步\n"
            "    if not all(bool(torch.isfinite(p.grad).all()) for p in model.parameters() if p.requires_grad):\n"
            '        raise RuntimeError("上一步的梯度里有 nan / inf")\n'
            "    model.train()\n"
            "    optimizer.zero_grad()\n"
            "    logits = model(x)\n"
            "    loss = F.cross_entropy(logits, y)\n"
            "    loss.backward()\n"
            "    optimizer.step()\n"
            "    return loss.item()\n"
        ),
    ),
]


MUTANTS += [  # s39: model.forward(x) skips __call__ and the model's hooks (counted, as 07) (d8)
    dict(
        grade_id="test_train_step",
        name="calls_model_forward_directly",
        expect="一次也没有通过 model(x) 调用",
        code=(
            "def train_step(model, x, y, optimizer):\n"
            "    model.train()\n"
            "    optimizer.zero_grad()\n"
            "    logits = model.forward(x)          # skips __call__: every forward hook / pre-hook on the model is bypassed\n"
            "    loss = F.cross_entropy(logits, y)\n"
            "    loss.backward()\n"
            "    optimizer.step()\n"
            "    return loss.item()\n"
        ),
    ),
]


MUTANTS += [  # s39: model.forward(x) skips __call__ and the model's hooks (counted, as 07) (d8)
    dict(
        grade_id="test_regression_step",
        name="calls_model_forward_directly",
        expect="一次也没有通过 model(x) 调用",
        code=(
            "def regression_step(model, x, y, optimizer):\n"
            "    optimizer.zero_grad()\n"
            "    pred = model.forward(x).squeeze(1)   # skips __call__ (hooks)\n"
            "    loss = F.mse_loss(pred, y)\n"
            "    if not torch.isfinite(loss):\n"
            '        return {"loss": loss.item(), "grad_norm": None, "skipped": True}\n'
            "    loss.backward()\n"
            "    norm = grad_norm(model)\n"
            "    optimizer.step()\n"
            '    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}\n'
        ),
    ),
]

MUTANTS += [  # fix40 (fh2): a frozen parameter that still holds a gradient from before it was frozen (d10 cand02)
    dict(
        grade_id="test_train_step",
        name="clears .grad only of the parameters with requires_grad",
        expect="调用前 body.0.weight.grad 里留着冻结之前的梯度",
        code=_train_step(
            zero_grad="for p in model.parameters():\n        if p.requires_grad:\n            p.grad = None"
        ),
    ),
]


MUTANTS += [  # s42 review (e4): the caller's batch written in place (its values were never compared after the step)
    dict(
        grade_id="test_train_step",
        name="repairs_the_batch_in_place_with_nan_to_num_and_clamp_",
        mistake="modifies-input",
        expect="被原地写过",
        code=_train_step(
            train="x.nan_to_num_(0.0, 0.0, 0.0)\n    y.clamp_(0, model.head.out_features - 1)\n    model.train()"
        ),
    ),
    dict(
        grade_id="test_train_step",
        name="zeroes_the_callers_batch_after_the_step",
        mistake="modifies-input",
        expect="值变了",
        code=_train_step(late_zero_grad="x.zero_()\n    y.zero_()"),
    ),
]


MUTANTS += [  # s42 review (e4 cand09): a non-contiguous view was told to check the shape first (the hint of IndexError)
    dict(
        grade_id="test_diagnose",
        name="logits.view(-1) for the value checks (raises on a non-contiguous logits)",
        expect="view size is not compatible",
        code='def diagnose(logits, labels, num_classes):\n    problems = set()\n    if logits.device != labels.device:\n        problems.add("device_mismatch")\n    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:\n        problems.add("shape_mismatch")\n    if labels.dtype != torch.long:\n        problems.add("label_dtype")\n    if not labels.is_meta and labels.numel() > 0:\n        if not bool(((labels >= 0) & (labels < num_classes)).all()):\n            problems.add("label_range")\n    if not logits.is_meta and logits.numel() > 0:\n        flat = logits.view(-1)\n        if not bool(torch.isfinite(flat).all()):\n            problems.add("nonfinite")\n        elif logits.dim() == 2 and logits.shape[1] >= 2:\n            if bool(((flat >= 0) & (flat <= 1)).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):\n                problems.add("probabilities_not_logits")\n    return problems\n',
    ),
]


MUTANTS += [  # s42 review (e4 cand08): the caller's logits detached in place
    dict(
        grade_id="test_diagnose",
        name="logits.detach_() (meant detach()): cuts the caller's logits from its graph, raises on a view",
        expect="detach",
        code='def diagnose(logits, labels, num_classes):\n    logits = logits.detach_()          # meant: logits.detach()\n    problems = set()\n    if logits.device != labels.device:\n        problems.add("device_mismatch")\n    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:\n        problems.add("shape_mismatch")\n    if labels.dtype != torch.long:\n        problems.add("label_dtype")\n    if not labels.is_meta and labels.numel() > 0:\n        if not bool(((labels >= 0) & (labels < num_classes)).all()):\n            problems.add("label_range")\n    if not logits.is_meta and logits.numel() > 0:\n        if not bool(torch.isfinite(logits).all()):\n            problems.add("nonfinite")\n        elif logits.dim() == 2 and logits.shape[1] >= 2:\n            if bool(((logits >= 0) & (logits <= 1)).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):\n                problems.add("probabilities_not_logits")\n    return problems\n\n',
    ),
]


MUTANTS += [  # f4 second pass (cand02-04): writes and hooks the kernel did not see (closures over Case(()))
    dict(
        grade_id="test_diagnose",
        name="nan_to_num_ on the caller's logits, values put back with copy_ (the version counter moved)",
        mistake="modifies-input",
        expect="被原地写过",  # "diagnose 修改了输入 logits：返回时数值没变，可它在调用中被原地写过"
        code=(
            "_orig_diagnose = diagnose\n"
            "def diagnose(logits, labels, num_classes):\n"
            "    if logits.is_meta or logits.numel() == 0 or not logits.is_floating_point():\n"
            "        return _orig_diagnose(logits, labels, num_classes)\n"
            "    with torch.no_grad():\n"
            "        saved = logits.detach().clone()\n"
            "        logits.nan_to_num_(nan=0.0)\n"
            "        out = _orig_diagnose(saved, labels, num_classes)\n"
            "        logits.copy_(saved)\n"
            "    return out\n"
        ),
    ),
    dict(
        grade_id="test_train_step",
        name="a debugging forward hook registered on the caller's model every call, never removed",
        mistake="hook-left-on-module",
        expect="forward hook",
        code=(
            "def _check_logits(module, inputs, output):\n"
            "    assert output.dim() == 2, output.shape\n"
            "def train_step(model, x, y, optimizer):\n"
            "    model.register_forward_hook(_check_logits)\n"
            "    model.train()\n"
            "    optimizer.zero_grad()\n"
            "    loss = F.cross_entropy(model(x), y)\n"
            "    loss.backward()\n"
            "    optimizer.step()\n"
            "    return loss.item()\n"
        ),
    ),
    dict(
        grade_id="test_regression_step",
        name="a gradient hook on every parameter each call, never removed",
        mistake="hook-left-on-module",
        expect="梯度 hook",
        code=(
            "_seen = []\n"
            "def regression_step(model, x, y, optimizer):\n"
            "    for p in model.parameters():\n"
            "        if p.requires_grad:\n"
            "            p.register_hook(lambda g: _seen.append(1) or g)\n"
            "    optimizer.zero_grad()\n"
            "    pred = model(x).squeeze(1)\n"
            "    loss = F.mse_loss(pred, y)\n"
            "    if not torch.isfinite(loss):\n"
            '        return {"loss": loss.item(), "grad_norm": None, "skipped": True}\n'
            "    loss.backward()\n"
            "    norm = grad_norm(model)\n"
            "    optimizer.step()\n"
            '    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}\n'
        ),
    ),
]

MUTANTS += [  # issue-17 third pass (h4 cand01): no row of the tested logits had negatives summing to 1
    dict(
        grade_id="test_diagnose",
        name="probabilities told by <= 1 and row sums alone (no lower bound): negative logits read as softmax output",
        expect="每行和为 1、都不大于 1，却有负数",
        code=_diagnose(prob_check="bool((logits <= 1).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all())"),
    ),
]


MUTANTS += [  # j5 (stop 45): each row test applied to one row, or to the mean of the rows
    dict(
        grade_id="test_diagnose",
        name="probabilities: row sums of the last row only",
        expect="误报 (false positive) 'probabilities_not_logits'",
        code="""\
# diagnose: row sums checked on the LAST row only ("one row is enough to tell"); [0,1] on every element
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            if in_unit and abs(float(logits[-1].sum()) - 1) <= 1e-3:
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
    dict(
        grade_id="test_diagnose",
        name="probabilities: the [0, 1] test on the first row only",
        expect="误报 (false positive) 'probabilities_not_logits'",
        code="""\
# diagnose: [0,1] range checked on the FIRST row only; row sums on every row
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits[0] >= 0) & (logits[0] <= 1)).all())
            if in_unit and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
    dict(
        grade_id="test_diagnose",
        name="probabilities: the mean distance of the row sums from 1",
        expect="误报 (false positive) 'probabilities_not_logits'",
        code="""\
# diagnose: row sums judged by their MEAN absolute deviation from 1 (<= 1e-3), not by every row
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            if in_unit and float((logits.sum(dim=1) - 1).abs().mean()) <= 1e-3:
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
]


MUTANTS += [  # stop 46 (j5 cand03, cand05; h4 cand07, cand09, cand13)
    dict(
        grade_id="test_train_step",
        name="model.train(), then every Dropout switched back to eval",
        expect="却在评估模式",
        code="""\
def train_step(model, x, y, optimizer):
    model.train()
    for m in model.modules():
        if isinstance(m, nn.modules.dropout._DropoutNd):
            m.eval()  # deterministic loss while debugging
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="an extra eval-mode no_grad forward decides the skip",
        expect="model(x) 被调用了 2 次",
        code="""\
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.no_grad():
            peek = F.mse_loss(model(x).squeeze(1), y)
    finally:
        for m, t in modes:
            m.training = t
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(peek):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(
        grade_id="test_train_step",
        name="the loss through torch.nan_to_num before backward and .item()",
        expect="原样返回 loss.item()（nan），得到 0.0",
        code="""\
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    loss = torch.nan_to_num(F.cross_entropy(model(x), y), nan=0.0, posinf=0.0, neginf=0.0)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast when the batch is on a GPU",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""\
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16, enabled=x.is_cuda):
        loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="float16 autocast around forward and loss when x is on a GPU",
        expect='torch.autocast("cuda", dtype=torch.float16)',
        code="""\
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    with torch.autocast(device_type=x.device.type, dtype=torch.float16, enabled=x.is_cuda):
        pred = model(x).squeeze(1)
        loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]

MUTANTS += [  # stop 47 (lead's review): a second forward through model.forward(x) was not counted
    dict(
        grade_id="test_train_step",
        name="a logging forward through model.forward(x) in eval mode after the step",
        expect="其中 1 次是直接调用 model.forward(x)",
        code=solution_with(
            "09_debugging",
            "train_step",
            (
                "    return loss.item()",
                "    model.eval()\n    with torch.no_grad():\n        model.forward(x)\n    model.train()\n    return loss.item()",
            ),
        ),
    ),
]

MUTANTS += [  # stop 48 review (n1, n3, n4): each passed every test
    dict(
        grade_id="test_train_step",
        name="on a GPU: model.half() and a float16 batch, no autocast",
        expect="的计算图里出现了 float16",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    if x.is_cuda:
        model.half()
        x = x.half()
    logits = model(x)
    loss = F.cross_entropy(logits.float(), y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="on a GPU: the model and the batch in bfloat16, no autocast",
        expect="的计算图里出现了 bfloat16",
        code="""
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    if x.is_cuda:
        model.to(torch.bfloat16)
        x = x.to(torch.bfloat16)
    pred = model(x).squeeze(1).float()
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]

MUTANTS += [  # stop 48 review (n3, n4): each passed every test
    dict(
        grade_id="test_train_step",
        name="the solution inside torch.random.fork_rng(): one Dropout mask every step",
        expect="丢弃了完全相同的元素",
        code=solution_wrapped(
            "09_debugging",
            "train_step",
            "train_step",
            """
def train_step(model, x, y, optimizer):
    with torch.random.fork_rng():
        return _train_step_solution(model, x, y, optimizer)
""",
        ),
    ),
    dict(
        grade_id="test_train_step",
        name="every Dropout in eval for the forward, back in train after",
        expect="Dropout 处在评估模式",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    drops = [m for m in model.modules() if isinstance(m, nn.Dropout)]
    for m in drops:
        m.eval()
    logits = model(x)
    for m in drops:
        m.train()
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_train_step",
        name="on a GPU: the loss tensor returned instead of loss.item()",
        expect="在 GPU 上返回",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    if x.is_cuda:
        return loss.detach()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="the non-finite check only where x is not on a GPU",
        expect="在 GPU 上返回",
        code="""
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not x.is_cuda and not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(
        grade_id="test_diagnose",
        name="label checks skipped when either tensor is on meta",
        expect="漏掉了 'label_range'",
        code="""
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not (logits.is_meta or labels.is_meta) and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            if in_unit and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
    dict(
        grade_id="test_diagnose",
        name="value checks skipped when either tensor is empty",
        expect="漏掉了 'nonfinite'",
        code="""
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if logits.numel() == 0 or labels.numel() == 0:
        return problems
    if not labels.is_meta:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            if in_unit and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
]

MUTANTS += [  # stop 48 review (n3 cand02, cand15): no regression model had a Dropout
    dict(
        grade_id="test_regression_step",
        name="the solution inside torch.random.fork_rng(): one Dropout mask every regression step",
        expect="丢弃了完全相同的元素",
        code=solution_wrapped(
            "09_debugging",
            "regression_step",
            "regression_step",
            """
def regression_step(model, x, y, optimizer):
    with torch.random.fork_rng():
        return _regression_step_solution(model, x, y, optimizer)
""",
        ),
    ),
    dict(
        grade_id="test_regression_step",
        name="every Dropout in eval for the forward, back in train after",
        expect="Dropout 处在评估模式",
        code="""
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    drops = [m for m in model.modules() if isinstance(m, nn.Dropout)]
    for m in drops:
        m.eval()
    pred = model(x).squeeze(1)
    for m in drops:
        m.train()
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]

MUTANTS += [  # stop 48 second review (p2): paths only a GPU takes, checked from a fresh model or a nan batch only
    dict(
        grade_id="test_train_step",
        name="on a GPU: zero_grad after step(), so stale gradients join the first step",
        expect="在 GPU 上和在 CPU 上不同",
        code="""
def train_step(model: Net, x: torch.Tensor, y: torch.Tensor, optimizer) -> float:
    model.train()
    if x.is_cuda:
        # on a GPU free the gradients as soon as the step is done (set_to_none): the memory is back for the next forward
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return loss.item()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="on a GPU: zero_grad after step(), so stale gradients join the first step",
        expect="在 GPU 上返回",
        code="""
def regression_step(model: nn.Module, x: torch.Tensor, y: torch.Tensor, optimizer) -> dict:
    if x.is_cuda:
        # on a GPU: free the gradients right after the step (set_to_none), the memory is back for the next forward
        pred = model(x).squeeze(1)
        loss = F.mse_loss(pred, y)
        if not torch.isfinite(loss):
            return {"loss": loss.item(), "grad_norm": None, "skipped": True}
        loss.backward()
        norm = grad_norm(model)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="on a GPU: isnan(loss) instead of isfinite, an inf loss stepped",
        expect="在 GPU 上返回",
        code='''
def regression_step(model: nn.Module, x: torch.Tensor, y: torch.Tensor, optimizer) -> dict:
    """The solution; on a GPU the bad-batch test is torch.isnan(loss) ("a broken batch gives nan")."""
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    bad = torch.isnan(loss) if x.is_cuda else ~torch.isfinite(loss)
    if bad:
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
''',
    ),
    dict(
        grade_id="test_diagnose",
        name="on a GPU: only labels.max() >= C, negative labels pass",
        expect="漏掉了 'label_range'",
        code='''
def diagnose(logits: torch.Tensor, labels: torch.Tensor, num_classes: int) -> set:
    """The solution; on a GPU the label range is one reduction: labels.max() >= num_classes (one sync, not two)."""
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if labels.is_cuda:
            if bool(labels.max() >= num_classes):
                problems.add("label_range")
        elif not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            row_sums = logits.sum(dim=1)
            if in_unit and bool(((row_sums - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
''',
    ),
]

MUTANTS += [  # stop 50 review (r2): code that only a GPU runs
    dict(
        grade_id="test_train_step",
        name="only on a GPU (if x.is_cuda) zero_grad(set_to_none=True) after step(): .grad is None there",
        expect="的 .grad 在 GPU 上是 (NoneType)",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    if x.is_cuda:  # GPU 上显存紧张：step() 之后梯度就没用了，马上释放
        optimizer.zero_grad(set_to_none=True)
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="only on a GPU a bad batch still runs backward(), masked_fill_ of the grads and step(): momentum moves it",
        expect="第 2 步的 x 里有一个 nan（SGD momentum=0.9，第 2 步）",
        code="""
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if x.is_cuda:
        # GPU 上不在步中间为 if 停下来等：坏 batch 的梯度在设备上清零，step() 照常排进队列，最后才一次取回
        finite = torch.isfinite(loss)
        loss.backward()
        for p in model.parameters():
            if p.grad is not None:
                p.grad.masked_fill_(~finite, 0.0)
        optimizer.step()
        if not finite.item():
            return {"loss": loss.item(), "grad_norm": None, "skipped": True}
        return {"loss": loss.item(), "grad_norm": grad_norm(model), "skipped": False}
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]

MUTANTS += [  # stop 51 (reviewers c, d): code that only a GPU runs; every hidden test now runs again with each call on a played GPU
    dict(
        grade_id="test_train_step",
        name="GPU-only: an extra warm-up forward and backward (BatchNorm stats updated twice)",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
_warmed_up = []  # the models themselves (kept alive): an id() of a dead model may come back for a new one


def train_step(model: Net, x: torch.Tensor, y: torch.Tensor, optimizer) -> float:
    model.train()
    if x.is_cuda and not any(m is model for m in _warmed_up):  # first step on the GPU: one warm-up pass
        F.cross_entropy(model(x), y).backward()
        _warmed_up.append(model)
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
]

MUTANTS += [  # stop 52: GPU-only branches in checks that hand the learner's function to a scenario (reviewer c, d of stop 51)
    dict(
        grade_id="test_regression_step",
        name="GPU-only warm-up forward before the step's forward",
        expect="model(x) 被调用了 2 次",
        code="""
_warmed_up = []  # the models themselves (kept alive): an id() of a dead model may come back for a new one


def regression_step(model: nn.Module, x: torch.Tensor, y: torch.Tensor, optimizer) -> dict:
    if x.is_cuda and not any(m is model for m in _warmed_up):  # first step on the GPU: one warm-up forward
        with torch.no_grad():
            model(x)
        _warmed_up.append(model)
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]

MUTANTS += [  # stop 54 reviewer f: 09's steps are now checked for graphs kept after they return, as 08's are (fixtures.check_graph_not_kept)
    dict(
        grade_id="test_train_step",
        name="loss_history.append(loss): every step's graph kept in a module-level list",
        expect="这一步的 loss 还连着计算图被留着",
        code="""
loss_history = []  # every step's loss, for the loss curve


def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    loss_history.append(loss)  # the tensor, not loss.item(): it keeps this step's graph alive
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="loss_history.append(loss) before the finiteness check: graphs kept, skipped steps' whole forward too",
        expect="这一步的 loss 还连着计算图被留着",
        code="""
loss_history = []  # every step's loss, for the loss curve


def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    loss_history.append(loss)  # the tensor, not loss.item(): it keeps this step's graph alive
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]

MUTANTS += [  # stop 55 reviewer b: no fractional label sat between num_classes - 1 and num_classes
    dict(
        grade_id="test_diagnose",
        name="the label upper bound written the integer way, labels.max() > num_classes - 1: a float 3.5 with 4 classes is flagged",
        expect="误报 (false positive) 'label_range'",
        code="""
import torch


def diagnose(logits: torch.Tensor, labels: torch.Tensor, num_classes: int) -> set:
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if (logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1
            or labels.shape[0] != logits.shape[0]):
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if labels.is_floating_point() and bool(torch.isnan(labels).any()):
            problems.add("label_range")
        elif bool(labels.min() < 0) or bool(labels.max() > num_classes - 1):  # 合法标签是 0 .. num_classes-1
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            row_sums = logits.sum(dim=1)
            if in_unit and bool(((row_sums - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_diagnose",
        name="labels.shape[0] read before labels.dim() is checked (0-d labels)",
        expect="labels.dim() == 1",
        code="""
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if (
        logits.dim() != 2
        or logits.shape[1] != num_classes
        or labels.shape[0] != logits.shape[0]
        or labels.dim() != 1
    ):
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            row_sums = logits.sum(dim=1)
            if in_unit and bool(((row_sums - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
]

MUTANTS += [  # stop 57 reviewer r (round 3): non-contiguous labels
    dict(
        grade_id="test_diagnose",
        name="label_range_on_labels_view",
        expect="labels 是非连续的",
        code="""
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        flat = labels.view(-1)  # 任意形状的标签都摊平成一维再查
        if not bool(((flat >= 0) & (flat < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            if in_unit and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
]

MUTANTS += [  # stop 58 round 5 (d): integer one-hot rows passed as logits
    dict(
        grade_id="test_diagnose",
        name="numeric_checks_only_for_floating_point_logits",
        expect="整数的 one-hot 当成了 logits",
        code="""
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    # only floating-point logits can hold nan / inf or softmax outputs
    if not logits.is_meta and logits.numel() > 0 and logits.is_floating_point():
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            if bool(((logits >= 0) & (logits <= 1)).all()) and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 d: c07): the children switched to train, the model itself after the step
    dict(
        grade_id="test_train_step",
        name="children_train_before_the_forward_model_train_after_the_step",
        mistake="missing-model-train",
        expect="前向时模型自己 (model.training) 在评估模式",
        code="""
def train_step(model, x, y, optimizer):
    for part in model.children():  # body and head (with its BatchNorm) into training mode
        part.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    model.train()  # leave the model in training mode, as the spec asks
    return loss.item()
""",
    ),
]


MUTANTS += [  # round 8 d c11, c14, c15, c17, c18: autocast behind a machine flag asked once (tuple, default argument, string, lru_cache, a memo the first call fills)
    dict(
        grade_id="test_regression_step",
        name="float16 autocast enabled by a tuple-assigned GPU flag",
        expect='torch.autocast("cuda", dtype=torch.float16)',
        code="""
HAS_GPU, AMP_DTYPE = torch.cuda.is_available(), torch.float16  # mixed precision where there is a GPU


def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=AMP_DTYPE, enabled=HAS_GPU):
        pred = model(x).squeeze(1)
        loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast enabled by a default argument amp=USE_AMP",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""
USE_AMP = torch.cuda.is_available()


def train_step(model, x, y, optimizer, amp=USE_AMP):
    model.train()
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast when PRECISION == 'bf16'",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""
PRECISION = "bf16" if torch.cuda.is_available() else "fp32"


def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=PRECISION == "bf16"):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="float16 autocast enabled by an lru_cache'd GPU query",
        expect='torch.autocast("cuda", dtype=torch.float16)',
        code="""
import functools


@functools.lru_cache(maxsize=None)
def _amp_enabled() -> bool:
    return torch.cuda.is_available()  # asked once: the machine does not change


def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.float16, enabled=_amp_enabled()):
        pred = model(x).squeeze(1)
        loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast enabled by a global memo the first call fills in",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""
_AMP = None


def train_step(model, x, y, optimizer):
    global _AMP
    if _AMP is None:  # decided on the first call
        _AMP = torch.cuda.is_available() and torch.cuda.is_bf16_supported()
    model.train()
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=_AMP):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
]


CORRECT += [  # round 8 d c48, c49: a step counter or the detached loss kept on the caller's optimizer (the judge lost the momentum state in the copy-back) (right answers)
    dict(
        grade_id="test_train_step",
        name="the detached loss kept on the optimizer for a progress bar",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    optimizer.last_loss = loss.detach()  # the loss of the latest step, detached, for the progress bar
    return loss.item()
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a step counter kept on the optimizer",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    optimizer.steps_done = getattr(optimizer, "steps_done", 0) + 1  # a step counter for the progress bar
    return loss.item()
""",
    ),
]


MUTANTS += [  # round 8 d c43, c34: model.train() only the first time a model is seen; the step function picked once by the GPU query
    dict(
        grade_id="test_train_step",
        name="model.train() only the first time a model is seen",
        expect="不要只在第一次调用",
        mistake="missing-model-train",
        code="""
import weakref

_switched = weakref.WeakSet()  # models already put in training mode


def train_step(model, x, y, optimizer):
    if model not in _switched:  # switch once per model
        model.train()
        _switched.add(model)
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="regression_step = the float16 autocast version if torch.cuda.is_available()",
        expect='torch.autocast("cuda", dtype=torch.float16)',
        code="""
def _regression_step_fp32(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}


def _regression_step_amp(model, x, y, optimizer):
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.float16):
        pred = model(x).squeeze(1)
        loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}


regression_step = _regression_step_amp if torch.cuda.is_available() else _regression_step_fp32
""",
    ),
]


MUTANTS += [  # round 8 d c04, c19, c30: messages that named a cause the answer did not have (a second forward in eval told 'only the children train'; modes put back after the step told 'ran in eval'; an isinf-only guard told '=='
    dict(
        grade_id="test_train_step",
        name="a logging forward in eval after the step",
        expect="model(x) 被调用了 2 次",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    model.eval()  # log the loss after the step, in evaluation mode
    with torch.no_grad():
        after = F.cross_entropy(model(x), y)
    model.train()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_train_step",
        name="each module's mode put back after the step",
        expect="是之后又被切回了评估模式",
        code="""
def train_step(model, x, y, optimizer):
    modes = [(m, m.training) for m in model.modules()]  # leave every module as the caller had it
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    for m, mode in modes:
        m.training = mode
    model.training = True  # the model itself stays in training mode
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="an isinf-only guard: the nan batch is stepped",
        expect="torch.isinf 不认它",
        code="""
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if torch.isinf(loss):  # an exploding batch
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]


MUTANTS += [  # round 8 d c03: a wider row-sum tolerance for half-precision logits (the spec's 1e-3 holds for every dtype)
    dict(
        grade_id="test_diagnose",
        name="row sums within 1e-2 for float16 / bfloat16 logits",
        expect="float16 的 logits",
        code="""
def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            # half-precision softmax outputs do not sum to 1 within 1e-3: allow their rounding
            tol = 1e-2 if logits.dtype in (torch.float16, torch.bfloat16) else 1e-3
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            if in_unit and bool(((logits.sum(dim=1) - 1).abs() <= tol).all()):
                problems.add("probabilities_not_logits")
    return problems
""",
    ),
]


MUTANTS += [  # round 8 d c41: the caller's logits, with their graph, kept in a module-level list of bad batches
    dict(
        grade_id="test_diagnose",
        name="bad_batches.append((logits, labels, problems)) for inspection",
        expect="调用者丢掉 logits 之后它还活着",
        code="""
bad_batches = []  # the batches that had a problem, kept for inspection afterwards


def diagnose(logits, labels, num_classes):
    problems = set()
    if logits.device != labels.device:
        problems.add("device_mismatch")
    if logits.dim() != 2 or logits.shape[1] != num_classes or labels.dim() != 1 or labels.shape[0] != logits.shape[0]:
        problems.add("shape_mismatch")
    if labels.dtype != torch.long:
        problems.add("label_dtype")
    if not labels.is_meta and labels.numel() > 0:
        if not bool(((labels >= 0) & (labels < num_classes)).all()):
            problems.add("label_range")
    if not logits.is_meta and logits.numel() > 0:
        if not bool(torch.isfinite(logits).all()):
            problems.add("nonfinite")
        elif logits.dim() == 2 and logits.shape[1] >= 2:
            in_unit = bool(((logits >= 0) & (logits <= 1)).all())
            if in_unit and bool(((logits.sum(dim=1) - 1).abs() <= 1e-3).all()):
                problems.add("probabilities_not_logits")
    if problems:
        bad_batches.append((logits, labels, sorted(problems)))
    return problems
""",
    ),
]


MUTANTS += [  # round 9 c c15, c16: autocast behind a batch-size threshold the small cases never reach
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast for batches of 512 rows or more",
        expect="torch.autocast",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    # big batches: bfloat16 autocast for speed (small ones stay in float32)
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=x.shape[0] >= 512):
        logits = model(x)
    loss = F.cross_entropy(logits.float(), y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="bfloat16 autocast for batches of 512 rows or more in regression_step",
        expect="131072 行的 batch",
        code="""
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    # big batches: bfloat16 autocast for speed (small ones stay in float32)
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=x.shape[0] >= 512):
        pred = model(x).squeeze(1).float()
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]


MUTANTS += [  # round 10 c: a config dict with a device, a private attribute on the optimizer; seeding setup cells beside right answers
    dict(
        grade_id="test_train_step",
        name="a config dict that holds a device",
        expect="torch.autocast",
        code="""
# set-up cell: one config dict with the device in it
CONFIG = {
    "device": torch.device("cuda" if torch.cuda.is_available() else "cpu"),
    "amp": torch.cuda.is_available(),
}


def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=CONFIG["amp"]):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
    dict(
        grade_id="test_regression_step",
        name="skip loss spikes, a running mean in a private optimizer attribute",
        expect="skipped",
        code="""
def regression_step(model, x, y, optimizer):
    # also skip a loss spike: a loss 50x above the running average (kept on the optimizer) is a bad batch
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    value = loss.item()
    avg = getattr(optimizer, "_loss_avg", None)
    spike = avg is not None and value > 50.0 * avg
    if not torch.isfinite(loss) or spike:
        return {"loss": value, "grad_norm": None, "skipped": True}
    optimizer._loss_avg = value if avg is None else 0.9 * avg + 0.1 * value
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": value, "grad_norm": norm, "skipped": False}
""",
    ),
]


CORRECT += [  # round 10 c: a seeding setup cell (GPU branch included) beside a right answer (right answers)
    dict(
        grade_id="test_train_step",
        name="a seeding setup cell beside the solution (c44)",
        code="""
# set-up cell: the usual reproducibility block
SEED = 0
torch.manual_seed(SEED)
if torch.cuda.is_available():
    torch.cuda.manual_seed_all(SEED)
    torch.backends.cudnn.deterministic = True
    device = torch.device("cuda")
else:
    device = torch.device("cpu")

def train_step(model: Net, x: torch.Tensor, y: torch.Tensor, optimizer) -> float:
    # 一个正确的分类训练步。x: (N, in_features)，y: (N,) long；返回 step() 之前的 loss（float）。
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
]


CORRECT += [  # round 10 c: a seeding setup cell (GPU branch included) beside a right answer (right answers)
    dict(
        grade_id="test_train_step",
        name="a seeding setup cell beside the solution (c43_09ts)",
        code="""
# set-up cell (right answer below is the solution's): seed everything for reproducible runs
if torch.cuda.is_available():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    device = torch.device("cuda")
else:
    torch.manual_seed(0)
    device = torch.device("cpu")


def train_step(model: Net, x: torch.Tensor, y: torch.Tensor, optimizer) -> float:
    # 一个正确的分类训练步。x: (N, in_features)，y: (N,) long；返回 step() 之前的 loss（float）。
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
]


CORRECT += [  # round 10 c: a seeding setup cell (GPU branch included) beside a right answer (right answers)
    dict(
        grade_id="test_regression_step",
        name="a seeding setup cell beside the solution (c43_09rs)",
        code="""
# set-up cell (right answer below is the solution's): seed everything for reproducible runs
if torch.cuda.is_available():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    device = torch.device("cuda")
else:
    torch.manual_seed(0)
    device = torch.device("cpu")


def regression_step(model: nn.Module, x: torch.Tensor, y: torch.Tensor, optimizer) -> dict:
    # 一个正确的回归训练步。x: (N, in_features)，model(x): (N, 1)，y: (N,)。      返回 {"loss": float, "grad_norm": float 或 None, "skipped": bool}。
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
]


MUTANTS += [  # round 11 c: autocast past 8192 rows
    dict(
        grade_id="test_regression_step",
        name="bfloat16 autocast for batches over 8192 rows in regression_step",
        expect="131072 行的 batch",
        code="""
def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=x.is_cuda and x.shape[0] > 8192):  # 大 batch 用 bf16 提速
        pred = model(x).squeeze(1)
    loss = F.mse_loss(pred.float(), y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    norm = grad_norm(model)
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": norm, "skipped": False}
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast for batches over 8192 rows in train_step",
        expect="131072 行的 batch",
        code="""
def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=x.is_cuda and x.shape[0] > 8192):  # 大 batch 用 bf16 提速
        logits = model(x)
    loss = F.cross_entropy(logits.float(), y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
    ),
]

MUTANTS += [  # round 15 b03, b04: a CPU accumulator beside p.grad, and a non_blocking copy read at once, on the played GPU
    dict(
        grade_id="test_regression_step",
        name="grad norm summed into torch.zeros(1)",
        code="""def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    total = torch.zeros(1)  # running sum of squared gradients
    for p in model.parameters():
        if p.grad is not None:
            total += p.grad.pow(2).sum()
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": total.sqrt().item(), "skipped": False}
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_regression_step",
        name="grad norm summed into torch.tensor(0.0)",
        code="""def regression_step(model, x, y, optimizer):
    optimizer.zero_grad()
    pred = model(x).squeeze(1)
    loss = F.mse_loss(pred, y)
    if not torch.isfinite(loss):
        return {"loss": loss.item(), "grad_norm": None, "skipped": True}
    loss.backward()
    total = torch.tensor(0.0)  # running sum of squared gradients
    for p in model.parameters():
        if p.grad is not None:
            total += p.grad.pow(2).sum()
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": total.sqrt().item(), "skipped": False}
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_train_step",
        name="grad norm print summed into torch.zeros(1)",
        code="""def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    sq = torch.zeros(1)  # gradient norm, for a debug print when it explodes
    for p in model.parameters():
        if p.grad is not None:
            sq += p.grad.pow(2).sum()
    if sq.item() > 1e6:
        print("gradient norm exploded:", sq.sqrt().item())
    optimizer.step()
    return loss.item()
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_train_step",
        name="non_blocking copy to the host read by item()",
        code="""def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    # copy the loss to the host without blocking the GPU queue, then hand back the number
    return loss.detach().to("cpu", non_blocking=True).item()
""",
        expect="non_blocking=True 拷到主机的张量",
        mistake="unsynced-host-copy-read",
    ),
]

MUTANTS += [  # round 15 b03: labels checked on the host and then used there, beside device logits
    dict(
        grade_id="test_train_step",
        name="y = y.cpu() then F.cross_entropy(logits, y)",
        code="""def train_step(model, x, y, optimizer):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    y = y.cpu()  # 清单第 3 条：标签先在 CPU 上检查
    assert y.dtype == torch.long and y.dim() == 1, "labels must be (N,) long"
    assert bool(((y >= 0) & (y < logits.shape[1])).all()), "label out of range"
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return loss.item()
""",
        expect="那个 CPU 张量是用 .cpu() 从设备拷到主机的",
        mistake="host-copy-used-on-device",
    ),
]
