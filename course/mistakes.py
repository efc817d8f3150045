"""The catalogue of named mistakes: one stable id behind every misconception a check diagnoses.

A check that proves a misconception raises ``CheckError(message, mistake="id")`` (``course.checks.fail``);
the judge sends the id to the grader beside the message, ``questions.csv`` has it in its ``mistake`` column
and ``python -m autograder report`` counts students by it. A failure that proves no named mistake carries
no id (the grader writes ``unknown``). Ids never change meaning; retire one rather than reuse it.

This module imports nothing but the standard library: the grader's parent process loads it without torch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNKNOWN = "unknown"  # a failure that matched no named mistake
ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class Mistake:
    """One named misconception: its id, short names in Chinese and English, and the hint that fixes it."""

    id: str
    zh: str
    en: str
    hint: str


_ENTRIES = (
    Mistake(
        "not-a-tensor",
        "返回的不是张量",
        "returns something other than a tensor",
        "返回 torch.Tensor：不要返回 list / NumPy 数组 / Python 数字，也别忘了 return。",
    ),
    Mistake(
        "extra-unit-dim",
        "多出一个大小为 1 的维度",
        "an extra dimension of size 1",
        "检查 unsqueeze() 和 keepdim=True：结果的形状应与期望一致，不多一个维度。",
    ),
    Mistake(
        "wrong-dim-order",
        "维度顺序不对",
        "dimensions in the wrong order",
        "permute() / transpose() 的参数是新顺序里每个位置取的旧维度编号。",
    ),
    Mistake(
        "float64-not-float32",
        "得到 float64 而不是 float32",
        "float64 where float32 is expected",
        "torch.tensor(numpy 数组) / from_numpy 保留 float64：写 dtype=torch.float32。",
    ),
    Mistake(
        "labels-not-long",
        "标签不是 torch.long",
        "labels are not torch.long",
        "分类标签和索引用 torch.long (int64)：调用 .long()。",
    ),
    Mistake(
        "int-not-float",
        "得到整数张量而不是浮点张量",
        "an integer tensor where a float one is expected",
        "创建时写 dtype=torch.float32，或调用 .float()；整数列表默认得到 int64。",
    ),
    Mistake(
        "detached-from-graph",
        "结果脱离了计算图",
        "result detached from the autograd graph",
        "需要梯度的计算里不要用 detach()、.item()、torch.no_grad() 或 inference_mode()。",
    ),
    Mistake(
        "still-in-graph",
        "结果还连着计算图",
        "result still attached to the autograd graph",
        "需要脱离计算图时用 detach()，或在 torch.no_grad() / inference_mode() 里计算。",
    ),
    Mistake(
        "copy-not-view",
        "得到复制而不是视图",
        "a copy where a view is expected",
        "view() / 切片 / transpose() 共享存储；reshape() 在布局不兼容时、contiguous()、clone() 会复制。",
    ),
    Mistake(
        "modifies-input",
        "原地修改了输入",
        "modifies its input in place",
        "不要用 x += 1、x.add_() 修改调用者的数据：返回一个新张量。",
    ),
    Mistake(
        "tensor-not-item",
        "返回张量而不是 Python 数字",
        "a tensor where a Python number is expected",
        "用 .item() 把单元素张量转成 Python 数字。",
    ),
    # 07_item
    Mistake(
        "loss-accumulated-with-graph",
        "累加 loss 时没有 detach",
        "losses accumulated together with their graphs",
        "total += loss 把每一步的计算图串起来留在内存里：累加 loss.detach() * batch_size 或 loss.item() * batch_size。",
    ),
    Mistake(
        "host-sync-every-step",
        "每一步都同步一次",
        "a host-device sync in every step",
        "在循环里 .item() / float() / .cpu() / if t 每一步都让 CPU 等 GPU：在设备上累加，只在需要数字时取回一次。",
    ),
    Mistake(
        "unweighted-batch-mean",
        "直接平均各 batch 的平均 loss",
        "batch means averaged without weighting by batch size",
        "每个 batch 的 loss 是它的平均值：乘以样本数（或有效目标数）再相加，最后除以总数。",
    ),
    Mistake(
        "ignored-targets-counted",
        "把被忽略的目标也算进了权重",
        "ignored targets counted in the weights",
        "CrossEntropyLoss(ignore_index=...) 只对未被忽略的目标取平均：权重是 (target != ignore_index).sum()。",
    ),
    Mistake(
        "window-not-reset",
        "log 点之后没有把窗口清零",
        "running window not reset after a log point",
        "每个 log 点记录之后把窗口的累加值和样本数清零，下一个窗口从头累加。",
    ),
    Mistake(
        "missing-zero-grad",
        "没有清零梯度",
        "gradients never zeroed",
        "每个 batch 在 backward() 之前调用 optimizer.zero_grad()：否则新梯度会累加到旧梯度上。",
    ),
    Mistake(
        "missing-model-train",
        "训练前没有 model.train()",
        "training without model.train()",
        "训练循环开头调用 model.train()：上一次评估可能把模型留在了评估模式。",
    ),
    # 09_debugging (also: missing-zero-grad, missing-model-train above)
    Mistake(
        "softmax-before-ce",
        "先 softmax 再交给 cross_entropy",
        "softmax applied before cross_entropy",
        "F.cross_entropy / CrossEntropyLoss 自己做 log_softmax：把 logits 直接交给它。",
    ),
    Mistake(
        "broadcast-n-by-n",
        "(N, 1) 与 (N,) 广播成了 (N, N)",
        "(N, 1) and (N,) broadcast to (N, N)",
        "loss 的两个输入先变成同一形状：pred.squeeze(1) 或 y.unsqueeze(1)。",
    ),
)

CATALOGUE: dict[str, Mistake] = {m.id: m for m in _ENTRIES}


def known(mistake: object) -> bool:
    """Whether ``mistake`` is an id in the catalogue."""
    return isinstance(mistake, str) and mistake in CATALOGUE


def checked(mistake: object) -> str:
    """``mistake`` if it is a catalogue id, else '' (what a failure carries when it proves no named mistake)."""
    return mistake if known(mistake) else ""  # type: ignore[return-value]
