"""Wrong answers learners write for 10_lenet_mnist; each must fail its test cell with the message named."""

import json
from pathlib import Path

from tests.notebooks import edited, solution_with, solution_wrapped

_NOTEBOOK = Path(__file__).resolve().parents[2] / "source" / "10_lenet_mnist" / "10_lenet_mnist.ipynb"


def _training_cell() -> str:
    """The instructor's training cell (exercise 6), so a mutant can retrain with a wrong function."""
    cells = json.loads(_NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "train_model":
            source = "".join(cell["source"])
            return "\n".join(line for line in source.splitlines() if "### BEGIN" not in line and "### END" not in line)
    raise LookupError("no train_model cell")


def _body(signature: str, body: str) -> str:
    return signature + "\n" + "".join(f"    {line}\n" for line in body.strip().splitlines())


# ---------------------------------------------------------------------------------------------------
# MNISTDataset

_DATASET = """
class MNISTDataset(Dataset):
    def __init__(self, pixels, labels):
        {init}

    def __len__(self):
        {length}

    def __getitem__(self, index):
        {item}
"""
_INIT = "self.pixels, self.labels = pixels, labels"
_LEN = "return self.pixels.shape[0]"
_NORMALISED = "(self.pixels[index].float() / 255 - MNIST_MEAN) / MNIST_STD"


def _dataset(
    init: str = _INIT, length: str = _LEN, item: str = f"return ({_NORMALISED}).unsqueeze(0), self.labels[index]"
):
    return _DATASET.format(init=init, length=length, item=item)


# ---------------------------------------------------------------------------------------------------
# LeNet

_LENET = """
class LeNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=10, image_size=28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={{image_size}} too small")
        self.conv1 = nn.Conv2d({conv_in}, 6, 5, padding={padding})
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = {first}
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, {classes})

    def forward(self, x):
{forward}
"""
_FORWARD = """
x = F.max_pool2d(F.relu(self.conv1(x)), 2)
x = F.max_pool2d(F.relu(self.conv2(x)), 2)
x = torch.flatten(x, 1)
x = F.relu(self.fc1(x))
x = F.relu(self.fc2(x))
return self.fc3(x)
"""


def _lenet(
    conv_in: str = "in_channels",
    padding: str = "2",
    first: str = "nn.Linear(16 * side * side, 120)",
    classes: str = "num_classes",
    forward: str = _FORWARD,
) -> str:
    body = "".join(f"        {line}\n" for line in forward.strip().splitlines())
    return _LENET.format(conv_in=conv_in, padding=padding, first=first, classes=classes, forward=body.rstrip("\n"))


def _forward_with(old: str, new: str) -> str:
    assert old in _FORWARD, old
    return _lenet(forward=_FORWARD.replace(old, new))


# ---------------------------------------------------------------------------------------------------
# train_one_epoch

_EPOCH_SIGNATURE = "def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):"
_EPOCH_OK = """
device = next(model.parameters()).device
model.train()
losses = []
for xb, yb in loader:
    xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
    optimizer.zero_grad(set_to_none=True)
    loss = loss_fn(model(xb), yb)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    if scheduler is not None:
        scheduler.step()
    losses.append(loss.detach())
return torch.stack(losses)
"""


def _epoch_with(old: str, new: str) -> str:
    assert old in _EPOCH_OK, old
    return _body(_EPOCH_SIGNATURE, _EPOCH_OK.replace(old, new))


_CLIP = "    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
_SCHED = "    if scheduler is not None:\n        scheduler.step()\n"

# ---------------------------------------------------------------------------------------------------
# make_loader

_LOADER = """
class TensorBatches(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, indices):
        return self.x[indices], self.y[indices]


def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    dataset = TensorBatches(x, y)
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    sampler = BatchSampler(order, batch_size, drop_last=False)
    return DataLoader(dataset, batch_size=None, sampler=sampler, pin_memory=pin_memory)
"""


def _loader_with(old: str, new: str) -> str:
    assert old in _LOADER, old
    return _LOADER.replace(old, new)


# ---------------------------------------------------------------------------------------------------
# fit

_FIT = """
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch} done")
    model.load_state_dict(best_state)
    return history
"""


def _fit_with(old: str, new: str) -> str:
    assert old in _FIT, old
    return _FIT.replace(old, new)


def _fit_snapshot(snapshot: str, restore: str) -> str:
    """The solution with another snapshot of the best epoch and another way of restoring it."""
    return _fit_with("copy.deepcopy(model.state_dict())", snapshot).replace(
        "    model.load_state_dict(best_state)\n", restore
    )


# ---------------------------------------------------------------------------------------------------
# evaluate

_EVAL_SIGNATURE = "def evaluate(model, x, y, batch_size):"


def _evaluate(body: str) -> str:
    return _body(_EVAL_SIGNATURE, body)


_RESTORE = """
modes = [(m, m.training) for m in model.modules()]
model.eval()
try:
{inner}
finally:
    for m, mode in modes:
        m.training = mode
"""


def _restoring(inner: str) -> str:
    return _evaluate(_RESTORE.format(inner="".join(f"    {line}\n" for line in inner.strip().splitlines())))


def _restoring_with(old: str, new: str) -> str:
    """The solution (``_COUNT`` inside the save / try / finally restore) with one edit."""
    solution = _restoring(_COUNT)
    assert old in solution, old
    return solution.replace(old, new)


_MODULES = "modes = [(m, m.training) for m in model.modules()]"
_CHILDREN = "modes = [(model, model.training)] + [(m, m.training) for m in model.children()]"
_PER_MODULE = "for m, mode in modes:\n            m.training = mode"


_COUNT = """
correct = torch.zeros((), dtype=torch.long, device=y.device)
with torch.inference_mode():
    for i in range(0, x.shape[0], batch_size):
        correct += (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).sum()
return correct.item() / y.shape[0]
"""

# ---------------------------------------------------------------------------------------------------
# checkpoints

_CHECKPOINTS = """
def make_checkpoint(model, optimizer, epoch):
    return {make}


def restore_checkpoint(checkpoint, model, optimizer):
{restore}
"""
_MAKE_OK = 'copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})'
_RESTORE_OK = """    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]"""


def _checkpoints(make: str = _MAKE_OK, restore: str = _RESTORE_OK) -> str:
    return _CHECKPOINTS.format(make=make, restore=restore)


# a sampler that shuffles whole fixed batches (their membership never changes): two make_loader mutants use it
_BLOCKS_SHUFFLED = """
class _FullBlocksShuffled(torch.utils.data.Sampler):
    def __init__(self, full, rest, generator):
        self.full, self.rest, self.generator = full, rest, generator

    def __iter__(self):
        order = torch.randperm(len(self.full), generator=self.generator).tolist()
        return iter([self.full[i] for i in order] + self.rest)

    def __len__(self):
        return len(self.full) + len(self.rest)
"""

MUTANTS = [
    # predict first
    dict(
        grade_id="test_predict_inference",
        formative=True,
        name="inference tensors can never enter autograd",
        expect="A 能运行",
        code="predict_inference = (True, True, True)\n",
    ),
    dict(
        grade_id="test_predict_inference",
        formative=True,
        name="only the in-place update fails",
        expect="B 报错",
        code="predict_inference = (False, False, True)\n",
    ),
    dict(
        grade_id="test_predict_inference",
        formative=True,
        name="nothing fails outside inference_mode",
        expect="C 报错",
        code="predict_inference = (False, False, False)\n",
    ),
    dict(
        grade_id="test_predict_inference",
        formative=True,
        name="answer as a string",
        expect="应写成 tuple",
        code='predict_inference = "B, C"\n',
    ),
    dict(
        grade_id="test_predict_restore",
        formative=True,
        name="train(was_training) restores the frozen BatchNorm too",
        expect="递归",
        code="predict_restore = (True, False)\n",
    ),
    dict(
        grade_id="test_predict_restore",
        formative=True,
        name="everything stays in eval",
        expect="递归",
        code="predict_restore = (False, False)\n",
    ),
    dict(
        grade_id="test_predict_restore",
        formative=True,
        name="one bool instead of the pair",
        expect="应写成 tuple",
        code="predict_restore = True\n",
    ),
    dict(
        grade_id="test_predict_state_dict",
        formative=True,
        name="state_dict() is a snapshot",
        expect="共享存储",
        code="predict_state_dict = True\n",
    ),
    dict(
        grade_id="test_predict_state_dict",
        formative=True,
        name="answer as a string",
        expect="之一",
        code='predict_state_dict = "False"\n',
    ),
    dict(
        grade_id="test_predict_state_dict",
        formative=True,
        name="prediction left empty",
        expect="还没有写预测",
        code="predict_state_dict = None\n",
    ),
    # MNISTDataset
    dict(
        grade_id="test_mnist_dataset",
        name="no channel dimension",
        expect="通道维",
        code=_dataset(item=f"return {_NORMALISED}, self.labels[index]"),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="divides by 255 but does not normalise",
        expect="标准化",
        code=_dataset(item="return (self.pixels[index].float() / 255).unsqueeze(0), self.labels[index]"),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="normalises the raw 0..255 pixels",
        expect="没有先除以 255",
        code=_dataset(
            item="return ((self.pixels[index].float() - MNIST_MEAN) / MNIST_STD).unsqueeze(0), self.labels[index]"
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="returns the uint8 pixels",
        expect="uint8",
        code=_dataset(item="return self.pixels[index].unsqueeze(0), self.labels[index]"),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="__len__ returns the shape",
        expect="len(ds)",
        code=_dataset(length="return self.pixels.shape"),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="__len__ returns the image side",
        expect="len(ds)",
        code=_dataset(length="return len(self.pixels[0])"),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="converts the whole dataset for every sample",
        expect="整个数据集",
        code=_dataset(
            item="images = ((self.pixels.float() / 255 - MNIST_MEAN) / MNIST_STD).unsqueeze(1)\n"
            "        return images[index], self.labels[index]"
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="converts the whole dataset in __init__",
        expect="构造时",
        code=_dataset(
            init="self.images = ((pixels.float() / 255 - MNIST_MEAN) / MNIST_STD).unsqueeze(1)\n"
            "        self.labels = labels",
            length="return len(self.labels)",
            item="return self.images[index], self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="label as a float",
        expect="torch.long",
        code=_dataset(item=f"return ({_NORMALISED}).unsqueeze(0), self.labels[index].float()"),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="label as a (1,) slice",
        expect="(B, 1)",
        code=_dataset(item=f"return ({_NORMALISED}).unsqueeze(0), self.labels[index:index + 1]"),
    ),
    # LeNet
    dict(
        grade_id="test_lenet",
        name="no padding on 28x28 input (first Linear computed for padding=2)",
        expect="mat1 and mat2",
        code=_lenet(padding="0"),
    ),
    dict(
        grade_id="test_lenet",
        name="no padding, first Linear patched to the unpadded size",
        expect="padding=2",
        code=_lenet(padding="0", first="nn.Linear(16 * (((image_size - 4) // 2 - 4) // 2) ** 2, 120)"),
    ),
    dict(
        grade_id="test_lenet",
        name="softmax at the end of forward",
        expect="softmax",
        mistake="softmax-before-ce",
        code=_forward_with("return self.fc3(x)", "return F.softmax(self.fc3(x), dim=1)"),
    ),
    dict(
        grade_id="test_lenet",
        name="forward skips fc2 (fc3 built for 120 inputs)",
        expect="参数的形状不对",
        code=_lenet(classes="num_classes")
        .replace("self.fc3 = nn.Linear(84, num_classes)", "self.fc3 = nn.Linear(120, num_classes)")
        .replace("        x = F.relu(self.fc2(x))\n", ""),
    ),
    dict(
        grade_id="test_lenet",
        name="forward skips fc2 (registered but never called)",
        expect="没有用到",
        code=_forward_with("x = F.relu(self.fc2(x))", "x = x[:, :84]"),
    ),
    dict(
        grade_id="test_lenet",
        name="forgets the ReLU after the first Linear",
        expect="少了第一个 Linear之后的 ReLU",
        code=_forward_with("x = F.relu(self.fc1(x))", "x = self.fc1(x)"),
    ),
    dict(
        grade_id="test_lenet",
        name="forgets the ReLU after the first convolution",
        expect="少了第一层卷积之后的 ReLU",
        code=_forward_with("F.max_pool2d(F.relu(self.conv1(x)), 2)", "F.max_pool2d(self.conv1(x), 2)"),
    ),
    dict(
        grade_id="test_lenet",
        name="flattens channels last (permute before flatten)",
        expect="flatten 的顺序",
        code=_forward_with("torch.flatten(x, 1)", "torch.flatten(x.permute(0, 2, 3, 1), 1)"),
    ),
    dict(
        grade_id="test_lenet",
        name="flattens with view(-1, 400) (only 28x28 works)",
        expect="LeNet(3, 10, 32)",
        code=_forward_with("torch.flatten(x, 1)", "x.view(-1, 400)"),
    ),
    dict(
        grade_id="test_lenet",
        name="flattens the batch too (torch.flatten(x))",
        expect="forward 抛出 RuntimeError",
        code=_forward_with("torch.flatten(x, 1)", "torch.flatten(x)"),
    ),
    dict(
        grade_id="test_lenet",
        name="layers as class attributes (never registered)",
        expect="没有参数",
        code="""
class LeNet(nn.Module):
    conv1 = nn.Conv2d(1, 6, 5, padding=2)

    def __init__(self, in_channels=1, num_classes=10, image_size=28):
        if (image_size // 2 - 4) // 2 < 1:
            raise ValueError("image_size too small")
        super().__init__()

    def forward(self, x):
        return x
""",
    ),
    dict(
        grade_id="test_lenet",
        name="layers shared between instances (module-level layers)",
        expect="共享参数",
        code=_lenet()
        .replace("class LeNet(nn.Module):", "_SHARED = {}\n\n\nclass LeNet(nn.Module):")
        .replace(
            "        self.conv1 = nn.Conv2d(in_channels, 6, 5, padding=2)\n",
            "        self.conv1 = _SHARED.setdefault(in_channels, nn.Conv2d(in_channels, 6, 5, padding=2))\n",
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="first Linear hard-coded to 400 inputs",
        expect="in_features 是 400，应是 576",
        code=_lenet(first="nn.Linear(400, 120)"),
    ),
    dict(
        grade_id="test_lenet",
        name="ignores in_channels",
        expect="输入通道数",
        code=_lenet(conv_in="1"),
    ),
    dict(
        grade_id="test_lenet",
        name="ignores num_classes",
        expect="num_classes=7",
        code=_lenet(classes="10"),
    ),
    dict(
        grade_id="test_lenet",
        name="true division for the side (odd sizes)",
        expect="向下取整",
        code=_lenet(first="nn.Linear(int(16 * (image_size / 4 - 2) ** 2), 120)"),
    ),
    dict(
        grade_id="test_lenet",
        name="no ValueError for a too small image",
        expect="应抛出 ValueError",
        code=_lenet().replace(
            '            raise ValueError(f"image_size={image_size} too small")\n', "            pass\n"
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="LazyLinear instead of computing in_features",
        expect="Lazy",
        code=_lenet(first="nn.LazyLinear(120)"),
    ),
    # train_one_epoch
    dict(
        grade_id="test_train_one_epoch",
        name="missing zero_grad",
        expect="zero_grad",
        code=_epoch_with("    optimizer.zero_grad(set_to_none=True)\n", ""),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="zero_grad(set_to_none=False)",
        expect="set_to_none=True",
        code=_epoch_with("set_to_none=True", "set_to_none=False"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="softmax before CrossEntropyLoss",
        expect="softmax",
        code=_epoch_with("loss_fn(model(xb), yb)", "loss_fn(model(xb).softmax(dim=1), yb)"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="clipping after step",
        expect="裁剪发生在 step() 之后",
        mistake="clip-after-step",
        code=_epoch_with(_CLIP + "    optimizer.step()\n", "    optimizer.step()\n" + _CLIP),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="clipping before backward",
        expect="backward() 之后、step() 之前",
        code=_epoch_with("    loss.backward()\n" + _CLIP, _CLIP + "    loss.backward()\n"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="no clipping",
        expect="没有被按范数裁剪",
        code=_epoch_with(_CLIP, ""),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="no optimizer.step()",
        expect="optimizer.step()",
        code=_epoch_with("    optimizer.step()\n", ""),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="float labels",
        expect="torch.long",
        code=_epoch_with("loss_fn(model(xb), yb)", "loss_fn(model(xb), yb.float())"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name=".item() every step",
        expect=".item()",
        code=_epoch_with(
            "losses.append(loss.detach())\nreturn torch.stack(losses)", "losses.append(loss.item())\nreturn losses"
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="float(loss) every step, tensor returned",
        expect="同步",
        code=_epoch_with(
            "losses.append(loss.detach())\nreturn torch.stack(losses)",
            "losses.append(float(loss))\nreturn torch.tensor(losses)",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name='.to("cpu") every step',
        expect='.to("cpu")',
        code=_epoch_with("losses.append(loss.detach())", 'losses.append(loss.detach().to("cpu"))'),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="copy_ into a CPU buffer",
        expect="cpu_tensor.copy_(t)",
        code=_epoch_with("losses = []", "losses = []\nbuffer = torch.zeros(())").replace(
            "losses.append(loss.detach())", "losses.append(buffer.clone().copy_(loss.detach()))"
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="losses still attached to the graph",
        expect="detach()",
        code=_epoch_with("losses.append(loss.detach())", "losses.append(loss)"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="returns the mean loss",
        expect="(3,)",
        code=_epoch_with("return torch.stack(losses)", "return torch.stack(losses).mean()"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="never switches back to train()",
        expect="model.train()",
        code=_epoch_with("model.train()\n", ""),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="never steps the scheduler",
        expect="没有调用 scheduler.step()",
        code=_epoch_with(_SCHED, ""),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="steps the scheduler once per epoch",
        expect="只调用了一次",
        code=_epoch_with(_SCHED, "").replace(
            "    return torch.stack(losses)",
            "    if scheduler is not None:\n        scheduler.step()\n    return torch.stack(losses)",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="steps the scheduler before the optimizer",
        expect="之前调用",
        code=_epoch_with(_CLIP + "    optimizer.step()\n" + _SCHED, _CLIP + _SCHED + "    optimizer.step()\n"),
    ),
    # make_loader
    dict(
        grade_id="test_make_loader",
        name="training loader never shuffles",
        expect="没有打乱",
        code=_loader_with(
            "RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)",
            "SequentialSampler(dataset)",
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="shuffles with the global RNG instead of the generator",
        expect="generator",
        code=_loader_with("RandomSampler(dataset, generator=generator)", "RandomSampler(dataset)"),
    ),
    dict(
        grade_id="test_make_loader",
        name="samples with replacement",
        expect="恰好出现一次",
        code=_loader_with(
            "RandomSampler(dataset, generator=generator)",
            "RandomSampler(dataset, replacement=True, generator=generator)",
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="shuffles once in make_loader, same order every epoch",
        expect="顺序完全一样",
        code=_loader_with(
            "    dataset = TensorBatches(x, y)\n",
            "    if shuffle:\n        perm = torch.randperm(len(y), generator=generator)\n        x, y = x[perm], y[perm]\n"
            "    dataset = TensorBatches(x, y)\n",
        ).replace(
            "RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)",
            "SequentialSampler(dataset)",
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="drops the last, smaller batch",
        expect="丢了最后一个",
        code=_loader_with("drop_last=False", "drop_last=True"),
    ),
    dict(
        grade_id="test_make_loader",
        name="per-sample fetching (TensorDataset + automatic batching)",
        expect="逐个样本",
        code="""
def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    dataset = torch.utils.data.TensorDataset(x, y)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, generator=generator, pin_memory=pin_memory)
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="pin_memory not passed on",
        expect="pin_memory",
        code=_loader_with(", pin_memory=pin_memory)", ")"),
    ),
    # fit
    dict(
        grade_id="test_fit",
        name="best snapshot never restored",
        expect="load_state_dict",
        code=_fit_with("    model.load_state_dict(best_state)\n", ""),
    ),
    dict(
        grade_id="test_fit",
        name="best snapshot aliases state_dict() (no copy)",
        expect="copy.deepcopy",
        code=_fit_with("copy.deepcopy(model.state_dict())", "model.state_dict()"),
    ),
    dict(
        grade_id="test_fit",
        name="validates only after the last epoch",
        expect="每个 epoch 训练之后",
        code=_fit_with(
            '        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))\n',
            '        history["val_acc"].append(0.0)\n',
        ).replace(
            "    model.load_state_dict(best_state)\n",
            "    history['val_acc'][-1] = evaluate(model, x_val, y_val, 1000)\n",
        ),
    ),
    dict(
        grade_id="test_fit",
        name="keeps the last of equal best epochs (>=)",
        expect="严格超过",
        code=_fit_with('history["val_acc"][-1] > max(', 'history["val_acc"][-1] >= max('),
    ),
    # evaluate
    dict(
        grade_id="test_evaluate",
        name="missing model.eval()",
        expect="model.eval()",
        code=_evaluate(_COUNT),
    ),
    dict(
        grade_id="test_evaluate",
        name="no inference_mode / no_grad",
        expect="inference_mode",
        code=_restoring(_COUNT.replace("with torch.inference_mode():\n    for", "if True:\n    for")),
    ),
    dict(
        grade_id="test_evaluate",
        name="no_grad instead of inference_mode",
        expect="用的是 torch.no_grad()",
        code=_restoring(_COUNT.replace("torch.inference_mode()", "torch.no_grad()")),
    ),
    dict(
        grade_id="test_evaluate",
        name="accuracy of the last batch only",
        expect="最后一个 batch",
        code=_restoring("""
with torch.inference_mode():
    for i in range(0, x.shape[0], batch_size):
        acc = (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).float().mean()
return acc.item()
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name="mean of per-batch accuracies",
        expect="等权平均",
        code=_restoring("""
accs = []
with torch.inference_mode():
    for i in range(0, x.shape[0], batch_size):
        accs.append((model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).float().mean())
return torch.stack(accs).mean().item()
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name="returns a tensor instead of a Python float",
        expect="Python 数字",
        code=_restoring(_COUNT.replace("return correct.item() / y.shape[0]", "return correct / y.shape[0]")),
    ),
    dict(
        grade_id="test_evaluate",
        name="ignores batch_size (one forward over everything)",
        expect="batch 大小",
        code=_restoring("""
with torch.inference_mode():
    return (model(x).argmax(dim=1) == y).float().mean().item()
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name=".item() on every batch",
        expect="同步",
        code=_restoring_with(".sum()\n", ".sum().item()\n")
        .replace("correct = torch.zeros((), dtype=torch.long, device=y.device)", "correct = 0")
        .replace("correct.item() / y.shape[0]", "correct / y.shape[0]"),
    ),
    dict(
        grade_id="test_evaluate",
        name='.to("cpu") on every batch',
        expect='.to("cpu")',
        code=_restoring(_COUNT.replace(".sum()\n", '.sum().to("cpu")\n')),
    ),
    dict(
        grade_id="test_evaluate",
        name="np.asarray on every batch",
        expect="np.asarray",
        code="import numpy as np\n"
        + _restoring(
            _COUNT.replace("correct += (", "correct += np.asarray(")
            .replace("correct.item()", "float(correct)")
            .replace("correct = torch.zeros((), dtype=torch.long, device=y.device)", "correct = 0")
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="leaves the model in eval mode",
        expect="停在了 评估模式",
        code=_evaluate("model.eval()\n" + _COUNT),
    ),
    dict(
        grade_id="test_evaluate",
        name="restores the modes without try / finally",
        expect="model(x) 抛出异常之后",
        code=_evaluate(
            "modes = [(m, m.training) for m in model.modules()]\nmodel.eval()\n"
            + _COUNT.replace("return correct.item() / y.shape[0]", "acc = correct.item() / y.shape[0]")
            + "for m, mode in modes:\n    m.training = mode\nreturn acc\n"
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="restores with model.train(was_training)",
        expect="model.train(was_training) 会递归",
        code=_restoring_with(_MODULES, "was_training = model.training").replace(
            _PER_MODULE, "model.train(was_training)"
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="restores only the top-level flag",
        expect="停在了 评估模式",
        code=_restoring_with(_MODULES, "was_training = model.training").replace(
            _PER_MODULE, "model.training = was_training"
        ),
    ),
    # checkpoints
    dict(
        grade_id="test_checkpoint",
        name="state_dict() without a copy",
        expect="共享存储",
        code=_checkpoints(make='{"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}'),
    ),
    dict(
        grade_id="test_checkpoint",
        name="shallow dict copy of state_dict()",
        expect="共享存储",
        code=_checkpoints(
            make='{"model": model.state_dict().copy(), "optimizer": dict(optimizer.state_dict()), "epoch": epoch}'
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="model copied, optimizer state shared",
        expect="exp_avg",
        code=_checkpoints(
            make='{"model": copy.deepcopy(model.state_dict()), "optimizer": optimizer.state_dict(), "epoch": epoch}'
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="parameters only (no buffers)",
        expect="缓冲区",
        code=_checkpoints(
            make='copy.deepcopy({"model": dict(model.named_parameters()), "optimizer": optimizer.state_dict(), "epoch": epoch})'
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="stores the optimizer object",
        expect="优化器对象本身不是数据",
        code=_checkpoints(make='{"model": copy.deepcopy(model.state_dict()), "optimizer": optimizer, "epoch": epoch}'),
    ),
    dict(
        grade_id="test_checkpoint",
        name="restores the model only",
        expect="优化器的状态是空的",
        code=_checkpoints(restore='    model.load_state_dict(checkpoint["model"])\n    return checkpoint["epoch"]'),
    ),
    dict(
        grade_id="test_checkpoint",
        name="optimizer.load_state_dict without a copy",
        expect="恢复第二次",
        code=_checkpoints(
            restore='    model.load_state_dict(checkpoint["model"])\n'
            '    optimizer.load_state_dict(checkpoint["optimizer"])\n'
            '    return checkpoint["epoch"]'
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="restore returns nothing",
        expect="epoch",
        code=_checkpoints(restore=_RESTORE_OK.replace('    return checkpoint["epoch"]', "    pass")),
    ),
    # final accuracy (the trained model from the training cell)
    dict(
        grade_id="test_final_accuracy",
        name="re-ran LeNet() after training",
        expect="随机猜测",
        code="torch.manual_seed(1)\nmodel = LeNet().to(device)\n",
    ),
    dict(
        grade_id="test_final_accuracy",
        name="softmax appended to the trained model",
        expect="logits",
        mistake="softmax-before-ce",
        code="model = nn.Sequential(model, nn.Softmax(dim=1))\n",
    ),
    dict(
        grade_id="test_final_accuracy",
        name="model swapped for an nn.Sequential of another shape",
        expect="LeNet()",
        code="model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10)).to(device)\n",
    ),
    dict(
        grade_id="test_final_accuracy",
        name="trained model wrapped with a forward that is not the table's",
        expect="表格的 LeNet-5",
        code="""
class _Scaled(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return self.inner(x) * 0.5 + self.inner.fc3.bias


model = _Scaled(model)
""",
    ),
    dict(
        grade_id="test_final_accuracy",
        name="training loop leaves the scheduler out (lr stays at 0.002)",
        expect="低于阈值",
        code=_training_cell().replace("MAX_NORM, scheduler)", "MAX_NORM)"),
    ),
    dict(
        grade_id="test_final_accuracy",
        name="trained with softmax before CrossEntropyLoss",
        expect="1.461",
        # fit is redefined too: the cached namespace's fit would call the cached (correct) train_one_epoch
        code=_epoch_with("loss_fn(model(xb), yb)", "loss_fn(model(xb).softmax(dim=1), yb)") + _FIT + _training_cell(),
    ),
    # fx10: review round 3
    dict(
        grade_id="test_mnist_dataset",
        name="converts every image in __init__, one at a time",
        expect="构造时复制或转换了整个数据集",
        code=_dataset(
            init="self.images = [((p.float() / 255 - MNIST_MEAN) / MNIST_STD).unsqueeze(0) for p in pixels]\n"
            "        self.labels = labels",
            length="return len(self.images)",
            item="return self.images[index], self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="converts every image in __init__ by index",
        expect="构造时复制或转换了整个数据集",
        code=_dataset(
            init="self.images = [((pixels[i].float() / 255 - MNIST_MEAN) / MNIST_STD).unsqueeze(0)"
            " for i in range(pixels.shape[0])]\n"
            "        self.labels = labels",
            length="return len(self.images)",
            item="return self.images[index], self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="converts the whole dataset in NumPy in __init__",
        expect="构造时复制或转换了整个数据集",
        code=_dataset(
            init='self.images = ((pixels.numpy().astype("float32") / 255 - MNIST_MEAN) / MNIST_STD)[:, None]\n'
            "        self.labels = labels",
            length="return len(self.labels)",
            item="return torch.from_numpy(self.images[index]), self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="copies the pixels into a NumPy array in __init__",
        expect="构造时复制或转换了整个数据集",
        code="import numpy as np\n"
        + _dataset(
            init="self.pixels, self.labels = np.array(pixels), labels",
            item="return ((torch.from_numpy(self.pixels[index]).float() / 255 - MNIST_MEAN) / MNIST_STD)"
            ".unsqueeze(0), self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="converts every image into a cache on the first ds[i]",
        expect="转换了整个数据集",
        code=_dataset(
            init="self.pixels, self.labels, self.cache = pixels, labels, {}",
            item="if not self.cache:\n"
            "            for i in range(len(self.pixels)):\n"
            f"                self.cache[i] = ({_NORMALISED.replace('index', 'i')}).unsqueeze(0)\n"
            "        return self.cache[index], self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="label as a Python int",
        expect="0-d 的 int64 张量",
        code=_dataset(item=f"return ({_NORMALISED}).unsqueeze(0), int(self.labels[index])"),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="converts through PIL with ToTensor and Normalize",
        expect="NumPy / PIL",
        code="from PIL import Image\n\n"
        + _dataset(
            item="image = Image.fromarray(self.pixels[index].numpy(), mode='L')\n"
            "        tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((MNIST_MEAN,), (MNIST_STD,))])\n"
            "        return tf(image), self.labels[index]"
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="squeeze() on the logits drops a batch of one",
        expect="时输出应是 (1, ",
        code=_forward_with("return self.fc3(x)", "return self.fc3(x).squeeze()"),
    ),
    dict(
        grade_id="test_lenet",
        name="squeeze() after flattening drops a batch of one",
        expect="时输出应是 (1, ",
        code=_forward_with("torch.flatten(x, 1)", "x.view(x.size(0), -1).squeeze()"),
    ),
    dict(
        grade_id="test_lenet",
        name="softmax only in training mode",
        expect="训练模式下输出的每一行非负",
        mistake="softmax-before-ce",
        code=_forward_with(
            "return self.fc3(x)", "return F.softmax(self.fc3(x), dim=1) if self.training else self.fc3(x)"
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="normalises features only in training mode",
        expect="训练模式 (model.train()) 下的不同",
        code=_forward_with(
            "x = F.relu(self.fc1(x))",
            "if self.training:\n    x = (x - x.mean()) / (x.std() + 1e-5)\nx = F.relu(self.fc1(x))",
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="extra dropout in training mode",
        expect="训练模式 (model.train()) 下的不同",
        code=_forward_with("x = F.relu(self.fc2(x))", "x = F.dropout(F.relu(self.fc2(x)), 0.5, self.training)"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="stacks the losses with their graphs, detaches at the end",
        expect="不 detach 会把每一步的计算图留到 epoch 结束",
        mistake="loss-accumulated-with-graph",
        code=_epoch_with(
            "losses.append(loss.detach())\nreturn torch.stack(losses)",
            "losses.append(loss)\nreturn torch.stack(losses).detach()",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="concatenates the losses with their graphs, detaches at the end",
        expect="不 detach 会把每一步的计算图留到 epoch 结束",
        mistake="loss-accumulated-with-graph",
        code=_epoch_with(
            "losses.append(loss.detach())\nreturn torch.stack(losses)",
            "losses.append(loss.view(1))\nreturn torch.cat(losses).detach()",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="ignores loss_fn for F.cross_entropy",
        expect="label_smoothing=0.1",
        code=_epoch_with("loss = loss_fn(model(xb), yb)", "loss = F.cross_entropy(model(xb), yb)"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="returns float64 losses",
        expect="期望 torch.float32",
        code=_epoch_with("return torch.stack(losses)", "return torch.stack(losses).double()"),
    ),
    dict(
        grade_id="test_evaluate",
        name="modes saved over children() instead of modules()",
        expect="停在了 评估模式",
        code=_restoring_with(_MODULES, _CHILDREN),
    ),
    dict(
        grade_id="test_evaluate",
        name="children restored with train(mode)",
        expect="被切回了训练模式",
        code=_restoring_with(_MODULES, _CHILDREN).replace("m.training = mode", "m.train(mode)"),
    ),
    dict(
        grade_id="test_evaluate",
        name="freezes the parameters for good",
        expect="改了参数的 requires_grad",
        code=_restoring("for p in model.parameters():\n    p.requires_grad_(False)\n" + _COUNT),
    ),
    dict(
        grade_id="test_checkpoint",
        name="restores the optimizer state but not its param_groups",
        expect="param_groups",
        code=_checkpoints(
            restore='    model.load_state_dict(checkpoint["model"])\n'
            '    saved = copy.deepcopy(checkpoint["optimizer"])\n'
            '    params = [p for g in optimizer.param_groups for p in g["params"]]\n'
            '    for i, s in saved["state"].items():\n'
            "        optimizer.state[params[i]] = s\n"
            '    return checkpoint["epoch"]'
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="restore returns the epoch as a tensor",
        expect="Python int",
        code=_checkpoints(
            restore=_RESTORE_OK.replace('return checkpoint["epoch"]', 'return torch.tensor(checkpoint["epoch"])')
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="checkpoint stores the epoch as a float",
        expect="Python int",
        code=_checkpoints(make=_MAKE_OK.replace('"epoch": epoch', '"epoch": float(epoch)')),
    ),
    # r10: review of make_loader, train_one_epoch, fit (and LeNet's in_features)
    dict(
        grade_id="test_make_loader",
        name="shuffles with its own fixed-seed generator",
        expect="顺序不是由传入的 generator 决定的",
        mistake="generator-ignored",
        code=_loader_with("generator=generator)", "generator=torch.Generator().manual_seed(0))"),
    ),
    dict(
        grade_id="test_make_loader",
        name="reseeds the global RNG and shuffles with it",
        expect="torch.manual_seed 也会重设它们",  # the GPU generators' queued seed is seen first
        mistake="global-seed-reset",
        code=_loader_with(
            "    dataset = TensorBatches(x, y)\n", "    torch.manual_seed(0)\n    dataset = TensorBatches(x, y)\n"
        ).replace("RandomSampler(dataset, generator=generator)", "RandomSampler(dataset)"),
    ),
    dict(
        grade_id="test_make_loader",
        name="hand-written batch iterator with a pin_memory attribute (not a DataLoader)",
        expect="应返回 torch.utils.data.DataLoader",
        code=_LOADER.split("def make_loader")[0]
        + """
class Batches:
    def __init__(self, dataset, batch_size, shuffle, generator, pin_memory):
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, shuffle
        self.generator, self.pin_memory = generator, pin_memory

    def __iter__(self):
        n = len(self.dataset)
        order = torch.randperm(n, generator=self.generator) if self.shuffle else torch.arange(n)
        for indices in order.split(self.batch_size):
            yield self.dataset[indices]


def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    return Batches(TensorBatches(x, y), batch_size, shuffle, generator, pin_memory)
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="re-gathers the whole x for every batch",
        expect="最大的新张量",
        code=_loader_with(
            "return self.x[indices], self.y[indices]",
            "return self.x[torch.arange(len(self.x))][indices], self.y[indices]",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="torch.manual_seed(0) at the start of every epoch",
        expect="重设了全局随机种子",
        mistake="global-seed-reset",
        code=_epoch_with("model.train()\n", "torch.manual_seed(0)\nmodel.train()\n"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="trains the loader's batches in another order",
        expect="顺序和 loader 给出的不同",
        code=_epoch_with("for xb, yb in loader:", "for xb, yb in [*loader][1::-1] + [*loader][2:]:"),
    ),
    dict(
        grade_id="test_fit",
        name="scheduler never handed to train_one_epoch",
        expect="一步也没有走",
        code=_fit_with("max_norm, scheduler).tolist()", "max_norm).tolist()"),
    ),
    dict(
        grade_id="test_fit",
        name="an extra scheduler.step() per epoch",
        expect="每个 epoch 多走了一步",
        code=_fit_with(
            '        history["batch_loss"] += losses\n',
            '        scheduler.step()\n        history["batch_loss"] += losses\n',
        ),
    ),
    dict(
        grade_id="test_fit",
        name="snapshot and restore of the parameters only",
        expect="缓冲区 (buffer)",
        mistake="snapshot-without-buffers",
        code=_fit_snapshot(
            "[p.detach().clone() for p in model.parameters()]",
            "    with torch.no_grad():\n        for p, b in zip(model.parameters(), best_state):\n            p.copy_(b)\n",
        ),
    ),
    dict(
        grade_id="test_fit",
        name="best model deep-copied, restored through p.data",
        expect="缓冲区 (buffer)",
        mistake="snapshot-without-buffers",
        code=_fit_snapshot(
            "copy.deepcopy(model)",
            "    for p, b in zip(model.parameters(), best_state.parameters()):\n        p.data = b.data\n",
        ),
    ),
    dict(
        grade_id="test_fit",
        name="train_loss gets the epoch's last batch loss",
        expect='history["train_loss"] 应是',
        code=_fit_with("sum(losses) / len(losses)", "losses[-1]"),
    ),
    dict(
        grade_id="test_fit",
        name="batch_loss gets one list per epoch",
        expect='history["batch_loss"] 应是',
        code=_fit_with('history["batch_loss"] += losses', 'history["batch_loss"].append(losses)'),
    ),
    dict(
        grade_id="test_fit",
        name="epoch_seconds never measured",
        expect="epoch_seconds",
        code=_fit_with("time.perf_counter() - start)", "0.0)"),
    ),
    dict(
        grade_id="test_fit",
        name="best accuracy starts at 0 (no snapshot when every epoch scores 0)",
        expect="NoneType",
        code=_fit_with(
            'best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1])',
            'history["val_acc"][-1] > max([0.0] + history["val_acc"][:-1])',
        ),
    ),
    dict(
        grade_id="test_fit",
        name="reverts to the best snapshot after every epoch",
        expect="训练没有留在模型里",
        code=_fit_with(
            '            history["best_epoch"] = epoch\n',
            '            history["best_epoch"] = epoch\n        model.load_state_dict(best_state)\n',
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="in_features measured with a dummy forward in __init__",
        expect="试算的前向",
        code=_lenet(
            first="nn.Linear(torch.flatten(F.max_pool2d(self.conv2(F.max_pool2d(self.conv1("
            "torch.zeros(1, in_channels, image_size, image_size)), 2)), 2), 1).shape[1], 120)"
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="per-sample fetching in NumPy (x.numpy() kept, np.stack per batch)",
        expect="交给了 NumPy",
        code="import numpy as np\n"
        + _loader_with("self.x, self.y = x, y", "self.x, self.y = x.numpy(), y.numpy()").replace(
            "return self.x[indices], self.y[indices]",
            "return torch.from_numpy(np.stack([self.x[i] for i in indices])), torch.from_numpy(self.y[indices])",
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="restores through .data instead of load_state_dict",
        expect="换了存储",
        code=_checkpoints(
            restore=_RESTORE_OK.replace(
                '    model.load_state_dict(checkpoint["model"])\n',
                '    state = copy.deepcopy(checkpoint["model"])\n'
                "    for name, t in [*model.named_parameters(), *model.named_buffers()]:\n"
                "        t.data = state[name]\n",
            )
        ),
    ),
    # rvd: the closing pass on make_loader, fit and LeNet
    dict(
        grade_id="test_make_loader",
        name="torch.manual_seed(0) in make_loader for reproducibility, shuffles with the generator",
        expect="torch.manual_seed",
        code=edited(
            _LOADER,
            ("    dataset = TensorBatches(x, y)\n", "    torch.manual_seed(0)\n    dataset = TensorBatches(x, y)\n"),
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="x handed to NumPy in __getitem__, rows stacked per sample",
        expect="遍历 DataLoader 时，一个有",
        code="import numpy as np\n"
        + edited(
            _LOADER,
            (
                "return self.x[indices], self.y[indices]",
                "xn = np.asarray(self.x)\n        return torch.from_numpy(np.stack([xn[i] for i in indices])), self.y[indices]",
            ),
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="shuffles the order of fixed batches, not the samples",
        expect="打乱的只是 batch 的先后",
        code=edited(
            _LOADER,
            (
                "    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)\n"
                "    sampler = BatchSampler(order, batch_size, drop_last=False)\n",
                "    sampler = list(BatchSampler(SequentialSampler(dataset), batch_size, drop_last=False))\n"
                "    if shuffle:\n"
                "        full = [b for b in sampler if len(b) == batch_size]\n"
                "        rest = sampler[len(full):]\n"
                "        sampler = _FullBlocksShuffled(full, rest, generator)\n",
            ),
        )
        + _BLOCKS_SHUFFLED,
    ),
    dict(
        grade_id="test_fit",
        name="epoch_seconds a tiny constant, never measured",
        expect="记录的不是这个 epoch 实际经过的时间",
        code=edited(_FIT, ("time.perf_counter() - start)", "1e-6)")),
    ),
    dict(
        grade_id="test_lenet",
        name="in_features measured with a dummy forward through torch.convolution",
        expect="试算的前向",
        code=_lenet(
            first="nn.Linear(F.max_pool2d(torch.convolution(F.max_pool2d(torch.convolution("
            "torch.zeros(1, in_channels, image_size, image_size), self.conv1.weight, None, [1, 1], [2, 2], [1, 1], "
            "False, [0, 0], 1), 2), self.conv2.weight, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), 2)[0].numel(), 120)"
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="xb.to(device) without reassigning (batches never reach the model's device)",
        expect="要赋值回去",
        mistake="to-result-discarded",
        code=_epoch_with(
            "    xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n",
            "    xb.to(device, non_blocking=True)\n    yb.to(device, non_blocking=True)\n",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="batches moved to the notebook's global device, not the model's",
        expect="读了全局变量 device",
        mistake="global-device",
        code=_epoch_with("device = next(model.parameters()).device\n", ""),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="labels never moved to the model's device",
        expect="loss_fn 收到的 yb 在 cpu 上",
        code=_epoch_with("yb.to(device, non_blocking=True)\n", "yb\n"),
    ),
    # rv5: .cuda() without an index moves to the current GPU, not the model's (found by a read-only reviewer)
    dict(
        grade_id="test_train_one_epoch",
        name="batches moved with .cuda() (the current GPU), not to the model's device",
        expect="在 cuda:0 上",
        code=_epoch_with(
            "    xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n",
            "    if device.type == 'cuda':\n        xb, yb = xb.cuda(non_blocking=True), yb.cuda(non_blocking=True)\n",
        ),
    ),
    # rvd5: the final fresh pass (relatives of the last pass's fixes)
    dict(
        grade_id="test_train_one_epoch",
        name="device chosen inside as cuda-if-available-else-cpu, not the model's",
        # s41: the sync counter answers is_available() True, as a GPU machine does; its CUDA call then fails first
        expect="不要按 torch.cuda.is_available() 自己选",
        code=_epoch_with(
            "device = next(model.parameters()).device\n",
            'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n',
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="correct count made on the CPU (torch.zeros without device=), device sums added into it",
        expect="写入结果的 CPU 张量",
        mistake="new-tensor-without-device",
        code=_restoring_with(
            "correct = torch.zeros((), dtype=torch.long, device=y.device)",
            "correct = torch.zeros((), dtype=torch.long)",
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="random batches drawn once in make_loader, only their order shuffled per epoch",
        expect="两个 epoch 分出的 batch 完全相同",
        code=edited(
            _LOADER,
            (
                "    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)\n"
                "    sampler = BatchSampler(order, batch_size, drop_last=False)\n",
                "    sampler = list(BatchSampler(SequentialSampler(dataset), batch_size, drop_last=False))\n"
                "    if shuffle:\n"
                "        perm = torch.randperm(len(dataset), generator=generator).tolist()\n"
                "        sampler = [perm[i:i + batch_size] for i in range(0, len(perm), batch_size)]\n"
                "        full = [b for b in sampler if len(b) == batch_size]\n"
                "        sampler = _FullBlocksShuffled(full, sampler[len(full):], generator)\n",
            ),
        )
        + _BLOCKS_SHUFFLED,
    ),
    dict(
        grade_id="test_make_loader",
        name="fixed consecutive batches, samples shuffled only inside each batch",
        expect="两个 epoch 分出的 batch 完全相同",
        code=edited(
            _LOADER,
            (
                "    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)\n"
                "    sampler = BatchSampler(order, batch_size, drop_last=False)\n",
                "    sampler = list(BatchSampler(SequentialSampler(dataset), batch_size, drop_last=False))\n"
                "    if shuffle:\n"
                "        sampler = _InsideBatches(sampler, generator)\n",
            ),
        )
        + """

class _InsideBatches(torch.utils.data.Sampler):
    def __init__(self, batches, generator):
        self.batches, self.generator = batches, generator

    def __iter__(self):
        for b in self.batches:
            yield [b[i] for i in torch.randperm(len(b), generator=self.generator).tolist()]

    def __len__(self):
        return len(self.batches)
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="x handed to NumPy through np.from_dlpack in __getitem__, rows stacked per sample",
        expect="np.from_dlpack",
        code="import numpy as np\n"
        + edited(
            _LOADER,
            (
                "return self.x[indices], self.y[indices]",
                "xn = np.from_dlpack(self.x)\n        return torch.from_numpy(np.stack([xn[i] for i in indices])), self.y[indices]",
            ),
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="pixels handed to NumPy through np.from_dlpack in __init__, converted per sample in NumPy",
        expect="np.from_dlpack",
        code="import numpy as np\n"
        + _dataset(
            init="self.pixels, self.labels = np.from_dlpack(pixels), labels",
            item="image = (self.pixels[index].astype(np.float32) / 255 - MNIST_MEAN) / MNIST_STD\n"
            "        return torch.from_numpy(image).unsqueeze(0), self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_fit",
        name=".item() on every batch loss instead of one .tolist() per epoch",
        expect="fit 一共做了 12 次主机-设备同步",
        code=edited(_FIT, (".tolist()", "\n        losses = [loss.item() for loss in losses]")),
    ),
    # rvh5: the fresh pass after rvd5 (relatives of its fixes)
    dict(
        grade_id="test_evaluate",
        name="correct count made on the CPU, device sums added into it with torch.add(..., out=correct)",
        expect="写入结果的 CPU 张量",
        mistake="new-tensor-without-device",
        code=edited(
            _restoring(_COUNT),
            (
                "correct = torch.zeros((), dtype=torch.long, device=y.device)",
                "correct = torch.zeros((), dtype=torch.long)",
            ),
            (
                "correct += (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).sum()",
                "torch.add(correct, (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).sum(), out=correct)",
            ),
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="count read through a non_blocking=True copy to the host, with no sync before the read",
        expect="读了一个用 non_blocking=True 拷到主机的张量",
        mistake="unsynced-host-copy-read",
        code=_restoring_with("return correct.item()", 'return correct.to("cpu", non_blocking=True).item()'),
    ),
    dict(
        grade_id="test_fit",
        name="epoch losses read through a non_blocking=True copy to the host, with no sync before .tolist()",
        expect="fit 用 .tolist() 读了一个用 non_blocking=True 拷到主机的张量",
        mistake="unsynced-host-copy-read",
        code=edited(_FIT, (".tolist()", '.to("cpu", non_blocking=True).tolist()')),
    ),
    dict(
        grade_id="test_fit",
        name="epoch_seconds measured before the validation (training time only)",
        expect="没有包括这个 epoch 的验证",
        code=edited(
            _FIT,
            ('        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))\n', ""),
            (
                '        history["epoch_seconds"].append(time.perf_counter() - start)\n',
                '        history["epoch_seconds"].append(time.perf_counter() - start)\n'
                '        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))\n',
            ),
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="TensorBatches keeps y.tolist() and builds each batch's y with torch.tensor([...])",
        expect="make_loader 把传入的 x 或 y（一个 50 个元素的张量）交给了 NumPy / Python",
        code=edited(
            _LOADER,
            ("self.x, self.y = x, y", "self.x, self.y = x, y.tolist()"),
            ("self.y[indices]", "torch.tensor([self.y[i] for i in indices])"),
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="each image read through bytes(untyped_storage()) into NumPy, converted there",
        expect=".untyped_storage()",
        code="import numpy as np\n"
        + _dataset(
            item="t = self.pixels[index]\n"
            "        raw = bytes(t.untyped_storage())[t.storage_offset():][:784]\n"
            "        image = (np.frombuffer(raw, dtype=np.uint8).reshape(28, 28).astype(np.float32) / 255 - MNIST_MEAN)"
            " / MNIST_STD\n"
            "        return torch.from_numpy(image.astype(np.float32)).unsqueeze(0), self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="model.to(the global device) inside, batches sent to where the model then is",
        expect="train_one_epoch 把模型搬到了 cpu 上",
        mistake="global-device",
        code=edited(
            _body(_EPOCH_SIGNATURE, _EPOCH_OK),
            (
                "device = next(model.parameters()).device\n",
                "model.to(device)\n    dev = next(model.parameters()).device\n",
            ),
            (
                "xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
                "xb.to(dev, non_blocking=True), yb.to(dev, non_blocking=True)",
            ),
        ),
    ),
    # rvl: relatives of rvh5's fixes (a write into a buffer, one number at a time)
    dict(
        grade_id="test_evaluate",
        name="a non_blocking=True copy of the count written into a host buffer (buf[...] = ...), buf read with no sync",
        expect="读了一个用 non_blocking=True 拷到主机的张量",
        mistake="unsynced-host-copy-read",
        code=_restoring_with(
            "return correct.item()",
            'buf = torch.zeros((), dtype=torch.long)\n        buf[...] = correct.to("cpu", non_blocking=True)\n'
            "        return buf.item()",
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="y written into a fresh buffer (buf[:] = y), the buffer kept as .tolist()",
        expect="make_loader 把传入的 x 或 y（一个 50 个元素的张量）交给了 NumPy / Python",
        code=edited(
            _LOADER,
            (
                "self.x, self.y = x, y",
                "buf = torch.empty(y.shape[0], dtype=torch.long)\n        buf[:] = y\n        self.x, self.y = x, buf.tolist()",
            ),
            ("self.y[indices]", "torch.tensor([self.y[i] for i in indices])"),
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="each image read one pixel at a time with int() into a list, then torch.tensor(...)",
        expect="逐个像素的 int() / .item()",
        code=_dataset(
            item="t = self.pixels[index]\n"
            "        rows = [[int(t[r, c]) for c in range(t.shape[1])] for r in range(t.shape[0])]\n"
            "        image = (torch.tensor(rows, dtype=torch.float32) / 255 - MNIST_MEAN) / MNIST_STD\n"
            "        return image.unsqueeze(0), self.labels[index]",
        ),
    ),
    # rwf: the fresh pass over 2034845 and the known leftover
    dict(
        grade_id="test_train_one_epoch",
        name="each parameter re-pointed at a copy on the global device (p.set_(p.to(device))), batches to the model's",
        expect="train_one_epoch 把模型搬到了 cpu 上",
        mistake="global-device",
        code=edited(
            _body(_EPOCH_SIGNATURE, _EPOCH_OK),
            (
                "device = next(model.parameters()).device\n",
                "with torch.no_grad():\n        for p in model.parameters():\n            p.set_(p.to(device))\n"
                "    dev = next(model.parameters()).device\n",
            ),
            (
                "xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
                "xb.to(dev, non_blocking=True), yb.to(dev, non_blocking=True)",
            ),
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="each pixel used as an index into a Python lookup table (lut[t[r, c]]), then torch.tensor(...)",
        expect="当下标 lut[像素]",
        code=_dataset(
            item="t = self.pixels[index]\n"
            "        lut = [(v / 255 - MNIST_MEAN) / MNIST_STD for v in range(256)]\n"
            "        rows = [[lut[t[r, c]] for c in range(t.shape[1])] for r in range(t.shape[0])]\n"
            "        return torch.tensor(rows, dtype=torch.float32).unsqueeze(0), self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_make_loader",
        name="y kept as torch.LongTensor(y).tolist() (an alias of y, made without a torch call that names y)",
        expect="make_loader 把传入的 x 或 y（一个 50 个元素的张量）交给了 NumPy / Python",
        code=edited(
            _LOADER,
            ("self.x, self.y = x, y", "self.x, self.y = x, torch.LongTensor(y).tolist()"),
            ("self.y[indices]", "torch.tensor([self.y[i] for i in indices])"),
        ),
    ),
    dict(
        grade_id="test_fit",
        name="max_norm never handed on (train_one_epoch called with a fixed 1.0)",
        expect="超过了传给 fit 的 max_norm=0.05",
        code=edited(
            _FIT,
            (
                "train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler)",
                "train_one_epoch(model, optimizer, loss_fn, train_loader, 1.0, scheduler)",
            ),
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="batches moved to the model's device without non_blocking=True (the prose asks for it)",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            "xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)", "xb.to(device), yb.to(device)"
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="batches moved with torch.as_tensor(xb, device=device) (a blocking copy)",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            "xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "torch.as_tensor(xb, device=device), torch.as_tensor(yb, device=device)",
        ),
    ),
    # rxe
    dict(
        grade_id="test_train_one_epoch",
        name="a blocking .to(device) followed by .view / .clone (the model gets a tensor made from the blocking copy)",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            "xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "xb.to(device).view(xb.shape), yb.to(device).clone()",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="batches copied into device buffers with buf[:] = xb (a blocking copy)",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            "xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "bx, by = torch.empty(xb.shape, device=device), torch.empty(yb.shape, dtype=yb.dtype, device=device)\n"
            "    bx[:], by[:] = xb, yb\n    xb, yb = bx, by",
        ),
    ),
    dict(
        grade_id="test_fit",
        name="fit hands train_one_epoch max_norm / 2 (clips harder than asked; only the upper bound was checked)",
        expect="小于传给 fit 的 max_norm=0.05",
        code=edited(
            _FIT,
            (
                "train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler)",
                "train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm / 2, scheduler)",
            ),
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="evaluates a copy.deepcopy(model).eval() (the given model never runs; the message blamed the slicing)",
        expect="传入的 model 一次前向也没有做",
        code=_evaluate("model = copy.deepcopy(model).eval()\n" + _COUNT),
    ),
    dict(
        grade_id="test_evaluate",
        name="a non_blocking=True copy of the count set as a host buffer's .data, buf read with no sync",
        expect="读了一个用 non_blocking=True 拷到主机的张量",
        mistake="unsynced-host-copy-read",
        code=_restoring_with(
            "return correct.item()",
            'buf = torch.zeros((), dtype=torch.long)\n        buf.data = correct.to("cpu", non_blocking=True)\n'
            "        return buf.item()",
        ),
    ),
    # ge
    dict(
        grade_id="test_mnist_dataset",
        name="each pixel converted by a Python function through .apply_ (784 numbers handed to Python)",
        expect=".apply_(Python 函数)",
        code=_dataset(
            item="image = self.pixels[index].float().apply_(lambda p: (p / 255 - MNIST_MEAN) / MNIST_STD)\n"
            "        return image.unsqueeze(0), self.labels[index]"
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="log_softmax at the end of forward (the message only said the values differ)",
        expect="输出是 log_softmax 之后的数",
        code=_forward_with("return self.fc3(x)", "return F.log_softmax(self.fc3(x), dim=1)"),
    ),
    dict(
        grade_id="test_lenet",
        name="a ReLU after fc3 (the message only said the values differ)",
        expect="多了最后一个 Linear 之后的 ReLU",
        code=_forward_with("return self.fc3(x)", "return F.relu(self.fc3(x))"),
    ),
    dict(
        grade_id="test_lenet",
        name="average pooling instead of max-pooling (the message only said the values differ)",
        expect="平均池化",
        code=_lenet(forward=_FORWARD.replace("F.max_pool2d", "F.avg_pool2d")),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="a blocking copy_ into a slice of a device buffer, the model gets another slice of it",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            "xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "bx = torch.empty((64,) + tuple(xb.shape[1:]), device=device)\n"
            "    by = torch.empty(64, dtype=yb.dtype, device=device)\n"
            "    bx[: len(xb)].copy_(xb)\n    by[: len(yb)].copy_(yb)\n    xb, yb = bx[: len(xb)], by[: len(yb)]",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="a blocking copy_ into a device buffer's .data (an alias), the model gets the buffer",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            "xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "bx, by = torch.empty(xb.shape, device=device), torch.empty(yb.shape, dtype=yb.dtype, device=device)\n"
            "    bx.data.copy_(xb)\n    by.data.copy_(yb)\n    xb, yb = bx, by",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="batches copied into device buffers with torch._foreach_copy_ (no non_blocking)",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            "xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "bx, by = torch.empty(xb.shape, device=device), torch.empty(yb.shape, dtype=yb.dtype, device=device)\n"
            "    torch._foreach_copy_([bx, by], [xb, yb])\n    xb, yb = bx, by",
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="a bare torch.set_grad_enabled(False) beside inference_mode (autograd stays off for the caller)",
        expect="evaluate 返回之后 autograd 整个被关掉了",
        code=_restoring_with("correct = torch.zeros(", "torch.set_grad_enabled(False)\n        correct = torch.zeros("),
    ),
    dict(
        grade_id="test_make_loader",
        name="DataLoader over range(n) with automatic batching and collate_fn=lambda idx: (x[idx], y[idx])",
        expect="Dataset 被取了 50 次",
        code=_loader_with(
            "    dataset = TensorBatches(x, y)\n",
            "    return DataLoader(range(len(y)), batch_size=batch_size, shuffle=shuffle, generator=generator,\n"
            "                      collate_fn=lambda idx: (x[idx], y[idx]), pin_memory=pin_memory)\n"
            "    dataset = TensorBatches(x, y)\n",
        ),
    ),
    dict(
        grade_id="test_fit",
        name="fit right, the learner's train_one_epoch never clips (the message blamed fit's max_norm)",
        expect="问题在你的 train_one_epoch（练习 4）：backward() 之后",
        code=_body(_EPOCH_SIGNATURE, _EPOCH_OK.replace(_CLIP, "")) + _FIT,
    ),
    dict(
        grade_id="test_fit",
        name="fit right, the learner's train_one_epoch applies softmax before the loss (the message blamed fit)",
        expect="fit 调用的是你的 train_one_epoch（练习 4）",
        code=_body(
            _EPOCH_SIGNATURE,
            _EPOCH_OK.replace("loss_fn(model(xb), yb)", "loss_fn(model(xb).softmax(dim=1), yb)"),
        )
        + _FIT,
    ),
    dict(
        grade_id="test_fit",
        name="fit right, the learner's train_one_epoch never steps the scheduler (the message blamed fit)",
        expect="问题在你的 train_one_epoch（练习 4）：每个 batch",
        code=_body(_EPOCH_SIGNATURE, _EPOCH_OK.replace(_SCHED, "")) + _FIT,
    ),
]

# Correct answers written another way: each must pass its test cell (tests/test_mutants.py)
CORRECT = [
    dict(
        grade_id="test_train_one_epoch",
        name="model.to(device) with the model's own device before the loop (a no-op, no sync)",
        code=_epoch_with("model.train()\n", "model.to(device)\nmodel.train()\n"),
    ),
    # rvh5
    dict(
        grade_id="test_fit",
        name="losses copied to the host with non_blocking=True, read only after evaluate's .item() (a sync)",
        code=edited(
            _FIT,
            (".tolist()", '.to("cpu", non_blocking=True)'),
            (
                '        history["batch_loss"] += losses\n',
                "        accuracy = evaluate(model, x_val, y_val, 1000)\n        losses = losses.tolist()\n"
                '        history["batch_loss"] += losses\n',
            ),
            ("evaluate(model, x_val, y_val, 1000))", "accuracy)"),
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="the label rebuilt from .tolist() (a 0-d number, no pixels handed out)",
        code=_dataset(item=f"return ({_NORMALISED}).unsqueeze(0), torch.tensor(self.labels[index].tolist())"),
    ),
    dict(
        grade_id="test_evaluate",
        name="the count kept on the model's device (device=next(model.parameters()).device)",
        code=_restoring_with("device=y.device", "device=next(model.parameters()).device"),
    ),
    # rxe: an assert reads one number (bool of a 0-d), which is no data handed out
    dict(
        grade_id="test_make_loader",
        name="assert (y >= 0).all() and torch.isfinite(x).all() before building the loader",
        code=_loader_with(
            "    dataset = TensorBatches(x, y)\n",
            "    assert (y >= 0).all() and torch.isfinite(x).all()\n    dataset = TensorBatches(x, y)\n",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="assert 0 <= pixels <= 255 in __getitem__ (two 0-d reads, no pixels handed out)",
        code=_dataset(
            item="t = self.pixels[index]\n        assert t.min() >= 0 and t.max() <= 255\n"
            f"        return ({_NORMALISED}).unsqueeze(0), self.labels[index]"
        ),
    ),
    # ge: copies into device buffers with non_blocking=True
    dict(
        grade_id="test_train_one_epoch",
        name="a preallocated device buffer, copy_(..., non_blocking=True) into a slice, the model gets a slice",
        code=_epoch_with(
            "xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "bx = torch.empty((64,) + tuple(xb.shape[1:]), device=device)\n"
            "    by = torch.empty(64, dtype=yb.dtype, device=device)\n"
            "    bx[: len(xb)].copy_(xb, non_blocking=True)\n    by[: len(yb)].copy_(yb, non_blocking=True)\n"
            "    xb, yb = bx[: len(xb)], by[: len(yb)]",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="batches copied into device buffers with torch._foreach_copy_(..., non_blocking=True)",
        code=_epoch_with(
            "xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)",
            "bx, by = torch.empty(xb.shape, device=device), torch.empty(yb.shape, dtype=yb.dtype, device=device)\n"
            "    torch._foreach_copy_([bx, by], [xb, yb], non_blocking=True)\n    xb, yb = bx, by",
        ),
    ),
    # ge: a label checked with "in range(10)" reads up to 10 comparisons, one at a time (no pixels handed out)
    dict(
        grade_id="test_mnist_dataset",
        name="assert label in range(10) in __getitem__ (up to 10 comparisons read as bool)",
        code=_dataset(
            item="label = self.labels[index]\n        assert label in range(10)\n"
            f"        return ({_NORMALISED}).unsqueeze(0), label"
        ),
    ),
]

_MOVE = "    xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n"

MUTANTS += [  # s33: the last leftovers of the batch moves
    dict(
        grade_id="test_train_one_epoch",
        name="blocking copies into fresh device buffers through torch.ops.aten.copy_.default",
        code=_epoch_with(
            _MOVE,
            "    bx = torch.ops.aten.copy_.default(torch.empty(xb.shape, dtype=xb.dtype, device=device), xb)\n"
            "    by = torch.ops.aten.copy_.default(torch.empty(yb.shape, dtype=yb.dtype, device=device), yb)\n"
            "    xb, yb = bx, by\n",
        ),
        expect="non_blocking=True",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="the batch 'moved' by adding a 0-d zero made on the device",
        code=_epoch_with(
            _MOVE,
            "    zero = torch.zeros((), device=device)\n    xb, yb = xb + zero, yb + zero.long()\n",
        ),
        expect="在一次运算里算出来的",
    ),
]

CORRECT += [  # s33: non_blocking only where it can overlap (pinned memory); from pageable memory it blocks anyway
    dict(
        grade_id="test_train_one_epoch",
        name="non_blocking=xb.is_pinned()",
        code=_epoch_with(
            _MOVE,
            "    xb, yb = xb.to(device, non_blocking=xb.is_pinned()), yb.to(device, non_blocking=yb.is_pinned())\n",
        ),
    ),
]

MUTANTS += [  # s33 (stop 31's leftover): a cap on max_norm that no tested max_norm reached
    dict(
        grade_id="test_fit",
        name="hands train_one_epoch min(max_norm, 1.0)",
        code=_fit_with("max_norm, scheduler).tolist()", "min(max_norm, 1.0), scheduler).tolist()"),
        expect="换成了 1.0",
    ),
]

_BUFFERS = "    bx, by = torch.empty(xb.shape, device=device), torch.empty(yb.shape, dtype=yb.dtype, device=device)\n"
MUTANTS += [  # s33 review (hc): the packet torch.ops.aten.copy_ (not its .default overload), buffers kept apart
    dict(
        grade_id="test_train_one_epoch",
        name="a blocking torch.ops.aten.copy_(buffer, batch) into device buffers, the model gets the buffers",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            _MOVE,
            _BUFFERS + "    torch.ops.aten.copy_(bx, xb)\n    torch.ops.aten.copy_(by, yb)\n    xb, yb = bx, by\n",
        ),
    ),
]
CORRECT += [  # s33 review (hc)
    dict(
        grade_id="test_train_one_epoch",
        name="torch.ops.aten.copy_(buffer, batch, True) into device buffers (non_blocking as its third argument)",
        code=_epoch_with(
            _MOVE,
            _BUFFERS
            + "    torch.ops.aten.copy_(bx, xb, True)\n    torch.ops.aten.copy_(by, yb, True)\n    xb, yb = bx, by\n",
        ),
    ),
]

_ZEROS = "    bx, by = torch.zeros(xb.shape, device=device), torch.zeros(yb.shape, dtype=yb.dtype, device=device)\n"
MUTANTS += [  # s34 (hc): the batch written into a device buffer by a mixed in-place call, or the buffer re-pointed
    dict(  # at the batch's host memory: no move, and a GPU refuses each (the mixed check saw only new results)
        grade_id="test_train_one_epoch",
        name="the batch added into zeroed device buffers in place (bx += xb)",
        expect="写进 cuda:1 上的缓冲区",
        code=_epoch_with(_MOVE, _ZEROS + "    bx += xb\n    by += yb\n    xb, yb = bx, by\n"),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="the batch written into device buffers by index_copy_",
        expect="写进 cuda:1 上的缓冲区",
        code=_epoch_with(
            _MOVE,
            _ZEROS
            + "    bx.index_copy_(0, torch.arange(len(xb)), xb)\n    by.index_copy_(0, torch.arange(len(yb)), yb)\n"
            "    xb, yb = bx, by\n",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="device buffers re-pointed at the batch's host memory (bx.set_(xb)), the model gets a clone",
        expect="buf.set_(xb)",
        code=_epoch_with(
            _MOVE,
            "    bx, by = torch.empty(0, device=device), torch.empty(0, dtype=yb.dtype, device=device)\n"
            "    bx.set_(xb)\n    by.set_(yb)\n    xb, yb = bx.clone(), by\n",
        ),
    ),
]

_CLIP_CALL = "torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)"
_CAPPED = "torch.nn.utils.clip_grad_norm_(model.parameters(), min(max_norm, 1.0))"
_INLINE_EPOCH = """        model.train()
        out = []
        for xb, yb in train_loader:
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), min(max_norm, 1.0))
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            out.append(loss.detach())
        losses = torch.stack(out).tolist()
"""
MUTANTS += [  # s34 (hc): a cap on max_norm in train_one_epoch itself (every tested max_norm that binds nothing met
    dict(  # gradient norms under 1), and in an epoch written inside fit (only what fit hands on was compared)
        grade_id="test_train_one_epoch",
        name="clip_grad_norm_ with min(max_norm, 1.0)",
        expect="max_norm=5.0",
        code=_epoch_with(_CLIP_CALL, _CAPPED),
    ),
    dict(
        grade_id="test_fit",
        name="an epoch written inside fit that clips with min(max_norm, 1.0)",
        expect="不该被裁剪：fit 的每个 epoch",
        code=_fit_with(
            "        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()\n",
            _INLINE_EPOCH,
        ),
    ),
    dict(
        grade_id="test_fit",
        name="fit right, the learner's train_one_epoch clips with min(max_norm, 1.0) (blame the epoch)",
        expect="问题在你的 train_one_epoch（练习 4）：clip_grad_norm_",
        code=_body(_EPOCH_SIGNATURE, _EPOCH_OK.replace(_CLIP_CALL, _CAPPED)) + _FIT,
    ),
]

MUTANTS += [  # s34 (hc): a blocking copy from the batch's NumPy view (no non_blocking exists for it) was told of a
    dict(  # sync (.numpy() of a pinned host batch syncs nothing); the played copy lies in the array's memory
        grade_id="test_train_one_epoch",
        name="the batch copied to the device through torch.as_tensor(xb.numpy(), device=device)",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            _MOVE,
            "    xb, yb = torch.as_tensor(xb.numpy(), device=device), torch.as_tensor(yb.numpy(), device=device)\n",
        ),
    ),
]
MUTANTS += [  # s34 (hc): xb.type_as(p) is xb itself in the played world, re-labelled: no host memory on a device
    dict(
        grade_id="test_train_one_epoch",
        name="the batch moved by xb.type_as(a parameter) (a blocking copy, no non_blocking)",
        expect="没有用 non_blocking=True",
        code=_epoch_with(
            _MOVE, "    p = next(model.parameters())\n    xb, yb = xb.type_as(p), yb.to(device, non_blocking=True)\n"
        ),
    ),
]

MUTANTS += [  # s34 (hc): the 0-d device zero added into the host batch in place: the played world re-labelled xb as
    dict(  # played after the call, so the mixed check (which read where the inputs were afterwards) saw no host tensor
        grade_id="test_train_one_epoch",
        name="a 0-d zero made on the device added into the batch in place (xb.add_(zero))",
        expect="在一次运算里算出来的",
        code=_epoch_with(
            _MOVE, "    zero = torch.zeros((), device=device)\n    xb.add_(zero)\n    yb.add_(zero.long())\n"
        ),
    ),
]

CORRECT += [  # s34 (hc) left over: torch.cuda was not played with the model's device, so the usual guard failed
    dict(
        grade_id="test_train_one_epoch",
        name="non_blocking=torch.cuda.is_available(): non-blocking exactly when there is a GPU",
        code=_epoch_with(
            _MOVE,
            "    xb = xb.to(device, non_blocking=torch.cuda.is_available())\n"
            "    yb = yb.to(device, non_blocking=torch.cuda.is_available())\n",
        ),
    ),
]


MUTANTS += [  # s35 review (h4): each passed every test
    dict(
        grade_id="test_lenet",
        name="x.view(x.size(0), -1) in place of torch.flatten(x, 1): fails on a non-contiguous input",
        expect="view() 需要兼容的内存布局",
        code=(
            "class LeNet(nn.Module):\n"
            "    def __init__(self, in_channels=1, num_classes=10, image_size=28):\n"
            "        super().__init__()\n"
            "        side = (image_size // 2 - 4) // 2\n"
            "        if side < 1:\n"
            '            raise ValueError(f"image_size={image_size} is too small")\n'
            "        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)\n"
            "        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)\n"
            "        self.fc1 = nn.Linear(16 * side * side, 120)\n"
            "        self.fc2 = nn.Linear(120, 84)\n"
            "        self.fc3 = nn.Linear(84, num_classes)\n"
            "\n"
            "    def forward(self, x):\n"
            "        x = F.max_pool2d(F.relu(self.conv1(x)), 2)\n"
            "        x = F.max_pool2d(F.relu(self.conv2(x)), 2)\n"
            "        x = x.view(x.size(0), -1)\n"
            "        x = F.relu(self.fc1(x))\n"
            "        x = F.relu(self.fc2(x))\n"
            "        return self.fc3(x)\n"
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name='clips optimizer.param_groups[0]["params"]: the other groups are never clipped',
        expect="SGD 两个参数组，max_norm=0.05",
        code=_body(
            _EPOCH_SIGNATURE,
            edited(
                _EPOCH_OK,
                ("losses = []\n", 'params = optimizer.param_groups[0]["params"]\nlosses = []\n'),
                ("clip_grad_norm_(model.parameters(), max_norm)", "clip_grad_norm_(params, max_norm)"),
            ),
        ),
    ),
]


MUTANTS += [  # s35 review (h4): was told its clip sat in the wrong place (it sat right; the generator was spent)
    dict(
        grade_id="test_train_one_epoch",
        name="params = model.parameters() hoisted out of the loop: spent by the first clip",
        expect="它是生成器，只能遍历一次",
        code=_body(
            _EPOCH_SIGNATURE,
            edited(
                _EPOCH_OK,
                ("losses = []\n", "params = model.parameters()\nlosses = []\n"),
                ("clip_grad_norm_(model.parameters(), max_norm)", "clip_grad_norm_(params, max_norm)"),
            ),
        ),
    ),
]


MUTANTS += [  # s36: a call that leaves a process-wide setting changed (course.settings watches every call)
    dict(
        grade_id="test_train_one_epoch",
        name="sets torch.backends.cudnn.benchmark inside train_one_epoch and leaves it so",
        mistake="global-setting-changed",
        expect="torch.backends.cudnn.benchmark",
        code=solution_with(
            "10_lenet_mnist",
            "train_one_epoch",
            (
                "    model.train()\n",
                "    model.train()\n    torch.backends.cudnn.benchmark = True  # faster convolutions\n",
            ),
        ),
    ),
]


MUTANTS += [  # s35 leftover: validation one sample at a time gives the same accuracy
    dict(
        grade_id="test_fit",
        name="evaluate(model, x_val, y_val, 1): validates with batches of one sample",
        expect="一共前向了 15 个 batch",
        code=_fit_with("evaluate(model, x_val, y_val, 1000)", "evaluate(model, x_val, y_val, 1)"),
    ),
]


MUTANTS += [  # fix37 (d3): each passed every test
    dict(  # without a generator, a private fixed seed: the caller's torch.manual_seed changes nothing
        grade_id="test_make_loader",
        name="shuffle=True without a generator uses torch.Generator().manual_seed(0)",
        expect="顺序没有跟着全局随机数走",
        code=_loader_with(
            "RandomSampler(dataset, generator=generator)",
            "RandomSampler(dataset, generator=generator or torch.Generator().manual_seed(0))",
        ),
    ),
    dict(  # bf16 logits on the CPU: near-ties change the argmax
        grade_id="test_evaluate",
        name="forward under torch.autocast",
        expect="开着 torch.autocast",
        code=_restoring_with(
            "with torch.inference_mode():", "with torch.inference_mode(), torch.autocast(device_type=x.device.type):"
        ),
    ),
    dict(  # unfreezes what the caller froze
        grade_id="test_train_one_epoch",
        name="model.requires_grad_(True) at the start of the epoch",
        expect="调用之后它的 requires_grad 变成了 True",
        code=_epoch_with("model.train()\n", "model.train()\nmodel.requires_grad_(True)\n"),
    ),
    dict(  # the validation split merged into the training data, and still used to select the epoch (slow: trains)
        grade_id="test_final_accuracy",
        name="trains on train + validation and still selects the epoch on validation",
        expect="验证集被并进了训练数据",
        code="x_more = torch.cat([x_train, x_val.cpu()])\ny_more = torch.cat([y_train, y_val.cpu()])\n"
        + _training_cell().replace("x_train, y_train, BATCH_SIZE", "x_more, y_more, BATCH_SIZE"),
    ),
]


MUTANTS += [  # fix38 (fd2): each passed every test
    dict(  # the order follows the seed's value, not the global RNG stream: draws before building change nothing
        grade_id="test_make_loader",
        name="shuffle=True without a generator uses torch.Generator().manual_seed(torch.initial_seed())",
        expect="顺序只跟着种子的值",
        code=_loader_with(
            "    dataset = TensorBatches(x, y)\n",
            "    dataset = TensorBatches(x, y)\n    if shuffle and generator is None:\n"
            "        generator = torch.Generator().manual_seed(torch.initial_seed())\n",
        ),
    ),
    dict(  # one seed drawn from the global RNG when the loader is built, not one per epoch as RandomSampler(ds) does
        grade_id="test_make_loader",
        name="shuffle=True without a generator seeds a private generator once from the global RNG",
        expect="在同样的全局随机数下给出",
        code=_loader_with(
            "    dataset = TensorBatches(x, y)\n",
            "    dataset = TensorBatches(x, y)\n    if shuffle and generator is None:\n"
            "        generator = torch.Generator().manual_seed(int(torch.randint(2**62, ())))\n",
        ),
    ),
]

MUTANTS += [  # fix38 (fd2): a slice keeps the channel dim, but ds[-1] is pixels[-1:0], an empty image
    dict(
        grade_id="test_mnist_dataset",
        name="pixels[index:index + 1] keeps the channel dim (ds[-1] empty)",
        expect="负下标像序列一样从末尾数",
        code=_dataset(
            item="image = (self.pixels[index:index + 1].float() / 255 - MNIST_MEAN) / MNIST_STD\n"
            "        return image, self.labels[index]"
        ),
    ),
]

CORRECT += [  # fix38 (fd2): the float32 mean on the device is the idiomatic accuracy (1/3 -> 0.3333333432674408)
    dict(
        grade_id="test_evaluate",
        name="accuracy divided on the device in float32, one .item()",
        code=_restoring_with("return correct.item() / y.shape[0]", "return (correct / y.shape[0]).item()"),
    ),
]


# s38 (d5), fd3
MUTANTS += [
    dict(  # d5 cand01: the sequence protocol's IndexError never comes, iter(ds) never stops
        grade_id="test_mnist_dataset",
        name="index % len(self) wraps an index out of range (ds[N] is ds[0])",
        expect="应像序列一样抛出 IndexError",
        code=_dataset(
            item=f"index = index % len(self)\n        return ({_NORMALISED}).unsqueeze(0), self.labels[index]"
        ),
    ),
    dict(  # d5 cand03: the top flag False says nothing of a child left in training mode
        grade_id="test_evaluate",
        name="model.eval() only when model.training (a Dropout child in training mode stays on)",
        expect="在训练模式（调用前 model.training 已经是 False",
        code=_restoring_with("    model.eval()\n", "    if model.training:\n        model.eval()\n"),
    ),
    dict(  # d5 cand05: the top flag True says nothing of a child left in eval mode
        grade_id="test_train_one_epoch",
        name="model.train() only when not model.training (a BatchNorm child in eval mode stays so)",
        expect="在评估模式（调用前 model.training 已经是 True",
        code=_epoch_with("model.train()\n", "if not model.training:\n    model.train()\n"),
    ),
    dict(  # d5 cand08: the spec asks for one sentence saying why
        grade_id="test_lenet",
        name="bare raise ValueError without a message",
        expect="没有写出 image_size=",
        code=_lenet().replace('raise ValueError(f"image_size={image_size} too small")', "raise ValueError"),
    ),
]
MUTANTS += [
    dict(  # d5 cand07: Module.cpu() moves the caller's model (a no-op on the CPU: shown on a played cuda:1)
        grade_id="test_checkpoint",
        name="make_checkpoint via model.cpu().state_dict() moves the caller's model",
        expect="存检查点把调用者的模型搬走了",
        code=_checkpoints(
            make='{"model": copy.deepcopy(model.cpu().state_dict()), "optimizer": copy.deepcopy(optimizer.state_dict()), '
            '"epoch": epoch}'
        ),
    ),
]
CORRECT += [
    dict(  # fd3: a CPU snapshot taken tensor by tensor leaves the model where it is
        grade_id="test_checkpoint",
        name="state_dict copied to the CPU tensor by tensor",
        code=_checkpoints(
            make='{"model": {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}, '
            '"optimizer": copy.deepcopy(optimizer.state_dict()), "epoch": epoch}'
        ),
    ),
]


CORRECT += [  # s38 review (d6): the played cuda:1 stand-in cannot be saved; the device check gives no verdict then
    dict(
        grade_id="test_checkpoint",
        name="make_checkpoint through torch.save / torch.load into memory",
        code=(
            "import io\n"
            "\n"
            "\n"
            "def make_checkpoint(model, optimizer, epoch):\n"
            "    # a deep snapshot by serialising to memory and reading it back (what torch.save + torch.load to a file would give)\n"
            "    buffer = io.BytesIO()\n"
            '    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, buffer)\n'
            "    buffer.seek(0)\n"
            "    return torch.load(buffer, weights_only=True)\n"
            "\n"
            "\n"
            "def restore_checkpoint(checkpoint, model, optimizer):\n"
            '    model.load_state_dict(checkpoint["model"])\n'
            '    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))\n'
            '    return checkpoint["epoch"]\n'
        ),
    ),
]


MUTANTS += [  # s39 (d5 #3): the validation images merged into a loader under another name, the scheduler rebuilt for it
    dict(
        grade_id="test_final_accuracy",
        name="trains_on_train_plus_val_through_a_loader_named_otherwise",
        expect="scheduler 走了 504 步",
        code=_training_cell().replace(
            "history = fit(model, optimizer, loss_fn, train_loader, x_val, y_val, EPOCHS, MAX_NORM, scheduler)",
            "more_loader = make_loader(torch.cat([x_train, x_val.cpu()]), torch.cat([y_train, y_val.cpu()]), BATCH_SIZE,\n"
            "                          shuffle=True, generator=torch.Generator().manual_seed(0))\n"
            "scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=LR, epochs=EPOCHS, steps_per_epoch=len(more_loader))\n"
            "history = fit(model, optimizer, loss_fn, more_loader, x_val, y_val, EPOCHS, MAX_NORM, scheduler)",
        ),
    ),
]


MUTANTS += [  # s39 (d6): the optimizer rolled back with the model no longer matches the scheduler's steps
    dict(
        grade_id="test_fit",
        name="restores_the_optimizer_with_the_best_weights",
        expect="fit 调用了 optimizer.load_state_dict",
        code=(
            "def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):\n"
            '    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}\n'
            "    best = None\n"
            "    for epoch in range(1, epochs + 1):\n"
            "        start = time.perf_counter()\n"
            "        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()\n"
            '        history["batch_loss"] += losses\n'
            '        history["train_loss"].append(sum(losses) / len(losses))\n'
            '        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))\n'
            '        history["epoch_seconds"].append(time.perf_counter() - start)\n'
            '        if best is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):\n'
            "            best = make_checkpoint(model, optimizer, epoch)  # exercise 6: a snapshot of the whole training state\n"
            '            history["best_epoch"] = epoch\n'
            "        print(f\"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}\")\n"
            "    restore_checkpoint(best, model, optimizer)  # back to the best epoch (model and optimizer)\n"
            "    return history\n"
        ),
    ),
]


MUTANTS += [  # s39 (d6): evaluate(model, x_val, y_val, len(x_val)) shows on 1500 validation rows
    dict(
        grade_id="test_fit",
        name="evaluates_with_the_whole_validation_set_as_one_batch",
        expect="大小依次是 [1000, 500]",
        code=(
            "def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):\n"
            '    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}\n'
            "    best = None\n"
            "    for epoch in range(1, epochs + 1):\n"
            "        start = time.perf_counter()\n"
            "        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()\n"
            '        history["batch_loss"] += losses\n'
            '        history["train_loss"].append(sum(losses) / len(losses))\n'
            '        history["val_acc"].append(evaluate(model, x_val, y_val, len(x_val)))  # whole validation set in one batch\n'
            '        history["epoch_seconds"].append(time.perf_counter() - start)\n'
            '        if best is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):\n'
            "            best = copy.deepcopy(model.state_dict())\n"
            '            history["best_epoch"] = epoch\n'
            "        print(f\"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}\")\n"
            "    model.load_state_dict(best)\n"
            "    return history\n"
        ),
    ),
]


MUTANTS += [  # s39 (d7): every step's graph alive to the end of the epoch
    dict(
        grade_id="test_train_one_epoch",
        name="keeps_each_loss_with_its_graph_and_detaches_at_return",
        expect="前面 2 个 batch 的 loss 还连着各自的计算图",
        mistake="losses-kept-with-graph",
        code=(
            "def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n"
            "    device = next(model.parameters()).device\n"
            "    model.train()\n"
            "    losses = []\n"
            "    for xb, yb in loader:\n"
            "        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n"
            "        optimizer.zero_grad(set_to_none=True)\n"
            "        loss = loss_fn(model(xb), yb)\n"
            "        loss.backward()\n"
            "        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "        optimizer.step()\n"
            "        if scheduler is not None:\n"
            "            scheduler.step()\n"
            "        losses.append(loss)\n"
            "    return torch.stack([loss.detach() for loss in losses])   # 返回的是 detach 过的\n"
        ),
    ),
]


MUTANTS += [  # s39 (d7): no clip at all is not told 'clip after step'
    dict(
        grade_id="test_train_one_epoch",
        name="never_clips_and_zeroes_grads_after_step",
        expect="step() 之前梯度没有被按范数裁剪",
        code=(
            "def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n"
            "    device = next(model.parameters()).device\n"
            "    model.train()\n"
            "    losses = []\n"
            "    for xb, yb in loader:\n"
            "        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n"
            "        loss = loss_fn(model(xb), yb)\n"
            "        loss.backward()\n"
            "        optimizer.step()\n"
            "        if scheduler is not None:\n"
            "            scheduler.step()\n"
            "        optimizer.zero_grad(set_to_none=True)   # 用完就清，下一个 batch 从干净的 .grad 开始\n"
            "        losses.append(loss.detach())\n"
            "    return torch.stack(losses)\n"
        ),
    ),
]


MUTANTS += [  # s39 (d7): clip_grad_value_ is told what the numbers show
    dict(
        grade_id="test_train_one_epoch",
        name="clips_by_value",
        expect="绝对值最大的元素正好是 0.5",
        code=(
            "def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n"
            "    device = next(model.parameters()).device\n"
            "    model.train()\n"
            "    losses = []\n"
            "    for xb, yb in loader:\n"
            "        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n"
            "        optimizer.zero_grad(set_to_none=True)\n"
            "        loss = loss_fn(model(xb), yb)\n"
            "        loss.backward()\n"
            "        torch.nn.utils.clip_grad_value_(model.parameters(), max_norm)   # 把梯度限制在 [-max_norm, max_norm]\n"
            "        optimizer.step()\n"
            "        if scheduler is not None:\n"
            "            scheduler.step()\n"
            "        losses.append(loss.detach())\n"
            "    return torch.stack(losses)\n"
        ),
    ),
]


MUTANTS += [  # s39: model.forward(x) skips __call__ and the model's hooks (counted, as 07) (d8)
    dict(
        grade_id="test_train_one_epoch",
        name="calls_model_forward_directly",
        expect="一次也没有通过 model(x) 调用",
        code=(
            "def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n"
            "    device = next(model.parameters()).device\n"
            "    model.train()\n"
            "    losses = []\n"
            "    for xb, yb in loader:\n"
            "        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n"
            "        optimizer.zero_grad(set_to_none=True)\n"
            "        loss = loss_fn(model.forward(xb), yb)   # skips __call__: hooks on the model never run\n"
            "        loss.backward()\n"
            "        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "        optimizer.step()\n"
            "        if scheduler is not None:\n"
            "            scheduler.step()\n"
            "        losses.append(loss.detach())\n"
            "    return torch.stack(losses)\n"
        ),
    ),
]


MUTANTS += [  # stop 40 review (d9)
    dict(
        grade_id="test_train_one_epoch",
        name="the scheduler stepped from an optimizer step post-hook that is never removed (one more each call)",
        expect="SGD 上多了 1 个 step post-hook",
        mistake="hook-left-on-module",
        code=(
            "def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n"
            "    device = next(model.parameters()).device\n"
            "    model.train()\n"
            "    if scheduler is not None:\n"
            '        # let the optimizer step the scheduler after each of its steps ("after optimizer.step()", never forgotten)\n'
            "        optimizer.register_step_post_hook(lambda opt, args, kwargs: scheduler.step())\n"
            "    losses = []\n"
            "    for xb, yb in loader:\n"
            "        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n"
            "        optimizer.zero_grad(set_to_none=True)\n"
            "        loss = loss_fn(model(xb), yb)\n"
            "        loss.backward()\n"
            "        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
            "        optimizer.step()\n"
            "        losses.append(loss.detach())\n"
            "    return torch.stack(losses)\n"
        ),
    ),
]


MUTANTS += [  # stop 40 review (d9), fixed by fh1
    dict(
        grade_id="test_evaluate",
        name="model.forward(x) in evaluate (skips __call__ and the model's hooks)",
        expect="一次也没有通过 model(x) 调用",
        code="def evaluate(model, x, y, batch_size):\n    modes = [(m, m.training) for m in model.modules()]\n    model.eval()\n    try:\n        correct = torch.zeros((), dtype=torch.long, device=y.device)\n        with torch.inference_mode():\n            for start in range(0, x.shape[0], batch_size):\n                logits = model.forward(x[start : start + batch_size])   # skips __call__ / the model's hooks\n                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()\n        return correct.item() / y.shape[0]\n    finally:\n        for m, mode in modes:\n            m.training = mode\n",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="a per-index cache of converted images in __getitem__",
        expect="同一个张量对象",
        code='class MNISTDataset(Dataset):\n    def __init__(self, pixels, labels):\n        self.pixels = pixels\n        self.labels = labels\n        self._cache = {}          # "optimisation": convert each image once, reuse it in later epochs\n\n    def __len__(self):\n        return self.pixels.shape[0]\n\n    def __getitem__(self, index):\n        if index not in self._cache:\n            image = (self.pixels[index].to(torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD\n            self._cache[index] = image.unsqueeze(0)\n        return self._cache[index], self.labels[index]\n',
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="one reused output buffer returned by every ds[i]",
        expect="同一个张量对象",
        code="class MNISTDataset(Dataset):\n    def __init__(self, pixels, labels):\n        self.pixels = pixels\n        self.labels = labels\n        self._image = torch.empty(1, 28, 28)   # one reusable output buffer: no allocation per sample\n\n    def __len__(self):\n        return self.pixels.shape[0]\n\n    def __getitem__(self, index):\n        out = self._image\n        out[0].copy_(self.pixels[index]).div_(255.0).sub_(MNIST_MEAN).div_(MNIST_STD)\n        return out, self.labels[index]\n",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="one reused output buffer, returned as a new view each time",
        expect="共享同一块存储",
        code="class MNISTDataset(Dataset):\n    def __init__(self, pixels, labels):\n        self.pixels = pixels\n        self.labels = labels\n        self._image = torch.empty(28, 28)\n\n    def __len__(self):\n        return self.pixels.shape[0]\n\n    def __getitem__(self, index):\n        self._image.copy_(self.pixels[index]).div_(255.0).sub_(MNIST_MEAN).div_(MNIST_STD)\n        return self._image.unsqueeze(0), self.labels[index]\n",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="two output buffers used in turn (the third read overwrites the first)",
        expect="先前 ds[0] 返回的 image 的值变了",
        code="class MNISTDataset(Dataset):\n    def __init__(self, pixels, labels):\n        self.pixels = pixels\n        self.labels = labels\n        self._images = [torch.empty(1, 28, 28), torch.empty(1, 28, 28)]\n        self._next = 0\n\n    def __len__(self):\n        return self.pixels.shape[0]\n\n    def __getitem__(self, index):\n        out = self._images[self._next]\n        self._next = 1 - self._next\n        out[0].copy_(self.pixels[index]).div_(255.0).sub_(MNIST_MEAN).div_(MNIST_STD)\n        return out, self.labels[index]\n",
    ),
    dict(
        grade_id="test_checkpoint",
        name="make_checkpoint calls model.eval() and leaves it",
        expect="make_checkpoint 之后模型的模式变了",
        code='def make_checkpoint(model, optimizer, epoch):\n    model.eval()  # "switch to eval before saving" (tutorial habit): the caller\'s model is left in eval mode\n    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})\n\n\ndef restore_checkpoint(checkpoint, model, optimizer):\n    model.load_state_dict(checkpoint["model"])\n    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))\n    return checkpoint["epoch"]\n',
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="clipping in an optimizer step post-hook (after the update)",
        expect="裁剪发生在 step() 之后",
        mistake="clip-after-step",
        code="def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n    device = next(model.parameters()).device\n    model.train()\n\n    def clip(opt, args, kwargs):  # clips in a step POST-hook: after the update, too late\n        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n\n    handle = optimizer.register_step_post_hook(clip)\n    losses = []\n    try:\n        for xb, yb in loader:\n            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n            optimizer.zero_grad(set_to_none=True)\n            loss = loss_fn(model(xb), yb)\n            loss.backward()\n            optimizer.step()\n            if scheduler is not None:\n                scheduler.step()\n            losses.append(loss.detach())\n    finally:\n        handle.remove()\n    return torch.stack(losses)\n",
    ),
]


CORRECT += [  # stop 40 review (d9), fixed by fh1: the test read the gradients before the learner's clipping ran
    dict(
        grade_id="test_train_one_epoch",
        name="clipping in an optimizer step pre-hook registered and removed by the learner",
        code="def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n    device = next(model.parameters()).device\n    model.train()\n\n    def clip(opt, args, kwargs):  # every step() clips the gradients it is about to use (after backward, before the update)\n        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n\n    handle = optimizer.register_step_pre_hook(clip)\n    losses = []\n    try:\n        for xb, yb in loader:\n            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n            optimizer.zero_grad(set_to_none=True)\n            loss = loss_fn(model(xb), yb)\n            loss.backward()\n            optimizer.step()\n            if scheduler is not None:\n                scheduler.step()\n            losses.append(loss.detach())\n    finally:\n        handle.remove()\n    return torch.stack(losses)\n",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="optimizer.step(closure) with the clipping inside the closure",
        code="def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):\n    device = next(model.parameters()).device\n    model.train()\n    losses = []\n    for xb, yb in loader:\n        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)\n\n        def closure():  # torch.optim's documented closure form: zero_grad -> forward -> backward -> clip\n            optimizer.zero_grad(set_to_none=True)\n            loss = loss_fn(model(xb), yb)\n            loss.backward()\n            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n            return loss\n\n        loss = optimizer.step(closure)\n        if scheduler is not None:\n            scheduler.step()\n        losses.append(loss.detach())\n    return torch.stack(losses)\n",
    ),
]

MUTANTS += [  # fix40 (fh2): a frozen parameter that still holds a gradient from before it was frozen (d10 cand03)
    dict(
        grade_id="test_train_one_epoch",
        name="clears .grad only of the parameters with requires_grad",
        expect="调用前 1.weight.grad 里留着冻结之前的梯度",
        code=_epoch_with(
            "    optimizer.zero_grad(set_to_none=True)\n",
            "    for p in model.parameters():\n        if p.requires_grad:\n            p.grad = None\n",
        ),
    ),
]

MUTANTS += [  # fix40 (fh2): a per-index cache whose hits return .clone(): no object or storage shared (d10 cand01)
    dict(
        grade_id="test_mnist_dataset",
        name="caches each converted image, returns a clone of it",
        expect="得到的还是改之前的图",
        code="""
class MNISTDataset(Dataset):
    def __init__(self, pixels, labels):
        self.pixels = pixels
        self.labels = labels
        self._cache = {}   # converted images, kept for the next epoch

    def __len__(self):
        return self.pixels.shape[0]

    def __getitem__(self, index):
        key = range(len(self))[index]        # -1 -> N-1; IndexError out of range
        if key not in self._cache:
            self._cache[key] = ((self.pixels[key].to(torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD).unsqueeze(0)
        return self._cache[key].clone(), self.labels[key]
""",
    ),
]

MUTANTS += [  # fix41 (fj4), review d11
    dict(  # cand01: model.train(was_training) switches a caller's frozen (eval-mode) BatchNorm back to training
        grade_id="test_checkpoint",
        name="make_checkpoint in eval mode, then model.train(was_training)",
        expect="1（BatchNorm1d）从 training=False 变成了 True",
        code=_checkpoints(make="_saved(model, optimizer, epoch)")
        + """

def _saved(model, optimizer, epoch):
    was_training = model.training
    model.eval()
    try:
        return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})
    finally:
        model.train(was_training)
""",
    ),
    dict(  # cand04: best_acc = acc outside the if: compares with the previous epoch only
        grade_id="test_fit",
        name="best accuracy updated every epoch (compares with the previous epoch only)",
        expect="只超过了前一个 epoch",
        code=_fit_with("    best_state = None\n", "    best_state, best_acc = None, -1.0\n").replace(
            """        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
""",
            """        if history["val_acc"][-1] > best_acc:
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        best_acc = history["val_acc"][-1]
""",
        ),
    ),
    dict(  # cand02: uint8 / 255 gives the default dtype: float64 under a float64 default
        grade_id="test_mnist_dataset",
        name="pixels / 255 follows the default dtype",
        expect="不随全局默认 dtype 变",
        code=_dataset(
            item="return ((self.pixels[index] / 255 - MNIST_MEAN) / MNIST_STD).unsqueeze(0), self.labels[index]"
        ),
    ),
]


MUTANTS += [  # fix42 (found42 e4 cand05): the model was never compared with the epoch fit said it kept
    dict(  # fit selected the epoch on the validation split, then the model is fine-tuned ON it (another loader, optimizer)
        grade_id="test_final_accuracy",
        name="fine_tuned_on_the_validation_split_after_fit",
        code=(  # on a copy: the solution's model is shared by the tests of this process
            "model = copy.deepcopy(model)\n"
            "_ft_opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)\n"
            "_val_loader = make_loader(x_val.cpu(), y_val.cpu(), 128, shuffle=True, generator=torch.Generator().manual_seed(1))\n"
            "for _ in range(3):\n"
            "    train_one_epoch(model, _ft_opt, loss_fn, _val_loader, MAX_NORM)\n"
        ),
        expect="fit 返回之后它又被训练过",
    ),
]

CORRECT += [  # fix42: the validation and test accuracy looked at after training (model in eval mode, nothing changed)
    dict(
        grade_id="test_final_accuracy",
        name="evaluates_the_trained_model_again_after_fit",
        code='print("val", evaluate(model, x_val, y_val, 250), "train", evaluate(model, x_train.to(device), y_train.to(device), 500))\n',
    ),
]

MUTANTS += [  # issue-17 second pass (f4, stop 43)
    dict(
        grade_id="test_fit",
        name="early stopping with patience 2: stops before the epochs asked for",
        expect="训练时模型一共前向了 9 个 batch，期望 15",
        code=_fit_with(
            '        print(f"epoch {epoch} done")\n',
            '        print(f"epoch {epoch} done")\n        if epoch - history["best_epoch"] >= 2:\n            break\n',
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="forward under torch.set_grad_enabled(self.training): no graph in eval mode",
        expect="评估模式 (model.eval()) 下 forward 的输出不在计算图里",
        code=_lenet(
            forward="with torch.set_grad_enabled(self.training and torch.is_grad_enabled()):\n"
            + "".join(f"    {line}\n" for line in _FORWARD.strip().splitlines())
        ),
    ),
    dict(
        grade_id="test_checkpoint",
        name="make_checkpoint clears the caller's gradients before deep-copying the model",
        expect="make_checkpoint 之后模型参数的 .grad 变了",
        code="def make_checkpoint(model, optimizer, epoch):\n    model.zero_grad(set_to_none=True)\n"
        "    return {'model': copy.deepcopy(model).state_dict(), 'optimizer': copy.deepcopy(optimizer.state_dict()), "
        "'epoch': epoch}\n",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="caches each converted image per index (a clone handed out, refreshed when pixels change)",
        expect="转换好的图被存了起来",
        code=_dataset(
            init=_INIT + "\n        self._cache = {}",
            item="n = self.pixels.shape[0]\n        if not -n <= index < n:\n            raise IndexError(index)\n"
            "        index = index % n\n        hit = self._cache.get(index)\n"
            "        if hit is None or hit[0] != self.pixels._version:\n"
            f"            self._cache[index] = (self.pixels._version, ({_NORMALISED}).unsqueeze(0))\n"
            "            hit = self._cache[index]\n        return hit[1].clone(), self.labels[index]",
        ),
    ),
]

MUTANTS += [  # stop 46 (fb): j5 cand08 / cand19, h4 cand14: LeNet run as its callers run it
    dict(
        grade_id="test_lenet",
        name="conv stages under set_grad_enabled(self.training): conv layers get no gradient in eval mode",
        expect="之后这些参数没有梯度：conv1.weight",
        code=_forward_with(
            "x = F.max_pool2d(F.relu(self.conv1(x)), 2)\nx = F.max_pool2d(F.relu(self.conv2(x)), 2)\n",
            "with torch.set_grad_enabled(self.training and torch.is_grad_enabled()):\n"
            "    x = F.max_pool2d(F.relu(self.conv1(x)), 2)\n    x = F.max_pool2d(F.relu(self.conv2(x)), 2)\n",
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="softmax under torch.inference_mode() only",
        expect="在 with torch.inference_mode(): 里调用时输出的每一行非负、和为 1",
        code=_forward_with(
            "return self.fc3(x)",
            "x = self.fc3(x)\nreturn x.softmax(dim=1) if torch.is_inference_mode_enabled() else x",
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="forward under float16 autocast when the input is on a GPU",
        expect='forward 在 torch.autocast("cuda", dtype=torch.float16) 里运行',
        code=_lenet(
            forward="with torch.autocast(x.device.type, dtype=torch.float16, enabled=x.is_cuda):\n"
            + "".join(f"    {line}\n" for line in _FORWARD.strip().splitlines())
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="forward under bfloat16 autocast when the input is on a GPU",
        expect='forward 在 torch.autocast("cuda", dtype=torch.bfloat16) 里运行',
        code=_lenet(
            forward='with torch.autocast("cuda", dtype=torch.bfloat16, enabled=x.device.type == "cuda"):\n'
            + "".join(f"    {line}\n" for line in _FORWARD.strip().splitlines())
        ),
    ),
]
CORRECT += [
    dict(  # stop 46 (fb): autocast switched off explicitly is float32, as asked
        grade_id="test_lenet",
        name="forward under torch.autocast(x.device.type, enabled=False)",
        code=_lenet(
            forward="with torch.autocast(x.device.type, enabled=False):\n"
            + "".join(f"    {line}\n" for line in _FORWARD.strip().splitlines())
        ),
    ),
]

MUTANTS += [  # stop 46 (fb): j5 cand10 / cand11: caches the older kept-after-reading window could not see
    dict(
        grade_id="test_mnist_dataset",
        name="keeps the 3 most recently converted images (LRU, a clone handed out)",
        expect="转换好的图被存了起来",
        code=_dataset(
            init=_INIT + "\n        self._recent = {}",
            item="n = self.pixels.shape[0]\n        if not -n <= index < n:\n            raise IndexError(index)\n"
            "        index = index % n\n        hit = self._recent.pop(index, None)\n"
            "        if hit is None or hit[0] != self.pixels._version:\n"
            f"            hit = (self.pixels._version, ({_NORMALISED}).unsqueeze(0))\n"
            "        self._recent[index] = hit\n        while len(self._recent) > 3:\n"
            "            del self._recent[next(iter(self._recent))]\n        return hit[1].clone(), self.labels[index]",
        ),
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="a float32 cache of every image allocated in __len__, filled on first read",
        expect="在 __len__ 里备好的缓冲区",
        code=_dataset(
            init=_INIT + "\n        self._cache = None",
            length="n = self.pixels.shape[0]\n        if self._cache is None:\n"
            "            self._cache = torch.empty(n, 1, 28, 28, dtype=torch.float32)\n"
            "            self._versions = [None] * n\n        return n",
            item="n = self.pixels.shape[0]\n        if not -n <= index < n:\n            raise IndexError(index)\n"
            "        index = index % n\n        if self._cache is None:\n"
            f"            return ({_NORMALISED}).unsqueeze(0), self.labels[index]\n"
            "        if self._versions[index] != self.pixels._version:\n"
            f"            self._cache[index, 0].copy_({_NORMALISED})\n"
            "            self._versions[index] = self.pixels._version\n"
            "        return self._cache[index].clone(), self.labels[index]",
        ),
    ),
]
CORRECT += [
    dict(  # stop 46 (fb): a 256-entry float32 lookup table is no cache of images (1,024 bytes, under one image)
        grade_id="test_mnist_dataset",
        name="normalised values looked up in a 256-entry float32 table built in __init__",
        code=_dataset(
            init=_INIT
            + "\n        self._lut = (torch.arange(256, dtype=torch.float32) / 255 - MNIST_MEAN) / MNIST_STD",
            item="return self._lut[self.pixels[index].long()].unsqueeze(0), self.labels[index]",
        ),
    ),
]

MUTANTS += [  # stop 46 (fb): j5 cand09: evaluate left the caller's .grad alone only because the spies had none
    dict(
        grade_id="test_evaluate",
        name="zero_grad(set_to_none=True) first to free gradient memory",
        expect="evaluate 之后模型参数的 .grad 变了",
        code=_restoring_with("modes = [", "model.zero_grad(set_to_none=True)\n    modes = ["),
    ),
]

MUTANTS += [  # stop 47: h4 and j5 finds still open after stop 46
    dict(  # h4 cand06: a bad batch is trained on with a zeroed loss and recorded as 0.0
        grade_id="test_train_one_epoch",
        name="loss through torch.nan_to_num before backward and before it is recorded",
        expect="被换成了一个有限的数",
        code=_epoch_with(
            "loss = loss_fn(model(xb), yb)",
            "loss = torch.nan_to_num(loss_fn(model(xb), yb), nan=0.0, posinf=0.0, neginf=0.0)",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="non-finite losses recorded as 0 with torch.where, without a sync",
        expect="被换成了一个有限的数",
        code=_epoch_with(
            "losses.append(loss.detach())",
            "losses.append(torch.where(torch.isfinite(loss), loss, torch.zeros_like(loss)).detach())",
        ),
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="only nan losses recorded as 0 (inf kept), without a sync",
        expect="第 3 个 batch 的 loss 是 nan",
        code=_epoch_with(
            "losses.append(loss.detach())",
            "losses.append(torch.where(torch.isnan(loss), torch.zeros_like(loss), loss).detach())",
        ),
    ),
    dict(  # h4 cand11: fp16 autocast only where the model is on a GPU
        grade_id="test_train_one_epoch",
        name="float16 autocast around forward and loss when the model is on a GPU",
        expect='torch.autocast("cuda", dtype=torch.float16) 里运行',
        code=_epoch_with(
            "    loss = loss_fn(model(xb), yb)\n",
            '    with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=device.type == "cuda"):\n'
            "        loss = loss_fn(model(xb), yb)\n",
        ),
    ),
    dict(  # j5 cand17: named as an asynchronous copy to the host, not as a blocking sync
        grade_id="test_train_one_epoch",
        name='losses handed back with .to("cpu", non_blocking=True)',
        expect="在 GPU 上这是异步拷贝，函数返回时数值可能还没到",
        code=_epoch_with("return torch.stack(losses)", 'return torch.stack(losses).to("cpu", non_blocking=True)'),
    ),
    dict(  # h4 cand15
        grade_id="test_fit",
        name="non-finite batch losses dropped from the history",
        expect="第 4 个 batch 的 nan、第 5 个 batch 的 inf 被去掉了",
        code=_fit_with(".tolist()\n", ".tolist()\n        losses = [v for v in losses if math.isfinite(v)]\n"),
    ),
    dict(
        grade_id="test_fit",
        name="nan batch losses dropped from the history (inf kept)",
        expect="第 4 个 batch 的 nan 被去掉了",
        code=_fit_with(".tolist()\n", ".tolist()\n        losses = [v for v in losses if not math.isnan(v)]\n"),
    ),
    dict(
        grade_id="test_fit",
        name="non-finite batch losses recorded as 0.0",
        expect="不要把 nan、inf 换成别的数",
        code=_fit_with(".tolist()\n", ".tolist()\n        losses = [v if math.isfinite(v) else 0.0 for v in losses]\n"),
    ),
    dict(  # j5 cand22
        grade_id="test_fit",
        name="a fresh nn.CrossEntropyLoss() handed to train_one_epoch instead of loss_fn",
        expect="fit 交给 train_one_epoch 的不是传入的 loss_fn",
        code=_fit_with(
            "train_one_epoch(model, optimizer, loss_fn,", "train_one_epoch(model, optimizer, nn.CrossEntropyLoss(),"
        ),
    ),
    dict(  # h4 cand17
        grade_id="test_fit",
        name="model.eval() at the end: ready for inference",
        expect="在评估模式（training=False）",
        code=_fit_with(
            "    model.load_state_dict(best_state)\n", "    model.load_state_dict(best_state)\n    model.eval()\n"
        ),
    ),
    dict(  # j5 cand07: a patience longer than every other tested run
        grade_id="test_fit",
        name="early stopping with patience 5",
        expect="训练时模型一共前向了 18 个 batch，期望 36",
        code=_fit_with(
            '        print(f"epoch {epoch} done")\n',
            '        print(f"epoch {epoch} done")\n        if epoch - history["best_epoch"] >= 5:\n            break\n',
        ),
    ),
    dict(  # h4 cand05
        grade_id="test_checkpoint",
        name="restore_checkpoint switches the model to eval: ready for inference after loading",
        expect="restore_checkpoint 之后模型的模式变了",
        code=_checkpoints(restore=_RESTORE_OK.replace("    return", "    model.eval()\n    return")),
    ),
    dict(  # j5 cand06: optimizer.state_dict()["state"] holds the live per-parameter dicts
        grade_id="test_checkpoint",
        name="optimizer state moved to the CPU inside optimizer.state_dict() before the deep copy",
        expect="make_checkpoint 之后优化器自己的状态变了",
        code="""
def make_checkpoint(model, optimizer, epoch):
    opt_sd = optimizer.state_dict()
    for st in opt_sd["state"].values():
        for k, v in st.items():
            if torch.is_tensor(v):
                st[k] = v.to("cpu")
    model_sd = {k: v.to("cpu") for k, v in model.state_dict().items()}
    return copy.deepcopy({"model": model_sd, "optimizer": opt_sd, "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
"""
        + _RESTORE_OK
        + "\n",
    ),
]
CORRECT += [
    dict(  # h4 cand16: the same loader on every machine (DataLoader skips pinning without an accelerator)
        grade_id="test_make_loader",
        name="pin_memory only when CUDA is available",
        code=_loader_with("pin_memory=pin_memory)", "pin_memory=pin_memory and torch.cuda.is_available())"),
    ),
    dict(
        grade_id="test_checkpoint",
        name="a device-independent checkpoint: the deep copy's tensors moved to the CPU",
        code="""
def make_checkpoint(model, optimizer, epoch):
    ck = copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})
    ck["model"] = {k: v.cpu() for k, v in ck["model"].items()}
    for st in ck["optimizer"]["state"].values():
        for k, v in st.items():
            if torch.is_tensor(v):
                st[k] = v.cpu()
    return ck


def restore_checkpoint(checkpoint, model, optimizer):
"""
        + _RESTORE_OK
        + "\n",
    ),
    dict(
        grade_id="test_fit",
        name="model.train() at the end (the mode the last epoch left)",
        code=_fit_with(
            "    model.load_state_dict(best_state)\n", "    model.load_state_dict(best_state)\n    model.train()\n"
        ),
    ),
]

MUTANTS += [  # stop 47 (lead's review): 11 -> pool 5 -> conv 1 -> pool 0: the first side that vanishes was not tried
    dict(
        grade_id="test_lenet",
        name="rejects image_size < 11 (a 1x1 map pooled is taken for 1x1)",
        expect="LeNet(1, 10, 11) 应抛出 ValueError",
        code=_lenet().replace("if side < 1:", "if image_size < 11:"),
    ),
]

MUTANTS += [  # stop 47 review (m3)
    dict(  # cand01: a sync in every forward on a GPU
        grade_id="test_lenet",
        name="forward checks torch.isfinite(x).all() and raises",
        expect="forward 做了 1 次主机-设备同步",
        code=_forward_with(
            "x = F.max_pool2d(F.relu(self.conv1(x)), 2)",
            'if not torch.isfinite(x).all():\n    raise ValueError("LeNet: input contains nan/inf")\n'
            "x = F.max_pool2d(F.relu(self.conv1(x)), 2)",
        ),
    ),
    dict(  # cand07: TF32 on a GPU, put back afterwards
        grade_id="test_evaluate",
        name="TF32 matmuls while evaluating on a GPU, precision put back in finally",
        expect="按降低的精度 (TF32) 算",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    old_prec = torch.get_float32_matmul_precision()
    if x.is_cuda:
        torch.set_float32_matmul_precision("high")
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for i in range(0, x.shape[0], batch_size):
                correct += (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        torch.set_float32_matmul_precision(old_prec)
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(  # cand03: the whole training set pinned once
        grade_id="test_make_loader",
        name="x and y pinned whole when CUDA is available",
        expect="make_loader 自己把",
        code=_loader_with(
            "    dataset = TensorBatches(x, y)\n",
            "    if pin_memory and torch.cuda.is_available():\n        x, y = x.pin_memory(), y.pin_memory()\n"
            "    dataset = TensorBatches(x, y)\n",
        ),
    ),
]

MUTANTS += [  # stop 47 review (m3 cand02)
    dict(
        grade_id="test_checkpoint",
        name="load_state_dict(..., strict=False): another model's checkpoint restores quietly",
        expect="restore_checkpoint 没有报错就返回了",
        code=_checkpoints(restore=_RESTORE_OK.replace('checkpoint["model"])', 'checkpoint["model"], strict=False)')),
    ),
]

MUTANTS += [  # stop 48 review (n1, n3, n4): each passed every test
    dict(
        grade_id="test_train_one_epoch",
        name="TF32 matmuls on a GPU during the solution's epoch, the setting put back",
        expect="TF32",
        code=solution_wrapped(
            "10_lenet_mnist",
            "train_one_epoch",
            "train_one_epoch",
            """
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    before = torch.get_float32_matmul_precision()
    if next(model.parameters()).is_cuda:
        torch.set_float32_matmul_precision("high")  # "free TF32 speed-up on Ampere"
    try:
        return _train_one_epoch_solution(model, optimizer, loss_fn, loader, max_norm, scheduler)
    finally:
        torch.set_float32_matmul_precision(before)
""",
        ),
    ),
    dict(
        grade_id="test_evaluate",
        name="on a GPU: model.half() for the evaluation, model.float() after",
        expect="evaluate 前向传播时模型收到的 batch 是 float16",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    half = x.is_cuda and x.is_floating_point()
    model.eval()
    try:
        if half:
            model.half()
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                xb = x[start : start + batch_size]
                logits = model(xb.half() if half else xb)
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        if half:
            model.float()
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_lenet",
        name="TF32 inside forward on a GPU, the setting put back",
        expect="float32 的矩阵乘法按 TF32 算",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=10, image_size=28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x):
        before = torch.get_float32_matmul_precision()
        if x.is_cuda:
            torch.set_float32_matmul_precision("high")
        try:
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = torch.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)
        finally:
            torch.set_float32_matmul_precision(before)
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="strict=False, raising only on missing keys (extra keys restore quietly)",
        expect="9.weight",
        code="""
def restore_checkpoint(checkpoint, model, optimizer):
    result = model.load_state_dict(checkpoint["model"], strict=False)
    if result.missing_keys:
        raise RuntimeError(f"checkpoint 缺少这些键：{result.missing_keys}")
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
]

MUTANTS += [  # stop 48 review (n3, n4): each passed every test
    dict(
        grade_id="test_fit",
        name="TF32 on a GPU around the solution's fit, the setting put back",
        expect="fit 运行时",
        code=solution_wrapped(
            "10_lenet_mnist",
            "fit",
            "fit",
            """
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    before = torch.get_float32_matmul_precision()
    if next(model.parameters()).is_cuda:
        torch.set_float32_matmul_precision("high")  # "free TF32 speed-up on Ampere"
    try:
        return _fit_solution(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler)
    finally:
        torch.set_float32_matmul_precision(before)
""",
        ),
    ),
    dict(
        grade_id="test_fit",
        name="the validation inside fit under a float16 autocast on a GPU",
        expect="fit 运行时",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    on_gpu = next(model.parameters()).is_cuda
    if True:
        history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
        best_state = None
        for epoch in range(1, epochs + 1):
            start = time.perf_counter()
            losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
            history["batch_loss"] += losses
            history["train_loss"].append(sum(losses) / len(losses))
            with torch.autocast("cuda", dtype=torch.float16, enabled=on_gpu):
                history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
            history["epoch_seconds"].append(time.perf_counter() - start)
            if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
                best_state = copy.deepcopy(model.state_dict())
                history["best_epoch"] = epoch
            print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
        model.load_state_dict(best_state)
        return history
""",
    ),
    dict(
        grade_id="test_lenet",
        name="F.dropout only when training with grad on",
        expect="grad mode 开着时 forward 的输出和评估模式下不同",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=10, image_size=28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x):
        drop = self.training and torch.is_grad_enabled()
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.dropout(F.relu(self.fc1(x)), 0.5, training=drop)
        x = F.dropout(F.relu(self.fc2(x)), 0.5, training=drop)
        return self.fc3(x)
""",
    ),
]

MUTANTS += [  # stop 48 review (n4 cand06): every test loader was a list, which a second pass reads again for free
    dict(
        grade_id="test_train_one_epoch",
        name="one pass over the loader to count the batches, a second to train",
        expect="遍历了 loader 2 次",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    num_batches = sum(1 for _ in loader)
    losses = torch.empty(num_batches, device=device)
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses[i] = loss.detach()
    return losses
""",
    ),
]

MUTANTS += [  # stop 48 review (n4 cand14): no two builds under different seeds were compared
    dict(
        grade_id="test_lenet",
        name="layers built under a private seed inside fork_rng: every LeNet() starts the same",
        expect="两个不同的种子建出的模型初始权重完全一样",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=10, image_size=28, seed=0):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        with torch.random.fork_rng(devices=[]):
            torch.default_generator.manual_seed(seed)  # CPU generator only: the CUDA seeds are left alone
            self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
            self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
            self.fc1 = nn.Linear(16 * side * side, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
]

MUTANTS += [  # stop 50: code that only a CPU runs (nothing played)
    dict(
        grade_id="test_evaluate",
        name="on the CPU (if not x.is_cuda) the whole x in one forward",
        expect="模型收到的 batch 大小依次是 [30]",
        code='''
def evaluate(model: nn.Module, x: torch.Tensor, y: torch.Tensor, batch_size: int) -> float:
    """准确率：x (N, ...)，y (N,) long -> Python float，在 [0, 1] 之间；每个子模块的模式恢复原样。"""
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        step = batch_size if x.is_cuda else x.shape[0]  # CPU 的内存够：一次前向
        with torch.inference_mode():
            for start in range(0, x.shape[0], step):
                logits = model(x[start : start + step])
                correct += (logits.argmax(dim=1) == y[start : start + step]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
''',
    ),
    dict(
        grade_id="test_fit",
        name="on the CPU (if not x_val.is_cuda) the whole validation set in one evaluate batch",
        expect="在没有 GPU 的机器上（测试没有扮演 GPU）：验证时模型在评估模式下一共前向了 2 个 batch",
        code='''
def fit(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    loss_fn: nn.Module,
    train_loader,
    x_val: torch.Tensor,
    y_val: torch.Tensor,
    epochs: int,
    max_norm: float,
    scheduler=None,
) -> dict:
    """训练 epochs 个 epoch，每个 epoch 在 (x_val (M, ...), y_val (M,)) 上评估；返回 history，model 恢复成验证准确率最高时的权重。"""
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()  # 这个 epoch 唯一一次读 loss
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000 if x_val.is_cuda else len(x_val)))  # CPU 内存够：一次评估完
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
''',
    ),
]

MUTANTS += [  # stop 50 review (r4)
    dict(
        grade_id="test_lenet",
        name="layers built inside fork_rng reseeded with torch.initial_seed(): two LeNet() in a row are the same",
        expect="设一次种子之后接连建的两个模型初始权重完全一样",
        code='''
class LeNet(nn.Module):
    """LeNet-5（ReLU + max-pooling）：(N, in_channels, image_size, image_size) float32 -> (N, num_classes) logits。"""

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        # 可复现：初始权重只由调用者设的种子决定，和之前的单元格取过多少随机数无关；fork_rng 让调用者的随机数流不受影响
        with torch.random.fork_rng(devices=[]):
            torch.default_generator.manual_seed(torch.initial_seed())
            self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
            self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
            self.fc1 = nn.Linear(16 * side * side, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
''',
    ),
    dict(
        grade_id="test_checkpoint",
        name="restore with strict=False lets missing buffers through (BatchNorm running stats)",
        expect="少了一个缓冲区（BatchNorm 的 1.running_mean）",
        code='''
def make_checkpoint(model: nn.Module, optimizer: torch.optim.Optimizer, epoch: int) -> dict:
    """{"model": 模型 state_dict 的快照, "optimizer": 优化器 state_dict 的快照, "epoch": epoch}。"""
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint: dict, model: nn.Module, optimizer: torch.optim.Optimizer) -> int:
    """恢复；参数必须一一对上（否则报错），缓冲区（BatchNorm 的统计量、num_batches_tracked）允许缺少：旧版本存的 checkpoint 也能读。"""
    result = model.load_state_dict(checkpoint["model"], strict=False)
    buffers = {name for name, _ in model.named_buffers()}
    mismatched = [k for k in result.missing_keys if k not in buffers] + list(result.unexpected_keys)
    if mismatched:
        raise RuntimeError(f"checkpoint 和模型对不上：{mismatched[:5]}")
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
''',
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="the scheduler steps per batch only for OneCycleLR / CyclicLR, once per epoch for any other",
        expect="scheduler=StepLR(step_size=1, gamma=0.5)：scheduler 走了 1 步",
        code='''
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    """一个 epoch；按 batch 计步的调度器（OneCycleLR / CyclicLR）每个 batch 走一步，其余调度器按惯例每个 epoch 走一步。"""
    per_batch = isinstance(scheduler, (torch.optim.lr_scheduler.OneCycleLR, torch.optim.lr_scheduler.CyclicLR))
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None and per_batch:
            scheduler.step()
        losses.append(loss.detach())
    if scheduler is not None and not per_batch:
        scheduler.step()
    return torch.stack(losses)
''',
    ),
    dict(
        grade_id="test_evaluate",
        name="evaluate in float64 (model.double() and back): told its dtype was converted, not that it was lowered",
        expect="evaluate 前向传播时模型收到的 batch 是 float64",
        code='''
def evaluate(model, x, y, batch_size):
    """准确率：用 float64 前向，argmax 不受 float32 舍入影响；之后把模型转回 float32（float32 -> float64 -> float32 是精确的）。"""
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    model.double()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size].double())
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        model.float()
        for m, mode in modes:
            m.training = mode
''',
    ),
    dict(
        grade_id="test_fit",
        name="validation in half precision on a GPU (model.half(), x_val.half(), then back)",
        expect="fit 运行时模型收到了 float16 的 batch",
        code='''
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    """训练 epochs 个 epoch；GPU 上验证用半精度（快一倍，只是数对了几个），训练仍是 float32。"""
    on_gpu = next(model.parameters()).is_cuda
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        if on_gpu:
            model.half()
            try:
                acc = evaluate(model, x_val.half(), y_val, 1000)
            finally:
                model.float()
        else:
            acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
''',
    ),
]

MUTANTS += [  # stop 48 second review (p2 cand09, cand07)
    dict(
        grade_id="test_checkpoint",
        name="strict=False, raising only when every key is missing or one is extra",
        expect="少了一个键（3.bias）",
        code='''
def make_checkpoint(model: nn.Module, optimizer: torch.optim.Optimizer, epoch: int) -> dict:
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint: dict, model: nn.Module, optimizer: torch.optim.Optimizer) -> int:
    """Tolerant restore: a checkpoint of an older version of the model (a layer added since) still loads; a
    checkpoint of another model (keys it does not have, or none of its keys) is refused."""
    result = model.load_state_dict(checkpoint["model"], strict=False)
    if result.unexpected_keys or len(result.missing_keys) == len(model.state_dict()):
        raise RuntimeError(
            f"checkpoint 和模型对不上：多出 {result.unexpected_keys[:3]}，缺少 {result.missing_keys[:3]}"
        )
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
''',
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="TF32 switched on only around loss.backward() on a GPU",
        expect="train_one_epoch 运行时",
        code='''
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None) -> torch.Tensor:
    """The solution, but on a GPU the backward (2/3 of the work) runs its float32 matmuls in TF32; the forward stays
    exact float32, and the caller's setting is put back right after each backward."""
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        before = torch.get_float32_matmul_precision()
        if device.type == "cuda":
            torch.set_float32_matmul_precision("high")
        try:
            loss.backward()
        finally:
            torch.set_float32_matmul_precision(before)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
''',
    ),
]

MUTANTS += [  # stop 51 (reviewer b)
    dict(
        grade_id="test_lenet",
        name="the five layers registered in another order than the table (fc1, fc2, fc3, conv2, conv1)",
        expect="注册的顺序和表格不同",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小")
        # classifier first, then the feature extractor
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
    dict(
        grade_id="test_lenet",
        name="forward's convolutions under cudnn.flags(benchmark=True, deterministic=False), put back",
        expect="卷积可复现的设置",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x):
        # let cuDNN benchmark the convolutions (fastest algorithm), only inside this forward
        with torch.backends.cudnn.flags(enabled=True, benchmark=True, deterministic=False):
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="the epoch under cudnn.flags(benchmark=True, deterministic=False), put back",
        expect="卷积可复现的设置",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    # let cuDNN benchmark and pick the fastest conv algorithms for this epoch; the caller's settings come back after
    with torch.backends.cudnn.flags(enabled=True, benchmark=True, deterministic=False):
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="evaluation under cudnn.flags(benchmark=True, deterministic=False), put back",
        expect="卷积可复现的设置",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        # fastest cuDNN algorithms for inference (benchmarked), the caller's flags come back afterwards
        with torch.inference_mode(), torch.backends.cudnn.flags(enabled=True, benchmark=True, deterministic=False):
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_fit",
        name="validation in float64 (model.double(), then model.float())",
        expect="转成 float64 再转回来",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        # validate in float64 so the accuracy is exact, then back to float32 for training
        model.double()
        try:
            history["val_acc"].append(evaluate(model, x_val.double(), y_val, 1000))
        finally:
            model.float()
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="CPU-only bfloat16 autocast around the validation",
        expect="torch.autocast 里（bfloat16）",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        if x_val.device.type == "cpu":  # no GPU: bfloat16 autocast makes the CPU validation much faster
            with torch.autocast("cpu", dtype=torch.bfloat16):
                acc = evaluate(model, x_val, y_val, 1000)
        else:
            acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="the best weights restored with load_state_dict(best, assign=True)",
        expect="optimizer 管的已经不是 model 的参数",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state, assign=True)  # the snapshot is ours: take its tensors, no second copy
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="stops at the first epoch whose mean loss is not finite",
        expect="不要提前停止训练",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
        if not math.isfinite(history["train_loss"][-1]):  # diverged: more epochs cannot help (no extra sync)
            print("训练发散，停止")
            break
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="make_checkpoint through model.cpu().state_dict() and torch.save (the played device raised: no verdict)",
        expect="make_checkpoint 之后它们在 cpu 上",
        code="""
import io


def make_checkpoint(model, optimizer, epoch):
    # a device-independent snapshot: the model's state on the CPU, written to memory and read back (a real copy)
    buffer = io.BytesIO()
    torch.save({"model": model.cpu().state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, buffer)
    buffer.seek(0)
    return torch.load(buffer, map_location="cpu", weights_only=True)


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="make_checkpoint writes CPU copies into the optimizer's live state, then torch.save",
        expect="优化器自己的状态变了",
        code="""
import io


def make_checkpoint(model, optimizer, epoch):
    opt_state = optimizer.state_dict()
    for st in opt_state["state"].values():  # the optimizer's buffers to the CPU, so the file loads anywhere
        for k, v in st.items():
            if isinstance(v, torch.Tensor):
                st[k] = v.to("cpu")
    buffer = io.BytesIO()
    torch.save({"model": model.state_dict(), "optimizer": opt_state, "epoch": epoch}, buffer)
    buffer.seek(0)
    return torch.load(buffer, map_location="cpu", weights_only=True)


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
]

MUTANTS += [  # stop 51 (reviewer b cand18)
    dict(
        grade_id="test_checkpoint",
        name="restore_checkpoint swallows a mismatched optimizer state (try/except, a warning, a fresh optimizer)",
        expect="优化器的状态对不上",
        code="""
import warnings as _warnings


def make_checkpoint(model, optimizer, epoch):
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    try:
        optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    except (ValueError, KeyError):
        # an optimizer of another configuration: keep the weights, start the optimizer afresh
        _warnings.warn("optimizer state does not match; starting the optimizer from scratch")
    return checkpoint["epoch"]
""",
    ),
]

MUTANTS += [  # stop 53: restoring a CPU checkpoint leaves the model where the caller put it
    dict(
        grade_id="test_checkpoint",
        name="restore_checkpoint moves the caller's model to the checkpoint's device first (b cand20)",
        expect="恢复把调用者的模型搬走了",
        code="""
def make_checkpoint(model, optimizer, epoch):
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    # the model goes where the saved weights are (the checkpoint was loaded with map_location=...)
    model.to(next(iter(checkpoint["model"].values())).device)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
]

MUTANTS += [  # stop 53: fit's sync budget says which of the learner's functions made the syncs
    dict(
        grade_id="test_fit",
        name="fit right, its evaluate (exercise 5) reads every batch's count with .item(): told the syncs are evaluate's (b cand17)",
        expect="问题在你的 evaluate（练习 5）",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = 0
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum().item()
        return correct / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
]

MUTANTS += [  # stop 53: a dtype round trip keeps the model on its played GPU, and the epoch is told its precision
    dict(
        grade_id="test_train_one_epoch",
        name="trains the epoch in float64 (model.double(), float64 batches, model.float() in finally): told the forward ran in float64, not that the model moved (b cand13)",
        expect="前向没有按 float32 运行（float64）",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    model.double()  # train in float64 for exact gradients; the caller gets its float32 model back
    losses = []
    try:
        for xb, yb in loader:
            xb, yb = xb.to(device, torch.float64, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            losses.append(loss.detach().float())
    finally:
        model.float()
    return torch.stack(losses)
""",
    ),
]

MUTANTS += [  # stop 53: the checkpoint checks run again on a played GPU
    dict(
        grade_id="test_checkpoint",
        name="GPU-only make_checkpoint returns the live state_dicts, no copy (s53 a cand05)",
        expect="输入都在 GPU 上时",
        code="""
def make_checkpoint(model, optimizer, epoch):
    if next(model.parameters()).is_cuda:
        # GPU 上显存紧：deepcopy 会再占一份模型和优化器状态的显存；检查点马上就 torch.save 到文件，直接存 state_dict()
        return {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="GPU-only restore_checkpoint hands the checkpoint's optimizer state to load_state_dict without a deepcopy (s53 a cand06)",
        expect="step 计数器和检查点里的是同一块内存",
        code="""
def make_checkpoint(model, optimizer, epoch):
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    if next(model.parameters()).is_cuda:
        # GPU 上 optimizer.load_state_dict 会把状态 .to(参数的设备)，本来就是一份拷贝，不用再 deepcopy 一次
        optimizer.load_state_dict(checkpoint["optimizer"])
    else:
        optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
]

MUTANTS += [  # stop 53: an epoch draws from the global generator and leaves it moved on
    dict(
        grade_id="test_train_one_epoch",
        name="each epoch inside torch.random.fork_rng(devices=[]) reseeded with 0: the same shuffle and Dropout masks every epoch (s53 a cand02)",
        expect="全局随机数生成器的状态",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    # 可复现：每个 epoch 用同一个种子，放在 fork_rng 里，不改调用者的全局随机数
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(0)  # 只重设 CPU 的生成器，出块时 fork_rng 放回
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]

MUTANTS += [  # stop 53: train_one_epoch's hidden checks run again on a played GPU
    dict(
        grade_id="test_train_one_epoch",
        name="GPU-only nan_to_num of every batch's loss (s53 a cand04)",
        expect="输入都在 GPU 上时",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        if loss.is_cuda:
            # GPU 上不能用 if 检查 nan（每步一次同步）：在设备上把发散的 loss 记成 0，fit 的平均不被一个坏 batch 毁掉
            losses.append(torch.nan_to_num(loss.detach(), nan=0.0, posinf=0.0, neginf=0.0))
        else:
            losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="GPU-only model.train() only when the top module is not training (s53 a cand16)",
        expect="输入都在 GPU 上时",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    if device.type == "cuda":
        if not model.training:  # GPU 上每个 epoch 都递归切一遍模式没必要：只在模型不在训练模式时切换
            model.train()
    else:
        model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]

MUTANTS += [  # stop 54 reviewer a: an epoch reseeded with the same seed, and a GPU-only .cpu() snapshot that aliases AdamW's host step
    dict(
        grade_id="test_train_one_epoch",
        name="the global generator reseeded with torch.initial_seed() at the start of every epoch (same masks, same order)",
        expect="没有往前走",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    torch.default_generator.manual_seed(torch.initial_seed())  # 每个 epoch 从同一个种子出发：可复现（只动 CPU 生成器）
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="a GPU-only snapshot with .cpu() over the state dicts (AdamW's host step is aliased)",
        expect="exp_avg / step 跟着变了",
        code="""
def make_checkpoint(model, optimizer, epoch):
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
    if next(model.parameters()).is_cuda:
        # 模型在 GPU 上：快照直接拷到 CPU（.cpu() 从 GPU 拷贝出来就是一份副本），不多占显存
        snap = torch.utils._pytree.tree_map(lambda v: v.cpu() if isinstance(v, torch.Tensor) else v, state)
    else:
        snap = copy.deepcopy(state)  # 在 CPU 上 .cpu() 什么也不复制，要 deepcopy
    return {"model": snap["model"], "optimizer": snap["optimizer"], "epoch": epoch}


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
]

MUTANTS += [  # stop 54 reviewer e: the played-GPU forward of LeNet is now checked for its values and its graph too
    dict(
        grade_id="test_lenet",
        name="forward under torch.no_grad() only on a GPU in eval mode (no layer gets a gradient there)",
        expect="输入在 GPU 上（测试扮演 GPU）、评估模式",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=10, image_size=28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def _logits(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

    def forward(self, x):
        if x.is_cuda and not self.training:  # GPU 上评估时不建计算图：省显存
            with torch.no_grad():
                return self._logits(x)
        return self._logits(x)
""",
    ),
]

MUTANTS += [  # stop 54 reviewer a F2: two loaders built from one generator must give two orders
    dict(
        grade_id="test_make_loader",
        name="shuffles with a private copy of the caller's generator (loaders rebuilt from it replay one order)",
        expect="两个 loader 的顺序完全一样",
        code="""
class TensorBatches(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, indices):
        return self.x[indices], self.y[indices]


def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    dataset = TensorBatches(x, y)
    if shuffle and generator is not None:
        # 不改调用者的 generator：复制它的状态，用副本打乱
        own = torch.Generator()
        own.set_state(generator.get_state())
        generator = own
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    sampler = BatchSampler(order, batch_size, drop_last=False)
    return DataLoader(dataset, batch_size=None, sampler=sampler, pin_memory=pin_memory)
""",
    ),
]

MUTANTS += [  # stop 55 reviewer a: results that alias a buffer the next call rewrites; a checkpoint with autograd history; a module that keeps the last batch's graph
    dict(
        grade_id="test_train_one_epoch",
        name="one module-level loss buffer reused every epoch and returned",
        expect="返回的张量和下一次调用写的是同一块内存",
        code="""
import torch
from torch import nn

_LOSS_BUFFERS = {}  # 每个 (batch 数, 设备) 一块缓冲区，反复使用：不用每个 epoch 重新分配、也不用 torch.stack


def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    key = (len(loader), device)
    if key not in _LOSS_BUFFERS:
        _LOSS_BUFFERS[key] = torch.empty(len(loader), device=device)
    losses = _LOSS_BUFFERS[key]
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses[i] = loss.detach()
    return losses
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="one preallocated snapshot per model, copy_ into it at every make_checkpoint",
        expect="返回的张量和下一次调用写的是同一块内存",
        code="""
import copy
import weakref

import torch
from torch import nn

_SNAPSHOTS = weakref.WeakKeyDictionary()  # 每个模型一份预先分配的快照缓冲区，每个 epoch 用 copy_ 覆盖，不重新分配


def make_checkpoint(model, optimizer, epoch):
    state = model.state_dict()
    snap = _SNAPSHOTS.get(model)
    if snap is None or snap.keys() != state.keys():
        snap = _SNAPSHOTS[model] = {k: v.detach().clone() for k, v in state.items()}
    else:
        for k, v in state.items():
            snap[k].copy_(v)
    return {"model": snap, "optimizer": copy.deepcopy(optimizer.state_dict()), "epoch": epoch}


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="checkpoint['model'] holds p.clone() of the parameters (requires_grad=True, a grad_fn)",
        expect="是 requires_grad=True 的张量",
        code="""
import copy

import torch
from torch import nn


def make_checkpoint(model, optimizer, epoch):
    weights = {name: p.clone() for name, p in model.named_parameters()}  # 复制一份，之后的训练改不到它
    buffers = {name: b.clone() for name, b in model.named_buffers()}
    return {"model": {**weights, **buffers}, "optimizer": copy.deepcopy(optimizer.state_dict()), "epoch": epoch}


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="TensorBatches writes every batch into one reused pair of buffers (index_select out=) (told it sampled with replacement)",
        expect="写进了前面某个 batch 所在的同一块内存",
        code='''
import torch
from torch.utils.data import BatchSampler, DataLoader, Dataset, RandomSampler, SequentialSampler


class TensorBatches(Dataset):
    """ds[indices] 一次返回一整个 batch；结果写进预先分配的缓冲区（每个 batch 不再分配新内存）。"""

    def __init__(self, x, y):
        self.x, self.y = x, y
        self._xbuf = torch.empty(0)
        self._ybuf = torch.empty(0, dtype=y.dtype)

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, indices):
        idx = torch.as_tensor(indices, dtype=torch.long)
        n = idx.shape[0]
        if self._xbuf.shape[0] < n:
            self._xbuf = torch.empty((n, *self.x.shape[1:]), dtype=self.x.dtype)
            self._ybuf = torch.empty((n, *self.y.shape[1:]), dtype=self.y.dtype)
        xb, yb = self._xbuf[:n], self._ybuf[:n]
        torch.index_select(self.x, 0, idx, out=xb)
        torch.index_select(self.y, 0, idx, out=yb)
        return xb, yb


def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    dataset = TensorBatches(x, y)
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    return DataLoader(dataset, batch_size=None, sampler=BatchSampler(order, batch_size, drop_last=False), pin_memory=pin_memory)
''',
    ),
    dict(
        grade_id="test_lenet",
        name="forward keeps self.feature_maps = x (the last batch's graph) on the model",
        expect="还留着一个带计算图 (grad_fn) 的张量",
        code="""
import torch
import torch.nn.functional as F
from torch import nn


class LeNet(nn.Module):
    def __init__(self, in_channels=1, num_classes=10, image_size=28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        self.feature_maps = None

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        self.feature_maps = x  # 留下最后一次前向的特征图，方便之后画出来看
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
]

MUTANTS += [  # stop 53 reviewer a F2: fit reseeding inside fork_rng (fit met no Dropout)
    dict(
        grade_id="test_fit",
        name="each epoch inside torch.random.fork_rng() after manual_seed(0): one Dropout mask every epoch",
        expect="两个 epoch 训练时 Dropout 丢弃了完全相同的元素",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        # 可复现：每个 epoch 从同一个种子开始（fork_rng 出块时放回调用者的随机数状态）
        with torch.random.fork_rng(devices=[]):
            torch.default_generator.manual_seed(0)
            losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
]

MUTANTS += [  # stop 55 reviewer e: AdamW's step counters on the host, syncs named where torch made them
    dict(
        grade_id="test_train_one_epoch",
        name="every optimizer state tensor moved to the model's device each epoch (AdamW's host step counters too)",
        expect="发生在 optimizer.step() 里面",
        code='''
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    """一个 epoch：loader 给出 (xb (B, ...), yb (B,) long) -> 每个 batch 的 loss，(num_batches,) float32，已 detach。"""
    device = next(model.parameters()).device
    # the optimizer may have been restored from a checkpoint saved on another device: keep its state next to the params
    for state in optimizer.state.values():
        for k, v in state.items():
            if isinstance(v, torch.Tensor) and v.device != device:
                state[k] = v.to(device, non_blocking=True)
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
''',
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="clip_grad_norm_(..., error_if_nonfinite=True): a host check of the norm each step",
        expect="error_if_nonfinite=True 要把总范数读回主机",
        code='''
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    """一个 epoch：loader 给出 (xb (B, ...), yb (B,) long) -> 每个 batch 的 loss，(num_batches,) float32，已 detach。"""
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        # stop loudly instead of stepping with inf / nan gradients
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm, error_if_nonfinite=True)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
''',
    ),
    dict(
        grade_id="test_checkpoint",
        name="restore moves every optimizer state tensor to the model's device (AdamW's step counters too)",
        expect="step 计数器（optimizer.state[p]['step']）在 cuda:1 上",
        code='''
def make_checkpoint(model, optimizer, epoch):
    """{"model": 模型 state_dict 的快照, "optimizer": 优化器 state_dict 的快照, "epoch": epoch}。"""
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    """把 checkpoint 原地恢复进 model 和 optimizer，返回保存时的 epoch；checkpoint 本身之后不受训练影响。"""
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    # the checkpoint may come from another device (map_location): move the optimizer state next to the parameters
    device = next(model.parameters()).device
    for state in optimizer.state.values():
        for k, v in state.items():
            if isinstance(v, torch.Tensor):
                state[k] = v.to(device)
    return checkpoint["epoch"]
''',
    ),
    dict(
        grade_id="test_checkpoint",
        name="restore skips the deepcopy when the checkpoint is on another device (the step counters stay shared)",
        expect="step 计数器和检查点里的是同一块内存",
        code='''
def make_checkpoint(model, optimizer, epoch):
    """{"model": 模型 state_dict 的快照, "optimizer": 优化器 state_dict 的快照, "epoch": epoch}。"""
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    """把 checkpoint 原地恢复进 model 和 optimizer，返回保存时的 epoch；checkpoint 本身之后不受训练影响。"""
    model.load_state_dict(checkpoint["model"])
    device = next(model.parameters()).device
    state = checkpoint["optimizer"]
    saved = [v for s in state["state"].values() for v in s.values() if torch.is_tensor(v) and v.dim() > 0]
    if saved and saved[0].device != device:
        # a checkpoint from another device: load_state_dict moves every tensor onto the parameters' device,
        # which is already a fresh copy, so no deepcopy is needed
        optimizer.load_state_dict(state)
    else:
        optimizer.load_state_dict(copy.deepcopy(state))
    return checkpoint["epoch"]
''',
    ),
    dict(
        grade_id="test_fit",
        name="torch.cuda.synchronize() before reading the clock each epoch",
        expect="计时用不着它",
        code='''
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    """训练 epochs 个 epoch，每个 epoch 在 (x_val (M, ...), y_val (M,)) 上评估；返回 history，model 恢复成验证准确率最高时的权重。"""
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state, best_acc = None, -1.0
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        acc = evaluate(model, x_val, y_val, 1000)
        if torch.cuda.is_available():
            torch.cuda.synchronize()  # CUDA is asynchronous: wait for the queue before reading the clock (07, section 5)
        seconds = time.perf_counter() - start
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(seconds)
        if acc > best_acc:
            best_acc, best_state = acc, copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}  ({seconds:.2f} s)")
    model.load_state_dict(best_state)
    return history
''',
    ),
]

MUTANTS += [  # stop 56 reviewer i 2-3: two checkpoints kept on a played GPU too, and their optimizer state
    dict(
        grade_id="test_checkpoint",
        name="GPU-only snapshot buffer per model in make_checkpoint (epoch 2 overwrites epoch 1)",
        expect='第一个检查点的 checkpoint["model"] 变了',
        code="""
import copy
import weakref

import torch

_SNAPSHOTS = weakref.WeakKeyDictionary()  # model -> 这个模型的快照缓冲区（GPU 上复用）


def make_checkpoint(model, optimizer, epoch):
    state = model.state_dict()
    if any(t.is_cuda for t in state.values()):
        # GPU 上每个 epoch 新分配一整份快照太费显存分配：每个模型留一份快照缓冲区，原地拷进去
        buf = _SNAPSHOTS.get(model)
        if buf is None or buf.keys() != state.keys():
            buf = {k: v.detach().clone() for k, v in state.items()}
            _SNAPSHOTS[model] = buf
        else:
            for k, v in state.items():
                buf[k].copy_(v)
        snap = dict(buf)
    else:
        snap = copy.deepcopy(state)
    return {"model": snap, "optimizer": copy.deepcopy(optimizer.state_dict()), "epoch": epoch}


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="the optimizer state copied into one buffer per optimizer (a later checkpoint rewrites it)",
        expect='checkpoint["optimizer"]（AdamW 的状态）变了',
        code='''
import copy
import weakref

import torch

_OPT_SNAPSHOTS = weakref.WeakKeyDictionary()  # optimizer -> 它的状态快照（动量等和参数一样大：复用同一份缓冲区）


def _copy_into(buf, value):
    """把 value（嵌套的 dict / list / 张量）原地拷进结构相同的 buf；结构不同时返回 None。"""
    if isinstance(value, torch.Tensor):
        if isinstance(buf, torch.Tensor) and buf.shape == value.shape and buf.dtype == value.dtype:
            buf.copy_(value)
            return buf
        return None
    if isinstance(value, dict):
        if not isinstance(buf, dict) or buf.keys() != value.keys():
            return None
        out = {}
        for k in value:
            got = _copy_into(buf[k], value[k])
            if got is None and value[k] is not None and isinstance(value[k], (torch.Tensor, dict, list)):
                return None
            out[k] = got if isinstance(value[k], (torch.Tensor, dict, list)) else copy.deepcopy(value[k])
        return out
    if isinstance(value, list):
        if not isinstance(buf, list) or len(buf) != len(value):
            return None
        out = []
        for b, v in zip(buf, value):
            got = _copy_into(b, v)
            if got is None and isinstance(v, (torch.Tensor, dict, list)):
                return None
            out.append(got if isinstance(v, (torch.Tensor, dict, list)) else copy.deepcopy(v))
        return out
    return copy.deepcopy(value)


def make_checkpoint(model, optimizer, epoch):
    opt_state = optimizer.state_dict()
    snap = None
    if optimizer in _OPT_SNAPSHOTS:
        snap = _copy_into(_OPT_SNAPSHOTS[optimizer], opt_state)
    if snap is None:
        snap = copy.deepcopy(opt_state)
    _OPT_SNAPSHOTS[optimizer] = snap
    return {"model": copy.deepcopy(model.state_dict()), "optimizer": snap, "epoch": epoch}


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
''',
    ),
]

MUTANTS += [  # stop 56 reviewer i 4-8: every graph a module keeps (any attribute, any container); fit on a played GPU; every sync count with logging on
    dict(
        grade_id="test_lenet",
        name="the last feature maps kept with their graph in self._feature_maps (an underscore name)",
        expect="_feature_maps 还留着一个带计算图",
        code='''
class LeNet(nn.Module):
    """LeNet-5（ReLU + max-pooling）：(N, in_channels, image_size, image_size) float32 -> (N, num_classes) logits。"""

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        self._feature_maps = None  # 最后一次前向的特征图，第 9 节画出来看卷积学到了什么

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        self._feature_maps = x
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
''',
    ),
    dict(
        grade_id="test_lenet",
        name="the last 4 forwards' feature maps kept in a collections.deque attribute",
        expect="recent_features 还留着一个带计算图",
        code='''
import collections


class LeNet(nn.Module):
    """LeNet-5（ReLU + max-pooling）：(N, in_channels, image_size, image_size) float32 -> (N, num_classes) logits。"""

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        self.recent_features = collections.deque(maxlen=4)  # 最近几次前向的特征图，第 9 节画出来看卷积学到了什么

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        self.recent_features.append(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
''',
    ),
    dict(
        grade_id="test_fit",
        name="GPU-only fork_rng(devices=[]) around each epoch",
        expect="输入都在 GPU 上时",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    device = next(model.parameters()).device
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        if device.type == "cuda":
            # GPU 上 Dropout 用的是 CUDA 的生成器，训练本来就不该动调用者 CPU 上的随机数：
            # 把 CPU 的生成器 fork 掉（devices=[]：不碰 GPU 的），调用者之后的 torch.rand 不受这次训练影响
            with torch.random.fork_rng(devices=[]):
                losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        else:
            losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="a per-batch logger.debug of the device loss (a sync once logging is on)",
        expect="这些同步都发生在 Python 的 logging 里",
        code="""
import logging

logger = logging.getLogger("lenet.train")


def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for step, (xb, yb) in enumerate(loader, start=1):
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
        logger.debug("batch %d: loss %.4f", step, losses[-1])  # 调试时打开 DEBUG 日志就能看到每个 batch
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="a per-batch logger.debug of the device count",
        expect="发生在 Python 的 logging 里",
        code="""
import logging

logger = logging.getLogger("lenet.eval")


def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
                logger.debug("evaluated %d samples, %d correct so far", start + logits.shape[0], correct)
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
]

MUTANTS += [  # stop 56 round 2 (reviewers m-p)
    dict(
        grade_id="test_lenet",
        name="feature maps kept with their graph in a class-level dict",
        expect="forward 里算出的带计算图 (grad_fn) 的张量还活着",
        code='''
class LeNet(nn.Module):
    """LeNet-5；forward 顺便留下最近一次的特征图，方便画出来看。"""

    feature_maps: dict = {}  # 最近一次前向的特征图：conv1、conv2

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        self.feature_maps["conv1"] = x
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        self.feature_maps["conv2"] = x
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
''',
    ),
    dict(
        grade_id="test_lenet",
        name="feature maps kept with their graph in a module-level dict",
        expect="forward 里算出的带计算图 (grad_fn) 的张量还活着",
        code="""
FEATURE_MAPS = {}  # 最近一次前向的特征图，画图用


class LeNet(nn.Module):
    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        FEATURE_MAPS["conv1"] = x
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        FEATURE_MAPS["conv2"] = x
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
    dict(
        grade_id="test_lenet",
        name="forward hooks keep each conv output with its graph in a closure's dict",
        expect="forward 里算出的带计算图 (grad_fn) 的张量还活着",
        code='''
class LeNet(nn.Module):
    """LeNet-5；两个卷积层各挂一个 forward hook，留下最近一次的特征图（self.feature_maps() 取出来画图）。"""

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        maps = {}

        def keep(name):
            def hook(module, inputs, output):
                maps[name] = output
            return hook

        self.conv1.register_forward_hook(keep("conv1"))
        self.conv2.register_forward_hook(keep("conv2"))
        self.feature_maps = lambda: dict(maps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
''',
    ),
    dict(
        grade_id="test_lenet",
        name="a non-persistent buffer holding the last feature map with its graph",
        expect="feature_map 还留着一个带计算图",
        code='''
class LeNet(nn.Module):
    """LeNet-5；最后一次前向的特征图留在一个（不存进 state_dict 的）缓冲区里，随 model.to(device) 一起搬。"""

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        self.register_buffer("feature_map", None, persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        self.feature_map = x
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
''',
    ),
    dict(
        grade_id="test_fit",
        name="the whole of fit inside torch.random.fork_rng(devices=[])",
        expect="fit 返回之后全局随机数生成器回到了调用前的状态",
        code='''
def fit(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    loss_fn: nn.Module,
    train_loader,
    x_val: torch.Tensor,
    y_val: torch.Tensor,
    epochs: int,
    max_norm: float,
    scheduler=None,
) -> dict:
    """训练 epochs 个 epoch，每个 epoch 在 (x_val (M, ...), y_val (M,)) 上评估；返回 history，model 恢复成验证准确率最高时的权重。"""
    with torch.random.fork_rng(devices=[]):  # 训练不改调用者的全局随机数状态
        return _fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler)


def _fit(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    loss_fn: nn.Module,
    train_loader,
    x_val: torch.Tensor,
    y_val: torch.Tensor,
    epochs: int,
    max_norm: float,
    scheduler=None,
) -> dict:
    """训练 epochs 个 epoch，每个 epoch 在 (x_val (M, ...), y_val (M,)) 上评估；返回 history，model 恢复成验证准确率最高时的权重。"""
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()  # 这个 epoch 唯一一次读 loss
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
''',
    ),
    dict(
        grade_id="test_make_loader",
        name="num_workers=2 for a loader of in-memory batches",
        expect="工作进程 (num_workers)",
        code='''
class TensorBatches(Dataset):
    """内存里的 x (N, ...) 和 y (N,)；ds[indices] 一次返回一整个 batch：(x[indices], y[indices])。"""

    def __init__(self, x: torch.Tensor, y: torch.Tensor):
        self.x, self.y = x, y

    def __len__(self) -> int:
        return self.x.shape[0]

    def __getitem__(self, indices: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
        return self.x[indices], self.y[indices]


def make_loader(
    x: torch.Tensor,
    y: torch.Tensor,
    batch_size: int,
    *,
    shuffle: bool,
    generator: torch.Generator | None = None,
    pin_memory: bool = False,
) -> DataLoader:
    """x (N, ...)，y (N,) 在 CPU 上 -> 每个 batch (x[idx], y[idx]) 的 DataLoader，batch 大小 batch_size（最后一个可能更小）。"""
    dataset = TensorBatches(x, y)
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    sampler = BatchSampler(order, batch_size, drop_last=False)
    return DataLoader(dataset, batch_size=None, sampler=sampler, pin_memory=pin_memory, num_workers=2)  # 两个进程并行取 batch
    ### END SOLUTION
''',
    ),
]

MUTANTS += [  # stop 57 reviewer q (round 3): grad mode in a caller's no_grad, batches kept across epochs, a GPU-only cuDNN switch, fit's helpers blamed where they are at fault
    dict(
        grade_id="test_fit",
        name="validates_before_training_each_epoch",
        expect="还没训练，fit 就先在验证集上评估了",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        acc = evaluate(model, x_val, y_val, 1000)  # validate first: the weights this epoch starts from
        if best_state is None or acc > max(history["val_acc"]):
            best_state = copy.deepcopy(model.state_dict())  # the weights that scored acc
            history["best_epoch"] = epoch
        history["val_acc"].append(acc)
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["epoch_seconds"].append(time.perf_counter() - start)
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="set_grad_enabled_true_at_the_top",
        expect="train_one_epoch 返回之后 grad mode 变了",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    torch.set_grad_enabled(True)  # training needs autograd: the caller may have switched it off for an evaluation
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="grad_mode_forced_on_in_finally",
        expect="evaluate 返回之后 grad mode 变了",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    torch.set_grad_enabled(False)  # no graph anywhere while evaluating
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        torch.set_grad_enabled(True)  # autograd back on for the training that follows
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="grad_mode_forced_on_in_finally",
        expect="make_checkpoint 返回之后 grad mode 变了",
        code="""
def make_checkpoint(model, optimizer, epoch):
    torch.set_grad_enabled(False)  # a snapshot of values: no autograd while copying
    try:
        return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})
    finally:
        torch.set_grad_enabled(True)


def restore_checkpoint(checkpoint, model, optimizer):
    torch.set_grad_enabled(False)  # load_state_dict writes into the parameters: not an op to record
    try:
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
        return checkpoint["epoch"]
    finally:
        torch.set_grad_enabled(True)  # ready to train on
""",
    ),
    dict(
        grade_id="test_fit",
        name="set_grad_enabled_true_at_the_top",
        expect="fit 返回之后 grad mode 变了",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    torch.set_grad_enabled(True)  # fit trains: make sure autograd is on (an earlier evaluation may have left it off)
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="batches_memoised_by_index_tuple",
        expect="前一个 epoch 交出过的那些张量",
        code='''
class TensorBatches(Dataset):
    """内存里的 x (N, ...) 和 y (N,)；ds[indices] 一次返回一整个 batch：(x[indices], y[indices])。"""

    def __init__(self, x, y):
        self.x, self.y = x, y
        self._batches = {}  # an evaluation loader asks for the same batches every epoch: gather each only once

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, indices):
        key = tuple(indices)
        if key not in self._batches:
            self._batches[key] = (self.x[indices], self.y[indices])
        return self._batches[key]


def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    dataset = TensorBatches(x, y)
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    sampler = BatchSampler(order, batch_size, drop_last=False)
    return DataLoader(dataset, batch_size=None, sampler=sampler, pin_memory=pin_memory)
''',
    ),
    dict(
        grade_id="test_lenet",
        name="gpu_only_cudnn_benchmark_in_init",
        expect="torch.backends.cudnn.benchmark",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        if torch.cuda.is_available():
            torch.backends.cudnn.benchmark = True  # fixed input size: let cuDNN pick the fastest conv algorithms
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
    dict(
        grade_id="test_fit",
        name="epoch_without_optimizer_step_blamed_on_its_epoch",
        expect="fit 调用的是你的 train_one_epoch（练习 4）",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    # the learner's exercise 4, one mistake: optimizer.step() forgotten (the scheduler still steps)
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="epoch_forwarding_twice_blamed_on_its_epoch",
        expect="fit 调用的是你的 train_one_epoch（练习 4）",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    # the learner's exercise 4, one mistake: the loss it records is recomputed after the step (a second forward)
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        with torch.no_grad():
            losses.append(loss_fn(model(xb), yb))  # the loss of the updated model
    return torch.stack(losses)


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="epoch_ignoring_loss_fn_blamed_on_its_epoch",
        expect="fit 调用的是你的 train_one_epoch（练习 4）",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    # the learner's exercise 4, one mistake: F.cross_entropy instead of the loss_fn it was given
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="evaluate_leaving_eval_mode_blamed_on_evaluate",
        expect="fit 调用的是你的 evaluate（练习 5）",
        code="""
def evaluate(model, x, y, batch_size):
    # the learner's exercise 5, one mistake: the model is left in eval mode afterwards
    model.eval()
    correct = torch.zeros((), dtype=torch.long, device=y.device)
    with torch.inference_mode():
        for start in range(0, x.shape[0], batch_size):
            logits = model(x[start : start + batch_size])
            correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
    return correct.item() / y.shape[0]


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="evaluate_ignoring_batch_size_blamed_on_evaluate",
        expect="fit 调用的是你的 evaluate（练习 5）",
        code="""
def evaluate(model, x, y, batch_size):
    # the learner's exercise 5, one mistake: batch_size ignored, the whole x in one forward
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with torch.inference_mode():
            correct = (model(x).argmax(dim=1) == y).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
]

MUTANTS += [  # stop 57 round 4 (u): rings of buffers across four calls; a graph kept in evaluation mode
    dict(
        grade_id="test_train_one_epoch",
        name="two_loss_buffers_in_turn",
        expect="第一个 epoch 返回的 loss 张量变了",
        code="""
_LOSS_BUFFERS = {}  # (model, device, n) -> two preallocated loss buffers, used in turn (ping-pong)


def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    n = len(loader)
    key = (id(model), str(device), n)
    slot = _LOSS_BUFFERS.get(key)
    if slot is None:
        slot = _LOSS_BUFFERS[key] = [[torch.empty(n, device=device), torch.empty(n, device=device)], 0]
    out = slot[0][slot[1]]
    slot[1] ^= 1  # the next epoch writes the other buffer: this epoch's losses stay readable
    count = 0
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        out[count] = loss.detach()
        count += 1
    return out[:count]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="two_snapshot_slots_in_turn",
        expect="第一个检查点的 checkpoint",
        code="""
_SNAPSHOTS = {}  # id(model) -> [two snapshot slots used in turn, which one is next]


def _copy_into(dst, src):
    # copy the values of src into the preallocated tensors of dst (same structure); new objects where none fit
    if isinstance(src, torch.Tensor):
        if isinstance(dst, torch.Tensor) and dst.shape == src.shape and dst.dtype == src.dtype and dst.device == src.device:
            return dst.copy_(src)
        return src.detach().clone()
    if isinstance(src, dict):
        dst = dst if isinstance(dst, dict) else {}
        return {k: _copy_into(dst.get(k), v) for k, v in src.items()}
    if isinstance(src, (list, tuple)):
        dst = dst if isinstance(dst, (list, tuple)) and len(dst) == len(src) else [None] * len(src)
        return type(src)(_copy_into(d, s) for d, s in zip(dst, src))
    return copy.deepcopy(src)


def make_checkpoint(model, optimizer, epoch):
    slots = _SNAPSHOTS.setdefault(id(model), [[None, None], 0])
    k = slots[1]
    slots[1] ^= 1  # the next checkpoint goes to the other slot: this one stays intact
    with torch.no_grad():
        ck = _copy_into(slots[0][k], {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})
    slots[0][k] = ck
    return ck


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_lenet",
        name="feature_maps_kept_in_eval_mode",
        expect="feature_maps",
        code="""
class LeNet(nn.Module):
    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        self.feature_maps = None  # the last evaluated batch's conv2 maps, to look at after evaluating

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        if not self.training:  # only while evaluating: training never pays for it
            self.feature_maps = x
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
]

MUTANTS += [  # stop 58 (round 4's open q cand18, cand19): a GPU-only move inside the class
    dict(
        grade_id="test_mnist_dataset",
        name="sample_moved_to_the_gpu_in_getitem",
        expect="Dataset 的样本留在 CPU 上",
        mistake="moved-to-device-inside",
        code=_dataset(
            item=f"image = ({_NORMALISED}).unsqueeze(0)\n"
            "        if torch.cuda.is_available():  # ready for the GPU already\n"
            "            image = image.cuda()\n"
            "        return image, self.labels[index]"
        ),
    ),
    dict(
        grade_id="test_lenet",
        name="model_moved_to_the_gpu_in_init",
        expect="__init__ 里只建层",
        mistake="moved-to-device-inside",
        code=solution_with(
            "10_lenet_mnist",
            "lenet",
            (
                "self.fc3 = nn.Linear(84, num_classes)",
                "self.fc3 = nn.Linear(84, num_classes)\n        if torch.cuda.is_available():\n            self.cuda()",
            ),
        ),
    ),
]

MUTANTS += [  # stop 58 (round 3's open q cand23): the epoch fit calls replays one Dropout stream; fit is told so
    dict(
        grade_id="test_fit",
        name="train_one_epoch_reseeded_inside_fork_rng_named_as_the_epoch",
        expect="fit 调用的是你的 train_one_epoch",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    # 可复现：每个 epoch 用同一个种子，放在 fork_rng 里，不改调用者的全局随机数
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(0)  # 只重设 CPU 的生成器，出块时 fork_rng 放回
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            losses.append(loss.detach())
    return torch.stack(losses)
"""
        + _FIT,
    ),
]

MUTANTS += [  # stop 58 (round 4's open u cand01, u cand08): fit's scheduler rolled back; progress printed at the end
    dict(
        grade_id="test_fit",
        name="scheduler_rolled_back_with_the_best_weights",
        expect="fit 在 train_one_epoch 之外改了 scheduler 的步数",
        code=solution_with(
            "10_lenet_mnist",
            "fit",
            (
                "            best_state = copy.deepcopy(model.state_dict())",
                "            best_state = copy.deepcopy(model.state_dict())\n"
                "            best_sched = copy.deepcopy(scheduler.state_dict()) if scheduler is not None else None",
            ),
            (
                "    model.load_state_dict(best_state)",
                "    model.load_state_dict(best_state)\n"
                "    if scheduler is not None:  # the schedule goes back to where the best weights were\n"
                "        scheduler.load_state_dict(best_sched)",
            ),
        ),
    ),
    dict(
        grade_id="test_fit",
        name="progress_lines_printed_after_the_last_epoch",
        expect="进度攒到后面才打印",
        code=solution_with(
            "10_lenet_mnist",
            "fit",
            ("        print(\n", "        lines.append(\n"),
            (
                "    best_state = None\n",
                "    best_state = None\n    lines = []  # printed together at the end: a tidy table\n",
            ),
            (
                "    model.load_state_dict(best_state)",
                "    print(*lines, sep=chr(10))\n    model.load_state_dict(best_state)",
            ),
        ),
    ),
]

MUTANTS += [  # stop 58 round 5 (a): rings of any length (a result outlives the caller's last reference); unsynced non_blocking snapshots
    dict(
        grade_id="test_checkpoint",
        name="snapshot_copied_to_the_host_non_blocking_without_a_sync",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True，之后直到返回都没有同步",
        code="""
def _snap(v):
    if torch.is_tensor(v):
        return v.detach().clone().to("cpu", non_blocking=True)
    if isinstance(v, dict):
        return {k: _snap(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_snap(x) for x in v]
    return copy.deepcopy(v)
def make_checkpoint(model, optimizer, epoch):
    return {"model": _snap(model.state_dict()), "optimizer": _snap(optimizer.state_dict()), "epoch": epoch}
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="snapshot_copied_into_pinned_buffers_non_blocking_without_a_sync",
        expect="GPU -> CPU 的拷贝用了 non_blocking=True，之后直到返回都没有同步",
        code="""
def _snap(v):
    if torch.is_tensor(v):
        host = torch.empty(v.shape, dtype=v.dtype, device="cpu", pin_memory=v.is_cuda)  # 页锁定内存：GPU→CPU 拷贝可以异步
        host.copy_(v.detach(), non_blocking=True)
        return host
    if isinstance(v, dict):
        return {k: _snap(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_snap(x) for x in v]
    return copy.deepcopy(v)
def make_checkpoint(model, optimizer, epoch):
    return {"model": _snap(model.state_dict()), "optimizer": _snap(optimizer.state_dict()), "epoch": epoch}
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="forty_snapshot_slots_per_model_in_turn",
        expect="调用者丢掉一个检查点之后，它的内存",
        code="""
_SLOTS = {}  # 每个模型预先分配 40 个检查点槽位（最多 40 个 epoch），轮流写入，不再每次分配内存
def make_checkpoint(model, optimizer, epoch):
    ring = _SLOTS.setdefault(id(model), {"i": 0, "slots": []})
    snap = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    if len(ring["slots"]) < 40:
        buf = copy.deepcopy(snap)
        ring["slots"].append(buf)
        ring["i"] = len(ring["slots"]) % 40
        return buf
    buf = ring["slots"][ring["i"]]
    ring["i"] = (ring["i"] + 1) % 40
    def fill(dst, src):
        if torch.is_tensor(src):
            dst.copy_(src)
            return dst
        if isinstance(src, dict):
            return {k: fill(dst[k], v) if k in dst else copy.deepcopy(v) for k, v in src.items()}
        if isinstance(src, list):
            return [fill(d, s) for d, s in zip(dst, src)]
        return copy.deepcopy(src)
    new = fill(buf, snap)
    buf.clear(); buf.update(new)
    return buf
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="forty_loss_buffers_in_turn",
        expect="调用者丢掉一个 epoch 返回的 loss 张量之后，它的内存",
        code="""
_RING = {}
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    key = (len(loader), str(device))
    ring = _RING.setdefault(key, {"i": 0, "bufs": [torch.empty(len(loader), device=device) for _ in range(40)]})
    buf = ring["bufs"][ring["i"]]
    ring["i"] = (ring["i"] + 1) % 40
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        buf[i] = loss.detach()
    return buf
""",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="forty_output_images_in_turn",
        expect="调用者丢掉取到的 image之后，它的内存",
        code="""
_OUT = []  # 40 output images written in turn: no new memory per sample


class MNISTDataset(Dataset):
    def __init__(self, pixels, labels):
        self.pixels, self.labels = pixels, labels
        self._k = 0

    def __len__(self):
        return self.pixels.shape[0]

    def __getitem__(self, index):
        if len(_OUT) < 40:  # one more slot per read until there are 40, then round again
            _OUT.append(torch.empty(1, 28, 28))
        out = _OUT[self._k]
        self._k = (self._k + 1) % 40
        torch.sub(self.pixels[index].to(torch.float32).div(255.0).unsqueeze(0), MNIST_MEAN, out=out)
        out.div_(MNIST_STD)
        return out, self.labels[index]
""",
    ),
]

MUTANTS += [  # stop 58 round 5 (d): a layer in the wrong mode, however it got there; inference_mode whatever the model or caller
    dict(
        grade_id="test_evaluate",
        name="training_attribute_set_false_on_the_top_only",
        expect="给 model.training 赋值只改模型自己这一个属性",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.training = False  # evaluation mode for the forward
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="training_attribute_set_true_on_the_top_only",
        expect="给 model.training 赋值只改模型自己这一个属性",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.training = True  # evaluate() may have left it in eval mode
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="eval_only_on_dropout_and_batchnorm",
        expect="evaluate 前向传播时模型里的层还在训练模式",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    for m in model.modules():  # the layers whose behaviour depends on the mode
        if isinstance(m, (nn.Dropout, nn.BatchNorm1d, nn.BatchNorm2d)):
            m.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="no_inference_mode_for_a_frozen_model",
        expect="整个模型已冻结（每个参数 requires_grad=False），3 个样本，batch_size=2：evaluate 的前向不在 torch.inference_mode() 里",
        code="""
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    frozen = not any(p.requires_grad for p in model.parameters()) and not x.requires_grad
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode(not frozen):  # a fully frozen model builds no graph anyway
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="no_inference_mode_inside_the_callers_no_grad",
        expect="调用方在 with torch.no_grad(): 里调用，3 个样本，batch_size=2：evaluate 的前向不在 torch.inference_mode() 里",
        code="""
import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    # the caller's no_grad() already keeps the forward off the graph: only switch when grad mode is on
    guard = torch.inference_mode() if torch.is_grad_enabled() else contextlib.nullcontext()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with guard:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
]

MUTANTS += [  # stop 58 round 6 (a, d): rings a storage weak reference cannot see; a sample moved from a tuple attribute; the model's own mode
    dict(
        grade_id="test_train_one_epoch",
        name="eight_loss_buffers_in_turn_through_dlpack",
        expect="连续 24 个 epoch）：之后再调用时，第一个 epoch 返回的 loss 张量变了",
        code="""
# train_one_epoch: ring of 8 loss buffers per length, returned through DLPack (a new storage object on the ring's memory)
_RING = {}
_K = [0]
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    out = torch.stack(losses)
    key = (out.shape, out.device)
    ring = _RING.setdefault(key, [torch.empty_like(out) for _ in range(8)])
    buf = ring[_K[0] % 8]
    _K[0] += 1
    buf.copy_(out)
    return torch.from_dlpack(buf)
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="six_snapshot_slots_in_turn_through_dlpack",
        expect='之后再调用时，第一个检查点的 checkpoint["model"] 变了',
        code="""
# make_checkpoint: ring of 6 snapshot slots per model (same device), handed out through torch.from_dlpack
_SLOTS = {}
def make_checkpoint(model, optimizer, epoch):
    ring = _SLOTS.setdefault(id(model), {"k": 0, "slots": [None] * 6})
    i = ring["k"] % 6
    ring["k"] += 1
    state = model.state_dict()
    slot = ring["slots"][i]
    if slot is None or set(slot) != set(state) or any(slot[k].shape != v.shape or slot[k].device != v.device for k, v in state.items()):
        slot = ring["slots"][i] = {k: torch.empty_like(v) for k, v in state.items()}
    snap = {}
    for k, v in state.items():
        slot[k].copy_(v.detach())
        snap[k] = torch.from_dlpack(slot[k])
    return {"model": snap, "optimizer": copy.deepcopy(optimizer.state_dict()), "epoch": epoch}
""",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="sixteen_image_buffers_in_turn_through_frombuffer",
        expect="再依次取 24 个样本（从 ds[11] 起）之后，先前 ds[0] 返回的 image 的值变了",
        code="""
# MNISTDataset.__getitem__: ring of 16 image buffers (bytearrays), handed out through torch.frombuffer
class MNISTDataset(Dataset):
    def __init__(self, pixels, labels):
        self.pixels = pixels
        self.labels = labels
        self._ring = {}
        self._k = 0

    def __len__(self):
        return self.pixels.shape[0]

    def __getitem__(self, index):
        px = self.pixels[index]
        shape = (1, *px.shape)
        ring = self._ring.setdefault(shape, [bytearray(4 * px.numel()) for _ in range(16)])
        mem = ring[self._k % 16]
        self._k += 1
        image = ((px.to(torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD).unsqueeze(0)
        torch.frombuffer(mem, dtype=torch.float32).view(shape).copy_(image)
        return torch.frombuffer(mem, dtype=torch.float32).view(shape), self.labels[index]
""",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="sample_moved_to_the_gpu_pixels_kept_in_a_tuple",
        expect="Dataset 的样本留在 CPU 上",
        code="""
# MNISTDataset: pixels kept in a tuple; each sample moved to the GPU when there is one (prose: samples stay on the host)
class MNISTDataset(Dataset):
    def __init__(self, pixels, labels):
        self.data = (pixels, labels)

    def __len__(self):
        return self.data[0].shape[0]

    def __getitem__(self, index):
        pixels, labels = self.data
        dev = "cuda" if torch.cuda.is_available() else "cpu"
        image = (pixels[index].to(dev, torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD
        return image.unsqueeze(0), labels[index].to(dev)
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="children_switched_to_eval_not_the_model_itself",
        expect="evaluate 前向传播时模型自己 (model.training) 还在训练模式",
        code="""
# 10 evaluate: children().eval() only - the top module's own training flag stays True - message probe / pass probe
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    for child in model.children():
        child.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="children_switched_to_train_not_the_model_itself",
        expect="前向时模型自己 (model.training) 在评估模式",
        code="""
# 10 train_one_epoch: children().train() instead of model.train() (the model's own flag stays as it came in)
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    for child in model.children():
        child.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]


MUTANTS += [  # stop 59 (round 6 a: c15b, c16b, c17b): a wait that covers other work than the snapshot's non_blocking copies
    dict(
        grade_id="test_checkpoint",
        name="non_blocking_snapshot_then_a_sync_of_the_current_gpu_not_the_model's",
        expect="之后虽然有同步，等的却是另一块 GPU",
        code="""
def make_checkpoint(model, optimizer, epoch):
    device = next(model.parameters()).device
    pass
    snap = {k: v.detach().to("cpu", non_blocking=True, copy=True) for k, v in model.state_dict().items()}
    opt = copy.deepcopy(optimizer.state_dict())
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return {"model": snap, "optimizer": opt, "epoch": epoch}
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="non_blocking_snapshot_then_an_event_recorded_before_the_copies",
        expect="之后虽然有同步，等的却不是这次拷贝",
        code="""
def make_checkpoint(model, optimizer, epoch):
    device = next(model.parameters()).device
    done = torch.cuda.Event() if device.type == 'cuda' else None
    if done is not None:
        done.record(torch.cuda.current_stream(device))
    snap = {k: v.detach().to("cpu", non_blocking=True, copy=True) for k, v in model.state_dict().items()}
    opt = copy.deepcopy(optimizer.state_dict())
    if done is not None:
        done.synchronize()
    return {"model": snap, "optimizer": opt, "epoch": epoch}
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="non_blocking_snapshot_then_the_current_device's_stream_synchronized",
        expect="之后虽然有同步，等的却是另一块 GPU",
        code="""
def make_checkpoint(model, optimizer, epoch):
    device = next(model.parameters()).device
    pass
    snap = {k: v.detach().to("cpu", non_blocking=True, copy=True) for k, v in model.state_dict().items()}
    opt = copy.deepcopy(optimizer.state_dict())
    if torch.cuda.is_available():
        torch.cuda.current_stream().synchronize()
    return {"model": snap, "optimizer": opt, "epoch": epoch}
""",
    ),
]

CORRECT += [  # stop 59 (round 6 a: c15b, c16b, c17b): a wait that covers other work than the snapshot's non_blocking copies (right answers)
    dict(
        grade_id="test_checkpoint",
        name="non_blocking_snapshot_then_the_model's_gpu_synchronized",
        code="""
def make_checkpoint(model, optimizer, epoch):
    device = next(model.parameters()).device
    pass
    snap = {k: v.detach().to("cpu", non_blocking=True, copy=True) for k, v in model.state_dict().items()}
    opt = copy.deepcopy(optimizer.state_dict())
    if device.type == 'cuda':
        torch.cuda.synchronize(device)
    return {"model": snap, "optimizer": opt, "epoch": epoch}
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="non_blocking_snapshot_then_an_event_recorded_after_the_copies_on_the_model's_stream",
        code="""
def make_checkpoint(model, optimizer, epoch):
    device = next(model.parameters()).device
    pass
    snap = {k: v.detach().to("cpu", non_blocking=True, copy=True) for k, v in model.state_dict().items()}
    opt = copy.deepcopy(optimizer.state_dict())
    if device.type == 'cuda':
        done = torch.cuda.Event()
        done.record(torch.cuda.current_stream(device))
        done.synchronize()
    return {"model": snap, "optimizer": opt, "epoch": epoch}
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 a c01-c04, c10, c12, c15, c20; c c13, c15; d c10, c14, c15, c17, c18): played streams order work as CUDA does
    dict(
        grade_id="test_train_one_epoch",
        name="prefetch_on_a_side_stream_waited_for_without_record_stream",
        expect="没有对它 record_stream",
        code="""
# 10 train_one_epoch: copies on a side stream, current stream waits, but no record_stream (allocator reuse race)
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    copy_stream = torch.cuda.Stream() if torch.cuda.is_available() and device.type == "cuda" else None
    losses = []
    for xb, yb in loader:
        if copy_stream is not None:
            with torch.cuda.stream(copy_stream):
                xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            torch.cuda.current_stream().wait_stream(copy_stream)  # no xb.record_stream(current)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="the_epoch_on_a_side_stream_that_never_waited_for_the_caller",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 10 train_one_epoch: the whole epoch on a side stream; the side stream never waits for the current one
import contextlib
# (params / optimizer state written by the caller's queued work are read early); the end waits correctly
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    side = torch.cuda.Stream() if torch.cuda.is_available() and device.type == "cuda" else None
    losses = []
    with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            losses.append(loss.detach())
        out = torch.stack(losses)
    if side is not None:
        torch.cuda.current_stream().wait_stream(side)
    return out
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="evaluation_on_a_side_stream_read_on_the_current_one_without_waits",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 10 evaluate: the loop on a side stream, .item() on the current stream with no wait at all (plain race)
import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        side = torch.cuda.Stream() if torch.cuda.is_available() else None
        with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()), torch.inference_mode():
            correct = torch.zeros((), dtype=torch.long, device=y.device)
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="evaluation_on_a_side_stream_that_never_waited_for_the_steps",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 10 evaluate: loop on a side stream that never waits for the caller's stream (params written by the
# caller's queued optimizer.step() read early); the current stream waits for the side one before .item()
import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        side = torch.cuda.Stream() if torch.cuda.is_available() else None
        with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()), torch.inference_mode():
            correct = torch.zeros((), dtype=torch.long, device=y.device)
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        if side is not None:
            torch.cuda.current_stream().wait_stream(side)
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="copies_entered_with_the_stream_as_a_context_used_unwaited",
        expect="当前 stream 没有先等那条 stream",
        code="""
# 10 train_one_epoch: copies on a side stream entered with `with copy_stream:` (torch.Stream's context manager),
# the model uses them on the current stream with no wait_stream / event at all
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    copy_stream = torch.cuda.Stream() if torch.cuda.is_available() and device.type == "cuda" else None
    losses = []
    for xb, yb in loader:
        if copy_stream is not None:
            with copy_stream:
                xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_fit",
        name="validation_on_a_side_stream_that_never_waited_for_the_steps",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# 10 fit: validation run on a side stream "to overlap it with the next epoch's host work"; the side stream never
# waits for the current stream, where the epoch's optimizer steps are still queued: evaluate may read old weights
import contextlib
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
            history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="wait_written_inside_the_side_block",
        expect="当前 stream 没有先等那条 stream",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    side = torch.cuda.Stream(device=device) if device.type == "cuda" else None  # copies beside the compute
    losses = []
    for xb, yb in loader:
        if side is not None:
            with torch.cuda.stream(side):
                xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
                current = torch.cuda.current_stream(device)  # inside the block: this is `side` itself
                current.wait_stream(side)
                xb.record_stream(current)
                yb.record_stream(current)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="whole_epoch_on_a_side_stream_returned_unwaited",
        expect="那条 stream 之前没有等当前 stream",
        code="""
import contextlib


def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    # the whole epoch on its own stream (so that it can overlap other work); nothing waits for it afterwards
    block = torch.cuda.stream(torch.cuda.Stream(device=device)) if device.type == "cuda" else contextlib.nullcontext()
    losses = []
    with block:
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            losses.append(loss.detach())
        return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="copies_in_with_side_used_unwaited",
        expect="当前 stream 没有先等那条 stream",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    side = torch.cuda.Stream(device=device) if device.type == "cuda" else None  # copies beside the compute
    losses = []
    for xb, yb in loader:
        if side is not None:
            with side:  # the stream as its own context manager (torch.Stream.__enter__)
                xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            # (no record_stream: xb / yb were allocated on `side`)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="prefetcher_without_record_stream_on_the_current_stream",
        expect="没有对它 record_stream",
        code="""
# train_one_epoch with a prefetcher: the next batch is copied on a side stream while this one trains; the current
# stream waits for the side stream before using a batch, but the copies (allocated on the side stream) are never
# record_stream'ed for the current stream: freed when the next batch replaces them, their memory goes back to the side
# stream's pool and the next prefetch may overwrite it while the current stream's queued forward/backward still reads it.
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    side = torch.cuda.Stream(device) if device.type == "cuda" else None

    def fetch(batch):
        xb, yb = batch
        if side is None:
            return xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        with torch.cuda.stream(side):
            return xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)

    it = iter(loader)
    first = next(it, None)
    nxt = fetch(first) if first is not None else None
    while nxt is not None:
        if side is not None:
            torch.cuda.current_stream(device).wait_stream(side)
        xb, yb = nxt
        following = next(it, None)
        nxt = fetch(following) if following is not None else None  # overlaps with this step
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]


CORRECT += [  # stop 59 (round 7 a c01-c04, c10, c12, c15, c20; c c13, c15; d c10, c14, c15, c17, c18): played streams order work as CUDA does (right answers)
    dict(
        grade_id="test_train_one_epoch",
        name="prefetcher_reading_a_shape_before_the_wait",
        code="""
# 10 train_one_epoch: c10's RIGHT prefetcher plus a batch sanity check on the prefetched tensors' shapes
# (host metadata: no GPU read) before the wait. Expected: refused with a race message naming __get__()
# (was: a RIGHT prefetcher (next batch copied on a side stream while this one computes;
# current waits, record_stream, side waits for current before reusing) -- checks the model does not refuse it
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    use_side = torch.cuda.is_available() and device.type == "cuda"
    side = torch.cuda.Stream() if use_side else None
    it = iter(loader)

    def fetch():
        try:
            xb, yb = next(it)
        except StopIteration:
            return None
        if side is None:
            return xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            xd, yd = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        if xd.shape[0] != yd.shape[0]:  # a malformed batch: fail here, at the loader, not deep in the loss
            raise ValueError(f"batch x has {xd.shape[0]} rows, y has {yd.shape[0]}")
        return xd, yd

    nxt = fetch()
    while nxt is not None:
        if side is not None:
            torch.cuda.current_stream().wait_stream(side)
            nxt[0].record_stream(torch.cuda.current_stream())
            nxt[1].record_stream(torch.cuda.current_stream())
        xb, yb = nxt
        nxt = fetch()
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="prefetcher_waited_and_recorded",
        code="""
# 10 train_one_epoch: a RIGHT prefetcher (next batch copied on a side stream while this one computes;
# current waits, record_stream, side waits for current before reusing) -- checks the model does not refuse it
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    use_side = torch.cuda.is_available() and device.type == "cuda"
    side = torch.cuda.Stream() if use_side else None
    it = iter(loader)

    def fetch():
        try:
            xb, yb = next(it)
        except StopIteration:
            return None
        if side is None:
            return xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            return xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)

    nxt = fetch()
    while nxt is not None:
        if side is not None:
            torch.cuda.current_stream().wait_stream(side)
            nxt[0].record_stream(torch.cuda.current_stream())
            nxt[1].record_stream(torch.cuda.current_stream())
        xb, yb = nxt
        nxt = fetch()
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="prefetcher_reading_xb_shape_before_the_wait",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    side = torch.cuda.Stream(device=device) if device.type == "cuda" else None
    losses = []
    for xb, yb in loader:
        if side is not None:
            with torch.cuda.stream(side):
                xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            if xb.shape[0] != yb.shape[0]:  # host-side metadata only: no GPU data touched
                raise ValueError(f"batch sizes differ: {tuple(xb.shape)} vs {tuple(yb.shape)}")
            current = torch.cuda.current_stream(device)
            current.wait_stream(side)
            xb.record_stream(current)
            yb.record_stream(current)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="prefetcher_through_set_stream",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    side = torch.cuda.Stream(device=device) if device.type == "cuda" else None
    losses = []
    for xb, yb in loader:
        if side is not None:
            current = torch.cuda.current_stream(device)
            torch.cuda.set_stream(side)  # copies on the side stream
            try:
                xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            finally:
                torch.cuda.set_stream(current)
            current.wait_stream(side)
            xb.record_stream(current)
            yb.record_stream(current)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="prefetcher_through_torch_accelerator_current_stream",
        code="""
# RIGHT prefetcher written with the device-generic torch.accelerator.current_stream (waits + record_stream): false failure?
# train_one_epoch with a prefetcher: the next batch is copied on a side stream while this one trains; the current
# stream waits for the side stream before using a batch, but the copies (allocated on the side stream) are never
# record_stream'ed for the current stream: freed when the next batch replaces them, their memory goes back to the side
# stream's pool and the next prefetch may overwrite it while the current stream's queued forward/backward still reads it.
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    side = torch.cuda.Stream(device) if device.type == "cuda" else None

    def fetch(batch):
        xb, yb = batch
        if side is None:
            return xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        with torch.cuda.stream(side):
            return xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)

    it = iter(loader)
    first = next(it, None)
    nxt = fetch(first) if first is not None else None
    while nxt is not None:
        if side is not None:
            torch.accelerator.current_stream(device).wait_stream(side)
        xb, yb = nxt
        if side is not None:
            xb.record_stream(torch.accelerator.current_stream(device))
            yb.record_stream(torch.accelerator.current_stream(device))
        following = next(it, None)
        nxt = fetch(following) if following is not None else None  # overlaps with this step
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 a: c21, c22, c34, c35): a GPU-only path behind a flag the cell computed on the machine it ran on
    dict(
        grade_id="test_evaluate",
        name="fp16_autocast_behind_a_cell_time_on_gpu_flag",
        expect="evaluate 前向传播时开着 torch.autocast",
        code="""
# 10 evaluate: autocast (banned by the prose) behind a flag computed once when the cell runs, not at the call
import contextlib
_ON_GPU = torch.cuda.is_available()
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if _ON_GPU else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="bf16_autocast_behind_a_cell_time_on_gpu_flag",
        expect="does not support bfloat16",
        code="""
# 10 train_one_epoch: bf16 autocast (banned by the prose) behind a flag computed once when the cell runs
import contextlib
_ON_GPU = torch.cuda.is_available()
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with (torch.autocast("cuda", dtype=torch.bfloat16) if _ON_GPU else contextlib.nullcontext()):
            loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_lenet",
        name="cudnn_benchmark_in_init_behind_a_cell_time_on_gpu_flag",
        mistake="global-setting-changed",
        expect="LeNet 返回之后",
        code="""
# 10 LeNet: cudnn.benchmark switched on (a process-level setting) in __init__, behind a flag taken when the cell runs
_ON_GPU = torch.cuda.is_available()
class LeNet(nn.Module):

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2  # 卷积（padding=2）不变 → 池化 // 2 → 卷积 - 4 → 池化 // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        if _ON_GPU:
            torch.backends.cudnn.benchmark = True  # fixed-size conv inputs: let cuDNN pick the fastest kernels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)  # (N, 16, side, side) -> (N, 16 * side * side)，保留 batch 维
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
    dict(
        grade_id="test_lenet",
        name="self_cuda_in_init_behind_a_cell_time_on_gpu_flag",
        mistake="moved-to-device-inside",
        expect="LeNet 在 GPU 上",
        code="""
# 10 LeNet: .cuda() in __init__ (banned by the prose) behind a flag taken when the cell runs
_ON_GPU = torch.cuda.is_available()
class LeNet(nn.Module):

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2  # 卷积（padding=2）不变 → 池化 // 2 → 卷积 - 4 → 池化 // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        if _ON_GPU:
            self.cuda()  # 'faster on the GPU'

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)  # (N, 16, side, side) -> (N, 16 * side * side)，保留 batch 维
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 a: c17): model.train() only the first time a model is seen
    dict(
        grade_id="test_train_one_epoch",
        name="model_train_only_on_a_models_first_epoch",
        mistake="missing-model-train",
        expect="第二次调用时",
        code="""
# 10 train_one_epoch: model.train() only on the first epoch of each model (a WeakSet memo): a model the caller
# switched to eval between epochs (evaluate without restore, a restore, a manual model.eval()) trains in eval mode
import weakref
_IN_TRAIN_MODE = weakref.WeakSet()
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    if model not in _IN_TRAIN_MODE:  # model.train() walks every module: once per model is enough
        model.train()
        _IN_TRAIN_MODE.add(model)
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]


MUTANTS += [  # stop 59 (round 7 c: c33): the snapshot cloned on a side stream that never waited for the caller's stream
    dict(
        grade_id="test_checkpoint",
        name="snapshot_cloned_on_a_side_stream_that_never_waited_for_the_steps",
        expect="那条 stream 之前没有等当前 stream",
        code="""
# make_checkpoint: on a GPU the snapshot is cloned on a side stream (to overlap with training); the current stream waits
# for the side stream before the snapshot is used, but the side stream never waits for the current one: the clones may
# read the parameters / optimizer state before the optimizer.step() the caller just queued on the current stream has
# written them, so the checkpoint holds the previous step's weights (a stale snapshot, not the one at `epoch`).
import copy


def make_checkpoint(model, optimizer, epoch):
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    dev = next(model.parameters()).device
    if dev.type == "cuda":
        side = torch.cuda.Stream(dev)
        with torch.cuda.stream(side):
            snap = copy.deepcopy(state)
        torch.cuda.current_stream(dev).wait_stream(side)
        return snap
    return copy.deepcopy(state)


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
]


MUTANTS += [  # round 7 a c29: a floor or a cap on max_norm that the tested values (0.05, 5.0) never met
    dict(
        grade_id="test_fit",
        name="hands train_one_epoch max(max_norm, 0.05) (a tiny max_norm 'freezes training')",
        expect="max_norm=0.003",
        code=_fit_with("max_norm, scheduler).tolist()", "max(max_norm, 0.05), scheduler).tolist()"),
    ),
    dict(
        grade_id="test_fit",
        name="hands train_one_epoch min(max_norm, 10.0)",
        expect="换成了 10.0",
        code=_fit_with("max_norm, scheduler).tolist()", "min(max_norm, 10.0), scheduler).tolist()"),
    ),
]


MUTANTS += [  # round 8 a: waits carry their position (one wait before the loop, a cached stream, events recorded too early), and flags asked once in other spellings
    dict(
        grade_id="test_fit",
        name="validation on a side stream that waited for the current stream once, before the first epoch",
        expect="在另一条 CUDA stream 上",
        code="""
# 10 fit: validation on a side stream "to overlap it with the host work"; the side stream waits for the current
# stream ONCE, before the first epoch; the epoch's losses are read back (.tolist()) after the validation.
# On a GPU each epoch's evaluate is queued on the side stream while that epoch's optimizer steps are still queued
# on the current stream: it reads half-updated weights.
import contextlib
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    if side is not None:
        side.wait_stream(torch.cuda.current_stream())
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        epoch_losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler)
        with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
            acc = evaluate(model, x_val, y_val, 1000)
        losses = epoch_losses.tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="evaluation on a module-level side stream that waited only when it was made",
        expect="在另一条 CUDA stream 上",
        code="""
# 10 evaluate: evaluation on one cached side stream, made (and made to wait for the current stream) on the first call
# only; .item() inside the side block. Later calls read the weights with no ordering after the caller's queued steps.
import contextlib
_EVAL_STREAM = []
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        side = None
        if torch.cuda.is_available():
            if not _EVAL_STREAM:
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                _EVAL_STREAM.append(s)
            side = _EVAL_STREAM[0]
        with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()), torch.inference_mode():
            correct = torch.zeros((), dtype=torch.long, device=y.device)
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
            return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="loss clones on a side stream that waited for the current stream once, before the loop",
        expect="在另一条 CUDA stream 上",
        code="""
# 10 train_one_epoch: each step's loss copied into the epoch's list on a side stream (bookkeeping off the compute
# stream); the side stream waits for the current stream ONCE, before the loop, and the current stream waits for the
# side one before the stack. On a GPU the side stream copies each loss before the step that computes it has run.
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    side = torch.cuda.Stream() if device.type == "cuda" and torch.cuda.is_available() else None
    if side is not None:
        side.wait_stream(torch.cuda.current_stream())
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        if side is not None:
            with torch.cuda.stream(side):
                kept = loss.detach().clone()
            kept.record_stream(torch.cuda.current_stream())
            losses.append(kept)
        else:
            losses.append(loss.detach())
    if side is not None:
        torch.cuda.current_stream().wait_stream(side)
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="prefetch copies after the event the current stream waits for was recorded",
        expect="当前 stream 没有先等那条 stream",
        code="""
# 10 train_one_epoch: a prefetcher that copies each batch on a side stream; the event the current stream waits for is
# recorded on the side stream BEFORE the copies are queued (so it marks none of them): on a GPU the forward may read
# xb / yb before their copies have landed. record_stream is there.
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    side = torch.cuda.Stream() if device.type == "cuda" and torch.cuda.is_available() else None
    losses = []
    for xb, yb in loader:
        if side is not None:
            with torch.cuda.stream(side):
                ready = torch.cuda.Event()
                ready.record()
                xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            current = torch.cuda.current_stream()
            current.wait_event(ready)
            xb.record_stream(current)
            yb.record_stream(current)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_fit",
        name="validation waits for an event recorded at the start of each epoch",
        expect="在另一条 CUDA stream 上",
        code="""
# 10 fit: validation on a side stream that waits for an event recorded on the current stream at the START of each
# epoch (before train_one_epoch queues the epoch's steps): the event marks none of the epoch's training, so on a GPU
# evaluate reads weights the epoch's optimizer steps are still writing. Losses read after the validation.
import contextlib
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    side = torch.cuda.Stream() if torch.cuda.is_available() else None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        epoch_start = None
        if side is not None:
            epoch_start = torch.cuda.Event()
            epoch_start.record()
        epoch_losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler)
        if side is not None:
            side.wait_event(epoch_start)
        with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()):
            acc = evaluate(model, x_val, y_val, 1000)
        losses = epoch_losses.tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="float16 autocast behind DEVICE_NAME, USE_AMP = a tuple",
        expect="torch.autocast",
        code="""
# 10 evaluate: fp16 autocast (banned by the prose) behind a flag set by tuple unpacking when the cell runs
# (DEVICE, USE_AMP = ... if torch.cuda.is_available() else ...: the usual notebook idiom)
import contextlib
DEVICE_NAME, USE_AMP = ("cuda", True) if torch.cuda.is_available() else ("cpu", False)
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if USE_AMP else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="bfloat16 autocast behind CONFIG = a dict of flags",
        expect="bfloat16",
        code="""
# 10 train_one_epoch: bf16 autocast (banned by the prose) behind a config dict filled when the cell runs
import contextlib
CONFIG = {"amp": torch.cuda.is_available(), "amp_dtype": torch.bfloat16}
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with (torch.autocast("cuda", dtype=CONFIG["amp_dtype"]) if CONFIG["amp"] else contextlib.nullcontext()):
            loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_fit",
        name="float16 autocast in validation behind a default argument amp=torch.cuda.is_available()",
        expect="torch.autocast",
        code="""
# 10 fit: validation under fp16 autocast (banned) behind a default argument evaluated when the cell ran
import contextlib
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None,
        amp=torch.cuda.is_available()):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        with (torch.autocast("cuda", dtype=torch.float16) if amp else contextlib.nullcontext()):
            history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="the current stream waits for an event recorded on the side stream before the evaluation was queued",
        expect="当前 stream 没有先等那条 stream",
        code="""
# 10 evaluate: evaluation on a side stream (which waits for the current stream first, correctly); the current stream then
# waits for an event recorded on the side stream BEFORE the evaluation was queued there (it marks none of it), so on a
# GPU the final .item() on the current stream can read the count before the side stream has computed it.
import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        side = torch.cuda.Stream() if torch.cuda.is_available() else None
        if side is not None:
            side.wait_stream(torch.cuda.current_stream())
        with (torch.cuda.stream(side) if side is not None else contextlib.nullcontext()), torch.inference_mode():
            if side is not None:
                done = torch.cuda.Event()
                done.record()
            correct = torch.zeros((), dtype=torch.long, device=y.device)
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        if side is not None:
            torch.cuda.current_stream().wait_event(done)
            correct.record_stream(torch.cuda.current_stream())
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
]


MUTANTS += [  # round 8 a: checkpoints on a side stream kept from an earlier call or never waited for, restore on an unordered side stream, a stack on a late side stream, a pinned staging buffer rewritten in flight, GPU branches behind an if-block flag
    dict(
        grade_id="test_checkpoint",
        name="the snapshot cloned on a side stream cached per device, which waited only when it was made",
        expect="在另一条 CUDA stream 上",
        code="""
# 10 make_checkpoint: the snapshot is cloned on one cached side stream per device (to overlap with training), which
# waited for the current stream when it was made (the first checkpoint); later checkpoints clone the weights and the
# optimizer state with no ordering after the optimizer steps the caller queued since: a stale / torn snapshot.
import copy
_SNAP_STREAMS = {}
def make_checkpoint(model, optimizer, epoch):
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    dev = next(model.parameters()).device
    if dev.type == "cuda":
        side = _SNAP_STREAMS.get(str(dev))
        if side is None:
            side = torch.cuda.Stream(dev)
            side.wait_stream(torch.cuda.current_stream(dev))
            _SNAP_STREAMS[str(dev)] = side
        with torch.cuda.stream(side):
            snap = copy.deepcopy(state)
        torch.cuda.current_stream(dev).wait_stream(side)
        return snap
    return copy.deepcopy(state)


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="the current stream waits for an event recorded on the side stream before the snapshot copies",
        expect="返回前当前 stream",
        code="""
# 10 make_checkpoint: the snapshot is deep-copied on a side stream that first waits for the current stream (right);
# the current stream then waits for an event recorded on the side stream BEFORE the copies were queued (it marks none
# of them): on a GPU the caller's next optimizer.step() on the current stream can overwrite the weights while the
# side stream is still copying them, and the caller's torch.save / restore may read unfinished copies.
import copy
def make_checkpoint(model, optimizer, epoch):
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    dev = next(model.parameters()).device
    if dev.type == "cuda":
        side = torch.cuda.Stream(dev)
        side.wait_stream(torch.cuda.current_stream(dev))
        with torch.cuda.stream(side):
            done = torch.cuda.Event()
            done.record()
            snap = copy.deepcopy(state)
        torch.cuda.current_stream(dev).wait_event(done)
        for t in [v for v in snap["model"].values()] + [v for s in snap["optimizer"]["state"].values() for v in s.values()]:
            if isinstance(t, torch.Tensor):
                t.record_stream(torch.cuda.current_stream(dev))
        return snap
    return copy.deepcopy(state)


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="the snapshot returned while its side-stream copies still run",
        expect="返回前当前 stream",
        code="""
# 10 make_checkpoint: snapshot cloned on a side stream "to overlap with training", following the stale-race message's
# own advice (s.wait_stream(torch.cuda.current_stream()) before entering the side stream) -- but nothing makes the
# current stream (or the host) wait for the side stream before the snapshot is handed back: on a GPU the caller's next
# optimizer.step() on the current stream can overwrite weights / momenta the side stream is still copying, and
# torch.save(checkpoint) can read copies that have not run yet.
import copy
def make_checkpoint(model, optimizer, epoch):
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    dev = next(model.parameters()).device
    if dev.type == "cuda":
        side = torch.cuda.Stream(dev)
        side.wait_stream(torch.cuda.current_stream(dev))
        with torch.cuda.stream(side):
            return copy.deepcopy(state)
    return copy.deepcopy(state)


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="restore_checkpoint loads the weights on a fresh side stream with no waits",
        expect="restore_checkpoint 在另一条 CUDA stream 上",
        code="""
# 10 restore_checkpoint: the weights are loaded on a side stream ("so the copies overlap with the optimizer's") that
# never waits for the current stream and that nothing waits for: on a GPU the copies can read a checkpoint that
# torch.load(map_location=device) is still filling on the current stream, and the caller's next forward / step on the
# current stream can read the parameters before the copies have written them.
import copy
def make_checkpoint(model, optimizer, epoch):
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    dev = next(model.parameters()).device
    if dev.type == "cuda":
        with torch.cuda.stream(torch.cuda.Stream(dev)):
            model.load_state_dict(checkpoint["model"])
    else:
        model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="the losses stacked on a side stream made at the end of the epoch, never waiting",
        expect="在另一条 CUDA stream 上",
        code="""
# 10 train_one_epoch: the epoch's losses stacked on a side stream made at the end of the epoch ("so the stack does not
# wait behind the last step"), which never waits for the current stream: on a GPU the stack reads the last steps'
# losses before their forwards have run. The current stream waits for the side one and records the result (right).
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    if device.type == "cuda" and torch.cuda.is_available():
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            out = torch.stack(losses)
        current = torch.cuda.current_stream()
        current.wait_stream(side)
        out.record_stream(current)
        return out
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="one pinned staging buffer rewritten while its non_blocking upload is in flight",
        expect="pinned 内存里写了新数据",
        code="""
# 10 train_one_epoch: one reused pinned staging pair (pinned once, "so the upload can be non_blocking without pinning
# every batch"): each batch is copied into it on the host, then uploaded with non_blocking=True. On a GPU the host's
# copy of batch k+1 into the staging buffer can run before batch k's queued upload has read it: batch k trains on
# (part of) batch k+1's data.
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    staging = None
    losses = []
    for xb, yb in loader:
        if device.type == "cuda":
            if staging is None or staging[0].shape != xb.shape:
                staging = (torch.empty(xb.shape, dtype=xb.dtype, pin_memory=True),
                           torch.empty(yb.shape, dtype=yb.dtype, pin_memory=True))
            staging[0].copy_(xb)
            staging[1].copy_(yb)
            xb, yb = staging[0].to(device, non_blocking=True), staging[1].to(device, non_blocking=True)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_lenet",
        name="self.cuda() in __init__ behind an if-block flag",
        expect="GPU 上",
        code="""
# 10 LeNet: the model moves itself to the GPU in __init__ (the prose: __init__ only builds the layers; the caller
# does .to(device)), behind a flag set in a top-level if-block when the cell runs
ON_GPU = False
if torch.cuda.is_available():
    ON_GPU = True
class LeNet(nn.Module):

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        if ON_GPU:
            self.cuda()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="each sample moved to the GPU in __getitem__ behind an if-block flag",
        expect="GPU 上",
        code="""
# 10 MNISTDataset: each sample moved to the GPU in __getitem__ (the prose: both stay on the CPU, moving is the
# training loop's job, once per batch), behind a flag set in a top-level if-block when the cell runs
ON_GPU = False
if torch.cuda.is_available():
    ON_GPU = True
class MNISTDataset(Dataset):

    def __init__(self, pixels: torch.Tensor, labels: torch.Tensor):
        self.pixels = pixels
        self.labels = labels

    def __len__(self) -> int:
        return self.pixels.shape[0]

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        image = ((self.pixels[index].to(torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD).unsqueeze(0)
        if ON_GPU:
            image = image.cuda()
        return image, self.labels[index]
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="num_workers=2 behind an if-block flag",
        expect="num_workers",
        code="""
# 10 make_loader: worker processes (banned: 不开工作进程) behind a flag set in a top-level if-block when the cell runs
ON_GPU = False
if torch.cuda.is_available():
    ON_GPU = True

class TensorBatches(Dataset):

    def __init__(self, x: torch.Tensor, y: torch.Tensor):
        self.x, self.y = x, y

    def __len__(self) -> int:
        return self.x.shape[0]

    def __getitem__(self, indices: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
        return self.x[indices], self.y[indices]


def make_loader(
    x: torch.Tensor,
    y: torch.Tensor,
    batch_size: int,
    *,
    shuffle: bool,
    generator: torch.Generator | None = None,
    pin_memory: bool = False,
) -> DataLoader:
    dataset = TensorBatches(x, y)
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    sampler = BatchSampler(order, batch_size, drop_last=False)
    return DataLoader(dataset, batch_size=None, sampler=sampler, pin_memory=pin_memory, num_workers=2 if ON_GPU else 0)  # GPU 机器上两个进程并行取 batch
    ### END SOLUTION
""",
    ),
]


CORRECT += [  # round 8 a: checkpoints on a side stream kept from an earlier call or never waited for, restore on an unordered side stream, a stack on a late side stream, a pinned staging buffer rewritten in flight, GPU branches behind an if-block flag (right answers)
    dict(
        grade_id="test_train_one_epoch",
        name="each batch copied into a fresh pinned buffer, then uploaded non_blocking",
        code="""
# RIGHT answer (control for a false failure): each batch copied into a FRESH pinned buffer (the loader of the exercise
# may hand pageable batches), then uploaded with non_blocking=True. Host-to-host copy_: no sync, no reuse hazard.
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        if device.type == "cuda":
            xp = torch.empty(xb.shape, dtype=xb.dtype, pin_memory=True)
            yp = torch.empty(yb.shape, dtype=yb.dtype, pin_memory=True)
            xp.copy_(xb)
            yp.copy_(yb)
            xb, yb = xp.to(device, non_blocking=True), yp.to(device, non_blocking=True)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]


MUTANTS += [  # round 9 a: a pinned staging buffer reused through slices or dev.copy_, side-stream writes with b[...] = v in checkpoints, flags from a tuple with a device or a number from a flag
    dict(
        grade_id="test_train_one_epoch",
        name="one pinned staging pair written and uploaded through slices buf[:n]",
        expect="pinned 内存里写了新数据",
        code="""
# 10 train_one_epoch: one pinned staging pair sized for the first batch; each batch is written into a slice of it
# (buf[:n], the last batch is smaller) and the slice uploaded non_blocking. The next batch's host write can run
# before the previous upload read the buffer (same "reused" race as the known mutant, spelled with views).
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    bx = by = None
    losses = []
    for xb, yb in loader:
        if device.type == "cuda":
            n = xb.shape[0]
            if bx is None or bx.shape[0] < n or bx.shape[1:] != xb.shape[1:]:
                bx = torch.empty(xb.shape, dtype=xb.dtype, pin_memory=True)
                by = torch.empty(yb.shape, dtype=yb.dtype, pin_memory=True)
            bx[:n].copy_(xb)
            by[:n].copy_(yb)
            xb, yb = bx[:n].to(device, non_blocking=True), by[:n].to(device, non_blocking=True)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="snapshot buffers filled on a side stream with b[...] = v, nothing waits",
        expect="返回前当前 stream",
        code="""
# 10 make_checkpoint: snapshot buffers allocated on the current stream, filled on a side stream (which first waits
# for the current stream: no stale read) with buf[...] = v; nothing waits for the side stream before returning:
# the caller's next optimizer.step() can overwrite weights the side stream is still copying; torch.save reads
# unfinished copies.
import copy
def make_checkpoint(model, optimizer, epoch):
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    dev = next(model.parameters()).device
    if dev.type != "cuda":
        return copy.deepcopy(state)
    pairs = []
    def snap(v):
        if isinstance(v, torch.Tensor):
            b = torch.empty_like(v)
            pairs.append((b, v.detach()))
            return b
        if isinstance(v, dict):
            return {k: snap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [snap(x) for x in v]
        if isinstance(v, tuple):
            return tuple(snap(x) for x in v)
        return copy.deepcopy(v)
    out = snap(state)
    side = torch.cuda.Stream(dev)
    side.wait_stream(torch.cuda.current_stream(dev))
    with torch.cuda.stream(side):
        for b, v in pairs:
            b[...] = v
    return out


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="restore writes t[...] = v on a side stream, nothing waits",
        expect="restore_checkpoint 在另一条 CUDA stream 上",
        code="""
# 10 restore_checkpoint: keys checked, then the weights written on a side stream (which first waits for the current
# stream) with p[...] = v under no_grad; nothing waits for the side stream afterwards: the caller's next forward on
# the current stream can read parameters the side stream has not written yet.
import copy
def make_checkpoint(model, optimizer, epoch):
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    dev = next(model.parameters()).device
    if dev.type == "cuda":
        own = model.state_dict()
        if set(own) != set(checkpoint["model"]):
            raise KeyError(f"keys differ: {sorted(set(own) ^ set(checkpoint['model']))}")
        side = torch.cuda.Stream(dev)
        side.wait_stream(torch.cuda.current_stream(dev))
        with torch.cuda.stream(side), torch.no_grad():
            for k, t in own.items():
                t[...] = checkpoint["model"][k]
    else:
        model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="static buffers: stg.copy_(xb), dev.copy_(stg, non_blocking=True) every batch",
        expect="pinned 内存里写了新数据",
        code="""
# 10 train_one_epoch: static buffers: one pinned staging pair and one device pair, allocated once; each batch is
# copied into the pinned staging on the host, then dev.copy_(staging, non_blocking=True). On a GPU the host's write
# of batch k+1 into the staging buffer can run before batch k's queued upload has read it ("reused" race).
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    bufs = None
    losses = []
    for xb, yb in loader:
        if device.type == "cuda":
            if bufs is None or bufs[0].shape != xb.shape:
                bufs = (torch.empty(xb.shape, dtype=xb.dtype, pin_memory=True),
                        torch.empty(yb.shape, dtype=yb.dtype, pin_memory=True),
                        torch.empty(xb.shape, dtype=xb.dtype, device=device),
                        torch.empty(yb.shape, dtype=yb.dtype, device=device))
            bufs[0].copy_(xb)
            bufs[1].copy_(yb)
            bufs[2].copy_(bufs[0], non_blocking=True)
            bufs[3].copy_(bufs[1], non_blocking=True)
            xb, yb = bufs[2], bufs[3]
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="float16 autocast behind DEVICE, USE_AMP = (torch.device('cuda'), True) if ...",
        expect="torch.autocast",
        code="""
# 10 evaluate: fp16 autocast (banned) behind DEVICE, USE_AMP = (a torch.device, a flag) set when the cell runs
import contextlib
DEVICE, USE_AMP = (torch.device("cuda"), True) if torch.cuda.is_available() else (torch.device("cpu"), False)
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if USE_AMP else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="WORKERS = 2 if HAVE_GPU else 0",
        expect="num_workers",
        code="""
# 10 make_loader: worker processes (banned: 不开工作进程) where there is a GPU, through a flag and an int derived from it
HAVE_GPU = torch.cuda.is_available()
WORKERS = 2 if HAVE_GPU else 0
class TensorBatches(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __len__(self):
        return self.x.shape[0]
    def __getitem__(self, indices):
        return self.x[indices], self.y[indices]


def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    dataset = TensorBatches(x, y)
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    sampler = BatchSampler(order, batch_size, drop_last=False)
    return DataLoader(dataset, batch_size=None, sampler=sampler, pin_memory=pin_memory, num_workers=WORKERS)
""",
    ),
]


CORRECT += [  # round 9 a: a pinned staging buffer reused through slices or dev.copy_, side-stream writes with b[...] = v in checkpoints, flags from a tuple with a device or a number from a flag (right answers)
    dict(
        grade_id="test_train_one_epoch",
        name="a fresh pinned buffer per batch made as torch.empty(n, pin_memory=True).view(shape)",
        code="""
# RIGHT (control): each batch copied into a FRESH pinned buffer (one flat pinned allocation viewed to the batch's
# shape), then uploaded non_blocking. No reuse, no sync: must pass.
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        if device.type == "cuda":
            xp = torch.empty(xb.numel(), dtype=xb.dtype, pin_memory=True).view(xb.shape)
            yp = torch.empty(yb.numel(), dtype=yb.dtype, pin_memory=True).view(yb.shape)
            xp.copy_(xb)
            yp.copy_(yb)
            xb, yb = xp.to(device, non_blocking=True), yp.to(device, non_blocking=True)
        else:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]


MUTANTS += [  # round 10 b: GPU-only autocast behind top-level contexts and flags, max_norm floors and thresholds, a rounded best-epoch comparison, numbers from a flag with calls
    dict(
        grade_id="test_evaluate",
        name="float16 autocast in evaluate through a nullcontext-or-autocast object",
        expect="autocast",
        code="""
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
import contextlib
# nanoGPT-style context picked once at the top level: fp16 autocast on a GPU, nothing on the CPU
AMP_CTX = contextlib.nullcontext() if device.type == "cpu" else torch.autocast(device_type=device.type, dtype=torch.float16)


def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode(), AMP_CTX:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="bfloat16 autocast in the epoch through a nullcontext-or-autocast object",
        expect="autocast",
        code="""
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
import contextlib
CTX = contextlib.nullcontext() if device.type == "cpu" else torch.autocast(device_type=device.type, dtype=torch.bfloat16)


def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with CTX:
            loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_fit",
        name="validation in fit under a top-level autocast-or-nullcontext object",
        expect="autocast",
        code="""
import contextlib
VAL_CTX = torch.autocast("cuda", dtype=torch.float16) if torch.cuda.is_available() else contextlib.nullcontext()


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        with VAL_CTX:
            history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="max_norm floored at 1e-3 in fit",
        expect="max_norm=1e-09",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    max_norm = max(max_norm, 1e-3)  # a max_norm of ~0 would freeze training: keep a floor
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="max_norm floored at 1e-3 in the epoch",
        expect="max_norm=1e-09",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max(max_norm, 1e-3))  # never clip to ~0
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_lenet",
        name="forward under a top-level autocast with enabled=is_available()",
        expect="autocast",
        code="""
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
# half precision where there is a GPU (autocast turns itself off on a CPU machine)
AMP = torch.autocast("cuda", dtype=torch.float16, enabled=torch.cuda.is_available())


class LeNet(nn.Module):
    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x):
        with AMP:
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = torch.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)
""",
    ),
    dict(
        grade_id="test_fit",
        name="float16 validation behind DEVICE.startswith('cuda')",
        expect="autocast",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
USE_AMP = DEVICE.startswith("cuda")  # half-precision validation where there is a GPU


def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        with torch.autocast("cuda", dtype=torch.float16, enabled=USE_AMP):
            history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_checkpoint",
        name="live state_dicts on the GPU behind print(DEVICE.upper())",
        expect="GPU 上",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
print("checkpoints of models on", DEVICE.upper())
ON_GPU = DEVICE == "cuda"


def make_checkpoint(model, optimizer, epoch):
    if ON_GPU:
        # GPU memory is tight: no deepcopy of the model and optimizer state there, the checkpoint is torch.save'd at once
        return {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
    return copy.deepcopy({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch})


def restore_checkpoint(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(copy.deepcopy(checkpoint["optimizer"]))
    return checkpoint["epoch"]
""",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="a cached image on the GPU behind print(DEVICE.upper())",
        expect="GPU 上",
        code="""
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
print("samples are prepared for", DEVICE.upper())
FAST_PATH = DEVICE == "cuda"  # a GPU machine has the RAM for a cache of converted images


class MNISTDataset(Dataset):
    def __init__(self, pixels, labels):
        self.pixels = pixels
        self.labels = labels
        self._cache = {}

    def __len__(self):
        return self.pixels.shape[0]

    def __getitem__(self, index):
        if FAST_PATH:
            if index not in self._cache:
                self._cache[index] = ((self.pixels[index].to(torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD).unsqueeze(0)
            return self._cache[index], self.labels[index]
        image = (self.pixels[index].to(torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD
        return image.unsqueeze(0), self.labels[index]
""",
    ),
    dict(
        grade_id="test_fit",
        name="best epoch compared on accuracies rounded to 3 decimals",
        expect="最好的是第 2 个 epoch",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or round(history["val_acc"][-1], 3) > round(max(history["val_acc"][:-1]), 3):  # 三位小数比较，避免浮点误差
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="clipping skipped when max_norm >= 100",
        expect="max_norm=1e+12",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    clip = max_norm < 100  # a max_norm this large never binds: skip the extra pass over the gradients
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        if clip:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_make_loader",
        name="workers from min(4, os.cpu_count()) on a GPU",
        expect="num_workers",
        code="""
import os

HAVE_GPU = torch.cuda.is_available()
NUM_WORKERS = min(4, os.cpu_count() or 1) if HAVE_GPU else 0  # feed the GPU from worker processes


class TensorBatches(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, indices):
        return self.x[indices], self.y[indices]


def make_loader(x, y, batch_size, *, shuffle, generator=None, pin_memory=False):
    dataset = TensorBatches(x, y)
    order = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
    sampler = BatchSampler(order, batch_size, drop_last=False)
    return DataLoader(dataset, batch_size=None, sampler=sampler, pin_memory=pin_memory, num_workers=NUM_WORKERS)
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="one big batch on a GPU from a number computed with max()",
        expect="batch 大小",
        code="""
HAVE_GPU = torch.cuda.is_available()
EVAL_ROWS = max(8192, 4 * 1024) if HAVE_GPU else 0  # a GPU evaluates big chunks at once; 0: use the caller's batch_size


def evaluate(model, x, y, batch_size):
    step = EVAL_ROWS or batch_size
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        with torch.inference_mode():
            for start in range(0, x.shape[0], step):
                logits = model(x[start : start + step])
                correct += (logits.argmax(dim=1) == y[start : start + step]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
]


MUTANTS += [  # round 11 c: a log every 50 batches, autocast for batches of 32 rows or more, clipping only the optimizer's parameters
    dict(
        grade_id="test_train_one_epoch",
        name="loss.item() printed every 50 batches",
        expect="64 个 batch",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for k, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
        if (k + 1) % 50 == 0:  # 每 50 个 batch 打印一次进度
            print(f"  batch {k + 1}: loss {loss.item():.4f}")
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="bfloat16 autocast for batches of 32 rows or more",
        expect="autocast",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        # GPU 上 batch 够大时用 bfloat16 的 autocast 提速（bf16 不需要 GradScaler）
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=xb.is_cuda and xb.shape[0] >= 32):
            out = model(xb)
        loss = loss_fn(out.float(), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="clip_grad_norm_ over the optimizer's parameters",
        expect="模型全部参数",
        code="""
def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    params = [p for group in optimizer.param_groups for p in group["params"]]  # 裁剪优化器要更新的参数
    losses = []
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
    ),
]


CORRECT += [  # round 11 a c28: a setup block that sets the default device beside the solution's LeNet (right answers)
    dict(
        grade_id="test_lenet",
        name="a setup block that sets the default device to the GPU",
        code="""
# a right answer (the solution's LeNet) after c05's setup cell (GPU made the default device on a GPU machine)
if torch.cuda.is_available():
    device = torch.device("cuda")
    torch.set_default_device(device)
else:
    device = torch.device("cpu")


class LeNet(nn.Module):
    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
    ),
]


MUTANTS += [  # round 12 (reviewer a): fit's own epoch with F.cross_entropy instead of the loss_fn handed in
    dict(
        grade_id="test_fit",
        name="an epoch written inside fit that computes F.cross_entropy, not the caller's loss_fn",
        expect="不是传入的 loss_fn 算的",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    device = next(model.parameters()).device
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        model.train()
        out = []
        for xb, yb in train_loader:  # the epoch written here; the loss is the cross-entropy of the recipe
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            out.append(loss.detach())
        losses = torch.stack(out).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
]

MUTANTS += [  # stop 63 (round 12 a c17): a best epoch must beat the others by a min_delta of 1e-4
    dict(
        grade_id="test_fit",
        name="a new best epoch must be better by 1e-4 (a min_delta)",
        expect="只在验证准确率严格超过之前所有 epoch 时更新快照",
        code="""
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]) + 1e-4:
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch} done")
    model.load_state_dict(best_state)
    return history
""",
    ),
]

MUTANTS += [  # round 13 b c25-c29: fp16 autocast in evaluate behind flags the replay had missed
    dict(
        grade_id="test_evaluate",
        name="USE_AMP = False then USE_AMP or is_available()",
        expect="前向传播时开着 torch.autocast",
        code="""USE_AMP = False
USE_AMP = USE_AMP or torch.cuda.is_available()

import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if (USE_AMP) else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="a cpu device default then cuda if is_available()",
        expect="前向传播时开着 torch.autocast",
        code="""DEVICE = torch.device('cpu')
DEVICE = torch.device('cuda') if torch.cuda.is_available() else DEVICE

import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if (DEVICE.type == 'cuda') else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="a __slots__ flags object",
        expect="前向传播时开着 torch.autocast",
        code="""class Flags:
    __slots__ = ('amp',)
    def __init__(self):
        self.amp = torch.cuda.is_available()
FLAGS = Flags()

import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if (FLAGS.amp) else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="dict.__setitem__(CFG, 'amp', ...)",
        expect="前向传播时开着 torch.autocast",
        code="""CFG = {'amp': False, 'batch': 256}
dict.__setitem__(CFG, 'amp', torch.cuda.is_available())

import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if (CFG['amp']) else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
    dict(
        grade_id="test_evaluate",
        name="a NamedTuple config replaced with the query",
        expect="前向传播时开着 torch.autocast",
        code="""from typing import NamedTuple
class Cfg(NamedTuple):
    amp: bool = False
    batch: int = 256
CFG = Cfg()
CFG = CFG._replace(amp=torch.cuda.is_available())

import contextlib
def evaluate(model, x, y, batch_size):
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        correct = torch.zeros((), dtype=torch.long, device=y.device)
        fast = torch.autocast("cuda", dtype=torch.float16) if (CFG.amp) else contextlib.nullcontext()
        with torch.inference_mode(), fast:
            for start in range(0, x.shape[0], batch_size):
                logits = model(x[start : start + batch_size])
                correct += (logits.argmax(dim=1) == y[start : start + batch_size]).sum()
        return correct.item() / y.shape[0]
    finally:
        for m, mode in modes:
            m.training = mode
""",
    ),
]

MUTANTS += [  # round 13 b c30-c32: GPU-only work behind a class attribute that asks (the check held the class made on the CPU)
    dict(
        grade_id="test_lenet",
        name="LeNet.ON_GPU gates self.cuda() in __init__",
        code="""
class LeNet(nn.Module):
    ON_GPU = torch.cuda.is_available()  # decided once, for every model

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        if self.ON_GPU:
            self.cuda()  # 'faster on the GPU'

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
        expect="输入都在 GPU 上时",
    ),
    dict(
        grade_id="test_lenet",
        name="LeNet.ON_GPU gates cudnn.benchmark = True in __init__",
        code="""
class LeNet(nn.Module):
    ON_GPU = torch.cuda.is_available()  # decided once, for every model

    def __init__(self, in_channels: int = 1, num_classes: int = 10, image_size: int = 28):
        super().__init__()
        side = (image_size // 2 - 4) // 2
        if side < 1:
            raise ValueError(f"image_size={image_size} 太小：两次卷积和池化之后边长是 {side}，至少要 12")
        self.conv1 = nn.Conv2d(in_channels, 6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * side * side, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)
        if self.ON_GPU:
            torch.backends.cudnn.benchmark = True

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
""",
        expect="输入都在 GPU 上时",
    ),
    dict(
        grade_id="test_mnist_dataset",
        name="MNISTDataset.ON_GPU sends each sample to cuda",
        code="""
class MNISTDataset(Dataset):
    ON_GPU = torch.cuda.is_available()

    def __init__(self, pixels, labels):
        self.pixels = pixels
        self.labels = labels

    def __len__(self):
        return self.pixels.shape[0]

    def __getitem__(self, index):
        image = (self.pixels[index].to(torch.float32) / 255.0 - MNIST_MEAN) / MNIST_STD
        image, label = image.unsqueeze(0), self.labels[index]
        if self.ON_GPU:
            image, label = image.to("cuda"), label.to("cuda")  # ready on the GPU
        return image, label
""",
        expect="输入都在 GPU 上时",
    ),
]

MUTANTS += [  # round 15 d01-d03: a minimum improvement below the data's gap, the whole epoch fetched first, len(loader)
    dict(
        grade_id="test_fit",
        name="min_delta 1e-5",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    best_acc = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or acc > best_acc + 1e-5:
            best_acc = acc
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
        expect="高出再少也是严格更好",
    ),
    dict(
        grade_id="test_fit",
        name="accuracies rounded to 5 decimals",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    best_acc = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or round(acc, 5) > round(best_acc, 5):
            best_acc = acc
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
        expect="高出再少也是严格更好",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="every batch moved to the device before the first step",
        code="""def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    # move the whole epoch to the device first (all copies queued up front)
    batches = [(xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)) for xb, yb in loader]
    losses = []
    for xb, yb in batches:
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses.append(loss.detach())
    return torch.stack(losses)
""",
        expect="还没训练的 batch",
    ),
    dict(
        grade_id="test_train_one_epoch",
        name="losses preallocated with len(loader)",
        code="""def train_one_epoch(model, optimizer, loss_fn, loader, max_norm, scheduler=None):
    device = next(model.parameters()).device
    model.train()
    losses = torch.empty(len(loader), device=device)  # one slot per batch, filled on the device
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        losses[i] = loss.detach()
    return losses
""",
        expect="loader 是生成器",
    ),
]

MUTANTS += [  # round 15 d04, d06: a snapshot kept every epoch; epochs timed by process_time
    dict(
        grade_id="test_fit",
        name="a deep copy of the state kept for every epoch",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    snapshots = []
    best_acc = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        snapshots.append(copy.deepcopy(model.state_dict()))  # every epoch kept
        if best_acc is None or acc > best_acc:
            best_acc = acc
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(snapshots[history["best_epoch"] - 1])
    return history
""",
        expect="每个 epoch 都存了一份快照",
    ),
    dict(
        grade_id="test_fit",
        name="epoch_seconds from time.process_time()",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    best_acc = None
    for epoch in range(1, epochs + 1):
        start = time.process_time()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.process_time() - start)
        if best_acc is None or acc > best_acc:
            best_acc = acc
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
        expect="墙钟时间",
    ),
]


# round 16 c05: the live state_dict (aliases of the parameters) taken each epoch, deep-copied only when strictly better: one copy
CORRECT += [
    dict(
        grade_id="test_fit",
        name="state = model.state_dict() before evaluate, copy.deepcopy only when better (r16 c05)",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state, best_acc = None, None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        state = model.state_dict()  # this epoch's weights (copied below only if they are the best)
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or acc > best_acc:
            best_acc = acc
            best_state = copy.deepcopy(state)
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
]


# round 16 c02-c04, c06-c11: fit must call evaluate (its globals read through @torch.enable_grad(), a default argument too) and hand train_one_epoch the loader itself
MUTANTS += [
    dict(
        grade_id="test_fit",
        name="validation written inline, a deep copy kept every epoch (r16 c02)",
        expect="一次也没有调用 evaluate",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    snapshots = []
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        # validation written out here
        modes = [(m, m.training) for m in model.modules()]
        model.eval()
        try:
            correct = torch.zeros((), dtype=torch.long, device=y_val.device)
            with torch.inference_mode():
                for i in range(0, x_val.shape[0], 1000):
                    correct += (model(x_val[i : i + 1000]).argmax(dim=1) == y_val[i : i + 1000]).sum()
            acc = correct.item() / y_val.shape[0]
        finally:
            for m, mode in modes:
                m.training = mode
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        snapshots.append(copy.deepcopy(model.state_dict()))  # every epoch kept
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    best = history["val_acc"].index(max(history["val_acc"]))
    history["best_epoch"] = best + 1
    model.load_state_dict(snapshots[best])
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="validation written inline, a minimum improvement of 1e-5 (r16 c03)",
        expect="一次也没有调用 evaluate",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state, best_acc = None, None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        # validation written out here
        modes = [(m, m.training) for m in model.modules()]
        model.eval()
        try:
            correct = torch.zeros((), dtype=torch.long, device=y_val.device)
            with torch.inference_mode():
                for i in range(0, x_val.shape[0], 1000):
                    correct += (model(x_val[i : i + 1000]).argmax(dim=1) == y_val[i : i + 1000]).sum()
            acc = correct.item() / y_val.shape[0]
        finally:
            for m, mode in modes:
                m.training = mode
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or acc > best_acc + 1e-5:  # ignore improvements below 1e-5
            best_acc = acc
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="evaluate bound as a default argument, a deep copy kept every epoch (r16 c04)",
        expect="每个 epoch 都存了一份快照",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None, validate=evaluate):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    snapshots = []
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(validate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        snapshots.append(copy.deepcopy(model.state_dict()))  # every epoch kept
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}")
    best = history["val_acc"].index(max(history["val_acc"]))
    history["best_epoch"] = best + 1
    model.load_state_dict(snapshots[best])
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="batches = list(train_loader) once, the same batches every epoch (r16 c06)",
        expect="不是传入的 train_loader 本身",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    batches = list(train_loader)  # collate the epoch's batches once, reuse them every epoch
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, batches, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="training and validation loops written inside fit (r16 c07)",
        expect="一次也没有调用 evaluate",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    device = next(model.parameters()).device
    best_state, best_acc = None, None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        # training pass
        model.train()
        epoch_losses = []
        for xb, yb in train_loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(xb), yb)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            epoch_losses.append(loss)
        losses = torch.stack(epoch_losses).detach().tolist()
        # validation pass
        modes = [(m, m.training) for m in model.modules()]
        model.eval()
        try:
            correct = torch.zeros((), dtype=torch.long, device=y_val.device)
            with torch.no_grad():
                for i in range(0, x_val.shape[0], 1000):
                    correct += (model(x_val[i : i + 1000]).argmax(dim=1) == y_val[i : i + 1000]).sum()
            acc = correct.item() / y_val.shape[0]
        finally:
            for m, mode in modes:
                m.training = mode
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or acc > best_acc:
            best_acc = acc
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="validation inline, accuracies rounded to 5 decimals (r16 c08)",
        expect="一次也没有调用 evaluate",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state, best_acc = None, None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        # validation written out here
        modes = [(m, m.training) for m in model.modules()]
        model.eval()
        try:
            correct = torch.zeros((), dtype=torch.long, device=y_val.device)
            with torch.inference_mode():
                for i in range(0, x_val.shape[0], 1000):
                    correct += (model(x_val[i : i + 1000]).argmax(dim=1) == y_val[i : i + 1000]).sum()
            acc = correct.item() / y_val.shape[0]
        finally:
            for m, mode in modes:
                m.training = mode
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or round(acc, 5) > round(best_acc, 5):
            best_acc = acc
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="@torch.enable_grad() on fit, a snapshot every epoch (r16 c09)",
        expect="每个 epoch 都存了一份快照",
        code="""@torch.enable_grad()  # fit trains: keep autograd on even if a caller calls it inside no_grad()
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    snapshots = []
    best_acc = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        snapshots.append(copy.deepcopy(model.state_dict()))  # every epoch kept
        if best_acc is None or acc > best_acc:
            best_acc = acc
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(snapshots[history["best_epoch"] - 1])
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="@torch.enable_grad() on fit, a minimum improvement of 1e-5 (r16 c10)",
        expect="高出再少也是严格更好",
        code="""@torch.enable_grad()  # fit trains: keep autograd on even if a caller calls it inside no_grad()
def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    best_acc = None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or acc > best_acc + 1e-5:
            best_acc = acc
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
    dict(
        grade_id="test_fit",
        name="@torch.enable_grad() on fit, progress printed after the last epoch (r16 c11)",
        expect="进度攒到后面才打印",
        code="""@torch.enable_grad()  # fit trains: autograd on even inside a caller's no_grad()
def fit(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    loss_fn: nn.Module,
    train_loader,
    x_val: torch.Tensor,
    y_val: torch.Tensor,
    epochs: int,
    max_norm: float,
    scheduler=None,
) -> dict:
    '''训练 epochs 个 epoch，每个 epoch 在 (x_val (M, ...), y_val (M,)) 上评估；返回 history，model 恢复成验证准确率最高时的权重。'''
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state = None
    lines = []  # printed together at the end: a tidy table
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()  # 这个 epoch 唯一一次读 loss
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        history["val_acc"].append(evaluate(model, x_val, y_val, 1000))
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_state is None or history["val_acc"][-1] > max(history["val_acc"][:-1]):
            best_state = copy.deepcopy(model.state_dict())
            history["best_epoch"] = epoch
        lines.append(
            f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {history['val_acc'][-1]:.4f}"
            f"  ({history['epoch_seconds'][-1]:.2f} s)"
        )
    print(*lines, sep=chr(10))
    model.load_state_dict(best_state)
    return history
""",
    ),
]


# round 16 c12: a candidate copy before evaluate, promoted only when strictly better: two copies at most, whatever the epochs
CORRECT += [
    dict(
        grade_id="test_fit",
        name="candidate deep copy before evaluate, kept only when better (r16 c12)",
        code="""def fit(model, optimizer, loss_fn, train_loader, x_val, y_val, epochs, max_norm, scheduler=None):
    history = {"batch_loss": [], "train_loss": [], "val_acc": [], "epoch_seconds": [], "best_epoch": 0}
    best_state, best_acc = None, None
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_one_epoch(model, optimizer, loss_fn, train_loader, max_norm, scheduler).tolist()
        history["batch_loss"] += losses
        history["train_loss"].append(sum(losses) / len(losses))
        candidate = copy.deepcopy(model.state_dict())  # this epoch's weights, kept only if they are the best
        acc = evaluate(model, x_val, y_val, 1000)
        history["val_acc"].append(acc)
        history["epoch_seconds"].append(time.perf_counter() - start)
        if best_acc is None or acc > best_acc:
            best_acc, best_state = acc, candidate
            history["best_epoch"] = epoch
        del candidate
        print(f"epoch {epoch}: train loss {history['train_loss'][-1]:.4f}  val acc {acc:.4f}")
    model.load_state_dict(best_state)
    return history
""",
    ),
]
