"""Wrong answers learners write for 08_clipping; each must fail its test cell with ``expect`` in the message."""

from tests.notebooks import edited, solution_with, solution_wrapped

_LAYERS = """
def layer_grad_norms(model, norm_type=2.0):
    groups, params = {{}}, {{}}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault({key}, []).append({grad})
            params.setdefault({key}, []).append(p)
    layers = {{}}
    for k, gs in groups.items():
        ps = params[k]
        ns = {inner_list}
        layers[k] = {layer}
    if not layers:
        {empty}
    total = {total}
    return layers, total
"""

_LAYERS_OK = dict(
    key='name.rpartition(".")[0]',
    grad="p.grad",
    inner_list="[{inner} for g in gs]",
    inner="torch.linalg.vector_norm(g, norm_type)",
    layer="{outer}",
    outer="torch.linalg.vector_norm(torch.stack(ns), norm_type)",
    empty="return {{}}, torch.tensor(0.0)",
    total="torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)",
)


_STEP = """
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    {zero_grad}
    {before_backward}
    loss = F.mse_loss(model(x), y)
    loss.backward()
    {clip}
    optimizer.step()
    {after_step}
    {steps}
    {clipped}
    {largest}
    return {ret}
"""

_STEP_OK = dict(
    zero_grad="optimizer.zero_grad()",
    before_backward="pass",
    clip="grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)",
    after_step="pass",
    steps='stats["steps"] += 1',
    clipped='stats["clipped"] += grad_norm > max_norm',
    largest='stats["largest"] = torch.maximum(stats["largest"], grad_norm)',
    ret="loss.detach(), grad_norm",
)


def _step(**changes):
    return _STEP.format(**{**_STEP_OK, **changes})


_ADVISE = """
def advise(stats):
    steps, clipped = int(stats["steps"]), int(stats["clipped"])
    if steps == 0:
        {zero}
    if not math.isfinite(float(stats["largest"])):
        {nonfinite}
    if {condition}:
        return {frequent}
    return "keep_clipping"
"""

_ADVISE_OK = dict(
    zero='raise ValueError("no steps")',
    nonfinite="return {nonfinite_answer}",
    nonfinite_answer='"check_data"',
    condition="5 * clipped > steps",
    frequent='"fix_lr_or_init"',
)


def _advise(**changes):
    parts = {**_ADVISE_OK, **changes}
    parts["nonfinite"] = parts["nonfinite"].replace("{nonfinite_answer}", parts["nonfinite_answer"])
    return _ADVISE.format(**parts)


def _layers(**changes):
    parts = {**_LAYERS_OK, **changes}
    parts["inner_list"] = parts["inner_list"].replace("{inner}", parts["inner"])
    parts["layer"] = parts["layer"].replace("{outer}", parts["outer"])
    parts["empty"] = parts["empty"].replace("{{}}", "{}")
    return _LAYERS.format(**parts)


# The hand-written clip of exercise 2 as the solution writes it; a mutant is this text with one edit.
_CLIP_OK = """
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
"""
_CLIP_COEF = "    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)\n"
_CLIP_WHERE = "    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))\n"
_CLIP_LOOP = "    for g in grads:\n        g.mul_(coef)\n"
_CLIP_SYNCED = """    if not {sync}(torch.isfinite(total)):
        return total
    coef = max_norm / (total + 1e-6)
    if {sync}(coef < 1):
        for g in grads:
            g.mul_(coef)
"""


def _clip_with(*edits: tuple[str, str]) -> str:
    """``_CLIP_OK`` with each ``old`` text replaced by ``new``; each ``old`` must be there."""
    return edited(_CLIP_OK, *edits)


MUTANTS = [
    # ---------------------------------------------------------------- layer_grad_norms
    dict(
        grade_id="test_layer_grad_norms",
        name="total_is_sum_of_layer_norms",
        code=_layers(total="sum(layers.values())"),
        expect="各层范数直接相加",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="groups_by_parameter_not_module",
        code=_layers(key="name"),
        expect="按参数 (parameter) 分组",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="groups_by_first_name_component",
        code=_layers(key='name.split(".")[0]'),
        expect="只取了名字的第一段",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="rsplit_keeps_top_level_parameter_names",
        code=_layers(key='name.rsplit(".", 1)[0]'),
        expect="rpartition",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="layers_without_grads_reported_as_zero",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    layers = {}
    for name, p in model.named_parameters():
        key = name.rpartition(".")[0]
        g = p.grad if p.grad is not None else torch.zeros_like(p)
        n = torch.linalg.vector_norm(g, norm_type)
        layers[key] = n if key not in layers else torch.linalg.vector_norm(torch.stack([layers[key], n]), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
        expect="不应出现在结果里",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="ignores_norm_type_in_layers",
        code=_layers(inner="torch.linalg.vector_norm(g)", outer="torch.linalg.vector_norm(torch.stack(ns))"),
        expect="忽略了参数 norm_type",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="named_modules_with_recursive_parameters",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    layers = {}
    for name, m in model.named_modules():
        gs = [p.grad for p in m.parameters() if p.grad is not None]
        if gs:
            layers[name] = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in gs]), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad, norm_type) for p in model.parameters() if p.grad is not None]), norm_type)
""",
        expect="期望的键",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="total_always_l2",
        code=_layers(total="torch.linalg.vector_norm(torch.stack(list(layers.values())))"),
        expect="同一个 norm_type",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="norm_of_parameters_not_grads",
        code=_layers(grad="p.detach()"),
        expect="参数 p 本身",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="crashes_without_any_grad",
        code=_layers(empty="pass"),
        expect="layer_grad_norms 抛出",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="layer_norms_as_python_floats",
        code=_layers(
            total="torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)\n"
            "    layers = {k: v.item() for k, v in layers.items()}"
        ),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="python_max_for_inf_norm",
        code=_layers(
            total="max(layers.values()) if norm_type == float('inf') else "
            "torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)"
        ),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="get_total_norm_per_layer",
        code=_layers(
            layer="torch.nn.utils.get_total_norm(gs, norm_type)",
        ),
        expect="torch.nn.utils.get_total_norm",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="foreach_norm_per_layer",
        code=_layers(inner_list="torch._foreach_norm(gs, norm_type)"),
        expect="torch._foreach_norm",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="clip_grad_norm_with_infinite_max_norm",
        code=_layers(layer="torch.nn.utils.clip_grad_norm_(ps, float('inf'), norm_type)"),
        expect="torch.nn.utils.clip_grad_norm_",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="halves_grads_in_place_while_reading_them",
        code=_layers(grad="p.grad.div_(1.0 + 0.0 * p.grad.norm()).mul_(0.5)"),
        expect="梯度做了原地操作",
    ),
    # ---------------------------------------------------------------- clip_by_global_norm_
    dict(
        grade_id="test_clip_by_global_norm_",
        name="per_tensor_clipping",
        code=_clip_with(
            (_CLIP_COEF + _CLIP_WHERE, ""), ("g.mul_(coef)", "g.mul_((max_norm / (g.norm() + 1e-6)).clamp(max=1.0))")
        ),
        expect="per-tensor",
        mistake="per-tensor-clip",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="scales_up_when_below_max_norm",
        code=_clip_with((_CLIP_COEF, "    coef = max_norm / (total + 1e-6)\n")),
        expect="放大 (scale up)",
        mistake="clip-coef-not-capped",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="forgets_eps",
        code=_clip_with((_CLIP_COEF, "    coef = (max_norm / total).clamp(max=1.0)\n")),
        expect="1e-6",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="returns_norm_after_clipping",
        code=_clip_with(("    return total\n", "    return torch.sqrt(sum(g.pow(2).sum() for g in grads))\n")),
        expect="裁剪之前 (before clipping)",
        mistake="norm-after-clip",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="rebinds_local_variable_not_in_place",
        code=_clip_with(("g.mul_(coef)", "g = g * coef")),
        expect="原地 (in-place)",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="grad_data_reassigned_not_in_place",
        code=_clip_with(
            (
                "    grads = [p.grad for p in parameters if p.grad is not None]\n",
                "    params = [p for p in parameters if p.grad is not None]\n    grads = [p.grad for p in params]\n",
            ),
            (_CLIP_LOOP, "    for p in params:\n        p.grad.data = p.grad.data * coef\n"),
        ),
        expect="它的内存被换掉了",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="replaces_grad_tensor",
        code=_clip_with(
            ("grads = [p.grad for p in parameters", "params = [p for p in parameters"),
            ("if not grads:", "if not params:"),
            ("g.pow(2).sum() for g in grads", "p.grad.pow(2).sum() for p in params"),
            (_CLIP_LOOP, "    for p in params:\n        p.grad = p.grad * coef\n"),
        ),
        expect="换成了新张量",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="iterates_generator_twice",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    total = global_grad_norm(parameters)
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for p in parameters:
        if p.grad is not None:
            p.grad.mul_(coef)
    return total
""",
        expect="生成器 (generator)",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="clips_values_instead_of_norm",
        code=_clip_with((_CLIP_COEF + _CLIP_WHERE, ""), ("g.mul_(coef)", "g.clamp_(-max_norm, max_norm)")),
        expect="element-wise",
        mistake="clip-by-value",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="if_coef_below_one_syncs",
        code=_clip_with(
            (
                _CLIP_COEF + _CLIP_WHERE + _CLIP_LOOP,
                "    coef = max_norm / (total + 1e-6)\n    if coef < 1:\n        for g in grads:\n            g.mul_(coef)\n",
            )
        ),
        expect="clamp(max=1.0)",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="if_inside_the_loop_syncs",
        code=_clip_with(
            (_CLIP_COEF + _CLIP_WHERE, "    coef = max_norm / (total + 1e-6)\n"),
            ("        g.mul_(coef)\n", "        if coef < 1:\n            g.mul_(coef)\n"),
        ),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="isfinite_checked_with_if",
        code=_clip_with(
            (_CLIP_WHERE, ""), (_CLIP_COEF, "    if not torch.isfinite(total):\n        return total\n" + _CLIP_COEF)
        ),
        expect="torch.where",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="scales_nonfinite_like_clip_grad_norm_",
        code=_clip_with((_CLIP_WHERE, "")),
        expect="clip_grad_norm_ 的默认做法",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="nan_to_num_misses_inf",
        code=_clip_with(
            (
                _CLIP_COEF + _CLIP_WHERE,
                "    coef = torch.nan_to_num((max_norm / (total + 1e-6)).clamp(max=1.0), nan=1.0)\n",
            )
        ),
        expect="总范数是 inf",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="isfinite_on_coef_not_total",
        code=_clip_with(("torch.isfinite(total)", "torch.isfinite(coef)")),
        expect="总范数是 inf",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="returns_clip_grad_norm_",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    return torch.nn.utils.clip_grad_norm_(parameters, max_norm)
""",
        expect="torch.nn.utils.clip_grad_norm_",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="get_total_norm_then_clip_grads_with_norm_",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    params = list(parameters)
    total = torch.nn.utils.get_total_norm([p.grad for p in params if p.grad is not None])
    coef_total = torch.where(torch.isfinite(total), total, torch.zeros_like(total))
    torch.nn.utils.clip_grads_with_norm_(params, max_norm, coef_total)
    return total
""",
        expect="torch.nn.utils.get_total_norm",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="clip_grad_norm_imported_under_another_name",
        code="""
from torch.nn.utils import clip_grad_norm_ as _clip


def clip_by_global_norm_(parameters, max_norm):
    return _clip(parameters, max_norm)
""",
        expect="torch.nn.utils 的裁剪函数",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="foreach_mul_with_foreach_norm",
        code=_clip_with(
            (
                "torch.sqrt(sum(g.pow(2).sum() for g in grads))",
                "torch.linalg.vector_norm(torch.stack(torch._foreach_norm(grads)))",
            ),
            (_CLIP_LOOP, "    torch._foreach_mul_(grads, coef)\n"),
        ),
        expect="torch._foreach_norm",
    ),
    # ---------------------------------------------------------------- train_step
    dict(
        grade_id="test_train_step",
        name="clips_before_backward",
        code=_step(
            before_backward="grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)", clip="pass"
        ),
        expect="backward() 之前",
    ),
    dict(
        grade_id="test_train_step",
        name="clips_after_step",
        code=_step(clip="pass", after_step="grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)"),
        expect="step() 之后",
        mistake="clip-after-step",
    ),
    dict(grade_id="test_train_step", name="forgets_zero_grad", code=_step(zero_grad="pass"), expect="zero_grad"),
    dict(
        grade_id="test_train_step",
        name="clips_each_parameter_separately",
        code=_step(
            clip="""grad_norm = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()])
    for p in model.parameters():
        torch.nn.utils.clip_grad_norm_([p], max_norm)"""
        ),
        expect="per-tensor",
        mistake="per-tensor-clip",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_norm_after_clipping",
        code=_step(
            clip="""torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    grad_norm = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()])"""
        ),
        expect="裁剪之前",
        mistake="norm-after-clip",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_item_floats_every_step",
        code=_step(ret="loss.item(), grad_norm.item()"),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_loss_with_its_graph",
        code=_step(ret="loss, grad_norm"),
        expect="loss.detach()",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_loss_after_step",
        code=_step(
            ret="F.mse_loss(model(x), y).detach(), grad_norm",
        ),
        expect="是 step() 更新之后的权重 w = 0.9 算出的 loss",
    ),
    # statistics
    dict(
        grade_id="test_train_step",
        name="counts_clipped_with_if",
        code=_step(
            clipped="""if grad_norm > max_norm:
        stats["clipped"] += 1"""
        ),
        expect="主机与设备同步",
    ),
    dict(  # found by review rv79: these host copies return self on a CPU and were not counted
        grade_id="test_train_step",
        name="clipped_counted_in_a_cpu_tensor_via_as_tensor",
        code=_step(clipped='stats["clipped"] += torch.as_tensor(grad_norm > max_norm, device="cpu")'),
        expect='torch.as_tensor(t, device="cpu")',
    ),
    dict(
        grade_id="test_train_step",
        name="largest_kept_as_a_legacy_cpu_float_tensor",
        code=_step(largest='stats["largest"] = torch.maximum(stats["largest"], grad_norm.type(torch.FloatTensor))'),
        expect=".type(torch.FloatTensor)",
    ),
    dict(
        grade_id="test_train_step",
        name="largest_with_python_max",
        code=_step(largest='stats["largest"] = max(stats["largest"], grad_norm)'),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_train_step",
        name="counts_every_step_as_clipped",
        code=_step(clipped='stats["clipped"] += 1'),
        expect="只数裁剪真正起作用的步",
    ),
    dict(
        grade_id="test_train_step",
        name="largest_records_norm_after_clipping",
        code=_step(largest='stats["largest"] = torch.maximum(stats["largest"], grad_norm.clamp(max=max_norm))'),
        expect="是裁剪之后的范数",
        mistake="norm-after-clip",
    ),
    dict(
        grade_id="test_train_step",
        name="largest_overwritten_by_last_norm",
        code=_step(largest='stats["largest"] = grad_norm'),
        expect="stats['largest']",
    ),
    dict(
        grade_id="test_train_step",
        name="forgets_to_count_steps",
        code=_step(steps="pass"),
        expect="stats['steps']",
    ),
    dict(
        grade_id="test_train_step",
        name="stats_as_python_numbers",
        code=_step(clipped='stats["clipped"] = int(stats["clipped"]) + int(grad_norm > max_norm)'),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_train_step",
        name="clip_with_error_if_nonfinite",
        code=_step(
            clip="grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm, error_if_nonfinite=True)"
        ),
        expect="error_if_nonfinite",
    ),
    dict(
        grade_id="test_train_step",
        name="clip_grad_value_instead_of_norm",
        code=_step(
            clip="""grad_norm = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()])
    torch.nn.utils.clip_grad_value_(model.parameters(), max_norm)"""
        ),
        expect="之后的参数",
    ),
    dict(
        grade_id="test_advise",
        name="nonfinite_checked_with_isnan_only",
        code=_advise().replace('not math.isfinite(float(stats["largest"]))', 'math.isnan(float(stats["largest"]))'),
        expect="情形 1（largest 不是有限值 (inf / nan)）的两组统计得到了不同的建议",
    ),
    # ---------------------------------------------------------------- advise
    dict(
        grade_id="test_advise",
        name="frequent_clipping_lower_max_norm",
        code=_advise(frequent='"lower_max_norm"'),
        expect="只改裁剪（或保持现状）不解决问题",
    ),
    dict(
        grade_id="test_advise",
        name="frequent_clipping_keep_clipping",
        code=_advise(frequent='"keep_clipping"'),
        expect="得到了同一个建议 'keep_clipping'",
    ),
    dict(
        grade_id="test_advise",
        name="any_clipping_means_fix_lr",
        code=_advise(condition="clipped > 0"),
        expect="得到了不同的建议",
    ),
    dict(
        grade_id="test_advise",
        name="nonfinite_treated_as_frequent",
        code=_advise(nonfinite="pass"),
        expect="情形 1（largest 不是有限值 (inf / nan)）的两组统计得到了不同的建议",
    ),
    dict(
        grade_id="test_advise",
        name="nonfinite_lower_max_norm",
        code=_advise(nonfinite_answer='"lower_max_norm"'),
        expect="裁剪救不了它",
    ),
    dict(
        grade_id="test_advise",
        name="fraction_threshold_inclusive",
        code=_advise(condition="5 * clipped >= steps"),
        expect="不大于 steps，所以还是情形 3",
    ),
    dict(
        grade_id="test_advise",
        name="threshold_half_instead_of_a_fifth",
        code=_advise(condition="2 * clipped > steps"),
        expect="情形 2（裁剪频繁起作用：5 × clipped > steps）的两组统计得到了不同的建议",
    ),
    dict(
        grade_id="test_advise",
        name="no_check_for_zero_steps",
        code=_advise(zero="pass"),
        expect="应 raise ValueError",
    ),
    dict(
        grade_id="test_advise",
        name="advice_outside_the_list",
        code=_advise(frequent='"lower_lr"'),
        expect="ADVICE 里的一个字符串",
    ),
    # ---------------------------------------------------------------- predict first
    dict(
        grade_id="test_predict_clip_total",
        formative=True,
        name="norm_after_clipping",
        code="predict_clip_total = 1.3",
        expect="裁剪之前 (before clipping)",
    ),
    dict(
        grade_id="test_predict_clip_total",
        formative=True,
        name="sum_of_per_tensor_norms",
        code="predict_clip_total = 17.0",
        expect="5 + 12 = 17",
    ),
    dict(
        grade_id="test_predict_clip_total",
        formative=True,
        name="answer_as_text",
        code="predict_clip_total = '13'",
        expect="之一",
    ),
    dict(
        grade_id="test_predict_syncs_if",
        formative=True,
        name="no_sync_tensors_stay_on_device",
        code="predict_syncs_if = 0",
        expect="循环 3 次就同步 3 次",
    ),
    dict(
        grade_id="test_predict_syncs_if",
        formative=True,
        name="one_sync_for_the_one_coef",
        code="predict_syncs_if = 1",
        expect="循环 3 次就同步 3 次",
    ),
    dict(
        grade_id="test_predict_syncs_if",
        formative=True,
        name="answer_missing",
        code="predict_syncs_if = ...",
        expect="还没有写预测",
    ),
    dict(
        grade_id="test_predict_w_clip_first",
        formative=True,
        name="thinks_it_clips",
        code="predict_w_clip_first = 0.9",
        expect="w = 1 - 0.1 × 200 = -19",
    ),
    dict(
        grade_id="test_predict_w_clip_first",
        formative=True,
        name="thinks_nothing_moves",
        code="predict_w_clip_first = 1.0",
        expect="-19",
    ),
    dict(
        grade_id="test_predict_w_clip_first",
        formative=True,
        name="answer_as_text",
        code="predict_w_clip_first = '-19'",
        expect="之一",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- found by the fresh reviewer (pass 2)
    dict(
        grade_id="test_layer_grad_norms",
        name="foreach_norm_through_torch_ops",
        code=_layers(inner_list="torch.ops.aten._foreach_norm.Scalar(gs, norm_type)"),
        expect="torch._foreach_norm",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="foreach_norm_bound_before_the_test",
        code="_foreach_norm = torch._foreach_norm\n_vf_norm = torch._C._VariableFunctions._foreach_norm\n"
        + _layers(
            inner_list="_foreach_norm(gs, norm_type)",
            total="torch.linalg.vector_norm(torch.stack(_vf_norm(list(layers.values()), norm_type)), norm_type)",
        ),
        expect="torch._foreach_norm",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="is_nonzero_syncs",
        code=_clip_with((_CLIP_COEF + _CLIP_WHERE + _CLIP_LOOP, _CLIP_SYNCED.format(sync="torch.is_nonzero"))),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="local_scalar_dense_syncs",
        code=_clip_with(
            (_CLIP_COEF + _CLIP_WHERE + _CLIP_LOOP, _CLIP_SYNCED.format(sync="torch.ops.aten._local_scalar_dense"))
        ),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="local_scalar_dense_and_foreach_norm_through_torch_ops",
        code=_clip_with(
            (
                "torch.sqrt(sum(g.pow(2).sum() for g in grads))",
                "torch.linalg.vector_norm(torch.stack(torch.ops.aten._foreach_norm.Scalar(grads, 2)))",
            ),
            (_CLIP_COEF + _CLIP_WHERE + _CLIP_LOOP, _CLIP_SYNCED.format(sync="torch.ops.aten._local_scalar_dense")),
        ),
        expect="torch._foreach_norm",
    ),
    dict(
        grade_id="test_train_step",
        name="stats_with_is_nonzero",
        code=_step(
            clipped="""if torch.is_nonzero(grad_norm > max_norm):
        stats["clipped"] += 1""",
            largest="""if torch.is_nonzero(grad_norm > stats["largest"]):
        stats["largest"] = grad_norm.detach().clone()""",
        ),
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_train_step",
        name="stats_with_local_scalar_dense",
        code=_step(
            before_backward="item = torch.ops.aten._local_scalar_dense",
            clipped="""if item(grad_norm) > max_norm:
        stats["clipped"] += 1""",
            largest='stats["largest"] = torch.tensor(max(item(stats["largest"]), item(grad_norm)))',
            ret="torch.tensor(item(loss)), grad_norm",
        ),
        expect="主机与设备同步",
    ),
    # review rfc (issue 17 item 2): a CPU tensor stacked with the gradients' norms raises on a GPU
    dict(
        grade_id="test_clip_by_global_norm_",
        name="appends_a_cpu_zero_so_stack_never_sees_an_empty_list",
        code=_clip_with(
            (
                "    if not grads:\n        return torch.tensor(0.0)\n    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))\n",
                "    norms = [torch.linalg.vector_norm(g) for g in grads] + [torch.tensor(0.0)]  # 空列表也能 stack\n"
                "    total = torch.linalg.vector_norm(torch.stack(norms))\n",
            )
        ),
        expect="Expected all tensors to be on the same device",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="appends_a_cpu_zero_to_the_layer_norms",
        code=_layers(
            empty="pass",
            total="torch.linalg.vector_norm(torch.stack(list(layers.values()) + [torch.tensor(0.0)]), norm_type)",
        ),
        expect="Expected all tensors to be on the same device",
        mistake="new-tensor-without-device",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- closing pass (issue 17, r0809)
    dict(  # the visible messages used to print the right advice: a retry copied it
        grade_id="test_advise",
        name="returns_the_constant_a_message_printed",
        code="""
def advise(stats):
    if int(stats["steps"]) == 0:
        raise ValueError("no steps")
    return "fix_lr_or_init"
""",
        expect="得到了同一个建议 'fix_lr_or_init'",
    ),
    dict(  # the answers the old visible messages printed, looked up by the visible inputs
        grade_id="test_advise",
        name="looks_up_the_answers_printed_for_the_visible_examples",
        code="""
def advise(stats):
    key = (int(stats["steps"]), int(stats["clipped"]))
    if key[0] == 0:
        raise ValueError("no steps")
    if not math.isfinite(float(stats["largest"])):
        return "check_data"
    return {(60, 60): "fix_lr_or_init", (60, 0): "keep_clipping", (100, 2): "keep_clipping"}.get(key, "keep_clipping")
""",
        expect="得到了不同的建议",
    ),
    dict(
        grade_id="test_train_step",
        name="counts_a_norm_equal_to_max_norm_as_clipped",
        code=_step(clipped='stats["clipped"] += grad_norm >= max_norm'),
        expect="不是 >=",
    ),
    dict(
        grade_id="test_train_step",
        name="largest_with_where_drops_a_nan_norm",
        code=_step(largest='stats["largest"] = torch.where(grad_norm > stats["largest"], grad_norm, stats["largest"])'),
        expect="stats['largest'] 应是 nan",
    ),
    dict(
        grade_id="test_train_step",
        name="largest_with_fmax_skips_a_nan_norm",
        code=_step(largest='stats["largest"] = torch.fmax(stats["largest"], grad_norm)'),
        expect="stats['largest'] 应是 nan",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- final fresh pass (issue 17, rvc)
    dict(  # keeps the nan of its step, but the next finite norm replaces it (nan >= x is False)
        grade_id="test_train_step",
        name="largest_with_where_forgets_a_nan_at_the_next_step",
        code=_step(
            largest='stats["largest"] = torch.where(stats["largest"] >= grad_norm, stats["largest"], grad_norm)'
        ),
        expect="stats['largest'] 应仍是 nan",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- final fresh pass (issue 17, rvc5)
    dict(  # every element finite, yet the sum of squares overflows: the total is inf and the grads must stay
        grade_id="test_clip_by_global_norm_",
        name="finiteness_of_each_gradient_instead_of_the_total",
        code=_clip_with(
            (
                _CLIP_WHERE,
                "    finite = torch.stack([torch.isfinite(g).all() for g in grads]).all()\n"
                "    coef = torch.where(finite, coef, torch.ones_like(coef))\n",
            )
        ),
        expect="平方和却溢出成 inf",
    ),
    dict(  # situation 1 is inf / nan only: a huge but finite largest is a spike clipping handles
        grade_id="test_advise",
        name="huge_finite_largest_taken_for_bad_data",
        code=edited(
            _advise(),
            ('if not math.isfinite(float(stats["largest"])):', 'if not float(stats["largest"]) < 1e30:'),
        ),
        expect="很大，但它是有限值",
    ),
]

MUTANTS += [
    # ---------------------------------------------------------------- final fresh pass (issue 17, rve5)
    dict(  # each tensor's norm finite, yet the total of them overflows: the total is inf and the grads must stay
        grade_id="test_clip_by_global_norm_",
        name="finiteness_of_each_tensor_norm_instead_of_the_total",
        code=_clip_with(
            (
                "    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))\n",
                "    norms = torch.stack([torch.linalg.vector_norm(g) for g in grads])\n"
                "    total = torch.linalg.vector_norm(norms)\n",
            ),
            (_CLIP_WHERE, "    coef = torch.where(torch.isfinite(norms).all(), coef, torch.ones_like(coef))\n"),
        ),
        expect="每个梯度张量的范数都有限",
    ),
    dict(  # each tensor's sum of squares finite (2.25e38), the total overflows: the grads must stay
        grade_id="test_clip_by_global_norm_",
        name="finiteness_of_each_tensor_sum_of_squares_instead_of_the_total",
        code=_clip_with(
            (
                "    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))\n",
                "    squares = torch.stack([g.pow(2).sum() for g in grads])\n    total = torch.sqrt(squares.sum())\n",
            ),
            (_CLIP_WHERE, "    coef = torch.where(torch.isfinite(squares).all(), coef, torch.ones_like(coef))\n"),
        ),
        expect="每个梯度张量的平方和都有限",
    ),
    dict(  # the same with each tensor's norm written by hand (sqrt of its sum of squares: inf for [3e19])
        grade_id="test_clip_by_global_norm_",
        name="finiteness_of_each_hand_written_tensor_norm_instead_of_the_total",
        code=_clip_with(
            (
                "    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))\n",
                "    norms = torch.stack([g.pow(2).sum().sqrt() for g in grads])\n    total = norms.pow(2).sum().sqrt()\n",
            ),
            (_CLIP_WHERE, "    coef = torch.where(torch.isfinite(norms).all(), coef, torch.ones_like(coef))\n"),
        ),
        expect="每个梯度张量的平方和都有限",
    ),
    dict(  # a layer is a module that owns parameters directly, leaf or not (a root scale, ViT's cls_token)
        grade_id="test_layer_grad_norms",
        name="layers_are_leaf_modules_only",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    layers = {}
    for name, m in model.named_modules():
        if list(m.children()):
            continue
        grads = [p.grad for p in m.parameters() if p.grad is not None]
        if grads:
            norms = torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads])
            layers[name] = torch.linalg.vector_norm(norms, norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
        expect="不只是叶子 (leaf) 模块",
        mistake="layer-as-leaf-module",
    ),
]

MUTANTS += [
    dict(  # each module's own parameters (recurse=False): a weight two modules share is counted in both (rve5)
        grade_id="test_layer_grad_norms",
        name="layers_from_named_modules_count_a_tied_weight_twice",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    layers = {}
    for name, m in model.named_modules():
        grads = [p.grad for p in m.parameters(recurse=False) if p.grad is not None]
        if grads:
            norms = torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads])
            layers[name] = torch.linalg.vector_norm(norms, norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
        expect="共享 (weight tying)",
    ),
]

MUTANTS += [  # issue 17 fresh pass (rwd): "not finite" read as "too big" (no tested finite total came near)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="finiteness_as_a_threshold_on_the_total",
        code=_clip_with((_CLIP_WHERE, "    coef = torch.where(total < 1e10, coef, torch.ones_like(coef))\n")),
        expect="总范数 5e+18 很大，但它是有限值",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="finiteness_as_total_below_float32_max",
        code=_clip_with((_CLIP_WHERE, "    coef = torch.where(total < 3e38, coef, torch.ones_like(coef))\n")),
        expect="总范数 5e+100 很大，但它是有限值",
    ),
]

MUTANTS += [  # issue 17 review of the rwd fix (rxd): the threshold on the coefficient, not on the total
    dict(
        grade_id="test_clip_by_global_norm_",
        name="finiteness_as_a_threshold_on_the_coefficient",
        code=_clip_with((_CLIP_WHERE, "    coef = torch.where(coef > 1e-3, coef, torch.ones_like(coef))\n")),
        expect="总范数 5e+18 很大，但它是有限值",
    ),
]

MUTANTS += [  # gc: a look at the rxd fix: "not finite" read off the coefficient (0 for inf, nan for nan), not the total
    dict(
        grade_id="test_clip_by_global_norm_",
        name="finiteness_as_a_positive_coefficient",
        code=_clip_with((_CLIP_WHERE, "    coef = torch.where(coef > 0, coef, torch.ones_like(coef))\n")),
        expect="max_norm = 0，总范数 13 是有限值",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="finiteness_as_a_coefficient_that_is_neither_zero_nor_nan",
        code=_clip_with(
            (_CLIP_WHERE, "    coef = torch.where((coef == 0) | coef.isnan(), torch.ones_like(coef), coef)\n")
        ),
        expect="max_norm = 0，总范数",
    ),
]

# Right answers written another way: each must pass its test cell (tests/test_mutants.py).
CORRECT = [
    dict(  # gc: the float32 sum of squares overflows for [3e19, 4e19]; the exact total 5e19 is finite in float32
        grade_id="test_clip_by_global_norm_",
        name="norms_accumulated_in_float64_then_cast_back_to_the_gradients_dtype",
        code=_clip_with(
            (
                "    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))\n",
                "    total = torch.sqrt(sum(g.double().pow(2).sum() for g in grads)).to(grads[0].dtype)\n",
            )
        ),
    ),
]

MUTANTS += [  # s33: the banned foreach norm through its ATen overload, and the clip helpers' private total norm
    dict(
        grade_id="test_layer_grad_norms",
        name="per-layer norms through torch.ops.aten._foreach_norm.Scalar",
        code=_layers(inner_list="list(torch.ops.aten._foreach_norm.Scalar(gs, norm_type))"),
        expect="_foreach_norm",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="per-layer norms through torch.nn.utils.clip_grad._get_total_norm",
        code=_layers(layer="torch.nn.utils.clip_grad._get_total_norm(gs, norm_type)"),
        expect="get_total_norm",
    ),
]


MUTANTS += [  # s35 review (h4): the first three passed every test, the last was told a cause it did not have
    dict(
        grade_id="test_clip_by_global_norm_",
        name="the sum of squares in the gradients' own dtype: float16 overflows once the norm passes 256",
        expect="期望 608.5，得到 inf",
        code=(
            "def clip_by_global_norm_(parameters, max_norm):\n"
            "    grads = [p.grad for p in parameters if p.grad is not None]\n"
            "    if not grads:\n"
            "        return torch.tensor(0.0)\n"
            "    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))\n"
            "    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)\n"
            "    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))\n"
            "    for g in grads:\n"
            "        g.mul_(coef)\n"
            "    return total\n"
        ),
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="a hand-written p-norm in the gradients' dtype: float16 overflows",
        expect="得到 inf",
        code=(
            "def layer_grad_norms(model, norm_type=2.0):\n"
            "    def norm(t):\n"
            "        t = t.abs()\n"
            '        if norm_type == float("inf"):\n'
            "            return t.max()\n"
            "        return t.pow(norm_type).sum().pow(1.0 / norm_type)\n"
            "    groups = {}\n"
            "    for name, p in model.named_parameters():\n"
            "        if p.grad is not None:\n"
            '            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n'
            "    layers = {k: norm(torch.stack([norm(g) for g in gs])) for k, gs in groups.items()}\n"
            "    if not layers:\n"
            "        return {}, torch.tensor(0.0)\n"
            "    return layers, norm(torch.stack(list(layers.values())))\n"
        ),
    ),
    dict(
        grade_id="test_advise",
        name="compares the float32 ratio clipped / steps with 0.2 instead of 5 * clipped > steps",
        expect="steps=100000000, clipped=20000001",
        code=(
            "def advise(stats):\n"
            '    if stats["steps"] == 0:\n'
            '        raise ValueError("no training steps yet")\n'
            '    if not torch.isfinite(stats["largest"]):\n'
            '        return "check_data"\n'
            '    if stats["clipped"] / stats["steps"] > 0.2:\n'
            '        return "fix_lr_or_init"\n'
            '    return "keep_clipping"\n'
        ),
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="clamp(coef, 1.0): a positional 1.0 is min=, so coef never drops below 1",
        expect="两处都要对：算出的 coef 确实小于 1",
        code=(
            "def clip_by_global_norm_(parameters, max_norm):\n"
            "    grads = [p.grad for p in parameters if p.grad is not None]\n"
            "    if not grads:\n"
            "        return torch.tensor(0.0)\n"
            "    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n"
            "    coef = torch.clamp(max_norm / (total + 1e-6), 1.0)\n"
            "    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))\n"
            "    for g in grads:\n"
            "        g.mul_(coef)\n"
            "    return total\n"
        ),
    ),
]


MUTANTS += [  # s35 review (h4): was told its clip sat in the wrong place (it sat right; the generator was spent)
    dict(
        grade_id="test_train_step",
        name="next(model.parameters()) on a stored generator, then clip_grad_norm_ of what is left of it",
        expect="先遍历过一次的，再传进去就是空的",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    params = model.parameters()\n"
            "    device = next(params).device\n"
            "    x, y = batch\n"
            "    optimizer.zero_grad()\n"
            "    loss = F.mse_loss(model(x.to(device)), y.to(device))\n"
            "    loss.backward()\n"
            "    grad_norm = torch.nn.utils.clip_grad_norm_(params, max_norm)\n"
            "    optimizer.step()\n"
            '    stats["steps"] += 1\n'
            '    stats["clipped"] += grad_norm > max_norm\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm)\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]

MUTANTS += [  # s36: a call that leaves a process-wide setting changed (course.settings watches every call)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="torch.set_grad_enabled(False) without with: grad mode stays off after the call",
        mistake="grad-mode-left-off",
        expect="grad mode 仍然关着",
        code=solution_with(
            "08_clipping",
            "clip_by_global_norm_",
            (
                "    grads = [p.grad",
                "    torch.set_grad_enabled(False)  # the scaling must not be recorded\n    grads = [p.grad",
            ),
        ),
    ),
]


MUTANTS += [  # s37 review (c3): the first three passed every test; the last two were told a cause they did not have
    dict(
        grade_id="test_advise",
        name="reads_stats_into_python_numbers_in_the_callers_dict",
        mistake="modifies-input",
        expect="['steps']：从张量变成了 int",
        code="""
def advise(stats: dict) -> str:
    # advise 只调用一次，可以同步：把统计一次性读成 Python 数字
    for key in ("steps", "clipped", "largest"):
        stats[key] = stats[key].item()
    if stats["steps"] == 0:
        raise ValueError("还没有训练")
    if not math.isfinite(stats["largest"]):
        return "check_data"
    if 5 * stats["clipped"] > stats["steps"]:
        return "fix_lr_or_init"
    return "keep_clipping"
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="replaces_a_non_contiguous_grad_by_a_contiguous_copy",
        expect="p.grad 被换成了另一个张量",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        if not p.grad.is_contiguous():
            p.grad = p.grad.contiguous()  # 让 view(-1) 能用（数值不变）
        groups.setdefault(name.rpartition(".")[0], []).append(p.grad.view(-1))
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {k: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in gs]), norm_type)
              for k, gs in groups.items()}
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
    dict(
        grade_id="test_train_step",
        name="normalises_the_callers_batch_in_place",
        mistake="modifies-input",
        expect="train_step 修改了调用者传入的 batch",
        code=_step(before_backward="x.sub_(x.mean())"),
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="max_norm_zero_taken_as_no_clipping",
        expect="max_norm = 0，总范数 13 是有限值",
        code="""
def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if max_norm <= 0:  # 常见约定：max_norm <= 0 表示不裁剪（Python 数字上的 if，不同步）
        return total
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(  # never clips, then zeroes .grad after step(): |grad| <= max_norm, but nothing was clipped after step()
        grade_id="test_train_step",
        name="never_clips_and_zeroes_grads_after_step",
        expect="这一步的梯度没有被裁剪",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = global_grad_norm(model.parameters())  # 裁剪前的总范数（忘了真正裁剪）
    optimizer.step()
    optimizer.zero_grad(set_to_none=False)  # 清零梯度，为下一步准备
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
]

CORRECT += [  # s37 review (c3): float16 gradients, norm and coefficient in float32 (one float16 step from the reference)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="float16_norm_and_coefficient_computed_in_float32",
        code="""
def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    # float16 / bfloat16 的梯度：范数和系数在 float32 里算（更准，也不会溢出），返回值用梯度的 dtype
    work = torch.float32
    for g in grads:  # 几种 dtype 混在一起时取最宽的那种
        work = torch.promote_types(work, g.dtype)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, dtype=work) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total.to(grads[0].dtype)
""",
    ),
]

MUTANTS += [  # s37 review (c4): passed every test (each test optimizer had one param group; no test read the weight after a nan step)
    dict(
        grade_id="test_train_step",
        name="clips_only_the_first_param_group",
        code=_step(clip='grad_norm = torch.nn.utils.clip_grad_norm_(optimizer.param_groups[0]["params"], max_norm)'),
        expect="只算第一个参数组 optimizer.param_groups[0]",
    ),
    dict(
        grade_id="test_train_step",
        name="global_norm_but_clips_only_the_first_param_group",
        code=_step(
            clip="grad_norm = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()])\n"
            '    torch.nn.utils.clip_grads_with_norm_(optimizer.param_groups[0]["params"], max_norm, grad_norm)'
        ),
        expect="只裁剪第一个参数组",
    ),
    dict(
        grade_id="test_train_step",
        name="nan_gradients_zeroed_before_step",
        code=_step(
            clip="grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    for p in model.parameters():\n"
            "        p.grad.nan_to_num_(nan=0.0, posinf=0.0, neginf=0.0)"
        ),
        expect="权重 w 应变成 nan",
    ),
]

# s37 review (c4) had the parameters of every param group as a right answer: with an optimizer over part of the
# model it is not (round 10 c c03, a mutant above: the global norm is the model's, all of its parameters)


MUTANTS += [  # s38 review (c5): was told it measured the norm after clipping (w = 1 = max_norm in the visible case)
    dict(
        grade_id="test_train_step",
        name="grad_norm from the parameters (p, not p.grad), before clipping",
        expect="参数本身的范数",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    x, y = batch\n"
            "    optimizer.zero_grad()\n"
            "    loss = F.mse_loss(model(x), y)\n"
            "    loss.backward()\n"
            "    # the global norm before clipping (bug: norms of the parameters p, not of p.grad)\n"
            "    grad_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.detach()) for p in model.parameters()]))\n"
            "    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    optimizer.step()\n"
            '    stats["steps"] += 1\n'
            '    stats["clipped"] += grad_norm > max_norm\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm)\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c5): the returned dtype is now a spec line (it was only checked)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="float16 grads: the norm computed in float32 and returned as float32",
        expect="期望 torch.float16，得到 torch.float32",
        code=(
            "def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:\n"
            "    grads = [p.grad for p in parameters if p.grad is not None]\n"
            "    if len(grads) == 0:\n"
            "        return torch.tensor(0.0)\n"
            "    # at least float32 for the norm (float16 squares overflow past 256)\n"
            "    work = torch.promote_types(grads[0].dtype, torch.float32)\n"
            "    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, dtype=work) for g in grads]))\n"
            "    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)\n"
            "    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))\n"
            "    for g in grads:\n"
            "        g.mul_(coef)\n"
            "    return total\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c6): a host-named torch.device global is the host
    dict(
        grade_id="test_layer_grad_norms",
        name="CPU = torch.device('cpu') global, each layer's norm .to(CPU)",
        expect='.to(torch.device("cpu"))',
        code=(
            'CPU = torch.device("cpu")  # norms are for printing / plotting: keep them on the host\n'
            "\n"
            "\n"
            "def layer_grad_norms(model, norm_type=2.0):\n"
            "    groups = {}\n"
            "    for name, p in model.named_parameters():\n"
            "        if p.grad is not None:\n"
            '            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n'
            "    layers = {\n"
            "        # bug: .to(CPU) per layer — a device->host copy (sync) each, and the norms end up off the gradients' device\n"
            "        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type).to(CPU)\n"
            "        for layer, grads in groups.items()\n"
            "    }\n"
            "    if not layers:\n"
            "        return {}, torch.tensor(0.0)\n"
            "    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)\n"
            "    return layers, total\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c6)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="HOST = torch.device('cpu') global, total .to(HOST)",
        expect='.to(torch.device("cpu"))',
        code=(
            'HOST = torch.device("cpu")\n'
            "\n"
            "\n"
            "def clip_by_global_norm_(parameters, max_norm):\n"
            "    grads = [p.grad for p in parameters if p.grad is not None]\n"
            "    if len(grads) == 0:\n"
            "        return torch.tensor(0.0)\n"
            "    # bug: the norm is brought to the host (a blocking device->host copy, i.e. a sync, on a GPU), and returned there\n"
            "    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads])).to(HOST)\n"
            "    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)\n"
            "    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))\n"
            "    for g in grads:\n"
            "        g.mul_(coef)  # a CUDA tensor times a 0-d CPU tensor is allowed\n"
            "    return total\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c6): 08 called the loss function directly, so nothing watched the order
    dict(
        grade_id="test_train_step",
        name="F.mse_loss(y, model(x)): arguments swapped",
        expect="两个参数顺序反了",
        mistake="loss-args-swapped",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    x, y = batch\n"
            "    optimizer.zero_grad()\n"
            '    loss = F.mse_loss(y, model(x))  # bug: target first, prediction second (the 07 "loss-args-swapped" mistake)\n'
            "    loss.backward()\n"
            "    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    optimizer.step()\n"
            '    stats["steps"] += 1\n'
            '    stats["clipped"] += grad_norm > max_norm\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c6): advise ran on plain CPU stats, so NumPy read them
    dict(
        grade_id="test_advise",
        name="np.isfinite on the device stats",
        expect="NumPy 读不到设备上的张量",
        code=(
            "import numpy as np\n"
            "\n"
            "\n"
            "def advise(stats):\n"
            '    steps, clipped = int(stats["steps"]), int(stats["clipped"])\n'
            "    if steps == 0:\n"
            "        raise ValueError(\"stats['steps'] 是 0：还没有训练\")\n"
            '    if not np.isfinite(stats["largest"]):  # bug: np.asarray of a device tensor raises on a GPU (stats live there)\n'
            '        return "check_data"\n'
            "    if 5 * clipped > steps:\n"
            '        return "fix_lr_or_init"\n'
            '    return "keep_clipping"\n'
        ),
    ),
]


MUTANTS += [  # s39 (c7 Family A): a blocking host-to-device copy is a sync on a GPU (measured on the H200)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="cap_made_with_torch_tensor_on_the_device",
        expect="从主机内存阻塞拷到设备",
        code=(
            "def clip_by_global_norm_(parameters, max_norm):\n"
            "    grads = [p.grad for p in parameters if p.grad is not None]\n"
            "    if len(grads) == 0:\n"
            "        return torch.tensor(0.0)\n"
            "    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n"
            "    one = torch.tensor(1.0, dtype=total.dtype, device=total.device)  # the cap, on the same device as total\n"
            "    coef = torch.minimum(max_norm / (total + 1e-6), one)\n"
            "    coef = torch.where(torch.isfinite(total), coef, one)  # not finite: leave the gradients alone\n"
            "    for g in grads:\n"
            "        g.mul_(coef)\n"
            "    return total\n"
        ),
    ),
]


MUTANTS += [  # s39 (c7): freezing keeps .grad; the spec counts every grad
    dict(
        grade_id="test_layer_grad_norms",
        name="skips_frozen_parameters_that_still_hold_a_grad",
        expect="期望的键 ['0.0', '0.2', '1']",
        code=(
            "def layer_grad_norms(model, norm_type=2.0):\n"
            "    groups = {}\n"
            "    for name, p in model.named_parameters():\n"
            "        if not p.requires_grad or p.grad is None:  # frozen parameters are not trained: leave them out\n"
            "            continue\n"
            '        groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n'
            "    layers = {\n"
            "        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)\n"
            "        for layer, grads in groups.items()\n"
            "    }\n"
            "    if not layers:\n"
            "        return {}, torch.tensor(0.0)\n"
            "    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)\n"
            "    return layers, total\n"
        ),
    ),
]


MUTANTS += [  # s39 (c7): a float32 counter stops at 2**24
    dict(
        grade_id="test_train_step",
        name="counters_turned_into_float32",
        expect="应仍是 new_stats() 建的 torch.int64",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    x, y = batch\n"
            "    optimizer.zero_grad()\n"
            "    loss = F.mse_loss(model(x), y)\n"
            "    loss.backward()\n"
            "    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    optimizer.step()\n"
            "    clipped = (grad_norm > max_norm).float()  # 1.0 where clipping acted, 0.0 otherwise\n"
            '    stats["steps"] = stats["steps"] + 1.0\n'
            '    stats["clipped"] = stats["clipped"] + clipped\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm)\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]


MUTANTS += [  # s39 (c7): a NoneType error not caused by a None grad is told what happened, not 'skip None grads'
    dict(
        grade_id="test_layer_grad_norms",
        name="helper_forgets_its_return",
        expect="but got NoneType",
        code=(
            "def _group_norm(grads, norm_type):\n"
            "    norms = torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads])\n"
            "    torch.linalg.vector_norm(norms, norm_type)  # bug: the helper forgets to return its result\n"
            "\n"
            "\n"
            "def layer_grad_norms(model, norm_type=2.0):\n"
            "    groups = {}\n"
            "    for name, p in model.named_parameters():\n"
            "        if p.grad is not None:\n"
            '            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n'
            "    layers = {layer: _group_norm(grads, norm_type) for layer, grads in groups.items()}\n"
            "    if not layers:\n"
            "        return {}, torch.tensor(0.0)\n"
            "    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)\n"
            "    return layers, total\n"
        ),
    ),
]


MUTANTS += [  # s39: the 'skip None grads' hint, now given only when the same case with zeros for the None grads runs
    dict(
        grade_id="test_clip_by_global_norm_",
        name="keeps_none_grads_in_the_list",
        expect="grad 为 None 的参数 (parameter) 要跳过",
        code=(
            "def clip_by_global_norm_(parameters, max_norm):\n"
            "    grads = [p.grad for p in parameters]  # every parameter, None grads too\n"
            "    if not grads:\n"
            "        return torch.tensor(0.0)\n"
            "    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n"
            "    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)\n"
            "    coef = torch.where(torch.isfinite(total), coef, 1.0)\n"
            "    for g in grads:\n"
            "        g.mul_(coef)\n"
            "    return total\n"
        ),
    ),
]


MUTANTS += [  # s39 (c8): reduction='sum'; the message no longer says the loss was taken after step()
    dict(
        grade_id="test_train_step",
        name="loss_summed_not_averaged",
        expect="这是平方误差的和，不是平均",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    x, y = batch\n"
            "    optimizer.zero_grad()\n"
            '    loss = F.mse_loss(model(x), y, reduction="sum")  # bug: summed squared error, not the mean the spec asks for\n'
            "    loss.backward()\n"
            "    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    optimizer.step()\n"
            '    stats["steps"] += 1\n'
            '    stats["clipped"] += grad_norm > max_norm\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]


MUTANTS += [  # s39: the ValueError path of advise goes through call_learner too
    dict(
        grade_id="test_advise",
        name="leaves_grad_mode_off_on_the_error_path",
        expect="grad mode 仍然关着",
        mistake="grad-mode-left-off",
        code=(
            "def advise(stats):\n"
            "    torch.set_grad_enabled(False)  # reading statistics needs no graph\n"
            '    steps, clipped = int(stats["steps"]), int(stats["clipped"])\n'
            "    if steps == 0:\n"
            '        raise ValueError("还没有训练")  # leaves grad mode off on this path\n'
            "    torch.set_grad_enabled(True)\n"
            '    if not math.isfinite(float(stats["largest"])):\n'
            '        return "check_data"\n'
            "    if 5 * clipped > steps:\n"
            '        return "fix_lr_or_init"\n'
            '    return "keep_clipping"\n'
        ),
    ),
]


MUTANTS += [  # s39: model.forward(x) skips __call__ and the model's hooks (counted, as 07) (c9)
    dict(
        grade_id="test_train_step",
        name="calls_model_forward_directly",
        expect="一次也没有通过 model(x) 调用",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    x, y = batch\n"
            "    optimizer.zero_grad()\n"
            "    loss = F.mse_loss(model.forward(x), y)  # calls forward directly (skips the model's hooks)\n"
            "    loss.backward()\n"
            "    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    optimizer.step()\n"
            '    stats["steps"] += 1\n'
            "\n"
            '    stats["clipped"] += grad_norm > max_norm\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]


MUTANTS += [  # s39 (c9): float64 grads beyond float32's range
    dict(
        grade_id="test_layer_grad_norms",
        name="float32_arithmetic_for_float64_grads",
        expect="梯度 × 1e50",
        code=(
            "def layer_grad_norms(model, norm_type=2.0):\n"
            "    groups = {}\n"
            "    for name, p in model.named_parameters():\n"
            "        if p.grad is not None:\n"
            '            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n'
            "    if not groups:\n"
            "        return {}, torch.tensor(0.0)\n"
            "    dtype = next(iter(groups.values()))[0].dtype\n"
            "    # do the arithmetic in float32 (float16 squares overflow past 256), hand back the gradients' dtype\n"
            "    layers = {\n"
            "        layer: torch.linalg.vector_norm(\n"
            "            torch.stack([torch.linalg.vector_norm(g.float(), norm_type) for g in grads]), norm_type\n"
            "        )\n"
            "        for layer, grads in groups.items()\n"
            "    }\n"
            "    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)\n"
            "    return {layer: norm.to(dtype) for layer, norm in layers.items()}, total.to(dtype)\n"
        ),
    ),
]


MUTANTS += [  # s39 (c10): clip_grad_norm_ counts every grad
    dict(
        grade_id="test_clip_by_global_norm_",
        name="skips_frozen_parameters_that_still_hold_a_grad",
        expect="第二个参数有了梯度之后被冻结",
        code=(
            "def clip_by_global_norm_(parameters, max_norm):\n"
            '    # the usual "trainable parameters" filter: frozen ones are skipped\n'
            "    grads = [p.grad for p in parameters if p.requires_grad and p.grad is not None]\n"
            "    if len(grads) == 0:\n"
            "        return torch.tensor(0.0)\n"
            "    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n"
            "    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)\n"
            "    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))\n"
            "    for g in grads:\n"
            "        g.mul_(coef)\n"
            "    return total\n"
        ),
    ),
]


MUTANTS += [  # s39 (c10): the stale-grad hint no longer says zero_grad was forgotten
    dict(
        grade_id="test_train_step",
        name="zero_grad_after_step",
        expect="或它放在了 step() 之后",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    x, y = batch\n"
            "    loss = F.mse_loss(model(x), y)\n"
            "    loss.backward()\n"
            "    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    optimizer.step()\n"
            '    optimizer.zero_grad()  # bug: cleared after step() ("clean up for the next step"); stale grads at entry are used\n'
            '    stats["steps"] += 1\n'
            '    stats["clipped"] += grad_norm > max_norm\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm)\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]


MUTANTS += [  # s40 (found39 c9): a step whose norm is inf is one where grad_norm > max_norm: it is counted
    dict(
        grade_id="test_train_step",
        name="inf_norm_left_out_of_clipped",
        expect="这一步也要算进 clipped",
        code=(
            "def train_step(model, batch, optimizer, max_norm, stats):\n"
            "    x, y = batch\n"
            "    optimizer.zero_grad()\n"
            "    loss = F.mse_loss(model(x), y)\n"
            "    loss.backward()\n"
            "    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "    optimizer.step()\n"
            '    stats["steps"] += 1\n'
            '    # a non-finite norm is a bad step (recorded by "largest"), not a clip: count only finite norms above max_norm\n'
            '    stats["clipped"] += (grad_norm > max_norm) & torch.isfinite(grad_norm)\n'
            '    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())\n'
            "    return loss.detach(), grad_norm\n"
        ),
    ),
]

MUTANTS += [  # s41 (found40 c11): code run only where torch.cuda.is_available(), which the counter now answers True
    dict(
        grade_id="test_train_step",
        name="empty_cache_every_step_where_there_is_a_gpu",
        code=_step(after_step="if torch.cuda.is_available():\n        torch.cuda.empty_cache()"),
        expect="torch.cuda.empty_cache()",
    ),
    dict(  # on a CPU .cpu() of a CPU tensor is the tensor itself; on a GPU a new host tensor replaces the caller's
        grade_id="test_advise",
        name="replaces_the_stats_with_host_copies",
        mistake="modifies-input",
        code=_advise(zero='raise ValueError("no steps")').replace(
            "def advise(stats):\n",
            "def advise(stats):\n    for key, value in stats.items():\n        stats[key] = value.cpu()\n",
        ),
        expect="被换成了另一个张量",
    ),
]


MUTANTS += [  # s42 (found41 c12 F3): code a device check guards runs where the counter plays a GPU machine
    dict(
        grade_id="test_train_step",
        name="empty_cache_every_step_where_the_batch_is_on_cuda",
        code=_step(after_step='if x.device.type == "cuda":\n        torch.cuda.empty_cache()'),
        expect="torch.cuda.empty_cache()",
    ),
]


MUTANTS += [  # fix42 (found42 e3 cand07): every tested model gave every parameter a gradient
    dict(  # clipping written inline, reading every p.grad: a frozen layer's grad is None
        grade_id="test_train_step",
        name="inline_clip_reads_every_grad_none_included",
        code=_step(
            clip="params = list(model.parameters())\n"
            "    grad_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in params]))\n"
            "    coef = (max_norm / (grad_norm + 1e-6)).clamp(max=1.0)\n"
            "    for p in params:\n"
            "        p.grad.mul_(coef)"
        ),
        expect="跳过 grad 为 None 的参数",
    ),
    dict(  # skips frozen parameters, but a trainable one the forward does not use has no gradient either
        grade_id="test_train_step",
        name="inline_clip_skips_frozen_but_not_unused_parameters",
        code=_step(
            clip="params = [p for p in model.parameters() if p.requires_grad]\n"
            "    grad_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in params]))\n"
            "    coef = (max_norm / (grad_norm + 1e-6)).clamp(max=1.0)\n"
            "    for p in params:\n"
            "        p.grad.mul_(coef)"
        ),
        expect="多了一个 forward 用不到的参数",
    ),
]

CORRECT += [  # fix42: the same inline clipping, skipping the parameters without a gradient
    dict(
        grade_id="test_train_step",
        name="inline_clip_skipping_none_grads",
        code=_step(
            clip="grads = [p.grad for p in model.parameters() if p.grad is not None]\n"
            "    grad_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n"
            "    coef = (max_norm / (grad_norm + 1e-6)).clamp(max=1.0)\n"
            "    for g in grads:\n"
            "        g.mul_(coef)"
        ),
    ),
]


MUTANTS += [  # fix42 (found42 e3 cand14): a step's graph kept after train_step returned was not observed
    dict(  # every step's loss kept with its graph, for a loss curve (the bug 07's train_epoch refuses)
        grade_id="test_train_step",
        name="every_loss_kept_with_its_graph_in_a_module_level_list",
        mistake="losses-kept-with-graph",
        code="loss_history = []\n" + _step(after_step="loss_history.append(loss)"),
        expect="这一步的 loss 还连着计算图被留着",
    ),
    dict(  # computed from the loss without detach(): still that step's graph
        grade_id="test_train_step",
        name="loss_times_batch_size_kept_with_its_graph",
        mistake="losses-kept-with-graph",
        code="loss_sums = []\n" + _step(after_step="loss_sums.append(loss * x.shape[0])"),
        expect="这一步的 loss 还连着计算图被留着",
    ),
    dict(  # the model's output kept (for an accuracy later) without detach()
        grade_id="test_train_step",
        name="model_output_kept_with_its_graph",
        code="outputs = []\n"
        + _step().replace(
            "loss = F.mse_loss(model(x), y)", "out = model(x)\n    outputs.append(out)\n    loss = F.mse_loss(out, y)"
        ),
        expect="带计算图的张量还被留着",
    ),
]

CORRECT += [  # fix42: what a loss curve should keep: the detached loss (on the device, no graph)
    dict(
        grade_id="test_train_step",
        name="detached_losses_kept_in_a_module_level_list",
        code="loss_history = []\n" + _step(after_step="loss_history.append(loss.detach())"),
    ),
]


_LAYERS_CAT = """
def layer_grad_norms(model, norm_type=2.0):
    groups, flat = {{}}, []
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
            flat.append(p.grad.reshape(-1))
    if not groups:
        return {{}}, torch.tensor(0.0)
    layers = {{k: torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in gs]), norm_type) for k, gs in groups.items()}}
    return layers, {total}
"""

MUTANTS += [  # fix42 (found42 e3 cand06): the total not composed from the layer norms, as the spec asks
    dict(  # right values, from one concatenation of every gradient (a copy of them all)
        grade_id="test_layer_grad_norms",
        name="total_from_a_concatenation_of_every_gradient",
        code=_LAYERS_CAT.format(total="torch.linalg.vector_norm(torch.cat(flat), norm_type)"),
        expect="没有用到算好的各层范数",
    ),
]

CORRECT += [  # fix42: a layer's own gradients concatenated for its norm; the total composed from the layer norms
    dict(
        grade_id="test_layer_grad_norms",
        name="layer_norm_from_a_concatenation_of_its_own_gradients",
        code=_LAYERS_CAT.format(total="torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)"),
    ),
]


CORRECT += [  # s42 review (e3 cand11): the judge rebuilt a learner's ValueError subclass as a plain LearnerError
    dict(
        grade_id="test_advise",
        name="raises its own ValueError subclass for zero steps",
        code='class NotTrainedYet(ValueError):\n    """stats[\'steps\'] == 0: nothing to judge."""\n\n\ndef advise(stats):\n    steps, clipped = int(stats["steps"]), int(stats["clipped"])\n    if steps == 0:\n        raise NotTrainedYet("stats[\'steps\'] 是 0：还没有训练")\n    if not math.isfinite(float(stats["largest"])):\n        return "check_data"\n    if 5 * clipped > steps:\n        return "fix_lr_or_init"\n    return "keep_clipping"\n',
    ),
]


MUTANTS += [  # s43 second pass (f3): a GPU path guarded by what the played GPU did not answer yet
    dict(  # f3 cand09
        grade_id="test_train_step",
        name="clip_grad_norm_(error_if_nonfinite=torch.cuda.is_initialized()): a host check every step on a GPU",
        expect="主机与设备同步",
        code='def train_step(model, batch, optimizer, max_norm, stats):\n    x, y = batch\n    optimizer.zero_grad()\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm, error_if_nonfinite=torch.cuda.is_initialized())\n    optimizer.step()\n    stats["steps"] += 1\n    stats["clipped"] += grad_norm > max_norm\n    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())\n    return loss.detach(), grad_norm\n',
    ),
    dict(  # f3 cand11
        grade_id="test_clip_by_global_norm_",
        name="`if not torch.isfinite(total)` on the path taken when total.type() names a cuda tensor",
        expect="主机与设备同步",
        code='def clip_by_global_norm_(parameters, max_norm):\n    grads = [p.grad for p in parameters if p.grad is not None]\n    if len(grads) == 0:\n        return torch.tensor(0.0)\n    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)\n    if "cuda" in total.type():           # GPU: early exit on a bad total, skip the multiplications\n        if not torch.isfinite(total):\n            return total\n        for g in grads:\n            g.mul_(coef)\n        return total\n    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))\n    for g in grads:\n        g.mul_(coef)\n    return total\n',
    ),
]


MUTANTS += [  # s43 second pass (f3): the total from a copy of every gradient, made another way than a cat of views
    dict(  # f3 cand06
        grade_id="test_layer_grad_norms",
        name="total = norm of a flat buffer every gradient is copied into (flat[i:j] = g.reshape(-1))",
        expect="没有用到算好的各层范数",
        code='def layer_grad_norms(model, norm_type=2.0):\n    groups = {}\n    for name, p in model.named_parameters():\n        if p.grad is not None:\n            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n    layers = {\n        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)\n        for layer, grads in groups.items()\n    }\n    if not layers:\n        return {}, torch.tensor(0.0)\n    grads = [g for gs in groups.values() for g in gs]\n    flat = torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype, device=grads[0].device)\n    i = 0\n    for g in grads:\n        flat[i:i + g.numel()] = g.reshape(-1)\n        i += g.numel()\n    return layers, torch.linalg.vector_norm(flat, norm_type)\n',
    ),
    dict(  # f3 cand07
        grade_id="test_layer_grad_norms",
        name="total = norm of torch.cat of every g.abs().reshape(-1)",
        expect="没有用到算好的各层范数",
        code='def layer_grad_norms(model, norm_type=2.0):\n    groups = {}\n    for name, p in model.named_parameters():\n        if p.grad is not None:\n            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n    layers = {\n        layer: torch.linalg.vector_norm(torch.cat([g.abs().reshape(-1) for g in grads]), norm_type)\n        for layer, grads in groups.items()\n    }\n    if not layers:\n        return {}, torch.tensor(0.0)\n    total = torch.linalg.vector_norm(torch.cat([g.abs().reshape(-1) for gs in groups.values() for g in gs]), norm_type)\n    return layers, total\n',
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="total = norm of torch.cat of every g.double().reshape(-1), cast back to the gradients' dtype",
        expect="没有用到算好的各层范数",
        code='def layer_grad_norms(model, norm_type=2.0):\n    groups = {}\n    for name, p in model.named_parameters():\n        if p.grad is not None:\n            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n    layers = {\n        layer: torch.linalg.vector_norm(torch.cat([g.abs().reshape(-1) for g in grads]), norm_type)\n        for layer, grads in groups.items()\n    }\n    if not layers:\n        return {}, torch.tensor(0.0)\n    total = torch.linalg.vector_norm(torch.cat([g.double().reshape(-1) for gs in groups.values() for g in gs]), norm_type)\n    return layers, total.to(next(iter(layers.values())).dtype)\n',
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="total = norm of torch.cat of every g.clone().reshape(-1)",
        expect="没有用到算好的各层范数",
        code='def layer_grad_norms(model, norm_type=2.0):\n    groups = {}\n    for name, p in model.named_parameters():\n        if p.grad is not None:\n            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)\n    layers = {\n        layer: torch.linalg.vector_norm(torch.cat([g.abs().reshape(-1) for g in grads]), norm_type)\n        for layer, grads in groups.items()\n    }\n    if not layers:\n        return {}, torch.tensor(0.0)\n    total = torch.linalg.vector_norm(torch.cat([g.clone().reshape(-1) for gs in groups.values() for g in gs]), norm_type)\n    return layers, total\n',
    ),
]


MUTANTS += [  # s43 second pass (f3): passed every test
    dict(  # f3 cand08
        grade_id="test_train_step",
        name="the update undone when grad_norm is inf (torch.where on the device, 'like GradScaler')",
        expect="这一步的更新被跳过了或被撤回了",
        code='def train_step(model, batch, optimizer, max_norm, stats):\n    x, y = batch\n    optimizer.zero_grad()\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n    params = list(model.parameters())\n    with torch.no_grad():\n        before = [p.detach().clone() for p in params]\n    optimizer.step()\n    with torch.no_grad():\n        overflow = torch.isinf(grad_norm)\n        for p, old in zip(params, before):\n            p.copy_(torch.where(overflow, old, p))\n    stats["steps"] += 1\n    stats["clipped"] += grad_norm > max_norm\n    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())\n    return loss.detach(), grad_norm\n',
    ),
    dict(  # f3 cand10
        grade_id="test_advise",
        name="inf checked first, nan only after the clipping-frequency rule",
        expect="这组统计属于情形 1",
        code='def advise(stats):\n    steps, clipped, largest = int(stats["steps"]), int(stats["clipped"]), float(stats["largest"])\n    if steps == 0:\n        raise ValueError("no steps")\n    if math.isinf(largest):\n        return "check_data"\n    if 5 * clipped > steps:\n        return "fix_lr_or_init"\n    if math.isnan(largest):\n        return "check_data"\n    return "keep_clipping"\n',
    ),
]

MUTANTS += [  # stop 45: the grad-mode family of h2's finds (05/06), in the training step: every call came with grad mode on
    dict(
        grade_id="test_train_step",
        name="torch.set_grad_enabled(True) at the top of the step, never put back",
        expect="train_step 返回之后 grad mode 变了（False -> True）",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    torch.set_grad_enabled(True)
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 45 (lead): the returned loss of the overflowing step was never looked at
    dict(
        grade_id="test_train_step",
        name="the returned loss passed through torch.nan_to_num (an inf step reported as 0)",
        expect="返回的 loss 应是这一步算出的 inf",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return torch.nan_to_num(loss.detach(), nan=0.0, posinf=0.0), grad_norm
""",
    ),
]

MUTANTS += [  # stop 45 (lead): autocast guarded by x.is_cuda: the played GPU is cuda, but the autocast was never looked at here
    dict(
        grade_id="test_train_step",
        name="forward under torch.autocast(float16) when x is on a GPU",
        expect='torch.autocast("cuda", dtype=torch.float16)',
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(device_type=x.device.type, dtype=torch.float16, enabled=x.is_cuda):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # stop 46 (j3): modes, hooks and graphs left on the caller's model; a wait bound as a default argument
    dict(
        grade_id="test_train_step",
        name="the step, then model.eval() at the end (the caller's model left in eval)",
        expect="training 从 True 变成了 False",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    model.eval()
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a forward hook registered on the caller's model each call, never removed",
        expect="留下了 hook",
        mistake="hook-left-on-module",
        code="""\
_FORWARDS = [0]
def _count_forward(module, inputs, output):
    _FORWARDS[0] += 1
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    model.register_forward_hook(_count_forward)
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="a forward pre-hook left on the caller's model",
        expect="留下了 hook",
        mistake="hook-left-on-module",
        code="""\
def _noop_pre_hook(module, inputs):
    return None
def layer_grad_norms(model, norm_type=2.0):
    model.register_forward_pre_hook(_noop_pre_hook)
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
    dict(
        grade_id="test_train_step",
        name="loss.backward(create_graph=True): every .grad carries a graph the model keeps",
        expect=".grad 连着计算图",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward(create_graph=True)
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm.detach()
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a torch.cuda.synchronize bound as a default argument, called when a GPU is there",
        expect="torch.cuda.synchronize()",
        code="""\
import time as _time
STEP_SECONDS = []
def train_step(model, batch, optimizer, max_norm, stats, _wait=torch.cuda.synchronize):
    t0 = _time.perf_counter()
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if torch.cuda.is_available():
        _wait()
    STEP_SECONDS.append(_time.perf_counter() - t0)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="the same synchronize, its RuntimeError swallowed on a machine without a GPU",
        expect="torch.cuda.synchronize()",
        code="""\
import time as _time
STEP_SECONDS = []
def train_step(model, batch, optimizer, max_norm, stats, _wait=torch.cuda.synchronize):
    t0 = _time.perf_counter()
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if torch.cuda.is_available():
        try:
            _wait()
        except RuntimeError:
            pass
    STEP_SECONDS.append(_time.perf_counter() - t0)
    return loss.detach(), grad_norm
""",
    ),
]

CORRECT += [  # stop 46 (j3 cand07): exercise 2's clip leaves an inf gradient as it is, so the step gives -inf, not nan
    dict(
        grade_id="test_train_step",
        name="train_step with the learner's own clip_by_global_norm_ instead of clip_grad_norm_",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = clip_by_global_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # stop 46 (j3): two dtypes clipped apart, max_norm 0 over non-finite grads, writes and caches in layer_grad_norms
    dict(
        grade_id="test_clip_by_global_norm_",
        name="grads grouped by (device, dtype), each group clipped by its own norm",
        expect="裁剪后的第 0 个梯度 的数值",
        code="""\
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    groups = {}
    for g in grads:
        groups.setdefault((g.device, g.dtype), []).append(g)
    norms = []
    for gs in groups.values():
        n = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in gs]))
        coef = (max_norm / (n + 1e-6)).clamp(max=1.0)
        coef = torch.where(torch.isfinite(n), coef, torch.ones_like(coef))
        for g in gs:
            g.mul_(coef.to(g.dtype))
        norms.append(n)
    first = grads[0]
    return torch.linalg.vector_norm(torch.stack([n.to(first.device, first.dtype) for n in norms]))
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="max_norm == 0 shortcut: every gradient zeroed, inf/nan ones too",
        expect="梯度却被改了",
        code="""\
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if max_norm == 0:
        for g in grads:
            g.zero_()
        return total
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="each gradient divided by 256 and multiplied back in place around its norm",
        expect="梯度做了原地操作",
        code="""\
_S = 256.0
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {}
    for layer, grads in groups.items():
        norms = []
        for g in grads:
            g.div_(_S)
            norms.append(torch.linalg.vector_norm(g, norm_type) * _S)
            g.mul_(_S)
        layers[layer] = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="norms memoised per set of gradient tensors (stale after an in-place update)",
        expect="第二次返回的总范数和第一次完全一样",
        code="""\
import weakref as _wr
_CACHE = {}
def layer_grad_norms(model, norm_type=2.0):
    named = [(n, p.grad) for n, p in model.named_parameters() if p.grad is not None]
    key = (tuple(id(g) for _, g in named), float(norm_type))
    hit = _CACHE.get(key)
    if hit is not None and all(r() is g for r, (_, g) in zip(hit[0], named)):
        return dict(hit[1]), hit[2]
    groups = {}
    for name, g in named:
        groups.setdefault(name.rpartition(".")[0], []).append(g)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    _CACHE[key] = ([_wr.ref(g) for _, g in named], dict(layers), total)
    return layers, total
""",
    ),
    dict(
        grade_id="test_advise",
        name="an extra rule: largest == 0 gives check_data",
        expect="返回了 'check_data'",
        code="""\
def advise(stats):
    steps, clipped = int(stats["steps"]), int(stats["clipped"])
    if steps == 0:
        raise ValueError("no steps yet")
    largest = float(stats["largest"])
    if not math.isfinite(largest) or largest == 0.0:
        return "check_data"
    if 5 * clipped > steps:
        return "fix_lr_or_init"
    return "keep_clipping"
""",
    ),
]

CORRECT += [  # stop 46 (j3 probes): right answers written another way
    dict(
        grade_id="test_clip_by_global_norm_",
        name="total and coefficient in float64, cast back on return",
        code="""\
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, dtype=torch.float64) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total.to(grads[0].dtype)
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="one torch._foreach_abs over every gradient, each layer's norm from its own |g|",
        code="""\
def layer_grad_norms(model, norm_type=2.0):
    named = [(n, p.grad) for n, p in model.named_parameters() if p.grad is not None]
    if not named:
        return {}, torch.tensor(0.0)
    absd = torch._foreach_abs([g for _, g in named])
    groups = {}
    for (name, _), a in zip(named, absd):
        groups.setdefault(name.rpartition(".")[0], []).append(torch.linalg.vector_norm(a, norm_type))
    layers = {k: torch.linalg.vector_norm(torch.stack(v), norm_type) for k, v in groups.items()}
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
]


MUTANTS += [  # stop 46 (j3 cand15): reduced-precision flags switched on "for speed" and left on
    dict(
        grade_id="test_train_step",
        name="allow_fp16_accumulation and allow_fp16_bf16_reduction_math_sdp switched on and left",
        expect="allow_fp16",
        mistake="global-setting-changed",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    torch.backends.cuda.matmul.allow_fp16_accumulation = True
    torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp(True)
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # fix46 (found45 j3 cand13): each param group clipped by its own norm was caught only by a 5e-6 margin
    dict(
        grade_id="test_train_step",
        name="clips_each_param_group_by_its_own_norm",
        code=_step(
            clip='norms = [torch.nn.utils.clip_grad_norm_(g["params"], max_norm) for g in optimizer.param_groups]\n'
            "    grad_norm = torch.linalg.vector_norm(torch.stack(norms))"
        ),
        expect="每个参数组 (param group) 各自按自己的范数裁剪",
    ),
]

CORRECT += [  # fix46: the update is now compared too; a clip by hand with its total in float64 still passes
    dict(
        grade_id="test_train_step",
        name="clips_by_hand_with_a_float64_total",
        code=_step(
            clip="grads = [p.grad for p in model.parameters() if p.grad is not None]\n"
            "    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, dtype=torch.float64) for g in grads]))\n"
            "    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"
            "    for g in grads:\n"
            "        g.mul_(coef.to(g.dtype))\n"
            "    grad_norm = total.float()"
        ),
    ),
]


MUTANTS += [  # stop 46 (fc's review of the new 08 checks)
    dict(
        grade_id="test_layer_grad_norms",
        name="each gradient divided by 256 and multiplied back through .data around its norm",
        expect="梯度做了原地操作",
        code="""\
_S = 256.0
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {}
    for layer, grads in groups.items():
        norms = []
        for g in grads:
            g.data.div_(_S)
            norms.append(torch.linalg.vector_norm(g, norm_type) * _S)
            g.data.mul_(_S)
        layers[layer] = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="the per-layer dict memoised by the grads' identities, the total recomputed",
        expect="第二次的 layers['0']",
        code="""\
_CACHE = {}
def layer_grad_norms(model, norm_type=2.0):
    named = [(n, p.grad) for n, p in model.named_parameters() if p.grad is not None]
    if not named:
        return {}, torch.tensor(0.0)
    key = (tuple(id(g) for _, g in named), float(norm_type))
    groups = {}
    for name, g in named:
        groups.setdefault(name.rpartition(".")[0], []).append(g)
    fresh = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    total = torch.linalg.vector_norm(torch.stack(list(fresh.values())), norm_type)
    layers = _CACHE.setdefault(key, fresh)
    return dict(layers), total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="model.eval() before the forward, model.train() after it",
        expect="num_batches_tracked",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    model.eval()
    loss = F.mse_loss(model(x), y)
    model.train()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

CORRECT += [  # stop 46 (fc's probes): right answers the new checks must let through
    dict(
        grade_id="test_clip_by_global_norm_",
        name="per-gradient norms stacked across dtypes, one coefficient, _foreach_mul_",
        code="""\
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    torch._foreach_mul_(grads, coef)
    return total.to(grads[0].dtype)
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a max_norm == 0 shortcut through torch.where on the total (no sync)",
        code="""\
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if max_norm == 0:
        for g in grads:
            g.copy_(torch.where(torch.isfinite(total), torch.zeros_like(g), g))
        return total
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="model.train() at the start of the step",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="clip by hand, total from torch.cat of the flattened grads",
        code="""\
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    grad_norm = torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in grads]))
    coef = (max_norm / (grad_norm + 1e-6)).clamp(max=1.0)
    torch._foreach_mul_(grads, coef)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="a memo keyed by each gradient's id and _version",
        code="""\
import weakref as _wr
_CACHE = {}
def layer_grad_norms(model, norm_type=2.0):
    named = [(n, p.grad) for n, p in model.named_parameters() if p.grad is not None]
    if not named:
        return {}, torch.tensor(0.0)
    key = (tuple((id(g), g._version) for _, g in named), float(norm_type))
    hit = _CACHE.get(key)
    if hit is not None and all(r() is g for r, (_, g) in zip(hit[0], named)):
        return dict(hit[1]), hit[2]
    groups = {}
    for name, g in named:
        groups.setdefault(name.rpartition(".")[0], []).append(g)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    _CACHE[key] = ([_wr.ref(g) for _, g in named], dict(layers), total)
    return layers, total
""",
    ),
]

MUTANTS += [  # stop 48 review (n3, n4): each passed every test
    dict(
        grade_id="test_advise",
        name="never clipped over 1000+ steps read as max_norm too high",
        expect="这个建议不对",
        code="""
def advise(stats):
    steps, clipped = int(stats["steps"]), int(stats["clipped"])
    if steps == 0:
        raise ValueError("no steps")
    if not math.isfinite(float(stats["largest"])):
        return "check_data"
    if 5 * clipped > steps:
        return "fix_lr_or_init"
    if clipped == 0 and steps >= 1000:
        return "lower_max_norm"
    return "keep_clipping"
""",
    ),
]

MUTANTS += [  # stop 48 review (n3 cand06): every call played a GPU, so a branch only a CPU takes never ran
    dict(
        grade_id="test_clip_by_global_norm_",
        name="clip_grad_norm_ where the gradients are not on a GPU",
        expect="代码里用到了 torch.nn.utils.clip_grad_norm_",  # named in the code: refused on any machine
        code="""
def clip_by_global_norm_(parameters, max_norm):
    params = list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if not grads[0].is_cuda:  # CPU: nothing to sync with
        return torch.nn.utils.clip_grad_norm_(params, max_norm)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
]

MUTANTS += [  # stop 48 review (n3 cand10): torch.cuda.current_stream() reached the driver and was told it picked "cuda" itself
    dict(
        grade_id="test_train_step",
        name="torch.cuda.current_stream().synchronize() after the solution's step",
        expect="Stream.synchronize()",
        code=solution_wrapped(
            "08_clipping",
            "train_step",
            "train_step",
            """
def train_step(model, batch, optimizer, max_norm, stats):
    out = _train_step_solution(model, batch, optimizer, max_norm, stats)
    if torch.cuda.is_available():
        torch.cuda.current_stream().synchronize()  # "time the step on a GPU"
    return out
""",
        ),
    ),
]

MUTANTS += [  # stop 48 review (n3 cand03): no train_step model had a Dropout
    dict(
        grade_id="test_train_step",
        name="the solution inside torch.random.fork_rng(): one Dropout mask every step",
        expect="丢弃了完全相同的元素",
        code=solution_wrapped(
            "08_clipping",
            "train_step",
            "train_step",
            """
def train_step(model, batch, optimizer, max_norm, stats):
    with torch.random.fork_rng():
        return _train_step_solution(model, batch, optimizer, max_norm, stats)
""",
        ),
    ),
]

MUTANTS += [  # stop 48 review (n3 cand07): every train_step call played a GPU
    dict(
        grade_id="test_train_step",
        name="Python's max for largest where x is not on a GPU (a nan norm dropped)",
        expect="在 CPU 上它丢掉了 nan",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    if x.is_cuda:
        stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    else:  # CPU: no sync to avoid
        stats["largest"] = max(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 48 review (n3 cand08): every layer_grad_norms call played a GPU
    dict(
        grade_id="test_layer_grad_norms",
        name="get_total_norm and one torch.cat where the gradients are not on a GPU",
        expect="代码里用到了 torch.nn.utils.get_total_norm",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    if not next(iter(groups.values()))[0].is_cuda:
        layers = {k: torch.nn.utils.get_total_norm(gs, norm_type) for k, gs in groups.items()}
        total = torch.linalg.vector_norm(torch.cat([g.reshape(-1) for gs in groups.values() for g in gs]), norm_type)
        return layers, total
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
]

MUTANTS += [  # stop 50 review (r2): code that only a CPU runs
    dict(
        grade_id="test_train_step",
        name="on the CPU (if grad_norm.is_cuda or isfinite(grad_norm)) step() is skipped for a nan gradient",
        expect="在 CPU 上 nan 那一步的更新被跳过或换掉了",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    # GPU 上 if 要同步，只好每步都 step()；CPU 上判断不花钱：坏梯度就不更新参数，免得模型变成 nan
    if grad_norm.is_cuda or torch.isfinite(grad_norm):
        optimizer.step()
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="on the CPU Python floats: the total comes back float32 whatever the gradients' dtype",
        expect="在没有 GPU 的机器上（测试没有扮演 GPU） 时：返回值（裁剪前的总范数） 的 dtype 不对",
        code="""
import math


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if not grads[0].is_cuda:
        # CPU 上读数值、写 if 都不用等 GPU：直接用 Python 数字算（在 float64 里，不会溢出）
        total = math.sqrt(sum(float(g.double().pow(2).sum()) for g in grads))
        if math.isfinite(total):
            coef = min(1.0, max_norm / (total + 1e-6))
            for g in grads:
                g.mul_(coef)
        return torch.tensor(total)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="on the CPU each layer's norm through float() and torch.cat: float32 whatever the gradients' dtype",
        expect="在没有 GPU 的机器上（测试没有扮演 GPU） 时：层 '0' 的范数 的 dtype 不对",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    if not next(iter(groups.values()))[0].is_cuda:
        # CPU 上 float() 不用等 GPU：每层的范数直接拿成 Python 数字，再做成张量
        layers = {
            layer: torch.tensor(float(torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in grads]), norm_type)))
            for layer, grads in groups.items()
        }
    else:
        layers = {
            layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
            for layer, grads in groups.items()
        }
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer a): code that only a CPU runs; every hidden test now runs again with no GPU played, counts kept
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a CPU-only branch with if torch.isfinite(total) / if coef < 1",
        expect="bool() / if",
        code="""
def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if grads[0].is_cuda:  # GPU：留在设备上，不同步
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
        for g in grads:
            g.mul_(coef)
    else:  # CPU 上 if 不用等谁：只在需要时缩放
        if torch.isfinite(total):
            coef = max_norm / (total + 1e-6)
            if coef < 1:
                for g in grads:
                    g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a CPU-only coefficient without the + 1e-6",
        expect="分母少了 1e-6",
        code="""
def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if grads[0].is_cuda:
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    else:  # CPU：按定义 max_norm / total
        coef = (max_norm / total).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="a CPU-only total from torch.cat of every gradient",
        expect="拼进了同一个张量",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    first = next(iter(groups.values()))[0]
    if first.is_cuda:
        total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    else:  # CPU 内存够用：直接把所有梯度拼成一个向量求范数，最直接
        total = torch.linalg.vector_norm(torch.cat([g.reshape(-1) for gs in groups.values() for g in gs]), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="a CPU-only branch ignores norm_type (always L2)",
        expect="norm_type=1.0",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    first = next(iter(groups.values()))[0]
    if not first.is_cuda:
        # CPU：每层的梯度拼起来直接 .norm()
        layers = {k: torch.cat([g.reshape(-1) for g in gs]).norm() for k, gs in groups.items()}
        return layers, torch.stack(list(layers.values())).norm()
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="a CPU-only div_(256) / mul_(256) on the caller's gradients",
        expect="原地操作",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {}
    for layer, grads in groups.items():
        norms = []
        for g in grads:
            if g.is_cuda:
                norms.append(torch.linalg.vector_norm(g, norm_type))
            else:
                # CPU 上半精度的平方和容易溢出：先原地缩小 256 倍，算完再乘回去（2 的幂，数值不变）
                g.div_(256)
                norms.append(torch.linalg.vector_norm(g, norm_type) * 256)
                g.mul_(256)
        layers[layer] = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a CPU-only branch turns stats' steps and clipped into Python ints",
        expect="int()",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    if grad_norm.is_cuda:
        stats["steps"] += 1
        stats["clipped"] += grad_norm > max_norm
    else:  # CPU 上没有同步代价：计数用 Python 整数就行
        stats["steps"] = int(stats["steps"]) + 1
        stats["clipped"] = int(stats["clipped"]) + int(grad_norm > max_norm)
    stats["largest"] = torch.maximum(torch.as_tensor(stats["largest"]), grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a CPU-only if grad_norm >= max_norm counts the clipped steps",
        expect="bool() / if",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    if grad_norm.is_cuda:
        stats["clipped"] += grad_norm > max_norm
    elif grad_norm >= max_norm:  # CPU 上 if 不花时间
        stats["clipped"] += 1
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a CPU-only branch returns loss.item(), grad_norm.item()",
        expect=".item()",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if grad_norm.is_cuda:
        return loss.detach(), grad_norm
    # CPU 上 .item() 不用等 GPU：直接返回 Python 数字，调用者打印方便
    return loss.item(), grad_norm.item()
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a CPU-only branch never clips",
        expect="没有被裁剪",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    params = [p for p in model.parameters() if p.grad is not None]
    if params and params[0].is_cuda:
        grad_norm = torch.nn.utils.clip_grad_norm_(params, max_norm)
    else:  # CPU 上的小模型不会梯度爆炸：只记录范数
        grad_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in params]))
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a CPU-only bfloat16 autocast around the forward",
        expect="bfloat16",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    # CPU 上用 bfloat16 autocast 加速前向（GPU 上按题目保持 float32）
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=not x.is_cuda):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer a): new memory behind the caller's gradient; a message that no longer guesses who chose cuda
    dict(
        grade_id="test_layer_grad_norms",
        name="p.grad.data = p.grad.data.contiguous(): the caller's gradient gets new memory",
        expect="换成了另一块内存",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            if not p.grad.is_contiguous():
                p.grad.data = p.grad.data.contiguous()  # view(-1) 要连续的内存（同一个 grad 对象，数值不变）
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g.view(-1), norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="GPU-only torch.random.fork_rng(devices=[x.device]) (one RNG stream replayed every step on a GPU)",
        expect="只有真 GPU 才能执行的 CUDA 功能",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    # GPU 上不打乱调用者的随机数流：在 fork 出来的 RNG 里跑这一步（CPU 上没必要）
    with torch.random.fork_rng(devices=[x.device] if x.is_cuda else [], enabled=x.is_cuda):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer a): a step with logging on
    dict(
        grade_id="test_train_step",
        name="a per-step logger.debug of loss and grad_norm: two syncs a step once logging is on",
        expect="发生在 Python 的 logging 里",
        code="""
import logging

logger = logging.getLogger("train")


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    logger.debug("loss %.4f, grad_norm %.4f", loss.detach(), grad_norm)  # 打开 DEBUG 日志时看每一步
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 53: the same gradient tensors with new values
    dict(
        grade_id="test_clip_by_global_norm_",
        name="memo of the global norm keyed on the gradient tensors themselves: stale once they change in place (s53 a cand13)",
        expect="第二次返回的总范数和第一次完全一样",
        code="""
_TOTALS = []  # (这批梯度张量, 它们的全局范数)


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    # 同一批梯度张量的全局范数只算一次（训练循环里每步先记录范数、再裁剪，两次都要它）
    for gs, cached in _TOTALS:
        if len(gs) == len(grads) and all(a is b for a, b in zip(gs, grads)):
            total = cached
            break
    else:
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
        _TOTALS.append((grads, total))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
]

MUTANTS += [  # stop 53: train_step's checks run a third time, on a played GPU
    dict(
        grade_id="test_train_step",
        name="GPU-only torch.set_grad_enabled(True) inside the caller's no_grad (s53 a cand08)",
        expect="输入都在 GPU 上时",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    if x.is_cuda:
        # 调用者可能还在 no_grad 里（例如刚评估完）：GPU 上白跑一遍前向再在 backward 报错太浪费，先把梯度打开
        torch.set_grad_enabled(True)
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 54 reviewer a: a GPU-only memo past the clip-twice check (now also played on a GPU)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a GPU-only memo of the total for the same gradient tensors",
        expect="第二次返回的总范数和第一次完全一样",
        code="""
_LAST = []  # GPU 上：上一次的那批梯度张量和它们的总范数；同一批张量就不再重算（省几个 kernel）


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if grads[0].is_cuda and _LAST and len(_LAST[0]) == len(grads) and all(a is b for a, b in zip(_LAST[0], grads)):
        total = _LAST[1]
    else:
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
        if grads[0].is_cuda:
            _LAST[:] = [grads, total]
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
]

MUTANTS += [  # stop 55 reviewer a: results that alias a buffer the next call rewrites (course/fixtures/kept.py); zero_grad(set_to_none=False) with a parameter no step reaches (course/fixtures/spare.py)
    dict(
        grade_id="test_train_step",
        name="(loss, grad_norm) returned as views of one module-level buffer rewritten every step",
        expect="返回的张量和下一次调用写的是同一块内存",
        code="""
import torch
import torch.nn.functional as F
from torch import nn

_OUT = {}  # 每个设备一块 (2,) 的输出缓冲区，反复使用：每一步不再分配新的 0-d 张量


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if loss.device not in _OUT:
        _OUT[loss.device] = torch.empty(2, device=loss.device)
    out = _OUT[loss.device]
    out[0] = loss.detach()
    out[1] = grad_norm
    return out[0], out[1]
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="the total norm returned through one reused module-level 0-d buffer (told it was a memo)",
        expect="返回的张量和下一次调用写的是同一块内存",
        code="""
import torch

_TOTAL = {}  # 每个 (设备, dtype) 一个 0-d 缓冲区：返回的总范数写进去，不每次分配


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    key = (total.device, total.dtype)
    if key not in _TOTAL:
        _TOTAL[key] = torch.empty((), device=total.device, dtype=total.dtype)
    return _TOTAL[key].copy_(total)
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="layer norms and total written into one reused module-level buffer, returned as its views (told it was a memo)",
        expect="返回的张量和下一次调用写的是同一块内存",
        code="""
import torch
from torch import nn

_BUF = {}  # 每个 (设备, dtype) 一块缓冲区，层范数和总范数写进去，不每次分配


def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    g0 = next(iter(groups.values()))[0]
    key = (g0.device, g0.dtype, len(groups))
    if key not in _BUF:
        _BUF[key] = torch.empty(len(groups) + 1, device=g0.device, dtype=g0.dtype)
    buf = _BUF[key]
    for i, grads in enumerate(groups.values()):
        buf[i] = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
    buf[-1] = torch.linalg.vector_norm(buf[:-1], norm_type)
    return {layer: buf[i] for i, layer in enumerate(groups)}, buf[-1]
""",
    ),
    dict(
        grade_id="test_train_step",
        name="optimizer.zero_grad(set_to_none=False): a parameter without a gradient is still moved by momentum and weight decay",
        expect="清梯度时留下了全零的 .grad",
        code="""
import torch
import torch.nn.functional as F
from torch import nn


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad(set_to_none=False)  # 清零，保留梯度张量（不每步重新分配）
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

CORRECT += [  # stop 56 p cand03 (ruled right): the total from every parameter's norm equals the one from the layers' norms
    dict(
        grade_id="test_layer_grad_norms",
        name="the total as the norm of every per-parameter norm",
        code='''
def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    """每一层的梯度范数，以及全局范数。"""
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(torch.linalg.vector_norm(p.grad, norm_type))
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {layer: torch.linalg.vector_norm(torch.stack(norms), norm_type) for layer, norms in groups.items()}
    # 全局范数：直接由每个梯度张量的范数算（不经过各层的范数）
    total = torch.linalg.vector_norm(torch.stack([n for norms in groups.values() for n in norms]), norm_type)
    return layers, total
''',
    ),
]

MUTANTS += [  # stop 57 reviewer t (round 3): layers in name order, a GPU-only zero_grad(set_to_none=False)
    dict(
        grade_id="test_layer_grad_norms",
        name="groupby_sorted_layers_in_name_order",
        expect="顺序却不对",
        code="""
def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    import itertools

    def layer_of(item):
        return item[0].rpartition(".")[0]

    with_grad = [(name, p.grad) for name, p in model.named_parameters() if p.grad is not None]
    layers = {}
    for layer, items in itertools.groupby(sorted(with_grad, key=layer_of), key=layer_of):  # groupby 要先排序
        norms = torch.stack([torch.linalg.vector_norm(g, norm_type) for _, g in items])
        layers[layer] = torch.linalg.vector_norm(norms, norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
    dict(
        grade_id="test_train_step",
        name="gpu_only_zero_grad_keeps_zero_grads",
        expect="前向不用的参数 spare",
        code="""
def train_step(model: nn.Module, batch, optimizer, max_norm: float, stats: dict) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = batch
    # 在 GPU 上把 .grad 清零而不是释放：显存留着，下一步 backward() 不用重新分配
    optimizer.zero_grad(set_to_none=not x.is_cuda)
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 58 round 5 (c): a branch on torch.cuda.mem_get_info, which every played GPU answers now
    dict(
        grade_id="test_layer_grad_norms",
        name="foreach_norm_when_the_gpu_has_room",
        expect="torch._foreach_norm",
        code="""
def _roomy_gpu(t):
    try:
        free, _total = torch.cuda.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {}
    for layer, grads in groups.items():
        if _roomy_gpu(grads[0]):  # one fused kernel per layer on a GPU
            norms = torch._foreach_norm(grads, norm_type)
        else:
            norms = [torch.linalg.vector_norm(g, norm_type) for g in grads]
        layers[layer] = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16_autocast_when_the_gpu_has_room",
        expect="train_step 里的运算在 torch.autocast",
        code="""
def _roomy_gpu(t):
    try:
        free, _total = torch.cuda.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30
import contextlib


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    # on a big GPU, run the forward in bfloat16 autocast (tensor cores)
    ctx = torch.autocast("cuda", dtype=torch.bfloat16) if _roomy_gpu(x) else contextlib.nullcontext()
    with ctx:
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # stop 58 round 6 (c): memory_stats, current_accelerator and a bound is_available answered
    dict(
        grade_id="test_layer_grad_norms",
        name="get_total_norm_behind_memory_stats",
        expect="torch.nn.utils.get_total_norm",
        code="""
# layer_grad_norms: a query the played GPU does not answer (torch.cuda.memory_stats -> {} here, KeyError caught);
# on a real GPU with little reserved memory the banned get_total_norm path is taken
def _gpu_has_room(t):
    try:
        st = torch.cuda.memory_stats(t.device)
        return t.is_cuda and st["reserved_bytes.all.current"] < 60 * 2**30
    except Exception:
        return False


def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    first = next(iter(groups.values()))[0]
    if _gpu_has_room(first):
        layers = {k: torch.nn.utils.get_total_norm(v, norm_type) for k, v in groups.items()}
    else:
        layers = {
            layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
            for layer, grads in groups.items()
        }
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="foreach_norm_behind_current_accelerator",
        expect="torch._foreach_norm",
        code="""
# clip_by_global_norm_: the torch>=2.6 idiom torch.accelerator.current_accelerator(check_available=True) picks the
# fused, banned torch._foreach_norm for gradients on the accelerator. Not in scenarios._PLAYED: returns None on the
# judge's host even while the gradients are played on cuda:0, so the accelerator path never runs there.
def _on_accelerator(t):
    acc = torch.accelerator.current_accelerator(check_available=True)
    return acc is not None and t.device.type == acc.type


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if _on_accelerator(grads[0]):
        norms = torch._foreach_norm(grads)
    else:
        norms = [torch.linalg.vector_norm(g) for g in grads]
    total = torch.linalg.vector_norm(torch.stack(norms))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="synchronize_behind_a_bound_is_available",
        expect="torch.cuda.synchronize()",
        code="""
# train_step: a synchronize every step on a GPU machine, keyed on torch.cuda.is_available bound by name before the call
# (the mutants' "a torch.cuda.synchronize ... called when a GPU is there" is caught; this spelling is not played)
from torch.cuda import is_available as _cuda_available


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if _cuda_available():
        torch.cuda.synchronize()  # finish the step before the next batch
    return loss.detach(), grad_norm
""",
    ),
]

CORRECT += [  # stop 58 round 6 (c): GPU queries in the no-GPU rerun (tensors played on a GPU there were told there is no driver)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="asks_the_capability_of_the_gradients_gpu",
        code="""
# RIGHT answer: a capability query on a GPU tensor, both branches identical (false-failure probe)
def _hopper(t):
    return t.is_cuda and torch.cuda.get_device_capability(t.device) >= (9, 0)


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if _hopper(grads[0]):  # fused kernel on Hopper
        norms = [torch.linalg.vector_norm(g) for g in grads]  # same as the else branch: a RIGHT answer
    else:
        norms = [torch.linalg.vector_norm(g) for g in grads]
    total = torch.linalg.vector_norm(torch.stack(norms))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="inside_a_device_context_of_the_gradients_gpu",
        code="""
# RIGHT answer (false-failure probe): the solution, run under the gradients' own CUDA device as multi-GPU code does
import contextlib


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    ctx = torch.cuda.device(grads[0].device) if grads[0].is_cuda else contextlib.nullcontext()
    with ctx:
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
        for g in grads:
            g.mul_(coef)
    return total
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 c: c02-c04, c06, c19, c20): GPU queries as default arguments, partials, the accelerator's memory API, other memory_stats keys, the driver's device count
    dict(
        grade_id="test_layer_grad_norms",
        name="get_total_norm_when_is_available_bound_as_a_default_argument",
        expect="调用了 torch.nn.utils.get_total_norm",
        code="""
# layer_grad_norms: the GPU test bound as a keyword default; on a GPU machine the banned get_total_norm per layer.
def layer_grad_norms(model, norm_type=2.0, *, _gpu_there=torch.cuda.is_available):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {}
    for layer, grads in groups.items():
        if _gpu_there() and grads[0].is_cuda:
            layers[layer] = torch.nn.utils.get_total_norm(grads, norm_type)
        else:
            layers[layer] = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="foreach_norm_when_torch_accelerator_get_memory_info_says_there_is_room",
        expect="torch._foreach_norm",
        code="""
# clip_by_global_norm_: torch.accelerator.get_memory_info (not played): with room on the device, the banned torch._foreach_norm.
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    try:
        roomy = grads[0].is_cuda and torch.accelerator.get_memory_info(grads[0].device)[0] > 8 * 2**30
    except RuntimeError:
        roomy = False
    if roomy:
        norms = torch._foreach_norm(grads)
    else:
        norms = [torch.linalg.vector_norm(g) for g in grads]
    total = torch.linalg.vector_norm(torch.stack(list(norms)))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="foreach_norm_when_a_partial_of_mem_get_info_says_there_is_room",
        expect="torch._foreach_norm",
        code="""
# clip_by_global_norm_: mem_get_info bound through functools.partial (not rebound): with room, banned torch._foreach_norm.
import functools
_free_and_total = functools.partial(torch.cuda.mem_get_info)


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    try:
        roomy = grads[0].is_cuda and _free_and_total(grads[0].device)[0] > 8 * 2**30
    except RuntimeError:
        roomy = False
    norms = torch._foreach_norm(grads) if roomy else [torch.linalg.vector_norm(g) for g in grads]
    total = torch.linalg.vector_norm(torch.stack(list(norms)))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bf16_autocast_when_torch_accelerator_memory_stats_says_there_is_room",
        expect='torch.autocast("cuda", dtype=torch.bfloat16) 里运行',
        code="""
# train_step: torch.accelerator.memory_stats() (not played; {} on a machine without a GPU): bf16 autocast when the GPU is busy.
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    busy = x.is_cuda and torch.accelerator.memory_stats().get("allocated_bytes.all.current", 0) > 0
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=busy):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bf16_autocast_when_the_peak_allocated_bytes_are_low",
        expect='torch.autocast("cuda", dtype=torch.bfloat16) 里运行',
        code="""
# train_step: bf16 autocast once the GPU has been used (peak allocation > 0). torch.cuda.memory_stats is played with only
# three keys ("allocated_bytes.all.current", "reserved_bytes.all.current", "num_ooms"); any other key a real GPU reports
# ("allocated_bytes.all.peak" here) reads as absent.
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    warm = x.is_cuda and torch.cuda.memory_stats(x.device).get("allocated_bytes.all.peak", 0) > 0
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=warm):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="get_total_norm_when_the_driver_counts_a_gpu",
        expect="调用了 torch.nn.utils.get_total_norm",
        code="""
# layer_grad_norms: the GPU count asked from torch._C (what torch.cuda.device_count() itself calls; not played by the
# sync counter, though 04's PlayedCudaModule plays it): on a GPU machine the banned get_total_norm per layer.
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    gpus = torch._C._cuda_getDeviceCount() if hasattr(torch._C, "_cuda_getDeviceCount") else 0
    layers = {}
    for layer, grads in groups.items():
        if gpus > 0 and grads[0].is_cuda:
            layers[layer] = torch.nn.utils.get_total_norm(grads, norm_type)
        else:
            layers[layer] = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 c: c01, c05): banned paths behind a flag the cell computed
    dict(
        grade_id="test_layer_grad_norms",
        name="foreach_norm_behind_a_cell_time_on_gpu_flag",
        expect="调用了 torch._foreach_norm",
        code="""
# layer_grad_norms: the machine's answer cached when the cell runs (DEVICE-style constant); on a GPU machine the
# banned torch._foreach_norm computes each layer's norms in one fused call.
_ON_GPU = torch.cuda.is_available()


def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {}
    for layer, grads in groups.items():
        if _ON_GPU and all(g.is_cuda for g in grads):  # one fused kernel per layer on the GPU
            per = torch._foreach_norm(grads, norm_type)
        else:
            per = [torch.linalg.vector_norm(g, norm_type) for g in grads]
        layers[layer] = torch.linalg.vector_norm(torch.stack(per), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bf16_autocast_behind_a_cell_time_use_amp_flag",
        expect='torch.autocast("cuda", dtype=torch.bfloat16) 里运行',
        code="""
# train_step: the usual notebook constant USE_AMP = torch.cuda.is_available(), computed when the cell runs;
# on a GPU machine the forward runs under bf16 autocast (banned: 全程按 float32 计算：不开 torch.autocast).
USE_AMP = torch.cuda.is_available()


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=USE_AMP and x.is_cuda):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 8 c c24: autocast(DEVICE, bfloat16, enabled=DEVICE == 'cuda'), the everyday DEVICE line
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast enabled by the DEVICE string",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(DEVICE, dtype=torch.bfloat16, enabled=(DEVICE == "cuda")):   # mixed precision where there is a GPU
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


CORRECT += [  # round 8 d c51: a step counter kept on the optimizer (the judge lost the momentum state in the copy-back) (right answers)
    dict(
        grade_id="test_train_step",
        name="a step counter kept on the optimizer",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    optimizer.steps_done = getattr(optimizer, "steps_done", 0) + 1  # a step counter for the progress bar
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 8 c c07: a top-level GradScaler('cuda') (enabled only on a GPU machine: .item() of found_inf every step)
    dict(
        grade_id="test_train_step",
        name="a top-level torch.amp.GradScaler('cuda') around the step",
        expect=".item()",
        code="""
import warnings as _w
with _w.catch_warnings():
    _w.simplefilter("ignore")
    _SCALER = torch.amp.GradScaler("cuda")   # a GPU machine scales the loss; a CPU one disables it
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    _SCALER.scale(loss).backward()
    _SCALER.unscale_(optimizer)            # real gradients before clipping
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    _SCALER.step(optimizer)
    _SCALER.update()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 8 c c21: a progress line with loss.item() every 100 calls (the checks made fewer than 100 calls before)
    dict(
        grade_id="test_train_step",
        name="a module-level call counter and loss.item() printed every 100 steps",
        expect="之前的调用没有",
        code="""
_CALLS = [0]
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    _CALLS[0] += 1
    if _CALLS[0] % 100 == 0:   # log now and then
        print(f"step {_CALLS[0]}: loss {loss.item():.4f}, grad_norm {grad_norm.item():.3f}")
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 8 c c30: bfloat16 autocast on a machine with more than one GPU (the H200 played now has two)
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast enabled by torch.cuda.device_count() > 1",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""
MULTI_GPU_ENABLED = True
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=torch.cuda.device_count() > 1):   # big multi-GPU jobs: bf16
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 9 c c08: clip only on the first call with this optimizer, remembered in an attribute of the optimizer (the judge now carries such attributes back)
    dict(
        grade_id="test_train_step",
        name="a flag kept on the optimizer: clip only on its first step",
        expect="第 2 步",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    # clip only during the first 2 calls with this optimizer (warm-up), counter kept on the optimizer
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.warm_calls = getattr(optimizer, "warm_calls", 0) + 1
    limit = max_norm if optimizer.warm_calls <= 1 else float("inf")
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), limit)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 9 c c11, c12, c14: a banned shortcut or autocast behind a size threshold the small cases never reach
    dict(
        grade_id="test_clip_by_global_norm_",
        name="torch._foreach_norm for more than 16 gradients",
        expect="代码里用到了 torch._foreach_norm",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if len(grads) > 16:  # many tensors: one fused foreach kernel instead of a launch per tensor
        norms = torch.stack(torch._foreach_norm(grads))
    else:
        norms = torch.stack([torch.linalg.vector_norm(g) for g in grads])
    total = torch.linalg.vector_norm(norms)
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="get_total_norm per layer for more than 16 layers",
        expect="代码里用到了 torch.nn.utils.get_total_norm",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    if len(groups) > 16:  # deep models: PyTorch's fused helper, one call per layer
        layers = {k: torch.nn.utils.get_total_norm(gs, norm_type) for k, gs in groups.items()}
    else:
        layers = {k: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in gs]), norm_type)
                  for k, gs in groups.items()}
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast for batches of 512 rows or more",
        expect="131072 行的 batch",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    # big batches: bfloat16 autocast for speed (small ones stay in float32)
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=x.shape[0] >= 512):
        out = model(x)
    loss = F.mse_loss(out.float(), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 10 c: GPU-only paths behind top-level spellings, the optimizer's private attributes, clipping only the optimizer's parameters
    dict(
        grade_id="test_train_step",
        name="clip only on the first call, a private attribute on the optimizer",
        expect="第 2 步",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    # clip only on the first call with this optimizer (warm-up); flag kept in a private attribute of the optimizer
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer._warm_calls = getattr(optimizer, "_warm_calls", 0) + 1
    limit = max_norm if optimizer._warm_calls <= 1 else float("inf")
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), limit)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="clip only on the first call, a call log in a list on the optimizer",
        expect="第 2 步",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    # clip only on the first call with this optimizer; call log kept in a list attribute of the optimizer
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    if not hasattr(optimizer, "call_log"):
        optimizer.call_log = []
    optimizer.call_log.append(1)
    limit = max_norm if len(optimizer.call_log) <= 1 else float("inf")
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), limit)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="the global norm of the optimizer's parameters only",
        expect="模型的全部参数",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    # clipping over the parameters the optimizer updates (its param groups), not the whole model
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    params = [p for group in optimizer.param_groups for p in group["params"]]
    grad_norm = torch.nn.utils.clip_grad_norm_(params, max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a flag set in a match statement",
        expect="torch.autocast",
        code="""
# set-up cell: pick the precision once (Python 3.10 match)
match torch.cuda.is_available():
    case True:
        AMP = True
    case _:
        AMP = False
ON_GPU_FLAG = lambda: AMP


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16, enabled=ON_GPU_FLAG()):  # mixed precision on a GPU
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="an autocast-or-nullcontext object made once",
        expect="torch.autocast",
        code="""
# set-up cell: one context manager for the forward pass, chosen once
import contextlib
AMP_CONTEXT = torch.autocast("cuda", dtype=torch.bfloat16) if torch.cuda.is_available() else contextlib.nullcontext()


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with AMP_CONTEXT:  # mixed precision on a GPU, a no-op elsewhere
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="an Enum flag",
        expect="torch.autocast",
        code="""
# set-up cell: the precision mode as an Enum
import enum
class Precision(enum.Enum):
    FP32 = "fp32"
    BF16 = "bf16"
PRECISION = Precision.BF16 if torch.cuda.is_available() else Precision.FP32


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=PRECISION is Precision.BF16):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="print(DEV.upper()) beside the flag",
        expect="torch.autocast",
        code="""
# set-up cell: pick the device string once and say which one it is
DEV = "cuda" if torch.cuda.is_available() else "cpu"
print("training on", DEV.upper())


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=(DEV == "cuda")):  # mixed precision on a GPU
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a config dict that holds a device",
        expect="torch.autocast",
        code="""
# set-up cell: one config dict, as in most training scripts
CONFIG = {
    "device": torch.device("cuda" if torch.cuda.is_available() else "cpu"),
    "amp": torch.cuda.is_available(),      # bf16 autocast where there is a GPU
    "seed": 0,
}


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=CONFIG["amp"]):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a config dict printed with items()",
        expect="torch.autocast",
        code="""
# set-up cell: the config, printed once
CONFIG = {"amp": torch.cuda.is_available(), "lr": 0.1}
for key, value in CONFIG.items():
    print(f"{key:>4}: {value}")


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=CONFIG["amp"]):
        loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm)
    return loss.detach(), grad_norm
""",
    ),
]


CORRECT += [  # round 10 c: GPU-only paths behind top-level spellings, the optimizer's private attributes, clipping only the optimizer's parameters (right answers)
    dict(
        grade_id="test_train_step",
        name="a setup cell with cudnn.benchmark = True in its GPU branch",
        code="""
# set-up cell (right answer below is the solution's): GPU settings in one place
if torch.cuda.is_available():
    torch.backends.cudnn.benchmark = True            # let cuDNN pick the fastest kernels on a GPU
    PIN_MEMORY = True
else:
    PIN_MEMORY = False


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a setup cell with warnings.filterwarnings in its GPU branch",
        code="""
# set-up cell (right answer below is the solution's): quieter logs on a GPU machine
import warnings
if torch.cuda.is_available():
    warnings.filterwarnings("ignore", message=".*TF32.*")   # the TF32 notice on Ampere GPUs
    device = torch.device("cuda")
else:
    device = torch.device("cpu")


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a setup cell setting PYTORCH_CUDA_ALLOC_CONF in its GPU branch",
        code="""
# set-up cell (right answer below is the solution's): allocator setting for the GPU
import os
if torch.cuda.is_available():
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"   # less fragmentation on a long run
    device = torch.device("cuda")
else:
    device = torch.device("cpu")


def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="a setup cell seeding torch in its GPU branch",
        code="""
# set-up cell (right answer below is the solution's): seed everything for reproducible runs
if torch.cuda.is_available():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    device = torch.device("cuda")
else:
    torch.manual_seed(0)
    device = torch.device("cpu")
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


CORRECT += [  # round 10 c: a seeding setup cell (GPU branch included) beside a right answer (right answers)
    dict(
        grade_id="test_layer_grad_norms",
        name="a seeding setup cell beside the solution (c43_08lg)",
        code="""
# set-up cell (right answer below is the solution's): seed everything for reproducible runs
if torch.cuda.is_available():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    device = torch.device("cuda")
else:
    torch.manual_seed(0)
    device = torch.device("cpu")


def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    # 每一层（直接拥有参数的模块）的梯度范数，以及由它们合成的全局范数。      返回 (layers, total)：layers 是 {层名: 0-d 张量}，没有梯度的层不出现；total 是 0-d 张量。
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
]


MUTANTS += [  # round 11 c: shortcuts past a local import; autocast past 8192 rows
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a local import of get_total_norm for more than 16 gradients",
        expect="代码里用到了 torch.nn.utils.get_total_norm",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if len(grads) > 16:  # 参数张量很多的大模型：用 torch 的融合实现，少启动几百个 kernel
        from torch.nn.utils import get_total_norm
        total = get_total_norm(grads)
    else:
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="import torch.nn.utils as U inside, U.get_total_norm for more than 32 gradients",
        expect="代码里用到了 torch.nn.utils.get_total_norm",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    n_grads = sum(len(gs) for gs in groups.values())
    layers = {}
    for layer, grads in groups.items():
        if n_grads > 32:  # 很多参数张量：一次融合的 kernel 算完这一层的范数
            import torch.nn.utils as U
            layers[layer] = U.get_total_norm(grads, norm_type)
        else:
            layers[layer] = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="bfloat16 autocast for batches over 8192 rows",
        expect="131072 行的 batch",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=x.is_cuda and x.shape[0] > 8192):  # 大 batch 用 bf16 提速
        out = model(x)
    loss = F.mse_loss(out.float(), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 11 a: per-step logging behind a Config instance, a set_device block, a slotted dataclass
    dict(
        grade_id="test_train_step",
        name="per-step .item() logging behind an instance of the notebook's Config",
        expect="同步",
        code="""
# setup cell: a config object, as in most training scripts
class Config:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.log_gpu = torch.cuda.is_available()


cfg = Config()


def train_step(model: nn.Module, batch, optimizer, max_norm: float, stats: dict) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if cfg.log_gpu:  # on the GPU machine: watch the norm every step
        print(f"grad norm {grad_norm.item():.3f}  loss {loss.item():.4f}")
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="per-step .item() logging behind a block with set_device(0)",
        expect="同步",
        code="""
# setup cell: pin GPU 0 where there is one, and note that we have it
LOG_GPU = False
if torch.cuda.is_available():
    torch.cuda.set_device(0)
    LOG_GPU = True


def train_step(model: nn.Module, batch, optimizer, max_norm: float, stats: dict) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if LOG_GPU:  # on the GPU machine: watch the norm every step
        print(f"grad norm {grad_norm.item():.3f}  loss {loss.item():.4f}")
    return loss.detach(), grad_norm
""",
    ),
    dict(
        grade_id="test_train_step",
        name="per-step .item() logging behind a slotted dataclass flag",
        expect="同步",
        code="""
# setup cell: a typed, slotted config (modern dataclass spelling)
from dataclasses import dataclass


@dataclass(slots=True)
class TrainConfig:
    log_gpu: bool = False
    max_norm: float = 1.0


cfg = TrainConfig(log_gpu=torch.cuda.is_available())


def train_step(model: nn.Module, batch, optimizer, max_norm: float, stats: dict) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    if cfg.log_gpu:  # on the GPU machine: watch the norm every step
        print(f"grad norm {grad_norm.item():.3f}  loss {loss.item():.4f}")
    return loss.detach(), grad_norm
""",
    ),
]


MUTANTS += [  # round 12 (reviewer a): torch._foreach_norm as the dispatcher's op, in a table of helpers, after a plain local import
    dict(
        grade_id="test_clip_by_global_norm_",
        name="torch.ops.aten._foreach_norm for more than 64 gradients",
        expect="torch._foreach_norm",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if len(grads) > 64:  # big models: one fused kernel for all the norms
        norms = torch.ops.aten._foreach_norm(grads, 2)
    else:
        norms = [torch.linalg.vector_norm(g) for g in grads]
    total = torch.linalg.vector_norm(torch.stack(norms))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="torch._foreach_norm in a helper held in a table of (threshold, helper) pairs",
        expect="torch._foreach_norm",
        code="""
def _norms_loop(grads):
    return [torch.linalg.vector_norm(g) for g in grads]

def _norms_fused(grads):
    return list(torch._foreach_norm(grads))

# (minimum number of gradients, implementation): the fused kernel pays off only for big models
_NORM_PATHS = [(64, _norms_fused), (0, _norms_loop)]

def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    norms = next(impl for least, impl in _NORM_PATHS if len(grads) > least)(grads)
    total = torch.linalg.vector_norm(torch.stack(norms))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="torch.ops.aten._foreach_norm for a layer of more than 32 tensors",
        expect="torch._foreach_norm",
        code="""
def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    def norms_of(grads):
        if len(grads) > 32:  # a layer with many tensors: one fused kernel
            return torch.ops.aten._foreach_norm(grads, norm_type)
        return [torch.linalg.vector_norm(g, norm_type) for g in grads]
    layers = {layer: torch.linalg.vector_norm(torch.stack(list(norms_of(grads))), norm_type) for layer, grads in groups.items()}
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="import torch.nn.utils inside the function, torch._foreach_norm for big models",
        expect="torch._foreach_norm",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    import torch.nn.utils
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if len(grads) > 64:  # big models: one fused kernel for all the norms
        norms = torch._foreach_norm(grads)
    else:
        norms = [torch.linalg.vector_norm(g) for g in grads]
    total = torch.linalg.vector_norm(torch.stack(list(norms)))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
]


MUTANTS += [  # round 12 (reviewer a): the whole model's gradients clipped, not only the optimizer's
    dict(
        grade_id="test_train_step",
        name="the global norm over the whole model, only the optimizer's parameters' gradients scaled",
        expect="裁剪要按全局范数缩放模型的全部梯度",
        code="""
def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    # the global norm over the whole model; the scaling where it matters: the gradients this optimizer steps with
    grad_norm = torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.grad is not None])
    stepped = [p for group in optimizer.param_groups for p in group["params"]]
    torch.nn.utils.clip_grads_with_norm_(stepped, max_norm, grad_norm)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # round 13 a: getattr(torch, '_foreach_norm') behind a size gate; a copy of get_total_norm made from its code
    dict(
        grade_id="test_layer_grad_norms",
        name="getattr(torch, '_foreach_norm') for layers of over 64 gradients",
        expect="的代码里用到了",
        code="""def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {}
    for layer, grads in groups.items():
        if len(grads) > 64:  # a layer with many tensors: one fused multi-tensor kernel
            norms = list(getattr(torch, "_foreach_norm")(grads, norm_type))
        else:
            norms = [torch.linalg.vector_norm(g, norm_type) for g in grads]
        layers[layer] = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a copy of get_total_norm built from its __code__",
        expect="的代码里用到了",
        code="""import types
import torch.nn.utils.clip_grad as _cg

# a private copy of torch's own total-norm routine (no foreach kernel), bound once
_raw = _cg._get_total_norm.__wrapped__
_total_norm = types.FunctionType(_raw.__code__, dict(_raw.__globals__), "_total_norm", _raw.__defaults__, _raw.__closure__)
_total_norm.__kwdefaults__ = _raw.__kwdefaults__


def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    with torch.no_grad():
        total = _total_norm(grads, 2.0, False, False)
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="a copy of get_total_norm built from its __code__ for every layer",
        expect="的代码里用到了",
        code="""import types
import torch.nn.utils.clip_grad as _cg

# a private copy of torch's own total-norm routine (no foreach kernel), bound once
_raw = _cg._get_total_norm.__wrapped__
_total_norm = types.FunctionType(_raw.__code__, dict(_raw.__globals__), "_total_norm", _raw.__defaults__, _raw.__closure__)
_total_norm.__kwdefaults__ = _raw.__kwdefaults__


def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {layer: _total_norm(grads, norm_type, False, False) for layer, grads in groups.items()}
    return layers, _total_norm(list(layers.values()), norm_type, False, False)
""",
    ),
]

MUTANTS += [  # round 13 a c31: a callable object naming torch._foreach_norm
]

CORRECT += [  # round 13 a: right answers (foreach scaling, torch.cat within one layer, train_step with the learner's own clip)
    dict(
        grade_id="test_clip_by_global_norm_",
        name="scaling with torch._foreach_mul_",
        code="""def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    torch._foreach_mul_(grads, coef)  # one multi-tensor kernel for the scaling
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="torch.cat within one layer",
        code="""def layer_grad_norms(model, norm_type=2.0):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {layer: torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in grads]), norm_type)
              for layer, grads in groups.items()}
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_train_step",
        name="train_step with the learner's clip_by_global_norm_",
        code="""def train_step(model, batch, optimizer, max_norm, stats):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    grad_norm = clip_by_global_norm_(model.parameters(), max_norm)  # exercise 2's clip (the prose allows either)
    optimizer.step()
    stats["steps"] += 1
    stats["clipped"] += grad_norm > max_norm
    stats["largest"] = torch.maximum(stats["largest"], grad_norm.detach())
    return loss.detach(), grad_norm
""",
    ),
]

MUTANTS += [  # round 13 a c31: a callable object naming torch._foreach_norm
    dict(
        grade_id="test_layer_grad_norms",
        name="a callable object whose method calls torch._foreach_norm",
        expect="的代码里用到了",
        code="""class LayerGradNorms:
    # layer_grad_norms(model, norm_type): per-layer norms and the global norm made from them.

    def __call__(self, model, norm_type=2.0):
        groups = {}
        for name, p in model.named_parameters():
            if p.grad is not None:
                groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
        layers = {}
        for layer, grads in groups.items():
            if len(grads) > 64:  # a layer with many tensors: one fused multi-tensor kernel
                norms = list(torch._foreach_norm(grads, norm_type))
            else:
                norms = [torch.linalg.vector_norm(g, norm_type) for g in grads]
            layers[layer] = torch.linalg.vector_norm(torch.stack(norms), norm_type)
        if not layers:
            return {}, torch.tensor(0.0)
        return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)


layer_grad_norms = LayerGradNorms()
""",
    ),
]

MUTANTS += [  # round 14 d: shortcuts behind an lru_cache helper, a partial, a property and a replaced code object
    dict(
        grade_id="test_clip_by_global_norm_",
        name="an lru_cache helper that returns get_total_norm",
        code="""import collections

_BIG = collections.deque([torch.nn.utils.get_total_norm])


def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if len(grads) > 64:  # 很多梯度：现成的（测试走不到）
        total = _BIG[0](grads, 2.0, foreach=False)
    else:
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
        expect="的代码里用到了",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="the graded function is a functools.partial of one using _foreach_norm",
        code="""import functools


def _layer_norms(model, norm_type=2.0, *, chunk=64):
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {}
    for layer, grads in groups.items():
        if len(grads) > chunk:  # 很多梯度的层：一次 foreach（测试走不到）
            norms = list(torch._foreach_norm(grads, norm_type))
        else:
            norms = [torch.linalg.vector_norm(g, norm_type) for g in grads]
        layers[layer] = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    if not layers:
        return {}, torch.tensor(0.0)
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)


layer_grad_norms = functools.partial(_layer_norms, chunk=64)
""",
        expect="的代码里用到了",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a class property that returns get_total_norm",
        code="""class _Clipper:
    # 按全局 L2 范数原地裁剪。

    @property
    def fast_norm(self):  # 很多参数时用的现成范数
        return torch.nn.utils.get_total_norm

    def __call__(self, parameters, max_norm):
        grads = [p.grad for p in parameters if p.grad is not None]
        if len(grads) == 0:
            return torch.tensor(0.0)
        if len(grads) > 64:  # 测试走不到
            total = self.fast_norm(grads, 2.0, foreach=False)
        else:
            total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
        for g in grads:
            g.mul_(coef)
        return total


clip_by_global_norm_ = _Clipper()
""",
        expect="的代码里用到了",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="a copy of get_total_norm made with __code__.replace",
        code="""import inspect
import types

_raw = inspect.unwrap(torch.nn.utils.get_total_norm)
_total_norm = types.FunctionType(_raw.__code__.replace(co_name="_total_norm"), _raw.__globals__, "_total_norm",
                                 _raw.__defaults__, _raw.__closure__)


def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if len(grads) > 64:  # 很多梯度（测试走不到）
        total = _total_norm(grads, 2.0)
    else:
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
        expect="的代码里用到了",
    ),
]

CORRECT += [  # round 14 d r05: a table of names is no use of them
    dict(
        grade_id="test_layer_grad_norms",
        name="a class attribute listing shortcut names it does not use",
        code="""class LayerNorms:
    '''Per-layer gradient norms, by hand.'''

    NOT_USED = ("torch.nn.utils.get_total_norm", "torch._foreach_norm")  # what the exercise rules out

    @staticmethod
    def norm(grads, norm_type):
        return torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)


def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {k: LayerNorms.norm(gs, norm_type) for k, gs in groups.items()}
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
]

CORRECT += [  # round 15 a03, a04: a docstring that names the library function it re-implements uses nothing
    dict(
        grade_id="test_clip_by_global_norm_",
        name="docstring names clip_grad_norm_",
        code="""def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    '''Hand-written torch.nn.utils.clip_grad_norm_.

    Non-finite totals leave the gradients alone.
    '''
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="docstring names get_total_norm",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    '''Per-layer torch.nn.utils.get_total_norm.

    Returns (layers, total).
    '''
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    if not layers:
        return {}, torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
    return layers, total
""",
    ),
]

CORRECT += [  # round 15 a08: a helper's docstring naming get_total_norm
    dict(
        grade_id="test_clip_by_global_norm_",
        name="helper documented as get_total_norm",
        code="""def total_grad_norm(grads):
    '''Same value as torch.nn.utils.get_total_norm.'''
    return torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))


def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = total_grad_norm(grads)
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
]

MUTANTS += [  # round 15 a05: the total reduced from every gradient again, not composed from the layer norms
    dict(
        grade_id="test_layer_grad_norms",
        name="total from global_grad_norm(model.parameters())",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    params = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            params.setdefault(name.rpartition(".")[0], []).append(p)
    layers = {layer: global_grad_norm(ps, norm_type) for layer, ps in params.items()}
    # total straight from every gradient, not composed from the layer norms
    total = global_grad_norm(model.parameters(), norm_type)
    return layers, total
""",
        expect="没有用到算好的各层范数",
    ),
]


# round 16 a01-a03: the total reduces every gradient again from a view or copy of each that the layer norms share (only a shared norm counts as shared work)
MUTANTS += [
    dict(
        grade_id="test_layer_grad_norms",
        name="total recomputed from p.grad.detach() views the layer norms read too (r16 a01)",
        expect="没有用到算好的各层范数",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad.detach())
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    all_grads = [g for grads in groups.values() for g in grads]
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in all_grads]), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="total recomputed from p.grad.reshape(-1) views the layer norms read too (r16 a02)",
        expect="没有用到算好的各层范数",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad.reshape(-1))
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in gs]), norm_type)
              for layer, gs in groups.items()}
    total = torch.linalg.vector_norm(
        torch.stack([torch.linalg.vector_norm(g, norm_type) for gs in groups.values() for g in gs]), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="total recomputed from p.grad.data (r16 a03)",
        expect="没有用到算好的各层范数",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    groups, everything = {}, []
    for name, p in model.named_parameters():
        if p.grad is not None:
            g = p.grad.data
            groups.setdefault(name.rpartition(".")[0], []).append(g)
            everything.append(g)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {k: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in gs]), norm_type)
              for k, gs in groups.items()}
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in everything]), norm_type)
    return layers, total
""",
    ),
    dict(
        grade_id="test_layer_grad_norms",
        name="total recomputed from p.grad.abs() copies the layer norms read too (r16 a03)",
        expect="没有用到算好的各层范数",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad.abs())
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    all_grads = [g for grads in groups.values() for g in grads]
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in all_grads]), norm_type)
    return layers, total
""",
    ),
]


# round 16: per-parameter norms computed once, the layer norms and the total both composed from them
CORRECT += [
    dict(
        grade_id="test_layer_grad_norms",
        name="per-parameter norms of reshape(-1) views shared by the layer norms and the total",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    per = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            per.setdefault(name.rpartition(".")[0], []).append(torch.linalg.vector_norm(p.grad.reshape(-1), norm_type))
    if not per:
        return {}, torch.tensor(0.0)
    layers = {k: torch.linalg.vector_norm(torch.stack(v), norm_type) for k, v in per.items()}
    total = torch.linalg.vector_norm(torch.stack([n for v in per.values() for n in v]), norm_type)
    return layers, total
""",
    ),
]


# round 16 a03: p.grad.clone() copies read by both the layer norms and the total
MUTANTS += [
    dict(
        grade_id="test_layer_grad_norms",
        name="total recomputed from p.grad.clone() copies the layer norms read too (r16 a03)",
        expect="没有用到算好的各层范数",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad.clone())
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {
        layer: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
        for layer, grads in groups.items()
    }
    all_grads = [g for grads in groups.values() for g in grads]
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in all_grads]), norm_type)
    return layers, total
""",
    ),
]


# round 16 a10: an error message that names the library function uses nothing
CORRECT += [
    dict(
        grade_id="test_layer_grad_norms",
        name="a ValueError message naming torch.nn.utils.get_total_norm (r16 a10)",
        code="""def layer_grad_norms(model: nn.Module, norm_type: float = 2.0) -> tuple[dict, torch.Tensor]:
    if not (norm_type >= 1):
        raise ValueError("norm_type must be at least 1, as in torch.nn.utils.get_total_norm")
    groups = {}
    for name, p in model.named_parameters():
        if p.grad is not None:
            groups.setdefault(name.rpartition(".")[0], []).append(p.grad)
    if not groups:
        return {}, torch.tensor(0.0)
    layers = {k: torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in gs]), norm_type)
              for k, gs in groups.items()}
    return layers, torch.linalg.vector_norm(torch.stack(list(layers.values())), norm_type)
""",
    ),
]


# round 16 a06: get_total_norm read off importlib.import_module('torch.nn.utils') behind a size gate
MUTANTS += [
    dict(
        grade_id="test_clip_by_global_norm_",
        name="importlib.import_module('torch.nn.utils').get_total_norm for over 64 gradients (r16 a06)",
        expect="用到了 torch.nn.utils.get_total_norm",
        code="""def clip_by_global_norm_(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if len(grads) > 64:  # many tensors: torch's fused multi-tensor norm
        total = importlib.import_module("torch.nn.utils").get_total_norm(grads)
    else:
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
    ),
]
