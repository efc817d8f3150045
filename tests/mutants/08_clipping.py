"""Wrong answers learners write for 08_clipping; each must fail its test cell with ``expect`` in the message."""

MUTANTS = [
    # ---------------------------------------------------------------- global_grad_norm
    dict(
        grade_id="test_global_grad_norm",
        name="sum_of_per_tensor_norms",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    return sum(torch.linalg.vector_norm(g, norm_type) for g in grads)
""",
        expect="直接相加",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="does_not_skip_none_grads",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    norms = [torch.linalg.vector_norm(p.grad, norm_type) for p in parameters]
    if not norms:
        return torch.tensor(0.0)
    return torch.linalg.vector_norm(torch.stack(norms), norm_type)
""",
        expect="要跳过 (skip)",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="ignores_norm_type",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    return torch.sqrt(sum(g.pow(2).sum() for g in grads))
""",
        expect="忽略了参数 norm_type",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="inf_norm_by_power_formula",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    return sum(g.abs().pow(norm_type).sum() for g in grads) ** (1.0 / norm_type)
""",
        expect="最大绝对值",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="view_on_non_contiguous_grad",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    return torch.linalg.vector_norm(torch.cat([g.view(-1) for g in grads]), norm_type)
""",
        expect="reshape",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="norm_of_parameters_not_grads",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    ps = [p for p in parameters if p.grad is not None]
    if not ps:
        return torch.tensor(0.0)
    return torch.linalg.vector_norm(torch.cat([p.detach().reshape(-1) for p in ps]), norm_type)
""",
        expect="参数 p 本身",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="crashes_without_any_grad",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    return torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in grads]), norm_type)
""",
        expect="torch.tensor(0.0)",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="returns_python_float",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return 0.0
    return torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in grads]), norm_type).item()
""",
        expect=".item()",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="float32_accumulator_loses_float64",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    total = torch.tensor(0.0)
    for p in parameters:
        if p.grad is not None:
            if norm_type == float("inf"):
                total = torch.maximum(total, p.grad.abs().max().float())
            else:
                total += p.grad.abs().pow(norm_type).sum()
    return total if norm_type == float("inf") else total ** (1.0 / norm_type)
""",
        expect="dtype",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="get_total_norm_shortcut",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    return torch.nn.utils.get_total_norm([p.grad for p in parameters if p.grad is not None], norm_type)
""",
        expect="torch.nn.utils.get_total_norm",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="clip_grad_norm_with_infinite_max_norm",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    return torch.nn.utils.clip_grad_norm_(parameters, float("inf"), norm_type)
""",
        expect="torch.nn.utils.clip_grad_norm_",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="get_total_norm_imported_under_another_name",
        code="""
from torch.nn.utils import get_total_norm as _total_norm


def global_grad_norm(parameters, norm_type=2.0):
    return _total_norm([p.grad for p in parameters if p.grad is not None], norm_type)
""",
        expect="torch.nn.utils 的裁剪函数",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="foreach_norm",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    return torch.linalg.vector_norm(torch.stack(torch._foreach_norm(grads, norm_type)), norm_type)
""",
        expect="torch._foreach_norm",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="parameters_to_vector_of_grads",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    return torch.linalg.vector_norm(torch.nn.utils.parameters_to_vector(grads), norm_type)
""",
        expect="parameters_to_vector",
    ),
    dict(
        grade_id="test_global_grad_norm",
        name="python_max_over_tensors_syncs",
        code="""
def global_grad_norm(parameters, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    if norm_type == float("inf"):
        return max(g.abs().max() for g in grads)
    return sum(g.abs().pow(norm_type).sum() for g in grads) ** (1.0 / norm_type)
""",
        expect="主机与设备同步",
    ),
    # ---------------------------------------------------------------- clip_by_global_norm_
    dict(
        grade_id="test_clip_by_global_norm_",
        name="per_tensor_clipping",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    for g in grads:
        g.mul_((max_norm / (g.norm() + 1e-6)).clamp(max=1.0))
    return total
""",
        expect="per-tensor",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="scales_up_when_below_max_norm",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = max_norm / (total + 1e-6)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
        expect="放大 (scale up)",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="forgets_eps",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = (max_norm / total).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
        expect="1e-6",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="returns_norm_after_clipping",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return torch.sqrt(sum(g.pow(2).sum() for g in grads))
""",
        expect="裁剪之前 (before clipping)",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="rebinds_local_variable_not_in_place",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for g in grads:
        g = g * coef
    return total
""",
        expect="原地 (in-place)",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="replaces_grad_tensor",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    params = [p for p in parameters if p.grad is not None]
    if not params:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(p.grad.pow(2).sum() for p in params))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    for p in params:
        p.grad = p.grad * coef
    return total
""",
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
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    for g in grads:
        g.clamp_(-max_norm, max_norm)
    return total
""",
        expect="element-wise",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="if_coef_below_one_syncs",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = max_norm / (total + 1e-6)
    if coef < 1:
        for g in grads:
            g.mul_(coef)
    return total
""",
        expect="clamp(max=1.0)",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="if_inside_the_loop_syncs",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = max_norm / (total + 1e-6)
    for g in grads:
        if coef < 1:
            g.mul_(coef)
    return total
""",
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="isfinite_checked_with_if",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    if not torch.isfinite(total):
        return total
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(coef)
    return total
""",
        expect="torch.where",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="scales_nonfinite_like_clip_grad_norm_",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(coef)
    return total
""",
        expect="clip_grad_norm_ 的默认做法",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="nan_to_num_misses_inf",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = torch.nan_to_num((max_norm / (total + 1e-6)).clamp(max=1.0), nan=1.0)
    for g in grads:
        g.mul_(coef)
    return total
""",
        expect="总范数是 inf",
    ),
    dict(
        grade_id="test_clip_by_global_norm_",
        name="isfinite_on_coef_not_total",
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(coef), coef, torch.ones_like(coef))
    for g in grads:
        g.mul_(coef)
    return total
""",
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
        code="""
def clip_by_global_norm_(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(torch._foreach_norm(grads)))
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    coef = torch.where(torch.isfinite(total), coef, torch.ones_like(coef))
    torch._foreach_mul_(grads, coef)
    return total
""",
        expect="torch._foreach_norm",
    ),
    # ---------------------------------------------------------------- train_step
    dict(
        grade_id="test_train_step",
        name="clips_before_backward",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.detach(), total
""",
        expect="backward() 之前",
    ),
    dict(
        grade_id="test_train_step",
        name="clips_after_step",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    return loss.detach(), total
""",
        expect="step() 之后",
    ),
    dict(
        grade_id="test_train_step",
        name="forgets_zero_grad",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    loss = F.mse_loss(model(x), y)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    return loss.detach(), total
""",
        expect="zero_grad",
    ),
    dict(
        grade_id="test_train_step",
        name="clips_each_parameter_separately",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    total = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()])
    for p in model.parameters():
        torch.nn.utils.clip_grad_norm_([p], max_norm)
    optimizer.step()
    return loss.detach(), total
""",
        expect="per-tensor",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_norm_after_clipping",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    total = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()])
    optimizer.step()
    return loss.detach(), total
""",
        expect="裁剪之前",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_item_floats_every_step",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    return loss.item(), total.item()
""",
        expect="主机与设备同步",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_loss_with_its_graph",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    return loss, total
""",
        expect="loss.detach()",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_loss_after_step",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    with torch.no_grad():
        loss = F.mse_loss(model(x), y)
    return loss, total
""",
        expect="step() 之前算出的 loss",
    ),
    # ---------------------------------------------------------------- predict first
    dict(
        grade_id="test_predict_clip_total",
        name="norm_after_clipping",
        code="predict_clip_total = 1.3",
        expect="裁剪之前 (before clipping)",
    ),
    dict(
        grade_id="test_predict_clip_total",
        name="sum_of_per_tensor_norms",
        code="predict_clip_total = 17.0",
        expect="5 + 12 = 17",
    ),
    dict(grade_id="test_predict_clip_total", name="answer_as_text", code="predict_clip_total = '13'", expect="之一"),
    dict(
        grade_id="test_predict_syncs_if",
        name="no_sync_tensors_stay_on_device",
        code="predict_syncs_if = 0",
        expect="循环 3 次就同步 3 次",
    ),
    dict(
        grade_id="test_predict_syncs_if",
        name="one_sync_for_the_one_coef",
        code="predict_syncs_if = 1",
        expect="循环 3 次就同步 3 次",
    ),
    dict(grade_id="test_predict_syncs_if", name="answer_missing", code="predict_syncs_if = ...", expect="还没有写预测"),
    dict(
        grade_id="test_predict_w_clip_first",
        name="thinks_it_clips",
        code="predict_w_clip_first = 0.9",
        expect="w = 1 - 0.1 × 200 = -19",
    ),
    dict(
        grade_id="test_predict_w_clip_first",
        name="thinks_nothing_moves",
        code="predict_w_clip_first = 1.0",
        expect="-19",
    ),
    dict(
        grade_id="test_predict_w_clip_first", name="answer_as_text", code="predict_w_clip_first = '-19'", expect="之一"
    ),
]
