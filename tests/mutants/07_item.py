"""Wrong answers learners write for 07_item; each test cell must reject them, naming the mistake."""

from tests.notebooks import edited, solution_with, solution_wrapped


def _body(signature: str, body: str, imports: str = "") -> str:
    return imports + signature + "\n" + "".join(f"    {line}\n" if line else "\n" for line in body.strip().splitlines())


# ---------------------------------------------------------------------------------------------------
# The solutions; most mutants below are one of them with an edit or two

_MEAN_SIGNATURE = "def epoch_mean_loss(losses, targets, ignore_index=-100):"
_MEAN_OK = """
total, count = 0.0, 0
for loss, target in zip(losses, targets):
    kept = (target != ignore_index).sum()
    total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
    count = count + kept
if not losses:
    return float("nan")
return (total / count).item()
"""
_MEAN_TOTAL = "    total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)\n"


def _mean_with(old: str, new: str, *more: tuple[str, str], imports: str = "") -> str:
    return _body(_MEAN_SIGNATURE, edited(_MEAN_OK, (old, new), *more), imports)


_LOG_SIGNATURE = "def log_running_loss(losses, batch_sizes, log_every):"
_LOG_OK = """
windows = []
window_sum, window_n = 0.0, 0
for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
    window_sum = window_sum + loss.detach() * batch_size
    window_n += batch_size
    if step % log_every == 0:
        windows.append(window_sum / window_n)
        window_sum, window_n = 0.0, 0
return torch.stack(windows).tolist() if windows else []
"""
_LOG_RETURN = "return torch.stack(windows).tolist() if windows else []"


def _log_with(old: str, new: str, *more: tuple[str, str], imports: str = "") -> str:
    return _body(_LOG_SIGNATURE, edited(_LOG_OK, (old, new), *more), imports)


_EPOCH_SIGNATURE = "def train_epoch(model, loss_fn, optimizer, batches, log_every):"
_EPOCH_OK = """
model.train()
logs = []
window_sum, window_n = 0.0, 0
epoch_sum, epoch_n = 0.0, 0
for step, (x, y) in enumerate(batches, start=1):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    batch_size = x.shape[0]
    batch_sum = loss.detach() * batch_size
    window_sum, window_n = window_sum + batch_sum, window_n + batch_size
    epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
    if step % log_every == 0:
        logs.append((window_sum / window_n).item())
        window_sum, window_n = 0.0, 0
return logs, (epoch_sum / epoch_n).item()
"""
_ZERO_GRAD = "    optimizer.zero_grad()\n"
_STEP = "    optimizer.step()\n"
_DETACHED = "loss.detach() * batch_size"
_LOG_ITEM = ("logs.append((window_sum / window_n).item())", "logs.append(window_sum / window_n)")
_MEAN_ITEM = ("return logs, (epoch_sum / epoch_n).item()", "return logs, epoch_sum / epoch_n")
_DETACH_AT_THE_END = (
    ("(window_sum / window_n).item()", "(window_sum / window_n).detach().item()"),
    ("(epoch_sum / epoch_n).item()", "(epoch_sum / epoch_n).detach().item()"),
)


def _epoch_with(old: str, new: str, *more: tuple[str, str], imports: str = "") -> str:
    return _body(_EPOCH_SIGNATURE, edited(_EPOCH_OK, (old, new), *more), imports)


_EPOCH_CPU_SIZES = """
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    step_losses = []
    for x, y in batches:
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        step_losses.append(loss.detach())
    v = torch.stack(step_losses)
    n = torch.tensor([float(x.shape[0]) for x, _ in batches])
    k = len(batches) // log_every * log_every
    w = (v * n)
    sums = w[:k].reshape(-1, log_every).sum(1) / n[:k].reshape(-1, log_every).sum(1) if k else v[:0]
    out = torch.cat([sums, (w.sum() / n.sum()).reshape(1)]).tolist()
    return out[:-1], out[-1]
"""  # train_epoch with its batch sizes in a CPU tensor beside device losses


MUTANTS = [
    # predict_total --------------------------------------------------------------------------------
    dict(
        grade_id="test_predict_total",
        formative=True,
        name="plus_equals_makes_a_new_tensor",
        code="predict_total = (False, True)",
        expect="预测 1 的预测不对",
    ),
    dict(
        grade_id="test_predict_total",
        formative=True,
        name="a_buffer_cannot_require_grad",
        code="predict_total = (True, False)",
        expect="预测 1 的预测不对",
    ),
    dict(
        grade_id="test_predict_total",
        formative=True,
        name="neither",
        code="predict_total = (False, False)",
        expect="预测 1 的预测不对",
    ),
    # predict_item_frees ---------------------------------------------------------------------------
    dict(
        grade_id="test_predict_item_frees",
        formative=True,
        name="item_frees_the_graph",
        code='predict_item_frees = "zero"',
        expect="预测 2 的预测不对",
    ),
    dict(
        grade_id="test_predict_item_frees",
        formative=True,
        name="item_frees_part_of_it",
        code='predict_item_frees = "less"',
        expect="预测 2 的预测不对",
    ),
    dict(
        grade_id="test_predict_item_frees",
        formative=True,
        name="not_a_choice",
        code='predict_item_frees = "freed"',
        expect="预测 2 应是",
    ),
    # predict_syncs --------------------------------------------------------------------------------
    dict(
        grade_id="test_predict_syncs",
        formative=True,
        name="forgets_the_if",
        code="predict_syncs = 2",
        expect="预测 3 的预测不对",
    ),
    dict(
        grade_id="test_predict_syncs",
        formative=True,
        name="one_per_step",
        code="predict_syncs = 6",
        expect="预测 3 的预测不对",
    ),
    dict(
        grade_id="test_predict_syncs",
        formative=True,
        name="counts_the_prints_too",
        code="predict_syncs = 10",
        expect="预测 3 的预测不对",
    ),
    dict(
        grade_id="test_predict_syncs",
        formative=True,
        name="answer_as_string",
        code='predict_syncs = "8"',
        expect="预测 3 应写成 int",
    ),
    # epoch_mean_loss ------------------------------------------------------------------------------
    dict(
        grade_id="test_epoch_mean_loss",
        name="weighted_by_batch_size",
        code=_mean_with(
            "loss.detach() * kept",
            "loss.detach() * target.shape[0]",
            ("count = count + kept", "count = count + torch.where(kept > 0, target.shape[0], 0)"),
        ),
        expect="按 batch 大小加权",
        mistake="ignored-targets-counted",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="multiplies_the_nan_loss_by_zero",
        code=_mean_with("torch.where(kept > 0, loss.detach() * kept, 0.0)", "loss.detach() * kept"),
        expect="它的 loss 是 nan",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="item_of_each_count",
        code=_mean_with(
            ".sum()\n",
            ".sum().item()\n",
            (
                _MEAN_TOTAL + "    count = count + kept\n",
                "    if kept:\n        total = total + loss.detach() * kept\n        count += kept\n",
            ),
            ("return (total / count).item()", 'return (total / count).item() if count else float("nan")'),
        ),
        expect="最多只能同步 1 次",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="hard_coded_minus_100",
        code=_mean_with("target != ignore_index", "target != -100"),
        expect="这里 ignore_index=255",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="nanmean_of_batch_losses",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    return torch.stack([loss.detach() for loss in losses]).nanmean().item()
""",
        expect="直接平均",
        mistake="unweighted-batch-mean",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="accumulates_without_detach",
        code=_mean_with("loss.detach() * kept", "loss * kept"),
        expect="连着多步计算图",
        mistake="loss-accumulated-with-graph",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="returns_a_tensor",
        code=_mean_with("return (total / count).item()", "return total / count"),
        expect="应返回 Python float",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="python_counts_divide_by_zero",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    values = torch.stack([loss.detach() for loss in losses])
    kept = torch.stack([(target != ignore_index).sum() for target in targets])
    total = torch.where(kept > 0, values * kept, 0.0).sum()
    return total.item() / kept.sum().item()
""",
        expect="同步 (sync) 了 2 次",
    ),
    # epoch_mean_loss: found by review rv79 ------------------------------------------------------------
    dict(
        grade_id="test_epoch_mean_loss",
        name="accumulates_the_graph_then_detaches_at_the_end",
        code=_mean_with(
            "loss.detach() * kept", "loss * kept", ("(total / count).item()", "(total / count).detach().item()")
        ),
        expect="连着多步计算图",
        mistake="loss-accumulated-with-graph",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="stacks_the_losses_then_reads_data",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    values = torch.stack(losses)
    kept = torch.stack([(t != ignore_index).sum() for t in targets])
    return (torch.where(kept > 0, values * kept, 0.0).sum() / kept.sum()).data.item()
""",
        expect="连着多步计算图",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="numpy_from_dlpack_every_batch",
        code=_mean_with(
            "loss.detach() * kept", "float(np.from_dlpack(loss.detach())) * kept", imports="import numpy as np\n\n\n"
        ),
        expect="np.from_dlpack",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="reads_the_storage_every_batch",
        code=_mean_with(
            _MEAN_TOTAL,
            '    value = struct.unpack("f", bytes(loss.detach().clone().untyped_storage().tolist()))[0]\n'
            + _MEAN_TOTAL.replace("loss.detach()", "value"),
            imports="import struct\n\n\n",
        ),
        expect=".untyped_storage()",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="legacy_type_float_tensor_every_batch",
        code=_mean_with("loss.detach() * kept", "loss.detach().type(torch.FloatTensor) * kept"),
        expect=".type(torch.FloatTensor)",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="as_tensor_on_cpu_every_batch",
        code=_mean_with("loss.detach() * kept", 'torch.as_tensor(loss.detach(), device="cpu") * kept'),
        expect='torch.as_tensor(t, device="cpu")',
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="copies_into_empty_like_on_cpu",
        code=_mean_with(
            _MEAN_TOTAL,
            '    value = torch.empty_like(loss, device="cpu").copy_(loss.detach())\n'
            + _MEAN_TOTAL.replace("loss.detach()", "value"),
        ),
        expect="cpu_tensor.copy_(t)",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="copies_into_new_zeros_on_cpu",
        code=_mean_with(
            _MEAN_TOTAL,
            '    value = loss.new_zeros((), device="cpu").copy_(loss.detach())\n'
            + _MEAN_TOTAL.replace("loss.detach()", "value"),
        ),
        expect="cpu_tensor.copy_(t)",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="reads_each_loss_with_apply_",
        code=_mean_with(
            _MEAN_TOTAL,
            "    seen = []\n    loss.detach().clone().apply_(lambda v: seen.append(v) or v)\n"
            + _MEAN_TOTAL.replace("loss.detach()", "seen[0]"),
        ),
        expect=".apply_(f)",
    ),
    # log_running_loss -----------------------------------------------------------------------------
    dict(
        grade_id="test_log_running_loss",
        name="item_every_step",
        code=_log_with(_DETACHED, "loss.item() * batch_size", (_LOG_RETURN, "return windows")),
        expect="同步 (sync) 次数太多",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="prints_loss_every_step",
        code=_log_with("start=1):\n", 'start=1):\n    print(f"step {step}: loss {loss:.3f}")\n'),
        expect="同步 (sync) 次数太多",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="item_at_every_log_point",
        code=_log_with(
            "windows.append(window_sum / window_n)",
            "windows.append((window_sum / window_n).item())",
            (_LOG_RETURN, "return windows"),
        ),
        expect="整个调用只同步 1 次",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="float_of_each_window_at_the_end",
        code=_log_with(_LOG_RETURN, "return [float(w) for w in windows]"),
        expect="同步 (sync) 次数太多",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulates_without_detach",
        code=_log_with(_DETACHED, "loss * batch_size"),
        expect="连着多步计算图",
        mistake="loss-accumulated-with-graph",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="never_resets_the_window",
        code=_log_with("        window_sum, window_n = 0.0, 0\n", ""),
        expect="清零 (reset)",
        mistake="window-not-reset",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="window_not_weighted_by_batch_size",
        code=_log_with(_DETACHED, "loss.detach()", ("window_n += batch_size", "window_n += 1")),
        expect="没有按 batch_size 加权",
        mistake="unweighted-batch-mean",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="step_counted_from_zero",
        code=_log_with(", start=1)", ")"),
        expect="log 点 (log points) 的个数不对",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="tensors_in_logs",
        code=_log_with(_LOG_RETURN, "return windows"),
        expect="是 torch.Tensor",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="returns_the_stacked_tensor",
        code=_log_with(_LOG_RETURN, "return torch.stack(windows) if windows else torch.zeros(0)"),
        expect="返回了 torch.Tensor",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="stack_of_no_windows",
        code=_log_with(_LOG_RETURN, "return torch.stack(windows).tolist()"),
        expect="stack expects a non-empty TensorList",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="to_cpu_every_step",
        code=_log_with(_DETACHED, 'loss.detach().to("cpu") * batch_size'),
        expect='.to("cpu")',
    ),
    dict(
        grade_id="test_log_running_loss",
        name="copy_into_a_cpu_buffer",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    values = torch.zeros(len(losses))
    for i, loss in enumerate(losses):
        values[i].copy_(loss.detach())
    sizes = torch.tensor(batch_sizes, dtype=torch.float32)
    n_logs = len(losses) // log_every
    sums = (values * sizes)[: n_logs * log_every].reshape(n_logs, log_every).sum(dim=1)
    counts = sizes[: n_logs * log_every].reshape(n_logs, log_every).sum(dim=1)
    return (sums / counts).tolist()
""",
        expect="cpu_tensor.copy_(t)",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="numpy_asarray_every_step",
        code="""
import numpy as np


def log_running_loss(losses, batch_sizes, log_every):
    values = np.asarray([np.asarray(loss.detach()) for loss in losses], dtype=np.float64)
    logs = []
    for end in range(log_every, len(losses) + 1, log_every):
        sizes = np.asarray(batch_sizes[end - log_every : end], dtype=np.float64)
        logs.append(float((values[end - log_every : end] * sizes).sum() / sizes.sum()))
    return logs
""",
        expect="np.asarray",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="torch_tensor_of_the_losses",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    values = torch.tensor(losses)
    sizes = torch.tensor(batch_sizes, dtype=torch.float32)
    n_logs = len(losses) // log_every
    sums = (values * sizes)[: n_logs * log_every].reshape(n_logs, log_every).sum(dim=1)
    counts = sizes[: n_logs * log_every].reshape(n_logs, log_every).sum(dim=1)
    return (sums / counts).tolist()
""",
        expect="torch.tensor([...张量...])",
    ),
    # log_running_loss: found by review rv79 -----------------------------------------------------------
    dict(
        grade_id="test_log_running_loss",
        name="accumulates_the_graph_then_detaches_the_stack",
        code=_log_with(
            _DETACHED, "loss * batch_size", ("torch.stack(windows).tolist()", "torch.stack(windows).detach().tolist()")
        ),
        expect="连着多步计算图",
        mistake="loss-accumulated-with-graph",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulates_the_graph_then_stacks_under_no_grad",
        code=_log_with(_DETACHED, "loss * batch_size", (_LOG_RETURN, "with torch.no_grad():\n    " + _LOG_RETURN)),
        expect="连着多步计算图",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="numpy_from_dlpack_every_step",
        code=_log_with(
            _DETACHED,
            "float(np.from_dlpack(loss.detach())) * batch_size",
            (_LOG_RETURN, "return windows"),
            imports="import numpy as np\n\n\n",
        ),
        expect="np.from_dlpack",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="as_tensor_on_cpu_every_step",
        code=_log_with(_DETACHED, 'torch.as_tensor(loss.detach(), device="cpu") * batch_size'),
        expect='torch.as_tensor(t, device="cpu")',
    ),
    # train_epoch ----------------------------------------------------------------------------------
    dict(
        grade_id="test_train_epoch",
        name="running_loss_item_every_step",
        code=_epoch_with(_DETACHED, "loss.item() * batch_size", _LOG_ITEM, _MEAN_ITEM),
        expect="同步 (sync) 次数太多",
        mistake="host-sync-every-step",
    ),
    dict(
        grade_id="test_train_epoch",
        name="total_plus_loss_without_detach",
        code=_epoch_with("epoch_sum + batch_sum", "epoch_sum + loss * batch_size"),
        expect="连着多步计算图",
        mistake="loss-accumulated-with-graph",
    ),
    dict(
        grade_id="test_train_epoch",
        name="forgets_zero_grad",
        code=_epoch_with(_ZERO_GRAD, ""),
        expect="zero_grad",
        mistake="missing-zero-grad",
    ),
    dict(
        grade_id="test_train_epoch",
        name="forgets_model_train",
        code=_epoch_with("model.train()\n", ""),
        expect="model.train()",
        mistake="missing-model-train",
    ),
    dict(
        grade_id="test_train_epoch",
        name="epoch_mean_not_weighted",
        code=_epoch_with("epoch_sum + batch_sum, epoch_n + batch_size", "epoch_sum + loss.detach(), epoch_n + 1"),
        expect="没有按 batch_size 加权",
        mistake="unweighted-batch-mean",
    ),
    dict(
        grade_id="test_train_epoch",
        name="zero_grad_between_backward_and_step",
        code=_epoch_with(_ZERO_GRAD, "", ("    loss.backward()\n", "    loss.backward()\n" + _ZERO_GRAD)),
        expect="每个 batch 依次",
    ),
    dict(
        grade_id="test_train_epoch",
        name="to_cpu_every_step",
        code=_epoch_with(_DETACHED, 'loss.detach().to("cpu") * batch_size'),
        expect='.to("cpu")',
    ),
    dict(
        grade_id="test_train_epoch",
        name="numpy_every_step",
        code=_epoch_with(_DETACHED, "float(loss.detach().numpy()) * batch_size", _LOG_ITEM, _MEAN_ITEM),
        expect=".numpy()",
    ),
    # train_epoch: found by review rv79 ----------------------------------------------------------------
    dict(
        grade_id="test_train_epoch",
        name="zero_grad_after_step",
        code=_epoch_with(_ZERO_GRAD, "", (_STEP, _STEP + _ZERO_GRAD)),
        expect="step() 之后才 zero_grad()",
    ),
    dict(
        grade_id="test_train_epoch",
        name="accumulates_the_graph_then_detaches_at_the_end",
        code=_epoch_with(_DETACHED, "loss * batch_size", *_DETACH_AT_THE_END),
        expect="连着多步计算图",
    ),
    dict(
        grade_id="test_train_epoch",
        name="legacy_type_float_tensor_every_step",
        code=_epoch_with(_DETACHED, "loss.detach().type(torch.FloatTensor) * batch_size"),
        expect=".type(torch.FloatTensor)",
        mistake="host-sync-every-step",
    ),
    dict(
        grade_id="test_train_epoch",
        name="second_forward_for_the_batch_size",
        code=_epoch_with("batch_sum = loss.detach() * batch_size", "batch_sum = loss.detach() * len(model(x))"),
        expect="model(x) 却被调用了 6 次",
    ),
    dict(
        grade_id="test_train_epoch",
        name="logs_the_loss_recomputed_after_step",
        code=_epoch_with(
            "    batch_sum = loss.detach() * batch_size\n",
            "    with torch.no_grad():\n        batch_sum = loss_fn(model(x), y) * batch_size\n",
        ),
        expect="model(x) 却被调用了 6 次",
    ),
    dict(
        grade_id="test_train_epoch",
        name="functional_loss_accumulated_with_graph_detached_at_the_end",
        code=_epoch_with(
            "loss_fn(model(x), y)",
            "torch.nn.functional.mse_loss(model(x), y)",
            (_DETACHED, "loss * batch_size"),
            *_DETACH_AT_THE_END,
        ),
        expect="连着多步计算图",
        mistake="loss-accumulated-with-graph",
    ),
    # review rfc: found by a fresh reviewer (issue 17 item 2) -----------------------------------------
    dict(
        grade_id="test_epoch_mean_loss",
        name="nansum_hides_a_diverged_batch",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    vals = torch.stack([l.detach() for l in losses])
    kept = torch.stack([(t != ignore_index).sum() for t in targets])
    return (torch.nansum(vals * kept) / kept.sum()).item()
""",
        expect="发散的一步被藏了起来",
        mistake="nonfinite-loss-hidden",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="nan_to_num_of_each_loss",
        code=_mean_with("torch.where(kept > 0, loss.detach() * kept, 0.0)", "torch.nan_to_num(loss.detach()) * kept"),
        expect="发散的一步被藏了起来",
        mistake="nonfinite-loss-hidden",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="drops_every_nonfinite_batch",
        code=_mean_with(
            _MEAN_TOTAL,
            "    ok = torch.isfinite(loss.detach()) & (kept > 0)\n" + _MEAN_TOTAL.replace("kept > 0", "ok"),
            ("count = count + kept", "count = count + torch.where(ok, kept, 0)"),
        ),
        expect="发散的一步被藏了起来",
        mistake="nonfinite-loss-hidden",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="counts_from_a_cpu_tensor_of_batch_sizes",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    vals = torch.stack([l.detach() for l in losses])
    kept = torch.tensor([len(t) for t in targets]) - torch.stack([(t == ignore_index).sum() for t in targets])
    return (torch.nansum(vals * kept) / kept.sum()).item()
""",
        expect="Expected all tensors to be on the same device",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="batch_sizes_as_a_cpu_tensor",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    n = len(losses) // log_every * log_every
    if n == 0:
        return []
    v = torch.stack([l.detach() for l in losses[:n]])
    s = torch.tensor(batch_sizes[:n], dtype=v.dtype)
    return ((v * s).reshape(-1, log_every).sum(1) / s.reshape(-1, log_every).sum(1)).tolist()
""",
        expect="Expected all tensors to be on the same device",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulates_into_a_cpu_zeros",
        code=_log_with(
            "window_sum, window_n = 0.0, 0",
            "window_sum, window_n = torch.zeros(()), 0",
            ("window_sum, window_n = 0.0, 0", "window_sum, window_n = torch.zeros(()), 0"),  # the reset too
            ("window_sum = window_sum + ", "window_sum += "),
        ),
        expect="写入结果的 CPU 张量",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_train_epoch",
        name="functional_mse_instead_of_loss_fn",
        code=_epoch_with(
            "loss_fn(model(x), y)", "F.mse_loss(model(x), y)", imports="import torch.nn.functional as F\n\n\n"
        ),
        expect="传进来的 loss_fn",
    ),
    dict(
        grade_id="test_train_epoch",
        name="manual_sgd_with_the_tested_learning_rates",
        code=_epoch_with(
            _ZERO_GRAD,
            "    for p in model.parameters():\n        p.grad = None\n",
            (
                _STEP,
                "    with torch.no_grad():\n        for p in model.parameters():\n            p -= 0.05 * p.grad if len(batches) != 3 else 0.1 * p.grad\n",
            ),
        ),
        expect="optimizer.step() 一次也没有被调用",
    ),
    dict(
        grade_id="test_train_epoch",
        name="batch_sizes_as_a_cpu_tensor",
        code=_EPOCH_CPU_SIZES,
        expect="Expected all tensors to be on the same device",
        mistake="new-tensor-without-device",
    ),
    # review r0607: the closing fresh pass (issue 17 item 2) ------------------------------------------
    dict(
        grade_id="test_train_epoch",
        name="loss_fn_arguments_swapped",
        code=_epoch_with("loss_fn(model(x), y)", "loss_fn(y, model(x))"),
        expect="两个参数顺序反了",
        mistake="loss-args-swapped",
    ),
    dict(
        grade_id="test_train_epoch",
        name="keeps_every_loss_with_its_graph",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    history, sizes, logs = [], [], []
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        history.append(loss)
        sizes.append(x.shape[0])
        if step % log_every == 0:
            window = torch.stack([l.detach() for l in history[-log_every:]])
            n = sizes[-log_every:]
            logs.append((sum(w * k for w, k in zip(window, n)) / sum(n)).item())
    values = torch.stack([l.detach() for l in history])
    return logs, (sum(v * k for v, k in zip(values, sizes)) / sum(sizes)).item()
""",
        expect="都还被留着",
        mistake="losses-kept-with-graph",
    ),
    # issue 17 final fresh pass (rvb) -----------------------------------------------------------------
    dict(
        grade_id="test_train_epoch",
        name="keeps_every_weighted_loss_with_its_graph",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    weighted, sizes, logs = [], [], []
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        weighted.append(loss * x.shape[0])
        sizes.append(x.shape[0])
        if step % log_every == 0:
            window = torch.stack([w.detach() for w in weighted[-log_every:]])
            logs.append((window.sum() / sum(sizes[-log_every:])).item())
    return logs, (torch.stack([w.detach() for w in weighted]).sum() / sum(sizes)).item()
""",
        expect="都还被留着",
        mistake="losses-kept-with-graph",
    ),
    dict(
        grade_id="test_train_epoch",
        name="keeps_a_clone_of_every_loss",
        code=_epoch_with(
            "logs = []\n",
            "logs, history = [], []\n",
            ("    batch_size = x.shape[0]\n", "    history.append(loss.clone())\n    batch_size = x.shape[0]\n"),
        ),
        expect="都还被留着",
        mistake="losses-kept-with-graph",
    ),
]

# Right answers written another way: each must pass its test cell (tests/test_mutants.py)
CORRECT = [
    dict(
        grade_id="test_train_epoch",
        name="loss_fn with nn.MSELoss's own keyword names",
        code=_epoch_with("loss_fn(model(x), y)", "loss_fn(input=model(x), target=y)"),
    ),
    dict(  # rvb5: the graph of a step is freed when loss is rebound; only the test's own bookkeeping holds it longer
        grade_id="test_train_epoch",
        name="backward(retain_graph=True) every step (wasteful, but no graph piles up)",
        code=_epoch_with("    loss.backward()\n", "    loss.backward(retain_graph=True)\n"),
    ),
    dict(
        grade_id="test_train_epoch",
        name="keeps every output detached (for metrics later)",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    outputs.append(out.detach())\n    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\noutputs = []\n"),
        ),
    ),
]

MUTANTS += [  # issue 17 final fresh pass (rvb5)
    dict(
        grade_id="test_train_epoch",
        name="keeps every model output with its graph (outputs.append(model(x)))",
        mistake="outputs-kept-with-graph",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    outputs.append(out)\n    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\noutputs = []\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
    dict(
        grade_id="test_train_epoch",
        name="keeps a squeezed view of every output",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    outputs.append(out.squeeze(-1))\n    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\noutputs = []\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
    dict(
        grade_id="test_train_epoch",
        name="torch.save of every step's loss (a copy to the host on a GPU)",
        code=_epoch_with(
            "    optimizer.step()\n",
            "    optimizer.step()\n    torch.save(loss.detach(), io.BytesIO())\n",
            imports="import io\n\n",
        ),
        expect="torch.save(t)",
    ),
]

MUTANTS += [  # issue 17 final fresh pass (rvg5): one tensor held, whose graph links every step's
    dict(
        grade_id="test_train_epoch",
        name="collects the outputs with torch.cat without detach (all_out = torch.cat([all_out, out]))",
        mistake="outputs-kept-with-graph",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    all_out = out if all_out is None else torch.cat([all_out, out])\n"
            "    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\nall_out = None\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a running sum of the outputs without detach (acc = acc + out.sum())",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    acc = acc + out.sum()\n    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\nacc = 0.0\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
]

CORRECT += [
    dict(  # rvg5
        grade_id="test_train_epoch",
        name="collects the outputs detached with torch.cat",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    d = out.detach()\n    all_out = d if all_out is None else torch.cat([all_out, d])\n"
            "    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\nall_out = None\n"),
        ),
    ),
]

MUTANTS += [  # issue 17 third look (rvj): outputs written in place into a preallocated buffer (no result holds them)
    dict(
        grade_id="test_train_epoch",
        name="writes every output into a preallocated buffer without detach (buf[pos:pos + n] = out)",
        mistake="outputs-kept-with-graph",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    if buf is None:\n        buf = torch.zeros(1000, *out.shape[1:], device=out.device)\n"
            "    buf[pos : pos + out.shape[0]] = out\n    pos += out.shape[0]\n    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\nbuf, pos = None, 0\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
    dict(
        grade_id="test_train_epoch",
        name="copies every output into a view of a preallocated buffer without detach (narrow(...).copy_(out))",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    if buf is None:\n        buf = torch.zeros(1000, *out.shape[1:], device=out.device)\n"
            "    buf.narrow(0, pos, out.shape[0]).copy_(out)\n    pos += out.shape[0]\n    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\nbuf, pos = None, 0\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
]

MUTANTS += [  # issue 17 fresh pass (rwd): in-place writes through a foreach op, outputs saved by a retained graph
    dict(
        grade_id="test_train_epoch",
        name="copies every output into a preallocated buffer with torch._foreach_copy_ without detach",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    if buf is None:\n        buf = torch.zeros(1000, *out.shape[1:], device=out.device)\n"
            "    torch._foreach_copy_([buf[pos : pos + out.shape[0]]], [out])\n    pos += out.shape[0]\n"
            "    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\nbuf, pos = None, 0\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
    dict(
        grade_id="test_train_epoch",
        name="keeps every output with its graph while every retained loss graph saves it (clamp, retain_graph=True)",
        mistake="outputs-kept-with-graph",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    outputs.append(out)\n    loss = loss_fn(out.clamp(-1e30, 1e30), y)\n",
            ("logs = []\n", "logs = []\noutputs = []\n"),
            ("    loss.backward()\n", "    loss.backward(retain_graph=True)\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulates_into_a_cpu_zeros_with_foreach_add_",
        mistake="new-tensor-without-device",
        code=_log_with(
            "    window_sum = window_sum + loss.detach() * batch_size\n",
            "    torch._foreach_add_([acc], [loss.detach() * batch_size])\n",
            ("windows.append(window_sum / window_n)", "windows.append(acc.clone() / window_n)\n        acc.zero_()"),
            ("windows = []\n", "windows = []\nacc = torch.zeros(())\n"),
        ),
        expect="写入结果的 CPU 张量",
    ),
]

MUTANTS += [  # issue 17 review of the rwd fix (rxd): the same foreach writes through torch.ops.aten overloads
    dict(
        grade_id="test_train_epoch",
        name="copies every output into a preallocated buffer with torch.ops.aten._foreach_copy_.default without detach",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    out = model(x)\n    if buf is None:\n        buf = torch.zeros(1000, *out.shape[1:], device=out.device)\n"
            "    torch.ops.aten._foreach_copy_.default([buf[pos : pos + out.shape[0]]], [out])\n"
            "    pos += out.shape[0]\n    loss = loss_fn(out, y)\n",
            ("logs = []\n", "logs = []\nbuf, pos = None, 0\n"),
        ),
        expect="前向里算出的张量还连着计算图被留着",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulates_into_a_cpu_zeros_with_torch_ops_aten_foreach_add_List",
        mistake="new-tensor-without-device",
        code=_log_with(
            "    window_sum = window_sum + loss.detach() * batch_size\n",
            "    torch.ops.aten._foreach_add_.List([acc], [loss.detach() * batch_size])\n",
            ("windows.append(window_sum / window_n)", "windows.append(acc.clone() / window_n)\n        acc.zero_()"),
            ("windows = []\n", "windows = []\nacc = torch.zeros(())\n"),
        ),
        expect="写入结果的 CPU 张量",
    ),
]

MUTANTS += [  # gd: _foreach_copy_ is a move (a8c14ac), and a copy to the host is a sync however it is written
    dict(
        grade_id="test_log_running_loss",
        name="copies_every_loss_into_a_cpu_buffer_with_foreach_copy_",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    n_logs = len(losses) // log_every
    if n_logs == 0:
        return []
    values = torch.zeros(len(losses))
    torch._foreach_copy_(list(values.unbind()), [loss.detach() for loss in losses])
    sizes = torch.tensor(batch_sizes, dtype=torch.float32)
    sums = (values * sizes)[: n_logs * log_every].reshape(n_logs, log_every).sum(dim=1)
    counts = sizes[: n_logs * log_every].reshape(n_logs, log_every).sum(dim=1)
    return (sums / counts).tolist()
""",
        expect="torch._foreach_copy_([cpu_tensor], [t])",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="copies_every_loss_and_count_into_cpu_buffers_with_aten_foreach_copy_",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    values = torch.zeros(len(losses))
    kept = torch.zeros(len(losses), dtype=torch.long)
    torch.ops.aten._foreach_copy_.default(
        list(values.unbind()) + list(kept.unbind()),
        [l.detach() for l in losses] + [(t != ignore_index).sum() for t in targets],
    )
    total = torch.where(kept > 0, values * kept, 0.0).sum()
    return (total / kept.sum()).item()
""",
        expect="torch._foreach_copy_([cpu_tensor], [t])",
    ),
]

MUTANTS += [  # gd: the losses written into a preallocated buffer without detach (no call result holds the graph)
    dict(
        grade_id="test_epoch_mean_loss",
        name="fills_a_preallocated_buffer_with_the_weighted_losses_then_detaches_it",
        mistake="loss-accumulated-with-graph",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    n = len(losses)
    vals = torch.zeros(n, device=losses[0].device)
    kept = torch.zeros(n, dtype=torch.long, device=losses[0].device)
    for i, (loss, target) in enumerate(zip(losses, targets)):
        k = (target != ignore_index).sum()
        vals[i] = torch.where(k > 0, loss * k, 0.0)
        kept[i] = k
    return (vals.detach().sum() / kept.sum()).item()
""",
        expect="连着多步计算图",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="fills_a_preallocated_buffer_with_the_weighted_losses_then_detaches_it",
        mistake="loss-accumulated-with-graph",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    n_logs = len(losses) // log_every
    if n_logs == 0:
        return []
    weighted = torch.zeros(len(losses), device=losses[0].device)
    for i, (loss, batch_size) in enumerate(zip(losses, batch_sizes)):
        weighted[i] = loss * batch_size
    sizes = torch.tensor(batch_sizes, dtype=torch.float32, device=losses[0].device)
    k = n_logs * log_every
    sums = weighted.detach()[:k].reshape(n_logs, log_every).sum(dim=1)
    return (sums / sizes[:k].reshape(n_logs, log_every).sum(dim=1)).tolist()
""",
        expect="连着多步计算图",
    ),
]

CORRECT += [  # gd: the same buffers filled with detached values
    dict(
        grade_id="test_epoch_mean_loss",
        name="fills_a_preallocated_buffer_with_detached_weighted_losses",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    n = len(losses)
    vals = torch.zeros(n, device=losses[0].device)
    kept = torch.zeros(n, dtype=torch.long, device=losses[0].device)
    for i, (loss, target) in enumerate(zip(losses, targets)):
        k = (target != ignore_index).sum()
        vals[i] = torch.where(k > 0, loss.detach() * k, 0.0)
        kept[i] = k
    return (vals.sum() / kept.sum()).item()
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="fills_a_preallocated_buffer_with_detached_weighted_losses",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    n_logs = len(losses) // log_every
    if n_logs == 0:
        return []
    k = n_logs * log_every
    window_n = [sum(batch_sizes[j : j + log_every]) for j in range(0, k, log_every)]  # Python numbers: no upload
    weighted = torch.zeros(k, device=losses[0].device)
    for i in range(k):
        weighted[i] = losses[i].detach() * (batch_sizes[i] / window_n[i // log_every])
    return weighted.reshape(n_logs, log_every).sum(dim=1).tolist()
""",
    ),
]

MUTANTS += [  # gd: legacy constructors (torch.Tensor(list), torch.FloatTensor(list)) make a CPU tensor too
    dict(
        grade_id="test_log_running_loss",
        name="batch_sizes_through_the_legacy_torch_Tensor_constructor",
        mistake="new-tensor-without-device",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    n = len(losses) // log_every * log_every
    if n == 0:
        return []
    v = torch.stack([l.detach() for l in losses[:n]])
    s = torch.Tensor(batch_sizes[:n])
    return ((v * s).reshape(-1, log_every).sum(1) / s.reshape(-1, log_every).sum(1)).tolist()
""",
        expect="torch.Tensor([...])",
    ),
    dict(
        grade_id="test_train_epoch",
        name="batch_sizes_through_torch_FloatTensor",
        mistake="new-tensor-without-device",
        code=edited(
            _EPOCH_CPU_SIZES,
            (
                "n = torch.tensor([float(x.shape[0]) for x, _ in batches])",
                "n = torch.FloatTensor([x.shape[0] for x, _ in batches])",
            ),
        ),
        expect="Expected all tensors to be on the same device",
    ),
]

MUTANTS += [  # gd, then s39 (c7): a legacy constructor moved to the losses' device is a blocking upload: a sync
    dict(
        grade_id="test_log_running_loss",
        name="batch_sizes_through_torch_Tensor_moved_to_the_device",
        expect="从主机内存阻塞拷到设备",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    n = len(losses) // log_every * log_every
    if n == 0:
        return []
    v = torch.stack([l.detach() for l in losses[:n]])
    s = torch.Tensor(batch_sizes[:n]).to(v.device)
    return ((v * s).reshape(-1, log_every).sum(1) / s.reshape(-1, log_every).sum(1)).tolist()
""",
    ),
]

MUTANTS += [  # gd: the functional torch.ops.aten.copy(dst, src) makes its result where dst is: a CPU dst is a copy to the host
    dict(
        grade_id="test_log_running_loss",
        name="copies_every_loss_to_the_host_with_the_functional_aten_copy",
        code=_log_with(
            "    window_sum = window_sum + loss.detach() * batch_size\n",
            "    window_sum = window_sum + torch.ops.aten.copy.default(torch.zeros(()), loss.detach()) * batch_size\n",
        ),
        expect="torch.ops.aten.copy(cpu_tensor, t)",
    ),
]

MUTANTS += [  # s33: a device named by a string (no index) was told it had no device= at all. Since s42 the counter
    # plays one GPU (loss.device.type reads "cuda", which is that GPU): what is left wrong is losses[0] with no steps
    dict(
        grade_id="test_log_running_loss",
        name="accumulates_into_zeros_made_with_device_equal_loss_device_type_and_reads_losses_0_with_no_steps",
        code=_log_with(
            "window_sum, window_n = 0.0, 0\nfor",
            "window_sum, window_n = torch.zeros((), device=losses[0].device.type), 0\nfor",
            ("window_sum = window_sum + ", "window_sum += "),
            (
                "        window_sum, window_n = 0.0, 0\n",
                "        window_sum, window_n = torch.zeros((), device=loss.device.type), 0\n",
            ),
        ),
        expect="输入 0 步（训练还没开始）、log_every=3 时，log_running_loss 抛出 IndexError",
    ),
]

CORRECT += [  # hd: str(t.device) keeps the index ("cuda:0" on a GPU): an accumulator made there is on the device
    dict(
        grade_id="test_epoch_mean_loss",
        name="accumulates_into_zeros_made_with_device_equal_str_of_loss_device",
        code=_mean_with(
            "total, count = 0.0, 0",
            "if not losses:\n    return float('nan')\ntotal, count = torch.zeros((), device=str(losses[0].device)), 0",
            ("    total = total + ", "    total += "),
        ),
    ),
]

MUTANTS += [  # hd: torch.ops.aten.to's overloads (on a CPU a no-op, so no _to_copy reaches the dispatcher) and
    # torch.ops.aten._to_cpu copy to the host like .to("cpu")
    dict(
        grade_id="test_log_running_loss",
        name="copies_every_loss_to_the_host_with_torch_ops_aten_to_device",
        code=_log_with(
            "    window_sum = window_sum + loss.detach() * batch_size\n",
            "    host = torch.ops.aten.to.device(loss.detach(), torch.device('cpu'), torch.float32)\n"
            "    window_sum = window_sum + host * batch_size\n",
        ),
        expect='torch.ops.aten.to.device(t, torch.device("cpu"), torch.float32)',
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="copies_every_loss_to_the_host_with_torch_ops_aten_to_dtype_layout",
        code=_mean_with(
            "    kept = (target != ignore_index).sum()\n",
            "    kept = (target != ignore_index).sum()\n"
            "    loss = torch.ops.aten.to.dtype_layout(loss, device='cpu')\n",
        ),
        expect='torch.ops.aten.to.dtype_layout(t, device="cpu")',
    ),
    dict(
        grade_id="test_log_running_loss",
        name="copies_every_loss_to_the_host_with_torch_ops_aten_to_cpu",
        code=_log_with(
            "windows = []\n",
            "windows = []\nlosses = torch.ops.aten._to_cpu([loss.detach() for loss in losses])\n",
        ),
        expect="torch.ops.aten._to_cpu([t, ...])",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="copies_every_loss_to_the_host_with_the_functional_aten_foreach_copy",
        code=_log_with(
            "windows = []\n",
            "windows = []\nlosses = torch.ops.aten._foreach_copy([torch.zeros(()) for _ in losses], "
            "[loss.detach() for loss in losses])\n",
        ),
        expect="torch._foreach_copy([cpu_tensor], [t])",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="copies_every_loss_to_the_host_with_to_copy_out",
        code=_mean_with(
            "    kept = (target != ignore_index).sum()\n",
            "    kept = (target != ignore_index).sum()\n"
            "    loss = torch.ops.aten._to_copy.out(loss.detach(), out=torch.empty(()))\n",
        ),
        expect="torch.ops.aten._to_copy(t, out=cpu_tensor)",
    ),
]

MUTANTS += [  # hd: cpu_tensor.fill_(t) reads t.item() when t is on another device: a sync, which was called a device mix
    dict(
        grade_id="test_log_running_loss",
        name="fills_a_cpu_scalar_with_every_loss",
        code=_log_with(
            "    window_sum = window_sum + loss.detach() * batch_size\n",
            "    window_sum = window_sum + torch.empty(()).fill_(loss.detach()) * batch_size\n",
        ),
        expect="cpu_tensor.fill_(t)",
    ),
]

MUTANTS += [  # hd: a torch function mode is per thread: reads in threads the function starts were not counted
    dict(
        grade_id="test_log_running_loss",
        name="reads_every_loss_with_item_in_a_thread_of_its_own",
        code="""
import threading


def log_running_loss(losses, batch_sizes, log_every):
    values = [0.0] * len(losses)

    def read(i, loss):
        values[i] = loss.item()

    threads = [threading.Thread(target=read, args=(i, loss.detach())) for i, loss in enumerate(losses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    logs = []
    for end in range(log_every, len(losses) + 1, log_every):
        window = range(end - log_every, end)
        logs.append(sum(values[i] * batch_sizes[i] for i in window) / sum(batch_sizes[i] for i in window))
    return logs
""",
        expect="同步 (sync) 次数太多",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="reads_the_sums_in_a_thread_pool",
        code="""
from concurrent.futures import ThreadPoolExecutor


def epoch_mean_loss(losses, targets, ignore_index=-100):
    def batch_sum(pair):
        loss, target = pair
        kept = int((target != ignore_index).sum())
        return (loss.item() * kept if kept else 0.0), kept

    with ThreadPoolExecutor(max_workers=2) as pool:
        sums = list(pool.map(batch_sum, zip(losses, targets)))
    count = sum(k for _, k in sums)
    return sum(s for s, _ in sums) / count if count else float("nan")
""",
        expect="同步 (sync) 了",
    ),
]

CORRECT += [  # hd: conversions that keep a tensor on its device are no copy to the host (on a CPU machine every
    # _to_copy names device "cpu", so the dispatcher's copy of a device tensor there was taken for one)
    dict(
        grade_id="test_epoch_mean_loss",
        name="kept_counts_converted_with_type_as_loss",
        code=_mean_with(
            "    kept = (target != ignore_index).sum()\n",
            "    kept = (target != ignore_index).sum().type_as(loss)\n",
        ),
    ),
    dict(
        grade_id="test_log_running_loss",
        name="each_loss_converted_to_float64_on_its_own_device",
        code=_log_with(
            "    window_sum = window_sum + loss.detach() * batch_size\n",
            "    window_sum = window_sum + loss.detach().to(loss.device, torch.float64) * batch_size\n",
        ),
    ),
    dict(
        grade_id="test_train_epoch",
        name="batch_sums_in_float64_with_torch_as_tensor",
        code=_epoch_with(
            "    batch_sum = loss.detach() * batch_size\n",
            "    batch_sum = torch.as_tensor(loss.detach(), dtype=torch.float64) * batch_size\n",
        ),
    ),
]

MUTANTS += [  # hd: type_as / new_tensor take their device from a CPU tensor: a copy to the host (now named by the counter)
    dict(
        grade_id="test_log_running_loss",
        name="casts_every_loss_with_type_as_a_cpu_scalar",
        code=_log_with(
            "    window_sum = window_sum + loss.detach() * batch_size\n",
            "    window_sum = window_sum + loss.detach().type_as(torch.zeros(())) * batch_size\n",
        ),
        expect=".type_as(cpu_tensor)",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="copies_every_loss_with_new_tensor_of_a_cpu_scalar",
        code=_mean_with(
            "    kept = (target != ignore_index).sum()\n",
            "    kept = (target != ignore_index).sum()\n    loss = torch.zeros(()).new_tensor(loss.detach())\n",
        ),
        expect="cpu_tensor.new_tensor(t)",
    ),
]

MUTANTS += [  # s35 review (h3): a non_blocking copy to the host read with no sync: "no sync" and the values may not be there
    dict(
        grade_id="test_log_running_loss",
        name="one non_blocking=True copy of the windows to the host, read by .tolist() with no sync",
        mistake="unsynced-host-copy-read",
        expect="用 .tolist() 读了一个用 non_blocking=True 拷到主机的张量",
        code=_log_with(
            _LOG_RETURN, 'return torch.stack(windows).to("cpu", non_blocking=True).tolist() if windows else []'
        ),
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="the mean copied to the host with non_blocking=True, then .item()",
        mistake="unsynced-host-copy-read",
        expect='拷到主机的张量（.to("cpu", non_blocking=True) 或 cpu_tensor.copy_(t, non_blocking=True)），读之前没有等到这次拷贝完成的同步',
        code=_mean_with("return (total / count).item()", 'return (total / count).to("cpu", non_blocking=True).item()'),
    ),
    dict(
        grade_id="test_train_epoch",
        name="every log point and the epoch mean copied with non_blocking=True, then .item()",
        mistake="unsynced-host-copy-read",
        expect='拷到主机的张量（.to("cpu", non_blocking=True) 或 cpu_tensor.copy_(t, non_blocking=True)），读之前没有等到这次拷贝完成的同步',
        code=_epoch_with(
            "logs.append((window_sum / window_n).item())",
            'logs.append((window_sum / window_n).to("cpu", non_blocking=True).item())',
            ("(epoch_sum / epoch_n).item()", '(epoch_sum / epoch_n).to("cpu", non_blocking=True).item()'),
        ),
    ),
]


MUTANTS += [  # s36 review (c2): logging.basicConfig changes the root logger for the whole process
    dict(
        grade_id="test_train_epoch",
        name="logging.basicConfig(level=INFO, force=True) in train_epoch, to see its progress lines in a notebook",
        mistake="global-setting-changed",
        expect="logging.basicConfig() / the root logger",
        code="import logging\n\n"
        + solution_with(
            "07_item",
            "train_epoch",
            (
                "    model.train()\n",
                '    logging.basicConfig(level=logging.INFO, format="%(message)s", force=True)\n    model.train()\n',
            ),
        ),
    ),
]


MUTANTS += [  # s37 review (c3): passed every test (no test had an empty epoch; the caller's lists were not compared)
    dict(
        grade_id="test_log_running_loss",
        name="one torch.stack of every loss first: no step at all raises",
        expect="stack expects a non-empty TensorList",
        code=_log_with(_LOG_RETURN, "torch.stack([loss.detach() for loss in losses])\n" + _LOG_RETURN),
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="no guard for an epoch without batches: 0.0 / 0 raises ZeroDivisionError",
        expect="ZeroDivisionError",
        code=_mean_with('if not losses:\n    return float("nan")\n', ""),
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="detaches the caller's losses in its list (losses[i] = losses[i].detach())",
        mistake="modifies-input",
        expect="第 1 个参数[0]：被换成了另一个张量",
        code=_mean_with(
            "total, count = 0.0, 0\n",
            "for i in range(len(losses)):\n    losses[i] = losses[i].detach()\ntotal, count = 0.0, 0\n",
        ),
    ),
    dict(
        grade_id="test_log_running_loss",
        name="turns the caller's batch_sizes into prefix sums in place",
        mistake="modifies-input",
        expect="第 2 个参数[1]：从",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    for i in range(1, len(batch_sizes)):
        batch_sizes[i] += batch_sizes[i - 1]
    windows = []
    window_sum = 0.0
    for step, loss in enumerate(losses, start=1):
        n = batch_sizes[step - 1] - (batch_sizes[step - 2] if step > 1 else 0)
        window_sum = window_sum + loss.detach() * n
        if step % log_every == 0:
            start = batch_sizes[step - log_every - 1] if step > log_every else 0
            windows.append(window_sum / (batch_sizes[step - 1] - start))
            window_sum = 0.0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
]

MUTANTS += [  # s37 review (c3): two syncs per log point, none per step: was tagged as a sync in every step
    dict(
        grade_id="test_train_epoch",
        name="prints_and_appends_the_window_item_at_each_log_point",
        expect="同步 (sync) 次数太多",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        n = x.shape[0]
        window_sum, window_n = window_sum + loss.detach() * n, window_n + n
        epoch_sum, epoch_n = epoch_sum + loss.detach() * n, epoch_n + n
        if step % log_every == 0:
            print(f"step {step}: loss {window_sum.item() / window_n:.4f}")
            logs.append(window_sum.item() / window_n)
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # s37 review (c4): process-wide settings nothing watched (the garbage collector, the new fp32 API)
    dict(
        grade_id="test_train_epoch",
        name="gc.disable() for the epoch (torchtitan style), left off after it",
        mistake="global-setting-changed",
        expect="gc.disable()（True -> False）",
        code="import gc\n\n"
        + solution_with("07_item", "train_epoch", ("    model.train()\n", "    gc.disable()\n    model.train()\n")),
    ),
    dict(
        grade_id="test_train_epoch",
        name="torch.backends.cuda.matmul.fp32_precision = 'tf32' first (the legacy reads then raise)",
        mistake="global-setting-changed",
        expect="-> 'tf32'）",
        code=solution_with(
            "07_item",
            "train_epoch",
            ("    model.train()\n", '    torch.backends.cuda.matmul.fp32_precision = "tf32"\n    model.train()\n'),
        ),
    ),
]

MUTANTS += [  # s37 review (c4): an extra eval-mode forward per batch (a "clean" loss to log) was blamed on model.train()
    dict(
        grade_id="test_train_epoch",
        name="second_eval_forward_to_log_a_clean_loss",
        code=_epoch_with(
            "    batch_sum = loss.detach() * batch_size\n",
            "    model.eval()\n"
            "    with torch.no_grad():\n"
            "        clean = loss_fn(model(x), y)\n"
            "    model.train()\n"
            "    batch_sum = clean * batch_size\n",
        ),
        expect="其中 3 次在评估模式",
    ),
]

CORRECT += [  # s38 review (c5): detach_() after backward keeps the tensor but lets its graph go
    dict(
        grade_id="test_train_epoch",
        name="loss.detach_() after backward, the loss tensor kept in a list",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    model.train()\n"
            "    history, sizes = [], []  # every step's loss (detached in place) and batch size\n"
            "    logs = []\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        loss.detach_()  # backward is done: cut this tensor off its graph, keep the value on the device\n"
            "        history.append(loss)\n"
            "        sizes.append(x.shape[0])\n"
            "        if step % log_every == 0:\n"
            "            w = slice(step - log_every, step)\n"
            "            window = sum(l * n for l, n in zip(history[w], sizes[w]))\n"
            "            logs.append((window / sum(sizes[w])).item())\n"
            "    epoch = sum(l * n for l, n in zip(history, sizes))\n"
            "    return logs, (epoch / sum(sizes)).item()\n"
        ),
    ),
    dict(
        grade_id="test_train_epoch",
        name="outputs kept with out.detach_() after backward",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    model.train()\n"
            "    logs, outputs = [], []  # outputs kept (without graph) for metrics after the epoch\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    epoch_sum, epoch_n = 0.0, 0\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        optimizer.zero_grad()\n"
            "        out = model(x)\n"
            "        loss = loss_fn(out, y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        outputs.append(out.detach_())  # backward is done: drop the graph in place, keep the values\n"
            "        batch_sum = loss.detach() * x.shape[0]\n"
            "        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            "            window_sum, window_n = 0.0, 0\n"
            "    return logs, (epoch_sum / epoch_n).item()\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c5): one extra sync in step 1 was told it synced in every step
    dict(
        grade_id="test_train_epoch",
        name="one extra sanity print of loss.item() in step 1",
        expect="你的函数同步了 3 次",
        code=_epoch_with(_STEP, _STEP + '    if step == 1:\n        print(f"initial loss {loss.item():.4f}")\n'),
    ),
]


MUTANTS += [  # s38 review (c5): was told to forward each batch only once
    dict(
        grade_id="test_train_epoch",
        name="trains only the full log windows (the tail batches skipped)",
        expect="凑不满一个 log 窗口的最后几步也要训练",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    # bug: trains only on full log windows (drops the tail batches, as exercise 2 drops the tail from the logs)\n"
            "    model.train()\n"
            "    logs = []\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    epoch_sum, epoch_n = 0.0, 0\n"
            "    n_steps = len(batches) // log_every * log_every\n"
            "    for step, (x, y) in enumerate(batches[:n_steps], start=1):\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        batch_sum = loss.detach() * x.shape[0]\n"
            "        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            "            window_sum, window_n = 0.0, 0\n"
            '    return logs, (epoch_sum / epoch_n).item() if epoch_n else float("nan")\n'
        ),
    ),
]


MUTANTS += [  # s38 (d5's family in 07): every tested model was wholly in eval mode
    dict(
        grade_id="test_train_epoch",
        name="model.train() only when the top flag says eval (a child left in eval)",
        expect="只看顶层的 model.training",
        mistake="missing-model-train",
        code=_epoch_with(
            "model.train()\n",
            "if not model.training:  # only switch when the model is in eval mode\n    model.train()\n",
        ),
    ),
]


MUTANTS += [  # s38 review (c6): empty_cache waits for the device (cudaFree) and was not counted
    dict(
        grade_id="test_train_epoch",
        name="torch.cuda.empty_cache() every step",
        expect="torch.cuda.empty_cache()",
        code=_epoch_with(_STEP, _STEP + "    torch.cuda.empty_cache()  # on a GPU: cudaFree waits for the device\n"),
    ),
]


MUTANTS += [  # s38 review (c6): every torch.device global was taken for the accelerator
    dict(
        grade_id="test_log_running_loss",
        name="HOST = torch.device('cpu') global, .to(HOST) every step",
        expect='.to(torch.device("cpu"))',
        code=(
            'HOST = torch.device("cpu")  # where the logger keeps its values (frees device memory)\n'
            "\n"
            "\n"
            "def log_running_loss(losses, batch_sizes, log_every):\n"
            "    windows = []\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):\n"
            "        # bug: a device -> host copy of every step's loss: on a GPU each .to(HOST) is a blocking copy (a sync)\n"
            "        window_sum = window_sum + loss.detach().to(HOST) * batch_size\n"
            "        window_n += batch_size\n"
            "        if step % log_every == 0:\n"
            "            windows.append(window_sum / window_n)\n"
            "            window_sum, window_n = 0.0, 0\n"
            "    return torch.stack(windows).tolist() if windows else []\n"
        ),
    ),
]


CORRECT += [  # s38 review (c6): a notebook's device string is the accelerator (it was counted as a host copy)
    dict(
        grade_id="test_train_epoch",
        name="device = 'cuda' if available else 'cpu' string global, x.to(device)",
        code=(
            'device = "cuda" if torch.cuda.is_available() else "cpu"  # the usual notebook idiom\n'
            "\n"
            "\n"
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    model.train()\n"
            "    logs = []\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    epoch_sum, epoch_n = 0.0, 0\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        x, y = x.to(device), y.to(device)  # a no-op where the batch is already on the model's device\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        batch_sum = loss.detach() * x.shape[0]\n"
            "        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            "            window_sum, window_n = 0.0, 0\n"
            "    return logs, (epoch_sum / epoch_n).item()\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c6): only the root logger was watched
    dict(
        grade_id="test_train_epoch",
        name="a named logger given a level and a handler inside train_epoch",
        expect="logging.getLogger(name)",
        mistake="global-setting-changed",
        code=(
            "import logging\n"
            "import sys\n"
            "\n"
            "\n"
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    # bug: configures a process-wide named logger on every call: level changed, one more handler each call\n"
            "    # (the second epoch prints every line twice, the tenth ten times)\n"
            '    logger = logging.getLogger("train")\n'
            "    logger.setLevel(logging.INFO)\n"
            "    logger.addHandler(logging.StreamHandler(sys.stdout))\n"
            "    model.train()\n"
            "    logs = []\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    epoch_sum, epoch_n = 0.0, 0\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        batch_sum = loss.detach() * x.shape[0]\n"
            "        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            '            logger.info("step %d: loss %.4f", step, logs[-1])  # a Python float: no extra sync\n'
            "            window_sum, window_n = 0.0, 0\n"
            "    return logs, (epoch_sum / epoch_n).item()\n"
        ),
    ),
]


MUTANTS += [  # s38 review (c6): .numpy() of a device tensor was counted as one sync; on a GPU it raises
    dict(
        grade_id="test_epoch_mean_loss",
        name="float((total / count).numpy()) on a device tensor",
        expect="NumPy 读不到设备上的张量",
        code=(
            "def epoch_mean_loss(losses, targets, ignore_index=-100):\n"
            "    total, count = 0.0, 0\n"
            "    for loss, target in zip(losses, targets):\n"
            "        kept = (target != ignore_index).sum()\n"
            "        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)\n"
            "        count = count + kept\n"
            "    if not losses:\n"
            '        return float("nan")\n'
            '    # bug: .numpy() of a CUDA tensor raises TypeError ("can\'t convert cuda:0 device type tensor to numpy")\n'
            "    return float((total / count).numpy())\n"
        ),
    ),
]


MUTANTS += [  # s39 (c7 Family A): a blocking host-to-device copy is a sync on a GPU (measured on the H200)
    dict(
        grade_id="test_log_running_loss",
        name="batch_sizes_as_a_tensor_made_on_the_losses_device",
        expect="从主机内存阻塞拷到设备",
        code=(
            "def log_running_loss(losses, batch_sizes, log_every):\n"
            "    n_logs = len(losses) // log_every\n"
            "    if n_logs == 0:\n"
            "        return []\n"
            "    k = n_logs * log_every\n"
            "    values = torch.stack([loss.detach() for loss in losses[:k]])\n"
            "    # the batch sizes as a tensor on the losses' device (what the course's device message tells you to write)\n"
            "    sizes = torch.tensor(batch_sizes[:k], dtype=values.dtype, device=values.device)\n"
            "    sums = (values * sizes).reshape(n_logs, log_every).sum(dim=1)\n"
            "    counts = sizes.reshape(n_logs, log_every).sum(dim=1)\n"
            "    return (sums / counts).tolist()\n"
        ),
    ),
]


MUTANTS += [  # s39 (c7 Family A): a blocking host-to-device copy is a sync on a GPU (measured on the H200)
    dict(
        grade_id="test_epoch_mean_loss",
        name="accumulators_made_with_torch_tensor_on_the_device",
        expect="从主机内存阻塞拷到设备",
        code=(
            "def epoch_mean_loss(losses, targets, ignore_index=-100):\n"
            "    if not losses:\n"
            '        return float("nan")\n'
            "    device = losses[0].device\n"
            "    total = torch.tensor(0.0, device=device)  # accumulators on the losses' device\n"
            "    count = torch.tensor(0, device=device)\n"
            "    for loss, target in zip(losses, targets):\n"
            "        kept = (target != ignore_index).sum()\n"
            "        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)\n"
            "        count = count + kept\n"
            "    return (total / count).item()\n"
        ),
    ),
]


MUTANTS += [  # s39 (c7 Family A): a blocking host-to-device copy is a sync on a GPU (measured on the H200)
    dict(
        grade_id="test_train_epoch",
        name="accumulators_made_with_torch_tensor_on_the_device_each_window",
        expect="从主机内存阻塞拷到设备",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    model.train()\n"
            "    device = next(model.parameters()).device\n"
            "    logs = []\n"
            "    window_sum, window_n = torch.tensor(0.0, device=device), 0  # accumulators on the model's device\n"
            "    epoch_sum, epoch_n = torch.tensor(0.0, device=device), 0\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        window_sum += loss.detach() * x.shape[0]\n"
            "        epoch_sum += loss.detach() * x.shape[0]\n"
            "        window_n += x.shape[0]\n"
            "        epoch_n += x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            "            window_sum, window_n = torch.tensor(0.0, device=device), 0  # a fresh window\n"
            "    return logs, (epoch_sum / epoch_n).item()\n"
        ),
    ),
]


MUTANTS += [  # s39 (c7): p.grad.zero_() crashes on a fresh model
    dict(
        grade_id="test_train_epoch",
        name="clears_grads_with_p_grad_zero_",
        expect="'NoneType' object has no attribute 'zero_'",
        code=_epoch_with(_ZERO_GRAD, "    for p in model.parameters():\n        p.grad.zero_()\n"),
    ),
]


MUTANTS += [  # s39 (c7): model.forward(x) skips the model's hooks
    dict(
        grade_id="test_train_epoch",
        name="calls_model_forward_directly",
        expect="写 model(x)",
        code=_epoch_with("loss_fn(model(x), y)", "loss_fn(model.forward(x), y)"),
    ),
]


MUTANTS += [  # s39 (c9): more blocking uploads
    dict(
        grade_id="test_train_epoch",
        name="weights_through_type_as",
        expect="从主机内存阻塞拷到设备",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    model.train()\n"
            "    step_losses, sizes = [], []  # every step's loss (on the device, no graph) and batch size\n"
            "    for x, y in batches:\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        step_losses.append(loss.detach())\n"
            "        sizes.append(x.shape[0])\n"
            "    values = torch.stack(step_losses)\n"
            "    weights = torch.tensor(sizes).type_as(values)  # values' dtype and device\n"
            "    sums = values * weights\n"
            "    k = len(batches) // log_every * log_every\n"
            "    logs = (sums[:k].view(-1, log_every).sum(1) / weights[:k].view(-1, log_every).sum(1)).tolist() if k else []\n"
            "    return logs, (sums.sum() / weights.sum()).item()\n"
        ),
    ),
]


CORRECT += [  # s39 (c9): numpy(force=True) copies to the host first: one sync, no error
    dict(
        grade_id="test_log_running_loss",
        name="numpy_force_true_at_the_end",
        code=(
            "def log_running_loss(losses, batch_sizes, log_every):\n"
            "    windows = []  # each window's mean, kept on the device\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):\n"
            "        window_sum = window_sum + loss.detach() * batch_size\n"
            "        window_n += batch_size\n"
            "        if step % log_every == 0:\n"
            "            windows.append(window_sum / window_n)\n"
            "            window_sum, window_n = 0.0, 0\n"
            "    if not windows:\n"
            "        return []\n"
            "    # one copy to the host for all windows (force=True does the .cpu() a device tensor needs), then Python floats\n"
            "    return torch.stack(windows).numpy(force=True).tolist()\n"
        ),
    ),
]


MUTANTS += [  # s39 (c10): non_blocking=True from pageable memory may sync (CUDA's API synchronization behavior)
    dict(
        grade_id="test_train_epoch",
        name="sizes_uploaded_non_blocking_from_pageable_memory",
        expect="这个窗口的平均没有当场取回",  # it also reads every window at the end: that shows first now
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    model.train()\n"
            "    step_losses = []\n"
            "    for x, y in batches:\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        step_losses.append(loss.detach())\n"
            "    v = torch.stack(step_losses)\n"
            '    # the batch sizes go to the device with a non-blocking copy ("not a blocking copy, so no sync")\n'
            "    n = torch.tensor([float(x.shape[0]) for x, _ in batches], dtype=v.dtype).to(v.device, non_blocking=True)\n"
            "    k = len(batches) // log_every * log_every\n"
            "    w = v * n\n"
            "    windows = w[:k].reshape(-1, log_every).sum(1) / n[:k].reshape(-1, log_every).sum(1) if k else v[:0]\n"
            "    out = torch.cat([windows, (w.sum() / n.sum()).reshape(1)]).tolist()  # one sync for everything\n"
            "    return out[:-1], out[-1]\n"
        ),
    ),
]


_UPLOADED_SIZES = """
def log_running_loss(losses, batch_sizes, log_every):
    k = len(losses) // log_every * log_every  # steps in complete windows
    if k == 0:
        return []
    values = torch.stack([loss.detach() for loss in losses[:k]])  # on the losses' device, no graph
{sizes}
    sums = (values * sizes).view(-1, log_every).sum(dim=1)
    counts = sizes.view(-1, log_every).sum(dim=1)
    return (sums / counts).tolist()  # the one sync
"""

MUTANTS += [  # s39 (c9, c10): the batch sizes reach the device through a copy that waits: a second sync
    dict(grade_id="test_log_running_loss", name=name, expect=expect, code=_UPLOADED_SIZES.format(sizes=sizes))
    for name, expect, sizes in [
        (
            "sizes_copied_into_a_device_buffer_by_setitem",
            "从主机内存阻塞拷到设备",
            "    sizes = torch.empty_like(values)  # made on the device, then filled from the list\n"
            "    sizes[:] = torch.tensor(batch_sizes[:k])",
        ),
        (
            "sizes_through_type_as",
            "从主机内存阻塞拷到设备",
            "    sizes = torch.tensor(batch_sizes[:k]).type_as(values)",
        ),
        ("sizes_through_the_legacy_new", "从主机内存阻塞拷到设备", "    sizes = values.new(batch_sizes[:k])"),
        (
            "sizes_uploaded_non_blocking_from_pageable_memory",
            "但源不在页锁定内存",
            "    sizes = torch.tensor(batch_sizes[:k], dtype=values.dtype).to(values.device, non_blocking=True)",
        ),
    ]
]


MUTANTS += [  # s40 (found39 c10): windows as differences of float32 running totals lose the small windows' digits
    dict(
        grade_id="test_log_running_loss",
        name="windows_as_differences_of_float32_cumsums",
        expect="logs[1] 的数值不对",
        code=(
            "def log_running_loss(losses, batch_sizes, log_every):\n"
            "    k = len(losses) // log_every\n"
            "    if k == 0:\n"
            "        return []\n"
            "    # vectorised: running totals, then the difference between consecutive log points\n"
            "    v = torch.stack([loss.detach() for loss in losses])\n"
            "    n = torch.zeros_like(v)\n"
            "    for i, b in enumerate(batch_sizes):\n"
            "        n[i] = b  # a Python number written on the device: no upload\n"
            "    sums = torch.cumsum(v * n, 0)[log_every - 1 :: log_every][:k]\n"
            "    counts = torch.cumsum(n, 0)[log_every - 1 :: log_every][:k]\n"
            "    zero = sums[:1] * 0\n"
            "    window_sums = sums - torch.cat([zero, sums[:-1]])\n"
            "    window_counts = counts - torch.cat([zero, counts[:-1]])\n"
            "    return (window_sums / window_counts).tolist()\n"
        ),
    ),
]


MUTANTS += [  # s41 (found40 c11): code run only where torch.cuda.is_available(), which the counter now answers True
    dict(
        grade_id="test_train_epoch",
        name="cuda_synchronize_every_step_where_there_is_a_gpu",
        mistake="host-sync-every-step",
        expect="torch.cuda.synchronize()",
        code=_epoch_with(
            _STEP,
            _STEP + "    if torch.cuda.is_available():\n        torch.cuda.synchronize()\n",
            imports="import torch\n",
        ),
    ),
    dict(
        grade_id="test_train_epoch",
        name="float16_autocast_without_grad_scaler",
        expect='torch.autocast("cuda", dtype=torch.float16)',
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            '    with torch.autocast(device_type="cuda", dtype=torch.float16):\n        loss = loss_fn(model(x), y)\n',
            imports="import torch\n",
        ),
    ),
    dict(
        grade_id="test_train_epoch",
        name="bfloat16_autocast",
        expect="torch.bfloat16",
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            '    with torch.autocast("cuda", dtype=torch.bfloat16):\n        loss = loss_fn(model(x), y)\n',
            imports="import torch\n",
        ),
    ),
    dict(
        grade_id="test_train_epoch",
        name="tf32_matmul_for_the_epoch_restored_after",
        expect="被设成了 TF32",
        code="""import torch


def train_epoch(model, loss_fn, optimizer, batches, log_every):
    # TF32 matmuls on Ampere+ GPUs: ~8x faster; restore the caller's setting afterwards
    previous = torch.backends.cuda.matmul.fp32_precision
    torch.backends.cuda.matmul.fp32_precision = "tf32"
    try:
        model.train()
        logs = []
        window_sum, window_n = 0.0, 0
        epoch_sum, epoch_n = 0.0, 0
        for step, (x, y) in enumerate(batches, start=1):
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            batch_sum = loss.detach() * x.shape[0]
            window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]
            epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]
            if step % log_every == 0:
                logs.append((window_sum / window_n).item())
                window_sum, window_n = 0.0, 0
        return logs, (epoch_sum / epoch_n).item()
    finally:
        torch.backends.cuda.matmul.fp32_precision = previous
""",
    ),
]

CORRECT += [  # s41 (found40 c11): a pinned non-blocking upload, pinned where there is a GPU
    dict(
        grade_id="test_log_running_loss",
        name="batch sizes pinned where CUDA is available, uploaded with non_blocking=True",
        code=(
            "import torch\n\n"
            "def log_running_loss(losses, batch_sizes, log_every):\n"
            "    k = len(losses) // log_every * log_every\n"
            "    if k == 0:\n"
            "        return []\n"
            "    values = torch.stack([loss.detach() for loss in losses[:k]])\n"
            "    sizes = torch.tensor(batch_sizes[:k], dtype=values.dtype, pin_memory=torch.cuda.is_available())\n"
            "    sizes = sizes.to(values.device, non_blocking=True)\n"
            "    sums = (values * sizes).view(-1, log_every).sum(dim=1)\n"
            "    counts = sizes.view(-1, log_every).sum(dim=1)\n"
            "    return (sums / counts).tolist()\n"
        ),
    ),
    dict(
        grade_id="test_log_running_loss",
        name="batch sizes pinned with Tensor.pin_memory(), uploaded with non_blocking=True",
        code=(
            "import torch\n\n"
            "def log_running_loss(losses, batch_sizes, log_every):\n"
            "    k = len(losses) // log_every * log_every\n"
            "    if k == 0:\n"
            "        return []\n"
            "    values = torch.stack([loss.detach() for loss in losses[:k]])\n"
            "    sizes = torch.tensor(batch_sizes[:k], dtype=values.dtype)\n"
            "    if torch.cuda.is_available():\n"
            "        sizes = sizes.pin_memory()\n"
            "    sizes = sizes.to(values.device, non_blocking=True)\n"
            "    sums = (values * sizes).view(-1, log_every).sum(dim=1)\n"
            "    counts = sizes.view(-1, log_every).sum(dim=1)\n"
            "    return (sums / counts).tolist()\n"
        ),
    ),
]


MUTANTS += [  # stop 40 review (c11)
    dict(
        grade_id="test_train_epoch",
        name="gc.collect() then gc.set_threshold(0) for the epoch, never put back (gc.isenabled() still True)",
        expect="gc.set_threshold()",
        mistake="global-setting-changed",
        code=(
            "import gc\n"
            "\n"
            "\n"
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    # no garbage-collector pauses in the middle of the epoch: collect once now, then switch automatic collection off\n"
            "    gc.collect()\n"
            "    gc.set_threshold(0)\n"
            "    model.train()\n"
            "    logs = []\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    epoch_sum, epoch_n = 0.0, 0\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        batch_sum = loss.detach() * x.shape[0]\n"
            "        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            "            window_sum, window_n = 0.0, 0\n"
            "    return logs, (epoch_sum / epoch_n).item()\n"
        ),
    ),
]


MUTANTS += [  # stop 40 review (c11)
    dict(
        grade_id="test_train_epoch",
        name="logging.disable(logging.INFO) for the epoch, never switched back",
        expect="logging.disable()",
        mistake="global-setting-changed",
        code=(
            "import logging\n"
            "\n"
            "\n"
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    logging.disable(logging.INFO)  # keep libraries' INFO chatter out of the epoch's progress (never switched back)\n"
            "    model.train()\n"
            "    logs = []\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    epoch_sum, epoch_n = 0.0, 0\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        batch_sum = loss.detach() * x.shape[0]\n"
            "        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            "            window_sum, window_n = 0.0, 0\n"
            "    return logs, (epoch_sum / epoch_n).item()\n"
        ),
    ),
]


MUTANTS += [  # s41 (c12 cand01): was told a global setting was left changed
    dict(
        grade_id="test_train_epoch",
        name="TF32 through the legacy torch.set_float32_matmul_precision('high'), put back in finally",
        expect="TF32",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    # TF32 matmuls on Ampere+ GPUs: ~8x faster; restore the caller's setting afterwards\n"
            "    previous = torch.get_float32_matmul_precision()\n"
            '    torch.set_float32_matmul_precision("high")\n'
            "    try:\n"
            "        model.train()\n"
            "        logs = []\n"
            "        window_sum, window_n = 0.0, 0\n"
            "        epoch_sum, epoch_n = 0.0, 0\n"
            "        for step, (x, y) in enumerate(batches, start=1):\n"
            "            optimizer.zero_grad()\n"
            "            loss = loss_fn(model(x), y)\n"
            "            loss.backward()\n"
            "            optimizer.step()\n"
            "            batch_sum = loss.detach() * x.shape[0]\n"
            "            window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "            epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "            if step % log_every == 0:\n"
            "                logs.append((window_sum / window_n).item())\n"
            "                window_sum, window_n = 0.0, 0\n"
            "        return logs, (epoch_sum / epoch_n).item()\n"
            "    finally:\n"
            "        torch.set_float32_matmul_precision(previous)\n"
        ),
    ),
]


MUTANTS += [  # s41 (c12 cand09): the CUDA generators were not watched
    dict(
        grade_id="test_train_epoch",
        name="torch.cuda.manual_seed_all(0) where CUDA is available (the GPU generators reseeded for the whole process)",
        expect="重设了 GPU 的随机种子",
        mistake="global-seed-reset",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    if torch.cuda.is_available():\n"
            "        torch.cuda.manual_seed_all(0)  # reproducible epochs: same dropout masks on the GPU every run\n"
            "    model.train()\n"
            "    logs = []\n"
            "    window_sum, window_n = 0.0, 0\n"
            "    epoch_sum, epoch_n = 0.0, 0\n"
            "    for step, (x, y) in enumerate(batches, start=1):\n"
            "        optimizer.zero_grad()\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        batch_sum = loss.detach() * x.shape[0]\n"
            "        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "        if step % log_every == 0:\n"
            "            logs.append((window_sum / window_n).item())\n"
            "            window_sum, window_n = 0.0, 0\n"
            "    return logs, (epoch_sum / epoch_n).item()\n"
        ),
    ),
]


CORRECT += [  # s41 (c12 cand03): 'ieee' written over 'none' read as a change
    dict(
        grade_id="test_train_epoch",
        name="pins full float32 matmuls with set_float32_matmul_precision('highest') and puts the caller's back",
        code=(
            "def train_epoch(model, loss_fn, optimizer, batches, log_every):\n"
            "    # spec: float32 throughout -> pin full-precision fp32 matmuls (no TF32) for this epoch, then restore\n"
            "    previous = torch.get_float32_matmul_precision()\n"
            '    torch.set_float32_matmul_precision("highest")\n'
            "    try:\n"
            "        model.train()\n"
            "        logs = []\n"
            "        window_sum, window_n = 0.0, 0\n"
            "        epoch_sum, epoch_n = 0.0, 0\n"
            "        for step, (x, y) in enumerate(batches, start=1):\n"
            "            optimizer.zero_grad()\n"
            "            loss = loss_fn(model(x), y)\n"
            "            loss.backward()\n"
            "            optimizer.step()\n"
            "            batch_sum = loss.detach() * x.shape[0]\n"
            "            window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]\n"
            "            epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]\n"
            "            if step % log_every == 0:\n"
            "                logs.append((window_sum / window_n).item())\n"
            "                window_sum, window_n = 0.0, 0\n"
            "        return logs, (epoch_sum / epoch_n).item()\n"
            "    finally:\n"
            "        torch.set_float32_matmul_precision(previous)\n"
        ),
    ),
]


MUTANTS += [  # s42 (found41 c12 F2): code a device check guards runs where the counter plays a GPU machine
    dict(
        grade_id="test_train_epoch",
        name="float16_autocast_only_where_the_batch_is_on_a_gpu",
        expect='torch.autocast("cuda", dtype=torch.float16)',
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            '    with torch.autocast(device_type=x.device.type, dtype=torch.float16, enabled=x.device.type != "cpu"):\n'
            "        loss = loss_fn(model(x), y)\n",
            imports="import torch\n",
        ),
    ),
    dict(
        grade_id="test_train_epoch",
        name="synchronize_every_step_where_the_batch_is_cuda",
        mistake="host-sync-every-step",
        expect="torch.cuda.synchronize()",
        code=_epoch_with(
            _STEP, _STEP + "    if x.is_cuda:\n        torch.cuda.synchronize()\n", imports="import torch\n"
        ),
    ),
]


MUTANTS += [  # s42 review (e3): the device waits under names bound before the count
    dict(
        grade_id="test_train_epoch",
        name="torch_cuda_memory_empty_cache_every_step",
        expect="torch.cuda.empty_cache()",
        code=_epoch_with(_STEP, _STEP + "    torch.cuda.memory.empty_cache()\n", imports="import torch\n"),
    ),
    dict(
        grade_id="test_train_epoch",
        name="empty_cache_imported_by_name_every_step",
        expect="torch.cuda.empty_cache()",
        code=_epoch_with(_STEP, _STEP + "    empty_cache()\n", imports="from torch.cuda import empty_cache\n"),
    ),
    dict(
        grade_id="test_train_epoch",
        name="synchronize_imported_by_name_every_step_where_there_is_a_gpu",
        mistake="host-sync-every-step",
        expect="torch.cuda.synchronize()",
        code=_epoch_with(
            _STEP,
            _STEP + "    if torch.cuda.is_available():\n        synchronize()\n",
            imports="import torch\nfrom torch.cuda import synchronize\n",
        ),
    ),
]


MUTANTS += [  # s42 review (e3): autocast on whatever device the batch is on (it read "cpu" and was told it synced)
    dict(
        grade_id="test_train_epoch",
        name="bfloat16_autocast_on_the_batchs_device_type",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code=_epoch_with(
            "    loss = loss_fn(model(x), y)\n",
            "    with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16):\n"
            "        loss = loss_fn(model(x), y)\n",
            imports="import torch\n",
        ),
    ),
]

CORRECT += [  # s42 review (e3): a cast inside the graph is no copy to the host (its backward was counted as a sync)
    dict(
        grade_id="test_train_epoch",
        name="loss computed in float64 from the float32 model's output",
        code=_epoch_with("loss_fn(model(x), y)", "loss_fn(model(x).double(), y.double())"),
    ),
]


CORRECT += [  # s42 second pass (f3): a device rebuilt from the input's device is that device (it was told "cuda yourself")
    dict(
        grade_id="test_epoch_mean_loss",
        name="accumulators on torch.device(loss.device.type, loss.device.index)",
        code='def epoch_mean_loss(losses, targets, ignore_index=-100):\n    if not losses:\n        return float("nan")\n    dev = torch.device(losses[0].device.type, losses[0].device.index)\n    total = torch.zeros((), device=dev)\n    count = torch.zeros((), dtype=torch.long, device=dev)\n    for loss, target in zip(losses, targets):\n        kept = (target != ignore_index).sum()\n        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)\n        count = count + kept\n    return (total / count).item()\n',
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulator on torch.device(str(losses[0].device))",
        code="def log_running_loss(losses, batch_sizes, log_every):\n    if len(losses) < log_every:\n        return []\n    dev = torch.device(str(losses[0].device))\n    windows = []\n    window_sum, window_n = torch.zeros((), device=dev), 0\n    for step, (loss, n) in enumerate(zip(losses, batch_sizes), start=1):\n        window_sum = window_sum + loss.detach() * n\n        window_n += n\n        if step % log_every == 0:\n            windows.append(window_sum / window_n)\n            window_sum, window_n = torch.zeros((), device=dev), 0\n    return torch.stack(windows).tolist()\n",
    ),
]


MUTANTS += [  # s43 second pass (f3): a GPU path guarded by what the played GPU did not answer yet
    dict(  # f3 cand02
        grade_id="test_train_epoch",
        name="loss.item() printed every step under `if torch.cuda.is_initialized():` (true on any GPU run)",
        expect="同步 (sync) 次数太多",
        code='def train_epoch(model, loss_fn, optimizer, batches, log_every):\n    model.train()\n    logs = []\n    window_sum, window_n = 0.0, 0\n    epoch_sum, epoch_n = 0.0, 0\n    for step, (x, y) in enumerate(batches, start=1):\n        optimizer.zero_grad()\n        loss = loss_fn(model(x), y)\n        loss.backward()\n        optimizer.step()\n        if torch.cuda.is_initialized():  # GPU run: show live progress\n            print(f"step {step}: {loss.item():.4f}")\n        batch_size = x.shape[0]\n        batch_sum = loss.detach() * batch_size\n        window_sum, window_n = window_sum + batch_sum, window_n + batch_size\n        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size\n        if step % log_every == 0:\n            logs.append((window_sum / window_n).item())\n            window_sum, window_n = 0.0, 0\n    return logs, (epoch_sum / epoch_n).item()\n',
    ),
    dict(  # f3 cand05
        grade_id="test_epoch_mean_loss",
        name="kept.item() per batch on the path taken when loss.type() names a cuda tensor",
        expect="最多只能同步 1 次",
        code='def epoch_mean_loss(losses, targets, ignore_index=-100):\n    total, count = 0.0, 0\n    for loss, target in zip(losses, targets):\n        kept = (target != ignore_index).sum()\n        if loss.type().startswith("torch.cuda"):   # on the GPU: skip the nan batches on the host\n            if kept.item() == 0:\n                continue\n            total = total + loss.detach() * kept\n        else:\n            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)\n        count = count + kept\n    if not losses:\n        return float("nan")\n    return (total / count).item()\n',
    ),
]


MUTANTS += [  # s43 second pass (f3 cand12): the caller's loss module changed and never put back
    dict(
        grade_id="test_train_epoch",
        name="loss_fn.reduction set to 'sum' on the caller's loss module, the sum divided by hand",
        expect="reduction 从 'mean' 变成了 'sum'",
        code='def train_epoch(model, loss_fn, optimizer, batches, log_every):\n    model.train()\n    loss_fn.reduction = "sum"  # sum over the batch, so that the weighting by batch size is exact\n    logs = []\n    window_sum, window_n = 0.0, 0\n    epoch_sum, epoch_n = 0.0, 0\n    for step, (x, y) in enumerate(batches, start=1):\n        optimizer.zero_grad()\n        out = model(x)\n        loss_sum = loss_fn(out, y)\n        loss = loss_sum / out.numel()\n        loss.backward()\n        optimizer.step()\n        batch_size = x.shape[0]\n        batch_sum = loss.detach() * batch_size\n        window_sum, window_n = window_sum + batch_sum, window_n + batch_size\n        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size\n        if step % log_every == 0:\n            logs.append((window_sum / window_n).item())\n            window_sum, window_n = 0.0, 0\n    return logs, (epoch_sum / epoch_n).item()\n',
    ),
]

MUTANTS += [  # stop 45: the grad-mode family of h2's finds (05/06), in the training loop: every call came with grad mode on
    dict(
        grade_id="test_train_epoch",
        name="torch.set_grad_enabled(True) at the top of the epoch, never put back",
        expect="train_epoch 返回之后 grad mode 变了（False -> True）",
        code="""\
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    torch.set_grad_enabled(True)
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_sum = loss.detach() * x.shape[0]
        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]


MUTANTS += [  # stop 45 (lead): no tested loss was nan or inf, so a loss passed through nan_to_num got full marks
    dict(
        grade_id="test_train_epoch",
        name="each batch's loss passed through torch.nan_to_num before it is summed",
        expect="应是 nan，得到 0.0",
        code="""\
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = torch.nan_to_num(loss.detach(), nan=0.0, posinf=0.0) * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="each loss passed through torch.nan_to_num before the window sum",
        expect="发散的一步被藏了起来",
        code="""\
def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + torch.nan_to_num(loss.detach(), nan=0.0, posinf=0.0) * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
]


MUTANTS += [  # stop 46 (j2 cand01, cand08): a write through a bool mask with a device-tensor value syncs on a GPU
    dict(
        grade_id="test_epoch_mean_loss",
        name="empty batches zeroed by weighted[kept == 0] = a device tensor (index_put_ finds the mask with nonzero)",
        expect="布尔掩码赋值 t[mask] = 张量",
        code="""\
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    vals = torch.stack([l.detach() for l in losses])
    kept = torch.stack([(t != ignore_index).sum() for t in targets])
    weighted = vals * kept
    weighted[kept == 0] = torch.zeros((), dtype=weighted.dtype, device=weighted.device)
    return (weighted.sum() / kept.sum()).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="each batch's sum guarded by batch_sum[~isfinite(batch_sum)] = a device zero (a sync per step)",
        expect="布尔掩码赋值 t[mask] = 张量",
        code="""\
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n, epoch_sum, epoch_n = 0.0, 0, 0.0, 0
    zero = None
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_sum = (loss.detach() * x.shape[0]).reshape(1)
        if zero is None:
            zero = torch.zeros((), device=batch_sum.device)
        batch_sum[~torch.isfinite(batch_sum)] = zero   # "skip" a diverged batch in the log
        batch_sum = batch_sum[0]
        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # stop 46 (j2 cand07): the caller's losses detached in place (the judge now sees it as the kernel does)
    dict(
        grade_id="test_log_running_loss",
        name="loss.detach_() on each of the caller's losses to free the graphs",
        expect="requires_grad 从 True 变成了 False",
        mistake="modifies-input",
        code="""\
def log_running_loss(losses, batch_sizes, log_every):
    windows, s, n = [], 0.0, 0
    for step, (loss, bs) in enumerate(zip(losses, batch_sizes), start=1):
        loss.detach_()
        s = s + loss * bs
        n += bs
        if step % log_every == 0:
            windows.append(s / n)
            s, n = 0.0, 0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
]

MUTANTS += [  # stop 47 review (m2): no tested step had a gradient norm above 10
    dict(
        grade_id="test_train_epoch",
        name="clip_grad_norm_(model.parameters(), 10.0) between backward() and step()",
        expect="目标放大 100 倍（梯度范数远大于 10）：训练后的参数不对",
        code=_epoch_with(
            "    loss.backward()\n",
            "    loss.backward()\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)\n",
        ),
    ),
]

MUTANTS += [  # stop 47 review (m2 cand12): an inf loss zeroed before backward, without a sync
    dict(
        grade_id="test_train_epoch",
        name="backward() of torch.where(isfinite(loss), loss, 0): a batch whose loss overflowed is skipped",
        expect="loss 是 inf 的那一步没有更新参数",
        code=_epoch_with(
            "    loss.backward()\n", "    torch.where(torch.isfinite(loss), loss, torch.zeros_like(loss)).backward()\n"
        ),
    ),
]

MUTANTS += [  # stop 48 review (n2 cand12): no train_epoch model had a Dropout
    dict(
        grade_id="test_train_epoch",
        name="the solution inside torch.random.fork_rng(): every epoch replays one Dropout stream",
        expect="丢弃了完全相同的元素",
        code=solution_wrapped(
            "07_item",
            "train_epoch",
            "train_epoch",
            """
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    with torch.random.fork_rng():
        return _train_epoch_solution(model, loss_fn, optimizer, batches, log_every)
""",
        ),
    ),
]

MUTANTS += [  # stop 50 review (r2): code that only a CPU runs; every other case plays a GPU
    dict(
        grade_id="test_epoch_mean_loss",
        name="on the CPU (if not losses[0].is_cuda) Python floats: loss.item() * kept, so an all-ignored batch's nan stays",
        expect="在没有 GPU 的机器上（测试没有扮演 GPU）：得到 nan",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if losses and not losses[0].is_cuda:
        # CPU 上 .item() 不用等 GPU（07 第 5 节）：直接用 Python 数字累加，简单
        total, count = 0.0, 0
        for loss, target in zip(losses, targets):
            kept = int((target != ignore_index).sum())
            total += loss.item() * kept
            count += kept
        return total / count if count else float("nan")
    total, count = 0.0, 0
    for loss, target in zip(losses, targets):
        kept = (target != ignore_index).sum()
        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
        count = count + kept
    if not losses:
        return float("nan")
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="on the CPU (if not losses[0].is_cuda) each step's .item(), non-finite steps left out of the window",
        expect="在没有 GPU 的机器上（测试没有扮演 GPU）",
        code="""
import math


def log_running_loss(losses, batch_sizes, log_every):
    if losses and not losses[0].is_cuda:
        # CPU 上读数值不用等 GPU：逐步 .item()，顺便跳过发散的步，日志曲线不被 nan 毁掉
        logs, window_sum, window_n = [], 0.0, 0
        for step, (loss, n) in enumerate(zip(losses, batch_sizes), start=1):
            value = loss.item()
            if math.isfinite(value):
                window_sum += value * n
                window_n += n
            if step % log_every == 0:
                logs.append(window_sum / window_n if window_n else float("nan"))
                window_sum, window_n = 0.0, 0
        return logs
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="on the CPU (if not next(model.parameters()).is_cuda) the tutorial loop: unweighted running means",
        expect="在没有 GPU 的机器上（测试没有扮演 GPU）再跑一遍同样的测试",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    if not next(model.parameters()).is_cuda:
        # CPU 上 .item() 不用等 GPU：照教程最常见的写法累加 Python 数字
        logs, running, total = [], 0.0, 0.0
        for step, (x, y) in enumerate(batches, start=1):
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            running += loss.item()
            total += loss.item()
            if step % log_every == 0:
                logs.append(running / log_every)
                running = 0.0
        return logs, total / len(batches)
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer a): code that only a CPU runs; every hidden test now runs again with no GPU played, counts kept
    dict(
        grade_id="test_epoch_mean_loss",
        name="a CPU-only torch.nansum drops a diverged batch's nan",
        expect="训练发散了",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    if not losses[0].is_cuda:
        # CPU 上没有同步的代价：一次性向量化；全被忽略的 batch 的 nan 用 nansum 去掉
        values = torch.stack([loss.detach() for loss in losses])
        kept = torch.stack([(t != ignore_index).sum() for t in targets])
        return (torch.nansum(values * kept) / kept.sum()).item()
    total, count = 0.0, 0
    for loss, target in zip(losses, targets):
        kept = (target != ignore_index).sum()
        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
        count = count + kept
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a CPU-only branch sums loss * batch_size without detach()",
        expect="连着多步计算图",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    on_gpu = next(model.parameters()).is_cuda
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        # GPU 上要 detach 才能留在设备上；CPU 上直接累加张量，最后 .item()
        batch_sum = (loss.detach() if on_gpu else loss) * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a CPU-only loss.item() every step",
        expect="同步 (sync) 次数太多",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    on_gpu = next(model.parameters()).is_cuda
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        # CPU 上 .item() 不用等 GPU（07 第 5 节）：每步取回数字，和教程的 running_loss += loss.item() * n 一样
        batch_sum = loss.detach() * batch_size if on_gpu else loss.item() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append(float(window_sum / window_n))
            window_sum, window_n = 0.0, 0
    return logs, float(epoch_sum / epoch_n)
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="a CPU-only int(kept) and loss.item() per batch",
        expect="同步 (sync) 了 7 次",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    if not losses[0].is_cuda:
        # CPU 上 .item() 不用等 GPU：逐个 batch 取回数字，全被忽略的 batch 跳过
        total, count = 0.0, 0
        for loss, target in zip(losses, targets):
            kept = int((target != ignore_index).sum())
            if kept:
                total += loss.item() * kept
                count += kept
        return total / count if count else float("nan")
    total, count = 0.0, 0
    for loss, target in zip(losses, targets):
        kept = (target != ignore_index).sum()
        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
        count = count + kept
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="a CPU-only torch.stack(losses) without detach()",
        expect="连着多步计算图",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    n_logs = len(losses) // log_every
    if n_logs == 0:
        return []
    if not losses[0].is_cuda:
        # CPU：一次向量化算完所有窗口
        values = torch.stack(losses)[: n_logs * log_every]
        sizes = torch.tensor(batch_sizes[: n_logs * log_every], dtype=values.dtype)
        sums = (values * sizes).reshape(n_logs, log_every).sum(dim=1)
        counts = sizes.reshape(n_logs, log_every).sum(dim=1)
        return (sums / counts).tolist()
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    return torch.stack(windows).tolist()
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="a CPU-only .item() at every log point",
        expect="每个 log 点一次 .item()",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    on_gpu = bool(losses) and losses[0].is_cuda
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            # CPU 上 .item() 不花时间：直接在 log 点取回数字；GPU 上留到最后一次 .tolist()
            windows.append(window_sum / window_n if on_gpu else (window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    if not windows:
        return []
    return torch.stack(windows).tolist() if on_gpu else windows
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="a CPU-only Python-float path (ZeroDivisionError when nothing is kept)",
        expect="同步 (sync) 了 7 次",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if losses and not losses[0].is_cuda:
        # CPU：Python 数字累加，全被忽略的 batch 跳过
        total, count = 0.0, 0
        for loss, target in zip(losses, targets):
            kept = int((target != ignore_index).sum())
            if kept:
                total += float(loss) * kept
                count += kept
        return total / count
    total, count = 0.0, 0
    for loss, target in zip(losses, targets):
        kept = (target != ignore_index).sum()
        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
        count = count + kept
    if not losses:
        return float("nan")
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a CPU-only bfloat16 autocast around the forward",
        expect="bfloat16",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        # CPU 上用 bfloat16 autocast 加速（GPU 上按题目保持 float32）
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=not x.is_cuda):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

CORRECT += [  # stop 51 (reviewer a cand31): one non_blocking copy_ into pinned memory and one wait are one sync
    dict(
        grade_id="test_log_running_loss",
        name="windows stacked, one copy_ into pinned memory with non_blocking=True, one stream synchronize, then tolist",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    if not windows:
        return []
    out = torch.stack(windows)
    # 拷到页锁定的主机内存（异步），等这一次拷贝完成（唯一的同步），再在主机上读
    host = torch.empty(out.shape, dtype=out.dtype, pin_memory=torch.cuda.is_available())
    host.copy_(out, non_blocking=True)
    if out.is_cuda:
        torch.cuda.current_stream(out.device).synchronize()
    return host.tolist()
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer a): a long epoch with logging on
    dict(
        grade_id="test_train_epoch",
        name="a per-step logger.info('%.4f', loss.detach()): a sync per step once logging is on",
        expect="发生在 Python 的 logging 里",
        code="""
import logging

logger = logging.getLogger("train")


def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        logger.info("step %d: loss %.4f", step, loss.detach())  # 调用者打开 INFO 日志时能看到每一步
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a progress loss.item() every 100 steps, beyond the log points",
        expect="150 个 batch",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if step % 100 == 0:  # 每 100 步打印一次进度，看看训练还活着
            print(f"step {step}: loss {loss.item():.4f}")
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # stop 53: train_epoch's checks run a third time, on a played GPU
    dict(
        grade_id="test_train_epoch",
        name="GPU-only nan_to_num: diverged batches logged as 0 on a GPU (s53 a cand07)",
        expect="输入都在 GPU 上时",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()

        batch_size = x.shape[0]
        value = loss.detach()
        if value.is_cuda:
            # GPU 上不能用 if 跳过发散的 batch（每步一次同步）：在设备上把 nan / inf 记成 0，日志曲线不被一个坏 batch 毁掉
            value = torch.nan_to_num(value, nan=0.0, posinf=0.0, neginf=0.0)
        batch_sum = value * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="GPU-only: an overflowed step's loss replaced by 0 before backward (s53 a cand11)",
        expect="输入都在 GPU 上时",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        if loss.is_cuda:
            # GPU 上不能用 if 跳过溢出的 batch（同步）：在设备上把不是有限值的 loss 换成 0 再 backward，这一步就不更新
            loss = torch.where(torch.isfinite(loss), loss, torch.zeros_like(loss))
        loss.backward()
        optimizer.step()

        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="GPU-only torch.set_grad_enabled(True) inside the caller's no_grad (s53 a cand15)",
        expect="输入都在 GPU 上时",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    if batches and batches[0][0].is_cuda:
        # 调用者可能还在 no_grad 里（例如刚评估完）：GPU 上白跑前向再在 backward 报错太浪费，先把梯度打开
        torch.set_grad_enabled(True)
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # stop 55 reviewer a cand16: no test model had a parameter without a gradient
    dict(
        grade_id="test_train_epoch",
        name="optimizer.zero_grad(set_to_none=False): a parameter without a gradient is still moved",
        expect="清梯度时留下了全零的 .grad",
        code='''
import torch
from torch import nn

def train_epoch(
    model: nn.Module,
    loss_fn,
    optimizer: torch.optim.Optimizer,
    batches: list[tuple[torch.Tensor, torch.Tensor]],
    log_every: int,
) -> tuple[list[float], float]:
    """训练一轮；返回 (每 log_every 步的窗口平均 loss, epoch 平均 loss)，都是 Python float，按样本加权。"""
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad(set_to_none=False)
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()

        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
''',
    ),
]

MUTANTS += [  # stop 55 reviewer e cand02: the log points must sync on the spot (live progress)
    dict(
        grade_id="test_train_epoch",
        name="every window kept on the device and read back in one stack at the end (no sync at the log points)",
        expect="这个窗口的平均没有当场取回",
        code='''
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    """训练一轮；返回 (每 log_every 步的窗口平均 loss, epoch 平均 loss)，都是 Python float，按样本加权。"""
    model.train()
    sums, sizes = [], []
    for x, y in batches:
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        sums.append(loss.detach() * x.shape[0])
        sizes.append(x.shape[0])
    # every number is only needed at the end: one stack, one sync for everything
    n_logs = len(sums) // log_every
    windows = [sum(sums[k * log_every:(k + 1) * log_every]) / sum(sizes[k * log_every:(k + 1) * log_every]) for k in range(n_logs)]
    everything = torch.stack(windows + [sum(sums) / sum(sizes)]).tolist()
    return everything[:-1], everything[-1]
''',
    ),
]

MUTANTS += [  # stop 56 reviewer i 1: the spare parameter on a played GPU too
    dict(
        grade_id="test_train_epoch",
        name="GPU-only optimizer.zero_grad(set_to_none=not x.is_cuda): a spare parameter moved on a GPU",
        expect="输入都在 GPU 上时",
        code="""
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        # GPU 上保留梯度缓冲区，省掉每步重新分配显存；CPU 上按默认设成 None
        optimizer.zero_grad(set_to_none=not x.is_cuda)
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # stop 56 reviewer i 9-10: every sync count with logging on
    dict(
        grade_id="test_log_running_loss",
        name="a logger.debug of each window's device mean",
        expect="同步 (sync) 次数太多",
        code="""
import logging

logger = logging.getLogger("train.log")


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            logger.debug("window ending at step %d: %.4f", step, windows[-1])  # 打开 DEBUG 日志时看每个窗口
            window_sum, window_n = 0.0, 0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="a per-batch logger.debug of the device count and loss",
        expect="同步 (sync) 了",
        code="""
import logging

logger = logging.getLogger("train.epoch")


def epoch_mean_loss(losses, targets, ignore_index=-100):
    total, count = 0.0, 0
    for b, (loss, target) in enumerate(zip(losses, targets)):
        kept = (target != ignore_index).sum()
        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
        count = count + kept
        logger.debug("batch %d: %d targets kept, loss %.4f", b, kept, loss.detach())
    if not losses:
        return float("nan")
    return (total / count).item()
""",
    ),
]

MUTANTS += [  # stop 57 reviewer q (round 3): grad mode forced on in a caller's no_grad
    dict(
        grade_id="test_log_running_loss",
        name="grad_mode_toggled_off_then_forced_on",
        expect="log_running_loss 返回之后 grad mode 变了",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    torch.set_grad_enabled(False)  # the sums are for logging only: no graph
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    torch.set_grad_enabled(True)  # back on for training
    return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="grad_mode_toggled_off_then_forced_on",
        expect="epoch_mean_loss 返回之后 grad mode 变了",
        code="""
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    torch.set_grad_enabled(False)  # logging only: no graph for the sums
    total, count = 0.0, 0
    for loss, target in zip(losses, targets):
        kept = (target != ignore_index).sum()
        total = total + torch.where(kept > 0, loss * kept, 0.0)
        count = count + kept
    torch.set_grad_enabled(True)  # back on for training
    return (total / count).item()
""",
    ),
]

MUTANTS += [  # stop 58 round 5 (d): the message says what differed (a layer in eval mode), both ways there
    dict(
        grade_id="test_train_epoch",
        name="training_attribute_set_true_on_the_top_only",
        expect="给 model.training 赋值只改模型自己这一个属性",
        code="""
_orig_train_epoch = train_epoch
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.training = True  # the last evaluation may have left it in eval mode
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # stop 58 round 6 (d): the model's own mode
    dict(
        grade_id="test_train_epoch",
        name="children_switched_to_train_not_the_model_itself",
        expect="forward 时模型自己 (model.training) 在评估模式",
        code="""
# 07 train_epoch: children().train() instead of model.train() (plain spelling of n2)
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    for child in model.children():
        child.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

CORRECT += [  # stop 58 round 6 (a): a non_blocking copy waited for: no copy at all without a GPU (were told no sync point)
    dict(
        grade_id="test_log_running_loss",
        name="non_blocking_copy_then_a_sync_of_its_gpu",
        code="""
# RIGHT answer (control for a false failure): one non_blocking copy of the windows to the host, and when the windows
# are on a GPU a synchronize() of THAT GPU before reading; on a CPU-only machine .to("cpu") is no copy at all
def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    if not windows:
        return []
    stacked = torch.stack(windows)
    host = stacked.to("cpu", non_blocking=True)
    if stacked.is_cuda:
        torch.cuda.synchronize(stacked.device)
    return host.tolist()
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="non_blocking_copy_then_a_sync_of_its_gpu",
        code="""
# RIGHT answer (control): epoch mean copied with non_blocking=True, synchronize() of its GPU when on a GPU, then .item()
def epoch_mean_loss(losses, targets, ignore_index=-100):
    total, count = 0.0, 0
    for loss, target in zip(losses, targets):
        kept = (target != ignore_index).sum()
        total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
        count = count + kept
    if not losses:
        return float("nan")
    mean = total / count
    host = mean.to("cpu", non_blocking=True)
    if mean.is_cuda:
        torch.cuda.synchronize(mean.device)
    return host.item()
""",
    ),
]


MUTANTS += [  # stop 59 (round 6 a: c20, c21): an event recorded before the non_blocking copy to the host covers none of it
    dict(
        grade_id="test_log_running_loss",
        name="windows_copied_non_blocking_after_the_event_it_waits_for_was_recorded",
        mistake="unsynced-host-copy-read",
        expect="读之前没有等到这次拷贝完成的同步",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    if not windows:
        return []
    stacked = torch.stack(windows)
    ready = torch.cuda.Event() if stacked.is_cuda else None
    if ready is not None:
        ready.record()
    host = stacked.to('cpu', non_blocking=True)
    if ready is not None:
        ready.synchronize()
    return host.tolist()
""",
    ),
]

CORRECT += [  # stop 59 (round 6 a: c20, c21): an event recorded before the non_blocking copy to the host covers none of it (right answers)
    dict(
        grade_id="test_log_running_loss",
        name="windows_copied_non_blocking_then_an_event_recorded_after_the_copy_waited_for",
        code="""
def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    if not windows:
        return []
    stacked = torch.stack(windows)
    ready = torch.cuda.Event() if stacked.is_cuda else None
    host = stacked.to('cpu', non_blocking=True)
    if ready is not None:
        ready.record()
        ready.synchronize()
    return host.tolist()
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 a c05-c07, c11; c c11, c12, c16, c21-c23): played streams order work as CUDA does
    dict(
        grade_id="test_epoch_mean_loss",
        name="sums_on_a_side_stream_that_never_waited_for_the_losses",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 07 epoch_mean_loss: sums on a side stream that never waits for the stream that made the losses; .item() inside
import contextlib
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
        total, count = 0.0, 0
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
        return (total / count).item()
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="windows_on_a_side_stream_that_never_waited_for_the_losses",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 07 log_running_loss: windows on a side stream that never waits for the stream that made the losses
import contextlib
def log_running_loss(losses, batch_sizes, log_every):
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
        windows = []
        window_sum, window_n = 0.0, 0
        for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
            window_sum = window_sum + loss.detach() * batch_size
            window_n += batch_size
            if step % log_every == 0:
                windows.append(window_sum / window_n)
                window_sum, window_n = 0.0, 0
        return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="the_epoch_on_a_side_stream_that_never_waited_for_the_caller",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 07 train_epoch: the epoch on a side stream that never waits for the caller's stream; logs read on it
import contextlib
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
        logs = []
        window_sum, window_n = 0.0, 0
        epoch_sum, epoch_n = 0.0, 0
        for step, (x, y) in enumerate(batches, start=1):
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            batch_size = x.shape[0]
            batch_sum = loss.detach() * batch_size
            window_sum, window_n = window_sum + batch_sum, window_n + batch_size
            epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
            if step % log_every == 0:
                logs.append((window_sum / window_n).item())
                window_sum, window_n = 0.0, 0
        result = logs, (epoch_sum / epoch_n).item()
    if side is not None:
        torch.cuda.current_stream().wait_stream(side)
    return result
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="with_side_stream_entered_as_a_context_no_waits",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 07 train_epoch: logging math on a side stream entered with `with side:` (torch.Stream's own context manager),
# accumulators read with .item() on the current stream with no wait at all (same race as c08, other spelling)
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        if side is not None:
            with side:
                batch_sum = loss.detach() * batch_size
                window_sum, epoch_sum = window_sum + batch_sum, epoch_sum + batch_sum
        else:
            batch_sum = loss.detach() * batch_size
            window_sum, epoch_sum = window_sum + batch_sum, epoch_sum + batch_sum
        window_n, epoch_n = window_n + batch_size, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="with_side_stream_entered_as_a_context_no_waits",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# epoch_mean_loss: the sums on a side stream entered as `with side:` (torch.Stream's own context manager makes it the
# current stream, like torch.cuda.stream(side)); no wait either way: the current stream's division and .item() race
# the side stream, and the side stream reads losses the current stream may not have finished.
import contextlib


def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = torch.cuda.Stream() if losses[0].is_cuda else None
    total, count = 0.0, 0
    with side if side is not None else contextlib.nullcontext():  # accumulate beside the training stream
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="side_stream_reads_the_losses_before_waiting_for_the_current_stream",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# epoch_mean_loss: sums on a side stream (torch.cuda.stream), the current stream waits for it before the division, but
# the side stream never waits for the current one: it reads the losses / targets the current stream may still be computing.
import contextlib


def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = torch.cuda.Stream() if losses[0].is_cuda else None
    total, count = 0.0, 0
    with torch.cuda.stream(side) if side is not None else contextlib.nullcontext():
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
    if side is not None:
        torch.cuda.current_stream().wait_stream(side)
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="current_stream_wait_written_inside_the_side_block",
        expect="当前 stream 没有先等那条 stream",
        code="""
# epoch_mean_loss: sums on a side stream, and the wait written INSIDE the `with torch.cuda.stream(side):` block: there
# torch.cuda.current_stream() IS the side stream, so this is side.wait_stream(side), a no-op; the division and .item()
# on the caller's stream after the block race the side stream. (The played current_stream() answers the default stream
# even inside the block.)
import contextlib


def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = torch.cuda.Stream() if losses[0].is_cuda else None
    total, count = 0.0, 0
    with torch.cuda.stream(side) if side is not None else contextlib.nullcontext():
        if side is not None:
            side.wait_stream(torch.cuda.default_stream())  # the losses come from the training stream
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
        if side is not None:
            torch.cuda.current_stream().wait_stream(side)  # inside the block: current_stream() is `side`
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="side_stream_through_StreamContext_no_waits",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# epoch_mean_loss: sums on a side stream entered with torch.cuda.StreamContext(side) (the class torch.cuda.stream(side)
# returns), and no wait either way: a race, as with torch.cuda.stream(side) and no wait (caught, k11).
import contextlib


def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = torch.cuda.Stream() if losses[0].is_cuda else None
    total, count = 0.0, 0
    with torch.cuda.StreamContext(side) if side is not None else contextlib.nullcontext():
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
    return (total / count).item()
""",
    ),
]


CORRECT += [  # stop 59 (round 7 a c05-c07, c11; c c11, c12, c16, c21-c23): played streams order work as CUDA does (right answers)
    dict(
        grade_id="test_epoch_mean_loss",
        name="side_stream_set_with_set_stream_waits_both_ways",
        code="""
# RIGHT epoch_mean_loss on a side stream switched with torch.cuda.set_stream (both waits, stream restored): false failure?
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = torch.cuda.Stream() if losses[0].is_cuda else None
    total, count = 0.0, 0
    if side is not None:
        main = torch.cuda.current_stream()
        side.wait_stream(main)
        torch.cuda.set_stream(side)
    try:
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
    finally:
        if side is not None:
            torch.cuda.set_stream(main)
    if side is not None:
        main.wait_stream(side)
    return (total / count).item()
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="side_stream_through_StreamContext_waits_both_ways",
        code="""
# RIGHT epoch_mean_loss on a side stream entered with torch.cuda.StreamContext (both waits): false failure?
import contextlib


def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = torch.cuda.Stream() if losses[0].is_cuda else None
    total, count = 0.0, 0
    if side is not None:
        side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.StreamContext(side) if side is not None else contextlib.nullcontext():
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
    if side is not None:
        torch.cuda.current_stream().wait_stream(side)
    return (total / count).item()
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 a: c23): bf16 autocast behind a flag the cell computed
    dict(
        grade_id="test_train_epoch",
        name="bf16_autocast_behind_a_cell_time_on_gpu_flag",
        expect='torch.autocast("cuda", dtype=torch.bfloat16) 里运行',
        code="""
# 07 train_epoch: bf16 autocast (banned by the prose) behind a flag computed once when the cell runs
import contextlib
_ON_GPU = torch.cuda.is_available()
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if _ON_GPU else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 a: c18): model.train() only the first time a model is seen
    dict(
        grade_id="test_train_epoch",
        name="model_train_only_on_a_models_first_epoch",
        mistake="missing-model-train",
        expect="第二次调用时",
        code="""
# 07 train_epoch: model.train() only on the first epoch of each model (WeakSet memo)
import weakref
_IN_TRAIN_MODE = weakref.WeakSet()
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    if model not in _IN_TRAIN_MODE:
        model.train()
        _IN_TRAIN_MODE.add(model)
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]


MUTANTS += [  # round 8 a: a wait carries its position (a side stream's one wait before the loop, a stream cached between calls, an event recorded too early), and a flag set in an if block
    dict(
        grade_id="test_train_epoch",
        name="sums on a side stream that waited for the current stream once, before the loop",
        expect="在另一条 CUDA stream 上",
        code="""
# 07 train_epoch: window/epoch sums kept on a side stream (logging off the critical path); the side stream waits
# for the current stream ONCE, before the loop, so each step's loss is read there before the step that makes it is done
import contextlib
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    if side is not None:
        side.wait_stream(torch.cuda.current_stream())
    block = (lambda: torch.cuda.stream(side)) if side is not None else contextlib.nullcontext
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        with block():
            batch_sum = loss.detach() * batch_size
            window_sum, window_n = window_sum + batch_sum, window_n + batch_size
            epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
            if step % log_every == 0:
                logs.append((window_sum / window_n).item())
                window_sum, window_n = 0.0, 0
    with block():
        mean = (epoch_sum / epoch_n).item()
    return logs, mean
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="a side stream cached between calls, made to wait only on the first call",
        expect="在另一条 CUDA stream 上",
        code="""
# 07 log_running_loss: one module-level side stream, made (and made to wait for the current stream) on the first call
# only; later calls reuse it without waiting, so the caller's newer losses are read before they are computed
import contextlib
_LOG_STREAM = []
def log_running_loss(losses, batch_sizes, log_every):
    side = None
    if torch.cuda.is_available():
        if not _LOG_STREAM:
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            _LOG_STREAM.append(s)
        side = _LOG_STREAM[0]
    with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
        windows = []
        window_sum, window_n = 0.0, 0
        for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
            window_sum = window_sum + loss.detach() * batch_size
            window_n += batch_size
            if step % log_every == 0:
                windows.append(window_sum / window_n)
                window_sum, window_n = 0.0, 0
        return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="a side stream cached between calls, made to wait only on the first call",
        expect="在另一条 CUDA stream 上",
        code="""
# 07 epoch_mean_loss: a cached side stream that waited for the current stream only when it was made (first call)
import contextlib
_MEAN_STREAM = []
def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    side = None
    if torch.cuda.is_available():
        if not _MEAN_STREAM:
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            _MEAN_STREAM.append(s)
        side = _MEAN_STREAM[0]
    with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
        total, count = 0.0, 0
        for loss, target in zip(losses, targets):
            kept = (target != ignore_index).sum()
            total = total + torch.where(kept > 0, loss.detach() * kept, 0.0)
            count = count + kept
        return (total / count).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="the side stream waits for an event recorded before each step's forward",
        expect="在另一条 CUDA stream 上",
        code="""
# 07 train_epoch: sums on a side stream that, each step, waits for an event recorded on the current stream at the
# START of the step (before the forward): the event marks none of the step's work, so on a GPU the side stream reads
# loss.detach() before the forward that computes it has run.
import contextlib
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    block = (lambda: torch.cuda.stream(side)) if side is not None else contextlib.nullcontext
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        if side is not None:
            step_start = torch.cuda.Event()
            step_start.record()
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        if side is not None:
            side.wait_event(step_start)
        with block():
            batch_sum = loss.detach() * batch_size
            window_sum, window_n = window_sum + batch_sum, window_n + batch_size
            epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
            if step % log_every == 0:
                logs.append((window_sum / window_n).item())
                window_sum, window_n = 0.0, 0
    with block():
        mean = (epoch_sum / epoch_n).item()
    return logs, mean
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="bfloat16 autocast behind USE_AMP set in a top-level if block",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""
# 07 train_epoch: bf16 autocast (banned by the prose) behind a flag set in a top-level if-block when the cell runs
# (the usual "USE_AMP = False / if torch.cuda.is_available(): USE_AMP = True" notebook idiom)
import contextlib
USE_AMP = False
if torch.cuda.is_available():
    USE_AMP = True
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if USE_AMP else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]


MUTANTS += [  # round 8 a c17, c27: the current stream waits for an event recorded before the side work; bfloat16 autocast picked through a table of backends' is_available
    dict(
        grade_id="test_log_running_loss",
        name="the current stream waits for an event recorded on the side stream before the sums were queued",
        expect="当前 stream 没有先等那条 stream",
        code="""
# 07 log_running_loss: windows computed on a side stream (which waits for the current stream first, correctly); the
# current stream then waits for an event recorded on the side stream BEFORE the windows were queued there, so on a GPU
# the final stack + .tolist() on the current stream can read windows the side stream has not computed yet.
import contextlib
def log_running_loss(losses, batch_sizes, log_every):
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    if side is not None:
        side.wait_stream(torch.cuda.current_stream())
    windows = []
    with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
        if side is not None:
            done = torch.cuda.Event()
            done.record()
        window_sum, window_n = 0.0, 0
        for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
            window_sum = window_sum + loss.detach() * batch_size
            window_n += batch_size
            if step % log_every == 0:
                windows.append(window_sum / window_n)
                window_sum, window_n = 0.0, 0
    if side is not None:
        torch.cuda.current_stream().wait_event(done)
        for w in windows:
            w.record_stream(torch.cuda.current_stream())
    return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="bfloat16 autocast picked through a tuple of the backends' is_available functions",
        expect='torch.autocast("cuda", dtype=torch.bfloat16)',
        code="""
# 07 train_epoch: bf16 autocast (banned) on CUDA machines, the machine asked at each call through a table of the
# backends' availability functions (a common "pick the accelerator" helper). The table holds the functions themselves
# (a tuple of pairs), which learner_names_rebound does not walk: in the judge the real is_available() answers.
import contextlib
_BACKENDS = (("cuda", torch.cuda.is_available), ("mps", torch.backends.mps.is_available))
def _accelerator():
    for name, available in _BACKENDS:
        if available():
            return name
    return "cpu"
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    amp = _accelerator() == "cuda"
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if amp else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]


MUTANTS += [  # round 9 a c29: a per-step sync behind SYNC_EVERY = 1 if HAVE_GPU else 0
    dict(
        grade_id="test_train_epoch",
        name="torch.cuda.synchronize() every step behind SYNC_EVERY = 1 if HAVE_GPU else 0",
        expect="同步 (sync) 次数太多",
        code="""
# 07 train_epoch: torch.cuda.synchronize() every SYNC_EVERY steps (known wrong: host-sync-every-step), an int derived
# at cell time from a replayed flag

HAVE_GPU = torch.cuda.is_available()
SYNC_EVERY = 1 if HAVE_GPU else 0  # steps between syncs ("so the timings per step are honest")
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if SYNC_EVERY and step % SYNC_EVERY == 0:
            torch.cuda.synchronize()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]


MUTANTS += [  # round 10 a: GPU-only autocast behind top-level spellings cellflags now replays
    dict(
        grade_id="test_train_epoch",
        name="an autocast-or-nullcontext object made once at the top level",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast (banned by the prose) behind the nanoGPT idiom: a context object made once at the top
# level, `ctx = nullcontext() if no GPU else torch.autocast(...)`; the function just enters it.
import contextlib
AMP_CTX = torch.autocast("cuda", dtype=torch.bfloat16) if torch.cuda.is_available() else contextlib.nullcontext()
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with AMP_CTX:
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="an autocast context computed from a replayed flag",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast (banned by the prose) behind the nanoGPT idiom: a context object made once at the top
# level, `ctx = nullcontext() if no GPU else torch.autocast(...)`; the function just enters it.
import contextlib
USE_AMP = False
if torch.cuda.is_available():
    USE_AMP = True
AMP_CTX = torch.autocast("cuda", dtype=torch.bfloat16) if USE_AMP else contextlib.nullcontext()
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with AMP_CTX:
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="an Enum member picked once",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind an Enum member picked once at the top level
import contextlib, enum
class Precision(enum.Enum):
    FP32 = "fp32"
    BF16 = "bf16"
PRECISION = Precision.BF16 if torch.cuda.is_available() else Precision.FP32
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if PRECISION is Precision.BF16 else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a flag set in a top-level match statement",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind a flag set by a top-level match statement
import contextlib
match torch.cuda.is_available():
    case True:
        AMP_DTYPE = torch.bfloat16
    case _:
        AMP_DTYPE = None
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=AMP_DTYPE) if AMP_DTYPE is not None else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a config dict printed with items()",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind a config dict (never changed), printed at the top level with .items()
import contextlib
CONFIG = {"amp": torch.cuda.is_available(), "amp_dtype": torch.bfloat16}
for k, v in CONFIG.items():
    print(f"{k} = {v}")
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=CONFIG["amp_dtype"]) if CONFIG["amp"] else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="USE_AMP = DEVICE.startswith('cuda')",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind USE_AMP computed at the top level from the DEVICE string with a str method
import contextlib
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
USE_AMP = DEVICE.startswith("cuda")
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if USE_AMP else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a flag bound beside a name a later line binds again",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind USE_AMP set in a top-level if/else that also picks the device name,
# which the next line turns into a torch.device
import contextlib
if torch.cuda.is_available():
    device_name, USE_AMP = "cuda", True
else:
    device_name, USE_AMP = "cpu", False
device_name = torch.device(device_name)
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if USE_AMP else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="autocast keyword arguments in a dict computed from a flag",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast through autocast keyword arguments kept in a dict built from a GPU flag
import contextlib
HAS_GPU = torch.cuda.is_available()
AMP_KW = {"enabled": HAS_GPU, "dtype": torch.bfloat16}
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with torch.autocast("cuda", **AMP_KW):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="an if block that also binds a name the CPU never bound",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind USE_AMP set in an if block that also names the GPU
import contextlib
USE_AMP = False
if torch.cuda.is_available():
    USE_AMP = True
    GPU_NAME = torch.cuda.get_device_name(0)
    print("GPU:", GPU_NAME)
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if USE_AMP else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="a flag asked again in a later cell",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind AMP_DTYPE computed from a GPU flag that a later cell asks for again
# (a notebook whose sections each start with the same setup line)
import contextlib
HAS_GPU = torch.cuda.is_available()
AMP_DTYPE = torch.bfloat16 if HAS_GPU else None

# ... a later section's setup cell
HAS_GPU = torch.cuda.is_available()
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=AMP_DTYPE) if AMP_DTYPE is not None else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="the device made again in a later cell",
        expect="torch.autocast",
        code="""
# 07 train_epoch: bf16 autocast behind USE_AMP computed from the notebook's device, which a later cell makes again
import contextlib
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
USE_AMP = device.type == "cuda"

# ... a later cell (the training section) picks the device again
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with (torch.autocast("cuda", dtype=torch.bfloat16) if USE_AMP else contextlib.nullcontext()):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="GradScaler(device='cuda') with float16 autocast",
        expect="torch.autocast",
        code="""
# 07 train_epoch: float16 mixed precision with a GradScaler made once at the top level with the keyword spelling
# torch.amp.GradScaler(device="cuda") (enabled by itself where CUDA is available, disabled with a warning elsewhere);
# the forward's autocast follows the scaler: fp16 autocast + loss scaling on every GPU machine (banned by the prose).
SCALER = torch.amp.GradScaler(device="cuda")
def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with torch.autocast("cuda", dtype=torch.float16, enabled=SCALER.is_enabled()):
            loss = loss_fn(model(x), y)
        SCALER.scale(loss).backward()
        SCALER.step(optimizer)
        SCALER.update()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]


MUTANTS += [  # round 10 b: GPU-only paths behind a top-level context and DEVICE string methods
    dict(
        grade_id="test_train_epoch",
        name="bfloat16 autocast through a top-level nullcontext-or-autocast object (b)",
        expect="torch.autocast",
        code="""
import contextlib
# picked once, nanoGPT style: bfloat16 autocast where there is a GPU, nothing on the CPU
CTX = contextlib.nullcontext() if not torch.cuda.is_available() else torch.autocast("cuda", dtype=torch.bfloat16)


def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        with CTX:
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="an .item() per window behind print(DEVICE.upper())",
        expect="同步",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
print("losses live on", DEVICE.upper())
ON_GPU = DEVICE == "cuda"


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            mean = window_sum / window_n
            windows.append(mean.item() if ON_GPU else mean)  # on a GPU: free the device tensor at once
            window_sum, window_n = 0.0, 0
    if ON_GPU:
        return windows
    return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_train_epoch",
        name="torch.cuda.synchronize() per step behind DEVICE.startswith('cuda')",
        expect="同步",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
IS_GPU = DEVICE.startswith("cuda")


def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    step_times = []
    for step, (x, y) in enumerate(batches, start=1):
        t0 = time.perf_counter()
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if IS_GPU:
            torch.cuda.synchronize()  # GPU work is asynchronous: wait for it so the step time is real
        step_times.append(time.perf_counter() - t0)
        batch_size = x.shape[0]
        batch_sum = loss.detach() * batch_size
        window_sum, window_n = window_sum + batch_sum, window_n + batch_size
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + batch_size
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()
""",
    ),
]

MUTANTS += [  # round 13 c c01: the grader's own uncounted() block around a loop of .item() calls
    dict(
        grade_id="test_epoch_mean_loss",
        name="the loop of .item() inside course.scenarios.uncounted()",
        expect="同步 (sync) 了 6 次",
        code="""import course.scenarios as _cs
def epoch_mean_loss(losses, targets, ignore_index=-100):
    with _cs.uncounted():
        total, count = 0.0, 0
        for loss, target in zip(losses, targets):
            kept = int((target != ignore_index).sum())
            if kept:
                total += loss.item() * kept
                count += kept
        return total / count if count else float("nan")
""",
    ),
]

MUTANTS += [  # round 15 b01: an accumulator made once by the cell (no device=) is host memory on a GPU machine, as one made in the call is
    dict(
        grade_id="test_log_running_loss",
        name="module-level torch.zeros(1) accumulator",
        code="""_ZERO = torch.zeros(1)  # made once when the cell runs (on the CPU: no device=)


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = _ZERO.clone(), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum += loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = _ZERO.clone(), 0
    return torch.cat(windows).tolist() if windows else []
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_train_epoch",
        name="module-level torch.zeros(2) accumulator",
        code="""_ZEROS = torch.zeros(2)  # [window sum, epoch sum], made once when the cell runs (on the CPU: no device=)


def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    sums = _ZEROS.clone()
    window_n = epoch_n = 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        n = x.shape[0]
        sums += loss.detach() * n
        window_n += n
        epoch_n += n
        if step % log_every == 0:
            logs.append((sums[0] / window_n).item())
            sums[0] = 0.0
            window_n = 0
    return logs, (sums[1] / epoch_n).item()
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_epoch_mean_loss",
        name="module-level torch.zeros(2) accumulator",
        code="""_ACC = torch.zeros(2)  # [weighted loss sum, kept count], made once when the cell runs (on the CPU: no device=)


def epoch_mean_loss(losses, targets, ignore_index=-100):
    if not losses:
        return float("nan")
    acc = _ACC.clone()
    for loss, target in zip(losses, targets):
        kept = (target != ignore_index).sum()
        acc += torch.stack([torch.where(kept > 0, loss.detach() * kept, 0.0), kept.float()])
    return (acc[0] / acc[1]).item()
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="torch.zeros(1) default argument as accumulator",
        code="""def log_running_loss(losses, batch_sizes, log_every, _zero=torch.zeros(1)):
    windows = []
    window_sum, window_n = _zero.clone(), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum += loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = _zero.clone(), 0
    return torch.cat(windows).tolist() if windows else []
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulator from torch.from_dlpack(np.zeros(1))",
        code="""import numpy as np


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = torch.from_dlpack(np.zeros(1, dtype=np.float32)), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum += loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = torch.from_dlpack(np.zeros(1, dtype=np.float32)), 0
    return torch.cat(windows).tolist() if windows else []
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="accumulator from torch.frombuffer",
        code="""def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = torch.frombuffer(bytearray(4), dtype=torch.float32), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum += loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = torch.frombuffer(bytearray(4), dtype=torch.float32), 0
    return torch.cat(windows).tolist() if windows else []
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="module-level zeros on a hard-coded cpu device",
        code="""DEVICE = torch.device("cpu")
_ZERO = torch.zeros(1, device=DEVICE)


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = _ZERO.clone(), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum += loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = _ZERO.clone(), 0
    return torch.cat(windows).tolist() if windows else []
""",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
    ),
]

CORRECT += [  # round 15 b01: tensors a cell made on the machine's device, or 0-d constants, are no host mix
    dict(
        grade_id="test_log_running_loss",
        name="module-level zeros on DEVICE from is_available()",
        code="""DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
_ZERO = torch.zeros((), device=DEVICE)  # made once, on the machine's device


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = _ZERO.clone(), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = _ZERO.clone(), 0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="module-level 0-d CPU constant",
        code="""_ONE = torch.tensor(1.0)  # a 0-d CPU constant: a CPU scalar mixes with device tensors


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = 0.0, 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size * _ONE
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = 0.0, 0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="module-level zeros moved to a device string",
        code="""device = "cuda" if torch.cuda.is_available() else "cpu"
_ZERO = torch.zeros(()).to(device)


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = _ZERO.clone(), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum = window_sum + loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = _ZERO.clone(), 0
    return torch.stack(windows).tolist() if windows else []
""",
    ),
]

MUTANTS += [  # round 15 b02: a sync per batch in the worker of a pool made (and started) before the count
    dict(
        grade_id="test_epoch_mean_loss",
        name="item() per batch in a module-level pool",
        code="""from concurrent.futures import ThreadPoolExecutor

_POOL = ThreadPoolExecutor(max_workers=1)  # one reader thread for the whole notebook (not a new pool per call)


def epoch_mean_loss(losses, targets, ignore_index=-100):
    def batch_sum(pair):
        loss, target = pair
        kept = int((target != ignore_index).sum())
        return (loss.item() * kept if kept else 0.0), kept

    sums = list(_POOL.map(batch_sum, zip(losses, targets)))
    count = sum(k for _, k in sums)
    return sum(s for s, _ in sums) / count if count else float("nan")


# try it on a tiny example
print(epoch_mean_loss([torch.tensor(0.5), torch.tensor(1.5)], [torch.tensor([0, -100]), torch.tensor([1, 2])]))
""",
        expect="同步 (sync) 了 6 次",
    ),
    dict(
        grade_id="test_log_running_loss",
        name="item() per loss in a module-level pool",
        code="""from concurrent.futures import ThreadPoolExecutor

_READER = ThreadPoolExecutor(max_workers=1)  # a background reader, made once


def log_running_loss(losses, batch_sizes, log_every):
    values = list(_READER.map(lambda loss: loss.item(), losses))
    logs = []
    for end in range(log_every, len(losses) + 1, log_every):
        window = range(end - log_every, end)
        logs.append(sum(values[i] * batch_sizes[i] for i in window) / sum(batch_sizes[i] for i in window))
    return logs


print(log_running_loss([torch.tensor(1.0), torch.tensor(3.0)], [1, 3], 2))
""",
        expect="你的函数同步了 5 次",
    ),
    dict(
        grade_id="test_train_epoch",
        name="divergence check per step in a module-level pool",
        code="""import math
from concurrent.futures import ThreadPoolExecutor

_WATCH = ThreadPoolExecutor(max_workers=1)  # a background watcher for diverged losses, made once


def _warn_if_diverged(step, loss):
    if not math.isfinite(loss.item()):
        print(f"step {step}: loss diverged")


def train_epoch(model, loss_fn, optimizer, batches, log_every):
    model.train()
    logs = []
    window_sum, window_n = 0.0, 0
    epoch_sum, epoch_n = 0.0, 0
    for step, (x, y) in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        _WATCH.submit(_warn_if_diverged, step, loss.detach()).result()
        batch_sum = loss.detach() * x.shape[0]
        window_sum, window_n = window_sum + batch_sum, window_n + x.shape[0]
        epoch_sum, epoch_n = epoch_sum + batch_sum, epoch_n + x.shape[0]
        if step % log_every == 0:
            logs.append((window_sum / window_n).item())
            window_sum, window_n = 0.0, 0
    return logs, (epoch_sum / epoch_n).item()


_WATCH.submit(int).result()  # start the watcher thread now
""",
        expect="你的函数同步了 5 次",
        mistake="host-sync-every-step",
    ),
]


# round 16 b07: a module-level accumulator the cell put on DEVICE (from is_available()) is device memory on a GPU machine
CORRECT += [
    dict(
        grade_id="test_log_running_loss",
        name="_ZERO = torch.zeros(1, device=DEVICE) at module level, cloned per window (r16 b07)",
        code="""DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
_ZERO = torch.zeros(1, device=DEVICE)  # made once, on the machine's device


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = _ZERO.clone(), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum += loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = _ZERO.clone(), 0
    return torch.cat(windows).tolist() if windows else []
""",
    ),
]


# round 16 b01: the CPU accumulator template held in a module-level tuple
MUTANTS += [
    dict(
        grade_id="test_log_running_loss",
        name="(torch.zeros(1), torch.zeros(1)) templates in a module-level tuple (r16 b01)",
        expect="和设备上的张量进了同一个运算",
        mistake="new-tensor-without-device",
        code="""_ACC = (torch.zeros(1), torch.zeros(1))  # (window sum, count) templates, made once on the CPU


def log_running_loss(losses, batch_sizes, log_every):
    windows = []
    window_sum, window_n = _ACC[0].clone(), 0
    for step, (loss, batch_size) in enumerate(zip(losses, batch_sizes), start=1):
        window_sum += loss.detach() * batch_size
        window_n += batch_size
        if step % log_every == 0:
            windows.append(window_sum / window_n)
            window_sum, window_n = _ACC[0].clone(), 0
    return torch.cat(windows).tolist() if windows else []
""",
    ),
]
