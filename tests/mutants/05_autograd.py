"""Wrong answers learners write for 05_autograd; each must fail its test cell with the message named."""

from tests.notebooks import edited, solution_with, solution_wrapped

_SGD_HEAD = "def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n"
_ACC_HEAD = "def accumulate_grads(model, loss_fn, x, y, micro_batch_size):\n"
_JAC_HEAD = "def jacobian(f, x):\n"
_VG_HEAD = "def value_and_grad(f, x):\n"

MUTANTS = [
    # predict_leaf
    dict(
        grade_id="test_predict_leaf",
        formative=True,
        name="leaf means requires_grad=True",
        expect="是错的",
        code="predict_leaf = False\n",
    ),
    dict(
        grade_id="test_predict_leaf",
        formative=True,
        name="answers with a string",
        expect="之一",
        code='predict_leaf = "True"\n',
    ),
    dict(
        grade_id="test_predict_leaf",
        formative=True,
        name="left the prediction unwritten",
        expect="还没有写预测",
        code="predict_leaf = None\n",
    ),
    # predict_grad
    dict(
        grade_id="test_predict_grad",
        formative=True,
        name="backward overwrites .grad",
        expect="而不是覆盖",
        code="predict_grad = (2.0, 4.0)\n",
    ),
    dict(
        grade_id="test_predict_grad",
        formative=True,
        name="counts only two backward calls",
        expect="预测不对",
        code="predict_grad = (4, 8)\n",
    ),
    dict(
        grade_id="test_predict_grad",
        formative=True,
        name="writes a tensor instead of a tuple",
        expect="应写成 tuple",
        code="predict_grad = torch.tensor([6.0, 12.0])\n",
    ),
    # predict_bn_same
    dict(
        grade_id="test_predict_bn_same",
        formative=True,
        name="BatchNorm treats samples independently",
        expect="统计量来自 4 个样本",
        code="predict_bn_same = True\n",
    ),
    dict(
        grade_id="test_predict_bn_same",
        formative=True,
        name="answers with a string",
        expect="之一",
        code='predict_bn_same = "False"\n',
    ),
    dict(
        grade_id="test_predict_bn_same",
        formative=True,
        name="left the prediction unwritten",
        expect="还没有写预测",
        code="predict_bn_same = ...\n",
    ),
    # value_and_grad
    dict(
        grade_id="test_value_and_grad",
        name="returns the value still attached to the graph",
        mistake="still-in-graph",
        expect="requires_grad 应为 False",
        code=(
            "def value_and_grad(f, x):\n    leaf = x.detach().requires_grad_(True)\n    value = f(leaf)\n"
            "    value.backward()\n    return value, leaf.grad\n"
        ),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="requires_grad_() on the caller's x",
        expect="改动了调用者的 x",
        code=(
            "def value_and_grad(f, x):\n    x.requires_grad_(True)\n    value = f(x)\n"
            "    value.backward()\n    return value.detach(), x.grad\n"
        ),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="clone() makes a non-leaf when x requires grad",
        expect="非叶子张量 (non-leaf)",
        code=(
            "def value_and_grad(f, x):\n    leaf = x.clone().requires_grad_(True)\n    value = f(leaf)\n"
            "    value.backward()\n    return value.detach(), leaf.grad\n"
        ),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="value as a Python number via .item()",
        expect="应该是 torch.Tensor，得到的是 float",
        code=(
            "def value_and_grad(f, x):\n    leaf = x.detach().requires_grad_(True)\n    value = f(leaf)\n"
            "    value.backward()\n    return value.item(), leaf.grad\n"
        ),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="torch.func.grad_and_value does the work",
        expect="torch.func",
        code=(_VG_HEAD + "    grad, value = torch.func.grad_and_value(f)(x.detach())\n    return value, grad\n"),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="backward through the caller's x when it already requires grad",
        expect="改动了调用者的 x",
        code=(
            _VG_HEAD + "    leaf = x if x.requires_grad else x.detach().requires_grad_(True)\n    value = f(leaf)\n"
            "    (grad,) = torch.autograd.grad(value, leaf) if not leaf.is_leaf else (None,)\n"
            "    if grad is None:\n        value.backward()\n        grad = leaf.grad\n"
            "    return value.detach(), grad\n"
        ),
    ),
    # jacobian
    dict(
        grade_id="test_jacobian",
        name="rows accumulate in leaf.grad",
        expect="前 i 行之和",
        mistake="grad-accumulates-across-backward",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n    rows = []\n"
            "    for i in range(y.numel()):\n        v = torch.zeros(y.numel(), dtype=y.dtype)\n        v[i] = 1.0\n"
            "        y.backward(v.reshape(y.shape), retain_graph=True)\n        rows.append(leaf.grad.clone())\n"
            "    return torch.stack(rows).reshape(y.shape + x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="backward per row without retain_graph",
        expect="retain_graph",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n    rows = []\n"
            "    for i in range(y.numel()):\n        v = torch.zeros(y.numel(), dtype=y.dtype)\n        v[i] = 1.0\n"
            "        leaf.grad = None\n        y.backward(v.reshape(y.shape))\n        rows.append(leaf.grad)\n"
            "    return torch.stack(rows).reshape(y.shape + x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="rows stacked as columns (x.shape + y.shape)",
        expect="x.shape + y.shape",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n    rows = []\n"
            "    for i in range(y.numel()):\n        v = torch.zeros(y.numel(), dtype=y.dtype)\n        v[i] = 1.0\n"
            "        (g,) = torch.autograd.grad(y, leaf, v.reshape(y.shape), retain_graph=True)\n        rows.append(g)\n"
            "    return torch.stack(rows, dim=-1).reshape(x.shape + y.shape)\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="leaves J flattened to (y.numel(), x.numel())",
        expect="展平",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n    rows = []\n"
            "    for i in range(y.numel()):\n        v = torch.zeros(y.numel(), dtype=y.dtype)\n        v[i] = 1.0\n"
            "        (g,) = torch.autograd.grad(y, leaf, v.reshape(y.shape), retain_graph=True)\n"
            "        rows.append(g.reshape(-1))\n    return torch.stack(rows)\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="one backward of y.sum() instead of one VJP per row",
        expect="一次反向传播",
        code=(
            _JAC_HEAD
            + "    leaf = x.detach().requires_grad_(True)\n    f(leaf).sum().backward()\n    return leaf.grad\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="calls torch.autograd.functional.jacobian",
        expect="torch.autograd.functional.jacobian",
        code=_JAC_HEAD + "    return torch.autograd.functional.jacobian(f, x)\n",
    ),
    dict(
        grade_id="test_jacobian",
        name="imports jacrev from torch.func",
        expect="torch.func.jacrev",
        code="from torch.func import jacrev\n\n" + _JAC_HEAD + "    return jacrev(f)(x.detach())\n",
    ),
    dict(
        grade_id="test_jacobian",
        name="requires_grad_() on the caller's x",
        expect="改动了调用者的 x",
        code=(
            _JAC_HEAD + "    x.requires_grad_(True)\n    y = f(x)\n    rows = []\n"
            "    for i in range(y.numel()):\n        v = torch.zeros(y.numel(), dtype=y.dtype)\n        v[i] = 1.0\n"
            "        (g,) = torch.autograd.grad(y, x, v.reshape(y.shape), retain_graph=True)\n        rows.append(g)\n"
            "    return torch.stack(rows).reshape(y.shape + x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="all rows in one batched VJP (is_grads_batched=True)",
        expect="is_grads_batched=True",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n"
            "    eye = torch.eye(y.numel(), dtype=y.dtype).reshape((y.numel(),) + y.shape)\n"
            "    (J,) = torch.autograd.grad(y, leaf, grad_outputs=eye, is_grads_batched=True)\n"
            "    return J.reshape(y.shape + x.shape)\n"
        ),
    ),
    # accumulate_grads
    dict(
        grade_id="test_accumulate_grads",
        name="forgets to scale each micro-batch loss",
        expect="缩放 (scale)",
        mistake="micro-batch-loss-not-scaled",
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    total = 0.0\n"
            "    for s in range(0, len(x), micro_batch_size):\n"
            "        loss = loss_fn(model(x[s:s + micro_batch_size]), y[s:s + micro_batch_size])\n"
            "        loss.backward()\n        total += loss.item() * len(x[s:s + micro_batch_size]) / len(x)\n"
            "    return total\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="scales by 1 / number of micro-batches",
        expect="1 / (块数)",
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    steps = (len(x) + micro_batch_size - 1) // micro_batch_size\n"
            "    total = 0.0\n    for s in range(0, len(x), micro_batch_size):\n"
            "        loss = loss_fn(model(x[s:s + micro_batch_size]), y[s:s + micro_batch_size]) / steps\n"
            "        loss.backward()\n        total += loss.item()\n    return total\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="zero_grad inside the loop",
        expect="放进了循环里",
        mistake="zero-grad-inside-accumulation",
        code=(
            _ACC_HEAD + "    total = 0.0\n    for s in range(0, len(x), micro_batch_size):\n"
            "        model.zero_grad()\n        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * len(xb) / len(x)\n"
            "        loss.backward()\n        total += loss.item()\n    return total\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="never clears stale gradients",
        expect="旧梯度",
        mistake="missing-zero-grad",
        code=(
            _ACC_HEAD + "    total = 0.0\n    for s in range(0, len(x), micro_batch_size):\n"
            "        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * len(xb) / len(x)\n"
            "        loss.backward()\n        total += loss.item()\n    return total\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="accumulates the loss tensor instead of .item()",
        mistake="tensor-not-item",
        expect=".item()",
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    total = 0.0\n    for s in range(0, len(x), micro_batch_size):\n"
            "        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * len(xb) / len(x)\n"
            "        loss.backward()\n        total += loss\n    return total\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="one full-batch forward and backward",
        expect="模型的前向只运行了 1 次，3 块应各一次",
        code=(
            _ACC_HEAD
            + "    model.zero_grad()\n    loss = loss_fn(model(x), y)\n    loss.backward()\n    return loss.item()\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="an extra full-batch forward to log the loss",
        expect="多做了一次整批前向",
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    for s in range(0, len(x), micro_batch_size):\n"
            "        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        (loss_fn(model(xb), yb) * len(xb) / len(x)).backward()\n"
            "    with torch.no_grad():\n        return loss_fn(model(x), y).item()\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="one backward on the summed micro-batch losses",
        expect="反向传播却只到达模型 1 次",
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    total = 0\n"
            "    for s in range(0, len(x), micro_batch_size):\n"
            "        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        total = total + loss_fn(model(xb), yb) * len(xb) / len(x)\n"
            "    total.backward()\n    return total.item()\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="keeps every micro-batch loss and calls backward on each at the end",
        expect="全部 2 次前向，之后才反向",
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    losses = []\n"
            "    for s in range(0, len(x), micro_batch_size):\n"
            "        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        losses.append(loss_fn(model(xb), yb) * len(xb) / len(x))\n"
            "    for loss in losses:\n        loss.backward()\n"
            "    return sum(loss.item() for loss in losses)\n"
        ),
    ),
    # sgd_step
    dict(
        grade_id="test_sgd_step",
        name="treats a None grad as zeros",
        expect="None 梯度",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            g = p.grad if p.grad is not None else torch.zeros_like(p)\n"
            "            d = g + weight_decay * p\n            if momentum != 0:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d if i in momentum_buffers else d.clone()\n"
            "                d = momentum_buffers[i]\n            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="skips zero grads as if they were None",
        expect="全零 (zero grad)",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            if p.grad is None or not p.grad.any():\n                continue\n"
            "            d = p.grad + weight_decay * p\n            if momentum != 0:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d if i in momentum_buffers else d.clone()\n"
            "                d = momentum_buffers[i]\n            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="in-place update outside no_grad",
        expect="no_grad",
        code=(
            _SGD_HEAD + "    for i, p in enumerate(params):\n        if p.grad is None:\n            continue\n"
            "        d = p.grad + weight_decay * p\n        if momentum != 0:\n"
            "            momentum_buffers[i] = momentum * momentum_buffers[i] + d if i in momentum_buffers else d.clone()\n"
            "            d = momentum_buffers[i]\n        p -= lr * d\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="rebinds p instead of updating in place",
        expect="原地 (in-place)",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n                continue\n"
            "            d = p.grad + weight_decay * p\n            if momentum != 0:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d if i in momentum_buffers else d.clone()\n"
            "                d = momentum_buffers[i]\n            p = p - lr * d\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="forgets weight decay",
        expect="weight decay",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n                continue\n            d = p.grad\n"
            "            if momentum != 0:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d if i in momentum_buffers else d.clone()\n"
            "                d = momentum_buffers[i]\n            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="restarts the momentum buffer every step",
        expect="重新初始化",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n                continue\n"
            "            d = p.grad + weight_decay * p\n            if momentum != 0:\n"
            "                momentum_buffers[i] = d.clone()\n                d = momentum_buffers[i]\n"
            "            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="keeps the momentum buffer in a local variable",
        expect="momentum buffer",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n                continue\n"
            "            d = p.grad + weight_decay * p\n            if momentum != 0:\n"
            "                buf = d.clone()\n                d = buf\n            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="lets torch.optim.SGD take the step",
        expect="torch.optim",
        code=(
            _SGD_HEAD + "    opt = torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay)\n"
            "    for i, p in enumerate(params):\n        if i in momentum_buffers:\n"
            "            opt.state[p]['momentum_buffer'] = momentum_buffers[i]\n    opt.step()\n"
            "    for i, p in enumerate(params):\n        if 'momentum_buffer' in opt.state[p]:\n"
            "            momentum_buffers[i] = opt.state[p]['momentum_buffer']\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="calls the functional torch.optim sgd",
        expect="torch.optim",
        code=(
            "from torch.optim.sgd import sgd\n\n"
            + _SGD_HEAD
            + "    idx = [i for i, p in enumerate(params) if p.grad is not None]\n"
            "    bufs = [momentum_buffers.get(i) for i in idx]\n"
            "    with torch.no_grad():\n"
            "        sgd([params[i] for i in idx], [params[i].grad for i in idx], bufs, weight_decay=weight_decay,\n"
            "            momentum=momentum, lr=lr, dampening=0.0, nesterov=False, maximize=False)\n"
            "    for i, b in zip(idx, bufs):\n        if b is not None:\n            momentum_buffers[i] = b\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="first momentum buffer aliases p.grad (no clone)",
        expect="同一块内存",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n                continue\n            d = p.grad\n"
            "            if weight_decay != 0:\n                d = d.add(p, alpha=weight_decay)\n"
            "            if momentum != 0:\n                if i not in momentum_buffers:\n"
            "                    momentum_buffers[i] = d\n                else:\n"
            "                    momentum_buffers[i].mul_(momentum).add_(d)\n"
            "                d = momentum_buffers[i]\n            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="adds weight decay into p.grad in place",
        expect="不能修改 .grad",
        code=(
            _SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n                continue\n"
            "            d = p.grad.add_(p, alpha=weight_decay)\n"
            "            if momentum != 0:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d if i in momentum_buffers else d.clone()\n"
            "                d = momentum_buffers[i]\n            p.sub_(lr * d)\n"
        ),
    ),
    # issue 17 review pass (n456c): skill-skipping answers a fresh reviewer found
    dict(
        grade_id="test_value_and_grad",
        name="torch.func.grad_and_value reached through torch._functorch.apis",
        expect="torch.func.grad_and_value",
        code=(
            "def value_and_grad(f, x):\n"
            "    g, v = torch._functorch.apis.grad_and_value(f)(x.detach())\n"
            "    return v.detach(), g\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="torch.func.jacrev reached through torch._functorch.eager_transforms",
        expect="torch.func.jacrev",
        code="def jacobian(f, x):\n    return torch._functorch.eager_transforms.jacrev(f)(x.detach()).detach()\n",
    ),
    dict(
        grade_id="test_jacobian",
        name="forward-mode AD (JVP columns) instead of one VJP per row",
        expect="不是前向模式 (forward_ad) 的 JVP",
        code=(
            "def jacobian(f, x):\n"
            "    import torch.autograd.forward_ad as fwAD\n"
            "    base = x.detach(); cols = []\n"
            "    with fwAD.dual_level():\n"
            "        for j in range(base.numel()):\n"
            "            t = torch.zeros(base.numel(), dtype=base.dtype); t[j] = 1.0\n"
            "            y = f(fwAD.make_dual(base, t.reshape(base.shape)))\n"
            "            cols.append(fwAD.unpack_dual(y).tangent.detach())\n"
            "    return torch.stack(cols, -1).reshape(cols[0].shape + base.shape)\n"
        ),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="forward-mode AD (one JVP per input element) instead of backward",
        expect="不是前向模式 (forward_ad) 的 JVP",
        code=(
            "def value_and_grad(f, x):\n"
            "    import torch.autograd.forward_ad as fwAD\n"
            "    base = x.detach(); g = torch.zeros_like(base).reshape(-1)\n"
            "    with fwAD.dual_level():\n"
            "        for j in range(base.numel()):\n"
            "            t = torch.zeros(base.numel(), dtype=base.dtype); t[j] = 1.0\n"
            "            out = fwAD.unpack_dual(f(fwAD.make_dual(base, t.reshape(base.shape))))\n"
            "            g[j] = out.tangent\n"
            "    return out.primal.detach(), g.reshape(base.shape)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="calls PyTorch's fused kernel torch._fused_sgd_",
        expect="torch._fused_sgd_",
        code=(
            "def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n"
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            first = i not in momentum_buffers\n"
            "            bufs = [] if momentum == 0 else [momentum_buffers.get(i, torch.empty_like(p))]\n"
            "            torch._fused_sgd_([p], [p.grad.clone()], bufs, weight_decay=weight_decay, momentum=momentum, lr=lr,\n"
            "                              dampening=0.0, nesterov=False, maximize=False, is_first_step=first)\n"
            "            if momentum != 0:\n"
            "                momentum_buffers[i] = bufs[0]\n"
        ),
    ),
    # found by reviewer rv46 ------------------------------------------------------------------------
    dict(
        grade_id="test_jacobian",
        name="five-point finite differences in float64, no autograd at all",
        expect="0 次 VJP",
        code=(
            _JAC_HEAD + "    x64 = x.detach().double()\n    flat = x64.reshape(-1)\n    h = 1e-3\n"
            "    g = lambda v: f(v.reshape(x.shape)).detach().reshape(-1)\n    cols = []\n"
            "    for j in range(flat.numel()):\n"
            "        e = torch.zeros_like(flat); e[j] = h\n"
            "        cols.append((-g(flat + 2 * e) + 8 * g(flat + e) - 8 * g(flat - e) + g(flat - 2 * e)) / (12 * h))\n"
            "    y = f(x64).detach()\n"
            "    return torch.stack(cols, dim=1).reshape(y.shape + x.shape).to(x.dtype)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="updates through p.data instead of under no_grad",
        expect="通过 .data",
        code=(
            _SGD_HEAD + "    for i, p in enumerate(params):\n        if p.grad is None:\n            continue\n"
            "        d = p.grad.data + weight_decay * p.data\n"
            "        if momentum != 0:\n"
            "            if i in momentum_buffers:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d\n"
            "            else:\n"
            "                momentum_buffers[i] = d.clone()\n"
            "            d = momentum_buffers[i]\n"
            "        p.data.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="five-point finite differences, no autograd at all",
        expect="0 次 VJP",
        code=(
            "def value_and_grad(f, x):\n"
            "    flat = x.detach().double().reshape(-1)\n    h = 1e-3\n"
            "    g = lambda v: f(v.reshape(x.shape)).detach()\n    out = torch.zeros_like(flat)\n"
            "    for j in range(flat.numel()):\n"
            "        e = torch.zeros_like(flat); e[j] = h\n"
            "        out[j] = (-g(flat + 2 * e) + 8 * g(flat + e) - 8 * g(flat - e) + g(flat - 2 * e)) / (12 * h)\n"
            "    return f(x.detach()).detach(), out.reshape(x.shape).to(x.dtype)\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="sums the loss tensors (graphs kept alive) and calls .item() once at the end",
        expect="计算图还没有释放",  # no mistake id: a live graph does not show which tensor holds it (rxc)
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    total = 0.0\n    for s in range(0, len(x), micro_batch_size):\n"
            "        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * len(xb) / len(x)\n"
            "        loss.backward()\n        total = total + loss\n    return total.item()\n"
        ),
    ),
]

MUTANTS += [  # issue 17 final fresh pass (rvb5)
    dict(
        grade_id="test_jacobian",
        name="a new forward for every row (no retain_graph needed, y.numel() graphs built)",
        expect="行是在不同的图上求的",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    shape = f(leaf).shape\n    rows = []\n"
            "    for i in range(shape.numel()):\n"
            "        (row,) = torch.autograd.grad(f(leaf).reshape(-1)[i], leaf)\n        rows.append(row)\n"
            "    return torch.stack(rows).reshape(shape + x.shape)\n"
        ),
    ),
]


_SGD_OK = """    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
"""
_ACC_OK = """    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb, yb = x[start:start + micro_batch_size], y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total += loss.item()
    return total
"""

MUTANTS += [  # issue 17 fresh pass (rwc)
    dict(
        grade_id="test_jacobian",
        name="columns by the double-backward trick: one VJP through y, then the gradient of that VJP per column",
        expect="反向传播却只有 1 次经过 y",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n"
            "    u = torch.zeros_like(y, requires_grad=True)\n"
            "    (g,) = torch.autograd.grad(y, leaf, grad_outputs=u, create_graph=True)\n    cols = []\n"
            "    for j in range(leaf.numel()):\n"
            "        e = torch.zeros(leaf.numel(), dtype=leaf.dtype)\n        e[j] = 1\n"
            "        (c,) = torch.autograd.grad(g, u, grad_outputs=e.reshape(leaf.shape), retain_graph=True)\n"
            "        cols.append(c.reshape(-1))\n"
            "    return torch.stack(cols, 1).reshape(y.shape + x.shape).detach()\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="d computed outside no_grad: every momentum buffer hangs on the previous step's graph",
        expect="momentum_buffers[0] 连着计算图",
        mistake="momentum-buffer-with-graph",
        code=(
            _SGD_HEAD + "    for i, p in enumerate(params):\n        if p.grad is None:\n            continue\n"
            "        d = p.grad + weight_decay * p\n        if momentum != 0:\n"
            "            if i in momentum_buffers:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d\n"
            "            else:\n                momentum_buffers[i] = d.clone()\n"
            "            d = momentum_buffers[i]\n"
            "        with torch.no_grad():\n            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="returns the parameter list instead of None",
        expect="sgd_step 应返回 None",
        code=_SGD_HEAD + _SGD_OK + "    return params\n",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="keeps every micro-batch's output in a list (their graphs stay alive)",
        expect="模型输出 model(xb) 还被留着",
        mistake="outputs-kept-with-graph",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            ("    total = 0.0\n", "    total, outputs = 0.0, []\n"),
            (
                "        loss = loss_fn(model(xb), yb)",
                "        outputs.append(model(xb))\n        loss = loss_fn(outputs[-1], yb)",
            ),
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="switches the caller's loss_fn to reduction='sum' and divides by N",
        expect="reduction 从 'mean' 变成了 'sum'",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            ("    total = 0.0\n", "    total = 0.0\n    loss_fn.reduction = 'sum'\n"),
            ("loss_fn(model(xb), yb) * (xb.shape[0] / n)", "loss_fn(model(xb), yb) / n"),
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="loss_fn switched to reduction='sum' (restored at the end), each chunk / N: twice the gradient for 2 outputs",
        expect="weight.grad 的数值 (values) 不对",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            ("    total = 0.0\n", "    total = 0.0\n    loss_fn.reduction = 'sum'\n"),
            ("loss_fn(model(xb), yb) * (xb.shape[0] / n)", "loss_fn(model(xb), yb) / n"),
            ("    return total\n", "    loss_fn.reduction = 'mean'\n    return total\n"),
        ),
    ),
]

MUTANTS += [  # rxc: a look at the rwc fixes
    dict(  # the output itself is not held, something computed from it is: not told that a loss was kept
        grade_id="test_accumulate_grads",
        name="keeps torch.sigmoid of every micro-batch's output in a list (their graphs stay alive)",
        expect="由输出算出的 torch.sigmoid(out)",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            ("    total = 0.0\n", "    total, probs = 0.0, []\n"),
            (
                "        loss = loss_fn(model(xb), yb)",
                "        out = model(xb)\n        probs.append(torch.sigmoid(out))\n        loss = loss_fn(out, yb)",
            ),
        ),
    ),
]


MUTANTS += [  # gc: a look at the rxc fix
    dict(  # a retained graph keeps the output (the loss saved it): not told that the outputs were kept
        grade_id="test_accumulate_grads",
        name="sums the loss tensors and backpropagates each with retain_graph=True (graphs and saved tensors stay)",
        expect="backward() 用了 retain_graph=True",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            ("        loss.backward()\n", "        loss.backward(retain_graph=True)\n"),
            (
                "        total += loss.item()\n    return total\n",
                "        total = total + loss\n    return total.item()\n",
            ),
        ),
    ),
    dict(  # create_graph=True retains the graphs too, and each .grad hangs on them
        grade_id="test_accumulate_grads",
        name="backpropagates each micro-batch with create_graph=True (the .grad tensors keep every graph)",
        expect="或 create_graph=True",
        code=_ACC_HEAD + edited(_ACC_OK, ("        loss.backward()\n", "        loss.backward(create_graph=True)\n")),
    ),
    dict(  # out.abs() saved out for its backward: the output lives on, but the learner did not keep it
        grade_id="test_accumulate_grads",
        name="keeps out.abs().mean() of every micro-batch in a list (abs saved the output for its backward)",
        expect="由输出算出的 torch.sigmoid(out) 之类",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            ("    total = 0.0\n", "    total, sizes = 0.0, []\n"),
            (
                "        loss = loss_fn(model(xb), yb)",
                "        out = model(xb)\n        sizes.append(out.abs().mean())\n        loss = loss_fn(out, yb)",
            ),
        ),
    ),
    dict(  # the hint for a second backward through one graph offered a new forward per row, which the test refuses
        grade_id="test_jacobian",
        name="torch.autograd.grad per element of y without retain_graph",
        expect="不要改成每一行重新前向一次",
        code=(
            _JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n"
            "    rows = [torch.autograd.grad(y.reshape(-1)[i], leaf)[0] for i in range(y.numel())]\n"
            "    return torch.stack(rows).reshape(y.shape + x.shape)\n"
        ),
    ),
]

# Right answers written another way: each must pass its test cell (tests/test_mutants.py).
CORRECT = [
    dict(  # rvb5: only graphs that gradients flow through count, not every call of f
        grade_id="test_jacobian",
        name="an extra f(x) for the shape, never backpropagated",
        code=(
            _JAC_HEAD + "    shape = f(x.detach()).shape\n    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n"
            "    rows = [torch.autograd.grad(y.reshape(-1)[i], leaf, retain_graph=True)[0] for i in range(y.numel())]\n"
            "    return torch.stack(rows).reshape(shape + x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="torch.optim's multi-tensor style: torch._foreach_add_ under no_grad",
        code=(
            "def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n"
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n                continue\n"
            "            d = p.grad.add(p, alpha=weight_decay)\n"
            "            if momentum:\n"
            "                old = momentum_buffers.get(i)\n"
            "                d = momentum_buffers[i] = d.clone() if old is None else old.mul(momentum).add(d)\n"
            "            torch._foreach_add_([p], [d], alpha=-lr)\n"
        ),
    ),
    dict(  # gc: retain_graph=True alone keeps nothing: the graph goes once nothing holds its loss
        grade_id="test_accumulate_grads",
        name="retain_graph=True on every micro-batch, the loss added as a float",
        code=_ACC_HEAD + edited(_ACC_OK, ("        loss.backward()\n", "        loss.backward(retain_graph=True)\n")),
    ),
]

CORRECT += [  # s33: one backward per micro-batch written with autograd.grad, the gradients added by hand
    dict(
        grade_id="test_accumulate_grads",
        name="torch.autograd.grad per micro-batch, added into p.grad by hand",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            (
                "        loss.backward()\n",
                "        params = [p for p in model.parameters() if p.requires_grad]\n"
                "        grads = torch.autograd.grad(loss, params, allow_unused=True)\n"
                "        for p, g in zip(params, grads):\n"
                "            if g is not None:\n"
                "                p.grad = g if p.grad is None else p.grad + g\n",
            ),
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="torch.autograd.backward(loss) per micro-batch",
        code=_ACC_HEAD + edited(_ACC_OK, ("        loss.backward()\n", "        torch.autograd.backward(loss)\n")),
    ),
]

MUTANTS += [  # s34 (hb): a banned function named by a helper of the learner's, not by the graded function itself
    dict(
        grade_id="test_jacobian",
        name="torch.autograd.functional.jacobian imported at the top and called from a helper",
        expect="不能用 torch.autograd.functional.jacobian",
        code="from torch.autograd.functional import jacobian as _full_jacobian\n\n\n"
        "def _rows(f, x):\n    return _full_jacobian(f, x.detach())\n\n\n"
        "def jacobian(f, x):\n    return _rows(f, x)\n",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="torch.autograd.functional.vjp imported at the top and called from a helper",
        expect="不能用 torch.autograd.functional.vjp",
        code="from torch.autograd.functional import vjp as _full_vjp\n\n\n"
        "def _value_and_vjp(f, x):\n    value, grad = _full_vjp(f, x.detach())\n    return value.detach(), grad\n\n\n"
        "def value_and_grad(f, x):\n    return _value_and_vjp(f, x)\n",
    ),
    dict(
        grade_id="test_jacobian",
        name="an alias of torch.autograd.functional.jacobian set on torch.autograd",
        expect="不能用 torch.autograd.functional.jacobian",
        code="torch.autograd.full_jacobian = torch.autograd.functional.jacobian\n\n\n"
        "def jacobian(f, x):\n    return torch.autograd.full_jacobian(f, x.detach())\n",
    ),
]

MUTANTS += [  # s34 (hb): was told to cut the batch in order from the start, which it did
    dict(
        grade_id="test_accumulate_grads",
        name="a second forward of each micro-batch under no_grad to log the loss",
        expect="切块对了，但多做了 2 次前向。其中 2 次是在 torch.no_grad() 里做的",
        code=_ACC_HEAD
        + edited(
            _ACC_OK,
            (
                "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n",
                "        with torch.no_grad():\n"
                "            logged = loss_fn(model(xb), yb).item() * xb.shape[0] / n\n"
                "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n",
            ),
            ("        total += loss.item()\n", "        total += logged\n"),
        ),
    ),
]

MUTANTS += [  # s34 (hb): torch's own SGD kernel, imported at the top and called from a helper (full marks before)
    dict(
        grade_id="test_sgd_step",
        name="torch.optim.sgd._single_tensor_sgd imported at the top and called from a helper",
        expect="不能用 torch.optim.sgd._single_tensor_sgd",
        code="from torch.optim.sgd import _single_tensor_sgd as _sgd_kernel\n\n\n"
        "def _sgd_apply(params, grads, bufs, lr, momentum, weight_decay):\n"
        "    _sgd_kernel(params, grads, bufs, grad_scale=None, found_inf=None, weight_decay=weight_decay,\n"
        "                momentum=momentum, lr=lr, dampening=0.0, nesterov=False, maximize=False,\n"
        "                has_sparse_grad=False)\n\n\n"
        + _SGD_HEAD
        + "    idx = [i for i, p in enumerate(params) if p.grad is not None]\n"
        "    ps = [params[i] for i in idx]\n    bufs = [momentum_buffers.get(i) for i in idx]\n"
        "    with torch.no_grad():\n        _sgd_apply(ps, [p.grad for p in ps], bufs, lr, momentum, weight_decay)\n"
        "    if momentum:\n        for i, b in zip(idx, bufs):\n            momentum_buffers[i] = b\n",
    ),
]

MUTANTS += [  # s34 (hb): a decorated graded function was read through the decorator's wrapper (full marks before)
    dict(
        grade_id="test_value_and_grad",
        name="@torch.enable_grad() on value_and_grad, torch.autograd.functional.vjp imported at the top",
        expect="不能用 torch.autograd.functional.vjp",
        code="from torch.autograd.functional import vjp\n\n\n@torch.enable_grad()\n"
        + _VG_HEAD
        + "    value, grad = vjp(f, x.detach())\n    return value.detach(), grad\n",
    ),
    dict(
        grade_id="test_sgd_step",
        name="@torch.no_grad() on sgd_step, torch.optim.sgd._single_tensor_sgd imported at the top",
        expect="不能用 torch.optim.sgd._single_tensor_sgd",
        code="from torch.optim.sgd import _single_tensor_sgd\n\n\n@torch.no_grad()\n"
        + _SGD_HEAD
        + "    idx = [i for i, p in enumerate(params) if p.grad is not None]\n"
        "    ps = [params[i] for i in idx]\n    bufs = [momentum_buffers.get(i) for i in idx]\n"
        "    _single_tensor_sgd(ps, [p.grad for p in ps], bufs, grad_scale=None, found_inf=None,\n"
        "                       weight_decay=weight_decay, momentum=momentum, lr=lr, dampening=0.0,\n"
        "                       nesterov=False, maximize=False, has_sparse_grad=False)\n"
        "    if momentum:\n        for i, b in zip(idx, bufs):\n            momentum_buffers[i] = b\n",
    ),
]

MUTANTS += [  # s34 (hb): a banned function kept as a class attribute of the learner's (full marks before)
    dict(
        grade_id="test_jacobian",
        name="torch.autograd.functional.jacobian kept as a staticmethod of a class, called as _Tools.full",
        expect="不能用 torch.autograd.functional.jacobian",
        code="class _Tools:\n    full = staticmethod(torch.autograd.functional.jacobian)\n\n\n"
        + _JAC_HEAD
        + "    return _Tools.full(f, x.detach())\n",
    ),
]
MUTANTS += [  # s34 (hb): a banned function held in a dict / an object of the learner's
    dict(
        grade_id="test_jacobian",
        name="torch.autograd.functional.jacobian held in a dict and called as _TOOLS['full']",
        expect="不能用 torch.autograd.functional.jacobian",
        code="_TOOLS = {'full': torch.autograd.functional.jacobian}\n\n\n"
        + _JAC_HEAD
        + "    return _TOOLS['full'](f, x.detach())\n",
    ),
]


MUTANTS += [  # s35 review (h2): the first five passed every test, the last three were told a cause they did not have
    dict(
        grade_id="test_jacobian",
        name="allocates J like y (new_zeros): a float64 y gives J in y's dtype, not x's",
        expect="期望 torch.float32，得到 torch.float64",
        code=(
            "def jacobian(f, x):\n"
            "    leaf = x.detach().requires_grad_(True)\n"
            "    y = f(leaf)\n"
            "    J = y.new_zeros(y.shape + x.shape)\n"
            "    flat = J.reshape(y.numel(), *x.shape)\n"
            "    for i in range(y.numel()):\n"
            "        v = torch.zeros_like(y).reshape(-1)\n"
            "        v[i] = 1.0\n"
            "        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)\n"
            "        flat[i] = row\n"
            "    return flat.reshape(y.shape + x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_value_and_grad",
        name="differentiates a parameter in place and sets its .grad to None before and after",
        expect="不是新的叶子",
        code=(
            "def value_and_grad(f, x):\n"
            "    leaf = x if (x.is_leaf and x.requires_grad) else x.detach().requires_grad_(True)\n"
            "    leaf.grad = None\n"
            "    value = f(leaf)\n"
            "    value.backward()\n"
            "    grad = leaf.grad\n"
            "    leaf.grad = None\n"
            "    return value.detach(), grad\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="differentiates a parameter in place, clearing its .grad for every row and at the end",
        expect="不是新的叶子",
        code=(
            "def jacobian(f, x):\n"
            "    leaf = x if (x.is_leaf and x.requires_grad) else x.detach().requires_grad_(True)\n"
            "    y = f(leaf)\n"
            "    rows = []\n"
            "    for i in range(y.numel()):\n"
            "        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)\n"
            "        v[i] = 1.0\n"
            "        leaf.grad = None\n"
            "        y.backward(v.reshape(y.shape), retain_graph=True)\n"
            "        rows.append(leaf.grad.clone())\n"
            "    leaf.grad = None\n"
            "    return torch.stack(rows).reshape(y.shape + x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="model.train() first: an eval-mode model comes back in training mode",
        expect="调用前整个模型在评估模式",
        code=(
            "def accumulate_grads(model, loss_fn, x, y, micro_batch_size):\n"
            "    model.train()\n"
            "    model.zero_grad(set_to_none=True)\n"
            "    n = x.shape[0]\n"
            "    total = 0.0\n"
            "    for start in range(0, n, micro_batch_size):\n"
            "        xb = x[start:start + micro_batch_size]\n"
            "        yb = y[start:start + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n"
            "        loss.backward()\n"
            "        total = total + loss.detach()\n"
            "    return float(total)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="the first momentum buffer from torch.zeros(p.shape): float32 beside float16 parameters",
        expect="momentum_buffers[0]",
        code=(
            "def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n"
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            d = p.grad + weight_decay * p\n"
            "            if momentum != 0:\n"
            "                buf = momentum_buffers.get(i, torch.zeros(p.shape))\n"
            "                momentum_buffers[i] = momentum * buf + d\n"
            "                d = momentum_buffers[i]\n"
            "            p.sub_(lr * d)\n"
        ),
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="backward() dedented out of the loop: only the last micro-batch is backpropagated",
        expect="反向传播只做了 1 次",
        code=(
            "def accumulate_grads(model, loss_fn, x, y, micro_batch_size):\n"
            "    model.zero_grad(set_to_none=True)\n"
            "    n = x.shape[0]\n"
            "    total = 0.0\n"
            "    for start in range(0, n, micro_batch_size):\n"
            "        xb = x[start:start + micro_batch_size]\n"
            "        yb = y[start:start + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n"
            "        total += loss.item()\n"
            "    loss.backward()\n"
            "    return total\n"
        ),
    ),
    dict(
        grade_id="test_jacobian",
        name="one v made before the loop and never cleared: it fills up with ones",
        expect="这些行没有经过任何 .grad",
        code=(
            "def jacobian(f, x):\n"
            "    leaf = x.detach().requires_grad_(True)\n"
            "    y = f(leaf)\n"
            "    v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)\n"
            "    rows = []\n"
            "    for i in range(y.numel()):\n"
            "        v[i] = 1.0\n"
            "        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)\n"
            "        rows.append(row)\n"
            "    return torch.stack(rows).reshape(y.shape + x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_sgd_step",
        name="adds weight decay into d, then steps with p.grad instead of d or the buffer",
        expect="这是只用 p.grad 更新的结果",
        code=(
            "def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n"
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            d = p.grad + weight_decay * p\n"
            "            if momentum != 0:\n"
            "                if i in momentum_buffers:\n"
            "                    momentum_buffers[i] = momentum * momentum_buffers[i] + d\n"
            "                else:\n"
            "                    momentum_buffers[i] = d.clone()\n"
            "            p.sub_(lr * p.grad)\n"
        ),
    ),
]

MUTANTS += [  # s35 review (h2): the one-hot v made with the default device: a GPU x fails (meta plays it)
    dict(
        grade_id="test_jacobian",
        name="v = torch.zeros(y.numel()) on the default device, whatever device y is on",
        expect="expected device meta but got cpu",
        code=_JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n    rows = []\n"
        "    for i in range(y.numel()):\n        v = torch.zeros(y.numel())\n        v[i] = 1.0\n"
        "        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)\n"
        "        rows.append(row)\n"
        "    return torch.stack(rows).reshape(y.shape + x.shape)\n",
    ),
]

MUTANTS += [  # s35 final pass (r2): passed every test (every test kept momentum fixed)
    dict(
        grade_id="test_sgd_step",
        name="keeps a momentum buffer even with momentum=0: a warm-up from 0 to 0.9 starts from a stale buffer",
        expect="momentum 依次是 0、0、0.9、0.9、0、0.9，第 3 步（momentum=0.9）之后的 momentum_buffers[0]",
        code=_SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
        "            if p.grad is None:\n                continue\n"
        "            d = p.grad + weight_decay * p\n"
        "            if i in momentum_buffers:\n"
        "                momentum_buffers[i] = momentum * momentum_buffers[i] + d\n"
        "            else:\n                momentum_buffers[i] = d.clone()\n"
        "            p.sub_(lr * momentum_buffers[i])\n",
    ),
]


MUTANTS += [  # s36: a call that leaves a process-wide setting changed (course.settings watches every call)
    dict(
        grade_id="test_jacobian",
        name="sets torch.autograd.set_detect_anomaly() inside jacobian and leaves it so",
        mistake="global-setting-changed",
        expect="torch.autograd.set_detect_anomaly()",
        code=solution_with(
            "05_autograd",
            "jacobian",
            (
                "    leaf = x.detach()",
                "    torch.autograd.set_detect_anomaly(True)  # to debug backward\n    leaf = x.detach()",
            ),
        ),
    ),
]


_JAC_BY_BACKWARD = (
    "def jacobian(f, x):\n"
    "    leaf = x.detach().requires_grad_(True)\n"
    "    y = f(leaf)\n"
    "    rows = []\n"
    "    for i in range(y.numel()):\n"
    "        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)\n"
    "        v[i] = 1.0\n"
    "        leaf.grad = None\n"
    "        y.backward(v.reshape(y.shape), retain_graph=True)\n"
    "        rows.append(leaf.grad.to(x.dtype))\n"
    "    return torch.stack(rows).reshape(y.shape + x.shape)\n"
)

MUTANTS += [  # s36 review (b2): no f had parameters of its own, so backward() into them passed
    dict(
        grade_id="test_jacobian",
        name="one y.backward(v, retain_graph=True) per row: f's own parameters get .grad too",
        expect="f 自己的参数 ['weight', 'bias'] 有了 .grad",
        code=_JAC_BY_BACKWARD,
    ),
]

CORRECT += [  # s36: backward() limited to the leaf writes no other .grad
    dict(
        grade_id="test_jacobian",
        name="y.backward(v, inputs=[leaf], retain_graph=True): only the leaf gets .grad",
        code=edited(_JAC_BY_BACKWARD, ("retain_graph=True)", "inputs=[leaf], retain_graph=True)")),
    ),
]

_VG_BY_BACKWARD = (
    "def value_and_grad(f, x):\n"
    "    leaf = x.detach().requires_grad_(True)\n"
    "    value = f(leaf)\n"
    "    value.backward()\n"
    "    return value.detach(), leaf.grad\n"
)

MUTANTS += [  # s37: the spec's old reference answer: no tested f had parameters of its own
    dict(
        grade_id="test_value_and_grad",
        name="value.backward(): f's own parameters get .grad too",
        expect="f 自己的参数 ['linear.weight', 'linear.bias'] 有了 .grad",
        code=_VG_BY_BACKWARD,
    ),
]

CORRECT += [  # s37: backward() limited to the leaf writes no other .grad
    dict(
        grade_id="test_value_and_grad",
        name="value.backward(inputs=[leaf]): only the leaf gets .grad",
        code=edited(_VG_BY_BACKWARD, ("value.backward()", "value.backward(inputs=[leaf])")),
    ),
]

MUTANTS += [  # s37 review (b3): passed every test (nothing counted the calls of f)
    dict(
        grade_id="test_value_and_grad",
        name="the value from a no_grad forward, the gradient from a second forward",
        expect="调用了 f 2 次",
        code="def value_and_grad(f, x):\n"
        "    with torch.no_grad():\n"
        "        value = f(x)\n"
        "    leaf = x.detach().requires_grad_(True)\n"
        "    (grad,) = torch.autograd.grad(f(leaf), leaf)\n"
        "    return value, grad\n",
    ),
]

MUTANTS += [  # s37 review (b3): wrong cause (told zero_grad() was in the loop; it never called zero_grad)
    dict(
        grade_id="test_accumulate_grads",
        name="autograd.grad per micro-batch assigned to p.grad instead of added",
        mistake="zero-grad-inside-accumulation",
        expect="p.grad = g 直接赋值而不是累加",
        code=_ACC_HEAD + "    params = [p for p in model.parameters() if p.requires_grad]\n"
        "    n = x.shape[0]\n"
        "    total = 0.0\n"
        "    for p in params:\n"
        "        p.grad = None\n"
        "    for start in range(0, n, micro_batch_size):\n"
        "        xb, yb = x[start:start + micro_batch_size], y[start:start + micro_batch_size]\n"
        "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n"
        "        grads = torch.autograd.grad(loss, params)\n"
        "        for p, g in zip(params, grads):\n"
        "            p.grad = g\n"
        "        total += loss.item()\n"
        "    return total\n",
    ),
]

MUTANTS += [  # s37 review (b4): passed every test (no tested model had a frozen parameter)
    dict(
        grade_id="test_accumulate_grads",
        name="model.requires_grad_(True) first, 'so every parameter gets a gradient': unfreezes the caller's layers",
        expect="不改调用者冻结的参数",
        code=_ACC_HEAD + "    model.requires_grad_(True)\n"
        "    model.zero_grad(set_to_none=True)\n"
        "    n = x.shape[0]\n"
        "    total = 0.0\n"
        "    for start in range(0, n, micro_batch_size):\n"
        "        xb, yb = x[start:start + micro_batch_size], y[start:start + micro_batch_size]\n"
        "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n"
        "        loss.backward()\n"
        "        total += loss.item()\n"
        "    return total\n",
    ),
]


MUTANTS += [  # s38 review (b5): a float32 accumulator passed the float64 cases' rtol 1e-7
    dict(
        grade_id="test_accumulate_grads",
        name="float32 accumulator torch.zeros(()) for float64 losses",
        expect="返回值（整批平均 loss） 的数值不对",
        code=(
            "def accumulate_grads(model: nn.Module, loss_fn, x: torch.Tensor, y: torch.Tensor, micro_batch_size: int) -> float:\n"
            "    model.zero_grad(set_to_none=True)\n"
            "    n = x.shape[0]\n"
            "    total = torch.zeros((), device=x.device)  # accumulate on the device, one .item() at the end\n"
            "    for start in range(0, n, micro_batch_size):\n"
            "        xb = x[start:start + micro_batch_size]\n"
            "        yb = y[start:start + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n"
            "        loss.backward()\n"
            "        total += loss.detach()\n"
            "    return total.item()\n"
        ),
    ),
]

MUTANTS += [  # s38 review (b5): ready-made Jacobians and transforms under names the bans did not list
    dict(
        grade_id="test_jacobian",
        name="gradcheck's _compute_analytical_jacobian_rows builds the one-hot rows",
        expect="不能用 torch.autograd.gradcheck._compute_analytical_jacobian_rows",
        code="from torch.autograd.gradcheck import _compute_analytical_jacobian_rows\n\n\n"
        "def jacobian(f, x: torch.Tensor) -> torch.Tensor:\n"
        "    leaf = x.detach().requires_grad_(True)\n"
        "    y = f(leaf)\n"
        "    rows = _compute_analytical_jacobian_rows(lambda v: torch.autograd.grad(y, leaf, v, retain_graph=True), y)[0]\n"
        "    return torch.stack(rows).reshape(y.shape + x.shape)\n",
    ),
    dict(
        grade_id="test_jacobian",
        name="gradcheck.get_analytical_jacobian, transposed",
        expect="不能用 torch.autograd.gradcheck.get_analytical_jacobian",
        code="from torch.autograd.gradcheck import get_analytical_jacobian\n\n\n"
        "def jacobian(f, x: torch.Tensor) -> torch.Tensor:\n"
        "    leaf = x.detach().requires_grad_(True)\n"
        "    y = f(leaf)\n"
        "    (j,), *_ = get_analytical_jacobian((leaf,), y)\n"
        "    return j.T.reshape(y.shape + x.shape)\n",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="torch._functorch.eager_transforms.grad_and_value_impl (torch.func.grad_and_value's body)",
        expect="torch.func 变换",
        code="from torch._functorch.eager_transforms import grad_and_value_impl\n\n\n"
        "def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n"
        "    grad, value = grad_and_value_impl(f, 0, False, (x,), {})\n"
        "    return value.detach(), grad.detach()\n",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="torch._functorch.eager_transforms._vjp_with_argnums (torch.func.vjp's body)",
        expect="torch.func 变换",
        code="from torch._functorch.eager_transforms import _vjp_with_argnums\n\n\n"
        "def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n"
        "    value, pullback = _vjp_with_argnums(f, x.detach())\n"
        "    (grad,) = pullback(torch.ones_like(value))\n"
        "    return value.detach(), grad.detach()\n",
    ),
    dict(
        grade_id="test_jacobian",
        name="one-hot rows through torch._functorch.eager_transforms._vjp_with_argnums",
        expect="torch.func 变换",
        code="from torch._functorch.eager_transforms import _vjp_with_argnums\n\n\n"
        "def jacobian(f, x: torch.Tensor) -> torch.Tensor:\n"
        "    y, pullback = _vjp_with_argnums(f, x.detach())\n"
        "    eye = torch.eye(y.numel(), dtype=y.dtype, device=y.device)\n"
        "    rows = [pullback(v.reshape(y.shape))[0] for v in eye]\n"
        "    return torch.stack(rows).reshape(y.shape + x.shape).detach()\n",
    ),
    dict(  # wrong cause before: told it made 1 VJP where y has 2 elements (it made them all in one batched VJP)
        grade_id="test_jacobian",
        name="autograd.grad rows batched by torch._functorch.vmap.vmap_impl",
        expect="torch.func 变换",
        code="from torch._functorch.vmap import vmap_impl\n\n\n"
        "def jacobian(f, x: torch.Tensor) -> torch.Tensor:\n"
        "    leaf = x.detach().requires_grad_(True)\n"
        "    y = f(leaf)\n"
        "    eye = torch.eye(y.numel(), dtype=y.dtype, device=y.device).reshape(y.numel(), *y.shape)\n\n"
        "    def row(v):\n"
        "        return torch.autograd.grad(y, leaf, v, retain_graph=True)[0]\n\n"
        "    return vmap_impl(row, 0, 0, 'error', None, eye).reshape(y.shape + x.shape)\n",
    ),
]

MUTANTS += [  # s38 review (b5): a buffer made for a parameter skipped for its None grad passed every test
    dict(
        grade_id="test_sgd_step",
        name="zero momentum buffers allocated up front for every param, the skipped ones too",
        expect="momentum_buffers 里却有了键",
        code=_SGD_HEAD + "    with torch.no_grad():\n"
        "        for i, p in enumerate(params):\n"
        "            if momentum != 0 and i not in momentum_buffers:\n"
        "                momentum_buffers[i] = torch.zeros_like(p)\n"
        "            if p.grad is None:\n"
        "                continue\n"
        "            d = p.grad + weight_decay * p\n"
        "            if momentum != 0:\n"
        "                buf = momentum_buffers[i]\n"
        "                buf.mul_(momentum).add_(d)\n"
        "                d = buf\n"
        "            p.sub_(lr * d)\n",
    ),
]


# s38 (b6), fb3
MUTANTS += [  # s38 review (b6): each passed every test
    dict(
        grade_id="test_jacobian",
        name="rows as differences of the never-cleared leaf.grad (loses the small rows next to large ones)",
        expect="leaf.grad 里还留着前面各行的梯度",
        mistake="grad-accumulates-across-backward",
        code="def jacobian(f, x):\n    # y computed once; gradients accumulate in leaf.grad, so each row is the\n    # difference between the accumulated gradient after and before this VJP\n    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n    rows = []\n    previous = torch.zeros_like(leaf)\n    for i in range(y.numel()):\n        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)\n        v[i] = 1.0\n        y.backward(v.reshape(y.shape), retain_graph=True, inputs=[leaf])\n        total = leaf.grad.clone()\n        rows.append(total - previous)\n        previous = total\n    return torch.stack(rows).reshape(y.shape + x.shape).to(x.dtype)\n",
    ),
    dict(
        grade_id="test_sgd_step",
        name="requires_grad_(False) around the in-place update instead of no_grad()",
        expect="在 grad mode 开着时",
        code="def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n    for i, p in enumerate(params):\n        if p.grad is None:\n            continue\n        p.requires_grad_(False)  # autograd refuses in-place ops on a leaf that requires grad: switch it off meanwhile\n        d = p.grad + weight_decay * p\n        if momentum != 0:\n            if i in momentum_buffers:\n                momentum_buffers[i] = momentum * momentum_buffers[i] + d\n            else:\n                momentum_buffers[i] = d.clone()\n            d = momentum_buffers[i]\n        p.sub_(lr * d)\n        p.requires_grad_(True)\n",
    ),
    dict(
        grade_id="test_sgd_step",
        name="the whole step under torch.inference_mode(): the momentum buffers are inference tensors",
        expect="是推理张量",
        code="def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n    with torch.inference_mode():  # the stricter, faster no_grad: the update needs no graph at all\n        for i, p in enumerate(params):\n            if p.grad is None:\n                continue\n            d = p.grad + weight_decay * p\n            if momentum != 0:\n                if i in momentum_buffers:\n                    momentum_buffers[i] = momentum * momentum_buffers[i] + d\n                else:\n                    momentum_buffers[i] = d.clone()\n                d = momentum_buffers[i]\n            p.sub_(lr * d)\n",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="switches the caller's x to requires_grad for the call and back",
        expect="临时切换了 requires_grad",
        code="def value_and_grad(f, x):\n    # differentiate with respect to x itself; switch requires_grad on only for the call when x has none\n    switched = not x.requires_grad\n    if switched:\n        x.requires_grad_(True)\n    value = f(x)\n    (grad,) = torch.autograd.grad(value, x)  # returns the gradient, writes no .grad anywhere\n    if switched:\n        x.requires_grad_(False)\n    return value.detach(), grad\n",
    ),
]


# s38 (b7), fb4
MUTANTS += [  # s38 review (b7): passed every test (the grad-mode watch matched the parameter by identity)
    dict(
        grade_id="test_sgd_step",
        name="the update through a detached alias with grad mode on (w = p.detach(); w.sub_(...))",
        expect="通过另一个张量被原地写的",
        code=(
            "def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n"
            "    for i, p in enumerate(params):\n"
            "        if p.grad is None:\n"
            "            continue\n"
            "        w = p.detach()  # shares storage and version counter with p\n"
            "        d = p.grad + weight_decay * w\n"
            "        if momentum != 0:\n"
            "            if i in momentum_buffers:\n"
            "                momentum_buffers[i] = momentum * momentum_buffers[i] + d\n"
            "            else:\n"
            "                momentum_buffers[i] = d.clone()\n"
            "            d = momentum_buffers[i]\n"
            "        w.sub_(lr * d)\n"
        ),
    ),
]
MUTANTS += [  # s38 review (b7): passed every test (no frozen parameter came with a stale .grad)
    dict(
        grade_id="test_accumulate_grads",
        name="clears the stale .grad of trainable parameters only; a frozen one keeps its old gradient",
        expect="调用前的旧 .grad",
        code=(
            "def accumulate_grads(model, loss_fn, x, y, micro_batch_size):\n"
            "    for p in model.parameters():\n"
            "        if p.requires_grad:  # frozen ones get no grad, so leave them alone\n"
            "            p.grad = None\n"
            "    n = x.shape[0]\n"
            "    total = 0.0\n"
            "    for start in range(0, n, micro_batch_size):\n"
            "        xb = x[start:start + micro_batch_size]\n"
            "        yb = y[start:start + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n"
            "        loss.backward()\n"
            "        total = total + loss.detach()\n"
            "    return float(total)\n"
        ),
    ),
]


MUTANTS += [  # s39 (b9): told what differed, not requires_grad_(True)
    dict(
        grade_id="test_accumulate_grads",
        name="zero_grad_set_to_none_false_leaves_frozen_zeros",
        expect="是全 0 的张量，不是 None",
        code=(
            "def accumulate_grads(model, loss_fn, x, y, micro_batch_size):\n"
            "    model.zero_grad(set_to_none=False)  # clear old gradients (in place, keeps the buffers)\n"
            "    n = x.shape[0]\n"
            "    total = 0.0\n"
            "    for start in range(0, n, micro_batch_size):\n"
            "        xb, yb = x[start:start + micro_batch_size], y[start:start + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n"
            "        loss.backward()\n"
            "        total = total + loss.detach()\n"
            "    return float(total)\n"
        ),
    ),
]


MUTANTS += [  # s40 (b8): sgd_step was only tested on the CPU
    dict(
        grade_id="test_sgd_step",
        name="the first momentum buffer from torch.zeros(p.shape, dtype=p.dtype): on the CPU beside GPU parameters",
        expect="momentum_buffers[0] 在 cpu 上",
        code=(
            "def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, "
            "weight_decay: float = 0.0) -> None:\n"
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            d = p.grad + weight_decay * p\n"
            "            if momentum != 0:\n"
            "                if i not in momentum_buffers:\n"
            "                    momentum_buffers[i] = torch.zeros(p.shape, dtype=p.dtype)  # first step gives buf = d\n"
            "                buf = momentum_buffers[i]\n"
            "                buf.mul_(momentum).add_(d)\n"
            "                d = buf\n"
            "            p.sub_(lr * d)\n"
        ),
    ),
]


MUTANTS += [  # s40 (b10): model.forward(xb) skips nn.Module.__call__ and every hook registered on the model
    dict(
        grade_id="test_accumulate_grads",
        name="loss_fn(model.forward(xb), yb): the model's hooks never run",
        expect="一次也没有通过 model(x) 调用",
        code=solution_with("05_autograd", "accumulate_grads", ("model(xb)", "model.forward(xb)")),
    ),
]


MUTANTS += [  # s40 (b11): value_and_grad and accumulate_grads were only tested on the CPU
    dict(
        grade_id="test_value_and_grad",
        name="the new leaf from torch.empty(x.shape, dtype=x.dtype): on the CPU beside a GPU x",
        expect="返回的 value 在 cpu 上",
        code="def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n    # a fresh leaf with x's shape / dtype and x's values (device forgotten: default CPU)\n    leaf = torch.empty(x.shape, dtype=x.dtype)\n    leaf.copy_(x.detach())\n    leaf.requires_grad_(True)\n    value = f(leaf)\n    (grad,) = torch.autograd.grad(value, leaf)\n    return value.detach(), grad\n",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="a float64 accumulator torch.zeros(()) on the CPU, total += loss.detach() with a GPU loss",
        expect="torch.zeros(()) 不写 device=",
        code="def accumulate_grads(model: nn.Module, loss_fn, x: torch.Tensor, y: torch.Tensor, micro_batch_size: int) -> float:\n    model.zero_grad(set_to_none=True)\n    n = x.shape[0]\n    total = torch.zeros((), dtype=torch.float64)  # float64 accumulator, one sync at the end (device forgotten: CPU)\n    for start in range(0, n, micro_batch_size):\n        xb = x[start:start + micro_batch_size]\n        yb = y[start:start + micro_batch_size]\n        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n        loss.backward()\n        total += loss.detach()\n    return total.item()\n",
    ),
]

_ACC_TENSOR_TOTAL = """    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = torch.zeros((), dtype=x.dtype, device=x.device)
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total += loss.detach()
    return total.item()
"""

MUTANTS += [  # b12: the accumulator follows the input's dtype, not the loss's
    dict(  # b12 cand05: int64 token ids into an Embedding model crash (Double can't be cast to Long)
        grade_id="test_accumulate_grads",
        name="accumulator made with dtype=x.dtype (int64 token ids: the float loss cannot be added)",
        expect="loss 的 dtype 是 float64",
        code=_ACC_HEAD + _ACC_TENSOR_TOTAL,
    ),
    dict(  # the same with floating inputs only: float32 inputs to a float64 model lose the loss's precision
        grade_id="test_accumulate_grads",
        name="accumulator in x's dtype when x is floating (float32 inputs to a float64 model)",
        expect="按 loss 的 dtype float64 累加，不是按 x 的 dtype",
        code=_ACC_HEAD
        + edited(
            _ACC_TENSOR_TOTAL,
            (
                "dtype=x.dtype,",
                "dtype=x.dtype if x.is_floating_point() else torch.float64,",
            ),
        ),
    ),
]


MUTANTS += [  # s42 review (e2): grad mode turned off and on by calls instead of a with-block
    dict(  # e2 cand14
        grade_id="test_sgd_step",
        name="set_grad_enabled(False) ... set_grad_enabled(True) calls around the update (a caller in no_grad gets grad mode on)",
        mistake="global-setting-changed",
        expect="sgd_step 返回之后 grad mode 变了（False -> True）",
        code=_SGD_HEAD
        + "    torch.set_grad_enabled(False)\n"
        + _SGD_OK.replace("    with torch.no_grad():\n", "    if True:\n")
        + "    torch.set_grad_enabled(True)\n",
    ),
]

CORRECT += [  # s42 review (e2): the caller's grad mode put back whatever it was
    dict(
        grade_id="test_sgd_step",
        name="the update under `with torch.set_grad_enabled(False):` (a context manager restores the caller's mode)",
        code=_SGD_HEAD + _SGD_OK.replace("torch.no_grad()", "torch.set_grad_enabled(False)"),
    ),
]

MUTANTS += [  # s42 review (e2): the spec's "也不要用 torch.inference_mode()" (full marks before: in-place on a normal tensor works there)
    dict(  # e2 cand07
        grade_id="test_sgd_step",
        name="d and the buffers under no_grad(), the write p.sub_(lr * d) under torch.inference_mode()",
        expect="是在 torch.inference_mode() 里被原地更新的",
        code=_SGD_HEAD
        + _SGD_OK.replace(
            "            p.sub_(lr * d)\n", "            with torch.inference_mode():\n                p.sub_(lr * d)\n"
        ),
    ),
]

MUTANTS += [  # s43 review (f2): a copy to the host was read as "meta has no data" and the device check skipped
    dict(  # f2 cand03
        grade_id="test_value_and_grad",
        name="the new leaf from x.detach().cpu(): value and grad on the CPU for a GPU x",
        expect="函数把输入的数据拷出了它的设备",
        code="def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n    leaf = x.detach().cpu().requires_grad_(True)\n    value = f(leaf)\n    (grad,) = torch.autograd.grad(value, leaf)\n    return value.detach(), grad\n",
    ),
    dict(  # f2 cand24
        grade_id="test_value_and_grad",
        name="the new leaf from torch.tensor(x.tolist()): a read back to Python, and a CPU leaf",
        expect="函数把输入的数据拷出了它的设备",
        code="def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n    leaf = torch.tensor(x.tolist(), dtype=x.dtype, requires_grad=True)\n    value = f(leaf)\n    (grad,) = torch.autograd.grad(value, leaf)\n    return value.detach(), grad\n",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="each micro-batch's loss kept on the host (loss.detach().cpu()) and summed there",
        expect="函数把输入的数据拷出了它的设备",
        code="def accumulate_grads(model: nn.Module, loss_fn, x: torch.Tensor, y: torch.Tensor, micro_batch_size: int) -> float:\n    model.zero_grad(set_to_none=True)\n    n = x.shape[0]\n    losses = []\n    for start in range(0, n, micro_batch_size):\n        xb = x[start:start + micro_batch_size]\n        yb = y[start:start + micro_batch_size]\n        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)\n        loss.backward()\n        losses.append(loss.detach().cpu())\n    return float(sum(losses))\n",
    ),
]

MUTANTS += [  # issue-17 second pass (f2, stop 43)
    dict(
        grade_id="test_sgd_step",
        name="p.set_(p - lr * d): the parameter's memory swapped for a new tensor, not written in place",
        expect="换了一块内存（data_ptr 变了",
        code=_SGD_HEAD + "    with torch.no_grad():\n        for i, p in enumerate(params):\n"
        "            if p.grad is None:\n                continue\n            d = p.grad + weight_decay * p\n"
        "            if momentum != 0:\n"
        "                momentum_buffers[i] = momentum * momentum_buffers[i] + d if i in momentum_buffers else d.clone()\n"
        "                d = momentum_buffers[i]\n            p.set_(p - lr * d)\n",
    ),
    dict(
        grade_id="test_jacobian",
        name="one-hot v made on the CPU and moved to y's device for every row",
        expect="函数把 CPU 上一个形状 (4,) 的张量用在了 GPU 上的 aten._to_copy 里，一共 4 次",
        code=_JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n    rows = []\n"
        "    for i in range(y.numel()):\n        v = torch.zeros(y.numel(), dtype=y.dtype)\n        v[i] = 1.0\n"
        "        v = v.to(y.device)\n"
        "        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)\n"
        "        rows.append(row)\n    return torch.stack(rows).reshape(y.shape + x.shape)\n",
    ),
]

CORRECT += [
    dict(
        grade_id="test_jacobian",
        name="one-hot rows from torch.eye(n, device=y.device)",
        code=_JAC_HEAD + "    leaf = x.detach().requires_grad_(True)\n    y = f(leaf)\n"
        "    eye = torch.eye(y.numel(), dtype=y.dtype, device=y.device)\n"
        "    rows = [torch.autograd.grad(y, leaf, grad_outputs=e.reshape(y.shape), retain_graph=True)[0] for e in eye]\n"
        "    return torch.stack(rows).reshape(y.shape + x.shape)\n",
    ),
]


MUTANTS += [  # issue-17 third pass (h2, stop 44): full marks because every call came with grad mode on and the default precision
    dict(
        grade_id="test_value_and_grad",
        name="torch.set_grad_enabled(True) at the top, never put back (a caller in no_grad() gets grad mode on)",
        expect="value_and_grad 返回之后 grad mode 变了（False -> True）",
        code="""\
def value_and_grad(f, x):
    torch.set_grad_enabled(True)  # "so it also works when the caller is under no_grad" -- never restored
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="torch.set_grad_enabled(True) at the top, never put back",
        expect="jacobian 返回之后 grad mode 变了（False -> True）",
        code="""\
def jacobian(f, x):
    torch.set_grad_enabled(True)  # global switch, never restored
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    eye = torch.eye(y.numel(), dtype=y.dtype, device=y.device)
    rows = []
    for i in range(y.numel()):
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=eye[i].reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="torch.set_grad_enabled(True) at the top, never put back",
        expect="accumulate_grads 返回之后 grad mode 变了（False -> True）",
        code="""\
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    torch.set_grad_enabled(True)  # "in case the caller is evaluating": global, never restored
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="set_float32_matmul_precision('highest') for exact rows, never put back (the caller had chosen TF32)",
        expect="'high' -> 'highest'",
        code="""\
def jacobian(f, x):
    torch.set_float32_matmul_precision("highest")  # "float32 rows must be exact" -- global, never restored
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="if not torch.isfinite(value): raise (a host read per call)",
        expect="value_and_grad 把张量的值读回了主机：bool() / if",
        code="""\
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    if not torch.isfinite(value):  # guard: bool() of a device tensor = a sync per call
        raise ValueError("f(x) is not finite")
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
]

CORRECT += [  # h2 (stop 44): a caller inside no_grad() still gets value and grad, and its grad mode back
    dict(
        grade_id="test_value_and_grad",
        name="the graph built under torch.enable_grad()",
        code="""\
def value_and_grad(f, x):
    with torch.enable_grad():  # robust: works for a caller inside no_grad(), restores the mode on exit
        leaf = x.detach().requires_grad_(True)
        value = f(leaf)
        (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
]

MUTANTS += [  # h2 (stop 44 cand10): told only meta's own error; the read of each gradient is named now
    dict(
        grade_id="test_sgd_step",
        name="skips a parameter whose gradient is not finite (a host read per parameter per step)",
        expect="函数读了设备上张量的值",
        code="""\
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            if not torch.isfinite(p.grad).all():
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]


MUTANTS += [  # stop 45 (lead): autocast guarded by the batch being on a GPU: the played GPU did not look at autocast
    dict(
        grade_id="test_accumulate_grads",
        name="each micro-batch's forward under torch.autocast(float16) when x is on a GPU",
        expect='前向在 torch.autocast("cuda", dtype=torch.float16) 里运行',
        code="""\
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        with torch.autocast(device_type="cuda", dtype=torch.float16, enabled=xb.is_cuda):
            loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
]


MUTANTS += [  # stop 46 (j4 cand02, cand21): a 0-d host tensor copied to the device is an upload too
    dict(
        grade_id="test_jacobian",
        name="one-hot v made on y's device, its 1 written from a 0-d CPU tensor (v[i] = torch.tensor(1.0))",
        expect="形状 () 的张量用在了 GPU 上的 aten.copy_ 里",
        code="""\
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    one = torch.tensor(1.0, dtype=y.dtype)
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = one
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="grad_outputs=torch.tensor(1.0) made on the host (autograd copies it to the device every call)",
        expect="grad(..., 主机上的梯度张量)",
        code="""\
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf, grad_outputs=torch.tensor(1.0, dtype=value.dtype))
    return value.detach(), grad
""",
    ),
]


MUTANTS += [  # stop 46 (j4 cand32, cand11): momentum kept in a module-level dict, the caller's buffers never read
    dict(
        grade_id="test_sgd_step",
        name="momentum state in a module-level dict keyed by the parameter's index, only mirrored into momentum_buffers",
        expect="sgd_step 抛出",
        code="""\
_state = {}
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    if not momentum_buffers:
        _state.clear()
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                buf = momentum * _state[i] + d if i in _state else d.clone()
                _state[i] = buf
                momentum_buffers[i] = buf
                d = buf
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="momentum state in a module-level dict keyed by the parameter object, only mirrored into momentum_buffers",
        expect="动量",  # the kernel (same objects each step) fails in the resume case, the judge already at step 2
        code="""\
_state = {}
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                held = _state.get(id(p))
                if held is not None and held[0] is p:
                    buf = momentum * held[1] + d
                else:
                    buf = d.clone()
                _state[id(p)] = (p, buf)
                momentum_buffers[i] = buf
                d = buf
            p.sub_(lr * d)
""",
    ),
]

MUTANTS += [  # stop 47 review (m2): a memo keyed by f, x and x's version misses what f itself reads
    dict(
        grade_id="test_value_and_grad",
        name="memo keyed by id(f), id(x) and x._version (f and x kept alive: their ids stay theirs)",
        expect="第二次返回的 grad 和第一次完全一样",
        code="""
_VG_CACHE = {}
def value_and_grad(f, x):
    key = (f, x, x._version)  # the objects themselves: an id reused by a later f or x hits no stale entry
    hit = _VG_CACHE.get(key)
    if hit is not None and hit[0] is x and hit[1] is f:
        return hit[2]
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    out = (value.detach(), grad)
    _VG_CACHE[key] = (x, f, out)
    return out
""",
    ),
]

MUTANTS += [  # stop 48 review (n2): a non-finite value quietly replaced; no case had one
    dict(
        grade_id="test_sgd_step",
        name="nan_to_num on the gradient: a diverged step leaves the parameters finite",
        expect="发散要看得见",
        code="""
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = torch.nan_to_num(p.grad, nan=0.0, posinf=0.0, neginf=0.0) + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="nan_to_num on the returned gradient (sync-free 'sanitiser')",
        expect="∂f/∂x 是 0/0",
        code="""
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), torch.nan_to_num(grad, nan=0.0, posinf=0.0, neginf=0.0)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="nan_to_num on every VJP row",
        expect="这一行是 0/0",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(torch.nan_to_num(row, nan=0.0, posinf=0.0, neginf=0.0))
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # stop 48 review (n2): memos that passed the re-call checks (they changed only what the key saw)
    dict(
        grade_id="test_value_and_grad",
        name="a memo keyed on the ids and versions of every tensor f reads by name",
        expect="存下来的",
        code="""
import torch as _t
_VG_MEMO = {}

def _vg_reads(f):
    out = []
    g = getattr(f, "__globals__", {})
    code = getattr(f, "__code__", None)
    names = code.co_names if code is not None else ()
    for n in names:
        v = g.get(n)
        if isinstance(v, _t.Tensor):
            out.append((n, id(v), v._version))
        elif isinstance(v, _t.nn.Module):
            out.extend((n, id(p), p._version) for p in v.parameters())
    for c in (getattr(f, "__closure__", None) or ()):
        try:
            v = c.cell_contents
        except ValueError:
            continue
        if isinstance(v, _t.Tensor):
            out.append(("<cell>", id(v), v._version))
        elif isinstance(v, _t.nn.Module):
            out.extend(("<cell>", id(p), p._version) for p in v.parameters())
    return tuple(out)

def value_and_grad(f, x):
    key = (id(f), id(x), x._version, _vg_reads(f))
    hit = _VG_MEMO.get(key)
    if hit is not None:
        return hit[2], hit[3]
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = _t.autograd.grad(value, leaf)
    res = (f, x, value.detach(), grad)  # keep f and x alive so their ids stay theirs
    _VG_MEMO[key] = res
    return res[2], res[3]
""",
    ),
]

MUTANTS += [  # stop 48 review (n2 cand10): a non-finite accumulated gradient quietly replaced; no case had one
    dict(
        grade_id="test_accumulate_grads",
        name="p.grad.nan_to_num_() for every parameter at the end",
        expect="不是有限的梯度原样留给调用者",
        code="""
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    with torch.no_grad():
        for p in model.parameters():
            if p.grad is not None:
                p.grad.nan_to_num_(nan=0.0, posinf=0.0, neginf=0.0)
    return float(total)
""",
    ),
]

MUTANTS += [  # stop 48 review (n2 cand13): no accumulate_grads model had a Dropout
    dict(
        grade_id="test_accumulate_grads",
        name="the solution inside torch.random.fork_rng(): every call replays one Dropout stream",
        expect="丢弃了完全相同的元素",
        code=solution_wrapped(
            "05_autograd",
            "accumulate_grads",
            "accumulate_grads",
            """
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    with torch.random.fork_rng():
        return _accumulate_grads_solution(model, loss_fn, x, y, micro_batch_size)
""",
        ),
    ),
]

MUTANTS += [  # stop 48 review (n2 cand17): no value_and_grad f was random
    dict(
        grade_id="test_value_and_grad",
        name="the solution inside torch.random.fork_rng(): a random f draws the same numbers each call",
        expect="两次的 grad 完全一样",
        code=solution_wrapped(
            "05_autograd",
            "value_and_grad",
            "value_and_grad",
            """
def value_and_grad(f, x):
    with torch.random.fork_rng():
        return _value_and_grad_solution(f, x)
""",
        ),
    ),
]

MUTANTS += [  # stop 48 second review (p2 cand10): the non-finite cases were all nan
    dict(
        grade_id="test_value_and_grad",
        name="nan_to_num(nan=nan, posinf=max): nan kept, inf made finite",
        expect="在 0 处是 inf",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # the solution, but an infinite gradient is clamped to the largest finite number; nan stays nan
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    big = torch.finfo(grad.dtype).max
    return value.detach(), torch.nan_to_num(grad, nan=float("nan"), posinf=big, neginf=-big)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="nan_to_num(nan=nan, posinf=max) on every row: inf made finite",
        expect="(0, 0) 处是 inf",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        big = torch.finfo(row.dtype).max
        rows.append(torch.nan_to_num(row, nan=float("nan"), posinf=big, neginf=-big))
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # stop 50 review (r1): non-finite values hidden
    dict(
        grade_id="test_sgd_step",
        name="momentum buffer stored through nan_to_num: the buffer is 0 where torch.optim.SGD keeps nan",
        expect="一步之后 momentum_buffers[0]",
        code="""
def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    buf = momentum * momentum_buffers[i] + d
                else:
                    buf = d.clone()
                d = buf
                # keep the stored momentum finite: one bad step must not poison every later step
                momentum_buffers[i] = torch.nan_to_num(buf, nan=0.0, posinf=0.0, neginf=0.0)
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="the returned loss through nan_to_num: a diverged micro-batch is logged as 0.0",
        expect="返回的 loss 应是 inf 或 nan",
        code="""
def accumulate_grads(model: nn.Module, loss_fn, x: torch.Tensor, y: torch.Tensor, micro_batch_size: int) -> float:
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    # the returned number is for logging: keep the log readable (no nan / inf in the curve)
    return float(torch.nan_to_num(torch.as_tensor(total), nan=0.0, posinf=0.0, neginf=0.0))
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="grad zeroed with torch.where when the value is not finite",
        expect="值在 float32 里溢出成 inf，梯度 [2e20, 4] 仍是有限的",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    # a diverged f (nan / inf value) gives a meaningless gradient: hand back zeros then, without a host read
    grad = torch.where(torch.isfinite(value), grad, torch.zeros_like(grad))
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="the row of a non-finite output zeroed with torch.where",
        expect="y[0] 在 float32 里溢出成 inf",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        # an output element that is nan / inf has no meaningful derivative: its row is zeros (no host read)
        rows.append(torch.where(torch.isfinite(y.detach().reshape(-1)[i]), row, torch.zeros_like(row)))
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # stop 50 review (r1): code that only a GPU runs
    dict(
        grade_id="test_jacobian",
        name="only on a GPU (if y.is_cuda) one batched VJP with is_grads_batched=True",
        expect="is_grads_batched",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    m = y.numel()
    if y.is_cuda:
        # on a GPU one batched VJP over all one-hot rows beats m small launches
        eye = torch.eye(m, dtype=y.dtype, device=y.device).reshape((m,) + y.shape)
        (J,) = torch.autograd.grad(y, leaf, grad_outputs=eye, is_grads_batched=True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(m):
        v = torch.zeros(m, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="only on a GPU the step handed to torch.optim.SGD(fused=True)",
        expect="这个练习不能用 torch.optim.SGD",  # named in the code: refused whichever path runs
        code="""
def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    if params and all(p.is_cuda for p in params):
        # on a GPU, PyTorch's fused SGD kernel does the same step in one launch: hand it the same buffers
        opt = torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay, fused=True)
        for i, p in enumerate(params):
            if i in momentum_buffers:
                opt.state[p]["momentum_buffer"] = momentum_buffers[i]
        opt.step()
        for i, p in enumerate(params):
            if "momentum_buffer" in opt.state[p]:
                momentum_buffers[i] = opt.state[p]["momentum_buffer"]
        return
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]

MUTANTS += [  # stop 50 review (r5): a memo on the output, a setting changed only on a GPU
    dict(
        grade_id="test_jacobian",
        name="runs f each call, returns the stored Jacobian without backward passes when the output repeats",
        expect="输出相同时雅可比是从第一次存下来的",
        code='''
import torch
_memo = {}

def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    """f: (*x) -> (*y)；x: (*x) float -> J: (*y, *x)，J[i..., j...] = dy[i...] / dx[j...]。"""
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    key = (f, x, x._version)  # the objects themselves: an id reused by a later f or x hits no stale entry
    hit = _memo.get(key)
    # 同一个 f、同一个 x、f(x) 也没变：雅可比矩阵不会变，省掉 y.numel() 次反向
    if hit is not None and hit[0].shape == y.shape and hit[0].dtype == y.dtype and torch.equal(hit[0], y.detach()):
        return hit[1].clone()
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    J = torch.stack(rows).reshape(y.shape + x.shape)
    _memo[key] = (y.detach().clone(), J.clone())
    return J
''',
    ),
]

MUTANTS += [  # stop 50 review (r1): memos, and a Dropout switched off
    dict(
        grade_id="test_jacobian",
        name="a memo keyed on (id(f), id(x), x._version): stale after what f reads changed",
        expect="jacobian（f(t) = t * s",
        code="""
_JAC_CACHE = {}


def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    # a Jacobian costs y.numel() backward passes: reuse it when the same f is asked about the same, unchanged x
    key = (f, x, x._version)  # the objects themselves: an id reused by a later f or x hits no stale entry
    hit = _JAC_CACHE.get(key)
    if hit is not None and hit[0] is f and hit[1] is x:
        return hit[2].clone()
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    J = torch.stack(rows).reshape(y.shape + x.shape)
    _JAC_CACHE[key] = (f, x, J)  # f and x kept alive: their ids stay theirs
    return J.clone()
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a memo used only when f is an nn.Module, keyed on its parameters' versions",
        expect="f 是一个 nn.Module（没有参数）",
        code="""
_VG_CACHE = {}


def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # f is often a model (nn.Module): while its parameters and x are unchanged, the answer is too
    key = None
    if isinstance(f, nn.Module):
        key = (id(f), id(x), x._version, tuple((id(p), p._version) for p in f.parameters()))
        hit = _VG_CACHE.get(key)
        if hit is not None and hit[0] is f and hit[1] is x:
            return hit[2], hit[3]
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    value = value.detach()
    if key is not None:
        _VG_CACHE[key] = (f, x, value, grad)
    return value, grad
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="always runs f, skips the backward when the value repeats",
        expect="值相同时梯度是从第一次存下来的",
        code="""
_VG_LAST = {}


def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # always run the forward (f may read anything); the backward is the expensive half: skip it when f gave exactly
    # the same value on the same, unchanged x as last time
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    key = (f, x, x._version)  # the objects themselves: an id reused by a later f or x hits no stale entry
    hit = _VG_LAST.get(key)
    if hit is not None and hit[0] is f and hit[1] is x and torch.equal(hit[2], value.detach()):
        return value.detach(), hit[3]
    (grad,) = torch.autograd.grad(value, leaf)
    _VG_LAST[key] = (f, x, value.detach(), grad)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="every Dropout's p set to 0 during the accumulation, then put back",
        expect="前向时 Dropout 的 p 是 0",
        code="""
def accumulate_grads(model: nn.Module, loss_fn, x: torch.Tensor, y: torch.Tensor, micro_batch_size: int) -> float:
    # Dropout would draw a different mask per micro-batch than for the whole batch: switch it off (p = 0) for the
    # accumulation, so that the micro-batch gradients add up to the whole-batch gradient, and put p back afterwards
    drops = [(m, m.p) for m in model.modules() if isinstance(m, nn.Dropout)]
    for m, _ in drops:
        m.p = 0.0
    try:
        model.zero_grad(set_to_none=True)
        n = x.shape[0]
        total = 0.0
        for start in range(0, n, micro_batch_size):
            xb = x[start:start + micro_batch_size]
            yb = y[start:start + micro_batch_size]
            loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
            loss.backward()
            total = total + loss.detach()
        return float(total)
    finally:
        for m, p in drops:
            m.p = p
""",
    ),
]

MUTANTS += [  # stop 51 (reviewers c, d): code that only a GPU runs; every hidden test now runs again with each call on a played GPU
    dict(
        grade_id="test_accumulate_grads",
        name="GPU-only: the whole batch in one forward and backward",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def accumulate_grads(model: nn.Module, loss_fn, x: torch.Tensor, y: torch.Tensor, micro_batch_size: int) -> float:
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    if x.is_cuda:  # the GPU has room for the whole batch: one pass gives the same gradient, faster
        loss = loss_fn(model(x), y)
        loss.backward()
        return float(loss.detach())
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer d): half and float64 inputs on the CPU and on the played GPU
    dict(
        grade_id="test_sgd_step",
        name="GPU-only: a float32 momentum buffer for a half parameter",
        expect="在 GPU 上时",
        code="""
def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            # on the GPU keep the momentum in float32 (mixed precision), on the CPU in the parameter's dtype
            acc = torch.float32 if p.is_cuda else p.dtype
            d = p.grad.to(acc) + weight_decay * p.to(acc)
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_((lr * d).to(p.dtype))
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="GPU-only: J cast to float32 (a float64 x gets a float32 J)",
        expect="在 GPU 上时",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    # float64 is slow on GPUs: hand back float32 there
    return torch.stack(rows).reshape(y.shape + x.shape).to(torch.float32 if x.is_cuda else x.dtype)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only: a half x gives float32 value and grad",
        expect="期望 torch.float16，得到 torch.float32",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # on the GPU differentiate half-precision inputs in float32 (no underflow of small gradients)
    work = torch.float32 if x.is_cuda and x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    leaf = x.detach().to(work).requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a half x gives float32 value and grad on every device",
        expect="期望 torch.float16，得到 torch.float32",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # differentiate half-precision inputs in float32 (no underflow of small gradients)
    work = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    leaf = x.detach().to(work).requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="a half x gives a float32 J on every device",
        expect="期望 torch.float16，得到 torch.float32",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    # half-precision x: differentiate in float32 (small derivatives do not underflow)
    work = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    leaf = x.detach().to(work).requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # stop 53: micro-batches are observed on a model without BatchNorm too
    dict(
        grade_id="test_accumulate_grads",
        name="one full-batch forward and backward whenever the model has no training-mode BatchNorm (s53 b cand28)",
        expect="模型的前向只运行了 1 次，3 块应各一次",
        code="""
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    batch_dependent = any(isinstance(m, nn.modules.batchnorm._BatchNorm) and m.training for m in model.modules())
    if not batch_dependent:
        # no batch-dependent layer: the accumulated gradient equals the full-batch one, so take it in one pass
        loss = loss_fn(model(x), y)
        loss.backward()
        return loss.item()
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total += loss.item()
    return total
""",
    ),
]

MUTANTS += [  # stop 53 reviewers (c F8/F9, b 5/6): a GPU machine with CPU inputs, and inputs on cuda:1 (course/fixtures/placement.py)
    dict(
        grade_id="test_value_and_grad",
        name="a CPU x moved to the GPU when one is there (value and grad come back on cuda:0)",
        expect="返回的张量在 cuda:0 上",
        code="""
def value_and_grad(f, x):
    leaf = x.detach()
    if torch.cuda.is_available() and leaf.device.type == "cpu":
        leaf = leaf.to("cuda")  # a CPU x on a GPU machine: do the work on the GPU
    leaf = leaf.requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="the one-hot v made with device=y.device.type (the GPU index dropped)",
        expect="不带编号的 GPU",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device.type)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="the accumulator made with device=loss.device.type (the GPU index dropped)",
        expect="不带编号的 GPU",
        code="""
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = None
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        if total is None:
            total = torch.zeros((), dtype=loss.dtype, device=loss.device.type)
        total += loss.detach()
    return total.item()
""",
    ),
]

MUTANTS += [  # stop 54 reviewer b (and two older mutants that differentiate the parameter x itself now get the new-leaf message, which names what they do): the caller's x differentiated itself, a module f switched to eval, and chunk counts told they sent the whole batch
    dict(
        grade_id="test_jacobian",
        name="switches the caller's x to requires_grad for the call and back (differentiates x itself)",
        expect="临时切换了 requires_grad",
        code="""
def jacobian(f, x):
    # differentiate with respect to x itself; switch requires_grad on only for the call when x has none
    switched = not x.requires_grad
    if switched:
        x.requires_grad_(True)
    try:
        y = f(x)
        rows = []
        for i in range(y.numel()):
            v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
            v[i] = 1.0
            (row,) = torch.autograd.grad(y, x, grad_outputs=v.reshape(y.shape), retain_graph=True)
            rows.append(row)
        return torch.stack(rows).reshape(y.shape + x.shape).detach()
    finally:
        if switched:
            x.requires_grad_(False)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="x that already requires grad differentiated as it is (no new leaf)",
        expect="不是新的叶子",
        code="""
def value_and_grad(f, x):
    # x that already requires grad (a parameter, or a result in the caller's graph) is differentiated as it is:
    # torch.autograd.grad returns the gradient and writes no .grad anywhere
    leaf = x if x.requires_grad else x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="x that already requires grad differentiated as it is (no new leaf)",
        expect="不是新的叶子",
        code="""
def jacobian(f, x):
    # x that already requires grad is differentiated as it is (autograd.grad writes no .grad anywhere)
    leaf = x if x.requires_grad else x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a module f put in eval mode for the call and put back",
        expect="函数切换了 f 的模式",
        code="""
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    # a module f (Dropout, BatchNorm) in eval mode for the call: value and grad from one deterministic forward
    module = f if isinstance(f, nn.Module) else None
    modes = [(m, m.training) for m in module.modules()] if module is not None else []
    if module is not None:
        module.eval()
    try:
        value = f(leaf)
        (grad,) = torch.autograd.grad(value, leaf)
    finally:
        for m, training in modes:
            m.training = training
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="torch.chunk(x, micro_batch_size): a count of chunks, not their size",
        expect="当成了块数",
        code="""
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    with torch.enable_grad():
        for xb, yb in zip(torch.chunk(x, micro_batch_size), torch.chunk(y, micro_batch_size)):
            loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
            loss.backward()
            total += loss.item()
    return total
""",
    ),
]

MUTANTS += [  # stop 53 reviewer b 2-4: GPU-only autocast / TF32; each call on a played GPU now reports the precision it ran under
    dict(
        grade_id="test_value_and_grad",
        name="a GPU-only torch.autocast(float16) around f(leaf)",
        expect="用了更低的精度",
        code="""
import contextlib


def value_and_grad(f, x):
    # on the GPU run f under float16 autocast (tensor cores)
    amp = torch.autocast("cuda", dtype=torch.float16) if x.is_cuda else contextlib.nullcontext()
    leaf = x.detach().requires_grad_(True)
    with amp:
        value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="GPU-only TF32 (set_float32_matmul_precision('high'), put back in finally)",
        expect="用了更低的精度",
        code="""
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    fast = x.is_cuda  # on the GPU let the matmuls use TF32 tensor cores for the accumulation
    before = torch.get_float32_matmul_precision()
    if fast:
        torch.set_float32_matmul_precision("high")
    try:
        for start in range(0, n, micro_batch_size):
            xb = x[start:start + micro_batch_size]
            yb = y[start:start + micro_batch_size]
            loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
            loss.backward()
            total = total + loss.detach()
    finally:
        torch.set_float32_matmul_precision(before)
    return float(total)
""",
    ),
]

MUTANTS += [  # stop 54 reviewer f: f's modes switched, a forked RNG, and f's outputs kept with their graphs (check_keeps_f_as_given)
    dict(
        grade_id="test_value_and_grad",
        name="f.train() on the caller's module f (an eval-mode f left in training mode)",
        expect="函数切换了 f 的模式",
        code="""
def value_and_grad(f, x):
    if isinstance(f, nn.Module):
        f.train()  # gradients are for training: make sure f is in training mode
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="a module f put in eval mode for the call and put back",
        expect="函数切换了 f 的模式",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    # a module f (Dropout, BatchNorm) in eval mode for the call: every row from one deterministic forward
    module = f if isinstance(f, nn.Module) else None
    modes = [(m, m.training) for m in module.modules()] if module is not None else []
    if module is not None:
        module.eval()
    try:
        y = f(leaf)
        rows = []
        for i in range(y.numel()):
            v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
            v[i] = 1.0
            (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
            rows.append(row)
    finally:
        for m, training in modes:
            m.training = training
    return torch.stack(rows).reshape(y.shape + x.shape).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="only f's Dropout layers switched to eval for the call",
        expect="函数切换了 f 的模式",
        code="""
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    # Dropout makes value and grad random: switch f's Dropout layers off for the call, then put them back
    dropouts = [m for m in f.modules() if isinstance(m, nn.Dropout) and m.training] if isinstance(f, nn.Module) else []
    for m in dropouts:
        m.eval()
    try:
        value = f(leaf)
        (grad,) = torch.autograd.grad(value, leaf)
    finally:
        for m in dropouts:
            m.train()
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="the jacobian inside torch.random.fork_rng(): every call replays one Dropout mask",
        expect="全局随机数生成器没有往前走",
        code="""
def jacobian(f, x):
    # leave the caller's random stream as it was: a random f (Dropout) draws inside a forked RNG
    with torch.random.fork_rng():
        leaf = x.detach().requires_grad_(True)
        y = f(leaf)
        rows = []
        for i in range(y.numel()):
            v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
            v[i] = 1.0
            (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
            rows.append(row)
        return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="history.append(value) without detach: every call's graph kept",
        expect="f 的输出（带着它的计算图）还被留在别处",
        code="""
history = []  # every value computed, for plotting the optimisation later


def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    history.append(value)  # kept for the plot (still attached: the graph of every call stays alive)
    return value.detach(), grad
""",
    ),
]

MUTANTS += [  # stop 55 reviewer b: f's running statistics put back
    dict(
        grade_id="test_value_and_grad",
        name="a module f's buffers copied back after the call (a training-mode BatchNorm's statistics undone)",
        expect="f 的 buffer 不是它自己前向一次之后的样子",
        code="""
import torch
from torch import nn


def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # 不改动调用者的任何东西：f 是模块时，它的 buffer（BatchNorm 的 running_mean 等）也原样恢复
    saved = [(b, b.detach().clone()) for b in f.buffers()] if isinstance(f, nn.Module) else []
    leaf = x.detach().requires_grad_(True)
    with torch.enable_grad():
        value = f(leaf)
        (grad,) = torch.autograd.grad(value, leaf)
    with torch.no_grad():
        for b, v in saved:
            b.copy_(v)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="a module f's buffers copied back after the call (a training-mode BatchNorm's statistics undone)",
        expect="f 的 buffer 不是它自己前向一次之后的样子",
        code="""
import torch
from torch import nn


def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    # 不改动调用者的任何东西：f 是模块时，它的 buffer（BatchNorm 的 running_mean 等）也原样恢复
    saved = [(b, b.detach().clone()) for b in f.buffers()] if isinstance(f, nn.Module) else []
    leaf = x.detach().requires_grad_(True)
    with torch.enable_grad():
        y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    with torch.no_grad():
        for b, val in saved:
            b.copy_(val)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # stop 55 round 2 reviewer f: a clone of the caller's x, BatchNorm statistics bent, GPU-only changes to f (the f checks run on a played GPU too), a wrong cause
    dict(
        grade_id="test_value_and_grad",
        name="the caller's x itself differentiated, f given x.clone()",
        expect="或从它算出来、图连着它的张量",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # x that already requires grad is differentiated where it is (autograd.grad writes no .grad);
    # f gets a clone so it cannot touch the caller's tensor
    wrt = x if x.requires_grad else x.detach().requires_grad_(True)
    value = f(wrt.clone())
    (grad,) = torch.autograd.grad(value, wrt)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="the caller's x itself differentiated, f given x.clone()",
        expect="或从它算出来、图连着它的张量",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    wrt = x if x.requires_grad else x.detach().requires_grad_(True)
    y = f(wrt.clone())
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, wrt, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a training-mode BatchNorm f's running_mean and running_var copied back (num_batches_tracked left)",
        expect="f 的 buffer 不是它自己前向一次之后的样子",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # computing a gradient should not move f's BatchNorm running statistics: keep them and put them back
    saved = []
    if isinstance(f, torch.nn.Module):
        for m in f.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) and m.running_mean is not None:
                saved.append((m, m.running_mean.clone(), m.running_var.clone()))
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    with torch.no_grad():
        for m, mean, var in saved:
            m.running_mean.copy_(mean)
            m.running_var.copy_(var)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="every BatchNorm of f at momentum 0 for the forward",
        expect="f 的 buffer 不是它自己前向一次之后的样子",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    # a Jacobian should not move f's BatchNorm running statistics: momentum 0 for the call
    saved = []
    if isinstance(f, torch.nn.Module):
        for m in f.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                saved.append((m, m.momentum))
                m.momentum = 0.0
    try:
        leaf = x.detach().requires_grad_(True)
        y = f(leaf)
    finally:
        for m, mom in saved:
            m.momentum = mom
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="f.eval() for a module f on a GPU only",
        expect="f 运行时 f 的 BatchNorm / Dropout",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    leaf = x.detach().requires_grad_(True)
    modes = []
    if leaf.is_cuda and isinstance(f, torch.nn.Module):
        # on a GPU: a module f in eval mode (running statistics, no Dropout mask) gives reproducible gradients
        modes = [(m, m.training) for m in f.modules()]
        f.eval()
    try:
        value = f(leaf)
    finally:
        for m, t in modes:
            m.training = t
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="f.eval() for a module f on a GPU only",
        expect="f 运行时 f 的 BatchNorm / Dropout",
        code="""
def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    if leaf.is_cuda and isinstance(f, torch.nn.Module):
        # on a GPU, a module f is looked at in eval mode: no Dropout mask, BatchNorm's running statistics
        modes = [(m, m.training) for m in f.modules()]
        f.eval()
        try:
            y = f(leaf)
        finally:
            for m, t in modes:
                m.training = t
    else:
        y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="every value with its graph appended to a module-level list, on a GPU only",
        expect="f 的输出（带着它的计算图）还被留在别处",
        code="""
_GPU_VALUES = []  # values seen on the GPU, kept on the device to log later without a sync per call


def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    if leaf.is_cuda:
        _GPU_VALUES.append(value)  # (forgot .detach())
        del _GPU_VALUES[:-100]
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="Dropout p set to 0 for the call (told the RNG was put back until now)",
        expect="函数改了 f 的 Dropout 概率",
        code="""
def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # a gradient should not depend on a random Dropout mask: p = 0 for the call, put back after
    drops = [m for m in f.modules() if isinstance(m, torch.nn.Dropout)] if isinstance(f, torch.nn.Module) else []
    ps = [m.p for m in drops]
    for m in drops:
        m.p = 0.0
    try:
        leaf = x.detach().requires_grad_(True)
        value = f(leaf)
        (grad,) = torch.autograd.grad(value, leaf)
    finally:
        for m, p in zip(drops, ps):
            m.p = p
    return value.detach(), grad
""",
    ),
]

MUTANTS += [  # stop 56 reviewer j: the caller's module f must run itself, its parameters' requires_grad untouched
    dict(
        grade_id="test_jacobian",
        name="f run on copy.deepcopy(f) when f is a module (the caller's f never runs)",
        expect="调用者交来的 f 一次都没有前向",
        code="""
import copy


def jacobian(f, x):
    # run a module f on a private copy: the caller's f (its parameters' .grad, its state) stays as it was
    if isinstance(f, torch.nn.Module):
        f = copy.deepcopy(f)
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="f run on copy.deepcopy(f) when f is a module with parameters",
        expect="调用者交来的 f 一次都没有前向",
        code="""
import copy


def value_and_grad(f, x):
    # a module f with parameters runs on a private copy: its own parameters' .grad stay as the caller left them
    if isinstance(f, torch.nn.Module) and any(True for _ in f.parameters()):
        f = copy.deepcopy(f)
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="every module f run on a deepcopy (told it was memoised before)",
        expect="或者是在 f 的副本上算的",
        code="""
import copy


def value_and_grad(f, x):
    # run a module f on a private copy: the caller's f (its parameters' .grad, its state) stays as it was
    if isinstance(f, torch.nn.Module):
        f = copy.deepcopy(f)
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="f.requires_grad_(False) on a module f, never put back",
        expect="调用之后仍是 False",
        code="""
def value_and_grad(f, x):
    # only d/dx is wanted: f's own weights need no graph, so switch them off for the forward
    if isinstance(f, torch.nn.Module):
        f.requires_grad_(False)
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="f.requires_grad_(False) on a module f, never put back",
        expect="调用之后仍是 False",
        code="""
def jacobian(f, x):
    # only d/dx is wanted: f's own weights need no graph, so switch them off for the forward
    if isinstance(f, torch.nn.Module):
        f.requires_grad_(False)
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a module f's parameters frozen for the call and put back in finally",
        expect="返回前又改了回来",
        code="""
def value_and_grad(f, x):
    # only d/dx is wanted: f's own weights need no graph; switch them off for the forward, put them back after
    switched = [p for p in f.parameters() if p.requires_grad] if isinstance(f, torch.nn.Module) else []
    for p in switched:
        p.requires_grad_(False)
    try:
        leaf = x.detach().requires_grad_(True)
        value = f(leaf)
        (grad,) = torch.autograd.grad(value, leaf)
    finally:
        for p in switched:
            p.requires_grad_(True)
    return value.detach(), grad
""",
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_sgd_step",
        name="a bare torch.set_grad_enabled(False) around the update (left off when interrupted)",
        expect="grad mode 仍然关着",
        code="""
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    was_enabled = torch.is_grad_enabled()
    torch.set_grad_enabled(False)  # the update must not be recorded
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        d = p.grad + weight_decay * p
        if momentum != 0:
            if i in momentum_buffers:
                momentum_buffers[i] = momentum * momentum_buffers[i] + d
            else:
                momentum_buffers[i] = d.clone()
            d = momentum_buffers[i]
        p.sub_(lr * d)
    torch.set_grad_enabled(was_enabled)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="buffers updated right, the step made with d instead of the buffer",
        expect="momentum_buffers[0] 却是对的",
        code="""
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                # (forgot: d = momentum_buffers[i])
            p.sub_(lr * d)
""",
    ),
]

MUTANTS += [  # stop 57 reviewer r (round 3): momentum 0 steps keep the buffer, non-contiguous outputs
    dict(
        grade_id="test_sgd_step",
        name="momentum_zero_step_overwrites_the_buffer",
        expect="momentum=0 的一步",
        code="""
def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if i in momentum_buffers:
                # a buffer exists: keep it current
                momentum_buffers[i].mul_(momentum).add_(d)
            elif momentum != 0:
                momentum_buffers[i] = d.clone()
            if momentum != 0:
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="momentum_zero_step_drops_the_buffer",
        expect="momentum=0 的一步",
        code="""
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum == 0:
                momentum_buffers.pop(i, None)  # 没有动量：不需要缓冲区
            elif i in momentum_buffers:
                momentum_buffers[i] = momentum * momentum_buffers[i] + d
                d = momentum_buffers[i]
            else:
                momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="one_hot_through_reshape_of_zeros_like_y",
        expect="输出 y 非连续",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros_like(y)
        v.reshape(-1)[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v, retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="rows_from_y_view",
        expect="输出 y 非连续",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    flat = y.view(-1)
    rows = []
    for i in range(flat.numel()):
        (row,) = torch.autograd.grad(flat[i], leaf, retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # stop 57 round 4 (v): VJP rows that alias a reused buffer; a wait is not a read
    dict(
        grade_id="test_jacobian",
        name="one_hot_buffer_reused_for_every_row",
        expect="f = x + 1",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    v = torch.zeros(y.shape, dtype=y.dtype, device=y.device)  # one one-hot buffer, reused for every row
    flat = v.view(-1)
    rows = []
    for i in range(y.numel()):
        flat.zero_()
        flat[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v, retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="one_hot_buffer_reused_through_backward",
        expect="f = x.reshape(-1)",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)  # one one-hot buffer for every row
    rows = []
    for i in range(y.numel()):
        v.zero_()
        v[i] = 1.0
        y.backward(v.view(y.shape), inputs=[leaf], retain_graph=True)
        rows.append(leaf.grad)
        leaf.grad = None
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="cuda_synchronize_before_returning",
        expect="让 CPU 等了 GPU",
        code="""
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    if grad.is_cuda:
        torch.cuda.synchronize(grad.device)  # make sure the gradient is ready before handing it back
    return value.detach(), grad
""",
    ),
]

MUTANTS += [  # stop 58 round 5 (c): a branch on torch.cuda.mem_get_info, which every played GPU answers now
    dict(
        grade_id="test_accumulate_grads",
        name="whole_batch_when_the_gpu_has_room",
        expect="你一次就把整批送进了模型",
        code="""
def _roomy_gpu(t):
    # a GPU with plenty of free memory: nothing to save by splitting
    try:
        free, _total = torch.cuda.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    if _roomy_gpu(x):
        loss = loss_fn(model(x), y)
        loss.backward()
        return float(loss.detach())
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="batched_grads_when_the_gpu_has_room",
        expect="is_grads_batched",  # named in the code: refused whatever the inputs
        code="""
def _roomy_gpu(t):
    try:
        free, _total = torch.cuda.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    if _roomy_gpu(y):  # enough memory: every row in one batched VJP
        eye = torch.eye(y.numel(), dtype=y.dtype, device=y.device).reshape((y.numel(),) + y.shape)
        (J,) = torch.autograd.grad(y, leaf, grad_outputs=eye, is_grads_batched=True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="float32_buffer_when_the_gpu_has_room",
        expect="GPU 上走了另一条路",
        code="""
def _roomy_gpu(t):
    try:
        free, _total = torch.cuda.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    # on a roomy GPU keep the buffer in float32 for precision
                    momentum_buffers[i] = d.float() if _roomy_gpu(p) else d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]

MUTANTS += [  # stop 58 round 6 (c): GPU queries under bound names and torch.cuda.memory's
    dict(
        grade_id="test_accumulate_grads",
        name="whole_batch_when_a_bound_mem_get_info_says_there_is_room",
        expect="你一次就把整批送进了模型",
        code="""
# round 5's caught mutant "whole_batch_when_the_gpu_has_room", the query bound by name before the call
# (from torch.cuda import mem_get_info): scenarios patches the attribute torch.cuda.mem_get_info only.
from torch.cuda import mem_get_info


def _roomy_gpu(t):
    try:
        free, _total = mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    if _roomy_gpu(x):
        loss = loss_fn(model(x), y)
        loss.backward()
        return float(loss.detach())
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="whole_batch_when_torch_cuda_memory_mem_get_info_says_there_is_room",
        expect="你一次就把整批送进了模型",
        code="""
# the same mutant through the submodule: torch.cuda.memory.mem_get_info (the attribute patched is torch.cuda.mem_get_info)



def _roomy_gpu(t):
    try:
        free, _total = torch.cuda.memory.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    if _roomy_gpu(x):
        loss = loss_fn(model(x), y)
        loss.backward()
        return float(loss.detach())
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="synchronize_behind_a_bound_is_available",
        expect="torch.cuda.synchronize()",
        code="""
# round 5's caught mutant "cuda_synchronize_before_returning", keyed on torch.cuda.is_available bound by name before
# the call (from torch.cuda import is_available): the bound name is not played, so it answers this host's False.
from torch.cuda import is_available as _cuda_available


def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    if _cuda_available():
        torch.cuda.synchronize()  # make sure the gradient is ready before handing it back
    return value.detach(), grad
""",
    ),
]

CORRECT += [  # stop 58 round 6 (c): a right answer that reads a GPU property (warp_size was missing)
    dict(
        grade_id="test_jacobian",
        name="reads_the_gpus_warp_size",
        code="""
# RIGHT answer (false-failure probe): jacobian reads a real device property (warp_size) that the played
# get_device_properties (a SimpleNamespace) lacks; both paths compute the same rows.
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    per_chunk = 1
    if leaf.is_cuda:
        per_chunk = torch.cuda.get_device_properties(leaf.device).warp_size  # rows per Python batch (bookkeeping only)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    assert per_chunk >= 1
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 c: c07, c09): torch.accelerator.memory_allocated; mem_get_info as a default argument
    dict(
        grade_id="test_jacobian",
        name="is_grads_batched_when_torch_accelerator_has_memory_allocated",
        expect="is_grads_batched",
        code="""
# jacobian: torch.accelerator.memory_allocated() (not played; 0 on a machine without a GPU): when the GPU holds
# tensors, all rows in one batched VJP (is_grads_batched=True, banned).
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    eye = torch.eye(y.numel(), dtype=y.dtype, device=y.device)
    try:
        on_gpu = x.is_cuda and torch.accelerator.memory_allocated() > 0
    except RuntimeError:
        on_gpu = False
    if on_gpu:  # the GPU is already busy: one vmapped pass instead of numel() small ones
        (J,) = torch.autograd.grad(y, leaf, grad_outputs=eye.reshape((y.numel(),) + y.shape), is_grads_batched=True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(y.numel()):
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=eye[i].reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="float32_first_buffer_when_a_default_mem_get_info_says_there_is_room",
        expect="momentum_buffers[0] 的 dtype 不对",
        code="""
# sgd_step: free memory asked through a default argument (not rebound): with room, the first momentum buffer in float32
# (banned: 新建的缓冲区要和它的参数在同一设备上（dtype 也相同）).
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0, _free=torch.cuda.mem_get_info):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    try:
                        roomy = p.is_cuda and _free(p.device)[0] > 8 * 2**30
                    except RuntimeError:
                        roomy = False
                    momentum_buffers[i] = d.float() if roomy else d.clone()  # fp32 master buffer when memory allows
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]


MUTANTS += [  # round 8 c: a GPU-only branch behind every other spelling of a machine flag asked once (cellflags now runs the statements again on a played GPU)
    dict(
        grade_id="test_value_and_grad",
        name="GPU flag set in a top-level if block, backward() into f's parameters there",
        expect="f 自己的参数",
        code="""
ON_GPU = False
if torch.cuda.is_available():
    ON_GPU = True
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if ON_GPU else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU flag in a tuple assignment",
        expect="f 自己的参数",
        code="""
ON_GPU, N_GPUS = torch.cuda.is_available(), torch.cuda.device_count()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if ON_GPU else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU flag computed by a helper function",
        expect="f 自己的参数",
        code="""
def _has_gpu():
    return torch.cuda.is_available()
HAVE_GPU = _has_gpu()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if HAVE_GPU else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU query memoised with functools.cache",
        expect="f 自己的参数",
        code="""
import functools as _ft
@_ft.cache
def _on_gpu():
    return torch.cuda.is_available()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if _on_gpu() else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU query held as a staticmethod class attribute",
        expect="f 自己的参数",
        code="""
class _Machine:
    has_gpu = staticmethod(torch.cuda.is_available)
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if _Machine.has_gpu() else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU query's value as a default argument",
        expect="f 自己的参数",
        code="""
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x, _on_gpu=torch.cuda.is_available()):
    return (_vg_gpu if _on_gpu else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="free memory read in a top-level try block",
        expect="f 自己的参数",
        code="""
try:
    FREE_BYTES = torch.cuda.mem_get_info()[0]   # raises on a machine without a GPU
except RuntimeError:
    FREE_BYTES = 0
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if FREE_BYTES > 0 else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU query held in a dict",
        expect="f 自己的参数",
        code="""
_QUERIES = {"gpu": torch.cuda.is_available}
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if _QUERIES["gpu"]() else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a branch on DEVICE == 'cuda'",
        expect="f 自己的参数",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if DEVICE == "cuda" else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="implementation picked once from the GPU query",
        expect="f 自己的参数",
        code="""
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
_VG_IMPL = _vg_gpu if torch.cuda.is_available() else _vg_cpu
def value_and_grad(f, x):
    return _VG_IMPL(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="an autocast dtype picked once from the GPU query",
        expect="f 自己的参数",
        code="""
AMP_DTYPE = torch.bfloat16 if torch.cuda.is_available() else None
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if AMP_DTYPE is not None else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="autocast(DEVICE, bfloat16) per micro-batch where DEVICE is 'cuda'",
        expect="GPU 上",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        with torch.autocast(DEVICE, dtype=torch.bfloat16, enabled=(DEVICE == "cuda")):
            loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
]


MUTANTS += [  # round 9 b: the device idiom with a flag read from it, an if block binding a device and a flag; right answers the replay had broken
    dict(
        grade_id="test_value_and_grad",
        name="USE_GPU_PATH = device.type == 'cuda' from the device idiom",
        expect="f 自己的参数",
        code="""
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
USE_GPU_PATH = device.type == "cuda"
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if USE_GPU_PATH else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="an if block binding DEVICE = torch.device('cuda') and USE_GPU_PATH = True",
        expect="f 自己的参数",
        code="""
if torch.cuda.is_available():
    DEVICE = torch.device("cuda")
    USE_GPU_PATH = True
else:
    DEVICE = torch.device("cpu")
    USE_GPU_PATH = False
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if USE_GPU_PATH else _vg_cpu)(f, x)
""",
    ),
]


CORRECT += [  # round 9 b: the device idiom with a flag read from it, an if block binding a device and a flag; right answers the replay had broken (right answers)
    dict(
        grade_id="test_value_and_grad",
        name="a right answer reading RUN['cuda'] from RUN = {} filled by a later statement",
        code="""
# a RIGHT value_and_grad (the solution's method) that reads a setting filled at the top level by a subscript store
RUN = {}
RUN["cuda"] = torch.cuda.is_available()
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    with torch.autocast("cuda" if RUN["cuda"] else "cpu", enabled=False):  # full precision even inside a caller's autocast
        value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
]


MUTANTS += [  # round 9 c c10, c17: a banned method or autocast behind a size threshold the small cases never reach
    dict(
        grade_id="test_jacobian",
        name="the batched VJP (is_grads_batched=True) for outputs over 64 elements",
        expect="is_grads_batched",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 64:  # many rows: all the one-hot VJPs in one batched backward (much faster for big outputs)
        eye = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = torch.autograd.grad(y, leaf, grad_outputs=eye, is_grads_batched=True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_accumulate_grads",
        name="bfloat16 autocast for micro-batches of 256 rows or more",
        expect="autocast",
        code="""
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        # big micro-batches: bfloat16 autocast to save memory (that is why we accumulate at all)
        with torch.autocast(xb.device.type, dtype=torch.bfloat16, enabled=xb.shape[0] >= 256):
            out = model(xb)
        out = out.float() if out.dtype == torch.bfloat16 else out
        loss = loss_fn(out, yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
]


MUTANTS += [  # round 9 b: GPU-only branches behind flags kept in mutable places (cellflags replays the statements that change them in place)
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag stored as a dict key (CONFIG['gpu'] = ...)",
        expect="有了 .grad",
        code="""
CONFIG = {}
CONFIG["gpu"] = torch.cuda.is_available()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if CONFIG["gpu"] else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag set by a setup function through global",
        expect="有了 .grad",
        code="""
USE_GPU = False
def _configure():
    global USE_GPU
    USE_GPU = torch.cuda.is_available()
_configure()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if USE_GPU else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag memoised in a class attribute",
        expect="有了 .grad",
        code="""
class _Flags:
    gpu = None
def _on_gpu():
    if _Flags.gpu is None:
        _Flags.gpu = torch.cuda.is_available()
    return _Flags.gpu
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if _on_gpu() else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag memoised by a generic _once helper",
        expect="有了 .grad",
        code="""
_MEMO = {}
def _once(key, make):
    if key not in _MEMO:
        _MEMO[key] = make()
    return _MEMO[key]
def _on_gpu():
    return _once("gpu", lambda: torch.cuda.is_available())
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if _on_gpu() else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag memoised in a function attribute",
        expect="有了 .grad",
        code="""
def _on_gpu():
    if not hasattr(_on_gpu, "answer"):
        _on_gpu.answer = torch.cuda.is_available()
    return _on_gpu.answer
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if _on_gpu() else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag held in a dataclass instance",
        expect="有了 .grad",
        code="""
from dataclasses import dataclass
@dataclass
class Config:
    gpu: bool
CFG = Config(gpu=torch.cuda.is_available())
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if CFG.gpu else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag set on a SimpleNamespace",
        expect="有了 .grad",
        code="""
import types
SETTINGS = types.SimpleNamespace(gpu=False)
SETTINGS.gpu = torch.cuda.is_available()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if SETTINGS.gpu else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag set by CONFIG.update(...)",
        expect="有了 .grad",
        code="""
CONFIG = {"gpu": False}
CONFIG.update(gpu=torch.cuda.is_available())
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if CONFIG["gpu"] else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag from current_device() through an import alias",
        expect="有了 .grad",
        code="""
from torch import cuda as gpu
try:
    gpu.current_device()
    HAVE_GPU = True
except Exception:
    HAVE_GPU = False
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if HAVE_GPU else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU flag memoised in an OrderedDict",
        expect="有了 .grad",
        code="""
import collections
_MEMO = collections.OrderedDict()
def _on_gpu():
    if "gpu" not in _MEMO:
        _MEMO["gpu"] = torch.cuda.is_available()
    return _MEMO["gpu"]
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if _on_gpu() else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind argparse's args.cuda",
        expect="有了 .grad",
        code="""
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args([])
args.cuda = not args.no_cuda and torch.cuda.is_available()   # the classic pytorch/examples idiom
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if args.cuda else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind the backend picked by a top-level for loop",
        expect="有了 .grad",
        code="""
BACKEND = "cpu"
for candidate in ("cuda", "mps"):   # pick the best accelerator this machine has
    if getattr(torch, candidate).is_available():
        BACKEND = candidate
        break
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if BACKEND == "cuda" else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a GPU feature added to a set in an if block",
        expect="有了 .grad",
        code="""
FEATURES = set()
if torch.cuda.is_available(): FEATURES.add("cuda")
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if "cuda" in FEATURES else _vg_cpu)(f, x)
""",
    ),
]


CORRECT += [  # round 9 b: GPU-only branches behind flags kept in mutable places (cellflags replays the statements that change them in place) (right answers)
    dict(
        grade_id="test_value_and_grad",
        name="a right answer reading a flag a later top-level statement stored in a dict",
        code="""
# a RIGHT value_and_grad (the solution's method) that reads a setting filled at the top level by a subscript store
RUN = {}
RUN["cuda"] = torch.cuda.is_available()
def value_and_grad(f, x):
    leaf = x.detach().requires_grad_(True)
    with torch.autocast("cuda" if RUN["cuda"] else "cpu", enabled=False):  # full precision even inside a caller's autocast
        value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
]


MUTANTS += [  # round 9 b c19, c22, c35: GPU-only backward() behind the notebook's device read at call time (in a counted call it is the played GPU)
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() behind DEVICE.type read at call time",
        expect="有了 .grad",
        code="""
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if DEVICE.type == "cuda" else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() behind a flag computed from the device",
        expect="有了 .grad",
        code="""
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
USE_GPU_PATH = device.type == "cuda"
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if USE_GPU_PATH else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() behind an if block that binds a device and a flag",
        expect="有了 .grad",
        code="""
if torch.cuda.is_available():
    DEVICE = torch.device("cuda")
    USE_GPU_PATH = True
else:
    DEVICE = torch.device("cpu")
    USE_GPU_PATH = False
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if USE_GPU_PATH else _vg_cpu)(f, x)
""",
    ),
]


CORRECT += [  # round 10 c: a seeding setup cell (GPU branch included) beside a right answer (right answers)
    dict(
        grade_id="test_sgd_step",
        name="a seeding setup cell beside the solution (c43_05sgd)",
        code="""
# set-up cell (right answer below is the solution's): seed everything for reproducible runs
if torch.cuda.is_available():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    device = torch.device("cuda")
else:
    torch.manual_seed(0)
    device = torch.device("cpu")


def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    # params: 叶子张量列表；momentum_buffers: {下标 i: 与 params[i] 同形状的缓冲区}。原地更新参数。
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]


MUTANTS += [  # round 10 d c60: GPU-only autocast in accumulate_grads behind print(DEVICE.upper())
    dict(
        grade_id="test_accumulate_grads",
        name="bfloat16 autocast behind print(DEVICE.upper())",
        expect="autocast",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
print("training on", DEVICE.upper())
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        with torch.autocast(DEVICE, dtype=torch.bfloat16, enabled=(DEVICE == "cuda")):
            loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
]


MUTANTS += [  # round 11 c: bans past a local import or a dict of keywords; autocast past 4096 rows; a right answer with is_grads_batched=False among its keywords
    dict(
        grade_id="test_accumulate_grads",
        name="bfloat16 autocast for micro-batches over 4096 rows",
        expect="autocast",
        code="""
def accumulate_grads(model, loss_fn, x, y, micro_batch_size):
    model.zero_grad(set_to_none=True)
    n = x.shape[0]
    total = 0.0
    for start in range(0, n, micro_batch_size):
        xb = x[start:start + micro_batch_size]
        yb = y[start:start + micro_batch_size]
        # 很大的 micro-batch 在 GPU 上用 bfloat16 省显存、提速
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=xb.is_cuda and xb.shape[0] > 4096):
            out = model(xb)
        loss = loss_fn(out, yb) * (xb.shape[0] / n)
        loss.backward()
        total = total + loss.detach()
    return float(total)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="a local import of torch.autograd.functional.jacobian for outputs over 64 elements",
        expect="torch.autograd.functional.jacobian",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    if y.numel() > 64:  # 输出很多时一行一行太慢：交给 torch 的批量实现
        from torch.autograd.functional import jacobian as batched_jacobian
        return batched_jacobian(f, x.detach(), vectorize=True)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="is_grads_batched=True from a module-level dict of keywords for outputs over 64 elements",
        expect="is_grads_batched",
        code="""
FAST_VJP = dict(retain_graph=True, is_grads_batched=True)  # 输出很多时：一次算完所有行


def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 64:
        eye = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = torch.autograd.grad(y, leaf, eye, **FAST_VJP)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="a local import of the functional sgd for more than 64 parameters",
        expect="torch.optim.sgd.sgd",
        code="""
def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    with torch.no_grad():
        if len(params) > 64:  # 参数张量很多的大模型：交给 torch 的 foreach 实现，少启动很多 kernel
            from torch.optim.sgd import sgd as functional_sgd
            idx = [i for i, p in enumerate(params) if p.grad is not None]
            bufs = [momentum_buffers.get(i) for i in idx]
            functional_sgd([params[i] for i in idx], [params[i].grad for i in idx], bufs, foreach=True,
                           weight_decay=weight_decay, momentum=momentum, lr=lr, dampening=0.0, nesterov=False, maximize=False)
            if momentum != 0:
                momentum_buffers.update(zip(idx, bufs))
            return
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]


CORRECT += [  # round 11 c: bans past a local import or a dict of keywords; autocast past 4096 rows; a right answer with is_grads_batched=False among its keywords (right answers)
    dict(
        grade_id="test_jacobian",
        name="the row loop with is_grads_batched=False written before retain_graph=True",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        # 一行一次：不批量 (is_grads_batched=False)，图留着给下一行
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), is_grads_batched=False, retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]


MUTANTS += [  # round 12 (reviewer a): the static bans through positional arguments, partials, callable objects and plain local imports
    dict(
        grade_id="test_jacobian",
        name="is_grads_batched=True as grad's 8th positional argument, for outputs over 4096 elements",
        expect="is_grads_batched",
        code="""
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: all one-hot v at once (one batched VJP instead of n backward passes)
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = torch.autograd.grad(y, leaf, v, None, False, True, None, True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="functional jacobian inside a callable object's __call__, for outputs over 4096 elements",
        expect="torch.autograd.functional.jacobian",
        code="""
class _Rows:
    # Jacobian helper: row by row for small outputs, the library routine for big ones.
    def __call__(self, f, leaf, y):
        if y.numel() > 4096:
            return torch.autograd.functional.jacobian(f, leaf)
        rows = []
        for i in range(y.numel()):
            v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
            v[i] = 1.0
            (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
            rows.append(row)
        return torch.stack(rows).reshape(y.shape + leaf.shape)

_rows = _Rows()

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    return _rows(f, leaf, y)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="a module-level functools.partial(torch.autograd.grad, is_grads_batched=True) for big outputs",
        expect="is_grads_batched",
        code="""
import functools

# all one-hot v in one call: autograd runs the rows as a batch
_batched_vjp = functools.partial(torch.autograd.grad, is_grads_batched=True)

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: one batched VJP
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = _batched_vjp(y, leaf, v)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="import torch.autograd.functional inside the function, functional jacobian for big outputs",
        expect="torch.autograd.functional.jacobian",
        code="""
def jacobian(f, x):
    import torch.autograd.functional  # the ready-made Jacobian lives in this submodule
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: the library's (vectorized) Jacobian
        return torch.autograd.functional.jacobian(f, leaf, vectorize=True)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]


MUTANTS += [  # round 12 (reviewer b): machine flags set by a method of the notebook's config object and in a nested dict
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind a flag cfg.detect() sets",
        expect="GPU 上",
        code="""
# setup cell: a config object that detects the machine in a method
class Config:
    def __init__(self):
        self.use_gpu = False
        self.batch_size = 128
    def detect(self):
        self.use_gpu = torch.cuda.is_available()

cfg = Config()
cfg.detect()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if cfg.use_gpu else _vg_cpu)(f, x)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="GPU-only backward() into every leaf behind CFG['train']['gpu'] = ...",
        expect="GPU 上",
        code="""
# setup cell: nested config, as in YAML-style training configs
CFG = {"train": {"gpu": False, "batch_size": 128}}
CFG["train"]["gpu"] = torch.cuda.is_available()
def _vg_gpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    value.backward()          # on the GPU: backward() into every leaf (f's parameters too)
    return value.detach(), leaf.grad
def _vg_cpu(f, x):
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
def value_and_grad(f, x):
    return (_vg_gpu if CFG["train"]["gpu"] else _vg_cpu)(f, x)
""",
    ),
]

MUTANTS += [  # round 13 a: banned batched paths behind a size gate, named by a string or a private function; a conditional is_grads_batched; torch.optim.SGD behind a gate
    dict(
        grade_id="test_jacobian",
        name="is_grads_batched as a global string, **{BATCHED: True}",
        expect="这个练习不能用",
        code="""BATCHED = "is_grads_batched"  # keyword of torch.autograd.grad

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = torch.autograd.grad(y, leaf, v, **{BATCHED: True})
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)

""",
    ),
    dict(
        grade_id="test_jacobian",
        name="getattr(torch, 'vmap') behind a size gate",
        expect="这个练习不能用",
        code="""def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:
        batch = getattr(torch, "vmap")
        _, pullback = getattr(torch.func, "vjp")(f, leaf)
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = batch(pullback)(v)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)

""",
    ),
    dict(
        grade_id="test_jacobian",
        name="torch._functorch's vmap_impl and _vjp_with_argnums behind a size gate",
        expect="这个练习不能用",
        code="""from torch._functorch.vmap import vmap_impl
from torch._functorch.eager_transforms import _vjp_with_argnums

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: all one-hot v at once
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        _, pullback = _vjp_with_argnums(f, leaf)
        (J,) = vmap_impl(pullback, 0, 0, "error", None, v)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)

""",
    ),
    dict(
        grade_id="test_jacobian",
        name="torch.autograd.functional._autograd_grad with is_grads_batched",
        expect="这个练习不能用",
        code="""from torch.autograd.functional import _autograd_grad

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: all one-hot v at once
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = _autograd_grad((y,), (leaf,), (v,), False, True, True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)

""",
    ),
    dict(
        grade_id="test_jacobian",
        name="is_grads_batched=True if big else False",
        expect="这个练习不能用",
        code="""def _vjp(y, leaf, v, batched):
    # batched: v holds one grad_output per row (leading dim), autograd runs them all at once
    (g,) = torch.autograd.grad(y, leaf, v, retain_graph=True, is_grads_batched=True if batched else False)
    return g


def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: all one-hot v in one call
        eye = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        return _vjp(y, leaf, eye, True).reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        rows.append(_vjp(y, leaf, v.reshape(y.shape), False))
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="torch.optim.SGD for more than 64 parameters",
        expect="这个练习不能用 torch.optim.SGD",
        code="""def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):
    if len(params) > 64:  # many tensors: torch's own multi-tensor (foreach) SGD, buffers handed in and back
        opt = torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay)
        for i, p in enumerate(params):
            if i in momentum_buffers:
                opt.state[p]["momentum_buffer"] = momentum_buffers[i]
        opt.step()
        for i, p in enumerate(params):
            buf = opt.state[p].get("momentum_buffer")
            if buf is not None:
                momentum_buffers[i] = buf
        return
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]

MUTANTS += [  # round 13 a (second part): banned routines held where the walk did not look (a class attribute, a callable object, a closure or a default holding the module, a functools.wraps decorator, the older functorch package) and grad under another name with an 8th positional
    dict(
        grade_id="test_jacobian",
        name="grad imported as vjp, is_grads_batched as its 8th positional",
        code="""from torch.autograd import grad as vjp

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: all one-hot v at once
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = vjp(y, leaf, v, None, False, True, None, True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = vjp(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)

""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_jacobian",
        name="a partial of grad called with an 8th positional True",
        code="""import functools
_vjp = functools.partial(torch.autograd.grad, materialize_grads=False)

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:
        v = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = _vjp(y, leaf, v, None, False, True, None, True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = _vjp(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)

""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_jacobian",
        name="a staticmethod class attribute holding functional.jacobian, behind a size gate",
        code="""class _JacobianRows:
    # row by row for small outputs; the library routine (vectorized) once there are many rows
    batched = staticmethod(torch.autograd.functional.jacobian)

    def __call__(self, f, x):
        leaf = x.detach().requires_grad_(True)
        y = f(leaf)
        n = y.numel()
        if n > 4096:
            return self.batched(f, leaf, vectorize=True)
        rows = []
        for i in range(n):
            v = torch.zeros(n, dtype=y.dtype, device=y.device)
            v[i] = 1.0
            (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
            rows.append(row)
        return torch.stack(rows).reshape(y.shape + x.shape)


_rows = _JacobianRows()


def jacobian(f, x):
    return _rows(f, x)
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_jacobian",
        name="the functional module held in a factory's closure",
        code="""def _make_jacobian():
    functional = torch.autograd.functional  # the library's vectorized routine, for big outputs

    def jacobian(f, x):
        leaf = x.detach().requires_grad_(True)
        y = f(leaf)
        n = y.numel()
        if n > 4096:
            return functional.jacobian(f, leaf, vectorize=True)
        rows = []
        for i in range(n):
            v = torch.zeros(n, dtype=y.dtype, device=y.device)
            v[i] = 1.0
            (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
            rows.append(row)
        return torch.stack(rows).reshape(y.shape + x.shape)

    return jacobian


jacobian = _make_jacobian()
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_jacobian",
        name="the functional module as a default argument",
        code="""def jacobian(f, x, functional=torch.autograd.functional):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # big outputs: the library's vectorized routine
        return functional.jacobian(f, leaf, vectorize=True)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_jacobian",
        name="functional.jacobian held as a class attribute, called on every input",
        code="""class _JacobianTool:
    impl = staticmethod(torch.autograd.functional.jacobian)  # row-by-row VJPs (vectorize=False)

    def __call__(self, f, x):
        leaf = x.detach().requires_grad_(True)
        return self.impl(f, leaf)


_tool = _JacobianTool()


def jacobian(f, x):
    return _tool(f, x)
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_jacobian",
        name="from functorch import jacrev behind a size gate",
        code="""from functorch import jacrev  # the older functorch spelling from many tutorials

def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # many rows: reverse-mode Jacobian, all rows vectorized
        return jacrev(f)(leaf.detach())
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a callable object holding functional.vjp",
        code="""class _ValueAndGrad:
    impl = staticmethod(torch.autograd.functional.vjp)  # (value, v^T J) of a scalar f: its gradient

    def __call__(self, f, x):
        leaf = x.detach()
        value, grad = self.impl(f, leaf)
        return value.detach(), grad


value_and_grad = _ValueAndGrad()
""",
        expect="这个练习不能用",
    ),
]

CORRECT += [  # round 13 a: right answers the wider static walk must still pass
    dict(
        grade_id="test_jacobian",
        name="jacobian by grad of each flat output",
        code="""def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    flat = y.reshape(-1)
    rows = [torch.autograd.grad(flat[i], leaf, retain_graph=True)[0] for i in range(flat.numel())]
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="jacobian into a preallocated J",
        code="""def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    J = torch.empty((n, x.numel()), dtype=x.dtype, device=y.device)
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        J[i] = row.reshape(-1)
    return J.reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="retain_graph only before the last row",
        code="""def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        # keep the graph for the next row only: the last VJP frees it
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=i < n - 1)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # round 13 a c22, c26: a callable object and a functools.wraps decorator (docstrings as comments here)
    dict(
        grade_id="test_jacobian",
        name="a callable object whose __call__ calls functional.jacobian behind a size gate",
        expect="这个练习不能用",
        code="""class Jacobian:
    # jacobian(f, x): row by row for small outputs, the library's vectorized routine for big ones.

    def __call__(self, f, x):
        leaf = x.detach().requires_grad_(True)
        y = f(leaf)
        n = y.numel()
        if n > 4096:
            return torch.autograd.functional.jacobian(f, leaf, vectorize=True)
        rows = []
        for i in range(n):
            v = torch.zeros(n, dtype=y.dtype, device=y.device)
            v[i] = 1.0
            (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
            rows.append(row)
        return torch.stack(rows).reshape(y.shape + x.shape)


jacobian = Jacobian()
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="a functools.wraps decorator whose wrapper calls functional.jacobian",
        expect="这个练习不能用",
        code="""import functools


def vectorized_for_big_outputs(fn):
    # Decorator: big inputs (many columns) go to the library's vectorized Jacobian, the rest to fn.
    @functools.wraps(fn)
    def wrapper(f, x):
        if x.numel() > 4096:
            return torch.autograd.functional.jacobian(f, x.detach(), vectorize=True)
        return fn(f, x)
    return wrapper


@vectorized_for_big_outputs
def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # round 14 d: names fetched by getattr, a partial as the graded function, copies of a banned function, a staticmethod global
    dict(
        grade_id="test_jacobian",
        name="getattr(torch.autograd.functional, 'jacobian') behind a size gate",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    if x.numel() > 4096:  # 大输入：一次算完（测试的输入都很小，走不到）
        return getattr(torch.autograd.functional, "jacobian")(f, leaf.detach()).to(x.dtype)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_jacobian",
        name="the graded jacobian is a functools.partial of one calling jacrev",
        code="""import functools


def _jacobian(f, x, *, big=4096):
    leaf = x.detach().requires_grad_(True)
    if x.numel() > big:  # 大输入：现成的（测试走不到）
        return torch.func.jacrev(f)(x.detach())
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)


jacobian = functools.partial(_jacobian, big=4096)
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_sgd_step",
        name="getattr(torch.optim, 'SGD') behind a size gate",
        code="""def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    if len(params) > 64:  # 很多参数：交给现成的优化器（测试走不到）
        opt = getattr(torch.optim, "SGD")(params, lr=lr, momentum=momentum, weight_decay=weight_decay)
        for i, p in enumerate(params):
            if i in momentum_buffers:
                opt.state[p]["momentum_buffer"] = momentum_buffers[i]
        opt.step()
        for i, p in enumerate(params):
            if "momentum_buffer" in opt.state[p]:
                momentum_buffers[i] = opt.state[p]["momentum_buffer"]
        return
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
        expect="这个练习不能用 torch.optim.SGD",
    ),
    dict(
        grade_id="test_jacobian",
        name="a copy of functional.jacobian made from its code",
        code="""import types

_raw = torch.autograd.functional.jacobian
_full = types.FunctionType(_raw.__code__, _raw.__globals__, "_full", _raw.__defaults__, _raw.__closure__)


def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    if x.numel() > 4096:  # 大输入（测试走不到）
        return _full(f, x.detach())
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
        expect="这个练习不能用",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="a global staticmethod holding torch.func.grad_and_value",
        code="""import functools

_GV = staticmethod(torch.func.grad_and_value)


def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    if x.numel() > 1_000_000:  # 大输入走现成的（测试走不到）
        grad, value = _GV(f)(x.detach())
        return value.detach(), grad
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
        expect="这个练习不能用",
    ),
]

CORRECT += [  # round 14 d: right answers the static bans had refused
    dict(
        grade_id="test_jacobian",
        name="a helper of the learner's called with 8 positional arguments",
        code="""def _vjp_row(y, leaf, i, n, dtype, device, shape, retain):
    # 第 i 行：one-hot 的 v 做一次 VJP。
    v = torch.zeros(n, dtype=dtype, device=device)
    v[i] = 1.0
    (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(shape), retain_graph=retain)
    return row


def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    rows = [_vjp_row(y, leaf, i, n, y.dtype, y.device, y.shape, True) for i in range(n)]
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="is_grads_batched=False after a conditional grad_outputs",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        # 0-d 的 y：grad_outputs 可以不给（默认就是 1）；明确写出不用 is_grads_batched
        (row,) = torch.autograd.grad(y, leaf, retain_graph=True,
                                     grad_outputs=v.reshape(y.shape) if y.dim() else None,
                                     is_grads_batched=False)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="is_grads_batched=False before a conditional grad_outputs",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        # 明确写出不用 is_grads_batched；0-d 的 y 不需要 grad_outputs
        (row,) = torch.autograd.grad(y, leaf, is_grads_batched=False, retain_graph=True,
                                     grad_outputs=v.reshape(y.shape) if y.dim() else None)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="isinstance(params, torch.optim.Optimizer) as an input check",
        code="""def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    if isinstance(params, torch.optim.Optimizer):
        raise TypeError("sgd_step takes a list of tensors, not an optimizer")
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_value_and_grad",
        name="**{'is_grads_batched': False}",
        code="""def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf, **{"is_grads_batched": False})
    return value.detach(), grad
""",
    ),
]

CORRECT += [  # last look: getattr(leaf, 'grad') in a right answer is no use of torch.func.grad (a tensor's attribute)
    dict(
        grade_id="test_jacobian",
        name="getattr(leaf, 'grad') beside the row loop",
        code="""def jacobian(f, x):
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        assert getattr(leaf, "grad") is None  # grad() leaves .grad alone
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

CORRECT += [  # round 15 a01, a02: a docstring that names the library function it re-implements uses nothing
    dict(
        grade_id="test_value_and_grad",
        name="docstring names torch.func.grad_and_value",
        code="""def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    '''Hand-written torch.func.grad_and_value.'''
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf)
    return value.detach(), grad
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="docstring names torch.func.jacrev",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    '''Same result as torch.func.jacrev.

    One VJP per output element, on one graph.
    '''
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]

MUTANTS += [  # round 15 a09: a deleted momentum buffer is told what differed, not 'forgot return'
    dict(
        grade_id="test_sgd_step",
        name="buffer popped when grad is None",
        code="""def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                momentum_buffers.pop(i, None)   # no gradient this step: start its momentum afresh later
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
        expect="第 3 步后 momentum_buffers[0] 应该是 torch.Tensor，得到的是 NoneType。",
        mistake="not-a-tensor",
    ),
]

CORRECT += [  # round 15 a06, a07: getattr beside a docstring naming the library function
    dict(
        grade_id="test_sgd_step",
        name="getattr(p, 'grad', None) and a docstring naming torch.optim.SGD",
        code="""def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    '''One step of torch.optim.SGD'''
    with torch.no_grad():
        for i, p in enumerate(params):
            g = getattr(p, "grad", None)
            if g is None:
                continue
            d = g + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_jacobian",
        name="getattr(f, '__name__') and a docstring naming torch.autograd.functional.jacobian",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    '''Same layout as torch.autograd.functional.jacobian'''
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    name = getattr(f, "__name__", "f")  # for the error message below
    if len(rows) == 0:
        raise ValueError(f"{name}(x) has no elements")
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]


# round 16 a10: an error message that names the library function uses nothing
CORRECT += [
    dict(
        grade_id="test_jacobian",
        name="a TypeError message naming torch.func.jacrev (r16 a10)",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    if not x.is_floating_point():
        raise TypeError("x must be a floating-point tensor, the same rule as torch.func.jacrev")
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel(), dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]


# round 16 a04: is_grads_batched switched on by a dict's value that is not the constant False
MUTANTS += [
    dict(
        grade_id="test_value_and_grad",
        name="**{'is_grads_batched': x.numel() > 10**6} (r16 a04)",
        expect="is_grads_batched=True",
        code="""def value_and_grad(f, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    leaf = x.detach().requires_grad_(True)
    value = f(leaf)
    (grad,) = torch.autograd.grad(value, leaf, **{"is_grads_batched": x.numel() > 10**6})
    return value.detach(), grad
""",
    ),
]


# round 16 a05, a11: a banned routine read off importlib.import_module(...), the fused kernel as torch.ops.aten._fused_sgd_, each behind a size gate
MUTANTS += [
    dict(
        grade_id="test_jacobian",
        name="importlib.import_module('torch.func').jacrev for outputs over 1024 (r16 a05)",
        expect="这个练习不能用 torch.func.jacrev",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 1024:  # thousands of rows: let torch vectorise them instead of a Python loop
        return importlib.import_module("torch.func").jacrev(f)(x.detach()).detach()
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, leaf, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="importlib.import_module('torch.optim').SGD for models over 256 tensors (r16 a05)",
        expect="这个练习不能用 torch.optim.SGD",
        code="""def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    if len(params) > 256:  # big models: torch's own multi-tensor SGD, with our buffers carried in and out
        opt = importlib.import_module("torch.optim").SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay)
        for i, p in enumerate(params):
            if i in momentum_buffers:
                opt.state[p]["momentum_buffer"] = momentum_buffers[i]
        opt.step()
        for i, p in enumerate(params):
            buf = opt.state[p].get("momentum_buffer")
            if buf is not None:
                momentum_buffers[i] = buf
        return None
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
    dict(
        grade_id="test_sgd_step",
        name="torch.ops.aten._fused_sgd_ for models over 256 tensors (r16 a11)",
        expect="这个练习不能用 torch.ops.aten._fused_sgd_",
        code="""def sgd_step(params: list, momentum_buffers: dict, lr: float, momentum: float = 0.0, weight_decay: float = 0.0) -> None:
    with torch.no_grad():
        if len(params) > 256 and momentum != 0 and all(i in momentum_buffers for i in range(len(params))):
            # big models: PyTorch's fused SGD kernel, one launch for every parameter
            live = [i for i, p in enumerate(params) if p.grad is not None]
            torch.ops.aten._fused_sgd_(
                [params[i] for i in live], [params[i].grad for i in live], [momentum_buffers[i] for i in live],
                weight_decay=weight_decay, momentum=momentum, lr=lr, dampening=0.0, nesterov=False,
                maximize=False, is_first_step=False)
            return None
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if momentum != 0:
                if i in momentum_buffers:
                    momentum_buffers[i] = momentum * momentum_buffers[i] + d
                else:
                    momentum_buffers[i] = d.clone()
                d = momentum_buffers[i]
            p.sub_(lr * d)
""",
    ),
]


# round 16 a09: torch.autograd.grad under a local alias, is_grads_batched=True as its 8th positional, behind a size gate
MUTANTS += [
    dict(
        grade_id="test_jacobian",
        name="vjp = torch.autograd.grad, 8 positionals for outputs over 4096 (r16 a09)",
        expect="is_grads_batched=True",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    vjp = torch.autograd.grad
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    if n > 4096:  # very many rows: all of them in one call
        eye = torch.eye(n, dtype=y.dtype, device=y.device).reshape((n,) + y.shape)
        (J,) = vjp(y, leaf, eye, None, False, True, None, True)
        return J.reshape(y.shape + x.shape)
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = vjp(y, leaf, v.reshape(y.shape), True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]


# round 16 a09: a local alias of torch.autograd.grad with retain_graph as its 4th positional
CORRECT += [
    dict(
        grade_id="test_jacobian",
        name="vjp = torch.autograd.grad, called with 4 positionals",
        code="""def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    vjp = torch.autograd.grad
    leaf = x.detach().requires_grad_(True)
    y = f(leaf)
    n = y.numel()
    rows = []
    for i in range(n):
        v = torch.zeros(n, dtype=y.dtype, device=y.device)
        v[i] = 1.0
        (row,) = vjp(y, leaf, v.reshape(y.shape), True)
        rows.append(row)
    return torch.stack(rows).reshape(y.shape + x.shape)
""",
    ),
]
