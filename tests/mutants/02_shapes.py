"""Wrong answers learners write for 02_shapes; each must fail its test cell with the message named."""

from tests.notebooks import edited, solution_with

MUTANTS = [
    # forward_one
    dict(
        grade_id="test_forward_one",
        name="bare squeeze() also drops the size-1 output dim",
        mistake="squeeze-without-dim",
        expect="squeeze(0)",
        code="def forward_one(model, sample):\n    return model(sample.unsqueeze(0)).squeeze()\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="calls the model without a batch dim",
        mistake="missing-batch-dim",
        expect="unsqueeze(0)",
        code="def forward_one(model, sample):\n    return model(sample)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="flatten() removes the batch dim and the sample's own dims",
        expect="展平",
        code="def forward_one(model, sample):\n    return model(sample.unsqueeze(0)).flatten()\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="keeps the batch dim in the output",
        expect="batch 维还在",
        code="def forward_one(model, sample):\n    return model(sample.unsqueeze(0))\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="adds the batch dim at the end",
        expect="unsqueeze(0)",
        code="def forward_one(model, sample):\n    return model(sample.unsqueeze(-1)).squeeze(-1)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="unsqueeze_ changes the caller's sample",
        expect="in-place",
        code="def forward_one(model, sample):\n    return model(sample.unsqueeze_(0)).squeeze(0)\n",
    ),
    # flatten_nhwc
    dict(
        grade_id="test_flatten_nhwc",
        name="flatten(1) keeps the (H, W, C) order",
        expect="(H, W, C) 的顺序",
        code="def flatten_nhwc(x):\n    return x.flatten(start_dim=1)\n",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="view after permute",
        mistake="view-after-permute",
        expect="view() 做不到",
        code="def flatten_nhwc(x):\n    return x.permute(0, 3, 1, 2).view(x.shape[0], -1)\n",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="transpose(1, 3) gives (C, W, H)",
        expect="(C, W, H)",
        code="def flatten_nhwc(x):\n    return x.transpose(1, 3).flatten(1)\n",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="flatten() also flattens the batch",
        expect="batch 维不见了",
        code="def flatten_nhwc(x):\n    return x.permute(0, 3, 1, 2).flatten()\n",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="reshape to (N, C, H, W) instead of permute",
        expect="(H, W, C) 的顺序",
        code="def flatten_nhwc(x):\n    n, h, w, c = x.shape\n    return x.reshape(n, c, h, w).flatten(1)\n",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="bare squeeze() drops N = 1 and C = 1",
        expect="flatten_nhwc",
        code="def flatten_nhwc(x):\n    return x.permute(0, 3, 1, 2).squeeze().flatten(1)\n",
    ),
    # shares_storage
    dict(
        grade_id="test_shares_storage",
        name="compares data_ptr(), wrong for slices",
        expect="untyped_storage().data_ptr()",
        code="def shares_storage(a, b):\n    return a.data_ptr() == b.data_ptr()\n",
    ),
    dict(
        grade_id="test_shares_storage",
        name="compares values with torch.equal",
        expect="数值相等、形状相同都不代表共享存储",
        code="def shares_storage(a, b):\n    return torch.equal(a, b)\n",
    ),
    dict(
        grade_id="test_shares_storage",
        name="compares Python identity",
        expect="a is b",
        code="def shares_storage(a, b):\n    return a is b\n",
    ),
    dict(
        grade_id="test_shares_storage",
        name="follows ._base one step",
        expect="同一个张量",
        code="def shares_storage(a, b):\n    return a._base is b or b._base is a\n",
    ),
    dict(
        grade_id="test_shares_storage",
        name="returns a tensor instead of bool",
        expect="Python bool",
        code="def shares_storage(a, b):\n"
        "    return torch.tensor(a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())\n",
    ),
    # to_nchw
    dict(
        grade_id="test_to_nchw",
        name="reshape instead of permute",
        mistake="reshape-instead-of-permute",
        expect="permute()",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        x = x.unsqueeze(0)\n"
        "    n, h, w, c = x.shape\n    return x.reshape(n, c, h, w)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="copies with contiguous()",
        mistake="copy-not-view",
        expect="contiguous()",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        x = x.unsqueeze(0)\n"
        "    return x.permute(0, 3, 1, 2).contiguous()\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="batch only: permute(0, 3, 1, 2) fails on one image",
        expect="permute",
        code="def to_nchw(x):\n    return x.permute(0, 3, 1, 2)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="one image as (C, H, W) without the batch dim",
        expect="batch 维",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        return x.permute(2, 0, 1)\n    return x.permute(0, 3, 1, 2)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="unsqueeze on a batch too",
        expect="5 维",
        code="def to_nchw(x):\n    return x.unsqueeze(0).movedim(-1, -3)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="transpose(1, 3) swaps H and C only",
        mistake="wrong-dim-order",
        expect="维度顺序",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        x = x.unsqueeze(0)\n    return x.transpose(1, 3)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="unsqueeze(0) of a permuted copy via torch.stack",
        expect="to_nchw",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        return torch.stack([x.permute(2, 0, 1)])\n"
        "    return x.permute(0, 3, 1, 2)\n",
    ),
    # patchify
    dict(
        grade_id="test_patchify",
        name="view after permute",
        expect="reshape()",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    return x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5).view(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="reshape without permute",
        expect="permute",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n    return x.reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="patches in column-major order",
        expect="row-major",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    return x.reshape(n, c, h // p, p, w // p, p).permute(0, 4, 2, 1, 3, 5).reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="channels last inside each patch",
        expect="(C, p, p)",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    return x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 3, 5, 1).reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="F.unfold cuts the patches",
        expect="unfold",
        code="def patchify(x, p):\n    return torch.nn.functional.unfold(x, kernel_size=p, stride=p).transpose(1, 2)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="nn.PixelUnshuffle cuts the patches",
        expect="pixel_unshuffle",
        code="def patchify(x, p):\n    return torch.nn.PixelUnshuffle(p)(x).flatten(2).transpose(1, 2)\n",
    ),
    # predict first
    dict(
        grade_id="test_predict_row_contiguous",
        formative=True,
        name="applies the product rule to the size-1 dim",
        expect="大小为 1 的维度",
        code="predict_row_contiguous = False\n",
    ),
    dict(
        grade_id="test_predict_row_contiguous",
        formative=True,
        name="answers with the stride",
        expect="之一",
        code="predict_row_contiguous = (1, 1)\n",
    ),
    dict(
        grade_id="test_predict_row_contiguous",
        formative=True,
        name="answers with a word",
        expect="之一",
        code="predict_row_contiguous = 'contiguous'\n",
    ),
    dict(
        grade_id="test_predict_slice_reshape_shares",
        formative=True,
        name="believes reshape always returns a view",
        expect="只能复制",
        code="predict_slice_reshape_shares = True\n",
    ),
    dict(
        grade_id="test_predict_slice_reshape_shares",
        formative=True,
        name="answers with a word",
        expect="之一",
        code="predict_slice_reshape_shares = 'copy'\n",
    ),
    dict(
        grade_id="test_predict_slice_reshape_shares",
        formative=True,
        name="leaves the placeholder",
        expect="还没有写预测",
        code="predict_slice_reshape_shares = None\n",
    ),
    # found by the issue-17 review (n123c): each passed every test before
    dict(
        grade_id="test_shares_storage",
        name="overlapping memory instead of the same storage",
        expect="时应返回 True，得到 False。不重叠的两个切片也共享同一块存储",
        code="import numpy as np\n"
        "def shares_storage(a, b):\n    return bool(np.may_share_memory(a.numpy(), b.numpy()))\n",
    ),
    dict(
        grade_id="test_shares_storage",
        name="hand-written address ranges overlap",
        expect="不重叠的两个切片也共享同一块存储",
        code="def shares_storage(a, b):\n"
        "    def span(t):\n"
        "        last = sum((n - 1) * s for n, s in zip(t.shape, t.stride()))\n"
        "        return t.data_ptr(), t.data_ptr() + (last + 1) * t.element_size()\n"
        "    (a0, a1), (b0, b1) = span(a), span(b)\n"
        "    return a0 < b1 and b0 < a1\n",
    ),
    dict(
        grade_id="test_patchify",
        name="pixel_unshuffle through torch.ops.aten",
        expect="patchify 用了 pixel_unshuffle / nn.PixelUnshuffle",
        code="def patchify(x, p):\n    return torch.ops.aten.pixel_unshuffle(x, p).flatten(2).transpose(1, 2)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="im2col through torch.ops.aten",
        expect="patchify 用了 torch.nn.functional.unfold / nn.Unfold",
        code="def patchify(x, p):\n"
        "    return torch.ops.aten.im2col(x, [p, p], [1, 1], [0, 0], [p, p]).transpose(1, 2)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="a Python loop over the patches",
        expect="只能来自 Python 循环或递归",  # stopped at tensors.STEP_LIMIT steps
        code="def patchify(x, p):\n"
        "    n, c, h, w = x.shape\n"
        "    return torch.stack([x[:, :, i:i+p, j:j+p].reshape(n, -1) for i in range(0, h, p) for j in range(0, w, p)], 1)\n",
    ),
    # found by the second issue-17 review (rv13): each passed every test before
    dict(
        grade_id="test_patchify",
        name="Tensor.unfold cuts the windows",
        expect="用了 Tensor.unfold",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    return x.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="unfold through torch.ops.aten",
        expect="用了 Tensor.unfold",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    g = torch.ops.aten.unfold(torch.ops.aten.unfold(x, 2, p, p), 3, p, p)\n"
        "    return g.permute(0, 2, 3, 1, 4, 5).reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="a Python loop over the rows of patches",
        expect="步数随块数增长",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    rows = [x[:, :, i * p:(i + 1) * p].reshape(n, c, p, w // p, p).permute(0, 3, 1, 2, 4)"
        ".reshape(n, w // p, c * p * p) for i in range(h // p)]\n"
        "    return torch.cat(rows, 1)\n",
    ),
    # found by the third issue-17 review (rfa): each passed every test before
    dict(
        grade_id="test_patchify",
        name="torch.unfold_copy, the copying Tensor.unfold",
        expect="patchify 用了 torch.unfold_copy",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    g = torch.unfold_copy(torch.unfold_copy(x, 2, p, p), 3, p, p)\n"
        "    return g.permute(0, 2, 3, 1, 4, 5).reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="conv2d with an identity kernel (the ViT patch embedding)",
        expect="patchify 用了 torch.nn.functional.conv2d",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    k = torch.eye(c * p * p, dtype=torch.float64).reshape(c * p * p, c, p, p)\n"
        "    out = torch.nn.functional.conv2d(x.double(), k, stride=p)\n"
        "    return out.flatten(2).transpose(1, 2).to(x.dtype)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="NumPy's sliding_window_view through a round trip",
        expect="patchify 用了 Tensor.numpy()：张量离开了 torch",
        code="import numpy as np\n"
        "def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    win = np.lib.stride_tricks.sliding_window_view(x.numpy(), (p, p), axis=(2, 3))[:, :, ::p, ::p]\n"
        "    g = torch.from_numpy(np.ascontiguousarray(win))\n"
        "    return g.permute(0, 2, 3, 1, 4, 5).reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="a batch of two copies of the sample",
        expect="模型收到的 batch 里有 2 个样本",
        code="def forward_one(model, sample):\n    return model(torch.stack([sample, sample]))[0]\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="switches the caller's model to eval mode and leaves it there",
        mistake="modifies-input",
        expect="之后，模型的 training（True -> False） 变了",
        code="def forward_one(model, sample):\n    model.eval()\n    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="NumPy through DLPack, then reshape and transpose there",
        expect="patchify 用了 np.from_dlpack(x)：张量离开了 torch",
        code="import numpy as np\n"
        "def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    a = np.from_dlpack(x).reshape(n, c, h // p, p, w // p, p).transpose(0, 2, 4, 1, 3, 5)\n"
        "    return torch.from_numpy(a.reshape(n, -1, c * p * p).copy())\n",
    ),
    # found by the closing issue-17 review (r0105): each passed every test before
    dict(
        grade_id="test_patchify",
        name="a Python loop over the positions inside a patch, strided slices stacked",
        expect="只能来自 Python 循环或递归",  # stopped at tensors.STEP_LIMIT steps
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    parts = torch.stack([x[:, :, u::p, v::p] for u in range(p) for v in range(p)], dim=2)\n"
        "    return parts.permute(0, 3, 4, 1, 2).reshape(n, (h // p) * (w // p), c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="a Python loop over the rows inside a patch, strided slices stacked",
        expect="块的边长 p",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    rows = torch.stack([x[:, :, u::p].unflatten(3, (w // p, p)) for u in range(p)], dim=4)\n"
        "    return rows.permute(0, 2, 3, 1, 4, 5).reshape(n, (h // p) * (w // p), c * p * p)\n",
    ),
    # issue-17 final pass (rva)
    dict(
        grade_id="test_forward_one",
        name="switches to eval() for the call and back to the caller's mode",
        mistake="switches-model-mode",
        expect="评估模式下运行",
        code="def forward_one(model, sample):\n    was_training = model.training\n    model.eval()\n"
        "    out = model(sample.unsqueeze(0)).squeeze(0)\n    model.train(was_training)\n    return out\n",
    ),
    dict(
        grade_id="test_patchify",
        name="fetches the elements by a computed index (x.reshape(n, -1)[:, idx])",
        expect="下标",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    idx = torch.arange(c * h * w).reshape(c, h // p, p, w // p, p).permute(1, 3, 0, 2, 4).reshape(-1)\n"
        "    return x.reshape(n, -1)[:, idx].reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="gathers by the formula's flat index with take_along_dim",
        expect="gather",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n    cols = w // p\n"
        "    l = torch.arange(h * w // (p * p))[:, None]\n    k = torch.arange(c * p * p)[None]\n"
        "    idx = (k // (p * p)) * h * w + ((l // cols) * p + (k // p) % p) * w + (l % cols) * p + k % p\n"
        "    flat = x.reshape(n, -1)\n"
        "    return torch.take_along_dim(flat, idx.reshape(1, -1).expand(n, -1), 1).reshape(n, -1, c * p * p)\n",
    ),
    # issue-17 fresh pass (rva5): each passed every test before
    dict(
        grade_id="test_patchify",
        name="places the elements by computed positions (out[:, dest] = x.reshape(n, -1))",
        expect="不是形状操作",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    dest = torch.arange(c * h * w).reshape(h // p, w // p, c, p, p).permute(2, 0, 3, 1, 4).reshape(-1)\n"
        "    out = torch.empty(n, c * h * w, dtype=x.dtype)\n    out[:, dest] = x.reshape(n, -1)\n"
        "    return out.reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="scatters the elements to computed positions",
        expect="不是形状操作",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    dest = torch.arange(c * h * w).reshape(h // p, w // p, c, p, p).permute(2, 0, 3, 1, 4).reshape(1, -1)\n"
        "    out = torch.zeros(n, c * h * w, dtype=x.dtype).scatter(1, dest.expand(n, -1), x.reshape(n, -1))\n"
        "    return out.reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="a permutation matrix from comparing positions, applied by multiply and sum",
        expect="不是形状操作",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n    m = c * h * w\n"
        "    dest = torch.arange(m).reshape(h // p, w // p, c, p, p).permute(2, 0, 3, 1, 4).reshape(-1)\n"
        "    perm = dest[:, None] == torch.arange(m)[None, :]\n"
        "    return (x.reshape(n, m, 1) * perm).sum(1).to(x.dtype).reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="freezes the caller's model for the call (requires_grad = False on its parameters)",
        mistake="modifies-input",
        expect="requires_grad（True -> False） 变了",
        code="def forward_one(model, sample):\n    for p in model.parameters():\n        p.requires_grad = False\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="clears the caller's gradients with zero_grad()",
        expect="的 .grad 变了",
        code="def forward_one(model, sample):\n    model.zero_grad()\n    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="the identity matrix permuted by shape ops, then a matrix product",
        expect="不是形状操作",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n    m = c * h * w\n"
        "    perm = torch.eye(m, dtype=torch.float64).reshape(c, h // p, p, w // p, p, m)"
        ".permute(1, 3, 0, 2, 4, 5).reshape(m, m)\n"
        "    return (x.reshape(n, m).double() @ perm.T).to(x.dtype).reshape(n, -1, c * p * p)\n",
    ),
]

# Right answers written another way: each must pass its test cell (tests/test_mutants.py).
CORRECT = [
    dict(
        grade_id="test_forward_one",
        name="runs the model under torch.no_grad()",
        code="def forward_one(model, sample):\n    with torch.no_grad():\n"
        "        return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="the solution written out step by step (straight-line code of 20 and more steps)",
        code="def patchify(x, p):\n    n = x.size(0)\n    c = x.size(1)\n    h = x.size(2)\n    w = x.size(3)\n"
        '    assert h % p == 0, "H must be a multiple of p"\n    assert w % p == 0, "W must be a multiple of p"\n'
        "    rows = h // p\n    cols = w // p\n    patch_dim = c * p * p\n    num_patches = rows * cols\n"
        "    blocks = x.reshape(n, c, rows, p, cols, p)\n    blocks = blocks.permute(0, 2, 4, 1, 3, 5)\n"
        "    out = blocks.reshape(n, num_patches, patch_dim)\n"
        "    assert out.shape == (n, num_patches, patch_dim)\n    return out\n",
    ),
    dict(
        grade_id="test_patchify",
        name="split into rows and columns of patches and stack them",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    rows = torch.stack(torch.split(x, p, dim=2), 1)\n"
        "    grid = torch.stack(torch.split(rows, p, dim=4), 2)\n    return grid.reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="unflatten, movedim and flatten",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    grid = x.unflatten(3, (w // p, p)).unflatten(2, (h // p, p)).movedim((2, 4), (1, 2))\n"
        "    return grid.flatten(3).flatten(1, 2)\n",
    ),
]

# The solution of forward_one as the notebook writes it; a mutant below is this text with one edit.
_FORWARD_ONE = "def forward_one(model, sample):\n    return model(sample.unsqueeze(0)).squeeze(0)\n"

MUTANTS += [  # issue-17 final pass (rvf5): right only on float32 samples (every tested model was float32)
    dict(
        grade_id="test_forward_one",
        name="casts the sample to float32 (an int64 sample of token ids for an Embedding breaks)",
        expect="Embedding(10, 3)",
        code=edited(_FORWARD_ONE, ("sample.unsqueeze(0)", "sample.unsqueeze(0).float()")),
    ),
    dict(
        grade_id="test_forward_one",
        name="casts the model to float32 (the caller's float64 model is converted in place)",
        expect="Linear(4, 2)，float64",
        code=edited(_FORWARD_ONE, ("model(sample", "model.float()(sample")),
    ),
]

MUTANTS += [  # issue-17 final pass (rvf5) ruled it right; s39: transpose_ on a view of x moves x's version counter,
    # and a caller's backward through a graph that saved x fails ("modified by an inplace operation")
    dict(
        grade_id="test_patchify",
        name="reorders the block dims with in-place transpose_ on its own view",
        mistake="modifies-input",
        expect="这块内存在调用中被写过",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n    b = x.reshape(n, c, h // p, p, w // p, p)\n"
        "    b.transpose_(1, 2)\n    b.transpose_(2, 4)\n    b.transpose_(3, 4)\n"
        "    return b.reshape(n, (h // p) * (w // p), c * p * p)\n",
    ),
]

MUTANTS += [  # issue-17 fresh pass (rwa): each passed every test before
    dict(
        grade_id="test_forward_one",
        name="switches only the BatchNorm submodules to eval() for the call and back",
        mistake="switches-model-mode",
        expect="得到的正是评估模式下的输出",
        code="def forward_one(model, sample):\n"
        "    bn = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) and m.training]\n"
        "    for m in bn:\n        m.eval()\n"
        "    out = model(sample.unsqueeze(0)).squeeze(0)\n"
        "    for m in bn:\n        m.train()\n    return out\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="switches only the BatchNorm submodules to eval() and leaves them there",
        mistake="modifies-input",
        expect="forward_one(BatchNorm2d(2)（训练模式）, sample (2, 3, 3)) 之后，模型的 training（True -> False） 变了",
        code="def forward_one(model, sample):\n"
        "    for m in model.modules():\n"
        "        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):\n            m.eval()\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="catches the training-mode BatchNorm1d error on a batch of one, runs again in eval() and switches back",
        mistake="switches-model-mode",
        expect="之后又在评估模式下被调用",
        code="def forward_one(model, sample):\n"
        "    x = sample.unsqueeze(0)\n"
        "    try:\n        return model(x).squeeze(0)\n"
        "    except ValueError:\n"
        "        was = model.training\n        model.eval()\n"
        "        try:\n            return model(x).squeeze(0)\n"
        "        finally:\n            model.train(was)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="single columns reordered by a NumPy-computed order (no Python loop lines) and joined by cat",
        expect="片数达到了块数",
        code="import numpy as np\n"
        "def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    order = np.arange(c * h * w).reshape(c, h // p, p, w // p, p).transpose(1, 3, 0, 2, 4).ravel().tolist()\n"
        "    cols = x.reshape(n, -1).split(1, dim=1)\n"
        "    return torch.cat([*map(cols.__getitem__, order)], 1).reshape(n, -1, c * p * p)\n",
    ),
]

MUTANTS += [  # issue-17 s31 review (ga)
    dict(  # passed every test: the parameters, their .grad and the outputs were as expected
        grade_id="test_forward_one",
        name="torch.set_grad_enabled(False) without with: grad mode left off for the caller",
        mistake="grad-mode-left-off",
        expect="grad mode 仍然关着",
        code="def forward_one(model, sample):\n"
        "    torch.set_grad_enabled(False)\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(  # passed every test: a BatchNorm's running statistics were updated twice, a Dropout drew twice
        grade_id="test_forward_one",
        name="calls the model once to check the batch dim, then again for the result",
        expect="调用了模型 2 次",
        code="def forward_one(model, sample):\n"
        "    x = sample.unsqueeze(0)\n"
        "    assert model(x).shape[0] == 1\n"
        "    return model(x).squeeze(0)\n",
    ),
    dict(  # was told the model ran first in training mode, then in evaluation mode (training = [False])
        grade_id="test_forward_one",
        name="switches only the BatchNorm1d submodules (the ones that raise on a batch of one) to eval() and back",
        mistake="switches-model-mode",
        expect="模型是在评估模式下被调用的（training = [False]）",
        code="def forward_one(model, sample):\n"
        "    bn = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm1d) and m.training]\n"
        "    for m in bn:\n        m.eval()\n"
        "    try:\n        return model(sample.unsqueeze(0)).squeeze(0)\n"
        "    finally:\n"
        "        for m in bn:\n            m.train()\n",
    ),
]

CORRECT += [  # issue-17 s31 review (ga): grad mode switched off for the call and restored is not left off
    dict(
        grade_id="test_forward_one",
        name="torch.set_grad_enabled(False) for the call, the caller's grad mode restored in a finally",
        code="def forward_one(model, sample):\n"
        "    previous = torch.is_grad_enabled()\n"
        "    torch.set_grad_enabled(False)\n"
        "    try:\n        return model(sample.unsqueeze(0)).squeeze(0)\n"
        "    finally:\n        torch.set_grad_enabled(previous)\n",
    ),
]

MUTANTS += [  # issue-17 s31 review (ga): passed every test (a Dropout in training mode still gave 0 or 2)
    dict(
        grade_id="test_forward_one",
        name="torch.manual_seed(0) first, for a reproducible output (the caller's global RNG is reseeded)",
        expect="重设了全局随机种子",
        code="def forward_one(model, sample):\n"
        "    torch.manual_seed(0)\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]

MUTANTS += [  # issue-17 s31 review (ga): passed every test (no tested model had a hook of its own)
    dict(
        grade_id="test_forward_one",
        name="calls model.forward directly (the module's hooks are skipped)",
        expect="没有经过 model(...) 调用模型",
        code="def forward_one(model, sample):\n    return model.forward(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]

MUTANTS += [  # s34 review (ha): a loop in TorchScript, called with torch functions off, showed no steps at all
    dict(
        grade_id="test_patchify",
        name="a TorchScript loop over the blocks, called under torch._C.DisableTorchFunction()",
        expect="步数随",
        code="_cu = torch.jit.CompilationUnit('''\n"
        "def patches(x, p: int):\n"
        "    n, c, h, w = x.size(0), x.size(1), x.size(2), x.size(3)\n"
        "    out = torch.empty([n, (h // p) * (w // p), c * p * p], dtype=x.dtype)\n"
        "    for i in range(h // p):\n"
        "        for j in range(w // p):\n"
        "            out[:, i * (w // p) + j] = x[:, :, i * p:(i + 1) * p, j * p:(j + 1) * p].reshape(n, c * p * p)\n"
        "    return out\n"
        "''')\n\n\n"
        "def patchify(x, p):\n"
        "    with torch._C.DisableTorchFunction():\n"
        "        return _cu.patches(x, p)\n",
    ),
]

MUTANTS += [  # s34 review (ha): the work done in a thread of its own, where none of the learner-side hooks look
    dict(
        grade_id="test_patchify",
        name="a Python loop over the blocks in a thread of its own",
        expect="把计算交给了另一个线程或进程",
        code="import threading\n\n\ndef patchify(x, p):\n"
        "    n, c, h, w = x.shape\n"
        "    box = []\n"
        "    def work():\n"
        "        box.append(torch.stack([x[:, :, i:i + p, j:j + p].reshape(n, -1)\n"
        "                                for i in range(0, h, p) for j in range(0, w, p)], dim=1))\n"
        "    worker = threading.Thread(target=work)\n"
        "    worker.start()\n    worker.join()\n    return box[0]\n",
    ),
]

MUTANTS += [  # s35 review (h1): a process-wide setting changed by the call and left so: every test passed
    dict(
        grade_id="test_forward_one",
        name="turns anomaly detection on 'to debug' and leaves it on for every later step",
        expect="torch.autograd.set_detect_anomaly() 设的值 (False, True) -> (True, True)",
        code="def forward_one(model, sample):\n"
        "    torch.autograd.set_detect_anomaly(True)\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="asks for deterministic algorithms and leaves the whole process so",
        expect="torch.use_deterministic_algorithms() 设的值",
        code="def forward_one(model, sample):\n"
        "    torch.use_deterministic_algorithms(True)\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="sets the default dtype to the sample's dtype and leaves it",
        expect="torch.set_default_dtype() 设的值",
        code="def forward_one(model, sample):\n"
        "    torch.set_default_dtype(torch.float64)\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]


MUTANTS += [  # s35 review (h1, second pass): process-wide settings left changed
    dict(
        grade_id="test_forward_one",
        name='sets one thread and cudnn.benchmark "for fast single-sample inference" and leaves both',
        expect="全局设置变了",  # threads or cudnn.benchmark: a sandboxed learner runs on one thread already
        code=(
            "def forward_one(model, sample):\n"
            "    torch.backends.cudnn.benchmark = True\n"
            "    torch.set_num_threads(1)\n"
            "    return model(sample.unsqueeze(0)).squeeze(0)\n"
        ),
    ),
]


MUTANTS += [  # s35 leftover: the model follows the sample (every tested device was the CPU)
    dict(
        grade_id="test_forward_one",
        name="model.to(sample.device) first: the caller's model moves to the sample's device",
        mistake="modifies-input",
        expect="模型的参数到了 ['meta']",
        code="def forward_one(model, sample):\n    model = model.to(sample.device)\n    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]


MUTANTS += [  # s36 (maintainer's own look at the new device check): a RuntimeError swallowed (the BatchNorm case raises ValueError)
    dict(
        grade_id="test_forward_one",
        name="a RuntimeError from the model swallowed: returns None",
        expect="返回了结果：模型和样本不在同一设备时",
        code=(
            "def forward_one(model, sample):\n"
            "    try:\n"
            "        return model(sample.unsqueeze(0)).squeeze(0)\n"
            "    except RuntimeError:\n"
            "        return None\n"
        ),
    ),
]


MUTANTS += [  # s36 review (a2): warnings filters left behind by shares_storage
    dict(
        grade_id="test_shares_storage",
        name="the usual fix for the TypedStorage warning: a filter for its message, left for the whole process",
        mistake="global-setting-changed",
        expect="新增 [('ignore', 'Warning', 'TypedStorage is deprecated')]",
        code=(
            "import warnings\n\n\n"
            "def shares_storage(a, b):\n"
            '    warnings.filterwarnings("ignore", message="TypedStorage is deprecated")\n'
            "    return a.storage().data_ptr() == b.storage().data_ptr()\n"
        ),
    ),
    dict(
        grade_id="test_shares_storage",
        name="warnings.simplefilter('ignore') in shares_storage (the visible test called it outside the watch)",
        mistake="global-setting-changed",
        expect="warnings.filterwarnings() / warnings.simplefilter()",
        code=(
            "import warnings\n\n\n"
            "def shares_storage(a, b):\n"
            '    warnings.simplefilter("ignore")\n'
            "    return a.storage().data_ptr() == b.storage().data_ptr()\n"
        ),
    ),
]


MUTANTS += [  # s37 review (a3): the model's error came out changed (only its coming out was checked)
    dict(
        grade_id="test_forward_one",
        name="re-raises the model's RuntimeError as a friendlier ValueError",
        expect="模型报了 RuntimeError，从函数里出来的却是 ValueError",
        code="def forward_one(model, sample):\n"
        "    try:\n        out = model(sample.unsqueeze(0))\n"
        "    except RuntimeError as err:\n"
        "        raise ValueError(f'forward_one failed on a sample of shape {tuple(sample.shape)}: {err}') from err\n"
        "    return out.squeeze(0)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="re-raises a new RuntimeError with the sample's shape added",
        expect="另一个 RuntimeError（新建的异常对象）",
        code="def forward_one(model, sample):\n"
        "    try:\n        out = model(sample.unsqueeze(0))\n"
        "    except RuntimeError as err:\n"
        "        raise RuntimeError(f'sample {tuple(sample.shape)} on {sample.device}: {err}') from err\n"
        "    return out.squeeze(0)\n",
    ),
]

CORRECT += [  # s37: catching the model's error to print something, then a bare raise, lets it out as it is
    dict(
        grade_id="test_forward_one",
        name="prints the sample's shape on an error, then a bare raise",
        code="def forward_one(model, sample):\n"
        "    try:\n        out = model(sample.unsqueeze(0))\n"
        "    except Exception:\n        print('forward_one failed on', tuple(sample.shape))\n        raise\n"
        "    return out.squeeze(0)\n",
    ),
]


MUTANTS += [  # s37 review (a3): through NumPy and back: the same memory, not a view of x (inputs all started at 0)
    dict(
        grade_id="test_to_nchw",
        name="x.numpy() transposed, back through torch.from_numpy",
        expect="用了 Tensor.numpy()",
        code="def to_nchw(x):\n    a = x.numpy()\n    if a.ndim == 3:\n        a = a[None]\n"
        "    return torch.from_numpy(a.transpose(0, 3, 1, 2))\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="np.asarray(x) transposed, back through torch.as_tensor",
        expect="用了 np.asarray(x)",
        code="import numpy as np\n\n\ndef to_nchw(x):\n    a = np.asarray(x)\n    if a.ndim == 3:\n        a = a[None]\n"
        "    return torch.as_tensor(a.transpose(0, 3, 1, 2))\n",
    ),
]

CORRECT += [  # s37: as_strided keeps x's storage offset (the new hidden inputs start inside a batch)
    dict(
        grade_id="test_to_nchw",
        name="as_strided with the strides reordered",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        x = x.unsqueeze(0)\n    n, h, w, c = x.shape\n"
        "    s0, s1, s2, s3 = x.stride()\n    return x.as_strided((n, c, h, w), (s0, s3, s1, s2))\n",
    ),
]


MUTANTS += [  # s37 review (a3): the (C, W, H) message named transpose(1, 3), which this answer does not use
    dict(
        grade_id="test_flatten_nhwc",
        name="permute(0, 3, 2, 1): the dims listed in reverse",
        expect="每个通道里的像素按 (W, H) 排列",
        code="def flatten_nhwc(x):\n    return x.permute(0, 3, 2, 1).flatten(start_dim=1)\n",
    ),
]


MUTANTS += [  # s37 review (a3): einops cut the patches and was told it loops (137 steps at 64 and at 4096 patches)
    dict(
        grade_id="test_patchify",
        name="functorch.einops.rearrange (ships with torch), the ViT one-liner",
        expect="patchify 用了 einops 的 rearrange",
        # from the submodule: the first call of functorch.einops.rearrange imports that submodule, which then
        # shadows the function on the package (only a second import in the same process, as here, sees it)
        code="from functorch.einops.rearrange import rearrange\n\n\ndef patchify(x, p):\n"
        "    return rearrange(x, 'n c (h p) (w q) -> n (h w) (c p q)', p=p, q=p)\n",
    ),
]


MUTANTS += [  # s38 (a4 of s37): a debugging hook registered on the caller's model and never removed
    dict(
        grade_id="test_forward_one",
        name="forward hook printing shapes, left on the caller's model",
        expect="调用者传入的模块或优化器上留下了 hook",
        mistake="hook-left-on-module",
        code="def forward_one(model, sample):\n"
        "    model.register_forward_hook(lambda m, inputs, output: print(tuple(output.shape)))\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="global forward hook (register_module_forward_hook) left registered",
        expect="_global_forward_hooks 0 个 -> 1 个",
        mistake="global-setting-changed",
        code="from torch.nn.modules.module import register_module_forward_hook\n\n\n"
        "def forward_one(model, sample):\n"
        "    register_module_forward_hook(lambda m, inputs, output: None)\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]

CORRECT += [  # s38: a hook removed in finally leaves the model as it was
    dict(
        grade_id="test_forward_one",
        name="forward hook registered and removed in finally",
        code="def forward_one(model, sample):\n"
        "    shapes = []\n"
        "    handle = model.register_forward_hook(lambda m, inputs, output: shapes.append(tuple(output.shape)))\n"
        "    try:\n        return model(sample.unsqueeze(0)).squeeze(0)\n    finally:\n        handle.remove()\n",
    ),
]

CORRECT += [  # s38 ruling on a4 of s37: as_strided with block strides the learner computed is a view, not a cut
    dict(
        grade_id="test_patchify",
        name="as_strided with hand-computed block strides",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n    sn, sc, sh, sw = x.stride()\n"
        "    blocks = x.as_strided((n, h // p, w // p, c, p, p), (sn, p * sh, p * sw, sc, sh, sw), x.storage_offset())\n"
        "    return blocks.reshape(n, (h // p) * (w // p), c * p * p)\n",
    ),
]


MUTANTS += [  # s38 review (a5): was told the values changed
    dict(
        grade_id="test_to_nchw",
        name="x.unsqueeze_(0) on the caller's 3-d input",
        expect="张量的形状从 (2, 3, 2) 变成了 (1, 2, 3, 2)",
        mistake="modifies-input",
        code=(
            "def to_nchw(x):\n"
            "    if x.dim() == 3:\n"
            "        x.unsqueeze_(0)            # one image: give it a batch dim (no copy)\n"
            "    return x.permute(0, 3, 1, 2)\n"
        ),
    ),
]


MUTANTS += [  # s38 (a5), fc3: a cached forward: after an optimizer step the same (model, sample) gave the old output
    dict(
        grade_id="test_forward_one",
        name="functools.lru_cache on forward_one: the model is not called on a repeat call",
        expect="第二次没有调用模型（模型的 forward pre-hook 一次也没有运行），返回了第一次的结果 [3.0]",
        code="import functools\n\n"
        "@functools.lru_cache(maxsize=256)\n"
        "def forward_one(model, sample):\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]


# s38 (a5), fa3
MUTANTS += [
    dict(
        grade_id="test_flatten_nhwc",
        name="x.float() ... .to(x.dtype): int64 above 2**24 and float64 lose their low bits in float32",
        expect="而与先换成 torch.float32、再转回 torch.int64 得到的完全相同",
        code="def flatten_nhwc(x):\n    return x.float().permute(0, 3, 1, 2).flatten(start_dim=1).to(x.dtype)\n",
    ),
    dict(
        grade_id="test_patchify",
        name="x.double() 'to be safe' ... .to(x.dtype): int64 above 2**53 loses its low bits",
        expect="而与先换成 torch.float64、再转回 torch.int64 得到的完全相同",
        code="def patchify(x, p):\n"
        "    n, c, h, w = x.shape\n"
        "    xf = x.double()\n"
        "    blocks = xf.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)\n"
        "    return blocks.reshape(n, (h // p) * (w // p), c * p * p).to(x.dtype)\n",
    ),
]


MUTANTS += [  # s38 review (a6): no tested x required grad (spec line added)
    dict(
        grade_id="test_to_nchw",
        name="x.detach() first: a view cut from x's graph",
        expect="grad_fn 是 None",
        mistake="detached-from-graph",
        code=(
            "def to_nchw(x):\n"
            "    x = x.detach()  # 只是换个布局给模型看，不需要梯度\n"
            "    if x.dim() == 3:\n"
            "        x = x.unsqueeze(0)\n"
            "    return x.permute(0, 3, 1, 2)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a7): an input changed in place and put back moves its version counter
    dict(
        grade_id="test_forward_one",
        name="unsqueezes_the_sample_in_place_and_squeezes_it_back",
        expect="这块内存在调用中被写过",
        mistake="modifies-input",
        code=(
            "def forward_one(model, sample):\n"
            "    sample.unsqueeze_(0)          # add the batch dim in place (no new tensor object)\n"
            "    try:\n"
            "        out = model(sample)\n"
            "    finally:\n"
            "        sample.squeeze_(0)        # put the caller's sample back as it was\n"
            "    return out.squeeze(0)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a7): an input changed in place and put back moves its version counter
    dict(
        grade_id="test_to_nchw",
        name="unsqueezes_the_image_in_place_and_squeezes_it_back",
        expect="这块内存在调用中被写过",
        mistake="modifies-input",
        code=(
            "def to_nchw(x):\n"
            "    if x.dim() == 3:\n"
            "        x.unsqueeze_(0)                 # batch dim in place: no copy, still x's storage\n"
            "        out = x.permute(0, 3, 1, 2)\n"
            "        x.squeeze_(0)                   # give the caller its (H, W, C) image back\n"
            "        return out\n"
            "    return x.permute(0, 3, 1, 2)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a9): a cache keyed on id and _version misses changes made through .data (a hand-written SGD step)
    dict(
        grade_id="test_forward_one",
        name="cache_keyed_on_ids_and_versions",
        expect="第二次没有调用模型",
        code=(
            "_out_cache = {}   # the same sample is often asked for again (e.g. a UI re-rendering one prediction)\n"
            "\n"
            "def forward_one(model, sample):\n"
            "    # key on the objects and their version counters: an optimizer step (p += ...) or an in-place change\n"
            "    # of the sample bumps a version, so a stale output is never reused\n"
            "    key = (id(model), id(sample), sample._version, tuple(p._version for p in model.parameters()))\n"
            "    hit = _out_cache.get(key)\n"
            "    if hit is None or hit[0] is not model or hit[1] is not sample:\n"
            "        hit = (model, sample, model(sample.unsqueeze(0)).squeeze(0))\n"
            "        _out_cache[key] = hit\n"
            "    return hit[2]\n"
        ),
    ),
]


MUTANTS += [  # s39 (a9): a cached result
    dict(
        grade_id="test_flatten_nhwc",
        name="lru_cache",
        expect="第二次返回的就是第一次返回的那个张量对象",
        code=(
            "import functools\n"
            "\n"
            "@functools.lru_cache(maxsize=None)   # the same batch is flattened again every epoch\n"
            "def flatten_nhwc(x):\n"
            "    return x.permute(0, 3, 1, 2).flatten(start_dim=1)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a9): a cached result
    dict(
        grade_id="test_patchify",
        name="lru_cache",
        expect="第二次返回的就是第一次返回的那个张量对象",
        code=(
            "import functools\n"
            "\n"
            "@functools.lru_cache(maxsize=None)   # the same images are patchified again every epoch\n"
            "def patchify(x, p):\n"
            "    n, c, h, w = x.shape\n"
            "    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)\n"
            "    return blocks.reshape(n, (h // p) * (w // p), c * p * p)\n"
        ),
    ),
]


MUTANTS += [  # stop 40 review (a8): the whole function under @torch.inference_mode() ("needs no autograd")
    dict(
        grade_id=f"test_{fn}",
        name=f"{fn} under @torch.inference_mode()",
        expect="是推理张量",
        mistake="inference-result",
        code=solution_with("02_shapes", fn, (f"def {fn}(", f"@torch.inference_mode()\ndef {fn}(")),
    )
    for fn in ("forward_one", "flatten_nhwc", "patchify")
] + [
    dict(  # a view of a normal tensor made in inference mode is a normal tensor, cut from the graph
        grade_id="test_to_nchw",
        name="to_nchw under @torch.inference_mode()",
        expect="inference_mode() 截断了梯度路径",
        mistake="detached-from-graph",
        code=solution_with("02_shapes", "to_nchw", ("def to_nchw(", "@torch.inference_mode()\ndef to_nchw(")),
    )
]


MUTANTS += [  # fix40 (a10 cand07): a cache keyed on the input's values hands every caller the same stored tensor
    dict(
        grade_id="test_flatten_nhwc",
        name="cache keyed on tuple(x.flatten().tolist()) returning the stored tensor",
        expect="第二次的结果就是第一次返回的那个张量对象",
        code=(
            "_flat = {}  # the same images come back every epoch: key on the pixel values, not on the tensor object\n"
            "\n"
            "\n"
            "def flatten_nhwc(x):\n"
            "    key = (tuple(x.shape), x.dtype, tuple(x.flatten().tolist()))\n"
            "    if key not in _flat:\n"
            "        _flat[key] = x.permute(0, 3, 1, 2).flatten(start_dim=1)\n"
            "    return _flat[key]\n"
        ),
    ),
]

MUTANTS += [  # fix42 (e1 cand14, cand16): no flatten_nhwc / patchify case was on another device (meta stands in for a GPU)
    dict(
        grade_id="test_flatten_nhwc",
        name="copies the permuted x into a buffer made without device= (a CPU result for a GPU x)",
        expect="拷出了它的设备",
        code="def flatten_nhwc(x):\n    n, h, w, c = x.shape\n    out = torch.empty(n, c * h * w, dtype=x.dtype)\n"
        "    out.view(n, c, h, w).copy_(x.permute(0, 3, 1, 2))\n    return out\n",
    ),
    dict(  # a CORRECT entry until fix42: the zeros output is made on the CPU whatever x's device
        grade_id="test_patchify",
        name="copies the permuted blocks into a zeros output made without device=",
        expect="拷出了它的设备",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    out = torch.zeros(n, h // p, w // p, c, p, p, dtype=x.dtype)\n"
        "    out[:] = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)\n"
        "    return out.reshape(n, -1, c * p * p)\n",
    ),
]

CORRECT += [  # fix42: the same copies into an output made on x's device
    dict(
        grade_id="test_patchify",
        name="copies the permuted blocks into a zeros output made with device=x.device",
        code="def patchify(x, p):\n    n, c, h, w = x.shape\n"
        "    out = torch.zeros(n, h // p, w // p, c, p, p, dtype=x.dtype, device=x.device)\n"
        "    out[:] = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)\n"
        "    return out.reshape(n, -1, c * p * p)\n",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="copies the permuted x into x.new_empty",
        code="def flatten_nhwc(x):\n    n, h, w, c = x.shape\n    out = x.new_empty(n, c * h * w)\n"
        "    out.view(n, c, h, w).copy_(x.permute(0, 3, 1, 2))\n    return out\n",
    ),
]

MUTANTS += [  # fix42 (e1 cand09): only a batch that required grad was checked, and only for a grad_fn
    dict(
        grade_id="test_to_nchw",
        name="one image through x.data.unsqueeze(0): a view, but cut from x's graph",
        expect="x.grad 是 None",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        x = x.data.unsqueeze(0)\n    return x.permute(0, 3, 1, 2)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="one image through a detached leaf that requires grad again: a grad_fn, but not x's graph",
        expect="x.grad 是 None",
        code="def to_nchw(x):\n    if x.dim() == 3:\n        x = x.detach().requires_grad_(x.requires_grad).unsqueeze(0)\n"
        "    return x.permute(0, 3, 1, 2)\n",
    ),
]

CORRECT += [  # fix42: indexing and movedim are views that keep x's graph
    dict(
        grade_id="test_to_nchw",
        name="x[None] for one image, then movedim(-1, 1)",
        code="def to_nchw(x):\n    return (x[None] if x.dim() == 3 else x).movedim(-1, 1)\n",
    ),
]

MUTANTS += [  # fix42 (e1 cand12): a meta sample cannot be copied, so the move raised before the model ran and passed
    dict(
        grade_id="test_forward_one",
        name="moves the sample to the model's device first (on a GPU: a silent copy to the CPU model)",
        expect="模型还没拿到样本，forward_one 自己就抛出了 NotImplementedError",
        code="def forward_one(model, sample):\n    x = sample.unsqueeze(0)\n    p = next(model.parameters(), None)\n"
        "    if p is not None:\n        x = x.to(p.device)\n    return model(x).squeeze(0)\n",
    ),
    dict(
        grade_id="test_forward_one",
        name="raises its own RuntimeError on a device mismatch instead of the model's",
        expect="模型还没拿到样本，forward_one 自己就抛出了 RuntimeError",
        code="def forward_one(model, sample):\n    p = next(model.parameters(), None)\n"
        "    if p is not None and p.device != sample.device:\n        raise RuntimeError(f'model on {p.device}, sample on {sample.device}')\n"
        "    return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]

MUTANTS += [  # fix44 (f1 cand13): no forward_one case had the model and the sample both on another device
    dict(
        grade_id="test_forward_one",
        name="hands the output back with .cpu() (a copy to the host on a GPU)",
        expect="Cannot copy out of meta tensor",
        code=("def forward_one(model, sample):\n    return model(sample.unsqueeze(0)).squeeze(0).cpu()\n"),
    ),
]

MUTANTS += [  # fix44 (f1 cand14): no to_nchw case was on another device (meta stands in for a GPU)
    dict(
        grade_id="test_to_nchw",
        name="the permuted view, then .cpu() (a copy to the host, not a view of x, on a GPU)",
        expect="Cannot copy out of meta tensor",
        code=(
            "def to_nchw(x):\n"
            "    if x.dim() == 3:\n"
            "        x = x.unsqueeze(0)\n"
            "    return x.permute(0, 3, 1, 2).cpu()\n"
        ),
    ),
]

MUTANTS += [  # fix44 (f1 cand20): in the kernel every tested slice had a _base whose storage starts at its first element
    dict(
        grade_id="test_shares_storage",
        name="follows ._base to the root and compares data_ptr() there (a detached slice has no _base)",
        expect="时应返回 True，得到 False",
        code=(
            "def shares_storage(a, b):\n"
            "    ra = a._base if a._base is not None else a\n"
            "    rb = b._base if b._base is not None else b\n"
            "    return ra.data_ptr() == rb.data_ptr()\n"
        ),
    ),
]


MUTANTS += [  # stop 46 (j1 cand02, 02b, 02d): a write probe into the caller's storages instead of comparing addresses
    dict(
        grade_id="test_shares_storage",
        name="a byte of a's storage bumped, b's byte read, then put back",
        expect="往 a 或 b 的内存里写了数据",
        mistake="modifies-input",
        code="""\
def shares_storage(a, b):
    # write probe: flips a byte of a's storage and sees if b's storage byte 0 moved (writes into the inputs)
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if sa.nbytes() != sb.nbytes():
        return False
    old, oldb = sa[0], sb[0]
    sa[0] = (old + 1) % 256
    same = sb[0] != oldb
    sa[0] = old
    return bool(same)
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="the same probe, the byte never put back",
        expect="往 a 或 b 的内存里写了数据",
        mistake="modifies-input",
        code="""\
def shares_storage(a, b):
    # write probe that does NOT put the byte back: corrupts the caller's data
    sa, sb = a.untyped_storage(), b.untyped_storage()
    oldb = sb[0]
    sa[0] = (sa[0] + 1) % 256
    return bool(sb[0] != oldb)
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="0xFF written over a's first element (a nan), never put back",
        expect="往 a 或 b 的内存里写了数据",
        mistake="modifies-input",
        code="""\
def shares_storage(a, b):
    # write probe that overwrites the first 4 bytes of a's storage with 0xFF (a float32 NaN) and never restores them
    sa, sb = a.untyped_storage(), b.untyped_storage()
    oldb = bytes(sb[i] for i in range(4))
    for i in range(4):
        sa[i] = 0xFF if oldb[i] != 0xFF else 0xFE
    return bytes(sb[i] for i in range(4)) != oldb
""",
    ),
]


MUTANTS += [  # stop 46 (j1): wrong only above (or below) a size the tests did not use
    dict(
        grade_id="test_to_nchw",
        name="a contiguous copy for inputs of 4096 elements or more",
        expect="是一份复制",
        code="""\
def to_nchw(x):
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    if x.numel() >= 4096:           # "conv is faster on contiguous input": every real image (>= 64x64) is COPIED
        out = out.contiguous()
    return out
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="a contiguous copy for inputs of 256 elements or more",
        expect="是一份复制",
        code="""\
def to_nchw(x):
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    if x.numel() >= 256:            # "conv is faster on contiguous input": every real image (>= 16x16) is COPIED
        out = out.contiguous()
    return out
""",
    ),
    dict(
        grade_id="test_forward_one",
        name="model.forward for samples of 256 elements or more",
        expect="没有经过 model(...) 调用模型",
        code="""\
def forward_one(model, sample):
    if sample.numel() >= 256:   # "big samples": call forward directly (skips every hook on the model)
        return model.forward(sample.unsqueeze(0)).squeeze(0)
    return model(sample.unsqueeze(0)).squeeze(0)
""",
    ),
    dict(
        grade_id="test_patchify",
        name="a loop over the rows of patches for up to 8 rows",
        expect="步数随块数增长",
        code="""\
def patchify(x, p):
    n, c, h, w = x.shape
    gh, gw = h // p, w // p
    if gh <= 8:
        # Python loop over the rows of patches (one cat piece per row) -- only for the sizes the tests use
        rows = []
        for i in range(gh):
            band = x[:, :, i * p:(i + 1) * p, :]                       # (N, C, p, W)
            band = band.reshape(n, c, p, gw, p).permute(0, 3, 1, 2, 4)  # (N, W/p, C, p, p)
            rows.append(band.reshape(n, gw, c * p * p))
        return torch.cat(rows, dim=1)
    blocks = x.reshape(n, c, gh, p, gw, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, gh * gw, c * p * p)
""",
    ),
    dict(
        grade_id="test_patchify",
        name="a loop over the rows of patches below 64 rows",
        expect="步数随块数增长",
        code="""\
def patchify(x, p):
    n, c, h, w = x.shape
    gh, gw = h // p, w // p
    if gh < 64:   # every real ViT input (224/16 = 14 rows) takes the loop
        # Python loop over the rows of patches (one cat piece per row) -- only for the sizes the tests use
        rows = []
        for i in range(gh):
            band = x[:, :, i * p:(i + 1) * p, :]                       # (N, C, p, W)
            band = band.reshape(n, c, p, gw, p).permute(0, 3, 1, 2, 4)  # (N, W/p, C, p, p)
            rows.append(band.reshape(n, gw, c * p * p))
        return torch.cat(rows, dim=1)
    blocks = x.reshape(n, c, gh, p, gw, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, gh * gw, c * p * p)
""",
    ),
]

MUTANTS += [  # stop 47: j1 cand15, an empty batch
    dict(
        grade_id="test_flatten_nhwc",
        name="reshape(n, -1): raises for an empty batch",
        expect="shape=(0, 4, 4, 3)",
        code="def flatten_nhwc(x):\n    return x.permute(0, 3, 1, 2).reshape(x.shape[0], -1)\n",
    ),
]

MUTANTS += [  # stop 47 review (m1): process-wide state the watch did not look at
    dict(
        grade_id="test_forward_one",
        name="a debugging wrapper left on torch.nn.Module.__call__",
        expect="torch.nn.Module.__call__",
        code="""
_orig_call = torch.nn.Module.__call__
def _debug_call(self, *args, **kwargs):
    return _orig_call(self, *args, **kwargs)
def forward_one(model, sample):
    torch.nn.Module.__call__ = _debug_call
    return model(sample.unsqueeze(0)).squeeze(0)
""",
    ),
    dict(
        grade_id="test_forward_one",
        name="CPU autocast's dtype left at float16",
        expect="torch.set_autocast_dtype()",
        code="""
def forward_one(model, sample):
    torch.set_autocast_dtype("cpu", torch.float16)
    return model(sample.unsqueeze(0)).squeeze(0)
""",
    ),
]

MUTANTS += [  # stop 47 review (m1): a branch only a GPU input takes
    dict(
        grade_id="test_patchify",
        name="the banned F.unfold on CUDA inputs, shape ops elsewhere",
        expect="用了 torch.nn.functional.unfold",
        code="""
def patchify(x, p):
    n, c, h, w = x.shape
    if x.is_cuda:
        return torch.nn.functional.unfold(x, p, stride=p).transpose(1, 2)
    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
]

MUTANTS += [  # stop 48 (m1 of stop 47): another path above a size the tests computed; a FakeTensor twin of 2**32
    # elements or more (course/fixtures/scale.py) now runs it
    dict(
        grade_id="test_flatten_nhwc",
        name="a plain reshape (H, W, C feature order) above 2**22 elements",
        expect="少了 _unsafe_view",
        code="""
def flatten_nhwc(x):
    if x.numel() >= 2**22:
        return x.reshape(x.shape[0], -1)
    return x.permute(0, 3, 1, 2).flatten(start_dim=1)
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="a contiguous copy instead of a view above 2**22 elements",
        expect="多了 clone",
        code="""
def to_nchw(x):
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    return out.contiguous() if x.numel() >= 2**22 else out
""",
    ),
    dict(
        grade_id="test_patchify",
        name="the banned F.unfold above 2**21 elements (a real ViT batch)",
        expect="多了 im2col",
        code="""
def patchify(x, p):
    n, c, h, w = x.shape
    if x.numel() >= 2**21:
        return torch.nn.functional.unfold(x, p, stride=p).transpose(1, 2)
    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() (first element) instead of the storage's for tensors of 2**20 elements or more",
        expect="按张量的大小走了另一条路",
        code="""
def shares_storage(a, b):
    if a.numel() >= 2**20 or b.numel() >= 2**20:
        return a.data_ptr() == b.data_ptr()
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
""",
    ),
]

MUTANTS += [  # stop 48 review (n1, n3, n4): each passed every test
    dict(
        grade_id="test_flatten_nhwc",
        name="on a GPU only: NumPy on the host, uploaded back (a round trip every call)",
        expect="在有 GPU 的机器上走的不是同一条路",
        code="""
import numpy as _np

def flatten_nhwc(x):
    n = x.shape[0]
    if x.is_cuda and x.dtype != torch.bfloat16 and not x.requires_grad:
        host = _np.ascontiguousarray(x.cpu().numpy().transpose(0, 3, 1, 2)).reshape(n, x.shape[1] * x.shape[2] * x.shape[3])
        return torch.from_numpy(host).to(x.device)
    return x.permute(0, 3, 1, 2).reshape(n, x.shape[1] * x.shape[2] * x.shape[3])
""",
    ),
]

MUTANTS += [  # stop 48 review (n1): device tests the played GPU did not play, paths only a GPU (or an empty input) takes
    dict(
        grade_id="test_patchify",
        name="F.unfold when get_device_capability() >= 7",
        expect="用了 torch.nn.functional.unfold",
        code="""
def _tensor_core_gpu(t):
    try:
        return t.is_cuda and torch.cuda.get_device_capability(t.device)[0] >= 7
    except RuntimeError:
        return False

def patchify(x, p):
    n, c, h, w = x.shape
    if _tensor_core_gpu(x):
        return torch.nn.functional.unfold(x, kernel_size=p, stride=p).transpose(1, 2)
    blocks = x.reshape(n, c, h // p, p, w // p, p)
    return blocks.permute(0, 2, 4, 1, 3, 5).reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="a contiguous copy where cudnn.is_acceptable(x)",
        expect="GPU 上走了另一条路",
        code="""
def to_nchw(x):
    out = (x.unsqueeze(0) if x.dim() == 3 else x).permute(0, 3, 1, 2)
    if x.is_cuda and torch.backends.cudnn.is_acceptable(x):
        out = out.contiguous()
    return out
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="a contiguous copy on a GPU only",
        expect="GPU 上走了另一条路",
        code="""
def to_nchw(x):
    out = (x.unsqueeze(0) if x.dim() == 3 else x).permute(0, 3, 1, 2)
    return out.contiguous() if x.is_cuda else out
""",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="an empty batch answered with a CPU float32 tensor",
        expect="结果的 dtype 和设备不随输入的大小改变",
        code="""
def flatten_nhwc(x):
    n, h, w, c = x.shape
    if n == 0:
        return torch.empty(0, c * h * w)
    return x.permute(0, 3, 1, 2).reshape(n, c * h * w)
""",
    ),
]

MUTANTS += [  # stop 50 review (r3): code that only a GPU runs
    dict(
        grade_id="test_forward_one",
        name="only on a GPU the output copied to the host (out.cpu())",
        expect="forward_one 做了 1 次主机-设备同步或阻塞的拷贝（.cpu()）",
        code='''
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    """sample：一个样本（没有 batch 维）-> model 对它的输出（没有 batch 维）。"""
    out = model(sample.unsqueeze(0)).squeeze(0)
    if out.is_cuda:
        out = out.cpu()  # one sample's output: hand it back on the host, ready to print / plot
    return out
''',
    ),
]

CORRECT += [  # stop 51 (reviewer c): the CPU side of the played-GPU comparison ran t.to(x.device) as a copy to the host
    dict(
        grade_id="test_forward_one",
        name="the output moved to the sample's device, a no-op .to(sample.device)",
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    out = model(sample.unsqueeze(0)).squeeze(0)
    return out.to(sample.device)  # the output stays with the sample (a no-op when it is already there)
""",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="the result kept on x's device with a no-op .to(x.device)",
        code="""
def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    out = x.permute(0, 3, 1, 2).flatten(start_dim=1)
    return out.to(x.device)  # the spec: the result stays on x's device (a no-op, it is already there)
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer c): the played-GPU comparison sees an autocast, TF32 or cuDNN switch that only the GPU run had
    dict(
        grade_id="test_forward_one",
        name="GPU-only torch.autocast('cuda'): a float32 model returns float16 on a GPU",
        expect='torch.autocast("cuda", dtype=torch.float16) 下运行',
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    batch = sample.unsqueeze(0)
    if sample.is_cuda:  # on a GPU: mixed precision is faster for inference
        with torch.autocast(device_type="cuda"):
            return model(batch).squeeze(0)
    return model(batch).squeeze(0)
""",
    ),
    dict(
        grade_id="test_forward_one",
        name="GPU-only TF32 matmuls for the call, put back in finally",
        expect="TF32（",
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    batch = sample.unsqueeze(0)
    if not sample.is_cuda:
        return model(batch).squeeze(0)
    before = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("high")  # TF32 tensor cores for this one call, put back after
    try:
        return model(batch).squeeze(0)
    finally:
        torch.set_float32_matmul_precision(before)
""",
    ),
]

MUTANTS += [  # stop 52: GPU-only branches in checks that hand the learner's function to a scenario (reviewer c, d of stop 51)
    dict(
        grade_id="test_forward_one",
        name="GPU-only squeeze() without dim: a single-score model's output loses its other size-1 dims",
        expect="不带 dim 的 squeeze()",
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    out = model(sample.unsqueeze(0))
    return out.squeeze() if sample.is_cuda else out.squeeze(0)
""",
    ),
    dict(
        grade_id="test_forward_one",
        name="GPU-only eval() for the call, the caller's mode put back in finally",
        expect="说明模型是在评估模式下运行的",
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    batch = sample.unsqueeze(0)
    if not sample.is_cuda:
        return model(batch).squeeze(0)
    # on the GPU: one sample is an inference request -> eval mode for the call, the caller's mode put back
    was_training = model.training
    model.eval()
    try:
        return model(batch).squeeze(0)
    finally:
        model.train(was_training)
""",
    ),
    dict(
        grade_id="test_forward_one",
        name="GPU-only model.forward(batch): the model's hooks skipped",
        expect="没有经过 model(...) 调用模型",
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    batch = sample.unsqueeze(0)
    # on the GPU skip the Python hook machinery of Module.__call__: call forward directly
    out = model.forward(batch) if sample.is_cuda else model(batch)
    return out.squeeze(0)
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="GPU-only channels_last copy through .to(memory_format=...)",
        expect="应该是输入的视图",
        code="""
def to_nchw(x: torch.Tensor) -> torch.Tensor:
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    # on a GPU hand cuDNN channels_last memory (a no-op when x is already packed NHWC)
    return out.to(memory_format=torch.channels_last if out.is_cuda else torch.preserve_format)
""",
    ),
]

CORRECT += [  # stop 52: reviewer c's cand06 of stop 51 is a right answer (no_grad is allowed, see above), GPU-only or not
    dict(
        grade_id="test_forward_one",
        name="torch.no_grad() on a GPU only (set_grad_enabled(is_grad_enabled() and not sample.is_cuda))",
        code="def forward_one(model, sample):\n"
        "    with torch.set_grad_enabled(torch.is_grad_enabled() and not sample.is_cuda):\n"
        "        return model(sample.unsqueeze(0)).squeeze(0)\n",
    ),
]

MUTANTS += [  # stop 53 reviewers (c F8/F9, b 5/6): a GPU machine with CPU inputs, and inputs on cuda:1 (course/fixtures/placement.py)
    dict(
        grade_id="test_to_nchw",
        name="x moved to the GPU when one is there and x is on the CPU (a copy, not a view of x)",
        expect="返回的张量在 cuda:0 上",
        code='''
def to_nchw(x: torch.Tensor) -> torch.Tensor:
    """(H, W, C) 或 (N, H, W, C) -> (N, C, H, W)，返回共享存储的视图。"""
    if not x.is_cuda and torch.cuda.is_available():
        x = x.cuda()  # images go to the GPU when there is one (the conv runs there)
    if x.dim() == 3:
        x = x.unsqueeze(0)
    return x.permute(0, 3, 1, 2)
''',
    ),
    dict(
        grade_id="test_patchify",
        name="the zeros output made with device=x.device.type (the GPU index dropped)",
        expect="不带编号的 GPU",
        code='''
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    """(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。"""
    n, c, h, w = x.shape
    out = torch.zeros(n, h // p, w // p, c, p, p, dtype=x.dtype, device=x.device.type)  # "cuda" / "cpu", like x
    out[:] = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return out.reshape(n, -1, c * p * p)
''',
    ),
    dict(
        grade_id="test_forward_one",
        name="model.cuda() and sample.cuda() when a GPU is there and the sample is on the CPU",
        expect="样本被搬到了模型的设备上",
        code='''
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    """sample：一个样本（没有 batch 维）-> model 对它的输出（没有 batch 维）。"""
    if not sample.is_cuda and torch.cuda.is_available():
        model.cuda()            # there is a GPU: run the model there
        sample = sample.cuda()
    return model(sample.unsqueeze(0)).squeeze(0)
''',
    ),
]

MUTANTS += [  # stop 53 reviewer c F10: the dropped GPU index was told it took another path on the GPU; the played cuda:1 now names it, before the played-GPU comparison
    dict(
        grade_id="test_flatten_nhwc",
        name="the output made with device=x.device.type (the GPU index dropped), filled through a view",
        expect="不带编号的 GPU",
        code='''
def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    """(N, H, W, C) -> (N, C*H*W)，每个样本按 (C, H, W) 的顺序展平。"""
    n, h, w, c = x.shape
    out = torch.empty(n, c * h * w, dtype=x.dtype, device=x.device.type)  # on the same kind of device as x
    out.view(n, c, h, w).copy_(x.permute(0, 3, 1, 2))
    return out
''',
    ),
]

MUTANTS += [  # stop 53 reviewer c F3: flatten_nhwc and patchify were played on a GPU on one float32 case only; their hidden checks now run again on a played GPU
    dict(
        grade_id="test_flatten_nhwc",
        name="on a GPU the pixels moved as float32 and back to x's dtype (int64 above 2**24 loses its low bits)",
        expect="aten._to_copy",
        code='''
def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    """(N, H, W, C) -> (N, C*H*W)，每个样本按 (C, H, W) 的顺序展平。"""
    # on the GPU move the pixels as float32 (the permute-copy kernel is tuned for it), then back to x's dtype
    work = torch.float32 if x.is_cuda else x.dtype
    return x.to(work).permute(0, 3, 1, 2).flatten(start_dim=1).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_patchify",
        name="on a GPU the blocks moved as float32 and back to x's dtype",
        expect="的数值与原来的元素不完全相同",
        code='''
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    """(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。"""
    n, c, h, w = x.shape
    work = torch.float32 if x.is_cuda else x.dtype  # GPU copy kernels: move the pixels as float32, cast back at the end
    blocks = x.to(work).reshape(n, c, h // p, p, w // p, p)
    blocks = blocks.permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_patchify",
        name="F.unfold when p >= 8 and x is on a GPU",
        expect="torch.nn.functional.unfold",
        code='''
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    """(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。"""
    n, c, h, w = x.shape
    if p >= 8 and x.is_cuda:  # ViT-sized patches (16 x 16) on the GPU: the fused im2col kernel
        return torch.nn.functional.unfold(x, kernel_size=p, stride=p).transpose(1, 2)
    blocks = x.reshape(n, c, h // p, p, w // p, p)
    blocks = blocks.permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
''',
    ),
]

MUTANTS += [  # stop 54 reviewer g: round trips through a GPU, a 0-d device fill value, and copies of tensors already on a GPU target
    dict(
        grade_id="test_to_nchw",
        name="on a GPU machine with CPU x: moved to the GPU, permuted, moved back (a copy, not a view)",
        expect="调用期间有张量到了 cuda:0 上",
        code='''
def to_nchw(x: torch.Tensor) -> torch.Tensor:
    """(H, W, C) 或 (N, H, W, C) -> (N, C, H, W)，返回共享存储的视图。"""
    home = x.device
    if torch.cuda.is_available() and x.device.type == "cpu":
        x = x.to("cuda")  # 有 GPU 就在 GPU 上算
    if x.dim() == 3:
        x = x.unsqueeze(0)
    return x.permute(0, 3, 1, 2).to(home)  # 结果还给调用者的设备
''',
    ),
]

MUTANTS += [  # stop 55 reviewers c, d: a loop over the channels (C was 2 or 3 in every step count); a copy made only on a GPU machine with CPU inputs (placement compares views now)
    dict(
        grade_id="test_patchify",
        name="a Python loop over the channels, each cut with reshape/permute and the pieces joined with torch.cat",
        expect="步数却随通道的个数增长",
        code="""
def patchify(x, p):
    n, c, h, w = x.shape
    per_channel = []
    for ch in range(c):  # one channel at a time: its (p, p) patches, then side by side in (C, p, p) order
        blocks = x[:, ch].reshape(n, h // p, p, w // p, p).permute(0, 1, 3, 2, 4)
        per_channel.append(blocks.reshape(n, (h // p) * (w // p), p * p))
    return torch.cat(per_channel, dim=-1)
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="a contiguous copy, not a view, on a GPU machine when the image is on the CPU (x.device.type == 'cpu' and cuda available)",
        expect="返回的张量是一份拷贝，没有 GPU 时它是输入的视图",
        code='''
def to_nchw(x: torch.Tensor) -> torch.Tensor:
    """(H, W, C) 或 (N, H, W, C) -> (N, C, H, W)，返回共享存储的视图。"""
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    if x.device.type == "cpu" and torch.cuda.is_available():
        # 有 GPU、数据却还在 CPU 上：它马上要被上传，先整理成连续内存，上传时一次拷一整块
        out = out.contiguous()
    return out
''',
    ),
]

MUTANTS += [  # stop 55 reviewer d: a dtype branch (grad_paths with dtypes)
    dict(
        grade_id="test_patchify",
        name="integer images cut patch by patch in a Python loop",
        expect="输入是 torch.int64 时",
        code="""
def patchify(x, p):
    n, c, h, w = x.shape
    if not x.is_floating_point():  # integer images: copy patch by patch, values untouched
        rows = [x[:, :, i:i + p, j:j + p].reshape(n, c * p * p) for i in range(0, h, p) for j in range(0, w, p)]
        return torch.stack(rows, dim=1)
    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
]

MUTANTS += [  # stop 55 round 2 reviewer h
    dict(
        grade_id="test_patchify",
        name="a loop over patches when x is not contiguous",
        expect="输入不连续",
        code='''
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    """(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。"""
    n, c, h, w = x.shape
    if not x.is_contiguous():  # a strided image (channels_last, a transposed view): cut it patch by patch
        patches = [x[:, :, i:i + p, j:j + p].reshape(n, c * p * p) for i in range(0, h, p) for j in range(0, w, p)]
        return torch.stack(patches, dim=1)
    blocks = x.reshape(n, c, h // p, p, w // p, p)
    blocks = blocks.permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
''',
    ),
]

MUTANTS += [  # stop 56 reviewer k: grad_paths for to_nchw, forward_one inside the caller's no_grad, shares_storage on a played GPU
    dict(
        grade_id="test_patchify",
        name="a loop over the rows of patches whenever x requires grad",
        expect="需要梯度时",
        code='''
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    """(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。"""
    n, c, h, w = x.shape
    rows = h // p
    step = 1 if x.requires_grad else max(rows, 1)  # while training: one row of patches at a time (smaller copies)
    parts = []
    for band in x.split(step * p, dim=2):
        k = band.shape[2] // p
        blocks = band.reshape(n, c, k, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
        parts.append(blocks.reshape(n, k * (w // p), c * p * p))
    return torch.cat(parts, 1)
''',
    ),
    dict(
        grade_id="test_to_nchw",
        name="a .contiguous() copy whenever grad mode is off (inference)",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code='''
def to_nchw(x: torch.Tensor) -> torch.Tensor:
    """(H, W, C) 或 (N, H, W, C) -> (N, C, H, W)，返回共享存储的视图。"""
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    if not torch.is_grad_enabled():  # inference: hand the conv a dense NCHW tensor (cudnn's fast path)
        out = out.contiguous()
    return out
''',
    ),
    dict(
        grade_id="test_forward_one",
        name="eval() for the call inside the caller's no_grad",
        expect="在调用方的 with torch.no_grad(): 里",
        code='''
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    """sample：一个样本（没有 batch 维）-> model 对它的输出（没有 batch 维）。"""
    batch = sample.unsqueeze(0)
    if torch.is_grad_enabled():
        return model(batch).squeeze(0)
    was_training = model.training  # inference (the caller's no_grad): BatchNorm/Dropout in eval mode for one sample
    model.eval()
    try:
        return model(batch).squeeze(0)
    finally:
        model.train(was_training)
''',
    ),
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() compared on GPU tensors (a slice answered False)",
        expect="输入都在 GPU 上时",
        code='''
def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    """a、b 任意形状（非空）-> a 与 b 是否使用同一块存储。"""
    if a.is_cuda or b.is_cuda:  # device memory: compare the device pointers directly
        return a.data_ptr() == b.data_ptr()
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
''',
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_patchify",
        name="F.unfold for float16 / bfloat16 images",
        expect="输入是 torch.float16 时",
        code="""
import torch.nn.functional as F


def patchify(x, p):
    n, c, h, w = x.shape
    if x.dtype in (torch.float16, torch.bfloat16):   # mixed-precision ViT: im2col's fused kernel for half precision
        return F.unfold(x, kernel_size=p, stride=p).transpose(1, 2)
    blocks = x.reshape(n, c, h // p, p, w // p, p)
    blocks = blocks.permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="a .contiguous() copy for float16 / bfloat16 input",
        expect="输入是 torch.float16 时",
        code="""
def to_nchw(x):
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    if x.dtype in (torch.float16, torch.bfloat16):   # half-precision conv kernels want a dense NCHW input
        out = out.contiguous()
    return out
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="a .contiguous() copy on a GPU with grad off",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code="""
def to_nchw(x):
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    if x.is_cuda and not torch.is_grad_enabled():   # GPU inference: cuDNN wants a dense NCHW batch
        out = out.contiguous()
    return out
""",
    ),
    dict(
        grade_id="test_patchify",
        name="F.unfold on a GPU with grad off",
        expect="在调用方的 with torch.no_grad(): 里调用时",
        code="""
import torch.nn.functional as F


def patchify(x, p):
    n, c, h, w = x.shape
    if x.is_cuda and not torch.is_grad_enabled():   # GPU inference: im2col kernel
        return F.unfold(x, kernel_size=p, stride=p).transpose(1, 2)
    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
]

CORRECT += [  # stop 56 o cand21 (ruled right): a guarded contiguous() before view is the copy reshape makes
    dict(
        grade_id="test_patchify",
        name="if not x.is_contiguous(): x = x.contiguous(), then view / permute / reshape",
        code="""
def patchify(x, p):
    n, c, h, w = x.shape
    if not x.is_contiguous():          # view needs a contiguous input
        x = x.contiguous()
    blocks = x.view(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
]

MUTANTS += [  # stop 57 reviewer s (round 3): forward_one across played GPUs, graph kept, uint8 on a GPU
    dict(
        grade_id="test_forward_one",
        name="sample_sent_to_the_models_gpu",
        expect="GPU 上的模型, CPU 上的 sample",
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    p = next(model.parameters(), None)
    if p is not None and p.is_cuda and sample.device != p.device:  # model on the GPU: send the sample there
        sample = sample.to(p.device)
    return model(sample.unsqueeze(0)).squeeze(0)
""",
    ),
    dict(
        grade_id="test_forward_one",
        name="model_sent_to_the_samples_gpu",
        expect="CPU 上的模型, GPU 上的 sample",
        code="""
def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    p = next(model.parameters(), None)
    if sample.is_cuda and p is not None and p.device != sample.device:  # sample on the GPU: bring the model along
        model.to(sample.device)
    return model(sample.unsqueeze(0)).squeeze(0)
""",
    ),
    dict(
        grade_id="test_patchify",
        name="no_grad_decorator",
        expect="不在计算图里",
        code="""
@torch.no_grad()  # preprocessing: cutting images into patches needs no graph
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    n, c, h, w = x.shape
    blocks = x.reshape(n, c, h // p, p, w // p, p)
    blocks = blocks.permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name="contiguous_copy_for_a_gpu_leaf",
        expect="输入是需要梯度的参数时",
        code="""
def to_nchw(x: torch.Tensor) -> torch.Tensor:
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    if x.is_cuda and x.is_leaf and x.requires_grad:  # saliency maps on the GPU: hand cuDNN a dense NCHW image
        out = out.contiguous()
    return out
""",
    ),
    dict(
        grade_id="test_patchify",
        name="uint8_through_float_on_a_gpu",
        expect="再转回 torch.uint8",  # the dtype check (round 16) sees the float32 copy before the grad-mode paths do
        code="""
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    dtype = x.dtype
    if x.is_cuda and dtype == torch.uint8:  # uint8 images on the GPU: work in float, back to uint8 at the end
        x = x.float()
    n, c, h, w = x.shape
    blocks = x.reshape(n, c, h // p, p, w // p, p)
    blocks = blocks.permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p).to(dtype)
""",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="uint8_through_float_on_a_gpu",
        expect="uint8",
        code="""
def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    dtype = x.dtype
    if x.is_cuda and dtype == torch.uint8:  # uint8 images on the GPU: work in float, back to uint8 at the end
        x = x.float()
    return x.permute(0, 3, 1, 2).flatten(start_dim=1).to(dtype)
""",
    ),
]

MUTANTS += [  # stop 57 round 4 (w): two caller states at once, integer images on every device
    dict(
        grade_id="test_patchify",
        name="unfold_when_x_requires_grad_inside_no_grad",
        expect="、在调用方的 with torch.no_grad(): 里调用时",
        code='''
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    """(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。"""
    if x.requires_grad and not torch.is_grad_enabled():
        # a trained layer's output at inference: no graph needed, the library's im2col is faster
        return torch.nn.functional.unfold(x, kernel_size=p, stride=p).transpose(1, 2)
    n, c, h, w = x.shape
    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
''',
    ),
    dict(
        grade_id="test_patchify",
        name="uint8_through_float_on_every_device",
        expect="再转回 torch.uint8",  # the dtype check (round 16) sees the float32 copy first
        code='''
def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    """(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。"""
    dtype = x.dtype
    if dtype == torch.uint8:            # 8-bit images: work in float32 like the rest of the model, back to uint8 at the end
        x = x.to(torch.float32)
    n, c, h, w = x.shape
    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p).to(dtype)
''',
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="uint8_through_float_on_every_device",
        expect="输入是 torch.uint8 时",
        code='''
def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    """(N, H, W, C) -> (N, C*H*W)，每个样本按 (C, H, W) 的顺序展平。"""
    dtype = x.dtype
    if dtype == torch.uint8:            # 8-bit images: work in float32, back to uint8 at the end
        x = x.to(torch.float32)
    return x.permute(0, 3, 1, 2).flatten(start_dim=1).to(dtype)
''',
    ),
]


MUTANTS += [  # round 10 d: GPU-only branches on the storage's device (a played GPU's storage reads as on it now)
    dict(
        grade_id="test_forward_one",
        name="a bare squeeze() on the GPU only, branched on the storage's device",
        expect="squeeze",
        code="""
def forward_one(model, sample):
    out = model(sample.unsqueeze(0))
    if sample.untyped_storage().device.type == "cuda":
        return out.squeeze()          # on the GPU: drop every size-1 dim of the output
    return out.squeeze(0)
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() equality on the GPU only, branched on the storage's device",
        expect="GPU 上",
        code="""
def shares_storage(a, b):
    if a.untyped_storage().device.type == "cuda":
        return a.data_ptr() == b.data_ptr()      # device pointers: compare the tensors' own addresses
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() equality on the GPU only, branched on untyped_storage().is_cuda",
        expect="GPU 上",
        code="""
def shares_storage(a, b):
    if a.untyped_storage().is_cuda:
        return a.data_ptr() == b.data_ptr()      # device pointers: compare the tensors' own addresses
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
""",
    ),
]


MUTANTS += [  # round 11 b: GPU-only branches on the storage's device by other spellings; a right answer comparing storages with is
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() on the GPU only, branched on untyped_storage().get_device()",
        expect="GPU 上",
        code="""
def shares_storage(a, b):
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if sa.get_device() is not None:  # GPU storage: compare the tensors' own addresses
        return a.data_ptr() == b.data_ptr()
    return sa.data_ptr() == sb.data_ptr()
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() on the GPU only, branched on storage().type()",
        expect="GPU 上",
        code="""
def shares_storage(a, b):
    if a.storage().type().startswith("torch.cuda"):  # GPU storage (torch.cuda.FloatStorage): compare the tensors' own addresses
        return a.data_ptr() == b.data_ptr()
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() on the GPU only, branched on untyped_storage().untyped().device",
        expect="GPU 上",
        code="""
def shares_storage(a, b):
    sa = a.untyped_storage()
    if sa.untyped().device.type == "cuda":  # GPU storage: compare the tensors' own addresses
        return a.data_ptr() == b.data_ptr()
    return sa.data_ptr() == b.untyped_storage().data_ptr()
""",
    ),
    dict(
        grade_id="test_shares_storage",
        name="data_ptr() on the GPU only, branched on untyped_storage().clone().device",
        expect="GPU 上",
        code="""
def shares_storage(a, b):
    if a.untyped_storage().clone().device.type == "cuda":  # GPU: compare the tensors' own addresses
        return a.data_ptr() == b.data_ptr()
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
""",
    ),
]


CORRECT += [  # round 11 b: GPU-only branches on the storage's device by other spellings; a right answer comparing storages with is (right answers)
    dict(
        grade_id="test_shares_storage",
        name="a.untyped_storage() is b.untyped_storage()",
        code="""
def shares_storage(a, b):
    # 同一块存储 <=> 同一个存储对象（PyTorch 为每块存储只保留一个 Python 对象）
    return a.untyped_storage() is b.untyped_storage()
""",
    ),
]


CORRECT += [  # round 12 (reviewer b): GPU setup branches with torch 2.9's fp32_precision (a warning torch raises there is no monkey patch) (right answers)
    dict(
        grade_id="test_forward_one",
        name="the solution after a GPU branch setting torch.backends.cuda.matmul.fp32_precision = 'tf32'",
        code="""
# setup cell (right answer below is the solution's): GPU precision settings
if torch.cuda.is_available():
    torch.backends.cuda.matmul.fp32_precision = "tf32"
    DEVICE = torch.device("cuda")
else:
    DEVICE = torch.device("cpu")


def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    return model(sample.unsqueeze(0)).squeeze(0)
""",
    ),
    dict(
        grade_id="test_forward_one",
        name="the solution after a GPU branch setting torch.backends.cudnn.fp32_precision = 'tf32'",
        code="""
# setup cell (right answer below is the solution's): GPU settings
if torch.cuda.is_available():
    torch.backends.cudnn.fp32_precision = "tf32"
    DEVICE = torch.device("cuda")
else:
    DEVICE = torch.device("cpu")


def forward_one(model, sample: torch.Tensor) -> torch.Tensor:
    return model(sample.unsqueeze(0)).squeeze(0)
""",
    ),
]

MUTANTS += [  # round 15 c04: float16 / bfloat16 images permuted in float32, then cast back
    dict(
        grade_id="test_flatten_nhwc",
        name="half types round-tripped through float32",
        code="""def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    if x.dtype in (torch.float16, torch.bfloat16):   # "half types: do the permute in float32, give the dtype back"
        return x.float().permute(0, 3, 1, 2).flatten(start_dim=1).to(x.dtype)
    return x.permute(0, 3, 1, 2).flatten(start_dim=1)
""",
        expect="再转回 torch.float16",
    ),
]


# round 16 d01, d04: what differed, with the causes it can be (a full-size index; a loop over a dimension)
MUTANTS += [
    dict(
        grade_id="test_flatten_nhwc",
        name="a gather by an int64 index as big as x (r16 d01)",
        expect="按元素建一个和输入一样大的 torch.int64 索引也会这样",
        code="""def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    '''(N, H, W, C) -> (N, C*H*W)，每个样本按 (C, H, W) 的顺序展平。'''
    n, h, w, c = x.shape
    # where each output element comes from: the flat position in x of x[n, h, w, c], in (n, c, h, w) order
    src = torch.arange(x.numel(), device=x.device).reshape(n, h, w, c).permute(0, 3, 1, 2).reshape(-1)
    return x.reshape(-1)[src].reshape(n, c * h * w)
""",
    ),
    dict(
        grade_id="test_flatten_nhwc",
        name="torch.cat of one slice per channel (r16 d04)",
        expect="对输入的某一维写 Python 循环",
        code="""def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    '''(N, H, W, C) -> (N, C*H*W)，每个样本按 (C, H, W) 的顺序展平。'''
    # channel 0's H*W pixels first, then channel 1's, ...
    return torch.cat([x[..., c].flatten(start_dim=1) for c in range(x.shape[3])], dim=1)
""",
    ),
]


# round 16 d02, d12: a dtype round trip done in two halves of the batch; patchify's images kept in their dtype too
MUTANTS += [
    dict(
        grade_id="test_flatten_nhwc",
        name="float16/bfloat16 round-tripped through float32 in two halves of the batch (r16 d02)",
        expect="中间结果合起来和整个输入一样大",
        code="""def flatten_nhwc(x: torch.Tensor) -> torch.Tensor:
    '''(N, H, W, C) -> (N, C*H*W)，每个样本按 (C, H, W) 的顺序展平。'''
    wide = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    half = (x.shape[0] + 1) // 2
    return torch.cat([p.to(wide).permute(0, 3, 1, 2).flatten(1).to(x.dtype) for p in (x[:half], x[half:])])
""",
    ),
    dict(
        grade_id="test_patchify",
        name="float16/bfloat16 images always cut in float32 and cast back (r16 d12)",
        expect="再转回 torch.float16",
        code="""def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    '''(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。'''
    n, c, h, w = x.shape
    half = x.dtype in (torch.float16, torch.bfloat16)
    y = x.float() if half else x  # half images: cut the patches in float32
    blocks = y.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p).to(x.dtype)
""",
    ),
]


# round 16 d14, d18: a shortcut taken only for big inputs on a GPU
MUTANTS += [
    dict(
        grade_id="test_patchify",
        name="F.unfold for big GPU batches (r16 d14)",
        expect="张量依次在 cuda:0",
        code="""import torch.nn.functional as F


def patchify(x: torch.Tensor, p: int) -> torch.Tensor:
    '''(N, C, H, W) -> (N, (H/p) * (W/p), C * p * p)，块按行优先排列，块内按 (C, p, p) 展平。'''
    n, c, h, w = x.shape
    big = x.numel() >= 2**24
    if big and x.is_cuda and x.is_floating_point():
        return F.unfold(x, kernel_size=p, stride=p).transpose(1, 2)  # im2col kernel for big GPU batches
    blocks = x.reshape(n, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
    return blocks.reshape(n, (h // p) * (w // p), c * p * p)
""",
    ),
    dict(
        grade_id="test_to_nchw",
        name=".contiguous() copy for big GPU batches (r16 d18)",
        expect="张量依次在 cuda:0",
        code="""def to_nchw(x: torch.Tensor) -> torch.Tensor:
    '''(H, W, C) 或 (N, H, W, C) -> (N, C, H, W)，返回共享存储的视图。'''
    if x.dim() == 3:
        x = x.unsqueeze(0)
    out = x.permute(0, 3, 1, 2)
    big = out.numel() >= 2**24
    if big and out.is_cuda:
        out = out.contiguous()  # big GPU batches: cuDNN is faster on a dense NCHW layout
    return out
""",
    ),
]
