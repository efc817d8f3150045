"""Wrong answers learners write for 02_shapes; each must fail its test cell with the message named."""

MUTANTS = [
    # squeeze_scores
    dict(
        grade_id="test_squeeze_scores",
        name="bare squeeze() drops a batch of one",
        expect="squeeze()",
        code="def squeeze_scores(scores):\n    return scores.squeeze()\n",
    ),
    dict(
        grade_id="test_squeeze_scores",
        name="squeeze(0) squeezes the batch dim",
        expect="squeeze(dim)",
        code="def squeeze_scores(scores):\n    return scores.squeeze(0)\n",
    ),
    dict(
        grade_id="test_squeeze_scores",
        name="scores[0] takes the first sample",
        expect="scores[:, 0]",
        code="def squeeze_scores(scores):\n    return scores[0]\n",
    ),
    dict(
        grade_id="test_squeeze_scores",
        name="transposes instead of squeezing",
        expect="squeeze(dim)",
        code="def squeeze_scores(scores):\n    return scores.t()\n",
    ),
    dict(
        grade_id="test_squeeze_scores",
        name="squeeze_ in place changes the input",
        expect="in-place",
        code="def squeeze_scores(scores):\n    return scores.squeeze_(1)\n",
    ),
    # flatten_batch
    dict(
        grade_id="test_flatten_batch",
        name="flatten() also flattens the batch",
        expect="start_dim=1",
        code="def flatten_batch(x):\n    return x.flatten()\n",
    ),
    dict(
        grade_id="test_flatten_batch",
        name="view on a permuted input",
        expect="reshape()",
        code="def flatten_batch(x):\n    return x.view(x.shape[0], -1)\n",
    ),
    dict(
        grade_id="test_flatten_batch",
        name="bare squeeze() before flatten drops N=1",
        expect="squeeze()",
        code="def flatten_batch(x):\n    return x.squeeze().flatten(1)\n",
    ),
    dict(
        grade_id="test_flatten_batch",
        name="flatten(start_dim=2) merges only H and W",
        expect="end_dim",
        code="def flatten_batch(x):\n    return x.flatten(start_dim=2)\n",
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
        expect="数值相等不代表共享存储",
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
        expect="permute()",
        code="def to_nchw(x):\n    n, h, w, c = x.shape\n    return x.reshape(n, c, h, w)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="view instead of permute",
        expect="permute()",
        code="def to_nchw(x):\n    n, h, w, c = x.shape\n    return x.view(n, c, h, w)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="copies with contiguous()",
        expect="contiguous()",
        code="def to_nchw(x):\n    return x.permute(0, 3, 1, 2).contiguous()\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="wrong permute order (N, C, W, H)",
        expect="维度顺序",
        code="def to_nchw(x):\n    return x.permute(0, 3, 2, 1)\n",
    ),
    dict(
        grade_id="test_to_nchw",
        name="transpose(1, 3) swaps H and C only",
        expect="维度顺序",
        code="def to_nchw(x):\n    return x.transpose(1, 3)\n",
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
]
