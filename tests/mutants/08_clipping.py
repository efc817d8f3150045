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
        expect="torch.Tensor",
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
        n = g.norm()
        if n > max_norm:
            g.mul_(max_norm / (n + 1e-6))
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
    for g in grads:
        g.mul_(max_norm / (total + 1e-6))
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
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / total)
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
    coef = max_norm / (total + 1e-6)
    if coef < 1:
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
    coef = max_norm / (total + 1e-6)
    if coef < 1:
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
    coef = max_norm / (total + 1e-6)
    if coef < 1:
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
    coef = max_norm / (total + 1e-6)
    if coef < 1:
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
    return loss.item(), total.item()
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
    return loss.item(), total.item()
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
    return loss.item(), total.item()
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
    return loss.item(), total.item()
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
    return loss.item(), total.item()
""",
        expect="裁剪之前",
    ),
    dict(
        grade_id="test_train_step",
        name="returns_loss_tensor",
        code="""
def train_step(model, batch, optimizer, max_norm):
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    return loss, total.item()
""",
        expect=".item()",
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
    return loss.item(), total.item()
""",
        expect="loss_value",
    ),
]
