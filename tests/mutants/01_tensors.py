"""Wrong answers learners write for 01_tensors; each must fail its test cell with the message named."""

from tests.notebooks import solution_with

MUTANTS = [
    # mismatches
    dict(
        grade_id="test_mismatches",
        name="forgets device",
        expect="device 不同",
        code="def mismatches(x, ref):\n"
        "    found = []\n"
        "    if x.shape != ref.shape:\n        found.append('shape')\n"
        "    if x.dtype != ref.dtype:\n        found.append('dtype')\n"
        "    if x.requires_grad != ref.requires_grad:\n        found.append('requires_grad')\n"
        "    return found\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="compares numel instead of shape",
        expect="shape 不同",
        code="def mismatches(x, ref):\n"
        "    checks = [x.numel() != ref.numel(), x.dtype != ref.dtype, x.device != ref.device,\n"
        "              x.requires_grad != ref.requires_grad]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], checks) if d]\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="compares floating or not instead of the dtype",
        expect="dtype 不同",
        code="def mismatches(x, ref):\n"
        "    checks = [x.shape != ref.shape, x.is_floating_point() != ref.is_floating_point(), x.device != ref.device,\n"
        "              x.requires_grad != ref.requires_grad]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], checks) if d]\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="compares the element size instead of the dtype",
        expect="dtype 不同",
        code="def mismatches(x, ref):\n"
        "    checks = [x.shape != ref.shape, x.element_size() != ref.element_size(), x.device != ref.device,\n"
        "              x.requires_grad != ref.requires_grad]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], checks) if d]\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="grad_fn instead of requires_grad",
        expect="requires_grad",
        code="def mismatches(x, ref):\n"
        "    checks = [x.shape != ref.shape, x.dtype != ref.dtype, x.device != ref.device,\n"
        "              (x.grad_fn is None) != (ref.grad_fn is None)]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], checks) if d]\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="stops at the first difference",
        expect="不同，返回值里却没有",
        code="def mismatches(x, ref):\n"
        "    for name in ['shape', 'dtype', 'device', 'requires_grad']:\n"
        "        if getattr(x, name) != getattr(ref, name):\n"
        "            return [name]\n"
        "    return []\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="compares the number of dimensions",
        expect="shape 不同",
        code="def mismatches(x, ref):\n"
        "    checks = [x.dim() != ref.dim(), x.dtype != ref.dtype, x.device != ref.device,\n"
        "              x.requires_grad != ref.requires_grad]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], checks) if d]\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="returns a set",
        expect="list",
        code="def mismatches(x, ref):\n"
        "    return {n for n in ['shape', 'dtype', 'device', 'requires_grad'] if getattr(x, n) != getattr(ref, n)}\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="reports the attributes that are equal",
        expect="相同",
        code="def mismatches(x, ref):\n"
        "    return [n for n in ['shape', 'dtype', 'device', 'requires_grad'] if getattr(x, n) == getattr(ref, n)]\n",
    ),
    # make_inputs
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor on every input warns on a tensor",
        expect="copy construct",
        code="def make_inputs(values):\n    return torch.tensor(values, dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="as_tensor shares memory",
        expect="共享内存",
        code="def make_inputs(values):\n    return torch.as_tensor(values, dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="from_numpy then float shares a float32 array",
        expect="共享内存",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        return values.clone().float()\n"
        "    return torch.from_numpy(np.asarray(values)).float()\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name=".float() on a float32 tensor returns it",
        expect="共享内存",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        return values.float()\n"
        "    return torch.tensor(np.asarray(values), dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="keeps int64 from integer lists",
        mistake="int-not-float",
        expect="dtype",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        return values.clone()\n"
        "    return torch.tensor(np.asarray(values))\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="keeps float64 from NumPy",
        mistake="numpy-float64-kept",
        expect="NumPy 数组自己的 dtype",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        return values.to(torch.float32, copy=True)\n"
        "    return torch.tensor(values) if isinstance(values, np.ndarray) else torch.tensor(values, dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="returns a numpy array",
        mistake="not-a-tensor",
        expect="torch.Tensor",
        code="def make_inputs(values):\n    return np.array(values, dtype=np.float32)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="adds a batch dimension",
        mistake="extra-unit-dim",
        expect="unsqueeze",
        code="def make_inputs(values):\n"
        "    return torch.tensor(np.asarray(values), dtype=torch.float32).unsqueeze(0)\n",
    ),
    # make_labels
    dict(
        grade_id="test_make_labels",
        name="casts to long but keeps 1..C",
        mistake="labels-start-at-one",
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
        mistake="labels-not-long",
        expect="torch.long",
        code="def make_labels(raw):\n    return (raw - 1).int()\n",
    ),
    dict(
        grade_id="test_make_labels",
        name="shifts the input in place",
        mistake="modifies-input",
        expect="in-place",
        code="def make_labels(raw):\n    raw -= 1\n    return raw.long()\n",
    ),
    # masked_row_mean
    dict(
        grade_id="test_masked_row_mean",
        name="chained comparison low <= x < high",
        mistake="python-bool-on-tensor",
        expect="链式比较",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = low <= x < high\n    return (x * mask).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="& without parentheses",
        expect="优先级",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = x >= low & x < high\n    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="multiplies by the mask: inf * 0 = nan",
        mistake="mask-by-multiplying",
        expect="inf * 0",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = (x >= low) & (x < high)\n    return (x * mask).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="x > low leaves out low",
        expect="x == low",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = (x > low) & (x < high)\n    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="x <= high takes in high",
        expect="x == high",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = (x >= low) & (x <= high)\n    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="divides by the row length",
        expect="分母",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = (x >= low) & (x < high)\n    return torch.where(mask, x, 0.0).mean(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="clamps the count: 0 for an empty row",
        expect="期望 nan",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = (x >= low) & (x < high)\n"
        "    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1).clamp(min=1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="one mean over the whole tensor",
        expect="形状",
        code="def masked_row_mean(x, low, high):\n    return x[(x >= low) & (x < high)].mean()\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="drops non-finite values with isfinite only",
        expect="没有起作用",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = torch.isfinite(x)\n    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="computes in float32 whatever the input",
        expect="dtype",
        code="def masked_row_mean(x, low, high):\n"
        "    x = x.float()\n    mask = (x >= low) & (x < high)\n"
        "    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1)\n",
    ),
    # linear_init
    dict(
        grade_id="test_linear_init",
        name="shape (in, out) instead of (out, in)",
        mistake="linear-weight-transposed",
        expect="(out_features, in_features)",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return -b + 2 * b * torch.rand((in_features, out_features), generator=generator)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="randn instead of rand",
        expect="之外",
        code="def linear_init(in_features, out_features, generator):\n"
        "    return torch.randn((out_features, in_features), generator=generator) / math.sqrt(in_features)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="bound from out_features",
        expect="linear_init",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(out_features)\n"
        "    return -b + 2 * b * torch.rand((out_features, in_features), generator=generator)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="[0, b) instead of [-b, b]",
        expect="[0, b)",
        code="def linear_init(in_features, out_features, generator):\n"
        "    return torch.rand((out_features, in_features), generator=generator) / math.sqrt(in_features)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="bound 1 / in_features without the square root",
        expect="不同",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / in_features\n"
        "    return -b + 2 * b * torch.rand((out_features, in_features), generator=generator)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="forgets the generator",
        expect="不同",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return -b + 2 * b * torch.rand((out_features, in_features))\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="Tensor.uniform_ instead of the transform",
        expect="uniform_",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return torch.empty(out_features, in_features).uniform_(-b, b, generator=generator)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="kaiming_uniform_ as nn.Linear does",
        expect="kaiming_uniform_",
        code="def linear_init(in_features, out_features, generator):\n"
        "    w = torch.empty(out_features, in_features)\n"
        "    return torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5), generator=generator)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="a square layer drawn in (in, out) order and transposed",
        expect="不同",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return (-b + 2 * b * torch.rand((in_features, out_features), generator=generator)).t().contiguous()\n",
    ),
    # time_grid
    dict(
        grade_id="test_time_grid",
        name="arange misses the end point",
        mistake="arange-excludes-end",
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
        mistake="float64-not-float32",
        expect="不是 float32",
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
    # found by the issue-17 review (n123c): each passed every test before
    dict(
        grade_id="test_make_inputs",
        name="as_tensor then a copy warns on a read-only array",
        expect="make_inputs(只读的 NumPy 数组) 发出了警告",
        code="def make_inputs(values):\n    return torch.as_tensor(values).to(torch.float32, copy=True)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="from_numpy of asarray fails on a negative stride",
        expect="输入 NumPy 数组 (4,)，负步长 时，make_inputs 抛出 ValueError",
        code="def make_inputs(values):\n    return torch.from_numpy(np.asarray(values, dtype=np.float32)).clone()\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor of the array fails on a negative stride",
        expect="负步长",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        return values.to(torch.float32, copy=True)\n"
        "    return torch.tensor(np.asarray(values), dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="Tensor.uniform_ through torch.ops.aten",
        expect="linear_init(3, 2, generator) 用了 Tensor.uniform_()",
        code="def linear_init(i, o, generator):\n"
        "    b = 1 / math.sqrt(i)\n"
        "    return torch.ops.aten.uniform_(torch.empty(o, i), -b, b, generator=generator)\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="requires_grad only for leaves (grad_fn is None)",
        expect="x 与 ref 的 requires_grad 不同，返回值里却没有 'requires_grad'",
        code="def mismatches(x, ref):\n"
        "    c = [x.shape != ref.shape, x.dtype != ref.dtype, x.device != ref.device,\n"
        "         (x.grad_fn is None and x.requires_grad) != (ref.grad_fn is None and ref.requires_grad)]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], c) if d]\n",
    ),
    # found by the second issue-17 review (rv13): each passed every test, or got a guessed cause, before
    dict(
        grade_id="test_linear_init",
        name="the functional torch.ops.aten.uniform",
        expect="用了 torch.ops.aten.uniform",
        code="def linear_init(i, o, generator):\n"
        "    b = 1 / math.sqrt(i)\n"
        "    return torch.ops.aten.uniform(torch.empty(o, i), -b, b, generator=generator)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="arange to stop plus a fixed epsilon",
        expect="不正好是 stop",
        code="def time_grid(start, stop, dt):\n    return torch.arange(start, stop + 1e-9, dt)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="ceil() of the interval count",
        expect="点数多了一个",
        code="def time_grid(start, stop, dt):\n    return torch.linspace(start, stop, math.ceil((stop - start) / dt) + 1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="a negated condition takes in nan",
        expect="nan 被选进了区间",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = ~((x < low) | (x >= high))\n    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="tensors through .numpy() (no bfloat16 in NumPy)",
        expect="bfloat16",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        values = values.numpy()\n"
        "    return torch.from_numpy(np.array(values, dtype=np.float32))\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="a float32 count turns a float16 mean into float32",
        expect="期望 torch.float16，得到 torch.float32",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = (x >= low) & (x < high)\n    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1).float()\n",
    ),
    # found by the third issue-17 review (rfa): each passed every test before
    dict(
        grade_id="test_mismatches",
        name="compares the device type only",
        mistake="device-index-ignored",
        expect="不区分同类设备的编号",
        code="def mismatches(x, ref):\n"
        "    c = [x.shape != ref.shape, x.dtype != ref.dtype, x.device.type != ref.device.type,\n"
        "         x.requires_grad != ref.requires_grad]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], c) if d]\n",
    ),
    dict(
        grade_id="test_mismatches",
        name="device as 'is it on meta'",
        expect="x 与 ref 的 device 不同，返回值里却没有 'device'",
        code="def mismatches(x, ref):\n"
        "    c = [x.shape != ref.shape, x.dtype != ref.dtype, x.is_meta != ref.is_meta,\n"
        "         x.requires_grad != ref.requires_grad]\n"
        "    return [a for a, d in zip(['shape', 'dtype', 'device', 'requires_grad'], c) if d]\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="makes the caller's read-only array writable to silence the warning",
        mistake="modifies-input",
        expect="修改了调用者传入的 NumPy 数组：数组的 writeable 标志从 False 变成了 True",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        return values.to(torch.float32, copy=True)\n"
        "    if isinstance(values, np.ndarray):\n"
        "        values = np.asarray(values)\n        values.setflags(write=True)\n"
        "    return torch.tensor(values, dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="torch.rand without dtype draws float64 under a float64 default, then .float(): another set of numbers",
        expect="返回的值正好是先用 float64 取样、再转成 float32 得到的",
        code='import math\nimport torch\n\n\ndef linear_init(in_features: int, out_features: int, generator: torch.Generator) -> torch.Tensor:\n    """-> (out_features, in_features) float32，[-b, b] 上均匀分布，b = 1/sqrt(in_features)，用 generator 取样。"""\n    bound = 1 / math.sqrt(in_features)\n    draw = torch.rand((out_features, in_features), generator=generator)  # 规格写的那一次取样\n    return ((draw * 2 - 1) * bound).float()  # 调用方改了默认 dtype 也返回 float32\n',
    ),
]

MUTANTS += [  # issue-17 fresh pass (rwa): each passed every test, or got a wrong cause, before
    dict(
        grade_id="test_mismatches",
        name="right list, but zeroes the caller's x in place",
        mistake="modifies-input",
        expect="修改了输入 x：它的 数值 变了",
        code="def mismatches(x, ref):\n"
        "    found = [n for n in ['shape', 'dtype', 'device', 'requires_grad'] if getattr(x, n) != getattr(ref, n)]\n"
        "    if x.device.type == 'cpu' and not x.requires_grad:\n        x.zero_()\n"
        "    return found\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="reseeds the global generator from generator.initial_seed() and draws without the generator",
        expect="重设了全局随机种子",
        mistake="global-seed-reset",
        code="def linear_init(in_features, out_features, generator):\n"
        "    torch.manual_seed(generator.initial_seed())\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return -b + 2 * b * torch.rand((out_features, in_features))\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="torch.distributions.Uniform(-b, b).icdf of the rand draw (the library does the transform)",
        expect="用了 torch.distributions.Uniform",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return torch.distributions.Uniform(-b, b).icdf(torch.rand((out_features, in_features), generator=generator))\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor of a tensor with its warning silenced by catch_warnings",
        expect="调用了 warnings.catch_warnings()",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n"
        "        with warnings.catch_warnings():\n"
        "            warnings.simplefilter('ignore')\n"
        "            return torch.tensor(values, dtype=torch.float32)\n"
        "    return torch.from_numpy(np.array(values, dtype=np.float32))\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="warnings.filterwarnings('ignore') for the whole process, then torch.tensor of everything",
        expect="warnings.filterwarnings() / warnings.simplefilter()",
        code="def make_inputs(values):\n"
        "    warnings.filterwarnings('ignore')\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    return torch.tensor(values, dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor of a tensor with an 'ignore' entry put straight into warnings.filters and taken out after",
        expect="改了 warnings.filters",
        code="def make_inputs(values):\n"
        "    warnings.filters.insert(0, ('ignore', None, Warning, None, 0))\n"
        "    try:\n"
        "        if isinstance(values, torch.Tensor):\n"
        "            return torch.tensor(values, dtype=torch.float32)\n"
        "        return torch.from_numpy(np.array(values, dtype=np.float32))\n"
        "    finally:\n"
        "        del warnings.filters[0]\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="AffineTransform(-b, 2b) of the rand draw (the library does the linear transform)",
        expect="AffineTransform",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    t = torch.distributions.transforms.AffineTransform(-b, 2 * b)\n"
        "    return t(torch.rand((out_features, in_features), generator=generator))\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="rand(..., requires_grad=True) then the transform: a non-leaf weight hanging on a graph",
        expect="返回的不是叶子张量 (leaf)：它有 grad_fn=SubBackward0",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    r = torch.rand((out_features, in_features), generator=generator, requires_grad=True)\n"
        "    return r * 2 * b - b\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="copies the generator's state into the global RNG, draws without the generator, copies it back",
        expect="全局随机数生成器的状态",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    torch.set_rng_state(generator.get_state())\n"
        "    r = torch.rand((out_features, in_features))\n"
        "    generator.set_state(torch.get_rng_state())\n"
        "    return -b + 2 * b * r\n",
    ),
    dict(
        grade_id="test_make_labels",
        name="uint8 labels (CrossEntropyLoss accepts them, but only 0..255)",
        mistake="labels-not-long",
        expect="uint8 只能表示 0..255",
        code="def make_labels(raw):\n    return (raw - 1).to(torch.uint8)\n",
    ),
]

# Right answers written another way: each must pass its test cell (tests/test_mutants.py).
CORRECT = [
    dict(
        grade_id="test_linear_init",
        name="returns the weight wrapped in nn.Parameter, as nn.Linear holds it",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return torch.nn.Parameter(-b + 2 * b * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32))\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="the transformed draw made a leaf that requires grad (requires_grad_() after the transform)",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return (torch.rand((out_features, in_features), generator=generator, dtype=torch.float32) * 2 * b - b).requires_grad_()\n",
    ),
]

MUTANTS += [  # issue-17 s31 review (ga): each passed every test before
    dict(
        grade_id="test_linear_init",
        name="draws from the global RNG with the generator's state inside torch.random.fork_rng()",
        expect="没有用传进来的 generator，从全局随机数生成器取了样",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    with torch.random.fork_rng():\n"
        "        torch.set_rng_state(generator.get_state())\n"
        "        r = torch.rand((out_features, in_features))\n"
        "        generator.set_state(torch.get_rng_state())\n"
        "    return -b + 2 * b * r\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="copies the generator's state into the global RNG, draws, copies it back and restores the global state",
        expect="没有用传进来的 generator，从全局随机数生成器取了样",
        code="def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    saved = torch.get_rng_state()\n"
        "    torch.set_rng_state(generator.get_state())\n"
        "    r = torch.rand((out_features, in_features))\n"
        "    generator.set_state(torch.get_rng_state())\n"
        "    torch.set_rng_state(saved)\n"
        "    return -b + 2 * b * r\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="the whole init under torch.inference_mode() (an inference tensor cannot become a trainable weight)",
        expect="推理张量 (inference tensor",
        code="def linear_init(in_features, out_features, generator):\n"
        "    with torch.inference_mode():\n"
        "        b = 1 / math.sqrt(in_features)\n"
        "        return -b + 2 * b * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)\n",
    ),
]

CORRECT += [  # issue-17 s31 review (ga)
    dict(
        grade_id="test_linear_init",
        name="the init under torch.no_grad() (an ordinary tensor, as nn.init does it)",
        code="@torch.no_grad()\n"
        "def linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    return -b + 2 * b * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)\n",
    ),
]

MUTANTS += [  # issue-17 s31 review (ga): the filter-list watch let a replaced warnings.showwarning through
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor of everything with warnings.showwarning swapped for a no-op and put back after",
        expect="替换了 warnings.showwarning",
        code="def make_inputs(values):\n"
        "    shown = warnings.showwarning\n"
        "    warnings.showwarning = lambda *args, **kwargs: None\n"
        "    try:\n"
        "        if isinstance(values, np.ndarray):\n            values = values.copy()\n"
        "        return torch.tensor(values, dtype=torch.float32)\n"
        "    finally:\n"
        "        warnings.showwarning = shown\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="warnings.showwarning replaced by a no-op for the whole process",
        expect="全局设置变了：warnings.showwarning",
        code="def make_inputs(values):\n"
        "    warnings.showwarning = lambda *args, **kwargs: None\n"
        "    if isinstance(values, torch.Tensor):\n"
        "        return torch.tensor(values, dtype=torch.float32)\n"
        "    return torch.from_numpy(np.array(values, dtype=np.float32))\n",
    ),
]

MUTANTS += [  # issue-17 s31 review (ga): was told to check unsqueeze() / keepdim=True (a 0-d input came back (1,))
    dict(
        grade_id="test_make_inputs",
        name="np.ascontiguousarray for the negative strides (it makes a 0-d input 1-d)",
        mistake="extra-unit-dim",
        expect="np.ascontiguousarray() / np.atleast_1d() 总是返回至少 1 维的数组",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n"
        "        return values.detach().clone().to(torch.float32)\n"
        "    return torch.from_numpy(np.ascontiguousarray(values, dtype=np.float32).copy())\n",
    ),
]

MUTANTS += [  # s33: the filter-list and showwarning watch looked only between lines; one line did it all
    dict(
        grade_id="test_make_inputs",
        name="an 'ignore' entry put into warnings.filters, torch.tensor, and the entry taken out, all on one line",
        expect="改了 warnings.filters",
        code="def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    out = (warnings.filters.insert(0, ('ignore', None, Warning, None, 0)), "
        "torch.tensor(values, dtype=torch.float32), warnings.filters.pop(0))[1]\n"
        "    return out\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="warnings.showwarning swapped for a no-op around torch.tensor on one line",
        expect="替换了 warnings.showwarning",
        code="def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    shown = warnings.showwarning\n"
        "    out = (setattr(warnings, 'showwarning', lambda *a, **k: None), "
        "torch.tensor(values, dtype=torch.float32), setattr(warnings, 'showwarning', shown))[1]\n"
        "    return out\n",
    ),
]

MUTANTS += [  # s33 review (ha): the same one-line edit through the list type's own methods and slots
    dict(
        grade_id="test_make_inputs",
        name="list.insert / list.pop on warnings.filters around torch.tensor on one line",
        expect="改了 warnings.filters",
        code="def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    return (list.insert(warnings.filters, 0, ('ignore', None, Warning, None, 0)), "
        "torch.tensor(values, dtype=torch.float32), list.pop(warnings.filters, 0))[1]\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="list.__setitem__ / list.__delitem__ on warnings.filters around torch.tensor on one line",
        expect="改了 warnings.filters",
        code="def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    return (list.__setitem__(warnings.filters, slice(0, 0), [('ignore', None, Warning, None, 0)]), "
        "torch.tensor(values, dtype=torch.float32), list.__delitem__(warnings.filters, 0))[1]\n",
    ),
]

MUTANTS += [  # s34 review (ha): hiding the copy warning through state the watch did not look at
    dict(
        grade_id="test_make_inputs",
        name="sys.modules['warnings'] swapped for a module whose filters ignore everything, around torch.tensor",
        expect="换掉了 sys.modules['warnings']",
        code="import sys\nimport types\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    quiet = types.ModuleType('warnings')\n"
        "    quiet.filters = [('ignore', None, Warning, None, 0)]\n"
        "    sys.modules['warnings'] = quiet\n"
        "    try:\n"
        "        return torch.tensor(values, dtype=torch.float32)\n"
        "    finally:\n"
        "        sys.modules['warnings'] = warnings\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="the warning torch.tensor recorded taken back out of the caller's record list (_showwarnmsg_impl.__self__)",
        expect="删掉了已经记录下来的警告",
        code="def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    log = getattr(warnings._showwarnmsg_impl, '__self__', None)\n"
        "    seen = len(log) if isinstance(log, list) else 0\n"
        "    out = torch.tensor(values, dtype=torch.float32)\n"
        "    if isinstance(log, list):\n        del log[seen:]\n"
        "    return out\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="torch.set_warn_always(False) after the read-only warning was seen once in the notebook",
        expect="调用了 torch.set_warn_always(False)",
        code="_ro = np.zeros(2)\n_ro.flags.writeable = False\ntorch.as_tensor(_ro)  # seen once, in the notebook\n\n"
        "def make_inputs(values):\n"
        "    torch.set_warn_always(False)\n"
        "    if isinstance(values, torch.Tensor):\n        return values.to(torch.float32, copy=True)\n"
        "    if isinstance(values, np.ndarray) and any(s < 0 for s in values.strides):\n"
        "        values = values.copy()\n"
        "    return torch.as_tensor(values, dtype=torch.float32).clone()\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor under catch_warnings + simplefilter('ignore') in a thread of its own",
        expect="把计算交给了另一个线程或进程（调用了 threading.",
        code="import threading\nimport time\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    box = []\n"
        "    def work():\n"
        "        time.sleep(0.02)  # the caller is waiting in join() by now\n"
        "        with warnings.catch_warnings():\n"
        "            warnings.simplefilter('ignore')\n"
        "            box.append(torch.tensor(values, dtype=torch.float32))\n"
        "    worker = threading.Thread(target=work)\n"
        "    worker.start()\n"
        "    worker.join()\n"
        "    return box[0]\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="sys.setprofile(None) and sys.settrace(None) first, then catch_warnings + simplefilter('ignore')",
        expect="调用了 sys.setprofile()",
        code="import sys\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    hooks = sys.gettrace(), sys.getprofile()\n"
        "    sys.setprofile(None)\n    sys.settrace(None)\n"
        "    try:\n"
        "        with warnings.catch_warnings():\n"
        "            warnings.simplefilter('ignore')\n"
        "            return torch.tensor(values, dtype=torch.float32)\n"
        "    finally:\n"
        "        sys.settrace(hooks[0])\n        sys.setprofile(hooks[1])\n",
    ),
]

MUTANTS += [  # s34 review (ha): the recorded warning cut from the caller's list later, after the watch was off
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor(t); a gc callback cuts the recorded warning out of the caller's list once no hook is on",
        expect="gc.set_threshold()",  # the threshold lowered for the callback is left changed
        code="import gc\nimport sys\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    log = getattr(warnings._showwarnmsg_impl, '__self__', [])\n"
        "    start, seen = len(log), []\n"
        "    def later(phase, info):\n"
        "        if sys.gettrace() is None and sys.getprofile() is None and len(log) > start and phase == 'stop':\n"
        "            seen.append(phase)\n"
        "        if len(seen) >= 3:\n"
        "            del log[start:]\n"
        "            gc.callbacks.remove(later)\n"
        "            gc.set_threshold(700)\n"
        "    gc.callbacks.append(later)\n"
        "    gc.set_threshold(1)\n"
        "    return torch.tensor(values, dtype=torch.float32)\n",
    ),
]

MUTANTS += [  # s34 review (ha): the copy warning given in a forked child, the tensor sent back through a pipe
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor(t) in a child made with os.fork(), the result pickled back through a pipe",
        expect="启动了一个进程",
        code="import os\nimport pickle\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    r, w = os.pipe()\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        os.close(r)\n"
        "        with os.fdopen(w, 'wb') as f:\n"
        "            pickle.dump(torch.tensor(values, dtype=torch.float32), f)\n"
        "        os._exit(0)\n"
        "    os.close(w)\n"
        "    with os.fdopen(r, 'rb') as f:\n"
        "        out = pickle.load(f)\n"
        "    os.waitpid(pid, 0)\n"
        "    return out\n",
    ),
]

MUTANTS += [  # s34 review (ha): a worker thread that was there before the call does the hiding
    dict(
        grade_id="test_make_inputs",
        name="torch.tensor under catch_warnings + simplefilter('ignore') in a pool started at cell level",
        expect="把计算交给了另一个线程或进程（调用了 concurrent.futures",
        code="from concurrent.futures import ThreadPoolExecutor\n\n"
        "_pool = ThreadPoolExecutor(1)\n_pool.submit(int).result()  # the worker is there before make_inputs runs\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    def work():\n"
        "        with warnings.catch_warnings():\n"
        "            warnings.simplefilter('ignore')\n"
        "            return torch.tensor(values, dtype=torch.float32)\n"
        "    return _pool.submit(work).result()\n",
    ),
]

MUTANTS += [  # s34 review (ha): Tensor.uniform_ in a thread of its own, where the call recorders do not look
    dict(
        grade_id="test_linear_init",
        name="Tensor.uniform_(-b, b, generator=generator) in a thread of its own",
        expect="把计算交给了另一个线程或进程",
        code="import threading\n\n\ndef linear_init(in_features, out_features, generator):\n"
        "    b = 1 / math.sqrt(in_features)\n"
        "    box = []\n"
        "    worker = threading.Thread(\n"
        "        target=lambda: box.append(torch.empty(out_features, in_features).uniform_(-b, b, generator=generator))\n"
        "    )\n"
        "    worker.start()\n    worker.join()\n    return box[0]\n",
    ),
]

MUTANTS += [  # s34 review (ha): hiding done from C, where no trace or profile hook looks
    dict(
        grade_id="test_make_inputs",
        name="insert an 'ignore' entry, torch.tensor, remove it: functools.partial calls run by map (C calling C)",
        expect="改了 warnings.filters",
        code="import functools\nimport operator\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    entry = ('ignore', None, Warning, None, 0)\n"
        "    steps = [functools.partial(warnings.filters.insert, 0, entry),\n"
        "             functools.partial(torch.tensor, values, dtype=torch.float32),\n"
        "             functools.partial(warnings.filters.remove, entry)]\n"
        "    return list(map(operator.call, steps))[1]\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="the copy warning marked 'already shown' in the __warningregistry__ of the frames that give it",
        expect="警告被藏了起来",
        code="import inspect\nimport sys\n\n"
        "_MSG = ('To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or '\n"
        "        'sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).')\n\n"
        "def make_inputs(values):\n"
        "    if isinstance(values, np.ndarray):\n        values = values.copy()\n"
        "    src, start = inspect.getsourcelines(type(fx._WarningCauses()).__torch_function__)\n"
        "    line = start + next(i for i, text in enumerate(src) if 'return func(' in text)\n"
        "    here = sys._getframe().f_lineno + 8\n"
        "    for g, ln in ((vars(sys.modules[fx.__name__]), line), (globals(), here)):\n"
        "        reg = g.setdefault('__warningregistry__', {})\n"
        "        try:\n"
        "            warnings.warn_explicit('', lambda m: m, '', 0, registry=reg)  # sets reg['version'], then raises\n"
        "        except TypeError:\n"
        "            pass\n"
        "        reg[(_MSG, UserWarning, ln)] = True\n"
        "    return torch.tensor(values, dtype=torch.float32)\n",
    ),
]

MUTANTS += [  # s35 review (h1): right to float32 precision only, and no tested case told float32 from float64
    dict(
        grade_id="test_masked_row_mean",
        name="turns the bounds into (float32) tensors: a float64 reading 1e-9 inside the range compares outside",
        expect="有的读数与 low / high 只差 1e-9",
        code="def masked_row_mean(x, low, high):\n"
        "    lo, hi = torch.tensor(low), torch.tensor(high)\n"
        "    mask = (x >= lo) & (x < hi)\n"
        "    return torch.where(mask, x, 0.0).sum(1) / mask.sum(1)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="computes in float32 and casts the result back to the input's dtype",
        expect="只有 float64 的求和才精确到 1e-9",
        code="def masked_row_mean(x, low, high):\n"
        "    y = x.float()\n    mask = (y >= low) & (y < high)\n"
        "    return (torch.where(mask, y, 0.0).sum(1) / mask.sum(1)).to(x.dtype)\n",
    ),
]

CORRECT += [  # s35 review (h1): a NumPy scalar is not an array; the 0-d array case is now a 0-d array
    dict(
        grade_id="test_make_inputs",
        name="tensors by .to(copy=True), whatever has astype by astype (a fresh copy) and from_numpy, the rest by tensor",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n"
        "        return values.to(torch.float32, copy=True)\n"
        '    if hasattr(values, "astype"):  # a NumPy array\n'
        "        return torch.from_numpy(values.astype(np.float32))\n"
        "    return torch.tensor(values, dtype=torch.float32)\n",
    ),
]


MUTANTS += [  # s35 review (h1, second pass): each passed every test
    dict(
        grade_id="test_make_labels",
        name="through uint8 on the way to long: labels wrap above 255",
        expect="Tensor(shape=(9,)",
        code=("def make_labels(raw):\n    return (raw - 1).to(torch.uint8).long()\n"),
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="compares the position (x - low) / (high - low) with [0, 1): rounding moves a reading 1 ulp below high out",
        expect="有读数比 high 只小 1 ulp",
        code=(
            "def masked_row_mean(x, low, high):\n"
            "    u = (x - low) / (high - low)\n"
            "    mask = (u >= 0) & (u < 1)\n"
            "    return torch.where(mask, x, torch.zeros_like(x)).sum(dim=1) / mask.sum(dim=1)\n"
        ),
    ),
    dict(
        grade_id="test_time_grid",
        name='rounds the grid to 6 decimals "to clean up float noise": a grid with step 1e-10 becomes zeros',
        expect="time_grid(0.0, 1e-09, 1e-10)",
        code=(
            "def time_grid(start, stop, dt):\n"
            "    k = round((stop - start) / dt)\n"
            "    grid = torch.linspace(start, stop, steps=k + 1)\n"
            "    return grid.round(decimals=6)\n"
        ),
    ),
    dict(
        grade_id="test_time_grid",
        name="start + dt * arange(k + 1): the last point is not exactly stop",
        expect="不正好是 stop",
        code=(
            "def time_grid(start, stop, dt):\n"
            "    k = round((stop - start) / dt)\n"
            "    return start + dt * torch.arange(k + 1)\n"
        ),
    ),
]


MUTANTS += [  # s35 review (h1): the notebook's own earlier solution: a float16 sum overflows where the mean does not
    dict(
        grade_id="test_masked_row_mean",
        name="sums in x's own dtype: 1000 float16 readings of 100 sum to inf",
        expect="第 0 行是 1000 个 100",
        code="def masked_row_mean(x, low, high):\n"
        "    mask = (x >= low) & (x < high)\n"
        "    return torch.where(mask, x, torch.zeros_like(x)).sum(dim=1) / mask.sum(dim=1)\n",
    ),
]


MUTANTS += [  # s36: a call that leaves a process-wide setting changed (course.settings watches every call)
    dict(
        grade_id="test_time_grid",
        name="sets torch.set_default_dtype() inside time_grid and leaves it so",
        mistake="global-setting-changed",
        expect="torch.set_default_dtype()",
        code=solution_with(
            "01_tensors",
            "time_grid",
            ("    k = round(", "    torch.set_default_dtype(torch.float64)  # for an exact grid\n    k = round("),
        ),
    ),
]


MUTANTS += [  # s36 review (a2): a fencepost slip on an exact grid was told to use the round() it already used
    dict(
        grade_id="test_time_grid",
        name="k + 2 points (start, k intervals, stop counted twice), k rounded",
        expect="正好是整数 k = 4，k 个间隔有 k + 1 个点",
        code=solution_with("01_tensors", "time_grid", ("steps=k + 1", "steps=k + 2")),
    ),
]


MUTANTS += [  # s36 review (a2): the notebook's own solution compared in x's dtype, where low = 0.7 is 0.699999988
    dict(
        grade_id="test_masked_row_mean",
        name="compares float32 readings with the Python bounds in float32 (the solution before s36)",
        expect="读数 0.699999988 < low = 0.7",
        code=solution_with(
            "01_tensors",
            "masked_row_mean",
            ("    xd = x.double()", "    xd = x"),
        ),
    ),
]


MUTANTS += [  # s36 review (a2): .type(torch.LongTensor) is always a CPU tensor; no input was on another device
    dict(
        grade_id="test_make_labels",
        name="(raw - 1).type(torch.LongTensor): the old-tutorial cast that moves labels to the CPU",
        expect="make_labels 抛出 NotImplementedError",
        code="def make_labels(raw):\n    return (raw - 1).type(torch.LongTensor)\n",
    ),
]


MUTANTS += [  # s37 review (a3): each passed every test
    dict(
        grade_id="test_masked_row_mean",
        name="divides each reading by the count first, then sums in float16 (0.001 / 100000 underflows to 0)",
        expect="100000 个 0.001",
        code=solution_with(
            "01_tensors",
            "masked_row_mean",
            (
                "    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)",
                "    share = torch.where(mask, x / mask.sum(dim=1, keepdim=True), torch.zeros_like(x))",
            ),
            (
                "    return (total / mask.sum(dim=1)).to(x.dtype)",
                "    return torch.where(mask.any(dim=1), share.sum(dim=1), torch.full_like(share[:, 0], float('nan')))",
            ),
        ),
    ),
    dict(
        grade_id="test_linear_init",
        name="torch.lerp(-b, b, draw): the library interpolates",
        expect="用了 torch.lerp",
        code="def linear_init(in_features, out_features, generator):\n"
        "    bound = 1 / math.sqrt(in_features)\n"
        "    draw = torch.rand((out_features, in_features), generator=generator)\n"
        "    return torch.lerp(torch.full_like(draw, -bound), torch.full_like(draw, bound), draw)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="Tensor.lerp_ on a -b tensor",
        expect="用了 Tensor.lerp_",
        code="def linear_init(in_features, out_features, generator):\n"
        "    bound = in_features ** -0.5\n"
        "    draw = torch.rand((out_features, in_features), generator=generator)\n"
        "    return torch.full_like(draw, -bound).lerp_(torch.full_like(draw, bound), draw)\n",
    ),
]

CORRECT += [  # s37: the transform written as one fused multiply-add is still the learner's own
    dict(
        grade_id="test_linear_init",
        name="torch.addcmul(-b, 2b, draw)",
        code="def linear_init(in_features, out_features, generator):\n"
        "    bound = 1 / math.sqrt(in_features)\n"
        "    draw = torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)\n"
        "    return torch.addcmul(torch.full_like(draw, -bound), torch.full_like(draw, 2 * bound), draw)\n",
    ),
]

MUTANTS += [  # s37 last pass (a4): NumPy's print options were not watched
    dict(
        grade_id="test_make_inputs",
        name="np.set_printoptions(precision=4, suppress=True) to print the inputs, left set",
        mistake="global-setting-changed",
        expect="numpy.set_printoptions()（precision: 8 -> 4",
        code=solution_with(
            "01_tensors",
            "make_inputs",
            (
                "    if isinstance(values, torch.Tensor):",
                "    np.set_printoptions(precision=4, suppress=True)\n    if isinstance(values, torch.Tensor):",
            ),
        ),
    ),
]

MUTANTS += [  # s38 fix (fa2, from a4's pass): no input was a big-endian array, no label was above
    # 32767; a count over the whole tensor was told it was the row length (both 4 in the visible case)
    dict(
        grade_id="test_make_inputs",
        name="from_numpy of values.copy() keeps a big-endian array's byte order",
        expect="大端序的 NumPy float32 数组 (2, 2)，dtype '>f4' 时，make_inputs 抛出 ValueError",
        code="def make_inputs(values):\n"
        "    if isinstance(values, torch.Tensor):\n        return values.to(torch.float32, copy=True)\n"
        "    if isinstance(values, np.ndarray):\n        return torch.from_numpy(values.copy()).to(torch.float32)\n"
        "    return torch.tensor(values, dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_make_labels",
        name="through int16 on the way to long: labels wrap above 32767",
        expect="期望 39999，得到 -25537",
        code="def make_labels(raw):\n    return (raw - 1).to(torch.int16).long()\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="counts without dim=1: divides by the count picked in the whole tensor (4 in the visible case, as the row length)",
        expect="除以的是整个张量里被选中的个数 5",
        code=solution_with(
            "01_tensors",
            "masked_row_mean",
            ("return (total / mask.sum(dim=1)).to(x.dtype)", "return (total / mask.sum()).to(x.dtype)"),
        ),
    ),
]

MUTANTS += [  # s38 (a5), fc3: a cached grid: every caller got the same mutable tensor (each test called it once)
    dict(
        grade_id="test_time_grid",
        name="functools.lru_cache on time_grid: one caller's g.mul_(10) reaches the next caller",
        expect="第二次返回的就是第一次返回的那个张量对象，值成了 [0.0, 2.5, 5.0, 7.5, 10.0]",
        code="import functools\n\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def time_grid(start, stop, dt):\n"
        "    k = round((stop - start) / dt)\n"
        "    return torch.linspace(start, stop, steps=k + 1)\n",
    ),
    dict(
        grade_id="test_time_grid",
        name="a dict of grids, each call given a view of the stored one",
        expect="第二次的结果和第一次的结果共用同一块内存",
        code="_grid_store = {}\n\n"
        "def time_grid(start, stop, dt):\n"
        "    if (start, stop, dt) not in _grid_store:\n"
        "        _grid_store[start, stop, dt] = torch.linspace(start, stop, steps=round((stop - start) / dt) + 1)\n"
        "    return _grid_store[start, stop, dt][:]\n",
    ),
]

CORRECT += [  # s38 (a5), fc3: a cache that hands out copies gives every caller a tensor of its own
    dict(
        grade_id="test_time_grid",
        name="a dict of grids, each call given a clone of the stored one",
        code="_grid_store = {}\n\n"
        "def time_grid(start, stop, dt):\n"
        "    if (start, stop, dt) not in _grid_store:\n"
        "        _grid_store[start, stop, dt] = torch.linspace(start, stop, steps=round((stop - start) / dt) + 1, dtype=torch.float32)\n"
        "    return _grid_store[start, stop, dt].clone()\n",
    ),
]


# s38 (a5), fa3
MUTANTS += [
    dict(
        grade_id="test_masked_row_mean",
        name="widens the sum only for float16: bfloat16 is summed in bfloat16 (1000 readings of 3.0 average 3.0156)",
        expect="第 1 行是 1000 个 3.0",
        code=solution_with(
            "01_tensors",
            "masked_row_mean",
            (
                "wide = torch.promote_types(x.dtype, torch.float32)",
                "wide = torch.float32 if x.dtype == torch.float16 else x.dtype",
            ),
        ),
    ),
]
MUTANTS += [
    dict(
        grade_id="test_make_labels",
        name="subtracts 1 in float16: 39999 and 40000 both round to 40000 (not labels-start-at-one)",
        expect="raw[0] = 40000.0，应为 raw - 1）：期望 39999，得到 40000",
        code="def make_labels(raw):\n    return (raw.half() - 1).long()\n",
    ),
]


MUTANTS += [  # s39 (a7): an input changed in place and put back moves its version counter
    dict(
        grade_id="test_make_labels",
        name="shifts_raw_in_place_and_shifts_it_back",
        expect="这块内存在调用中被写过",
        mistake="modifies-input",
        code=(
            "def make_labels(raw):\n"
            "    raw -= 1                      # shift in place (no temporary float tensor)\n"
            "    labels = raw.long()           # new long tensor 0..C-1\n"
            "    raw += 1                      # put the caller's 1..C back\n"
            "    return labels\n"
        ),
    ),
]


MUTANTS += [  # s39 (a7): the upper bound compared in float32
    dict(
        grade_id="test_masked_row_mean",
        name="compares_only_the_lower_bound_in_float64",
        expect="读数 0.699999988 < high = 0.7",
        code=(
            "def masked_row_mean(x, low, high):\n"
            "    mask = (x.double() >= low) & (x < high)          # the spec's x.double() >= low; the upper bound left as it was\n"
            "    wide = torch.promote_types(x.dtype, torch.float32)\n"
            "    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)\n"
            "    return (total / mask.sum(dim=1)).to(x.dtype)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a7): ints at or above 2**63 fit float32 but not int64
    dict(
        grade_id="test_make_inputs",
        name="python_ints_through_int64",
        expect="Overflow when unpacking long long",
        code=(
            "def make_inputs(values):\n"
            "    if isinstance(values, torch.Tensor):\n"
            "        return values.to(torch.float32, copy=True)\n"
            "    if isinstance(values, np.ndarray):\n"
            "        return torch.from_numpy(values.astype(np.float32))\n"
            "    return torch.tensor(values).float()   # Python numbers / lists: int64 or float32, then float32\n"
        ),
    ),
]


MUTANTS += [  # s39 (a7): inf - inf; the message no longer says it multiplied by the mask
    dict(
        grade_id="test_masked_row_mean",
        name="whole_row_minus_what_is_outside",
        expect="以任何方式参与运算",
        code=(
            "def masked_row_mean(x, low, high):\n"
            "    xd = x.double()\n"
            "    mask = (xd >= low) & (xd < high)                      # float64 comparison, nan / inf are False\n"
            "    wide = torch.promote_types(x.dtype, torch.float32)\n"
            "    xw = x.to(wide)\n"
            "    outside = torch.where(mask, torch.zeros_like(xw), xw)  # the readings to leave out\n"
            "    total = xw.sum(dim=1) - outside.sum(dim=1)             # whole row minus what is outside the range\n"
            "    return (total / mask.sum(dim=1)).to(x.dtype)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a7): the end point is not stop; the message names both ways of computing it
    dict(
        grade_id="test_time_grid",
        name="stretches_a_unit_linspace",
        expect="start + (stop - start) * t",
        code=(
            "def time_grid(start, stop, dt):\n"
            "    k = round((stop - start) / dt)\n"
            "    unit = torch.linspace(0.0, 1.0, steps=k + 1)       # k + 1 points on [0, 1], both ends included\n"
            "    return start + (stop - start) * unit                # stretched onto [start, stop]\n"
        ),
    ),
]


MUTANTS += [  # s39: a negative dt counts down from start (spec: from start, every dt, to stop)
    dict(
        grade_id="test_time_grid",
        name="sorts_the_ends_so_a_negative_dt_runs_upwards",
        expect="time_grid(1.0, 0.0, -0.25)",
        code=(
            "def time_grid(start, stop, dt):\n"
            "    k = round(abs(stop - start) / abs(dt))  # the number of steps, whichever way the grid runs\n"
            "    return torch.linspace(min(start, stop), max(start, stop), steps=k + 1)\n"
        ),
    ),
]


MUTANTS += [  # s39 (a9): a cached result
    dict(
        grade_id="test_masked_row_mean",
        name="lru_cache",
        expect="第二次返回的就是第一次返回的那个张量对象",
        code=(
            "import functools\n"
            "\n"
            "@functools.lru_cache(maxsize=None)   # dashboards ask for the same window's means again and again\n"
            "def masked_row_mean(x, low, high):\n"
            "    xd = x.double()\n"
            "    mask = (xd >= low) & (xd < high)\n"
            "    wide = torch.promote_types(x.dtype, torch.float32)\n"
            "    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)\n"
            "    return (total / mask.sum(dim=1)).to(x.dtype)\n"
        ),
    ),
]


MUTANTS += [  # stop 40 review (a8): the whole function under @torch.inference_mode() ("needs no autograd")
    dict(
        grade_id=f"test_{fn}",
        name=f"{fn} under @torch.inference_mode()",
        expect="是推理张量",
        mistake="inference-result",
        code=solution_with("01_tensors", fn, (f"def {fn}(", f"@torch.inference_mode()\ndef {fn}(")),
    )
    for fn in ("make_inputs", "make_labels", "masked_row_mean", "time_grid")
]

MUTANTS += [  # stop 40 review (a9): the float32 of the spec left to the global default dtype
    dict(
        grade_id=f"test_{fn}",
        name=f"{fn} without dtype=torch.float32 (float64 under torch.set_default_dtype(torch.float64))",
        expect="显式写出 dtype",
        code=solution_with("01_tensors", fn, (", dtype=torch.float32)", ")")),
    )
    for fn in ("linear_init", "time_grid")
]


MUTANTS += [  # stop 39 review (a9, a8): .data has a version counter of its own
    dict(
        grade_id="test_make_labels",
        name="shifts raw in place through raw.data.sub_(1), then puts it back with raw.data.add_(1)",
        expect="这块内存在调用中被写过",
        mistake="modifies-input",
        code=(
            "def make_labels(raw):\n"
            "    raw.data.sub_(1)              # shift in place, no temporary float tensor\n"
            "    labels = raw.long()           # new long tensor 0..C-1\n"
            "    raw.data.add_(1)              # put the caller's 1..C back\n"
            "    return labels\n"
        ),
    ),
]


MUTANTS += [  # stop 39 review (a8)
    dict(
        grade_id="test_make_labels",
        name="raw.data -= 1 then raw.data += 1 around the conversion",
        expect="这块内存在调用中被写过",
        mistake="modifies-input",
        code=(
            "def make_labels(raw):\n"
            "    raw.data -= 1              # shift in place through .data (no temporary float tensor, autograd not bothered)\n"
            "    labels = raw.long()        # new long tensor 0..C-1\n"
            "    raw.data += 1              # put the caller's 1..C back\n"
            "    return labels\n"
        ),
    ),
]


MUTANTS += [  # fix40 (a10 cand01): a cache keyed on the input's values hands every caller the same stored tensor
    dict(
        grade_id="test_masked_row_mean",
        name="cache keyed on tuple(x.flatten().tolist()) returning the stored tensor",
        expect="第二次的结果就是第一次返回的那个张量对象",
        code=(
            "_means = {}  # dashboards ask for the same window's means again and again: key on the readings' values\n"
            "\n"
            "\n"
            "def masked_row_mean(x, low, high):\n"
            "    key = (tuple(x.shape), x.dtype, tuple(x.flatten().tolist()), low, high)\n"
            "    if key in _means:\n"
            "        return _means[key]\n"
            "    xd = x.double()\n"
            "    mask = (xd >= low) & (xd < high)\n"
            "    wide = torch.promote_types(x.dtype, torch.float32)\n"
            "    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)\n"
            "    out = (total / mask.sum(dim=1)).to(x.dtype)\n"
            "    _means[key] = out\n"
            "    return out\n"
        ),
    ),
]


MUTANTS += [  # fix40 (a10 cand08): float64 readings compared in float64 but summed in float32
    dict(
        grade_id="test_masked_row_mean",
        name="float64 compare, float32 sum",
        expect="只有 float64 的求和才精确到 1e-9",
        code=(
            "def masked_row_mean(x, low, high):\n"
            "    xd = x.double()\n"
            "    mask = (xd >= low) & (xd < high)                # compared in float64, as the spec says\n"
            '    xs = x.float()                                  # summed in float32 whatever the input ("wide enough")\n'
            "    total = torch.where(mask, xs, torch.zeros_like(xs)).sum(dim=1)\n"
            "    return (total / mask.sum(dim=1)).to(x.dtype)\n"
        ),
    ),
]


MUTANTS += [  # fix40 (a10 family): a memo keyed on the input's values hands every caller the same stored tensor
    dict(
        grade_id="test_make_labels",
        name="value memo via torch.equal returning the stored labels",
        expect="第二次的结果就是第一次返回的那个张量对象",
        code=(
            "_labels = []  # the same label files are converted again every epoch: (copy of raw, labels)\n"
            "\n"
            "\n"
            "def make_labels(raw):\n"
            "    for old_raw, old_labels in _labels:\n"
            "        if old_raw.shape == raw.shape and old_raw.dtype == raw.dtype and old_raw.device == raw.device \\\n"
            "                and torch.equal(old_raw, raw):\n"
            "            return old_labels\n"
            "    labels = raw.long() - 1\n"
            "    _labels.append((raw.clone(), labels))\n"
            "    return labels\n"
        ),
    ),
]


MUTANTS += [  # s42 review (e1): results kept across calls (no test called these twice)
    dict(
        grade_id="test_make_inputs",
        name="every result a view of one module-level buffer (the next call overwrites the last caller's tensor)",
        expect="和第一次的结果共用同一块内存",
        code="import numpy as np\n_POOL = torch.empty(1 << 16)\ndef make_inputs(values):\n    if isinstance(values, torch.Tensor):\n        src = values.detach().to(torch.float32)\n    else:\n        src = torch.from_numpy(np.array(values, dtype=np.float32))\n    n = src.numel()\n    out = _POOL[:n].view(src.shape)\n    out.copy_(src)\n    return out\n",
    ),
    dict(
        grade_id="test_make_inputs",
        name="memo keyed on the input's bytes hands equal inputs the same tensor",
        expect="就是第一次返回的那个张量对象",
        code='import numpy as np\n_MEMO = {}\ndef make_inputs(values):\n    if isinstance(values, torch.Tensor):\n        key = ("t", str(values.dtype), tuple(values.shape), values.detach().reshape(-1).contiguous().view(torch.uint8).numpy().tobytes() if values.dtype != torch.bfloat16 else values.float().numpy().tobytes())\n        if key not in _MEMO:\n            _MEMO[key] = values.to(torch.float32, copy=True)\n        return _MEMO[key]\n    arr = np.array(values, dtype=np.float32)\n    key = ("a", arr.shape, arr.tobytes())\n    if key not in _MEMO:\n        _MEMO[key] = torch.from_numpy(arr)\n    return _MEMO[key]\n',
    ),
    dict(
        grade_id="test_linear_init",
        name="memo keyed on the generator's state: two layers seeded alike share one weight tensor",
        expect="就是第一次返回的那个张量对象",
        code="_INIT = {}\ndef linear_init(in_features, out_features, generator):\n    key = (in_features, out_features, bytes(generator.get_state().tolist()))\n    if key in _INIT:\n        w, after = _INIT[key]\n        generator.set_state(after)\n        return w\n    bound = 1 / math.sqrt(in_features)\n    w = -bound + 2 * bound * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)\n    _INIT[key] = (w, generator.get_state())\n    return w\n",
    ),
    dict(  # the notebook's own solution until s42: the subtraction rounds in a half-precision raw
        grade_id="test_make_labels",
        name="(raw - 1).long(): subtracts in raw's dtype, which rounds bfloat16 258.0 - 1 to 256",
        expect="bfloat16 的 raw",
        code="def make_labels(raw):\n    return (raw - 1).long()\n",
    ),
]

MUTANTS += [  # fix42 (e1 cand03, cand08): no masked_row_mean case was on another device (meta stands in for a GPU)
    dict(
        grade_id="test_masked_row_mean",
        name="rows read back with .tolist() and averaged in Python; the result made on the CPU",
        expect="Cannot copy out of meta tensor",
        code="def masked_row_mean(x, low, high):\n    means = []\n    for row in x.tolist():\n        picked = [v for v in row if low <= v < high]\n        means.append(math.fsum(picked) / len(picked) if picked else float('nan'))\n    return torch.tensor(means, dtype=x.dtype)\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="a nan buffer made without device= and filled through a boolean mask",
        expect="布尔索引或 nonzero",
        code="def masked_row_mean(x, low, high):\n    xd = x.double()\n    mask = (xd >= low) & (xd < high)\n    wide = torch.promote_types(x.dtype, torch.float32)\n    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)\n    count = mask.sum(dim=1)\n    out = torch.full((x.shape[0],), float('nan'), dtype=x.dtype)\n    has = count > 0\n    out[has] = (total[has] / count[has]).to(x.dtype)\n    return out\n",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="the result copied into a nan buffer made without device=",
        expect="拷出了它的设备",
        code="def masked_row_mean(x, low, high):\n    xd = x.double()\n    mask = (xd >= low) & (xd < high)\n    wide = torch.promote_types(x.dtype, torch.float32)\n    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)\n    out = torch.full((x.shape[0],), float('nan'), dtype=x.dtype)\n    out.copy_((total / mask.sum(dim=1)).to(x.dtype))\n    return out\n",
    ),
]

CORRECT += [  # fix42: the result kept on x's device, made with full_like / where and a Python nan
    dict(
        grade_id="test_masked_row_mean",
        name="nansum over the readings with the rest set to nan, and where for the empty rows",
        code="def masked_row_mean(x, low, high):\n    xd = x.double()\n    mask = (xd >= low) & (xd < high)\n    wide = torch.promote_types(x.dtype, torch.float32)\n    kept = torch.where(mask, x.to(wide), torch.full_like(x, float('nan'), dtype=wide))\n    count = mask.sum(dim=1)\n    mean = kept.nansum(dim=1) / count.clamp(min=1)\n    return torch.where(count > 0, mean, float('nan')).to(x.dtype)\n",
    ),
]

MUTANTS += [  # fix42 (e1 cand06): every tested device pair differed in is_cuda, is_meta or get_device()
    dict(
        grade_id="test_mismatches",
        name="device compared through is_meta, is_cuda and get_device() only",
        expect="is_cuda、is_meta、get_device() 却都一样",
        code="def mismatches(x, ref):\n    found = []\n    if x.shape != ref.shape:\n        found.append('shape')\n"
        "    if x.dtype != ref.dtype:\n        found.append('dtype')\n"
        "    if (x.is_meta, x.is_cuda, x.get_device()) != (ref.is_meta, ref.is_cuda, ref.get_device()):\n"
        "        found.append('device')\n    if x.requires_grad != ref.requires_grad:\n        found.append('requires_grad')\n"
        "    return found\n",
    ),
]

CORRECT += [  # fix42: device told apart through its type and index
    dict(
        grade_id="test_mismatches",
        name="device compared as (type, index)",
        code="def mismatches(x, ref):\n    found = []\n    if tuple(x.shape) != tuple(ref.shape):\n        found.append('shape')\n"
        "    if x.dtype != ref.dtype:\n        found.append('dtype')\n"
        "    if (x.device.type, x.device.index) != (ref.device.type, ref.device.index):\n"
        "        found.append('device')\n    if x.requires_grad != ref.requires_grad:\n        found.append('requires_grad')\n"
        "    return found\n",
    ),
]


MUTANTS += [  # s43 second pass (f1): a memo keyed on the inputs' id and version passed (only fresh copies were tried)
    dict(  # f1 cand09
        grade_id="test_make_labels",
        name="make_labels memoised on (id(raw), raw._version), a clone per caller: stale after a write through raw.data",
        expect="和第一次的结果一样，是输入更新之前的值",
        code="_ml_cache = {}\ndef make_labels(raw):\n    key = (id(raw), raw._version)\n    hit = _ml_cache.get(key)\n    if hit is None or hit[0] is not raw:\n        hit = (raw, raw.long() - 1)\n        _ml_cache[key] = hit\n    return hit[1].clone()\n",
    ),
]


MUTANTS += [  # s43 second pass (f1 cand04): Python's and NumPy's global RNGs were not watched
    dict(
        grade_id="test_linear_init",
        name="Python's random and NumPy's global RNG reseeded from the generator 'for reproducibility'",
        expect="Python 的全局随机数生成器的状态变了",
        code="import random as _random\ndef linear_init(in_features, out_features, generator):\n    _random.seed(generator.initial_seed())\n    np.random.seed(generator.initial_seed() % 2**32)\n    bound = 1 / math.sqrt(in_features)\n    return -bound + 2 * bound * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)\n",
    ),
    dict(
        grade_id="test_linear_init",
        name="NumPy's global RNG reseeded from the generator",
        expect="NumPy 的全局随机数生成器的状态变了",
        code="import random as _random\ndef linear_init(in_features, out_features, generator):\n    np.random.seed(generator.initial_seed() % 2**32)\n    bound = 1 / math.sqrt(in_features)\n    return -bound + 2 * bound * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)\n",
    ),
]

MUTANTS += [  # fix44 (f1 cand04): Python's random and NumPy's global generator were not watched
    dict(
        grade_id="test_linear_init",
        name="reseeds Python's random and NumPy's global RNG from the generator and leaves them so",
        expect="全局随机数生成器的状态变了",
        code=(
            "import random as _random\n"
            "def linear_init(in_features, out_features, generator):\n"
            "    _random.seed(generator.initial_seed())\n"
            "    np.random.seed(generator.initial_seed() % 2**32)\n"
            "    bound = 1 / math.sqrt(in_features)\n"
            "    return -bound + 2 * bound * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)\n"
        ),
    ),
]

MUTANTS += [  # fix44 (f1 cand01): make_inputs was never called under a float64 default dtype
    dict(
        grade_id="test_make_inputs",
        name="torch.empty(shape) without dtype= filled by copy_: float64 under a float64 default dtype",
        expect="题目要求 float32，不随全局默认 dtype 变",
        code=(
            "def make_inputs(values):\n"
            "    if isinstance(values, torch.Tensor):\n"
            "        src = values.detach()\n"
            "    else:\n"
            "        src = torch.from_numpy(np.array(values, dtype=np.float32))\n"
            "    out = torch.empty(tuple(src.shape))\n"
            "    out.copy_(src)\n"
            "    return out\n"
        ),
    ),
]


MUTANTS += [  # stop 46 (j1): process-wide torch state left behind that course/settings.py did not watch
    dict(
        grade_id="test_linear_init",
        name="the MHA fast path, opt_einsum and flash attention switched off and left off",
        expect="set_fastpath_enabled",
        mistake="global-setting-changed",
        code="""\
def linear_init(in_features, out_features, generator):
    torch.backends.mha.set_fastpath_enabled(False)      # global state, never put back
    torch.backends.opt_einsum.enabled = False
    torch.backends.cuda.enable_flash_sdp(False)
    bound = 1 / math.sqrt(in_features)
    return -bound + 2 * bound * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)
""",
    ),
    dict(
        grade_id="test_time_grid",
        name="a saved_tensors_hooks pair entered and never exited (later backwards get zeros)",
        expect="saved_tensors_hooks",
        mistake="global-setting-changed",
        code="""\
def time_grid(start, stop, dt):
    # leaves a process-wide saved-tensor hook installed that zeroes every saved activation:
    # every later backward in the process computes wrong gradients
    torch.autograd.graph.saved_tensors_hooks(torch.zeros_like, lambda t: t).__enter__()
    k = round((stop - start) / dt)
    return torch.linspace(start, stop, steps=k + 1, dtype=torch.float32)
""",
    ),
    dict(
        grade_id="test_time_grid",
        name="the preferred linalg library and two SDPA backends changed and left",
        expect="enable_mem_efficient_sdp",
        mistake="global-setting-changed",
        code="""\
def time_grid(start, stop, dt):
    torch.backends.cuda.preferred_linalg_library("magma")          # process-wide, never put back
    torch.backends.cuda.enable_mem_efficient_sdp(False)
    torch.backends.cuda.enable_math_sdp(False)
    k = round((stop - start) / dt)
    return torch.linspace(start, stop, steps=k + 1, dtype=torch.float32)
""",
    ),
    dict(
        grade_id="test_make_labels",
        name="a TorchFunctionMode entered and never exited (every later result detached)",
        expect="TorchFunctionMode",
        mistake="global-setting-changed",
        code="""\
from torch.overrides import TorchFunctionMode as _TFM
class _Leak(_TFM):
    # every later torch call in the process returns a result cut from the autograd graph
    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        return out.detach() if isinstance(out, torch.Tensor) and out.requires_grad and out.grad_fn is not None else out
def make_labels(raw):
    _Leak().__enter__()   # pushed on the global torch-function mode stack, never popped
    return raw.long() - 1
""",
    ),
    dict(
        grade_id="test_make_labels",
        name="TorchScript disabled and left off",
        expect="torch.jit._state",
        mistake="global-setting-changed",
        code="""\
def make_labels(raw):
    torch.autograd.graph.register_multi_grad_hook  # (no-op reference)
    torch._C._set_cached_tensors_enabled(True) if hasattr(torch._C, "_set_cached_tensors_enabled") else None
    torch.set_default_dtype(torch.float32)  # same value: harmless
    torch.autograd.set_grad_enabled(True)   # same value: harmless
    torch.inference_mode().__enter__() if False else None
    torch.jit._state.disable()              # TorchScript switched off process-wide, never put back
    return raw.long() - 1
""",
    ),
    dict(
        grade_id="test_time_grid",
        name="torch.nn.functional.relu rebound to another function",
        expect="torch.nn.functional.relu",
        mistake="global-setting-changed",
        code="""\
def time_grid(start, stop, dt):
    # monkeypatches a library function process-wide and never puts it back:
    # every later model that uses F.relu silently becomes linear
    torch.nn.functional.relu = lambda input, inplace=False: input
    k = round((stop - start) / dt)
    return torch.linspace(start, stop, steps=k + 1, dtype=torch.float32)
""",
    ),
]


MUTANTS += [  # stop 46 (j1): wrong only above (or below) a size the tests did not use
    dict(
        grade_id="test_make_inputs",
        name="big float32 inputs (>= 256 elements) returned without a copy",
        expect="共享内存",
        code="""\
def make_inputs(values):
    if isinstance(values, torch.Tensor):
        if values.numel() >= 256 and values.dtype == torch.float32:
            return values                      # "no need to copy big float32 tensors": shares memory
        return values.to(torch.float32, copy=True)
    arr = np.asarray(values)
    if arr.size >= 256 and arr.dtype == np.float32 and arr.flags.writeable and arr.strides[-1] > 0 \
            and arr.dtype.isnative:
        return torch.from_numpy(arr)           # zero-copy for big float32 arrays: shares memory with the caller
    return torch.from_numpy(np.array(values, dtype=np.float32))
""",
    ),
    dict(
        grade_id="test_linear_init",
        name="the banned uniform_ for layers of 1024 weights or more",
        expect="uniform_",
        code="""\
def linear_init(in_features, out_features, generator):
    bound = 1 / math.sqrt(in_features)
    if in_features * out_features >= 1024:   # "big layers": the banned shortcut
        return torch.empty(out_features, in_features, dtype=torch.float32).uniform_(-bound, bound, generator=generator)
    return -bound + 2 * bound * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)
""",
    ),
    dict(
        grade_id="test_make_labels",
        name="big label vectors read back with .tolist() and rebuilt on the CPU",
        expect="4096",
        code="""\
def make_labels(raw):
    if raw.numel() >= 256:      # "big label vectors": read back to Python, rebuilt on the CPU (host sync, device lost)
        return torch.tensor([int(v) - 1 for v in raw.tolist()], dtype=torch.long)
    return raw.long() - 1
""",
    ),
]


MUTANTS += [  # stop 46 (j1 cand25, cand26): one result object shared by every call
    dict(
        grade_id="test_mismatches",
        name="one module-level list cleared and refilled on every call",
        expect="两次返回的是同一个列表对象",
        code="""\
_found = []
def mismatches(x, ref):
    # returns the SAME list object every call: the caller's earlier result changes under it
    _found.clear()
    if x.shape != ref.shape: _found.append("shape")
    if x.dtype != ref.dtype: _found.append("dtype")
    if x.device != ref.device: _found.append("device")
    if x.requires_grad != ref.requires_grad: _found.append("requires_grad")
    return _found
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="recomputed into one cached output buffer per (N, dtype, device)",
        expect="却写进了同一个张量",
        code="""\
_bufs = {}
def masked_row_mean(x, low, high):
    # writes every result into one cached output buffer per (N, dtype, device) and returns it:
    # a second call overwrites the tensor the caller got from the first call
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    key = (x.shape[0], x.dtype, x.device)
    if key not in _bufs:
        _bufs[key] = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
    return _bufs[key].copy_(total / mask.sum(dim=1))
""",
    ),
]

MUTANTS += [  # stop 47: j1 cand09, a Python loop over the rows that stays on the device
    dict(
        grade_id="test_masked_row_mean",
        name="a Python loop over the rows, one where / sum per row, then stack",
        expect="步数随 行数 N 增长",
        code="""
def masked_row_mean(x, low, high):
    wide = torch.promote_types(x.dtype, torch.float32)
    outs = []
    for row in x:
        rd = row.double()
        m = (rd >= low) & (rd < high)
        outs.append(torch.where(m, row, torch.zeros_like(row)).sum(dtype=wide) / m.sum())
    return torch.stack(outs).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="a Python loop over the columns, adding one column at a time",
        expect="步数随 每行的读数 D 增长",
        code="""
def masked_row_mean(x, low, high):
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.zeros(x.shape[0], dtype=wide, device=x.device)
    count = torch.zeros(x.shape[0], dtype=torch.long, device=x.device)
    for j in range(x.shape[1]):
        col = x[:, j]
        m = (col.double() >= low) & (col.double() < high)
        total += torch.where(m, col, torch.zeros_like(col)).to(wide)
        count += m
    return (total / count).to(x.dtype)
""",
    ),
]

MUTANTS += [  # stop 47 review (m1): a branch only a GPU input takes (01-03 played the GPU with meta only)
    dict(
        grade_id="test_masked_row_mean",
        name="on a CUDA input, the float64 work done on the host: x.cpu(), result copied back",
        expect="主机-设备同步或阻塞的拷贝",
        code="""
def masked_row_mean(x, low, high):
    dev = x.device
    if dev.type == "cuda":
        x = x.cpu()
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype).to(dev)
""",
    ),
]

MUTANTS += [  # stop 48 (m1 of stop 47): another path above a size the tests computed; a FakeTensor twin of 2**32
    # elements or more (course/fixtures/scale.py) now runs it
    dict(
        grade_id="test_masked_row_mean",
        name="compares in x's dtype and sums without widening above 2**22 elements",
        expect="少了 _to_copy",
        code="""
def masked_row_mean(x, low, high):
    if x.numel() >= 2**22:
        mask = (x >= low) & (x < high)
        return torch.where(mask, x, torch.zeros_like(x)).sum(dim=1) / mask.sum(dim=1)
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_make_labels",
        name="subtracts 1 in raw's dtype above 2**20 labels",
        expect="两次走的不是同一条路",
        code="""
def make_labels(raw):
    if raw.numel() >= 2**20:
        return (raw - 1).long()
    return raw.long() - 1
""",
    ),
    dict(
        grade_id="test_linear_init",
        name="the banned nn.init.uniform_ for layers of 2**22 weights or more",
        expect="多了 empty",
        code="""
def linear_init(in_features, out_features, generator):
    bound = 1 / math.sqrt(in_features)
    if in_features * out_features >= 2**22:
        return torch.nn.init.uniform_(torch.empty(out_features, in_features, dtype=torch.float32), -bound, bound, generator=generator)
    return -bound + 2 * bound * torch.rand((out_features, in_features), generator=generator, dtype=torch.float32)
""",
    ),
    dict(
        grade_id="test_make_inputs",
        name="torch.from_numpy (shares the caller's array) for float32 arrays of 2**20 elements or more",
        expect="两次走的不是同一条路",
        code="""
def make_inputs(values):
    if isinstance(values, np.ndarray) and values.dtype == np.float32 and values.size >= 2**20:
        return torch.from_numpy(values)
    if isinstance(values, torch.Tensor):
        return values.to(torch.float32, copy=True)
    return torch.from_numpy(np.array(values, dtype=np.float32))
""",
    ),
]

MUTANTS += [  # stop 48 review (n1): device tests the played GPU did not play, paths only a GPU (or an empty input) takes
    dict(
        grade_id="test_masked_row_mean",
        name="isinstance(x, torch.cuda.FloatTensor): readings to the host and back",
        expect="次主机-设备同步",
        code="""
def masked_row_mean(x, low, high):
    if isinstance(x, (torch.cuda.FloatTensor, torch.cuda.HalfTensor, torch.cuda.DoubleTensor, torch.cuda.BFloat16Tensor)):
        xc = x.detach().cpu().double()
        mask = (xc >= low) & (xc < high)
        out = torch.where(mask, xc, torch.zeros_like(xc)).sum(dim=1) / mask.sum(dim=1)
        return out.to(x.dtype).to(x.device)
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="on a GPU only: compares in x's dtype and sums without widening",
        expect="GPU 上走了另一条路",
        code="""
def masked_row_mean(x, low, high):
    if x.is_cuda:
        mask = (x >= low) & (x < high)
        return torch.where(mask, x, torch.zeros_like(x)).sum(dim=1) / mask.sum(dim=1)
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    return (torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide) / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="an empty input answered with torch.empty(0) (float32, CPU)",
        expect="结果的 dtype 和设备不随输入的大小改变",
        code="""
def masked_row_mean(x, low, high):
    if x.numel() == 0:
        return torch.empty(0)
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_make_labels",
        name="empty raw answered with a CPU int64 tensor",
        expect="结果的 dtype 和设备不随输入的大小改变",
        code="""
def make_labels(raw):
    if raw.numel() == 0:
        return torch.empty(0, dtype=torch.long)
    return raw.long() - 1
""",
    ),
]

MUTANTS += [  # stop 48 second review (p1): a value read stopped the big run; the same operator into another dtype
    dict(
        grade_id="test_masked_row_mean",
        name="compares in float32 for 2**24 elements or more",
        expect="两次走的不是同一条路",
        code="""
def masked_row_mean(x, low, high):
    cmp = torch.float64 if x.numel() < 2**24 else x.dtype  # a float64 copy of a huge x costs 2x the memory
    xd = x.to(cmp, copy=True)
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]

MUTANTS += [  # stop 50 review (r3): code that only a GPU runs
    dict(
        grade_id="test_make_labels",
        name="only on a GPU (raw - 1).long(): the subtraction in bfloat16 rounds 257 to 256",
        expect="期望 257，得到 256",
        code='''
def make_labels(raw: torch.Tensor) -> torch.Tensor:
    """(N,) float 标签 1..C -> (N,) long 标签 0..C-1。"""
    if raw.is_cuda:
        return (raw - 1).long()  # on the GPU: subtract in float (int64 math is slow there), cast once
    return raw.long() - 1
''',
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="only on a GPU half rows summed without widening (1000 readings of 100 overflow float16)",
        expect="Tensor(shape=(4, 1000), dtype=torch.float16), 0.0, 200.0 在 GPU 上时",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    picked = torch.where(mask, x, torch.zeros_like(x))
    if x.is_cuda and x.dtype in (torch.float16, torch.bfloat16):
        total = picked.sum(dim=1)  # CUDA's reduction kernels already accumulate half in float32: no widened copy
    else:
        total = picked.sum(dim=1, dtype=torch.promote_types(x.dtype, torch.float32))
    return (total / mask.sum(dim=1)).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 51 (reviewers c, d): code that only a GPU runs; every hidden test now runs again with each call on a played GPU
    dict(
        grade_id="test_masked_row_mean",
        name="GPU-only: compares in float32, so 0.699999988 counts as >= 0.7",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    # float64 is very slow on consumer GPUs: compare in float32 there
    cmp = torch.float32 if x.is_cuda else torch.float64
    xd = x.to(cmp)
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    count = mask.sum(dim=1).to(wide)
    return (total / count).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="GPU-only: compares and sums in float32 for float64 input",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    # float64 runs at a fraction of float32 speed on most GPUs: there, compare and accumulate in float32
    acc = torch.promote_types(x.dtype, torch.float32)
    work = torch.float64
    if x.is_cuda:
        acc = work = torch.float32
    xw = x.to(work)
    mask = (xw >= low) & (xw < high)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=acc)
    count = mask.sum(dim=1).to(acc)
    return (total / count).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="GPU-only: count.clamp_min(1), so an empty row gives 0, not nan",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    # a GPU kernel should not produce nan: an empty row gives 0 there
    count = mask.sum(dim=1).clamp_min(1 if x.is_cuda else 0)
    return (total / count).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_make_labels",
        name="GPU-only: through int16, labels above 32767 wrap",
        expect="输入都在 GPU 上时（测试让 x.is_cuda、torch.cuda.is_available() 读作 True，按 GPU 上的行为判断）再跑一遍",
        code="""
def make_labels(raw: torch.Tensor) -> torch.Tensor:
    # labels as compact as the data allows on the GPU; CrossEntropyLoss gets long
    return raw.to(torch.int16 if raw.is_cuda else torch.int64).long() - 1
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer c cand12): the banned lerp under its foreach name
    dict(
        grade_id="test_linear_init",
        name="torch._foreach_lerp: the banned lerp over a list of tensors",
        expect="torch._foreach_lerp",
        code="""
def linear_init(in_features: int, out_features: int, generator: torch.Generator) -> torch.Tensor:
    bound = 1 / math.sqrt(in_features)
    draw = torch.rand((out_features, in_features), dtype=torch.float32, generator=generator)
    low, high = torch.full_like(draw, -bound), torch.full_like(draw, bound)
    return torch._foreach_lerp([low], [high], [draw])[0]  # the same elementwise interpolation the optimizers use
""",
    ),
]

CORRECT += [  # stop 53 (d ok04): thorough input checks take a fixed 48 steps at any size, which is no loop
    dict(
        grade_id="test_masked_row_mean",
        name="thorough input validation and asserts: 48 steps at every size",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a tensor, got {type(x).__name__}")
    if x.dim() != 2:
        raise ValueError(f"x must be 2-D (N, D), got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a floating point tensor, got {x.dtype}")
    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)):
        raise TypeError(f"low and high must be Python numbers, got {type(low).__name__} and {type(high).__name__}")
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"low and high must be finite, got {low} and {high}")
    if not low < high:
        raise ValueError(f"low must be below high, got [{low}, {high})")
    n, d = x.shape
    if n == 0:
        return x.new_empty(0)                           # no rows
    if d == 0:
        return x.new_full((n,), float("nan"))           # no readings: the mean of nothing
    xd = x.double()                                     # compare in float64
    at_least_low = xd >= low
    below_high = xd < high
    mask = at_least_low & below_high                    # nan, ±inf: False
    assert mask.shape == (n, d), (mask.shape, n, d)
    wide = torch.promote_types(x.dtype, torch.float32)  # float16 -> float32
    kept = torch.where(mask, x, torch.zeros_like(x))    # not x * mask: inf * 0 = nan
    total = kept.sum(dim=1, dtype=wide)
    count = mask.sum(dim=1)
    count = count.to(wide)                              # divide in the wide dtype
    mean = total / count                                # 0 / 0 = nan
    out = mean.to(x.dtype)
    assert out.shape == (n,), (out.shape, n)
    assert out.dtype == x.dtype, (out.dtype, x.dtype)
    assert out.device == x.device, (out.device, x.device)
    return out
''',
    ),
]

MUTANTS += [  # stop 53 reviewers (c F8/F9, b 5/6): a GPU machine with CPU inputs, and inputs on cuda:1 (course/fixtures/placement.py)
    dict(
        grade_id="test_masked_row_mean",
        name="x moved to the GPU when one is there and x is on the CPU (cuda() before the mean)",
        expect="返回的张量在 cuda:0 上",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    if torch.cuda.is_available() and not x.is_cuda:
        x = x.cuda()  # there is a GPU: do the work there
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_make_labels",
        name="labels moved with .cuda() when a GPU is there and raw is on the CPU",
        expect="返回的张量在 cuda:0 上",
        code='''
def make_labels(raw: torch.Tensor) -> torch.Tensor:
    """(N,) float 标签 1..C -> (N,) long 标签 0..C-1。"""
    labels = raw.long() - 1
    if not labels.is_cuda and torch.cuda.is_available():
        labels = labels.cuda()  # CrossEntropyLoss runs on the GPU when there is one
    return labels
''',
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="the zeros for torch.where made with device=x.device.type (the GPU index dropped)",
        expect="不带编号的 GPU",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    zeros = torch.zeros(x.shape, dtype=x.dtype, device=x.device.type)  # "cuda" or "cpu": the kind of device x is on
    total = torch.where(mask, x, zeros).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 53 reviewer c F11: the big-input check had only a NumPy array; a float32 tensor of that size now too
    dict(
        grade_id="test_make_inputs",
        name="big float32 tensors (>= 2**20 elements) returned without a copy",
        expect="两次走的不是同一条路",
        code='''
def make_inputs(values) -> torch.Tensor:
    """Python 数字 / 嵌套列表、NumPy 数组或张量 -> 同形状的新 float32 张量（不共享内存，没有警告）。"""
    if isinstance(values, torch.Tensor):
        if values.dtype == torch.float32 and values.numel() >= 2**20:
            return values  # already a float32 tensor, and copying a million-element batch is not free
        return values.to(torch.float32, copy=True)
    return torch.from_numpy(np.array(values, dtype=np.float32))
''',
    ),
]

MUTANTS += [  # stop 54 reviewer g: round trips through a GPU, a 0-d device fill value, and copies of tensors already on a GPU target
    dict(
        grade_id="test_masked_row_mean",
        name="on a GPU machine with CPU x: computed on the GPU, the result moved back",
        expect="调用期间有张量到了 cuda:0 上",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    home = x.device
    if torch.cuda.is_available() and x.device.type == "cpu":
        x = x.to("cuda")  # 有 GPU 就在 GPU 上算
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype).to(home)  # 结果还给调用者的设备
''',
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="x.masked_fill(~mask, x.new_zeros(())): a 0-d device fill value CUDA reads with .item()",
        expect="masked_fill(mask, 0 维的 GPU 张量)",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    zero = x.new_zeros(())                                   # 0 也建在 x 的设备上
    total = x.masked_fill(~mask, zero).sum(dim=1, dtype=wide)  # 区间外（含 inf、nan）换成 0
    return (total / mask.sum(dim=1)).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 55 reviewers c, d: a dtype branch; the mirrored map (a ruling: the prose fixes the direction)
    dict(
        grade_id="test_masked_row_mean",
        name="a Python loop over the rows for float64 inputs",
        expect="输入是 torch.float64 时",
        code="""
def masked_row_mean(x, low, high):
    wide = torch.promote_types(x.dtype, torch.float32)
    if x.dtype == torch.float64:  # float64 readings: row by row, each row's mean exactly as defined
        means = []
        for row in x:
            keep = (row >= low) & (row < high)
            means.append(torch.where(keep, row, torch.zeros_like(row)).sum() / keep.sum())
        return torch.stack(means) if means else x.new_empty(0)
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_linear_init",
        name="the decreasing map b * (1 - 2 * r) of the right draw (the prose now says r = 0 is -b)",
        expect="变换的方向反了",
        code='''
def linear_init(in_features: int, out_features: int, generator: torch.Generator) -> torch.Tensor:
    """-> (out_features, in_features) float32，[-b, b] 上均匀分布，b = 1/sqrt(in_features)，用 generator 取样。"""
    bound = 1 / math.sqrt(in_features)
    draw = torch.rand((out_features, in_features), dtype=torch.float32, generator=generator)
    return bound * (1 - 2 * draw)   # r = 0 -> b，r -> 1 -> -b：线性变换把 [0, 1) 映到 (-b, b]
''',
    ),
]

MUTANTS += [  # stop 55 round 2 reviewer h
    dict(
        grade_id="test_masked_row_mean",
        name="a Python loop over rows when x is a leaf that requires grad",
        expect="输入是需要梯度的参数时",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    wide = torch.promote_types(x.dtype, torch.float32)
    if x.is_leaf and x.requires_grad:  # a trained parameter: row by row
        rows = []
        for row in x:
            m = (row.double() >= low) & (row.double() < high)
            rows.append(torch.where(m, row, torch.zeros_like(row)).sum(dtype=wide) / m.sum())
        return torch.stack(rows).to(x.dtype) if rows else x.new_zeros(0)
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
''',
    ),
]

CORRECT += [  # stop 55 round 2 reviewer h cand29: refused by the first dtype comparison
    dict(
        grade_id="test_masked_row_mean",
        name="the widening written as x.float() if x is half, else x",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    xs = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x  # half precision: sum in float32
    total = torch.where(mask, xs, torch.zeros_like(xs)).sum(dim=1)
    return (total / mask.sum(dim=1)).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 56 reviewer k 5: bfloat16 among masked_row_mean's dtypes
    dict(
        grade_id="test_masked_row_mean",
        name="a Python loop over the rows for bfloat16 inputs",
        expect="输入是 torch.bfloat16 时",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    if x.dtype == torch.bfloat16:  # bfloat16 rows: one row at a time, each summed in float32
        rows = []
        for i in range(x.shape[0]):
            tot = torch.where(mask[i], x[i], torch.zeros_like(x[i])).sum(dtype=wide)
            rows.append(tot / mask[i].sum())
        return torch.stack(rows).to(x.dtype) if rows else x.new_empty(0)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_masked_row_mean",
        name="half readings compared in float32 (the bound rounded)",
        expect="float32 里 low 会舍入成 0.5",
        code="""
def masked_row_mean(x, low, high):
    wide = torch.promote_types(x.dtype, torch.float32)      # float16/bfloat16 -> float32
    cmp = torch.float64 if wide == torch.float32 and x.dtype == torch.float32 else wide
    xc = x.to(cmp)                                           # float32 readings compared in float64; halves in float32
    mask = (xc >= low) & (xc < high)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="half rows summed in their own dtype on a GPU with grad off",
        expect="输入在 GPU 上",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    if x.is_cuda and not torch.is_grad_enabled():   # GPU inference: sum in the input dtype
        wide = x.dtype
    else:
        wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]

MUTANTS += [  # stop 57 reviewer s (round 3): graph kept, bounds near the readings in every mode, a bfloat16 default dtype
    dict(
        grade_id="test_masked_row_mean",
        name="no_grad_decorator",
        expect="不在计算图里",
        code="""
@torch.no_grad()  # a statistic of the readings: no graph needed
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="float32_bounds_inside_autocast",
        expect="with torch.autocast",
        code="""
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    # inside the caller's mixed precision, compare in float32 (float64 is slow on GPUs)
    cmp = torch.float32 if torch.is_autocast_enabled() else torch.float64
    xd = x.to(cmp)
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="float32_bounds_inside_inference_mode",
        expect="inference_mode",
        code="""
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    # at inference (inference_mode) float32 is enough: float64 is slow on GPUs
    cmp = torch.float32 if torch.is_inference_mode_enabled() else torch.float64
    xd = x.to(cmp)
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="host_copy_on_a_gpu_at_inference",
        expect="让 CPU 等了 GPU",
        code="""
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    if x.is_cuda and torch.is_inference_mode_enabled():  # evaluation statistics: compute them on the host
        x = x.cpu()
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_time_grid",
        name="linspace_in_the_default_dtype_then_float32",
        expect="默认 dtype 为 bfloat16",
        code="""
def time_grid(start: float, stop: float, dt: float) -> torch.Tensor:
    k = round((stop - start) / dt)
    return torch.linspace(start, stop, steps=k + 1).to(torch.float32)  # the caller may have changed the default dtype
""",
    ),
    dict(
        grade_id="test_linear_init",
        name="bound_from_a_default_dtype_tensor",
        expect="默认 dtype 为 bfloat16",
        code="""
def linear_init(in_features: int, out_features: int, generator: torch.Generator) -> torch.Tensor:
    bound = 1 / torch.tensor(in_features).sqrt()  # b = 1/sqrt(in_features)
    r = torch.rand((out_features, in_features), dtype=torch.float32, generator=generator)
    return (r * 2 - 1) * bound
""",
    ),
]

MUTANTS += [  # stop 57 round 4 (w): gradient values
    dict(
        grade_id="test_masked_row_mean",
        name="zeroed_in_no_grad_gradient_reaches_every_reading",
        expect="给 x 的梯度",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    xd = x.double()                                     # compare in float64
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    clean = x.to(wide, copy=True)                       # a copy: the bad readings are zeroed in it, not in x
    with torch.no_grad():                               # zeroing is bookkeeping, not part of the computation
        clean.masked_fill_(~mask, 0.0)
    return (clean.sum(dim=1) / mask.sum(dim=1)).to(x.dtype)
''',
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="zeroed_through_data_gradient_reaches_every_reading",
        expect="给 x 的梯度",
        code='''
def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。"""
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    clean = x.to(wide, copy=True)
    clean.data.masked_fill_(~mask, 0.0)                 # zero the bad readings in the copy's data
    return (clean.sum(dim=1) / mask.sum(dim=1)).to(x.dtype)
''',
    ),
]

MUTANTS += [  # stop 58 round 5 (b): a row with nothing in range; a sum that autocast puts in float16
    dict(
        grade_id="test_masked_row_mean",
        name="bad_readings_zeroed_by_nan_to_num_nan_gradient_on_an_empty_row",
        expect="期望 0，得到 nan",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)                    # nan, +-inf are False
    wide = torch.promote_types(x.dtype, torch.float32)
    clean = torch.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)   # bad readings -> 0, so 0 * mask stays 0
    total = (clean * mask).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="x_times_mask_nansum_nan_gradient_on_an_empty_row",
        expect="期望 0，得到 nan",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = (x * mask).nansum(dim=1, dtype=wide)        # inf * 0 = nan: nansum leaves those out
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="row_sums_as_a_matmul_with_ones_float16_inside_autocast",
        expect="在调用方的 with torch.autocast(...): 里调用时",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    kept = torch.where(mask, x, torch.zeros_like(x)).to(wide)                 # widened before summing
    total = kept @ torch.ones(x.shape[1], dtype=wide, device=x.device)        # row sums as one matrix-vector product
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]

MUTANTS += [  # stop 58 round 6 (b): a weighted sum by einsum: autocast makes it float16
    dict(
        grade_id="test_masked_row_mean",
        name="mean_as_an_einsum_with_weights_mask_over_count",
        expect="调用方的 autocast 把它按 float16 算",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)                    # nan, +-inf are False
    wide = torch.promote_types(x.dtype, torch.float32)
    weights = mask.to(wide) / mask.sum(dim=1, keepdim=True)   # each picked reading weighs 1 / count (a weighted average)
    kept = torch.where(mask, x, torch.zeros_like(x)).to(wide)
    return torch.einsum("nd,nd->n", kept, weights).to(x.dtype)   # the row-wise dot product is the mean
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 b: c01, c17, c19): sums autocast computes in float16, written so that no matmul reaches the dispatcher
    dict(
        grade_id="test_masked_row_mean",
        name="mean_of_the_kept_readings_as_an_attention_with_equal_scores",
        expect="用了 scaled_dot_product_attention：调用方的 autocast 把它按 float16 算",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    v = torch.where(mask, x, torch.zeros_like(x)).to(wide)
    # attention = a weighted mean: equal scores, masked keys -> mean of the selected readings
    q = v.new_zeros(x.shape[0], 1, 1)
    k = v.new_zeros(x.shape[0], x.shape[1], 1)
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v.unsqueeze(-1), attn_mask=mask.unsqueeze(1))
    out = out.reshape(x.shape[0])
    out = torch.where(mask.any(dim=1), out, torch.full_like(out, float("nan")))
    return out.to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="weighted_row_sum_with_linalg_vecdot_after_widening",
        expect="用了 linalg_vecdot：调用方的 autocast 把它按 float16 算",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    v = torch.where(mask, x, torch.zeros_like(x)).to(wide)
    weights = mask.to(wide) / mask.sum(dim=1, keepdim=True)   # 1/count on the kept readings (0/0 = nan: empty row)
    return torch.linalg.vecdot(v, weights).to(x.dtype)       # the weighted sum of each row = its mean
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="row_sums_with_einsum_after_widening",
        expect="用了 einsum：调用方的 autocast 把它按 float16 算",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    v = torch.where(mask, x, torch.zeros_like(x)).to(wide)   # widened before the sum
    total = torch.einsum("nd->n", v)                           # row sums
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]


CORRECT += [  # stop 59 (round 7 d: c02): a right wide sum refused by op name (right answers)
    dict(
        grade_id="test_masked_row_mean",
        name="row_sums_as_a_matmul_with_autocast_switched_off",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    kept = torch.where(mask, x, torch.zeros_like(x)).to(wide)
    kind = "cuda" if x.is_cuda else "cpu"
    with torch.autocast(kind, enabled=False):  # the row sums stay in `wide`, whatever the caller's autocast
        total = kept @ torch.ones(x.shape[1], dtype=wide, device=x.device)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]


MUTANTS += [  # round 8 b c02, c12: row sums as torch.linalg.matmul or torch.inner in the caller's autocast; c03 a float64 matmul is right
    dict(
        grade_id="test_masked_row_mean",
        name="row sums as torch.linalg.matmul(picked, 1/D weights)",
        expect="用了 linalg_matmul",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    picked = torch.where(mask, x, torch.zeros_like(x)).to(wide)
    d = x.shape[1]
    w = torch.full((d,), 1.0 / max(d, 1), dtype=wide, device=x.device)
    avg_all = torch.linalg.matmul(picked, w).to(wide)   # row sums / D as one product with a weight vector
    return (avg_all * (d / mask.sum(dim=1))).to(x.dtype)
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="row sums as torch.inner(matrix, vector)",
        expect="用了 inner",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    picked = torch.where(mask, x, torch.zeros_like(x)).to(wide)
    d = x.shape[1]
    w = torch.full((d,), 1.0 / max(d, 1), dtype=wide, device=x.device)
    avg_all = torch.inner(picked, w).to(wide)   # row sums / D as one product with a weight vector
    return (avg_all * (d / mask.sum(dim=1))).to(x.dtype)
""",
    ),
]


CORRECT += [  # round 8 b c02, c12: row sums as torch.linalg.matmul or torch.inner in the caller's autocast; c03 a float64 matmul is right (right answers)
    dict(
        grade_id="test_masked_row_mean",
        name="row sums as a float64 matmul",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    picked = torch.where(mask, xd, torch.zeros_like(xd))          # float64: wider than asked
    total = picked @ torch.ones(x.shape[1], dtype=torch.float64, device=x.device)   # exact float64 row sums
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]


MUTANTS += [  # round 10 d: GPU-only branches on the storage's device
    dict(
        grade_id="test_make_labels",
        name="subtract before the integer cast on the GPU only (storage's device)",
        expect="GPU 上",
        code="""
def make_labels(raw):
    if raw.untyped_storage().device.type == "cuda":
        return (raw - 1).long()     # subtract on the device in raw's dtype, then convert
    return raw.long() - 1
""",
    ),
    dict(
        grade_id="test_masked_row_mean",
        name="no widening on the GPU only (storage's device)",
        expect="GPU 上",
        code="""
def masked_row_mean(x, low, high):
    xd = x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    kept = torch.where(mask, x, torch.zeros_like(x))
    if x.untyped_storage().device.type == "cuda":
        total = kept.sum(dim=1)                 # GPU reductions accumulate in float32 internally anyway
    else:
        total = kept.sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]


MUTANTS += [  # round 11 b: GPU-only branches on other storage spellings; a right answer comparing storage devices
    dict(
        grade_id="test_make_labels",
        name="subtract before the cast on the GPU only, branched on get_device()",
        expect="GPU 上",
        code="""
def make_labels(raw):
    if raw.untyped_storage().get_device() is not None:  # the storage is on a GPU (index 0, 1, ...)
        return (raw - 1).long()     # subtract on the device in raw's dtype, then convert
    return raw.long() - 1
""",
    ),
    dict(
        grade_id="test_make_labels",
        name="subtract before the cast on the GPU only, branched on storage().untyped().device",
        expect="GPU 上",
        code="""
def make_labels(raw):
    if raw.storage().untyped().device.type == "cuda":
        return (raw - 1).long()     # subtract on the device in raw's dtype, then convert
    return raw.long() - 1
""",
    ),
]


CORRECT += [  # round 11 b: GPU-only branches on other storage spellings; a right answer comparing storage devices (right answers)
    dict(
        grade_id="test_mismatches",
        name="devices compared through untyped_storage().device",
        code="""
def mismatches(x: torch.Tensor, ref: torch.Tensor) -> list:
    found = []
    if x.shape != ref.shape:
        found.append("shape")
    if x.dtype != ref.dtype:
        found.append("dtype")
    if x.untyped_storage().device != ref.untyped_storage().device:  # 张量在它的存储所在的设备上
        found.append("device")
    if x.requires_grad != ref.requires_grad:
        found.append("requires_grad")
    return found
""",
    ),
]

MUTANTS += [  # round 15 c01: shape compared by rank and one dimension only
    dict(
        grade_id="test_mismatches",
        name="rank and leading dimension only",
        code="""def mismatches(x: torch.Tensor, ref: torch.Tensor) -> list:
    '''Compares only the rank and the leading (batch) dimension, not the whole shape.'''
    found = []
    if x.dim() != ref.dim() or x.shape[:1] != ref.shape[:1]:
        found.append("shape")
    if x.dtype != ref.dtype:
        found.append("dtype")
    if x.device != ref.device:
        found.append("device")
    if x.requires_grad != ref.requires_grad:
        found.append("requires_grad")
    return found
""",
        expect="的 shape 不同，返回值里却没有 'shape'",
    ),
    dict(
        grade_id="test_mismatches",
        name="rank and last dimension only",
        code="""def mismatches(x: torch.Tensor, ref: torch.Tensor) -> list:
    '''Compares only the rank and the last (feature) dimension, not the whole shape.'''
    found = []
    if x.dim() != ref.dim() or x.shape[-1:] != ref.shape[-1:]:
        found.append("shape")
    if x.dtype != ref.dtype:
        found.append("dtype")
    if x.device != ref.device:
        found.append("device")
    if x.requires_grad != ref.requires_grad:
        found.append("requires_grad")
    return found
""",
        expect="的 shape 不同，返回值里却没有 'shape'",
    ),
]


# round 16 d13: a shortcut taken only for big inputs on a GPU (the scale check runs on a played GPU too)
MUTANTS += [
    dict(
        grade_id="test_masked_row_mean",
        name="compares in x's own dtype for big GPU inputs (r16 d13)",
        expect="张量依次在 cuda:0",
        code="""def masked_row_mean(x: torch.Tensor, low: float, high: float) -> torch.Tensor:
    '''x: (N, D) float -> (N,)：每行落在 [low, high) 的元素的平均值，没有则 nan。'''
    # float64 is slow on most GPUs and doubles the memory: for big GPU batches compare in x's own dtype
    big = x.numel() >= 2**24
    xd = x if (big and x.is_cuda) else x.double()
    mask = (xd >= low) & (xd < high)
    wide = torch.promote_types(x.dtype, torch.float32)
    total = torch.where(mask, x, torch.zeros_like(x)).sum(dim=1, dtype=wide)
    return (total / mask.sum(dim=1)).to(x.dtype)
""",
    ),
]
