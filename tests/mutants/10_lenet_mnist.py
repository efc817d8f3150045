"""Wrong answers learners write for 10_lenet_mnist; each must fail its test cell with the message named."""

_LENET_NO_PADDING = """
def build_lenet():
    return nn.Sequential(
        nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear({flat}, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10),
    )
"""

_LENET = """
def build_lenet():
    return nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2), {act}, nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), {act}, nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(400, 120), {act}, nn.Linear(120, 84), {act}, nn.Linear(84, 10),{tail}
    )
"""

_LENET_FUNCTIONAL_SOFTMAX = """
class _LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10),
        )

    def forward(self, x):
        return torch.softmax(self.body(x), dim=1)


def build_lenet():
    return _LeNet()
"""


def _train_step(body: str) -> str:
    return "def train_step(model, x, y, optimizer, loss_fn, max_norm):\n" + "".join(
        f"    {line}\n" for line in body.strip().splitlines()
    )


_STEP_OK = """
model.train()
optimizer.zero_grad(set_to_none=True)
loss = loss_fn(model(x), y)
loss.backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
optimizer.step()
return loss.detach()
"""


def _evaluate(body: str) -> str:
    return "def evaluate(model, x, y, batch_size):\n" + "".join(f"    {line}\n" for line in body.strip().splitlines())


MUTANTS = [
    # build_lenet
    dict(
        grade_id="test_build_lenet",
        name="no padding on 28x28 input",
        expect="padding=2",
        code=_LENET_NO_PADDING.format(flat=400),
    ),
    dict(
        grade_id="test_build_lenet",
        name="no padding, first Linear patched to 256 inputs",
        expect="padding=2",
        code=_LENET_NO_PADDING.format(flat=256),
    ),
    dict(
        grade_id="test_build_lenet",
        name="Sigmoid instead of ReLU",
        expect="Sigmoid",
        code=_LENET.format(act="nn.Sigmoid()", tail=""),
    ),
    dict(
        grade_id="test_build_lenet",
        name="softmax as last layer",
        expect="softmax",
        code=_LENET.format(act="nn.ReLU()", tail=" nn.Softmax(dim=1),"),
    ),
    dict(
        grade_id="test_build_lenet", name="softmax in a custom forward", expect="logits", code=_LENET_FUNCTIONAL_SOFTMAX
    ),
    dict(
        grade_id="test_build_lenet",
        name="returns the same model every call",
        expect="新建",
        code="_SHARED = build_lenet()\ndef build_lenet():\n    return _SHARED\n",
    ),
    # train_step
    dict(
        grade_id="test_train_step",
        name="missing zero_grad",
        expect="zero_grad",
        code=_train_step(_STEP_OK.replace("optimizer.zero_grad(set_to_none=True)\n", "")),
    ),
    dict(
        grade_id="test_train_step",
        name="softmax before CrossEntropyLoss",
        expect="softmax",
        code=_train_step(_STEP_OK.replace("loss_fn(model(x), y)", "loss_fn(model(x).softmax(dim=1), y)")),
    ),
    dict(
        grade_id="test_train_step",
        name="clipping after step",
        expect="optimizer.step() 之后",
        code=_train_step("""
model.train()
optimizer.zero_grad(set_to_none=True)
loss = loss_fn(model(x), y)
loss.backward()
optimizer.step()
torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
return loss.detach()
"""),
    ),
    dict(
        grade_id="test_train_step",
        name="clipping before backward",
        expect="backward() 之后、step() 之前",
        code=_train_step("""
model.train()
optimizer.zero_grad(set_to_none=True)
loss = loss_fn(model(x), y)
torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
loss.backward()
optimizer.step()
return loss.detach()
"""),
    ),
    dict(
        grade_id="test_train_step",
        name="float labels",
        expect="torch.long",
        code=_train_step(_STEP_OK.replace("loss_fn(model(x), y)", "loss_fn(model(x), y.float())")),
    ),
    dict(
        grade_id="test_train_step",
        name="returns loss.item()",
        expect=".item()",
        code=_train_step(_STEP_OK.replace("return loss.detach()", "return loss.item()")),
    ),
    dict(
        grade_id="test_train_step",
        name="returns the loss still attached to the graph",
        expect="detach()",
        code=_train_step(_STEP_OK.replace("return loss.detach()", "return loss")),
    ),
    dict(
        grade_id="test_train_step",
        name="never switches back to train()",
        expect="model.train()",
        code=_train_step(_STEP_OK.replace("model.train()\n", "")),
    ),
    dict(
        grade_id="test_train_step",
        name="zero_grad(set_to_none=False)",
        expect="set_to_none=True",
        code=_train_step(_STEP_OK.replace("set_to_none=True", "set_to_none=False")),
    ),
    # evaluate
    dict(
        grade_id="test_evaluate",
        name="missing model.eval()",
        expect="model.eval()",
        code=_evaluate("""
correct = 0
with torch.inference_mode():
    for i in range(0, x.shape[0], batch_size):
        correct += (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).sum().item()
return correct / y.shape[0]
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name="no inference_mode / no_grad",
        expect="inference_mode",
        code=_evaluate("""
model.eval()
correct = 0
for i in range(0, x.shape[0], batch_size):
    correct += (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).sum().item()
return correct / y.shape[0]
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name="accuracy of the last batch only",
        expect="最后一个 batch",
        code=_evaluate("""
model.eval()
with torch.inference_mode():
    for i in range(0, x.shape[0], batch_size):
        acc = (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).float().mean().item()
return acc
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name="mean of per-batch accuracies",
        expect="等权平均",
        code=_evaluate("""
model.eval()
accs = []
with torch.inference_mode():
    for i in range(0, x.shape[0], batch_size):
        accs.append((model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).float().mean().item())
return sum(accs) / len(accs)
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name="returns a tensor instead of a Python float",
        expect="Python 数字",
        code=_evaluate("""
model.eval()
correct = torch.zeros((), dtype=torch.long)
with torch.inference_mode():
    for i in range(0, x.shape[0], batch_size):
        correct += (model(x[i:i + batch_size]).argmax(dim=1) == y[i:i + batch_size]).sum()
return correct / y.shape[0]
"""),
    ),
    dict(
        grade_id="test_evaluate",
        name="ignores batch_size (one forward over everything)",
        expect="batch 大小",
        code=_evaluate("""
model.eval()
with torch.inference_mode():
    return (model(x).argmax(dim=1) == y).float().mean().item()
"""),
    ),
    # final accuracy (the trained model from the training cell)
    dict(
        grade_id="test_final_accuracy",
        name="re-ran build_lenet() after training",
        expect="随机猜测",
        code="torch.manual_seed(1)\nmodel = build_lenet().to(device)\n",
    ),
    dict(
        grade_id="test_final_accuracy",
        name="softmax appended to the trained model",
        expect="logits",
        code="model = nn.Sequential(model, nn.Softmax(dim=1))\n",
    ),
    dict(
        grade_id="test_final_accuracy",
        name="trained on the first batch only",
        expect="低于阈值",
        code="""
torch.manual_seed(2)
model = build_lenet().to(device)
_opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for _ in range(10):
    train_step(model, x_train[:128], y_train[:128], _opt, nn.CrossEntropyLoss(), 1.0)
""",
    ),
]
