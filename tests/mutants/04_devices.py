"""Wrong answers learners write for 04_devices; each must fail its test cell with the message named."""

from tests.notebooks import solution_with

_LIKE = "def to_device_like(x, ref):\n"

_ASYNC = "def to_device_async(batch, device):\n"

MUTANTS = [
    # predict_one_element
    dict(
        grade_id="test_predict_one_element",
        formative=True,
        name="a one-element tensor counts as a number",
        expect="不是 0-d",
        code='predict_one_element = "meta"\n',
    ),
    dict(
        grade_id="test_predict_one_element",
        formative=True,
        name="the result follows the CPU operand",
        expect="预测不对",
        code='predict_one_element = "cpu"\n',
    ),
    dict(
        grade_id="test_predict_one_element",
        formative=True,
        name="answers True instead of an outcome",
        expect="之一",
        code="predict_one_element = True\n",
    ),
    dict(
        grade_id="test_predict_one_element",
        formative=True,
        name="left the prediction unwritten",
        expect="还没有写预测",
        code="predict_one_element = ...\n",
    ),
    # predict_stack
    dict(
        grade_id="test_predict_stack",
        formative=True,
        name="0-d CPU tensors are exempt everywhere",
        expect="不是逐元素运算",
        code='predict_stack = "meta"\n',
    ),
    dict(
        grade_id="test_predict_stack",
        formative=True,
        name="the result lands on the CPU",
        expect="预测不对",
        code='predict_stack = "cpu"\n',
    ),
    dict(
        grade_id="test_predict_stack",
        formative=True,
        name="writes the exception class instead of its name",
        expect="之一",
        code="predict_stack = RuntimeError\n",
    ),
    # predict_meta_mm
    dict(
        grade_id="test_predict_meta_mm",
        formative=True,
        name="meta always catches mixed devices",
        expect="不检查设备",
        code='predict_meta_mm = "RuntimeError"\n',
    ),
    dict(
        grade_id="test_predict_meta_mm",
        formative=True,
        name="the result follows the CPU operand",
        expect="预测不对",
        code='predict_meta_mm = "cpu"\n',
    ),
    dict(
        grade_id="test_predict_meta_mm",
        formative=True,
        name="spells the device as torch.device",
        expect="之一",
        code='predict_meta_mm = torch.device("meta")\n',
    ),
    # to_device_like
    dict(
        grade_id="test_to_device_like",
        name="x.to(ref) also copies ref's dtype",
        expect="dtype",
        mistake="to-tensor-copies-dtype",
        code=_LIKE + "    return x.to(next(ref.parameters()) if isinstance(ref, nn.Module) else ref)\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="uses the global device instead of ref's",
        expect="读了全局变量 device",
        mistake="global-device",
        code=_LIKE + "    return x.to(device)\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="detaches while moving",
        expect="requires_grad",
        code=_LIKE
        + "    return x.detach().to(ref.device if isinstance(ref, torch.Tensor) else next(ref.parameters()).device)\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="x.to(device) without reassigning x",
        expect="返回的却是 x 本身",
        mistake="to-result-discarded",
        code=(
            _LIKE + "    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n"
            "    x.to(device)\n    return x\n"
        ),
    ),
    dict(
        grade_id="test_to_device_like",
        name="returns x unchanged",
        expect="还在 x 原来的",
        mistake="result-not-moved",
        code=_LIKE + "    return x\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="x.to(ref.device) without returning it",
        expect="torch.Tensor",
        code=_LIKE + "    x.to(ref.device)\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="treats a module like a tensor: ref.device",
        expect="next(ref.parameters()).device",
        code=_LIKE + "    return x.to(ref.device)\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="reads ref.weight, which a Sequential does not have",
        expect="不是每个模块都有 .weight",
        code=_LIKE + "    return x.to(ref.weight.device if isinstance(ref, nn.Module) else ref.device)\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="passes the module itself to x.to()",
        expect="nn.Module",
        code=_LIKE + "    return x.to(ref if isinstance(ref, nn.Module) else ref.device)\n",
    ),
    # causal_mask_fill
    dict(
        grade_id="test_causal_mask_fill",
        name="mask created on the default device",
        expect="device=scores.device",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)\n"
            "    return scores.masked_fill(future, float('-inf'))\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="tril instead of triu",
        expect="上三角",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    past = torch.ones(t, t, dtype=torch.bool, device=scores.device).tril(diagonal=-1)\n"
            "    return scores.masked_fill(past, float('-inf'))\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="triu() masks the diagonal too",
        expect="diagonal",
        mistake="causal-mask-hides-diagonal",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu()\n"
            "    return scores.masked_fill(future, float('-inf'))\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="float32 -inf tensor promotes float16 scores",
        expect="dtype",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
            "    return torch.where(future, torch.full((t, t), float('-inf'), device=scores.device), scores)\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="float mask",
        expect="torch.bool",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, device=scores.device).triu(diagonal=1)\n"
            "    return scores.masked_fill(future, float('-inf'))\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="in-place masked_fill_ on the input",
        expect="in-place",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
            "    return scores.masked_fill_(future, float('-inf'))\n"
        ),
    ),
    # move_to
    dict(
        grade_id="test_move_to",
        name="moves only the top level of a dict",
        expect="设备 (device)",
        code=(
            "def move_to(batch, device):\n"
            "    return {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}\n"
        ),
    ),
    dict(
        grade_id="test_move_to",
        name="turns tuples into lists",
        expect="container type",
        code=(
            "def move_to(batch, device):\n    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
            "    if isinstance(batch, dict):\n        return {k: move_to(v, device) for k, v in batch.items()}\n"
            "    if isinstance(batch, (list, tuple)):\n        return [move_to(v, device) for v in batch]\n"
            "    return batch\n"
        ),
    ),
    dict(
        grade_id="test_move_to",
        name="calls .to() on non-tensors",
        expect="原样返回",
        code=(
            "def move_to(batch, device):\n"
            "    if isinstance(batch, dict):\n        return {k: move_to(v, device) for k, v in batch.items()}\n"
            "    if isinstance(batch, (list, tuple)):\n        return type(batch)(move_to(v, device) for v in batch)\n"
            "    return batch.to(device)\n"
        ),
    ),
    dict(
        grade_id="test_move_to",
        name="drops non-tensor values",
        expect="键 (key)",
        code=(
            "def move_to(batch, device):\n    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
            "    if isinstance(batch, dict):\n"
            "        return {k: move_to(v, device) for k, v in batch.items() if not isinstance(v, (str, int))}\n"
            "    if isinstance(batch, (list, tuple)):\n        return type(batch)(move_to(v, device) for v in batch)\n"
            "    return batch\n"
        ),
    ),
    dict(
        grade_id="test_move_to",
        name="replaces the values of the input dict in place",
        expect="原地 (in-place)",
        mistake="modifies-input",
        code=(
            "def move_to(batch, device):\n    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
            "    if isinstance(batch, dict):\n        for k in batch:\n            batch[k] = move_to(batch[k], device)\n"
            "        return batch\n"
            "    if isinstance(batch, (list, tuple)):\n        return type(batch)(move_to(v, device) for v in batch)\n"
            "    return batch\n"
        ),
    ),
    dict(
        grade_id="test_move_to",
        name="lets torch.utils._pytree.tree_map do the recursion",
        expect="tree_map",
        code=(
            "import torch.utils._pytree as pytree\n\n"
            "def move_to(batch, device):\n"
            "    return pytree.tree_map(lambda t: t.to(device) if isinstance(t, torch.Tensor) else t, batch)\n"
        ),
    ),
    # to_device_async
    dict(
        grade_id="test_to_device_async",
        name="non_blocking=True for every copy",
        expect="可分页 (pageable)",
        code=_ASYNC + "    return {k: t.to(device, non_blocking=True) for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="never non_blocking",
        expect="没有用 non_blocking=True",
        code=_ASYNC + "    return {k: t.to(device) for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pins in the main thread, then copies non_blocking",
        expect="pin_memory()",
        code=_ASYNC + "    return {k: (t.pin_memory() if t.device.type == 'cpu' else t).to(device, non_blocking=True) "
        "for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="non_blocking whenever the target is not the CPU side",
        expect="可分页 (pageable)",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.to(device, non_blocking=device.type == 'cuda') for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="non_blocking whenever the source is on the GPU",
        expect="GPU -> CPU",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.to(device, non_blocking=t.is_pinned() or t.device.type == 'cuda') for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="moves the tensors into the caller's dict",
        expect="不要修改调用者的 batch",
        mistake="modifies-input",
        code=_ASYNC + "    for k, t in batch.items():\n"
        "        batch[k] = t.to(device, non_blocking=t.is_pinned() and torch.device(device).type == 'cuda')\n"
        "    return batch\n",
    ),
    # issue 17 review pass (n456c): skill-skipping answers a fresh reviewer found
    dict(
        grade_id="test_move_to",
        name="walks the batch with torch.fx.node.map_aggregate",
        expect="torch.fx.node.map_aggregate",
        code=(
            "def move_to(batch, device):\n"
            "    return torch.fx.node.map_aggregate(batch, lambda v: v.to(device) if isinstance(v, torch.Tensor) else v)\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="CPU mask through masked_scatter (meta accepts it)",
        expect="device=scores.device",
        code=(
            "def causal_mask_fill(scores):\n"
            "    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)\n"
            '    return scores.masked_scatter(future, torch.full_like(scores, float("-inf")))\n'
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="adds a -inf mask: +inf/nan above the diagonal give nan",
        expect="得到 nan",
        code=(
            "def causal_mask_fill(scores):\n"
            "    t = scores.shape[-1]\n"
            '    return scores + torch.full((t, t), float("-inf"), dtype=scores.dtype, device=scores.device).triu(diagonal=1)\n'
        ),
    ),
    # issue 17 review pass (rfb)
    dict(
        grade_id="test_move_to",
        name="lets DDP's torch.distributed.utils._recursive_to do the recursion",
        expect="torch.distributed.utils._recursive_to",
        code=(
            "from torch.distributed.utils import _recursive_to\n\n"
            "def move_to(batch, device):\n    return _recursive_to(batch, torch.device(device), False)[0]\n"
        ),
    ),
    dict(
        grade_id="test_move_to",
        name="maps .to over the batch with torch.distributed.utils._apply_to_tensors",
        expect="torch.distributed.utils._apply_to_tensors",
        code=(
            "from torch.distributed import utils as dist_utils\n\n"
            "def move_to(batch, device):\n    return dist_utils._apply_to_tensors(lambda t: t.to(device), batch)\n"
        ),
    ),
    dict(
        grade_id="test_to_device_like",
        name="x.cuda()-style move kept in a local, x returned",
        expect="返回的却是 x 本身",
        mistake="to-result-discarded",
        code=(
            _LIKE + "    moved = x.to(next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device)\n"
            "    return x\n"
        ),
    ),
    dict(
        grade_id="test_to_device_async",
        name=".cuda() for any CUDA target: 'cuda:1' lands on the current device",
        expect="cuda:0",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.cuda(non_blocking=t.is_pinned()) if device.type == 'cuda' else t.cpu() for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="moves to ref's device type only, dropping the index",
        expect="cuda:0",
        code=_LIKE + "    d = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n"
        "    return x.to(d.type)\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="hard-codes the two devices the tests use",
        expect="ref 在 cuda:1 上",
        code=_LIKE + "    t = next(ref.parameters()) if isinstance(ref, nn.Module) else ref\n"
        "    return x.to('meta' if t.is_meta else 'cpu')\n",
    ),
    # found by the closing issue-17 review (r0105): each passed every test before
    dict(
        grade_id="test_causal_mask_fill",
        name="mask made on the CPU, then moved to scores.device",
        expect="先在 CPU 上建了一个形状",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1).to(scores.device)\n"
            "    return scores.masked_fill(future, float('-inf'))\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="mask made on the CPU, then copied into an empty one on scores.device",
        expect="先在 CPU 上建了一个形状",
        code=(
            "def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
            "    future = torch.empty(t, t, dtype=torch.bool, device=scores.device)\n"
            "    future.copy_(torch.ones(t, t, dtype=torch.bool).triu(diagonal=1))\n"
            "    return scores.masked_fill(future, float('-inf'))\n"
        ),
    ),
    # issue-17 final pass (rva): host data reaching the device other than through .to()
    dict(
        grade_id="test_causal_mask_fill",
        name="torch.triu_indices on the CPU, used as indices on the device",
        expect="device=scores.device",
        code=(
            "def causal_mask_fill(scores):\n"
            "    t = scores.shape[-1]\n"
            "    rows, cols = torch.triu_indices(t, t, 1)\n"
            "    out = scores.clone()\n"
            '    out[..., rows, cols] = float("-inf")\n'
            "    return out\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="mask built from a Python list with torch.tensor(..., device=scores.device)",
        expect="torch.tensor",
        code=(
            "def causal_mask_fill(scores):\n"
            "    t = scores.shape[-1]\n"
            "    future = torch.tensor([[j > i for j in range(t)] for i in range(t)], device=scores.device)\n"
            '    return scores.masked_fill(future, float("-inf"))\n'
        ),
    ),
]

# Right answers written another way: each must pass its test cell (tests/test_mutants.py).
CORRECT = [
    dict(
        grade_id="test_to_device_async",
        name=".cuda(device) for CUDA targets, .cpu() otherwise",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.cuda(device, non_blocking=t.is_pinned()) if device.type == 'cuda' else t.cpu()\n"
        "            for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="spells out Tensor.to's keywords, copy=False included",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.to(device=device, non_blocking=t.is_pinned() and device.type == 'cuda', copy=False)\n"
        "            for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="creates the mask under `with torch.device(scores.device)`",
        code=(
            "def causal_mask_fill(scores):\n"
            "    t = scores.shape[-1]\n"
            "    with torch.device(scores.device):\n"
            "        future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)\n"
            '    return scores.masked_fill(future, float("-inf"))\n'
        ),
    ),
]

MUTANTS += [  # issue-17 fresh pass (rva5): the harness's KeyError answered these before
    dict(
        grade_id="test_to_device_async",
        name="converts to float32 after the move",
        expect="dtype 不对：期望 torch.int64，得到 torch.float32",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.to(device, non_blocking=t.is_pinned() and device.type == 'cuda').float()\n"
        "            for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="scales the values after the move",
        expect="的数值（meta 扮演 GPU）",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.to(device, non_blocking=t.is_pinned() and device.type == 'cuda') * 2\n"
        "            for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pins in the main thread through a factory's pin_memory=True, then copies non_blocking",
        expect="pin_memory=True",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if t.device.type == 'cpu' and device.type == 'cuda':\n"
        "            t = torch.empty(t.shape, dtype=t.dtype, pin_memory=True).copy_(t)\n"
        "        out[k] = t.to(device, non_blocking=t.device.type == 'cpu' and device.type == 'cuda')\n"
        "    return out\n",
    ),
]

CORRECT += [  # issue-17 fresh pass (rva5): each was refused on a machine without CUDA before
    dict(
        grade_id="test_to_device_async",
        name="allocates on the device with empty_like, then copy_ (non_blocking from pinned memory)",
        code=_ASYNC
        + "    device = torch.device(device)\n    if device.type == 'cuda' and device.index is None:  # the current GPU\n"
        "        device = torch.device('cuda', torch.cuda.current_device())\n    out = {}\n    for k, t in batch.items():\n"
        "        if t.device == device:  # already there: no copy\n            out[k] = t\n            continue\n"
        "        pinned = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        out[k] = torch.empty_like(t, device=device).copy_(t, non_blocking=pinned)\n    return out\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="names the dtype it keeps: t.to(device, t.dtype, non_blocking=...)",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.to(device, t.dtype, non_blocking=t.is_pinned() and device.type == 'cuda')\n"
        "            for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="allocates under `with device:` and copies with copy_",
        code=_ASYNC
        + "    device = torch.device(device)\n    if device.type == 'cuda' and device.index is None:  # the current GPU\n"
        "        device = torch.device('cuda', torch.cuda.current_device())\n    out = {}\n    for k, t in batch.items():\n"
        "        if t.device == device:  # already there: no copy\n            out[k] = t\n            continue\n"
        "        with device:\n            buf = torch.empty(t.shape, dtype=t.dtype)\n"
        "        out[k] = buf.copy_(t, non_blocking=t.is_pinned() and device.type == 'cuda')\n    return out\n",
    ),
]

MUTANTS += [  # issue-17 final pass (rvf5): uploads that no recorded copy saw passed every test
    dict(
        grade_id="test_to_device_async",
        name="uploads CPU tensors with torch.as_tensor(t, device=device) (a blocking copy, pinned or not)",
        expect="pinned 内存里的张量拷到 GPU 时没有用 non_blocking=True",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if t.device.type == 'cpu' and device.type == 'cuda':\n"
        "            out[k] = torch.as_tensor(t, device=device)\n"
        "        else:\n            out[k] = t.to(device)\n    return out\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="rebuilds CPU tensors on the device from t.tolist()",
        expect="却没有一次从它到 GPU、带 non_blocking=True 的拷贝",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if t.device.type == 'cpu' and device.type == 'cuda':\n"
        "            out[k] = torch.tensor(t.tolist(), dtype=t.dtype, device=device)\n"
        "        else:\n            out[k] = t.to(device)\n    return out\n",
    ),
]

CORRECT += [  # issue-17 final pass (rvf5): a view of pinned memory is pinned too; t.to(other)
    dict(
        grade_id="test_to_device_async",
        name="moves t.detach() (a view of the pinned memory) with non_blocking from t.is_pinned()",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    return {k: t.detach().to(device, non_blocking=t.is_pinned() and device.type == 'cuda')\n"
        "            for k, t in batch.items()}\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="moves with t.to(other) where other is an empty tensor made on the device",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        like = torch.empty(0, dtype=t.dtype, device=device)\n"
        "        out[k] = t.to(like, non_blocking=t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned())\n"
        "    return out\n",
    ),
]

MUTANTS += [  # issue-17 final pass (rvf5): no tested batch held a tensor that requires grad
    dict(
        grade_id="test_move_to",
        name="detaches each tensor before moving it",
        expect="requires_grad 应为 True",
        code="def move_to(batch, device):\n"
        "    if isinstance(batch, torch.Tensor):\n        return batch.detach().to(device)\n"
        "    if isinstance(batch, dict):\n        return {key: move_to(value, device) for key, value in batch.items()}\n"
        "    if isinstance(batch, list):\n        return [move_to(item, device) for item in batch]\n"
        "    if isinstance(batch, tuple):\n        return tuple(move_to(item, device) for item in batch)\n"
        "    return batch\n",
    ),
]

_MOVE_REST = (
    "    if isinstance(batch, dict):\n        return {key: move_to(value, device) for key, value in batch.items()}\n"
    "    if isinstance(batch, list):\n        return [move_to(item, device) for item in batch]\n"
    "    if isinstance(batch, tuple):\n        return tuple(move_to(item, device) for item in batch)\n"
    "    return batch\n"
)

MUTANTS += [  # issue-17 third pass (rvk): a new leaf that requires grad read the same as the moved tensor
    dict(
        grade_id="test_move_to",
        name="detaches each tensor, moves it, then asks for grad again (a new leaf, cut from the graph)",
        expect="脱离了计算图",
        code="def move_to(batch, device):\n"
        "    if isinstance(batch, torch.Tensor):\n"
        "        return batch.detach().to(device).requires_grad_(batch.requires_grad)\n" + _MOVE_REST,
    ),
]

MUTANTS += [  # issue-17 third pass (rvk) ruled this right, for the graph check (a copy on the same device stays
    # in the graph: that check must not fail it, and does not). Stop 53 rules it wrong: the spec's table returns
    # batch.to(device), which hands back a tensor already in place itself; a copy costs a second tensor's memory
    dict(
        grade_id="test_move_to",
        name="always copies: batch.to(device, copy=True)",
        expect="返回的却是一份拷贝",
        code="def move_to(batch, device):\n"
        "    if isinstance(batch, torch.Tensor):\n        return batch.to(device, copy=True)\n" + _MOVE_REST,
    ),
]

MUTANTS += [  # issue-17 fourth look (rvm): the graph check moved only to the tensor's own device, a no-op move
    dict(
        grade_id="test_move_to",
        name="returns a tensor already on the device as is, detaches it before a real move (a new leaf)",
        mistake="detached-from-graph",
        expect="-> 'meta') 返回的 ['h'][0] 脱离了计算图",
        code="def move_to(batch, device):\n"
        "    if isinstance(batch, torch.Tensor):\n"
        "        if batch.device == torch.device(device):\n"
        "            return batch\n"
        "        return batch.detach().to(device).requires_grad_(batch.requires_grad)\n" + _MOVE_REST,
    ),
]

MUTANTS += [  # issue-17 fresh pass (rwb)
    dict(  # rvk's open item: torch.ops.aten copies went unrecorded
        grade_id="test_to_device_async",
        name="uploads pageable tensors with torch.ops.aten._to_copy(non_blocking=True)",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if device.type == 'cuda' and t.device.type == 'cpu':\n"
        "            out[k] = torch.ops.aten._to_copy(t, device=device, non_blocking=True)\n"
        "        else:\n            out[k] = t.to(device)\n    return out\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="copies into the device with torch.ops.aten.copy_.default(dst, t, non_blocking=True), pageable too",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if device.type == 'cuda' and t.device.type == 'cpu':\n"
        "            dst = torch.empty_like(t, device=device)\n"
        "            torch.ops.aten.copy_.default(dst, t, non_blocking=True)\n            out[k] = dst\n"
        "        else:\n            out[k] = t.to(device)\n    return out\n",
    ),
    dict(  # spec: a new dict; no test looked at the dict's identity
        grade_id="test_to_device_async",
        name="returns the caller's dict itself when every tensor is already on the device",
        expect="返回的是调用者传入的那个 dict 本身",
        code=_ASYNC + "    device = torch.device(device)\n"
        "    if all(t.device == device for t in batch.values()):\n        return batch\n"
        "    out = {}\n    for k, t in batch.items():\n"
        "        nb = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        out[k] = t.to(device, non_blocking=nb)\n    return out\n",
    ),
    dict(  # spec: new containers; only containers holding a tensor were looked at (and only in the kernel)
        grade_id="test_move_to",
        name="returns a container without tensors as is (the caller's own list / dict)",
        expect="返回的['ids']就是输入里的那个 dict / list 本身",
        code="def _has_tensor(b):\n    if isinstance(b, torch.Tensor):\n        return True\n"
        "    if isinstance(b, dict):\n        return any(_has_tensor(v) for v in b.values())\n"
        "    return isinstance(b, (list, tuple)) and any(_has_tensor(v) for v in b)\n\n\n"
        "def move_to(batch, device):\n    if not _has_tensor(batch):\n        return batch\n"
        "    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
        "    if isinstance(batch, dict):\n        return {k: move_to(v, device) for k, v in batch.items()}\n"
        "    if isinstance(batch, list):\n        return [move_to(v, device) for v in batch]\n"
        "    return tuple(move_to(v, device) for v in batch)\n",
    ),
    dict(  # no tested score was 0 above the diagonal
        grade_id="test_causal_mask_fill",
        name="masks where scores.triu(1) is nonzero (the values, not the positions)",
        expect="期望 -inf，得到 0",
        code="def causal_mask_fill(scores):\n    return scores.masked_fill(scores.triu(1) != 0, float('-inf'))\n",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="returns scores itself when T == 1 (nothing to mask)",
        expect="返回的是 scores 本身",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n    if t == 1:\n        return scores\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
]

CORRECT += [  # issue-17 fresh pass (rwb)
    dict(
        grade_id="test_to_device_async",
        name="torch.ops.aten._to_copy with non_blocking only from pinned memory",
        code=_ASYNC
        + "    device = torch.device(device)\n    if device.type == 'cuda' and device.index is None:  # the current GPU\n"
        "        device = torch.device('cuda', torch.cuda.current_device())\n    out = {}\n    for k, t in batch.items():\n"
        "        if t.device == device:  # already there: no copy\n            out[k] = t\n            continue\n"
        "        nb = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        out[k] = torch.ops.aten._to_copy(t, device=device, non_blocking=nb)\n    return out\n",
    ),
]

CORRECT += [  # issue-17 fresh pass (rwb): an upload written as buf[...] = t was refused (its values were not carried)
    dict(
        grade_id="test_to_device_async",
        name="pageable tensors uploaded by buf = torch.empty(..., device=device); buf[...] = t",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if device.type == 'cuda' and t.device.type == 'cpu' and not t.is_pinned():\n"
        "            buf = torch.empty(t.shape, dtype=t.dtype, device=device)\n            buf[...] = t\n"
        "            out[k] = buf\n        else:\n"
        "            nb = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "            out[k] = t.to(device, non_blocking=nb)\n    return out\n",
    ),
]

MUTANTS += [  # issue-17 review of rwb's fixes (rxb)
    dict(  # only torch.ops.aten._to_copy and copy_ were mapped to recorded copies
        grade_id="test_to_device_async",
        name="copies pageable tensors with the functional torch.ops.aten.copy(dst, t, True) (non_blocking)",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if device.type == 'cuda' and t.device.type == 'cpu' and not t.is_pinned():\n"
        "            out[k] = torch.ops.aten.copy(torch.empty_like(t, device=device), t, True)\n"
        "        else:\n            nb = t.device.type == 'cpu' and device.type == 'cuda'\n"
        "            out[k] = t.to(device, non_blocking=nb)\n    return out\n",
    ),
    dict(  # spec: new containers; the tested batch had no container without tensors inside another one
        grade_id="test_move_to",
        name="returns a shallow copy of a container without tensors (a list inside it stays the caller's)",
        expect="返回的['opts']['tags']就是输入里的那个 dict / list 本身",
        code="import copy\n\n\ndef _has_tensor(b):\n    if isinstance(b, torch.Tensor):\n        return True\n"
        "    if isinstance(b, dict):\n        return any(_has_tensor(v) for v in b.values())\n"
        "    return isinstance(b, (list, tuple)) and any(_has_tensor(v) for v in b)\n\n\n"
        "def move_to(batch, device):\n    if not _has_tensor(batch):\n        return copy.copy(batch)\n"
        "    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
        "    if isinstance(batch, dict):\n        return {k: move_to(v, device) for k, v in batch.items()}\n"
        "    if isinstance(batch, list):\n        return [move_to(v, device) for v in batch]\n"
        "    return tuple(move_to(v, device) for v in batch)\n",
    ),
]

CORRECT += [  # issue-17 review of rwb's fixes (rxb): the functional aten copy is recorded like copy_
    dict(
        grade_id="test_to_device_async",
        name="torch.ops.aten.copy.default(empty_like on the device, t, non_blocking only from pinned memory)",
        code=_ASYNC
        + "    device = torch.device(device)\n    if device.type == 'cuda' and device.index is None:  # the current GPU\n"
        "        device = torch.device('cuda', torch.cuda.current_device())\n    out = {}\n    for k, t in batch.items():\n"
        "        if t.device == device:  # already there: no copy\n            out[k] = t\n            continue\n"
        "        nb = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        out[k] = torch.ops.aten.copy.default(torch.empty_like(t, device=device), t, nb)\n    return out\n",
    ),
]

_MOVE_TO_REST = (
    "    if isinstance(batch, list):\n        return [move_to(v, device) for v in batch]\n"
    "    if isinstance(batch, tuple):\n        return tuple(move_to(v, device) for v in batch)\n    return batch\n"
)

MUTANTS += [  # s31 review (gb): the spec's 键相同（顺序相同）was compared as a set of keys
    dict(
        grade_id="test_move_to",
        name="moves tensors and containers first, then adds the other values (the key order changes)",
        expect="的键 (key) 顺序变了",
        code="def move_to(batch, device):\n    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
        "    if isinstance(batch, dict):\n"
        "        out = {k: move_to(v, device) for k, v in batch.items() if isinstance(v, (torch.Tensor, dict, list, tuple))}\n"
        "        out.update({k: v for k, v in batch.items() if k not in out})\n        return out\n" + _MOVE_TO_REST,
    ),
    dict(
        grade_id="test_move_to",
        name="walks the keys in sorted order",
        expect="的键 (key) 顺序变了",
        code="def move_to(batch, device):\n    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
        "    if isinstance(batch, dict):\n        return {k: move_to(batch[k], device) for k in sorted(batch)}\n"
        + _MOVE_TO_REST,
    ),
    dict(  # the new-container scenario had no tuple holding a list without tensors
        grade_id="test_move_to",
        name="returns a tuple without tensors as it is (a list inside it stays the caller's)",
        expect="返回的['pair'][0]就是输入里的那个 dict / list 本身",
        code="def move_to(batch, device):\n    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n"
        "    if isinstance(batch, dict):\n        return {k: move_to(v, device) for k, v in batch.items()}\n"
        "    if isinstance(batch, list):\n        return [move_to(v, device) for v in batch]\n"
        "    if isinstance(batch, tuple):\n"
        "        if not any(isinstance(v, torch.Tensor) for v in batch):\n            return batch\n"
        "        return tuple(move_to(v, device) for v in batch)\n    return batch\n",
    ),
]

MUTANTS += [  # s31 review (gb): no test put scores on a GPU with an index, so a mask on cuda:0 passed
    dict(
        grade_id="test_causal_mask_fill",
        name="makes the mask with device=scores.device.type (cuda:1 scores get a cuda:0 mask)",
        expect="丢掉了编号",
        mistake="device-index-ignored",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device.type).triu(diagonal=1)\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="makes the mask on 'cuda' when scores.is_cuda (the current device, not the scores' one)",
        expect="丢掉了编号",
        mistake="device-index-ignored",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    dev = 'cuda' if scores.is_cuda else scores.device\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=dev).triu(diagonal=1)\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
]

CORRECT += [  # s31 review (gb)
    dict(
        grade_id="test_causal_mask_fill",
        name="scores.new_ones for the mask, torch.where against full_like(-inf)",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    future = scores.new_ones(t, t, dtype=torch.bool).triu(1)\n"
        "    return torch.where(future, torch.full_like(scores, float('-inf')), scores)\n",
    ),
]

MUTANTS += [  # s31 review (gb): torch.cuda.is_available() was False while meta played the GPU
    dict(
        grade_id="test_to_device_async",
        name="synchronizes after the copies when CUDA is available (the overlap is gone)",
        expect="函数里同步了（torch.cuda.synchronize()",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if torch.cuda.is_available() and device.type == 'cuda':\n        torch.cuda.synchronize()\n"
        "    return moved\n",
    ),
]

CORRECT += [  # s31 review (gb): was told the pinned copy had no non_blocking=True (is_available() read False)
    dict(
        grade_id="test_to_device_async",
        name="non_blocking only when torch.cuda.is_available() too",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = torch.cuda.is_available() and device.type == 'cuda' and t.device.type == 'cpu'"
        " and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n    return moved\n",
    ),
]

MUTANTS += [  # s31 review (gb) of rxb's aten.copy fix: the aten.to overloads were not recorded as copies at all
    dict(
        grade_id="test_to_device_async",
        name="copies pageable tensors with torch.ops.aten.to.dtype_layout(t, device=, non_blocking=True)",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if device.type == 'cuda' and t.device.type == 'cpu' and not t.is_pinned():\n"
        "            out[k] = torch.ops.aten.to.dtype_layout(t, device=device, non_blocking=True)\n"
        "        else:\n            nb = t.device.type == 'cpu' and device.type == 'cuda'\n"
        "            out[k] = t.to(device, non_blocking=nb)\n    return out\n",
    ),
]

CORRECT += [  # s31 review (gb): were told the pinned tensor was never copied with non_blocking=True
    dict(
        grade_id="test_to_device_async",
        name="torch.ops.aten.to.dtype_layout(t, device=, non_blocking only from pinned memory)",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        nb = device.type == 'cuda' and t.device.type == 'cpu' and t.is_pinned()\n"
        "        out[k] = torch.ops.aten.to.dtype_layout(t, device=device, non_blocking=nb)\n    return out\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="torch.ops.aten.to.device(t, device, t.dtype, non_blocking only from pinned memory)",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        nb = device.type == 'cuda' and t.device.type == 'cpu' and t.is_pinned()\n"
        "        out[k] = torch.ops.aten.to.device(t, device, t.dtype, nb)\n    return out\n",
    ),
]

MUTANTS += [  # s31 review (gb): with torch.cuda playing a GPU, a stream's or an event's synchronize() is a wait too
    dict(
        grade_id="test_to_device_async",
        name="waits on the current stream after the copies when CUDA is available",
        expect="函数里同步了",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if torch.cuda.is_available() and device.type == 'cuda':\n"
        "        torch.cuda.current_stream(device).synchronize()\n    return moved\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="records an event after the copies and waits for it",
        expect="函数里同步了",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if torch.cuda.is_available() and device.type == 'cuda':\n"
        "        done = torch.cuda.Event()\n        done.record()\n        done.synchronize()\n    return moved\n",
    ),
]

CORRECT += [  # s31 review (gb): the device context of section 3 works on a played cuda:1 too
    dict(
        grade_id="test_causal_mask_fill",
        name="the mask made inside with torch.device(scores.device)",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n    with torch.device(scores.device):\n"
        "        future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
]

MUTANTS += [  # s33 (stop 31's leftover): a mask computed from the values, wrong only where a score is -1
    dict(
        grade_id="test_causal_mask_fill",
        name="mask from the values: triu(scores + 1, 1) != 0",
        code="def causal_mask_fill(scores):\n"
        "    future = torch.triu(scores + 1, diagonal=1) != 0\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
        expect="期望 -inf，得到 -1",
    ),
]

MUTANTS += [  # s34 (hb): the device-generic API waits too (it reached the real driver and was told 'no NVIDIA driver')
    dict(
        grade_id="test_to_device_async",
        name="torch.accelerator.synchronize() after the copies when an accelerator is available",
        expect="函数里同步了",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if torch.accelerator.is_available() and device.type != 'cpu':\n"
        "        torch.accelerator.synchronize()\n    return moved\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="waits on torch.accelerator.current_stream(device) after the copies",
        expect="函数里同步了",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if device.type == 'cuda':\n        torch.accelerator.current_stream(device).synchronize()\n"
        "    return moved\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="records a torch.Event on the device after the copies and waits for it",
        expect="函数里同步了",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if device.type == 'cuda':\n        done = torch.Event(device=device)\n        done.record()\n"
        "        done.synchronize()\n    return moved\n",
    ),
]

MUTANTS += [  # s34 (hb): section 4's global switch; under a played GPU it reached the real driver ('no NVIDIA driver')
    dict(
        grade_id="test_causal_mask_fill",
        name="torch.set_default_device(scores.device), then the mask without device= (never switched back)",
        expect="不能用 torch.set_default_device",
        code="def causal_mask_fill(scores):\n    torch.set_default_device(scores.device)\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="torch.set_default_device(scores.device) around the mask, switched back afterwards",
        expect="不能用 torch.set_default_device",
        code="def causal_mask_fill(scores):\n    before = torch.get_default_device()\n"
        "    torch.set_default_device(scores.device)\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)\n    torch.set_default_device(before)\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
]

MUTANTS += [  # s34 (hb): the real synchronize() functions, bound before torch.cuda was played, reached the driver
    dict(
        grade_id="test_to_device_async",
        name="from torch.cuda import synchronize at the top, called after the copies",
        expect="函数里同步了",
        code="from torch.cuda import synchronize\n\n\n"
        + _ASYNC
        + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if device.type == 'cuda' and torch.cuda.is_available():\n        synchronize(device)\n    return moved\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="from torch.accelerator import synchronize at the top, called after the copies",
        expect="函数里同步了",
        code="from torch.accelerator import synchronize as wait_for_device\n\n\n"
        + _ASYNC
        + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n"
        "    if device.type == 'cuda':\n        wait_for_device()\n    return moved\n",
    ),
]

CORRECT += [  # s34 (hb): was told its .cuda() landed on cuda:0 (the current device was not played)
    dict(
        grade_id="test_to_device_async",
        name=".cuda(non_blocking=...) inside with torch.cuda.device(device) (the current device is the target)",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if device.type == 'cuda':\n            with torch.cuda.device(device):\n"
        "                out[k] = t.cuda(non_blocking=t.device.type == 'cpu' and t.is_pinned())\n"
        "        else:\n            out[k] = t.to(device)\n    return out\n",
    ),
]

MUTANTS += [  # s34 (hb): the global switch for the current GPU (it reached the real driver before)
    dict(
        grade_id="test_to_device_async",
        name="torch.cuda.set_device(device.index or 0), then .cuda(non_blocking=...) (the caller's current GPU changes)",
        expect="torch.cuda.set_device",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        if device.type == 'cuda':\n            torch.cuda.set_device(device.index or 0)\n"
        "            out[k] = t.cuda(non_blocking=t.device.type == 'cpu' and t.is_pinned())\n"
        "        else:\n            out[k] = t.to(device)\n    return out\n",
    ),
]

CORRECT += [  # s34 (hb): the real torch.cuda.is_available, bound before the call, read False under the played GPU
    dict(
        grade_id="test_to_device_async",
        name="from torch.cuda import is_available at the top; non_blocking only when it is True too",
        code="from torch.cuda import is_available as cuda_available\n\n\n"
        + _ASYNC
        + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = cuda_available() and device.type == 'cuda' and t.device.type == 'cpu' and t.is_pinned()\n"
        "        moved[key] = t.to(device, non_blocking=overlaps)\n    return moved\n",
    ),
]

CORRECT += [  # s34 (hb): i, j = triu_indices(...) unpacked rows that lost the played cuda:1 ('cuda:1 and meta')
    dict(
        grade_id="test_causal_mask_fill",
        name="i, j = torch.triu_indices(t, t, 1, device=scores.device), then out[..., i, j] = -inf on a clone",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    i, j = torch.triu_indices(t, t, offset=1, device=scores.device)\n    out = scores.clone()\n"
        "    out[..., i, j] = float('-inf')\n    return out\n",
    ),
]

MUTANTS += [  # s34 (hb): was told that 'cuda' without an index dropped the index; it wrote device=scores.device
    dict(
        grade_id="test_causal_mask_fill",
        name="masks cached by T only (made with device=scores.device on the first call, reused on another device)",
        expect="用了之前某次调用时建好的掩码",
        code="_FUTURE = {}\n\n\ndef causal_mask_fill(scores):\n    t = scores.shape[-1]\n    if t not in _FUTURE:\n"
        "        _FUTURE[t] = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    return scores.masked_fill(_FUTURE[t], float('-inf'))\n",
    ),
]


MUTANTS += [  # s35 review (h2): each was told a cause it did not have
    dict(
        grade_id="test_causal_mask_fill",
        name="masks where scores.tril() == 0: a zero score on the diagonal is masked, the others are not",
        expect="第一个错在索引 (0, 0)：期望 0，得到 -inf",
        code=(
            "def causal_mask_fill(scores):\n"
            "    future = scores.tril() == 0\n"
            '    return scores.masked_fill(future, float("-inf"))\n'
        ),
    ),
    dict(
        grade_id="test_to_device_like",
        name="x.to(device=p.device, dtype=p.dtype) for a model ref: the model's dtype, no x.to(tensor)",
        expect="的 dtype 变成了 torch.float64（应保持 x 的 torch.float32）",
        code=(
            "def to_device_like(x, ref):\n"
            "    if isinstance(ref, nn.Module):\n"
            "        p = next(ref.parameters())\n"
            "        return x.to(device=p.device, dtype=p.dtype)\n"
            "    return x.to(ref.device)\n"
        ),
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name='scores.float() "for a stable softmax", then masked_fill: float32 for a float16 input',
        expect="dtype 变了：输入是 torch.float16，返回 torch.float32",
        code=(
            "def causal_mask_fill(scores):\n"
            "    t = scores.shape[-1]\n"
            "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
            '    return scores.float().masked_fill(future, float("-inf"))\n'
        ),
    ),
]


MUTANTS += [  # s35 leftover: every tested move_to source was on the CPU, so non_blocking=True towards it passed
    dict(
        grade_id="test_move_to",
        name="batch.to(device, non_blocking=True) for every tensor, also GPU -> CPU",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code=solution_with(
            "04_devices", "move_to", ("return batch.to(device)", "return batch.to(device, non_blocking=True)")
        ),
    ),
]


MUTANTS += [  # s35 leftover: every tested to_device_like source was on the CPU
    dict(
        grade_id="test_to_device_like",
        name="x.to(device, non_blocking=True): also for a copy back from the GPU",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code=(
            "def to_device_like(x, ref):\n"
            "    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n"
            "    return x.to(device, non_blocking=True)\n"
        ),
    ),
]


MUTANTS += [  # s35 final pass r2: anything with a .to() was moved, a module in the batch too (in place)
    dict(
        grade_id="test_move_to",
        name="hasattr(batch, 'to') instead of isinstance(batch, torch.Tensor): moves a module in the batch",
        mistake="modifies-input",
        expect="对不是张量的值也调用了 .to()",
        code=solution_with(
            "04_devices", "move_to", ("if isinstance(batch, torch.Tensor):", "if hasattr(batch, 'to'):")
        ),
    ),
]


MUTANTS += [  # s36 review (b2): no causal test passed scores that require grad
    dict(
        grade_id="test_causal_mask_fill",
        name="the fill under torch.no_grad() ('the mask is a constant'): attention scores out of the graph",
        mistake="detached-from-graph",
        expect="causal_mask_fill(需要梯度的 scores (3, 3)) 的返回值 应该在计算图里",
        code=solution_with(
            "04_devices",
            "causal_mask_fill",
            (
                '    return scores.masked_fill(future, float("-inf"))',
                '    with torch.no_grad():\n        return scores.masked_fill(future, float("-inf"))',
            ),
        ),
    ),
]

MUTANTS += [  # s37 review (b4)
    dict(  # passed every test: no tested T was above 1024
        grade_id="test_causal_mask_fill",
        name="one cached causal mask for block_size 1024 per device, sliced to T (nanoGPT style)",
        expect="1024",
        code="_BLOCK = 1024\n_MASKS = {}\n\n\n"
        "def causal_mask_fill(scores):\n"
        "    if scores.device not in _MASKS:\n"
        "        _MASKS[scores.device] = torch.ones(_BLOCK, _BLOCK, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    t = scores.shape[-1]\n"
        "    return scores.masked_fill(_MASKS[scores.device][:t, :t], float('-inf'))\n",
    ),
    dict(  # wrong cause: it was told the diagonal was masked, though everything was
        grade_id="test_causal_mask_fill",
        name="future.triu(diagonal=1) with its result dropped: every position is masked",
        expect="每个位置都被替换成了 -inf",
        code="def causal_mask_fill(scores):\n"
        "    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device)\n"
        "    future.triu(diagonal=1)\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
    dict(  # wrong cause: told it passed a tensor to .to(); it wrote dtype=ref's dtype
        grade_id="test_to_device_like",
        name="x.to(device=ref.device, dtype=ref.dtype): the dtype follows ref",
        mistake="to-tensor-copies-dtype",
        expect="写 dtype=ref.dtype 也一样",
        code=_LIKE
        + "    like = next(ref.parameters()) if isinstance(ref, nn.Module) else ref\n"
        + "    return x.to(device=like.device, dtype=like.dtype)\n",
    ),
]


MUTANTS += [  # s38 review (b5): the recursion limit was not a watched setting
    dict(
        grade_id="test_move_to",
        name="sys.setrecursionlimit raised inside move_to and left",
        expect="sys.setrecursionlimit()",
        mistake="global-setting-changed",
        code=(
            "import sys\n"
            "\n"
            "\n"
            "def move_to(batch, device):\n"
            '    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""\n'
            "    if sys.getrecursionlimit() < 100_000:\n"
            "        sys.setrecursionlimit(100_000)  # nested batches can be deep: make room for the recursion\n"
            "    if isinstance(batch, torch.Tensor):\n"
            "        return batch.to(device)\n"
            "    if isinstance(batch, dict):\n"
            "        return {key: move_to(value, device) for key, value in batch.items()}\n"
            "    if isinstance(batch, list):\n"
            "        return [move_to(item, device) for item in batch]\n"
            "    if isinstance(batch, tuple):\n"
            "        return tuple(move_to(item, device) for item in batch)\n"
            "    return batch\n"
        ),
    ),
]


MUTANTS += [  # s38 review (b5): a ready-made walker that was not on TREE_UTILS passed every test
    dict(
        grade_id="test_move_to",
        name="ZeroRedundancyOptimizer's _recursive_copy_to_device does the recursion",
        expect="不能用 torch.distributed.optim.zero_redundancy_optimizer._recursive_copy_to_device",
        code="from torch.distributed.optim.zero_redundancy_optimizer import _recursive_copy_to_device\n\n\n"
        "def move_to(batch, device):\n"
        "    return _recursive_copy_to_device(batch, non_blocking=False, device=device)\n",
    ),
    dict(
        grade_id="test_move_to",
        name="the DataLoader's collate over a batch of one, every leaf mapped by collate_fn_map",
        expect="不能用 torch.utils.data._utils.collate.collate",
        code="from torch.utils.data._utils.collate import collate\n\n\n"
        "def move_to(batch, device):\n"
        "    def leaf(b, *, collate_fn_map=None):\n"
        "        return b[0].to(device) if isinstance(b[0], torch.Tensor) else b[0]\n\n"
        "    return collate([batch], collate_fn_map={torch.Tensor: leaf, object: leaf})\n",
    ),
    dict(
        grade_id="test_move_to",
        name="torch.utils._pytree.tree_map_with_path does the recursion",
        expect="不能用 torch.utils._pytree.tree_map_with_path",
        code="import torch.utils._pytree as pytree\n\n\n"
        "def move_to(batch, device):\n"
        "    return pytree.tree_map_with_path(lambda _, t: t.to(device) if isinstance(t, torch.Tensor) else t, batch)\n",
    ),
]


# s38 (b6), fb3
CORRECT += [  # s38 review (b6): a non-blocking copy back followed by a synchronize was told it never synced
    dict(
        grade_id="test_to_device_like",
        name="GPU -> CPU with non_blocking=True, then torch.cuda.synchronize(x.device) before returning",
        code='def to_device_like(x, ref):\n    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n    if x.device.type == "cuda" and device.type == "cpu":\n        # section 6: a device -> host copy with non_blocking=True, then wait for x\'s GPU before anyone reads it\n        out = x.to(device, non_blocking=True)\n        torch.cuda.synchronize(x.device)\n        return out\n    return x.to(device)\n',
    ),
    dict(
        grade_id="test_move_to",
        name="every GPU -> CPU copy non_blocking, then torch.cuda.synchronize(i) for every GPU before returning",
        code='def _move(batch, device, to_host):\n    if isinstance(batch, torch.Tensor):\n        # device -> host copies are queued without waiting; one synchronization below covers them all\n        return batch.to(device, non_blocking=to_host and batch.device.type == "cuda")\n    if isinstance(batch, dict):\n        return {key: _move(value, device, to_host) for key, value in batch.items()}\n    if isinstance(batch, list):\n        return [_move(item, device, to_host) for item in batch]\n    if isinstance(batch, tuple):\n        return tuple(_move(item, device, to_host) for item in batch)\n    return batch\n\n\ndef move_to(batch, device):\n    to_host = torch.device(device).type == "cpu"\n    out = _move(batch, device, to_host)\n    if to_host and torch.cuda.is_available():\n        for index in range(torch.cuda.device_count()):  # every GPU a copy may have come from\n            torch.cuda.synchronize(index)\n    return out\n',
    ),
]
MUTANTS += [  # s38 (b6), fb3: a synchronize before the non-blocking copy does not cover it
    dict(
        grade_id="test_to_device_like",
        name="synchronizes first, then returns a GPU -> CPU copy made with non_blocking=True",
        expect="之后直到返回都没有同步",
        code=_LIKE + "    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n"
        "    back = x.device.type == 'cuda' and device.type == 'cpu'\n"
        "    if back:\n"
        "        torch.cuda.synchronize()  # waits for the work queued so far\n"
        "    return x.to(device, non_blocking=back)\n",
    ),
]


MUTANTS += [  # s39 (b9, ruled a fault): a copy when x is already on ref's device (spec line added)
    dict(
        grade_id="test_to_device_like",
        name="always_copies",
        expect="返回的却不是 x 本身",
        code=(
            "def to_device_like(x, ref):\n"
            "    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n"
            '    return x.to(device, copy=True)  # always a fresh tensor, "to be safe"\n'
        ),
    ),
]


MUTANTS += [  # a CORRECT entry until s39: it copies even when x is already on ref's device (spec line added, b9)
    dict(
        grade_id="test_to_device_like",
        name="allocates on ref's device and copies (copy_ is differentiable)",
        expect="返回的却不是 x 本身",
        code=_LIKE + "    t = next(ref.parameters()) if isinstance(ref, nn.Module) else ref\n"
        "    return torch.empty_like(x, device=t.device).copy_(x)\n",
    ),
]


MUTANTS += [  # s39 (b8): a larger fixed block; T = 20000 on meta
    dict(
        grade_id="test_causal_mask_fill",
        name="mask_cached_at_4096",
        expect="(1, 20000, 20000)",
        code=(
            "_BLOCK = 4096  # the model's context length (block_size): no sequence is longer\n"
            "_MASKS = {}\n"
            "\n"
            "\n"
            "def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:\n"
            '    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""\n'
            "    if scores.device not in _MASKS:  # one mask per device, made there once (nanoGPT's registered buffer)\n"
            "        _MASKS[scores.device] = torch.ones(_BLOCK, _BLOCK, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
            "    t = scores.shape[-1]\n"
            '    return scores.masked_fill(_MASKS[scores.device][:t, :t], float("-inf"))\n'
        ),
    ),
]


MUTANTS += [  # s40 (b8): a Python loop of T slice fills on a clone, no mask made
    dict(
        grade_id="test_causal_mask_fill",
        name="fills row by row in a Python loop (T small ops, no mask)",
        expect="个数随 T 增长",
        code=(
            "def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:\n"
            '    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""\n'
            "    out = scores.clone()  # new tensor, same dtype / device, still in the graph\n"
            "    t = scores.shape[-1]\n"
            "    for i in range(t - 1):  # row i cannot see the future columns i+1 .. T-1\n"
            '        out[..., i, i + 1:] = float("-inf")\n'
            "    return out\n"
        ),
    ),
]


MUTANTS += [  # s40 (b8): move_to never got a CUDA target with an index
    dict(
        grade_id="test_move_to",
        name="batch.cuda() for a CUDA target: a cuda:1 target lands on cuda:0",
        mistake="device-index-ignored",
        expect="返回的张量在 cuda:0 上，不在 cuda:1 上",
        code=solution_with(
            "04_devices",
            "move_to",
            (
                "    if isinstance(batch, torch.Tensor):\n        return batch.to(device)",
                "    if isinstance(batch, torch.Tensor):\n"
                '        if torch.device(device).type == "cuda":\n'
                "            return batch.cuda()  # to the GPU\n"
                "        return batch.to(device)",
            ),
        ),
    ),
]


MUTANTS += [  # s40 (b10): the identity check met only a contiguous x
    dict(
        grade_id="test_to_device_like",
        name="x.contiguous().to(device): a non-contiguous x on ref's device is copied",
        expect="非连续 (non-contiguous，x = w.t())，ref: 一个 CPU 张量），返回的却不是 x 本身",
        code=_LIKE + "    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n"
        "    return x.contiguous().to(device)  # transfers of non-contiguous tensors are slow\n",
    ),
]


MUTANTS += [  # s40 (b10): a 0-d upload of the fill value was not counted (only tensors of one or more dimensions)
    dict(
        grade_id="test_causal_mask_fill",
        name="torch.where against torch.tensor(-inf, device=scores.device): a 0-d host-to-device copy per call",
        expect="用 torch.tensor(...) 把主机上的一个数",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    neg_inf = torch.tensor(float('-inf'), dtype=scores.dtype, device=scores.device)\n"
        "    return torch.where(future, neg_inf, scores)\n",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="masked_fill with scores.new_tensor(-inf) as the value: a 0-d host-to-device copy per call",
        expect="用 scores.new_tensor(...) 把主机上的一个数",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    return scores.masked_fill(future, scores.new_tensor(float('-inf')))\n",
    ),
]

CORRECT += [  # s40 (b10): a Python number as where's fill value needs no upload
    dict(
        grade_id="test_causal_mask_fill",
        name="torch.where(mask, float('-inf'), scores): the fill value a Python number",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    return torch.where(future, float('-inf'), scores)\n",
    ),
]


MUTANTS += [  # s40 (b10): a (..., T, T) mask made like scores passed (the spec asks for one (T, T) mask)
    dict(
        grade_id="test_causal_mask_fill",
        name="torch.ones_like(scores, dtype=torch.bool).triu(1): one mask per batch entry and head",
        expect="是规格要的 (T, T) 掩码的 128 倍",
        code="def causal_mask_fill(scores):\n"
        "    future = torch.ones_like(scores, dtype=torch.bool).triu(diagonal=1)  # on scores' device for free\n"
        "    return scores.masked_fill(future, float('-inf'))\n",
    ),
]

CORRECT += [  # s40 (b10): an expanded (T, T) mask is a view, no more memory than the mask itself
    dict(
        grade_id="test_causal_mask_fill",
        name="a (T, T) mask expanded to scores' shape (a view) before masked_fill",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    return scores.masked_fill(future.expand_as(scores), float('-inf'))\n",
    ),
]


MUTANTS += [  # s40 (b11): no tested batch held a NumPy array, so converting one to a tensor passed
    dict(
        grade_id="test_move_to",
        name="NumPy arrays in the batch turned into tensors and moved (the spec returns other values as they are)",
        expect="应原样返回 NumPy 数组",
        code='import numpy as np\n\n\ndef move_to(batch, device):\n    """Also moves NumPy arrays (a DataLoader with a custom collate can leave some)."""\n    if isinstance(batch, torch.Tensor):\n        return batch.to(device)\n    if isinstance(batch, np.ndarray):\n        return torch.from_numpy(batch).to(device)\n    if isinstance(batch, dict):\n        return {key: move_to(value, device) for key, value in batch.items()}\n    if isinstance(batch, list):\n        return [move_to(item, device) for item in batch]\n    if isinstance(batch, tuple):\n        return tuple(move_to(item, device) for item in batch)\n    return batch\n',
    ),
]


CORRECT += [  # s40 (b11): set_device put back in finally was told the current device was left changed
    dict(
        grade_id="test_to_device_async",
        name="torch.cuda.set_device(target), .cuda(non_blocking=...), the caller's device put back in finally",
        code='def to_device_async(batch: dict, device) -> dict:\n    device = torch.device(device)\n    if device.type != "cuda":\n        return {key: t.to(device) for key, t in batch.items()}\n    previous = torch.cuda.current_device()\n    torch.cuda.set_device(device.index if device.index is not None else previous)  # .cuda() goes to the current card\n    try:\n        return {key: t.cuda(non_blocking=t.device.type == "cpu" and t.is_pinned()) for key, t in batch.items()}\n    finally:\n        torch.cuda.set_device(previous)  # put the caller\'s current device back\n',
    ),
]


MUTANTS += [  # s40 (b11): the op-count check varied only T, so a Python loop over the B·H slices passed
    dict(
        grade_id="test_causal_mask_fill",
        name="masked_fill per (T, T) slice in a Python loop over batch * heads, then torch.stack",
        expect="随 batch / head 数增长",
        code='def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:\n    t = scores.shape[-1]\n    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n    # one (T, T) matrix at a time: fill each batch entry / head separately, then put them back together\n    flat = scores.reshape(-1, t, t)\n    return torch.stack([s.masked_fill(future, float("-inf")) for s in flat]).reshape(scores.shape)\n',
    ),
]


MUTANTS += [  # s40 (b11 cand06): played streams were no-ops
    dict(
        grade_id="test_to_device_async",
        name="copies on a side stream (torch.cuda.stream(s)), never waited for by the current stream",
        expect="另一个流",
        code=(
            "def to_device_async(batch: dict, device) -> dict:\n"
            "    device = torch.device(device)\n"
            "    moved = {}\n"
            '    if device.type == "cuda":\n'
            "        copy_stream = torch.cuda.Stream(device=device)\n"
            "        with torch.cuda.stream(copy_stream):\n"
            "            for key, t in batch.items():\n"
            '                moved[key] = t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned())\n'
            "    else:\n"
            "        for key, t in batch.items():\n"
            "            moved[key] = t.to(device)\n"
            "    return moved\n"
        ),
    ),
]


MUTANTS += [  # s41: the wait the wrong way round
    dict(
        grade_id="test_to_device_async",
        name="the side stream waits for the current one, but the current stream never waits for the copies",
        expect="另一个流",
        code=(
            "def to_device_async(batch: dict, device) -> dict:\n"
            "    device = torch.device(device)\n"
            '    if device.type != "cuda":\n'
            "        return {k: t.to(device) for k, t in batch.items()}\n"
            "    side = torch.cuda.Stream()\n"
            "    side.wait_stream(torch.cuda.current_stream())\n"
            "    with torch.cuda.stream(side):\n"
            '        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}\n'
            "    return moved\n"
        ),
    ),
]


CORRECT += [  # s41: a side stream paired with its wait is right
    dict(
        grade_id="test_to_device_async",
        name="copies on a side stream, current_stream().wait_stream(side) and record_stream before returning",
        code=(
            "def to_device_async(batch: dict, device) -> dict:\n"
            "    device = torch.device(device)\n"
            '    if device.type != "cuda":\n'
            "        return {k: t.to(device) for k, t in batch.items()}\n"
            "    side = torch.cuda.Stream(device)\n"
            "    side.wait_stream(torch.cuda.current_stream(device))  # the batch may still be written on the current stream\n"
            "    with torch.cuda.stream(side):\n"
            '        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}\n'
            "    torch.cuda.current_stream(device).wait_stream(side)  # the caller's stream reads them after the copies\n"
            "    for t in moved.values():  # allocated on side: the allocator must know the caller's stream uses them\n"
            "        t.record_stream(torch.cuda.current_stream(device))\n"
            "    return moved\n"
        ),
    ),
]


CORRECT += [  # s41
    dict(
        grade_id="test_to_device_async",
        name="copies on a side stream, an event recorded there, waited for by the current stream, record_stream",
        code=(
            "def to_device_async(batch: dict, device) -> dict:\n"
            "    device = torch.device(device)\n"
            '    if device.type != "cuda":\n'
            "        return {k: t.to(device) for k, t in batch.items()}\n"
            "    side = torch.cuda.Stream()\n"
            "    with torch.cuda.stream(side):\n"
            '        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}\n'
            "        done = torch.cuda.Event()\n"
            "        done.record()\n"
            "    torch.cuda.current_stream().wait_event(done)\n"
            "    for t in moved.values():\n"
            "        t.record_stream(torch.cuda.current_stream())\n"
            "    return moved\n"
        ),
    ),
]

MUTANTS += [  # b12: a 0-d CPU tensor as where's fill value (CUDA's where copies it to the device each call)
    dict(  # b12 cand10
        grade_id="test_causal_mask_fill",
        name="torch.where(future, torch.tensor(-inf), scores): a 0-d CPU fill value uploaded by where",
        expect="CPU 上的一个 0-d 张量",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)\n"
        "    return torch.where(future, torch.tensor(float('-inf')), scores)\n",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="torch.where(past, scores, torch.tensor(-inf, dtype=scores.dtype)): the 0-d CPU tensor as where's other",
        expect="CPU 上的一个 0-d 张量",
        code="def causal_mask_fill(scores):\n    t = scores.shape[-1]\n"
        "    past = torch.ones(t, t, dtype=torch.bool, device=scores.device).tril()\n"
        "    return torch.where(past, scores, torch.tensor(float('-inf'), dtype=scores.dtype))\n",
    ),
]


MUTANTS += [  # s42 review (e2 cand22): a wait for the device by polling an event (query() was not a sync)
    dict(
        grade_id="test_to_device_async",
        name="waits for the copies by polling an event's query() until it is done",
        expect="循环 query() 直到完成",
        code='def to_device_async(batch, device):\n    device = torch.device(device)\n    moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and device.type == "cuda" and t.is_pinned())\n             for k, t in batch.items()}\n    if device.type == "cuda":\n        done = torch.cuda.Event()\n        done.record()\n        while not done.query():\n            pass\n    return moved\n',
    ),
]

CORRECT += [  # s42 review (e2 cand23): the same poll as the wait after a non_blocking copy to the host
    dict(
        grade_id="test_to_device_like",
        name="non_blocking copy to the host, then polls an event recorded on x's GPU until the copy is done",
        code='def to_device_like(x, ref):\n    d = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n    if x.device == d:\n        return x\n    out = x.to(d, non_blocking=True)\n    if x.device.type == "cuda":\n        done = torch.cuda.Event()\n        done.record(torch.cuda.current_stream(x.device))\n        while not done.query():\n            pass\n    return out\n',
    ),
]


MUTANTS += [  # s42 review (e2 cand01): s41's CORRECT entries, without record_stream (a reuse race on a real GPU)
    dict(
        grade_id="test_to_device_async",
        name="side stream and wait_stream, but no record_stream for the copies allocated on the side stream",
        expect="record_stream",
        code=(
            "def to_device_async(batch: dict, device) -> dict:\n"
            "    device = torch.device(device)\n"
            '    if device.type != "cuda":\n'
            "        return {k: t.to(device) for k, t in batch.items()}\n"
            "    side = torch.cuda.Stream(device)\n"
            "    side.wait_stream(torch.cuda.current_stream(device))  # the batch may still be written on the current stream\n"
            "    with torch.cuda.stream(side):\n"
            '        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}\n'
            "    torch.cuda.current_stream(device).wait_stream(side)  # the caller's stream reads them after the copies\n"
            "    return moved\n"
        ),
    ),
    dict(
        grade_id="test_to_device_async",
        name="side stream and an event waited for, but no record_stream for the copies allocated on the side stream",
        expect="record_stream",
        code=(
            "def to_device_async(batch: dict, device) -> dict:\n"
            "    device = torch.device(device)\n"
            '    if device.type != "cuda":\n'
            "        return {k: t.to(device) for k, t in batch.items()}\n"
            "    side = torch.cuda.Stream()\n"
            "    with torch.cuda.stream(side):\n"
            '        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}\n'
            "        done = torch.cuda.Event()\n"
            "        done.record()\n"
            "    torch.cuda.current_stream().wait_event(done)\n"
            "    return moved\n"
        ),
    ),
]


MUTANTS += [  # s42 review (e2 cand21): the device of ref kept across calls
    dict(
        grade_id="test_to_device_like",
        name="functools.lru_cache on the device of ref (stale once the caller moves the model in place)",
        expect="第二次的结果在 cpu，应该在 meta",
        code="import functools\n@functools.lru_cache(maxsize=None)\ndef _device_of(ref):\n    return next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\ndef to_device_like(x, ref):\n    return x.to(_device_of(ref))\n",
    ),
]

MUTANTS += [  # issue-17 second pass (f2, stop 43): GPU -> GPU through the host passed
    dict(
        grade_id="test_to_device_async",
        name="brings every tensor to the host first: t.cpu().to(device, non_blocking=pinned)",
        expect="目标是 GPU，函数里却有一次 GPU -> CPU 的拷贝（.cpu()）",
        code=_ASYNC + "    device = torch.device(device)\n    out = {}\n    for k, t in batch.items():\n"
        "        h = t.cpu()\n        out[k] = h.to(device, non_blocking=device.type == 'cuda' and h.is_pinned())\n"
        "    return out\n",
    ),
    dict(
        grade_id="test_to_device_async",
        name="reads each pinned copy back with .cpu() to check that it arrived",
        expect="目标是 GPU，函数里却有一次 GPU -> CPU 的拷贝（.cpu()）",
        code=_ASYNC + "    device = torch.device(device)\n    moved = {}\n    for key, t in batch.items():\n"
        "        overlaps = t.device.type == 'cpu' and device.type == 'cuda' and t.is_pinned()\n"
        "        out = t.to(device, non_blocking=overlaps)\n        if overlaps:\n"
        "            assert torch.equal(out.cpu(), t)\n        moved[key] = out\n    return moved\n",
    ),
    dict(
        grade_id="test_to_device_like",
        name="GPU to another GPU through the host: x.cpu().to(d)",
        expect="x 先被拷回了 CPU（.cpu()），再拷到 cuda:1",
        code=_LIKE + "    d = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n"
        "    if x.device.type == 'cuda' and d.type == 'cuda' and x.device != d:\n        return x.cpu().to(d)\n"
        "    return x.to(d)\n",
    ),
    dict(
        grade_id="test_move_to",
        name="a tensor on one GPU moved to another through the host: t.to('cpu').to(device)",
        expect="张量先被拷回了 CPU（.to()），再拷到 cuda:1",
        code="def move_to(batch, device):\n    if isinstance(batch, torch.Tensor):\n        d = torch.device(device)\n"
        "        if batch.device.type == 'cuda' and d.type == 'cuda' and batch.device != d:\n"
        "            return batch.to('cpu').to(d)\n        return batch.to(device)\n"
        "    if isinstance(batch, dict):\n        return {k: move_to(v, device) for k, v in batch.items()}\n"
        "    if isinstance(batch, list):\n        return [move_to(v, device) for v in batch]\n"
        "    if isinstance(batch, tuple):\n        return tuple(move_to(v, device) for v in batch)\n    return batch\n",
    ),
]

CORRECT += [
    dict(
        grade_id="test_to_device_like",
        name="x.to(ref's device) without a check: GPU to GPU directly",
        code=_LIKE
        + "    if isinstance(ref, nn.Module):\n        ref = next(ref.parameters())\n    return x.to(ref.device)\n",
    ),
]


MUTANTS += [  # stop 46 (j4 cand03): "already on a GPU" taken for "already on the target GPU"
    dict(
        grade_id="test_to_device_async",
        name="a tensor already on cuda:0 returned as is when the target is cuda:1",
        expect="返回的张量却在 cuda:0 上",
        code="""\
def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if t.device.type == device.type == "cuda":
            moved[key] = t  # already on the GPU
            continue
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
""",
    ),
]

MUTANTS += [  # stop 47 review (m1): branches the played devices never took, and a tensor subclass
    dict(
        grade_id="test_causal_mask_fill",
        name="when CUDA is available the mask is built on the host and uploaded",
        expect="先在 CPU 上建了一个形状",
        code="""
def causal_mask_fill(scores):
    t = scores.shape[-1]
    if torch.cuda.is_available():
        future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1).to(scores.device)
    else:
        future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="torch.cuda.synchronize() once CUDA is initialised, 'to be safe'",
        expect="函数里同步了",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    if torch.cuda.is_initialized():
        torch.cuda.synchronize()
    return moved
""",
    ),
    dict(
        grade_id="test_move_to",
        name="type(batch) is torch.Tensor: an nn.Parameter in the batch stays where it was",
        expect="['w'] 的设备 (device) 不对",
        code="""
def move_to(batch, device):
    if type(batch) is torch.Tensor:
        return batch.to(device)
    if isinstance(batch, dict):
        return {k: move_to(v, device) for k, v in batch.items()}
    if isinstance(batch, list):
        return [move_to(v, device) for v in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(v, device) for v in batch)
    return batch
""",
    ),
]

MUTANTS += [  # stop 48 (m1 of stop 47): another path above a size the tests computed; a FakeTensor twin of 2**32
    # elements or more (course/fixtures/scale.py) now runs it
    dict(
        grade_id="test_to_device_like",
        name="GPU to GPU through the host for tensors of 2**22 elements or more",
        expect="多了 _to_copy",
        code="""
def to_device_like(x, ref):
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.numel() >= 2**22 and x.device != dev:
        return x.cpu().to(dev)
    return x.to(dev)
""",
    ),
]

MUTANTS += [  # stop 48 review (n1): device tests the played GPU did not play, paths only a GPU (or an empty input) takes
    dict(
        grade_id="test_to_device_async",
        name="torch.cuda.empty_cache() after the copies",
        expect="函数里同步了",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return moved
""",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="isinstance(scores, torch.cuda.FloatTensor): the mask built on the host",
        expect="次主机-设备同步",
        code="""
def causal_mask_fill(scores):
    t = scores.shape[-1]
    if isinstance(scores, (torch.cuda.FloatTensor, torch.cuda.HalfTensor, torch.cuda.BFloat16Tensor, torch.cuda.DoubleTensor)):
        mask = torch.ones(t, t, dtype=torch.bool).triu(1).to(scores.device)
    else:
        mask = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(1)
    return scores.masked_fill(mask, float("-inf"))
""",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="a full (B, H, T, T) mask on a GPU only",
        expect="GPU 上走了另一条路",
        code="""
def causal_mask_fill(scores):
    t = scores.shape[-1]
    if scores.is_cuda:
        mask = torch.ones_like(scores, dtype=torch.bool).triu(1)
    else:
        mask = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(1)
    return scores.masked_fill(mask, float("-inf"))
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="one query() of the stream taken for a wait before reading host memory",
        expect="之后直到返回都没有同步",
        code="""
def to_device_like(x, ref):
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    out = x.to(dev, non_blocking=True)
    if x.device.type == "cuda" and dev.type == "cpu":
        torch.cuda.current_stream().query()
    return out
""",
    ),
    dict(
        grade_id="test_move_to",
        name="one query() of the stream taken for a wait before reading host memory",
        expect="之后直到返回都没有同步",
        code="""
def _move(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device, non_blocking=True)
    if isinstance(batch, dict):
        return {key: _move(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [_move(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(_move(item, device) for item in batch)
    return batch

def move_to(batch, device):
    out = _move(batch, device)
    if torch.device(device).type == "cpu" and torch.cuda.is_available():
        torch.cuda.current_stream().query()
    return out
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="an empty x returned where it is",
        expect="结果的 dtype 和设备不随输入的大小改变",
        code="""
def to_device_like(x, ref):
    if x.numel() == 0:
        return x
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    return x.to(dev)
""",
    ),
]

CORRECT += [  # stop 48 review (n1 cand25): one query() asks and waits for nothing; it was counted as a synchronize
    dict(
        grade_id="test_to_device_async",
        name="the solution plus one query() of the current stream (a progress probe)",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    if device.type == "cuda":
        _still_copying = not torch.cuda.current_stream().query()
    return moved
""",
    ),
]

MUTANTS += [  # stop 48 second review (p1 cand17, cand25): two looks at the stream were counted as a wait
    dict(
        grade_id="test_to_device_like",
        name="q() or q() of the stream taken for a wait before reading host memory",
        expect="之后直到返回都没有同步",
        code="""
def to_device_like(x, ref):
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    out = x.to(dev, non_blocking=True)   # overlap every copy
    if out.device.type == "cpu" and x.device.type == "cuda":
        s = torch.cuda.current_stream(x.device)
        s.query() or s.query()           # make sure the copy has landed before the caller reads it
    return out
""",
    ),
    dict(
        grade_id="test_move_to",
        name="q() or q() of the stream taken for a wait before reading host memory",
        expect="之后直到返回都没有同步",
        code="""
def move_to(batch, device):
    device = torch.device(device)
    def go(b):
        if isinstance(b, torch.Tensor):
            return b.to(device, non_blocking=True)
        if isinstance(b, dict):
            return {k: go(v) for k, v in b.items()}
        if isinstance(b, list):
            return [go(v) for v in b]
        if isinstance(b, tuple):
            return tuple(go(v) for v in b)
        return b
    out = go(batch)
    if device.type == "cpu" and torch.cuda.is_available():
        s = torch.cuda.current_stream()
        s.query() or s.query()   # copies to the host landed?
    return out
""",
    ),
]

MUTANTS += [  # stop 51 (stop 50's r3 cand05-07): the played streams now know their GPU and the order of events; a sync waits only for what it covers
    dict(
        grade_id="test_to_device_async",
        name="side stream on the target GPU, but waited for and record_stream'd on the current device's stream (cuda:0 for a cuda:1 target)",
        expect="cuda:1 的当前流",
        code='''
def to_device_async(batch: dict, device) -> dict:
    """batch: {键: 张量} -> 新的 dict，张量都在 device 上；只有 pinned 内存 -> GPU 的拷贝用 non_blocking=True。"""
    device = torch.device(device)
    if device.type != "cuda":
        return {k: t.to(device) for k, t in batch.items()}
    side = torch.cuda.Stream(device)  # a copy stream on the target GPU
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):
        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}
    current = torch.cuda.current_stream()  # as the prose writes it: the caller's stream waits for the copies
    current.wait_stream(side)
    for t in moved.values():
        t.record_stream(current)
    return moved
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="an event recorded on the side stream before the copies, then waited for: it covers none of them",
        expect="没有等它",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    if device.type != "cuda":
        return {k: t.to(device) for k, t in batch.items()}
    current = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(current)
    with torch.cuda.stream(side):
        done = torch.cuda.Event()
        done.record()                      # marks the side stream (before the copies are queued)
        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}
    current.wait_event(done)
    for t in moved.values():
        t.record_stream(current)
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="non_blocking copy back 'synchronized' by an event recorded before the copy",
        expect="等的却不是这次拷贝",
        code='''
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    """x: (*) 任意 dtype；ref: 张量或 nn.Module -> (*) 与 x 同 dtype，位于 ref（的参数）所在的设备上。"""
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == device:
        return x
    if x.device.type == "cuda" and device.type == "cpu":
        copied = torch.cuda.Event()
        copied.record()                              # mark the copy on the stream ...
        out = x.to(device, non_blocking=True)        # ... start it without blocking ...
        copied.synchronize()                         # ... and wait for it before handing the result back
        return out
    return x.to(device)
''',
    ),
    dict(
        grade_id="test_to_device_like",
        name="copy back on a side stream, then the current stream synchronized (not the side stream)",
        expect="等的却不是这次拷贝",
        code='''
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    """x: (*) 任意 dtype；ref: 张量或 nn.Module -> (*) 与 x 同 dtype，位于 ref（的参数）所在的设备上。"""
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == device:
        return x
    if x.device.type == "cuda" and device.type == "cpu":
        copy_stream = torch.cuda.Stream()
        copy_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(copy_stream):        # copy back on a side stream, off the compute stream
            out = x.to(device, non_blocking=True)
        torch.cuda.current_stream().synchronize()    # wait before the caller reads host memory
        return out
    return x.to(device)
''',
    ),
]

CORRECT += [  # stop 51: a sync or wait that covers the copy, through an event recorded after it or a stream that waited
    dict(
        grade_id="test_to_device_like",
        name="event recorded on x's GPU's stream after the non_blocking copy back, then synchronized",
        code="""
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == device:
        return x
    if x.device.type == "cuda" and device.type == "cpu":
        out = x.to(device, non_blocking=True)  # start the copy back without blocking ...
        copied = torch.cuda.Event()
        copied.record(torch.cuda.current_stream(x.device))  # ... mark it on the stream that runs it ...
        copied.synchronize()                   # ... and wait for it before the caller reads host memory
        return out
    return x.to(device)
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="copy back on a side stream; the current stream waits for it and is synchronized",
        code="""
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == device:
        return x
    if x.device.type == "cuda" and device.type == "cpu":
        side = torch.cuda.Stream(x.device)
        side.wait_stream(torch.cuda.current_stream(x.device))
        with torch.cuda.stream(side):           # copy back on a side stream
            out = x.to(device, non_blocking=True)
        torch.cuda.current_stream(x.device).wait_stream(side)
        torch.cuda.current_stream(x.device).synchronize()  # the current stream waited for the side stream
        return out
    return x.to(device)
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="copy back on a side stream, that stream synchronized",
        code="""
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == device:
        return x
    if x.device.type == "cuda" and device.type == "cpu":
        side = torch.cuda.Stream(x.device)
        side.wait_stream(torch.cuda.current_stream(x.device))
        with torch.cuda.stream(side):
            out = x.to(device, non_blocking=True)
        side.synchronize()                      # wait for the stream that ran the copy
        return out
    return x.to(device)
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="side stream on the target GPU; its stream (current_stream(device)) waits for an event recorded after the copies",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    if device.type != "cuda":
        return {k: t.to(device) for k, t in batch.items()}
    current = torch.cuda.current_stream(device)  # the stream the caller uses on the target GPU
    side = torch.cuda.Stream(device)
    side.wait_stream(current)
    with torch.cuda.stream(side):
        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}
        done = side.record_event()
    current.wait_event(done)
    for t in moved.values():
        t.record_stream(current)
    return moved
""",
    ),
]

CORRECT += [  # stop 51 (reviewer c): the CPU side of the played-GPU comparison ran t.to(x.device) as a copy to the host
    dict(
        grade_id="test_causal_mask_fill",
        name="the result kept on the scores' device with a no-op .to(scores.device)",
        code="""
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf")).to(scores.device)  # stays with scores (no-op)
""",
    ),
]

MUTANTS += [  # stop 52: GPU-only branches in causal_mask_fill (reviewer c of stop 51)
    dict(
        grade_id="test_causal_mask_fill",
        name="GPU-only mask of scores' full shape (B, H, T, T)",
        expect="的布尔掩码（aten.ones），是规格要的 (T, T) 掩码的 8 倍",
        code="""
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    t = scores.shape[-1]
    # on a GPU a mask of scores' own shape keeps masked_fill a plain elementwise kernel (no broadcast strides)
    shape = scores.shape if scores.is_cuda else (t, t)
    future = torch.ones(shape, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
""",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="GPU-only finfo(dtype).min fill for float16 / bfloat16 scores",
        expect="期望 -inf，得到 -65504",
        code="""
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    fill = float("-inf")
    if scores.is_cuda and scores.dtype in (torch.float16, torch.bfloat16):
        fill = torch.finfo(scores.dtype).min  # mixed precision on the GPU: -inf rows turn softmax into nan
    return scores.masked_fill(future, fill)
""",
    ),
]

MUTANTS += [  # stop 53 reviewers (c F8/F9, b 5/6): a GPU machine with CPU inputs, and inputs on cuda:1 (course/fixtures/placement.py)
    dict(
        grade_id="test_causal_mask_fill",
        name="scores moved to the GPU when one is there and scores is on the CPU",
        expect="返回的张量在 cuda:0 上",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    if torch.cuda.is_available() and scores.device.type == "cpu":
        scores = scores.cuda()  # attention belongs on the GPU when there is one
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
''',
    ),
]

MUTANTS += [  # stop 54 reviewer c: copies of tensors already in place (a transposed one too), and the sync of a CPU target told the wrong cause
    dict(
        grade_id="test_move_to",
        name="batch.to(device).contiguous(): a non-contiguous tensor already on the device comes back as a copy",
        expect="返回的却是一份拷贝",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        return batch.to(device).contiguous()  # GPU kernels like contiguous memory
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_move_to",
        name="batch.contiguous().to(device): a non-contiguous tensor already on the device comes back as a copy",
        expect="返回的却是一份拷贝",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        return batch.contiguous().to(device)  # one contiguous block copies faster
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="t.to(device, non_blocking=..., copy=True): tensors already on the target device are copied",
        expect="返回的却是一份拷贝",
        code='''
def to_device_async(batch: dict, device) -> dict:
    """batch: {键: 张量} -> 新的 dict，张量都在 device 上；只有 pinned 内存 -> GPU 的拷贝用 non_blocking=True。"""
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps, copy=True)  # a fresh tensor: the caller's batch stays untouched
    return moved
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copies non_blocking with one torch.cuda.synchronize() before returning (the spec asks for the blocking copy there)",
        expect="目标是 CPU，函数里同步了",
        code='''
def to_device_async(batch: dict, device) -> dict:
    """batch: {键: 张量} -> 新的 dict，张量都在 device 上；只有 pinned 内存 -> GPU 的拷贝用 non_blocking=True。"""
    device = torch.device(device)
    to_host = device.type == "cpu"
    moved = {}
    for key, t in batch.items():
        # pinned -> GPU overlaps; GPU -> CPU copies are queued together and synchronized once below (section 6)
        non_blocking = (device.type == "cuda" and t.device.type == "cpu" and t.is_pinned()) or (to_host and t.is_cuda)
        moved[key] = t.to(device, non_blocking=non_blocking)
    if to_host and torch.cuda.is_available():
        torch.cuda.synchronize()  # a synchronization point before the caller reads the host copies
    return moved
''',
    ),
]

MUTANTS += [  # stop 54 reviewer g: round trips through a GPU, a 0-d device fill value, and copies of tensors already on a GPU target
    dict(
        grade_id="test_causal_mask_fill",
        name="on a GPU machine with CPU scores: moved to the GPU, filled there, moved back",
        expect="调用期间有张量到了 cuda:0 上",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    home = scores.device
    if torch.cuda.is_available() and scores.device.type == "cpu":
        scores = scores.cuda()  # attention belongs on the GPU when there is one
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf")).to(home)  # ...and the caller gets it back where it was
''',
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="the mask made with device=scores.device.type, then .to(scores.device): built on cuda:0 for scores on cuda:1",
        expect="调用期间有张量到了 cuda:0 上",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device.type).triu(diagonal=1)
    return scores.masked_fill(future.to(scores.device), float("-inf"))
''',
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="the fill value made on the device (torch.full((), -inf, device=...)): CUDA reads it with .item()",
        expect="masked_fill(mask, 0 维的 GPU 张量)",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    neg_inf = torch.full((), float("-inf"), dtype=scores.dtype, device=scores.device)  # 填充值也建在设备上
    return scores.masked_fill(future, neg_inf)
''',
    ),
    dict(
        grade_id="test_move_to",
        name=".contiguous() for CUDA targets only (a transposed tensor already there is copied)",
        expect="已经在 cuda:1 上，返回的却是一份拷贝",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        if torch.device(device).type == "cuda":
            return batch.to(device, non_blocking=batch.is_pinned()).contiguous()  # GPU 上的 kernel 要连续的内存
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_like",
        name="a GPU-only .contiguous() (a non-contiguous x already on ref's GPU is copied)",
        expect="返回的张量是一份拷贝，没有 GPU 时它是输入的视图",  # stop 55: placement's non-contiguous x sees it first
        code='''
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    """x: (*) 任意 dtype；ref: 张量或 nn.Module -> (*) 与 x 同 dtype，位于 ref（的参数）所在的设备上。"""
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if device.type == "cuda":
        return x.to(device).contiguous()  # GPU 上的 kernel 要连续的内存
    return x.to(device)
''',
    ),
]

CORRECT += [  # stop 54 reviewer g: a right answer inside torch.cuda.device_of(scores) got zero (the played cuda:1 reached
    # the driver; the played GPU counted its x.get_device() read as another path): both are played now
    dict(
        grade_id="test_causal_mask_fill",
        name="the solution inside with torch.cuda.device_of(scores)",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    with torch.cuda.device_of(scores):  # 在 scores 所在的 GPU 上建掩码（CPU 张量时什么也不做）
        future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
        return scores.masked_fill(future, float("-inf"))
''',
    ),
]

MUTANTS += [  # stop 55 (stop 53 reviewer d 23): a loop only when scores require grad; course/fixtures/grad_paths.py
    dict(
        grade_id="test_causal_mask_fill",
        name="a row-by-row masked_fill loop only when scores require grad (attention training)",
        expect="和不需要梯度的同样输入走的不是同一条路",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    if scores.requires_grad:
        # in the graph: fill row by row (row i keeps columns 0..i), then stack the rows back
        rows = [scores[..., i, :].masked_fill(torch.arange(t, device=scores.device) > i, float("-inf")) for i in range(t)]
        return torch.stack(rows, dim=-2)
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
''',
    ),
]

MUTANTS += [  # stop 55 reviewer c: an index-less 'cuda' target with tensors on cuda:0 was never tried
    dict(
        grade_id="test_move_to",
        name="skips the copy only when batch.device == torch.device(device): a 'cuda' target never equals cuda:0, so tensors already there are copied",
        expect="不带编号的 'cuda' 就是当前的 GPU cuda:0",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        if batch.device == torch.device(device):
            return batch                                   # 已经在 device 上：不复制
        out = torch.empty_like(batch, device=device)       # 在目标设备上分配，再拷过去（copy_ 可微）
        out.copy_(batch)
        return out
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
]

MUTANTS += [  # stop 55 reviewers c, d: a dtype branch, a GPU-machine-only copy, a mask cache (a ruling)
    dict(
        grade_id="test_causal_mask_fill",
        name="-inf filled row by row in a Python loop for float64 scores",
        expect="输入是 torch.float64 时",
        code="""
def causal_mask_fill(scores):
    t = scores.shape[-1]
    if scores.dtype == torch.float64:  # float64 scores: fill the future row by row
        out = scores.clone()
        for i in range(t - 1):
            out[..., i, i + 1:] = float("-inf")
        return out
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="x.contiguous() on a GPU machine when x is on the CPU: a non-contiguous x comes back as a copy",
        expect="返回的张量是一份拷贝，没有 GPU 时它是输入的视图",
        code='''
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    """x: (*) 任意 dtype；ref: 张量或 nn.Module -> (*) 与 x 同 dtype，位于 ref（的参数）所在的设备上。"""
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device.type == "cpu" and torch.cuda.is_available():
        x = x.contiguous()   # 有 GPU 的机器上，主机上的数据多半要上传：先整理成连续内存，一次拷一整块
    return x.to(device)
''',
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="a module-level mask cache keyed on (T, scores.device) (the prose now says a new mask every call)",
        expect="规格要求每次调用按 scores.device 新建掩码",
        code='''
_MASKS = {}


def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    key = (t, scores.device)
    if key not in _MASKS:   # 同一个 T、同一个设备的掩码只建一次（它只看位置，不看数值）
        _MASKS[key] = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(_MASKS[key], float("-inf"))
''',
    ),
]

CORRECT += [  # stop 55 reviewer c cand07: a torch.device built from the index was counted as GPU-only work
    dict(
        grade_id="test_causal_mask_fill",
        name="the mask on torch.device('cuda', scores.get_device()) when scores.is_cuda (its own device, index and all)",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    # GPU 上带上编号：scores 在第几块卡上，掩码就建在第几块卡上
    dev = torch.device("cuda", scores.get_device()) if scores.is_cuda else scores.device
    future = torch.ones(t, t, dtype=torch.bool, device=dev).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
''',
    ),
]

CORRECT += [  # stop 55 reviewer c cand05: the played machines pinned through the real driver
    dict(
        grade_id="test_to_device_like",
        name="x.pin_memory().to(device, non_blocking=True) for a host-to-GPU move",
        code='''
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    """x: (*) 任意 dtype；ref: 张量或 nn.Module -> (*) 与 x 同 dtype，位于 ref（的参数）所在的设备上。"""
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if device.type == "cuda" and x.device.type == "cpu":
        return x.pin_memory().to(device, non_blocking=True)   # 主机 -> GPU：pinned + non_blocking
    return x.to(device)
''',
    ),
]

MUTANTS += [  # stop 55 round 2 reviewers g, h: a layout branch; GPU-machine-only copies of CPU tensors sent to 'cpu' (placement on HOST)
    dict(
        grade_id="test_causal_mask_fill",
        name="-inf filled row by row when scores is not contiguous",
        expect="输入不连续",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    if not scores.is_contiguous():  # strided scores (a transposed view): fill row by row
        out = scores.clone()
        for i in range(t - 1):
            out[..., i, i + 1:] = float("-inf")
        return out
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
''',
    ),
    dict(
        grade_id="test_move_to",
        name="on a GPU machine CPU tensors are pinned before the move: a 'cpu' target gets pinned copies",
        expect="返回的第 1 个张量是一份拷贝",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        if torch.cuda.is_available() and batch.device.type == "cpu" and not batch.is_pinned():
            batch = batch.pin_memory()        # 有 GPU：主机上的张量先放进 pinned 内存，上传可以异步
        return batch.to(device, non_blocking=batch.is_pinned())
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_move_to",
        name="on a GPU machine .contiguous() first: a transposed CPU tensor sent to 'cpu' comes back as a copy",
        expect="返回的第 1 个张量是一份拷贝",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        if batch.device.type == "cpu" and torch.cuda.is_available():
            batch = batch.contiguous()   # 有 GPU 的机器上，主机上的数据多半要上传：先整理成连续内存，一次拷一整块
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="on a GPU machine .contiguous() first: a transposed CPU tensor sent to 'cpu' comes back as a copy",
        expect="返回的第 1 个张量是一份拷贝",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if t.device.type == "cpu" and torch.cuda.is_available():
            t = t.contiguous()   # 有 GPU 的机器上：主机上的数据先整理成连续内存，一次拷一整块
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
""",
    ),
]

MUTANTS += [  # stop 55 reviewer g 11-13: a device-less synchronize (or an event recorded on the current GPU) after
    # non-blocking copies back from cuda:1 waits for cuda:0 only (an s38 CORRECT entry had this flaw)
    dict(
        grade_id="test_move_to",
        name="every GPU -> CPU copy non_blocking, one device-less torch.cuda.synchronize() before returning",
        expect="等的却是另一块 GPU",
        code='def _move(batch, device, to_host):\n    if isinstance(batch, torch.Tensor):\n        # device -> host copies are queued without waiting; one synchronization below covers them all\n        return batch.to(device, non_blocking=to_host and batch.device.type == "cuda")\n    if isinstance(batch, dict):\n        return {key: _move(value, device, to_host) for key, value in batch.items()}\n    if isinstance(batch, list):\n        return [_move(item, device, to_host) for item in batch]\n    if isinstance(batch, tuple):\n        return tuple(_move(item, device, to_host) for item in batch)\n    return batch\n\n\ndef move_to(batch, device):\n    to_host = torch.device(device).type == "cpu"\n    out = _move(batch, device, to_host)\n    if to_host and torch.cuda.is_available():\n        torch.cuda.synchronize()  # section 6: a synchronization point before the caller reads the host copies\n    return out\n',
    ),
]

MUTANTS += [  # stop 55 reviewer g 1-4, 11-13: the index-less 'cuda' is the caller's current GPU; a wait on the current GPU does not cover a copy from cuda:1
    dict(
        grade_id="test_move_to",
        name="a tensor on cuda:1 counted as already on an index-less 'cuda' target (types compared, not devices)",
        expect="不在 cuda:0 上（它原来在 cuda:1 上",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    device = torch.device(device)
    if isinstance(batch, torch.Tensor):
        # 已经在目标设备上就原样返回：'cuda' 不带编号时，任何一块 GPU 都算
        if batch.device.type == device.type and (device.index is None or batch.device.index == device.index):
            return batch
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="a tensor on cuda:1 left in place for an index-less 'cuda' target",
        expect="返回的张量却在 cuda:1 上（它原来在 cuda:1 上",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if t.device.type == device.type and (device.index is None or t.device.index == device.index):
            moved[key] = t          # 已经在目标设备上：不拷贝
            continue
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
""",
    ),
    dict(
        grade_id="test_move_to",
        name="the index-less 'cuda' resolved to a hard-coded torch.device('cuda', 0)",
        expect="不带编号的 'cuda' 是调用者当前的 GPU，这里是 cuda:1",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", 0)      # 不带编号的 'cuda' 就是 cuda:0
    if isinstance(batch, torch.Tensor):
        if batch.device == device:
            return batch                      # 已经在 device 上：不复制
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="the index-less 'cuda' resolved to a hard-coded cuda:0",
        expect="当前设备是 cuda:1",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", 0)      # 不带编号的 'cuda' 就是 cuda:0
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="GPU -> CPU non_blocking, then a device-less torch.cuda.synchronize() (x on cuda:1)",
        expect="等的却是另一块 GPU",
        code="""
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.is_cuda and dev.type == "cpu":
        out = x.to(dev, non_blocking=True)   # GPU -> CPU：异步拷贝
        torch.cuda.synchronize()             # 读之前同步
        return out
    return x.to(dev)
""",
    ),
    dict(
        grade_id="test_move_to",
        name="copies back non_blocking, then a device-less torch.cuda.synchronize() (a batch on cuda:1)",
        expect="等的却是另一块 GPU",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        if batch.is_cuda and torch.device(device).type == "cpu":
            out = batch.to(device, non_blocking=True)   # GPU -> CPU：异步拷贝
            torch.cuda.synchronize()                    # 读之前同步
            return out
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_move_to",
        name="copies back non_blocking, then an Event recorded on the current GPU and synchronized",
        expect="等的却是另一块 GPU",
        code='''
def _move(batch, device, back):
    if isinstance(batch, torch.Tensor):
        return batch.to(device, non_blocking=back and batch.is_cuda)
    if isinstance(batch, dict):
        return {key: _move(value, device, back) for key, value in batch.items()}
    if isinstance(batch, list):
        return [_move(item, device, back) for item in batch]
    if isinstance(batch, tuple):
        return tuple(_move(item, device, back) for item in batch)
    return batch


def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    back = torch.device(device).type == "cpu"
    out = _move(batch, device, back)
    if back and torch.cuda.is_available():
        done = torch.cuda.Event()   # 第 6 节的写法：在当前流上记一个事件
        done.record()
        done.synchronize()          # 同步点：事件之前排队的拷贝都完成了
    return out
''',
    ),
]

CORRECT += [  # stop 55 reviewer g 5-7: torch.cuda.device(...) blocks are played (they were false failures)
    dict(
        grade_id="test_causal_mask_fill",
        name="the mask made with device='cuda' inside with torch.cuda.device(scores.device)",
        code="""
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    t = scores.shape[-1]
    if scores.is_cuda:
        with torch.cuda.device(scores.device):   # 当前 GPU 换成 scores 所在的那块，'cuda' 就指它
            future = torch.ones(t, t, dtype=torch.bool, device="cuda").triu(diagonal=1)
    else:
        future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
""",
    ),
    dict(
        grade_id="test_move_to",
        name="a CUDA target handled as with torch.cuda.device(device): batch.cuda()",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        device = torch.device(device)
        if device.type == "cuda":
            with torch.cuda.device(device):   # 在这一块里，当前 GPU 就是目标那块
                return batch.cuda()
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_like",
        name="a CUDA ref handled as with torch.cuda.device(dev): x.cuda()",
        code="""
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if dev.type == "cuda":
        with torch.cuda.device(dev):   # 当前 GPU 换成 ref 所在的那块
            return x.cuda()            # 已经在那块 GPU 上时 .cuda() 返回 x 本身
    return x.to(dev)
""",
    ),
]

MUTANTS += [  # stop 55 reviewer g 13: an event recorded on the current GPU's stream does not cover a copy from cuda:1
    dict(
        grade_id="test_to_device_like",
        name="non_blocking copy to the host, then polls an event recorded on the current GPU (x on cuda:1)",
        expect="等的却是另一块 GPU",
        code='def to_device_like(x, ref):\n    d = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device\n    if x.device == d:\n        return x\n    out = x.to(d, non_blocking=True)\n    if x.device.type == "cuda":\n        done = torch.cuda.Event()\n        done.record()\n        while not done.query():\n            pass\n    return out\n',
    ),
]

MUTANTS += [  # stop 56 reviewer l: upload memos; a tensor already on the index-less 'cuda' target copied again
    dict(
        grade_id="test_to_device_async",
        name="an upload memo keyed on the tensor object and the device (stale after an in-place change)",
        expect="搬运的结果被存了起来",
        code="""
from torch.utils.weak import WeakIdKeyDictionary

_uploaded = WeakIdKeyDictionary()  # source tensor -> {device: its copy there}; a batch reused every epoch is uploaded once


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if t.device == device or (device.index is None and t.device.type == device.type):
            moved[key] = t.to(device)
            continue
        copies = _uploaded.setdefault(t, {})
        if str(device) not in copies:
            overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
            copies[str(device)] = t.to(device, non_blocking=overlaps)
        moved[key] = copies[str(device)]
    return moved
""",
    ),
    dict(
        grade_id="test_move_to",
        name="a hand-written recursion with a memo of each tensor's moved copy",
        expect="搬运的结果被存了起来",
        code='''
from torch.utils.weak import WeakIdKeyDictionary

_moved = WeakIdKeyDictionary()  # tensor -> {device: its copy there}: a fixed batch (e.g. the validation set) is moved once


def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        target = torch.device(device)
        if batch.device == target:
            return batch
        copies = _moved.setdefault(batch, {})
        if str(target) not in copies:
            copies[str(target)] = batch.to(target)
        return copies[str(target)]
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_like",
        name="x's copy on ref's device kept per x object and device",
        expect="搬运的结果被存了起来",
        code="""
from torch.utils.weak import WeakIdKeyDictionary

_copies = WeakIdKeyDictionary()  # x -> {device: x on that device}: the same input is moved once


def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    target = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == target:
        return x
    moved = _copies.setdefault(x, {})
    if str(target) not in moved:
        moved[str(target)] = x.to(target)
    return moved[str(target)]
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="'already there' tested with t.device == torch.device(device): cuda:0 != 'cuda', so it copies",
        expect="函数却又在这块 GPU 上拷了一份",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    out = {}
    for k, t in batch.items():
        if t.device == device:  # already there: no copy
            out[k] = t
            continue
        pinned = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        out[k] = torch.empty_like(t, device=device).copy_(t, non_blocking=pinned)
    return out
""",
    ),
]

MUTANTS += [  # stop 55 g 13 (an s51 CORRECT entry had it): an event recorded on the current GPU's stream
    dict(
        grade_id="test_to_device_like",
        name="event recorded on the current stream (not x's GPU's) after the non_blocking copy back",
        expect="等的却是另一块 GPU",
        code="""
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == device:
        return x
    if x.device.type == "cuda" and device.type == "cpu":
        out = x.to(device, non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()
        copied.synchronize()
        return out
    return x.to(device)
""",
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_to_device_async",
        name="non_blocking=True for GPU -> GPU copies too",
        expect="从一块 GPU 拷到另一块 GPU 时用了 non_blocking=True",
        code='''
def to_device_async(batch: dict, device) -> dict:
    """batch: {键: 张量} -> 新的 dict，张量都在 device 上；只有 pinned 内存 -> GPU 的拷贝用 non_blocking=True。"""
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        # pinned -> GPU 可以重叠；GPU -> GPU 本来就对 CPU 异步，non_blocking 也无妨
        overlaps = device.type == "cuda" and (t.is_pinned() or t.is_cuda)
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
''',
    ),
]

CORRECT += [  # stop 56 p cand10 (ruled right): torch's own copy of a non-contiguous pinned tensor makes the same pageable temporary
    dict(
        grade_id="test_to_device_async",
        name="pinned tensors uploaded as t.contiguous().to(device, non_blocking=True)",
        code='''
def to_device_async(batch: dict, device) -> dict:
    """batch: {键: 张量} -> 新的 dict，张量都在 device 上；只有 pinned 内存 -> GPU 的拷贝用 non_blocking=True。"""
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if device.type == "cuda" and t.device.type == "cpu" and t.is_pinned():
            # 连续的内存一次 DMA 就能拷完：先 contiguous() 再异步上传
            moved[key] = t.contiguous().to(device, non_blocking=True)
        else:
            moved[key] = t.to(device)
    return moved
''',
    ),
]

MUTANTS += [  # stop 57 reviewer t (round 3): explicit cuda:0 after set_device(1), graphs across played GPU moves, new containers with no GPU, long low-precision masks
    dict(
        grade_id="test_causal_mask_fill",
        name="positions_arange_in_scores_dtype_round_past_256",
        expect="遮错了",
        code='''
def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    t = scores.shape[-1]
    pos = torch.arange(t, dtype=scores.dtype, device=scores.device)  # 跟随输入的 dtype 和 device（第 4 节）
    future = pos[None, :] > pos[:, None]
    return scores.masked_fill(future, float("-inf"))
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="index_or_current_device_loses_explicit_cuda0",
        expect="编号 0 也是编号",
        code='''
def to_device_async(batch: dict, device) -> dict:
    """batch: {键: 张量} -> 新的 dict，张量都在 device 上；只有 pinned 内存 -> GPU 的拷贝用 non_blocking=True。"""
    device = torch.device(device)
    if device.type == "cuda":  # 不带编号的 "cuda" 是当前的 GPU：把编号补上，才能和 t.device 比较
        device = torch.device("cuda", device.index or torch.cuda.current_device())
    moved = {}
    for key, t in batch.items():
        if t.device == device:  # 已经在目标设备上：不拷贝
            moved[key] = t
            continue
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
''',
    ),
    dict(
        grade_id="test_move_to",
        name="index_or_current_device_loses_explicit_cuda0",
        expect="编号 0 也是编号",
        code='''
def _target(device):
    device = torch.device(device)
    if device.type == "cuda":  # 不带编号的 "cuda" 是当前的 GPU：把编号补上，才能和 batch.device 比较
        device = torch.device("cuda", device.index or torch.cuda.current_device())
    return device


def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        target = _target(device)
        return batch if batch.device == target else batch.to(target)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_move_to",
        name="detach_before_upload_to_cuda",
        expect="脱离了计算图",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        if torch.device(device).type == "cuda" and batch.device.type == "cpu":
            return batch.detach().to(device)  # 主机上的 batch 搬上 GPU：只搬数据，不带着 CPU 上的计算图
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_async",
        name="no_gpu_returns_the_callers_dict",
        expect="不是新的 dict",
        code='''
def to_device_async(batch: dict, device) -> dict:
    """batch: {键: 张量} -> 新的 dict，张量都在 device 上；只有 pinned 内存 -> GPU 的拷贝用 non_blocking=True。"""
    if not torch.cuda.is_available():
        return batch  # 没有 GPU 的机器上：所有张量都在 CPU 上，没有什么要搬的
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
''',
    ),
    dict(
        grade_id="test_move_to",
        name="no_gpu_cpu_target_returns_the_callers_batch",
        expect="不是新的",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if torch.device(device).type == "cpu" and not torch.cuda.is_available():
        return batch  # 没有 GPU 的机器上，batch 本来就在 CPU 上：没有什么要搬的
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
    dict(
        grade_id="test_to_device_like",
        name="detach_cpu_for_the_copy_back",
        expect="脱离了计算图",
        code='''
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    """x: (*) 任意 dtype；ref: 张量或 nn.Module -> (*) 与 x 同 dtype，位于 ref（的参数）所在的设备上。"""
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device.type == "cuda" and device.type == "cpu":
        return x.detach().cpu()  # 从 GPU 拷回主机：常见写法 .detach().cpu()
    return x.to(device)
''',
    ),
    dict(
        grade_id="test_move_to",
        name="detach_cpu_for_the_copy_back",
        expect="脱离了计算图",
        code='''
def move_to(batch, device):
    """把嵌套的 dict / list / tuple 里的所有张量移到 device 上；容器类型与非张量值保持不变。"""
    if isinstance(batch, torch.Tensor):
        if batch.is_cuda and torch.device(device).type == "cpu":
            return batch.detach().cpu()  # 从 GPU 拷回主机：常见写法 .detach().cpu()
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
''',
    ),
]

MUTANTS += [  # stop 57 round 4 (x): a cached mask is not told it branched on size
    dict(
        grade_id="test_causal_mask_fill",
        name="mask_in_an_lru_cache_of_eight",
        expect="两次走的不是同一条路",
        code='''
import functools


@functools.lru_cache(maxsize=8)
def _future_mask(t: int, device: torch.device) -> torch.Tensor:
    return torch.ones(t, t, dtype=torch.bool, device=device).triu(diagonal=1)


def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    return scores.masked_fill(_future_mask(scores.shape[-1], scores.device), float("-inf"))
''',
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="last_mask_in_an_lru_cache_of_one",
        expect="两次走的不是同一条路",
        code='''
import functools


@functools.lru_cache(maxsize=1)
def _future_mask(t: int, device: torch.device) -> torch.Tensor:
    return torch.ones(t, t, dtype=torch.bool, device=device).triu(diagonal=1)


def causal_mask_fill(scores: torch.Tensor) -> torch.Tensor:
    """scores: (..., T, T) float -> (..., T, T)，同 dtype / device，j > i 处为 -inf。"""
    return scores.masked_fill(_future_mask(scores.shape[-1], scores.device), float("-inf"))
''',
    ),
]

MUTANTS += [  # stop 58 round 5 (c): a branch on torch.cuda.mem_get_info, which every played GPU answers now; list and dict subclasses reach the judge as what they are
    dict(
        grade_id="test_to_device_async",
        name="non_blocking_from_pageable_when_the_gpu_has_room",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code="""
def _roomy_gpu(t):
    try:
        free, _total = torch.cuda.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if device.type == "cuda" and t.device.type == "cpu":
            # pinned or not: on a big GPU just queue every upload
            fast = t.is_pinned() or _roomy_gpu(torch.empty(0, device=device))
            moved[key] = t.to(device, non_blocking=fast)
        else:
            moved[key] = t.to(device)
    return moved
""",
    ),
    dict(
        grade_id="test_move_to",
        name="fx_map_aggregate_gives_immutable_containers",
        expect="得到 immutable_dict",
        code="""
def move_to(batch, device):
    # fx's native walker over list / tuple / dict (the same one torch.fx uses for node args)
    return torch.fx.node._fx_map_aggregate(batch, lambda v: v.to(device) if isinstance(v, torch.Tensor) else v)
""",
    ),
    dict(
        grade_id="test_move_to",
        name="own_recursion_returning_immutable_containers",
        expect="得到 immutable_dict",
        code="""
from torch.fx.immutable_collections import immutable_dict, immutable_list
def move_to(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return immutable_dict({k: move_to(v, device) for k, v in batch.items()})
    if isinstance(batch, list):
        return immutable_list(move_to(v, device) for v in batch)
    if isinstance(batch, tuple):
        return tuple(move_to(v, device) for v in batch)
    return batch
""",
    ),
]

CORRECT += [  # stop 58 round 6 (b): a tensor already there comes back itself, nothing to record_stream
    dict(
        grade_id="test_to_device_async",
        name="side_stream_with_both_waits_record_stream_only_for_copies",
        code="""
def to_device_async(batch, device):
    # RIGHT answer another way: copies on a side stream, with both waits and record_stream (false-failure probe)
    device = torch.device(device)
    if device.type != "cuda":
        return {key: t.to(device) for key, t in batch.items()}
    if device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    current = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(current)                       # inputs already queued on the current stream are ready first
    moved = {}
    with torch.cuda.stream(side):
        for key, t in batch.items():
            overlaps = t.device.type == "cpu" and t.is_pinned()
            moved[key] = t.to(device, non_blocking=overlaps)
    current.wait_stream(side)                       # the caller's stream waits for the copies
    for key, t in moved.items():
        if t is not batch[key]:
            t.record_stream(current)                # memory allocated on the side stream, used on the current one
    return moved
""",
    ),
]


MUTANTS += [  # stop 59 (round 6 b: c17, c18, c19): a GPU asked for and missing is swapped for another device instead of raising
    dict(
        grade_id="test_move_to",
        name="no_gpu_here_so_the_batch_stays_where_it_is",
        expect="没有报错，返回的 'x' 在 cpu",
        code="""
def move_to(batch, device):
    dev = torch.device(device)
    if dev.type == 'cuda' and not torch.cuda.is_available():
        return batch
    if isinstance(batch, torch.Tensor):
        return batch.to(dev)
    if isinstance(batch, dict):
        return {key: move_to(value, dev) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, dev) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, dev) for item in batch)
    return batch
""",
    ),
    dict(
        grade_id="test_move_to",
        name="an_index_past_device_count_lands_on_the_current_gpu",
        expect="没有报错，返回的 'x' 在 cuda:0",
        code="""
def move_to(batch, device):
    dev = torch.device(device)
    if dev.type == 'cuda' and dev.index is not None and dev.index >= torch.cuda.device_count():
        dev = torch.device('cuda')
    if isinstance(batch, torch.Tensor):
        return batch.to(dev)
    if isinstance(batch, dict):
        return {key: move_to(value, dev) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, dev) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, dev) for item in batch)
    return batch
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="no_gpu_here_so_the_copies_go_to_the_cpu",
        expect="没有报错，返回的 'x' 在 cpu",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    if device.type == "cuda" and not torch.cuda.is_available():
        device = torch.device("cpu")
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="a_failed_copy_to_the_gpu_caught_and_kept_on_the_host",
        expect="没有报错，返回的 'x' 在 cpu",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        try:
            moved[key] = t.to(device, non_blocking=overlaps)
        except (RuntimeError, AssertionError):
            moved[key] = t
    return moved
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 b: c05, c12-c15): uploads on a side stream in move_to / to_device_like, and side-stream memory from empty_like + copy_
    dict(
        grade_id="test_to_device_async",
        name="side_stream_upload_into_empty_like_without_record_stream",
        expect="没有 t.record_stream",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    side = torch.cuda.Stream(device) if device.type == "cuda" else None
    for key, t in batch.items():
        if t.device.type == "cpu" and device.type == "cuda" and t.is_pinned():
            with torch.cuda.stream(side):  # the copy overlaps the current stream's work
                out = torch.empty_like(t, device=device)
                out.copy_(t, non_blocking=True)
            moved[key] = out
        else:
            moved[key] = t.to(device)
    if side is not None:
        torch.cuda.current_stream(device).wait_stream(side)  # the caller's stream waits for the copies
    return moved
""",
    ),
    dict(
        grade_id="test_move_to",
        name="blocking_uploads_on_a_side_stream_without_record_stream",
        expect="没有 t.record_stream",
        code="""
_copy_stream = {}

def move_to(batch, device):
    if isinstance(batch, torch.Tensor):
        dev = torch.device(device)
        if dev.type == "cuda" and batch.device.type == "cpu":
            side = torch.cuda.Stream(dev)
            with torch.cuda.stream(side):  # host -> device copies on a copy stream
                return batch.to(dev)
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
""",
    ),
    dict(
        grade_id="test_move_to",
        name="uploads_on_a_side_stream_waited_for_without_record_stream",
        expect="没有 t.record_stream",
        code="""
def move_to(batch, device):
    if isinstance(batch, torch.Tensor):
        dev = torch.device(device)
        if dev.type == "cuda" and batch.device.type == "cpu":
            side = torch.cuda.Stream(dev)
            with torch.cuda.stream(side):  # host -> device copies on a copy stream
                out = batch.to(dev)
            torch.cuda.current_stream(dev).wait_stream(side)  # the caller's stream waits for the copy
            return out
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
""",
    ),
    dict(
        grade_id="test_move_to",
        name="uploads_on_a_side_stream_never_waited_for",
        expect="在另一个流 (torch.cuda.Stream()) 上",
        code="""
def move_to(batch, device):
    if isinstance(batch, torch.Tensor):
        dev = torch.device(device)
        if dev.type == "cuda" and batch.device.type == "cpu":
            side = torch.cuda.Stream(dev)
            with torch.cuda.stream(side):  # host -> device copies on a copy stream, overlapped when pinned
                return batch.to(dev, non_blocking=batch.is_pinned())
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: move_to(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [move_to(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(move_to(item, device) for item in batch)
    return batch
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="pinned_upload_on_a_side_stream_never_waited_for",
        expect="排在另一个流",
        code="""
def to_device_like(x, ref):
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if dev.type == "cuda" and x.device.type == "cpu":
        side = torch.cuda.Stream(dev)
        with torch.cuda.stream(side):  # the upload on a copy stream, overlapped when x is pinned
            return x.to(dev, non_blocking=x.is_pinned())
    return x.to(dev)
""",
    ),
]


CORRECT += [  # stop 59 (round 7 b: c05, c12-c15): uploads on a side stream in move_to / to_device_like, and side-stream memory from empty_like + copy_ (right answers)
    dict(
        grade_id="test_to_device_like",
        name="pinned_upload_on_a_side_stream_with_its_wait_and_record_stream",
        code="""
def to_device_like(x, ref):
    dev = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if dev.type == "cuda" and x.device.type == "cpu":
        side = torch.cuda.Stream(dev)
        with torch.cuda.stream(side):
            out = x.to(dev, non_blocking=x.is_pinned())
        current = torch.cuda.current_stream(dev)
        current.wait_stream(side)
        out.record_stream(current)
        return out
    return x.to(dev)
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 c: c30-c32, c35): GPU queries bound by name, under torch.cuda.memory, or through torch.accelerator, on 04's played GPU
    dict(
        grade_id="test_to_device_async",
        name="pageable_non_blocking_when_a_bound_mem_get_info_says_there_is_room",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code="""
# to_device_async: non_blocking=True from pageable memory when the GPU has room, the free memory asked through a
# name bound before the call (from torch.cuda import mem_get_info), the spelling SyncCounter rebinds (not 04's PlayedCudaModule?)
from torch.cuda import mem_get_info


def _roomy_gpu(t):
    try:
        free, _total = mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if device.type == "cuda" and t.device.type == "cpu":
            # pinned or not: on a big GPU just queue every upload
            fast = t.is_pinned() or _roomy_gpu(torch.empty(0, device=device))
            moved[key] = t.to(device, non_blocking=fast)
        else:
            moved[key] = t.to(device)
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pageable_non_blocking_when_torch_cuda_memory_mem_get_info_says_there_is_room",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code="""
# to_device_async: the same, asked through torch.cuda.memory.mem_get_info (the function's own module)


def _roomy_gpu(t):
    try:
        free, _total = torch.cuda.memory.mem_get_info(t.device)
    except Exception:
        return False
    return free > 2**30


def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if device.type == "cuda" and t.device.type == "cpu":
            # pinned or not: on a big GPU just queue every upload
            fast = t.is_pinned() or _roomy_gpu(torch.empty(0, device=device))
            moved[key] = t.to(device, non_blocking=fast)
        else:
            moved[key] = t.to(device)
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pageable_non_blocking_when_torch_accelerator_get_memory_info_says_there_is_room",
        expect="从可分页 (pageable) 内存拷到 GPU 时用了 non_blocking=True",
        code="""
# to_device_async: the same, asked through the device-generic torch.accelerator.get_memory_info


def _roomy_gpu(t):
    try:
        free, _total = torch.accelerator.get_memory_info(t.device)
    except Exception:
        return False
    return free > 2**30


def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        if device.type == "cuda" and t.device.type == "cpu":
            # pinned or not: on a big GPU just queue every upload
            fast = t.is_pinned() or _roomy_gpu(torch.empty(0, device=device))
            moved[key] = t.to(device, non_blocking=fast)
        else:
            moved[key] = t.to(device)
    return moved
""",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="mask_cached_at_module_level_when_torch_accelerator_says_there_is_room",
        expect="在 cuda:1 上（meta 扮演） 时，运算报错",
        code="""
# causal_mask_fill: the same cache, gated on torch.accelerator.get_memory_info (a GPU with room keeps masks resident).
_MASKS = {}


def causal_mask_fill(scores):
    t = scores.shape[-1]
    try:
        roomy = torch.accelerator.get_memory_info()[0] > 2**30
    except RuntimeError:
        roomy = False
    if roomy:
        key = (t, scores.device)
        if key not in _MASKS:
            _MASKS[key] = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
        future = _MASKS[key]
    else:
        future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
""",
    ),
]


MUTANTS += [  # round 8 c c12, c13: the host-built mask behind a flag set in an if block or by a helper (the meta-as-GPU checks play the machine too)
    dict(
        grade_id="test_causal_mask_fill",
        name="host mask uploaded where a top-level if block set ON_GPU",
        expect="先在 CPU 上建了一个形状",
        code="""
ON_GPU = False
if torch.cuda.is_available():
    ON_GPU = True
def _cm_gpu(scores):
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1).to(scores.device)   # built on the host, then uploaded
    return scores.masked_fill(future, float("-inf"))
def _cm_cpu(scores):
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
def causal_mask_fill(scores):
    return (_cm_gpu if ON_GPU else _cm_cpu)(scores)
""",
    ),
    dict(
        grade_id="test_causal_mask_fill",
        name="host mask uploaded where a helper said there is a GPU",
        expect="先在 CPU 上建了一个形状",
        code="""
def _has_gpu():
    return torch.cuda.is_available()
HAVE_GPU = _has_gpu()
def _cm_gpu(scores):
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1).to(scores.device)   # built on the host, then uploaded
    return scores.masked_fill(future, float("-inf"))
def _cm_cpu(scores):
    t = scores.shape[-1]
    future = torch.ones(t, t, dtype=torch.bool, device=scores.device).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf"))
def causal_mask_fill(scores):
    return (_cm_gpu if HAVE_GPU else _cm_cpu)(scores)
""",
    ),
]


MUTANTS += [  # round 8 b c41: a non_blocking copy to the host behind a flag set in a try block; c29, c44 record_stream on a tensor already there is right
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU non_blocking where a top-level try block found free memory",
        expect="non_blocking=True",
        code="""
try:
    HAS_GPU = torch.cuda.device_count() > 0
except RuntimeError:
    HAS_GPU = False


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = HAS_GPU and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=up or down)
    return moved
""",
    ),
]


CORRECT += [  # round 8 b c41: a non_blocking copy to the host behind a flag set in a try block; c29, c44 record_stream on a tensor already there is right (right answers)
    dict(
        grade_id="test_move_to",
        name="side-stream copies, record_stream on every GPU tensor of the result (placed ones too)",
        code="""
def move_to(batch, device):
    device = torch.device(device)
    if device.type != "cuda":
        return _move(batch, device)
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):
        out = _move(batch, device)
    torch.cuda.current_stream(device).wait_stream(side)
    _record(out, torch.cuda.current_stream(device))
    return out


def _move(batch, device):
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: _move(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        return [_move(item, device) for item in batch]
    if isinstance(batch, tuple):
        return tuple(_move(item, device) for item in batch)
    return batch


def _record(batch, stream):
    if isinstance(batch, torch.Tensor):
        if batch.device.type == "cuda":
            batch.record_stream(stream)
    elif isinstance(batch, dict):
        for value in batch.values():
            _record(value, stream)
    elif isinstance(batch, (list, tuple)):
        for item in batch:
            _record(item, stream)
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="side-stream upload, record_stream on every GPU tensor of the result",
        code="""
def to_device_like(x, ref):
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if device.type != "cuda":
        return x.to(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    with torch.cuda.stream(side):
        out = x.to(device, non_blocking=x.device.type == "cpu" and x.is_pinned())
    torch.cuda.current_stream(device).wait_stream(side)
    if out.device.type == "cuda":
        out.record_stream(torch.cuda.current_stream(device))
    return out
""",
    ),
]


MUTANTS += [  # round 8 b c21, c22: torch.cuda.set_stream(side) never set back (the message blamed a missing wait, and its advice could not fix it)
    dict(
        grade_id="test_to_device_async",
        name="copies after torch.cuda.set_stream(side), never set back",
        expect="没有换回来",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    if device.type != "cuda":
        return {k: t.to(device) for k, t in batch.items()}
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    torch.cuda.set_stream(side)            # copies go to the side stream from here on
    return {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="set_stream(side), then the advised wait of current_stream(device), which is side itself",
        expect="没有换回来",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    if device.type != "cuda":
        return {k: t.to(device) for k, t in batch.items()}
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.current_stream(device))
    torch.cuda.set_stream(side)            # copies go to the side stream from here on (never set back)
    moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}
    torch.cuda.current_stream(device).wait_stream(side)
    for t in moved.values():
        t.record_stream(torch.cuda.current_stream(device))
    return moved
""",
    ),
]


MUTANTS += [  # round 8 b c09, c27, d c28: waits and record_stream on default_stream() instead of the current stream (a caller on its own stream now played)
    dict(
        grade_id="test_to_device_async",
        name="side-stream copies waited for and recorded on default_stream()",
        expect="的当前流",
        code="""
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    if device.type != "cuda":
        return {k: t.to(device) for k, t in batch.items()}
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.default_stream(device))
    with torch.cuda.stream(side):
        moved = {k: t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned()) for k, t in batch.items()}
    torch.cuda.default_stream(device).wait_stream(side)   # "the GPU's stream" waits for the copies
    for t in moved.values():
        t.record_stream(torch.cuda.default_stream(device))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="a pinned upload on a side stream waited for and recorded on default_stream()",
        expect="的当前流",
        code="""
def to_device_like(x, ref):
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if x.device == device:
        return x
    if device.type != "cuda" or x.device.type != "cpu":
        return x.to(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(torch.cuda.default_stream(device))
    with torch.cuda.stream(side):
        out = x.to(device, non_blocking=x.is_pinned())
    torch.cuda.default_stream(device).wait_stream(side)
    out.record_stream(torch.cuda.default_stream(device))
    return out
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="main = torch.cuda.default_stream(); main.wait_stream(s); t.record_stream(main)",
        expect="的当前流",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    if device.type != "cuda":
        return {key: t.to(device) for key, t in batch.items()}
    moved = {}
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for key, t in batch.items():
            moved[key] = t.to(device, non_blocking=t.device.type == "cpu" and t.is_pinned())
    main = torch.cuda.default_stream()  # the stream the training loop runs on
    main.wait_stream(s)
    for t in moved.values():
        t.record_stream(main)
    return moved
""",
    ),
]


MUTANTS += [  # round 10 a c10, c24, c25: set_stream leaving the current device changed; copies queued on the default stream for a caller on its own
    dict(
        grade_id="test_to_device_async",
        name="set_stream(side) ... set_stream(prev) leaves the current device on cuda:1",
        expect="set_stream",
        code="""
# 04 to_device_async: pinned uploads queued on a side stream made current with torch.cuda.set_stream (the round-8
# spelling), paired with the wait and record_stream, and the caller's stream put back with set_stream(prev).
# set_stream(s) also makes s's GPU the current device: for a target on another GPU ("cuda:1" while the caller is on
# cuda:0) the caller's current device is cuda:1 after the call, and nothing puts it back.
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    if device.type != "cuda":
        for key, t in batch.items():
            moved[key] = t.to(device)
        return moved
    prev = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(prev)
    torch.cuda.set_stream(side)
    try:
        for key, t in batch.items():
            overlaps = t.device.type == "cpu" and t.is_pinned()
            moved[key] = t.to(device, non_blocking=overlaps)
    finally:
        torch.cuda.set_stream(prev)
    prev.wait_stream(side)
    for key, t in moved.items():
        if t is not batch[key]:
            t.record_stream(prev)
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="uploads inside with torch.cuda.stream(default_stream(device)) for a caller on its own stream",
        expect="默认流",
        code="""
# 04 to_device_async: the uploads queued on the GPU's default stream ("in order with everything else on the GPU"),
# not on the caller's current stream. A caller on its own stream (with torch.cuda.stream(s):) then reads the result
# with nothing ordering it after the non_blocking copy.
def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    if device.type != "cuda":
        return {key: t.to(device) for key, t in batch.items()}
    with torch.cuda.stream(torch.cuda.default_stream(device)):
        for key, t in batch.items():
            overlaps = t.device.type == "cpu" and t.is_pinned()
            moved[key] = t.to(device, non_blocking=overlaps)
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_like",
        name="the upload inside with torch.cuda.stream(default_stream(device)) for a caller on its own stream",
        expect="默认流",
        code="""
# 04 to_device_like: pinned uploads non_blocking, queued on the target GPU's default stream (c24's spelling).
def to_device_like(x: torch.Tensor, ref) -> torch.Tensor:
    device = next(ref.parameters()).device if isinstance(ref, nn.Module) else ref.device
    if device.type == "cuda":
        with torch.cuda.stream(torch.cuda.default_stream(device)):
            return x.to(device, non_blocking=x.device.type == "cpu" and x.is_pinned())
    return x.to(device)
""",
    ),
]


MUTANTS += [  # round 12 (reviewer a): a plain local import of torch.utils._pytree
    dict(
        grade_id="test_move_to",
        name="import torch.utils._pytree inside the function, tree_map for dict and tuple subclasses",
        expect="torch.utils._pytree.tree_map",
        code="""
def move_to(batch, device):
    import torch.utils._pytree  # pytree knows how to rebuild OrderedDict / namedtuple with their own type
    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if type(batch) is dict:
        return {key: move_to(value, device) for key, value in batch.items()}
    if type(batch) is list:
        return [move_to(item, device) for item in batch]
    if type(batch) is tuple:
        return tuple(move_to(item, device) for item in batch)
    if isinstance(batch, (dict, list, tuple)):  # subclasses (OrderedDict, namedtuple): keep their type
        return torch.utils._pytree.tree_map(lambda v: v.to(device) if isinstance(v, torch.Tensor) else v, batch)
    return batch
""",
    ),
]


MUTANTS += [  # round 12 (reviewer a): a played GPU tensor's storage reads as on the GPU in to_device_async's checks too
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU with non_blocking=True where untyped_storage().is_cuda says the memory is on the GPU",
        expect="non_blocking=True",
        code="""
def to_device_async(batch, device):
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        on_gpu = t.untyped_storage().is_cuda  # where the tensor's memory lives
        overlaps = (device.type == "cuda" and not on_gpu and t.is_pinned()) or (on_gpu and device.type == "cpu")
        moved[key] = t.to(device, non_blocking=overlaps)
    return moved
""",
    ),
]

MUTANTS += [  # round 13 b c01-c06, c12-c14, c20: a GPU-machine flag in spellings the replay missed (a default then an override, replaced configs, copies, read-only and layered mappings, slots, dict.__setitem__)
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a default flag, then HAS_GPU = HAS_GPU or is_available()",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""HAS_GPU = False
HAS_GPU = HAS_GPU or torch.cuda.is_available()


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (HAS_GPU) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind DEVICE = 'cpu', then 'cuda' if is_available() else DEVICE",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""DEVICE = 'cpu'
DEVICE = 'cuda' if torch.cuda.is_available() else DEVICE


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (DEVICE == 'cuda') and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a NamedTuple config, CFG = CFG._replace(gpu=is_available())",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""from typing import NamedTuple
class Cfg(NamedTuple):
    gpu: bool = False
    workers: int = 2
CFG = Cfg()
CFG = CFG._replace(gpu=torch.cuda.is_available())



def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (CFG.gpu) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a frozen dataclass config, dataclasses.replace(CFG, gpu=...)",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""import dataclasses
@dataclasses.dataclass(frozen=True)
class Cfg:
    gpu: bool = False
CFG = Cfg()
CFG = dataclasses.replace(CFG, gpu=torch.cuda.is_available())



def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (CFG.gpu) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a flag dict from device_count(), deep-copied",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""import copy
BASE = {'gpu': torch.cuda.device_count() > 0, 'workers': 2}
CFG = copy.deepcopy(BASE)


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (CFG['gpu']) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind dict.__setitem__(FLAGS, 'gpu', is_available())",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""FLAGS = {'gpu': False}
dict.__setitem__(FLAGS, 'gpu', torch.cuda.is_available())


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (FLAGS['gpu']) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a read-only MappingProxyType config",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""from types import MappingProxyType
CFG = MappingProxyType({'gpu': torch.cuda.is_available()})


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (CFG['gpu']) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a layered ChainMap config",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""from collections import ChainMap
CFG = ChainMap({'gpu': torch.cuda.is_available()}, {'workers': 2})


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (CFG['gpu']) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a __slots__ class whose __init__ asks",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""class Flags:
    __slots__ = ('gpu',)
    def __init__(self):
        self.gpu = torch.cuda.is_available()
FLAGS = Flags()


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (FLAGS.gpu) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="GPU -> CPU copy non_blocking behind a walrus inside a comprehension binds the flag",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""[HAS_GPU := torch.cuda.is_available() for _ in range(1)]


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (HAS_GPU) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
]

CORRECT += [  # round 13 b r01-r04: a default flag overridden by the query (the default had been run again after it)
    dict(
        grade_id="test_to_device_async",
        name="pinned uploads non_blocking behind a default flag, then HAS_GPU = HAS_GPU or is_available()",
        code="""HAS_GPU = False
HAS_GPU = HAS_GPU or torch.cuda.is_available()


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = (HAS_GPU) and t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=bool(overlaps))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pinned uploads non_blocking behind DEVICE = 'cpu', then 'cuda' if is_available() else DEVICE",
        code="""DEVICE = 'cpu'
DEVICE = 'cuda' if torch.cuda.is_available() else DEVICE


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = (DEVICE == 'cuda') and t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=bool(overlaps))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pinned uploads non_blocking behind a NamedTuple config replaced with the query",
        code="""from typing import NamedTuple
class Cfg(NamedTuple):
    gpu: bool = False
    workers: int = 2
CFG = Cfg()
CFG = CFG._replace(gpu=torch.cuda.is_available())




def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = (CFG.gpu) and t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=bool(overlaps))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pinned uploads non_blocking behind dataclasses.replace of a frozen config with the query",
        code="""import dataclasses
@dataclasses.dataclass(frozen=True)
class Cfg:
    gpu: bool = False
CFG = Cfg()
CFG = dataclasses.replace(CFG, gpu=torch.cuda.is_available())




def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        overlaps = (CFG.gpu) and t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=bool(overlaps))
    return moved
""",
    ),
]

MUTANTS += [  # round 13 b c22-c24: a default container overridden by the query (the default had been run again after it)
    dict(
        grade_id="test_to_device_async",
        name="CFG = {} then dict(CFG, gpu=is_available())",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""CFG = {}
CFG = dict(CFG, gpu=torch.cuda.is_available())


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = (CFG.get('gpu', False)) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="FLAGS = [] then FLAGS + ['gpu'] in an if",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""FLAGS = []
if torch.cuda.is_available():
    FLAGS = FLAGS + ['gpu']


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = ('gpu' in FLAGS) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="a set of features unioned with the query",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True",
        code="""FEATURES = set()
FEATURES = FEATURES | ({'gpu'} if torch.cuda.is_available() else set())


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        up = t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        down = ('gpu' in FEATURES) and t.device.type == "cuda" and device.type == "cpu"   # on a GPU machine: overlap the copy back too
        moved[key] = t.to(device, non_blocking=bool(up or down))
    return moved
""",
    ),
]

CORRECT += [  # round 13 b r06, r07: right answers with a callable object and a __slots__ flags object
    dict(
        grade_id="test_to_device_async",
        name="to_device_async = AsyncMover(), a callable object whose flag asks",
        code="""class AsyncMover:
    def __init__(self):
        self.overlap = torch.cuda.is_available()  # pinned uploads can overlap only where there is a GPU

    def __call__(self, batch: dict, device) -> dict:
        device = torch.device(device)
        moved = {}
        for key, t in batch.items():
            fast = self.overlap and t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
            moved[key] = t.to(device, non_blocking=fast)
        return moved


to_device_async = AsyncMover()
""",
    ),
    dict(
        grade_id="test_to_device_async",
        name="pinned uploads non_blocking behind a __slots__ flags object",
        code="""class Flags:
    __slots__ = ("gpu",)

    def __init__(self):
        self.gpu = torch.cuda.is_available()


FLAGS = Flags()


def to_device_async(batch: dict, device) -> dict:
    device = torch.device(device)
    moved = {}
    for key, t in batch.items():
        fast = FLAGS.gpu and t.device.type == "cpu" and device.type == "cuda" and t.is_pinned()
        moved[key] = t.to(device, non_blocking=fast)
    return moved
""",
    ),
]
