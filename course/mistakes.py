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
    # 10_lenet_mnist
    Mistake(
        "softmax-before-ce",
        "先 softmax 再交给 CrossEntropyLoss",
        "softmax before CrossEntropyLoss",
        "模型输出 logits：forward 末尾不要 softmax，CrossEntropyLoss 内部已经做了 log_softmax。",
    ),
)

CATALOGUE: dict[str, Mistake] = {m.id: m for m in _ENTRIES}


def known(mistake: object) -> bool:
    """Whether ``mistake`` is an id in the catalogue."""
    return isinstance(mistake, str) and mistake in CATALOGUE


def checked(mistake: object) -> str:
    """``mistake`` if it is a catalogue id, else '' (what a failure carries when it proves no named mistake)."""
    return mistake if known(mistake) else ""  # type: ignore[return-value]
