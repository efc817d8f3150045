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
        "打印每一步的 dtype，找出 float64 从哪一步开始，在那里写 dtype=torch.float32。",
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
        "inference-result",
        "返回了推理张量",
        "returns an inference tensor",
        "只有题目要求时才用 torch.inference_mode()：它算出的张量不能参与训练的计算图，也不能在外面原地修改。",
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
    # 06_no_grad
    Mistake(
        "forward-in-training-mode",
        "评估时模型还在训练模式",
        "evaluates the model in training mode",
        "评估前调用 model.eval()：inference_mode() / no_grad() 只管计算图，不切换 Dropout / BatchNorm。",
    ),
    Mistake(
        "recursive-train-restore",
        "用一次递归的 train() 恢复模式",
        "restores modes with one recursive train()",
        "model.train(mode) 把所有子模块设成同一个模式：逐个记下 m.training，返回前逐个赋值恢复。",
    ),
    Mistake(
        "training-attr-not-recursive",
        "给 m.training 赋值不会递归",
        "assigning m.training changes one module only",
        "m.eval() / m.train(mode) 递归到全部子模块；m.training = ... 只改 m 这一个模块。",
    ),
    Mistake(
        "module-requires-grad-attr",
        "给模块赋值 requires_grad 属性",
        "sets module.requires_grad, a plain attribute",
        "nn.Module 没有 requires_grad 开关：用 module.requires_grad_(False)，或对每个参数 p.requires_grad_(False)。",
    ),
    Mistake(
        "frozen-params-in-optimizer",
        "把冻结参数交给了优化器",
        "frozen parameters passed to the optimizer",
        "只把 requires_grad 为 True 的参数交给优化器：冻结参数的 .grad 不是 None 时优化器照样更新它。",
    ),
    Mistake(
        "target-not-detached",
        "目标值没有截断梯度",
        "gradient flows through the target",
        "在 torch.no_grad() 里计算 target，或对它 .detach()；预测这一支保留梯度。",
    ),
    Mistake(
        "edits-data",
        "通过 .data 修改张量",
        "edits a tensor through .data",
        "在 torch.no_grad() 里原地更新张量本身；.data 绕过 autograd 的版本计数，出错时不会报错。",
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
    # 09_debugging (also: missing-zero-grad, missing-model-train, broadcast-n-by-n above)
    Mistake(
        "softmax-before-ce",
        "先 softmax 再交给 cross_entropy",
        "softmax applied before cross_entropy",
        "F.cross_entropy / CrossEntropyLoss 自己做 log_softmax：把 logits 直接交给它。",
    ),
    # 10_lenet_mnist (also: softmax-before-ce above)
    # 04_devices (also: modifies-input above)
    Mistake(
        "to-tensor-copies-dtype",
        "移设备时 dtype 也跟着参照张量变了",
        "the dtype follows the reference tensor too (x.to(tensor))",
        "x.to(另一个张量) 同时改 dtype 和 device（写 dtype=ref.dtype 也一样）：只移设备写 x.to(另一个张量.device)。",
    ),
    Mistake(
        "global-device",
        "用了全局变量 device",
        "uses the global device instead of the argument's",
        "目标设备从参数取（ref.device 或 next(model.parameters()).device），不要读全局的 device。",
    ),
    Mistake(
        "result-not-moved",
        "结果还在输入原来的设备上",
        "the result stays on the input's device",
        "返回值要在目标设备上：看一看函数返回的是不是移动之后的那个张量。",
    ),
    Mistake(
        "causal-mask-hides-diagonal",
        "因果掩码连对角线也遮住了",
        "the causal mask hides the diagonal too",
        "位置 i 可以看见自己：只遮住 j > i，用 triu(diagonal=1)。",
    ),
    # 05_autograd (also: missing-zero-grad above)
    Mistake(
        "grad-accumulates-across-backward",
        "多次 backward() 的梯度累加在同一个 .grad 里",
        "gradients of several backward() calls summed in one .grad",
        "backward() 把梯度加到 .grad 上而不是覆盖：每次之前清空 (x.grad = None)，或用 torch.autograd.grad。",
    ),
    Mistake(
        "micro-batch-loss-not-scaled",
        "micro-batch 的 loss 没有按比例缩放",
        "micro-batch losses not scaled by their share of the batch",
        "每块的 loss 是该块的平均值：乘以 len(xb) / N 再 backward()，累积出的才是整批的梯度。",
    ),
    Mistake(
        "zero-grad-inside-accumulation",
        "梯度累积时前面几块的梯度被清掉或覆盖了",
        "earlier micro-batches' gradients zeroed or overwritten inside the accumulation loop",
        "zero_grad() 只在开始累积前调用一次，每块的梯度加到 .grad 上：放进循环里的 zero_grad()、p.grad = g 这样的赋值都会丢掉前面几块的梯度。",
    ),
    # 08_clipping
    Mistake(
        "norm-after-clip",
        "记录的是裁剪之后的范数",
        "the norm after clipping where the one before is expected",
        "要的是裁剪之前的总范数：clip_grad_norm_ 的返回值，不是裁剪后重新算的范数 (≈ max_norm)。",
    ),
    Mistake(
        "clip-by-value",
        "逐元素截断代替了按范数裁剪",
        "element-wise clamp instead of norm clipping",
        "clamp / clip_grad_value_ 逐元素截断，会改变梯度方向：按全局范数整体乘以同一个系数。",
    ),
    Mistake(
        "clip-coef-not-capped",
        "裁剪系数没有截到 1",
        "clipping coefficient not capped at 1",
        "总范数小于 max_norm 时梯度不变：coef = (max_norm / (total + 1e-6)).clamp(max=1.0)。",
    ),
    Mistake(
        "per-tensor-clip",
        "每个张量各自裁剪",
        "each tensor clipped separately",
        "用所有梯度拼在一起的全局范数算出同一个系数，每个梯度都乘以它。",
    ),
    Mistake(
        "clip-after-step",
        "在 step() 之后才裁剪",
        "clipping after optimizer.step()",
        "clip_grad_norm_ 放在 backward() 之后、step() 之前：step() 已经用没裁剪的梯度更新了参数。",
    ),
    # 04_devices (issue 17 review, rfb)
    Mistake(
        "to-result-discarded",
        "调用了 x.to(...) 却丢掉了它的返回值",
        "calls x.to(...) but discards its result",
        "x.to(device) 不改动 x，而是返回新张量：写 x = x.to(device) 或 return x.to(device)。",
    ),
    # 07_item, 08_clipping, 09_debugging (review rfc)
    Mistake(
        "host-copy-used-on-device",
        "拷到主机的副本又和设备上的张量一起运算",
        "a copy moved to the host used beside device tensors",
        "在主机上检查用副本，另起名字；运算仍用设备上的原张量，不要把 .cpu() 的结果赋回原来的名字。",
    ),
    Mistake(
        "new-tensor-without-device",
        "新建张量没有放到数据所在的设备上",
        "a tensor made on the CPU meets tensors on the device",
        "函数里新建、要和传进来的张量一起运算的张量，用 torch.zeros(..., device=t.device) 直接建在同一设备上；只是数时用 Python 数字（从 Python 数据建张量再送上设备是一次阻塞拷贝）。",
    ),
    Mistake(
        "nonfinite-loss-hidden",
        "把 nan / inf 的 loss 藏掉了",
        "a nan / inf loss hidden from the mean",
        "只选掉目标全被忽略的 batch；有目标的 batch 的 loss 是 nan / inf 时，平均值也应是 nan / inf（nansum、nan_to_num 会把它藏起来）。",
    ),
    # 01_tensors (issue-17 review rfa)
    Mistake(
        "device-index-ignored",
        "忽略了设备编号",
        "device index ignored (cuda:0 taken for cuda:1)",
        "cuda:0 与 cuda:1 是不同的设备：比较 x.device 本身，不要只比较 x.device.type。",
    ),
    # 07_item (issue-17 closing review r0607)
    Mistake(
        "loss-args-swapped",
        "损失函数的两个参数顺序反了",
        "loss function called as loss_fn(target, prediction)",
        "loss_fn(model(x), y)：先预测、后目标；MSELoss 碰巧对称，CrossEntropyLoss 等反过来会报错或算错。",
    ),
    Mistake(
        "losses-kept-with-graph",
        "把每一步连着计算图的 loss 留了下来",
        "every step's loss kept with its graph",
        "history.append(loss) 让每一步的计算图一直留在内存里：存 loss.detach() 或 loss.item()。",
    ),
    # 01_tensors (issue-17 review r0105)
    Mistake(
        "numpy-float64-kept",
        "保留了 NumPy 数组的 float64",
        "a NumPy array's float64 kept",
        "torch.tensor(数组) / torch.as_tensor / torch.from_numpy 保留数组的 dtype：对数组也写 dtype=torch.float32。",
    ),
    # 10_lenet_mnist (issue-17 review r10)
    Mistake(
        "generator-ignored",
        "打乱的顺序不由传入的 generator 决定",
        "the shuffle order ignores the generator passed in",
        "把传入的 generator 交给采样器（RandomSampler(ds, generator=generator)），不要重设全局种子或自己新建 Generator。",
    ),
    Mistake(
        "global-seed-reset",
        "在函数里重设了全局随机种子",
        "the global seed reset inside a function",
        "torch.manual_seed / torch.seed 改的是整个进程的随机数生成器：只在程序开始时调用一次。在函数里（例如每个 epoch）"
        "重设，调用者之后的随机数全跟着变，Dropout 的掩码和打乱的顺序每次都一样；要可复现，用 torch.Generator。",
    ),
    Mistake(
        "snapshot-without-buffers",
        "快照只留了参数，没有留缓冲区",
        "the snapshot keeps the parameters but not the buffers",
        "快照和恢复用整个 state_dict()（参数和缓冲区，例如 BatchNorm 的 running_mean），不要只复制 parameters()。",
    ),
    # 02_shapes (issue-17 final pass, rva)
    Mistake(
        "switches-model-mode",
        "在函数里切换了模型的训练 / 评估模式",
        "switches the model's train / eval mode inside the function",
        "按调用者选的模式运行模型：函数里不要调用 model.eval() / model.train()，即使之后又切回原来的模式。",
    ),
    # 06_no_grad (issue-17 final review rvb)
    Mistake(
        "grad-mode-left-off",
        "函数返回后 grad mode 仍然关着",
        "grad mode left off after the function returns",
        "torch.set_grad_enabled(False) 这样的调用改的是全局设置：用 with torch.inference_mode(): / with torch.no_grad(): 只关一个块。",
    ),
    # 08_clipping (issue-17 final fresh pass, rve5)
    Mistake(
        "layer-as-leaf-module",
        "只把叶子模块当作层",
        "takes only leaf modules for layers",
        "层是直接拥有参数的模块，不只是叶子模块（根模块也可以有自己的参数）：按参数名去掉最后一段（name.rpartition('.')[0]）分组。",
    ),
    # 07_item (issue-17 final review rvb5)
    Mistake(
        "outputs-kept-with-graph",
        "把每一步连着计算图的模型输出留了下来",
        "every step's model output kept with its graph",
        "outputs.append(model(x)) 让每一步的计算图一直留在内存里：要留输出（之后算准确率等），存 out.detach()。",
    ),
    # 10_lenet_mnist (issue-17 final pass, rvh5)
    Mistake(
        "unsynced-host-copy-read",
        "读了没有同步的 non_blocking 设备→主机拷贝",
        "reads a non_blocking device-to-host copy before any sync",
        'x.to("cpu", non_blocking=True) 立即返回，数据还在路上：读回主机用阻塞的 .tolist() / .item() / .cpu()。',
    ),
    # 10_lenet_mnist (issue-17 stop 58): the played GPU sees a class or a Dataset move what it makes
    Mistake(
        "moved-to-device-inside",
        "在 __init__ / __getitem__ 里把张量搬到了 GPU",
        "moves to the GPU inside __init__ or __getitem__",
        "放在哪个设备由调用者决定：__init__ 只建层（调用者 model.to(device)），Dataset 的样本留在 CPU 上，训练循环每个 batch 搬一次。",
    ),
    # 05_autograd (issue-17 fresh pass, rwc)
    Mistake(
        "momentum-buffer-with-graph",
        "动量缓冲区连着计算图",
        "momentum buffer built with grad mode on",
        "d = p.grad + weight_decay * p 写在 torch.no_grad() 外面时，缓冲区 requires_grad=True，每一步的图连成一串：整步更新都放进 no_grad()。",
    ),
    # 09_debugging (issue-17 fresh pass, rwe)
    Mistake(
        "grads-cleared-after-step",
        "step() 之后又清了梯度",
        "gradients cleared after step()",
        "zero_grad() 放在训练步开头、backward() 之前：放在 step() 之后时，调用前留在 .grad 里的旧梯度会被累加进这一步，这一步的梯度之后也看不到了。",
    ),
    # 06_no_grad (s35 review, h3)
    Mistake(
        "inference-tensor-in-training",
        "推理张量进了要反向传播的计算",
        "an inference tensor used in computation autograd records",
        "inference_mode() 里算出的张量只用于纯推理：要当常数进训练计算的值，用 torch.no_grad() 或 .detach() 得到。",
    ),
    # every notebook (s36): course.settings watches every call of a learner's function
    Mistake(
        "global-setting-changed",
        "函数返回后留下了对全局设置的改动",
        "leaves a process-wide setting changed",
        "函数只通过返回值交出结果：torch.set_default_dtype、warnings.filterwarnings 这类调用改的是整个进程，"
        "临时改动用只管一个块的写法（with warnings.catch_warnings(): 等），或者干脆不改。",
    ),
    Mistake(
        "hook-left-on-module",
        "在调用者的模块或优化器上留下了 hook",
        "leaves a hook registered on the caller's module or optimizer",
        "register_forward_hook 这类调用返回一个 handle：用完就 handle.remove()（放在 finally 里），"
        "否则调用者之后每次 forward / backward 都会再运行它，每调用一次函数还多挂一个。",
    ),
)

CATALOGUE: dict[str, Mistake] = {m.id: m for m in _ENTRIES}


def known(mistake: object) -> bool:
    """Whether ``mistake`` is an id in the catalogue."""
    return isinstance(mistake, str) and mistake in CATALOGUE


def checked(mistake: object) -> str:
    """``mistake`` if it is a catalogue id, else '' (what a failure carries when it proves no named mistake)."""
    return mistake if known(mistake) else ""  # type: ignore[return-value]
