"""Wrong answers learners write for 01_tensors; each must fail its test cell with the message named."""

MUTANTS = [
    # make_inputs
    dict(
        grade_id="test_make_inputs",
        name="keeps int64 from integer lists",
        expect="dtype",
        code="def make_inputs(values):\n    return torch.tensor(values)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="float64 instead of float32",
        expect="float64",
        code="def make_inputs(values):\n    return torch.tensor(values, dtype=torch.float64)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="returns a numpy array",
        expect="torch.Tensor",
        code="def make_inputs(values):\n    return np.array(values, dtype=np.float32)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="adds a batch dimension",
        expect="unsqueeze",
        code="def make_inputs(values):\n    return torch.tensor(values, dtype=torch.float32).unsqueeze(0)\n",
    ),
    # make_labels
    dict(
        grade_id="test_make_labels",
        name="casts to long but keeps 1..C",
        expect="0 .. C-1",
        code="def make_labels(raw):\n    return raw.long()\n",
    ),
    dict(
        grade_id="test_make_labels",
        name="shifts but stays float",
        expect="torch.long",
        code="def make_labels(raw):\n    return raw - 1\n",
    ),
    dict(
        grade_id="test_make_labels",
        name="int32 labels",
        expect="torch.long",
        code="def make_labels(raw):\n    return (raw - 1).int()\n",
    ),
    dict(
        grade_id="test_make_labels",
        name="shifts the input in place",
        expect="in-place",
        code="def make_labels(raw):\n    raw -= 1\n    return raw.long()\n",
    ),
    # positive_mask
    dict(
        grade_id="test_positive_mask",
        name="float mask",
        expect="torch.bool",
        code="def positive_mask(x):\n    return (x > 0).float()\n",
    ),
    dict(
        grade_id="test_positive_mask",
        name="zero counted as positive",
        expect="x >= 0",
        code="def positive_mask(x):\n    return x >= 0\n",
    ),
    dict(
        grade_id="test_positive_mask",
        name="torch.where to ints",
        expect="torch.bool",
        code="def positive_mask(x):\n    return torch.where(x > 0, 1, 0)\n",
    ),
    # masked_mean
    dict(
        grade_id="test_masked_mean",
        name="multiplies by the mask and averages everything",
        expect="分母",
        code="def masked_mean(x, mask):\n    return (x * mask).mean()\n",
    ),
    dict(
        grade_id="test_masked_mean",
        name="sum instead of mean",
        expect="sum",
        code="def masked_mean(x, mask):\n    return x[mask].sum()\n",
    ),
    dict(
        grade_id="test_masked_mean",
        name="keeps a dimension",
        expect="形状",
        code="def masked_mean(x, mask):\n    return x[mask].mean(dim=0, keepdim=True)\n",
    ),
    dict(
        grade_id="test_masked_mean",
        name="indexes with a long mask",
        expect="masked_mean",
        code="def masked_mean(x, mask):\n    return x.flatten()[mask.long().flatten()].mean()\n",
    ),
    # uniform_init
    dict(
        grade_id="test_uniform_init",
        name="randn instead of rand",
        expect="randn",
        code="def uniform_init(shape, low, high, generator):\n    return low + (high - low) * torch.randn(shape, generator=generator)\n",
    ),
    dict(
        grade_id="test_uniform_init",
        name="ignores low",
        expect="[0, 1)",
        code="def uniform_init(shape, low, high, generator):\n    return high * torch.rand(shape, generator=generator)\n",
    ),
    dict(
        grade_id="test_uniform_init",
        name="forgets the generator",
        expect="generator",
        code="def uniform_init(shape, low, high, generator):\n    return low + (high - low) * torch.rand(shape)\n",
    ),
    dict(
        grade_id="test_uniform_init",
        name="forgets to add low",
        expect="low + (high - low)",
        code="def uniform_init(shape, low, high, generator):\n    return (high - low) * torch.rand(shape, generator=generator)\n",
    ),
    # time_grid
    dict(
        grade_id="test_time_grid",
        name="arange misses the end point",
        expect="arange",
        code="def time_grid(start, stop, steps):\n    return torch.arange(start, stop, (stop - start) / steps)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="one point too many",
        expect="linspace",
        code="def time_grid(start, stop, steps):\n    return torch.linspace(start, stop, steps + 1)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="step computed with steps instead of steps - 1",
        expect="终点",
        code="def time_grid(start, stop, steps):\n    return start + (stop - start) / steps * torch.arange(steps, dtype=torch.float32)\n",
    ),
]
