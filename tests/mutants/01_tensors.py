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
    # in_range_mask
    dict(
        grade_id="test_in_range_mask",
        name="chained comparison low <= x < high",
        expect="链式比较",
        code="def in_range_mask(x, low, high):\n    return low <= x < high\n",
    ),
    dict(
        grade_id="test_in_range_mask",
        name="Python and between two masks",
        expect="and",
        code="def in_range_mask(x, low, high):\n    return (x >= low) and (x < high)\n",
    ),
    dict(
        grade_id="test_in_range_mask",
        name="& without parentheses",
        expect="优先级",
        code="def in_range_mask(x, low, high):\n    return x >= low & x < high\n",
    ),
    dict(
        grade_id="test_in_range_mask",
        name="x > low leaves out low",
        expect="包含 low",
        code="def in_range_mask(x, low, high):\n    return (x > low) & (x < high)\n",
    ),
    dict(
        grade_id="test_in_range_mask",
        name="x <= high takes in high",
        expect="不含 high",
        code="def in_range_mask(x, low, high):\n    return (x >= low) & (x <= high)\n",
    ),
    dict(
        grade_id="test_in_range_mask",
        name="| instead of &",
        expect="|（或）",
        code="def in_range_mask(x, low, high):\n    return (x >= low) | (x < high)\n",
    ),
    dict(
        grade_id="test_in_range_mask",
        name="float mask from multiplying",
        expect="torch.bool",
        code="def in_range_mask(x, low, high):\n    return (x >= low).float() * (x < high).float()\n",
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
    dict(
        grade_id="test_uniform_init",
        name="Tensor.uniform_ instead of the transform",
        expect="uniform_",
        code="def uniform_init(shape, low, high, generator):\n"
        "    return torch.empty(shape).uniform_(low, high, generator=generator)\n",
    ),
    dict(
        grade_id="test_uniform_init",
        name="torch.nn.init.uniform_ instead of the transform",
        expect="torch.nn.init.uniform_",
        code="def uniform_init(shape, low, high, generator):\n"
        "    return torch.nn.init.uniform_(torch.empty(shape), low, high, generator=generator)\n",
    ),
    # time_grid
    dict(
        grade_id="test_time_grid",
        name="arange misses the end point",
        expect="不含终点",
        code="def time_grid(start, stop, dt):\n    return torch.arange(start, stop, dt)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="arange to stop + dt gets an extra point from rounding",
        expect="舍入误差",
        code="def time_grid(start, stop, dt):\n    return torch.arange(start, stop + dt, dt)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="int() truncates 6.999999999999999 to 6",
        expect="round()",
        code="def time_grid(start, stop, dt):\n    return torch.linspace(start, stop, int((stop - start) / dt) + 1)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="k points instead of k + 1",
        expect="k + 1 个点",
        code="def time_grid(start, stop, dt):\n    return torch.linspace(start, stop, round((stop - start) / dt))\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="float64 grid",
        expect="float64",
        code="def time_grid(start, stop, dt):\n"
        "    return torch.linspace(start, stop, round((stop - start) / dt) + 1, dtype=torch.float64)\n",
    ),
    # predict first
    dict(
        grade_id="test_predict_div_dtype",
        formative=True,
        name="integer division stays int64",
        expect="真除法",
        code="predict_div_dtype = torch.int64\n",
    ),
    dict(
        grade_id="test_predict_div_dtype",
        formative=True,
        name="float64 as in NumPy",
        expect="默认浮点类型",
        code="predict_div_dtype = torch.float64\n",
    ),
    dict(
        grade_id="test_predict_div_dtype",
        formative=True,
        name="dtype written as a string",
        expect="之一",
        code="predict_div_dtype = 'float32'\n",
    ),
    dict(
        grade_id="test_predict_uint8_sum",
        formative=True,
        name="260 as if the result were promoted",
        expect="回绕",
        code="predict_uint8_sum = 260\n",
    ),
    dict(
        grade_id="test_predict_uint8_sum",
        formative=True,
        name="255 as if it saturated",
        expect="不会停在 255",
        code="predict_uint8_sum = 255\n",
    ),
    dict(
        grade_id="test_predict_uint8_sum",
        formative=True,
        name="the answer as a tensor",
        expect="应写成 int",
        code="predict_uint8_sum = torch.tensor(4, dtype=torch.uint8)\n",
    ),
    dict(
        grade_id="test_predict_votes_raises",
        formative=True,
        name="expects an error like the (N,) float labels",
        expect="类别概率",
        code="predict_votes_raises = True\n",
    ),
    dict(
        grade_id="test_predict_votes_raises",
        formative=True,
        name="answers with a word",
        expect="之一",
        code="predict_votes_raises = '不报错'\n",
    ),
    dict(
        grade_id="test_predict_votes_raises",
        formative=True,
        name="leaves the placeholder",
        expect="还没有写预测",
        code="predict_votes_raises = ...\n",
    ),
]
