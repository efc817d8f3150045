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
    # 01_tensors
    Mistake(
        "labels-start-at-one",
        "标签仍从 1 开始",
        "class labels still numbered 1..C",
        "CrossEntropyLoss 的类别编号是 0 .. C-1：从 1 开始编号的标签先减 1。",
    ),
    Mistake(
        "python-bool-on-tensor",
        "对张量用了 Python 的 and / or / 链式比较",
        "Python and / or / chained comparison on a tensor",
        "逐元素的逻辑运算用 & | ~，每个比较加括号：(x >= low) & (x < high)。",
    ),
    Mistake(
        "mask-by-multiplying",
        "乘以掩码来去掉元素",
        "masking by multiplying with the mask",
        "inf * 0 和 nan * 0 都是 nan：用 torch.where(mask, x, 0) 替换被掩码掉的值。",
    ),
    Mistake(
        "linear-weight-transposed",
        "Linear 权重的形状写反了",
        "Linear weight shaped (in, out) instead of (out, in)",
        "nn.Linear 的 weight 形状是 (out_features, in_features)：y = x @ weight.T。",
    ),
    Mistake(
        "arange-excludes-end",
        "arange 不含终点",
        "arange leaves out the end point",
        "arange(start, stop, step) 不含 stop；要包含终点，先算出点数，再用 linspace。",
    ),
    # 02_shapes
    Mistake(
        "missing-batch-dim",
        "送进模型的张量第 0 维不是 batch 维",
        "the model gets a sample without a leading batch dimension",
        "模型按 batch 工作：一个样本先 unsqueeze(0) 变成 (1, ...)，输出再 squeeze(0)。",
    ),
    Mistake(
        "squeeze-without-dim",
        "squeeze() 没有写 dim",
        "squeeze() without a dim",
        "不带 dim 的 squeeze() 删掉所有大小为 1 的维度：写 squeeze(dim)，只删要删的那一维。",
    ),
    Mistake(
        "view-after-permute",
        "permute 之后用 view",
        "view() after permute()",
        "permute / t() 之后张量不连续，view() 会报错：用 reshape() / flatten()，或先 contiguous()。",
    ),
    Mistake(
        "reshape-instead-of-permute",
        "用 reshape 代替 permute 交换维度",
        "reshape where permute is needed",
        "reshape / view 只按新形状重新切分同一串内存，不交换维度：交换维度用 permute()。",
    ),
    # 03_broadcasting
    Mistake(
        "broadcast-n-by-n",
        "(N, 1) 与 (N,) 广播成 (N, N)",
        "(N, 1) against (N,) broadcast to (N, N)",
        "算 loss 之前让预测和标签形状一致（squeeze(-1)），并断言 pred.shape == target.shape。",
    ),
    Mistake(
        "bias-on-trailing-dim",
        "偏置对上了尾部维度而不是通道维",
        "bias added along a trailing dimension instead of the channel dimension",
        "广播从尾部维度右对齐：(C,) 对上的是 W；要对上通道维，先 view(C, 1, 1)。",
    ),
    Mistake(
        "not-in-place",
        "没有原地修改",
        "not done in place",
        "函数名以 _ 结尾的约定是原地修改：用 x += ... 或 x.add_(...)，再返回 x 本身。",
    ),
    Mistake(
        "distance-not-squared",
        "算成了距离而不是平方距离",
        "distance where the squared distance is expected",
        "norm() / cdist 给的是距离（开了根号）；平方距离是差的平方沿特征维求和。",
    ),
)

CATALOGUE: dict[str, Mistake] = {m.id: m for m in _ENTRIES}


def known(mistake: object) -> bool:
    """Whether ``mistake`` is an id in the catalogue."""
    return isinstance(mistake, str) and mistake in CATALOGUE


def checked(mistake: object) -> str:
    """``mistake`` if it is a catalogue id, else '' (what a failure carries when it proves no named mistake)."""
    return mistake if known(mistake) else ""  # type: ignore[return-value]
