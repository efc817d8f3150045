"""Strict tensor comparisons whose failures name the learner's mistake.

Every check raises :class:`CheckError` (an ``AssertionError``) with a message in Chinese that keeps the
English term, e.g. ``形状 (shape) 不对：期望 (3, 4)，得到 (4, 3)``. Checks never broadcast the learner's
output to the expected shape, and they write nothing to stderr when they pass: nbgrader scores a test
cell that prints to stderr as 0.
"""

from __future__ import annotations

import functools
import inspect
import math
import types
import warnings
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, NoReturn

import torch
from torch.utils._pytree import tree_leaves

from course import hints, hooks, remote, settings, writes

__all__ = [
    "Case",
    "CheckError",
    "call_learner",
    "check_close",
    "check_contiguous",
    "check_function",
    "check_grad",
    "check_grad_fn",
    "check_shares_storage",
    "check_prediction",
    "check_tensor",
    "describe",
    "exercise",
    "make_cases",
    "passed",
]


class CheckError(AssertionError):
    """A test failed; the message says what is wrong and the likely reason.

    ``mistake`` is the id of the misconception the failure proves (``course.mistakes``), or ''."""

    def __init__(self, message: str = "", *, mistake: str = "") -> None:
        super().__init__(message)
        self.mistake = mistake


class SettingChanged(CheckError):
    """A learner's call left a process-wide setting changed (``course.settings``); raised in the judge when the
    learner process reports one in its reply, so that a check can say which function did it."""

    def __init__(self, setting: str, change: str) -> None:
        self.setting, self.change = setting, change
        self.text, mistake = settings.message(setting, change)
        super().__init__(f"调用返回之后，{self.text}", mistake=mistake)


def fail(message: str, *, mistake: str = "") -> NoReturn:
    """Raise a :class:`CheckError` with ``message`` and, when the behaviour proves one, a ``mistake`` id."""
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    raise CheckError(message, mistake=mistake)


def describe(x: Any, name: str | None = None) -> None:
    """Print shape, dtype, device and requires_grad of ``x`` on one line (the notes' debug print)."""
    label = f"{name}: " if name else ""
    if isinstance(x, torch.Tensor):
        print(f"{label}shape={tuple(x.shape)} dtype={x.dtype} device={x.device} requires_grad={x.requires_grad}")
    else:
        print(f"{label}{type(x).__name__} (not a torch.Tensor): {x!r}")


def passed(what: str) -> None:
    """Print the honest success line of a test cell (visible tests only; hidden ones run at grading)."""
    hints.record_pass()
    print(f"✔ {what}：可见测试 (visible tests) 通过。隐藏测试 (hidden tests) 在评分时运行。")


def exercise(name: str) -> None:
    """First line of a test cell: which exercise it tests, so a repeated failure unfolds its next hint."""
    hints.start(name)


def check_prediction(
    answer: Any, actual: Any, *, name: str, explain: str, choices: Sequence[Any] | None = None
) -> None:
    """A "predict first" question: the learner's ``answer`` against what the snippet really does (``actual``).

    Shapes compare as tuples (a list or ``torch.Size`` is fine). ``explain`` says why the snippet does what it
    does; it is the point of the exercise, so it is shown whenever the prediction is wrong. A prediction is
    formative: its cell is read-only, checked in the learner's kernel only, worth no points (a retry that
    has read the true value would always earn them); it prints its own success line.
    """
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if answer is Ellipsis or answer is None:
        fail(f"{name}：还没有写预测 (prediction)。先写下你认为会发生什么，再运行代码验证。")
    if choices is not None and answer not in choices:
        options = "、".join(repr(c) for c in choices)
        fail(f"{name} 应是 {options} 之一，得到 {answer!r}。")
    got, want = answer, actual
    if isinstance(want, (tuple, torch.Size)) and isinstance(got, (tuple, list, torch.Size)):
        got, want = tuple(got), tuple(want)
    if type(got) is not type(want) and not (isinstance(got, (int, float)) and isinstance(want, (int, float))):
        fail(f"{name} 应写成 {type(want).__name__}，得到 {type(got).__name__}: {got!r:.100}。")
    if got != want:
        fail(f"{name} 的预测不对：你写的是 {got!r}，实际是 {want!r}。{explain}")
    hints.record_pass()
    print(f"✔ {name}：预测正确。预测题不计分 (formative)，只用来在运行代码之前检查你的理解。")


# ---------------------------------------------------------------------------------------------------
# Single tensors


def _shape(t: torch.Tensor) -> tuple[int, ...]:
    return tuple(t.shape)


def _shape_diagnosis(actual: tuple[int, ...], expected: tuple[int, ...]) -> tuple[str, str]:
    """What a wrong shape suggests: (mistake id or '' when no mutant proves one, message for the learner)."""
    same_non_unit = [d for d in expected if d != 1] == [d for d in actual if d != 1]
    if len(actual) < len(expected) and actual == tuple(d for d in expected if d != 1):
        # squeeze() without dim: no mutant proves it yet, so no id (course/mistakes.py)
        return "", "期望形状里所有大小为 1 的维度都不见了：不带 dim 的 squeeze() 正会这样，请写 squeeze(dim)。"
    if len(actual) < len(expected) and same_non_unit:
        return "", "少了大小为 1 的维度：对照期望形状，看是哪一维没有保留下来。"
    if len(actual) > len(expected) and same_non_unit:
        return "extra-unit-dim", "多了大小为 1 的维度：检查 unsqueeze() / keepdim=True，或该用 squeeze(dim)。"
    if (
        len(actual) == 2
        and actual[0] == actual[1]
        and len(expected) in (1, 2)
        and expected[0] == actual[0]
        and math.prod(expected) == expected[0]
    ):
        # (N, 1) with (N,) broadcast to (N, N): no mutant proves it yet, so no id
        return "", (
            f"得到 (N, N) = {actual}，元素个数是期望的 N = {actual[0]} 倍：多出了一个大小为 N 的维度。"
            "打印参与运算的每个张量的形状，和期望形状对照。"
        )
    if math.prod(actual) == math.prod(expected) and sorted(actual) == sorted(expected):
        return "wrong-dim-order", "元素个数相同但维度顺序不同：检查 permute() / transpose() 的维度顺序。"
    if math.prod(actual) == math.prod(expected):
        return "", "元素个数相同：reshape / view / flatten 的目标形状不对？"
    return "", "元素个数也不同：检查求和 / 索引 / 广播是否作用在了正确的维度 (dim) 上。"


def _dtype_mistake(actual: torch.dtype, expected: torch.dtype) -> str:
    """The mistake id behind :func:`_dtype_hint`'s diagnosis (same conditions), or ''."""
    if expected == torch.bool:
        return ""  # a mask that is not bool: no mutant proves it today, so no id (course/mistakes.py)
    if expected == torch.long:
        return ""  # labels only where the caller knows they are (course/fixtures/tensors.py check_label_range)
    if expected.is_floating_point and not actual.is_floating_point:
        return "int-not-float"
    if expected == torch.float32 and actual == torch.float64:
        return "float64-not-float32"
    return ""


def _dtype_hint(actual: torch.dtype, expected: torch.dtype) -> str:
    if expected == torch.bool:
        return "掩码 (mask) 应是 torch.bool：比较运算 (x > 0) 直接得到 bool，不要再 .float() / .int()。"
    if expected == torch.long and actual.is_floating_point:
        return "期望整数 torch.long (int64)，得到的是浮点数：打印每一步的 dtype，找出从哪一步变成了浮点数；要整数结果时用 .long()。"
    if expected == torch.long:
        return "期望 torch.long (int64)，得到的是另一种整数类型：索引、CrossEntropyLoss 的类别编号等很多 API 只接受 long，用 .long()。"
    if expected.is_floating_point and not actual.is_floating_point:
        return (
            "得到整数 / bool 张量：模型输入要用浮点数，创建时写 dtype=torch.float32 或调用 .float()；"
            "整数张量上 mean() 会报错。"
        )
    if expected == torch.float32 and actual == torch.float64:
        return (
            "结果是 float64 (double)，不是 float32：与 float32 的张量或模型一起用会报 "
            "'mat1 and mat2 must have the same dtype'。打印每一步结果的 dtype，找出 float64 从哪一步开始，"
            "在那里显式指定 dtype=torch.float32（或调用 .float()）。"
        )
    return "打印每一步结果的 dtype，找出它从哪一步起和期望的不同，在那里转换（.to(dtype)）。"


def _index(flat_index: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    index = []
    for size in reversed(shape):
        index.append(flat_index % size)
        flat_index //= size
    return tuple(reversed(index))


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)


def _fmt_pair(want: Any, got: Any) -> tuple[str, str]:
    """``want`` and ``got`` written with as many digits as it takes to tell them apart (6 at least, 17 at most)."""
    if isinstance(want, float) and isinstance(got, float):
        for digits in (6, 9, 12, 17):
            shown = f"{want:.{digits}g}", f"{got:.{digits}g}"
            if shown[0] != shown[1]:
                break
        return shown
    return _fmt(want), _fmt(got)


def check_tensor(
    actual: Any,
    expected: torch.Tensor,
    *,
    name: str = "返回值",
    rtol: float = 1e-5,
    atol: float = 1e-6,
    check_dtype: bool = True,
    check_device: bool = True,
    check_requires_grad: bool = True,
    equal_nan: bool = False,
) -> None:
    """Compare ``actual`` with ``expected``: type, shape, dtype, device, values, requires_grad.

    Values use ``|actual - expected| <= atol + rtol * |expected|`` for floating types and exact equality
    otherwise. Shapes must match exactly: nothing is broadcast.
    """
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if not isinstance(actual, torch.Tensor):
        # "forgot return" only where the value is what a function returned and None came back
        hint = "是不是忘了 return？" if actual is None and name == "返回值" else ""
        fail(f"{name} 应该是 torch.Tensor，得到的是 {type(actual).__name__}。{hint}", mistake="not-a-tensor")
    if _shape(actual) != _shape(expected):
        mistake, hint = _shape_diagnosis(_shape(actual), _shape(expected))
        fail(f"{name} 的形状 (shape) 不对：期望 {_shape(expected)}，得到 {_shape(actual)}。" + hint, mistake=mistake)
    if check_dtype and actual.dtype != expected.dtype:
        fail(
            f"{name} 的 dtype 不对：期望 {expected.dtype}，得到 {actual.dtype}。"
            + _dtype_hint(actual.dtype, expected.dtype),
            mistake=_dtype_mistake(actual.dtype, expected.dtype),
        )
    if check_device and actual.device != expected.device:
        fail(
            f"{name} 的设备 (device) 不对：期望 {expected.device}，得到 {actual.device}。"
            "参与同一次运算的张量必须在同一设备上：用 .to(device)，或按输入的 x.device 创建新张量。"
        )
    if actual.device.type != "meta":
        _check_values(actual, expected, name=name, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if check_requires_grad and actual.requires_grad != expected.requires_grad:
        if expected.requires_grad:
            fail(
                f"{name} 的 requires_grad 应为 True，得到 False：它已脱离计算图。"
                "是不是用了 detach()、.item()、torch.no_grad() 或 inference_mode()？",
                mistake="detached-from-graph",
            )
        fail(
            f"{name} 的 requires_grad 应为 False，得到 True：它还连着计算图。"
            "需要脱离计算图时用 detach()，或在 torch.no_grad() / inference_mode() 里计算。",
            mistake="still-in-graph",
        )


def _check_values(
    actual: torch.Tensor, expected: torch.Tensor, *, name: str, rtol: float, atol: float, equal_nan: bool
) -> None:
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    a = actual.detach().to("cpu")
    e = expected.detach().to("cpu")
    if a.numel() == 0:
        return
    floating = e.is_floating_point() or e.is_complex() or a.is_floating_point()
    if floating:
        a64, e64 = a.to(torch.float64), e.to(torch.float64)
        ok = torch.isclose(a64, e64, rtol=rtol, atol=atol, equal_nan=equal_nan)
        tolerance = f"（容差 rtol={rtol:g}, atol={atol:g}）"
    else:
        ok = a.to(e.dtype) == e if a.dtype != e.dtype else a == e
        tolerance = "（要求完全相等）"
    if bool(ok.all()):
        return
    bad = (~ok).reshape(-1)
    n_bad = int(bad.sum())
    first = int(bad.nonzero()[0, 0])
    idx = _index(first, _shape(e))
    got, want = a.reshape(-1)[first].item(), e.reshape(-1)[first].item()
    where = f"索引 {idx}" if idx else "这个 0-d 张量"
    shown_want, shown_got = _fmt_pair(want, got)
    message = (
        f"{name} 的数值 (values) 不对{tolerance}：{n_bad} / {e.numel()} 个元素不符；"
        f"第一个错在{where}：期望 {shown_want}，得到 {shown_got}。"
    )
    if floating and not bool(torch.isfinite(a64).all()) and bool(torch.isfinite(e64).all()):
        message += "结果里有 nan / inf：检查除以 0、log(0) 或溢出。"
    fail(message)


def check_close(actual: Any, expected: float, *, name: str = "返回值", rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Compare a Python number (for example the result of ``.item()``) with ``expected``."""
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if isinstance(actual, torch.Tensor):
        fail(
            f"{name} 应该是 Python 数字 (float)，得到的是 torch.Tensor {describe_str(actual)}。"
            "用 .item() 把单元素张量转成 Python 数字。",
            mistake="tensor-not-item",
        )
    if isinstance(actual, bool) or not isinstance(actual, (int, float)):
        fail(f"{name} 应该是 Python 数字 (float)，得到的是 {type(actual).__name__}。")
    if not math.isclose(float(actual), float(expected), rel_tol=rtol, abs_tol=atol):
        shown_want, shown_got = _fmt_pair(float(expected), float(actual))
        fail(f"{name} 的数值不对（容差 rtol={rtol:g}, atol={atol:g}）：期望 {shown_want}，得到 {shown_got}。")


def describe_str(x: Any) -> str:
    """The one-line description that :func:`describe` prints, as a string."""
    if isinstance(x, torch.Tensor):
        return f"(shape={tuple(x.shape)}, dtype={x.dtype}, device={x.device}, requires_grad={x.requires_grad})"
    return f"({remote.type_name(x)})"


def check_grad_fn(t: torch.Tensor, *, expect_none: bool, name: str = "张量") -> None:
    """Check whether ``t`` has a ``grad_fn``: ``expect_none=True`` means a leaf / detached tensor."""
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if not isinstance(t, torch.Tensor):
        fail(f"{name} 应该是 torch.Tensor，得到的是 {type(t).__name__}。")
    if expect_none and t.grad_fn is not None:
        fail(
            f"{name} 应该没有 grad_fn（叶子张量 (leaf) 或已脱离计算图），但它有 grad_fn={type(t.grad_fn).__name__}。"
            "例如 torch.randn(..., requires_grad=True) / k 得到的是非叶子张量，它的 .grad 会一直是 None；"
            "应先算好数值，再 requires_grad_(True)。要脱离计算图用 detach()。"
        )
    if not expect_none and t.grad_fn is None:
        fail(
            f"{name} 应该在计算图里（有 grad_fn），但 grad_fn 是 None："
            "detach()、.item()、torch.no_grad() 或 inference_mode() 截断了梯度路径？",
            mistake="detached-from-graph",
        )


def check_contiguous(t: torch.Tensor, *, expected: bool, name: str = "张量") -> None:
    """Check ``t.is_contiguous()``."""
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if t.is_contiguous() != expected:
        if expected:
            fail(
                f"{name} 应该是连续的 (contiguous)，但 is_contiguous() 为 False："
                "permute() / t() / transpose() 只改 stride 不搬数据；需要连续内存时调用 .contiguous()（会复制）。"
            )
        fail(
            f"{name} 不应该是连续张量：这里要的是 permute / transpose 得到的视图 (view)，"
            "不需要 .contiguous() 或 clone() 复制数据。"
        )


def _storage_ptr(t: torch.Tensor) -> int:
    return t.untyped_storage().data_ptr()


def check_shares_storage(actual: torch.Tensor, base: torch.Tensor, *, expected: bool, name: str = "返回值") -> None:
    """Check whether ``actual`` shares its storage with ``base`` (a view) or owns a copy."""
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if not isinstance(actual, torch.Tensor):
        fail(f"{name} 应该是 torch.Tensor，得到的是 {type(actual).__name__}。")
    shares = _storage_ptr(actual) == _storage_ptr(base)
    if expected and not shares:
        fail(
            f"{name} 应该是输入的视图 (view，共享存储)，但它是一份复制："
            "reshape() 在布局不兼容时、contiguous()、clone()、.to(memory_format=...) 都会复制数据。",
            mistake="copy-not-view",
        )
    if not expected and shares:
        fail(
            f"{name} 应该是独立的复制，但它与输入共享存储 (shares storage)："
            "修改一个会改变另一个。需要独立数据时用 clone()。"
        )


def check_grad(param: torch.Tensor, expected: torch.Tensor | None, *, name: str = "参数", **tol: float) -> None:
    """Check ``param.grad``: ``None`` versus zeros matter (``zero_grad(set_to_none=True)``)."""
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    grad = param.grad
    if expected is None:
        if grad is not None:
            zeros = bool((grad == 0).all())
            fail(
                f"{name}.grad 应该是 None，得到的是 {'全零张量' if zeros else '一个梯度张量'}。"
                "zero_grad(set_to_none=True) 会把 .grad 设为 None，而 zero_()/set_to_none=False 留下全零："
                "优化器会跳过 None 梯度，但对全零梯度仍会执行 momentum / weight decay。"
            )
        return
    if grad is None:
        fail(
            f"{name}.grad 是 None：没有对包含它的 loss 调用 backward()？或者它不是叶子张量 (leaf)、"
            "不在 loss 的计算路径上（被 detach() / no_grad() 截断），或在 zero_grad(set_to_none=True) 之后没有反向传播。"
        )
    g = grad.detach().to(torch.float64).cpu()
    e = expected.detach().to(torch.float64).cpu()
    if g.shape == e.shape and bool((e != 0).any()):
        ratio = (g[e != 0] / e[e != 0]).reshape(-1)
        k = float(ratio[0])
        if abs(k - round(k)) < 1e-6 and round(k) >= 2 and bool(torch.allclose(ratio, torch.full_like(ratio, k))):
            fail(
                f"{name}.grad 处处是期望值的 {round(k)} 倍。梯度默认累积 (accumulate) 到 .grad："
                f"{round(k)} 次 backward() 之间没有 zero_grad() 会这样，loss 用求和代替平均也会这样。"
            )
    check_tensor(grad, expected, name=f"{name}.grad", check_requires_grad=False, **tol)


# ---------------------------------------------------------------------------------------------------
# Functions on generated inputs


@dataclass
class Case:
    """One call of the learner's function: positional ``args`` and a readable ``label``."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    def describe(self) -> str:
        if self.label:
            return self.label
        parts = []
        for a in self.args:
            if isinstance(a, torch.Tensor):
                layout = "" if a.is_contiguous() else ", 非连续 (non-contiguous)"
                parts.append(f"Tensor(shape={tuple(a.shape)}, dtype={a.dtype}{layout})")
            else:
                parts.append(repr(a))
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return ", ".join(parts)


STANDARD_SHAPES: tuple[tuple[int, ...], ...] = ((), (1,), (5,), (1, 1), (1, 4), (3, 1), (2, 3), (4, 3, 2), (1, 3, 2))


def make_cases(
    seed: int,
    shapes: Iterable[tuple[int, ...]] = STANDARD_SHAPES,
    *,
    dtype: torch.dtype = torch.float32,
    kind: str = "randn",
    low: int = 0,
    high: int = 10,
    non_contiguous: bool = True,
) -> list[Case]:
    """One-tensor cases from a seeded generator, plus non-contiguous twins of every 2-d+ shape.

    ``kind`` is ``"randn"`` (standard normal), ``"rand"`` ([0, 1) uniform) or ``"int"`` (integers in
    ``[low, high)``). A non-contiguous twin has the same shape and values layout changed by ``transpose``.
    """
    g = torch.Generator().manual_seed(seed)

    def draw(shape: tuple[int, ...]) -> torch.Tensor:
        if kind == "randn":
            return torch.randn(shape, generator=g).to(dtype)
        if kind == "rand":
            return torch.rand(shape, generator=g).to(dtype)
        if kind == "int":
            return torch.randint(low, high, shape, generator=g).to(dtype)
        raise ValueError(f"unknown kind {kind!r}")

    cases = [Case((draw(shape),)) for shape in shapes]
    if non_contiguous:
        for shape in shapes:
            if len(shape) >= 2 and shape[-1] > 1 and shape[-2] > 1:
                swapped = (*shape[:-2], shape[-1], shape[-2])
                cases.append(Case((draw(swapped).transpose(-1, -2),)))
    return cases


_ERROR_HINTS: tuple[tuple[str, str], ...] = (
    (
        "view size is not compatible",
        "view() 需要兼容的内存布局：permute() / t() 之后请用 reshape()，或先 contiguous()。",
    ),
    (
        "can't convert cuda:0 device type tensor to numpy",
        "在 GPU 上 NumPy 读不到设备上的张量：.numpy()、np.asarray()、np.isfinite() 这类 NumPy 调用先要 .cpu()"
        "（那就是一次同步）；能留在 torch 里就别交给 NumPy（torch.isfinite、torch.where）。",
    ),
    ("expected scalar type Long", "CrossEntropyLoss 的标签要 torch.long，用 .long()。"),
    ("expected target dtype to be Long", "CrossEntropyLoss 的标签要 torch.long，用 .long()。"),
    ("same device", "参与同一次运算的张量必须在同一设备上：用 .to(device)。"),
    ("expected device", "参与同一次运算的张量必须在同一设备上：用 .to(device)，或按输入的 x.device 创建新张量。"),
    ("must have the same dtype", "dtype 不一致（float64 与 float32 混用？）：显式转换 dtype。"),
    ("mean(): could not infer output dtype", "整数张量不能直接 mean()：先转成浮点数 .float()。"),
    ("shapes cannot be multiplied", "矩阵乘法的形状不匹配：检查 flatten / 全连接层的输入大小。"),
    ("out of bounds", "索引或标签越界：类别标签应在 0 .. C-1 之间。"),
    (
        "implicitly created only for scalar outputs",
        "对非标量调用 backward() 需要传入同形状的上游梯度，或先 .sum() / .mean() 成标量。",
    ),
    ("does not require grad", "张量不需要梯度：detach() / no_grad() 截断了梯度路径？"),
    (
        "backward through the graph a second time",
        "同一张图反向传播了两次：保存的张量在第一次 backward() 后已释放；每次迭代重新前向，"
        "或第一次写 backward(retain_graph=True)。",
    ),
    (
        "Inference tensors cannot be saved for backward",
        "inference_mode() 里创建的张量 (inference tensor) 不能被 autograd 保存用于反向传播（例如作为乘法的输入）；"
        "要让它参与训练，在 inference_mode 之外先 clone()，或一开始就用 torch.no_grad()。",
    ),
    (
        "Inplace update to inference tensor outside InferenceMode",
        "inference tensor 不能在 inference_mode 之外被原地修改 (in-place)：先 clone() 得到普通张量。",
    ),
    ("leaf Variable that requires grad", "对 requires_grad 的叶子张量做 in-place 修改要放进 torch.no_grad()。"),
    ("must match the size of tensor", "形状不能广播 (broadcast)：从尾部维度比较，两者相等或其中一个为 1 才行。"),
)


def _explain_exception(exc: BaseException) -> str:
    if isinstance(exc, NotImplementedError) and not str(exc).strip():  # the untouched stub
        return "还没有实现：删掉 raise NotImplementedError()，写出你的答案。"
    text = str(exc)
    for needle, hint in _ERROR_HINTS:
        if needle in text:
            return hint
    return ""


def _clone(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.clone()  # preserve_format keeps a transposed layout non-contiguous
    if isinstance(value, list):
        return [_clone(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_clone(v) for v in value)
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    return value


def _same_values(before: torch.Tensor, after: torch.Tensor) -> bool:
    if before.device.type == "meta":  # no data to compare
        return before.shape == after.shape
    if before.shape != after.shape or before.numel() == 0 or torch.equal(before, after.detach()):
        return before.shape == after.shape
    if before.is_floating_point() and before.dtype == after.dtype:  # nan == nan here: an unchanged nan input
        return bool(
            torch.equal(before.isnan(), after.detach().isnan())
            and torch.equal(before.nan_to_num(), after.detach().nan_to_num())
        )
    return False


def _input_change(before: Any, after: Any, given: Any, where: str) -> str:
    """How the learner's inputs ``after`` a call differ from the copy ``before`` taken ahead of it ('' if they
    do not): a tensor in a list or dict replaced by another (``given``: :func:`_identities` of the inputs as
    they were given), its values, ``requires_grad`` or graph, a number or string in a list or dict, the length
    of a list or the keys of a dict. ``where`` names the input."""
    if isinstance(before, torch.Tensor):
        if not isinstance(after, torch.Tensor):
            return f"{where}：从张量变成了 {type(after).__name__}"
        if id(after) != given:
            return f"{where}：被换成了另一个张量（例如 xs[i] = xs[i].detach()；列表和 dict 里的东西也是调用者的）"
        if before.shape != after.shape:
            return (
                f"{where}：张量的形状从 {tuple(before.shape)} 变成了 {tuple(after.shape)}"
                "（原地 (in-place) 改形状的操作，例如 x.unsqueeze_(0)、x.squeeze_()、x.t_()、x.resize_()）"
            )
        if not _same_values(before, after):
            return f"{where}：张量的数值变了（in-place 操作，例如 x += 1、x.add_()）"
        if before.requires_grad != after.requires_grad:
            return f"{where}：张量的 requires_grad 从 {before.requires_grad} 变成了 {after.requires_grad}（例如 detach_()、requires_grad_()）"
        if (before.grad_fn is None) != (after.grad_fn is None):
            return f"{where}：张量离开了计算图（grad_fn 没了，例如 detach_()）"
        return ""
    if isinstance(before, (list, tuple)):
        if len(before) != len(after):
            return f"{where}：长度从 {len(before)} 变成了 {len(after)}"
        for i, (b, a, g) in enumerate(zip(before, after, given)):
            found = _input_change(b, a, g, f"{where}[{i}]")
            if found:
                return found
        return ""
    if isinstance(before, dict):
        if set(before) != set(after):
            return f"{where}：键从 {sorted(map(str, before))} 变成了 {sorted(map(str, after))}"
        for key in before:
            found = _input_change(before[key], after[key], given[key], f"{where}[{key!r}]")
            if found:
                return found
        return ""
    if isinstance(before, (bool, int, float, str, bytes, type(None))):
        same = before == after or (
            isinstance(before, float) and isinstance(after, float) and before != before and after != after
        )
        return "" if same and type(before) is type(after) else f"{where}：从 {before!r:.40} 变成了 {after!r:.40}"
    return ""


def _identities(value: Any) -> Any:
    """``value`` with every tensor inside its lists, tuples and dicts replaced by its ``id``: a list item
    replaced by another tensor (``losses[i] = losses[i].detach()``) shows even when the values are the same."""
    if isinstance(value, torch.Tensor):
        return id(value)
    if isinstance(value, (list, tuple)):
        return [_identities(v) for v in value]
    if isinstance(value, dict):
        return {k: _identities(v) for k, v in value.items()}
    return None


def _given_tensors(value: Any) -> list[torch.Tensor]:
    """The tensors inside ``value``'s lists, tuples and dicts (what :func:`_identities` sees)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _given_tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _given_tensors(v)]
    return []


def _written_in_place(given: list[tuple[torch.Tensor, int]]) -> torch.Tensor | None:
    """The first given tensor whose version counter moved during the call (an in-place op wrote it, even if a
    second one put the values back), with its version before; None if none moved."""
    for t, version in given:
        if t._version != version:
            return t
    return None


def _inference_tensor(value: Any) -> torch.Tensor | None:
    """The first inference tensor (made in ``torch.inference_mode()``) inside ``value``'s lists, tuples and dicts."""
    for t in _given_tensors(value):
        if t.is_inference():
            return t
    return None


def _changed_argument(before: tuple[tuple, dict], after: tuple[tuple, dict], given: Any) -> str:
    """How the call changed its arguments (``(args, kwargs)`` before and after, ``given``: their
    :func:`_identities` when they were given), naming the argument."""
    for i, (b, a, g) in enumerate(zip(before[0], after[0], given[0])):
        found = _input_change(b, a, g, f"第 {i + 1} 个参数")
        if found:
            return found
    for key in before[1]:
        found = _input_change(before[1][key], after[1][key], given[1][key], f"参数 {key}")
        if found:
            return found
    return ""


PLAYED_GPU_CALLS: list[Callable[..., Any]] = []  # a scenario that call_learner starts each learner call in, if any


def _learners(fn: Any) -> bool:
    """Whether ``fn`` is the learner's own function or class (a stand-in of one in the judge), not a check's
    wrapper."""
    if remote.is_remote(fn):
        return True
    fn = fn.func if isinstance(fn, functools.partial) else fn  # mse_loss = functools.partial(_mse, fused=...)
    if not isinstance(fn, (types.FunctionType, type)):  # mse_loss = MSELoss(): a __call__ of the learner's
        call = inspect.getattr_static(type(fn), "__call__", None)  # not a model's (torch's __call__)
        return isinstance(call, types.FunctionType) and not (call.__module__ or "").startswith(("course", "torch"))
    return isinstance(fn, (types.FunctionType, type)) and not (fn.__module__ or "").startswith(("course", "torch"))


def _plays_a_device(value: Any) -> bool:
    """Whether a tensor in ``value`` is on meta: a check that plays a device itself (no second played GPU)."""
    return any(t.device.type == "meta" for t in tree_leaves(value) if isinstance(t, torch.Tensor))


def call_learner(
    fn: Callable[..., Any], case: Case, *, fn_name: str, copy: bool = True, inference_ok: bool = False
) -> Any:
    """Call ``fn`` on copies of ``case``'s inputs; errors and warnings become one CheckError message.

    With ``copy=False`` ``fn`` gets the caller's own objects (to check what it does to them; the in-place
    check is then the test's job). A returned inference tensor is refused unless ``inference_ok`` (the
    exercise asks for ``torch.inference_mode()``, or the test says more about it itself).
    """
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if copy:
        args, kwargs = _clone(case.args), _clone(case.kwargs)
        snapshot = (_clone(case.args), _clone(case.kwargs))
        given = _identities((args, kwargs))
        versions = [(t, t._version) for t in _given_tensors((args, kwargs))]
        watch = None if writes.has_module((args, kwargs)) else writes.watched([t for t, _ in versions])
    else:
        args, kwargs = case.args, case.kwargs
        watch = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # the judge's process runs no learner code: the learner's process watches each call there and reports
        # what it put back (SettingChanged below); here only in a kernel, where the call runs in this process
        watched_here = not remote.IN_JUDGE
        before, hooks_before = (settings.snapshot(), hooks.snapshot((args, kwargs))) if watched_here else ({}, [])
        error: Exception | None = None
        precision = ""  # the reduced precision a call on a played GPU ran under (again_on_a_played_gpu)
        try:
            with watch or nullcontext():
                if PLAYED_GPU_CALLS and _learners(fn) and not _plays_a_device((args, kwargs)):
                    result, precision = remote.run(PLAYED_GPU_CALLS[-1], fn, *args, **kwargs)  # again_on_a_played_gpu
                else:
                    result = fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - judged below, after the settings are put back
            error = exc
        writes.mark_written(watch)  # a write through .data moves no version counter by itself
        left = settings.restore_changed(before) if watched_here else []
        on_callers = hooks.left_on_callers(hooks_before) if watched_here else None
        if on_callers and not left:
            left = [on_callers]
        if isinstance(error, SettingChanged):  # the judge: the learner's process found and restored it
            left = [(error.setting, error.change)]
        if left:
            text, mistake = settings.message(*left[0])
            fail(f"输入 {case.describe()} 时，{fn_name} 返回之后，{text}", mistake=mistake)
        if isinstance(error, CheckError):
            raise error
        if type(error).__name__ == "PlayedLowerPrecision":  # a scenario's call on a played GPU (course.scenarios)
            _fail_lower_precision(case, fn_name, str(error))
        if type(error).__name__ == "PlayedMoveToDevice":  # a class built, or ds[i] read, on a played GPU
            fail(
                f"输入 {case.describe()} 时，{fn_name} 在 GPU 上（测试扮演 GPU）把 CPU 上的张量搬到了 GPU（{error}）。"
                + (
                    "模型放在哪个设备由调用者决定：__init__ 里只建层，不要 .cuda() / .to(device)，调用者会 model.to(device)。"
                    if "Module" in str(error)
                    else "Dataset 的样本留在 CPU 上，和交给它的 pixels 一样（DataLoader 的 pin_memory 只收 CPU 张量）："
                    "__getitem__ 里不要 .cuda() / .to(device)，训练循环每个 batch 搬一次。"
                ),
                mistake="moved-to-device-inside",
            )
        if error is not None:  # the learner's code failed: say where and, if we can, why
            hint = _explain_exception(error)
            detail = str(error).strip()[:300].rstrip("。.")
            fail(
                f"输入 {case.describe()} 时，{fn_name} 抛出 {type(error).__name__}"
                + (f": {detail}" if detail else "")
                + (f"。{hint}" if hint else "")
            )
    if precision:
        _fail_lower_precision(case, fn_name, precision)
    if copy:
        change = _changed_argument(snapshot, (args, kwargs), given)
        if change:
            fail(
                f"输入 {case.describe()} 时，{fn_name} 修改了调用者传入的数据（{change}）。"
                "不要修改调用者传入的数据，返回新的结果。",
                mistake="modifies-input",
            )
        written = _written_in_place(versions)
        if written is not None:
            fail(
                f"输入 {case.describe()} 时，{fn_name} 对调用者传入的张量（形状 {tuple(written.shape)}）、它的视图或 .data "
                "做了原地操作 (in-place，例如 unsqueeze_、transpose_、-=、copy_、x.data.sub_())：返回时值和形状看起来没变，"
                "可这块内存在调用中被写过（视图和原张量共用一个版本号；经 .data 写入时版本号不变，计算图发现不了）。"
                "调用者的计算图若保存了这个张量，backward() 会报错 modified by an inplace operation；需要梯度的叶子张量、"
                "推理张量 (inference tensor)、expand 出来的张量则在原地操作时就报错。不要原地修改输入：用返回新张量的写法"
                "（unsqueeze、x - 1、x[None]）。",
                mistake="modifies-input",
            )
    inference = None if inference_ok else _inference_tensor(result)
    if inference is not None:
        fail(
            f"输入 {case.describe()} 时，{fn_name} 返回的张量（形状 {tuple(inference.shape)}）是推理张量 (inference tensor，"
            "is_inference() 为 True)：它是在 torch.inference_mode() 里算出来的。出了 inference_mode，调用者既不能把它存进"
            "计算图（训练时报 Inference tensors cannot be saved for backward），也不能原地修改它。这个函数不需要 "
            "inference_mode：去掉它，直接计算、返回普通张量。",
            mistake="inference-result",
        )
    if caught:
        case.warnings = [str(w.message) for w in caught]  # type: ignore[attr-defined]
    return result


def _fail_lower_precision(case: Case, fn_name: str, precision: str) -> NoReturn:
    __tracebackhide__ = True
    fail(
        f"输入 {case.describe()} 时，{fn_name} 在 GPU 上（测试扮演 GPU）用了更低的精度：{precision}，同样的输入在 CPU 上没有。"
        "在 GPU 上 float16 / bfloat16 的 autocast、TF32 的矩阵乘法都只保留约 10 位有效数字，算出的值和梯度就不是输入自己精度的了。"
        "函数按输入的 dtype 计算；要不要用低精度由调用者决定，不要只在 GPU 上替它打开。"
    )


def _compare(actual: Any, expected: Any, *, name: str, **options: Any) -> None:
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    if isinstance(expected, torch.Tensor):
        check_tensor(actual, expected, name=name, **options)
    elif isinstance(expected, (tuple, list)) and not isinstance(expected, torch.Size):
        if not isinstance(actual, (tuple, list)) or len(actual) != len(expected):
            fail(f"{name} 应该是长度为 {len(expected)} 的 {type(expected).__name__}，得到 {actual!r:.200}。")
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, name=f"{name}[{i}]", **options)
    elif isinstance(expected, dict):
        if not isinstance(actual, dict) or set(actual) != set(expected):
            got = sorted(map(str, actual)) if isinstance(actual, dict) else type(actual).__name__
            fail(f"{name} 应该是键为 {sorted(map(str, expected))} 的 dict，得到 {got}。")
        for key in expected:
            _compare(actual[key], expected[key], name=f"{name}[{key!r}]", **options)
    elif isinstance(expected, float) and not isinstance(expected, bool):
        check_close(actual, expected, name=name, rtol=options.get("rtol", 1e-5), atol=options.get("atol", 1e-6))
    else:
        if isinstance(expected, torch.Size):
            actual_cmp = tuple(actual) if isinstance(actual, (tuple, list, torch.Size)) else actual
            expected_cmp: Any = tuple(expected)
        else:
            actual_cmp, expected_cmp = actual, expected
        if type(actual_cmp) is not type(expected_cmp) and not (
            isinstance(actual_cmp, tuple) and isinstance(expected_cmp, tuple)
        ):
            fail(
                f"{name} 应该是 {type(expected_cmp).__name__}，得到的是 {type(actual_cmp).__name__}: {actual_cmp!r:.200}。"
            )
        if actual_cmp != expected_cmp:
            fail(f"{name} 不对：期望 {expected_cmp!r}，得到 {actual_cmp!r}。")


def check_function(
    fn: Callable[..., Any],
    reference: Callable[..., Any],
    cases: Sequence[Case] | Iterable[Case],
    *,
    name: str | None = None,
    **options: Any,
) -> None:
    """Run ``fn`` and ``reference`` on every case and compare strictly (see :func:`check_tensor`).

    ``fn`` gets copies of the inputs, so in-place changes are caught and never reach ``reference``.
    The first failing case is reported with its input shapes and the first wrong index.
    """
    __tracebackhide__ = True  # IPython and pytest hide this frame: the message is what matters
    fn_name = name or getattr(fn, "__name__", "你的函数")
    if not callable(fn):
        fail(f"{fn_name} 应该是一个函数，得到的是 {type(fn).__name__}。")
    for case in cases:
        expected = reference(*_clone(case.args), **_clone(case.kwargs))
        actual = call_learner(fn, case, fn_name=fn_name)
        try:
            _compare(actual, expected, name=f"{fn_name} 的返回值", **options)
        except CheckError as err:
            extra = ""
            if getattr(case, "warnings", None):
                extra = f"（运行时还有警告 (warning)：{case.warnings[0][:200]}）"  # type: ignore[attr-defined]
            raise CheckError(f"输入 {case.describe()} 时：{err}{extra}", mistake=err.mistake) from None
