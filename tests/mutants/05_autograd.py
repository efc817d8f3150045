"""Wrong answers learners write for 05_autograd; each must fail its test cell with the message named."""

_SGD_HEAD = "def sgd_step(params, momentum_buffers, lr, momentum=0.0, weight_decay=0.0):\n"
_ACC_HEAD = "def accumulate_grads(model, loss_fn, x, y, micro_batch_size):\n"

MUTANTS = [
    # value_and_grad
    dict(
        grade_id="test_value_and_grad",
        name="returns the value still attached to the graph",
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
        expect="Python 数字",
        code=(
            "def value_and_grad(f, x):\n    leaf = x.detach().requires_grad_(True)\n    value = f(leaf)\n"
            "    value.backward()\n    return value.item(), leaf.grad\n"
        ),
    ),
    # vjp
    dict(
        grade_id="test_vjp",
        name="y.sum().backward() ignores v",
        expect="上游梯度 (upstream gradient)",
        code=(
            "def vjp(f, x, v):\n    leaf = x.detach().requires_grad_(True)\n    f(leaf).sum().backward()\n"
            "    return leaf.grad\n"
        ),
    ),
    dict(
        grade_id="test_vjp",
        name="backward() on a non-scalar without v",
        expect="scalar outputs",
        code=(
            "def vjp(f, x, v):\n    leaf = x.detach().requires_grad_(True)\n    f(leaf).backward()\n"
            "    return leaf.grad\n"
        ),
    ),
    dict(
        grade_id="test_vjp",
        name="J @ v (JVP) instead of v^T J",
        expect="JVP",
        code=(
            "def vjp(f, x, v):\n    J = torch.autograd.functional.jacobian(f, x).reshape(v.numel(), x.numel())\n"
            "    return (J @ v.reshape(-1)).reshape(x.shape)\n"
        ),
    ),
    dict(
        grade_id="test_vjp",
        name="requires_grad_() on the caller's x",
        expect="改动了调用者的 x",
        code=("def vjp(f, x, v):\n    x.requires_grad_(True)\n    f(x).backward(v)\n    return x.grad\n"),
    ),
    # accumulate_grads
    dict(
        grade_id="test_accumulate_grads",
        name="forgets to scale each micro-batch loss",
        expect="缩放 (scale)",
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
        expect=".item()",
        code=(
            _ACC_HEAD + "    model.zero_grad()\n    total = 0.0\n    for s in range(0, len(x), micro_batch_size):\n"
            "        xb, yb = x[s:s + micro_batch_size], y[s:s + micro_batch_size]\n"
            "        loss = loss_fn(model(xb), yb) * len(xb) / len(x)\n"
            "        loss.backward()\n        total += loss\n    return total\n"
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
]
