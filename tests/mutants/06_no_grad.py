"""Wrong answers learners write for 06_no_grad; each test cell must reject them, naming the mistake."""

MUTANTS = [
    # evaluate -------------------------------------------------------------------------------------
    dict(
        grade_id="test_evaluate",
        name="inference_mode_without_eval",
        code="""
def evaluate(model, x):
    with torch.inference_mode():
        return model(x)
""",
        expect="model.eval()",
    ),
    dict(
        grade_id="test_evaluate",
        name="eval_without_no_grad",
        code="""
def evaluate(model, x):
    was_training = model.training
    model.eval()
    logits = model(x)
    model.train(was_training)
    return logits
""",
        expect="inference_mode",
    ),
    dict(
        grade_id="test_evaluate",
        name="detach_output_instead_of_no_grad",
        code="""
def evaluate(model, x):
    was_training = model.training
    model.eval()
    logits = model(x).detach()
    model.train(was_training)
    return logits
""",
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
        code="""
def evaluate(model, x):
    model.eval()
    with torch.inference_mode():
        logits = model(x)
    model.train()
    return logits
""",
        expect="不要无条件调用 model.train()",
    ),
    dict(
        grade_id="test_evaluate",
        name="restores_only_top_level_flag",
        code="""
def evaluate(model, x):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        logits = model(x)
    model.training = was_training
    return logits
""",
        expect="子模块 (submodules",
    ),
    # freeze_backbone ------------------------------------------------------------------------------
    dict(
        grade_id="test_freeze_backbone",
        name="detaches_backbone_output",
        code="""
def freeze_backbone(model):
    backbone, head = model.backbone, model.head
    model.forward = lambda x: head(backbone(x).detach())
""",
        expect="detach() backbone 的输出",
    ),
    dict(
        grade_id="test_freeze_backbone",
        name="rebinds_loop_variable_with_detach",
        code="""
def freeze_backbone(model):
    for p in model.backbone.parameters():
        p = p.detach()
""",
        expect="requires_grad_(False)",
    ),
    dict(
        grade_id="test_freeze_backbone",
        name="eval_as_freeze",
        code="""
def freeze_backbone(model):
    model.backbone.eval()
""",
        expect="eval() 不是梯度开关",
    ),
    dict(
        grade_id="test_freeze_backbone",
        name="freezes_head_too",
        code="""
def freeze_backbone(model):
    for p in model.parameters():
        p.requires_grad_(False)
""",
        expect="head 也被冻结",
    ),
    dict(
        grade_id="test_freeze_backbone",
        name="freezes_first_layer_only",
        code="""
def freeze_backbone(model):
    for p in model.backbone[0].parameters():
        p.requires_grad_(False)
""",
        expect="只冻结了部分 backbone 参数",
    ),
    # make_optimizer -------------------------------------------------------------------------------
    dict(
        grade_id="test_make_optimizer",
        name="optimizer_over_all_parameters",
        code="""
def make_optimizer(model, lr):
    return torch.optim.AdamW(model.parameters(), lr=lr)
""",
        expect="冻结参数 (requires_grad=False)",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="head_parameters_only",
        code="""
def make_optimizer(model, lr):
    return torch.optim.AdamW(model.head.parameters(), lr=lr)
""",
        expect="漏掉了",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="inverted_filter",
        code="""
def make_optimizer(model, lr):
    return torch.optim.AdamW([p for p in model.parameters() if not p.requires_grad], lr=lr)
""",
        expect="冻结参数 (requires_grad=False)",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="ignores_lr",
        code="""
def make_optimizer(model, lr):
    return torch.optim.AdamW([p for p in model.parameters() if p.requires_grad])
""",
        expect="学习率 (lr)",
    ),
    dict(
        grade_id="test_make_optimizer",
        name="sgd_instead_of_adamw",
        code="""
def make_optimizer(model, lr):
    return torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=lr)
""",
        expect="torch.optim.AdamW",
    ),
    # td_loss --------------------------------------------------------------------------------------
    dict(
        grade_id="test_td_loss",
        name="target_not_detached",
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
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    target = reward + gamma * target_net(x_next)
    return ((value_net(x).detach() - target.detach()) ** 2).mean()
""",
        expect="放错了位置",
    ),
    dict(
        grade_id="test_td_loss",
        name="whole_loss_under_no_grad",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.no_grad():
        target = reward + gamma * target_net(x_next)
        return ((value_net(x) - target) ** 2).mean()
""",
        expect="放错了位置",
    ),
    dict(
        grade_id="test_td_loss",
        name="sum_instead_of_mean",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.no_grad():
        target = reward + gamma * target_net(x_next)
    return ((value_net(x) - target) ** 2).sum()
""",
        expect="用了 sum()",
    ),
    dict(
        grade_id="test_td_loss",
        name="returns_item",
        code="""
def td_loss(value_net, target_net, x, reward, x_next, gamma):
    with torch.no_grad():
        target = reward + gamma * target_net(x_next)
    return ((value_net(x) - target) ** 2).mean().item()
""",
        expect=".item() 会脱离计算图",
    ),
    dict(
        grade_id="test_td_loss",
        name="same_net_without_detach",
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
]
