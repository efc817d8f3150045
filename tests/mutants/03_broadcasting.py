"""Wrong answers learners write for 03_broadcasting; each must fail its test cell with the message named."""

from tests.notebooks import solution_with

_PAD = (
    "    ndim = max(len(a), len(b))\n"
    "    a = (1,) * (ndim - len(a)) + tuple(a)\n"
    "    b = (1,) * (ndim - len(b)) + tuple(b)\n"
)

MUTANTS = [
    # batch_outer_sum
    dict(
        grade_id="test_batch_outer_sum",
        name="the plain outer sum: batch dims broadcast against each other",
        expect="batch_outer_sum",
        code="def batch_outer_sum(a, b):\n    return a.unsqueeze(1) + b.unsqueeze(0)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="unsqueeze positions swapped gives (B, N, M)",
        expect="放反",
        code="def batch_outer_sum(a, b):\n    return a.unsqueeze(1) + b.unsqueeze(2)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="pairs sample k of a with every sample of b when B == M",
        expect="数值",
        code="def batch_outer_sum(a, b):\n    return a.unsqueeze(2) + b.unsqueeze(0)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a loop over the batch",
        expect="Python 循环",
        code="def batch_outer_sum(a, b):\n"
        "    return torch.stack([a[k].unsqueeze(1) + b[k].unsqueeze(0) for k in range(a.shape[0])])\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="flattens to (B, M * N)",
        expect="3 维",
        code="def batch_outer_sum(a, b):\n    return (a.unsqueeze(2) + b.unsqueeze(1)).flatten(1)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="unsqueeze_ changes the caller's tensor",
        expect="in-place",
        code="def batch_outer_sum(a, b):\n    return a.unsqueeze_(2) + b.unsqueeze(1)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="widens integer inputs to int64: int32 and uint8 inputs come back int64",
        expect="dtype 不对：期望 torch.int32，得到 torch.int64",
        code="def batch_outer_sum(a, b):\n"
        "    if not a.is_floating_point():\n"
        "        a, b = a.long(), b.long()\n"
        "    return a.unsqueeze(2) + b.unsqueeze(1)\n",
    ),
    # add_channel_bias_
    dict(
        grade_id="test_add_channel_bias_",
        name="x += bias adds along W",
        mistake="bias-on-trailing-dim",
        expect="最后一维 W",
        code="def add_channel_bias_(x, bias):\n    x += bias\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="bias as a column (C, 1) adds along H",
        expect="H 维",
        code="def add_channel_bias_(x, bias):\n    x += bias.unsqueeze(1)\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a new tensor: x unchanged",
        mistake="not-in-place",
        expect="x 没有被修改",
        code="def add_channel_bias_(x, bias):\n    return x + bias.view(1, -1, 1, 1)\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="in place but returns nothing",
        expect="return x",
        code="def add_channel_bias_(x, bias):\n    x.add_(bias.view(1, -1, 1, 1))\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a loop over the channels",
        expect="Python 循环",
        code="def add_channel_bias_(x, bias):\n"
        "    for c in range(x.shape[1]):\n        x[:, c] += bias[c]\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="rebinds x to x + bias (not in place)",
        expect="x 没有被修改",
        code="def add_channel_bias_(x, bias):\n    x = x + bias[:, None, None]\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="repeats bias to the full (N, C, H, W) size",
        expect="一样大",
        code="def add_channel_bias_(x, bias):\n"
        "    n, c, h, w = x.shape\n    x += bias.view(1, c, 1, 1).repeat(n, 1, h, w)\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="multiplies bias by ones_like(x)",
        expect="一样大",
        code="def add_channel_bias_(x, bias):\n    x += torch.ones_like(x) * bias.view(-1, 1, 1)\n    return x\n",
    ),
    # broadcast_shape
    dict(
        grade_id="test_broadcast_shape",
        name="aligns shapes on the left",
        expect="从左边对齐",
        code="def broadcast_shape(a, b):\n"
        "    ndim = max(len(a), len(b))\n"
        "    a = tuple(a) + (1,) * (ndim - len(a))\n"
        "    b = tuple(b) + (1,) * (ndim - len(b))\n"
        "    out = []\n"
        "    for x, y in zip(a, b):\n"
        "        if x != y and x != 1 and y != 1:\n"
        "            raise ValueError('cannot broadcast')\n"
        "        out.append(y if x == 1 else x)\n"
        "    return tuple(out)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="takes max(), so 1 with 0 gives 1",
        expect="max()",
        code="def broadcast_shape(a, b):\n" + _PAD + "    out = []\n"
        "    for x, y in zip(a, b):\n"
        "        if x != y and x != 1 and y != 1:\n"
        "            raise ValueError('cannot broadcast')\n"
        "        out.append(max(x, y))\n"
        "    return tuple(out)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="never checks compatibility",
        expect="应抛出 ValueError 或 RuntimeError",
        code="def broadcast_shape(a, b):\n" + _PAD + "    return tuple(y if x == 1 else x for x, y in zip(a, b))\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="requires the same number of dims",
        expect="前导维度",
        code="def broadcast_shape(a, b):\n"
        "    if len(a) != len(b):\n"
        "        raise ValueError('different ndim')\n"
        "    out = []\n"
        "    for x, y in zip(a, b):\n"
        "        if x != y and x != 1 and y != 1:\n"
        "            raise ValueError('cannot broadcast')\n"
        "        out.append(y if x == 1 else x)\n"
        "    return tuple(out)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="returns a list",
        expect="应返回 tuple",
        code="def broadcast_shape(a, b):\n" + _PAD + "    out = []\n"
        "    for x, y in zip(a, b):\n"
        "        if x != y and x != 1 and y != 1:\n"
        "            raise ValueError('cannot broadcast')\n"
        "        out.append(y if x == 1 else x)\n"
        "    return out\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="assert instead of raising ValueError",
        expect="不要用 assert",
        code="def broadcast_shape(a, b):\n" + _PAD + "    out = []\n"
        "    for x, y in zip(a, b):\n"
        "        assert x == y or x == 1 or y == 1, 'cannot broadcast'\n"
        "        out.append(y if x == 1 else x)\n"
        "    return tuple(out)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="calls torch.broadcast_shapes",
        expect="调用了",
        code="def broadcast_shape(a, b):\n    return tuple(torch.broadcast_shapes(a, b))\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="lets torch add two zero tensors",
        expect="调用了",
        code="def broadcast_shape(a, b):\n    return tuple((torch.zeros(a) + torch.zeros(b)).shape)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="torch.broadcast_tensors on empty tensors",
        expect="调用了",
        code="def broadcast_shape(a, b):\n    return tuple(torch.broadcast_tensors(torch.empty(a), torch.empty(b))[0].shape)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="meta tensors allocate nothing",
        expect="调用了",
        code="def broadcast_shape(a, b):\n"
        "    return tuple((torch.empty(a, device='meta') + torch.empty(b, device='meta')).shape)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="expand a 0-d tensor to one shape, then add the other",
        expect="调用了",
        code="def broadcast_shape(a, b):\n    return tuple((torch.tensor(0.0).expand(a) + torch.tensor(0.0).expand(b)).shape)\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="an alias of torch.broadcast_shapes imported earlier",
        expect="调用了",
        code="from torch import broadcast_shapes as _shapes\n\n"
        "def broadcast_shape(a, b):\n    return tuple(_shapes(a, b))\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="numpy's broadcast_shapes",
        expect="调用了 numpy",
        code="import numpy as np\n\ndef broadcast_shape(a, b):\n    return tuple(int(d) for d in np.broadcast_shapes(a, b))\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="torch first, the rule only as a fallback",
        expect="调用了",
        code="def broadcast_shape(a, b):\n"
        "    try:\n        return tuple(torch.broadcast_shapes(a, b))\n"
        "    except RuntimeError as err:\n        raise ValueError(str(err)) from None\n",
    ),
    # mse_loss
    dict(
        grade_id="test_mse_loss",
        name="(N, 1) - (N,) broadcasts to (N, N)",
        mistake="broadcast-n-by-n",
        expect="(N, N)",
        code="def mse_loss(pred, target):\n    return ((pred - target) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss with mismatched shapes (only a warning)",
        expect="(N, N)",
        code="def mse_loss(pred, target):\n    return torch.nn.functional.mse_loss(pred, target)\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="bare squeeze() and no shape check",
        expect="应 raise ValueError",
        code="def mse_loss(pred, target):\n    return ((pred.squeeze() - target.squeeze()) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="rejects (N, 1) against (N,) instead of fixing it",
        expect="squeeze(-1)",
        code="def mse_loss(pred, target):\n"
        "    if pred.shape != target.shape:\n"
        "        raise ValueError(f'shape mismatch {pred.shape} vs {target.shape}')\n"
        "    return ((pred - target) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="sum instead of mean",
        expect="mean()",
        code="def mse_loss(pred, target):\n"
        "    if pred.dim() == 2:\n        pred = pred.squeeze(-1)\n"
        "    if target.dim() == 2:\n        target = target.squeeze(-1)\n"
        "    if pred.shape != target.shape:\n        raise ValueError('shape mismatch')\n"
        "    return ((pred - target) ** 2).sum()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="returns loss.item()",
        expect="torch.Tensor",
        code="def mse_loss(pred, target):\n"
        "    pred, target = pred.reshape(-1), target.reshape(-1)\n"
        "    if pred.shape != target.shape:\n        raise ValueError('shape mismatch')\n"
        "    return ((pred - target) ** 2).mean().item()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="detaches the prediction",
        mistake="detached-from-graph",
        expect="requires_grad",
        code="def mse_loss(pred, target):\n"
        "    pred, target = pred.detach().reshape(-1), target.reshape(-1)\n"
        "    if pred.shape != target.shape:\n        raise ValueError('shape mismatch')\n"
        "    return ((pred - target) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="squeeze(-1) on both makes (1,) a 0-d tensor",
        expect="0-d",
        code="def mse_loss(pred, target):\n"
        "    pred, target = pred.squeeze(-1), target.squeeze(-1)\n"
        "    if pred.shape != target.shape:\n        raise ValueError('shape mismatch')\n"
        "    return ((pred - target) ** 2).mean()\n",
    ),
    # pairwise_sq_dist
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x - y without unsqueeze",
        expect="形状不能广播",
        code="def pairwise_sq_dist(x, y):\n    return ((x - y) ** 2).sum(-1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x and y swapped gives (M, N)",
        expect="放反",
        code="def pairwise_sq_dist(x, y):\n    return ((x[None] - y[:, None]) ** 2).sum(-1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="sum() without dim",
        expect="sum(dim=-1)",
        code="def pairwise_sq_dist(x, y):\n    return ((x[:, None] - y[None]) ** 2).sum()\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="sums over the wrong dim",
        expect="求和的维度 (dim) 不对",
        code="def pairwise_sq_dist(x, y):\n    return ((x[:, None] - y[None]) ** 2).sum(1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist gives distances, not squared",
        expect="torch.cdist",
        code="def pairwise_sq_dist(x, y):\n    return torch.cdist(x, y)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist squared skips the broadcasting",
        expect="torch.cdist",
        code="def pairwise_sq_dist(x, y):\n    return torch.cdist(x, y) ** 2\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="norm over the broadcast difference is the distance",
        expect="不要开根号",
        code="def pairwise_sq_dist(x, y):\n    return (x[:, None] - y[None]).norm(dim=-1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="sqrt of the squared distances",
        mistake="distance-not-squared",
        expect="不要开根号",
        code="def pairwise_sq_dist(x, y):\n    return ((x[:, None] - y[None]) ** 2).sum(-1).sqrt()\n",
    ),
    # predict first
    dict(
        grade_id="test_predict_sum_shape",
        formative=True,
        name="the first operand's shape wins",
        expect="(2, 4, 3)",
        code="predict_sum_shape = (2, 1, 3)\n",
    ),
    dict(
        grade_id="test_predict_sum_shape",
        formative=True,
        name="dims in the wrong order",
        expect="右对齐",
        code="predict_sum_shape = (4, 2, 3)\n",
    ),
    dict(
        grade_id="test_predict_sum_shape",
        formative=True,
        name="answers that it cannot broadcast",
        expect="应写成 tuple",
        code="predict_sum_shape = 'error'\n",
    ),
    dict(
        grade_id="test_predict_expand_stride",
        formative=True,
        name="stride of a contiguous (3, 4)",
        expect="stride 是 0",
        code="predict_expand_stride = (4, 1)\n",
    ),
    dict(
        grade_id="test_predict_expand_stride",
        formative=True,
        name="zero stride on the wrong dim",
        expect="第 0 维不变",
        code="predict_expand_stride = (0, 1)\n",
    ),
    dict(
        grade_id="test_predict_expand_stride",
        formative=True,
        name="stride unchanged by expand",
        expect="expand 不复制",
        code="predict_expand_stride = (1, 1)\n",
    ),
    dict(
        grade_id="test_predict_inplace_raises",
        formative=True,
        name="expects in-place ops to broadcast like x + y",
        expect="形状不能变",
        code="predict_inplace_raises = False\n",
    ),
    dict(
        grade_id="test_predict_inplace_raises",
        formative=True,
        name="answers with the error type",
        expect="之一",
        code="predict_inplace_raises = 'RuntimeError'\n",
    ),
    dict(
        grade_id="test_predict_inplace_raises",
        formative=True,
        name="leaves the placeholder",
        expect="还没有写预测",
        code="predict_inplace_raises = ...\n",
    ),
    # found by the issue-17 review (n123c): each passed every test before
    dict(
        grade_id="test_batch_outer_sum",
        name="a loop over samples after tolist()",
        expect="batch_outer_sum(a (2, 2), b (2, 3)) 用了 Tensor.tolist()：张量离开了 torch",
        code="def batch_outer_sum(a, b):\n"
        "    return torch.tensor([[[x + y for y in bk] for x in ak] for ak, bk in zip(a.tolist(), b.tolist())], dtype=a.dtype)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a loop over the rows of x",
        expect="pairwise_sq_dist(x (64, 3), y (64, 3)) 调用 torch 函数与执行你自己的 Python 代码共",
        code="def pairwise_sq_dist(x, y):\n"
        "    return torch.stack([((y - x[i]) ** 2).sum(dim=1) for i in range(x.shape[0])])\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a double loop over both sets of points",
        expect="只能来自 Python 循环或递归",  # stopped at tensors.STEP_LIMIT steps
        code="def pairwise_sq_dist(x, y):\n"
        "    return torch.stack([torch.stack([((x[i] - y[j]) ** 2).sum() for j in range(y.shape[0])])\n"
        "                        for i in range(x.shape[0])])\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="_euclidean_dist through torch.ops.aten",
        expect="pairwise_sq_dist 用了 torch._euclidean_dist",
        code="def pairwise_sq_dist(x, y):\n"
        "    return torch.ops.aten._euclidean_dist(x.float(), y.float()).pow(2).to(x.dtype)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="_cdist_forward through torch.ops.aten",
        expect="pairwise_sq_dist 用了 torch._cdist_forward",
        code="def pairwise_sq_dist(x, y):\n"
        "    return torch.ops.aten._cdist_forward(x.double(), y.double(), 2.0, None).pow(2).to(x.dtype)\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="flattens both and compares numel",
        expect="的形状不匹配，应 raise ValueError",
        code="def mse_loss(pred, target):\n"
        "    if pred.dim() not in (1, 2) or target.dim() not in (1, 2) or pred.numel() != target.numel():\n"
        "        raise ValueError(f'bad shapes {tuple(pred.shape)} {tuple(target.shape)}')\n"
        "    return ((pred.reshape(-1) - target.reshape(-1)) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="view_as when the sizes agree",
        expect="的形状不匹配，应 raise ValueError",
        code="def mse_loss(pred, target):\n"
        "    if pred.dim() not in (1, 2) or target.dim() not in (1, 2) or pred.numel() != target.numel():\n"
        "        raise ValueError(f'bad shapes {tuple(pred.shape)} {tuple(target.shape)}')\n"
        "    return ((pred - target.view_as(pred)) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="pairwise_distance through torch.ops.aten, squared",
        expect="pairwise_sq_dist 用了 pairwise_distance / nn.PairwiseDistance",
        code="def pairwise_sq_dist(x, y):\n"
        "    return torch.ops.aten.pairwise_distance(x.unsqueeze(1), y.unsqueeze(0)).pow(2)\n",
    ),
    # found by the second issue-17 review (rv13): each passed every test, or got a guessed cause, before
    dict(
        grade_id="test_mse_loss",
        name="ValueError without the shapes in its message",
        expect="消息里写出两个形状",
        code="def mse_loss(pred, target):\n"
        "    if pred.dim() == 2 and pred.shape[1] == 1:\n        pred = pred.squeeze(-1)\n"
        "    if target.dim() == 2 and target.shape[1] == 1:\n        target = target.squeeze(-1)\n"
        "    if pred.dim() != 1 or pred.shape != target.shape:\n        raise ValueError('shape mismatch')\n"
        "    return ((pred - target) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="TypeError instead of ValueError",
        expect="应 raise ValueError，你的函数抛出了 TypeError",
        code="def mse_loss(pred, target):\n"
        "    if pred.dim() == 2 and pred.shape[1] == 1:\n        pred = pred.squeeze(-1)\n"
        "    if target.dim() == 2 and target.shape[1] == 1:\n        target = target.squeeze(-1)\n"
        "    if pred.dim() != 1 or pred.shape != target.shape:\n"
        "        raise TypeError(f'{tuple(pred.shape)} {tuple(target.shape)}')\n"
        "    return ((pred - target) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a loop over M",
        expect="a 的长度 M = 64",
        code="def batch_outer_sum(a, b):\n"
        "    return torch.stack([a[:, i, None] + b for i in range(a.shape[1])], dim=1)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="torch.vmap places the batch dim",
        expect="用了 torch.vmap",
        code="def batch_outer_sum(a, b):\n    return torch.vmap(lambda u, v: u[:, None] + v)(a, b)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.vmap over the points of x",
        expect="用了 torch.vmap",
        code="def pairwise_sq_dist(x, y):\n    return torch.vmap(lambda xi: ((y - xi) ** 2).sum(-1))(x)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a loop over the features",
        expect="特征维 D = 64",
        code="def pairwise_sq_dist(x, y):\n    out = 0\n    for k in range(x.shape[1]):\n"
        "        out = out + (x[:, k, None] - y[None, :, k]) ** 2\n    return out\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x + bias computed in NumPy, then copied back",
        expect="用了 Tensor.numpy()：x 的数据离开了 torch",
        code="def add_channel_bias_(x, bias):\n"
        "    x.copy_(torch.from_numpy(x.numpy() + bias.numpy()[:, None, None]))\n    return x\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="NumPy broadcasts zero-stride arrays (fails beyond int64)",
        expect="只做整数比较",
        code="import numpy as np\n\n\ndef broadcast_shape(a, b):\n"
        "    A = np.ndarray(a, strides=(0,) * len(a), buffer=bytearray(8))\n"
        "    B = np.ndarray(b, strides=(0,) * len(b), buffer=bytearray(8))\n"
        "    return tuple(int(d) for d in np.broadcast(A, B).shape)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a loop over N",
        expect="b 的长度 N = 64",
        code="def batch_outer_sum(a, b):\n"
        "    return torch.stack([a + b[:, j, None] for j in range(b.shape[1])], dim=2)\n",
    ),
    # found by the third issue-17 review (rfa): a message that guessed the wrong cause before
    dict(
        grade_id="test_pairwise_sq_dist",
        name="forgets to sum over the features",
        expect="还没有沿特征维 D 求和",
        code="def pairwise_sq_dist(x, y):\n    return (x[:, None] - y[None]) ** 2\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="mean() without dim",
        expect="所有元素被归约成了一个数",
        code="def pairwise_sq_dist(x, y):\n    return ((x[:, None] - y[None]) ** 2).mean()\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="hands the points to NumPy (where SciPy's cdist would do the work)",
        expect="pairwise_sq_dist 用了 Tensor.numpy()：张量离开了 torch",
        code="def pairwise_sq_dist(x, y):\n"
        "    xn, yn = x.numpy(), y.numpy()\n"
        "    return torch.from_numpy(((xn[:, None] - yn[None]) ** 2).sum(-1))\n",
    ),
    # found by the closing issue-17 review (r0105): each passed every test before
    dict(
        grade_id="test_batch_outer_sum",
        name="repeat tiles a and b to (B, M, N) before adding",
        expect="repeat 把一个",
        code="def batch_outer_sum(a, b):\n"
        "    return a.unsqueeze(2).repeat(1, 1, b.shape[1]) + b.unsqueeze(1).repeat(1, a.shape[1], 1)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="expand(...).contiguous() materialises the broadcast",
        expect="tiling",
        code="def batch_outer_sum(a, b):\n    (n, m), k = a.shape, b.shape[1]\n"
        "    return a.unsqueeze(2).expand(n, m, k).contiguous() + b.unsqueeze(1).expand(n, m, k).contiguous()\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="repeat_interleave and repeat tile the points into N * M rows",
        expect="tiling",
        code="def pairwise_sq_dist(x, y):\n    n, m = x.shape[0], y.shape[0]\n"
        "    return ((x.repeat_interleave(m, dim=0) - y.repeat(n, 1)) ** 2).sum(-1).view(n, m)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="cat of N copies of y",
        expect="cat 把一个",
        code="def pairwise_sq_dist(x, y):\n"
        "    return ((x.unsqueeze(1) - torch.cat([y.unsqueeze(0)] * x.shape[0])) ** 2).sum(-1)\n",
    ),
    # issue-17 final pass (rva): relatives of the tiling fix that still passed
    dict(
        grade_id="test_batch_outer_sum",
        name="fills empty (B, M, N) buffers with out[:] = a[:, :, None] before adding",
        expect="你调用的 Tensor.__setitem__（其中的 copy_）把一个",
        code="def batch_outer_sum(a, b):\n    (n, m), k = a.shape, b.shape[1]\n"
        "    ta = torch.empty(n, m, k, dtype=a.dtype)\n    ta[:] = a[:, :, None]\n"
        "    tb = torch.empty(n, m, k, dtype=b.dtype)\n    tb[:] = b[:, None, :]\n    return ta + tb\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="multiplies by a ones tensor to tile a and b",
        expect="全 1",
        code="def batch_outer_sum(a, b):\n    ones = torch.ones(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype)\n"
        "    return a.unsqueeze(2) * ones + b.unsqueeze(1) * ones\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="bmm with ones tiles a and b",
        expect="bmm 把一个",
        code="def batch_outer_sum(a, b):\n    (n, m), k = a.shape, b.shape[1]\n"
        "    if not a.is_floating_point():\n        return a.unsqueeze(2) + b.unsqueeze(1)\n"
        "    ta = torch.bmm(a.unsqueeze(2), torch.ones(n, 1, k, dtype=a.dtype))\n"
        "    return ta + torch.bmm(torch.ones(n, m, 1, dtype=b.dtype), b.unsqueeze(1))\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="expand(...).double() materialises the broadcast in another dtype",
        expect="你调用的 Tensor.double（其中的 _to_copy）把一个",
        code="def pairwise_sq_dist(x, y):\n    (n, d), m = x.shape, y.shape[0]\n"
        "    xs = x.unsqueeze(1).expand(n, m, d).double()\n    ys = y.unsqueeze(0).expand(n, m, d).double()\n"
        "    return ((xs - ys) ** 2).sum(-1).to(x.dtype)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="copy_ of x and y into empty (N, M, D) buffers",
        expect="copy_ 把一个",
        code="def pairwise_sq_dist(x, y):\n    (n, d), m = x.shape, y.shape[0]\n"
        "    xs = torch.empty(n, m, d, dtype=x.dtype).copy_(x.unsqueeze(1))\n"
        "    ys = torch.empty(n, m, d, dtype=y.dtype).copy_(y.unsqueeze(0))\n"
        "    return ((xs - ys) ** 2).sum(-1)\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a loop over the samples",
        expect="样本数 N",
        code="def add_channel_bias_(x, bias):\n    for i in range(x.shape[0]):\n"
        "        x[i] += bias.view(-1, 1, 1)\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a loop over the rows H",
        expect="高 H",
        code="def add_channel_bias_(x, bias):\n    for i in range(x.shape[2]):\n"
        "        x[:, :, i] += bias.view(-1, 1)\n    return x\n",
    ),
    dict(
        grade_id="test_mse_loss",
        name="a value memo keyed also on requires_grad returns a clone of a loss kept from an earlier call",
        expect="pred.grad 是 None",
        code='import torch\n\n_memo = {}\n\n\ndef _key(t):\n    return (t.dtype, tuple(t.shape), t.requires_grad, tuple(t.detach().flatten().tolist()))\n\n\ndef mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:\n    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""\n    key = (_key(pred), _key(target))\n    if key in _memo:\n        return _memo[key].clone()  # 缓存的副本 .clone()：调用者改不到缓存\n    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"\n    p, t = pred, target\n    if p.dim() == 2 and p.shape[1] == 1:\n        p = p.squeeze(-1)\n    if t.dim() == 2 and t.shape[1] == 1:\n        t = t.squeeze(-1)\n    if p.dim() != 1 or p.shape != t.shape:\n        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")\n    wide = torch.promote_types(pred.dtype, torch.float32)\n    out = ((p.to(wide) - t.to(wide)) ** 2).mean().to(pred.dtype)\n    _memo[key] = out\n    return out.clone()\n',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a value memo whose key is built with tolist(): tolist() is banned, whatever it is used for",
        expect="pairwise_sq_dist 用了 Tensor.tolist()：这个练习不许把张量的值取成 Python 列表",
        code='import torch\n\n_memo = {}\n\n\ndef _key(t):\n    return (t.dtype, tuple(t.shape), t.requires_grad, tuple(t.detach().flatten().tolist()))\n\n\ndef pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:\n    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""\n    key = (_key(x), _key(y))  # 按输入现在的值做键：x += 1 之后键也变了\n    if key not in _memo:\n        diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)\n        _memo[key] = (diff ** 2).sum(dim=-1)\n    return _memo[key].clone()  # 真要缓存，返回缓存的副本 .clone()\n',
    ),
]

# Right answers written another way: each must pass its test cell (tests/test_mutants.py).
CORRECT: list[dict] = []

MUTANTS += [  # rv5: constant operands made by the *_like / new_* factories (found by a read-only reviewer)
    dict(
        grade_id="test_batch_outer_sum",
        name="bmm with ones_like tiles a and b",
        expect="bmm 把一个",
        code="def batch_outer_sum(a, b):\n"
        "    ta = torch.bmm(a.unsqueeze(2), torch.ones_like(b).unsqueeze(1))\n"
        "    tb = torch.bmm(torch.ones_like(a).unsqueeze(2), b.unsqueeze(1))\n"
        "    return ta + tb\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x and y tiled by multiplying with ones_like",
        expect="mul 把一个",
        code="def pairwise_sq_dist(x, y):\n"
        "    xt = x.unsqueeze(1) * torch.ones_like(y).unsqueeze(0)\n"
        "    yt = y.unsqueeze(0) * torch.ones_like(x).unsqueeze(1)\n"
        "    return ((xt - yt) ** 2).sum(dim=-1)\n",
    ),
]

MUTANTS += [  # issue-17 fresh pass (rva5): operands without data made any other way; each passed every test before
    dict(
        grade_id="test_batch_outer_sum",
        name="a tiled against a clone of torch.ones",
        expect="不是由输入算出来的",
        code="def batch_outer_sum(a, b):\n"
        "    ones = torch.ones(b.shape[1], dtype=a.dtype).clone()\n"
        "    return a.unsqueeze(2) * ones + b.unsqueeze(1)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a tiled by adding arange(N) * 0",
        expect="不是由输入算出来的",
        code="def batch_outer_sum(a, b):\n"
        "    zeros = torch.arange(b.shape[1]).to(a.dtype) * 0\n"
        "    return (a.unsqueeze(2) + zeros) + b.unsqueeze(1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x and y tiled against ones written as a list",
        expect="不是由输入算出来的",
        code="def pairwise_sq_dist(x, y):\n    n, m = x.shape[0], y.shape[0]\n"
        "    xt = x.unsqueeze(1) * torch.tensor([1.0] * m, dtype=x.dtype).view(1, m, 1)\n"
        "    yt = y.unsqueeze(0) * torch.tensor([1.0] * n, dtype=y.dtype).view(n, 1, 1)\n"
        "    return ((xt - yt) ** 2).sum(dim=-1)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a tiled against ones computed from b (b * 0 + 1)",
        expect="结果恰好就是这个张量铺开后的样子",
        code="def batch_outer_sum(a, b):\n    ones = b * 0 + 1\n"
        "    return a.unsqueeze(2) * ones.unsqueeze(1) + b.unsqueeze(1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x tiled against y.pow(0)",
        expect="结果恰好就是这个张量铺开后的样子",
        code="def pairwise_sq_dist(x, y):\n    xt = x.unsqueeze(1) * y.pow(0).unsqueeze(0)\n"
        "    return ((xt - y.unsqueeze(0)) ** 2).sum(dim=-1)\n",
    ),
]

MUTANTS += [  # issue-17 final pass (rvf5): tiled against a one-value operand computed from an input, but not an identity
    dict(
        grade_id="test_batch_outer_sum",
        name="a - (b * 0 + 1) tiles a, then + 1 + b",
        expect="另一个操作数处处是同一个值",
        code="def batch_outer_sum(a, b):\n    ones = b.unsqueeze(1) * 0 + 1\n"
        "    return (a.unsqueeze(2) - ones) + 1 + b.unsqueeze(1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x * (y * 0 + 2) / 2 tiles x",
        expect="另一个操作数处处是同一个值",
        code="def pairwise_sq_dist(x, y):\n    xt = x.unsqueeze(1) * (y.unsqueeze(0) * 0 + 2) / 2\n"
        "    return ((xt - y.unsqueeze(0)) ** 2).sum(dim=-1)\n",
    ),
]

MUTANTS += [  # issue-17 final pass (rvf5): an operation that ignores a varying argument (alpha=0, an all-true where)
    dict(
        grade_id="test_batch_outer_sum",
        name="torch.add(a, b, alpha=0) spreads a over b's shape, then + b",
        expect="结果恰好就是这个张量铺开后的样子",
        code="def batch_outer_sum(a, b):\n"
        "    return torch.add(a.unsqueeze(2), b.unsqueeze(1), alpha=0) + b.unsqueeze(1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.where(y == y, x, y) spreads x over y's shape",
        expect="结果恰好就是这个张量铺开后的样子",
        code="def pairwise_sq_dist(x, y):\n    xu, yu = x.unsqueeze(1), y.unsqueeze(0)\n"
        "    return ((torch.where(yu == yu, xu, yu) - yu) ** 2).sum(dim=-1)\n",
    ),
]

MUTANTS += [  # issue-17 third pass (rvk): the argument skip held for a one-valued view of an input that varies
    dict(
        grade_id="test_batch_outer_sum",
        name="torch.add(a, <one element of b expanded>, alpha=0) spreads a, then + b",
        expect="结果恰好就是这个张量铺开后的样子",
        code="def batch_outer_sum(a, b):\n"
        "    one = b[:1, None, :1].expand(a.shape[0], 1, b.shape[1])\n"
        "    return torch.add(a.unsqueeze(2), one, alpha=0) + b.unsqueeze(1)\n",
    ),
]

MUTANTS += [  # issue-17 third pass (rvk): stack / cat copied out broadcast views of two operands
    dict(
        grade_id="test_batch_outer_sum",
        name="stacks the broadcast views of a and b (both copied out in full), then sums them",
        expect="stack 把一个",
        code="def batch_outer_sum(a, b):\n"
        "    return torch.stack(torch.broadcast_tensors(a.unsqueeze(2), b.unsqueeze(1))).sum(0)\n",
    ),
]

MUTANTS += [  # issue-17 fourth look (rvm): where with a constant selector stacks both broadcast views, like stack
    dict(
        grade_id="test_batch_outer_sum",
        name="torch.where(<(2, 1, 1, 1) selector>, a, b) stacks both spread operands, then sums them",
        expect="where 把一个",
        code="def batch_outer_sum(a, b):\n"
        "    sel = torch.tensor([True, False]).view(2, 1, 1, 1)\n"
        "    return torch.where(sel, a[:, :, None], b[:, None, :]).sum(0)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.where(<(2, 1, 1, 1) selector>, x, y) stacks both spread operands, then subtracts the halves",
        expect="where 把一个",
        code="def pairwise_sq_dist(x, y):\n"
        "    sel = torch.tensor([True, False]).view(2, 1, 1, 1)\n"
        "    both = torch.where(sel, x[:, None, :], y[None, :, :])\n"
        "    return ((both[0] - both[1]) ** 2).sum(dim=-1)\n",
    ),
]

MUTANTS += [  # issue-17 fresh pass (rwb): a buffer without data filled in place / through out= from one input, then read
    dict(
        grade_id="test_batch_outer_sum",
        name="fills a zeros (B, M, N) buffer with += a[:, :, None], then adds b out of place",
        expect="add_ 把一个",
        code="def batch_outer_sum(a, b):\n"
        "    ta = torch.zeros(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype); ta += a[:, :, None]\n"
        "    return ta + b[:, None, :]\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="index_add_ spreads a into a zeros (B, M, N) buffer, then + b",
        expect="index_add_ 把一个",
        code="def batch_outer_sum(a, b):\n    (n, m), k = a.shape, b.shape[1]\n"
        "    ta = torch.zeros(n, m, k, dtype=a.dtype)\n"
        "    ta.index_add_(0, torch.arange(n), a[:, :, None].expand(n, m, k))\n    return ta + b[:, None, :]\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="fills a zeros (N, M, D) buffer with += x[:, None], then subtracts y",
        expect="add_ 把一个",
        code="def pairwise_sq_dist(x, y):\n    (n, d), m = x.shape, y.shape[0]\n"
        "    xt = torch.zeros(n, m, d, dtype=x.dtype); xt += x[:, None]\n    return ((xt - y[None]) ** 2).sum(-1)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.mul(<x spread>, 1, out=buffer) copies x out, then subtracts y",
        expect="mul 把一个",
        code="def pairwise_sq_dist(x, y):\n    (n, d), m = x.shape, y.shape[0]\n"
        "    xt = torch.empty(n, m, d, dtype=x.dtype); torch.mul(x[:, None].expand(n, m, d), 1, out=xt)\n"
        "    return ((xt - y[None]) ** 2).sum(-1)\n",
    ),
    dict(  # the out= form of torch.add(a, b, alpha=0): two sources, the buffer left exactly a spread
        grade_id="test_batch_outer_sum",
        name="torch.add(a, b, alpha=0, out=buffer) spreads a into a (B, M, N) buffer, then + b",
        expect="add 把一个",
        code="def batch_outer_sum(a, b):\n"
        "    buf = torch.empty(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype)\n"
        "    torch.add(a[:, :, None], b[:, None, :], alpha=0, out=buf)\n    return buf + b[:, None, :]\n",
    ),
    # a pair-stack of both spreads (like torch.stack): complex(A, B), then the real and imaginary parts summed
    dict(
        grade_id="test_batch_outer_sum",
        name="torch.complex of the two broadcast views, then view_as_real(...).sum(-1)",
        expect="complex 把一个",
        code="def batch_outer_sum(a, b):\n    if not a.is_floating_point():\n"
        "        return a.unsqueeze(2) + b.unsqueeze(1)\n"
        "    A, B = torch.broadcast_tensors(a[:, :, None], b[:, None, :])\n"
        "    return torch.view_as_real(torch.complex(A, B)).sum(-1)\n",
    ),
    # tiling in NumPy, out of the ATen recorder's sight: the memory shows it
    dict(
        grade_id="test_batch_outer_sum",
        name="np.repeat tiles a and b in NumPy, then adds them",
        expect="张量离开了 torch",
        code="import numpy as np\n\n\ndef batch_outer_sum(a, b):\n    an, bn = a.numpy(), b.numpy()\n"
        "    ta = np.repeat(an[:, :, None], bn.shape[1], 2)\n    tb = np.repeat(bn[:, None, :], an.shape[1], 1)\n"
        "    return torch.from_numpy(ta + tb)\n",
    ),
    # chunks of x + bias written back: no temporary as large as x, but they add up to it
    dict(
        grade_id="test_add_channel_bias_",
        name="x + bias computed chunk by chunk, each written back",
        expect="临时张量加起来有",
        code="def add_channel_bias_(x, bias):\n    d = max((0, 2, 3), key=lambda i: x.shape[i])\n"
        "    for part in x.chunk(2, d):\n        part.copy_(part + bias.view(-1, 1, 1))\n    return x\n",
    ),
    # the profiler watched only the calling thread
    dict(
        grade_id="test_broadcast_shape",
        name="torch.broadcast_shapes run in a worker thread",
        expect="调用了",
        code="import concurrent.futures\n\n\ndef broadcast_shape(a, b):\n"
        "    with concurrent.futures.ThreadPoolExecutor(1) as pool:\n"
        "        try:\n            return tuple(pool.submit(torch.broadcast_shapes, a, b).result())\n"
        "        except RuntimeError as err:\n            raise ValueError(str(err)) from None\n",
    ),
]

CORRECT += [  # issue-17 fresh pass (rwb): shape asserts make a dozen or two steps, no loop (were told they loop)
    dict(
        grade_id="test_batch_outer_sum",
        name="the solution with shape asserts before and after",
        code="def batch_outer_sum(a, b):\n"
        "    assert a.dim() == 2 and b.dim() == 2, (a.shape, b.shape)\n"
        "    assert a.shape[0] == b.shape[0], (a.shape, b.shape)\n"
        "    assert a.dtype == b.dtype, (a.dtype, b.dtype)\n"
        "    B, M = a.shape\n    N = b.shape[1]\n    col = a.unsqueeze(2)\n    row = b.unsqueeze(1)\n"
        "    out = col + row\n    assert out.shape == (B, M, N), out.shape\n    return out\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="the solution with shape, dtype and device asserts",
        code="def add_channel_bias_(x, bias):\n    n, c, h, w = x.shape\n"
        "    assert x.dim() == 4, x.shape\n    assert bias.dim() == 1, bias.shape\n"
        "    assert bias.shape[0] == c, (bias.shape, x.shape)\n    assert bias.dtype == x.dtype\n"
        "    assert bias.device == x.device\n    b = bias.view(1, c, 1, 1)\n    x += b\n"
        "    assert x.shape == (n, c, h, w)\n    return x\n",
    ),
]

MUTANTS += [  # issue-17 review of rwb's fixes (rxb): threading.setprofile reaches only threads started during the call
    dict(
        grade_id="test_broadcast_shape",
        name="torch.broadcast_shapes run by a module-level thread pool warmed up before the call",
        expect="把计算交给了另一个线程或进程",
        code="import concurrent.futures\n\n_POOL = concurrent.futures.ThreadPoolExecutor(1)\n"
        "_POOL.submit(lambda: None).result()\n\n\ndef broadcast_shape(a, b):\n"
        "    try:\n        return tuple(_POOL.submit(torch.broadcast_shapes, a, b).result())\n"
        "    except RuntimeError as err:\n        raise ValueError(str(err)) from None\n",
    ),
]

CORRECT += [  # issue-17 review of rwb's fixes (rxb): print goes through the kernel's threads, not the learner's
    dict(
        grade_id="test_broadcast_shape",
        name="prints its inputs while debugging",
        code="def broadcast_shape(a, b):\n    print('broadcast_shape', a, b)\n" + _PAD + "    out = []\n"
        "    for x, y in zip(a, b):\n"
        "        if x != y and x != 1 and y != 1:\n"
        "            raise ValueError('cannot broadcast')\n"
        "        out.append(y if x == 1 else x)\n"
        "    return tuple(out)\n",
    ),
]

MUTANTS += [  # issue-17 (lead, after rxb): NumPy does the work; the prose bans it like pairwise_sq_dist's
    dict(
        grade_id="test_batch_outer_sum",
        name="a tiled once with np.repeat, b added into it in place",
        expect="batch_outer_sum(a (2, 2), b (2, 3)) 用了 Tensor.numpy()：张量离开了 torch",
        code="import numpy as np\n\n\ndef batch_outer_sum(a, b):\n"
        "    ta = np.repeat(a.numpy()[:, :, None], b.shape[1], 2)\n    ta += b.numpy()[:, None, :]\n"
        "    return torch.from_numpy(ta)\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="NumPy broadcasting, copied out",
        expect="张量离开了 torch",
        code="import numpy as np\n\n\ndef batch_outer_sum(a, b):\n"
        "    return torch.from_numpy((np.asarray(a)[:, :, None] + np.asarray(b)[:, None, :]).copy())\n",
    ),
]

MUTANTS += [  # s31 review (gb): a loop over blocks takes fewer steps than elements (64), and passed
    dict(
        grade_id="test_batch_outer_sum",
        name="a loop over blocks of 16 samples (split), each block broadcast",
        expect="步数随 batch 大小 B 增长",
        code="def batch_outer_sum(a, b):\n"
        "    return torch.cat([ac.unsqueeze(2) + bc.unsqueeze(1) for ac, bc in zip(a.split(16), b.split(16))])\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a loop over blocks of 16 points of x (split), each block broadcast",
        expect="步数随 点数 N、M 增长",
        code="def pairwise_sq_dist(x, y):\n"
        "    rows = [((xc.unsqueeze(1) - y.unsqueeze(0)) ** 2).sum(-1) for xc in x.split(16)]\n"
        "    return torch.cat(rows)\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a loop over blocks of 16 features (split), the squared differences added up",
        expect="超过 2000 步",  # stop 55: the step check runs at D = 8192
        code="def pairwise_sq_dist(x, y):\n    out = 0\n"
        "    for xc, yc in zip(x.split(16, dim=1), y.split(16, dim=1)):\n"
        "        out = out + ((xc.unsqueeze(1) - yc.unsqueeze(0)) ** 2).sum(-1)\n    return out\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a loop over blocks of 16 channels (split), each added in place",
        expect="步数随 通道数 C 增长",
        code="def add_channel_bias_(x, bias):\n"
        "    for xc, bc in zip(x.split(16, dim=1), bias.split(16)):\n        xc += bc.view(-1, 1, 1)\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a loop over blocks of 16 rows (split), each added in place",
        expect="步数随 高 H × 宽 W 增长",
        code="def add_channel_bias_(x, bias):\n    b = bias.view(-1, 1, 1)\n"
        "    for rows in x.split(16, dim=2):\n        rows += b\n    return x\n",
    ),
]

MUTANTS += [  # s31 review (gb): the caller's bias was never looked at after the call
    dict(
        grade_id="test_add_channel_bias_",
        name="bias.resize_(C, 1, 1) changes the caller's bias, then x.add_(bias)",
        expect="修改了调用者的 bias",
        mistake="modifies-input",
        code="def add_channel_bias_(x, bias):\n    bias.resize_(bias.shape[0], 1, 1)\n    x.add_(bias)\n    return x\n",
    ),
    dict(  # was told the second call raised a broadcast error about a (3, 1, 1, 1, 1) bias
        grade_id="test_add_channel_bias_",
        name="bias.unsqueeze_(-1).unsqueeze_(-1) changes the caller's bias",
        expect="修改了调用者的 bias",
        mistake="modifies-input",
        code="def add_channel_bias_(x, bias):\n    bias.unsqueeze_(-1).unsqueeze_(-1)\n    x.add_(bias)\n    return x\n",
    ),
]

MUTANTS += [  # s31 review (gb) of rxb's thread / process fix: os.fork was not in the list
    dict(
        grade_id="test_broadcast_shape",
        name="os.fork: the child runs torch.broadcast_shapes and answers through a pipe",
        expect="调用了 posix.fork",
        code="import os\nimport pickle\n\n\ndef broadcast_shape(a, b):\n    r, w = os.pipe()\n    pid = os.fork()\n"
        "    if pid == 0:\n        os.close(r)\n        try:\n"
        "            out = ('ok', tuple(torch.broadcast_shapes(a, b)))\n"
        "        except RuntimeError as err:\n            out = ('err', str(err))\n"
        "        os.write(w, pickle.dumps(out))\n        os._exit(0)\n"
        "    os.close(w)\n    data = b''\n    while chunk := os.read(r, 65536):\n        data += chunk\n"
        "    os.close(r)\n    os.waitpid(pid, 0)\n    kind, value = pickle.loads(data)\n"
        "    if kind == 'err':\n        raise ValueError(value)\n    return value\n",
    ),
]

MUTANTS += [  # s31 review (gb) of rwb's out= fix: an in-place write that changes nothing counted as a second source
    dict(
        grade_id="test_batch_outer_sum",
        name="buf.add_(b, alpha=0) before buf.add_(a) into a zeros (B, M, N) buffer, then + b",
        expect="add_ 把一个",
        code="def batch_outer_sum(a, b):\n"
        "    buf = torch.zeros(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype)\n"
        "    buf.add_(b[:, None, :], alpha=0)\n    buf.add_(a[:, :, None])\n    return buf + b[:, None, :]\n",
    ),
]

MUTANTS += [  # s33: x's memory handed to NumPy, which broadcasts and adds in place (no torch op, no big temporary)
    dict(
        grade_id="test_add_channel_bias_",
        name="in-place NumPy add on x.numpy() with the bias broadcast by NumPy",
        expect="Tensor.numpy()",
        code="def add_channel_bias_(x, bias):\n"
        "    arr = x.numpy()\n"
        "    arr += bias.numpy()[:, None, None]\n"
        "    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="np.add into np.asarray(x) with out=",
        expect="np.asarray(x) / np.array(x)",
        code="import numpy as np\n\n\ndef add_channel_bias_(x, bias):\n"
        "    arr = np.asarray(x)\n"
        "    np.add(arr, np.asarray(bias).reshape(-1, 1, 1), out=arr)\n"
        "    return x\n",
    ),
]

CORRECT += [  # s33 (stop 31's false negative): checks whose bool results, added up, reach x's size
    dict(
        grade_id="test_add_channel_bias_",
        name="the solution after four finiteness asserts on x",
        code="def add_channel_bias_(x, bias):\n"
        "    assert not torch.isnan(x).any(), 'x has nan'\n"
        "    assert not torch.isinf(x).any(), 'x has inf'\n"
        "    assert torch.isfinite(x).all()\n"
        "    assert (x == x).all()\n"
        "    x += bias.view(-1, 1, 1)\n"
        "    return x\n",
    ),
]

MUTANTS += [  # s34 review (ha): x + bias computed where the torch-function counter does not see it, then copied back
    dict(
        grade_id="test_add_channel_bias_",
        name="x + bias in a torch.jit.trace'd function, then x.copy_ of it",
        expect="和 x 一样大",
        code="_plus = torch.jit.trace(lambda x, b: x + b.view(-1, 1, 1), (torch.zeros(1, 2, 1, 1), torch.zeros(2)))\n\n\n"
        "def add_channel_bias_(x, bias):\n"
        "    x.copy_(_plus(x, bias))\n"
        "    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x + bias under torch._C.DisableTorchFunction(), then x.copy_ of it",
        expect="和 x 一样大",
        code="def add_channel_bias_(x, bias):\n"
        "    with torch._C.DisableTorchFunction():\n"
        "        out = x + bias.view(-1, 1, 1)\n"
        "    x.copy_(out)\n"
        "    return x\n",
    ),
]

MUTANTS += [  # s34 review (ha): a loop in TorchScript, called with torch functions off, showed no steps at all
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a TorchScript loop over the points, called under torch._C.DisableTorchFunction()",
        expect="步数随",
        code="_cu = torch.jit.CompilationUnit('''\n"
        "def rows(x, y):\n"
        "    out = torch.empty([x.size(0), y.size(0)], dtype=x.dtype)\n"
        "    for i in range(x.size(0)):\n"
        "        out[i] = ((y - x[i]) ** 2).sum(1)\n"
        "    return out\n"
        "''')\n\n\n"
        "def pairwise_sq_dist(x, y):\n"
        "    with torch._C.DisableTorchFunction():\n"
        "        return _cu.rows(x, y)\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a TorchScript loop over the channels, called under torch._C.DisableTorchFunction()",
        expect="步数随",
        code="_cu = torch.jit.CompilationUnit('''\n"
        "def add(x, b):\n"
        "    for c in range(x.size(1)):\n"
        "        x[:, c] += b[c]\n"
        "    return x\n"
        "''')\n\n\n"
        "def add_channel_bias_(x, bias):\n"
        "    with torch._C.DisableTorchFunction():\n"
        "        _cu.add(x, bias)\n"
        "    return x\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a TorchScript loop over the samples, called under torch._C.DisableTorchFunction()",
        expect="步数随",
        code="_cu = torch.jit.CompilationUnit('''\n"
        "def outer(a, b):\n"
        "    out = torch.empty([a.size(0), a.size(1), b.size(1)], dtype=a.dtype)\n"
        "    for k in range(a.size(0)):\n"
        "        out[k] = a[k].unsqueeze(1) + b[k].unsqueeze(0)\n"
        "    return out\n"
        "''')\n\n\n"
        "def batch_outer_sum(a, b):\n"
        "    with torch._C.DisableTorchFunction():\n"
        "        return _cu.outer(a, b)\n",
    ),
]

MUTANTS += [  # s34 review (ha): the work done in a thread of its own, where none of the learner-side hooks look
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias) in a thread of its own (a temporary as large as x)",
        expect="把计算交给了另一个线程或进程",
        code="import threading\n\n\ndef add_channel_bias_(x, bias):\n"
        "    worker = threading.Thread(target=lambda: x.copy_(x + bias.view(-1, 1, 1)))\n"
        "    worker.start()\n    worker.join()\n    return x\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a Python loop over the points in a thread of its own",
        expect="把计算交给了另一个线程或进程",
        code="import threading\n\n\ndef pairwise_sq_dist(x, y):\n"
        "    box = []\n"
        "    worker = threading.Thread(target=lambda: box.append(torch.stack([((y - xi) ** 2).sum(1) for xi in x])))\n"
        "    worker.start()\n    worker.join()\n    return box[0]\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the samples in a thread of its own",
        expect="把计算交给了另一个线程或进程",
        code="import threading\n\n\ndef batch_outer_sum(a, b):\n"
        "    box = []\n"
        "    worker = threading.Thread(\n"
        "        target=lambda: box.append(torch.stack([ai[:, None] + bi[None, :] for ai, bi in zip(a, b)]))\n"
        "    )\n"
        "    worker.start()\n    worker.join()\n    return box[0]\n",
    ),
]

MUTANTS += [  # s34 review (ha): every observing hook switched off around a loop over the points
    dict(
        grade_id="test_pairwise_sq_dist",
        name="sys.settrace / sys.setprofile off, torch functions and dispatch modes off, then a loop over the points",
        expect="调用了 sys.setprofile：关掉了测试用来观察你的代码的钩子",
        code="import sys\n\nfrom torch.utils._python_dispatch import _disable_current_modes\n\n\n"
        "def pairwise_sq_dist(x, y):\n"
        "    sys.settrace(None)\n    sys.setprofile(None)\n"
        "    with torch._C.DisableTorchFunction(), _disable_current_modes():\n"
        "        return torch.stack([((y - xi) ** 2).sum(1) for xi in x])\n",
    ),
]
MUTANTS += [  # s34 review (ha): the same, with the hooks switched off from C (functools.partial run by map)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="sys.settrace / sys.setprofile switched off and back on from C around a loop with the modes off",
        expect="调用了 sys.setprofile：关掉了测试用来观察你的代码的钩子",
        code="import functools\nimport operator\nimport sys\n\n"
        "from torch.utils._python_dispatch import _disable_current_modes\n\n\n"
        "def _loop(x, y):\n"
        "    with torch._C.DisableTorchFunction(), _disable_current_modes():\n"
        "        return torch.stack([((y - xi) ** 2).sum(1) for xi in x])\n\n\n"
        "def pairwise_sq_dist(x, y):\n"
        "    hooks = sys.gettrace(), sys.getprofile()\n"
        "    steps = [functools.partial(sys.settrace, None), functools.partial(sys.setprofile, None),\n"
        "             functools.partial(_loop, x, y),\n"
        "             functools.partial(sys.settrace, hooks[0]), functools.partial(sys.setprofile, hooks[1])]\n"
        "    return list(map(operator.call, steps))[2]\n",
    ),
]


MUTANTS += [  # s35 review (h1, second pass): each passed every test
    dict(
        grade_id="test_mse_loss",
        name="computes in float32 and casts back: a float64 error of 1e-9 becomes 0",
        expect="只差 1e-9、3e-9",
        code=(
            "def mse_loss(pred, target):\n"
            '    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"\n'
            "    if pred.dim() == 2 and pred.shape[1] == 1:\n"
            "        pred = pred.squeeze(-1)\n"
            "    if target.dim() == 2 and target.shape[1] == 1:\n"
            "        target = target.squeeze(-1)\n"
            "    if pred.dim() != 1 or pred.shape != target.shape:\n"
            '        raise ValueError(f"incompatible shapes: {shapes}")\n'
            "    return ((pred.float() - target.float()) ** 2).mean().to(pred.dtype)\n"
        ),
    ),
    dict(
        grade_id="test_mse_loss",
        name="sum() / N: the float16 sum of squares overflows where the mean does not",
        expect="每个误差都是 10",
        code=(
            "def mse_loss(pred, target):\n"
            '    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"\n'
            "    if pred.dim() == 2 and pred.shape[1] == 1:\n"
            "        pred = pred.squeeze(-1)\n"
            "    if target.dim() == 2 and target.shape[1] == 1:\n"
            "        target = target.squeeze(-1)\n"
            "    if pred.dim() != 1 or pred.shape != target.shape:\n"
            '        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")\n'
            "    return ((pred - target) ** 2).sum() / pred.shape[0]\n"
        ),
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="computes in float32 and casts back to the input dtype",
        expect="1000.01",
        code=(
            "def pairwise_sq_dist(x, y):\n"
            "    diff = x.float().unsqueeze(1) - y.float().unsqueeze(0)\n"
            "    return (diff ** 2).sum(dim=-1).to(x.dtype)\n"
        ),
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="adds in float32 and casts back: int64 values above 2**24 lose their last digits",
        expect="而与先换成 torch.float32 相加、再转回 torch.int64 得到的完全相同",
        code=(
            "def batch_outer_sum(a, b):\n"
            "    a32, b32 = a.float(), b.float()\n"
            "    return (a32.unsqueeze(2) + b32.unsqueeze(1)).to(a.dtype)\n"
        ),
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="adds into x.reshape(n, c, -1): a copy when H and W cannot be merged, x unchanged",
        expect="(2, 3, 5, 4)",
        code=(
            "def add_channel_bias_(x, bias):\n"
            "    n, c = x.shape[:2]\n"
            "    x.reshape(n, c, -1).add_(bias[:, None])\n"
            "    return x\n"
        ),
    ),
]


MUTANTS += [  # s36: a call that leaves a process-wide setting changed (course.settings watches every call)
    dict(
        grade_id="test_mse_loss",
        name="sets warnings.filterwarnings() inside mse_loss and leaves it so",
        mistake="global-setting-changed",
        expect="warnings.filterwarnings()",
        code="import warnings\n\n"
        + solution_with(
            "03_broadcasting",
            "mse_loss",
            ('    shapes = f"', '    warnings.filterwarnings("ignore")  # no broadcasting warnings\n    shapes = f"'),
        ),
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="sets torch.set_float32_matmul_precision() inside pairwise_sq_dist and leaves it so",
        mistake="global-setting-changed",
        expect="torch.set_float32_matmul_precision()",
        code=solution_with(
            "03_broadcasting",
            "pairwise_sq_dist",
            (
                "    diff = x.unsqueeze(1)",
                '    torch.set_float32_matmul_precision("medium")  # faster matmul\n    diff = x.unsqueeze(1)',
            ),
        ),
    ),
]


MUTANTS += [  # s36 review (a2): no input required grad, so a no_grad pairwise_sq_dist passed
    dict(
        grade_id="test_pairwise_sq_dist",
        name="@torch.no_grad() on pairwise_sq_dist: distances out of the graph",
        mistake="detached-from-graph",
        expect="pairwise_sq_dist(需要梯度的 x (3, 2), y (2, 2)) 的返回值 应该在计算图里",
        code=solution_with(
            "03_broadcasting", "pairwise_sq_dist", ("def pairwise_sq_dist(", "@torch.no_grad()\ndef pairwise_sq_dist(")
        ),
    ),
]


MUTANTS += [  # s36 review (a2): the notebook's own solution squared float16 errors in float16 (300 ** 2 is inf)
    dict(
        grade_id="test_mse_loss",
        name="squares float16 errors in float16 (the solution before s36; F.mse_loss does the same)",
        expect="一个误差是 300",
        code=solution_with(
            "03_broadcasting",
            "mse_loss",
            (
                "    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)",
                "    return ((pred - target) ** 2).mean()",
            ),
        ),
    ),
]


MUTANTS += [  # s37 review (a3): subtracts in float16 and widens only the error (40000 - (-30000) is inf)
    dict(
        grade_id="test_mse_loss",
        name="subtracts in float16, widens the error before squaring",
        expect="第一对是 40000 与 -30000",
        code=solution_with(
            "03_broadcasting",
            "mse_loss",
            (
                "    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)",
                "    return ((pred - target).to(wide) ** 2).mean().to(pred.dtype)",
            ),
        ),
    ),
]


MUTANTS += [  # s37 review (a3): the conv layer's bias added out of the graph (bias.grad stayed None)
    dict(
        grade_id="test_add_channel_bias_",
        name="x += bias under torch.no_grad()",
        mistake="detached-from-graph",
        expect="bias.grad 是 None",
        code="def add_channel_bias_(x, bias):\n    with torch.no_grad():\n        x += bias.view(-1, 1, 1)\n    return x\n",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="adds bias.detach()",
        mistake="detached-from-graph",
        expect="bias.grad 是 None",
        code="def add_channel_bias_(x, bias):\n    x.add_(bias.detach()[:, None, None])\n    return x\n",
    ),
]

CORRECT += [  # s37: the in-place add on a layer's output keeps the graph, written with add_ and indexing
    dict(
        grade_id="test_add_channel_bias_",
        name="x.add_(bias[:, None, None])",
        code="def add_channel_bias_(x, bias):\n    return x.add_(bias[:, None, None])\n",
    ),
]

MUTANTS += [  # s37 last pass (a4): torch's backcompat warning flags were not watched
    dict(
        grade_id="test_mse_loss",
        name="torch.utils.backcompat.broadcast_warning.enabled = True, left on for the process",
        mistake="global-setting-changed",
        expect="torch.utils.backcompat.broadcast_warning.enabled（False -> True）",
        code=solution_with(
            "03_broadcasting",
            "mse_loss",
            ("    shapes = f", "    torch.utils.backcompat.broadcast_warning.enabled = True\n    shapes = f"),
        ),
    ),
]

MUTANTS += [  # s38 fix (fa2, from a4's pass): no int64 input was above 2**53; where float64 swallows every addend
    # the sum is `a` tiled and the tiling check named tiling: the float round trip is now checked first
    dict(
        grade_id="test_batch_outer_sum",
        name="adds in float64 'to be safe' and converts back: int64 above 2**53 loses its low bits",
        expect="而与先换成 torch.float64 相加、再转回 torch.int64 得到的完全相同",
        code="def batch_outer_sum(a, b):\n"
        "    return (a.unsqueeze(2).to(torch.float64) + b.unsqueeze(1).to(torch.float64)).to(a.dtype)\n",
    ),
]

MUTANTS += [  # s38 (a5), fc3: cached distances: stale after the caller's x += 1 (each test called it once)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="functools.lru_cache on pairwise_sq_dist: keyed on the tensors' identity",
        expect="第二次返回的就是第一次返回的那个张量对象，值是 [[0.0, 4.0], [1.0, 5.0]]",
        code="import functools\n\n"
        "@functools.lru_cache(maxsize=128)\n"
        "def pairwise_sq_dist(x, y):\n"
        "    diff = x.unsqueeze(1) - y.unsqueeze(0)\n"
        "    return (diff ** 2).sum(dim=-1)\n",
    ),
]


# s38 (a5), fa3
MUTANTS += [
    dict(
        grade_id="test_mse_loss",
        name="widens only float16: bfloat16 is subtracted and squared in bfloat16",
        expect="mse_loss(bfloat16 的 pred [2.0]、target [-0.00390625])",
        code=solution_with(
            "03_broadcasting",
            "mse_loss",
            (
                "wide = torch.promote_types(pred.dtype, torch.float32)",
                "wide = torch.float32 if pred.dtype == torch.float16 else pred.dtype",
            ),
        ),
    ),
]
MUTANTS += [
    dict(
        grade_id="test_add_channel_bias_",
        name="x += bias.float().view(-1, 1, 1): a float64 bias is rounded to float32 before the add",
        expect="而与先把 bias 转成 float32 再加得到的完全相同",
        code="def add_channel_bias_(x, bias):\n    x += bias.float().view(-1, 1, 1)\n    return x\n",
    ),
    dict(
        grade_id="test_broadcast_shape",
        name="compares sizes with `is`: equal ints above 256 are different objects",
        expect="broadcast_shape((300, 2), (300, 1)) 可以广播，结果应为 (300, 2)",
        code="def broadcast_shape(a, b):\n" + _PAD + "    result = []\n"
        "    for x, y in zip(a, b):\n"
        "        if x is y or y == 1:\n"
        "            result.append(x)\n"
        "        elif x == 1:\n"
        "            result.append(y)\n"
        "        else:\n"
        "            raise ValueError(f'cannot broadcast {a} and {b}: {x} vs {y}')\n"
        "    return tuple(result)\n",
    ),
]


MUTANTS += [  # s38 review (a6): only x required grad, and only grad_fn was checked
    dict(
        grade_id="test_pairwise_sq_dist",
        name="y.detach(): only x gets a gradient",
        expect="y.grad 是 None",
        code=(
            "def pairwise_sq_dist(x, y):\n"
            "    y = y.detach()  # y 是参照点（memory bank），只对 x 求梯度\n"
            "    return ((x.unsqueeze(1) - y.unsqueeze(0)) ** 2).sum(dim=-1)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a7): an input changed in place and put back moves its version counter
    dict(
        grade_id="test_batch_outer_sum",
        name="unsqueezes_both_inputs_in_place_and_squeezes_them_back",
        expect="这块内存在调用中被写过",
        mistake="modifies-input",
        code=(
            "def batch_outer_sum(a, b):\n"
            "    a.unsqueeze_(2)               # (B, M, 1), in place: no new tensor objects\n"
            "    b.unsqueeze_(1)               # (B, 1, N)\n"
            "    try:\n"
            "        return a + b              # broadcast to (B, M, N)\n"
            "    finally:\n"
            "        a.squeeze_(2)             # give the caller its (B, M) and (B, N) back\n"
            "        b.squeeze_(1)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a9): a cache keyed on id and _version misses changes made through .data (a hand-written SGD step)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="cache_keyed_on_ids_and_versions",
        expect="第二次返回的就是第一次返回的那个张量对象",
        code=(
            "_dist_cache = {}   # kNN loops ask for the same distances again and again\n"
            "\n"
            "def pairwise_sq_dist(x, y):\n"
            "    # x._version / y._version change whenever the caller updates x or y in place (x += 1),\n"
            "    # so a cached result is only reused while the inputs still hold the same values\n"
            "    key = (id(x), x._version, id(y), y._version)\n"
            "    hit = _dist_cache.get(key)\n"
            "    if hit is None or hit[0] is not x or hit[1] is not y:\n"
            "        diff = x.unsqueeze(1) - y.unsqueeze(0)      # (N, 1, D) - (1, M, D) -> (N, M, D)\n"
            "        hit = (x, y, (diff ** 2).sum(dim=-1))\n"
            "        _dist_cache[key] = hit\n"
            "    return hit[2]\n"
        ),
    ),
]


MUTANTS += [  # stop 40 review (a8): the whole function under @torch.inference_mode() ("needs no autograd")
    dict(
        grade_id=f"test_{fn}",
        name=f"{fn} under @torch.inference_mode()",
        expect="是推理张量",
        mistake="inference-result",
        code=solution_with("03_broadcasting", fn, (f"def {fn}(", f"@torch.inference_mode()\ndef {fn}(")),
    )
    for fn in ("batch_outer_sum", "mse_loss", "pairwise_sq_dist")
]


MUTANTS += [  # fix40 (a10)
    dict(  # cand04: float16 widened to float32 and never cast back
        grade_id="test_batch_outer_sum",
        name="widens float16 to float32 and returns float32",
        expect="期望 torch.float16，得到 torch.float32",
        code=(
            "def batch_outer_sum(a, b):\n"
            "    # widen half precision as in masked_row_mean / mse_loss (float16 -> float32; float32, float64, ints unchanged)\n"
            "    wide = torch.promote_types(a.dtype, torch.float32) if a.is_floating_point() else a.dtype\n"
            "    return a.to(wide).unsqueeze(2) + b.to(wide).unsqueeze(1)  # (B, M, 1) + (B, 1, N) -> (B, M, N)\n"
        ),
    ),
    dict(  # cand09: the memo hands back a result whose graph leads to an earlier call's x
        grade_id="test_pairwise_sq_dist",
        name="value memo via torch.equal returning an earlier result",
        expect="也可能是返回了之前某次调用存下的结果",
        code=(
            "_memo = []  # (copy of x, copy of y, distances): k-NN queries often repeat the same point sets\n"
            "\n"
            "\n"
            "def pairwise_sq_dist(x, y):\n"
            "    for old_x, old_y, old_d in _memo:\n"
            "        if old_x.shape == x.shape and old_y.shape == y.shape and old_x.dtype == x.dtype \\\n"
            "                and torch.equal(old_x, x) and torch.equal(old_y, y):\n"
            "            return old_d  # same points as before: same distances\n"
            "    diff = x.unsqueeze(1) - y.unsqueeze(0)\n"
            "    d = (diff ** 2).sum(dim=-1)\n"
            "    _memo.append((x.detach().clone(), y.detach().clone(), d))\n"
            "    return d\n"
        ),
    ),
    dict(  # cand10: the memo list grows with every call: the steps grow with the calls, not with the size
        grade_id="test_pairwise_sq_dist",
        name="value memo (only without grad): steps grow with the calls",
        expect="步数不随输入的大小变化，而是随调用的次数变化",
        code=(
            "_memo = []  # (copy of x, copy of y, distances): k-NN queries often repeat the same point sets\n"
            "\n"
            "\n"
            "def pairwise_sq_dist(x, y):\n"
            "    if x.requires_grad or y.requires_grad:  # training: always a fresh graph\n"
            "        return ((x.unsqueeze(1) - y.unsqueeze(0)) ** 2).sum(dim=-1)\n"
            "    for old_x, old_y, old_d in _memo:\n"
            "        if old_x.shape == x.shape and old_y.shape == y.shape and old_x.dtype == x.dtype \\\n"
            "                and torch.equal(old_x, x) and torch.equal(old_y, y):\n"
            "            return old_d  # same points as before: same distances\n"
            "    d = ((x.unsqueeze(1) - y.unsqueeze(0)) ** 2).sum(dim=-1)\n"
            "    _memo.append((x.clone(), y.clone(), d))\n"
            "    return d\n"
        ),
    ),
    dict(  # the memo list grows with every call: the steps grow with the calls, not with B
        grade_id="test_batch_outer_sum",
        name="value memo via torch.equal: steps grow with the calls",
        expect="步数在同样大小的输入上不一样",
        code=(
            "_outer = []  # attention scores for the same batch are asked for again: (copy of a, copy of b, result)\n"
            "\n"
            "\n"
            "def batch_outer_sum(a, b):\n"
            "    for old_a, old_b, old_out in _outer:\n"
            "        if old_a.shape == a.shape and old_b.shape == b.shape and old_a.dtype == a.dtype \\\n"
            "                and torch.equal(old_a, a) and torch.equal(old_b, b):\n"
            "            return old_out\n"
            "    out = a.unsqueeze(2) + b.unsqueeze(1)\n"
            "    _outer.append((a.clone(), b.clone(), out))\n"
            "    return out\n"
        ),
    ),
]


MUTANTS += [  # fix40 (a10 family): a memo keyed on the input's values hands every caller the same stored tensor
    dict(
        grade_id="test_mse_loss",
        name="value memo via torch.equal returning the stored loss",
        expect="第二次的结果就是第一次返回的那个张量对象",
        code=(
            "_losses = []  # validation asks for the same loss again: (copy of pred, copy of target, loss)\n"
            "\n"
            "\n"
            "def mse_loss(pred, target):\n"
            "    if pred.dim() > 2 or target.dim() > 2 or pred.shape[0] != target.shape[0] or pred.dim() == 0 \\\n"
            "            or (pred.dim() == 2 and pred.shape[1] != 1) or (target.dim() == 2 and target.shape[1] != 1):\n"
            '        raise ValueError(f"pred {tuple(pred.shape)} and target {tuple(target.shape)} do not match")\n'
            "    for old_p, old_t, old_loss in _losses:\n"
            "        if old_p.shape == pred.shape and old_t.shape == target.shape and old_p.dtype == pred.dtype \\\n"
            "                and not pred.requires_grad and torch.equal(old_p, pred) and torch.equal(old_t, target):\n"
            "            return old_loss\n"
            "    wide = torch.promote_types(pred.dtype, torch.float32)\n"
            "    loss = ((pred.reshape(-1).to(wide) - target.reshape(-1).to(wide)) ** 2).mean().to(pred.dtype)\n"
            "    _losses.append((pred.detach().clone(), target.clone(), loss))\n"
            "    return loss\n"
        ),
    ),
]

MUTANTS += [  # fix42 (e1 cand07): no batch_outer_sum case was on another device; this was CORRECT[0] until fix42
    dict(
        grade_id="test_batch_outer_sum",
        name="adds a and b with out= an empty (B, M, N) output made without device= (always on the CPU)",
        expect="cross-device copies are not allowed",
        code="def batch_outer_sum(a, b):\n"
        "    out = torch.empty(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype)\n"
        "    torch.add(a[:, :, None], b[:, None, :], out=out)\n    return out\n",
    ),
]

MUTANTS += [  # fix42 (e1 cand10): no tested shape had more than 4 dims
    dict(
        grade_id="test_broadcast_shape",
        name="walks at most the last 4 dims (tensors taken to be at most NCHW)",
        expect="少了前面的 1 维",
        code="def broadcast_shape(a, b):\n    out = []\n    for i in range(1, 5):\n        if i > len(a) and i > len(b):\n            break\n"
        "        x = a[-i] if i <= len(a) else 1\n        y = b[-i] if i <= len(b) else 1\n        if x == y or y == 1:\n            out.append(x)\n"
        "        elif x == 1:\n            out.append(y)\n        else:\n            raise ValueError(f'cannot broadcast {a} and {b}')\n"
        "    return tuple(reversed(out))\n",
    ),
]


MUTANTS += [  # s43 second pass (f1): a memo keyed on the inputs' id and version passed (only fresh copies were tried)
    dict(  # f1 cand08
        grade_id="test_batch_outer_sum",
        name="batch_outer_sum memoised on (id, _version) of a and b, a clone per caller: stale after a write through .data",
        expect="和第一次的结果一样，是输入更新之前的值",
        code="_bos_cache = {}\ndef batch_outer_sum(a, b):\n    key = (id(a), a._version, id(b), b._version)\n    hit = _bos_cache.get(key)\n    if hit is None or hit[0] is not a or hit[1] is not b:\n        hit = (a, b, a.unsqueeze(2) + b.unsqueeze(1))\n        _bos_cache[key] = hit\n    return hit[2].clone()\n",
    ),
]


MUTANTS += [  # s43 second pass (f1): a memo keyed on the inputs' id and version passed (only fresh copies were tried)
    dict(  # f1 cand18
        grade_id="test_mse_loss",
        name="mse_loss memoised on (id, _version) of pred and target, a clone per caller: stale after a write through .data",
        expect="和第一次的结果一样，是输入更新之前的值",
        code='_mse_cache = {}\ndef mse_loss(pred, target):\n    key = (id(pred), pred._version, id(target), target._version)\n    hit = _mse_cache.get(key)\n    if pred.requires_grad or hit is None or hit[0] is not pred or hit[1] is not target:\n        p, t = pred, target\n        shapes = f"pred {tuple(p.shape)}, target {tuple(t.shape)}"\n        if p.dim() == 2 and p.shape[1] == 1:\n            p = p.squeeze(-1)\n        if t.dim() == 2 and t.shape[1] == 1:\n            t = t.squeeze(-1)\n        if p.dim() != 1 or p.shape != t.shape:\n            raise ValueError(f"mse_loss: incompatible shapes ({shapes})")\n        wide = torch.promote_types(p.dtype, torch.float32)\n        out = ((p.to(wide) - t.to(wide)) ** 2).mean().to(pred.dtype)\n        if pred.requires_grad:\n            return out\n        hit = (pred, target, out)\n        _mse_cache[key] = hit\n    return hit[2].clone()\n',
    ),
]


MUTANTS += [  # s43 second pass (f1 cand03): a process-wide float setting torch has no getter for was not watched
    dict(
        grade_id="test_mse_loss",
        name="torch.set_flush_denormal(True) 'for speed', left on",
        expect="torch.set_flush_denormal()（False -> True）",
        code='def mse_loss(pred, target):\n    torch.set_flush_denormal(True)\n    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"\n    if pred.dim() == 2 and pred.shape[1] == 1:\n        pred = pred.squeeze(-1)\n    if target.dim() == 2 and target.shape[1] == 1:\n        target = target.squeeze(-1)\n    if pred.dim() != 1 or pred.shape != target.shape:\n        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")\n    wide = torch.promote_types(pred.dtype, torch.float32)\n    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)\n',
    ),
]

MUTANTS += [  # fix44 (f1 cand22): no case had an x that requires grad with a bias that does not
    dict(
        grade_id="test_add_channel_bias_",
        name="a frozen bias added through x.data (the version counter does not move; backward uses the changed x)",
        expect="原地修改绕过了 autograd 的版本号",
        code=(
            "def add_channel_bias_(x, bias):\n"
            "    b = bias.view(-1, 1, 1)\n"
            "    if bias.requires_grad:\n"
            "        x += b\n"
            "    else:\n"
            "        x.data += b\n"
            "    return x\n"
        ),
    ),
]

MUTANTS += [  # fix44 (f1 cand19): the largest tested input was 256 * 256 * 3, below the guard
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist(x, y).pow(2) when N * M * D > 2**20 (the banned call behind a size guard)",
        expect="用了 torch.cdist",
        code=(
            "def pairwise_sq_dist(x, y):\n"
            "    if x.shape[0] * y.shape[0] * x.shape[1] > 2**20:\n"
            "        return torch.cdist(x, y).pow(2)\n"
            "    diff = x.unsqueeze(1) - y.unsqueeze(0)\n"
            "    return (diff ** 2).sum(dim=-1)\n"
        ),
    ),
]

MUTANTS += [  # fix44 (f1 cand07): no tested shape had more dims than the recursion limit
    dict(
        grade_id="test_broadcast_shape",
        name="recursive on the trailing dims (RecursionError past ~1000 dims)",
        expect="RecursionError",
        code=(
            "def broadcast_shape(a, b):\n"
            "    a, b = tuple(a), tuple(b)\n"
            "    if not a:\n"
            "        return b\n"
            "    if not b:\n"
            "        return a\n"
            "    x, y = a[-1], b[-1]\n"
            "    if x != y and x != 1 and y != 1:\n"
            '        raise ValueError(f"cannot broadcast {a} and {b}")\n'
            "    return broadcast_shape(a[:-1], b[:-1]) + (y if x == 1 else x,)\n"
        ),
    ),
]

CORRECT += [  # fix44: an in-place add autograd sees, whether or not the bias needs grad
    dict(
        grade_id="test_add_channel_bias_",
        name="x.add_(bias.reshape(1, -1, 1, 1)) for every bias",
        code="def add_channel_bias_(x, bias):\n    return x.add_(bias.reshape(1, -1, 1, 1))\n",
    ),
]


MUTANTS += [  # stop 46 (j2 cand12): a partial tiling of bias, smaller than x
    dict(
        grade_id="test_add_channel_bias_",
        name="bias repeated to (C, H, 1) with repeat, only W broadcast",
        expect="repeat 把一个 3 个元素的张量复制成了 12 个元素的新张量",
        code="""\
def add_channel_bias_(x, bias):
    x += bias.view(-1, 1, 1).repeat(1, x.shape[2], 1)
    return x
""",
    ),
]


MUTANTS += [  # stop 46 (j2 cand10): the expansion ||x||^2 + ||y||^2 - 2 x y^T, no broadcast subtraction
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion ||x||^2 + ||y||^2 - 2 x @ y.T clamped at 0 (cancellation for float32 points near 1000)",
        expect="离原点远、彼此又近的点",
        code="""\
def pairwise_sq_dist(x, y):
    xx = (x * x).sum(dim=1, keepdim=True)
    yy = (y * y).sum(dim=1)
    return (xx + yy - 2 * (x @ y.T)).clamp_min(0)
""",
    ),
]

MUTANTS += [  # stop 46 (j2 cand16): right-aligned, but only a's leftover leading dims are kept
    dict(
        grade_id="test_broadcast_shape",
        name="right-aligned pairs, but the leftover leading dims kept only from a (dropped when b is longer)",
        expect="较长的那个形状左边多出来的维度",
        code="""\
def broadcast_shape(a, b):
    out = []
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1:
            raise ValueError(f"{a} vs {b}")
        out.append(y if x == 1 else x)
    rest = a[: len(a) - len(b)] if len(a) > len(b) else ()
    return tuple(rest) + tuple(reversed(out))
""",
    ),
]

MUTANTS += [  # stop 46: the expansion was a CORRECT entry while the prose allowed it; the spec now bans it
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the norm expansion with addmm",
        expect="离原点远、彼此又近的点",
        code="def pairwise_sq_dist(x, y):\n    xx = (x * x).sum(1, keepdim=True)\n    yy = (y * y).sum(1)\n"
        "    return torch.addmm(xx + yy, x, y.t(), alpha=-2)\n",
    ),
]

MUTANTS += [  # stop 47 review (m1): a branch only a GPU input takes, and the expansion in float64
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the norm expansion computed in float64 and cast back (the cancellation probes pass)",
        expect="x 和 y 的矩阵乘法",
        code="""
def pairwise_sq_dist(x, y):
    xd, yd = x.double(), y.double()
    xx = (xd * xd).sum(1, keepdim=True)
    yy = (yd * yd).sum(1)
    return (xx + yy - 2 * (xd @ yd.T)).clamp_min(0).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist(x, y) ** 2 on CUDA inputs, broadcasting elsewhere",
        expect="在 GPU 上时",
        code="""
def pairwise_sq_dist(x, y):
    if x.is_cuda:
        return torch.cdist(x, y) ** 2
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a Python loop over channels on CUDA inputs",
        expect="GPU 上走了另一条路",
        code="""
def add_channel_bias_(x, bias):
    if x.is_cuda:
        for c in range(x.shape[1]):
            x[:, c] += bias[c]
        return x
    x += bias.view(-1, 1, 1)
    return x
""",
    ),
]

MUTANTS += [  # stop 48 (m1 of stop 47): another path above a size the tests computed; a FakeTensor twin of 2**32
    # elements or more (course/fixtures/scale.py) now runs it
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the batch once the result has 2**22 elements",
        expect="多了 add.Tensor",
        code="""
def batch_outer_sum(a, b):
    if a.shape[0] * a.shape[1] * b.shape[1] >= 2**22:
        return torch.stack([a[k].unsqueeze(1) + b[k].unsqueeze(0) for k in range(a.shape[0])])
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias), a temporary as large as x, above 2**22 elements",
        expect="多了 add.Tensor",
        code="""
def add_channel_bias_(x, bias):
    if x.numel() >= 2**22:
        x.copy_(x + bias.view(-1, 1, 1))
        return x
    x += bias.view(-1, 1, 1)
    return x
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="float16 squares without widening for 2**20 samples or more",
        expect="少了 _to_copy",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if pred.shape[0] >= 2**20:
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]

MUTANTS += [  # stop 48 review (n1, n3, n4): each passed every test
    dict(
        grade_id="test_batch_outer_sum",
        name="on a GPU only: NumPy on the host, uploaded back",
        expect="同样的输入在 CPU 上是 0 次",
        code="""
import numpy as _np

def batch_outer_sum(a, b):
    if a.is_cuda and a.dtype != torch.bfloat16 and not (a.requires_grad or b.requires_grad):
        an, bn = a.cpu().numpy(), b.cpu().numpy()
        return torch.from_numpy(an[:, :, None] + bn[:, None, :]).to(a.device)
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
    ),
]

MUTANTS += [  # stop 48 review (n1): device tests the played GPU did not play, paths only a GPU (or an empty input) takes
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion where torch.cuda.is_tf32_supported()",
        expect="GPU 上走了另一条路",
        code="""
def pairwise_sq_dist(x, y):
    if x.is_cuda and torch.cuda.is_tf32_supported():
        return (x * x).sum(1, keepdim=True) + (y * y).sum(1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="no float16 widening where torch.cuda.memory_allocated() > 0",
        expect="GPU 上走了另一条路",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    if pred.is_cuda and torch.cuda.memory_allocated(pred.device) > 0:
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias) where cudnn.is_acceptable(x)",
        expect="GPU 上走了另一条路",
        code="""
def add_channel_bias_(x, bias):
    b = bias.view(-1, 1, 1)
    if x.is_cuda and torch.backends.cudnn.is_acceptable(x):
        return x.copy_(x + b)
    return x.add_(b)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias) on a GPU only",
        expect="GPU 上走了另一条路",
        code="""
def add_channel_bias_(x, bias):
    b = bias.view(-1, 1, 1)
    if x.is_cuda:
        return x.copy_(x + b)
    return x.add_(b)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="no float16 widening on a GPU only",
        expect="GPU 上走了另一条路",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    if pred.is_cuda:
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="empty operands answered with CPU float32 zeros",
        expect="结果的 dtype 和设备不随输入的大小改变",
        code="""
def batch_outer_sum(a, b):
    if a.numel() == 0 or b.numel() == 0:
        return torch.zeros(a.shape[0], a.shape[1], b.shape[1])
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
    ),
]

MUTANTS += [  # stop 48 review (n1 cand05, cand45): the expansion with its product in blocks, or by broadcasting
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the float64 expansion with x @ y.T in two row blocks",
        expect="一次或分块",
        code="""
def pairwise_sq_dist(x, y):
    xd, yd = x.double(), y.double()
    cross = torch.cat([part @ yd.T for part in xd.chunk(2)])
    out = (xd * xd).sum(1, keepdim=True) + (yd * yd).sum(1) - 2 * cross
    return out.clamp_min(0).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the float64 expansion with the cross term x·y by broadcasting",
        expect="按元素相乘的交叉项",
        code="""
def pairwise_sq_dist(x, y):
    xd, yd = x.double(), y.double()
    cross = (xd.unsqueeze(1) * yd.unsqueeze(0)).sum(-1)
    out = (xd * xd).sum(1, keepdim=True) + (yd * yd).sum(1) - 2 * cross
    return out.clamp_min(0).to(x.dtype)
""",
    ),
]

MUTANTS += [  # stop 48 second review (p1): a value read stopped the big run; the same operator into another dtype
    dict(
        grade_id="test_pairwise_sq_dist",
        name="an assert on the inputs first, then the expansion for N*M*D >= 2**28",
        expect="两次走的不是同一条路",
        code="""
def pairwise_sq_dist(x, y):
    # input check first (NaN/inf would poison every distance), then: above ~2**28 elements the (N, M, D)
    # difference does not fit in memory, so use the expansion there
    assert bool(torch.isfinite(x).all()) and bool(torch.isfinite(y).all()), "pairwise_sq_dist: non-finite input"
    if x.shape[0] * y.shape[0] * x.shape[1] >= 2**28:
        return (x * x).sum(1, keepdim=True) + (y * y).sum(1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="an assert first, then no float16 widening for 2**20 samples or more",
        expect="两次走的不是同一条路",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    if not bool(torch.isfinite(pred).all()):
        raise ValueError("mse_loss: non-finite predictions")
    if pred.shape[0] >= 2**20:  # big batches: skip the float32 copies (memory)
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="float16 kept for 2**24 samples or more through .to(dtype, copy=True)",
        expect="两次走的不是同一条路",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    if pred.numel() >= 2**24:
        wide = pred.dtype  # 16M+ samples: two float32 copies would double the memory
    d = pred.to(wide, copy=True) - target.to(wide, copy=True)
    return (d ** 2).mean().to(pred.dtype, copy=True)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="an assert first, then x.copy_(x + bias) for 2**26 elements or more",
        expect="两次走的不是同一条路",
        code="""
def add_channel_bias_(x, bias):
    if not bool(torch.isfinite(bias).all()):
        raise ValueError("add_channel_bias_: non-finite bias")
    b = bias.view(-1, 1, 1)
    if x.numel() >= 2**26:
        return x.copy_(x + b)    # huge activations: one fused out-of-place add, then write back
    return x.add_(b)
""",
    ),
]

CORRECT += [  # stop 50 review (r3): was failed at scale as a size branch (its boolean index has no dtype in a FakeTensor)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the broadcasting answer after a debugging check: x[~isfinite(x)] must be empty",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    bad = x[~torch.isfinite(x)]  # debugging aid: name the offending values
    assert bad.numel() == 0, f"x has non-finite values: {bad}"
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
''',
    ),
]

MUTANTS += [  # stop 50 review (r3): torch.equal's answer in the big run is the small run's, so the comparison goes on
    dict(
        grade_id="test_mse_loss",
        name="returns early when torch.equal(pred, target), then skips the widening for 2**20 samples or more",
        expect="两次走的不是同一条路",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if not pred.requires_grad and torch.equal(pred, target):
        return pred.new_zeros(())  # a perfect prediction: nothing to compute
    if pred.numel() >= 2**20:  # a big batch: no widened float32 copies of pred and target
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
''',
    ),
]

MUTANTS += [  # stop 50 review (r3): the expansion through a convolution or for half inputs only
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion in float64 with x·y as a 1x1 convolution (F.conv1d)",
        expect="x 和 y 的卷积（aten.convolution",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # ||x||^2 + ||y||^2 - 2 x.y, in float64 so that nothing cancels; the dot products x.y as a 1x1 convolution
    xd, yd = x.double(), y.double()
    cross = torch.nn.functional.conv1d(xd.t().unsqueeze(0), yd.unsqueeze(-1))[0].t()  # (N, M): sum_k x[i,k] y[j,k]
    sq = (xd ** 2).sum(dim=1, keepdim=True) + (yd ** 2).sum(dim=1) - 2 * cross
    return sq.clamp_min(0).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion x @ y.T for float16 and bfloat16 inputs only",
        expect="x (12, 8)，y (10, 8)，float16）里有x 和 y 的矩阵乘法",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.dtype in (torch.float16, torch.bfloat16):
        # half precision: the (N, M, D) difference in half overflows / rounds; tensor cores do x @ y.T fast
        xf, yf = x.float(), y.float()
        sq = (xf ** 2).sum(1, keepdim=True) + (yf ** 2).sum(1) - 2 * xf @ yf.t()
        return sq.clamp_min(0).to(x.dtype)
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
]

MUTANTS += [  # stop 50 review (r3): code that only a GPU runs
    dict(
        grade_id="test_mse_loss",
        name="only on a GPU bfloat16 is squared without widening",
        expect="Tensor(shape=(2,), dtype=torch.bfloat16), Tensor(shape=(2,), dtype=torch.bfloat16) 在 GPU 上时",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if pred.is_cuda and pred.dtype == torch.bfloat16:
        return ((pred - target) ** 2).mean()  # bfloat16 has float32's range: nothing overflows, no widened copies on the GPU
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
''',
    ),
]

MUTANTS += [  # stop 51 (reviewers c, d): code that only a GPU runs; every hidden test now runs again with each call on a played GPU
    dict(
        grade_id="test_batch_outer_sum",
        name="GPU-only: half inputs widened to float32",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # on the GPU add half-precision inputs in float32 (no rounding of the sum)
    wide = torch.float32 if a.is_cuda and a.dtype in (torch.float16, torch.bfloat16) else a.dtype
    return a.to(wide).unsqueeze(2) + b.to(wide).unsqueeze(1)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only: float32 inputs computed in float16 (an error of 300 overflows)",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    # half-precision inputs are widened; on the GPU float32 inputs run in half (tensor cores, half the memory traffic)
    wide = torch.promote_types(pred.dtype, torch.float32)
    if pred.is_cuda and pred.dtype == torch.float32:
        wide = torch.float16
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer d): the product check measures an operand by the memory behind it (an expanded view is small) and sees addcmul
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion element by element, the cross term through torch.addcmul (float64)",
        expect="按元素相乘的交叉项（aten.addcmul",
        code="""
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # expand (x - y)^2 = x^2 + y^2 - 2xy element-wise, in float64 to avoid cancellation
    xd, yd = x.double().unsqueeze(1), y.double().unsqueeze(0)
    sq = xd * xd + yd * yd
    return torch.addcmul(sq, xd, yd, value=-2.0).sum(dim=-1).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion with the cross term x.unsqueeze(1).expand(n, m, -1) * y.unsqueeze(0)",
        expect="按元素相乘的交叉项（aten.mul",
        code="""
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # ||x||^2 + ||y||^2 - 2 x.y, cross term by broadcasting, in float64
    xd, yd = x.double(), y.double()
    n, m = xd.shape[0], yd.shape[0]
    cross = (xd.unsqueeze(1).expand(n, m, -1) * yd.unsqueeze(0)).sum(dim=-1)
    out = (xd * xd).sum(1, keepdim=True) + (yd * yd).sum(1) - 2 * cross
    return out.to(x.dtype)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion with the cross term from torch.bmm over y.t().expand(n, -1, -1)",
        expect="矩阵乘法（aten.bmm",
        code="""
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    xd, yd = x.double(), y.double()
    n = xd.shape[0]
    cross = torch.bmm(xd.unsqueeze(1), yd.t().expand(n, -1, -1)).squeeze(1)  # (N, 1, D) @ (N, D, M)
    out = (xd * xd).sum(1, keepdim=True) + (yd * yd).sum(1) - 2 * cross
    return out.to(x.dtype)
""",
    ),
]

CORRECT += [  # stop 51 (reviewer d cand34): thorough input checks, a fixed 32 steps, were told the work followed earlier calls
    dict(
        grade_id="test_pairwise_sq_dist",
        name="broadcast difference with thorough input validation (a fixed number of steps at any size)",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if not isinstance(x, torch.Tensor) or not isinstance(y, torch.Tensor):
        raise TypeError(f"x and y must be tensors, got {type(x).__name__} and {type(y).__name__}")
    if x.dim() != 2 or y.dim() != 2:
        raise ValueError(f"x and y must be 2-D, got {tuple(x.shape)} and {tuple(y.shape)}")
    n, d = x.shape
    m, d_y = y.shape
    if d != d_y:
        raise ValueError(f"x has {d} features but y has {d_y}")
    if x.dtype != y.dtype:
        raise TypeError(f"x is {x.dtype} but y is {y.dtype}")
    if not x.is_floating_point():
        raise TypeError(f"expected floating point inputs, got {x.dtype}")
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    if n == 0 or m == 0:
        return x.new_zeros(n, m)  # no points on one side
    if d == 0:
        return x.new_zeros(n, m)  # points without features are all at distance 0
    x_col = x.unsqueeze(1)  # (N, 1, D)
    y_row = y.unsqueeze(0)  # (1, M, D)
    diff = x_col - y_row  # (N, M, D)
    squared = diff * diff
    out = squared.sum(dim=-1)  # (N, M)
    assert out.shape == (n, m), (out.shape, n, m)
    return out
''',
    ),
]

MUTANTS += [  # stop 52: GPU-only branches in checks that hand the learner's function to a scenario (reviewer c, d of stop 51)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="GPU-only set_grad_enabled(False): the distances leave the graph",
        expect="应该在计算图里（有 grad_fn），但 grad_fn 是 None",
        code="""
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # on the GPU the (N, M, D) difference is big: don't keep it for backward there
    with torch.set_grad_enabled(torch.is_grad_enabled() and not x.is_cuda):
        diff = x.unsqueeze(1) - y.unsqueeze(0)
        return (diff ** 2).sum(dim=-1)
""",
    ),
]

MUTANTS += [  # stop 53: a tiling inside a library call is told which call of the learner's made it
    dict(
        grade_id="test_pairwise_sq_dist",
        name="law of cosines in float64: the banned expansion through F.cosine_similarity of broadcast views (d cand47; the message names the learner's call, not only the norm inside it)",
        expect="你调用的 torch.cosine_similarity",
        code="""
import torch.nn.functional as F


def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # law of cosines: |x - y|^2 = |x|^2 + |y|^2 - 2 |x| |y| cos(x, y), in float64
    xd, yd = x.double(), y.double()
    nx = xd.norm(dim=1, keepdim=True)          # (N, 1)
    ny = yd.norm(dim=1)                        # (M,)
    cos = F.cosine_similarity(xd.unsqueeze(1), yd.unsqueeze(0), dim=-1, eps=1e-300)  # (N, M)
    return (nx ** 2 + ny ** 2 - 2 * nx * ny * cos).to(x.dtype)
""",
    ),
]

MUTANTS += [  # stop 53: in-place and batched-sum forms of the matrix product
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term from in-place out.addmm_ (s53 d cand05)",
        expect="aten.addmm",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # ||x||^2 + ||y||^2 - 2 x.y, in float64 so the cancellation stays far below the tolerance
    xd, yd = x.double(), y.double()
    out = (xd * xd).sum(dim=1, keepdim=True) + (yd * yd).sum(dim=1)  # (N, 1) + (M,) -> (N, M)
    out.addmm_(xd, yd.t(), alpha=-2.0)                                # in place: - 2 x @ y.T
    return out.clamp_min_(0.0).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term from torch.addbmm (s53 d cand06)",
        expect="aten.addbmm",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    xd, yd = x.double(), y.double()
    sq = (xd * xd).sum(dim=1, keepdim=True) + (yd * yd).sum(dim=1)      # (N, M)
    out = torch.addbmm(sq, xd.unsqueeze(0), yd.t().unsqueeze(0), alpha=-2.0)  # sq - 2 x @ y.T
    return out.clamp_min(0.0).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 54: a GPU machine with CPU inputs, and inputs on cuda:1 (course/fixtures/placement.py)
    dict(  # listed CORRECT until now (reviewer d, stop 53, find 7): the zeros made without device= stay on the
        # CPU, and diff += x[:, None] raises on a GPU; the played cuda:1 shows it
        grade_id="test_pairwise_sq_dist",
        name="the squared distances added into a zeros (N, M) result made without device=",
        expect="有张量到了 cpu 上",
        code="def pairwise_sq_dist(x, y):\n    out = torch.zeros(x.shape[0], y.shape[0], dtype=x.dtype)\n"
        "    out += ((x[:, None] - y[None]) ** 2).sum(-1)\n    return out\n",
    ),
]

MUTANTS += [  # stop 54 reviewer d: cross terms through _trilinear, conv_tbc, lerp and halves of D; loops inside one _foreach call
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term from F.bilinear (aten._trilinear)",
        expect="aten._trilinear",
        code='''
import torch.nn.functional as F

def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # ||x||^2 + ||y||^2 - 2 x·y，交叉项用 F.bilinear，在 float64 里算避免抵消
    xd, yd = x.double(), y.double()
    cross = F.bilinear(xd, xd.new_ones(xd.shape[0], 1), yd.unsqueeze(-1))  # (N, M)
    out = (xd ** 2).sum(-1, keepdim=True) + (yd ** 2).sum(-1) - 2 * cross
    return out.to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term from torch.conv_tbc",
        expect="aten.conv_tbc",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # ||x||^2 + ||y||^2 - 2 x·y：交叉项写成一个 1x1 的时间卷积 (conv_tbc)，float64 里算
    xd, yd = x.double(), y.double()
    cross = torch.conv_tbc(xd.unsqueeze(0), yd.t().unsqueeze(0), yd.new_zeros(yd.shape[0]))[0]  # (N, M)
    return ((xd ** 2).sum(-1, keepdim=True) + (yd ** 2).sum(-1) - 2 * cross).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term as a broadcast multiply in two halves of D",
        expect="按元素相乘的交叉项",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    xd, yd = x.double(), y.double()
    h = (xd.shape[1] + 1) // 2  # 特征分成两半，交叉项各自按元素乘再求和
    cross = (xd[:, None, :h] * yd[None, :, :h]).sum(-1) + (xd[:, None, h:] * yd[None, :, h:]).sum(-1)
    return ((xd ** 2).sum(-1, keepdim=True) + (yd ** 2).sum(-1) - 2 * cross).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term from torch.lerp(0, x, y)",
        expect="aten.lerp",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    xd, yd = x.double(), y.double()
    cross = torch.lerp(xd.new_zeros(()), xd[:, None, :], yd[None, :, :]).sum(-1)  # 0 + y * (x - 0) = x * y
    return ((xd * xd).sum(1, keepdim=True) + (yd * yd).sum(1) - 2 * cross).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a loop over the points inside one torch._foreach_sub call",
        expect="步数随 x 的点数 N 增长",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    diffs = torch._foreach_sub([y] * x.shape[0], list(x))  # 第 i 个：y - x[i]，(M, D)
    return torch.stack(torch._foreach_pow(diffs, 2)).sum(dim=-1)  # (N, M)
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a loop over the samples inside one torch._foreach_add call",
        expect="步数随 batch 大小 B 增长",
        code='''
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    if a.shape[0] == 0:  # 空 batch
        return a.new_empty(0, a.shape[1], b.shape[1])
    outs = torch._foreach_add(list(a.unsqueeze(-1)), list(b.unsqueeze(-2)))  # 每个样本：(M, 1) + (1, N)
    return torch.stack(outs)
''',
    ),
]

MUTANTS += [  # stop 54 reviewer d: a sparse cross term, a cross term in a zeros buffer filled in place, and a tiling inside nn.Upsample named as a library's call
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term from torch.sparse.mm(x.to_sparse(), y.T) (was told the grader's own recorder raised)",
        expect="aten._sparse_addmm",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    xd, yd = x.double(), y.double()
    cross = torch.sparse.mm(xd.to_sparse(), yd.t())  # (N, M)
    return ((xd ** 2).sum(-1, keepdim=True) + (yd ** 2).sum(-1) - 2 * cross).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion with the cross term built in place: zeros (N, M, D) += x[:, None], then *= y[None]",
        expect="第一步就是把它铺开复制一遍",  # stop 55: the spread into zeros is named first
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # ||x||^2 + ||y||^2 - 2 x·y，交叉项在一个 (N, M, D) 缓冲里原地算（像 out += a; out += b 那样），float64
    xd, yd = x.double(), y.double()
    buf = xd.new_zeros(xd.shape[0], yd.shape[0], xd.shape[1])
    buf += xd[:, None, :]
    buf *= yd[None, :, :]
    cross = buf.sum(dim=-1)
    return ((xd * xd).sum(1, keepdim=True) + (yd * yd).sum(1) - 2 * cross).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x tiled with nn.Upsample (was told the learner called F.interpolate)",
        expect="经由 torch.nn.functional.interpolate",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    n, m = x.shape[0], y.shape[0]
    up = torch.nn.Upsample(scale_factor=m, mode="nearest")
    xt = up(x.t()[None])[0].t().reshape(n, m, -1)  # 每个点重复 m 次
    return ((xt - y[None]) ** 2).sum(-1)
''',
    ),
]


MUTANTS += [  # stop 54 reviewer h: a triplet loss as the distance, _foreach lists by keyword, legacy vmap, and a size branch told only that it loops
    dict(
        grade_id="test_pairwise_sq_dist",
        name="F.triplet_margin_loss with the anchor as its own negative: the distance under another name",
        expect="triplet_margin_loss",
        code='''
import torch.nn.functional as F


def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    wide = torch.promote_types(x.dtype, torch.float32)
    a = x.to(wide).unsqueeze(1)              # (N, 1, D) anchor
    p = y.to(wide).unsqueeze(0)              # (1, M, D) positive
    # triplet loss with a negligible margin and the anchor as its own negative: max(d(a, p) - 0, 0) = d(a, p)
    d = F.triplet_margin_loss(a, p, a, margin=1e-30, p=2, eps=0.0, reduction="none")
    return (d ** 2).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a loop over the points inside one torch._foreach_sub call, its lists passed by keyword",
        expect="步数随 x 的点数 N 增长",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # y - x[i] for every point i of x, in one foreach call: N tensors of (M, D)
    diffs = torch._foreach_sub(self=[y] * x.shape[0], other=list(x))
    return (torch.stack(diffs) ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a loop over the samples inside one torch._foreach_add call, its lists passed by keyword",
        expect="步数随 batch 大小 B 增长",
        code='''
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    if a.shape[0] == 0:  # empty batch
        return a.new_empty(0, a.shape[1], b.shape[1])
    # sample k: a[k] as a column (M, 1) plus b[k] as a row (N,) -> (M, N); all B samples in one foreach call
    sums = torch._foreach_add(self=list(a.unsqueeze(2)), other=list(b))
    return torch.stack(sums)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="float64 sums only when D > 100 (a path by size; was told only that it loops)",
        expect="按输入的大小走了",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    sq = (x.unsqueeze(1) - y.unsqueeze(0)) ** 2   # (N, M, D)
    if x.shape[1] > 100:                          # long feature vectors: accumulate the sum in float64
        return sq.sum(dim=-1, dtype=torch.float64).to(x.dtype)
    return sq.sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="torch._vmap_internals.vmap: the banned vmap under its older name",
        expect="torch.vmap / torch.func.vmap",
        code='''
from torch._vmap_internals import vmap


def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    # one sample: (M,) as a column plus (N,) as a row -> (M, N); vmap adds the batch dim
    return vmap(lambda ak, bk: ak.unsqueeze(1) + bk)(a, b)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch._vmap_internals.vmap over the points",
        expect="torch.vmap / torch.func.vmap",
        code='''
from torch._vmap_internals import vmap


def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # one point xi (D,) against all of y (M, D) -> (M,); vmap runs it for every point of x
    return vmap(lambda xi: ((y - xi) ** 2).sum(dim=-1))(x)
''',
    ),
]

CORRECT += [  # stop 54 reviewer h: a ValueError of the learner's own class was refused (its type name was compared)
    dict(
        grade_id="test_broadcast_shape",
        name="raises its own BroadcastError(ValueError)",
        code='''
class BroadcastError(ValueError):
    """Two shapes that cannot be broadcast together."""


def broadcast_shape(a: tuple, b: tuple) -> tuple:
    """两个形状 -> 广播后的形状；不能广播时 raise ValueError。"""
    ndim = max(len(a), len(b))
    a = (1,) * (ndim - len(a)) + tuple(a)
    b = (1,) * (ndim - len(b)) + tuple(b)
    result = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            result.append(x)
        elif x == 1:
            result.append(y)
        else:
            raise BroadcastError(f"shapes {a} and {b} cannot be broadcast: {x} vs {y}")
    return tuple(result)
''',
    ),
]

MUTANTS += [  # stop 55 (stop 54 reviewer d cand10/11): a ruling. The prose bans spreading one input into the
    # full-size buffer first ("out[:] = a[:, :, None]", "copy_ 进一个大张量"), and adding it into a zero buffer is the
    # same spread; both were CORRECT entries (stop 42, stop 54), while out[:] = ... failed: now all of them fail
    dict(
        grade_id="test_batch_outer_sum",
        name="adds a and b into a zeros (B, M, N) output made on a's device, in place (a spread into zeros first)",
        expect="第一步就是把它铺开复制一遍",
        code="def batch_outer_sum(a, b):\n"
        "    out = torch.zeros(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype, device=a.device)\n"
        "    out += a[:, :, None]\n    out += b[:, None, :]\n    return out\n",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="spreads a into an empty output with torch.add(expand, 0, out=), then adds b in place",
        expect="第一步就是把它铺开复制一遍",
        code="def batch_outer_sum(a, b):\n"
        "    out = torch.empty(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype, device=a.device)\n"
        "    torch.add(a[:, :, None].expand_as(out), 0, out=out)\n    out += b[:, None, :]\n    return out\n",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="x and y accumulated into a zeros (N, M, D) difference made with device=x.device (x spread first)",
        expect="第一步就是把它铺开复制一遍",
        code="def pairwise_sq_dist(x, y):\n    (n, d), m = x.shape, y.shape[0]\n"
        "    diff = torch.zeros(n, m, d, dtype=x.dtype, device=x.device)\n    diff += x[:, None]\n    diff -= y[None]\n"
        "    return (diff * diff).sum(-1)\n",
    ),
]


MUTANTS += [  # stop 55 (stop 54 reviewer h cand02): an expansion with no product of x and y; points 1e8 from the origin in float64 fail every expansion by its values
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion by the parallelogram law in float64: 2||x||^2 + 2||y||^2 - ||x + y||^2 (no product of x and y)",
        expect="在 float64 里也抵消掉有效数字",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    # ||x - y||^2 = 2||x||^2 + 2||y||^2 - ||x + y||^2 (parallelogram law), in float64
    xd, yd = x.double(), y.double()
    s = ((xd.unsqueeze(1) + yd.unsqueeze(0)) ** 2).sum(dim=-1)        # (N, M)
    d = 2 * (xd ** 2).sum(-1).unsqueeze(1) + 2 * (yd ** 2).sum(-1).unsqueeze(0) - s
    return d.to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 55: batch_outer_sum's inputs may require grad now (the spec says so); out= does not differentiate
    dict(
        grade_id="test_batch_outer_sum",
        name="torch.add of the two broadcast views with out= an empty (B, M, N) tensor on a's device (no autograd)",
        expect="functions with out=... arguments don't support automatic differentiation",
        code="def batch_outer_sum(a, b):\n"
        "    out = torch.empty(a.shape[0], a.shape[1], b.shape[1], dtype=a.dtype, device=a.device)\n"
        "    torch.add(a[:, :, None], b[:, None, :], out=out)\n    return out\n",
    ),
]

MUTANTS += [  # stop 55 (stop 53 reviewer d 14-24): branches on requires_grad or grad mode, which no count ever met; course/fixtures/grad_paths.py compares the calls with grad inputs and inside no_grad
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion ||x||^2 + ||y||^2 - 2 x @ y.T only when an input requires grad",
        expect="和不需要梯度的同样输入走的不是同一条路",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if torch.is_grad_enabled() and (x.requires_grad or y.requires_grad):
        # training (contrastive loss): autograd would keep the whole (N, M, D) difference for backward;
        # ||x||^2 + ||y||^2 - 2 x.y keeps only (N, D) and (M, D)
        sq = (x * x).sum(dim=1, keepdim=True) + (y * y).sum(dim=1)
        return (sq - 2 * x @ y.t()).clamp_min(0)
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias) (a temporary as large as x) only when x or bias requires grad",
        expect="和不需要梯度的同样输入走的不是同一条路",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    b = bias.view(-1, 1, 1)  # (C, 1, 1): right-aligned onto (C, H, W)
    if x.requires_grad or bias.requires_grad:
        # autograd: compute out of place, then write the values back into x (copy_ is recorded too)
        x.copy_(x + b)
    else:
        x += b
    return x
''',
    ),
    dict(
        grade_id="test_mse_loss",
        name="no widening of float16 when pred requires grad",
        expect="和不需要梯度的同样输入走的不是同一条路",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if pred.requires_grad:
        # training: stay in pred's own dtype so the loss stays in the graph
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist(x, y) ** 2 when grad mode is off (k-NN at inference)",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if not torch.is_grad_enabled():
        # k-NN at inference (under torch.no_grad()): no graph needed, use the fast library kernel
        return torch.cdist(x, y) ** 2
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a Python loop over the points of x only when an input requires grad",
        expect="和不需要梯度的同样输入走的不是同一条路",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.requires_grad or y.requires_grad:
        # training: one row at a time, so backward never holds the whole (N, M, D) difference
        return torch.stack([((y - xi) ** 2).sum(dim=1) for xi in x])
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a Python loop over the channels only when x or bias requires grad",
        expect="和不需要梯度的同样输入走的不是同一条路",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    if x.requires_grad or bias.requires_grad:
        # autograd: one channel at a time, each slice of x in place
        for c in range(x.shape[1]):
            x[:, c] += bias[c]
        return x
    x += bias.view(-1, 1, 1)
    return x
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the samples only when a or b requires grad",
        expect="和不需要梯度的同样输入走的不是同一条路",
        code='''
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    if a.requires_grad or b.requires_grad:
        # in a model being trained: one sample at a time
        return torch.stack([ak.unsqueeze(1) + bk.unsqueeze(0) for ak, bk in zip(a, b)])
    return a.unsqueeze(2) + b.unsqueeze(1)
''',
    ),
]

MUTANTS += [  # stop 55 reviewer d: expansions whose cross term no product check names; the float64 far points fail them by their values
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion in float64, its cross term from one torch._foreach_mul of broadcast views",
        expect="在 float64 里也抵消掉有效数字",
        code='''
def pairwise_sq_dist(x, y):
    """||x||^2 + ||y||^2 - 2 x.y in float64; the cross term from one torch._foreach_mul of the broadcast views."""
    x64, y64 = x.double(), y.double()
    (prod,) = torch._foreach_mul([x64.unsqueeze(1)], [y64.unsqueeze(0)])  # (N, M, D)
    xy = prod.sum(-1)
    xx = (x64 ** 2).sum(-1)
    yy = (y64 ** 2).sum(-1)
    return (xx[:, None] + yy[None, :] - 2 * xy).clamp_min(0).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion in float64, its cross term x @ y.T spelled with F.embedding_bag(per_sample_weights=x)",
        expect="在 float64 里也抵消掉有效数字",
        code='''
def pairwise_sq_dist(x, y):
    """||x||^2 + ||y||^2 - 2 x.y in float64; x.y as a weighted embedding_bag over the features."""
    x64, y64 = x.double(), y.double()
    n, d = x64.shape
    idx = torch.arange(d, device=x.device).repeat(n, 1)  # (N, D): bag i takes every feature
    xy = torch.nn.functional.embedding_bag(idx, y64.t().contiguous(), per_sample_weights=x64, mode="sum")  # (N, M)
    xx = (x64 ** 2).sum(-1)
    yy = (y64 ** 2).sum(-1)
    return (xx[:, None] + yy[None, :] - 2 * xy).clamp_min(0).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 55 reviewer d: no case overflowed int32 (the spec says narrow ints wrap like a + b)
    dict(
        grade_id="test_batch_outer_sum",
        name="every dtype but int64 added in float64 and cast back: an int32 sum past 2**31 - 1 does not wrap as a + b does",
        expect="和超出了 torch.int32 的范围",
        code="""
def batch_outer_sum(a, b):
    if a.dtype == torch.int64:  # int64 above 2**53: only integer math is exact
        return a.unsqueeze(2) + b.unsqueeze(1)
    # every other dtype: add in float64 (exact for int32 / uint8 / float16 sums) and convert back
    return (a.double().unsqueeze(2) + b.double().unsqueeze(1)).to(a.dtype)
""",
    ),
]

MUTANTS += [  # stop 55 reviewer d: branches on inference mode and on the dtype, which no count met (grad_paths plays both now)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist behind torch.is_inference_mode_enabled()",
        expect="在调用方的 with torch.inference_mode(): 里调用时",
        code="""
def pairwise_sq_dist(x, y):
    if torch.is_inference_mode_enabled():  # serving: no graph to keep, take the fast library kernel
        return torch.cdist(x, y) ** 2
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the samples inside the caller's inference_mode",
        expect="在调用方的 with torch.inference_mode(): 里调用时",
        code="""
def batch_outer_sum(a, b):
    if torch.is_inference_mode_enabled():  # no graph at inference: one sample at a time keeps the peak memory small
        return torch.stack([a[k].unsqueeze(1) + b[k].unsqueeze(0) for k in range(a.shape[0])])
    return a.unsqueeze(2) + b.unsqueeze(1)  # (B, M, 1) + (B, 1, N) -> (B, M, N)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias) (a temporary as large as x) inside the caller's inference_mode",
        expect="在调用方的 with torch.inference_mode(): 里调用时",
        code="""
def add_channel_bias_(x, bias):
    if torch.is_inference_mode_enabled():  # serving: no autograd bookkeeping, one fused out-of-place add
        x.copy_(x + bias.view(-1, 1, 1))
        return x
    x += bias.view(-1, 1, 1)  # (C, 1, 1) right-aligned to (C, H, W)
    return x
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a Python loop over the points for float64 inputs",
        expect="输入是 torch.float64 时",
        code="""
def pairwise_sq_dist(x, y):
    if x.dtype == torch.float64:  # precise inputs: one point at a time, no (N, M, D) float64 buffer
        return torch.stack([((y - xi) ** 2).sum(dim=1) for xi in x])
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist behind a bfloat16 branch",
        expect="输入是 torch.bfloat16 时",
        code="""
def pairwise_sq_dist(x, y):
    if x.dtype == torch.bfloat16:  # bfloat16 has too few bits: let the float32 library kernel do it
        return (torch.cdist(x.float(), y.float()) ** 2).to(x.dtype)
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the samples for integer inputs",
        expect="输入是 torch.int32 时",
        code="""
def batch_outer_sum(a, b):
    if not a.is_floating_point():  # integer sums must be exact: sample by sample, no float round trip anywhere
        return torch.stack([a[k].unsqueeze(1) + b[k].unsqueeze(0) for k in range(a.shape[0])])
    return a.unsqueeze(2) + b.unsqueeze(1)  # (B, M, 1) + (B, 1, N) -> (B, M, N)
""",
    ),
]

MUTANTS += [  # stop 55 (stop 53 reviewer d 18-20): x is y, a guard on D, a float16 branch
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the Gram-matrix expansion when x is y (distances within one set)",
        expect="同一个张量对象传两次",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x is y:
        # distances within one set (clustering): the Gram matrix is symmetric, one product does it
        sq = (x * x).sum(dim=1)
        return (sq.unsqueeze(1) + sq.unsqueeze(0) - 2 * x @ x.t()).clamp_min(0)
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion behind a size guard on the feature dim only (D >= 1024)",
        expect="步数随 特征维 D 增长",  # stop 55: the step check runs at D = 8192
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.shape[1] >= 1024:
        # high-dimensional embeddings: the (N, M, D) difference is D times the result; use one matrix product
        sq = (x * x).sum(dim=1, keepdim=True) + (y * y).sum(dim=1)
        return (sq - 2 * x @ y.t()).clamp_min(0)
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x.float() + b.float()) for float16 / bfloat16 x (a temporary twice x's size)",
        expect="输入是 torch.float16 时",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    b = bias.view(-1, 1, 1)  # (C, 1, 1): right-aligned onto (C, H, W)
    if x.dtype in (torch.float16, torch.bfloat16):
        # half precision: add in float32 (as in mse_loss), round once when writing back
        x.copy_(x.float() + b.float())
    else:
        x += b
    return x
''',
    ),
]

MUTANTS += [  # stop 55 round 2 reviewer h: branches on leaves, partial grads, layouts, shapes, autocast; a later call writing into an earlier result; a detached result (grad_paths plays them all now)
    dict(
        grade_id="test_add_channel_bias_",
        name="a Python loop over the channels when bias is a leaf that requires grad (a trained parameter)",
        expect="输入是需要梯度的参数时",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    if bias.is_leaf and bias.requires_grad:  # a trained parameter (nn.Parameter): add channel by channel
        for c in range(x.shape[1]):
            x[:, c] += bias[c]
        return x
    x += bias.view(-1, 1, 1)
    return x
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the batch when a is a leaf that requires grad",
        expect="输入是需要梯度的参数时",
        code='''
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    if a.is_leaf and a.requires_grad:  # a trained parameter: one sample at a time
        return torch.stack([a[k].unsqueeze(1) + b[k].unsqueeze(0) for k in range(a.shape[0])])
    return a.unsqueeze(2) + b.unsqueeze(1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion when x is a leaf that requires grad (trained embeddings)",
        expect="输入是需要梯度的参数时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.is_leaf and x.requires_grad:  # trained embeddings (parameters): the matmul form
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a.detach() and b.detach(): the result is never in the graph",
        expect="返回的张量不在计算图里",
        code='''
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    return a.detach().unsqueeze(2) + b.detach().unsqueeze(1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion whenever x or y is not contiguous",
        expect="输入不连续",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if not (x.is_contiguous() and y.is_contiguous()):  # strided views (x = emb.T ...): the matmul form reads them as is
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a Python loop over the channels whenever x is not contiguous (channels_last)",
        expect="输入不连续",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    if not x.is_contiguous():  # channels_last / strided x: one channel plane at a time
        for c in range(x.shape[1]):
            x[:, c] += bias[c]
        return x
    x += bias.view(-1, 1, 1)
    return x
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the batch whenever an input is not contiguous",
        expect="输入不连续",
        code='''
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    if not (a.is_contiguous() and b.is_contiguous()):  # strided inputs: one sample at a time
        return torch.stack([a[k].unsqueeze(1) + b[k].unsqueeze(0) for k in range(a.shape[0])])
    return a.unsqueeze(2) + b.unsqueeze(1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion with torch.outer when D == 1",
        expect="M = 1 或 D = 1 时也先相减再平方",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.shape[1] == 1:  # scalar features: x² + y² - 2xy with one outer product
        a, b = x[:, 0], y[:, 0]
        return (a * a)[:, None] + (b * b)[None, :] - 2 * torch.outer(a, b)
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion (y @ q) when N == 1, a single query point",
        expect="M = 1 或 D = 1 时也先相减再平方",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.shape[0] == 1:  # one query point against the database: a matrix-vector product
        q = x[0]
        return ((y * y).sum(-1) + (q * q).sum() - 2 * (y @ q)).unsqueeze(0)
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a full-size tiled copy of the bias when bias is an nn.Parameter",
        expect="输入是需要梯度的参数时",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    if isinstance(bias, torch.nn.Parameter):  # a conv layer's own bias: spread it over the batch first
        x += bias.view(1, -1, 1, 1).expand_as(x).contiguous()
        return x
    x += bias.view(-1, 1, 1)
    return x
''',
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a later call on the same a writes into the caller's earlier result",
        expect="第一次返回的张量变了",
        code='''
def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。"""
    out = a.unsqueeze(2) + b.unsqueeze(1)  # (B, M, 1) + (B, 1, N) -> (B, M, N)
    kept = a.__dict__.get("_outer_sum")  # called again on the same a (a decoding loop): reuse that output's memory
    if kept is not None and kept.shape == out.shape and kept.dtype == out.dtype and kept.device == out.device:
        return kept.copy_(out)[:]
    a._outer_sum = out
    return out
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion when D >= 1024",
        expect="步数随 特征维 D 增长",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.shape[1] >= 1024:  # high-dimensional embeddings: (N, M, D) would be huge, use the matmul form
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a later call on the same x writes into the earlier distance matrix",
        expect="第一次返回的张量变了",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    out = ((x.unsqueeze(1) - y.unsqueeze(0)) ** 2).sum(dim=-1)  # (N, M, D) -> (N, M)
    kept = x.__dict__.get("_dist_out")  # the same x again (a k-means loop): reuse that output's memory
    if kept is not None and kept.shape == out.shape and kept.dtype == out.dtype and kept.device == out.device:
        return kept.copy_(out)[:]
    x._dist_out = out
    return out
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion when x requires grad and y does not (a fixed memory bank)",
        expect="只有第一个浮点输入需要梯度",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if x.requires_grad and not y.requires_grad:  # queries against a fixed memory bank (MoCo): one matmul
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a Python loop over the channels when x requires grad and bias does not (a frozen bias)",
        expect="只有第一个浮点输入需要梯度",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    if x.requires_grad and not bias.requires_grad:  # a frozen bias (fine-tuning): channel by channel
        for c in range(x.shape[1]):
            x[:, c] += bias[c]
        return x
    x += bias.view(-1, 1, 1)
    return x
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion when the caller is inside torch.autocast",
        expect="torch.autocast(...): 里调用时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if torch.is_autocast_enabled(x.device.type):  # the caller trains with AMP: the matmul form runs on tensor cores
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="a Python loop over features in blocks of 512 (the count grows with D)",
        expect="步数随 特征维 D 增长",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    out = None
    for k in range(0, x.shape[1], 512):  # features in blocks of 512: the (N, M, block) difference stays small
        diff = x[:, None, k:k + 512] - y[None, :, k:k + 512]
        part = (diff ** 2).sum(dim=-1)
        out = part if out is None else out + part
    return out
''',
    ),
]

CORRECT += [  # stop 55 round 2 reviewer h cand16: refused by the first dtype comparison (a conversion is no other path)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="squares summed in float32 for float16 / bfloat16 inputs, cast back",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    dtype = x.dtype
    if dtype in (torch.float16, torch.bfloat16):  # half precision: sum the squares in float32, as in mse_loss
        x, y = x.float(), y.float()
    diff = x.unsqueeze(1) - y.unsqueeze(0)  # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1).to(dtype)
''',
    ),
]

CORRECT += [  # stop 55 round 2 reviewer h cand17
    dict(
        grade_id="test_mse_loss",
        name="the widening written as a dtype branch: .float() for float16 / bfloat16",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    dtype = pred.dtype
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if dtype in (torch.float16, torch.bfloat16):  # float16 / bfloat16: widen to float32; float32 / float64 stay
        pred, target = pred.float(), target.float()
    return ((pred - target) ** 2).mean().to(dtype)
''',
    ),
]

MUTANTS += [  # stop 55 reviewer h cand21: the in-place add into a copy of a non-contiguous x is named by what x shows (unchanged)
    dict(
        grade_id="test_add_channel_bias_",
        name="x.flatten(2).add_(bias[:, None]): on a non-contiguous x the add goes into a copy",
        expect="x 的数值一个都没有变",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    x.flatten(2).add_(bias[:, None])  # (N, C, H*W) += (C, 1)
    return x
''',
    ),
]

MUTANTS += [  # stop 56 reviewer k: grad_paths plays the last input needing grad, a GPU while training, the caller's float16 autocast (values compared), far points; placement compares the calls
    dict(
        grade_id="test_batch_outer_sum",
        name="b.detach() inside: b's gradient silently dropped",
        expect="梯度却传不到它",
        code="""
def batch_outer_sum(a, b):
    return a.unsqueeze(2) + b.detach().unsqueeze(1)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion when only y requires grad (learned prototypes)",
        expect="只有最后一个浮点输入需要梯度",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if y.requires_grad and not x.requires_grad:  # learned prototypes y, fixed queries x: the matmul form trains y faster
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a loop over the channels when bias requires grad and x does not",
        expect="只有最后一个浮点输入需要梯度",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    if bias.requires_grad and not x.requires_grad:  # a trained bias on a frozen feature map: one channel at a time
        for c in range(x.shape[1]):
            x[:, c] += bias[c]
        return x
    x += bias.view(-1, 1, 1)
    return x
''',
    ),
    dict(
        grade_id="test_mse_loss",
        name="widens to the caller's autocast dtype instead of float32",
        expect="在调用方的 with torch.autocast(...): 里调用时",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    kind = pred.device.type
    mixed = torch.get_autocast_dtype(kind)           # mixed precision: follow the caller's autocast dtype
    wide = torch.promote_types(pred.dtype, torch.float32)
    if torch.is_autocast_enabled(kind):
        wide = mixed
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the difference and squares in the caller's autocast dtype",
        expect="在调用方的 with torch.autocast(...): 里调用时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    kind = x.device.type
    dtype = torch.get_autocast_dtype(kind) if torch.is_autocast_enabled(kind) else x.dtype  # mixed precision: follow autocast
    diff = x.to(dtype).unsqueeze(1) - y.to(dtype).unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist(x, y) ** 2 on a GPU machine with CPU inputs",
        expect="调用了 torch.functional.cdist",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    on_host = x.device.type == "cpu"
    gpu_there = torch.cuda.is_available()
    if on_host and gpu_there:
        # the GPU is busy training; these CPU points are a side job: the library's CPU kernel is faster here
        return torch.cdist(x, y) ** 2
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion when M == 1 (one reference point)",
        expect="M = 1 或 D = 1 时也先相减再平方",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if y.shape[0] == 1:  # a single reference point (a centroid): one matrix-vector product is enough
        c = y[0]
        return ((x * x).sum(-1) + (c * c).sum() - 2 * (x @ c)).unsqueeze(1)
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="a loop over the samples whenever x or bias requires grad",
        expect="需要梯度",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    b = bias.view(-1, 1, 1)
    # while training, autograd keeps one record per in-place add: go sample by sample; otherwise the whole batch at once
    step = 1 if (x.requires_grad or bias.requires_grad) else max(x.shape[0], 1)
    for i in range(0, x.shape[0], step):
        x[i:i + step] += b
    return x
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion on a GPU while an input requires grad",
        expect="输入需要梯度时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    on_gpu = x.is_cuda
    training = x.requires_grad or y.requires_grad
    if on_gpu and training:  # contrastive training on the GPU: the matmul form runs on tensor cores
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias) on a GPU while training",
        expect="输入需要梯度时",
        code='''
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: (N, C, H, W), bias: (C,) -> x 本身，原地加上每个通道的偏置。"""
    on_gpu = x.is_cuda
    training = x.requires_grad or bias.requires_grad
    if on_gpu and training:  # on the GPU while training: one out-of-place add, written back (a cleaner graph)
        x.copy_(x + bias.view(-1, 1, 1))
        return x
    x += bias.view(-1, 1, 1)
    return x
''',
    ),
    dict(
        grade_id="test_mse_loss",
        name="no float16 widening on a GPU while pred requires grad",
        expect="输入需要梯度时",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    on_gpu = pred.is_cuda
    training = pred.requires_grad
    wide = torch.promote_types(pred.dtype, torch.float32)
    if on_gpu and training:  # mixed-precision training on the GPU: keep the half dtype (autocast-style)
        wide = pred.dtype
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the Gram expansion by einsum under the caller's autocast, einsum of the difference otherwise",
        expect="在调用方的 with torch.autocast(...): 里调用时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if torch.is_autocast_enabled(x.device.type):  # mixed precision: the Gram form, one matmul on tensor cores
        xx = torch.einsum("nd,nd->n", x, x)
        yy = torch.einsum("md,md->m", y, y)
        xy = torch.einsum("nd,md->nm", x, y)
        return xx.unsqueeze(1) - (xy - yy.unsqueeze(0)) - xy
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return torch.einsum("nmd,nmd->nm", diff, diff)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the Gram expansion by einsum whenever an input is not contiguous",
        expect="输入不连续 (non-contiguous) 时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if not (x.is_contiguous() and y.is_contiguous()):  # strided views: the Gram form reads them without a copy
        xx = torch.einsum("nd,nd->n", x, x)
        yy = torch.einsum("md,md->m", y, y)
        xy = torch.einsum("nd,md->nm", x, y)
        return xx.unsqueeze(1) - (xy - yy.unsqueeze(0)) - xy
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return torch.einsum("nmd,nmd->nm", diff, diff)
''',
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the Gram expansion by einsum whenever grad mode is off",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if not torch.is_grad_enabled():  # k-NN at inference: the Gram form, one matmul (no (N, M, D) temporary)
        xx = torch.einsum("nd,nd->n", x, x)
        yy = torch.einsum("md,md->m", y, y)
        xy = torch.einsum("nd,md->nm", x, y)
        return xx.unsqueeze(1) - (xy - yy.unsqueeze(0)) - xy
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return torch.einsum("nmd,nmd->nm", diff, diff)
''',
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist on a GPU with grad off",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code="""
def pairwise_sq_dist(x, y):
    if x.is_cuda and not torch.is_grad_enabled():   # GPU inference (k-NN lookup): no graph needed, use the fused kernel
        return torch.cdist(x, y).square()
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="no widening on a GPU with grad off",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    if pred.is_cuda and not torch.is_grad_enabled():   # GPU evaluation: stay in the input dtype, no extra copies
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="expand(...).contiguous() copies on a GPU with grad off",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code="""
def batch_outer_sum(a, b):
    if a.is_cuda and not torch.is_grad_enabled():   # GPU inference: dense operands for a coalesced add
        B, M, N = a.shape[0], a.shape[1], b.shape[1]
        return a.unsqueeze(2).expand(B, M, N).contiguous() + b.unsqueeze(1).expand(B, M, N).contiguous()
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="x.copy_(x + bias) on a GPU with grad off",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code="""
def add_channel_bias_(x, bias):
    if x.is_cuda and not torch.is_grad_enabled():   # GPU inference: compute out of place, then write back
        x.copy_(x + bias.view(-1, 1, 1))
        return x
    x += bias.view(-1, 1, 1)
    return x
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the expansion on a GPU inside the caller's autocast",
        expect="在调用方的 with torch.autocast(...): 里调用时",
        code="""
def pairwise_sq_dist(x, y):
    if x.is_cuda and torch.is_autocast_enabled("cuda"):   # AMP on a GPU: route the work through tensor-core matmul
        return (x * x).sum(-1)[:, None] + (y * y).sum(-1)[None, :] - 2 * (x @ y.T)
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
]

CORRECT += [  # stop 56 o cand13 (ruled right): einsum of the difference; its float16 autocast values are autocast's
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the difference squared and summed by einsum('nmd,nmd->nm')",
        code="""
def pairwise_sq_dist(x, y):
    diff = x.unsqueeze(1) - y.unsqueeze(0)          # (N, M, D): subtract first
    return torch.einsum("nmd,nmd->nm", diff, diff)  # square and sum over D in one call
""",
    ),
]

MUTANTS += [  # stop 57 reviewer s (round 3): every grad mode on a played GPU too; float16 values inside an autocast
    dict(
        grade_id="test_pairwise_sq_dist",
        name="einsum_expansion_inside_autocast",
        expect="float16 表示得了的元素",
        code="""
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if torch.is_autocast_enabled():  # mixed precision: the matrix-product form runs on tensor cores
        xy = torch.einsum("nd,md->nm", x, y)
        return (torch.einsum("nd,nd->n", x, x).unsqueeze(1) - xy) - (xy - torch.einsum("md,md->m", y, y).unsqueeze(0))
    xs = x.unsqueeze(1)                 # (N, 1, D)
    diff = xs - y.unsqueeze(0)          # (N, 1, D) - (1, M, D) -> (N, M, D)
    return torch.einsum("nmd,nmd->nm", diff, diff)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="expansion_for_a_parameter_on_a_gpu",
        expect="输入是需要梯度的参数时",
        code="""
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if y.is_cuda and isinstance(y, torch.nn.Parameter):  # learned prototypes on the GPU: the matmul form, like nn.Linear
        return (x ** 2).sum(-1, keepdim=True) + (y ** 2).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)      # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="full_size_temporary_for_a_parameter_bias_on_a_gpu",
        expect="输入是需要梯度的参数时",
        code="""
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    if x.is_cuda and isinstance(bias, torch.nn.Parameter):  # a conv layer's own bias on the GPU
        x.copy_(x + bias.view(-1, 1, 1))   # a full-size temporary the spec bans
        return x
    x += bias.view(-1, 1, 1)
    return x
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="no_widening_when_only_pred_needs_grad_on_a_gpu",
        expect="只有第一个浮点输入需要梯度",
        code="""
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    # training on the GPU (the model's output needs grad, the labels don't): stay in the model's dtype, as AMP does
    training_on_gpu = pred.is_cuda and pred.requires_grad and not target.requires_grad
    wide = pred.dtype if training_on_gpu else torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="expansion_when_x_trains_on_a_gpu",
        expect="只有第一个浮点输入需要梯度",
        code="""
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.is_cuda and x.requires_grad and not y.requires_grad:  # training against a fixed memory bank on the GPU
        return (x ** 2).sum(-1, keepdim=True) + (y ** 2).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)      # (N, 1, D) - (1, M, D) -> (N, M, D)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="full_size_temporary_for_channels_last_on_a_gpu",
        expect="输入不连续",
        code="""
def add_channel_bias_(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    on_gpu = x.is_cuda
    if not x.is_contiguous() and on_gpu:  # channels-last activations on the GPU: one dense write
        x.copy_(x + bias.view(-1, 1, 1))
        return x
    x += bias.view(-1, 1, 1)
    return x
""",
    ),
]

MUTANTS += [  # stop 57 round 4 (w): two caller states at once; target may need grad; an (N, 1) float16 pred
    dict(
        grade_id="test_pairwise_sq_dist",
        name="cdist_when_inputs_require_grad_inside_no_grad",
        expect="、在调用方的 with torch.no_grad(): 里调用时",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    if (x.requires_grad or y.requires_grad) and not torch.is_grad_enabled():
        # evaluating trained embeddings: no graph will be built, so use the fast library routine
        return torch.cdist(x, y) ** 2
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_mse_loss",
        name="no_widening_when_pred_requires_grad_inside_autocast",
        expect="、在调用方的 with torch.autocast(...): 里调用时",
        code="""
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if pred.requires_grad and torch.is_autocast_enabled():
        # mixed-precision training: autocast already manages the precision, no manual cast
        return ((pred - target) ** 2).mean()
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="expansion_inside_no_grad_and_autocast",
        expect="with torch.no_grad(), torch.autocast(...)",
        code='''
def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。"""
    fast_inference = not torch.is_grad_enabled() and (torch.is_autocast_enabled("cpu") or torch.is_autocast_enabled("cuda"))
    if fast_inference:  # mixed-precision inference (no graph): the expansion runs on the tensor cores
        return (x * x).sum(-1)[:, None] + (y * y).sum(-1)[None, :] - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
''',
    ),
    dict(
        grade_id="test_mse_loss",
        name="target_detached",
        expect="梯度却传不到它",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    target = target.detach()  # labels are data, not something to train
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
''',
    ),
    dict(
        grade_id="test_mse_loss",
        name="no_widening_for_an_n_by_1_pred",
        expect="修正形状之后也要先转宽再平方",
        code='''
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """pred: (N,) 或 (N, 1)，target: (N,) 或 (N, 1) -> () 的均方误差；其它形状 raise ValueError。"""
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1 and target.dim() == 1 and pred.shape[0] == target.shape[0]:
        # the usual case: nn.Linear(d, 1) output (N, 1) against labels (N,)
        return ((pred.squeeze(-1) - target) ** 2).mean()
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
''',
    ),
]

MUTANTS += [  # stop 58 round 5 (b): floats added in float32, float64 narrowed
    dict(
        grade_id="test_batch_outer_sum",
        name="floats_added_in_float32_and_cast_back",
        expect="期望 0.25，得到 0",
        code="""
def batch_outer_sum(a, b):
    # floats are added in float32 (the GPU's fast type), integers as they are; the result goes back to the input dtype
    work = torch.float32 if a.is_floating_point() else a.dtype
    return (a.to(work).unsqueeze(2) + b.to(work).unsqueeze(1)).to(a.dtype)
""",
    ),
]

MUTANTS += [  # stop 58 round 6 (b): the mean of squares as a dot product: autocast makes it float16
    dict(
        grade_id="test_mse_loss",
        name="mean_of_squares_as_a_dot_product",
        expect="调用方的 autocast 把它按 float16 算",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    s = d / d.shape[0] ** 0.5                            # scaled first: the dot product is already the mean
    return (s @ s).to(pred.dtype)
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 b: c20; c02, c03, c06 right answers refused)
    dict(
        grade_id="test_mse_loss",
        name="sum_of_squares_with_einsum_after_widening",
        expect="用了 einsum：调用方的 autocast 把它按 float16 算",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    sq = (pred.to(wide) - target.to(wide)) ** 2
    return (torch.einsum("n->", sq) / sq.numel()).to(pred.dtype)
""",
    ),
]


CORRECT += [  # stop 59 (round 7 b: c20; c02, c03, c06 right answers refused) (right answers)
    dict(
        grade_id="test_mse_loss",
        name="sum_of_squares_as_a_dot_product_after_widening",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    return (torch.dot(d, d) / d.numel()).to(pred.dtype)   # sum of squares in the wide type
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="sum_of_squares_as_the_squared_norm_after_widening",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    return (torch.linalg.vector_norm(d) ** 2 / d.numel()).to(pred.dtype)   # ||d||^2 / N
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="sum_of_squares_as_a_matmul_with_autocast_switched_off",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    with torch.autocast(device_type=d.device.type, enabled=False):  # keep the reduction in the wide type
        total = d @ d
    return (total / d.numel()).to(pred.dtype)
""",
    ),
]


CORRECT += [  # stop 59 (round 7 d: c01, c03): right wide sums refused by op name (right answers)
    dict(
        grade_id="test_mse_loss",
        name="dot_product_inside_a_block_with_autocast_off",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    with torch.autocast(d.device.type, enabled=False):  # the dot stays in `wide`, whatever the caller's autocast
        total = torch.dot(d, d)
    return (total / d.shape[0]).to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="dot_product_of_the_widened_differences",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    return (torch.dot(d, d) / d.shape[0]).to(pred.dtype)  # sum of squares as a dot product, in `wide`
""",
    ),
]


MUTANTS += [  # round 8 b: torch.linalg.matmul in the caller's autocast (missing from the lowered list), and GPU paths behind flags asked once
    dict(
        grade_id="test_mse_loss",
        name="the mean of squares as torch.linalg.matmul(d, d / N)",
        expect="用了 linalg_matmul",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    # mean of squares as one inner product: d . (d / N)
    return torch.linalg.matmul(d, d / d.shape[0]).to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss where a top-level if block set ON_GPU",
        expect="GPU 上",
        code="""
if torch.cuda.is_available():
    ON_GPU = True
else:
    ON_GPU = False


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss where a tuple assignment set ON_GPU",
        expect="GPU 上",
        code="""
ON_GPU, N_GPUS = torch.cuda.is_available(), torch.cuda.device_count()


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss where DEVICE == 'cuda'",
        expect="GPU 上",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if DEVICE == "cuda":
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss where an lru_cache'd query answers True",
        expect="GPU 上",
        code="""
import functools


@functools.lru_cache(maxsize=None)
def _on_gpu():
    return torch.cuda.is_available()  # ask the machine once


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if _on_gpu():
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss where a closure over the query answers True",
        expect="GPU 上",
        code="""
def _probe():
    available = torch.cuda.is_available
    return lambda: available()


_gpu_ok = _probe()


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if _gpu_ok():
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss where a helper said there is a GPU",
        expect="GPU 上",
        code="""
def _has_gpu() -> bool:
    return torch.cuda.is_available()


ON_GPU = _has_gpu()


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


CORRECT += [  # round 8 b: torch.linalg.matmul in the caller's autocast (missing from the lowered list), and GPU paths behind flags asked once (right answers)
    dict(
        grade_id="test_mse_loss",
        name="the sum of squares as a float64 matmul (autocast leaves float64 alone)",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    d = pred.double() - target.double()       # float64: wider than asked
    return ((d @ d) / d.shape[0]).to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_add_channel_bias_",
        name="in place through a channels-last view: x.permute(0, 2, 3, 1).add_(bias)",
        code="""
def add_channel_bias_(x, bias):
    x.permute(0, 2, 3, 1).add_(bias)   # channels last in a view of x: (C,) lines up with the last dim, written into x
    return x
""",
    ),
]


MUTANTS += [  # round 8 b c05: each square divided by N and cast back before the sum (the mean taken in float16)
    dict(
        grade_id="test_mse_loss",
        name="((d * d) / N).to(pred.dtype).sum(): the averaging in the narrow type",
        expect="求平均也在宽的类型里做",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    d = pred.to(wide) - target.to(wide)
    # squares in the wide type, each divided by N there; back to pred.dtype, then add up the shares
    return ((d * d) / d.shape[0]).to(pred.dtype).sum()
""",
    ),
]


MUTANTS += [  # round 8 b c15: widened to float64 / int64, added there, cast back (the spec's 不要转宽, untested before)
    dict(
        grade_id="test_batch_outer_sum",
        name="the sum made in float64 / int64 and cast back to the input dtype",
        expect="不要转宽",
        code="""
def batch_outer_sum(a, b):
    # add in the widest type of the family (exact for every int and float input), then back to the input dtype
    wide = torch.float64 if a.is_floating_point() else torch.int64
    out = a.to(wide, copy=True).unsqueeze(2) + b.to(wide, copy=True).unsqueeze(1)
    return out.to(a.dtype, copy=True)
""",
    ),
]


CORRECT += [  # round 9 b c33: a right mse_loss whose widening table a top-level loop fills (its docstring mentions CUDA) (right answers)
    dict(
        grade_id="test_mse_loss",
        name="a widening table filled by a top-level loop, a docstring that mentions CUDA",
        code="""
# a RIGHT mse_loss: narrow floats widened to float32 through a lookup table filled by a top-level loop
_WIDER = {}
for _narrow in (torch.float16, torch.bfloat16):
    _WIDER[_narrow] = torch.float32


def mse_loss(pred, target):
    '''Mean squared error, the same on cuda and on cpu: float16 / bfloat16 errors are squared in float32.'''
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = _WIDER.get(pred.dtype, pred.dtype)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


MUTANTS += [  # round 9 b c24, c25, c33: GPU-only F.mse_loss behind a flag stored as a dict key or a function attribute; a right answer with a table a top-level for loop fills
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind FLAGS['gpu'] set after",
        expect="得到 inf",
        code="""
FLAGS = {}
FLAGS["gpu"] = torch.cuda.is_available()
def ON_GPU():
    return FLAGS["gpu"]
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU():
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a function-attribute memo",
        expect="得到 inf",
        code="""
def ON_GPU():
    if not hasattr(ON_GPU, "answer"):
        ON_GPU.answer = torch.cuda.is_available()
    return ON_GPU.answer
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU():
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


CORRECT += [  # round 9 b c24, c25, c33: GPU-only F.mse_loss behind a flag stored as a dict key or a function attribute; a right answer with a table a top-level for loop fills (right answers)
    dict(
        grade_id="test_mse_loss",
        name="a right mse_loss widening through a table a top-level for loop fills",
        code="""
# a RIGHT mse_loss: narrow floats widened to float32 through a lookup table filled by a top-level loop
_WIDER = {}
for _narrow in (torch.float16, torch.bfloat16):
    _WIDER[_narrow] = torch.float32


def mse_loss(pred, target):
    # Mean squared error, the same on cuda and on cpu: float16 / bfloat16 errors are squared in float32.
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = _WIDER.get(pred.dtype, pred.dtype)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


MUTANTS += [  # round 9 b c23: GPU-only F.mse_loss behind DEVICE.type read at call time
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind DEVICE.type read at call time",
        expect="得到 inf",
        code="""
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def ON_GPU():
    return DEVICE.type == "cuda"
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU():
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


MUTANTS += [  # round 10 d: GPU-only branches on the storage's device
    dict(
        grade_id="test_mse_loss",
        name="float16 squared on the GPU only (storage's device)",
        expect="GPU 上",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    # tensor cores are fast in half precision: on the GPU keep float16 as it is
    floor = torch.float16 if pred.untyped_storage().device.type == "cuda" else torch.float32
    wide = torch.promote_types(pred.dtype, floor)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="F.mse_loss on the GPU only (storage's device)",
        expect="GPU 上",
        code="""
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if pred.untyped_storage().device.type != "cpu":
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


MUTANTS += [  # round 10 d: F.mse_loss on the GPU only behind top-level spellings cellflags now replays
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind an Enum member",
        expect="GPU 上",
        code="""
import enum


class Backend(enum.Enum):
    CPU = "cpu"
    GPU = "cuda"


BACKEND = Backend.GPU if torch.cuda.is_available() else Backend.CPU

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if BACKEND is Backend.GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a range of device ids",
        expect="GPU 上",
        code="""
GPU_IDS = range(torch.cuda.device_count())

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if len(GPU_IDS) > 0:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a match statement",
        expect="GPU 上",
        code="""
match torch.cuda.is_available():
    case True:
        ON_GPU = True
    case _:
        ON_GPU = False

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind globals()['ON_GPU'] =",
        expect="GPU 上",
        code="""
globals()["ON_GPU"] = torch.cuda.is_available()

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a NumPy bool",
        expect="GPU 上",
        code="""
import numpy as np
ON_GPU = np.bool_(torch.cuda.is_available())

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a flag kept in os.environ",
        expect="GPU 上",
        code="""
import os

os.environ["COURSE_USE_GPU"] = "1" if torch.cuda.is_available() else "0"

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if os.environ.get("COURSE_USE_GPU") == "1":
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind print(DEVICE.upper())",
        expect="GPU 上",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
print("running on", DEVICE.upper())

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if DEVICE == "cuda":
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a number computed from the flag with float()",
        expect="GPU 上",
        code="""
ON_GPU = torch.cuda.is_available()
FUSED_MAX_N = float("inf") if ON_GPU else 0.0  # the fused kernel for any size on a GPU, never on the CPU

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if pred.numel() <= FUSED_MAX_N:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a flag computed again from itself",
        expect="GPU 上",
        code="""
import os

ON_GPU = torch.cuda.is_available()
ON_GPU = ON_GPU and os.environ.get("FORCE_CPU") != "1"  # an escape hatch for debugging

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind an if block that also binds a GPU-only name",
        expect="GPU 上",
        code="""
if torch.cuda.is_available():
    ON_GPU = True
    GPU_NAME = torch.cuda.get_device_name(0)
else:
    ON_GPU = False

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a probe that allocates on the GPU",
        expect="GPU 上",
        code="""
try:
    torch.empty(0, device="cuda")  # does CUDA really work here?
    ON_GPU = True
except (RuntimeError, AssertionError):
    ON_GPU = False

def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if ON_GPU:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a decorator that marks the function at definition",
        expect="GPU 上",
        code="""
def gpu_aware(fn):
    fn.on_gpu = torch.cuda.is_available()   # decided once, when the function is defined
    return fn


@gpu_aware
def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    if mse_loss.on_gpu:
        return torch.nn.functional.mse_loss(pred, target)  # fused GPU kernel: squares float16 errors in float16
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only F.mse_loss behind a loss module picked once",
        expect="GPU 上",
        code="""
class WideMSE(torch.nn.Module):
    # Squares in float32 for half inputs, then back.

    def forward(self, pred, target):
        wide = torch.promote_types(pred.dtype, torch.float32)
        return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)


_CRITERION = torch.nn.MSELoss() if torch.cuda.is_available() else WideMSE()  # the fused kernel where there is one


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    return _CRITERION(pred, target)
""",
    ),
]


MUTANTS += [  # round 11 a: setup blocks a replay ran wrongly (right answers) and GPU-only branches behind spellings it missed
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion when the setup turned TF32 on",
        expect="GPU 上",
        code="""
# setup cell: on a GPU machine, allow TF32 matmuls (the usual Ampere advice)
USE_GPU = False
if torch.cuda.is_available():
    USE_GPU = True
    torch.backends.cuda.matmul.allow_tf32 = True


def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if torch.backends.cuda.matmul.allow_tf32:  # fast GPU: use the tensor-core matmul form
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_pairwise_sq_dist",
        name="the banned expansion when the setup set matmul precision high",
        expect="GPU 上",
        code="""
# setup cell: on a GPU machine, ask for TF32 precision for float32 matmuls
if torch.cuda.is_available():
    DEVICE = torch.device("cuda")
    torch.set_float32_matmul_precision("high")
else:
    DEVICE = torch.device("cpu")


def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if torch.get_float32_matmul_precision() != "highest":  # tensor cores available: matmul form
        return (x * x).sum(-1, keepdim=True) + (y * y).sum(-1) - 2 * x @ y.T
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind a block with torch.cuda.set_device(0)",
        expect="GPU 上",
        code="""
# setup cell: pin the first GPU where there is one, and note that we have it
USE_GPU = False
if torch.cuda.is_available():
    torch.cuda.set_device(0)
    USE_GPU = True


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if USE_GPU:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind DEVICE from a block with set_device(0)",
        expect="GPU 上",
        code="""
# setup cell: the usual device choice, pinning GPU 0 where there is one
if torch.cuda.is_available():
    torch.cuda.set_device(0)
    DEVICE = torch.device("cuda")
else:
    DEVICE = torch.device("cpu")


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if DEVICE.type == "cuda":  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind an instance of the notebook's Config",
        expect="GPU 上",
        code="""
# setup cell: a config object, as in most training scripts
class Config:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.use_gpu = torch.cuda.is_available()
        self.batch_size = 128


cfg = Config()


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if cfg.use_gpu:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind a torch.zeros(1).cuda() probe",
        expect="GPU 上",
        code="""
# setup cell: find out whether a GPU really works by moving a tensor to it
try:
    torch.zeros(1).cuda()
    USE_GPU = True
except Exception:
    USE_GPU = False


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if USE_GPU:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


CORRECT += [  # round 11 a: setup blocks a replay ran wrongly (right answers) and GPU-only branches behind spellings it missed (right answers)
    dict(
        grade_id="test_mse_loss",
        name="a setup block that sets the default device to the GPU",
        code="""
# a right answer (the solution's mse_loss) after a common setup cell: on a GPU machine, make it the default device
if torch.cuda.is_available():
    device = torch.device("cuda")
    torch.set_default_device(device)
else:
    device = torch.device("cpu")


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="a setup block that configures the root logger",
        code="""
# a right answer (the solution's mse_loss) after a setup cell that logs which GPU it got
import logging
USE_GPU = False
if torch.cuda.is_available():
    USE_GPU = True
    logging.basicConfig(level=logging.INFO)
    logging.info("GPU: %s", torch.cuda.get_device_name())


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="a setup block that sets a named logger's level",
        code="""
# a right answer (the solution's mse_loss) after a setup cell that turns on verbose training logs on the GPU machine
import logging
log = logging.getLogger("train")
USE_GPU = False
if torch.cuda.is_available():
    USE_GPU = True
    log.setLevel(logging.DEBUG)


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="a setup block that disables the garbage collector",
        code="""
# a right answer (the solution's mse_loss) after a setup cell that switches Python's GC off for long GPU runs
import gc
USE_GPU = False
if torch.cuda.is_available():
    USE_GPU = True
    gc.disable()


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


MUTANTS += [  # round 12 (reviewer b): machine flags in nested stores, store calls, own methods, per played GPU
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind a flag stored in a nested config dict (CFG['train']['gpu'] = ...)",
        expect="GPU 上",
        code="""
# setup cell: nested config, as in YAML-style training configs
CFG = {"train": {"gpu": False, "batch_size": 128}}
CFG["train"]["gpu"] = torch.cuda.is_available()


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if CFG["train"]["gpu"]:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind vars(args)['cuda'] = ... on argparse args",
        expect="GPU 上",
        code="""
# setup cell: argparse args, flag set through vars()
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args([])
vars(args)["cuda"] = not args.no_cuda and torch.cuda.is_available()


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if args.cuda:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind a flag a method of the notebook's Config sets (cfg.detect())",
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


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if cfg.use_gpu:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind a nested SimpleNamespace flag (cfg.train.gpu = ...)",
        expect="GPU 上",
        code="""
# setup cell: nested namespace of settings
import types
cfg = types.SimpleNamespace(train=types.SimpleNamespace(gpu=False, batch_size=128))
cfg.train.gpu = torch.cuda.is_available()


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if cfg.train.gpu:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind args.__dict__.update(cuda=...)",
        expect="GPU 上",
        code="""
# setup cell: args.__dict__.update
import argparse
args = argparse.Namespace(cuda=False, lr=0.1)
args.__dict__.update(cuda=torch.cuda.is_available())


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if args.cuda:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind operator.setitem(FLAGS, 'gpu', ...)",
        expect="GPU 上",
        code="""
# setup cell: flag via operator.setitem
import operator
FLAGS = {"gpu": False}
operator.setitem(FLAGS, "gpu", torch.cuda.is_available())


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if FLAGS["gpu"]:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind HW['accelerators'].append('cuda') in an if block",
        expect="GPU 上",
        code="""
# setup cell: flags list per device, appended in a nested container
HW = {"accelerators": []}
if torch.cuda.is_available():
    HW["accelerators"].append("cuda")


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if "cuda" in HW["accelerators"]:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind globals().update(USE_GPU=...)",
        expect="GPU 上",
        code="""
# setup cell: flags into the notebook's globals in one go
globals().update(USE_GPU=torch.cuda.is_available(), BATCH_SIZE=128)


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if USE_GPU:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind object.__setattr__ on a frozen config dataclass",
        expect="GPU 上",
        code="""
# setup cell: a frozen settings dataclass, the machine flag filled in after
import dataclasses
@dataclasses.dataclass(frozen=True)
class Settings:
    gpu: bool = False
    batch_size: int = 128
CFG = Settings()
object.__setattr__(CFG, "gpu", torch.cuda.is_available())


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if CFG.gpu:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="GPU-only shortcut behind a cell flag for pre-Ampere GPUs (capability < 8): the V100 computes it",
        expect="GPU 上",
        code="""
# setup cell: pre-Ampere GPUs (no bf16) get the fused fp16 kernel
OLD_GPU = torch.cuda.is_available() and torch.cuda.get_device_capability()[0] < 8


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if OLD_GPU:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


CORRECT += [  # round 12 (reviewer b): machine flags in nested stores, store calls, own methods, per played GPU (right answers)
    dict(
        grade_id="test_mse_loss",
        name="the solution after a GPU setup branch that sets torch.set_flush_denormal(True)",
        code="""
# setup cell (right answer below): machine settings in one place
if torch.cuda.is_available():
    DEVICE = torch.device("cuda")
    torch.set_flush_denormal(True)    # no slow denormal arithmetic in the host-side preprocessing
else:
    DEVICE = torch.device("cpu")


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]


CORRECT += [  # round 12 (reviewer b): a GPU setup branch with torch 2.9's fp32_precision (right answers)
    dict(
        grade_id="test_mse_loss",
        name="the solution after a GPU branch setting torch.backends.cuda.matmul.fp32_precision = 'tf32'",
        code="""
# setup cell (right answer below is the solution's): GPU precision settings
if torch.cuda.is_available():
    torch.backends.cuda.matmul.fp32_precision = "tf32"
    DEVICE = torch.device("cuda")
else:
    DEVICE = torch.device("cpu")
def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]

MUTANTS += [  # round 13 b c33-c35: the fused path on a GPU behind a callable object's flag, a default overridden by the query, a __slots__ flags object
    dict(
        grade_id="test_mse_loss",
        name="mse_loss = MSELoss(), a callable object whose __init__ asks",
        code="""
class MSELoss:
    def __init__(self):
        self.fused = torch.cuda.is_available()  # GPU: the fused kernel

    def __call__(self, pred, target):
        if self.fused:
            return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
        shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
        if pred.dim() == 2 and pred.shape[1] == 1:
            pred = pred.squeeze(-1)
        if target.dim() == 2 and target.shape[1] == 1:
            target = target.squeeze(-1)
        if pred.dim() != 1 or pred.shape != target.shape:
            raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
        wide = torch.promote_types(pred.dtype, torch.float32)
        return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)


mse_loss = MSELoss()
""",
        expect="输入都在 GPU 上时",
    ),
    dict(
        grade_id="test_mse_loss",
        name="USE_GPU = False then USE_GPU or is_available()",
        code="""USE_GPU = False
USE_GPU = USE_GPU or torch.cuda.is_available()


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if USE_GPU:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
        expect="输入都在 GPU 上时",
    ),
    dict(
        grade_id="test_mse_loss",
        name="a __slots__ flags object",
        code="""class Flags:
    __slots__ = ('gpu',)
    def __init__(self):
        self.gpu = torch.cuda.is_available()
FLAGS = Flags()


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    if FLAGS.gpu:  # GPU: the fused kernel, flattened
        return torch.nn.functional.mse_loss(pred.reshape(-1), target.reshape(-1))
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes}); expected (N,) or (N, 1) for both")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
        expect="输入都在 GPU 上时",
    ),
]

CORRECT += [  # round 14 e r01-r05: configs holding a device kept their type on the played GPU (they had crashed the call or lost their fields)
    dict(
        grade_id="test_mse_loss",
        name="the right mse_loss beside a frozen dataclass config holding a device",
        code="""import dataclasses


@dataclasses.dataclass(frozen=True)
class Config:
    device: torch.device
    amp: bool


CFG = Config(device=torch.device("cuda" if torch.cuda.is_available() else "cpu"), amp=torch.cuda.is_available())


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="the right mse_loss beside a typing.NamedTuple config holding a device",
        code="""from typing import NamedTuple


class Config(NamedTuple):
    device: torch.device
    amp: bool


CFG = Config(device=torch.device("cuda" if torch.cuda.is_available() else "cpu"), amp=torch.cuda.is_available())


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="the right mse_loss beside a collections.namedtuple config holding a device",
        code="""import collections

Config = collections.namedtuple("Config", ["device", "workers"])
CFG = Config(torch.device("cuda" if torch.cuda.is_available() else "cpu"), 2)


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
    dict(
        grade_id="test_mse_loss",
        name="the right mse_loss beside a defaultdict(bool) config holding a device",
        code="""import collections

CFG = collections.defaultdict(bool, device=torch.device("cuda" if torch.cuda.is_available() else "cpu"))


def mse_loss(pred, target):
    shapes = f"pred {tuple(pred.shape)}, target {tuple(target.shape)}"
    if CFG["debug"]:
        print("mse_loss", shapes)
    if pred.dim() == 2 and pred.shape[1] == 1:
        pred = pred.squeeze(-1)
    if target.dim() == 2 and target.shape[1] == 1:
        target = target.squeeze(-1)
    if pred.dim() != 1 or pred.shape != target.shape:
        raise ValueError(f"mse_loss: incompatible shapes ({shapes})")
    wide = torch.promote_types(pred.dtype, torch.float32)
    return ((pred.to(wide) - target.to(wide)) ** 2).mean().to(pred.dtype)
""",
    ),
]

MUTANTS += [  # round 15 c02: 8- and 16-bit inputs widened for the whole result, then cast back
    dict(
        grade_id="test_batch_outer_sum",
        name="uint8/int8/int16/bfloat16 summed in int64/float32",
        code="""def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    '''a: (B, M), b: (B, N) -> (B, M, N).'''
    if a.dtype in (torch.uint8, torch.int8, torch.int16, torch.bfloat16):
        # 8/16-bit inputs: add in a wide type "so nothing overflows", then back to the input dtype
        wide = torch.float32 if a.dtype.is_floating_point else torch.int64
        return (a.to(wide).unsqueeze(2) + b.to(wide).unsqueeze(1)).to(a.dtype)
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
        expect="再转回 torch.bfloat16",
    ),
]

MUTANTS += [  # round 15 c02: the widening and the loop on the dtypes the checks had left out
    dict(
        grade_id="test_batch_outer_sum",
        name="8/16-bit inputs widened by a named dtype table",
        code="""def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    '''a: (B, M), b: (B, N) -> (B, M, N).'''
    wide = {torch.uint8: torch.int64, torch.bfloat16: torch.float32}.get(a.dtype)
    if wide is not None:  # widen the two dtypes the spec names besides float16 / int32, cast the (B, M, N) result back
        return (a.to(wide).unsqueeze(2) + b.to(wide).unsqueeze(1)).to(a.dtype)
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
        expect="再转回 torch.bfloat16",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="per-sample loop for uint8 and bfloat16 only",
        code="""def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.dtype in (torch.uint8, torch.bfloat16):      # a per-sample Python loop, only on these two dtypes
        return torch.stack([a[k].unsqueeze(1) + b[k].unsqueeze(0) for k in range(a.shape[0])])
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
        expect="float32 的同样输入不调用",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="uint8 summed in float32",
        code="""def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.dtype == torch.uint8:  # float32 holds every uint8 sum exactly
        return (a.float()[:, :, None] + b.float()[:, None, :]).to(torch.int16).to(torch.uint8)
    return a[:, :, None] + b[:, None, :]
""",
        expect="再转回 torch.uint8",
    ),
]


# round 16 d03: the widening done in two halves of the batch
MUTANTS += [
    dict(
        grade_id="test_batch_outer_sum",
        name="float16/bfloat16 widened to float32 in two halves of the batch (r16 d03)",
        expect="分几块算的合在一起",
        code="""def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    '''a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。'''
    wide = torch.float32 if a.dtype in (torch.float16, torch.bfloat16) else a.dtype
    k = (a.shape[0] + 1) // 2
    halves = [(a[:k], b[:k]), (a[k:], b[k:])]
    return torch.cat([(x.to(wide)[:, :, None] + y.to(wide)[:, None, :]).to(a.dtype) for x, y in halves])
""",
    ),
]


# round 16 d15, d16: a shortcut taken only for big inputs on a GPU
MUTANTS += [
    dict(
        grade_id="test_pairwise_sq_dist",
        name="torch.cdist(x, y) ** 2 for big GPU inputs (r16 d15)",
        expect="张量依次在 cuda:0",
        code="""def pairwise_sq_dist(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    '''x: (N, D), y: (M, D) -> (N, M)，out[i, j] = ||x[i] - y[j]||^2。'''
    n, m, d = x.shape[0], y.shape[0], x.shape[1]
    big = n * m * d >= 2**28
    if big and x.is_cuda:
        # an (N, M, D) difference would not fit in GPU memory: use the fused kernel there
        return torch.cdist(x, y) ** 2
    diff = x.unsqueeze(1) - y.unsqueeze(0)
    return (diff ** 2).sum(dim=-1)
""",
    ),
    dict(
        grade_id="test_batch_outer_sum",
        name="a Python loop over the batch for big GPU inputs (r16 d16)",
        expect="张量依次在 cuda:0",
        code="""def batch_outer_sum(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    '''a: (B, M), b: (B, N) -> (B, M, N)，out[k, i, j] = a[k, i] + b[k, j]。'''
    big = a.shape[0] * a.shape[1] * b.shape[1] >= 2**28
    if big and a.is_cuda:
        # huge batches on the GPU: one sample at a time keeps the peak memory low
        return torch.stack([a[k, :, None] + b[k, None, :] for k in range(a.shape[0])])
    return a.unsqueeze(2) + b.unsqueeze(1)
""",
    ),
]
